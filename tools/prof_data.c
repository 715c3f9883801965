/*
 * tools/prof_data.c — `rdx prof`'s copy of a profiled dispatch (tools/prof.h):
 * the emulator's counters and profile, the kernel's code from its entry,
 * its source lines; disassembly and source line of a PC.
 */
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>
#include <rdx/codeobj.h>
#include <rdx/isa.h>

#include "tools/prof.h"

uint64_t prof_pc_cycles(const rdx_emu_prof_pc *p)
{
    uint64_t t = p->issue;
    for (int s = 0; s < RDX_EMU_STALL_COUNT; s++)
        t += p->stall[s];
    return t;
}

static void disp_free(prof_disp *d)
{
    free((void *)d->p.pcs);
    free((void *)d->p.waves);
    free((void *)d->p.trace);
    free(d->code);
    prof_lines_free(&d->lines);
}

void prof_run_free(prof_run *r)
{
    for (size_t i = 0; i < r->n; i++)
        disp_free(&r->d[i]);
    free(r->d);
    r->d = NULL;
    r->n = 0;
}

int prof_capture(prof_run *r, const char *name, const rdx_emu *emu, const void *elf,
                 size_t elf_size, const uint32_t grid[3], const uint32_t wg[3], double emu_ms)
{
    const rdx_emu_profile *p = rdx_emu_get_profile(emu);
    if (!p)
        return -1;
    prof_disp *nd = realloc(r->d, (r->n + 1) * sizeof *nd);
    if (!nd)
        return -1;
    r->d = nd;
    prof_disp *d = &nd[r->n];
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", name);
    memcpy(d->grid, grid, sizeof d->grid);
    memcpy(d->wg, wg, sizeof d->wg);
    d->c = *rdx_emu_get_counters(emu);
    d->c.pcs = NULL;
    d->c.npc = 0;
    d->p = *p;
    d->emu_ms = emu_ms;
    rdx_emu_prof_pc *pcs = malloc((p->npc + 1) * sizeof *pcs);
    rdx_emu_prof_wave *waves = malloc((p->nwaves + 1) * sizeof *waves);
    if (!pcs || !waves) {
        free(pcs);
        free(waves);
        return -1;
    }
    memcpy(pcs, p->pcs, p->npc * sizeof *pcs);
    memcpy(waves, p->waves, p->nwaves * sizeof *waves);
    d->p.pcs = pcs;
    d->p.waves = waves;
    rdx_emu_prof_inst *tr = malloc((p->ntrace + 1) * sizeof *tr);
    if (!tr) {
        free(pcs);
        free(waves);
        return -1;
    }
    memcpy(tr, p->trace, p->ntrace * sizeof *tr);
    d->p.trace = tr;
    r->n++;
    rdx_emu_occupancy_of(&d->p, &d->occ);
    /* the kernel's code: the named kernel, else the only one */
    rdx_codeobj *co = NULL;
    snprintf(d->target, sizeof d->target, "gfx1100");
    if (rdx_codeobj_read(elf, elf_size, NULL, &co) == RDX_OK) {
        if (co->target)
            snprintf(d->target, sizeof d->target, "%s", co->target->name);
        const rdx_codeobj_kernel *k = NULL;
        for (size_t i = 0; i < co->num_kernels; i++)
            if (!strcmp(co->kernels[i].name, name) || co->num_kernels == 1)
                k = &co->kernels[i];
        if (k && k->code_offset < co->text_size) {
            d->code_size = co->text_size - k->code_offset;
            d->code = malloc(d->code_size);
            if (d->code)
                memcpy(d->code, co->text + k->code_offset, d->code_size);
            else
                d->code_size = 0;
            d->text_off = co->text_addr + k->code_offset;
        }
        rdx_codeobj_free(co);
    }
    if (prof_dwarf_lines(elf, elf_size, &d->lines))
        prof_lines_free(&d->lines); /* malformed: no source lines */
    return 0;
}

void prof_disasm(const prof_disp *d, uint64_t pc, char *buf, size_t size)
{
    snprintf(buf, size, "?");
    uint64_t off = pc - d->p.code;
    if (!d->code || off >= d->code_size)
        return;
    const rdx_isa_target *t = rdx_isa_target_find(d->target);
    rdx_isa_inst ii;
    size_t len;
    if (t &&
        rdx_isa_decode_wave(t, d->p.wave_size, d->code + off, d->code_size - off, &ii, &len) ==
            RDX_OK &&
        rdx_asm_print_inst(t, &ii, buf, size) == RDX_OK)
        return;
    snprintf(buf, size, "?");
}

void prof_source(const prof_disp *d, uint64_t pc, char *buf, size_t size)
{
    buf[0] = 0;
    const prof_lines *l = &d->lines;
    if (!l->nrows)
        return;
    uint64_t a = d->text_off + (pc - d->p.code);
    /* the last row at or before a */
    size_t lo = 0, hi = l->nrows;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (l->rows[mid].addr <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return;
    const prof_line *row = &l->rows[lo - 1];
    if (row->line == 0 || row->file >= l->nfiles)
        return;
    const char *f = l->files[row->file], *slash = strrchr(f, '/');
    snprintf(buf, size, "%s:%u", slash ? slash + 1 : f, row->line);
}
