/*
 * emu/core/gfx12.c — RDNA4 (gfx12) instructions that have no gfx11 counterpart: the split
 * wait counters (s_wait_loadcnt, ..., s_wait_loadcnt_dscnt), the workgroup barrier as
 * s_barrier_signal / s_barrier_wait, s_sleep_var, the 64-bit SALU adds and multiply,
 * sub-dword and 96-bit scalar loads, and v_permlane16_var / v_permlanex16_var.
 * Reference: the pcode in isa/data/rdna4.json; docs/emu.md, Targets.
 */
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
    emu_cycle_lgkm(w, EMU_T_LAT_SMEM);
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
