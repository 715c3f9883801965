/*
 * tools/prof.h — `rdx prof`: the profiles of a run's dispatches as the tool
 * keeps them (copies of the emulator's counters and profile, the kernel's
 * machine code, its source-line table) and the printers: the text report and
 * annotated disassembly (prof_text.c), JSON and the Chrome trace
 * (prof_json.c), the DWARF line table (prof_dwarf.c).  docs/prof.md.
 */
#ifndef RDX_TOOLS_PROF_H
#define RDX_TOOLS_PROF_H

#include <stdint.h>
#include <stdio.h>

#include <rdx/emu.h>
#include <rdx/emu_prof.h>
#include <rdx/runtime.h>

/* One row of a line table: code from addr (a .text offset) comes from file:line. */
typedef struct prof_line {
    uint64_t addr;
    uint32_t file, line;
} prof_line;

typedef struct prof_lines {
    char **files;
    size_t nfiles;
    prof_line *rows; /* sorted by addr */
    size_t nrows;
} prof_lines;

/* One dispatch as profiled. */
typedef struct prof_disp {
    char name[64];
    uint32_t grid[3], wg[3]; /* work-items, workgroup size */
    rdx_emu_counters c;      /* pcs = NULL (the profile has them) */
    rdx_emu_profile p;       /* arrays owned here */
    rdx_emu_occupancy occ;
    uint8_t *code;     /* the kernel's machine code from its entry */
    size_t code_size;  /* bytes */
    uint64_t text_off; /* ELF address of the entry (the line table's addresses) */
    prof_lines lines;  /* source lines (DWARF), may be empty */
    double emu_ms;     /* host time of the profiled emulation */
    char target[16];   /* the code object's target ("gfx1100" when it names none) */
} prof_disp;

typedef struct prof_run {
    char label[256]; /* the input */
    prof_disp *d;
    size_t n;
} prof_run;

/* The target a run's report names: its first dispatch's, else gfx1100. */
static inline const char *prof_run_target(const prof_run *r)
{
    return r->n ? r->d[0].target : "gfx1100";
}

/* The chip whose model timed dispatch d: the emulator's target, else the code object's. */
static inline const char *prof_disp_chip(const prof_disp *d)
{
    return d->p.target[0] ? d->p.target : d->target[0] ? d->target : "gfx1100";
}

/* Microseconds of `cycles` model clocks of dispatch d, at its chip's engine clock. */
static inline double prof_disp_us(const prof_disp *d, double cycles)
{
    return cycles / rdx_emu_clock_mhz(prof_disp_chip(d));
}

typedef struct prof_opts {
    int sort;      /* annotated disassembly hottest first */
    int no_disasm; /* only the per-dispatch report */
    unsigned top;  /* lines of the disassembly (0 = all) */
} prof_opts;

/* Append a dispatch from emu's last (profiled) run of a kernel of code object elf. */
int prof_capture(prof_run *r, const char *name, const rdx_emu *emu, const void *elf,
                 size_t elf_size, const uint32_t grid[3], const uint32_t wg[3], double emu_ms);
void prof_run_free(prof_run *r);

/* Total cycles of a PC record (issue + stalls). */
uint64_t prof_pc_cycles(const rdx_emu_prof_pc *p);
/* The instruction at pc of d disassembled into buf ("?" when it does not decode). */
void prof_disasm(const prof_disp *d, uint64_t pc, char *buf, size_t size);
/* The source line of pc ("file:line"), or "" when there is none. */
void prof_source(const prof_disp *d, uint64_t pc, char *buf, size_t size);

void prof_print_text(FILE *f, const prof_run *r, const prof_opts *o);
void prof_print_json(FILE *f, const prof_run *r, const prof_opts *o);
void prof_print_compare(FILE *f, const prof_run *a, const prof_run *b, int json);
/* Dispatches x (of A) and y (of B) per instruction, aligned by their disassembly: the
   instructions whose cycles changed most (text), or every aligned row (json: an array). */
void prof_print_compare_pcs(FILE *f, const prof_disp *x, const prof_disp *y, int json);
/* The Chrome trace (Perfetto) of r into path; 0 or -1 (errno). */
int prof_write_trace(const char *path, const prof_run *r);

/* `rdx prof --source hw` (tools/prof_hw.c): what the options ask for. */
typedef struct prof_hw_opts {
    int json, sort, no_disasm;
    unsigned top;
    const char *trace; /* --trace FILE, or NULL */
    const char *sqtt;  /* --sqtt FILE: SE 0's trace as the queue gave it, or NULL */
    rdx_device_kind device;
} prof_hw_opts;

/* Profile one dispatch of the code object (or .s) at path through the device's queue: perf
   counters and SQ thread trace programmed with PM4, the trace decoded into the per-PC table
   and the timeline; argv holds the launch options.  An exit status. */
int prof_hw(const prof_hw_opts *o, const char *path, int argc, char **argv);

/* `rdx realize --profile` on the emulated GPU (tools/prof_realize.c): realize's report, then
   every kernel's per-dispatch profile; an exit status, or -1 when the command line is not
   such a run (no --profile, a real card, several GPUs). */
int prof_realize(int argc, char **argv);

/* A code object from an ELF or an assembly file (assembled by rdx as); an exit status. */
int prof_load_elf(const char *path, uint8_t **elf, size_t *len);

/* `rdx prof --decode-sqtt FILE [CODEOBJ]` (tools/prof_sqtt.c); an exit status. */
int prof_decode_sqtt(const char *path, const char *co_path, const char *kernel);
/* `rdx prof --compare-trace FILE`: the model's waves and instruction intervals of run's first
   dispatch against the SQ thread trace FILE of the same kernel (tools/prof_compare_trace.c);
   an exit status. */
int prof_compare_trace(FILE *f, const char *path, const prof_run *run);

/* The DWARF .debug_line table of an ELF (empty when it has none); 0, or -1 on malformed. */
int prof_dwarf_lines(const void *elf, size_t size, prof_lines *out);
void prof_lines_free(prof_lines *l);

#endif /* RDX_TOOLS_PROF_H */
