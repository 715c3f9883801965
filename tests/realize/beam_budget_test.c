/* tests/realize/beam_budget_test.c — the BEAM timer's budget (rdx_cg_timer's limit): on the
 * wave emulator the cycle limit stops a run whose kernel estimate is known to exceed it and
 * never one at or under it; on a device (the emulated GPU through the driver, the same path
 * as a card) a fence wait timeout of the limit followed by the queue's reset, after which
 * the queue runs the next candidate. */
#include <stdlib.h>
#include <string.h>

#include <rdx/codegen_front.h>
#include <rdx/runtime.h>

#include "tests/realize/rz_test.h"

/* The kernel form of the sum of exp(x) over n elements: raw (one work-item, ~10 n
   wave-instructions) or with the heuristics' opts. */
static const rdx_uop *sum_kernel(rdx_graph *g, int64_t n, int raw, rdx_schedule **s)
{
    uint64_t seed = 35;
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_tensor *x = rz_random(g, F32, 1, &n, &seed);
    const rdx_tensor *t = rdx_tensor_sum(g, rdx_tensor_exp(g, x), 0, NULL, 0);
    ck_assert_int_eq(rdx_cg_schedule(ctx, &t, 1, s), RDX_OK);
    const rdx_uop *typed, *o, *e;
    ck_assert_int_eq(rdx_cg_axis_types(ctx, (*s)->kernels[0].sink, &typed), RDX_OK);
    ck_assert_int_eq(rdx_cg_optimize(ctx, typed, NULL, 0, &o), RDX_OK);
    if (raw)
        ck_assert_int_eq(rdx_cg_expand(ctx, typed, &e), RDX_OK);
    else
        e = o;
    return e;
}

START_TEST(budget_on_emulator)
{
    rdx_graph *g = rz_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    rdx_schedule *s;
    const rdx_uop *k = sum_kernel(g, 1 << 18, 1, &s);
    rdx_cg_timer fn;
    rdx_realize_beam_timer *t;
    ck_assert_int_eq(rdx_realize_beam_timer_create(ctx, NULL, NULL, NULL, NULL, 0, 0, &fn, &t),
                     RDX_OK);
    double full, c = -1;
    ck_assert_msg(fn(k, t, 0, &full) == RDX_OK, "%s", rdx_error_message());
    /* a quarter of its cost: stopped, reported as over the budget */
    ck_assert_int_eq(fn(k, t, full / 4, &c), RDX_ERR_TIMEOUT);
    ck_assert_msg(strstr(rdx_error_message(), "over the budget") &&
                      strstr(rdx_error_message(), "cycle limit"),
                  "%s", rdx_error_message());
    ck_assert(c == -1);
    /* a limit at its cost: runs to the end with the same cost */
    ck_assert_msg(fn(k, t, full, &c) == RDX_OK, "%s", rdx_error_message());
    ck_assert(c == full);
    rdx_realize_beam_timer_free(t);
    rdx_schedule_free(s);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(budget_on_device)
{
    rdx_device *dev = rz_device();
    rdx_queue *q;
    ck_assert_int_eq(rdx_queue_create(dev, RDX_QUEUE_COMPUTE, &q), RDX_OK);
    rdx_graph *g = rz_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    rdx_schedule *s, *s2;
    /* ~40M wave-instructions: far more than the 20 ms the budget waits on any machine */
    const rdx_uop *slow = sum_kernel(g, 1 << 22, 1, &s), *fast = sum_kernel(g, 1 << 18, 0, &s2);
    rdx_cg_timer fn;
    rdx_realize_beam_timer *t;
    ck_assert_int_eq(rdx_realize_beam_timer_create(ctx, dev, q, NULL, NULL, 0, 0, &fn, &t), RDX_OK);
    /* a 1 ns budget: the wait gives up after the slack (20 ms), the queue is reset */
    double c = -1;
    ck_assert_int_eq(fn(slow, t, 1, &c), RDX_ERR_TIMEOUT);
    ck_assert_msg(strstr(rdx_error_message(), "over the budget 1 ns"), "%s", rdx_error_message());
    /* the queue runs the next candidate, with and without a budget */
    ck_assert_msg(fn(fast, t, 0, &c) == RDX_OK, "%s", rdx_error_message());
    ck_assert(c > 0);
    ck_assert_msg(fn(fast, t, 1e12, &c) == RDX_OK, "%s", rdx_error_message());
    rdx_realize_beam_timer_free(t);
    ck_assert_int_eq(rdx_queue_destroy(q), RDX_OK);
    rdx_schedule_free(s);
    rdx_schedule_free(s2);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

TCase *rz_tcase_beam_budget(void)
{
    TCase *tc = tcase_create("beam_budget");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, budget_on_emulator);
    tcase_add_test(tc, budget_on_device);
    return tc;
}
