/*
 * tests/prof/t_cli.c — `rdx prof` end to end: the report and annotated
 * disassembly of a clang -g kernel (source lines, --sort), --json parsed and
 * checked against the text, the Chrome trace's structure, --compare, a tensor
 * program, usage errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/prof/json.h"
#include "tests/prof/prof_test.h"

#define LAUNCH "--grid", "8", "--block", "64", "--arg", "zeros:2048", "--arg", "u32:7"

/* The report: every section, the columns, source lines beside the loop. */
START_TEST(report_with_source_lines)
{
    rdx_test_proc p;
    const char *args[] = { pt_loops_co, LAUNCH, NULL };
    ck_assert_msg(pt_prof(args, &p) == 0, "%s", p.err);
    static const char *const want[] = {
        "== dispatch 0: loops",
        "kernel time (model",
        "-bound",
        "occupancy: 16 waves/SIMD",
        "instruction mix:",
        "lane utilization:",
        "bytes: global",
        "LDS bank conflicts:",
        "cache model: L0",
        "wave cycles:",
        "vmcnt",
        "lgkmcnt",
        "barrier",
        "s_cbranch_scc",
        "; loops.cl:13",
        "ds_load_b32",
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        ck_assert_msg(strstr(p.out, want[i]), "missing '%s' in:\n%s", want[i], p.out);
    /* the loop's latch: 2 * (1 + ... + 8) = 72 executions */
    const char *latch = strstr(p.out, "s_cbranch_scc");
    const char *bol = latch;
    while (bol > p.out && bol[-1] != '\n')
        bol--;
    unsigned long long off, count;
    ck_assert_int_eq(sscanf(bol, "%llx %llu", &off, &count), 2);
    ck_assert_uint_eq(count, 72);
    rdx_test_proc_free(&p);
}
END_TEST

/* The column after "offset count lanes" is the share of the cycles: --sort puts the
   largest first. */
START_TEST(sort_hottest_first)
{
    rdx_test_proc p;
    const char *args[] = { "--sort", pt_loops_co, LAUNCH, NULL };
    ck_assert_msg(pt_prof(args, &p) == 0, "%s", p.err);
    const char *t = strstr(p.out, "instruction\n");
    ck_assert_ptr_nonnull(t);
    t += strlen("instruction\n");
    double last = 1e9;
    int rows = 0;
    while (*t && *t != '(' && strncmp(t, "trace", 5)) {
        unsigned long long off, count;
        double lanes, share;
        if (sscanf(t, "%llx %llu %lf %lf", &off, &count, &lanes, &share) != 4)
            break;
        ck_assert_msg(share <= last + 1e-9, "row %d: %.2f after %.2f", rows, share, last);
        last = share;
        rows++;
        t = strchr(t, '\n');
        if (!t)
            break;
        t++;
    }
    ck_assert_int_gt(rows, 20);
    rdx_test_proc_free(&p);
}
END_TEST

static jval *parse_or_fail(const char *text)
{
    size_t at = 0;
    jval *v = json_parse(text, &at);
    ck_assert_msg(v != NULL, "invalid JSON at byte %zu: %.60s", at, text + at);
    return v;
}

/* --json: one document with every figure; its per-PC counts sum to wave_insts and its
   cycles split sums to the PCs'. */
START_TEST(json_output)
{
    rdx_test_proc p;
    const char *args[] = { "--json", pt_loops_co, LAUNCH, NULL };
    ck_assert_msg(pt_prof(args, &p) == 0, "%s", p.err);
    jval *v = parse_or_fail(p.out);
    const jval *d = json_get(v, "dispatches");
    ck_assert(d && d->t == J_ARR && d->n == 1);
    const jval *k = d->items[0];
    static const char *const keys[] = {
        "name",  "kernel_cycles", "bound", "model",  "occupancy", "mix",
        "lanes", "bytes",         "cache", "cycles", "pcs",       "lds_bank_conflicts"
    };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        ck_assert_msg(json_get(k, keys[i]), "no %s", keys[i]);
    ck_assert_str_eq(json_get(k, "name")->str, "loops");
    const jval *pcs = json_get(k, "pcs");
    double insts = 0, cyc = 0, lines = 0;
    for (size_t i = 0; i < pcs->n; i++) {
        insts += json_get(pcs->items[i], "count")->num;
        cyc += json_get(pcs->items[i], "issue")->num;
        static const char *const st[] = { "vmcnt",  "lgkmcnt", "depend", "barrier",
                                          "hazard", "branch",  "sleep" };
        for (size_t s = 0; s < 7; s++)
            cyc += json_get(pcs->items[i], st[s])->num;
        lines += json_get(pcs->items[i], "source") != NULL;
        ck_assert(json_get(pcs->items[i], "text")->t == J_STR);
    }
    ck_assert(insts == json_get(k, "wave_insts")->num);
    const jval *c = json_get(k, "cycles");
    double tot = 0;
    for (size_t i = 0; i < c->n; i++)
        tot += c->items[i]->num;
    ck_assert(cyc == tot);
    ck_assert(lines > 10);
    json_free(v);
    rdx_test_proc_free(&p);
}
END_TEST

/* --trace: Chrome trace JSON; every event has ph and pid; X events ts/dur/tid; one X
   event per wave on a SIMD track (pid >= 1) plus the dispatch on the queue (pid 0);
   counters are C events with args; metadata names processes and threads. */
START_TEST(trace_structure)
{
    char *path = rdx_test_tmp_path("trace.json");
    rdx_test_proc p;
    const char *args[] = { "--trace", path, "--no-disasm", pt_loops_co, LAUNCH, NULL };
    ck_assert_msg(pt_prof(args, &p) == 0, "%s", p.err);
    char *text = rdx_test_read_file(path, NULL);
    jval *v = parse_or_fail(text);
    const jval *ev = json_get(v, "traceEvents");
    ck_assert(ev && ev->t == J_ARR);
    size_t waves = 0, dispatches = 0, counters = 0, meta = 0;
    double kernel_end = 0;
    for (size_t i = 0; i < ev->n; i++) {
        const jval *e = ev->items[i], *ph = json_get(e, "ph"), *pid = json_get(e, "pid");
        ck_assert(ph && ph->t == J_STR && pid && pid->t == J_NUM);
        ck_assert(json_get(e, "name") && json_get(e, "name")->t == J_STR);
        if (!strcmp(ph->str, "X")) {
            const jval *ts = json_get(e, "ts"), *dur = json_get(e, "dur");
            ck_assert(ts && dur && json_get(e, "tid") && dur->num >= 0 && ts->num >= 0);
            if (pid->num == 0) {
                dispatches++;
                kernel_end = ts->num + dur->num;
            } else {
                waves++;
                ck_assert(ts->num + dur->num <= kernel_end + 1e-3);
                ck_assert(json_get(json_get(e, "args"), "cycles"));
            }
        } else if (!strcmp(ph->str, "C")) {
            counters++;
            ck_assert(json_get(e, "args") && json_get(e, "args")->t == J_OBJ);
        } else {
            ck_assert_str_eq(ph->str, "M");
            meta++;
        }
    }
    ck_assert_uint_eq(dispatches, 1);
    ck_assert_uint_eq(waves, 16);
    ck_assert_uint_gt(counters, 2);
    ck_assert_uint_gt(meta, 2);
    json_free(v);
    free(text);
    free(path);
    rdx_test_proc_free(&p);
}
END_TEST

/* --compare: side by side, and the instructions whose cost changed most (-O0 vs -O2), per
   mnemonic and per instruction (aligned by disassembly). */
START_TEST(compare_two_code_objects)
{
    rdx_test_proc p;
    const char *args[] = { "--compare", pt_loops_o0_co, pt_loops_co, LAUNCH, NULL };
    ck_assert_msg(pt_prof(args, &p) == 0, "%s", p.err);
    ck_assert_msg(strstr(p.out, "kernel cycles") && strstr(p.out, "wave-instructions") &&
                      strstr(p.out, "instructions whose cost changed most") &&
                      strstr(p.out, "A offset B offset"),
                  "%s", p.out);
    rdx_test_proc_free(&p);
    const char *jargs[] = { "--json", "--compare", pt_loops_o0_co, pt_loops_co, LAUNCH, NULL };
    ck_assert_msg(pt_prof(jargs, &p) == 0, "%s", p.err);
    jval *v = parse_or_fail(p.out);
    ck_assert(json_get(v, "ops") && json_get(v, "ops")->n > 5);
    /* per instruction: every row names its offset in A and/or B (null when only the other
       has it), its cycles and counts; the rows cover every instruction of both */
    const jval *d0 = json_get(v, "dispatches")->items[0], *pcs = json_get(d0, "pcs");
    ck_assert(pcs && pcs->t == J_ARR);
    size_t in_a = 0, in_b = 0;
    for (size_t i = 0; i < pcs->n; i++) {
        const jval *r = pcs->items[i];
        ck_assert(json_get(r, "a_cycles") && json_get(r, "b_count") && json_get(r, "inst"));
        in_a += json_get(r, "a_offset")->t == J_NUM;
        in_b += json_get(r, "b_offset")->t == J_NUM;
        ck_assert(json_get(r, "a_offset")->t == J_NUM || json_get(r, "b_offset")->t == J_NUM);
    }
    ck_assert_uint_gt(in_a, in_b); /* -O0 has more instructions than -O2 */
    json_free(v);
    rdx_test_proc_free(&p);
    /* A against itself: every instruction aligned, nothing changed */
    const char *self[] = { "--compare", pt_loops_co, pt_loops_co, LAUNCH, NULL };
    ck_assert_msg(pt_prof(self, &p) == 0, "%s", p.err);
    const char *line = strstr(p.out, "per instruction (dispatch loops: ");
    ck_assert_msg(line != NULL, "%s", p.out);
    unsigned same, na, nb;
    ck_assert_int_eq(
        sscanf(line, "per instruction (dispatch loops: %u of A's %u and B's %u", &same, &na, &nb),
        3);
    ck_assert_uint_eq(same, na);
    ck_assert_uint_eq(na, nb);
    ck_assert_uint_gt(na, 30);
    rdx_test_proc_free(&p);
}
END_TEST

/* A tensor program: every kernel of the schedule profiled (realize's options). */
START_TEST(tensor_program)
{
    rdx_test_proc p;
    const char *args[] = { "--json", "tests/data/realize/argmax_two_reduces.uop", NULL };
    ck_assert_msg(pt_prof(args, &p) == 0, "%s", p.err);
    jval *v = parse_or_fail(p.out);
    const jval *d = json_get(v, "dispatches");
    ck_assert(d && d->n >= 1);
    for (size_t i = 0; i < d->n; i++)
        ck_assert(json_get(d->items[i], "kernel_cycles")->num > 0);
    json_free(v);
    rdx_test_proc_free(&p);
    const char *targs[] = { "--no-disasm", "--raw", "tests/data/realize/argmax_two_reduces.uop",
                            NULL };
    ck_assert_msg(pt_prof(targs, &p) == 0, "%s", p.err);
    ck_assert(strstr(p.out, "== dispatch 0"));
    rdx_test_proc_free(&p);
}
END_TEST

/* --sqtt writes the emulated trace; --decode-sqtt reads it back and, with the code
   object, lists the traced wave's instructions (the loop's latch among them). */
START_TEST(sqtt_write_and_decode)
{
    char *path = rdx_test_tmp_path("loops.sqtt");
    rdx_test_proc p;
    const char *args[] = { "--sqtt", path, "--no-disasm", pt_loops_co, LAUNCH, NULL };
    ck_assert_msg(pt_prof(args, &p) == 0, "%s", p.err);
    ck_assert(strstr(p.out, "sqtt: "));
    rdx_test_proc_free(&p);
    const char *dargs[] = { "--decode-sqtt", path, pt_loops_co, NULL };
    ck_assert_msg(pt_prof(dargs, &p) == 0, "%s", p.err);
    ck_assert_msg(strstr(p.out, "layout 3") && strstr(p.out, "WAVESTART 2") &&
                      strstr(p.out, "WAVEEND 2") && strstr(p.out, "s_cbranch_scc") &&
                      strstr(p.out, "s_endpgm") && !strstr(p.out, "NOT monotonic"),
                  "%s", p.out);
    rdx_test_proc_free(&p);
    free(path);
}
END_TEST

START_TEST(usage_errors)
{
    rdx_test_proc p;
    const char *none[] = { NULL };
    ck_assert_int_eq(pt_prof(none, &p), 2);
    ck_assert(strstr(p.err, "no input"));
    rdx_test_proc_free(&p);
    const char *nogrid[] = { pt_loops_co, NULL };
    ck_assert_int_eq(pt_prof(nogrid, &p), 2);
    ck_assert(strstr(p.err, "--grid and --block"));
    rdx_test_proc_free(&p);
    const char *help[] = { "--help", NULL };
    ck_assert_int_eq(pt_prof(help, &p), 0);
    ck_assert(strstr(p.out, "lgkmcnt") && strstr(p.out, "--trace FILE"));
    rdx_test_proc_free(&p);
}
END_TEST

TCase *pt_tcase_cli(void)
{
    TCase *tc = tcase_create("cli");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, report_with_source_lines);
    tcase_add_test(tc, sort_hottest_first);
    tcase_add_test(tc, json_output);
    tcase_add_test(tc, trace_structure);
    tcase_add_test(tc, compare_two_code_objects);
    tcase_add_test(tc, tensor_program);
    tcase_add_test(tc, sqtt_write_and_decode);
    tcase_add_test(tc, usage_errors);
    return tc;
}
