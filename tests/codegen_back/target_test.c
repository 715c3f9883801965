/*
 * tests/codegen_back/target_test.c — codegen/target.def's facts as the back end uses
 * them: the VGPR budget of a workgroup (cg_max_vgprs) and the user SGPR count
 * (cg_user_sgprs) per target, worked out by hand from the VGPR file, its granule and
 * the UserSGPRInit16Bug column; the gfx12 spellings of renamed ops (cg_target_op).
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/cg.h"
#include "tests/codegen_back/cgb_test.h"

static cg_prog prog(const char *target, uint32_t wg_items, int ids)
{
    cg_prog p;
    const rdx_isa_target *t = rdx_isa_target_find(target);
    ck_assert_ptr_nonnull(t);
    cg_prog_init(&p, t);
    ck_assert_str_eq(p.ct->name, target);
    p.wg_items = wg_items;
    for (int d = 0; d < ids; d++)
        p.wgid_enable[d] = 1;
    return p;
}

START_TEST(vgpr_budget_per_target)
{
    /* waves per SIMD = ceil(ceil(items / 32) / 4); budget = file / that, down to the
       granule, at most 256 */
    static const struct {
        const char *t;
        uint32_t items, want;
    } cases[] = {
        { "gfx1100", 1024, 192 }, /* 8 waves/SIMD: 1536 / 8 = 192 */
        { "gfx1102", 1024, 128 }, /* 1024 / 8 = 128 */
        { "gfx1150", 1024, 128 }, { "gfx1151", 1024, 192 }, { "gfx1201", 1024, 192 },
        { "gfx1100", 768, 240 }, /* 6 waves/SIMD: 1536 / 6 = 256, to 24s */
        { "gfx1102", 768, 160 }, /* 1024 / 6 = 170, down to 16s */
        { "gfx1101", 640, 256 }, /* 5 waves/SIMD: 1536 / 5 = 307 -> 288, capped at 256 */
        { "gfx1150", 640, 192 }, /* 1024 / 5 = 204, down to 16s */
        { "gfx1102", 256, 256 }, /* 2 waves/SIMD: 512, capped */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cg_prog p = prog(cases[i].t, cases[i].items, 1);
        ck_assert_msg(cg_max_vgprs(&p) == cases[i].want, "%s, %u work-items: %u VGPRs, want %u",
                      cases[i].t, cases[i].items, cg_max_vgprs(&p), cases[i].want);
        cg_prog_free(&p);
    }
}
END_TEST

START_TEST(user_sgprs_per_target)
{
    /* padded to 16 - ids on gfx1100/gfx1102 only; 2 (the kernarg pointer) elsewhere */
    static const char *const padded[] = { "gfx1100", "gfx1102" };
    static const char *const plain[] = { "gfx1101", "gfx1150", "gfx1151", "gfx1200", "gfx1201" };
    for (int ids = 1; ids <= 3; ids++) {
        for (size_t i = 0; i < 2; i++) {
            cg_prog p = prog(padded[i], 256, ids);
            ck_assert_uint_eq(cg_user_sgprs(&p), 16u - (unsigned)ids);
            cg_prog_free(&p);
        }
        for (size_t i = 0; i < 5; i++) {
            cg_prog p = prog(plain[i], 256, ids);
            ck_assert_uint_eq(cg_user_sgprs(&p), 2);
            cg_prog_free(&p);
        }
    }
}
END_TEST

START_TEST(gfx12_spellings)
{
    const rdx_isa_target *g11 = rdx_isa_target_find("gfx1151"),
                         *g12 = rdx_isa_target_find("gfx1201");
    static const struct {
        unsigned from, to;
    } r[] = {
        { RDX_ISA_OP_S_ADD_I32, RDX_ISA_OP_S_ADD_CO_I32 },
        { RDX_ISA_OP_S_ADDC_U32, RDX_ISA_OP_S_ADD_CO_CI_U32 },
        { RDX_ISA_OP_V_MAX_F32, RDX_ISA_OP_V_MAX_NUM_F32 },
        { RDX_ISA_OP_V_DUAL_MIN_F32, RDX_ISA_OP_V_DUAL_MIN_NUM_F32 },
        { RDX_ISA_OP_V_MAD_U64_U32, RDX_ISA_OP_V_MAD_CO_U64_U32 },
        { RDX_ISA_OP_S_WAITCNT_DEPCTR, RDX_ISA_OP_S_WAIT_ALU },
        { RDX_ISA_OP_V_ADD_F32, RDX_ISA_OP_V_ADD_F32 }, /* not renamed */
    };
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        ck_assert_uint_eq(cg_target_op(g11, r[i].from), r[i].from);
        ck_assert_uint_eq(cg_target_op(g12, r[i].from), r[i].to);
        /* the gfx12 op exists there, and the form lookup answers for the gfx11 op */
        ck_assert(rdx_isa_op_available(g12, (rdx_isa_op)r[i].to));
        ck_assert_ptr_nonnull(cg_form(g12, (rdx_isa_op)r[i].from, RDX_ISA_FORM_AUTO));
    }
    /* every op the renames produce is one the gfx11 targets lack (a rename, not a choice) */
    ck_assert(!rdx_isa_op_available(g12, RDX_ISA_OP_S_ADD_I32));
    ck_assert(!rdx_isa_op_available(g12, RDX_ISA_OP_V_MAX_F32));
    ck_assert_uint_eq(cg_target_count(), 7);
    ck_assert_ptr_null(cg_target_find("gfx1103"));
    ck_assert_ptr_null(cg_target_at(7));
}
END_TEST

/* Two independent v_max_f32 (the back end's op) fuse into one VOPD on gfx1100 and on
   gfx1201, where the pair is v_dual_max_num_f32 (the pairing's encoder probe must take the
   target's spelling, else gfx12 never pairs them). */
static cg_inst vmax(unsigned d, unsigned a, unsigned b)
{
    cg_inst in;
    memset(&in, 0, sizeof in);
    in.in.op = RDX_ISA_OP_V_MAX_F32;
    in.in.form = RDX_ISA_FORM_E32;
    in.in.nopnd = 3;
    in.in.opnd[0] = rdx_isa_vgpr(d, 1);
    in.in.opnd[1] = rdx_isa_vgpr(a, 1);
    in.in.opnd[2] = rdx_isa_vgpr(b, 1);
    in.ndef = 1;
    in.target = -1;
    return in;
}

START_TEST(vopd_max_per_target)
{
    static const char *const tg[] = { "gfx1100", "gfx1201" };
    cg_prog p;
    cg_prog_init(&p, rdx_isa_target_find(tg[_i]));
    ck_assert_int_eq(cg_block_new(&p), 0);
    cg_inst a = vmax(1, 2, 3), b = vmax(4, 5, 6), end;
    memset(&end, 0, sizeof end);
    end.in.op = RDX_ISA_OP_S_ENDPGM;
    end.in.form = RDX_ISA_FORM_NATIVE;
    end.target = -1;
    ck_assert_int_eq(cg_block_push(&p, 0, &a), RDX_OK);
    ck_assert_int_eq(cg_block_push(&p, 0, &b), RDX_OK);
    ck_assert_int_eq(cg_block_push(&p, 0, &end), RDX_OK);
    p.blocks[0].succ[0] = p.blocks[0].succ[1] = -1;
    ck_assert_uint_eq(cg_vopd(&p), 1);
    ck_assert_uint_eq(p.blocks[0].n, 2);
    char *txt = NULL;
    ck_assert_int_eq(cg_print(&p, 1, &txt), RDX_OK);
    ck_assert_msg(strstr(txt, _i ? "v_dual_max_num_f32" : "v_dual_max_f32"), "%s", txt);
    free(txt);
    cg_prog_free(&p);
}
END_TEST

/* A literal 1.0f in v_max_f32 becomes the inline constant on gfx1201 too (the encoder
   probe takes the target's spelling, v_max_num_f32). */
START_TEST(inline_constant_renamed_op)
{
    cg_prog p;
    cg_prog_init(&p, rdx_isa_target_find("gfx1201"));
    ck_assert_int_eq(cg_block_new(&p), 0);
    cg_inst a = vmax(1, 2, 3);
    a.in.form = RDX_ISA_FORM_E64;
    a.in.opnd[2] = rdx_isa_literal(0x3f800000u);
    ck_assert_int_eq(cg_block_push(&p, 0, &a), RDX_OK);
    ck_assert_uint_eq(cg_inline_constants(&p), 1);
    ck_assert_int_eq(p.blocks[0].insts[0].in.opnd[2].kind, RDX_ISA_OPND_FLOAT);
    cg_prog_free(&p);
}
END_TEST

TCase *cgb_tcase_targets(void)
{
    TCase *tc = tcase_create("targets");
    tcase_add_test(tc, vgpr_budget_per_target);
    tcase_add_test(tc, user_sgprs_per_target);
    tcase_add_test(tc, gfx12_spellings);
    tcase_add_loop_test(tc, vopd_max_per_target, 0, 2);
    tcase_add_test(tc, inline_constant_renamed_op);
    return tc;
}
