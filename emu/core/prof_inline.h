/*
 * emu/core/prof_inline.h — the profile's per-instruction hooks as the wave
 * loop (exec.c) calls them: the common case inline (a PC seen before, an
 * instruction that only issued), everything else in prof.c.
 */
#ifndef RDX_EMU_CORE_PROF_INLINE_H
#define RDX_EMU_CORE_PROF_INLINE_H

#include "emu/core/emu_int.h"
#include "emu/core/prof.h"

static inline void emu_prof_begin(emu_prof_wk *pf, const emu_wave *w, const emu_inst *in)
{
    uint64_t off = in->pc - pf->lo;
    if (pf->rec && in->pc >= pf->lo && off / 4 < pf->n && pf->rec[off / 4].used && !pf->tracing) {
        emu_prof_rec *r = &pf->rec[off / 4];
        pf->cur = r;
        pf->c0 = w->cycles;
        pf->vm = pf->lgkm = 0;
        r->p.count++;
        r->p.lanes += (uint64_t)emu_popcount(emu_exec(w));
        return;
    }
    emu_prof_begin_slow(pf, w, in);
}

static inline void emu_prof_end(emu_prof_wk *pf, const emu_wave *w, unsigned cyc)
{
    emu_prof_rec *r = pf->cur;
    if (r && r->kind == EMU_PK_PLAIN && w->cycles - pf->c0 == cyc && !pf->tracing) {
        r->p.issue += cyc;
        if (pf->wst)
            pf->wst[w->id].issue += cyc;
        pf->cur = NULL;
        return;
    }
    emu_prof_end_slow(pf, w, cyc);
}

#endif /* RDX_EMU_CORE_PROF_INLINE_H */
