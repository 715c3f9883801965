/*
 * bench/prof/bench_prof.c — what profiling (rdx/emu_prof.h) costs the emulator: the CPU
 * time of one dispatch run with profiling on, against the same dispatch without it
 * measured in the same run (the baseline), on one host thread, best of 5 each.  The
 * kernel is a loop of mostly cheap scalar instructions, the worst case for the profiler
 * (its per-instruction record costs most where the instruction itself costs least):
 * 10000 workgroups of 2 waves, 200 trips of one VALU and five SALU / branch instructions.
 * docs/prof.md "The API" states the figure (at most about 2x; 1.3-1.6x measured on a
 * loaded 2-core machine).  Prints the two times and the ratio; it asserts nothing (a
 * timing is a benchmark's, not a test's: tests/prof checks that profiling changes no
 * counter).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdx/asm.h>
#include <rdx/emu.h>
#include <rdx/emu_prof.h>

static const char *kernel_src = "  .amdgcn_target \"amdgcn-amd-amdhsa--gfx1100\"\n"
                                "  .text\n  .globl k\n  .p2align 8\nk:\n"
                                "  s_load_b64 s[2:3], s[0:1], 0x0\n"
                                "  s_mov_b32 s4, 200\n"
                                "  s_waitcnt lgkmcnt(0)\n"
                                "loop:\n"
                                "  v_add_nc_u32 v1, v1, v0\n"
                                "  s_add_u32 s5, s5, 1\n"
                                "  s_xor_b32 s6, s6, s5\n"
                                "  s_sub_u32 s4, s4, 1\n"
                                "  s_cmp_lg_u32 s4, 0\n"
                                "  s_cbranch_scc1 loop\n"
                                "  v_lshlrev_b32 v2, 2, v0\n"
                                "  global_store_b32 v2, v1, s[2:3]\n"
                                "  s_endpgm\n"
                                "  .rodata\n  .p2align 6\n  .amdhsa_kernel k\n"
                                "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
                                "  .amdhsa_kernarg_size 8\n"
                                "  .amdhsa_next_free_vgpr 8\n"
                                "  .amdhsa_next_free_sgpr 16\n"
                                "  .amdhsa_wavefront_size32 1\n"
                                "  .end_amdhsa_kernel\n";

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* CPU seconds of one dispatch (profiling on or off); negative on failure. */
static double run_once(const uint8_t *elf, size_t len, uint32_t *out, int profile)
{
    void *ka = out;
    rdx_emu_buffer b = { out, 64 * 4, RDX_EMU_RW };
    rdx_emu_launch l = { .grid = { 10000 * 64 },
                         .wg = { 64 },
                         .kernarg = &ka,
                         .kernarg_size = 8,
                         .bufs = &b,
                         .nbufs = 1 };
    rdx_emu *emu = NULL;
    if (rdx_emu_create("gfx1100", &emu))
        return -1;
    rdx_emu_set_threads(emu, 1);
    rdx_emu_set_profiling(emu, profile);
    double t0 = cpu_now();
    rdx_status st = rdx_emu_run_codeobj(emu, elf, len, "k", &l);
    double t = cpu_now() - t0;
    if (st)
        fprintf(stderr, "bench_prof: %s\n", rdx_error_message());
    rdx_emu_destroy(emu);
    return st ? -1 : t;
}

int main(void)
{
    rdx_asm_result *r = NULL;
    uint8_t *elf = NULL;
    size_t len = 0;
    if (rdx_asm_assemble(kernel_src, strlen(kernel_src), NULL, &r) ||
        rdx_asm_write_codeobj(r, &elf, &len)) {
        fprintf(stderr, "bench_prof: assembling: %s\n", rdx_error_message());
        rdx_asm_free(r);
        return 1;
    }
    rdx_asm_free(r);
    uint32_t *out = aligned_alloc(128, 64 * 4);
    if (!out) {
        free(elf);
        return 1;
    }
    double best[2] = { 1e9, 1e9 };
    for (int rep = 0; rep < 5; rep++)
        for (int prof = 0; prof < 2; prof++) {
            double t = run_once(elf, len, out, prof);
            if (t < 0) {
                free(out);
                free(elf);
                return 1;
            }
            if (t < best[prof])
                best[prof] = t;
        }
    printf("profiling overhead (10000 groups x 2 waves, 200-trip scalar loop, 1 thread, best of 5 "
           "CPU times)\n");
    printf("  plain (baseline)  %8.3f s\n  profiled          %8.3f s\n  ratio             %8.2fx "
           "(docs/prof.md: about 2x at most)\n",
           best[0], best[1], best[1] / best[0]);
    free(out);
    free(elf);
    return 0;
}
