/* tests/realize/report_test.c — what a realization reports: per-kernel GPU
 * times, the wave emulator's estimate on the emulated GPU (raw kernels cost
 * more than the heuristics'), the ISA, the OptOps, the memory plan (peak
 * with reuse below no reuse), BEAM (emulator and device timing, cache file). */
#include <stdlib.h>
#include <string.h>

#include "tests/realize/rz_test.h"

START_TEST(profile_and_isa)
{
    uint64_t seed = 21;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_tensor *A = rz_random(g, F32, 2, (int64_t[]){ 32, 24 }, &seed);
    const rdx_tensor *B = rz_random(g, F32, 2, (int64_t[]){ 24, 48 }, &seed);
    const rdx_tensor *mm = rdx_tensor_matmul(g, A, B);
    rdx_realize_options heur = { .profile = 1, .keep_isa = 1 };
    rdx_realize_options raw = { .profile = 1, .raw = 1 };
    rdx_realize_report *h = rz_check(g, dev, &mm, 1, &heur, 1e-5);
    rdx_realize_report *r = rz_check(g, dev, &mm, 1, &raw, 1e-5);
    ck_assert_uint_eq(h->nkernels, 1);
    ck_assert_uint_eq(r->nkernels, 1);
    const rdx_realize_kernel *hk = &h->kernels[0], *rk = &r->kernels[0];
    ck_assert_uint_gt(hk->gpu_ns, 0);
    ck_assert_uint_eq(h->total_ns, hk->gpu_ns);
    ck_assert_uint_gt(hk->num_vgprs, 0);
    ck_assert_uint_gt(hk->code_bytes, 0);
    /* a workgroup of whole waves, at most 1024 work-items */
    uint64_t wg = (uint64_t)hk->block[0] * hk->block[1] * hk->block[2];
    ck_assert_uint_ge(wg, 1);
    ck_assert_uint_le(wg, 1024);
    ck_assert_uint_gt(hk->nopts, 0); /* the heuristics tile a matmul */
    ck_assert_uint_eq(rk->nopts, 0); /* raw: none */
    ck_assert_ptr_nonnull(hk->isa);
    ck_assert_ptr_nonnull(strstr(hk->isa, "s_endpgm"));
    ck_assert_ptr_nonnull(strstr(hk->isa, "global_store"));
    ck_assert_ptr_null(rk->isa);
    ck_assert_ptr_null(hk->stage_text[RDX_CG_STAGE_ISEL]);
    if (h->emulated) {
        ck_assert_str_eq(h->os, "emu");
        ck_assert_uint_gt(hk->est_cycles, 0);
        ck_assert_uint_gt(hk->wave_insts, 0);
        ck_assert_uint_eq(h->total_cycles, hk->est_cycles);
        /* the heuristics' tiles and unrolling cost fewer cycles than raw loops */
        ck_assert_uint_gt(rk->est_cycles, hk->est_cycles);
    } else {
        ck_assert_uint_eq(hk->est_cycles, 0);
    }
    /* the printed report names every kernel and the memory plan */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    rdx_realize_report_print(h, f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, hk->name));
    ck_assert_ptr_nonnull(strstr(text, "GPU time on"));
    ck_assert_ptr_nonnull(strstr(text, "memory plan"));
    free(text);
    rdx_realize_report_free(h);
    rdx_realize_report_free(r);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

START_TEST(memory_plan_reuse)
{
    /* three chained softmaxes: their temporaries' lifetimes do not all overlap */
    uint64_t seed = 22;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    /* one row: not row-fused (two rows or more are one kernel) */
    const rdx_tensor *x = rz_random(g, F32, 2, (int64_t[]){ 1, 1024 }, &seed);
    const rdx_tensor *y =
        rdx_tensor_softmax(g, rdx_tensor_softmax(g, rdx_tensor_softmax(g, x, 1), 1), 1);
    rdx_realize_report *rep = rz_check(g, dev, &y, 1, NULL, 1e-5);
    ck_assert_uint_gt(rep->nkernels, 3);
    ck_assert_uint_gt(rep->memory.arena, 0);
    ck_assert_uint_lt(rep->memory.arena, rep->memory.no_reuse);
    /* at least input and output (4 KiB each) are live throughout */
    ck_assert_uint_ge(rep->memory.arena, 2 * 1024 * 4);
    for (size_t k = 0; k < rep->nkernels; k++)
        ck_assert_uint_gt(rep->kernels[k].gpu_ns, 0);
    rdx_realize_report_free(rep);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

START_TEST(beam)
{
    uint64_t seed = 23;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_tensor *A = rz_random(g, F32, 2, (int64_t[]){ 16, 8 }, &seed);
    const rdx_tensor *B = rz_random(g, F32, 2, (int64_t[]){ 8, 32 }, &seed);
    const rdx_tensor *mm = rdx_tensor_matmul(g, A, B);
    char *cache = rdx_test_tmp_path("beam.cache");
    rdx_cg_beam_cache_clear();
    rdx_realize_options o = { .beam = 2, .beam_steps = 2, .beam_cache = cache, .profile = 1 };
    rdx_realize_report *rep = rz_check(g, dev, &mm, 1, &o, 1e-5);
    ck_assert_uint_eq(rep->nkernels, 1);
    ck_assert_uint_gt(rep->kernels[0].nopts, 0); /* BEAM beats no opts on a matmul */
    rdx_realize_report_free(rep);
    size_t len = 0;
    char *text = rdx_test_read_file(cache, &len);
    ck_assert_uint_gt(len, 0);
    free(text);
    /* timed by dispatches on the device (GPU timestamps), on a small elementwise kernel */
    const rdx_tensor *e = rdx_tensor_exp(g, rdx_tensor_add(g, A, A));
    rdx_realize_options od = { .beam = 1, .beam_steps = 1, .beam_on_device = 1 };
    rz_check_free(g, dev, &e, 1, &od, 1e-5);
    rdx_cg_beam_cache_clear();
    free(cache);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

START_TEST(log_lines)
{
    uint64_t seed = 24;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_tensor *x = rz_random(g, F32, 2, (int64_t[]){ 5, 37 }, &seed);
    const rdx_tensor *y = rdx_tensor_softmax(g, x, 1);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    rdx_realize_options o = { .log = f };
    rdx_realize_report *rep = rz_check(g, dev, &y, 1, &o, 1e-5);
    fclose(f);
    /* one line per kernel, in schedule order */
    size_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    ck_assert_uint_eq(lines, rep->nkernels);
    ck_assert_ptr_nonnull(strstr(text, rep->kernels[rep->nkernels - 1].name));
    free(text);
    rdx_realize_report_free(rep);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

START_TEST(stages)
{
    uint64_t seed = 25;
    rdx_device *dev = rz_device();
    rdx_graph *g = rz_graph();
    const rdx_tensor *x = rz_random(g, F32, 1, (int64_t[]){ 300 }, &seed);
    const rdx_tensor *y = rdx_tensor_sqrt(g, rdx_tensor_abs(g, x));
    rdx_realize_options o = { .keep_stages = 1u << RDX_CG_STAGE_ISEL | 1u << RDX_CG_STAGE_ASM };
    rdx_realize_report *rep = rz_check(g, dev, &y, 1, &o, 1e-5);
    ck_assert_uint_eq(rep->nkernels, 1);
    const rdx_realize_kernel *k = &rep->kernels[0];
    ck_assert_ptr_nonnull(k->stage_text[RDX_CG_STAGE_ISEL]);
    ck_assert_ptr_nonnull(k->stage_text[RDX_CG_STAGE_ASM]);
    ck_assert_ptr_null(k->stage_text[RDX_CG_STAGE_LINEAR]);
    ck_assert_ptr_eq(k->isa, k->stage_text[RDX_CG_STAGE_ASM]);
    ck_assert_ptr_nonnull(strstr(k->isa, "s_endpgm"));
    rdx_realize_report_free(rep);
    rdx_graph_destroy(g);
    rz_device_close(dev);
}
END_TEST

TCase *rz_tcase_report(void)
{
    TCase *tc = tcase_create("report");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, profile_and_isa);
    tcase_add_test(tc, memory_plan_reuse);
    tcase_add_test(tc, beam);
    tcase_add_test(tc, log_lines);
    tcase_add_test(tc, stages);
    return tc;
}
