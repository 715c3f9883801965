/*
 * tools/prof_dwarf.c — the source lines of a code object for `rdx prof`:
 * the DWARF .debug_line programs (versions 2-5, DWARF 5 §6.2) of the ELF,
 * found with libelf and run by this decoder into rows of (address, file,
 * line) sorted by address; DWARF 5 file names may live in .debug_line_str
 * or .debug_str.
 */
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "tools/prof.h"

void prof_lines_free(prof_lines *l)
{
    for (size_t i = 0; i < l->nfiles; i++)
        free(l->files[i]);
    free(l->files);
    free(l->rows);
    memset(l, 0, sizeof *l);
}

typedef struct rd {
    const uint8_t *p, *end;
    int bad;
} rd;

static uint64_t u(rd *r, unsigned n)
{
    uint64_t v = 0;
    if ((size_t)(r->end - r->p) < n) {
        r->bad = 1;
        r->p = r->end;
        return 0;
    }
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)r->p[i] << (8 * i);
    r->p += n;
    return v;
}

static uint64_t uleb(rd *r)
{
    uint64_t v = 0;
    for (unsigned sh = 0;; sh += 7) {
        if (r->p >= r->end) {
            r->bad = 1;
            return v;
        }
        uint8_t b = *r->p++;
        if (sh < 64)
            v |= (uint64_t)(b & 0x7f) << sh;
        if (!(b & 0x80))
            return v;
    }
}

static int64_t sleb(rd *r)
{
    int64_t v = 0;
    unsigned sh = 0;
    uint8_t b;
    do {
        if (r->p >= r->end) {
            r->bad = 1;
            return v;
        }
        b = *r->p++;
        if (sh < 64)
            v |= (int64_t)((uint64_t)(b & 0x7f) << sh);
        sh += 7;
    } while (b & 0x80);
    if (sh < 64 && (b & 0x40))
        v |= -((int64_t)1 << sh);
    return v;
}

static const char *cstr(rd *r)
{
    const char *s = (const char *)r->p;
    const uint8_t *z = memchr(r->p, 0, (size_t)(r->end - r->p));
    if (!z) {
        r->bad = 1;
        r->p = r->end;
        return "";
    }
    r->p = z + 1;
    return s;
}

typedef struct sect {
    const uint8_t *d;
    size_t n;
} sect;

static const char *str_at(const sect *s, uint64_t off)
{
    if (!s->d || off >= s->n || !memchr(s->d + off, 0, s->n - off))
        return "";
    return (const char *)s->d + off;
}

static int add_file(prof_lines *l, const char *name)
{
    char **nf = realloc(l->files, (l->nfiles + 1) * sizeof *nf);
    if (!nf)
        return -1;
    l->files = nf;
    if (!(nf[l->nfiles] = strdup(name)))
        return -1;
    l->nfiles++;
    return 0;
}

static int add_row(prof_lines *l, size_t *cap, uint64_t addr, uint32_t file, uint32_t line)
{
    if (l->nrows == *cap) {
        size_t nc = *cap ? 2 * *cap : 256;
        prof_line *nr = realloc(l->rows, nc * sizeof *nr);
        if (!nr)
            return -1;
        l->rows = nr;
        *cap = nc;
    }
    l->rows[l->nrows++] = (prof_line){ addr, file, line };
    return 0;
}

/* A form's value: a string for path entries, a number otherwise. */
static const char *form(rd *r, uint64_t f, int off64, const sect *lstr, const sect *str,
                        uint64_t *num)
{
    *num = 0;
    switch (f) {
    case 0x08: /* DW_FORM_string */
        return cstr(r);
    case 0x1f: /* DW_FORM_line_strp */
        return str_at(lstr, u(r, off64 ? 8 : 4));
    case 0x0e: /* DW_FORM_strp */
        return str_at(str, u(r, off64 ? 8 : 4));
    case 0x0b:
        *num = u(r, 1);
        return NULL;
    case 0x05:
        *num = u(r, 2);
        return NULL;
    case 0x06:
        *num = u(r, 4);
        return NULL;
    case 0x07:
        *num = u(r, 8);
        return NULL;
    case 0x0f:
        *num = uleb(r);
        return NULL;
    case 0x1e:
        r->p = (size_t)(r->end - r->p) >= 16 ? r->p + 16 : r->end;
        return NULL;
    case 0x09: {
        uint64_t n = uleb(r);
        r->p = (uint64_t)(r->end - r->p) >= n ? r->p + n : r->end;
        return NULL;
    }
    default:
        r->bad = 1;
        return NULL;
    }
}

/* One line-number program unit at r; appends its files and rows. */
static int unit(rd *all, prof_lines *l, size_t *cap, const sect *lstr, const sect *str)
{
    uint64_t len = u(all, 4);
    int off64 = 0;
    if (len == 0xffffffffu) {
        len = u(all, 8);
        off64 = 1;
    }
    if (all->bad || len > (uint64_t)(all->end - all->p))
        return -1;
    rd r = { all->p, all->p + len, 0 };
    all->p += len;
    unsigned ver = (unsigned)u(&r, 2);
    if (ver < 2 || ver > 5)
        return -1;
    unsigned asz = 8;
    if (ver >= 5) {
        asz = (unsigned)u(&r, 1);
        u(&r, 1);
    }
    uint64_t hlen = u(&r, off64 ? 8 : 4);
    const uint8_t *prog = r.p + hlen;
    if (hlen > (uint64_t)(r.end - r.p))
        return -1;
    unsigned minlen = (unsigned)u(&r, 1);
    if (ver >= 4)
        u(&r, 1);
    int def_stmt = (int)u(&r, 1);
    (void)def_stmt;
    int line_base = (int8_t)u(&r, 1);
    unsigned line_range = (unsigned)u(&r, 1), opbase = (unsigned)u(&r, 1);
    uint8_t oplen[256] = { 0 };
    for (unsigned i = 1; i < opbase; i++)
        oplen[i] = (uint8_t)u(&r, 1);
    if (r.bad || line_range == 0)
        return -1;
    size_t fbase = l->nfiles; /* this unit's file 0 (v5) or 1 (v2-4) is fbase */
    if (ver >= 5) {
        /* directories: skipped (paths are printed without them) */
        for (int pass = 0; pass < 2; pass++) {
            unsigned nfmt = (unsigned)u(&r, 1);
            uint64_t fmt[16][2];
            if (nfmt > 16)
                return -1;
            for (unsigned i = 0; i < nfmt; i++) {
                fmt[i][0] = uleb(&r);
                fmt[i][1] = uleb(&r);
            }
            uint64_t cnt = uleb(&r);
            for (uint64_t e = 0; e < cnt && !r.bad; e++) {
                const char *path = NULL;
                for (unsigned i = 0; i < nfmt; i++) {
                    uint64_t num;
                    const char *s = form(&r, fmt[i][1], off64, lstr, str, &num);
                    if (fmt[i][0] == 1 && s)
                        path = s;
                }
                if (pass == 1 && add_file(l, path ? path : "?"))
                    return -1;
            }
        }
    } else {
        while (!r.bad && r.p < r.end && *r.p)
            cstr(&r); /* include directories */
        u(&r, 1);
        while (!r.bad && r.p < r.end && *r.p) {
            const char *name = cstr(&r);
            uleb(&r);
            uleb(&r);
            uleb(&r);
            if (add_file(l, name))
                return -1;
        }
        fbase -= 1; /* file numbers start at 1 */
    }
    if (r.bad)
        return -1;
    r.p = prog;
    uint64_t addr = 0, file = 1, line = 1;
    while (r.p < r.end && !r.bad) {
        unsigned op = (unsigned)u(&r, 1);
        if (op >= opbase) {
            unsigned adj = op - opbase;
            addr += (uint64_t)(adj / line_range) * minlen;
            line += (uint64_t)(int64_t)(line_base + (int)(adj % line_range));
            if (add_row(l, cap, addr, (uint32_t)(fbase + file), (uint32_t)line))
                return -1;
            continue;
        }
        switch (op) {
        case 0: {
            uint64_t n = uleb(&r);
            if (n == 0 || n > (uint64_t)(r.end - r.p))
                return -1;
            const uint8_t *next = r.p + n;
            unsigned sub = (unsigned)u(&r, 1);
            if (sub == 1) { /* end_sequence: no source past here */
                if (add_row(l, cap, addr, 0, 0))
                    return -1;
                addr = 0;
                file = 1;
                line = 1;
            } else if (sub == 2) {
                addr = u(&r, asz <= 8 ? asz : 8);
            }
            r.p = next;
            break;
        }
        case 1:
            if (add_row(l, cap, addr, (uint32_t)(fbase + file), (uint32_t)line))
                return -1;
            break;
        case 2:
            addr += uleb(&r) * minlen;
            break;
        case 3:
            line += (uint64_t)sleb(&r);
            break;
        case 4:
            file = uleb(&r);
            break;
        case 8:
            addr += (uint64_t)((255 - opbase) / line_range) * minlen;
            break;
        case 9:
            addr += u(&r, 2);
            break;
        default:
            for (unsigned i = 0; i < oplen[op]; i++)
                uleb(&r);
            break;
        }
    }
    return r.bad ? -1 : 0;
}

static int cmp_row(const void *a, const void *b)
{
    const prof_line *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int prof_dwarf_lines(const void *elf_bytes, size_t size, prof_lines *out)
{
    memset(out, 0, sizeof *out);
    if (elf_version(EV_CURRENT) == EV_NONE)
        return 0;
    Elf *e = elf_memory((char *)elf_bytes, size);
    if (!e)
        return 0;
    size_t shstr;
    sect line = { 0 }, lstr = { 0 }, str = { 0 };
    if (elf_getshdrstrndx(e, &shstr) == 0) {
        for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s)) {
            GElf_Shdr sh;
            if (!gelf_getshdr(s, &sh) || sh.sh_type == SHT_NOBITS)
                continue;
            const char *name = elf_strptr(e, shstr, sh.sh_name);
            Elf_Data *d = elf_getdata(s, NULL);
            if (!name || !d || !d->d_buf)
                continue;
            sect x = { d->d_buf, d->d_size };
            if (!strcmp(name, ".debug_line"))
                line = x;
            else if (!strcmp(name, ".debug_line_str"))
                lstr = x;
            else if (!strcmp(name, ".debug_str"))
                str = x;
        }
    }
    int rc = 0;
    if (line.d) {
        rd r = { line.d, line.d + line.n, 0 };
        size_t cap = 0;
        while (r.p < r.end && rc == 0)
            rc = unit(&r, out, &cap, &lstr, &str);
        /* sorted by address; rows of one address keep no particular order (a
           program's rows of one address are the same instruction's) */
        if (out->nrows)
            qsort(out->rows, out->nrows, sizeof *out->rows, cmp_row);
    }
    elf_end(e);
    return rc;
}
