/*
 * tests/codegen_back/wmma_rules_test.c — kernel-form graphs with two WMMAs
 * (chained, independent, sharing a fragment, a result read twice): every
 * instruction the back end emits must keep the operand rules of
 * rdx_isa_check (a WMMA's D must not overlap A or B, and is C or disjoint
 * from it), and the results must be right on the emulator.  The code is
 * decoded and checked as the kernel's own target (CGB_TARGET=gfx1201 checks
 * gfx12's encodings and rules).  wmma-overlap is an RDNA3 rule: with WMMAs
 * not early-clobber in the register plan the gfx11 runs fail, the gfx12 ones
 * pass (gfx12 has no such rule in rdx_isa_check, and the results stay right).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codeobj.h>
#include <rdx/isa.h>

#include "tests/codegen_back/cgb_test.h"
#include "util/error.h"

enum { SA, SB, SA2, SB2, SC, SD, SE, NSLOT };

static const rdx_uop *param(rdx_ir_ctx *ctx, int64_t slot, rdx_scalar s, int64_t n)
{
    const rdx_uop *sh = rdx_ir_shape(ctx, &n, 1);
    rdx_uop_arg a = rdx_uop_arg_none();
    a.i = slot;
    a.dtype = rdx_dtype_of(s);
    a.addrspace = RDX_ADDR_GLOBAL;
    return rdx_ir_node(ctx, RDX_OP_PARAM, &sh, 1, &a);
}

static const rdx_uop *load(rdx_ir_ctx *ctx, const rdx_uop *buf, const rdx_uop *i)
{
    const rdx_uop *ix = rdx_ir_index(ctx, buf, &i, 1);
    return rdx_ir_node(ctx, RDX_OP_LOAD, &ix, 1, NULL);
}

static const rdx_uop *gep(rdx_ir_ctx *ctx, const rdx_uop *v, int64_t k)
{
    rdx_uop_arg a = rdx_uop_arg_none();
    a.ints = rdx_ir_ints(ctx, &k, 1);
    a.nints = 1;
    return rdx_ir_node(ctx, RDX_OP_GEP, &v, 1, &a);
}

typedef struct wctx {
    rdx_ir_ctx *ctx;
    const rdx_uop *buf[NSLOT];
    const rdx_uop *row, *half, *c16;
} wctx;

/* The A fragment (row `row` of a row-major 16x16 half matrix) or the B fragment (column). */
static const rdx_uop *frag(wctx *w, int slot, int is_b)
{
    const rdx_uop *l[16];
    for (int k = 0; k < 16; k++) {
        const rdx_uop *ix =
            is_b ? rdx_ir_add(w->ctx, rdx_ir_int(w->ctx, 16 * k), w->row)
                 : rdx_ir_add(w->ctx, rdx_ir_mul(w->ctx, w->row, w->c16), rdx_ir_int(w->ctx, k));
        l[k] = load(w->ctx, w->buf[slot], ix);
    }
    return rdx_ir_node(w->ctx, RDX_OP_VECTORIZE, l, 16, NULL);
}

/* Element v of the work-item's part of a 16x16 float32 tile: its linear index. */
static const rdx_uop *cidx(wctx *w, int v)
{
    const rdx_uop *r = rdx_ir_add(w->ctx, rdx_ir_int(w->ctx, 2 * v), w->half);
    return rdx_ir_add(w->ctx, rdx_ir_mul(w->ctx, r, w->c16), w->row);
}

static const rdx_uop *cfrag(wctx *w)
{
    const rdx_uop *l[8];
    for (int v = 0; v < 8; v++)
        l[v] = load(w->ctx, w->buf[SC], cidx(w, v));
    return rdx_ir_node(w->ctx, RDX_OP_VECTORIZE, l, 8, NULL);
}

static const rdx_uop *wmma(wctx *w, const rdx_uop *a, const rdx_uop *b, const rdx_uop *c)
{
    const rdx_uop *ws[3] = { a, b, c };
    rdx_uop_arg wa = rdx_uop_arg_none();
    wa.str = rdx_ir_str(w->ctx, "WMMA_16_16_16_half_float", 24);
    wa.len = 24;
    wa.dtype = rdx_dtype_vec(rdx_dtype_of(RDX_FLOAT32), 8);
    return rdx_ir_node(w->ctx, RDX_OP_WMMA, ws, 3, &wa);
}

static void store_tile(wctx *w, int slot, const rdx_uop *t, const rdx_uop **st)
{
    for (int v = 0; v < 8; v++)
        st[v] = rdx_ir_store(
            w->ctx, rdx_ir_index(w->ctx, w->buf[slot], (const rdx_uop *[]){ cidx(w, v) }, 1),
            gep(w->ctx, t, v));
}

static uint16_t f2h(float f)
{
    /* exact for the small values used here */
    if (f == 0)
        return 0;
    int e;
    float m = frexpf(fabsf(f), &e);
    uint16_t h = (uint16_t)(((e + 14) << 10) | ((int)(m * 2048) - 1024));
    return f < 0 ? (uint16_t)(h | 0x8000) : h;
}

/* Every instruction of the kernel's code keeps rdx_isa_check's rules for the
   target it was compiled for. */
static void check_rules(const rdx_codegen_kernel *k, unsigned *nwmma)
{
    rdx_codeobj *co = NULL;
    ck_assert_msg(!rdx_codeobj_read(k->code_object, k->code_object_size, "kernel", &co), "%s",
                  rdx_error_message());
    const rdx_isa_target *t = rdx_isa_target_find(k->target);
    ck_assert_msg(t != NULL, "no ISA target %s", k->target);
    size_t off = 0;
    while (off < co->text_size) {
        rdx_isa_inst in;
        size_t len = 0;
        ck_assert_msg(!rdx_isa_decode(t, co->text + off, co->text_size - off, &in, &len),
                      "offset %zu: %s", off, rdx_error_message());
        rdx_isa_rule rule;
        if (rdx_isa_check(t, &in, 0, &rule))
            fprintf(stderr, "%s\n", k->stage_text[RDX_CG_STAGE_ASM]);
        ck_assert_msg(rule == RDX_ISA_RULE_NONE, "offset %zu: %s", off, rdx_error_message());
        *nwmma += !strncmp(rdx_isa_op_name((rdx_isa_op)in.op), "v_wmma_", 7);
        off += len;
    }
    rdx_codeobj_free(co);
}

/* shape: 0 chained (D = A2 B2 + (A B + C)), 1 independent (D = A B + C, E = A2 B2 + C),
   2 sharing A (D = A B2 + (A B + C)), 3 chained with the first result also stored (E) */
static void run_shape(int shape)
{
    wctx w = { 0 };
    ck_assert_int_eq(rdx_ir_ctx_create(&w.ctx), RDX_OK);
    for (int s = 0; s < NSLOT; s++)
        w.buf[s] = param(w.ctx, s, s < SC ? RDX_FLOAT16 : RDX_FLOAT32, 256);
    const rdx_uop *l =
        rdx_ir_node(w.ctx, RDX_OP_SPECIAL, (const rdx_uop *[]){ rdx_ir_int(w.ctx, 32) }, 1,
                    &(rdx_uop_arg){ .str = rdx_ir_str(w.ctx, "lidx0", 5), .len = 5 });
    w.c16 = rdx_ir_int(w.ctx, 16);
    w.row = rdx_ir_mod(w.ctx, l, w.c16);
    w.half = rdx_ir_idiv(w.ctx, l, w.c16);
    const rdx_uop *fa = frag(&w, SA, 0), *fb = frag(&w, SB, 1), *fa2 = frag(&w, SA2, 0),
                  *fb2 = frag(&w, SB2, 1), *c = cfrag(&w);
    const rdx_uop *st[16];
    int nst = 8;
    const rdx_uop *w1 = wmma(&w, fa, fb, c);
    if (shape == 0 || shape == 3) {
        store_tile(&w, SD, wmma(&w, fa2, fb2, w1), st);
        if (shape == 3)
            store_tile(&w, SE, w1, st + 8), nst = 16;
    } else if (shape == 1) {
        store_tile(&w, SD, w1, st);
        store_tile(&w, SE, wmma(&w, fa2, fb2, c), st + 8), nst = 16;
    } else {
        store_tile(&w, SD, wmma(&w, fa, fb2, w1), st);
    }
    const rdx_uop *sink = rdx_ir_sink(w.ctx, st, (size_t)nst);
    ck_assert_msg(sink != NULL, "%s", rdx_error_message());

    uint16_t *h[4];
    float *hf[4], *c32 = malloc(1024), *d = calloc(256, 4), *e = calloc(256, 4);
    for (int m = 0; m < 4; m++) {
        h[m] = malloc(512), hf[m] = malloc(1024);
        for (int i = 0; i < 256; i++) {
            hf[m][i] = (float)((i * (7 + 2 * m) + m) % 11 - 5) * 0.5f;
            h[m][i] = f2h(hf[m][i]);
        }
    }
    for (int i = 0; i < 256; i++)
        c32[i] = (float)(i % 5);
    void *bufs[NSLOT] = { h[0], h[1], h[2], h[3], c32, d, e };
    size_t sizes[NSLOT] = { 512, 512, 512, 512, 1024, 1024, 1024 };
    rdx_codegen_options o = { .keep_stages = 1u << RDX_CG_STAGE_ASM };
    rdx_codegen_kernel *k = NULL;
    rdx_status rs = cgb_run(w.ctx, sink, &o, bufs, sizes, NULL, NULL, 0, &k);
    ck_assert_msg(!rs, "shape %d: %s", shape, rdx_error_message());
    unsigned nw = 0;
    check_rules(k, &nw);
    ck_assert_msg(nw == 2, "shape %d: %u WMMAs\n%s", shape, nw, k->stage_text[RDX_CG_STAGE_ASM]);
    rdx_codegen_kernel_free(k);
    /* host reference */
    const float *A = hf[0], *B = hf[1], *A2 = shape == 2 ? hf[0] : hf[2], *B2 = hf[3];
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            double p1 = c32[i * 16 + j], p2 = 0;
            for (int kk = 0; kk < 16; kk++) {
                p1 += (double)A[i * 16 + kk] * B[kk * 16 + j];
                p2 += (double)A2[i * 16 + kk] * B2[kk * 16 + j];
            }
            double want_d = shape == 1 ? p1 : p1 + p2;
            ck_assert_msg(fabs(d[i * 16 + j] - want_d) <= 1e-5 * (1 + fabs(want_d)),
                          "shape %d: D[%d][%d] = %g, expected %g", shape, i, j, d[i * 16 + j],
                          want_d);
            if (shape == 1 || shape == 3) {
                double want_e = shape == 1 ? p2 + c32[i * 16 + j] : p1;
                ck_assert_msg(fabs(e[i * 16 + j] - want_e) <= 1e-5 * (1 + fabs(want_e)),
                              "shape %d: E[%d][%d] = %g, expected %g", shape, i, j, e[i * 16 + j],
                              want_e);
            }
        }
    for (int m = 0; m < 4; m++)
        free(h[m]), free(hf[m]);
    free(c32), free(d), free(e);
    rdx_ir_ctx_destroy(w.ctx);
}

START_TEST(two_wmma_register_rules)
{
    run_shape(_i);
}
END_TEST

TCase *cgb_tcase_wmma_rules(void)
{
    TCase *tc = tcase_create("wmma_rules");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, two_wmma_register_rules, 0, 4);
    return tc;
}
