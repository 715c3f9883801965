/*
 * emu/core/vmem_fmt.c — formatted buffer access: MTBUF tbuffer_* (format in the
 * instruction) and MUBUF buffer_*_format_* (format in V# word 3 bits 18:12), with
 * the gfx11 unified formats of buffmt.def: components unpacked and converted
 * (UNORM/SNORM/USCALED/SSCALED/UINT/SINT/FLOAT incl. f16 and the 10/11-bit
 * unsigned floats), missing components reading 0 (x, y, z) or 1 (w); d16 forms
 * pack 16-bit results.  Out-of-range elements read 0 and drop writes.
 */
#include <string.h>

#include "emu/core/emu_int.h"
#include "emu/core/exec.h"
#include "emu/core/fp.h"
#include "emu/core/ops.h"

enum { NF_UNORM, NF_SNORM, NF_USCALED, NF_SSCALED, NF_UINT, NF_SINT, NF_FLOAT };

typedef struct buffmt {
    uint8_t comps, bits[4], nfmt;
} buffmt;

static const buffmt fmts[64] = {
#define BUFFMT(id, name, n, bx, by, bz, bw, nf) [id] = { n, { bx, by, bz, bw }, NF_##nf },
#include "emu/core/buffmt.def"
#undef BUFFMT
};

/* The components of format id, or NULL for an invalid id. */
const void *emu_buffmt(unsigned id, unsigned *comps, unsigned *bytes)
{
    if (id >= 64 || !fmts[id].comps)
        return NULL;
    unsigned b = 0;
    for (int i = 0; i < 4; i++)
        b += fmts[id].bits[i];
    *comps = fmts[id].comps;
    *bytes = b / 8;
    return &fmts[id];
}

/* param: components 1..4 [2:0], store bit 3, d16 bit 4, d16 hi bit 5, tbuffer bit 6 */
#define FP_COMPS(p) ((p) & 7)
#define FP_STORE    (1u << 3)
#define FP_D16      (1u << 4)
#define FP_D16HI    (1u << 5)
#define FP_TBUF     (1u << 6)

static float ufloat_to_f32(uint32_t v, unsigned mbits)
{
    uint32_t e = (v >> mbits) & 31, m = v & ((1u << mbits) - 1);
    if (e == 31)
        return m ? NAN : INFINITY;
    if (e == 0)
        return ldexpf((float)m, -14 - (int)mbits);
    return ldexpf(1.0f + (float)m / (float)(1u << mbits), (int)e - 15);
}

static uint32_t f32_to_ufloat(float f, unsigned mbits)
{
    if (f != f)
        return (31u << mbits) | 1u;
    if (f <= 0.0f)
        return 0;
    uint32_t h = f32_to_f16(f) & 0x7fff; /* 5-bit exponent, 10-bit mantissa */
    unsigned k = 10 - mbits;
    if ((h >> 10) == 31)
        return (31u << mbits) | ((h & 0x3ff) ? 1u : 0u);
    uint32_t r = (h + (1u << (k - 1)) - 1 + ((h >> k) & 1)) >> k;
    if ((r >> mbits) >= 31)
        r = 31u << mbits; /* rounded up to infinity */
    return r;
}

static uint32_t unpack_comp(const buffmt *f, unsigned c, uint32_t raw, int *is_float)
{
    unsigned b = f->bits[c];
    int32_t s = b == 32 ? (int32_t)raw : (int32_t)(raw << (32 - b)) >> (32 - b);
    double umax = b == 32 ? 4294967295.0 : (double)((1u << b) - 1);
    double smax = b == 32 ? 2147483647.0 : (double)((1u << (b - 1)) - 1);
    *is_float = f->nfmt != NF_UINT && f->nfmt != NF_SINT;
    switch (f->nfmt) {
    case NF_UNORM:
        return u32_of((float)(raw / umax));
    case NF_SNORM: {
        float v = (float)(s / smax);
        return u32_of(v < -1.0f ? -1.0f : v);
    }
    case NF_USCALED:
        return u32_of((float)raw);
    case NF_SSCALED:
        return u32_of((float)s);
    case NF_UINT:
        return raw;
    case NF_SINT:
        return (uint32_t)s;
    default:
        if (b == 32)
            return raw;
        if (b == 16)
            return u32_of(f16_to_f32((uint16_t)raw));
        return u32_of(ufloat_to_f32(raw, b == 11 ? 6 : 5));
    }
}

static uint32_t pack_comp(const buffmt *f, unsigned c, uint32_t v)
{
    unsigned b = f->bits[c];
    uint32_t mask = b == 32 ? 0xffffffffu : (1u << b) - 1;
    float x = f32_of(v);
    switch (f->nfmt) {
    case NF_UNORM: {
        float t = x != x ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
        return (uint32_t)rint((double)t * (double)mask) & mask;
    }
    case NF_SNORM: {
        double smax = b == 32 ? 2147483647.0 : (double)((1u << (b - 1)) - 1);
        float t = x != x ? 0.0f : x < -1.0f ? -1.0f : x > 1.0f ? 1.0f : x;
        return (uint32_t)(int32_t)rint((double)t * smax) & mask;
    }
    case NF_USCALED: {
        double t = x != x || x < 0.0f ? 0.0 : rint((double)x);
        return t > (double)mask ? mask : (uint32_t)t;
    }
    case NF_SSCALED: {
        double smax = b == 32 ? 2147483647.0 : (double)((1u << (b - 1)) - 1);
        double t = x != x ? 0.0 : rint((double)x);
        t = t > smax ? smax : t < -smax - 1 ? -smax - 1 : t;
        return (uint32_t)(int32_t)t & mask;
    }
    case NF_UINT:
    case NF_SINT:
        return v & mask;
    default:
        if (b == 32)
            return v;
        if (b == 16)
            return f32_to_f16(x);
        return f32_to_ufloat(x, b == 11 ? 6 : 5);
    }
}

void emu_vm_buffer_fmt(emu_wave *w, const emu_inst *in)
{
    unsigned p = in->param, n = FP_COMPS(p);
    unsigned r = in->srsrc.reg;
    uint64_t base = w->s[r] | (uint64_t)(w->s[r + 1] & 0xffff) << 32;
    uint32_t stride = (w->s[r + 1] >> 16) & 0x3fff;
    uint32_t nrec = w->s[r + 2];
    unsigned fid = (p & FP_TBUF) ? in->format & 0x7f : (w->s[r + 3] >> 12) & 0x7f;
    unsigned fcomps, bytes;
    const buffmt *f = emu_buffmt(fid, &fcomps, &bytes);
    if (!f) {
        emu_fault(w, in, RDX_EMU_FAULT_UNIMPLEMENTED, 0, 0, 0, "invalid buffer format");
        return;
    }
    uint32_t soff = in->soffset.kind != EMU_K_NONE ? emu_s32(w, &in->soffset) : 0;
    uint64_t exec = emu_exec(w);
    unsigned vr = in->addr.reg;
    int store = (p & FP_STORE) != 0;
    uint64_t a[EMU_MAX_LANES];
    uint8_t valid[EMU_MAX_LANES];
    emu_touch_begin(w);
    for (unsigned l = 0; l < w->nl; l++) {
        uint32_t idx = 0, voff = 0;
        if (in->idxen && in->offen) {
            idx = w->v[vr][l];
            voff = w->v[(vr + 1) & 255][l];
        } else if (in->idxen) {
            idx = w->v[vr][l];
        } else if (in->offen) {
            voff = w->v[vr][l];
        }
        uint64_t off = (uint64_t)voff + (uint32_t)in->offset;
        valid[l] = stride == 0 ? off + bytes <= nrec : idx < nrec;
        a[l] = base + soff + off + (uint64_t)idx * stride;
        if (((exec >> l) & 1) && valid[l] &&
            !emu_mem_ok(w, a[l], bytes, store ? RDX_EMU_WRITE : RDX_EMU_READ)) {
            emu_vm_fault(w, in, a[l], bytes, store, l);
            return;
        }
        if (((exec >> l) & 1) && valid[l])
            emu_touch(w, a[l], bytes, store ? 2u : 1u, 1);
    }
    w->wk->c.lane_ops += emu_popcount(exec);
    w->wk->c.vector_insts++;
    emu_cycle_vm(w, store ? EMU_TM(w)->LAT_VMEM_STORE : EMU_TM(w)->LAT_VMEM_LOAD);
    unsigned d = in->dst.reg;
    for (unsigned l = 0; l < w->nl; l++) {
        if (!((exec >> l) & 1))
            continue;
        uint8_t elem[16];
        memset(elem, 0, sizeof elem);
        if (valid[l])
            memcpy(elem, (const void *)(uintptr_t)a[l], bytes);
        uint64_t packed = 0; /* sub-dword formats: all components in one dword */
        memcpy(&packed, elem, bytes < 8 ? bytes : 8);
        unsigned shift = 0;
        uint32_t val[4];
        for (unsigned c = 0; c < 4; c++) {
            if (store)
                break;
            if (c < fcomps) {
                unsigned b = f->bits[c];
                uint32_t raw;
                if (b == 32)
                    memcpy(&raw, elem + 4 * c, 4);
                else
                    raw = (uint32_t)(packed >> shift) & ((1u << b) - 1);
                shift += b;
                int isf;
                val[c] = unpack_comp(f, c, raw, &isf);
            } else {
                int isf = f->nfmt != NF_UINT && f->nfmt != NF_SINT;
                val[c] = c == 3 ? (isf ? 0x3f800000u : 1u) : 0u;
            }
        }
        if (!store) {
            for (unsigned c = 0; c < n; c++) {
                if (!(p & FP_D16)) {
                    w->v[(d + c) & 255][l] = val[c];
                    continue;
                }
                int isf = f->nfmt != NF_UINT && f->nfmt != NF_SINT;
                uint32_t h = isf ? f32_to_f16(f32_of(val[c])) : (val[c] & 0xffff);
                uint32_t *reg = &w->v[(d + c / 2) & 255][l];
                int hi = (p & FP_D16HI) ? 1 : (int)(c & 1);
                *reg = hi ? (*reg & 0xffffu) | h << 16 : (*reg & 0xffff0000u) | h;
            }
            continue;
        }
        if (!valid[l])
            continue;
        /* store: convert the given components, keep the others of the element */
        unsigned s2 = 0;
        uint64_t np = packed;
        for (unsigned c = 0; c < fcomps; c++) {
            unsigned b = f->bits[c];
            if (c < n) {
                uint32_t v;
                if (p & FP_D16) {
                    uint32_t reg = w->v[(in->data0.reg + c / 2) & 255][l];
                    int hi = (p & FP_D16HI) ? 1 : (int)(c & 1);
                    uint32_t h = hi ? reg >> 16 : reg & 0xffff;
                    int isf = f->nfmt != NF_UINT && f->nfmt != NF_SINT;
                    v = isf ? u32_of(f16_to_f32((uint16_t)h)) : h;
                } else {
                    v = w->v[(in->data0.reg + c) & 255][l];
                }
                uint32_t q = pack_comp(f, c, v);
                if (b == 32)
                    memcpy(elem + 4 * c, &q, 4);
                else
                    np = (np & ~(((1ull << b) - 1) << s2)) | (uint64_t)q << s2;
            }
            s2 += b;
        }
        if (f->bits[0] != 32)
            memcpy(elem, &np, bytes < 8 ? bytes : 8);
        memcpy((void *)(uintptr_t)a[l], elem, bytes);
    }
    uint64_t moved = (uint64_t)emu_popcount(exec) * bytes;
    if (store)
        w->wk->c.bytes_written += moved;
    else
        w->wk->c.bytes_read += moved;
}

/* Raw bits of channel c (bit offset and width from the format). */
static uint32_t raw_comp(const buffmt *f, const uint8_t *elem, unsigned bytes, unsigned c)
{
    unsigned shift = 0;
    for (unsigned i = 0; i < c; i++)
        shift += f->bits[i];
    unsigned b = f->bits[c];
    if (b == 32) {
        uint32_t raw;
        memcpy(&raw, elem + shift / 8, 4);
        return raw;
    }
    uint64_t packed = 0;
    memcpy(&packed, elem, bytes < 8 ? bytes : 8);
    return (uint32_t)(packed >> shift) & ((1u << b) - 1);
}

int emu_fmt_read(unsigned id, const uint8_t *elem, uint32_t val[4], int *is_float)
{
    unsigned comps, bytes;
    const buffmt *f = emu_buffmt(id, &comps, &bytes);
    if (!f)
        return 0;
    *is_float = f->nfmt != NF_UINT && f->nfmt != NF_SINT;
    for (unsigned c = 0; c < 4; c++) {
        if (c < comps) {
            int isf;
            val[c] = unpack_comp(f, c, raw_comp(f, elem, bytes, c), &isf);
        } else {
            val[c] = c == 3 ? (*is_float ? 0x3f800000u : 1u) : 0u;
        }
    }
    return 1;
}

uint32_t emu_fmt_raw(unsigned id, const uint8_t *elem, unsigned c, int sgn)
{
    unsigned comps, bytes;
    const buffmt *f = emu_buffmt(id, &comps, &bytes);
    if (!f || c >= comps)
        return 0;
    uint32_t raw = raw_comp(f, elem, bytes, c);
    unsigned b = f->bits[c];
    if (sgn && b < 32)
        raw = (uint32_t)((int32_t)(raw << (32 - b)) >> (32 - b));
    return raw;
}

int emu_fmt_write(unsigned id, uint8_t *elem, const uint32_t val[4], unsigned mask)
{
    unsigned comps, bytes;
    const buffmt *f = emu_buffmt(id, &comps, &bytes);
    if (!f)
        return 0;
    uint64_t np = 0;
    memcpy(&np, elem, bytes < 8 ? bytes : 8);
    unsigned shift = 0;
    for (unsigned c = 0; c < comps; c++) {
        unsigned b = f->bits[c];
        if ((mask >> c) & 1) {
            uint32_t q = pack_comp(f, c, val[c]);
            if (b == 32)
                memcpy(elem + shift / 8, &q, 4);
            else
                np = (np & ~(((1ull << b) - 1) << shift)) | (uint64_t)q << shift;
        }
        shift += b;
    }
    if (f->bits[0] != 32)
        memcpy(elem, &np, bytes < 8 ? bytes : 8);
    return 1;
}

/* Family parser: [t]buffer_{load,store}[_d16][_hi]_format_{x,xy,xyz,xyzw} */
int emu_vmfmt_family(const char *name, emu_opinfo *oi)
{
    unsigned p = 0;
    const char *s;
    if (!strncmp(name, "tbuffer_", 8)) {
        p |= FP_TBUF;
        s = name + 8;
    } else if (!strncmp(name, "buffer_", 7)) {
        s = name + 7;
    } else {
        return 0;
    }
    if (!strncmp(s, "load_", 5))
        s += 5;
    else if (!strncmp(s, "store_", 6)) {
        p |= FP_STORE;
        s += 6;
    } else
        return 0;
    if (!strncmp(s, "d16_", 4)) {
        p |= FP_D16;
        s += 4;
        if (!strncmp(s, "hi_", 3)) {
            p |= FP_D16HI;
            s += 3;
        }
    }
    if (strncmp(s, "format_", 7))
        return 0;
    s += 7;
    unsigned n = !strcmp(s, "x")      ? 1
                 : !strcmp(s, "xy")   ? 2
                 : !strcmp(s, "xyz")  ? 3
                 : !strcmp(s, "xyzw") ? 4
                                      : 0;
    if (!n)
        return 0;
    oi->param = p | n;
    oi->fn = emu_vm_buffer_fmt;
    oi->cls = RDX_EMU_CLASS_VMEM;
    return 1;
}
