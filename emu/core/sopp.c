/*
 * emu/core/sopp.c — program control: branches, s_endpgm, s_barrier,
 * s_waitcnt*, s_sendmsg, s_sleep/s_nop, hardware registers
 * (s_getreg/s_setreg), s_round_mode/s_denorm_mode.
 */
#include <fenv.h>
#include <stdio.h>

#include "emu/core/emu_int.h"
#include "emu/core/exec.h"
#include "emu/core/ops.h"

static void branch(emu_wave *w, const emu_inst *in)
{
    w->pc = in->pc + in->size + (int64_t)(int16_t)in->imm * 4;
}

void emu_s_branch(emu_wave *w, const emu_inst *in)
{
    branch(w, in);
}

/* s_cbranch_*: param 0 scc0, 1 scc1, 2 vccz, 3 vccnz, 4 execz, 5 execnz */
void emu_s_cbranch(emu_wave *w, const emu_inst *in)
{
    uint64_t vcc = w->s[EMU_VCC] | (w->nl == 64 ? (uint64_t)w->s[EMU_VCC + 1] << 32 : 0);
    int t;
    if (in->param >= 2) /* VCC / EXEC from a VALU */
        emu_timing_fwd(w, in->icyc);
    switch (in->param) {
    case 0:
        t = w->scc == 0;
        break;
    case 1:
        t = w->scc != 0;
        break;
    case 2:
        t = vcc == 0;
        break;
    case 3:
        t = vcc != 0;
        break;
    case 4:
        t = emu_exec(w) == 0;
        break;
    default:
        t = emu_exec(w) != 0;
        break;
    }
    if (t)
        branch(w, in);
}

void emu_s_endpgm(emu_wave *w, const emu_inst *in)
{
    (void)in;
    emu_cycle_wait(w, 0, 64); /* the wave ends when its stores are written */
    w->state = EMU_W_DONE;
    w->stop = 1;
}

void emu_s_barrier(emu_wave *w, const emu_inst *in)
{
    (void)in;
    if (w->wg->nwaves > 1) {
        w->state = EMU_W_BARRIER;
        w->stop = 1;
    }
}

void emu_s_nop(emu_wave *w, const emu_inst *in)
{
    (void)w;
    (void)in;
}

void emu_s_sleep(emu_wave *w, const emu_inst *in)
{
    w->cycles += EMU_T_SLEEP_UNIT * (unsigned)(in->imm & 0x7f);
}

/* s_waitcnt simm16 (gfx11: vmcnt [15:10], expcnt [2:0], lgkmcnt [9:4]). */
void emu_s_waitcnt(emu_wave *w, const emu_inst *in)
{
    unsigned s = (unsigned)in->imm & 0xffff;
    unsigned vm = (s >> 10) & 63, lgkm = (s >> 4) & 63;
    emu_cycle_wait(w, vm, lgkm);
}
/* s_waitcnt_{vmcnt,vscnt,lgkmcnt,expcnt} sdst, simm16: param 0 vm, 1 vs, 2 lgkm, 3 exp */
void emu_s_waitcnt_k(emu_wave *w, const emu_inst *in)
{
    unsigned n = ((unsigned)in->imm & 0xffff) + emu_s32(w, &in->sdst);
    if (in->param == 0 || in->param == 1)
        emu_cycle_wait(w, n > 63 ? 63 : n, 64);
    else if (in->param == 2)
        emu_cycle_wait(w, 64, n > 63 ? 63 : n);
}

/* s_sendmsg: MSG_DEALLOC_VGPRS (3) and the rest are accepted and ignored (no GPU state). */
void emu_s_sendmsg(emu_wave *w, const emu_inst *in)
{
    (void)w;
    (void)in;
}

/*
 * s_trap: the hardware jumps to the trap handler at TBA with the trap id in TTMP1.
 * The emulator installs no trap handler (compute dispatches run without one), so a
 * trap stops the dispatch with a TRAP fault naming the trap id (SIMM16[7:0]; HSA's
 * ids: 2 = llvm.trap / abort, 3 = llvm.debugtrap) at the s_trap's own PC.
 */
void emu_s_trap(emu_wave *w, const emu_inst *in)
{
    unsigned id = (unsigned)in->imm & 0xffu;
    char what[128];
    snprintf(what, sizeof what, "trap id %u%s with no trap handler installed", id,
             id == 2   ? " (llvm.trap)"
             : id == 3 ? " (llvm.debugtrap)"
                       : "");
    emu_fault(w, in, RDX_EMU_FAULT_TRAP, 0, 0, 0, what);
}

/* s_rfe_b64: return from the trap handler: PC = S0 (the privilege bit has no effect here). */
void emu_s_rfe_b64(emu_wave *w, const emu_inst *in)
{
    w->pc = emu_s64(w, &in->src[0]) & ~3ull;
}

/*
 * s_subvector_loop_begin / _end (SOPK: SDST, SIMM16 branch offset): run the code between
 * them once for the low 32 lanes and once for the high 32 lanes of a wave64 (RDNA ISA
 * guide; the gfx11 pseudocode table has no entry).  Begin: with lanes in EXEC[31:0],
 * save EXEC[63:32] in SDST and clear it (low pass); otherwise SDST = 0 and the body runs
 * for the high lanes only.  End: after the low pass (EXEC[63:32] == 0) with saved high
 * lanes, EXEC[63:32] = SDST, SDST = EXEC[31:0], EXEC[31:0] = 0 and branch back to the
 * body; after the high pass EXEC[31:0] = SDST.  In wave32 EXEC[63:32] is 0: both
 * instructions fall through with SDST = 0.
 */
static void sopk_fields(const emu_inst *in, unsigned *sdst, int32_t *simm)
{
    uint32_t word;
    memcpy(&word, in->raw, 4);
    *sdst = (word >> 16) & 127;
    *simm = (int16_t)(word & 0xffff);
}

void emu_s_subvector_loop_begin(emu_wave *w, const emu_inst *in)
{
    unsigned d;
    int32_t simm;
    sopk_fields(in, &d, &simm);
    uint64_t e = emu_exec(w);
    uint32_t saved = 0;
    if ((uint32_t)e != 0) {
        saved = (uint32_t)(e >> 32);
        emu_set_exec(w, e & 0xffffffffull);
    }
    w->s[emu_sdst_reg(d)] = saved;
}

void emu_s_subvector_loop_end(emu_wave *w, const emu_inst *in)
{
    unsigned d;
    int32_t simm;
    sopk_fields(in, &d, &simm);
    unsigned r = emu_sdst_reg(d);
    uint64_t e = emu_exec(w);
    if ((e >> 32) == 0) {
        if (w->s[r] != 0 && w->nl == 64) {
            emu_set_exec(w, (uint64_t)w->s[r] << 32);
            w->s[r] = (uint32_t)e;
            w->pc = in->pc + 4 + (int64_t)simm * 4;
        }
    } else {
        emu_set_exec(w, (e & ~0xffffffffull) | w->s[r]);
    }
}

/* The host FPU rounding mode of MODE rounding field value rm. */
int emu_fe_mode(unsigned rm)
{
    static const int modes[4] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO };
    return modes[rm & 3];
}

void emu_apply_round(emu_wave *w)
{
    int m = emu_fe_mode(w->mode & 3);
    if (fegetround() != m)
        fesetround(m);
}

void emu_s_round_mode(emu_wave *w, const emu_inst *in)
{
    w->mode = (w->mode & ~0xfu) | ((unsigned)in->imm & 0xf);
    emu_apply_round(w);
}
void emu_s_denorm_mode(emu_wave *w, const emu_inst *in)
{
    w->mode = (w->mode & ~0xf0u) | (((unsigned)in->imm & 0xf) << 4);
}

/* Hardware registers a kernel can read (ids from rdna3.json "hwreg"). */
static uint32_t hwreg_read(emu_wave *w, unsigned id)
{
    switch (id) {
    case 1: /* MODE */
        return w->mode;
    case 2: /* STATUS: SCC [0], EXECZ [9], VCCZ [10], IN_TG [11], VALID [16] */
        return w->scc | (uint32_t)(emu_exec(w) == 0) << 9 |
               (uint32_t)((w->s[EMU_VCC] | (w->nl == 64 ? w->s[EMU_VCC + 1] : 0)) == 0) << 10 |
               (uint32_t)(w->wg->nwaves > 1) << 11 | 1u << 16;
    case 3:
        return w->trapsts;
    case 5: /* GPR_ALLOC: vgpr base/size, sgpr */
        return ((w->wk->ctx->nvgpr / 8 - 1) & 0xff) << 12;
    case 6: /* LDS_ALLOC: size in 256-byte blocks at bits 12..20 */
        return ((w->wg->lds_size + 255) / 256) << 12;
    case 23: /* HW_ID1: wave id [4:0], simd [9:8], wgp [13:10], sa [16], se [20:18] */
        return w->id & 31;
    case 24: /* HW_ID2 */
        return 0;
    case 29: /* SHADER_CYCLES */
        return (uint32_t)(w->cycles & 0xfffff);
    default:
        return 0;
    }
}

static void hwreg_write(emu_wave *w, unsigned id, uint32_t v, uint32_t mask)
{
    if (id == 1) {
        w->mode = (w->mode & ~mask) | (v & mask);
        emu_apply_round(w);
    } else if (id == 3) {
        w->trapsts = (w->trapsts & ~mask) | (v & mask);
    }
}

void emu_s_getreg_b32(emu_wave *w, const emu_inst *in)
{
    unsigned s = (unsigned)in->imm & 0xffff;
    unsigned id = s & 63, off = (s >> 6) & 31, size = ((s >> 11) & 31) + 1;
    uint32_t v = hwreg_read(w, id) >> off;
    if (size < 32)
        v &= (1u << size) - 1;
    emu_swrite32(w, &in->sdst, v);
}

/* s_setreg_b32 hwreg, sdst / s_setreg_imm32_b32 hwreg, literal */
void emu_s_setreg_b32(emu_wave *w, const emu_inst *in)
{
    unsigned s = (unsigned)in->imm & 0xffff;
    unsigned id = s & 63, off = (s >> 6) & 31, size = ((s >> 11) & 31) + 1;
    /* an SGPR, or the literal K of s_setreg_imm32 */
    uint32_t val =
        in->src[2].kind == EMU_K_CONST ? (uint32_t)in->src[2].val : emu_s32(w, &in->sdst);
    uint32_t mask = (size >= 32 ? 0xffffffffu : ((1u << size) - 1)) << off;
    hwreg_write(w, id, val << off, mask);
}

/* s_sendmsg_rtn_b32/b64: MSG_RTN_GET_REALTIME (0x83) and others return the wave's clock */
void emu_s_sendmsg_rtn(emu_wave *w, const emu_inst *in)
{
    if (in->param)
        emu_swrite64(w, &in->sdst, w->cycles);
    else
        emu_swrite32(w, &in->sdst, (uint32_t)w->cycles);
}
