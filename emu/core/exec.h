/* emu/core/exec.h — internal entry points between the executor, decoder and semantics. */
#ifndef RDX_EMU_CORE_EXEC_H
#define RDX_EMU_CORE_EXEC_H

#include "emu/core/emu_int.h"

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

/* Cycle model: stall until at most vm / lgkm memory operations are outstanding. */
void emu_cycle_wait(emu_wave *w, unsigned vm, unsigned lgkm);

/* Memory map maintenance (mem.c). */
rdx_status emu_mem_add(emu_memmap *m, uint64_t addr, uint64_t size, unsigned access);
rdx_status emu_mem_remove(emu_memmap *m, uint64_t addr);
void emu_mem_free(emu_memmap *m);
/* Add every readable mapping of this process (remu mode of run_asm). */
rdx_status emu_mem_add_host_maps(emu_memmap *m);

#endif /* RDX_EMU_CORE_EXEC_H */
