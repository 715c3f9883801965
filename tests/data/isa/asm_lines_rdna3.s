# Regression lines for rdx as against llvm-mc 19 (tests/isa/check_isa_asmlines.c):
# each is accepted by rdx exactly when llvm-mc accepts it, with llvm-mc's bytes.
# VOPD: K constants of any value, per-half operand formats
v_dual_fmaak_f32 v86, 48, v236, 0x30 :: v_dual_dot2acc_f32_f16 v27, 48, v75
v_dual_sub_f32 v131, -1.0, v18 :: v_dual_fmaak_f32 v192, 50, v103, 0x32
v_dual_fmamk_f32 v251, -9, 0x25, v64 :: v_dual_add_nc_u32 v30, s95, v183
v_dual_mov_b32 v250, exec_hi :: v_dual_fmamk_f32 v11, 42, 0xfffffff6, v121
v_dual_fmamk_f32 v54, 0, 0x0, v86 :: v_dual_and_b32 v129, v91, v223
v_dual_mov_b32 v7, src_scc :: v_dual_dot2acc_f32_f16 v190, 0xc0000000, v209
v_dual_dot2acc_f32_f16 v200, 0xbf800000, v135 :: v_dual_max_f32 v189, s27, v73
v_dual_cndmask_b32 v98, -4.0, v0 :: v_dual_fmamk_f32 v35, 1.0, 0xc0000000, v16
# VOPD banks: fmamk's VGPR is src2, fmaak's K is src2, fmac/dot2acc read vdst as src2
v_dual_fmamk_f32 v1, v2, 0x1234, v16 :: v_dual_mul_f32 v2, v3, v20
v_dual_fmamk_f32 v1, v2, 0x1234, v16 :: v_dual_fmamk_f32 v2, v3, 0x1234, v20
v_dual_fmamk_f32 v1, v2, 0x1234, v16 :: v_dual_fmac_f32 v4, v3, v21
v_dual_fmac_f32 v12, v3, v21 :: v_dual_fmamk_f32 v1, v2, 0x1234, v16
v_dual_fmamk_f32 v1, v2, 0x1234, v16 :: v_dual_fmaak_f32 v2, v3, v20, 0x1234
v_dual_fmaak_f32 v1, v2, v16, 0x1234 :: v_dual_mul_f32 v2, v3, v20
v_dual_fmaak_f32 v1, v2, v16, 0x1234 :: v_dual_fmamk_f32 v2, v3, 0x1234, v20
v_dual_fmac_f32 v1, v2, v16 :: v_dual_fmac_f32 v4, v3, v21
v_dual_dot2acc_f32_f16 v1, v2, v16 :: v_dual_fmamk_f32 v4, v3, 0x1234, v21
v_dual_fmamk_f32 v5, v3, 0x1234, v21 :: v_dual_fmac_f32 v2, v2, v16
v_dual_fmamk_f32 v5, v3, 0x1234, v21 :: v_dual_fmamk_f32 v6, v2, 0x1234, v17
v_dual_fmamk_f32 v5, v3, 0x1234, v20 :: v_dual_fmamk_f32 v6, v2, 0x1234, v17
# SMEM base pairs vcc, exec, null
s_load_b32 s0, vcc, 0x0
s_load_b32 s0, exec, 0x0
s_load_b32 s0, null, 0x0
s_load_b128 s[16:19], vcc, 0xd513b
s_load_b32 s0, m0, 0x0
s_buffer_load_b32 s0, vcc, 0x0
# VALU scalar destinations: src_scc, and src_shared/private_* for lane masks
v_cmp_eq_u32_e64 src_scc, v1, v2
v_cmp_eq_u32_e64 src_shared_base, v1, v2
v_cmp_o_f64_e64 src_scc, -4.0, 0xbd0d4ded
v_cmp_lt_i32_e64 src_private_limit, exec_hi, 0
v_add_co_u32 v0, src_vccz, v1, v2
v_readfirstlane_b32 src_scc, v1
v_readfirstlane_b32 src_shared_base, v1
v_cmp_eq_u32_e64 src_lds_direct, v1, v2
# s_version with symbolic expressions
s_version 156|UC_VERSION_W64_BIT
s_version (39|UC_VERSION_W32_BIT)|UC_VERSION_MDP_BIT
s_version UC_VERSION_GFX11|UC_VERSION_W32_BIT
# 32-bit literals of 32-bit sources of 16-bit-looking ops
v_cmp_class_f16_e64 ttmp10, ttmp4, 0xc4000000
v_cmpx_class_f16_e64 m0, 0x7fa3825c
v_alignbyte_b32 v107, v120, s29, 0x4002f
v_alignbit_b32 v73, 63, 4, 0xb8000000
# llvm-mc accepts these but encodes another register ('!': rdx must reject them)
!v_add_co_u32 v0, src_private_limit, v1, v2
!s_mov_b32 src_scc, s1
# lds_direct: not a VALU source on gfx11/gfx12, but a VOPD source (no constant-bus
# read; VGPR bank 3)
v_add3_u32 v0, v1, v2, src_lds_direct
v_mov_b32 v0, src_lds_direct
v_dual_fmaak_f32 v123, exec_hi, v23, 0xffff5754 :: v_dual_fmaak_f32 v62, src_lds_direct, v224, 0xffff5754
v_dual_cndmask_b32 v8, src_lds_direct, v108 :: v_dual_fmaak_f32 v83, -2.0, v193, 0x8e2e4bcf
v_dual_mul_f32 v1, src_lds_direct, v2 :: v_dual_mul_f32 v2, v6, v3
v_dual_mul_f32 v1, src_lds_direct, v2 :: v_dual_mul_f32 v2, v7, v3
v_dual_mul_f32 v1, v11, v2 :: v_dual_mul_f32 v2, src_lds_direct, v3
v_dual_mul_f32 v1, src_lds_direct, v2 :: v_dual_mul_f32 v2, src_lds_direct, v3
# v_cmp_class_f16's mask is a 32-bit integer: no inline float for 0xc400 / 0x3c00
v_cmpx_class_f16_e64 -src_vccz, 0xc400
v_cmp_class_f16_e64 vcc_lo, v1, 0x3c00
v_cmp_class_f16_e64 vcc_lo, v1, 1.0
v_cmp_class_f16_e64 vcc_lo, v1, 0xffff
v_cmp_class_f16_e64 vcc_lo, 0x3c00, v1
# constant bus: v_div_fmas reads vcc implicitly; s0 and s[0:1] are two values
v_div_fmas_f32 v0, s0, v1, v2
v_div_fmas_f32 v0, s0, s1, v2
v_div_fmas_f32 v0, vcc_lo, s1, v2
v_div_fmas_f32 v0, 0x1234, s1, v2
v_div_fmas_f32 v0, s0, s0, s51
v_mad_u64_u32 v[0:1], s0, s51, s0, s[0:1]
v_mad_u64_u32 v[0:1], s0, s0, v0, s[0:1]
# VOPD src2 (fmamk's VGPR, fmac/dot2acc's destination) banks compare by parity
v_dual_fmamk_f32 v127, -2.0, 0xbdcf8832, v164 :: v_dual_fmac_f32 v202, 64, v8
v_dual_fmamk_f32 v127, -2.0, 0xbdcf8832, v165 :: v_dual_fmac_f32 v202, 64, v8
v_dual_fmac_f32 v9, v3, v16 :: v_dual_dot2acc_f32_f16 v8, v3, v21
# .h halves only for 16-bit operands of VOP1/VOP2/VOPC e32 and DPP forms
ds_store_b16 v1, v2.h
v_dual_add_f32 v1.h, v2, v3 :: v_dual_mul_f32 v2, v3, v4
v_interp_p2_rtz_f16_f32 v191, v28.h, v85, v100
# 64-bit operands: no modifier folded into an integer; none on an integer literal
v_rcp_f64 v[182:183], |12|
v_cvt_i32_f64 v221, |30|
v_rcp_f64_e32 v[0:1], |12|
v_rcp_f64 v[0:1], neg(12)
v_rcp_f64 v[0:1], |0x12345678|
v_add_f64 v[0:1], neg(0x3ff80000), v[2:3]
v_add_f64 v[0:1], neg(1.5), v[2:3]
v_add_f64 v[0:1], |0x40000000|, v[2:3]
v_rcp_f32 v0, |-12|
v_add_f32 v0, neg(1), v1
# VOP3 DPP with a scalar or constant src1: RDNA3.5 (gfx115x) only
v_cubeid_f32_e64_dpp v175, v125, s59, v173 dpp8:[0,0,0,0,0,0,0,0]
v_cmpx_t_u32_e64_dpp v31, s45 quad_perm:[0,0,0,0] row_mask:0x0 bank_mask:0x0
v_cmp_eq_u16_e64_dpp ttmp12, v243, 63 dpp8:[6,0,4,7,7,7,7,7] fi:1
v_sad_hi_u8_e64_dpp v130, v122, 41, vcc_hi quad_perm:[0,0,0,0] row_mask:0x0 bank_mask:0x0 fi:1
# v_div_fmas's implicit vcc is the 64-bit pair: an explicit vcc shares it
v_div_fmas_f64 v[58:59], |ttmp[6:7]|, vcc, 45
v_div_fmas_f64 v[58:59], |ttmp[6:7]|, vcc, s[2:3]
v_fma_f64 v[0:1], vcc, exec, v[2:3]
v_fma_f64 v[0:1], vcc, exec, s[2:3]
