/*
 * tests/isa/check_isa_api.c — instructions built through the C API (no text)
 * encoded by rdx and compared with llvm-mc's bytes for the equivalent line;
 * invalid instructions rejected with messages naming the operand; random and
 * mutated bytes into the decoder; staleness of the generated tables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codeobj.h>
#include <rdx/isa.h>

#include "tests/harness/harness.h"
#include "tests/isa/isa_test.h"

static rdx_isa_inst mk(rdx_isa_op op, rdx_isa_form form, unsigned n, const rdx_isa_opnd *o)
{
    rdx_isa_inst in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)op;
    in.form = (uint8_t)form;
    in.nopnd = (uint8_t)n;
    for (unsigned i = 0; i < n; i++)
        in.opnd[i] = o[i];
    return in;
}

#define OPS(...)                                                                       \
    (sizeof((rdx_isa_opnd[]){ __VA_ARGS__ }) / sizeof(rdx_isa_opnd)), (rdx_isa_opnd[]) \
    {                                                                                  \
        __VA_ARGS__                                                                    \
    }

typedef struct api_case {
    const char *target;
    const char *text; /* what llvm-mc assembles to the same bytes */
    rdx_isa_inst in;
} api_case;

static api_case *build_cases(size_t *n)
{
    static api_case c[64];
    size_t k = 0;
    rdx_isa_inst in;
    /* VOP2 e32 */
    c[k++] = (api_case){ "gfx1100", "v_add_f32_e32 v0, v1, v2",
                         mk(RDX_ISA_OP_V_ADD_F32, RDX_ISA_FORM_E32,
                            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_vgpr(2, 1))) };
    /* literal in e32 */
    c[k++] =
        (api_case){ "gfx1100", "v_mul_f32_e32 v3, 0x3e800001, v4",
                    mk(RDX_ISA_OP_V_MUL_F32, RDX_ISA_FORM_AUTO,
                       OPS(rdx_isa_vgpr(3, 1), rdx_isa_literal(0x3e800001), rdx_isa_vgpr(4, 1))) };
    c[k - 1].in.form = RDX_ISA_FORM_E32;
    /* VOP3 promotion with modifiers */
    in = mk(RDX_ISA_OP_V_ADD_F32, RDX_ISA_FORM_E64,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_sgpr(2, 1)));
    in.mod[RDX_ISA_MOD_NEG] = 1;
    in.mod[RDX_ISA_MOD_ABS] = 2;
    in.mod[RDX_ISA_MOD_CLAMP] = 1;
    c[k++] = (api_case){ "gfx1100", "v_add_f32_e64 v0, -v1, |s2| clamp", in };
    /* VOP3 native with inline float and int */
    c[k++] = (api_case){ "gfx1100", "v_fma_f32 v0, v1, 2.0, -4",
                         mk(RDX_ISA_OP_V_FMA_F32, RDX_ISA_FORM_E64,
                            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1),
                                rdx_isa_float(RDX_ISA_FCONST_2_0), rdx_isa_int(-4))) };
    /* VOP3SD */
    c[k++] = (api_case){ "gfx1100", "v_add_co_u32 v0, vcc_lo, v1, v2",
                         mk(RDX_ISA_OP_V_ADD_CO_U32, RDX_ISA_FORM_E64,
                            OPS(rdx_isa_vgpr(0, 1), rdx_isa_special(RDX_ISA_REG_VCC_LO, 1),
                                rdx_isa_vgpr(1, 1), rdx_isa_vgpr(2, 1))) };
    /* VOPC e32 with implicit vcc */
    c[k++] = (api_case){ "gfx1100", "v_cmp_lt_f32_e32 vcc_lo, v1, v2",
                         mk(RDX_ISA_OP_V_CMP_LT_F32, RDX_ISA_FORM_E32,
                            OPS(rdx_isa_special(RDX_ISA_REG_VCC_LO, 1), rdx_isa_vgpr(1, 1),
                                rdx_isa_vgpr(2, 1))) };
    /* VOPC e64 to an SGPR */
    c[k++] = (api_case){ "gfx1100", "v_cmp_lt_f32_e64 s4, v1, 0.5",
                         mk(RDX_ISA_OP_V_CMP_LT_F32, RDX_ISA_FORM_E64,
                            OPS(rdx_isa_sgpr(4, 1), rdx_isa_vgpr(1, 1),
                                rdx_isa_float(RDX_ISA_FCONST_0_5))) };
    /* DPP16 */
    in = mk(RDX_ISA_OP_V_ADD_F32, RDX_ISA_FORM_DPP16,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_vgpr(2, 1)));
    in.mod[RDX_ISA_MOD_DPP_CTRL] = 0x111;
    in.mod[RDX_ISA_MOD_ROW_MASK] = 0xf;
    in.mod[RDX_ISA_MOD_BANK_MASK] = 0xf;
    c[k++] = (api_case){ "gfx1100", "v_add_f32_dpp v0, v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf",
                         in };
    /* DPP8 */
    in = mk(RDX_ISA_OP_V_ADD_F32, RDX_ISA_FORM_DPP8,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_vgpr(2, 1)));
    in.mod[RDX_ISA_MOD_DPP8] = 7 | 6 << 3 | 5 << 6 | 4 << 9 | 3 << 12 | 2 << 15 | 1 << 18;
    in.mod[RDX_ISA_MOD_FI] = 1;
    c[k++] = (api_case){ "gfx1100", "v_add_f32_dpp v0, v1, v2 dpp8:[7,6,5,4,3,2,1,0] fi:1", in };
    /* VOP3P */
    in = mk(RDX_ISA_OP_V_PK_FMA_F16, RDX_ISA_FORM_E64,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_vgpr(2, 1), rdx_isa_vgpr(3, 1)));
    in.mod[RDX_ISA_MOD_OP_SEL] = 1;
    in.mod[RDX_ISA_MOD_OP_SEL_HI] = 6;
    in.mod[RDX_ISA_MOD_NEG] = 1;
    in.mod[RDX_ISA_MOD_NEG_HI] = 4;
    c[k++] = (api_case){ "gfx1100",
                         "v_pk_fma_f16 v0, v1, v2, v3 op_sel:[1,0,0] op_sel_hi:[0,1,1] "
                         "neg_lo:[1,0,0] neg_hi:[0,0,1]",
                         in };
    /* SOP2, SOPK, SOPP */
    c[k++] =
        (api_case){ "gfx1100", "s_add_u32 s0, s1, 0x12345",
                    mk(RDX_ISA_OP_S_ADD_U32, RDX_ISA_FORM_AUTO,
                       OPS(rdx_isa_sgpr(0, 1), rdx_isa_sgpr(1, 1), rdx_isa_literal(0x12345))) };
    c[k++] = (api_case){ "gfx1100", "s_movk_i32 s0, 0x1234",
                         mk(RDX_ISA_OP_S_MOVK_I32, RDX_ISA_FORM_AUTO,
                            OPS(rdx_isa_sgpr(0, 1), rdx_isa_imm(0x1234))) };
    c[k++] = (api_case){ "gfx1100", "s_waitcnt vmcnt(0) lgkmcnt(0)",
                         mk(RDX_ISA_OP_S_WAITCNT, RDX_ISA_FORM_AUTO, OPS(rdx_isa_imm(7))) };
    /* SMEM */
    c[k++] = (api_case){ "gfx1100", "s_load_b128 s[4:7], s[0:1], 0x10",
                         mk(RDX_ISA_OP_S_LOAD_B128, RDX_ISA_FORM_AUTO,
                            OPS(rdx_isa_sgpr(4, 4), rdx_isa_sgpr(0, 2), rdx_isa_imm(0x10))) };
    /* global load with saddr and offset; global store with off */
    in = mk(RDX_ISA_OP_GLOBAL_LOAD_B32, RDX_ISA_FORM_AUTO,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_sgpr(2, 2)));
    in.mod[RDX_ISA_MOD_OFFSET] = -16;
    in.mod[RDX_ISA_MOD_GLC] = 1;
    c[k++] = (api_case){ "gfx1100", "global_load_b32 v0, v1, s[2:3] offset:-16 glc", in };
    c[k++] = (api_case){ "gfx1100", "global_store_b32 v[4:5], v2, off",
                         mk(RDX_ISA_OP_GLOBAL_STORE_B32, RDX_ISA_FORM_AUTO,
                            OPS(rdx_isa_vgpr(4, 2), rdx_isa_vgpr(2, 1), rdx_isa_off())) };
    /* DS */
    in = mk(RDX_ISA_OP_DS_LOAD_2ADDR_B32, RDX_ISA_FORM_AUTO,
            OPS(rdx_isa_vgpr(0, 2), rdx_isa_vgpr(2, 1)));
    in.mod[RDX_ISA_MOD_OFFSET0] = 4;
    in.mod[RDX_ISA_MOD_OFFSET1] = 8;
    c[k++] = (api_case){ "gfx1100", "ds_load_2addr_b32 v[0:1], v2 offset0:4 offset1:8", in };
    in =
        mk(RDX_ISA_OP_DS_STORE_B32, RDX_ISA_FORM_AUTO, OPS(rdx_isa_vgpr(1, 1), rdx_isa_vgpr(2, 1)));
    in.mod[RDX_ISA_MOD_OFFSET] = 65535;
    c[k++] = (api_case){ "gfx1100", "ds_store_b32 v1, v2 offset:65535", in };
    /* MUBUF */
    in = mk(RDX_ISA_OP_BUFFER_LOAD_B32, RDX_ISA_FORM_AUTO,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_sgpr(4, 4), rdx_isa_sgpr(8, 1)));
    in.mod[RDX_ISA_MOD_OFFEN] = 1;
    in.mod[RDX_ISA_MOD_OFFSET] = 4;
    c[k++] = (api_case){ "gfx1100", "buffer_load_b32 v0, v1, s[4:7], s8 offen offset:4", in };
    /* VOPD pair */
    in = mk(RDX_ISA_OP_V_DUAL_ADD_F32, RDX_ISA_FORM_NATIVE,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_vgpr(2, 1), rdx_isa_vgpr(3, 1),
                rdx_isa_vgpr(4, 1), rdx_isa_vgpr(5, 1)));
    in.op_y = RDX_ISA_OP_V_DUAL_MUL_F32;
    in.nx = 3;
    c[k++] = (api_case){ "gfx1100", "v_dual_add_f32 v0, v1, v2 :: v_dual_mul_f32 v3, v4, v5", in };
    /* SOPP branch, SOPK hwreg, VOP1 readfirstlane (from the extra table) */
    c[k++] = (api_case){ "gfx1100", "s_branch 5",
                         mk(RDX_ISA_OP_S_BRANCH, RDX_ISA_FORM_AUTO,
                            OPS((rdx_isa_opnd){ RDX_ISA_OPND_BRANCH, 0, 0, 5 })) };
    c[k++] = (api_case){ "gfx1100", "s_getreg_b32 s0, hwreg(HW_REG_MODE)",
                         mk(RDX_ISA_OP_S_GETREG_B32, RDX_ISA_FORM_AUTO,
                            OPS(rdx_isa_sgpr(0, 1), rdx_isa_imm(0xf801))) };
    c[k++] = (api_case){ "gfx1100", "v_readfirstlane_b32 s3, v7",
                         mk(RDX_ISA_OP_V_READFIRSTLANE_B32, RDX_ISA_FORM_E32,
                            OPS(rdx_isa_sgpr(3, 1), rdx_isa_vgpr(7, 1))) };
    /* VOP2 with implicit vcc and fmaak's K */
    c[k++] = (api_case){ "gfx1100", "v_cndmask_b32_e32 v0, v1, v2, vcc_lo",
                         mk(RDX_ISA_OP_V_CNDMASK_B32, RDX_ISA_FORM_E32,
                            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_vgpr(2, 1),
                                rdx_isa_special(RDX_ISA_REG_VCC_LO, 1))) };
    c[k++] = (api_case){ "gfx1100", "v_fmaak_f32 v0, v1, v2, 0x40400000",
                         mk(RDX_ISA_OP_V_FMAAK_F32, RDX_ISA_FORM_E32,
                            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_vgpr(2, 1),
                                rdx_isa_literal(0x40400000))) };
    /* scratch with off vaddr, exp, MTBUF, MIMG, VINTERP, LDSDIR */
    in = mk(RDX_ISA_OP_SCRATCH_LOAD_B32, RDX_ISA_FORM_AUTO,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_off(), rdx_isa_sgpr(0, 1)));
    in.mod[RDX_ISA_MOD_OFFSET] = 16;
    c[k++] = (api_case){ "gfx1100", "scratch_load_b32 v0, off, s0 offset:16", in };
    in = mk(
        RDX_ISA_OP_EXP, RDX_ISA_FORM_AUTO,
        OPS(rdx_isa_imm(0), rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_off(), rdx_isa_off()));
    in.mod[RDX_ISA_MOD_DONE] = 1;
    c[k++] = (api_case){ "gfx1100", "exp mrt0 v0, v1, off, off done", in };
    in = mk(RDX_ISA_OP_TBUFFER_LOAD_FORMAT_X, RDX_ISA_FORM_AUTO,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_sgpr(0, 4), rdx_isa_sgpr(4, 1)));
    in.mod[RDX_ISA_MOD_OFFEN] = 1;
    in.mod[RDX_ISA_MOD_FORMAT] = 22; /* BUF_FMT_32_FLOAT */
    c[k++] = (api_case){ "gfx1100",
                         "tbuffer_load_format_x v0, v1, s[0:3], s4 format:[BUF_FMT_32_FLOAT] offen",
                         in };
    in = mk(RDX_ISA_OP_IMAGE_SAMPLE, RDX_ISA_FORM_AUTO,
            OPS(rdx_isa_vgpr(0, 4), rdx_isa_vgpr(4, 2), rdx_isa_sgpr(0, 8), rdx_isa_sgpr(8, 4)));
    in.mod[RDX_ISA_MOD_DMASK] = 0xf;
    in.mod[RDX_ISA_MOD_DIM] = 1;
    c[k++] = (api_case){ "gfx1100",
                         "image_sample v[0:3], v[4:5], s[0:7], s[8:11] dmask:0xf "
                         "dim:SQ_RSRC_IMG_2D",
                         in };
    in = mk(RDX_ISA_OP_IMAGE_SAMPLE, RDX_ISA_FORM_AUTO,
            OPS(rdx_isa_vgpr(0, 4), rdx_isa_vgpr(4, 1), rdx_isa_vgpr(6, 1), rdx_isa_sgpr(0, 8),
                rdx_isa_sgpr(8, 4)));
    in.nopnd = 5;
    in.mod[RDX_ISA_MOD_DMASK] = 0xf;
    in.mod[RDX_ISA_MOD_DIM] = 1;
    c[k++] = (api_case){ "gfx1100",
                         "image_sample v[0:3], [v4, v6], s[0:7], s[8:11] dmask:0xf "
                         "dim:SQ_RSRC_IMG_2D",
                         in };
    in = mk(RDX_ISA_OP_V_INTERP_P10_F32, RDX_ISA_FORM_AUTO,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_vgpr(2, 1), rdx_isa_vgpr(3, 1)));
    in.form = RDX_ISA_FORM_NATIVE;
    in.mod[RDX_ISA_MOD_WAIT_EXP] = 1;
    c[k++] = (api_case){ "gfx1100", "v_interp_p10_f32 v0, v1, v2, v3 wait_exp:1", in };
    c[k++] = (api_case){ "gfx1100", "lds_param_load v1, attr2.y wait_vdst:0",
                         mk(RDX_ISA_OP_LDS_PARAM_LOAD, RDX_ISA_FORM_NATIVE,
                            OPS(rdx_isa_vgpr(1, 1), rdx_isa_imm(2 * 4 + 1))) };
    /* returning / non-returning global atomics */
    in = mk(RDX_ISA_OP_GLOBAL_ATOMIC_ADD_U32, RDX_ISA_FORM_AUTO,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_vgpr(2, 1), rdx_isa_sgpr(0, 2)));
    in.mod[RDX_ISA_MOD_GLC] = 1;
    c[k++] = (api_case){ "gfx1100", "global_atomic_add_u32 v0, v1, v2, s[0:1] glc", in };
    c[k++] = (api_case){ "gfx1100", "global_atomic_add_u32 v1, v2, s[0:1]",
                         mk(RDX_ISA_OP_GLOBAL_ATOMIC_ADD_U32, RDX_ISA_FORM_AUTO,
                            OPS(rdx_isa_vgpr(1, 1), rdx_isa_vgpr(2, 1), rdx_isa_sgpr(0, 2))) };
    /* RDNA4 */
    in = mk(RDX_ISA_OP_BUFFER_LOAD_B32, RDX_ISA_FORM_AUTO,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_sgpr(4, 4), rdx_isa_sgpr(8, 1)));
    in.mod[RDX_ISA_MOD_OFFEN] = 1;
    in.mod[RDX_ISA_MOD_OFFSET] = 4;
    c[k++] = (api_case){ "gfx1201", "buffer_load_b32 v0, v1, s[4:7], s8 offen offset:4", in };
    in = mk(RDX_ISA_OP_V_WMMA_F32_16X16X16_F16, RDX_ISA_FORM_E64,
            OPS(rdx_isa_vgpr(0, 8), rdx_isa_vgpr(8, 4), rdx_isa_vgpr(12, 4), rdx_isa_vgpr(0, 8)));
    in.mod[RDX_ISA_MOD_OP_SEL_HI] = 7;
    c[k++] =
        (api_case){ "gfx1201", "v_wmma_f32_16x16x16_f16 v[0:7], v[8:11], v[12:15], v[0:7]", in };
    c[k++] = (api_case){ "gfx1201", "s_add_f32 s0, s1, s2",
                         mk(RDX_ISA_OP_S_ADD_F32, RDX_ISA_FORM_AUTO,
                            OPS(rdx_isa_sgpr(0, 1), rdx_isa_sgpr(1, 1), rdx_isa_sgpr(2, 1))) };
    in = mk(RDX_ISA_OP_GLOBAL_LOAD_B32, RDX_ISA_FORM_AUTO,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_sgpr(0, 2)));
    in.mod[RDX_ISA_MOD_OFFSET] = 16;
    c[k++] = (api_case){ "gfx1201", "global_load_b32 v0, v1, s[0:1] offset:16", in };
    *n = k;
    return c;
}

START_TEST(api_encode_matches_llvm_mc)
{
    size_t n;
    api_case *c = build_cases(&n);
    const char *mc = rdx_test_llvm_tool("llvm-mc");
    ck_assert_msg(mc != NULL, "llvm-mc not found");
    for (size_t i = 0; i < n; i++) {
        char cpu[64];
        snprintf(cpu, sizeof cpu, "-mcpu=%s", c[i].target);
        const char *argv[] = { mc, "-triple=amdgcn-amd-amdhsa", cpu, "-show-encoding", NULL };
        rdx_test_proc p;
        ck_assert_int_eq(rdx_test_run(argv, c[i].text, strlen(c[i].text), &p), 0);
        const char *enc = strstr(p.out, "encoding: [");
        ck_assert_msg(enc != NULL, "llvm-mc rejected '%s': %s", c[i].text, p.err);
        uint8_t want[32];
        size_t nw = 0;
        for (const char *q = enc + 11; *q && *q != ']' && nw < sizeof want;) {
            want[nw++] = (uint8_t)strtoul(q, (char **)&q, 16);
            if (*q == ',')
                q++;
        }
        rdx_test_proc_free(&p);
        const rdx_isa_target *t = rdx_isa_target_find(c[i].target);
        uint8_t out[RDX_ISA_MAX_BYTES];
        size_t len = 0;
        rdx_status st = rdx_isa_encode(t, &c[i].in, out, &len);
        ck_assert_msg(st == RDX_OK, "%s: %s", c[i].text, rdx_error_message());
        ck_assert_msg(len == nw && memcmp(out, want, nw) == 0, "%s: bytes differ from llvm-mc",
                      c[i].text);
        /* decode(encode(x)) == x (with the explicit form) */
        rdx_isa_inst back;
        size_t blen;
        ck_assert_int_eq(rdx_isa_decode(t, out, len, &back, &blen), RDX_OK);
        ck_assert_uint_eq(blen, len);
        rdx_isa_inst want_in = c[i].in;
        if (want_in.form == RDX_ISA_FORM_AUTO)
            want_in.form = back.form;
        ck_assert_msg(memcmp(&back, &want_in, sizeof back) == 0, "%s: decode(encode(x)) != x",
                      c[i].text);
    }
}
END_TEST

/* Encode `in` on `target`, expect `st` and a message containing `needle`. */
static void expect_error(const char *target, const rdx_isa_inst *in, rdx_status want,
                         const char *needle)
{
    uint8_t out[RDX_ISA_MAX_BYTES];
    size_t len;
    rdx_status st = rdx_isa_encode(rdx_isa_target_find(target), in, out, &len);
    ck_assert_msg(st == want, "expected status %d, got %d (%s)", want, st, rdx_error_message());
    ck_assert_msg(strstr(rdx_error_message(), needle) != NULL, "message '%s' lacks '%s'",
                  rdx_error_message(), needle);
}

START_TEST(api_encode_errors)
{
    /* VGPR where only scalar operands fit */
    rdx_isa_inst in = mk(RDX_ISA_OP_S_ADD_U32, RDX_ISA_FORM_AUTO,
                         OPS(rdx_isa_sgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_sgpr(2, 1)));
    expect_error("gfx1100", &in, RDX_ERR_INVALID, "operand 1 (src0)");
    /* a second distinct literal */
    in = mk(RDX_ISA_OP_S_ADD_U32, RDX_ISA_FORM_AUTO,
            OPS(rdx_isa_sgpr(0, 1), rdx_isa_literal(100), rdx_isa_literal(200)));
    expect_error("gfx1100", &in, RDX_ERR_INVALID, "operand 2 (src1): a second distinct literal");
    /* the same literal twice is one literal */
    in = mk(RDX_ISA_OP_S_ADD_U32, RDX_ISA_FORM_AUTO,
            OPS(rdx_isa_sgpr(0, 1), rdx_isa_literal(100), rdx_isa_literal(100)));
    uint8_t out[RDX_ISA_MAX_BYTES];
    size_t len;
    ck_assert_int_eq(rdx_isa_encode(rdx_isa_target_find("gfx1100"), &in, out, &len), RDX_OK);
    ck_assert_uint_eq(len, 8);
    /* out-of-range offset */
    in = mk(RDX_ISA_OP_GLOBAL_LOAD_B32, RDX_ISA_FORM_AUTO,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_sgpr(2, 2)));
    in.mod[RDX_ISA_MOD_OFFSET] = 4096;
    expect_error("gfx1100", &in, RDX_ERR_RANGE, "modifier offset value 4096 out of range");
    /* an op the target lacks */
    in = mk(RDX_ISA_OP_S_ADD_F32, RDX_ISA_FORM_AUTO,
            OPS(rdx_isa_sgpr(0, 1), rdx_isa_sgpr(1, 1), rdx_isa_sgpr(2, 1)));
    expect_error("gfx1100", &in, RDX_ERR_UNSUPPORTED, "s_add_f32: not available on gfx1100");
    /* misaligned register range */
    in = mk(RDX_ISA_OP_S_LOAD_B128, RDX_ISA_FORM_AUTO,
            OPS(rdx_isa_sgpr(2, 4), rdx_isa_sgpr(0, 2), rdx_isa_imm(0)));
    expect_error("gfx1100", &in, RDX_ERR_INVALID, "operand 0 (sdata): misaligned SGPR range");
    /* wrong width */
    in = mk(RDX_ISA_OP_S_LOAD_B128, RDX_ISA_FORM_AUTO,
            OPS(rdx_isa_sgpr(4, 2), rdx_isa_sgpr(0, 2), rdx_isa_imm(0)));
    expect_error("gfx1100", &in, RDX_ERR_INVALID, "operand 0 (sdata): an SGPR range of 2");
    /* inline constant out of range */
    in = mk(RDX_ISA_OP_V_ADD_F32, RDX_ISA_FORM_E32,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_int(65), rdx_isa_vgpr(2, 1)));
    expect_error("gfx1100", &in, RDX_ERR_RANGE, "operand 1 (src0): inline integer 65");
    /* SGPR where e32 src1 needs a VGPR */
    in = mk(RDX_ISA_OP_V_ADD_F32, RDX_ISA_FORM_E32,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_sgpr(2, 1)));
    expect_error("gfx1100", &in, RDX_ERR_INVALID, "operand 2 (src1): an SGPR is not accepted");
    /* modifier the form lacks */
    in = mk(RDX_ISA_OP_V_ADD_F32, RDX_ISA_FORM_E32,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_vgpr(2, 1)));
    in.mod[RDX_ISA_MOD_CLAMP] = 1;
    expect_error("gfx1100", &in, RDX_ERR_INVALID, "modifier clamp not available in the e32 form");
    /* wrong operand count */
    in.mod[RDX_ISA_MOD_CLAMP] = 0;
    in.nopnd = 2;
    expect_error("gfx1100", &in, RDX_ERR_INVALID, "expects 3 operands, got 2");
    /* a literal with DPP */
    in = mk(RDX_ISA_OP_V_ADD_F32, RDX_ISA_FORM_DPP16,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_literal(5), rdx_isa_vgpr(2, 1)));
    expect_error("gfx1100", &in, RDX_ERR_INVALID, "DPP needs a VGPR as src0");
    /* DPP on an op LLVM has no DPP form for (64-bit operands) */
    in = mk(RDX_ISA_OP_V_CEIL_F64, RDX_ISA_FORM_DPP16, OPS(rdx_isa_vgpr(0, 2), rdx_isa_vgpr(2, 2)));
    in.mod[RDX_ISA_MOD_ROW_MASK] = 0xf;
    expect_error("gfx1100", &in, RDX_ERR_UNSUPPORTED, "v_ceil_f64: no dpp form on gfx1100");
    /* VOPD: both src0 in bank 1, and two even destinations */
    in = mk(RDX_ISA_OP_V_DUAL_ADD_F32, RDX_ISA_FORM_NATIVE,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_vgpr(2, 1), rdx_isa_vgpr(3, 1),
                rdx_isa_vgpr(5, 1), rdx_isa_vgpr(7, 1)));
    in.op_y = RDX_ISA_OP_V_DUAL_MUL_F32;
    in.nx = 3;
    expect_error("gfx1100", &in, RDX_ERR_INVALID, "src0 operands v1 and v5 must use different");
    in.opnd[4] = rdx_isa_vgpr(4, 1);
    in.opnd[3] = rdx_isa_vgpr(6, 1);
    expect_error("gfx1100", &in, RDX_ERR_INVALID, "one even and one odd");
    /* constant bus: three distinct SGPRs; a literal counts; null is free */
    in = mk(RDX_ISA_OP_V_FMA_F32, RDX_ISA_FORM_E64,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_sgpr(1, 1), rdx_isa_sgpr(2, 1), rdx_isa_sgpr(3, 1)));
    expect_error("gfx1100", &in, RDX_ERR_INVALID, "reads 3 scalar values");
    in.opnd[3] = rdx_isa_literal(0x1234);
    expect_error("gfx1100", &in, RDX_ERR_INVALID, "reads 3 scalar values");
    in.opnd[2] = rdx_isa_special(RDX_ISA_REG_NULL, 1);
    ck_assert_int_eq(rdx_isa_encode(rdx_isa_target_find("gfx1100"), &in, out, &len), RDX_OK);
    in.opnd[2] = rdx_isa_sgpr(1, 1); /* the same SGPR twice is one value */
    ck_assert_int_eq(rdx_isa_encode(rdx_isa_target_find("gfx1100"), &in, out, &len), RDX_OK);
    in = mk(RDX_ISA_OP_V_LSHLREV_B64, RDX_ISA_FORM_E64,
            OPS(rdx_isa_vgpr(0, 2), rdx_isa_sgpr(0, 1), rdx_isa_sgpr(2, 2)));
    expect_error("gfx1100", &in, RDX_ERR_INVALID, "the constant bus allows 1");
    /* VOPD constant bus: cndmask's vcc + s1 + s2 is three scalar values */
    in = mk(RDX_ISA_OP_V_DUAL_CNDMASK_B32, RDX_ISA_FORM_NATIVE,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_sgpr(1, 1), rdx_isa_vgpr(2, 1), rdx_isa_vgpr(3, 1),
                rdx_isa_sgpr(2, 1), rdx_isa_vgpr(5, 1)));
    in.op_y = RDX_ISA_OP_V_DUAL_MUL_F32;
    in.nx = 3;
    expect_error("gfx1100", &in, RDX_ERR_INVALID, "the pair reads 3 scalar values");
    in.opnd[4] = rdx_isa_sgpr(1, 1);
    ck_assert_int_eq(rdx_isa_encode(rdx_isa_target_find("gfx1100"), &in, out, &len), RDX_OK);
    /* VOP3 DPP: src1 must be a VGPR on RDNA3 (RDNA4 takes SGPRs and constants) */
    in = mk(RDX_ISA_OP_V_ADD_F32, RDX_ISA_FORM_E64_DPP16,
            OPS(rdx_isa_vgpr(0, 1), rdx_isa_vgpr(1, 1), rdx_isa_sgpr(2, 1)));
    in.mod[RDX_ISA_MOD_DPP_CTRL] = 0x140;
    in.mod[RDX_ISA_MOD_ROW_MASK] = 0xf;
    in.mod[RDX_ISA_MOD_BANK_MASK] = 0xf;
    expect_error("gfx1100", &in, RDX_ERR_INVALID, "operand 2 (src1): VOP3 DPP on gfx110x needs");
    ck_assert_int_eq(rdx_isa_encode(rdx_isa_target_find("gfx1201"), &in, out, &len), RDX_OK);
    /* VGPR out of range */
    in = mk(RDX_ISA_OP_V_MOV_B32, RDX_ISA_FORM_E32, OPS(rdx_isa_vgpr(256, 1), rdx_isa_vgpr(1, 1)));
    expect_error("gfx1100", &in, RDX_ERR_RANGE, "operand 0 (vdst): register 256..256 out of range");
}
END_TEST

/* The ISA target table and the code-object target table agree (name, ELF mach, family). */
START_TEST(targets_agree_with_codeobj)
{
    for (size_t i = 0; i < rdx_isa_target_count(); i++) {
        const rdx_isa_target *t = rdx_isa_target_at(i);
        const rdx_codeobj_target *c = rdx_codeobj_target_find(t->name);
        ck_assert_msg(c != NULL, "%s unknown to the code-object layer", t->name);
        ck_assert_uint_eq(c->mach, t->elf_mach);
        ck_assert_uint_eq(c->major, t->family == RDX_ISA_FAMILY_RDNA3 ? 11 : 12);
    }
}
END_TEST

/* rdx_isa_constant picks what llvm-mc picks for the same literal text. */
START_TEST(constants_match_llvm_mc)
{
    static const struct {
        const char *fmt_text; /* printf format with %s for the constant */
        rdx_isa_op op;
        rdx_isa_form form;
        unsigned size;
        rdx_isa_fmt fmt;
        uint64_t bits;
        const char *bits_text;
    } cases[] = {
        { "v_add_f32_e32 v0, %s, v1", RDX_ISA_OP_V_ADD_F32, RDX_ISA_FORM_E32, 32, RDX_ISA_FMT_F32,
          0x3f800000, "0x3f800000" },
        { "v_add_f32_e32 v0, %s, v1", RDX_ISA_OP_V_ADD_F32, RDX_ISA_FORM_E32, 32, RDX_ISA_FMT_F32,
          0x3e22f983, "0x3e22f983" },
        { "v_add_f32_e32 v0, %s, v1", RDX_ISA_OP_V_ADD_F32, RDX_ISA_FORM_E32, 32, RDX_ISA_FMT_F32,
          1, "0x1" },
        { "v_add_f32_e32 v0, %s, v1", RDX_ISA_OP_V_ADD_F32, RDX_ISA_FORM_E32, 32, RDX_ISA_FMT_F32,
          0x3f800001, "0x3f800001" },
        { "v_add_nc_u32_e32 v0, %s, v1", RDX_ISA_OP_V_ADD_NC_U32, RDX_ISA_FORM_E32, 32,
          RDX_ISA_FMT_B, 0x3f800000, "0x3f800000" },
        { "v_add_nc_u32_e32 v0, %s, v1", RDX_ISA_OP_V_ADD_NC_U32, RDX_ISA_FORM_E32, 32,
          RDX_ISA_FMT_B, 0xfffffff0, "-16" },
        { "v_add_nc_u32_e32 v0, %s, v1", RDX_ISA_OP_V_ADD_NC_U32, RDX_ISA_FORM_E32, 32,
          RDX_ISA_FMT_B, 0xffffffef, "-17" },
        { "v_add_f16_e32 v0, %s, v1", RDX_ISA_OP_V_ADD_F16, RDX_ISA_FORM_E32, 16, RDX_ISA_FMT_F16,
          0x3118, "0x3118" },
        { "v_add_f16_e32 v0, %s, v1", RDX_ISA_OP_V_ADD_F16, RDX_ISA_FORM_E32, 16, RDX_ISA_FMT_F16,
          0xc400, "0xc400" },
        { "v_add_f16_e32 v0, %s, v1", RDX_ISA_OP_V_ADD_F16, RDX_ISA_FORM_E32, 16, RDX_ISA_FMT_F16,
          0x3c01, "0x3c01" },
        { "v_add_f64 v[0:1], %s, v[2:3]", RDX_ISA_OP_V_ADD_F64, RDX_ISA_FORM_E64, 64,
          RDX_ISA_FMT_F64, 0x4000000000000000ull, "0x4000000000000000" },
        { "v_add_f64 v[0:1], %s, v[2:3]", RDX_ISA_OP_V_ADD_F64, RDX_ISA_FORM_E64, 64,
          RDX_ISA_FMT_F64, 0x3fc45f306dc9c882ull, "0x3fc45f306dc9c882" },
        { "v_add_f64 v[0:1], %s, v[2:3]", RDX_ISA_OP_V_ADD_F64, RDX_ISA_FORM_E64, 64,
          RDX_ISA_FMT_F64, 0x4001000000000000ull, "0x40010000" }, /* LLVM writes the high half */
        { "v_add_f64 v[0:1], %s, v[2:3]", RDX_ISA_OP_V_ADD_F64, RDX_ISA_FORM_E64, 64,
          RDX_ISA_FMT_F64, 0x4001000000000001ull, "0x4001000000000001" }, /* no encoding */
        { "s_mov_b64 s[0:1], %s", RDX_ISA_OP_S_MOV_B64, RDX_ISA_FORM_AUTO, 64, RDX_ISA_FMT_B,
          0x1234567800000000ull, "0x1234567800000000" }, /* no encoding */
        { "s_mov_b64 s[0:1], %s", RDX_ISA_OP_S_MOV_B64, RDX_ISA_FORM_AUTO, 64, RDX_ISA_FMT_B,
          (uint64_t)-200, "-200" },
        { "s_mov_b64 s[0:1], %s", RDX_ISA_OP_S_MOV_B64, RDX_ISA_FORM_AUTO, 64, RDX_ISA_FMT_B, 64,
          "64" },
    };
    const rdx_isa_target *t = rdx_isa_target_find("gfx1100");
    const char *mc = rdx_test_llvm_tool("llvm-mc");
    ck_assert_ptr_nonnull(mc);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, cases[i].fmt_text, cases[i].bits_text);
        rdx_isa_opnd k;
        rdx_isa_inst in;
        memset(&in, 0, sizeof in);
        in.op = (uint16_t)cases[i].op;
        in.form = (uint8_t)cases[i].form;
        in.nopnd = 3;
        rdx_status st = rdx_isa_constant(cases[i].bits, cases[i].size, cases[i].fmt, &k);
        const char *argv[] = { mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-show-encoding",
                               NULL };
        rdx_test_proc p;
        rdx_test_run(argv, text, strlen(text), &p);
        const char *enc = strstr(p.out, "encoding: [");
        if (!enc) { /* llvm-mc rejects it: rdx must too */
            ck_assert_msg(st == RDX_ERR_RANGE, "%s: llvm-mc rejects, rdx gave status %d", text, st);
            rdx_test_proc_free(&p);
            continue;
        }
        ck_assert_msg(st == RDX_OK, "%s: %s", text, rdx_error_message());
        uint8_t want[32];
        size_t nw = 0;
        for (const char *q = enc + 11; *q && *q != ']' && nw < sizeof want;) {
            want[nw++] = (uint8_t)strtoul(q, (char **)&q, 16);
            if (*q == ',')
                q++;
        }
        rdx_test_proc_free(&p);
        if (cases[i].op == RDX_ISA_OP_S_MOV_B64) {
            in.nopnd = 2;
            in.opnd[0] = rdx_isa_sgpr(0, 2);
            in.opnd[1] = k;
        } else {
            unsigned regs = cases[i].size == 64 ? 2 : 1;
            in.opnd[0] = rdx_isa_vgpr(0, regs);
            in.opnd[1] = k;
            in.opnd[2] = rdx_isa_vgpr(regs == 2 ? 2 : 1, regs);
        }
        uint8_t out[RDX_ISA_MAX_BYTES];
        size_t len;
        ck_assert_msg(rdx_isa_encode(t, &in, out, &len) == RDX_OK, "%s: %s", text,
                      rdx_error_message());
        ck_assert_msg(len == nw && memcmp(out, want, nw) == 0, "%s: bytes differ from llvm-mc",
                      text);
    }
}
END_TEST

/* wave64: lane masks decode as pairs, the way llvm-mc prints them with +wavefrontsize64. */
START_TEST(wave64_lane_masks)
{
    static const char *const lines[] = {
        "v_cmp_lt_f32_e64 s[2:3], v1, v2",
        "v_cmp_lt_f32_e32 vcc, v1, v2",
        "v_cndmask_b32_e64 v0, v1, v2, s[4:5]",
        "v_cndmask_b32_e32 v0, v1, v2, vcc",
        "v_add_co_u32 v0, s[6:7], v1, v2",
        "v_add_co_ci_u32_e32 v0, vcc, v1, v2, vcc",
        "v_add_co_ci_u32_e64 v0, s[6:7], v1, v2, s[8:9]",
        "v_div_scale_f32 v0, vcc, v1, v2, v3",
    };
    const char *targets[] = { "gfx1100", "gfx1201" };
    const char *mc = rdx_test_llvm_tool("llvm-mc");
    ck_assert_ptr_nonnull(mc);
    for (int ti = 0; ti < 2; ti++) {
        const rdx_isa_target *t = rdx_isa_target_find(targets[ti]);
        char cpu[32];
        snprintf(cpu, sizeof cpu, "-mcpu=%s", targets[ti]);
        for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
            const char *argv[] = {
                mc,  "-triple=amdgcn-amd-amdhsa", cpu, "-mattr=+wavefrontsize64", "-show-encoding",
                NULL
            };
            rdx_test_proc p;
            rdx_test_run(argv, lines[i], strlen(lines[i]), &p);
            const char *enc = strstr(p.out, "encoding: [");
            ck_assert_msg(enc != NULL, "llvm-mc rejected '%s': %s", lines[i], p.err);
            uint8_t b[32];
            size_t nb = 0;
            for (const char *q = enc + 11; *q && *q != ']' && nb < sizeof b;) {
                b[nb++] = (uint8_t)strtoul(q, (char **)&q, 16);
                if (*q == ',')
                    q++;
            }
            rdx_test_proc_free(&p);
            rdx_isa_inst in;
            size_t len;
            ck_assert_int_eq(rdx_isa_decode_wave(t, 64, b, nb, &in, &len), RDX_OK);
            ck_assert_uint_eq(len, nb);
            llvm_opnd lo[8];
            unsigned nx, n = llvm_text_operands(lines[i], lo, 8, &nx);
            ck_assert_uint_eq(n, in.nopnd);
            for (unsigned k = 0; k < n; k++) {
                if (lo[k].kind == LLVM_SGPR)
                    ck_assert_msg(in.opnd[k].kind == RDX_ISA_OPND_SGPR &&
                                      in.opnd[k].count == lo[k].count,
                                  "%s: operand %u", lines[i], k);
                if (lo[k].kind == LLVM_SPECIAL)
                    ck_assert_msg(in.opnd[k].kind == RDX_ISA_OPND_SPECIAL && in.opnd[k].count == 2,
                                  "%s: operand %u should be vcc (a pair)", lines[i], k);
            }
            uint8_t out[RDX_ISA_MAX_BYTES];
            size_t elen;
            ck_assert_msg(rdx_isa_encode(t, &in, out, &elen) == RDX_OK, "%s: %s", lines[i],
                          rdx_error_message());
            ck_assert(elen == nb && memcmp(out, b, nb) == 0);
        }
    }
    rdx_isa_inst in;
    size_t len;
    const uint8_t nop[4] = { 0, 0, 0x80, 0xbf };
    ck_assert_int_eq(rdx_isa_decode_wave(rdx_isa_target_find("gfx1100"), 16, nop, 4, &in, &len),
                     RDX_ERR_INVALID);
}
END_TEST

START_TEST(fconst_bits_roundtrip)
{
    static const unsigned sizes[] = { 16, 32, 64 };
    for (int c = 0; c < RDX_ISA_FCONST_COUNT; c++)
        for (int k = 0; k < 3; k++) {
            rdx_isa_fmt fmt = sizes[k] == 16   ? RDX_ISA_FMT_F16
                              : sizes[k] == 32 ? RDX_ISA_FMT_F32
                                               : RDX_ISA_FMT_F64;
            rdx_isa_opnd o;
            ck_assert_int_eq(rdx_isa_constant(rdx_isa_fconst_bits((rdx_isa_fconst)c, sizes[k], fmt),
                                              sizes[k], fmt, &o),
                             RDX_OK);
            ck_assert_int_eq(o.kind, RDX_ISA_OPND_FLOAT);
            ck_assert_int_eq(o.value, c);
        }
    /* independent values: 1.0 in each width, 1/(2pi) in f32 */
    ck_assert_uint_eq(rdx_isa_fconst_bits(RDX_ISA_FCONST_1_0, 16, RDX_ISA_FMT_F16), 0x3c00);
    ck_assert_uint_eq(rdx_isa_fconst_bits(RDX_ISA_FCONST_1_0, 16, RDX_ISA_FMT_BF16), 0x3f80);
    ck_assert_uint_eq(rdx_isa_fconst_bits(RDX_ISA_FCONST_1_0, 32, RDX_ISA_FMT_F32), 0x3f800000);
    ck_assert_uint_eq(rdx_isa_fconst_bits(RDX_ISA_FCONST_1_0, 64, RDX_ISA_FMT_F64),
                      0x3ff0000000000000ull);
    float inv2pi = (float)(1.0 / (2.0 * 3.14159265358979323846));
    uint32_t u;
    memcpy(&u, &inv2pi, 4);
    ck_assert_uint_eq(rdx_isa_fconst_bits(RDX_ISA_FCONST_INV_2PI, 32, RDX_ISA_FMT_F32), u);
    ck_assert_uint_eq(rdx_isa_fconst_bits(RDX_ISA_FCONST_COUNT, 32, RDX_ISA_FMT_F32), 0);
}
END_TEST

/* Assemble `text` with llvm-mc for `target`; rdx decodes the bytes to LLVM's
 * operand list and re-encodes them exactly. */
static void check_llvm_line(const char *target, const char *text)
{
    const char *mc = rdx_test_llvm_tool("llvm-mc");
    ck_assert_ptr_nonnull(mc);
    char cpu[32];
    snprintf(cpu, sizeof cpu, "-mcpu=%s", target);
    const char *argv[] = { mc, "-triple=amdgcn-amd-amdhsa", cpu, "-show-encoding", NULL };
    rdx_test_proc p;
    rdx_test_run(argv, text, strlen(text), &p);
    const char *enc = strstr(p.out, "encoding: [");
    ck_assert_msg(enc != NULL, "llvm-mc rejected '%s': %s", text, p.err);
    uint8_t b[32];
    size_t nb = 0;
    for (const char *q = enc + 11; *q && *q != ']' && nb < sizeof b;) {
        b[nb++] = (uint8_t)strtoul(q, (char **)&q, 16);
        if (*q == ',')
            q++;
    }
    rdx_test_proc_free(&p);
    const rdx_isa_target *t = rdx_isa_target_find(target);
    rdx_isa_inst in;
    size_t len;
    ck_assert_msg(rdx_isa_decode(t, b, nb, &in, &len) == RDX_OK, "%s: %s", text,
                  rdx_error_message());
    ck_assert_uint_eq(len, nb);
    llvm_opnd lo[RDX_ISA_MAX_OPNDS + 4];
    unsigned nx, n = llvm_text_operands(text, lo, RDX_ISA_MAX_OPNDS + 4, &nx);
    ck_assert_msg(n == in.nopnd, "%s: %u operands, rdx %u", text, n, in.nopnd);
    for (unsigned k = 0; k < n; k++)
        if (lo[k].kind == LLVM_VGPR || lo[k].kind == LLVM_SGPR)
            ck_assert_msg(in.opnd[k].reg == lo[k].reg && in.opnd[k].count == lo[k].count,
                          "%s: operand %u is %u x%u in rdx", text, k, in.opnd[k].reg,
                          in.opnd[k].count);
    uint8_t out[RDX_ISA_MAX_BYTES];
    size_t elen;
    ck_assert_msg(rdx_isa_encode(t, &in, out, &elen) == RDX_OK, "%s: %s", text,
                  rdx_error_message());
    ck_assert_msg(elen == nb && memcmp(out, b, nb) == 0, "%s: re-encoded bytes differ", text);
}

/* BVH ray intersection: address groups (node, extent, origin, dir, inverse dir). */
START_TEST(bvh_addresses)
{
    check_llvm_line("gfx1100", "image_bvh_intersect_ray v[4:7], v[9:19], s[4:7]");
    check_llvm_line("gfx1100", "image_bvh64_intersect_ray v[4:7], v[9:20], s[4:7]");
    check_llvm_line("gfx1100", "image_bvh_intersect_ray v[4:7], v[9:16], s[4:7] a16");
    check_llvm_line("gfx1100",
                    "image_bvh_intersect_ray v[4:7], [v9, v10, v[11:13], v[14:16], v[17:19]], "
                    "s[4:7]");
    check_llvm_line("gfx1201",
                    "image_bvh_intersect_ray v[4:7], [v9, v10, v[11:13], v[14:16], v[17:19]], "
                    "s[4:7]");
    check_llvm_line("gfx1201",
                    "image_bvh64_intersect_ray v[4:7], [v[9:10], v11, v[12:14], v[15:17], "
                    "v[18:20]], s[4:7]");
    check_llvm_line("gfx1201",
                    "image_bvh_intersect_ray v[4:7], [v9, v10, v[11:13], v[14:16]], s[4:7] a16");
}
END_TEST

START_TEST(api_lookup)
{
    rdx_isa_op op;
    rdx_isa_form form;
    ck_assert_int_eq(rdx_isa_op_find("v_add_f32_e64", &op, &form), RDX_OK);
    ck_assert_int_eq(op, RDX_ISA_OP_V_ADD_F32);
    ck_assert_int_eq(form, RDX_ISA_FORM_E64);
    ck_assert_str_eq(rdx_isa_op_name(op), "v_add_f32");
    ck_assert_int_eq(rdx_isa_op_find("v_bogus", &op, &form), RDX_ERR_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "v_bogus"));
    const rdx_isa_target *t = rdx_isa_target_find("gfx1100");
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(t->family, RDX_ISA_FAMILY_RDNA3);
    ck_assert_uint_eq(t->elf_mach, 0x41);
    ck_assert(rdx_isa_target_supports_wave_size(t, 64));
    ck_assert(!rdx_isa_op_available(t, RDX_ISA_OP_S_ADD_F32));
    ck_assert(rdx_isa_op_available(rdx_isa_target_find("gfx1201"), RDX_ISA_OP_S_ADD_F32));
    ck_assert_ptr_null(rdx_isa_target_find("gfx9000"));
    const rdx_isa_form_info *fi;
    ck_assert_int_eq(rdx_isa_op_form(t, RDX_ISA_OP_V_FMA_F32, RDX_ISA_FORM_E64, &fi), RDX_OK);
    ck_assert_int_eq(fi->enc, RDX_ISA_ENC_VOP3);
    ck_assert_uint_eq(fi->opcode, 531);
    ck_assert_uint_eq(fi->nopnd, 4);
    ck_assert_int_eq(fi->opnd[0].role, RDX_ISA_ROLE_VDST);
    ck_assert_int_eq(fi->opnd[3].role, RDX_ISA_ROLE_SRC2);
    ck_assert_int_eq(fi->opnd[1].fmt, RDX_ISA_FMT_F32);
    ck_assert(fi->opnd[1].kinds & RDX_ISA_KIND_BIT(RDX_ISA_OPND_LITERAL));
    ck_assert_int_eq(rdx_isa_op_form(t, RDX_ISA_OP_V_FMA_F32, RDX_ISA_FORM_E32, &fi),
                     RDX_ERR_UNSUPPORTED);
    ck_assert(rdx_isa_mod_allowed(t, RDX_ISA_OP_V_FMA_F32, RDX_ISA_FORM_E64, RDX_ISA_MOD_CLAMP));
    ck_assert(!rdx_isa_mod_allowed(t, RDX_ISA_OP_V_ADD_F32, RDX_ISA_FORM_E32, RDX_ISA_MOD_CLAMP));
}
END_TEST

static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

START_TEST(decode_random_bytes_never_crash)
{
    for (size_t ti = 0; ti < rdx_isa_target_count(); ti++) {
        const rdx_isa_target *t = rdx_isa_target_at(ti);
        unsigned ok = 0;
        for (int iter = 0; iter < 200000; iter++) {
            uint8_t b[RDX_ISA_MAX_BYTES + 8];
            for (size_t i = 0; i < sizeof b; i++)
                b[i] = (uint8_t)rnd();
            size_t avail = rnd() % (sizeof b + 1);
            /* heap copy of exactly `avail` bytes so ASan catches over-reads */
            uint8_t *h = malloc(avail ? avail : 1);
            memcpy(h, b, avail);
            rdx_isa_inst in;
            size_t len = 0;
            if (rdx_isa_decode(t, h, avail, &in, &len) == RDX_OK) {
                ok++;
                ck_assert_uint_le(len, avail);
                uint8_t out[RDX_ISA_MAX_BYTES];
                size_t elen;
                /* a decoded instruction either re-encodes or is rejected cleanly */
                (void)rdx_isa_encode(t, &in, out, &elen);
            }
            free(h);
        }
        ck_assert_uint_gt(ok, 0);
    }
}
END_TEST

START_TEST(decode_mutated_corpus_never_crash)
{
    const char *files[] = { "tests/data/isa/gfx1100.txt", "tests/data/isa/gfx1201.txt" };
    const char *targets[] = { "gfx1100", "gfx1201" };
    for (int f = 0; f < 2; f++) {
        char *data = rdx_test_read_file(files[f], NULL);
        const rdx_isa_target *t = rdx_isa_target_find(targets[f]);
        unsigned lines = 0;
        for (char *line = data; line && *line;) {
            char *nl = strchr(line, '\n');
            if (nl)
                *nl = 0;
            char *tab = strchr(line, '\t');
            if (*line != '#' && tab && (lines++ % 7) == 0) {
                uint8_t b[RDX_ISA_MAX_BYTES];
                size_t nb = 0;
                for (char *p = line; p + 1 < tab && nb < sizeof b; p += 2) {
                    char hx[3] = { p[0], p[1], 0 };
                    b[nb++] = (uint8_t)strtoul(hx, NULL, 16);
                }
                for (int m = 0; m < 8; m++) {
                    uint8_t c[RDX_ISA_MAX_BYTES];
                    memcpy(c, b, nb);
                    c[rnd() % nb] ^= (uint8_t)(1u << (rnd() % 8));
                    size_t cut = (m & 1) ? rnd() % (nb + 1) : nb;
                    uint8_t *h = malloc(cut ? cut : 1);
                    memcpy(h, c, cut);
                    rdx_isa_inst in;
                    size_t len;
                    if (rdx_isa_decode(t, h, cut, &in, &len) == RDX_OK) {
                        uint8_t out[RDX_ISA_MAX_BYTES];
                        size_t elen;
                        (void)rdx_isa_encode(t, &in, out, &elen);
                    }
                    free(h);
                }
            }
            line = nl ? nl + 1 : NULL;
        }
        ck_assert_uint_gt(lines, 1000);
        free(data);
    }
}
END_TEST

START_TEST(tables_are_fresh)
{
    char *dir = rdx_test_tmp_path("gen");
    const char *argv[] = { "python3", "scripts/gen_isa_tables.py", "--out-dir", dir, NULL };
    rdx_test_proc p;
    ck_assert_msg(rdx_test_run(argv, NULL, 0, &p) == 0, "generator failed: %s", p.err);
    rdx_test_proc_free(&p);
    const char *files[] = { "include/rdx/isa_ops.h", "isa/gen/isa_tables.c",
                            "isa/gen/isa_tables.h" };
    for (int i = 0; i < 3; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        size_t a, b;
        char *fresh = rdx_test_read_file(path, &a);
        char *committed = rdx_test_read_file(files[i], &b);
        ck_assert_msg(a == b && memcmp(fresh, committed, a) == 0,
                      "%s is stale: run 'make isa-tables' and commit", files[i]);
        free(fresh);
        free(committed);
    }
    free(dir);
}
END_TEST

void isa_add_api_tests(Suite *s)
{
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, api_encode_matches_llvm_mc);
    tcase_add_test(tc, api_encode_errors);
    tcase_add_test(tc, api_lookup);
    tcase_add_test(tc, bvh_addresses);
    tcase_add_test(tc, fconst_bits_roundtrip);
    tcase_add_test(tc, wave64_lane_masks);
    tcase_add_test(tc, constants_match_llvm_mc);
    tcase_add_test(tc, targets_agree_with_codeobj);
    tcase_add_test(tc, decode_random_bytes_never_crash);
    tcase_add_test(tc, decode_mutated_corpus_never_crash);
    tcase_add_test(tc, tables_are_fresh);
    suite_add_tcase(s, tc);
}
