s_mov_b32 s0, 0x10
s_mov_b32 s0, 010
s_mov_b32 s0, 0b101
s_mov_b32 s0, -0x10
s_mov_b32 s0, 0X1F
s_mov_b32 s0, 0x7fffffff
s_mov_b32 s0, 0xffffffff
s_mov_b32 s0, -2147483648
s_mov_b32 s0, 4294967295
s_mov_b32 s0, 1+2*3
s_mov_b32 s0, (1+2)*3
s_mov_b32 s0, 1<<4
s_mov_b32 s0, ~0
s_mov_b32 s0, -(5)
s_mov_b32 s0, 10/3
s_mov_b32 s0, 10%3
s_mov_b32 s0, 6&3
s_mov_b32 s0, 6|1
s_mov_b32 s0, 6^3
s_mov_b32 s0, !0
s_mov_b32 s0, 5>3
s_mov_b32 s0, vcc_lo
s_mov_b32 s0, vcc_hi
s_mov_b32 s0, exec_lo
s_mov_b32 s0, exec_hi
s_mov_b32 s0, m0
s_mov_b32 s0, null
s_mov_b32 null, s0
s_mov_b32 s0, src_scc
s_mov_b32 s0, scc
s_mov_b32 s0, ttmp4
s_mov_b64 s[0:1], ttmp[4:5]
s_mov_b64 s[0:1], s[2:3]
s_mov_b64 s[0: 1], s[2 :3]
s_mov_b64 s[ 0:1 ], s[2:3]
s_mov_b64 s[0:1], vcc
s_mov_b64 s[0:1], exec
s_mov_b64 vcc, s[0:1]
s_mov_b64 s[0:1], 0x12345678
s_mov_b64 s[0:1], -1
s_mov_b32 s0, 1.0
s_mov_b32 s0, 1.5
s_mov_b32 s0, -1.0
s_mov_b32 s0, 0.5e1
s_mov_b32 s0, 1e0
s_mov_b32 s0, .5
s_mov_b32 s0, 'a'
s_add_u32 s0, s1, s2
s_add_u32 s0, s1, 0x3f800000
s_add_u32 s0 , s1 , s2
s_add_u32	s0,	s1,	s2
v_add_f32 v0, v1, v2
v_add_f32_e32 v0, v1, v2
v_add_f32_e64 v0, v1, v2
v_add_f32 v0, 0.5, v2
v_add_f32 v0, -0.5, v2
v_add_f32 v0, 0x3f000000, v2
v_add_f32 v0, 1, v2
v_add_f32 v0, -16, v2
v_add_f32 v0, -17, v2
v_add_f32 v0, 64, v2
v_add_f32 v0, 65, v2
v_add_f32 v0, v1, v2 clamp
v_add_f32 v0, v1, v2 mul:2
v_add_f32 v0, v1, v2 div:2
v_add_f32_e64 v0, v1, v2 clamp mul:4
v_add_f32 v0, |v1|, v2
v_add_f32 v0, -|v1|, v2
v_add_f32 v0, abs(v1), v2
v_add_f32 v0, -abs(v1), v2
v_add_f32 v0, neg(v1), v2
v_add_f32 v0, neg(abs(v1)), v2
v_add_f32 v0, neg(|v1|), v2
v_add_f32 v0, - v1, v2
v_add_f32 v0, -1, v2
v_add_f32 v0, neg(1), v2
v_add_f32 v0, v[1], v2
v_add_f32 v[0], v[1:1], v2
v_add_f32 v0, v1, v2 ; trailing comment
v_add_f32 v0, v1, v2 // trailing comment
v_cmp_eq_u32 vcc_lo, v1, v2
v_cmp_eq_u32 v1, v2
v_cmp_eq_u32_e64 s0, v1, v2
v_cmp_eq_u32_e32 vcc_lo, v1, v2
v_cndmask_b32 v0, v1, v2, vcc_lo
v_cndmask_b32_e64 v0, v1, v2, s0
v_addc_co_u32 v0, vcc_lo, v1, v2, vcc_lo
v_add_co_ci_u32 v0, vcc_lo, v1, v2, vcc_lo
v_add_co_u32 v0, vcc_lo, v1, v2
v_add_co_u32 v0, s0, v1, v2
v_mad_u64_u32 v[0:1], null, v1, v2, v[2:3]
v_mad_u64_u32 v[0:1], s0, v1, v2, v[2:3]
v_fma_f32 v0, v1, v2, v3
v_fma_f32 v0, v1, 2.0, v3
v_fma_f32 v0, v1, s2, s2
v_fma_f32 v0, s1, s2, v3
v_pk_add_f16 v0, v1, v2
v_pk_add_f16 v0, v1, v2 op_sel:[1,0]
v_pk_add_f16 v0, v1, v2 op_sel_hi:[0,1]
v_pk_add_f16 v0, v1, v2 neg_lo:[1,0] neg_hi:[0,1]
v_pk_add_f16 v0, v1, v2 op_sel:[1, 0]
v_pk_add_f16 v0, v1, v2 op_sel : [1,0]
v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf
v_mov_b32 v0, v1 quad_perm:[3,2,1,0]
v_mov_b32 v0, v1 row_shl:1
v_mov_b32 v0, v1 row_shl:1 bound_ctrl:0
v_mov_b32 v0, v1 row_shl:1 bound_ctrl:1
v_mov_b32 v0, v1 row_shl:1 row_mask:0x1 bank_mask:0x3
v_mov_b32 v0, v1 row_shl:1 row_mask:1 bank_mask:3
v_mov_b32 v0, v1 dpp8:[7,6,5,4,3,2,1,0]
v_mov_b32 v0, v1 dpp8:[7,6,5,4,3,2,1,0] fi:1
v_mov_b32 v0, v1 row_share:1 fi:1
v_mov_b32 v0, v1 row_xmask:1
v_mov_b32 v0, v1 row_mirror
v_mov_b32 v0, v1 row_half_mirror
v_mov_b32 v0, v1 row_ror:15
v_mov_b32 v0, v1 row_shr:15
global_load_b32 v0, v1, s[2:3]
global_load_b32 v0, v1, s[2:3] offset:16
global_load_b32 v0, v1, s[2:3] offset:-16
global_load_b32 v0, v1, s[2:3] offset:0x10
global_load_b32 v0, v1, s[2:3] offset:4*4
global_load_b32 v0, v1, s[2:3] offset:(2+2)*4
global_load_b32 v0, v[1:2], off
global_load_b32 v0, v[1:2], off offset:8
global_load_b32 v0, v1, s[2:3] glc slc dlc
global_load_b32 v0, v1, s[2:3] offset:16 glc
global_load_dword v0, v1, s[2:3]
global_store_b32 v1, v0, s[2:3]
global_store_b32 v[1:2], v0, off
flat_load_b32 v0, v[1:2]
flat_load_b32 v0, v[1:2] offset:8
scratch_load_b32 v0, off, s2 offset:8
scratch_load_b32 v0, v1, off
buffer_load_b32 v0, v1, s[4:7], s8 offen offset:16
buffer_load_b32 v0, v1, s[4:7], 0 idxen
buffer_load_b32 v0, off, s[4:7], s8
buffer_load_b32 v0, off, s[4:7], 0
buffer_load_b32 v0, off, s[4:7], null
buffer_load_b32 v0, off, s[4:7], s8 offset:4095
buffer_load_dword v0, off, s[4:7], s8
s_load_b32 s0, s[2:3], 0x10
s_load_b32 s0, s[2:3], 16
s_load_b32 s0, s[2:3], s4
s_load_b32 s0, s[2:3], s4 offset:0x10
s_load_b64 s[0:1], s[2:3], 0x0
s_load_b32 s0, s[2:3], -0x10
s_load_dword s0, s[2:3], 0x10
s_load_b32 s0, s[2:3], 0x10 glc
s_load_b32 s0, s[2:3], 0x10 glc dlc
s_buffer_load_b32 s0, s[4:7], 0x10
ds_load_b32 v0, v1
ds_load_b32 v0, v1 offset:16
ds_read_b32 v0, v1 offset:16
ds_store_b32 v1, v0 offset:65535
ds_load_2addr_b32 v[0:1], v2 offset0:1 offset1:2
ds_read2_b32 v[0:1], v2 offset0:1 offset1:2
ds_add_u32 v1, v2 gds
ds_swizzle_b32 v0, v1 offset:swizzle(SWAP,16)
ds_swizzle_b32 v0, v1 offset:0x8000
s_waitcnt vmcnt(0)
s_waitcnt vmcnt(0) lgkmcnt(0)
s_waitcnt vmcnt(0)&lgkmcnt(0)
s_waitcnt vmcnt(0), lgkmcnt(0)
s_waitcnt lgkmcnt(0) vmcnt(1) expcnt(2)
s_waitcnt vmcnt(63)
s_waitcnt vmcnt_sat(100)
s_waitcnt 0x3f70
s_waitcnt_vscnt null, 0x0
s_waitcnt_vscnt null, 1
s_waitcnt_lgkmcnt null, 0
s_waitcnt_depctr depctr_va_vdst(0)
s_waitcnt_depctr 0xfffe
s_delay_alu instid0(VALU_DEP_1)
s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_2)
s_delay_alu 0
s_getreg_b32 s0, hwreg(HW_REG_HW_ID1)
s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 4)
s_getreg_b32 s0, hwreg(HW_REG_MODE 0 4)
s_getreg_b32 s0, hwreg(1)
s_getreg_b32 s0, 0x1801
s_getreg_b32 s0, {id: 1, offset: 0, size: 4}
s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0x1
s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)
s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)
s_sendmsg 0x0
s_sendmsg sendmsg(2, 0, 0)
s_endpgm
s_endpgm 0
s_endpgm 1
s_nop 0x7
s_nop 8
s_sleep 1
s_barrier
s_code_end
s_setprio 3
s_clause 0x3
s_trap 2
s_sendmsghalt sendmsg(MSG_INTERRUPT)
s_version UC_VERSION_GFX11
s_version 0x2000
s_cbranch_scc0 0
s_branch 0x10
s_branch -1
s_call_b64 s[0:1], 4
s_movk_i32 s0, 0x1234
s_movk_i32 s0, -1
s_cmpk_eq_u32 s0, 0xffff
s_addk_i32 s0, 0x8000
s_setpc_b64 s[0:1]
s_bitcmp0_b32 s0, 31
s_cmp_eq_u32 s0, 0
s_cmp_eq_u64 s[0:1], 0
s_and_saveexec_b32 s0, s1
s_and_saveexec_b64 s[0:1], s[2:3]
s_lshl_b32 s0, s1, 2
s_bfe_u32 s0, s1, 0x40010
v_readfirstlane_b32 s0, v1
v_readlane_b32 s0, v1, 2
v_writelane_b32 v0, s1, 2
v_interp_p10_f32 v0, v1, v2, v3 wait_exp:0
lds_param_load v0, attr0.x wait_vdst:0
exp mrt0 v0, v0, v0, v0 done
exp mrt0 off, off, off, off
exp pos0 v0, v1, v2, v3 done row_en
image_load v[0:3], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D
image_load v[0:3], v0, s[0:7] dmask:0xf dim:1D
image_load v[0:3], v[0:1], s[0:7] dmask:0xf dim:2D unorm
image_load v0, v0, s[0:7] dmask:0x1 dim:1D glc
v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v2
v_dual_add_f32 v0, v1, v2 :: v_dual_mul_f32 v3, v4, v5
v_dual_fmac_f32 v0, v1, v2 :: v_dual_fmaak_f32 v3, v4, v5, 0x3f800000
v_fmaak_f32 v0, v1, v2, 0x3f800000
v_fmamk_f32 v0, v1, 0x3f800000, v2
v_fmaak_f32 v0, v1, v2, 1.0
v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]
v_dot2_f32_f16 v0, v1, v2, v3
v_fma_mix_f32 v0, v1, v2, v3 op_sel_hi:[1,1,1]
v_swap_b32 v0, v1
v_nop
v_mov_b16 v0.l, v1.h
v_mov_b16_e32 v0.l, v1.l
v_add_nc_u32 v0, v1, v2
v_add_u32 v0, v1, v2
v_lshlrev_b32 v0, 2, v1
v_ashrrev_i32_e64 v0, 2, v1
v_bfe_u32 v0, v1, 0, 8
v_perm_b32 v0, v1, v2, 0x5040100
v_alignbit_b32 v0, v1, v2, 8
s_mov_b64 s[0:1], 0xffffffff
s_mov_b64 s[0:1], 0xfffffff0
s_mov_b64 s[0:1], -16
v_mov_b32 v0, 0xffffffff
v_mov_b32 v0, 0xfffffff0
v_mov_b32 v0, 0xbf800000
v_add_f32 v0, 0xffffffff, v1
v_add_f16 v0, 0xffff, v1
v_add_f16 v0, 0xfff0, v1
v_add_f64 v[0:1], 0xffffffff, v[2:3]
v_add_f64 v[0:1], -1, v[2:3]
v_add_nc_u16 v0, 0xffff, v1
v_add_nc_u16 v0, 0xfff0, v1
s_add_u32 s0, s1, 0xffffffc0
v_add_f32 v0, neg(2.0), v2
v_add_f32 v0, neg(-2.0), v2
v_add_f32 v0, neg(0.5), v2
v_add_f32 v0, neg(64), v2
v_add_f32 v0, neg(-1), v2
v_add_f32 v0, neg(0x3f800000), v2
v_add_f32 v0, -2.0, v2
v_add_f32 v0, -(2.0), v2
v_add_f32 v0, |-2.0|, v2
v_add_f32 v0, |1|, v2
v_add_f32 v0, abs(-1), v2
v_add_f32_e64 v0, neg(1), v2
v_cmp_eq_u32_e32 v1, v2
v_cmp_lt_f32 v1, v2
v_cmpx_eq_u32 v1, v2
v_cmpx_eq_u32_e64 v1, v2
s_mov_b32 s0, 0777
s_mov_b32 s0, 08
s_mov_b32 s0, 3>5
s_mov_b32 s0, 5==5
s_mov_b32 s0, 5!=5
s_mov_b32 s0, 5<=5
s_mov_b32 s0, 5&&3
s_mov_b32 s0, 0||3
s_mov_b32 s0, 5<>3
s_mov_b32 s0, 0x80000000>>4
s_mov_b32 s0, 7/-2
s_mov_b32 s0, -7%3
s_waitcnt expcnt_sat(9) lgkmcnt_sat(99)
s_getreg_b32 s0, hwreg({id: 1, offset: 0, size: 4})
s_getreg_b32 s0, {id: HW_REG_MODE, offset: 2, size: 4}
s_getreg_b32 s0, {id: 1}
s_getreg_b32 s0, {size: 4, id: 1}
s_sendmsg {id: 3}
s_sendmsg sendmsg({id: 3})
v_mov_b32 v0, 0xffffffef
v_add_f16 v0, 0xffef, v1
v_pk_add_f16 v0, 0xffffffff, v1
v_pk_add_u16 v0, 0xffffffff, v1
v_pk_add_u16 v0, 0xffff, v1
s_movk_i32 s0, 0xffff
v_cvt_f32_fp8 v0, 0xffffffff
v_fma_f32 v0, 0xffffffff, v1, v2
v_fmaak_f32 v0, 0xffffffff, v1, 0x1
v_mov_b16 v0.l, 0xffff
s_mov_b32 s0, 0xffffffff_
v_add_bf16 v0, 0xffff, v1
v_pk_add_f16 v0, 0xffff, v1
v_pk_mul_f16 v0, 0xfff0, v1
v_fma_f16 v0, 0xffff, v1, v2
v_cvt_f32_f16 v0, 0xffff
v_ldexp_f16 v0, v1, 0xffff
v_cndmask_b16 v0, 0xffff, v1, vcc_lo
v_add_f32 v0, -|-2.0|, v2
v_add_f32 v0, neg(1.5), v2
v_add_f32 v0, neg(0x12345678), v2
v_add_f32_e32 v0, neg(1), v2
v_add_f16 v0, neg(1), v2
v_add_f16 v0, neg(2.0), v2
v_add_f16 v0, neg(0x3c00), v2
v_add_f16 v0, neg(1.5), v2
v_add_f64 v[0:1], neg(1), v[2:3]
v_add_f64 v[0:1], neg(2.0), v[2:3]
v_add_f64 v[0:1], neg(1.5), v[2:3]
v_cvt_f16_f32 v0, neg(2.0)
v_cvt_f32_f16 v0, neg(2.0)
v_sqrt_f32 v0, neg(1)
v_sqrt_f32 v0, neg(2.0)
v_cmp_eq_f32 vcc_lo, neg(2.0), v1
v_cmp_eq_f32 vcc_lo, neg(1), v1
v_fma_f32 v0, neg(1), v1, v2
v_fma_f32 v0, neg(2.0), v1, v2
v_cndmask_b32 v0, neg(1), v1, vcc_lo
v_cndmask_b32 v0, neg(2.0), v1, vcc_lo
v_fmaak_f32 v0, neg(1), v1, 0x1
v_fmac_f32 v0, neg(2.0), v1
v_max_f32 v0, neg(0), v1
v_max_f32 v0, neg(0.0), v1
v_max_f32 v0, abs(0.0), v1
v_max_f32 v0, 0.0, v1
v_max_f32 v0, -0.0, v1
s_mov_b32 s0, 0.0
v_add_f16 v0, 0.0, v1
v_add_f64 v[0:1], 0.0, v[2:3]
v_max_f32 v0, 3.0, v1
v_max_f32 v0, 64.0, v1
v_cmp_lt_f32 -1.0, v2
v_cmp_eq_u32 v1, v2 row_shl:1
v_cmp_eq_u32 v1, v2 dpp8:[0,1,2,3,4,5,6,7]
v_cmp_eq_u32_e64 v1, v2
v_cmp_class_f32 v1, v2
v_cmp_eq_u64 v[1:2], v[2:3]
v_cmp_eq_u32 s0, v2
s_mov_b32 s0, 1+2==3
s_mov_b32 s0, 1|2==3
s_mov_b32 s0, 1<<2+1
s_mov_b32 s0, 2*3+1
s_mov_b32 s0, 6-2-1
s_mov_b32 s0, 1&3|4
s_mov_b32 s0, 2^3&1
s_mov_b32 s0, 1+2<<1
s_mov_b32 s0, 8>>1+1
s_mov_b32 s0, 1==1&&2
s_mov_b32 s0, -(1<2)
s_mov_b32 s0, ~1+1
s_mov_b32 s0, !5
s_mov_b32 s0, 4%3*2
s_mov_b32 s0, 10-2*3
s_mov_b32 s0, 1-2|4
s_mov_b32 s0, 3*2&1
s_mov_b32 s0, 16/2>>1
s_mov_b32 s0, 1<2<3
s_mov_b32 s0, 1+1==2
s_mov_b32 s0, 0&&1||1
s_mov_b32 s0, 7%4<<1
s_getreg_b32 s0, {id: 1, offset: 0, size: 4, }
s_getreg_b32 s0, {}
s_getreg_b32 s0, {id:1,offset:31,size:1}
s_getreg_b32 s0, {id: 1+1}
s_setreg_b32 {id: 1, size: 4}, s0
s_setreg_imm32_b32 {id: 1, size: 4}, 0x1
s_getreg_b32 s0, {id: 1, id: 2}
s_getreg_b32 s0, {offset: 3}
s_waitcnt vmcnt_sat(1)
s_waitcnt_depctr depctr_va_vdst_sat(99)
v_dual_fmaak_f32 v0, v1, v2, 0x3f800000 :: v_dual_mov_b32 v3, v4
v_dual_fmamk_f32 v0, v1, 0x3f800000, v2 :: v_dual_mov_b32 v3, v4
v_dual_mov_b32 v0, 0x3f800000 :: v_dual_fmaak_f32 v3, v4, v5, 0x3f800000
v_dual_mov_b32 v0, 0x3f800000 :: v_dual_mov_b32 v3, v4
v_dual_mov_b32 v0, 1.0 :: v_dual_fmaak_f32 v3, v4, v5, 1.0
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_32, BUF_NUM_FORMAT_FLOAT]
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_NUM_FORMAT_FLOAT, BUF_DATA_FORMAT_32]
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_32]
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_NUM_FORMAT_FLOAT]
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_8,BUF_NUM_FORMAT_UNORM]
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_32_32, BUF_NUM_FORMAT_UINT]
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_FMT_32_FLOAT]
tbuffer_load_format_x v1, off, s[4:7], s1 format:22
tbuffer_load_format_x v1, off, s[4:7], s1 format:0x16
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_INVALID, BUF_NUM_FORMAT_UNORM]
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_32, BUF_NUM_FORMAT_USCALED]
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_10_11_11, BUF_NUM_FORMAT_FLOAT]
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_16, BUF_NUM_FORMAT_SNORM]
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_8]
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_NUM_FORMAT_UINT]
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_INVALID, BUF_NUM_FORMAT_FLOAT]
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_INVALID]
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_8, BUF_DATA_FORMAT_16]
tbuffer_load_format_x v1, off, s[4:7], s1 format:[buf_data_format_32, buf_num_format_float]
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_32 , BUF_NUM_FORMAT_FLOAT ]
tbuffer_load_format_x v1, off, s[4:7], s1 format: [BUF_DATA_FORMAT_32, BUF_NUM_FORMAT_FLOAT]
tbuffer_load_format_x v1, off, s[4:7], format:22, s1
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_FMT_32_FLOAT] offset:4
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_32, BUF_NUM_FORMAT_FLOAT] offset:4 glc
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_FMT_32_FLOAT, BUF_NUM_FORMAT_FLOAT]
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_RESERVED_15, BUF_NUM_FORMAT_FLOAT]
tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_32_32_32_32, BUF_NUM_FORMAT_RESERVED_6]
tbuffer_load_format_x v1, off, s[4:7], s1 format:[2+2]
tbuffer_load_format_x v1, off, s[4:7], s1 format:2+2
tbuffer_store_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_16_16, BUF_NUM_FORMAT_SINT]
s_nop 0 ; comment
s_nop 0 // comment
v_add_f32 v0, v1, v2 ; c
s_nop 0;s_nop 1
s_nop 0 ;; x
image_sample  v[0:3], [v4, v6], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample v[0:3], [v4,  v6], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample v[0:3], [ v4, v6 ], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample v[0:3],[v4,v6],s[0:7],s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample v[0:3], [v4, v6, v7], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_3D
image_load v[0:3], [v4,  v6], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D
image_bvh_intersect_ray v[4:7], [v9,  v10, v[11:13], v[14:16], v[17:19]], s[4:7]
image_sample v[0:3], [v4, v6], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D ; c
image_sample v[0:3], [v4, v6], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D // c
v_subrev_f32_dpp v29, |v35|, v224 row_mask:0x8 bank_mask:0xa bound_ctrl:1 fi:1
v_mov_b32 v0, v1 row_mask:0x8
v_mov_b32_dpp v0, v1
v_mov_b32_dpp v0, v1 fi:1
v_mov_b32 v0, v1 quad_perm:[0,1,2,3]
v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3] fi:1
v_mov_b32 v0, v1 dpp8:[0,1,2,3,4,5,6,7]
v_mov_b32_dpp v0, v1 dpp8:[0,1,2,3,4,5,6,7] fi:1
v_add_f32_e64_dpp v0, v1, v2 row_shl:1
v_add_f32_e64_dpp v0, v1, v2
v_add_f32_e64_dpp v0, v1, v2 dpp8:[0,1,2,3,4,5,6,7]
v_cmp_eq_u32_e64_dpp s0, v1, v2 row_shl:1
v_cmp_eq_u32_e64_dpp s0, v1, v2 fi:1
