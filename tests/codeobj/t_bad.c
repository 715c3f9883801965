/*
 * tests/codeobj/t_bad.c — malformed code objects: every truncation, random
 * byte mutations, and specific corruptions, each giving a clear error (or a
 * valid read) and never a crash or leak (the suite also runs under ASan).
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/codeobj/co_test.h"

/* A small rdx-written object: two kernels with metadata. */
static uint8_t *rdx_object(size_t *len)
{
    static uint8_t code[260];
    memset(code, 0, sizeof code);
    code[2] = 0xb0, code[3] = 0xbf;
    code[258] = 0xb0, code[259] = 0xbf;
    rdx_codeobj_kernel k[2];
    memset(k, 0, sizeof k);
    static rdx_codeobj_arg arg = { .value_kind = "global_buffer", .size = 8, .name = "p" };
    for (int i = 0; i < 2; i++) {
        rdx_codeobj_kernel_meta_init(&k[i].meta);
        k[i].code_offset = 256u * (unsigned)i;
        k[i].code_size = 4;
        k[i].kd.enable_wavefront_size32 = 1;
        k[i].kd.kernarg_size = 24;
        k[i].meta.args = &arg;
        k[i].meta.num_args = 1;
        k[i].meta.kernarg_segment_size = 24;
    }
    k[0].name = "alpha";
    k[1].name = "beta";
    rdx_codeobj_image img = { .target = "gfx1100",
                              .version = 5,
                              .code = code,
                              .code_size = sizeof code,
                              .kernels = k,
                              .num_kernels = 2 };
    uint8_t *out;
    ck_assert_int_eq(rdx_codeobj_write(&img, &out, len), RDX_OK);
    return out;
}

static uint8_t *clang_object(int reloc, size_t *len)
{
    char *path = co_compile("gfx1100", "", reloc, reloc ? "bad.o" : "bad.co");
    uint8_t *b = (uint8_t *)rdx_test_read_file(path, len);
    free(path);
    return b;
}

static uint8_t *sample(int which, size_t *len)
{
    return which == 0 ? rdx_object(len) : clang_object(which == 2, len);
}

static void expect_error(const uint8_t *b, size_t len, rdx_status want, const char *msg)
{
    rdx_codeobj *co = (rdx_codeobj *)1;
    rdx_status st = rdx_codeobj_read(b, len, "obj", &co);
    ck_assert_msg(st == want, "expected status %d ('%s'), got %d: %s", want, msg, st,
                  st ? rdx_error_message() : "ok");
    ck_assert_ptr_null(co);
    ck_assert_msg(strstr(rdx_error_message(), msg), "message '%s' lacks '%s'", rdx_error_message(),
                  msg);
    ck_assert_msg(!strncmp(rdx_error_message(), "obj: ", 5), "message '%s' does not name the input",
                  rdx_error_message());
}

START_TEST(bad_every_truncation)
{
    size_t len;
    uint8_t *full = sample(_i, &len);
    rdx_codeobj *co;
    ck_assert_int_eq(rdx_codeobj_read(full, len, "obj", &co), RDX_OK);
    rdx_codeobj_free(co);
    for (size_t n = 0; n < len; n++) {
        /* A private copy of exactly n bytes so ASan sees any overread. */
        uint8_t *b = malloc(n ? n : 1);
        memcpy(b, full, n);
        rdx_status st = rdx_codeobj_read(b, n, "obj", &co);
        ck_assert_msg(st == RDX_ERR_PARSE, "truncated to %zu of %zu bytes: status %d", n, len, st);
        ck_assert(!strncmp(rdx_error_message(), "obj: ", 5));
        free(b);
    }
    free(full);
}
END_TEST

START_TEST(bad_random_mutations)
{
    size_t len;
    uint8_t *full = sample(_i, &len);
    uint8_t *b = malloc(len);
    FILE *null = fopen("/dev/null", "w");
    ck_assert_ptr_nonnull(null);
    srand(4242 + (unsigned)_i);
    int ok = 0, failed = 0;
    for (int iter = 0; iter < 4000; iter++) {
        memcpy(b, full, len);
        int edits = 1 + rand() % 6;
        for (int e = 0; e < edits; e++) {
            size_t at = (size_t)rand() % len;
            switch (rand() % 4) {
            case 0:
                b[at] = (uint8_t)rand();
                break;
            case 1:
                b[at] ^= (uint8_t)(1u << (rand() % 8));
                break;
            case 2: /* an extreme 32-bit value */
                if (at + 4 <= len)
                    memset(b + at, rand() % 2 ? 0xff : 0x7f, 4);
                break;
            default: /* headers are where offsets live: mutate there more often */
                b[(size_t)rand() % (len < 64 ? len : 64)] = (uint8_t)rand();
                b[len - 1 - (size_t)rand() % (len < 640 ? len : 640)] = (uint8_t)rand();
                break;
            }
        }
        rdx_codeobj *co;
        rdx_status st = rdx_codeobj_read(b, len, "obj", &co);
        if (st == RDX_OK) {
            ok++;
            rdx_codeobj_print(null, co); /* every decoded field must be printable */
            rdx_codeobj_free(co);
        } else {
            failed++;
            ck_assert_msg(st == RDX_ERR_PARSE || st == RDX_ERR_UNSUPPORTED, "status %d: %s", st,
                          rdx_error_message());
            ck_assert(!strncmp(rdx_error_message(), "obj: ", 5));
        }
    }
    ck_assert_int_gt(ok, 0);
    ck_assert_int_gt(failed, 100);
    fclose(null);
    free(b);
    free(full);
}
END_TEST

/* Section header `i` of an ELF64 little-endian image (host is little-endian). */
static Elf64_Shdr *shdr(uint8_t *b, int i)
{
    Elf64_Ehdr *eh = (Elf64_Ehdr *)b;
    return (Elf64_Shdr *)(b + eh->e_shoff + (size_t)i * sizeof(Elf64_Shdr));
}

static int find_section(uint8_t *b, const char *name)
{
    Elf64_Ehdr *eh = (Elf64_Ehdr *)b;
    const char *names = (const char *)b + shdr(b, eh->e_shstrndx)->sh_offset;
    for (int i = 1; i < eh->e_shnum; i++)
        if (!strcmp(names + shdr(b, i)->sh_name, name))
            return i;
    ck_abort_msg("no section %s", name);
    return -1;
}

/* Offset of the first occurrence of `needle` in b[from, len). */
static size_t find_bytes(const uint8_t *b, size_t len, size_t from, const void *needle, size_t n)
{
    for (size_t i = from; i + n <= len; i++)
        if (!memcmp(b + i, needle, n))
            return i;
    ck_abort_msg("byte pattern not found");
    return 0;
}

START_TEST(bad_specific_corruptions)
{
    size_t len;
    uint8_t *orig = rdx_object(&len), *b = malloc(len);
    Elf64_Ehdr *eh = (Elf64_Ehdr *)b;
#define FRESH() memcpy(b, orig, len)

    FRESH();
    b[1] = 'X';
    expect_error(b, len, RDX_ERR_PARSE, "not an ELF file");
    FRESH();
    b[EI_CLASS] = ELFCLASS32;
    expect_error(b, len, RDX_ERR_PARSE, "expected ELFCLASS64");
    FRESH();
    eh->e_machine = EM_X86_64;
    expect_error(b, len, RDX_ERR_UNSUPPORTED, "expected EM_AMDGPU");
    FRESH();
    b[EI_OSABI] = 0;
    expect_error(b, len, RDX_ERR_UNSUPPORTED, "expected ELFOSABI_AMDGPU_HSA");
    FRESH();
    b[EI_ABIVERSION] = 1;
    expect_error(b, len, RDX_ERR_UNSUPPORTED, "EI_ABIVERSION 1 is not code object v4, v5 or v6");
    FRESH();
    eh->e_type = ET_EXEC;
    expect_error(b, len, RDX_ERR_PARSE, "e_type is 2");
    FRESH();
    eh->e_flags = 0x2c; /* gfx900 */
    expect_error(b, len, RDX_ERR_UNSUPPORTED, "EF_AMDGPU_MACH 0x2c is not a target rdx knows");
    FRESH();
    eh->e_flags = 0x46; /* gfx1101: disagrees with amdhsa.target */
    expect_error(b, len, RDX_ERR_PARSE,
                 "amdhsa.target 'amdgcn-amd-amdhsa--gfx1100' disagrees with e_flags (gfx1101)");
    FRESH();
    eh->e_shoff = len - 100;
    expect_error(b, len, RDX_ERR_PARSE, "section header table");
    FRESH();
    eh->e_shentsize = 40;
    expect_error(b, len, RDX_ERR_PARSE, "e_shentsize is 40");
    FRESH();
    eh->e_shstrndx = 99;
    expect_error(b, len, RDX_ERR_PARSE, "e_shstrndx 99");

    int text = find_section(orig, ".text"), ro = find_section(orig, ".rodata");
    int note = find_section(orig, ".note"), sym = find_section(orig, ".symtab");
    FRESH();
    shdr(b, ro)->sh_offset = len - 8;
    expect_error(b, len, RDX_ERR_PARSE, "extend past the end of the file");
    FRESH();
    shdr(b, ro)->sh_size = UINT64_MAX - 10;
    expect_error(b, len, RDX_ERR_PARSE, "extend past the end of the file");
    FRESH();
    shdr(b, ro)->sh_offset = shdr(b, text)->sh_offset;
    expect_error(b, len, RDX_ERR_PARSE, "overlap in the file");
    FRESH();
    shdr(b, note)->sh_offset = 8;
    expect_error(b, len, RDX_ERR_PARSE, "overlaps the ELF header");
    FRESH();
    shdr(b, text)->sh_name = 0xffffff;
    expect_error(b, len, RDX_ERR_PARSE, "name offset 16777215 is outside the section name table");
    FRESH();
    shdr(b, sym)->sh_entsize = 16;
    expect_error(b, len, RDX_ERR_PARSE, "symbol table .symtab: entry size 16");
    FRESH();
    shdr(b, sym)->sh_link = text;
    expect_error(b, len, RDX_ERR_PARSE, "is not a string table");

    /* The note: a name size running past the section, then bad MessagePack. */
    uint8_t *nt = b + shdr(orig, note)->sh_offset;
    FRESH();
    nt[0] = 0xf0;
    expect_error(b, len, RDX_ERR_PARSE, "note section .note: note at offset 0x0");
    FRESH();
    nt[20] = 0xc1; /* first byte of the description */
    expect_error(b, len, RDX_ERR_PARSE, "NT_AMDGPU_METADATA note in .note: msgpack offset 0");
    FRESH();
    nt[20] = 0x80; /* an empty map: no amdhsa.version, and trailing bytes */
    expect_error(b, len, RDX_ERR_PARSE, "trailing bytes");

    /* Metadata types: .kernarg_segment_size's value 24 (0x18) becomes true (0xc3). */
    static const char key[] = "\xb5.kernarg_segment_size\x18";
    FRESH();
    size_t at = find_bytes(b, len, 0, key, sizeof key - 1);
    b[at + sizeof key - 2] = 0xc3;
    expect_error(b, len, RDX_ERR_PARSE,
                 "metadata amdhsa.kernels[0].kernarg_segment_size: expected an unsigned integer, "
                 "got boolean");
    /* .value_kind's string becomes an integer and the map is then malformed. */
    static const char vk[] = "\xab.value_kind";
    FRESH();
    at = find_bytes(b, len, 0, vk, sizeof vk - 1);
    b[at + sizeof vk - 1] = 0x07;
    expect_error(b, len, RDX_ERR_PARSE, "msgpack offset");
    /* A metadata kernel whose descriptor symbol is gone. */
    static const char sym_name[] = "beta.kd";
    FRESH();
    const Elf64_Shdr *strtab = shdr(orig, find_section(orig, ".strtab"));
    at = find_bytes(b, len, strtab->sh_offset, sym_name, sizeof sym_name);
    b[at] = 'z';
    expect_error(b, len, RDX_ERR_PARSE,
                 "amdhsa.kernels[1] (.name beta) names symbol 'beta.kd', which is not a kernel "
                 "descriptor");

    /* Descriptors: symbol outside .rodata, entry outside .text, descriptor unreadable. */
    Elf64_Sym *syms = (Elf64_Sym *)(b + shdr(orig, sym)->sh_offset);
    int kd_sym = 2; /* symbols: null, alpha, alpha.kd, beta, beta.kd */
    FRESH();
    syms[kd_sym].st_value += 0x1000;
    expect_error(b, len, RDX_ERR_PARSE, "kernel descriptor 'alpha.kd' at");
    FRESH();
    int64_t far = 1 << 20;
    memcpy(b + shdr(orig, ro)->sh_offset + 16, &far, 8);
    expect_error(b, len, RDX_ERR_PARSE, "kernel 'alpha': entry");
    FRESH();
    syms[kd_sym].st_shndx = 200;
    expect_error(b, len, RDX_ERR_PARSE, "kernel descriptor 'alpha.kd': section index 200");
    FRESH();
    syms[1].st_value += 4; /* the function symbol no longer matches the entry */
    expect_error(b, len, RDX_ERR_PARSE, "kernel 'alpha': function symbol at");
    FRESH();
    syms[3].st_size = 1 << 20;
    expect_error(b, len, RDX_ERR_PARSE, "kernel 'beta': function size 1048576 runs past .text");
    FRESH();
    syms[4].st_name = syms[2].st_name; /* beta.kd renamed alpha.kd: a second alpha.kd */
    expect_error(b, len, RDX_ERR_PARSE, "appears twice");
    free(b);
    free(orig);
#undef FRESH
}
END_TEST

/* Relocatable objects: relocation records that do not fit. */
START_TEST(bad_relocations)
{
    size_t len;
    uint8_t *orig = clang_object(1, &len), *b = malloc(len);
    int rela = find_section(orig, ".rela.rodata");
    Elf64_Rela *r = (Elf64_Rela *)(b + shdr(orig, rela)->sh_offset);
    memcpy(b, orig, len);
    r[0].r_info = ELF64_R_INFO(999, ELF64_R_TYPE(r[0].r_info));
    expect_error(b, len, RDX_ERR_PARSE, "symbol index 999 out of range");
    memcpy(b, orig, len);
    r[0].r_info = ELF64_R_INFO(ELF64_R_SYM(r[0].r_info), 1); /* R_AMDGPU_ABS32_LO */
    expect_error(b, len, RDX_ERR_PARSE, "relocation type 1 on the entry offset");
    memcpy(b, orig, len);
    r[0].r_offset = 1 << 20;
    expect_error(b, len, RDX_ERR_PARSE, "is outside .rodata");
    memcpy(b, orig, len);
    r[0].r_offset = 8; /* inside the descriptor but not the entry field */
    expect_error(b, len, RDX_ERR_PARSE, "relocation at descriptor byte 8");
    memcpy(b, orig, len);
    shdr(b, rela)->sh_info = 0;
    expect_error(b, len, RDX_ERR_PARSE, "sh_info 0 is not a section");
    memcpy(b, orig, len);
    shdr(b, rela)->sh_type = SHT_REL;
    expect_error(b, len, RDX_ERR_UNSUPPORTED, "SHT_REL relocations");
    /* Two descriptors overlapping: lds.kd moved onto add.kd + 8. */
    memcpy(b, orig, len);
    const Elf64_Shdr *st = shdr(b, find_section(b, ".symtab"));
    const char *names = (const char *)b + shdr(b, (int)st->sh_link)->sh_offset;
    Elf64_Sym *sy = (Elf64_Sym *)(b + st->sh_offset);
    int moved = 0;
    for (size_t i = 0; i < st->sh_size / sizeof *sy; i++)
        if (!strcmp(names + sy[i].st_name, "lds.kd"))
            sy[i].st_value = 8, moved = 1;
    ck_assert(moved);
    expect_error(b, len, RDX_ERR_PARSE, "kernel descriptors 'add.kd' and 'lds.kd' overlap");
    /* ABS64 gives an absolute address; the reader makes it descriptor-relative. */
    memcpy(b, orig, len);
    r[0].r_info = ELF64_R_INFO(ELF64_R_SYM(r[0].r_info), 3);
    r[0].r_addend = 0;
    rdx_codeobj *co;
    ck_assert_int_eq(rdx_codeobj_read(b, len, "obj", &co), RDX_OK);
    ck_assert_uint_eq(co->kernels[0].code_offset, 0);
    rdx_codeobj_free(co);
    free(b);
    free(orig);
}
END_TEST

TCase *co_tcase_bad(void)
{
    TCase *tc = tcase_create("bad");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, bad_every_truncation, 0, 3);
    tcase_add_loop_test(tc, bad_random_mutations, 0, 3);
    tcase_add_test(tc, bad_specific_corruptions);
    tcase_add_test(tc, bad_relocations);
    return tc;
}
