/* realize/beam_timer.c — the BEAM timer (rdx_realize_beam_timer_create): each
 * candidate kernel compiled and run once on zeroed buffers sized from its
 * PARAMs, costed by the wave emulator's kernel time estimate (est_kernel_cycles:
 * occupancy, latency hiding across resident waves, L0/LDS/DRAM bandwidth; see
 * docs/emu.md) or by the dispatch's GPU timestamps on a device. */
#include <stdlib.h>
#include <string.h>

#include "realize/realize_internal.h"
#include "util/error.h"

/* The timer's context (rdx_cg_timer user data). */
struct rdx_realize_beam_timer {
    rdx_ir_ctx *ctx;
    rdx_device *dev; /* where candidates are dispatched (GPU ns); NULL: the wave emulator */
    rdx_queue *q;
    const rdx_uop *const *vars; /* variable values: vars[j] = vals[j] */
    const int64_t *vals;
    size_t nvars;
    uint32_t timeout_ms;
    char target[16]; /* the wave emulator's target ("": gfx1100); with a device, its own */
};
typedef struct rdx_realize_beam_timer rz_timer;

/* Bytes of PARAM p (its shape, with the timer's variable values). */
static rdx_status param_bytes(const rdx_uop *p, const rz_timer *t, size_t *out)
{
    int64_t n = 1;
    for (uint32_t d = 0; d < p->ndim; d++) {
        int64_t v;
        if (!rdx_uop_const_int(p->shape[d], &v)) {
            rdx_value *vals = calloc(t->nvars + 1, sizeof *vals), r;
            if (!vals)
                return rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
            for (size_t k = 0; k < t->nvars; k++)
                vals[k].i = t->vals[k];
            rdx_status st = rdx_ir_eval(p->shape[d], t->vars, vals, t->nvars, &r);
            free(vals);
            if (st)
                return rdx_fail_context(st, "realize: BEAM timer: dimension %u of PARAM slot %lld",
                                        d, (long long)p->arg.i);
            v = r.i;
        }
        n *= v;
    }
    *out = (size_t)n * rdx_dtype_itemsize(p->arg.dtype);
    return RDX_OK;
}

#define RZ_TIMER_MAX_PARAMS 64
/* Added to a device budget's wait (submission and completion latency; whole ms). */
#define RZ_LIMIT_SLACK_MS 20

/* rdx_cg_timer: compile `kernel` and time one run on zeroed buffers sized from its PARAMs. */
static rdx_status rz_beam_timer(const rdx_uop *kernel, void *user, double limit, double *cost)
{
    const rz_timer *t = user;
    const rdx_uop **order = NULL;
    size_t n = 0, np = 0;
    void *host[RZ_TIMER_MAX_PARAMS] = { 0 };
    rdx_buffer *dbuf[RZ_TIMER_MAX_PARAMS] = { 0 };
    size_t sizes[RZ_TIMER_MAX_PARAMS] = { 0 };
    rdx_codegen_kernel *k = NULL;
    rdx_status st = rdx_ir_toposort(kernel, &order, &n);
    for (size_t i = 0; i < n && !st; i++) {
        const rdx_uop *u = order[i];
        if (u->op != RDX_OP_PARAM)
            continue;
        if (u->arg.i < 0 || u->arg.i >= RZ_TIMER_MAX_PARAMS) {
            st = rdx_fail(RDX_ERR_UNSUPPORTED, "realize: BEAM timer: PARAM slot %lld",
                          (long long)u->arg.i);
            break;
        }
        st = param_bytes(u, t, &sizes[u->arg.i]);
        if (st)
            break;
        if (t->dev)
            st = rdx_buffer_alloc(t->dev, sizes[u->arg.i] + 64, RDX_MEM_DEVICE, &dbuf[u->arg.i]);
        else if (!(host[u->arg.i] = calloc(1, sizes[u->arg.i] + 64)))
            st = rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
        if ((size_t)u->arg.i + 1 > np)
            np = (size_t)u->arg.i + 1;
    }
    rdx_codegen_options co;
    memset(&co, 0, sizeof co);
    co.name = "beam_candidate";
    co.target = t->dev ? rdx_device_get_info(t->dev)->target : t->target[0] ? t->target : NULL;
    if (!st)
        st = rdx_codegen_compile(t->ctx, kernel, &co, &k);
    int64_t *kv = k ? calloc(k->nargs + 1, sizeof *kv) : NULL;
    size_t nkv = 0;
    if (!st && !kv)
        st = rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    if (!st)
        st = rz_kernel_vars(k, t->vars, t->vals, t->nvars, kv, &nkv);
    uint64_t a = 0;
    rdx_realize_emu_stats es;
    /* the budget: on a device a fence wait timeout of the limit (GPU ns) + RZ_LIMIT_SLACK_MS,
       then the queue's reset (rz_dispatch); on the wave emulator its cycle limit */
    uint32_t wait_ms = t->timeout_ms ? t->timeout_ms : RZ_WAIT_MS;
    if (limit > 0 && limit / 1e6 + RZ_LIMIT_SLACK_MS < wait_ms)
        wait_ms = (uint32_t)(limit / 1e6) + RZ_LIMIT_SLACK_MS;
    if (!st && t->dev)
        st =
            rz_dispatch(t->dev, t->q, k, co.name, dbuf, NULL, np, kv, nkv, wait_ms, &a, NULL, NULL);
    else if (!st)
        st = rz_emu_launch(k, host, sizes, np, kv, nkv, limit > 0 ? (uint64_t)limit + 1 : 0, &es,
                           NULL);
    if (st == RDX_ERR_TIMEOUT)
        rdx_fail_context(st, "realize: BEAM timer: over the budget %.0f %s", limit,
                         t->dev ? "ns" : "cycles");
    /* the kernel estimate, not the per-wave sum: the sum rewards few waves with long loops */
    if (!st)
        *cost = (double)(t->dev ? a : es.kernel_cycles ? es.kernel_cycles : es.cycles);
    for (size_t i = 0; i < RZ_TIMER_MAX_PARAMS; i++) {
        free(host[i]);
        rdx_buffer_free(dbuf[i]);
    }
    free(kv);
    rdx_codegen_kernel_free(k);
    free(order);
    return st;
}

rdx_status rdx_realize_beam_timer_create(rdx_ir_ctx *ctx, rdx_device *dev, rdx_queue *q,
                                         const rdx_uop *const *vars, const int64_t *vals,
                                         size_t nvars, uint32_t timeout_ms, rdx_cg_timer *fn,
                                         rdx_realize_beam_timer **out)
{
    if (!ctx || !fn || !out)
        return rdx_fail(RDX_ERR_INVALID, "realize: BEAM timer: NULL %s",
                        !ctx  ? "IR context"
                        : !fn ? "timer output"
                              : "context output");
    if (!dev != !q)
        return rdx_fail(RDX_ERR_INVALID,
                        "realize: BEAM timer: a device and its queue go together (got a %s "
                        "without a %s)",
                        dev ? "device" : "queue", dev ? "queue" : "device");
    if (nvars && (!vars || !vals))
        return rdx_fail(RDX_ERR_INVALID, "realize: BEAM timer: %zu variables without %s", nvars,
                        !vars ? "their nodes" : "their values");
    rz_timer *t = calloc(1, sizeof *t);
    if (!t)
        return rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    *t = (rz_timer){ ctx, dev, q, vars, vals, nvars, timeout_ms, "" }; /* in field order */
    *fn = rz_beam_timer;
    *out = t;
    return RDX_OK;
}

rdx_status rdx_realize_beam_timer_set_target(rdx_realize_beam_timer *t, const char *target)
{
    if (!t || !target)
        return rdx_fail(RDX_ERR_INVALID, "realize: BEAM timer: NULL %s", !t ? "timer" : "target");
    if (strlen(target) >= sizeof t->target)
        return rdx_fail(RDX_ERR_INVALID,
                        "realize: BEAM timer: target '%s' is too long (expected "
                        "one of %s)",
                        target, rdx_codegen_target_list());
    memcpy(t->target, target, strlen(target) + 1);
    return RDX_OK;
}

void rdx_realize_beam_timer_free(rdx_realize_beam_timer *t)
{
    free(t);
}
