/*
 * isa/asm/state.h — the assembler's working state shared by its files (internal).
 *
 * One rdx_asm_state lives for one rdx_asm_assemble() call.  Sections hold the
 * emitted bytes, symbols map names to (section, offset) or absolute values,
 * fixups are expressions re-evaluated once every label is known, and diags
 * collect every error (assembly continues after one).
 */
#ifndef RDX_ISA_ASM_STATE_H
#define RDX_ISA_ASM_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rdx/asm.h>

#include "isa/asm/lex.h"
#include "util/buf.h"

#define RDX_ASM_ABS (-1) /* section index of an absolute value */

typedef struct rdx_asm_sym {
    char *name;
    bool defined;
    bool global;
    bool is_set; /* defined by .set/= (re-definable) */
    int section; /* RDX_ASM_ABS or a section index */
    int64_t value;
    int type; /* RDX_ASM_SYM_* */
    uint64_t size;
    unsigned line; /* where defined (or first used) */
} rdx_asm_sym;

/* A value computed by an expression: absolute, or an offset in a section. */
typedef struct rdx_asm_value {
    int64_t v;
    int section;       /* RDX_ASM_ABS or the section the value is relative to */
    bool resolved;     /* false: names a symbol not (yet) defined */
    bool label;        /* computed from a label or '.' (a label difference is absolute) */
    const char *undef; /* first undefined symbol, for messages (points into source) */
    size_t undef_len;
} rdx_asm_value;

typedef enum rdx_fixup_kind {
    RDX_FIXUP_DATA,   /* .byte/.short/.long/.quad: `size` bytes, absolute value */
    RDX_FIXUP_BRANCH, /* SOPP simm16: (target - (pc + 4)) / 4 into the low 16 bits */
} rdx_fixup_kind;

typedef struct rdx_asm_fixup {
    rdx_fixup_kind kind;
    int section;
    size_t offset;     /* where the field starts in the section */
    size_t inst_start; /* start of the instruction (branches) */
    unsigned size;
    const char *expr; /* expression text (re-lexed at the end) */
    const char *line_start;
    unsigned line;
} rdx_asm_fixup;

typedef struct rdx_asm_state {
    const char *file;
    const char *src; /* the input, or src_copy when it had block comments */
    char *src_copy;  /* comment-blanked copy (owned), or NULL */
    const char *end;
    unsigned line;                /* current 1-based line */
    const char *line_start;       /* its first character */
    unsigned gfx;                 /* the target's number: 1100 for gfx1100, 1201 for gfx1201 */
    const rdx_isa_target *target; /* the target (isa-core's table), matching gfx */
    bool gfx_from_option;         /* set by the caller: .amdgcn_target must agree */
    bool gfx_fixed; /* an instruction was assembled: the target can no longer change */

    /* Inside `.amdhsa_kernel NAME` (kd_open) until `.end_amdhsa_kernel`. */
    bool kd_open;
    struct rdx_kd_parse *kd;

    uint32_t max_vgpr, max_sgpr; /* .amdgcn.next_free_vgpr / _sgpr tracking */
    bool dot_fixed;              /* resolving a fixup: '.' is (dot_section, dot_value) */
    int dot_section;
    int64_t dot_value;

    rdx_asm_section *sections;
    size_t nsections, capsections;
    rdx_buf *data; /* bytes of each section (parallel to sections) */
    int cur;       /* current section index */

    rdx_asm_sym *syms;
    size_t nsyms, capsyms;
    uint32_t *symhash; /* open addressing, index+1; 0 = empty */
    size_t symhash_cap;

    rdx_asm_fixup *fixups;
    size_t nfixups, capfixups;

    rdx_asm_diag *diags;
    size_t ndiags, capdiags;

    rdx_asm_stmt *stmts;
    size_t nstmts, capstmts;

    rdx_asm_kernel *kernels;
    size_t nkernels, capkernels;

    char *metadata;               /* text of .amdgpu_metadata (YAML), or NULL */
    unsigned metadata_line;       /* its first line */
    const char *skip_to;          /* a directive consumed lines up to here */
    unsigned code_object_version; /* .amdhsa_code_object_version (0: not given) */

    bool nomem; /* an allocation failed: stop and report RDX_ERR_NOMEM */
} rdx_asm_state;

/* Record "file:line:col: error: <fmt>" for the current line at column `col`. */
void rdx_asm_error(rdx_asm_state *st, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Same, at an explicit line. */
void rdx_asm_error_at(rdx_asm_state *st, unsigned line, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Find a symbol by name (len bytes); NULL if never mentioned. */
rdx_asm_sym *rdx_asm_sym_find(rdx_asm_state *st, const char *name, size_t len);
/* Find or create (undefined) a symbol; NULL only on allocation failure (st->nomem set). */
rdx_asm_sym *rdx_asm_sym_get(rdx_asm_state *st, const char *name, size_t len);

/* Find or create the section `name`; returns its index or -1 (allocation failure). */
int rdx_asm_section_get(rdx_asm_state *st, const char *name, size_t len);
/* Current section's byte buffer. */
rdx_buf *rdx_asm_cur_data(rdx_asm_state *st);
/* Append bytes to the current section (sets st->nomem on failure). */
void rdx_asm_emit(rdx_asm_state *st, const void *p, size_t n);

/* Record a fixup (sets st->nomem on failure). */
void rdx_asm_add_fixup(rdx_asm_state *st, const rdx_asm_fixup *f);

/*
 * Parse and evaluate an expression starting at the lexer's current token;
 * on return the current token is the first one after the expression.
 * `no_bar` stops at '|' (inside |abs| operands).  Returns false (after
 * reporting an error) on a syntax error; an undefined symbol is not an error
 * here (value->resolved is false).
 */
bool rdx_asm_expr(rdx_asm_state *st, rdx_lexer *lx, bool no_bar, rdx_asm_value *value);

/* Grow a (ptr, n, cap) array to hold n+1 elements; false (st->nomem set) on failure. */
bool rdx_asm_grow(rdx_asm_state *st, void **ptr, size_t *cap, size_t n, size_t elem);

/* .set NAME, EXPR after NAME and the comma (also NAME = EXPR). */
void rdx_asm_set_symbol(rdx_asm_state *st, rdx_lexer *lx, const rdx_tok *name);
/* Handle a directive line; lx's current token is the directive name. */
void rdx_asm_directive(rdx_asm_state *st, rdx_lexer *lx);
/* The target named name[0..len) ("gfx1102") in isa-core's target table, with its
 * number in *gfx (1102); NULL (nothing set) for a name the table lacks. */
const rdx_isa_target *rdx_asm_target_find(const char *name, size_t len, unsigned *gfx);
/* "gfx1100, gfx1101, ..." — the targets rdx knows, for error messages. */
const char *rdx_asm_target_list(void);
/* Handle a line inside an .amdhsa_kernel block (current token: first of the line). */
void rdx_asm_kd_line(rdx_asm_state *st, rdx_lexer *lx);
/* Start a kernel block named `name`; returns false after an error. */
bool rdx_asm_kd_begin(rdx_asm_state *st, const char *name, size_t len, unsigned col);
/* Report an .amdhsa_kernel block left open at the end of the file, and release it. */
void rdx_asm_kd_unterminated(rdx_asm_state *st);
/* Release an unfinished kernel block (error paths). */
void rdx_asm_kd_discard(rdx_asm_state *st);
/* Assemble one instruction line; lx's current token is the mnemonic. */
void rdx_asm_instruction(rdx_asm_state *st, rdx_lexer *lx);
/* Report "unexpected token" unless the current token ends the line. */
bool rdx_asm_expect_end(rdx_asm_state *st, rdx_lexer *lx);
/* Evaluate an expression that must be absolute and defined now. */
bool rdx_asm_abs_expr(rdx_asm_state *st, rdx_lexer *lx, int64_t *v);

/* 1 for .amdgcn.next_free_vgpr, 2 for .amdgcn.next_free_sgpr, else 0. */
int rdx_asm_tracking_symbol(const char *name, size_t len);

/* The canonical mnemonic for a legacy one (isa/asm/aliases.inc), suffix kept; false if none. */
bool rdx_asm_alias(const char *name, unsigned fambit, char *out, size_t cap);

/* Copy of a token's text as a NUL-terminated string (malloc'd; NULL on failure). */
char *rdx_asm_strndup(rdx_asm_state *st, const char *s, size_t n);

#endif /* RDX_ISA_ASM_STATE_H */
