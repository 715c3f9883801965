/*
 * tests/oracle/oracle.c — preparing the oracle (clang-19 code objects at three
 * levels, host executables, host results), releasing it, and its queries.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdx/isa.h>

#include "tests/oracle/oracle_int.h"
#include "tests/harness/harness.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int in_path(const char *name)
{
    const char *path = getenv("PATH");
    char buf[1024];
    for (const char *p = path ? path : ""; *p;) {
        const char *e = strchr(p, ':');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, name);
        if (access(buf, X_OK) == 0)
            return 1;
        p = e ? e + 1 : p + n;
    }
    return 0;
}

/* Copy a tool path (rdx_test_llvm_tool answers in static storage). */
static int tool(char *dst, size_t len, const char *given, const char *name)
{
    const char *t = given ? given : rdx_test_llvm_tool(name);
    snprintf(dst, len, "%s", t ? t : "");
    return dst[0] != 0;
}

/* The host side of every entry of o copied from hf (the same manifest entries). */
static int share_host(rdx_oracle *o, const rdx_oracle *hf)
{
    for (int i = 0; i < o->nk; i++) {
        rdx_oracle_prepared *p = &o->ks[i];
        const rdx_oracle_prepared *q = NULL;
        for (int j = 0; j < hf->nk && !q; j++)
            if (hf->ks[j].k == p->k)
                q = &hf->ks[j];
        if (!q) {
            p->host_err = rdx_oracle_dupf("%s: not prepared by the host oracle", p->k->id);
            continue;
        }
        p->exe = q->exe ? strdup(q->exe) : NULL;
        p->exe_ok = q->exe_ok;
        p->host_err = q->host_err ? strdup(q->host_err) : NULL;
        for (int a = 0; a < RDX_ORACLE_MAX_ARGS; a++) {
            if (!q->expected[a])
                continue;
            p->expected[a] = malloc(q->expected_size[a] ? q->expected_size[a] : 1);
            if (!p->expected[a])
                return -1;
            memcpy(p->expected[a], q->expected[a], q->expected_size[a]);
            p->expected_size[a] = q->expected_size[a];
        }
    }
    return 0;
}

rdx_oracle *rdx_oracle_prepare(const rdx_oracle_options *opts, char *err, size_t errlen)
{
    double t0 = now();
    rdx_oracle_options def = { 0 };
    if (!opts)
        opts = &def;
    rdx_oracle *o = calloc(1, sizeof *o);
    if (!o) {
        rdx_oracle_err(err, errlen, "out of memory");
        return NULL;
    }
    if (!tool(o->clang, sizeof o->clang, opts->clang, "clang") ||
        !tool(o->lld, sizeof o->lld, NULL, "ld.lld") ||
        !tool(o->readelf, sizeof o->readelf, NULL, "llvm-readelf")) {
        rdx_oracle_err(err, errlen, "LLVM 19 clang, ld.lld or llvm-readelf not found");
        free(o);
        return NULL;
    }
    snprintf(o->host_cc, sizeof o->host_cc, "%s",
             opts->host_cc    ? opts->host_cc
             : in_path("gcc") ? "gcc"
                              : "cc");
    const char *dd = opts->data_dir ? opts->data_dir : "tests/data/emu";
    char probe[600];
    snprintf(probe, sizeof probe, "%s/rdx_cl.h", dd);
    if (access(probe, R_OK) != 0 || !realpath(dd, o->data_dir)) {
        rdx_oracle_err(err, errlen, "%s not readable (run from the repository root)", probe);
        free(o);
        return NULL;
    }
    const rdx_isa_target *tg = rdx_isa_target_find(opts->target ? opts->target : "gfx1100");
    if (!tg) {
        rdx_oracle_err(err, errlen, "unknown target '%s'", opts->target);
        free(o);
        return NULL;
    }
    snprintf(o->target, sizeof o->target, "%s", tg->name);
    o->elf_mach = tg->elf_mach;
    o->levels =
        opts->levels ? opts->levels & ((1u << RDX_ORACLE_NOPT) - 1) : (1u << RDX_ORACLE_NOPT) - 1;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    o->jobs = opts->jobs > 0 ? opts->jobs : ncpu < 1 ? 1 : ncpu > 4 ? 4 : (int)ncpu;
    o->ks = calloc((size_t)rdx_oracle_kernel_count, sizeof *o->ks);
    if (!o->ks) {
        rdx_oracle_err(err, errlen, "out of memory");
        free(o);
        return NULL;
    }
    for (int i = 0; i < rdx_oracle_kernel_count; i++)
        if (!opts->only || strcmp(opts->only, rdx_oracle_kernels[i].id) == 0)
            o->ks[o->nk++].k = &rdx_oracle_kernels[i];
    if (o->nk == 0) {
        rdx_oracle_err(err, errlen, "no manifest entry named '%s'", opts->only);
        rdx_oracle_free(o);
        return NULL;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(o->dir, sizeof o->dir, "%s/rdx-oracle-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(o->dir)) {
        rdx_oracle_err(err, errlen, "mkdtemp %s: %s", o->dir, strerror(errno));
        o->dir[0] = 0;
        rdx_oracle_free(o);
        return NULL;
    }

    /* 1. every compile: the host compiles ride along with clang's batches */
    const rdx_oracle *hf = opts->host_from;
    if (hf) {
        rdx_oracle_compile_all(o, NULL, 0);
    } else {
        rdx_oracle_strs pool = { 0 };
        rdx_oracle_job *host = calloc((size_t)o->jobs + 2, sizeof *host);
        int nh = host ? rdx_oracle_host_compile_jobs(o, &pool, host) : 0;
        rdx_oracle_compile_all(o, host, nh);
        rdx_oracle_host_link(o);
        free(host);
        rdx_oracle_strs_free(&pool);
    }
    o->phase[0] = now() - t0;

    /* 2. the metadata of every code object */
    rdx_oracle_read_metadata(o);
    o->phase[1] = now() - t0 - o->phase[0];

    /* 3. the host runs: the expected outputs (or another oracle's) */
    if (hf ? share_host(o, hf) != 0 : rdx_oracle_host_run_all(o) != 0) {
        rdx_oracle_err(err, errlen, "out of memory running the host kernels");
        rdx_oracle_free(o);
        return NULL;
    }
    o->seconds = now() - t0;
    o->phase[2] = o->seconds - o->phase[0] - o->phase[1];
    return o;
}

void rdx_oracle_free(rdx_oracle *o)
{
    if (!o)
        return;
    for (int i = 0; o->ks && i < o->nk; i++) {
        rdx_oracle_prepared *p = &o->ks[i];
        free(p->host_err);
        free(p->exe);
        for (int a = 0; a < RDX_ORACLE_MAX_ARGS; a++)
            free(p->expected[a]);
        for (int opt = 0; opt < RDX_ORACLE_NOPT; opt++) {
            free(p->co_path[opt]);
            free(p->co_err[opt]);
            free(p->code[opt]);
        }
    }
    free(o->ks);
    if (o->dir[0] && strstr(o->dir, "/rdx-oracle-")) {
        const char *av[] = { "rm", "-rf", o->dir, NULL };
        rdx_oracle_job job = { .argv = av };
        rdx_oracle_run_jobs(&job, 1, 1);
    }
    free(o);
}

/* ---- queries --------------------------------------------------------------- */

const char *rdx_oracle_target(const rdx_oracle *o)
{
    return o->target;
}

int rdx_oracle_level_on(const rdx_oracle *o, int opt_index)
{
    return opt_index >= 0 && opt_index < RDX_ORACLE_NOPT && ((o->levels >> opt_index) & 1);
}

int rdx_oracle_count(const rdx_oracle *o)
{
    return o->nk;
}

double rdx_oracle_prepare_seconds(const rdx_oracle *o, double phases[3])
{
    if (phases)
        memcpy(phases, o->phase, sizeof o->phase);
    return o->seconds;
}

int rdx_oracle_code_object_count(const rdx_oracle *o)
{
    int n = 0;
    for (int i = 0; i < o->nk; i++)
        for (int opt = 0; opt < RDX_ORACLE_NOPT; opt++)
            n += o->ks[i].co_err[opt] == NULL;
    return n;
}

const rdx_oracle_kernel *rdx_oracle_kernel_at(const rdx_oracle *o, int i)
{
    return i >= 0 && i < o->nk ? o->ks[i].k : NULL;
}

const char *rdx_oracle_status(const rdx_oracle *o, int i, int opt_index)
{
    if (i < 0 || i >= o->nk || opt_index < -1 || opt_index >= RDX_ORACLE_NOPT)
        return "no such kernel or level";
    return opt_index < 0 ? o->ks[i].host_err : o->ks[i].co_err[opt_index];
}

const uint8_t *rdx_oracle_code(const rdx_oracle *o, int i, int opt_index, size_t *size)
{
    if (opt_index < 0 || rdx_oracle_status(o, i, opt_index))
        return NULL;
    *size = o->ks[i].code_size[opt_index];
    return o->ks[i].code[opt_index];
}

const rdx_oracle_md *rdx_oracle_metadata(const rdx_oracle *o, int i, int opt_index)
{
    if (opt_index < 0 || rdx_oracle_status(o, i, opt_index))
        return NULL;
    return &o->ks[i].md[opt_index];
}

const void *rdx_oracle_expected(const rdx_oracle *o, int i, int arg, size_t *size)
{
    if (i < 0 || i >= o->nk || arg < 0 || arg >= RDX_ORACLE_MAX_ARGS || o->ks[i].host_err)
        return NULL;
    if (size)
        *size = o->ks[i].expected_size[arg];
    return o->ks[i].expected[arg];
}
