# Regression lines for rdx as against llvm-mc 19 (tests/isa/check_isa_asmlines.c):
# each is accepted by rdx exactly when llvm-mc accepts it, with llvm-mc's bytes.
# th 3 is named by the scope: BYPASS with SCOPE_SYS, LU / RT_WB otherwise
global_store_b32 v[0:1], v2, off th:TH_STORE_RT_WB
global_store_b32 v[0:1], v2, off th:TH_STORE_RT_WB scope:SCOPE_DEV
global_store_b32 v[0:1], v2, off th:TH_STORE_RT_WB scope:SCOPE_SYS
global_store_b32 v[0:1], v2, off th:TH_STORE_BYPASS scope:SCOPE_SYS
global_store_b32 v[0:1], v2, off th:TH_STORE_BYPASS
global_store_b32 v[0:1], v2, off th:TH_STORE_WB
global_store_b32 v[0:1], v2, off th:TH_STORE_NT_WB scope:SCOPE_SYS
global_load_b32 v1, v[0:1], off th:TH_LOAD_LU
global_load_b32 v1, v[0:1], off th:TH_LOAD_LU scope:SCOPE_SYS
global_load_b32 v1, v[0:1], off th:TH_LOAD_BYPASS scope:SCOPE_SYS
global_load_b32 v1, v[0:1], off th:TH_LOAD_BYPASS scope:SCOPE_DEV
scratch_load_b128 v[213:216], v77, s59 offset:64 th:TH_LOAD_BYPASS scope:SCOPE_SYS
buffer_store_format_x v198, off, s[36:39], ttmp7 th:TH_STORE_RT_WB
tbuffer_store_format_xy v[47:48], off, s[56:59], ttmp13 format:[BUF_FMT_8_8_UNORM] th:TH_STORE_RT_WB
s_load_b32 s0, s[2:3], 0x0 th:TH_LOAD_BYPASS scope:SCOPE_SYS
# VOPD
v_dual_fmaak_f32 v88, v208, v58, 0x21 :: v_dual_sub_f32 v177, 5, v12
v_dual_fmamk_f32 v54, 0, 0x0, v86 :: v_dual_and_b32 v129, v91, v223
v_dual_mov_b32 v42, 16 :: v_dual_fmamk_f32 v45, 1.0, 0x8, v228
v_dual_cndmask_b32 v98, -4.0, v0 :: v_dual_fmamk_f32 v35, 1.0, 0xc0000000, v16
v_dual_fmamk_f32 v1, v2, 0x1234, v16 :: v_dual_fmac_f32 v4, v3, v21
v_dual_fmamk_f32 v5, v3, 0x1234, v21 :: v_dual_fmac_f32 v2, v2, v16
v_dual_mov_b32 v1, v2 :: v_dual_mov_b32 v2, v6
# scalar f16: SOP1/SOPC sources keep a literal whose bits are an inline float
s_cmp_ngt_f16 0xb800, ttmp8
s_cmp_gt_f16 15, 0x4400
s_cmp_eq_f16 0xffff, s0
s_cmp_lt_f16 s0, 0.5
s_cvt_f32_f16 ttmp1, 0xbc00
s_ceil_f16 s0, 0xffff
s_add_f16 s0, 0x3c00, s1
s_add_f16 s0, 0xffff, s1
# SMEM base pairs
s_load_b32 ttmp2, exec, s30 offset:0x0 th:TH_LOAD_NT scope:SCOPE_SE
s_load_u8 ttmp15, null, ttmp6 offset:0x328
s_prefetch_inst null, 0x72b960, ttmp14, 17
s_load_b512 s[64:79], null, -0x792210
s_buffer_load_b32 s0, vcc, 0x0
# VALU scalar destinations
v_cmp_lg_f32_e64_dpp src_private_base, -v34, -2.0 clamp dpp8:[0,5,5,3,3,0,6,0]
v_cmp_neq_f32_e64_dpp src_scc, v54, v38 quad_perm:[1,0,0,0] row_mask:0x0 bank_mask:0x0
v_cmp_nlt_f64_e64 src_shared_base, -v[76:77], null
v_readfirstlane_b32 src_scc, v1
# s_version
s_version (39|UC_VERSION_W32_BIT)|UC_VERSION_MDP_BIT
# literals
v_cmpx_class_f16_e64 src_shared_limit, 0xffff5179
v_alignbit_b32 v158, null, v116, 0x33d421b1
# llvm-mc accepts this literal with DPP and drops it (rdx must reject it)
!v_cndmask_b16_e64_dpp v12, -|v63|, |0x3c00|, src_shared_base quad_perm:[0,0,0,0] row_mask:0x0 bank_mask:0x0
# lds_direct and v_cmp_class_f16
v_dual_fmamk_f32 v13, s18, 0xffffb81e, v48 :: v_dual_mov_b32 v190, src_lds_direct
v_dual_fmaak_f32 v195, s87, v143, 0x9f3a439d :: v_dual_fmamk_f32 v60, src_lds_direct, 0x9f3a439d, v162
v_fma_f32 v0, v1, v2, src_lds_direct
v_cmpx_class_f16_e64 |-2.0|, 0x3c00
v_cmp_class_f16_e64 vcc_lo, v1, 0xffff
# 3-SGPR ranges on multiples of 4, no 3-register TTMP ranges
s_load_b96 s[4:6], s[2:3], 0x0
s_load_b96 s[2:4], s[2:3], 0x0
s_load_b96 s[1:3], s[2:3], 0x0
s_buffer_load_b96 s[5:7], s[4:7], 0x0
s_load_b96 ttmp[4:6], s[2:3], 0x0
# constant bus and VOPD src2 parity
v_mad_co_u64_u32 v[0:1], s0, s51, s0, s[0:1]
v_div_fmas_f32 v0, s50, s0, s0
v_dual_fmamk_f32 v127, -2.0, 0xbdcf8832, v164 :: v_dual_fmac_f32 v202, 64, v8
# .h halves only for 16-bit operands of VOP1/VOP2/VOPC e32 and DPP forms
ds_store_b16 v1, v2.h
global_store_b16 v[0:1], v2.h, off
# 64-bit operands: no modifier folded into an integer; none on an integer literal
v_rcp_f64 v[182:183], |12|
v_add_f64_e64 v[0:1], neg(0x12345678), v[2:3]
# named barriers: m0 or an inline constant
s_get_barrier_state s7, m0
s_get_barrier_state s7, -16
s_get_barrier_state s7, 1.0
s_get_barrier_state s7, s2
s_get_barrier_state s7, 0x1234
s_get_barrier_state s7, vcc_lo
s_barrier_signal 5
s_barrier_signal s2
s_barrier_signal_isfirst s2
s_barrier_init s2
s_wakeup_barrier s2
# llvm-mc encodes these registers as some inline constant ('!': rdx rejects)
!s_get_barrier_state s7, src_shared_limit
!s_get_barrier_state s7, null
!s_barrier_signal null
