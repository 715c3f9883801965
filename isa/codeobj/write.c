/*
 * isa/codeobj/write.c — build an AMDGPU HSA code object with libelf.
 *
 * The layout mirrors what ld.lld produces for `clang -target
 * amdgcn-amd-amdhsa`: an ET_DYN shared object whose first (read-only) PT_LOAD
 * holds the headers, .note, .dynsym, .hash, .dynstr and .rodata (the kernel
 * descriptors), a second (executable) PT_LOAD holds .text on its own page,
 * and a third (writable) PT_LOAD holds .dynamic; PT_DYNAMIC, PT_NOTE and
 * PT_PHDR describe those.  Addresses equal file offsets plus a whole number
 * of pages, so each segment's address and offset agree modulo the page.
 * libelf writes it into the thread's memfd (isa/codeobj/memfd.h), emptied first and
 * kept for the next code object, and the image is read back from there.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rdx/codeobj.h>

#include "isa/codeobj/elfdefs.h"
#include "isa/codeobj/memfd.h"
#include "isa/codeobj/meta.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/file.h"

/* Section indices, in file order. */
enum {
    SEC_NULL,
    SEC_NOTE,
    SEC_DYNSYM,
    SEC_HASH,
    SEC_DYNSTR,
    SEC_RODATA,
    SEC_TEXT,
    SEC_DYNAMIC,
    SEC_SYMTAB,
    SEC_SHSTRTAB,
    SEC_STRTAB,
    NUM_SECS,
};

enum { NUM_PHDRS = 7 };

typedef struct sec_plan {
    const char *name;
    uint32_t type;
    uint64_t flags;
    uint64_t align, entsize;
    uint32_t link, info;
    rdx_buf data;
    uint64_t offset, addr;
    uint32_t name_off;
} sec_plan;

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) & ~(a - 1);
}

static rdx_status check_image(const rdx_codeobj_image *img, const rdx_codeobj_target **t)
{
    *t = rdx_codeobj_target_find(img->target);
    if (!*t)
        return rdx_fail(RDX_ERR_INVALID, "code object target '%s' is not known (e.g. gfx1100)",
                        img->target ? img->target : "(null)");
    unsigned v = img->version ? img->version : 5;
    if (v != 4 && v != 5)
        return rdx_fail(RDX_ERR_INVALID, "code object version %u is not supported (4 or 5)", v);
    if (img->code_size && !img->code)
        return rdx_fail(RDX_ERR_INVALID, "code object: %zu code bytes but no code", img->code_size);
    for (size_t i = 0; i < img->num_kernels; i++) {
        const rdx_codeobj_kernel *k = &img->kernels[i];
        if (!k->name || !k->name[0])
            return rdx_fail(RDX_ERR_INVALID, "kernel %zu has no name", i);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(img->kernels[j].name, k->name))
                return rdx_fail(RDX_ERR_INVALID, "kernel name '%s' is used twice", k->name);
        if (k->code_offset >= img->code_size)
            return rdx_fail(RDX_ERR_INVALID,
                            "kernel '%s': code offset 0x%llx is outside the %zu code bytes",
                            k->name, (unsigned long long)k->code_offset, img->code_size);
        if (k->code_offset % 256)
            return rdx_fail(RDX_ERR_INVALID,
                            "kernel '%s': code offset 0x%llx is not 256-byte aligned (the "
                            "hardware takes the entry address >> 8)",
                            k->name, (unsigned long long)k->code_offset);
        if (k->code_size > img->code_size - k->code_offset)
            return rdx_fail(RDX_ERR_INVALID,
                            "kernel '%s': code size %llu at offset 0x%llx runs past the %zu code "
                            "bytes",
                            k->name, (unsigned long long)k->code_size,
                            (unsigned long long)k->code_offset, img->code_size);
        /* Metadata that repeats a descriptor value must agree with it (0 = take it). */
        const rdx_codeobj_kernel_meta *m = &k->meta;
        const struct {
            const char *key;
            uint32_t meta, kd;
        } same[] = {
            { ".group_segment_fixed_size", m->group_segment_fixed_size,
              k->kd.group_segment_fixed_size },
            { ".private_segment_fixed_size", m->private_segment_fixed_size,
              k->kd.private_segment_fixed_size },
            { ".kernarg_segment_size", m->kernarg_segment_size, k->kd.kernarg_size },
            { ".wavefront_size", m->wavefront_size, k->kd.enable_wavefront_size32 ? 32u : 64u },
        };
        for (size_t j = 0; !img->metadata && j < sizeof same / sizeof same[0]; j++)
            if (same[j].meta && same[j].meta != same[j].kd)
                return rdx_fail(RDX_ERR_INVALID,
                                "kernel '%s': metadata %s is %u but the descriptor says %u",
                                k->name, same[j].key, same[j].meta, same[j].kd);
        for (size_t a = 0; a < k->meta.num_args; a++)
            if (!k->meta.args[a].value_kind)
                return rdx_fail(RDX_ERR_INVALID, "kernel '%s' argument %zu has no value_kind",
                                k->name, a);
    }
    return RDX_OK;
}

static rdx_status put_sym(rdx_buf *b, uint32_t name, unsigned char info, unsigned char other,
                          uint16_t shndx, uint64_t value, uint64_t size)
{
    rdx_status st = rdx_buf_u32(b, name);
    if (!st)
        st = rdx_buf_u8(b, info);
    if (!st)
        st = rdx_buf_u8(b, other);
    if (!st)
        st = rdx_buf_u16(b, shndx);
    if (!st)
        st = rdx_buf_u64(b, value);
    if (!st)
        st = rdx_buf_u64(b, size);
    return st;
}

static rdx_status add_str(rdx_buf *b, const char *s, const char *suffix, uint32_t *off)
{
    *off = (uint32_t)b->len;
    rdx_status st = rdx_buf_append(b, s, strlen(s));
    if (!st && suffix)
        st = rdx_buf_append(b, suffix, strlen(suffix));
    if (!st)
        st = rdx_buf_u8(b, 0);
    return st;
}

/* Fill every section's bytes except the symbol tables (which need addresses). */
static rdx_status build_contents(const rdx_codeobj_image *img, const rdx_codeobj_target *t,
                                 sec_plan *s, uint32_t *name_offs)
{
    rdx_status st = RDX_OK;
    unsigned version = img->version ? img->version : 5;
    /* .note: one NT_AMDGPU_METADATA note. */
    rdx_buf md = { 0 };
    if (img->metadata) {
        /* A caller's document: it must be valid MessagePack. */
        rdx_arena a = { 0 };
        rdx_msgpack_node *doc;
        st =
            rdx_msgpack_decode(img->metadata, img->metadata_size, &a, "code object metadata", &doc);
        if (!st && doc->kind != RDX_MSGPACK_MAP)
            st = rdx_fail(RDX_ERR_INVALID, "code object metadata: expected a map, got %s",
                          rdx_msgpack_kind_name(doc->kind));
        rdx_arena_free(&a);
        if (!st)
            st = rdx_buf_append(&md, img->metadata, img->metadata_size);
    } else {
        st = rdx_codeobj_meta_encode(&md, t, version, img->kernels, img->num_kernels);
    }
    if (!st && md.len > UINT32_MAX)
        st = rdx_fail(RDX_ERR_RANGE, "metadata of %zu bytes is too large", md.len);
    if (!st)
        st = rdx_buf_u32(&s[SEC_NOTE].data, sizeof RDX_AMDGPU_NOTE_NAME);
    if (!st)
        st = rdx_buf_u32(&s[SEC_NOTE].data, (uint32_t)md.len);
    if (!st)
        st = rdx_buf_u32(&s[SEC_NOTE].data, RDX_NT_AMDGPU_METADATA);
    if (!st)
        st = rdx_buf_append(&s[SEC_NOTE].data, RDX_AMDGPU_NOTE_NAME "\0", 8);
    if (!st)
        st = rdx_buf_append(&s[SEC_NOTE].data, md.data, md.len);
    while (!st && s[SEC_NOTE].data.len % 4)
        st = rdx_buf_u8(&s[SEC_NOTE].data, 0);
    rdx_buf_free(&md);
    /* .dynstr and .strtab: "", then name and name.kd per kernel. */
    for (int which = SEC_DYNSTR; !st && which <= SEC_STRTAB; which += SEC_STRTAB - SEC_DYNSTR) {
        rdx_buf *b = &s[which].data;
        st = rdx_buf_u8(b, 0);
        for (size_t i = 0; !st && i < img->num_kernels; i++) {
            st = add_str(b, img->kernels[i].name, NULL, &name_offs[2 * i]);
            if (!st)
                st = add_str(b, img->kernels[i].name, ".kd", &name_offs[2 * i + 1]);
        }
    }
    /* .rodata: the descriptors, entry offsets patched once addresses are known. */
    for (size_t i = 0; !st && i < img->num_kernels; i++) {
        uint8_t kd[RDX_KERNEL_DESCRIPTOR_SIZE];
        st = rdx_codeobj_kd_pack(&img->kernels[i].kd, t->major, kd);
        if (st)
            st = rdx_fail_context(st, "kernel '%s'", img->kernels[i].name);
        if (!st)
            st = rdx_buf_append(&s[SEC_RODATA].data, kd, sizeof kd);
    }
    if (!st && img->code_size)
        st = rdx_buf_append(&s[SEC_TEXT].data, img->code, img->code_size);
    /* .hash: one bucket chaining every symbol (valid SysV hash table). */
    uint32_t nsyms = (uint32_t)(1 + 2 * img->num_kernels);
    rdx_buf *h = &s[SEC_HASH].data;
    if (!st)
        st = rdx_buf_u32(h, 1);
    if (!st)
        st = rdx_buf_u32(h, nsyms);
    if (!st)
        st = rdx_buf_u32(h, nsyms > 1 ? 1 : 0);
    for (uint32_t i = 0; !st && i < nsyms; i++)
        st = rdx_buf_u32(h, i == 0 || i + 1 == nsyms ? 0 : i + 1);
    /* .shstrtab */
    for (int i = 0; !st && i < NUM_SECS; i++)
        st = add_str(&s[SEC_SHSTRTAB].data, s[i].name, NULL, &s[i].name_off);
    return st;
}

static rdx_status build_symtab(const rdx_codeobj_image *img, sec_plan *s, int which,
                               const uint32_t *name_offs)
{
    rdx_buf *b = &s[which].data;
    rdx_status st = put_sym(b, 0, 0, 0, 0, 0, 0);
    for (size_t i = 0; !st && i < img->num_kernels; i++) {
        const rdx_codeobj_kernel *k = &img->kernels[i];
        st = put_sym(b, name_offs[2 * i], ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), STV_PROTECTED,
                     SEC_TEXT, s[SEC_TEXT].addr + k->code_offset, k->code_size);
        if (!st)
            st = put_sym(b, name_offs[2 * i + 1], ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT),
                         STV_PROTECTED, SEC_RODATA,
                         s[SEC_RODATA].addr + i * RDX_KERNEL_DESCRIPTOR_SIZE,
                         RDX_KERNEL_DESCRIPTOR_SIZE);
    }
    return st;
}

static rdx_status put_dyn(rdx_buf *b, int64_t tag, uint64_t val)
{
    rdx_status st = rdx_buf_u64(b, (uint64_t)tag);
    return st ? st : rdx_buf_u64(b, val);
}

/* Assign offsets and addresses; fills the symbol tables, .dynamic and entry offsets. */
static rdx_status layout(const rdx_codeobj_image *img, sec_plan *s, const uint32_t *name_offs,
                         uint64_t *shoff)
{
    uint64_t nsyms = 1 + 2 * img->num_kernels;
    uint64_t off = 64 + NUM_PHDRS * 56;
    /* Sizes of the tables filled after layout. */
    uint64_t size[NUM_SECS];
    for (int i = 0; i < NUM_SECS; i++)
        size[i] = s[i].data.len;
    size[SEC_DYNSYM] = size[SEC_SYMTAB] = nsyms * 24;
    size[SEC_DYNAMIC] = 6 * 16;
    for (int i = SEC_NOTE; i <= SEC_RODATA; i++) {
        off = align_up(off, s[i].align);
        s[i].offset = s[i].addr = off;
        off += size[i];
    }
    uint64_t r_end = off;
    off = align_up(off, s[SEC_TEXT].align);
    s[SEC_TEXT].offset = off;
    s[SEC_TEXT].addr = align_up(r_end, RDX_CODEOBJ_PAGE) + (off % RDX_CODEOBJ_PAGE);
    off += size[SEC_TEXT];
    uint64_t x_end = s[SEC_TEXT].addr + size[SEC_TEXT];
    off = align_up(off, s[SEC_DYNAMIC].align);
    s[SEC_DYNAMIC].offset = off;
    s[SEC_DYNAMIC].addr = align_up(x_end, RDX_CODEOBJ_PAGE) + (off % RDX_CODEOBJ_PAGE);
    off += size[SEC_DYNAMIC];
    for (int i = SEC_SYMTAB; i < NUM_SECS; i++) {
        off = align_up(off, s[i].align);
        s[i].offset = off;
        s[i].addr = 0;
        off += size[i];
    }
    *shoff = align_up(off, 8);

    rdx_status st = build_symtab(img, s, SEC_DYNSYM, name_offs);
    if (!st)
        st = build_symtab(img, s, SEC_SYMTAB, name_offs);
    rdx_buf *d = &s[SEC_DYNAMIC].data;
    if (!st)
        st = put_dyn(d, DT_SYMTAB, s[SEC_DYNSYM].addr);
    if (!st)
        st = put_dyn(d, DT_SYMENT, 24);
    if (!st)
        st = put_dyn(d, DT_STRTAB, s[SEC_DYNSTR].addr);
    if (!st)
        st = put_dyn(d, DT_STRSZ, s[SEC_DYNSTR].data.len);
    if (!st)
        st = put_dyn(d, DT_HASH, s[SEC_HASH].addr);
    if (!st)
        st = put_dyn(d, DT_NULL, 0);
    /* kernel_code_entry_byte_offset = entry address - descriptor address. */
    for (size_t i = 0; !st && i < img->num_kernels; i++) {
        uint64_t kd_addr = s[SEC_RODATA].addr + i * RDX_KERNEL_DESCRIPTOR_SIZE;
        uint64_t entry = s[SEC_TEXT].addr + img->kernels[i].code_offset;
        uint64_t rel = entry - kd_addr;
        uint8_t *p = s[SEC_RODATA].data.data + i * RDX_KERNEL_DESCRIPTOR_SIZE + 16;
        for (int j = 0; j < 8; j++)
            p[j] = (uint8_t)(rel >> (8 * j));
    }
    return st;
}

static rdx_status elf_error(const char *what)
{
    return rdx_fail(RDX_ERR_IO, "libelf: %s: %s", what, elf_errmsg(-1));
}

static void set_phdr(GElf_Phdr *p, uint32_t type, uint32_t flags, uint64_t off, uint64_t addr,
                     uint64_t filesz, uint64_t memsz, uint64_t align)
{
    p->p_type = type;
    p->p_flags = flags;
    p->p_offset = off;
    p->p_vaddr = p->p_paddr = addr;
    p->p_filesz = filesz;
    p->p_memsz = memsz;
    p->p_align = align;
}

/* Write the planned sections through libelf into the file descriptor `fd`. */
static rdx_status emit(const rdx_codeobj_image *img, const rdx_codeobj_target *t, sec_plan *s,
                       uint64_t shoff, int fd)
{
    rdx_status st = RDX_OK;
    Elf *elf = elf_begin(fd, ELF_C_WRITE, NULL);
    if (!elf)
        return elf_error("elf_begin");
    if (!gelf_newehdr(elf, ELFCLASS64)) {
        st = elf_error("gelf_newehdr");
        goto fail;
    }
    elf_flagelf(elf, ELF_C_SET, ELF_F_LAYOUT);
    GElf_Ehdr eh;
    if (!gelf_getehdr(elf, &eh)) {
        st = elf_error("gelf_getehdr");
        goto fail;
    }
    unsigned version = img->version ? img->version : 5;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_OSABI] = RDX_ELFOSABI_AMDGPU_HSA;
    eh.e_ident[EI_ABIVERSION] = version == 4 ? RDX_ELFABIVERSION_HSA_V4 : RDX_ELFABIVERSION_HSA_V5;
    eh.e_type = ET_DYN;
    eh.e_machine = RDX_EM_AMDGPU;
    eh.e_version = EV_CURRENT;
    eh.e_entry = 0;
    eh.e_phoff = 64;
    eh.e_shoff = shoff;
    eh.e_flags = rdx_codeobj_target_eflags(t);
    eh.e_shstrndx = SEC_SHSTRTAB;
    if (!gelf_update_ehdr(elf, &eh)) {
        st = elf_error("gelf_update_ehdr");
        goto fail;
    }
    for (int i = SEC_NOTE; i < NUM_SECS; i++) {
        Elf_Scn *scn = elf_newscn(elf);
        if (!scn) {
            st = elf_error("elf_newscn");
            goto fail;
        }
        Elf_Data *d = elf_newdata(scn);
        if (!d) {
            st = elf_error("elf_newdata");
            goto fail;
        }
        d->d_buf = s[i].data.data;
        d->d_size = s[i].data.len;
        d->d_type = ELF_T_BYTE;
        d->d_align = 1;
        d->d_off = 0;
        d->d_version = EV_CURRENT;
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) {
            st = elf_error("gelf_getshdr");
            goto fail;
        }
        sh.sh_name = s[i].name_off;
        sh.sh_type = s[i].type;
        sh.sh_flags = s[i].flags;
        sh.sh_addr = s[i].addr;
        sh.sh_offset = s[i].offset;
        sh.sh_size = s[i].data.len;
        sh.sh_link = s[i].link;
        sh.sh_info = s[i].info;
        sh.sh_addralign = s[i].align;
        sh.sh_entsize = s[i].entsize;
        if (!gelf_update_shdr(scn, &sh)) {
            st = elf_error("gelf_update_shdr");
            goto fail;
        }
    }
    if (!gelf_newphdr(elf, NUM_PHDRS)) {
        st = elf_error("gelf_newphdr");
        goto fail;
    }
    GElf_Phdr ph[NUM_PHDRS];
    memset(ph, 0, sizeof ph);
    uint64_t r_end = s[SEC_RODATA].offset + s[SEC_RODATA].data.len;
    const sec_plan *tx = &s[SEC_TEXT], *dy = &s[SEC_DYNAMIC], *no = &s[SEC_NOTE];
    set_phdr(&ph[0], PT_PHDR, PF_R, 64, 64, NUM_PHDRS * 56, NUM_PHDRS * 56, 8);
    set_phdr(&ph[1], PT_LOAD, PF_R, 0, 0, r_end, r_end, RDX_CODEOBJ_PAGE);
    set_phdr(&ph[2], PT_LOAD, PF_R | PF_X, tx->offset, tx->addr, tx->data.len, tx->data.len,
             RDX_CODEOBJ_PAGE);
    set_phdr(&ph[3], PT_LOAD, PF_R | PF_W, dy->offset, dy->addr, dy->data.len, dy->data.len,
             RDX_CODEOBJ_PAGE);
    set_phdr(&ph[4], PT_DYNAMIC, PF_R | PF_W, dy->offset, dy->addr, dy->data.len, dy->data.len, 8);
    set_phdr(&ph[5], PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 0);
    set_phdr(&ph[6], PT_NOTE, PF_R, no->offset, no->addr, no->data.len, no->data.len, 4);
    for (int i = 0; i < NUM_PHDRS; i++) {
        if (!gelf_update_phdr(elf, i, &ph[i])) {
            st = elf_error("gelf_update_phdr");
            goto fail;
        }
    }
    if (elf_update(elf, ELF_C_WRITE) < 0) {
        st = elf_error("elf_update");
        goto fail;
    }
fail:
    elf_end(elf);
    return st;
}

rdx_status rdx_codeobj_write(const rdx_codeobj_image *img, uint8_t **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    const rdx_codeobj_target *t;
    rdx_status st = check_image(img, &t);
    if (st)
        return st;
    if (elf_version(EV_CURRENT) == EV_NONE)
        return rdx_fail(RDX_ERR_IO, "libelf: version mismatch: %s", elf_errmsg(-1));

    sec_plan s[NUM_SECS] = {
        [SEC_NULL] = { "", SHT_NULL, 0, 0, 0, 0, 0, { 0 }, 0, 0, 0 },
        [SEC_NOTE] = { ".note", SHT_NOTE, SHF_ALLOC, 4, 0, 0, 0, { 0 }, 0, 0, 0 },
        [SEC_DYNSYM] = { ".dynsym", SHT_DYNSYM, SHF_ALLOC, 8, 24, SEC_DYNSTR, 1, { 0 }, 0, 0, 0 },
        [SEC_HASH] = { ".hash", SHT_HASH, SHF_ALLOC, 4, 4, SEC_DYNSYM, 0, { 0 }, 0, 0, 0 },
        [SEC_DYNSTR] = { ".dynstr", SHT_STRTAB, SHF_ALLOC, 1, 0, 0, 0, { 0 }, 0, 0, 0 },
        [SEC_RODATA] = { ".rodata", SHT_PROGBITS, SHF_ALLOC, 64, 0, 0, 0, { 0 }, 0, 0, 0 },
        [SEC_TEXT] = { ".text",
                       SHT_PROGBITS,
                       SHF_ALLOC | SHF_EXECINSTR,
                       256,
                       0,
                       0,
                       0,
                       { 0 },
                       0,
                       0,
                       0 },
        [SEC_DYNAMIC] = { ".dynamic",
                          SHT_DYNAMIC,
                          SHF_ALLOC | SHF_WRITE,
                          8,
                          16,
                          SEC_DYNSTR,
                          0,
                          { 0 },
                          0,
                          0,
                          0 },
        [SEC_SYMTAB] = { ".symtab", SHT_SYMTAB, 0, 8, 24, SEC_STRTAB, 1, { 0 }, 0, 0, 0 },
        [SEC_SHSTRTAB] = { ".shstrtab", SHT_STRTAB, 0, 1, 0, 0, 0, { 0 }, 0, 0, 0 },
        [SEC_STRTAB] = { ".strtab", SHT_STRTAB, 0, 1, 0, 0, 0, { 0 }, 0, 0, 0 },
    };
    uint32_t *name_offs = NULL;
    int fd = -1;
    uint8_t *bytes = NULL;
    uint64_t shoff = 0;

    name_offs = calloc(2 * img->num_kernels + 1, sizeof *name_offs);
    if (!name_offs) {
        st = rdx_fail(RDX_ERR_NOMEM, "out of memory writing a code object");
        goto fail;
    }
    if ((st = build_contents(img, t, s, name_offs)))
        goto fail;
    if ((st = layout(img, s, name_offs, &shoff)))
        goto fail;
    if ((st = rdx_codeobj_memfd(&fd)))
        goto fail;
    if ((st = emit(img, t, s, shoff, fd)))
        goto fail;
    /* The file ends at the section headers or at the last section after them. */
    uint64_t size = shoff + NUM_SECS * sizeof(Elf64_Shdr);
    for (int i = SEC_NOTE; i < NUM_SECS; i++)
        if (s[i].offset + s[i].data.len > size)
            size = s[i].offset + s[i].data.len;
    bytes = malloc((size_t)size);
    if (!bytes) {
        st = rdx_fail(RDX_ERR_NOMEM, "out of memory for a %llu-byte code object",
                      (unsigned long long)size);
        goto fail;
    }
    size_t got = 0;
    while (got < (size_t)size) {
        ssize_t n = pread(fd, bytes + got, (size_t)size - got, (off_t)got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            st = rdx_fail_errno(RDX_ERR_IO, n < 0 ? errno : EIO, "reading back the code object");
            goto fail;
        }
        got += (size_t)n;
    }
    *out = bytes;
    *len = got;
    bytes = NULL;
fail:
    free(bytes);
    for (int i = 0; i < NUM_SECS; i++)
        rdx_buf_free(&s[i].data);
    free(name_offs);
    return st;
}

rdx_status rdx_codeobj_write_file(const rdx_codeobj_image *img, const char *path)
{
    uint8_t *bytes;
    size_t len;
    rdx_status st = rdx_codeobj_write(img, &bytes, &len);
    if (st)
        return st;
    st = rdx_file_write(path, bytes, len);
    free(bytes);
    return st;
}
