/*
 * tests/codeobj/t_cli.c — `rdx readelf`: usage, errors, and its report of a
 * clang-19 object: every descriptor field by name with the reader's value,
 * and metadata YAML whose every entry equals llvm-readelf --notes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/codeobj/co_test.h"

static int run_rdx(const char *a1, const char *a2, rdx_test_proc *p)
{
    const char *argv[] = { rdx_test_rdx_path(), "readelf", a1, a2, NULL };
    return rdx_test_run(argv, NULL, 0, p);
}

START_TEST(readelf_usage)
{
    rdx_test_proc p;
    ck_assert_int_eq(run_rdx("--help", NULL, &p), 0);
    ck_assert_ptr_nonnull(strstr(p.out, "Usage: rdx readelf"));
    rdx_test_proc_free(&p);
    ck_assert_int_eq(run_rdx(NULL, NULL, &p), 2);
    ck_assert_ptr_nonnull(strstr(p.err, "no code object given"));
    rdx_test_proc_free(&p);
    ck_assert_int_eq(run_rdx("--bogus", NULL, &p), 2);
    rdx_test_proc_free(&p);
    ck_assert_int_eq(run_rdx("/nonexistent/k.co", NULL, &p), 1);
    ck_assert_ptr_nonnull(strstr(p.err, "rdx readelf: cannot open '/nonexistent/k.co'"));
    rdx_test_proc_free(&p);
    char *path = rdx_test_tmp_path("junk.co");
    rdx_test_write_file(path, "\177ELF\2\1\1", 7);
    ck_assert_int_eq(run_rdx(path, NULL, &p), 1);
    ck_assert_ptr_nonnull(strstr(p.err, "is too short for an ELF64 header"));
    rdx_test_proc_free(&p);
    free(path);
}
END_TEST

START_TEST(readelf_report)
{
    static const char *const cpus[] = { "gfx1100", "gfx1201" };
    char *path = co_compile(cpus[_i], "", 0, "cli.co");
    rdx_test_proc p;
    ck_assert_int_eq(run_rdx(path, NULL, &p), 0);
    rdx_codeobj *co;
    ck_assert_int_eq(rdx_codeobj_read_file(path, &co), RDX_OK);
    char line[256];
    snprintf(line, sizeof line, "Target: %s", cpus[_i]);
    ck_assert_ptr_nonnull(strstr(p.out, line));
    size_t fields = 0;
    for (size_t k = 0; k < co->num_kernels; k++) {
        snprintf(line, sizeof line, "\nKernel %s\n", co->kernels[k].name);
        const char *at = strstr(p.out, line);
        ck_assert_msg(at != NULL, "no '%s'", line);
        const char *end = strstr(at + 1, "\nKernel ");
        for (size_t i = 0; i < rdx_codeobj_kd_field_count(); i++) {
            const rdx_kd_field *f = rdx_codeobj_kd_field_at(i);
            if (co->target->major < f->min_major || co->target->major > f->max_major)
                continue;
            snprintf(line, sizeof line, ".%s %u\n", f->name,
                     rdx_codeobj_kd_get(&co->kernels[k].kd, f));
            const char *hit = strstr(at, line);
            ck_assert_msg(hit && (!end || hit < end), "kernel %s: no '%s'", co->kernels[k].name,
                          line);
            fields++;
        }
    }
    ck_assert_uint_gt(fields, 5 * 40);
    /* The YAML rdx prints holds exactly llvm-readelf's metadata entries. */
    co_lines mine = { 0 }, llvm = { 0 };
    co_flatten_llvm_notes(strstr(p.out, "\nMetadata:\n"), &mine);
    char *notes = co_llvm("llvm-readelf", "--notes", path, (char *)NULL);
    co_flatten_llvm_notes(notes, &llvm);
    co_lines_assert_equal(&mine, &llvm, "rdx readelf metadata vs llvm-readelf --notes");
    co_lines_free(&mine);
    co_lines_free(&llvm);
    free(notes);
    rdx_codeobj_free(co);
    rdx_test_proc_free(&p);
    free(path);
}
END_TEST

/* fuzz/fuzz_elf.c is built by hand with -fsanitize=fuzzer; keep it compiling. */
START_TEST(fuzz_target_compiles)
{
    const char *argv[] = { rdx_test_cc(),     "-std=gnu11", "-Wall",
                           "-Wextra",         "-Werror",    "-fsyntax-only",
                           "-D_GNU_SOURCE",   "-Iinclude",  "-I.",
                           "fuzz/fuzz_elf.c", NULL };
    rdx_test_proc p;
    ck_assert_msg(rdx_test_run(argv, NULL, 0, &p) == 0, "%s", p.err);
    rdx_test_proc_free(&p);
}
END_TEST

TCase *co_tcase_cli(void)
{
    TCase *tc = tcase_create("cli");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, readelf_usage);
    tcase_add_loop_test(tc, readelf_report, 0, 2);
    tcase_add_test(tc, fuzz_target_compiles);
    return tc;
}
