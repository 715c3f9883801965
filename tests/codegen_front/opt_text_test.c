/* tests/codegen_front/opt_text_test.c — rdx_opts_format / rdx_opts_parse: the text form of
 * OptOp sequences (what `rdx compile -p optimize` prints and `--opts` reads). */
#include <string.h>

#include "tests/codegen_front/cgf_test.h"

START_TEST(opts_round_trip)
{
    const rdx_opt o[] = {
        { RDX_OPTOP_SPLIT, 1, 4, RDX_AXIS_UPCAST, 0 },
        { RDX_OPTOP_SPLIT, 0, 256, RDX_AXIS_GROUP_REDUCE, 1 },
        { RDX_OPTOP_TC, 2, RDX_TC_TILING(2, 1, 1, 2, 4) | RDX_TC_PAD, RDX_AXIS_WARP, 0 },
        { RDX_OPTOP_NOLOCALS, 0, 0, RDX_AXIS_LOOP, 0 },
        { RDX_OPTOP_LDS, 3, 0, RDX_AXIS_LOOP, 0 },
    };
    char buf[512];
    size_t len = rdx_opts_format(o, 5, buf, sizeof buf);
    ck_assert_uint_eq(len, strlen(buf));
    /* written out by hand: TC's amount 2 + 16 + 256 + 8192 + 262144 + 1048576 = 1319186 */
    ck_assert_str_eq(buf, "SPLIT(1,4,UPCAST) SPLIT(0,256,GROUP_REDUCE,1) TC(2,1319186,WARP) "
                          "NOLOCALS(0,0,LOOP) LDS(3,0,LOOP)");
    rdx_opt back[8];
    size_t n = 0;
    ck_assert_msg(!rdx_opts_parse(buf, back, 8, &n), "%s", rdx_error_message());
    ck_assert_uint_eq(n, 5);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(back[i].op, o[i].op);
        ck_assert_int_eq(back[i].axis, o[i].axis);
        ck_assert_int_eq(back[i].amount, o[i].amount);
        ck_assert_int_eq(back[i].target, o[i].target);
        ck_assert_int_eq(back[i].top, o[i].top);
    }
    /* letters, commas between opts, hex amounts */
    ck_assert_int_eq(rdx_opts_parse("SPLIT(2,0x10,r),SPLIT(0,8,l)", back, 8, &n), RDX_OK);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(back[0].amount, 16);
    ck_assert_int_eq(back[0].target, RDX_AXIS_UNROLL);
    ck_assert_int_eq(back[1].target, RDX_AXIS_LOCAL);
    ck_assert_int_eq(rdx_opts_parse("  ", back, 8, &n), RDX_OK);
    ck_assert_uint_eq(n, 0);
    /* a buffer too small: the length needed, whole opts only */
    char small[20];
    ck_assert_uint_eq(rdx_opts_format(o, 2, small, sizeof small),
                      strlen("SPLIT(1,4,UPCAST) SPLIT(0,256,GROUP_REDUCE,1)"));
    ck_assert_str_eq(small, "SPLIT(1,4,UPCAST)");
}
END_TEST

START_TEST(opts_parse_errors)
{
    static const struct {
        const char *text, *msg;
    } bad[] = {
        { "SPLAT(1,4,u)", "column 1 (opt 1): expected an OptOp name" },
        { "SPLIT(1,4,u) SPLIT 1", "column 19 (opt 2): expected '('" },
        { "SPLIT(x,4,u)", "expected an axis (0..31)" },
        { "SPLIT(40,4,u)", "expected an axis (0..31)" },
        { "SPLIT(1;4,u)", "column 8 (opt 1): expected ','" },
        { "SPLIT(1,,u)", "expected an amount" },
        { "SPLIT(1,4,UPCASTS)", "expected an axis type" },
        { "SPLIT(1,4,u,2)", "expected top: 0 or 1" },
        { "SPLIT(1,4,u", "expected ')', found 'end of text'" },
    };
    rdx_opt o[4];
    size_t n;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ck_assert_int_eq(rdx_opts_parse(bad[i].text, o, 4, &n), RDX_ERR_INVALID);
        ck_assert_msg(strstr(rdx_error_message(), bad[i].msg), "%s: '%s' lacks '%s'", bad[i].text,
                      rdx_error_message(), bad[i].msg);
    }
    ck_assert_int_eq(rdx_opts_parse("SPLIT(0,2,u) SPLIT(0,2,u)", o, 1, &n), RDX_ERR_RANGE);
    ck_assert_int_eq(rdx_opts_parse(NULL, o, 1, &n), RDX_ERR_INVALID);
}
END_TEST

TCase *cgf_tcase_opt_text(void)
{
    TCase *tc = tcase_create("opt_text");
    tcase_add_test(tc, opts_round_trip);
    tcase_add_test(tc, opts_parse_errors);
    return tc;
}
