/*
 * codegen/render_branch.c — branches beyond s_cbranch's reach.
 *
 * A SOPP branch holds a signed 16-bit dword offset (±128 KiB).  A kernel
 * whose loop body is larger (heavy UPCAST x UNROLL of a long body, e.g. a
 * THREEFRY per element) gets, for each branch that might not reach, the
 * inverted condition skipping an absolute jump:
 *
 *     s_cbranch_scc0 5            ; (was s_cbranch_scc1 L)
 *     s_getpc_b64 s[T:T+1]        ; the address of the next instruction
 *     s_add_u32 s[T], s[T], L - . ; the literal resolved by cg_encode (CG_F_LONGBR)
 *     s_addc_u32 s[T+1], s[T+1], 0 or -1
 *     s_sext_i32_i16 s[T+1], s[T+1]   ; gfx12 only (below)
 *     s_setpc_b64 s[T:T+1]
 *
 * gfx12's s_getpc_b64 gives the 48-bit PC zero-extended; clang-19 sign-extends its high
 * half (s_sext_i32_i16) to get the canonical address, and so does rdx (after the add: the
 * same bits 47:0).  For user-space code (below 2^47) it changes nothing.
 *
 * T is a fresh SGPR pair above the register plan's (p->num_sgprs grows by
 * it).  The distances are judged with upper bounds of the instruction sizes
 * (every VOP in its e64 form), so a branch left short always reaches.  SCC
 * is clobbered only after the condition was taken.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/cg.h"
#include "util/error.h"

#define REACH 32767 /* dwords either way, less a margin below */

static cg_inst sop(rdx_isa_op op)
{
    cg_inst in;
    memset(&in, 0, sizeof in);
    in.in.op = (uint16_t)op;
    in.in.form = RDX_ISA_FORM_NATIVE;
    in.target = -1;
    return in;
}

/* Upper bounds of the byte offsets of every instruction (off[]) and block (boff[]). */
static rdx_status bounds(const cg_prog *p, uint32_t *off, uint32_t *boff)
{
    size_t k = 0, total = 0;
    for (size_t b = 0; b < p->nblocks; b++) {
        boff[b] = (uint32_t)total;
        for (size_t i = 0; i < p->blocks[b].n; i++, k++) {
            uint8_t tmp[RDX_ISA_MAX_BYTES];
            size_t n = 0;
            rdx_isa_inst x = p->blocks[b].insts[i].in;
            cg_target_inst(p->tgt, &x); /* the target's spelling (gfx12 renames) */
            rdx_status st = rdx_isa_encode(p->tgt, &x, tmp, &n);
            if (st)
                return rdx_fail_context(st, "render: %s", rdx_isa_op_name((rdx_isa_op)x.op));
            off[k] = (uint32_t)total;
            total += n;
        }
    }
    boff[p->nblocks] = (uint32_t)total;
    return RDX_OK;
}

/* Replace branch i (the last of block b) by the long form through s[t:t+1]. */
static rdx_status make_long(cg_prog *p, size_t b, size_t i, unsigned t)
{
    cg_inst *br = &p->blocks[b].insts[i];
    if (br->in.op != RDX_ISA_OP_S_CBRANCH_SCC1 || i + 1 != p->blocks[b].n)
        return rdx_fail(RDX_ERR_UNSUPPORTED, "render: a %s beyond its reach in block %zu",
                        rdx_isa_op_name((rdx_isa_op)br->in.op), b);
    int32_t target = br->target;
    int gfx12 = p->ct->major >= 12;
    cg_inst skip = sop(RDX_ISA_OP_S_CBRANCH_SCC0);
    skip.in.opnd[0] = (rdx_isa_opnd){ RDX_ISA_OPND_BRANCH, 0, 0, gfx12 ? 6 : 5 };
    skip.in.nopnd = 1;
    cg_inst pc = sop(RDX_ISA_OP_S_GETPC_B64);
    pc.in.opnd[0] = rdx_isa_sgpr(t, 2);
    pc.in.nopnd = 1;
    pc.ndef = 1;
    cg_inst add = sop(RDX_ISA_OP_S_ADD_U32);
    add.in.opnd[0] = rdx_isa_sgpr(t, 1);
    add.in.opnd[1] = rdx_isa_sgpr(t, 1);
    add.in.opnd[2] = rdx_isa_literal(0x7fffffffu); /* a placeholder of the literal's size */
    add.in.nopnd = 3;
    add.ndef = 1;
    add.flags = CG_F_LONGBR;
    add.target = target;
    cg_inst addc = sop(RDX_ISA_OP_S_ADDC_U32);
    addc.in.opnd[0] = rdx_isa_sgpr(t + 1, 1);
    addc.in.opnd[1] = rdx_isa_sgpr(t + 1, 1);
    addc.in.opnd[2] = rdx_isa_int((size_t)target <= b ? -1 : 0); /* blocks are laid out in order */
    addc.in.nopnd = 3;
    addc.ndef = 1;
    cg_inst sext = sop(RDX_ISA_OP_S_SEXT_I32_I16);
    sext.in.opnd[0] = rdx_isa_sgpr(t + 1, 1);
    sext.in.opnd[1] = rdx_isa_sgpr(t + 1, 1);
    sext.in.nopnd = 2;
    sext.ndef = 1;
    cg_inst set = sop(RDX_ISA_OP_S_SETPC_B64);
    set.in.opnd[0] = rdx_isa_sgpr(t, 2);
    set.in.nopnd = 1;
    p->blocks[b].insts[i] = skip;
    rdx_status st = RDX_OK;
    const cg_inst seq[5] = { pc, add, addc, sext, set };
    for (int k = 0; k < 5 && !st; k++)
        if (k != 3 || gfx12)
            st = cg_block_push(p, (int)b, &seq[k]);
    return st;
}

rdx_status cg_long_branches(cg_prog *p)
{
    size_t ninst = 0;
    for (size_t b = 0; b < p->nblocks; b++)
        ninst += p->blocks[b].n;
    /* no encoding is longer than 12 bytes: a small kernel has no far branch */
    if (ninst * 12 < (size_t)(REACH - 64) * 4)
        return RDX_OK;
    unsigned t = 0;
    rdx_status st = RDX_OK;
    /* each long form lengthens the code: repeat until no branch is newly out of reach */
    for (int changed = 1; changed && !st;) {
        changed = 0;
        ninst = 0;
        for (size_t b = 0; b < p->nblocks; b++)
            ninst += p->blocks[b].n;
        uint32_t *off = malloc((ninst + 1) * sizeof *off);
        uint32_t *boff = malloc((p->nblocks + 1) * sizeof *boff);
        if (!off || !boff)
            st = rdx_fail(RDX_ERR_NOMEM, "render: out of memory");
        if (!st)
            st = bounds(p, off, boff);
        size_t k = 0;
        for (size_t b = 0; b < p->nblocks && !st; b++) {
            size_t n = p->blocks[b].n;
            for (size_t i = 0; i < n && !st; i++, k++) {
                const cg_inst *in = &p->blocks[b].insts[i];
                if (!(in->flags & CG_F_BRANCH))
                    continue;
                int64_t d = ((int64_t)boff[in->target] - (int64_t)(off[k] + 4)) / 4;
                if (d >= -(REACH - 64) && d <= REACH - 64)
                    continue;
                if (!t) {
                    t = (p->num_sgprs + 1) & ~1u;
                    if (t + 2 > 106) {
                        st = rdx_fail(RDX_ERR_RANGE,
                                      "render: a branch of %lld dwords needs an SGPR pair; "
                                      "all %u are in use",
                                      (long long)d, p->num_sgprs);
                        break;
                    }
                    p->num_sgprs = t + 2;
                }
                st = make_long(p, b, i, t);
                changed = 1;
            }
        }
        free(off);
        free(boff);
    }
    return st;
}
