/*
 * emu/core/gfx12.c — RDNA4 (gfx12) instructions that have no gfx11 counterpart: the split
 * wait counters (s_wait_loadcnt, ..., s_wait_loadcnt_dscnt), the workgroup barrier as
 * s_barrier_signal / s_barrier_wait, s_sleep_var, the 64-bit SALU adds and multiply,
 * sub-dword and 96-bit scalar loads, and v_permlane16_var / v_permlanex16_var (FP8/BF8:
 * valu_fp8.c; WMMA and SWMMAC: wmma12.c).
 * Reference: the pcode in isa/data/rdna4.json; docs/emu.md, Targets.
 */
#include <math.h>

#include "emu/core/exec.h"
#include "emu/core/ops.h"
#include "emu/core/valu.h"

/* ------------------------------------------------------------ waits */

/*
 * s_wait_<counter> simm16 (param 0 loadcnt, 1 storecnt, 2 samplecnt, 3 bvhcnt, 4 kmcnt,
 * 5 dscnt, 6 expcnt), s_wait_loadcnt_dscnt / s_wait_storecnt_dscnt (7, 8: the first counter
 * in simm16[13:8], dscnt in [5:0]).  The emulator runs every instruction to completion in
 * order, so a wait changes no value; the timing model keeps gfx11's two groups (vector
 * memory: loadcnt, storecnt, samplecnt, bvhcnt; scalar memory and LDS: kmcnt, dscnt), so a
 * wait for N of one counter of a group waits until N operations of the group are
 * outstanding.
 */
void emu_s_wait12(emu_wave *w, const emu_inst *in)
{
    unsigned s = (unsigned)in->imm & 0xffff;
    unsigned n = s > 63 ? 63 : s;
    switch (in->param) {
    case 0:
    case 1:
    case 2:
    case 3:
        emu_cycle_wait(w, n, 64);
        break;
    case 4:
    case 5:
        emu_cycle_wait(w, 64, n);
        break;
    case 7:
    case 8:
        emu_cycle_wait(w, (s >> 8) & 63, s & 63);
        break;
    default:
        break;
    }
}

/* s_sleep_var: as s_sleep with the duration in an SGPR (64 clocks per unit, 7 bits) */
void emu_s_sleep_var(emu_wave *w, const emu_inst *in)
{
    w->cycles += 64u * (emu_s32(w, &in->src[0]) & 0x7f);
}

/* ------------------------------------------------------------ barriers */

/*
 * The workgroup barrier (-1) is the only one gfx12 compute code uses: s_barrier_signal -1
 * counts the wave in (param 1, s_barrier_signal_isfirst: SCC = 1 for the first wave to
 * signal this barrier), s_barrier_wait -1 waits until every live wave of the group is
 * there (gfx11's s_barrier).  Barrier 0 is a nop; other ids (named barriers) stop the
 * dispatch as unimplemented.
 */
static int barrier_id(emu_wave *w, const emu_inst *in, int32_t *id)
{
    *id = in->src[0].kind != EMU_K_NONE ? (int32_t)emu_s32(w, &in->src[0]) : (int16_t)in->imm;
    if (in->src[0].kind == EMU_K_SGPR && in->src[0].reg == EMU_M0)
        *id = (int32_t)(w->s[EMU_M0] & 31);
    if (*id == -1 || *id == 0)
        return 1;
    emu_fault(w, in, RDX_EMU_FAULT_UNIMPLEMENTED, 0, 0, 0,
              "named barriers (id other than -1 and 0) are not emulated");
    return 0;
}

void emu_s_barrier_signal(emu_wave *w, const emu_inst *in)
{
    int32_t id;
    if (!barrier_id(w, in, &id))
        return;
    if (id == 0) {
        if (in->param)
            w->scc = 0;
        return;
    }
    emu_wg *g = w->wg;
    if (g->bar_gen != w->bar_passed) {
        g->bar_gen = w->bar_passed;
        g->bar_signals = 0;
    }
    if (in->param)
        w->scc = g->bar_signals == 0;
    g->bar_signals++;
}

void emu_s_barrier_wait(emu_wave *w, const emu_inst *in)
{
    int16_t id = (int16_t)in->imm;
    if (id == 0)
        return;
    if (id != -1) {
        emu_fault(w, in, RDX_EMU_FAULT_UNIMPLEMENTED, 0, 0, 0,
                  "named barriers (id other than -1 and 0) are not emulated");
        return;
    }
    w->bar_passed++;
    emu_s_barrier(w, in);
}

/* ------------------------------------------------------------ SALU */

/* s_add_nc_u64 (param 0), s_sub_nc_u64 (1), s_mul_u64 (2): no SCC */
void emu_s_arith_u64(emu_wave *w, const emu_inst *in)
{
    uint64_t a = emu_s64(w, &in->src[0]), b = emu_s64(w, &in->src[1]);
    emu_swrite64(w, &in->sdst, in->param == 0 ? a + b : in->param == 1 ? a - b : a * b);
}

/* s_load_u8/i8/u16/i16 and s_buffer_load_*: param bytes (1, 2) | signed << 4 | buffer << 8 */
void emu_s_load_sub(emu_wave *w, const emu_inst *in)
{
    unsigned n = in->param & 15, sgn = (in->param >> 4) & 1;
    uint64_t off = (uint64_t)(int64_t)in->offset;
    if (in->soffset.kind != EMU_K_NONE)
        off += emu_s32(w, &in->soffset);
    uint64_t a;
    int in_range = 1;
    emu_smem_gap(w, in);
    emu_cycle_lgkm(w, EMU_TM(w)->LAT_SMEM);
    emu_touch_begin(w);
    if (in->param & 0x100) {
        unsigned r = in->sbase.reg;
        a = (w->s[r] | (uint64_t)(w->s[r + 1] & 0xffff) << 32) + off;
        in_range = off + n <= w->s[r + 2];
    } else {
        a = emu_s64(w, &in->sbase) + off;
    }
    uint32_t v = 0;
    if (in_range) {
        if (!emu_mem_ok(w, a, n, RDX_EMU_READ)) {
            emu_vm_fault(w, in, a, n, 0, 0);
            return;
        }
        memcpy(&v, (const void *)(uintptr_t)a, n);
        emu_touch(w, a, n, 1, 0);
        if (sgn)
            v = n == 1 ? (uint32_t)(int32_t)(int8_t)v : (uint32_t)(int32_t)(int16_t)v;
    }
    if (in->dst.reg < EMU_SINK)
        w->s[in->dst.reg] = v;
    emu_count_mem(w, n, 0);
}

/* ------------------------------------------------------------ VALU */

/* v_permlane16_var_b32 (param 0) / v_permlanex16_var_b32 (1): lane select in S1[3:0] of
   each lane, within its row of 16 (the other row of the pair for x16) */
void emu_v_permlane_var(emu_wave *w, const emu_inst *in)
{
    uint32_t src[EMU_MAX_LANES], sel[EMU_MAX_LANES], r[EMU_MAX_LANES];
    memcpy(src, w->v[in->src[0].reg], sizeof src);
    memcpy(sel, w->v[in->src[1].reg], sizeof sel);
    LANES
    {
        unsigned row = l / 16, srow = in->param ? row ^ 1 : row;
        r[l] = src[(srow * 16 + (sel[l] & 15)) % NL];
    }
    vdst(w, in, r);
}

/* ------------------------------------------------------------ IEEE 754-2019 min/max */

/*
 * v_minimum / v_maximum (f16, f32, f64), the 3-operand and fused forms: a NaN operand gives a
 * quiet NaN (the first NaN, quieted), -0 < +0 (the pcode in rdna4.json).  Values are compared
 * in double, which holds every f16/f32/f64 exactly.
 */
static double ieee_minimum(double a, double b)
{
    if (a != a)
        return a;
    if (b != b)
        return b;
    if (a == b)
        return signbit(a) ? a : b;
    return a < b ? a : b;
}
static double ieee_maximum(double a, double b)
{
    if (a != a)
        return a;
    if (b != b)
        return b;
    if (a == b)
        return signbit(a) ? b : a;
    return a > b ? a : b;
}
/* param: 0 minimum, 1 maximum, 2 minimum3, 3 maximum3, 4 minimummaximum (max(min(a,b),c)),
   5 maximumminimum (min(max(a,b),c)) */
static double minmax_op(unsigned p, double a, double b, double c)
{
    switch (p) {
    case 0:
        return ieee_minimum(a, b);
    case 1:
        return ieee_maximum(a, b);
    case 2:
        return ieee_minimum(ieee_minimum(a, b), c);
    case 3:
        return ieee_maximum(ieee_maximum(a, b), c);
    case 4:
        return ieee_maximum(ieee_minimum(a, b), c);
    default:
        return ieee_minimum(ieee_maximum(a, b), c);
    }
}

void emu_v_minimum_f32(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES], b[EMU_MAX_LANES], c[EMU_MAX_LANES], r[EMU_MAX_LANES];
    vsrcf(w, in, 0, a);
    vsrcf(w, in, 1, b);
    if (in->param >= 2)
        vsrcf(w, in, 2, c);
    LANES
    {
        double x = minmax_op(in->param, a[l], b[l], in->param >= 2 ? c[l] : 0.0);
        r[l] = x != x ? f32_of(u32_of((float)x) | 0x400000u) : (float)x;
    }
    vdstf(w, in, r);
}

void emu_v_minimum_f16(emu_wave *w, const emu_inst *in)
{
    float a[EMU_MAX_LANES], b[EMU_MAX_LANES], c[EMU_MAX_LANES];
    double r[EMU_MAX_LANES];
    vsrch(w, in, 0, a);
    vsrch(w, in, 1, b);
    if (in->param >= 2)
        vsrch(w, in, 2, c);
    LANES
    r[l] = minmax_op(in->param, a[l], b[l], in->param >= 2 ? c[l] : 0.0);
    vdsthd(w, in, r);
}

void emu_v_minimum_f64(emu_wave *w, const emu_inst *in)
{
    double a[EMU_MAX_LANES], b[EMU_MAX_LANES], r[EMU_MAX_LANES];
    vsrcd(w, in, 0, a);
    vsrcd(w, in, 1, b);
    LANES
    {
        r[l] = minmax_op(in->param, a[l], b[l], 0.0);
        if (r[l] != r[l])
            r[l] = f64_of(u64_of(r[l]) | 0x8000000000000ull);
    }
    vdstd(w, in, r);
}

/* ------------------------------------------------------------ VALU ops with an SGPR result */

/*
 * v_s_exp/log/rcp/rsq/sqrt_f32/f16: the transcendental of a scalar source, written to an
 * SGPR (computed as the VALU's v_exp_f32 ... are: host libm on the value; f16 rounded once in
 * FP_ROUND[3:2]).  param: 0 exp, 1 log, 2 rcp, 3 rsq, 4 sqrt; bit 3 f16.
 */
void emu_v_s_trans(emu_wave *w, const emu_inst *in)
{
    uint32_t u = emu_s32(w, &in->src[0]);
    int f16 = (in->param & 8) != 0;
    double x;
    if (f16) {
        uint16_t h = (uint16_t)u;
        if (in->abs & 1)
            h &= 0x7fff;
        if (in->neg & 1)
            h ^= 0x8000;
        if (!(emu_denorm64(w) & 1))
            h = f16_flush(h);
        x = f16_to_f32(h);
    } else {
        if (in->abs & 1)
            u &= 0x7fffffffu;
        if (in->neg & 1)
            u ^= 0x80000000u;
        if (!(emu_denorm32(w) & 1))
            u = f32_flush(u);
        x = f32_of(u);
    }
    double r;
    switch (in->param & 7) {
    case 0:
        r = f16 ? exp2(x) : exp2f((float)x);
        break;
    case 1:
        r = f16 ? log2(x) : log2f((float)x);
        break;
    case 2:
        r = f16 ? 1.0 / x : 1.0f / (float)x;
        break;
    case 3:
        r = f16 ? 1.0 / sqrt(x) : 1.0f / sqrtf((float)x);
        break;
    default:
        r = f16 ? sqrt(x) : sqrtf((float)x);
        break;
    }
    if (in->clamp)
        r = r != r ? 0.0 : r < 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;
    if (f16) {
        uint16_t h = f64_to_f16_rm(r, emu_round64(w));
        emu_swrite32(w, &in->sdst, (emu_denorm64(w) & 2) ? h : f16_flush(h));
    } else {
        uint32_t o = u32_of((float)r);
        emu_swrite32(w, &in->sdst, (emu_denorm32(w) & 2) ? o : f32_flush(o));
    }
}
