/*
 * tests/codeobj_oracle/descriptor_test.c — for each kernel of the suite, rdx's code
 * object and clang-19's code object of the equivalent OpenCL C kernel
 * (tests/data/codeobj_oracle/kernels.cl) compared field by field (compare.c), and
 * the registers each program reads before writing them checked against what its
 * descriptor tells the hardware to initialise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/codeobj_oracle/cor_test.h"
#include "util/error.h"

/* ------------------------------------------------------------ clang's side */

static rdx_codeobj *clang_co;
static char clang_path[512]; /* the linked object (in the test's temporary directory) */

static void clang_free(void)
{
    rdx_codeobj_free(clang_co);
}

int cor_clang_prepare(char *err, size_t cap)
{
    if (clang_co)
        return 0;
    /* the tool paths live in static storage: copied */
    const char *t = rdx_test_llvm_tool("clang");
    char *clang = t ? strdup(t) : NULL;
    t = rdx_test_llvm_tool("ld.lld");
    char *lld = t ? strdup(t) : NULL;
    char *obj = rdx_test_tmp_path("cor_kernels.o"), *so = rdx_test_tmp_path("cor_kernels.co");
    int rc = -1;
    rdx_test_proc p = { 0 };
    if (!clang || !lld) {
        snprintf(err, cap, "LLVM 19 clang / ld.lld not found");
        goto out;
    }
    const char *cc[] = { clang,
                         "-x",
                         "cl",
                         "-cl-std=CL2.0",
                         "-target",
                         "amdgcn-amd-amdhsa",
                         "-mcpu=gfx1100",
                         "-nogpulib",
                         "-O2",
                         "-Wall",
                         "-Wextra",
                         "-Werror",
                         "-c",
                         "tests/data/codeobj_oracle/kernels.cl",
                         "-o",
                         obj,
                         NULL };
    if (rdx_test_run(cc, NULL, 0, &p) != 0) {
        snprintf(err, cap, "clang: %s", p.err);
        goto out;
    }
    rdx_test_proc_free(&p);
    const char *ld[] = { lld, "-shared", obj, "-o", so, NULL };
    if (rdx_test_run(ld, NULL, 0, &p) != 0) {
        snprintf(err, cap, "ld.lld: %s", p.err);
        goto out;
    }
    snprintf(clang_path, sizeof clang_path, "%s", so);
    if (rdx_codeobj_read_file(so, &clang_co)) {
        snprintf(err, cap, "%s", rdx_error_message());
        goto out;
    }
    atexit(clang_free);
    rc = 0;
out:
    rdx_test_proc_free(&p);
    free(obj);
    free(so);
    free(clang);
    free(lld);
    return rc;
}

void cor_clang_setup(void)
{
    cor_clang();
}

const rdx_codeobj *cor_clang(void)
{
    char err[4096];
    ck_assert_msg(!cor_clang_prepare(err, sizeof err), "%s", err);
    return clang_co;
}

const char *cor_clang_path(void)
{
    cor_clang();
    return clang_path;
}

const rdx_codeobj_kernel *cor_clang_kernel(const char *name)
{
    const rdx_codeobj *co = cor_clang();
    for (size_t i = 0; i < co->num_kernels; i++)
        if (!strcmp(co->kernels[i].name, name))
            return &co->kernels[i];
    ck_abort_msg("clang's kernels.cl has no kernel %s", name);
    return NULL;
}

/* -------------------------------------------------------------- rdx's side */

const rdx_uop *cor_parse_file(rdx_ir_ctx *ctx, const char *file)
{
    char path[256];
    snprintf(path, sizeof path, "tests/data/codeobj_oracle/%s", file);
    size_t len;
    char *text = rdx_test_read_file(path, &len);
    const rdx_uop **roots = NULL;
    size_t n = 0;
    rdx_status st = rdx_ir_parse(ctx, path, text, len, &roots, &n);
    free(text);
    ck_assert_msg(!st, "%s", rdx_error_message());
    ck_assert_uint_eq(n, 1);
    const rdx_uop *r = roots[0];
    free(roots);
    return r;
}

rdx_codegen_kernel *cor_compile(rdx_ir_ctx *ctx, const rdx_uop *sink, const char *name, uint32_t wg)
{
    rdx_codegen_options o = { .name = name, .wg_size = wg };
    rdx_codegen_kernel *k = NULL;
    ck_assert_msg(!rdx_codegen_compile(ctx, sink, &o, &k), "%s: %s", name, rdx_error_message());
    return k;
}

/* ------------------------------------------------------------ the comparison */

/* s_n in a cor_inputs set */
static int has_s(const cor_inputs *in, unsigned r)
{
    return (int)(in->sgprs[r / 64] >> (r % 64) & 1);
}

/*
 * The registers a program reads before writing them must be ones its descriptor
 * initialises: the kernarg pointer s[0:1], the enabled workgroup ids right after
 * the USER_SGPR_COUNT user SGPRs, v0 (packed work-item ids).  Returns a message or NULL.
 */
static const char *abi_inputs(const rdx_codeobj_kernel *k, const uint8_t *text, size_t text_size,
                              char *buf, size_t cap)
{
    cor_inputs in;
    ck_assert_uint_le(k->code_offset + k->code_size, text_size);
    cor_live_in(text + k->code_offset, k->code_size, &in);
    const rdx_kernel_descriptor *kd = &k->kd;
    uint64_t allowed[2] = { 0, 0 };
    unsigned s = kd->user_sgpr_count, n = 0;
    if (kd->enable_sgpr_kernarg_segment_ptr) /* the only user SGPRs these kernels enable */
        allowed[0] |= 3;
    const uint32_t en[3] = { kd->enable_sgpr_workgroup_id_x, kd->enable_sgpr_workgroup_id_y,
                             kd->enable_sgpr_workgroup_id_z };
    for (int d = 0; d < 3; d++)
        if (en[d])
            allowed[(s + n) / 64] |= 1ull << ((s + n) % 64), n++;
    for (unsigned r = 0; r < 106; r++)
        if (has_s(&in, r) && !(allowed[r / 64] >> (r % 64) & 1)) {
            snprintf(buf, cap, "%s reads s%u before writing it (user SGPRs %u, %u workgroup ids)",
                     k->name, r, s, n);
            return buf;
        }
    if (in.vgprs[0] & ~1ull || in.vgprs[1] || in.vgprs[2] || in.vgprs[3]) {
        snprintf(buf, cap, "%s reads a VGPR other than v0 before writing it", k->name);
        return buf;
    }
    return NULL;
}

/* rdx's code object (one kernel) against clang's kernel `name` */
static void compare_object(const void *obj, size_t size, const char *name, int check_clang_inputs)
{
    rdx_codeobj *co = NULL;
    ck_assert_msg(!rdx_codeobj_read(obj, size, name, &co), "%s", rdx_error_message());
    ck_assert_uint_eq(co->num_kernels, 1);
    const rdx_codeobj_kernel *rk = &co->kernels[0], *ck = cor_clang_kernel(name);
    char log[4096];
    int bad = cor_compare(rk, ck, log, sizeof log);
    ck_assert_msg(bad == 0, "%s: %d unexplained differences from clang:\n%s", name, bad, log);
    /* the ABI inputs: clang's program checks the checker, rdx's program is checked */
    char msg[256];
    const char *e = NULL;
    if (check_clang_inputs)
        e = abi_inputs(ck, cor_clang()->text, cor_clang()->text_size, msg, sizeof msg);
    ck_assert_msg(!e, "clang: %s", e);
    e = abi_inputs(rk, co->text, co->text_size, msg, sizeof msg);
    ck_assert_msg(!e, "rdx: %s", e);
    /* the hardware rule behind USER_SGPR_COUNT (gfx1100 wave32, UserSGPRInit16Bug):
       user + system SGPRs are at least 16 on both sides */
    uint32_t sys = rk->kd.enable_sgpr_workgroup_id_x + rk->kd.enable_sgpr_workgroup_id_y +
                   rk->kd.enable_sgpr_workgroup_id_z + rk->kd.enable_sgpr_workgroup_info;
    ck_assert_uint_ge(rk->kd.user_sgpr_count + sys, 16);
    rdx_codeobj_free(co);
}

static void compare_kernel(rdx_codegen_kernel *k, const char *name, int check_clang_inputs)
{
    compare_object(k->code_object, k->code_object_size, name, check_clang_inputs);
}

/* A tensor-level graph through the whole pipeline (`rdx compile FILE --opts OPTS`), its
   one kernel against clang's `name`. */
static void compare_compiled(const char *file, const char *opts, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "tests/data/codeobj_oracle/%s", file);
    char *out = rdx_test_tmp_path(name);
    const char *argv[] = { rdx_test_rdx_path(), "compile", path, "--opts", opts, "-o", out, NULL };
    rdx_test_proc p;
    ck_assert_msg(rdx_test_run(argv, NULL, 0, &p) == 0, "rdx compile %s: %s", file, p.err);
    rdx_test_proc_free(&p);
    size_t len;
    char *obj = rdx_test_read_file(out, &len);
    compare_object(obj, len, name, 1);
    free(obj);
    free(out);
}

START_TEST(group_reduce)
{
    compare_compiled("rowsum.uop", "SPLIT(1,256,GROUP_REDUCE)", "rowsum");
}
END_TEST

START_TEST(lds_optop)
{
    compare_compiled("matmul.uop",
                     "SPLIT(2,8,UNROLL) SPLIT(0,16,LOCAL) SPLIT(1,16,LOCAL) LDS(2,0,LOOP)",
                     "matmul_lds");
}
END_TEST

static void compare_file(const char *file, const char *name, uint32_t wg, int check_clang_inputs)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    rdx_codegen_kernel *k = cor_compile(ctx, cor_parse_file(ctx, file), name, wg);
    compare_kernel(k, name, check_clang_inputs);
    rdx_codegen_kernel_free(k);
    rdx_ir_ctx_destroy(ctx);
}

START_TEST(elementwise_wg32)
{
    compare_file("ew32.uop", "ew32", 32, 1);
}
END_TEST

START_TEST(elementwise_wg256)
{
    compare_file("ew256.uop", "ew256", 256, 1);
}
END_TEST

START_TEST(elementwise_wg1024)
{
    compare_file("ew1024.uop", "ew1024", 1024, 1);
}
END_TEST

START_TEST(saxpy_symbolic)
{
    compare_file("saxpy.uop", "saxpy", 256, 1);
}
END_TEST

START_TEST(by_value_args)
{
    /* clang's byval sign-extends the char with s_bfe_i64 s[2:3], which formally reads
       the never-written s3 (only the low 8 bits matter): its inputs are not checked */
    compare_file("byval.uop", "byval", 0, 0);
}
END_TEST

START_TEST(lds_barrier)
{
    compare_file("lds.uop", "lds", 0, 1);
}
END_TEST

START_TEST(three_dims)
{
    compare_file("xyz.uop", "xyz", 0, 1);
}
END_TEST

/* 300 int32 values live at once (tests/codegen_back/spill_test.c's shape): spills */
static char *many_live(int n, int K)
{
    size_t cap = 64 * 1024, len = 0;
    char *b = malloc(cap);
#define ADD(...) len += (size_t)snprintf(b + len, cap - len, __VA_ARGS__)
    ADD("%%N = CONST dtype=index value=%d\n%%K = CONST dtype=index value=%d\n", n, K);
    ADD("%%sa = STACK %%N, %%K\n%%so = STACK %%N\n");
    ADD("%%A = PARAM %%sa slot=0 dtype=int32 addr=global\n");
    ADD("%%O = PARAM %%so slot=1 dtype=int32 addr=global\n");
    ADD("%%i = RANGE %%N axis=0 type=GLOBAL\n");
    for (int j = 0; j < K; j++)
        ADD("%%j%d = CONST dtype=index value=%d\n%%x%d = INDEX %%A, %%i, %%j%d\n%%v%d = LOAD "
            "%%x%d\n",
            j, j, j, j, j, j);
    ADD("%%s0 = ADD %%v0, %%v1\n");
    for (int j = 2; j < K; j++)
        ADD("%%s%d = ADD %%s%d, %%v%d\n", j - 1, j - 2, j);
    ADD("%%q0 = XOR %%v0, %%s%d\n%%t0 = MUL %%q0, %%q0\n", K - 2);
    for (int j = 1; j < K; j++)
        ADD("%%q%d = XOR %%v%d, %%s%d\n%%t%d = ADD %%t%d, %%q%d\n", j, j, K - 2, j, j - 1, j);
    ADD("%%xo = INDEX %%O, %%i\n%%st = STORE %%xo, %%t%d\n", K - 1);
    ADD("%%e = END %%st, %%i\n%%k = SINK %%e\nreturn %%k\n");
#undef ADD
    ck_assert_uint_lt(len, cap);
    return b;
}

const rdx_uop *cor_spill_kernel(rdx_ir_ctx *ctx)
{
    char *text = many_live(512, 300);
    const rdx_uop **roots = NULL;
    size_t n = 0;
    ck_assert_msg(!rdx_ir_parse(ctx, "<spill>", text, strlen(text), &roots, &n), "%s",
                  rdx_error_message());
    const rdx_uop *r = roots[0];
    free(roots);
    free(text);
    return r;
}

START_TEST(scratch_spills)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    rdx_codegen_kernel *k = cor_compile(ctx, cor_spill_kernel(ctx), "spill", 256);
    compare_kernel(k, "spill", 1);
    /* the metadata names the spills (clang's kernel keeps an array in scratch instead) */
    rdx_codeobj *co = NULL;
    ck_assert(!rdx_codeobj_read(k->code_object, k->code_object_size, "spill", &co));
    ck_assert_uint_gt(co->kernels[0].meta.vgpr_spill_count, 0);
    ck_assert_uint_ge(co->kernels[0].kd.private_segment_fixed_size,
                      4 * co->kernels[0].meta.vgpr_spill_count);
    rdx_codeobj_free(co);
    rdx_codegen_kernel_free(k);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

/* VGPRs a wave may have when a whole workgroup of `items` must fit one WGP in WGP mode
   (gfx1100: 4 SIMD32 x 1536 VGPRs, allocated in granules of 24; at most 256) */
static uint32_t wgp_vgpr_budget(uint32_t items)
{
    uint32_t per_simd = ((items + 31) / 32 + 3) / 4;
    uint32_t v = 1536 / per_simd / 24 * 24;
    return v < 256 ? v : 256;
}

/* 235 values live at once (more than 192): clang bounds its kernels by the budget
   (and uses it: within one granule at 1024), rdx must too, or a real card could never
   launch the workgroup (the emulator runs it anyway) */
START_TEST(vgpr_budget_by_workgroup)
{
    static const uint32_t wgs[] = { 256, 768, 1024 };
    static const char *const names[] = { "pressure256", "pressure768", "pressure1024" };
    for (int i = 0; i < 3; i++) {
        const rdx_codeobj_kernel *ck = cor_clang_kernel(names[i]);
        ck_assert_uint_eq(ck->meta.max_flat_workgroup_size, wgs[i]);
        ck_assert_msg(ck->meta.vgpr_count <= wgp_vgpr_budget(wgs[i]), "clang %s: %u VGPRs",
                      names[i], ck->meta.vgpr_count);
    }
    ck_assert_uint_gt(cor_clang_kernel("pressure1024")->meta.vgpr_count, 192 - 24);
    ck_assert_uint_gt(cor_clang_kernel("pressure1024")->meta.vgpr_spill_count, 0);
    for (int i = 0; i < 3; i++) {
        rdx_ir_ctx *ctx;
        ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
        char *text = many_live(2 * (int)wgs[i], 235);
        const rdx_uop **roots = NULL;
        size_t n = 0;
        ck_assert(!rdx_ir_parse(ctx, "<pressure>", text, strlen(text), &roots, &n));
        rdx_codegen_kernel *k = cor_compile(ctx, roots[0], "pressure", wgs[i]);
        free(roots);
        free(text);
        rdx_codeobj *co = NULL;
        ck_assert(!rdx_codeobj_read(k->code_object, k->code_object_size, "pressure", &co));
        const rdx_codeobj_kernel *rk = &co->kernels[0];
        ck_assert_uint_eq(rk->meta.max_flat_workgroup_size, wgs[i]);
        uint32_t v = rk->meta.vgpr_count, per_simd = ((wgs[i] + 31) / 32 + 3) / 4;
        ck_assert_msg(v <= wgp_vgpr_budget(wgs[i]) && per_simd * ((v + 23) / 24 * 24) <= 1536,
                      "rdx at workgroup %u: %u VGPRs, %u waves per SIMD do not fit 1536", wgs[i], v,
                      per_simd);
        /* the descriptor's granules say the same count */
        ck_assert_uint_eq(rk->kd.granulated_workitem_vgpr_count, (v + 7) / 8 - 1);
        if (wgs[i] == 1024)
            ck_assert_uint_gt(rk->meta.vgpr_spill_count, 0);
        rdx_codeobj_free(co);
        rdx_codegen_kernel_free(k);
        rdx_ir_ctx_destroy(ctx);
    }
}
END_TEST

/* ---- WMMA: D = A x B + C on one wave (tests/codegen_back/vector_test.c's tile) */

static const rdx_uop *param(rdx_ir_ctx *ctx, int64_t slot, rdx_scalar sc, int64_t n)
{
    const rdx_uop *sh = rdx_ir_shape(ctx, &n, 1);
    rdx_uop_arg a = rdx_uop_arg_none();
    a.i = slot;
    a.dtype = rdx_dtype_of(sc);
    a.addrspace = RDX_ADDR_GLOBAL;
    return rdx_ir_node(ctx, RDX_OP_PARAM, &sh, 1, &a);
}

static const rdx_uop *load(rdx_ir_ctx *ctx, const rdx_uop *buf, const rdx_uop *i)
{
    const rdx_uop *ix = rdx_ir_index(ctx, buf, &i, 1);
    return rdx_ir_node(ctx, RDX_OP_LOAD, &ix, 1, NULL);
}

START_TEST(wmma_tile)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *A = param(ctx, 0, RDX_FLOAT16, 256), *B = param(ctx, 1, RDX_FLOAT16, 256),
                  *C = param(ctx, 2, RDX_FLOAT32, 256), *D = param(ctx, 3, RDX_FLOAT32, 256);
    const rdx_uop *l =
        rdx_ir_node(ctx, RDX_OP_SPECIAL, (const rdx_uop *[]){ rdx_ir_int(ctx, 32) }, 1,
                    &(rdx_uop_arg){ .str = rdx_ir_str(ctx, "lidx0", 5), .len = 5 });
    const rdx_uop *c16 = rdx_ir_int(ctx, 16);
    const rdx_uop *row = rdx_ir_mod(ctx, l, c16), *half = rdx_ir_idiv(ctx, l, c16);
    const rdx_uop *la[16], *lb[16], *lc[8];
    for (int k = 0; k < 16; k++) {
        la[k] = load(ctx, A, rdx_ir_add(ctx, rdx_ir_mul(ctx, row, c16), rdx_ir_int(ctx, k)));
        lb[k] = load(ctx, B, rdx_ir_add(ctx, rdx_ir_int(ctx, 16 * k), row));
    }
    for (int v = 0; v < 8; v++) {
        const rdx_uop *r = rdx_ir_add(ctx, rdx_ir_int(ctx, 2 * v), half);
        lc[v] = load(ctx, C, rdx_ir_add(ctx, rdx_ir_mul(ctx, r, c16), row));
    }
    const rdx_uop *ws[3] = { rdx_ir_node(ctx, RDX_OP_VECTORIZE, la, 16, NULL),
                             rdx_ir_node(ctx, RDX_OP_VECTORIZE, lb, 16, NULL),
                             rdx_ir_node(ctx, RDX_OP_VECTORIZE, lc, 8, NULL) };
    rdx_uop_arg wa = rdx_uop_arg_none();
    wa.str = rdx_ir_str(ctx, "WMMA_16_16_16_half_float", 24);
    wa.len = 24;
    wa.dtype = rdx_dtype_vec(rdx_dtype_of(RDX_FLOAT32), 8);
    const rdx_uop *w = rdx_ir_node(ctx, RDX_OP_WMMA, ws, 3, &wa);
    const rdx_uop *st[8];
    for (int v = 0; v < 8; v++) {
        const rdx_uop *r = rdx_ir_add(ctx, rdx_ir_int(ctx, 2 * v), half);
        rdx_uop_arg ga = rdx_uop_arg_none();
        int64_t lane = v;
        ga.ints = rdx_ir_ints(ctx, &lane, 1);
        ga.nints = 1;
        const rdx_uop *g = rdx_ir_node(ctx, RDX_OP_GEP, &w, 1, &ga);
        const rdx_uop *ix = rdx_ir_add(ctx, rdx_ir_mul(ctx, r, c16), row);
        st[v] = rdx_ir_store(ctx, rdx_ir_index(ctx, D, &ix, 1), g);
    }
    const rdx_uop *sink = rdx_ir_sink(ctx, st, 8);
    ck_assert_msg(sink != NULL, "%s", rdx_error_message());
    rdx_codegen_kernel *k = cor_compile(ctx, sink, "wmma", 0);
    compare_kernel(k, "wmma", 1);
    rdx_codegen_kernel_free(k);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

/* The checker itself: a program that reads a register nobody set up is caught, and
   one that reads only its inputs passes (rdx's and clang's kernels above). */
START_TEST(live_in_checker)
{
    /* s_mov_b32 s5, s7 ; v_mov_b32 v1, v3 ; s_endpgm (llvm-mc -mcpu=gfx1100 encodings) */
    static const uint8_t code[] = { 0x07, 0x00, 0x85, 0xbe, 0x03, 0x03,
                                    0x02, 0x7e, 0x00, 0x00, 0xb0, 0xbf };
    cor_inputs in;
    cor_live_in(code, sizeof code, &in);
    ck_assert_uint_eq(in.sgprs[0], 1ull << 7);
    ck_assert_uint_eq(in.vgprs[0], 1ull << 3);
}
END_TEST

TCase *cor_tcase_descriptor(void)
{
    TCase *tc = tcase_create("descriptor");
    /* clang's objects built once, in the process the tests fork from */
    tcase_add_unchecked_fixture(tc, cor_clang_setup, NULL);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, live_in_checker);
    tcase_add_test(tc, elementwise_wg32);
    tcase_add_test(tc, elementwise_wg256);
    tcase_add_test(tc, elementwise_wg1024);
    tcase_add_test(tc, saxpy_symbolic);
    tcase_add_test(tc, by_value_args);
    tcase_add_test(tc, lds_barrier);
    tcase_add_test(tc, three_dims);
    tcase_add_test(tc, scratch_spills);
    tcase_add_test(tc, wmma_tile);
    tcase_add_test(tc, group_reduce);
    tcase_add_test(tc, lds_optop);
    tcase_add_test(tc, vgpr_budget_by_workgroup);
    return tc;
}
