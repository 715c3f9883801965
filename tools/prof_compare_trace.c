/*
 * tools/prof_compare_trace.c — `rdx prof --compare-trace TRACE CODEOBJ [launch]`: the
 * emulator's timing model against an SQ thread trace of the same kernel (a card's, e.g.
 * tinygrad's extra/sqtt examples, or the emulated GPU's own --sqtt): both traces are
 * decoded and mapped to the kernel's instructions the same way (rdx/sqtt.h), cut into
 * waves, and every instruction's issue-to-issue interval is put in a class; the table
 * gives per wave its duration and per class the mean interval and the stall cycles on
 * both sides, and the error of the model.  docs/prof.md "Comparing with a card's trace".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>
#include <rdx/isa.h>
#include <rdx/sqtt.h>

#include "tools/cli.h"
#include "tools/prof.h"
#include "util/error.h"
#include "util/file.h"

/* The classes of the comparison, in table order. */
#define CT_CLASS_LIST(X)     \
    X(LAUNCH, "wave launch") \
    X(SALU, "SALU")          \
    X(VALU, "VALU")          \
    X(TRANS, "trans")        \
    X(SMEM, "SMEM")          \
    X(VMEM_LD, "VMEM load")  \
    X(VMEM_ST, "VMEM store") \
    X(LDS, "LDS")            \
    X(BRANCH, "branch")      \
    X(WAITCNT, "s_waitcnt")  \
    X(BARRIER, "barrier")    \
    X(OTHER, "other")        \
    X(END, "wave end")

enum {
#define CT_ENUM_(n, s) CT_##n,
    CT_CLASS_LIST(CT_ENUM_)
#undef CT_ENUM_
        CT_COUNT
};

static const char *const ct_names[CT_COUNT] = {
#define CT_NAME_(n, s) s,
    CT_CLASS_LIST(CT_NAME_)
#undef CT_NAME_
};

/* The goal of issue #24: per wave, per class. */
#define CT_WAVE_TOL  0.20
#define CT_CLASS_TOL 0.25

static int starts(const char *s, const char *p)
{
    return !strncmp(s, p, strlen(p));
}

/* The comparison class of a mnemonic (s_endpgm is the wave's end). */
static int prof_ct_class(const char *m)
{
    static const char *const trans[] = { "v_exp_",  "v_log_", "v_rcp_", "v_rsq_",
                                         "v_sqrt_", "v_sin_", "v_cos_", "v_rcp_iflag" };
    if (!strcmp(m, "s_endpgm"))
        return CT_END;
    if (starts(m, "s_waitcnt") || starts(m, "s_wait_"))
        return CT_WAITCNT;
    if (starts(m, "s_barrier"))
        return CT_BARRIER;
    if (starts(m, "s_branch") || starts(m, "s_cbranch") || starts(m, "s_setpc") ||
        starts(m, "s_swappc") || starts(m, "s_getpc") || starts(m, "s_call"))
        return CT_BRANCH;
    if (starts(m, "s_load") || starts(m, "s_buffer_load") || starts(m, "s_dcache") ||
        starts(m, "s_gl1_inv") || starts(m, "s_memtime") || starts(m, "s_memrealtime"))
        return CT_SMEM;
    if (starts(m, "s_nop") || starts(m, "s_clause") || starts(m, "s_sendmsg") ||
        starts(m, "s_sleep") || starts(m, "s_delay_alu") || starts(m, "s_icache") ||
        starts(m, "s_code_end") || starts(m, "s_set_inst_prefetch") || starts(m, "s_wakeup") ||
        starts(m, "s_trap") || starts(m, "s_ttrace"))
        return CT_OTHER;
    if (starts(m, "s_"))
        return CT_SALU;
    if (starts(m, "ds_"))
        return CT_LDS;
    if (starts(m, "global_store") || starts(m, "flat_store") || starts(m, "scratch_store") ||
        starts(m, "buffer_store") || starts(m, "tbuffer_store") || starts(m, "image_store"))
        return CT_VMEM_ST;
    if (starts(m, "global_") || starts(m, "flat_") || starts(m, "scratch_") ||
        starts(m, "buffer_") || starts(m, "tbuffer_") || starts(m, "image_"))
        return CT_VMEM_LD; /* loads, and atomics (they return data) */
    for (size_t i = 0; i < sizeof trans / sizeof *trans; i++)
        if (starts(m, trans[i]))
            return CT_TRANS;
    if (starts(m, "v_"))
        return CT_VALU;
    return CT_OTHER;
}

typedef struct ct_wave {
    uint32_t cu, simd, slot;
    uint64_t start, end, last;
    uint64_t launch, tail; /* WAVESTART to the first instruction, the last one to WAVEEND */
    size_t ninst;
    int open, ended;
} ct_wave;

/* One instruction of a wave: its offset, the interval before it, its class. */
typedef struct ct_row {
    uint64_t pc, interval;
    uint32_t wave; /* index in ct_side.w */
    int cls;
} ct_row;

typedef struct ct_side {
    ct_wave *w;
    size_t nw, cap;
    ct_row *r;
    size_t nr;
    uint64_t n[CT_COUNT];
    double sum[CT_COUNT], stall[CT_COUNT];
    unsigned layout;
} ct_side;

static void side_free(ct_side *s)
{
    free(s->w);
    free(s->r);
    memset(s, 0, sizeof *s);
}

/* The open wave of a slot, or a new one started at `start`; NULL when out of memory. */
static ct_wave *wave_of(ct_side *s, uint32_t cu, uint32_t simd, uint32_t slot, uint64_t start)
{
    for (size_t i = s->nw; i-- > 0;)
        if (s->w[i].open && s->w[i].cu == cu && s->w[i].simd == simd && s->w[i].slot == slot)
            return &s->w[i];
    if (s->nw == s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 16;
        ct_wave *nw = realloc(s->w, nc * sizeof *nw);
        if (!nw)
            return NULL;
        s->w = nw;
        s->cap = nc;
    }
    ct_wave *w = &s->w[s->nw++];
    *w = (ct_wave){ cu, simd, slot, start, start, start, 0, 0, 0, 1, 0 };
    return w;
}

/* Decode and map one trace of the kernel `code` into per-wave and per-class figures. */
static rdx_status side_of(const uint8_t *blob, size_t len, const uint8_t *code, size_t csize,
                          unsigned wave_size, const char *target, ct_side *s)
{
    rdx_sqtt_packet *p = NULL;
    rdx_sqtt_inst *mi = NULL;
    size_t np = 0, nm = 0;
    memset(s, 0, sizeof *s);
    rdx_status st = rdx_sqtt_decode(blob, len, &p, &np);
    if (!st && !np)
        st = rdx_fail(RDX_ERR_PARSE, "sqtt: the trace holds no packets");
    if (!st && p[np - 1].layout != rdx_sqtt_layout_of(target)) /* another GPU's trace */
        st = rdx_fail(RDX_ERR_UNSUPPORTED,
                      "a layout %u trace (%s), but the kernel's target %s writes layout %u "
                      "traces: compare a trace of the same target",
                      p[np - 1].layout, p[np - 1].layout == 4 ? "RDNA4" : "RDNA3", target,
                      rdx_sqtt_layout_of(target));
    if (!st)
        st = rdx_sqtt_map(p, np, code, csize, 0, wave_size, &mi, &nm);
    if (st)
        goto out;
    s->layout = p[np - 1].layout;
    s->r = malloc((nm ? nm : 1) * sizeof *s->r);
    if (!s->r) {
        st = rdx_fail(RDX_ERR_NOMEM, "sqtt: out of memory");
        goto out;
    }
    const rdx_isa_target *t = rdx_isa_target_find(s->layout == 4 ? "gfx1200" : "gfx1100");
    size_t kp = 0; /* packets before the instruction being placed */
    uint64_t wstart[4][32];
    memset(wstart, 0, sizeof wstart);
    for (size_t i = 0; i < nm; i++) {
        const rdx_sqtt_inst *x = &mi[i];
        for (; kp < np && p[kp].time <= x->time; kp++)
            if (p[kp].type == RDX_SQTT_WAVESTART && p[kp].cu == 0)
                wstart[p[kp].simd & 3][p[kp].wave & 31] = p[kp].time;
        ct_wave *w = wave_of(s, x->cu, x->simd, x->wave, wstart[x->simd & 3][x->wave & 31]);
        if (!w) {
            st = rdx_fail(RDX_ERR_NOMEM, "sqtt: out of memory");
            goto out;
        }
        rdx_isa_inst ii;
        size_t il = 0;
        const char *m = "?";
        if (t && x->pc < csize &&
            rdx_isa_decode_wave(t, wave_size, code + x->pc, csize - x->pc, &ii, &il) == RDX_OK)
            m = rdx_isa_op_name(ii.op);
        int c = prof_ct_class(m);
        if (w->ninst == 0) { /* WAVESTART to the first instruction */
            double d = (double)(x->time - w->start);
            s->n[CT_LAUNCH]++;
            s->sum[CT_LAUNCH] += d;
            s->stall[CT_LAUNCH] += d;
            w->last = w->start;
            w->launch = x->time - w->start;
        }
        double d = w->ninst == 0 ? 0 : (double)(x->time - w->last);
        s->r[s->nr++] = (ct_row){ x->pc, w->ninst == 0 ? x->time - w->start : x->time - w->last,
                                  (uint32_t)(w - s->w), w->ninst == 0 ? CT_LAUNCH : c };
        if (w->ninst > 0 || c == CT_END) {
            s->n[c]++;
            s->sum[c] += d;
            s->stall[c] += c == CT_END ? d : d > 1 ? d - 1 : 0;
        }
        w->ninst++;
        if (c == CT_END) {
            w->tail = x->time - w->last;
            w->end = x->time;
            w->open = 0;
            w->ended = 1;
        }
        w->last = x->time;
    }
    for (size_t i = 0; i < s->nw; i++)
        if (s->w[i].open) { /* the trace ended before the wave did */
            s->w[i].end = s->w[i].last;
            s->w[i].open = 0;
        }
out:
    free(mi);
    free(p);
    if (st)
        side_free(s);
    return st;
}

static double rel_err(double model, double silicon)
{
    if (silicon == 0)
        return model == 0 ? 0 : INFINITY;
    return model / silicon - 1;
}

int prof_compare_trace(FILE *f, const char *path, const prof_run *run)
{
    uint8_t *blob = NULL, *emu_blob = NULL;
    size_t len = 0, elen = 0;
    ct_side sil, emu;
    memset(&sil, 0, sizeof sil);
    memset(&emu, 0, sizeof emu);
    int rc = RDX_EXIT_OK;
    if (!run->n) {
        fprintf(stderr, "rdx prof: --compare-trace: no dispatch ran\n");
        return RDX_EXIT_FAIL;
    }
    const prof_disp *d = &run->d[0];
    unsigned ws = d->p.wave_size ? d->p.wave_size : 32;
    /* the model's trace in the token layout of the kernel's target (4 on gfx12) */
    unsigned layout = rdx_sqtt_layout_of(d->target);
    if (rdx_file_read(path, &blob, &len) ||
        rdx_sqtt_encode_profile(&d->p, layout, &emu_blob, &elen) ||
        side_of(emu_blob, elen, d->code, d->code_size, ws, d->target, &emu)) {
        rc = rdx_cli_fail("prof");
        goto out;
    }
    if (side_of(blob, len, d->code, d->code_size, ws, d->target, &sil)) {
        fprintf(stderr, "rdx prof: %s: %s\n", path, rdx_error_message());
        rc = RDX_EXIT_FAIL;
        goto out;
    }
    fprintf(f, "compare-trace: %s (layout %u) against the emulator's timing model (%s)\n", path,
            sil.layout, d->target);
    fprintf(f, "kernel %s, grid %u,%u,%u work-items, workgroup %u,%u,%u\n", d->name, d->grid[0],
            d->grid[1], d->grid[2], d->wg[0], d->wg[1], d->wg[2]);
    fprintf(f, "traced waves (CU 0, the traced SIMD): trace %zu, model %zu (workgroup 0)\n", sil.nw,
            emu.nw);
    fprintf(f, "\n%5s %10s %6s %7s %7s %8s %8s %7s %7s %7s %8s\n", "wave", "start", "insts",
            "launch", "end", "cycles", "model", "m.insts", "m.launch", "m.end", "error");
    double wmax = 0;
    size_t wok = 0, wn = 0;
    for (size_t i = 0; i < sil.nw; i++) {
        const ct_wave *a = &sil.w[i];
        const ct_wave *b = emu.nw ? &emu.w[i % emu.nw] : NULL;
        double da = (double)(a->end - a->start), db = b ? (double)(b->end - b->start) : 0;
        double e = rel_err(db, da);
        fprintf(f, "%5zu %10llu %6zu %7llu %7llu %8.0f %8.0f %7zu %7llu %7llu %+7.1f%%%s\n", i,
                (unsigned long long)a->start, a->ninst, (unsigned long long)a->launch,
                (unsigned long long)a->tail, da, db, b ? b->ninst : 0,
                (unsigned long long)(b ? b->launch : 0), (unsigned long long)(b ? b->tail : 0),
                100 * e, a->ended ? "" : "  (no end in the trace)");
        if (!a->ended || !b)
            continue;
        wn++;
        wok += fabs(e) <= CT_WAVE_TOL;
        if (fabs(e) > wmax)
            wmax = fabs(e);
    }
    fprintf(f, "\n%-12s %6s %6s %9s %9s %8s %10s %10s\n", "class", "n", "m.n", "interval", "model",
            "error", "stall/w", "m.stall/w");
    double cmax = 0;
    size_t cok = 0, cn = 0;
    for (int c = 0; c < CT_COUNT; c++) {
        if (!sil.n[c] && !emu.n[c])
            continue;
        double ma = sil.n[c] ? sil.sum[c] / (double)sil.n[c] : 0;
        double mb = emu.n[c] ? emu.sum[c] / (double)emu.n[c] : 0;
        double e = rel_err(mb, ma);
        int both = sil.n[c] && emu.n[c];
        fprintf(f, "%-12s %6llu %6llu %9.2f %9.2f ", ct_names[c], (unsigned long long)sil.n[c],
                (unsigned long long)emu.n[c], ma, mb);
        if (both)
            fprintf(f, "%+7.1f%%", 100 * e);
        else
            fprintf(f, "%8s", "-");
        fprintf(f, " %10.1f %10.1f\n", sil.nw ? sil.stall[c] / (double)sil.nw : 0,
                emu.nw ? emu.stall[c] / (double)emu.nw : 0);
        if (!both)
            continue;
        cn++;
        cok += fabs(e) <= CT_CLASS_TOL;
        if (fabs(e) > cmax)
            cmax = fabs(e);
    }
    /* the first wave of each, instruction by instruction */
    const rdx_isa_target *t = rdx_isa_target_find(sil.layout == 4 ? "gfx1200" : "gfx1100");
    fprintf(f, "\nwave 0, instruction by instruction (interval = clocks since the previous "
               "instruction, or since the wave's start for the first):\n");
    fprintf(f, "%8s %9s %9s  %-12s %s\n", "offset", "interval", "model", "class", "instruction");
    size_t ia = 0, ib = 0;
    for (;;) {
        while (ia < sil.nr && sil.r[ia].wave != 0)
            ia++;
        while (ib < emu.nr && emu.r[ib].wave != 0)
            ib++;
        if (ia >= sil.nr && ib >= emu.nr)
            break;
        const ct_row *ra = ia < sil.nr ? &sil.r[ia] : NULL, *rb = ib < emu.nr ? &emu.r[ib] : NULL;
        const ct_row *r = ra ? ra : rb;
        char text[128] = "?", ma[24] = "-", mb[24] = "-";
        rdx_isa_inst ii;
        size_t il;
        if (t && r->pc < d->code_size &&
            rdx_isa_decode_wave(t, ws, d->code + r->pc, d->code_size - r->pc, &ii, &il) == RDX_OK)
            rdx_asm_print_inst(t, &ii, text, sizeof text);
        if (ra)
            snprintf(ma, sizeof ma, "%llu", (unsigned long long)ra->interval);
        if (rb)
            snprintf(mb, sizeof mb, "%llu%s", (unsigned long long)rb->interval,
                     ra && rb->pc != ra->pc ? "*" : "");
        fprintf(f, "%8llx %9s %9s  %-12s %s\n", (unsigned long long)r->pc, ma, mb, ct_names[r->cls],
                text);
        ia += ra != NULL;
        ib += rb != NULL;
    }
    fprintf(f,
            "\nsummary: waves %zu/%zu within %.0f%% (max error %.1f%%), classes %zu/%zu within "
            "%.0f%% (max error %.1f%%): %s\n",
            wok, wn, 100 * CT_WAVE_TOL, 100 * wmax, cok, cn, 100 * CT_CLASS_TOL, 100 * cmax,
            wok == wn && cok == cn ? "within the goal" : "NOT within the goal");
out:
    side_free(&sil);
    side_free(&emu);
    free(blob);
    free(emu_blob);
    return rc;
}
