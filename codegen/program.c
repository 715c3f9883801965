/*
 * codegen/program.c — a PROGRAM as a runnable kernel: PROGRAM(sink, LINEAR(INS ...)
 * [, BINARY]).  The sink gives the signature (its PARAMs: global buffers, kernarg
 * slot k at byte 8k) and the launch (SPECIAL gidxN / lidxN bounds, DEFINE_LOCAL
 * bytes); the code is the BINARY (a code object: its descriptor is checked against
 * the signature) or, without one, the LINEAR assembled with the back end's own
 * encoder and descriptor writer (render.c), in the ABI the back end uses.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codegen.h>
#include <rdx/codeobj.h>

#include "codegen/cg.h"
#include "util/error.h"

#define MAX_PARAMS 64

typedef struct psig {
    const rdx_uop *prog;
    const rdx_uop *param[MAX_PARAMS];
    size_t nparams;
    const rdx_uop *g[3], *l[3]; /* SPECIAL gidxN / lidxN */
    uint32_t lds;
} psig;

static rdx_status perr(const rdx_uop *prog, rdx_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static rdx_status perr(const rdx_uop *prog, rdx_status st, const char *fmt, ...)
{
    char m[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    return rdx_fail(st, "PROGRAM node #%u: %s", prog ? prog->id : 0, m);
}

/* The signature and launch from the sink's graph. */
static rdx_status signature(const rdx_uop *prog, psig *s)
{
    const rdx_uop **order = NULL;
    size_t n = 0;
    rdx_status st = rdx_ir_toposort(prog->src[0], &order, &n);
    if (st)
        return st;
    for (size_t i = 0; i < n && !st; i++) {
        const rdx_uop *u = order[i];
        if (u->op == RDX_OP_PARAM) {
            if (u->addrspace != RDX_ADDR_GLOBAL)
                st = perr(prog, RDX_ERR_UNSUPPORTED,
                          "PARAM node #%u (slot %lld): only global buffers are arguments of a "
                          "PROGRAM",
                          u->id, (long long)u->arg.i);
            else if (u->arg.i < 0 || u->arg.i >= MAX_PARAMS || s->param[u->arg.i])
                st = perr(prog, RDX_ERR_INVALID,
                          "PARAM node #%u: slot %lld is out of 0..%d or given twice", u->id,
                          (long long)u->arg.i, MAX_PARAMS - 1);
            else {
                s->param[u->arg.i] = u;
                if ((size_t)u->arg.i + 1 > s->nparams)
                    s->nparams = (size_t)u->arg.i + 1;
            }
        } else if (u->op == RDX_OP_RANGE &&
                   (u->arg.sub == RDX_AXIS_GLOBAL || u->arg.sub == RDX_AXIS_LOCAL)) {
            st = perr(prog, RDX_ERR_UNSUPPORTED,
                      "RANGE node #%u is a %s axis: its launch would be the back end's choice; a "
                      "PROGRAM states its launch with SPECIAL gidxN / lidxN",
                      u->id, rdx_axistype_name((rdx_axistype)u->arg.sub));
        } else if (u->op == RDX_OP_DEFINE_VAR) {
            st = perr(prog, RDX_ERR_UNSUPPORTED,
                      "DEFINE_VAR node #%u ('%s'): a PROGRAM's launch is fixed (no variables)",
                      u->id, u->arg.str);
        } else if (u->op == RDX_OP_DEFINE_LOCAL) {
            int64_t ne = 1, d;
            for (uint32_t k = 0; k < u->ndim; k++)
                ne = rdx_uop_dim(u, k, &d) ? ne * d : -1;
            if (ne < 0)
                st = perr(prog, RDX_ERR_UNSUPPORTED, "DEFINE_LOCAL node #%u: symbolic size", u->id);
            else
                s->lds += (uint32_t)(ne * (int64_t)rdx_dtype_itemsize(u->arg.dtype));
        } else if (u->op == RDX_OP_SPECIAL) {
            const char *nm = u->arg.str;
            int lidx = !strncmp(nm, "lidx", 4), gidx = !strncmp(nm, "gidx", 4);
            int d = (lidx || gidx) && nm[4] >= '0' && nm[4] <= '2' && !nm[5] ? nm[4] - '0' : -1;
            if (d >= 0 && (lidx ? s->l : s->g)[d] && (lidx ? s->l : s->g)[d] != u) {
                st = perr(prog, RDX_ERR_INVALID, "SPECIAL node #%u: a second '%s'", u->id, nm);
                break;
            }
            int64_t c;
            if (d < 0)
                st = perr(prog, RDX_ERR_UNSUPPORTED,
                          "SPECIAL node #%u '%s': a PROGRAM launches by gidx0..2 (workgroups) and "
                          "lidx0..2 (work-items per workgroup)",
                          u->id, nm);
            else if (!rdx_uop_const_int(u->src[0], &c) || c < 1 || (lidx && c > 1024))
                st = perr(prog, RDX_ERR_INVALID,
                          "SPECIAL node #%u '%s': the bound must be a CONST in 1..%s", u->id, nm,
                          lidx ? "1024" : "2^31");
            else
                (lidx ? s->l : s->g)[d] = u;
        }
    }
    for (size_t k = 0; k < s->nparams && !st; k++)
        if (!s->param[k])
            st = perr(prog, RDX_ERR_INVALID, "no PARAM of slot %zu (slots are 0..%zu)", k,
                      s->nparams - 1);
    free(order);
    return st;
}

/* k's arguments and dims from the signature. */
static rdx_status fill_kernel(rdx_ir_ctx *ctx, const psig *s, rdx_codegen_kernel *k)
{
    k->args = calloc(s->nparams + 1, sizeof *k->args);
    if (!k->args)
        return rdx_fail(RDX_ERR_NOMEM, "PROGRAM: out of memory");
    for (size_t i = 0; i < s->nparams; i++) {
        rdx_codegen_arg *a = &k->args[i];
        a->kind = RDX_CG_ARG_BUFFER;
        a->slot = (int64_t)i;
        a->dtype = s->param[i]->arg.dtype;
        a->offset = (uint32_t)(8 * i);
        a->size = 8;
        a->node = s->param[i];
    }
    k->nargs = s->nparams;
    k->kernarg_size = (uint32_t)(8 * s->nparams);
    k->lds_size = s->lds;
    k->ndims = 1;
    uint32_t wgt = 1;
    for (int d = 0; d < 3; d++) {
        int64_t g = 1, l = 1;
        if (s->g[d])
            rdx_uop_const_int(s->g[d]->src[0], &g);
        if (s->l[d])
            rdx_uop_const_int(s->l[d]->src[0], &l);
        if (s->g[d] || s->l[d])
            k->ndims = (unsigned)d + 1;
        k->dims[d].grid = rdx_ir_int(ctx, g * l);
        k->dims[d].wg = (uint32_t)l;
        wgt *= (uint32_t)l;
        if (!k->dims[d].grid)
            return RDX_ERR_NOMEM;
    }
    if (wgt > 1024)
        return perr(s->prog, RDX_ERR_INVALID, "a workgroup of %u work-items (max 1024)", wgt);
    return RDX_OK;
}

/* A foreign code object: one kernel whose descriptor agrees with the signature. */
static rdx_status from_binary(const psig *s, const rdx_uop *bin, rdx_codegen_kernel *k)
{
    rdx_codeobj *co = NULL;
    rdx_status st = rdx_codeobj_read(bin->arg.str, bin->arg.len, "PROGRAM's BINARY", &co);
    if (st)
        return rdx_fail_context(st, "PROGRAM node #%u: BINARY node #%u", s->prog->id, bin->id);
    const rdx_kernel_descriptor *kd = co->num_kernels == 1 ? &co->kernels[0].kd : NULL;
    if (!kd)
        st = perr(s->prog, RDX_ERR_INVALID, "BINARY node #%u holds %zu kernels (expected one)",
                  bin->id, co->num_kernels);
    else if (kd->kernarg_size < k->kernarg_size)
        st = perr(s->prog, RDX_ERR_INVALID,
                  "kernel descriptor of '%s' disagrees: kernarg segment of %u bytes, the sink's "
                  "%zu buffers need %u",
                  co->kernels[0].name, kd->kernarg_size, s->nparams, k->kernarg_size);
    else if (kd->group_segment_fixed_size < k->lds_size)
        st = perr(s->prog, RDX_ERR_INVALID,
                  "kernel descriptor of '%s' disagrees: %u bytes of LDS, the sink's DEFINE_LOCALs "
                  "need %u",
                  co->kernels[0].name, kd->group_segment_fixed_size, k->lds_size);
    else if (!kd->enable_wavefront_size32)
        st = perr(s->prog, RDX_ERR_UNSUPPORTED,
                  "kernel descriptor of '%s' disagrees: wave64 (rdx launches wave32)",
                  co->kernels[0].name);
    else if (!kd->enable_sgpr_kernarg_segment_ptr && k->nargs)
        st = perr(s->prog, RDX_ERR_INVALID,
                  "kernel descriptor of '%s' disagrees: no kernarg segment pointer, the sink has "
                  "%zu arguments",
                  co->kernels[0].name, k->nargs);
    for (int d = 1; d < 3 && !st; d++) {
        uint32_t en = d == 1 ? kd->enable_sgpr_workgroup_id_y : kd->enable_sgpr_workgroup_id_z;
        if (s->g[d] && !en)
            st = perr(s->prog, RDX_ERR_INVALID,
                      "kernel descriptor of '%s' disagrees: the sink launches gidx%d, the "
                      "workgroup id %c is not enabled",
                      co->kernels[0].name, d, "xyz"[d]);
        if (s->l[d] && kd->enable_vgpr_workitem_id < (uint32_t)d)
            st = perr(s->prog, RDX_ERR_INVALID,
                      "kernel descriptor of '%s' disagrees: the sink launches lidx%d, the "
                      "work-item id %c is not enabled",
                      co->kernels[0].name, d, "xyz"[d]);
    }
    if (!st) {
        snprintf(k->symbol, sizeof k->symbol, "%s", co->kernels[0].name);
        if (!(k->code_object = malloc(bin->arg.len)))
            st = rdx_fail(RDX_ERR_NOMEM, "PROGRAM: out of memory");
        else {
            memcpy(k->code_object, bin->arg.str, bin->arg.len);
            k->code_object_size = bin->arg.len;
            k->code_size = (uint32_t)co->kernels[0].code_size;
        }
    }
    rdx_codeobj_free(co);
    return st;
}

static void count_regs(cg_prog *p, const rdx_isa_opnd *o)
{
    uint32_t end = (uint32_t)o->reg + (o->count ? o->count : 1);
    if (o->kind == RDX_ISA_OPND_SGPR && end > p->num_sgprs)
        p->num_sgprs = end;
    if (o->kind == RDX_ISA_OPND_VGPR && end > p->num_vgprs)
        p->num_vgprs = end;
}

/* Assemble the LINEAR of INS (labels start blocks; branches name labels). */
static rdx_status from_linear(const psig *s, const rdx_uop *lin, const char *name,
                              rdx_codegen_kernel *k)
{
    const rdx_isa_target *t = rdx_isa_target_find("gfx1100");
    if (!t)
        return rdx_fail(RDX_ERR_UNSUPPORTED, "PROGRAM: gfx1100 is not in the ISA tables");
    cg_prog p;
    cg_prog_init(&p, t);
    int32_t *block_of = malloc(32768 * sizeof *block_of); /* label -> block */
    rdx_status st = block_of ? RDX_OK : rdx_fail(RDX_ERR_NOMEM, "PROGRAM: out of memory");
    uint8_t *code = NULL;
    size_t code_size = 0;
    if (block_of)
        for (size_t i = 0; i < 32768; i++)
            block_of[i] = -1;
    int cur = st ? -1 : cg_block_new(&p);
    if (!st && cur < 0)
        st = RDX_ERR_NOMEM;
    rdx_isa_inst last;
    memset(&last, 0, sizeof last);
    /* pass 1: blocks per label */
    for (uint32_t i = 0; i < lin->nsrc && !st; i++) {
        const rdx_uop *u = lin->src[i];
        int64_t lb = rdx_uop_ins_label(u);
        if (u->op != RDX_OP_INS)
            st = perr(s->prog, RDX_ERR_INVALID, "LINEAR source %u is %s node #%u, not an INS", i,
                      rdx_op_name((rdx_op)u->op), u->id);
        else if (lb >= 0 && block_of[lb] >= 0)
            st = perr(s->prog, RDX_ERR_INVALID, "INS node #%u: label bb%lld defined twice", u->id,
                      (long long)lb);
        else if (lb >= 0) {
            /* a new block, unless nothing was emitted since the last one began (labels in a
               row, or at the start, name the same place) */
            if (p.blocks[cur].n) {
                cur = cg_block_new(&p);
                if (cur < 0)
                    st = RDX_ERR_NOMEM;
            }
            if (!st)
                block_of[lb] = cur;
        } else {
            cg_inst ci;
            memset(&ci, 0, sizeof ci);
            rdx_uop_ins(u, &ci.in);
            ci.target = -1;
            for (int o = 0; o < ci.in.nopnd; o++) {
                count_regs(&p, &ci.in.opnd[o]);
                if (ci.in.opnd[o].kind == RDX_ISA_OPND_BRANCH)
                    ci.flags |= CG_F_BRANCH, ci.target = ci.in.opnd[o].value; /* label for now */
            }
            /* every instruction is encodable on its own (the error names the node) */
            uint8_t tmp[RDX_ISA_MAX_BYTES];
            size_t n;
            rdx_isa_inst x = ci.in;
            for (int o = 0; o < x.nopnd; o++)
                if (x.opnd[o].kind == RDX_ISA_OPND_BRANCH)
                    x.opnd[o].value = 0;
            char text[256];
            if (rdx_ins_format(&ci.in, text, sizeof text))
                snprintf(text, sizeof text, "%s", rdx_isa_op_name((rdx_isa_op)ci.in.op));
            if ((st = rdx_isa_encode_checked(t, &x, RDX_ISA_CHECK_VGPR_NUMBERS, tmp, &n))) {
                char m[512];
                snprintf(m, sizeof m, "%s", rdx_error_message());
                st =
                    perr(s->prog, st, "INS node #%u (LINEAR line %u, '%s'): %s", u->id, i, text, m);
            } else {
                st = cg_block_push(&p, cur, &ci);
                last = ci.in;
            }
        }
    }
    if (!st && last.op != RDX_ISA_OP_S_ENDPGM && last.op != RDX_ISA_OP_S_BRANCH)
        st = perr(s->prog, RDX_ERR_INVALID,
                  "the LINEAR does not end in s_endpgm or s_branch (the waves would run past "
                  "the code)");
    /* pass 2: branch targets as blocks */
    for (size_t b = 0; b < p.nblocks && !st; b++)
        for (size_t i = 0; i < p.blocks[b].n && !st; i++) {
            cg_inst *ci = &p.blocks[b].insts[i];
            if (!(ci->flags & CG_F_BRANCH))
                continue;
            if (block_of[ci->target] < 0)
                st = perr(s->prog, RDX_ERR_INVALID, "%s bb%d: no INS label=%d in the LINEAR",
                          rdx_isa_op_name((rdx_isa_op)ci->in.op), ci->target, ci->target);
            else
                ci->target = block_of[ci->target];
        }
    if (!st) {
        /* the ABI registers: s[0:1] the kernarg pointer, the workgroup ids up to s15 */
        if (p.num_sgprs < 16)
            p.num_sgprs = 16;
        if (!p.num_vgprs)
            p.num_vgprs = 1;
        p.lds_size = s->lds;
        p.wgid_enable[0] = 1;
        for (int d = 0; d < 3; d++) {
            if (s->g[d])
                p.wgid_enable[d] = 1;
            if (s->l[d])
                p.tid_dims = (uint32_t)d + 1;
        }
        p.wg_items = 1;
        for (int d = 0; d < 3; d++)
            p.wg_items *= k->dims[d].wg;
        if (p.num_vgprs > cg_max_vgprs(&p))
            st = perr(s->prog, RDX_ERR_RANGE,
                      "the LINEAR uses %u VGPRs, a workgroup of %u work-items allows %u",
                      p.num_vgprs, p.wg_items, cg_max_vgprs(&p));
    }
    if (!st)
        st = cg_encode(&p, &code, &code_size);
    if (!st)
        st = cg_render(&p, k, name, code, code_size);
    if (!st) {
        snprintf(k->symbol, sizeof k->symbol, "%s", name);
        k->num_sgprs = p.num_sgprs;
        k->num_vgprs = p.num_vgprs;
        k->code_size = (uint32_t)code_size;
    }
    free(code);
    free(block_of);
    cg_prog_free(&p);
    return st;
}

rdx_status rdx_codegen_program_kernel(rdx_ir_ctx *ctx, const rdx_uop *prog, const char *name,
                                      rdx_codegen_kernel **out)
{
    *out = NULL;
    if (!prog || prog->op != RDX_OP_PROGRAM)
        return rdx_fail(RDX_ERR_INVALID, "program kernel: node #%u is %s, not a PROGRAM",
                        prog ? prog->id : 0, prog ? rdx_op_name((rdx_op)prog->op) : "NULL");
    const rdx_uop *sink = prog->src[0], *lin = prog->src[1];
    const rdx_uop *bin = prog->nsrc > 2 ? prog->src[2] : NULL;
    if (sink->op != RDX_OP_SINK || lin->op != RDX_OP_LINEAR || (bin && bin->op != RDX_OP_BINARY))
        return perr(prog, RDX_ERR_INVALID,
                    "expected PROGRAM(SINK, LINEAR[, BINARY]), got PROGRAM(%s, %s%s%s)",
                    rdx_op_name((rdx_op)sink->op), rdx_op_name((rdx_op)lin->op), bin ? ", " : "",
                    bin ? rdx_op_name((rdx_op)bin->op) : "");
    if (!bin && !lin->nsrc)
        return perr(prog, RDX_ERR_INVALID, "no code: an empty LINEAR and no BINARY");
    psig s;
    memset(&s, 0, sizeof s);
    s.prog = prog;
    rdx_codegen_kernel *k = calloc(1, sizeof *k);
    if (!k)
        return rdx_fail(RDX_ERR_NOMEM, "program kernel: out of memory");
    rdx_status st = signature(prog, &s);
    if (!st)
        st = fill_kernel(ctx, &s, k);
    if (!st)
        st = bin ? from_binary(&s, bin, k) : from_linear(&s, lin, name ? name : "kernel", k);
    if (st) {
        rdx_codegen_kernel_free(k);
        return st;
    }
    *out = k;
    return RDX_OK;
}
