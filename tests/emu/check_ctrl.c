/*
 * tests/emu/check_ctrl.c — the rarely emitted control and relative-move
 * instructions: s_trap (a TRAP fault naming the trap id and PC: no trap
 * handler is installed), s_rfe_b64, s_subvector_loop_begin/end in wave64
 * and wave32, v_swaprel_b32, v_movrelsd_2_b32, s_movrelsd_2_b32, and the
 * other s_movrel / v_movrel forms; a clang-compiled __builtin_trap.  Expected values follow the ISA
 * guide's pseudocode, written out by hand per lane.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/emu/emu_test.h"
#include "util/error.h"

START_TEST(trap_reports_id_and_pc)
{
    rdx_emu *e;
    ck_assert_int_eq(rdx_emu_create("gfx1100", &e), RDX_OK);
    et_case c = { 0 };
    c.body = "v_mov_b32 v10, 1\n s_trap 2\n v_mov_b32 v10, 2\n";
    c.nout = 1;
    ck_assert_int_eq(et_run_on(e, &c), RDX_ERR_FAULT);
    const rdx_emu_fault *f = rdx_emu_last_fault(e);
    ck_assert_int_eq(f->kind, RDX_EMU_FAULT_TRAP);
    ck_assert_str_eq(f->inst, "s_trap 2");
    ck_assert_uint_eq(f->nbytes, 4);
    ck_assert_uint_eq(f->bytes[3], 0xbf);
    /* the prologue is v_lshlrev + s_waitcnt (no inputs), then v_mov: the trap is at +12 */
    ck_assert_msg(strstr(f->message, "trap: 's_trap 2'") && strstr(f->message, "code+0xc") &&
                      strstr(f->message, "trap id 2 (llvm.trap) with no trap handler"),
                  "%s", f->message);
    ck_assert_uint_eq(c.out[0][0], 0xdeadbeefu); /* the dispatch stopped before the stores */
    /* another id, and the emulator stays usable */
    c.body = "s_trap 0x7f\n";
    ck_assert_int_eq(et_run_on(e, &c), RDX_ERR_FAULT);
    ck_assert_msg(strstr(rdx_error_message(), "trap id 127 with no trap handler"), "%s",
                  rdx_error_message());
    c.body = "v_mov_b32 v10, 5\n";
    ck_assert_int_eq(et_run_on(e, &c), RDX_OK);
    ck_assert_uint_eq(c.out[9][0], 5);
    rdx_emu_destroy(e);
}
END_TEST

/* clang's own __builtin_trap (s_trap 2) in a compiled kernel, run with rdx_emu_run_codeobj. */
START_TEST(clang_builtin_trap)
{
    static const char src[] = "__kernel void k(__global int *p) {\n"
                              "  unsigned i = __builtin_amdgcn_workitem_id_x();\n"
                              "  if (p[i] < 0) __builtin_trap();\n"
                              "  p[i] = p[i] * 2;\n"
                              "}\n";
    char *cl = rdx_test_tmp_path("trap.cl"), *co = rdx_test_tmp_path("trap.co");
    rdx_test_write_file(cl, src, sizeof src - 1);
    char clang[512];
    const char *t = rdx_test_llvm_tool("clang");
    ck_assert_msg(t != NULL, "clang-19 not found");
    snprintf(clang, sizeof clang, "%s", t);
    const char *argv[] = {
        clang, "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-nogpulib", "-O2", "-o", co,
        cl,    NULL
    };
    rdx_test_proc pr;
    rdx_test_run(argv, NULL, 0, &pr);
    ck_assert_msg(pr.status == 0, "clang failed:\n%s", pr.err);
    rdx_test_proc_free(&pr);
    size_t len;
    uint8_t *elf = (uint8_t *)rdx_test_read_file(co, &len);
    int32_t p[64];
    for (int i = 0; i < 64; i++)
        p[i] = i + 1;
    void *arg = p;
    rdx_emu_buffer buf = { p, sizeof p, RDX_EMU_RW };
    rdx_emu_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = 64;
    l.wg[0] = 64;
    l.kernarg = &arg;
    l.kernarg_size = sizeof arg;
    l.bufs = &buf;
    l.nbufs = 1;
    rdx_emu *e;
    ck_assert_int_eq(rdx_emu_create("gfx1100", &e), RDX_OK);
    ck_assert_msg(rdx_emu_run_codeobj(e, elf, len, "k", &l) == RDX_OK, "%s", rdx_error_message());
    for (int i = 0; i < 64; i++)
        ck_assert_int_eq(p[i], 2 * (i + 1));
    p[37] = -5; /* this work-item traps */
    ck_assert_int_eq(rdx_emu_run_codeobj(e, elf, len, "k", &l), RDX_ERR_FAULT);
    const rdx_emu_fault *f = rdx_emu_last_fault(e);
    ck_assert_int_eq(f->kind, RDX_EMU_FAULT_TRAP);
    ck_assert_str_eq(f->inst, "s_trap 2");
    ck_assert_msg(strstr(f->message, "trap id 2 (llvm.trap) with no trap handler"), "%s",
                  f->message);
    rdx_emu_destroy(e);
    free(elf);
    free(cl);
    free(co);
}
END_TEST

/* s_rfe_b64 jumps to S0 (here: past one instruction). */
START_TEST(rfe_jumps)
{
    et_case c = { 0 };
    c.body = "v_mov_b32 v10, 0\n"
             "s_getpc_b64 s[20:21]\n"   /* s[20:21] = address of the s_add below */
             "s_add_u32 s20, s20, 16\n" /* +16: the second v_mov */
             "s_addc_u32 s21, s21, 0\n"
             "s_rfe_b64 s[20:21]\n"
             "v_mov_b32 v10, 1\n"
             "v_mov_b32 v11, 2\n";
    c.nout = 2;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(c.out[l][0], 0);
        ck_assert_uint_eq(c.out[l][1], 2);
    }
}
END_TEST

/* v_swaprel_b32 / v_movrelsd_2_b32 (M0[9:0] source, M0[25:16] destination offsets),
 * s_movrelsd_2_b32, and the M0-relative v_movrels / v_movreld / v_movrelsd, s_movrels /
 * s_movreld. */
START_TEST(relative_moves)
{
    et_case c = { 0 };
    c.nin = 2;
    for (unsigned l = 0; l < 32; l++) {
        c.in[l][0] = 100 + l;
        c.in[l][1] = 200 + l;
    }
    c.body = "v_mov_b32 v20, v1\n v_mov_b32 v21, v2\n v_mov_b32 v10, 7\n"
             "v_mov_b32 v11, 0\n v_mov_b32 v12, 0\n"
             "s_mov_b32 m0, 0x00030001\n v_movrelsd_2_b32 v8, v20\n" /* v11 = v21 */
             "s_mov_b32 m0, 0x00020000\n v_swaprel_b32 v8, v20\n"    /* swap v10, v20 */
             "v_mov_b32 v12, v20\n"                                  /* 7 */
             "s_mov_b32 s31, 0x1234\n s_mov_b32 s40, 0\n"
             "s_mov_b32 m0, 0x000a0001\n s_movrelsd_2_b32 s30, s30\n" /* s40 = s31 */
             "v_mov_b32 v13, s40\n"
             "s_mov_b32 m0, 1\n v_movrels_b32 v14, v20\n"                       /* v14 = v21 */
             "v_movreld_b32 v14, v1\n"                                          /* v15 = v1 */
             "s_mov_b32 m0, 2\n v_movrelsd_b32 v14, v19\n"                      /* v16 = v21 */
             "s_mov_b32 s50, 0x55\n s_mov_b32 m0, 2\n s_movrels_b32 s51, s48\n" /* s51 = s50 */
             "s_movreld_b32 s49, s51\n"                                         /* s51 = s51 */
             "v_mov_b32 v17, s51\n";
    c.nout = 8;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(c.out[l][0], 100 + l); /* v10 <- old v20 */
        ck_assert_uint_eq(c.out[l][1], 200 + l); /* v11 <- v21 */
        ck_assert_uint_eq(c.out[l][2], 7);       /* v20 <- old v10 */
        ck_assert_uint_eq(c.out[l][3], 0x1234);
        ck_assert_uint_eq(c.out[l][4], 200 + l);
        ck_assert_uint_eq(c.out[l][5], 100 + l);
        ck_assert_uint_eq(c.out[l][6], 200 + l);
        ck_assert_uint_eq(c.out[l][7], 0x55);
    }
}
END_TEST

/* The subvector loop runs its body for lanes 0-31, then 32-63, and restores EXEC. */
static const char *subvector_body = "s_mov_b32 s40, 0\n v_mov_b32 v10, 0\n"
                                    "s_subvector_loop_begin s50, 2\n"
                                    "body:\n"
                                    "s_add_u32 s40, s40, 1\n"
                                    "v_mov_b32 v10, s40\n"
                                    "s_subvector_loop_end s50, body\n"
                                    "v_mov_b32 v11, exec_lo\n v_mov_b32 v12, exec_hi\n"
                                    "v_mov_b32 v13, s40\n";

START_TEST(subvector_loop_wave64)
{
    char body[1024];
    et_case c = { 0 };
    c.lanes = 64;
    c.body = subvector_body;
    c.nout = 4;
    et_ok(&c);
    for (unsigned l = 0; l < 64; l++) {
        ck_assert_uint_eq(c.out[l][0], l < 32 ? 1 : 2);
        ck_assert_uint_eq(c.out[l][1], 0xffffffffu);
        ck_assert_uint_eq(c.out[l][2], 0xffffffffu);
        ck_assert_uint_eq(c.out[l][3], 2);
    }
    /* only high lanes active: one pass, for them */
    snprintf(body, sizeof body, "s_mov_b32 exec_lo, 0\n%s s_mov_b64 exec, -1\n", subvector_body);
    c.body = body;
    et_ok(&c);
    for (unsigned l = 0; l < 64; l++) {
        ck_assert_uint_eq(c.out[l][0], l < 32 ? 0 : 1);
        ck_assert_uint_eq(c.out[l][3], l < 32 ? 0 : 1);
    }
    /* only low lanes active: one pass */
    snprintf(body, sizeof body, "s_mov_b32 exec_hi, 0\n%s s_mov_b64 exec, -1\n", subvector_body);
    et_ok(&c);
    for (unsigned l = 0; l < 64; l++) {
        ck_assert_uint_eq(c.out[l][0], l < 32 ? 1 : 0);
        ck_assert_uint_eq(c.out[l][3], l < 32 ? 1 : 0); /* v13 written with EXEC = low lanes */
    }
    /* wave32: one pass */
    c.lanes = 32;
    c.body = subvector_body;
    et_ok(&c);
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(c.out[l][0], 1);
        ck_assert_uint_eq(c.out[l][3], 1);
    }
}
END_TEST

Suite *et_suite_ctrl(void)
{
    Suite *s = suite_create("emu_ctrl");
    TCase *t = tcase_create("ctrl");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, trap_reports_id_and_pc);
    tcase_add_test(t, clang_builtin_trap);
    tcase_add_test(t, rfe_jumps);
    tcase_add_test(t, relative_moves);
    tcase_add_test(t, subvector_loop_wave64);
    suite_add_tcase(s, t);
    return s;
}
