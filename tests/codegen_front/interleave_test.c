/* tests/codegen_front/interleave_test.c — the FMAs of a register-tiled matmul's k loop are
 * interleaved across accumulators and dual-issued (codegen/interleave.c, render_vopd.c):
 * with 8 x 4 tiles and k unrolled by 8 (the heuristics' large-matmul form, staged through LDS)
 * each of the 32 accumulators takes 8 FMAs per iteration.  Expand builds them as 32 chains and
 * isel emitted the chains one after the other, every FMA but a chain's first waiting for the one
 * before it (`s_delay_alu ... VALU_DEP_1`) and none of them pairable.  Now few FMAs wait (at
 * most one s_delay_alu per 4 FMAs) and most issue in pairs (`v_dual_fmac_f32`).  The results are
 * checked against the interpreter on the emulated GPU of gfx1100 and of gfx1201 (gfx12's VOPD
 * spelling and bank rules). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codegen.h>

#include "tests/codegen_front/cgf_test.h"

#define F32 rdx_dtype_of(RDX_FLOAT32)

static unsigned count(const char *s, const char *what)
{
    unsigned n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

/* The loop body of the listing: from the last label before the back-edge branch to it. */
static char *loop_body(const char *a)
{
    const char *br = strstr(a, "s_cbranch_scc1");
    ck_assert_ptr_nonnull(br);
    const char *lab = NULL;
    for (const char *p = strstr(a, "\nbb"); p && p < br; p = strstr(p + 1, "\nbb"))
        lab = p;
    ck_assert_ptr_nonnull(lab);
    size_t n = (size_t)(br - lab);
    char *b = malloc(n + 1);
    ck_assert_ptr_nonnull(b);
    memcpy(b, lab, n);
    b[n] = 0;
    return b;
}

START_TEST(matmul_fmas_interleaved_and_paired)
{
    static const char *const targets[] = { "gfx1100", "gfx1201" };
    for (size_t t = 0; t < sizeof targets / sizeof *targets; t++) {
        uint64_t seed = 21;
        rdx_graph *g = cgf_graph();
        const rdx_tensor *a = cgf_random(g, F32, 2, (int64_t[]){ 64, 32 }, &seed);
        const rdx_tensor *b = cgf_random(g, F32, 2, (int64_t[]){ 32, 128 }, &seed);
        const rdx_tensor *c = rdx_tensor_matmul(g, a, b);
        rdx_opt o[] = { SPLIT(1, 8, UPCAST), SPLIT(0, 4, UPCAST), SPLIT(2, 8, UNROLL),
                        SPLIT(0, 16, LOCAL), SPLIT(1, 16, LOCAL), LDS(2) };
        size_t no = sizeof o / sizeof *o;
        if (t == 0) { /* values (the gfx1100 emulator against the interpreter) */
            cgf_run r = { 0 };
            r.on_emu = 1;
            r.mode = CGF_OPTS;
            r.opts = o;
            r.nopts = no;
            r.tol = 1e-4;
            cgf_check(g, &c, 1, &r);
        }
        rdx_ir_ctx *ctx = rdx_graph_ir(g);
        const rdx_uop *k = cgf_kernel_of(g, c), *ko;
        ck_assert_msg(rdx_cg_optimize(ctx, k, o, no, &ko) == RDX_OK, "%s", rdx_error_message());
        rdx_codegen_options co;
        memset(&co, 0, sizeof co);
        co.target = targets[t];
        co.keep_stages = 1u << RDX_CG_STAGE_ASM;
        rdx_codegen_kernel *ck = NULL;
        ck_assert_msg(rdx_codegen_compile(ctx, ko, &co, &ck) == RDX_OK, "%s", rdx_error_message());
        char *body = loop_body(ck->stage_text[RDX_CG_STAGE_ASM]);
        /* each half of a pair names its op: "v_dual_fmac_f32 v1, ... :: v_dual_fmac_f32 v2" */
        unsigned single = count(body, "v_fma_f32"), dual = count(body, "v_dual_fmac_f32 ");
        if (getenv("CGF_DEBUG"))
            fprintf(stderr, "%s: %u single, %u paired\n%s", targets[t], single, dual, body);
        /* 32 accumulators x 8 k per iteration, each FMA once */
        ck_assert_msg(single + dual == 256, "%s: %u single + %u paired FMAs", targets[t], single,
                      dual);
        ck_assert_msg(dual >= 128, "%s: only %u of 256 FMAs paired", targets[t], dual);
        /* stalls among the FMAs: in chains, 7 of every accumulator's 8 FMAs waited (about
           4 s_delay_alu per chain, one covers two waits); interleaved, only the run's tail
           (the last accumulators' last k steps) and VOPD's moves leave some */
        const char *f = strstr(body, "fma");
        unsigned delays = f ? count(f, "s_delay_alu") : 0;
        ck_assert_msg(delays <= 64, "%s: %u s_delay_alu among 256 FMAs", targets[t], delays);
        free(body);
        rdx_codegen_kernel_free(ck);
        rdx_graph_destroy(g);
    }
}
END_TEST

TCase *cgf_tcase_interleave(void)
{
    TCase *tc = tcase_create("interleave");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, matmul_fmas_interleaved_and_paired);
    return tc;
}
