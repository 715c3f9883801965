/*
 * tests/codeobj/t_kd.c — the kernel descriptor layout.  Oracle: llvm-mc
 * encodes .amdhsa_kernel blocks (one kernel per field, each field set to 0
 * and to its maximum legal value), llvm-objdump -D decodes them back into
 * directives; rdx's decoding of the same bytes must agree on every field.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/isa.h>

#include "tests/codeobj/co_test.h"

/* Directives LLVM 19 does not accept, with the reason. */
static const char *const llvm19_lacks[] = {
    "amdhsa_inst_pref_size", /* added to the assembler after LLVM 19 */
    /* LLVM 19 on gfx11/gfx12: "directive requires gfx90a+": */
    "amdhsa_user_sgpr_kernarg_preload_length",
    "amdhsa_user_sgpr_kernarg_preload_offset",
    /* "directive is not supported with architected flat scratch" (gfx11, gfx12): */
    "amdhsa_user_sgpr_private_segment_buffer",
    "amdhsa_user_sgpr_flat_scratch_init",
};

static bool lacks(const char *d)
{
    for (size_t i = 0; i < sizeof llvm19_lacks / sizeof llvm19_lacks[0]; i++)
        if (!strcmp(llvm19_lacks[i], d))
            return true;
    return false;
}

/* Largest value llvm-mc accepts for a field. */
static unsigned max_legal(const rdx_kd_field *f)
{
    if (!strcmp(f->name, "enable_vgpr_workitem_id"))
        return 2;
    if (!strcmp(f->name, "user_sgpr_count"))
        return 16;
    if (!strcmp(f->name, "shared_vgpr_count"))
        return 7;
    return (1u << f->width) - 1;
}

static void append(char **buf, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#include <stdarg.h>
static void append(char **buf, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    *buf = realloc(*buf, *len + (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(*buf + *len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    *len += (size_t)n;
}

static void kernel_block(char **s, size_t *len, const char *name, const char *body)
{
    append(s, len, ".text\n.p2align 8\n.type %s,@function\n%s:\n  s_endpgm\n", name, name);
    append(s, len,
           ".rodata\n.p2align 6\n.amdhsa_kernel %s\n%s  .amdhsa_next_free_vgpr 1\n"
           "  .amdhsa_next_free_sgpr 1\n.end_amdhsa_kernel\n",
           name, body);
}

static void check_llvm_mc(const char *mcpu, unsigned major)
{
    char *src = NULL, names[256][64];
    size_t len = 0, nk = 0;
    append(&src, &len, ".amdgcn_target \"amdgcn-amd-amdhsa--%s\"\n", mcpu);
    for (size_t i = 0; i < rdx_codeobj_kd_field_count(); i++) {
        const rdx_kd_field *f = rdx_codeobj_kd_field_at(i);
        if (!f->directive || major < f->min_major || major > f->max_major || lacks(f->directive))
            continue;
        for (int hi = 0; hi < 2; hi++) {
            char body[256];
            unsigned v = hi ? max_legal(f) : 0;
            snprintf(body, sizeof body, "  .%s %u\n", f->directive, v);
            /* Fields that need another directive to be legal. */
            if (!strcmp(f->name, "shared_vgpr_count") && v)
                strcat(body, "  .amdhsa_wavefront_size32 0\n");
            if (!strcmp(f->name, "user_sgpr_count") && v == 0)
                continue; /* must cover the enabled kernarg pointer */
            snprintf(names[nk], sizeof names[nk], "k_%s_%u", f->name, v);
            kernel_block(&src, &len, names[nk], body);
            nk++;
        }
    }
    /* VGPR/SGPR granules at the boundaries, wave32 and wave64. */
    static const unsigned vgprs[] = { 1, 7, 8, 9, 16, 17, 63, 64, 65, 100, 255, 256 };
    static const unsigned sgprs[] = { 1, 8, 9, 17, 100, 104 };
    for (size_t i = 0; i < sizeof vgprs / sizeof vgprs[0]; i++) {
        for (int w32 = 0; w32 < 2; w32++) {
            snprintf(names[nk], sizeof names[nk], "v%u_w%d", vgprs[i], w32 ? 32 : 64);
            append(&src, &len,
                   ".text\n.p2align 8\n%s:\n  s_endpgm\n.rodata\n.p2align 6\n.amdhsa_kernel "
                   "%s\n  .amdhsa_next_free_vgpr %u\n  .amdhsa_next_free_sgpr %u\n"
                   "  .amdhsa_wavefront_size32 %d\n.end_amdhsa_kernel\n",
                   names[nk], names[nk], vgprs[i], sgprs[i % (sizeof sgprs / sizeof sgprs[0])],
                   w32);
            nk++;
        }
    }
    ck_assert(nk < 256);
    char *s_path = rdx_test_tmp_path("fields.s"), *o_path = rdx_test_tmp_path("fields.o");
    rdx_test_write_file(s_path, src, len);
    char mflag[64];
    snprintf(mflag, sizeof mflag, "-mcpu=%s", mcpu);
    free(co_llvm("llvm-mc", "-triple=amdgcn-amd-amdhsa", mflag, "-filetype=obj", "-o", o_path,
                 s_path, (char *)NULL));
    char *dis = co_llvm("llvm-objdump", "-D", "-j", ".rodata", o_path, (char *)NULL);
    rdx_codeobj *co;
    ck_assert_msg(rdx_codeobj_read_file(o_path, &co) == RDX_OK, "%s", rdx_error_message());
    ck_assert_uint_eq(co->num_kernels, nk);
    size_t checked = 0;
    for (size_t i = 0; i < co->num_kernels; i++) {
        const rdx_codeobj_kernel *k = &co->kernels[i];
        co_directive d[96];
        size_t n = co_kernel_directives(dis, k->name, d, 96);
        ck_assert_uint_gt(n, 30);
        char what[128];
        snprintf(what, sizeof what, "%s kernel %s", mcpu, k->name);
        checked += co_check_directives(d, n, &k->kd, major, what);
        /* The entry offset, resolved from the R_AMDGPU_REL64 relocation. */
        ck_assert_uint_eq(co->text_addr + k->code_offset,
                          co->text_addr + 256 * i); /* one 256-aligned s_endpgm each */
    }
    printf("%s: %zu descriptor fields of %zu llvm-mc kernels agree with llvm-objdump\n", mcpu,
           checked, nk);
    rdx_codeobj_free(co);
    free(dis);
    free(src);
    free(s_path);
    free(o_path);
}

START_TEST(kd_fields_match_llvm_mc_gfx1100)
{
    check_llvm_mc("gfx1100", 11);
}
END_TEST

START_TEST(kd_fields_match_llvm_mc_gfx1201)
{
    check_llvm_mc("gfx1201", 12);
}
END_TEST

/* Any 64 bytes decode, and encode back to the same bytes. */
START_TEST(kd_unpack_pack_identity)
{
    srand(1234);
    for (int major = 11; major <= 12; major++) {
        for (int iter = 0; iter < 3000; iter++) {
            uint8_t b[64], c[64];
            for (int i = 0; i < 64; i++)
                b[i] = (uint8_t)rand();
            rdx_kernel_descriptor kd;
            ck_assert_int_eq(rdx_codeobj_kd_unpack(b, (unsigned)major, &kd), RDX_OK);
            ck_assert_int_eq(rdx_codeobj_kd_pack(&kd, (unsigned)major, c), RDX_OK);
            ck_assert_msg(!memcmp(b, c, 64), "gfx%d: pack(unpack(x)) != x at iteration %d", major,
                          iter);
        }
    }
}
END_TEST

/* Independent hand check of the byte layout against AMDGPUUsage. */
START_TEST(kd_layout_by_hand)
{
    rdx_kernel_descriptor kd;
    memset(&kd, 0, sizeof kd);
    kd.group_segment_fixed_size = 0x11223344;
    kd.private_segment_fixed_size = 0x55;
    kd.kernarg_size = 0x66;
    kd.kernel_code_entry_byte_offset = -0x100;
    kd.granulated_workitem_vgpr_count = 0x3f; /* rsrc1 bits 5:0 at byte 48 */
    kd.fwd_progress = 1;                      /* rsrc1 bit 31 */
    kd.user_sgpr_count = 0x1f;                /* rsrc2 bits 5:1 at byte 52 */
    kd.image_op = 1;                          /* rsrc3 bit 31 at byte 44 */
    kd.uses_dynamic_stack = 1;                /* properties bit 11 at byte 56 */
    kd.kernarg_preload_spec_offset = 0x1ff;   /* preload bits 15:7 at byte 58 */
    uint8_t b[64];
    ck_assert_int_eq(rdx_codeobj_kd_pack(&kd, 11, b), RDX_OK);
    static const uint8_t want[64] = {
        [0] = 0x44,  [1] = 0x33,  [2] = 0x22,  [3] = 0x11,  [4] = 0x55,  [8] = 0x66,  [16] = 0x00,
        [17] = 0xff, [18] = 0xff, [19] = 0xff, [20] = 0xff, [21] = 0xff, [22] = 0xff, [23] = 0xff,
        [47] = 0x80, [48] = 0x3f, [51] = 0x80, [52] = 0x3e, [57] = 0x08, [58] = 0x80, [59] = 0xff,
    };
    for (int i = 0; i < 64; i++)
        ck_assert_msg(b[i] == want[i], "byte %d: got 0x%02x want 0x%02x", i, b[i], want[i]);
}
END_TEST

START_TEST(kd_table_is_consistent)
{
    for (unsigned major = 11; major <= 12; major++) {
        uint32_t used[5] = { 0 };
        for (size_t i = 0; i < rdx_codeobj_kd_field_count(); i++) {
            const rdx_kd_field *f = rdx_codeobj_kd_field_at(i);
            ck_assert_uint_le(f->shift + f->width, f->word >= RDX_KD_WORD_PROPERTIES ? 16 : 32);
            if (major < f->min_major || major > f->max_major)
                continue;
            uint32_t m = (f->width == 32 ? 0xffffffffu : (1u << f->width) - 1) << f->shift;
            ck_assert_msg(!(used[f->word] & m), "gfx%u: field %s overlaps another", major, f->name);
            used[f->word] |= m;
            ck_assert_ptr_eq(rdx_codeobj_kd_field_find(f->name, major), f);
            if (f->directive)
                ck_assert_ptr_eq(rdx_codeobj_kd_field_find(f->directive, major), f);
        }
    }
    ck_assert_ptr_null(rdx_codeobj_kd_field_find("enable_dx10_clamp", 12));
    ck_assert_ptr_null(rdx_codeobj_kd_field_find("enable_wg_rr_en", 11));
    ck_assert_ptr_null(rdx_codeobj_kd_field_find("no_such_field", 11));
}
END_TEST

START_TEST(kd_pack_errors)
{
    rdx_kernel_descriptor kd;
    uint8_t b[64];
    memset(&kd, 0, sizeof kd);
    kd.user_sgpr_count = 32;
    ck_assert_int_eq(rdx_codeobj_kd_pack(&kd, 11, b), RDX_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "user_sgpr_count"));
    memset(&kd, 0, sizeof kd);
    kd.enable_dx10_clamp = 1;
    ck_assert_int_eq(rdx_codeobj_kd_pack(&kd, 12, b), RDX_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "enable_dx10_clamp"));
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "gfx12"));
    memset(&kd, 0, sizeof kd);
    kd.inst_pref_size = 0xff; /* 8 bits on gfx12, 6 on gfx11 */
    ck_assert_int_eq(rdx_codeobj_kd_pack(&kd, 12, b), RDX_OK);
    ck_assert_int_eq(rdx_codeobj_kd_pack(&kd, 11, b), RDX_ERR_RANGE);
    memset(&kd, 0, sizeof kd);
    kd.rsrc1_reserved = 1; /* overlaps granulated_workitem_vgpr_count */
    ck_assert_int_eq(rdx_codeobj_kd_pack(&kd, 11, b), RDX_ERR_RANGE);
    memset(&kd, 0, sizeof kd);
    ck_assert_int_eq(rdx_codeobj_kd_pack(&kd, 10, b), RDX_ERR_UNSUPPORTED);
    ck_assert_int_eq(rdx_codeobj_kd_unpack(b, 9, &kd), RDX_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "gfx9"));
    const rdx_kd_field *f = rdx_codeobj_kd_field_find("priority", 11);
    ck_assert_int_eq(rdx_codeobj_kd_set(&kd, f, 4), RDX_ERR_RANGE);
    ck_assert_int_eq(rdx_codeobj_kd_set(&kd, f, 3), RDX_OK);
    ck_assert_uint_eq(kd.priority, 3);
}
END_TEST

START_TEST(targets_match_llvm)
{
    /* EF_AMDGPU_MACH of every target as llvm-readelf names it for clang's output is checked
       in t_clang.c; here the table's own invariants and lookups. */
    ck_assert_uint_eq(rdx_codeobj_target_mach("gfx1100"), 0x41);
    ck_assert_uint_eq(rdx_codeobj_target_mach("gfx1201"), 0x4e);
    ck_assert_uint_eq(rdx_codeobj_target_mach("gfx900"), 0);
    ck_assert_ptr_null(rdx_codeobj_target_find(NULL));
    for (size_t i = 0; i < rdx_codeobj_target_count(); i++) {
        const rdx_codeobj_target *t = rdx_codeobj_target_at(i);
        ck_assert_ptr_eq(rdx_codeobj_target_by_mach(t->mach), t);
        ck_assert_ptr_eq(rdx_codeobj_target_find(t->name), t);
        char name[16];
        snprintf(name, sizeof name, "gfx%u%u%x", t->major, t->minor, t->stepping);
        ck_assert_str_eq(name, t->name);
    }
    ck_assert_ptr_null(rdx_codeobj_target_at(rdx_codeobj_target_count()));
    /* derived from isa-core's table, row for row (one source of truth) */
    ck_assert_uint_eq(rdx_codeobj_target_count(), rdx_isa_target_count());
    for (size_t i = 0; i < rdx_isa_target_count(); i++) {
        ck_assert_str_eq(rdx_codeobj_target_at(i)->name, rdx_isa_target_at(i)->name);
        ck_assert_uint_eq(rdx_codeobj_target_at(i)->mach, rdx_isa_target_at(i)->elf_mach);
    }
    const rdx_codeobj_target *t = rdx_codeobj_target_find("gfx1151");
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_eq(t->major, 11);
    ck_assert_uint_eq(t->minor, 5);
    ck_assert_uint_eq(t->stepping, 1);
    ck_assert(!t->xnack_supported && !t->sramecc_supported);
    t = rdx_codeobj_target_find("amdgcn-amd-amdhsa--gfx1200");
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_eq(t->major, 12);
    ck_assert_uint_eq(t->minor, 0);
    ck_assert_uint_eq(t->stepping, 0);
}
END_TEST

/*
 * rdx_codeobj_kd_init and rdx_codeobj_kd_implied_user_sgprs against llvm-mc:
 * a block with only the register counts (the defaults), and blocks enabling
 * user SGPRs without .amdhsa_user_sgpr_count (llvm-mc computes the count).
 */
static void check_defaults(const char *mcpu, unsigned major)
{
    static const char *const enables[][3] = {
        { NULL }, /* the defaults */
        { "amdhsa_user_sgpr_kernarg_segment_ptr", NULL },
        { "amdhsa_user_sgpr_dispatch_ptr", "amdhsa_user_sgpr_queue_ptr", NULL },
        { "amdhsa_user_sgpr_dispatch_id", "amdhsa_user_sgpr_private_segment_size", NULL },
        { "amdhsa_user_sgpr_dispatch_ptr", "amdhsa_user_sgpr_kernarg_segment_ptr",
          "amdhsa_user_sgpr_private_segment_size" },
    };
    enum { N = sizeof enables / sizeof enables[0] };
    char *src = NULL;
    size_t len = 0;
    append(&src, &len, ".amdgcn_target \"amdgcn-amd-amdhsa--%s\"\n", mcpu);
    for (int i = 0; i < N; i++) {
        char body[512] = "", name[16];
        for (int j = 0; j < 3 && enables[i][j]; j++) {
            strcat(body, "  .");
            strcat(body, enables[i][j]);
            strcat(body, " 1\n");
        }
        snprintf(name, sizeof name, "d%d", i);
        kernel_block(&src, &len, name, body);
    }
    char *s_path = rdx_test_tmp_path("defaults.s"), *o_path = rdx_test_tmp_path("defaults.o");
    rdx_test_write_file(s_path, src, len);
    char mflag[64];
    snprintf(mflag, sizeof mflag, "-mcpu=%s", mcpu);
    free(co_llvm("llvm-mc", "-triple=amdgcn-amd-amdhsa", mflag, "-filetype=obj", "-o", o_path,
                 s_path, (char *)NULL));
    size_t ro_len;
    uint8_t *ro = co_section_bytes(o_path, ".rodata", NULL, &ro_len);
    ck_assert_uint_eq(ro_len, 64 * N);
    for (int i = 0; i < N; i++) {
        rdx_kernel_descriptor kd;
        rdx_codeobj_kd_init(&kd, major);
        for (int j = 0; j < 3 && enables[i][j]; j++) {
            const rdx_kd_field *f = rdx_codeobj_kd_field_find(enables[i][j], major);
            ck_assert_ptr_nonnull(f);
            ck_assert_int_eq(rdx_codeobj_kd_set(&kd, f, 1), RDX_OK);
        }
        kd.user_sgpr_count = rdx_codeobj_kd_implied_user_sgprs(&kd);
        uint8_t b[64];
        ck_assert_int_eq(rdx_codeobj_kd_pack(&kd, major, b), RDX_OK);
        memset(ro + 64 * i + 16, 0, 8); /* the entry offset is relocated */
        for (int j = 0; j < 64; j++)
            ck_assert_msg(b[j] == ro[64 * i + j],
                          "%s kernel d%d: byte %d is 0x%02x, llvm-mc 0x%02x", mcpu, i, j, b[j],
                          ro[64 * i + j]);
    }
    free(ro);
    free(src);
    free(s_path);
    free(o_path);
}

START_TEST(kd_defaults_match_llvm_mc)
{
    check_defaults("gfx1100", 11);
    check_defaults("gfx1201", 12);
}
END_TEST

TCase *co_tcase_kd(void)
{
    TCase *tc = tcase_create("kd");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, kd_unpack_pack_identity);
    tcase_add_test(tc, kd_layout_by_hand);
    tcase_add_test(tc, kd_table_is_consistent);
    tcase_add_test(tc, kd_pack_errors);
    tcase_add_test(tc, targets_match_llvm);
    tcase_add_test(tc, kd_fields_match_llvm_mc_gfx1100);
    tcase_add_test(tc, kd_fields_match_llvm_mc_gfx1201);
    tcase_add_test(tc, kd_defaults_match_llvm_mc);
    return tc;
}
