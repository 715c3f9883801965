/* codegen/isel_prog.c — the machine program container: virtual registers and blocks. */
#include <stdlib.h>
#include <string.h>

#include "codegen/cg.h"
#include "util/error.h"
#include "util/scratch.h"

void cg_prog_init(cg_prog *p, const rdx_isa_target *t)
{
    memset(p, 0, sizeof *p);
    p->tgt = t;
    p->ct = t ? cg_target_find(t->name) : NULL;
    if (!p->ct)
        p->ct = cg_target_find("gfx1100");
}

void cg_prog_free(cg_prog *p)
{
    for (size_t i = 0; i < p->nblocks; i++)
        rdx_scratch_free(p->blocks[i].insts);
    rdx_scratch_free(p->blocks);
    rdx_scratch_free(p->vregs);
    memset(p, 0, sizeof *p);
}

uint32_t cg_vreg_new(cg_prog *p, int file, unsigned size)
{
    if (p->nvregs == 0)
        p->nvregs = 1; /* id 0 means "not virtual" */
    if (p->nvregs >= p->vcap) {
        size_t nc = p->vcap ? p->vcap * 2 : 256;
        cg_vreg *n = rdx_scratch_realloc(p->vregs, nc * sizeof *n);
        if (!n) {
            rdx_fail(RDX_ERR_NOMEM, "codegen: out of memory (registers)");
            return 0;
        }
        p->vregs = n, p->vcap = nc;
    }
    cg_vreg *v = &p->vregs[p->nvregs];
    memset(v, 0, sizeof *v);
    v->file = (uint8_t)file;
    v->size = (uint8_t)size;
    v->align = size >= 4 ? 4 : size >= 2 ? 2 : 1;
    if (file == CG_V)
        v->align = 1; /* VGPR ranges need no alignment on gfx11 */
    v->phys = -1;
    return (uint32_t)p->nvregs++;
}

int cg_block_new(cg_prog *p)
{
    if (p->nblocks >= p->bcap) {
        size_t nc = p->bcap ? p->bcap * 2 : 16;
        cg_block *n = rdx_scratch_realloc(p->blocks, nc * sizeof *n);
        if (!n) {
            rdx_fail(RDX_ERR_NOMEM, "codegen: out of memory (blocks)");
            return -1;
        }
        p->blocks = n, p->bcap = nc;
    }
    cg_block *b = &p->blocks[p->nblocks];
    memset(b, 0, sizeof *b);
    b->succ[0] = b->succ[1] = -1;
    return (int)p->nblocks++;
}

rdx_status cg_block_insert(cg_prog *p, int bi, size_t at, const cg_inst *in)
{
    cg_block *b = &p->blocks[bi];
    if (b->n >= b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 32;
        cg_inst *n = rdx_scratch_realloc(b->insts, nc * sizeof *n);
        if (!n)
            return rdx_fail(RDX_ERR_NOMEM, "codegen: out of memory (instructions)");
        b->insts = n, b->cap = nc;
    }
    memmove(&b->insts[at + 1], &b->insts[at], (b->n - at) * sizeof *b->insts);
    b->insts[at] = *in;
    b->n++;
    return RDX_OK;
}

rdx_status cg_block_push(cg_prog *p, int b, const cg_inst *in)
{
    cg_block *bl = &p->blocks[b];
    if (bl->n < bl->cap) { /* room at the end: no shift */
        bl->insts[bl->n++] = *in;
        return RDX_OK;
    }
    return cg_block_insert(p, b, bl->n, in);
}

/* cg_form's memo: direct-mapped by (op, form), per thread (a pure function of its key). */
#define FORM_MEMO 512
typedef struct form_memo {
    const rdx_isa_target *t; /* NULL: empty */
    const rdx_isa_form_info *fi;
    uint16_t op;
    uint8_t form;
} form_memo;
static _Thread_local form_memo form_memos[FORM_MEMO];

const rdx_isa_form_info *cg_form(const rdx_isa_target *t, rdx_isa_op op, rdx_isa_form form)
{
    form_memo *m = &form_memos[((unsigned)op * 8u + (unsigned)form) % FORM_MEMO];
    if (m->t == t && m->op == (unsigned)op && m->form == (unsigned)form)
        return m->fi;
    const rdx_isa_form_info *fi;
    if (rdx_isa_op_form(t, (rdx_isa_op)cg_target_op(t, op), form, &fi))
        fi = NULL;
    m->t = t, m->op = (uint16_t)op, m->form = (uint8_t)form, m->fi = fi;
    return fi;
}

rdx_isa_opnd cg_vopnd(const cg_prog *p, uint32_t vr, unsigned sub, unsigned count)
{
    rdx_isa_opnd o;
    memset(&o, 0, sizeof o);
    o.kind = p->vregs[vr].file == CG_S ? RDX_ISA_OPND_SGPR : RDX_ISA_OPND_VGPR;
    o.count = (uint8_t)count;
    o.reg = (uint16_t)sub;
    return o;
}
