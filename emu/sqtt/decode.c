/*
 * emu/sqtt/decode.c — the SQTT packet stream (rdx/sqtt.h): a stream of
 * packets packed at nibble granularity, low nibble of each byte first; a
 * packet's type is told by its first bits (the most specific encoding wins),
 * its size is fixed per type and layout, and most carry a small time delta.
 * The bit layouts follow the public descriptions of AMD's RDNA3/RDNA4 thread
 * trace tokens (AMD's rocprof trace decoder's type numbering; tinygrad's
 * open decoder, tinygrad/renderer/amd/sqtt.py, as the documentation of the
 * fields).  Also the mapping of instruction packets to PCs.
 */
#include <stdlib.h>
#include <string.h>

#include <rdx/isa.h>
#include <rdx/sqtt.h>

#include "emu/sqtt/sqtt_int.h"
#include "util/error.h"

unsigned rdx_sqtt_layout_of(const char *target)
{
    const rdx_isa_target *t = target ? rdx_isa_target_find(target) : NULL;
    if (!t)
        return 0;
    return t->family == RDX_ISA_FAMILY_RDNA4 ? 4 : 3;
}

const char *rdx_sqtt_type_name(int type)
{
    switch (type) {
#define RDX_SQTT_NAME_(n, v) \
    case v:                  \
        return #n;
        RDX_SQTT_TYPE_LIST(RDX_SQTT_NAME_)
#undef RDX_SQTT_NAME_
    default:
        return "?";
    }
}

/* Per type: encoding value and its width in bits, size in nibbles and the delta field
   (lowest bit, width) in layouts 3 and 4. */
typedef struct ptype {
    uint8_t enc, encbits;
    uint8_t nib3, dlo3, dw3;
    uint8_t nib4, dlo4, dw4;
} ptype;

static const ptype T[25] = {
    [RDX_SQTT_VALUINST] = { 0x3, 3, 3, 3, 3, 3, 3, 3 },
    [RDX_SQTT_VMEMEXEC] = { 0xf, 4, 2, 4, 2, 2, 4, 2 },
    [RDX_SQTT_ALUEXEC] = { 0xe, 4, 2, 4, 2, 2, 4, 2 },
    [RDX_SQTT_IMMEDIATE] = { 0xd, 4, 3, 4, 3, 3, 4, 3 },
    [RDX_SQTT_IMMEDIATE_MASK] = { 0x04, 5, 6, 5, 3, 6, 5, 3 },
    [RDX_SQTT_WAVERDY] = { 0x14, 5, 6, 5, 3, 6, 5, 3 },
    [RDX_SQTT_TS_DELTA_S8_W3] = { 0x21, 7, 18, 8, 3, 18, 8, 3 },
    [RDX_SQTT_WAVEEND] = { 0x15, 5, 5, 5, 3, 5, 5, 3 },
    [RDX_SQTT_WAVESTART] = { 0x0c, 5, 8, 5, 2, 8, 5, 2 },
    [RDX_SQTT_TS_DELTA_S5_W2] = { 0x1c, 5, 12, 5, 2, 10, 5, 2 },
    [RDX_SQTT_WAVEALLOC] = { 0x05, 5, 5, 5, 3, 6, 5, 3 },
    [RDX_SQTT_TS_DELTA_S5_W3] = { 0x06, 5, 13, 5, 3, 14, 7, 3 },
    [RDX_SQTT_PERF] = { 0x16, 5, 7, 5, 3, 8, 7, 3 },
    [RDX_SQTT_UTILCTR] = { 0x31, 7, 12, 7, 2, 12, 7, 2 },
    [RDX_SQTT_TS_DELTA_SHORT] = { 0x8, 4, 2, 4, 4, 2, 4, 4 },
    [RDX_SQTT_NOP] = { 0x0, 4, 1, 0, 0, 1, 0, 0 },
    [RDX_SQTT_TS_WAVE_STATE] = { 0x51, 7, 6, 7, 9, 6, 7, 9 },
    [RDX_SQTT_EVENT] = { 0x61, 8, 6, 8, 3, 6, 8, 3 },
    [RDX_SQTT_EVENT_BIG] = { 0xe1, 8, 8, 8, 3, 8, 8, 3 },
    [RDX_SQTT_REG] = { 0x9, 4, 16, 4, 3, 16, 4, 3 },
    [RDX_SQTT_SNAPSHOT] = { 0x71, 7, 16, 7, 3, 16, 7, 3 },
    [RDX_SQTT_TS_DELTA_OR_MARK] = { 0x01, 7, 12, 12, 36, 16, 12, 52 },
    [RDX_SQTT_LAYOUT_HEADER] = { 0x11, 7, 16, 0, 0, 16, 0, 0 },
    [RDX_SQTT_INST] = { 0x2, 3, 5, 4, 3, 5, 3, 3 },
};

/* The type of the packet whose first byte is b: the widest matching encoding first,
   among equals the lowest type number, NOP last. */
static uint8_t type_of(uint8_t b)
{
    int best = RDX_SQTT_NOP, bits = -1;
    for (int t = 1; t <= 24; t++) {
        if (t == RDX_SQTT_NOP)
            continue;
        unsigned m = (1u << T[t].encbits) - 1;
        if ((b & m) == T[t].enc && T[t].encbits > bits) {
            best = t;
            bits = T[t].encbits;
        }
    }
    return (uint8_t)best;
}

static uint64_t field(uint64_t raw, unsigned lo, unsigned w)
{
    return w >= 64 ? raw >> lo : (raw >> lo) & ((1ull << w) - 1);
}

rdx_status rdx_sqtt_decode(const void *data, size_t len, rdx_sqtt_packet **out, size_t *n)
{
    const uint8_t *d = data;
    uint8_t table[256];
    for (unsigned b = 0; b < 256; b++)
        table[b] = type_of((uint8_t)b);
    uint64_t total = (uint64_t)len * 2, np = 0, time = 0;
    size_t cap = 0, k = 0;
    rdx_sqtt_packet *v = NULL;
    unsigned layout = 3;
    *out = NULL;
    *n = 0;
    while (np < total) {
        /* the next 16 nibbles (fewer at the end), low nibble first */
        uint64_t raw = 0;
        for (unsigned i = 0; i < 16 && np + i < total; i++) {
            uint64_t byte = d[(np + i) / 2];
            raw |= ((((np + i) & 1) ? byte >> 4 : byte) & 15) << (4 * i);
        }
        unsigned t = table[raw & 0xff];
        const ptype *p = &T[t];
        unsigned size = layout == 4 ? p->nib4 : p->nib3;
        if (np + size > total)
            break; /* a partial packet */
        if (size < 16)
            raw &= (1ull << (4 * size)) - 1;
        unsigned dlo = layout == 4 ? p->dlo4 : p->dlo3, dw = layout == 4 ? p->dw4 : p->dw3;
        uint64_t delta = dw ? field(raw, dlo, dw) : 0;
        if (t == RDX_SQTT_TS_DELTA_SHORT)
            delta += 4;
        if (t == RDX_SQTT_TS_DELTA_OR_MARK) {
            unsigned rt = layout == 4 ? (raw >> 7) & 1 : (raw >> 9) & 1, pl = (raw >> 8) & 1;
            if (rt && !pl)
                delta = 0; /* a marker */
        }
        time += delta;
        if (k == cap) {
            size_t nc = cap ? 2 * cap : 1024;
            rdx_sqtt_packet *nv = realloc(v, nc * sizeof *nv);
            if (!nv) {
                free(v);
                return rdx_fail(RDX_ERR_NOMEM, "sqtt: out of memory decoding %zu packets", k);
            }
            v = nv;
            cap = nc;
        }
        rdx_sqtt_packet *x = &v[k++];
        memset(x, 0, sizeof *x);
        x->type = (uint8_t)t;
        x->nibbles = (uint8_t)size;
        x->offset = np;
        x->time = time;
        x->raw = raw;
        switch (t) {
        case RDX_SQTT_VALUINST:
        case RDX_SQTT_IMMEDIATE:
            x->wave = (uint32_t)field(raw, 7, 5);
            break;
        case RDX_SQTT_INST:
            x->wave = (uint32_t)field(raw, layout == 4 ? 7 : 8, 5);
            x->op = (uint32_t)field(raw, layout == 4 ? 12 : 13, layout == 4 ? 8 : 7);
            break;
        case RDX_SQTT_WAVESTART:
            x->simd = (uint32_t)field(raw, 8, 2);
            x->cu = (uint32_t)(field(raw, 10, layout == 4 ? 4 : 3) | field(raw, 7, 1)
                                                                         << (layout == 4 ? 4 : 3));
            x->wave = (uint32_t)field(raw, layout == 4 ? 15 : 13, 5);
            break;
        case RDX_SQTT_WAVEEND:
            x->simd = (uint32_t)field(raw, 9, 2);
            x->cu = (uint32_t)(field(raw, 11, layout == 4 ? 4 : 3) | field(raw, 8, 1)
                                                                         << (layout == 4 ? 4 : 3));
            x->wave = (uint32_t)field(raw, 15, 5);
            break;
        case RDX_SQTT_IMMEDIATE_MASK:
            x->mask = (uint32_t)field(raw, 8, 16);
            break;
        case RDX_SQTT_LAYOUT_HEADER: {
            unsigned l = (unsigned)field(raw, 7, 6);
            if (l != 3 && l != 4) {
                free(v);
                return rdx_fail(RDX_ERR_UNSUPPORTED,
                                "sqtt: layout header at nibble %llu says layout %u; rdx decodes "
                                "layouts 3 (RDNA3) and 4 (RDNA4)",
                                (unsigned long long)np, l);
            }
            layout = l;
            break;
        }
        default:
            break;
        }
        x->layout = (uint8_t)layout;
        np += size;
    }
    *out = v;
    *n = k;
    return RDX_OK;
}

/* INST packets that report memory operations of the other SIMDs (layout 3: ops
   0x50-0x66; layout 4: 0x50-0x59 and 0xbc-0xdd). */
static int other_simd(const rdx_sqtt_packet *p)
{
    if (p->op >= 0x50 && p->op <= (p->layout == 4 ? 0x59u : 0x66u))
        return 1;
    return p->layout == 4 && p->op >= 0xbc && p->op <= 0xdd;
}

/* A wave being followed by rdx_sqtt_map. */
typedef struct mwave {
    uint32_t cu, simd, wave;
    uint64_t off; /* its next instruction's offset in the code */
    int live;
} mwave;

static mwave *find_wave(mwave *w, size_t n, uint32_t cu, uint32_t simd, uint32_t wave)
{
    for (size_t i = 0; i < n; i++)
        if (w[i].live && w[i].cu == cu && w[i].simd == simd && w[i].wave == wave)
            return &w[i];
    return NULL;
}

/* Append an instruction; 0 or -1 when out of memory. */
static int push(rdx_sqtt_inst **v, size_t *n, size_t *cap, rdx_sqtt_inst x)
{
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 1024;
        rdx_sqtt_inst *nv = realloc(*v, nc * sizeof *nv);
        if (!nv)
            return -1;
        *v = nv;
        *cap = nc;
    }
    (*v)[(*n)++] = x;
    return 0;
}

rdx_status rdx_sqtt_map(const rdx_sqtt_packet *pk, size_t n, const uint8_t *code, size_t code_size,
                        uint64_t code_pc, unsigned wave_size, rdx_sqtt_inst **out, size_t *nout)
{
    const rdx_isa_target *tg = rdx_isa_target_find("gfx1100"),
                         *tg4 = rdx_isa_target_find("gfx1200");
    mwave waves[256];
    size_t nw = 0, cap = 0, k = 0;
    rdx_sqtt_inst *v = NULL;
    rdx_status st = RDX_OK;
    *out = NULL;
    *nout = 0;
    /* Instruction packets name only a wave slot: they are the traced SIMD's (the layout
       header's SIMD field) of CU 0; waves elsewhere are not followed. */
    uint32_t isimd = 0;
    for (size_t i = 0; i < n && !st; i++) {
        const rdx_sqtt_packet *p = &pk[i];
        if (p->type == RDX_SQTT_LAYOUT_HEADER)
            isimd = (uint32_t)((p->raw >> 13) & 3);
        if ((p->type == RDX_SQTT_WAVESTART || p->type == RDX_SQTT_WAVEEND) &&
            (p->cu != 0 || p->simd != isimd))
            continue;
        if (p->type == RDX_SQTT_WAVESTART) {
            mwave *w = find_wave(waves, nw, p->cu, p->simd, p->wave);
            if (!w) {
                for (size_t j = 0; j < nw && !w; j++)
                    if (!waves[j].live)
                        w = &waves[j];
                if (!w && nw < sizeof waves / sizeof *waves)
                    w = &waves[nw++];
            }
            if (!w) {
                st = rdx_fail(RDX_ERR_RANGE, "sqtt: more than 256 waves in flight at nibble %llu",
                              (unsigned long long)p->offset);
                break;
            }
            *w = (mwave){ p->cu, p->simd, p->wave, 0, 1 };
            continue;
        }
        int is_inst = p->type == RDX_SQTT_INST || p->type == RDX_SQTT_VALUINST ||
                      p->type == RDX_SQTT_IMMEDIATE;
        if (p->type == RDX_SQTT_INST && other_simd(p))
            continue; /* a memory op of another SIMD: not the traced waves' */
        if (!is_inst && p->type != RDX_SQTT_WAVEEND && p->type != RDX_SQTT_IMMEDIATE_MASK)
            continue;
        for (uint32_t bit = 0; bit < 16; bit++) {
            uint32_t wave = p->type == RDX_SQTT_IMMEDIATE_MASK ? bit : p->wave;
            if (p->type == RDX_SQTT_IMMEDIATE_MASK && !((p->mask >> bit) & 1))
                continue;
            mwave *w = find_wave(waves, nw, 0, isimd, wave);
            if (!w) {
                st = rdx_fail(RDX_ERR_PARSE,
                              "sqtt: %s at nibble %llu names wave %u, which has not started",
                              rdx_sqtt_type_name(p->type), (unsigned long long)p->offset, wave);
                break;
            }
            /* the instruction, stepping over s_delay_alu (it issues no packet) */
            rdx_isa_inst ii;
            size_t len = 0;
            for (;;) {
                if (w->off >= code_size ||
                    rdx_isa_decode_wave(p->layout == 4 && tg4 ? tg4 : tg, wave_size, code + w->off,
                                        code_size - w->off, &ii, &len) != RDX_OK) {
                    st = rdx_fail(RDX_ERR_PARSE,
                                  "sqtt: %s at nibble %llu: no instruction at pc 0x%llx "
                                  "(code+0x%llx)",
                                  rdx_sqtt_type_name(p->type), (unsigned long long)p->offset,
                                  (unsigned long long)(code_pc + w->off),
                                  (unsigned long long)w->off);
                    break;
                }
                if (!sqtt_silent(rdx_isa_op_name(ii.op)))
                    break;
                w->off += len;
            }
            if (st)
                break;
            if (push(&v, &k, &cap,
                     (rdx_sqtt_inst){ code_pc + w->off, p->time, w->cu, w->simd, w->wave })) {
                st = rdx_fail(RDX_ERR_NOMEM, "sqtt: out of memory mapping %zu instructions", k);
                break;
            }
            if (p->type == RDX_SQTT_WAVEEND) {
                w->live = 0;
            } else if (p->type == RDX_SQTT_INST && p->op == RDX_SQTT_OP_JUMP) {
                int16_t simm = (int16_t)(code[w->off] | code[w->off + 1] << 8);
                w->off = (uint64_t)((int64_t)w->off + (int64_t)len + 4 * (int64_t)simm);
            } else {
                w->off += len;
            }
            if (p->type != RDX_SQTT_IMMEDIATE_MASK)
                break;
        }
    }
    if (st) {
        free(v);
        return st;
    }
    *out = v;
    *nout = k;
    return RDX_OK;
}
