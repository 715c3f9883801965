/*
 * emu/core/model.c — the kernel-level time estimate (rdx_emu_counters.est_*):
 * occupancy from the dispatch's resources, a processor-sharing replay of
 * the waves on each WGP's SIMDs, and the L0 / LDS / DRAM bandwidth bounds.
 * docs/emu.md "Kernel time estimate" is the specification of this file.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/model.h"
#include "emu/core/timing.h"

/* ------------------------------------------------- touched memory lines */

static size_t lines_hash(uint64_t key, size_t cap)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
}

/* The chunk of `key` in t, created when `create`; NULL when absent / out of memory. */
static emu_lchunk *lines_chunk(emu_lines *t, uint64_t key, int create)
{
    if (t->cap) {
        for (size_t i = lines_hash(key, t->cap);; i = (i + 1) & (t->cap - 1)) {
            emu_lchunk *c = t->slot[i];
            if (!c)
                break;
            if (c->key == key)
                return c;
        }
    }
    if (!create)
        return NULL;
    if (2 * (t->n + 1) > t->cap) { /* grow to keep the load at most 1/2 */
        size_t ncap = t->cap ? 2 * t->cap : 64;
        emu_lchunk **ns = calloc(ncap, sizeof *ns);
        if (!ns) {
            t->oom = 1;
            return NULL;
        }
        for (size_t i = 0; i < t->cap; i++)
            if (t->slot[i]) {
                size_t j = lines_hash(t->slot[i]->key, ncap);
                while (ns[j])
                    j = (j + 1) & (ncap - 1);
                ns[j] = t->slot[i];
            }
        free(t->slot);
        t->slot = ns;
        t->cap = ncap;
    }
    emu_lchunk *c = calloc(1, sizeof *c);
    if (!c) {
        t->oom = 1;
        return NULL;
    }
    c->key = key;
    size_t j = lines_hash(key, t->cap);
    while (t->slot[j])
        j = (j + 1) & (t->cap - 1);
    t->slot[j] = c;
    t->n++;
    return c;
}

void emu_lines_mark_slow(emu_lines *t, uint64_t line, unsigned rw)
{
    uint64_t key = line >> EMU_LCHUNK_SHIFT;
    emu_lchunk *c = t->last;
    if (!c || c->key != key) {
        c = lines_chunk(t, key, 1);
        if (!c)
            return;
        t->last = c;
    }
    emu_lines_mark(t, line, rw); /* the chunk is t->last now: the inline path sets the bits */
}

void emu_lines_free(emu_lines *t)
{
    for (size_t i = 0; i < t->cap; i++)
        free(t->slot[i]);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

static unsigned popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (unsigned)((x * 0x0101010101010101ull) >> 56);
}

void emu_lines_count(emu_lines *const *sets, unsigned n, uint64_t *rd, uint64_t *wr)
{
    enum { W = 1u << (EMU_LCHUNK_SHIFT - 6) };
    *rd = *wr = 0;
    for (unsigned s = 0; s < n; s++)
        for (size_t i = 0; i < sets[s]->cap; i++) {
            const emu_lchunk *c = sets[s]->slot[i];
            if (!c)
                continue;
            /* count each chunk once: at its first set */
            int seen = 0;
            for (unsigned e = 0; e < s && !seen; e++)
                seen = lines_chunk(sets[e], c->key, 0) != NULL;
            if (seen)
                continue;
            for (unsigned k = 0; k < W; k++) {
                uint64_t r = c->rd[k], w = c->wr[k];
                for (unsigned e = s + 1; e < n; e++) {
                    const emu_lchunk *o = lines_chunk(sets[e], c->key, 0);
                    if (o) {
                        r |= o->rd[k];
                        w |= o->wr[k];
                    }
                }
                *rd += popcount64(r);
                *wr += popcount64(w);
            }
        }
}

/* ------------------------------------------------------------ occupancy */

static const emu_chip *chip_or_default(const emu_chip *c)
{
    static emu_chip def;
    if (c)
        return c;
    if (!def.cus)
        emu_chip_of("gfx1100", &def);
    return &def;
}

unsigned emu_model_waves_per_simd(const emu_chip *c, unsigned nl, unsigned vgprs)
{
    c = chip_or_default(c);
    unsigned total = nl == 32 ? c->vgprs_per_simd : c->vgprs_per_simd / 2;
    unsigned gran = total / 64, wmax = c->waves_per_simd;
    if (vgprs < gran)
        return wmax;
    unsigned rounded = (vgprs + gran - 1) / gran * gran;
    unsigned w = total / rounded;
    if (w < 1)
        w = 1;
    return w < wmax ? w : wmax;
}

/* Waves per SIMD that g resident groups of k waves give on s SIMDs (at most wmax). */
static uint32_t per_simd(uint64_t groups, unsigned k, unsigned s, unsigned wmax)
{
    uint64_t w = groups * k / s;
    return w > wmax ? wmax : (uint32_t)w;
}

void emu_model_occupancy(const emu_chip *c, unsigned nl, unsigned vgprs, unsigned lds, int wgp_mode,
                         unsigned k, rdx_emu_occupancy *o)
{
    c = chip_or_default(c);
    memset(o, 0, sizeof *o);
    unsigned cus = wgp_mode ? 2 : 1, simds = c->simds_per_cu * cus, wmax = c->waves_per_simd;
    if (!k)
        k = 1;
    nl = nl == 64 ? 64 : 32;
    unsigned lds_unit = c->lds_per_cu * cus, bars = EMU_DEV_BARRIERS_CU * cus;
    unsigned lds_alloc =
        (lds + EMU_DEV_LDS_GRANULE - 1) / EMU_DEV_LDS_GRANULE * EMU_DEV_LDS_GRANULE;
    unsigned wv = emu_model_waves_per_simd(c, nl, vgprs);
    /* groups per unit each resource allows */
    uint64_t g_slots = (uint64_t)simds * wmax / k;
    uint64_t g_vgpr = (uint64_t)simds * wv / k;
    uint64_t g_lds = lds_alloc ? lds_unit / lds_alloc : UINT32_MAX;
    uint64_t g_bar = k > 1 ? bars : UINT32_MAX;
    o->by_slots = per_simd(g_slots ? g_slots : 1, k, simds, wmax);
    o->by_vgprs = wv < o->by_slots ? wv : per_simd(g_vgpr ? g_vgpr : 1, k, simds, wmax);
    o->by_lds = g_lds >= g_slots ? wmax : per_simd(g_lds, k, simds, wmax);
    o->by_barriers = g_bar >= g_slots ? wmax : per_simd(g_bar, k, simds, wmax);
    uint64_t g = g_slots;
    o->limit = o->by_slots < wmax ? RDX_EMU_OCC_GROUP_SIZE : RDX_EMU_OCC_WAVE_SLOTS;
    if (g_vgpr < g) {
        g = g_vgpr;
        o->limit = RDX_EMU_OCC_VGPRS;
    }
    if (g_lds < g) {
        g = g_lds;
        o->limit = RDX_EMU_OCC_LDS;
    }
    if (g_bar < g) {
        g = g_bar;
        o->limit = RDX_EMU_OCC_BARRIERS;
    }
    if (g == 0)
        g = 1; /* an oversized group is admitted alone */
    o->groups_per_unit = (uint32_t)g;
    o->waves_per_simd = per_simd(g, k, simds, wmax);
    if (o->waves_per_simd == 0)
        o->waves_per_simd = 1;
    /* one more wave per SIMD: the VGPRs that allow wv + 1 waves, the LDS that allows
       enough groups for waves_per_simd + 1 */
    unsigned total = nl == 32 ? c->vgprs_per_simd : c->vgprs_per_simd / 2, gran = total / 64;
    if (wv < wmax)
        o->vgprs_for_more = total / (wv + 1) / gran * gran;
    uint64_t want = ((uint64_t)(o->waves_per_simd + 1) * simds + k - 1) / k; /* groups */
    if (lds_alloc && want * k <= (uint64_t)simds * wmax)
        o->lds_for_more = (uint32_t)(lds_unit / want / EMU_DEV_LDS_GRANULE * EMU_DEV_LDS_GRANULE);
}

/* ------------------------------------------------- the replay of a unit */

#define SIMD_CAP  64  /* resident waves per SIMD (16, or a forced oversized group) */
#define GROUP_CAP 160 /* resident groups per unit (at most 4 x 16 single-wave + 1) */

typedef struct res_wave {
    double fin;  /* virtual finish time on its SIMD */
    double rate; /* issue cycles / cycles */
    unsigned grp;
    uint64_t idx; /* index of its record (g * maxwaves + wave) */
} res_wave;

typedef struct simd_st {
    res_wave w[SIMD_CAP];
    unsigned n;
    int free_slots;
    double v;    /* virtual time: advances at 1 / max(1, load) per cycle */
    double load; /* sum of the resident waves' rates */
    double min_fin;
    double issue; /* issue cycles of the waves placed here */
} simd_st;

typedef struct unit_res {
    int lds_free, bar_free, groups;
    unsigned rot; /* SIMD of the next wave */
} unit_res;

typedef struct model_ctx {
    const emu_model_in *in;
    unsigned nunits, simds, wps; /* units, SIMDs per unit, waves per SIMD */
    double launch;               /* a wave's launch (emu/core/timing.def WAVE_LAUNCH) */
    int lds_unit, bars_unit, lds_alloc;
    simd_st s[4];
    unit_res r;
    uint64_t unit; /* the unit being replayed */
    double now;    /* its clock */
    struct {
        unsigned left;
        int lds, bar;
    } grp[GROUP_CAP];
    unsigned grp_free[GROUP_CAP], ngrp_free;
} model_ctx;

static void simd_refresh(simd_st *s)
{
    double load = 0, mf = INFINITY;
    for (unsigned i = 0; i < s->n; i++) {
        load += s->w[i].rate;
        if (s->w[i].fin < mf)
            mf = s->w[i].fin;
    }
    s->load = load;
    s->min_fin = mf;
}

/* Admit group `g` if it fits (or `force`); returns 1 when admitted. */
static int admit(model_ctx *m, uint64_t g, int force)
{
    const emu_model_in *in = m->in;
    const emu_grec *gr = &in->g[g];
    unsigned k = gr->nwaves;
    int need[4] = { 0, 0, 0, 0 };
    for (unsigned i = 0; i < k; i++)
        need[(m->r.rot + i) % m->simds]++;
    int bar = k > 1, lds = m->lds_alloc;
    if (!force) {
        for (unsigned s = 0; s < m->simds; s++)
            if (need[s] > m->s[s].free_slots)
                return 0;
        if (lds > m->r.lds_free || bar > m->r.bar_free)
            return 0;
    }
    for (unsigned s = 0; s < m->simds; s++)
        if (m->s[s].n + (unsigned)need[s] > SIMD_CAP)
            return 0; /* cannot happen: at most 16 + 32 waves */
    if (m->ngrp_free == 0)
        return 0;
    unsigned slot = m->grp_free[--m->ngrp_free];
    m->grp[slot].left = k;
    m->grp[slot].lds = lds;
    m->grp[slot].bar = bar;
    m->r.lds_free -= lds;
    m->r.bar_free -= bar;
    m->r.groups++;
    const emu_wrec *wr = &in->w[g * in->maxwaves];
    for (unsigned i = 0; i < k; i++) {
        simd_st *s = &m->s[(m->r.rot + i) % m->simds];
        res_wave *x = &s->w[s->n++];
        /* the wave's time on the SIMD: its launch, then its cycles */
        double life = (double)wr[i].cycles + m->launch;
        x->fin = s->v + life;
        x->rate = (double)wr[i].issue / life;
        x->grp = slot;
        x->idx = g * in->maxwaves + i;
        if (in->times) {
            emu_wtime *tw = &in->times[x->idx];
            tw->start = m->now;
            tw->cycles = wr[i].cycles;
            tw->unit = (uint32_t)m->unit;
            tw->simd = (m->r.rot + i) % m->simds;
            tw->ran = 1;
        }
        s->free_slots--;
        s->issue += (double)wr[i].issue;
    }
    m->r.rot = (m->r.rot + k) % m->simds;
    for (unsigned s = 0; s < m->simds; s++)
        if (need[s])
            simd_refresh(&m->s[s]);
    return 1;
}

/*
 * Replay the groups u, u + nunits, ... on one unit; returns its time and
 * the largest issue-cycle sum of its SIMDs in *issue.
 */
static double replay_unit(model_ctx *m, uint64_t u, double *issue)
{
    const emu_model_in *in = m->in;
    memset(m->s, 0, sizeof m->s);
    for (unsigned s = 0; s < m->simds; s++) {
        m->s[s].free_slots = (int)m->wps;
        m->s[s].min_fin = INFINITY;
    }
    m->r.lds_free = m->lds_unit;
    m->r.bar_free = m->bars_unit;
    m->r.groups = 0;
    m->r.rot = 0;
    m->ngrp_free = 0;
    for (unsigned i = GROUP_CAP; i-- > 0;)
        m->grp_free[m->ngrp_free++] = i;
    uint64_t next = u;
    double t = 0;
    m->unit = u;
    m->now = 0;
    for (;;) {
        while (next < in->ngroups) {
            if (in->g[next].nwaves == 0) { /* did not run */
                next += m->nunits;
                continue;
            }
            if (!admit(m, next, m->r.groups == 0))
                break;
            next += m->nunits;
        }
        /* the next wave to finish */
        double dt = INFINITY;
        for (unsigned s = 0; s < m->simds; s++)
            if (m->s[s].n) {
                double d = (m->s[s].min_fin - m->s[s].v) * (m->s[s].load > 1 ? m->s[s].load : 1);
                if (d < dt)
                    dt = d;
            }
        if (dt == INFINITY)
            break; /* nothing resident, nothing admitted: done */
        if (dt < 0)
            dt = 0;
        t += dt;
        m->now = t;
        for (unsigned s = 0; s < m->simds; s++) {
            simd_st *st = &m->s[s];
            if (!st->n)
                continue;
            st->v += dt / (st->load > 1 ? st->load : 1);
            double tol = 1e-9 * (1 + fabs(st->v));
            unsigned kept = 0, gone = 0;
            for (unsigned i = 0; i < st->n; i++) {
                if (st->w[i].fin <= st->v + tol) {
                    unsigned g = st->w[i].grp;
                    if (in->times)
                        in->times[st->w[i].idx].end = t;
                    st->free_slots++;
                    gone++;
                    if (--m->grp[g].left == 0) {
                        m->r.lds_free += m->grp[g].lds;
                        m->r.bar_free += m->grp[g].bar;
                        m->r.groups--;
                        m->grp_free[m->ngrp_free++] = g;
                    }
                } else {
                    st->w[kept++] = st->w[i];
                }
            }
            st->n = kept;
            if (gone)
                simd_refresh(st);
        }
    }
    double mi = 0;
    for (unsigned s = 0; s < m->simds; s++)
        if (m->s[s].issue > mi)
            mi = m->s[s].issue;
    *issue = mi;
    return t;
}

/* -------------------------------------------------------------- model */

const char *rdx_emu_bound_name(rdx_emu_bound b)
{
    switch (b) {
    case RDX_EMU_BOUND_NONE:
        return "none";
    case RDX_EMU_BOUND_ISSUE:
        return "issue";
    case RDX_EMU_BOUND_LATENCY:
        return "latency";
    case RDX_EMU_BOUND_L0:
        return "l0";
    case RDX_EMU_BOUND_LDS:
        return "lds";
    case RDX_EMU_BOUND_DRAM:
        return "dram";
    }
    return "?";
}

void emu_model_run(const emu_model_in *in, rdx_emu_counters *C)
{
    model_ctx *m = calloc(1, sizeof *m);
    const emu_chip *chip = chip_or_default(in->chip);
    unsigned cus = in->wgp_mode ? 2 : 1; /* CUs per unit */
    unsigned k = in->maxwaves ? in->maxwaves : 1;
    rdx_emu_occupancy occ;
    emu_model_occupancy(chip, in->nl, in->vgprs, in->lds, in->wgp_mode, k, &occ);
    unsigned wps = emu_model_waves_per_simd(chip, in->nl, in->vgprs);
    int lds_alloc =
        (int)((in->lds + EMU_DEV_LDS_GRANULE - 1) / EMU_DEV_LDS_GRANULE * EMU_DEV_LDS_GRANULE);
    int lds_unit = (int)(chip->lds_per_cu * cus), bars = (int)(EMU_DEV_BARRIERS_CU * cus);
    unsigned simds = chip->simds_per_cu * cus, nunits = chip->cus / cus;
    if (simds > 4) /* the replay's units hold at most 4 SIMDs (RDNA's WGP) */
        simds = 4;
    if (!nunits)
        nunits = 1;
    double launch = emu_timing_for(chip->gfx12)->WAVE_LAUNCH;
    /* resident waves per SIMD and groups per unit with every resource free (reported) */
    C->est_waves_per_simd = wps;
    C->est_groups_per_wgp = occ.groups_per_unit;

    double compute = 0, issue = 0, l0 = 0, lds = 0;
    if (in->w && in->g && m) {
        m->in = in;
        m->launch = launch;
        m->nunits = nunits;
        m->simds = simds;
        m->wps = wps;
        m->lds_unit = lds_unit;
        m->bars_unit = bars;
        m->lds_alloc = lds_alloc;
        uint64_t used = in->ngroups < nunits ? in->ngroups : nunits;
        for (uint64_t u = 0; u < used; u++) {
            double mi;
            double t = replay_unit(m, u, &mi);
            uint64_t lines = 0, ldsb = 0;
            for (uint64_t g = u; g < in->ngroups; g += nunits) {
                lines += in->g[g].l0_lines;
                ldsb += in->g[g].lds_bytes;
            }
            double tl0 = (double)lines * EMU_DEV_LINE / (EMU_DEV_L0_BPC * cus);
            double tlds = (double)ldsb / (EMU_DEV_LDS_BPC * cus);
            if (t > compute)
                compute = t;
            if (mi > issue)
                issue = mi;
            if (tl0 > l0)
                l0 = tl0;
            if (tlds > lds)
                lds = tlds;
        }
    } else {
        /* fallback (no records): work spread evenly over every SIMD / CU */
        double nsimd = (double)chip->cus * chip->simds_per_cu;
        issue = (double)in->issue / nsimd;
        double lat = ((double)in->total + (double)in->waves * launch) / (nsimd * wps);
        compute = issue > lat ? issue : lat;
        l0 = (double)in->l0_lines * EMU_DEV_LINE / ((double)EMU_DEV_L0_BPC * chip->cus);
        lds = (double)in->lds_bytes / ((double)EMU_DEV_LDS_BPC * chip->cus);
    }
    free(m);
    C->est_dram_bytes = (in->dram_rd_lines + in->dram_wr_lines) * EMU_DEV_LINE;
    double dram = (double)C->est_dram_bytes / chip->dram_bpc;
    if (in->terms) {
        in->terms[0] = compute;
        in->terms[1] = issue;
        in->terms[2] = l0;
        in->terms[3] = lds;
        in->terms[4] = dram;
    }
    double best = compute;
    rdx_emu_bound b = in->waves == 0            ? RDX_EMU_BOUND_NONE
                      : compute <= issue * 1.01 ? RDX_EMU_BOUND_ISSUE
                                                : RDX_EMU_BOUND_LATENCY;
    if (l0 > best) {
        best = l0;
        b = RDX_EMU_BOUND_L0;
    }
    if (lds > best) {
        best = lds;
        b = RDX_EMU_BOUND_LDS;
    }
    if (dram > best) {
        best = dram;
        b = RDX_EMU_BOUND_DRAM;
    }
    C->est_kernel_cycles = (uint64_t)ceil(best - 1e-9 * best);
    C->est_issue_cycles = (uint64_t)ceil(issue - 1e-9 * issue);
    C->est_bound = b;
}
