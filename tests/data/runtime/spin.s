// tests/data/runtime/spin.s — a kernel that never ends: one s_branch to
// itself.  The runtime's hang tests dispatch it; assembled by llvm-mc and
// linked by ld.lld at test time.
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.text
.globl spin
.p2align 8
.type spin,@function
spin:
    s_branch spin
    s_endpgm
.rodata
.p2align 6
.amdhsa_kernel spin
    .amdhsa_next_free_vgpr 1
    .amdhsa_next_free_sgpr 1
.end_amdhsa_kernel
