/*
 * ir/tensor/multi.c — multi-device tensors and the spec's collectives.
 *
 * COPY is a LOAD with a device (the spec: LOAD replaces COPY).  The IR only
 * LOADs from storage, so a computed value is first materialised in the
 * spec's assign form: AFTER(BUFFER, STORE(BUFFER, value)).  replicated(0)
 * (not an op of the IR) is INDEX by 0 on the device axis: every device
 * holds the same row, the result has no shard axis.
 */
#include <inttypes.h>
#include <string.h>

#include "ir/tensor/tensor_internal.h"

const rdx_tensor *t_materialize(rdx_graph *g, const rdx_tensor *a)
{
    if (!a)
        return NULL;
    if (a->addrspace != RDX_ADDR_NONE)
        return a;
    rdx_uop_arg arg = rdx_uop_arg_none();
    arg.i = t_slot(g);
    arg.dtype = a->dtype;
    arg.device = a->device ? a->device : g->dev;
    arg.addrspace = RDX_ADDR_GLOBAL;
    const rdx_uop *shape = rdx_ir_shape_u(g->ir, a->shape, a->ndim);
    const rdx_uop *buf = shape ? rdx_ir_node(g->ir, RDX_OP_BUFFER, &shape, 1, &arg) : NULL;
    const rdx_uop *sv[2] = { buf, a };
    const rdx_uop *store = buf ? rdx_ir_node(g->ir, RDX_OP_STORE, sv, 2, NULL) : NULL;
    const rdx_uop *av[2] = { buf, store };
    return t_chk(g, "copy", store ? rdx_ir_node(g->ir, RDX_OP_AFTER, av, 2, NULL) : NULL);
}

static const rdx_tensor *copy_dev(rdx_graph *g, const rdx_tensor *t, const rdx_uop_device *dev)
{
    const rdx_tensor *s = t_materialize(g, t);
    if (!s)
        return NULL;
    rdx_uop_arg arg = rdx_uop_arg_none();
    arg.device = dev;
    arg.addrspace = RDX_ADDR_GLOBAL;
    return t_chk(g, "copy", rdx_ir_node(g->ir, RDX_OP_LOAD, &s, 1, &arg));
}

const rdx_tensor *t_copy_to(rdx_graph *g, const rdx_tensor *t, const rdx_uop_device *dev)
{
    return copy_dev(g, t, dev);
}

const rdx_tensor *rdx_tensor_copy(rdx_graph *g, const rdx_tensor *t, const char *const *devices,
                                  size_t n)
{
    if (!t || g->err)
        return NULL;
    if (!devices || n == 0)
        return t_fail(g, RDX_ERR_INVALID, "copy: no device");
    const rdx_uop_device *dev = rdx_ir_device(g->ir, devices, n);
    if (!dev)
        return t_irfail(g, "copy");
    if (n > 1) {
        int64_t d0 = rdx_tensor_dim(t, 0);
        if (t->ndim == 0 || d0 < 0 || d0 % (int64_t)n) {
            char s[128];
            return t_fail(g, RDX_ERR_INVALID,
                          "copy: axis 0 of %s (node #%u) does not split over %zu devices ('%s' .. "
                          "'%s')",
                          t_shape_str(t, s, sizeof s), t->id, n, devices[0], devices[n - 1]);
        }
    }
    return copy_dev(g, t, dev);
}

const rdx_tensor *rdx_tensor_replicated(rdx_graph *g, const rdx_tensor *t)
{
    if (!t || g->err)
        return NULL;
    if (!t->device || t->device->n < 2 || t->axis != 0)
        return t_fail(g, RDX_ERR_INVALID,
                      "replicated: needs a tensor sharded on axis 0 of a device tuple");
    const rdx_tensor *zero = rdx_tensor_const(g, rdx_dtype_of(RDX_INT32), 0);
    return rdx_tensor_index(g, t, 1, &zero);
}

/* T.reshape(1, s).expand(n, s).copy(D).replicated(0) for T of s elements. */
static const rdx_tensor *replicate(rdx_graph *g, const rdx_tensor *t, const rdx_uop_device *dev)
{
    int64_t s = rdx_tensor_numel(t), n = dev->n;
    int64_t r[2] = { 1, s }, e[2] = { n, s };
    const rdx_tensor *x = rdx_tensor_expand(g, rdx_tensor_reshape(g, t, 2, r), 2, e);
    x = copy_dev(g, x, dev);
    return rdx_tensor_replicated(g, x);
}

static int check_1d(rdx_graph *g, const char *op, const rdx_tensor *t, int sharded)
{
    char s[128];
    if (t->ndim != 1 || rdx_tensor_dim(t, 0) < 0) {
        t_fail(g, RDX_ERR_INVALID, "%s: needs a 1-D tensor of concrete size, got %s", op,
               t_shape_str(t, s, sizeof s));
        return 0;
    }
    if (sharded && (!t->device || t->device->n < 2 || t->axis != 0)) {
        t_fail(g, RDX_ERR_INVALID, "%s: needs a tensor sharded on axis 0 of a device tuple", op);
        return 0;
    }
    return 1;
}

const rdx_tensor *rdx_tensor_broadcast(rdx_graph *g, const rdx_tensor *t, const char *const *devs,
                                       size_t n)
{
    if (!t || g->err || !check_1d(g, "broadcast", t, 0))
        return NULL;
    if (n < 2)
        return t_fail(g, RDX_ERR_INVALID, "broadcast: needs at least 2 devices");
    const rdx_uop_device *dev = rdx_ir_device(g->ir, devs, n);
    return dev ? replicate(g, t, dev) : t_irfail(g, "broadcast");
}

const rdx_tensor *rdx_tensor_scatter(rdx_graph *g, const rdx_tensor *t, const char *const *devs,
                                     size_t n)
{
    if (!t || g->err || !check_1d(g, "scatter", t, 0))
        return NULL;
    if (n < 2)
        return t_fail(g, RDX_ERR_INVALID, "scatter: needs at least 2 devices");
    return rdx_tensor_copy(g, t, devs, n);
}

const rdx_tensor *rdx_tensor_gather_dev(rdx_graph *g, const rdx_tensor *t)
{
    if (!t || g->err || !check_1d(g, "gather", t, 1))
        return NULL;
    const rdx_uop_device *d0 = rdx_ir_device(g->ir, t->device->names, 1);
    return d0 ? copy_dev(g, t, d0) : t_irfail(g, "gather");
}

const rdx_tensor *rdx_tensor_reduce_dev(rdx_graph *g, const rdx_tensor *t)
{
    if (!t || g->err || !check_1d(g, "reduce", t, 1))
        return NULL;
    int64_t n = t->device->n, s = rdx_tensor_dim(t, 0) / n;
    int64_t r[2] = { n, s };
    int zero = 0;
    return rdx_tensor_sum(g, rdx_tensor_reshape(g, rdx_tensor_gather_dev(g, t), 2, r), 1, &zero, 0);
}

const rdx_tensor *rdx_tensor_allgather(rdx_graph *g, const rdx_tensor *t)
{
    if (!t || g->err || !check_1d(g, "allgather", t, 1))
        return NULL;
    return replicate(g, t, t->device);
}

const rdx_tensor *rdx_tensor_reduce_scatter(rdx_graph *g, const rdx_tensor *t)
{
    if (!t || g->err || !check_1d(g, "reduce_scatter", t, 1))
        return NULL;
    int64_t n = t->device->n, s = rdx_tensor_dim(t, 0) / n;
    if (s % n)
        return t_fail(g, RDX_ERR_INVALID,
                      "reduce_scatter: per-device size %" PRId64 " does not split over %" PRId64
                      " devices",
                      s, n);
    int64_t r[3] = { n, n, s / n };
    int perm[3] = { 1, 0, 2 }, one = 1;
    const rdx_tensor *x = rdx_tensor_permute(g, rdx_tensor_reshape(g, t, 3, r), perm);
    x = rdx_tensor_sum(g, copy_dev(g, x, t->device), 1, &one, 0);
    return rdx_tensor_reshape(g, x, 1, &s);
}

const rdx_tensor *rdx_tensor_allreduce(rdx_graph *g, const rdx_tensor *t)
{
    /* allgather(reduce_scatter(T)).  The IR's RESHAPE rule drops the shard axis of
     * (n, s/n) -> (s) (it keeps an axis only when the size matches), so the
     * reduce_scatter result is not re-checked as sharded here. */
    const rdx_tensor *r = rdx_tensor_reduce_scatter(g, t);
    return r ? replicate(g, r, t->device) : NULL;
}
