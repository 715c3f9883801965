/*
 * tests/codegen_back/tools_test.c — the produced code objects against LLVM's
 * tools (llvm-objdump disassembles every instruction, in the order the back
 * end printed them; llvm-readelf finds the descriptor symbol and metadata),
 * the `rdx kernel` command, and compile-time errors for input the back end
 * cannot lower.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdx/asm.h>
#include <rdx/codeobj.h>
#include <rdx/isa.h>

#include "tests/codegen_back/cgb_test.h"
#include "util/error.h"

static const char *const examples[] = { "add.uop",    "saxpy.uop", "sum.uop",
                                        "matmul.uop", "gated.uop", "lds_reduce.uop" };

/* Mnemonics of instruction lines, _e32/_e64 suffixes dropped, joined by spaces. */
static char *mnemonics(const char *text, int objdump)
{
    size_t cap = strlen(text) + 1, n = 0;
    char *out = malloc(cap);
    const char *p = text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *q = p;
        while (q < p + len && (*q == ' ' || *q == '\t'))
            q++;
        int is_inst = q > p && q < p + len && ((*q >= 'a' && *q <= 'z')) &&
                      (!objdump || memmem(p, len, "//", 2));
        if (is_inst) {
            const char *e = q;
            while (e < p + len && *e != ' ' && *e != '\t')
                e++;
            size_t w = (size_t)(e - q);
            if (w > 4 && (!strncmp(e - 4, "_e64", 4) || !strncmp(e - 4, "_e32", 4)))
                w -= 4;
            memcpy(out + n, q, w);
            n += w;
            out[n++] = ' ';
        }
        p += len + (eol ? 1 : 0);
    }
    out[n] = 0;
    return out;
}

/* every target of the back end (codegen/target.def) */
static const char *const targets[] = { "gfx1100", "gfx1101", "gfx1102", "gfx1150",
                                       "gfx1151", "gfx1200", "gfx1201" };
enum { NEX = sizeof examples / sizeof examples[0], NTG = sizeof targets / sizeof targets[0] };

/* Example _i % NEX for target _i / NEX: llvm-objdump of that target decodes exactly the
   listing, the ELF names the target's machine, the metadata is there. */
START_TEST(objdump_agrees)
{
    const char *objdump = rdx_test_llvm_tool("llvm-objdump");
    ck_assert_ptr_nonnull(objdump);
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const char *ex = examples[_i % NEX], *tg = targets[_i / NEX];
    const rdx_uop *sink = cgb_parse_file(ctx, ex);
    rdx_codegen_options o;
    memset(&o, 0, sizeof o);
    o.keep_stages = 1u << RDX_CG_STAGE_ASM;
    o.name = "kern";
    o.target = tg;
    rdx_codegen_kernel *k;
    ck_assert_msg(!rdx_codegen_compile(ctx, sink, &o, &k), "%s: %s", tg, rdx_error_message());
    ck_assert_str_eq(k->target, tg);
    /* e_flags' low byte is the target's EF_AMDGPU_MACH (isa/targets/targets.txt) */
    uint32_t ef;
    ck_assert_uint_ge(k->code_object_size, 52);
    memcpy(&ef, k->code_object + 48, 4);
    ck_assert_uint_eq(ef & 0xff, rdx_isa_target_find(tg)->elf_mach);
    /* gfx12 has no s_waitcnt / s_barrier (llvm-mc rejects s_barrier; s_waitcnt is not
       the split counters' encoding) */
    const char *lst = k->stage_text[RDX_CG_STAGE_ASM];
    if (tg[3] == '2')
        ck_assert_msg(!strstr(lst, "s_waitcnt ") && !strstr(lst, "s_barrier\n") &&
                          !strstr(lst, "s_add_i32"),
                      "%s", lst);
    /* every instruction line of the listing assembles with rdx's assembler for the target
       (branch lines name blocks, which a single line cannot resolve) */
    for (const char *l = lst; *l;) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) : strlen(l);
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)(len < 255 ? len : 255), l);
        char *q = line;
        while (*q == ' ')
            q++;
        if (*q && *q != ';' && !strchr(q, ':') && !strstr(q, " bb")) {
            uint8_t bytes[RDX_ISA_MAX_BYTES];
            size_t n;
            ck_assert_msg(!rdx_asm_assemble_inst(rdx_isa_target_find(tg), q, bytes, &n),
                          "%s: '%s': %s", tg, q, rdx_error_message());
        }
        l += len + (e ? 1 : 0);
    }
    char name[64];
    snprintf(name, sizeof name, "%s.%s.co", tg, ex);
    char *path = rdx_test_tmp_path(name);
    rdx_test_write_file(path, k->code_object, k->code_object_size);
    char mcpu[32];
    snprintf(mcpu, sizeof mcpu, "--mcpu=%s", tg);
    const char *argv[] = { objdump, "-d", mcpu, path, NULL };
    rdx_test_proc pr;
    rdx_test_run(argv, NULL, 0, &pr);
    ck_assert_msg(pr.status == 0, "llvm-objdump failed: %s", pr.err);
    ck_assert_msg(!strstr(pr.out, "<unknown>") && !strstr(pr.out, "invalid"), "%s", pr.out);
    char *a = mnemonics(pr.out, 1), *b = mnemonics(k->stage_text[RDX_CG_STAGE_ASM], 0);
    ck_assert_msg(!strcmp(a, b), "llvm-objdump: %s\nrdx: %s", a, b);
    free(a), free(b);
    rdx_test_proc_free(&pr);
    const char *rv[] = { rdx_test_llvm_tool("llvm-readelf"), "-s", "--notes", path, NULL };
    rdx_test_run(rv, NULL, 0, &pr);
    ck_assert_msg(pr.status == 0, "llvm-readelf failed: %s", pr.err);
    ck_assert_msg(strstr(pr.out, "kern.kd"), "%s", pr.out);
    ck_assert_msg(strstr(pr.out, ".kernarg_segment_size"), "%s", pr.out);
    ck_assert_msg(strstr(pr.out, ".vgpr_count"), "%s", pr.out);
    ck_assert_msg(strstr(pr.out, "global_buffer"), "%s", pr.out);
    rdx_test_proc_free(&pr);
    free(path);
    rdx_codegen_kernel_free(k);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

/* Compile text; expect failure with status st and every needle in the message. */
static void expect_error(const char *text, rdx_status st, const char *n1, const char *n2)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *sink = cgb_parse_text(ctx, text);
    rdx_codegen_kernel *k = NULL;
    rdx_status got = rdx_codegen_compile(ctx, sink, NULL, &k);
    ck_assert_msg(got == st, "status %d, expected %d: %s", got, st, rdx_error_message());
    ck_assert_ptr_null(k);
    ck_assert_msg(strstr(rdx_error_message(), n1), "message: %s", rdx_error_message());
    if (n2)
        ck_assert_msg(strstr(rdx_error_message(), n2), "message: %s", rdx_error_message());
    rdx_ir_ctx_destroy(ctx);
}

#define HEAD                                            \
    "%n = CONST dtype=index value=64\n%sh = STACK %n\n" \
    "%a = PARAM %sh slot=0 dtype=float32 addr=global\n" \
    "%i = RANGE %n axis=0 type=GLOBAL\n%ia = INDEX %a, %i\n%v = LOAD %ia\n"
#define TAIL "%st = STORE %ia, %r\n%e = END %st, %i\n%k = SINK %e\n"

START_TEST(errors_name_the_problem)
{
    expect_error(HEAD "%s1 = STACK %n\n"
                      "%reg = DEFINE_REG %s1 slot=0 dtype=float32\n%ir = INDEX %reg, %i\n"
                      "%s0 = STORE %ir, %v\n%ra = AFTER %reg, %s0\n%ir2 = INDEX %ra, %i\n"
                      "%r = LOAD %ir2\n" TAIL,
                 RDX_ERR_UNSUPPORTED, "DEFINE_REG indexed by a non-constant", "#");
    expect_error(HEAD "%r = CUSTOM %v str=\"x\" dtype=float32\n" TAIL, RDX_ERR_UNSUPPORTED,
                 "(CUSTOM float32)", "not supported");
    expect_error(HEAD "%u = CONST dtype=index value=4\n%j = RANGE %u axis=1 type=UNROLL\n"
                      "%r = REDUCE %v, %j op=ADD axes=()\n" TAIL,
                 RDX_ERR_UNSUPPORTED, "UNROLL", NULL);
    expect_error("%n = CONST dtype=index value=4\n%s = SPECIAL %n str=\"blockIdx.x\"\n"
                 "%sh = STACK %n\n%a = PARAM %sh slot=0 dtype=index addr=global\n"
                 "%ia = INDEX %a, %s\n%st = STORE %ia, %s\n%k = SINK %st\n",
                 RDX_ERR_UNSUPPORTED, "blockIdx.x", NULL);
    expect_error("%n = CONST dtype=index value=20000\n%sh = STACK %n\n"
                 "%l = DEFINE_LOCAL %sh slot=0 dtype=float32\n%z = CONST dtype=index value=0\n"
                 "%il = INDEX %l, %z\n%c = CONST dtype=float32 value=1\n%st = STORE %il, %c\n"
                 "%k = SINK %st\n",
                 RDX_ERR_RANGE, "64 KiB", NULL);
    /* a loop whose trip count differs per lane */
    expect_error(HEAD "%ci = CAST %v dtype=int32\n%m = CONST dtype=int32 value=7\n"
                      "%b0 = AND %ci, %m\n%b = CAST %b0 dtype=index\n"
                      "%j = RANGE %b axis=1 type=LOOP\n%jf = CAST %j dtype=float32\n"
                      "%r = REDUCE %jf, %j op=ADD axes=()\n" TAIL,
                 RDX_ERR_UNSUPPORTED, "not uniform", NULL);
    /* the root must be a SINK */
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    rdx_codegen_kernel *k = NULL;
    ck_assert_int_eq(rdx_codegen_compile(ctx, rdx_ir_int(ctx, 3), NULL, &k), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "SINK"), "%s", rdx_error_message());
    rdx_codegen_options o;
    memset(&o, 0, sizeof o);
    o.target = "gfx1030"; /* an ISA the tables know (no: RDNA2), the back end does not */
    ck_assert_int_eq(rdx_codegen_compile(ctx, cgb_parse_file(ctx, "add.uop"), &o, &k),
                     RDX_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(rdx_error_message(), "'gfx1030'") &&
                      strstr(rdx_error_message(), "gfx1201"),
                  "%s", rdx_error_message());
    o.target = "gfx1103"; /* in the ISA tables, not in codegen/target.def */
    ck_assert_int_eq(rdx_codegen_compile(ctx, cgb_parse_file(ctx, "add.uop"), &o, &k),
                     RDX_ERR_UNSUPPORTED);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

/* The descriptor per target against clang-19's for the same kernel (add.uop: 256 work-items
   per workgroup, workgroup id X, kernarg pointer; c[i] = a[i] + b[i] for i < 1000): every
   bit field of the target's generation equal but for the documented differences
   (docs/codegen-backend.md "Code object vs clang"): the entry offset, the register
   granules (each side's own count), IEEE mode (gfx11: rdx 0 by design). */
static const char add_cl[] =
    "__attribute__((reqd_work_group_size(256, 1, 1)))\n"
    "kernel void add(global const float *a, global const float *b, global float *c) {\n"
    "  int i = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();\n"
    "  if (i < 1000) c[i] = a[i] + b[i];\n"
    "}\n";

START_TEST(descriptor_matches_clang)
{
    const char *tg = targets[_i];
    unsigned major = tg[3] == '2' ? 12 : 11;
    char src_name[64], obj_name[64], so_name[64], mcpu[32];
    snprintf(src_name, sizeof src_name, "kd_%s.cl", tg);
    snprintf(obj_name, sizeof obj_name, "kd_%s.o", tg);
    snprintf(so_name, sizeof so_name, "kd_%s.co", tg);
    snprintf(mcpu, sizeof mcpu, "-mcpu=%s", tg);
    char *src = rdx_test_tmp_path(src_name), *obj = rdx_test_tmp_path(obj_name),
         *so = rdx_test_tmp_path(so_name);
    rdx_test_write_file(src, add_cl, sizeof add_cl - 1);
    const char *cc[] = { rdx_test_llvm_tool("clang"),
                         "-x",
                         "cl",
                         "-target",
                         "amdgcn-amd-amdhsa",
                         mcpu,
                         "-nogpulib",
                         "-O2",
                         "-c",
                         src,
                         "-o",
                         obj,
                         NULL };
    rdx_test_proc p;
    ck_assert_msg(rdx_test_run(cc, NULL, 0, &p) == 0, "clang: %s", p.err);
    rdx_test_proc_free(&p);
    const char *ld[] = { rdx_test_llvm_tool("ld.lld"), "-shared", obj, "-o", so, NULL };
    ck_assert_msg(rdx_test_run(ld, NULL, 0, &p) == 0, "ld.lld: %s", p.err);
    rdx_test_proc_free(&p);
    rdx_codeobj *cco = NULL, *rco = NULL;
    ck_assert_msg(!rdx_codeobj_read_file(so, &cco), "%s", rdx_error_message());
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    rdx_codegen_options o = { .target = tg, .name = "add" };
    rdx_codegen_kernel *k = NULL;
    ck_assert_msg(!rdx_codegen_compile(ctx, cgb_parse_file(ctx, "add.uop"), &o, &k), "%s",
                  rdx_error_message());
    ck_assert_msg(!rdx_codeobj_read(k->code_object, k->code_object_size, "add", &rco), "%s",
                  rdx_error_message());
    ck_assert_uint_eq(cco->num_kernels, 1);
    const rdx_kernel_descriptor *x = &rco->kernels[0].kd, *c = &cco->kernels[0].kd;
    char log[2048];
    size_t n = 0;
    log[0] = 0;
    for (size_t i = 0; i < rdx_codeobj_kd_field_count(); i++) {
        const rdx_kd_field *f = rdx_codeobj_kd_field_at(i);
        if (f->min_major > major || f->max_major < major ||
            !strcmp(f->name, "kernel_code_entry_byte_offset") ||
            !strcmp(f->name, "granulated_workitem_vgpr_count") ||
            !strcmp(f->name, "granulated_wavefront_sgpr_count") ||
            (major == 11 && !strcmp(f->name, "enable_ieee_mode")))
            continue;
        uint32_t a = rdx_codeobj_kd_get(x, f), b = rdx_codeobj_kd_get(c, f);
        if (a != b && n < sizeof log - 128)
            n += (size_t)snprintf(log + n, sizeof log - n, "%s: rdx %u, clang %u\n", f->name, a, b);
    }
    ck_assert_msg(!n, "%s:\n%s", tg, log);
    /* both name the target in e_flags and the metadata */
    ck_assert_ptr_eq(rco->target, cco->target);
    ck_assert_str_eq(rco->meta_target, cco->meta_target);
    rdx_codeobj_free(rco);
    rdx_codeobj_free(cco);
    rdx_codegen_kernel_free(k);
    rdx_ir_ctx_destroy(ctx);
    free(src), free(obj), free(so);
}
END_TEST

START_TEST(cli_kernel)
{
    const char *rdx = rdx_test_rdx_path();
    rdx_test_proc p;
    const char *help[] = { rdx, "kernel", "--help", NULL };
    ck_assert_int_eq(rdx_test_run(help, NULL, 0, &p), 0);
    ck_assert_msg(strstr(p.out, "Usage: rdx kernel"), "%s", p.out);
    rdx_test_proc_free(&p);
    const char *bad[] = { rdx, "kernel", "-p", "nope", "tests/data/codegen/add.uop", NULL };
    ck_assert_int_eq(rdx_test_run(bad, NULL, 0, &p), 2);
    rdx_test_proc_free(&p);
    const char *missing[] = { rdx, "kernel", "tests/data/codegen/missing.uop", NULL };
    ck_assert_int_eq(rdx_test_run(missing, NULL, 0, &p), 1);
    ck_assert_msg(strstr(p.err, "missing.uop"), "%s", p.err);
    rdx_test_proc_free(&p);
    char *out = rdx_test_tmp_path("sum.co");
    const char *ok[] = {
        rdx, "kernel", "-p", "isel", "-p", "asm", "-o", out, "tests/data/codegen/sum.uop", NULL
    };
    ck_assert_int_eq(rdx_test_run(ok, NULL, 0, &p), 0);
    ck_assert_msg(strstr(p.out, "; ---- isel") && strstr(p.out, "; ---- asm") &&
                      strstr(p.out, "s_endpgm") && strstr(p.out, "s_cbranch_scc1"),
                  "%s", p.out);
    rdx_test_proc_free(&p);
    const char *re[] = { rdx, "readelf", out, NULL };
    ck_assert_int_eq(rdx_test_run(re, NULL, 0, &p), 0);
    rdx_test_proc_free(&p);
    free(out);
    /* --target: gfx12's split waits and renamed ops; an unknown target names the known */
    const char *k12[] = {
        rdx, "kernel", "--target", "gfx1201", "-p", "asm", "tests/data/codegen/sum.uop", NULL
    };
    ck_assert_int_eq(rdx_test_run(k12, NULL, 0, &p), 0);
    ck_assert_msg(strstr(p.out, "s_wait_kmcnt") && strstr(p.out, "s_add_co_i32") &&
                      !strstr(p.out, "s_waitcnt"),
                  "%s", p.out);
    rdx_test_proc_free(&p);
    const char *kbad[] = { rdx, "kernel", "-t", "gfx90a", "tests/data/codegen/sum.uop", NULL };
    ck_assert_int_eq(rdx_test_run(kbad, NULL, 0, &p), 1);
    ck_assert_msg(strstr(p.err, "gfx90a") && strstr(p.err, "gfx1151"), "%s", p.err);
    rdx_test_proc_free(&p);
    /* rdx compile --target: tensor cores on gfx1151 and (in the gfx12 layout) gfx1201 */
    const char *c115[] = {
        rdx, "compile", "-t", "gfx1151", "-p", "asm", "tests/data/codegen/tc_matmul_f16.uop", NULL
    };
    ck_assert_int_eq(rdx_test_run(c115, NULL, 0, &p), 0);
    ck_assert_msg(strstr(p.out, "v_wmma_f32_16x16x16_f16"), "%s", p.out);
    rdx_test_proc_free(&p);
    const char *c12[] = {
        rdx, "compile", "--target", "gfx1201", "-p", "asm", "tests/data/codegen/tc_matmul_f16.uop",
        NULL
    };
    ck_assert_int_eq(rdx_test_run(c12, NULL, 0, &p), 0);
    ck_assert_msg(strstr(p.out, "v_wmma_f32_16x16x16_f16") && strstr(p.out, "v_permlanex16_b32"),
                  "%s", p.out);
    rdx_test_proc_free(&p);
}
END_TEST

/* Compile time of the examples (printed; the goal is well under 1 ms each). */
START_TEST(compile_time)
{
    for (size_t e = 0; e < sizeof examples / sizeof examples[0]; e++) {
        rdx_ir_ctx *ctx;
        ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
        const rdx_uop *sink = cgb_parse_file(ctx, examples[e]);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        enum { REP = 20 };
        for (int r = 0; r < REP; r++) {
            rdx_codegen_kernel *k;
            ck_assert_int_eq(rdx_codegen_compile(ctx, sink, NULL, &k), RDX_OK);
            rdx_codegen_kernel_free(k);
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double us = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 1e3 / REP;
        printf("compile %-16s %8.1f us\n", examples[e], us);
        rdx_ir_ctx_destroy(ctx);
    }
}
END_TEST

/* PROGRAM(sink, LINEAR(INS...), BINARY): one structured INS per line of the final code (labels
   and instructions), the code object as bytes. */
START_TEST(program_uop)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    const rdx_uop *sink = cgb_parse_file(ctx, "sum.uop");
    rdx_codegen_kernel *k;
    const rdx_uop *prog;
    ck_assert_int_eq(rdx_codegen_compile(ctx, sink, NULL, &k), RDX_OK);
    ck_assert_int_eq(rdx_codegen_program(ctx, sink, k, &prog), RDX_ERR_INVALID);
    rdx_codegen_kernel_free(k);
    rdx_codegen_options o;
    memset(&o, 0, sizeof o);
    o.keep_stages = 1u << RDX_CG_STAGE_ASM;
    ck_assert_int_eq(rdx_codegen_compile(ctx, sink, &o, &k), RDX_OK);
    ck_assert_msg(!rdx_codegen_program(ctx, sink, k, &prog), "%s", rdx_error_message());
    ck_assert_int_eq(prog->op, RDX_OP_PROGRAM);
    const rdx_uop *lin = prog->src[1], *bin = prog->src[2];
    ck_assert_int_eq(lin->op, RDX_OP_LINEAR);
    ck_assert_int_eq(bin->op, RDX_OP_BINARY);
    ck_assert_uint_eq(bin->arg.len, k->code_object_size);
    ck_assert_mem_eq(bin->arg.str, k->code_object, k->code_object_size);
    ck_assert_int_eq(rdx_uop_ins_label(lin->src[0]), 0);
    rdx_isa_inst in;
    ck_assert(rdx_uop_ins(lin->src[lin->nsrc - 1], &in));
    ck_assert_int_eq(in.op, RDX_ISA_OP_S_ENDPGM);
    int loads = 0;
    for (uint32_t i = 0; i < lin->nsrc; i++) {
        ck_assert_int_eq(lin->src[i]->op, RDX_OP_INS);
        ck_assert_int_eq(lin->src[i]->tag, (int32_t)i);
        const char *nm = rdx_uop_ins(lin->src[i], &in) ? rdx_isa_op_name(in.op) : "";
        loads += !strncmp(nm, "global_load", 11);
    }
    ck_assert_int_eq(loads, 1);
    ck_assert_int_eq(rdx_ir_verify(ctx, prog), RDX_OK);
    rdx_codegen_kernel_free(k);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

TCase *cgb_tcase_tools(void)
{
    TCase *tc = tcase_create("tools");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, objdump_agrees, 0, NEX * NTG);
    tcase_add_loop_test(tc, descriptor_matches_clang, 0, NTG);
    tcase_add_test(tc, errors_name_the_problem);
    tcase_add_test(tc, cli_kernel);
    tcase_add_test(tc, compile_time);
    tcase_add_test(tc, program_uop);
    return tc;
}
