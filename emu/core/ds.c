/*
 * emu/core/ds.c — LDS (DS encoding): loads, stores, 2addr forms, atomics
 * with and without return, ds_swizzle_b32, ds_permute/bpermute, append /
 * consume.  The op's shape is parsed from its name into `param`.  LDS
 * belongs to the workgroup and its waves run on one host thread, so no
 * host atomics are needed.  An access beyond the workgroup's allocation
 * stops the dispatch with an LDS fault.
 *
 * Alignment (RDNA3 ISA §12.7, §3.3.3; docs/emu.md "LDS alignment"): the emulated device is
 * configured as the amdgpu driver configures gfx11 (SH_MEM_CONFIG.alignment_mode =
 * UNALIGNED): loads and stores at any byte address access exactly the addressed bytes, and
 * every lane access not naturally aligned is counted (lds_misaligned); atomics must be
 * aligned to their data size in every mode, a misaligned one faults (the hardware's MEMVIOL).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/emu_int.h"
#include "emu/core/exec.h"
#include "emu/core/fp.h"
#include "emu/core/ops.h"

/* param: kind [3:0], bytes [8:4], flags */
enum ds_kind {
    DS_LOAD,
    DS_STORE,
    DS_LOAD2,
    DS_STORE2,
    DS_ATOMIC,
    DS_XCHG2,
    DS_SWIZZLE,
    DS_PERMUTE,
    DS_BPERMUTE,
    DS_APPEND,
    DS_CONSUME,
    DS_NOP
};
#define DS_KIND(p)  ((p) & 15)
#define DS_BYTES(p) (((p) >> 4) & 31)
#define DS_RTN      (1u << 9)
#define DS_STRIDE64 (1u << 10)
#define DS_SIGNED   (1u << 11)
#define DS_D16      (1u << 12)
#define DS_D16_HI   (1u << 13)
#define DS_FN(p)    (((p) >> 16) & 31)
#define DS_64       (1u << 21)

enum {
    F_ADD,
    F_SUB,
    F_RSUB,
    F_INC,
    F_DEC,
    F_MIN_I,
    F_MAX_I,
    F_MIN_U,
    F_MAX_U,
    F_AND,
    F_OR,
    F_XOR,
    F_MSKOR,
    F_XCHG,
    F_CMPST,
    F_MIN_F,
    F_MAX_F,
    F_ADD_F,
    F_CMPST_F
};

static uint8_t *lds_at(emu_wave *w, const emu_inst *in, unsigned l, uint32_t a, unsigned n,
                       int write)
{
    if ((uint64_t)a + n > w->wg->lds_size) {
        emu_fault(w, in, RDX_EMU_FAULT_LDS, a, write, l,
                  w->wg->lds_size ? "beyond the workgroup's LDS allocation"
                                  : "the dispatch has no LDS");
        return NULL;
    }
    return w->wg->lds + a;
}

/* Natural alignment of an n-byte access: n rounded up to a power of two (b96: 16). */
static unsigned nat_align(unsigned n)
{
    unsigned a = 1;
    while (a < n)
        a <<= 1;
    return a;
}

static uint64_t rd(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    memcpy(&v, p, n);
    return v;
}

static void wr(uint8_t *p, uint64_t v, unsigned n)
{
    memcpy(p, &v, n);
}

static uint64_t vdata(emu_wave *w, const emu_opnd *o, unsigned l, unsigned words)
{
    uint64_t v = w->v[o->reg][l];
    if (words > 1)
        v |= (uint64_t)w->v[(o->reg + 1) & 255][l] << 32;
    return v;
}

static void vset(emu_wave *w, unsigned reg, unsigned l, uint64_t v, unsigned words)
{
    w->v[reg & 255][l] = (uint32_t)v;
    if (words > 1)
        w->v[(reg + 1) & 255][l] = (uint32_t)(v >> 32);
}

static uint64_t ds_fn(unsigned f, uint64_t old, uint64_t x, uint64_t y, int is64)
{
    uint64_t m = is64 ? ~0ull : 0xffffffffull;
    old &= m;
    x &= m;
    y &= m;
    int64_t so = is64 ? (int64_t)old : (int32_t)old, sx = is64 ? (int64_t)x : (int32_t)x;
    switch (f) {
    case F_ADD:
        return (old + x) & m;
    case F_SUB:
        return (old - x) & m;
    case F_RSUB:
        return (x - old) & m;
    case F_INC:
        return old >= x ? 0 : old + 1;
    case F_DEC:
        return (old == 0 || old > x) ? x : old - 1;
    case F_MIN_I:
        return sx < so ? x : old;
    case F_MAX_I:
        return sx > so ? x : old;
    case F_MIN_U:
        return x < old ? x : old;
    case F_MAX_U:
        return x > old ? x : old;
    case F_AND:
        return old & x;
    case F_OR:
        return old | x;
    case F_XOR:
        return old ^ x;
    case F_MSKOR:
        return (old & ~x) | y;
    case F_XCHG:
        return x;
    case F_CMPST:
        return old == x ? y : old; /* data0 = cmp? see below */
    case F_CMPST_F:
        return old == x ? y : old;
    case F_MIN_F:
        if (is64)
            return f64_of(x) < f64_of(old) ? x : old;
        return f32_min_hw((uint32_t)old, (uint32_t)x, 1);
    case F_MAX_F:
        if (is64)
            return f64_of(x) > f64_of(old) ? x : old;
        return f32_max_hw((uint32_t)old, (uint32_t)x, 1);
    default: /* F_ADD_F */
        if (is64)
            return u64_of(f64_of(old) + f64_of(x));
        return u32_of(f32_of((uint32_t)old) + f32_of((uint32_t)x));
    }
}

/*
 * LDS bank conflicts of one DS access (profiling only; docs/prof.md "LDS bank
 * conflicts"): the LDS serves 128 bytes per clock from 32 banks of dwords (dword
 * address mod 32).  An access of `words` dwords per lane is served in passes of
 * 32 / words consecutive lanes (each address of a 2addr form separately); in a
 * pass, lanes reading the same dword share it, and distinct dwords in one bank
 * take one clock each.  Returns the clocks beyond one per pass.
 */
static uint64_t bank_conflicts(const emu_wave *w, const emu_inst *in, uint64_t exec, unsigned k,
                               unsigned n)
{
    unsigned p = in->param, words = n > 4 ? (n + 3) / 4 : 1;
    unsigned per = 32 / words, naddr = 1;
    uint32_t off[2] = { (uint32_t)in->offset & 0xffff, 0 };
    if (k == DS_LOAD2 || k == DS_STORE2 || k == DS_XCHG2) {
        unsigned sc = n * ((p & DS_STRIDE64) ? 64 : 1);
        off[0] = ((uint32_t)in->offset & 0xff) * sc;
        off[1] = ((uint32_t)in->offset1 & 0xff) * sc;
        naddr = 2;
    }
    const uint32_t *av = w->v[in->addr.reg];
    uint64_t extra = 0;
    for (unsigned a = 0; a < naddr; a++)
        for (unsigned l0 = 0; l0 < w->nl; l0 += per) {
            uint32_t seen[32][32]; /* distinct dwords per bank in this pass */
            unsigned cnt[32] = { 0 }, most = 0;
            for (unsigned l = l0; l < l0 + per && l < w->nl; l++) {
                if (!((exec >> l) & 1))
                    continue;
                uint32_t d0 = (av[l] + off[a]) >> 2;
                for (unsigned i = 0; i < words; i++) {
                    uint32_t d = d0 + i;
                    unsigned b = d & 31, j;
                    for (j = 0; j < cnt[b] && seen[b][j] != d; j++)
                        ;
                    if (j == cnt[b] && cnt[b] < 32) {
                        seen[b][cnt[b]++] = d;
                        if (cnt[b] > most)
                            most = cnt[b];
                    }
                }
            }
            if (most > 1)
                extra += most - 1;
        }
    return extra;
}

typedef uint32_t ds_v4u __attribute__((vector_size(16)));

/*
 * Loads and stores of 4, 8, 12 or 16 bytes (also the 2addr forms) with every lane active,
 * every access naturally aligned and inside the allocation: one bounds and alignment check
 * for the wave (the largest address and the OR of all), then the lanes without tests, in
 * the order the general path takes them.  Returns false, having changed nothing, otherwise
 * (the general path then counts, and faults where it did).
 */
static bool ds_fast(emu_wave *w, const emu_inst *in, uint64_t exec)
{
    unsigned p = in->param, k = DS_KIND(p), n = DS_BYTES(p), nl = w->nl;
    if ((k != DS_LOAD && k != DS_STORE && k != DS_LOAD2 && k != DS_STORE2) || n < 4 ||
        (p & (DS_D16 | DS_D16_HI | DS_SIGNED)) || exec != (nl == 64 ? ~0ull : 0xffffffffull))
        return false;
    uint32_t av[EMU_MAX_LANES]; /* a copy: the destination may be the address register */
    memcpy(av, w->v[in->addr.reg], sizeof av);
    /* the lanes in segments of 16 (the rows of a tile), each at its own base + (l % 16) * st:
       contiguous (st == 4) or uniform (st == 0) segments are read with one copy each */
    uint32_t st = av[1] - av[0];
    ds_v4u mx = { 0, 0, 0, 0 }, orv = { 0, 0, 0, 0 }, bad = { 0, 0, 0, 0 };
    for (unsigned s0 = 0; s0 < nl; s0 += 16) {
        uint32_t b = av[s0];
        ds_v4u e = { b, b + st, b + 2 * st, b + 3 * st };
        for (unsigned l = s0; l < s0 + 16; l += 4) {
            ds_v4u x;
            memcpy(&x, av + l, sizeof x);
            ds_v4u gt = (ds_v4u)(x > mx);
            mx = (x & gt) | (mx & ~gt);
            orv |= x;
            bad |= x ^ e;
            e += 4 * st;
        }
    }
    bool seg = !(bad[0] | bad[1] | bad[2] | bad[3]);
    bool uni = seg && st == 0, contig = seg && st == 4 && n == 4;
    uint32_t hi = mx[0], low = orv[0] | orv[1] | orv[2] | orv[3];
    for (int i = 1; i < 4; i++)
        hi = mx[i] > hi ? mx[i] : hi;
    uint32_t o0 = (uint32_t)in->offset & 0xffff, o1 = o0;
    if (k == DS_LOAD2 || k == DS_STORE2) {
        unsigned sc = n * ((p & DS_STRIDE64) ? 64 : 1);
        o0 = ((uint32_t)in->offset & 0xff) * sc;
        o1 = ((uint32_t)in->offset1 & 0xff) * sc;
    }
    uint32_t omax = o0 > o1 ? o0 : o1;
    if ((uint64_t)hi + omax + n > w->wg->lds_size || ((low | o0 | o1) & (nat_align(n) - 1)))
        return false;
    uint8_t *lds = w->wg->lds;
    unsigned words = n / 4;
    if (k == DS_LOAD || k == DS_LOAD2) {
        unsigned d = in->dst.reg;
        for (unsigned h = 0; h < (k == DS_LOAD2 ? 2u : 1u); h++) {
            uint32_t o = h ? o1 : o0;
            for (unsigned i = 0; i < words; i++) {
                uint32_t *v = w->v[(d + h * words + i) & 255];
                if (contig) {
                    for (unsigned s0 = 0; s0 < nl; s0 += 16)
                        memcpy(v + s0, lds + av[s0] + o, 64);
                } else if (uni) {
                    for (unsigned s0 = 0; s0 < nl; s0 += 16) {
                        uint32_t x;
                        memcpy(&x, lds + av[s0] + o + 4 * i, 4);
                        for (unsigned l = s0; l < s0 + 16; l++)
                            v[l] = x;
                    }
                } else {
                    for (unsigned l = 0; l < nl; l++)
                        memcpy(&v[l], lds + av[l] + o + 4 * i, 4);
                }
            }
        }
    } else {
        unsigned s0 = in->data0.reg, s1 = in->data1.reg;
        for (unsigned l = 0; l < nl; l++) { /* ascending lanes: the last lane's bytes win */
            for (unsigned i = 0; i < words; i++)
                memcpy(lds + av[l] + o0 + 4 * i, &w->v[(s0 + i) & 255][l], 4);
            if (k == DS_STORE2)
                for (unsigned i = 0; i < words; i++)
                    memcpy(lds + av[l] + o1 + 4 * i, &w->v[(s1 + i) & 255][l], 4);
        }
    }
    emu_count_lds(w, (uint64_t)nl * n * (k == DS_LOAD2 || k == DS_STORE2 ? 2 : 1));
    return true;
}

void emu_ds(emu_wave *w, const emu_inst *in)
{
    unsigned p = in->param, k = DS_KIND(p), n = DS_BYTES(p);
    uint64_t exec = emu_exec(w);
    unsigned off0 = (uint32_t)in->offset & 0xffff;
    w->wk->c.lane_ops += (uint64_t)emu_popcount(exec);
    w->wk->c.vector_insts++;
    emu_timing_fwd(w, EMU_T_ISSUE_LDS); /* the address / data from a VALU */
    emu_cycle_lgkm(w, EMU_TM(w)->LAT_LDS);
    if (k == DS_NOP)
        return;
    if (w->wk->prof && k != DS_SWIZZLE && k != DS_PERMUTE && k != DS_BPERMUTE && k != DS_APPEND &&
        k != DS_CONSUME)
        emu_prof_lds(w->wk->prof, bank_conflicts(w, in, exec, k, n));
    if (k == DS_SWIZZLE || k == DS_PERMUTE || k == DS_BPERMUTE) {
        uint32_t src[EMU_MAX_LANES], res[EMU_MAX_LANES];
        /* ds_swizzle reads its data through the address field; permutes read data0 */
        memcpy(src, w->v[k == DS_SWIZZLE ? in->addr.reg : in->data0.reg], sizeof src);
        memcpy(res, w->v[in->dst.reg], sizeof res);
        if (k == DS_SWIZZLE) {
            unsigned pat = off0;
            for (unsigned l = 0; l < w->nl; l++) {
                if (!((exec >> l) & 1))
                    continue;
                unsigned s;
                if (pat & 0x8000) { /* QDMode: lane in quad from 2-bit fields */
                    s = (l & ~3u) | ((pat >> ((l & 3) * 2)) & 3);
                } else { /* BitMode over 32 lanes: and, or, xor masks */
                    unsigned and_m = pat & 31, or_m = (pat >> 5) & 31, xor_m = (pat >> 10) & 31;
                    s = (l & 32) | ((((l & 31) & and_m) | or_m) ^ xor_m);
                }
                res[l] = ((exec >> s) & 1) ? src[s] : 0;
            }
            for (unsigned l = 0; l < w->nl; l++)
                if ((exec >> l) & 1)
                    w->v[in->dst.reg][l] = res[l];
            return;
        }
        /* permute: lane (addr+offset)/4 gets data (push); bpermute: lane reads from that lane */
        uint32_t out[EMU_MAX_LANES];
        memset(out, 0, sizeof out);
        for (unsigned l = 0; l < w->nl; l++) {
            if (!((exec >> l) & 1))
                continue;
            unsigned t = ((w->v[in->addr.reg][l] + off0) >> 2) % w->nl;
            if (k == DS_PERMUTE)
                out[t] = src[l];
            else
                out[l] = ((exec >> t) & 1) ? src[t] : 0;
        }
        for (unsigned l = 0; l < w->nl; l++)
            if ((exec >> l) & 1)
                w->v[in->dst.reg][l] = out[l];
        return;
    }
    if (k == DS_APPEND || k == DS_CONSUME) {
        /* M0[15:0] is the LDS address of the counter; returns the pre-op value to each lane */
        uint32_t a = (w->s[EMU_M0] & 0xffff) + off0;
        uint8_t *q = lds_at(w, in, 0, a, 4, 1);
        if (!q)
            return;
        uint32_t c = (uint32_t)rd(q, 4), cnt = (uint32_t)emu_popcount(exec);
        for (unsigned l = 0; l < w->nl; l++)
            if ((exec >> l) & 1)
                w->v[in->dst.reg][l] = c;
        wr(q, k == DS_APPEND ? c + cnt : c - cnt, 4);
        emu_count_lds(w, 8);
        return;
    }
    if (ds_fast(w, in, exec))
        return;
    /* fast paths: 32-bit loads/stores (also 2addr) with every lane inside the allocation */
    if (n == 4 && (k == DS_LOAD || k == DS_STORE || k == DS_LOAD2) && !(p & (DS_D16 | DS_D16_HI))) {
        uint32_t av[EMU_MAX_LANES]; /* a copy: the destination may be the address register */
        memcpy(av, w->v[in->addr.reg], sizeof av);
        unsigned o0 =
            k == DS_LOAD2 ? ((uint32_t)in->offset & 0xff) * ((p & DS_STRIDE64) ? 256 : 4) : off0;
        unsigned o1 =
            k == DS_LOAD2 ? ((uint32_t)in->offset1 & 0xff) * ((p & DS_STRIDE64) ? 256 : 4) : off0;
        uint32_t hi = 0, low = 0;
        for (unsigned l = 0; l < w->nl; l++)
            if ((exec >> l) & 1) {
                hi = av[l] > hi ? av[l] : hi;
                low |= av[l] + o0;
                low |= av[l] + o1;
            }
        if (low & 3) /* some lane's dword is not 4-aligned: count them */
            for (unsigned l = 0; l < w->nl; l++)
                if ((exec >> l) & 1)
                    w->wk->c.lds_misaligned +=
                        ((av[l] + o0) & 3) != 0 || (k == DS_LOAD2 && ((av[l] + o1) & 3) != 0);
        unsigned omax = o0 > o1 ? o0 : o1;
        if ((uint64_t)hi + omax + 4 <= w->wg->lds_size) {
            uint8_t *lds = w->wg->lds;
            unsigned d = in->dst.reg;
            if (k == DS_LOAD) {
                for (unsigned l = 0; l < w->nl; l++)
                    if ((exec >> l) & 1)
                        memcpy(&w->v[d][l], lds + av[l] + o0, 4);
            } else if (k == DS_STORE) {
                const uint32_t *dv = w->v[in->data0.reg];
                for (unsigned l = 0; l < w->nl; l++)
                    if ((exec >> l) & 1)
                        memcpy(lds + av[l] + o0, &dv[l], 4);
            } else {
                for (unsigned l = 0; l < w->nl; l++)
                    if ((exec >> l) & 1) {
                        memcpy(&w->v[d][l], lds + av[l] + o0, 4);
                        memcpy(&w->v[(d + 1) & 255][l], lds + av[l] + o1, 4);
                    }
            }
            emu_count_lds(w, (uint64_t)emu_popcount(exec) * (k == DS_LOAD2 ? 8 : 4));
            return;
        }
    }
    /* check every lane first */
    unsigned am = nat_align(n) - 1;
    int atomic = k == DS_ATOMIC || k == DS_XCHG2;
    uint64_t mis = 0;
    for (unsigned l = 0; l < w->nl; l++) {
        if (!((exec >> l) & 1))
            continue;
        uint32_t a = w->v[in->addr.reg][l];
        if (k == DS_LOAD2 || k == DS_STORE2 || k == DS_XCHG2) {
            unsigned sc = n * ((p & DS_STRIDE64) ? 64 : 1);
            uint32_t a0 = a + ((uint32_t)in->offset & 0xff) * sc;
            uint32_t a1 = a + ((uint32_t)in->offset1 & 0xff) * sc;
            if (!lds_at(w, in, l, a0, n, k != DS_LOAD2) || !lds_at(w, in, l, a1, n, k != DS_LOAD2))
                return;
            mis += ((a0 & am) != 0) + ((a1 & am) != 0);
            if (atomic && ((a0 | a1) & am)) {
                emu_fault(w, in, RDX_EMU_FAULT_LDS, a0 & am ? a0 : a1, 1, l,
                          "misaligned atomic (MEMVIOL)");
                return;
            }
        } else if (!lds_at(w, in, l, a + off0, n, k != DS_LOAD)) {
            return;
        } else if ((a + off0) & am) {
            if (atomic) {
                emu_fault(w, in, RDX_EMU_FAULT_LDS, a + off0, 1, l, "misaligned atomic (MEMVIOL)");
                return;
            }
            mis++;
        }
    }
    w->wk->c.lds_misaligned += mis;
    uint8_t *lds = w->wg->lds;
    unsigned words = n > 4 ? 2 : 1;
    for (unsigned l = 0; l < w->nl; l++) {
        if (!((exec >> l) & 1))
            continue;
        uint32_t a = w->v[in->addr.reg][l];
        switch (k) {
        case DS_LOAD: {
            uint8_t *q = lds + (uint32_t)(a + off0); /* the address wraps at 32 bits */
            unsigned d = in->dst.reg;
            if (n > 8) {
                for (unsigned i = 0; i < n / 4; i++)
                    w->v[(d + i) & 255][l] = (uint32_t)rd(q + 4 * i, 4);
            } else if (p & DS_D16) {
                uint32_t v = (uint32_t)rd(q, n);
                if (p & DS_SIGNED)
                    v = n == 1 ? (uint32_t)(int32_t)(int8_t)v : (uint32_t)(int32_t)(int16_t)v;
                v &= 0xffff;
                if (p & DS_D16_HI)
                    w->v[d][l] = (w->v[d][l] & 0xffff) | v << 16;
                else
                    w->v[d][l] = (w->v[d][l] & 0xffff0000u) | v;
            } else {
                uint64_t v = rd(q, n);
                if ((p & DS_SIGNED) && n == 1)
                    v = (uint32_t)(int32_t)(int8_t)v;
                else if ((p & DS_SIGNED) && n == 2)
                    v = (uint32_t)(int32_t)(int16_t)v;
                vset(w, d, l, v, words);
            }
            break;
        }
        case DS_STORE: {
            uint8_t *q = lds + (uint32_t)(a + off0); /* the address wraps at 32 bits */
            if (n > 8) {
                for (unsigned i = 0; i < n / 4; i++)
                    wr(q + 4 * i, w->v[(in->data0.reg + i) & 255][l], 4);
            } else {
                uint64_t v = vdata(w, &in->data0, l, words);
                if (p & DS_D16_HI)
                    v >>= 16;
                wr(q, v, n);
            }
            break;
        }
        case DS_LOAD2:
        case DS_STORE2:
        case DS_XCHG2: {
            unsigned sc = n * ((p & DS_STRIDE64) ? 64 : 1);
            uint32_t a0 = a + ((uint32_t)in->offset & 0xff) * sc;
            uint32_t a1 = a + ((uint32_t)in->offset1 & 0xff) * sc;
            if (k == DS_LOAD2) {
                uint64_t v0 = rd(lds + a0, n), v1 = rd(lds + a1, n);
                vset(w, in->dst.reg, l, v0, words);
                vset(w, in->dst.reg + words, l, v1, words);
            } else {
                uint64_t o0 = rd(lds + a0, n), o1 = rd(lds + a1, n);
                wr(lds + a0, vdata(w, &in->data0, l, words), n);
                wr(lds + a1, vdata(w, &in->data1, l, words), n);
                if (k == DS_XCHG2) {
                    vset(w, in->dst.reg, l, o0, words);
                    vset(w, in->dst.reg + words, l, o1, words);
                }
            }
            break;
        }
        default: {                                   /* atomics */
            uint8_t *q = lds + (uint32_t)(a + off0); /* the address wraps at 32 bits */
            uint64_t old = rd(q, n);
            uint64_t x = vdata(w, &in->data0, l, words);
            uint64_t y = in->data1.kind == EMU_K_VGPR ? vdata(w, &in->data1, l, words) : 0;
            unsigned f = DS_FN(p);
            uint64_t nv;
            if (f == F_CMPST || f == F_CMPST_F) /* ds_cmpstore: data0 = new value, data1 = cmp */
                nv = old == y ? x : old;
            else
                nv = ds_fn(f, old, x, y, n == 8);
            wr(q, nv, n);
            if (p & DS_RTN)
                vset(w, in->dst.reg, l, old, words);
            break;
        }
        }
    }
    unsigned lanes = (unsigned)emu_popcount(exec);
    emu_count_lds(w, (uint64_t)lanes * n * (k == DS_LOAD2 || k == DS_STORE2 ? 2 : 1));
}

/* Family parser for ds_* names. */
int emu_ds_family(const char *name, emu_opinfo *oi)
{
    if (strncmp(name, "ds_", 3))
        return 0;
    const char *s = name + 3;
    unsigned p = 0;
    static const struct {
        const char *n;
        unsigned f;
    } fns[] = {
        { "add", F_ADD },     { "sub", F_SUB },        { "rsub", F_RSUB },      { "inc", F_INC },
        { "dec", F_DEC },     { "and", F_AND },        { "or", F_OR },          { "xor", F_XOR },
        { "mskor", F_MSKOR }, { "storexchg", F_XCHG }, { "cmpstore", F_CMPST },
    };
    oi->cls = RDX_EMU_CLASS_LDS;
    oi->fn = emu_ds;
    if (!strcmp(s, "nop")) {
        oi->param = DS_NOP;
        return 1;
    }
    if (!strcmp(s, "swizzle_b32")) {
        oi->param = DS_SWIZZLE | 4 << 4;
        return 1;
    }
    if (!strcmp(s, "permute_b32")) {
        oi->param = DS_PERMUTE | 4 << 4;
        return 1;
    }
    if (!strcmp(s, "bpermute_b32")) {
        oi->param = DS_BPERMUTE | 4 << 4;
        return 1;
    }
    if (!strcmp(s, "append")) {
        oi->param = DS_APPEND | 4 << 4;
        return 1;
    }
    if (!strcmp(s, "consume")) {
        oi->param = DS_CONSUME | 4 << 4;
        return 1;
    }
    /* loads / stores */
    static const struct {
        const char *n;
        unsigned p;
    } ls[] = {
        { "load_b32", DS_LOAD | 4 << 4 },
        { "load_b64", DS_LOAD | 8 << 4 },
        { "load_b96", DS_LOAD | 12 << 4 },
        { "load_b128", DS_LOAD | 16 << 4 },
        { "load_u8", DS_LOAD | 1 << 4 },
        { "load_i8", DS_LOAD | 1 << 4 | DS_SIGNED },
        { "load_u16", DS_LOAD | 2 << 4 },
        { "load_i16", DS_LOAD | 2 << 4 | DS_SIGNED },
        { "load_u8_d16", DS_LOAD | 1 << 4 | DS_D16 },
        { "load_u8_d16_hi", DS_LOAD | 1 << 4 | DS_D16 | DS_D16_HI },
        { "load_i8_d16", DS_LOAD | 1 << 4 | DS_D16 | DS_SIGNED },
        { "load_i8_d16_hi", DS_LOAD | 1 << 4 | DS_D16 | DS_D16_HI | DS_SIGNED },
        { "load_u16_d16", DS_LOAD | 2 << 4 | DS_D16 },
        { "load_u16_d16_hi", DS_LOAD | 2 << 4 | DS_D16 | DS_D16_HI },
        { "store_b32", DS_STORE | 4 << 4 },
        { "store_b64", DS_STORE | 8 << 4 },
        { "store_b96", DS_STORE | 12 << 4 },
        { "store_b128", DS_STORE | 16 << 4 },
        { "store_b8", DS_STORE | 1 << 4 },
        { "store_b16", DS_STORE | 2 << 4 },
        { "store_b8_d16_hi", DS_STORE | 1 << 4 | DS_D16_HI },
        { "store_b16_d16_hi", DS_STORE | 2 << 4 | DS_D16_HI },
        { "load_2addr_b32", DS_LOAD2 | 4 << 4 },
        { "load_2addr_b64", DS_LOAD2 | 8 << 4 },
        { "load_2addr_stride64_b32", DS_LOAD2 | 4 << 4 | DS_STRIDE64 },
        { "load_2addr_stride64_b64", DS_LOAD2 | 8 << 4 | DS_STRIDE64 },
        { "store_2addr_b32", DS_STORE2 | 4 << 4 },
        { "store_2addr_b64", DS_STORE2 | 8 << 4 },
        { "store_2addr_stride64_b32", DS_STORE2 | 4 << 4 | DS_STRIDE64 },
        { "store_2addr_stride64_b64", DS_STORE2 | 8 << 4 | DS_STRIDE64 },
        { "storexchg_2addr_rtn_b32", DS_XCHG2 | 4 << 4 },
        { "storexchg_2addr_rtn_b64", DS_XCHG2 | 8 << 4 },
        { "storexchg_2addr_stride64_rtn_b32", DS_XCHG2 | 4 << 4 | DS_STRIDE64 },
        { "storexchg_2addr_stride64_rtn_b64", DS_XCHG2 | 8 << 4 | DS_STRIDE64 },
    };
    for (size_t i = 0; i < sizeof ls / sizeof ls[0]; i++)
        if (!strcmp(s, ls[i].n)) {
            oi->param = ls[i].p;
            return 1;
        }
    /* atomics: <fn>[_rtn]_<type> */
    char fn[24];
    const char *u = strchr(s, '_');
    if (!u || (size_t)(u - s) >= sizeof fn)
        return 0;
    memcpy(fn, s, (size_t)(u - s));
    fn[u - s] = 0;
    const char *rest = u + 1;
    if (!strncmp(rest, "rtn_", 4)) {
        p |= DS_RTN;
        rest += 4;
    }
    unsigned f = 99;
    int fl = rest[0] == 'f', sg = rest[0] == 'i';
    unsigned bits = (unsigned)strtoul(rest + 1, NULL, 10);
    if (bits != 32 && bits != 64)
        return 0;
    if (!strcmp(fn, "min"))
        f = fl ? F_MIN_F : sg ? F_MIN_I : F_MIN_U;
    else if (!strcmp(fn, "max"))
        f = fl ? F_MAX_F : sg ? F_MAX_I : F_MAX_U;
    else if (!strcmp(fn, "add") && fl)
        f = F_ADD_F;
    else if (!strcmp(fn, "cmpstore") && fl)
        f = F_CMPST_F;
    else
        for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
            if (!strcmp(fn, fns[i].n))
                f = fns[i].f;
    if (f == 99)
        return 0;
    oi->param = p | DS_ATOMIC | (bits / 8) << 4 | f << 16 | (bits == 64 ? DS_64 : 0);
    return 1;
}
