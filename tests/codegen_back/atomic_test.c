/* tests/codegen_back/atomic_test.c — ATOMICADD (the spec's codegen op) on the wave
 * emulator: a scatter-add kernel (tests/data/codegen/atomic_add.uop; many work-items add
 * into the same element) against the reference interpreter's scatter_add, the tensor
 * API's one-hot composition, in float32, int32, uint32 and int64; dtypes RDNA3 has no
 * atomic add for are refused naming the op. */
#include <stdlib.h>
#include <string.h>

#include <rdx/interp.h>
#include <rdx/realize.h>
#include <rdx/tensor.h>

#include "tests/codegen_back/cgb_test.h"
#include "util/error.h"

enum { N = 1000, M = 16 };

/* atomic_add.uop with slots 0 and 2 of dtype dt */
static char *kernel_text(const char *dt)
{
    char *t = rdx_test_read_file("tests/data/codegen/atomic_add.uop", NULL);
    char *out = malloc(strlen(t) + 64);
    ck_assert_ptr_nonnull(out);
    char *o = out;
    for (const char *p = t; *p;) {
        const char *f = strstr(p, "dtype=float32");
        if (!f) {
            strcpy(o, p);
            break;
        }
        memcpy(o, p, (size_t)(f - p));
        o += f - p;
        o += sprintf(o, "dtype=%s", dt);
        p = f + strlen("dtype=float32");
    }
    free(t);
    return out;
}

static void check_dtype(rdx_scalar sc, const char *name)
{
    rdx_dtype dt = rdx_dtype_of(sc);
    size_t es = rdx_dtype_itemsize(dt);
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    char *text = kernel_text(name);
    const rdx_uop *k = cgb_parse_text(ctx, text);
    free(text);
    uint8_t *val = calloc(N, 8), *out = calloc(M + 8, 8);
    int32_t *idx = calloc(N, sizeof *idx);
    uint64_t s = 2206;
    for (int i = 0; i < N; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        idx[i] = (int32_t)((s >> 33) % M);
        int v = (int)((s >> 20) % 2001) - 1000;
        if (sc == RDX_FLOAT32)
            ((float *)val)[i] = (float)v / 64.0f; /* exact sums in any order */
        else if (es == 8)
            ((int64_t *)val)[i] = (int64_t)v * 5000000000ll;
        else
            ((int32_t *)val)[i] = v * 3000;
    }
    void *bufs[3] = { val, idx, out };
    size_t sizes[3] = { N * es, N * sizeof *idx, M * es };
    rdx_status st = cgb_run(ctx, k, NULL, bufs, sizes, NULL, NULL, 0, NULL);
    ck_assert_msg(st == RDX_OK, "%s: %s", name, rdx_error_message());
    /* the interpreter: scatter_add of the same values into zeros */
    rdx_graph *g;
    ck_assert_int_eq(rdx_graph_create(&g, NULL), RDX_OK);
    const rdx_tensor *tv = rdx_tensor_from_data(g, dt, 1, (int64_t[]){ N }, val);
    const rdx_tensor *ti =
        rdx_tensor_from_data(g, rdx_dtype_of(RDX_INT32), 1, (int64_t[]){ N }, idx);
    const rdx_tensor *r =
        rdx_tensor_scatter_add(g, rdx_tensor_zeros(g, dt, 1, (int64_t[]){ M }), ti, tv);
    ck_assert_msg(r != NULL, "%s", rdx_graph_error(g));
    rdx_array want;
    ck_assert_int_eq(rdx_tensor_realize(g, r, &want), RDX_OK);
    ck_assert_uint_eq(want.dtype.scalar, sc);
    ck_assert_int_eq(want.numel, M);
    ck_assert_msg(memcmp(want.data, out, M * es) == 0, "%s: the device's sums differ", name);
    rdx_graph_destroy(g);
    free(val);
    free(out);
    free(idx);
    rdx_ir_ctx_destroy(ctx);
}

START_TEST(atomic_add_scatter_matches_the_interpreter)
{
    check_dtype(RDX_FLOAT32, "float32");
    check_dtype(RDX_INT32, "int32");
    check_dtype(RDX_UINT32, "uint32");
    check_dtype(RDX_INT64, "int64");
}
END_TEST

START_TEST(atomic_add_of_a_half_is_refused)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    char *text = kernel_text("float16");
    const rdx_uop *k = cgb_parse_text(ctx, text);
    free(text);
    rdx_codegen_kernel *ck = NULL;
    ck_assert_int_eq(rdx_codegen_compile(ctx, k, NULL, &ck), RDX_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "ATOMICADD"));
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

TCase *cgb_tcase_atomic(void)
{
    TCase *tc = tcase_create("atomic");
    tcase_add_test(tc, atomic_add_scatter_matches_the_interpreter);
    tcase_add_test(tc, atomic_add_of_a_half_is_refused);
    return tc;
}
