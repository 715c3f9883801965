/*
 * bench/emu/bench_emu.c — emulator throughput (wave-instructions per CPU-second of
 * one host core) and its scaling from 1 to 2 host threads, on:
 *
 *   valu       a VALU-bound loop (f32 fma/mul/add/max/min, integer ops, a conversion)
 *   mm-naive   a naive 256x256 f32 matmul: per k two global loads, a wait, an FMA
 *   cl-matmul  clang-19 -O3's tiled LDS matmul (tests/data/bench/matmul.cl), 256^3
 *   cl-sum     clang-19 -O3's reduction (tests/data/bench/sum.cl), 2^20 floats
 *   softmax    rdx codegen's softmax, 256x1024 f32
 *   wmma-f16   rdx codegen's f16 matmul (WMMA), 512^3
 *
 * valu and mm-naive are written in assembly and assembled with rdx's own assembler.
 * Each workload is timed against host C doing the same arithmetic in the same run
 * (compiled like the library, with FMA / AVX2 lane loops when the CPU has them), and its
 * counters (classes, PC counts, cycle estimates) are printed as one hash, which must not
 * change when only the emulator's speed changes; results must be bit-identical for 1 and
 * 2 threads.  -q: short runs (about 0.1 s per figure instead of 0.4 s); -r N: exactly N
 * dispatches per figure and one host C run (a fixed amount of work, for timing the whole
 * process); -1: 1 host thread only; -v: each workload's most executed ops.  Names select
 * workloads.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdx/asm.h>
#include <rdx/codegen.h>
#include <rdx/codegen_front.h>
#include <rdx/codeobj.h>
#include <rdx/emu.h>
#include <rdx/isa.h>
#include <rdx/tensor.h>

static double min_secs = 0.4;
static int fixed_reps; /* -r N: exactly N dispatches per figure and one host C run (fixed work) */
static int one_thread; /* -1: 1 host thread only */
static int verbose;    /* -v: each workload's most executed ops */

typedef struct opcount {
    uint32_t op;
    uint64_t n;
} opcount;

static int cmp_opcount(const void *a, const void *b)
{
    const opcount *x = a, *y = b;
    return x->n != y->n ? (x->n < y->n ? 1 : -1) : (x->op > y->op) - (x->op < y->op);
}

/* The ops of the last dispatch by executions, most first (-v). */
static void print_ops(const rdx_emu_counters *c)
{
    opcount o[64];
    size_t no = 0;
    for (size_t k = 0; k < c->npc; k++) {
        size_t j = 0;
        while (j < no && o[j].op != c->pcs[k].op)
            j++;
        if (j == no && no < 64)
            o[no++] = (opcount){ c->pcs[k].op, 0 };
        if (j < no)
            o[j].n += c->pcs[k].count;
    }
    qsort(o, no, sizeof o[0], cmp_opcount);
    printf("   ");
    for (size_t j = 0; j < no && j < 16; j++)
        printf(" %s %.1f%%", rdx_isa_op_name((rdx_isa_op)o[j].op),
               100.0 * (double)o[j].n / (double)c->wave_insts);
    printf("\n");
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* CPU seconds of the whole process (all threads): per-core rates stay meaningful on a
   shared machine where wall time includes waiting for a core. */
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ----------------------------------------------------------------- kernels */

/* A VALU-bound loop: 16 VALU + 3 SALU instructions per iteration, one work-item per lane;
   out[gid] = a combination of the accumulators. kernarg: out (8), iters (4). */
static const char valu_s[] = "  .amdgcn_target \"amdgcn-amd-amdhsa--gfx1100\"\n"
                             "  .text\n"
                             "  .globl valu\n"
                             "  .p2align 8\n"
                             "valu:\n"
                             "  s_load_b64 s[4:5], s[0:1], 0x0\n"
                             "  s_load_b32 s6, s[0:1], 0x8\n"
                             "  s_lshl_b32 s7, s2, 8\n"
                             "  v_add_nc_u32 v0, s7, v0\n"
                             "  v_cvt_f32_u32 v1, v0\n"
                             "  v_mul_f32 v1, 0x3a800000, v1\n" /* x = gid / 1024 */
                             "  s_mov_b32 s8, 0x3f7fbe77\n"     /* 0.999 */
                             "  s_mov_b32 s9, 0x3a83126f\n"     /* 0.001 */
                             "  v_mov_b32 v2, v1\n"
                             "  v_mov_b32 v3, 1.0\n"
                             "  v_mov_b32 v4, 0\n"
                             "  v_mov_b32 v7, 0\n"
                             "  v_mov_b32 v9, 0\n"
                             "  v_mov_b32 v10, v0\n"
                             "  v_mov_b32 v11, 0\n"
                             "  v_mov_b32 v15, 0\n"
                             "  s_waitcnt lgkmcnt(0)\n"
                             ".Lloop:\n"
                             "  v_fma_f32 v2, v2, s8, 1.0\n"
                             "  v_fma_f32 v3, v3, s8, 0.5\n"
                             "  v_fmac_f32 v4, s9, v1\n"
                             "  v_mul_f32 v5, v2, v3\n"
                             "  v_add_f32 v6, v5, v4\n"
                             "  v_max_f32 v7, v6, v7\n"
                             "  v_sub_f32 v8, v6, v5\n"
                             "  v_fmac_f32 v9, v8, v8\n"
                             "  v_xor_b32 v10, v10, v0\n"
                             "  v_add_nc_u32 v11, v11, v10\n"
                             "  v_and_b32 v12, 0xffff, v11\n"
                             "  v_lshlrev_b32 v13, 1, v12\n"
                             "  v_cvt_f32_u32 v14, v13\n"
                             "  v_mul_f32 v14, 0x3a800000, v14\n"
                             "  v_add_f32 v15, v15, v14\n"
                             "  v_min_f32 v15, 0x47000000, v15\n"
                             "  s_add_i32 s6, s6, -1\n"
                             "  s_cmp_lg_u32 s6, 0\n"
                             "  s_cbranch_scc1 .Lloop\n"
                             "  v_add_f32 v2, v2, v3\n"
                             "  v_add_f32 v2, v2, v7\n"
                             "  v_add_f32 v2, v2, v9\n"
                             "  v_add_f32 v2, v2, v15\n"
                             "  v_lshlrev_b32 v0, 2, v0\n"
                             "  global_store_b32 v0, v2, s[4:5]\n"
                             "  s_endpgm\n"
                             "  .rodata\n"
                             "  .p2align 6\n"
                             "  .amdhsa_kernel valu\n"
                             "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
                             "  .amdhsa_system_sgpr_workgroup_id_x 1\n"
                             "  .amdhsa_kernarg_size 16\n"
                             "  .amdhsa_next_free_vgpr 16\n"
                             "  .amdhsa_next_free_sgpr 10\n"
                             "  .amdhsa_float_denorm_mode_32 3\n"
                             "  .amdhsa_wavefront_size32 1\n"
                             "  .end_amdhsa_kernel\n";

/* Host C of the valu loop: the same operations in the same order for lanes [0, n) (n <=
   256), each operation a loop over the lanes that the compiler vectorizes. */
#define HOST_VALU_BODY                                                                    \
    float x[256], v2[256], v3[256], v4[256], v5[256], v6[256], v7[256], v8[256], v9[256], \
        v14[256], v15[256];                                                               \
    uint32_t v10[256], v11[256], v13[256], g[256];                                        \
    float a, b;                                                                           \
    memcpy(&a, &(uint32_t){ 0x3f7fbe77 }, 4);                                             \
    memcpy(&b, &(uint32_t){ 0x3a83126f }, 4);                                             \
    for (int l = 0; l < n; l++) {                                                         \
        g[l] = gid + (uint32_t)l;                                                         \
        x[l] = (float)g[l] * 0x1p-10f;                                                    \
        v2[l] = x[l];                                                                     \
        v3[l] = 1.0f;                                                                     \
        v4[l] = v7[l] = v9[l] = v15[l] = 0;                                               \
        v10[l] = g[l];                                                                    \
        v11[l] = 0;                                                                       \
    }                                                                                     \
    for (int i = 0; i < iters; i++) {                                                     \
        for (int l = 0; l < n; l++)                                                       \
            v2[l] = fmaf(v2[l], a, 1.0f);                                                 \
        for (int l = 0; l < n; l++)                                                       \
            v3[l] = fmaf(v3[l], a, 0.5f);                                                 \
        for (int l = 0; l < n; l++)                                                       \
            v4[l] = fmaf(b, x[l], v4[l]);                                                 \
        for (int l = 0; l < n; l++)                                                       \
            v5[l] = v2[l] * v3[l];                                                        \
        for (int l = 0; l < n; l++)                                                       \
            v6[l] = v5[l] + v4[l];                                                        \
        for (int l = 0; l < n; l++)                                                       \
            v7[l] = v6[l] > v7[l] ? v6[l] : v7[l];                                        \
        for (int l = 0; l < n; l++)                                                       \
            v8[l] = v6[l] - v5[l];                                                        \
        for (int l = 0; l < n; l++)                                                       \
            v9[l] = fmaf(v8[l], v8[l], v9[l]);                                            \
        for (int l = 0; l < n; l++)                                                       \
            v10[l] ^= g[l];                                                               \
        for (int l = 0; l < n; l++)                                                       \
            v11[l] += v10[l];                                                             \
        for (int l = 0; l < n; l++)                                                       \
            v13[l] = (v11[l] & 0xffff) << 1;                                              \
        for (int l = 0; l < n; l++)                                                       \
            v14[l] = (float)(int32_t)v13[l] * 0x1p-10f;                                   \
        for (int l = 0; l < n; l++)                                                       \
            v15[l] = v15[l] + v14[l];                                                     \
        for (int l = 0; l < n; l++)                                                       \
            v15[l] = v15[l] < 32768.0f ? v15[l] : 32768.0f;                               \
    }                                                                                     \
    for (int l = 0; l < n; l++)                                                           \
        out[l] = v2[l] + v3[l] + v7[l] + v9[l] + v15[l];

static void valu_lanes(uint32_t gid, int n, int iters, float *out)
{
    HOST_VALU_BODY
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) static void valu_lanes_fma(uint32_t gid, int n, int iters,
                                                               float *out)
{
    HOST_VALU_BODY
}
#endif

/* A naive matmul: work-item (row = workgroup, col = lane) runs k = 0..n-1 with two global
   loads, a wait and an FMA.  kernarg: c, a, b (8 each); n = 256. */
static const char mm_s[] = "  .amdgcn_target \"amdgcn-amd-amdhsa--gfx1100\"\n"
                           "  .text\n"
                           "  .globl mm\n"
                           "  .p2align 8\n"
                           "mm:\n"
                           "  s_load_b128 s[4:7], s[0:1], 0x0\n"
                           "  s_load_b64 s[8:9], s[0:1], 0x10\n"
                           "  s_lshl_b32 s10, s2, 10\n"
                           "  v_lshlrev_b32 v1, 2, v0\n"
                           "  v_mov_b32 v2, 0\n"
                           "  v_mov_b32 v3, v1\n"
                           "  v_mov_b32 v5, 0\n"
                           "  s_mov_b32 s14, 256\n"
                           "  s_waitcnt lgkmcnt(0)\n"
                           "  s_add_u32 s12, s6, s10\n"
                           "  s_addc_u32 s13, s7, 0\n"
                           ".Lk:\n"
                           "  global_load_b32 v4, v5, s[12:13]\n"
                           "  global_load_b32 v6, v3, s[8:9]\n"
                           "  s_add_u32 s12, s12, 4\n"
                           "  s_addc_u32 s13, s13, 0\n"
                           "  v_add_nc_u32 v3, 0x400, v3\n"
                           "  s_waitcnt vmcnt(0)\n"
                           "  v_fmac_f32 v2, v4, v6\n"
                           "  s_add_i32 s14, s14, -1\n"
                           "  s_cmp_lg_u32 s14, 0\n"
                           "  s_cbranch_scc1 .Lk\n"
                           "  v_add_nc_u32 v7, s10, v1\n"
                           "  global_store_b32 v7, v2, s[4:5]\n"
                           "  s_endpgm\n"
                           "  .rodata\n"
                           "  .p2align 6\n"
                           "  .amdhsa_kernel mm\n"
                           "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
                           "  .amdhsa_system_sgpr_workgroup_id_x 1\n"
                           "  .amdhsa_kernarg_size 24\n"
                           "  .amdhsa_next_free_vgpr 8\n"
                           "  .amdhsa_next_free_sgpr 16\n"
                           "  .amdhsa_float_denorm_mode_32 3\n"
                           "  .amdhsa_wavefront_size32 1\n"
                           "  .end_amdhsa_kernel\n";

static rdx_codeobj *assemble(const char *src)
{
    rdx_asm_result *r = NULL;
    uint8_t *elf = NULL;
    size_t len = 0;
    rdx_codeobj *co = NULL;
    if (rdx_asm_assemble(src, strlen(src), NULL, &r) || rdx_asm_write_codeobj(r, &elf, &len) ||
        rdx_codeobj_read(elf, len, "bench", &co))
        fprintf(stderr, "bench_emu: assembling: %s\n", rdx_error_message());
    rdx_asm_free(r);
    free(elf);
    return co;
}

static rdx_codeobj *clang_cl(const char *name)
{
    char dir[] = "/tmp/rdx_bench_emu_XXXXXX", obj[128], cmd[1024];
    if (!mkdtemp(dir))
        return NULL;
    snprintf(obj, sizeof obj, "%s/k.co", dir);
    const char *clang =
        access("/usr/lib/llvm-19/bin/clang", X_OK) == 0 ? "/usr/lib/llvm-19/bin/clang" : "clang-19";
    snprintf(cmd, sizeof cmd,
             "%s -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -nogpulib -O3 "
             "-o %s tests/data/bench/%s.cl",
             clang, obj, name);
    rdx_codeobj *co = NULL;
    if (system(cmd) != 0 || rdx_codeobj_read_file(obj, &co) != RDX_OK)
        fprintf(stderr, "bench_emu: cannot build tests/data/bench/%s.cl with clang-19\n", name);
    remove(obj);
    rmdir(dir);
    return co;
}

/* ------------------------------------------------------------- workloads */

#define MAXD 4

/* One dispatch of a workload: kernel, launch, buffers (indices into the workload's). */
typedef struct disp {
    const rdx_codeobj *co;
    const char *kernel;
    uint32_t grid[3], wg[3];
    uint8_t kernarg[256];
    size_t kernarg_size;
} disp;

typedef struct workload {
    const char *name, *what;
    disp d[MAXD];
    int nd;
    void *buf[8];
    size_t bytes[8];
    int nbuf;
    int out;                         /* the output buffer */
    void (*host)(struct workload *); /* host C of the same arithmetic */
    double host_ops;                 /* its arithmetic operations (lane-ops) per run */
    double check;                    /* max |emu - host| */
    void *aux;
    size_t aux_n;
} workload;

static int run_once(rdx_emu *e, workload *w, uint64_t *insts, uint64_t *hash)
{
    rdx_emu_buffer eb[8];
    for (int b = 0; b < w->nbuf; b++)
        eb[b] = (rdx_emu_buffer){ w->buf[b], w->bytes[b], RDX_EMU_RW };
    uint64_t n = 0, h = 1469598103934665603ull;
    for (int i = 0; i < w->nd; i++) {
        disp *d = &w->d[i];
        rdx_emu_launch l;
        memset(&l, 0, sizeof l);
        memcpy(l.grid, d->grid, sizeof l.grid);
        memcpy(l.wg, d->wg, sizeof l.wg);
        l.kernarg = d->kernarg;
        l.kernarg_size = d->kernarg_size;
        l.bufs = eb;
        l.nbufs = (size_t)w->nbuf;
        l.budget = 2000000000ull;
        if (rdx_emu_run_kernel(e, d->co, d->kernel, &l)) {
            fprintf(stderr, "bench_emu: %s: %s\n", w->name, rdx_error_message());
            return -1;
        }
        const rdx_emu_counters *c = rdx_emu_get_counters(e);
        n += c->wave_insts;
        if (verbose == 1 && hash)
            print_ops(c);
        /* every counter the emulator reports, the PC histogram and the estimate */
        uint64_t f[] = { c->waves,
                         c->workgroups,
                         c->wave_insts,
                         c->lane_ops,
                         c->vector_insts,
                         c->bytes_read,
                         c->bytes_written,
                         c->lds_bytes,
                         c->lds_misaligned,
                         c->scratch_bytes,
                         c->vopd,
                         c->cycles,
                         c->max_wave_cycles,
                         c->est_kernel_cycles,
                         c->est_issue_cycles,
                         c->est_dram_bytes,
                         c->est_waves_per_simd,
                         c->est_groups_per_wgp,
                         (uint64_t)c->est_bound,
                         c->npc };
        for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
            h = (h ^ f[k]) * 1099511628211ull;
        for (int k = 0; k < RDX_EMU_CLASS_COUNT; k++)
            h = (h ^ c->by_class[k]) * 1099511628211ull;
        for (size_t k = 0; k < c->npc; k++)
            h = (h ^ c->pcs[k].count ^ (c->pcs[k].pc - c->pcs[0].pc) << 40) * 1099511628211ull;
    }
    *insts = n;
    if (hash)
        *hash = h;
    return 0;
}

/* Pseudo-random inputs in [-1, 1]. */
static void fill(float *p, size_t n, unsigned seed)
{
    uint32_t h = 2166136261u ^ seed * 16777619u;
    for (size_t i = 0; i < n; i++) {
        h = h * 1664525u + 1013904223u;
        p[i] = (float)((h >> 8) % 2001u) / 1000.0f - 1.0f;
    }
}

static void *zalloc(size_t n)
{
    void *p = aligned_alloc(4096, (n + 4095) & ~(size_t)4095);
    if (p)
        memset(p, 0, n);
    return p;
}

static void put(disp *d, size_t off, const void *v, size_t n)
{
    memcpy(d->kernarg + off, v, n);
    if (off + n > d->kernarg_size)
        d->kernarg_size = off + n;
}

static void put_ptr(disp *d, size_t off, const void *p)
{
    uint64_t v = (uint64_t)(uintptr_t)p;
    put(d, off, &v, 8);
}

/* valu: 64 workgroups of 256, 256 iterations */
enum { VALU_N = 64 * 256, VALU_IT = 256 };
static int have_fma;
static void host_valu(workload *w)
{
    float *o = w->aux;
    for (uint32_t i = 0; i < VALU_N; i += 256)
#if defined(__x86_64__)
        if (have_fma)
            valu_lanes_fma(i, 256, VALU_IT, o + i);
        else
#endif
            valu_lanes(i, 256, VALU_IT, o + i);
}

/* f32 matmul c = a b, n x n, k ascending per element with one rounding per FMA */
#define HOST_MM_BODY                             \
    memset(c, 0, sizeof(float) * (size_t)n * n); \
    for (int i = 0; i < n; i++)                  \
        for (int k = 0; k < n; k++)              \
            for (int j = 0; j < n; j++)          \
                c[i * n + j] = fmaf(a[i * n + k], b[k * n + j], c[i * n + j]);
static void host_mm_plain(const float *a, const float *b, float *c, int n)
{
    HOST_MM_BODY
}
#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) static void host_mm_fma(const float *a, const float *b,
                                                            float *c, int n)
{
    HOST_MM_BODY
}
#endif
static void host_mm(const float *a, const float *b, float *c, int n)
{
#if defined(__x86_64__)
    if (have_fma) {
        host_mm_fma(a, b, c, n);
        return;
    }
#endif
    host_mm_plain(a, b, c, n);
}

static void host_mm_w(workload *w)
{
    host_mm(w->buf[1], w->buf[2], w->aux, 256);
}

static void host_sum(workload *w)
{
    const float *x = w->buf[1];
    float s[8] = { 0 };
    for (size_t i = 0; i < w->bytes[1] / 4; i += 8)
        for (int j = 0; j < 8; j++)
            s[j] += x[i + j];
    ((float *)w->aux)[0] = s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7];
}

static void host_softmax(workload *w)
{
    const float *x = w->buf[w->out == 0 ? 1 : 0];
    float *o = w->aux;
    size_t cols = 1024, rows = w->aux_n / cols;
    for (size_t r = 0; r < rows; r++) {
        float m = -INFINITY, s = 0;
        for (size_t c = 0; c < cols; c++)
            m = fmaxf(m, x[r * cols + c]);
        for (size_t c = 0; c < cols; c++)
            s += o[r * cols + c] = expf(x[r * cols + c] - m);
        for (size_t c = 0; c < cols; c++)
            o[r * cols + c] /= s;
    }
}

static void host_mm16(workload *w)
{
    int n = 512;
    const _Float16 *a = w->buf[w->out == 0 ? 1 : 0], *b = w->buf[w->out == 2 ? 1 : 2];
    float *af = w->aux, *bf = af + n * n, *c = bf + n * n;
    for (int i = 0; i < n * n; i++) {
        af[i] = (float)a[i];
        bf[i] = (float)b[i];
    }
    host_mm(af, bf, c, n);
}

/* rdx codegen: every kernel of the schedule of `root` compiled with the heuristics'
   opts; fills w's dispatches and buffers (inputs filled with fill()). */
static int rdx_workload(workload *w, rdx_graph *g, const rdx_tensor *root)
{
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    rdx_schedule *s = NULL;
    const rdx_uop *roots[1] = { root };
    if (rdx_graph_status(g) || rdx_cg_schedule(ctx, roots, 1, &s))
        return -1;
    if (s->nbuffers > 8 || s->nkernels > MAXD)
        return -1;
    w->nbuf = (int)s->nbuffers;
    for (size_t b = 0; b < s->nbuffers; b++) {
        int64_t n = 0;
        if (!rdx_uop_const_int(s->buffers[b].numel, &n))
            return -1;
        size_t isz = rdx_dtype_itemsize(s->buffers[b].dtype);
        w->bytes[b] = (size_t)n * isz;
        if (!(w->buf[b] = zalloc(w->bytes[b])))
            return -1;
        float *t = malloc(sizeof(float) * (size_t)n);
        fill(t, (size_t)n, (unsigned)b);
        for (int64_t i = 0; i < n; i++)
            if (isz == 2)
                ((_Float16 *)w->buf[b])[i] = (_Float16)t[i];
            else
                ((float *)w->buf[b])[i] = t[i];
        free(t);
    }
    w->out = (int)s->outputs[0];
    w->nd = (int)s->nkernels;
    for (size_t k = 0; k < s->nkernels; k++) {
        const rdx_sched_kernel *kn = &s->kernels[k];
        const rdx_uop *typed = NULL, *opt = NULL, *exp = NULL;
        rdx_opt o[16];
        size_t no = 0;
        rdx_codegen_kernel *ck = NULL;
        rdx_codegen_options cgo;
        memset(&cgo, 0, sizeof cgo);
        cgo.name = kn->name;
        rdx_codeobj *co = NULL;
        disp *d = &w->d[k];
        if (rdx_cg_axis_types(ctx, kn->sink, &typed) || rdx_cg_heuristic(typed, o, 16, &no) ||
            rdx_cg_apply_opts(ctx, typed, o, no, &opt) || rdx_cg_expand(ctx, opt, &exp) ||
            rdx_codegen_compile(ctx, exp, &cgo, &ck) ||
            rdx_codeobj_read(ck->code_object, ck->code_object_size, kn->name, &co) ||
            rdx_codegen_launch(ck, NULL, 0, d->grid, d->wg) || ck->kernarg_size > 256 ||
            kn->nparams > 64) {
            fprintf(stderr, "bench_emu: %s: %s\n", w->name, rdx_error_message());
            return -1;
        }
        uint64_t ptrs[64] = { 0 }, values[64] = { 0 };
        for (uint32_t p = 0; p < kn->nparams; p++)
            ptrs[p] = (uint64_t)(uintptr_t)w->buf[kn->params[p]];
        rdx_codegen_pack_args(ck, ptrs, values, NULL, d->kernarg);
        d->kernarg_size = ck->kernarg_size;
        d->co = co;
        d->kernel = strdup(kn->name);
        rdx_codegen_kernel_free(ck);
    }
    rdx_schedule_free(s);
    return 0;
}

static int setup(workload *w, const char *name)
{
    memset(w, 0, sizeof *w);
    w->name = name;
    if (!strcmp(name, "valu")) {
        w->what = "VALU loop (asm), 512 waves x 256 iterations";
        w->d[0].co = assemble(valu_s);
        w->d[0].kernel = "valu";
        w->nd = 1;
        w->nbuf = 1;
        w->bytes[0] = VALU_N * 4;
        w->buf[0] = zalloc(w->bytes[0]);
        disp *d = &w->d[0];
        d->grid[0] = VALU_N;
        d->wg[0] = 256;
        d->grid[1] = d->grid[2] = d->wg[1] = d->wg[2] = 1;
        put_ptr(d, 0, w->buf[0]);
        put(d, 8, &(uint32_t){ VALU_IT }, 4);
        w->host = host_valu;
        w->host_ops = (double)VALU_N * VALU_IT * 16;
        w->aux_n = VALU_N;
        return w->d[0].co ? 0 : -1;
    }
    if (!strcmp(name, "mm-naive") || !strcmp(name, "cl-matmul")) {
        int naive = name[0] == 'm', n = 256;
        w->what = naive ? "naive f32 matmul (asm), 256^3" : "clang -O3 tiled matmul, 256^3";
        w->nbuf = 3;
        for (int b = 0; b < 3; b++) {
            w->bytes[b] = sizeof(float) * (size_t)n * n;
            w->buf[b] = zalloc(w->bytes[b]);
        }
        fill(w->buf[1], (size_t)n * n, 1);
        fill(w->buf[2], (size_t)n * n, 2);
        disp *d = &w->d[0];
        d->co = naive ? assemble(mm_s) : clang_cl("matmul");
        d->kernel = naive ? "mm" : "matmul";
        w->nd = 1;
        for (int b = 0; b < 3; b++)
            put_ptr(d, 8 * (size_t)b, w->buf[b]);
        if (naive) {
            d->grid[0] = (uint32_t)(n * n);
            d->wg[0] = 256;
            d->grid[1] = d->grid[2] = d->wg[1] = d->wg[2] = 1;
        } else {
            put(d, 24, &n, 4);
            d->grid[0] = d->grid[1] = (uint32_t)n / 2;
            d->wg[0] = d->wg[1] = 16;
            d->grid[2] = d->wg[2] = 1;
        }
        w->host = host_mm_w;
        w->host_ops = (double)n * n * n;
        w->aux_n = (size_t)n * n;
        return d->co ? 0 : -1;
    }
    if (!strcmp(name, "cl-sum")) {
        enum { N = 1 << 20, G = 256 };
        w->what = "clang -O3 reduction, 2^20 floats";
        w->nbuf = 3;
        size_t bytes[3] = { 4 * G, 4 * (size_t)N, 4 };
        for (int b = 0; b < 3; b++)
            w->buf[b] = zalloc(w->bytes[b] = bytes[b]);
        fill(w->buf[1], N, 3);
        rdx_codeobj *co = clang_cl("sum");
        for (int i = 0; i < 2; i++) {
            disp *d = &w->d[i];
            d->co = co;
            d->kernel = "sum";
            d->grid[0] = i ? 256 : G * 256;
            d->wg[0] = 256;
            d->grid[1] = d->grid[2] = d->wg[1] = d->wg[2] = 1;
            put_ptr(d, 0, w->buf[i ? 2 : 0]);
            put_ptr(d, 8, w->buf[i ? 0 : 1]);
            int32_t a[2] = { i ? G : N, i ? 256 : G * 256 };
            put(d, 16, a, 8);
        }
        w->nd = 2;
        w->out = 2;
        w->host = host_sum;
        w->host_ops = N;
        w->aux_n = 1;
        return co ? 0 : -1;
    }
    if (!strcmp(name, "softmax") || !strcmp(name, "wmma-f16")) {
        int sm = name[0] == 's';
        w->what = sm ? "rdx codegen softmax, 256x1024 f32" : "rdx codegen f16 WMMA matmul, 512^3";
        rdx_graph *g = NULL;
        if (rdx_graph_create(&g, NULL))
            return -1;
        const rdx_tensor *t;
        if (sm) {
            const int64_t dims[2] = { 256, 1024 };
            t = rdx_tensor_softmax(g, rdx_tensor_empty(g, rdx_dtype_of(RDX_FLOAT32), 2, dims), -1);
            w->host = host_softmax;
            w->host_ops = 256.0 * 1024 * 5; /* max, sub, exp, add, div */
            w->aux_n = 256 * 1024;
        } else {
            const int64_t dims[2] = { 512, 512 };
            rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
            t = rdx_tensor_matmul(g, rdx_tensor_empty(g, h, 2, dims),
                                  rdx_tensor_empty(g, h, 2, dims));
            w->host = host_mm16;
            w->host_ops = 512.0 * 512 * 512;
            w->aux_n = 3 * 512 * 512;
        }
        int rc = rdx_workload(w, g, t);
        rdx_graph_destroy(g);
        return rc;
    }
    return -1;
}

/* The max |emu - host| of the output. */
static double compare(workload *w)
{
    double m = 0;
    const float *h = w->aux;
    size_t n = w->aux_n;
    if (!strcmp(w->name, "wmma-f16")) {
        const _Float16 *o = w->buf[w->out];
        h += 2 * 512 * 512;
        for (size_t i = 0; i < 512 * 512; i++)
            m = fmax(m, fabs((double)o[i] - h[i]) / (1 + fabs(h[i])));
        return m;
    }
    const float *o = w->buf[w->out];
    for (size_t i = 0; i < n; i++)
        m = fmax(m, fabs((double)o[i] - h[i]) / (1 + fabs(h[i])));
    return m;
}

static const char *all_names[] = {
    "valu", "mm-naive", "cl-matmul", "cl-sum", "softmax", "wmma-f16"
};

int main(int argc, char **argv)
{
    int a = 1;
    for (; a < argc && argv[a][0] == '-'; a++)
        if (!strcmp(argv[a], "-q"))
            min_secs = 0.1;
        else if (!strcmp(argv[a], "-r") && a + 1 < argc)
            fixed_reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "-1"))
            one_thread = 1;
        else if (!strcmp(argv[a], "-v"))
            verbose = 1;
    const char **names = all_names;
    int nnames = (int)(sizeof all_names / sizeof all_names[0]);
    if (a < argc) {
        names = (const char **)(argv + a);
        nnames = argc - a;
    }
#if defined(__x86_64__)
    __builtin_cpu_init();
    have_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
    rdx_emu *e;
    if (rdx_emu_create("gfx1100", &e))
        return 1;
    int bad = 0;
    printf("%-9s %11s %9s %9s %9s %7s %7s %9s %9s  %s\n", "workload", "winst/disp", "M/s t=1",
           "M/s t=2", "M/s/core", "2t/1t", "cpu2/1", "host M/s", "x host", "counters hash");
    for (int i = 0; i < nnames; i++) {
        workload w;
        if (setup(&w, names[i])) {
            fprintf(stderr, "bench_emu: cannot set up %s\n", names[i]);
            bad = 1;
            continue;
        }
        w.aux = calloc(w.aux_n, sizeof(float));
        /* host C: repeat for at least min_secs / 4 */
        int hreps = 0;
        double h0 = cpu_now();
        do {
            w.host(&w);
            __asm__ volatile("" ::"r"(w.aux) : "memory");
            hreps++;
        } while (!fixed_reps && cpu_now() - h0 < min_secs / 4);
        double host_s = (cpu_now() - h0) / hreps, host_rate = w.host_ops / host_s;

        double wall[2], cpu[2], rate[2];
        uint64_t insts = 0, hash[2] = { 0, 0 };
        void *first = malloc(w.bytes[w.out]);
        int reps = 0;
        for (int t = 0; t < (one_thread ? 1 : 2) && !bad; t++) {
            rdx_emu_set_threads(e, (unsigned)t + 1);
            double t0 = now(), c0 = cpu_now();
            int r = 0;
            uint64_t n = 0;
            do {
                if (run_once(e, &w, &n, r ? NULL : &hash[t])) {
                    bad = 1;
                    break;
                }
                r++;
            } while (t == 0 ? (fixed_reps ? r < fixed_reps : now() - t0 < min_secs) : r < reps);
            if (t == 0) {
                reps = r;
                memcpy(first, w.buf[w.out], w.bytes[w.out]);
                verbose = verbose ? 2 : 0; /* the ops printed once */
            } else if (memcmp(first, w.buf[w.out], w.bytes[w.out])) {
                fprintf(stderr, "bench_emu: %s: results differ between 1 and 2 threads\n", w.name);
                bad = 1;
            }
            wall[t] = now() - t0;
            cpu[t] = cpu_now() - c0;
            insts = n;
            rate[t] = (double)n * r / wall[t];
        }
        if (bad)
            break;
        if (one_thread) { /* the t=2 columns repeat t=1 */
            rate[1] = rate[0];
            cpu[1] = cpu[0];
            hash[1] = hash[0];
        }
        if (hash[0] != hash[1]) {
            fprintf(stderr, "bench_emu: %s: counters differ between 1 and 2 threads\n", w.name);
            bad = 1;
        }
        verbose = verbose ? 1 : 0;
        w.check = compare(&w);
        printf("%-9s %11llu %9.2f %9.2f %9.2f %7.2f %7.2f %9.1f %9.1f  %016llx  max rel err %.2g "
               "(%s)\n",
               w.name, (unsigned long long)insts, rate[0] / 1e6, rate[1] / 1e6,
               (double)insts * reps / cpu[0] / 1e6, rate[1] / rate[0], cpu[1] / cpu[0],
               host_rate / 1e6, cpu[0] / reps / host_s, (unsigned long long)hash[0], w.check,
               w.what);
        if (w.check > 1e-3) {
            fprintf(stderr, "bench_emu: %s: result differs from host C\n", w.name);
            bad = 1;
        }
        fflush(stdout);
        free(first);
        free(w.aux);
    }
    printf("M/s: million wave-instructions per wall second (t=1, t=2 host threads) and per "
           "CPU-second of one thread (M/s/core); 2t/1t: wall speed-up; cpu2/1: CPU-seconds "
           "ratio; host M/s: million arithmetic ops per CPU-second of host C doing the same "
           "work; x host: the emulator's CPU time over host C's for the same work\n");
    rdx_emu_destroy(e);
    return bad;
}
