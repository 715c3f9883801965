/*
 * tests/ir/gate_test.c — rdx_ir_simplify keeps every memory access safe.
 *
 * A WHERE is evaluated eagerly on the GPU (both branches run, a select picks
 * one), so a LOAD in a branch executes at every point, also where the WHERE's
 * condition is false.  Its gate and its address must therefore not be
 * simplified with what the condition implies.  The oracle is a small
 * evaluator written here with exactly those semantics (a gated LOAD reads only
 * where its gate is true; an executed read outside its buffer is a fault) and
 * closed-form expected values computed in C.
 */
#include <stdio.h>
#include <string.h>

#include "tests/ir/ir_test.h"

/* --------------------------------------------------------- the oracle */

typedef struct kmem {
    const rdx_uop *buf; /* the BUFFER node */
    const int32_t *data;
    int64_t n;
} kmem;

typedef struct kenv {
    const rdx_uop *const *leaves; /* RANGE / DEFINE_VAR nodes */
    const int64_t *vals;
    size_t nleaves;
    const kmem *mem;
    size_t nmem;
    int faults;          /* reads outside a buffer */
    char fault_msg[160]; /* the first one */
} kenv;

static int64_t kev(kenv *e, const rdx_uop *u);

/* An executed read of INDEX(buf, i): the value, or a fault outside the buffer. */
static int64_t kread(kenv *e, const rdx_uop *ix)
{
    ck_assert_int_eq(ix->op, RDX_OP_INDEX);
    ck_assert_uint_eq(ix->nsrc, 2);
    int64_t i = kev(e, ix->src[1]);
    for (size_t k = 0; k < e->nmem; k++) {
        if (e->mem[k].buf != ix->src[0])
            continue;
        if (i >= 0 && i < e->mem[k].n)
            return e->mem[k].data[i];
        if (!e->faults++)
            snprintf(e->fault_msg, sizeof e->fault_msg,
                     "read of element %lld of a %lld-element buffer", (long long)i,
                     (long long)e->mem[k].n);
        return 0x5eed; /* whatever lies behind the buffer */
    }
    ck_abort_msg("LOAD of an unknown buffer");
    return 0;
}

static int64_t kev(kenv *e, const rdx_uop *u)
{
    for (size_t k = 0; k < e->nleaves; k++)
        if (e->leaves[k] == u)
            return e->vals[k];
    int64_t a, b;
    switch ((rdx_op)u->op) {
    case RDX_OP_CONST:
        return u->arg.i;
    case RDX_OP_LOAD: /* (addr), (addr, gate) or (addr, alt, gate) */
        if (u->nsrc >= 2 && !kev(e, u->src[u->nsrc - 1]))
            return u->nsrc == 3 ? kev(e, u->src[1]) : 0;
        return kread(e, u->src[0]);
    case RDX_OP_WHERE: /* eager: both branches execute */
        a = kev(e, u->src[1]);
        b = kev(e, u->src[2]);
        return kev(e, u->src[0]) ? a : b;
    default:
        break;
    }
    ck_assert_uint_eq(u->nsrc, 2);
    a = kev(e, u->src[0]);
    b = kev(e, u->src[1]);
    switch ((rdx_op)u->op) {
    case RDX_OP_ADD:
        return a + b;
    case RDX_OP_MUL:
        return a * b;
    case RDX_OP_IDIV:
        ck_assert_int_ne(b, 0);
        return a / b;
    case RDX_OP_MOD:
        ck_assert_int_ne(b, 0);
        return a % b;
    case RDX_OP_CMPLT:
        return a < b;
    case RDX_OP_CMPNE:
        return a != b;
    case RDX_OP_AND:
        return a & b;
    case RDX_OP_OR:
        return a | b;
    case RDX_OP_MAX:
        return a > b ? a : b;
    default:
        ck_abort_msg("gate oracle: unexpected %s", rdx_op_name((rdx_op)u->op));
        return 0;
    }
}

typedef struct kernel {
    rdx_ir_ctx *c;
    const rdx_uop *r;   /* RANGE over [0, nr) */
    const rdx_uop *buf; /* int32 BUFFER of 4 elements */
    int64_t nr;
    int32_t data[4];
} kernel;

static void kernel_init(kernel *k, int64_t nr)
{
    k->c = ir_ctx();
    k->nr = nr;
    k->r = IR_OK(rdx_ir_range(k->c, IR_OK(rdx_ir_int(k->c, nr)), 0, RDX_AXIS_GLOBAL));
    int64_t dims[1] = { 4 };
    k->buf = IR_OK(rdx_ir_buffer(k->c, 0, rdx_dtype_of(RDX_INT32), "AMD", dims, 1));
    for (int i = 0; i < 4; i++)
        k->data[i] = 10 * (i + 1);
}

/* The value at r and the number of faulting reads (message in *msg). */
static int64_t run_at(kernel *k, const rdx_uop *g, int64_t r, int *faults, char *msg, size_t n)
{
    kmem m = { k->buf, k->data, 4 };
    const rdx_uop *leaves[1] = { k->r };
    kenv e = { leaves, &r, 1, &m, 1, 0, "" };
    int64_t v = kev(&e, g);
    *faults = e.faults;
    snprintf(msg, n, "%s", e.fault_msg);
    return v;
}

/*
 * want(r) is the closed form; the graph must give it at every r without a
 * fault, before and after rdx_ir_simplify.
 */
static void check_kernel(kernel *k, const rdx_uop *g, int64_t (*want)(const kernel *, int64_t))
{
    const rdx_uop *s;
    ck_assert_msg(rdx_ir_simplify(k->c, g, &s) == RDX_OK, "%s", rdx_error_message());
    const rdx_uop *both[2] = { g, s };
    for (int w = 0; w < 2; w++) {
        for (int64_t r = 0; r < k->nr; r++) {
            int faults;
            char msg[160];
            int64_t v = run_at(k, both[w], r, &faults, msg, sizeof msg);
            if (faults || v != want(k, r)) {
                char *t = NULL;
                rdx_ir_print(&both[w], 1, 0, &t);
                ck_abort_msg("%s graph at r=%lld: value %lld (want %lld), %d faulting reads "
                             "(%s)\n%s",
                             w ? "simplified" : "original", (long long)r, (long long)v,
                             (long long)want(k, r), faults, msg, t ? t : "");
            }
        }
    }
}

static const rdx_uop *Kc(kernel *k, int64_t v)
{
    return IR_OK(rdx_ir_int(k->c, v));
}

static const rdx_uop *I32(kernel *k, int64_t v)
{
    return IR_OK(rdx_ir_const_int(k->c, rdx_dtype_of(RDX_INT32), v));
}

static const rdx_uop *load(kernel *k, const rdx_uop *idx, const rdx_uop *alt, const rdx_uop *gate)
{
    const rdx_uop *ix[1] = { idx };
    const rdx_uop *src[3] = { IR_OK(rdx_ir_index(k->c, k->buf, ix, 1)), NULL, NULL };
    size_t n = 1;
    if (alt)
        src[n++] = alt;
    if (gate)
        src[n++] = gate;
    return IR_OK(rdx_ir_node(k->c, RDX_OP_LOAD, src, n, NULL));
}

/* ------------------------------------------------------------ tests */

static int64_t want_pad(const kernel *k, int64_t r)
{
    return r < 4 ? k->data[r] : -1;
}

/* where(r < 4, load(in[r], gate r < 4), -1): the gate must stay (r runs to 7). */
START_TEST(where_keeps_the_load_gate)
{
    kernel k;
    kernel_init(&k, 8);
    const rdx_uop *g = IR_OK(rdx_ir_cmplt(k.c, k.r, Kc(&k, 4)));
    const rdx_uop *w = IR_OK(rdx_ir_where(k.c, g, load(&k, k.r, NULL, g), I32(&k, -1)));
    check_kernel(&k, w, want_pad);
    /* the same with an alt value and with the condition negated */
    w = IR_OK(rdx_ir_where(k.c, g, load(&k, k.r, I32(&k, -1), g), I32(&k, -1)));
    check_kernel(&k, w, want_pad);
    const rdx_uop *ng = IR_OK(rdx_ir_not(k.c, g));
    w = IR_OK(rdx_ir_where(k.c, ng, I32(&k, -1), load(&k, k.r, NULL, g)));
    check_kernel(&k, w, want_pad);
    rdx_ir_ctx_destroy(k.c);
}
END_TEST

static int64_t want_nested(const kernel *k, int64_t r)
{
    return r < 4 ? k->data[r] + 1 : 0;
}

/* The gated load sits deeper in the branch, under an ADD. */
START_TEST(where_keeps_a_nested_load_gate)
{
    kernel k;
    kernel_init(&k, 8);
    const rdx_uop *g = IR_OK(rdx_ir_cmplt(k.c, k.r, Kc(&k, 4)));
    const rdx_uop *v = IR_OK(rdx_ir_add(k.c, load(&k, k.r, NULL, g), I32(&k, 1)));
    const rdx_uop *w = IR_OK(rdx_ir_where(k.c, g, v, I32(&k, 0)));
    check_kernel(&k, w, want_nested);
    rdx_ir_ctx_destroy(k.c);
}
END_TEST

static int64_t want_mod(const kernel *k, int64_t r)
{
    return r < 3 ? k->data[r % 3] : 7;
}

/*
 * where(r < 3, load(in[r % 3]), 7) over r < 6: the address is safe only
 * because of the % 3; inside the true branch r < 3 would make r % 3 == r,
 * but the load also runs at r = 3..5.
 */
START_TEST(where_keeps_the_load_address)
{
    kernel k;
    kernel_init(&k, 6);
    const rdx_uop *g = IR_OK(rdx_ir_cmplt(k.c, k.r, Kc(&k, 3)));
    const rdx_uop *a = IR_OK(rdx_ir_mod(k.c, k.r, Kc(&k, 3)));
    const rdx_uop *w = IR_OK(rdx_ir_where(k.c, g, load(&k, a, NULL, NULL), I32(&k, 7)));
    check_kernel(&k, w, want_mod);
    rdx_ir_ctx_destroy(k.c);
}
END_TEST

static int64_t want_outside(const kernel *k, int64_t r)
{
    return r < 4 ? k->data[r] * 2 + 1 : 0;
}

/* Values outside loads are still simplified with the gate: r < 4 in the branch becomes 1. */
START_TEST(where_still_simplifies_values)
{
    kernel k;
    kernel_init(&k, 8);
    const rdx_uop *g = IR_OK(rdx_ir_cmplt(k.c, k.r, Kc(&k, 4)));
    const rdx_uop *ld = load(&k, k.r, NULL, g);
    const rdx_uop *in_t = IR_OK(rdx_ir_add(k.c, IR_OK(rdx_ir_mul(k.c, ld, I32(&k, 2))),
                                           IR_OK(rdx_ir_where(k.c, g, I32(&k, 1), I32(&k, 0)))));
    const rdx_uop *w = IR_OK(rdx_ir_where(k.c, g, in_t, I32(&k, 0)));
    check_kernel(&k, w, want_outside);
    const rdx_uop *s,
        *want = IR_OK(rdx_ir_where(
            k.c, g, IR_OK(rdx_ir_add(k.c, IR_OK(rdx_ir_mul(k.c, ld, I32(&k, 2))), I32(&k, 1))),
            I32(&k, 0)));
    ck_assert_int_eq(rdx_ir_simplify(k.c, w, &s), RDX_OK);
    ck_assert_ptr_eq(s, want);
    rdx_ir_ctx_destroy(k.c);
}
END_TEST

TCase *ir_tcase_gate(void)
{
    TCase *tc = tcase_create("gate");
    tcase_set_timeout(tc, 60); /* ASan on a loaded shared machine exceeded Check's default 4 s */
    tcase_add_test(tc, where_keeps_the_load_gate);
    tcase_add_test(tc, where_keeps_a_nested_load_gate);
    tcase_add_test(tc, where_keeps_the_load_address);
    tcase_add_test(tc, where_still_simplifies_values);
    return tc;
}
