/* tools/cmd_realize.c — `rdx realize`: a tensor-level UOp file's whole schedule
 * compiled and run on the default device through the library
 * (rdx/realize.h: rdx_realize_run); --check compares every output with the
 * reference interpreter.  This file only parses options, makes the inputs
 * (files or pseudo-random values) and prints. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codegen_front.h>
#include <rdx/interp.h>
#include <rdx/ir.h>
#include <rdx/realize.h>
#include <rdx/realize_multi.h>
#include <rdx/runtime.h>

#include "tools/cli.h"
#include "tools/prof.h"
#include "tools/realize_cli.h"
#include "util/error.h"
#include "util/file.h"

static void usage(FILE *out)
{
    fprintf(
        out,
        "Usage: rdx realize [options] FILE.uop\n"
        "Compile the outputs of a tensor-level UOp graph (docs/codegen-frontend.md) and run\n"
        "every kernel of the schedule through the runtime on the default device (RDX_DEVICE,\n"
        "else a real card on /dev/kfd, else the emulated GPU: RDX_EMU_ARCH, default gfx1100),\n"
        "compiled for that device's target; see docs/realize.md.\n"
        "Options:\n"
        "  -i, --input SLOT=FILE  raw bytes for the BUFFER/PARAM with that slot; unbound\n"
        "                         inputs get pseudo-random values (see --seed)\n"
        "  -v, --var NAME=VALUE   bind a DEFINE_VAR\n"
        "      --seed N           seed of the pseudo-random inputs (default 1)\n"
        "      --raw              no OptOps\n"
        "      --beam WIDTH       BEAM search (1..16) instead of the heuristics, timed on the\n"
        "                         device (the emulator's kernel time estimate on the emulated\n"
        "                         GPU: occupancy, latency hiding, bandwidth)\n"
        "      --cache FILE       BEAM cache file\n"
        "      --beam-time S      BEAM: stop each kernel's search after S seconds with the\n"
        "                         best so far (not written to the cache file)\n"
        "      --beam-budget K    BEAM: stop a candidate's run once it costs more than K x\n"
        "                         the best so far (default 3; 0: run every one to the end)\n"
        "      --profile          on the emulated GPU, also each kernel's estimated cycles and\n"
        "                         wave-instructions (a second run on the wave emulator), then\n"
        "                         every kernel's profile as rdx prof prints it (docs/prof.md)\n"
        "      --isa K            print the generated assembly of kernel K (-1: every kernel)\n"
        "      --device KIND      emu (the emulated GPU, RDX_EMU_ARCH's target), kfd (a real\n"
        "                         card) or auto\n"
        "                         (default: RDX_DEVICE, else a card, else the emulator)\n"
        "      --gpus N           run on GPUs 0..N-1 of one machine (1..8; emulated: a machine\n"
        "                         of N GPUs unless RDX_EMU_GPUS says more): a root sharded over\n"
        "                         a device tuple is computed shard by shard on the devices its\n"
        "                         names give (AMD:K = GPU K), others on their device; the\n"
        "                         spec's collectives (allreduce, ...) run as rings between\n"
        "                         the GPUs (docs/realize.md, \"Several devices\")\n"
        "      --check            compare every output with the reference interpreter\n"
        "                         (integers exactly, floats within a relative 1e-3;\n"
        "                         exit 1 on a mismatch)\n"
        "  -p, --print            print the outputs' values\n"
        "  -h, --help             show this help\n"
        "Prints one line per kernel (name, GPU time of its dispatch from the dispatch's GPU\n"
        "timestamps — on the emulator this is emulation time —, compile time, registers),\n"
        "the total and the memory plan (peak bytes with buffer reuse vs without).\n");
}

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void fill_random(uint8_t *p, rdx_dtype d, int64_t n, uint64_t *seed)
{
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = mix(seed);
        double f = (double)(r >> 11) / 9007199254740992.0 * 4.0 - 2.0;
        int64_t v = (int64_t)(r % 19) - 9;
        switch (d.scalar) {
        case RDX_BOOL:
            p[i] = r & 1;
            break;
        case RDX_INT8:
        case RDX_UINT8:
            p[i] = (uint8_t)v;
            break;
        case RDX_INT16:
        case RDX_UINT16:
        case RDX_FLOAT16:
        case RDX_BFLOAT16: {
            uint16_t x = d.scalar == RDX_FLOAT16    ? rdx_f64_to_f16(f)
                         : d.scalar == RDX_BFLOAT16 ? rdx_f64_to_bf16(f)
                                                    : (uint16_t)v;
            memcpy(p + 2 * i, &x, 2);
            break;
        }
        case RDX_INT32:
        case RDX_UINT32: {
            int32_t x = (int32_t)v;
            memcpy(p + 4 * i, &x, 4);
            break;
        }
        case RDX_FLOAT32: {
            float x = (float)f;
            memcpy(p + 4 * i, &x, 4);
            break;
        }
        case RDX_FLOAT64:
            memcpy(p + 8 * i, &f, 8);
            break;
        default:
            memcpy(p + 8 * i, &v, 8);
            break;
        }
    }
}

#define MAX_VARS   16
#define MAX_INPUTS 64

typedef struct cli_opts {
    const char *vnames[MAX_VARS], *inpaths[MAX_INPUTS];
    long long inslots[MAX_INPUTS];
    int64_t vvals[MAX_VARS];
    size_t nv, nin;
    uint64_t seed;
    int check, print, isa_all;
    long isa_kernel;
} cli_opts;

/* The DEFINE_VARs of the graph under roots, bound to their -v values. */
static int bind_vars(rdx_interp *ip, const rdx_uop *const *roots, size_t n, const cli_opts *o,
                     const rdx_uop **vars, int64_t *vals, size_t *nvars)
{
    *nvars = 0;
    for (size_t r = 0; r < n; r++) {
        const rdx_uop **order = NULL;
        size_t no = 0;
        if (rdx_ir_toposort(roots[r], &order, &no))
            return rdx_cli_fail("realize");
        for (size_t i = 0; i < no; i++) {
            const rdx_uop *u = order[i];
            size_t k, j;
            if (u->op != RDX_OP_DEFINE_VAR)
                continue;
            for (k = 0; k < *nvars && vars[k] != u; k++)
                ;
            if (k < *nvars || *nvars == MAX_VARS)
                continue;
            for (j = 0; j < o->nv && strcmp(o->vnames[j], u->arg.str); j++)
                ;
            if (j == o->nv) {
                fprintf(stderr, "rdx realize: variable '%s' needs a value (-v %s=N)\n", u->arg.str,
                        u->arg.str);
                free(order);
                return RDX_EXIT_FAIL;
            }
            vars[*nvars] = u;
            vals[(*nvars)++] = o->vvals[j];
            if (rdx_interp_bind_var(ip, u, o->vvals[j])) {
                free(order);
                return rdx_cli_fail("realize");
            }
        }
        free(order);
    }
    return RDX_EXIT_OK;
}

/* Data for every input of the graph (the arguments of its callified FUNCTION). */
static int bind_inputs(rdx_ir_ctx *ctx, rdx_interp *ip, const rdx_uop *const *roots, size_t n,
                       cli_opts *o, const rdx_uop *const *vars, const int64_t *vals, size_t nvars)
{
    const rdx_uop *fn;
    if (rdx_cg_callify(ctx, roots, n, &fn))
        return rdx_cli_fail("realize");
    for (uint32_t a = 1; a < fn->nsrc; a++) {
        const rdx_uop *in = fn->src[a];
        int64_t ne = 1;
        for (uint32_t d = 0; d < in->ndim; d++) {
            int64_t v;
            rdx_value vv[MAX_VARS], r;
            for (size_t k = 0; k < nvars; k++)
                vv[k].i = vals[k];
            if (!rdx_uop_const_int(in->shape[d], &v)) {
                if (rdx_ir_eval(in->shape[d], vars, vv, nvars, &r))
                    return rdx_cli_fail("realize");
                v = r.i;
            }
            ne *= v;
        }
        size_t bytes = (size_t)(ne > 0 ? ne : 0) * rdx_dtype_itemsize(in->dtype);
        const char *file = NULL;
        for (size_t i = 0; i < o->nin; i++)
            if (o->inslots[i] == in->arg.i)
                file = o->inpaths[i];
        uint8_t *d = NULL;
        size_t dl = bytes;
        if (file) {
            if (rdx_file_read(file, &d, &dl))
                return rdx_cli_fail("realize");
            if (dl != bytes) {
                fprintf(stderr, "rdx realize: %s: %zu bytes, input slot %lld needs %zu\n", file, dl,
                        (long long)in->arg.i, bytes);
                free(d);
                return RDX_EXIT_FAIL;
            }
        } else {
            if (!(d = calloc(1, bytes + 1)))
                return rdx_cli_fail("realize");
            fill_random(d, rdx_dtype_of((rdx_scalar)in->dtype.scalar), ne, &o->seed);
        }
        rdx_status st = rdx_interp_bind(ip, in, d, bytes);
        free(d);
        if (st)
            return rdx_cli_fail("realize");
    }
    return RDX_EXIT_OK;
}

/* Print (-p) and compare (--check) the outputs; exit status. */
static int report_outputs(rdx_interp *ip, const rdx_uop *const *roots, size_t n,
                          const rdx_array *outputs, const cli_opts *o)
{
    rdx_array *want = calloc(n + 1, sizeof *want);
    int rc = RDX_EXIT_OK;
    if (!want)
        return rdx_cli_fail("realize");
    if (o->check && rdx_interp_realize(ip, roots, n, want)) {
        free(want);
        return rdx_cli_fail("realize");
    }
    for (size_t r = 0; r < n; r++) {
        const rdx_array *got = &outputs[r];
        if (o->print) {
            printf("output %zu:", r);
            for (int64_t i = 0; i < got->numel; i++)
                printf(" %.9g", rdx_array_get(got, i));
            printf("\n");
        }
        if (!o->check)
            continue;
        int64_t first, bad = rdx_realize_compare(&want[r], got, 1e-3, &first);
        if (bad) {
            fprintf(stderr,
                    "rdx realize: output %zu: %lld of %lld elements differ (first: element %lld "
                    "= %.9g, interpreter %.9g)\n",
                    r, (long long)bad, (long long)got->numel, (long long)first,
                    first < got->numel ? rdx_array_get(got, first) : 0.0,
                    first < want[r].numel ? rdx_array_get(&want[r], first) : 0.0);
            rc = RDX_EXIT_FAIL;
        } else {
            printf("output %zu: matches the interpreter (%lld elements)\n", r,
                   (long long)got->numel);
        }
    }
    free(want);
    return rc;
}

static void print_isa(const rdx_realize_report *rep, const cli_opts *o)
{
    for (size_t k = 0; k < rep->nkernels; k++)
        if (rep->kernels[k].isa && (o->isa_all || (size_t)o->isa_kernel == k))
            printf("; ---- asm (kernel %zu %s)\n%s", k, rep->kernels[k].name, rep->kernels[k].isa);
}

/* --gpus N: the roots placed on GPUs 0..N-1 (rdx_realize_run_multi), a report per GPU. */
static int run_multi(rdx_ir_ctx *ctx, rdx_interp *ip, const rdx_uop *const *roots, size_t n,
                     const rdx_device_options *dopts, uint32_t gpus, const rdx_realize_options *ro,
                     const cli_opts *o)
{
    rdx_device *devs[RDX_MAX_GPUS] = { 0 };
    rdx_realize_multi_result *res = NULL;
    int rc = RDX_EXIT_OK;
    if (rdx_device_open_all(dopts, gpus, devs))
        return rdx_cli_fail("realize");
    if (rdx_realize_run_multi(ctx, ip, devs, gpus, roots, n, ro, &res)) {
        rc = rdx_cli_fail("realize");
    } else {
        if (res->stages > 1)
            printf("-- values copied between GPUs: %u SDMA copies, %u through the host, %llu "
                   "bytes\n",
                   res->peer_copies, res->host_copies, (unsigned long long)res->copied_bytes);
        if (res->allreduces || res->reduce_scatters)
            printf("-- allreduce / reduce_scatter roots run as rings: %u / %u\n", res->allreduces,
                   res->reduce_scatters);
        if (res->inner_collectives)
            printf("-- collectives inside the program run across the GPUs: %u (%u local copies)\n",
                   res->inner_collectives, res->local_copies);
        if (res->ring_copies) {
            printf("-- rings: %u peer copies, %u reduction kernels; bytes sent per GPU:",
                   res->ring_copies, res->ring_kernels);
            for (uint32_t d = 0; d < gpus; d++)
                printf(" %llu", (unsigned long long)res->ring_bytes_sent[d]);
            printf("\n");
        }
        for (uint32_t d = 0; d < gpus; d++) {
            printf("-- GPU %u: %u root part(s)\n", d, res->parts[d]);
            if (res->reports[d]) {
                rdx_realize_report_print(res->reports[d], stdout);
                print_isa(res->reports[d], o);
            }
        }
        rc = report_outputs(ip, roots, n, res->outputs, o);
    }
    rdx_realize_multi_result_free(res);
    for (uint32_t d = 0; d < gpus; d++)
        if (rdx_device_close(devs[d]) && rc == RDX_EXIT_OK)
            rc = rdx_cli_fail("realize");
    return rc;
}

int rdx_cli_realize(int argc, char **argv, const rdx_cli_realize_hook *hook)
{
    static const struct option opts[] = {
        { "input", required_argument, NULL, 'i' },
        { "var", required_argument, NULL, 'v' },
        { "seed", required_argument, NULL, 's' },
        { "raw", no_argument, NULL, 'r' },
        { "beam", required_argument, NULL, 'b' },
        { "cache", required_argument, NULL, 'C' },
        { "beam-time", required_argument, NULL, 'T' },
        { "beam-budget", required_argument, NULL, 'K' },
        { "profile", no_argument, NULL, 'P' },
        { "isa", required_argument, NULL, 'I' },
        { "check", no_argument, NULL, 'c' },
        { "print", no_argument, NULL, 'p' },
        { "device", required_argument, NULL, 'd' },
        { "gpus", required_argument, NULL, 'g' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    rdx_device_options dopts;
    memset(&dopts, 0, sizeof dopts);
    dopts.kind = RDX_DEVICE_AUTO;
    dopts.emu_wave_budget = 2000000000ull;
    rdx_realize_options ro;
    memset(&ro, 0, sizeof ro);
    cli_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    o.isa_kernel = -2;
    long gpus = 0;
    int c;
    optind = 0;
    while ((c = getopt_long(argc, argv, "i:v:ph", opts, NULL)) != -1) {
        char *eq, *e = NULL;
        long w;
        switch (c) {
        case 'i':
            eq = strchr(optarg, '=');
            if (!eq || o.nin == MAX_INPUTS)
                return rdx_cli_usage_error("realize", "bad input '%s' (SLOT=FILE)", optarg);
            o.inslots[o.nin] = strtoll(optarg, &e, 10);
            if (e != eq)
                return rdx_cli_usage_error("realize", "bad slot in '%s'", optarg);
            o.inpaths[o.nin++] = eq + 1;
            break;
        case 'v':
            eq = strchr(optarg, '=');
            if (!eq || o.nv == MAX_VARS)
                return rdx_cli_usage_error("realize", "bad variable '%s' (NAME=VALUE)", optarg);
            *eq = 0;
            o.vnames[o.nv] = optarg;
            o.vvals[o.nv] = strtoll(eq + 1, &e, 0);
            if (*e)
                return rdx_cli_usage_error("realize", "bad value '%s'", eq + 1);
            o.nv++;
            break;
        case 's':
            o.seed = strtoull(optarg, &e, 0);
            if (*e)
                return rdx_cli_usage_error("realize", "bad seed '%s'", optarg);
            break;
        case 'r':
            ro.raw = 1;
            break;
        case 'b':
            w = strtol(optarg, &e, 10);
            if (*e || w < 1 || w > 16)
                return rdx_cli_usage_error("realize", "bad beam width '%s' (1..16)", optarg);
            ro.beam = (unsigned)w;
            break;
        case 'C':
            ro.beam_cache = optarg;
            break;
        case 'T':
            ro.beam_time = strtod(optarg, &e);
            if (e == optarg || *e || !(ro.beam_time >= 0))
                return rdx_cli_usage_error("realize", "bad --beam-time '%s' (seconds >= 0)",
                                           optarg);
            break;
        case 'K':
            ro.beam_budget = strtod(optarg, &e);
            if (e == optarg || *e || !(ro.beam_budget == 0 || ro.beam_budget >= 1))
                return rdx_cli_usage_error("realize", "bad --beam-budget '%s' (0 or >= 1)", optarg);
            if (ro.beam_budget == 0)
                ro.beam_budget = -1; /* no budget */
            break;
        case 'P':
            ro.profile = 1;
            break;
        case 'I':
            o.isa_kernel = strtol(optarg, &e, 10);
            if (*e || o.isa_kernel < -1)
                return rdx_cli_usage_error("realize", "bad kernel number '%s'", optarg);
            o.isa_all = o.isa_kernel == -1;
            ro.keep_isa = 1;
            break;
        case 'c':
            o.check = 1;
            break;
        case 'p':
            o.print = 1;
            break;
        case 'd':
            if (!strcmp(optarg, "emu"))
                dopts.kind = RDX_DEVICE_EMU;
            else if (!strcmp(optarg, "kfd"))
                dopts.kind = RDX_DEVICE_KFD;
            else if (!strcmp(optarg, "auto"))
                dopts.kind = RDX_DEVICE_AUTO;
            else
                return rdx_cli_usage_error("realize", "unknown device '%s' (emu, kfd or auto)",
                                           optarg);
            break;
        case 'g':
            gpus = strtol(optarg, &e, 10);
            if (*e || e == optarg || gpus < 1 || gpus > RDX_MAX_GPUS)
                return rdx_cli_usage_error("realize", "--gpus '%s': expected a number from 1 to %d",
                                           optarg, RDX_MAX_GPUS);
            break;
        case 'h':
            usage(stdout);
            return RDX_EXIT_OK;
        default:
            return rdx_cli_usage_error("realize", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return rdx_cli_usage_error("realize", "expected one FILE.uop");
    const char *path = argv[optind];
    uint8_t *text;
    size_t len;
    if (rdx_file_read(path, &text, &len))
        return rdx_cli_fail("realize");
    rdx_ir_ctx *ctx = NULL;
    rdx_interp *ip = NULL;
    const rdx_uop **roots = NULL;
    size_t n = 0, nvars = 0;
    rdx_device *dev = NULL;
    rdx_realize_result *res = NULL;
    const rdx_uop *vars[MAX_VARS];
    int64_t vals[MAX_VARS];
    const char *names[MAX_VARS];
    int rc = RDX_EXIT_OK;
    if (rdx_ir_ctx_create(&ctx) || rdx_interp_create(&ip) ||
        rdx_ir_parse(ctx, path, (const char *)text, len, &roots, &n)) {
        rc = rdx_cli_fail("realize");
        goto out;
    }
    if ((rc = bind_vars(ip, roots, n, &o, vars, vals, &nvars)) ||
        (rc = bind_inputs(ctx, ip, roots, n, &o, vars, vals, nvars)))
        goto out;
    for (size_t k = 0; k < nvars; k++)
        names[k] = vars[k]->arg.str;
    ro.var_names = names;
    ro.var_values = vals;
    ro.nvars = nvars;
    ro.beam_progress = ro.beam ? stderr : NULL;
    if (hook) {
        ro.profile = 1;
        ro.profile_hook = hook->fn;
        ro.profile_user = hook->user;
        dopts.kind = RDX_DEVICE_EMU; /* the profile is the emulator's */
    }
    if (gpus && hook) { /* the profile hook and its output are one device's */
        rc = rdx_cli_usage_error("prof", "--gpus: a tensor program is profiled on one GPU");
        goto out;
    }
    if (gpus) {
        rc = run_multi(ctx, ip, roots, n, &dopts, (uint32_t)gpus, &ro, &o);
        goto out;
    }
    if (rdx_device_open(&dopts, &dev) || rdx_realize_run(ctx, ip, dev, roots, n, &ro, &res)) {
        rc = rdx_cli_fail("realize");
        goto out;
    }
    if (!hook || hook->out) {
        rdx_realize_report_print(res->report, hook ? hook->out : stdout);
        print_isa(res->report, &o);
        rc = report_outputs(ip, roots, n, res->outputs, &o);
    }
out:
    rdx_realize_result_free(res);
    if (rdx_device_close(dev) && rc == RDX_EXIT_OK)
        rc = rdx_cli_fail("realize");
    rdx_interp_destroy(ip);
    free(roots);
    free(text);
    rdx_ir_ctx_destroy(ctx);
    return rc;
}

int rdx_cmd_realize(int argc, char **argv)
{
    int rc = prof_realize(argc, argv); /* --profile on the emulated GPU: rdx prof's report too */
    return rc >= 0 ? rc : rdx_cli_realize(argc, argv, NULL);
}
