# line comments start with ;, // or # (at the start of a line)
// A hand-written kernel: out[i] = in[i] * 2 + 1, plus a loop with labels.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
	.text
	.globl scale
	.p2align 8
	.type scale,@function
scale:
	s_load_b128 s[0:3], s[0:1], 0x0        ; in, out
	v_lshlrev_b32_e32 v0, 2, v0
	s_mov_b32 s4, 3
	s_waitcnt lgkmcnt(0)
	global_load_b32 v1, v0, s[0:1]
	s_branch .Lskip                          ; forward branch
.Lloop:
	s_sub_u32 s4, s4, 1
	s_cmp_lg_u32 s4, 0
	s_cbranch_scc1 .Lloop                    // backward branch
.Lskip:
	s_waitcnt vmcnt(0)
	v_fma_f32 v1, v1, 2.0, 1.0
	v_add_f32_e64 v2, -v1, |v1| clamp
	v_mov_b32_dpp v3, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
	v_dual_mul_f32 v4, v1, v2 :: v_dual_add_f32 v5, v3, v1
	s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)
	ds_store_2addr_b32 v0, v1, v2 offset0:1 offset1:2
	s_getreg_b32 s5, hwreg(HW_REG_MODE, 0, 4)
	global_store_b32 v0, v1, s[2:3] offset:16 glc
	s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)
	s_endpgm
.Lend:
	.size scale, .Lend-scale

	.rodata
	.p2align 6
	.amdhsa_kernel scale
		.amdhsa_next_free_vgpr 6
		.amdhsa_next_free_sgpr 6
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_ptr 1
		.amdhsa_kernarg_size 16
		.amdhsa_group_segment_fixed_size 256
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 1
		.amdhsa_system_vgpr_workitem_id 1
		.amdhsa_wavefront_size32 1
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_round_mode_32 1
		.amdhsa_ieee_mode 0
		.amdhsa_dx10_clamp 0
		.amdhsa_workgroup_processor_mode 0
		.amdhsa_exception_fp_ieee_div_zero 1
	.end_amdhsa_kernel

// A second kernel whose register counts come from LLVM's tracking symbols.
	.text
	.set .amdgcn.next_free_vgpr, 0
	.set .amdgcn.next_free_sgpr, 0
	.globl counted
	.p2align 8
counted:
	v_mov_b32 v[12], s17
	v_lshlrev_b64 v[20:21], 3, v[12:13]
	s_endpgm

	.rodata
	.p2align 6
	.amdhsa_kernel counted
		.amdhsa_next_free_vgpr .amdgcn.next_free_vgpr
		.amdhsa_next_free_sgpr .amdgcn.next_free_sgpr
		.amdhsa_wavefront_size32 0
	.end_amdhsa_kernel
