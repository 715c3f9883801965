/*
 * rdx/sqtt.h — SQ thread traces (SQTT) in the token format of RDNA3 (layout 3)
 * and RDNA4 (layout 4) GPUs: a decoder of the nibble-packed packet stream a
 * card's thread trace writes, the mapping of its instruction packets to the
 * PCs of the traced code, and an encoder that writes the emulator's
 * instruction trace (rdx/emu_prof.h) in the same formats, so the decoder and
 * everything after it run in CI on traces of the emulated GPU.  docs/prof.md
 * "SQ thread traces" describes the format as rdx reads it.
 */
#ifndef RDX_SQTT_H
#define RDX_SQTT_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/emu_prof.h>
#include <rdx/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Packet types, numbered as AMD's rocprof decoder numbers them. */
#define RDX_SQTT_TYPE_LIST(X) \
    X(VALUINST, 1)            \
    X(VMEMEXEC, 2)            \
    X(ALUEXEC, 3)             \
    X(IMMEDIATE, 4)           \
    X(IMMEDIATE_MASK, 5)      \
    X(WAVERDY, 6)             \
    X(TS_DELTA_S8_W3, 7)      \
    X(WAVEEND, 8)             \
    X(WAVESTART, 9)           \
    X(TS_DELTA_S5_W2, 10)     \
    X(WAVEALLOC, 11)          \
    X(TS_DELTA_S5_W3, 12)     \
    X(PERF, 13)               \
    X(UTILCTR, 14)            \
    X(TS_DELTA_SHORT, 15)     \
    X(NOP, 16)                \
    X(TS_WAVE_STATE, 17)      \
    X(EVENT, 18)              \
    X(EVENT_BIG, 19)          \
    X(REG, 20)                \
    X(SNAPSHOT, 21)           \
    X(TS_DELTA_OR_MARK, 22)   \
    X(LAYOUT_HEADER, 23)      \
    X(INST, 24)

typedef enum rdx_sqtt_type {
#define RDX_SQTT_TYPE_ENUM_(n, v) RDX_SQTT_##n = v,
    RDX_SQTT_TYPE_LIST(RDX_SQTT_TYPE_ENUM_)
#undef RDX_SQTT_TYPE_ENUM_
} rdx_sqtt_type;

/* Name of a packet type ("INST", ...); "?" when unknown. */
const char *rdx_sqtt_type_name(int type);

/* INST packet operation codes rdx writes: layout 3 (RDNA3) and, where RDNA4 numbers them
   differently or has its own, layout 4 (_L4).  The numbers are the ones tinygrad's open
   decoder names (tinygrad/renderer/amd/sqtt.py InstOp, InstOpRDNA4) and that the cards'
   traces of tinygrad's examples show for these instructions. */
enum {
    RDX_SQTT_OP_SALU = 0x00,
    RDX_SQTT_OP_SMEM_RD = 0x01,
    RDX_SQTT_OP_JUMP = 0x03,    /* branch taken */
    RDX_SQTT_OP_JUMP_NO = 0x04, /* branch not taken */
    RDX_SQTT_OP_MESSAGE = 0x09,
    RDX_SQTT_OP_VALU_TRANS = 0x0b,
    RDX_SQTT_OP_VALU_B2 = 0x0d,  /* 64-bit shifts */
    RDX_SQTT_OP_VALU_B4 = 0x0e,  /* 64-bit multiply-add */
    RDX_SQTT_OP_VALU_B16 = 0x0f, /* double precision */
    RDX_SQTT_OP_BARRIER = 0x13,
    RDX_SQTT_OP_FLAT_RD = 0x1c,
    RDX_SQTT_OP_FLAT_WR = 0x1d,
    RDX_SQTT_OP_GLOBAL_RD = 0x21,
    RDX_SQTT_OP_GLOBAL_WR = 0x24,
    RDX_SQTT_OP_LDS_RD = 0x29,
    RDX_SQTT_OP_LDS_WR = 0x2b,
    RDX_SQTT_OP_SALU_WR_EXEC = 0x72,
    RDX_SQTT_OP_VALU_WR_EXEC = 0x73,
    RDX_SQTT_OP_L4_BARRIER_SIGNAL = 0x7a,
    RDX_SQTT_OP_L4_WMMA_8 = 0x8c,         /* v_wmma_*_iu8 / _iu4 (16x16x16) */
    RDX_SQTT_OP_L4_WMMA_16 = 0x8d,        /* v_wmma_* of 16-bit floats (16x16x16) */
    RDX_SQTT_OP_L4_SALU_2 = 0x9b,         /* s_mul_* */
    RDX_SQTT_OP_L4_VALU_SCL_TRANS = 0x99, /* v_s_exp_f32 and the other scalar trans */
};

/* The token layout of the thread traces of a target's GPU: 3 for RDNA3 and RDNA3.5
   (gfx11xx; RDNA3.5's is assumed to be RDNA3's, no trace of such a card was seen), 4 for
   RDNA4 (gfx12xx); 0 for a name rdx does not know.  The one place that decides which
   format the emulated GPU writes and which rdx expects of a card. */
unsigned rdx_sqtt_layout_of(const char *target);

/* One decoded packet. */
typedef struct rdx_sqtt_packet {
    uint8_t type;    /* rdx_sqtt_type */
    uint8_t layout;  /* 3 (RDNA3) or 4 (RDNA4), from the stream's layout header */
    uint8_t nibbles; /* size in the stream */
    uint64_t offset; /* position in the stream, in nibbles */
    uint64_t time;   /* the sum of the deltas so far (the trace's clock) */
    uint64_t raw;    /* the packet's first 64 bits */
    /* Fields, where the type has them (else 0): */
    uint32_t wave; /* wave slot */
    uint32_t simd; /* WAVESTART / WAVEEND */
    uint32_t cu;   /* WAVESTART / WAVEEND: wgp | sa << 3 (layout 3) or << 4 (layout 4) */
    uint32_t op;   /* INST operation */
    uint32_t mask; /* IMMEDIATE_MASK: waves */
} rdx_sqtt_packet;

/*
 * Decode a whole stream into *out (malloc'd, *n packets).  The stream starts in
 * layout 3 and switches to layout 4 at a LAYOUT_HEADER that says so; a trailing
 * partial packet is not returned.  Errors: RDX_ERR_UNSUPPORTED for a layout
 * other than 3 and 4 (the message names the offset), RDX_ERR_NOMEM.
 */
rdx_status rdx_sqtt_decode(const void *data, size_t len, rdx_sqtt_packet **out, size_t *n);

/* An instruction of a decoded trace mapped to its PC. */
typedef struct rdx_sqtt_inst {
    uint64_t pc;   /* code_pc + offset of the instruction */
    uint64_t time; /* the packet's time */
    uint32_t cu, simd, wave;
} rdx_sqtt_inst;

/*
 * Map the instruction packets of a decoded trace to PCs: each wave starts at
 * code_pc (WAVESTART); every INST / VALUINST / IMMEDIATE packet of a wave is its
 * next instruction (s_delay_alu, s_wait_alu and s_barrier_wait issue no packet and
 * are stepped over), a JUMP packet takes the branch (SOPP simm16), WAVEEND is its
 * s_endpgm; IMMEDIATE_MASK counts once for every wave in its mask; INST packets of
 * the other SIMDs' memory operations are skipped.  Only the traced SIMD (the layout
 * header's SIMD field) of CU 0 is followed.  The code decodes as gfx1100 in layout 3
 * and as gfx1200 in layout 4.  code is the kernel's machine code from its entry
 * (code_size bytes).  Errors: RDX_ERR_PARSE when a packet names a
 * wave that has not started or its instruction does not decode (the message
 * gives the packet's offset and the PC).
 */
rdx_status rdx_sqtt_map(const rdx_sqtt_packet *pk, size_t n, const uint8_t *code, size_t code_size,
                        uint64_t code_pc, unsigned wave_size, rdx_sqtt_inst **out, size_t *nout);

/*
 * The emulated GPU's thread trace of a profiled dispatch in the token format of
 * `layout` (3: RDNA3, 4: RDNA4; rdx_sqtt_layout_of gives a target's): a layout
 * header, then workgroup 0's waves — WAVESTART on the SIMD the time model placed each
 * on (CU 0), one packet per instruction (VALUINST for VALU, IMMEDIATE for s_waitcnt /
 * s_wait_* / s_nop and the like, INST with the op codes above for the rest, none for
 * s_delay_alu, s_wait_alu and s_barrier_wait), WAVEEND at s_endpgm — in time order,
 * each at the wave's start plus its launch (emu/core/timing.def) plus its wave-model
 * clock at issue (after the wait, for one that waited), with TS_DELTA_SHORT /
 * TS_DELTA_OR_MARK packets for gaps the packets' own delta fields cannot hold.  *out is
 * malloc'd.  Errors: RDX_ERR_INVALID when the profile has no instruction trace or the
 * layout is not 3 or 4, RDX_ERR_NOMEM.
 */
rdx_status rdx_sqtt_encode_profile(const rdx_emu_profile *p, unsigned layout, uint8_t **out,
                                   size_t *len);

#ifdef __cplusplus
}
#endif

#endif /* RDX_SQTT_H */
