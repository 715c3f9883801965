/* ir/op.c — the op table and the names of reduce ops, axis types and rules. */
#include <string.h>

#include "ir/ir_internal.h"

static const rdx_opinfo ops[] = {
#define ROW_(name, mn, mx, cat, fl, ak) { #name, mn, mx, cat, fl, ak },
    RDX_OP_LIST(ROW_)
#undef ROW_
};

const rdx_opinfo *rdx_op_info(rdx_op op)
{
    if ((unsigned)op >= RDX_OP_COUNT)
        return NULL;
    return &ops[op];
}

const char *rdx_op_name(rdx_op op)
{
    if ((unsigned)op >= RDX_OP_COUNT)
        return "?";
    return ops[op].name;
}

int rdx_op_lookup(const char *name, size_t len)
{
    for (int k = 0; k < RDX_OP_COUNT; k++)
        if (strlen(ops[k].name) == len && !memcmp(ops[k].name, name, len))
            return k;
    return -1;
}

static const char *const red_names[] = {
#define ROW_(n) #n,
    RDX_RED_LIST(ROW_)
#undef ROW_
};

static const char *const axis_names[] = {
#define ROW_(n, c) #n,
    RDX_AXIS_LIST(ROW_)
#undef ROW_
};

static const char *const rule_names[] = {
#define ROW_(n, t) t,
    RDX_RULE_LIST(ROW_)
#undef ROW_
};

const char *rdx_redop_name(rdx_redop r)
{
    return (unsigned)r < RDX_RED_COUNT ? red_names[r] : "?";
}

const char *rdx_axistype_name(rdx_axistype a)
{
    return (unsigned)a < RDX_AXIS_COUNT ? axis_names[a] : "?";
}

const char *rdx_rule_name(rdx_rule r)
{
    return (unsigned)r < RDX_RULE_COUNT ? rule_names[r] : "?";
}

rdx_uop_arg rdx_uop_arg_none(void)
{
    rdx_uop_arg a;
    memset(&a, 0, sizeof a);
    return a;
}
