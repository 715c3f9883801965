/*
 * tests/pm4/decode.c — the iterator and the disassembler: every builder's
 * output disassembles with each field named and holding the value given, the
 * iterator yields the packets with the right fields, and every field of every
 * packet layout round-trips through random dwords.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/harness/harness.h"
#include "tests/pm4/pm4_tests.h"

/* `text` holds "NAME=0xV" followed by ' ', '(' or a newline. */
static int has_field(const char *text, const char *name, uint32_t v)
{
    char needle[96];
    snprintf(needle, sizeof needle, " %s=0x%x", name, v);
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle)) {
        char c = p[strlen(needle)];
        if (c == ' ' || c == '(' || c == '\n')
            return 1;
    }
    return 0;
}
#define CHECK_FIELD(text, name, v) \
    ck_assert_msg(has_field(text, name, v), "missing %s=0x%x in:\n%s", name, (unsigned)(v), text)

START_TEST(pm4_builders_roundtrip_through_disasm)
{
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    uint32_t data[2] = { 0xdeadbeef, 0x12345678 };
    rdx_pm4_write_data(&cb, 0x123456780ull, data, 2, true);
    rdx_pm4_signal(&cb, 0x7fff00001008ull, 0x1122334455667788ull, true, 9);
    rdx_pm4_acquire_mem(&cb, RDX_PM4_GCR_GL2_INV | RDX_PM4_GCR_GLK_INV);
    rdx_pm4_wait_mem32(&cb, 0x400001000ull, 77, 0xff, RDX_PM4_V_WAIT_FUNC_GE, 4);
    rdx_pm4_wait_mem64(&cb, 0x3008, 0x100000002ull, 0xf0f0f0f0f0ull, RDX_PM4_V_WAIT_FUNC_NE, 9);
    rdx_pm4_indirect_buffer(&cb, 0x800000100ull, 0x40, 3);
    rdx_pm4_timestamp_eop(&cb, 0x5000);
    rdx_pm4_timestamp_top(&cb, 0x6000);
    rdx_pm4_cs_partial_flush(&cb);
    rdx_pm4_nop(&cb, 1);
    rdx_pm4_nop(&cb, 2);
    uint32_t g = 0xe0000000;
    rdx_pm4_set_uconfig_reg(&cb, RDX_PM4_REG_GRBM_GFX_INDEX, &g, 1);
    rdx_pm4_dispatch_indirect(&cb, 0x9000, rdx_pm4_dispatch_initiator(false));
    char *t = pm4_test_disasm(&cb, 0);

    CHECK_HAS(t, "WRITE_DATA count=4");
    CHECK_FIELD(t, "DST_SEL", 5);
    CHECK_HAS(t, "DST_SEL=0x5(MEMORY)");
    CHECK_FIELD(t, "WR_CONFIRM", 1);
    CHECK_FIELD(t, "DST_ADDR_LO", 0x23456780);
    CHECK_FIELD(t, "DST_ADDR_HI", 1);
    CHECK_HAS(t, "deadbeef  DATA[0]");
    CHECK_HAS(t, "12345678  DATA[1]");

    CHECK_HAS(t, "EVENT_TYPE=0x14(CACHE_FLUSH_AND_INV_TS_EVENT)");
    CHECK_FIELD(t, "EVENT_INDEX", 5);
    CHECK_FIELD(t, "GCR_SEQ", 1);
    CHECK_HAS(t, "CACHE_POLICY=0x3(BYPASS)");
    CHECK_HAS(t, "DATA_SEL=0x2(DATA64)");
    CHECK_HAS(t, "INT_SEL=0x2(INT_AFTER_WRITE_CONFIRM)");
    CHECK_FIELD(t, "ADDR_LO", 0x1008);
    CHECK_FIELD(t, "ADDR_HI", 0x7fff);
    CHECK_FIELD(t, "DATA_LO", 0x55667788);
    CHECK_FIELD(t, "DATA_HI", 0x11223344);
    CHECK_FIELD(t, "INT_CTXID", 9);

    CHECK_FIELD(t, "GCR_GL2_INV", 1);
    CHECK_FIELD(t, "GCR_GLK_INV", 1);
    CHECK_HAS(t, "GCR_GLI_INV=0x0(NOP)");

    CHECK_HAS(t, "FUNCTION=0x5(GE)");
    CHECK_HAS(t, "MEM_SPACE=0x1(MEMORY)");
    CHECK_FIELD(t, "POLL_ADDR_LO", 0x1000);
    CHECK_FIELD(t, "POLL_ADDR_HI", 4);
    CHECK_FIELD(t, "REFERENCE", 77);
    CHECK_FIELD(t, "MASK", 0xff);
    CHECK_FIELD(t, "POLL_INTERVAL", 4);
    CHECK_HAS(t, "WAIT_REG_MEM64 count=7");
    CHECK_HAS(t, "FUNCTION=0x4(NE)");
    CHECK_FIELD(t, "REFERENCE_LO", 2);
    CHECK_FIELD(t, "REFERENCE_HI", 1);
    CHECK_FIELD(t, "MASK_LO", 0xf0f0f0f0);
    CHECK_FIELD(t, "MASK_HI", 0xf0);
    CHECK_FIELD(t, "POLL_INTERVAL", 9);

    CHECK_FIELD(t, "IB_BASE_LO", 0x100);
    CHECK_FIELD(t, "IB_BASE_HI", 8);
    CHECK_FIELD(t, "IB_SIZE", 0x40);
    CHECK_FIELD(t, "VALID", 1);
    CHECK_FIELD(t, "VMID", 3);

    CHECK_HAS(t, "EVENT_TYPE=0x28(BOTTOM_OF_PIPE_TS)");
    CHECK_HAS(t, "DATA_SEL=0x3(GPU_CLOCK64)");
    CHECK_HAS(t, "SRC_SEL=0x9(GPU_CLOCK)");
    CHECK_HAS(t, "COUNT_SEL=0x1(BITS64)");
    CHECK_FIELD(t, "DST_ADDR_LO", 0x6000);
    CHECK_HAS(t, "EVENT_TYPE=0x7(CS_PARTIAL_FLUSH)");
    CHECK_HAS(t, "NOP (1-dword filler)");
    CHECK_HAS(t, "NOP count=0");
    CHECK_HAS(t, "GRBM_GFX_INDEX=0xe0000000");
    CHECK_FIELD(t, "SE_BROADCAST_WRITES", 1);
    CHECK_FIELD(t, "INSTANCE_BROADCAST_WRITES", 1);
    CHECK_HAS(t, "DISPATCH_INDIRECT count=2 compute");
    CHECK_FIELD(t, "ADDR_LO", 0x9000);
    CHECK_HAS(t, "COMPUTE_DISPATCH_INITIATOR=0x00000005 COMPUTE_SHADER_EN=0x1");
    free(t);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

START_TEST(sdma_builders_roundtrip_through_disasm)
{
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    rdx_sdma_copy_linear(&cb, 0x200000010ull, 0x100000003ull, 13);
    rdx_sdma_const_fill(&cb, 0x3000, 0xabcdabcd, 64);
    rdx_sdma_fence(&cb, 0x500000004ull, 42);
    rdx_sdma_trap(&cb, 7);
    rdx_sdma_poll_mem(&cb, 0x6000, 43, 0xffff, RDX_PM4_V_SDMA_FUNC_EQ, 4, 0xfff);
    rdx_sdma_timestamp(&cb, 0x7008);
    uint32_t v[2] = { 0xdeadbeef, 0xfeedface };
    rdx_sdma_write(&cb, 0x8000, v, 2);
    rdx_sdma_nop(&cb, 3);
    char *t = pm4_test_disasm(&cb, 1);
    CHECK_HAS(t, "COPY_LINEAR");
    CHECK_FIELD(t, "COUNT", 12);
    CHECK_FIELD(t, "SRC_ADDR_LO", 3);
    CHECK_FIELD(t, "SRC_ADDR_HI", 1);
    CHECK_FIELD(t, "DST_ADDR_LO", 0x10);
    CHECK_FIELD(t, "DST_ADDR_HI", 2);
    CHECK_HAS(t, "CONST_FILL");
    CHECK_HAS(t, "FILLSIZE=0x2(DWORD)");
    CHECK_FIELD(t, "SRC_DATA", 0xabcdabcd);
    CHECK_FIELD(t, "COUNT", 63);
    CHECK_HAS(t, "FENCE");
    CHECK_FIELD(t, "MTYPE", 3);
    CHECK_FIELD(t, "DATA", 42);
    CHECK_FIELD(t, "INT_CONTEXT", 7);
    CHECK_HAS(t, "FUNC=0x3(EQ)");
    CHECK_FIELD(t, "MEM_POLL", 1);
    CHECK_FIELD(t, "VALUE", 43);
    CHECK_FIELD(t, "MASK", 0xffff);
    CHECK_FIELD(t, "INTERVAL", 4);
    CHECK_FIELD(t, "RETRY_COUNT", 0xfff);
    CHECK_HAS(t, "TIMESTAMP_GET_GLOBAL");
    CHECK_FIELD(t, "ADDR_LO", 0x7008);
    CHECK_HAS(t, "WRITE_LINEAR");
    CHECK_FIELD(t, "COUNT", 1);
    CHECK_HAS(t, "feedface  DATA[1]");
    CHECK_HAS(t, "NOP COUNT=0x2");
    free(t);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

START_TEST(iterator_yields_fields_of_amdgpu_dwords)
{
    /* Hand-written gfx11 dwords (amdgpu ring_test_ib WRITE_DATA, emit_fence,
     * emit_ib_compute): the iterator's field reads must recover the values. */
    const uint32_t s[] = {
        0xc0033700, 0x00100500, 0x23456780, 0x1,        0xdeadbeef, /* write data */
        0xc0064900, 0x06603514, 0x42000000, 0x00001008, 0x7fff,     0x5,
        0x6,        9,          0xc0023f00, 0x100,      0x8,        0x03800040, /* IB */
        0xffff1000,                                                             /* filler */
    };
    rdx_pm4_iter it;
    rdx_pm4_iter_init(&it, s, sizeof s / 4, false);
    rdx_pm4_packet p;
    ck_assert_int_eq(rdx_pm4_iter_next(&it, &p), RDX_OK);
    ck_assert_uint_eq(p.opcode, RDX_PM4_OP_WRITE_DATA);
    ck_assert_uint_eq(p.ndw, 5);
    ck_assert_uint_eq(rdx_pm4_get(&p, RDX_PM4_F_WRITE_DATA_DST_SEL), 5);
    ck_assert_uint_eq(rdx_pm4_get(&p, RDX_PM4_F_WRITE_DATA_WR_CONFIRM), 1);
    ck_assert_uint_eq(rdx_pm4_get(&p, RDX_PM4_F_WRITE_DATA_DST_ADDR_LO), 0x23456780);
    ck_assert_int_eq(rdx_pm4_iter_next(&it, &p), RDX_OK);
    ck_assert_uint_eq(p.offset, 5);
    ck_assert_uint_eq(rdx_pm4_get(&p, RDX_PM4_F_RELEASE_MEM_EVENT_TYPE), 0x14);
    ck_assert_uint_eq(rdx_pm4_get(&p, RDX_PM4_F_RELEASE_MEM_EVENT_INDEX), 5);
    ck_assert_uint_eq(rdx_pm4_get(&p, RDX_PM4_F_RELEASE_MEM_CACHE_POLICY), 3);
    ck_assert_uint_eq(rdx_pm4_get(&p, RDX_PM4_F_RELEASE_MEM_GCR_GL2_WB), 1);
    ck_assert_uint_eq(rdx_pm4_get(&p, RDX_PM4_F_RELEASE_MEM_GCR_GL2_INV), 0);
    ck_assert_uint_eq(rdx_pm4_get(&p, RDX_PM4_F_RELEASE_MEM_DATA_SEL), 2);
    ck_assert_uint_eq(rdx_pm4_get(&p, RDX_PM4_F_RELEASE_MEM_INT_SEL), 2);
    ck_assert_uint_eq(rdx_pm4_get(&p, RDX_PM4_F_RELEASE_MEM_DATA_HI), 6);
    ck_assert_uint_eq(rdx_pm4_get(&p, RDX_PM4_F_RELEASE_MEM_INT_CTXID), 9);
    uint32_t first, count;
    ck_assert(!rdx_pm4_regs(&p, &first, &count));
    ck_assert_int_eq(rdx_pm4_iter_next(&it, &p), RDX_OK);
    ck_assert_uint_eq(rdx_pm4_get(&p, RDX_PM4_F_INDIRECT_BUFFER_IB_SIZE), 0x40);
    ck_assert_uint_eq(rdx_pm4_get(&p, RDX_PM4_F_INDIRECT_BUFFER_VMID), 3);
    ck_assert_uint_eq(rdx_pm4_get(&p, RDX_PM4_F_INDIRECT_BUFFER_VALID), 1);
    ck_assert_int_eq(rdx_pm4_iter_next(&it, &p), RDX_OK);
    ck_assert_uint_eq(p.opcode, RDX_PM4_OP_NOP);
    ck_assert_uint_eq(p.ndw, 1);
    ck_assert(rdx_pm4_iter_done(&it));
    ck_assert_int_eq(rdx_pm4_iter_next(&it, &p), RDX_ERR_INVALID);

    /* SET_SH_REG of COMPUTE_USER_DATA_2..3 (byte 0xB908 -> 0x2e42 -> +0x242) */
    const uint32_t sh[] = { 0xc0027602, 0x242, 7, 8 };
    rdx_pm4_iter_init(&it, sh, 4, false);
    ck_assert_int_eq(rdx_pm4_iter_next(&it, &p), RDX_OK);
    ck_assert(rdx_pm4_regs(&p, &first, &count));
    ck_assert_uint_eq(first, RDX_PM4_REG_COMPUTE_USER_DATA_2);
    ck_assert_uint_eq(count, 2);
    ck_assert_uint_eq(rdx_pm4_get(&p, RDX_PM4_F_SET_SH_REG_REG_OFFSET), 0x242);

    /* SDMA: sdma_v6 pipeline sync dwords. */
    const uint32_t sd[] = { 0xb0000008, 0x6000, 0, 42, 0xffffffff, 0x0fff0004, 0x00000006, 5 };
    rdx_pm4_iter_init(&it, sd, 8, true);
    ck_assert_int_eq(rdx_pm4_iter_next(&it, &p), RDX_OK);
    ck_assert_ptr_eq(p.sdma, rdx_sdma_packet_info_get(RDX_SDMA_PKT_POLL_REGMEM));
    ck_assert_uint_eq(rdx_sdma_get(&p, RDX_SDMA_F_POLL_REGMEM_FUNC), 3);
    ck_assert_uint_eq(rdx_sdma_get(&p, RDX_SDMA_F_POLL_REGMEM_RETRY_COUNT), 0xfff);
    ck_assert_uint_eq(rdx_sdma_get(&p, RDX_SDMA_F_POLL_REGMEM_INTERVAL), 4);
    ck_assert_int_eq(rdx_pm4_iter_next(&it, &p), RDX_OK);
    ck_assert_uint_eq(rdx_sdma_get(&p, RDX_SDMA_F_TRAP_INT_CONTEXT), 5);
    ck_assert(rdx_pm4_iter_done(&it));
}
END_TEST

/* Every field of every fixed-layout packet, through random dwords. */
START_TEST(every_packet_field_roundtrips)
{
    srand(1234);
    for (unsigned op = 0; op < 256; op++) {
        const rdx_pm4_op_info *o = rdx_pm4_op_info_get(op);
        if (!o || (o->kind != RDX_PM4_BODY_FIXED && o->kind != RDX_PM4_BODY_DATA))
            continue;
        uint32_t body = o->max_body == o->min_body ? o->max_body : o->min_body;
        if (op == RDX_PM4_OP_EVENT_WRITE)
            body = 3;
        for (int rep = 0; rep < 20; rep++) {
            rdx_pm4_cmdbuf cb;
            rdx_pm4_cmdbuf_init(&cb);
            rdx_pm4_begin(&cb, (rdx_pm4_opcode)op, false);
            for (uint32_t i = 0; i < body; i++)
                rdx_pm4_add(&cb, (uint32_t)rand() ^ ((uint32_t)rand() << 16));
            ck_assert_int_eq(rdx_pm4_end(&cb), RDX_OK);
            char *t = pm4_test_disasm(&cb, 0);
            for (unsigned k = 0; k < o->nfields; k++) {
                const rdx_pm4_field_info *f =
                    rdx_pm4_field_info_get((rdx_pm4_field)(o->first_field + k));
                uint32_t v = (cb.dw[f->dw] >> f->lo) & RDX_PM4_MASK_(f->width);
                if (!strcmp(f->name, "INITIATOR")) {
                    char want[64];
                    snprintf(want, sizeof want, "COMPUTE_DISPATCH_INITIATOR=0x%08x", v);
                    CHECK_HAS(t, want);
                } else {
                    CHECK_FIELD(t, f->name, v);
                }
            }
            free(t);
            rdx_pm4_cmdbuf_free(&cb);
        }
    }
    /* SDMA fixed-size packets likewise. */
    for (int pk = 0; pk < RDX_SDMA_PKT_COUNT; pk++) {
        const rdx_sdma_packet_info *s = rdx_sdma_packet_info_get((rdx_sdma_packet)pk);
        if (!s->size)
            continue;
        uint32_t dw[8];
        for (unsigned i = 0; i < s->size; i++)
            dw[i] = (uint32_t)rand() ^ ((uint32_t)rand() << 16);
        dw[0] = (dw[0] & 0xffff0000u) | s->op | (uint32_t)s->sub_op << 8;
        rdx_pm4_cmdbuf cb;
        rdx_pm4_cmdbuf_init(&cb);
        rdx_pm4_emit(&cb, dw, s->size);
        char *t = pm4_test_disasm(&cb, 1);
        CHECK_HAS(t, s->name);
        for (unsigned k = 0; k < s->nfields; k++) {
            const rdx_pm4_field_info *f =
                rdx_sdma_field_info_get((rdx_sdma_field)(s->first_field + k));
            CHECK_FIELD(t, f->name, (dw[f->dw] >> f->lo) & RDX_PM4_MASK_(f->width));
        }
        free(t);
        rdx_pm4_cmdbuf_free(&cb);
    }
}
END_TEST

START_TEST(disasm_with_base_prints_addresses)
{
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    rdx_pm4_cs_partial_flush(&cb);
    rdx_pm4_disasm_opts o = { .has_base = true, .base = 0x7f0000001000ull };
    char *t = NULL;
    ck_assert_int_eq(rdx_pm4_disasm(cb.dw, cb.len, &o, &t), RDX_OK);
    CHECK_HAS(t, "0x00007f0000001000  c0004600  EVENT_WRITE count=0\n");
    CHECK_HAS(t,
              "0x00007f0000001004  00000407  EVENT_TYPE=0x7(CS_PARTIAL_FLUSH) EVENT_INDEX=0x4\n");
    free(t);
    ck_assert_int_eq(rdx_pm4_disasm(NULL, 0, NULL, &t), RDX_OK);
    ck_assert_str_eq(t, "");
    free(t);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

TCase *pm4_decode_tcase(void)
{
    TCase *tc = tcase_create("decode");
    tcase_add_test(tc, pm4_builders_roundtrip_through_disasm);
    tcase_add_test(tc, sdma_builders_roundtrip_through_disasm);
    tcase_add_test(tc, iterator_yields_fields_of_amdgpu_dwords);
    tcase_add_test(tc, every_packet_field_roundtrips);
    tcase_add_test(tc, disasm_with_base_prints_addresses);
    return tc;
}
