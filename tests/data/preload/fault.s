; tests/data/preload/fault.s — a kernel that writes to an unmapped address (0x1000).
        .amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
        .text
        .globl bad
        .p2align 8
bad:
        v_mov_b32 v1, 0
        v_mov_b32 v2, 0x1000
        v_mov_b32 v3, 0
        global_store_b32 v[2:3], v1, off
        s_endpgm
        .rodata
        .p2align 6
        .amdhsa_kernel bad
        .amdhsa_next_free_vgpr 4
        .amdhsa_next_free_sgpr 8
        .end_amdhsa_kernel
