/*
 * rdx/codeobj.h — AMDGPU HSA code objects: targets, kernel descriptors,
 * metadata, and the ELF writer and reader.
 *
 * A code object is the ELF file the ROCm loader (and rdx's runtime) loads:
 * ELF64, EM_AMDGPU, ELFOSABI_AMDGPU_HSA, e_flags naming the GPU ("mach"),
 * a .text section with the machine code, one 64-byte kernel descriptor per
 * kernel in .rodata (symbol "<name>.kd"), and an NT_AMDGPU_METADATA note
 * holding MessagePack metadata (amdhsa.version, amdhsa.target,
 * amdhsa.kernels).  The layouts follow LLVM's AMDGPUUsage documentation
 * ("Code Object V4/V5 Metadata", "Kernel Descriptor").
 *
 * Targets: gfx1100 gfx1101 gfx1102 gfx1103 gfx1150 gfx1151 gfx1152 (RDNA3,
 * "gfx major" 11) and gfx1200 gfx1201 (RDNA4, major 12).
 */
#ifndef RDX_CODEOBJ_H
#define RDX_CODEOBJ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rdx/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- targets */

/* One GPU target rdx can write code objects for. */
typedef struct rdx_codeobj_target {
    const char *name;       /* "gfx1100" */
    uint32_t mach;          /* EF_AMDGPU_MACH_* value, the low byte of e_flags */
    unsigned major;         /* 11 (RDNA3) or 12 (RDNA4): selects descriptor layout */
    unsigned minor;         /* e.g. 0 for gfx1100, 5 for gfx1151 */
    unsigned stepping;      /* e.g. 1 for gfx1201 */
    bool xnack_supported;   /* whether e_flags may carry the XNACK feature bits */
    bool sramecc_supported; /* whether e_flags may carry the SRAMECC feature bits */
} rdx_codeobj_target;

/*
 * The target named `name` — a processor ("gfx1100") or a full target id as
 * .amdgcn_target and amdhsa.target spell it ("amdgcn-amd-amdhsa--gfx1100") —
 * or NULL if rdx does not know it.  Feature suffixes (":xnack+") are not
 * accepted: no gfx11/gfx12 target has them.
 */
const rdx_codeobj_target *rdx_codeobj_target_find(const char *name);

/* The target whose EF_AMDGPU_MACH value is `mach`, or NULL. */
const rdx_codeobj_target *rdx_codeobj_target_by_mach(uint32_t mach);

/* EF_AMDGPU_MACH value of the target `name`, or 0 (EF_AMDGPU_MACH_NONE) if unknown. */
uint32_t rdx_codeobj_target_mach(const char *name);

/* Number of known targets; rdx_codeobj_target_at(i) for i < count lists them. */
size_t rdx_codeobj_target_count(void);
const rdx_codeobj_target *rdx_codeobj_target_at(size_t i);

/*
 * ELF e_flags for `t` as LLVM sets them for code object v4+: the mach, and
 * XNACK/SRAMECC "unsupported" (0) — gfx11 and gfx12 support neither.
 */
uint32_t rdx_codeobj_target_eflags(const rdx_codeobj_target *t);

/* ------------------------------------------------------ kernel descriptor */

/* Size in bytes of an AMDHSA kernel descriptor. */
#define RDX_KERNEL_DESCRIPTOR_SIZE 64

/*
 * The 64-byte AMDHSA kernel descriptor (code object v3+), for gfx11 and
 * gfx12, one member per named bit field.  Bit fields of the
 * COMPUTE_PGM_RSRC1/2/3 registers and the kernel code properties are uint32_t
 * members holding the field value (not shifted).  Fields that exist only on
 * one generation say so; on the other generation they are 0 after unpacking
 * and must be 0 for packing.  Bits that are reserved for the generation are
 * kept raw in the *_reserved members so unpack/pack is exact — clang 19 sets
 * GRANULATED_WAVEFRONT_SGPR_COUNT on gfx11 although AMDGPUUsage calls it
 * reserved on gfx10+; it is decoded into granulated_wavefront_sgpr_count.
 */
typedef struct rdx_kernel_descriptor {
    uint32_t group_segment_fixed_size;   /* bytes of static LDS */
    uint32_t private_segment_fixed_size; /* bytes of scratch per work-item */
    uint32_t kernarg_size;               /* bytes of the kernarg segment */
    /* Byte offset from the descriptor's address to the kernel entry (signed). */
    int64_t kernel_code_entry_byte_offset;

    /* COMPUTE_PGM_RSRC1 */
    uint32_t granulated_workitem_vgpr_count;  /* 5:0  */
    uint32_t granulated_wavefront_sgpr_count; /* 9:6  (reserved gfx10+, clang 19 sets it) */
    uint32_t priority;                        /* 11:10 */
    uint32_t float_round_mode_32;             /* 13:12 */
    uint32_t float_round_mode_16_64;          /* 15:14 */
    uint32_t float_denorm_mode_32;            /* 17:16 */
    uint32_t float_denorm_mode_16_64;         /* 19:18 */
    uint32_t priv;                            /* 20 */
    uint32_t enable_dx10_clamp;               /* 21 gfx11 */
    uint32_t enable_wg_rr_en;                 /* 21 gfx12: round-robin scheduling */
    uint32_t debug_mode;                      /* 22 */
    uint32_t enable_ieee_mode;                /* 23 gfx11 */
    uint32_t disable_perf;                    /* 23 gfx12 */
    uint32_t bulky;                           /* 24 */
    uint32_t cdbg_user;                       /* 25 */
    uint32_t fp16_ovfl;                       /* 26 */
    uint32_t wgp_mode;                        /* 29 */
    uint32_t mem_ordered;                     /* 30 */
    uint32_t fwd_progress;                    /* 31 */

    /* COMPUTE_PGM_RSRC2 */
    uint32_t enable_private_segment;                /* 0 */
    uint32_t user_sgpr_count;                       /* 5:1 */
    uint32_t enable_trap_handler;                   /* 6 gfx11 */
    uint32_t enable_sgpr_workgroup_id_x;            /* 7 */
    uint32_t enable_sgpr_workgroup_id_y;            /* 8 */
    uint32_t enable_sgpr_workgroup_id_z;            /* 9 */
    uint32_t enable_sgpr_workgroup_info;            /* 10 */
    uint32_t enable_vgpr_workitem_id;               /* 12:11 (0 = X, 1 = XY, 2 = XYZ) */
    uint32_t enable_exception_address_watch;        /* 13 */
    uint32_t enable_exception_memory;               /* 14 */
    uint32_t granulated_lds_size;                   /* 23:15 (CP sets it; 0 in code objects) */
    uint32_t enable_exception_fp_invalid_operation; /* 24 */
    uint32_t enable_exception_fp_denormal_source;   /* 25 */
    uint32_t enable_exception_fp_division_by_zero;  /* 26 */
    uint32_t enable_exception_fp_overflow;          /* 27 */
    uint32_t enable_exception_fp_underflow;         /* 28 */
    uint32_t enable_exception_fp_inexact;           /* 29 */
    uint32_t enable_exception_int_divide_by_zero;   /* 30 */

    /* COMPUTE_PGM_RSRC3 */
    uint32_t shared_vgpr_count; /* 3:0 gfx11 */
    uint32_t inst_pref_size;    /* 9:4 gfx11, 11:4 gfx12 */
    uint32_t trap_on_start;     /* 10 gfx11 */
    uint32_t trap_on_end;       /* 11 gfx11 */
    uint32_t glg_en;            /* 13 gfx12 */
    uint32_t image_op;          /* 31 */

    /* kernel_code_properties (16 bits) */
    uint32_t enable_sgpr_private_segment_buffer; /* 0 */
    uint32_t enable_sgpr_dispatch_ptr;           /* 1 */
    uint32_t enable_sgpr_queue_ptr;              /* 2 */
    uint32_t enable_sgpr_kernarg_segment_ptr;    /* 3 */
    uint32_t enable_sgpr_dispatch_id;            /* 4 */
    uint32_t enable_sgpr_flat_scratch_init;      /* 5 */
    uint32_t enable_sgpr_private_segment_size;   /* 6 */
    uint32_t enable_wavefront_size32;            /* 10 */
    uint32_t uses_dynamic_stack;                 /* 11 */

    /* kernarg_preload (16 bits) */
    uint32_t kernarg_preload_spec_length; /* 6:0 */
    uint32_t kernarg_preload_spec_offset; /* 15:7 */

    /* Raw bits reserved for the generation, kept so pack(unpack(x)) == x. */
    uint32_t rsrc1_reserved, rsrc2_reserved, rsrc3_reserved;
    uint32_t kernel_code_properties_reserved;
    uint8_t reserved0[4];  /* bytes 12..15 */
    uint8_t reserved1[20]; /* bytes 24..43 */
    uint8_t reserved3[4];  /* bytes 60..63 */
} rdx_kernel_descriptor;

/* The packed word a descriptor bit field lives in. */
typedef enum rdx_kd_word {
    RDX_KD_WORD_RSRC1,      /* COMPUTE_PGM_RSRC1, bytes 48..51 */
    RDX_KD_WORD_RSRC2,      /* COMPUTE_PGM_RSRC2, bytes 52..55 */
    RDX_KD_WORD_RSRC3,      /* COMPUTE_PGM_RSRC3, bytes 44..47 */
    RDX_KD_WORD_PROPERTIES, /* kernel_code_properties, bytes 56..57 */
    RDX_KD_WORD_PRELOAD,    /* kernarg_preload, bytes 58..59 */
} rdx_kd_word;

/* Description of one descriptor bit field (the layout table, one source of truth). */
typedef struct rdx_kd_field {
    const char *name;      /* member name in rdx_kernel_descriptor, e.g. "wgp_mode" */
    const char *directive; /* LLVM assembler directive without the dot, e.g.
                              "amdhsa_workgroup_processor_mode", or NULL if none */
    rdx_kd_word word;
    unsigned shift, width;
    unsigned min_major, max_major; /* generations the field exists on (11..12) */
    size_t member_offset;          /* offsetof(rdx_kernel_descriptor, <name>) */
} rdx_kd_field;

/* Number of bit fields in the layout table; rdx_codeobj_kd_field_at(i) lists them. */
size_t rdx_codeobj_kd_field_count(void);
const rdx_kd_field *rdx_codeobj_kd_field_at(size_t i);
/* The field named `name` (member name or directive name) valid on `major`, or NULL. */
const rdx_kd_field *rdx_codeobj_kd_field_find(const char *name, unsigned major);
/* Read / write the member of `kd` that `f` describes (no range check on get). */
uint32_t rdx_codeobj_kd_get(const rdx_kernel_descriptor *kd, const rdx_kd_field *f);
/* Fails with RDX_ERR_RANGE (naming the field) if `value` does not fit its width. */
rdx_status rdx_codeobj_kd_set(rdx_kernel_descriptor *kd, const rdx_kd_field *f, uint32_t value);

/*
 * Decode 64 descriptor bytes for a gfx `major` (11 or 12) into *kd.  Every bit
 * is kept (reserved bits in the *_reserved members), so any 64 bytes decode.
 * Fails (RDX_ERR_UNSUPPORTED) only for a major other than 11 or 12.
 */
rdx_status rdx_codeobj_kd_unpack(const uint8_t bytes[RDX_KERNEL_DESCRIPTOR_SIZE], unsigned major,
                                 rdx_kernel_descriptor *kd);

/*
 * Encode *kd for gfx `major` into 64 bytes.  Fails with RDX_ERR_RANGE naming
 * the field when a value does not fit its bit width or a field of the other
 * generation is non-zero, RDX_ERR_UNSUPPORTED for a bad major.
 */
rdx_status rdx_codeobj_kd_pack(const rdx_kernel_descriptor *kd, unsigned major,
                               uint8_t bytes[RDX_KERNEL_DESCRIPTOR_SIZE]);

/*
 * Set *kd to the values LLVM's assembler assumes for an .amdhsa_kernel block
 * that gives no directive but the register counts, on gfx `major` (11 or 12):
 * FLOAT_DENORM_MODE_16_64 3, WGP_MODE 1, MEM_ORDERED 1, workgroup id X,
 * wave32, and on gfx11 DX10_CLAMP 1 and IEEE_MODE 1; everything else 0.
 */
void rdx_codeobj_kd_init(rdx_kernel_descriptor *kd, unsigned major);

/*
 * Number of user SGPRs the descriptor's enables imply (private segment buffer
 * 4, dispatch ptr 2, queue ptr 2, kernarg segment ptr 2, dispatch id 2, flat
 * scratch init 2, private segment size 1, plus the preloaded kernarg dwords):
 * the USER_SGPR_COUNT llvm-mc writes when .amdhsa_user_sgpr_count is absent,
 * and the least value it accepts.
 */
uint32_t rdx_codeobj_kd_implied_user_sgprs(const rdx_kernel_descriptor *kd);

/*
 * GRANULATED_WORKITEM_VGPR_COUNT for `next_free_vgpr` VGPRs (the highest VGPR
 * used + 1): ceil(max(1, n) / granule) - 1 with a granule of 8 VGPRs in wave32
 * and 4 in wave64 (gfx10+).  Inverse: rdx_codeobj_vgprs_of_granules.
 */
uint32_t rdx_codeobj_vgpr_granules(unsigned major, bool wave32, uint32_t next_free_vgpr);
uint32_t rdx_codeobj_vgprs_of_granules(unsigned major, bool wave32, uint32_t granules);

/*
 * GRANULATED_WAVEFRONT_SGPR_COUNT as clang 19's code generator writes it:
 * ceil(max(1, n) / 8) - 1 for n SGPRs (next_free_sgpr plus VCC's 2 when
 * reserved).  AMDGPUUsage calls the field reserved on gfx10+ (SGPRs are always
 * allocated): llvm-mc 19 writes 0 there for gfx11/gfx12, and llvm-objdump 19
 * rejects non-zero values, so an assembler matching llvm-mc leaves it 0.
 */
uint32_t rdx_codeobj_sgpr_granules(unsigned major, uint32_t num_sgprs);

/* -------------------------------------------------------------- metadata */

/* One kernel argument (an entry of a kernel's ".args"). */
typedef struct rdx_codeobj_arg {
    const char *name;          /* .name, or NULL */
    const char *type_name;     /* .type_name, or NULL */
    const char *value_kind;    /* .value_kind: "by_value", "global_buffer",
                                  "dynamic_shared_pointer", "hidden_*", ... (required) */
    const char *address_space; /* .address_space ("global", "local", ...), or NULL */
    const char *access;        /* .access, or NULL */
    const char *actual_access; /* .actual_access, or NULL */
    uint32_t offset;           /* .offset in the kernarg segment */
    uint32_t size;             /* .size in bytes */
    uint32_t pointee_align;    /* .pointee_align, 0 if absent */
    bool is_const, is_restrict, is_volatile, is_pipe; /* absent = false */
} rdx_codeobj_arg;

/*
 * Metadata of one kernel (an entry of amdhsa.kernels).  The writer emits the
 * required keys always and the optional ones when they differ from the
 * "absent" value given here; the reader fills absent keys with that value.
 * The writer takes group/private segment sizes, kernarg_segment_size and
 * wavefront_size from the kernel's descriptor when they are 0 here, and
 * fails when a non-zero value disagrees with the descriptor.
 */
typedef struct rdx_codeobj_kernel_meta {
    const char *name;             /* .name (writer: NULL = the kernel's name) */
    const char *symbol;           /* .symbol (writer: NULL = "<name>.kd") */
    const char *language;         /* .language, or NULL */
    uint32_t language_version[2]; /* .language_version when language_version_count == 2 */
    uint32_t language_version_count;
    const rdx_codeobj_arg *args; /* .args (may be NULL when num_args == 0) */
    size_t num_args;
    uint32_t group_segment_fixed_size;
    uint32_t private_segment_fixed_size;
    uint32_t kernarg_segment_size;
    uint32_t kernarg_segment_align;
    uint32_t wavefront_size;
    uint32_t sgpr_count;
    uint32_t vgpr_count;
    uint32_t agpr_count; /* 0 = absent */
    uint32_t sgpr_spill_count;
    uint32_t vgpr_spill_count;
    uint32_t max_flat_workgroup_size;
    uint32_t reqd_workgroup_size[3]; /* all 0 = absent */
    uint32_t workgroup_size_hint[3]; /* all 0 = absent */
    bool uses_dynamic_stack;
    int32_t workgroup_processor_mode; /* .workgroup_processor_mode; -1 = absent */
    uint32_t uniform_work_group_size; /* .uniform_work_group_size; 0 = absent */
} rdx_codeobj_kernel_meta;

/* Default metadata (every field "absent"/0, workgroup_processor_mode = -1). */
void rdx_codeobj_kernel_meta_init(rdx_codeobj_kernel_meta *m);

/* ---------------------------------------------------------------- kernels */

/* A kernel: the writer's input and the reader's output. */
typedef struct rdx_codeobj_kernel {
    const char *name;         /* function symbol; the descriptor symbol is "<name>.kd" */
    uint64_t code_offset;     /* entry point, byte offset within the code (.text) */
    uint64_t code_size;       /* bytes of the kernel's code (symbol size); 0 = unknown */
    rdx_kernel_descriptor kd; /* writer: kernel_code_entry_byte_offset is computed */
    rdx_codeobj_kernel_meta meta;
    bool has_meta; /* reader: an amdhsa.kernels entry names this kernel */
} rdx_codeobj_kernel;

/* ----------------------------------------------------------------- writer */

/* What rdx_codeobj_write puts in a code object (initialise with designated
   initializers: fields may be added at the end). */
typedef struct rdx_codeobj_image {
    const char *target;  /* "gfx1100" ... (see rdx_codeobj_target_find) */
    unsigned version;    /* code object version 4 or 5; 0 means 5 */
    const uint8_t *code; /* machine code for .text */
    size_t code_size;
    const rdx_codeobj_kernel *kernels;
    size_t num_kernels;
    /* Optional: a complete MessagePack metadata document to write instead of
       the one generated from kernels[].meta (e.g. from an assembler's
       .amdgpu_metadata block).  It must decode strictly, or the write fails. */
    const uint8_t *metadata;
    size_t metadata_size;
} rdx_codeobj_image;

/*
 * Build a code object: an ET_DYN ELF64 shared object laid out as ld.lld lays
 * out AMDGPU code objects (program headers, .note, .dynsym, .hash, .dynstr,
 * .rodata with the 64-byte aligned descriptors, .text 256-byte aligned on its
 * own page, .dynamic, .symtab, .strtab, .shstrtab).  Each kernel's
 * kernel_code_entry_byte_offset is computed from its code_offset; its
 * metadata entry is written with ".name"/".symbol" defaulted from the name.
 * On success *out is a malloc'd buffer of *len bytes owned by the caller.
 * Errors: RDX_ERR_INVALID (unknown target, bad version, kernel offset outside
 * the code, duplicate or empty name, descriptor field out of range — the
 * message names the kernel and field), RDX_ERR_NOMEM, RDX_ERR_IO (libelf).
 */
rdx_status rdx_codeobj_write(const rdx_codeobj_image *img, uint8_t **out, size_t *len);

/* rdx_codeobj_write to the file `path` (replaced). */
rdx_status rdx_codeobj_write_file(const rdx_codeobj_image *img, const char *path);

/* ----------------------------------------------------------------- reader */

/* A relocation in a relocatable object (reported raw). */
typedef struct rdx_codeobj_reloc {
    const char *section; /* the section the relocation patches, e.g. ".rodata" */
    uint64_t offset;     /* r_offset within that section */
    uint32_t type;       /* R_AMDGPU_* (1 ABS32_LO, 3 ABS64, 5 REL64, ...) */
    const char *symbol;  /* symbol name ("" for none) */
    int64_t addend;
} rdx_codeobj_reloc;

/* The metadata document (a MessagePack tree); opaque, printed with rdx_codeobj_print_metadata. */
typedef struct rdx_msgpack_node rdx_msgpack_node;

/* A code object read by rdx_codeobj_read; everything is owned by it. */
typedef struct rdx_codeobj {
    const rdx_codeobj_target *target; /* from e_flags */
    uint32_t e_flags;
    unsigned abi_version;     /* EI_ABIVERSION (2 = v4, 3 = v5, 4 = v6) */
    unsigned version;         /* code object version: abi_version + 2 */
    bool relocatable;         /* ET_REL (clang -c) rather than ET_DYN */
    const char *meta_target;  /* amdhsa.target, or NULL */
    uint32_t meta_version[2]; /* amdhsa.version */
    const uint8_t *text;      /* the .text bytes */
    size_t text_size;
    uint64_t text_addr;          /* .text address (ET_REL: its file offset, see docs) */
    rdx_codeobj_kernel *kernels; /* in symbol-table order */
    size_t num_kernels;
    rdx_codeobj_reloc *relocs; /* every RELA entry (ET_REL), raw */
    size_t num_relocs;
    const rdx_msgpack_node *meta_doc; /* the whole metadata document, or NULL */
    struct rdx_codeobj_priv *priv;    /* internal storage */
} rdx_codeobj;

/*
 * Parse a code object from `len` bytes at `data` (copied; the caller may free
 * it afterwards).  `what` names the input in messages (a path; NULL =
 * "<memory>").  Accepts rdx's own objects, ld.lld-linked shared objects and
 * clang -c relocatable objects (R_AMDGPU_ABS64/REL64 relocations of the
 * descriptors' entry offsets are applied).  Every malformed input gives
 * RDX_ERR_PARSE (or RDX_ERR_UNSUPPORTED for a foreign machine / target) with a
 * message naming what and where; never crashes.  On success *out is freed
 * with rdx_codeobj_free.
 */
rdx_status rdx_codeobj_read(const void *data, size_t len, const char *what, rdx_codeobj **out);

/* rdx_codeobj_read of the file `path`. */
rdx_status rdx_codeobj_read_file(const char *path, rdx_codeobj **out);

/* Release everything rdx_codeobj_read returned.  NULL is fine. */
void rdx_codeobj_free(rdx_codeobj *co);

/* --------------------------------------------------------------- printing */

/* Print every field of `kd` for gfx `major`: "<indent>name value" lines. */
void rdx_codeobj_print_kd(FILE *f, const rdx_kernel_descriptor *kd, unsigned major,
                          const char *indent);

/* Print co's metadata document as YAML (like llvm-readelf --notes). */
void rdx_codeobj_print_metadata(FILE *f, const rdx_codeobj *co);

/* The whole `rdx readelf` report: header, target, kernels, descriptors, metadata. */
void rdx_codeobj_print(FILE *f, const rdx_codeobj *co);

#ifdef __cplusplus
}
#endif

#endif /* RDX_CODEOBJ_H */
