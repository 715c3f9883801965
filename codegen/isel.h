/*
 * codegen/isel.h — instruction selection state shared by isel*.c (internal).
 *
 * Values: every scalar node lowers to a cg_val: a constant (raw bits) or a
 * virtual register of 1 or 2 dwords in the SGPR or VGPR file.
 * Machine representation by dtype:
 *   bool                lane mask in one SGPR (uniform true = all ones)
 *   int8/16, uint8/16   one dword, sign-/zero-extended (kept normalised)
 *   int32, uint32, f32  one dword
 *   float16, bfloat16   low 16 bits of a dword (upper bits undefined)
 *   fp8e4m3, fp8e5m2    the code in the low byte of a dword (upper bits undefined;
 *                       isel_fp8.c, gfx12 only)
 *   int64, uint64, f64  two dwords (low first)
 *   index               int32 when the node and its index sources fit in
 *                       int32 ("narrow"), else two dwords
 * Errors are sticky: the first failure is kept in I->st and later calls do
 * nothing, so lowering code reads straight through.
 */
#ifndef RDX_CODEGEN_ISEL_H
#define RDX_CODEGEN_ISEL_H

#include "codegen/cg.h"

enum { VK_NONE = 0, VK_REG, VK_CONST };

typedef struct cg_val {
    uint8_t kind;
    uint8_t file;  /* VK_REG: CG_S / CG_V */
    uint8_t n;     /* dwords */
    uint8_t umask; /* bool: the lane mask is uniform (all ones or zero) */
    uint32_t vr;
    uint64_t bits; /* VK_CONST: raw bits (ints sign-extended, bool 0/1) */
} cg_val;

/* An operand being built: a machine operand, plus its virtual register (0 = none). */
typedef struct xo {
    rdx_isa_opnd o;
    uint32_t vr;
} xo;

#define CG_MAX_LOOPS 64

/* A WMMA operand fragment (isel_wmma.c): its loads, issued early, and its packed VGPRs. */
enum { CG_FRAG_LANES = 0, CG_FRAG_B128, CG_FRAG_U16 };
typedef struct cg_frag {
    const rdx_uop *vec; /* the VECTORIZE */
    uint32_t part[16];  /* loaded parts (B128: 2 x 4 dwords; U16: 16 x 1) */
    uint32_t packed;    /* 8-dword operand vreg, 0 until packed */
    uint64_t open;      /* loops open when packed */
    int kind;
} cg_frag;
#define CG_WMMA_MAX_TILES 16
/* isel.info bits */
#define CG_INFO_FRAG_MEMBER 2  /* a LOAD loaded as part of a WMMA fragment */
#define CG_INFO_ACC_BOUND   4  /* a WMMA/CAT accumulated by its REDUCE (not lowered alone) */
#define CG_INFO_LAZY        8  /* a fragment load's index: lowered only on demand */
#define CG_INFO_DEFERRED    16 /* a contracted f32 ADD/MUL: lowered by its REDUCE's accumulation */

typedef struct isel {
    rdx_ir_ctx *ctx;
    cg_prog *p;
    struct rdx_codegen_kernel *k;
    rdx_status st;
    int cur; /* current block */
    /* per-node state, indexed by uop id */
    size_t cap;
    cg_val *val;
    uint8_t *have;  /* val[] valid */
    uint64_t *dep;  /* loop ranges the node depends on (bit = loop number) */
    uint8_t *info;  /* bit 0: dep computed */
    uint32_t *seen; /* walk stamps (reduce grouping) */
    uint32_t stamp;
    /* the kernel's REDUCE nodes (candidates for sharing a loop) */
    const rdx_uop **reds;
    size_t nreds;
    /* loop ranges (LOOP/REDUCE RANGEs), numbered by first sight */
    const rdx_uop *loops[CG_MAX_LOOPS];
    uint32_t loop_vr[CG_MAX_LOOPS];
    int nloops;
    uint64_t open; /* loops currently open */
    /* memo log: ids given values, popped when a loop closes */
    uint32_t *log;
    size_t nlog, logcap;
    /* ABI */
    uint32_t kernarg_vr;
    uint32_t wgid_vr[3];
    uint32_t tid_vr;
    uint32_t lid_vr[3]; /* lidx per dim, computed lazily at entry */
    int entry_block;
    /* dims */
    int dim_kind[3]; /* 0 unused, 1 idx (one bound), 2 gidx/lidx */
    uint32_t wg[3];
    /* DEFINE_LOCAL / DEFINE_REG storage */
    struct {
        const rdx_uop *node;
        uint32_t offset;
    } locals[16];
    int nlocals;
    struct {
        const rdx_uop *node;
        uint32_t *vr;
        int64_t n;
        uint8_t words;
    } regs[32];
    int nregs;
    /* WMMA fragments (isel_wmma.c) */
    cg_frag *frags;
    size_t nfrags, fragcap;
} isel;

/* ---- isel.c */
int cg_fail(isel *I, rdx_status st, const rdx_uop *u, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
uint32_t cg_new(isel *I, int file, unsigned n);
/* Append one instruction: ops[0..ndef) are written. Returns it (valid until the next push) or NULL.
 */
cg_inst *cg_ins(isel *I, rdx_isa_op op, int ndef, unsigned flags, const xo *ops, int n);
#define INS(I, op, ndef, ...)                                  \
    cg_ins(I, RDX_ISA_OP_##op, ndef, 0, (xo[]){ __VA_ARGS__ }, \
           (int)(sizeof((xo[]){ __VA_ARGS__ }) / sizeof(xo)))
#define INS0(I, op, fl) cg_ins(I, RDX_ISA_OP_##op, 0, fl, NULL, 0)
#define INSF(I, op, ndef, fl, ...)                              \
    cg_ins(I, RDX_ISA_OP_##op, ndef, fl, (xo[]){ __VA_ARGS__ }, \
           (int)(sizeof((xo[]){ __VA_ARGS__ }) / sizeof(xo)))
xo cg_r(isel *I, uint32_t vr, unsigned sub, unsigned count); /* register (sub)range */
xo cg_k(rdx_isa_opnd o);                                     /* fixed operand */
xo cg_i(int32_t v); /* 32-bit integer constant (inline or literal) */
xo cg_exec(void);   /* exec_lo */
/* A bool as a lane-mask operand (constants materialised: all ones / zero). */
xo cg_mask(isel *I, const cg_val *v);
/* Dword `sub` of a value as a source operand of a 32-bit slot. */
xo cg_src(isel *I, const cg_val *v, unsigned sub);
/* The whole value (2 dwords) as a 64-bit source; constants materialised when needed. */
xo cg_src64(isel *I, const cg_val *v, int is_float);
cg_val cg_reg(isel *I, int file, unsigned n);
cg_val cg_const(uint64_t bits, unsigned n);
/* Copies into a fresh VGPR (n dwords) / SGPR. */
cg_val cg_to_v(isel *I, const cg_val *v);
cg_val cg_to_s(isel *I, const cg_val *v);
/* Copy src into the existing register value dst (same size). */
void cg_copy(isel *I, const cg_val *dst, const cg_val *src);
/* Lower a node (memoised). */
cg_val cg_emit(isel *I, const rdx_uop *u);
/* Facts about nodes. */
int cg_narrow(isel *I, const rdx_uop *u); /* index node computed in 32 bits */
unsigned cg_words(isel *I, const rdx_uop *u);
/* Sign-extend a 1-dword int value to 2 dwords (signed) or zero-extend. */
cg_val cg_widen(isel *I, const cg_val *v, int is_signed);
/* The constant bits of a CONST node in its machine form. */
uint64_t cg_const_bits(const rdx_uop *u);

/* Make sure per-node arrays cover id (0 on out-of-memory, error recorded). */
int cg_node_grow(isel *I, uint32_t id);

/* ---- isel_wmma.c */
/* Mark fragment member loads and accumulated WMMAs (info bits) over the kernel's nodes. */
void cg_wmma_mark(isel *I, const rdx_uop *const *topo, size_t n);
/* Is u a VECTORIZE of 16 ungated loads of one global buffer (a fragment loaded as a unit)? */
int cg_wmma_frag_node(const rdx_uop *u);
/* A VECTORIZE of 16 halves: issue its loads (load fragments); a handle (VK_NONE, bits = id). */
cg_val cg_wmma_frag(isel *I, const rdx_uop *vec);
/* A WMMA outside an accumulating REDUCE: a fresh 8-dword result. */
cg_val cg_wmma(isel *I, const rdx_uop *u);
/* GEP of a WMMA result or of an accumulating REDUCE: one dword copied. */
cg_val cg_wmma_gep(isel *I, const rdx_uop *u);
/* An accumulating REDUCE (float32x8n of WMMA tiles): zeroed accumulator registers. */
cg_val cg_wmma_acc_init(isel *I, const rdx_uop *red);
/* One iteration of it: every tile's WMMA chain into acc, in place. */
void cg_wmma_acc_step(isel *I, const rdx_uop *red, const cg_val *acc);

/* ---- isel_alu.c */
/* Lower an elementwise node (ADD ... WHERE, CAST, BITCAST, RECIP, TRUNC). */
cg_val cg_alu(isel *I, const rdx_uop *u);
/* CAST of value a from dtype `from` to `to` (nf / nt: index dtypes narrow). */
cg_val cg_cast_dt(isel *I, rdx_dtype from, int nf, rdx_dtype to, int nt, const cg_val *a);
/* A float64 value as float32 rounded to odd (a later rounding to <= 22 bits is exact). */
cg_val cg_f64_to_f32_odd(isel *I, const cg_val *a);
/* ---- isel_fp8.c: a CAST or ALU node reading or giving fp8 (not WHERE/BITCAST) */
int cg_fp8_node(const rdx_uop *u);
/* The node lowered with sources s (gfx12; elsewhere an error naming node and target). */
cg_val cg_fp8_alu(isel *I, const rdx_uop *u, const cg_val *s);
/* acc OP= v for a reduction of dtype d (used by REDUCE); returns the new value. */
cg_val cg_alu_binary(isel *I, const rdx_uop *where, rdx_op op, rdx_dtype d, int narrow,
                     const cg_val *a, const cg_val *b);
/* Bits of the reduction identity for op in dtype d. */
uint64_t cg_red_identity(rdx_redop op, rdx_dtype d);
/* Normalise a 1-dword small int to dtype d (sign/zero extension). */
cg_val cg_normalise(isel *I, const cg_val *v, rdx_dtype d);

/* ---- isel_dce.c */
/* Remove ALU instructions whose results nobody reads; returns how many. */
unsigned cg_dce(cg_prog *p);

/* ---- isel_mem.c */
/* The row-major linear index of INDEX ix (built in ctx, simplified), NULL for registers. */
const rdx_uop *cg_index_linear(isel *I, const rdx_uop *ix);
cg_val cg_load(isel *I, const rdx_uop *u);
void cg_store(isel *I, const rdx_uop *u);
/* ATOMICADD(idx, value) into global memory or LDS (isel_mem.c). */
void cg_atomic_add(isel *I, const rdx_uop *u);
/* The address of a global buffer access at INDEX ix (of a PARAM/BUFFER): SGPR pair base,
   VGPR byte offset voff, folded constant imm (WMMA fragments).  0 on failure (recorded). */
int cg_global_addr(isel *I, const rdx_uop *ix, uint32_t *base, uint32_t *voff, int32_t *imm);

#endif
