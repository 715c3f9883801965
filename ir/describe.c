/* ir/describe.c — short human-readable descriptions of nodes, for messages and `rdx uop check`. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ir/ir_internal.h"

typedef struct sbuf {
    char *p;
    size_t n, len;
} sbuf;

static void put(sbuf *b, const char *fmt, ...) RDX_PRINTF(2, 3);
static void put(sbuf *b, const char *fmt, ...)
{
    if (b->len >= b->n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->p + b->len, b->n - b->len, fmt, ap);
    va_end(ap);
    if (k > 0)
        b->len += (size_t)k;
    if (b->len >= b->n)
        b->len = b->n - 1;
}

/* An index expression in infix form (depth-limited). */
static void expr(sbuf *b, const rdx_uop *u, int depth)
{
    int64_t v;
    if (rdx_uop_const_int(u, &v)) {
        put(b, "%" PRId64, v);
        return;
    }
    if (u->op == RDX_OP_DEFINE_VAR) {
        put(b, "%s", u->arg.str);
        return;
    }
    if (u->op == RDX_OP_RANGE) {
        put(b, "r%" PRId64, u->arg.i);
        return;
    }
    const char *sym = NULL;
    switch (u->op) {
    case RDX_OP_ADD:
        sym = "+";
        break;
    case RDX_OP_MUL:
        sym = "*";
        break;
    case RDX_OP_IDIV:
        sym = "//";
        break;
    case RDX_OP_MOD:
        sym = "%";
        break;
    default:
        break;
    }
    if (!sym || depth > 6) {
        put(b, "%s#%u", rdx_op_name((rdx_op)u->op), u->id);
        return;
    }
    put(b, "(");
    expr(b, u->src[0], depth + 1);
    put(b, "%s", sym);
    expr(b, u->src[1], depth + 1);
    put(b, ")");
}

static void shape(sbuf *b, const rdx_uop *u)
{
    put(b, "[");
    for (uint32_t k = 0; k < u->ndim; k++) {
        if (k)
            put(b, ",");
        expr(b, u->shape[k], 0);
    }
    put(b, "]");
}

void rdx_ir_shape_str(const rdx_uop *u, char *buf, size_t n)
{
    sbuf b = { buf, n, 0 };
    buf[0] = 0;
    shape(&b, u);
}

static void dtype_shape(sbuf *b, const rdx_uop *u)
{
    char db[48];
    put(b, "%s", rdx_dtype_str(u->dtype, db, sizeof db));
    shape(b, u);
}

void rdx_ir_node_head(const rdx_uop *u, char *buf, size_t n)
{
    sbuf b = { buf, n, 0 };
    buf[0] = 0;
    put(&b, "%s(", rdx_op_name((rdx_op)u->op));
    for (uint32_t k = 0; k < u->nsrc && k < 8; k++) {
        if (k)
            put(&b, ", ");
        dtype_shape(&b, u->src[k]);
    }
    if (u->nsrc > 8)
        put(&b, ", ... %u sources", u->nsrc);
    put(&b, ")");
}

rdx_status rdx_ir_rule_fail(const rdx_uop *u, rdx_rule r, const char *fmt, ...)
{
    char head[512], detail[512];
    rdx_ir_node_head(u, head, sizeof head);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    return rdx_fail(RDX_ERR_INVALID, "%s: [%s] %s", head, rdx_rule_name(r), detail);
}

static void device(sbuf *b, const rdx_uop_device *d)
{
    if (d->n == 1) {
        put(b, "%s", d->names[0]);
        return;
    }
    put(b, "(");
    for (uint32_t k = 0; k < d->n; k++)
        put(b, "%s%s", k ? "," : "", d->names[k]);
    put(b, ")");
}

const char *rdx_uop_describe(const rdx_uop *u, char *buf, size_t n)
{
    sbuf b = { buf, n, 0 };
    buf[0] = 0;
    dtype_shape(&b, u);
    if (u->device) {
        put(&b, " device=");
        device(&b, u->device);
    }
    if (u->addrspace != RDX_ADDR_NONE)
        put(&b, " addr=%s", rdx_addrspace_name((rdx_addrspace)u->addrspace));
    if (u->axis >= 0)
        put(&b, " axis=%d", u->axis);
    if (rdx_dtype_is_float(u->dtype))
        put(&b, " min_max=[%.17g,%.17g]", u->fmin, u->fmax);
    else if (u->dtype.scalar != RDX_VOID)
        put(&b, " min_max=[%" PRId64 ",%" PRId64 "]", u->vmin, u->vmax);
    return buf;
}
