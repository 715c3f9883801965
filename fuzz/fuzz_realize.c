/*
 * fuzz/fuzz_realize.c — differential fuzzer of the code generator: random
 * tensor programs (rdx/tensor.h) compiled for gfx1100 and run on the emulated
 * GPU, every output compared with the reference interpreter.
 *
 * One seed makes one case: 1..3 random inputs (shapes of 1, primes, odd
 * sizes, powers of two, large; every dtype: bool, int8..uint64, float16,
 * bfloat16, float32, float64; integers small or full-range), then 1..12
 * random ops picked from the whole tensor API (broadcast elementwise
 * arithmetic, integer division and modulo by constants and tensors, shifts,
 * bitwise ops, comparisons + where, casts, transcendentals, movement ops,
 * reductions, softmax/layernorm/argmax/cumsum, matmul (float16 ones WMMA
 * sized), conv2d and pooling, gather/index/one_hot/cat/stack, rand), and
 * 1..3 of the results as outputs.  A quarter of the cases have a symbolic
 * size (DEFINE_VAR) bound to three values.  Each case runs in one mode:
 *
 *   raw / heur / beam  rdx_tensor_realize_on through the whole driver path
 *                      (emulated device): no OptOps, the heuristics, BEAM 2;
 *   opts / hdirect     schedule + random valid OptOp sequences (SPLIT to every
 *                      axis type, PADTO, SWAP, NOLOCALS, TC) or the heuristics,
 *                      compiled and run on the wave emulator with every buffer
 *                      registered separately (inputs read-only, outputs with a
 *                      canary tail), so an out-of-bounds access faults.
 *
 * Integers must match bit for bit, floats within a relative tolerance per
 * dtype (max(|want|, 1) scaled, as rdx_realize_compare), else within the
 * error bound of legal summation orders measured on a float64 shadow of the
 * graph (see "the float64 shadow" below, docs/realize.md).  A compile error
 * with RDX_ERR_UNSUPPORTED is a clean "cannot lower" (tallied and printed);
 * any other error, a fault, a hang, a mismatch or a crash is a finding: the
 * case is reduced (shortest op prefix and single outputs that still fail)
 * and written to OUT/seed-<S>/ as graph.uop (+ in<slot>.bin inputs and the
 * `rdx realize` command line in its header).
 *
 * Stand-alone (long runs, reproducible):
 *   make fuzz-realize        (build/fuzz-realize, against build/librdx.a)
 *   nice -n 10 build/fuzz-realize [--seed S] [--count N] [--time SEC] [--case-time SEC]
 *                                 [--out DIR] [--mode raw|heur|beam|opts|hdirect]
 *                                 [--dtype D] [-v]
 *   build/fuzz-realize --seed S --count 1 --case-time 0 -v   (replay one case in-process)
 * --time is a deadline, --case-time (default 60 s) bounds one case: the cases run in a
 * worker process the parent kills (see "the supervisor" below); a case over its time is
 * SLOW, not a finding.  Exit status 0, 1 with findings, 2 on bad arguments.
 * As a libFuzzer target (`make fuzz`, build/fuzz/fuzz_realize): the input
 * bytes are hashed into the seed; a finding aborts.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rdx/codegen.h>
#include <rdx/codegen_front.h>
#include <rdx/emu.h>
#include <rdx/realize.h>
#include <rdx/runtime.h>
#include <rdx/tensor.h>

/* ------------------------------------------------------------ random */

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static uint64_t rn(uint64_t *s, uint64_t n)
{
    return n ? mix(s) % n : 0;
}

/* ------------------------------------------------------------ the case */

enum { M_RAW, M_HEUR, M_BEAM, M_OPTS, M_HDIRECT, M_COUNT };
static const char *const mode_names[M_COUNT] = { "raw", "heur", "beam", "opts", "hdirect" };

#define POOL 96

typedef struct fz_case {
    uint64_t seed;
    rdx_graph *g;
    int mode;
    const rdx_tensor *pool[POOL];
    unsigned char inexact[POOL]; /* float values that may differ slightly between the two */
    int npool;
    int nops, maxops;
    const rdx_tensor *roots[3];
    unsigned char rootcls[3]; /* the roots' inexact classes */
    size_t nroots;
    int only_root; /* reduction: keep only this root (-1: all) */
    /* symbolic size */
    const rdx_uop *var;
    const rdx_tensor *symin;
    int64_t symdims[3]; /* -1 at the symbolic axis */
    uint32_t symnd;
    int64_t varvals[3];
    size_t nvals;
    char log[2048];
    size_t loglen;
} fz_case;

static void logf_(fz_case *c, const char *fmt, ...)
{
    if (c->loglen >= sizeof c->log - 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(c->log + c->loglen, sizeof c->log - c->loglen, fmt, ap);
    va_end(ap);
    if (n > 0)
        c->loglen += (size_t)n;
    if (c->loglen > sizeof c->log - 1)
        c->loglen = sizeof c->log - 1;
}

static const rdx_scalar all_dts[] = { RDX_BOOL,   RDX_INT8,    RDX_UINT8,    RDX_INT16,
                                      RDX_UINT16, RDX_INT32,   RDX_UINT32,   RDX_INT64,
                                      RDX_UINT64, RDX_FLOAT16, RDX_BFLOAT16, RDX_FLOAT32,
                                      RDX_FLOAT64 };
#define NDTS (sizeof all_dts / sizeof *all_dts)

static rdx_dtype D(rdx_scalar s)
{
    return rdx_dtype_of(s);
}
static int is_f(const rdx_tensor *t)
{
    return rdx_dtype_is_float(t->dtype);
}
static int is_bool(const rdx_tensor *t)
{
    return t->dtype.scalar == RDX_BOOL;
}
static int is_i(const rdx_tensor *t)
{
    return !is_f(t) && !is_bool(t);
}
static int bits_of(const rdx_tensor *t)
{
    return 8 * (int)rdx_dtype_itemsize(t->dtype);
}

/* Random bytes of n elements of dt (full: integers over their whole range). */
static void *rand_data(uint64_t *s, rdx_dtype dt, int64_t n, int full)
{
    size_t is = rdx_dtype_itemsize(dt);
    uint8_t *p = calloc((size_t)n + 1, is);
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = mix(s);
        double f = (double)(int64_t)(r % 1024) / 256.0 - 2.0;
        int64_t v = full ? (int64_t)r : (int64_t)(r % 19) - 9;
        uint8_t *q = p + (size_t)i * is;
        switch (dt.scalar) {
        case RDX_BOOL:
            *q = r & 1;
            break;
        case RDX_FLOAT16: {
            uint16_t h = rdx_f64_to_f16(f);
            memcpy(q, &h, 2);
            break;
        }
        case RDX_BFLOAT16: {
            uint16_t h = rdx_f64_to_bf16(f);
            memcpy(q, &h, 2);
            break;
        }
        case RDX_FLOAT32: {
            float x = (float)f;
            memcpy(q, &x, 4);
            break;
        }
        case RDX_FLOAT64:
            memcpy(q, &f, 8);
            break;
        default:
            if (rdx_dtype_is_unsigned(dt) && !full)
                v = (int64_t)(r % 23);
            memcpy(q, &v, is); /* little-endian: the low bytes */
            break;
        }
    }
    return p;
}

static const rdx_tensor *input(fz_case *c, uint64_t *s, rdx_dtype dt, uint32_t nd,
                               const int64_t *dims)
{
    int64_t n = 1;
    for (uint32_t k = 0; k < nd; k++)
        n *= dims[k];
    int full = rdx_dtype_is_int(dt) && rn(s, 4) == 0;
    void *p = rand_data(s, dt, n, full);
    const rdx_tensor *t = rdx_tensor_from_data(c->g, dt, nd, dims, p);
    free(p);
    return t;
}

static const int64_t sizes[] = { 1, 2, 3, 4, 5, 7, 8, 13, 16, 17, 31, 32, 33, 64, 97, 128, 257 };
#define NSIZES (sizeof sizes / sizeof *sizes)

static int64_t rand_size(uint64_t *s)
{
    if (rn(s, 40) == 0)
        return rn(s, 2) ? 1000 : 4099;
    return sizes[rn(s, NSIZES)];
}

static int64_t numel_of(const rdx_tensor *t)
{
    return rdx_tensor_numel(t);
}

/* A fresh input broadcastable against t (some axes 1, maybe fewer leading axes). */
static const rdx_tensor *partner(fz_case *c, uint64_t *s, const rdx_tensor *t, rdx_dtype dt)
{
    uint32_t nd = rdx_tensor_ndim(t);
    if (nd == 0 || rn(s, 8) == 0)
        return rdx_tensor_const(c->g, dt, rdx_dtype_is_float(dt) ? 0.75 : 3);
    /* a pool tensor of the same shape and dtype */
    if (rn(s, 3) == 0) {
        for (int k = c->npool - 1; k >= 0; k--) {
            const rdx_tensor *p = c->pool[k];
            if (p == t || p->dtype.scalar != dt.scalar || rdx_tensor_ndim(p) != nd)
                continue;
            int same = 1;
            for (uint32_t d = 0; d < nd; d++)
                same &= rdx_tensor_dim(p, (int)d) == rdx_tensor_dim(t, (int)d) &&
                        rdx_tensor_dim(t, (int)d) >= 0;
            if (same)
                return p;
        }
    }
    uint32_t drop = (uint32_t)rn(s, nd);
    int64_t d[8];
    for (uint32_t k = drop; k < nd; k++) {
        int64_t v = rdx_tensor_dim(t, (int)k);
        d[k - drop] = v < 0 || rn(s, 3) == 0 ? 1 : v;
    }
    return input(c, s, dt, nd - drop, d);
}

static const rdx_tensor *cnst(fz_case *c, const rdx_tensor *t, double v)
{
    return rdx_tensor_const(c->g, t->dtype, v);
}

/* A strictly positive float tensor from t: |t| + 0.5. */
static const rdx_tensor *pos(fz_case *c, const rdx_tensor *t)
{
    return rdx_tensor_adds(c->g, rdx_tensor_abs(c->g, t), 0.5);
}

/* t as a value range safe to cast to integer dtype dt. */
static const rdx_tensor *safe_for_int(fz_case *c, const rdx_tensor *t, rdx_dtype dt)
{
    if (!is_f(t))
        return t;
    if (rdx_dtype_is_unsigned(dt) || dt.scalar == RDX_BOOL)
        return rdx_tensor_clamp(c->g, t, 0, 100);
    return rdx_tensor_clamp(c->g, t, -100, 100);
}

static int numel_ok(const rdx_tensor *t)
{
    int64_t n = numel_of(t);
    return n < 0 || n <= 300000;
}

/* One random op on t; NULL when it does not apply (the graph error is cleared). */
static const rdx_tensor *op(fz_case *c, uint64_t *s, const rdx_tensor *t, int ti)
{
    rdx_graph *g = c->g;
    uint32_t nd = rdx_tensor_ndim(t);
    int64_t d[8] = { 0 };
    int sym = 0;
    for (uint32_t k = 0; k < nd; k++) {
        d[k] = rdx_tensor_dim(t, (int)k);
        sym |= d[k] < 0;
    }
    rdx_dtype dt = t->dtype;
    int ax = nd ? (int)rn(s, nd) : 0;
    unsigned kind = (unsigned)rn(s, 31);
    const rdx_tensor *r = NULL, *p;
    int inexact = c->inexact[ti];
    switch (kind) {
    case 0:
    case 1:
    case 2: { /* broadcast arithmetic */
        static const char *const nm[] = { "add", "sub", "mul", "maximum", "minimum", "mulacc" };
        unsigned w = (unsigned)rn(s, 6);
        p = partner(c, s, t, dt);
        logf_(c, "%s(t%d) ", nm[w], ti);
        if (w == 0)
            r = rdx_tensor_add(g, t, p);
        else if (w == 1)
            r = rdx_tensor_sub(g, t, p);
        else if (w == 2)
            r = rdx_tensor_mul(g, t, p);
        else if (w == 3)
            r = rdx_tensor_maximum(g, t, p);
        else if (w == 4)
            r = rdx_tensor_minimum(g, t, p);
        else
            r = rdx_tensor_mulacc(g, t, p, partner(c, s, t, dt));
        inexact |= is_f(t) && (dt.scalar == RDX_FLOAT16 || dt.scalar == RDX_BFLOAT16 || w >= 2);
        break;
    }
    case 3: /* division */
        if (is_f(t)) {
            logf_(c, "div(t%d) ", ti);
            r = rdx_tensor_div(g, t, pos(c, partner(c, s, t, dt)));
            inexact = 1;
        } else if (is_i(t)) {
            static const int64_t sc[] = {
                1, 2, 3, 5, 6, 7, 10, 16, 100, 255, 641, 1000003, -3, -7
            };
            int64_t v = sc[rn(s, rdx_dtype_is_unsigned(dt) ? 12 : 14)];
            if (bits_of(t) <= 8 && (v > 100 || v < -100))
                v = 7;
            if (bits_of(t) == 16 && v > 1000)
                v = 641;
            int m = (int)rn(s, 2);
            logf_(c, "%s(t%d, %lld) ", m ? "mod" : "idiv", ti, (long long)v);
            r = m ? rdx_tensor_mod(g, t, cnst(c, t, (double)v))
                  : rdx_tensor_idiv(g, t, cnst(c, t, (double)v));
        }
        break;
    case 4: /* integer division by a tensor in [1, 8] */
        if (is_i(t)) {
            p = rdx_tensor_adds(g, rdx_tensor_and(g, partner(c, s, t, dt), cnst(c, t, 7)), 1);
            int m = (int)rn(s, 2);
            logf_(c, "%s(t%d, tensor) ", m ? "mod" : "idiv", ti);
            r = m ? rdx_tensor_mod(g, t, p) : rdx_tensor_idiv(g, t, p);
        }
        break;
    case 5: /* shifts */
        if (is_i(t)) {
            int sh = (int)rn(s, (uint64_t)bits_of(t));
            int left = (int)rn(s, 2);
            logf_(c, "%s(t%d, %d) ", left ? "shl" : "shr", ti, sh);
            p = cnst(c, t, sh);
            if (rn(s, 3) == 0) /* by a tensor */
                p = rdx_tensor_and(g, partner(c, s, t, dt), cnst(c, t, bits_of(t) - 1));
            r = left ? rdx_tensor_shl(g, t, p) : rdx_tensor_shr(g, t, p);
        }
        break;
    case 6: /* bitwise */
        if (!is_f(t)) {
            unsigned w = (unsigned)rn(s, 4);
            logf_(c, "bit%u(t%d) ", w, ti);
            p = partner(c, s, t, dt);
            r = w == 0   ? rdx_tensor_xor(g, t, p)
                : w == 1 ? rdx_tensor_or(g, t, p)
                : w == 2 ? rdx_tensor_and(g, t, p)
                         : rdx_tensor_not(g, t);
        }
        break;
    case 7:
    case 8: {                                /* transcendentals */
        if (!is_f(t) || c->inexact[ti] >= 2) /* half-precision rounding noise, amplified */
            break;
        unsigned w = (unsigned)rn(s, 14);
        /* exp, sin, cos and pow amplify an input's rounding difference: exact inputs only */
        if (c->inexact[ti] && (w <= 1 || w == 4 || w == 5 || w == 12))
            w = 8;
        logf_(c, "un%u(t%d) ", w, ti);
        switch (w) {
        case 0:
            r = rdx_tensor_exp(g, t);
            break;
        case 1:
            r = rdx_tensor_exp2(g, t);
            break;
        case 2:
            r = rdx_tensor_log(g, pos(c, t));
            break;
        case 3:
            r = rdx_tensor_log2(g, pos(c, t));
            break;
        case 4:
            r = rdx_tensor_sin(g, t);
            break;
        case 5:
            r = rdx_tensor_cos(g, t);
            break;
        case 6:
            r = rdx_tensor_sqrt(g, rdx_tensor_abs(g, t));
            break;
        case 7:
            r = rdx_tensor_rsqrt(g, pos(c, t));
            break;
        case 8:
            r = rdx_tensor_sigmoid(g, t);
            break;
        case 9:
            r = rdx_tensor_tanh(g, t);
            break;
        case 10:
            r = rdx_tensor_gelu(g, t);
            break;
        case 11:
            r = rdx_tensor_recip(g, pos(c, t));
            break;
        case 12:
            r = rdx_tensor_pow(g, pos(c, t), rdx_tensor_clamp(g, partner(c, s, t, dt), -2, 2));
            break;
        default:
            r = rdx_tensor_neg(g, t);
            break;
        }
        inexact |= w != 13;
        break;
    }
    case 9: { /* simple unary */
        unsigned w = (unsigned)rn(s, 5);
        logf_(c, "simple%u(t%d) ", w, ti);
        if (is_bool(t))
            r = rdx_tensor_not(g, t);
        else if (w == 0)
            r = rdx_tensor_relu(g, t);
        else if (w == 1)
            r = rdx_tensor_abs(g, t);
        else if (w == 2)
            r = rdx_tensor_clamp(g, t, -1, 3);
        else if (w == 3 && is_f(t) && !inexact)
            r = rdx_tensor_trunc(g, rdx_tensor_muls(g, t, 3));
        else if (!rdx_dtype_is_unsigned(dt))
            r = rdx_tensor_neg(g, t);
        break;
    }
    case 10:
    case 11: { /* compare + where */
        if (inexact)
            break;
        unsigned w = (unsigned)rn(s, 6);
        p = partner(c, s, t, dt);
        const rdx_tensor *cmp = w == 0   ? rdx_tensor_cmplt(g, t, p)
                                : w == 1 ? rdx_tensor_cmpgt(g, t, p)
                                : w == 2 ? rdx_tensor_cmple(g, t, p)
                                : w == 3 ? rdx_tensor_cmpge(g, t, p)
                                : w == 4 ? rdx_tensor_cmpeq(g, t, p)
                                         : rdx_tensor_cmpne(g, t, p);
        unsigned how = (unsigned)rn(s, 3);
        logf_(c, "cmp%u/%u(t%d) ", w, how, ti);
        if (how == 0)
            r = cmp;
        else if (how == 1)
            r = rdx_tensor_where(g, cmp, t, partner(c, s, t, dt));
        else
            r = rdx_tensor_where(g, cmp, rdx_tensor_const(g, dt, 1), t);
        break;
    }
    case 12:
    case 13: { /* cast */
        rdx_dtype to = D(all_dts[rn(s, NDTS)]);
        if (rdx_dtype_is_float(t->dtype) && !rdx_dtype_is_float(to) && inexact)
            break;
        logf_(c, "cast(t%d, %s) ", ti, rdx_dtype_str(to, (char[24]){ 0 }, 24));
        const rdx_tensor *src = rdx_dtype_is_float(to) ? t : safe_for_int(c, t, to);
        /* a negative or large integer to a narrower float/unsigned is fine (wraps / rounds) */
        r = rdx_tensor_cast(g, src, to);
        if (rdx_dtype_is_float(to) && !rdx_dtype_is_float(t->dtype) && rdx_dtype_itemsize(to) <= 2)
            inexact = 1; /* large integers round */
        if (!rdx_dtype_is_float(to))
            inexact = 0;
        break;
    }
    case 14:
    case 15:
    case 16: { /* movement */
        unsigned w = (unsigned)rn(s, 9);
        logf_(c, "move%u(t%d) ", w, ti);
        if (nd == 0)
            w = 8;
        switch (w) {
        case 0: {
            int order[8];
            for (uint32_t k = 0; k < nd; k++)
                order[k] = (int)k;
            for (uint32_t k = nd; k > 1; k--) {
                uint32_t j = (uint32_t)rn(s, k);
                int tmp = order[k - 1];
                order[k - 1] = order[j];
                order[j] = tmp;
            }
            r = rdx_tensor_permute(g, t, order);
            break;
        }
        case 1:
            r = rdx_tensor_flip(g, t, 1, &ax);
            break;
        case 2: {
            if (sym)
                break;
            int64_t b[8], a[8];
            for (uint32_t k = 0; k < nd; k++) {
                b[k] = (int64_t)rn(s, 3);
                a[k] = (int64_t)rn(s, 4);
            }
            r = rdx_tensor_pad(g, t, b, a, is_f(t) ? -0.5 : is_bool(t) ? 1 : 2);
            break;
        }
        case 3: {
            if (sym)
                break;
            int64_t st[8], en[8];
            for (uint32_t k = 0; k < nd; k++) {
                st[k] = (int64_t)rn(s, (uint64_t)(d[k] + 1) / 2);
                en[k] = d[k] - (int64_t)rn(s, (uint64_t)(d[k] - st[k]));
                if (en[k] <= st[k])
                    en[k] = st[k] + 1;
            }
            r = rdx_tensor_shrink(g, t, st, en);
            break;
        }
        case 4: {
            if (sym)
                break;
            int64_t n = numel_of(t);
            int64_t f = 1;
            static const int64_t fs[] = { 2, 3, 4, 5, 7, 8, 16 };
            for (int k = 0; k < 4; k++) {
                int64_t cand = fs[rn(s, 7)];
                if (n % cand == 0) {
                    f = cand;
                    break;
                }
            }
            if (rn(s, 2))
                r = rdx_tensor_reshape(g, t, 2, (int64_t[]){ n / f, f });
            else
                r = rdx_tensor_reshape(g, t, 3, (int64_t[]){ f, 1, n / f });
            break;
        }
        case 5: { /* expand a new leading axis */
            if (nd >= 4)
                break;
            int64_t one[8], e[8];
            one[0] = 1;
            e[0] = (int64_t)rn(s, 4) + 2;
            for (uint32_t k = 0; k < nd; k++)
                one[k + 1] = e[k + 1] = d[k];
            if (sym)
                break;
            r = rdx_tensor_expand(g, rdx_tensor_reshape(g, t, nd + 1, one), nd + 1, e);
            break;
        }
        case 6: /* strided slice */
            if (sym || d[ax] < 2)
                break;
            r = rdx_tensor_slice(g, t, ax, (int64_t)rn(s, 2), d[ax], (int64_t)rn(s, 3) + 1);
            break;
        case 7:
            r = rdx_tensor_contiguous(g, t);
            break;
        default: /* a scalar broadcast */
            if (nd == 0)
                r = rdx_tensor_expand(g, rdx_tensor_reshape(g, t, 1, (int64_t[]){ 1 }), 1,
                                      (int64_t[]){ 7 });
            else
                r = rdx_tensor_transpose(g, t, 0, -1);
            break;
        }
        break;
    }
    case 17:
    case 18:
    case 19:
    case 20: { /* reductions */
        if (nd == 0)
            break;
        unsigned w = (unsigned)rn(s, 10);
        int keep = (int)rn(s, 2);
        int axes[2] = { ax, (ax + 1) % (int)nd };
        uint32_t nax = nd > 1 && rn(s, 3) == 0 ? 2 : 1;
        if (rn(s, 8) == 0)
            nax = 0;
        /* float16/bfloat16: the interpreter accumulates in the dtype itself, so long sums
           lose everything (2000 ones stall near 2048); keep them short */
        if (is_f(t) && rdx_dtype_itemsize(dt) == 2) {
            int64_t cnt = 1;
            for (uint32_t k = 0; k < nd; k++)
                if (nax == 0 || (int)k == axes[0] || (nax == 2 && (int)k == axes[1]))
                    cnt *= d[k] < 0 ? 1000 : d[k];
            if (w == 7 || w == 8) /* cumsum, softmax: along ax */
                cnt = d[ax] < 0 ? 1000 : d[ax];
            if (w == 9) /* layernorm: the last axis */
                cnt = d[nd - 1] < 0 ? 1000 : d[nd - 1];
            if (cnt > 256)
                break;
        }
        logf_(c, "red%u(t%d, ax %d/%u, keep %d) ", w, ti, ax, nax, keep);
        switch (w) {
        case 0:
        case 1:
            r = rdx_tensor_sum(g, t, nax, axes, keep);
            inexact |= is_f(t);
            break;
        case 2:
            r = rdx_tensor_max(g, t, nax, axes, keep);
            break;
        case 3:
            r = rdx_tensor_min(g, t, nax, axes, keep);
            break;
        case 4: /* prod over a short axis */
            if (sym || d[ax] > 8)
                break;
            r = rdx_tensor_prod(g, t, 1, &ax, keep);
            inexact |= is_f(t);
            break;
        case 5:
            if (!is_f(t))
                break;
            r = rn(s, 2) ? rdx_tensor_mean(g, t, nax, axes, keep)
                         : rdx_tensor_var(g, t, nax, axes, keep, (int)rn(s, 2));
            inexact = 1;
            break;
        case 6:
            if (inexact || is_bool(t))
                break;
            r = rdx_tensor_argmax(g, t, ax, keep);
            inexact = 0;
            break;
        case 7:
            if (sym && d[ax] < 0)
                break;
            if (d[ax] > 300)
                break;
            r = rdx_tensor_cumsum(g, t, ax);
            inexact |= is_f(t);
            break;
        case 8:
            if (!is_f(t))
                break;
            r = rn(s, 3) ? rdx_tensor_softmax(g, t, ax) : rdx_tensor_log_softmax(g, t, ax);
            inexact = 1;
            break;
        default:
            if (!is_f(t))
                break;
            r = rdx_tensor_layernorm(g, t, 1, NULL, NULL, 1e-5);
            inexact = 1;
            break;
        }
        if (r && keep && rn(s, 2)) /* broadcast back */
            r = rdx_tensor_sub(g, t, r);
        break;
    }
    case 21:
    case 22: { /* matmul */
        if (nd == 0 || is_bool(t))
            break;
        int64_t k = d[nd - 1];
        if (k < 0 || k > 300 || (is_f(t) && rdx_dtype_itemsize(dt) == 2 && k > 256))
            break;
        int64_t n2 = rn(s, 3) == 0 ? 16 * (int64_t)(rn(s, 4) + 1) : rand_size(s);
        if (n2 > 300)
            n2 = 17;
        logf_(c, "matmul(t%d, %lld) ", ti, (long long)n2);
        p = input(c, s, dt, 2, (int64_t[]){ k, n2 });
        if (rn(s, 3) == 0)
            p = rdx_tensor_transpose(g, input(c, s, dt, 2, (int64_t[]){ n2, k }), 0, 1);
        r = rdx_tensor_matmul(g, t, p);
        inexact |= is_f(t);
        break;
    }
    case 23: { /* a WMMA-sized half matmul as a fresh source, added to t if possible */
        static const int64_t m16[] = { 16, 32, 48, 64 };
        int64_t M = m16[rn(s, 4)], N = m16[rn(s, 4)], K = m16[rn(s, 4)];
        rdx_dtype hd = D(rn(s, 2) ? RDX_FLOAT16 : RDX_BFLOAT16);
        logf_(c, "wmma(%lld,%lld,%lld) ", (long long)M, (long long)N, (long long)K);
        const rdx_tensor *a = input(c, s, hd, 2, (int64_t[]){ M, K });
        const rdx_tensor *b = input(c, s, hd, 2, (int64_t[]){ K, N });
        if (rn(s, 2))
            r = rdx_tensor_matmul(g, a, b);
        else
            r = rdx_tensor_matmul(g, rdx_tensor_cast(g, a, D(RDX_FLOAT32)), b);
        inexact = 1;
        break;
    }
    case 24: { /* conv / pool over a fresh NCHW input */
        if (!is_f(t) || nd < 2 || sym)
            break;
        int64_t C = (int64_t)rn(s, 3) + 1, H = (int64_t)rn(s, 9) + 3, W = (int64_t)rn(s, 9) + 3;
        const rdx_tensor *x = input(c, s, dt, 4, (int64_t[]){ 2, C, H, W });
        unsigned w = (unsigned)rn(s, 3);
        logf_(c, "conv%u(C%lld H%lld W%lld) ", w, (long long)C, (long long)H, (long long)W);
        if (w == 0) {
            int64_t O = (int64_t)rn(s, 4) + 1;
            const rdx_tensor *wt = input(c, s, dt, 4, (int64_t[]){ O, C, 3, 3 });
            rdx_conv_opts co = {
                { (int64_t)rn(s, 2) + 1, 1 }, { (int64_t)rn(s, 2), 1 }, { 1, 1 }, 1
            };
            r = rdx_tensor_conv2d(g, x, wt, rn(s, 2) ? input(c, s, dt, 1, &O) : NULL, &co);
        } else if (w == 1) {
            r = rdx_tensor_max_pool2d(g, x, (int64_t[]){ 2, 2 }, (int64_t[]){ 2, 1 },
                                      (int64_t[]){ 0, 1 });
        } else {
            r = rdx_tensor_avg_pool2d(g, x, (int64_t[]){ 3, 2 }, (int64_t[]){ 1, 2 },
                                      (int64_t[]){ 1, 0 });
        }
        inexact = 1;
        break;
    }
    case 25: { /* index / gather / one_hot */
        if (nd == 0 || sym)
            break;
        int64_t kk = (int64_t)rn(s, 9) + 1;
        int32_t *iv = malloc(sizeof *iv * (size_t)kk);
        for (int64_t i = 0; i < kk; i++)
            iv[i] = (int32_t)rn(s, (uint64_t)d[0]);
        const rdx_tensor *idx = rdx_tensor_from_data(g, D(RDX_INT32), 1, &kk, iv);
        free(iv);
        unsigned w = (unsigned)rn(s, 3);
        logf_(c, "index%u(t%d, %lld) ", w, ti, (long long)kk);
        if (w == 0)
            r = rdx_tensor_index(g, t, 1, &idx);
        else if (w == 1 && nd == 1)
            r = rdx_tensor_gather(g, t, idx);
        else
            r = rdx_tensor_add(g, rdx_tensor_one_hot(g, idx, d[0], dt), rdx_tensor_const(g, dt, 1));
        break;
    }
    case 26: { /* cat / stack */
        if (nd == 0 || sym)
            break;
        int64_t e[8];
        memcpy(e, d, sizeof e);
        e[ax] = (int64_t)rn(s, 5) + 1;
        const rdx_tensor *ts[3] = { t, input(c, s, dt, nd, e), NULL };
        logf_(c, "cat(t%d, ax %d) ", ti, ax);
        if (rn(s, 2))
            r = rdx_tensor_cat(g, ts, 2, ax);
        else {
            ts[1] = partner(c, s, t, dt);
            ts[1] = rdx_tensor_add(g, ts[1], rdx_tensor_zeros(g, dt, nd, d));
            r = rdx_tensor_stack(g, ts, 2, (int)rn(s, nd + 1));
        }
        break;
    }
    case 27: { /* split */
        if (nd == 0 || sym || d[ax] < 2)
            break;
        const rdx_tensor *outs[2];
        int64_t a = (int64_t)rn(s, (uint64_t)d[ax] - 1) + 1;
        logf_(c, "split(t%d, ax %d, %lld) ", ti, ax, (long long)a);
        if (rdx_tensor_split(g, t, ax, (int64_t[]){ a, d[ax] - a }, 2, outs) == RDX_OK)
            r = outs[rn(s, 2)];
        break;
    }
    case 28: { /* random generators / arange / eye, combined with t */
        if (sym || nd == 0)
            break;
        unsigned w = (unsigned)rn(s, 5);
        const rdx_tensor *src;
        logf_(c, "rng%u(t%d) ", w, ti);
        if (w == 0 && is_f(t))
            src = rdx_tensor_rand(g, dt, nd, d, mix(s) % 1000);
        else if (w == 1 && is_f(t))
            src = rdx_tensor_randn(g, D(RDX_FLOAT32), nd, d, mix(s) % 1000);
        else if (w == 2)
            src = rdx_tensor_randint(g, -50, 50, nd, d, mix(s) % 1000);
        else if (w == 3)
            src = rdx_tensor_arange(g, d[nd - 1]);
        else
            src = nd >= 2 && d[nd - 1] == d[nd - 2] ? rdx_tensor_eye(g, d[nd - 1], dt)
                                                    : rdx_tensor_arange(g, d[nd - 1]);
        if (is_bool(t))
            r = rdx_tensor_where(g, t, rdx_tensor_cast(g, src, D(RDX_FLOAT32)),
                                 rdx_tensor_const(g, D(RDX_FLOAT32), -1));
        else
            r = rdx_tensor_add(g, t, rdx_tensor_cast(g, safe_for_int(c, src, dt), dt));
        inexact |= is_f(t) && w <= 1;
        break;
    }
    case 29: { /* the gradient of sum(t * t) with respect to the first input */
        const rdx_tensor *in0 = c->pool[0];
        if (!is_f(t) || !is_f(in0) || c->var || c->inexact[ti] >= 2)
            break;
        logf_(c, "grad(t%d) ", ti);
        const rdx_tensor *loss = rdx_tensor_sum(g, rdx_tensor_mul(g, t, t), 0, NULL, 0);
        if (loss && rdx_gradient(g, loss, &in0, 1, &r) != RDX_OK)
            r = NULL;
        inexact = 1;
        break;
    }
    default: { /* where with a bool condition from the pool or fresh */
        const rdx_tensor *cond = NULL;
        for (int k = c->npool - 1; k >= 0 && !cond; k--)
            if (is_bool(c->pool[k]) && rn(s, 2))
                cond = c->pool[k];
        if (!cond)
            cond = partner(c, s, t, D(RDX_BOOL));
        logf_(c, "where(t%d) ", ti);
        r = rdx_tensor_where(g, cond, t, partner(c, s, t, dt));
        break;
    }
    }
    if (!r || rdx_graph_status(g) != RDX_OK || !numel_ok(r) || rdx_tensor_ndim(r) > 6) {
        rdx_graph_clear_error(g);
        logf_(c, "- ");
        return NULL;
    }
    /* 0 exact, 1 rounded in float32/64, 2 in float16, 3 in bfloat16 (the worst seen) */
    int cls = !inexact || !is_f(r)              ? 0
              : r->dtype.scalar == RDX_BFLOAT16 ? 3
              : r->dtype.scalar == RDX_FLOAT16  ? 2
                                                : 1;
    if (inexact && is_f(r) && c->inexact[ti] > cls)
        cls = c->inexact[ti];
    c->inexact[c->npool] = (unsigned char)cls;
    return r;
}

static int force_dtype = -1; /* --dtype: the first input's dtype */

/* Build case `seed` with at most maxops ops (0: the drawn count). */
static void gen(fz_case *c, uint64_t seed, int maxops, int only_root)
{
    memset(c, 0, sizeof *c);
    c->seed = seed;
    c->maxops = maxops;
    c->only_root = only_root;
    rdx_graph_create(&c->g, NULL);
    uint64_t ms = seed ^ 0x6d6f6465ull, s = seed;
    c->mode = (int)rn(&ms, M_COUNT);
    if (c->mode == M_BEAM && rn(&ms, 4)) /* BEAM is slow: fewer of those */
        c->mode = M_HEUR;
    rdx_dtype dt = D(all_dts[rn(&s, NDTS)]);
    if (rn(&s, 3) == 0)
        dt = D(RDX_FLOAT32);
    if (force_dtype >= 0)
        dt = D((rdx_scalar)force_dtype);
    int nin = 1 + (int)rn(&s, 3);
    if (rn(&s, 4) == 0) { /* symbolic size */
        c->var = rdx_graph_var(c->g, "n", 1, 600);
        c->symnd = 1 + (uint32_t)rn(&s, 3);
        uint32_t sax = (uint32_t)rn(&s, c->symnd);
        const rdx_uop *dims[3];
        for (uint32_t k = 0; k < c->symnd; k++) {
            c->symdims[k] = k == sax ? -1 : sizes[rn(&s, 10)];
            dims[k] = k == sax ? c->var : rdx_ir_int(rdx_graph_ir(c->g), c->symdims[k]);
        }
        c->symin = rdx_tensor_empty_sym(c->g, dt, c->symnd, dims);
        c->pool[c->npool++] = c->symin;
        c->varvals[0] = 1;
        c->varvals[1] = (int64_t[]){ 2, 7, 13, 31 }[rn(&s, 4)];
        c->varvals[2] = (int64_t[]){ 64, 97, 257, 600 }[rn(&s, 4)];
        c->nvals = 3;
        logf_(c, "sym(%u dims, axis %u) ", c->symnd, sax);
        nin = 1;
    } else {
        for (int i = 0; i < nin; i++) {
            uint32_t nd = (uint32_t)rn(&s, 4) + (rn(&s, 6) == 0 ? 0 : 1);
            int64_t d[4];
            int64_t tot = 1;
            for (uint32_t k = 0; k < nd; k++) {
                d[k] = rand_size(&s);
                if (tot * d[k] > 70000)
                    d[k] = 1 + (int64_t)rn(&s, 5);
                tot *= d[k];
            }
            c->pool[c->npool++] = input(c, &s, i == 0 ? dt : D(all_dts[rn(&s, NDTS)]), nd, d);
        }
    }
    int nops = 1 + (int)rn(&s, 12);
    if (maxops > 0 && maxops < nops)
        nops = maxops;
    int made = 0;
    for (int tries = 0; made < nops && tries < nops * 8 && c->npool < POOL - 1; tries++) {
        /* mostly the newest tensor, sometimes an older one */
        int ti = rn(&s, 3) ? c->npool - 1 : (int)rn(&s, (uint64_t)c->npool);
        logf_(c, "t%d=", c->npool);
        const rdx_tensor *r = op(c, &s, c->pool[ti], ti);
        if (!r)
            continue;
        c->pool[c->npool++] = r;
        made++;
    }
    c->nops = made;
    /* outputs: the newest, maybe one or two others */
    c->rootcls[c->nroots] = c->inexact[c->npool - 1];
    c->roots[c->nroots++] = c->pool[c->npool - 1];
    for (int k = 0; k < 2 && c->npool > 2; k++)
        if (rn(&s, 3) == 0) {
            int pi = 1 + (int)rn(&s, (uint64_t)c->npool - 1);
            c->rootcls[c->nroots] = c->inexact[pi];
            c->roots[c->nroots++] = c->pool[pi];
        }
    if (only_root >= 0 && (size_t)only_root < c->nroots) {
        c->roots[0] = c->roots[only_root];
        c->rootcls[0] = c->rootcls[only_root];
        c->nroots = 1;
    }
}

/* Bind the symbolic input's data for value v (deterministic per seed and v). */
static void bind_sym(fz_case *c, int64_t v)
{
    if (!c->var)
        return;
    if (!c->symin) { /* a parsed graph (--uop): its data is bound already */
        rdx_interp_bind_var(rdx_graph_interp(c->g), c->var, v);
        return;
    }
    int64_t n = 1;
    for (uint32_t k = 0; k < c->symnd; k++)
        n *= c->symdims[k] < 0 ? v : c->symdims[k];
    uint64_t s = c->seed * 31 + (uint64_t)v;
    void *p = rand_data(&s, c->symin->dtype, n, 0);
    rdx_interp_bind(rdx_graph_interp(c->g), c->symin, p,
                    (size_t)n * rdx_dtype_itemsize(c->symin->dtype));
    rdx_interp_bind_var(rdx_graph_interp(c->g), c->var, v);
    free(p);
}

/* ------------------------------------------------------------ checking */

typedef enum { FZ_OK, FZ_UNSUP, FZ_FAIL } fz_result;

static char failmsg[2048];
static char unsup_msgs[64][160];
static unsigned unsup_counts[64];
static uint64_t unsup_seeds[64]; /* the first seed of each */
static size_t nunsup;
static volatile uint64_t current_seed;
static int verbose;

static int tally_mode; /* the running case's mode, part of the tally's key */

/* The control pipe to the supervising parent (docs/realize.md "the fuzzer's deadline"): a
   worker process sends its tallies there instead of keeping them; -1 when running alone. */
static int ctl_fd = -1;

/* Send one line "TAG seed text" to the parent (fflush first: its output stays in order). */
static void ctl_send(char tag, uint64_t seed, const char *text)
{
    char line[256];
    fflush(stdout);
    int n = snprintf(line, sizeof line, "%c %llu %s\n", tag, (unsigned long long)seed,
                     text ? text : "");
    if (n <= 0)
        return;
    if ((size_t)n >= sizeof line) { /* cut, but still one line */
        n = (int)sizeof line - 1;
        line[n - 1] = '\n';
    }
    if (write(ctl_fd, line, (size_t)n) != n) /* < PIPE_BUF: atomic */
        _exit(4);                            /* the parent is gone: so is the run */
}

static void tally_unsup(const char *key, uint64_t seed)
{
    for (size_t k = 0; k < nunsup; k++)
        if (!strcmp(unsup_msgs[k], key)) {
            unsup_counts[k]++;
            return;
        }
    if (nunsup < 64) {
        snprintf(unsup_msgs[nunsup], sizeof unsup_msgs[nunsup], "%s", key);
        unsup_seeds[nunsup] = seed;
        unsup_counts[nunsup++] = 1;
    }
}

static void note_unsup(const char *m)
{
    char key[160];
    snprintf(key, sizeof key, "[%s] %s",
             tally_mode >= 0 && tally_mode < 5
                 ? (const char *[]){ "raw", "heur", "beam", "opts", "hdirect" }[tally_mode]
                 : "?",
             m);
    /* numbers vary per case: replace digit runs by one '#'; one line */
    size_t o = 0;
    for (size_t i = 0; key[i]; i++)
        if (!(key[i] >= '0' && key[i] <= '9' && o && key[o - 1] == '#'))
            key[o++] = key[i] >= '0' && key[i] <= '9' ? '#' : key[i] == '\n' ? ' ' : key[i];
    key[o] = 0;
    if (ctl_fd >= 0)
        ctl_send('U', current_seed, key);
    else
        tally_unsup(key, current_seed);
}

/* Wave-instructions one emulated dispatch may run in all (its waves together): past it the
 * dispatch stops as "slow dispatch" and the case is reported SLOW.  At the emulator's 2-10 M
 * wave-instructions per second, tens of seconds; the per-case time limit bounds the rest. */
#define FZ_DISPATCH_BUDGET 200000000ull

/* Slow cases: over the emulator's budget (reported by the run) or over the per-case
   time limit (killed by the supervisor); each case counted once, the first seeds kept. */
#define SLOW_KEEP 16
static unsigned nslow;
static uint64_t slow_seeds[SLOW_KEEP];

static void tally_slow(uint64_t seed)
{
    for (unsigned k = 0; k < nslow && k < SLOW_KEEP; k++)
        if (slow_seeds[k] == seed)
            return;
    if (nslow < SLOW_KEEP)
        slow_seeds[nslow] = seed;
    nslow++;
}

static void note_slow(uint64_t seed, const char *kernel)
{
    printf("SLOW seed %llu: kernel %s over the emulator budget\n", (unsigned long long)seed,
           kernel);
    if (ctl_fd >= 0)
        ctl_send('S', seed, NULL);
    else
        tally_slow(seed);
}

/* Tolerance of a float output: its dtype's, or looser when it went through rounded
   arithmetic (class 1..3: float32, float16, bfloat16; the two sides may round and
   accumulate differently, e.g. a bfloat16 sum accumulated in float32 by WMMA). */
static double tol_of(rdx_scalar sc, int cls)
{
    static const double loose[4] = { 0, 1e-3, 6e-2, 3e-1 };
    double t = 0;
    switch (sc) {
    case RDX_FLOAT16:
        t = 3e-2;
        break;
    case RDX_BFLOAT16:
        t = 1e-1;
        break;
    case RDX_FLOAT32:
        t = 2e-4;
        break;
    case RDX_FLOAT64:
        t = 1e-9;
        break;
    default:
        return 0;
    }
    return loose[cls & 3] > t ? loose[cls & 3] : t;
}

static double elem(const rdx_array *a, int64_t i)
{
    return rdx_array_get(a, i);
}

/* ---- the float64 shadow: the oracle for rounded float outputs
 *
 * Two legal evaluations of a float16/bfloat16 graph (the interpreter rounds every partial
 * sum in sequence, the device in whatever order its opts give) can differ by far more than
 * a relative tolerance where rounding errors are amplified, e.g. the layernorm of a constant
 * row (exactly 0; the mean's rounding noise divided by the standard deviation of that noise
 * comes out near +-1, with either sign).  Whether the device's result is legal is decided
 * against the graph itself evaluated in float64:
 *
 *   t  the shadow: the graph printed and parsed again with float16 and bfloat16 (and float32
 *      when no BITCAST touches float32, as the f32 transcendental decompositions do) promoted
 *      to float64, the inputs converted exactly, evaluated by the interpreter;
 *   s_k (k = 1..4) the shadow with its roundings put back at worst-case size: every floating
 *      ADD reduction of n terms moved by sign_kj * gamma * sum |x_i|, gamma = (n-1) u (Higham,
 *      "Accuracy and Stability of Numerical Algorithms", eq. 4.4: |s^ - s| <= gamma_{n-1}
 *      sum |x_i| for any summation order; signs per reduction: all +, all -, two random
 *      draws), and every rounded elementwise op (float ADD/MUL/RECIP/CAST outside FUNCTION
 *      bodies) by u |r| xi, xi uniform in [-1, 1) per element; u the unit roundoff of the
 *      coarsest float dtype the graph computes in (bfloat16 2^-8, float16 2^-11, float32
 *      2^-24, float64 2^-53).  The spread max_k |s_k - t| estimates how far legal
 *      evaluations move element e through whatever the graph does after its roundings.
 *
 * An element that fails the plain relative tolerance against the interpreter is still
 * accepted when |device - t| <= max(2 spread_e, |interp - t|) + tol * max(|t|, 1): no
 * further from the exact value than twice the sampled spread (or than the interpreter, itself
 * one legal evaluation) allows, plus the dtype's tolerance. */

typedef struct fz_shadow {
    int state; /* 0 not built, 1 built, -1 impossible (then the fallback rules hold) */
    size_t vi;
    double *t[3], *spread[3];
    int64_t numel[3];
    char why[160];
} fz_shadow;

static fz_shadow shadow;

static void shadow_reset(void)
{
    for (int r = 0; r < 3; r++) {
        free(shadow.t[r]);
        free(shadow.spread[r]);
    }
    memset(&shadow, 0, sizeof shadow);
}

static double unit_roundoff(rdx_scalar s)
{
    switch (s) {
    case RDX_BFLOAT16:
        return 0x1p-8;
    case RDX_FLOAT16:
        return 0x1p-11;
    case RDX_FLOAT32:
        return 0x1p-24;
    default:
        return 0x1p-53;
    }
}

/* Replace every "dtype=<from>" token (followed by a non-name character) by "dtype=float64". */
static char *promote_text(const char *txt, const char *from)
{
    char key[32];
    snprintf(key, sizeof key, "dtype=%s", from);
    size_t kl = strlen(key), n = strlen(txt);
    char *out = malloc(2 * n + 1), *o = out;
    for (const char *p = txt; *p;) {
        if (!strncmp(p, key, kl) && !(p[kl] >= 'a' && p[kl] <= 'z') &&
            !(p[kl] >= '0' && p[kl] <= '9') && p[kl] != '.') {
            memcpy(o, "dtype=float64", 13);
            o += 13;
            p += kl;
        } else
            *o++ = *p++;
    }
    *o = 0;
    return out;
}

/* Is u a float ADD/MUL/RECIP/CAST outside any FUNCTION body, of a concrete shape (dims)? */
static int rounded_op(const rdx_uop *u, const rdx_ir_nodemap *inside, int64_t *dims)
{
    if (!rdx_dtype_is_float(u->dtype) || rdx_ir_nodemap_get(inside, u) || u->ndim > 8 ||
        (u->op != RDX_OP_ADD && u->op != RDX_OP_MUL && u->op != RDX_OP_RECIP &&
         u->op != RDX_OP_CAST))
        return 0;
    for (uint32_t k = 0; k < u->ndim; k++)
        if (!rdx_uop_dim(u, k, &dims[k]))
            return 0;
    return 1;
}

/* The graph under roots with every floating ADD reduction moved by sign_j * gamma_j * sum|x|
   (j: the reduction's number in the walk; bit j of signs) and every rounded elementwise op
   (rounded_op) by u * |r| * xi, xi uniform in [-1, 1) per element (key: seed).  1 on a
   build failure. */
static int perturb(rdx_graph *g, const rdx_uop *const *roots, size_t n, double u, uint64_t signs,
                   uint64_t seed, int64_t v, const rdx_uop **out)
{
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    rdx_ir_nodemap *m = NULL, *inside = NULL;
    if (rdx_ir_nodemap_create(ctx, &m))
        return 1;
    if (rdx_ir_nodemap_create(ctx, &inside)) {
        rdx_ir_nodemap_free(m);
        return 1;
    }
    int j = 0, bad = 0;
    static const int one = 1;
    for (size_t r = 0; r < n && !bad; r++) {
        const rdx_uop **order = NULL;
        size_t no = 0;
        if (rdx_ir_toposort(roots[r], &order, &no)) {
            bad = 1;
            break;
        }
        for (size_t i = 0; i < no && !bad; i++) {
            const rdx_uop *u0 = order[i], *nu = u0;
            if (rdx_ir_nodemap_get(m, u0))
                continue;
            /* a FUNCTION's body (what depends on its PARAMs) is left as it is */
            int in = u0->op == RDX_OP_PARAM;
            for (uint32_t k = 0; k < u0->nsrc && u0->op != RDX_OP_FUNCTION; k++)
                in |= rdx_ir_nodemap_get(inside, u0->src[k]) != NULL;
            if (in && rdx_ir_nodemap_put(inside, u0, &one)) {
                bad = 1;
                break;
            }
            const rdx_uop *src[16];
            int changed = 0;
            if (u0->nsrc > 16) {
                bad = 1;
                break;
            }
            for (uint32_t k = 0; k < u0->nsrc; k++) {
                const rdx_uop *s2 = rdx_ir_nodemap_get(m, u0->src[k]);
                src[k] = s2 ? s2 : u0->src[k];
                changed |= src[k] != u0->src[k];
            }
            if (changed)
                nu = rdx_ir_replace_src(ctx, u0, src, u0->nsrc);
            if (nu && u0->op == RDX_OP_REDUCE && u0->arg.sub == RDX_RED_ADD &&
                rdx_dtype_is_float(u0->dtype) && u0->nsrc >= 1) {
                int64_t nin = 1, nout = 1, d;
                for (uint32_t k = 0; k < src[0]->ndim; k++)
                    nin *= rdx_uop_dim(src[0], k, &d) ? d : v;
                for (uint32_t k = 0; k < u0->ndim; k++)
                    nout *= rdx_uop_dim(u0, k, &d) ? d : v;
                double terms = nout > 0 ? (double)nin / (double)nout : 1;
                double gamma = fmin(1, fmax(terms - 1, 0) * u);
                const rdx_uop *asrc[16];
                memcpy(asrc, src, sizeof *asrc * u0->nsrc);
                asrc[0] = rdx_tensor_abs(g, src[0]);
                const rdx_uop *mag = asrc[0] ? rdx_ir_replace_src(ctx, u0, asrc, u0->nsrc) : NULL;
                double sg = (signs >> (j++ & 63)) & 1 ? 1 : -1;
                nu = mag ? rdx_tensor_add(
                               g, nu,
                               rdx_tensor_mul(g, mag, rdx_tensor_const(g, nu->dtype, sg * gamma)))
                         : NULL;
            }
            int64_t dims[8];
            if (nu && rounded_op(u0, inside, dims)) {
                const rdx_uop *xi = rdx_tensor_rand(g, nu->dtype, u0->ndim, dims, seed + u0->id);
                xi = rdx_tensor_add(g, rdx_tensor_mul(g, xi, rdx_tensor_const(g, nu->dtype, 2)),
                                    rdx_tensor_const(g, nu->dtype, -1));
                nu = rdx_tensor_add(g, nu,
                                    rdx_tensor_mul(g, rdx_tensor_mul(g, rdx_tensor_abs(g, nu), xi),
                                                   rdx_tensor_const(g, nu->dtype, u)));
            }
            if (!nu || rdx_ir_nodemap_put(m, u0, nu)) {
                bad = 1;
                break;
            }
        }
        free(order);
        if (!bad)
            out[r] = rdx_ir_nodemap_get(m, roots[r]);
    }
    rdx_ir_nodemap_free(m);
    rdx_ir_nodemap_free(inside);
    if (bad || rdx_graph_status(g) != RDX_OK) {
        rdx_graph_clear_error(g);
        return 1;
    }
    return 0;
}

static void shadow_fail(const char *why)
{
    shadow.state = -1;
    snprintf(shadow.why, sizeof shadow.why, "%s", why);
}

/* Build the shadow of case c at variable value index vi (see above). */
static void shadow_build(fz_case *c, size_t vi)
{
    shadow_reset();
    shadow.vi = vi;
    int64_t v = c->var ? c->varvals[vi] : 0;
    /* which dtypes can be promoted; the coarsest dtype a sum is rounded in */
    int f32_ok = 1;
    double u = 0;
    for (size_t r = 0; r < c->nroots; r++) {
        const rdx_uop **order = NULL;
        size_t n = 0;
        if (rdx_ir_toposort(c->roots[r], &order, &n))
            return shadow_fail("toposort");
        for (size_t i = 0; i < n; i++) {
            const rdx_uop *x = order[i];
            if (x->op == RDX_OP_BITCAST) {
                rdx_scalar a = x->dtype.scalar, b = x->src[0]->dtype.scalar;
                if (a == RDX_FLOAT16 || a == RDX_BFLOAT16 || b == RDX_FLOAT16 ||
                    b == RDX_BFLOAT16) {
                    free(order);
                    return shadow_fail("a BITCAST of a half dtype");
                }
                if (a == RDX_FLOAT32 || b == RDX_FLOAT32)
                    f32_ok = 0;
            }
            if (rdx_dtype_is_float(x->dtype) &&
                ((x->op == RDX_OP_REDUCE && x->arg.sub == RDX_RED_ADD) || x->op == RDX_OP_ADD ||
                 x->op == RDX_OP_MUL || x->op == RDX_OP_RECIP || x->op == RDX_OP_CAST))
                u = fmax(u, unit_roundoff(x->dtype.scalar));
        }
        free(order);
    }
    char *txt = NULL;
    if (rdx_ir_print(c->roots, c->nroots, 0, &txt))
        return shadow_fail("print");
    char *p1 = promote_text(txt, "bfloat16");
    free(txt);
    char *p2 = promote_text(p1, "float16");
    free(p1);
    char *p3 = f32_ok ? promote_text(p2, "float32") : p2;
    if (p3 != p2)
        free(p2);
    rdx_graph *g2 = NULL;
    rdx_graph_create(&g2, NULL);
    const rdx_uop **r2 = NULL;
    size_t n2 = 0;
    rdx_status st = rdx_ir_parse(rdx_graph_ir(g2), "shadow", p3, strlen(p3), &r2, &n2);
    free(p3);
    if (st || n2 != c->nroots) {
        free(r2);
        rdx_graph_destroy(g2);
        return shadow_fail("parse");
    }
    /* inputs: the original buffer of the same slot, converted; the variable */
    rdx_interp *ip = rdx_graph_interp(c->g), *ip2 = rdx_graph_interp(g2);
    int bad = 0;
    for (size_t r = 0; r < c->nroots && !bad; r++) {
        const rdx_uop **o1 = NULL, **o2 = NULL;
        size_t n1 = 0, nn2 = 0;
        rdx_ir_toposort(c->roots[r], &o1, &n1);
        rdx_ir_toposort(r2[r], &o2, &nn2);
        for (size_t i = 0; i < nn2 && !bad; i++) {
            const rdx_uop *b2 = o2[i];
            if (b2->op == RDX_OP_DEFINE_VAR && c->var)
                bad |= rdx_interp_bind_var(ip2, b2, v) != RDX_OK;
            if (b2->op != RDX_OP_BUFFER || rdx_interp_bound(ip2, b2, NULL))
                continue;
            for (size_t k = 0; k < n1; k++) {
                const rdx_uop *b1 = o1[k];
                size_t nb = 0;
                const void *d;
                if (b1->op != RDX_OP_BUFFER || b1->arg.i != b2->arg.i ||
                    !(d = rdx_interp_bound(ip, b1, &nb)))
                    continue;
                size_t is1 = rdx_dtype_itemsize(b1->dtype), is2 = rdx_dtype_itemsize(b2->dtype);
                int64_t ne = (int64_t)(nb / is1);
                if (is1 == is2 && b1->dtype.scalar == b2->dtype.scalar) {
                    bad |= rdx_interp_bind(ip2, b2, d, nb) != RDX_OK;
                } else {
                    rdx_array a;
                    memset(&a, 0, sizeof a);
                    a.dtype = b1->dtype;
                    a.numel = ne;
                    a.data = (void *)d;
                    double *f = malloc(sizeof *f * (size_t)(ne + 1));
                    for (int64_t e = 0; e < ne; e++)
                        f[e] = rdx_array_get(&a, e);
                    bad |= rdx_interp_bind(ip2, b2, f, sizeof *f * (size_t)ne) != RDX_OK;
                    free(f);
                }
                break;
            }
        }
        free(o1);
        free(o2);
    }
    rdx_array out[3];
    if (bad || rdx_graph_realize(g2, r2, n2, out)) {
        free(r2);
        rdx_graph_destroy(g2);
        return shadow_fail(bad ? "binding the inputs" : rdx_error_message());
    }
    for (size_t r = 0; r < n2; r++) {
        int64_t ne = out[r].numel;
        shadow.numel[r] = ne;
        shadow.t[r] = calloc((size_t)ne + 1, sizeof(double));
        shadow.spread[r] = calloc((size_t)ne + 1, sizeof(double));
        for (int64_t e = 0; e < ne; e++)
            shadow.t[r][e] = rdx_array_get(&out[r], e);
    }
    if (u > 0) {
        uint64_t rs = c->seed * 7 + vi;
        for (int k = 0; k < 4 && !bad; k++) {
            uint64_t signs = k == 0 ? ~0ull : k == 1 ? 0 : mix(&rs);
            const rdx_uop *pr[3];
            if (perturb(g2, r2, n2, u, signs, mix(&rs), v, pr) ||
                rdx_graph_realize(g2, pr, n2, out)) {
                rdx_graph_clear_error(g2);
                bad = 1;
                break;
            }
            for (size_t r = 0; r < n2; r++)
                for (int64_t e = 0; e < shadow.numel[r] && e < out[r].numel; e++) {
                    double d = fabs(rdx_array_get(&out[r], e) - shadow.t[r][e]);
                    if (isnan(d) || d > shadow.spread[r][e]) /* a NaN sticks */
                        shadow.spread[r][e] = d;
                }
        }
    }
    free(r2);
    rdx_graph_destroy(g2);
    if (bad)
        return shadow_fail("perturbing the sums");
    shadow.state = 1;
}

/* The smallest magnitude that rounds to inf in dtype s (round to nearest even). */
static double overflow_of(rdx_scalar s)
{
    switch (s) {
    case RDX_FLOAT16:
        return 65520.0; /* 65504 + half an ulp (32 / 2) */
    case RDX_BFLOAT16:
        return 0x1.ffp127; /* 0x1.fep127 + half an ulp */
    case RDX_FLOAT32:
        return 0x1.ffffffp127;
    default:
        return INFINITY;
    }
}

/* Compare output r of case c (variable value vi); 0 when equal, else writes failmsg.
   Integers bit for bit; floats within tol_of relative to max(|want|, 1), else by the
   float64 shadow (above).  Without a shadow (a BITCAST of a half dtype, ...) the older
   rules hold: for rounded values the error may scale with the output's largest magnitude,
   and a few elements of a half-precision chain (up to 1 in 20) may be off. */
static int compare(fz_case *c, size_t vi, const rdx_array *want, const rdx_array *got, size_t r,
                   const char *where, int cls)
{
    if (want->dtype.scalar != got->dtype.scalar || want->numel != got->numel ||
        want->ndim != got->ndim) {
        snprintf(failmsg, sizeof failmsg, "%s: output %zu: dtype/shape differ (%u/%lld vs %u/%lld)",
                 where, r, want->dtype.scalar, (long long)want->numel, got->dtype.scalar,
                 (long long)got->numel);
        return 1;
    }
    size_t is = rdx_dtype_itemsize(want->dtype);
    int fl = rdx_dtype_is_float(want->dtype);
    double tol = tol_of(want->dtype.scalar, cls);
    int64_t bad = 0, first = -1, by_shadow = 0;
    double worst_err = -1, worst_bound = 0, worst_ierr = 0, worst_spread = 0;
    for (int64_t i = 0; i < want->numel; i++) {
        int ok;
        if (!fl) {
            ok = !memcmp((const uint8_t *)want->data + i * is, (const uint8_t *)got->data + i * is,
                         is);
            if (!ok && want->dtype.scalar == RDX_BOOL)
                ok = !((const uint8_t *)want->data)[i] == !((const uint8_t *)got->data)[i] &&
                     ((const uint8_t *)got->data)[i] <= 1;
        } else {
            double a = elem(want, i), b = elem(got, i);
            ok = (isnan(a) && isnan(b)) || a == b || fabs(a - b) <= tol * fmax(fabs(a), 1);
            if (!ok) {
                if (shadow.state == 0 || shadow.vi != vi)
                    shadow_build(c, vi);
                if (shadow.state > 0 && shadow.numel[r] == want->numel) {
                    double t = shadow.t[r][i], s = shadow.spread[r][i];
                    /* an interpreter that overflowed (or made a NaN) says nothing of the bound */
                    double ierr = isfinite(a) ? fabs(a - t) : 0;
                    double bound = fmax(2 * s, ierr) + tol * fmax(fabs(t), 1);
                    double err = fabs(b - t);
                    ok = err <= bound; /* NaN anywhere: not ok */
                    /* the exact value (give or take the bound) overflows the dtype: inf of its
                       sign is its rounding */
                    if (!ok && isinf(b) && isfinite(t) && !signbit(b) == !signbit(t))
                        ok = fabs(t) + bound >= overflow_of(want->dtype.scalar);
                    /* both overflowed (inf or NaN): an intermediate out of the dtype's range,
                       e.g. a cast of uint16 65535 to float16, which the shadow keeps finite */
                    if (!ok && !isfinite(a) && !isfinite(b))
                        ok = 1;
                    if (ok) {
                        by_shadow++;
                        if (err > worst_err) {
                            worst_err = err;
                            worst_bound = bound;
                            worst_ierr = fabs(a - t);
                            worst_spread = s;
                        }
                    }
                }
            }
        }
        if (!ok && bad++ == 0)
            first = i;
    }
    if (by_shadow && verbose)
        printf("    output %zu: %lld elements outside the tolerance accepted by the float64 "
               "shadow (worst: |device - exact| %.6g within %.6g; |interpreter - exact| %.6g, "
               "spread of the perturbed sums %.6g)\n",
               r, (long long)by_shadow, worst_err, worst_bound, worst_ierr, worst_spread);
    if (bad && fl && cls && shadow.state < 0) {
        /* no shadow: the older rules */
        double big = 0;
        for (int64_t i = 0; i < want->numel; i++)
            if (isfinite(elem(want, i)))
                big = fmax(big, fabs(elem(want, i)));
        double floor_ = fmax(1, big * (cls >= 2 ? 0.25 : 0.01));
        bad = 0;
        for (int64_t i = 0; i < want->numel; i++) {
            double a = elem(want, i), b = elem(got, i);
            if (!((isnan(a) && isnan(b)) || a == b || fabs(a - b) <= tol * fmax(fabs(a), floor_)) &&
                bad++ == 0)
                first = i;
        }
        if (cls >= 2 && bad * 20 <= want->numel)
            bad = 0;
    }
    if (!bad)
        return 0;
    char w[64], g2[64];
    if (fl) {
        snprintf(w, sizeof w, "%.9g", elem(want, first));
        snprintf(g2, sizeof g2, "%.9g", elem(got, first));
    } else {
        snprintf(w, sizeof w, "%lld", (long long)rdx_array_get_int(want, first));
        snprintf(g2, sizeof g2, "%lld", (long long)rdx_array_get_int(got, first));
    }
    char sh[256] = "";
    if (fl && shadow.state > 0 && shadow.numel[r] == want->numel)
        snprintf(sh, sizeof sh, ", float64 %.9g (legal spread %.3g)", shadow.t[r][first],
                 shadow.spread[r][first]);
    else if (fl && shadow.state < 0)
        snprintf(sh, sizeof sh, " (no float64 shadow: %s)", shadow.why);
    snprintf(failmsg, sizeof failmsg,
             "%s: output %zu (%s, %lld elements): %lld differ, first [%lld]: device %s, "
             "interpreter %s%s",
             where, r, rdx_dtype_str(want->dtype, (char[24]){ 0 }, 24), (long long)want->numel,
             (long long)bad, (long long)first, g2, w, sh);
    return 1;
}

static rdx_device *device;
static rdx_emu *emu;
static int cur_mode_override = -1;

/* Errors that are a clean refusal: RDX_ERR_UNSUPPORTED naming what cannot be lowered. */
static fz_result classify_error(rdx_status st, const char *where)
{
    const char *m = rdx_error_message();
    /* FUZZ_STRICT=1: a refusal is a finding too (to get its reproducer written) */
    if (st == RDX_ERR_UNSUPPORTED && !strstr(m, "fault") && !strstr(m, "FAULT") &&
        !getenv("FUZZ_STRICT")) {
        note_unsup(m);
        return FZ_UNSUP;
    }
    snprintf(failmsg, sizeof failmsg, "%s: error %d: %s", where, (int)st, m);
    return FZ_FAIL;
}

static fz_result run_realize(fz_case *c, int mode, const rdx_array *want, size_t vi)
{
    rdx_realize_options o;
    memset(&o, 0, sizeof o);
    o.raw = mode == M_RAW;
    if (mode == M_BEAM) {
        o.beam = 2;
        o.beam_steps = 2;
    }
    o.timeout_ms = 20000;
    /* the profile (a second run on the wave emulator) and the listings ride along */
    o.profile = c->seed % 3 == 0;
    o.keep_isa = c->seed % 2 == 0;
    const char *names[1] = { "n" };
    if (c->var) {
        o.var_names = names;
        o.var_values = &c->varvals[vi];
        o.nvars = 1;
    }
    rdx_array got[3];
    rdx_status st = rdx_tensor_realize_on(c->g, device, c->roots, c->nroots, &o, got, NULL);
    /* a dispatch over the emulated GPU's budgets is reported as a hang or a slow dispatch (a
     * fault) */
    if (st == RDX_ERR_TIMEOUT ||
        (st == RDX_ERR_FAULT &&
         (strstr(rdx_error_message(), "hang:") || strstr(rdx_error_message(), "slow dispatch:")))) {
        note_slow(c->seed, "(realize)");
        return FZ_UNSUP;
    }
    if (st)
        return classify_error(st, mode_names[mode]);
    for (size_t r = 0; r < c->nroots; r++)
        if (compare(c, vi, &want[r], &got[r], r, mode_names[mode], c->rootcls[r]))
            return FZ_FAIL;
    return FZ_OK;
}

/* ---- the direct path: own buffers, random OptOps, the wave emulator */

#define SLACK 256
static char opt_text[1024];

/* Random OptOps for a typed kernel: each candidate kept only when the prefix applies. */
static size_t rand_opts(rdx_ir_ctx *ctx, const rdx_uop *typed, uint64_t *s, rdx_opt *o, size_t cap)
{
    size_t n = 0;
    int want = 1 + (int)rn(s, 5);
    /* weighted: the lowered targets often; THREAD is refused by expand (a clean error) */
    static const rdx_axistype tg[] = {
        RDX_AXIS_LOCAL,  RDX_AXIS_LOCAL,        RDX_AXIS_LOCAL,        RDX_AXIS_UPCAST,
        RDX_AXIS_UPCAST, RDX_AXIS_UPCAST,       RDX_AXIS_UNROLL,       RDX_AXIS_UNROLL,
        RDX_AXIS_UNROLL, RDX_AXIS_GROUP_REDUCE, RDX_AXIS_GROUP_REDUCE, RDX_AXIS_REDUCE,
        RDX_AXIS_LOOP,   RDX_AXIS_GLOBAL,       RDX_AXIS_WARP,         RDX_AXIS_THREAD
    };
    static const int64_t amts[] = { 2, 3, 4, 5, 7, 8, 16, 32, 64, 128, 256 };
    const rdx_uop *cur = typed;
    for (int tries = 0; (int)n < want && tries < 40 && n < cap; tries++) {
        rdx_kaxis ax[RDX_CG_MAX_AXES];
        size_t na = 0;
        if (rdx_cg_axes(cur, ax, &na) || na == 0)
            break;
        rdx_opt cand;
        memset(&cand, 0, sizeof cand);
        cand.axis = (int32_t)rn(s, na);
        unsigned w = (unsigned)rn(s, 20);
        if (w < 13) {
            cand.op = RDX_OPTOP_SPLIT;
            cand.amount = amts[rn(s, 11)];
            if (ax[cand.axis].size > 0 && rn(s, 2)) { /* a divisor of the bound */
                int64_t sz = ax[cand.axis].size;
                for (int k = 0; k < 6; k++) {
                    int64_t a = amts[rn(s, 11)];
                    if (sz % a == 0 && a < sz) {
                        cand.amount = a;
                        break;
                    }
                }
            }
            cand.target = tg[rn(s, sizeof tg / sizeof *tg)];
            cand.top = rn(s, 4) == 0;
        } else if (w < 16) {
            cand.op = RDX_OPTOP_PADTO;
            cand.amount = amts[rn(s, 11)];
        } else if (w < 18) {
            cand.op = RDX_OPTOP_SWAP;
            cand.amount = (int64_t)rn(s, na);
        } else if (w < 19) {
            cand.op = RDX_OPTOP_NOLOCALS;
        } else {
            if (n)
                continue; /* TC must be the first */
            cand.op = RDX_OPTOP_TC;
            cand.amount = rn(s, 3) ? 0 : RDX_TC_PAD;
        }
        o[n] = cand;
        const rdx_uop *next;
        if (rdx_cg_apply_opts(ctx, typed, o, n + 1, &next) == RDX_OK) {
            n++;
            cur = next;
        }
    }
    return n;
}

/* FUZZ_OPTS="K:OPTS;K:OPTS..." sets kernel K's opts by hand (triage: which op of a finding
   matters); OPTS in rdx_opts_parse's form, e.g. "0:SPLIT(0,4,UPCAST) SPLIT(1,8,l)". */
static size_t env_opts(size_t kernel, rdx_opt *o, size_t cap)
{
    const char *e = getenv("FUZZ_OPTS");
    for (const char *p = e; p && *p;) {
        char *end;
        size_t k = (size_t)strtoul(p, &end, 10);
        if (*end != ':')
            break;
        p = end + 1;
        const char *semi = strchr(p, ';');
        size_t len = semi ? (size_t)(semi - p) : strlen(p), n = 0;
        if (k == kernel) {
            char *text = strndup(p, len);
            rdx_status st = text ? rdx_opts_parse(text, o, cap, &n) : RDX_ERR_NOMEM;
            free(text);
            if (st)
                fprintf(stderr, "FUZZ_OPTS: %s\n", rdx_error_message());
            return st ? 0 : n;
        }
        p += len + (semi != NULL);
    }
    return 0;
}

static int64_t eval_numel(const rdx_uop *e, const rdx_schedule *s, int64_t v)
{
    int64_t out;
    if (rdx_uop_const_int(e, &out))
        return out;
    rdx_value vals[8], r;
    for (size_t k = 0; k < s->nvars && k < 8; k++)
        vals[k].i = v;
    if (rdx_ir_eval(e, s->vars, vals, s->nvars, &r))
        return -1;
    return r.i;
}

static fz_result run_direct(fz_case *c, int mode, const rdx_array *want, size_t vi)
{
    rdx_ir_ctx *ctx = rdx_graph_ir(c->g);
    rdx_interp *ip = rdx_graph_interp(c->g);
    const char *where = mode_names[mode];
    rdx_schedule *s = NULL;
    rdx_status st = rdx_cg_schedule(ctx, c->roots, c->nroots, &s);
    if (st)
        return classify_error(st, "schedule");
    int64_t v = c->var ? c->varvals[vi] : 0;
    fz_result res = FZ_OK;
    uint8_t **mem = calloc(s->nbuffers, sizeof *mem);
    size_t *bytes = calloc(s->nbuffers, sizeof *bytes);
    for (size_t b = 0; b < s->nbuffers; b++) {
        const rdx_sched_buffer *sb = &s->buffers[b];
        int64_t ne = eval_numel(sb->numel, s, v);
        bytes[b] = (size_t)(ne < 0 ? 0 : ne) * rdx_dtype_itemsize(sb->dtype);
        size_t alloc = (bytes[b] + SLACK + 4095) & ~(size_t)4095;
        mem[b] = aligned_alloc(4096, alloc);
        memset(mem[b], 0xA5, alloc); /* garbage: a read before a write shows */
        if (sb->kind == RDX_SBUF_INPUT) {
            size_t nb = 0;
            const void *d = rdx_interp_bound(ip, sb->tensor, &nb);
            memset(mem[b], 0, bytes[b]);
            if (d)
                memcpy(mem[b], d, nb < bytes[b] ? nb : bytes[b]);
        }
    }
    opt_text[0] = 0;
    for (size_t k = 0; k < s->nkernels && res == FZ_OK; k++) {
        const rdx_sched_kernel *kn = &s->kernels[k];
        const rdx_uop *typed = NULL, *opt = NULL, *ko = NULL;
        rdx_opt o[16];
        size_t no = 0;
        st = rdx_cg_axis_types(ctx, kn->sink, &typed);
        if (!st) {
            if (getenv("FUZZ_OPTS"))
                no = env_opts(k, o, 16);
            else if (mode == M_HDIRECT)
                st = rdx_cg_heuristic(typed, o, 16, &no);
            else {
                uint64_t os = c->seed * 977 + k;
                no = rand_opts(ctx, typed, &os, o, 8);
            }
        }
        char ot[512];
        rdx_opts_format(o, no, ot, sizeof ot);
        size_t tl = strlen(opt_text);
        snprintf(opt_text + tl, sizeof opt_text - tl, "k%zu: %s; ", k, ot);
        if (!st)
            st = rdx_cg_apply_opts(ctx, typed, o, no, &opt);
        if (!st)
            st = rdx_cg_expand(ctx, opt, &ko);
        if (!st && getenv("FUZZ_PRINT")) { /* triage: the kernel after opts and after expand */
            const rdx_uop *both[2] = { opt, ko };
            for (int q = 0; q < 2; q++) {
                char *t = NULL;
                if (!rdx_ir_print(&both[q], 1, 0, &t))
                    printf("; kernel %zu %s\n%s\n", k, q ? "expanded" : "optimized", t);
                free(t);
            }
        }
        if (st) {
            res = classify_error(st, "optimize");
            break;
        }
        rdx_codegen_kernel *ck = NULL;
        st = rdx_codegen_compile(ctx, ko, NULL, &ck);
        if (st) {
            res = classify_error(st, "compile");
            break;
        }
        uint64_t ptrs[64] = { 0 }, values[64] = { 0 };
        int64_t kv[8];
        size_t nkv = 0;
        rdx_emu_buffer eb[64];
        size_t neb = 0;
        for (size_t a = 0; a < ck->nargs && res == FZ_OK; a++) {
            const rdx_codegen_arg *ar = &ck->args[a];
            if (ar->kind == RDX_CG_ARG_BUFFER && ar->slot >= 0 && ar->slot < (int64_t)kn->nparams &&
                neb < 64) {
                uint32_t b = kn->params[ar->slot];
                ptrs[ar->slot] = (uint64_t)(uintptr_t)mem[b];
                int ro = (uint32_t)ar->slot >= kn->nouts;
                eb[neb++] =
                    (rdx_emu_buffer){ mem[b], bytes[b] + SLACK, ro ? RDX_EMU_READ : RDX_EMU_RW };
            } else if (ar->kind == RDX_CG_ARG_VAR && nkv < 8) {
                kv[nkv++] = v;
            } else {
                snprintf(failmsg, sizeof failmsg, "%s: kernel %zu: unexpected argument %zu", where,
                         k, a);
                res = FZ_FAIL;
            }
        }
        uint8_t *kernarg = calloc(1, ck->kernarg_size + 16);
        rdx_emu_launch l;
        memset(&l, 0, sizeof l);
        l.kernarg = kernarg;
        l.kernarg_size = ck->kernarg_size;
        l.bufs = eb;
        l.nbufs = neb;
        l.budget = 30000000;
        l.dispatch_budget = FZ_DISPATCH_BUDGET;
        if (res == FZ_OK) {
            rdx_codegen_pack_args(ck, ptrs, values, kv, kernarg);
            st = rdx_codegen_launch(ck, kv, nkv, l.grid, l.wg);
            if (!st)
                st = rdx_emu_run_codeobj(emu, ck->code_object, ck->code_object_size, NULL, &l);
            if (st == RDX_ERR_TIMEOUT) {
                /* over the budget: slow (e.g. a big reduction left serial), not wrong */
                note_slow(c->seed, kn->name);
                res = FZ_UNSUP;
            } else if (st) {
                snprintf(failmsg, sizeof failmsg, "%s: kernel %zu (%s) run: error %d: %s", where, k,
                         kn->name, (int)st, rdx_error_message());
                res = FZ_FAIL;
            }
        }
        free(kernarg);
        rdx_codegen_kernel_free(ck);
        /* written buffers: the tail past the end untouched */
        for (uint32_t p = 0; p < kn->nouts && res == FZ_OK; p++) {
            uint8_t *m = mem[kn->params[p]];
            size_t nb = bytes[kn->params[p]];
            for (size_t i = 0; i < SLACK; i++)
                if (m[nb + i] != 0xA5) {
                    snprintf(failmsg, sizeof failmsg,
                             "%s: kernel %zu (%s) wrote past the end of param %u (%zu bytes) at "
                             "+%zu",
                             where, k, kn->name, p, nb, i);
                    res = FZ_FAIL;
                    break;
                }
        }
    }
    for (size_t r = 0; r < c->nroots && res == FZ_OK; r++) {
        size_t b = s->outputs[r];
        rdx_array got = want[r];
        got.data = mem[b];
        if ((size_t)want[r].numel * rdx_dtype_itemsize(want[r].dtype) != bytes[b]) {
            snprintf(failmsg, sizeof failmsg, "%s: output %zu: %zu bytes, expected %lld elements",
                     where, r, bytes[b], (long long)want[r].numel);
            res = FZ_FAIL;
        } else if (compare(c, vi, &want[r], &got, r, where, c->rootcls[r])) {
            res = FZ_FAIL;
        }
    }
    for (size_t b = 0; b < s->nbuffers; b++)
        free(mem[b]);
    free(mem);
    free(bytes);
    rdx_schedule_free(s);
    return res;
}

/* Run a built case in its mode (all variable values); FZ_FAIL leaves failmsg. */
static fz_result run_case(fz_case *c)
{
    int mode = cur_mode_override >= 0 ? cur_mode_override : c->mode;
    fz_result worst = FZ_OK;
    tally_mode = mode;
    for (size_t vi = 0; vi < (c->var ? c->nvals : 1); vi++) {
        shadow_reset(); /* built on demand by compare */
        if (c->var)
            bind_sym(c, c->varvals[vi]);
        rdx_array want[3];
        rdx_status st = rdx_graph_realize(c->g, c->roots, c->nroots, want);
        if (st) {
            /* the interpreter refuses (e.g. an op it lacks): not a codegen finding */
            note_unsup(rdx_error_message());
            return FZ_UNSUP;
        }
        fz_result r =
            mode <= M_BEAM ? run_realize(c, mode, want, vi) : run_direct(c, mode, want, vi);
        if (r == FZ_FAIL) {
            if (c->var) {
                size_t l = strlen(failmsg);
                snprintf(failmsg + l, sizeof failmsg - l, " [n = %lld]", (long long)c->varvals[vi]);
            }
            return FZ_FAIL;
        }
        if (r == FZ_UNSUP)
            worst = FZ_UNSUP;
    }
    return worst;
}

/* ------------------------------------------------------------ reporting */

static const char *outdir = "fuzz-out";

static void write_repro(fz_case *c, const char *msg)
{
    char dir[512], path[600];
    snprintf(dir, sizeof dir, "%s/seed-%llu", outdir, (unsigned long long)c->seed);
    mkdir(outdir, 0755);
    mkdir(dir, 0755);
    char *txt = NULL;
    rdx_ir_print(c->roots, c->nroots, 0, &txt);
    snprintf(path, sizeof path, "%s/graph.uop", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        free(txt);
        return;
    }
    int mode = cur_mode_override >= 0 ? cur_mode_override : c->mode;
    fprintf(f, "; fuzz_realize seed %llu, mode %s, %d ops (max %d), root %d\n",
            (unsigned long long)c->seed, mode_names[mode], c->nops, c->maxops, c->only_root);
    fprintf(f, "; ops: %s\n", c->log);
    fprintf(f, "; finding: %s\n", msg);
    if (mode == M_OPTS || mode == M_HDIRECT)
        fprintf(f, "; opts: %s\n", opt_text);
    fprintf(f, "; replay: build/fuzz-realize --seed %llu --count 1 --maxops %d --root %d -v\n",
            (unsigned long long)c->seed, c->maxops, c->only_root);
    fprintf(f, "; rdx realize %s --check%s", path,
            mode == M_RAW    ? " --raw"
            : mode == M_BEAM ? " --beam 2"
                             : "");
    /* inputs */
    for (size_t r = 0; r < c->nroots; r++) {
        const rdx_uop **order = NULL;
        size_t n = 0;
        if (rdx_ir_toposort(c->roots[r], &order, &n))
            continue;
        for (size_t i = 0; i < n; i++) {
            if (order[i]->op != RDX_OP_BUFFER)
                continue;
            size_t nb = 0;
            const void *d = rdx_interp_bound(rdx_graph_interp(c->g), order[i], &nb);
            if (!d)
                continue;
            char ip[640];
            snprintf(ip, sizeof ip, "%s/in%lld.bin", dir, (long long)order[i]->arg.i);
            FILE *b = fopen(ip, "wb");
            if (b) {
                fwrite(d, 1, nb, b);
                fclose(b);
            }
            if (!strstr(txt ? txt : "", "") || 1)
                fprintf(f, " -i %lld=%s", (long long)order[i]->arg.i, ip);
        }
        free(order);
    }
    if (c->var)
        fprintf(f, " -v n=<value from the finding>");
    fprintf(f, "\n%s", txt ? txt : "");
    fclose(f);
    free(txt);
    printf("    reproducer: %s\n", path);
}

/* Shrink a failing case: the shortest op prefix that still fails, then one root. */
static void reduce_and_report(uint64_t seed, const char *first_msg)
{
    char msg[2048];
    snprintf(msg, sizeof msg, "%s", first_msg);
    fz_case c;
    int best_ops = 0, best_root = -1;
    gen(&c, seed, 0, -1);
    int full_ops = c.nops;
    rdx_graph_destroy(c.g);
    for (int k = 1; k < full_ops; k++) {
        gen(&c, seed, k, -1);
        fz_result r = run_case(&c);
        rdx_graph_destroy(c.g);
        if (r == FZ_FAIL) {
            best_ops = k;
            snprintf(msg, sizeof msg, "%s", failmsg);
            break;
        }
    }
    gen(&c, seed, best_ops, -1);
    size_t nr = c.nroots;
    rdx_graph_destroy(c.g);
    for (int r = 0; r < (int)nr && nr > 1; r++) {
        gen(&c, seed, best_ops, r);
        fz_result res = run_case(&c);
        rdx_graph_destroy(c.g);
        if (res == FZ_FAIL) {
            best_root = r;
            snprintf(msg, sizeof msg, "%s", failmsg);
            break;
        }
    }
    gen(&c, seed, best_ops, best_root);
    run_case(&c); /* for opt_text */
    printf("    reduced: %d ops, root %d: %s\n", c.nops, best_root, msg);
    write_repro(&c, msg);
    rdx_graph_destroy(c.g);
}

/* ------------------------------------------------------------ a reproducer file */

#ifdef RDX_FUZZ_STANDALONE /* (the libFuzzer build has no --uop) */

/* Load FILE (.uop text) as a case: its returns are the roots, BUFFER slot k takes the
   bytes of in<k>.bin next to it when present (else random data), the DEFINE_VAR (at
   most one) the value var.  0 on success. */
static int load_uop(fz_case *c, const char *file, int64_t var, int mode)
{
    memset(c, 0, sizeof *c);
    c->only_root = -1;
    c->mode = mode < 0 ? M_OPTS : mode;
    rdx_graph_create(&c->g, NULL);
    size_t len = 0;
    FILE *f = fopen(file, "rb");
    char *text = NULL;
    if (f) {
        fseek(f, 0, SEEK_END);
        len = (size_t)ftell(f);
        fseek(f, 0, SEEK_SET);
        text = malloc(len + 1);
        if (text && fread(text, 1, len, f) != len)
            len = 0;
        fclose(f);
    }
    const rdx_uop **roots = NULL;
    size_t nroots = 0;
    if (!text || rdx_ir_parse(rdx_graph_ir(c->g), file, text, len, &roots, &nroots)) {
        fprintf(stderr, "fuzz_realize: %s: %s\n", file, text ? rdx_error_message() : "unreadable");
        free(text);
        return 1;
    }
    free(text);
    for (size_t r = 0; r < nroots && r < 3; r++)
        c->roots[c->nroots++] = roots[r];
    free(roots);
    char dir[512];
    snprintf(dir, sizeof dir, "%s", file);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[1] = 0;
    else
        dir[0] = 0;
    uint64_t s = 1;
    for (size_t r = 0; r < c->nroots; r++) {
        const rdx_uop **order = NULL;
        size_t n = 0;
        if (rdx_ir_toposort(c->roots[r], &order, &n))
            continue;
        for (size_t i = 0; i < n; i++) {
            const rdx_uop *u = order[i];
            if (u->op == RDX_OP_DEFINE_VAR)
                c->var = u;
            if (u->op != RDX_OP_BUFFER || rdx_interp_bound(rdx_graph_interp(c->g), u, NULL))
                continue;
            char path[600];
            snprintf(path, sizeof path, "%sin%lld.bin", dir, (long long)u->arg.i);
            FILE *b = fopen(path, "rb");
            int64_t ne = 1;
            for (uint32_t d = 0; d < u->ndim; d++) {
                int64_t v = 0;
                if (!rdx_uop_const_int(u->shape[d], &v))
                    v = var;
                ne *= v;
            }
            size_t nb = (size_t)ne * rdx_dtype_itemsize(u->dtype);
            uint8_t *data = b ? calloc(1, nb + 1) : rand_data(&s, u->dtype, ne, 0);
            if (b) {
                size_t got = fread(data, 1, nb, b);
                fclose(b);
                if (got != nb)
                    fprintf(stderr, "fuzz_realize: %s has %zu bytes, expected %zu\n", path, got,
                            nb);
            }
            rdx_interp_bind(rdx_graph_interp(c->g), u, data, nb);
            free(data);
        }
        free(order);
    }
    if (c->var) {
        c->varvals[0] = var;
        c->nvals = 1;
    }
    return 0;
}

#endif

/* ------------------------------------------------------------ drivers */

static void on_signal(int sig)
{
    char buf[128];
    int n = snprintf(buf, sizeof buf, "\nfuzz_realize: signal %d in seed %llu\n", sig,
                     (unsigned long long)current_seed);
    if (n > 0)
        (void)!write(2, buf, (size_t)n);
    signal(sig, SIG_DFL);
    raise(sig);
}

static int setup(void)
{
    if (device)
        return 0;
    rdx_device_options o;
    memset(&o, 0, sizeof o);
    o.kind = RDX_DEVICE_AUTO;
    o.quiet = true;
    o.emu_dispatch_budget = FZ_DISPATCH_BUDGET;
    if (rdx_device_open(&o, &device) || rdx_emu_create("gfx1100", &emu)) {
        fprintf(stderr, "fuzz_realize: %s\n", rdx_error_message());
        return 1;
    }
    signal(SIGSEGV, on_signal);
    signal(SIGABRT, on_signal);
    signal(SIGBUS, on_signal);
    signal(SIGFPE, on_signal);
    return 0;
}

/* One case: 0 ok/unsupported, 1 finding (reduced and reported). */
static int one(uint64_t seed, int maxops, int only_root, int reduce)
{
    current_seed = seed;
    /* FUZZ_TEST_STALL=S: case S never ends (as a dispatch nothing bounds), for the test of
       the supervisor's time limits (tests/realize/fuzz_deadline_test.c) */
    const char *stall = getenv("FUZZ_TEST_STALL");
    if (stall && strtoull(stall, NULL, 0) == seed)
        for (;;)
            pause();
    fz_case c;
    gen(&c, seed, maxops, only_root);
    if (verbose)
        printf("seed %llu: %s, %d ops, %zu roots%s: %s\n", (unsigned long long)seed,
               mode_names[cur_mode_override >= 0 ? cur_mode_override : c.mode], c.nops, c.nroots,
               c.var ? " (symbolic)" : "", c.log);
    fz_result r = run_case(&c);
    shadow_reset();
    if (verbose && (c.mode == M_OPTS || c.mode == M_HDIRECT || cur_mode_override >= M_OPTS))
        printf("    opts: %s\n", opt_text);
    if (r == FZ_FAIL) {
        printf("FINDING seed %llu (%s): %s\n", (unsigned long long)seed,
               mode_names[cur_mode_override >= 0 ? cur_mode_override : c.mode], failmsg);
        if (ctl_fd >= 0) /* counted now: the reduction may outlive the deadline */
            ctl_send('F', seed, NULL);
        if (reduce) {
            char m[2048];
            snprintf(m, sizeof m, "%s", failmsg);
            rdx_graph_destroy(c.g);
            reduce_and_report(seed, m);
            fflush(stdout);
            return 1;
        }
    }
    rdx_graph_destroy(c.g);
    fflush(stdout);
    return r == FZ_FAIL;
}

#ifdef RDX_FUZZ_STANDALONE
/* ------------------------------------------------------------ the supervisor
 *
 * --time is a deadline and --case-time a bound on one case, whatever the case does (a
 * dispatch can run for minutes with every wave under its instruction budget; BEAM and
 * compiling take what they take).  So the cases run in a worker process (forked before
 * any device is opened) that reports over a pipe: "B seed" a case begins, "E seed" it
 * ended, "F seed" a finding (counted at once: its reduction may be cut), "U seed key" a
 * refusal, "S seed" over the emulator's budget.  The parent only waits: a case over
 * --case-time is killed with its worker and reported SLOW (with its replay line), the next
 * worker goes on from the next seed; at the deadline the worker is killed and the case it
 * was in is not counted; a worker killed by a signal in a case is a finding (a crash).
 */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

typedef struct fz_run {
    uint64_t seed;     /* the first seed */
    long count;        /* cases to run; -1: until the deadline */
    double limit;      /* the whole run, seconds (0: no deadline) */
    double case_limit; /* one case, seconds (0: none) */
    int maxops, root;
} fz_run;

/* The summary; found and slow cases by their seeds (the exit status is the caller's). */
static void print_summary(long n, uint64_t seed, double el, long found, int cut, uint64_t cut_seed)
{
    printf("fuzz_realize: %ld cases from seed %llu in %.1f s, %ld findings\n", n,
           (unsigned long long)seed, el, found);
    if (nslow) {
        printf("  %u slow cases (over the emulator budget or the per-case time limit), seeds:",
               nslow);
        for (unsigned k = 0; k < nslow && k < SLOW_KEEP; k++)
            printf(" %llu", (unsigned long long)slow_seeds[k]);
        printf("%s\n", nslow > SLOW_KEEP ? " ..." : "");
    }
    if (cut)
        printf("  stopped in seed %llu (not counted; replay: --seed %llu --count 1)\n",
               (unsigned long long)cut_seed, (unsigned long long)cut_seed);
    for (size_t k = 0; k < nunsup; k++)
        printf("  refused %5u x (first: seed %llu): %s\n", unsup_counts[k],
               (unsigned long long)unsup_seeds[k], unsup_msgs[k]);
    fflush(stdout);
}

static volatile sig_atomic_t stop_flag;

static void on_stop(int sig)
{
    (void)sig;
    stop_flag = 1;
}

/* The worker: cases seed0, seed0 + 1, ... (count of them; -1: no end), each reported on fd. */
static void worker(int fd, uint64_t seed0, long count, const fz_run *r)
{
    ctl_fd = fd;
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* the parent killed outright: no orphan runs on */
    signal(SIGINT, SIG_IGN);          /* the parent stops the run */
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    if (setup())
        _exit(3);
    for (long n = 0; count < 0 || n < count; n++) {
        uint64_t sd = seed0 + (uint64_t)n;
        ctl_send('B', sd, NULL);
        one(sd, r->maxops, r->root, 1);
        ctl_send('E', sd, NULL);
    }
    fflush(stdout);
    rdx_emu_destroy(emu);
    rdx_device_close(device);
    _exit(0);
}

/* Run r under the supervisor; returns the exit status (0 clean, 1 findings, 2 error). */
static int supervise(const fz_run *r)
{
    double t0 = now_s(), deadline = r->limit > 0 ? t0 + r->limit : INFINITY;
    long done = 0, found = 0;
    uint64_t next = r->seed;
    int cut = 0, err = 0;
    uint64_t cut_seed = 0;
    signal(SIGINT, on_stop);
    signal(SIGTERM, on_stop);
    signal(SIGPIPE, SIG_IGN);
    while (!stop_flag && !cut && !err && (r->count < 0 || done < r->count) && now_s() < deadline) {
        int p[2];
        if (pipe(p)) {
            perror("fuzz_realize: pipe");
            return 2;
        }
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid == 0) {
            close(p[0]);
            worker(p[1], next, r->count < 0 ? -1 : r->count - done, r);
        }
        close(p[1]);
        if (pid < 0) {
            perror("fuzz_realize: fork");
            close(p[0]);
            return 2;
        }
        char buf[4096];
        size_t len = 0;
        int in_case = 0, reducing = 0, eof = 0;
        uint64_t cur = 0;
        double case_end = INFINITY;
        for (;;) {
            double t = now_s(), wake = in_case && case_end < deadline ? case_end : deadline;
            if (stop_flag || t >= wake)
                break;
            struct pollfd pf = { p[0], POLLIN, 0 };
            int ms = wake - t > 60 ? 60000 : (int)((wake - t) * 1000) + 1; /* then again */
            int pr = poll(&pf, 1, ms);
            if (pr <= 0)
                continue; /* time or a signal: checked above */
            ssize_t k = read(p[0], buf + len, sizeof buf - 1 - len);
            if (k <= 0) {
                eof = 1;
                break;
            }
            len += (size_t)k;
            char *line = buf, *nl;
            while ((nl = memchr(line, '\n', (size_t)(buf + len - line)))) {
                *nl = 0;
                char *rest = NULL;
                uint64_t sd = strtoull(line + 1, &rest, 10);
                const char *text = rest && *rest == ' ' ? rest + 1 : "";
                switch (line[0]) {
                case 'B':
                    in_case = 1, reducing = 0, cur = sd;
                    case_end = r->case_limit > 0 ? now_s() + r->case_limit : INFINITY;
                    break;
                case 'E':
                    in_case = 0, done++, next = sd + 1;
                    break;
                case 'F': /* the reduction runs several cases: ten times the limit */
                    found++, reducing = 1;
                    if (r->case_limit > 0)
                        case_end = now_s() + 10 * r->case_limit;
                    break;
                case 'U':
                    tally_unsup(text, sd);
                    break;
                case 'S':
                    tally_slow(sd);
                    break;
                default:
                    break;
                }
                line = nl + 1;
            }
            len = (size_t)(buf + len - line);
            memmove(buf, line, len);
            if (len == sizeof buf - 1) /* no line end in a full buffer: not ours */
                len = 0;
        }
        if (!eof)
            kill(pid, SIGKILL);
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        close(p[0]);
        fflush(stdout);
        if (!in_case) {
            if (eof && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
                fprintf(stderr, "fuzz_realize: the worker failed outside a case (status %d)\n",
                        status);
                err = 1;
            }
            continue; /* its count done, or the deadline between two cases */
        }
        double t = now_s();
        if (eof) { /* died in the case: a crash (on_signal printed the signal) */
            printf("FINDING seed %llu: the case crashed (%s %d); replay: build/fuzz-realize "
                   "--seed %llu --count 1 --case-time 0 -v\n",
                   (unsigned long long)cur, WIFSIGNALED(status) ? "signal" : "exit status",
                   WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
                   (unsigned long long)cur);
            found += !reducing;
            done++, next = cur + 1;
        } else if (stop_flag || t >= deadline) {
            cut = 1, cut_seed = cur;
        } else if (reducing) {
            printf("    the reduction of seed %llu ran over %.0f s and was stopped (the finding "
                   "stands; replay: build/fuzz-realize --seed %llu --count 1 --case-time 0 -v)\n",
                   (unsigned long long)cur, 10 * r->case_limit, (unsigned long long)cur);
            done++, next = cur + 1;
        } else {
            printf("SLOW seed %llu: the case ran over its time limit (%.0f s) and was stopped; "
                   "replay: build/fuzz-realize --seed %llu --count 1 --case-time 0 -v\n",
                   (unsigned long long)cur, r->case_limit, (unsigned long long)cur);
            tally_slow(cur);
            done++, next = cur + 1;
        }
    }
    print_summary(done, r->seed, now_s() - t0, found, cut, cut_seed);
    return err ? 2 : found != 0;
}

int main(int argc, char **argv)
{
    uint64_t seed = (uint64_t)time(NULL);
    long count = -1, maxops = 0, root = -1;
    const char *uop_file = NULL;
    int64_t uop_var = 1;
    double limit = 0, case_limit = 60;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--seed") && v)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(a, "--count") && v)
            count = strtol(argv[++i], NULL, 0);
        else if (!strcmp(a, "--time") && v)
            limit = strtod(argv[++i], NULL);
        else if (!strcmp(a, "--case-time") && v)
            case_limit = strtod(argv[++i], NULL);
        else if (!strcmp(a, "--out") && v)
            outdir = argv[++i];
        else if (!strcmp(a, "--maxops") && v)
            maxops = strtol(argv[++i], NULL, 0);
        else if (!strcmp(a, "--root") && v)
            root = strtol(argv[++i], NULL, 0);
        else if (!strcmp(a, "--mode") && v) {
            const char *m = argv[++i];
            for (int k = 0; k < M_COUNT; k++)
                if (!strcmp(m, mode_names[k]))
                    cur_mode_override = k;
            if (cur_mode_override < 0) {
                fprintf(stderr, "fuzz_realize: unknown mode '%s'\n", m);
                return 2;
            }
        } else if (!strcmp(a, "--dtype") && v) {
            const char *m = argv[++i];
            for (size_t k = 0; k < NDTS; k++)
                if (!strcmp(m, rdx_dtype_str(D(all_dts[k]), (char[24]){ 0 }, 24)))
                    force_dtype = (int)all_dts[k];
            if (force_dtype < 0) {
                fprintf(stderr, "fuzz_realize: unknown dtype '%s'\n", m);
                return 2;
            }
        } else if (!strcmp(a, "--uop") && v) {
            uop_file = argv[++i];
        } else if (!strcmp(a, "--var") && v) {
            uop_var = strtoll(argv[++i], NULL, 0);
        } else if (!strcmp(a, "-v"))
            verbose = 1;
        else {
            fprintf(
                stderr,
                "usage: fuzz-realize [--seed S] [--count N] [--time SEC] [--case-time SEC]\n"
                "                    [--out DIR]\n"
                "                    [--mode raw|heur|beam|opts|hdirect] [--maxops K]\n"
                "                    [--root R] [--dtype NAME] [-v]\n"
                "       fuzz-realize --uop FILE [--var V] [--mode M]   (FUZZ_OPTS=... for opts)\n");
            return !strcmp(a, "--help") ? 0 : 2;
        }
    }
    if (count < 0 && limit <= 0)
        count = 100;
    if (!uop_file && (limit > 0 || case_limit > 0)) {
        fz_run r = { seed, count, limit, case_limit, (int)maxops, (int)root };
        return supervise(&r);
    }
    if (setup())
        return 2;
    if (uop_file) { /* run a reproducer file once in the mode given (default opts) */
        fz_case c;
        if (load_uop(&c, uop_file, uop_var, cur_mode_override))
            return 2;
        cur_mode_override = c.mode;
        fz_result r = run_case(&c);
        shadow_reset();
        if (c.mode >= M_OPTS)
            printf("opts: %s\n", opt_text);
        printf("%s: %s\n", uop_file, r == FZ_FAIL ? failmsg : r == FZ_UNSUP ? "refused" : "ok");
        rdx_graph_destroy(c.g);
        rdx_emu_destroy(emu);
        rdx_device_close(device);
        return r == FZ_FAIL;
    }
    /* --case-time 0 without --time: every case in this process (a debugger sees it) */
    double t0 = now_s();
    long n = 0, found = 0;
    for (; n < count; n++)
        found += one(seed + (uint64_t)n, (int)maxops, (int)root, 1);
    print_summary(n, seed, now_s() - t0, found, 0, 0);
    rdx_emu_destroy(emu);
    rdx_device_close(device);
    return found != 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (setup())
        abort();
    uint64_t seed = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; i++)
        seed = (seed ^ data[i]) * 0x100000001b3ull;
    if (one(seed, 0, -1, 1))
        abort();
    return 0;
}
#endif
