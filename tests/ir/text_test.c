/*
 * tests/ir/text_test.c — the text form: print(parse(t)) == t for canonical
 * text, parse(print(g)) == g for graphs with every kind of arg, and parse
 * errors with line:col and what was expected.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/isa.h>

#include "tests/ir/ir_test.h"

static char *print_roots(const rdx_uop *const *r, size_t n, int annotate)
{
    char *t = NULL;
    ck_assert_msg(rdx_ir_print(r, n, annotate, &t) == RDX_OK, "%s", rdx_error_message());
    return t;
}

static const rdx_uop **parse_ok(rdx_ir_ctx *c, const char *t, size_t *n)
{
    const rdx_uop **r = NULL;
    ck_assert_msg(rdx_ir_parse(c, "t", t, strlen(t), &r, n) == RDX_OK, "%s\n%s",
                  rdx_error_message(), t);
    return r;
}

/* print(parse(t)) is canonical, and print(parse(print(parse(t)))) equals it. */
static void roundtrip_file(const char *path)
{
    size_t len, n, n2;
    char *src = rdx_test_read_file(path, &len);
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop **r = parse_ok(c, src, &n);
    char *t1 = print_roots(r, n, 0);
    const rdx_uop **r2 = parse_ok(c, t1, &n2);
    ck_assert_uint_eq(n, n2);
    for (size_t k = 0; k < n; k++)
        ck_assert_ptr_eq(r[k], r2[k]);
    char *t2 = print_roots(r2, n2, 0);
    ck_assert_str_eq(t1, t2);
    /* annotated text (comments) reads back to the same graph */
    char *ta = print_roots(r, n, 1);
    const rdx_uop **r3 = parse_ok(c, ta, &n2);
    ck_assert_ptr_eq(r3[0], r[0]);
    /* a fresh context gives the same canonical text */
    rdx_ir_ctx *c2 = ir_ctx();
    const rdx_uop **r4 = parse_ok(c2, t1, &n2);
    char *t3 = print_roots(r4, n2, 0);
    ck_assert_str_eq(t1, t3);
    free(src), free(r), free(t1), free(r2), free(t2), free(ta), free(r3), free(r4), free(t3);
    rdx_ir_ctx_destroy(c);
    rdx_ir_ctx_destroy(c2);
}

START_TEST(data_files_roundtrip)
{
    roundtrip_file("tests/data/ir/gemm.uop");
    roundtrip_file("tests/data/ir/kernel.uop");
    roundtrip_file("tests/data/ir/index.uop");
    roundtrip_file("tests/data/ir/args.uop");
    roundtrip_file("tests/data/ir/prefix_sum.uop");
}
END_TEST

START_TEST(canonical_text_is_a_fixed_point)
{
    const char *t = "%0 = CONST dtype=index value=3\n"
                    "%1 = STACK %0\n"
                    "%2 = BUFFER %1 slot=0 dtype=float32 device=AMD addr=global\n"
                    "%3 = CONST dtype=float32 value=0.10000000149011612\n"
                    "%4 = ADD %2, %3 tag=5\n"
                    "return %4\n";
    rdx_ir_ctx *c = ir_ctx();
    size_t n;
    const rdx_uop **r = parse_ok(c, t, &n);
    char *p = print_roots(r, n, 0);
    ck_assert_str_eq(p, t);
    ck_assert_int_eq(r[0]->tag, 5);
    free(p), free(r);
    /* a decimal float is read like a C literal of that dtype */
    const char *lit = "%0 = CONST dtype=float32 value=0.1\n";
    r = parse_ok(c, lit, &n);
    ck_assert(r[0]->arg.f == (double)0.1f);
    free(r);
    rdx_ir_ctx_destroy(c);
}
END_TEST

START_TEST(every_arg_kind_roundtrips)
{
    rdx_ir_ctx *c = ir_ctx();
    rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32);
    const rdx_uop *roots[16];
    size_t n = 0;
    static const double fl[] = {
        0.1, -0.0, INFINITY, -INFINITY, NAN, 1e-45, 3.4028234663852886e38
    };
    for (size_t k = 0; k < sizeof fl / sizeof *fl; k++)
        roots[n++] = IR_OK(rdx_ir_const_float(c, f32, fl[k]));
    rdx_uop_arg a = rdx_uop_arg_none();
    a.str = "quote\" back\\ nl\n tab\t \x01 end";
    a.dtype = rdx_dtype_vec(f32, 4);
    const rdx_uop *k1 = rdx_ir_const_float(c, f32, 1);
    roots[n++] = IR_OK(rdx_ir_node(c, RDX_OP_CUSTOM, &k1, 1, &a));
    const char *devs[3] = { "AMD:0", "AMD:1", "weird name" };
    int64_t d[2] = { 4, 2 };
    rdx_uop_arg b = rdx_uop_arg_none();
    b.i = 7, b.dtype = rdx_dtype_of(RDX_BFLOAT16), b.device = rdx_ir_device(c, devs, 3);
    b.addrspace = RDX_ADDR_LOCAL;
    const rdx_uop *sh = IR_OK(rdx_ir_shape(c, d, 2));
    roots[n++] = IR_OK(rdx_ir_node(c, RDX_OP_BUFFER, &sh, 1, &b));
    rdx_uop_arg v = rdx_uop_arg_none();
    double vals[2] = { 0.5, -2.25 };
    int64_t bits[2];
    memcpy(bits, vals, sizeof bits);
    v.dtype = rdx_dtype_vec(rdx_dtype_of(RDX_FLOAT64), 2), v.ints = bits, v.nints = 2;
    roots[n++] = IR_OK(rdx_ir_node(c, RDX_OP_VCONST, NULL, 0, &v));
    rdx_uop_arg bin = rdx_uop_arg_none();
    bin.str = "\0\x01\xff", bin.len = 3;
    roots[n++] = IR_OK(rdx_ir_node(c, RDX_OP_BINARY, NULL, 0, &bin));
    roots[n++] = IR_OK(rdx_ir_range(c, rdx_ir_int(c, 9), 3, RDX_AXIS_GROUP_REDUCE));
    /* INS: a structured instruction (its text is llvm-mc's) and a label */
    rdx_isa_inst vi;
    memset(&vi, 0, sizeof vi);
    vi.op = RDX_ISA_OP_V_ADD_F32, vi.form = RDX_ISA_FORM_E32, vi.nopnd = 3;
    vi.opnd[0] = rdx_isa_vgpr(1, 1), vi.opnd[1] = rdx_isa_sgpr(2, 1),
    vi.opnd[2] = rdx_isa_vgpr(3, 1);
    rdx_uop_arg ia = rdx_uop_arg_ins(&vi), la = rdx_uop_arg_label(7);
    roots[n++] = IR_OK(rdx_ir_node(c, RDX_OP_INS, NULL, 0, &ia));
    roots[n++] = IR_OK(rdx_ir_node(c, RDX_OP_INS, NULL, 0, &la));
    char *t = print_roots(roots, n, 0);
    size_t n2;
    const rdx_uop **r = parse_ok(c, t, &n2);
    ck_assert_uint_eq(n2, n);
    for (size_t k = 0; k < n; k++)
        ck_assert_msg(r[k] == roots[k], "root %zu differs after reading back:\n%s", k, t);
    free(r), free(t);
    rdx_ir_ctx_destroy(c);
}
END_TEST

START_TEST(hand_written_text)
{
    /* any names, blank lines, comments, spacing; no return: unused nodes are the outputs */
    const char *t = "; a comment\n"
                    "\n"
                    "  %n   =  DEFINE_VAR   name=\"n\" min=1 max=4   ; trailing\n"
                    "%two = CONST dtype=index value=2\n"
                    "%x = MUL %n,%two\n"
                    "%y = ADD %x, %two\n";
    rdx_ir_ctx *c = ir_ctx();
    size_t n;
    const rdx_uop **r = parse_ok(c, t, &n);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(rdx_op_name((rdx_op)r[0]->op), "ADD");
    ck_assert_int_eq(r[0]->vmin, 4);
    ck_assert_int_eq(r[0]->vmax, 10);
    free(r);
    rdx_ir_ctx_destroy(c);
}
END_TEST

START_TEST(parse_errors)
{
    static const struct {
        const char *text, *msg;
    } bad[] = {
        { "%0 = FOO", "t:1:6: expected an op name (ADD, CONST, ...), got 'FOO'" },
        { "%0 = CONST dtype=index", "t:1:23: CONST is missing value" },
        { "%0 = CONST dtype=index value=x", "t:1:30: expected an integer, got 'x'" },
        { "%0 = CONST dtype=floaty value=1", "t:1:18: unknown dtype 'floaty'" },
        { "%0 = CONST dtype=index value=1\n%1 = ADD %0, %9", "t:2:14: '%9' is not defined above" },
        { "%0 = CONST dtype=index value=1\n%0 = CONST dtype=index value=2",
          "t:2:1: '%0' is already defined" },
        { "%0 = CONST dtype=index value=1 slot=3", "t:1:32: unexpected 'slot' for CONST" },
        { "%0 = CONST dtype=index dtype=index value=1", "t:1:24: 'dtype' given twice" },
        { "%0 CONST", "t:1:4: expected '=' after the node name" },
        { "x = CONST", "t:1:1: expected a node name like %3" },
        { "%0 = DEFINE_VAR name=\"n min=1 max=2", "t:1:36: unterminated string" },
        { "%0 = RANGE", "t:1:11: RANGE is missing axis, type" },
        { "%0 = CONST dtype=index value=1\n%1 = RANGE %0 axis=0 type=SIDEWAYS",
          "t:2:27: expected an axis type" },
        { "%0 = CONST dtype=index value=1\nreturn %0\n%1 = CONST dtype=index value=2",
          "t:3:1: nothing may follow the 'return' line" },
        { "%0 = CONST dtype=index value=1\n%1 = ADD %0 %0",
          "t:2:13: expected ',' between sources" },
        { "%0 = CONST dtype=uint8 value=300",
          "t:1: CONST(): [const out of range] 300 does not fit uint8" },
        { "", "t: no nodes" },
    };
    rdx_ir_ctx *c = ir_ctx();
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        const rdx_uop **r = NULL;
        size_t n = 0;
        rdx_status st = rdx_ir_parse(c, "t", bad[k].text, strlen(bad[k].text), &r, &n);
        ck_assert_msg(st != RDX_OK, "'%s' parsed", bad[k].text);
        ck_assert_msg(strstr(rdx_error_message(), bad[k].msg), "'%s':\n got  '%s'\n want '%s'",
                      bad[k].text, rdx_error_message(), bad[k].msg);
        ck_assert_ptr_null(r);
    }
    rdx_ir_ctx_destroy(c);
}
END_TEST

START_TEST(parse_runs_the_verifier)
{
    const char *t = "%c = CONST dtype=index value=4\n"
                    "%r = RANGE %c axis=0 type=LOOP\n"
                    "%s = SINK %r\n";
    rdx_ir_ctx *c = ir_ctx();
    const rdx_uop **r = NULL;
    size_t n;
    ck_assert_int_eq(rdx_ir_parse(c, "k.uop", t, strlen(t), &r, &n), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "k.uop: SINK(index[]): [range not closed]"), "%s",
                  rdx_error_message());
    rdx_ir_ctx_destroy(c);
}
END_TEST

/* Random byte edits of valid files: the parser returns OK or an error, never crashes or leaks. */
START_TEST(parser_survives_mutations)
{
    static const char *files[] = { "tests/data/ir/args.uop", "tests/data/ir/kernel.uop",
                                   "tests/data/ir/gemm.uop" };
    static const char alphabet[] = "%=,()\"\\;\n 0123456789-.xabcdefinADDCONSTSTACK";
    uint64_t st = 77;
    int ok = 0, bad = 0;
    for (size_t f = 0; f < 3; f++) {
        size_t len;
        char *src = rdx_test_read_file(files[f], &len);
        for (int t = 0; t < 700; t++) {
            char *m = malloc(len + 1);
            memcpy(m, src, len + 1);
            int edits = (int)ir_rand_range(&st, 1, 4);
            for (int e = 0; e < edits; e++)
                m[ir_rand(&st) % len] = alphabet[ir_rand(&st) % (sizeof alphabet - 1)];
            size_t cut = ir_rand(&st) % 4 == 0 ? ir_rand(&st) % len : len;
            rdx_ir_ctx *c = ir_ctx();
            const rdx_uop **r = NULL;
            size_t n = 0;
            if (rdx_ir_parse(c, "m", m, cut, &r, &n) == RDX_OK) {
                ok++;
                char *p = print_roots(r, n, 1);
                free(p);
            } else {
                bad++;
                ck_assert(strncmp(rdx_error_message(), "m", 1) == 0);
            }
            free(r);
            free(m);
            rdx_ir_ctx_destroy(c);
        }
        free(src);
    }
    ck_assert_int_gt(bad, 0);
    ck_assert_int_gt(ok, 0);
}
END_TEST

/* INS: machine instructions as structured args (rdx_isa_inst), their text llvm-mc's; a
   branch names a label; malformed args are refused naming the node. */
START_TEST(ins_structured)
{
    rdx_ir_ctx *c = ir_ctx();
    const char *t = "%0 = INS label=0\n"
                    "%1 = INS asm=\"v_add_f32_e32 v1, s2, v3\"\n"
                    "%2 = INS asm=\"global_load_b32 v0, v1, s[0:1] offset:16\"\n"
                    "%3 = INS asm=\"s_cbranch_scc1 bb0\"\n"
                    "%4 = INS asm=\"s_endpgm\"\n"
                    "%5 = LINEAR %0, %1, %2, %3, %4\n";
    size_t n;
    const rdx_uop **r = parse_ok(c, t, &n);
    const rdx_uop *lin = r[n - 1];
    ck_assert_int_eq(lin->op, RDX_OP_LINEAR);
    ck_assert_int_eq(rdx_uop_ins_label(lin->src[0]), 0);
    rdx_isa_inst in;
    ck_assert(!rdx_uop_ins(lin->src[0], &in));
    ck_assert(rdx_uop_ins(lin->src[1], &in));
    ck_assert_int_eq(in.op, RDX_ISA_OP_V_ADD_F32);
    ck_assert_int_eq(in.nopnd, 3);
    ck_assert_int_eq(in.opnd[1].kind, RDX_ISA_OPND_SGPR);
    ck_assert_int_eq(in.opnd[1].reg, 2);
    ck_assert(rdx_uop_ins(lin->src[3], &in));
    ck_assert_int_eq(in.op, RDX_ISA_OP_S_CBRANCH_SCC1);
    ck_assert_int_eq(in.opnd[0].kind, RDX_ISA_OPND_BRANCH);
    ck_assert_int_eq(in.opnd[0].value, 0); /* the label's number, not an offset */
    ck_assert_int_eq(lin->src[1]->dtype.scalar, RDX_VOID);
    /* printed back the same way */
    char *p = print_roots(&lin, 1, 0);
    ck_assert_msg(strstr(p, "INS asm=\"v_add_f32_e32 v1, s2, v3\""), "%s", p);
    ck_assert_msg(strstr(p, "INS asm=\"s_cbranch_scc1 bb0\""), "%s", p);
    ck_assert_msg(strstr(p, "INS label=0"), "%s", p);
    size_t n2;
    const rdx_uop **r2 = parse_ok(c, p, &n2);
    ck_assert_ptr_eq(r2[n2 - 1], lin);
    free(r2), free(p), free(r);
    static const struct {
        const char *text, *msg;
    } bad[] = {
        { "%0 = INS", "INS takes one of asm=\"...\" (an instruction) or label=N" },
        { "%0 = INS asm=\"s_endpgm\" label=1", "INS takes one of" },
        { "%0 = INS asm=\"v_bogus_f32 v1, v2\"", "t:1:14: INS 'v_bogus_f32 v1, v2'" },
        { "%0 = INS asm=\"s_branch bbx\"", "expected a label bbN" },
        { "%0 = INS asm=\"v_add_f32 v1, v2, bb3\"", "a label is only a branch's operand" },
        { "%0 = INS label=-1", "INS(): [arg] label -1: expected a label number in 0..32767" },
        { "%0 = INS label=0\n%1 = INS %0 label=1", "[arity] 1 sources, needs 0" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        const rdx_uop **rr = NULL;
        rdx_status st = rdx_ir_parse(c, "t", bad[k].text, strlen(bad[k].text), &rr, &n);
        ck_assert_msg(st != RDX_OK, "'%s' parsed", bad[k].text);
        ck_assert_msg(strstr(rdx_error_message(), bad[k].msg), "'%s':\n got  '%s'\n want '%s'",
                      bad[k].text, rdx_error_message(), bad[k].msg);
    }
    /* malformed structured args, built by hand */
    rdx_uop_arg a = rdx_uop_arg_none();
    a.str = "v_add_f32", a.len = 9;
    const rdx_uop *u;
    ck_assert_int_eq(rdx_ir_make(c, RDX_OP_INS, NULL, 0, &a, 0, &u), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "expected an rdx_isa_inst"), "%s",
                  rdx_error_message());
    memset(&in, 0, sizeof in);
    in.op = RDX_ISA_OP_COUNT;
    a = rdx_uop_arg_ins(&in);
    ck_assert_int_eq(rdx_ir_make(c, RDX_OP_INS, NULL, 0, &a, 0, &u), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "is not an op of the ISA tables"), "%s",
                  rdx_error_message());
    in.op = RDX_ISA_OP_S_BRANCH, in.nopnd = 2;
    in.opnd[0].kind = RDX_ISA_OPND_BRANCH, in.opnd[1] = rdx_isa_int(1);
    a = rdx_uop_arg_ins(&in);
    ck_assert_int_eq(rdx_ir_make(c, RDX_OP_INS, NULL, 0, &a, 0, &u), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "s_branch: a branch operand names a label"), "%s",
                  rdx_error_message());
    in.nopnd = 1, in.opnd[0].value = 40000; /* past the label numbers */
    a = rdx_uop_arg_ins(&in);
    ck_assert_int_eq(rdx_ir_make(c, RDX_OP_INS, NULL, 0, &a, 0, &u), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "N in 0..32767"), "%s", rdx_error_message());
    in.opnd[0].kind = 77;
    a = rdx_uop_arg_ins(&in);
    ck_assert_int_eq(rdx_ir_make(c, RDX_OP_INS, NULL, 0, &a, 0, &u), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "operand 0 has kind 77"), "%s", rdx_error_message());
    rdx_ir_ctx_destroy(c);
}
END_TEST

TCase *ir_tcase_text(void)
{
    TCase *tc = tcase_create("text");
    tcase_add_test(tc, data_files_roundtrip);
    tcase_add_test(tc, canonical_text_is_a_fixed_point);
    tcase_add_test(tc, every_arg_kind_roundtrips);
    tcase_add_test(tc, hand_written_text);
    tcase_add_test(tc, parse_errors);
    tcase_add_test(tc, parse_runs_the_verifier);
    tcase_add_test(tc, parser_survives_mutations);
    tcase_add_test(tc, ins_structured);
    tcase_set_timeout(tc, 60);
    return tc;
}
