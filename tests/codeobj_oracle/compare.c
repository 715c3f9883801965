/*
 * tests/codeobj_oracle/compare.c — rdx's kernel descriptor and metadata against
 * clang-19's, field by field, with the documented differences as rules, and the
 * registers a program reads before writing them (its hardware-initialised inputs).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "codegen/cg.h"
#include "tests/codeobj_oracle/cor_test.h"

/* How a field may differ (docs/codegen-backend.md, "Code object vs clang"). */
typedef enum {
    R_EQ,         /* must be equal */
    R_LAYOUT,     /* ELF layout (entry offset): checked by tests/codeobj */
    R_VGPR,       /* each side is the wave32 granule formula of its own .vgpr_count */
    R_SGPR_RSV,   /* reserved on gfx10+: rdx writes 0, clang a count the hardware ignores */
    R_IEEE,       /* rdx 0 by design (the evaluator's fmax/fmin), clang 1 */
    R_NONZERO,    /* both zero or both non-zero (scratch: spills vs a private array) */
    R_KERNARG_AL, /* rdx rounds the segment up to its 8-byte alignment */
} rule;

static const struct {
    const char *field;
    rule r;
} rules[] = {
    { "kernel_code_entry_byte_offset", R_LAYOUT },     { "granulated_workitem_vgpr_count", R_VGPR },
    { "granulated_wavefront_sgpr_count", R_SGPR_RSV }, { "enable_ieee_mode", R_IEEE },
    { "private_segment_fixed_size", R_NONZERO },       { "kernarg_size", R_KERNARG_AL },
};

static rule rule_of(const char *field)
{
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (!strcmp(rules[i].field, field))
            return rules[i].r;
    return R_EQ;
}

typedef struct {
    char *log;
    size_t cap, len;
    int bad;
} report;

static void note(report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(report *r, const char *fmt, ...)
{
    r->bad++;
    if (r->len + 1 >= r->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(r->log + r->len, r->cap - r->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        r->len += (size_t)n < r->cap - r->len ? (size_t)n : r->cap - r->len - 1;
}

static uint32_t roundup(uint32_t v, uint32_t a)
{
    return (v + a - 1) / a * a;
}

/* one descriptor field under its rule */
static void field(report *r, const char *name, uint32_t x, uint32_t c, const rdx_codeobj_kernel *rk,
                  const rdx_codeobj_kernel *ck)
{
    switch (rule_of(name)) {
    case R_EQ:
        if (x != c)
            note(r, "%s: rdx %u, clang %u\n", name, x, c);
        break;
    case R_LAYOUT:
        break;
    case R_VGPR:
        /* the encoding granule is 8 VGPRs in wave32 on gfx11 (AMDGPUUsage): both sides
           must follow it from their own register counts */
        if (x != rdx_codeobj_vgpr_granules(11, true, rk->meta.vgpr_count) ||
            c != rdx_codeobj_vgpr_granules(11, true, ck->meta.vgpr_count) ||
            x != (roundup(rk->meta.vgpr_count ? rk->meta.vgpr_count : 1, 8) / 8 - 1))
            note(r, "%s: rdx %u for %u VGPRs, clang %u for %u VGPRs\n", name, x,
                 rk->meta.vgpr_count, c, ck->meta.vgpr_count);
        break;
    case R_SGPR_RSV:
        if (x != 0)
            note(r, "%s: rdx %u, expected 0 (reserved on gfx10+)\n", name, x);
        break;
    case R_IEEE:
        if (x != 0 || c != 1)
            note(r, "%s: rdx %u (expected 0), clang %u (expected 1)\n", name, x, c);
        break;
    case R_NONZERO:
        if ((x != 0) != (c != 0))
            note(r, "%s: rdx %u, clang %u (one has scratch, the other not)\n", name, x, c);
        break;
    case R_KERNARG_AL:
        if (x != roundup(c, 8))
            note(r, "%s: rdx %u, clang %u (expected clang's rounded up to 8)\n", name, x, c);
        break;
    }
}

static int streq(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

int cor_compare(const rdx_codeobj_kernel *rk, const rdx_codeobj_kernel *ck, char *log,
                size_t logcap)
{
    report r = { .log = log, .cap = logcap, .len = 0, .bad = 0 };
    if (logcap)
        log[0] = 0;
    /* every bit field of the gfx11 layout, then the plain members and reserved bits */
    for (size_t i = 0; i < rdx_codeobj_kd_field_count(); i++) {
        const rdx_kd_field *f = rdx_codeobj_kd_field_at(i);
        if (f->min_major > 11 || f->max_major < 11)
            continue;
        field(&r, f->name, rdx_codeobj_kd_get(&rk->kd, f), rdx_codeobj_kd_get(&ck->kd, f), rk, ck);
    }
    field(&r, "group_segment_fixed_size", rk->kd.group_segment_fixed_size,
          ck->kd.group_segment_fixed_size, rk, ck);
    field(&r, "private_segment_fixed_size", rk->kd.private_segment_fixed_size,
          ck->kd.private_segment_fixed_size, rk, ck);
    field(&r, "kernarg_size", rk->kd.kernarg_size, ck->kd.kernarg_size, rk, ck);
    field(&r, "rsrc1_reserved", rk->kd.rsrc1_reserved, ck->kd.rsrc1_reserved, rk, ck);
    field(&r, "rsrc2_reserved", rk->kd.rsrc2_reserved, ck->kd.rsrc2_reserved, rk, ck);
    field(&r, "rsrc3_reserved", rk->kd.rsrc3_reserved, ck->kd.rsrc3_reserved, rk, ck);
    field(&r, "kernel_code_properties_reserved", rk->kd.kernel_code_properties_reserved,
          ck->kd.kernel_code_properties_reserved, rk, ck);
    if (memcmp(rk->kd.reserved0, ck->kd.reserved0, sizeof rk->kd.reserved0) ||
        memcmp(rk->kd.reserved1, ck->kd.reserved1, sizeof rk->kd.reserved1) ||
        memcmp(rk->kd.reserved3, ck->kd.reserved3, sizeof rk->kd.reserved3))
        note(&r, "reserved descriptor bytes differ\n");

    /* metadata the runtime (and ROCm's loader) reads */
    const rdx_codeobj_kernel_meta *x = &rk->meta, *c = &ck->meta;
    if (!rk->has_meta || !ck->has_meta) {
        note(&r, "metadata missing (rdx %d, clang %d)\n", rk->has_meta, ck->has_meta);
        return r.bad;
    }
    if (x->num_args != c->num_args)
        note(&r, ".args: rdx %zu, clang %zu\n", x->num_args, c->num_args);
    for (size_t a = 0; a < x->num_args && a < c->num_args; a++) {
        const rdx_codeobj_arg *p = &x->args[a], *q = &c->args[a];
        if (p->offset != q->offset || p->size != q->size || !streq(p->value_kind, q->value_kind) ||
            !streq(p->address_space, q->address_space))
            note(&r, ".args[%zu]: rdx %s %s offset %u size %u, clang %s %s offset %u size %u\n", a,
                 p->value_kind ? p->value_kind : "-", p->address_space ? p->address_space : "-",
                 p->offset, p->size, q->value_kind ? q->value_kind : "-",
                 q->address_space ? q->address_space : "-", q->offset, q->size);
    }
#define MEQ(m)                                                                             \
    do {                                                                                   \
        if (x->m != c->m)                                                                  \
            note(&r, "." #m ": rdx %lld, clang %lld\n", (long long)x->m, (long long)c->m); \
    } while (0)
    MEQ(group_segment_fixed_size);
    MEQ(kernarg_segment_align);
    MEQ(wavefront_size);
    MEQ(agpr_count);
    MEQ(max_flat_workgroup_size);
    MEQ(reqd_workgroup_size[0]);
    MEQ(reqd_workgroup_size[1]);
    MEQ(reqd_workgroup_size[2]);
    MEQ(uses_dynamic_stack);
    MEQ(workgroup_processor_mode);
    MEQ(uniform_work_group_size);
#undef MEQ
    if (x->kernarg_segment_size != roundup(c->kernarg_segment_size, 8))
        note(&r, ".kernarg_segment_size: rdx %u, clang %u\n", x->kernarg_segment_size,
             c->kernarg_segment_size);
    if ((x->private_segment_fixed_size != 0) != (c->private_segment_fixed_size != 0))
        note(&r, ".private_segment_fixed_size: rdx %u, clang %u\n", x->private_segment_fixed_size,
             c->private_segment_fixed_size);
    /* the metadata repeats the descriptor */
    if (x->group_segment_fixed_size != rk->kd.group_segment_fixed_size ||
        x->private_segment_fixed_size != rk->kd.private_segment_fixed_size ||
        x->kernarg_segment_size != rk->kd.kernarg_size)
        note(&r, "rdx metadata disagrees with its descriptor\n");
    /* .sgpr_count: clang counts VCC too; both cover the 16 user + system SGPRs */
    uint32_t sys = rk->kd.enable_sgpr_workgroup_id_x + rk->kd.enable_sgpr_workgroup_id_y +
                   rk->kd.enable_sgpr_workgroup_id_z;
    if (x->sgpr_count < rk->kd.user_sgpr_count + sys || x->sgpr_count > 106)
        note(&r, ".sgpr_count: rdx %u below its %u user + system SGPRs or above 106\n",
             x->sgpr_count, rk->kd.user_sgpr_count + sys);
    return r.bad;
}

void cor_live_in(const uint8_t *code, size_t size, cor_inputs *in)
{
    const rdx_isa_target *t = rdx_isa_target_find("gfx1100");
    uint64_t written[8] = { 0 }; /* by hardware unit: s0..s127 at 0, v0..v255 at 256 */
    memset(in, 0, sizeof *in);
    for (size_t off = 0; off < size;) {
        rdx_isa_inst inst;
        size_t len;
        if (rdx_isa_decode(t, code + off, size - off, &inst, &len))
            break;
        cg_hw h;
        cg_hw_classify(t, &inst, &h);
        for (unsigned u = 0; u < h.nuse; u++) {
            unsigned x = h.use[u];
            if (written[x / 64] >> (x % 64) & 1)
                continue;
            if (x < 106)
                in->sgprs[x / 64] |= 1ull << (x % 64);
            else if (x >= 256 && x < 512)
                in->vgprs[(x - 256) / 64] |= 1ull << ((x - 256) % 64);
        }
        for (unsigned d = 0; d < h.ndef; d++)
            written[h.def[d] / 64] |= 1ull << (h.def[d] % 64);
        off += len;
        if (inst.op == RDX_ISA_OP_S_ENDPGM)
            break;
    }
}
