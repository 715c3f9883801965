/*
 * tests/codeobj/t_clang.c — rdx's reader on clang-19's and clang-22's code objects.
 *
 * The OpenCL kernels of tests/data/codeobj/kernels.cl are compiled at test
 * time for gfx1100 and gfx1201 (shared objects linked by ld.lld and
 * relocatable -c objects), wave64, and code object v4.  The oracles:
 *   llvm-readelf -h      e_flags / ABI version / type
 *   llvm-readelf --notes every metadata entry (flattened YAML, compared whole)
 *   llvm-readelf -s      kernel symbols: code offset, code size, descriptor address
 *   llvm-readelf -x      .rodata descriptor bytes, .text bytes
 *   llvm-readelf -r      relocations of relocatable objects
 *   clang -S             .amdhsa_ directives for every descriptor field
 *   llvm-objdump -D      the descriptor decoded by LLVM (gfx1201; on gfx1100 it
 *                        rejects clang 19's reserved GRANULATED_WAVEFRONT_SGPR_COUNT)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/codeobj/co_test.h"

typedef struct config {
    const char *mcpu;
    const char *extra;
    unsigned major;
    unsigned version;
    bool wave32;
    unsigned meta_minor; /* amdhsa.version[1] clang-19 writes */
} config;

static const config configs[] = {
    { "gfx1100", "", 11, 5, true, 2 },
    { "gfx1201", "", 12, 5, true, 2 },
    { "gfx1100", "-mwavefrontsize64", 11, 5, false, 2 },
    { "gfx1100", "-mcode-object-version=4", 11, 4, true, 1 },
    { "gfx1101", "", 11, 5, true, 2 },
    { "gfx1151", "", 11, 5, true, 2 },
    { "gfx1200", "", 12, 5, true, 2 },
    { "gfx1201", "-mcode-object-version=6", 12, 6, true, 2 },
};
enum { NUM_CONFIGS = sizeof configs / sizeof configs[0] };

/* clang 22 (code object v6 by default), checked against LLVM 22's own tools. */
static const config configs22[] = {
    { "gfx1100", "", 11, 6, true, 2 },
    { "gfx1201", "", 12, 6, true, 2 },
    { "gfx1100", "-mwavefrontsize64", 11, 6, false, 2 },
    { "gfx1100", "-mcode-object-version=5", 11, 5, true, 2 },
};
enum { NUM_CONFIGS22 = sizeof configs22 / sizeof configs22[0] };

/* Value of `path` in the flattened oracle, or NULL. */
static const char *oracle_get(const co_lines *l, const char *path)
{
    size_t pl = strlen(path);
    for (size_t i = 0; i < l->n; i++)
        if (!strncmp(l->v[i], path, pl) && l->v[i][pl] == '=')
            return l->v[i] + pl + 1;
    return NULL;
}

static void expect_u(const co_lines *l, const char *base, const char *key, uint64_t got)
{
    char path[256], v[32];
    snprintf(path, sizeof path, "%s/%s", base, key);
    const char *want = oracle_get(l, path);
    if (!want) {
        ck_assert_msg(got == 0 || !strcmp(key, ".workgroup_processor_mode"),
                      "%s absent in llvm-readelf but rdx has %" PRIu64, path, got);
        return;
    }
    snprintf(v, sizeof v, "%" PRIu64, got);
    ck_assert_msg(!strcmp(v, want), "%s: llvm-readelf %s, rdx struct %s", path, want, v);
}

static void expect_s(const co_lines *l, const char *base, const char *key, const char *got)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", base, key);
    const char *want = oracle_get(l, path);
    if (!want) {
        ck_assert_msg(got == NULL, "%s absent in llvm-readelf but rdx has '%s'", path, got);
        return;
    }
    ck_assert_msg(got && !strcmp(got, want), "%s: llvm-readelf '%s', rdx struct '%s'", path, want,
                  got ? got : "(null)");
}

static void expect_b(const co_lines *l, const char *base, const char *key, bool got)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", base, key);
    const char *want = oracle_get(l, path);
    ck_assert_msg(!strcmp(want ? want : "false", got ? "true" : "false"),
                  "%s: llvm-readelf %s, rdx struct %d", path, want ? want : "(absent)", got);
}

/* The metadata struct of every kernel against the flattened llvm-readelf notes. */
static size_t check_meta_struct(const rdx_codeobj *co, const co_lines *l)
{
    size_t checked = 0;
    for (size_t ki = 0; ki < co->num_kernels; ki++) {
        /* Metadata entries are matched by .symbol; find this kernel's index. */
        const rdx_codeobj_kernel *k = &co->kernels[ki];
        ck_assert_msg(k->has_meta, "kernel %s has no metadata", k->name);
        char base[64];
        int idx = -1;
        for (int i = 0; i < 64 && idx < 0; i++) {
            char path[96];
            snprintf(path, sizeof path, "amdhsa.kernels[%d]/.symbol", i);
            const char *sym = oracle_get(l, path);
            if (!sym)
                break;
            char want[256];
            snprintf(want, sizeof want, "%s.kd", k->name);
            if (!strcmp(sym, want))
                idx = i;
        }
        ck_assert_msg(idx >= 0, "llvm-readelf shows no metadata for %s", k->name);
        snprintf(base, sizeof base, "amdhsa.kernels[%d]", idx);
        const rdx_codeobj_kernel_meta *m = &k->meta;
        expect_s(l, base, ".name", m->name);
        expect_s(l, base, ".symbol", m->symbol);
        expect_s(l, base, ".language", m->language);
        expect_u(l, base, ".group_segment_fixed_size", m->group_segment_fixed_size);
        expect_u(l, base, ".private_segment_fixed_size", m->private_segment_fixed_size);
        expect_u(l, base, ".kernarg_segment_size", m->kernarg_segment_size);
        expect_u(l, base, ".kernarg_segment_align", m->kernarg_segment_align);
        expect_u(l, base, ".wavefront_size", m->wavefront_size);
        expect_u(l, base, ".sgpr_count", m->sgpr_count);
        expect_u(l, base, ".vgpr_count", m->vgpr_count);
        expect_u(l, base, ".agpr_count", m->agpr_count);
        expect_u(l, base, ".sgpr_spill_count", m->sgpr_spill_count);
        expect_u(l, base, ".vgpr_spill_count", m->vgpr_spill_count);
        expect_u(l, base, ".max_flat_workgroup_size", m->max_flat_workgroup_size);
        expect_u(l, base, ".uniform_work_group_size", m->uniform_work_group_size);
        expect_b(l, base, ".uses_dynamic_stack", m->uses_dynamic_stack);
        if (m->workgroup_processor_mode >= 0)
            expect_u(l, base, ".workgroup_processor_mode", (uint64_t)m->workgroup_processor_mode);
        else
            expect_s(l, base, ".workgroup_processor_mode", NULL);
        for (uint32_t i = 0; i < m->language_version_count; i++) {
            char key[64];
            snprintf(key, sizeof key, ".language_version[%u]", i);
            expect_u(l, base, key, m->language_version[i]);
        }
        for (int i = 0; i < 3; i++) {
            char key[64];
            snprintf(key, sizeof key, ".reqd_workgroup_size[%d]", i);
            expect_u(l, base, key, m->reqd_workgroup_size[i]);
            snprintf(key, sizeof key, ".workgroup_size_hint[%d]", i);
            expect_u(l, base, key, m->workgroup_size_hint[i]);
        }
        for (size_t i = 0; i < m->num_args; i++) {
            const rdx_codeobj_arg *a = &m->args[i];
            char ab[96];
            snprintf(ab, sizeof ab, "%s/.args[%zu]", base, i);
            expect_s(l, ab, ".name", a->name);
            expect_s(l, ab, ".type_name", a->type_name);
            expect_s(l, ab, ".value_kind", a->value_kind);
            expect_s(l, ab, ".address_space", a->address_space);
            expect_s(l, ab, ".access", a->access);
            expect_s(l, ab, ".actual_access", a->actual_access);
            expect_u(l, ab, ".offset", a->offset);
            expect_u(l, ab, ".size", a->size);
            expect_u(l, ab, ".pointee_align", a->pointee_align);
            expect_b(l, ab, ".is_const", a->is_const);
            expect_b(l, ab, ".is_restrict", a->is_restrict);
            expect_b(l, ab, ".is_volatile", a->is_volatile);
            expect_b(l, ab, ".is_pipe", a->is_pipe);
            checked += 13;
        }
        /* No argument beyond num_args in the oracle. */
        char past[128];
        snprintf(past, sizeof past, "%s/.args[%zu]/.offset", base, m->num_args);
        ck_assert_msg(!oracle_get(l, past), "llvm-readelf has more args than rdx for %s", k->name);
        checked += 24;
    }
    return checked;
}

typedef struct sym {
    uint64_t value, size;
    char type[16], name[256];
} sym;

/* The .symtab entries llvm-readelf -s prints. */
static size_t llvm_symbols(const char *path, sym *out, size_t max)
{
    char *text = co_llvm("llvm-readelf", "-s", "--wide", path, (char *)NULL);
    char *p = strstr(text, "Symbol table '.symtab'");
    ck_assert_msg(p != NULL, "no .symtab in llvm-readelf -s output");
    size_t n = 0;
    for (char *line = strtok(p, "\n"); line; line = strtok(NULL, "\n")) {
        sym s;
        unsigned long long v, sz;
        char bind[16], vis[16], ndx[16];
        if (sscanf(line, " %*u: %llx %llu %15s %15s %15s %15s %255s", &v, &sz, s.type, bind, vis,
                   ndx, s.name) == 7) {
            ck_assert(n < max);
            s.value = v;
            s.size = sz;
            out[n++] = s;
        }
    }
    free(text);
    return n;
}

static void check_config(const config *c, bool reloc)
{
    char name[64], what[128];
    snprintf(name, sizeof name, "k_%s%s%s", c->mcpu, c->extra, reloc ? ".o" : ".co");
    snprintf(what, sizeof what, "%s%s%s%s", c->mcpu, c->extra[0] ? " " : "", c->extra,
             reloc ? " -c" : "");
    char *path = co_compile(c->mcpu, c->extra, reloc, name);
    rdx_codeobj *co;
    ck_assert_msg(rdx_codeobj_read_file(path, &co) == RDX_OK, "%s: %s", what, rdx_error_message());

    /* Header. */
    char *hdr = co_llvm("llvm-readelf", "-h", path, (char *)NULL);
    char flags[64], flags_lc[64]; /* LLVM 19 prints the hex digits upper-case, 22 lower-case */
    snprintf(flags, sizeof flags, "0x%" PRIX32 ", %s", co->e_flags, co->target->name);
    snprintf(flags_lc, sizeof flags_lc, "0x%" PRIx32 ", %s", co->e_flags, co->target->name);
    ck_assert_msg(strstr(hdr, flags) || strstr(hdr, flags_lc),
                  "%s: llvm-readelf -h lacks 'Flags: %s'", what, flags);
    ck_assert_str_eq(co->target->name, c->mcpu);
    char abi[64];
    snprintf(abi, sizeof abi, "ABI Version:                       %u", co->abi_version);
    ck_assert_msg(strstr(hdr, abi), "%s: ABI version %u not in llvm-readelf -h", what,
                  co->abi_version);
    ck_assert_uint_eq(co->version, c->version);
    ck_assert(co->relocatable == reloc);
    ck_assert(strstr(hdr, reloc ? "REL (Relocatable file)" : "DYN (Shared object file)"));
    free(hdr);

    /* Metadata: every entry. */
    char *notes = co_llvm("llvm-readelf", "--notes", path, (char *)NULL);
    co_lines want = { 0 }, got = { 0 };
    co_flatten_llvm_notes(notes, &want);
    ck_assert_ptr_nonnull(co->meta_doc);
    co_flatten_doc(co->meta_doc, &got);
    co_lines_assert_equal(&got, &want, what);
    ck_assert_uint_gt(want.n, 100);
    size_t meta_checked = check_meta_struct(co, &want);
    char tgt[64];
    snprintf(tgt, sizeof tgt, "amdgcn-amd-amdhsa--%s", c->mcpu);
    ck_assert_str_eq(co->meta_target, tgt);
    ck_assert_uint_eq(co->meta_version[0], 1);
    ck_assert_uint_eq(co->meta_version[1], c->meta_minor);
    free(notes);

    /* Symbols, code offsets and sizes, descriptor bytes. */
    sym syms[64];
    size_t ns = llvm_symbols(path, syms, 64);
    uint64_t ro_addr = 0, tx_addr = 0;
    size_t ro_len, tx_len;
    uint8_t *ro = co_section_bytes(path, ".rodata", &ro_addr, &ro_len);
    uint8_t *tx = co_section_bytes(path, ".text", &tx_addr, &tx_len);
    ck_assert_uint_eq(tx_len, co->text_size);
    ck_assert(!memcmp(tx, co->text, tx_len));
    if (!reloc)
        ck_assert_uint_eq(tx_addr, co->text_addr);
    size_t nkd = 0;
    for (size_t i = 0; i < ns; i++) {
        size_t l = strlen(syms[i].name);
        if (l > 3 && !strcmp(syms[i].name + l - 3, ".kd") && !strcmp(syms[i].type, "OBJECT"))
            nkd++;
    }
    ck_assert_uint_eq(co->num_kernels, nkd);
    ck_assert_uint_eq(co->num_kernels, 5);
    char *s_text = co_compile_asm(c->mcpu, c->extra);
    size_t fields = 0;
    for (size_t i = 0; i < co->num_kernels; i++) {
        const rdx_codeobj_kernel *k = &co->kernels[i];
        char kdname[256];
        snprintf(kdname, sizeof kdname, "%s.kd", k->name);
        const sym *fs = NULL, *ks = NULL;
        for (size_t j = 0; j < ns; j++) {
            if (!strcmp(syms[j].name, k->name) && !strcmp(syms[j].type, "FUNC"))
                fs = &syms[j];
            if (!strcmp(syms[j].name, kdname))
                ks = &syms[j];
        }
        ck_assert_msg(fs && ks, "%s: symbols of %s missing", what, k->name);
        /* Relocatable objects: symbol values are section offsets. */
        ck_assert_uint_eq(k->code_offset, reloc ? fs->value : fs->value - co->text_addr);
        ck_assert_uint_eq(k->code_size, fs->size);
        uint64_t off = reloc ? ks->value : ks->value - ro_addr;
        ck_assert_uint_le(off + 64, ro_len);
        uint8_t packed[64];
        ck_assert_int_eq(rdx_codeobj_kd_pack(&k->kd, c->major, packed), RDX_OK);
        if (reloc) /* the entry offset is 0 in the file and relocated */
            memset(packed + 16, 0, 8);
        ck_assert_msg(!memcmp(packed, ro + off, 64), "%s: descriptor bytes of %s differ", what,
                      k->name);
        ck_assert_uint_eq(k->kd.enable_wavefront_size32, c->wave32);
        /* Every .amdhsa_ directive clang printed for this kernel. */
        co_directive d[96];
        size_t nd = co_kernel_directives(s_text, k->name, d, 96);
        char kw[160];
        snprintf(kw, sizeof kw, "%s kernel %s (clang -S)", what, k->name);
        fields += co_check_directives(d, nd, &k->kd, c->major, kw);
    }
    ck_assert_uint_gt(fields, 5 * 30);

    /* llvm-objdump's own decoding of the descriptors. */
    char *dis = co_llvm("llvm-objdump", "-D", "-j", ".rodata", path, (char *)NULL);
    size_t od_fields = 0;
    for (size_t i = 0; i < co->num_kernels; i++) {
        const rdx_codeobj_kernel *k = &co->kernels[i];
        if (k->kd.granulated_wavefront_sgpr_count) {
            /* LLVM 19 rejects what clang 19 wrote; rdx keeps it (see the note). */
            ck_assert_msg(strstr(dis, "GRANULATED_WAVEFRONT_SGPR_COUNT reserved bits"),
                          "%s: expected llvm-objdump to reject %s's descriptor", what, k->name);
            continue;
        }
        co_directive d[96];
        size_t nd = co_kernel_directives(dis, k->name, d, 96);
        char kw[160];
        snprintf(kw, sizeof kw, "%s kernel %s (llvm-objdump)", what, k->name);
        od_fields += co_check_directives(d, nd, &k->kd, c->major, kw);
    }
    free(dis);

    /* Relocations. */
    if (reloc) {
        char *rel = co_llvm("llvm-readelf", "-r", "--wide", path, (char *)NULL);
        size_t nrel = 0;
        for (char *line = strtok(rel, "\n"); line; line = strtok(NULL, "\n")) {
            unsigned long long off, info, sv, add;
            char type[64], sname[256];
            if (sscanf(line, "%llx %llx %63s %llx %255s + %llx", &off, &info, type, &sv, sname,
                       &add) != 6)
                continue;
            ck_assert_uint_lt(nrel, co->num_relocs);
            const rdx_codeobj_reloc *r = &co->relocs[nrel++];
            ck_assert_uint_eq(r->offset, off);
            ck_assert_uint_eq(r->type, info & 0xffffffff);
            ck_assert_str_eq(r->symbol, sname);
            ck_assert_uint_eq((uint64_t)r->addend, add);
            ck_assert_str_eq(type, r->type == 5 ? "R_AMDGPU_REL64" : "R_AMDGPU_ABS64");
        }
        ck_assert_uint_eq(nrel, co->num_relocs);
        ck_assert_uint_ge(nrel, co->num_kernels);
        free(rel);
    } else {
        ck_assert_uint_eq(co->num_relocs, 0);
    }
    printf("%s: %zu metadata entries equal, %zu struct fields, %zu descriptor fields vs clang -S, "
           "%zu vs llvm-objdump\n",
           what, want.n, meta_checked, fields, od_fields);
    free(s_text);
    free(ro);
    free(tx);
    co_lines_free(&want);
    co_lines_free(&got);
    rdx_codeobj_free(co);
    free(path);
}

START_TEST(clang_shared_objects)
{
    check_config(&configs[_i], false);
}
END_TEST

START_TEST(clang_relocatable_objects)
{
    check_config(&configs[_i], true);
}
END_TEST

START_TEST(clang22_shared_objects)
{
    co_llvm_major = 22;
    check_config(&configs22[_i], false);
}
END_TEST

START_TEST(clang22_relocatable_objects)
{
    co_llvm_major = 22;
    check_config(&configs22[_i], true);
}
END_TEST

TCase *co_tcase_clang(void)
{
    TCase *tc = tcase_create("clang");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, clang_shared_objects, 0, NUM_CONFIGS);
    tcase_add_loop_test(tc, clang_relocatable_objects, 0, 2);
    tcase_add_loop_test(tc, clang22_shared_objects, 0, NUM_CONFIGS22);
    tcase_add_loop_test(tc, clang22_relocatable_objects, 0, 2);
    return tc;
}
