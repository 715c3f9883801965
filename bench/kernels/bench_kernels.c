/*
 * bench/kernels/bench_kernels.c — kernel quality and compile speed: a fixed suite of
 * tensor programs compiled by rdx (schedule, axis types, heuristics, expand, back end)
 * and run on the wave emulator, against hand-written OpenCL C versions
 * (tests/data/bench/<name>.cl) compiled at bench time by clang-19 -O3 and run on the
 * same emulator.  Prints compile time, wave-instructions and estimated cycles of both,
 * and the ratios rdx/clang.  Sizes are scaled down so the whole run stays short; the
 * sizes used are printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <getopt.h>
#include <sys/resource.h>
#include <unistd.h>

#include <rdx/codegen.h>
#include <rdx/codegen_front.h>
#include <rdx/codeobj.h>
#include <rdx/emu.h>
#include <rdx/tensor.h>

#define F32 rdx_dtype_of(RDX_FLOAT32)

/* Matmul size: the suite's full 1024 (-n N changes it, a multiple of 32, for quick runs). */
static int64_t MM_N = 1024;
/* -v: per kernel the opts chosen and the counters per instruction class. */
static int verbose;
static const char *target = "gfx1100"; /* --target: both sides compile and run for it */
/* -b W: BEAM search of width W (timed on the emulator) instead of the heuristics. */
static unsigned beam_width;
/* -t S: BEAM's wall-time limit per kernel search (default 300 s; 0: none); -k K: its budget
   factor (0: none). */
static double beam_time = 300, beam_budget = 3;
/* -s: BEAM from no opts only (not from the heuristics' opts too). */
static int beam_scratch;
/* -o: opts for every kernel instead of the heuristics' (development). */
static rdx_opt user_opts[16];
/* -c R: compile only (no emulator, no clang), R times; prints the first and the mean
   compile time and a hash of every kernel's code object (to check codegen is unchanged). */
static int compile_reps;
static size_t nuser_opts;
static int have_user_opts;

/* -o OPTS: rdx_opts_parse's form (what rdx compile -p optimize prints). */
static int parse_opts(const char *s)
{
    if (rdx_opts_parse(s, user_opts, 16, &nuser_opts)) {
        fprintf(stderr, "bench_kernels: -o: %s\n", rdx_error_message());
        return -1;
    }
    have_user_opts = 1;
    return 0;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* rdx compiles in this thread: its CPU time, which other load on the machine does not
   inflate (clang runs as a child process and is timed by the wall clock). */
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Cross-check of the two sides: inputs get the same pseudo-random values (clang buffer b
   holds input tensor ins[b], NULL for outputs), then the outputs are compared. */
static struct check {
    const rdx_tensor *ins[4];
    int cl_out;         /* clang buffer of the final output */
    float *rdx, *clang; /* outputs as floats (malloc'd) */
    size_t nrdx, nclang;
} chk;

static void fill(void *p, size_t bytes, rdx_dtype dt, unsigned seed)
{
    int half = rdx_dtype_itemsize(dt) == 2;
    size_t n = bytes / (half ? 2 : 4);
    uint32_t h = 2166136261u ^ seed * 16777619u;
    for (size_t i = 0; i < n; i++) {
        h = h * 1664525u + 1013904223u;
        float v = (float)((h >> 8) % 2001u) / 1000.0f - 1.0f;
        if (half)
            ((_Float16 *)p)[i] = (_Float16)v;
        else
            ((float *)p)[i] = v;
    }
}

static float *to_floats(const void *p, size_t bytes, rdx_dtype dt, size_t *n)
{
    int half = rdx_dtype_itemsize(dt) == 2;
    *n = bytes / (half ? 2 : 4);
    float *o = malloc(*n * sizeof *o + 1);
    for (size_t i = 0; o && i < *n; i++)
        o[i] = half ? (float)((const _Float16 *)p)[i] : ((const float *)p)[i];
    return o;
}

typedef struct figures {
    double compile_s;
    unsigned long long wave_insts, cycles;
    unsigned long long kcycles; /* est_kernel_cycles summed over the kernels (docs/emu.md) */
    unsigned long long wmma;    /* v_wmma wave-instructions */
    size_t nkernels;
    unsigned long long by_class[RDX_EMU_CLASS_COUNT], waves;
    double beam_s; /* BEAM search (-b), not part of compile_s */
} figures;

static void print_classes(const char *side, const figures *f)
{
    if (!verbose)
        return;
    unsigned long long issue = 0;
    static const unsigned cost[RDX_EMU_CLASS_COUNT] = { 1, 1, 4, 4, 1, 2, 2, 32, 1 };
    printf("  %-5s waves %llu:", side, f->waves);
    for (int c = 0; c < RDX_EMU_CLASS_COUNT; c++) {
        printf(" %s %llu", rdx_emu_class_name((rdx_emu_class)c), f->by_class[c]);
        issue += cost[c] * f->by_class[c];
    }
    printf(" | issue cycles ~%llu, stalls ~%llu\n", issue,
           f->cycles > issue ? f->cycles - issue : 0);
}

/* Run kernel `kernel` of code object co once on a fresh emulated `target` (the emulator's
   rdx_emu_run_kernel: code, kernarg of kasize bytes and buffers[0..nbufs) of bytes[]
   registered for the dispatch).  Adds the counters to *f.  cycle_limit (0: none): the
   emulator's cycle limit (BEAM's budget; a run past it returns RDX_ERR_TIMEOUT quietly). */
static rdx_status run_dispatch(const rdx_codeobj *co, const char *kernel, const uint32_t grid[3],
                               const uint32_t wg[3], const void *kernarg, uint32_t kasize,
                               void *const *bufs, const size_t *bytes, size_t nbufs,
                               uint64_t cycle_limit, figures *f)
{
    rdx_emu *emu = NULL;
    rdx_emu_buffer eb[64];
    if (nbufs > 64)
        return RDX_ERR_INVALID;
    for (size_t b = 0; b < nbufs; b++)
        eb[b] = (rdx_emu_buffer){ bufs[b], bytes[b], RDX_EMU_RW };
    rdx_emu_launch l;
    memset(&l, 0, sizeof l);
    memcpy(l.grid, grid, sizeof l.grid);
    memcpy(l.wg, wg, sizeof l.wg);
    l.kernarg = kernarg;
    l.kernarg_size = kasize;
    l.bufs = eb;
    l.nbufs = nbufs;
    l.budget = 2000000000ull;
    l.cycle_limit = cycle_limit;
    rdx_status st = rdx_emu_create(target, &emu);
    if (!st)
        st = rdx_emu_run_kernel(emu, co, kernel, &l);
    if (!st) {
        const rdx_emu_counters *c = rdx_emu_get_counters(emu);
        f->wave_insts += c->wave_insts;
        f->cycles += c->cycles;
        f->kcycles += c->est_kernel_cycles;
        if (verbose) /* the kernel estimate's figures (docs/emu.md "Kernel time estimate") */
            printf(
                "  dispatch %ux%ux%u/%ux%ux%u: %llu waves, longest %llu cyc; kcyc %llu "
                "(%s bound; busiest SIMD issue %llu, DRAM %llu B, %u waves/SIMD, %u groups/WGP)\n",
                grid[0], grid[1], grid[2], wg[0], wg[1], wg[2], (unsigned long long)c->waves,
                (unsigned long long)c->max_wave_cycles, (unsigned long long)c->est_kernel_cycles,
                rdx_emu_bound_name(c->est_bound), (unsigned long long)c->est_issue_cycles,
                (unsigned long long)c->est_dram_bytes, c->est_waves_per_simd,
                c->est_groups_per_wgp);
        f->wmma += c->by_class[RDX_EMU_CLASS_WMMA];
        f->waves += c->waves;
        for (int k = 0; k < RDX_EMU_CLASS_COUNT; k++)
            f->by_class[k] += c->by_class[k];
    } else if (!(cycle_limit && st == RDX_ERR_TIMEOUT)) {
        fprintf(stderr, "bench_kernels: dispatch failed: %s\n", rdx_error_message());
    }
    rdx_emu_destroy(emu);
    return st;
}

/* Run compiled kernel ck of schedule kernel kn on the buffers mem[] (bytes[]) of the
   schedule; adds the counters to *f (cycle_limit: run_dispatch's). */
static rdx_status run_kernel(const rdx_codegen_kernel *ck, const rdx_sched_kernel *kn,
                             void *const *mem, const size_t *bytes, uint64_t cycle_limit,
                             figures *f)
{
    rdx_codeobj *cob = NULL;
    uint8_t *kernarg = NULL;
    uint32_t grid[3], wg[3];
    rdx_status rc = RDX_OK;
    rdx_status st = rdx_codeobj_read(ck->code_object, ck->code_object_size, kn->name, &cob);
    if (!st)
        st = rdx_codegen_launch(ck, NULL, 0, grid, wg);
    if (st) {
        fprintf(stderr, "bench_kernels: kernel %s: %s\n", kn->name, rdx_error_message());
        rc = st;
    }
    void *kb[64];
    size_t kbytes[64];
    uint64_t ptrs[64] = { 0 };
    if (!rc && kn->nparams > 64)
        rc = RDX_ERR_INVALID;
    for (uint32_t p = 0; !rc && p < kn->nparams; p++) {
        kb[p] = mem[kn->params[p]];
        kbytes[p] = bytes[kn->params[p]];
        ptrs[p] = (uint64_t)(uintptr_t)kb[p];
    }
    if (!rc && !(kernarg = aligned_alloc(64, 256 + ((ck->kernarg_size + 63) & ~63u))))
        rc = RDX_ERR_NOMEM;
    if (!rc) {
        uint64_t values[64] = { 0 };
        rdx_codegen_pack_args(ck, ptrs, values, NULL, kernarg);
        rc = run_dispatch(cob, kn->name, grid, wg, kernarg, ck->kernarg_size, kb, kbytes,
                          kn->nparams, cycle_limit, f);
    }
    free(kernarg);
    rdx_codeobj_free(cob);
    return rc;
}

/* BEAM's timer: a candidate kernel compiled and run on the schedule's buffers; its cost is
   the emulator's kernel time estimate (est_kernel_cycles), as realize's BEAM timer. */
typedef struct beam_env {
    rdx_ir_ctx *ctx;
    const rdx_sched_kernel *kn;
    void *const *mem;
    const size_t *bytes;
} beam_env;

static rdx_status beam_timer(const rdx_uop *kernel, void *user, double limit, double *cost)
{
    const beam_env *e = user;
    rdx_codegen_kernel *ck = NULL;
    rdx_codegen_options co;
    memset(&co, 0, sizeof co);
    co.name = e->kn->name;
    co.target = target;
    rdx_status st = rdx_codegen_compile(e->ctx, kernel, &co, &ck);
    if (st)
        return st;
    figures f;
    memset(&f, 0, sizeof f);
    /* the budget: the emulator's cycle limit (the kernel estimate's lower bounds) */
    st = run_kernel(ck, e->kn, e->mem, e->bytes, limit > 0 ? (uint64_t)limit + 1 : 0, &f);
    rdx_codegen_kernel_free(ck);
    if (st)
        return st; /* the candidate is skipped (over budget, or run_kernel printed why) */
    *cost = (double)(f.kcycles ? f.kcycles : f.cycles);
    return RDX_OK;
}

/* ---------------------------------------------------------------------- rdx */

/* The opts -o gave, else the heuristics'. */
static rdx_status pick_opts(const rdx_uop *typed, rdx_opt *o, size_t *no)
{
    if (!have_user_opts)
        return rdx_cg_heuristic(typed, o, 16, no);
    memcpy(o, user_opts, sizeof user_opts);
    *no = nuser_opts;
    return RDX_OK;
}

/* Kernel kn (axis-typed: typed) with opts o[0..no) through expand and the back end. */
static rdx_status compile_with(rdx_ir_ctx *ctx, const rdx_sched_kernel *kn, const rdx_uop *typed,
                               const rdx_opt *o, size_t no, rdx_codegen_kernel **ck)
{
    const rdx_uop *opt = NULL, *exp = NULL;
    rdx_codegen_options co;
    memset(&co, 0, sizeof co);
    co.name = kn->name;
    co.target = target;
    rdx_status st = rdx_cg_apply_opts(ctx, typed, o, no, &opt);
    if (!st)
        st = rdx_cg_expand(ctx, opt, &exp);
    if (!st)
        st = rdx_codegen_compile(ctx, exp, &co, ck);
    return st;
}

/* Compile every kernel of the schedule of `root` (timed) and run them in order. */
static int rdx_side(rdx_graph *g, const rdx_tensor *root, figures *f)
{
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    memset(f, 0, sizeof *f);
    if (rdx_graph_status(g)) {
        fprintf(stderr, "bench_kernels: graph: %s\n", rdx_graph_error(g));
        return -1;
    }
    double t0 = cpu_now();
    rdx_schedule *s = NULL;
    const rdx_uop *roots[1] = { root };
    if (rdx_cg_schedule(ctx, roots, 1, &s)) {
        fprintf(stderr, "bench_kernels: schedule: %s\n", rdx_error_message());
        return -1;
    }
    f->compile_s += cpu_now() - t0;
    void **mem = calloc(s->nbuffers + 1, sizeof *mem);
    size_t *bytes = calloc(s->nbuffers + 1, sizeof *bytes);
    int rc = mem && bytes ? 0 : -1;
    for (size_t b = 0; b < s->nbuffers && !rc; b++) {
        int64_t n = 0;
        if (!rdx_uop_const_int(s->buffers[b].numel, &n)) {
            rc = -1;
            break;
        }
        bytes[b] = (size_t)n * rdx_dtype_itemsize(s->buffers[b].dtype);
        mem[b] = calloc(1, bytes[b] + 64);
        if (!mem[b])
            rc = -1;
        for (unsigned j = 0; !rc && j < 4; j++)
            if (chk.ins[j] && chk.ins[j] == s->buffers[b].tensor)
                fill(mem[b], bytes[b], s->buffers[b].dtype, j);
    }
    f->nkernels = s->nkernels;
    for (size_t k = 0; k < s->nkernels && !rc; k++) {
        const rdx_sched_kernel *kn = &s->kernels[k];
        t0 = cpu_now();
        const rdx_uop *typed = NULL;
        rdx_opt o[16];
        size_t no = 0;
        rdx_codegen_kernel *ck = NULL;
        rdx_status st = rdx_cg_axis_types(ctx, kn->sink, &typed);
        if (!st && beam_width && !have_user_opts) {
            /* the search is not compile time: timed apart (wall: the emulator runs the
               candidates on its own threads) */
            double b0 = cpu_now(), w0 = now();
            beam_env env = { ctx, kn, mem, bytes };
            rdx_beam_opts bo = { .width = beam_width,
                                 .progress = verbose ? stdout : stderr,
                                 .device = target,
                                 .budget = beam_budget,
                                 .no_budget = beam_budget == 0,
                                 .time_limit = beam_time,
                                 .from_scratch = beam_scratch };
            st = rdx_cg_beam(ctx, typed, beam_timer, &env, &bo, o, 16, &no, NULL);
            double b1 = cpu_now();
            f->beam_s += now() - w0;
            t0 += b1 - b0;
        } else if (!st)
            st = pick_opts(typed, o, &no);
        if (!st && verbose) {
            char ot[16 * 96];
            rdx_opts_format(o, no, ot, sizeof ot);
            printf("  rdx kernel %zu %s opts: %s\n", k, kn->name, ot);
        }
        if (!st)
            st = compile_with(ctx, kn, typed, o, no, &ck);
        f->compile_s += cpu_now() - t0;
        if (st) {
            fprintf(stderr, "bench_kernels: kernel %zu (%s): %s\n", k, kn->name,
                    rdx_error_message());
            rc = -1;
        }
        if (!rc)
            rc = run_kernel(ck, kn, mem, bytes, 0, f) ? -1 : 0;
        rdx_codegen_kernel_free(ck);
    }
    if (!rc) {
        const rdx_sched_buffer *ob = &s->buffers[s->outputs[0]];
        chk.rdx = to_floats(mem[s->outputs[0]], bytes[s->outputs[0]], ob->dtype, &chk.nrdx);
    }
    for (size_t b = 0; mem && b < s->nbuffers; b++)
        free(mem[b]);
    free(mem);
    free(bytes);
    rdx_schedule_free(s);
    return rc;
}

/* -------------------------------------------------------------------- clang */

typedef struct cl_dispatch {
    uint32_t grid[3], wg[3];
    int nbufs;
    int buf[4]; /* indices into the case's buffers, in argument order */
    int nints;
    int32_t ints[4];
} cl_dispatch;

/* Compile tests/data/bench/<name>.cl (timed) and run its kernel <name> for each dispatch. */
static int clang_side(const char *name, size_t nbufs, const size_t *bytes, rdx_dtype dt,
                      const cl_dispatch *ds, size_t nds, figures *f)
{
    memset(f, 0, sizeof *f);
    char dir[] = "/tmp/rdx_bench_kernels_XXXXXX";
    if (!mkdtemp(dir))
        return -1;
    char obj[128], cmd[1024];
    snprintf(obj, sizeof obj, "%s/k.co", dir);
    const char *clang =
        access("/usr/lib/llvm-19/bin/clang", X_OK) == 0 ? "/usr/lib/llvm-19/bin/clang" : "clang-19";
    snprintf(cmd, sizeof cmd,
             "%s -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=%s -nogpulib -O3 "
             "-o %s tests/data/bench/%s.cl",
             clang, target, obj, name);
    double t0 = now();
    int rc = system(cmd);
    f->compile_s = now() - t0;
    rdx_codeobj *co = NULL;
    if (rc == 0 && rdx_codeobj_read_file(obj, &co) != RDX_OK)
        rc = -1;
    remove(obj);
    rmdir(dir);
    if (rc) {
        fprintf(stderr, "bench_kernels: cannot build tests/data/bench/%s.cl\n", name);
        return -1;
    }
    size_t ki;
    for (ki = 0; ki < co->num_kernels && strcmp(co->kernels[ki].name, name); ki++)
        ;
    void **mem = calloc(nbufs, sizeof *mem);
    rc = ki < co->num_kernels && mem ? 0 : -1;
    for (size_t b = 0; b < nbufs && !rc; b++)
        if (!(mem[b] = calloc(1, bytes[b] + 64)))
            rc = -1;
        else if (b < 4 && chk.ins[b])
            fill(mem[b], bytes[b], dt, (unsigned)b);
    f->nkernels = nds;
    for (size_t i = 0; i < nds && !rc; i++) {
        _Alignas(64) uint8_t ka[256];
        uint32_t off = 0;
        void *kb[4];
        size_t kbytes[4];
        memset(ka, 0, sizeof ka);
        for (int b = 0; b < ds[i].nbufs; b++, off += 8) {
            kb[b] = mem[ds[i].buf[b]];
            kbytes[b] = bytes[ds[i].buf[b]];
            uint64_t p = (uint64_t)(uintptr_t)kb[b];
            memcpy(ka + off, &p, 8);
        }
        for (int v = 0; v < ds[i].nints; v++, off += 4)
            memcpy(ka + off, &ds[i].ints[v], 4);
        rc = run_dispatch(co, name, ds[i].grid, ds[i].wg, ka, sizeof ka, kb, kbytes,
                          (size_t)ds[i].nbufs, 0, f)
                 ? -1
                 : 0;
    }
    if (!rc)
        chk.clang = to_floats(mem[chk.cl_out], bytes[chk.cl_out], dt, &chk.nclang);
    for (size_t b = 0; mem && b < nbufs; b++)
        free(mem[b]);
    free(mem);
    rdx_codeobj_free(co);
    return rc;
}

/* --------------------------------------------------------------------- suite */

static void report(const char *what, const char *size, const figures *r, const figures *c,
                   double diff)
{
    printf("%-10s %-14s rdx: %zu kern %8.3f ms %10llu winst %10llu cyc %8llu kcyc | clang: %zu "
           "kern %8.3f ms %10llu winst %10llu cyc %8llu kcyc | rdx/clang: compile %6.3f winst "
           "%5.2f cyc %5.2f kcyc %5.2f | max|rdx-clang| %.2g\n",
           what, size, r->nkernels, 1e3 * r->compile_s, r->wave_insts, r->cycles, r->kcycles,
           c->nkernels, 1e3 * c->compile_s, c->wave_insts, c->cycles, c->kcycles,
           r->compile_s / c->compile_s, (double)r->wave_insts / (double)c->wave_insts,
           (double)r->cycles / (double)c->cycles, (double)r->kcycles / (double)c->kcycles, diff);
    fflush(stdout);
}

/* -c R: each case is built R times, each time in a fresh graph (its own IR context: no node
   or simplification result of an earlier compile is reused), and compiled once; the first
   compile of the process also pays its memory warm-up. */
#define MAX_REPS 1000
static struct {
    double first, total;
    double t[MAX_REPS]; /* each compile's time */
    int reps, failed;
    size_t nk;
    uint64_t hash;
} cstat;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of the compiles after the first (the warm process), or the first alone. */
static double cstat_median(void)
{
    int n = cstat.reps - 1;
    if (n < 1)
        return cstat.first;
    qsort(cstat.t + 1, (size_t)n, sizeof *cstat.t, cmp_double);
    return n % 2 ? cstat.t[1 + n / 2] : (cstat.t[n / 2] + cstat.t[1 + n / 2]) / 2;
}

/* One compile of the schedule of `t` (destroys g) into cstat; the code objects' FNV-1a hash
   from the first. */
static int compile_only(rdx_graph *g, const rdx_tensor *t)
{
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    int rc = rdx_graph_status(g) ? -1 : 0;
    double t0 = cpu_now();
    rdx_schedule *s = NULL;
    const rdx_uop *roots[1] = { t };
    if (!rc)
        rc = rdx_cg_schedule(ctx, roots, 1, &s) ? -1 : 0;
    size_t nk = rc ? 0 : s->nkernels;
    for (size_t k = 0; k < nk && !rc; k++) {
        const rdx_sched_kernel *kn = &s->kernels[k];
        const rdx_uop *typed = NULL;
        rdx_opt o[16];
        size_t no = 0;
        rdx_codegen_kernel *ck = NULL;
        rdx_status st = rdx_cg_axis_types(ctx, kn->sink, &typed);
        if (!st)
            st = pick_opts(typed, o, &no);
        if (!st)
            st = compile_with(ctx, kn, typed, o, no, &ck);
        if (st) {
            fprintf(stderr, "bench_kernels: kernel %zu (%s): %s\n", k, kn->name,
                    rdx_error_message());
            rc = -1;
        }
        for (size_t i = 0; !rc && cstat.reps == 0 && i < ck->code_object_size; i++)
            cstat.hash = (cstat.hash ^ ck->code_object[i]) * 1099511628211ull;
        if (!rc && verbose && cstat.reps == 0) {
            char ot[16 * 96];
            rdx_opts_format(o, no, ot, sizeof ot);
            printf("  kernel %zu %s: %u bytes of code, %u SGPRs, %u VGPRs; opts %s\n", k, kn->name,
                   ck->code_size, ck->num_sgprs, ck->num_vgprs, ot);
        }
        rdx_codegen_kernel_free(ck);
    }
    rdx_schedule_free(s);
    double dt = cpu_now() - t0;
    if (cstat.reps == 0)
        cstat.first = dt;
    cstat.total += dt;
    cstat.t[cstat.reps] = dt;
    cstat.reps++;
    cstat.nk = nk;
    cstat.failed |= rc != 0;
    rdx_graph_destroy(g);
    memset(&chk, 0, sizeof chk);
    return rc;
}

/* Time and run rdx on `t` (destroys g), then clang's <cl>.cl; print one line. */
static int compare(const char *what, const char *size, rdx_graph *g, const rdx_tensor *t,
                   const char *cl, size_t nbufs, const size_t *bytes, rdx_dtype dt,
                   const cl_dispatch *d, size_t nd)
{
    if (compile_reps)
        return compile_only(g, t);
    figures r, c;
    int rc = rdx_side(g, t, &r);
    rdx_graph_destroy(g);
    if (rc)
        printf("%-10s %-14s rdx: FAILED: %s\n", what, size, rdx_error_message());
    int crc = clang_side(cl, nbufs, bytes, dt, d, nd, &c);
    double diff = chk.rdx && chk.clang && chk.nrdx == chk.nclang ? 0.0 : -1.0;
    for (size_t i = 0; diff >= 0 && i < chk.nrdx; i++) {
        double e = (double)chk.rdx[i] - (double)chk.clang[i];
        e = e < 0 ? -e : e;
        if (e > diff || e != e)
            diff = e;
    }
    free(chk.rdx);
    free(chk.clang);
    memset(&chk, 0, sizeof chk);
    if (crc)
        printf("%-10s %-14s clang: FAILED (see stderr)\n", what, size);
    else if (rc)
        printf("%-10s %-14s clang: %zu kern %8.3f ms %10llu winst %10llu cyc %8llu kcyc\n", what,
               size, c.nkernels, 1e3 * c.compile_s, c.wave_insts, c.cycles, c.kcycles);
    else
        report(what, size, &r, &c, diff);
    if (!rc) /* whether rdx's kernels use the tensor cores */
        printf("%-10s %-14s rdx WMMA: %s (%llu v_wmma wave-instructions)\n", what, size,
               r.wmma ? "yes" : "no", r.wmma);
    if (!rc && beam_width)
        printf("  rdx   BEAM search %.1f s\n", r.beam_s);
    if (!rc)
        print_classes("rdx", &r);
    if (!crc)
        print_classes("clang", &c);
    return rc || crc;
}

static int bench_ew(void)
{
    const int64_t n = 1 << 20;
    rdx_graph *g = NULL;
    if (rdx_graph_create(&g, NULL))
        return -1;
    const rdx_tensor *x = rdx_tensor_empty(g, F32, 1, &n), *y = rdx_tensor_empty(g, F32, 1, &n);
    const rdx_tensor *t = rdx_tensor_relu(
        g, rdx_tensor_adds(
               g, rdx_tensor_add(g, rdx_tensor_mul(g, x, y), rdx_tensor_muls(g, x, 0.5)), 1.0));
    size_t bytes[3] = { 4 * (size_t)n, 4 * (size_t)n, 4 * (size_t)n };
    cl_dispatch d = { { (uint32_t)n, 1, 1 }, { 256, 1, 1 }, 3, { 0, 1, 2 }, 1, { (int32_t)n } };
    chk.ins[1] = x;
    chk.ins[2] = y;
    return compare("ew-chain", "n=1048576", g, t, "ew", 3, bytes, F32, &d, 1);
}

static int bench_sum(void)
{
    const int64_t n = 1 << 20;
    rdx_graph *g = NULL;
    if (rdx_graph_create(&g, NULL))
        return -1;
    const rdx_tensor *x = rdx_tensor_empty(g, F32, 1, &n);
    const rdx_tensor *t = rdx_tensor_sum(g, x, 0, NULL, 0);
    chk.ins[0] = x;
    chk.cl_out = 2;
    enum { GROUPS = 256 };
    size_t bytes[3] = { 4 * (size_t)n, 4 * GROUPS, 4 };
    cl_dispatch d[2] = {
        { { GROUPS * 256, 1, 1 }, { 256, 1, 1 }, 2, { 1, 0 }, 2, { (int32_t)n, GROUPS * 256 } },
        { { 256, 1, 1 }, { 256, 1, 1 }, 2, { 2, 1 }, 2, { GROUPS, 256 } },
    };
    return compare("sum", "n=1048576", g, t, "sum", 3, bytes, F32, d, 2);
}

static int bench_matmul(void)
{
    const int64_t n = MM_N, dims[2] = { n, n };
    char size[48];
    snprintf(size, sizeof size, "%lldx%lldx%lld", (long long)n, (long long)n, (long long)n);
    rdx_graph *g = NULL;
    if (rdx_graph_create(&g, NULL))
        return -1;
    const rdx_tensor *t = rdx_tensor_matmul(g, chk.ins[1] = rdx_tensor_empty(g, F32, 2, dims),
                                            chk.ins[2] = rdx_tensor_empty(g, F32, 2, dims));
    size_t bytes[3] = { 4 * (size_t)(n * n), 4 * (size_t)(n * n), 4 * (size_t)(n * n) };
    cl_dispatch d = {
        { (uint32_t)n / 2, (uint32_t)n / 2, 1 }, { 16, 16, 1 }, 3, { 0, 1, 2 }, 1, { (int32_t)n }
    };
    return compare("matmul-f32", size, g, t, "matmul", 3, bytes, F32, &d, 1);
}

static int bench_rows(int layernorm)
{
    const int64_t rows = 1024, cols = 1024, dims[2] = { rows, cols };
    rdx_graph *g = NULL;
    if (rdx_graph_create(&g, NULL))
        return -1;
    const rdx_tensor *x = rdx_tensor_empty(g, F32, 2, dims);
    const rdx_tensor *t =
        layernorm ? rdx_tensor_layernorm(g, x, 1, NULL, NULL, 1e-5) : rdx_tensor_softmax(g, x, -1);
    size_t bytes[2] = { 4 * (size_t)(rows * cols), 4 * (size_t)(rows * cols) };
    chk.ins[1] = x;
    cl_dispatch d = {
        { 256 * (uint32_t)rows, 1, 1 }, { 256, 1, 1 }, 2, { 0, 1 }, 1, { (int32_t)cols }
    };
    return compare(layernorm ? "layernorm" : "softmax", "1024x1024", g, t,
                   layernorm ? "layernorm" : "softmax", 2, bytes, F32, &d, 1);
}

static int bench_matmul_f16(void)
{
    const int64_t n = MM_N, dims[2] = { n, n };
    char size[48];
    snprintf(size, sizeof size, "%lldx%lldx%lld", (long long)n, (long long)n, (long long)n);
    rdx_graph *g = NULL;
    if (rdx_graph_create(&g, NULL))
        return -1;
    rdx_dtype h = rdx_dtype_of(RDX_FLOAT16);
    const rdx_tensor *t = rdx_tensor_matmul(g, chk.ins[1] = rdx_tensor_empty(g, h, 2, dims),
                                            chk.ins[2] = rdx_tensor_empty(g, h, 2, dims));
    size_t bytes[3] = { 2 * (size_t)(n * n), 2 * (size_t)(n * n), 2 * (size_t)(n * n) };
    cl_dispatch d = {
        { (uint32_t)n / 2, (uint32_t)n / 2, 1 }, { 16, 16, 1 }, 3, { 0, 1, 2 }, 1, { (int32_t)n }
    };
    return compare("matmul-f16", size, g, t, "matmul_f16", 3, bytes, h, &d, 1);
}

static int bench_conv2d(void)
{
    const int64_t C = 64, H = 32, W = 32, xd[4] = { 1, C, H, W }, wd[4] = { C, C, 3, 3 };
    rdx_graph *g = NULL;
    if (rdx_graph_create(&g, NULL))
        return -1;
    rdx_conv_opts o = { { 1, 1 }, { 1, 1 }, { 1, 1 }, 1 };
    const rdx_tensor *t = rdx_tensor_conv2d(g, chk.ins[1] = rdx_tensor_empty(g, F32, 4, xd),
                                            chk.ins[2] = rdx_tensor_empty(g, F32, 4, wd), NULL, &o);
    size_t bytes[3] = { 4 * (size_t)(C * H * W), 4 * (size_t)(C * H * W), 4 * (size_t)(C * C * 9) };
    cl_dispatch d = {
        { (uint32_t)W, (uint32_t)H, (uint32_t)C / 4 }, { 16, 16, 1 }, 3, { 0, 1, 2 }, 3,
        { (int32_t)C, (int32_t)H, (int32_t)W }
    };
    return compare("conv2d-3x3", "1x64x32x32,o64", g, t, "conv2d", 3, bytes, F32, &d, 1);
}

static int bench_softmax(void)
{
    return bench_rows(0);
}

static int bench_layernorm(void)
{
    return bench_rows(1);
}

/* Compile-only cases (issue 22's shapes): too large to emulate here, and without an
   OpenCL version; -c times them, a plain run says so. */
static int compile_case(const char *what, rdx_graph *g, const rdx_tensor *t)
{
    if (compile_reps)
        return compile_only(g, t);
    rdx_graph_destroy(g);
    printf("%-10s compile-only case (run with -c R)\n", what);
    return 0;
}

static int bench_sin(void)
{
    const int64_t n = 1 << 20;
    rdx_graph *g = NULL;
    if (rdx_graph_create(&g, NULL))
        return -1;
    return compile_case("sin-1M", g, rdx_tensor_sin(g, rdx_tensor_empty(g, F32, 1, &n)));
}

/* Four sins in one elementwise kernel (sin(x) + sin(2x) + sin(3x) + sin(4x)): how the code
   size and compile time grow with the number of transcendental calls (each is inlined). */
static int bench_sin4(void)
{
    const int64_t n = 1 << 20;
    rdx_graph *g = NULL;
    if (rdx_graph_create(&g, NULL))
        return -1;
    const rdx_tensor *x = rdx_tensor_empty(g, F32, 1, &n), *t = rdx_tensor_sin(g, x);
    for (int k = 2; k <= 4; k++)
        t = rdx_tensor_add(g, t, rdx_tensor_sin(g, rdx_tensor_muls(g, x, (double)k)));
    return compile_case("sin4-1M", g, t);
}

static int bench_conv2d_56(void)
{
    const int64_t xd[4] = { 8, 64, 56, 56 }, wd[4] = { 64, 64, 3, 3 };
    rdx_graph *g = NULL;
    if (rdx_graph_create(&g, NULL))
        return -1;
    rdx_conv_opts o = { { 1, 1 }, { 1, 1 }, { 1, 1 }, 1 };
    return compile_case("conv2d-56", g,
                        rdx_tensor_conv2d(g, rdx_tensor_empty(g, F32, 4, xd),
                                          rdx_tensor_empty(g, F32, 4, wd), NULL, &o));
}

static const struct {
    const char *name;
    int (*fn)(void);
    const char *cl; /* -c's baseline: tests/data/bench/<cl>.cl (NULL: none) */
} suite[] = {
    { "ew-chain", bench_ew, "ew" },
    { "sum", bench_sum, "sum" },
    { "softmax", bench_softmax, "softmax" },
    { "matmul-f32", bench_matmul, "matmul" },
    { "matmul-f16", bench_matmul_f16, "matmul_f16" },
    { "conv2d-3x3", bench_conv2d, "conv2d" },
    { "layernorm", bench_layernorm, "layernorm" },
    { "sin-1M", bench_sin, NULL }, /* no OpenCL version: -nogpulib has no sin */
    { "sin4-1M", bench_sin4, NULL },
    { "conv2d-56", bench_conv2d_56, "conv2d" }, /* the .cl takes the sizes as arguments */
};

/* -c's baseline, measured in the same run: CPU time (user + system, of the children:
   the shell and clang) of clang-19 -O3 compiling tests/data/bench/<cl>.cl for the target,
   the median of 3; < 0 when clang is missing or fails. */
static double clang_compile_cpu(const char *cl)
{
    double t[3];
    char cmd[1024];
    const char *clang =
        access("/usr/lib/llvm-19/bin/clang", X_OK) == 0 ? "/usr/lib/llvm-19/bin/clang" : "clang-19";
    snprintf(cmd, sizeof cmd,
             "%s -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=%s -nogpulib -O3 "
             "-o /dev/null tests/data/bench/%s.cl",
             clang, target, cl);
    for (int r = 0; r < 3; r++) {
        struct rusage a, b;
        getrusage(RUSAGE_CHILDREN, &a);
        if (system(cmd) != 0)
            return -1;
        getrusage(RUSAGE_CHILDREN, &b);
        t[r] = (double)(b.ru_utime.tv_sec - a.ru_utime.tv_sec + b.ru_stime.tv_sec -
                        a.ru_stime.tv_sec) +
               1e-6 * (double)(b.ru_utime.tv_usec - a.ru_utime.tv_usec + b.ru_stime.tv_usec -
                               a.ru_stime.tv_usec);
    }
    qsort(t, 3, sizeof *t, cmp_double);
    return t[1];
}

static int usage(const char *argv0, int rc)
{
    printf("Usage: %s [--target GFX] [-v] [-n N] [-b W [-t S] [-k K] [-s]] [-o OPTS] [-c R] "
           "[NAME...]\n"
           "Runs the kernel suite (or the named kernels:",
           argv0);
    for (size_t i = 0; i < sizeof suite / sizeof *suite; i++)
        printf(" %s", suite[i].name);
    printf(").\n  --target GFX  compile both sides for GFX (rdx --target, clang -mcpu; default\n"
           "      gfx1100) and run them on that target's emulator\n"
           "  -v  print the opts chosen and the counters per instruction class\n"
           "  -n  matmul size N (a multiple of 32; default 1024)\n"
           "  -b  BEAM search of width W (1..16) timed on the emulator (kernel estimate), from\n"
           "      the heuristics' opts and no opts; progress on stderr (stdout with -v)\n"
           "  -t  BEAM: stop each kernel's search after S seconds (wall) with the best so far\n"
           "      (default 300; 0: no limit)\n"
           "  -k  BEAM: stop a candidate's run once it costs more than K x the best so far\n"
           "      (the emulator's cycle limit; default 3, 0: run every candidate to the end)\n"
           "  -s  BEAM from no opts only (without the heuristics' opts as a start)\n"
           "  -o  opts for every kernel instead of the heuristics (development), e.g.\n"
           "      'SPLIT(2,4,r) SPLIT(1,4,u)' (OP(axis,amount,TYPE[,top]) as rdx compile -p\n"
           "      optimize prints them; TYPE a name or a letter g l w L R G u r)\n"
           "  -c  compile only (no emulator, no clang): each case built and compiled R times,\n"
           "      each in a fresh graph (IR context); the process's first compile, the mean,\n"
           "      the median after the first (a warm process: issue 22's goal is < 1 ms), the\n"
           "      mean per kernel and a hash of the code objects (profiling the compiler); with\n"
           "      -v each kernel's code size, registers and opts.  Times are this thread's CPU\n"
           "      time; the median's ratio to the 1 ms goal and to the baseline measured in the\n"
           "      same run: clang-19 -O3's CPU time compiling the case's OpenCL version\n"
           "      (children's CPU time, median of 3)\n");
    return rc;
}

int main(int argc, char **argv)
{
    int fails = 0, opt;
    static const struct option lopts[] = { { "target", required_argument, NULL, 'G' },
                                           { NULL, 0, NULL, 0 } };
    while ((opt = getopt_long(argc, argv, "vn:o:b:c:t:k:sh", lopts, NULL)) != -1) {
        char *end = NULL;
        if (opt == 'G')
            target = optarg; /* rdx_codegen_compile and the emulator check it */
        else if (opt == 'v')
            verbose = 1;
        else if (opt == 'b' && atoi(optarg) >= 1 && atoi(optarg) <= 16)
            beam_width = (unsigned)atoi(optarg);
        else if (opt == 't' && (beam_time = strtod(optarg, &end)) >= 0 && end != optarg && !*end)
            ;
        else if (opt == 'k' && (beam_budget = strtod(optarg, &end)) >= 0 && end != optarg &&
                 !*end && (beam_budget == 0 || beam_budget >= 1))
            ;
        else if (opt == 's')
            beam_scratch = 1;
        else if (opt == 'o' && !parse_opts(optarg))
            ;
        else if (opt == 'c' && atoi(optarg) >= 1 && atoi(optarg) <= MAX_REPS)
            compile_reps = atoi(optarg);
        else if (opt == 'n' && atoi(optarg) >= 32 && atoi(optarg) % 32 == 0)
            MM_N = atoi(optarg);
        else
            return usage(argv[0], opt == 'h' ? 0 : 2);
    }
    printf("bench_kernels: rdx (%s) vs hand-written OpenCL (clang-19 -O3), "
           "%s emulator; winst = wave-instructions, cyc = estimated cycles (sum over waves), "
           "kcyc = kernel time estimate (est_kernel_cycles: occupancy, latency hiding, "
           "bandwidth); compile: rdx "
           "thread CPU time (schedule + every kernel), clang wall time\n",
           beam_width ? "BEAM on the emulator" : "heuristics, no BEAM", target);
    for (size_t i = 0; i < sizeof suite / sizeof *suite; i++) {
        int pick = optind == argc;
        for (int a = optind; a < argc; a++)
            pick |= !strcmp(argv[a], suite[i].name);
        if (pick && compile_reps) {
            memset(&cstat, 0, sizeof cstat);
            cstat.hash = 1469598103934665603ull;
            for (int r = 0; r < compile_reps && !cstat.failed; r++)
                suite[i].fn();
            if (cstat.failed) {
                printf("%-10s compile FAILED: %s\n", suite[i].name, rdx_error_message());
            } else {
                double med = cstat_median();
                double base = suite[i].cl ? clang_compile_cpu(suite[i].cl) : -1;
                char bs[96] = "no clang baseline";
                if (base > 0)
                    snprintf(bs, sizeof bs, "clang -O3 %7.2f ms CPU, rdx/clang %.4f", 1e3 * base,
                             med / base);
                else if (suite[i].cl)
                    snprintf(bs, sizeof bs, "clang failed");
                printf("%-10s %zu kern  compile first %8.3f ms  mean of %d fresh %8.3f ms  "
                       "warm median %8.3f ms = %.2fx the 1 ms goal (%s)  per kernel %6.3f ms  "
                       "code %016llx | %s\n",
                       suite[i].name, cstat.nk, 1e3 * cstat.first, cstat.reps,
                       1e3 * cstat.total / cstat.reps, 1e3 * med, med / 1e-3,
                       med < 1e-3 ? "met" : "MISSED",
                       1e3 * cstat.total / cstat.reps / (double)(cstat.nk ? cstat.nk : 1),
                       (unsigned long long)cstat.hash, bs);
            }
            fails += cstat.failed;
        } else if (pick)
            fails += suite[i].fn() != 0;
    }
    if (fails)
        printf("bench_kernels: %d benchmark(s) failed (see stderr)\n", fails);
    return fails ? 1 : 0;
}
