/* tests/codegen_front/lds_align_test.c — every multi-dword LDS access rdx emits is naturally
 * aligned (docs/codegen-backend.md "LDS alignment"): for LDS-staged kernels (float32 matmuls
 * with register tiles whose LDS rows need padding or not, a 3x3 conv with its weights staged)
 * each ds_load/ds_store_b64/b96/b128 of the assembly has a constant offset that is a multiple of
 * its natural alignment (8, 16, 16), and on the emulated GPU — whose DS unit checks every
 * lane's actual byte address (rdx_emu_counters.lds_misaligned) — no lane access is misaligned.
 * Results are compared with the reference interpreter as in lds_test.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codegen.h>
#include <rdx/realize.h>

#include "tests/codegen_front/cgf_test.h"

#define F32 rdx_dtype_of(RDX_FLOAT32)

/* Counts of the wide LDS accesses of an assembly listing. */
typedef struct wide {
    unsigned b64, b96, b128, misaligned;
} wide;

/* Scan asm: each ds_load/ds_store_b64/b96/b128 line, its offset (0 when absent) against the
   natural alignment (8; 16 for b96/b128). */
static wide scan(const char *asmt)
{
    wide w = { 0 };
    for (const char *l = asmt; l && *l;) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) : strlen(l);
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)(len < 255 ? len : 255), l);
        const char *d = strstr(line, "ds_load_b");
        if (!d)
            d = strstr(line, "ds_store_b");
        if (d) {
            unsigned bits = (unsigned)atoi(strchr(d, 'b') + 1);
            const char *o = strstr(line, " offset:");
            unsigned off = o ? (unsigned)atoi(o + 8) : 0, al = bits == 64 ? 8 : 16;
            if (bits >= 64) {
                w.b64 += bits == 64, w.b96 += bits == 96, w.b128 += bits == 128;
                w.misaligned += off % al != 0;
            }
        }
        l = e ? e + 1 : NULL;
    }
    return w;
}

/* The checker itself: it finds a misaligned offset. */
START_TEST(lds_align_scan)
{
    wide w = scan("  ds_load_b128 v[0:3], v4 offset:32\n  ds_load_b96 v[0:2], v4 offset:8\n"
                  "  ds_store_b64 v4, v[0:1] offset:12\n  ds_load_b64 v[0:1], v4\n"
                  "  ds_load_b32 v0, v4 offset:2\n");
    ck_assert_uint_eq(w.b128, 1);
    ck_assert_uint_eq(w.b96, 1);
    ck_assert_uint_eq(w.b64, 2);
    ck_assert_uint_eq(w.misaligned, 2);
}
END_TEST

/* t (one kernel) with opts: against the interpreter on the emulator (relative tolerance tol);
   then compiled alone, its asm scanned and run once (on zeroed buffers) with the emulator's
   alignment counter. */
static wide check_tol(rdx_graph *g, const rdx_tensor *t, const rdx_opt *o, size_t n, double tol)
{
    cgf_run r = { 0 };
    r.on_emu = 1;
    r.mode = CGF_OPTS;
    r.opts = o;
    r.nopts = n;
    r.tol = tol;
    cgf_check(g, &t, 1, &r);
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    const rdx_uop *k = cgf_kernel_of(g, t), *ko;
    ck_assert_msg(rdx_cg_optimize(ctx, k, o, n, &ko) == RDX_OK, "%s", rdx_error_message());
    rdx_codegen_options co;
    memset(&co, 0, sizeof co);
    co.keep_stages = 1u << RDX_CG_STAGE_ASM;
    rdx_codegen_kernel *ck = NULL;
    ck_assert_msg(rdx_codegen_compile(ctx, ko, &co, &ck) == RDX_OK, "%s", rdx_error_message());
    wide w = scan(ck->stage_text[RDX_CG_STAGE_ASM]);
    ck_assert_msg(!w.misaligned, "%s", ck->stage_text[RDX_CG_STAGE_ASM]);
    /* its buffers: every PARAM, zeroed (the addresses are what is checked) */
    const rdx_uop **order;
    size_t no;
    ck_assert_int_eq(rdx_ir_toposort(ko, &order, &no), RDX_OK);
    void *bufs[8] = { 0 };
    size_t sizes[8] = { 0 };
    uint64_t ptrs[8] = { 0 };
    size_t np = 0;
    for (size_t i = 0; i < no; i++) {
        const rdx_uop *u = order[i];
        int64_t ne;
        if (u->op != RDX_OP_PARAM)
            continue;
        ck_assert(u->arg.i >= 0 && u->arg.i < 8 && rdx_uop_numel(u, &ne));
        size_t s = (size_t)u->arg.i;
        sizes[s] = (size_t)ne * rdx_dtype_itemsize(rdx_dtype_scalar(u->arg.dtype));
        bufs[s] = calloc(1, sizes[s]);
        ck_assert_ptr_nonnull(bufs[s]);
        ptrs[s] = (uint64_t)(uintptr_t)bufs[s];
        np = s + 1 > np ? s + 1 : np;
    }
    free(order);
    rdx_codegen_bindings b = { .ptrs = ptrs, .nptrs = np };
    rdx_realize_emu_stats es;
    ck_assert_msg(rdx_realize_emu_run(ck, &b, sizes, 200000000, &es) == RDX_OK, "%s",
                  rdx_error_message());
    ck_assert_uint_eq(es.lds_misaligned, 0);
    for (size_t s = 0; s < np; s++)
        free(bufs[s]);
    rdx_codegen_kernel_free(ck);
    return w;
}

static wide check(rdx_graph *g, const rdx_tensor *t, const rdx_opt *o, size_t n)
{
    return check_tol(g, t, o, n, 1e-4);
}

static const rdx_tensor *mmd(rdx_graph *g, rdx_dtype dt, int64_t m, int64_t k, int64_t n,
                             uint64_t *seed)
{
    const rdx_tensor *a = cgf_random(g, dt, 2, (int64_t[]){ m, k }, seed);
    const rdx_tensor *b = cgf_random(g, dt, 2, (int64_t[]){ k, n }, seed);
    return rdx_tensor_matmul(g, a, b);
}

static const rdx_tensor *mm(rdx_graph *g, int64_t m, int64_t k, int64_t n, uint64_t *seed)
{
    return mmd(g, F32, m, k, n, seed);
}

START_TEST(lds_align_matmul)
{
    uint64_t seed = 5;
    /* large-matmul tiles (8 x 4 per work-item, k by 4, 16 x 16; the heuristics now stage them
       8 deep) staged: rows of
       4 and 128 dwords, no padding; the reads are b128, B's slot stores (2 dwords each, from
       one global_load_b64) one ds_store_b64 */
    rdx_graph *g = cgf_graph();
    rdx_opt o1[] = { SPLIT(1, 8, UPCAST), SPLIT(0, 4, UPCAST), SPLIT(2, 4, UNROLL),
                     SPLIT(0, 16, LOCAL), SPLIT(1, 16, LOCAL), LDS(2) };
    wide w = check(g, mm(g, 128, 32, 128, &seed), o1, sizeof o1 / sizeof *o1);
    ck_assert_uint_gt(w.b128, 0);
    ck_assert_uint_gt(w.b64, 0);
    rdx_graph_destroy(g);
    /* 3 columns per work-item: B's rows are padded from 3 to 4 dwords per lane, its reads are
       16-aligned ds_load_b96 (unpadded they were at 12 l bytes) */
    g = cgf_graph();
    rdx_opt o2[] = { SPLIT(1, 3, UPCAST), SPLIT(0, 2, UPCAST), SPLIT(2, 4, UNROLL),
                     SPLIT(1, 16, LOCAL), SPLIT(0, 8, LOCAL),  LDS(2) };
    w = check(g, mm(g, 48, 24, 48, &seed), o2, sizeof o2 / sizeof *o2);
    ck_assert_uint_gt(w.b96, 0);
    rdx_graph_destroy(g);
    /* 6 columns: padded to 8, b128 + b64 per row */
    g = cgf_graph();
    rdx_opt o3[] = { SPLIT(1, 6, UPCAST), SPLIT(0, 4, UPCAST), SPLIT(2, 2, UNROLL),
                     SPLIT(1, 8, LOCAL),  SPLIT(0, 8, LOCAL),  LDS(2) };
    w = check(g, mm(g, 64, 10, 96, &seed), o3, sizeof o3 / sizeof *o3);
    ck_assert_uint_gt(w.b128, 0);
    ck_assert_uint_gt(w.b64, 0);
    rdx_graph_destroy(g);
    /* k by 3 (A's rows of 3 dwords, padded), 5 columns (B's of 5, padded to 8) */
    g = cgf_graph();
    rdx_opt o4[] = { SPLIT(1, 5, UPCAST), SPLIT(0, 2, UPCAST), SPLIT(2, 3, UNROLL),
                     SPLIT(1, 4, LOCAL),  SPLIT(0, 8, LOCAL),  LDS(2) };
    check(g, mm(g, 32, 9, 40, &seed), o4, sizeof o4 / sizeof *o4);
    rdx_graph_destroy(g);
}
END_TEST

/* Other element sizes: int32 (padded like float32, exact), float16 (2-byte reads, not merged;
   no padding), float64 (8-byte elements: ds_load_b64 each, 8-aligned by construction), and
   WARP lanes. */
START_TEST(lds_align_dtypes)
{
    uint64_t seed = 11;
    rdx_graph *g = cgf_graph();
    rdx_opt o2[] = { SPLIT(1, 3, UPCAST), SPLIT(0, 2, UPCAST), SPLIT(2, 4, UNROLL),
                     SPLIT(1, 16, LOCAL), SPLIT(0, 8, LOCAL),  LDS(2) };
    wide w = check(g, mmd(g, rdx_dtype_of(RDX_INT32), 48, 24, 48, &seed), o2, 6);
    ck_assert_uint_gt(w.b96, 0);
    rdx_opt o[] = { SPLIT(1, 4, UPCAST), SPLIT(0, 2, UPCAST), SPLIT(2, 8, UNROLL),
                    SPLIT(1, 8, LOCAL),  SPLIT(0, 8, LOCAL),  LDS(2) };
    check_tol(g, mmd(g, rdx_dtype_of(RDX_FLOAT16), 32, 32, 64, &seed), o, 6, 2e-2);
    w = check(g, mmd(g, rdx_dtype_of(RDX_FLOAT64), 32, 16, 64, &seed), o, 6);
    ck_assert_uint_gt(w.b64, 0);
    rdx_opt wo[] = { SPLIT(1, 2, UPCAST), SPLIT(2, 8, UNROLL), SPLIT(1, 8, WARP),
                     SPLIT(0, 4, WARP),   SPLIT(0, 2, LOCAL),  LDS(2) };
    check(g, mm(g, 16, 24, 32, &seed), wo, 6);
    rdx_graph_destroy(g);
}
END_TEST

/* A 3x3 conv with its weights staged (lds_test.c's convs: the register tiles, LDS of the first
   REDUCE axis). */
START_TEST(lds_align_conv)
{
    uint64_t seed = 17;
    rdx_graph *g = cgf_graph();
    const rdx_tensor *x = cgf_random(g, F32, 4, (int64_t[]){ 1, 8, 16, 16 }, &seed);
    const rdx_tensor *wt = cgf_random(g, F32, 4, (int64_t[]){ 8, 8, 3, 3 }, &seed);
    rdx_conv_opts opt = { { 1, 1 }, { 1, 1 }, { 1, 1 }, 1 };
    const rdx_tensor *t = rdx_tensor_conv2d(g, x, wt, NULL, &opt);
    const rdx_uop *k = cgf_kernel_of(g, t), *k2;
    rdx_opt o[16];
    size_t n = 0, na;
    ck_assert_int_eq(rdx_cg_heuristic(k, o, 15, &n), RDX_OK);
    if (!n || o[n - 1].op != RDX_OPTOP_LDS) {
        ck_assert_int_eq(rdx_cg_apply_opts(rdx_graph_ir(g), k, o, n, &k2), RDX_OK);
        rdx_kaxis ax[RDX_CG_MAX_AXES];
        ck_assert_int_eq(rdx_cg_axes(k2, ax, &na), RDX_OK);
        size_t i = 0;
        while (i < na && ax[i].type != RDX_AXIS_REDUCE)
            i++;
        ck_assert_uint_lt(i, na);
        rdx_opt l = LDS((int32_t)i);
        o[n++] = l;
    }
    check(g, t, o, n);
    rdx_graph_destroy(g);
}
END_TEST

TCase *cgf_tcase_lds_align(void)
{
    TCase *tc = tcase_create("lds_align");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, lds_align_scan);
    tcase_add_test(tc, lds_align_matmul);
    tcase_add_test(tc, lds_align_dtypes);
    tcase_add_test(tc, lds_align_conv);
    return tc;
}
