/*
 * tests/pm4/builders.c — PM4 builders produce exactly the dwords the public
 * layouts define.  Every expectation is written out by hand from the cited
 * source, never computed with rdx's own tables or macros:
 *
 *   [nvd]   Linux drivers/gpu/drm/amd/amdgpu/nvd.h — PACKET3(op, n) =
 *           (3 << 30) | ((op & 0xff) << 8) | ((n & 0x3fff) << 16); opcodes;
 *           WRITE_DATA_DST_SEL(x) = x << 8, WR_CONFIRM = 1 << 20;
 *           WAIT_REG_MEM_FUNCTION(x) = x, _MEM_SPACE(x) = x << 4;
 *           INDIRECT_BUFFER_VALID = 1 << 23; EVENT_TYPE(x) = x,
 *           EVENT_INDEX(x) = x << 8; RELEASE_MEM_* bit positions.
 *   [gfx11] Linux gfx_v11_0.c: ring_test_ib (WRITE_DATA), emit_fence
 *           (RELEASE_MEM), emit_mem_sync (ACQUIRE_MEM, GCR_CNTL = 0xc3b1),
 *           wait_reg_mem / emit_pipeline_sync, emit_ib_compute.
 *   [mesa]  Mesa sid.h byte offsets R_00Bxxx_COMPUTE_* (dword = byte / 4),
 *           COPY_DATA_SRC_SEL/DST_SEL/COUNT_SEL/WR_CONFIRM.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/harness/harness.h"
#include "tests/pm4/pm4_tests.h"

START_TEST(header_matches_nvd_packet3)
{
    /* [nvd] PACKET3(PACKET3_SET_SH_REG = 0x76, 1) */
    ck_assert_uint_eq(RDX_PM4_HEADER(0x76, 1, 0), 0xc0017600u);
    /* [nvd] PACKET3_COMPUTE sets bit 1 */
    ck_assert_uint_eq(RDX_PM4_HEADER(0x15, 3, 1), 0xc0031502u);
    /* opcodes [nvd] */
    ck_assert_uint_eq(RDX_PM4_OP_NOP, 0x10);
    ck_assert_uint_eq(RDX_PM4_OP_DISPATCH_DIRECT, 0x15);
    ck_assert_uint_eq(RDX_PM4_OP_DISPATCH_INDIRECT, 0x16);
    ck_assert_uint_eq(RDX_PM4_OP_INDEX_BASE, 0x26);
    ck_assert_uint_eq(RDX_PM4_OP_WRITE_DATA, 0x37);
    ck_assert_uint_eq(RDX_PM4_OP_WAIT_REG_MEM, 0x3c);
    ck_assert_uint_eq(RDX_PM4_OP_INDIRECT_BUFFER, 0x3f);
    ck_assert_uint_eq(RDX_PM4_OP_COPY_DATA, 0x40);
    ck_assert_uint_eq(RDX_PM4_OP_EVENT_WRITE, 0x46);
    ck_assert_uint_eq(RDX_PM4_OP_RELEASE_MEM, 0x49);
    ck_assert_uint_eq(RDX_PM4_OP_ACQUIRE_MEM, 0x58);
    ck_assert_uint_eq(RDX_PM4_OP_SET_SH_REG, 0x76);
    ck_assert_uint_eq(RDX_PM4_OP_SET_UCONFIG_REG, 0x79);
    ck_assert_uint_eq(RDX_PM4_OP_WAIT_REG_MEM64, 0x93);
}
END_TEST

START_TEST(register_offsets_match_mesa_byte_offsets)
{
    /* [mesa] R_00B800_COMPUTE_DISPATCH_INITIATOR etc.: byte offset / 4. */
    static const struct {
        const char *name;
        uint32_t byte;
    } want[] = {
        { "COMPUTE_DISPATCH_INITIATOR", 0xb800 },
        { "COMPUTE_DIM_X", 0xb804 },
        { "COMPUTE_START_X", 0xb810 },
        { "COMPUTE_START_Z", 0xb818 },
        { "COMPUTE_NUM_THREAD_X", 0xb81c },
        { "COMPUTE_NUM_THREAD_Z", 0xb824 },
        { "COMPUTE_PERFCOUNT_ENABLE", 0xb82c },
        { "COMPUTE_PGM_LO", 0xb830 },
        { "COMPUTE_PGM_HI", 0xb834 },
        { "COMPUTE_DISPATCH_SCRATCH_BASE_LO", 0xb840 },
        { "COMPUTE_PGM_RSRC1", 0xb848 },
        { "COMPUTE_PGM_RSRC2", 0xb84c },
        { "COMPUTE_RESOURCE_LIMITS", 0xb854 },
        { "COMPUTE_TMPRING_SIZE", 0xb860 },
        { "COMPUTE_PGM_RSRC3", 0xb8a0 },
        { "COMPUTE_USER_DATA_0", 0xb900 },
        { "COMPUTE_USER_DATA_15", 0xb93c },
        { "GRBM_GFX_INDEX", 0x30800 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const rdx_pm4_reg_info *r = rdx_pm4_reg_find(want[i].name);
        ck_assert_msg(r != NULL, "%s missing", want[i].name);
        ck_assert_msg(r->offset * 4 == want[i].byte, "%s: 0x%x", want[i].name, r->offset * 4);
        ck_assert_ptr_eq(rdx_pm4_reg_lookup(r->offset), r);
    }
    /* gc_11_0_0_offset.h via tinygrad's register module: PGM_LO 0x2e0c, RSRC3 0x2e28. */
    ck_assert_uint_eq(RDX_PM4_REG_COMPUTE_PGM_LO, 0x2e0c);
    ck_assert_uint_eq(RDX_PM4_REG_COMPUTE_PGM_RSRC3, 0x2e28);
    ck_assert_ptr_null(rdx_pm4_reg_lookup(0x2e23));
    ck_assert_ptr_null(rdx_pm4_reg_find("NOPE"));
    /* Register fields [LLVM SIDefines S_00B028_VGPRS/SGPRS, S_00B84C_LDS_SIZE]. */
    ck_assert_uint_eq(rdx_pm4_reg_get(0x3f, RDX_PM4_RF_COMPUTE_PGM_RSRC1_VGPRS), 0x3f);
    ck_assert_uint_eq(rdx_pm4_reg_get(0x3c0, RDX_PM4_RF_COMPUTE_PGM_RSRC1_SGPRS), 0xf);
    ck_assert_uint_eq(rdx_pm4_reg_get(0x1ffu << 15, RDX_PM4_RF_COMPUTE_PGM_RSRC2_LDS_SIZE), 0x1ff);
    ck_assert_uint_eq(rdx_pm4_reg_get(0x3e, RDX_PM4_RF_COMPUTE_PGM_RSRC2_USER_SGPR), 31);
    /* gc_11 sh_mask: DISPATCH_INITIATOR.CS_W32_EN is bit 15; TMPRING WAVESIZE 15 bits at 12. */
    ck_assert_uint_eq(rdx_pm4_reg_get(0x8000, RDX_PM4_RF_COMPUTE_DISPATCH_INITIATOR_CS_W32_EN), 1);
    ck_assert_uint_eq(rdx_pm4_reg_get(0x7ffff000u, RDX_PM4_RF_COMPUTE_TMPRING_SIZE_WAVESIZE),
                      0x7fff);
}
END_TEST

START_TEST(tables_are_consistent)
{
    /* Registers sorted and unique (the lookup is a binary search). */
    uint32_t prev = 0;
    for (uint32_t off = 0; off < 0x10000; off++) {
        const rdx_pm4_reg_info *r = rdx_pm4_reg_lookup(off);
        if (!r)
            continue;
        ck_assert_uint_eq(r->offset, off);
        ck_assert_uint_gt(off + 1, prev);
        prev = off + 1;
        uint32_t used = 0;
        for (unsigned i = 0; i < r->nfields; i++) {
            const rdx_pm4_field_info *f =
                rdx_pm4_reg_field_info_get((rdx_pm4_reg_field)(r->first_field + i));
            ck_assert_uint_le(f->lo + f->width, 32);
            uint32_t m = RDX_PM4_MASK_(f->width) << f->lo;
            ck_assert_msg(!(used & m), "%s.%s overlaps", r->name, f->name);
            used |= m;
        }
    }
    for (unsigned op = 0; op < 256; op++) {
        const rdx_pm4_op_info *o = rdx_pm4_op_info_get(op);
        if (!o)
            continue;
        ck_assert_uint_le(o->min_body, o->max_body);
        uint32_t used[9] = { 0 };
        for (unsigned i = 0; i < o->nfields; i++) {
            const rdx_pm4_field_info *f =
                rdx_pm4_field_info_get((rdx_pm4_field)(o->first_field + i));
            ck_assert_uint_eq(f->opcode, op);
            ck_assert_uint_ge(f->dw, 1);
            ck_assert_uint_le(f->dw, 8);
            ck_assert_uint_le(f->lo + f->width, 32);
            if (o->kind == RDX_PM4_BODY_FIXED)
                ck_assert_uint_le(f->dw, o->max_body);
            uint32_t m = RDX_PM4_MASK_(f->width) << f->lo;
            ck_assert_msg(!(used[f->dw] & m), "%s.%s overlaps", o->name, f->name);
            used[f->dw] |= m;
        }
    }
    for (int p = 0; p < RDX_SDMA_PKT_COUNT; p++) {
        const rdx_sdma_packet_info *s = rdx_sdma_packet_info_get((rdx_sdma_packet)p);
        ck_assert_ptr_eq(rdx_sdma_packet_lookup(s->op, s->sub_op), s);
        for (unsigned i = 0; i < s->nfields; i++) {
            const rdx_pm4_field_info *f =
                rdx_sdma_field_info_get((rdx_sdma_field)(s->first_field + i));
            ck_assert_uint_le(f->lo + f->width, 32);
            if (s->size)
                ck_assert_uint_lt(f->dw, s->size);
        }
    }
    ck_assert_ptr_null(rdx_pm4_op_info_get(0x00));
    ck_assert_ptr_null(rdx_pm4_op_info_get(300));
    ck_assert_str_eq(rdx_pm4_enum_name(RDX_PM4_ENUM_EVENT, 7), "CS_PARTIAL_FLUSH");
    ck_assert_ptr_null(rdx_pm4_enum_name(RDX_PM4_ENUM_EVENT, 0x3f));
    ck_assert_ptr_null(rdx_pm4_enum_name(RDX_PM4_ENUM_NONE, 0));
}
END_TEST

START_TEST(write_data_matches_gfx11_ib_test)
{
    /* [gfx11] ring_test_ib: PACKET3(WRITE_DATA, 3), DST_SEL(5) | WR_CONFIRM,
     * lower/upper address, 0xDEADBEEF. */
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    uint32_t v = 0xdeadbeef;
    ck_assert_int_eq(rdx_pm4_write_data(&cb, 0x123456780ull, &v, 1, true), RDX_OK);
    const uint32_t want[] = { 0xc0033700, 0x00100500, 0x23456780, 0x1, 0xdeadbeef };
    CHECK_DWORDS(&cb, want);
    rdx_pm4_cmdbuf_reset(&cb);
    uint32_t three[] = { 1, 2, 3 };
    rdx_pm4_write_data(&cb, 0x1000, three, 3, false);
    const uint32_t want3[] = { 0xc0053700, 0x00000500, 0x1000, 0, 1, 2, 3 };
    CHECK_DWORDS(&cb, want3);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

START_TEST(signal_matches_gfx11_fence)
{
    /* [gfx11] emit_fence, 64-bit seq with interrupt:
     * dw1 = GCR_SEQ (1<<22) | GCR_GL2_WB (1<<21) | GCR_GLM_INV (1<<13) |
     *       GCR_GLM_WB (1<<12) | CACHE_POLICY(3) (3<<25) |
     *       EVENT_TYPE(CACHE_FLUSH_AND_INV_TS_EVENT = 0x14) | EVENT_INDEX(5) (5<<8)
     *     = 0x06603514
     * dw2 = DATA_SEL(2) (2<<29) | INT_SEL(2) (2<<24) = 0x42000000 */
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    ck_assert_int_eq(rdx_pm4_signal(&cb, 0x7fff00001008ull, 0x1122334455667788ull, true, 9),
                     RDX_OK);
    const uint32_t want[] = { 0xc0064900, 0x06603514, 0x42000000, 0x00001008,
                              0x00007fff, 0x55667788, 0x11223344, 9 };
    CHECK_DWORDS(&cb, want);
    rdx_pm4_cmdbuf_reset(&cb);
    rdx_pm4_signal(&cb, 0x2000, 5, false, 0);
    const uint32_t want_noint[] = { 0xc0064900, 0x06603514, 0x40000000, 0x2000, 0, 5, 0, 0 };
    CHECK_DWORDS(&cb, want_noint);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

START_TEST(acquire_mem_matches_gfx11_mem_sync)
{
    /* [gfx11] emit_mem_sync: PACKET3(ACQUIRE_MEM, 6), 0, 0xffffffff, 0xffffff, 0, 0,
     * 0x0000000A, GL2_INV|GL2_WB|GLM_INV|GLM_WB|GL1_INV|GLV_INV|GLK_INV|GLI_INV(1)
     * = (1<<14)|(1<<15)|(1<<5)|(1<<4)|(1<<9)|(1<<8)|(1<<7)|1 = 0xc3b1. */
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    ck_assert_int_eq(rdx_pm4_acquire_mem(&cb, RDX_PM4_GCR_ALL), RDX_OK);
    const uint32_t want[] = { 0xc0065800, 0, 0xffffffff, 0x00ffffff, 0, 0, 0xa, 0xc3b1 };
    CHECK_DWORDS(&cb, want);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

START_TEST(wait_mem_matches_gfx11_pipeline_sync)
{
    /* [gfx11] emit_pipeline_sync on a compute ring: wait_reg_mem(ring, 0, 1, 0,
     * lo, hi, seq, 0xffffffff, 4) -> PACKET3(WAIT_REG_MEM, 5),
     * MEM_SPACE(1) | FUNCTION(3) | ENGINE(0) = 0x13, lo, hi, seq, mask, 4. */
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    ck_assert_int_eq(
        rdx_pm4_wait_mem32(&cb, 0x400001000ull, 77, 0xffffffff, RDX_PM4_V_WAIT_FUNC_EQ, 4), RDX_OK);
    const uint32_t want[] = { 0xc0053c00, 0x13, 0x1000, 0x4, 77, 0xffffffff, 4 };
    CHECK_DWORDS(&cb, want);
    /* 64-bit form (Mesa/PAL WAIT_REG_MEM64: function, mem space, addr, ref lo/hi,
     * mask lo/hi, poll interval): >= is function 5. */
    rdx_pm4_cmdbuf_reset(&cb);
    rdx_pm4_wait_mem64(&cb, 0x3008, 0x100000002ull, ~0ull, RDX_PM4_V_WAIT_FUNC_GE, 10);
    const uint32_t want64[] = { 0xc0079300, 0x15, 0x3008, 0, 2, 1, 0xffffffff, 0xffffffff, 10 };
    CHECK_DWORDS(&cb, want64);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

START_TEST(indirect_buffer_matches_gfx11_ib_compute)
{
    /* [gfx11] emit_ib_compute: PACKET3(INDIRECT_BUFFER, 2), lo, hi,
     * INDIRECT_BUFFER_VALID (1<<23) | length_dw | vmid << 24. */
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    rdx_pm4_indirect_buffer(&cb, 0x800000100ull, 0x40, 0);
    rdx_pm4_indirect_buffer(&cb, 0x200, 5, 3);
    const uint32_t want[] = {
        0xc0023f00, 0x100, 0x8, 0x00800040, 0xc0023f00, 0x200, 0, 0x03800005
    };
    CHECK_DWORDS(&cb, want);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

START_TEST(events_timestamps_nops)
{
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    /* [nvd] EVENT_TYPE(CS_PARTIAL_FLUSH = 7) | EVENT_INDEX(4). */
    rdx_pm4_cs_partial_flush(&cb);
    /* RELEASE_MEM BOTTOM_OF_PIPE_TS (0x28), index 5, CACHE_POLICY 3 (bypass),
     * DATA_SEL 3 "send 64bit GPU counter value" [nvd]. */
    rdx_pm4_timestamp_eop(&cb, 0x5000);
    /* [mesa] COPY_DATA_SRC_SEL(COPY_DATA_TIMESTAMP = 9) | DST_SEL(5 memory) << 8 |
     * COUNT_SEL (1<<16) | WR_CONFIRM (1<<20) = 0x00110509. */
    rdx_pm4_timestamp_top(&cb, 0x123400000008ull);
    /* amdgpu's one-dword ring filler PACKET3(NOP, 0x3FFF) = 0xffff1000. */
    rdx_pm4_nop(&cb, 1);
    rdx_pm4_nop(&cb, 3);
    const uint32_t want[] = {
        0xc0004600, 0x00000407,                                                   /* event */
        0xc0064900, 0x06000528, 0x60000000, 0x5000, 0,          0,          0, 0, /* eop ts */
        0xc0044000, 0x00110509, 0,          0,      0x00000008, 0x00001234,       /* top ts */
        0xffff1000,                                                               /* nop 1 */
        0xc0011000, 0,          0,                                                /* nop 3 */
    };
    CHECK_DWORDS(&cb, want);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

START_TEST(set_regs_and_dispatch_packets)
{
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    uint32_t v[2] = { 0x00100000, 0x00000001 };
    /* COMPUTE_PGM_LO at byte 0xB830 -> dword 0x2e0c -> offset 0x20c in the SH window. */
    rdx_pm4_set_sh_reg(&cb, RDX_PM4_REG_COMPUTE_PGM_LO, v, 2);
    /* GRBM_GFX_INDEX 0xc200 -> offset 0x200 in the UCONFIG window 0xc000 [nvd]. */
    uint32_t g = 0xe0000000;
    rdx_pm4_set_uconfig_reg(&cb, RDX_PM4_REG_GRBM_GFX_INDEX, &g, 1);
    rdx_pm4_dispatch_direct(&cb, 4, 2, 1, 0x8005);
    rdx_pm4_dispatch_indirect(&cb, 0x10000004ull, 0x5);
    const uint32_t want[] = {
        0xc0027602, 0x20c, 0x00100000, 1,      0xc0017900, 0x200,      0xe0000000, 0xc0031502,
        4,          2,     1,          0x8005, 0xc0021602, 0x10000004, 0,          5,
    };
    CHECK_DWORDS(&cb, want);
    /* DISPATCH_INITIATOR: COMPUTE_SHADER_EN (bit 0) | FORCE_START_AT_000 (bit 2)
     * | CS_W32_EN (bit 15) [gc_11_0_0_sh_mask.h]. */
    ck_assert_uint_eq(rdx_pm4_dispatch_initiator(true), 0x8005);
    ck_assert_uint_eq(rdx_pm4_dispatch_initiator(false), 0x5);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

START_TEST(begin_add_end)
{
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    ck_assert_int_eq(rdx_pm4_begin(&cb, RDX_PM4_OP_SET_SH_REG, true), RDX_OK);
    rdx_pm4_add(&cb, 0x240);
    rdx_pm4_add(&cb, 11);
    rdx_pm4_add(&cb, 22);
    ck_assert_int_eq(rdx_pm4_end(&cb), RDX_OK);
    const uint32_t want[] = { 0xc0027602, 0x240, 11, 22 };
    CHECK_DWORDS(&cb, want);
    /* errors: end without begin, add without begin, empty body, nested begin */
    ck_assert_int_eq(rdx_pm4_end(&cb), RDX_ERR_INVALID);
    CHECK_HAS(rdx_error_message(), "no packet is open");
    ck_assert_int_eq(rdx_pm4_cmdbuf_status(&cb), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_pm4_nop(&cb, 2), RDX_ERR_INVALID); /* sticky */
    ck_assert_uint_eq(cb.len, 4);
    rdx_pm4_cmdbuf_reset(&cb);
    rdx_pm4_begin(&cb, RDX_PM4_OP_NOP, false);
    ck_assert_int_eq(rdx_pm4_end(&cb), RDX_ERR_INVALID);
    CHECK_HAS(rdx_error_message(), "0 body dwords");
    ck_assert_uint_eq(cb.len, 0);
    rdx_pm4_cmdbuf_reset(&cb);
    rdx_pm4_begin(&cb, RDX_PM4_OP_NOP, false);
    ck_assert_int_eq(rdx_pm4_begin(&cb, RDX_PM4_OP_NOP, false), RDX_ERR_INVALID);
    CHECK_HAS(rdx_error_message(), "still open");
    rdx_pm4_cmdbuf_reset(&cb);
    ck_assert_int_eq(rdx_pm4_add(&cb, 1), RDX_ERR_INVALID);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

START_TEST(fixed_buffer_overflow_is_sticky)
{
    uint32_t mem[10];
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init_fixed(&cb, mem, 10);
    ck_assert_int_eq(rdx_pm4_acquire_mem(&cb, 0), RDX_OK);   /* 8 dwords */
    ck_assert_int_eq(rdx_pm4_cs_partial_flush(&cb), RDX_OK); /* 10 */
    ck_assert_ptr_eq(cb.dw, mem);
    ck_assert_int_eq(rdx_pm4_nop(&cb, 1), RDX_ERR_RANGE);
    CHECK_HAS(rdx_error_message(), "command buffer full");
    ck_assert_int_eq(rdx_pm4_nop(&cb, 1), RDX_ERR_RANGE);
    ck_assert_uint_eq(cb.len, 10);
    rdx_pm4_cmdbuf_reset(&cb);
    ck_assert_int_eq(rdx_pm4_nop(&cb, 10), RDX_OK);
    rdx_pm4_cmdbuf_free(&cb); /* does not free caller memory */
    ck_assert_ptr_null(cb.dw);
}
END_TEST

START_TEST(builder_argument_errors)
{
    rdx_pm4_cmdbuf cb;
    uint32_t v = 0;
    struct {
        rdx_status st;
        const char *msg;
    } r[16];
    int n = 0;
#define TRY(call, needle)                                                           \
    do {                                                                            \
        rdx_pm4_cmdbuf_init(&cb);                                                   \
        r[n].st = (call);                                                           \
        r[n].msg = needle;                                                          \
        ck_assert_msg(r[n].st == RDX_ERR_INVALID, "%s: status %d", #call, r[n].st); \
        CHECK_HAS(rdx_error_message(), needle);                                     \
        ck_assert_uint_eq(cb.len, 0);                                               \
        rdx_pm4_cmdbuf_free(&cb);                                                   \
        n++;                                                                        \
    } while (0)
    TRY(rdx_pm4_set_sh_reg(&cb, 0x2bff, &v, 1), "outside [0x2c00, 0x3000)");
    TRY(rdx_pm4_set_sh_reg(&cb, 0x2fff, (uint32_t[2]){ 0 }, 2), "0x2fff..0x3000");
    TRY(rdx_pm4_set_sh_reg(&cb, 0x2e00, &v, 0), "0 registers");
    TRY(rdx_pm4_set_uconfig_reg(&cb, 0x2e00, &v, 1), "outside [0xc000, 0x10000)");
    TRY(rdx_pm4_write_data(&cb, 0x1002, &v, 1, true), "0x1002 is not 4-byte aligned");
    TRY(rdx_pm4_signal(&cb, 0x1004, 1, false, 0), "0x1004 is not 8-byte aligned");
    TRY(rdx_pm4_wait_mem32(&cb, 0x1000, 0, 0, 7, 4), "compare function 7");
    TRY(rdx_pm4_wait_mem64(&cb, 0x1004, 0, 0, 3, 4), "not 8-byte aligned");
    TRY(rdx_pm4_indirect_buffer(&cb, 0x1000, 0, 0), "0 dwords");
    TRY(rdx_pm4_indirect_buffer(&cb, 0x1000, 4, 16), "vmid 16");
    TRY(rdx_pm4_dispatch_direct(&cb, 0, 1, 1, 0), "zero dimension");
    TRY(rdx_pm4_nop(&cb, 0), "0 dwords");
    TRY(rdx_pm4_acquire_mem(&cb, 1u << 18), "GCR_CNTL");
    TRY(rdx_pm4_event_write(&cb, 64, 0), "event");
    TRY(rdx_pm4_timestamp_top(&cb, 0x1004), "not 8-byte aligned");
#undef TRY
}
END_TEST

/* Issue 2.1's audit: the reserve fast path added len + n, which wraps for a
 * huge n on a buffer holding anything and handed out room it did not have;
 * null data pointers were copied from; zero dwords offset a null buffer. */
START_TEST(raw_emit_sizes_and_null_data)
{
    rdx_pm4_cmdbuf cb;
    uint32_t v[2] = { 1, 2 };
    rdx_pm4_cmdbuf_init(&cb);
    ck_assert_int_eq(rdx_pm4_emit(&cb, v, 0), RDX_OK); /* nothing to append: no null offset */
    ck_assert_uint_eq(cb.len, 0);
    ck_assert_int_eq(rdx_pm4_emit(&cb, v, 1), RDX_OK);
    ck_assert_int_eq(rdx_pm4_emit(&cb, v, SIZE_MAX), RDX_ERR_RANGE);
    CHECK_HAS(rdx_error_message(), "cannot grow by");
    ck_assert_uint_eq(cb.len, 1);
    rdx_pm4_cmdbuf_reset(&cb);
    ck_assert_int_eq(rdx_pm4_emit(&cb, NULL, 2), RDX_ERR_INVALID);
    CHECK_HAS(rdx_error_message(), "rdx_pm4_emit: dw is NULL for 2 dwords");
    rdx_pm4_cmdbuf_reset(&cb);
    ck_assert_int_eq(rdx_pm4_set_sh_reg(&cb, 0x2e00, NULL, 2), RDX_ERR_INVALID);
    CHECK_HAS(rdx_error_message(), "SET_SH_REG: vals is NULL for 2 registers");
    rdx_pm4_cmdbuf_reset(&cb);
    ck_assert_int_eq(rdx_pm4_write_data(&cb, 0x1000, NULL, 3, false), RDX_ERR_INVALID);
    CHECK_HAS(rdx_error_message(), "rdx_pm4_write_data: data is NULL for 3 dwords");
    ck_assert_uint_eq(cb.len, 0);
    rdx_pm4_cmdbuf_free(&cb);

    /* a fixed buffer over no memory: every builder is "full", none offsets NULL */
    rdx_pm4_cmdbuf_init_fixed(&cb, NULL, 100);
    ck_assert_int_eq(rdx_pm4_emit(&cb, v, 0), RDX_OK);
    ck_assert_int_eq(rdx_sdma_copy_linear(&cb, 0x1000, 0x2000, 8), RDX_ERR_RANGE);
    CHECK_HAS(rdx_error_message(), "command buffer full: 0 of 0 dwords used");
    ck_assert_uint_eq(cb.len, 0);
}
END_TEST

TCase *pm4_builder_tcase(void)
{
    TCase *tc = tcase_create("builders");
    tcase_add_test(tc, header_matches_nvd_packet3);
    tcase_add_test(tc, register_offsets_match_mesa_byte_offsets);
    tcase_add_test(tc, tables_are_consistent);
    tcase_add_test(tc, write_data_matches_gfx11_ib_test);
    tcase_add_test(tc, signal_matches_gfx11_fence);
    tcase_add_test(tc, acquire_mem_matches_gfx11_mem_sync);
    tcase_add_test(tc, wait_mem_matches_gfx11_pipeline_sync);
    tcase_add_test(tc, indirect_buffer_matches_gfx11_ib_compute);
    tcase_add_test(tc, events_timestamps_nops);
    tcase_add_test(tc, set_regs_and_dispatch_packets);
    tcase_add_test(tc, begin_add_end);
    tcase_add_test(tc, fixed_buffer_overflow_is_sticky);
    tcase_add_test(tc, builder_argument_errors);
    tcase_add_test(tc, raw_emit_sizes_and_null_data);
    return tc;
}
