/*
 * emu/core/salu.c — scalar ALU semantics: SOP1, SOP2, SOPC, SOPK (not the
 * program-control ones, see sopp.c).  Reference: the pcode of each
 * instruction in isa/data/rdna3.json.
 */
#include "emu/core/emu_int.h"
#include "emu/core/ops.h"

#define A32    emu_s32(w, &in->src[0])
#define B32    emu_s32(w, &in->src[1])
#define A64    emu_s64(w, &in->src[0])
#define B64    emu_s64(w, &in->src[1])
#define D32(v) emu_swrite32(w, &in->sdst, (v))
#define D64(v) emu_swrite64(w, &in->sdst, (v))

/* ------------------------------------------------------------------ SOP2 */

void emu_s_add_u32(emu_wave *w, const emu_inst *in)
{
    uint64_t r = (uint64_t)A32 + B32;
    w->scc = (uint32_t)(r >> 32);
    D32((uint32_t)r);
}
void emu_s_sub_u32(emu_wave *w, const emu_inst *in)
{
    uint32_t a = A32, b = B32;
    w->scc = b > a;
    D32(a - b);
}
void emu_s_addc_u32(emu_wave *w, const emu_inst *in)
{
    uint64_t r = (uint64_t)A32 + B32 + w->scc;
    w->scc = (uint32_t)(r >> 32);
    D32((uint32_t)r);
}
void emu_s_subb_u32(emu_wave *w, const emu_inst *in)
{
    uint32_t a = A32, b = B32, c = w->scc;
    w->scc = (uint64_t)b + c > a;
    D32(a - b - c);
}
void emu_s_add_i32(emu_wave *w, const emu_inst *in)
{
    uint32_t a = A32, b = B32, d = a + b;
    w->scc = ((~(a ^ b)) & (a ^ d)) >> 31;
    D32(d);
}
void emu_s_sub_i32(emu_wave *w, const emu_inst *in)
{
    uint32_t a = A32, b = B32, d = a - b;
    w->scc = ((a ^ b) & (a ^ d)) >> 31;
    D32(d);
}
void emu_s_min_i32(emu_wave *w, const emu_inst *in)
{
    int32_t a = (int32_t)A32, b = (int32_t)B32;
    w->scc = a < b;
    D32((uint32_t)(a < b ? a : b));
}
void emu_s_min_u32(emu_wave *w, const emu_inst *in)
{
    uint32_t a = A32, b = B32;
    w->scc = a < b;
    D32(a < b ? a : b);
}
void emu_s_max_i32(emu_wave *w, const emu_inst *in)
{
    int32_t a = (int32_t)A32, b = (int32_t)B32;
    w->scc = a > b;
    D32((uint32_t)(a > b ? a : b));
}
void emu_s_max_u32(emu_wave *w, const emu_inst *in)
{
    uint32_t a = A32, b = B32;
    w->scc = a > b;
    D32(a > b ? a : b);
}
void emu_s_cselect_b32(emu_wave *w, const emu_inst *in)
{
    D32(w->scc ? A32 : B32);
}
void emu_s_cselect_b64(emu_wave *w, const emu_inst *in)
{
    D64(w->scc ? A64 : B64);
}

/* Bitwise ops: param selects the function; SCC = result != 0. */
enum { BW_AND, BW_OR, BW_XOR, BW_NAND, BW_NOR, BW_XNOR, BW_ANDN1, BW_ORN1 };
static inline uint64_t bitop(unsigned p, uint64_t a, uint64_t b)
{
    switch (p) {
    case BW_AND:
        return a & b;
    case BW_OR:
        return a | b;
    case BW_XOR:
        return a ^ b;
    case BW_NAND:
        return ~(a & b);
    case BW_NOR:
        return ~(a | b);
    case BW_XNOR:
        return ~(a ^ b);
    case BW_ANDN1:
        return a & ~b;
    default:
        return a | ~b;
    }
}
void emu_s_bitop_b32(emu_wave *w, const emu_inst *in)
{
    uint32_t d = (uint32_t)bitop(in->param, A32, B32);
    w->scc = d != 0;
    D32(d);
}
void emu_s_bitop_b64(emu_wave *w, const emu_inst *in)
{
    uint64_t d = bitop(in->param, A64, B64);
    w->scc = d != 0;
    D64(d);
}
void emu_s_lshl_b32(emu_wave *w, const emu_inst *in)
{
    uint32_t d = A32 << (B32 & 31);
    w->scc = d != 0;
    D32(d);
}
void emu_s_lshl_b64(emu_wave *w, const emu_inst *in)
{
    uint64_t d = A64 << (B32 & 63);
    w->scc = d != 0;
    D64(d);
}
void emu_s_lshr_b32(emu_wave *w, const emu_inst *in)
{
    uint32_t d = A32 >> (B32 & 31);
    w->scc = d != 0;
    D32(d);
}
void emu_s_lshr_b64(emu_wave *w, const emu_inst *in)
{
    uint64_t d = A64 >> (B32 & 63);
    w->scc = d != 0;
    D64(d);
}
void emu_s_ashr_i32(emu_wave *w, const emu_inst *in)
{
    uint32_t d = (uint32_t)((int32_t)A32 >> (B32 & 31));
    w->scc = d != 0;
    D32(d);
}
void emu_s_ashr_i64(emu_wave *w, const emu_inst *in)
{
    uint64_t d = (uint64_t)((int64_t)A64 >> (B32 & 63));
    w->scc = d != 0;
    D64(d);
}
/* s_lshlN_add_u32: param = N */
void emu_s_lshl_add_u32(emu_wave *w, const emu_inst *in)
{
    uint64_t r = ((uint64_t)A32 << in->param) + B32;
    w->scc = r >= 0x100000000ull;
    D32((uint32_t)r);
}
void emu_s_bfm_b32(emu_wave *w, const emu_inst *in)
{
    D32(((1u << (A32 & 31)) - 1) << (B32 & 31));
}
void emu_s_bfm_b64(emu_wave *w, const emu_inst *in)
{
    D64(((1ull << (A32 & 63)) - 1) << (B32 & 63));
}
void emu_s_mul_i32(emu_wave *w, const emu_inst *in)
{
    D32(A32 * B32);
}
void emu_s_mul_hi_u32(emu_wave *w, const emu_inst *in)
{
    D32((uint32_t)(((uint64_t)A32 * B32) >> 32));
}
void emu_s_mul_hi_i32(emu_wave *w, const emu_inst *in)
{
    D32((uint32_t)((uint64_t)((int64_t)(int32_t)A32 * (int32_t)B32) >> 32));
}
void emu_s_bfe_u32(emu_wave *w, const emu_inst *in)
{
    uint32_t b = B32, off = b & 31, wd = (b >> 16) & 127;
    uint32_t d = wd >= 32 ? A32 >> off : (A32 >> off) & ((1u << wd) - 1);
    w->scc = d != 0;
    D32(d);
}
void emu_s_bfe_i32(emu_wave *w, const emu_inst *in)
{
    uint32_t b = B32, off = b & 31, wd = (b >> 16) & 127;
    int32_t d;
    if (wd == 0)
        d = 0;
    else if (wd >= 32)
        d = (int32_t)A32 >> off;
    else
        d = (int32_t)((uint32_t)((int32_t)A32 >> off) << (32 - wd)) >> (32 - wd);
    w->scc = d != 0;
    D32((uint32_t)d);
}
void emu_s_bfe_u64(emu_wave *w, const emu_inst *in)
{
    uint32_t b = B32, off = b & 63, wd = (b >> 16) & 127;
    uint64_t d = wd >= 64 ? A64 >> off : (A64 >> off) & ((1ull << wd) - 1);
    w->scc = d != 0;
    D64(d);
}
void emu_s_bfe_i64(emu_wave *w, const emu_inst *in)
{
    uint32_t b = B32, off = b & 63, wd = (b >> 16) & 127;
    int64_t d;
    if (wd == 0)
        d = 0;
    else if (wd >= 64)
        d = (int64_t)A64 >> off;
    else
        d = (int64_t)((uint64_t)((int64_t)A64 >> off) << (64 - wd)) >> (64 - wd);
    w->scc = d != 0;
    D64((uint64_t)d);
}
void emu_s_absdiff_i32(emu_wave *w, const emu_inst *in)
{
    int64_t d = (int64_t)(int32_t)A32 - (int32_t)B32;
    uint32_t r = (uint32_t)(d < 0 ? -d : d);
    w->scc = r != 0;
    D32(r);
}
/* s_pack_{ll,lh,hl,hh}_b32_b16: param bit0 = high half of src0, bit1 = of src1 */
void emu_s_pack(emu_wave *w, const emu_inst *in)
{
    uint32_t a = A32, b = B32;
    uint32_t lo = (in->param & 1) ? a >> 16 : a & 0xffff;
    uint32_t hi = (in->param & 2) ? b >> 16 : b & 0xffff;
    D32(lo | hi << 16);
}

/* ------------------------------------------------------------------ SOP1 */

void emu_s_mov_b32(emu_wave *w, const emu_inst *in)
{
    D32(A32);
}
void emu_s_mov_b64(emu_wave *w, const emu_inst *in)
{
    D64(A64);
}
void emu_s_cmov_b32(emu_wave *w, const emu_inst *in)
{
    if (w->scc)
        D32(A32);
}
void emu_s_cmov_b64(emu_wave *w, const emu_inst *in)
{
    if (w->scc)
        D64(A64);
}
void emu_s_not_b32(emu_wave *w, const emu_inst *in)
{
    uint32_t d = ~A32;
    w->scc = d != 0;
    D32(d);
}
void emu_s_not_b64(emu_wave *w, const emu_inst *in)
{
    uint64_t d = ~A64;
    w->scc = d != 0;
    D64(d);
}
void emu_s_brev_b32(emu_wave *w, const emu_inst *in)
{
    uint32_t a = A32, d = 0;
    for (int i = 0; i < 32; i++)
        d |= ((a >> i) & 1) << (31 - i);
    D32(d);
}
void emu_s_brev_b64(emu_wave *w, const emu_inst *in)
{
    uint64_t a = A64, d = 0;
    for (int i = 0; i < 64; i++)
        d |= ((a >> i) & 1) << (63 - i);
    D64(d);
}
void emu_s_bcnt1_b32(emu_wave *w, const emu_inst *in)
{
    uint32_t d = (uint32_t)__builtin_popcount(A32);
    if (in->param)
        d = 32 - d;
    w->scc = d != 0;
    D32(d);
}
void emu_s_bcnt1_b64(emu_wave *w, const emu_inst *in)
{
    uint32_t d = (uint32_t)emu_popcount(A64);
    if (in->param)
        d = 64 - d;
    w->scc = d != 0;
    D32(d);
}
/* s_ctz_i32_b32 (param 0: lowest set bit), s_clz_i32_u32 (1: count leading zeros) */
void emu_s_ctz_b32(emu_wave *w, const emu_inst *in)
{
    uint32_t a = A32;
    D32(a ? (uint32_t)__builtin_ctz(a) : 0xffffffffu);
}
void emu_s_ctz_b64(emu_wave *w, const emu_inst *in)
{
    uint64_t a = A64;
    D32(a ? (uint32_t)__builtin_ctzll(a) : 0xffffffffu);
}
void emu_s_clz_u32(emu_wave *w, const emu_inst *in)
{
    uint32_t a = A32;
    D32(a ? (uint32_t)__builtin_clz(a) : 0xffffffffu);
}
void emu_s_clz_u64(emu_wave *w, const emu_inst *in)
{
    uint64_t a = A64;
    D32(a ? (uint32_t)__builtin_clzll(a) : 0xffffffffu);
}
void emu_s_cls_i32(emu_wave *w, const emu_inst *in)
{
    uint32_t a = A32;
    if (a == 0 || a == 0xffffffffu) {
        D32(0xffffffffu);
        return;
    }
    uint32_t x = (a >> 31) ? ~a : a;
    D32((uint32_t)__builtin_clz(x));
}
void emu_s_cls_i64(emu_wave *w, const emu_inst *in)
{
    uint64_t a = A64;
    if (a == 0 || a == ~0ull) {
        D32(0xffffffffu);
        return;
    }
    uint64_t x = (a >> 63) ? ~a : a;
    D32((uint32_t)__builtin_clzll(x));
}
void emu_s_sext_i32_i8(emu_wave *w, const emu_inst *in)
{
    D32((uint32_t)(int32_t)(int8_t)A32);
}
void emu_s_sext_i32_i16(emu_wave *w, const emu_inst *in)
{
    D32((uint32_t)(int32_t)(int16_t)A32);
}
/* s_bitset0/1: param = value */
void emu_s_bitset_b32(emu_wave *w, const emu_inst *in)
{
    uint32_t d = w->s[emu_sdst_reg(in->sdst.reg)], b = A32 & 31;
    d = in->param ? d | (1u << b) : d & ~(1u << b);
    D32(d);
}
void emu_s_bitset_b64(emu_wave *w, const emu_inst *in)
{
    uint64_t d = emu_s64(w, &in->sdst), b = A32 & 63;
    d = in->param ? d | (1ull << b) : d & ~(1ull << b);
    D64(d);
}
void emu_s_abs_i32(emu_wave *w, const emu_inst *in)
{
    int32_t a = (int32_t)A32;
    uint32_t d = a < 0 ? 0u - (uint32_t)a : (uint32_t)a;
    w->scc = d != 0;
    D32(d);
}
void emu_s_getpc_b64(emu_wave *w, const emu_inst *in)
{
    D64(in->pc + in->size);
}
void emu_s_setpc_b64(emu_wave *w, const emu_inst *in)
{
    w->pc = A64;
}
void emu_s_swappc_b64(emu_wave *w, const emu_inst *in)
{
    uint64_t t = A64;
    D64(in->pc + in->size);
    w->pc = t;
}

/*
 * s_<op>_saveexec_b32/b64: D = EXEC; EXEC = op(S0, EXEC) ...  param selects
 * the op: 0 and, 1 or, 2 xor, 3 nand, 4 nor, 5 xnor, 6 and_not0 (~S0 & EXEC),
 * 7 or_not0, 8 and_not1 (S0 & ~EXEC), 9 or_not1, 10 and_not0_wrexec,
 * 11 and_not1_wrexec (write result to both EXEC and D).
 */
static uint64_t saveexec_op(unsigned p, uint64_t s, uint64_t e)
{
    switch (p) {
    case 0:
        return s & e;
    case 1:
        return s | e;
    case 2:
        return s ^ e;
    case 3:
        return ~(s & e);
    case 4:
        return ~(s | e);
    case 5:
        return ~(s ^ e);
    case 6:
    case 10:
        return ~s & e;
    case 7:
        return ~s | e;
    case 8:
    case 11:
        return s & ~e;
    default:
        return s | ~e;
    }
}
void emu_s_saveexec(emu_wave *w, const emu_inst *in)
{
    uint64_t lanes = w->nl == 64 ? ~0ull : 0xffffffffull;
    uint64_t e = emu_exec(w);
    uint64_t s = (w->nl == 64 ? A64 : A32) & lanes;
    uint64_t r = saveexec_op(in->param, s, e) & lanes;
    if (in->param >= 10) {
        emu_set_exec(w, r);
        emu_swrite_mask(w, &in->sdst, r);
    } else {
        emu_swrite_mask(w, &in->sdst, e);
        emu_set_exec(w, r);
    }
    w->scc = r != 0;
}
/* s_movrels (param 0: D = S[M0]), s_movreld (1: D[M0] = S), s_movrelsd_2 (2) */
void emu_s_movrel_b32(emu_wave *w, const emu_inst *in)
{
    uint32_t m0 = w->s[EMU_M0];
    if (in->param == 0) {
        emu_opnd o = in->src[0];
        o.reg = (uint16_t)((o.reg + m0) & 127);
        D32(emu_s32(w, &o));
    } else if (in->param == 2) { /* SGPR[D + M0[25:16]] = SGPR[S0 + M0[9:0]] */
        emu_opnd o = in->src[0], d = in->sdst;
        o.reg = (uint16_t)((o.reg + (m0 & 0x3ff)) & 127);
        d.reg = (uint16_t)((d.reg + ((m0 >> 16) & 0x3ff)) & 127);
        emu_swrite32(w, &d, emu_s32(w, &o));
    } else {
        emu_opnd o = in->sdst;
        o.reg = (uint16_t)((o.reg + m0) & 127);
        emu_swrite32(w, &o, A32);
    }
}
void emu_s_movrel_b64(emu_wave *w, const emu_inst *in)
{
    uint32_t m0 = w->s[EMU_M0];
    if (in->param == 0) {
        emu_opnd o = in->src[0];
        o.reg = (uint16_t)((o.reg + m0) & 126);
        D64(emu_s64(w, &o));
    } else {
        emu_opnd o = in->sdst;
        o.reg = (uint16_t)((o.reg + m0) & 126);
        emu_swrite64(w, &o, A64);
    }
}
void emu_s_quadmask_b32(emu_wave *w, const emu_inst *in)
{
    uint32_t a = A32, d = 0;
    for (int i = 0; i < 8; i++)
        d |= (uint32_t)(((a >> (4 * i)) & 15) != 0) << i;
    w->scc = d != 0;
    D32(d);
}
void emu_s_quadmask_b64(emu_wave *w, const emu_inst *in)
{
    uint64_t a = A64, d = 0;
    for (int i = 0; i < 16; i++)
        d |= (uint64_t)(((a >> (4 * i)) & 15) != 0) << i;
    w->scc = d != 0;
    D64(d);
}
void emu_s_wqm_b32(emu_wave *w, const emu_inst *in)
{
    uint32_t a = A32, d = 0;
    for (int i = 0; i < 8; i++)
        if ((a >> (4 * i)) & 15)
            d |= 15u << (4 * i);
    w->scc = d != 0;
    D32(d);
}
void emu_s_wqm_b64(emu_wave *w, const emu_inst *in)
{
    uint64_t a = A64, d = 0;
    for (int i = 0; i < 16; i++)
        if ((a >> (4 * i)) & 15)
            d |= 15ull << (4 * i);
    w->scc = d != 0;
    D64(d);
}

/* ------------------------------------------------------------------ SOPC */

/* param: bits 0..2 condition (0 eq, 1 lg, 2 gt, 3 ge, 4 lt, 5 le), bit 3 signed, bit 4 64-bit */
void emu_s_cmp(emu_wave *w, const emu_inst *in)
{
    unsigned c = in->param & 7;
    int r;
    if (in->param & 16) {
        uint64_t a = A64, b = B64;
        r = c == 0 ? a == b : a != b;
    } else if (in->param & 8) {
        int32_t a = (int32_t)A32, b = (int32_t)B32;
        r = c == 0   ? a == b
            : c == 1 ? a != b
            : c == 2 ? a > b
            : c == 3 ? a >= b
            : c == 4 ? a < b
                     : a <= b;
    } else {
        uint32_t a = A32, b = B32;
        r = c == 0   ? a == b
            : c == 1 ? a != b
            : c == 2 ? a > b
            : c == 3 ? a >= b
            : c == 4 ? a < b
                     : a <= b;
    }
    w->scc = (uint32_t)r;
}
/* s_bitcmp0/1_b32/b64: param bit0 = value compared, bit1 = 64-bit */
void emu_s_bitcmp(emu_wave *w, const emu_inst *in)
{
    uint32_t bit;
    if (in->param & 2)
        bit = (uint32_t)((A64 >> (B32 & 63)) & 1);
    else
        bit = (A32 >> (B32 & 31)) & 1;
    w->scc = bit == (in->param & 1);
}

/* ------------------------------------------------------------------ SOPK */

void emu_s_movk_i32(emu_wave *w, const emu_inst *in)
{
    D32((uint32_t)(int32_t)(int16_t)in->imm);
}
void emu_s_cmovk_i32(emu_wave *w, const emu_inst *in)
{
    if (w->scc)
        D32((uint32_t)(int32_t)(int16_t)in->imm);
}
/* s_cmpk_*: compares the SGPR named by sdst with simm16 (param as emu_s_cmp) */
void emu_s_cmpk(emu_wave *w, const emu_inst *in)
{
    unsigned c = in->param & 7;
    uint32_t a = emu_s32(w, &in->sdst);
    int r;
    if (in->param & 8) {
        int32_t x = (int32_t)a, y = (int16_t)in->imm;
        r = c == 0   ? x == y
            : c == 1 ? x != y
            : c == 2 ? x > y
            : c == 3 ? x >= y
            : c == 4 ? x < y
                     : x <= y;
    } else {
        uint32_t x = a, y = (uint16_t)in->imm;
        r = c == 0   ? x == y
            : c == 1 ? x != y
            : c == 2 ? x > y
            : c == 3 ? x >= y
            : c == 4 ? x < y
                     : x <= y;
    }
    w->scc = (uint32_t)r;
}
void emu_s_addk_i32(emu_wave *w, const emu_inst *in)
{
    uint32_t a = emu_s32(w, &in->sdst), b = (uint32_t)(int32_t)(int16_t)in->imm, d = a + b;
    w->scc = ((~(a ^ b)) & (a ^ d)) >> 31;
    D32(d);
}
void emu_s_mulk_i32(emu_wave *w, const emu_inst *in)
{
    D32(emu_s32(w, &in->sdst) * (uint32_t)(int32_t)(int16_t)in->imm);
}
void emu_s_version(emu_wave *w, const emu_inst *in)
{
    (void)w;
    (void)in;
}
void emu_s_call_b64(emu_wave *w, const emu_inst *in)
{
    D64(in->pc + in->size);
    w->pc = in->pc + in->size + (int64_t)(int16_t)in->imm * 4;
}
