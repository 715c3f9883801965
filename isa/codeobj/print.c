/* isa/codeobj/print.c — human-readable dumps of code objects (`rdx readelf`). */
#include <inttypes.h>
#include <stdbool.h>

#include <rdx/codeobj.h>

#include "isa/codeobj/elfdefs.h"
#include "isa/codeobj/msgpack.h"

static const char *reloc_name(uint32_t type)
{
    switch (type) {
#define X(name, value) \
    case value:        \
        return "R_AMDGPU_" #name;
        RDX_R_AMDGPU_LIST(X)
#undef X
    }
    return "R_AMDGPU_(unknown)";
}

static const char *word_name(rdx_kd_word w)
{
    switch (w) {
    case RDX_KD_WORD_RSRC1:
        return "compute_pgm_rsrc1";
    case RDX_KD_WORD_RSRC2:
        return "compute_pgm_rsrc2";
    case RDX_KD_WORD_RSRC3:
        return "compute_pgm_rsrc3";
    case RDX_KD_WORD_PROPERTIES:
        return "kernel_code_properties";
    case RDX_KD_WORD_PRELOAD:
        return "kernarg_preload";
    }
    return "?";
}

static bool any_nonzero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return true;
    return false;
}

void rdx_codeobj_print_kd(FILE *f, const rdx_kernel_descriptor *kd, unsigned major,
                          const char *indent)
{
    fprintf(f, "%sgroup_segment_fixed_size %" PRIu32 "\n", indent, kd->group_segment_fixed_size);
    fprintf(f, "%sprivate_segment_fixed_size %" PRIu32 "\n", indent,
            kd->private_segment_fixed_size);
    fprintf(f, "%skernarg_size %" PRIu32 "\n", indent, kd->kernarg_size);
    fprintf(f, "%skernel_code_entry_byte_offset %" PRId64 "\n", indent,
            kd->kernel_code_entry_byte_offset);
    static const rdx_kd_word order[] = { RDX_KD_WORD_RSRC1, RDX_KD_WORD_RSRC2, RDX_KD_WORD_RSRC3,
                                         RDX_KD_WORD_PROPERTIES, RDX_KD_WORD_PRELOAD };
    for (size_t w = 0; w < sizeof order / sizeof order[0]; w++) {
        for (size_t i = 0; i < rdx_codeobj_kd_field_count(); i++) {
            const rdx_kd_field *fl = rdx_codeobj_kd_field_at(i);
            if (fl->word != order[w] || major < fl->min_major || major > fl->max_major)
                continue;
            fprintf(f, "%s%s.%s %" PRIu32 "\n", indent, word_name(fl->word), fl->name,
                    rdx_codeobj_kd_get(kd, fl));
        }
    }
    if (kd->rsrc1_reserved)
        fprintf(f, "%scompute_pgm_rsrc1 reserved bits 0x%08" PRIx32 "\n", indent,
                kd->rsrc1_reserved);
    if (kd->rsrc2_reserved)
        fprintf(f, "%scompute_pgm_rsrc2 reserved bits 0x%08" PRIx32 "\n", indent,
                kd->rsrc2_reserved);
    if (kd->rsrc3_reserved)
        fprintf(f, "%scompute_pgm_rsrc3 reserved bits 0x%08" PRIx32 "\n", indent,
                kd->rsrc3_reserved);
    if (kd->kernel_code_properties_reserved)
        fprintf(f, "%skernel_code_properties reserved bits 0x%04" PRIx32 "\n", indent,
                kd->kernel_code_properties_reserved);
    if (any_nonzero(kd->reserved0, sizeof kd->reserved0) ||
        any_nonzero(kd->reserved1, sizeof kd->reserved1) ||
        any_nonzero(kd->reserved3, sizeof kd->reserved3))
        fprintf(f, "%s(reserved descriptor bytes are not zero)\n", indent);
}

void rdx_codeobj_print_metadata(FILE *f, const rdx_codeobj *co)
{
    if (!co->meta_doc) {
        fprintf(f, "(no NT_AMDGPU_METADATA note)\n");
        return;
    }
    fprintf(f, "---\n");
    rdx_msgpack_print_yaml(f, co->meta_doc, 0);
    fprintf(f, "...\n");
}

void rdx_codeobj_print(FILE *f, const rdx_codeobj *co)
{
    fprintf(f, "ELF: %s, code object v%u (EI_ABIVERSION %u), e_flags 0x%" PRIx32 "\n",
            co->relocatable ? "ET_REL (relocatable)" : "ET_DYN (shared object)", co->version,
            co->abi_version, co->e_flags);
    fprintf(f, "Target: %s (EF_AMDGPU_MACH 0x%02" PRIx32 ")\n", co->target->name, co->target->mach);
    if (co->meta_target)
        fprintf(f, "Metadata target: %s\n", co->meta_target);
    if (co->meta_doc)
        fprintf(f, "Metadata version: %" PRIu32 ".%" PRIu32 "\n", co->meta_version[0],
                co->meta_version[1]);
    if (co->text)
        fprintf(f, ".text: address 0x%" PRIx64 ", %zu bytes\n", co->text_addr, co->text_size);
    else
        fprintf(f, ".text: none\n");
    fprintf(f, "Kernels: %zu\n", co->num_kernels);
    for (size_t i = 0; i < co->num_kernels; i++) {
        const rdx_codeobj_kernel *k = &co->kernels[i];
        fprintf(f, "\nKernel %s\n", k->name);
        fprintf(f, "  code offset 0x%" PRIx64 " (address 0x%" PRIx64 "), %" PRIu64 " bytes\n",
                k->code_offset, co->text_addr + k->code_offset, k->code_size);
        if (k->has_meta) {
            const rdx_codeobj_kernel_meta *m = &k->meta;
            fprintf(f,
                    "  metadata: %zu args, kernarg %" PRIu32 " bytes (align %" PRIu32
                    "), wave%" PRIu32 ", %" PRIu32 " SGPRs, %" PRIu32 " VGPRs, LDS %" PRIu32
                    ", scratch %" PRIu32 ", max workgroup %" PRIu32 "\n",
                    m->num_args, m->kernarg_segment_size, m->kernarg_segment_align,
                    m->wavefront_size, m->sgpr_count, m->vgpr_count, m->group_segment_fixed_size,
                    m->private_segment_fixed_size, m->max_flat_workgroup_size);
        } else {
            fprintf(f, "  metadata: none\n");
        }
        fprintf(f, "  descriptor:\n");
        rdx_codeobj_print_kd(f, &k->kd, co->target->major, "    ");
    }
    if (co->num_relocs) {
        fprintf(f, "\nRelocations: %zu\n", co->num_relocs);
        for (size_t i = 0; i < co->num_relocs; i++) {
            const rdx_codeobj_reloc *r = &co->relocs[i];
            fprintf(f, "  %s+0x%" PRIx64 " %s %s%+" PRId64 "\n", r->section, r->offset,
                    reloc_name(r->type), r->symbol[0] ? r->symbol : "(none)", r->addend);
        }
    }
    fprintf(f, "\nMetadata:\n");
    rdx_codeobj_print_metadata(f, co);
}
