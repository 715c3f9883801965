/*
 * runtime/program.c — loading code objects into GPU memory.
 *
 * Shared objects (rdx's writer, ld.lld) are loaded as the ROCm loader does:
 * every PT_LOAD segment at its virtual address relative to one base, so
 * PC-relative references between .text and .rodata stay valid, and the
 * dynamic R_AMDGPU_RELATIVE64 relocations are applied.  Relocatable objects
 * (clang -c) have only their .text loaded; a relocation that patches .text
 * is refused (rdx does not link).  Each kernel gets its packed
 * COMPUTE_PGM_RSRC1/2/3 and its arguments from the metadata.
 */
#include "runtime/internal.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codeobj.h>

#include "runtime/hidden.h"
#include "util/file.h"

#define R_AMDGPU_RELATIVE64 13

static uint64_t rd(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* The loadable image of a shared object: span of its PT_LOAD segments. */
typedef struct image {
    uint64_t lo, hi; /* virtual address range */
} image;

static rdx_status span(const uint8_t *p, size_t len, const char *what, image *im)
{
    Elf64_Ehdr eh;
    if (len < sizeof eh)
        return rdx_fail(RDX_ERR_PARSE, "%s: truncated ELF header", what);
    memcpy(&eh, p, sizeof eh);
    im->lo = UINT64_MAX;
    im->hi = 0;
    for (uint32_t i = 0; i < eh.e_phnum; i++) {
        uint64_t off = eh.e_phoff + (uint64_t)i * sizeof(Elf64_Phdr);
        if (eh.e_phentsize != sizeof(Elf64_Phdr) || off > len || len - off < sizeof(Elf64_Phdr))
            return rdx_fail(RDX_ERR_PARSE, "%s: program header %u outside the file", what, i);
        Elf64_Phdr ph;
        memcpy(&ph, p + off, sizeof ph);
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
            continue;
        if (ph.p_filesz > ph.p_memsz || ph.p_offset > len || ph.p_filesz > len - ph.p_offset ||
            ph.p_vaddr + ph.p_memsz < ph.p_vaddr)
            return rdx_fail(RDX_ERR_PARSE, "%s: PT_LOAD segment %u outside the file", what, i);
        if (ph.p_vaddr < im->lo)
            im->lo = ph.p_vaddr;
        if (ph.p_vaddr + ph.p_memsz > im->hi)
            im->hi = ph.p_vaddr + ph.p_memsz;
    }
    if (im->lo == UINT64_MAX)
        return rdx_fail(RDX_ERR_PARSE, "%s: no PT_LOAD segment", what);
    if (im->hi - im->lo > (1ull << 30))
        return rdx_fail(RDX_ERR_PARSE, "%s: loadable image of %llu bytes", what,
                        (unsigned long long)(im->hi - im->lo));
    return RDX_OK;
}

/* Copy the segments to dst (the image's lo at dst) and apply the dynamic
 * relocations for a load at GPU address `base`. */
static rdx_status load_segments(const uint8_t *p, size_t len, const char *what, const image *im,
                                uint8_t *dst, uint64_t base)
{
    Elf64_Ehdr eh;
    memcpy(&eh, p, sizeof eh);
    for (uint32_t i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        memcpy(&ph, p + eh.e_phoff + (uint64_t)i * sizeof ph, sizeof ph);
        if (ph.p_type == PT_LOAD && ph.p_filesz)
            memcpy(dst + (ph.p_vaddr - im->lo), p + ph.p_offset, ph.p_filesz);
    }
    /* Dynamic relocations: SHT_RELA sections that are part of the image. */
    for (uint32_t i = 0; i < eh.e_shnum; i++) {
        uint64_t off = eh.e_shoff + (uint64_t)i * sizeof(Elf64_Shdr);
        if (eh.e_shentsize != sizeof(Elf64_Shdr) || off > len || len - off < sizeof(Elf64_Shdr))
            return rdx_fail(RDX_ERR_PARSE, "%s: section header %u outside the file", what, i);
        Elf64_Shdr sh;
        memcpy(&sh, p + off, sizeof sh);
        if ((sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL) || !(sh.sh_flags & SHF_ALLOC))
            continue;
        if (sh.sh_type == SHT_REL && sh.sh_size)
            return rdx_fail(RDX_ERR_UNSUPPORTED, "%s: SHT_REL dynamic relocations", what);
        if (sh.sh_offset > len || sh.sh_size > len - sh.sh_offset)
            return rdx_fail(RDX_ERR_PARSE, "%s: relocation section %u outside the file", what, i);
        for (uint64_t r = 0; r + sizeof(Elf64_Rela) <= sh.sh_size; r += sizeof(Elf64_Rela)) {
            const uint8_t *e = p + sh.sh_offset + r;
            uint64_t where = rd(e, 8), info = rd(e + 8, 8);
            int64_t addend = (int64_t)rd(e + 16, 8);
            if (ELF64_R_TYPE(info) != R_AMDGPU_RELATIVE64)
                return rdx_fail(RDX_ERR_UNSUPPORTED,
                                "%s: dynamic relocation type %u at 0x%llx (rdx applies "
                                "R_AMDGPU_RELATIVE64 only)",
                                what, (unsigned)ELF64_R_TYPE(info), (unsigned long long)where);
            if (where < im->lo || where + 8 > im->hi)
                return rdx_fail(RDX_ERR_PARSE, "%s: relocation at 0x%llx outside the image", what,
                                (unsigned long long)where);
            uint64_t v = base - im->lo + (uint64_t)addend;
            memcpy(dst + (where - im->lo), &v, 8);
        }
    }
    return RDX_OK;
}

static bool starts(const char *s, const char *prefix)
{
    return s && !strncmp(s, prefix, strlen(prefix));
}

/* Arguments of one kernel from its metadata. */
static rdx_status kernel_args(rdx_kernel *k, const rdx_codeobj_kernel *ck)
{
    const rdx_codeobj_kernel_meta *m = &ck->meta;
    /* Metadata that lists no arguments for a non-empty kernarg segment (what an
     * assembler writes for hand-written code without .amdgpu_metadata) does not
     * describe the arguments: pack them naturally, as for no metadata. */
    k->has_meta = ck->has_meta && !(m->num_args == 0 && m->kernarg_segment_size > 0);
    if (!k->has_meta)
        return RDX_OK;
    size_t text = 0;
    for (size_t i = 0; i < m->num_args; i++) {
        const rdx_codeobj_arg *a = &m->args[i];
        text += strlen(a->name ? a->name : "") + strlen(a->type_name ? a->type_name : "") +
                strlen(a->value_kind) + 3;
    }
    k->args = calloc(m->num_args ? m->num_args : 1, sizeof *k->args);
    k->hidden = calloc(m->num_args ? m->num_args : 1, sizeof *k->hidden);
    k->strings = malloc(text + 1);
    if (!k->args || !k->hidden || !k->strings)
        return rdx_fail(RDX_ERR_NOMEM, "loading kernel %s: out of memory", k->name);
    char *s = k->strings;
    for (size_t i = 0; i < m->num_args; i++) {
        const rdx_codeobj_arg *a = &m->args[i];
        if ((uint64_t)a->offset + a->size > m->kernarg_segment_size && m->kernarg_segment_size)
            return rdx_fail(RDX_ERR_PARSE,
                            "kernel %s: argument %zu at [%u, %u) outside the %u-byte kernarg "
                            "segment",
                            k->name, i, a->offset, a->offset + a->size, m->kernarg_segment_size);
        if (starts(a->value_kind, "hidden_")) {
            rt_hidden *h = &k->hidden[k->nhidden++];
            h->kind = rt_hidden_lookup(a->value_kind);
            h->offset = a->offset;
            h->size = a->size;
            continue;
        }
        rdx_kernel_arg *o = &k->args[k->nargs++];
        const char *src[3] = { a->name ? a->name : "", a->type_name ? a->type_name : "",
                               a->value_kind };
        const char **dst[3] = { &o->name, &o->type_name, &o->value_kind };
        for (int j = 0; j < 3; j++) {
            size_t n = strlen(src[j]) + 1;
            memcpy(s, src[j], n);
            *dst[j] = s;
            s += n;
        }
        o->kind = !strcmp(a->value_kind, "global_buffer") ? RDX_ARG_BUFFER : RDX_ARG_VALUE;
        o->offset = a->offset;
        o->size = a->size;
    }
    return RDX_OK;
}

static rdx_status kernel_init(rdx_kernel *k, rdx_program *prog, const rdx_codeobj_kernel *ck,
                              unsigned major, uint64_t entry)
{
    k->prog = prog;
    k->name = strdup(ck->name);
    if (!k->name)
        return rdx_fail(RDX_ERR_NOMEM, "loading kernels: out of memory");
    if (entry & 255)
        return rdx_fail(RDX_ERR_UNSUPPORTED,
                        "kernel %s: entry point not 256-byte aligned (COMPUTE_PGM_LO holds "
                        "address >> 8)",
                        k->name);
    uint8_t kd[RDX_KERNEL_DESCRIPTOR_SIZE];
    rdx_status st = rdx_codeobj_kd_pack(&ck->kd, major, kd);
    if (st)
        return rdx_fail_context(st, "kernel %s", k->name);
    k->code_addr = entry;
    k->rsrc3 = (uint32_t)rd(kd + 44, 4);
    k->rsrc1 = (uint32_t)rd(kd + 48, 4);
    k->rsrc2 = (uint32_t)rd(kd + 52, 4);
    k->props = (uint32_t)rd(kd + 56, 2);
    k->wave32 = ck->kd.enable_wavefront_size32 != 0;
    k->user_sgprs = ck->kd.user_sgpr_count;
    k->lds_bytes = ck->kd.group_segment_fixed_size;
    k->scratch_per_item = ck->kd.private_segment_fixed_size;
    k->kernarg_size = ck->kd.kernarg_size;
    k->kernarg_align =
        ck->has_meta && ck->meta.kernarg_segment_align ? ck->meta.kernarg_segment_align : 16;
    if (k->kernarg_align < 16)
        k->kernarg_align = 16;
    if (ck->has_meta && ck->meta.kernarg_segment_size > k->kernarg_size)
        k->kernarg_size = ck->meta.kernarg_segment_size;
    if (ck->has_meta) { /* the launch shapes the code was compiled for */
        k->max_flat_wg = ck->meta.max_flat_workgroup_size;
        memcpy(k->reqd_wg, ck->meta.reqd_workgroup_size, sizeof k->reqd_wg);
    }
    if (k->user_sgprs > 16)
        return rdx_fail(RDX_ERR_UNSUPPORTED, "kernel %s: %u user SGPRs (at most 16)", k->name,
                        k->user_sgprs);
    return kernel_args(k, ck);
}

static void program_release(rdx_program *p)
{
    for (size_t i = 0; i < p->nkernels; i++) {
        free(p->kernels[i].name);
        free(p->kernels[i].args);
        free(p->kernels[i].hidden);
        free(p->kernels[i].strings);
    }
    free(p->kernels);
    rt_heap_free_or_warn(p->dev, RT_HEAP_CODE, &p->code);
    free(p);
}

static rdx_status load(rdx_device *dev, const rdx_codeobj *co, const uint8_t *elf, size_t len,
                       const char *what, rdx_program *p)
{
    const char *target = co->target ? co->target->name : "?";
    if (strcmp(target, dev->info.target))
        return rdx_fail(RDX_ERR_UNSUPPORTED, "%s: code object for %s, the device is a %s", what,
                        target, dev->info.target);
    image im = { 0, co->text_size };
    if (co->relocatable) {
        for (size_t i = 0; i < co->num_relocs; i++)
            if (starts(co->relocs[i].section, ".text"))
                return rdx_fail(RDX_ERR_UNSUPPORTED,
                                "%s: relocation of %s+0x%llx against '%s' (link the object with "
                                "ld.lld first)",
                                what, co->relocs[i].section,
                                (unsigned long long)co->relocs[i].offset, co->relocs[i].symbol);
    } else {
        rdx_status st = span(elf, len, what, &im);
        if (st)
            return st;
    }
    /* RT_CODE_TAIL zeroed bytes after the image: the instruction prefetch reads up to
       3 cache lines of 128 bytes past the last instruction (clang pads .text with
       s_code_end for it; rdx's writer and llvm-mc objects do not), which must stay in
       mapped memory */
    rdx_status st =
        rt_heap_alloc(dev, RT_HEAP_CODE, (im.hi - im.lo) + RT_CODE_TAIL, 4096, &p->code);
    if (st)
        return st;
    uint8_t *dst = p->code.cpu;
    memset(dst, 0, p->code.size);
    uint64_t text_addr = p->code.addr;
    if (co->relocatable) {
        memcpy(dst, co->text, co->text_size);
    } else {
        st = load_segments(elf, len, what, &im, dst, p->code.addr);
        if (st)
            return st;
        text_addr = p->code.addr + (co->text_addr - im.lo);
    }
    p->kernels = calloc(co->num_kernels ? co->num_kernels : 1, sizeof *p->kernels);
    if (!p->kernels)
        return rdx_fail(RDX_ERR_NOMEM, "%s: out of memory", what);
    unsigned major = co->target->major;
    for (size_t i = 0; i < co->num_kernels; i++) {
        p->nkernels = i + 1;
        st = kernel_init(&p->kernels[i], p, &co->kernels[i], major,
                         text_addr + co->kernels[i].code_offset);
        if (st)
            return rdx_fail_context(st, "%s", what);
    }
    __atomic_thread_fence(__ATOMIC_RELEASE);
    return RDX_OK;
}

rdx_status rdx_program_load(rdx_device *dev, const void *elf, size_t len, const char *what,
                            rdx_program **out)
{
    *out = NULL;
    if (!what)
        what = "<memory>";
    rdx_codeobj *co;
    rdx_status st = rdx_codeobj_read(elf, len, what, &co);
    if (st)
        return st;
    rdx_program *p = calloc(1, sizeof *p);
    if (!p) {
        rdx_codeobj_free(co);
        return rdx_fail(RDX_ERR_NOMEM, "%s: out of memory", what);
    }
    p->dev = dev;
    rt_list_init(&p->link);
    st = load(dev, co, elf, len, what, p);
    rdx_codeobj_free(co);
    if (st) {
        program_release(p);
        return st;
    }
    pthread_mutex_lock(&dev->lock);
    rt_list_add(&dev->programs, &p->link);
    dev->counts.programs++;
    pthread_mutex_unlock(&dev->lock);
    *out = p;
    return RDX_OK;
}

rdx_status rdx_program_load_file(rdx_device *dev, const char *path, rdx_program **out)
{
    *out = NULL;
    uint8_t *data;
    size_t len;
    rdx_status st = rdx_file_read(path, &data, &len);
    if (st)
        return st;
    st = rdx_program_load(dev, data, len, path, out);
    free(data);
    return st;
}

void rdx_program_free(rdx_program *p)
{
    if (!p)
        return;
    rdx_device *dev = p->dev;
    pthread_mutex_lock(&dev->lock);
    rt_list_del(&p->link);
    dev->counts.programs--;
    pthread_mutex_unlock(&dev->lock);
    program_release(p);
}

size_t rdx_program_kernel_count(const rdx_program *p)
{
    return p->nkernels;
}

const rdx_kernel *rdx_program_kernel_at(const rdx_program *p, size_t i)
{
    return i < p->nkernels ? &p->kernels[i] : NULL;
}

rdx_status rdx_program_find(const rdx_program *p, const char *name, const rdx_kernel **out)
{
    *out = NULL;
    for (size_t i = 0; i < p->nkernels; i++)
        if (!strcmp(p->kernels[i].name, name)) {
            *out = &p->kernels[i];
            return RDX_OK;
        }
    char list[512] = "";
    size_t n = 0;
    for (size_t i = 0; i < p->nkernels && n + 2 < sizeof list; i++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", p->kernels[i].name);
    return rdx_fail(RDX_ERR_NOT_FOUND, "no kernel '%s' in the program (it has: %s)", name,
                    p->nkernels ? list : "no kernels");
}

const char *rdx_kernel_name(const rdx_kernel *k)
{
    return k->name;
}

uint32_t rdx_kernel_arg_count(const rdx_kernel *k)
{
    return k->nargs;
}

const rdx_kernel_arg *rdx_kernel_arg_at(const rdx_kernel *k, uint32_t i)
{
    return i < k->nargs ? &k->args[i] : NULL;
}

bool rdx_kernel_has_metadata(const rdx_kernel *k)
{
    return k->has_meta;
}

uint32_t rdx_kernel_wave_size(const rdx_kernel *k)
{
    return k->wave32 ? 32 : 64;
}

uint32_t rdx_kernel_lds_bytes(const rdx_kernel *k)
{
    return k->lds_bytes;
}

uint32_t rdx_kernel_scratch_bytes(const rdx_kernel *k)
{
    return k->scratch_per_item;
}
