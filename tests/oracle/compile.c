/*
 * tests/oracle/compile.c — compiling the corpus for the oracle's target (gfx1100 unless
 * rdx_oracle_options.target names another) with clang-19 at
 * every level, and checking each code object: ELF header, AMDHSA metadata against
 * the manifest (arguments, ABI offsets, wavefront size).
 *
 * The compiles are batched: one `clang -c` per (level, flag set, CPU share) with
 * many .cl files, then one ld.lld per code object (the link the clang driver does
 * for amdhsa: ld.lld --no-undefined -shared).  A kernel whose batch compile or link
 * failed is compiled again alone through the full driver, so its diagnostics are
 * its own.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/oracle/oracle_int.h"

#define EM_AMDGPU 224
#define NARGV     24

/* The clang flags of every corpus compile (scripts/emu-kernel --print-flags must
 * print the same; a test compares). */
const char *const rdx_oracle_clang_flags[] = { "-x",
                                               "cl",
                                               "-cl-std=CL2.0",
                                               "-target",
                                               "amdgcn-amd-amdhsa",
                                               "-mcpu=gfx1100",
                                               "-nogpulib",
                                               "-ffp-contract=off",
                                               "-Wall",
                                               "-Wextra",
                                               "-Werror",
                                               NULL };

/* clang, its flags, the per-kernel flags, the level, -I; returns argc. */
static int clang_flags(const rdx_oracle *o, unsigned flags, int opt, const char **av,
                       rdx_oracle_strs *pool)
{
    int n = 0;
    av[n++] = o->clang;
    for (int f = 0; rdx_oracle_clang_flags[f]; f++)
        av[n++] = strncmp(rdx_oracle_clang_flags[f], "-mcpu=", 6)
                      ? rdx_oracle_clang_flags[f]
                      : rdx_oracle_keep(pool, rdx_oracle_dupf("-mcpu=%s", o->target));
    if (flags & RDX_ORACLE_F_WAVE64)
        av[n++] = "-mwavefrontsize64";
    if (flags & RDX_ORACLE_F_CRDIV)
        av[n++] = "-cl-fp32-correctly-rounded-divide-sqrt";
    if (flags & RDX_ORACLE_F_UNSAFE_FP_ATOMICS)
        av[n++] = "-munsafe-fp-atomics";
    av[n++] = rdx_oracle_opts[opt];
    av[n++] = rdx_oracle_keep(pool, rdx_oracle_dupf("-I%s", o->data_dir));
    return n;
}

/* "kernels/x.cl" -> "x" (malloc'd). */
static char *stem(const char *file)
{
    const char *b = strrchr(file, '/');
    b = b ? b + 1 : file;
    size_t n = strlen(b);
    if (n > 3 && strcmp(b + n - 3, ".cl") == 0)
        n -= 3;
    return strndup(b, n);
}

static const char *check_elf(const rdx_oracle *o, const uint8_t *p, size_t n)
{
    if (n < 64 || memcmp(p, "\177ELF", 4) != 0 || p[4] != 2 || p[5] != 1)
        return "not a 64-bit little-endian ELF file";
    uint16_t type, machine;
    uint32_t flags;
    memcpy(&type, p + 16, 2);
    memcpy(&machine, p + 18, 2);
    memcpy(&flags, p + 48, 4);
    if (type != 3 /* ET_DYN */)
        return "not a shared object (ET_DYN)";
    if (machine != EM_AMDGPU)
        return "e_machine is not EM_AMDGPU";
    if ((flags & 0xffu) != o->elf_mach)
        return "e_flags does not name the target";
    return NULL;
}

/* Whether entries i and j are compiled the same way (same file, same flags). */
static int same_compile(const rdx_oracle *o, int i, int j)
{
    return o->ks[i].k->flags == o->ks[j].k->flags && !strcmp(o->ks[i].k->file, o->ks[j].k->file);
}

/*
 * The batch compiles of level opt for the entries whose flags equal entry first's
 * (the first entry with those flags): the distinct files split over o->jobs
 * `clang -c` runs in one directory.  Sets obj[] of those entries; appends to jobs.
 */
static void batch_jobs(rdx_oracle *o, int opt, int first, char **obj, rdx_oracle_job *jobs, int *nj,
                       const char **argv, size_t stride, rdx_oracle_strs *pool)
{
    unsigned fl = o->ks[first].k->flags;
    int nfiles = 0;
    for (int j = first; j < o->nk; j++) {
        int dup = o->ks[j].k->flags != fl;
        for (int m = first; m < j && !dup; m++)
            dup = same_compile(o, m, j);
        nfiles += !dup;
    }
    int chunks = nfiles < o->jobs ? nfiles : o->jobs;
    int per = (nfiles + chunks - 1) / chunks;
    /* one directory per batch: clang -c writes <stem>.o into the cwd */
    char *dir = rdx_oracle_keep(pool, rdx_oracle_dupf("%s/c%d_%u", o->dir, opt, fl));
    if (!dir || mkdir(dir, 0755) != 0) {
        pool->failed = 1;
        return;
    }
    int in_chunk = 0, c = 0, ac = 0;
    const char **av = NULL;
    for (int j = first; j < o->nk; j++) {
        if (o->ks[j].k->flags != fl)
            continue;
        char *st = stem(o->ks[j].k->file);
        obj[j * RDX_ORACLE_NOPT + opt] =
            rdx_oracle_keep(pool, rdx_oracle_dupf("%s/%s.o", dir, st ? st : "?"));
        free(st);
        int dup = 0;
        for (int m = first; m < j && !dup; m++)
            dup = same_compile(o, m, j);
        if (dup)
            continue;
        if (in_chunk == 0) {
            av = argv + (size_t)*nj * stride;
            ac = clang_flags(o, fl, opt, av, pool);
            av[ac++] = "-c";
            jobs[(*nj)++] = (rdx_oracle_job){
                .argv = av,
                .cwd = dir,
                .out_path = rdx_oracle_keep(pool, rdx_oracle_dupf("%s/batch%d.log", dir, c++)),
            };
        }
        av[ac++] =
            rdx_oracle_keep(pool, rdx_oracle_dupf("%s/kernels/%s", o->data_dir, o->ks[j].k->file));
        av[ac] = NULL;
        if (++in_chunk == per)
            in_chunk = 0;
    }
}

void rdx_oracle_compile_all(rdx_oracle *o, rdx_oracle_job *extra, int nextra)
{
    rdx_oracle_strs pool = { 0 };
    int nk = o->nk;
    /* the object file of each (entry, level); NULL when not batch-compiled */
    char **obj = calloc((size_t)nk * RDX_ORACLE_NOPT, sizeof *obj);
    int maxjobs = RDX_ORACLE_NOPT * nk + nextra + 1;
    rdx_oracle_job *jobs = calloc((size_t)maxjobs, sizeof *jobs);
    size_t stride = NARGV + (size_t)nk; /* argv slots per job */
    const char **argv = calloc((size_t)maxjobs * stride, sizeof *argv);
    if (!obj || !jobs || !argv)
        pool.failed = 1;
    int nj = 0;

    for (int i = 0; i < nk && !pool.failed; i++)
        for (int opt = 0; opt < RDX_ORACLE_NOPT; opt++)
            if (rdx_oracle_level_on(o, opt))
                o->ks[i].co_path[opt] =
                    rdx_oracle_dupf("%s/%s%s.co", o->dir, o->ks[i].k->id, rdx_oracle_opts[opt]);

    /* 1. batches per level and flag set, with the extra jobs in the same round */
    for (int opt = 0; opt < RDX_ORACLE_NOPT && !pool.failed; opt++)
        for (int i = 0; i < nk && !pool.failed && rdx_oracle_level_on(o, opt); i++) {
            int first = 1;
            for (int j = 0; j < i && first; j++)
                first = o->ks[j].k->flags != o->ks[i].k->flags;
            if (first)
                batch_jobs(o, opt, i, obj, jobs, &nj, argv, stride, &pool);
        }
    if (pool.failed)
        nj = 0;
    for (int e = 0; e < nextra; e++)
        jobs[nj + e] = extra[e];
    rdx_oracle_run_jobs(jobs, nj + nextra, o->jobs);
    for (int e = 0; e < nextra; e++)
        extra[e].status = jobs[nj + e].status;

    /* 2. links */
    nj = 0;
    int *link_of = calloc((size_t)nk * RDX_ORACLE_NOPT, sizeof *link_of);
    for (int i = 0; i < nk && link_of && !pool.failed; i++)
        for (int opt = 0; opt < RDX_ORACLE_NOPT; opt++) {
            const char *ob = obj[i * RDX_ORACLE_NOPT + opt];
            link_of[i * RDX_ORACLE_NOPT + opt] = -1;
            struct stat st;
            if (!ob || stat(ob, &st) != 0 || !o->ks[i].co_path[opt])
                continue;
            const char **av = argv + (size_t)nj * stride;
            int ac = 0;
            av[ac++] = o->lld;
            av[ac++] = "--no-undefined";
            av[ac++] = "-shared";
            av[ac++] = "-o";
            av[ac++] = o->ks[i].co_path[opt];
            av[ac++] = ob;
            av[ac] = NULL;
            link_of[i * RDX_ORACLE_NOPT + opt] = nj;
            jobs[nj++] = (rdx_oracle_job){ .argv = av };
        }
    rdx_oracle_run_jobs(jobs, nj, o->jobs);

    /* 3. any failure again alone through the driver, for its own diagnostics */
    int nf = 0;
    int *single = calloc((size_t)nk * RDX_ORACLE_NOPT, sizeof *single);
    rdx_oracle_job *fj = calloc((size_t)nk * RDX_ORACLE_NOPT + 1, sizeof *fj);
    for (int i = 0; i < nk && single && fj && link_of; i++)
        for (int opt = 0; opt < RDX_ORACLE_NOPT; opt++) {
            int l = link_of[i * RDX_ORACLE_NOPT + opt];
            single[i * RDX_ORACLE_NOPT + opt] = -1;
            if (l >= 0 && jobs[l].status == 0)
                continue;
            if (!o->ks[i].co_path[opt])
                continue;
            const char **sv = calloc(NARGV, sizeof *sv); /* freed with the pool */
            if (!sv || !rdx_oracle_keep(&pool, (char *)sv))
                continue;
            int ac = clang_flags(o, o->ks[i].k->flags, opt, sv, &pool);
            sv[ac++] = "-o";
            sv[ac++] = o->ks[i].co_path[opt];
            sv[ac++] = rdx_oracle_keep(
                &pool, rdx_oracle_dupf("%s/kernels/%s", o->data_dir, o->ks[i].k->file));
            sv[ac] = NULL;
            single[i * RDX_ORACLE_NOPT + opt] = nf;
            fj[nf++] = (rdx_oracle_job){
                .argv = sv,
                .out_path =
                    rdx_oracle_keep(&pool, rdx_oracle_dupf("%s/%s%s.log", o->dir, o->ks[i].k->id,
                                                           rdx_oracle_opts[opt])),
            };
        }
    rdx_oracle_run_jobs(fj, nf, o->jobs);

    /* 4. results */
    for (int i = 0; i < nk; i++) {
        rdx_oracle_prepared *p = &o->ks[i];
        for (int opt = 0; opt < RDX_ORACLE_NOPT; opt++) {
            int s = single && link_of ? single[i * RDX_ORACLE_NOPT + opt] : -1;
            if (!rdx_oracle_level_on(o, opt)) {
                p->co_err[opt] =
                    rdx_oracle_dupf("%s%s: level not selected", p->k->id, rdx_oracle_opts[opt]);
                continue;
            }
            if (!p->co_path[opt] || !single || !link_of) {
                p->co_err[opt] =
                    rdx_oracle_dupf("%s%s: out of memory", p->k->id, rdx_oracle_opts[opt]);
                continue;
            }
            if (s >= 0 && fj[s].status != 0) {
                char *msg = fj[s].out_path ? rdx_oracle_head(fj[s].out_path, 3000) : NULL;
                p->co_err[opt] = rdx_oracle_dupf("clang %s of %s (%s) failed with status %d:\n%s",
                                                 rdx_oracle_opts[opt], p->k->id, p->k->file,
                                                 fj[s].status, msg ? msg : "");
                free(msg);
                continue;
            }
            p->code[opt] = (uint8_t *)rdx_oracle_slurp(p->co_path[opt], &p->code_size[opt]);
            const char *why = p->code[opt] ? check_elf(o, p->code[opt], p->code_size[opt])
                                           : "code object missing";
            if (why)
                p->co_err[opt] = rdx_oracle_dupf("%s%s: %s", p->k->id, rdx_oracle_opts[opt], why);
        }
    }
    free(single);
    free(fj);
    free(link_of);
    free(obj);
    free(jobs);
    free(argv);
    rdx_oracle_strs_free(&pool);
}

/* ---- metadata ----------------------------------------------------------------- */

/* The "File: <path>" section of multi-file readelf output (points into text). */
static const char *file_section(const char *text, const char *path, size_t *len)
{
    char key[600];
    snprintf(key, sizeof key, "File: %s\n", path);
    const char *s = strstr(text, key);
    if (!s)
        return NULL;
    const char *e = strstr(s + strlen(key), "\nFile: ");
    *len = e ? (size_t)(e - s) : strlen(s);
    return s;
}

/* Explicit arguments of the metadata must match the manifest's, one for one. */
static char *check_args(const rdx_oracle_kernel *k, const rdx_oracle_md *md)
{
    uint32_t off[RDX_ORACLE_MAX_ARGS];
    rdx_oracle_explicit_layout(k, off);
    int a = 0;
    for (int m = 0; m < md->nargs; m++) {
        const rdx_oracle_md_arg *ma = &md->args[m];
        if (strncmp(ma->value_kind, "hidden_", 7) == 0)
            continue;
        if (a >= k->nargs)
            return rdx_oracle_dupf("kernel %s has more arguments than the manifest's %d", k->kernel,
                                   k->nargs);
        const rdx_oracle_arg *ka = &k->args[a];
        int is_buf = strcmp(ma->value_kind, "global_buffer") == 0;
        if (is_buf != (ka->kind == RDX_ORACLE_ARG_BUFFER))
            return rdx_oracle_dupf("argument %d of %s: metadata says %s, manifest says %s", a,
                                   k->kernel, ma->value_kind, is_buf ? "a scalar" : "a buffer");
        /* the type name's element type: "float*" / "half2*" -> float / half */
        const char *cn = rdx_oracle_type_cname(ka->type);
        if (strncmp(ma->type_name, cn, strlen(cn)) != 0)
            return rdx_oracle_dupf("argument %d of %s: type '%s' in the kernel, %s in the manifest",
                                   a, k->kernel, ma->type_name, rdx_oracle_type_name(ka->type));
        if (ma->offset != off[a] || ma->size != (is_buf ? 8u : rdx_oracle_type_size(ka->type)))
            return rdx_oracle_dupf("argument %d of %s: metadata offset %u size %u, ABI layout "
                                   "offset %u",
                                   a, k->kernel, ma->offset, ma->size, off[a]);
        a++;
    }
    if (a != k->nargs)
        return rdx_oracle_dupf("kernel %s has %d arguments, the manifest %d", k->kernel, a,
                               k->nargs);
    return NULL;
}

char *rdx_oracle_tool_on_code_objects(const rdx_oracle *o, const char *const *head,
                                      const char *out_name, int *status)
{
    int nhead = 0;
    while (head[nhead])
        nhead++;
    const char **av = calloc((size_t)(nhead + rdx_oracle_code_object_count(o) + 1), sizeof *av);
    char *out = rdx_oracle_dupf("%s/%s", o->dir, out_name);
    char *text = NULL;
    *status = -1;
    if (av && out) {
        int n = 0;
        for (; n < nhead; n++)
            av[n] = head[n];
        for (int i = 0; i < o->nk; i++)
            for (int opt = 0; opt < RDX_ORACLE_NOPT; opt++)
                if (!o->ks[i].co_err[opt])
                    av[n++] = o->ks[i].co_path[opt];
        av[n] = NULL;
        rdx_oracle_job job = { .argv = av, .out_path = out };
        rdx_oracle_run_jobs(&job, 1, 1);
        *status = job.status;
        text = job.status == 0 ? rdx_oracle_slurp(out, NULL) : NULL;
    }
    free(av);
    free(out);
    return text;
}

void rdx_oracle_read_metadata(rdx_oracle *o)
{
    int nco = rdx_oracle_code_object_count(o), status;
    if (nco == 0)
        return;
    const char *const head[] = { o->readelf, "--notes", NULL };
    char *text = rdx_oracle_tool_on_code_objects(o, head, "notes.txt", &status);
    for (int i = 0; i < o->nk; i++) {
        rdx_oracle_prepared *p = &o->ks[i];
        for (int opt = 0; opt < RDX_ORACLE_NOPT; opt++) {
            if (p->co_err[opt])
                continue;
            size_t len = text ? strlen(text) : 0;
            const char *sec = !text      ? NULL
                              : nco == 1 ? text
                                         : file_section(text, p->co_path[opt], &len);
            char e[512];
            char *copy = sec ? strndup(sec, len) : NULL;
            if (!copy) {
                p->co_err[opt] = rdx_oracle_dupf("%s%s: llvm-readelf --notes gave no output for it",
                                                 p->k->id, rdx_oracle_opts[opt]);
            } else if (rdx_oracle_md_parse(copy, p->k->kernel, &p->md[opt], e, sizeof e) != 0) {
                p->co_err[opt] = rdx_oracle_dupf("%s%s: %s", p->k->id, rdx_oracle_opts[opt], e);
            } else {
                char *why = check_args(p->k, &p->md[opt]);
                unsigned want = (p->k->flags & RDX_ORACLE_F_WAVE64) ? 64u : 32u;
                if (why)
                    p->co_err[opt] =
                        rdx_oracle_dupf("%s%s: %s", p->k->id, rdx_oracle_opts[opt], why);
                else if (p->md[opt].wavefront_size != want)
                    p->co_err[opt] =
                        rdx_oracle_dupf("%s%s: .wavefront_size %u, expected %u", p->k->id,
                                        rdx_oracle_opts[opt], p->md[opt].wavefront_size, want);
                free(why);
            }
            free(copy);
        }
    }
    free(text);
}
