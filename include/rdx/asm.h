/*
 * rdx/asm.h — the text assembler and disassembler for AMD RDNA (gfx1100, gfx1201).
 *
 * The syntax is the one llvm-mc accepts and prints for
 * `-triple=amdgcn-amd-amdhsa -mcpu=gfx1100` (or gfx1201): instructions,
 * labels, the common data and section directives, `.amdgcn_target` and
 * `.amdhsa_kernel NAME ... .end_amdhsa_kernel`.  See docs/asm.md.
 *
 * Assembly reports every error of a file, not only the first: the result
 * keeps a list of diagnostics, each "FILE:LINE:COL: error: MESSAGE".
 */
#ifndef RDX_ASM_H
#define RDX_ASM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rdx/isa.h>
#include <rdx/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Options of rdx_asm_assemble.  Zero-initialise, then set what you need. */
typedef struct rdx_asm_options {
    const char *filename; /* used in diagnostics; NULL means "<input>" */
    const char *arch;     /* a target of rdx_isa_target_*: "gfx1100", "gfx1201", ...; NULL: taken
                             from .amdgcn_target, else gfx1100 */
} rdx_asm_options;

/* One diagnostic. */
typedef struct rdx_asm_diag {
    unsigned line, col; /* 1-based */
    char *text;         /* the whole "FILE:LINE:COL: error: MESSAGE" line (no newline) */
} rdx_asm_diag;

/* One output section (".text", ".rodata", ...). */
typedef struct rdx_asm_section {
    char *name;
    uint8_t *data;
    size_t size;
    unsigned align; /* largest alignment requested with .p2align/.align (bytes) */
} rdx_asm_section;

/* Symbol types. */
enum { RDX_ASM_SYM_NOTYPE = 0, RDX_ASM_SYM_FUNC = 1, RDX_ASM_SYM_OBJECT = 2 };

/* One symbol defined in the file (labels and .set symbols). */
typedef struct rdx_asm_symbol {
    char *name;
    int section;   /* index into sections, or -1 for an absolute value */
    int64_t value; /* offset in the section, or the absolute value */
    int global;    /* .globl / .global */
    int type;      /* RDX_ASM_SYM_* from .type */
    uint64_t size; /* from .size, 0 when not given */
} rdx_asm_symbol;

/* Where one source statement put its bytes (instructions and data). */
typedef struct rdx_asm_stmt {
    unsigned line;
    int section;
    size_t offset, size;
} rdx_asm_stmt;

/*
 * One `.amdhsa_kernel` block: the 64-byte kernel descriptor as the directive
 * fields define it (kernel_code_entry_byte_offset left 0: the code-object
 * writer fills it in), and the values of the fields that the metadata needs.
 */
typedef struct rdx_asm_kernel {
    char *name;
    uint8_t descriptor[64];
    unsigned line; /* of the .amdhsa_kernel directive */
    uint32_t next_free_vgpr, next_free_sgpr;
    uint32_t group_segment_fixed_size, private_segment_fixed_size, kernarg_size;
    int wavefront_size32;
} rdx_asm_kernel;

/* The result of assembling one file.  Free with rdx_asm_free. */
typedef struct rdx_asm_result {
    char arch[16];  /* target actually used, e.g. "gfx1100" */
    char *filename; /* the name diagnostics use */
    rdx_asm_section *sections;
    size_t nsections;
    rdx_asm_symbol *symbols;
    size_t nsymbols;
    rdx_asm_kernel *kernels;
    size_t nkernels;
    rdx_asm_stmt *stmts;
    size_t nstmts;
    rdx_asm_diag *diags; /* errors, in source order */
    size_t ndiags;
    char *metadata;               /* YAML text of .amdgpu_metadata, or NULL */
    unsigned metadata_line;       /* source line of its first character */
    unsigned code_object_version; /* .amdhsa_code_object_version, 0 when absent */
} rdx_asm_result;

/*
 * Assemble `len` bytes of source text.  On RDX_OK, *out is a result with no
 * diagnostics.  On RDX_ERR_PARSE the source had errors: *out is still set and
 * lists every one of them (the recorded message is the first, with the
 * count).  On other failures (RDX_ERR_NOMEM, RDX_ERR_INVALID for a bad
 * option) *out is NULL.  The caller frees *out with rdx_asm_free.
 */
rdx_status rdx_asm_assemble(const char *src, size_t len, const rdx_asm_options *opts,
                            rdx_asm_result **out);

/* Free a result (NULL is fine). */
void rdx_asm_free(rdx_asm_result *r);

/* Index of section `name` in r, or -1. */
int rdx_asm_find_section(const rdx_asm_result *r, const char *name);

/*
 * Build an HSA code object (rdx/codeobj.h writer) from an assembled file:
 * its .text, and one kernel per .amdhsa_kernel block, whose entry is the
 * label of the same name in .text.  The metadata note is the file's
 * .amdgpu_metadata block converted to MessagePack when there is one, else
 * generated from the descriptors (sizes, register counts, wave size, no
 * .args).  *out (malloc'd, *len bytes) is the caller's.  Errors:
 * RDX_ERR_INVALID (a kernel without its label in .text, a result with
 * errors), RDX_ERR_PARSE (metadata YAML rdx cannot read: message names the
 * line), the writer's errors.
 */
rdx_status rdx_asm_write_codeobj(const rdx_asm_result *r, uint8_t **out, size_t *len);

/* ---------------------------------------------------------- disassembly */

/*
 * Print `in` as llvm-mc prints it for target `t` ("v_add_f32_e32 v1, v2, v3")
 * into buf[0..cap), NUL-terminated, no newline.  Errors: RDX_ERR_INVALID (an
 * op or operand the printer cannot spell: message names it), RDX_ERR_RANGE
 * (cap too small).
 */
rdx_status rdx_asm_print_inst(const rdx_isa_target *t, const rdx_isa_inst *in, char *buf,
                              size_t cap);

/*
 * Assemble one instruction line (no labels or directives) for target `t`
 * into out[0..RDX_ISA_MAX_BYTES); *len gets the size.  For tools and tests
 * that work line by line.  Errors: RDX_ERR_PARSE (message: what was
 * expected, with the column), or the encoder's errors.
 */
rdx_status rdx_asm_assemble_inst(const rdx_isa_target *t, const char *line, uint8_t *out,
                                 size_t *len);

/* Flags of the disassembly listings. */
enum {
    RDX_ASM_DIS_NO_ADDR = 1,                /* no "// address: words" comments */
    RDX_ASM_DIS_NO_DESCRIPTOR_COMMENTS = 2, /* no per-field descriptor comments */
};

/*
 * Write the disassembly of code[0..n) for target `t` to `f`, one instruction
 * per line as llvm-objdump prints it ("\t<text> // <address>: <words>"),
 * `labels[i]:` before the instruction at offset label_offsets[i].  Bytes that
 * do not decode print as ".long 0x... ; invalid instruction encoding" (a
 * trailing partial word as .byte) and disassembly continues.  Cannot fail.
 */
void rdx_asm_disassemble(FILE *f, const rdx_isa_target *t, const uint8_t *code, size_t n,
                         uint64_t base, const char *const *labels, const uint64_t *label_offsets,
                         size_t nlabels, unsigned flags);

struct rdx_codeobj;

/*
 * Write a code object (read with rdx_codeobj_read) as an assembly listing
 * that rdx as and llvm-mc accept: .amdgcn_target, the code with kernel
 * labels, each kernel descriptor as an .amdhsa_kernel block (preceded by
 * every field as comments), and the metadata as an .amdgpu_metadata block.
 * `what` names the input in the header comment.  Errors: RDX_ERR_UNSUPPORTED
 * (no instruction tables for the object's target).
 */
rdx_status rdx_asm_disassemble_codeobj(FILE *f, const struct rdx_codeobj *co, const char *what,
                                       unsigned flags);

#ifdef __cplusplus
}
#endif

#endif /* RDX_ASM_H */
