/* tools/cmd_eval.c — `rdx eval`: evaluate a UOp graph in text form with the reference interpreter.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/interp.h>
#include <rdx/ir.h>

#include "tools/cli.h"
#include "util/error.h"
#include "util/file.h"

static void usage(FILE *out)
{
    fprintf(
        out,
        "Usage: rdx eval FILE.uop [options]\n"
        "Evaluate the outputs of FILE (text form, docs/ir.md) with the reference interpreter\n"
        "(docs/tensor.md) and print or save them.\n"
        "Options:\n"
        "  -i, --input SLOT=FILE   data for the BUFFER/PARAM with that slot: raw bytes in its\n"
        "                          dtype, or numbers separated by spaces if FILE ends in .txt\n"
        "                          (unbound BUFFERs read as zeros)\n"
        "  -v, --var NAME=VALUE    bind the DEFINE_VAR called NAME\n"
        "  -p, --print             print every output's values (default: dtype and shape only)\n"
        "  -o, --output PREFIX     write output k as raw bytes to PREFIXk.bin\n"
        "  -h, --help              show this help\n");
}

typedef struct input {
    long long slot;
    const char *path;
} input;

/* Every BUFFER/PARAM/DEFINE_VAR reachable from the roots. */
static rdx_status leaves(const rdx_uop *const *roots, size_t n, const rdx_uop ***out, size_t *nout)
{
    size_t cap = 16, cnt = 0;
    const rdx_uop **v = malloc(cap * sizeof *v);
    if (!v)
        return rdx_fail(RDX_ERR_NOMEM, "out of memory");
    for (size_t r = 0; r < n; r++) {
        const rdx_uop **order;
        size_t m;
        rdx_status st = rdx_ir_toposort(roots[r], &order, &m);
        if (st) {
            free(v);
            return st;
        }
        for (size_t k = 0; k < m; k++) {
            const rdx_uop *u = order[k];
            if (u->op != RDX_OP_BUFFER && u->op != RDX_OP_PARAM && u->op != RDX_OP_DEFINE_VAR)
                continue;
            int dup = 0;
            for (size_t j = 0; j < cnt; j++)
                dup |= v[j] == u;
            if (dup)
                continue;
            if (cnt == cap) {
                void *nv = realloc(v, (cap *= 2) * sizeof *v);
                if (!nv) {
                    free(order);
                    free(v);
                    return rdx_fail(RDX_ERR_NOMEM, "out of memory");
                }
                v = nv;
            }
            v[cnt++] = u;
        }
        free(order);
    }
    *out = v;
    *nout = cnt;
    return RDX_OK;
}

/* Parse numbers of a .txt file into elements of dtype d. */
static rdx_status parse_numbers(const char *path, const char *text, size_t len, rdx_dtype d,
                                uint8_t **out, size_t *nbytes)
{
    size_t es = rdx_dtype_itemsize(d), cap = 64, cnt = 0;
    uint8_t *buf = malloc(cap * es);
    if (!buf)
        return rdx_fail(RDX_ERR_NOMEM, "out of memory");
    const char *p = text, *end = text + len;
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r' || *p == ','))
            p++;
        if (p >= end)
            break;
        char tok[64];
        size_t t = 0;
        while (p < end && t < sizeof tok - 1 && *p != ' ' && *p != '\n' && *p != '\t' &&
               *p != '\r' && *p != ',')
            tok[t++] = *p++;
        tok[t] = 0;
        char *e;
        errno = 0;
        double v = strtod(tok, &e);
        long long iv = strtoll(tok, NULL, 0);
        if (*e || errno) {
            free(buf);
            return rdx_fail(RDX_ERR_PARSE, "%s: element %zu: '%s' is not a number", path, cnt, tok);
        }
        if (cnt == cap) {
            void *nb = realloc(buf, (cap *= 2) * es);
            if (!nb) {
                free(buf);
                return rdx_fail(RDX_ERR_NOMEM, "out of memory");
            }
            buf = nb;
        }
        uint8_t *q = buf + cnt * es;
        switch (d.scalar) {
#define C_(S, T, V)              \
    case S: {                    \
        T x = (T)(V);            \
        memcpy(q, &x, sizeof x); \
        break;                   \
    }
            C_(RDX_BOOL, uint8_t, v != 0)
            C_(RDX_INT8, int8_t, iv)
            C_(RDX_UINT8, uint8_t, iv)
            C_(RDX_INT16, int16_t, iv)
            C_(RDX_UINT16, uint16_t, iv)
            C_(RDX_INT32, int32_t, iv)
            C_(RDX_UINT32, uint32_t, iv)
            C_(RDX_INT64, int64_t, iv)
            C_(RDX_UINT64, uint64_t, strtoull(tok, NULL, 0))
            C_(RDX_INDEX, int64_t, iv)
            C_(RDX_FLOAT32, float, v)
            C_(RDX_FLOAT64, double, v)
            C_(RDX_FLOAT16, uint16_t, rdx_f64_to_f16(v))
            C_(RDX_BFLOAT16, uint16_t, rdx_f64_to_bf16(v))
#undef C_
        default:
            free(buf);
            return rdx_fail(RDX_ERR_INVALID, "%s: cannot read numbers of this dtype", path);
        }
        cnt++;
    }
    *out = buf;
    *nbytes = cnt * es;
    return RDX_OK;
}

static rdx_status bind_input(rdx_interp *ip, const rdx_uop *const *lv, size_t nl, const input *in)
{
    const rdx_uop *node = NULL;
    for (size_t k = 0; k < nl; k++)
        if ((lv[k]->op == RDX_OP_BUFFER || lv[k]->op == RDX_OP_PARAM) && lv[k]->arg.i == in->slot)
            node = lv[k];
    if (!node)
        return rdx_fail(RDX_ERR_NOT_FOUND, "--input %lld: no BUFFER or PARAM with slot %lld",
                        in->slot, in->slot);
    uint8_t *data;
    size_t len;
    rdx_status st = rdx_file_read(in->path, &data, &len);
    if (st)
        return st;
    size_t pl = strlen(in->path);
    if (pl > 4 && !strcmp(in->path + pl - 4, ".txt")) {
        uint8_t *nums = NULL;
        size_t nb = 0;
        st = parse_numbers(in->path, (const char *)data, len, node->dtype, &nums, &nb);
        free(data);
        if (st)
            return st;
        data = nums, len = nb;
    }
    st = rdx_interp_bind(ip, node, data, len);
    free(data);
    return st;
}

static void print_array(size_t k, const rdx_array *a, int values)
{
    char d[32];
    printf("output %zu: %s[", k, rdx_dtype_str(a->dtype, d, sizeof d));
    for (uint32_t j = 0; j < a->ndim; j++)
        printf("%s%" PRId64, j ? "," : "", a->dims[j]);
    printf("]");
    if (values && a->dtype.scalar != RDX_VOID) {
        printf(" =");
        for (int64_t j = 0; j < a->numel; j++) {
            if (rdx_dtype_is_float(a->dtype))
                printf(" %.9g", rdx_array_get(a, j));
            else if (a->dtype.scalar == RDX_UINT64)
                printf(" %" PRIu64, (uint64_t)rdx_array_get_int(a, j));
            else
                printf(" %" PRId64, rdx_array_get_int(a, j));
        }
    }
    printf("\n");
}

int rdx_cmd_eval(int argc, char **argv)
{
    static const struct option opts[] = {
        { "input", required_argument, NULL, 'i' }, { "var", required_argument, NULL, 'v' },
        { "print", no_argument, NULL, 'p' },       { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },        { NULL, 0, NULL, 0 },
    };
    input ins[64];
    const char *vars[64], *prefix = NULL;
    size_t nin = 0, nvar = 0;
    int show = 0, c;
    optind = 0;
    while ((c = getopt_long(argc, argv, "i:v:po:h", opts, NULL)) != -1) {
        switch (c) {
        case 'i': {
            const char *eq = strchr(optarg, '=');
            char *e;
            long long slot = strtoll(optarg, &e, 10);
            if (!eq || e != eq || eq == optarg || !eq[1])
                return rdx_cli_usage_error("eval", "--input expects SLOT=FILE, got '%s'", optarg);
            if (nin == 64)
                return rdx_cli_usage_error("eval", "too many --input options");
            ins[nin++] = (input){ slot, eq + 1 };
            break;
        }
        case 'v':
            if (!strchr(optarg, '=') || nvar == 64)
                return rdx_cli_usage_error("eval", "--var expects NAME=VALUE, got '%s'", optarg);
            vars[nvar++] = optarg;
            break;
        case 'p':
            show = 1;
            break;
        case 'o':
            prefix = optarg;
            break;
        case 'h':
            usage(stdout);
            return RDX_EXIT_OK;
        default:
            return rdx_cli_usage_error("eval", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return rdx_cli_usage_error("eval", "expected one FILE");
    const char *path = argv[optind];
    uint8_t *text;
    size_t len;
    if (rdx_file_read(path, &text, &len))
        return rdx_cli_fail("eval");
    rdx_ir_ctx *ctx = NULL;
    rdx_interp *ip = NULL;
    const rdx_uop **roots = NULL, **lv = NULL;
    size_t n = 0, nl = 0;
    int rc = RDX_EXIT_OK;
    rdx_array *out = NULL;
    if (rdx_ir_ctx_create(&ctx) || rdx_interp_create(&ip) ||
        rdx_ir_parse(ctx, path, (const char *)text, len, &roots, &n) ||
        leaves(roots, n, &lv, &nl)) {
        rc = rdx_cli_fail("eval");
        goto done;
    }
    for (size_t k = 0; k < nin; k++)
        if (bind_input(ip, lv, nl, &ins[k])) {
            rc = rdx_cli_fail("eval");
            goto done;
        }
    for (size_t k = 0; k < nvar; k++) {
        const char *eq = strchr(vars[k], '=');
        const rdx_uop *var = NULL;
        for (size_t j = 0; j < nl; j++)
            if (lv[j]->op == RDX_OP_DEFINE_VAR &&
                strlen(lv[j]->arg.str) == (size_t)(eq - vars[k]) &&
                !strncmp(lv[j]->arg.str, vars[k], (size_t)(eq - vars[k])))
                var = lv[j];
        char *e;
        long long v = strtoll(eq + 1, &e, 10);
        if (!var || *e) {
            rc = rdx_cli_usage_error("eval", "--var %s: no such variable or bad value", vars[k]);
            goto done;
        }
        if (rdx_interp_bind_var(ip, var, v)) {
            rc = rdx_cli_fail("eval");
            goto done;
        }
    }
    out = calloc(n ? n : 1, sizeof *out);
    if (!out || rdx_interp_realize(ip, roots, n, out)) {
        if (!out)
            rdx_fail(RDX_ERR_NOMEM, "out of memory");
        rc = rdx_cli_fail("eval");
        goto done;
    }
    for (size_t k = 0; k < n; k++) {
        print_array(k, &out[k], show);
        if (prefix && out[k].dtype.scalar != RDX_VOID) {
            char fn[4096];
            snprintf(fn, sizeof fn, "%s%zu.bin", prefix, k);
            if (rdx_file_write(fn, out[k].data,
                               (size_t)out[k].numel * rdx_dtype_itemsize(out[k].dtype))) {
                rc = rdx_cli_fail("eval");
                goto done;
            }
        }
    }
done:
    free(out);
    free(lv);
    free(roots);
    rdx_interp_destroy(ip);
    rdx_ir_ctx_destroy(ctx);
    free(text);
    return rc;
}
