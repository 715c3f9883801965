// Non-canonical spellings llvm-mc accepts for gfx1100 (one instruction per line;
// tests/asm compares rdx's bytes with llvm-mc -show-encoding on this file).
v_add_f32 v0, s1, s2
v_add_f32 v0, v1, 0x12345678
v_add_f32 v0, -v1, v2
v_add_f32_e64 v0, neg(v1), abs(v2)
v_add_f32 v0, -|v1|, v2
v_mul_f32 v0, -4.0, v1
v_mul_f32 v0, 0.15915494, v1
v_mul_f32 v0, 1.5, v1
v_add_f64 v[0:1], 1.5, v[2:3]
v_add_f16 v0, 1.5, v1
v_add_f16 v0, 0x3c00, v1
s_mov_b32 s0, 0x3f800000
s_mov_b32 s0, -1
s_mov_b32 s0, 65
s_mov_b32 s0, -17
s_mov_b32 s0, 1.0
s_waitcnt vmcnt(0) & lgkmcnt(0)
s_waitcnt lgkmcnt(1)
s_waitcnt expcnt(2), vmcnt(3)
s_waitcnt 0
s_waitcnt_vscnt null, 0
s_getreg_b32 s0, hwreg(HW_REG_MODE)
s_getreg_b32 s0, hwreg(1, 4, 8)
s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s1
s_sendmsg sendmsg(MSG_INTERRUPT)
s_sendmsg 3
s_delay_alu instid0(VALU_DEP_2)
s_delay_alu instid0(TRANS32_DEP_1) | instskip(SKIP_2) | instid1(SALU_CYCLE_3)
v_add_f32_dpp v0, v1, v2 quad_perm:[0,1,2,3]
v_mov_b32_dpp v0, v1 row_shl:1 bound_ctrl:0
v_mov_b32_dpp v0, v1 row_shr:15 row_mask:0x3 bank_mask:0x5 bound_ctrl:1 fi:1
v_add_f32 v0, v1, v2 row_ror:3
v_mov_b32 v0, v1 dpp8:[7,6,5,4,3,2,1,0] fi:1
v_add_co_u32 v0, vcc_lo, v1, v2
v_add_co_ci_u32 v0, vcc_lo, v1, v2, vcc_lo
v_cndmask_b32 v0, v1, v2, vcc_lo
v_cndmask_b32 v0, v1, v2, s3
v_cmp_eq_u32 vcc_lo, v0, v1
v_cmp_eq_u32 s0, v0, v1
v_cmp_lt_f32 vcc_lo, 1.0, v1
v_cmpx_eq_u32 v0, v1
v_cmpx_eq_u32_e64 v0, s1
global_load_b32 v0, v[1:2], off
global_load_b32 v0, v1, s[2:3] offset:-8 glc slc dlc
global_store_b64 v[1:2], v[3:4], off offset:4095
global_atomic_add_u32 v0, v1, v2, s[4:5] offset:16 glc
global_atomic_add_u32 v1, v2, s[4:5]
flat_atomic_cmpswap_b32 v0, v[1:2], v[3:4] glc
buffer_load_b32 v0, off, s[0:3], 0
buffer_store_b32 v0, v1, s[0:3], s4 offen offset:4095
buffer_load_b128 v[0:3], v[4:5], s[8:11], 0 idxen offen glc
ds_load_b32 v0, v1 offset:65535
ds_store_2addr_b32 v0, v1, v2 offset1:255
ds_add_rtn_u32 v0, v1, v2 offset:4
scratch_load_b32 v0, off, s0 offset:16
scratch_store_b32 v1, v2, off
s_load_b64 s[0:1], s[2:3], 0x10
s_load_b32 s0, s[2:3], s4 offset:0x8
s_buffer_load_b32 s0, s[0:3], 0x0
s_load_b256 s[0:7], s[2:3], -0x10
v_pk_fma_f16 v0, v1, v2, v3 op_sel:[0,1,0] op_sel_hi:[1,0,1] neg_lo:[0,0,1] neg_hi:[1,0,0] clamp
v_pk_add_u16 v0, v1, v2 op_sel_hi:[0,0]
v_pk_mul_f16 v0, v1, 1.0
v_fma_mix_f32 v0, -v1, |v2|, v3 op_sel_hi:[1,1,0]
v_dual_mul_f32 v0, v1, v2 :: v_dual_mov_b32 v3, 1.0
v_dual_fmaak_f32 v0, v1, v2, 0x3e800000 :: v_dual_mov_b32 v3, v4
v_dual_add_f32 v0, s1, v2 :: v_dual_sub_f32 v5, v3, v4
image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
image_load v0, v1, s[0:7] dmask:0x1 dim:1D
image_store v[0:1], v[2:3], s[0:7] dmask:0x3 dim:SQ_RSRC_IMG_2D unorm glc
image_sample v[0:3], [v4, v6], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
v_mov_b32 v0, src_scc
s_mov_b32 s0, exec_lo
s_mov_b64 s[0:1], exec
s_mov_b64 vcc, -1
s_mov_b32 m0, s0
s_mov_b32 ttmp0, ttmp1
s_mov_b64 ttmp[2:3], s[0:1]
s_mov_b32 s0, src_shared_base
s_nop 0
s_endpgm
v_mul_f32 v0, v1, v2 mul:2
v_add_f32 v0, v1, v2 clamp
v_fma_f32 v0, v1, v2, v3 div:2
v_cvt_f32_i32 v0, s0
v_sqrt_f32 v0, |v1|
v_sqrt_f32_e64 v0, -v1 clamp
s_add_u32 s0, s1, 0x12345678
s_movk_i32 s0, 0x1234
s_cmpk_eq_u32 s0, 0xffff
s_and_saveexec_b32 s0, vcc_lo
s_cselect_b64 s[0:1], -1, 0
v_readlane_b32 s0, v1, 5
v_writelane_b32 v0, s1, s2
v_readfirstlane_b32 s0, v1
v_lshlrev_b32 v0, 2, v1
v_lshlrev_b64 v[0:1], 3, v[2:3]
v_mad_u64_u32 v[0:1], null, v2, v3, v[4:5]
v_add_nc_u32 v0, v1, v2
v_add_nc_u16 v0, v1, v2 op_sel:[1,0,0]
v_dot2_f32_f16 v0, v1, v2, v3
v_bfe_u32 v0, v1, 8, 8
v_perm_b32 v0, v1, v2, 0x5040100
ds_swizzle_b32 v0, v1 offset:swizzle(BITMASK_PERM, "01pip")
ds_swizzle_b32 v0, v1 offset:swizzle(SWAP, 16)
ds_swizzle_b32 v0, v1 offset:swizzle(QUAD_PERM, 1, 0, 3, 2)
ds_bpermute_b32 v0, v1, v2
v_interp_p10_f32 v0, v1, v2, v3 wait_exp:1
lds_param_load v0, attr1.y wait_vdst:2
s_clause 0x3
s_sleep 2
s_setprio 3
s_trap 2
s_barrier
s_icache_inv
buffer_gl0_inv
s_sendmsg_rtn_b32 s0, sendmsg(MSG_RTN_GET_REALTIME)
s_version UC_VERSION_GFX11
tbuffer_load_format_xyzw v[0:3], v4, s[0:3], 0 format:[BUF_FMT_32_32_32_32_FLOAT] offen
tbuffer_store_format_x v0, off, s[4:7], s1 format:[BUF_FMT_16_16_UNORM] offset:12
tbuffer_load_format_x v0, off, s[0:3], 0 format:22
global_load_dword v1, v[2:3], off
ds_read2_b32 v[0:1], v2 offset1:1
s_andn2_saveexec_b32 s0, s1
v_add_u32_e64 v0, v1, s2
buffer_store_dwordx4 v[0:3], off, s[0:3], 0
v_add_nc_i16 v0, v1, -47
v_cmp_eq_i16 vcc_lo, -47, v1
v_add_f32_e64 v0, v1, neg(2.0)
v_add_f32_e64 v0, |v1|, neg(0x12345678)
v_fma_f32 v0, neg(|v1|), v2, neg(1)
// promoted VOP1/VOP2 ops in the e64 DPP16 / DPP8 forms
v_add_f32_e64_dpp v0, v1, v2 row_shl:1
v_add_f32_e64_dpp v0, -v1, |v2| row_shl:1 row_mask:0xf bank_mask:0xf
v_add_f32_e64_dpp v0, v1, v2 clamp row_shl:1
v_add_f32_e64_dpp v0, v1, v2 dpp8:[7,6,5,4,3,2,1,0]
v_mov_b32_e64_dpp v0, v1 quad_perm:[3,2,1,0]
v_mov_b32_e64_dpp v0, v1 dpp8:[7,6,5,4,3,2,1,0]
v_cmp_eq_f32_e64_dpp s0, v1, v2 row_shl:1
v_add_co_ci_u32_e64_dpp v0, s2, v1, v2, s4 row_shl:1
v_add_co_ci_u32_e64_dpp v0, vcc_lo, v1, v2, vcc_lo dpp8:[7,6,5,4,3,2,1,0]
v_sub_co_ci_u32_e64_dpp v0, s2, v1, v2, s4 row_shl:1
v_subrev_co_ci_u32_e64_dpp v0, s2, v1, v2, s4 row_shl:1
v_cndmask_b32_e64_dpp v0, v1, v2, s4 row_shl:1
v_cndmask_b32_e64_dpp v0, -v1, |v2|, s4 dpp8:[7,6,5,4,3,2,1,0]
