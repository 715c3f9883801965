/* emu/core/mem.c — the emulator's memory map: registered host ranges. */
#include <stdio.h>
#include <stdlib.h>

#include "emu/core/emu_int.h"
#include "util/error.h"

const emu_range *emu_mem_find(const emu_memmap *m, uint64_t addr, uint64_t len, unsigned access)
{
    size_t lo = 0, hi = m->n;
    if (addr + len < addr)
        return NULL;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (m->r[mid].end <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo >= m->n)
        return NULL;
    const emu_range *r = &m->r[lo];
    if (addr < r->base || addr + len > r->end || (r->access & access) != access)
        return NULL;
    return r;
}

rdx_status emu_mem_add(emu_memmap *m, uint64_t addr, uint64_t size, unsigned access)
{
    if (size == 0 || addr + size < addr)
        return rdx_fail(RDX_ERR_INVALID, "emu map: range 0x%llx+0x%llx is empty or wraps",
                        (unsigned long long)addr, (unsigned long long)size);
    size_t i = 0;
    while (i < m->n && m->r[i].end <= addr)
        i++;
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
    memmove(&m->r[i + 1], &m->r[i], (m->n - i) * sizeof *m->r);
    m->r[i] = (emu_range){ addr, addr + size, access };
    m->n++;
    return RDX_OK;
}

rdx_status emu_mem_remove(emu_memmap *m, uint64_t addr)
{
    for (size_t i = 0; i < m->n; i++) {
        if (m->r[i].base == addr) {
            memmove(&m->r[i], &m->r[i + 1], (m->n - i - 1) * sizeof *m->r);
            m->n--;
            return RDX_OK;
        }
    }
    return rdx_fail(RDX_ERR_NOT_FOUND, "emu unmap: no range starts at 0x%llx",
                    (unsigned long long)addr);
}

void emu_mem_free(emu_memmap *m)
{
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
        st = emu_mem_add(m, lo, hi - lo, acc);
        if (st)
            break;
    }
    fclose(f);
    return st;
}
