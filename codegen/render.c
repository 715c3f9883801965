/*
 * codegen/render.c — encoding through isa/ (the program's target) with branch offsets
 * resolved, the kernel descriptor and the metadata, written as a code object
 * by isa/codeobj's writer.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codeobj.h>

#include "codegen/cg.h"
#include "util/error.h"

/* Encode x and check every operand rule of the hardware (isa/isa_check.c; VGPR numbers
   are register numbers here): a kernel that breaks one is a code generator bug, reported
   at compile time instead of run wrongly. */
static rdx_status enc_checked(const cg_prog *p, const rdx_isa_inst *x0, uint8_t *out, size_t *len)
{
    rdx_isa_inst t = *x0; /* the target's spelling of the op (gfx12 renames) */
    cg_target_inst(p->tgt, &t);
    return rdx_isa_encode_checked(p->tgt, &t, RDX_ISA_CHECK_VGPR_NUMBERS, out, len);
}

static rdx_status enc(const cg_prog *p, const cg_inst *in, int32_t branch, uint8_t *out,
                      size_t *len)
{
    const rdx_isa_inst *xp = &in->in;
    rdx_isa_inst bx; /* a branch with its offset (other instructions are encoded in place) */
    if (in->flags & CG_F_BRANCH) {
        bx = in->in;
        for (int k = 0; k < bx.nopnd; k++)
            if (bx.opnd[k].kind == RDX_ISA_OPND_BRANCH)
                bx.opnd[k].value = branch;
        xp = &bx;
    }
    const rdx_isa_inst *x = xp;
    /* VOP1/VOP2 built as VOP3 take the 4-byte-shorter e32 encoding when it can
       say the same (no modifiers, src1 a VGPR, no SGPR carry or mask): the
       encoder is the judge, a rejected e32 stays e64 */
    const rdx_isa_form_info *fi;
    if (x->form == RDX_ISA_FORM_E64 &&
        (fi = cg_form(p->tgt, (rdx_isa_op)x->op, RDX_ISA_FORM_AUTO)) != NULL &&
        (fi->enc == RDX_ISA_ENC_VOP1 || fi->enc == RDX_ISA_ENC_VOP2)) {
        static const int32_t no_mods[RDX_ISA_MOD_COUNT];
        int mods = memcmp(x->mod, no_mods, sizeof no_mods) != 0;
        /* 16-bit VGPR operands of e32 forms are true16 on gfx11: v128..v255 name the high
           halves of v0..v127, so a VGPR >= 128 there keeps the e64 form */
        for (int k = 0; k < x->nopnd && k < fi->nopnd; k++)
            mods |= fi->opnd[k].bits == 16 && x->opnd[k].kind == RDX_ISA_OPND_VGPR &&
                    x->opnd[k].reg >= 128;
        /* an operand kind the e32 slot does not accept (a literal or SGPR as src1, an SGPR
           mask): rejected for sure, so not tried (the encoder would format a message) */
        const rdx_isa_form_info *f32;
        if (!mods && (f32 = cg_form(p->tgt, (rdx_isa_op)x->op, RDX_ISA_FORM_E32)) != NULL &&
            f32->nopnd == x->nopnd)
            for (int k = 0; k < x->nopnd; k++)
                mods |= x->opnd[k].kind >= RDX_ISA_OPND_KIND_COUNT ||
                        !(f32->opnd[k].kinds & RDX_ISA_KIND_BIT(x->opnd[k].kind));
        if (!mods) {
            rdx_isa_inst y = *x;
            y.form = RDX_ISA_FORM_E32;
            if (!enc_checked(p, &y, out, len))
                return RDX_OK;
        }
    }
    rdx_status st = enc_checked(p, x, out, len);
    if (st)
        return rdx_fail_context(st, "render: %s", rdx_isa_op_name((rdx_isa_op)x->op));
    return RDX_OK;
}

rdx_status cg_encode(const cg_prog *p, uint8_t **code, size_t *len)
{
    size_t total = 0, ninst = 0;
    for (size_t b = 0; b < p->nblocks; b++)
        ninst += p->blocks[b].n;
    uint32_t *off = malloc((ninst + 1) * sizeof *off);
    uint32_t *boff = malloc((p->nblocks + 1) * sizeof *boff);
    uint8_t *buf = malloc(ninst * RDX_ISA_MAX_BYTES + 4);
    rdx_status st = RDX_OK;
    if (!off || !boff || !buf) {
        st = rdx_fail(RDX_ERR_NOMEM, "render: out of memory");
        goto fail;
    }
    /* pass 1: every instruction encoded in place (branch immediates do not change the
       sizes: a branch is encoded with offset 0 here and again in pass 2) */
    size_t k = 0;
    for (size_t b = 0; b < p->nblocks; b++) {
        boff[b] = (uint32_t)total;
        for (size_t i = 0; i < p->blocks[b].n; i++, k++) {
            size_t n;
            if ((st = enc(p, &p->blocks[b].insts[i], 0, buf + total, &n)))
                goto fail;
            off[k] = (uint32_t)total;
            total += n;
        }
    }
    boff[p->nblocks] = (uint32_t)total;
    /* pass 2: the branches, now that the block offsets are known */
    k = 0;
    for (size_t b = 0; b < p->nblocks; b++)
        for (size_t i = 0; i < p->blocks[b].n; i++, k++) {
            const cg_inst *in = &p->blocks[b].insts[i];
            if (in->flags & CG_F_LONGBR) { /* render_branch.c: the jump's distance */
                cg_inst y = *in;
                size_t n, n0 = (k + 1 < ninst ? off[k + 1] : boff[b + 1]) - off[k];
                uint8_t tmp[RDX_ISA_MAX_BYTES];
                y.in.opnd[2] = rdx_isa_literal((uint32_t)(boff[in->target] - off[k]));
                if ((st = enc(p, &y, 0, tmp, &n)))
                    goto fail;
                assert(n == n0);
                memcpy(buf + off[k], tmp, n);
                continue;
            }
            if (!(in->flags & CG_F_BRANCH))
                continue;
            int64_t d = ((int64_t)boff[in->target] - (int64_t)(off[k] + 4)) / 4;
            if (d < -32768 || d > 32767) {
                st = rdx_fail(RDX_ERR_RANGE, "render: branch of %lld dwords", (long long)d);
                goto fail;
            }
            size_t n;
            uint8_t tmp[RDX_ISA_MAX_BYTES];
            if ((st = enc(p, in, (int32_t)d, tmp, &n)))
                goto fail;
            memcpy(buf + off[k], tmp, n);
        }
    free(off);
    free(boff);
    *code = buf;
    *len = total;
    return RDX_OK;
fail:
    free(off);
    free(boff);
    free(buf);
    return st;
}

rdx_status cg_render(const cg_prog *p, rdx_codegen_kernel *k, const char *name, const uint8_t *code,
                     size_t code_size)
{
    const unsigned major = p->ct->major;
    rdx_codeobj_kernel ker;
    memset(&ker, 0, sizeof ker);
    ker.name = name;
    ker.code_offset = 0;
    ker.code_size = code_size;
    rdx_kernel_descriptor *kd = &ker.kd;
    rdx_codeobj_kd_init(kd, major);
    kd->group_segment_fixed_size = p->lds_size;
    /* spill slots: architected flat scratch (no user SGPRs), the private segment
       enabled and sized per work-item, as clang does for gfx11 */
    kd->private_segment_fixed_size = p->scratch_size;
    kd->enable_private_segment = p->scratch_size != 0;
    kd->kernarg_size = k->kernarg_size;
    kd->granulated_workitem_vgpr_count = rdx_codeobj_vgpr_granules(major, true, p->num_vgprs);
    kd->float_denorm_mode_32 = 3; /* keep denormals, as the IR's IEEE semantics */
    kd->float_denorm_mode_16_64 = 3;
    /* IEEE mode off: v_max/v_min return the other operand for any NaN (signalling
       ones too), the IR evaluator's fmax/fmin (gfx12 has no IEEE mode: its
       v_max_num/v_min_num always do) */
    kd->enable_ieee_mode = 0;
    kd->enable_sgpr_kernarg_segment_ptr = 1;
    kd->user_sgpr_count = cg_user_sgprs(p); /* s[0:1] kernarg, padding, workgroup ids */
    kd->enable_sgpr_workgroup_id_x = 1;
    kd->enable_sgpr_workgroup_id_y = p->wgid_enable[1];
    kd->enable_sgpr_workgroup_id_z = p->wgid_enable[2];
    kd->enable_vgpr_workitem_id = p->tid_dims > 1 ? p->tid_dims - 1 : 0;
    kd->enable_wavefront_size32 = 1;
    rdx_codeobj_arg *args = calloc(k->nargs ? k->nargs : 1, sizeof *args);
    if (!args)
        return rdx_fail(RDX_ERR_NOMEM, "render: out of memory");
    for (size_t i = 0; i < k->nargs; i++) {
        const rdx_codegen_arg *a = &k->args[i];
        args[i].name = a->kind == RDX_CG_ARG_VAR ? a->name : NULL;
        args[i].value_kind = a->kind == RDX_CG_ARG_BUFFER ? "global_buffer" : "by_value";
        args[i].address_space = a->kind == RDX_CG_ARG_BUFFER ? "global" : NULL;
        args[i].offset = a->offset;
        args[i].size = a->size;
    }
    rdx_codeobj_kernel_meta_init(&ker.meta);
    ker.meta.args = args;
    ker.meta.num_args = k->nargs;
    ker.meta.kernarg_segment_align = 8;
    ker.meta.wavefront_size = 32;
    ker.meta.sgpr_count = p->num_sgprs;
    ker.meta.vgpr_count = p->num_vgprs;
    ker.meta.sgpr_spill_count = p->spill_dwords[CG_S];
    ker.meta.vgpr_spill_count = p->spill_dwords[CG_V];
    /* the launch shape is fixed (rdx_codegen_launch): written as clang does for
       reqd_work_group_size, with the descriptor's WGP mode */
    uint32_t wg = 1;
    for (int d = 0; d < 3; d++) {
        ker.meta.reqd_workgroup_size[d] = k->dims[d].wg ? k->dims[d].wg : 1;
        wg *= ker.meta.reqd_workgroup_size[d];
    }
    ker.meta.max_flat_workgroup_size = wg;
    ker.meta.workgroup_processor_mode = (int32_t)kd->wgp_mode;
    rdx_codeobj_image img;
    memset(&img, 0, sizeof img);
    img.target = p->ct->name;
    img.version = 5;
    img.code = code;
    img.code_size = code_size;
    img.kernels = &ker;
    img.num_kernels = 1;
    rdx_status st = rdx_codeobj_write(&img, &k->code_object, &k->code_object_size);
    free(args);
    if (st)
        return rdx_fail_context(st, "render");
    return RDX_OK;
}
