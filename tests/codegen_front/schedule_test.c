/* tests/codegen_front/schedule_test.c — the kernel split (what is fused,
 * what is materialised), multi-output kernels, copies, dependencies, the
 * memory plan, gradients of a two-layer MLP, callify, and error paths. */
#include <stdlib.h>
#include <string.h>

#include "tests/codegen_front/cgf_test.h"

#define F32 rdx_dtype_of(RDX_FLOAT32)

static rdx_schedule *sched(rdx_graph *g, const rdx_tensor *const *roots, size_t n)
{
    rdx_schedule *s = NULL;
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(roots[i] != NULL, "%s", rdx_graph_error(g));
    rdx_status st = rdx_cg_schedule(rdx_graph_ir(g), roots, n, &s);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    return s;
}

static int count_op(const rdx_uop *k, rdx_op op)
{
    const rdx_uop **order = NULL;
    size_t n = 0;
    ck_assert_int_eq(rdx_ir_toposort(k, &order, &n), RDX_OK);
    int c = 0;
    for (size_t i = 0; i < n; i++)
        c += order[i]->op == op;
    free(order);
    return c;
}

START_TEST(fusion_decisions)
{
    uint64_t seed = 21;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *a = cgf_random(g, F32, 2, (int64_t[]){ 8, 6 }, &seed);
    const rdx_tensor *b = cgf_random(g, F32, 2, (int64_t[]){ 8, 6 }, &seed);
    const rdx_tensor *bias = cgf_random(g, F32, 1, (int64_t[]){ 6 }, &seed);
    /* an elementwise chain with a broadcast and a transcendental: one kernel */
    const rdx_tensor *chain = rdx_tensor_exp2(g, rdx_tensor_add(g, rdx_tensor_mul(g, a, b), bias));
    rdx_schedule *s = sched(g, &chain, 1);
    ck_assert_uint_eq(s->nkernels, 1);
    ck_assert_uint_eq(s->nbuffers, 4); /* 3 inputs + 1 output */
    ck_assert_int_eq(count_op(s->kernels[0].sink, RDX_OP_LOAD), 3);
    rdx_schedule_free(s);
    /* a reduction followed by elementwise work on its result: fused */
    const rdx_tensor *r1 = rdx_tensor_adds(g, rdx_tensor_sum(g, a, 1, (int[]){ 1 }, 0), 1);
    s = sched(g, &r1, 1);
    ck_assert_uint_eq(s->nkernels, 1);
    ck_assert_int_eq(count_op(s->kernels[0].sink, RDX_OP_REDUCE), 1);
    rdx_schedule_free(s);
    /* softmax of one row: the max and the sum are read through a broadcast: materialised
       (two rows or more are row-fused: rowfuse_test.c) */
    const rdx_tensor *row = cgf_random(g, F32, 2, (int64_t[]){ 1, 6 }, &seed);
    const rdx_tensor *sm = rdx_tensor_softmax(g, row, 1);
    s = sched(g, &sm, 1);
    ck_assert_uint_eq(s->nkernels, 3);
    ck_assert_uint_eq(s->kernels[2].ndeps, 2);
    for (size_t b2 = 0; b2 < s->nbuffers; b2++)
        if (s->buffers[b2].kind == RDX_SBUF_TEMP)
            ck_assert_int_ge(s->buffers[b2].last, s->buffers[b2].first);
    rdx_schedule_free(s);
    /* matmul: the product is never materialised */
    const rdx_tensor *mm =
        rdx_tensor_matmul(g, a, rdx_tensor_transpose(g, b, 0, 1)); /* (8,6)@(6,8) */
    s = sched(g, &mm, 1);
    ck_assert_uint_eq(s->nkernels, 1);
    ck_assert_int_eq(count_op(s->kernels[0].sink, RDX_OP_REDUCE), 1);
    rdx_schedule_free(s);
    /* PAD becomes gated loads: every LOAD of the padded input has a gate */
    const rdx_tensor *pd = rdx_tensor_pad(g, a, (int64_t[]){ 1, 2 }, (int64_t[]){ 3, 0 }, 0.0);
    s = sched(g, &pd, 1);
    ck_assert_uint_eq(s->nkernels, 1);
    {
        const rdx_uop **order = NULL;
        size_t n = 0;
        ck_assert_int_eq(rdx_ir_toposort(s->kernels[0].sink, &order, &n), RDX_OK);
        int loads = 0;
        for (size_t i = 0; i < n; i++)
            if (order[i]->op == RDX_OP_LOAD) {
                loads++;
                ck_assert_uint_eq(order[i]->nsrc, 3);
            }
        ck_assert_int_eq(loads, 1);
        free(order);
    }
    rdx_schedule_free(s);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(multi_output_and_copies)
{
    uint64_t seed = 22;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *a = cgf_random(g, F32, 2, (int64_t[]){ 4, 9 }, &seed);
    const rdx_tensor *b = cgf_random(g, F32, 2, (int64_t[]){ 4, 9 }, &seed);
    const rdx_tensor *roots[4] = { rdx_tensor_add(g, a, b), rdx_tensor_mul(g, a, b),
                                   rdx_tensor_max(g, a, 1, (int[]){ 1 }, 0),
                                   rdx_tensor_sum(g, a, 1, (int[]){ 1 }, 0) };
    rdx_schedule *s = sched(g, roots, 4);
    /* two kernels: the two elementwise results share one, the two row reductions another */
    ck_assert_uint_eq(s->nkernels, 2);
    ck_assert_uint_eq(s->kernels[0].nouts, 2);
    ck_assert_uint_eq(s->kernels[1].nouts, 2);
    ck_assert_uint_eq(s->noutputs, 4);
    char *txt = NULL;
    ck_assert_int_eq(rdx_schedule_print(s, 1, &txt), RDX_OK);
    ck_assert_ptr_nonnull(strstr(txt, "kernel 1 r_4: writes"));
    ck_assert_ptr_nonnull(strstr(txt, "SINK"));
    free(txt);
    rdx_schedule_free(s);
    cgf_run r = { 0 };
    cgf_check(g, roots, 4, &r);
    ck_assert_uint_eq(r.nkernels, 2);
    /* an input returned as is, and CONTIGUOUS of an input: copies */
    const rdx_tensor *cp[2] = { a, rdx_tensor_contiguous(g, rdx_tensor_transpose(g, b, 0, 1)) };
    s = sched(g, cp, 2);
    ck_assert_uint_eq(s->nkernels, 2);
    ck_assert(s->kernels[0].is_copy);
    rdx_schedule_free(s);
    cgf_run r2 = { 0 };
    cgf_check(g, cp, 2, &r2);
    /* the same tensor twice: one buffer */
    const rdx_tensor *twice[2] = { roots[0], roots[0] };
    s = sched(g, twice, 2);
    ck_assert_uint_eq(s->outputs[0], s->outputs[1]);
    rdx_schedule_free(s);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(memory_plan)
{
    uint64_t seed = 23;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 1, 1024 }, &seed);
    /* softmax of softmax of softmax of one row (not row-fused): six temporaries, never all
       alive at once */
    const rdx_tensor *t = x;
    for (int i = 0; i < 3; i++)
        t = rdx_tensor_softmax(g, t, 1);
    rdx_schedule *s = sched(g, &t, 1);
    ck_assert_uint_ge(s->nkernels, 7);
    uint64_t off[64];
    rdx_plan_stats ps;
    ck_assert_int_eq(rdx_schedule_plan_memory(s, NULL, off, &ps), RDX_OK);
    ck_assert_uint_lt(ps.arena, ps.no_reuse);
    ck_assert_uint_ge(ps.arena, ps.lower_bound);
    /* buffers alive in the same kernel never overlap */
    for (size_t i = 0; i < s->nbuffers; i++)
        for (size_t j = i + 1; j < s->nbuffers; j++) {
            const rdx_sched_buffer *a = &s->buffers[i], *b = &s->buffers[j];
            int64_t na, nb;
            rdx_uop_const_int(a->numel, &na);
            rdx_uop_const_int(b->numel, &nb);
            int live = a->kind != RDX_SBUF_TEMP || b->kind != RDX_SBUF_TEMP ||
                       !(a->last < b->first || b->last < a->first);
            if (live)
                ck_assert(off[i] + (uint64_t)na * 4 <= off[j] ||
                          off[j] + (uint64_t)nb * 4 <= off[i]);
        }
    rdx_schedule_free(s);
    cgf_run r = { 0 };
    cgf_check(g, &t, 1, &r);
    ck_assert_uint_lt(r.arena, r.no_reuse);
    /* symbolic sizes need values */
    const rdx_uop *n = rdx_graph_var(g, "n", 1, 10);
    const rdx_tensor *e = rdx_tensor_empty_sym(g, F32, 1, &n);
    const rdx_tensor *y = rdx_tensor_muls(g, e, 3);
    s = sched(g, &y, 1);
    ck_assert_uint_eq(s->nvars, 1);
    ck_assert_int_eq(rdx_schedule_plan_memory(s, NULL, off, &ps), RDX_ERR_INVALID);
    int64_t v = 7;
    ck_assert_int_eq(rdx_schedule_plan_memory(s, &v, off, &ps), RDX_OK);
    ck_assert_uint_eq(ps.no_reuse, 2 * 256); /* two buffers of 28 bytes, 256-aligned */
    rdx_schedule_free(s);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(mlp_forward_backward)
{
    uint64_t seed = 24;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *x = cgf_random(g, F32, 2, (int64_t[]){ 4, 6 }, &seed);
    const rdx_tensor *w1 = cgf_random(g, F32, 2, (int64_t[]){ 6, 8 }, &seed);
    const rdx_tensor *w2 = cgf_random(g, F32, 2, (int64_t[]){ 8, 3 }, &seed);
    int32_t tv[4] = { 0, 2, 1, 2 };
    const rdx_tensor *tgt =
        rdx_tensor_from_data(g, rdx_dtype_of(RDX_INT32), 1, (int64_t[]){ 4 }, tv);
    const rdx_tensor *h = rdx_tensor_relu(g, rdx_tensor_matmul(g, x, w1));
    const rdx_tensor *loss = rdx_tensor_cross_entropy(g, rdx_tensor_matmul(g, h, w2), tgt);
    const rdx_tensor *params[2] = { w1, w2 }, *grads[2];
    ck_assert_msg(loss != NULL, "%s", rdx_graph_error(g));
    ck_assert_int_eq(rdx_gradient(g, loss, params, 2, grads), RDX_OK);
    const rdx_tensor *roots[3] = { loss, grads[0], grads[1] };
    cgf_run r = { 0 };
    r.tol = 1e-4;
    cgf_check(g, roots, 3, &r);
    cgf_run hrun = { 0 };
    hrun.mode = CGF_HEURISTIC;
    hrun.tol = 1e-4;
    cgf_check(g, roots, 3, &hrun);
    rdx_graph_destroy(g);
}
END_TEST

static rdx_status twice_plus(rdx_graph *g, const rdx_tensor *const *in, size_t nin,
                             const rdx_tensor **outs, size_t *nout, void *user)
{
    (void)nin;
    (void)user;
    outs[0] = rdx_tensor_add(g, rdx_tensor_muls(g, in[0], 2), in[1]);
    outs[1] = rdx_tensor_sum(g, in[0], 0, NULL, 0);
    *nout = 2;
    return RDX_OK;
}

START_TEST(callify_functions)
{
    uint64_t seed = 25;
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_tensor *a = cgf_random(g, F32, 1, (int64_t[]){ 7 }, &seed);
    const rdx_tensor *b = cgf_random(g, F32, 1, (int64_t[]){ 7 }, &seed);
    const rdx_tensor *outs[2];
    size_t nout;
    ck_assert_int_eq(
        rdx_function_apply(g, twice_plus, NULL, (const rdx_tensor *[]){ a, b }, 2, outs, &nout),
        RDX_OK);
    const rdx_uop *fn;
    ck_assert_int_eq(rdx_cg_callify(ctx, outs, 2, &fn), RDX_OK);
    ck_assert_int_eq(fn->op, RDX_OP_FUNCTION);
    ck_assert_uint_eq(fn->nsrc, 3); /* body + the two buffers */
    ck_assert_int_eq(fn->src[1]->op, RDX_OP_BUFFER);
    /* the body holds no FUNCTION, GETTUPLE or BUFFER, only PARAMs */
    ck_assert_int_eq(count_op(fn->src[0], RDX_OP_FUNCTION), 0);
    ck_assert_int_eq(count_op(fn->src[0], RDX_OP_GETTUPLE), 0);
    ck_assert_int_eq(count_op(fn->src[0], RDX_OP_BUFFER), 0);
    ck_assert_int_eq(count_op(fn->src[0], RDX_OP_PARAM), 2);
    cgf_run r = { 0 };
    cgf_check(g, outs, 2, &r);
    ck_assert_int_eq(rdx_cg_callify(ctx, outs, 0, &fn), RDX_ERR_INVALID);
    rdx_graph_destroy(g);
}
END_TEST

START_TEST(errors)
{
    rdx_graph *g = cgf_graph();
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_tensor *a = rdx_tensor_ones(g, F32, 1, (int64_t[]){ 4 });
    /* a BITCAST of bools that changes the item size (other sizes are lowered) */
    const rdx_tensor *bc =
        rdx_tensor_bitcast(g, rdx_tensor_ones(g, rdx_dtype_of(RDX_BOOL), 1, (int64_t[]){ 4 }),
                           rdx_dtype_of(RDX_UINT16));
    ck_assert_msg(bc != NULL, "%s", rdx_graph_error(g));
    rdx_schedule *s = NULL;
    ck_assert_int_eq(rdx_cg_schedule(ctx, &bc, 1, &s), RDX_ERR_UNSUPPORTED);
    ck_assert_ptr_null(s);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "BITCAST"));
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "item size"));
    /* an opaque CALL */
    const rdx_uop *body = rdx_ir_node(ctx, RDX_OP_TUPLE, &a, 1, NULL);
    const rdx_uop *cs[2] = { body, a };
    const rdx_uop *call = rdx_ir_node(ctx, RDX_OP_CALL, cs, 2, NULL);
    rdx_uop_arg gi = rdx_uop_arg_none();
    const rdx_uop *gt = call ? rdx_ir_node(ctx, RDX_OP_GETTUPLE, &call, 1, &gi) : NULL;
    if (gt) {
        ck_assert_int_eq(rdx_cg_schedule(ctx, &gt, 1, &s), RDX_ERR_UNSUPPORTED);
        ck_assert_ptr_nonnull(strstr(rdx_error_message(), "CALL"));
    }
    ck_assert_int_eq(rdx_cg_schedule(ctx, &a, 0, &s), RDX_ERR_INVALID);
    /* an AFTER whose STORE writes another buffer */
    const rdx_uop *b1 = rdx_ir_buffer(ctx, 90, F32, "CPU", (int64_t[]){ 4 }, 1);
    const rdx_uop *b2 = rdx_ir_buffer(ctx, 91, F32, "CPU", (int64_t[]){ 4 }, 1);
    const rdx_uop *stv[2] = { b2, a };
    const rdx_uop *sto = rdx_ir_node(ctx, RDX_OP_STORE, stv, 2, NULL);
    const rdx_uop *afv[2] = { b1, sto };
    const rdx_uop *aft = rdx_ir_node(ctx, RDX_OP_AFTER, afv, 2, NULL);
    ck_assert_ptr_nonnull(aft);
    ck_assert_int_eq(rdx_cg_schedule(ctx, &aft, 1, &s), RDX_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "AFTER(buffer, STORE(buffer, value))"));
    rdx_graph_destroy(g);
}
END_TEST

TCase *cgf_tcase_schedule(void)
{
    TCase *tc = tcase_create("schedule");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, fusion_decisions);
    tcase_add_test(tc, multi_output_and_copies);
    tcase_add_test(tc, memory_plan);
    tcase_add_test(tc, mlp_forward_backward);
    tcase_add_test(tc, callify_functions);
    tcase_add_test(tc, errors);
    return tc;
}
