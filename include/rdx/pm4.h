/*
 * rdx/pm4.h — PM4 and SDMA command buffers for gfx11: builders, the compute
 * dispatch sequence, a packet iterator and a disassembler.
 *
 * Every number comes from the tables in <rdx/pm4_defs.h> (opcodes, packet
 * fields, registers and register fields); this header turns them into enums
 * and gives the functions that build and read packets.
 *
 * Building: a rdx_pm4_cmdbuf collects dwords, either growing on the heap
 * (rdx_pm4_cmdbuf_init) or inside caller memory (rdx_pm4_cmdbuf_init_fixed).
 * Every builder returns rdx_status and errors are sticky: after the first
 * failure (bad argument, out of memory, fixed buffer full) the buffer keeps
 * its status and later builders do nothing and return that status, so a
 * caller may build a whole sequence and check once.  A failing builder
 * leaves no partial packet behind.
 *
 * Reading: rdx_pm4_iter walks a PM4 or SDMA stream packet by packet and
 * yields rdx_pm4_packet structs (the emulated command processor uses the same
 * iterator); rdx_pm4_get / rdx_sdma_get read a named field of a packet.
 * rdx_pm4_disasm prints a stream with every packet, field and register named.
 */
#ifndef RDX_PM4_H
#define RDX_PM4_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rdx/pm4_defs.h>
#include <rdx/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Enums derived from the tables.                                            */

/* Type-3 opcodes: RDX_PM4_OP_<NAME> = opcode byte. */
typedef enum rdx_pm4_opcode {
#define RDX_PM4_OP_ENUM_(name, op, mn, mx, kind, win) RDX_PM4_OP_##name = op,
    RDX_PM4_OPCODES(RDX_PM4_OP_ENUM_)
#undef RDX_PM4_OP_ENUM_
} rdx_pm4_opcode;

/* Body kinds (see pm4_defs.h): RDX_PM4_BODY_RAW, _FIXED, _REGS, _DATA. */
typedef enum rdx_pm4_body_kind {
#define RDX_PM4_BODY_ENUM_(k) RDX_PM4_BODY_##k,
    RDX_PM4_BODY_KINDS(RDX_PM4_BODY_ENUM_)
#undef RDX_PM4_BODY_ENUM_
} rdx_pm4_body_kind;

/* Registers: RDX_PM4_REG_<NAME> = absolute dword offset. */
typedef enum rdx_pm4_reg {
#define RDX_PM4_REG_ENUM_(name, off) RDX_PM4_REG_##name = off,
    RDX_PM4_REGISTERS(RDX_PM4_REG_ENUM_)
#undef RDX_PM4_REG_ENUM_
} rdx_pm4_reg;

/* Packet fields: RDX_PM4_F_<OP>_<FIELD>, dense from 0. */
typedef enum rdx_pm4_field {
#define RDX_PM4_F_ENUM_(op, dw, f, lo, w, e) RDX_PM4_F_##op##_##f,
    RDX_PM4_PACKET_FIELDS(RDX_PM4_F_ENUM_)
#undef RDX_PM4_F_ENUM_
        RDX_PM4_FIELD_COUNT
} rdx_pm4_field;

/* Register fields: RDX_PM4_RF_<REG>_<FIELD>, dense from 0. */
typedef enum rdx_pm4_reg_field {
#define RDX_PM4_RF_ENUM_(reg, f, lo, w) RDX_PM4_RF_##reg##_##f,
    RDX_PM4_REG_FIELDS(RDX_PM4_RF_ENUM_)
#undef RDX_PM4_RF_ENUM_
        RDX_PM4_REG_FIELD_COUNT
} rdx_pm4_reg_field;

/* Kinds of enumerated field values: RDX_PM4_ENUM_<KIND>. */
typedef enum rdx_pm4_enum {
#define RDX_PM4_ENUM_ENUM_(k) RDX_PM4_ENUM_##k,
    RDX_PM4_ENUM_KINDS(RDX_PM4_ENUM_ENUM_)
#undef RDX_PM4_ENUM_ENUM_
} rdx_pm4_enum;

/* Named values: RDX_PM4_V_<KIND>_<NAME> (e.g. RDX_PM4_V_EVENT_CS_PARTIAL_FLUSH). */
enum {
#define RDX_PM4_V_ENUM_(k, v, name) RDX_PM4_V_##k##_##name = v,
    RDX_PM4_ENUM_VALUES(RDX_PM4_V_ENUM_)
#undef RDX_PM4_V_ENUM_
};

/* SDMA packets: RDX_SDMA_PKT_<NAME>, dense from 0. */
typedef enum rdx_sdma_packet {
#define RDX_SDMA_PKT_ENUM_(name, op, sub, size) RDX_SDMA_PKT_##name,
    RDX_SDMA_PACKETS(RDX_SDMA_PKT_ENUM_)
#undef RDX_SDMA_PKT_ENUM_
        RDX_SDMA_PKT_COUNT
} rdx_sdma_packet;

/* SDMA fields: RDX_SDMA_F_<PACKET>_<FIELD>, dense from 0. */
typedef enum rdx_sdma_field {
#define RDX_SDMA_F_ENUM_(pkt, dw, f, lo, w, e) RDX_SDMA_F_##pkt##_##f,
    RDX_SDMA_FIELDS(RDX_SDMA_F_ENUM_)
#undef RDX_SDMA_F_ENUM_
        RDX_SDMA_FIELD_COUNT
} rdx_sdma_field;

/* Compile-time positions, so builders place fields straight from the table:
 * RDX_PM4_PUT(RELEASE_MEM, DATA_SEL, 2), RDX_PM4_REG_PUT(COMPUTE_PGM_RSRC2,
 * USER_SGPR, n), RDX_SDMA_PUT(COPY_LINEAR, COUNT, n-1).                     */
enum {
#define RDX_PM4_POS_ENUM_(op, dw, f, lo, w, e) \
    RDX_PM4_LO_##op##_##f = lo, RDX_PM4_W_##op##_##f = w, RDX_PM4_DW_##op##_##f = dw,
    RDX_PM4_PACKET_FIELDS(RDX_PM4_POS_ENUM_)
#undef RDX_PM4_POS_ENUM_
#define RDX_PM4_RPOS_ENUM_(reg, f, lo, w) RDX_PM4_RLO_##reg##_##f = lo, RDX_PM4_RW_##reg##_##f = w,
        RDX_PM4_REG_FIELDS(RDX_PM4_RPOS_ENUM_)
#undef RDX_PM4_RPOS_ENUM_
#define RDX_SDMA_POS_ENUM_(pkt, dw, f, lo, w, e) \
    RDX_SDMA_LO_##pkt##_##f = lo, RDX_SDMA_W_##pkt##_##f = w, RDX_SDMA_DW_##pkt##_##f = dw,
            RDX_SDMA_FIELDS(RDX_SDMA_POS_ENUM_)
#undef RDX_SDMA_POS_ENUM_
};

#define RDX_PM4_MASK_(w)           ((w) >= 32 ? 0xffffffffu : ((1u << ((w) & 31)) - 1u))
#define RDX_PM4_BITS_(v, lo, w)    (((uint32_t)(v) & RDX_PM4_MASK_(w)) << (lo))
#define RDX_PM4_PUT(op, f, v)      RDX_PM4_BITS_(v, RDX_PM4_LO_##op##_##f, RDX_PM4_W_##op##_##f)
#define RDX_PM4_REG_PUT(reg, f, v) RDX_PM4_BITS_(v, RDX_PM4_RLO_##reg##_##f, RDX_PM4_RW_##reg##_##f)
#define RDX_SDMA_PUT(pkt, f, v)    RDX_PM4_BITS_(v, RDX_SDMA_LO_##pkt##_##f, RDX_SDMA_W_##pkt##_##f)

/* Type-3 header: count = body dwords - 1; compute sets the shader-type bit. */
#define RDX_PM4_HEADER(op, count, compute)                                                  \
    ((3u << 30) | (((uint32_t)(count) & 0x3fffu) << 16) | (((uint32_t)(op) & 0xffu) << 8) | \
     ((compute) ? 2u : 0u))

/* ------------------------------------------------------------------------ */
/* Table lookups (static storage, never freed).                              */

typedef struct rdx_pm4_op_info {
    const char *name;  /* "SET_SH_REG" */
    uint8_t opcode;    /* RDX_PM4_OP_* */
    uint8_t kind;      /* rdx_pm4_body_kind */
    uint16_t min_body; /* bounds on body dwords (count + 1) */
    uint16_t max_body;
    uint32_t reg_window;           /* REGS kinds: first register of the window */
    uint16_t first_field, nfields; /* range in the packet field table */
} rdx_pm4_op_info;

typedef struct rdx_pm4_field_info {
    const char *name; /* "DATA_SEL" */
    uint8_t opcode;   /* packet it belongs to (PM4) or rdx_sdma_packet (SDMA) */
    uint8_t dw;       /* body dword (PM4, from 1) or packet dword (SDMA, from 0) */
    uint8_t lo, width;
    uint8_t enum_kind; /* rdx_pm4_enum */
} rdx_pm4_field_info;

typedef struct rdx_pm4_reg_info {
    const char *name;              /* "COMPUTE_PGM_RSRC2" */
    uint32_t offset;               /* absolute dword offset */
    uint16_t first_field, nfields; /* range in the register field table */
} rdx_pm4_reg_info;

typedef struct rdx_sdma_packet_info {
    const char *name; /* "COPY_LINEAR" */
    uint8_t op, sub_op;
    uint8_t size; /* dwords incl. header; 0 = variable */
    uint16_t first_field, nfields;
} rdx_sdma_packet_info;

/* Opcode info, or NULL when `opcode` is not in the table. */
const rdx_pm4_op_info *rdx_pm4_op_info_get(unsigned opcode);
/* Field info of a valid id (asserts on out-of-range ids). */
const rdx_pm4_field_info *rdx_pm4_field_info_get(rdx_pm4_field f);
const rdx_pm4_field_info *rdx_pm4_reg_field_info_get(rdx_pm4_reg_field f);
const rdx_pm4_field_info *rdx_sdma_field_info_get(rdx_sdma_field f);
/* Register at an absolute dword offset, or NULL when unknown. */
const rdx_pm4_reg_info *rdx_pm4_reg_lookup(uint32_t offset);
/* Register by name ("COMPUTE_PGM_LO"), or NULL. */
const rdx_pm4_reg_info *rdx_pm4_reg_find(const char *name);
/* SDMA packet info by index, or by (op, sub_op) — NULL when unknown. */
const rdx_sdma_packet_info *rdx_sdma_packet_info_get(rdx_sdma_packet p);
const rdx_sdma_packet_info *rdx_sdma_packet_lookup(unsigned op, unsigned sub_op);
/* Name of an enumerated value ("CS_PARTIAL_FLUSH"), or NULL when unnamed. */
const char *rdx_pm4_enum_name(rdx_pm4_enum kind, uint32_t value);

/* Extract a register field from a register value. */
uint32_t rdx_pm4_reg_get(uint32_t value, rdx_pm4_reg_field f);

/* ------------------------------------------------------------------------ */
/* Command buffers.                                                          */

typedef struct rdx_pm4_cmdbuf {
    uint32_t *dw;      /* the dwords; owned unless `fixed` */
    size_t len;        /* dwords written */
    size_t cap;        /* dwords available */
    bool fixed;        /* dw is caller memory of `cap` dwords; never grows */
    rdx_status status; /* first error, sticky; RDX_OK while healthy */
    size_t open;       /* begin/end: header index + 1 of the open packet, 0 if none */
} rdx_pm4_cmdbuf;

/* An empty growable buffer (no allocation until the first dword). */
void rdx_pm4_cmdbuf_init(rdx_pm4_cmdbuf *cb);
/* A buffer writing into caller memory `mem` of `cap_dw` dwords (not owned);
 * running out of room fails with RDX_ERR_RANGE. */
void rdx_pm4_cmdbuf_init_fixed(rdx_pm4_cmdbuf *cb, uint32_t *mem, size_t cap_dw);
/* Forget the contents and the sticky error; keeps the storage. */
void rdx_pm4_cmdbuf_reset(rdx_pm4_cmdbuf *cb);
/* Release owned storage; the buffer is then empty and may be reused. */
void rdx_pm4_cmdbuf_free(rdx_pm4_cmdbuf *cb);
/* The sticky status (RDX_OK while every builder succeeded). */
rdx_status rdx_pm4_cmdbuf_status(const rdx_pm4_cmdbuf *cb);
/* Append n raw dwords from dw (n = 0 appends nothing and returns the
 * sticky status; dw NULL with n >= 1 is RDX_ERR_INVALID). */
rdx_status rdx_pm4_emit(rdx_pm4_cmdbuf *cb, const uint32_t *dw, size_t n);

/*
 * Begin/add/end: open a type-3 packet with `opcode` (compute shader type when
 * `compute`), append body dwords with rdx_pm4_add, and close it with
 * rdx_pm4_end, which writes the header's count.  A packet needs 1..0x4000
 * body dwords; only one packet may be open.  Errors: RDX_ERR_INVALID (nested
 * begin, end without begin, empty or oversized body).
 */
rdx_status rdx_pm4_begin(rdx_pm4_cmdbuf *cb, rdx_pm4_opcode opcode, bool compute);
rdx_status rdx_pm4_add(rdx_pm4_cmdbuf *cb, uint32_t dw);
rdx_status rdx_pm4_end(rdx_pm4_cmdbuf *cb);

/* ------------------------------------------------------------------------ */
/* PM4 builders (gfx11 compute queue).  SET_SH_REG and DISPATCH_* headers
 * carry the compute shader-type bit (as Mesa's compute packets); the other
 * packets leave it clear (as amdgpu's ring packets).                      */

/* NOP filling exactly `ndw` >= 1 dwords (ndw == 1 uses count 0x3fff, the
 * one-dword filler amdgpu uses for ring padding). */
rdx_status rdx_pm4_nop(rdx_pm4_cmdbuf *cb, uint32_t ndw);
/* SET_SH_REG of `n` >= 1 consecutive registers starting at `reg` (absolute
 * dword offset inside [0x2c00, 0x3000)). */
rdx_status rdx_pm4_set_sh_reg(rdx_pm4_cmdbuf *cb, uint32_t reg, const uint32_t *vals, uint32_t n);
/* SET_UCONFIG_REG, registers inside [0xc000, 0x10000) (the packet's 16-bit offset). */
rdx_status rdx_pm4_set_uconfig_reg(rdx_pm4_cmdbuf *cb, uint32_t reg, const uint32_t *vals,
                                   uint32_t n);

/* ACQUIRE_MEM GCR_CNTL bits (body dword 7). */
#define RDX_PM4_GCR_GLI_INV_ALL RDX_PM4_PUT(ACQUIRE_MEM, GCR_GLI_INV, 1)
#define RDX_PM4_GCR_GLM_WB      RDX_PM4_PUT(ACQUIRE_MEM, GCR_GLM_WB, 1)
#define RDX_PM4_GCR_GLM_INV     RDX_PM4_PUT(ACQUIRE_MEM, GCR_GLM_INV, 1)
#define RDX_PM4_GCR_GLK_WB      RDX_PM4_PUT(ACQUIRE_MEM, GCR_GLK_WB, 1)
#define RDX_PM4_GCR_GLK_INV     RDX_PM4_PUT(ACQUIRE_MEM, GCR_GLK_INV, 1)
#define RDX_PM4_GCR_GLV_INV     RDX_PM4_PUT(ACQUIRE_MEM, GCR_GLV_INV, 1)
#define RDX_PM4_GCR_GL1_INV     RDX_PM4_PUT(ACQUIRE_MEM, GCR_GL1_INV, 1)
#define RDX_PM4_GCR_GL2_INV     RDX_PM4_PUT(ACQUIRE_MEM, GCR_GL2_INV, 1)
#define RDX_PM4_GCR_GL2_WB      RDX_PM4_PUT(ACQUIRE_MEM, GCR_GL2_WB, 1)
/* Write back and invalidate every cache level (what amdgpu's gfx11 mem_sync does). */
#define RDX_PM4_GCR_ALL                                                                         \
    (RDX_PM4_GCR_GLI_INV_ALL | RDX_PM4_GCR_GLM_WB | RDX_PM4_GCR_GLM_INV | RDX_PM4_GCR_GLK_INV | \
     RDX_PM4_GCR_GLV_INV | RDX_PM4_GCR_GL1_INV | RDX_PM4_GCR_GL2_INV | RDX_PM4_GCR_GL2_WB)

/* ACQUIRE_MEM over the whole address space with `gcr_cntl` cache actions
 * (poll interval 10, as amdgpu). */
rdx_status rdx_pm4_acquire_mem(rdx_pm4_cmdbuf *cb, uint32_t gcr_cntl);

/* A RELEASE_MEM, field by field (values are placed, not interpreted). */
typedef struct rdx_pm4_release {
    uint32_t event_type;   /* RDX_PM4_V_EVENT_* */
    uint32_t event_index;  /* 5 for end-of-pipe events */
    uint32_t gcr;          /* GCR bits, already at their dword-1 positions */
    uint32_t cache_policy; /* RDX_PM4_V_CACHE_POLICY_* */
    uint32_t dst_sel;      /* RDX_PM4_V_REL_DST_SEL_* */
    uint32_t int_sel;      /* RDX_PM4_V_INT_SEL_* */
    uint32_t data_sel;     /* RDX_PM4_V_DATA_SEL_* */
    uint64_t addr;         /* 4-aligned (8-aligned for 64-bit data) when data is written */
    uint64_t data;
    uint32_t int_ctxid;
} rdx_pm4_release;
rdx_status rdx_pm4_release_mem(rdx_pm4_cmdbuf *cb, const rdx_pm4_release *r);

/* RELEASE_MEM GCR bits used by signals (dword-1 positions). */
#define RDX_PM4_REL_GCR_SIGNAL                                                        \
    (RDX_PM4_PUT(RELEASE_MEM, GCR_SEQ, 1) | RDX_PM4_PUT(RELEASE_MEM, GCR_GL2_WB, 1) | \
     RDX_PM4_PUT(RELEASE_MEM, GCR_GLM_INV, 1) | RDX_PM4_PUT(RELEASE_MEM, GCR_GLM_WB, 1))

/*
 * End-of-pipe signal: once all prior work is done and caches are written
 * back, write the 64-bit `value` to `addr` (8-aligned) and, when `interrupt`,
 * raise an interrupt carrying `int_ctxid` after the write is confirmed.
 * (CACHE_FLUSH_AND_INV_TS_EVENT, as amdgpu's gfx11 fence.)
 */
rdx_status rdx_pm4_signal(rdx_pm4_cmdbuf *cb, uint64_t addr, uint64_t value, bool interrupt,
                          uint32_t int_ctxid);
/* 64-bit GPU clock written to `addr` (8-aligned) when all prior work is done
 * (RELEASE_MEM BOTTOM_OF_PIPE_TS, DATA_SEL gpu_clock64). */
rdx_status rdx_pm4_timestamp_eop(rdx_pm4_cmdbuf *cb, uint64_t addr);
/* 64-bit GPU clock written to `addr` (8-aligned) when the CP reaches this
 * packet (COPY_DATA from the GPU clock counter, with write confirm). */
rdx_status rdx_pm4_timestamp_top(rdx_pm4_cmdbuf *cb, uint64_t addr);

/* EVENT_WRITE of `event_type` (RDX_PM4_V_EVENT_*) with `event_index`. */
rdx_status rdx_pm4_event_write(rdx_pm4_cmdbuf *cb, uint32_t event_type, uint32_t event_index);
/* EVENT_WRITE CS_PARTIAL_FLUSH (index 4): wait for prior dispatches to finish. */
rdx_status rdx_pm4_cs_partial_flush(rdx_pm4_cmdbuf *cb);

/* WAIT_REG_MEM on memory: stall until (*(uint32_t *)addr & mask) <func> ref.
 * `func` is RDX_PM4_V_WAIT_FUNC_*; addr 4-aligned; poll interval in clocks. */
rdx_status rdx_pm4_wait_mem32(rdx_pm4_cmdbuf *cb, uint64_t addr, uint32_t ref, uint32_t mask,
                              uint32_t func, uint32_t poll_interval);
/* WAIT_REG_MEM64: the same on a 64-bit value (addr 8-aligned). */
rdx_status rdx_pm4_wait_mem64(rdx_pm4_cmdbuf *cb, uint64_t addr, uint64_t ref, uint64_t mask,
                              uint32_t func, uint32_t poll_interval);

/* WRITE_DATA of `n` >= 1 dwords to memory at `addr` (4-aligned), DST_SEL
 * memory, optionally waiting for write confirmation. */
rdx_status rdx_pm4_write_data(rdx_pm4_cmdbuf *cb, uint64_t addr, const uint32_t *data, uint32_t n,
                              bool wr_confirm);

/* INDIRECT_BUFFER: run `ndw` (1..0xfffff) dwords at `addr` (4-aligned) under
 * `vmid` (0..15; 0 on KFD user queues). */
rdx_status rdx_pm4_indirect_buffer(rdx_pm4_cmdbuf *cb, uint64_t addr, uint32_t ndw, uint32_t vmid);

/* COPY_DATA, field by field. */
typedef struct rdx_pm4_copy {
    uint32_t src_sel, dst_sel; /* RDX_PM4_V_CD_SRC_SEL_*, RDX_PM4_V_CD_DST_SEL_* */
    bool count64;              /* copy 64 bits instead of 32 */
    bool wr_confirm;
    uint64_t src; /* address, register offset or immediate data */
    uint64_t dst;
} rdx_pm4_copy;
rdx_status rdx_pm4_copy_data(rdx_pm4_cmdbuf *cb, const rdx_pm4_copy *c);

/* DISPATCH_DIRECT of x*y*z workgroups with a COMPUTE_DISPATCH_INITIATOR value. */
rdx_status rdx_pm4_dispatch_direct(rdx_pm4_cmdbuf *cb, uint32_t x, uint32_t y, uint32_t z,
                                   uint32_t initiator);
/* DISPATCH_INDIRECT (compute-queue form): dimensions read from 3 dwords at
 * `addr` (4-aligned). */
rdx_status rdx_pm4_dispatch_indirect(rdx_pm4_cmdbuf *cb, uint64_t addr, uint32_t initiator);

/* Everything one compute dispatch needs; the runtime fills it from a kernel
 * descriptor. */
typedef struct rdx_pm4_dispatch_desc {
    uint64_t code_addr; /* kernel entry, 256-byte aligned, < 2^48 */
    uint32_t rsrc1, rsrc2,
        rsrc3;                /* COMPUTE_PGM_RSRC1/2/3 (rsrc2's LDS_SIZE is set from lds_bytes) */
    uint32_t user_sgpr[16];   /* COMPUTE_USER_DATA_0.. */
    uint32_t user_sgpr_count; /* must equal rsrc2.USER_SGPR */
    uint32_t grid[3];         /* workgroups in x, y, z (each >= 1); all 0 when items[] is used */
    uint32_t block[3];        /* threads per workgroup (each >= 1, product <= 1024) */
    /* The grid in work-items instead (all 0 = use grid[]; otherwise each >= 1
     * and grid[] all 0): DISPATCH_DIRECT then counts work-items
     * (DISPATCH_INITIATOR.USE_THREAD_DIMENSIONS), and when some items[i] is
     * not a multiple of block[i] the last workgroup in that dimension is
     * partial: NUM_THREAD_*.NUM_THREAD_PARTIAL = items[i] % block[i] and
     * PARTIAL_TG_EN is set. */
    uint32_t items[3];
    uint32_t lds_bytes;          /* dynamic + static LDS per workgroup (<= 65536) */
    uint64_t scratch_addr;       /* scratch base (256-aligned); 0 when no scratch */
    uint32_t scratch_waves;      /* TMPRING_SIZE.WAVES (<= 4095) */
    uint32_t scratch_wave_bytes; /* per-wave scratch; rounded up to 256 bytes */
    uint32_t resource_limits;    /* COMPUTE_RESOURCE_LIMITS value (0 = no limits) */
    bool wave32;                 /* CS_W32_EN */
    bool acquire;                /* start with ACQUIRE_MEM (RDX_PM4_GCR_ALL) */
    /* The GPU's gfx major version: 11 (0 means 11) or 12.  gfx11 forces
     * COMPUTE_PGM_RSRC1.PRIV (the CWSR workaround) and has a 15-bit
     * TMPRING_SIZE.WAVESIZE; gfx12 takes rsrc1 as given and 18 bits. */
    uint32_t gfx_major;
} rdx_pm4_dispatch_desc;

/*
 * The gfx11/gfx12 compute dispatch sequence (d->gfx_major): [ACQUIRE_MEM], SET_SH_REG of
 * PGM_LO/HI, PGM_RSRC1/2, PGM_RSRC3, TMPRING_SIZE, DISPATCH_SCRATCH_BASE_LO/HI,
 * USER_DATA_0..n-1 (when n > 0), RESOURCE_LIMITS, START_X/Y/Z + NUM_THREAD_X/Y/Z,
 * then DISPATCH_DIRECT with COMPUTE_SHADER_EN | FORCE_START_AT_000 (|
 * CS_W32_EN) (| USE_THREAD_DIMENSIONS [| PARTIAL_TG_EN] for a grid given in
 * items[]).  Completion (CS partial flush, signal) is left to the caller.
 * Errors: RDX_ERR_INVALID naming the bad member (alignment, counts, sizes, a
 * gfx_major other than 0, 11 or 12).
 */
rdx_status rdx_pm4_dispatch(rdx_pm4_cmdbuf *cb, const rdx_pm4_dispatch_desc *d);
/* The DISPATCH_INITIATOR value rdx_pm4_dispatch uses. */
uint32_t rdx_pm4_dispatch_initiator(bool wave32);

/* ------------------------------------------------------------------------ */
/* SDMA v6 builders.                                                         */

/* Largest byte count one COPY_LINEAR / CONST_FILL packet is given (amdgpu's
 * sdma_v6 copy_max_bytes / fill_max_bytes); longer requests are split. */
#define RDX_SDMA_MAX_BYTES 0x400000u

/* NOP filling exactly `ndw` >= 1 dwords. */
rdx_status rdx_sdma_nop(rdx_pm4_cmdbuf *cb, uint32_t ndw);
/* Copy `bytes` >= 1 from src to dst (any alignment), split into packets of
 * at most RDX_SDMA_MAX_BYTES.  RDX_ERR_INVALID when bytes is 0 or above 2^48
 * (the GPU's virtual address space) or when [src, src + bytes) or
 * [dst, dst + bytes) runs past 2^64. */
rdx_status rdx_sdma_copy_linear(rdx_pm4_cmdbuf *cb, uint64_t dst, uint64_t src, uint64_t bytes);
/* Fill `bytes` (multiple of 4, >= 4, at most 2^48) at dst (4-aligned) with
 * the dword `value`; RDX_ERR_INVALID otherwise or when [dst, dst + bytes)
 * runs past 2^64. */
rdx_status rdx_sdma_const_fill(rdx_pm4_cmdbuf *cb, uint64_t dst, uint32_t value, uint64_t bytes);
/* Write the 32-bit `value` to addr (4-aligned) once prior packets are done
 * (MTYPE uncached, as amdgpu's sdma_v6 fence). */
rdx_status rdx_sdma_fence(rdx_pm4_cmdbuf *cb, uint64_t addr, uint32_t value);
/* Raise a trap interrupt carrying `int_context` (< 2^28). */
rdx_status rdx_sdma_trap(rdx_pm4_cmdbuf *cb, uint32_t int_context);
/* Poll memory until (*(uint32_t *)addr & mask) <func> ref; func is
 * RDX_PM4_V_SDMA_FUNC_*, interval < 2^16, retry_count < 2^12 (0xfff = forever). */
rdx_status rdx_sdma_poll_mem(rdx_pm4_cmdbuf *cb, uint64_t addr, uint32_t ref, uint32_t mask,
                             uint32_t func, uint32_t interval, uint32_t retry_count);
/* Write the 64-bit global GPU timestamp to addr (8-aligned). */
rdx_status rdx_sdma_timestamp(rdx_pm4_cmdbuf *cb, uint64_t addr);
/* Write `n` (1..2^20) dwords of `data` to addr (4-aligned). */
rdx_status rdx_sdma_write(rdx_pm4_cmdbuf *cb, uint64_t addr, const uint32_t *data, uint32_t n);

/* ------------------------------------------------------------------------ */
/* Reading streams.                                                          */

/* One decoded packet.  `dw` points into the caller's stream. */
typedef struct rdx_pm4_packet {
    size_t offset;                    /* dword offset of the header in the stream */
    uint32_t ndw;                     /* dwords including the header (0 if unknown) */
    const uint32_t *dw;               /* dw[0] = header, dw[1..ndw-1] = body */
    uint32_t type;                    /* PM4 header type (3); 0 for SDMA */
    uint32_t opcode;                  /* PM4 opcode or SDMA op */
    uint32_t sub_op;                  /* SDMA sub-op; 0 for PM4 */
    bool compute, predicate;          /* PM4 header bits */
    const rdx_pm4_op_info *op;        /* PM4: table entry, NULL for unknown opcodes */
    const rdx_sdma_packet_info *sdma; /* SDMA: table entry, NULL if unknown */
} rdx_pm4_packet;

typedef struct rdx_pm4_iter {
    const uint32_t *dw;
    size_t ndw;
    size_t pos;   /* dword offset of the next packet */
    bool sdma;    /* SDMA stream instead of PM4 */
    bool stopped; /* a structural error ended the walk */
} rdx_pm4_iter;

/* Start walking `ndw` dwords at `dw` (not copied; must outlive the iterator). */
void rdx_pm4_iter_init(rdx_pm4_iter *it, const uint32_t *dw, size_t ndw, bool sdma);
/* True when no packet is left (end reached, or stopped by a structural error). */
bool rdx_pm4_iter_done(const rdx_pm4_iter *it);
/*
 * Decode the next packet into *pkt.  RDX_OK: a well-formed packet.
 * RDX_ERR_PARSE, message "dword N: ...":
 *   - recoverable (iteration continues after the packet): unknown PM4 opcode,
 *     body length outside the opcode's layout, SET_*_REG outside its window;
 *     *pkt describes the packet (op may be NULL);
 *   - structural (rdx_pm4_iter_done becomes true): truncated packet, PM4
 *     packet type other than 3, unknown SDMA op; pkt->ndw is 0 then.
 * Never reads outside [dw, dw + ndw).
 */
rdx_status rdx_pm4_iter_next(rdx_pm4_iter *it, rdx_pm4_packet *pkt);

/* Value of a field of a PM4 / SDMA packet (the packet must be of the field's
 * kind and long enough, as the iterator guarantees for RDX_OK packets;
 * asserts otherwise). */
uint32_t rdx_pm4_get(const rdx_pm4_packet *pkt, rdx_pm4_field f);
uint32_t rdx_sdma_get(const rdx_pm4_packet *pkt, rdx_sdma_field f);

/* For a SET_*_REG packet (REGS kind): the absolute offset of the first
 * register written (*first) and how many consecutive registers follow
 * (*count; their values are pkt->dw[2 .. 2 + count)).  Returns false for
 * other packets. */
bool rdx_pm4_regs(const rdx_pm4_packet *pkt, uint32_t *first, uint32_t *count);

/* Options of rdx_pm4_disasm. */
typedef struct rdx_pm4_disasm_opts {
    bool sdma;     /* the stream is SDMA, not PM4 */
    bool has_base; /* print GPU addresses base + 4*offset instead of dword offsets */
    uint64_t base;
} rdx_pm4_disasm_opts;

/*
 * Disassemble `ndw` dwords: one line per dword with its offset (or address),
 * its hex value and the packet, fields and registers it holds by name.
 * *text receives a malloc'd NUL-terminated string (caller frees) whenever
 * the call returns RDX_OK or RDX_ERR_PARSE; malformed packets appear in it
 * as "error: dword N: ..." lines and the call returns RDX_ERR_PARSE with the
 * first such message.  RDX_ERR_NOMEM leaves *text NULL.  opts may be NULL.
 */
rdx_status rdx_pm4_disasm(const uint32_t *dw, size_t ndw, const rdx_pm4_disasm_opts *opts,
                          char **text);

#ifdef __cplusplus
}
#endif

#endif /* RDX_PM4_H */
