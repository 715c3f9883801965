/* tests/emu/emu_test.c — helpers and the suite main of the emulator instruction tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/emu/emu_test.h"
#include "util/error.h"

uint32_t et_f(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

float et_uf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

uint32_t et_ulp(uint32_t a, uint32_t b)
{
    if ((a & 0x7fffffffu) > 0x7f800000u && (b & 0x7fffffffu) > 0x7f800000u)
        return 0;
    int64_t x = (a >> 31) ? -(int64_t)(a & 0x7fffffffu) : (int64_t)a;
    int64_t y = (b >> 31) ? -(int64_t)(b & 0x7fffffffu) : (int64_t)b;
    int64_t d = x - y;
    return (uint32_t)(d < 0 ? -d : d);
}

uint8_t *et_assemble(const char *text, size_t *len)
{
    return et_assemble_w(text, 32, len);
}

uint8_t *et_assemble_w(const char *text, unsigned lanes, size_t *len)
{
    return et_assemble_t(text, lanes, NULL, len);
}

uint8_t *et_assemble_t(const char *text, unsigned lanes, const char *target, size_t *len)
{
    /* an object file, so labels and label arithmetic are resolved; then its raw .text */
    static unsigned seq;
    char name[64];
    snprintf(name, sizeof name, "et%u.s", seq);
    char *src = rdx_test_tmp_path(name);
    snprintf(name, sizeof name, "et%u.o", seq);
    char *obj = rdx_test_tmp_path(name);
    snprintf(name, sizeof name, "et%u.bin", seq++);
    char *bin = rdx_test_tmp_path(name);
    size_t n = strlen(text);
    char *full = malloc(n + 64);
    ck_assert_ptr_nonnull(full);
    snprintf(full, n + 64, ".text\n%s\n", text);
    rdx_test_write_file(src, full, strlen(full));
    free(full);
    char mc[512], oc[512]; /* the harness returns static storage: copy each */
    const char *t = rdx_test_llvm_tool("llvm-mc");
    ck_assert_msg(t != NULL, "llvm-mc not found");
    snprintf(mc, sizeof mc, "%s", t);
    t = rdx_test_llvm_tool("llvm-objcopy");
    ck_assert_msg(t != NULL, "llvm-objcopy not found");
    snprintf(oc, sizeof oc, "%s", t);
    char mcpu[64];
    snprintf(mcpu, sizeof mcpu, "-mcpu=%s", target ? target : "gfx1100");
    const char *argv[] = { mc,   "-triple=amdgcn-amd-amdhsa",
                           mcpu, "-filetype=obj",
                           "-o", obj,
                           src,  lanes == 64 ? "-mattr=+wavefrontsize64" : NULL,
                           NULL };
    rdx_test_proc p;
    rdx_test_run(argv, NULL, 0, &p);
    ck_assert_msg(p.status == 0, "llvm-mc failed:\n%s\ninput:\n%s", p.err, text);
    rdx_test_proc_free(&p);
    const char *argv2[] = { oc, "-O", "binary", "--only-section=.text", obj, bin, NULL };
    rdx_test_run(argv2, NULL, 0, &p);
    ck_assert_msg(p.status == 0, "llvm-objcopy failed:\n%s", p.err);
    rdx_test_proc_free(&p);
    uint8_t *out = (uint8_t *)rdx_test_read_file(bin, len);
    free(src);
    free(obj);
    free(bin);
    return out;
}

static char *build_source(const et_case *c)
{
    size_t cap = strlen(c->body) + 8192;
    char *src = malloc(cap);
    ck_assert_ptr_nonnull(src);
    size_t k = 0;
    k += (size_t)snprintf(src + k, cap - k, "v_lshlrev_b32 v0, 6, v0\n");
    for (unsigned i = 0; i < c->nin; i++)
        k += (size_t)snprintf(src + k, cap - k, "global_load_b32 v%u, v0, s[2:3] offset:%u\n",
                              1 + i, 4 * i);
    int gfx12 = c->target && !strncmp(c->target, "gfx12", 5);
    k += (size_t)snprintf(src + k, cap - k, "%s\n%s\n",
                          gfx12 ? "s_wait_loadcnt 0" : "s_waitcnt vmcnt(0)", c->body);
    for (unsigned i = 0; i < c->nout; i++)
        k += (size_t)snprintf(src + k, cap - k, "global_store_b32 v0, v%u, s[0:1] offset:%u\n",
                              10 + i, 4 * i);
    k += (size_t)snprintf(src + k, cap - k, "s_endpgm\n");
    return src;
}

rdx_status et_run_on(rdx_emu *emu, et_case *c)
{
    unsigned lanes = c->lanes ? c->lanes : 32;
    char *src = build_source(c);
    size_t len;
    uint8_t *bytes = et_assemble_t(src, lanes, c->target, &len);
    free(src);
    uint8_t *code = aligned_alloc(4096, 65536);
    ck_assert_ptr_nonnull(code);
    memset(code, 0, 65536);
    ck_assert_uint_lt(len, 65536);
    memcpy(code, bytes, len);
    free(bytes);
    static uint32_t inbuf[64 * ET_SLOTS], outbuf[64 * ET_SLOTS];
    for (unsigned l = 0; l < 64; l++)
        for (unsigned i = 0; i < ET_SLOTS; i++) {
            inbuf[l * ET_SLOTS + i] = c->in[l][i];
            outbuf[l * ET_SLOTS + i] = 0xdeadbeefu;
        }
    rdx_emu_dispatch d;
    memset(&d, 0, sizeof d);
    d.code = (uint64_t)(uintptr_t)code;
    d.rsrc1 = c->rsrc1 ? c->rsrc1 : (63u | 3u << 16 | 3u << 18 | 1u << 21 | 1u << 23);
    d.rsrc2 = 12u << 1; /* user SGPRs s0..s11, no system SGPRs */
    d.code_properties = lanes == 32 ? 1u << 10 : 0;
    d.grid[0] = lanes;
    d.wg[0] = lanes;
    d.group_segment_size = c->lds;
    d.private_segment_size = c->scratch;
    d.budget = c->budget;
    uint64_t o = (uint64_t)(uintptr_t)outbuf, in = (uint64_t)(uintptr_t)inbuf;
    d.user_sgpr[0] = (uint32_t)o;
    d.user_sgpr[1] = (uint32_t)(o >> 32);
    d.user_sgpr[2] = (uint32_t)in;
    d.user_sgpr[3] = (uint32_t)(in >> 32);
    for (int i = 0; i < 8; i++)
        d.user_sgpr[4 + i] = c->sgpr_in[i];
    d.user_sgpr_count = 12;
    ck_assert_int_eq(rdx_emu_map(emu, d.code, 65536, RDX_EMU_READ), RDX_OK);
    ck_assert_int_eq(rdx_emu_map(emu, o, sizeof outbuf, RDX_EMU_RW), RDX_OK);
    ck_assert_int_eq(rdx_emu_map(emu, in, sizeof inbuf, RDX_EMU_READ), RDX_OK);
    rdx_status st = rdx_emu_run(emu, &d);
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", rdx_error_message());
    rdx_emu_unmap(emu, d.code);
    rdx_emu_unmap(emu, o);
    rdx_emu_unmap(emu, in);
    free(code);
    for (unsigned l = 0; l < 64; l++)
        for (unsigned i = 0; i < ET_SLOTS; i++)
            c->out[l][i] = outbuf[l * ET_SLOTS + i];
    if (st)
        rdx_fail(st, "%s", msg);
    return st;
}

rdx_status et_run(et_case *c)
{
    rdx_emu *emu;
    ck_assert_int_eq(rdx_emu_create(c->target ? c->target : "gfx1100", &emu), RDX_OK);
    rdx_emu_set_threads(emu, 1);
    rdx_status st = et_run_on(emu, c);
    rdx_emu_destroy(emu);
    return st;
}

void et_ok(et_case *c)
{
    rdx_status st = et_run(c);
    ck_assert_msg(st == RDX_OK, "emulator: %s\nbody:\n%s", rdx_error_message(), c->body);
}

int main(void)
{
    Suite *s = suite_create("emu");
    Suite *parts[] = { et_suite_valu(),    et_suite_salu(),  et_suite_mem(),    et_suite_faults(),
                       et_suite_api(),     et_suite_run(),   et_suite_fpmode(), et_suite_ctrl(),
                       et_suite_mimg(),    et_suite_model(), et_suite_bounds(), et_suite_remu(),
                       et_suite_silicon(), et_suite_stop(),  et_suite_rules(),  et_suite_fidelity(),
                       et_suite_targets(), et_suite_fp8(),   et_suite_wmma12() };
    SRunner *sr = srunner_create(s);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        srunner_add_suite(sr, parts[i]);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
