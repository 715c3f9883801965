/*
 * tests/codegen_back/lds_merge_test.c — merging of LDS accesses into aligned forms
 * (isel_merge.c, docs/codegen-backend.md "LDS alignment"): 32 work-items copy 5 floats each
 * from a global buffer into LDS (byte address 20 l: dword aligned only), then each reads 4
 * adjacent floats at element l P + B and writes them out.  The forms follow from the byte
 * address' alignment worked out by hand: 16-aligned reads are one ds_load_b128, 8-aligned
 * ones one ds_load_2addr_b64, 4-aligned ones two ds_load_2addr_b32 (never an under-aligned
 * ds_load_b64/b96/b128); the stores, dword aligned, are ds_store_2addr_b32 pairs.  Values
 * against the host's copy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/codegen_back/cgb_test.h"

#define LANES 32
#define Q     5 /* floats stored per work-item */

/* The kernel-form text for reads at element l*p + b. */
static char *kernel_text(int p, int b)
{
    static char t[4096];
    size_t k = 0;
    k += (size_t)snprintf(t + k, sizeof t - k,
                          "%%c32 = CONST dtype=index value=%d\n"
                          "%%cn = CONST dtype=index value=%d\n"
                          "%%co = CONST dtype=index value=%d\n"
                          "%%cq = CONST dtype=index value=%d\n"
                          "%%cp = CONST dtype=index value=%d\n"
                          "%%c4 = CONST dtype=index value=4\n"
                          "%%shn = STACK %%cn\n %%sho = STACK %%co\n"
                          "%%in = PARAM %%shn slot=0 dtype=float32 addr=global\n"
                          "%%out = PARAM %%sho slot=1 dtype=float32 addr=global\n"
                          "%%l = SPECIAL %%c32 str=\"lidx0\"\n"
                          "%%lds = DEFINE_LOCAL %%shn slot=0 dtype=float32\n"
                          "%%lq = MUL %%l, %%cq\n %%lp = MUL %%l, %%cp\n %%l4 = MUL %%l, %%c4\n",
                          LANES, LANES * Q, LANES * 4, Q, p);
    for (int q = 0; q < Q; q++)
        k += (size_t)snprintf(t + k, sizeof t - k,
                              "%%q%d = CONST dtype=index value=%d\n %%a%d = ADD %%lq, %%q%d\n"
                              "%%gi%d = INDEX %%in, %%a%d\n %%v%d = LOAD %%gi%d\n"
                              "%%li%d = INDEX %%lds, %%a%d\n %%s%d = STORE %%li%d, %%v%d\n",
                              q, q, q, q, q, q, q, q, q, q, q, q, q);
    k += (size_t)snprintf(t + k, sizeof t - k,
                          "%%bar = BARRIER %%s0, %%s1, %%s2, %%s3, %%s4\n"
                          "%%ldsa = AFTER %%lds, %%bar\n");
    for (int j = 0; j < 4; j++)
        k += (size_t)snprintf(t + k, sizeof t - k,
                              "%%b%d = CONST dtype=index value=%d\n %%e%d = ADD %%lp, %%b%d\n"
                              "%%ri%d = INDEX %%ldsa, %%e%d\n %%r%d = LOAD %%ri%d\n"
                              "%%j%d = CONST dtype=index value=%d\n %%o%d = ADD %%l4, %%j%d\n"
                              "%%oi%d = INDEX %%out, %%o%d\n %%w%d = STORE %%oi%d, %%r%d\n",
                              j, b + j, j, j, j, j, j, j, j, j, j, j, j, j, j, j, j);
    snprintf(t + k, sizeof t - k, "%%k = SINK %%w0, %%w1, %%w2, %%w3\nreturn %%k\n");
    return t;
}

static unsigned count(const char *s, const char *what)
{
    unsigned n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n += p[strlen(what)] == ' '; /* the whole mnemonic */
    return n;
}

START_TEST(lds_merge_forms)
{
    static const struct {
        int p, b;
        unsigned b128, addr64, addr32;
    } cases[] = {
        { 4, 0, 1, 0, 0 }, /* 16 l bytes: one b128 */
        { 2, 0, 0, 1, 0 }, /* 8 l: 8-aligned, one 2addr_b64 */
        { 4, 2, 0, 1, 0 }, /* 16 l + 8 */
        { 3, 0, 0, 0, 2 }, /* 12 l: dword aligned, two 2addr_b32 */
        { 4, 1, 0, 0, 2 }, /* 16 l + 4 */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        rdx_ir_ctx *ctx;
        ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
        const rdx_uop *sink = cgb_parse_text(ctx, kernel_text(cases[c].p, cases[c].b));
        float in[LANES * Q], out[LANES * 4];
        for (int i = 0; i < LANES * Q; i++)
            in[i] = (float)i * 1.5f + 1;
        memset(out, 0, sizeof out);
        void *bufs[2] = { in, out };
        size_t sizes[2] = { sizeof in, sizeof out };
        char *a = cgb_run_asm(ctx, sink, bufs, sizes);
        ck_assert_msg(count(a, "ds_load_b128") == cases[c].b128 &&
                          count(a, "ds_load_2addr_b64") == cases[c].addr64 &&
                          count(a, "ds_load_2addr_b32") == cases[c].addr32 &&
                          !count(a, "ds_load_b64") && !count(a, "ds_load_b96") &&
                          !count(a, "ds_load_b32"),
                      "P=%d B=%d:\n%s", cases[c].p, cases[c].b, a);
        /* the stores at 20 l: dword pairs (0, 4) and (8, 12), the fifth alone */
        ck_assert_msg(count(a, "ds_store_2addr_b32") == 2 && count(a, "ds_store_b32") == 1 &&
                          !count(a, "ds_store_b64") && !count(a, "ds_store_b128"),
                      "%s", a);
        if (getenv("CGB_DEBUG"))
            fprintf(stderr, "P=%d B=%d:\n%s", cases[c].p, cases[c].b, a);
        free(a);
        for (int l = 0; l < LANES; l++)
            for (int j = 0; j < 4; j++)
                ck_assert_float_eq(out[l * 4 + j], in[l * cases[c].p + cases[c].b + j]);
        rdx_ir_ctx_destroy(ctx);
    }
}
END_TEST

TCase *cgb_tcase_lds_merge(void)
{
    TCase *tc = tcase_create("lds_merge");
    tcase_add_test(tc, lds_merge_forms);
    return tc;
}
