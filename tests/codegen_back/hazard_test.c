/*
 * tests/codegen_back/hazard_test.c — the gfx11 hazard and s_delay_alu passes
 * (codegen/hazard.c, codegen/delay_alu.c).
 *
 * Oracle 1 (clang): straight-line OpenCL kernels compiled by clang-19 for
 * gfx1100; the instructions are assembled and decoded by rdx, clang's own
 * s_delay_alu, s_waitcnt_depctr 0xfff and v_nop lines are taken out, the two
 * passes run on the rest, and what they insert (position and operand) must be
 * exactly clang's.
 * Oracle 2 (the documented rules, written out by hand): known sequences with
 * the expected result of LLVM's AMDGPUInsertDelayAlu / GCNHazardRecognizer
 * rules for gfx11 (TRANS use within 5 VALU / 1 TRANS, WMMA D → A/B with no
 * VALU between, VALU_DEP_n / TRANS32_DEP_n / SALU_CYCLE_n counting).
 * And: compiled kernels still run correctly with them (the other suites).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>

#include "codegen/cg.h"
#include "tests/codegen_back/cgb_test.h"
#include "util/error.h"

/* One instruction from its llvm-mc text into block 0 of p. */
static void push_text(cg_prog *p, const char *line)
{
    uint8_t bytes[RDX_ISA_MAX_BYTES];
    size_t len;
    ck_assert_msg(!rdx_asm_assemble_inst(p->tgt, line, bytes, &len), "assemble '%s': %s", line,
                  rdx_error_message());
    cg_inst in;
    memset(&in, 0, sizeof in);
    in.target = -1;
    size_t used;
    ck_assert_msg(!rdx_isa_decode(p->tgt, bytes, len, &in.in, &used), "decode '%s': %s", line,
                  rdx_error_message());
    ck_assert_int_eq(cg_block_push(p, 0, &in), RDX_OK);
}

/* The target of the programs built here (the clang comparison runs per target). */
static const char *hz_target = "gfx1100";

static void prog_init(cg_prog *p)
{
    cg_prog_init(p, rdx_isa_target_find(hz_target));
    ck_assert_int_eq(cg_block_new(p), 0);
}

/* What the passes inserted, as text: "delay:IMM@K" / "depctr@K" / "v_nop@K" where K is
   the index of the next original instruction. */
static char *inserted(const cg_prog *p, int with_delay)
{
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap);
    s[0] = 0;
    int k = 0;
    for (size_t b = 0; b < p->nblocks; b++)
        for (size_t i = 0; i < p->blocks[b].n; i++) {
            const rdx_isa_inst *in = &p->blocks[b].insts[i].in;
            if (in->op == RDX_ISA_OP_S_DELAY_ALU) {
                if (with_delay)
                    n += (size_t)snprintf(s + n, cap - n, "delay:%d@%d ", in->opnd[0].value, k);
            } else if (in->op == RDX_ISA_OP_S_WAITCNT_DEPCTR)
                n += (size_t)snprintf(s + n, cap - n, "depctr:%#x@%d ", in->opnd[0].value, k);
            else if (in->op == RDX_ISA_OP_V_NOP)
                n += (size_t)snprintf(s + n, cap - n, "v_nop@%d ", k);
            else
                k++;
            ck_assert_uint_lt(n, cap - 64);
        }
    return s;
}

static void run_passes(cg_prog *p)
{
    p->blocks[0].succ[0] = p->blocks[0].succ[1] = -1;
    ck_assert_int_eq(cg_hazards(p, NULL), RDX_OK);
    ck_assert_int_eq(cg_delay_alu(p, NULL), RDX_OK);
}

/* ------------------------------------------------------------ oracle 1: clang */

static const char cl_src[] =
    "kernel void trans(global float *a, global float *b, global float *c) {\n"
    "  int i = __builtin_amdgcn_workitem_id_x();\n"
    "  float x = a[i], y = b[i];\n"
    "  float t = x * y + 1.0f;\n"
    "  float u = __builtin_amdgcn_exp2f(t) + __builtin_amdgcn_logf(y);\n"
    "  float w = __builtin_amdgcn_sqrtf(u) * x;\n"
    "  c[i] = w * __builtin_amdgcn_rcpf(y) + __builtin_amdgcn_rcpf(x) * t;\n"
    "}\n"
    "kernel void fdiv64(global double *a, global double *c) {\n"
    "  int i = __builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * 64;\n"
    "  double x = a[i];\n"
    "  c[i] = 1.0 / x + x * x;\n"
    "}\n"
    "kernel void idiv(global uint *a, global uint *b, uint k, uint m) {\n"
    "  uint i = __builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * 128;\n"
    "  uint s = k * m + 3u;\n"
    "  b[i] = a[i] / s + (a[i] % 13u) * (k ^ m) + (s << 2);\n"
    "}\n"
    "kernel void fdiv32(global float *a, global float *b, float s) {\n"
    "  int i = __builtin_amdgcn_workitem_id_x();\n"
    "  float x = a[i];\n"
    "  b[i] = (x * s + 2.0f) / (x - s) + __builtin_amdgcn_rsqf(x * x + 1.0f);\n"
    "}\n"
    "kernel void chain(global float *a, global float *b) {\n"
    "  int i = __builtin_amdgcn_workitem_id_x();\n"
    "  float x = a[i], y = a[i + 64], z = a[i + 128];\n"
    "  float p = x * y, q = y + z, r = x - z, s = x * z;\n"
    "  b[i] = p * q + r * s + (p + q) * (r - s);\n"
    "}\n";

static const char *const cl_kernels[] = { "trans", "fdiv64", "idiv", "fdiv32", "chain" };

/* Clang's instruction lines of kernel `name` (from its label to s_endpgm). */
static void check_kernel(const char *asmtext, const char *name, int *ndelays, int *nfix)
{
    char label[64];
    snprintf(label, sizeof label, "\n%s:", name);
    const char *p = strstr(asmtext, label);
    ck_assert_msg(p != NULL, "no %s in clang's output", name);
    p = strchr(p + 1, '\n') + 1;
    cg_prog prog;
    prog_init(&prog);
    char want[1 << 14], want_text[1 << 14];
    size_t wn = 0, wtn = 0;
    int k = 0, done = 0;
    want[0] = want_text[0] = 0;
    while (*p && !done) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[512];
        size_t l = len < sizeof line - 1 ? len : sizeof line - 1;
        memcpy(line, p, l);
        line[l] = 0;
        p += len + (eol ? 1 : 0);
        char *c = strstr(line, ";");
        if (c)
            *c = 0;
        char *q = line;
        while (*q == ' ' || *q == '\t')
            q++;
        size_t ql = strlen(q);
        while (ql && (q[ql - 1] == ' ' || q[ql - 1] == '\t'))
            q[--ql] = 0;
        if (!ql || *q == '.')
            continue;
        ck_assert_msg(strncmp(q, "s_cbranch", 9) && q[ql - 1] != ':',
                      "%s: not straight-line ('%s')", name, q);
        if (!strncmp(q, "s_delay_alu", 11) || !strncmp(q, "s_waitcnt_depctr", 16) ||
            !strcmp(q, "v_nop")) {
            cg_prog one;
            prog_init(&one);
            push_text(&one, q);
            const rdx_isa_inst *in = &one.blocks[0].insts[0].in;
            if (in->op == RDX_ISA_OP_S_DELAY_ALU)
                wn += (size_t)snprintf(want + wn, sizeof want - wn, "delay:%d@%d ",
                                       in->opnd[0].value, k),
                    wtn += (size_t)snprintf(want_text + wtn, sizeof want_text - wtn, "%s\n", q),
                    (*ndelays)++;
            else if (in->op == RDX_ISA_OP_V_NOP)
                wn += (size_t)snprintf(want + wn, sizeof want - wn, "v_nop@%d ", k), (*nfix)++;
            else
                wn += (size_t)snprintf(want + wn, sizeof want - wn, "depctr:%#x@%d ",
                                       in->opnd[0].value, k),
                    (*nfix)++;
            cg_prog_free(&one);
            continue;
        }
        push_text(&prog, q);
        k++;
        done = !strcmp(q, "s_endpgm");
    }
    ck_assert_msg(done, "%s: no s_endpgm", name);
    run_passes(&prog);
    char *got = inserted(&prog, 1);
    ck_assert_msg(!strcmp(got, want), "%s:\nclang: %s\nrdx:   %s", name, want, got);
    free(got);
    /* the printed form is llvm's: instid0(..) | instskip(..) | instid1(..) */
    char *txt = NULL;
    ck_assert_int_eq(cg_print(&prog, 1, &txt), RDX_OK);
    char printed[1 << 14];
    size_t pn = 0;
    printed[0] = 0;
    for (const char *l = strstr(txt, "s_delay_alu"); l; l = strstr(l + 1, "s_delay_alu")) {
        const char *e = strchr(l, '\n');
        pn += (size_t)snprintf(printed + pn, sizeof printed - pn, "%.*s\n", (int)(e - l), l);
    }
    ck_assert_msg(!strcmp(printed, want_text), "%s:\nclang:\n%s\nrdx:\n%s", name, want_text,
                  printed);
    free(txt);
    cg_prog_free(&prog);
}

/* gfx1100/gfx1102 (the TRANS use hazard), gfx1150/gfx1151 (RDNA3.5: none, SALU float ops)
   and gfx1200/gfx1201 (RDNA4: none, split wait counters, renamed SALU ops) */
static const char *const clang_targets[] = { "gfx1100", "gfx1102", "gfx1150",
                                             "gfx1151", "gfx1200", "gfx1201" };

START_TEST(delay_alu_matches_clang)
{
    hz_target = clang_targets[_i];
    char mcpu[32];
    snprintf(mcpu, sizeof mcpu, "-mcpu=%s", hz_target);
    const char *clang = rdx_test_llvm_tool("clang");
    ck_assert_ptr_nonnull(clang);
    char *src = rdx_test_tmp_path("hz.cl"), *out = rdx_test_tmp_path("hz.s");
    rdx_test_write_file(src, cl_src, sizeof cl_src - 1);
    const char *argv[] = { clang, "-x",        "cl",  "-target", "amdgcn-amd-amdhsa",
                           mcpu,  "-nogpulib", "-O2", "-S",      "-o",
                           out,   src,         NULL };
    rdx_test_proc pr;
    rdx_test_run(argv, NULL, 0, &pr);
    ck_assert_msg(pr.status == 0, "clang: %s", pr.err);
    rdx_test_proc_free(&pr);
    char *text = rdx_test_read_file(out, NULL);
    int nd = 0, nf = 0;
    /* idiv where the target has the SALU float ops (gfx115x/gfx12): clang uses them
       (s_cvt_f32_u32, s_mul_f32) and delays an SALU float op reading v_readfirstlane's
       SGPR by VALU_DEP_1, which the model (LLVM's rule that an SALU reading a VALU's SGPR
       waits for it) does not; the back end emits neither (docs/codegen-backend.md
       "Targets") */
    int salu_float = (rdx_isa_target_find(hz_target)->features & RDX_ISA_FEATURE_SCALAR_FLOAT) != 0;
    for (size_t i = 0; i < sizeof cl_kernels / sizeof cl_kernels[0]; i++)
        if (!salu_float || strcmp(cl_kernels[i], "idiv"))
            check_kernel(text, cl_kernels[i], &nd, &nf);
    /* the kernels exercise both passes; the TRANS hazard's waits only where the target
       has it (target.def) */
    ck_assert_int_ge(nd, 10);
    if (cg_target_find(hz_target)->trans_hazard)
        ck_assert_int_ge(nf, 2);
    else
        ck_assert_int_eq(nf, 0);
    hz_target = "gfx1100";
    free(text), free(src), free(out);
}
END_TEST

/* ------------------------------------------------------------ oracle 2: the rules */

typedef struct seq {
    const char *lines[12];
    const char *want; /* inserted(), hazards and delays */
} seq;

/* s_delay_alu fields: VALU_DEP_n = n, TRANS32_DEP_n = 4 + n, SALU_CYCLE_n = 8 + n;
   instskip at bits 6:4, instid1 at bits 10:7 */
static const seq seqs[] = {
    /* dependent VALU right after: VALU_DEP_1 */
    { { "v_add_f32_e32 v1, v2, v3", "v_mul_f32_e32 v4, v1, v1", "s_endpgm" }, "delay:1@1 " },
    /* two independent VALUs between: VALU_DEP_3 */
    { { "v_add_f32_e32 v1, v2, v3", "v_mul_f32_e32 v5, v2, v2", "v_mul_f32_e32 v6, v3, v3",
        "v_mul_f32_e32 v4, v1, v1", "s_endpgm" },
      "delay:3@3 " },
    /* four VALUs between: the result is ready, no delay */
    { { "v_add_f32_e32 v1, v2, v3", "v_mov_b32_e32 v5, 0", "v_mov_b32_e32 v6, 0",
        "v_mov_b32_e32 v7, 0", "v_mov_b32_e32 v8, 0", "v_mul_f32_e32 v4, v1, v1", "s_endpgm" },
      "" },
    /* TRANS then use: va_vdst wait (hazard) and nothing to delay after it */
    { { "v_rcp_f32_e32 v1, v2", "v_mul_f32_e32 v4, v1, v1", "s_endpgm" }, "depctr:0xfff@1 " },
    /* TRANS, 5 VALUs, use: still the hazard; 6 VALUs: no hazard */
    { { "v_rcp_f32_e32 v1, v2", "v_mov_b32_e32 v3, 0", "v_mov_b32_e32 v5, 0", "v_mov_b32_e32 v6, 0",
        "v_mov_b32_e32 v7, 0", "v_mov_b32_e32 v8, 0", "v_mul_f32_e32 v4, v1, v1", "s_endpgm" },
      "depctr:0xfff@6 " },
    { { "v_rcp_f32_e32 v1, v2", "v_mov_b32_e32 v3, 0", "v_mov_b32_e32 v5, 0", "v_mov_b32_e32 v6, 0",
        "v_mov_b32_e32 v7, 0", "v_mov_b32_e32 v8, 0", "v_mov_b32_e32 v9, 0",
        "v_mul_f32_e32 v4, v1, v1", "s_endpgm" },
      "delay:5@7 " /* TRANS32_DEP_1: one TRANS back, still running */ },
    /* TRANS, 2 TRANS between: no hazard; a TRANS result read by a TRANS two back:
       TRANS32_DEP_3 (the depctr is not needed: 2 TRANS in between) */
    { { "v_rcp_f32_e32 v1, v2", "v_exp_f32_e32 v3, v2", "v_log_f32_e32 v5, v2",
        "v_sqrt_f32_e32 v4, v1", "s_endpgm" },
      "delay:7@3 " },
    /* a VMEM access in between waits for all VALU results: no hazard, no delay */
    { { "v_rcp_f32_e32 v1, v2", "global_store_b32 v0, v2, s[0:1]", "v_mul_f32_e32 v4, v1, v1",
        "s_endpgm" },
      "" },
    /* SALU result read by VALU: SALU_CYCLE_1 */
    { { "s_mul_i32 s3, s2, 7", "v_add_nc_u32_e32 v1, s3, v1", "s_endpgm" }, "delay:9@1 " },
    /* VALU and SALU for one instruction: instid0(VALU_DEP_1) | instid1(SALU_CYCLE_1) */
    { { "v_and_b32_e32 v1, 0x3ff, v0", "s_mul_i32 s3, s2, 7", "v_add_nc_u32_e32 v1, s3, v1",
        "s_endpgm" },
      "delay:1153@2 " },
    /* two delays within 5 instructions share one s_delay_alu: instskip(NEXT) */
    { { "v_add_f32_e32 v1, v2, v3", "v_mul_f32_e32 v4, v1, v1", "v_mul_f32_e32 v5, v4, v4",
        "s_endpgm" },
      "delay:145@1 " },
    /* WMMA whose A is the previous WMMA's D: v_nop (and VALU_DEP_2 behind it); with a VALU
       between: no v_nop */
    { { "v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]",
        "v_wmma_f32_16x16x16_f16 v[24:31], v[0:7], v[16:23], v[24:31]", "s_endpgm" },
      "v_nop@1 delay:2@1 " },
    { { "v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]", "v_mov_b32_e32 v40, 0",
        "v_wmma_f32_16x16x16_f16 v[24:31], v[0:7], v[16:23], v[24:31]", "s_endpgm" },
      "delay:2@2 " },
    /* C may be the previous D on gfx11 (the hardware waits) */
    { { "v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]",
        "v_wmma_f32_16x16x16_f16 v[0:7], v[32:39], v[16:23], v[0:7]", "s_endpgm" },
      "delay:1@1 " },
};

START_TEST(hazard_rules)
{
    const seq *s = &seqs[_i];
    cg_prog p;
    prog_init(&p);
    for (int k = 0; k < 12 && s->lines[k]; k++)
        push_text(&p, s->lines[k]);
    run_passes(&p);
    char *got = inserted(&p, 1);
    ck_assert_msg(!strcmp(got, s->want), "sequence %d: want '%s', got '%s'", _i, s->want, got);
    /* what was inserted encodes */
    for (size_t i = 0; i < p.blocks[0].n; i++) {
        uint8_t bytes[RDX_ISA_MAX_BYTES];
        size_t len;
        ck_assert_msg(!rdx_isa_encode(p.tgt, &p.blocks[0].insts[i].in, bytes, &len),
                      "sequence %d: %s", _i, rdx_error_message());
    }
    free(got);
    cg_prog_free(&p);
}
END_TEST

/* A TRANS result used across a loop's back edge: the hazard is found through the CFG. */
START_TEST(hazard_across_back_edge)
{
    cg_prog p;
    prog_init(&p);
    ck_assert_int_eq(cg_block_new(&p), 1);
    push_text(&p, "v_mov_b32_e32 v1, 1.0");
    cg_prog *q = &p;
    /* block 1: use of v1 at the top, v_rcp writing v1 at the bottom, back edge to itself */
    const char *body[] = { "v_mul_f32_e32 v4, v1, v1", "v_rcp_f32_e32 v1, v4", "s_nop 0" };
    for (int k = 0; k < 3; k++) {
        uint8_t bytes[RDX_ISA_MAX_BYTES];
        size_t len, used;
        ck_assert_int_eq(rdx_asm_assemble_inst(q->tgt, body[k], bytes, &len), RDX_OK);
        cg_inst in;
        memset(&in, 0, sizeof in);
        in.target = -1;
        ck_assert_int_eq(rdx_isa_decode(q->tgt, bytes, len, &in.in, &used), RDX_OK);
        ck_assert_int_eq(cg_block_push(q, 1, &in), RDX_OK);
    }
    p.blocks[0].succ[0] = 1, p.blocks[0].succ[1] = -1;
    p.blocks[1].succ[0] = 1, p.blocks[1].succ[1] = -1;
    ck_assert_int_eq(cg_hazards(&p, NULL), RDX_OK);
    ck_assert_uint_eq(p.blocks[1].n, 4);
    ck_assert_int_eq(p.blocks[1].insts[0].in.op, RDX_ISA_OP_S_WAITCNT_DEPCTR);
    cg_prog_free(&p);
}
END_TEST

TCase *cgb_tcase_hazard(void)
{
    TCase *tc = tcase_create("hazard");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, delay_alu_matches_clang, 0,
                        (int)(sizeof clang_targets / sizeof clang_targets[0]));
    tcase_add_loop_test(tc, hazard_rules, 0, (int)(sizeof seqs / sizeof seqs[0]));
    tcase_add_test(tc, hazard_across_back_edge);
    return tc;
}
