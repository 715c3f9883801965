/*
 * emu/core/prof.c — collecting the profile of a dispatch (rdx/emu_prof.h):
 * per-PC records in a window of the code addressed by (pc - lo) / 4, the
 * stall split of each instruction's cycles, the per-workgroup vector L0
 * model and the merge of the host threads' records after the dispatch.
 * docs/prof.md is the specification.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/emu_int.h"
#include "emu/core/prof.h"

const char *rdx_emu_stall_name(rdx_emu_stall s)
{
    switch (s) {
#define RDX_EMU_STALL_NAME_(n, str) \
    case RDX_EMU_STALL_##n:         \
        return str;
        RDX_EMU_STALL_LIST(RDX_EMU_STALL_NAME_)
#undef RDX_EMU_STALL_NAME_
    default:
        return "?";
    }
}

emu_prof_disp *emu_prof_disp_create(uint64_t ngroups, unsigned maxwaves, unsigned nwk)
{
    emu_prof_disp *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->maxwaves = maxwaves;
    d->ngroups = ngroups;
    d->nwk = nwk;
    d->wks = calloc(nwk ? nwk : 1, sizeof *d->wks);
    if (!d->wks) {
        free(d);
        return NULL;
    }
    uint64_t nw = ngroups * maxwaves;
    if (nw && nw <= EMU_PROF_MAX_WAVES) {
        d->wst = calloc(nw, sizeof *d->wst);
        d->times = calloc(nw, sizeof *d->times);
        if (!d->wst || !d->times) {
            free(d->wst);
            free(d->times);
            d->wst = NULL;
            d->times = NULL;
        }
    }
    return d;
}

void emu_prof_disp_free(emu_prof_disp *d)
{
    if (!d)
        return;
    for (unsigned i = 0; i < d->nwk; i++)
        free(d->wks[i].rec);
    free(d->wks);
    free(d->trace);
    free(d->wst);
    free(d->times);
    free(d);
}

void emu_prof_group(emu_prof_disp *d, emu_prof_wk *pf, uint64_t g)
{
    memset(pf->l0_tag, 0xff, sizeof pf->l0_tag); /* UINT64_MAX: empty */
    memset(pf->l0_age, 0, sizeof pf->l0_age);
    pf->l0_clock = 0;
    pf->wst = d->wst ? &d->wst[g * d->maxwaves] : NULL;
    pf->cur = NULL;
    pf->disp = d;
    pf->tracing = g == 0;
}

/* How an op's cycles are classified: by its mnemonic, once per PC. */
static uint8_t kind_of(const emu_inst *in)
{
    if (in->cls == RDX_EMU_CLASS_BRANCH)
        return EMU_PK_BRANCH;
    const char *m = emu_op_name(in->op);
    if (!m)
        return EMU_PK_PLAIN;
    if (!strcmp(m, "s_nop"))
        return EMU_PK_NOP;
    if (!strcmp(m, "s_delay_alu"))
        return EMU_PK_DELAY;
    if (!strcmp(m, "s_sleep"))
        return EMU_PK_SLEEP;
    return EMU_PK_PLAIN;
}

/* The record of pc, grown into the window when outside it; NULL when out of memory. */
static emu_prof_rec *slot(emu_prof_wk *pf, uint64_t pc)
{
    if (pf->rec && pc >= pf->lo && (pc - pf->lo) / 4 < pf->n)
        return &pf->rec[(pc - pf->lo) / 4];
    uint64_t lo = pf->rec ? (pc < pf->lo ? pc & ~(uint64_t)3 : pf->lo) : pc & ~(uint64_t)3;
    uint64_t hi = pf->rec ? pf->lo + 4 * pf->n : lo;
    if (pc + 4 > hi)
        hi = (pc + 4 + 3) & ~(uint64_t)3;
    size_t n = (size_t)((hi - lo) / 4);
    n += n / 2 + 256;                             /* room to grow upwards */
    if (n > (64u << 20) / sizeof(emu_prof_rec)) { /* a wild PC range: give up */
        pf->oom = 1;
        return NULL;
    }
    emu_prof_rec *r = calloc(n, sizeof *r);
    if (!r) {
        pf->oom = 1;
        return NULL;
    }
    if (pf->rec) {
        memcpy(r + (pf->lo - lo) / 4, pf->rec, pf->n * sizeof *r);
        free(pf->rec);
    }
    pf->rec = r;
    pf->lo = lo;
    pf->n = n;
    return &r[(pc - lo) / 4];
}

/* Append the instruction to workgroup 0's trace. */
static void trace_add(emu_prof_wk *pf, const emu_wave *w, const emu_inst *in)
{
    emu_prof_disp *d = pf->disp;
    pf->trace_last = SIZE_MAX;
    if (d->ntrace == d->trace_cap) {
        size_t nc = d->trace_cap ? 2 * d->trace_cap : 1024;
        rdx_emu_prof_inst *nt =
            nc <= EMU_PROF_MAX_TRACE ? realloc(d->trace, nc * sizeof *nt) : NULL;
        if (!nt) {
            d->trace_truncated = 1;
            return;
        }
        d->trace = nt;
        d->trace_cap = nc;
    }
    pf->trace_last = d->ntrace;
    d->trace[d->ntrace++] = (rdx_emu_prof_inst){ .pc = in->pc,
                                                 .next_pc = in->pc + in->size,
                                                 .cycle = w->cycles,
                                                 .wave = w->id,
                                                 .op = in->op,
                                                 .cls = in->cls };
}

void emu_prof_begin_slow(emu_prof_wk *pf, const emu_wave *w, const emu_inst *in)
{
    emu_prof_rec *r = slot(pf, in->pc);
    pf->cur = r;
    pf->c0 = w->cycles;
    pf->vm = pf->lgkm = 0;
    if (!r)
        return;
    if (!r->used) {
        r->used = 1;
        r->kind = kind_of(in);
        r->p.pc = in->pc;
        r->p.op = in->op;
        r->p.cls = in->cls;
    }
    r->p.count++;
    r->p.lanes += (uint64_t)emu_popcount(emu_exec(w));
    if (pf->tracing)
        trace_add(pf, w, in);
}

void emu_prof_end_slow(emu_prof_wk *pf, const emu_wave *w, unsigned cyc)
{
    emu_prof_rec *r = pf->cur;
    if (!r)
        return;
    uint64_t total = w->cycles - pf->c0;
    /* s_sleep's cycles, or a wait for a VALU result (s_delay_alu, a VMEM / LDS / branch
       instruction after a VALU: emu/core/timing.h) */
    uint64_t rest = total - cyc - pf->vm - pf->lgkm;
    uint64_t st[RDX_EMU_STALL_COUNT] = { 0 };
    uint64_t issue = cyc;
    st[RDX_EMU_STALL_VMCNT] = pf->vm;
    st[RDX_EMU_STALL_LGKMCNT] = pf->lgkm;
    st[r->kind == EMU_PK_SLEEP ? RDX_EMU_STALL_SLEEP : RDX_EMU_STALL_DEPEND] = rest;
    switch (r->kind) {
    case EMU_PK_NOP:
        st[RDX_EMU_STALL_HAZARD] += issue;
        issue = 0;
        break;
    case EMU_PK_DELAY:
        st[RDX_EMU_STALL_DEPEND] += issue;
        issue = 0;
        break;
    case EMU_PK_BRANCH: /* the model's second cycle of a branch */
        if (issue > 1) {
            st[RDX_EMU_STALL_BRANCH] += issue - 1;
            issue = 1;
        }
        break;
    default:
        break;
    }
    if (pf->tracing && pf->trace_last != SIZE_MAX) {
        rdx_emu_prof_inst *ti = &pf->disp->trace[pf->trace_last];
        ti->next_pc = w->pc;
        /* an instruction that waited (s_waitcnt, s_sleep, s_delay_alu) issues when the
           wait is over, as a card's thread trace times it */
        ti->cycle = w->cycles - cyc;
    }
    r->p.issue += issue;
    for (int i = 0; i < RDX_EMU_STALL_COUNT; i++)
        r->p.stall[i] += st[i];
    if (pf->wst) {
        emu_prof_wst *x = &pf->wst[w->id];
        x->issue += issue;
        for (int i = 0; i < RDX_EMU_STALL_COUNT; i++)
            x->stall[i] += st[i];
    }
    pf->cur = NULL;
}

void emu_prof_barrier(emu_prof_wk *pf, const emu_wave *w, uint64_t d)
{
    emu_prof_rec *r = slot(pf, w->pc - 4);
    if (r)
        r->p.stall[RDX_EMU_STALL_BARRIER] += d;
    if (pf->wst)
        pf->wst[w->id].stall[RDX_EMU_STALL_BARRIER] += d;
}

void emu_prof_line(emu_prof_wk *pf, uint64_t line, unsigned rw)
{
    if (rw & 6) { /* scalar loads (their own cache), stores and atomics (write-through L0,
                     no allocation): L2 requests */
        pf->l2_direct++;
        return;
    }
    unsigned set = (unsigned)(line % EMU_PROF_L0_SETS);
    uint64_t *tag = &pf->l0_tag[set * EMU_PROF_L0_WAYS];
    uint32_t *age = &pf->l0_age[set * EMU_PROF_L0_WAYS];
    uint32_t now = ++pf->l0_clock;
    unsigned victim = 0;
    for (unsigned i = 0; i < EMU_PROF_L0_WAYS; i++) {
        if (tag[i] == line) {
            age[i] = now;
            pf->l0_hits++;
            if (pf->cur)
                pf->cur->p.l0_hits++;
            return;
        }
        if (age[i] < age[victim])
            victim = i;
    }
    tag[victim] = line;
    age[victim] = now;
    pf->l0_misses++;
    if (pf->cur)
        pf->cur->p.l0_misses++;
}

static int cmp_pc(const void *a, const void *b)
{
    const rdx_emu_prof_pc *x = a, *y = b;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

void emu_prof_out_free(emu_prof_out *o)
{
    free(o->pcs);
    free(o->waves);
    free(o->trace);
    memset(o, 0, sizeof *o);
}

int emu_prof_collect(const emu_prof_disp *d, uint64_t code, const rdx_emu_counters *C,
                     const rdx_emu_profile *shape, emu_prof_out *out)
{
    emu_prof_out_free(out);
    out->p = *shape;
    out->p.code = code;
    out->p.model_compute = d->terms[0];
    out->p.model_issue = d->terms[1];
    out->p.model_l0 = d->terms[2];
    out->p.model_lds = d->terms[3];
    out->p.model_dram = d->terms[4];
    size_t cnt = 0;
    for (unsigned i = 0; i < d->nwk; i++)
        for (size_t k = 0; k < d->wks[i].n; k++)
            cnt += d->wks[i].rec[k].used;
    out->pcs = cnt ? malloc(cnt * sizeof *out->pcs) : NULL;
    if (cnt && !out->pcs)
        return -1;
    size_t k = 0;
    uint64_t l2_req = 0;
    for (unsigned i = 0; i < d->nwk; i++) {
        const emu_prof_wk *pf = &d->wks[i];
        for (size_t j = 0; j < pf->n; j++)
            if (pf->rec[j].used)
                out->pcs[k++] = pf->rec[j].p;
        out->p.l0_hits += pf->l0_hits;
        out->p.l0_misses += pf->l0_misses;
        out->p.lds_insts += pf->lds_insts;
        out->p.lds_conflicts += pf->lds_conflicts;
        l2_req += pf->l0_misses + pf->l2_direct;
    }
    if (k)
        qsort(out->pcs, k, sizeof *out->pcs, cmp_pc);
    size_t m = 0;
    for (size_t i = 0; i < k; i++) {
        rdx_emu_prof_pc *a = &out->pcs[i];
        if (m && out->pcs[m - 1].pc == a->pc) {
            rdx_emu_prof_pc *b = &out->pcs[m - 1];
            b->count += a->count;
            b->lanes += a->lanes;
            b->issue += a->issue;
            for (int s = 0; s < RDX_EMU_STALL_COUNT; s++)
                b->stall[s] += a->stall[s];
            b->lds_conflicts += a->lds_conflicts;
            b->l0_hits += a->l0_hits;
            b->l0_misses += a->l0_misses;
        } else {
            out->pcs[m++] = *a;
        }
    }
    out->p.npc = m;
    out->p.pcs = out->pcs;
    for (size_t i = 0; i < m; i++) {
        out->p.issue += out->pcs[i].issue;
        for (int s = 0; s < RDX_EMU_STALL_COUNT; s++)
            out->p.stall[s] += out->pcs[i].stall[s];
    }
    uint64_t dram = C->est_dram_bytes / EMU_DEV_LINE;
    out->p.l2_misses = dram < l2_req ? dram : l2_req;
    out->p.l2_hits = l2_req - out->p.l2_misses;
    if (d->ntrace) { /* workgroup 0's instruction trace */
        out->trace = malloc(d->ntrace * sizeof *out->trace);
        if (!out->trace)
            return -1;
        memcpy(out->trace, d->trace, d->ntrace * sizeof *out->trace);
        out->p.trace = out->trace;
        out->p.ntrace = d->ntrace;
    }
    out->p.trace_truncated = d->trace_truncated;
    /* the waves that ran, with the model's placement */
    if (d->wst && d->times) {
        uint64_t nw = d->ngroups * d->maxwaves;
        out->waves = malloc(nw * sizeof *out->waves);
        if (!out->waves)
            return -1;
        size_t n = 0;
        for (uint64_t i = 0; i < nw; i++) {
            const emu_wtime *t = &d->times[i];
            if (!t->ran)
                continue;
            rdx_emu_prof_wave *x = &out->waves[n++];
            memset(x, 0, sizeof *x);
            x->group = i / d->maxwaves;
            x->wave = (uint32_t)(i % d->maxwaves);
            x->unit = t->unit;
            x->simd = t->simd;
            x->start = t->start;
            x->end = t->end;
            x->issue = d->wst[i].issue;
            x->cycles = t->cycles;
            for (int s = 0; s < RDX_EMU_STALL_COUNT; s++)
                x->stall[s] = d->wst[i].stall[s];
        }
        out->p.nwaves = n;
        out->p.waves = out->waves;
    }
    return 0;
}
