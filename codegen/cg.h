/*
 * codegen/cg.h — the back end's internal machine program (internal).
 *
 * Instruction selection (isel*.c) turns a kernel-form graph into a list of
 * basic blocks of machine instructions over virtual registers; linearize.c
 * computes the control-flow graph and places s_waitcnt; regalloc.c assigns
 * physical registers; render.c encodes, builds the descriptor and metadata.
 *
 * A machine instruction is an rdx_isa_inst plus, per operand slot, the
 * virtual register it names (vr[k] != 0): then opnd[k].reg is the dword offset
 * inside that virtual register and opnd[k].count the dwords used.  The first
 * `ndef` operands are written, the rest read.
 */
#ifndef RDX_CODEGEN_CG_H
#define RDX_CODEGEN_CG_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/codegen.h>
#include <rdx/ir.h>
#include <rdx/isa.h>

enum { CG_S = 0, CG_V = 1 }; /* register files */

typedef struct cg_vreg {
    uint8_t file;    /* CG_S / CG_V */
    uint8_t size;    /* dwords */
    uint8_t align;   /* dwords (1, 2, 4) */
    int16_t phys;    /* physical register after allocation (or fixed), -1 before */
    uint8_t fixed;   /* pre-coloured (ABI registers) */
    uint8_t nospill; /* spill temporaries and SGPR-spill lane VGPRs: never spilled */
} cg_vreg;

enum {
    CG_F_PARTIAL = 1 << 0, /* executes under a narrowed EXEC: its defs do not kill */
    CG_F_VMEM_LOAD = 1 << 1,
    CG_F_LGKM = 1 << 2,       /* DS or SMEM: counts in lgkmcnt */
    CG_F_SMEM = 1 << 3,       /* SMEM (returns out of order) */
    CG_F_BARRIER = 1 << 4,    /* s_barrier: needs every LDS access done */
    CG_F_BRANCH = 1 << 5,     /* target is a block id */
    CG_F_WAITCNT = 1 << 6,    /* inserted s_waitcnt */
    CG_F_VMEM_STORE = 1 << 7, /* global store (vscnt) */
    CG_F_SPILL = 1 << 8,      /* spill code inserted by the register plan (spill.c) */
    CG_F_LONGBR = 1 << 9,     /* s_add_u32 of a long branch: literal = target - here */
    /* early-clobber destination (WMMA on gfx11: D must not overlap A, B or, but for the
       same registers, C): the register plan keeps every source live through the def */
    CG_F_EARLY = 1 << 10
};

typedef struct cg_inst {
    rdx_isa_inst in;
    uint32_t vr[RDX_ISA_MAX_OPNDS];
    uint8_t ndef;
    uint16_t flags;
    int32_t target; /* branch target block (CG_F_BRANCH) */
} cg_inst;

typedef struct cg_block {
    cg_inst *insts;
    size_t n, cap;
    int32_t succ[2]; /* -1 = none; filled by linearize */
    uint32_t start;  /* position of the first instruction (linearize) */
} cg_block;

/* One target's facts (codegen/target.def; target.c). */
typedef struct cg_target {
    const char *name;     /* "gfx1100" */
    unsigned major;       /* 11 or 12 */
    uint32_t vgprs;       /* VGPRs of a SIMD32 in wave32 */
    uint32_t granule;     /* their allocation granule in wave32 */
    uint8_t init16;       /* user + system SGPRs padded to 16 */
    uint8_t trans_hazard; /* TRANS → VALU use needs va_vdst(0) within 5 VALU / 1 TRANS */
} cg_target;
/* The row of target `name`, NULL when the back end does not know it. */
const cg_target *cg_target_find(const char *name);
/* Rows in target.def order (i < cg_target_count(), else NULL). */
size_t cg_target_count(void);
const cg_target *cg_target_at(size_t i);
/* The op target t spells op (a gfx11 op the back end builds) with: the gfx12 renames
   (s_add_i32 → s_add_co_i32, v_max_f32 → v_max_num_f32, ...), else op. */
unsigned cg_target_op(const rdx_isa_target *t, unsigned op);
/* cg_target_op of an instruction's op and VOPD Y op, in place (encode, listing). */
void cg_target_inst(const rdx_isa_target *t, rdx_isa_inst *in);

/* Machine program of one kernel. */
typedef struct cg_prog {
    const rdx_isa_target *tgt;
    const cg_target *ct; /* tgt's row of target.def */
    cg_vreg *vregs;      /* index 0 unused */
    size_t nvregs, vcap;
    cg_block *blocks;
    size_t nblocks, bcap;
    /* results of the register plan */
    uint32_t num_sgprs, num_vgprs; /* next free */
    /* ABI */
    uint32_t wgid_enable[3]; /* which workgroup ids are enabled */
    uint32_t tid_dims;       /* 0 = none needed, else 1..3 (v0 packed) */
    uint32_t wg_items;       /* work-items per workgroup (0 = unknown: 1024) */
    uint32_t lds_size;
    /* spilling (spill.c): scratch bytes per lane, spilled dwords per file, SGPR-spill lanes */
    uint32_t scratch_size;
    uint32_t spill_dwords[2];
    uint32_t spill_lanes; /* SGPR dwords kept in lanes of spill_lane_vr[] */
    uint32_t spill_lane_vr[8];
    uint32_t spill_insts; /* spill stores + reloads inserted */
} cg_prog;

/* ------------------------------------------------------------ cg_prog */
void cg_prog_init(cg_prog *p, const rdx_isa_target *t);
void cg_prog_free(cg_prog *p);
/* New virtual register; 0 on out-of-memory (error recorded). */
uint32_t cg_vreg_new(cg_prog *p, int file, unsigned size);
/* New block appended at the end; its id, or -1 on out-of-memory. */
int cg_block_new(cg_prog *p);
/* Append an instruction to block b (copied). RDX_ERR_NOMEM. */
rdx_status cg_block_push(cg_prog *p, int b, const cg_inst *in);
/* Insert before position `at` of block b. */
rdx_status cg_block_insert(cg_prog *p, int b, size_t at, const cg_inst *in);

/* rdx_isa_op_form's form info of op (of cg_target_op(t, op)) in `form`, NULL when the
   target has no such form (no error recorded); memoised per thread (isel, DCE, the hardware view,
   inline constants and the encoder ask for the same few ops thousands of times). */
const rdx_isa_form_info *cg_form(const rdx_isa_target *t, rdx_isa_op op, rdx_isa_form form);

/* Operand constructors for virtual registers. */
rdx_isa_opnd cg_vopnd(const cg_prog *p, uint32_t vr, unsigned sub, unsigned count);

/* ------------------------------------------------------------ hardware view (hw.c) */
enum {
    CG_HW_OTHER = 0,
    CG_HW_SALU,
    CG_HW_VALU,
    CG_HW_TRANS,
    CG_HW_SMEM,
    CG_HW_VMEM,
    CG_HW_DS,
    CG_HW_EXP
};
#define CG_HW_UNITS 512 /* register units: s0..s127 by operand code, v0..v255 at 256 */
#define CG_HW_MAXU  48
typedef struct cg_hw {
    uint8_t type;    /* CG_HW_* */
    uint8_t latency; /* cycles until a result is ready (SALU/VALU/TRANS) */
    uint8_t cycles;  /* issue cycles (s_nop N: N + 1) */
    uint8_t wmma;
    uint8_t ndef, nuse;
    uint16_t def[CG_HW_MAXU], use[CG_HW_MAXU]; /* def[0..ndef), use[0..nuse) set */
} cg_hw;
/* Class, latency and register units of a physical instruction. */
void cg_hw_classify(const rdx_isa_target *t, const rdx_isa_inst *in, cg_hw *h);
/* COMPUTE_PGM_RSRC2.USER_SGPR_COUNT of p: the kernarg pointer s[0:1], padded on targets
   with init16 (gfx1100/gfx1102 wave32 need at least 16 user plus system SGPRs: LLVM's
   UserSGPRInit16Bug) so that with the enabled workgroup ids they are 16; the workgroup
   ids follow in s[count..] (gfx12: in ttmp9/ttmp7, no system SGPRs). */
uint32_t cg_user_sgprs(const cg_prog *p);
/* VGPRs one wave of p may use so that a whole workgroup of p->wg_items fits a WGP
   (WGP mode: 4 SIMD32 of the target's VGPRs, allocated in its granules — gfx1100: 1536
   in granules of 24): LLVM's limit for that flat workgroup size, at most 256. */
uint32_t cg_max_vgprs(const cg_prog *p);
/* cg_hw_classify of every instruction of p: hw[b][i] for instruction i of block b (the
   dataflow passes visit each block several times); NULL on out-of-memory.  Freed by
   cg_hw_free_prog(hw, p->nblocks). */
cg_hw **cg_hw_classify_prog(const cg_prog *p);
void cg_hw_free_prog(cg_hw **hw, size_t nblocks);

/* ------------------------------------------------------------ stages */
/* isel: the graph under `sink` into p.  Fills kernel-level info in k. */
struct rdx_codegen_kernel;
rdx_status cg_isel(rdx_ir_ctx *ctx, const rdx_uop *sink, const rdx_codegen_options *o, cg_prog *p,
                   struct rdx_codegen_kernel *k);
/* isel's first step: vector ALU ops to VECTORIZEs of lanes, GEPs folded (isel_devec.c).
   When the graph had nothing to devectorize (out = sink), topo_out and ntopo get its
   topological order (malloc'd, the caller frees it); otherwise NULL/0. */
rdx_status cg_devectorize(rdx_ir_ctx *ctx, const rdx_uop *sink, const rdx_uop **out,
                          const rdx_uop ***topo_out, size_t *ntopo);
/* isel's last step: adjacent 32-bit global loads into b64/b96/b128 (isel_merge.c). */
unsigned cg_merge_loads(cg_prog *p);
/* Branches that may not reach their target (±32768 dwords) become s_getpc/s_setpc
   jumps through a fresh SGPR pair (render_branch.c; after the register plan). */
rdx_status cg_long_branches(cg_prog *p);
/* Packed f16: lane pairs of 16-bit loads, f16 add/mul/max/min and 16-bit stores as
   VOP3P (pack_f16.c, after isel); returns the number of packed ops. */
unsigned cg_pack_f16(cg_prog *p);
/* VALU interleaving (interleave.c, after isel, before linearize): within each run of VALU
   instructions, readers of a recent result move behind independent instructions (no
   dependency stall, VOPD partners next to each other); returns the runs reordered. */
unsigned cg_interleave(cg_prog *p);
/* linearize: CFG successors, positions, s_waitcnt placement. */
rdx_status cg_linearize(cg_prog *p);
/* regalloc: liveness and linear-scan assignment of every virtual register; spills
   (spill.c) and re-linearizes when a file runs out. */
rdx_status cg_regalloc(cg_prog *p);
/* spill: every reference to a virtual register with spill[v] set goes through a short-lived
   temporary, reloaded before and stored after the instruction (VGPRs to scratch, SGPRs to
   lanes of a VGPR).  The spilled registers are no longer referenced afterwards. */
rdx_status cg_spill_insert(cg_prog *p, const uint8_t *spill);
/* Literals in VALU float slots that have an inline form become inline constants
   (render_const.c, after regalloc); returns how many. */
unsigned cg_inline_constants(cg_prog *p);
/* VOPD: fuse independent VALU pairs (after regalloc); returns the number of pairs. */
unsigned cg_vopd(cg_prog *p);
/* gfx11 hazards (hazard.c, after VOPD): s_waitcnt_depctr before a VALU use of a TRANS
   result, v_nop between dependent WMMAs.  Returns the number of instructions inserted. */
rdx_status cg_hazards(cg_prog *p, unsigned *inserted);
/* s_delay_alu (delay_alu.c, last): dependent SALU/VALU/TRANS stalls, as LLVM does for gfx11. */
rdx_status cg_delay_alu(cg_prog *p, unsigned *inserted);
/* The two in a row, the instructions classified once (the hazard pass hands its
   classification of its output to the delay pass). */
rdx_status cg_hazards_delay_alu(cg_prog *p);
/* cg_delay_alu with the program's classification given (hw[b][i] for instruction i of block
   b, as cg_hw_classify_prog makes it); frees hw. */
rdx_status cg_delay_alu_hw(cg_prog *p, unsigned *inserted, cg_hw **hw);
/* Print the program (virtual registers as %sN / %vN, physical after allocation). */
rdx_status cg_print(const cg_prog *p, int physical, char **out);
/* render: encode p into machine code (malloc'd *code, *len) resolving branches. */
rdx_status cg_encode(const cg_prog *p, uint8_t **code, size_t *len);
/* render: descriptor + metadata + code object into k->code_object. */
rdx_status cg_render(const cg_prog *p, struct rdx_codegen_kernel *k, const char *name,
                     const uint8_t *code, size_t code_size);

#endif
