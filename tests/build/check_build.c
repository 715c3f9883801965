/*
 * tests/build/check_build.c — the build itself: public headers compile on
 * their own (C11 and C++), the kfd_ioctl.h include gap is closed, the shared
 * library carries its SONAME, and the rdx command's top level behaves.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/harness/harness.h"

/* Compile `src` with the test compiler; returns exit status, stderr in *err. */
static int compile_snippet(const char *lang, const char *std, const char *src, char **err)
{
    const char *cc = rdx_test_cc();
    const char *compiler =
        strcmp(lang, "c++") == 0 ? (strstr(cc, "clang") ? "clang++" : "g++") : cc;
    const char *argv[] = { compiler,    "-x",           lang,
                           std,         "-Wall",        "-Wextra",
                           "-Werror",   "-pedantic",    "-fsyntax-only",
                           "-Iinclude", "-Ikfd/compat", "-",
                           NULL };
    rdx_test_proc p;
    rdx_test_run(argv, src, strlen(src), &p);
    *err = strdup(p.err);
    int st = p.status;
    rdx_test_proc_free(&p);
    return st;
}

START_TEST(public_headers_standalone)
{
    DIR *d = opendir("include/rdx");
    ck_assert_msg(d != NULL, "include/rdx missing (run from the repository root)");
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".h"))
            continue;
        char src[1024];
        /* Included twice: the include guard must hold. */
        snprintf(src, sizeof src, "#include <rdx/%s>\n#include <rdx/%s>\nint rdx_probe_;\n",
                 e->d_name, e->d_name);
        char *err;
        int st = compile_snippet("c", "-std=c11", src, &err);
        ck_assert_msg(st == 0, "rdx/%s does not compile alone as C11:\n%s", e->d_name, err);
        free(err);
        st = compile_snippet("c++", "-std=c++17", src, &err);
        ck_assert_msg(st == 0, "rdx/%s does not compile alone as C++17:\n%s", e->d_name, err);
        free(err);
        n++;
    }
    closedir(d);
    ck_assert_int_gt(n, 0);
}
END_TEST

START_TEST(umbrella_header_lists_every_header)
{
    /* rdx/rdx.h includes every public header, so compiling it (the test above)
     * checks they all compile together: no clashing public names. */
    char *umbrella = rdx_test_read_file("include/rdx/rdx.h", NULL);
    DIR *d = opendir("include/rdx");
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".h") || !strcmp(e->d_name, "rdx.h"))
            continue;
        /* the device-side headers are for kernels (OpenCL C, HIP), not the host API */
        if (!strcmp(e->d_name, "opencl.h") || !strcmp(e->d_name, "hip.h"))
            continue;
        char line[512];
        snprintf(line, sizeof line, "#include <rdx/%s>", e->d_name);
        ck_assert_msg(strstr(umbrella, line) != NULL, "include/rdx/rdx.h lacks '%s'", line);
    }
    closedir(d);
    free(umbrella);
}
END_TEST

START_TEST(kfd_ioctl_header_resolves)
{
    /* Debian's <linux/kfd_ioctl.h> includes <drm/drm.h>, which only libdrm-dev
     * has, under /usr/include/libdrm; the build's kfd/compat shim closes that. */
    const char *src = "#include <linux/kfd_ioctl.h>\n"
                      "#include <libdrm/amdgpu_drm.h>\n"
                      "_Static_assert(sizeof(struct kfd_ioctl_get_version_args) == 8, \"abi\");\n"
                      "int x = AMDKFD_IOC_GET_VERSION != 0;\n";
    char *err;
    int st = compile_snippet("c", "-std=gnu11", src, &err);
    ck_assert_msg(st == 0, "<linux/kfd_ioctl.h> does not compile with the build's flags:\n%s", err);
    free(err);
}
END_TEST

START_TEST(shared_library_soname)
{
    const char *readelf = rdx_test_llvm_tool("llvm-readelf");
    ck_assert_msg(readelf != NULL, "llvm-readelf not found (run scripts/setup)");
    char lib[4096];
    snprintf(lib, sizeof lib, "%s/librdx.so", rdx_test_build_dir());
    const char *argv[] = { readelf, "-d", lib, NULL };
    rdx_test_proc p;
    rdx_test_run(argv, NULL, 0, &p);
    ck_assert_msg(p.status == 0, "llvm-readelf -d %s failed: %s", lib, p.err);
    ck_assert_msg(strstr(p.out, "Library soname: [librdx.so.0]") != NULL,
                  "librdx.so has no SONAME librdx.so.0:\n%s", p.out);
    rdx_test_proc_free(&p);
}
END_TEST

static rdx_test_proc run_rdx(const char *a1, const char *a2)
{
    const char *argv[] = { rdx_test_rdx_path(), a1, a2, NULL };
    rdx_test_proc p;
    rdx_test_run(argv, NULL, 0, &p);
    return p;
}

START_TEST(rdx_help_and_version)
{
    rdx_test_proc p = run_rdx("--help", NULL);
    ck_assert_msg(p.status == 0, "rdx --help exited %d: %s", p.status, p.err);
    ck_assert_msg(strstr(p.out, "Usage: rdx <command>") != NULL, "no usage line:\n%s", p.out);
    rdx_test_proc_free(&p);

    p = run_rdx("--version", NULL);
    ck_assert_msg(p.status == 0, "rdx --version exited %d", p.status);
    ck_assert_msg(strncmp(p.out, "rdx ", 4) == 0 && strchr(p.out, '.') != NULL,
                  "rdx --version printed '%s'", p.out);
    rdx_test_proc_free(&p);

    p = run_rdx("help", NULL);
    ck_assert_int_eq(p.status, 0);
    ck_assert_ptr_nonnull(strstr(p.out, "Commands:"));
    rdx_test_proc_free(&p);
}
END_TEST

START_TEST(rdx_bad_usage_exits_2)
{
    rdx_test_proc p = run_rdx("frobnicate", NULL);
    ck_assert_int_eq(p.status, 2);
    ck_assert_msg(strstr(p.err, "unknown command 'frobnicate'") != NULL, "stderr: %s", p.err);
    rdx_test_proc_free(&p);

    p = run_rdx(NULL, NULL);
    ck_assert_int_eq(p.status, 2);
    ck_assert_ptr_nonnull(strstr(p.err, "Usage:"));
    rdx_test_proc_free(&p);

    p = run_rdx("--no-such-flag", NULL);
    ck_assert_int_eq(p.status, 2);
    ck_assert_ptr_nonnull(strstr(p.err, "unknown option '--no-such-flag'"));
    rdx_test_proc_free(&p);

    p = run_rdx("help", "frobnicate");
    ck_assert_int_eq(p.status, 2);
    rdx_test_proc_free(&p);
}
END_TEST

START_TEST(every_subcommand_has_help)
{
    /* Each command listed by 'rdx --help' must answer --help with exit 0. */
    rdx_test_proc p = run_rdx("--help", NULL);
    ck_assert_int_eq(p.status, 0);
    char *list = strstr(p.out, "Commands:\n");
    ck_assert_ptr_nonnull(list);
    list += strlen("Commands:\n");
    char *line = list;
    while (line && strncmp(line, "  ", 2) == 0) {
        char name[64];
        if (sscanf(line, " %63s", name) == 1 && name[0] != '(') {
            rdx_test_proc q = run_rdx(name, "--help");
            ck_assert_msg(q.status == 0, "rdx %s --help exited %d: %s", name, q.status, q.err);
            ck_assert_msg(q.out_len > 0, "rdx %s --help printed nothing", name);
            rdx_test_proc_free(&q);
        }
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    rdx_test_proc_free(&p);
}
END_TEST

START_TEST(install_and_link_with_pkg_config)
{
    /* make install into a temporary prefix, then build and run a program
     * against it using only what rdx.pc says. */
    char *prefix = rdx_test_tmp_path("prefix");
    char prefix_arg[4200], build_arg[4200];
    snprintf(prefix_arg, sizeof prefix_arg, "PREFIX=%s", prefix);
    snprintf(build_arg, sizeof build_arg, "BUILD=%s", rdx_test_build_dir());
    const char *make_argv[] = { "make",    "-s", "--no-print-directory", build_arg, prefix_arg,
                                "install", NULL };
    rdx_test_proc p;
    rdx_test_run(make_argv, NULL, 0, &p);
    ck_assert_msg(p.status == 0, "make install failed:\n%s%s", p.out, p.err);
    rdx_test_proc_free(&p);

    char *src = rdx_test_tmp_path("use.c");
    const char prog[] = "#include <rdx/rdx.h>\n#include <stdio.h>\n"
                        "int main(void) { printf(\"%s %s\\n\", rdx_version(),\n"
                        "  rdx_status_name(RDX_ERR_NOMEM)); return 0; }\n";
    rdx_test_write_file(src, prog, sizeof prog - 1);
    char *exe = rdx_test_tmp_path("use");
    char cmd[16384];
    snprintf(cmd, sizeof cmd,
             "PKG_CONFIG_PATH=%s/lib/pkgconfig; export PKG_CONFIG_PATH; "
             "%s %s -o %s %s $(pkg-config --cflags --libs rdx) && LD_LIBRARY_PATH=%s/lib %s",
             prefix, rdx_test_cc(), getenv("RDX_SANITIZE") ? getenv("RDX_SANITIZE") : "", exe, src,
             prefix, exe);
    const char *sh_argv[] = { "sh", "-c", cmd, NULL };
    rdx_test_run(sh_argv, NULL, 0, &p);
    ck_assert_msg(p.status == 0, "building against the installed rdx failed:\n%s%s", p.out, p.err);
    ck_assert_str_eq(p.out, "0.1.0 out of memory\n");
    rdx_test_proc_free(&p);
    free(exe);
    free(src);
    free(prefix);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("build");
    TCase *tc = tcase_create("build");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, public_headers_standalone);
    tcase_add_test(tc, umbrella_header_lists_every_header);
    tcase_add_test(tc, kfd_ioctl_header_resolves);
    tcase_add_test(tc, shared_library_soname);
    tcase_add_test(tc, rdx_help_and_version);
    tcase_add_test(tc, rdx_bad_usage_exits_2);
    tcase_add_test(tc, every_subcommand_has_help);
    tcase_add_test(tc, install_and_link_with_pkg_config);
    suite_add_tcase(s, tc);
    return rdx_test_main(s);
}
