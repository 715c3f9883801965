/*
 * tests/prof/check_prof.c — the profiling suite: the emulator's profile
 * (rdx/emu_prof.h) against independent counts, and `rdx prof`'s report, JSON,
 * Chrome trace and comparison.  Builds tests/data/prof/loops.cl with clang-19
 * -g once (at -O2 and -O0).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>

#include "tests/prof/prof_test.h"

char *pt_loops_co, *pt_loops_o0_co;

/* A gfx12 kernel of one workgroup of 2 waves: a scalar load and its wait, a loop (taken
   and not-taken branches), LDS with the split barrier, a transcendental, a store. */
const char pt_gfx12_src[] =
    "  .amdgcn_target \"amdgcn-amd-amdhsa--gfx1200\"\n  .text\n  .globl k\n  .p2align 8\nk:\n"
    "  s_load_b64 s[2:3], s[0:1], 0x0\n"
    "  v_lshlrev_b32_e32 v1, 2, v0\n"
    "  s_mov_b32 s4, 3\n"
    "  s_wait_kmcnt 0x0\n"
    "loop:\n"
    "  v_add_nc_u32_e32 v2, v1, v0\n"
    "  s_add_co_i32 s4, s4, -1\n"
    "  s_cmp_eq_i32 s4, 0\n"
    "  s_cbranch_scc0 loop\n"
    "  ds_store_b32 v1, v2\n"
    "  s_wait_dscnt 0x0\n"
    "  s_barrier_signal -1\n"
    "  s_barrier_wait -1\n"
    "  ds_load_b32 v3, v1\n"
    "  s_wait_dscnt 0x0\n"
    "  v_rcp_f32_e32 v4, v3\n"
    "  global_store_b32 v1, v4, s[2:3]\n"
    "  s_endpgm\n"
    "  .rodata\n  .p2align 6\n  .amdhsa_kernel k\n"
    "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n  .amdhsa_kernarg_size 8\n"
    "  .amdhsa_group_segment_fixed_size 256\n  .amdhsa_next_free_vgpr 8\n"
    "  .amdhsa_next_free_sgpr 8\n  .amdhsa_wavefront_size32 1\n  .end_amdhsa_kernel\n";

uint8_t *pt_assemble(const char *src, size_t *len)
{
    return pt_assemble_for(src, "gfx1100", len);
}

uint8_t *pt_assemble_for(const char *src, const char *arch, size_t *len)
{
    rdx_asm_options o = { .filename = "test.s", .arch = arch };
    rdx_asm_result *r = NULL;
    rdx_status st = rdx_asm_assemble(src, strlen(src), &o, &r);
    if (st && r)
        for (size_t i = 0; i < r->ndiags; i++)
            fprintf(stderr, "%s\n", r->diags[i].text);
    ck_assert_int_eq(st, RDX_OK);
    uint8_t *out = NULL;
    ck_assert_int_eq(rdx_asm_write_codeobj(r, &out, len), RDX_OK);
    rdx_asm_free(r);
    return out;
}

int pt_prof(const char *const *args, rdx_test_proc *p)
{
    const char *argv[48];
    int n = 0;
    argv[n++] = rdx_test_rdx_path();
    argv[n++] = "prof";
    for (; *args && n < 46; args++)
        argv[n++] = *args;
    argv[n] = NULL;
    return rdx_test_run(argv, NULL, 0, p);
}

int main(void)
{
    /* -g: the report's source lines come from the code object's DWARF line table */
    const char *o2[] = { "-g", "-O2", NULL }, *o0[] = { "-g", "-O0", NULL };
    pt_loops_co = rdx_test_prebuild("tests/data/prof/loops.cl", o2, "loops-O2.co");
    pt_loops_o0_co = rdx_test_prebuild("tests/data/prof/loops.cl", o0, "loops-O0.co");
    Suite *s = suite_create("prof");
    suite_add_tcase(s, pt_tcase_api());
    suite_add_tcase(s, pt_tcase_cli());
    suite_add_tcase(s, pt_tcase_sqtt());
    suite_add_tcase(s, pt_tcase_compare());
    suite_add_tcase(s, pt_tcase_hw());
    int rc = rdx_test_main(s);
    free(pt_loops_co);
    free(pt_loops_o0_co);
    return rc;
}
