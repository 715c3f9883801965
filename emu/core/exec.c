/*
 * emu/core/exec.c — running a dispatch: workgroups on a pool of host
 * threads, the waves of a workgroup interleaved with barrier semantics, the
 * initial wave state, the instruction loop, faults and counters.
 */
#include <fenv.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <rdx/asm.h>

#include "emu/core/emu_int.h"
#include "emu/core/exec.h"
#include "emu/core/ops.h"
#include "emu/core/pool.h"
#include "emu/core/prof_inline.h"
#include "util/error.h"

#define EMU_SLICE          4096u /* instructions a wave runs before the next wave's turn */
#define EMU_DEFAULT_BUDGET 200000000ull

/* ----------------------------------------------------------- cycle model */

void emu_cycle_vm(emu_wave *w, unsigned lat)
{
    if (w->vm_n == 64) { /* ring full: the oldest is assumed done */
        w->vm_head = (w->vm_head + 1) & 63;
        w->vm_n--;
    }
    emu_timing_fwd(w, EMU_T_ISSUE_VMEM); /* the address / data from a VALU */
    w->vm_done[(w->vm_head + w->vm_n) & 63] = w->cycles + lat;
    w->vm_n++;
}

void emu_cycle_lgkm(emu_wave *w, unsigned lat)
{
    if (w->lgkm_n == 64) {
        w->lgkm_head = (w->lgkm_head + 1) & 63;
        w->lgkm_n--;
    }
    w->lgkm_done[(w->lgkm_head + w->lgkm_n) & 63] = w->cycles + lat;
    w->lgkm_n++;
}

void emu_cycle_wait(emu_wave *w, unsigned vm, unsigned lgkm)
{
    uint64_t c0 = w->cycles, c1;
    while (w->vm_n > vm) {
        uint64_t t = w->vm_done[w->vm_head];
        if (t > w->cycles)
            w->cycles = t;
        w->vm_head = (w->vm_head + 1) & 63;
        w->vm_n--;
    }
    c1 = w->cycles;
    while (w->lgkm_n > lgkm) {
        uint64_t t = w->lgkm_done[w->lgkm_head];
        if (t > w->cycles)
            w->cycles = t;
        w->lgkm_head = (w->lgkm_head + 1) & 63;
        w->lgkm_n--;
    }
    if (w->wk->prof)
        emu_prof_wait(w->wk->prof, c1 - c0, w->cycles - c1);
}

/* Issue cycles per class for wave32 (wave64 VALU/trans/WMMA take twice as long). */
static const unsigned issue_cycles[RDX_EMU_CLASS_COUNT] = {
    [RDX_EMU_CLASS_SALU] = EMU_T_ISSUE_SALU,     [RDX_EMU_CLASS_VALU] = EMU_T_ISSUE_VALU,
    [RDX_EMU_CLASS_TRANS] = EMU_T_ISSUE_TRANS,   [RDX_EMU_CLASS_VMEM] = EMU_T_ISSUE_VMEM,
    [RDX_EMU_CLASS_SMEM] = EMU_T_ISSUE_SMEM,     [RDX_EMU_CLASS_LDS] = EMU_T_ISSUE_LDS,
    [RDX_EMU_CLASS_BRANCH] = EMU_T_ISSUE_BRANCH, [RDX_EMU_CLASS_WMMA] = EMU_T_ISSUE_WMMA,
    [RDX_EMU_CLASS_OTHER] = EMU_T_ISSUE_OTHER,
};

/* --------------------------------------------------------------- faults */

static void fmt_bytes(char *out, size_t cap, const uint8_t *b, unsigned n)
{
    size_t k = 0;
    out[0] = 0;
    for (unsigned i = 0; i + 4 <= n && k + 10 < cap; i += 4) {
        uint32_t d = b[i] | b[i + 1] << 8 | b[i + 2] << 16 | (uint32_t)b[i + 3] << 24;
        k += (size_t)snprintf(out + k, cap - k, "%s%08" PRIX32, i ? " " : "", d);
    }
}

static const char *fault_kind_name(rdx_emu_fault_kind k)
{
    switch (k) {
    case RDX_EMU_FAULT_VM:
        return "VM fault";
    case RDX_EMU_FAULT_LDS:
        return "LDS out of bounds";
    case RDX_EMU_FAULT_SCRATCH:
        return "scratch out of bounds";
    case RDX_EMU_FAULT_INVALID_INST:
        return "invalid instruction";
    case RDX_EMU_FAULT_UNIMPLEMENTED:
        return "unimplemented instruction";
    case RDX_EMU_FAULT_HANG:
        return "hang";
    case RDX_EMU_FAULT_INVALID_DISPATCH:
        return "invalid dispatch";
    case RDX_EMU_FAULT_TRAP:
        return "trap";
    case RDX_EMU_FAULT_DISPATCH_BUDGET:
        return "slow dispatch";
    case RDX_EMU_FAULT_OPERAND_RULE:
        return "operand rule violated";
    default:
        return "fault";
    }
}

/* Record a fault of wave w (at `in`, or at w->pc when NULL) for the dispatch: the lowest
   workgroup's first fault wins; with keep_first, only when none is recorded yet (a stop:
   the fault that caused it, or the first stop, stays the report). */
static void fault_fill(emu_wave *w, const emu_inst *in, const uint8_t *raw, unsigned nraw,
                       const char *mnem, rdx_emu_fault_kind kind, uint64_t addr, int write,
                       unsigned lane, const char *what, bool keep_first)
{
    emu_dispatch_ctx *ctx = w->wk->ctx;
    uint64_t g = (uint64_t)w->wg->id[0] +
                 (uint64_t)ctx->ngroups[0] *
                     ((uint64_t)w->wg->id[1] + (uint64_t)ctx->ngroups[1] * w->wg->id[2]);
    pthread_mutex_lock(&ctx->lock);
    if (ctx->fault.kind != RDX_EMU_FAULT_NONE && (keep_first || ctx->fault_group <= g)) {
        pthread_mutex_unlock(&ctx->lock);
        return;
    }
    ctx->fault_group = g;
    rdx_emu_fault *f = &ctx->fault;
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->pc = in ? in->pc : w->pc;
    f->nbytes = nraw > 16 ? 16 : nraw;
    if (raw)
        memcpy(f->bytes, raw, f->nbytes);
    snprintf(f->inst, sizeof f->inst, "%s", mnem ? mnem : "?");
    /* full disassembly when the bytes decode (isa/ decoder + asm/ printer) */
    if (raw && nraw >= 4 && kind != RDX_EMU_FAULT_INVALID_INST) {
        rdx_isa_inst ii;
        size_t len = 0;
        char text[sizeof f->inst];
        const rdx_isa_target *t = ctx->emu->target;
        if (rdx_isa_decode(t, raw, nraw > 16 ? 16 : nraw, &ii, &len) == RDX_OK &&
            rdx_asm_print_inst(t, &ii, text, sizeof text) == RDX_OK)
            snprintf(f->inst, sizeof f->inst, "%s", text);
    }
    f->address = addr;
    f->write = write;
    f->lane = lane;
    memcpy(f->workgroup, w->wg->id, sizeof f->workgroup);
    f->wave = w->id;
    char hex[64];
    fmt_bytes(hex, sizeof hex, f->bytes, f->nbytes);
    int k;
    if (kind == RDX_EMU_FAULT_VM || kind == RDX_EMU_FAULT_LDS || kind == RDX_EMU_FAULT_SCRATCH)
        k = snprintf(f->message, sizeof f->message,
                     "%s: %s %s address 0x%" PRIx64 " (%s) by '%s' [%s] at pc 0x%" PRIx64
                     " (code+0x%" PRIx64 "), workgroup (%u,%u,%u) wave %u lane %u",
                     fault_kind_name(kind), write ? "write to" : "read from",
                     kind == RDX_EMU_FAULT_VM    ? "global"
                     : kind == RDX_EMU_FAULT_LDS ? "LDS"
                                                 : "scratch",
                     addr, what ? what : "not mapped", f->inst, hex, f->pc, f->pc - ctx->d->code,
                     f->workgroup[0], f->workgroup[1], f->workgroup[2], f->wave, lane);
    else
        k = snprintf(f->message, sizeof f->message,
                     "%s: '%s' [%s] at pc 0x%" PRIx64 " (code+0x%" PRIx64
                     "), workgroup (%u,%u,%u) wave %u%s%s",
                     fault_kind_name(kind), f->inst, hex, f->pc, f->pc - ctx->d->code,
                     f->workgroup[0], f->workgroup[1], f->workgroup[2], f->wave, what ? ": " : "",
                     what ? what : "");
    (void)k;
    ctx->fault_status =
        (kind == RDX_EMU_FAULT_HANG || kind == RDX_EMU_FAULT_DISPATCH_BUDGET) ? RDX_ERR_TIMEOUT
        : (kind == RDX_EMU_FAULT_INVALID_INST || kind == RDX_EMU_FAULT_UNIMPLEMENTED)
            ? RDX_ERR_UNSUPPORTED
        : kind == RDX_EMU_FAULT_OPERAND_RULE ? RDX_ERR_INVALID
                                             : RDX_ERR_FAULT;
    __atomic_store_n(&ctx->stop, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&ctx->lock);
}

void emu_fault(emu_wave *w, const emu_inst *in, rdx_emu_fault_kind kind, uint64_t addr, int write,
               unsigned lane, const char *what)
{
    fault_fill(w, in, in ? in->raw : NULL, in ? in->size : 0, in ? emu_op_name(in->op) : NULL, kind,
               addr, write, lane, what, false);
    w->stop = 1;
    w->state = EMU_W_DONE;
    w->wk->group_faulted = 1;
}

/* ------------------------------------------------------ decode cache */

static emu_inst *arena_new(emu_worker *wk)
{
    if (wk->arena_used == wk->arena_cap) {
        size_t n = 256;
        if (wk->arena && wk->cur_block + 1 < wk->nblocks) { /* a block of an earlier dispatch */
            wk->arena = wk->blocks[++wk->cur_block];
        } else {
            emu_inst *blk = calloc(n, sizeof *blk);
            void **nb = realloc(wk->blocks, (wk->nblocks + 1) * sizeof *nb);
            if (!blk || !nb) {
                free(blk);
                if (nb)
                    wk->blocks = nb;
                return NULL;
            }
            wk->blocks = nb;
            wk->cur_block = wk->nblocks;
            wk->blocks[wk->nblocks++] = blk;
            wk->arena = blk;
        }
        wk->arena_used = 0;
        wk->arena_cap = n;
    }
    emu_inst *in = &wk->arena[wk->arena_used++];
    memset(in, 0, sizeof *in);
    return in;
}

emu_inst *emu_worker_inst(emu_worker *wk)
{
    return arena_new(wk);
}

static emu_page *page_get(emu_worker *wk, uint64_t base)
{
    unsigned h = (unsigned)((base >> 12) * 0x9E3779B1u) >> 24;
    for (emu_page *p = wk->pages[h]; p; p = p->next)
        if (p->base == base)
            return p;
    emu_page *p = wk->free_pages; /* a page of an earlier dispatch */
    if (p) {
        wk->free_pages = p->next;
        memset(p->slot, 0, sizeof p->slot);
    } else if (!(p = calloc(1, sizeof *p))) {
        return NULL;
    }
    p->base = base;
    p->next = wk->pages[h];
    wk->pages[h] = p;
    return p;
}

/* The pre-decoded instruction at w->pc, decoding it on first use; NULL after a fault. */
static emu_inst *fetch(emu_worker *wk, emu_wave *w)
{
    uint64_t pc = w->pc;
    uint64_t base = pc & ~4095ull;
    emu_page *p = w->pg;
    if (!p || p->base != base) {
        p = page_get(wk, base);
        if (!p) {
            emu_fault(w, NULL, RDX_EMU_FAULT_INVALID_DISPATCH, pc, 0, 0, "out of host memory");
            return NULL;
        }
        w->pg = p;
    }
    emu_inst *in = p->slot[(pc & 4095) >> 2];
    if (in)
        return in;
    if (pc & 3) {
        fault_fill(w, NULL, NULL, 0, "?", RDX_EMU_FAULT_INVALID_INST, pc, 0, 0,
                   "misaligned program counter", false);
        w->stop = 1;
        w->state = EMU_W_DONE;
        wk->group_faulted = 1;
        return NULL;
    }
    const emu_range *r = emu_mem_find(&wk->ctx->emu->mem, pc, 4, RDX_EMU_READ);
    if (!r) {
        fault_fill(w, NULL, NULL, 0, "(instruction fetch)", RDX_EMU_FAULT_VM, pc, 0, 0,
                   "instruction fetch from unmapped memory", false);
        w->stop = 1;
        w->state = EMU_W_DONE;
        wk->group_faulted = 1;
        return NULL;
    }
    size_t avail = r->end - pc;
    if (avail > RDX_ISA_MAX_BYTES)
        avail = RDX_ISA_MAX_BYTES;
    in = arena_new(wk);
    if (!in) {
        emu_fault(w, NULL, RDX_EMU_FAULT_INVALID_DISPATCH, pc, 0, 0, "out of host memory");
        return NULL;
    }
    const char *why = NULL;
    rdx_emu_fault_kind kind = emu_predecode(wk, wk->ctx->emu->target, pc, avail, in, &why);
    if (kind != RDX_EMU_FAULT_NONE) {
        uint8_t raw[16];
        unsigned n = avail < 16 ? (unsigned)avail : 16;
        memcpy(raw, (const void *)(uintptr_t)pc, n);
        bool decoded = kind != RDX_EMU_FAULT_INVALID_INST;
        fault_fill(w, NULL, raw, decoded ? in->size : (n < 8 ? n : 8),
                   decoded ? emu_op_name(in->op) : "(undecodable)", kind, pc, 0, 0, why, false);
        w->stop = 1;
        w->state = EMU_W_DONE;
        wk->group_faulted = 1;
        wk->arena_used--;
        return NULL;
    }
    emu_mark_plain(in);
    in->prologue = in->cls == RDX_EMU_CLASS_VALU || in->cls == RDX_EMU_CLASS_TRANS ||
                   in->cls == RDX_EMU_CLASS_WMMA;
    in->icyc = (uint8_t)(issue_cycles[in->cls] * (in->prologue && w->nl == 64 ? 2 : 1));
    p->slot[(pc & 4095) >> 2] = in;
    return in;
}

/* ------------------------------------------------- stopping a dispatch */

/* Why the dispatch has to stop now (0: it goes on).  Read before every workgroup, and
   without faults before every slice of every wave, so a cancel or a limit lands within
   one slice per host thread.  A fault only keeps new workgroups from starting: the
   running ones go on, so the lowest-numbered workgroup's fault is the report whatever
   the number of threads. */
enum { HALT_NONE, HALT_FAULT, HALT_CANCEL, HALT_CYCLES, HALT_BUDGET };

static int halt_reason(emu_dispatch_ctx *ctx, bool faults)
{
    const int *cancel = ctx->d->cancel;
    if (cancel && __atomic_load_n(cancel, __ATOMIC_ACQUIRE))
        return HALT_CANCEL;
    if (__atomic_load_n(&ctx->over_limit, __ATOMIC_ACQUIRE))
        return HALT_CYCLES;
    if (__atomic_load_n(&ctx->over_budget, __ATOMIC_ACQUIRE))
        return HALT_BUDGET;
    if (faults && __atomic_load_n(&ctx->stop, __ATOMIC_ACQUIRE))
        return HALT_FAULT;
    return HALT_NONE;
}

/* What stopped the dispatch, as the report says it. */
static void halt_what(const emu_dispatch_ctx *ctx, int reason, char *buf, size_t cap)
{
    switch (reason) {
    case HALT_CANCEL:
        snprintf(buf, cap, "cancelled by the caller");
        break;
    case HALT_CYCLES:
        snprintf(buf, cap,
                 "cycle limit %" PRIu64 " exceeded (a lower bound of the kernel estimate)",
                 ctx->d->cycle_limit);
        break;
    case HALT_BUDGET:
        snprintf(buf, cap, "dispatch exceeded its budget of %" PRIu64 " wave-instructions",
                 ctx->d->dispatch_budget);
        break;
    default:
        snprintf(buf, cap, "budget %" PRIu64 " wave-instructions per wave", ctx->budget);
        break;
    }
}

/* The instruction at pc: its bytes into raw (returns their number, 0 when pc is not
   readable code) and its disassembly into text. */
static unsigned describe_pc(const emu_dispatch_ctx *ctx, uint64_t pc, uint8_t raw[16], char *text,
                            size_t cap)
{
    const emu_range *r = (pc & 3) ? NULL : emu_mem_find(&ctx->emu->mem, pc, 4, RDX_EMU_READ);
    if (!r) {
        snprintf(text, cap, "(not readable code)");
        return 0;
    }
    size_t avail = r->end - pc < 16 ? (size_t)(r->end - pc) : 16;
    memcpy(raw, (const void *)(uintptr_t)pc, avail);
    const rdx_isa_target *t = ctx->emu->target;
    rdx_isa_inst ii;
    size_t len = 0;
    if (rdx_isa_decode(t, raw, avail, &ii, &len) == RDX_OK &&
        rdx_asm_print_inst(t, &ii, text, cap) == RDX_OK && len >= 4 && len <= avail)
        return (unsigned)len;
    snprintf(text, cap, "(undecodable)");
    return 4;
}

/* A report at wave w, where it is now (its next instruction); with keep_first only when
   there is none yet (see fault_fill). */
static void stop_fault(emu_wave *w, rdx_emu_fault_kind kind, int reason, bool keep_first)
{
    emu_dispatch_ctx *ctx = w->wk->ctx;
    uint8_t raw[16];
    char text[96], what[128];
    unsigned n = describe_pc(ctx, w->pc, raw, text, sizeof text);
    halt_what(ctx, reason, what, sizeof what);
    fault_fill(w, NULL, n ? raw : NULL, n, text, kind, 0, 0, 0, what, keep_first);
}

/* The workgroup stops: the PCs of its live waves go into the dispatch's histogram, and
   when nothing recorded a report yet (a cancel, the cycle limit or the dispatch budget
   stopped it) its first live wave gives one. */
static void group_stop(emu_worker *wk, emu_wave **ptrs, unsigned nwaves, int reason)
{
    emu_dispatch_ctx *ctx = wk->ctx;
    emu_wave *first = NULL;
    pthread_mutex_lock(&ctx->lock);
    for (unsigned i = 0; i < nwaves; i++) {
        emu_wave *w = ptrs[i];
        if (w->state == EMU_W_DONE)
            continue;
        if (!first)
            first = w;
        unsigned j = 0;
        while (j < ctx->nstopped && ctx->stopped[j].pc != w->pc)
            j++;
        if (j == ctx->nstopped && j < sizeof ctx->stopped / sizeof ctx->stopped[0]) {
            ctx->stopped[j].pc = w->pc;
            ctx->stopped[j].count = 0;
            ctx->nstopped++;
        }
        if (j < ctx->nstopped)
            ctx->stopped[j].count++;
        else
            ctx->stopped_other++;
    }
    pthread_mutex_unlock(&ctx->lock);
    if (first && reason != HALT_FAULT)
        stop_fault(first,
                   reason == HALT_BUDGET ? RDX_EMU_FAULT_DISPATCH_BUDGET : RDX_EMU_FAULT_HANG,
                   reason, true);
}

/* Most waves first, then by PC. */
static int cmp_stopped(const void *a, const void *b)
{
    const emu_pc_waves *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* After the dispatch: a stop that found no running wave still gets a report, and every
   HANG / DISPATCH_BUDGET report gets the PC histogram of the stopped waves. */
static void finish_report(emu_dispatch_ctx *ctx)
{
    rdx_emu_fault *f = &ctx->fault;
    int reason = halt_reason(ctx, true);
    uint64_t started = __atomic_load_n(&ctx->next_group, __ATOMIC_RELAXED);
    uint64_t insts = __atomic_load_n(&ctx->sum_insts, __ATOMIC_RELAXED);
    if (f->kind == RDX_EMU_FAULT_NONE) {
        bool over = ctx->d->dispatch_budget && insts > ctx->d->dispatch_budget;
        bool cut = started < ctx->total_groups && reason != HALT_NONE && reason != HALT_FAULT;
        if (!over && !cut)
            return; /* every workgroup ran to its end: a cancel that came too late is no stop */
        if (over)
            reason = HALT_BUDGET; /* also when it finished: over its budget all the same */
        char what[128];
        halt_what(ctx, reason, what, sizeof what);
        memset(f, 0, sizeof *f);
        f->kind = reason == HALT_BUDGET ? RDX_EMU_FAULT_DISPATCH_BUDGET : RDX_EMU_FAULT_HANG;
        snprintf(f->message, sizeof f->message,
                 "%s: %s, %" PRIu64 " of %" PRIu64 " workgroups started", fault_kind_name(f->kind),
                 what, started < ctx->total_groups ? started : ctx->total_groups,
                 ctx->total_groups);
        ctx->fault_status = RDX_ERR_TIMEOUT;
    }
    if (f->kind != RDX_EMU_FAULT_HANG && f->kind != RDX_EMU_FAULT_DISPATCH_BUDGET)
        return;
    qsort(ctx->stopped, ctx->nstopped, sizeof ctx->stopped[0], cmp_stopped);
    size_t k = strlen(f->message), cap = sizeof f->message;
    k += (size_t)snprintf(f->message + k, cap - k, "; PC histogram (waves):");
    if (ctx->nstopped == 0 && k < cap)
        k += (size_t)snprintf(f->message + k, cap - k, " no wave was running");
    uint64_t rest = ctx->stopped_other;
    for (unsigned j = 0; j < ctx->nstopped; j++) {
        if (j >= sizeof f->hist / sizeof f->hist[0]) {
            rest += ctx->stopped[j].count;
            continue;
        }
        uint8_t raw[16];
        f->hist[j].pc = ctx->stopped[j].pc;
        f->hist[j].count = ctx->stopped[j].count;
        describe_pc(ctx, f->hist[j].pc, raw, f->hist[j].inst, sizeof f->hist[j].inst);
        f->nhist = j + 1;
        if (k < cap)
            k += (size_t)snprintf(f->message + k, cap - k,
                                  "%s code+0x%" PRIx64 " x%" PRIu64 " '%s'", j ? "," : "",
                                  f->hist[j].pc - ctx->d->code, f->hist[j].count, f->hist[j].inst);
    }
    if (rest && k < cap)
        snprintf(f->message + k, cap - k, ", %" PRIu64 " more at other PCs", rest);
}

/* --------------------------------------------------------- wave loop */

/* The cycle limit (rdx_emu_dispatch.cycle_limit), after a slice of wave w: its cycles and
   the dispatch's sums against the limit (each a lower bound of est_kernel_cycles: a wave
   progresses at most one cycle per clock, a SIMD holds at most its chip's wave slots (16)
   and issues at most one cycle per clock, and the chip has cus x 2 SIMDs, 192 on a
   gfx1100, 32 on a gfx1150; docs/emu.md).  Then the dispatch budget: all waves'
   instructions so far against rdx_emu_dispatch.dispatch_budget. */
static void check_limits(emu_dispatch_ctx *ctx, emu_wave *w)
{
    const emu_chip *chip = &ctx->emu->chip;
    uint64_t simds = (uint64_t)chip->cus * chip->simds_per_cu;
    uint64_t db = ctx->d->dispatch_budget;
    if (db) {
        uint64_t n =
            __atomic_add_fetch(&ctx->sum_insts, w->ninst - w->seen_insts, __ATOMIC_RELAXED);
        w->seen_insts = w->ninst;
        if (n > db)
            __atomic_store_n(&ctx->over_budget, 1, __ATOMIC_RELEASE);
    }
    uint64_t lim = ctx->d->cycle_limit;
    if (!lim)
        return;
    uint64_t sc =
                 __atomic_add_fetch(&ctx->sum_cycles, w->cycles - w->seen_cycles, __ATOMIC_RELAXED),
             si = __atomic_add_fetch(&ctx->sum_issue, w->issue - w->seen_issue, __ATOMIC_RELAXED);
    w->seen_cycles = w->cycles;
    w->seen_issue = w->issue;
    if (w->cycles > lim || sc / (simds * chip->waves_per_simd) > lim || si / simds > lim)
        __atomic_store_n(&ctx->over_limit, 1, __ATOMIC_RELEASE);
}

/* One slice of wave w.  A wave that would run more than `budget` instructions stops
   before its next one with a HANG report (it stays live for the PC histogram). */
static inline __attribute__((always_inline)) void run_slice(emu_worker *wk, emu_wave *w,
                                                            uint64_t budget, const bool prof)
{
    emu_counts *c = &wk->c;
    uint64_t left = budget > w->ninst ? budget - w->ninst : 0;
    unsigned n = left < EMU_SLICE ? (unsigned)left : EMU_SLICE;
    emu_apply_round(w);
    const emu_inst *prev = NULL;
    for (unsigned i = 0; i < n; i++) {
        /* the next instruction: the previous one's successor when it fell through */
        emu_inst *in = prev && prev->next && w->pc == prev->next->pc ? prev->next : fetch(wk, w);
        if (!in)
            return;
        if (prev && !prev->next && w->pc == prev->pc + prev->size)
            ((emu_inst *)prev)->next = in;
        in->count++;
        w->pc = in->pc + in->size;
        c->by_class[in->cls]++;
        if (prof)
            emu_prof_begin(wk->prof, w, in);
        if (__builtin_expect(w->dly_left != 0, 0))
            emu_delay_step(w);
        w->cycles += in->icyc;
        w->issue += in->icyc;
        if (in->prologue) {
            w->vt[w->vn++ & 3] = w->cycles - in->icyc;
            if (in->flags & (EMU_F_DPP16 | EMU_F_DPP8)) {
                emu_valu_prologue(w, in);
            } else { /* emu_valu_prologue without DPP */
                emu_wm_exec(w);
                c->lane_ops += w->wm_lanes;
                c->vector_insts++;
            }
        }
        in->fn(w, in);
        if (prof)
            emu_prof_end(wk->prof, w, in->icyc);
        w->ninst++;
        if (w->stop) {
            w->stop = 0;
            return;
        }
        prev = in;
    }
    if (n < EMU_SLICE) { /* the budget ran out within the slice */
        stop_fault(w, RDX_EMU_FAULT_HANG, HALT_FAULT, false); /* sets ctx->stop */
        wk->group_faulted = 1;
    }
}

/* run_slice with and without the profile's per-instruction records (two copies: the
   common one tests nothing for it per instruction) */
static void run_wave(emu_worker *wk, emu_wave *w, uint64_t budget)
{
    if (wk->prof)
        run_slice(wk, w, budget, true);
    else
        run_slice(wk, w, budget, false);
}

/* --------------------------------------------------------- workgroups */

static rdx_status worker_waves(emu_worker *wk, unsigned n)
{
    if (wk->nwave_pool >= n)
        return RDX_OK;
    size_t bytes = ((size_t)n * sizeof(emu_wave) + 63) & ~(size_t)63;
    emu_wave *p = aligned_alloc(64, bytes);
    if (!p)
        return RDX_ERR_NOMEM;
    free(wk->wave_pool);
    wk->wave_pool = p;
    wk->nwave_pool = n;
    return RDX_OK;
}

static void init_wave(emu_worker *wk, emu_wg *wg, emu_wave *w, unsigned idx, const uint32_t sz[3],
                      unsigned nthreads)
{
    emu_dispatch_ctx *ctx = wk->ctx;
    const rdx_emu_dispatch *d = ctx->d;
    unsigned nvgpr = ctx->nvgpr;
    memset(w->v, 0, (size_t)nvgpr * sizeof w->v[0]);
    memset(w->s, 0, sizeof w->s);
    memset(w->wm, 0, sizeof w->wm);
    w->wm_exec = 0;
    w->wm_dirty = 0;
    w->pc = d->code;
    w->scc = 0;
    w->mode = ctx->mode;
    w->trapsts = 0;
    w->nl = ctx->nl;
    w->id = idx;
    w->state = EMU_W_RUN;
    w->stop = 0;
    w->ninst = 0;
    w->wg = wg;
    w->wk = wk;
    w->mr = NULL;
    w->mr2 = NULL;
    w->pg = NULL;
    w->scratch_size = ctx->scratch_size;
    w->scratch = ctx->scratch_size ? wk->scratch + (size_t)idx * w->nl * ctx->scratch_size : NULL;
    w->scratch_ready = 0;
    w->cycles = 0;
    w->issue = 0;
    w->seen_cycles = w->seen_issue = 0;
    w->seen_insts = 0;
    w->vm_n = w->vm_head = w->lgkm_n = w->lgkm_head = 0;
    w->last_vopd = 0;
    w->vn = w->dly_left = w->dly_id = 0;
    w->bar_passed = 0;
    w->smem_next = 0;

    /* User SGPRs (AMDGPUUsage "Initial Kernel Execution State"). */
    unsigned s = 0;
    if (d->user_sgpr_count) {
        for (unsigned i = 0; i < d->user_sgpr_count && i < 16; i++)
            w->s[i] = d->user_sgpr[i];
    } else {
        uint16_t cp = d->code_properties;
        if (cp & 1) { /* private segment buffer V# (not used with flat scratch) */
            w->s[s + 0] = 0;
            w->s[s + 1] = EMU_PRIVATE_APERTURE_HI;
            w->s[s + 2] = ctx->scratch_size * w->nl;
            w->s[s + 3] = 0;
            s += 4;
        }
        if (cp & 2) {
            w->s[s++] = (uint32_t)d->dispatch_ptr;
            w->s[s++] = (uint32_t)(d->dispatch_ptr >> 32);
        }
        if (cp & 4) {
            w->s[s++] = (uint32_t)d->queue_ptr;
            w->s[s++] = (uint32_t)(d->queue_ptr >> 32);
        }
        if (cp & 8) {
            w->s[s++] = (uint32_t)d->kernarg;
            w->s[s++] = (uint32_t)(d->kernarg >> 32);
        }
        if (cp & 16) {
            w->s[s++] = (uint32_t)d->dispatch_id;
            w->s[s++] = (uint32_t)(d->dispatch_id >> 32);
        }
        if (cp & 32) { /* flat scratch init: offset, size */
            w->s[s++] = 0;
            w->s[s++] = ctx->scratch_size;
        }
        if (cp & 64)
            w->s[s++] = ctx->scratch_size;
    }
    /* System SGPRs follow the USER_SGPR_COUNT user SGPRs. */
    unsigned r2 = d->rsrc2;
    s = (r2 >> 1) & 31;
    if (r2 & (1u << 7))
        w->s[s++] = wg->id[0];
    if (r2 & (1u << 8))
        w->s[s++] = wg->id[1];
    if (r2 & (1u << 9))
        w->s[s++] = wg->id[2];
    if (r2 & (1u << 10))
        w->s[s++] = wg->nwaves & 63;
    if (r2 & 1)
        w->s[s++] = 0; /* private segment wave offset: each wave's scratch starts at 0 */
    if (ctx->emu->target->family == RDX_ISA_FAMILY_RDNA4) {
        /* gfx12's architected SGPRs (AMDGPUUsage): workgroup ID X in TTMP9, Y and Z in
           TTMP7[15:0] and [31:16] */
        w->s[108 + 9] = wg->id[0];
        w->s[108 + 7] = (wg->id[1] & 0xffffu) | wg->id[2] << 16;
    }

    /* v0: packed work-item IDs; EXEC: lanes that have a work-item. */
    uint64_t exec = 0;
    unsigned t0 = idx * w->nl;
    unsigned x = t0 % sz[0], y = (t0 / sz[0]) % sz[1], z = t0 / (sz[0] * sz[1]);
    for (unsigned l = 0; l < w->nl && t0 + l < nthreads; l++) {
        w->v[0][l] = x | y << 10 | z << 20;
        exec |= 1ull << l;
        if (++x == sz[0]) {
            x = 0;
            if (++y == sz[1]) {
                y = 0;
                z++;
            }
        }
    }
    emu_set_exec(w, exec);
}

static void run_group(emu_worker *wk, uint64_t g)
{
    emu_dispatch_ctx *ctx = wk->ctx;
    const rdx_emu_dispatch *d = ctx->d;
    emu_wg wg = { 0 };
    wg.id[0] = (uint32_t)(g % ctx->ngroups[0]);
    wg.id[1] = (uint32_t)((g / ctx->ngroups[0]) % ctx->ngroups[1]);
    wg.id[2] = (uint32_t)(g / ((uint64_t)ctx->ngroups[0] * ctx->ngroups[1]));
    uint32_t sz[3];
    for (int i = 0; i < 3; i++) {
        uint32_t full = d->wg[i] ? d->wg[i] : 1, grid = d->grid[i] ? d->grid[i] : 1;
        uint64_t start = (uint64_t)wg.id[i] * full;
        sz[i] = (uint32_t)(grid - start < full ? grid - start : full);
    }
    unsigned nthreads = sz[0] * sz[1] * sz[2];
    unsigned nwaves = (nthreads + ctx->nl - 1) / ctx->nl;
    emu_wave *ptrs[64];
    wg.waves = ptrs;
    wg.nwaves = nwaves;
    wg.lds = wk->lds;
    wg.lds_size = ctx->lds_size;
    if (ctx->lds_size)
        memset(wk->lds, 0, ctx->lds_size);
    for (unsigned i = 0; i < nwaves; i++) {
        ptrs[i] = &wk->wave_pool[i];
        init_wave(wk, &wg, ptrs[i], i, sz, nthreads);
    }
    wk->c.workgroups++;
    wk->c.waves += nwaves;
    if (wk->prof)
        emu_prof_group(ctx->prof, wk->prof, g);
    uint64_t l0_0 = wk->c.l0_lines, lds_0 = wk->c.lds_bytes;
    wk->group_faulted = 0;
    for (;;) {
        unsigned running = 0, waiting = 0;
        int halt = HALT_NONE;
        for (unsigned i = 0; i < nwaves && !wk->group_faulted; i++) {
            emu_wave *w = ptrs[i];
            if (w->state == EMU_W_RUN) {
                if ((halt = halt_reason(ctx, false)) != HALT_NONE)
                    break;
                run_wave(wk, w, ctx->budget);
                check_limits(ctx, w);
            }
            if (w->state == EMU_W_RUN)
                running++;
            else if (w->state == EMU_W_BARRIER)
                waiting++;
        }
        if (wk->group_faulted || halt != HALT_NONE) {
            group_stop(wk, ptrs, nwaves, wk->group_faulted ? HALT_FAULT : halt);
            break;
        }
        if (running == 0 && waiting == 0)
            break;
        if (running == 0) {
            /* every live wave is at the barrier: release them, synchronising the clocks */
            uint64_t t = 0;
            for (unsigned i = 0; i < nwaves; i++)
                if (ptrs[i]->state == EMU_W_BARRIER && ptrs[i]->cycles > t)
                    t = ptrs[i]->cycles;
            t += EMU_T_BARRIER_RELEASE; /* the release reaches the waves */
            for (unsigned i = 0; i < nwaves; i++)
                if (ptrs[i]->state == EMU_W_BARRIER) {
                    if (wk->prof)
                        emu_prof_barrier(wk->prof, ptrs[i], t - ptrs[i]->cycles);
                    ptrs[i]->state = EMU_W_RUN;
                    ptrs[i]->cycles = t;
                }
        }
    }
    wk->group_faulted = 0;
    for (unsigned i = 0; i < nwaves; i++) {
        wk->c.cycles += ptrs[i]->cycles;
        wk->c.issue += ptrs[i]->issue;
        if (ptrs[i]->cycles > wk->c.max_wave_cycles)
            wk->c.max_wave_cycles = ptrs[i]->cycles;
    }
    if (ctx->grec) { /* records of the kernel estimate (each slot written by one thread) */
        emu_grec *gr = &ctx->grec[g];
        gr->nwaves = nwaves;
        gr->l0_lines = wk->c.l0_lines - l0_0;
        gr->lds_bytes = wk->c.lds_bytes - lds_0;
        emu_wrec *wr = &ctx->wrec[g * ctx->maxwaves];
        for (unsigned i = 0; i < nwaves; i++) {
            wr[i].issue = ptrs[i]->issue;
            wr[i].cycles = ptrs[i]->cycles;
        }
    }
}

static void worker_main(void *arg, unsigned index)
{
    emu_worker *wk = &((emu_worker *)arg)[index];
    emu_dispatch_ctx *ctx = wk->ctx;
    int saved_round = fegetround(); /* the caller's thread runs workgroups: restore it */
    for (;;) {
        if (halt_reason(ctx, true) != HALT_NONE)
            break; /* a fault, a cancel or a limit: no further workgroup starts */
        uint64_t g = __atomic_fetch_add(&ctx->next_group, 1, __ATOMIC_RELAXED);
        if (g >= ctx->total_groups)
            break;
        run_group(wk, g);
    }
    fesetround(saved_round);
}

/* A worker record for a new dispatch: its counters and line set empty, no decoded
   instruction (the code may have changed), the memory of earlier dispatches kept. */
static void worker_reset(emu_worker *wk, emu_dispatch_ctx *ctx, emu_prof_wk *prof)
{
    wk->ctx = ctx;
    wk->prof = prof;
    for (unsigned h = 0; h < 256; h++) {
        emu_page *p = wk->pages[h];
        while (p) {
            emu_page *n = p->next;
            p->next = wk->free_pages;
            wk->free_pages = p;
            p = n;
        }
        wk->pages[h] = NULL;
    }
    wk->cur_block = 0;
    wk->arena = wk->nblocks ? wk->blocks[0] : NULL;
    wk->arena_used = 0;
    wk->arena_cap = wk->nblocks ? 256 : 0;
    memset(&wk->c, 0, sizeof wk->c);
    wk->line_last = 0;
    emu_lines_free(&wk->lines);
    wk->group_faulted = 0;
}

void emu_worker_free(emu_worker *wk)
{
    for (size_t i = 0; i < wk->nblocks; i++)
        free(wk->blocks[i]);
    free(wk->blocks);
    for (unsigned h = 0; h < 256; h++) {
        emu_page *p = wk->pages[h];
        while (p) {
            emu_page *n = p->next;
            free(p);
            p = n;
        }
    }
    for (emu_page *p = wk->free_pages, *n; p; p = n) {
        n = p->next;
        free(p);
    }
    free(wk->wave_pool);
    free(wk->lds);
    free(wk->scratch);
    emu_lines_free(&wk->lines);
    memset(wk, 0, sizeof *wk);
}

static int cmp_pc(const void *a, const void *b)
{
    const rdx_emu_pc_count *x = a, *y = b;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* The kernel estimate of the dispatch (emu/core/model.c) into C->est_*. */
static void estimate(const emu_dispatch_ctx *ctx, emu_worker *wks, unsigned n, rdx_emu_counters *C)
{
    emu_model_in mi;
    memset(&mi, 0, sizeof mi);
    const rdx_emu_dispatch *d = ctx->d;
    mi.chip = &ctx->emu->chip;
    mi.nl = ctx->nl;
    mi.vgprs = ((d->rsrc1 & 63) + 1) * (ctx->nl == 32 ? 8 : 4);
    mi.lds = ctx->lds_size;
    mi.wgp_mode = (d->rsrc1 >> 29) & 1;
    mi.maxwaves = ctx->maxwaves;
    mi.ngroups = ctx->total_groups;
    mi.w = ctx->wrec;
    mi.g = ctx->grec;
    mi.times = ctx->prof && ctx->wrec && ctx->grec ? ctx->prof->times : NULL;
    mi.terms = ctx->prof ? ctx->prof->terms : NULL;
    mi.waves = C->waves;
    mi.total = C->cycles;
    mi.lds_bytes = C->lds_bytes;
    emu_lines **sets = calloc(n ? n : 1, sizeof *sets);
    for (unsigned i = 0; i < n; i++) {
        mi.issue += wks[i].c.issue;
        mi.l0_lines += wks[i].c.l0_lines;
        if (sets)
            sets[i] = &wks[i].lines;
    }
    if (sets) /* out of memory: no DRAM term */
        emu_lines_count(sets, n, &mi.dram_rd_lines, &mi.dram_wr_lines);
    free(sets);
    emu_model_run(&mi, C);
}

static rdx_status collect(rdx_emu *emu, const emu_dispatch_ctx *ctx, emu_worker *wks, unsigned n)
{
    rdx_emu_counters *C = &emu->counters;
    free(emu->pcs);
    emu->pcs = NULL;
    memset(C, 0, sizeof *C);
    size_t cnt = 0;
    for (unsigned i = 0; i < n; i++)
        cnt += wks[i].nblocks * 256;
    rdx_emu_pc_count *pcs = cnt ? malloc(cnt * sizeof *pcs) : NULL;
    if (cnt && !pcs)
        return rdx_fail(RDX_ERR_NOMEM, "emu: out of memory collecting counters");
    size_t k = 0;
    for (unsigned i = 0; i < n; i++) {
        emu_worker *wk = &wks[i];
        for (int c = 0; c < RDX_EMU_CLASS_COUNT; c++) {
            C->by_class[c] += wk->c.by_class[c];
            C->wave_insts += wk->c.by_class[c];
        }
        C->lane_ops += wk->c.lane_ops;
        C->vector_insts += wk->c.vector_insts;
        C->bytes_read += wk->c.bytes_read;
        C->bytes_written += wk->c.bytes_written;
        C->lds_bytes += wk->c.lds_bytes;
        C->lds_misaligned += wk->c.lds_misaligned;
        C->scratch_bytes += wk->c.scratch_bytes;
        C->vopd += wk->c.vopd;
        C->cycles += wk->c.cycles;
        if (wk->c.max_wave_cycles > C->max_wave_cycles)
            C->max_wave_cycles = wk->c.max_wave_cycles;
        C->waves += wk->c.waves;
        C->workgroups += wk->c.workgroups;
        for (unsigned h = 0; h < 256; h++)
            for (emu_page *p = wk->pages[h]; p; p = p->next)
                for (unsigned s = 0; s < 1024; s++) {
                    emu_inst *in = p->slot[s];
                    if (in && in->count) {
                        pcs[k].pc = in->pc;
                        pcs[k].count = in->count;
                        pcs[k].op = in->op;
                        k++;
                    }
                }
    }
    if (k)
        qsort(pcs, k, sizeof *pcs, cmp_pc);
    size_t m = 0;
    for (size_t i = 0; i < k; i++) {
        if (m && pcs[m - 1].pc == pcs[i].pc)
            pcs[m - 1].count += pcs[i].count;
        else
            pcs[m++] = pcs[i];
    }
    C->avg_active_lanes = C->vector_insts ? (double)C->lane_ops / (double)C->vector_insts : 0.0;
    estimate(ctx, wks, n, C);
    emu->pcs = pcs;
    C->pcs = pcs;
    C->npc = m;
    return RDX_OK;
}

/* The cores this thread may run on (its affinity mask: a process pinned to one core gets
   one host thread, not threads that take turns on it), else the online ones. */
static unsigned usable_cores(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

static rdx_status bad_dispatch(rdx_emu *emu, const char *fmt, const char *what, unsigned long v)
{
    memset(&emu->fault, 0, sizeof emu->fault);
    emu->fault.kind = RDX_EMU_FAULT_INVALID_DISPATCH;
    snprintf(emu->fault.message, sizeof emu->fault.message, fmt, what, v);
    return rdx_fail(RDX_ERR_INVALID, "%s", emu->fault.message);
}

rdx_status rdx_emu_run(rdx_emu *emu, const rdx_emu_dispatch *d)
{
    if (!emu || !d)
        return rdx_fail(RDX_ERR_INVALID, "rdx_emu_run: NULL %s", emu ? "dispatch" : "emulator");
    memset(&emu->fault, 0, sizeof emu->fault);
    emu_dispatch_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.emu = emu;
    ctx.d = d;
    ctx.nl = (d->code_properties & (1u << 10)) ? 32 : 64;
    unsigned wgsize = 1;
    for (int i = 0; i < 3; i++) {
        uint32_t w = d->wg[i] ? d->wg[i] : 1, g = d->grid[i] ? d->grid[i] : 1;
        if (w > 1024)
            return bad_dispatch(emu, "invalid dispatch: %s size %lu exceeds 1024", "workgroup", w);
        wgsize *= w;
        ctx.ngroups[i] = (g + w - 1) / w;
    }
    if (wgsize > 1024)
        return bad_dispatch(emu, "invalid dispatch: %s of %lu work-items exceeds 1024", "workgroup",
                            wgsize);
    ctx.total_groups = (uint64_t)ctx.ngroups[0] * ctx.ngroups[1] * ctx.ngroups[2];
    uint64_t lds = (uint64_t)d->group_segment_size + d->dynamic_lds_size;
    if (lds > 65536)
        return bad_dispatch(emu, "invalid dispatch: %s of %lu bytes exceeds 64 KiB", "LDS",
                            (unsigned long)lds);
    ctx.lds_size = (uint32_t)lds;
    if (d->private_segment_size > (1u << 20))
        return bad_dispatch(emu, "invalid dispatch: %s of %lu bytes per lane exceeds 1 MiB",
                            "scratch", d->private_segment_size);
    ctx.scratch_size = (d->private_segment_size + 15) & ~15u; /* 16-aligned lane segments */
    ctx.budget = d->budget ? d->budget : EMU_DEFAULT_BUDGET;
    uint32_t r1 = d->rsrc1;
    ctx.mode = ((r1 >> 12) & 0xf) | ((r1 >> 16) & 0xf) << 4 | ((r1 >> 21) & 1) << 8 |
               ((r1 >> 23) & 1) << 9 | ((r1 >> 26) & 1) << 23;
    if (emu->target->family == RDX_ISA_FAMILY_RDNA4)  /* gfx12: no IEEE mode, DX10 clamp (bits */
        ctx.mode = (ctx.mode & ~(3u << 8)) | 1u << 8; /* 21/23 of rsrc1 mean other things) */
    unsigned gran = (r1 & 63) + 1;
    ctx.nvgpr = d->rsrc1 ? gran * (ctx.nl == 32 ? 8 : 4) : EMU_NVGPR;
    if (ctx.nvgpr > EMU_NVGPR)
        ctx.nvgpr = EMU_NVGPR;
    ctx.fault_group = UINT64_MAX;
    pthread_mutex_init(&ctx.lock, NULL);

    unsigned nthr = emu->threads ? emu->threads : usable_cores();
    if (nthr > ctx.total_groups)
        nthr = (unsigned)ctx.total_groups;
    if (nthr == 0)
        nthr = 1;
    if (nthr > emu->nwks) { /* worker records persist across dispatches (emu->wks) */
        emu_worker *nw = realloc(emu->wks, nthr * sizeof *nw);
        if (!nw) {
            pthread_mutex_destroy(&ctx.lock);
            return rdx_fail(RDX_ERR_NOMEM, "emu: out of memory");
        }
        memset(nw + emu->nwks, 0, (nthr - emu->nwks) * sizeof *nw);
        emu->wks = nw;
        emu->nwks = nthr;
    }
    emu_worker *wks = emu->wks;
    unsigned maxwaves = (wgsize + ctx.nl - 1) / ctx.nl;
    ctx.maxwaves = maxwaves;
    /* per-wave records of the kernel estimate (the closed-form fallback without them) */
    if (ctx.total_groups && ctx.total_groups * maxwaves <= EMU_MODEL_MAX_WAVES) {
        ctx.wrec = malloc(ctx.total_groups * maxwaves * sizeof *ctx.wrec);
        ctx.grec = calloc(ctx.total_groups, sizeof *ctx.grec);
        if (!ctx.wrec || !ctx.grec) {
            free(ctx.wrec);
            free(ctx.grec);
            ctx.wrec = NULL;
            ctx.grec = NULL;
        }
    }
    rdx_status st = RDX_OK;
    if (emu->profiling) {
        ctx.prof = emu_prof_disp_create(ctx.total_groups, maxwaves, nthr);
        if (!ctx.prof)
            st = RDX_ERR_NOMEM;
    }
    for (unsigned i = 0; i < nthr && !st; i++) {
        emu_worker *wk = &wks[i];
        worker_reset(wk, &ctx, ctx.prof ? &ctx.prof->wks[i] : NULL);
        if (worker_waves(wk, maxwaves))
            st = RDX_ERR_NOMEM;
        if (!st && ctx.lds_size > wk->lds_cap) {
            free(wk->lds);
            wk->lds_cap = 0;
            if (!(wk->lds = malloc(ctx.lds_size)))
                st = RDX_ERR_NOMEM;
            else
                wk->lds_cap = ctx.lds_size;
        }
        size_t scratch = (size_t)maxwaves * ctx.nl * ctx.scratch_size; /* zeroed per wave */
        if (!st && scratch > wk->scratch_cap) {
            free(wk->scratch);
            wk->scratch_cap = 0;
            if (!(wk->scratch = malloc(scratch)))
                st = RDX_ERR_NOMEM;
            else
                wk->scratch_cap = scratch;
        }
    }
    if (!st && ctx.total_groups) /* the caller's thread is worker 0; a thread that cannot be
                                    created leaves its share to the others */
        emu_pool_run(&emu->pool, nthr, worker_main, wks);
    if (st)
        st = rdx_fail(RDX_ERR_NOMEM, "emu: out of memory for %u waves", maxwaves);
    rdx_status cs = st ? RDX_OK : collect(emu, &ctx, wks, nthr);
    emu->have_prof = 0;
    if (!st && !cs && ctx.prof) {
        rdx_emu_profile shape;
        memset(&shape, 0, sizeof shape);
        strncpy(shape.target, emu->target->name, sizeof shape.target - 1);
        shape.wave_size = ctx.nl;
        shape.vgprs = ((d->rsrc1 & 63) + 1) * (ctx.nl == 32 ? 8 : 4);
        shape.sgprs = (((d->rsrc1 >> 6) & 15) + 1) * 8;
        shape.lds_bytes = ctx.lds_size;
        shape.group_waves = maxwaves;
        shape.scratch = d->private_segment_size;
        shape.wgp_mode = (d->rsrc1 >> 29) & 1;
        if (emu_prof_collect(ctx.prof, d->code, &emu->counters, &shape, &emu->prof))
            cs = rdx_fail(RDX_ERR_NOMEM, "emu: out of memory collecting the profile");
        else
            emu->have_prof = 1;
    }
    emu_prof_disp_free(ctx.prof);
    free(ctx.wrec);
    free(ctx.grec);
    pthread_mutex_destroy(&ctx.lock);
    if (st)
        return st;
    finish_report(&ctx);
    if (ctx.fault.kind != RDX_EMU_FAULT_NONE) {
        emu->fault = ctx.fault;
        return rdx_fail(ctx.fault_status, "%s", ctx.fault.message);
    }
    return cs;
}
