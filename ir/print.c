/*
 * ir/print.c — the canonical text form of a UOp graph (grammar in docs/ir.md).
 * One node per line, sources before users, names %0, %1, ... in that order.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/isa.h>

#include "ir/ir_internal.h"
#include "util/buf.h"

/* Shortest %g form that reads back to the same double. */
static rdx_status put_double(rdx_buf *b, double v)
{
    if (isnan(v))
        return rdx_buf_printf(b, "nan");
    if (isinf(v))
        return rdx_buf_printf(b, v < 0 ? "-inf" : "inf");
    char tmp[64];
    for (int p = 1; p <= 17; p++) {
        snprintf(tmp, sizeof tmp, "%.*g", p, v);
        if (strtod(tmp, NULL) == v && (v != 0 || signbit(v) == signbit(strtod(tmp, NULL))))
            break;
    }
    return rdx_buf_printf(b, "%s", tmp);
}

static rdx_status put_str(rdx_buf *b, const char *s, size_t len)
{
    rdx_status st = rdx_buf_u8(b, '"');
    for (size_t i = 0; i < len && !st; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            st = rdx_buf_printf(b, "\\%c", c);
        else if (c == '\n')
            st = rdx_buf_printf(b, "\\n");
        else if (c == '\t')
            st = rdx_buf_printf(b, "\\t");
        else if (c < 0x20 || c >= 0x7f)
            st = rdx_buf_printf(b, "\\x%02x", c);
        else
            st = rdx_buf_u8(b, c);
    }
    return st ? st : rdx_buf_u8(b, '"');
}

static int bare_ok(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == ':' || *s == '.' || *s == '-'))
            return 0;
    return 1;
}

static rdx_status put_name(rdx_buf *b, const char *s)
{
    if (bare_ok(s))
        return rdx_buf_printf(b, "%s", s);
    return put_str(b, s, strlen(s));
}

static rdx_status put_ints(rdx_buf *b, const int64_t *v, uint32_t n)
{
    rdx_status st = rdx_buf_u8(b, '(');
    for (uint32_t k = 0; k < n && !st; k++)
        st = rdx_buf_printf(b, "%s%" PRId64, k ? "," : "", v[k]);
    return st ? st : rdx_buf_u8(b, ')');
}

static rdx_status put_dtype(rdx_buf *b, rdx_dtype d)
{
    char tmp[48];
    return rdx_buf_printf(b, " dtype=%s", rdx_dtype_str(d, tmp, sizeof tmp));
}

static rdx_status put_place(rdx_buf *b, const rdx_uop_arg *a)
{
    rdx_status st = RDX_OK;
    if (a->device) {
        st = rdx_buf_printf(b, " device=");
        if (a->device->n > 1)
            st = st ? st : rdx_buf_u8(b, '(');
        for (uint32_t k = 0; k < a->device->n && !st; k++) {
            if (k)
                st = rdx_buf_u8(b, ',');
            st = st ? st : put_name(b, a->device->names[k]);
        }
        if (a->device->n > 1 && !st)
            st = rdx_buf_u8(b, ')');
    }
    if (!st && a->addrspace)
        st = rdx_buf_printf(b, " addr=%s", rdx_addrspace_name((rdx_addrspace)a->addrspace));
    return st;
}

static rdx_status put_arg(rdx_buf *b, const rdx_uop *u)
{
    const rdx_uop_arg *a = &u->arg;
    rdx_status st = RDX_OK;
    switch (rdx_op_info((rdx_op)u->op)->argk) {
    case RDX_ARGK_NONE:
        break;
    case RDX_ARGK_CONST:
        st = put_dtype(b, a->dtype);
        st = st ? st : rdx_buf_printf(b, " value=");
        if (!st && rdx_dtype_is_float(a->dtype))
            st = put_double(b, a->f);
        else if (!st)
            st = rdx_buf_printf(b, "%" PRId64, a->i);
        break;
    case RDX_ARGK_PARAM:
    case RDX_ARGK_BUFFER:
        st = rdx_buf_printf(b, " slot=%" PRId64, a->i);
        st = st ? st : put_dtype(b, a->dtype);
        st = st ? st : put_place(b, a);
        break;
    case RDX_ARGK_DTYPE:
        st = put_dtype(b, a->dtype);
        break;
    case RDX_ARGK_SLOT:
        st = rdx_buf_printf(b, " slot=%" PRId64, a->i);
        st = st ? st : put_dtype(b, a->dtype);
        break;
    case RDX_ARGK_INTS:
        st = rdx_buf_printf(b, " ints=");
        st = st ? st : put_ints(b, a->ints, a->nints);
        break;
    case RDX_ARGK_REDUCE:
        st = rdx_buf_printf(b, " op=%s axes=", rdx_redop_name((rdx_redop)a->sub));
        st = st ? st : put_ints(b, a->ints, a->nints);
        break;
    case RDX_ARGK_INDEX:
        st = rdx_buf_printf(b, " index=%" PRId64, a->i);
        break;
    case RDX_ARGK_PLACE:
        st = put_place(b, a);
        break;
    case RDX_ARGK_RANGE:
        st = rdx_buf_printf(b, " axis=%" PRId64 " type=%s", a->i,
                            rdx_axistype_name((rdx_axistype)a->sub));
        break;
    case RDX_ARGK_VAR:
        st = rdx_buf_printf(b, " name=");
        st = st ? st : put_str(b, a->str, a->len);
        st = st ? st : rdx_buf_printf(b, " min=%" PRId64 " max=%" PRId64, a->i, a->j);
        break;
    case RDX_ARGK_STR:
        st = rdx_buf_printf(b, " str=");
        st = st ? st : put_str(b, a->str, a->len);
        break;
    case RDX_ARGK_STRDTYPE:
        st = rdx_buf_printf(b, " str=");
        st = st ? st : put_str(b, a->str, a->len);
        st = st ? st : put_dtype(b, a->dtype);
        break;
    case RDX_ARGK_BYTES:
        st = rdx_buf_printf(b, " bytes=");
        st = st ? st : put_str(b, a->str, a->len);
        break;
    case RDX_ARGK_INS: {
        rdx_isa_inst in;
        char text[256];
        if (!rdx_uop_ins(u, &in)) {
            st = rdx_buf_printf(b, " label=%" PRId64, a->i);
            break;
        }
        st = rdx_ins_format(&in, text, sizeof text);
        st = st ? rdx_fail_context(st, "print: INS node #%u", u->id) : rdx_buf_printf(b, " asm=");
        st = st ? st : put_str(b, text, strlen(text));
        break;
    }
    case RDX_ARGK_VCONST:
        st = put_dtype(b, a->dtype);
        if (!st && rdx_dtype_is_float(a->dtype)) {
            st = rdx_buf_printf(b, " values=(");
            for (uint32_t k = 0; k < a->nints && !st; k++) {
                double f;
                memcpy(&f, &a->ints[k], sizeof f);
                st = k ? rdx_buf_u8(b, ',') : RDX_OK;
                st = st ? st : put_double(b, f);
            }
            st = st ? st : rdx_buf_u8(b, ')');
        } else if (!st) {
            st = rdx_buf_printf(b, " values=");
            st = st ? st : put_ints(b, a->ints, a->nints);
        }
        break;
    }
    if (!st && u->tag)
        st = rdx_buf_printf(b, " tag=%" PRId32, u->tag);
    return st;
}

rdx_status rdx_ir_print(const rdx_uop *const *roots, size_t n, int annotate, char **out)
{
    rdx_pmap num = { 0 };
    const rdx_uop **order = NULL;
    size_t count = 0;
    rdx_buf b = { 0 };
    rdx_status st = rdx_ir_topo_many(roots, n, &num, &order, &count);
    for (size_t i = 0; i < count && !st; i++) {
        const rdx_uop *u = order[i];
        st = rdx_buf_printf(&b, "%%%zu = %s", i, rdx_op_name((rdx_op)u->op));
        for (uint32_t k = 0; k < u->nsrc && !st; k++)
            st = rdx_buf_printf(&b, "%s%%%zu", k ? ", " : " ",
                                (size_t)(uintptr_t)rdx_pmap_get(&num, u->src[k]) - 2);
        st = st ? st : put_arg(&b, u);
        if (!st && annotate) {
            char d[512];
            st = rdx_buf_printf(&b, "  ; %s", rdx_uop_describe(u, d, sizeof d));
        }
        st = st ? st : rdx_buf_u8(&b, '\n');
    }
    if (!st && n) {
        st = rdx_buf_printf(&b, "return");
        for (size_t r = 0; r < n && !st; r++)
            st = rdx_buf_printf(&b, "%s%%%zu", r ? ", " : " ",
                                (size_t)(uintptr_t)rdx_pmap_get(&num, roots[r]) - 2);
        st = st ? st : rdx_buf_u8(&b, '\n');
    }
    st = st ? st : rdx_buf_u8(&b, 0);
    free(order);
    rdx_pmap_free(&num);
    if (st) {
        rdx_buf_free(&b);
        return st;
    }
    *out = (char *)b.data;
    return RDX_OK;
}
