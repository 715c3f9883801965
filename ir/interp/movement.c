/*
 * ir/interp/movement.c — movement ops that need more than a stride change:
 * RESHAPE (a strided view when the strides allow, else a copy), PAD (zero
 * fill), INDEX (scalar indices are views, vector indices gather).
 */
#include <inttypes.h>
#include <string.h>

#include "ir/interp/interp_internal.h"

/* Strides of src viewed as shape dims without copying, when its strides allow (NumPy's rule:
 * every group of old axes merged or split must itself be contiguous).  0 when they do not. */
static int reshape_view(const ival *src, uint32_t nd, const int64_t *dims, int64_t *str)
{
    int64_t od[MAXD], os[MAXD];
    uint32_t on = 0;
    for (uint32_t k = 0; k < src->nd; k++) {
        if (src->dims[k] == 0)
            return 0;
        if (src->dims[k] != 1)
            od[on] = src->dims[k], os[on++] = src->str[k];
    }
    uint32_t oi = 0, oj = 1, ni = 0, nj = 1;
    while (ni < nd && oi < on) {
        int64_t np = dims[ni], op = od[oi];
        while (np != op) {
            if (np < op) {
                if (nj >= nd)
                    return 0;
                np *= dims[nj++];
            } else {
                if (oj >= on)
                    return 0;
                op *= od[oj++];
            }
        }
        for (uint32_t k = oi; k + 1 < oj; k++)
            if (os[k] != od[k + 1] * os[k + 1])
                return 0;
        str[nj - 1] = os[oj - 1];
        for (uint32_t k = nj - 1; k > ni; k--)
            str[k - 1] = str[k] * dims[k];
        ni = nj++;
        oi = oj++;
    }
    for (uint32_t k = ni; k < nd; k++) {
        if (dims[k] != 1)
            return 0;
        str[k] = 0;
    }
    return oi >= on;
}

rdx_status mv_reshape(const ival *src, uint32_t nd, const int64_t *dims, ival *out)
{
    ival d;
    int64_t vs[MAXD];
    if (!iv_contig(src) && reshape_view(src, nd, dims, vs)) {
        *out = iv_ref(src);
        out->nd = nd;
        for (uint32_t k = 0; k < nd; k++)
            out->dims[k] = dims[k], out->str[k] = vs[k];
        return RDX_OK;
    }
    if (!iv_contig(src)) {
        rdx_status st = iv_dense(src, &d);
        if (st)
            return st;
    } else {
        d = iv_ref(src);
    }
    *out = d;
    out->nd = nd;
    int64_t str = 1;
    for (uint32_t k = nd; k-- > 0;) {
        out->dims[k] = dims[k];
        out->str[k] = str;
        str *= dims[k];
    }
    return RDX_OK;
}

rdx_status mv_pad(const ival *src, const int64_t *off, uint32_t nd, const int64_t *dims, ival *out)
{
    rdx_status st = iv_new(out, src->dt, nd, dims); /* zero = the invalid fill */
    if (st)
        return st;
    ival win = *out;
    for (uint32_t k = 0; k < nd; k++) {
        win.off += off[k] * win.str[k];
        win.dims[k] = src->dims[k];
    }
    iv_copy(&win, src);
    return RDX_OK;
}

static rdx_status read_index(const ival *ix, int64_t j, int64_t *v)
{
    ielem e = el_load(ix->dt, iv_ptr(ix, j * (ix->nd ? ix->str[0] : 0)));
    *v = e.i;
    return RDX_OK;
}

rdx_status mv_index(const ival *t, const ival *const *ix, uint32_t ni, uint32_t ndim,
                    const int64_t *dims, ival *out)
{
    ival view = iv_ref(t);
    int vec = 0;
    for (uint32_t k = 0; k < ni; k++)
        if (ix[k]->nd == 1)
            vec = 1;
    if (!vec) {
        for (uint32_t k = 0; k < ni; k++) {
            int64_t i;
            read_index(ix[k], 0, &i);
            if (i < 0 || i >= t->dims[k]) { /* out of range: the invalid value, 0 */
                iv_release(&view);
                return iv_new(out, t->dt, ndim, dims);
            }
            view.off += i * t->str[k];
        }
        view.nd = t->nd - ni;
        for (uint32_t k = 0; k < view.nd; k++) {
            view.dims[k] = t->dims[k + ni];
            view.str[k] = t->str[k + ni];
        }
        *out = view;
        return RDX_OK;
    }
    iv_release(&view);
    /* gather: out[j..., rest] = t[i_0[j_0] or i_0, ..., rest] */
    rdx_status st = iv_new(out, t->dt, ndim, dims);
    if (st)
        return st;
    int64_t total = iv_numel(out);
    unsigned es = dt_size(t->dt);
    uint32_t rest = t->nd - ni;
    int64_t idx[MAXD] = { 0 };
    for (int64_t e = 0; e < total; e++) {
        int64_t off = 0;
        uint32_t od = 0;
        int inside = 1;
        for (uint32_t k = 0; k < ni; k++) {
            int64_t i;
            if (ix[k]->nd == 1)
                read_index(ix[k], idx[od++], &i);
            else
                read_index(ix[k], 0, &i);
            inside &= i >= 0 && i < t->dims[k];
            off += i * t->str[k];
        }
        for (uint32_t k = 0; k < rest; k++)
            off += idx[od + k] * t->str[ni + k];
        if (inside) /* out of range: the invalid value, 0 (iv_new zero-fills) */
            memcpy(iv_ptr(out, e), iv_ptr(t, off), es);
        for (uint32_t k = ndim; k-- > 0;) {
            if (++idx[k] < dims[k])
                break;
            idx[k] = 0;
        }
    }
    return RDX_OK;
}
