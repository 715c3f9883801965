/*
 * tests/emu/check_fidelity.c — the fidelity table (emu/core/fidelity.def:
 * which ops a hardware-derived test backs) is what scripts/gen_fidelity.py
 * writes from the committed data, and the report lists every executed op
 * with its count and "hw-tested: <tests>" or "not hw-tested".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/isa.h>

#include "tests/emu/emu_test.h"

START_TEST(fidelity_table_is_current)
{
    const char *argv[] = { "python3", "scripts/gen_fidelity.py", "--check", NULL };
    rdx_test_proc p;
    int rc = rdx_test_run(argv, NULL, 0, &p);
    ck_assert_msg(rc == 0, "gen_fidelity.py --check: %s%s", p.out, p.err);
    rdx_test_proc_free(&p);
}
END_TEST

START_TEST(fidelity_report_lists_executed_ops)
{
    /* v_add_f32: tinygrad's test_vop2.py; v_min3_f32: no hardware-derived test yet */
    ck_assert_ptr_nonnull(rdx_emu_op_evidence(RDX_ISA_OP_V_ADD_F32));
    ck_assert_ptr_nonnull(strstr(rdx_emu_op_evidence(RDX_ISA_OP_V_ADD_F32), "tinygrad test_"));
    ck_assert_ptr_null(rdx_emu_op_evidence(RDX_ISA_OP_V_MIN3_F32));
    ck_assert_ptr_null(rdx_emu_op_evidence(RDX_ISA_OP_COUNT));
    rdx_emu *e;
    ck_assert_int_eq(rdx_emu_create("gfx1100", &e), RDX_OK);
    et_case c = { 0 };
    c.body = "v_add_f32 v10, v1, v2\n v_add_f32 v10, v10, v2\n v_min3_f32 v11, v1, v2, v10\n";
    c.nin = 2;
    c.nout = 2;
    ck_assert_int_eq(et_run_on(e, &c), RDX_OK);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_int_eq(rdx_emu_fidelity_report(rdx_emu_get_counters(e), f), RDX_OK);
    fclose(f);
    /* one wave of 32 lanes runs each instruction once: v_add_f32 twice */
    const char *add = strstr(text, " v_add_f32 "), *min3 = strstr(text, " v_min3_f32 ");
    ck_assert_msg(add && min3, "%s", text);
    ck_assert_msg(strstr(add - 14, "2  v_add_f32") && strstr(add, "hw-tested: tinygrad "), "%s",
                  text);
    ck_assert_msg(strstr(min3 - 14, "1  v_min3_f32") &&
                      !strncmp(strstr(min3, "not hw-tested"), "not hw-tested\n", 14),
                  "%s", text);
    ck_assert_msg(add < min3, "most executed first: %s", text);
    ck_assert_msg(strstr(text, "fidelity: ") && strstr(text, " executed ops hw-tested ("), "%s",
                  text);
    ck_assert_int_eq(rdx_emu_fidelity_report(NULL, stdout), RDX_ERR_INVALID);
    free(text);
    rdx_emu_destroy(e);
}
END_TEST

Suite *et_suite_fidelity(void)
{
    Suite *s = suite_create("emu_fidelity");
    TCase *tc = tcase_create("fidelity");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, fidelity_table_is_current);
    tcase_add_test(tc, fidelity_report_lists_executed_ops);
    suite_add_tcase(s, tc);
    return s;
}
