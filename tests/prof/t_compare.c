/*
 * tests/prof/t_compare.c — `rdx prof --compare-trace` and the timing constants: the
 * emulated GPU's own trace of a kernel compared with the model gives zero error in every
 * row; the same trace with the wave's launch doubled does not; the table's sections
 * and columns; and docs/emu.md's calibration table lists exactly the constants of
 * emu/core/timing.def with their values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/sqtt.h>

#include "emu/core/timing.h"
#include "tests/prof/prof_test.h"
#include "util/file.h"

#define LAUNCH_SEED(s) "--grid", "8", "--block", "64", "--arg", "zeros:2048", "--arg", "u32:" s

/* The emulated trace of loops.cl with seed `seed` in a temporary file (malloc'd path). */
static char *emulated_trace(const char *name, const char *seed)
{
    char *path = rdx_test_tmp_path(name);
    rdx_test_proc p;
    const char *args[] = { "--sqtt", path, "--no-disasm", pt_loops_co, LAUNCH_SEED("7"), NULL };
    args[11] = seed;
    ck_assert_msg(pt_prof(args, &p) == 0, "%s", p.err);
    rdx_test_proc_free(&p);
    return path;
}

/* The lines of section `head` (from the line starting with it to the next empty line). */
static const char *section(const char *out, const char *head)
{
    const char *s = strstr(out, head);
    ck_assert_msg(s, "no '%s' section in:\n%s", head, out);
    return s;
}

START_TEST(own_trace_zero_error)
{
    char *path = emulated_trace("own.sqtt", "u32:7");
    rdx_test_proc p;
    const char *args[] = { "--compare-trace", path, pt_loops_co, LAUNCH_SEED("7"), NULL };
    ck_assert_msg(pt_prof(args, &p) == 0, "%s", p.err);
    /* the structure: header, the wave table, the class table, wave 0 listed, the summary */
    static const char *const want[] = {
        "compare-trace: ",
        "kernel loops",
        "traced waves (CU 0, the traced SIMD): trace 1, model 1",
        (" wave      start  insts  launch     end   cycles    model m.insts m.launch   m.end    "
         "error"),
        "class             n    m.n  interval     model    error    stall/w  m.stall/w",
        "wave launch ",
        "VALU ",
        "LDS ",
        "branch ",
        "s_waitcnt ",
        "wave end ",
        "wave 0, instruction by instruction",
        "s_cbranch_scc",
        "summary: waves 1/1 within 20% (max error 0.0%), classes ",
        "(max error 0.0%): within the goal",
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        ck_assert_msg(strstr(p.out, want[i]), "missing '%s' in:\n%s", want[i], p.out);
    /* every class row: the same count and mean on both sides, error +0.0% */
    const char *c = strchr(section(p.out, "class "), '\n') + 1;
    unsigned rows = 0;
    while (*c && *c != '\n') {
        char line[256];
        size_t n = (size_t)(strchr(c, '\n') - c);
        ck_assert_uint_lt(n, sizeof line);
        memcpy(line, c, n);
        line[n] = 0;
        unsigned long long na, nb;
        double ia, ib;
        ck_assert_msg(sscanf(line + 12, "%llu %llu %lf %lf", &na, &nb, &ia, &ib) == 4, "%s", line);
        ck_assert_msg(na == nb && ia == ib && strstr(line, "+0.0%"), "%s", line);
        rows++;
        c += n + 1;
    }
    ck_assert_uint_ge(rows, 6);
    rdx_test_proc_free(&p);
    free(path);
}
END_TEST

/* Set `count` nibbles of the stream from nibble `at` to `value` (low nibble first). */
static void set_nibbles(uint8_t *b, uint64_t at, uint64_t value, unsigned count)
{
    for (unsigned k = 0; k < count; k++, at++) {
        uint8_t v = (uint8_t)((value >> (4 * k)) & 15);
        b[at / 2] = (uint8_t)((at & 1) ? (b[at / 2] & 0x0f) | v << 4 : (b[at / 2] & 0xf0) | v);
    }
}

/* The emulated trace with the wave's launch doubled (the TS_DELTA_OR_MARK before its first
   instruction: 2 x 585 clocks) against the model: the launch class is off by -50% and the
   wave by -585 clocks, and the summary says the goal is not met. */
START_TEST(other_trace_differs)
{
    char *path = emulated_trace("other.sqtt", "u32:7");
    uint8_t *b;
    size_t len, n;
    ck_assert_int_eq(rdx_file_read(path, &b, &len), RDX_OK);
    rdx_sqtt_packet *pk;
    ck_assert_int_eq(rdx_sqtt_decode(b, len, &pk, &n), RDX_OK);
    size_t k = 0;
    while (k < n && pk[k].type != RDX_SQTT_WAVESTART)
        k++;
    while (k < n && pk[k].type != RDX_SQTT_TS_DELTA_OR_MARK)
        k++;
    ck_assert_uint_lt(k, n);
    ck_assert_uint_eq((pk[k].raw >> 12) & ((1ull << 36) - 1), EMU_T_WAVE_LAUNCH);
    set_nibbles(b, pk[k].offset + 3, 2 * EMU_T_WAVE_LAUNCH, 9);
    free(pk);
    ck_assert_int_eq(rdx_file_write(path, b, len), RDX_OK);
    free(b);
    rdx_test_proc p;
    const char *args[] = { "--compare-trace", path, pt_loops_co, LAUNCH_SEED("7"), NULL };
    ck_assert_msg(pt_prof(args, &p) == 0, "%s", p.err);
    ck_assert_msg(strstr(p.out, "NOT within the goal") &&
                      strstr(p.out, "wave launch       1      1   1170.00    585.00   -50.0%"),
                  "%s", p.out);
    const char *w = strchr(section(p.out, " wave      start"), '\n') + 1;
    unsigned long long idx, start, insts, launch, end, cyc, model;
    ck_assert_int_eq(sscanf(w, "%llu %llu %llu %llu %llu %llu %llu", &idx, &start, &insts, &launch,
                            &end, &cyc, &model),
                     7);
    ck_assert_uint_eq(launch, 2 * EMU_T_WAVE_LAUNCH);
    ck_assert_uint_eq(cyc, model + EMU_T_WAVE_LAUNCH);
    rdx_test_proc_free(&p);
    free(path);
}
END_TEST

START_TEST(compare_trace_errors)
{
    rdx_test_proc p;
    const char *missing[] = { "--compare-trace", "/nonexistent.sqtt", pt_loops_co, LAUNCH_SEED("7"),
                              NULL };
    ck_assert_int_ne(pt_prof(missing, &p), 0);
    ck_assert_msg(strstr(p.err, "nonexistent.sqtt"), "%s", p.err);
    rdx_test_proc_free(&p);
    const char *novalue[] = { "--compare-trace", NULL };
    ck_assert_int_eq(pt_prof(novalue, &p), 2);
    ck_assert(strstr(p.err, "--compare-trace needs a value"));
    rdx_test_proc_free(&p);
}
END_TEST

/* docs/emu.md "Timing calibration": one row "| `NAME` | VALUE | evidence |" per constant of
   emu/core/timing.def, and no other constant rows there. */
START_TEST(constants_documented)
{
    static const struct {
        const char *name;
        unsigned v11, v12;
    } defs[] = {
#define EMU_TIMING(n, v11, v12, e) { #n, v11, v12 },
#include "emu/core/timing.def"
#undef EMU_TIMING
    };
    uint8_t *doc;
    size_t len;
    ck_assert_int_eq(rdx_file_read("docs/emu.md", &doc, &len), RDX_OK);
    char *text = realloc(doc, len + 1);
    ck_assert_ptr_nonnull(text);
    text[len] = 0;
    char *sec = strstr(text, "\n## Timing calibration\n");
    ck_assert_msg(sec, "docs/emu.md has no '## Timing calibration' section");
    char *endsec = strstr(sec + 1, "\n## ");
    if (endsec)
        *endsec = 0;
    size_t nd = sizeof defs / sizeof *defs, rows = 0;
    for (size_t i = 0; i < nd; i++) {
        char want[96];
        snprintf(want, sizeof want, "\n| `%s` | %u | %u |", defs[i].name, defs[i].v11, defs[i].v12);
        ck_assert_msg(strstr(sec, want), "docs/emu.md's calibration table lacks '%s'", want + 1);
    }
    for (const char *l = strstr(sec, "\n| `"); l; l = strstr(l + 1, "\n| `"))
        rows++;
    ck_assert_uint_eq(rows, nd);
    free(text);
}
END_TEST

/* On gfx12 the model's own trace is layout 4 (the kernel's target's) and compares with zero
   error; a gfx1100 kernel's trace against it is refused, naming both layouts. */
START_TEST(gfx12_own_trace)
{
    char *src = rdx_test_tmp_path("k12.s"), *path = rdx_test_tmp_path("own12.sqtt");
    ck_assert_int_eq(rdx_file_write(src, pt_gfx12_src, strlen(pt_gfx12_src)), RDX_OK);
    rdx_test_proc p;
    const char *w[] = { "--sqtt",  path, "--no-disasm", src,         "--grid", "1",
                        "--block", "64", "--arg",       "zeros:256", NULL };
    ck_assert_msg(pt_prof(w, &p) == 0, "%s", p.err);
    ck_assert_msg(strstr(p.out, "RDNA4 layout 4"), "%s", p.out);
    rdx_test_proc_free(&p);
    const char *c[] = { "--compare-trace", path, src,     "--grid",    "1",
                        "--block",         "64", "--arg", "zeros:256", NULL };
    ck_assert_msg(pt_prof(c, &p) == 0, "%s", p.err);
    ck_assert_msg(strstr(p.out, "(layout 4) against the emulator's timing model (gfx1200)") &&
                      strstr(p.out, "s_barrier_signal") &&
                      strstr(p.out, "(max error 0.0%): within the goal"),
                  "%s", p.out);
    rdx_test_proc_free(&p);
    char *t11 = emulated_trace("own11.sqtt", "u32:7");
    const char *m[] = { "--compare-trace", t11,  src,     "--grid",    "1",
                        "--block",         "64", "--arg", "zeros:256", NULL };
    ck_assert_int_ne(pt_prof(m, &p), 0);
    ck_assert_msg(strstr(p.err, "layout 3") && strstr(p.err, "gfx1200"), "%s", p.err);
    rdx_test_proc_free(&p);
    free(t11);
    free(src);
    free(path);
}
END_TEST

TCase *pt_tcase_compare(void)
{
    TCase *tc = tcase_create("compare");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, own_trace_zero_error);
    tcase_add_test(tc, gfx12_own_trace);
    tcase_add_test(tc, other_trace_differs);
    tcase_add_test(tc, compare_trace_errors);
    tcase_add_test(tc, constants_documented);
    return tc;
}
