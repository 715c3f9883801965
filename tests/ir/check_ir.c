/* tests/ir/check_ir.c — the IR suite: dtypes, derivation, verifier, text, rewriting, symbolic
 * algebra, decompositions and the `rdx uop` command. */
#include "tests/ir/ir_test.h"

rdx_ir_ctx *ir_ctx(void)
{
    rdx_ir_ctx *c = NULL;
    ck_assert_int_eq(rdx_ir_ctx_create(&c), RDX_OK);
    return c;
}

uint64_t ir_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int64_t ir_rand_range(uint64_t *s, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(ir_rand(s) % (uint64_t)(hi - lo + 1));
}

int main(void)
{
    Suite *s = suite_create("ir");
    suite_add_tcase(s, ir_tcase_dtype());
    suite_add_tcase(s, ir_tcase_derive());
    suite_add_tcase(s, ir_tcase_verify());
    suite_add_tcase(s, ir_tcase_text());
    suite_add_tcase(s, ir_tcase_rewrite());
    suite_add_tcase(s, ir_tcase_symbolic());
    suite_add_tcase(s, ir_tcase_eval());
    suite_add_tcase(s, ir_tcase_decomp());
    suite_add_tcase(s, ir_tcase_cli());
    suite_add_tcase(s, ir_tcase_gate());
    suite_add_tcase(s, ir_tcase_spare());
    suite_add_tcase(s, ir_tcase_fp8());
    return rdx_test_main(s);
}
