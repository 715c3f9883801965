// tests/data/runtime/add_value.s — a hand-written kernel with no metadata:
// out[gid] = value + gid, arguments packed (out: 8 bytes at 0, value: 4 at 8),
// workgroups of 64.  Assembled by llvm-mc, linked by ld.lld at test time.
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.text
.globl add_value
.p2align 8
.type add_value,@function
add_value:
    s_load_b64 s[4:5], s[0:1], 0x0
    s_load_b32 s6, s[0:1], 0x8
    s_lshl_b32 s7, s2, 6
    v_add_nc_u32 v0, s7, v0
    s_waitcnt lgkmcnt(0)
    v_add_nc_u32 v1, s6, v0
    v_lshlrev_b32 v0, 2, v0
    global_store_b32 v0, v1, s[4:5]
    s_endpgm
.rodata
.p2align 6
.amdhsa_kernel add_value
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_next_free_vgpr 2
    .amdhsa_next_free_sgpr 8
    .amdhsa_kernarg_size 16
.end_amdhsa_kernel
