/*
 * realize/multi.c — rdx_realize_run_multi: the roots of a program placed on
 * several devices (rdx/realize_multi.h): a sharded root computed shard by
 * shard, each shard a SHRINK of the root realized on its device, the shards
 * put together on the host.  Every device's kernels are compiled first, on
 * the caller's thread; then the devices run at the same time, one thread and
 * one queue each.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pthread.h>
#include <time.h>

#include <rdx/realize_multi.h>
#include <rdx/tensor.h>

#include "realize/multi_internal.h"
#include "util/error.h"

/* Cross-device copies of computed values made peer copies in one realization (more are
 * computed where they are read). */
#define MAX_COPIES 16
/* Allreduce roots run as ring collectives in one realization. */
#define MAX_ALLREDUCES 8
/* Collectives inside a program run across the devices in one realization (more are computed
 * whole by each device that reads them). */
#define MAX_INNER 8

/* Names -> device indexes (see the header). */
typedef struct names {
    const char *name[64];
    uint32_t index[64];
    size_t n;
} names;

static int suffix_index(const char *s, uint32_t *k)
{
    const char *c = strrchr(s, ':');
    if (!c || !c[1])
        return 0;
    for (const char *p = c + 1; *p; p++)
        if (!isdigit((unsigned char)*p))
            return 0;
    *k = (uint32_t)strtoul(c + 1, NULL, 10);
    return 1;
}

static void learn(names *t, const rdx_uop_device *d)
{
    for (uint32_t j = 0; d && j < d->n; j++) {
        size_t i;
        for (i = 0; i < t->n && strcmp(t->name[i], d->names[j]); i++)
            ;
        if (i < t->n || t->n == 64)
            continue;
        uint32_t k;
        t->name[t->n] = d->names[j];
        t->index[t->n++] = suffix_index(d->names[j], &k) ? k : j;
    }
}

static uint32_t lookup(const names *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->name[i], name))
            return t->index[i];
    uint32_t k;
    return suffix_index(name, &k) ? k : 0;
}

static rdx_status check_devices(rdx_device *const *devs, uint32_t ndev)
{
    if (!devs || ndev < 1 || ndev > RDX_MAX_GPUS)
        return rdx_fail(RDX_ERR_INVALID, "realize: %u devices (expected 1..%d)", ndev,
                        RDX_MAX_GPUS);
    for (uint32_t i = 0; i < ndev; i++) {
        if (!devs[i])
            return rdx_fail(RDX_ERR_INVALID, "realize: device %u is NULL", i);
        for (uint32_t j = 0; j < i; j++)
            if (devs[j] == devs[i])
                return rdx_fail(RDX_ERR_INVALID, "realize: device %u is device %u again", i, j);
    }
    return RDX_OK;
}

/* A reduction over the shard axis of a sharded tensor (REDUCE, or a RESHAPE of one, as the tensor
 * API's sum builds it) that can be computed as per-device partial results joined on the host:
 * ADD, MAX or MIN of float32/64 or int32/64 of concrete size.  Appends the parts; 0 if r is not
 * one. */
static int place_partial(rdx_ir_ctx *ctx, const names *t, uint32_t ndev, const rdx_uop *r,
                         size_t ri, part *ps, size_t *np)
{
    const rdx_uop *red = r, *outer = NULL;
    if (r->op == RDX_OP_RESHAPE && r->nsrc == 2 && r->src[0]->op == RDX_OP_REDUCE)
        outer = r, red = r->src[0];
    if (red->op != RDX_OP_REDUCE || red->nsrc != 1)
        return 0;
    const rdx_uop *x = red->src[0];
    const rdx_uop_device *d = x->device;
    rdx_scalar sc = (rdx_scalar)r->dtype.scalar;
    if (!d || d->n < 2 || d->n > ndev || x->axis < 0 || x->ndim > 16 ||
        (red->arg.sub != RDX_RED_ADD && red->arg.sub != RDX_RED_MAX &&
         red->arg.sub != RDX_RED_MIN) ||
        (sc != RDX_FLOAT32 && sc != RDX_FLOAT64 && sc != RDX_INT32 && sc != RDX_INT64))
        return 0;
    int over_shard = 0;
    for (uint32_t k = 0; k < red->arg.nints; k++)
        over_shard |= red->arg.ints[k] == x->axis;
    int64_t start[16] = { 0 }, size[16];
    for (uint32_t k = 0; k < x->ndim; k++)
        if (!rdx_uop_const_int(x->shape[k], &size[k]))
            return 0;
    int64_t s = size[x->axis] / d->n;
    if (!over_shard || s * d->n != size[x->axis])
        return 0;
    size_t first = *np;
    for (uint32_t j = 0; j < d->n; j++) {
        uint32_t k = lookup(t, d->names[j]);
        if (k >= ndev) {
            *np = first;
            return 0;
        }
        start[x->axis] = s * j;
        size[x->axis] = s;
        const rdx_uop *src[3] = { x, rdx_ir_shape(ctx, start, x->ndim),
                                  rdx_ir_shape(ctx, size, x->ndim) };
        const rdx_uop *u = rdx_ir_node(ctx, RDX_OP_SHRINK, src, 3, NULL);
        u = u ? rdx_ir_replace_src(ctx, red, &u, 1) : NULL;
        if (u && outer) {
            const rdx_uop *os[2] = { u, outer->src[1] };
            u = rdx_ir_replace_src(ctx, outer, os, 2);
        }
        if (!u) {
            rdx_error_clear();
            *np = first;
            return 0;
        }
        ps[(*np)++] = (part){ .root = ri,
                              .dev = k,
                              .axis = -1,
                              .shard = j,
                              .nshards = d->n,
                              .combine = 1 + red->arg.sub,
                              .u = u,
                              .t = r };
    }
    return 1;
}

/* The parts of root r (appended to ps, *np of them). */
static rdx_status place(rdx_ir_ctx *ctx, const names *t, uint32_t ndev, const rdx_uop *r, size_t ri,
                        part *ps, size_t *np)
{
    const rdx_uop_device *d = r->device;
    if ((!d || d->n < 2 || r->axis < 0) && place_partial(ctx, t, ndev, r, ri, ps, np))
        return RDX_OK;
    if (!d || d->n < 2 || r->axis < 0) {
        uint32_t k = d && d->n ? lookup(t, d->names[0]) : 0;
        if (k >= ndev)
            return rdx_fail(RDX_ERR_INVALID,
                            "realize: root %zu (node #%u) is on device '%s', device %u of %u given",
                            ri, r->id, d->names[0], k, ndev);
        ps[(*np)++] = (part){ .root = ri, .dev = k, .axis = -1, .u = r, .t = r };
        return RDX_OK;
    }
    if (d->n > ndev)
        return rdx_fail(RDX_ERR_INVALID,
                        "realize: root %zu (node #%u) is sharded over %u devices ('%s' .. '%s'); "
                        "%u devices given",
                        ri, r->id, d->n, d->names[0], d->names[d->n - 1], ndev);
    int64_t start[16] = { 0 }, size[16];
    if (r->ndim > 16)
        return rdx_fail(RDX_ERR_UNSUPPORTED, "realize: root %zu has %u dims", ri, r->ndim);
    for (uint32_t k = 0; k < r->ndim; k++)
        if (!rdx_uop_const_int(r->shape[k], &size[k]))
            return rdx_fail(RDX_ERR_INVALID,
                            "realize: root %zu (node #%u) is sharded and of symbolic size (axis "
                            "%u)",
                            ri, r->id, k);
    int64_t total = size[r->axis], s = total / d->n;
    if (s * d->n != total)
        return rdx_fail(RDX_ERR_INVALID,
                        "realize: root %zu (node #%u): axis %d (size %lld) does not split over %u "
                        "devices",
                        ri, r->id, r->axis, (long long)total, d->n);
    for (uint32_t j = 0; j < d->n; j++) {
        uint32_t k = lookup(t, d->names[j]);
        if (k >= ndev)
            return rdx_fail(RDX_ERR_INVALID,
                            "realize: root %zu (node #%u): shard %u is on device '%s', device %u "
                            "of %u given",
                            ri, r->id, j, d->names[j], k, ndev);
        start[r->axis] = s * j;
        size[r->axis] = s;
        const rdx_uop *src[3] = { r, rdx_ir_shape(ctx, start, r->ndim),
                                  rdx_ir_shape(ctx, size, r->ndim) };
        const rdx_uop *u = rdx_ir_node(ctx, RDX_OP_SHRINK, src, 3, NULL);
        if (!u)
            return rdx_fail(RDX_ERR_INVALID, "realize: root %zu shard %u: %s", ri, j,
                            rdx_error_message());
        ps[(*np)++] = (part){
            .root = ri, .dev = k, .axis = r->axis, .shard = j, .nshards = d->n, .u = u, .t = r
        };
    }
    return RDX_OK;
}

/* o[i] = o[i] op a[i] for a partial reduction's results. */
static void combine(rdx_array *o, const rdx_array *a, int op)
{
#define COMBINE(T)                                                    \
    do {                                                              \
        T *x = o->data;                                               \
        const T *y = a->data;                                         \
        for (int64_t i = 0; i < o->numel; i++)                        \
            x[i] = op == RDX_RED_ADD   ? x[i] + y[i]                  \
                   : op == RDX_RED_MAX ? (y[i] > x[i] ? y[i] : x[i])  \
                                       : (y[i] < x[i] ? y[i] : x[i]); \
    } while (0)
    switch (o->dtype.scalar) {
    case RDX_FLOAT32:
        COMBINE(float);
        break;
    case RDX_FLOAT64:
        COMBINE(double);
        break;
    case RDX_INT32:
        COMBINE(int32_t);
        break;
    default:
        COMBINE(int64_t);
        break;
    }
#undef COMBINE
}

/* Put part p's array into the root's output (allocated at the first part); *moved when the
 * output took a's data. */
static rdx_status assemble(rdx_array *o, const part *p, const rdx_array *a, const rdx_uop *root,
                           int *moved)
{
    *moved = 0;
    if (p->axis < 0 && (!p->combine || !o->data)) {
        *o = *a;
        *moved = 1;
        return RDX_OK;
    }
    if (p->combine) {
        if (a->numel != o->numel)
            return rdx_fail(RDX_ERR_INVALID, "realize: partial results of %lld and %lld elements",
                            (long long)a->numel, (long long)o->numel);
        combine(o, a, p->combine - 1);
        return RDX_OK;
    }
    size_t isz = rdx_dtype_itemsize(a->dtype);
    if (!o->data) {
        o->dtype = a->dtype;
        o->ndim = root->ndim;
        o->numel = a->numel * p->nshards;
        for (uint32_t k = 0; k < root->ndim; k++)
            o->dims[k] = a->dims[k] * (k == (uint32_t)p->axis ? p->nshards : 1);
        if (!(o->data = calloc(1, (size_t)o->numel * isz + 1)))
            return rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    }
    /* outer blocks (axes before the shard axis) of shard rows x inner elements */
    size_t outer = 1, inner = 1;
    for (int k = 0; k < p->axis; k++)
        outer *= (size_t)a->dims[k];
    for (uint32_t k = (uint32_t)p->axis + 1; k < a->ndim; k++)
        inner *= (size_t)a->dims[k];
    size_t rows = (size_t)a->dims[p->axis], block = rows * inner * isz;
    for (size_t b = 0; b < outer; b++)
        memcpy((char *)o->data + (b * p->nshards + p->shard) * block,
               (const char *)a->data + b * block, block);
    return RDX_OK;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void *execute_one(void *arg)
{
    dev_run *r = arg;
    r->start_ms = now_ms();
    r->st = rz_execute(r->run);
    r->end_ms = now_ms();
    if (r->st)
        snprintf(r->msg, sizeof r->msg, "%s", rdx_error_message());
    return NULL;
}

/* Whether RDX_MULTI_SERIAL asks for the devices one after another (a comparison). */
static int serial_wanted(void)
{
    const char *e = getenv("RDX_MULTI_SERIAL");
    return e && *e && strcmp(e, "0");
}

/* Work the host does while the devices run (the end of the collectives the runs wait for on
 * the GPU): a failure is returned, its message kept in msg. */
typedef struct during_fn {
    rdx_status (*fn)(void *arg);
    void *arg;
    rdx_status st;
    char msg[1024];
} during_fn;

static void run_during(during_fn *w)
{
    if (!w || !w->fn)
        return;
    w->st = w->fn(w->arg);
    if (w->st)
        snprintf(w->msg, sizeof w->msg, "%s", rdx_error_message());
    w->fn = NULL;
}

/* Every prepared run executed, at the same time unless RDX_MULTI_SERIAL; the first failure
 * (lowest device) is returned, naming its device, after every device has ended (the others
 * finish their work: they stay usable).  w (may be NULL): run on this thread once the devices
 * have started (before them when they run here, one after another); its failure comes first
 * (the runs waited for it on the GPU). */
static rdx_status execute_all(dev_run *runs, rdx_device *const *devs, uint32_t ndev,
                              rdx_realize_multi_result *res, const part *ps, size_t np,
                              int first_stage, during_fn *w)
{
    pthread_t th[RDX_MAX_GPUS];
    int started[RDX_MAX_GPUS] = { 0 }, serial = serial_wanted();
    uint32_t active = 0;
    for (uint32_t d = 0; d < ndev; d++)
        active += runs[d].run != NULL;
    int threads = !serial && (active > 1 || (active == 1 && w && w->fn));
    if (!threads)
        run_during(w);
    double t0 = now_ms();
    for (uint32_t d = 0; d < ndev; d++) {
        if (!runs[d].run)
            continue;
        if (!threads || pthread_create(&th[d], NULL, execute_one, &runs[d]))
            execute_one(&runs[d]); /* here, if no thread could be started */
        else
            started[d] = 1;
    }
    run_during(w);
    for (uint32_t d = 0; d < ndev; d++)
        if (started[d])
            pthread_join(th[d], NULL);
    res->wall_ms += now_ms() - t0;
    res->concurrent = !serial && active > 1;
    for (uint32_t d = 0; d < ndev; d++) {
        if (!runs[d].run)
            continue;
        res->start_ms[d] = runs[d].start_ms - t0;
        res->end_ms[d] = runs[d].end_ms - t0;
    }
    if (w && w->st)
        return rdx_fail(w->st, "%s", w->msg);
    for (uint32_t d = 0; d < ndev; d++) {
        if (!runs[d].run || !runs[d].st)
            continue;
        /* the tensors the device was computing: root index and node of each part (in the
         * first stage, the node of each value computed there) */
        char what[256] = "";
        size_t len = 0;
        for (size_t k = 0; k < np && len < sizeof what - 1; k++) {
            if (ps[k].dev != d)
                continue;
            if (first_stage)
                len += (size_t)snprintf(what + len, sizeof what - len, "%snode #%u",
                                        len ? ", " : "", ps[k].t->id);
            else
                len += (size_t)snprintf(what + len, sizeof what - len, "%sroot %zu (node #%u)",
                                        len ? ", " : "", ps[k].root, ps[k].t->id);
        }
        return rdx_fail(runs[d].st, "realize: device %u (GPU %u), computing %s: %s", d,
                        rdx_device_get_info(devs[d])->gpu_index, what, runs[d].msg);
    }
    return RDX_OK;
}

/* The devices the parts ps[0..np) are placed on are of one architecture (the code is compiled
 * once per device, for the first one's target); else an error naming the tensor (root or, in
 * the first stage, value, and node) and both devices. */
static rdx_status check_arch(const part *ps, size_t np, int first_stage, rdx_device *const *devs)
{
    for (size_t k = 1; k < np; k++) {
        const rdx_device_info *a = rdx_device_get_info(devs[ps[0].dev]),
                              *b = rdx_device_get_info(devs[ps[k].dev]);
        if (strcmp(a->target, b->target))
            return rdx_fail(RDX_ERR_INVALID,
                            "realize: devices of different architectures: %s %zu (node #%u) is "
                            "placed on device %u (GPU %u), a %s, %s %zu (node #%u) on device %u "
                            "(GPU %u), a %s",
                            first_stage ? "copied value" : "root", ps[k].root, ps[k].t->id,
                            ps[k].dev, b->gpu_index, b->target,
                            first_stage ? "copied value" : "root", ps[0].root, ps[0].t->id,
                            ps[0].dev, a->gpu_index, a->target);
    }
    return RDX_OK;
}

/* Prepare a run per device for the parts ps[0..np) (dr: scratch for one device's roots). */
static rdx_status prepare_stage(rdx_ir_ctx *ctx, const rdx_interp *inputs, rdx_device *const *devs,
                                uint32_t ndev, part *ps, size_t np, const rdx_realize_options *opt,
                                const rdx_uop **dr, dev_run *runs, rdx_realize_multi_result *res)
{
    for (uint32_t d = 0; d < ndev; d++) {
        size_t m = 0;
        for (size_t k = 0; k < np; k++)
            if (ps[k].dev == d) {
                ps[k].out = m;
                dr[m++] = ps[k].u;
            }
        if (!m)
            continue;
        res->parts[d] += (uint32_t)m;
        rdx_status st = rz_prepare(ctx, inputs, devs[d], dr, m, opt, &runs[d].run);
        if (st)
            return rdx_fail_context(st, "realize: device %u (GPU %u)", d,
                                    rdx_device_get_info(devs[d])->gpu_index);
    }
    return RDX_OK;
}

/* The copies of computed values between devices under roots[0..n) (mc_find), each value
 * placed as the first stage's root k (parts into ps1, *np1), and the roots with every such
 * copy replaced by its BUFFER into r2 (the roots themselves when there is none).  A value that
 * cannot be placed whole or shard by shard (a partial reduction, a bad placement) is left to
 * be computed where it is read, as before.  Returns the number of copies. */
static size_t stage_copies(rdx_ir_ctx *ctx, const names *t, uint32_t ndev,
                           const rdx_uop *const *roots, size_t n, mc_copy *cps, part *ps1,
                           size_t *np1, const rdx_uop **r2)
{
    size_t nc = mc_find(ctx, roots, n, cps, MAX_COPIES), keep = 0;
    for (size_t k = 0; k < nc; k++) {
        size_t before = *np1;
        int bad = place(ctx, t, ndev, cps[k].value, keep, ps1, np1) != RDX_OK;
        for (size_t p = before; p < *np1; p++)
            bad |= ps1[p].combine != 0;
        if (bad) {
            rdx_error_clear();
            *np1 = before;
            continue;
        }
        cps[keep] = cps[k];
        cps[keep].root = keep;
        keep++;
    }
    const rdx_uop *from[MAX_COPIES], *to[MAX_COPIES];
    for (size_t k = 0; k < keep; k++)
        from[k] = cps[k].load, to[k] = cps[k].buf;
    for (size_t i = 0; i < n; i++) {
        r2[i] = roots[i];
        if (keep && rdx_ir_substitute(ctx, roots[i], from, to, keep, &r2[i])) {
            rdx_error_clear(); /* computed where read: the copies stay in this root */
            r2[i] = roots[i];
        }
    }
    return keep;
}

static int same_names(const rdx_uop_device *a, const rdx_uop_device *b)
{
    if (!a || !b || a->n != b->n)
        return 0;
    for (uint32_t j = 0; j < a->n; j++)
        if (strcmp(a->names[j], b->names[j]))
            return 0;
    return 1;
}

/* Whether graphs a and b are the same but for the slots of their BUFFERs (a composition that
 * copies a computed value to devices stores it into a BUFFER of a new slot each time it is
 * built). */
static int same_form(const rdx_uop *a, const rdx_uop *b, int depth)
{
    if (a == b)
        return 1;
    if (depth > 64 || a->op != b->op || a->nsrc != b->nsrc ||
        memcmp(&a->dtype, &b->dtype, sizeof a->dtype))
        return 0;
    rdx_uop_arg x = a->arg, y = b->arg;
    if (a->op == RDX_OP_BUFFER)
        x.i = y.i = 0;
    if (memcmp(&x, &y, sizeof x))
        return 0;
    for (uint32_t k = 0; k < a->nsrc; k++)
        if (!same_form(a->src[k], b->src[k], depth + 1))
            return 0;
    return 1;
}

/* The node of u at the place of c's LOAD to a device tuple on the path of first sources
 * (same_form(c, u) holds: the paths are alike); NULL when there is none near the top. */
static const rdx_uop *load_of(const rdx_uop *c, const rdx_uop *u)
{
    for (int depth = 0; depth < 4; depth++) {
        if (c->op == RDX_OP_LOAD && c->device && c->device->n > 1)
            return u;
        if (!c->nsrc || !u->nsrc)
            return NULL;
        c = c->src[0], u = u->src[0];
    }
    return NULL;
}

/* Whether u may be a collective's result: 1-D, replicated on a device tuple, a LOAD to the
 * tuple near the top (the spec's compositions end in replicated(copy(...)), reduce_scatter in
 * copy(...).sum(1).reshape(s)). */
static int replicated_load(const rdx_uop *u)
{
    if (!u->device || u->device->n < 2 || u->axis >= 0 || u->ndim != 1 ||
        u->dtype.scalar == RDX_BOOL || u->dtype.count != 1)
        return 0;
    const rdx_uop *v = u;
    for (int depth = 0; depth < 4 && v->nsrc; depth++) {
        v = v->src[0];
        if (v->op == RDX_OP_LOAD && v->device == u->device)
            return 1;
    }
    return 0;
}

/* Whether u is the composition `kind` of x (the tensor API's, built again and compared), its
 * LOAD into *load. */
static int composition_of(rdx_graph *g, int kind, const rdx_uop *x, const rdx_uop *u,
                          const rdx_uop **load)
{
    const rdx_uop *c = kind == MC_ALLREDUCE   ? rdx_tensor_allreduce(g, x)
                       : kind == MC_ALLGATHER ? rdx_tensor_allgather(g, x)
                       : kind == MC_REDUCE_SCATTER
                           ? rdx_tensor_reduce_scatter(g, x)
                           : rdx_tensor_broadcast(g, x, u->device->names, u->device->n);
    if (!c) {
        rdx_graph_clear_error(g);
        rdx_error_clear();
        return 0;
    }
    /* a reduce_scatter is replaced whole (its result is sharded, as the spec has it) */
    *load = !same_form(c, u, 0) ? NULL : kind == MC_REDUCE_SCATTER ? u : load_of(c, u);
    return *load != NULL;
}

/* The collectives inside the program r[0..n) (allreduce, allgather, reduce_scatter and
 * broadcast compositions that are not a root run as a ring, ar[i]): at most max into out, each
 * with the BUFFER that stands for its LOAD (a reduce_scatter: for its result).  Returns how
 * many. */
static size_t find_inner(rdx_graph *g, rdx_ir_ctx *ctx, const rdx_uop *const *r, size_t n,
                         const rdx_uop *const *ar, mc_inner *out, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; g && i < n && k < max; i++) {
        const rdx_uop **list = NULL;
        size_t m = 0;
        if (ar && ar[i])
            continue; /* a root run as a ring: its graph is the collective's */
        if (rdx_ir_toposort(r[i], &list, &m)) {
            rdx_error_clear();
            continue;
        }
        for (size_t a = 0; a < m && k < max; a++) {
            const rdx_uop *u = list[a], *load = NULL, *x = NULL;
            int64_t len, want;
            int kind = 0;
            if (!replicated_load(u) || !rdx_uop_const_int(u->shape[0], &want))
                continue;
            uint32_t nd = u->device->n;
            for (size_t b = 0; b < a && !kind; b++) {
                x = list[b];
                if (x->ndim != 1 || !rdx_uop_const_int(x->shape[0], &len) ||
                    x->dtype.scalar != u->dtype.scalar || x->dtype.count != 1 || !x->device)
                    continue;
                /* host data (a BUFFER) gathered or broadcast: each reader uploads it */
                int host = x->op == RDX_OP_BUFFER;
                if (x->axis == 0 && same_names(x->device, u->device) && len % nd == 0) {
                    if (len == want && !host && composition_of(g, MC_ALLGATHER, x, u, &load))
                        kind = MC_ALLGATHER;
                    else if (len == want * nd && want % nd == 0 &&
                             composition_of(g, MC_ALLREDUCE, x, u, &load))
                        kind = MC_ALLREDUCE;
                    else if (len == want * nd && want % nd == 0 &&
                             composition_of(g, MC_REDUCE_SCATTER, x, u, &load))
                        kind = MC_REDUCE_SCATTER;
                } else if (x->device->n == 1 && len == want && !host &&
                           composition_of(g, MC_BROADCAST, x, u, &load)) {
                    kind = MC_BROADCAST;
                }
            }
            size_t dup;
            for (dup = 0; dup < k && out[dup].load != load; dup++)
                ;
            if (!kind || dup < k)
                continue;
            rdx_uop_arg ba = rdx_uop_arg_none();
            ba.i = ((int64_t)1 << 41) + (int64_t)load->id; /* a slot no tensor API buffer uses */
            ba.dtype = rdx_dtype_scalar(load->dtype);
            ba.device = load->device;
            ba.addrspace = RDX_ADDR_GLOBAL;
            /* the value every device holds: one row, (1, s), where the LOAD has one per device
             * (n, s) of which replicated(0) reads row 0 (a reduce_scatter: its whole result) */
            const rdx_uop *shape = kind == MC_REDUCE_SCATTER || load->ndim != 2
                                       ? rdx_ir_shape_u(ctx, load->shape, load->ndim)
                                       : rdx_ir_shape(ctx, (int64_t[]){ 1, want }, 2);
            const rdx_uop *buf = shape ? rdx_ir_node(ctx, RDX_OP_BUFFER, &shape, 1, &ba) : NULL;
            if (!buf) {
                rdx_error_clear();
                continue;
            }
            out[k++] = (mc_inner){
                .kind = kind, .x = x, .load = load, .buf = buf, .count = (uint64_t)want
            };
        }
        free(list);
    }
    /* a collective under another one's LOAD (the reduce_scatter inside an allreduce's
     * composition) is not read once the outer one is replaced: dropped */
    size_t keep = 0;
    for (size_t a = 0; a < k; a++) {
        int under = 0;
        for (size_t b = 0; b < k && !under; b++) {
            const rdx_uop **list = NULL;
            size_t m = 0;
            if (b == a || out[b].load == out[a].load || rdx_ir_toposort(out[b].load, &list, &m))
                continue;
            for (size_t q = 0; q < m && !under; q++)
                under = list[q] == out[a].load;
            free(list);
        }
        if (!under)
            out[keep++] = out[a];
    }
    rdx_error_clear();
    return keep;
}

void rdx_realize_multi_result_free(rdx_realize_multi_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; r->outputs && i < r->noutputs; i++)
        free(r->outputs[i].data);
    free(r->outputs);
    for (uint32_t d = 0; d < RDX_MAX_GPUS; d++)
        rdx_realize_report_free(r->reports[d]);
    free(r);
}

/* The collectives inside a program started for the second stage, ended by end_inner. */
typedef struct inner_end {
    size_t n;
    mc_inner_pending *p[MAX_INNER];
    mc_inner_stats is[MAX_INNER];
    rdx_status failed; /* a failure before the second stage ran */
    rdx_realize_multi_result *res;
} inner_end;

/* Every started collective ended (the host waiting for its ring and copies), its counts into
 * the result; the first failure returned.  Only the first call does anything. */
static rdx_status end_inner(void *arg)
{
    inner_end *e = arg;
    rdx_status first = RDX_OK;
    char msg[1024] = "";
    for (size_t k = 0; k < e->n; k++) {
        if (!e->p[k])
            continue;
        rdx_status s = mc_inner_end(e->p[k], e->failed || first, &e->is[k]);
        if (s && !first) {
            first = s;
            snprintf(msg, sizeof msg, "%s", rdx_error_message());
        }
        const mc_inner_stats *is = &e->is[k];
        rdx_realize_multi_result *res = e->res;
        res->ring_copies += is->ring_copies;
        res->ring_kernels += is->ring_kernels;
        res->peer_copies += is->peer_copies;
        res->host_copies += is->host_copies;
        res->local_copies += is->local_copies;
        res->copied_bytes += is->bytes;
        res->host_waits += is->host_waits;
        for (uint32_t d = 0; d < RDX_MAX_GPUS; d++)
            res->ring_bytes_sent[d] += is->ring_bytes_sent[d];
        memset(&e->is[k], 0, sizeof e->is[k]);
    }
    return first ? rdx_fail(first, "%s", msg) : RDX_OK;
}

/* rdx_realize_run_multi; ar[i] (ar may be NULL): root i is the spec's allreduce of ar[i] (its
 * reduce_scatter when rs[i]), run as the ring collective; g (may be NULL): the tensor graph of the
 * roots, where the collectives inside the program are looked for (find_inner). */
static rdx_status run_multi(rdx_graph *g, rdx_ir_ctx *ctx, const rdx_interp *inputs,
                            rdx_device *const *devs, uint32_t ndev, const rdx_uop *const *roots,
                            size_t n, const rdx_realize_options *opt, const rdx_uop *const *ar,
                            const int *rs, rdx_realize_multi_result **out)
{
    if (!out)
        return rdx_fail(RDX_ERR_INVALID, "realize: no result pointer (NULL)");
    *out = NULL;
    rdx_status st = check_devices(devs, ndev);
    if (st)
        return st;
    if (!ctx || !roots || !n)
        return rdx_fail(RDX_ERR_INVALID, "realize: no graph (NULL context or no roots)");
    names t = { .n = 0 };
    for (size_t i = 0; i < n; i++) {
        if (!roots[i])
            return rdx_fail(RDX_ERR_INVALID, "realize: root %zu is NULL", i);
        if (roots[i]->device && roots[i]->device->n > 1)
            learn(&t, roots[i]->device);
    }
    part *ps = calloc(n * RDX_MAX_GPUS + 1, sizeof *ps);
    const rdx_uop **dr = calloc((n + MAX_COPIES) * RDX_MAX_GPUS + 1, sizeof *dr);
    const rdx_uop **r2 = calloc(n, sizeof *r2);
    rdx_realize_multi_result *res = calloc(1, sizeof *res);
    if (res)
        res->outputs = calloc(n, sizeof *res->outputs);
    size_t np = 0, np1 = 0;
    st = ps && dr && r2 && res && res->outputs ? RDX_OK
                                               : rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    if (res) {
        res->noutputs = n;
        res->ndevices = ndev;
    }
    /* cross-device copies of computed values: the values computed first, where they live */
    mc_copy cps[MAX_COPIES];
    part ps1[(MAX_COPIES + MAX_ALLREDUCES + MAX_INNER) * RDX_MAX_GPUS];
    size_t nc = st ? 0 : stage_copies(ctx, &t, ndev, roots, n, cps, ps1, &np1, r2);
    /* allreduce roots: their sharded source computed in the first stage too */
    size_t ar1[MAX_ALLREDUCES], nar = 0, ari[MAX_ALLREDUCES];
    for (size_t i = 0; ar && i < n && !st; i++) {
        if (!ar[i])
            continue;
        if (nar == MAX_ALLREDUCES) {
            st = rdx_fail(RDX_ERR_UNSUPPORTED, "realize: more than %d allreduce roots",
                          MAX_ALLREDUCES);
            break;
        }
        ar1[nar] = nc + nar;
        ari[nar] = i;
        st = place(ctx, &t, ndev, ar[i], ar1[nar], ps1, &np1);
        if (st)
            st =
                rdx_fail_context(st, "realize: root %zu (node #%u), an allreduce", i, roots[i]->id);
        nar++;
    }
    /* collectives inside the program: their source computed in the first stage, their LOAD
     * replaced by a BUFFER the collective fills */
    mc_inner in[MAX_INNER];
    size_t ni = st ? 0 : find_inner(g, ctx, r2, n, ar, in, MAX_INNER), nik = 0;
    for (size_t k = 0; k < ni && !st; k++) {
        size_t before = np1;
        int bad = place(ctx, &t, ndev, in[k].x, nc + nar + nik, ps1, &np1) != RDX_OK;
        for (size_t p = before; p < np1; p++)
            bad |= ps1[p].combine != 0 || (in[k].kind == MC_BROADCAST) != (ps1[p].axis < 0);
        if (bad) { /* computed whole where it is read, as before */
            rdx_error_clear();
            np1 = before;
            continue;
        }
        in[nik] = in[k];
        in[nik].root = nc + nar + nik;
        nik++;
    }
    if (nik && !st) {
        const rdx_uop *from[MAX_INNER], *to[MAX_INNER];
        for (size_t k = 0; k < nik; k++)
            from[k] = in[k].load, to[k] = in[k].buf;
        for (size_t i = 0; i < n && !st; i++) {
            st = rdx_ir_substitute(ctx, r2[i], from, to, nik, &r2[i]);
            if (st)
                st = rdx_fail_context(st, "realize: root %zu (node #%u)", i, roots[i]->id);
        }
    }
    dev_run runs1[RDX_MAX_GPUS], runs[RDX_MAX_GPUS];
    memset(runs1, 0, sizeof runs1);
    memset(runs, 0, sizeof runs);
    rdx_queue *xq[RDX_MAX_GPUS] = { NULL };
    if ((nc || nar || nik) && !st) {
        st = check_arch(ps1, np1, 1, devs);
        if (!st)
            st = prepare_stage(ctx, inputs, devs, ndev, ps1, np1, opt, dr, runs1, res);
        if (!st)
            st = execute_all(runs1, devs, ndev, res, ps1, np1, 1, NULL);
        if (st)
            st = rdx_fail_context(st, "realize: the values copied between devices");
        res->stages = 2;
    } else {
        res->stages = 1;
    }
    for (size_t k = 0; k < nar && !st; k++) {
        rdx_collective_stats cs;
        int scatter = rs && rs[ari[k]];
        st = mc_allreduce(ps1, np1, ar1[k], runs1, devs, ar[ari[k]], scatter, &res->outputs[ari[k]],
                          &cs);
        if (st) {
            st = rdx_fail_context(st, "realize: root %zu (node #%u), %s", ari[k], roots[ari[k]]->id,
                                  scatter ? "a reduce_scatter" : "an allreduce");
            break;
        }
        if (scatter)
            res->reduce_scatters++;
        else
            res->allreduces++;
        res->ring_copies += cs.copies;
        res->ring_kernels += cs.kernels;
        for (size_t p = 0; p < np1; p++)
            if (ps1[p].root == ar1[k] && ps1[p].shard < RDX_MAX_GPUS)
                res->ring_bytes_sent[ps1[p].dev] += cs.bytes_sent[ps1[p].shard];
    }
    for (size_t i = 0; i < n && !st; i++) {
        size_t before = np;
        if (!ar || !ar[i])
            st = place(ctx, &t, ndev, r2[i], i, ps, &np);
        for (size_t k = before; k < np; k++)
            ps[k].t = roots[i]; /* the root as given (r2[i] may be rewritten) */
    }
    /* each device its parts: every device's kernels compiled here, one device after another
     * (the IR context is not thread-safe), then the devices run at the same time, each on a
     * thread of its own with its own queue */
    if (!st)
        st = check_arch(ps, np, 0, devs);
    if (!st && np && np1)
        st = check_arch((part[]){ ps[0], ps1[0] }, 2, 0, devs);
    if (!st)
        st = prepare_stage(ctx, inputs, devs, ndev, ps, np, opt, dr, runs, res);
    if (!st && nc) {
        mc_stats ms = { 0 };
        st = mc_transfer(cps, nc, ps1, np1, runs1, runs, devs, ndev, xq, &ms);
        res->peer_copies = ms.copies;
        res->host_copies = ms.host_copies;
        res->copied_bytes = ms.bytes;
    }
    /* the collectives inside: submitted, the second stage's kernels queued behind them on
     * the GPUs; the host waits for them while the devices run the second stage */
    inner_end ie = { .n = 0, .res = res };
    for (size_t k = 0; k < nik && !st; k++) {
        memset(&ie.is[k], 0, sizeof ie.is[k]);
        st = mc_inner_start(&in[k], ps1, np1, runs1, runs, devs, ndev, &ie.is[k], &ie.p[k]);
        ie.n = k + 1;
        res->inner_collectives++;
    }
    during_fn w = { .fn = end_inner, .arg = &ie };
    if (!st)
        st = execute_all(runs, devs, ndev, res, ps, np, 0, ie.n ? &w : NULL);
    ie.failed = st;
    (void)end_inner(&ie); /* after a failure before the second stage: nothing left waiting */
    for (uint32_t d = 0; d < ndev; d++) {
        rdx_realize_result *rr = NULL;
        rdx_status fst = rz_finish(runs[d].run, st ? st : runs[d].st, &rr);
        if (!st && fst)
            st = rdx_fail_context(fst, "realize: device %u (GPU %u)", d,
                                  rdx_device_get_info(devs[d])->gpu_index);
        if (!rr)
            continue;
        for (size_t k = 0; k < np && !st; k++)
            if (ps[k].dev == d) {
                int moved;
                st = assemble(&res->outputs[ps[k].root], &ps[k], &rr->outputs[ps[k].out],
                              r2[ps[k].root], &moved);
                if (!st && moved)
                    rr->outputs[ps[k].out].data = NULL;
            }
        res->reports[d] = rr->report;
        rr->report = NULL;
        rdx_realize_result_free(rr);
    }
    /* the copies done (the queues wait for them), then the first stage's memory goes */
    for (uint32_t d = 0; d < ndev; d++) {
        rdx_status qst = rdx_queue_destroy(xq[d]);
        if (!st && qst)
            st = qst;
    }
    for (size_t k = 0; k < ie.n; k++)
        mc_inner_free(ie.p[k]);
    for (uint32_t d = 0; d < ndev; d++) {
        rdx_realize_result *rr = NULL;
        rz_finish(runs1[d].run, RDX_ERR_INVALID, &rr); /* its results were copied */
    }
    free(ps);
    free(dr);
    free(r2);
    if (st) {
        rdx_realize_multi_result_free(res);
        return st;
    }
    *out = res;
    return RDX_OK;
}

/* The x of a root that is rdx_tensor_allreduce(g, x) or rdx_tensor_reduce_scatter(g, x) (*rs
 * set: x 1-D, sharded on axis 0 of its device tuple, its rows per device splitting over the
 * devices), found by building the compositions of each candidate and comparing them with r
 * (same_form).  NULL when r is neither. */
static const rdx_uop *allreduce_source(rdx_graph *g, const rdx_uop *r, int *rs)
{
    *rs = 0;
    if (!r->device || r->device->n < 2 || r->axis >= 0 || r->ndim != 1)
        return NULL;
    const rdx_uop **list = NULL, *found = NULL;
    size_t m = 0;
    if (rdx_ir_toposort(r, &list, &m)) {
        rdx_error_clear();
        return NULL;
    }
    for (size_t i = 0; i < m && !found; i++) {
        const rdx_uop *x = list[i];
        int64_t len;
        uint32_t d = r->device->n;
        if (x == r || x->ndim != 1 || x->axis != 0 || !same_names(x->device, r->device) ||
            !rdx_uop_const_int(x->shape[0], &len) || len % ((int64_t)d * d) ||
            x->dtype.scalar == RDX_BOOL || x->dtype.count != 1)
            continue;
        for (int k = 0; k < 2 && !found; k++) {
            const rdx_uop *c = k ? rdx_tensor_reduce_scatter(g, x) : rdx_tensor_allreduce(g, x);
            if (!c) {
                rdx_graph_clear_error(g);
                rdx_error_clear();
            } else if (same_form(c, r, 0)) {
                found = x;
                *rs = k;
            }
        }
    }
    free(list);
    return found;
}

/* run_multi with the collectives of the spec found in roots[0..n) through g (a graph over
 * ctx): roots that are an allreduce or reduce_scatter run as rings, and the collectives
 * inside the program. */
static rdx_status run_found(rdx_graph *g, rdx_ir_ctx *ctx, const rdx_interp *inputs,
                            rdx_device *const *devs, uint32_t ndev, const rdx_uop *const *roots,
                            size_t n, const rdx_realize_options *opt,
                            rdx_realize_multi_result **out)
{
    const rdx_uop **ar = calloc(n + 1, sizeof *ar);
    int *rs = calloc(n + 1, sizeof *rs);
    if (!ar || !rs) {
        free(ar);
        free(rs);
        return rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    }
    for (size_t i = 0; roots && i < n; i++)
        ar[i] = roots[i] ? allreduce_source(g, roots[i], &rs[i]) : NULL;
    rdx_status st = rdx_graph_status(g)
                        ? rdx_fail(rdx_graph_status(g), "realize: %s", rdx_graph_error(g))
                        : run_multi(g, ctx, inputs, devs, ndev, roots, n, opt, ar, rs, out);
    free(ar);
    free(rs);
    return st;
}

/* Bare UOps get the tensor API's schedule: a graph over their context (borrowed) builds the
 * collectives' compositions to compare with them, as rdx_tensor_realize_multi does. */
rdx_status rdx_realize_run_multi(rdx_ir_ctx *ctx, const rdx_interp *inputs, rdx_device *const *devs,
                                 uint32_t ndev, const rdx_uop *const *roots, size_t n,
                                 const rdx_realize_options *opt, rdx_realize_multi_result **out)
{
    if (!ctx)
        return run_multi(NULL, ctx, inputs, devs, ndev, roots, n, opt, NULL, NULL, out);
    rdx_graph *g = NULL;
    rdx_status st = rdx_graph_create_in(&g, ctx, NULL);
    if (st)
        return st;
    st = run_found(g, ctx, inputs, devs, ndev, roots, n, opt, out);
    rdx_graph_destroy(g);
    return st;
}

rdx_status rdx_tensor_realize_multi(rdx_graph *g, rdx_device *const *devs, uint32_t ndev,
                                    const rdx_tensor *const *ts, size_t n,
                                    const rdx_realize_options *opt, rdx_array *out,
                                    rdx_realize_multi_result **result)
{
    if (result)
        *result = NULL;
    if (!g)
        return rdx_fail(RDX_ERR_INVALID, "realize: no graph (NULL)");
    if (rdx_graph_status(g))
        return rdx_fail(rdx_graph_status(g), "realize: graph has an error: %s", rdx_graph_error(g));
    if (!ts || !out || !n)
        return rdx_fail(RDX_ERR_INVALID, "realize: no tensors or no output arrays");
    rdx_realize_multi_result *res = NULL;
    rdx_status st =
        run_found(g, rdx_graph_ir(g), rdx_graph_interp(g), devs, ndev, ts, n, opt, &res);
    if (st)
        return st;
    /* the data belongs to the graph, as the interpreter's results do: held by new BUFFERs */
    for (size_t k = 0; k < n && !st; k++) {
        rdx_array a = res->outputs[k];
        if (a.numel) {
            const rdx_tensor *b = rdx_tensor_from_data(g, a.dtype, a.ndim, a.dims, a.data);
            size_t nb = 0;
            a.data = b ? (void *)rdx_interp_bound(rdx_graph_interp(g), b, &nb) : NULL;
            if (!a.data)
                st = rdx_fail(RDX_ERR_NOMEM, "realize: keeping a result in the graph: %s",
                              rdx_graph_error(g));
        } else {
            a.data = NULL;
        }
        out[k] = a;
    }
    if (!st && result) {
        for (size_t k = 0; k < n; k++)
            free(res->outputs[k].data);
        free(res->outputs);
        res->outputs = NULL;
        res->noutputs = 0;
        *result = res;
        return RDX_OK;
    }
    rdx_realize_multi_result_free(res);
    return st;
}
