v_add_f32 v0, v1, v2
v_add_f32_e64_dpp v0, v1, v2 row_shl:1
v_cndmask_b32_e64_dpp v0, -v1, |v2|, s4 dpp8:[7,6,5,4,3,2,1,0]
s_add_f32 s0, s1, s2
s_fmac_f32 s0, s1, s2
v_dual_mov_b32 v40, v0 :: v_dual_mov_b32 v31, v4
global_load_b32 v0, v1, s[2:3] offset:16
s_wait_loadcnt 0x0
s_waitcnt vmcnt(0)
v_dot2_f32_bf16 v0, v1, v2, v3
s_endpgm
