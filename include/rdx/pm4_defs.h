/*
 * rdx/pm4_defs.h — the PM4 (command processor) and SDMA v6 tables for gfx11.
 *
 * This header is the single source of truth for packet opcodes, packet field
 * layouts, register offsets and register fields.  The builders (pm4/), the
 * disassembler and the emulated command processor all derive from these
 * X-macro lists; nothing restates a number elsewhere.
 *
 * Sources (public facts, no code copied):
 *  - Linux amdgpu nvd.h (Navi/gfx10+ PM4 definitions, used by gfx_v11_0.c):
 *    type-3 header, opcodes, WRITE_DATA / WAIT_REG_MEM / INDIRECT_BUFFER /
 *    EVENT_WRITE / RELEASE_MEM / DMA_DATA field positions, SH and UCONFIG
 *    register windows.
 *  - Linux amdgpu gfx_v10_0.c / gfx_v11_0.c (emit_mem_sync, emit_fence,
 *    emit_ib_compute, wait_reg_mem): ACQUIRE_MEM layout and GCR_CNTL bits.
 *  - Linux gc_11_0_0_offset.h / gc_11_0_0_sh_mask.h: COMPUTE_* register
 *    offsets (dword, absolute = base 0x1260 + reg) and their bit fields.
 *  - Linux sdma_v6_0_0_pkt_open.h: SDMA opcodes, sub-opcodes, field layouts.
 *  - Mesa sid.h: VGT event types, COPY_DATA selectors, WAIT_REG_MEM64.
 *  - LLVM AMDGPUUsage (kernel descriptor): COMPUTE_PGM_RSRC1/2/3 fields.
 *
 * gfx12 differences worth knowing: COMPUTE_TMPRING_SIZE.WAVESIZE grows to 18
 * bits [29:12] (still 256-byte units; RDX_PM4_GFX12_TMPRING_WAVESIZE_*, from
 * gc_12_0_0_sh_mask.h as tinygrad's COMPUTE_TMPRING_SIZE_GFX12 bit-field union
 * lays it out); COMPUTE_PGM_RSRC3 INST_PREF_SIZE grows to [11:4] and
 * SHARED_VGPR_CNT is gone (LLVM AMDHSAKernelDescriptor.h, *_GFX12_PLUS); the
 * CWSR workaround of forcing COMPUTE_PGM_RSRC1.PRIV is gfx11's only; SDMA v7
 * keeps the v6 packet layouts used here.
 */
#ifndef RDX_PM4_DEFS_H
#define RDX_PM4_DEFS_H

#define RDX_PM4_GFX12_TMPRING_WAVESIZE_LO 12u
#define RDX_PM4_GFX12_TMPRING_WAVESIZE_W  18u

/* ------------------------------------------------------------------------ */
/* PM4 type-3 header: [31:30] type, [29:16] count (body dwords - 1),
 * [15:8] opcode, [1] shader type (1 = compute), [0] predicate.              */

/* Register windows (dword offsets): SET_x_REG carries reg - start.          */
#define RDX_PM4_CONFIG_REG_START  0x2000u
#define RDX_PM4_CONFIG_REG_END    0x2c00u
#define RDX_PM4_SH_REG_START      0x2c00u
#define RDX_PM4_SH_REG_END        0x3000u
#define RDX_PM4_CONTEXT_REG_START 0xa000u
#define RDX_PM4_CONTEXT_REG_END   0xa400u
#define RDX_PM4_UCONFIG_REG_START 0xc000u
#define RDX_PM4_UCONFIG_REG_END                                 \
    0x10000u /* SET_UCONFIG_REG's 16-bit offset: gfx11's perf   \
                  counter and thread trace registers lie beyond \
                  0xc400 (gc_11_0_0_offset.h) */

/*
 * Body kinds: how the dwords after the header are laid out.
 *   RAW   opaque dwords (no field table)       FIXED  every dword in the field table
 *   REGS  dword 1 = register offset, then values (SET_*_REG)
 *   DATA  the field table covers the first dwords, the rest is payload (WRITE_DATA)
 */
#define RDX_PM4_BODY_KINDS(X) \
    X(RAW)                    \
    X(FIXED)                  \
    X(REGS)                   \
    X(DATA)

/*
 * Type-3 opcodes: X(NAME, OPCODE, MIN_BODY, MAX_BODY, KIND, REG_WINDOW_START)
 * MIN/MAX_BODY bound the body length (count + 1) a well-formed packet has on a
 * gfx11 compute queue; REG_WINDOW_START is the register window for REGS kinds.
 */
#define RDX_PM4_OPCODES(X)                                               \
    X(NOP, 0x10, 0, 0x4000, RAW, 0)                                      \
    X(SET_BASE, 0x11, 3, 3, FIXED, 0)                                    \
    X(CLEAR_STATE, 0x12, 1, 1, RAW, 0)                                   \
    X(INDEX_BUFFER_SIZE, 0x13, 1, 1, FIXED, 0)                           \
    X(DISPATCH_DIRECT, 0x15, 4, 4, FIXED, 0)                             \
    X(DISPATCH_INDIRECT, 0x16, 3, 3, FIXED, 0)                           \
    X(INDIRECT_BUFFER_END, 0x17, 1, 0x4000, RAW, 0)                      \
    X(INDIRECT_BUFFER_CNST_END, 0x19, 1, 0x4000, RAW, 0)                 \
    X(ATOMIC_GDS, 0x1d, 1, 0x4000, RAW, 0)                               \
    X(ATOMIC_MEM, 0x1e, 1, 0x4000, RAW, 0)                               \
    X(OCCLUSION_QUERY, 0x1f, 1, 0x4000, RAW, 0)                          \
    X(SET_PREDICATION, 0x20, 1, 0x4000, RAW, 0)                          \
    X(REG_RMW, 0x21, 1, 0x4000, RAW, 0)                                  \
    X(COND_EXEC, 0x22, 1, 0x4000, RAW, 0)                                \
    X(PRED_EXEC, 0x23, 1, 0x4000, RAW, 0)                                \
    X(DRAW_INDIRECT, 0x24, 1, 0x4000, RAW, 0)                            \
    X(DRAW_INDEX_INDIRECT, 0x25, 1, 0x4000, RAW, 0)                      \
    X(INDEX_BASE, 0x26, 2, 2, FIXED, 0)                                  \
    X(DRAW_INDEX_2, 0x27, 1, 0x4000, RAW, 0)                             \
    X(CONTEXT_CONTROL, 0x28, 1, 0x4000, RAW, 0)                          \
    X(INDEX_TYPE, 0x2a, 1, 1, FIXED, 0)                                  \
    X(DRAW_INDIRECT_MULTI, 0x2c, 1, 0x4000, RAW, 0)                      \
    X(DRAW_INDEX_AUTO, 0x2d, 1, 0x4000, RAW, 0)                          \
    X(NUM_INSTANCES, 0x2f, 1, 0x4000, RAW, 0)                            \
    X(DRAW_INDEX_MULTI_AUTO, 0x30, 1, 0x4000, RAW, 0)                    \
    X(INDIRECT_BUFFER_PRIV, 0x32, 1, 0x4000, RAW, 0)                     \
    X(INDIRECT_BUFFER_CNST, 0x33, 1, 0x4000, RAW, 0)                     \
    X(STRMOUT_BUFFER_UPDATE, 0x34, 1, 0x4000, RAW, 0)                    \
    X(DRAW_INDEX_OFFSET_2, 0x35, 1, 0x4000, RAW, 0)                      \
    X(DRAW_PREAMBLE, 0x36, 1, 0x4000, RAW, 0)                            \
    X(WRITE_DATA, 0x37, 4, 0x4000, DATA, 0)                              \
    X(DRAW_INDEX_INDIRECT_MULTI, 0x38, 1, 0x4000, RAW, 0)                \
    X(MEM_SEMAPHORE, 0x39, 1, 0x4000, RAW, 0)                            \
    X(DRAW_INDEX_MULTI_INST, 0x3a, 1, 0x4000, RAW, 0)                    \
    X(COPY_DW, 0x3b, 1, 0x4000, RAW, 0)                                  \
    X(WAIT_REG_MEM, 0x3c, 6, 6, FIXED, 0)                                \
    X(INDIRECT_BUFFER, 0x3f, 3, 3, FIXED, 0)                             \
    X(COPY_DATA, 0x40, 5, 5, FIXED, 0)                                   \
    X(CP_DMA, 0x41, 1, 0x4000, RAW, 0)                                   \
    X(PFP_SYNC_ME, 0x42, 1, 1, RAW, 0)                                   \
    X(SURFACE_SYNC, 0x43, 1, 0x4000, RAW, 0)                             \
    X(ME_INITIALIZE, 0x44, 1, 0x4000, RAW, 0)                            \
    X(COND_WRITE, 0x45, 1, 0x4000, RAW, 0)                               \
    X(EVENT_WRITE, 0x46, 1, 3, FIXED, 0)                                 \
    X(EVENT_WRITE_EOP, 0x47, 1, 0x4000, RAW, 0)                          \
    X(EVENT_WRITE_EOS, 0x48, 1, 0x4000, RAW, 0)                          \
    X(RELEASE_MEM, 0x49, 7, 7, FIXED, 0)                                 \
    X(PREAMBLE_CNTL, 0x4a, 1, 0x4000, RAW, 0)                            \
    X(DMA_DATA, 0x50, 6, 6, FIXED, 0)                                    \
    X(CONTEXT_REG_RMW, 0x51, 1, 0x4000, RAW, 0)                          \
    X(GFX_CNTX_UPDATE, 0x52, 1, 0x4000, RAW, 0)                          \
    X(BLK_CNTX_UPDATE, 0x53, 1, 0x4000, RAW, 0)                          \
    X(INCR_UPDT_STATE, 0x55, 1, 0x4000, RAW, 0)                          \
    X(ACQUIRE_MEM, 0x58, 7, 7, FIXED, 0)                                 \
    X(REWIND, 0x59, 1, 0x4000, RAW, 0)                                   \
    X(INTERRUPT, 0x5a, 1, 0x4000, RAW, 0)                                \
    X(GEN_PDEPTE, 0x5b, 1, 0x4000, RAW, 0)                               \
    X(INDIRECT_BUFFER_PASID, 0x5c, 1, 0x4000, RAW, 0)                    \
    X(PRIME_UTCL2, 0x5d, 1, 0x4000, RAW, 0)                              \
    X(LOAD_UCONFIG_REG, 0x5e, 1, 0x4000, RAW, 0)                         \
    X(LOAD_SH_REG, 0x5f, 1, 0x4000, RAW, 0)                              \
    X(LOAD_CONFIG_REG, 0x60, 1, 0x4000, RAW, 0)                          \
    X(LOAD_CONTEXT_REG, 0x61, 1, 0x4000, RAW, 0)                         \
    X(LOAD_COMPUTE_STATE, 0x62, 1, 0x4000, RAW, 0)                       \
    X(LOAD_SH_REG_INDEX, 0x63, 1, 0x4000, RAW, 0)                        \
    X(SET_CONFIG_REG, 0x68, 2, 0x4000, REGS, RDX_PM4_CONFIG_REG_START)   \
    X(SET_CONTEXT_REG, 0x69, 2, 0x4000, REGS, RDX_PM4_CONTEXT_REG_START) \
    X(SET_CONTEXT_REG_INDEX, 0x6a, 1, 0x4000, RAW, 0)                    \
    X(SET_VGPR_REG_DI_MULTI, 0x71, 1, 0x4000, RAW, 0)                    \
    X(SET_SH_REG_DI, 0x72, 1, 0x4000, RAW, 0)                            \
    X(SET_CONTEXT_REG_INDIRECT, 0x73, 1, 0x4000, RAW, 0)                 \
    X(SET_SH_REG_DI_MULTI, 0x74, 1, 0x4000, RAW, 0)                      \
    X(GFX_PIPE_LOCK, 0x75, 1, 0x4000, RAW, 0)                            \
    X(SET_SH_REG, 0x76, 2, 0x4000, REGS, RDX_PM4_SH_REG_START)           \
    X(SET_SH_REG_OFFSET, 0x77, 1, 0x4000, RAW, 0)                        \
    X(SET_QUEUE_REG, 0x78, 1, 0x4000, RAW, 0)                            \
    X(SET_UCONFIG_REG, 0x79, 2, 0x4000, REGS, RDX_PM4_UCONFIG_REG_START) \
    X(SET_UCONFIG_REG_INDEX, 0x7a, 1, 0x4000, RAW, 0)                    \
    X(FORWARD_HEADER, 0x7c, 1, 0x4000, RAW, 0)                           \
    X(SCRATCH_RAM_WRITE, 0x7d, 1, 0x4000, RAW, 0)                        \
    X(SCRATCH_RAM_READ, 0x7e, 1, 0x4000, RAW, 0)                         \
    X(LOAD_CONST_RAM, 0x80, 1, 0x4000, RAW, 0)                           \
    X(WRITE_CONST_RAM, 0x81, 1, 0x4000, RAW, 0)                          \
    X(DUMP_CONST_RAM, 0x83, 1, 0x4000, RAW, 0)                           \
    X(INCREMENT_CE_COUNTER, 0x84, 1, 0x4000, RAW, 0)                     \
    X(INCREMENT_DE_COUNTER, 0x85, 1, 0x4000, RAW, 0)                     \
    X(WAIT_ON_CE_COUNTER, 0x86, 1, 0x4000, RAW, 0)                       \
    X(WAIT_ON_DE_COUNTER_DIFF, 0x88, 1, 0x4000, RAW, 0)                  \
    X(SWITCH_BUFFER, 0x8b, 1, 0x4000, RAW, 0)                            \
    X(DISPATCH_DRAW_PREAMBLE, 0x8c, 1, 0x4000, RAW, 0)                   \
    X(DISPATCH_DRAW, 0x8d, 1, 0x4000, RAW, 0)                            \
    X(GET_LOD_STATS, 0x8e, 1, 0x4000, RAW, 0)                            \
    X(DRAW_MULTI_PREAMBLE, 0x8f, 1, 0x4000, RAW, 0)                      \
    X(FRAME_CONTROL, 0x90, 1, 0x4000, RAW, 0)                            \
    X(INDEX_ATTRIBUTES_INDIRECT, 0x91, 1, 0x4000, RAW, 0)                \
    X(WAIT_REG_MEM64, 0x93, 8, 8, FIXED, 0)                              \
    X(COND_PREEMPT, 0x94, 1, 0x4000, RAW, 0)                             \
    X(HDP_FLUSH, 0x95, 1, 0x4000, RAW, 0)                                \
    X(COPY_DATA_RB, 0x96, 1, 0x4000, RAW, 0)                             \
    X(INVALIDATE_TLBS, 0x98, 1, 0x4000, RAW, 0)                          \
    X(AQL_PACKET, 0x99, 1, 0x4000, RAW, 0)                               \
    X(DMA_DATA_FILL_MULTI, 0x9a, 1, 0x4000, RAW, 0)                      \
    X(SET_SH_REG_INDEX, 0x9b, 2, 0x4000, REGS, RDX_PM4_SH_REG_START)     \
    X(DRAW_INDIRECT_COUNT_MULTI, 0x9c, 1, 0x4000, RAW, 0)                \
    X(DRAW_INDEX_INDIRECT_COUNT_MULTI, 0x9d, 1, 0x4000, RAW, 0)          \
    X(DUMP_CONST_RAM_OFFSET, 0x9e, 1, 0x4000, RAW, 0)                    \
    X(LOAD_CONTEXT_REG_INDEX, 0x9f, 1, 0x4000, RAW, 0)                   \
    X(SET_RESOURCES, 0xa0, 1, 0x4000, RAW, 0)                            \
    X(MAP_PROCESS, 0xa1, 1, 0x4000, RAW, 0)                              \
    X(MAP_QUEUES, 0xa2, 1, 0x4000, RAW, 0)                               \
    X(UNMAP_QUEUES, 0xa3, 1, 0x4000, RAW, 0)                             \
    X(QUERY_STATUS, 0xa4, 1, 0x4000, RAW, 0)                             \
    X(RUN_LIST, 0xa5, 1, 0x4000, RAW, 0)                                 \
    X(MAP_PROCESS_VM, 0xa6, 1, 0x4000, RAW, 0)

/*
 * Named values of enumerated fields: X(ENUM, VALUE, NAME).  NAME is printed
 * by the disassembler and gives the constant RDX_PM4_V_<ENUM>_<NAME>.  ENUM NONE means
 * "plain number".  EVENT is the VGT event type list (Mesa sid.h V_028A90_*).
 */
#define RDX_PM4_ENUM_VALUES(X)                   \
    X(EVENT, 0x04, CACHE_FLUSH_TS)               \
    X(EVENT, 0x06, CACHE_FLUSH)                  \
    X(EVENT, 0x07, CS_PARTIAL_FLUSH)             \
    X(EVENT, 0x0f, VS_PARTIAL_FLUSH)             \
    X(EVENT, 0x10, PS_PARTIAL_FLUSH)             \
    X(EVENT, 0x14, CACHE_FLUSH_AND_INV_TS_EVENT) \
    X(EVENT, 0x16, CACHE_FLUSH_AND_INV_EVENT)    \
    X(EVENT, 0x17, PERFCOUNTER_START)            \
    X(EVENT, 0x18, PERFCOUNTER_STOP)             \
    X(EVENT, 0x19, PIPELINESTAT_START)           \
    X(EVENT, 0x1a, PIPELINESTAT_STOP)            \
    X(EVENT, 0x1b, PERFCOUNTER_SAMPLE)           \
    X(EVENT, 0x1e, SAMPLE_PIPELINESTAT)          \
    X(EVENT, 0x28, BOTTOM_OF_PIPE_TS)            \
    X(EVENT, 0x2f, CS_DONE)                      \
    X(EVENT, 0x30, PS_DONE)                      \
    X(EVENT, 0x33, THREAD_TRACE_START)           \
    X(EVENT, 0x34, THREAD_TRACE_STOP)            \
    X(EVENT, 0x35, THREAD_TRACE_MARKER)          \
    X(EVENT, 0x37, THREAD_TRACE_FINISH)          \
    X(DATA_SEL, 0, NONE)                         \
    X(DATA_SEL, 1, DATA32)                       \
    X(DATA_SEL, 2, DATA64)                       \
    X(DATA_SEL, 3, GPU_CLOCK64)                  \
    X(DATA_SEL, 4, SYS_CLOCK64)                  \
    X(INT_SEL, 0, NONE)                          \
    X(INT_SEL, 1, INT_ONLY)                      \
    X(INT_SEL, 2, INT_AFTER_WRITE_CONFIRM)       \
    X(REL_DST_SEL, 0, MC)                        \
    X(REL_DST_SEL, 1, TC_L2)                     \
    X(CACHE_POLICY, 0, LRU)                      \
    X(CACHE_POLICY, 1, STREAM)                   \
    X(CACHE_POLICY, 2, NOA)                      \
    X(CACHE_POLICY, 3, BYPASS)                   \
    X(WAIT_FUNC, 0, ALWAYS)                      \
    X(WAIT_FUNC, 1, LT)                          \
    X(WAIT_FUNC, 2, LE)                          \
    X(WAIT_FUNC, 3, EQ)                          \
    X(WAIT_FUNC, 4, NE)                          \
    X(WAIT_FUNC, 5, GE)                          \
    X(WAIT_FUNC, 6, GT)                          \
    X(MEM_SPACE, 0, REGISTER)                    \
    X(MEM_SPACE, 1, MEMORY)                      \
    X(WAIT_OP, 0, WAIT_REG_MEM)                  \
    X(WAIT_OP, 1, WR_WAIT_WR_REG)                \
    X(ENGINE, 0, ME)                             \
    X(ENGINE, 1, PFP)                            \
    X(ENGINE, 2, CE)                             \
    X(WD_DST_SEL, 0, REGISTER)                   \
    X(WD_DST_SEL, 1, MEMORY_SYNC)                \
    X(WD_DST_SEL, 2, TC_L2)                      \
    X(WD_DST_SEL, 3, GDS)                        \
    X(WD_DST_SEL, 5, MEMORY)                     \
    X(CD_SRC_SEL, 0, REGISTER)                   \
    X(CD_SRC_SEL, 1, MEMORY_SYNC)                \
    X(CD_SRC_SEL, 2, TC_L2)                      \
    X(CD_SRC_SEL, 3, GDS)                        \
    X(CD_SRC_SEL, 4, PERFCOUNTER)                \
    X(CD_SRC_SEL, 5, IMMEDIATE)                  \
    X(CD_SRC_SEL, 9, GPU_CLOCK)                  \
    X(CD_DST_SEL, 0, REGISTER)                   \
    X(CD_DST_SEL, 1, MEMORY_SYNC)                \
    X(CD_DST_SEL, 2, TC_L2)                      \
    X(CD_DST_SEL, 3, GDS)                        \
    X(CD_DST_SEL, 4, PERFCOUNTER)                \
    X(CD_DST_SEL, 5, MEMORY)                     \
    X(COUNT_SEL, 0, BITS32)                      \
    X(COUNT_SEL, 1, BITS64)                      \
    X(GLI_INV, 0, NOP)                           \
    X(GLI_INV, 1, ALL)                           \
    X(GLI_INV, 2, RANGE)                         \
    X(GLI_INV, 3, FIRST_LAST)                    \
    X(SDMA_FUNC, 0, ALWAYS)                      \
    X(SDMA_FUNC, 1, LT)                          \
    X(SDMA_FUNC, 2, LE)                          \
    X(SDMA_FUNC, 3, EQ)                          \
    X(SDMA_FUNC, 4, NE)                          \
    X(SDMA_FUNC, 5, GE)                          \
    X(SDMA_FUNC, 6, GT)                          \
    X(FILLSIZE, 0, BYTE)                         \
    X(FILLSIZE, 2, DWORD)

#define RDX_PM4_ENUM_KINDS(X) \
    X(NONE)                   \
    X(EVENT)                  \
    X(DATA_SEL)               \
    X(INT_SEL)                \
    X(REL_DST_SEL)            \
    X(CACHE_POLICY)           \
    X(WAIT_FUNC)              \
    X(MEM_SPACE)              \
    X(WAIT_OP)                \
    X(ENGINE)                 \
    X(WD_DST_SEL)             \
    X(CD_SRC_SEL)             \
    X(CD_DST_SEL)             \
    X(COUNT_SEL)              \
    X(GLI_INV)                \
    X(SDMA_FUNC)              \
    X(FILLSIZE)

/*
 * Packet body fields: X(OP, DW, FIELD, LO, WIDTH, ENUM).  DW counts body
 * dwords from 1 (the dword after the header).  A field named after a register
 * (INITIATOR) is decoded with that register's field list by the disassembler.
 */
#define RDX_PM4_PACKET_FIELDS(X)                             \
    X(SET_BASE, 1, BASE_INDEX, 0, 4, NONE)                   \
    X(SET_BASE, 2, ADDRESS_LO, 0, 32, NONE)                  \
    X(SET_BASE, 3, ADDRESS_HI, 0, 32, NONE)                  \
    X(INDEX_BUFFER_SIZE, 1, INDEX_BUFFER_SIZE, 0, 32, NONE)  \
    X(DISPATCH_DIRECT, 1, DIM_X, 0, 32, NONE)                \
    X(DISPATCH_DIRECT, 2, DIM_Y, 0, 32, NONE)                \
    X(DISPATCH_DIRECT, 3, DIM_Z, 0, 32, NONE)                \
    X(DISPATCH_DIRECT, 4, INITIATOR, 0, 32, NONE)            \
    X(DISPATCH_INDIRECT, 1, ADDR_LO, 0, 32, NONE)            \
    X(DISPATCH_INDIRECT, 2, ADDR_HI, 0, 32, NONE)            \
    X(DISPATCH_INDIRECT, 3, INITIATOR, 0, 32, NONE)          \
    X(INDEX_BASE, 1, INDEX_BASE_LO, 0, 32, NONE)             \
    X(INDEX_BASE, 2, INDEX_BASE_HI, 0, 16, NONE)             \
    X(INDEX_TYPE, 1, INDEX_TYPE, 0, 2, NONE)                 \
    X(WRITE_DATA, 1, DST_SEL, 8, 4, WD_DST_SEL)              \
    X(WRITE_DATA, 1, WR_ONE_ADDR, 16, 1, NONE)               \
    X(WRITE_DATA, 1, WR_CONFIRM, 20, 1, NONE)                \
    X(WRITE_DATA, 1, CACHE_POLICY, 25, 2, CACHE_POLICY)      \
    X(WRITE_DATA, 1, ENGINE_SEL, 30, 2, ENGINE)              \
    X(WRITE_DATA, 2, DST_ADDR_LO, 0, 32, NONE)               \
    X(WRITE_DATA, 3, DST_ADDR_HI, 0, 32, NONE)               \
    X(WAIT_REG_MEM, 1, FUNCTION, 0, 3, WAIT_FUNC)            \
    X(WAIT_REG_MEM, 1, MEM_SPACE, 4, 2, MEM_SPACE)           \
    X(WAIT_REG_MEM, 1, OPERATION, 6, 2, WAIT_OP)             \
    X(WAIT_REG_MEM, 1, ENGINE_SEL, 8, 2, ENGINE)             \
    X(WAIT_REG_MEM, 2, POLL_ADDR_LO, 0, 32, NONE)            \
    X(WAIT_REG_MEM, 3, POLL_ADDR_HI, 0, 32, NONE)            \
    X(WAIT_REG_MEM, 4, REFERENCE, 0, 32, NONE)               \
    X(WAIT_REG_MEM, 5, MASK, 0, 32, NONE)                    \
    X(WAIT_REG_MEM, 6, POLL_INTERVAL, 0, 16, NONE)           \
    X(INDIRECT_BUFFER, 1, IB_BASE_LO, 0, 32, NONE)           \
    X(INDIRECT_BUFFER, 2, IB_BASE_HI, 0, 32, NONE)           \
    X(INDIRECT_BUFFER, 3, IB_SIZE, 0, 20, NONE)              \
    X(INDIRECT_BUFFER, 3, CHAIN, 20, 1, NONE)                \
    X(INDIRECT_BUFFER, 3, PRE_ENA, 21, 1, NONE)              \
    X(INDIRECT_BUFFER, 3, VALID, 23, 1, NONE)                \
    X(INDIRECT_BUFFER, 3, VMID, 24, 4, NONE)                 \
    X(INDIRECT_BUFFER, 3, CACHE_POLICY, 28, 2, CACHE_POLICY) \
    X(INDIRECT_BUFFER, 3, PRE_RESUME, 30, 1, NONE)           \
    X(COPY_DATA, 1, SRC_SEL, 0, 4, CD_SRC_SEL)               \
    X(COPY_DATA, 1, DST_SEL, 8, 4, CD_DST_SEL)               \
    X(COPY_DATA, 1, SRC_CACHE_POLICY, 13, 2, CACHE_POLICY)   \
    X(COPY_DATA, 1, COUNT_SEL, 16, 1, COUNT_SEL)             \
    X(COPY_DATA, 1, WR_CONFIRM, 20, 1, NONE)                 \
    X(COPY_DATA, 1, DST_CACHE_POLICY, 25, 2, CACHE_POLICY)   \
    X(COPY_DATA, 1, ENGINE_SEL, 30, 2, ENGINE)               \
    X(COPY_DATA, 2, SRC_ADDR_LO, 0, 32, NONE)                \
    X(COPY_DATA, 3, SRC_ADDR_HI, 0, 32, NONE)                \
    X(COPY_DATA, 4, DST_ADDR_LO, 0, 32, NONE)                \
    X(COPY_DATA, 5, DST_ADDR_HI, 0, 32, NONE)                \
    X(EVENT_WRITE, 1, EVENT_TYPE, 0, 6, EVENT)               \
    X(EVENT_WRITE, 1, EVENT_INDEX, 8, 4, NONE)               \
    X(EVENT_WRITE, 2, ADDRESS_LO, 0, 32, NONE)               \
    X(EVENT_WRITE, 3, ADDRESS_HI, 0, 32, NONE)               \
    X(RELEASE_MEM, 1, EVENT_TYPE, 0, 6, EVENT)               \
    X(RELEASE_MEM, 1, EVENT_INDEX, 8, 4, NONE)               \
    X(RELEASE_MEM, 1, GCR_GLM_WB, 12, 1, NONE)               \
    X(RELEASE_MEM, 1, GCR_GLM_INV, 13, 1, NONE)              \
    X(RELEASE_MEM, 1, GCR_GLV_INV, 14, 1, NONE)              \
    X(RELEASE_MEM, 1, GCR_GL1_INV, 15, 1, NONE)              \
    X(RELEASE_MEM, 1, GCR_GL2_US, 16, 1, NONE)               \
    X(RELEASE_MEM, 1, GCR_GL2_RANGE, 17, 2, NONE)            \
    X(RELEASE_MEM, 1, GCR_GL2_DISCARD, 19, 1, NONE)          \
    X(RELEASE_MEM, 1, GCR_GL2_INV, 20, 1, NONE)              \
    X(RELEASE_MEM, 1, GCR_GL2_WB, 21, 1, NONE)               \
    X(RELEASE_MEM, 1, GCR_SEQ, 22, 2, NONE)                  \
    X(RELEASE_MEM, 1, CACHE_POLICY, 25, 2, CACHE_POLICY)     \
    X(RELEASE_MEM, 1, EXECUTE, 28, 1, NONE)                  \
    X(RELEASE_MEM, 2, DST_SEL, 16, 2, REL_DST_SEL)           \
    X(RELEASE_MEM, 2, INT_SEL, 24, 3, INT_SEL)               \
    X(RELEASE_MEM, 2, DATA_SEL, 29, 3, DATA_SEL)             \
    X(RELEASE_MEM, 3, ADDR_LO, 0, 32, NONE)                  \
    X(RELEASE_MEM, 4, ADDR_HI, 0, 32, NONE)                  \
    X(RELEASE_MEM, 5, DATA_LO, 0, 32, NONE)                  \
    X(RELEASE_MEM, 6, DATA_HI, 0, 32, NONE)                  \
    X(RELEASE_MEM, 7, INT_CTXID, 0, 32, NONE)                \
    X(DMA_DATA, 1, ENGINE_SEL, 0, 1, ENGINE)                 \
    X(DMA_DATA, 1, SRC_CACHE_POLICY, 13, 2, CACHE_POLICY)    \
    X(DMA_DATA, 1, DST_SEL, 20, 2, NONE)                     \
    X(DMA_DATA, 1, DST_CACHE_POLICY, 25, 2, CACHE_POLICY)    \
    X(DMA_DATA, 1, SRC_SEL, 29, 2, NONE)                     \
    X(DMA_DATA, 1, CP_SYNC, 31, 1, NONE)                     \
    X(DMA_DATA, 2, SRC_ADDR_LO, 0, 32, NONE)                 \
    X(DMA_DATA, 3, SRC_ADDR_HI, 0, 32, NONE)                 \
    X(DMA_DATA, 4, DST_ADDR_LO, 0, 32, NONE)                 \
    X(DMA_DATA, 5, DST_ADDR_HI, 0, 32, NONE)                 \
    X(DMA_DATA, 6, BYTE_COUNT, 0, 26, NONE)                  \
    X(DMA_DATA, 6, SAS, 26, 1, NONE)                         \
    X(DMA_DATA, 6, DAS, 27, 1, NONE)                         \
    X(DMA_DATA, 6, SAIC, 28, 1, NONE)                        \
    X(DMA_DATA, 6, DAIC, 29, 1, NONE)                        \
    X(DMA_DATA, 6, RAW_WAIT, 30, 1, NONE)                    \
    X(ACQUIRE_MEM, 1, COHER_CNTL, 0, 31, NONE)               \
    X(ACQUIRE_MEM, 1, ENGINE_SEL, 31, 1, NONE)               \
    X(ACQUIRE_MEM, 2, COHER_SIZE, 0, 32, NONE)               \
    X(ACQUIRE_MEM, 3, COHER_SIZE_HI, 0, 24, NONE)            \
    X(ACQUIRE_MEM, 4, COHER_BASE_LO, 0, 32, NONE)            \
    X(ACQUIRE_MEM, 5, COHER_BASE_HI, 0, 24, NONE)            \
    X(ACQUIRE_MEM, 6, POLL_INTERVAL, 0, 16, NONE)            \
    X(ACQUIRE_MEM, 7, GCR_GLI_INV, 0, 2, GLI_INV)            \
    X(ACQUIRE_MEM, 7, GCR_GL1_RANGE, 2, 2, NONE)             \
    X(ACQUIRE_MEM, 7, GCR_GLM_WB, 4, 1, NONE)                \
    X(ACQUIRE_MEM, 7, GCR_GLM_INV, 5, 1, NONE)               \
    X(ACQUIRE_MEM, 7, GCR_GLK_WB, 6, 1, NONE)                \
    X(ACQUIRE_MEM, 7, GCR_GLK_INV, 7, 1, NONE)               \
    X(ACQUIRE_MEM, 7, GCR_GLV_INV, 8, 1, NONE)               \
    X(ACQUIRE_MEM, 7, GCR_GL1_INV, 9, 1, NONE)               \
    X(ACQUIRE_MEM, 7, GCR_GL2_US, 10, 1, NONE)               \
    X(ACQUIRE_MEM, 7, GCR_GL2_RANGE, 11, 2, NONE)            \
    X(ACQUIRE_MEM, 7, GCR_GL2_DISCARD, 13, 1, NONE)          \
    X(ACQUIRE_MEM, 7, GCR_GL2_INV, 14, 1, NONE)              \
    X(ACQUIRE_MEM, 7, GCR_GL2_WB, 15, 1, NONE)               \
    X(ACQUIRE_MEM, 7, GCR_SEQ, 16, 2, NONE)                  \
    X(WAIT_REG_MEM64, 1, FUNCTION, 0, 3, WAIT_FUNC)          \
    X(WAIT_REG_MEM64, 1, MEM_SPACE, 4, 2, MEM_SPACE)         \
    X(WAIT_REG_MEM64, 1, OPERATION, 6, 2, WAIT_OP)           \
    X(WAIT_REG_MEM64, 1, ENGINE_SEL, 8, 2, ENGINE)           \
    X(WAIT_REG_MEM64, 2, POLL_ADDR_LO, 0, 32, NONE)          \
    X(WAIT_REG_MEM64, 3, POLL_ADDR_HI, 0, 32, NONE)          \
    X(WAIT_REG_MEM64, 4, REFERENCE_LO, 0, 32, NONE)          \
    X(WAIT_REG_MEM64, 5, REFERENCE_HI, 0, 32, NONE)          \
    X(WAIT_REG_MEM64, 6, MASK_LO, 0, 32, NONE)               \
    X(WAIT_REG_MEM64, 7, MASK_HI, 0, 32, NONE)               \
    X(WAIT_REG_MEM64, 8, POLL_INTERVAL, 0, 16, NONE)         \
    X(SET_CONFIG_REG, 1, REG_OFFSET, 0, 16, NONE)            \
    X(SET_CONTEXT_REG, 1, REG_OFFSET, 0, 16, NONE)           \
    X(SET_SH_REG, 1, REG_OFFSET, 0, 16, NONE)                \
    X(SET_UCONFIG_REG, 1, REG_OFFSET, 0, 16, NONE)           \
    X(SET_SH_REG_INDEX, 1, REG_OFFSET, 0, 16, NONE)          \
    X(SET_SH_REG_INDEX, 1, INDEX, 28, 4, NONE)

/* ------------------------------------------------------------------------ */
/* Registers: X(NAME, DWORD_OFFSET) — absolute dword offsets for gfx11
 * (gc_11_0_0_offset.h reg + GC base 0x1260 for SH registers, segment 1
 * base 0xa000 for UCONFIG registers: GRBM, SPI, perf counters, SQ thread
 * trace).                                                                   */
#define RDX_PM4_REGISTERS(X)                    \
    X(COMPUTE_DISPATCH_INITIATOR, 0x2e00)       \
    X(COMPUTE_DIM_X, 0x2e01)                    \
    X(COMPUTE_DIM_Y, 0x2e02)                    \
    X(COMPUTE_DIM_Z, 0x2e03)                    \
    X(COMPUTE_START_X, 0x2e04)                  \
    X(COMPUTE_START_Y, 0x2e05)                  \
    X(COMPUTE_START_Z, 0x2e06)                  \
    X(COMPUTE_NUM_THREAD_X, 0x2e07)             \
    X(COMPUTE_NUM_THREAD_Y, 0x2e08)             \
    X(COMPUTE_NUM_THREAD_Z, 0x2e09)             \
    X(COMPUTE_PIPELINESTAT_ENABLE, 0x2e0a)      \
    X(COMPUTE_PERFCOUNT_ENABLE, 0x2e0b)         \
    X(COMPUTE_PGM_LO, 0x2e0c)                   \
    X(COMPUTE_PGM_HI, 0x2e0d)                   \
    X(COMPUTE_DISPATCH_PKT_ADDR_LO, 0x2e0e)     \
    X(COMPUTE_DISPATCH_PKT_ADDR_HI, 0x2e0f)     \
    X(COMPUTE_DISPATCH_SCRATCH_BASE_LO, 0x2e10) \
    X(COMPUTE_DISPATCH_SCRATCH_BASE_HI, 0x2e11) \
    X(COMPUTE_PGM_RSRC1, 0x2e12)                \
    X(COMPUTE_PGM_RSRC2, 0x2e13)                \
    X(COMPUTE_VMID, 0x2e14)                     \
    X(COMPUTE_RESOURCE_LIMITS, 0x2e15)          \
    X(COMPUTE_STATIC_THREAD_MGMT_SE0, 0x2e16)   \
    X(COMPUTE_STATIC_THREAD_MGMT_SE1, 0x2e17)   \
    X(COMPUTE_TMPRING_SIZE, 0x2e18)             \
    X(COMPUTE_STATIC_THREAD_MGMT_SE2, 0x2e19)   \
    X(COMPUTE_STATIC_THREAD_MGMT_SE3, 0x2e1a)   \
    X(COMPUTE_RESTART_X, 0x2e1b)                \
    X(COMPUTE_RESTART_Y, 0x2e1c)                \
    X(COMPUTE_RESTART_Z, 0x2e1d)                \
    X(COMPUTE_THREAD_TRACE_ENABLE, 0x2e1e)      \
    X(COMPUTE_MISC_RESERVED, 0x2e1f)            \
    X(COMPUTE_DISPATCH_ID, 0x2e20)              \
    X(COMPUTE_THREADGROUP_ID, 0x2e21)           \
    X(COMPUTE_REQ_CTRL, 0x2e22)                 \
    X(COMPUTE_PGM_RSRC3, 0x2e28)                \
    X(COMPUTE_SHADER_CHKSUM, 0x2e2a)            \
    X(COMPUTE_USER_DATA_0, 0x2e40)              \
    X(COMPUTE_USER_DATA_1, 0x2e41)              \
    X(COMPUTE_USER_DATA_2, 0x2e42)              \
    X(COMPUTE_USER_DATA_3, 0x2e43)              \
    X(COMPUTE_USER_DATA_4, 0x2e44)              \
    X(COMPUTE_USER_DATA_5, 0x2e45)              \
    X(COMPUTE_USER_DATA_6, 0x2e46)              \
    X(COMPUTE_USER_DATA_7, 0x2e47)              \
    X(COMPUTE_USER_DATA_8, 0x2e48)              \
    X(COMPUTE_USER_DATA_9, 0x2e49)              \
    X(COMPUTE_USER_DATA_10, 0x2e4a)             \
    X(COMPUTE_USER_DATA_11, 0x2e4b)             \
    X(COMPUTE_USER_DATA_12, 0x2e4c)             \
    X(COMPUTE_USER_DATA_13, 0x2e4d)             \
    X(COMPUTE_USER_DATA_14, 0x2e4e)             \
    X(COMPUTE_USER_DATA_15, 0x2e4f)             \
    X(GRBM_GFX_INDEX, 0xc200)                   \
    X(SQ_THREAD_TRACE_USERDATA_2, 0xc342)       \
    X(SQ_THREAD_TRACE_USERDATA_3, 0xc343)       \
    X(SPI_CONFIG_CNTL, 0xc440)                  \
    X(GRBM_PERFCOUNTER0_LO, 0xd040)             \
    X(GRBM_PERFCOUNTER0_HI, 0xd041)             \
    X(GRBM_PERFCOUNTER1_LO, 0xd043)             \
    X(GRBM_PERFCOUNTER1_HI, 0xd044)             \
    X(SQ_PERFCOUNTER0_LO, 0xd1c0)               \
    X(SQ_PERFCOUNTER1_LO, 0xd1c2)               \
    X(SQ_PERFCOUNTER2_LO, 0xd1c4)               \
    X(SQ_PERFCOUNTER3_LO, 0xd1c6)               \
    X(SQ_PERFCOUNTER4_LO, 0xd1c8)               \
    X(SQ_PERFCOUNTER5_LO, 0xd1ca)               \
    X(SQ_PERFCOUNTER6_LO, 0xd1cc)               \
    X(SQ_PERFCOUNTER7_LO, 0xd1ce)               \
    X(GL2C_PERFCOUNTER0_LO, 0xd380)             \
    X(GL2C_PERFCOUNTER0_HI, 0xd381)             \
    X(GL2C_PERFCOUNTER1_LO, 0xd382)             \
    X(GL2C_PERFCOUNTER1_HI, 0xd383)             \
    X(GL2C_PERFCOUNTER2_LO, 0xd384)             \
    X(GL2C_PERFCOUNTER2_HI, 0xd385)             \
    X(GL2C_PERFCOUNTER3_LO, 0xd386)             \
    X(GL2C_PERFCOUNTER3_HI, 0xd387)             \
    X(CP_PERFMON_CNTL, 0xd808)                  \
    X(GRBM_PERFCOUNTER0_SELECT, 0xd840)         \
    X(GRBM_PERFCOUNTER1_SELECT, 0xd841)         \
    X(SQ_PERFCOUNTER0_SELECT, 0xd9c0)           \
    X(SQ_PERFCOUNTER1_SELECT, 0xd9c1)           \
    X(SQ_PERFCOUNTER2_SELECT, 0xd9c2)           \
    X(SQ_PERFCOUNTER3_SELECT, 0xd9c3)           \
    X(SQ_PERFCOUNTER4_SELECT, 0xd9c4)           \
    X(SQ_PERFCOUNTER5_SELECT, 0xd9c5)           \
    X(SQ_PERFCOUNTER6_SELECT, 0xd9c6)           \
    X(SQ_PERFCOUNTER7_SELECT, 0xd9c7)           \
    X(SQ_PERFCOUNTER8_SELECT, 0xd9c8)           \
    X(SQ_PERFCOUNTER9_SELECT, 0xd9c9)           \
    X(SQ_PERFCOUNTER10_SELECT, 0xd9ca)          \
    X(SQ_PERFCOUNTER11_SELECT, 0xd9cb)          \
    X(SQ_PERFCOUNTER12_SELECT, 0xd9cc)          \
    X(SQ_PERFCOUNTER13_SELECT, 0xd9cd)          \
    X(SQ_PERFCOUNTER14_SELECT, 0xd9ce)          \
    X(SQ_PERFCOUNTER15_SELECT, 0xd9cf)          \
    X(SQ_PERFCOUNTER_CTRL, 0xd9e0)              \
    X(SQ_PERFCOUNTER_CTRL2, 0xd9e2)             \
    X(SQ_THREAD_TRACE_BUF0_SIZE_GFX12, 0xd9e6)  \
    X(SQ_THREAD_TRACE_BUF0_LO_GFX12, 0xd9e7)    \
    X(SQ_THREAD_TRACE_BUF0_BASE, 0xd9e8)        \
    X(SQ_THREAD_TRACE_BUF0_SIZE, 0xd9e9)        \
    X(SQ_THREAD_TRACE_CTRL, 0xd9ec)             \
    X(SQ_THREAD_TRACE_MASK, 0xd9ed)             \
    X(SQ_THREAD_TRACE_TOKEN_MASK, 0xd9ee)       \
    X(SQ_THREAD_TRACE_WPTR, 0xd9ef)             \
    X(SQ_THREAD_TRACE_STATUS, 0xd9f4)           \
    X(SQ_THREAD_TRACE_STATUS2, 0xd9f5)          \
    X(SQ_THREAD_TRACE_DROPPED_CNTR, 0xd9fa)     \
    X(GL2C_PERFCOUNTER0_SELECT, 0xdb80)         \
    X(GL2C_PERFCOUNTER0_SELECT1, 0xdb81)        \
    X(GL2C_PERFCOUNTER1_SELECT, 0xdb82)         \
    X(GL2C_PERFCOUNTER1_SELECT1, 0xdb83)        \
    X(GL2C_PERFCOUNTER2_SELECT, 0xdb84)         \
    X(GL2C_PERFCOUNTER3_SELECT, 0xdb85)

/* Register fields: X(REG, FIELD, LO, WIDTH).  Registers not listed here hold
 * one 32-bit value.  gfx11 layouts (gc_11_0_0_sh_mask.h, AMDGPUUsage).      */
#define RDX_PM4_REG_FIELDS(X)                                      \
    X(COMPUTE_DISPATCH_INITIATOR, COMPUTE_SHADER_EN, 0, 1)         \
    X(COMPUTE_DISPATCH_INITIATOR, PARTIAL_TG_EN, 1, 1)             \
    X(COMPUTE_DISPATCH_INITIATOR, FORCE_START_AT_000, 2, 1)        \
    X(COMPUTE_DISPATCH_INITIATOR, ORDERED_APPEND_ENBL, 3, 1)       \
    X(COMPUTE_DISPATCH_INITIATOR, ORDERED_APPEND_MODE, 4, 1)       \
    X(COMPUTE_DISPATCH_INITIATOR, USE_THREAD_DIMENSIONS, 5, 1)     \
    X(COMPUTE_DISPATCH_INITIATOR, ORDER_MODE, 6, 1)                \
    X(COMPUTE_DISPATCH_INITIATOR, SCALAR_L1_INV_VOL, 10, 1)        \
    X(COMPUTE_DISPATCH_INITIATOR, VECTOR_L1_INV_VOL, 11, 1)        \
    X(COMPUTE_DISPATCH_INITIATOR, TUNNEL_ENABLE, 13, 1)            \
    X(COMPUTE_DISPATCH_INITIATOR, RESTORE, 14, 1)                  \
    X(COMPUTE_DISPATCH_INITIATOR, CS_W32_EN, 15, 1)                \
    X(COMPUTE_DISPATCH_INITIATOR, AMP_SHADER_EN, 16, 1)            \
    X(COMPUTE_DISPATCH_INITIATOR, DISABLE_DISP_PREMPT_EN, 17, 1)   \
    X(COMPUTE_NUM_THREAD_X, NUM_THREAD_FULL, 0, 16)                \
    X(COMPUTE_NUM_THREAD_X, NUM_THREAD_PARTIAL, 16, 16)            \
    X(COMPUTE_NUM_THREAD_Y, NUM_THREAD_FULL, 0, 16)                \
    X(COMPUTE_NUM_THREAD_Y, NUM_THREAD_PARTIAL, 16, 16)            \
    X(COMPUTE_NUM_THREAD_Z, NUM_THREAD_FULL, 0, 16)                \
    X(COMPUTE_NUM_THREAD_Z, NUM_THREAD_PARTIAL, 16, 16)            \
    X(COMPUTE_PIPELINESTAT_ENABLE, PIPELINESTAT_ENABLE, 0, 1)      \
    X(COMPUTE_PERFCOUNT_ENABLE, PERFCOUNT_ENABLE, 0, 1)            \
    X(COMPUTE_PGM_HI, DATA, 0, 8)                                  \
    X(COMPUTE_DISPATCH_SCRATCH_BASE_HI, DATA, 0, 8)                \
    X(COMPUTE_PGM_RSRC1, VGPRS, 0, 6)                              \
    X(COMPUTE_PGM_RSRC1, SGPRS, 6, 4)                              \
    X(COMPUTE_PGM_RSRC1, PRIORITY, 10, 2)                          \
    X(COMPUTE_PGM_RSRC1, FLOAT_MODE, 12, 8)                        \
    X(COMPUTE_PGM_RSRC1, PRIV, 20, 1)                              \
    X(COMPUTE_PGM_RSRC1, DX10_CLAMP, 21, 1)                        \
    X(COMPUTE_PGM_RSRC1, DEBUG_MODE, 22, 1)                        \
    X(COMPUTE_PGM_RSRC1, IEEE_MODE, 23, 1)                         \
    X(COMPUTE_PGM_RSRC1, BULKY, 24, 1)                             \
    X(COMPUTE_PGM_RSRC1, CDBG_USER, 25, 1)                         \
    X(COMPUTE_PGM_RSRC1, FP16_OVFL, 26, 1)                         \
    X(COMPUTE_PGM_RSRC1, WGP_MODE, 29, 1)                          \
    X(COMPUTE_PGM_RSRC1, MEM_ORDERED, 30, 1)                       \
    X(COMPUTE_PGM_RSRC1, FWD_PROGRESS, 31, 1)                      \
    X(COMPUTE_PGM_RSRC2, SCRATCH_EN, 0, 1)                         \
    X(COMPUTE_PGM_RSRC2, USER_SGPR, 1, 5)                          \
    X(COMPUTE_PGM_RSRC2, TRAP_PRESENT, 6, 1)                       \
    X(COMPUTE_PGM_RSRC2, TGID_X_EN, 7, 1)                          \
    X(COMPUTE_PGM_RSRC2, TGID_Y_EN, 8, 1)                          \
    X(COMPUTE_PGM_RSRC2, TGID_Z_EN, 9, 1)                          \
    X(COMPUTE_PGM_RSRC2, TG_SIZE_EN, 10, 1)                        \
    X(COMPUTE_PGM_RSRC2, TIDIG_COMP_CNT, 11, 2)                    \
    X(COMPUTE_PGM_RSRC2, EXCP_EN_MSB, 13, 2)                       \
    X(COMPUTE_PGM_RSRC2, LDS_SIZE, 15, 9)                          \
    X(COMPUTE_PGM_RSRC2, EXCP_EN, 24, 7)                           \
    X(COMPUTE_VMID, DATA, 0, 4)                                    \
    X(COMPUTE_RESOURCE_LIMITS, WAVES_PER_SH, 0, 10)                \
    X(COMPUTE_RESOURCE_LIMITS, TG_PER_CU, 12, 4)                   \
    X(COMPUTE_RESOURCE_LIMITS, LOCK_THRESHOLD, 16, 6)              \
    X(COMPUTE_RESOURCE_LIMITS, SIMD_DEST_CNTL, 22, 1)              \
    X(COMPUTE_RESOURCE_LIMITS, FORCE_SIMD_DIST, 23, 1)             \
    X(COMPUTE_RESOURCE_LIMITS, CU_GROUP_COUNT, 24, 3)              \
    X(COMPUTE_STATIC_THREAD_MGMT_SE0, SA0_CU_EN, 0, 16)            \
    X(COMPUTE_STATIC_THREAD_MGMT_SE0, SA1_CU_EN, 16, 16)           \
    X(COMPUTE_STATIC_THREAD_MGMT_SE1, SA0_CU_EN, 0, 16)            \
    X(COMPUTE_STATIC_THREAD_MGMT_SE1, SA1_CU_EN, 16, 16)           \
    X(COMPUTE_STATIC_THREAD_MGMT_SE2, SA0_CU_EN, 0, 16)            \
    X(COMPUTE_STATIC_THREAD_MGMT_SE2, SA1_CU_EN, 16, 16)           \
    X(COMPUTE_STATIC_THREAD_MGMT_SE3, SA0_CU_EN, 0, 16)            \
    X(COMPUTE_STATIC_THREAD_MGMT_SE3, SA1_CU_EN, 16, 16)           \
    X(COMPUTE_TMPRING_SIZE, WAVES, 0, 12)                          \
    X(COMPUTE_TMPRING_SIZE, WAVESIZE, 12, 15)                      \
    X(COMPUTE_THREAD_TRACE_ENABLE, THREAD_TRACE_ENABLE, 0, 1)      \
    X(COMPUTE_PGM_RSRC3, SHARED_VGPR_CNT, 0, 4)                    \
    X(COMPUTE_PGM_RSRC3, INST_PREF_SIZE, 4, 6)                     \
    X(COMPUTE_PGM_RSRC3, TRAP_ON_START, 10, 1)                     \
    X(COMPUTE_PGM_RSRC3, TRAP_ON_END, 11, 1)                       \
    X(COMPUTE_PGM_RSRC3, IMAGE_OP, 31, 1)                          \
    X(GRBM_GFX_INDEX, INSTANCE_INDEX, 0, 7)                        \
    X(GRBM_GFX_INDEX, SA_INDEX, 8, 8)                              \
    X(GRBM_GFX_INDEX, SE_INDEX, 16, 8)                             \
    X(GRBM_GFX_INDEX, SA_BROADCAST_WRITES, 29, 1)                  \
    X(GRBM_GFX_INDEX, INSTANCE_BROADCAST_WRITES, 30, 1)            \
    X(GRBM_GFX_INDEX, SE_BROADCAST_WRITES, 31, 1)                  \
    X(SPI_CONFIG_CNTL, GPR_WRITE_PRIORITY, 0, 21)                  \
    X(SPI_CONFIG_CNTL, EXP_PRIORITY_ORDER, 21, 3)                  \
    X(SPI_CONFIG_CNTL, ENABLE_SQG_TOP_EVENTS, 24, 1)               \
    X(SPI_CONFIG_CNTL, ENABLE_SQG_BOP_EVENTS, 25, 1)               \
    X(SPI_CONFIG_CNTL, PS_PKR_PRIORITY_CNTL, 30, 2)                \
    X(CP_PERFMON_CNTL, PERFMON_STATE, 0, 4)                        \
    X(CP_PERFMON_CNTL, SPM_PERFMON_STATE, 4, 4)                    \
    X(CP_PERFMON_CNTL, PERFMON_ENABLE_MODE, 8, 2)                  \
    X(CP_PERFMON_CNTL, PERFMON_SAMPLE_ENABLE, 10, 1)               \
    X(GRBM_PERFCOUNTER0_SELECT, PERF_SEL, 0, 6)                    \
    X(GRBM_PERFCOUNTER1_SELECT, PERF_SEL, 0, 6)                    \
    X(SQ_PERFCOUNTER0_SELECT, PERF_SEL, 0, 9)                      \
    X(SQ_PERFCOUNTER0_SELECT, SPM_MODE, 20, 4)                     \
    X(SQ_PERFCOUNTER0_SELECT, PERF_MODE, 28, 4)                    \
    X(SQ_PERFCOUNTER2_SELECT, PERF_SEL, 0, 9)                      \
    X(SQ_PERFCOUNTER4_SELECT, PERF_SEL, 0, 9)                      \
    X(SQ_PERFCOUNTER6_SELECT, PERF_SEL, 0, 9)                      \
    X(SQ_PERFCOUNTER8_SELECT, PERF_SEL, 0, 9)                      \
    X(SQ_PERFCOUNTER10_SELECT, PERF_SEL, 0, 9)                     \
    X(SQ_PERFCOUNTER12_SELECT, PERF_SEL, 0, 9)                     \
    X(SQ_PERFCOUNTER14_SELECT, PERF_SEL, 0, 9)                     \
    X(GL2C_PERFCOUNTER0_SELECT, PERF_SEL, 0, 10)                   \
    X(GL2C_PERFCOUNTER1_SELECT, PERF_SEL, 0, 10)                   \
    X(GL2C_PERFCOUNTER2_SELECT, PERF_SEL, 0, 10)                   \
    X(GL2C_PERFCOUNTER3_SELECT, PERF_SEL, 0, 10)                   \
    X(SQ_PERFCOUNTER_CTRL, PS_EN, 0, 1)                            \
    X(SQ_PERFCOUNTER_CTRL, GS_EN, 2, 1)                            \
    X(SQ_PERFCOUNTER_CTRL, HS_EN, 4, 1)                            \
    X(SQ_PERFCOUNTER_CTRL, CS_EN, 6, 1)                            \
    X(SQ_PERFCOUNTER_CTRL2, FORCE_EN, 0, 1)                        \
    X(SQ_PERFCOUNTER_CTRL2, VMID_EN, 1, 16)                        \
    X(SQ_THREAD_TRACE_BUF0_SIZE_GFX12, SIZE, 0, 22)                \
    X(SQ_THREAD_TRACE_BUF0_SIZE, BASE_HI, 0, 4)                    \
    X(SQ_THREAD_TRACE_BUF0_SIZE, SIZE, 8, 22)                      \
    X(SQ_THREAD_TRACE_CTRL, MODE, 0, 2)                            \
    X(SQ_THREAD_TRACE_CTRL, ALL_VMID, 2, 1)                        \
    X(SQ_THREAD_TRACE_CTRL, HIWATER, 6, 3)                         \
    X(SQ_THREAD_TRACE_CTRL, REG_AT_HWM, 9, 2)                      \
    X(SQ_THREAD_TRACE_CTRL, SPI_STALL_EN, 11, 1)                   \
    X(SQ_THREAD_TRACE_CTRL, SQ_STALL_EN, 12, 1)                    \
    X(SQ_THREAD_TRACE_CTRL, UTIL_TIMER, 13, 1)                     \
    X(SQ_THREAD_TRACE_CTRL, RT_FREQ, 16, 2)                        \
    X(SQ_THREAD_TRACE_CTRL, DRAW_EVENT_EN, 31, 1)                  \
    X(SQ_THREAD_TRACE_MASK, SIMD_SEL, 0, 2)                        \
    X(SQ_THREAD_TRACE_MASK, WGP_SEL, 4, 4)                         \
    X(SQ_THREAD_TRACE_MASK, SA_SEL, 9, 1)                          \
    X(SQ_THREAD_TRACE_MASK, WTYPE_INCLUDE, 10, 7)                  \
    X(SQ_THREAD_TRACE_TOKEN_MASK, TOKEN_EXCLUDE, 0, 11)            \
    X(SQ_THREAD_TRACE_TOKEN_MASK, TTRACE_EXEC, 11, 1)              \
    X(SQ_THREAD_TRACE_TOKEN_MASK, BOP_EVENTS_TOKEN_INCLUDE, 12, 1) \
    X(SQ_THREAD_TRACE_TOKEN_MASK, REG_INCLUDE, 16, 8)              \
    X(SQ_THREAD_TRACE_TOKEN_MASK, INST_EXCLUDE, 24, 2)             \
    X(SQ_THREAD_TRACE_TOKEN_MASK, REG_EXCLUDE, 26, 3)              \
    X(SQ_THREAD_TRACE_WPTR, OFFSET, 0, 29)                         \
    X(SQ_THREAD_TRACE_WPTR, BUFFER_ID, 31, 1)                      \
    X(SQ_THREAD_TRACE_STATUS, FINISH_PENDING, 0, 12)               \
    X(SQ_THREAD_TRACE_STATUS, FINISH_DONE, 12, 12)                 \
    X(SQ_THREAD_TRACE_STATUS, WRITE_ERROR, 24, 1)                  \
    X(SQ_THREAD_TRACE_STATUS, BUSY, 25, 1)                         \
    X(SQ_THREAD_TRACE_STATUS, OWNER_VMID, 28, 4)                   \
    X(SQ_THREAD_TRACE_STATUS2, BUF0_FULL, 0, 1)                    \
    X(SQ_THREAD_TRACE_STATUS2, BUF1_FULL, 1, 1)                    \
    X(SQ_THREAD_TRACE_STATUS2, WRITE_BUF_FULL, 14, 1)

/* ------------------------------------------------------------------------ */
/* SDMA v6 (gfx11).  Header: [7:0] op, [15:8] sub-op, op-specific above.
 * X(NAME, OP, SUB_OP, SIZE) — SIZE is the packet's dword count including the
 * header; 0 means "variable" (computed from a count field: NOP, WRITE).     */
#define RDX_SDMA_PACKETS(X)           \
    X(NOP, 0, 0, 0)                   \
    X(COPY_LINEAR, 1, 0, 7)           \
    X(WRITE_LINEAR, 2, 0, 0)          \
    X(INDIRECT, 4, 0, 6)              \
    X(FENCE, 5, 0, 4)                 \
    X(TRAP, 6, 0, 2)                  \
    X(POLL_REGMEM, 8, 0, 6)           \
    X(CONST_FILL, 11, 0, 5)           \
    X(TIMESTAMP_SET, 13, 0, 3)        \
    X(TIMESTAMP_GET, 13, 1, 3)        \
    X(TIMESTAMP_GET_GLOBAL, 13, 2, 3) \
    X(SRBM_WRITE, 14, 0, 3)

/* SDMA fields: X(PACKET, DW, FIELD, LO, WIDTH, ENUM); DW 0 is the header. */
#define RDX_SDMA_FIELDS(X)                           \
    X(NOP, 0, COUNT, 16, 14, NONE)                   \
    X(COPY_LINEAR, 0, ENCRYPT, 16, 1, NONE)          \
    X(COPY_LINEAR, 0, TMZ, 18, 1, NONE)              \
    X(COPY_LINEAR, 0, CPV, 19, 1, NONE)              \
    X(COPY_LINEAR, 0, BACKWARDS, 25, 1, NONE)        \
    X(COPY_LINEAR, 0, BROADCAST, 27, 1, NONE)        \
    X(COPY_LINEAR, 1, COUNT, 0, 30, NONE)            \
    X(COPY_LINEAR, 2, DST_SW, 16, 2, NONE)           \
    X(COPY_LINEAR, 2, DST_CACHE_POLICY, 18, 3, NONE) \
    X(COPY_LINEAR, 2, SRC_SW, 24, 2, NONE)           \
    X(COPY_LINEAR, 2, SRC_CACHE_POLICY, 26, 3, NONE) \
    X(COPY_LINEAR, 3, SRC_ADDR_LO, 0, 32, NONE)      \
    X(COPY_LINEAR, 4, SRC_ADDR_HI, 0, 32, NONE)      \
    X(COPY_LINEAR, 5, DST_ADDR_LO, 0, 32, NONE)      \
    X(COPY_LINEAR, 6, DST_ADDR_HI, 0, 32, NONE)      \
    X(WRITE_LINEAR, 0, TMZ, 18, 1, NONE)             \
    X(WRITE_LINEAR, 1, DST_ADDR_LO, 0, 32, NONE)     \
    X(WRITE_LINEAR, 2, DST_ADDR_HI, 0, 32, NONE)     \
    X(WRITE_LINEAR, 3, COUNT, 0, 20, NONE)           \
    X(INDIRECT, 0, VMID, 16, 4, NONE)                \
    X(INDIRECT, 1, BASE_LO, 0, 32, NONE)             \
    X(INDIRECT, 2, BASE_HI, 0, 32, NONE)             \
    X(INDIRECT, 3, IB_SIZE, 0, 20, NONE)             \
    X(INDIRECT, 4, CSA_ADDR_LO, 0, 32, NONE)         \
    X(INDIRECT, 5, CSA_ADDR_HI, 0, 32, NONE)         \
    X(FENCE, 0, MTYPE, 16, 3, NONE)                  \
    X(FENCE, 1, ADDR_LO, 0, 32, NONE)                \
    X(FENCE, 2, ADDR_HI, 0, 32, NONE)                \
    X(FENCE, 3, DATA, 0, 32, NONE)                   \
    X(TRAP, 1, INT_CONTEXT, 0, 28, NONE)             \
    X(POLL_REGMEM, 0, HDP_FLUSH, 26, 1, NONE)        \
    X(POLL_REGMEM, 0, FUNC, 28, 3, SDMA_FUNC)        \
    X(POLL_REGMEM, 0, MEM_POLL, 31, 1, NONE)         \
    X(POLL_REGMEM, 1, ADDR_LO, 0, 32, NONE)          \
    X(POLL_REGMEM, 2, ADDR_HI, 0, 32, NONE)          \
    X(POLL_REGMEM, 3, VALUE, 0, 32, NONE)            \
    X(POLL_REGMEM, 4, MASK, 0, 32, NONE)             \
    X(POLL_REGMEM, 5, INTERVAL, 0, 16, NONE)         \
    X(POLL_REGMEM, 5, RETRY_COUNT, 16, 12, NONE)     \
    X(CONST_FILL, 0, SW, 16, 2, NONE)                \
    X(CONST_FILL, 0, FILLSIZE, 30, 2, FILLSIZE)      \
    X(CONST_FILL, 1, DST_ADDR_LO, 0, 32, NONE)       \
    X(CONST_FILL, 2, DST_ADDR_HI, 0, 32, NONE)       \
    X(CONST_FILL, 3, SRC_DATA, 0, 32, NONE)          \
    X(CONST_FILL, 4, COUNT, 0, 30, NONE)             \
    X(TIMESTAMP_SET, 1, INIT_DATA_LO, 0, 32, NONE)   \
    X(TIMESTAMP_SET, 2, INIT_DATA_HI, 0, 32, NONE)   \
    X(TIMESTAMP_GET, 1, ADDR_LO, 0, 32, NONE)        \
    X(TIMESTAMP_GET, 2, ADDR_HI, 0, 32, NONE)        \
    X(TIMESTAMP_GET_GLOBAL, 1, ADDR_LO, 0, 32, NONE) \
    X(TIMESTAMP_GET_GLOBAL, 2, ADDR_HI, 0, 32, NONE) \
    X(SRBM_WRITE, 0, BYTE_EN, 28, 4, NONE)           \
    X(SRBM_WRITE, 1, ADDR, 0, 18, NONE)              \
    X(SRBM_WRITE, 2, DATA, 0, 32, NONE)

#endif /* RDX_PM4_DEFS_H */
