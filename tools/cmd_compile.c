/* tools/cmd_compile.c — `rdx compile`: a tensor-level UOp file through the whole
 * codegen pipeline (callify, rangeify, optimize, expand, back end) to code objects. */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codegen.h>
#include <rdx/codegen_front.h>
#include <rdx/ir.h>
#include <rdx/realize.h>

#include "tools/cli.h"
#include "util/file.h"

/* Front-end stages printable with --print (the back end's come from rdx/codegen.h). */
#define FRONT_STAGES(X)   \
    X(CALLIFY, "callify") \
    X(SCHEDULE, "schedule") X(RANGEIFY, "rangeify") X(OPTIMIZE, "optimize") X(EXPAND, "expand")
enum {
#define E_(n, s) FS_##n,
    FRONT_STAGES(E_)
#undef E_
        FS_COUNT
};
static const char *const front_names[] = {
#define N_(n, s) s,
    FRONT_STAGES(N_)
#undef N_
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: rdx compile [options] FILE.uop\n"
            "Compile the outputs of a tensor-level UOp graph (docs/ir.md text form) through\n"
            "callify, rangeify, optimize, expand (docs/codegen-frontend.md) and the back end\n"
            "into code objects, one per kernel of the schedule.\n"
            "Options:\n"
            "  -t, --target GFX      the target (default gfx1100), one of:\n"
            "                        %s\n"
            "  -o, --output OUT.co   write the code objects (OUT.co for one kernel, else\n"
            "                        OUT.k<i>.co per kernel)\n"
            "  -p, --print STAGE     print a stage (repeatable): callify, schedule, rangeify,\n"
            "                        optimize, expand, isel, linear, regalloc, asm\n"
            "      --raw             no OptOps (GLOBAL axes only)\n"
            "      --opts [K=]OPTS   these OptOps instead of the heuristics, for kernel K or\n"
            "                        (without K=) every kernel; repeatable; the form -p optimize\n"
            "                        prints, e.g. 'SPLIT(0,4,UPCAST) SPLIT(1,8,LOCAL)' (types by\n"
            "                        name or letter: g l w L R G u r)\n"
            "      --beam WIDTH      BEAM search timed on the emulated GPU (the emulator's kernel\n"
            "                        time estimate) instead of heuristics\n"
            "      --cache FILE      BEAM result cache file\n"
            "      --beam-time S     BEAM: stop each kernel's search after S seconds with the\n"
            "                        best so far (not written to the cache file)\n"
            "      --beam-budget K   BEAM: stop a candidate's run once it costs more than K x\n"
            "                        the best so far (default 3; 0: run every one to the end)\n"
            "  -v, --var NAME=VALUE  value of a DEFINE_VAR (for BEAM timing of symbolic kernels)\n"
            "  -h, --help            show this help\n"
            "Without -o and -p, prints one line per kernel: name, buffers, registers, code size.\n",
            rdx_codegen_target_list());
}

static int stage_of(const char *s, unsigned *front, unsigned *back)
{
    for (int i = 0; i < FS_COUNT; i++)
        if (!strcmp(s, front_names[i])) {
            *front |= 1u << i;
            return 0;
        }
    int b = rdx_codegen_stage_find(s);
    if (b < 0)
        return -1;
    *back |= 1u << b;
    return 0;
}

/* Print u under "; ---- title (kernel k)", or "; ---- title" when k is SIZE_MAX. */
static rdx_status print_graph(const char *title, size_t k, const rdx_uop *u)
{
    char *t = NULL;
    rdx_status st = rdx_ir_print(&u, 1, 0, &t);
    if (!st && k == SIZE_MAX)
        printf("; ---- %s\n%s", title, t);
    else if (!st)
        printf("; ---- %s (kernel %zu)\n%s", title, k, t);
    free(t);
    return st;
}

static char *out_name(const char *outp, size_t k, size_t n)
{
    size_t len = strlen(outp) + 32;
    char *s = malloc(len);
    if (!s)
        return NULL;
    if (n == 1) {
        snprintf(s, len, "%s", outp);
        return s;
    }
    const char *dot = strrchr(outp, '.');
    if (dot && !strchr(dot, '/'))
        snprintf(s, len, "%.*s.k%zu%s", (int)(dot - outp), outp, k, dot);
    else
        snprintf(s, len, "%s.k%zu", outp, k);
    return s;
}

int rdx_cmd_compile(int argc, char **argv)
{
    static const struct option opts[] = {
        { "output", required_argument, NULL, 'o' },
        { "print", required_argument, NULL, 'p' },
        { "raw", no_argument, NULL, 'r' },
        { "beam", required_argument, NULL, 'b' },
        { "cache", required_argument, NULL, 'c' },
        { "beam-time", required_argument, NULL, 'T' },
        { "beam-budget", required_argument, NULL, 'K' },
        { "var", required_argument, NULL, 'v' },
        { "opts", required_argument, NULL, 'O' },
        { "target", required_argument, NULL, 't' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *target = NULL; /* checked by rdx_codegen_compile (names the targets) */
    /* --opts: per kernel (kernel -1: every kernel without its own) */
    struct {
        long kernel;
        rdx_opt o[16];
        size_t n;
    } user[16];
    size_t nuser = 0;
    const char *outp = NULL, *cache = NULL, *vnames[16];
    int64_t vvals[16];
    size_t nv = 0;
    unsigned front = 0, back = 0, beam = 0;
    double beam_time = 0, beam_budget = 3;
    int raw = 0, c;
    optind = 0;
    while ((c = getopt_long(argc, argv, "o:p:v:t:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            outp = optarg;
            break;
        case 't':
            target = optarg;
            break;
        case 'p':
            if (stage_of(optarg, &front, &back))
                return rdx_cli_usage_error("compile",
                                           "unknown stage '%s' (callify, schedule, rangeify, "
                                           "optimize, expand, isel, linear, regalloc, asm)",
                                           optarg);
            break;
        case 'r':
            raw = 1;
            break;
        case 'O': {
            const char *text = optarg, *eq = strchr(optarg, '=');
            long kn = -1;
            if (eq) {
                char *e;
                kn = strtol(optarg, &e, 10);
                if (e != eq || kn < 0)
                    return rdx_cli_usage_error("compile", "bad kernel in --opts '%s' (K=OPTS)",
                                               optarg);
                text = eq + 1;
            }
            if (nuser == 16)
                return rdx_cli_usage_error("compile", "more than 16 --opts");
            user[nuser].kernel = kn;
            if (rdx_opts_parse(text, user[nuser].o, 16, &user[nuser].n))
                return rdx_cli_usage_error("compile", "--opts '%s': %s", text, rdx_error_message());
            nuser++;
            break;
        }
        case 'b': {
            char *e;
            long w = strtol(optarg, &e, 10);
            if (*e || w < 1 || w > 16)
                return rdx_cli_usage_error("compile", "bad beam width '%s' (1..16)", optarg);
            beam = (unsigned)w;
            break;
        }
        case 'c':
            cache = optarg;
            break;
        case 'T':
        case 'K': {
            char *e;
            double v = strtod(optarg, &e);
            if (e == optarg || *e || (c == 'T' ? !(v >= 0) : !(v == 0 || v >= 1)))
                return rdx_cli_usage_error("compile", "bad --%s '%s' (%s)",
                                           c == 'T' ? "beam-time" : "beam-budget", optarg,
                                           c == 'T' ? "seconds >= 0" : "0 or >= 1");
            *(c == 'T' ? &beam_time : &beam_budget) = v;
            break;
        }
        case 'v': {
            char *eq = strchr(optarg, '=');
            char *e = NULL;
            if (!eq || nv == 16)
                return rdx_cli_usage_error("compile", "bad variable '%s' (NAME=VALUE)", optarg);
            *eq = 0;
            vnames[nv] = optarg;
            vvals[nv] = strtoll(eq + 1, &e, 0);
            if (*e)
                return rdx_cli_usage_error("compile", "bad value '%s'", eq + 1);
            nv++;
            break;
        }
        case 'h':
            usage(stdout);
            return RDX_EXIT_OK;
        default:
            return rdx_cli_usage_error("compile", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return rdx_cli_usage_error("compile", "expected one FILE.uop");
    const char *path = argv[optind];
    uint8_t *text;
    size_t len;
    if (rdx_file_read(path, &text, &len))
        return rdx_cli_fail("compile");
    rdx_ir_ctx *ctx = NULL;
    const rdx_uop **roots = NULL;
    size_t n = 0;
    rdx_schedule *s = NULL;
    int rc = RDX_EXIT_OK;
    int64_t *svals = NULL;
    const rdx_uop *fn;
    if (rdx_ir_ctx_create(&ctx) || rdx_ir_parse(ctx, path, (const char *)text, len, &roots, &n) ||
        ((front & (1u << FS_CALLIFY)) &&
         (rdx_cg_callify(ctx, roots, n, &fn) || print_graph("callify", SIZE_MAX, fn))) ||
        rdx_cg_schedule(ctx, roots, n, &s)) {
        rc = rdx_cli_fail("compile");
        goto out;
    }
    svals = calloc(s->nvars + 1, sizeof *svals);
    if (!svals) {
        rc = rdx_cli_fail("compile");
        goto out;
    }
    for (size_t k = 0; k < s->nvars; k++)
        for (size_t j = 0; j < nv; j++)
            if (!strcmp(vnames[j], s->vars[k]->arg.str))
                svals[k] = vvals[j];
    if (front & (1u << FS_SCHEDULE)) {
        char *t = NULL;
        if (!rdx_schedule_print(s, 0, &t))
            printf("; ---- schedule\n%s", t);
        free(t);
    }
    for (size_t k = 0; k < s->nkernels && rc == RDX_EXIT_OK; k++) {
        const rdx_sched_kernel *kn = &s->kernels[k];
        if (front & (1u << FS_RANGEIFY))
            print_graph("rangeify", k, kn->sink);
        const rdx_uop *typed, *opt, *exp;
        rdx_opt o[16];
        size_t no = 0;
        rdx_status st = rdx_cg_axis_types(ctx, kn->sink, &typed);
        /* the --opts entry for this kernel: the last of its own, else the last general one */
        long mine = -1, general = -1;
        for (size_t u = 0; u < nuser; u++) {
            if (user[u].kernel == (long)k)
                mine = (long)u;
            if (user[u].kernel < 0)
                general = (long)u;
        }
        if (mine < 0)
            mine = general;
        if (!st && mine >= 0) {
            no = user[mine].n;
            memcpy(o, user[mine].o, no * sizeof *o);
        } else if (!st && beam) {
            /* realize's BEAM timer: each candidate on the wave emulator (kernel time estimate) */
            rdx_cg_timer fn = NULL;
            rdx_realize_beam_timer *tc = NULL;
            rdx_beam_opts bo = {
                .width = beam,
                .progress = stderr,
                .cache_path = cache,
                .device = "emu-gfx1100",
                .budget = beam_budget,
                .no_budget = beam_budget == 0,
                .time_limit = beam_time,
            };
            double cost;
            st = rdx_realize_beam_timer_create(ctx, NULL, NULL, s->vars, svals, s->nvars, 0, &fn,
                                               &tc);
            if (!st && target)
                st = rdx_realize_beam_timer_set_target(tc, target);
            if (!st)
                st = rdx_cg_beam(ctx, typed, fn, tc, &bo, o, 16, &no, &cost);
            rdx_realize_beam_timer_free(tc);
        } else if (!st && !raw) {
            st = rdx_cg_heuristic(typed, o, 16, &no);
        }
        if (!st)
            st = rdx_cg_apply_opts(ctx, typed, o, no, &opt);
        if (!st && (front & (1u << FS_OPTIMIZE))) {
            char ot[16 * 96];
            rdx_opts_format(o, no, ot, sizeof ot);
            printf("; opts: %s\n", ot);
            print_graph("optimize", k, opt);
        }
        if (!st)
            st = rdx_cg_expand(ctx, opt, &exp);
        if (!st && (front & (1u << FS_EXPAND)))
            print_graph("expand", k, exp);
        rdx_codegen_options co;
        memset(&co, 0, sizeof co);
        co.name = kn->name;
        co.target = target;
        co.keep_stages = back;
        rdx_codegen_kernel *ck = NULL;
        if (!st)
            st = rdx_codegen_compile(ctx, exp, &co, &ck);
        if (st) {
            fprintf(stderr, "rdx compile: kernel %zu (%s): %s\n", k, kn->name, rdx_error_message());
            rc = RDX_EXIT_FAIL;
            break;
        }
        for (int b = 0; b < RDX_CG_STAGE_COUNT; b++)
            if (ck->stage_text[b])
                printf("; ---- %s (kernel %zu)\n%s", rdx_codegen_stage_name((rdx_codegen_stage)b),
                       k, ck->stage_text[b]);
        if (outp) {
            char *name = out_name(outp, k, s->nkernels);
            if (!name || rdx_file_write(name, ck->code_object, ck->code_object_size))
                rc = rdx_cli_fail("compile");
            free(name);
        }
        if (!outp && !front && !back)
            printf("kernel %zu %s: %u params, %u SGPRs, %u VGPRs, %u bytes LDS, %u bytes of code\n",
                   k, kn->name, kn->nparams, ck->num_sgprs, ck->num_vgprs, ck->lds_size,
                   ck->code_size);
        rdx_codegen_kernel_free(ck);
    }
out:
    rdx_schedule_free(s);
    free(svals);
    free(roots);
    free(text);
    rdx_ir_ctx_destroy(ctx);
    return rc;
}
