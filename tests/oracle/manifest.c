/*
 * tests/oracle/manifest.c — the corpus manifest (tests/data/emu/kernels.def)
 * as a table, element types, argument layout and deterministic input buffers.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/oracle/oracle_int.h"

/* ---- the manifest ---------------------------------------------------------- */

#define GRID(x, y, z)    { x, y, z }
#define BLOCK(x, y, z)   { x, y, z }
#define ZERO             { RDX_ORACLE_INIT_ZERO, 0, 0, 0 }
#define FILL(v)          { RDX_ORACLE_INIT_FILL, 0, v, 0 }
#define IOTA(a, b)       { RDX_ORACLE_INIT_IOTA, 0, a, b }
#define RAND(s, a, b)    { RDX_ORACLE_INIT_RAND, s, a, b }
#define IRAND(s, a, b)   { RDX_ORACLE_INIT_IRAND, s, a, b }
#define LOGRAND(s, a, b) { RDX_ORACLE_INIT_LOGRAND, s, a, b }
#define EDGE(s, a, b)    { RDX_ORACLE_INIT_EDGE, s, a, b }
#define IN               { RDX_ORACLE_CMP_NONE, 0 }
#define EXACT            { RDX_ORACLE_CMP_EXACT, 0 }
#define ULP(n)           { RDX_ORACLE_CMP_ULP, n }
#define ABS(e)           { RDX_ORACLE_CMP_ABS, e }
#define BUF(t, n, init_, cmp_)       \
    { .kind = RDX_ORACLE_ARG_BUFFER, \
      .type = RDX_ORACLE_##t,        \
      .count = (n),                  \
      .init = init_,                 \
      .cmp = cmp_ }
#define SCALAR(t, v)                 \
    { .kind = RDX_ORACLE_ARG_SCALAR, \
      .type = RDX_ORACLE_##t,        \
      .ival = (int64_t)(v),          \
      .fval = (double)(v) }
#define K(id_, kern_, file_, flags_, grid_, block_, ...)                                  \
    { .id = #id_,                                                                         \
      .kernel = #kern_,                                                                   \
      .file = file_,                                                                      \
      .flags = (flags_),                                                                  \
      .grid = grid_,                                                                      \
      .block = block_,                                                                    \
      .nargs = (int)(sizeof((rdx_oracle_arg[]){ __VA_ARGS__ }) / sizeof(rdx_oracle_arg)), \
      .args = { __VA_ARGS__ } },

const rdx_oracle_kernel rdx_oracle_kernels[] = {
#include "tests/data/emu/kernels.def"
};
const int rdx_oracle_kernel_count = (int)(sizeof rdx_oracle_kernels / sizeof rdx_oracle_kernels[0]);

#undef K
#undef BUF
#undef SCALAR
#undef GRID
#undef BLOCK
#undef ZERO
#undef FILL
#undef IOTA
#undef RAND
#undef IRAND
#undef LOGRAND
#undef EDGE
#undef IN
#undef EXACT
#undef ULP
#undef ABS

const char *const rdx_oracle_opts[RDX_ORACLE_NOPT] = { "-O0", "-O2", "-O3" };

const rdx_oracle_kernel *rdx_oracle_find(const char *id)
{
    for (int i = 0; i < rdx_oracle_kernel_count; i++)
        if (strcmp(rdx_oracle_kernels[i].id, id) == 0)
            return &rdx_oracle_kernels[i];
    return NULL;
}

/* ---- element types --------------------------------------------------------- */

static const struct {
    const char *name, *cname;
    size_t size;
    int is_float;
} type_info[] = {
#define RDX_ORACLE_TYPE_INFO(name, cname, size, isf) { #name, cname, size, isf },
    RDX_ORACLE_TYPES(RDX_ORACLE_TYPE_INFO)
#undef RDX_ORACLE_TYPE_INFO
};

size_t rdx_oracle_type_size(rdx_oracle_type t)
{
    return type_info[t].size;
}
const char *rdx_oracle_type_cname(rdx_oracle_type t)
{
    return type_info[t].cname;
}
int rdx_oracle_type_is_float(rdx_oracle_type t)
{
    return type_info[t].is_float;
}
const char *rdx_oracle_type_name(rdx_oracle_type t)
{
    return type_info[t].name;
}

uint32_t rdx_oracle_explicit_layout(const rdx_oracle_kernel *k, uint32_t *offsets)
{
    uint32_t off = 0;
    for (int a = 0; a < k->nargs; a++) {
        uint32_t size = k->args[a].kind == RDX_ORACLE_ARG_BUFFER
                            ? 8u
                            : (uint32_t)rdx_oracle_type_size(k->args[a].type);
        off = (off + size - 1) / size * size;
        offsets[a] = off;
        off += size;
    }
    return off;
}

/* ---- deterministic inputs ---------------------------------------------------- */

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform double in [0, 1). */
static double unit(uint64_t *s)
{
    return (double)(splitmix64(s) >> 11) * 0x1p-53;
}

static void store_int(rdx_oracle_type t, void *p, size_t i, uint64_t v)
{
    switch (rdx_oracle_type_size(t)) {
    case 1:
        ((uint8_t *)p)[i] = (uint8_t)v;
        break;
    case 2:
        ((uint16_t *)p)[i] = (uint16_t)v;
        break;
    case 4:
        ((uint32_t *)p)[i] = (uint32_t)v;
        break;
    default:
        ((uint64_t *)p)[i] = v;
        break;
    }
}

static void store_float(rdx_oracle_type t, void *p, size_t i, double v)
{
    switch (t) {
    case RDX_ORACLE_F16:
        ((uint16_t *)p)[i] = rdx_oracle_f32_to_f16((float)v);
        break;
    case RDX_ORACLE_BF16:
        ((uint16_t *)p)[i] = rdx_oracle_f32_to_bf16((float)v);
        break;
    case RDX_ORACLE_F32:
        ((float *)p)[i] = (float)v;
        break;
    default:
        ((double *)p)[i] = v;
        break;
    }
}

/* Store an integral double in an integer element (two's complement wrap). */
static void store_int_value(rdx_oracle_type t, void *p, size_t i, double v)
{
    uint64_t u = v < 0 ? (uint64_t)(int64_t)v : v >= 0x1p63 ? (uint64_t)v : (uint64_t)(int64_t)v;
    store_int(t, p, i, u);
}

/* The edge values of an integer type as raw bits. */
static uint64_t int_edge(rdx_oracle_type t, uint64_t r)
{
    int bits = (int)rdx_oracle_type_size(t) * 8;
    uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    uint64_t smin = 1ull << (bits - 1);
    const uint64_t e[] = { 0,        1,        mask,     smin,
                           smin - 1, smin + 1, mask - 1, 0x5555555555555555ull & mask,
                           2 };
    return e[r % (sizeof e / sizeof e[0])] & mask;
}

static double float_edge(rdx_oracle_type t, uint64_t r)
{
    double tiny = t == RDX_ORACLE_F16    ? 0x1p-24
                  : t == RDX_ORACLE_F64  ? 0x1p-1074
                  : t == RDX_ORACLE_BF16 ? 0x1p-133
                                         : 0x1p-149;
    double minn = t == RDX_ORACLE_F16 ? 0x1p-14 : t == RDX_ORACLE_F64 ? 0x1p-1022 : 0x1p-126;
    double maxf = t == RDX_ORACLE_F16    ? 65504.0
                  : t == RDX_ORACLE_F64  ? 0x1.fffffffffffffp+1023
                  : t == RDX_ORACLE_BF16 ? 0x1.fep127
                                         : 0x1.fffffep127;
    const double e[] = { 0.0,       -0.0, 1.0,   -1.0, INFINITY, -INFINITY, NAN,        tiny,
                         -tiny * 3, minn, -minn, maxf, -maxf,    0.5,       minn - tiny };
    return e[r % (sizeof e / sizeof e[0])];
}

static void fill(const rdx_oracle_arg *a, void *p)
{
    rdx_oracle_type t = a->type;
    const rdx_oracle_init *in = &a->init;
    uint64_t s = 0x243f6a8885a308d3ull ^ ((uint64_t)in->seed * 0x9e3779b97f4a7c15ull);
    int fl = rdx_oracle_type_is_float(t);
    for (size_t i = 0; i < a->count; i++) {
        switch (in->kind) {
        case RDX_ORACLE_INIT_ZERO:
            store_int(t, p, i, 0);
            break;
        case RDX_ORACLE_INIT_FILL:
            if (fl)
                store_float(t, p, i, in->a);
            else
                store_int_value(t, p, i, in->a);
            break;
        case RDX_ORACLE_INIT_IOTA:
            if (fl)
                store_float(t, p, i, in->a + (double)i * in->b);
            else
                store_int_value(t, p, i, in->a + (double)i * in->b);
            break;
        case RDX_ORACLE_INIT_IRAND: {
            double span = floor(in->b) - ceil(in->a) + 1;
            double v = ceil(in->a) + floor(unit(&s) * span);
            if (fl)
                store_float(t, p, i, v);
            else
                store_int_value(t, p, i, v);
            break;
        }
        case RDX_ORACLE_INIT_LOGRAND:
            store_float(t, p, i, exp2(in->a + unit(&s) * (in->b - in->a)));
            break;
        case RDX_ORACLE_INIT_RAND:
        case RDX_ORACLE_INIT_EDGE: {
            uint64_t r = splitmix64(&s);
            if (in->kind == RDX_ORACLE_INIT_EDGE && (r & 3) == 0) {
                if (fl)
                    store_float(t, p, i, float_edge(t, r >> 8));
                else
                    store_int(t, p, i, int_edge(t, r >> 8));
                break;
            }
            if (fl) {
                store_float(t, p, i, in->a + unit(&s) * (in->b - in->a));
            } else if (in->b - in->a >= 0x1p53) {
                /* a (nearly) full 64-bit range: raw bits, signed or not */
                store_int(t, p, i, splitmix64(&s));
            } else {
                uint64_t span = (uint64_t)(in->b - in->a) + 1;
                store_int_value(t, p, i, in->a + (double)(splitmix64(&s) % span));
            }
            break;
        }
        }
    }
}

void rdx_oracle_make_buffers(const rdx_oracle_kernel *k, void *bufs[RDX_ORACLE_MAX_ARGS])
{
    for (int a = 0; a < RDX_ORACLE_MAX_ARGS; a++)
        bufs[a] = NULL;
    for (int a = 0; a < k->nargs; a++) {
        if (k->args[a].kind != RDX_ORACLE_ARG_BUFFER)
            continue;
        size_t bytes = k->args[a].count * rdx_oracle_type_size(k->args[a].type);
        /* 256-byte aligned, as a GPU allocation would be */
        bufs[a] = aligned_alloc(256, (bytes + 255) / 256 * 256);
        if (bufs[a])
            fill(&k->args[a], bufs[a]);
    }
}

void rdx_oracle_free_buffers(const rdx_oracle_kernel *k, void *bufs[RDX_ORACLE_MAX_ARGS])
{
    for (int a = 0; a < k->nargs && a < RDX_ORACLE_MAX_ARGS; a++) {
        free(bufs[a]);
        bufs[a] = NULL;
    }
}
