/*
 * tests/codeobj/t_write.c — rdx's writer, checked by the LLVM tools:
 * llvm-readelf -a accepts the object without a warning; -h/-S/-s/--notes show
 * the target, sections, symbols and every metadata entry the test expects
 * (written out by hand here); llvm-objdump -D decodes each descriptor to the
 * fields given; llvm-objdump -d disassembles the kernels exactly as it does
 * llvm-mc's object of the same code.  Then write -> read round-trips.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isa/codeobj/memfd.h"
#include "tests/codeobj/co_test.h"

static const char tiny_s[] = ".text\n.p2align 8\ntiny:\n"
                             "  s_load_b64 s[0:1], s[0:1], 0x0\n"
                             "  v_mov_b32 v0, 42\n"
                             "  v_mov_b32 v1, 0\n"
                             "  s_waitcnt lgkmcnt(0)\n"
                             "  global_store_b32 v1, v0, s[0:1]\n"
                             "  s_endpgm\n";

/* llvm-mc's encoding of tiny_s for `mcpu`; the path of its object in *obj. */
static uint8_t *tiny_code(const char *mcpu, size_t *len, char **obj)
{
    char *s = rdx_test_tmp_path("tiny.s");
    *obj = rdx_test_tmp_path("tiny.o");
    rdx_test_write_file(s, tiny_s, sizeof tiny_s - 1);
    char mflag[64];
    snprintf(mflag, sizeof mflag, "-mcpu=%s", mcpu);
    free(co_llvm("llvm-mc", "-triple=amdgcn-amd-amdhsa", mflag, "-filetype=obj", "-o", *obj, s,
                 (char *)NULL));
    free(s);
    return co_section_bytes(*obj, ".text", NULL, len);
}

/* Instruction texts (before the "//" comment) following label "<name>:". */
static void insns_after(const char *dis, const char *name, co_lines *out)
{
    char label[128];
    snprintf(label, sizeof label, "<%s>:\n", name);
    const char *p = strstr(dis, label);
    ck_assert_msg(p != NULL, "no %s in disassembly:\n%s", label, dis);
    p += strlen(label);
    while (*p == '\t' || *p == ' ') {
        const char *eol = strchr(p, '\n');
        const char *cm = strstr(p, "//");
        const char *end = cm && cm < eol ? cm : eol;
        while (*p == '\t' || *p == ' ')
            p++;
        char buf[256];
        size_t n = (size_t)(end - p);
        while (n && p[n - 1] == ' ')
            n--;
        ck_assert(n < sizeof buf);
        memcpy(buf, p, n);
        buf[n] = 0;
        if (!strcmp(buf, "...")) /* zero fill after the symbol */
            break;
        co_lines_add(out, buf);
        if (!eol)
            break;
        p = eol + 1;
    }
}

typedef struct fixture {
    uint8_t *code;
    size_t code_size;
    rdx_codeobj_kernel k[3];
    rdx_codeobj_arg args[3];
    char *tiny_obj;
} fixture;

/* Three kernels: "tiny" (llvm-mc's code at 0), "second" (s_endpgm at 256) and a
 * kernel with a long name at 512; descriptors with distinctive field values. */
static void make_fixture(fixture *f, const char *mcpu, unsigned major)
{
    memset(f, 0, sizeof *f);
    size_t tiny_len;
    uint8_t *tiny = tiny_code(mcpu, &tiny_len, &f->tiny_obj);
    f->code_size = 512 + 4;
    f->code = calloc(1, f->code_size);
    memcpy(f->code, tiny, tiny_len);
    static const uint8_t endpgm[4] = { 0x00, 0x00, 0xb0, 0xbf }; /* s_endpgm, 0xbfb00000 */
    memcpy(f->code + 256, endpgm, 4);
    memcpy(f->code + 512, endpgm, 4);
    free(tiny);
    f->args[0] = (rdx_codeobj_arg){ .name = "out",
                                    .type_name = "int*",
                                    .value_kind = "global_buffer",
                                    .address_space = "global",
                                    .offset = 0,
                                    .size = 8 };
    f->args[1] = (rdx_codeobj_arg){ .name = "n",
                                    .type_name = "int",
                                    .value_kind = "by_value",
                                    .offset = 8,
                                    .size = 4,
                                    .is_const = true };
    f->args[2] = (rdx_codeobj_arg){ .value_kind = "hidden_block_count_x", .offset = 16, .size = 4 };
    static const char *const names[3] = { "tiny", "second",
                                          "a_kernel_name_longer_than_thirty_one_bytes_for_str8" };
    for (int i = 0; i < 3; i++) {
        rdx_codeobj_kernel *k = &f->k[i];
        k->name = names[i];
        k->code_offset = 256u * (unsigned)i;
        k->code_size = i == 0 ? tiny_len : 4;
        rdx_kernel_descriptor *kd = &k->kd;
        kd->group_segment_fixed_size = 1024u * (unsigned)i;
        kd->private_segment_fixed_size = i == 2 ? 64 : 0;
        kd->enable_private_segment = i == 2;
        kd->kernarg_size = 24;
        kd->granulated_workitem_vgpr_count = rdx_codeobj_vgpr_granules(major, true, 2 + 9u * i);
        kd->float_denorm_mode_32 = 3;
        kd->float_denorm_mode_16_64 = 3;
        if (major == 11) {
            kd->enable_dx10_clamp = 1;
            kd->enable_ieee_mode = i != 1;
        }
        kd->wgp_mode = i != 2;
        kd->mem_ordered = 1;
        kd->user_sgpr_count = 2;
        kd->enable_sgpr_kernarg_segment_ptr = 1;
        kd->enable_sgpr_workgroup_id_x = 1;
        kd->enable_sgpr_workgroup_id_y = i == 1;
        kd->enable_vgpr_workitem_id = (uint32_t)i;
        kd->enable_wavefront_size32 = 1;
        rdx_codeobj_kernel_meta *m = &k->meta;
        rdx_codeobj_kernel_meta_init(m);
        m->args = i == 1 ? NULL : f->args;
        m->num_args = i == 1 ? 0 : 3;
        m->group_segment_fixed_size = kd->group_segment_fixed_size;
        m->private_segment_fixed_size = kd->private_segment_fixed_size;
        m->kernarg_segment_size = 24;
        m->kernarg_segment_align = 8;
        m->wavefront_size = 32;
        m->sgpr_count = 4;
        m->vgpr_count = 2 + 9u * (unsigned)i;
        m->max_flat_workgroup_size = 256;
        if (i == 0) {
            m->language = "OpenCL C";
            m->language_version[0] = 2;
            m->language_version_count = 2;
            m->workgroup_processor_mode = 1;
            m->reqd_workgroup_size[0] = 64;
            m->reqd_workgroup_size[1] = 1;
            m->reqd_workgroup_size[2] = 1;
        }
    }
}

static void free_fixture(fixture *f)
{
    free(f->code);
    free(f->tiny_obj);
}

/* The metadata llvm-readelf must show, written out by hand. */
static void expected_meta(const fixture *f, const char *mcpu, unsigned version, co_lines *l)
{
    char line[512];
    static const char *const per_kernel[3] = {
        ".kernarg_segment_align=8\n.kernarg_segment_size=24\n.language=OpenCL C\n"
        ".language_version[0]=2\n.language_version[1]=0\n.max_flat_workgroup_size=256\n"
        ".private_segment_fixed_size=0\n.reqd_workgroup_size[0]=64\n.reqd_workgroup_size[1]=1\n"
        ".reqd_workgroup_size[2]=1\n.sgpr_count=4\n.sgpr_spill_count=0\n"
        ".uses_dynamic_stack=false\n.vgpr_count=2\n.vgpr_spill_count=0\n.wavefront_size=32\n"
        ".workgroup_processor_mode=1\n.group_segment_fixed_size=0\n",
        ".args=[]\n.kernarg_segment_align=8\n.kernarg_segment_size=24\n"
        ".max_flat_workgroup_size=256\n.private_segment_fixed_size=0\n.sgpr_count=4\n.sgpr_spill_"
        "count=0\n"
        ".uses_dynamic_stack=false\n.vgpr_count=11\n.vgpr_spill_count=0\n.wavefront_size=32\n"
        ".group_segment_fixed_size=1024\n",
        ".kernarg_segment_align=8\n.kernarg_segment_size=24\n.max_flat_workgroup_size=256\n"
        ".private_segment_fixed_size=64\n.sgpr_count=4\n.sgpr_spill_count=0\n"
        ".uses_dynamic_stack=false\n.vgpr_count=20\n.vgpr_spill_count=0\n.wavefront_size=32\n"
        ".group_segment_fixed_size=2048\n",
    };
    static const char args[] =
        ".args[0]/.address_space=global\n.args[0]/.name=out\n.args[0]/.offset=0\n"
        ".args[0]/.size=8\n.args[0]/.type_name=int*\n.args[0]/.value_kind=global_buffer\n"
        ".args[1]/.is_const=true\n.args[1]/.name=n\n.args[1]/.offset=8\n.args[1]/.size=4\n"
        ".args[1]/.type_name=int\n.args[1]/.value_kind=by_value\n.args[2]/.offset=16\n"
        ".args[2]/.size=4\n.args[2]/.value_kind=hidden_block_count_x\n";
    for (int i = 0; i < 3; i++) {
        char *all = malloc(strlen(per_kernel[i]) + sizeof args + 1);
        strcpy(all, per_kernel[i]);
        if (i != 1)
            strcat(all, args);
        for (char *t = strtok(all, "\n"); t; t = strtok(NULL, "\n")) {
            snprintf(line, sizeof line, "amdhsa.kernels[%d]/%s", i, t);
            co_lines_add(l, line);
        }
        free(all);
        snprintf(line, sizeof line, "amdhsa.kernels[%d]/.name=%s", i, f->k[i].name);
        co_lines_add(l, line);
        snprintf(line, sizeof line, "amdhsa.kernels[%d]/.symbol=%s.kd", i, f->k[i].name);
        co_lines_add(l, line);
    }
    snprintf(line, sizeof line, "amdhsa.target=amdgcn-amd-amdhsa--%s", mcpu);
    co_lines_add(l, line);
    co_lines_add(l, "amdhsa.version[0]=1");
    snprintf(line, sizeof line, "amdhsa.version[1]=%u", version - 3);
    co_lines_add(l, line);
    co_lines_sort(l);
}

typedef struct wcfg {
    const char *mcpu;
    unsigned major, version, mach;
} wcfg;

static const wcfg wcfgs[] = {
    { "gfx1100", 11, 5, 0x41 },
    { "gfx1201", 12, 5, 0x4e },
    { "gfx1100", 11, 4, 0x41 },
    { "gfx1102", 11, 5, 0x47 },
    { "gfx1150", 11, 5, 0x43 },
    { "gfx1200", 12, 5, 0x48 },
    /* every other target of isa/targets/targets.txt: its mach as llvm-readelf names it */
    { "gfx1101", 11, 5, 0x46 },
    { "gfx1103", 11, 5, 0x44 },
    { "gfx1151", 11, 5, 0x4a },
    { "gfx1152", 11, 5, 0x55 },
};

START_TEST(write_accepted_by_llvm)
{
    const wcfg *c = &wcfgs[_i];
    fixture f;
    make_fixture(&f, c->mcpu, c->major);
    rdx_codeobj_image img = { .target = c->mcpu,
                              .version = c->version,
                              .code = f.code,
                              .code_size = f.code_size,
                              .kernels = f.k,
                              .num_kernels = 3 };
    char *path = rdx_test_tmp_path("rdx.co");
    ck_assert_msg(rdx_codeobj_write_file(&img, path) == RDX_OK, "%s", rdx_error_message());

    /* Everything llvm-readelf can print, with no warning on stderr. */
    const char *argv[] = { rdx_test_llvm_tool("llvm-readelf"), "-a", "--wide", path, NULL };
    rdx_test_proc p;
    rdx_test_run(argv, NULL, 0, &p);
    ck_assert_msg(p.status == 0 && p.err_len == 0, "llvm-readelf -a: %d: %s", p.status, p.err);
    char want[128];
    snprintf(want, sizeof want, "Flags:                             0x%X, %s", c->mach, c->mcpu);
    ck_assert_msg(strstr(p.out, want), "no '%s' in llvm-readelf -h", want);
    ck_assert(strstr(p.out, "OS/ABI:                            AMDGPU - HSA"));
    snprintf(want, sizeof want, "ABI Version:                       %u", c->version - 2);
    ck_assert(strstr(p.out, want));
    ck_assert(strstr(p.out, "Type:                              DYN (Shared object file)"));
    ck_assert(strstr(p.out, "Machine:                           EM_AMDGPU"));
    ck_assert(strstr(p.out, "NT_AMDGPU_METADATA"));
    rdx_test_proc_free(&p);

    /* Sections: flags and alignment as ld.lld gives them. */
    char *secs = co_llvm("llvm-readelf", "-S", "--wide", path, (char *)NULL);
    static const char *const sec_want[][3] = {
        { ".text", "AX", "256" },  { ".rodata", "A", "64" }, { ".note", "A", "4" },
        { ".dynamic", "WA", "8" }, { ".dynsym", "A", "8" },  { ".hash", "A", "4" },
    };
    for (size_t i = 0; i < sizeof sec_want / sizeof sec_want[0]; i++) {
        const char *s = strstr(secs, sec_want[i][0]);
        ck_assert_msg(s, "no section %s", sec_want[i][0]);
        const char *eol = strchr(s, '\n');
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)(eol - s), s);
        char name[32], type[32], fl[8];
        unsigned long long addr, off, size, es;
        unsigned lk, inf, al;
        ck_assert_int_eq(sscanf(line, "%31s %31s %llx %llx %llx %llx %7s %u %u %u", name, type,
                                &addr, &off, &size, &es, fl, &lk, &inf, &al),
                         10);
        ck_assert_str_eq(fl, sec_want[i][1]);
        ck_assert_uint_eq(al, (unsigned)atoi(sec_want[i][2]));
        ck_assert_uint_eq(addr % al, 0);
        ck_assert_uint_eq(addr % 4096, off % 4096); /* loadable: address = offset mod page */
    }
    free(secs);

    /* Metadata: every entry as written by hand above. */
    char *notes = co_llvm("llvm-readelf", "--notes", path, (char *)NULL);
    co_lines got = { 0 }, exp = { 0 };
    co_flatten_llvm_notes(notes, &got);
    expected_meta(&f, c->mcpu, c->version, &exp);
    co_lines_assert_equal(&got, &exp, "llvm-readelf --notes of rdx's object");
    free(notes);

    /* Symbols and the descriptors' entry offsets. */
    uint64_t ro_addr, tx_addr;
    size_t ro_len, tx_len;
    uint8_t *ro = co_section_bytes(path, ".rodata", &ro_addr, &ro_len);
    uint8_t *tx = co_section_bytes(path, ".text", &tx_addr, &tx_len);
    ck_assert_uint_eq(ro_len, 3 * 64);
    ck_assert_uint_eq(tx_len, f.code_size);
    ck_assert(!memcmp(tx, f.code, tx_len));
    char *syms = co_llvm("llvm-readelf", "-s", "--wide", path, (char *)NULL);
    for (int i = 0; i < 3; i++) {
        /* Find "<value> <size> FUNC GLOBAL PROTECTED <ndx> name" lines by name. */
        unsigned long long fv = 0, fsz = 0, kv = 0, ksz = 0;
        int found = 0;
        for (char *l = syms; (l = strstr(l, f.k[i].name)); l++) {
            if (l[strlen(f.k[i].name)] != '\n' && strncmp(l + strlen(f.k[i].name), ".kd\n", 4))
                continue;
            const char *bol = l;
            while (bol > syms && bol[-1] != '\n')
                bol--;
            char type[16], bind[16], vis[16];
            unsigned long long v, sz;
            if (sscanf(bol, " %*u: %llx %llu %15s %15s %15s", &v, &sz, type, bind, vis) != 5)
                continue;
            ck_assert_str_eq(bind, "GLOBAL");
            ck_assert_str_eq(vis, "PROTECTED");
            if (!strcmp(type, "FUNC"))
                fv = v, fsz = sz, found |= 1;
            else if (!strcmp(type, "OBJECT") && !strncmp(l + strlen(f.k[i].name), ".kd", 3))
                kv = v, ksz = sz, found |= 2;
        }
        ck_assert_msg(found == 3, "symbols of %s not found (%d)", f.k[i].name, found);
        ck_assert_uint_eq(fv, tx_addr + f.k[i].code_offset);
        ck_assert_uint_eq(fsz, f.k[i].code_size);
        ck_assert_uint_eq(ksz, 64);
        ck_assert_uint_eq(kv, ro_addr + 64u * (unsigned)i);
        int64_t entry;
        memcpy(&entry, ro + 64 * i + 16, 8);
        ck_assert_int_eq(entry, (int64_t)(fv - kv));
    }
    free(syms);

    /* llvm-objdump decodes every descriptor field to what was written. */
    char *dis = co_llvm("llvm-objdump", "-D", "-j", ".rodata", path, (char *)NULL);
    size_t fields = 0;
    for (int i = 0; i < 3; i++) {
        co_directive d[96];
        size_t n = co_kernel_directives(dis, f.k[i].name, d, 96);
        fields += co_check_directives(d, n, &f.k[i].kd, c->major, f.k[i].name);
    }
    ck_assert_uint_gt(fields, 3 * 35);
    free(dis);

    /* The code disassembles as llvm-mc's own object of the same source does. */
    char mflag[64];
    snprintf(mflag, sizeof mflag, "--mcpu=%s", c->mcpu);
    char *d_rdx = co_llvm("llvm-objdump", "-d", mflag, path, (char *)NULL);
    char *d_mc = co_llvm("llvm-objdump", "-d", mflag, f.tiny_obj, (char *)NULL);
    co_lines a = { 0 }, b = { 0 };
    insns_after(d_rdx, "tiny", &a);
    insns_after(d_mc, "tiny", &b);
    ck_assert_uint_eq(a.n, 6);
    co_lines_assert_equal(&a, &b, "disassembly of tiny");
    co_lines_free(&a);
    insns_after(d_rdx, "second", &a);
    ck_assert_str_eq(a.v[0], "s_endpgm");
    co_lines_free(&a);
    co_lines_free(&b);
    free(d_rdx);
    free(d_mc);

    /* Round trip through rdx's reader. */
    rdx_codeobj *co;
    ck_assert_msg(rdx_codeobj_read_file(path, &co) == RDX_OK, "%s", rdx_error_message());
    ck_assert_str_eq(co->target->name, c->mcpu);
    ck_assert_uint_eq(co->version, c->version);
    ck_assert(!co->relocatable);
    ck_assert_uint_eq(co->text_size, f.code_size);
    ck_assert(!memcmp(co->text, f.code, f.code_size));
    ck_assert_uint_eq(co->num_kernels, 3);
    co_lines flat = { 0 };
    co_flatten_doc(co->meta_doc, &flat);
    co_lines_assert_equal(&flat, &exp, "rdx reading its own metadata");
    co_lines_free(&flat);
    for (int i = 0; i < 3; i++) {
        const rdx_codeobj_kernel *k = &co->kernels[i], *w = &f.k[i];
        ck_assert_str_eq(k->name, w->name);
        ck_assert_uint_eq(k->code_offset, w->code_offset);
        ck_assert_uint_eq(k->code_size, w->code_size);
        rdx_kernel_descriptor kd = w->kd;
        kd.kernel_code_entry_byte_offset = k->kd.kernel_code_entry_byte_offset;
        ck_assert(!memcmp(&kd, &k->kd, sizeof kd));
        ck_assert(k->has_meta);
        const rdx_codeobj_kernel_meta *m = &k->meta, *wm = &w->meta;
        ck_assert_str_eq(m->name, w->name);
        ck_assert_uint_eq(m->num_args, wm->num_args);
        for (size_t j = 0; j < m->num_args; j++) {
            ck_assert_uint_eq(m->args[j].offset, wm->args[j].offset);
            ck_assert_str_eq(m->args[j].value_kind, wm->args[j].value_kind);
            ck_assert(m->args[j].is_const == wm->args[j].is_const);
        }
        ck_assert_int_eq(m->workgroup_processor_mode, wm->workgroup_processor_mode);
        ck_assert_uint_eq(m->vgpr_count, wm->vgpr_count);
        ck_assert_uint_eq(m->reqd_workgroup_size[0], wm->reqd_workgroup_size[0]);
        ck_assert_uint_eq(m->language_version_count, wm->language_version_count);
    }
    rdx_codeobj_free(co);
    co_lines_free(&got);
    co_lines_free(&exp);
    free(ro);
    free(tx);
    free(path);
    free_fixture(&f);
}
END_TEST

static void write_fails(const rdx_codeobj_image *img, rdx_status want, const char *msg)
{
    uint8_t *out = (uint8_t *)1;
    size_t len = 1;
    ck_assert_int_eq(rdx_codeobj_write(img, &out, &len), want);
    ck_assert_ptr_null(out);
    ck_assert_uint_eq(len, 0);
    ck_assert_msg(strstr(rdx_error_message(), msg), "message '%s' lacks '%s'", rdx_error_message(),
                  msg);
}

START_TEST(write_errors)
{
    uint8_t code[512] = { 0 };
    rdx_codeobj_kernel k[2];
    memset(k, 0, sizeof k);
    k[0].name = "a";
    k[1].name = "b";
    k[1].code_offset = 256;
    rdx_codeobj_kernel_meta_init(&k[0].meta);
    rdx_codeobj_kernel_meta_init(&k[1].meta);
    rdx_codeobj_image img = { .target = "gfx1100",
                              .version = 5,
                              .code = code,
                              .code_size = sizeof code,
                              .kernels = k,
                              .num_kernels = 2 };
    uint8_t *out;
    size_t len;
    ck_assert_int_eq(rdx_codeobj_write(&img, &out, &len), RDX_OK);
    free(out);
    img.target = "gfx906";
    write_fails(&img, RDX_ERR_INVALID, "target 'gfx906' is not known");
    img.target = "gfx1100";
    img.version = 3;
    write_fails(&img, RDX_ERR_INVALID, "version 3 is not supported");
    img.version = 0;
    k[1].code_offset = 128;
    write_fails(&img, RDX_ERR_INVALID, "kernel 'b': code offset 0x80 is not 256-byte aligned");
    k[1].code_offset = 512;
    write_fails(&img, RDX_ERR_INVALID, "kernel 'b': code offset 0x200 is outside the 512 code");
    k[1].code_offset = 256;
    k[1].code_size = 300;
    write_fails(&img, RDX_ERR_INVALID, "runs past the 512 code bytes");
    k[1].code_size = 0;
    k[1].name = "a";
    write_fails(&img, RDX_ERR_INVALID, "kernel name 'a' is used twice");
    k[1].name = "";
    write_fails(&img, RDX_ERR_INVALID, "kernel 1 has no name");
    k[1].name = "b";
    k[1].kd.enable_vgpr_workitem_id = 4;
    write_fails(&img, RDX_ERR_RANGE, "kernel 'b': kernel descriptor field enable_vgpr_workitem_id");
    k[1].kd.enable_vgpr_workitem_id = 0;
    k[1].kd.enable_dx10_clamp = 1;
    img.target = "gfx1201";
    write_fails(&img, RDX_ERR_RANGE, "enable_dx10_clamp does not exist on gfx12");
    k[1].kd.enable_dx10_clamp = 0;
    rdx_codeobj_arg arg = { .offset = 0, .size = 8 };
    k[0].meta.args = &arg;
    k[0].meta.num_args = 1;
    write_fails(&img, RDX_ERR_INVALID, "kernel 'a' argument 0 has no value_kind");
    k[0].meta.num_args = 0;
    k[1].kd.kernarg_size = 16;
    k[1].meta.kernarg_segment_size = 24;
    write_fails(&img, RDX_ERR_INVALID,
                "kernel 'b': metadata .kernarg_segment_size is 24 but the descriptor says 16");
    k[1].meta.kernarg_segment_size = 0;
    k[1].meta.wavefront_size = 32; /* the descriptor says wave64 */
    write_fails(&img, RDX_ERR_INVALID,
                "kernel 'b': metadata .wavefront_size is 32 but the descriptor says 64");
    /* Zero values are taken from the descriptor. */
    k[1].meta.wavefront_size = 0;
    k[1].kd.group_segment_fixed_size = 512;
    ck_assert_int_eq(rdx_codeobj_write(&img, &out, &len), RDX_OK);
    rdx_codeobj *co;
    ck_assert_int_eq(rdx_codeobj_read(out, len, "derived", &co), RDX_OK);
    ck_assert_uint_eq(co->kernels[1].meta.kernarg_segment_size, 16);
    ck_assert_uint_eq(co->kernels[1].meta.wavefront_size, 64);
    ck_assert_uint_eq(co->kernels[1].meta.group_segment_fixed_size, 512);
    ck_assert_uint_eq(co->kernels[0].meta.group_segment_fixed_size, 0);
    rdx_codeobj_free(co);
    free(out);
    img.metadata = (const uint8_t *)"\xc1";
    img.metadata_size = 1;
    write_fails(&img, RDX_ERR_PARSE, "code object metadata: msgpack offset 0");
    img.metadata = (const uint8_t *)"\x90";
    write_fails(&img, RDX_ERR_INVALID, "code object metadata: expected a map, got array");
}
END_TEST

/* A caller-supplied metadata document is written verbatim. */
START_TEST(write_custom_metadata)
{
    uint8_t code[4] = { 0x00, 0x00, 0xb0, 0xbf };
    rdx_buf md = { 0 };
    rdx_msgpack_put_map(&md, 4);
    rdx_msgpack_put_cstr(&md, "amdhsa.kernels");
    rdx_msgpack_put_array(&md, 0);
    rdx_msgpack_put_cstr(&md, "amdhsa.target");
    rdx_msgpack_put_cstr(&md, "amdgcn-amd-amdhsa--gfx1201");
    rdx_msgpack_put_cstr(&md, "amdhsa.version");
    rdx_msgpack_put_array(&md, 2);
    rdx_msgpack_put_uint(&md, 1);
    rdx_msgpack_put_uint(&md, 2);
    rdx_msgpack_put_cstr(&md, "x.custom");
    rdx_msgpack_put_int(&md, -7);
    rdx_codeobj_image img = { .target = "amdgcn-amd-amdhsa--gfx1201",
                              .version = 5,
                              .code = code,
                              .code_size = 4,
                              .metadata = md.data,
                              .metadata_size = md.len };
    char *path = rdx_test_tmp_path("custom.co");
    ck_assert_int_eq(rdx_codeobj_write_file(&img, path), RDX_OK);
    char *notes = co_llvm("llvm-readelf", "--notes", path, (char *)NULL);
    co_lines got = { 0 };
    co_flatten_llvm_notes(notes, &got);
    ck_assert_uint_eq(got.n, 5);
    ck_assert_str_eq(got.v[0], "amdhsa.kernels=[]");
    ck_assert_str_eq(got.v[1], "amdhsa.target=amdgcn-amd-amdhsa--gfx1201");
    ck_assert_str_eq(got.v[4], "x.custom=-7");
    rdx_codeobj *co;
    ck_assert_int_eq(rdx_codeobj_read_file(path, &co), RDX_OK);
    ck_assert_str_eq(co->target->name, "gfx1201");
    rdx_codeobj_free(co);
    co_lines_free(&got);
    free(notes);
    free(path);
    rdx_buf_free(&md);
}
END_TEST

/*
 * ld.lld takes rdx's object as a shared library: a relocatable object that
 * refers to every kernel and descriptor symbol links with --no-undefined only
 * because rdx's .dynamic/.dynsym/.dynstr export them.
 */
START_TEST(write_linkable_by_lld)
{
    fixture f;
    make_fixture(&f, "gfx1100", 11);
    rdx_codeobj_image img = { .target = "gfx1100",
                              .code = f.code,
                              .code_size = f.code_size,
                              .kernels = f.k,
                              .num_kernels = 3 };
    char *co = rdx_test_tmp_path("lib.co"), *s = rdx_test_tmp_path("ref.s"),
         *o = rdx_test_tmp_path("ref.o"), *so = rdx_test_tmp_path("out.so");
    ck_assert_int_eq(rdx_codeobj_write_file(&img, co), RDX_OK);
    char src[1024] = ".data\n.globl refs\nrefs:\n";
    for (int i = 0; i < 3; i++) {
        char line[160];
        snprintf(line, sizeof line, ".quad %s\n.quad %s.kd\n", f.k[i].name, f.k[i].name);
        strcat(src, line);
    }
    rdx_test_write_file(s, src, strlen(src));
    free(co_llvm("llvm-mc", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-filetype=obj", "-o", o,
                 s, (char *)NULL));
    const char *without[] = {
        rdx_test_llvm_tool("ld.lld"), "-shared", "--no-undefined", "-o", so, o, NULL
    };
    rdx_test_proc p;
    ck_assert_int_ne(rdx_test_run(without, NULL, 0, &p), 0); /* the symbols are needed */
    rdx_test_proc_free(&p);
    free(co_llvm("ld.lld", "-shared", "--no-undefined", "-o", so, o, co, (char *)NULL));
    char *rel = co_llvm("llvm-readelf", "-r", "-d", so, (char *)NULL);
    char needed[600];
    snprintf(needed, sizeof needed, "Shared library: [%s]", co);
    ck_assert_ptr_nonnull(strstr(rel, needed));
    for (int i = 0; i < 3; i++) {
        char want[160];
        snprintf(want, sizeof want, "R_AMDGPU_ABS64         0000000000000000 %s.kd + 0",
                 f.k[i].name);
        ck_assert_msg(strstr(rel, want), "no dynamic relocation against %s.kd", f.k[i].name);
    }
    free(rel);
    free(co);
    free(s);
    free(o);
    free(so);
    free_fixture(&f);
}
END_TEST

/*
 * clang-19's kernels re-emitted by rdx: read a clang object, write it with
 * rdx's writer, and the LLVM tools must see the same thing in both: every
 * metadata entry, every descriptor byte but the entry offset, the same
 * disassembly of every kernel.
 */
START_TEST(rewrite_clang_objects)
{
    static const char *const cpus[] = { "gfx1100", "gfx1201" };
    const char *mcpu = cpus[_i];
    char *orig = co_compile(mcpu, "", 0, "orig.co"), *mine = rdx_test_tmp_path("mine.co");
    rdx_codeobj *co;
    ck_assert_int_eq(rdx_codeobj_read_file(orig, &co), RDX_OK);
    rdx_codeobj_image img = { .target = co->target->name,
                              .version = co->version,
                              .code = co->text,
                              .code_size = co->text_size,
                              .kernels = co->kernels,
                              .num_kernels = co->num_kernels };
    ck_assert_msg(rdx_codeobj_write_file(&img, mine) == RDX_OK, "%s", rdx_error_message());
    co_lines a = { 0 }, b = { 0 };
    char *na = co_llvm("llvm-readelf", "--notes", mine, (char *)NULL);
    char *nb = co_llvm("llvm-readelf", "--notes", orig, (char *)NULL);
    co_flatten_llvm_notes(na, &a);
    co_flatten_llvm_notes(nb, &b);
    co_lines_assert_equal(&a, &b, "metadata of rdx's rewrite vs clang's object");
    co_lines_free(&a);
    co_lines_free(&b);
    free(na);
    free(nb);
    char mflag[64];
    snprintf(mflag, sizeof mflag, "--mcpu=%s", mcpu);
    char *da = co_llvm("llvm-objdump", "-d", mflag, mine, (char *)NULL);
    char *db = co_llvm("llvm-objdump", "-d", mflag, orig, (char *)NULL);
    size_t insns = 0;
    for (size_t i = 0; i < co->num_kernels; i++) {
        insns_after(da, co->kernels[i].name, &a);
        insns_after(db, co->kernels[i].name, &b);
        co_lines_assert_equal(&a, &b, co->kernels[i].name);
        insns += a.n;
        co_lines_free(&a);
        co_lines_free(&b);
    }
    ck_assert_uint_gt(insns, 50);
    free(da);
    free(db);
    size_t la, lb;
    uint8_t *ra = co_section_bytes(mine, ".rodata", NULL, &la);
    uint8_t *rb = co_section_bytes(orig, ".rodata", NULL, &lb);
    ck_assert_uint_ge(lb, 64 * co->num_kernels);
    ck_assert_uint_eq(la, 64 * co->num_kernels);
    for (size_t i = 0; i < co->num_kernels; i++) {
        memset(ra + 64 * i + 16, 0, 8);
        memset(rb + 64 * i + 16, 0, 8);
    }
    ck_assert(!memcmp(ra, rb, la));
    free(ra);
    free(rb);
    rdx_codeobj_free(co);
    free(orig);
    free(mine);
}
END_TEST

START_TEST(target_ids)
{
    ck_assert_ptr_eq(rdx_codeobj_target_find("amdgcn-amd-amdhsa--gfx1100"),
                     rdx_codeobj_target_find("gfx1100"));
    ck_assert_ptr_null(rdx_codeobj_target_find("amdgcn-amd-amdhsa--gfx1100:xnack+"));
    ck_assert_ptr_null(rdx_codeobj_target_find("amdgcn-amd-amdhsa--"));
    /* Every table target is one clang-19 knows, with the mach llvm-readelf names. */
    for (size_t i = 0; i < rdx_codeobj_target_count(); i++) {
        const rdx_codeobj_target *t = rdx_codeobj_target_at(i);
        uint8_t *out;
        size_t len;
        uint8_t code[4] = { 0x00, 0x00, 0xb0, 0xbf };
        rdx_codeobj_image img = { .target = t->name, .code = code, .code_size = 4 };
        ck_assert_int_eq(rdx_codeobj_write(&img, &out, &len), RDX_OK);
        char *path = rdx_test_tmp_path("t.co");
        rdx_test_write_file(path, out, len);
        char *h = co_llvm("llvm-readelf", "-h", path, (char *)NULL);
        char want[64];
        snprintf(want, sizeof want, "0x%X, %s\n", t->mach, t->name);
        ck_assert_msg(strstr(h, want), "llvm-readelf does not show '%s' for %s", want, t->name);
        free(h);
        free(path);
        free(out);
    }
}
END_TEST

/* An object with code but no kernels, and one with nothing at all. */
START_TEST(write_no_kernels)
{
    uint8_t code[4] = { 0x00, 0x00, 0xb0, 0xbf };
    rdx_codeobj_image img = { .target = "gfx1100", .version = 5, .code = code, .code_size = 4 };
    uint8_t *out;
    size_t len;
    for (int empty = 0; empty < 2; empty++) {
        img.code_size = empty ? 0 : 4;
        ck_assert_int_eq(rdx_codeobj_write(&img, &out, &len), RDX_OK);
        char *path = rdx_test_tmp_path("empty.co");
        rdx_test_write_file(path, out, len);
        free(co_llvm("llvm-readelf", "-a", path, (char *)NULL));
        rdx_codeobj *co;
        ck_assert_int_eq(rdx_codeobj_read(out, len, "empty", &co), RDX_OK);
        ck_assert_uint_eq(co->num_kernels, 0);
        ck_assert_uint_eq(co->text_size, img.code_size);
        rdx_codeobj_free(co);
        free(out);
        free(path);
    }
}
END_TEST

/* A one-kernel image (s_endpgm) for the descriptor tests; its code and kernel in *code, *k. */
static rdx_codeobj_image fd_image(uint8_t code[4], rdx_codeobj_kernel *k)
{
    static const uint8_t endpgm[4] = { 0x00, 0x00, 0xb0, 0xbf };
    memcpy(code, endpgm, 4);
    memset(k, 0, sizeof *k);
    k->name = "k";
    k->code_size = 4;
    rdx_codeobj_kernel_meta_init(&k->meta);
    return (rdx_codeobj_image){ .target = "gfx1100",
                                .version = 5,
                                .code = code,
                                .code_size = 4,
                                .kernels = k,
                                .num_kernels = 1 };
}

/* Open descriptors below 4096, counted with fcntl (no path read). */
static int open_fds(void)
{
    int n = 0;
    for (int fd = 0; fd < 4096; fd++)
        n += fcntl(fd, F_GETFD) >= 0;
    return n;
}

/* One code object written and read back: its one kernel is "k". */
static void write_one(const rdx_codeobj_image *img)
{
    uint8_t *out = NULL;
    size_t len = 0;
    ck_assert_msg(rdx_codeobj_write(img, &out, &len) == RDX_OK, "%s", rdx_error_message());
    rdx_codeobj *co;
    ck_assert_int_eq(rdx_codeobj_read(out, len, "fd", &co), RDX_OK);
    ck_assert_uint_eq(co->num_kernels, 1);
    ck_assert_str_eq(co->kernels[0].name, "k");
    rdx_codeobj_free(co);
    free(out);
}

/* After a thread's first code object, writing more creates no file descriptor (each used
   to take a memfd_create and a close): with no descriptor left to create, 100 more are
   written, the same bytes each time, and the number of open descriptors is unchanged. */
START_TEST(write_warm_creates_no_descriptor)
{
    uint8_t code[4];
    rdx_codeobj_kernel k;
    rdx_codeobj_image img = fd_image(code, &k);
    uint8_t *first = NULL;
    size_t first_len = 0;
    ck_assert_int_eq(rdx_codeobj_write(&img, &first, &first_len), RDX_OK);
    int before = open_fds();
    struct rlimit old, none;
    ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &old), 0);
    int lowest = dup(0); /* the lowest free descriptor: a limit of it allows no new one */
    ck_assert_int_ge(lowest, 0);
    close(lowest);
    none = old;
    none.rlim_cur = (rlim_t)lowest;
    ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &none), 0);
    ck_assert_int_lt(dup(0), 0);
    rdx_status st = RDX_OK;
    int same = 1;
    for (int i = 0; i < 100 && !st; i++) {
        uint8_t *out = NULL;
        size_t len = 0;
        st = rdx_codeobj_write(&img, &out, &len);
        if (!st)
            same &= len == first_len && memcmp(out, first, len) == 0;
        free(out);
    }
    ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &old), 0);
    ck_assert_msg(st == RDX_OK, "%s", rdx_error_message());
    ck_assert_msg(same, "a warm write gave different bytes");
    ck_assert_int_eq(open_fds(), before);
    free(first);
}
END_TEST

static void *write_in_thread(void *arg)
{
    write_one(arg);
    return NULL;
}

/* The descriptor a thread writes its code objects through is closed when it exits. */
START_TEST(write_descriptor_closed_at_thread_exit)
{
    uint8_t code[4];
    rdx_codeobj_kernel k;
    rdx_codeobj_image img = fd_image(code, &k);
    write_one(&img); /* this thread's own descriptor exists before counting */
    int before = open_fds();
    for (int i = 0; i < 3; i++) {
        pthread_t th;
        ck_assert_int_eq(pthread_create(&th, NULL, write_in_thread, &img), 0);
        ck_assert_int_eq(pthread_join(th, NULL), 0);
    }
    ck_assert_int_eq(open_fds(), before);
}
END_TEST

/* A child made by fork() writes through a memfd of its own, not the parent's file (which
   it inherits: parent and child writing at the same time would mix their images). */
START_TEST(write_forked_child_has_own_descriptor)
{
    uint8_t code[4];
    rdx_codeobj_kernel k;
    rdx_codeobj_image img = fd_image(code, &k);
    write_one(&img);
    int fd = -1;
    ck_assert_int_eq(rdx_codeobj_memfd(&fd), RDX_OK);
    struct stat parent;
    ck_assert_int_eq(fstat(fd, &parent), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int cfd = -1;
        struct stat child;
        if (rdx_codeobj_memfd(&cfd) || fstat(cfd, &child) != 0)
            _exit(2);
        _exit(child.st_ino == parent.st_ino ? 1 : 0);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "the child's memfd is the parent's (status %d)", status);
}
END_TEST

/* The memfd is reused: a small code object written after a larger one (whose bytes fill
   the small one's gaps in the file) is the same, byte for byte, as one written first. */
START_TEST(write_after_larger_same_bytes)
{
    uint8_t code[4];
    rdx_codeobj_kernel k;
    rdx_codeobj_image img = fd_image(code, &k);
    uint8_t *small = NULL, *big = NULL, *again = NULL;
    size_t small_len = 0, big_len = 0, again_len = 0;
    ck_assert_int_eq(rdx_codeobj_write(&img, &small, &small_len), RDX_OK);
    enum { BIG = 1 << 16 };
    uint8_t *bigcode = malloc(BIG);
    ck_assert_ptr_nonnull(bigcode);
    memset(bigcode, 0xa5, BIG);
    rdx_codeobj_kernel bk = k;
    bk.code_size = BIG;
    rdx_codeobj_image bimg = img;
    bimg.code = bigcode;
    bimg.code_size = BIG;
    bimg.kernels = &bk;
    ck_assert_int_eq(rdx_codeobj_write(&bimg, &big, &big_len), RDX_OK);
    ck_assert_uint_gt(big_len, small_len);
    ck_assert_int_eq(rdx_codeobj_write(&img, &again, &again_len), RDX_OK);
    ck_assert_uint_eq(again_len, small_len);
    ck_assert_msg(memcmp(again, small, small_len) == 0, "bytes of the larger object left over");
    free(small);
    free(big);
    free(again);
    free(bigcode);
}
END_TEST

TCase *co_tcase_write(void)
{
    TCase *tc = tcase_create("write");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, write_accepted_by_llvm, 0, sizeof wcfgs / sizeof wcfgs[0]);
    tcase_add_test(tc, write_errors);
    tcase_add_test(tc, write_no_kernels);
    tcase_add_test(tc, write_warm_creates_no_descriptor);
    tcase_add_test(tc, write_descriptor_closed_at_thread_exit);
    tcase_add_test(tc, write_after_larger_same_bytes);
    tcase_add_test(tc, write_forked_child_has_own_descriptor);
    tcase_add_test(tc, write_custom_metadata);
    tcase_add_test(tc, target_ids);
    tcase_add_test(tc, write_linkable_by_lld);
    tcase_add_loop_test(tc, rewrite_clang_objects, 0, 2);
    return tc;
}
