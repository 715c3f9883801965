/*
 * isa/asm/listing.c — disassembly listings: raw code and whole code objects,
 * written so that `rdx as` (and llvm-mc) can assemble them again: the code
 * with kernel labels, each descriptor as an .amdhsa_kernel block, and the
 * metadata as an .amdgpu_metadata block.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rdx/asm.h>
#include <rdx/codeobj.h>
#include <rdx/isa.h>

#include "util/error.h"

void rdx_asm_disassemble(FILE *f, const rdx_isa_target *t, const uint8_t *code, size_t n,
                         uint64_t base, const char *const *labels, const uint64_t *label_offsets,
                         size_t nlabels, unsigned flags)
{
    size_t off = 0;
    char text[512];
    while (off < n) {
        for (size_t i = 0; i < nlabels; i++)
            if (label_offsets[i] == off) {
                /* Kernel entries are 256-byte aligned; say so, so that a listing
                   whose literals re-assemble shorter keeps them aligned. */
                fprintf(f, "%s%s%s:\n", off ? "\n" : "", off % 256 == 0 ? "\t.p2align 8\n" : "",
                        labels[i]);
            }
        rdx_isa_inst in;
        size_t len = 0;
        size_t tl = 0;
        bool decoded = false;
        if (rdx_isa_decode(t, code + off, n - off, &in, &len) == RDX_OK &&
            rdx_asm_print_inst(t, &in, text, sizeof text) == RDX_OK) {
            fputc('\t', f);
            fputs(text, f);
            tl = strlen(text);
            decoded = true;
        } else if (n - off >= 4) {
            len = 4;
            uint32_t w = (uint32_t)code[off] | (uint32_t)code[off + 1] << 8 |
                         (uint32_t)code[off + 2] << 16 | (uint32_t)code[off + 3] << 24;
            tl = (size_t)fprintf(f, "\t.long 0x%08x ; invalid instruction encoding", w) - 1;
        } else {
            len = 1;
            tl = (size_t)fprintf(f, "\t.byte 0x%02x ; trailing byte", code[off]) - 1;
        }
        if (!(flags & RDX_ASM_DIS_NO_ADDR)) {
            /* llvm-objdump's layout: the comment at column 59 after the tab. */
            for (; tl < 59; tl++)
                fputc(' ', f);
            fprintf(f, "// %012llX:", (unsigned long long)(base + off));
            for (size_t k = 0; k + 4 <= len; k += 4) {
                uint32_t w = 0;
                for (size_t b = 0; b < 4; b++)
                    w |= (uint32_t)code[off + k + b] << (8 * b);
                fprintf(f, " %08X", w);
            }
            /* Branch targets as <symbol+0xoffset>. */
            for (unsigned i = 0; decoded && i < in.nopnd; i++) {
                if (in.opnd[i].kind != RDX_ISA_OPND_BRANCH)
                    continue;
                int64_t target = (int64_t)off + 4 + 4 * (int64_t)(int16_t)in.opnd[i].value;
                const char *sym = NULL;
                uint64_t at = 0;
                for (size_t l = 0; l < nlabels; l++)
                    if ((int64_t)label_offsets[l] <= target && (!sym || label_offsets[l] >= at)) {
                        sym = labels[l];
                        at = label_offsets[l];
                    }
                if (sym && target >= 0 && (uint64_t)target < n)
                    fprintf(f, " <%s+0x%llx>", sym, (unsigned long long)((uint64_t)target - at));
            }
        }
        fputc('\n', f);
        off += len;
    }
}

/* One descriptor as the .amdhsa_kernel block that assembles back to it. */
static void print_kd_block(FILE *f, const char *name, const rdx_kernel_descriptor *kd,
                           unsigned major)
{
    fprintf(f, "\t.amdhsa_kernel %s\n", name);
#define D(dir, val) fprintf(f, "\t\t.amdhsa_%s %u\n", dir, (unsigned)(val))
    D("group_segment_fixed_size", kd->group_segment_fixed_size);
    D("private_segment_fixed_size", kd->private_segment_fixed_size);
    D("kernarg_size", kd->kernarg_size);
    D("user_sgpr_count", kd->user_sgpr_count);
    D("user_sgpr_dispatch_ptr", kd->enable_sgpr_dispatch_ptr);
    D("user_sgpr_queue_ptr", kd->enable_sgpr_queue_ptr);
    D("user_sgpr_kernarg_segment_ptr", kd->enable_sgpr_kernarg_segment_ptr);
    D("user_sgpr_dispatch_id", kd->enable_sgpr_dispatch_id);
    D("user_sgpr_private_segment_size", kd->enable_sgpr_private_segment_size);
    D("wavefront_size32", kd->enable_wavefront_size32);
    D("uses_dynamic_stack", kd->uses_dynamic_stack);
    D("enable_private_segment", kd->enable_private_segment);
    D("system_sgpr_workgroup_id_x", kd->enable_sgpr_workgroup_id_x);
    D("system_sgpr_workgroup_id_y", kd->enable_sgpr_workgroup_id_y);
    D("system_sgpr_workgroup_id_z", kd->enable_sgpr_workgroup_id_z);
    D("system_sgpr_workgroup_info", kd->enable_sgpr_workgroup_info);
    D("system_vgpr_workitem_id", kd->enable_vgpr_workitem_id);
    D("next_free_vgpr",
      (kd->granulated_workitem_vgpr_count + 1) * (kd->enable_wavefront_size32 ? 8 : 4));
    D("next_free_sgpr", 0);
    D("float_round_mode_32", kd->float_round_mode_32);
    D("float_round_mode_16_64", kd->float_round_mode_16_64);
    D("float_denorm_mode_32", kd->float_denorm_mode_32);
    D("float_denorm_mode_16_64", kd->float_denorm_mode_16_64);
    if (major < 12) {
        D("dx10_clamp", kd->enable_dx10_clamp);
        D("ieee_mode", kd->enable_ieee_mode);
        D("shared_vgpr_count", kd->shared_vgpr_count);
    } else {
        D("round_robin_scheduling", kd->enable_wg_rr_en);
    }
    D("fp16_overflow", kd->fp16_ovfl);
    D("workgroup_processor_mode", kd->wgp_mode);
    D("memory_ordered", kd->mem_ordered);
    D("forward_progress", kd->fwd_progress);
    D("exception_fp_ieee_invalid_op", kd->enable_exception_fp_invalid_operation);
    D("exception_fp_denorm_src", kd->enable_exception_fp_denormal_source);
    D("exception_fp_ieee_div_zero", kd->enable_exception_fp_division_by_zero);
    D("exception_fp_ieee_overflow", kd->enable_exception_fp_overflow);
    D("exception_fp_ieee_underflow", kd->enable_exception_fp_underflow);
    D("exception_fp_ieee_inexact", kd->enable_exception_fp_inexact);
    D("exception_int_div_zero", kd->enable_exception_int_divide_by_zero);
#undef D
    fprintf(f, "\t.end_amdhsa_kernel\n");
}

rdx_status rdx_asm_disassemble_codeobj(FILE *f, const rdx_codeobj *co, const char *what,
                                       unsigned flags)
{
    const rdx_isa_target *t = rdx_isa_target_find(co->target->name);
    if (!t)
        return rdx_fail(RDX_ERR_UNSUPPORTED, "%s: no instruction tables for %s",
                        what ? what : "<code object>", co->target->name);
    const char *labels[64];
    uint64_t offs[64];
    size_t nl = co->num_kernels < 64 ? co->num_kernels : 64;
    for (size_t i = 0; i < nl; i++) {
        labels[i] = co->kernels[i].name;
        offs[i] = co->kernels[i].code_offset;
    }
    fprintf(f, "; %s: code object v%u, target %s, %zu kernel%s\n", what ? what : "<code object>",
            co->version, co->target->name, co->num_kernels, co->num_kernels == 1 ? "" : "s");
    fprintf(f, "\t.amdgcn_target \"amdgcn-amd-amdhsa--%s\"\n", co->target->name);
    if (co->version == 4 || co->version == 5 || co->version == 6)
        fprintf(f, "\t.amdhsa_code_object_version %u\n", co->version);
    fprintf(f, "\t.text\n");
    for (size_t i = 0; i < nl; i++)
        fprintf(f, "\t.globl %s\n\t.type %s,@function\n", labels[i], labels[i]);
    rdx_asm_disassemble(f, t, co->text, co->text_size, co->relocatable ? 0 : co->text_addr, labels,
                        offs, nl, flags);
    if (co->num_kernels) {
        fprintf(f, "\n\t.rodata\n");
        for (size_t i = 0; i < co->num_kernels; i++) {
            const rdx_codeobj_kernel *k = &co->kernels[i];
            fprintf(f, "\t.p2align 6\n");
            if (!(flags & RDX_ASM_DIS_NO_DESCRIPTOR_COMMENTS)) {
                fprintf(f, "; descriptor of %s, every field:\n", k->name);
                rdx_codeobj_print_kd(f, &k->kd, co->target->major, ";   ");
            }
            print_kd_block(f, k->name, &k->kd, co->target->major);
        }
    }
    if (co->meta_doc) {
        fprintf(f, "\n\t.amdgpu_metadata\n");
        rdx_codeobj_print_metadata(f, co);
        fprintf(f, "\t.end_amdgpu_metadata\n");
    }
    return RDX_OK;
}
