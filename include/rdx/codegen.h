/*
 * rdx/codegen.h — compiling UOp graphs to RDNA3 machine code.
 *
 * The BACK END (this block): a kernel-form graph (docs/codegen-kernel-form.md)
 * goes through instruction selection, linearize, the register plan and render
 * into an AMDGPU code object (one kernel, wave32) for one of its targets (rdx_codegen_target_name).
 * The front end (callify, rangeify, optimize, expand) has its own header, rdx/codegen_front.h.  See
 * docs/codegen-backend.md.
 *
 *   rdx_codegen_kernel *k;
 *   if (rdx_codegen_compile(ctx, sink, NULL, &k)) puts(rdx_error_message());
 *   // k->code_object / k->code_object_size: the ELF; k->args: kernarg layout
 *   uint32_t grid[3], wg[3];
 *   rdx_codegen_launch(k, var_values, nvars, grid, wg);
 *   rdx_codegen_kernel_free(k);
 */
#ifndef RDX_CODEGEN_H
#define RDX_CODEGEN_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/ir.h>
#include <rdx/isa.h>
#include <rdx/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------- back end (cg-back) */

/* Printable stages: X(NAME, "name"). */
#define RDX_CG_STAGE_LIST(X) \
    X(ISEL, "isel")          \
    X(LINEAR, "linear")      \
    X(REGALLOC, "regalloc")  \
    X(ASM, "asm")

typedef enum rdx_codegen_stage {
#define RDX_CG_STAGE_ENUM_(n, s) RDX_CG_STAGE_##n,
    RDX_CG_STAGE_LIST(RDX_CG_STAGE_ENUM_)
#undef RDX_CG_STAGE_ENUM_
        RDX_CG_STAGE_COUNT
} rdx_codegen_stage;

/* Name of a stage ("isel"); "?" when out of range. */
const char *rdx_codegen_stage_name(rdx_codegen_stage s);
/* Stage by name; -1 when unknown. */
int rdx_codegen_stage_find(const char *name);

/* The i-th target the back end compiles for ("gfx1100"; codegen/target.def, one row per
   target; docs/codegen-backend.md "Targets"), NULL past the last. */
const char *rdx_codegen_target_name(size_t i);

/* Every target the back end compiles for, in table order, as text: "gfx1100, gfx1101, ...". */
const char *rdx_codegen_target_list(void);

/* Compile options (zero-initialise; every field has a default). */
typedef struct rdx_codegen_options {
    const char *target;   /* a rdx_codegen_target_name; NULL = "gfx1100" */
    const char *name;     /* kernel symbol; NULL = "kernel" */
    uint32_t wg_size;     /* workgroup size for idx / GLOBAL dimensions; 0 = 256 */
    unsigned keep_stages; /* bit (1 << RDX_CG_STAGE_*) keeps that stage's text */
    unsigned no_vopd;     /* 1: do not fuse VALU pairs into VOPD dual-issue instructions */
} rdx_codegen_options;

/* What a kernel argument is. */
typedef enum rdx_codegen_argkind {
    RDX_CG_ARG_BUFFER, /* global pointer (PARAM addr=global): 8 bytes */
    RDX_CG_ARG_VALUE,  /* scalar PARAM by value */
    RDX_CG_ARG_VAR     /* DEFINE_VAR (int32 or int64) */
} rdx_codegen_argkind;

typedef struct rdx_codegen_arg {
    rdx_codegen_argkind kind;
    int64_t slot;        /* PARAM slot (buffers, values); -1 for vars */
    const char *name;    /* DEFINE_VAR name (vars), NULL otherwise */
    rdx_dtype dtype;     /* element dtype (buffers), value dtype (values), int32/int64 (vars) */
    uint32_t offset;     /* byte offset in the kernarg segment */
    uint32_t size;       /* bytes */
    const rdx_uop *node; /* the PARAM / DEFINE_VAR */
} rdx_codegen_arg;

/* One dispatch dimension: grid = bound (work-items) in that dimension. */
typedef struct rdx_codegen_dim {
    const rdx_uop *grid; /* index expression of DEFINE_VARs / CONST: work-items */
    uint32_t wg;         /* workgroup size */
} rdx_codegen_dim;

/* One line of a kernel's final code: a label (label >= 0: block bbN starts here) or an
   instruction (label -1) exactly as it was encoded (explicit form, physical registers), a
   BRANCH operand holding its target's label number (rdx/ir.h, INS). */
typedef struct rdx_codegen_line {
    int32_t label;
    rdx_isa_inst inst;
} rdx_codegen_line;

/* A compiled kernel.  Read-only for users; free with rdx_codegen_kernel_free. */
typedef struct rdx_codegen_kernel {
    char target[16];      /* the target compiled for ("gfx1201") */
    uint8_t *code_object; /* ELF bytes (malloc'd, owned) */
    size_t code_object_size;
    rdx_codegen_arg *args; /* in kernarg order */
    size_t nargs;
    uint32_t kernarg_size;
    uint32_t lds_size;
    uint32_t num_sgprs, num_vgprs, code_size;
    unsigned ndims; /* dispatch dimensions used (1..3) */
    rdx_codegen_dim dims[3];
    char *stage_text[RDX_CG_STAGE_COUNT]; /* kept stages (options.keep_stages), else NULL */
    rdx_codegen_line *lines; /* the final code (kept with RDX_CG_STAGE_ASM), else NULL */
    size_t nlines;
    char symbol[64]; /* the kernel's symbol in code_object */
} rdx_codegen_kernel;

/*
 * Compile the kernel-form graph under `sink` (a SINK, see
 * docs/codegen-kernel-form.md) into a code object.  New helper nodes are
 * built in ctx.  Errors: RDX_ERR_UNSUPPORTED naming the node, op and dtype the
 * back end cannot lower, or a target not among rdx_codegen_target_name's; RDX_ERR_INVALID for
 * graphs outside the kernel form (message says which rule); RDX_ERR_RANGE when registers run out;
 * RDX_ERR_NOMEM. On success *out is owned by the caller.
 */
rdx_status rdx_codegen_compile(rdx_ir_ctx *ctx, const rdx_uop *sink,
                               const rdx_codegen_options *opts, rdx_codegen_kernel **out);

/*
 * Launch geometry for the DEFINE_VAR values vals[0..nvals) (in the order of
 * the kernel's RDX_CG_ARG_VAR arguments): grid[] in work-items (HSA
 * semantics: a last partial workgroup is fine) and wg[] workgroup sizes; unused
 * dimensions are 1.  RDX_ERR_INVALID when nvals differs from the number of
 * vars or a grid size is < 1 or > 2^32-1.
 */
rdx_status rdx_codegen_launch(const rdx_codegen_kernel *k, const int64_t *vals, size_t nvals,
                              uint32_t grid[3], uint32_t wg[3]);

/*
 * Write the kernarg segment: buffer arguments take ptrs[slot], value
 * arguments values[slot] (bits: integers sign-/zero-extended, floats as
 * IEEE bits of their dtype in the low bytes), vars vals[k].  `out` has
 * k->kernarg_size bytes.
 */
void rdx_codegen_pack_args(const rdx_codegen_kernel *k, const uint64_t *ptrs,
                           const uint64_t *values, const int64_t *vals, void *out);

/*
 * What the arguments of a compiled kernel are bound to (zero-initialise; used
 * by rdx_codegen_bind_args).  Every array is the caller's and only read.
 */
typedef struct rdx_codegen_bindings {
    /* RDX_CG_ARG_BUFFER of PARAM slot s: the address ptrs[s] (s < nptrs, nonzero) */
    const uint64_t *ptrs;
    size_t nptrs;
    /* RDX_CG_ARG_VALUE of PARAM slot s: the bits values[s] (s < nvalues; integers
     * sign-/zero-extended, floats as IEEE bits of their dtype in the low bytes) */
    const uint64_t *values;
    size_t nvalues;
    /* RDX_CG_ARG_VAR: with vars, the DEFINE_VAR vars[j] takes vals[j] (j < nvals; other
     * entries are ignored); vars NULL: vals[0..nvals) are the values in kernarg order and
     * nvals must be the kernel's number of variables */
    const rdx_uop *const *vars;
    const int64_t *vals;
    size_t nvals;
} rdx_codegen_bindings;

/*
 * Build the kernarg segment of compiled kernel k from b: each of k->args
 * (their offsets and sizes as compiled, docs/codegen-kernel-form.md "Kernel
 * parameters → kernel arguments": buffers 8-byte pointers, by-value PARAMs
 * their dtype's size, DEFINE_VARs int32 or int64, each aligned to its size,
 * the segment rounded up to 8 bytes) gets its bound value in little-endian
 * order; padding is zero.  out (the caller's, k->kernarg_size bytes; may be
 * NULL to check the bindings only) is written only on success.  kv (may be
 * NULL; room for k->nargs values) receives the variables' values in kernarg
 * order, *nkv (may be NULL) their number: the input rdx_codegen_launch takes.
 * Nothing is allocated.  Errors (nothing written): RDX_ERR_INVALID naming the
 * argument — a buffer slot with no (or a zero) pointer, a by-value slot with
 * no value, a variable with no value, a count of kernarg-order values that
 * differs from the kernel's number of variables, NULL k or b, nvals > 0 with
 * vals NULL; RDX_ERR_RANGE
 * for a variable's value outside its DEFINE_VAR range [min, max].
 */
rdx_status rdx_codegen_bind_args(const rdx_codegen_kernel *k, const rdx_codegen_bindings *b,
                                 void *out, int64_t *kv, size_t *nkv);

/*
 * The compiled kernel in the spec's terms: PROGRAM(sink, LINEAR(INS ...),
 * BINARY(code object)), built in ctx.  One INS per line of k->lines: a
 * structured instruction (rdx/ir.h's INS: an rdx_isa_inst with physical
 * registers, exactly as encoded) or a block label; tag = its position, so
 * equal lines stay distinct.  It is the form a kernel written by hand has:
 * rdx_codegen_program_kernel assembles the LINEAR back to the same code.
 * k must have been compiled with keep_stages including RDX_CG_STAGE_ASM
 * (RDX_ERR_INVALID otherwise); RDX_ERR_NOMEM.
 */
rdx_status rdx_codegen_program(rdx_ir_ctx *ctx, const rdx_uop *sink, const rdx_codegen_kernel *k,
                               const rdx_uop **out);

/*
 * A PROGRAM as a runnable kernel: PROGRAM(sink, LINEAR(INS ...)) assembled, or
 * PROGRAM(sink, LINEAR, BINARY) with the BINARY's code object (e.g. from clang;
 * the LINEAR may be empty) as it is.  The sink states the kernel's signature
 * and launch: its PARAMs are global buffers, slot k the kernarg pointer at byte
 * 8k (slots 0..n-1, each once); SPECIAL gidxN (bound: workgroups) and lidxN
 * (bound: work-items per workgroup) for dimensions 0..2, CONST bounds; its
 * DEFINE_LOCALs the LDS bytes.  An assembled LINEAR runs in the back end's ABI:
 * s[0:1] the kernarg pointer, the enabled workgroup ids (x always, then y, z
 * when a gidx1/gidx2 is launched) in s[16-n..15], v0 the work-item ids (x in bits
 * 0..9, y 10..19, z 20..29 when lidx1/lidx2 are launched); INS labels start
 * blocks, a branch names a label; registers counted from the operands; encoded
 * as the back end encodes (render.c), symbol `name` (NULL: "kernel").  A
 * BINARY must hold one kernel whose descriptor agrees with the sink (kernarg
 * size, LDS, wave32, the workgroup and work-item ids it launches).  Errors
 * (RDX_ERR_INVALID / _UNSUPPORTED / _RANGE, naming the PROGRAM and the node):
 * a malformed PROGRAM, a sink PARAM that is not a global buffer, a DEFINE_VAR
 * (launches are fixed), an INS the encoder or operand checker refuses, an
 * undefined or twice-defined label, code not ending in s_endpgm/s_branch, too
 * many VGPRs, a descriptor that disagrees.  *out is freed with
 * rdx_codegen_kernel_free.
 */
rdx_status rdx_codegen_program_kernel(rdx_ir_ctx *ctx, const rdx_uop *prog, const char *name,
                                      rdx_codegen_kernel **out);

/* Free a kernel (NULL is a no-op). */
void rdx_codegen_kernel_free(rdx_codegen_kernel *k);

/* ---------------------------------------------- end of back end (cg-back) */

#ifdef __cplusplus
}
#endif

#endif /* RDX_CODEGEN_H */
