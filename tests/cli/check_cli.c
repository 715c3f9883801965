/*
 * tests/cli/check_cli.c — what the rdx commands' --help says about targets: each command
 * that takes a target names every target of the table it checks the target against
 * (codegen/target.def for compile and kernel, the emulated GPU's rdx_emudev_target_name
 * for run, info and emu), and the wave emulator's error for an unknown target names
 * every target it knows (the ISA tables').  The lists are built from those tables, so
 * adding a target updates every --help.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codegen.h>
#include <rdx/emu.h>
#include <rdx/emudev.h>
#include <rdx/isa.h>

#include "tests/harness/harness.h"

static const char *codegen_name(size_t i)
{
    return rdx_codegen_target_name(i);
}

static const char *emudev_name(size_t i)
{
    return rdx_emudev_target_name((uint32_t)i);
}

static const struct {
    const char *cmd;
    const char *(*target)(size_t i);
} cmds[] = {
    { "compile", codegen_name }, { "kernel", codegen_name }, { "run", emudev_name },
    { "info", emudev_name },     { "emu", emudev_name },
};

START_TEST(help_names_every_target)
{
    const char *argv[] = { rdx_test_rdx_path(), cmds[_i].cmd, "--help", NULL };
    rdx_test_proc p;
    ck_assert_int_eq(rdx_test_run(argv, NULL, 0, &p), 0);
    size_t n = 0;
    const char *t;
    for (size_t i = 0; (t = cmds[_i].target(i)); i++, n++)
        ck_assert_msg(strstr(p.out, t), "rdx %s --help does not name target %s", cmds[_i].cmd, t);
    ck_assert_uint_ge(n, 7);
    rdx_test_proc_free(&p);
}
END_TEST

/* The list the code generator's messages use is its table, in order. */
START_TEST(codegen_target_list_is_the_table)
{
    char want[512] = "";
    const char *t;
    for (size_t i = 0; (t = rdx_codegen_target_name(i)); i++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", i ? ", " : "", t);
    ck_assert_str_eq(rdx_codegen_target_list(), want);
    ck_assert_ptr_null(rdx_codegen_target_name(1000));
}
END_TEST

START_TEST(emu_unknown_target_names_every_target)
{
    rdx_emu *e = NULL;
    ck_assert_int_eq(rdx_emu_create("gfx9999", &e), RDX_ERR_UNSUPPORTED);
    const char *m = rdx_error_message();
    for (size_t i = 0; i < rdx_isa_target_count(); i++)
        ck_assert_msg(strstr(m, rdx_isa_target_at(i)->name), "'%s' does not name %s", m,
                      rdx_isa_target_at(i)->name);
    ck_assert_ptr_nonnull(strstr(m, "emulator target 'gfx9999': not a known target (expected "));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("targets");
    tcase_add_loop_test(tc, help_names_every_target, 0, sizeof cmds / sizeof cmds[0]);
    tcase_add_test(tc, codegen_target_list_is_the_table);
    tcase_add_test(tc, emu_unknown_target_names_every_target);
    suite_add_tcase(s, tc);
    return rdx_test_main(s);
}
