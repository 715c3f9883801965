v_dual_mov_b32 v40, v0 :: v_dual_mov_b32 v31, v0
v_dual_mov_b32 v40, v4 :: v_dual_mov_b32 v31, v0
v_dual_mov_b32 v40, v0 :: v_dual_mov_b32 v31, v8
v_dual_mov_b32 v40, v1 :: v_dual_mov_b32 v31, v2
v_dual_mov_b32 v40, v0 :: v_dual_mov_b32 v31, s0
v_dual_mov_b32 v40, v0 :: v_dual_mov_b32 v30, v0
v_dual_mov_b32 v40, v0 :: v_dual_add_f32 v31, v0, v3
v_dual_add_f32 v40, v0, v1 :: v_dual_mov_b32 v31, v4
v_dual_add_f32 v40, v0, v2 :: v_dual_mul_f32 v31, v0, v3
v_dual_add_f32 v40, v1, v4 :: v_dual_mul_f32 v31, v2, v4
v_dual_add_f32 v40, v1, v2 :: v_dual_mul_f32 v31, v3, v4
v_dual_fmac_f32 v40, v0, v2 :: v_dual_fmac_f32 v31, v0, v3
v_dual_add_f32 v40, s0, v2 :: v_dual_mul_f32 v31, s0, v3
