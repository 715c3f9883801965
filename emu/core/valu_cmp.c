/*
 * emu/core/valu_cmp.c — VOPC compares (v_cmp_*, v_cmpx_*, v_cmp_class_*):
 * one handler for every type and condition, parsed from the op name.
 * v_cmp writes a lane mask to VCC (e32) or an SGPR (e64), 0 for inactive
 * lanes; v_cmpx writes EXEC.
 */
#include <stdlib.h>
#include <string.h>

#include "emu/core/valu.h"

enum cmp_type { CT_F16, CT_F32, CT_F64, CT_I16, CT_U16, CT_I32, CT_U32, CT_I64, CT_U64 };
/* float conditions in hardware order: f lt eq le gt lg ge o u nge nlg ngt nle neq nlt t */
enum {
    C_F,
    C_LT,
    C_EQ,
    C_LE,
    C_GT,
    C_LG,
    C_GE,
    C_O,
    C_U,
    C_NGE,
    C_NLG,
    C_NGT,
    C_NLE,
    C_NEQ,
    C_NLT,
    C_T,
    C_NE,
    C_CLASS
};

#define CMP_COND(p) ((p) & 31)
#define CMP_TYPE(p) (((p) >> 5) & 15)
#define CMP_X       (1u << 9)

static inline int fcmp(unsigned c, double a, double b)
{
    int un = a != a || b != b;
    switch (c) {
    case C_F:
        return 0;
    case C_LT:
        return a < b;
    case C_EQ:
        return a == b;
    case C_LE:
        return a <= b;
    case C_GT:
        return a > b;
    case C_LG:
        return a < b || a > b;
    case C_GE:
        return a >= b;
    case C_O:
        return !un;
    case C_U:
        return un;
    case C_NGE:
        return !(a >= b);
    case C_NLG:
        return !(a < b || a > b);
    case C_NGT:
        return !(a > b);
    case C_NLE:
        return !(a <= b);
    case C_NEQ:
        return !(a == b);
    case C_NLT:
        return !(a < b);
    default:
        return 1;
    }
}

#define ICMP(c, a, b)           \
    ((c) == C_F    ? 0          \
     : (c) == C_LT ? (a) < (b)  \
     : (c) == C_EQ ? (a) == (b) \
     : (c) == C_LE ? (a) <= (b) \
     : (c) == C_GT ? (a) > (b)  \
     : (c) == C_NE ? (a) != (b) \
     : (c) == C_GE ? (a) >= (b) \
                   : 1)

static int fclass_bit(uint32_t mask, int snan, int qnan, int inf, int norm, int zero, int neg)
{
    int bit;
    if (snan)
        bit = 0;
    else if (qnan)
        bit = 1;
    else if (inf)
        bit = neg ? 2 : 9;
    else if (norm == 1)
        bit = neg ? 3 : 8;
    else if (!zero)
        bit = neg ? 4 : 7;
    else
        bit = neg ? 5 : 6;
    return (mask >> bit) & 1;
}

void emu_v_cmp(emu_wave *w, const emu_inst *in)
{
    unsigned p = in->param, c = CMP_COND(p), t = CMP_TYPE(p);
    uint64_t m = 0;
    if (t == CT_F64 || t == CT_I64 || t == CT_U64) {
        uint64_t a[EMU_MAX_LANES], b[EMU_MAX_LANES];
        emu_v64(w, &in->src[0], a);
        if (c == C_CLASS) {
            uint32_t tb[EMU_MAX_LANES];
            const uint32_t *B = vsrc(w, in, 1, tb);
            LANES
            {
                uint64_t u = a[l];
                if (in->abs & 1)
                    u &= ~(1ull << 63);
                if (in->neg & 1)
                    u ^= 1ull << 63;
                uint64_t ex = (u >> 52) & 0x7ff, mt = u & 0xfffffffffffffull;
                int nan = ex == 0x7ff && mt, q = nan && (mt >> 51);
                m |= (uint64_t)fclass_bit(B[l], nan && !q, q, ex == 0x7ff && !mt, ex != 0,
                                          ex == 0 && mt == 0, (int)(u >> 63))
                     << l;
            }
        } else {
            emu_v64(w, &in->src[1], b);
            if (t == CT_F64) {
                double x[EMU_MAX_LANES], y[EMU_MAX_LANES];
                vsrcd(w, in, 0, x);
                vsrcd(w, in, 1, y);
                LANES
                m |= (uint64_t)fcmp(c, x[l], y[l]) << l;
            } else if (t == CT_I64) {
                LANES
                m |= (uint64_t)ICMP(c, (int64_t)a[l], (int64_t)b[l]) << l;
            } else {
                LANES
                m |= (uint64_t)ICMP(c, a[l], b[l]) << l;
            }
        }
    } else if (t == CT_F32 || t == CT_F16) {
        float x[EMU_MAX_LANES], y[EMU_MAX_LANES];
        if (c == C_CLASS) {
            uint32_t ta[EMU_MAX_LANES], tb[EMU_MAX_LANES];
            const uint32_t *A = vsrc(w, in, 0, ta), *B = vsrc(w, in, 1, tb);
            LANES
            {
                uint32_t u = A[l];
                if (t == CT_F32) {
                    if (in->abs & 1)
                        u &= 0x7fffffffu;
                    if (in->neg & 1)
                        u ^= 0x80000000u;
                    uint32_t ex = (u >> 23) & 255, mt = u & 0x7fffff;
                    int nan = ex == 255 && mt, q = nan && (mt >> 22);
                    m |= (uint64_t)fclass_bit(B[l], nan && !q, q, ex == 255 && !mt, ex != 0,
                                              ex == 0 && mt == 0, (int)(u >> 31))
                         << l;
                } else {
                    u &= 0xffff;
                    if (in->abs & 1)
                        u &= 0x7fff;
                    if (in->neg & 1)
                        u ^= 0x8000;
                    uint32_t ex = (u >> 10) & 31, mt = u & 0x3ff;
                    int nan = ex == 31 && mt, q = nan && (mt >> 9);
                    m |= (uint64_t)fclass_bit(B[l], nan && !q, q, ex == 31 && !mt, ex != 0,
                                              ex == 0 && mt == 0, (int)((u >> 15) & 1))
                         << l;
                }
            }
        } else {
            if (t == CT_F32) {
                vsrcf(w, in, 0, x);
                vsrcf(w, in, 1, y);
            } else {
                vsrch(w, in, 0, x);
                vsrch(w, in, 1, y);
            }
            LANES
            m |= (uint64_t)fcmp(c, x[l], y[l]) << l;
        }
    } else {
        uint32_t ta[EMU_MAX_LANES], tb[EMU_MAX_LANES];
        const uint32_t *A = vsrc(w, in, 0, ta), *B = vsrc(w, in, 1, tb);
        switch (t) {
        case CT_I32:
            LANES
            m |= (uint64_t)ICMP(c, (int32_t)A[l], (int32_t)B[l]) << l;
            break;
        case CT_U32:
            LANES
            m |= (uint64_t)ICMP(c, A[l], B[l]) << l;
            break;
        case CT_I16:
            LANES
            m |= (uint64_t)ICMP(c, (int16_t)A[l], (int16_t)B[l]) << l;
            break;
        default:
            LANES
            m |= (uint64_t)ICMP(c, (uint16_t)A[l], (uint16_t)B[l]) << l;
            break;
        }
    }
    m &= emu_wm_bits(w);
    if (p & CMP_X) {
        emu_set_exec(w, m);
        return;
    }
    emu_swrite_mask(w, &in->sdst, m);
}

/* Family parser: v_cmp[x]_<cond>_<type> and v_cmp[x]_class_<type>. */
int emu_cmp_family(const char *name, emu_opinfo *oi)
{
    static const char *conds[] = { "f",   "lt",  "eq",  "le",  "gt",  "lg",  "ge", "o",  "u",
                                   "nge", "nlg", "ngt", "nle", "neq", "nlt", "t",  "ne", "class" };
    static const char *types[] = { "f16", "f32", "f64", "i16", "u16", "i32", "u32", "i64", "u64" };
    const char *s;
    unsigned p = 0;
    if (!strncmp(name, "v_cmpx_", 7)) {
        s = name + 7;
        p |= CMP_X;
    } else if (!strncmp(name, "v_cmp_", 6)) {
        s = name + 6;
    } else {
        return 0;
    }
    const char *u = strrchr(s, '_');
    if (!u)
        return 0;
    size_t cl = (size_t)(u - s);
    unsigned c = 99, t = 99;
    for (unsigned i = 0; i < sizeof conds / sizeof conds[0]; i++)
        if (strlen(conds[i]) == cl && !strncmp(s, conds[i], cl))
            c = i;
    for (unsigned i = 0; i < sizeof types / sizeof types[0]; i++)
        if (!strcmp(u + 1, types[i]))
            t = i;
    if (c == 99 || t == 99)
        return 0;
    /* integer "lg" is spelled ne; integer ge/le etc. share codes */
    oi->param = p | c | t << 5;
    oi->fn = emu_v_cmp;
    oi->cls = RDX_EMU_CLASS_VALU;
    return 1;
}
