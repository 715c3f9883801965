/*
 * emu/core/vmem.c — vector memory: FLAT, GLOBAL and SCRATCH loads, stores
 * and atomics, and MUBUF/MTBUF buffer loads, stores and atomics through a
 * buffer resource (V#).  The op's shape (address space, direction, width,
 * d16 half, atomic function) is parsed once from its name into `param`.
 *
 * Every active lane's address is checked before any lane touches memory:
 * an unregistered global address stops the dispatch with a VM fault, a
 * scratch address beyond the lane's segment with a scratch fault.  FLAT
 * addresses in the shared / private apertures go to LDS / scratch.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "emu/core/emu_int.h"
#include "emu/core/exec.h"
#include "emu/core/fp.h"
#include "emu/core/ops.h"

/* param layout */
#define VM_SPACE(p)  ((p) & 3)         /* 0 global, 1 flat, 2 scratch, 3 buffer */
#define VM_DIR(p)    (((p) >> 2) & 3)  /* 0 load, 1 store, 2 atomic */
#define VM_TYPE(p)   (((p) >> 4) & 15) /* access type */
#define VM_ATOMIC(p) (((p) >> 8) & 31) /* atomic function */
#define VM_A64(p)    (((p) >> 13) & 1) /* 64-bit atomic */
#define VM_FMT(p)    (((p) >> 14) & 1) /* buffer _format op: components = dwords */

enum vm_type {
    T_U8,
    T_I8,
    T_U16,
    T_I16,
    T_B32,
    T_B64,
    T_B96,
    T_B128,
    T_D16_U8,
    T_D16_I8,
    T_D16_B16,
    T_D16_HI_U8,
    T_D16_HI_I8,
    T_D16_HI_B16,
    T_B8,
    T_B16, /* stores */
};

enum vm_atomic {
    A_SWAP,
    A_CMPSWAP,
    A_ADD,
    A_SUB,
    A_CSUB,
    A_SMIN,
    A_UMIN,
    A_SMAX,
    A_UMAX,
    A_AND,
    A_OR,
    A_XOR,
    A_INC,
    A_DEC,
    A_FADD,
    A_FMIN,
    A_FMAX,
    A_FCMPSWAP,
    A_RSUB,
};

static unsigned type_bytes(unsigned t)
{
    switch (t) {
    case T_U8:
    case T_I8:
    case T_D16_U8:
    case T_D16_I8:
    case T_D16_HI_U8:
    case T_D16_HI_I8:
    case T_B8:
        return 1;
    case T_U16:
    case T_I16:
    case T_D16_B16:
    case T_D16_HI_B16:
    case T_B16:
        return 2;
    case T_B64:
        return 8;
    case T_B96:
        return 12;
    case T_B128:
        return 16;
    default:
        return 4;
    }
}

int emu_vm_parse_type(const char *s, unsigned *t)
{
    static const struct {
        const char *n;
        unsigned t;
    } tab[] = {
        { "u8", T_U8 },
        { "i8", T_I8 },
        { "u16", T_U16 },
        { "i16", T_I16 },
        { "b32", T_B32 },
        { "b64", T_B64 },
        { "b96", T_B96 },
        { "b128", T_B128 },
        { "d16_u8", T_D16_U8 },
        { "d16_i8", T_D16_I8 },
        { "d16_b16", T_D16_B16 },
        { "d16_hi_u8", T_D16_HI_U8 },
        { "d16_hi_i8", T_D16_HI_I8 },
        { "d16_hi_b16", T_D16_HI_B16 },
        { "b8", T_B8 },
        { "b16", T_B16 },
        { "d16_hi_b8", T_D16_HI_U8 },
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (!strcmp(s, tab[i].n)) {
            *t = tab[i].t;
            return 1;
        }
    return 0;
}

int emu_vm_parse_atomic(const char *s, unsigned *a, unsigned *is64)
{
    static const struct {
        const char *n;
        unsigned a;
    } tab[] = {
        { "swap", A_SWAP }, { "cmpswap", A_CMPSWAP }, { "add", A_ADD },  { "sub", A_SUB },
        { "csub", A_CSUB }, { "min", A_SMIN },        { "max", A_SMAX }, { "and", A_AND },
        { "or", A_OR },     { "xor", A_XOR },         { "inc", A_INC },  { "dec", A_DEC },
    };
    char op[32];
    const char *u = strrchr(s, '_');
    if (!u || (size_t)(u - s) >= sizeof op)
        return 0;
    memcpy(op, s, (size_t)(u - s));
    op[u - s] = 0;
    const char *ty = u + 1;
    *is64 = !strcmp(ty + 1, "64");
    if (ty[0] == 'f') {
        if (!strcmp(op, "add"))
            *a = A_FADD;
        else if (!strcmp(op, "min"))
            *a = A_FMIN;
        else if (!strcmp(op, "max"))
            *a = A_FMAX;
        else if (!strcmp(op, "cmpswap"))
            *a = A_FCMPSWAP;
        else
            return 0;
        return 1;
    }
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (!strcmp(op, tab[i].n)) {
            *a = tab[i].a;
            if (*a == A_SMIN && ty[0] == 'u')
                *a = A_UMIN;
            if (*a == A_SMAX && ty[0] == 'u')
                *a = A_UMAX;
            return 1;
        }
    return 0;
}

/* ------------------------------------------------------------ addresses */

/* Per-lane addresses of a FLAT/GLOBAL/SCRATCH instruction. */
static void flat_addrs(emu_wave *w, const emu_inst *in, uint64_t *a)
{
    unsigned sp = VM_SPACE(in->param);
    int64_t off = in->offset;
    if (sp == 2) { /* scratch: [vaddr] + [saddr] + offset */
        uint32_t base = in->saddr.kind == EMU_K_SGPR ? emu_s32(w, &in->saddr) : 0;
        for (unsigned l = 0; l < w->nl; l++) {
            uint32_t v = in->addr.kind == EMU_K_VGPR ? w->v[in->addr.reg][l] : 0;
            a[l] = (uint64_t)(uint32_t)(v + base + (uint32_t)off);
        }
    } else if (sp == 0 && in->saddr.kind == EMU_K_SGPR && in->saddr.reg != EMU_NULL) {
        uint64_t base = emu_s64(w, &in->saddr);
        for (unsigned l = 0; l < w->nl; l++)
            a[l] = base + w->v[in->addr.reg][l] + (uint64_t)off;
    } else {
        const uint32_t *lo = w->v[in->addr.reg], *hi = w->v[(in->addr.reg + 1) & 255];
        for (unsigned l = 0; l < w->nl; l++)
            a[l] = (lo[l] | (uint64_t)hi[l] << 32) + (uint64_t)off;
    }
}

/* Where one lane's access goes: host pointer, or NULL after a fault. */
enum { SEG_GLOBAL, SEG_LDS, SEG_SCRATCH };

static int seg_of(const emu_inst *in, uint64_t a)
{
    unsigned sp = VM_SPACE(in->param);
    if (sp == 2)
        return SEG_SCRATCH;
    if (sp == 1) {
        uint32_t hi = (uint32_t)(a >> 32);
        if (hi == EMU_SHARED_APERTURE_HI)
            return SEG_LDS;
        if (hi == EMU_PRIVATE_APERTURE_HI)
            return SEG_SCRATCH;
    }
    return SEG_GLOBAL;
}

static void scratch_prepare(emu_wave *w)
{
    if (!w->scratch_ready && w->scratch) {
        memset(w->scratch, 0, (size_t)w->nl * w->scratch_size);
        w->scratch_ready = 1;
    }
}

static uint8_t *lane_ptr(emu_wave *w, const emu_inst *in, unsigned l, uint64_t a, unsigned n,
                         int write)
{
    switch (seg_of(in, a)) {
    case SEG_LDS: {
        uint32_t o = (uint32_t)a;
        if ((uint64_t)o + n > w->wg->lds_size) {
            emu_fault(w, in, RDX_EMU_FAULT_LDS, o, write, l, "beyond the workgroup's LDS");
            return NULL;
        }
        return w->wg->lds + o;
    }
    case SEG_SCRATCH: {
        uint32_t o = (uint32_t)a;
        if ((uint64_t)o + n > w->scratch_size) {
            emu_fault(w, in, RDX_EMU_FAULT_SCRATCH, o, write, l,
                      w->scratch_size ? "beyond the lane's scratch segment"
                                      : "the dispatch has no scratch");
            return NULL;
        }
        scratch_prepare(w);
        w->wk->c.scratch_bytes += n;
        return w->scratch + (size_t)l * w->scratch_size + o;
    }
    default:
        if (!emu_mem_ok(w, a, n, write ? RDX_EMU_WRITE : RDX_EMU_READ)) {
            emu_vm_fault(w, in, a, n, write, l);
            return NULL;
        }
        if (write)
            w->wk->c.bytes_written += n;
        else
            w->wk->c.bytes_read += n;
        emu_touch(w, a, n, !write ? 1u : VM_DIR(in->param) == 2 ? 3u : 2u, 1);
        return (uint8_t *)(uintptr_t)a;
    }
}

/* ------------------------------------------------------------ lane access */

static void load_lane(emu_wave *w, const emu_inst *in, unsigned l, const uint8_t *p, unsigned t)
{
    unsigned d = in->dst.reg;
    uint32_t *v = &w->v[d][l];
    switch (t) {
    case T_U8:
        *v = p[0];
        break;
    case T_I8:
        *v = (uint32_t)(int32_t)(int8_t)p[0];
        break;
    case T_U16: {
        uint16_t x;
        memcpy(&x, p, 2);
        *v = x;
        break;
    }
    case T_I16: {
        int16_t x;
        memcpy(&x, p, 2);
        *v = (uint32_t)(int32_t)x;
        break;
    }
    case T_D16_U8:
        *v = (*v & 0xffff0000u) | p[0];
        break;
    case T_D16_I8:
        *v = (*v & 0xffff0000u) | (uint16_t)(int16_t)(int8_t)p[0];
        break;
    case T_D16_B16: {
        uint16_t x;
        memcpy(&x, p, 2);
        *v = (*v & 0xffff0000u) | x;
        break;
    }
    case T_D16_HI_U8:
        *v = (*v & 0xffffu) | (uint32_t)p[0] << 16;
        break;
    case T_D16_HI_I8:
        *v = (*v & 0xffffu) | (uint32_t)(uint16_t)(int16_t)(int8_t)p[0] << 16;
        break;
    case T_D16_HI_B16: {
        uint16_t x;
        memcpy(&x, p, 2);
        *v = (*v & 0xffffu) | (uint32_t)x << 16;
        break;
    }
    default: {
        unsigned n = type_bytes(t) / 4;
        for (unsigned i = 0; i < n; i++)
            memcpy(&w->v[(d + i) & 255][l], p + 4 * i, 4);
        break;
    }
    }
}

static void store_lane(emu_wave *w, const emu_inst *in, unsigned l, uint8_t *p, unsigned t)
{
    unsigned s = in->data0.reg;
    uint32_t v = w->v[s][l];
    switch (t) {
    case T_B8:
        p[0] = (uint8_t)v;
        break;
    case T_B16: {
        uint16_t x = (uint16_t)v;
        memcpy(p, &x, 2);
        break;
    }
    case T_D16_HI_U8:
        p[0] = (uint8_t)(v >> 16);
        break;
    case T_D16_HI_B16: {
        uint16_t x = (uint16_t)(v >> 16);
        memcpy(p, &x, 2);
        break;
    }
    default: {
        unsigned n = type_bytes(t) / 4;
        for (unsigned i = 0; i < n; i++)
            memcpy(p + 4 * i, &w->v[(s + i) & 255][l], 4);
        break;
    }
    }
}

uint32_t emu_vm_atomic32(unsigned f, uint32_t *p, uint32_t x, uint32_t cmp, int shared)
{
    uint32_t old = shared ? __atomic_load_n(p, __ATOMIC_RELAXED) : *p;
    for (;;) {
        uint32_t nv;
        switch (f) {
        case A_SWAP:
            nv = x;
            break;
        case A_CMPSWAP:
        case A_FCMPSWAP:
            nv = old == cmp ? x : old;
            break;
        case A_ADD:
            nv = old + x;
            break;
        case A_SUB:
            nv = old - x;
            break;
        case A_RSUB:
            nv = x - old;
            break;
        case A_CSUB:
            nv = old >= x ? old - x : 0;
            break;
        case A_SMIN:
            nv = (int32_t)x < (int32_t)old ? x : old;
            break;
        case A_UMIN:
            nv = x < old ? x : old;
            break;
        case A_SMAX:
            nv = (int32_t)x > (int32_t)old ? x : old;
            break;
        case A_UMAX:
            nv = x > old ? x : old;
            break;
        case A_AND:
            nv = old & x;
            break;
        case A_OR:
            nv = old | x;
            break;
        case A_XOR:
            nv = old ^ x;
            break;
        case A_INC:
            nv = old >= x ? 0 : old + 1;
            break;
        case A_DEC:
            nv = (old == 0 || old > x) ? x : old - 1;
            break;
        case A_FADD:
            nv = u32_of(f32_of(old) + f32_of(x));
            break;
        case A_FMIN:
            nv = f32_min_hw(old, x, 1);
            break;
        default:
            nv = f32_max_hw(old, x, 1);
            break;
        }
        if (!shared) {
            *p = nv;
            return old;
        }
        if (__atomic_compare_exchange_n(p, &old, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
            return old;
    }
}

static uint64_t atomic64(unsigned f, uint64_t *p, uint64_t x, uint64_t cmp, int shared)
{
    uint64_t old = shared ? __atomic_load_n(p, __ATOMIC_RELAXED) : *p;
    for (;;) {
        uint64_t nv;
        switch (f) {
        case A_SWAP:
            nv = x;
            break;
        case A_CMPSWAP:
        case A_FCMPSWAP:
            nv = old == cmp ? x : old;
            break;
        case A_ADD:
            nv = old + x;
            break;
        case A_SUB:
            nv = old - x;
            break;
        case A_RSUB:
            nv = x - old;
            break;
        case A_SMIN:
            nv = (int64_t)x < (int64_t)old ? x : old;
            break;
        case A_UMIN:
            nv = x < old ? x : old;
            break;
        case A_SMAX:
            nv = (int64_t)x > (int64_t)old ? x : old;
            break;
        case A_UMAX:
            nv = x > old ? x : old;
            break;
        case A_AND:
            nv = old & x;
            break;
        case A_OR:
            nv = old | x;
            break;
        case A_XOR:
            nv = old ^ x;
            break;
        case A_INC:
            nv = old >= x ? 0 : old + 1;
            break;
        case A_DEC:
            nv = (old == 0 || old > x) ? x : old - 1;
            break;
        case A_FADD:
            nv = u64_of(f64_of(old) + f64_of(x));
            break;
        case A_FMIN:
            nv = f64_of(x) < f64_of(old) ? x : old;
            break;
        default:
            nv = f64_of(x) > f64_of(old) ? x : old;
            break;
        }
        if (!shared) {
            *p = nv;
            return old;
        }
        if (__atomic_compare_exchange_n(p, &old, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
            return old;
    }
}

/* Run one memory instruction given per-lane addresses (a[]), for any space. */
static void vm_exec(emu_wave *w, const emu_inst *in, const uint64_t *a, const uint8_t *valid)
{
    unsigned p = in->param, dir = VM_DIR(p), t = VM_TYPE(p);
    uint64_t exec = emu_exec(w);
    unsigned n = dir == 2 ? (VM_A64(p) ? 8 : 4) : type_bytes(t);
    uint8_t *ptr[EMU_MAX_LANES];
    int write = dir != 0;
    /* fast path: all active lanes inside one registered range (global space) */
    if (dir != 2 && VM_SPACE(p) <= 1 && !valid && exec) {
        uint64_t lo = UINT64_MAX, hi = 0;
        for (unsigned l = 0; l < w->nl; l++)
            if ((exec >> l) & 1) {
                lo = a[l] < lo ? a[l] : lo;
                hi = a[l] > hi ? a[l] : hi;
            }
        if (hi - lo < (1ull << 40) &&
            emu_mem_ok(w, lo, hi - lo + n, write ? RDX_EMU_WRITE : RDX_EMU_READ)) {
            unsigned cnt = emu_popcount(exec);
            w->wk->c.lane_ops += cnt;
            w->wk->c.vector_insts++;
            emu_cycle_vm(w, dir == 1 ? EMU_TM(w)->LAT_VMEM_STORE : EMU_TM(w)->LAT_VMEM_LOAD);
            if (write)
                w->wk->c.bytes_written += (uint64_t)cnt * n;
            else
                w->wk->c.bytes_read += (uint64_t)cnt * n;
            emu_touch_lanes(w, a, exec, n, lo, hi, write ? 2u : 1u);
            if (t == T_B32) {
                uint32_t *v = w->v[dir == 0 ? in->dst.reg : in->data0.reg];
                if (dir == 0) {
                    for (unsigned l = 0; l < w->nl; l++)
                        if ((exec >> l) & 1)
                            memcpy(&v[l], (const void *)(uintptr_t)a[l], 4);
                } else {
                    for (unsigned l = 0; l < w->nl; l++)
                        if ((exec >> l) & 1)
                            memcpy((void *)(uintptr_t)a[l], &v[l], 4);
                }
            } else {
                for (unsigned l = 0; l < w->nl; l++)
                    if ((exec >> l) & 1) {
                        if (dir == 0)
                            load_lane(w, in, l, (const uint8_t *)(uintptr_t)a[l], t);
                        else
                            store_lane(w, in, l, (uint8_t *)(uintptr_t)a[l], t);
                    }
            }
            return;
        }
    }
    emu_touch_begin(w);
    for (unsigned l = 0; l < w->nl; l++) {
        ptr[l] = NULL;
        if (!((exec >> l) & 1) || (valid && !valid[l]))
            continue;
        if (dir == 2 && (a[l] & (n - 1))) {
            emu_fault(w, in, RDX_EMU_FAULT_VM, a[l], 1, l, "misaligned atomic");
            return;
        }
        ptr[l] = lane_ptr(w, in, l, a[l], n, write);
        if (!ptr[l])
            return;
    }
    w->wk->c.lane_ops += (uint64_t)emu_popcount(exec);
    w->wk->c.vector_insts++;
    emu_cycle_vm(w, dir == 1 ? EMU_TM(w)->LAT_VMEM_STORE : EMU_TM(w)->LAT_VMEM_LOAD);
    if (dir == 0) {
        for (unsigned l = 0; l < w->nl; l++) {
            if (ptr[l])
                load_lane(w, in, l, ptr[l], t);
            else if (((exec >> l) & 1) && valid && !valid[l]) { /* buffer OOB: reads 0 */
                static const uint8_t zero[16];
                load_lane(w, in, l, zero, t);
            }
        }
    } else if (dir == 1) {
        for (unsigned l = 0; l < w->nl; l++)
            if (ptr[l])
                store_lane(w, in, l, ptr[l], t);
    } else {
        unsigned f = VM_ATOMIC(p);
        int ret = in->glc != 0;
        unsigned dr = in->dst.reg, sr = in->data0.reg;
        for (unsigned l = 0; l < w->nl; l++) {
            if (!ptr[l])
                continue;
            int shared = seg_of(in, a[l]) == SEG_GLOBAL;
            if (VM_A64(p)) {
                uint64_t x = w->v[sr][l] | (uint64_t)w->v[(sr + 1) & 255][l] << 32;
                uint64_t c = 0;
                if (f == A_CMPSWAP)
                    c = w->v[(sr + 2) & 255][l] | (uint64_t)w->v[(sr + 3) & 255][l] << 32;
                uint64_t *q = (uint64_t *)(void *)ptr[l];
                uint64_t old = atomic64(f, q, x, c, shared);
                if (ret) {
                    w->v[dr][l] = (uint32_t)old;
                    w->v[(dr + 1) & 255][l] = (uint32_t)(old >> 32);
                }
            } else {
                uint32_t x = w->v[sr][l], c = 0;
                if (f == A_CMPSWAP || f == A_FCMPSWAP)
                    c = w->v[(sr + 1) & 255][l];
                uint32_t *q = (uint32_t *)(void *)ptr[l];
                uint32_t old = emu_vm_atomic32(f, q, x, c, shared);
                if (ret)
                    w->v[dr][l] = old;
            }
        }
    }
}

/* ------------------------------------------------ full-EXEC fast path */

typedef uint32_t vm_v4u __attribute__((vector_size(16)));

/* Whether v[l] == v[0] + l * d for all nl lanes, d the signed difference of lanes 1 and 0,
   with no 32-bit wrap between lane 0 and lane nl - 1; *sd = d. */
static inline __attribute__((always_inline)) bool affine32(const uint32_t *v, unsigned nl,
                                                           int64_t *sd)
{
    uint32_t v0 = v[0], d = v[1] - v[0];
    /* two chains of 8 lanes each: lanes l and l + 4 against their expected values */
    vm_v4u e = { v0, v0 + d, v0 + 2 * d, v0 + 3 * d }, f = e + 4 * d, bad = { 0, 0, 0, 0 };
#pragma GCC unroll 8
    for (unsigned l = 0; l < nl; l += 8) {
        vm_v4u x, y;
        memcpy(&x, v + l, sizeof x);
        memcpy(&y, v + l + 4, sizeof y);
        bad |= (x ^ e) | (y ^ f);
        e += 8 * d;
        f += 8 * d;
    }
    vm_v4u b2 = bad | __builtin_shufflevector(bad, bad, 2, 3, 0, 1);
    if (b2[0] | b2[1])
        return false;
    int64_t s = (int32_t)d, last = (int64_t)v0 + s * (int64_t)(nl - 1);
    if (last < 0 || last > (int64_t)UINT32_MAX)
        return false;
    *sd = s;
    return true;
}

/*
 * One FLAT/GLOBAL load or store with every lane active whose lane addresses are affine
 * (lane l at a0 + l * stride: contiguous, uniform or strided) and lie in one registered
 * range: one bounds check for the wave, the counters and line accounting of vm_exec's
 * range fast path computed from the two end lanes, and the data copied without per-lane
 * tests.  Returns false, having changed nothing, when the instruction is not one of these
 * (vm_exec then runs it, and faults where it did).
 */
static inline __attribute__((always_inline)) bool vm_fast_n(emu_wave *w, const emu_inst *in,
                                                            const unsigned nl)
{
    unsigned p = in->param, dir = VM_DIR(p), t = VM_TYPE(p);
    if (dir == 2 || VM_SPACE(p) > 1 || emu_exec(w) != (nl == 64 ? ~0ull : 0xffffffffull))
        return false;
    uint64_t off = (uint64_t)(int64_t)in->offset, a0;
    int64_t sd;
    const uint32_t *lo32 = w->v[in->addr.reg];
    if (VM_SPACE(p) == 0 && in->saddr.kind == EMU_K_SGPR && in->saddr.reg != EMU_NULL) {
        if (!affine32(lo32, nl, &sd))
            return false;
        a0 = emu_s64(w, &in->saddr) + lo32[0] + off;
    } else {
        const uint32_t *hi32 = w->v[(in->addr.reg + 1) & 255];
        if (!affine32(hi32, nl, &sd) || sd != 0 || !affine32(lo32, nl, &sd))
            return false;
        a0 = (lo32[0] | (uint64_t)hi32[0] << 32) + off;
    }
    uint64_t al = a0 + (uint64_t)sd * (nl - 1);
    if (sd >= 0 ? al < a0 : al > a0) /* wraps at 64 bits */
        return false;
    uint64_t lo = sd >= 0 ? a0 : al, hi = sd >= 0 ? al : a0;
    unsigned n = type_bytes(t);
    int write = dir != 0;
    if (!emu_mem_ok(w, lo, hi - lo + n, write ? RDX_EMU_WRITE : RDX_EMU_READ))
        return false;
    emu_worker *wk = w->wk;
    wk->c.lane_ops += nl;
    wk->c.vector_insts++;
    emu_cycle_vm(w, dir == 1 ? EMU_TM(w)->LAT_VMEM_STORE : EMU_TM(w)->LAT_VMEM_LOAD);
    if (write)
        wk->c.bytes_written += (uint64_t)nl * n;
    else
        wk->c.bytes_read += (uint64_t)nl * n;
    uint64_t lb = lo / EMU_DEV_LINE, le = (hi + n - 1) / EMU_DEV_LINE;
    unsigned rw = write ? 2u : 1u;
    if (le - lb < 64 && (sd < 0 ? -sd : sd) <= (int64_t)EMU_DEV_LINE) {
        /* lane starts at most a line apart: every line from lo's to (hi + n - 1)'s is
           touched, which is what emu_touch_lanes counts */
        wk->c.l0_lines += le - lb + 1;
        for (uint64_t l = lb; l <= le; l++) {
            emu_lines_mark(&wk->lines, l, rw);
            if (wk->prof)
                emu_prof_line(wk->prof, l, rw);
        }
    } else {
        uint64_t a[EMU_MAX_LANES];
        for (unsigned l = 0; l < nl; l++)
            a[l] = a0 + (uint64_t)sd * l;
        emu_touch_lanes(w, a, ~0ull >> (64 - nl), n, lo, hi, rw);
    }
    uint8_t *base = (uint8_t *)(uintptr_t)a0;
    if (dir == 0) {
        unsigned d = in->dst.reg;
        if (t == T_B32 && sd == 4) {
            memcpy(w->v[d], base, 4 * nl);
        } else if (t == T_B32 && sd == 0) {
            uint32_t x;
            memcpy(&x, base, 4);
            vm_v4u xv = { x, x, x, x };
#pragma GCC unroll 16
            for (unsigned l = 0; l < nl; l += 4)
                memcpy(&w->v[d][l], &xv, sizeof xv);
        } else if (t >= T_B32 && t <= T_B128) {
            for (unsigned i = 0; i < n / 4; i++) {
                uint32_t *v = w->v[(d + i) & 255];
                const uint8_t *q = base + 4 * i;
                for (unsigned l = 0; l < nl; l++)
                    memcpy(&v[l], q + sd * (int64_t)l, 4);
            }
        } else {
            for (unsigned l = 0; l < nl; l++)
                load_lane(w, in, l, base + sd * (int64_t)l, t);
        }
    } else {
        unsigned s = in->data0.reg;
        if (t == T_B32 && sd == 4) {
            memcpy(base, w->v[s], 4 * nl);
        } else if (t >= T_B32 && t <= T_B128 && (sd >= (int64_t)n || sd <= -(int64_t)n)) {
            for (unsigned i = 0; i < n / 4; i++) { /* lanes do not overlap: any order */
                const uint32_t *v = w->v[(s + i) & 255];
                uint8_t *q = base + 4 * i;
                for (unsigned l = 0; l < nl; l++)
                    memcpy(q + sd * (int64_t)l, &v[l], 4);
            }
        } else {
            for (unsigned l = 0; l < nl; l++) /* ascending: the last lane's bytes win */
                store_lane(w, in, l, base + sd * (int64_t)l, t);
        }
    }
    return true;
}

/* vm_fast_n for the wave size, a constant in each copy (its lane loops unrolled) */
static bool vm_fast(emu_wave *w, const emu_inst *in)
{
    return w->nl == 32 ? vm_fast_n(w, in, 32) : vm_fast_n(w, in, 64);
}

void emu_vm_flat(emu_wave *w, const emu_inst *in)
{
    if (vm_fast(w, in))
        return;
    uint64_t a[EMU_MAX_LANES];
    flat_addrs(w, in, a);
    vm_exec(w, in, a, NULL);
}

/* ------------------------------------------------------------- buffers */

/*
 * MUBUF/MTBUF: V# = s[srsrc..+3]: base [47:0], stride [61:48], num_records
 * dword 2, dword 3 swizzle/format bits (add_tid_enable bit 23).  Address =
 * base + soffset + offset + (idxen ? index*stride : 0) + (offen ? voffset : 0).
 * Out-of-range lanes read 0 and drop writes, like the hardware.
 */
void emu_vm_buffer(emu_wave *w, const emu_inst *in)
{
    unsigned r = in->srsrc.reg;
    uint64_t base = w->s[r] | (uint64_t)(w->s[r + 1] & 0xffff) << 32;
    uint32_t stride = (w->s[r + 1] >> 16) & 0x3fff;
    uint32_t nrec = w->s[r + 2];
    uint32_t soff = in->soffset.kind != EMU_K_NONE ? emu_s32(w, &in->soffset) : 0;
    unsigned p = in->param;
    unsigned n = VM_DIR(p) == 2 ? (VM_A64(p) ? 8 : 4) : type_bytes(VM_TYPE(p));
    uint64_t a[EMU_MAX_LANES];
    uint8_t valid[EMU_MAX_LANES];
    unsigned vr = in->addr.reg;
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
        if (stride == 0) {
            valid[l] = off + n <= nrec;
        } else {
            valid[l] = idx < nrec;
        }
        a[l] = base + soff + off + (uint64_t)idx * stride;
    }
    vm_exec(w, in, a, valid);
}

int emu_vm_space_of(const char *prefix)
{
    if (!strcmp(prefix, "global"))
        return 0;
    if (!strcmp(prefix, "flat"))
        return 1;
    if (!strcmp(prefix, "scratch"))
        return 2;
    if (!strcmp(prefix, "buffer"))
        return 3;
    return -1;
}

/*
 * Family parser: global_/flat_/scratch_/buffer_ load/store/atomic ops.
 * Returns 1 and fills *oi when `name` is one.
 */
int emu_vm_family(const char *name, emu_opinfo *oi)
{
    char pre[16];
    const char *u = strchr(name, '_');
    if (!u || (size_t)(u - name) >= sizeof pre)
        return 0;
    memcpy(pre, name, (size_t)(u - name));
    pre[u - name] = 0;
    int sp = emu_vm_space_of(pre);
    if (sp < 0)
        return 0;
    const char *rest = u + 1;
    unsigned t = 0, dir, a = 0, a64 = 0;
    if (!strncmp(rest, "load_", 5)) {
        dir = 0;
        if (!emu_vm_parse_type(rest + 5, &t))
            return 0;
        if (t == T_B8 || t == T_B16)
            return 0;
    } else if (!strncmp(rest, "store_", 6)) {
        dir = 1;
        const char *ty = rest + 6;
        if (!strcmp(ty, "b8"))
            t = T_B8;
        else if (!strcmp(ty, "b16"))
            t = T_B16;
        else if (!strcmp(ty, "d16_hi_b8"))
            t = T_D16_HI_U8;
        else if (!strcmp(ty, "d16_hi_b16"))
            t = T_D16_HI_B16;
        else if (!emu_vm_parse_type(ty, &t) || t < T_B32 || t > T_B128)
            return 0;
    } else if (!strncmp(rest, "atomic_", 7)) {
        dir = 2;
        if (!emu_vm_parse_atomic(rest + 7, &a, &a64))
            return 0;
        if (!strcmp(rest + 7, "csub_u32"))
            a = A_CSUB;
    } else {
        return 0;
    }
    oi->param = (unsigned)sp | dir << 2 | t << 4 | a << 8 | a64 << 13;
    oi->fn = sp == 3 ? emu_vm_buffer : emu_vm_flat;
    oi->cls = RDX_EMU_CLASS_VMEM;
    return 1;
}

/* buffer/global cache invalidations: no caches to model */
void emu_vm_nop(emu_wave *w, const emu_inst *in)
{
    (void)w;
    (void)in;
}
