/* emu/core/exec.h — internal entry points between the executor, decoder and semantics. */
#ifndef RDX_EMU_CORE_EXEC_H
#define RDX_EMU_CORE_EXEC_H

#include "emu/core/emu_int.h"
#include "emu/core/timing.h"

/* The wave's family's timing constants (emu/core/timing.def): EMU_TM(w)->LAT_SMEM. */
#define EMU_TM(w) ((w)->wk->ctx->emu->tm)

/*
 * Decode the instruction at host address pc (avail readable bytes) into *in
 * (handler, operands, modifiers).  Returns RDX_EMU_FAULT_NONE, or
 * INVALID_INST / UNIMPLEMENTED with *why set; in->op and in->size are valid
 * for UNIMPLEMENTED.
 */
rdx_emu_fault_kind emu_predecode(emu_worker *wk, const rdx_isa_target *t, uint64_t pc, size_t avail,
                                 emu_inst *in, const char **why);

/* A fresh zeroed instruction from the worker's arena (VOPD halves); NULL when out of memory. */
emu_inst *emu_worker_inst(emu_worker *wk);

/* s_delay_alu: the next instruction (instid0) and, with instskip, a later one (instid1)
   wait for the VALU, trans or SALU result they name. */
void emu_s_delay_alu(emu_wave *w, const emu_inst *in);

/* The instid1 of an earlier s_delay_alu, counted down at every instruction (exec.c):
   applied before the instruction it names issues. */
void emu_delay_step(emu_wave *w);

/* Issue no earlier than EMU_T_VALU_FWD after the wave's last VALU: called by a VMEM, LDS
   or EXEC/VCC branch instruction after its icyc issue cycles were added. */
static inline void emu_timing_fwd(emu_wave *w, unsigned icyc)
{
    if (!w->vn)
        return;
    uint64_t need = w->vt[(w->vn - 1) & 3] + EMU_T_VALU_FWD + icyc;
    if (w->cycles < need)
        w->cycles = need;
}

/* An SMEM instruction issues no earlier than SMEM_GAP after the wave's previous SMEM unless
   it directly follows it (s_clause); called by the scalar loads after their issue cycles. */
static inline void emu_smem_gap(emu_wave *w, const emu_inst *in)
{
    if (w->smem_next && in->pc != w->smem_next) {
        uint64_t need = w->smem_t + EMU_TM(w)->SMEM_GAP + in->icyc;
        if (w->cycles < need)
            w->cycles = need;
    }
    w->smem_t = w->cycles - in->icyc;
    w->smem_next = in->pc + in->size;
}

/* Cycle model: stall until at most vm / lgkm memory operations are outstanding. */
void emu_cycle_wait(emu_wave *w, unsigned vm, unsigned lgkm);

/* Memory map maintenance (mem.c). */
/* label: what the range is, for fault reports (copied), or NULL. */
rdx_status emu_mem_add(emu_memmap *m, uint64_t addr, uint64_t size, unsigned access,
                       const char *label);
rdx_status emu_mem_remove(emu_memmap *m, uint64_t addr);
void emu_mem_free(emu_memmap *m);
/* Why [addr, addr+len) with `access` is not accessible, for a fault report:
 * the range holding addr, else the nearest labelled range within 16 MiB (else
 * the nearest range), and the access's offset from it, e.g.
 * "4 bytes past the end of the 16-byte buffer at 0x7f0000000100 (offset 16)";
 * "not mapped" when no range is near. */
void emu_mem_describe(const emu_memmap *m, uint64_t addr, uint64_t len, unsigned access, char *buf,
                      size_t cap);
/* Add every readable mapping of this process (remu mode of run_asm). */
rdx_status emu_mem_add_host_maps(emu_memmap *m);

#endif /* RDX_EMU_CORE_EXEC_H */
