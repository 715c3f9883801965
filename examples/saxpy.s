; y[i] = a * x[i] + y[i] for i < n, one work-item per element (gfx1100, wave32)
; kernarg: x (global ptr, offset 0), y (global ptr, offset 8), a (f32, 16), n (u32, 20)
        .amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
        .text
        .globl saxpy
        .p2align 8
saxpy:
        s_load_b128 s[4:7], s[0:1], 0x0          ; x, y
        s_load_b64 s[8:9], s[0:1], 0x10          ; a, n
        s_lshl_b32 s2, s2, 8                     ; workgroup id * 256
        v_add_nc_u32 v0, s2, v0                  ; global id
        s_waitcnt lgkmcnt(0)
        v_cmp_gt_u32 vcc_lo, s9, v0
        s_and_saveexec_b32 s10, vcc_lo
        s_cbranch_execz .Ldone
        v_lshlrev_b32 v1, 2, v0                  ; byte offset
        global_load_b32 v2, v1, s[4:5]
        global_load_b32 v3, v1, s[6:7]
        s_waitcnt vmcnt(0)
        v_fmac_f32 v3, s8, v2
        global_store_b32 v1, v3, s[6:7]
.Ldone:
        s_endpgm

        .rodata
        .p2align 6
        .amdhsa_kernel saxpy
        .amdhsa_user_sgpr_kernarg_segment_ptr 1
        .amdhsa_system_sgpr_workgroup_id_x 1
        .amdhsa_kernarg_size 24
        .amdhsa_next_free_vgpr 4
        .amdhsa_next_free_sgpr 11
        .amdhsa_wavefront_size32 1
        .end_amdhsa_kernel
