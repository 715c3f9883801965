/*
 * tests/emu_oracle/check_emu_oracle.c — the kernel oracle itself, before any
 * emulator: every corpus kernel compiles for gfx1100 at -O0/-O2/-O3 with metadata
 * that matches the manifest, the host runs succeed, the host results agree with
 * independent closed forms, and the comparison/run machinery catches mismatches.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/oracle/oracle_int.h"
#include "tests/emu_oracle/suite.h"
#include "tests/harness/harness.h"

static rdx_oracle *oracle;
static int oracle_tried;
static char prepare_err[1024];

void rdx_emu_oracle_suite_setup(void)
{
    if (oracle_tried)
        return;
    oracle_tried = 1;
    oracle = rdx_oracle_prepare(NULL, prepare_err, sizeof prepare_err);
    if (oracle) {
        double ph[3];
        double total = rdx_oracle_prepare_seconds(oracle, ph);
        printf("emu_oracle: %d kernels x %d levels = %d gfx1100 code objects prepared, "
               "host results for %d kernels, in %.1f s (compile %.1f s, metadata %.1f s, "
               "host runs %.1f s)\n",
               rdx_oracle_count(oracle), RDX_ORACLE_NOPT, rdx_oracle_code_object_count(oracle),
               rdx_oracle_count(oracle), total, ph[0], ph[1], ph[2]);
    }
    fflush(stdout);
}

rdx_oracle *rdx_emu_oracle_suite_oracle(const char **why)
{
    if (why)
        *why = oracle ? NULL : oracle_tried ? prepare_err : "not prepared yet";
    return oracle;
}

static int index_of(const char *id)
{
    ck_assert_msg(oracle != NULL, "oracle not prepared: %s", prepare_err);
    for (int i = 0; i < rdx_oracle_count(oracle); i++)
        if (strcmp(rdx_oracle_kernel_at(oracle, i)->id, id) == 0)
            return i;
    ck_abort_msg("no manifest entry %s", id);
    return -1;
}

/* The host result of buffer argument `arg` of entry `id`. */
static const void *expected(const char *id, int arg)
{
    int i = index_of(id);
    const char *why = rdx_oracle_status(oracle, i, -1);
    ck_assert_msg(why == NULL, "%s", why ? why : "");
    const void *p = rdx_oracle_expected(oracle, i, arg, NULL);
    ck_assert_ptr_nonnull(p);
    return p;
}

/* Fresh manifest inputs of entry `id`. */
static void inputs(const char *id, void *bufs[RDX_ORACLE_MAX_ARGS])
{
    rdx_oracle_make_buffers(rdx_oracle_find(id), bufs);
}

/* ---- the corpus ----------------------------------------------------------- */

START_TEST(corpus_compiles_for_gfx1100)
{
    ck_assert_msg(oracle != NULL, "oracle not prepared: %s", prepare_err);
    ck_assert_int_ge(rdx_oracle_count(oracle), 30);
    int bad = 0;
    for (int i = 0; i < rdx_oracle_count(oracle); i++)
        for (int opt = 0; opt < RDX_ORACLE_NOPT; opt++) {
            const char *why = rdx_oracle_status(oracle, i, opt);
            if (why) {
                fprintf(stderr, "%s\n", why);
                bad++;
            }
        }
    ck_assert_msg(bad == 0, "%d (kernel, level) code objects failed (see above)", bad);
    ck_assert_int_eq(rdx_oracle_code_object_count(oracle),
                     rdx_oracle_count(oracle) * RDX_ORACLE_NOPT);
}
END_TEST

START_TEST(host_runs_succeed)
{
    ck_assert_msg(oracle != NULL, "oracle not prepared: %s", prepare_err);
    int bad = 0;
    for (int i = 0; i < rdx_oracle_count(oracle); i++) {
        const char *why = rdx_oracle_status(oracle, i, -1);
        if (why) {
            fprintf(stderr, "%s\n", why);
            bad++;
        }
    }
    ck_assert_msg(bad == 0, "%d host kernels failed (see above)", bad);
}
END_TEST

/* The metadata shows the features the corpus is meant to exercise. */
START_TEST(corpus_covers_features)
{
    ck_assert_msg(oracle != NULL, "oracle not prepared: %s", prepare_err);
    int wave64 = 0, lds = 0, scratch = 0;
    for (int i = 0; i < rdx_oracle_count(oracle); i++) {
        const rdx_oracle_md *md = rdx_oracle_metadata(oracle, i, 1);
        ck_assert_ptr_nonnull(md);
        wave64 += md->wavefront_size == 64;
        lds += md->group_segment_fixed_size > 0;
        if (strcmp(rdx_oracle_kernel_at(oracle, i)->id, "scratch_private") == 0) {
            ck_assert_uint_ge(md->private_segment_fixed_size, 2048);
            scratch = 1;
        }
    }
    ck_assert_int_ge(wave64, 3);
    ck_assert_int_ge(lds, 10);
    ck_assert(scratch);
    /* every OpenCL 2.0 partial-group dispatch in the manifest */
    int partial = 0;
    for (int i = 0; i < rdx_oracle_kernel_count; i++)
        for (int d = 0; d < 3; d++)
            partial += rdx_oracle_kernels[i].grid[d] % rdx_oracle_kernels[i].block[d] != 0;
    ck_assert_int_ge(partial, 8);
}
END_TEST

/* The instructions in the corpus: what the emulator must implement. */
START_TEST(corpus_instruction_coverage)
{
    ck_assert_msg(oracle != NULL, "oracle not prepared: %s", prepare_err);
    char err[256];
    int n;
    rdx_oracle_mnemonic *m = rdx_oracle_mnemonics(oracle, &n, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    printf("emu_oracle: the corpus's code objects hold %d distinct instructions\n", n);
    fflush(stdout);
    const char *want[] = { "v_wmma_f32_16x16x16_f16",
                           "v_wmma_f32_16x16x16_bf16",
                           "v_wmma_i32_16x16x16_iu8",
                           "v_dot4_u32_u8",
                           "v_permlane16_b32",
                           "v_permlanex16_b32",
                           "ds_bpermute_b32",
                           "v_readlane_b32",
                           "v_readfirstlane_b32",
                           "s_swappc_b64",
                           "s_setpc_b64",
                           "s_getpc_b64",
                           "scratch_store_b32",
                           "scratch_load_b32",
                           "global_atomic_add_u32",
                           "global_atomic_cmpswap_b64",
                           "global_atomic_add_f32",
                           "ds_add_u32",
                           "ds_add_f32",
                           "ds_store_b32",
                           "ds_load_b32",
                           "s_barrier",
                           "v_pk_mul_f16",
                           "v_pk_add_f16",
                           "v_div_scale_f32",
                           "v_div_fmas_f32",
                           "v_div_fixup_f32",
                           "v_div_scale_f64",
                           "v_exp_f32_e32",
                           "v_log_f32_e32",
                           "v_sin_f32_e32",
                           "v_cos_f32_e32",
                           "v_rsq_f32_e32",
                           "v_rcp_f32_e32",
                           "v_sqrt_f32_e32",
                           "v_bfe_u32",
                           "v_perm_b32",
                           "v_cvt_pk_rtz_f16_f32_e32",
                           "v_med3_f32",
                           "v_cmp_class_f32_e64",
                           "v_mad_u64_u32",
                           "s_cbranch_execz",
                           "s_load_b64",
                           "global_load_b32",
                           "global_store_b32",
                           "s_endpgm" };
    int missing = 0;
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        int found = 0;
        for (int k = 0; k < n && !found; k++)
            found = !strcmp(m[k].name, want[w]);
        if (!found) {
            fprintf(stderr, "emu_oracle: no code object holds %s\n", want[w]);
            missing++;
        }
    }
    for (int k = 1; k < n; k++)
        ck_assert_msg(strcmp(m[k - 1].name, m[k].name) < 0, "not sorted/unique at %s", m[k].name);
    ck_assert_msg(m[0].first_seen[0] && strcmp(m[0].first_seen, "?") != 0, "%s", m[0].first_seen);
    free(m);
    ck_assert_int_eq(missing, 0);
    ck_assert_int_ge(n, 200);
}
END_TEST

/* ---- closed forms ----------------------------------------------------------- */

START_TEST(reduce_sum_is_sum_of_iota)
{
    const char *ids[] = { "reduce_sum_i32", "reduce_sum_i32_w64" };
    for (int k = 0; k < 2; k++) {
        const int32_t *partial = expected(ids[k], 0), *total = expected(ids[k], 1);
        ck_assert_int_eq(total[0], 9999 * 10000 / 2);
        int64_t s = 0;
        for (int g = 0; g < 4; g++) {
            /* group g sums the grid-stride elements of its 256 work-items */
            int64_t want = 0;
            for (int v = g * 256; v < 10000; v += 1024)
                for (int l = 0; l < 256 && v + l < 10000; l++)
                    want += (v + l);
            ck_assert_int_eq(partial[g], want);
            s += partial[g];
        }
        ck_assert_int_eq(s, total[0]);
    }
}
END_TEST

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

START_TEST(bitonic_sort_sorts_each_block)
{
    const uint32_t *out = expected("bitonic_sort", 0);
    void *in[RDX_ORACLE_MAX_ARGS];
    inputs("bitonic_sort", in);
    uint32_t *ref = in[0];
    for (int b = 0; b < 4; b++)
        qsort(ref + b * 512, 512, 4, cmp_u32);
    for (int i = 0; i < 2048; i++)
        ck_assert_msg(out[i] == ref[i], "element %d: %u, sorted input has %u", i, out[i], ref[i]);
    for (int i = 1; i < 2048; i++)
        if (i % 512)
            ck_assert_uint_le(out[i - 1], out[i]);
    rdx_oracle_free_buffers(rdx_oracle_find("bitonic_sort"), in);
}
END_TEST

START_TEST(histograms_count_every_element)
{
    void *in[RDX_ORACLE_MAX_ARGS];
    inputs("histogram_lds", in);
    const uint32_t *h = expected("histogram_lds", 0), *data = in[1];
    uint32_t want[64] = { 0 }, sum = 0;
    for (int i = 0; i < 20000; i++)
        want[(data[i] >> 3) & 63]++;
    for (int b = 0; b < 64; b++) {
        ck_assert_uint_eq(h[b], want[b]);
        sum += h[b];
    }
    ck_assert_uint_eq(sum, 20000);
    rdx_oracle_free_buffers(rdx_oracle_find("histogram_lds"), in);

    inputs("histogram_global", in);
    const uint32_t *hg = expected("histogram_global", 0), *lo = expected("histogram_global", 1),
                   *hi = expected("histogram_global", 2);
    data = in[3];
    uint32_t w100[100] = { 0 }, mx = 0, orv = 0, xo = 0, sub = 0, mn = ~0u, andv = ~0u;
    for (int i = 0; i < 3000; i++) {
        uint32_t v = data[i];
        w100[v % 100]++;
        mx = v > mx ? v : mx;
        mn = v < mn ? v : mn;
        orv |= v & 0x0f0f0f0fu;
        xo ^= v;
        sub -= v & 15u;
        andv &= v | 0x80000001u;
    }
    sum = 0;
    for (int b = 0; b < 100; b++) {
        ck_assert_uint_eq(hg[b], w100[b]);
        sum += hg[b];
    }
    ck_assert_uint_eq(sum, 3000);
    ck_assert_uint_eq(lo[0], mx);
    ck_assert_uint_eq(lo[1], orv);
    ck_assert_uint_eq(lo[2], xo);
    ck_assert_uint_eq(lo[3], sub);
    ck_assert_uint_eq(hi[0], mn);
    ck_assert_uint_eq(hi[1], andv);
    rdx_oracle_free_buffers(rdx_oracle_find("histogram_global"), in);
}
END_TEST

START_TEST(transpose_twice_is_identity)
{
    int i = index_of("transpose");
    const rdx_oracle_kernel *k = rdx_oracle_find("transpose");
    void *b[RDX_ORACLE_MAX_ARGS];
    rdx_oracle_make_buffers(k, b);
    float *orig = malloc(3015 * sizeof(float));
    memcpy(orig, b[1], 3015 * sizeof(float));
    char err[1024];
    ck_assert_msg(rdx_oracle_host_run(oracle, i, b, NULL, NULL, err, sizeof err) == 0, "%s", err);
    const float *t = b[0];
    for (int y = 0; y < 45; y++)
        for (int x = 0; x < 67; x++)
            ck_assert(t[x * 45 + y] == orig[y * 67 + x]);
    /* transpose the 45x67 result back */
    memcpy(b[1], b[0], 3015 * sizeof(float));
    memset(b[0], 0, 3015 * sizeof(float));
    rdx_oracle_arg sc[RDX_ORACLE_MAX_ARGS];
    memcpy(sc, k->args, sizeof sc);
    sc[2].ival = 45;
    sc[3].ival = 67;
    uint32_t grid[3] = { 48, 80, 1 };
    ck_assert_msg(rdx_oracle_host_run(oracle, i, b, grid, sc, err, sizeof err) == 0, "%s", err);
    ck_assert(memcmp(b[0], orig, 3015 * sizeof(float)) == 0);
    free(orig);
    rdx_oracle_free_buffers(k, b);
}
END_TEST

START_TEST(matmul_matches_naive_loop)
{
    void *in[RDX_ORACLE_MAX_ARGS];
    inputs("matmul_tiled", in);
    const float *c = expected("matmul_tiled", 0), *a = in[1], *b = in[2];
    for (int r = 0; r < 50; r++)
        for (int col = 0; col < 40; col++) {
            float acc = 0; /* integer-valued inputs: exact in any order */
            for (int k = 0; k < 56; k++)
                acc += a[r * 56 + k] * b[k * 40 + col];
            ck_assert_msg(c[r * 40 + col] == acc, "C[%d][%d] = %g, want %g", r, col,
                          c[r * 40 + col], acc);
        }
    rdx_oracle_free_buffers(rdx_oracle_find("matmul_tiled"), in);
}
END_TEST

START_TEST(scan_is_blockwise_prefix_sum)
{
    void *in[RDX_ORACLE_MAX_ARGS];
    inputs("scan_i32", in);
    const int32_t *out = expected("scan_i32", 0), *sums = expected("scan_i32", 1), *x = in[2];
    int32_t run = 0;
    for (int i = 0; i < 3000; i++) {
        run = (i % 256 ? run : 0) + x[i];
        ck_assert_int_eq(out[i], run);
        if (i % 256 == 255 || i == 2999)
            ck_assert_int_eq(sums[i / 256], run);
    }
    rdx_oracle_free_buffers(rdx_oracle_find("scan_i32"), in);
}
END_TEST

START_TEST(softmax_rows_are_distributions)
{
    void *in[RDX_ORACLE_MAX_ARGS];
    inputs("softmax", in);
    const float *y = expected("softmax", 0), *x = in[1];
    for (int r = 0; r < 24; r++) {
        double mx = -INFINITY, s = 0, ys = 0;
        for (int k = 0; k < 100; k++)
            mx = fmax(mx, x[r * 100 + k]);
        for (int k = 0; k < 100; k++)
            s += exp(x[r * 100 + k] - mx);
        for (int k = 0; k < 100; k++) {
            double want = exp(x[r * 100 + k] - mx) / s;
            ck_assert_msg(fabs(y[r * 100 + k] - want) <= 1e-5 * want, "row %d col %d: %g vs %g", r,
                          k, y[r * 100 + k], want);
            ys += y[r * 100 + k];
        }
        ck_assert_msg(fabs(ys - 1.0) < 1e-5, "row %d sums to %.9g", r, ys);
    }
    rdx_oracle_free_buffers(rdx_oracle_find("softmax"), in);
}
END_TEST

START_TEST(reduce_max_matches_scan)
{
    void *in[RDX_ORACLE_MAX_ARGS];
    inputs("reduce_max_f32", in);
    const float *mx = expected("reduce_max_f32", 0), *x = in[2];
    const int32_t *arg = expected("reduce_max_f32", 1);
    for (int g = 0; g < 40; g++) {
        int best = g * 128;
        for (int i = g * 128; i < g * 128 + 128 && i < 5000; i++)
            if (x[i] > x[best])
                best = i;
        ck_assert(mx[g] == x[best]);
        ck_assert_int_eq(arg[g], best);
    }
    rdx_oracle_free_buffers(rdx_oracle_find("reduce_max_f32"), in);
}
END_TEST

/* OpenCL 2.0 work-item functions on a 37x23 grid of 8x4 groups. */
START_TEST(grid_ids_follow_opencl)
{
    const uint32_t *o = expected("grid2d_ids", 0);
    for (uint32_t y = 0; y < 23; y++)
        for (uint32_t x = 0; x < 37; x++) {
            const uint32_t *e = o + (y * 37 + x) * 8;
            uint32_t lsx = x / 8 < 4 ? 8 : 37 % 8, lsy = y / 4 < 5 ? 4 : 23 % 4;
            ck_assert_uint_eq(e[0], (x % 8) | (y % 4) << 16);
            ck_assert_uint_eq(e[1], (x / 8) | (y / 4) << 16);
            ck_assert_uint_eq(e[2], lsx | lsy << 16);
            ck_assert_uint_eq(e[3], 5u | 6u << 16);
            ck_assert_uint_eq(e[4], 37u | 23u << 16);
            ck_assert_uint_eq(e[5], 8u | 4u << 16);
            ck_assert_uint_eq(e[6], (y % 4) * lsx + x % 8);
            ck_assert_uint_eq(e[7], 1u);
        }
    const uint32_t *t = expected("grid3d_ids", 0);
    for (uint32_t z = 0; z < 5; z++)
        for (uint32_t y = 0; y < 7; y++)
            for (uint32_t x = 0; x < 13; x++) {
                const uint32_t *e = t + ((z * 7 + y) * 13 + x) * 4;
                uint32_t ls[3] = { x / 4 < 3 ? 4 : 1, y / 4 < 1 ? 4 : 3, z / 2 < 2 ? 2 : 1 };
                uint32_t lin = ((z % 2) * ls[1] + y % 4) * ls[0] + x % 4;
                ck_assert_uint_eq(e[0], (x % 4) | (y % 4) << 8 | (z % 2) << 16);
                ck_assert_uint_eq(e[1], (x / 4) | (y / 4) << 8 | (z / 2) << 16);
                ck_assert_uint_eq(e[2], ls[0] | ls[1] << 8 | ls[2] << 16);
                ck_assert_uint_eq(e[3], (ls[0] * ls[1] * ls[2]) | lin << 16);
            }
}
END_TEST

START_TEST(integer_kernels_match_c)
{
    void *in[RDX_ORACLE_MAX_ARGS];
    inputs("idiv_i32", in);
    const int32_t *q = expected("idiv_i32", 0), *a = in[2], *b = in[3];
    const uint32_t *uq = expected("idiv_i32", 1);
    for (int i = 0; i < 1000; i++) {
        int32_t x = a[i], y = b[i] ? b[i] : 7;
        if (x == INT32_MIN && y == -1)
            y = 3;
        ck_assert_int_eq(q[4 * i], x / y);
        ck_assert_int_eq(q[4 * i + 1], x % y);
        ck_assert_int_eq(q[4 * i + 2], x / 7);
        ck_assert_int_eq(q[4 * i + 3], x % -13);
        ck_assert_uint_eq(uq[3 * i], (uint32_t)x / (uint32_t)y);
        ck_assert_uint_eq(uq[3 * i + 1], (uint32_t)x % (uint32_t)y);
    }
    rdx_oracle_free_buffers(rdx_oracle_find("idiv_i32"), in);

    inputs("ew_u64", in);
    const uint64_t *o = expected("ew_u64", 0), *x64 = in[1], *y64 = in[2];
    for (int i = 0; i < 512; i++) {
        unsigned __int128 p = (unsigned __int128)x64[i] * y64[i];
        ck_assert(o[5 * i + 1] == (uint64_t)(p >> 64));
        ck_assert(o[5 * i + 0] == x64[i] - y64[i] * 3u);
    }
    rdx_oracle_free_buffers(rdx_oracle_find("ew_u64"), in);
}
END_TEST

/* The host's _Float16 and bf16 arithmetic round like an independent converter. */
START_TEST(half_kernels_round_correctly)
{
    void *in[RDX_ORACLE_MAX_ARGS];
    inputs("ew_f16", in);
    const uint16_t *o = expected("ew_f16", 0), *a = in[3], *b = in[4];
    for (int i = 0; i < 777; i++) {
        double x = rdx_oracle_f16_to_double(a[i]), y = rdx_oracle_f16_to_double(b[i]);
        uint16_t s = rdx_oracle_f32_to_f16((float)(x + y)),
                 p = rdx_oracle_f32_to_f16((float)(x * y));
        ck_assert_msg(rdx_oracle_ulp_distance(RDX_ORACLE_F16, &o[4 * i], &s) == 0,
                      "f16 %g + %g: host %04x, reference %04x", x, y, o[4 * i], s);
        ck_assert_msg(rdx_oracle_ulp_distance(RDX_ORACLE_F16, &o[4 * i + 2], &p) == 0,
                      "f16 %g * %g: host %04x, reference %04x", x, y, o[4 * i + 2], p);
    }
    rdx_oracle_free_buffers(rdx_oracle_find("ew_f16"), in);

    inputs("ew_bf16", in);
    const uint16_t *ob = expected("ew_bf16", 0), *ab = in[1], *bb = in[2];
    for (int i = 0; i < 1000; i++) {
        float x = (float)rdx_oracle_bf16_to_double(ab[i]),
              y = (float)rdx_oracle_bf16_to_double(bb[i]);
        uint16_t s = rdx_oracle_f32_to_bf16(x + y);
        ck_assert_msg(rdx_oracle_ulp_distance(RDX_ORACLE_BF16, &ob[3 * i], &s) == 0,
                      "bf16 %g + %g: host %04x, reference %04x", x, y, ob[3 * i], s);
    }
    rdx_oracle_free_buffers(rdx_oracle_find("ew_bf16"), in);
}
END_TEST

START_TEST(atomics_match_sequential)
{
    void *in[RDX_ORACLE_MAX_ARGS];
    inputs("float_atomic", in);
    const float *acc = expected("float_atomic", 0);
    const uint32_t *v = in[1];
    double want[32] = { 0 };
    for (int i = 0; i < 4000; i++) {
        want[v[i] % 16] += v[i] & 7;
        want[16 + (v[i] >> 4) % 16] += (double)((v[i] >> 8) & 15) - 4.0;
    }
    for (int k = 0; k < 32; k++)
        ck_assert_msg(acc[k] == want[k], "acc[%d] = %g, want %g", k, acc[k], want[k]);
    rdx_oracle_free_buffers(rdx_oracle_find("float_atomic"), in);

    inputs("atomics_mix", in);
    const int32_t *g = expected("atomics_mix", 0), *g0 = in[0], *x = in[2];
    const uint32_t *gu = expected("atomics_mix", 1), *gu0 = in[1];
    int32_t add = g0[0], mn = g0[1], mx = g0[2], cas = g0[3];
    uint32_t orv = gu0[0], andv = gu0[1], xo = gu0[2], umx = gu0[3];
    for (int i = 0; i < 1000; i++) {
        add += x[i];
        mn = x[i] < mn ? x[i] : mn;
        mx = x[i] > mx ? x[i] : mx;
        cas += x[i] & 255;
        orv |= (uint32_t)x[i] & 0x00ff00ffu;
        andv &= (uint32_t)x[i] | 0xf0f0f0f0u;
        xo ^= (uint32_t)x[i];
        umx = (uint32_t)x[i] > umx ? (uint32_t)x[i] : umx;
    }
    ck_assert_int_eq(g[0], add);
    ck_assert_int_eq(g[1], mn);
    ck_assert_int_eq(g[2], mx);
    ck_assert_int_eq(g[3], cas);
    ck_assert_uint_eq(gu[0], orv);
    ck_assert_uint_eq(gu[1], andv);
    ck_assert_uint_eq(gu[2], xo);
    ck_assert_uint_eq(gu[3], umx);
    rdx_oracle_free_buffers(rdx_oracle_find("atomics_mix"), in);

    inputs("atomics_64", in);
    const uint64_t *u = expected("atomics_64", 0), *u0 = in[0], *v64 = in[2];
    const int64_t *s64 = expected("atomics_64", 1), *s0 = in[1];
    uint64_t w[6] = { u0[0], u0[1], u0[2], u0[3], u0[4], u0[5] };
    int64_t ws[3] = { s0[0], s0[1], s0[2] };
    for (int i = 0; i < 1000; i++) {
        uint64_t e = v64[i];
        w[0] += e;
        w[1] = e > w[1] ? e : w[1];
        w[2] = e < w[2] ? e : w[2];
        w[3] |= e & 0x0123456789abcdefull;
        w[4] &= e | 0x8000000000000001ull;
        w[5] ^= e;
        ws[0] = (int64_t)e > ws[0] ? (int64_t)e : ws[0];
        ws[1] = (int64_t)e < ws[1] ? (int64_t)e : ws[1];
        ws[2] = (int64_t)((uint64_t)ws[2] + (e >> 40));
    }
    for (int k = 0; k < 6; k++)
        ck_assert_msg(u[k] == w[k], "u[%d]", k);
    for (int k = 0; k < 3; k++)
        ck_assert_msg(s64[k] == ws[k], "s[%d]", k);
    rdx_oracle_free_buffers(rdx_oracle_find("atomics_64"), in);
}
END_TEST

/* The host's models of the AMDGPU builtins, against other formulations. */
START_TEST(amdgcn_builtins_match_definitions)
{
    void *in[RDX_ORACLE_MAX_ARGS];
    inputs("amdgcn_int", in);
    const uint32_t *o = expected("amdgcn_int", 0), *a = in[1], *b = in[2], *c = in[3];
    for (int i = 0; i < 1000; i++) {
        uint32_t x = a[i], y = b[i], z = c[i], off = y & 31, w = z & 31;
        uint32_t ub = w ? (uint32_t)(((uint64_t)x >> off) << (64 - w) >> (64 - w)) : 0;
        ck_assert_uint_eq(o[10 * i + 0], ub);
        uint32_t so = (y >> 8) & 31, sw = (z >> 8) & 31;
        int64_t sx = (int64_t)(int32_t)x >> so; /* arithmetic: sign bits above bit 31 */
        int32_t sb = sw ? (int32_t)((uint64_t)sx << (64 - sw) >> (64 - sw)) : 0;
        if (sw && (sb >> (sw - 1)) & 1)
            sb = (int32_t)((uint32_t)sb | ~(uint32_t)((1ull << sw) - 1));
        ck_assert_int_eq((int32_t)o[10 * i + 1], sb);
        ck_assert_uint_eq(o[10 * i + 2], (uint32_t)((((uint64_t)x << 32) | y) >> (z & 31)));
        uint32_t sad = z & 0xffff, dot = z;
        for (int k = 0; k < 4; k++) {
            int d = (int)((x >> (8 * k)) & 255) - (int)((y >> (8 * k)) & 255);
            sad += (uint32_t)abs(d);
            dot += ((x >> (8 * k)) & 255) * ((y >> (8 * k)) & 255);
        }
        ck_assert_uint_eq(o[10 * i + 6], sad);
        ck_assert_uint_eq(o[10 * i + 8], dot);
    }
    rdx_oracle_free_buffers(rdx_oracle_find("amdgcn_int"), in);

    inputs("amdgcn_float", in);
    const float *f = expected("amdgcn_float", 0), *w = in[6];
    const int32_t *iv = expected("amdgcn_float", 1);
    const uint16_t *h = expected("amdgcn_float", 2);
    for (int i = 0; i < 1000; i++) {
        float v = w[i];
        int cls = iv[2 * i + 1] & 1023;
        int want = isnan(v)                        ? 2
                   : isinf(v)                      ? (v < 0 ? 4 : 512)
                   : v == 0                        ? (signbit(v) ? 32 : 64)
                   : fpclassify(v) == FP_SUBNORMAL ? (v < 0 ? 16 : 128)
                                                   : (v < 0 ? 8 : 256);
        ck_assert_msg(cls == want, "class of %a: %#x, want %#x", v, cls, want);
        if (isfinite(v)) {
            int e;
            float m = frexpf(v, &e);
            ck_assert(f[2 * i + 1] == m);
            ck_assert_int_eq(iv[2 * i], e);
            /* round toward zero: |half| <= |v|, and the next half up exceeds |v| */
            double hv = rdx_oracle_f16_to_double(h[4 * i]);
            uint16_t next = (uint16_t)((h[4 * i] & 0x7fff) + 1);
            ck_assert_msg(fabs(hv) <= fabs(v) &&
                              (fabs(v) >= 65504 || rdx_oracle_f16_to_double(next) > fabs(v)),
                          "rtz(%a) = %04x", v, h[4 * i]);
        }
    }
    rdx_oracle_free_buffers(rdx_oracle_find("amdgcn_float"), in);
}
END_TEST

/* The host's wave model: every cross-lane result from the inputs directly. */
START_TEST(wave_ops_follow_lane_rules)
{
    const char *ids[] = { "wave_ops", "wave_ops_w64" };
    for (int k = 0; k < 2; k++) {
        uint32_t ws = k ? 64 : 32;
        void *in[RDX_ORACLE_MAX_ARGS];
        inputs(ids[k], in);
        const int32_t *o = expected(ids[k], 0), *x = in[2];
        const uint64_t *masks = expected(ids[k], 1);
        for (uint32_t i = 0; i < 384; i++) {
            const int32_t *e = o + i * 14;
            uint32_t lane = i % ws, base = i - lane, r = i & ~15u, c = i & 15u;
            ck_assert_int_eq(e[0], (int32_t)(lane | ws << 8));
            ck_assert_int_eq(e[1], x[base]);
            ck_assert_int_eq(e[2], x[base + 5]);
            ck_assert_int_eq(e[3], x[base + ws - 1]);
            ck_assert_int_eq(e[4], c ? x[i - 1] : 0);
            ck_assert_int_eq(e[5], x[(i & ~3u) + 3 - (i & 3u)]);
            ck_assert_int_eq(e[6], c < 12 ? x[i + 4] : 7);
            ck_assert_int_eq(e[7], x[r + ((c + 13) & 15)]);
            ck_assert_int_eq(e[8], x[r + 15 - c] * 3 + x[(i & ~7u) + 7 - (i & 7u)]);
            ck_assert_int_eq(e[9], x[r + 3] ^ x[r + (c ^ 5)]);
            ck_assert_int_eq(e[10], x[r + (c < 8 ? 7 - c : 23 - c)]);
            ck_assert_int_eq(e[11], x[(r ^ 16) + c]);
            ck_assert_int_eq(e[12], ws == 32 ? x[base + (lane ^ 5)] : 0);
            uint64_t m = 0;
            uint32_t total = 0, scan = 0;
            for (uint32_t l = 0; l < ws; l++) {
                m |= (uint64_t)(x[base + l] > 0) << l;
                total += (uint32_t)x[base + l];
            }
            for (uint32_t l = r; l <= i; l++)
                scan += (uint32_t)x[l];
            ck_assert_uint_eq(masks[i], m);
            ck_assert_int_eq(e[13], (int32_t)(total ^ scan));
        }
        rdx_oracle_free_buffers(rdx_oracle_find(ids[k]), in);
    }
}
END_TEST

/* The WMMA kernel (f16, bf16, iu8; wave32 and wave64) computes the 32x32x32 product. */
START_TEST(wmma_is_matrix_product)
{
    static const char *const ids[] = { "wmma", "wmma_w64" };
    for (int id = 0; id < 2; id++) {
        void *in[RDX_ORACLE_MAX_ARGS];
        inputs(ids[id], in);
        const float *df = expected(ids[id], 0), *db = expected(ids[id], 1);
        const int32_t *di = expected(ids[id], 2);
        const uint16_t *a = in[3], *b = in[4], *abf = in[5], *bbf = in[6];
        const int8_t *a8 = in[7], *b8 = in[8];
        for (int r = 0; r < 32; r++)
            for (int c = 0; c < 32; c++) {
                double f = 0, g = 0;
                int32_t n = 0;
                for (int k = 0; k < 32; k++) {
                    f += rdx_oracle_f16_to_double(a[r * 32 + k]) *
                         rdx_oracle_f16_to_double(b[k * 32 + c]);
                    g += rdx_oracle_bf16_to_double(abf[r * 32 + k]) *
                         rdx_oracle_bf16_to_double(bbf[k * 32 + c]);
                    n += a8[r * 32 + k] * b8[k * 32 + c];
                }
                ck_assert_msg(df[r * 32 + c] == f, "%s: f16 D[%d][%d] = %g, want %g", ids[id], r, c,
                              df[r * 32 + c], f);
                ck_assert_msg(db[r * 32 + c] == g, "%s: bf16 D[%d][%d] = %g, want %g", ids[id], r,
                              c, db[r * 32 + c], g);
                ck_assert_int_eq(di[r * 32 + c], n);
            }
        rdx_oracle_free_buffers(rdx_oracle_find(ids[id]), in);
    }
}
END_TEST

START_TEST(saxpy_matches_c)
{
    void *in[RDX_ORACLE_MAX_ARGS];
    inputs("saxpy", in);
    const float *y = expected("saxpy", 0), *y0 = in[0], *x = in[1];
    for (int i = 0; i < 10000; i++) {
        volatile float p = 2.5f * x[i]; /* no contraction into an fma */
        ck_assert(y[i] == p + y0[i]);
    }
    rdx_oracle_free_buffers(rdx_oracle_find("saxpy"), in);
}
END_TEST

/* ---- comparison and run machinery -------------------------------------------- */

START_TEST(ulp_distance_edges)
{
    float one = 1.0f, next = nextafterf(1.0f, 2.0f), pz = 0.0f, nz = -0.0f, nan = NAN;
    float tiny = 0x1p-149f, ntiny = -0x1p-149f;
    ck_assert_uint_eq(rdx_oracle_ulp_distance(RDX_ORACLE_F32, &one, &next), 1);
    ck_assert_uint_eq(rdx_oracle_ulp_distance(RDX_ORACLE_F32, &pz, &nz), 0);
    ck_assert_uint_eq(rdx_oracle_ulp_distance(RDX_ORACLE_F32, &tiny, &ntiny), 2);
    ck_assert_uint_eq(rdx_oracle_ulp_distance(RDX_ORACLE_F32, &nan, &nan), 0);
    ck_assert(rdx_oracle_ulp_distance(RDX_ORACLE_F32, &nan, &one) == UINT64_MAX);
    uint16_t h1 = 0x3c00, h2 = 0x3c02, hinf = 0x7c00, hmax = 0x7bff;
    ck_assert_uint_eq(rdx_oracle_ulp_distance(RDX_ORACLE_F16, &h1, &h2), 2);
    ck_assert_uint_eq(rdx_oracle_ulp_distance(RDX_ORACLE_F16, &hinf, &hmax), 1);
    int32_t i1 = 1;
    ck_assert(rdx_oracle_ulp_distance(RDX_ORACLE_I32, &i1, &i1) == UINT64_MAX);
    ck_assert_uint_eq(rdx_oracle_f32_to_f16(65520.0f), 0x7c00); /* rounds to inf */
    ck_assert_uint_eq(rdx_oracle_f32_to_f16(65519.0f), 0x7bff);
    ck_assert_uint_eq(rdx_oracle_f32_to_f16(0x1p-25f), 0x0000); /* tie to even: 0 */
    ck_assert_uint_eq(rdx_oracle_f32_to_f16(0x1.8p-25f), 0x0001);
    ck_assert_uint_eq(rdx_oracle_f32_to_bf16(1.00390625f), 0x3f80); /* tie to even */
}
END_TEST

START_TEST(compare_reports_first_mismatches)
{
    int32_t want[6] = { 1, 2, 3, 4, 5, 6 }, got[6] = { 1, 2, 9, 4, 5, -6 };
    char rep[512] = "";
    rdx_oracle_cmp exact = { RDX_ORACLE_CMP_EXACT, 0 };
    ck_assert_uint_eq(
        rdx_oracle_compare(RDX_ORACLE_I32, exact, got, want, 6, "out", rep, sizeof rep, 1), 2);
    ck_assert_msg(strstr(rep, "out[2]: got 9 (0x00000009), want 3 (0x00000003)") != NULL, "%s",
                  rep);
    ck_assert_msg(strstr(rep, "out[5]") == NULL, "only one line asked for: %s", rep);
    ck_assert_uint_eq(rdx_oracle_compare(RDX_ORACLE_I32, exact, want, want, 6, "out", NULL, 0, 4),
                      0);

    float fw[3] = { 1.0f, 2.0f, NAN }, fg[3] = { nextafterf(1.0f, 2.0f), 2.0f + 0x1p-20f, NAN };
    rdx_oracle_cmp ulp1 = { RDX_ORACLE_CMP_ULP, 1 }, abs = { RDX_ORACLE_CMP_ABS, 1e-5 };
    rep[0] = 0;
    ck_assert_uint_eq(rdx_oracle_compare(RDX_ORACLE_F32, ulp1, fg, fw, 3, "f", rep, sizeof rep, 4),
                      1);
    ck_assert_msg(strstr(rep, "f[1]") && strstr(rep, "ulp)"), "%s", rep);
    ck_assert_uint_eq(rdx_oracle_compare(RDX_ORACLE_F32, abs, fg, fw, 3, "f", NULL, 0, 0), 0);
    ck_assert_uint_eq(rdx_oracle_compare(RDX_ORACLE_F32, exact, fg, fw, 3, "f", NULL, 0, 0), 2);
    float inf = INFINITY, big = 3e38f;
    ck_assert_uint_eq(rdx_oracle_compare(RDX_ORACLE_F32, abs, &inf, &big, 1, "f", NULL, 0, 0), 1);
}
END_TEST

START_TEST(metadata_parse_errors)
{
    rdx_oracle_md md;
    char err[256];
    ck_assert_int_eq(rdx_oracle_md_parse("garbage\n", "k", &md, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "no kernel named 'k'") != NULL, "%s", err);
    const char *text = "amdhsa.kernels:\n"
                       "  - .args:\n"
                       "      - .offset:         0\n"
                       "        .size:           8\n"
                       "        .type_name:      'float*'\n"
                       "        .value_kind:     global_buffer\n"
                       "      - .offset:         8\n"
                       "        .size:           4\n"
                       "        .value_kind:     by_value\n"
                       "    .kernarg_segment_size: 16\n"
                       "    .name:           k\n"
                       "    .wavefront_size: 32\n"
                       "amdhsa.target:   amdgcn-amd-amdhsa--gfx1100\n";
    ck_assert_int_eq(rdx_oracle_md_parse(text, "k", &md, err, sizeof err), 0);
    ck_assert_int_eq(md.nargs, 2);
    ck_assert_str_eq(md.args[0].type_name, "float*");
    ck_assert_uint_eq(md.args[1].offset, 8);
    ck_assert_uint_eq(md.kernarg_segment_size, 16);
    /* an argument past the segment's end is rejected */
    char *bad = strdup(text);
    char *seg = strstr(bad, "16\n");
    seg[0] = '9'; /* a 9-byte segment: argument 1 (8..12) lies outside */
    seg[1] = ' ';
    ck_assert_int_eq(rdx_oracle_md_parse(bad, "k", &md, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "outside the kernarg segment") != NULL, "%s", err);
    free(bad);
}
END_TEST

START_TEST(prepare_reports_bad_setup)
{
    char err[512];
    rdx_oracle_options o = { .only = "no_such_kernel" };
    ck_assert_ptr_null(rdx_oracle_prepare(&o, err, sizeof err));
    ck_assert_msg(strstr(err, "no manifest entry named 'no_such_kernel'") != NULL, "%s", err);
    rdx_oracle_options d = { .data_dir = "/nonexistent/emu" };
    ck_assert_ptr_null(rdx_oracle_prepare(&d, err, sizeof err));
    ck_assert_msg(strstr(err, "/nonexistent/emu/rdx_cl.h not readable") != NULL, "%s", err);
    /* a failing compiler is recorded per kernel and level, with its output */
    rdx_oracle_options f = { .only = "saxpy", .clang = "false" };
    rdx_oracle *bad = rdx_oracle_prepare(&f, err, sizeof err);
    ck_assert_msg(bad != NULL, "%s", err);
    ck_assert_int_eq(rdx_oracle_code_object_count(bad), 0);
    const char *why = rdx_oracle_status(bad, 0, 1);
    ck_assert_msg(why && strstr(why, "clang -O2 of saxpy (saxpy.cl) failed with status 1"), "%s",
                  why ? why : "(null)");
    ck_assert_ptr_null(rdx_oracle_status(bad, 0, -1)); /* the host side still works */
    rdx_oracle_summary sum;
    ck_assert_int_eq(rdx_oracle_run_all(bad, NULL, NULL, &sum, NULL), 3);
    ck_assert_int_eq(sum.skipped, 3);
    rdx_oracle_free(bad);
}
END_TEST

/* scripts/emu-kernel compiles with the oracle's flags. */
START_TEST(script_flags_match_oracle)
{
    const char *argv[] = { "scripts/emu-kernel", "--print-flags", NULL };
    rdx_test_proc p;
    ck_assert_msg(rdx_test_run(argv, NULL, 0, &p) == 0, "%s", p.err);
    char want[512] = "";
    for (int f = 0; rdx_oracle_clang_flags[f]; f++) {
        strcat(want, rdx_oracle_clang_flags[f]);
        strcat(want, "\n");
    }
    ck_assert_str_eq(p.out, want);
    rdx_test_proc_free(&p);
}
END_TEST

/* A copy of tests/data/emu whose saxpy.cl is replaced by `src`; returns its path. */
static char *data_copy_with_saxpy(const char *name, const char *src)
{
    char *dir = rdx_test_tmp_path(name);
    const char *cp[] = { "cp", "-r", "tests/data/emu", dir, NULL };
    rdx_test_proc p;
    ck_assert_msg(rdx_test_run(cp, NULL, 0, &p) == 0, "%s", p.err);
    rdx_test_proc_free(&p);
    char path[600];
    snprintf(path, sizeof path, "%s/kernels/saxpy.cl", dir);
    rdx_test_write_file(path, src, strlen(src));
    return dir;
}

/* A kernel that does not compile gets its own diagnostics, per level and host. */
START_TEST(prepare_reports_compile_errors)
{
    char *dir = data_copy_with_saxpy("broken", "#include \"rdx_cl.h\"\n"
                                               "__kernel void saxpy(__global float *y, __global "
                                               "const float *x, float a, int n)\n"
                                               "{\n    y[0] = undeclared_thing;\n}\n");
    char err[512];
    rdx_oracle_options op = { .only = "saxpy", .data_dir = dir };
    rdx_oracle *o = rdx_oracle_prepare(&op, err, sizeof err);
    ck_assert_msg(o != NULL, "%s", err);
    for (int opt = 0; opt < RDX_ORACLE_NOPT; opt++) {
        const char *why = rdx_oracle_status(o, 0, opt);
        ck_assert_msg(why && strstr(why, "failed with status 1") &&
                          strstr(why, "saxpy.cl:4:12: error: use of undeclared identifier "
                                      "'undeclared_thing'"),
                      "%s", why ? why : "(null)");
    }
    const char *host = rdx_oracle_status(o, 0, -1);
    ck_assert_msg(host && strstr(host, "host compile of saxpy (saxpy.cl) failed") &&
                      strstr(host, "undeclared_thing"),
                  "%s", host ? host : "(null)");
    rdx_oracle_free(o);
    free(dir);
}
END_TEST

/* A kernel whose signature disagrees with the manifest is caught by its metadata. */
START_TEST(prepare_reports_signature_mismatch)
{
    char *dir = data_copy_with_saxpy("retyped", "#include \"rdx_cl.h\"\n"
                                                "__kernel void saxpy(__global float *y, __global "
                                                "const float *x, int a, int n)\n"
                                                "{\n    int i = (int)get_global_id(0);\n"
                                                "    if (i < n)\n        y[i] += x[i] * a;\n}\n");
    char err[512];
    rdx_oracle_options op = { .only = "saxpy", .data_dir = dir };
    rdx_oracle *o = rdx_oracle_prepare(&op, err, sizeof err);
    ck_assert_msg(o != NULL, "%s", err);
    const char *why = rdx_oracle_status(o, 0, 1);
    ck_assert_msg(why && strstr(why, "saxpy-O2: argument 2 of saxpy: type 'int' in the kernel, "
                                     "F32 in the manifest"),
                  "%s", why ? why : "(null)");
    rdx_oracle_free(o);
    free(dir);
}
END_TEST

/* The host runner rejects a divergent barrier, a divergent or partial-wave wave
 * operation, a write past a buffer and a malformed request. */
START_TEST(host_runner_errors)
{
    char *src = rdx_test_tmp_path("div.c"), *exe = rdx_test_tmp_path("div");
    const char *text = "#include \"rdx_cl.h\"\n"
                       "void rdx_cl_host_entry(void *const *a);\n"
                       "void rdx_cl_host_entry(void *const *a)\n{\n    (void)a;\n"
                       "    if (get_local_id(0) < 3)\n        barrier(CLK_LOCAL_MEM_FENCE);\n}\n";
    rdx_test_write_file(src, text, strlen(text));
    const char *cc[] = {
        "gcc", "-std=gnu11", "-Itests/data/emu", "-o", exe, src, "tests/data/emu/rdx_cl_host.c",
        "-lm", NULL
    };
    rdx_test_proc p;
    ck_assert_msg(rdx_test_run(cc, NULL, 0, &p) == 0, "%s", p.err);
    rdx_test_proc_free(&p);
    uint32_t req[9] = { 0x51584452u, 8, 1, 1, 8, 1, 1, 0, 32 };
    const char *run[] = { exe, NULL };
    ck_assert_int_eq(rdx_test_run(run, req, sizeof req, &p), 3);
    ck_assert_msg(
        strstr(p.err, "divergent barrier in group (0,0,0): 5 work-items returned, 3 wait"), "%s",
        p.err);
    rdx_test_proc_free(&p);

    /* a write one element past a buffer's end */
    const char *oob = "#include \"rdx_cl.h\"\n"
                      "void rdx_cl_host_entry(void *const *a);\n"
                      "void rdx_cl_host_entry(void *const *a)\n{\n"
                      "    ((__global uint *)a[0])[get_global_id(0) + 1] = 7;\n}\n";
    rdx_test_write_file(src, oob, strlen(oob));
    ck_assert_msg(rdx_test_run(cc, NULL, 0, &p) == 0, "%s", p.err);
    rdx_test_proc_free(&p);
    uint8_t oreq[36 + 16 + 32];
    uint32_t ohdr[9] = { 0x51584452u, 8, 1, 1, 8, 1, 1, 1, 32 };
    uint32_t kind[2] = { 0, 0 };
    uint64_t nbytes = 32;
    memcpy(oreq, ohdr, 36);
    memcpy(oreq + 36, kind, 8);
    memcpy(oreq + 44, &nbytes, 8);
    memset(oreq + 52, 0, 32);
    ck_assert_int_eq(rdx_test_run(run, oreq, sizeof oreq, &p), 5);
    ck_assert_msg(strstr(p.err, "wrote past the end of argument 0 (32 bytes), at byte 32"), "%s",
                  p.err);
    rdx_test_proc_free(&p);

    /* a wave operation reached by part of a wave, and one in a partial wave */
    const char *wave = "#include \"rdx_cl.h\"\n"
                       "void rdx_cl_host_entry(void *const *a);\n"
                       "void rdx_cl_host_entry(void *const *a)\n{\n    (void)a;\n"
                       "    if (get_local_id(0) < 40)\n"
                       "        (void)__builtin_amdgcn_readfirstlane(1);\n}\n";
    rdx_test_write_file(src, wave, strlen(wave));
    ck_assert_msg(rdx_test_run(cc, NULL, 0, &p) == 0, "%s", p.err);
    rdx_test_proc_free(&p);
    uint32_t wreq[9] = { 0x51584452u, 64, 1, 1, 64, 1, 1, 0, 32 };
    ck_assert_int_eq(rdx_test_run(run, wreq, sizeof wreq, &p), 3);
    ck_assert_msg(strstr(p.err, "divergent wave operation in group (0,0,0): 8 work-items wait at "
                                "a wave operation, 0 at a barrier, 56 returned"),
                  "%s", p.err);
    rdx_test_proc_free(&p);
    wreq[1] = wreq[4] = 48; /* lanes 32..39 are in a partial wave */
    ck_assert_int_eq(rdx_test_run(run, wreq, sizeof wreq, &p), 3);
    ck_assert_msg(strstr(p.err, "wave operation in a partial wave (group of 48 work-items, wave "
                                "size 32)"),
                  "%s", p.err);
    rdx_test_proc_free(&p);
    wreq[8] = 16;
    ck_assert_int_eq(rdx_test_run(run, wreq, sizeof wreq, &p), 2);
    ck_assert_msg(strstr(p.err, "wave size must be 32 or 64"), "%s", p.err);
    rdx_test_proc_free(&p);

    req[0] = 0;
    ck_assert_int_eq(rdx_test_run(run, req, sizeof req, &p), 2);
    ck_assert_msg(strstr(p.err, "bad request magic") != NULL, "%s", p.err);
    rdx_test_proc_free(&p);
    req[0] = 0x51584452u;
    ck_assert_int_eq(rdx_test_run(run, req, 12, &p), 2);
    ck_assert_msg(strstr(p.err, "truncated request") != NULL, "%s", p.err);
    rdx_test_proc_free(&p);
    free(src);
    free(exe);
}
END_TEST

/* A "device" that re-runs the host executable on the launch's buffers, after
 * checking the packed kernarg segment against the metadata. */
typedef struct host_device {
    rdx_oracle *o;
    int runs;
} host_device;

static int host_device_run(void *user, const rdx_oracle_launch *l, char *msg, size_t msglen)
{
    host_device *hd = user;
    int i = -1;
    for (int k = 0; k < rdx_oracle_count(hd->o); k++)
        if (rdx_oracle_kernel_at(hd->o, k) == l->kernel)
            i = k;
    if (i < 0)
        return snprintf(msg, msglen, "unknown kernel"), 1;
    void *bufs[RDX_ORACLE_MAX_ARGS] = { 0 };
    for (int b = 0; b < l->nbufs; b++)
        bufs[l->bufs[b].arg] = l->bufs[b].data;
    /* the kernarg segment holds the buffer addresses and the group sizes */
    const uint8_t *ka = l->kernarg;
    int explicit_idx = 0;
    for (int m = 0; m < l->md->nargs; m++) {
        const rdx_oracle_md_arg *a = &l->md->args[m];
        if (!strcmp(a->value_kind, "global_buffer")) {
            uint64_t ptr;
            memcpy(&ptr, ka + a->offset, 8);
            if (ptr != (uint64_t)(uintptr_t)bufs[explicit_idx])
                return snprintf(msg, msglen, "kernarg %d is not the buffer's address", m), 1;
        }
        if (!strcmp(a->value_kind, "hidden_group_size_x")) {
            uint16_t gs;
            memcpy(&gs, ka + a->offset, 2);
            if (gs != l->block[0])
                return snprintf(msg, msglen, "hidden_group_size_x %u", gs), 1;
        }
        if (strncmp(a->value_kind, "hidden_", 7) != 0)
            explicit_idx++;
    }
    if (l->code_size < 64 || memcmp(l->code, "\177ELF", 4) != 0)
        return snprintf(msg, msglen, "no code object"), 1;
    hd->runs++;
    return rdx_oracle_host_run(hd->o, i, bufs, l->grid, NULL, msg, msglen) != 0;
}

START_TEST(run_all_with_host_device_passes)
{
    ck_assert_msg(oracle != NULL, "oracle not prepared: %s", prepare_err);
    host_device hd = { oracle, 0 };
    rdx_oracle_summary sum;
    int failed = rdx_oracle_run_all(oracle, host_device_run, &hd, &sum, stderr);
    ck_assert_int_eq(failed, 0);
    ck_assert_int_eq(sum.launches, rdx_oracle_count(oracle) * RDX_ORACLE_NOPT);
    ck_assert_int_eq(sum.passed, sum.launches);
    ck_assert_int_eq(hd.runs, sum.launches);
}
END_TEST

/* A device that writes the expected values but spoils one element of one output. */
static int spoiling_device_run(void *user, const rdx_oracle_launch *l, char *msg, size_t msglen)
{
    rdx_oracle *o = user;
    (void)msg;
    (void)msglen;
    int i = 0;
    while (rdx_oracle_kernel_at(o, i) != l->kernel)
        i++;
    int spoiled = 0;
    for (int b = 0; b < l->nbufs; b++) {
        size_t size;
        const void *want = rdx_oracle_expected(o, i, l->bufs[b].arg, &size);
        memcpy(l->bufs[b].data, want, size);
        if (!l->bufs[b].is_output || spoiled || strcmp(l->opt, "-O3") != 0)
            continue;
        /* flip bit 6 of the top byte of the first element where that shows */
        const rdx_oracle_arg *arg = &l->kernel->args[l->bufs[b].arg];
        size_t esz = rdx_oracle_type_size(arg->type);
        for (size_t j = 0; j < l->bufs[b].count && !spoiled; j++) {
            uint8_t *e = (uint8_t *)l->bufs[b].data + j * esz;
            e[esz - 1] ^= 0x40;
            spoiled = rdx_oracle_compare(arg->type, arg->cmp, e, (const uint8_t *)want + j * esz, 1,
                                         "x", NULL, 0, 0) == 1;
            if (!spoiled)
                e[esz - 1] ^= 0x40;
        }
    }
    return 0;
}

static int failing_device_run(void *user, const rdx_oracle_launch *l, char *msg, size_t msglen)
{
    (void)user;
    snprintf(msg, msglen, "VM fault at 0x1234 in %s", l->kernel_name);
    return 1;
}

START_TEST(run_all_catches_mismatches_and_faults)
{
    ck_assert_msg(oracle != NULL, "oracle not prepared: %s", prepare_err);
    char *logbuf = NULL;
    size_t loglen = 0;
    FILE *log = open_memstream(&logbuf, &loglen);
    rdx_oracle_summary sum;
    int n = rdx_oracle_count(oracle);
    ck_assert_int_eq(rdx_oracle_run_all(oracle, spoiling_device_run, oracle, &sum, log), n);
    fclose(log);
    ck_assert_int_eq(sum.mismatched, n);
    ck_assert_int_eq(sum.passed, 2 * n);
    ck_assert_msg(
        strstr(logbuf,
               "emu oracle: saxpy -O3: 1 element(s) differ from the host:\n  arg0[0]: got") != NULL,
        "%.2000s", logbuf);
    free(logbuf);

    log = open_memstream(&logbuf, &loglen);
    ck_assert_int_eq(rdx_oracle_run_all(oracle, failing_device_run, NULL, &sum, log), 3 * n);
    fclose(log);
    ck_assert_int_eq(sum.device_failed, 3 * n);
    ck_assert_msg(
        strstr(logbuf,
               "emu oracle: bitonic_sort -O0: device failed: VM fault at 0x1234 in bitonic_sort") !=
            NULL,
        "%.2000s", logbuf);
    free(logbuf);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("emu_oracle");
    TCase *tc = tcase_create("oracle");
    tcase_set_timeout(tc, 300);
    tcase_add_unchecked_fixture(tc, rdx_emu_oracle_suite_setup, NULL);
    tcase_add_test(tc, corpus_compiles_for_gfx1100);
    tcase_add_test(tc, host_runs_succeed);
    tcase_add_test(tc, corpus_covers_features);
    tcase_add_test(tc, corpus_instruction_coverage);
    tcase_add_test(tc, reduce_sum_is_sum_of_iota);
    tcase_add_test(tc, bitonic_sort_sorts_each_block);
    tcase_add_test(tc, histograms_count_every_element);
    tcase_add_test(tc, transpose_twice_is_identity);
    tcase_add_test(tc, matmul_matches_naive_loop);
    tcase_add_test(tc, scan_is_blockwise_prefix_sum);
    tcase_add_test(tc, softmax_rows_are_distributions);
    tcase_add_test(tc, reduce_max_matches_scan);
    tcase_add_test(tc, grid_ids_follow_opencl);
    tcase_add_test(tc, integer_kernels_match_c);
    tcase_add_test(tc, half_kernels_round_correctly);
    tcase_add_test(tc, atomics_match_sequential);
    tcase_add_test(tc, amdgcn_builtins_match_definitions);
    tcase_add_test(tc, wave_ops_follow_lane_rules);
    tcase_add_test(tc, wmma_is_matrix_product);
    tcase_add_test(tc, saxpy_matches_c);
    tcase_add_test(tc, run_all_with_host_device_passes);
    tcase_add_test(tc, run_all_catches_mismatches_and_faults);
    suite_add_tcase(s, tc);

    TCase *tm = tcase_create("machinery");
    tcase_set_timeout(tm, 120);
    tcase_add_test(tm, ulp_distance_edges);
    tcase_add_test(tm, compare_reports_first_mismatches);
    tcase_add_test(tm, metadata_parse_errors);
    tcase_add_test(tm, prepare_reports_bad_setup);
    tcase_add_test(tm, prepare_reports_compile_errors);
    tcase_add_test(tm, prepare_reports_signature_mismatch);
    tcase_add_test(tm, host_runner_errors);
    tcase_add_test(tm, script_flags_match_oracle);
    suite_add_tcase(s, tm);

    if (rdx_emu_oracle_device_tcase)
        suite_add_tcase(s, rdx_emu_oracle_device_tcase());
    if (rdx_emu_oracle_targets_tcase)
        suite_add_tcase(s, rdx_emu_oracle_targets_tcase());
    int rc = rdx_test_main(s);
    rdx_oracle_free(oracle);
    return rc;
}
