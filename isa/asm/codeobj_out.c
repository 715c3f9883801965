/* isa/asm/codeobj_out.c — rdx_asm_write_codeobj: an assembled file as an HSA code object. */
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>
#include <rdx/codeobj.h>

#include "isa/asm/yaml.h"
#include "util/error.h"

rdx_status rdx_asm_write_codeobj(const rdx_asm_result *r, uint8_t **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    if (r->ndiags)
        return rdx_fail(RDX_ERR_INVALID, "cannot write a code object from a file with errors");
    const rdx_codeobj_target *tg = rdx_codeobj_target_find(r->arch);
    if (!tg)
        return rdx_fail(RDX_ERR_INVALID, "no code-object target for %s", r->arch);
    int text = rdx_asm_find_section(r, ".text");
    rdx_codeobj_kernel *ks = calloc(r->nkernels ? r->nkernels : 1, sizeof *ks);
    if (!ks)
        return rdx_fail(RDX_ERR_NOMEM, "out of memory building a code object");
    rdx_status st = RDX_OK;
    for (size_t i = 0; i < r->nkernels && st == RDX_OK; i++) {
        const rdx_asm_kernel *k = &r->kernels[i];
        const rdx_asm_symbol *sym = NULL;
        for (size_t j = 0; j < r->nsymbols; j++)
            if (!strcmp(r->symbols[j].name, k->name))
                sym = &r->symbols[j];
        if (!sym || sym->section != text || text < 0) {
            st = rdx_fail(RDX_ERR_INVALID, "kernel '%s' (line %u) has no label in .text", k->name,
                          k->line);
            break;
        }
        rdx_codeobj_kernel *o = &ks[i];
        o->name = k->name;
        o->code_offset = (uint64_t)sym->value;
        o->code_size = sym->size;
        st = rdx_codeobj_kd_unpack(k->descriptor, tg->major, &o->kd);
        rdx_codeobj_kernel_meta_init(&o->meta);
        o->meta.group_segment_fixed_size = k->group_segment_fixed_size;
        o->meta.private_segment_fixed_size = k->private_segment_fixed_size;
        o->meta.kernarg_segment_size = k->kernarg_size;
        o->meta.kernarg_segment_align = 8;
        o->meta.wavefront_size = k->wavefront_size32 ? 32 : 64;
        o->meta.sgpr_count = k->next_free_sgpr;
        o->meta.vgpr_count = k->next_free_vgpr;
        o->meta.max_flat_workgroup_size = 1024;
    }
    if (st == RDX_OK) {
        rdx_codeobj_image img;
        memset(&img, 0, sizeof img);
        img.target = r->arch;
        img.version = r->code_object_version == 4 ? 4 : 5;
        img.code = text >= 0 ? r->sections[text].data : NULL;
        img.code_size = text >= 0 ? r->sections[text].size : 0;
        img.kernels = ks;
        img.num_kernels = r->nkernels;
        uint8_t *md = NULL;
        size_t mdlen = 0;
        if (r->metadata)
            st = rdx_asm_yaml_to_msgpack(r->metadata, strlen(r->metadata), r->filename,
                                         r->metadata_line, &md, &mdlen);
        img.metadata = md;
        img.metadata_size = mdlen;
        if (st == RDX_OK)
            st = rdx_codeobj_write(&img, out, len);
        free(md);
    }
    free(ks);
    return st;
}
