/*
 * emu/core/mem.c — the emulator's memory map: registered host ranges (each
 * with an optional label), and the description of an access outside them
 * for VM fault reports.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "emu/core/emu_int.h"
#include "emu/core/exec.h"
#include "util/error.h"

/* Index of the first range whose end is above addr (m->n if none). */
static size_t first_above(const emu_memmap *m, uint64_t addr)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (m->r[mid].end <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const emu_range *emu_mem_find(const emu_memmap *m, uint64_t addr, uint64_t len, unsigned access)
{
    if (addr + len < addr)
        return NULL;
    size_t lo = first_above(m, addr);
    if (lo >= m->n)
        return NULL;
    const emu_range *r = &m->r[lo];
    if (addr < r->base || addr + len > r->end || (r->access & access) != access)
        return NULL;
    return r;
}

rdx_status emu_mem_add(emu_memmap *m, uint64_t addr, uint64_t size, unsigned access,
                       const char *label)
{
    if (size == 0 || addr + size < addr)
        return rdx_fail(RDX_ERR_INVALID, "emu map: range 0x%llx+0x%llx is empty or wraps",
                        (unsigned long long)addr, (unsigned long long)size);
    size_t i = first_above(m, addr);
    if (i < m->n && m->r[i].base < addr + size)
        return rdx_fail(RDX_ERR_INVALID,
                        "emu map: range 0x%llx+0x%llx overlaps registered 0x%llx..0x%llx",
                        (unsigned long long)addr, (unsigned long long)size,
                        (unsigned long long)m->r[i].base, (unsigned long long)m->r[i].end);
    if (m->n == m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 16;
        emu_range *nr = realloc(m->r, nc * sizeof *nr);
        if (!nr)
            return rdx_fail(RDX_ERR_NOMEM, "emu map: out of memory");
        m->r = nr;
        m->cap = nc;
    }
    char *copy = NULL;
    if (label && !(copy = strdup(label)))
        return rdx_fail(RDX_ERR_NOMEM, "emu map: out of memory");
    memmove(&m->r[i + 1], &m->r[i], (m->n - i) * sizeof *m->r);
    m->r[i] = (emu_range){ addr, addr + size, access, copy };
    m->n++;
    return RDX_OK;
}

rdx_status emu_mem_remove(emu_memmap *m, uint64_t addr)
{
    size_t i = first_above(m, addr);
    if (i < m->n && m->r[i].base == addr) {
        free(m->r[i].label);
        memmove(&m->r[i], &m->r[i + 1], (m->n - i - 1) * sizeof *m->r);
        m->n--;
        return RDX_OK;
    }
    return rdx_fail(RDX_ERR_NOT_FOUND, "emu unmap: no range starts at 0x%llx",
                    (unsigned long long)addr);
}

void emu_mem_free(emu_memmap *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->r[i].label);
    free(m->r);
    *m = (emu_memmap){ 0 };
}

rdx_status emu_mem_add_host_maps(emu_memmap *m)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return rdx_fail_errno(RDX_ERR_IO, 0, "emu: cannot read /proc/self/maps");
    char line[512];
    rdx_status st = RDX_OK;
    while (fgets(line, sizeof line, f)) {
        unsigned long long lo, hi;
        char perm[8];
        if (sscanf(line, "%llx-%llx %7s", &lo, &hi, perm) != 3)
            continue;
        unsigned acc = (perm[0] == 'r' ? RDX_EMU_READ : 0) | (perm[1] == 'w' ? RDX_EMU_WRITE : 0);
        if (!acc || strstr(line, "[vvar]") || strstr(line, "[vsyscall]"))
            continue;
        /* adjacent mappings merge into one range */
        if (m->n && m->r[m->n - 1].end == lo && m->r[m->n - 1].access == acc) {
            m->r[m->n - 1].end = hi;
            continue;
        }
        st = emu_mem_add(m, lo, hi - lo, acc, NULL);
        if (st)
            break;
    }
    fclose(f);
    return st;
}

#define NEAR_BYTES (16ull << 20) /* a range farther away than this is not named */

/* The range nearest to [addr, addr+len) that lies wholly outside it and
 * within NEAR_BYTES (labelled ranges only when `labelled`), or NULL; *below
 * says whether it ends at or before addr. */
static const emu_range *nearest(const emu_memmap *m, size_t i, uint64_t addr, uint64_t len,
                                int labelled, int *below)
{
    const emu_range *p = NULL, *n = NULL;
    for (size_t j = i; j-- > 0 && addr - m->r[j].end < NEAR_BYTES;)
        if (!labelled || m->r[j].label) {
            p = &m->r[j];
            break;
        }
    for (size_t j = i; j < m->n && m->r[j].base - addr < NEAR_BYTES; j++)
        if (m->r[j].base >= addr + len && (!labelled || m->r[j].label)) {
            n = &m->r[j];
            break;
        }
    uint64_t dp = p ? addr - p->end : UINT64_MAX, dn = n ? n->base - (addr + len) : UINT64_MAX;
    *below = p && dp <= dn;
    return *below ? p : n;
}

void emu_mem_describe(const emu_memmap *m, uint64_t addr, uint64_t len, unsigned access, char *buf,
                      size_t cap)
{
    size_t i = first_above(m, addr); /* the range holding addr, or the next one */
    const emu_range *r = NULL;
    int past = 0;
    if (i < m->n && m->r[i].base <= addr) { /* addr is inside: the rights or the end */
        r = &m->r[i];
        past = addr + len > r->end;
    } else if (addr + len >= addr) {
        /* In a gap: the nearest allocation (labelled: the runtime labels
         * each), else the nearest range. */
        r = nearest(m, i, addr, len, 1, &past);
        if (!r)
            r = nearest(m, i, addr, len, 0, &past);
    }
    if (!r) {
        snprintf(buf, cap, "not mapped");
        return;
    }
    const char *what = r->label ? r->label : "mapped range";
    uint64_t size = r->end - r->base;
    if (addr >= r->base && !past) {
        snprintf(buf, cap, "the %" PRIu64 "-byte %s at 0x%" PRIx64 " (offset %" PRIu64 ") is %s",
                 size, what, r->base, addr - r->base,
                 (access & RDX_EMU_WRITE) && !(r->access & RDX_EMU_WRITE) ? "read-only"
                                                                          : "not readable");
    } else if (past) {
        snprintf(buf, cap,
                 "%" PRIu64 " bytes past the end of the %" PRIu64 "-byte %s at 0x%" PRIx64
                 " (offset %" PRIu64 ")",
                 addr + len - r->end, size, what, r->base, addr - r->base);
    } else {
        snprintf(buf, cap,
                 "%" PRIu64 " bytes before the %" PRIu64 "-byte %s at 0x%" PRIx64
                 " (offset -%" PRIu64 ")",
                 r->base - addr, size, what, r->base, r->base - addr);
    }
}

void emu_vm_fault(emu_wave *w, const emu_inst *in, uint64_t addr, uint64_t len, int write,
                  unsigned lane)
{
    char what[256];
    emu_mem_describe(&w->wk->ctx->emu->mem, addr, len, write ? RDX_EMU_WRITE : RDX_EMU_READ, what,
                     sizeof what);
    emu_fault(w, in, RDX_EMU_FAULT_VM, addr, write, lane, what);
}
