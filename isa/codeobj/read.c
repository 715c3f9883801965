/*
 * isa/codeobj/read.c — parse AMDGPU HSA code objects (ELF64).
 *
 * The reader parses the ELF structures itself, checking every offset, size
 * and index against the input before use, so that truncated or corrupted
 * files give an error naming what and where and never a crash.  It accepts
 * ET_DYN objects (rdx's own, ld.lld's) and ET_REL objects (clang -c); in the
 * latter, sections have no addresses, so each section is given the synthetic
 * address of its file offset and the RELA relocations of the descriptors'
 * kernel_code_entry_byte_offset (R_AMDGPU_ABS64, R_AMDGPU_REL64) are applied
 * against that layout.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codeobj.h>

#include "util/arena.h"
#include "isa/codeobj/elfdefs.h"
#include "isa/codeobj/meta.h"
#include "isa/codeobj/msgpack.h"
#include "util/error.h"
#include "util/file.h"

struct rdx_codeobj_priv {
    rdx_arena arena;
};

/* A parsed section header. */
typedef struct rsec {
    const char *name;
    uint32_t type;
    uint64_t flags, addr, offset, size, entsize;
    uint32_t link, info;
    uint64_t vaddr; /* address used for symbol values: sh_addr, or sh_offset for ET_REL */
} rsec;

/* A parsed symbol. */
typedef struct rsym {
    const char *name;
    unsigned char type, bind;
    uint16_t shndx;
    uint64_t value, size;
} rsym;

typedef struct reader {
    const char *what;
    const uint8_t *p;
    size_t len;
    rdx_arena *arena;
    rdx_codeobj *co;
    bool rel;
    uint16_t shnum;
    rsec *secs;
    uint32_t symsec; /* index of the symbol table used (0 = none) */
    rsym *syms;
    size_t nsyms;
    struct kd_loc *kd_by_name; /* the kernels sorted by name */
} reader;

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* Does [off, off+size) lie within [0, len)? */
static bool in_range(uint64_t off, uint64_t size, uint64_t len)
{
    return off <= len && size <= len - off;
}

static rdx_status bad(const reader *r, const char *fmt, ...) RDX_PRINTF(2, 3);

#include <stdarg.h>
static rdx_status bad(const reader *r, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rdx_fail(RDX_ERR_PARSE, "%s: %s", r->what, msg);
}

static rdx_status read_header(reader *r, uint64_t *shoff, uint16_t *shstrndx)
{
    const uint8_t *p = r->p;
    if (r->len < 64)
        return bad(r, "file of %zu bytes is too short for an ELF64 header (64 bytes)", r->len);
    if (memcmp(p, ELFMAG, SELFMAG))
        return bad(r, "not an ELF file (bad magic at offset 0)");
    if (p[EI_CLASS] != ELFCLASS64)
        return bad(r, "EI_CLASS is %u, expected ELFCLASS64 (2)", p[EI_CLASS]);
    if (p[EI_DATA] != ELFDATA2LSB)
        return bad(r, "EI_DATA is %u, expected little-endian (1)", p[EI_DATA]);
    uint16_t machine = (uint16_t)le(p + 18, 2);
    if (machine != RDX_EM_AMDGPU)
        return rdx_fail(RDX_ERR_UNSUPPORTED, "%s: e_machine is %u, expected EM_AMDGPU (224)",
                        r->what, machine);
    if (p[EI_OSABI] != RDX_ELFOSABI_AMDGPU_HSA)
        return rdx_fail(RDX_ERR_UNSUPPORTED,
                        "%s: EI_OSABI is %u, expected ELFOSABI_AMDGPU_HSA (64)", r->what,
                        p[EI_OSABI]);
    unsigned abi = p[EI_ABIVERSION];
    if (abi < RDX_ELFABIVERSION_HSA_V4 || abi > RDX_ELFABIVERSION_HSA_V6)
        return rdx_fail(RDX_ERR_UNSUPPORTED,
                        "%s: EI_ABIVERSION %u is not code object v4, v5 or v6 (2..4)", r->what,
                        abi);
    uint16_t type = (uint16_t)le(p + 16, 2);
    if (type != ET_DYN && type != ET_REL)
        return bad(r, "e_type is %u, expected ET_DYN (3) or ET_REL (1)", type);
    r->rel = type == ET_REL;
    r->co->abi_version = abi;
    r->co->version = abi + 2;
    r->co->relocatable = r->rel;
    r->co->e_flags = (uint32_t)le(p + 48, 4);
    *shoff = le(p + 40, 8);
    uint16_t shentsize = (uint16_t)le(p + 58, 2);
    r->shnum = (uint16_t)le(p + 60, 2);
    *shstrndx = (uint16_t)le(p + 62, 2);
    if (r->shnum == 0)
        return bad(r, "no section headers (e_shnum is 0)");
    if (shentsize != 64)
        return bad(r, "e_shentsize is %u, expected 64", shentsize);
    if (!in_range(*shoff, (uint64_t)r->shnum * 64, r->len))
        return bad(r,
                   "section header table (%u entries at offset 0x%" PRIx64
                   ") extends past the end of the file (%zu bytes)",
                   r->shnum, *shoff, r->len);
    if (*shstrndx == 0 || *shstrndx >= r->shnum)
        return bad(r, "e_shstrndx %u is not a section (there are %u)", *shstrndx, r->shnum);
    r->co->target = rdx_codeobj_target_by_mach(r->co->e_flags & RDX_EF_AMDGPU_MACH);
    if (!r->co->target)
        return rdx_fail(RDX_ERR_UNSUPPORTED,
                        "%s: e_flags 0x%x: EF_AMDGPU_MACH 0x%x is not a target rdx knows "
                        "(gfx11, gfx12)",
                        r->what, r->co->e_flags, r->co->e_flags & RDX_EF_AMDGPU_MACH);
    return RDX_OK;
}

/* A NUL-terminated string at `off` in section `s`, or NULL. */
static const char *sec_str(const reader *r, const rsec *s, uint64_t off)
{
    if (s->type != SHT_STRTAB || off >= s->size)
        return NULL;
    const char *base = (const char *)r->p + s->offset;
    if (!memchr(base + off, 0, s->size - off))
        return NULL;
    return base + off;
}

static int cmp_u64pair(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

static rdx_status read_sections(reader *r, uint64_t shoff, uint16_t shstrndx)
{
    r->secs = rdx_arena_array(r->arena, r->shnum, sizeof *r->secs);
    if (!r->secs)
        return RDX_ERR_NOMEM;
    for (uint16_t i = 0; i < r->shnum; i++) {
        const uint8_t *h = r->p + shoff + (uint64_t)i * 64;
        rsec *s = &r->secs[i];
        s->type = (uint32_t)le(h + 4, 4);
        s->flags = le(h + 8, 8);
        s->addr = le(h + 16, 8);
        s->offset = le(h + 24, 8);
        s->size = le(h + 32, 8);
        s->link = (uint32_t)le(h + 40, 4);
        s->info = (uint32_t)le(h + 44, 4);
        s->entsize = le(h + 56, 8);
        if (i == 0)
            continue;
        if (s->type != SHT_NOBITS && !in_range(s->offset, s->size, r->len))
            return bad(r,
                       "section %u: contents (offset 0x%" PRIx64 ", size 0x%" PRIx64
                       ") extend past the end of the file (%zu bytes)",
                       i, s->offset, s->size, r->len);
        s->vaddr = r->rel ? s->offset : s->addr;
    }
    const rsec *strs = &r->secs[shstrndx];
    if (strs->type != SHT_STRTAB)
        return bad(r, "section header string table (section %u) is not SHT_STRTAB", shstrndx);
    for (uint16_t i = 1; i < r->shnum; i++) {
        uint32_t name_off = (uint32_t)le(r->p + shoff + (uint64_t)i * 64, 4);
        r->secs[i].name = sec_str(r, strs, name_off);
        if (!r->secs[i].name)
            return bad(r, "section %u: name offset %u is outside the section name table", i,
                       name_off);
    }
    r->secs[0].name = "";
    /* No two sections with file contents may overlap, nor overlap the headers. */
    uint64_t *spans = rdx_arena_array(r->arena, (size_t)r->shnum + 1, 3 * sizeof(uint64_t));
    if (!spans)
        return RDX_ERR_NOMEM;
    size_t n = 0;
    spans[0] = 0, spans[1] = 64, spans[2] = (uint64_t)-1; /* the ELF header */
    n = 1;
    for (uint16_t i = 1; i < r->shnum; i++) {
        const rsec *s = &r->secs[i];
        if (s->type == SHT_NOBITS || s->type == SHT_NULL || s->size == 0)
            continue;
        spans[3 * n] = s->offset, spans[3 * n + 1] = s->offset + s->size, spans[3 * n + 2] = i;
        n++;
    }
    qsort(spans, n, 3 * sizeof(uint64_t), cmp_u64pair);
    for (size_t i = 1; i < n; i++) {
        if (spans[3 * i] < spans[3 * (i - 1) + 1]) {
            uint64_t a = spans[3 * (i - 1) + 2], b = spans[3 * i + 2];
            if (a == (uint64_t)-1 || b == (uint64_t)-1)
                return bad(r, "section %s (offset 0x%" PRIx64 ") overlaps the ELF header",
                           r->secs[a == (uint64_t)-1 ? b : a].name,
                           r->secs[a == (uint64_t)-1 ? b : a].offset);
            return bad(r,
                       "sections %s and %s overlap in the file (offsets 0x%" PRIx64
                       " and 0x%" PRIx64 ")",
                       r->secs[a].name, r->secs[b].name, r->secs[a].offset, r->secs[b].offset);
        }
    }
    return RDX_OK;
}

static rdx_status read_symbols(reader *r)
{
    uint32_t found = 0;
    for (uint16_t i = 1; i < r->shnum && !found; i++)
        if (r->secs[i].type == SHT_SYMTAB)
            found = i;
    for (uint16_t i = 1; i < r->shnum && !found; i++)
        if (r->secs[i].type == SHT_DYNSYM)
            found = i;
    if (!found)
        return RDX_OK;
    const rsec *s = &r->secs[found];
    if (s->entsize != 24 || s->size % 24)
        return bad(r,
                   "symbol table %s: entry size %" PRIu64 " / size %" PRIu64
                   " (expected 24-byte entries)",
                   s->name, s->entsize, s->size);
    if (s->link == 0 || s->link >= r->shnum || r->secs[s->link].type != SHT_STRTAB)
        return bad(r, "symbol table %s: sh_link %u is not a string table", s->name, s->link);
    const rsec *strs = &r->secs[s->link];
    r->symsec = found;
    r->nsyms = s->size / 24;
    r->syms = rdx_arena_array(r->arena, r->nsyms ? r->nsyms : 1, sizeof *r->syms);
    if (!r->syms)
        return RDX_ERR_NOMEM;
    for (size_t i = 0; i < r->nsyms; i++) {
        const uint8_t *e = r->p + s->offset + i * 24;
        rsym *y = &r->syms[i];
        uint32_t name_off = (uint32_t)le(e, 4);
        y->name = sec_str(r, strs, name_off);
        if (!y->name)
            return bad(r, "symbol %zu in %s: name offset %u is outside %s", i, s->name, name_off,
                       strs->name);
        y->type = ELF64_ST_TYPE(e[4]);
        y->bind = ELF64_ST_BIND(e[4]);
        y->shndx = (uint16_t)le(e + 6, 2);
        y->value = le(e + 8, 8);
        y->size = le(e + 16, 8);
    }
    return RDX_OK;
}

static rdx_status read_relocs(reader *r)
{
    size_t total = 0;
    for (uint16_t i = 1; i < r->shnum; i++) {
        const rsec *s = &r->secs[i];
        if (s->type == SHT_REL)
            return rdx_fail(RDX_ERR_UNSUPPORTED,
                            "%s: section %s: SHT_REL relocations are not "
                            "used by AMDGPU (expected SHT_RELA)",
                            r->what, s->name);
        if (s->type != SHT_RELA)
            continue;
        if (s->entsize != 24 || s->size % 24)
            return bad(r,
                       "relocation section %s: entry size %" PRIu64 " / size %" PRIu64
                       " (expected 24-byte entries)",
                       s->name, s->entsize, s->size);
        if (s->info == 0 || s->info >= r->shnum)
            return bad(r, "relocation section %s: sh_info %u is not a section", s->name, s->info);
        if (s->link != r->symsec)
            return bad(r, "relocation section %s: sh_link %u is not the symbol table", s->name,
                       s->link);
        total += s->size / 24;
    }
    if (!total)
        return RDX_OK;
    rdx_codeobj_reloc *list = rdx_arena_array(r->arena, total, sizeof *list);
    if (!list)
        return RDX_ERR_NOMEM;
    size_t n = 0;
    for (uint16_t i = 1; i < r->shnum; i++) {
        const rsec *s = &r->secs[i];
        if (s->type != SHT_RELA)
            continue;
        for (uint64_t j = 0; j < s->size / 24; j++) {
            const uint8_t *e = r->p + s->offset + j * 24;
            uint64_t info = le(e + 8, 8);
            uint32_t sym = (uint32_t)ELF64_R_SYM(info);
            if (sym >= r->nsyms)
                return bad(r,
                           "relocation %" PRIu64 " in %s: symbol index %u out of range (%zu "
                           "symbols)",
                           j, s->name, sym, r->nsyms);
            rdx_codeobj_reloc *rl = &list[n++];
            rl->section = r->secs[s->info].name;
            rl->offset = le(e, 8);
            rl->type = (uint32_t)ELF64_R_TYPE(info);
            rl->symbol = r->syms[sym].name;
            uint64_t add = le(e + 16, 8);
            memcpy(&rl->addend, &add, 8);
            if (!in_range(rl->offset, 1, r->secs[s->info].size))
                return bad(r,
                           "relocation %" PRIu64 " in %s: offset 0x%" PRIx64
                           " is outside %s (size 0x%" PRIx64 ")",
                           j, s->name, rl->offset, rl->section, r->secs[s->info].size);
        }
    }
    r->co->relocs = list;
    r->co->num_relocs = n;
    return RDX_OK;
}

/* Address of symbol `y` in the (possibly synthetic) layout. */
static rdx_status sym_addr(const reader *r, const rsym *y, uint64_t *addr)
{
    if (y->shndx == SHN_ABS) {
        *addr = y->value;
        return RDX_OK;
    }
    if (y->shndx == SHN_UNDEF || y->shndx >= r->shnum)
        return bad(r, "symbol '%s': section index %u is not a section", y->name, y->shndx);
    *addr = r->rel ? r->secs[y->shndx].vaddr + y->value : y->value;
    return RDX_OK;
}

/* Where a kernel's descriptor lives, for sorting. */
typedef struct kd_loc {
    uint32_t sec;
    uint64_t off;  /* offset within the section */
    uint64_t addr; /* address in the (possibly synthetic) layout */
    size_t kernel; /* index into the kernels array */
    const char *name;
} kd_loc;

static int cmp_loc(const void *a, const void *b)
{
    const kd_loc *x = a, *y = b;
    if (x->sec != y->sec)
        return x->sec < y->sec ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off;
}

static int cmp_loc_name(const void *a, const void *b)
{
    return strcmp(((const kd_loc *)a)->name, ((const kd_loc *)b)->name);
}

static int cmp_sym_name(const void *a, const void *b)
{
    return strcmp((*(const rsym *const *)a)->name, (*(const rsym *const *)b)->name);
}

/* Apply the RELA entries that patch descriptors (ET_REL): only the entry offset may be. */
static rdx_status apply_entry_relocs(reader *r, kd_loc *locs, size_t n)
{
    qsort(locs, n, sizeof *locs, cmp_loc);
    for (size_t i = 1; i < n; i++)
        if (locs[i].sec == locs[i - 1].sec &&
            locs[i].off < locs[i - 1].off + RDX_KERNEL_DESCRIPTOR_SIZE)
            return bad(r, "kernel descriptors '%s.kd' and '%s.kd' overlap", locs[i - 1].name,
                       locs[i].name);
    for (uint16_t i = 1; i < r->shnum; i++) {
        const rsec *s = &r->secs[i];
        if (s->type != SHT_RELA)
            continue;
        for (uint64_t j = 0; j < s->size / 24; j++) {
            const uint8_t *e = r->p + s->offset + j * 24;
            uint64_t off = le(e, 8);
            /* The last descriptor at or before (s->info, off). */
            size_t lo = 0, hi = n;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (locs[mid].sec < s->info || (locs[mid].sec == s->info && locs[mid].off <= off))
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo == 0)
                continue;
            kd_loc *L = &locs[lo - 1];
            if (L->sec != s->info || off >= L->off + RDX_KERNEL_DESCRIPTOR_SIZE)
                continue;
            rdx_codeobj_kernel *k = &r->co->kernels[L->kernel];
            uint64_t info = le(e + 8, 8);
            uint32_t type = (uint32_t)ELF64_R_TYPE(info);
            uint64_t add = le(e + 16, 8);
            if (off != L->off + 16)
                return bad(r,
                           "kernel '%s': relocation at descriptor byte %" PRIu64
                           " (only the entry offset at byte 16 may be relocated)",
                           k->name, off - L->off);
            uint64_t S;
            rdx_status st = sym_addr(r, &r->syms[ELF64_R_SYM(info)], &S);
            if (st)
                return st;
            uint64_t v;
            if (type == RDX_R_AMDGPU_REL64)
                v = S + add - (L->addr + 16);
            else if (type == RDX_R_AMDGPU_ABS64)
                v = S + add - L->addr; /* an absolute entry address; make it relative */
            else
                return bad(r,
                           "kernel '%s': relocation type %u on the entry offset (expected "
                           "R_AMDGPU_REL64 or R_AMDGPU_ABS64)",
                           k->name, type);
            memcpy(&k->kd.kernel_code_entry_byte_offset, &v, 8);
        }
    }
    return RDX_OK;
}

static bool is_kd_symbol(const rsym *y)
{
    size_t l = strlen(y->name);
    return l > 3 && !strcmp(y->name + l - 3, ".kd") && y->type == STT_OBJECT;
}

static rdx_status read_kernels(reader *r, const rsec *text, uint32_t text_idx)
{
    size_t count = 0, nfunc = 0;
    for (size_t i = 0; i < r->nsyms; i++) {
        count += is_kd_symbol(&r->syms[i]);
        nfunc += r->syms[i].type == STT_FUNC && r->syms[i].shndx == text_idx;
    }
    if (!count)
        return RDX_OK;
    rdx_codeobj_kernel *ks = rdx_arena_array(r->arena, count, sizeof *ks);
    kd_loc *locs = rdx_arena_array(r->arena, count, sizeof *locs);
    kd_loc *by_name = rdx_arena_array(r->arena, count, sizeof *by_name);
    const rsym **funcs = rdx_arena_array(r->arena, nfunc ? nfunc : 1, sizeof *funcs);
    if (!ks || !locs || !by_name || !funcs)
        return RDX_ERR_NOMEM;
    size_t n = 0;
    nfunc = 0;
    for (size_t i = 0; i < r->nsyms; i++) {
        const rsym *y = &r->syms[i];
        if (y->type == STT_FUNC && y->shndx == text_idx)
            funcs[nfunc++] = y;
        if (!is_kd_symbol(y))
            continue;
        rdx_codeobj_kernel *k = &ks[n];
        char *name = rdx_arena_strndup(r->arena, y->name, strlen(y->name) - 3);
        if (!name)
            return RDX_ERR_NOMEM;
        k->name = name;
        rdx_codeobj_kernel_meta_init(&k->meta);
        if (y->shndx == SHN_UNDEF || y->shndx >= r->shnum || r->secs[y->shndx].type == SHT_NOBITS)
            return bad(r, "kernel descriptor '%s': section index %u has no contents", y->name,
                       y->shndx);
        const rsec *ds = &r->secs[y->shndx];
        uint64_t off = r->rel ? y->value : y->value - ds->addr;
        if (!r->rel && y->value < ds->addr)
            off = UINT64_MAX;
        if (!in_range(off, RDX_KERNEL_DESCRIPTOR_SIZE, ds->size))
            return bad(r,
                       "kernel descriptor '%s' at 0x%" PRIx64 " is not 64 bytes inside %s "
                       "(address 0x%" PRIx64 ", size 0x%" PRIx64 ")",
                       y->name, y->value, ds->name, ds->addr, ds->size);
        rdx_status st =
            rdx_codeobj_kd_unpack(r->p + ds->offset + off, r->co->target->major, &k->kd);
        if (st)
            return rdx_fail_context(st, "%s: kernel '%s'", r->what, name);
        locs[n] = (kd_loc){ y->shndx, off, ds->vaddr + off, n, name };
        n++;
    }
    r->co->kernels = ks;
    r->co->num_kernels = n;
    /* Kernel names are unique. */
    memcpy(by_name, locs, n * sizeof *locs);
    qsort(by_name, n, sizeof *by_name, cmp_loc_name);
    for (size_t i = 1; i < n; i++)
        if (!strcmp(by_name[i].name, by_name[i - 1].name))
            return bad(r, "kernel descriptor symbol '%s.kd' appears twice", by_name[i].name);
    rdx_status st;
    if (r->rel && (st = apply_entry_relocs(r, locs, n)))
        return st;
    qsort(funcs, nfunc, sizeof *funcs, cmp_sym_name);
    for (size_t i = 0; i < n; i++) {
        const kd_loc *L = &by_name[i];
        rdx_codeobj_kernel *k = &ks[L->kernel];
        uint64_t entry = L->addr + (uint64_t)k->kd.kernel_code_entry_byte_offset;
        if (!text || entry < text->vaddr || entry - text->vaddr >= text->size)
            return bad(r,
                       "kernel '%s': entry 0x%" PRIx64 " (descriptor 0x%" PRIx64
                       " + offset %" PRId64 ") is not inside .text",
                       k->name, entry, L->addr, k->kd.kernel_code_entry_byte_offset);
        k->code_offset = entry - text->vaddr;
        /* The function symbols of the same name give the code size. */
        rsym key = { .name = k->name };
        const rsym *kp = &key;
        const rsym **hit = bsearch(&kp, funcs, nfunc, sizeof *funcs, cmp_sym_name);
        if (!hit)
            continue;
        while (hit > funcs && !strcmp(hit[-1]->name, k->name))
            hit--;
        for (; hit < funcs + nfunc && !strcmp((*hit)->name, k->name); hit++) {
            const rsym *f = *hit;
            uint64_t fa;
            if ((st = sym_addr(r, f, &fa)))
                return st;
            if (fa != entry)
                return bad(r,
                           "kernel '%s': function symbol at 0x%" PRIx64
                           " but the descriptor's entry is 0x%" PRIx64,
                           k->name, fa, entry);
            if (f->size > text->size - k->code_offset)
                return bad(r, "kernel '%s': function size %" PRIu64 " runs past .text", k->name,
                           f->size);
            k->code_size = f->size;
        }
    }
    r->kd_by_name = by_name;
    return RDX_OK;
}

static rdx_status read_metadata(reader *r)
{
    for (uint16_t i = 1; i < r->shnum; i++) {
        const rsec *s = &r->secs[i];
        if (s->type != SHT_NOTE)
            continue;
        uint64_t pos = 0;
        while (pos < s->size) {
            if (s->size - pos < 12)
                return bad(r, "note section %s: truncated note header at offset 0x%" PRIx64,
                           s->name, pos);
            const uint8_t *h = r->p + s->offset + pos;
            uint64_t namesz = le(h, 4), descsz = le(h + 4, 4), type = le(h + 8, 4);
            uint64_t name_pad = (namesz + 3) & ~3ull, desc_pad = (descsz + 3) & ~3ull;
            if (name_pad > s->size - pos - 12 || desc_pad > s->size - pos - 12 - name_pad) {
                /* The last note's description may omit its padding. */
                if (!(name_pad <= s->size - pos - 12 && descsz <= s->size - pos - 12 - name_pad))
                    return bad(r,
                               "note section %s: note at offset 0x%" PRIx64 " (name %" PRIu64
                               " bytes, description %" PRIu64 " bytes) runs past the section",
                               s->name, pos, namesz, descsz);
                desc_pad = descsz;
            }
            const char *name = (const char *)h + 12;
            const uint8_t *desc = h + 12 + name_pad;
            if (namesz == sizeof RDX_AMDGPU_NOTE_NAME &&
                !memcmp(name, RDX_AMDGPU_NOTE_NAME, sizeof RDX_AMDGPU_NOTE_NAME) &&
                type == RDX_NT_AMDGPU_METADATA) {
                if (r->co->meta_doc)
                    return bad(r, "more than one NT_AMDGPU_METADATA note");
                char what[256];
                snprintf(what, sizeof what, "%s: NT_AMDGPU_METADATA note in %s", r->what, s->name);
                rdx_msgpack_node *doc;
                rdx_status st = rdx_msgpack_decode(desc, descsz, r->arena, what, &doc);
                if (st)
                    return st;
                r->co->meta_doc = doc;
            }
            pos += 12 + name_pad + desc_pad;
        }
    }
    return RDX_OK;
}

static rdx_status apply_metadata(reader *r)
{
    const rdx_msgpack_node *doc = r->co->meta_doc;
    if (!doc)
        return RDX_OK;
    if (doc->kind != RDX_MSGPACK_MAP)
        return bad(r, "metadata: expected a map at the top, got %s",
                   rdx_msgpack_kind_name(doc->kind));
    const rdx_msgpack_node *ver = rdx_msgpack_map_get(doc, "amdhsa.version");
    if (!ver)
        return bad(r, "metadata: missing amdhsa.version");
    if (ver->kind != RDX_MSGPACK_ARRAY || ver->len != 2 ||
        ver->v.items[0].kind != RDX_MSGPACK_UINT || ver->v.items[1].kind != RDX_MSGPACK_UINT ||
        ver->v.items[0].v.u > UINT32_MAX || ver->v.items[1].v.u > UINT32_MAX)
        return bad(r, "metadata: amdhsa.version: expected an array of two unsigned integers");
    r->co->meta_version[0] = (uint32_t)ver->v.items[0].v.u;
    r->co->meta_version[1] = (uint32_t)ver->v.items[1].v.u;
    const rdx_msgpack_node *tg = rdx_msgpack_map_get(doc, "amdhsa.target");
    if (tg) {
        if (tg->kind != RDX_MSGPACK_STR || strlen(tg->v.str) != tg->len)
            return bad(r, "metadata: amdhsa.target: expected a string, got %s",
                       rdx_msgpack_kind_name(tg->kind));
        r->co->meta_target = tg->v.str;
        static const char prefix[] = "amdgcn-amd-amdhsa--";
        const char *name = r->co->target->name;
        size_t nl = strlen(name);
        if (strncmp(tg->v.str, prefix, sizeof prefix - 1) ||
            strncmp(tg->v.str + sizeof prefix - 1, name, nl) ||
            (tg->v.str[sizeof prefix - 1 + nl] && tg->v.str[sizeof prefix - 1 + nl] != ':'))
            return bad(r, "metadata: amdhsa.target '%s' disagrees with e_flags (%s)", tg->v.str,
                       name);
    }
    const rdx_msgpack_node *ks = rdx_msgpack_map_get(doc, "amdhsa.kernels");
    if (!ks)
        return RDX_OK;
    if (ks->kind != RDX_MSGPACK_ARRAY)
        return bad(r, "metadata: amdhsa.kernels: expected an array, got %s",
                   rdx_msgpack_kind_name(ks->kind));
    for (uint32_t i = 0; i < ks->len; i++) {
        rdx_codeobj_kernel_meta m;
        rdx_status st = rdx_codeobj_meta_decode_kernel(&ks->v.items[i], i, r->arena, r->what, &m);
        if (st)
            return st;
        rdx_codeobj_kernel *k = NULL;
        size_t sl = strlen(m.symbol);
        if (sl > 3 && !strcmp(m.symbol + sl - 3, ".kd") && r->kd_by_name) {
            char *want = rdx_arena_strndup(r->arena, m.symbol, sl - 3);
            if (!want)
                return RDX_ERR_NOMEM;
            kd_loc key = { .name = want };
            const kd_loc *hit = bsearch(&key, r->kd_by_name, r->co->num_kernels,
                                        sizeof *r->kd_by_name, cmp_loc_name);
            if (hit)
                k = &r->co->kernels[hit->kernel];
        }
        if (!k)
            return bad(r,
                       "metadata: amdhsa.kernels[%u] (.name %s) names symbol '%s', which is "
                       "not a kernel descriptor in the symbol table",
                       i, m.name, m.symbol);
        if (k->has_meta)
            return bad(r, "metadata: amdhsa.kernels[%u]: a second entry for symbol '%s'", i,
                       m.symbol);
        k->meta = m;
        k->has_meta = true;
    }
    return RDX_OK;
}

rdx_status rdx_codeobj_read(const void *data, size_t len, const char *what, rdx_codeobj **out)
{
    *out = NULL;
    rdx_status st;
    rdx_arena arena = { 0 };
    rdx_codeobj *co = NULL;
    struct rdx_codeobj_priv *priv = NULL;
    reader r = { 0 };
    r.what = what ? what : "<memory>";

    co = rdx_arena_alloc(&arena, sizeof *co);
    priv = co ? rdx_arena_alloc(&arena, sizeof *priv) : NULL;
    char *copy = priv ? rdx_arena_alloc(&arena, len ? len : 1) : NULL;
    if (!copy) {
        st = RDX_ERR_NOMEM;
        goto fail;
    }
    if (len)
        memcpy(copy, data, len);
    r.p = (const uint8_t *)copy;
    r.len = len;
    r.arena = &arena;
    r.co = co;
    uint64_t shoff = 0;
    uint16_t shstrndx = 0;
    if ((st = read_header(&r, &shoff, &shstrndx)) || (st = read_sections(&r, shoff, shstrndx)) ||
        (st = read_symbols(&r)) || (st = read_relocs(&r)))
        goto fail;
    const rsec *text = NULL;
    uint32_t text_idx = 0;
    for (uint16_t i = 1; i < r.shnum; i++) {
        const rsec *s = &r.secs[i];
        if (!strcmp(s->name, ".text") && s->type == SHT_PROGBITS) {
            if (text) {
                st = bad(&r, "more than one .text section");
                goto fail;
            }
            text = s;
            text_idx = i;
        }
    }
    if (text) {
        co->text = r.p + text->offset;
        co->text_size = text->size;
        co->text_addr = text->vaddr;
    }
    if ((st = read_kernels(&r, text, text_idx)) || (st = read_metadata(&r)) ||
        (st = apply_metadata(&r)))
        goto fail;
    priv->arena = arena;
    co->priv = priv;
    *out = co;
    return RDX_OK;
fail:
    rdx_arena_free(&arena);
    return st;
}

rdx_status rdx_codeobj_read_file(const char *path, rdx_codeobj **out)
{
    uint8_t *data;
    size_t len;
    *out = NULL;
    rdx_status st = rdx_file_read(path, &data, &len);
    if (st)
        return st;
    st = rdx_codeobj_read(data, len, path, out);
    free(data);
    return st;
}

void rdx_codeobj_free(rdx_codeobj *co)
{
    if (!co)
        return;
    rdx_arena arena = co->priv->arena; /* co itself lives in the arena */
    rdx_arena_free(&arena);
}
