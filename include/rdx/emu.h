/*
 * rdx/emu.h — the RDNA3 (gfx1100) wave emulator.
 *
 * An emulator instance runs compute dispatches of RDNA3 machine code on the
 * host.  GPU virtual addresses are host addresses: a kernel can only touch
 * memory the caller registered with rdx_emu_map (plus its own LDS and
 * scratch); any other access stops the dispatch with a VM-fault report.
 * Faults, unimplemented instructions and hangs (instruction budget) are
 * reported through rdx_status RDX_ERR_FAULT / RDX_ERR_UNSUPPORTED /
 * RDX_ERR_TIMEOUT with a message (rdx_error_message()) and a structured
 * rdx_emu_fault (rdx_emu_last_fault); the host never crashes and the
 * instance stays usable.
 *
 * Workgroups of a dispatch run on a pool of host threads (default: one per
 * core the caller may run on; kept, parked, between dispatches); the waves of one workgroup run
 * interleaved on one thread with hardware barrier semantics, so results of race-free kernels are
 * deterministic.  See docs/emu.md for the initial wave state, the fault
 * reports and the cycle model.
 */
#ifndef RDX_EMU_H
#define RDX_EMU_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rdx/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An emulator instance (opaque).  Not safe for concurrent dispatches. */
typedef struct rdx_emu rdx_emu;

/* Access rights of a registered memory range. */
enum {
    RDX_EMU_READ = 1u,
    RDX_EMU_WRITE = 2u,
    RDX_EMU_RW = 3u,
};

/*
 * Create an emulator for `target` ("gfx1100"; NULL means "gfx1100"): any target
 * of rdx_isa_target_find — RDNA3 gfx1100..gfx1103, RDNA3.5 gfx1150..gfx1152, RDNA4
 * gfx1200 / gfx1201 (docs/emu.md, Targets, says what each emulates).  Returns
 * RDX_ERR_UNSUPPORTED (naming the target) for an unknown one, RDX_ERR_NOMEM.  Free
 * with rdx_emu_destroy.
 */
rdx_status rdx_emu_create(const char *target, rdx_emu **out);

/* Destroy an emulator (NULL is ignored).  Registered host memory is not touched. */
void rdx_emu_destroy(rdx_emu *emu);

/*
 * Register host memory [addr, addr+size) as GPU-accessible with `access`
 * (RDX_EMU_READ/WRITE).  The caller keeps ownership; the memory must stay
 * valid while registered.  Overlapping an existing range is RDX_ERR_INVALID.
 */
rdx_status rdx_emu_map(rdx_emu *emu, uint64_t addr, uint64_t size, unsigned access);

/*
 * rdx_emu_map with a label naming the range in VM fault reports (copied; NULL
 * = none): an access outside every range is described relative to the
 * nearest labelled range within 16 MiB (else the nearest range), e.g. "4 bytes
 * past the end of the 16-byte <label> at 0x... (offset 16)" ("mapped range"
 * when it has no label); an access inside a range without the rights, as
 * "the N-byte <label> at 0x... (offset K) is read-only".
 */
rdx_status rdx_emu_map_labeled(rdx_emu *emu, uint64_t addr, uint64_t size, unsigned access,
                               const char *label);

/* Remove the range that starts at `addr`; RDX_ERR_NOT_FOUND if none does. */
rdx_status rdx_emu_unmap(rdx_emu *emu, uint64_t addr);

/* Number of host threads for workgroups; 0 = one per core the calling thread may run on
   (its affinity mask; the default). */
void rdx_emu_set_threads(rdx_emu *emu, unsigned threads);

/* Register-level description of one dispatch (zero-initialise, then fill). */
typedef struct rdx_emu_dispatch {
    uint64_t code;                 /* address of the first instruction */
    uint32_t rsrc1, rsrc2, rsrc3;  /* COMPUTE_PGM_RSRC1/2/3 */
    uint16_t code_properties;      /* kernel descriptor kernel_code_properties (user SGPR enables,
                                      bit 10 = wave32) */
    uint32_t grid[3];              /* grid size in work-items (0 is taken as 1) */
    uint32_t wg[3];                /* workgroup size in work-items (0 is taken as 1) */
    uint64_t kernarg;              /* kernarg segment address */
    uint32_t group_segment_size;   /* static LDS bytes (descriptor) */
    uint32_t dynamic_lds_size;     /* LDS bytes added by the dispatch */
    uint32_t private_segment_size; /* scratch bytes per lane */
    uint64_t dispatch_ptr;         /* value of the dispatch-packet SGPR pair when enabled */
    uint64_t queue_ptr;            /* value of the queue SGPR pair when enabled */
    uint64_t dispatch_id;          /* value of the dispatch-id SGPR pair when enabled */
    /* Explicit user SGPR values: when user_sgpr_count > 0 these are loaded into
       s0.. instead of the values derived from code_properties. */
    uint32_t user_sgpr[16];
    uint32_t user_sgpr_count;
    uint64_t budget; /* max wave-instructions per wave; 0 = default (2e8) */
    /* Cancel hook (NULL = none): *cancel is read atomically before every
       slice of 4096 wave-instructions of each wave and before every
       workgroup; once it is non-zero no workgroup starts, every running wave
       stops where it is and the dispatch ends with a HANG report ("cancelled
       by the caller", the PC histogram of the stopped waves), RDX_ERR_TIMEOUT
       — within one slice per host thread (well under 100 ms).  A dispatch
       whose workgroups all finished before the cancel landed succeeds.  The
       flag is the caller's; it must stay valid during rdx_emu_run and is
       never written by the emulator.  Set it from any thread with
       __atomic_store_n(flag, 1, __ATOMIC_RELEASE). */
    const int *cancel;
    /* Cycle limit (0 = none), the device-side watchdog BEAM's timer uses: once
       a lower bound of the dispatch's kernel time estimate (est_kernel_cycles)
       exceeds it — one wave's cycles, all waves' cycles / (the target's
       SIMDs, 192 on a gfx1100, x 16 wave slots), or all waves' issue cycles /
       its SIMDs — the dispatch stops as if cancelled: a HANG report naming
       the limit, RDX_ERR_TIMEOUT.  Checked after every slice of 4096
       wave-instructions of each wave. */
    uint64_t cycle_limit;
    /* Dispatch budget (0 = none): wave-instructions all waves of the dispatch
       together may run.  A dispatch whose total exceeds it fails with a
       RDX_EMU_FAULT_DISPATCH_BUDGET report, "slow dispatch: ... dispatch
       exceeded its budget of N wave-instructions; PC histogram: ...",
       RDX_ERR_TIMEOUT: a slow kernel, not a hung one.  The total is added up
       after every slice of each wave; once it passes the budget the dispatch
       stops as if cancelled (so it runs at most one slice per host thread
       more). */
    uint64_t dispatch_budget;
} rdx_emu_dispatch;

/*
 * Fill `d` from a 64-byte AMDHSA kernel descriptor at host address `kd`
 * (kernel entry = kd + kernel_code_entry_byte_offset; rsrc1/2/3, the
 * code-properties enables, group and private segment sizes).  Grid,
 * workgroup size and kernarg are left for the caller.  RDX_ERR_INVALID on
 * a NULL argument.
 */
rdx_status rdx_emu_dispatch_from_descriptor(rdx_emu_dispatch *d, const void *kd);

/* Counter classes of wave-instructions. */
#define RDX_EMU_CLASS_LIST(X) \
    X(SALU, "salu")           \
    X(VALU, "valu")           \
    X(TRANS, "trans")         \
    X(VMEM, "vmem")           \
    X(SMEM, "smem")           \
    X(LDS, "lds")             \
    X(BRANCH, "branch")       \
    X(WMMA, "wmma")           \
    X(OTHER, "other")

typedef enum rdx_emu_class {
#define RDX_EMU_CLASS_ENUM_(n, s) RDX_EMU_CLASS_##n,
    RDX_EMU_CLASS_LIST(RDX_EMU_CLASS_ENUM_)
#undef RDX_EMU_CLASS_ENUM_
        RDX_EMU_CLASS_COUNT
} rdx_emu_class;

/* Name of a class ("salu", ...); "?" when out of range. */
const char *rdx_emu_class_name(rdx_emu_class c);

/* Execution count of one PC. */
typedef struct rdx_emu_pc_count {
    uint64_t pc;
    uint64_t count; /* wave-instructions executed at pc */
    uint32_t op;    /* rdx_isa op id */
} rdx_emu_pc_count;

/* The largest term of the kernel time estimate (docs/emu.md "Kernel time estimate"). */
typedef enum rdx_emu_bound {
    RDX_EMU_BOUND_NONE = 0, /* nothing ran */
    RDX_EMU_BOUND_ISSUE,    /* the SIMDs' issue slots (the waves' issue cycles) */
    RDX_EMU_BOUND_LATENCY,  /* memory waits the resident waves could not hide */
    RDX_EMU_BOUND_L0,       /* vector-memory line requests per CU */
    RDX_EMU_BOUND_LDS,      /* LDS bytes per CU */
    RDX_EMU_BOUND_DRAM,     /* unique memory lines over the DRAM bandwidth */
} rdx_emu_bound;

/* Name of a bound ("issue", "latency", "l0", "lds", "dram", "none"); "?" when out of range. */
const char *rdx_emu_bound_name(rdx_emu_bound b);

/* Counters of the last dispatch. */
typedef struct rdx_emu_counters {
    uint64_t waves, workgroups;
    uint64_t wave_insts;                    /* all wave-instructions */
    uint64_t by_class[RDX_EMU_CLASS_COUNT]; /* wave-instructions per class */
    uint64_t lane_ops;                      /* sum of active lanes over VALU/VMEM/LDS insts */
    uint64_t vector_insts;                  /* VALU/VMEM/LDS insts (denominator of lane_ops) */
    uint64_t bytes_read, bytes_written;     /* global/flat/buffer/SMEM traffic */
    uint64_t lds_bytes;                     /* LDS bytes read + written */
    /* Lane accesses of DS loads/stores (2addr forms: each address) whose LDS byte address
       is not a multiple of the access's natural alignment (2, 4, 8 bytes; 16 for b96/b128).
       The emulator runs gfx11 as the amdgpu driver configures it, SH_MEM_CONFIG.alignment_mode
       = UNALIGNED, where such accesses read and write the addressed bytes; in the DWORD mode
       the hardware would ignore the low address bits instead, without a fault (RDNA3 ISA
       §12.7; docs/emu.md "LDS alignment").  Misaligned DS atomics fault in every mode. */
    uint64_t lds_misaligned;
    uint64_t scratch_bytes;   /* scratch bytes read + written */
    uint64_t vopd;            /* dual-issued VOPD instructions */
    uint64_t cycles;          /* estimated cycles (sum over waves; see docs/emu.md) */
    uint64_t max_wave_cycles; /* estimate of the longest wave */
    /* Kernel-level time estimate on the emulator's target's whole chip (docs/emu.md
       "Kernel time estimate"): the waves' issue and wait cycles replayed on its WGPs x 4
       SIMD32s (gfx1100: 48 WGPs) with the dispatch's occupancy (VGPRs, LDS, barriers, wave
       slots) — waves resident on a SIMD overlap their waits and share its
       issue slots — bounded below by the L0, LDS and DRAM bandwidths.
       Identical for any host thread count.  `cycles` keeps its meaning. */
    uint64_t est_kernel_cycles;  /* the estimate (engine clocks: rdx_emu_clock_mhz) */
    uint64_t est_issue_cycles;   /* issue cycles of the busiest SIMD (a lower bound) */
    uint64_t est_dram_bytes;     /* 128 x (unique lines read + unique lines written) */
    uint32_t est_waves_per_simd; /* occupancy: resident waves per SIMD the VGPRs allow */
    uint32_t est_groups_per_wgp; /* resident workgroups per WGP (per CU in CU mode) */
    rdx_emu_bound est_bound;     /* which term est_kernel_cycles is */
    double avg_active_lanes;     /* lane_ops / vector_insts */
    size_t npc;                  /* entries in pcs */
    const rdx_emu_pc_count *pcs; /* sorted by pc; owned by the emulator, valid until the next
                                    dispatch or destroy */
} rdx_emu_counters;

/* Kinds of fault. */
typedef enum rdx_emu_fault_kind {
    RDX_EMU_FAULT_NONE = 0,
    RDX_EMU_FAULT_VM,            /* global/flat/buffer/SMEM address not registered */
    RDX_EMU_FAULT_LDS,           /* LDS access out of the workgroup's allocation */
    RDX_EMU_FAULT_SCRATCH,       /* scratch access out of the lane's segment */
    RDX_EMU_FAULT_INVALID_INST,  /* cannot be decoded */
    RDX_EMU_FAULT_UNIMPLEMENTED, /* decodes, but the emulator lacks its semantics */
    RDX_EMU_FAULT_HANG,          /* instruction budget exhausted */
    RDX_EMU_FAULT_INVALID_DISPATCH,
    RDX_EMU_FAULT_TRAP, /* s_trap with no trap handler installed (status RDX_ERR_FAULT) */
    RDX_EMU_FAULT_DISPATCH_BUDGET, /* rdx_emu_dispatch.dispatch_budget exceeded: a slow
                                      dispatch (status RDX_ERR_TIMEOUT) */
    RDX_EMU_FAULT_OPERAND_RULE,    /* decodes, but breaks an operand rule of the hardware
                                      (rdx_isa_check: WMMA overlap, VOPD banks, constant
                                      bus, ...; status RDX_ERR_INVALID) */
} rdx_emu_fault_kind;

/* Structured report of the fault that stopped the last dispatch. */
typedef struct rdx_emu_fault {
    rdx_emu_fault_kind kind;
    uint64_t pc;
    uint8_t bytes[16]; /* raw instruction bytes at pc */
    unsigned nbytes;
    char inst[96];    /* the instruction disassembled (mnemonic only if not printable) */
    uint64_t address; /* faulting address (VM/LDS/scratch) */
    int write;        /* 1 = write access, 0 = read */
    unsigned lane;    /* first faulting lane */
    uint32_t workgroup[3];
    unsigned wave; /* wave index inside the workgroup */
    /* HANG and DISPATCH_BUDGET: where the waves were when the dispatch
       stopped — every wave of every workgroup in flight, counted per PC
       (count = number of waves), most waves first, at most 16 PCs, each with
       its instruction disassembled.  Empty when no wave was running (e.g. the
       cancel landed between workgroups). */
    unsigned nhist;
    struct {
        uint64_t pc;
        uint64_t count;
        char inst[64];
    } hist[16];
    char message[2048]; /* the same text as rdx_error_message() after the dispatch */
} rdx_emu_fault;

/*
 * Run one dispatch to completion.  Returns RDX_OK, RDX_ERR_FAULT (VM, LDS,
 * scratch), RDX_ERR_UNSUPPORTED (invalid/unimplemented instruction),
 * RDX_ERR_TIMEOUT (a budget, the cycle limit or the cancel hook stopped it:
 * fault kind HANG, or DISPATCH_BUDGET for the dispatch budget), RDX_ERR_INVALID (bad dispatch,
 * or an instruction that breaks an operand rule: fault kind OPERAND_RULE),
 * RDX_ERR_NOMEM; on failure rdx_emu_last_fault describes it.  Counters are kept either way.
 */
rdx_status rdx_emu_run(rdx_emu *emu, const rdx_emu_dispatch *d);

/* Counters of the last dispatch (owned by emu, valid until the next run). */
const rdx_emu_counters *rdx_emu_get_counters(const rdx_emu *emu);

/* Fault of the last dispatch (kind NONE after success). */
const rdx_emu_fault *rdx_emu_last_fault(const rdx_emu *emu);

/*
 * Fidelity: the hardware-derived evidence for the emulator's semantics of op
 * (an rdx_isa op id, as rdx_emu_pc_count.op): a short text naming the tests
 * that exercise it on silicon-validated data — tinygrad's hardware-validated
 * test/amd/hw tests and rdx's tests/emu/check_silicon.c (emu/core/fidelity.def,
 * generated by scripts/gen_fidelity.py) — or NULL when there is none.
 */
const char *rdx_emu_op_evidence(uint32_t op);

/*
 * Write the fidelity report of counters `c` (a dispatch's per-PC counts) to f:
 * one line per executed op, most executed first, "COUNT OP hw-tested: EVIDENCE"
 * or "COUNT OP not hw-tested", then a summary (ops and wave-instructions with and
 * without evidence).  A VOPD pair counts under its X op.  RDX_ERR_NOMEM, or
 * RDX_ERR_INVALID for NULL arguments.
 */
rdx_status rdx_emu_fidelity_report(const rdx_emu_counters *c, FILE *f);

/* One memory range for rdx_emu_run_asm_ex. */
typedef struct rdx_emu_range {
    uint64_t addr, size;
} rdx_emu_range;

/*
 * remu-compatible entry, tinygrad's `libremu.so` ABI (ctypes: void *, uint32 x 7,
 * void *; returns int32): run `code` (code_size bytes of gfx1100 wave32 machine
 * code at a host address) on a grid of gx*gy*gz workgroups of lx*ly*lz
 * work-items with the kernarg pointer in s[0:1], workgroup IDs in the SGPRs
 * remu used (X in s15 for 1D; X,Y in s14,s15 for 2D; X,Y,Z in s13..s15 for
 * 3D, i.e. USER_SGPR_COUNT 15/14/13; a grid is 2D when gy != 1 and 3D when
 * gz != 1), thread IDs packed in v0 (x | y << 10 | z << 20), 64 KiB of LDS per
 * workgroup, 64 KiB scratch per lane, MODE as clang's default (IEEE, DX10
 * clamp, no denormal flushing).  Like remu there are no explicit ranges: every
 * mapping /proc/self/maps lists at the call is accessible (a wild address
 * still faults instead of crashing).  The target is the environment's
 * RDX_EMU_ARCH when set (e.g. "gfx1201": RDNA4 machine code; an unknown name
 * fails), else gfx1100.  Returns 0, or a non-zero rdx_status after printing
 * the fault message to stderr.
 */
int run_asm(uint64_t code, uint32_t code_size, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,
            uint32_t ly, uint32_t lz, uint64_t kernarg);

/*
 * Like run_asm, with: rsrc2 (COMPUTE_PGM_RSRC2 as the hardware reads it:
 * USER_SGPR_COUNT, the workgroup-ID / workgroup-info / private-segment SGPR
 * enables and LDS_SIZE in 512-byte granules; 0 = remu's layout above),
 * rsrc1 (COMPUTE_PGM_RSRC1 as it is — VGPR granules, float round and denorm
 * modes, DX10 clamp, IEEE; 0 = run_asm's), scratch bytes per lane (0 = 64
 * KiB), target (NULL = "gfx1100"; any target rdx_emu_create takes), user SGPR values (n_user_sgprs
 * values loaded into s0.., replacing the kernarg pointer; 0 = kernarg in s[0:1]), and the valid
 * memory ranges (nranges == 0: the process's mappings as for run_asm; otherwise only these ranges,
 * read and write, plus the code). Returns 0 or a non-zero rdx_status; the message is in
 * rdx_error_message().
 */
int rdx_emu_run_asm_ex(uint64_t code, uint64_t code_size, uint32_t gx, uint32_t gy, uint32_t gz,
                       uint32_t lx, uint32_t ly, uint32_t lz, uint64_t kernarg, uint32_t rsrc2,
                       uint32_t rsrc1, uint32_t scratch_per_lane, const char *target,
                       const uint32_t *user_sgprs, uint32_t n_user_sgprs,
                       const rdx_emu_range *ranges, uint32_t nranges);

/* ------------------------------------------------ running a code object */

struct rdx_codeobj; /* rdx/codeobj.h */

/* A host buffer made GPU-accessible for the dispatch of rdx_emu_run_codeobj. */
typedef struct rdx_emu_buffer {
    void *data;      /* host address = GPU address (the kernel gets it through the kernarg) */
    size_t size;     /* bytes; 0 = nothing to map */
    unsigned access; /* RDX_EMU_READ / RDX_EMU_WRITE / RDX_EMU_RW; 0 = RW */
} rdx_emu_buffer;

/* One dispatch of a kernel of a code object (zero-initialise, then fill). */
typedef struct rdx_emu_launch {
    uint32_t grid[3]; /* grid size in work-items (0 is taken as 1); partial groups allowed */
    uint32_t wg[3];   /* workgroup size in work-items (0 is taken as 1) */
    /* The kernarg segment as the kernel reads it (explicit + hidden arguments,
       buffer addresses included).  It is copied to 128-byte aligned memory of
       max(kernarg_size, the descriptor's kernarg_size) bytes, zero-padded. */
    const void *kernarg;
    size_t kernarg_size;
    const rdx_emu_buffer *bufs; /* registered for the dispatch; an exact repeat of an
                                   earlier entry (same data and size) is registered once */
    size_t nbufs;
    uint32_t dynamic_lds_size; /* LDS bytes added to the descriptor's static LDS */
    uint64_t budget;           /* max wave-instructions per wave; 0 = the emulator's default */
    const int *cancel;         /* cancel hook, see rdx_emu_dispatch.cancel; NULL = none */
    uint64_t cycle_limit;      /* see rdx_emu_dispatch.cycle_limit; 0 = none */
    uint64_t dispatch_budget;  /* see rdx_emu_dispatch.dispatch_budget; 0 = none */
} rdx_emu_launch;

/*
 * Run kernel `kernel` of the AMDGPU code object (ELF) at `elf` (`size`
 * bytes, read with rdx_codeobj_read; the caller keeps it) once on `emu`:
 * copy the code to page-aligned memory, register it (read-only), the
 * kernarg copy (read-only) and the buffers of `launch`, dispatch from the
 * kernel's descriptor (rdx_emu_dispatch_from_descriptor) with the launch's
 * grid, workgroup size, LDS, budget and cancel hook, then unregister
 * everything it registered and free its copies — on success and on every
 * error.  `kernel` NULL picks the code object's only kernel.  Ranges `emu`
 * already had registered stay as they are (a launch buffer overlapping one
 * is an error).  Afterwards rdx_emu_get_counters / rdx_emu_last_fault
 * describe the dispatch exactly as after rdx_emu_run.
 *
 * Errors (message recorded; nothing stays registered): RDX_ERR_INVALID for
 * NULL emu/elf/launch, an unknown kernel name (the message lists the
 * kernels), no kernel name with several kernels, a kernarg_size without
 * kernarg bytes, a buffer that overlaps a registered range; the code
 * object reader's RDX_ERR_PARSE / RDX_ERR_UNSUPPORTED (a non-gfx11
 * target); RDX_ERR_NOMEM; and every status of rdx_emu_run (fault, hang,
 * unimplemented instruction, invalid dispatch).
 */
rdx_status rdx_emu_run_codeobj(rdx_emu *emu, const void *elf, size_t size, const char *kernel,
                               const rdx_emu_launch *launch);

/*
 * rdx_emu_run_codeobj on a code object already read by rdx_codeobj_read
 * (`co` is only read; read it once, dispatch it many times).
 */
rdx_status rdx_emu_run_kernel(rdx_emu *emu, const struct rdx_codeobj *co, const char *kernel,
                              const rdx_emu_launch *launch);

#ifdef __cplusplus
}
#endif

#endif /* RDX_EMU_H */
