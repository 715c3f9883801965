/*
 * tests/isa/check_isa_random.c — random instructions built through the API:
 * whenever rdx_isa_encode accepts one, rdx_isa_decode of its bytes must give
 * the same instruction back (decode(encode(x)) == x), and the bytes must be
 * stable under a second round.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/isa.h>

#include "tests/harness/harness.h"
#include "tests/isa/isa_test.h"

static uint64_t rs = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (uint32_t)(rs >> 16);
}

static rdx_isa_opnd random_opnd(const rdx_isa_opnd_info *si)
{
    unsigned kinds[RDX_ISA_OPND_KIND_COUNT], nk = 0;
    for (unsigned k = 1; k < RDX_ISA_OPND_KIND_COUNT; k++)
        if (si->kinds & RDX_ISA_KIND_BIT(k))
            kinds[nk++] = k;
    if (!nk)
        return rdx_isa_imm(0);
    unsigned kind = kinds[rnd() % nk];
    unsigned count = si->bits <= 32 || si->fmt == RDX_ISA_FMT_LANEMASK ? 1 : si->bits / 32;
    unsigned align = count >= 4 ? 4 : count;
    switch (kind) {
    case RDX_ISA_OPND_SGPR:
        return rdx_isa_sgpr((rnd() % (106 - count + 1)) / align * align, count);
    case RDX_ISA_OPND_VGPR:
        return rdx_isa_vgpr(rnd() % (256 - count + 1), count);
    case RDX_ISA_OPND_TTMP:
        return rdx_isa_ttmp((rnd() % (16 - count + 1)) / align * align, count);
    case RDX_ISA_OPND_SPECIAL: {
        static const unsigned one[] = { RDX_ISA_REG_VCC_LO, RDX_ISA_REG_M0, RDX_ISA_REG_EXEC_LO,
                                        RDX_ISA_REG_NULL, RDX_ISA_REG_SCC };
        static const unsigned two[] = { RDX_ISA_REG_VCC_LO, RDX_ISA_REG_EXEC_LO, RDX_ISA_REG_NULL,
                                        RDX_ISA_REG_SHARED_BASE };
        if (count == 2)
            return rdx_isa_special(two[rnd() % 4], 2);
        return rdx_isa_special(one[rnd() % 5], 1);
    }
    case RDX_ISA_OPND_INT:
        return rdx_isa_int((int)(rnd() % 81) - 16);
    case RDX_ISA_OPND_FLOAT:
        return rdx_isa_float((rdx_isa_fconst)(rnd() % RDX_ISA_FCONST_COUNT));
    case RDX_ISA_OPND_LITERAL:
        return rdx_isa_literal(rnd() & 1 ? 0x12345678u : rnd());
    case RDX_ISA_OPND_IMM:
        return rdx_isa_imm(si->bits >= 31 ? (int32_t)(rnd() & 0xfff)
                                          : (int32_t)(rnd() & ((1u << si->bits) - 1)));
    case RDX_ISA_OPND_BRANCH:
        return (rdx_isa_opnd){ RDX_ISA_OPND_BRANCH, 0, 0, (int16_t)rnd() };
    case RDX_ISA_OPND_OFF:
    default:
        return rdx_isa_off();
    }
}

START_TEST(random_encode_decode_roundtrip)
{
    unsigned tried = 0, encoded = 0, bad = 0;
    for (size_t ti = 0; ti < rdx_isa_target_count(); ti++) {
        const rdx_isa_target *t = rdx_isa_target_at(ti);
        for (int iter = 0; iter < 60000; iter++) {
            rdx_isa_op op = (rdx_isa_op)(1 + rnd() % (RDX_ISA_OP_COUNT - 1));
            if (!rdx_isa_op_available(t, op))
                continue;
            rdx_isa_form form = (rdx_isa_form)(1 + rnd() % (RDX_ISA_FORM_COUNT - 1));
            const rdx_isa_form_info *fi;
            if (rdx_isa_op_form(t, op, form, &fi) != RDX_OK || fi->enc == RDX_ISA_ENC_VOPD)
                continue;
            tried++;
            rdx_isa_inst in;
            memset(&in, 0, sizeof in);
            in.op = (uint16_t)op;
            in.form = (uint8_t)form;
            in.nopnd = fi->nopnd;
            for (unsigned i = 0; i < fi->nopnd; i++)
                in.opnd[i] = random_opnd(&fi->opnd[i]);
            for (unsigned m = 0; m < RDX_ISA_MOD_COUNT; m++)
                if ((rnd() & 3) == 0 && rdx_isa_mod_allowed(t, op, form, (rdx_isa_mod)m))
                    in.mod[m] = m == RDX_ISA_MOD_DPP8 ? (int32_t)(rnd() & 0xffffff)
                                : (rnd() & 1)         ? (int32_t)(rnd() & 1)
                                                      : (int32_t)(rnd() % 8192) - 4096;
            uint8_t out[RDX_ISA_MAX_BYTES], out2[RDX_ISA_MAX_BYTES];
            size_t len, len2, dlen;
            if (rdx_isa_encode(t, &in, out, &len) != RDX_OK)
                continue;
            encoded++;
            rdx_isa_inst back;
            rdx_status st = rdx_isa_decode(t, out, len, &back, &dlen);
            /* documented alias: an SMEM offset operand of 0 and a null soffset are one
             * encoding; decode spells it as LLVM prints it for the family */
            if (st == RDX_OK && fi->enc == RDX_ISA_ENC_SMEM && in.nopnd == 3 && back.nopnd == 3) {
                rdx_isa_opnd *a = &in.opnd[2], *b = &back.opnd[2];
                bool a0 = a->kind == RDX_ISA_OPND_IMM && a->value == 0;
                bool an = a->kind == RDX_ISA_OPND_SPECIAL && a->reg == RDX_ISA_REG_NULL;
                bool b0 = b->kind == RDX_ISA_OPND_IMM && b->value == 0;
                bool bn = b->kind == RDX_ISA_OPND_SPECIAL && b->reg == RDX_ISA_REG_NULL;
                if ((a0 || an) && (b0 || bn))
                    *a = *b;
            }
            bool same = st == RDX_OK && dlen == len && memcmp(&back, &in, sizeof in) == 0;
            if (st == RDX_OK && rdx_isa_encode(t, &back, out2, &len2) == RDX_OK)
                same = same && len2 == len && memcmp(out, out2, len) == 0;
            if (!same && bad++ < 15) {
                printf("%s: %s form %s: decode(encode(x)) != x (%s)\n", t->name,
                       rdx_isa_op_name(op), rdx_isa_form_name(form),
                       st ? rdx_error_message() : "differs");
                for (unsigned i = 0; i < in.nopnd || i < back.nopnd; i++)
                    printf("   opnd %u: in kind %d reg %u count %u value %d | out kind %d reg %u "
                           "count %u value %d\n",
                           i, in.opnd[i].kind, in.opnd[i].reg, in.opnd[i].count, in.opnd[i].value,
                           back.opnd[i].kind, back.opnd[i].reg, back.opnd[i].count,
                           back.opnd[i].value);
                for (unsigned m = 0; m < RDX_ISA_MOD_COUNT; m++)
                    if (in.mod[m] != back.mod[m])
                        printf("   mod %s: in %d out %d\n", rdx_isa_mod_name((rdx_isa_mod)m),
                               in.mod[m], back.mod[m]);
                if (in.form != back.form || in.nopnd != back.nopnd)
                    printf("   form %d/%d nopnd %d/%d\n", in.form, back.form, in.nopnd, back.nopnd);
            }
        }
    }
    printf("random instructions: %u tried, %u encoded, %u round-trip failures\n", tried, encoded,
           bad);
    fflush(stdout);
    ck_assert_uint_gt(encoded, 1000);
    ck_assert_uint_eq(bad, 0);
}
END_TEST

/* Random VOPD pairs: any two VOPD ops (the X one from the X opcode range). */
START_TEST(random_vopd_roundtrip)
{
    unsigned encoded = 0, bad = 0;
    for (size_t ti = 0; ti < rdx_isa_target_count(); ti++) {
        const rdx_isa_target *t = rdx_isa_target_at(ti);
        rdx_isa_op vopd[64];
        unsigned n = 0;
        for (unsigned op = 1; op < RDX_ISA_OP_COUNT && n < 64; op++) {
            const rdx_isa_form_info *fi;
            if (rdx_isa_op_form(t, (rdx_isa_op)op, RDX_ISA_FORM_NATIVE, &fi) == RDX_OK &&
                fi->enc == RDX_ISA_ENC_VOPD)
                vopd[n++] = (rdx_isa_op)op;
        }
        ck_assert_uint_gt(n, 10);
        for (int iter = 0; iter < 20000; iter++) {
            rdx_isa_op x = vopd[rnd() % n], y = vopd[rnd() % n];
            const rdx_isa_form_info *fx, *fy;
            rdx_isa_op_form(t, x, RDX_ISA_FORM_NATIVE, &fx);
            rdx_isa_op_form(t, y, RDX_ISA_FORM_NATIVE, &fy);
            unsigned nx = fx->nopnd / 2, ny = fy->nopnd / 2;
            rdx_isa_inst in;
            memset(&in, 0, sizeof in);
            in.op = (uint16_t)x;
            in.op_y = (uint16_t)y;
            in.form = RDX_ISA_FORM_NATIVE;
            in.nx = (uint8_t)nx;
            in.nopnd = (uint8_t)(nx + ny);
            for (unsigned i = 0; i < nx; i++)
                in.opnd[i] = random_opnd(&fx->opnd[i]);
            for (unsigned i = 0; i < ny; i++)
                in.opnd[nx + i] = random_opnd(&fy->opnd[fy->nopnd - ny + i]);
            /* a shared K literal must be one value */
            for (unsigned i = 0; i < in.nopnd; i++)
                if (in.opnd[i].kind == RDX_ISA_OPND_LITERAL && (rnd() & 1))
                    in.opnd[i].value = 0x40400000;
            uint8_t out[RDX_ISA_MAX_BYTES], out2[RDX_ISA_MAX_BYTES];
            size_t len, len2, dlen;
            if (rdx_isa_encode(t, &in, out, &len) != RDX_OK)
                continue;
            encoded++;
            rdx_isa_inst back;
            rdx_status st = rdx_isa_decode(t, out, len, &back, &dlen);
            bool same = st == RDX_OK && dlen == len && memcmp(&back, &in, sizeof in) == 0 &&
                        rdx_isa_encode(t, &back, out2, &len2) == RDX_OK && len2 == len &&
                        memcmp(out, out2, len) == 0;
            if (!same && bad++ < 10) {
                printf("%s: %s :: %s: decode(encode(x)) != x (%s)\n", t->name, rdx_isa_op_name(x),
                       rdx_isa_op_name(y), st ? rdx_error_message() : "differs");
                for (unsigned i = 0; i < in.nopnd; i++)
                    printf("   opnd %u: in kind %d reg %u value %d | out kind %d reg %u value %d\n",
                           i, in.opnd[i].kind, in.opnd[i].reg, in.opnd[i].value, back.opnd[i].kind,
                           back.opnd[i].reg, back.opnd[i].value);
            }
        }
    }
    printf("random VOPD pairs: %u encoded, %u round-trip failures\n", encoded, bad);
    fflush(stdout);
    ck_assert_uint_gt(encoded, 500);
    ck_assert_uint_eq(bad, 0);
}
END_TEST

/* One random instruction of t (a VOPD pair one time in four) in *in; false when none. */
static bool random_inst(const rdx_isa_target *t, rdx_isa_inst *in)
{
    memset(in, 0, sizeof *in);
    rdx_isa_op op = (rdx_isa_op)(1 + rnd() % (RDX_ISA_OP_COUNT - 1));
    if (!rdx_isa_op_available(t, op))
        return false;
    rdx_isa_form form = (rdx_isa_form)(1 + rnd() % (RDX_ISA_FORM_COUNT - 1));
    const rdx_isa_form_info *fi, *fy;
    if (rdx_isa_op_form(t, op, form, &fi) != RDX_OK)
        return false;
    in->op = (uint16_t)op;
    in->form = (uint8_t)form;
    if (fi->enc == RDX_ISA_ENC_VOPD) {
        rdx_isa_op y = (rdx_isa_op)(1 + rnd() % (RDX_ISA_OP_COUNT - 1));
        if (rdx_isa_op_form(t, y, RDX_ISA_FORM_NATIVE, &fy) != RDX_OK ||
            fy->enc != RDX_ISA_ENC_VOPD)
            return false;
        unsigned nx = fi->nopnd / 2, ny = fy->nopnd / 2;
        in->op_y = (uint16_t)y;
        in->nx = (uint8_t)nx;
        in->nopnd = (uint8_t)(nx + ny);
        for (unsigned i = 0; i < nx; i++)
            in->opnd[i] = random_opnd(&fi->opnd[i]);
        for (unsigned i = 0; i < ny; i++)
            in->opnd[nx + i] = random_opnd(&fy->opnd[fy->nopnd - ny + i]);
        return true;
    }
    in->nopnd = fi->nopnd;
    bool low = rnd() & 1; /* VGPRs among v0..v31: overlapping ranges (WMMA) are common */
    for (unsigned i = 0; i < fi->nopnd; i++) {
        in->opnd[i] = random_opnd(&fi->opnd[i]);
        if (low && in->opnd[i].kind == RDX_ISA_OPND_VGPR)
            in->opnd[i].reg %= 24;
    }
    for (unsigned m = 0; m < RDX_ISA_MOD_COUNT; m++)
        if ((rnd() & 3) == 0 && rdx_isa_mod_allowed(t, op, form, (rdx_isa_mod)m))
            in->mod[m] = m == RDX_ISA_MOD_DPP8 ? (int32_t)(rnd() & 0xffffff)
                         : (rnd() & 1)         ? (int32_t)(rnd() & 1)
                                               : (int32_t)(rnd() % 8192) - 4096;
    return true;
}

/* rdx_isa_encode_checked runs the operand rules once, in the encoder, and must give what
   rdx_isa_encode followed by rdx_isa_check gives: the same status, message and bytes, for
   random instructions (WMMA overlaps, 16-bit VGPRs above v127, constant-bus and VOPD
   violations, DPP literals among them) with every flag combination the callers use. */
START_TEST(random_encode_checked_same_as_encode_then_check)
{
    static const unsigned flag_sets[] = { 0, RDX_ISA_CHECK_VGPR_NUMBERS, RDX_ISA_CHECK_WAVE64,
                                          RDX_ISA_CHECK_VGPR_NUMBERS | RDX_ISA_CHECK_WAVE64 };
    unsigned tried = 0, ok = 0, differ = 0, by_rule[RDX_ISA_RULE_COUNT] = { 0 };
    for (size_t ti = 0; ti < rdx_isa_target_count(); ti++) {
        const rdx_isa_target *t = rdx_isa_target_at(ti);
        for (int iter = 0; iter < 40000; iter++) {
            rdx_isa_inst in;
            if (!random_inst(t, &in))
                continue;
            unsigned flags = flag_sets[rnd() % 4];
            uint8_t a[RDX_ISA_MAX_BYTES], b[RDX_ISA_MAX_BYTES];
            size_t alen = 0, blen = 0;
            char amsg[512] = "", bmsg[512] = "";
            rdx_isa_rule rule = RDX_ISA_RULE_NONE;
            rdx_status sa = rdx_isa_encode(t, &in, a, &alen);
            if (!sa)
                sa = rdx_isa_check(t, &in, flags, &rule);
            if (sa)
                snprintf(amsg, sizeof amsg, "%s", rdx_error_message());
            rdx_status sb = rdx_isa_encode_checked(t, &in, flags, b, &blen);
            if (sb)
                snprintf(bmsg, sizeof bmsg, "%s", rdx_error_message());
            tried++;
            ok += !sa;
            by_rule[rule]++;
            bool same = sa == sb && strcmp(amsg, bmsg) == 0 &&
                        (sa || (alen == blen && memcmp(a, b, alen) == 0));
            if (!same && differ++ < 10)
                printf("%s: %s flags %u: encode+check %d '%s', encode_checked %d '%s'\n", t->name,
                       rdx_isa_op_name((rdx_isa_op)in.op), flags, sa, amsg, sb, bmsg);
        }
    }
    printf("encode_checked: %u tried, %u encoded and checked; after a successful encoding "
           "broken: constant-bus %u, vopd-bank %u, vgpr16-e32 %u, wmma-overlap %u; %u differ\n",
           tried, ok, by_rule[RDX_ISA_RULE_CONSTANT_BUS], by_rule[RDX_ISA_RULE_VOPD_BANK],
           by_rule[RDX_ISA_RULE_VGPR16_E32], by_rule[RDX_ISA_RULE_WMMA_OVERLAP], differ);
    fflush(stdout);
    ck_assert_uint_gt(ok, 1000);
    ck_assert_uint_gt(by_rule[RDX_ISA_RULE_VGPR16_E32], 10);
    ck_assert_uint_gt(by_rule[RDX_ISA_RULE_WMMA_OVERLAP], 10);
    ck_assert_uint_eq(differ, 0);
    uint8_t out[RDX_ISA_MAX_BYTES];
    size_t len;
    rdx_isa_inst nop = { .op = (uint16_t)RDX_ISA_OP_S_NOP, .nopnd = 1 };
    nop.opnd[0] = rdx_isa_imm(0);
    ck_assert_int_eq(
        rdx_isa_encode_checked(rdx_isa_target_at(0), &nop, RDX_ISA_CHECK_LLVM_ONLY, out, &len),
        RDX_ERR_INVALID);
}
END_TEST

void isa_add_random_tests(Suite *s)
{
    TCase *tc = tcase_create("random");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, random_encode_decode_roundtrip);
    tcase_add_test(tc, random_vopd_roundtrip);
    tcase_add_test(tc, random_encode_checked_same_as_encode_then_check);
    suite_add_tcase(s, tc);
}
