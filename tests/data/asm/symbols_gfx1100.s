// Symbols and expressions in operands, label differences (a literal, as llvm-mc
// encodes them), and numbered data directives; tests/asm compares with clang.
.text
.set X, 5
.set Y, X*2
Z = 0x10
.equ W, -1
s_mov_b32 s0, X
s_mov_b32 s0, Y+1
s_mov_b32 s0, Z
s_mov_b32 s0, W
v_add_f32 v0, X, v1
global_load_b32 v0, v1, s[2:3] offset:Z*2
s_waitcnt vmcnt(X)
s_getreg_b32 s0, hwreg(HW_REG_MODE, X, 4)
v_mov_b32 v[X], v[Y]
s_mov_b64 s[X+1:X+2], 0
loop:
s_add_u32 s0, s0, 1
s_cbranch_scc1 loop
s_branch end
s_nop 0
end:
s_branch .
s_mov_b32 s0, end-loop
s_endpgm
.2byte 5
.4byte -1
.8byte 1
