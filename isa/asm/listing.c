/*
 * isa/asm/listing.c — disassembly listings: raw code and whole code objects,
 * written so that `rdx as` (and llvm-mc) can assemble them again: the code
 * with kernel labels, each descriptor as an .amdhsa_kernel block, and the
 * metadata as an .amdgpu_metadata block.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>
#include <rdx/codeobj.h>
#include <rdx/isa.h>

#include "isa/asm/syntax.h"
#include "util/error.h"

/* The listing is built in a large buffer written with one fwrite per 64 KiB:
   per-line stdio calls would cost as much as decoding. */
typedef struct lbuf {
    FILE *f;
    size_t len;
    char b[1 << 16];
} lbuf;

/* Room for one line: an instruction's text, its address and words, a label. */
#define LINE_ROOM 2048

static void lb_flush(lbuf *o)
{
    if (o->len)
        fwrite(o->b, 1, o->len, o->f);
    o->len = 0;
}

static void lb_reserve(lbuf *o, size_t n)
{
    if (o->len + n > sizeof o->b)
        lb_flush(o);
}

static void lb_put(lbuf *o, const char *s, size_t n)
{
    if (n > sizeof o->b / 2) {
        lb_flush(o);
        fwrite(s, 1, n, o->f);
        return;
    }
    lb_reserve(o, n);
    memcpy(o->b + o->len, s, n);
    o->len += n;
}

static void lb_str(lbuf *o, const char *s)
{
    lb_put(o, s, strlen(s));
}

/* `digits` hex digits of v (upper case, as llvm-objdump writes words). */
static void lb_hex(lbuf *o, uint64_t v, unsigned digits)
{
    lb_reserve(o, digits);
    for (unsigned i = digits; i-- > 0; v >>= 4)
        o->b[o->len + i] = "0123456789ABCDEF"[v & 15];
    o->len += digits;
}

static void lb_hexl(lbuf *o, uint64_t v)
{
    char tmp[16];
    unsigned n = sizeof tmp;
    do {
        tmp[--n] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    lb_put(o, tmp + n, sizeof tmp - n);
}

void rdx_asm_disassemble(FILE *f, const rdx_isa_target *t, const uint8_t *code, size_t n,
                         uint64_t base, const char *const *labels, const uint64_t *label_offsets,
                         size_t nlabels, unsigned flags)
{
    lbuf *o = malloc(sizeof *o);
    if (!o) {
        fputs("; out of memory\n", f);
        return;
    }
    o->f = f;
    o->len = 0;
    size_t off = 0;
    while (off < n) {
        for (size_t i = 0; i < nlabels; i++)
            if (label_offsets[i] == off) {
                /* Kernel entries are 256-byte aligned; say so, so that a listing
                   whose literals re-assemble shorter keeps them aligned. */
                if (off)
                    lb_put(o, "\n", 1);
                if (off % 256 == 0)
                    lb_str(o, "\t.p2align 8\n");
                lb_str(o, labels[i]);
                lb_put(o, ":\n", 2);
            }
        rdx_isa_inst in;
        size_t len = 0;
        size_t tl = 0;
        bool decoded = false;
        lb_reserve(o, LINE_ROOM);
        char *text = o->b + o->len + 1;
        if (rdx_isa_decode(t, code + off, n - off, &in, &len) == RDX_OK &&
            rdx_syntax_print_inst(t, &in, text, 512, &tl) == RDX_OK) {
            o->b[o->len] = '\t';
            o->len += 1 + tl;
            decoded = true;
        } else if (n - off >= 4) {
            len = 4;
            uint32_t w = (uint32_t)code[off] | (uint32_t)code[off + 1] << 8 |
                         (uint32_t)code[off + 2] << 16 | (uint32_t)code[off + 3] << 24;
            static const char pre[] = "\t.long 0x", post[] = " ; invalid instruction encoding";
            lb_put(o, pre, sizeof pre - 1);
            for (int i = 7; i >= 0; i--)
                o->b[o->len++] = "0123456789abcdef"[(w >> (4 * i)) & 15];
            lb_put(o, post, sizeof post - 1);
            tl = sizeof pre - 2 + 8 + sizeof post - 1;
        } else {
            len = 1;
            static const char pre[] = "\t.byte 0x", post[] = " ; trailing byte";
            lb_put(o, pre, sizeof pre - 1);
            o->b[o->len++] = "0123456789abcdef"[code[off] >> 4];
            o->b[o->len++] = "0123456789abcdef"[code[off] & 15];
            lb_put(o, post, sizeof post - 1);
            tl = sizeof pre - 2 + 2 + sizeof post - 1;
        }
        if (!(flags & RDX_ASM_DIS_NO_ADDR)) {
            /* llvm-objdump's layout: the comment at column 59 after the tab. */
            if (tl < 59) {
                memset(o->b + o->len, ' ', 59 - tl);
                o->len += 59 - tl;
            }
            lb_put(o, "// ", 3);
            lb_hex(o, base + off, 12);
            lb_put(o, ":", 1);
            for (size_t k = 0; k + 4 <= len; k += 4) {
                uint32_t w = 0;
                for (size_t b = 0; b < 4; b++)
                    w |= (uint32_t)code[off + k + b] << (8 * b);
                lb_put(o, " ", 1);
                lb_hex(o, w, 8);
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
                if (sym && target >= 0 && (uint64_t)target < n) {
                    lb_put(o, " <", 2);
                    lb_str(o, sym);
                    lb_put(o, "+0x", 3);
                    lb_hexl(o, (uint64_t)target - at);
                    lb_put(o, ">", 1);
                }
            }
        }
        lb_put(o, "\n", 1);
        off += len;
    }
    lb_flush(o);
    free(o);
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
