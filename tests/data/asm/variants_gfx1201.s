// Non-canonical spellings llvm-mc accepts for gfx1201 (one instruction per line).
s_load_b64 s[0:1], s[2:3], 0x10
s_load_b32 s0, s[2:3], s4 offset:0x8
s_buffer_load_b32 s0, s[0:3], 0x0 th:TH_LOAD_NT
global_load_b32 v0, v[1:2], off th:TH_LOAD_NT scope:SCOPE_SYS
global_load_b32 v0, v1, s[2:3] offset:-8 scope:SCOPE_DEV
global_store_b32 v[1:2], v3, off th:TH_STORE_NT_WB
global_atomic_add_u32 v0, v1, v2, s[4:5] th:TH_ATOMIC_RETURN
global_atomic_add_u32 v1, v2, s[4:5]
buffer_load_b32 v0, off, s[0:3], null
buffer_store_b32 v0, v1, s[0:3], s4 offen offset:4095
s_wait_loadcnt 0x0
s_wait_kmcnt 0
s_wait_alu depctr_va_vdst(0)
s_wait_dscnt 1
v_add_f32 v0, s1, s2
v_add_f32 v0, -v1, v2
v_mul_f32 v0, -4.0, v1
v_mov_b32_dpp v0, v1 row_shl:1 bound_ctrl:1
v_mov_b32 v0, v1 dpp8:[7,6,5,4,3,2,1,0]
v_add_co_u32 v0, vcc_lo, v1, v2
v_cmp_eq_u32 s0, v0, v1
v_dual_mul_f32 v0, v1, v2 :: v_dual_mov_b32 v3, 1.0
v_pk_fma_f16 v0, v1, v2, v3 op_sel:[0,1,0]
v_cvt_f32_fp8 v0, v1 byte_sel:1
ds_load_b32 v0, v1 offset:16
s_getreg_b32 s0, hwreg(HW_REG_HW_ID1)
s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)
s_delay_alu instid0(VALU_DEP_1)
s_endpgm
tbuffer_load_format_xyzw v[0:3], v4, s[0:3], null format:[BUF_FMT_32_32_32_32_FLOAT] offen
global_load_dword v1, v[2:3], off
s_add_u32 s0, s1, s2
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
