/* pm4/iter.c — walking PM4 and SDMA streams packet by packet. */
#include <string.h>

#include <rdx/pm4.h>

#include "util/error.h"

void rdx_pm4_iter_init(rdx_pm4_iter *it, const uint32_t *dw, size_t ndw, bool sdma)
{
    memset(it, 0, sizeof *it);
    it->dw = dw;
    it->ndw = dw ? ndw : 0;
    it->sdma = sdma;
}

bool rdx_pm4_iter_done(const rdx_pm4_iter *it)
{
    return it->stopped || it->pos >= it->ndw;
}

/* End of the register window that starts at `start`. */
static uint32_t window_end(uint32_t start)
{
    switch (start) {
    case RDX_PM4_CONFIG_REG_START:
        return RDX_PM4_CONFIG_REG_END;
    case RDX_PM4_SH_REG_START:
        return RDX_PM4_SH_REG_END;
    case RDX_PM4_CONTEXT_REG_START:
        return RDX_PM4_CONTEXT_REG_END;
    default:
        return RDX_PM4_UCONFIG_REG_END;
    }
}

static rdx_status stop(rdx_pm4_iter *it, rdx_pm4_packet *pkt)
{
    it->stopped = true;
    pkt->ndw = 0;
    return RDX_ERR_PARSE;
}

static rdx_status next_pm4(rdx_pm4_iter *it, rdx_pm4_packet *pkt)
{
    size_t at = it->pos, left = it->ndw - at;
    uint32_t h = it->dw[at];
    pkt->type = h >> 30;
    if (pkt->type != 3) {
        rdx_fail(RDX_ERR_PARSE,
                 "dword %zu: type-%u packet header 0x%08x (only type-3 packets are accepted)", at,
                 pkt->type, h);
        return stop(it, pkt);
    }
    uint32_t count = (h >> 16) & 0x3fff;
    pkt->opcode = (h >> 8) & 0xff;
    pkt->compute = (h >> 1) & 1;
    pkt->predicate = h & 1;
    pkt->op = rdx_pm4_op_info_get(pkt->opcode);
    size_t size = pkt->opcode == RDX_PM4_OP_NOP && count == 0x3fff ? 1 : (size_t)count + 2;
    if (size > left) {
        rdx_fail(RDX_ERR_PARSE, "dword %zu: %s%s packet (0x%08x) needs %zu dwords, only %zu remain",
                 at, pkt->op ? pkt->op->name : "opcode 0x", pkt->op ? "" : "??", h, size, left);
        return stop(it, pkt);
    }
    pkt->ndw = (uint32_t)size;
    it->pos += size;
    if (!pkt->op)
        return rdx_fail(RDX_ERR_PARSE, "dword %zu: unknown PM4 opcode 0x%02x (header 0x%08x)", at,
                        pkt->opcode, h);
    uint32_t body = (uint32_t)size - 1;
    if (size == 1)
        return RDX_OK; /* the one-dword NOP filler */
    const rdx_pm4_op_info *op = pkt->op;
    if (body < op->min_body || body > op->max_body ||
        (pkt->opcode == RDX_PM4_OP_EVENT_WRITE && body == 2)) {
        if (op->min_body == op->max_body)
            return rdx_fail(RDX_ERR_PARSE, "dword %zu: %s has %u body dwords, expected %u", at,
                            op->name, body, op->min_body);
        return rdx_fail(RDX_ERR_PARSE, "dword %zu: %s has %u body dwords, expected %s", at,
                        op->name, body, pkt->opcode == RDX_PM4_OP_EVENT_WRITE ? "1 or 3" : "more");
    }
    if (op->kind == RDX_PM4_BODY_REGS) {
        uint32_t start = op->reg_window, end = window_end(start);
        uint32_t reg = start + (pkt->dw[1] & 0xffff), n = body - 1;
        if (reg >= end || n > end - reg)
            return rdx_fail(RDX_ERR_PARSE,
                            "dword %zu: %s writes registers 0x%x..0x%x outside [0x%x, 0x%x)", at,
                            op->name, reg, reg + n - 1, start, end);
    }
    return RDX_OK;
}

static rdx_status next_sdma(rdx_pm4_iter *it, rdx_pm4_packet *pkt)
{
    size_t at = it->pos, left = it->ndw - at;
    uint32_t h = it->dw[at];
    pkt->opcode = h & 0xff;
    pkt->sub_op = (h >> 8) & 0xff;
    pkt->sdma = rdx_sdma_packet_lookup(pkt->opcode, pkt->sub_op);
    if (!pkt->sdma) {
        rdx_fail(RDX_ERR_PARSE, "dword %zu: unknown SDMA packet op %u sub-op %u (header 0x%08x)",
                 at, pkt->opcode, pkt->sub_op, h);
        return stop(it, pkt);
    }
    size_t size = pkt->sdma->size;
    if (pkt->sdma->op == 0) { /* NOP: COUNT more dwords follow */
        size = 1 + ((h >> RDX_SDMA_LO_NOP_COUNT) & RDX_PM4_MASK_(RDX_SDMA_W_NOP_COUNT));
    } else if (!size) { /* WRITE_LINEAR: 4 + COUNT + 1 */
        if (left < 4) {
            rdx_fail(RDX_ERR_PARSE,
                     "dword %zu: %s packet truncated: header needs 4 dwords, only "
                     "%zu remain",
                     at, pkt->sdma->name, left);
            return stop(it, pkt);
        }
        uint32_t c =
            (it->dw[at + RDX_SDMA_DW_WRITE_LINEAR_COUNT] >> RDX_SDMA_LO_WRITE_LINEAR_COUNT) &
            RDX_PM4_MASK_(RDX_SDMA_W_WRITE_LINEAR_COUNT);
        size = 4 + (size_t)c + 1;
    }
    if (size > left) {
        rdx_fail(RDX_ERR_PARSE, "dword %zu: %s packet needs %zu dwords, only %zu remain", at,
                 pkt->sdma->name, size, left);
        return stop(it, pkt);
    }
    pkt->ndw = (uint32_t)size;
    it->pos += size;
    return RDX_OK;
}

rdx_status rdx_pm4_iter_next(rdx_pm4_iter *it, rdx_pm4_packet *pkt)
{
    memset(pkt, 0, sizeof *pkt);
    if (rdx_pm4_iter_done(it))
        return rdx_fail(RDX_ERR_INVALID, "rdx_pm4_iter_next: no packet left at dword %zu", it->pos);
    pkt->offset = it->pos;
    pkt->dw = it->dw + it->pos;
    return it->sdma ? next_sdma(it, pkt) : next_pm4(it, pkt);
}
