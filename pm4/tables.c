/* pm4/tables.c — the PM4/SDMA tables of <rdx/pm4_defs.h> as arrays, and lookups. */
#include <assert.h>
#include <string.h>

#include <rdx/pm4.h>

/* Packet fields, in table order (ids are dense). */
static const rdx_pm4_field_info pm4_fields[] = {
#define F_(op, dw, f, lo, w, e) { #f, RDX_PM4_OP_##op, dw, lo, w, RDX_PM4_ENUM_##e },
    RDX_PM4_PACKET_FIELDS(F_)
#undef F_
};

static const rdx_pm4_field_info reg_fields[] = {
#define F_(reg, f, lo, w) { #f, 0, 0, lo, w, RDX_PM4_ENUM_NONE },
    RDX_PM4_REG_FIELDS(F_)
#undef F_
};
/* The register each register field belongs to (parallel to reg_fields). */
static const uint32_t reg_field_owner[] = {
#define F_(reg, f, lo, w) RDX_PM4_REG_##reg,
    RDX_PM4_REG_FIELDS(F_)
#undef F_
};

static const rdx_pm4_field_info sdma_fields[] = {
#define F_(pkt, dw, f, lo, w, e) { #f, RDX_SDMA_PKT_##pkt, dw, lo, w, RDX_PM4_ENUM_##e },
    RDX_SDMA_FIELDS(F_)
#undef F_
};

/* Opcode table indexed by opcode byte; name NULL = unknown.  Field ranges are
 * filled in on first use (fields of one packet must be contiguous, which
 * tables_check asserts). */
static rdx_pm4_op_info op_table[256];
static rdx_pm4_reg_info reg_table[] = {
#define R_(name, off) { #name, off, 0, 0 },
    RDX_PM4_REGISTERS(R_)
#undef R_
};
static rdx_sdma_packet_info sdma_table[] = {
#define S_(name, op, sub, size) { #name, op, sub, size, 0, 0 },
    RDX_SDMA_PACKETS(S_)
#undef S_
};

static const struct {
    uint8_t kind;
    uint32_t value;
    const char *name;
} enum_values[] = {
#define V_(k, v, name) { RDX_PM4_ENUM_##k, v, #name },
    RDX_PM4_ENUM_VALUES(V_)
#undef V_
};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static void tables_build(void)
{
    static const rdx_pm4_op_info ops[] = {
#define O_(name, op, mn, mx, kind, win) { #name, op, RDX_PM4_BODY_##kind, mn, mx, win, 0, 0 },
        RDX_PM4_OPCODES(O_)
#undef O_
    };
    for (size_t i = 0; i < COUNT_OF(ops); i++) {
        rdx_pm4_op_info *o = &op_table[ops[i].opcode];
        assert(!o->name); /* opcodes are unique */
        *o = ops[i];
    }
    for (size_t i = 0; i < COUNT_OF(pm4_fields); i++) {
        rdx_pm4_op_info *o = &op_table[pm4_fields[i].opcode];
        assert(o->name);
        if (!o->nfields)
            o->first_field = (uint16_t)i;
        assert(o->first_field + o->nfields == i); /* contiguous */
        o->nfields++;
    }
    for (size_t i = 0; i < COUNT_OF(reg_fields); i++) {
        rdx_pm4_reg_info *r = NULL;
        for (size_t j = 0; j < COUNT_OF(reg_table); j++)
            if (reg_table[j].offset == reg_field_owner[i])
                r = &reg_table[j];
        assert(r);
        if (!r->nfields)
            r->first_field = (uint16_t)i;
        assert(r->first_field + r->nfields == i);
        r->nfields++;
    }
    for (size_t i = 0; i < COUNT_OF(sdma_fields); i++) {
        rdx_sdma_packet_info *s = &sdma_table[sdma_fields[i].opcode];
        if (!s->nfields)
            s->first_field = (uint16_t)i;
        assert(s->first_field + s->nfields == i);
        s->nfields++;
    }
}

#include <pthread.h>
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
#define TABLES() pthread_once(&tables_once, tables_build)

const rdx_pm4_op_info *rdx_pm4_op_info_get(unsigned opcode)
{
    TABLES();
    if (opcode > 255 || !op_table[opcode].name)
        return NULL;
    return &op_table[opcode];
}

const rdx_pm4_field_info *rdx_pm4_field_info_get(rdx_pm4_field f)
{
    assert((unsigned)f < COUNT_OF(pm4_fields));
    return &pm4_fields[f];
}

const rdx_pm4_field_info *rdx_pm4_reg_field_info_get(rdx_pm4_reg_field f)
{
    assert((unsigned)f < COUNT_OF(reg_fields));
    return &reg_fields[f];
}

const rdx_pm4_field_info *rdx_sdma_field_info_get(rdx_sdma_field f)
{
    assert((unsigned)f < COUNT_OF(sdma_fields));
    return &sdma_fields[f];
}

const rdx_pm4_reg_info *rdx_pm4_reg_lookup(uint32_t offset)
{
    TABLES();
    /* The table is sorted by offset (tests check it): binary search. */
    size_t lo = 0, hi = COUNT_OF(reg_table);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (reg_table[mid].offset == offset)
            return &reg_table[mid];
        if (reg_table[mid].offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const rdx_pm4_reg_info *rdx_pm4_reg_find(const char *name)
{
    TABLES();
    for (size_t i = 0; name && i < COUNT_OF(reg_table); i++)
        if (!strcmp(reg_table[i].name, name))
            return &reg_table[i];
    return NULL;
}

const rdx_sdma_packet_info *rdx_sdma_packet_info_get(rdx_sdma_packet p)
{
    TABLES();
    if ((unsigned)p >= COUNT_OF(sdma_table))
        return NULL;
    return &sdma_table[p];
}

const rdx_sdma_packet_info *rdx_sdma_packet_lookup(unsigned op, unsigned sub_op)
{
    TABLES();
    for (size_t i = 0; i < COUNT_OF(sdma_table); i++) {
        const rdx_sdma_packet_info *s = &sdma_table[i];
        /* NOP ignores its sub-op field (it is part of nothing). */
        if (s->op == op && (s->sub_op == sub_op || op == 0))
            return s;
    }
    return NULL;
}

const char *rdx_pm4_enum_name(rdx_pm4_enum kind, uint32_t value)
{
    if (kind == RDX_PM4_ENUM_NONE)
        return NULL;
    for (size_t i = 0; i < COUNT_OF(enum_values); i++)
        if (enum_values[i].kind == kind && enum_values[i].value == value)
            return enum_values[i].name;
    return NULL;
}

static uint32_t field_of(uint32_t v, unsigned lo, unsigned width)
{
    return (v >> lo) & RDX_PM4_MASK_(width);
}

uint32_t rdx_pm4_reg_get(uint32_t value, rdx_pm4_reg_field f)
{
    const rdx_pm4_field_info *fi = rdx_pm4_reg_field_info_get(f);
    return field_of(value, fi->lo, fi->width);
}

uint32_t rdx_pm4_get(const rdx_pm4_packet *pkt, rdx_pm4_field f)
{
    const rdx_pm4_field_info *fi = rdx_pm4_field_info_get(f);
    assert(pkt->op && pkt->opcode == fi->opcode && fi->dw < pkt->ndw);
    return field_of(pkt->dw[fi->dw], fi->lo, fi->width);
}

uint32_t rdx_sdma_get(const rdx_pm4_packet *pkt, rdx_sdma_field f)
{
    const rdx_pm4_field_info *fi = rdx_sdma_field_info_get(f);
    assert(pkt->sdma && (unsigned)(pkt->sdma - sdma_table) == fi->opcode && fi->dw < pkt->ndw);
    return field_of(pkt->dw[fi->dw], fi->lo, fi->width);
}

bool rdx_pm4_regs(const rdx_pm4_packet *pkt, uint32_t *first, uint32_t *count)
{
    if (!pkt->op || pkt->op->kind != RDX_PM4_BODY_REGS || pkt->ndw < 3)
        return false;
    *first = pkt->op->reg_window + (pkt->dw[1] & 0xffff);
    *count = pkt->ndw - 2;
    return true;
}
