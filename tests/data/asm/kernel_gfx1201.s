	.amdgcn_target "amdgcn-amd-amdhsa--gfx1201"
	.text
	.globl k2
	.p2align 8
	.type k2,@function
k2:
	s_load_b64 s[0:1], s[0:1], 0x0
	s_wait_kmcnt 0x0
	global_load_b32 v1, v0, s[0:1] th:TH_LOAD_NT scope:SCOPE_SYS
	s_wait_loadcnt 0x0
	v_add_f32_e32 v1, 1.0, v1
	s_cbranch_scc0 .Ldone
	v_mul_f32_e32 v1, v1, v1
.Ldone:
	global_store_b32 v0, v1, s[0:1]
	s_endpgm
	.rodata
	.p2align 6
	.amdhsa_kernel k2
		.amdhsa_next_free_vgpr 2
		.amdhsa_next_free_sgpr 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 8
		.amdhsa_round_robin_scheduling 1
		.amdhsa_wavefront_size32 0
	.end_amdhsa_kernel
