// Bad lines; tests/asm checks that rdx reports every one at the line and
// column llvm-mc reports (messages differ in wording).
s_mov_b32 s0, v1
v_add_f32 v0, v1, v[2:3]
s_load_b32 s0, s[1:2], 0
v_bogus v0, v1
s_mov_b32 s0, s1
global_load_b32 v0, v[1:2], s[0:1]
s_waitcnt vmcnt(99)
v_mov_b32 v0, v1 quad_perm:[0,1,2,4]
ds_load_b32 v0, v1 offset:70000
s_getreg_b32 s0, hwreg(HW_REG_BOGUS)
v_add_f32 v0, v1, v2 row_shl:16
s_endpgm
v_mov_b32 v300, v1
s_mov_b64 s[1:2], s[4:5]
.amdhsa_kernel kbad0
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 1
  .amdhsa_user_sgpr_private_segment_buffer 1
.end_amdhsa_kernel
.amdhsa_kernel kbad1
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 1
  .amdhsa_round_robin_scheduling 1
.end_amdhsa_kernel
.amdhsa_kernel kbad2
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 1
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.amdhsa_kernel kbad3
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 1
  .amdhsa_float_denorm_mode_32 4
.end_amdhsa_kernel
.amdhsa_kernel kbad4
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 1
  .amdhsa_bogus 1
.end_amdhsa_kernel
.amdhsa_kernel kbad5
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 1
  .amdhsa_next_free_vgpr 2
.end_amdhsa_kernel
