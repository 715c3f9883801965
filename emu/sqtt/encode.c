/*
 * emu/sqtt/encode.c — the emulated GPU's SQ thread trace (rdx/sqtt.h,
 * rdx_sqtt_encode_profile): workgroup 0's instruction trace from the profile
 * (rdx/emu_prof.h) written as RDNA3 (layout 3) or RDNA4 (layout 4) tokens, in
 * time order, with the time model's clocks as the trace's time.  The packets'
 * fields are those rdx's decoder reads (decode.c; tinygrad's open decoder,
 * tinygrad/renderer/amd/sqtt.py, as the documentation of the format).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/isa.h>
#include <rdx/sqtt.h>

#include "emu/core/timing.h"
#include "emu/sqtt/sqtt_int.h"
#include "util/error.h"

typedef struct ev {
    uint64_t time;
    size_t seq;
    uint64_t raw; /* without the delta */
    uint8_t type, nib, dlo, dmax;
} ev;

static int cmp_ev(const void *a, const void *b)
{
    const ev *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

typedef struct nibs {
    uint8_t *d;
    size_t n, cap; /* nibbles */
    int oom;
} nibs;

static void put(nibs *s, uint64_t raw, unsigned count)
{
    if (s->oom)
        return;
    if ((s->n + count + 1) / 2 + 1 > s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 4096;
        uint8_t *nd = realloc(s->d, nc);
        if (!nd) {
            s->oom = 1;
            return;
        }
        memset(nd + s->cap, 0, nc - s->cap);
        s->d = nd;
        s->cap = nc;
    }
    for (unsigned i = 0; i < count; i++, s->n++) {
        uint8_t v = (uint8_t)((i < 16 ? raw >> (4 * i) : 0) & 15);
        s->d[s->n / 2] |= (uint8_t)((s->n & 1) ? v << 4 : v);
    }
}

static int has(const char *m, const char *p)
{
    return strstr(m, p) != NULL;
}

/* The packet of one instruction of the trace (type, INST op) by its op and class, in
   layout 3 or 4. */
static void inst_packet(const rdx_emu_prof_inst *t, unsigned layout, uint8_t *type, unsigned *op)
{
    const char *m = rdx_isa_op_name((rdx_isa_op)t->op);
    if (!m)
        m = "";
    int l4 = layout == 4;
    *type = RDX_SQTT_INST;
    *op = 0;
    if (sqtt_silent(m)) {
        *type = 0; /* issues no packet */
        return;
    }
    switch (t->cls) {
    case RDX_EMU_CLASS_SALU:
        *op = has(m, "saveexec")               ? RDX_SQTT_OP_SALU_WR_EXEC
              : l4 && !strncmp(m, "s_mul_", 6) ? RDX_SQTT_OP_L4_SALU_2
                                               : RDX_SQTT_OP_SALU;
        return;
    case RDX_EMU_CLASS_SMEM:
        *op = RDX_SQTT_OP_SMEM_RD;
        return;
    case RDX_EMU_CLASS_BRANCH:
        *op = t->next_pc != t->pc + 4 ? RDX_SQTT_OP_JUMP : RDX_SQTT_OP_JUMP_NO;
        return;
    case RDX_EMU_CLASS_WMMA:
        if (l4) {
            *op = has(m, "_iu") ? RDX_SQTT_OP_L4_WMMA_8 : RDX_SQTT_OP_L4_WMMA_16;
            return;
        }
        *type = RDX_SQTT_VALUINST;
        return;
    case RDX_EMU_CLASS_VALU:
        if (!strncmp(m, "v_cmpx", 6))
            *op = RDX_SQTT_OP_VALU_WR_EXEC;
        else if (l4 && !strncmp(m, "v_s_", 4)) /* scalar transcendentals (VALU class) */
            *op = RDX_SQTT_OP_L4_VALU_SCL_TRANS;
        else if (l4 && (has(m, "_b64") || has(m, "_i64")) &&
                 (has(m, "v_lshl") || has(m, "v_lshr") || has(m, "v_ashr")))
            *op = RDX_SQTT_OP_VALU_B2; /* as the gfx1200 traces show */
        else if (l4 && (!strncmp(m, "v_mad_u64", 9) || !strncmp(m, "v_mad_i64", 9) ||
                        !strncmp(m, "v_mad_co_", 9)))
            *op = RDX_SQTT_OP_VALU_B4;
        else if (l4 && has(m, "_f64"))
            *op = RDX_SQTT_OP_VALU_B16;
        else
            *type = RDX_SQTT_VALUINST;
        return;
    case RDX_EMU_CLASS_TRANS:
        *op = l4 && !strncmp(m, "v_s_", 4) ? RDX_SQTT_OP_L4_VALU_SCL_TRANS : RDX_SQTT_OP_VALU_TRANS;
        return;
    case RDX_EMU_CLASS_VMEM: {
        int rd = has(m, "load"), flat = !strncmp(m, "flat_", 5);
        *op = flat ? (rd ? RDX_SQTT_OP_FLAT_RD : RDX_SQTT_OP_FLAT_WR)
                   : (rd ? RDX_SQTT_OP_GLOBAL_RD : RDX_SQTT_OP_GLOBAL_WR);
        return;
    }
    case RDX_EMU_CLASS_LDS:
        *op = has(m, "load") ? RDX_SQTT_OP_LDS_RD : RDX_SQTT_OP_LDS_WR;
        return;
    default:
        if (!strcmp(m, "s_barrier"))
            *op = RDX_SQTT_OP_BARRIER;
        else if (!strncmp(m, "s_barrier_signal", 16))
            *op = RDX_SQTT_OP_L4_BARRIER_SIGNAL;
        else if (!strncmp(m, "s_sendmsg", 9))
            *op = RDX_SQTT_OP_MESSAGE;
        else if (!strcmp(m, "s_endpgm"))
            *type = RDX_SQTT_WAVEEND;
        else
            *type = RDX_SQTT_IMMEDIATE;
        return;
    }
}

rdx_status rdx_sqtt_encode_profile(const rdx_emu_profile *p, unsigned layout, uint8_t **out,
                                   size_t *len)
{
    *out = NULL;
    *len = 0;
    if (layout != 3 && layout != 4)
        return rdx_fail(RDX_ERR_INVALID,
                        "sqtt: layout %u: the encoder writes layouts 3 (RDNA3) and 4 (RDNA4)",
                        layout);
    int l4 = layout == 4;
    uint64_t launch = emu_timing_for(l4)->WAVE_LAUNCH; /* the layout's family's */
    if (!p || !p->ntrace)
        return rdx_fail(RDX_ERR_INVALID,
                        "sqtt: the profile has no instruction trace (was the dispatch run with "
                        "profiling on, and did workgroup 0 run?)");
    /* workgroup 0's waves: start time and SIMD from the time model's placement */
    double start[64] = { 0 };
    uint32_t simd[64] = { 0 };
    int have[64] = { 0 };
    for (size_t i = 0; i < p->nwaves && p->waves[i].group == 0; i++)
        if (p->waves[i].wave < 64) {
            start[p->waves[i].wave] = p->waves[i].start;
            simd[p->waves[i].wave] = p->waves[i].simd;
            have[p->waves[i].wave] = 1;
        }
    ev *e = malloc((2 * p->ntrace + 64) * sizeof *e);
    if (!e)
        return rdx_fail(RDX_ERR_NOMEM, "sqtt: out of memory");
    size_t ne = 0;
    int started[64] = { 0 };
    for (size_t i = 0; i < p->ntrace; i++) {
        const rdx_emu_prof_inst *t = &p->trace[i];
        uint32_t w = t->wave;
        if (w >= 32)
            continue; /* the wave field has 5 bits */
        uint64_t t0 = have[w] ? (uint64_t)llround(start[w]) : 0, at = t0 + launch + t->cycle;
        uint64_t sd = simd[w] & 3;
        if (!started[w]) {
            started[w] = 1;
            /* WAVESTART: the wave slot at bit 13 (layout 3) or 15 (layout 4, whose WGP
               field is 4 bits wide) */
            e[ne] =
                (ev){ t0, ne, 0x0c | sd << 8 | (uint64_t)w << (l4 ? 15 : 13), RDX_SQTT_WAVESTART, 8,
                      5,  3 };
            ne++;
        }
        uint8_t type;
        unsigned op;
        inst_packet(t, layout, &type, &op);
        if (type == RDX_SQTT_WAVEEND) {
            e[ne] = (ev){ at, ne, 0x15 | sd << 9 | (uint64_t)w << 15, type, 5, 5, 7 };
            ne++;
            continue;
        }
        if (!type || sd != 0)
            continue; /* instruction tokens only for the traced SIMD (0), as on a card */
        if (type == RDX_SQTT_VALUINST)
            e[ne] = (ev){ at, ne, 0x3 | (uint64_t)w << 7, type, 3, 3, 7 };
        else if (type == RDX_SQTT_IMMEDIATE)
            e[ne] = (ev){ at, ne, 0xd | (uint64_t)w << 7, type, 3, 4, 7 };
        else if (l4) /* INST: delta at bit 3, wave at 7, an 8-bit op at 12 */
            e[ne] = (ev){ at, ne, 0x2 | (uint64_t)w << 7 | (uint64_t)op << 12, type, 5, 3, 7 };
        else /* INST: delta at bit 4, wave at 8, a 7-bit op at 13 */
            e[ne] = (ev){ at, ne, 0x2 | (uint64_t)w << 8 | (uint64_t)op << 13, type, 5, 4, 7 };
        ne++;
        if (ne + 2 >= 2 * p->ntrace + 64)
            break;
    }
    qsort(e, ne, sizeof *e, cmp_ev);
    nibs s = { 0 };
    put(&s, 0x11 | (uint64_t)layout << 7, 16); /* the layout, traced SIMD 0 */
    uint64_t now = 0;
    for (size_t i = 0; i < ne; i++) {
        uint64_t gap = e[i].time - now;
        if (gap > e[i].dmax) {
            if (gap <= 19)
                put(&s, 0x8 | (gap - 4) << 4, 2); /* TS_DELTA_SHORT: 4..19 */
            else if (l4)                          /* TS_DELTA_OR_MARK: a 52-bit delta, 16 nibbles */
                put(&s, 0x01 | (gap & ((1ull << 52) - 1)) << 12, 16);
            else /* TS_DELTA_OR_MARK: a 36-bit delta, 12 nibbles */
                put(&s, 0x01 | (gap & ((1ull << 36) - 1)) << 12, 12);
            gap = 0;
        }
        put(&s, e[i].raw | gap << e[i].dlo, e[i].nib);
        now = e[i].time;
    }
    free(e);
    if (s.oom) {
        free(s.d);
        return rdx_fail(RDX_ERR_NOMEM, "sqtt: out of memory");
    }
    *out = s.d;
    *len = (s.n + 1) / 2;
    return RDX_OK;
}
