/* pm4/disasm.c — readable dumps of PM4 and SDMA streams. */
#include <stdlib.h>
#include <string.h>

#include <rdx/pm4.h>

#include <stdarg.h>
#include <stdio.h>

#include "util/buf.h"
#include "util/error.h"

typedef struct dis {
    rdx_buf out;
    const rdx_pm4_disasm_opts *opts;
    rdx_status st;     /* RDX_ERR_NOMEM once printing failed */
    char *first_error; /* message of the first malformed packet */
} dis;

static void put(dis *d, const char *fmt, ...) RDX_PRINTF(2, 3);

static void put(dis *d, const char *fmt, ...)
{
    if (d->st)
        return;
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        d->st = rdx_buf_append(&d->out, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        d->st = rdx_fail(RDX_ERR_NOMEM, "out of memory disassembling");
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    d->st = rdx_buf_append(&d->out, big, (size_t)n);
    free(big);
}

/* Start the line of dword `off` holding `v`. */
static void line(dis *d, size_t off, uint32_t v)
{
    if (d->opts->has_base)
        put(d, "0x%016llx  %08x ", (unsigned long long)(d->opts->base + 4 * (uint64_t)off), v);
    else
        put(d, "[%6zu]  %08x ", off, v);
}

static void field(dis *d, const rdx_pm4_field_info *f, uint32_t dwv)
{
    uint32_t v = (dwv >> f->lo) & RDX_PM4_MASK_(f->width);
    const char *name = rdx_pm4_enum_name(f->enum_kind, v);
    if (name)
        put(d, " %s=0x%x(%s)", f->name, v, name);
    else
        put(d, " %s=0x%x", f->name, v);
}

/* A register write: "NAME=0x... FIELD=.." or "reg[0x...]=0x...". */
static void reg(dis *d, uint32_t offset, uint32_t v)
{
    const rdx_pm4_reg_info *r = rdx_pm4_reg_lookup(offset);
    if (!r) {
        put(d, " reg[0x%04x]=0x%08x", offset, v);
        return;
    }
    put(d, " %s=0x%08x", r->name, v);
    for (unsigned i = 0; i < r->nfields; i++)
        field(d, rdx_pm4_reg_field_info_get((rdx_pm4_reg_field)(r->first_field + i)), v);
}

static void record_error(dis *d)
{
    if (!d->first_error)
        d->first_error = strdup(rdx_error_message());
    put(d, "error: %s\n", rdx_error_message());
}

/* Fields of body dword `dw` of a PM4 packet. */
static void pm4_fields(dis *d, const rdx_pm4_op_info *op, unsigned dw, uint32_t v)
{
    for (unsigned i = 0; i < op->nfields; i++) {
        const rdx_pm4_field_info *f = rdx_pm4_field_info_get((rdx_pm4_field)(op->first_field + i));
        if (f->dw != dw)
            continue;
        if (!strcmp(f->name, "INITIATOR")) {
            reg(d, RDX_PM4_REG_COMPUTE_DISPATCH_INITIATOR, v);
            continue;
        }
        field(d, f, v);
    }
}

static void pm4_packet(dis *d, const rdx_pm4_packet *p, bool ok)
{
    uint32_t h = p->dw[0];
    line(d, p->offset, h);
    const rdx_pm4_op_info *op = p->op;
    if (op)
        put(d, " %s", op->name);
    else
        put(d, " OPCODE_0x%02x", p->opcode);
    if (p->ndw == 1)
        put(d, " (1-dword filler)");
    else
        put(d, " count=%u", p->ndw - 2);
    if (p->compute)
        put(d, " compute");
    if (p->predicate)
        put(d, " predicate");
    put(d, "\n");
    bool layout = ok && op && op->kind != RDX_PM4_BODY_RAW;
    for (uint32_t i = 1; i < p->ndw; i++) {
        line(d, p->offset + i, p->dw[i]);
        if (layout && op->kind == RDX_PM4_BODY_REGS && i >= 2) {
            reg(d, op->reg_window + (p->dw[1] & 0xffff) + (i - 2), p->dw[i]);
        } else if (layout && op->kind == RDX_PM4_BODY_DATA && i >= 4) {
            put(d, " DATA[%u]", i - 4);
        } else if (layout) {
            pm4_fields(d, op, i, p->dw[i]);
        }
        put(d, "\n");
    }
}

static void sdma_packet(dis *d, const rdx_pm4_packet *p)
{
    const rdx_sdma_packet_info *s = p->sdma;
    for (uint32_t i = 0; i < p->ndw; i++) {
        line(d, p->offset + i, p->dw[i]);
        if (i == 0)
            put(d, " %s", s->name);
        bool any = false;
        for (unsigned k = 0; k < s->nfields; k++) {
            const rdx_pm4_field_info *f =
                rdx_sdma_field_info_get((rdx_sdma_field)(s->first_field + k));
            if (f->dw == i) {
                field(d, f, p->dw[i]);
                any = true;
            }
        }
        if (!any && i && s->op == 2 && i >= 4)
            put(d, " DATA[%u]", i - 4);
        put(d, "\n");
    }
}

rdx_status rdx_pm4_disasm(const uint32_t *dw, size_t ndw, const rdx_pm4_disasm_opts *opts,
                          char **text)
{
    static const rdx_pm4_disasm_opts none = { 0 };
    dis d = { .opts = opts ? opts : &none };
    *text = NULL;
    rdx_pm4_iter it;
    rdx_pm4_iter_init(&it, dw, ndw, d.opts->sdma);
    while (!rdx_pm4_iter_done(&it) && !d.st) {
        rdx_pm4_packet p;
        rdx_status st = rdx_pm4_iter_next(&it, &p);
        if (st && !p.ndw) { /* structural: show what is left, raw */
            record_error(&d);
            for (size_t i = p.offset; i < ndw && !d.st; i++) {
                line(&d, i, dw[i]);
                put(&d, "\n");
            }
            break;
        }
        if (d.opts->sdma)
            sdma_packet(&d, &p);
        else
            pm4_packet(&d, &p, st == RDX_OK);
        if (st)
            record_error(&d);
    }
    if (!d.st)
        d.st = rdx_buf_reserve(&d.out, 1); /* room for the terminating NUL */
    if (!d.st)
        d.out.data[d.out.len] = 0;
    if (d.st) {
        rdx_buf_free(&d.out);
        free(d.first_error);
        return d.st;
    }
    *text = (char *)d.out.data;
    if (d.first_error) {
        rdx_status st = rdx_fail(RDX_ERR_PARSE, "%s", d.first_error);
        free(d.first_error);
        return st;
    }
    return RDX_OK;
}
