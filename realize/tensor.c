/* realize/tensor.c — rdx_tensor_realize_on: tensors built with rdx/tensor.h
 * realized on a device, results handed back like the interpreter's (data
 * owned by the graph). */
#include <string.h>

#include <rdx/realize.h>

#include "util/error.h"

/* Copy a (device) result into memory the graph owns: a BUFFER holding the data. */
static rdx_status keep_in_graph(rdx_graph *g, rdx_array *a)
{
    if (a->numel == 0) {
        a->data = NULL;
        return RDX_OK;
    }
    const rdx_tensor *t = rdx_tensor_from_data(g, a->dtype, a->ndim, a->dims, a->data);
    size_t nb = 0;
    const void *p = t ? rdx_interp_bound(rdx_graph_interp(g), t, &nb) : NULL;
    if (!p)
        return rdx_fail(RDX_ERR_NOMEM, "realize: keeping a result in the graph: %s",
                        rdx_graph_error(g));
    a->data = (void *)p;
    return RDX_OK;
}

rdx_status rdx_tensor_realize_on(rdx_graph *g, rdx_device *dev, const rdx_tensor *const *ts,
                                 size_t n, const rdx_realize_options *opt, rdx_array *out,
                                 rdx_realize_report **report)
{
    if (report)
        *report = NULL;
    if (!g)
        return rdx_fail(RDX_ERR_INVALID, "realize: no graph (NULL)");
    if (rdx_graph_status(g))
        return rdx_fail(rdx_graph_status(g), "realize: graph has an error: %s", rdx_graph_error(g));
    if (!ts || !out || !n)
        return rdx_fail(RDX_ERR_INVALID, "realize: no tensors or no output arrays");
    for (size_t k = 0; k < n; k++)
        if (!ts[k])
            return rdx_fail(RDX_ERR_INVALID, "realize: tensor %zu is NULL", k);
    if (!dev)
        return rdx_fail(RDX_ERR_INVALID, "realize: no device (NULL)");
    rdx_realize_result *res = NULL;
    rdx_status st = rdx_realize_run(rdx_graph_ir(g), rdx_graph_interp(g), dev, ts, n, opt, &res);
    if (st)
        return st;
    rdx_array *tmp = res->outputs;
    for (size_t k = 0; k < n && !st; k++) {
        rdx_array a = tmp[k];
        st = keep_in_graph(g, &a);
        if (!st)
            out[k] = a;
    }
    if (!st && report) {
        *report = res->report;
        res->report = NULL;
    }
    rdx_realize_result_free(res);
    return st;
}
