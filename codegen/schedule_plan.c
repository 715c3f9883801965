/* codegen/schedule_plan.c — the schedule's memory plan (alloc/'s planner over
 * buffer lifetimes) and its printed form. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codegen_front.h>

#include "util/buf.h"
#include "util/error.h"

static rdx_status eval_size(const rdx_schedule *s, const rdx_uop *e, const int64_t *vals,
                            int64_t *out)
{
    if (rdx_uop_const_int(e, out))
        return RDX_OK;
    rdx_value *v = calloc(s->nvars + 1, sizeof *v);
    if (!v)
        return rdx_fail(RDX_ERR_NOMEM, "schedule: out of memory");
    for (size_t k = 0; k < s->nvars; k++)
        v[k].i = vals ? vals[k] : 0;
    rdx_value r;
    rdx_status st = vals ? rdx_ir_eval(e, s->vars, v, s->nvars, &r)
                         : rdx_fail(RDX_ERR_INVALID, "schedule: a buffer size is symbolic and "
                                                     "no variable values were given");
    free(v);
    if (!st)
        *out = r.i;
    return st;
}

rdx_status rdx_schedule_plan_memory(const rdx_schedule *s, const int64_t *vals, uint64_t *offsets,
                                    rdx_plan_stats *stats)
{
    rdx_plan_buffer *pb = calloc(s->nbuffers + 1, sizeof *pb);
    if (!pb)
        return rdx_fail(RDX_ERR_NOMEM, "schedule: out of memory");
    rdx_status st = RDX_OK;
    uint32_t lastk = s->nkernels ? (uint32_t)s->nkernels - 1 : 0;
    for (size_t b = 0; b < s->nbuffers && !st; b++) {
        const rdx_sched_buffer *sb = &s->buffers[b];
        int64_t n;
        st = eval_size(s, sb->numel, vals, &n);
        pb[b].size = (uint64_t)n * rdx_dtype_itemsize(sb->dtype);
        pb[b].align = 256;
        if (sb->kind == RDX_SBUF_TEMP && sb->first >= 0) {
            pb[b].first = (uint32_t)sb->first;
            pb[b].last = (uint32_t)sb->last;
        } else {
            pb[b].first = 0;
            pb[b].last = lastk;
        }
    }
    if (!st)
        st = rdx_alloc_plan(pb, s->nbuffers, offsets, stats);
    free(pb);
    return st;
}

static const char *kind_name(rdx_sbuf_kind k)
{
    return k == RDX_SBUF_INPUT ? "input" : k == RDX_SBUF_OUTPUT ? "output" : "temp";
}

rdx_status rdx_schedule_print(const rdx_schedule *s, int with_kernels, char **out)
{
    rdx_buf b = { 0 };
    char dt[32];
    rdx_status st = RDX_OK;
    rdx_buf_printf(&b, "schedule: %zu kernels, %zu buffers\n", s->nkernels, s->nbuffers);
    for (size_t i = 0; i < s->nbuffers; i++) {
        const rdx_sched_buffer *sb = &s->buffers[i];
        int64_t n;
        char num[32];
        if (rdx_uop_const_int(sb->numel, &n))
            snprintf(num, sizeof num, "%lld", (long long)n);
        else
            snprintf(num, sizeof num, "(symbolic)");
        rdx_buf_printf(&b, "  buf%zu %s %s[%s] live %d..%d\n", i, kind_name(sb->kind),
                       rdx_dtype_str(sb->dtype, dt, sizeof dt), num, sb->first, sb->last);
    }
    for (size_t k = 0; k < s->nkernels && !st; k++) {
        const rdx_sched_kernel *kn = &s->kernels[k];
        rdx_buf_printf(&b, "kernel %zu %s: writes", k, kn->name);
        for (uint32_t p = 0; p < kn->nparams; p++)
            rdx_buf_printf(&b, "%s buf%u", p == kn->nouts ? " reads" : "", kn->params[p]);
        rdx_buf_printf(&b, " after");
        for (uint32_t d = 0; d < kn->ndeps; d++)
            rdx_buf_printf(&b, " %u", kn->deps[d]);
        rdx_buf_printf(&b, "\n");
        if (with_kernels) {
            char *t = NULL;
            st = rdx_ir_print(&kn->sink, 1, 0, &t);
            if (!st)
                rdx_buf_printf(&b, "%s", t);
            free(t);
        }
    }
    if (st || !b.data) {
        free(b.data);
        return st ? st : rdx_fail(RDX_ERR_NOMEM, "schedule: out of memory");
    }
    *out = (char *)b.data;
    return RDX_OK;
}
