/*
 * codegen/backend.c — the back end's entry points: the pipeline isel →
 * linearize → regalloc (with spilling) → VOPD → hazards → s_delay_alu → render
 * in a straight line, launch geometry and kernarg packing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codegen.h>

#include "codegen/cg.h"
#include "util/error.h"

static const char *const stage_names[] = {
#define RDX_CG_STAGE_NAME_(n, s) s,
    RDX_CG_STAGE_LIST(RDX_CG_STAGE_NAME_)
#undef RDX_CG_STAGE_NAME_
};

const char *rdx_codegen_stage_name(rdx_codegen_stage s)
{
    return (unsigned)s < RDX_CG_STAGE_COUNT ? stage_names[s] : "?";
}

int rdx_codegen_stage_find(const char *name)
{
    for (int i = 0; i < RDX_CG_STAGE_COUNT; i++)
        if (!strcmp(stage_names[i], name))
            return i;
    return -1;
}

void rdx_codegen_kernel_free(rdx_codegen_kernel *k)
{
    if (!k)
        return;
    free(k->code_object);
    free(k->args);
    for (int i = 0; i < RDX_CG_STAGE_COUNT; i++)
        free(k->stage_text[i]);
    free(k->lines);
    free(k);
}

/* k->lines: every block's label and its instructions decoded from the code as encoded (the
   form render chose), a branch's operand its target block. */
static rdx_status keep_lines(const cg_prog *p, rdx_codegen_kernel *k, const uint8_t *code,
                             size_t size)
{
    size_t n = p->nblocks, at = 0;
    for (size_t b = 0; b < p->nblocks; b++)
        n += p->blocks[b].n;
    if (!(k->lines = calloc(n + 1, sizeof *k->lines)))
        return rdx_fail(RDX_ERR_NOMEM, "codegen: out of memory");
    for (size_t b = 0; b < p->nblocks; b++) {
        k->lines[k->nlines++].label = (int32_t)b;
        for (size_t i = 0; i < p->blocks[b].n; i++) {
            const cg_inst *in = &p->blocks[b].insts[i];
            rdx_codegen_line *l = &k->lines[k->nlines++];
            size_t len;
            l->label = -1;
            rdx_status st = rdx_isa_decode(p->tgt, code + at, size - at, &l->inst, &len);
            if (st)
                return rdx_fail_context(st, "codegen: decoding its own instruction at %zu", at);
            at += len;
            for (int o = 0; (in->flags & CG_F_BRANCH) && o < l->inst.nopnd; o++)
                if (l->inst.opnd[o].kind == RDX_ISA_OPND_BRANCH)
                    l->inst.opnd[o].value = in->target;
        }
    }
    return RDX_OK;
}

static rdx_status keep(const cg_prog *p, rdx_codegen_kernel *k, unsigned mask, rdx_codegen_stage s,
                       int physical)
{
    if (!(mask & (1u << s)))
        return RDX_OK;
    return cg_print(p, physical, &k->stage_text[s]);
}

rdx_status rdx_codegen_compile(rdx_ir_ctx *ctx, const rdx_uop *sink,
                               const rdx_codegen_options *opts, rdx_codegen_kernel **out)
{
    rdx_codegen_options o;
    memset(&o, 0, sizeof o);
    if (opts)
        o = *opts;
    const char *tname = o.target ? o.target : "gfx1100";
    const cg_target *ct = cg_target_find(tname);
    const rdx_isa_target *t = ct ? rdx_isa_target_find(ct->name) : NULL;
    if (!ct || !t)
        return rdx_fail(RDX_ERR_UNSUPPORTED, "codegen: target '%s': expected one of %s", tname,
                        rdx_codegen_target_list());
    rdx_codegen_kernel *k = calloc(1, sizeof *k);
    if (!k)
        return rdx_fail(RDX_ERR_NOMEM, "codegen: out of memory");
    snprintf(k->target, sizeof k->target, "%s", ct->name);
    cg_prog p;
    cg_prog_init(&p, t);
    uint8_t *code = NULL;
    size_t code_size = 0;
    unsigned m = o.keep_stages;
    rdx_status st = cg_isel(ctx, sink, &o, &p, k);
    if (!st)
        cg_merge_loads(&p);
    if (!st)
        cg_pack_f16(&p);
    if (!st)
        cg_interleave(&p);
    if (!st)
        st = cg_linearize(&p);
    if (!st)
        st = keep(&p, k, m, RDX_CG_STAGE_ISEL, 0);
    if (!st)
        st = keep(&p, k, m, RDX_CG_STAGE_LINEAR, 0);
    if (!st)
        st = cg_regalloc(&p);
    if (!st)
        st = keep(&p, k, m, RDX_CG_STAGE_REGALLOC, 1);
    if (!st)
        cg_inline_constants(&p);
    if (!st && !o.no_vopd)
        cg_vopd(&p);
    /* the target's wait states, then the s_delay_alu stall hints (they see the inserted
       ones) */
    if (!st)
        st = cg_hazards_delay_alu(&p);
    if (!st)
        st = cg_long_branches(&p);
    if (!st)
        st = cg_encode(&p, &code, &code_size);
    if (!st)
        st = cg_render(&p, k, o.name ? o.name : "kernel", code, code_size);
    if (!st && (m & (1u << RDX_CG_STAGE_ASM)))
        st = cg_print(&p, 1, &k->stage_text[RDX_CG_STAGE_ASM]);
    if (!st && (m & (1u << RDX_CG_STAGE_ASM)))
        st = keep_lines(&p, k, code, code_size);
    if (!st) {
        snprintf(k->symbol, sizeof k->symbol, "%s", o.name ? o.name : "kernel");
        k->num_sgprs = p.num_sgprs;
        k->num_vgprs = p.num_vgprs;
        k->code_size = (uint32_t)code_size;
    }
    free(code);
    cg_prog_free(&p);
    if (st) {
        rdx_codegen_kernel_free(k);
        return st;
    }
    *out = k;
    return RDX_OK;
}

rdx_status rdx_codegen_launch(const rdx_codegen_kernel *k, const int64_t *vals, size_t nvals,
                              uint32_t grid[3], uint32_t wg[3])
{
    const rdx_uop *leaves[64];
    rdx_value lv[64];
    size_t nv = 0;
    for (size_t a = 0; a < k->nargs; a++)
        if (k->args[a].kind == RDX_CG_ARG_VAR) {
            if (nv >= 64 || nv >= nvals)
                return rdx_fail(RDX_ERR_INVALID,
                                "codegen launch: %zu variable values given, the "
                                "kernel has more",
                                nvals);
            leaves[nv] = k->args[a].node;
            lv[nv].i = vals[nv];
            lv[nv].f = 0;
            nv++;
        }
    if (nv != nvals)
        return rdx_fail(RDX_ERR_INVALID,
                        "codegen launch: %zu variable values given, the kernel has %zu", nvals, nv);
    for (int d = 0; d < 3; d++) {
        grid[d] = 1, wg[d] = 1;
        if ((unsigned)d >= k->ndims || !k->dims[d].grid)
            continue;
        rdx_value r;
        rdx_status st = rdx_ir_eval(k->dims[d].grid, leaves, lv, nv, &r);
        if (st)
            return rdx_fail_context(st, "codegen launch: grid of dimension %d", d);
        if (r.i < 1 || r.i > (int64_t)UINT32_MAX)
            return rdx_fail(RDX_ERR_INVALID, "codegen launch: grid size %lld in dimension %d",
                            (long long)r.i, d);
        grid[d] = (uint32_t)r.i;
        wg[d] = k->dims[d].wg ? k->dims[d].wg : 1;
    }
    return RDX_OK;
}

void rdx_codegen_pack_args(const rdx_codegen_kernel *k, const uint64_t *ptrs,
                           const uint64_t *values, const int64_t *vals, void *out)
{
    uint8_t *o = out;
    memset(o, 0, k->kernarg_size);
    size_t nv = 0;
    for (size_t a = 0; a < k->nargs; a++) {
        const rdx_codegen_arg *ar = &k->args[a];
        uint64_t v = ar->kind == RDX_CG_ARG_BUFFER  ? ptrs[ar->slot]
                     : ar->kind == RDX_CG_ARG_VALUE ? values[ar->slot]
                                                    : (uint64_t)vals[nv++];
        memcpy(o + ar->offset, &v, ar->size); /* little-endian low bytes */
    }
}

rdx_status rdx_codegen_program(rdx_ir_ctx *ctx, const rdx_uop *sink, const rdx_codegen_kernel *k,
                               const rdx_uop **out)
{
    if (!k->lines)
        return rdx_fail(RDX_ERR_INVALID, "codegen program: the kernel was compiled without "
                                         "keep_stages & (1 << RDX_CG_STAGE_ASM)");
    const rdx_uop **ins = malloc((k->nlines + 1) * sizeof *ins);
    if (!ins)
        return rdx_fail(RDX_ERR_NOMEM, "codegen program: out of memory");
    rdx_status st = RDX_OK;
    for (size_t i = 0; i < k->nlines && !st; i++) {
        const rdx_codegen_line *l = &k->lines[i];
        rdx_uop_arg a = l->label >= 0 ? rdx_uop_arg_label(l->label) : rdx_uop_arg_ins(&l->inst);
        st = rdx_ir_make(ctx, RDX_OP_INS, NULL, 0, &a, (int32_t)i, &ins[i]);
    }
    const rdx_uop *lin = NULL, *bin = NULL;
    if (!st)
        st = rdx_ir_make(ctx, RDX_OP_LINEAR, ins, k->nlines, NULL, 0, &lin);
    if (!st) {
        rdx_uop_arg a = rdx_uop_arg_none();
        a.str = rdx_ir_str(ctx, (const char *)k->code_object, k->code_object_size);
        a.len = (uint32_t)k->code_object_size;
        st = a.str ? rdx_ir_make(ctx, RDX_OP_BINARY, NULL, 0, &a, 0, &bin) : RDX_ERR_NOMEM;
    }
    if (!st) {
        const rdx_uop *src[3] = { sink, lin, bin };
        st = rdx_ir_make(ctx, RDX_OP_PROGRAM, src, 3, NULL, 0, out);
    }
    free(ins);
    return st;
}
