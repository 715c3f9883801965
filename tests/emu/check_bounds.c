/*
 * tests/emu/check_bounds.c — a VM fault report names the nearest registered
 * range with its label (rdx_emu_map_labeled) and the access's offset from it:
 * past the end, before the start, inside without the right; a labelled range
 * wins over a nearer unlabelled one; far from every range it is "not mapped".
 */
#include <stdio.h>
#include <string.h>

#include "tests/emu/emu_test.h"

/* Ranges are carved from this: "first" at +0 (16 bytes, RW), an unlabelled
 * range at +32 (16 bytes), "second" at +128 (16 bytes, read-only). */
static _Alignas(256) uint8_t region[256];

static uint64_t at(unsigned off)
{
    return (uint64_t)(uintptr_t)region + off;
}

static rdx_emu *emu_with_ranges(void)
{
    rdx_emu *e;
    ck_assert_int_eq(rdx_emu_create("gfx1100", &e), RDX_OK);
    ck_assert_int_eq(rdx_emu_map_labeled(e, at(0), 16, RDX_EMU_RW, "first"), RDX_OK);
    ck_assert_int_eq(rdx_emu_map(e, at(32), 16, RDX_EMU_RW), RDX_OK);
    ck_assert_int_eq(rdx_emu_map_labeled(e, at(128), 16, RDX_EMU_READ, "second"), RDX_OK);
    return e;
}

/* Run `body` with s[4:5] = region; expect a VM fault whose message has `want`
 * (printf-formatted with the region's address). */
static void expect_fault(const char *body, const char *want_fmt, unsigned base_off)
{
    rdx_emu *e = emu_with_ranges();
    et_case c = { 0 };
    c.sgpr_in[0] = (uint32_t)at(0);
    c.sgpr_in[1] = (uint32_t)(at(0) >> 32);
    c.body = body;
    ck_assert_int_eq(et_run_on(e, &c), RDX_ERR_FAULT);
    const rdx_emu_fault *f = rdx_emu_last_fault(e);
    ck_assert_int_eq(f->kind, RDX_EMU_FAULT_VM);
    char want[256];
    snprintf(want, sizeof want, want_fmt, (unsigned long long)at(base_off));
    ck_assert_msg(strstr(f->message, want), "expected \"%s\" in: %s", want, f->message);
    rdx_emu_destroy(e);
}

START_TEST(past_the_end_names_the_range_and_offset)
{
    expect_fault("v_mov_b32 v20, 16\n global_load_b32 v10, v20, s[4:5]\n s_waitcnt vmcnt(0)\n",
                 "(4 bytes past the end of the 16-byte first at 0x%llx (offset 16)) by "
                 "'global_load_b32 v10, v20, s[4:5]'",
                 0);
    /* A 16-byte load from byte 8: starts inside, ends 8 bytes past. */
    expect_fault("v_mov_b32 v20, 8\n global_load_b128 v[10:13], v20, s[4:5]\n"
                 " s_waitcnt vmcnt(0)\n",
                 "(8 bytes past the end of the 16-byte first at 0x%llx (offset 8))", 0);
}
END_TEST

START_TEST(before_the_start_and_read_only)
{
    /* byte 120: 104 bytes after "first", 8 before "second" */
    expect_fault("v_mov_b32 v20, 120\n global_load_b32 v10, v20, s[4:5]\n s_waitcnt vmcnt(0)\n",
                 "(8 bytes before the 16-byte second at 0x%llx (offset -8))", 128);
    expect_fault("v_mov_b32 v20, 132\n global_store_b32 v20, v20, s[4:5]\n",
                 "write to global address", 0);
    expect_fault("v_mov_b32 v20, 132\n global_store_b32 v20, v20, s[4:5]\n",
                 "(the 16-byte second at 0x%llx (offset 4) is read-only)", 128);
}
END_TEST

START_TEST(scalar_load_past_the_end)
{
    expect_fault("s_load_b64 s[20:21], s[4:5], 0xc\n s_waitcnt lgkmcnt(0)\n",
                 "(4 bytes past the end of the 16-byte first at 0x%llx (offset 12)) by "
                 "'s_load_b64 s[20:21], s[4:5], 0xc'",
                 0);
}
END_TEST

START_TEST(labelled_range_wins_and_far_is_not_mapped)
{
    /* byte 64: 16 bytes after the unlabelled range, 48 after "first" */
    expect_fault("v_mov_b32 v20, 64\n global_load_b32 v10, v20, s[4:5]\n s_waitcnt vmcnt(0)\n",
                 "(52 bytes past the end of the 16-byte first at 0x%llx (offset 64))", 0);
    et_case c = { 0 };
    c.sgpr_in[0] = 0x1000; /* far below everything */
    c.body = "v_mov_b32 v20, 0\n global_load_b32 v10, v20, s[4:5]\n s_waitcnt vmcnt(0)\n";
    rdx_emu *e = emu_with_ranges();
    ck_assert_int_eq(et_run_on(e, &c), RDX_ERR_FAULT);
    ck_assert_msg(strstr(rdx_emu_last_fault(e)->message, "0x1000 (not mapped)"), "%s",
                  rdx_emu_last_fault(e)->message);
    rdx_emu_destroy(e);
}
END_TEST

START_TEST(in_bounds_last_bytes_run)
{
    rdx_emu *e = emu_with_ranges();
    memset(region, 0, sizeof region);
    region[12] = 7;
    et_case c = { 0 };
    c.sgpr_in[0] = (uint32_t)at(0);
    c.sgpr_in[1] = (uint32_t)(at(0) >> 32);
    c.body = "v_mov_b32 v20, 12\n global_load_b32 v10, v20, s[4:5]\n"
             " s_load_b32 s20, s[4:5], 0xc\n s_waitcnt vmcnt(0) lgkmcnt(0)\n"
             " v_add_nc_u32 v10, s20, v10\n";
    c.nout = 1;
    ck_assert_int_eq(et_run_on(e, &c), RDX_OK);
    ck_assert_uint_eq(c.out[0][0], 14);
    rdx_emu_destroy(e);
}
END_TEST

Suite *et_suite_bounds(void)
{
    Suite *s = suite_create("emu_bounds");
    TCase *t = tcase_create("bounds");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, past_the_end_names_the_range_and_offset);
    tcase_add_test(t, before_the_start_and_read_only);
    tcase_add_test(t, scalar_load_past_the_end);
    tcase_add_test(t, labelled_range_wins_and_far_is_not_mapped);
    tcase_add_test(t, in_bounds_last_bytes_run);
    suite_add_tcase(s, t);
    return s;
}
