/* tools/cmd_realize.c — `rdx realize`: compile a tensor-level UOp file and run
 * the whole schedule through the runtime (rdx/runtime.h) on the default device
 * (emulated unless a real card is present, or --device); --check compares
 * every output with the reference interpreter. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/runtime.h>

#include <rdx/codegen.h>
#include <rdx/codegen_front.h>
#include <rdx/interp.h>
#include <rdx/ir.h>

#include "tools/cli.h"
#include "util/error.h"
#include "util/file.h"

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: rdx realize [options] FILE.uop\n"
            "Compile the outputs of a tensor-level UOp graph (docs/codegen-frontend.md) and run\n"
            "every kernel of the schedule through the runtime on the default device (RDX_DEVICE,\n"
            "else a real card on /dev/kfd, else the emulated gfx1100).\n"
            "Options:\n"
            "  -i, --input SLOT=FILE  raw bytes for the BUFFER/PARAM with that slot; unbound\n"
            "                         inputs get pseudo-random values (see --seed)\n"
            "  -v, --var NAME=VALUE   bind a DEFINE_VAR\n"
            "      --seed N           seed of the pseudo-random inputs (default 1)\n"
            "      --raw              no OptOps\n"
            "      --device KIND      emu (the emulated gfx1100), kfd (a real card) or auto\n"
            "                         (default: RDX_DEVICE, else a card, else the emulator)\n"
            "      --check            compare every output with the reference interpreter\n"
            "                         (integers exactly, floats within a relative 1e-3;\n"
            "                         exit 1 on a mismatch)\n"
            "  -p, --print            print the outputs' values\n"
            "  -h, --help             show this help\n"
            "Prints one line per kernel: name and the GPU time of its dispatch (from the\n"
            "dispatch's GPU timestamps; on the emulator this is emulation time).\n");
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

static int close_enough(const rdx_array *want, const void *got, int64_t i)
{
    rdx_array g = *want;
    g.data = (void *)got;
    if (!rdx_dtype_is_float(want->dtype))
        return rdx_array_get_int(want, i) == rdx_array_get_int(&g, i);
    double a = rdx_array_get(want, i), b = rdx_array_get(&g, i);
    return (isnan(a) && isnan(b)) || a == b || fabs(a - b) <= 1e-3 * (fabs(a) > 1 ? fabs(a) : 1);
}

static int64_t size_of(const rdx_uop *e, const rdx_schedule *s, const int64_t *vals)
{
    int64_t v;
    if (rdx_uop_const_int(e, &v))
        return v;
    rdx_value vv[16], r;
    for (size_t k = 0; k < s->nvars && k < 16; k++)
        vv[k].i = vals[k];
    return rdx_ir_eval(e, s->vars, vv, s->nvars, &r) ? -1 : r.i;
}

/* Longest wait for one dispatch (a hung wave on the emulator fails sooner, by its budget). */
#define REALIZE_WAIT_MS 600000u

/*
 * Compile kernel-form `sink` and run it once on queue q: PARAM slot p uses
 * bufs[p] (p < nbufs), DEFINE_VARs take varvals[j] of vars[j].  The code
 * object the back end produces is loaded as it is; the grid is the one
 * rdx_codegen_launch reports, in work-items.  *ns: the dispatch's GPU time.
 */
static rdx_status run_kernel(rdx_device *dev, rdx_queue *q, rdx_ir_ctx *ctx, const rdx_uop *sink,
                             const char *name, rdx_buffer *const *bufs, size_t nbufs,
                             const rdx_uop *const *vars, const int64_t *varvals, size_t nvars,
                             uint64_t *ns)
{
    rdx_codegen_options co;
    memset(&co, 0, sizeof co);
    co.name = name;
    rdx_codegen_kernel *k = NULL;
    rdx_program *prog = NULL;
    const rdx_kernel *kern = NULL;
    rdx_status st = rdx_codegen_compile(ctx, sink, &co, &k);
    if (st)
        return st;
    rdx_arg *args = calloc(k->nargs + 1, sizeof *args);
    int64_t *kv = calloc(k->nargs + 1, sizeof *kv);
    size_t nkv = 0;
    if (!args || !kv)
        st = rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    for (size_t a = 0; a < k->nargs && !st; a++) {
        const rdx_codegen_arg *ar = &k->args[a];
        if (ar->kind == RDX_CG_ARG_BUFFER) {
            if (ar->slot < 0 || (size_t)ar->slot >= nbufs)
                st = rdx_fail(RDX_ERR_INVALID, "realize: no buffer for PARAM slot %lld",
                              (long long)ar->slot);
            else
                args[a] = rdx_arg_buffer(bufs[ar->slot]);
        } else if (ar->kind == RDX_CG_ARG_VAR) {
            size_t j;
            for (j = 0; j < nvars && vars[j] != ar->node; j++)
                ;
            if (j == nvars) {
                st = rdx_fail(RDX_ERR_INVALID, "realize: variable '%s' has no value", ar->name);
            } else {
                kv[nkv++] = varvals[j];
                args[a] = ar->size == 8 ? rdx_arg_u64((uint64_t)varvals[j])
                                        : rdx_arg_i32((int32_t)varvals[j]);
            }
        } else {
            st = rdx_fail(RDX_ERR_UNSUPPORTED,
                          "realize: value argument (PARAM slot %lld) not supported",
                          (long long)ar->slot);
        }
    }
    rdx_launch l;
    memset(&l, 0, sizeof l);
    if (!st)
        st = rdx_codegen_launch(k, kv, nkv, l.global, l.block);
    if (!st)
        st = rdx_program_load(dev, k->code_object, k->code_object_size, name, &prog);
    if (!st)
        st = rdx_program_find(prog, name, &kern);
    uint64_t ticket = 0;
    if (!st) {
        l.kernel = kern;
        l.args = args;
        l.nargs = (uint32_t)k->nargs;
        st = rdx_queue_dispatch(q, &l, &ticket);
    }
    if (!st)
        st = rdx_queue_wait(q, ticket, REALIZE_WAIT_MS);
    if (!st)
        st = rdx_queue_dispatch_time(q, ticket, ns);
    rdx_program_free(prog);
    free(args);
    free(kv);
    rdx_codegen_kernel_free(k);
    return st;
}

int rdx_cmd_realize(int argc, char **argv)
{
    static const struct option opts[] = {
        { "input", required_argument, NULL, 'i' },
        { "var", required_argument, NULL, 'v' },
        { "seed", required_argument, NULL, 's' },
        { "raw", no_argument, NULL, 'r' },
        { "check", no_argument, NULL, 'c' },
        { "print", no_argument, NULL, 'p' },
        { "device", required_argument, NULL, 'd' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    rdx_device_options dopts;
    memset(&dopts, 0, sizeof dopts);
    dopts.kind = RDX_DEVICE_AUTO;
    dopts.emu_wave_budget = 2000000000ull;
    const char *vnames[16], *inpaths[64];
    long long inslots[64];
    int64_t vvals[16];
    size_t nv = 0, nin = 0;
    uint64_t seed = 1;
    int raw = 0, check = 0, print = 0, c;
    optind = 0;
    while ((c = getopt_long(argc, argv, "i:v:ph", opts, NULL)) != -1) {
        char *eq, *e = NULL;
        switch (c) {
        case 'i':
            eq = strchr(optarg, '=');
            if (!eq || nin == 64)
                return rdx_cli_usage_error("realize", "bad input '%s' (SLOT=FILE)", optarg);
            inslots[nin] = strtoll(optarg, &e, 10);
            if (e != eq)
                return rdx_cli_usage_error("realize", "bad slot in '%s'", optarg);
            inpaths[nin++] = eq + 1;
            break;
        case 'v':
            eq = strchr(optarg, '=');
            if (!eq || nv == 16)
                return rdx_cli_usage_error("realize", "bad variable '%s' (NAME=VALUE)", optarg);
            *eq = 0;
            vnames[nv] = optarg;
            vvals[nv] = strtoll(eq + 1, &e, 0);
            if (*e)
                return rdx_cli_usage_error("realize", "bad value '%s'", eq + 1);
            nv++;
            break;
        case 's':
            seed = strtoull(optarg, &e, 0);
            if (*e)
                return rdx_cli_usage_error("realize", "bad seed '%s'", optarg);
            break;
        case 'r':
            raw = 1;
            break;
        case 'c':
            check = 1;
            break;
        case 'p':
            print = 1;
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
    size_t n = 0;
    rdx_schedule *s = NULL;
    void **mem = NULL;
    size_t *bytes = NULL;
    int64_t *svals = NULL;
    rdx_array *want = NULL;
    rdx_device *dev = NULL;
    rdx_queue *q = NULL;
    rdx_buffer **gbuf = NULL;
    int rc = RDX_EXIT_OK;
    if (rdx_ir_ctx_create(&ctx) || rdx_interp_create(&ip) ||
        rdx_ir_parse(ctx, path, (const char *)text, len, &roots, &n) ||
        rdx_cg_schedule(ctx, roots, n, &s)) {
        rc = rdx_cli_fail("realize");
        goto out;
    }
    svals = calloc(s->nvars + 1, sizeof *svals);
    mem = calloc(s->nbuffers + 1, sizeof *mem);
    bytes = calloc(s->nbuffers + 1, sizeof *bytes);
    want = calloc(n + 1, sizeof *want);
    gbuf = calloc(s->nbuffers + 1, sizeof *gbuf);
    if (!svals || !mem || !bytes || !want || !gbuf) {
        rc = rdx_cli_fail("realize");
        goto out;
    }
    for (size_t k = 0; k < s->nvars; k++) {
        size_t j;
        for (j = 0; j < nv && strcmp(vnames[j], s->vars[k]->arg.str); j++)
            ;
        if (j == nv) {
            fprintf(stderr, "rdx realize: variable '%s' needs a value (-v %s=N)\n",
                    s->vars[k]->arg.str, s->vars[k]->arg.str);
            rc = RDX_EXIT_FAIL;
            goto out;
        }
        svals[k] = vvals[j];
        if (rdx_interp_bind_var(ip, s->vars[k], svals[k])) {
            rc = rdx_cli_fail("realize");
            goto out;
        }
    }
    for (size_t b = 0; b < s->nbuffers; b++) {
        const rdx_sched_buffer *sb = &s->buffers[b];
        int64_t ne = size_of(sb->numel, s, svals);
        if (ne < 0) {
            fprintf(stderr, "rdx realize: size of buffer %zu: %s\n", b, rdx_error_message());
            rc = RDX_EXIT_FAIL;
            goto out;
        }
        bytes[b] = (size_t)ne * rdx_dtype_itemsize(sb->dtype);
        mem[b] = calloc(1, bytes[b] + 64);
        if (!mem[b]) {
            rc = rdx_cli_fail("realize");
            goto out;
        }
        if (sb->kind != RDX_SBUF_INPUT)
            continue;
        const char *file = NULL;
        for (size_t i = 0; i < nin; i++)
            if (inslots[i] == sb->tensor->arg.i)
                file = inpaths[i];
        if (file) {
            uint8_t *d;
            size_t dl;
            if (rdx_file_read(file, &d, &dl)) {
                rc = rdx_cli_fail("realize");
                goto out;
            }
            if (dl != bytes[b]) {
                fprintf(stderr, "rdx realize: %s: %zu bytes, input slot %lld needs %zu\n", file, dl,
                        (long long)sb->tensor->arg.i, bytes[b]);
                free(d);
                rc = RDX_EXIT_FAIL;
                goto out;
            }
            memcpy(mem[b], d, dl);
            free(d);
        } else {
            fill_random(mem[b], sb->dtype, ne, &seed);
        }
        if (rdx_interp_bind(ip, sb->tensor, mem[b], bytes[b])) {
            rc = rdx_cli_fail("realize");
            goto out;
        }
    }
    if (rdx_device_open(&dopts, &dev) || rdx_queue_create(dev, RDX_QUEUE_COMPUTE, &q)) {
        rc = rdx_cli_fail("realize");
        goto out;
    }
    for (size_t b = 0; b < s->nbuffers; b++) {
        /* 64 spare bytes, as kernels may read whole vectors at a buffer's end */
        if (rdx_buffer_alloc(dev, bytes[b] + 64, RDX_MEM_DEVICE, &gbuf[b]) ||
            (s->buffers[b].kind == RDX_SBUF_INPUT && bytes[b] &&
             rdx_buffer_upload(gbuf[b], 0, mem[b], bytes[b]))) {
            fprintf(stderr, "rdx realize: buffer %zu: %s\n", b, rdx_error_message());
            rc = RDX_EXIT_FAIL;
            goto out;
        }
    }
    uint64_t total = 0;
    for (size_t k = 0; k < s->nkernels; k++) {
        const rdx_sched_kernel *kn = &s->kernels[k];
        const rdx_uop *ko;
        rdx_buffer *kb[64];
        uint64_t ns = 0;
        static const rdx_opt none[1];
        rdx_status st = kn->nparams > 64
                            ? rdx_fail(RDX_ERR_UNSUPPORTED, "kernel with more than 64 buffers")
                            : rdx_cg_optimize(ctx, kn->sink, raw ? none : NULL, 0, &ko);
        for (uint32_t p = 0; p < kn->nparams && p < 64; p++)
            kb[p] = gbuf[kn->params[p]];
        if (!st)
            st = run_kernel(dev, q, ctx, ko, kn->name, kb, kn->nparams, s->vars, svals, s->nvars,
                            &ns);
        if (st) {
            fprintf(stderr, "rdx realize: kernel %zu (%s): %s\n", k, kn->name, rdx_error_message());
            rc = RDX_EXIT_FAIL;
            goto out;
        }
        total += ns;
        printf("kernel %zu %-20s %12llu ns\n", k, kn->name, (unsigned long long)ns);
    }
    for (size_t r = 0; r < n; r++) {
        size_t b = s->outputs[r];
        if (bytes[b] && rdx_buffer_download(gbuf[b], 0, mem[b], bytes[b])) {
            fprintf(stderr, "rdx realize: output %zu: %s\n", r, rdx_error_message());
            rc = RDX_EXIT_FAIL;
            goto out;
        }
    }
    printf("total %llu ns GPU time on %s, %zu kernels\n", (unsigned long long)total,
           rdx_device_get_info(dev)->os_name, s->nkernels);
    if (check && rdx_interp_realize(ip, roots, n, want)) {
        rc = rdx_cli_fail("realize");
        goto out;
    }
    for (size_t r = 0; r < n; r++) {
        const rdx_sched_buffer *sb = &s->buffers[s->outputs[r]];
        const void *got = mem[s->outputs[r]];
        int64_t ne = (int64_t)(bytes[s->outputs[r]] / rdx_dtype_itemsize(sb->dtype));
        if (print) {
            rdx_array a;
            memset(&a, 0, sizeof a);
            a.dtype = sb->dtype;
            a.numel = ne;
            a.data = (void *)got;
            printf("output %zu:", r);
            for (int64_t i = 0; i < ne; i++)
                printf(" %.9g", rdx_array_get(&a, i));
            printf("\n");
        }
        if (!check)
            continue;
        int64_t bad = 0, first = -1;
        for (int64_t i = 0; i < ne && i < want[r].numel; i++)
            if (!close_enough(&want[r], got, i) && bad++ == 0)
                first = i;
        if (want[r].numel != ne || bad) {
            rdx_array g = want[r];
            g.data = (void *)got;
            fprintf(stderr,
                    "rdx realize: output %zu: %lld of %lld elements differ (first: element %lld "
                    "= %.9g, interpreter %.9g)\n",
                    r, (long long)bad, (long long)ne, (long long)first,
                    first >= 0 ? rdx_array_get(&g, first) : 0.0,
                    first >= 0 ? rdx_array_get(&want[r], first) : 0.0);
            rc = RDX_EXIT_FAIL;
        } else {
            printf("output %zu: matches the interpreter (%lld elements)\n", r, (long long)ne);
        }
    }
out:
    /* the queue first: destroying it waits for work still using the buffers */
    if (rdx_queue_destroy(q) && rc == RDX_EXIT_OK)
        rc = rdx_cli_fail("realize");
    for (size_t b = 0; s && gbuf && b < s->nbuffers; b++)
        rdx_buffer_free(gbuf[b]);
    free(gbuf);
    if (rdx_device_close(dev) && rc == RDX_EXIT_OK)
        rc = rdx_cli_fail("realize");
    for (size_t b = 0; s && mem && b < s->nbuffers; b++)
        free(mem[b]);
    free(mem);
    free(bytes);
    free(svals);
    free(want);
    rdx_schedule_free(s);
    rdx_interp_destroy(ip);
    free(roots);
    free(text);
    rdx_ir_ctx_destroy(ctx);
    return rc;
}
