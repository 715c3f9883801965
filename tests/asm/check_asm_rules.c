/*
 * tests/asm/check_asm_rules.c — the assembler and the operand rules of
 * rdx_isa_check (isa/isa_check.c): for every rule an accepted and a rejected
 * line.  A rejection is a diagnostic "FILE:LINE:COL: error: ... [rule NAME]";
 * an accepted line gives llvm-mc 19's bytes.  llvm-mc 19's verdict on each line
 * is written beside it and checked when llvm-mc 19 is installed (skipped
 * otherwise): it rejects what rdx rejects, except wmma-overlap, a hardware rule
 * llvm-mc 19 and 22 do not enforce (docs/asm.md, "Deliberately different").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>
#include <rdx/isa.h>

#include "tests/asm/asm_test.h"
#include "tests/harness/harness.h"

typedef struct rule_line {
    const char *target, *line;
    const char *rule;   /* NULL: accepted; else the rule rdx names */
    const char *llvm19; /* llvm-mc 19's verdict: NULL accepts, else a part of its message */
} rule_line;

static const rule_line lines[] = {
    /* constant bus: two scalar values at most */
    { "gfx1100", "v_fma_f32 v0, s1, s2, v3", NULL, NULL },
    { "gfx1100", "v_fma_f32 v0, s1, s2, s3", "constant-bus", "violates constant bus" },
    { "gfx1100", "v_lshlrev_b64 v[0:1], s1, s[2:3]", "constant-bus", "violates constant bus" },
    /* SGPR ranges: pairs even, 3+ registers on multiples of 4 */
    { "gfx1100", "s_mov_b64 s[0:1], s[2:3]", NULL, NULL },
    { "gfx1100", "s_mov_b64 s[0:1], s[3:4]", "sgpr-align", "invalid register alignment" },
    { "gfx1100", "s_load_b128 s[2:5], s[0:1], 0x0", "sgpr-align", "invalid register alignment" },
    /* VOPD destinations: one even, one odd */
    { "gfx1100", "v_dual_add_f32 v0, v1, v2 :: v_dual_mul_f32 v3, v4, v7", NULL, NULL },
    { "gfx1100", "v_dual_add_f32 v0, v1, v2 :: v_dual_mul_f32 v2, v4, v7", "vopd-dst",
      "one dst register must be even and the other odd" },
    /* VOPD banks: src0 v1 / v5 both bank 1 */
    { "gfx1100", "v_dual_add_f32 v0, v1, v2 :: v_dual_mul_f32 v3, v5, v7", "vopd-bank",
      "src0 operands must use different VGPR banks" },
    { "gfx1201", "v_dual_add_f32 v0, v1, v2 :: v_dual_mul_f32 v3, v5, v7", "vopd-bank",
      "src0 operands must use different VGPR banks" },
    /* fmamk's literal form: its VGPR is src2 (parity), no src1 bank rule against Y's src1 */
    { "gfx1100", "v_dual_fmamk_f32 v0, v1, 0x40400000, v2 :: v_dual_add_f32 v3, v4, v6", NULL,
      NULL },
    { "gfx1100",
      "v_dual_fmamk_f32 v0, v1, 0x40400000, v2 :: v_dual_fmamk_f32 v3, v4, 0x40400000, v6",
      "vopd-bank", "src2 operands must use different VGPR banks" },
    /* VOPD constant bus: vcc (cndmask), s1, s2 */
    { "gfx1100", "v_dual_cndmask_b32 v0, s1, v2 :: v_dual_mov_b32 v1, s1", NULL, NULL },
    { "gfx1100", "v_dual_cndmask_b32 v0, s1, v2 :: v_dual_mov_b32 v1, s2", "vopd-constant-bus",
      "violates constant bus" },
    /* 16-bit operands of e32/DPP forms: v0..v127 (without a suffix v200 takes e64) */
    { "gfx1100", "v_add_f16_e32 v1, v100, v2", NULL, NULL },
    { "gfx1100", "v_add_f16 v1, v200, v2", NULL, NULL },
    { "gfx1100", "v_add_f16_e32 v1, v200, v2", "vgpr16-e32",
      "operands are not valid for this GPU or mode" },
    { "gfx1100", "v_cmp_eq_f16_dpp vcc_lo, v200, v2 quad_perm:[0,1,2,3]", "vgpr16-e32",
      "invalid operand for instruction" },
    /* RDNA3 WMMA: D disjoint from A and B, C exactly or disjoint (llvm-mc accepts all) */
    { "gfx1100", "v_wmma_f32_16x16x16_f16 v[10:17], v[20:27], v[30:37], v[10:17]", NULL, NULL },
    { "gfx1100", "v_wmma_f32_16x16x16_f16 v[10:17], v[20:27], v[30:37], v[40:47]", NULL, NULL },
    { "gfx1100", "v_wmma_f32_16x16x16_f16 v[2:9], v[34:41], v[3:10], v[2:9]", "wmma-overlap",
      NULL },
    { "gfx1100", "v_wmma_f32_16x16x16_f16 v[10:17], v[10:17], v[30:37], v[40:47]", "wmma-overlap",
      NULL },
    { "gfx1100", "v_wmma_f32_16x16x16_f16 v[10:17], v[20:27], v[30:37], v[11:18]", "wmma-overlap",
      NULL },
    { "gfx1100", "v_wmma_i32_16x16x16_iu4 v[0:7], v[4:5], v[8:9], v[0:7]", "wmma-overlap", NULL },
};

/* llvm-mc (19, or the `mc` given) on one line: 1 accepted (bytes in out/len), 0 rejected (message
 * in err). */
static int llvm19(const char *mc, const char *target, const char *line, uint8_t *out, size_t *len,
                  char *err, size_t cap)
{
    char mcpu[32];
    snprintf(mcpu, sizeof mcpu, "-mcpu=%s", target);
    const char *argv[] = { mc, "-triple=amdgcn-amd-amdhsa", mcpu, "-show-encoding", NULL };
    rdx_test_proc p;
    rdx_test_run(argv, line, strlen(line), &p);
    snprintf(err, cap, "%s", p.err ? p.err : "");
    int ok = p.status == 0 && !strstr(p.err, "error");
    *len = 0;
    const char *e = ok ? strstr(p.out, "encoding: [") : NULL;
    for (e = e ? e + 11 : NULL; e && *e && *e != ']' && *len < RDX_ISA_MAX_BYTES;) {
        out[(*len)++] = (uint8_t)strtoul(e, (char **)&e, 0);
        if (*e == ',')
            e++;
    }
    rdx_test_proc_free(&p);
    return ok;
}

START_TEST(operand_rules)
{
    const rule_line *l = &lines[_i];
    rdx_asm_options o = { .filename = "rules.s", .arch = l->target };
    rdx_asm_result *r = NULL;
    rdx_status st = rdx_asm_assemble(l->line, strlen(l->line), &o, &r);
    ck_assert_ptr_nonnull(r);
    if (l->rule) {
        ck_assert_msg(st != RDX_OK && r->ndiags == 1, "%s: '%s' accepted", l->target, l->line);
        char want[80];
        snprintf(want, sizeof want, "[rule %s]", l->rule);
        const rdx_asm_diag *d = &r->diags[0];
        ck_assert_msg(d->line == 1 && d->col >= 1 && !strncmp(d->text, "rules.s:1:", 10) &&
                          strstr(d->text, ": error: ") && strstr(d->text, want),
                      "%s: '%s': %s", l->target, l->line, d->text);
    } else {
        ck_assert_msg(st == RDX_OK, "%s: '%s': %s", l->target, l->line,
                      r->ndiags ? r->diags[0].text : rdx_error_message());
    }
    const char *mc = rdx_test_llvm_tool_version("llvm-mc", 19);
    if (mc) {
        uint8_t b[RDX_ISA_MAX_BYTES];
        size_t n;
        char err[1024];
        int ok = llvm19(mc, l->target, l->line, b, &n, err, sizeof err);
        if (l->llvm19)
            ck_assert_msg(!ok && strstr(err, l->llvm19), "llvm-mc 19 on '%s': %s", l->line, err);
        else
            ck_assert_msg(ok, "llvm-mc 19 rejects '%s': %s", l->line, err);
        if (!l->rule) {
            int text = rdx_asm_find_section(r, ".text");
            ck_assert_int_ge(text, 0);
            ck_assert_msg(r->sections[text].size == n && !memcmp(r->sections[text].data, b, n),
                          "'%s': other bytes than llvm-mc 19", l->line);
        }
    }
    rdx_asm_free(r);
}
END_TEST

/* lit(N): LLVM 22's forced literal (it prints literals that have an inline encoding this
   way); rdx encodes a literal dword as llvm-mc 22 does (llvm-mc 19 takes the syntax but
   encodes the inline constant).  Checked against llvm-mc 22 when it is installed. */
START_TEST(forced_literals_as_llvm22)
{
    static const struct {
        const char *target, *line;
        uint8_t b[12];
        size_t n;
    } cases[] = {
        { "gfx1100",
          "v_add_f32 v0, lit(0x3f800000), v1",
          { 0xff, 0x02, 0x00, 0x06, 0x00, 0x00, 0x80, 0x3f },
          8 },
        { "gfx1100",
          "s_mov_b32 s0, lit(0x40)",
          { 0xff, 0x00, 0x80, 0xbe, 0x40, 0x00, 0x00, 0x00 },
          8 },
        { "gfx1100",
          "s_min_i32 s33, ttmp12, lit(0x3f000000)",
          { 0x78, 0xff, 0x21, 0x89, 0x00, 0x00, 0x00, 0x3f },
          8 },
        { "gfx1201",
          "v_add_f32 v0, lit(0x3f800000), v1",
          { 0xff, 0x02, 0x00, 0x06, 0x00, 0x00, 0x80, 0x3f },
          8 },
    };
    const char *mc = rdx_test_llvm_tool_version("llvm-mc", 22);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const rdx_isa_target *t = rdx_isa_target_find(cases[i].target);
        uint8_t out[RDX_ISA_MAX_BYTES];
        size_t n = 0;
        ck_assert_msg(rdx_asm_assemble_inst(t, cases[i].line, out, &n) == RDX_OK, "'%s': %s",
                      cases[i].line, rdx_error_message());
        ck_assert_msg(n == cases[i].n && !memcmp(out, cases[i].b, n), "'%s': other bytes",
                      cases[i].line);
        if (mc) {
            uint8_t b[RDX_ISA_MAX_BYTES];
            size_t bn;
            char err[1024];
            ck_assert_msg(llvm19(mc, cases[i].target, cases[i].line, b, &bn, err, sizeof err) &&
                              bn == n && !memcmp(b, out, n),
                          "llvm-mc 22 on '%s': %s", cases[i].line, err);
        }
    }
    /* lit() of something that is not a 32-bit integer, or where no literal fits */
    uint8_t out[RDX_ISA_MAX_BYTES];
    size_t n;
    const rdx_isa_target *t = rdx_isa_target_find("gfx1100");
    ck_assert_int_ne(rdx_asm_assemble_inst(t, "v_add_f32 v0, lit(v1), v2", out, &n), RDX_OK);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "lit() takes a 32-bit integer"));
    ck_assert_int_ne(rdx_asm_assemble_inst(t, "v_add_f32_e32 v0, v1, lit(1)", out, &n), RDX_OK);
}
END_TEST

void asm_add_rule_tests(Suite *s)
{
    TCase *tc = tcase_create("rules");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, operand_rules, 0, (int)(sizeof lines / sizeof lines[0]));
    tcase_add_test(tc, forced_literals_as_llvm22);
    suite_add_tcase(s, tc);
}
