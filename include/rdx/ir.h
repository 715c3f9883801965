/*
 * rdx/ir.h — the UOp IR: dtypes, the op table, hash-consed nodes with derived
 * properties, builders, text form, verifier, pattern rewriting, symbolic
 * integer algebra, decomposed-op builders and a scalar evaluator.
 *
 * The contract is the tinygrad UOp spec (docs/ir.md restates it and lists
 * every place where rdx refines it).  Quick tour:
 *
 *   rdx_ir_ctx *ctx;  rdx_ir_ctx_create(&ctx);
 *   const rdx_uop *n = rdx_ir_var(ctx, "n", 1, 64);        // DEFINE_VAR
 *   const rdx_uop *e = rdx_ir_add(ctx, rdx_ir_mul(ctx, n, rdx_ir_int(ctx, 4)), rdx_ir_int(ctx, 3));
 *   if (!e) puts(rdx_error_message());                     // sticky error, see below
 *   const rdx_uop *s;  rdx_ir_simplify(ctx, e, &s);
 *   rdx_ir_ctx_destroy(ctx);                               // frees every node
 *
 * Nodes are immutable and hash-consed: two nodes built from the same
 * (op, src, arg, tag) are the same pointer, so structural equality is pointer
 * equality.  All memory (nodes, shapes, strings, tuples, devices) belongs to
 * the context and is released by rdx_ir_ctx_destroy().  A context is not
 * thread-safe; use one per thread.
 *
 * Errors: rdx_ir_make() returns an rdx_status.  The short builders
 * (rdx_ir_add, ...) return NULL on failure, record the message
 * (rdx_error_message()) and accept NULL sources (returning NULL), so a whole
 * expression can be built and checked once at the end.
 */
#ifndef RDX_IR_H
#define RDX_IR_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ dtypes */

/*
 * Scalar dtypes: X(NAME, "text", itemsize, kind, priority).  kind is one of
 * RDX_DK_*; priority orders the promotion lattice (lower = narrower).
 */
#define RDX_SCALAR_LIST(X)                       \
    X(VOID, "void", 0, RDX_DK_VOID, -1)          \
    X(BOOL, "bool", 1, RDX_DK_BOOL, 0)           \
    X(INT8, "int8", 1, RDX_DK_SINT, 1)           \
    X(UINT8, "uint8", 1, RDX_DK_UINT, 2)         \
    X(INT16, "int16", 2, RDX_DK_SINT, 3)         \
    X(UINT16, "uint16", 2, RDX_DK_UINT, 4)       \
    X(INT32, "int32", 4, RDX_DK_SINT, 5)         \
    X(UINT32, "uint32", 4, RDX_DK_UINT, 6)       \
    X(INT64, "int64", 8, RDX_DK_SINT, 7)         \
    X(UINT64, "uint64", 8, RDX_DK_UINT, 8)       \
    X(FLOAT16, "float16", 2, RDX_DK_FLOAT, 11)   \
    X(BFLOAT16, "bfloat16", 2, RDX_DK_FLOAT, 12) \
    X(FLOAT32, "float32", 4, RDX_DK_FLOAT, 13)   \
    X(FLOAT64, "float64", 8, RDX_DK_FLOAT, 14)   \
    X(INDEX, "index", 8, RDX_DK_INDEX, 15)       \
    X(FP8E4M3, "fp8e4m3", 1, RDX_DK_FLOAT, 9)    \
    X(FP8E5M2, "fp8e5m2", 1, RDX_DK_FLOAT, 10)

typedef enum rdx_dkind {
    RDX_DK_VOID,
    RDX_DK_BOOL,
    RDX_DK_SINT,
    RDX_DK_UINT,
    RDX_DK_FLOAT,
    RDX_DK_INDEX
} rdx_dkind;

typedef enum rdx_scalar {
#define RDX_SCALAR_ENUM_(n, t, s, k, p) RDX_##n,
    RDX_SCALAR_LIST(RDX_SCALAR_ENUM_)
#undef RDX_SCALAR_ENUM_
        RDX_SCALAR_COUNT
} rdx_scalar;

/* Address spaces: X(NAME, "text"). NONE = a value, not storage. */
#define RDX_ADDR_LIST(X) X(NONE, "none") X(GLOBAL, "global") X(LOCAL, "local") X(REG, "reg")

typedef enum rdx_addrspace {
#define RDX_ADDR_ENUM_(n, t) RDX_ADDR_##n,
    RDX_ADDR_LIST(RDX_ADDR_ENUM_)
#undef RDX_ADDR_ENUM_
        RDX_ADDR_COUNT
} rdx_addrspace;

/*
 * A dtype is a small value: a scalar, a vector count (1 = scalar) and, for
 * pointers, the address space pointed into (ptr = RDX_ADDR_NONE: a value).
 * Compare with rdx_dtype_eq.
 */
typedef struct rdx_dtype {
    uint8_t scalar; /* rdx_scalar */
    uint8_t ptr;    /* rdx_addrspace; NONE = not a pointer */
    uint16_t count; /* vector lanes, >= 1 */
} rdx_dtype;

/* The scalar dtype `s` (count 1, not a pointer). */
rdx_dtype rdx_dtype_of(rdx_scalar s);
/* `d` with `count` lanes (count >= 1). */
rdx_dtype rdx_dtype_vec(rdx_dtype d, unsigned count);
/* The scalar element of `d` (count 1, not a pointer). */
rdx_dtype rdx_dtype_scalar(rdx_dtype d);
/* A pointer to `d` in address space `a`. */
rdx_dtype rdx_dtype_ptr(rdx_dtype d, rdx_addrspace a);
int rdx_dtype_eq(rdx_dtype a, rdx_dtype b);
/* Bytes of one element of `d` (count * scalar size; 8 for pointers). */
unsigned rdx_dtype_itemsize(rdx_dtype d);
rdx_dkind rdx_dtype_kind(rdx_dtype d);
int rdx_dtype_is_float(rdx_dtype d);
/* bool, signed, unsigned or index. */
int rdx_dtype_is_int(rdx_dtype d);
int rdx_dtype_is_unsigned(rdx_dtype d);
/*
 * Value range of the scalar of `d`: integer-like dtypes in imin/imax
 * (uint64's max saturates to INT64_MAX, index is [INT64_MIN, INT64_MAX]),
 * floats in fmin/fmax (-inf/+inf).  Any pointer may be NULL.
 */
void rdx_dtype_range(rdx_dtype d, int64_t *imin, int64_t *imax, double *fmin, double *fmax);
/*
 * Least upper bound in tinygrad's promotion lattice (bool < int8/uint8 < ...
 * < int64/uint64 < fp8e4m3/fp8e5m2 < float16/bfloat16 < float32 < float64;
 * index absorbs every integer).  An fp8 dtype is a result only when it is one
 * of a or b (tinygrad's weak float: int64 + uint64 is float16, not fp8).
 * Vector counts must agree; the result keeps them.
 */
rdx_dtype rdx_dtype_promote(rdx_dtype a, rdx_dtype b);
/* Text form: "float32", "float32x4", "float32*local" (pointer).  Writes to buf, returns buf. */
const char *rdx_dtype_str(rdx_dtype d, char *buf, size_t n);
/* Parse the text form of `len` bytes at s.  RDX_ERR_PARSE with a message on failure. */
rdx_status rdx_dtype_parse(const char *s, size_t len, rdx_dtype *out);
/*
 * fp8 (RDX_FP8E4M3: OCP E4M3FN, bias 7, no infinity, NaN = S.1111.111; RDX_FP8E5M2: OCP
 * E5M2, bias 15, IEEE-like) with tinygrad's semantics (docs/tensor.md): a double becomes
 * the nearest code, ties to even; a finite value beyond the largest finite code (448 /
 * 57344) saturates to it; +-inf is NaN (E4M3, 0x7f/0xff) or +-inf (E5M2, 0x7c/0xfc); NaN
 * is 0x7f with its sign bit.  `s` must be RDX_FP8E4M3 or RDX_FP8E5M2.
 */
uint8_t rdx_f64_to_fp8(double v, rdx_scalar s);
/* The exact value of fp8 code `c` of scalar `s` (a NaN code gives NaN). */
double rdx_fp8_to_f64(uint8_t c, rdx_scalar s);
/* Name of a scalar ("float32"); "?" when out of range. */
const char *rdx_scalar_name(rdx_scalar s);
const char *rdx_addrspace_name(rdx_addrspace a);

/* --------------------------------------------------------------------- ops */

/*
 * Op categories and flags (bit set) of the op table.
 */
typedef enum rdx_opcat {
    RDX_CAT_SOURCE,
    RDX_CAT_MOVEMENT,
    RDX_CAT_REDUCE,
    RDX_CAT_CALL,
    RDX_CAT_MEMORY,
    RDX_CAT_ORDER,
    RDX_CAT_UNARY,
    RDX_CAT_BINARY,
    RDX_CAT_TERNARY,
    RDX_CAT_MARKER,
    RDX_CAT_CODEGEN,
    RDX_CAT_VECTOR
} rdx_opcat;

enum {
    RDX_OPF_COMMUTATIVE = 1 << 0, /* f(a,b) = f(b,a): matched in both orders */
    RDX_OPF_ASSOCIATIVE = 1 << 1,
    RDX_OPF_ELEMENTWISE = 1 << 2, /* broadcasting ALU op */
    RDX_OPF_VOID = 1 << 3,        /* result dtype is void (side effect / structure) */
    RDX_OPF_ENDS_RANGE = 1 << 4,  /* closes RANGEs given as sources */
    RDX_OPF_CMP = 1 << 5,         /* result is bool */
};

/*
 * Argument schemas: which fields of rdx_uop_arg an op uses (see rdx_uop_arg).
 */
typedef enum rdx_argk {
    RDX_ARGK_NONE,     /* no arg */
    RDX_ARGK_CONST,    /* dtype + value (i for int/bool/index, f for floats) */
    RDX_ARGK_PARAM,    /* i = slot, dtype, device (optional), addrspace */
    RDX_ARGK_BUFFER,   /* i = slot, dtype, device (required), addrspace */
    RDX_ARGK_DTYPE,    /* dtype (CAST, BITCAST) */
    RDX_ARGK_SLOT,     /* i = slot, dtype (DEFINE_LOCAL, DEFINE_REG) */
    RDX_ARGK_INTS,     /* ints (PERMUTE order, FLIP 0/1 flags, GEP lanes, UNROLL/CONTRACT pairs) */
    RDX_ARGK_REDUCE,   /* sub = reduce op (RDX_RED_*), ints = axes */
    RDX_ARGK_INDEX,    /* i = index (GETTUPLE), axis (REPLICATED) */
    RDX_ARGK_PLACE,    /* device (optional), addrspace (LOAD, BUFFERIZE) */
    RDX_ARGK_RANGE,    /* i = axis id, sub = axis type (RDX_AXIS_*) */
    RDX_ARGK_VAR,      /* str = name, i = min, j = max */
    RDX_ARGK_STR,      /* str (SPECIAL name, CUSTOMFUNCTION name, SOURCE text) */
    RDX_ARGK_STRDTYPE, /* str + dtype (CUSTOM fmt, WMMA config) */
    RDX_ARGK_INS,      /* one machine instruction: str/len = the bytes of an rdx_isa_inst
                          (rdx/isa.h), or a label: str NULL, i = label number (see
                          rdx_uop_arg_ins) */
    RDX_ARGK_BYTES,    /* str = raw bytes, len (BINARY) */
    RDX_ARGK_VCONST    /* dtype (vector) + ints (values; float lanes as IEEE double bits) */
} rdx_argk;

/*
 * THE op table: X(NAME, min_src, max_src (-1 = any), category, flags, arg schema).
 */
#define RDX_OP_LIST(X)                                                                            \
    /* sources */                                                                                 \
    X(PARAM, 1, 1, RDX_CAT_SOURCE, 0, RDX_ARGK_PARAM)                                             \
    X(BUFFER, 1, 1, RDX_CAT_SOURCE, 0, RDX_ARGK_BUFFER)                                           \
    X(CONST, 0, 0, RDX_CAT_SOURCE, 0, RDX_ARGK_CONST)                                             \
    X(BINARY, 0, 0, RDX_CAT_SOURCE, 0, RDX_ARGK_BYTES)                                            \
    X(DEFINE_VAR, 0, 0, RDX_CAT_SOURCE, 0, RDX_ARGK_VAR)                                          \
    X(BIND, 2, 2, RDX_CAT_SOURCE, 0, RDX_ARGK_NONE)                                               \
    X(DEFINE_LOCAL, 1, 1, RDX_CAT_SOURCE, 0, RDX_ARGK_SLOT)                                       \
    X(DEFINE_REG, 1, 1, RDX_CAT_SOURCE, 0, RDX_ARGK_SLOT)                                         \
    /* movement */                                                                                \
    X(PERMUTE, 1, 1, RDX_CAT_MOVEMENT, 0, RDX_ARGK_INTS)                                          \
    X(FLIP, 1, 1, RDX_CAT_MOVEMENT, 0, RDX_ARGK_INTS)                                             \
    X(RESHAPE, 2, 2, RDX_CAT_MOVEMENT, 0, RDX_ARGK_NONE)                                          \
    X(EXPAND, 2, 2, RDX_CAT_MOVEMENT, 0, RDX_ARGK_NONE)                                           \
    X(PAD, 3, 3, RDX_CAT_MOVEMENT, 0, RDX_ARGK_NONE)                                              \
    X(SHRINK, 3, 3, RDX_CAT_MOVEMENT, 0, RDX_ARGK_NONE)                                           \
    X(INDEX, 1, -1, RDX_CAT_MOVEMENT, 0, RDX_ARGK_NONE)                                           \
    X(STACK, 0, -1, RDX_CAT_MOVEMENT, 0, RDX_ARGK_NONE)                                           \
    X(BITCAST, 1, 1, RDX_CAT_MOVEMENT, 0, RDX_ARGK_DTYPE)                                         \
    X(REPLICATED, 1, 1, RDX_CAT_MOVEMENT, 0, RDX_ARGK_INDEX)                                      \
    /* reduce */                                                                                  \
    X(REDUCE, 1, -1, RDX_CAT_REDUCE, RDX_OPF_ENDS_RANGE, RDX_ARGK_REDUCE)                         \
    /* calls */                                                                                   \
    X(FUNCTION, 1, -1, RDX_CAT_CALL, 0, RDX_ARGK_NONE)                                            \
    X(CALL, 1, -1, RDX_CAT_CALL, 0, RDX_ARGK_NONE)                                                \
    X(TUPLE, 0, -1, RDX_CAT_CALL, RDX_OPF_VOID, RDX_ARGK_NONE)                                    \
    X(GETTUPLE, 1, 1, RDX_CAT_CALL, 0, RDX_ARGK_INDEX)                                            \
    /* memory */                                                                                  \
    X(LOAD, 1, 3, RDX_CAT_MEMORY, 0, RDX_ARGK_PLACE)                                              \
    X(STORE, 2, 3, RDX_CAT_MEMORY, RDX_OPF_VOID, RDX_ARGK_NONE)                                   \
    X(BUFFERIZE, 1, -1, RDX_CAT_MEMORY, RDX_OPF_ENDS_RANGE, RDX_ARGK_PLACE)                       \
    /* ordering */                                                                                \
    X(RANGE, 1, 1, RDX_CAT_ORDER, 0, RDX_ARGK_RANGE)                                              \
    X(END, 2, -1, RDX_CAT_ORDER, RDX_OPF_VOID | RDX_OPF_ENDS_RANGE, RDX_ARGK_NONE)                \
    X(AFTER, 1, -1, RDX_CAT_ORDER, 0, RDX_ARGK_NONE)                                              \
    X(GROUP, 0, -1, RDX_CAT_ORDER, RDX_OPF_VOID, RDX_ARGK_NONE)                                   \
    X(SINK, 0, -1, RDX_CAT_ORDER, RDX_OPF_VOID, RDX_ARGK_NONE)                                    \
    X(LINEAR, 0, -1, RDX_CAT_ORDER, RDX_OPF_VOID, RDX_ARGK_NONE)                                  \
    /* elementwise */                                                                             \
    X(RECIP, 1, 1, RDX_CAT_UNARY, RDX_OPF_ELEMENTWISE, RDX_ARGK_NONE)                             \
    X(TRUNC, 1, 1, RDX_CAT_UNARY, RDX_OPF_ELEMENTWISE, RDX_ARGK_NONE)                             \
    X(CAST, 1, 1, RDX_CAT_UNARY, RDX_OPF_ELEMENTWISE, RDX_ARGK_DTYPE)                             \
    X(ADD, 2, 2, RDX_CAT_BINARY, RDX_OPF_ELEMENTWISE | RDX_OPF_COMMUTATIVE | RDX_OPF_ASSOCIATIVE, \
      RDX_ARGK_NONE)                                                                              \
    X(MUL, 2, 2, RDX_CAT_BINARY, RDX_OPF_ELEMENTWISE | RDX_OPF_COMMUTATIVE | RDX_OPF_ASSOCIATIVE, \
      RDX_ARGK_NONE)                                                                              \
    X(MAX, 2, 2, RDX_CAT_BINARY, RDX_OPF_ELEMENTWISE | RDX_OPF_COMMUTATIVE | RDX_OPF_ASSOCIATIVE, \
      RDX_ARGK_NONE)                                                                              \
    X(MOD, 2, 2, RDX_CAT_BINARY, RDX_OPF_ELEMENTWISE, RDX_ARGK_NONE)                              \
    X(IDIV, 2, 2, RDX_CAT_BINARY, RDX_OPF_ELEMENTWISE, RDX_ARGK_NONE)                             \
    X(CMPLT, 2, 2, RDX_CAT_BINARY, RDX_OPF_ELEMENTWISE | RDX_OPF_CMP, RDX_ARGK_NONE)              \
    X(CMPNE, 2, 2, RDX_CAT_BINARY, RDX_OPF_ELEMENTWISE | RDX_OPF_COMMUTATIVE | RDX_OPF_CMP,       \
      RDX_ARGK_NONE)                                                                              \
    X(XOR, 2, 2, RDX_CAT_BINARY, RDX_OPF_ELEMENTWISE | RDX_OPF_COMMUTATIVE | RDX_OPF_ASSOCIATIVE, \
      RDX_ARGK_NONE)                                                                              \
    X(OR, 2, 2, RDX_CAT_BINARY, RDX_OPF_ELEMENTWISE | RDX_OPF_COMMUTATIVE | RDX_OPF_ASSOCIATIVE,  \
      RDX_ARGK_NONE)                                                                              \
    X(AND, 2, 2, RDX_CAT_BINARY, RDX_OPF_ELEMENTWISE | RDX_OPF_COMMUTATIVE | RDX_OPF_ASSOCIATIVE, \
      RDX_ARGK_NONE)                                                                              \
    X(SHR, 2, 2, RDX_CAT_BINARY, RDX_OPF_ELEMENTWISE, RDX_ARGK_NONE)                              \
    X(SHL, 2, 2, RDX_CAT_BINARY, RDX_OPF_ELEMENTWISE, RDX_ARGK_NONE)                              \
    X(WHERE, 3, 3, RDX_CAT_TERNARY, RDX_OPF_ELEMENTWISE, RDX_ARGK_NONE)                           \
    /* markers */                                                                                 \
    X(CONTIGUOUS, 1, 1, RDX_CAT_MARKER, 0, RDX_ARGK_NONE)                                         \
    X(CONTIGUOUSBACKWARD, 1, 1, RDX_CAT_MARKER, 0, RDX_ARGK_NONE)                                 \
    X(DETACH, 1, 1, RDX_CAT_MARKER, 0, RDX_ARGK_NONE)                                             \
    /* codegen */                                                                                 \
    X(BARRIER, 0, -1, RDX_CAT_CODEGEN, RDX_OPF_VOID, RDX_ARGK_NONE)                               \
    X(INS, 0, 0, RDX_CAT_CODEGEN, RDX_OPF_VOID, RDX_ARGK_INS)                                     \
    X(SPECIAL, 1, 1, RDX_CAT_CODEGEN, 0, RDX_ARGK_STR)                                            \
    X(IF, 1, -1, RDX_CAT_CODEGEN, RDX_OPF_VOID, RDX_ARGK_NONE)                                    \
    X(ENDIF, 1, 1, RDX_CAT_CODEGEN, RDX_OPF_VOID, RDX_ARGK_NONE)                                  \
    X(WMMA, 3, 3, RDX_CAT_CODEGEN, 0, RDX_ARGK_STRDTYPE)                                          \
    X(CUSTOM, 0, -1, RDX_CAT_CODEGEN, 0, RDX_ARGK_STRDTYPE)                                       \
    X(ATOMICADD, 2, 2, RDX_CAT_CODEGEN, RDX_OPF_VOID, RDX_ARGK_NONE)                              \
    X(CUSTOMFUNCTION, 0, -1, RDX_CAT_CODEGEN, RDX_OPF_VOID, RDX_ARGK_STR)                         \
    X(PROGRAM, 2, 3, RDX_CAT_CODEGEN, RDX_OPF_VOID, RDX_ARGK_NONE)                                \
    X(SOURCE, 0, 0, RDX_CAT_CODEGEN, RDX_OPF_VOID, RDX_ARGK_STR)                                  \
    /* vectors and expansion */                                                                   \
    X(VECTORIZE, 1, -1, RDX_CAT_VECTOR, 0, RDX_ARGK_NONE)                                         \
    X(GEP, 1, 1, RDX_CAT_VECTOR, 0, RDX_ARGK_INTS)                                                \
    X(VCONST, 0, 0, RDX_CAT_VECTOR, 0, RDX_ARGK_VCONST)                                           \
    X(CAT, 1, -1, RDX_CAT_VECTOR, 0, RDX_ARGK_NONE)                                               \
    X(UNROLL, 1, 1, RDX_CAT_VECTOR, 0, RDX_ARGK_INTS)                                             \
    X(CONTRACT, 1, 1, RDX_CAT_VECTOR, 0, RDX_ARGK_INTS)

typedef enum rdx_op {
#define RDX_OP_ENUM_(name, mn, mx, cat, fl, ak) RDX_OP_##name,
    RDX_OP_LIST(RDX_OP_ENUM_)
#undef RDX_OP_ENUM_
        RDX_OP_COUNT
} rdx_op;

/* The op table row of `op` (name, arity, category, flags, arg schema). */
typedef struct rdx_opinfo {
    const char *name;
    int min_src, max_src; /* max_src -1: any number */
    rdx_opcat cat;
    unsigned flags;
    rdx_argk argk;
} rdx_opinfo;

/* Row for `op`; NULL when op is out of range. */
const rdx_opinfo *rdx_op_info(rdx_op op);
/* Op name ("ADD"); "?" when out of range. */
const char *rdx_op_name(rdx_op op);
/* Look up an op by name (exact, upper case).  Returns -1 when unknown. */
int rdx_op_lookup(const char *name, size_t len);

/* REDUCE ops: X(NAME). */
#define RDX_RED_LIST(X) X(ADD) X(MAX) X(MUL) X(MIN)
typedef enum rdx_redop {
#define RDX_RED_ENUM_(n) RDX_RED_##n,
    RDX_RED_LIST(RDX_RED_ENUM_)
#undef RDX_RED_ENUM_
        RDX_RED_COUNT
} rdx_redop;

/* RANGE axis types: X(NAME, letter). */
#define RDX_AXIS_LIST(X) \
    X(GLOBAL, 'g')       \
    X(LOCAL, 'l')        \
    X(WARP, 'w')         \
    X(THREAD, 't') X(LOOP, 'L') X(REDUCE, 'R') X(GROUP_REDUCE, 'G') X(UPCAST, 'u') X(UNROLL, 'r')
typedef enum rdx_axistype {
#define RDX_AXIS_ENUM_(n, c) RDX_AXIS_##n,
    RDX_AXIS_LIST(RDX_AXIS_ENUM_)
#undef RDX_AXIS_ENUM_
        RDX_AXIS_COUNT
} rdx_axistype;

const char *rdx_redop_name(rdx_redop r);
const char *rdx_axistype_name(rdx_axistype a);

/* ------------------------------------------------------------------- nodes */

/* An interned device: one name, or an n-tuple (n > 1) for multi-device buffers. */
typedef struct rdx_uop_device {
    uint32_t n;
    const char *const *names;
} rdx_uop_device;

/*
 * The argument of a node.  Which fields are meaningful is given by the op's
 * schema (rdx_argk); unused fields must be zero (rdx_uop_arg_none()).  Strings,
 * byte strings, int tuples and devices are interned by the context
 * (rdx_ir_str, rdx_ir_ints, rdx_ir_device), so they compare by pointer.
 */
typedef struct rdx_uop_arg {
    rdx_dtype dtype;
    uint8_t addrspace; /* rdx_addrspace */
    uint8_t sub;       /* reduce op / axis type */
    uint16_t pad_;
    int64_t i, j;
    double f;
    const int64_t *ints;
    uint32_t nints;
    uint32_t len; /* bytes in str (BYTES); strlen otherwise */
    const char *str;
    const rdx_uop_device *device;
} rdx_uop_arg;

/* An all-zero argument. */
rdx_uop_arg rdx_uop_arg_none(void);

typedef struct rdx_uop rdx_uop;

/*
 * A node.  Read-only for users: every field is fixed at construction.
 * shape[k] is a scalar index-dtype node (a CONST for a concrete size, any
 * index expression — e.g. a DEFINE_VAR — for a symbolic one).  min_max is
 * (vmin, vmax) for bool/int/index dtypes and (fmin, fmax) for floats.
 */
struct rdx_uop {
    uint16_t op; /* rdx_op */
    uint8_t addrspace;
    int8_t axis; /* multi-device shard axis, -1 = none */
    int32_t tag;
    uint32_t nsrc;
    uint32_t id;   /* creation number in its context: unique, deterministic */
    uint32_t hash; /* structural hash, computed once */
    uint32_t ndim;
    rdx_dtype dtype;
    const rdx_uop *const *src;
    const rdx_uop *const *shape;
    const rdx_uop_device *device;
    int64_t vmin, vmax;
    double fmin, fmax;
    rdx_uop_arg arg;
};

typedef struct rdx_ir_ctx rdx_ir_ctx;

/* Create an empty context.  RDX_ERR_NOMEM on allocation failure. */
rdx_status rdx_ir_ctx_create(rdx_ir_ctx **out);
/* Free the context and every node, shape, string and tuple it owns.  NULL is a no-op. */
void rdx_ir_ctx_destroy(rdx_ir_ctx *ctx);
/* Number of distinct nodes created so far. */
size_t rdx_ir_node_count(const rdx_ir_ctx *ctx);
/*
 * Verify-after-rewrite: when on, rdx_ir_rewrite (and so rdx_ir_simplify)
 * runs rdx_ir_verify on every result and fails with its message when the
 * graph does not verify.  Off by default (rewrites stay fast); a new context
 * starts on when the environment variable RDX_IR_VERIFY is set to anything
 * but "" or "0" (the test suites set it).
 */
void rdx_ir_ctx_set_verify(rdx_ir_ctx *ctx, int on);
/* 1 when verify-after-rewrite is on for ctx. */
int rdx_ir_ctx_verify(const rdx_ir_ctx *ctx);

/* Interning (owned by ctx; NULL on out-of-memory with the error recorded). */
const char *rdx_ir_str(rdx_ir_ctx *ctx, const char *s, size_t len);
const int64_t *rdx_ir_ints(rdx_ir_ctx *ctx, const int64_t *v, size_t n);
/* A device from n names (n >= 1). */
const rdx_uop_device *rdx_ir_device(rdx_ir_ctx *ctx, const char *const *names, size_t n);

/*
 * THE constructor.  Returns the unique node for (op, src[0..nsrc), *arg, tag)
 * (arg may be NULL for none), deriving dtype, shape, device, addrspace,
 * axis and min_max.  Every per-node rule of the verifier is checked here: an
 * ill-formed node is not created and RDX_ERR_INVALID is returned with a
 * message "OP(src shapes/dtypes): rule: detail".
 */
rdx_status rdx_ir_make(rdx_ir_ctx *ctx, rdx_op op, const rdx_uop *const *src, size_t nsrc,
                       const rdx_uop_arg *arg, int32_t tag, const rdx_uop **out);

/* Sticky-error builders: NULL on failure (message recorded), NULL sources give NULL. */
const rdx_uop *rdx_ir_node(rdx_ir_ctx *ctx, rdx_op op, const rdx_uop *const *src, size_t nsrc,
                           const rdx_uop_arg *arg);
/* `u` with a different src list (same op, arg, tag). */
const rdx_uop *rdx_ir_replace_src(rdx_ir_ctx *ctx, const rdx_uop *u, const rdx_uop *const *src,
                                  size_t nsrc);
/* `u` with a different tag. */
const rdx_uop *rdx_ir_with_tag(rdx_ir_ctx *ctx, const rdx_uop *u, int32_t tag);

const rdx_uop *rdx_ir_const_int(rdx_ir_ctx *ctx, rdx_dtype d, int64_t v);
const rdx_uop *rdx_ir_const_float(rdx_ir_ctx *ctx, rdx_dtype d, double v);
/* A CONST of dtype d holding v (rounded/truncated to d's kind). */
const rdx_uop *rdx_ir_const_like(rdx_ir_ctx *ctx, rdx_dtype d, double v);
/* CONST of dtype index. */
const rdx_uop *rdx_ir_int(rdx_ir_ctx *ctx, int64_t v);
/* DEFINE_VAR name in [lo, hi], dtype index. */
const rdx_uop *rdx_ir_var(rdx_ir_ctx *ctx, const char *name, int64_t lo, int64_t hi);
/* RANGE over [0, bound) with axis id and type. */
const rdx_uop *rdx_ir_range(rdx_ir_ctx *ctx, const rdx_uop *bound, int64_t axis_id,
                            rdx_axistype type);
/* A shape operand: STACK of n index CONSTs / of n scalar index nodes. */
const rdx_uop *rdx_ir_shape(rdx_ir_ctx *ctx, const int64_t *dims, size_t n);
const rdx_uop *rdx_ir_shape_u(rdx_ir_ctx *ctx, const rdx_uop *const *dims, size_t n);
/* BUFFER of the given shape, slot, dtype, device name, GLOBAL. */
const rdx_uop *rdx_ir_buffer(rdx_ir_ctx *ctx, int64_t slot, rdx_dtype d, const char *device,
                             const int64_t *dims, size_t n);

const rdx_uop *rdx_ir_alu1(rdx_ir_ctx *ctx, rdx_op op, const rdx_uop *a);
const rdx_uop *rdx_ir_alu2(rdx_ir_ctx *ctx, rdx_op op, const rdx_uop *a, const rdx_uop *b);
const rdx_uop *rdx_ir_add(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b);
const rdx_uop *rdx_ir_mul(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b);
const rdx_uop *rdx_ir_idiv(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b);
const rdx_uop *rdx_ir_mod(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b);
const rdx_uop *rdx_ir_max(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b);
const rdx_uop *rdx_ir_cmplt(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b);
const rdx_uop *rdx_ir_cmpne(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b);
const rdx_uop *rdx_ir_where(rdx_ir_ctx *ctx, const rdx_uop *c, const rdx_uop *a, const rdx_uop *b);
const rdx_uop *rdx_ir_cast(rdx_ir_ctx *ctx, const rdx_uop *a, rdx_dtype d);
const rdx_uop *rdx_ir_bitcast(rdx_ir_ctx *ctx, const rdx_uop *a, rdx_dtype d);
/* a OP c where c is a CONST of a's dtype with value v. */
const rdx_uop *rdx_ir_alu2c(rdx_ir_ctx *ctx, rdx_op op, const rdx_uop *a, double v);

/* Movement and memory builders over int64 sizes (sticky NULL on error). */
const rdx_uop *rdx_ir_reshape(rdx_ir_ctx *ctx, const rdx_uop *a, const int64_t *dims, size_t n);
const rdx_uop *rdx_ir_expand(rdx_ir_ctx *ctx, const rdx_uop *a, const int64_t *dims, size_t n);
const rdx_uop *rdx_ir_permute(rdx_ir_ctx *ctx, const rdx_uop *a, const int64_t *order, size_t n);
/* PAD: place a at offsets off[k] in an output of sizes dims[k]; SHRINK: the inverse. */
const rdx_uop *rdx_ir_pad(rdx_ir_ctx *ctx, const rdx_uop *a, const int64_t *off,
                          const int64_t *dims, size_t n);
const rdx_uop *rdx_ir_shrink(rdx_ir_ctx *ctx, const rdx_uop *a, const int64_t *off,
                             const int64_t *dims, size_t n);
/* REDUCE a along axes with op (RDX_RED_*). */
const rdx_uop *rdx_ir_reduce(rdx_ir_ctx *ctx, const rdx_uop *a, rdx_redop op, const int64_t *axes,
                             size_t n);
/* INDEX(a, idx[0..n)). */
const rdx_uop *rdx_ir_index(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *const *idx, size_t n);
/* STORE(buf, val) and SINK(src[0..n)). */
const rdx_uop *rdx_ir_store(rdx_ir_ctx *ctx, const rdx_uop *buf, const rdx_uop *val);
const rdx_uop *rdx_ir_sink(rdx_ir_ctx *ctx, const rdx_uop *const *src, size_t n);

/* Node helpers. */
/* 1 and *v when u is an integer-like CONST. */
int rdx_uop_const_int(const rdx_uop *u, int64_t *v);
/* 1 and *v when u is a CONST (floats and ints as double). */
int rdx_uop_const_val(const rdx_uop *u, double *v);
/* 1 and *v when dim k of u is concrete. */
int rdx_uop_dim(const rdx_uop *u, uint32_t k, int64_t *v);
/* Product of u's dims when all concrete (1 and *v), else 0. */
int rdx_uop_numel(const rdx_uop *u, int64_t *v);

/* ------------------------------------------------------------- text form */

/*
 * Print the graph reachable from roots[0..n) in canonical text: one node per
 * line in topological order ("%<k> = OP %a, %b key=value ..."), then
 * "return %r, ...".  annotate != 0 appends "  ; dtype shape device ..." comments.
 * The text is malloc'd into *out (caller frees).
 */
rdx_status rdx_ir_print(const rdx_uop *const *roots, size_t n, int annotate, char **out);

/*
 * Parse text into nodes of ctx.  name labels the input in messages
 * ("name:line:col: expected ...").  The roots are the "return" list, or, when
 * absent, every node not used by another, in order of definition; *roots is
 * malloc'd (caller frees), *nroots its length.  Every parsed graph is verified
 * (rdx_ir_verify).
 */
rdx_status rdx_ir_parse(rdx_ir_ctx *ctx, const char *name, const char *text, size_t len,
                        const rdx_uop ***roots, size_t *nroots);

/* Describe the derived properties of u ("float32[3,n] dev=AMD addr=global range=[..]"). */
const char *rdx_uop_describe(const rdx_uop *u, char *buf, size_t n);

/* ---------------------------------------------------------------- verifier */

/* Verifier rules: X(NAME, "text"). Messages carry "[text]". */
#define RDX_RULE_LIST(X)                           \
    X(ARITY, "arity")                              \
    X(ARG, "arg")                                  \
    X(DTYPE_MISMATCH, "dtype mismatch")            \
    X(BROADCAST, "broadcast failure")              \
    X(SHAPE_MISMATCH, "shape mismatch")            \
    X(SHAPE_OPERAND, "shape operand")              \
    X(RESHAPE_NUMEL, "reshape element count")      \
    X(EXPAND_DIM, "expand dimension")              \
    X(PAD_RANGE, "pad out of range")               \
    X(SHRINK_RANGE, "shrink out of range")         \
    X(PERMUTE_AXES, "permute axes")                \
    X(FLIP_AXES, "flip axes")                      \
    X(INDEX_RANK, "index rank")                    \
    X(BITCAST_SIZE, "bitcast size")                \
    X(REDUCE_AXES, "reduce axes")                  \
    X(STORE_SHAPE, "store shape")                  \
    X(GATE_DTYPE, "gate dtype")                    \
    X(CONST_RANGE, "const out of range")           \
    X(DEVICE_MISMATCH, "device mismatch")          \
    X(NOT_STORAGE, "not storage")                  \
    X(TUPLE_INDEX, "tuple index")                  \
    X(VECTOR_LANES, "vector lanes")                \
    X(VOID_OPERAND, "void operand")                \
    X(RANGE_SCOPE, "range used outside its scope") \
    X(RANGE_UNCLOSED, "range not closed")          \
    X(NUMEL_OVERFLOW, "element count overflow")

typedef enum rdx_rule {
#define RDX_RULE_ENUM_(n, t) RDX_RULE_##n,
    RDX_RULE_LIST(RDX_RULE_ENUM_)
#undef RDX_RULE_ENUM_
        RDX_RULE_COUNT
} rdx_rule;

const char *rdx_rule_name(rdx_rule r);

/*
 * Verify the graph under root: re-checks every per-node rule (they also run
 * in rdx_ir_make) and the graph rules: a RANGE used by a node that also
 * depends on the END/REDUCE closing it [range used outside its scope], and a
 * SINK with a RANGE still open [range not closed].  RDX_ERR_INVALID with a
 * message naming the op, its sources and the rule.
 */
rdx_status rdx_ir_verify(rdx_ir_ctx *ctx, const rdx_uop *root);

/* ---------------------------------------------------------- rewriting */

/*
 * Patterns are s-expressions compiled at matcher creation:
 *   $x           capture any node as x ($x twice must be the same node)
 *   $x:int       ... of a class: int (bool/ints/index), sint, uint, float, bool,
 *                index, const (a CONST), nonneg / pos (min_max >= 0 / > 0)
 *   _            any node
 *   5  -1  2.5   a CONST with that value (any dtype)
 *   $c:const     any CONST
 *   (OP p...)    a node of op OP with exactly these sources;
 *   (OP p... ..) ... with at least these sources
 *   ({OP1 OP2} p...)  any of the ops;  (OP@x p...) also captures the node as x
 * Binary patterns of commutative ops also match with sources swapped.
 */
typedef struct rdx_rewriter rdx_rewriter;

/*
 * What a rule's function gets: caps[k] is the k-th capture of its pattern, in
 * order of first appearance (at most 16); root is the matched node.
 */
typedef struct rdx_match {
    rdx_rewriter *rw;
    rdx_ir_ctx *ctx;
    void *user; /* the pass context given to rdx_ir_rewrite */
    const rdx_uop *root;
    const rdx_uop *caps[16];
} rdx_match;

/*
 * A rule: returns the replacement, or NULL for "no match" (a predicate that
 * failed).  On a construction error, return NULL after rdx_rw_fail().
 */
typedef const rdx_uop *(*rdx_rule_fn)(rdx_match *m);

typedef struct rdx_pattern_rule {
    const char *pattern;
    rdx_rule_fn fn;
} rdx_pattern_rule;

/*
 * Compile rules[0..n) into a matcher indexed by root op (the pattern strings
 * are only read here).  Captures are numbered in order of first appearance in
 * each pattern.  Rules are tried in order.  RDX_ERR_PARSE naming the rule and
 * column on a bad pattern, RDX_ERR_INVALID for a rule without a function.
 * Free with rdx_rewriter_free (NULL is a no-op).
 */
rdx_status rdx_rewriter_create(const rdx_pattern_rule *rules, size_t n, rdx_rewriter **out);
void rdx_rewriter_free(rdx_rewriter *rw);
/* Number of rules tried against a node of op `op` (the index's bucket size). */
size_t rdx_rewriter_bucket(const rdx_rewriter *rw, rdx_op op);
/* Mark the current rewrite as failed (message already recorded); the rule returns NULL. */
void rdx_rw_fail(rdx_match *m);

/* Try the rules once at u: the first match's replacement, or NULL. */
const rdx_uop *rdx_rewriter_apply(rdx_rewriter *rw, rdx_ir_ctx *ctx, const rdx_uop *u, void *user);

enum { RDX_RW_BOTTOM_UP = 0, RDX_RW_TOP_DOWN = 1 };

/*
 * Rewrite the graph under root to a fixed point: no rule matches any node of
 * the result.  Bottom-up rewrites sources first, top-down tries each node
 * before its sources.  Memoised: each distinct node is processed once.
 * RDX_ERR_INVALID "rewrite cycle" when a rule sequence leads back to a node
 * being rewritten, or when a node needs more than 10000 steps.  With
 * verify-after-rewrite on (rdx_ir_ctx_set_verify, RDX_IR_VERIFY=1) the result
 * is also checked by rdx_ir_verify.
 */
rdx_status rdx_ir_rewrite(rdx_ir_ctx *ctx, rdx_rewriter *rw, const rdx_uop *root, int mode,
                          void *user, const rdx_uop **out);

/* Replace every occurrence of from[k] by to[k] in the graph under root. */
rdx_status rdx_ir_substitute(rdx_ir_ctx *ctx, const rdx_uop *root, const rdx_uop *const *from,
                             const rdx_uop *const *to, size_t n, const rdx_uop **out);

/*
 * Resolve a FUNCTION: its TUPLE body with every PARAM of slot k replaced by
 * argument k (fn->src[1 + k]).  RDX_ERR_INVALID when fn is not a FUNCTION or a
 * PARAM's slot has no argument.
 */
rdx_status rdx_ir_inline(rdx_ir_ctx *ctx, const rdx_uop *fn, const rdx_uop **out);

/*
 * Topological order of the graph under root (sources before users, root
 * last), malloc'd into *out (caller frees).
 */
rdx_status rdx_ir_toposort(const rdx_uop *root, const rdx_uop ***out, size_t *n);

/*
 * rdx_ir_toposort of a graph of ctx through the context's cache of the last
 * few graphs sorted (the one rdx_ir_substitute keeps): a graph's order never
 * changes (its nodes are immutable), so sorting the same root again costs a
 * copy instead of a walk.  *out is the caller's own copy (malloc'd, caller
 * frees), the same order rdx_ir_toposort gives.  A root of another context
 * is sorted as rdx_ir_toposort does (not cached).  RDX_ERR_NOMEM.
 */
rdx_status rdx_ir_toposort_ctx(rdx_ir_ctx *ctx, const rdx_uop *root, const rdx_uop ***out,
                               size_t *n);

/*
 * rdx_ir_toposort, except that it does not descend below a node for which
 * stop(user, node) is nonzero: such a node is in the order, its sources only
 * when reached on another path.  Otherwise the order is rdx_ir_toposort's.
 * stop NULL: rdx_ir_toposort.  (A graph mixing contexts, or a failed
 * allocation of the per-thread marks, falls back to the full order: still a
 * topological order, with the nodes below stopped ones too.)  *out is
 * malloc'd (caller frees); RDX_ERR_NOMEM.
 */
rdx_status rdx_ir_toposort_cut(const rdx_uop *root, int (*stop)(void *user, const rdx_uop *u),
                               void *user, const rdx_uop ***out, size_t *n);

/*
 * A map from the nodes of one context to non-NULL pointers, for passes that
 * walk a graph: O(1) by node id in arrays the context keeps and reuses (no
 * hashing, no clearing), so a map costs nothing to create and its lookups do
 * not probe.  Several maps may be in use at once (beyond a few, they fall back
 * to hash maps).  Free every map before its context.  create: RDX_ERR_NOMEM;
 * put: RDX_ERR_NOMEM (replaces an existing value); get: the value or NULL.
 */
typedef struct rdx_ir_nodemap rdx_ir_nodemap;
rdx_status rdx_ir_nodemap_create(rdx_ir_ctx *ctx, rdx_ir_nodemap **out);
rdx_status rdx_ir_nodemap_put(rdx_ir_nodemap *m, const rdx_uop *u, const void *val);
const void *rdx_ir_nodemap_get(const rdx_ir_nodemap *m, const rdx_uop *u);
/* NULL is a no-op. */
void rdx_ir_nodemap_free(rdx_ir_nodemap *m);

/* ------------------------------------------------------- symbolic algebra */

/*
 * Simplify integer/index expressions (and the WHERE/compare/bool nodes over
 * them) under root: constant folding, identities, reassociation and
 * collection of like terms, div/mod folding from min_max, comparisons
 * decided from bounds, WHERE/gate simplification.  Float arithmetic is not
 * reassociated.
 */
rdx_status rdx_ir_simplify(rdx_ir_ctx *ctx, const rdx_uop *root, const rdx_uop **out);

/*
 * *out = rdx_ir_simplify of x + c (c an index constant).  When x is a
 * scalar index expression that rdx_ir_simplify returned (a canonical sum:
 * its terms, then its constant), the result is built directly — x's terms
 * with the constant moved by c — and kept as simplified, without running the
 * rules (passes that build many indices differing only in a constant, such
 * as TC's operand lanes); any other x is simplified in full.  Errors as
 * rdx_ir_simplify.
 */
rdx_status rdx_ir_simplify_add_const(rdx_ir_ctx *ctx, const rdx_uop *x, int64_t c,
                                     const rdx_uop **out);
/* The shared symbolic rewriter (owned by ctx, created on first use). */
rdx_rewriter *rdx_ir_symbolic(rdx_ir_ctx *ctx);

/* ---------------------------------------------------- decomposed builders */

/* Each returns the spec's decomposition in primitives (sticky NULL on error). */
const rdx_uop *rdx_ir_neg(rdx_ir_ctx *ctx, const rdx_uop *a);
const rdx_uop *rdx_ir_sub(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b);
const rdx_uop *rdx_ir_div(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b);
const rdx_uop *rdx_ir_cmpgt(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b);
const rdx_uop *rdx_ir_cmpge(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b);
const rdx_uop *rdx_ir_cmple(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b);
const rdx_uop *rdx_ir_cmpeq(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b);
const rdx_uop *rdx_ir_not(rdx_ir_ctx *ctx, const rdx_uop *a);
const rdx_uop *rdx_ir_mulacc(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b, const rdx_uop *c);
/* Float ops: polynomial approximations with argument reduction (float16/bfloat16 via float32). */
const rdx_uop *rdx_ir_exp2(rdx_ir_ctx *ctx, const rdx_uop *a);
const rdx_uop *rdx_ir_log2(rdx_ir_ctx *ctx, const rdx_uop *a);
const rdx_uop *rdx_ir_sin(rdx_ir_ctx *ctx, const rdx_uop *a);
/* SQRT = EXP2(0.5 * LOG2(a)), POW = EXP2(LOG2(a) * b) as in the spec. */
const rdx_uop *rdx_ir_sqrt(rdx_ir_ctx *ctx, const rdx_uop *a);
const rdx_uop *rdx_ir_pow(rdx_ir_ctx *ctx, const rdx_uop *a, const rdx_uop *b);
/*
 * Threefry-2x32 (20 rounds in 5 groups of 4 add-rotate-xor, key injection
 * after each group) of the uint64 counter x under uint64 key; result uint64
 * (hi word = second output word).
 */
const rdx_uop *rdx_ir_threefry(rdx_ir_ctx *ctx, const rdx_uop *x, const rdx_uop *key);

/* ------------------------------------------------------ scalar evaluator */

/* A scalar value: i for bool/int/index dtypes, f for floats. */
typedef struct rdx_value {
    int64_t i;
    double f;
} rdx_value;

/*
 * Evaluate a graph of scalar (shape ()) elementwise nodes: CONST, BIND, the
 * ALU primitives, CAST, BITCAST; node leaves[k] (any node: a DEFINE_VAR,
 * RANGE, SPECIAL, or e.g. a shape-() PARAM as a float input) takes vals[k].  Arithmetic follows the
 * dtype exactly (integer wrap-around, C division truncating toward zero, IEEE rounding to float16,
 * bfloat16, float32, float64).  RDX_ERR_UNSUPPORTED for any other op,
 * RDX_ERR_INVALID for an unbound variable or integer division by zero.
 */
rdx_status rdx_ir_eval(const rdx_uop *root, const rdx_uop *const *leaves, const rdx_value *vals,
                       size_t nleaves, rdx_value *out);

/*
 * rdx_ir_eval of one node whose sources are all scalar CONSTs, without
 * building a plan (constant folding): 1 with *out set; 0 when u is not such a
 * node (not an op rdx_ir_eval evaluates, a CONST itself, not scalar, or a
 * source not a CONST), or when its evaluation fails (e.g. integer division
 * by zero: the message is recorded as rdx_ir_eval records it).
 */
int rdx_ir_fold_const(const rdx_uop *u, rdx_value *out);

/*
 * rdx_ir_fold_const of u with its sources replaced by src[0..u->nsrc), without
 * building that node: 1 with *out set when every src[k] is a scalar CONST of
 * u->src[k]'s dtype and the op evaluates (the value has u's dtype); 0
 * otherwise (the same cases as rdx_ir_fold_const, and a source of another
 * dtype).  Passes that rebuild nodes with constant sources (unrolling) fold
 * before creating a node that would only be folded away.
 */
int rdx_ir_fold_srcs(const rdx_uop *u, const rdx_uop *const *src, rdx_value *out);

/* ------------------------------------------------------------------ INS */

/*
 * Machine code in the graph (ir/ins.c).  An INS node's arg is one
 * instruction — an rdx_isa_inst of rdx/isa.h: opcode, form, operands and
 * modifiers from the ISA tables, physical registers — or a label (a number).
 * A BRANCH operand (s_branch, s_cbranch_*) holds the number of the label it
 * jumps to, not an offset.  A LINEAR of INS is a kernel's code in order; the
 * back end's output (rdx_codegen_program) has this form and so does a kernel
 * written by hand (rdx_codegen_program_kernel assembles one).  Text form
 * (rdx_ir_print / rdx_ir_parse): `INS asm="v_add_f32_e32 v1, v2, v3"` (the
 * instruction as llvm-mc prints it for gfx1100, a branch target as bbN) and
 * `INS label=N`.
 */
struct rdx_isa_inst;
/* An INS arg for instruction *in (its bytes are interned when the node is made). */
rdx_uop_arg rdx_uop_arg_ins(const struct rdx_isa_inst *in);
/* An INS arg for label `label` (0..32767). */
rdx_uop_arg rdx_uop_arg_label(int64_t label);
/* 1 with *out set when u is an INS instruction; 0 for a label or any other node. */
int rdx_uop_ins(const rdx_uop *u, struct rdx_isa_inst *out);
/* The label number of an INS label; -1 for an instruction or any other node. */
int64_t rdx_uop_ins_label(const rdx_uop *u);
/* Text of an instruction (llvm-mc's spelling for gfx1100; a branch as "s_branch bbN")
   into buf[0..cap).  Errors: the disassembler's (an op gfx1100 lacks), RDX_ERR_RANGE. */
rdx_status rdx_ins_format(const struct rdx_isa_inst *in, char *buf, size_t cap);
/* One instruction line (as rdx_ins_format writes it, or any spelling llvm-mc accepts for
   gfx1100) into *out, decoded from its encoding (explicit form).  Errors: RDX_ERR_PARSE
   naming the text and what was expected, the encoder's errors. */
rdx_status rdx_ins_parse(const char *text, size_t len, struct rdx_isa_inst *out);

/* The same, prepared once and run many times (for sweeps over inputs). */
typedef struct rdx_evalplan rdx_evalplan;
/* Check and order the graph; errors as rdx_ir_eval.  Free with rdx_evalplan_free. */
rdx_status rdx_evalplan_create(const rdx_uop *root, const rdx_uop *const *leaves, size_t nleaves,
                               rdx_evalplan **out);
/* Evaluate with leaf values vals[0..nleaves).  RDX_ERR_INVALID on integer division by zero. */
rdx_status rdx_evalplan_run(rdx_evalplan *p, const rdx_value *vals, rdx_value *out);
void rdx_evalplan_free(rdx_evalplan *p);

#ifdef __cplusplus
}
#endif

#endif /* RDX_IR_H */
