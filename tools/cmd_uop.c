/* tools/cmd_uop.c — `rdx uop`: check, print and simplify UOp graphs in the text form. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/ir.h>

#include "tools/cli.h"
#include "util/file.h"

static void usage(FILE *out)
{
    fprintf(out, "Usage: rdx uop check FILE      verify FILE and print its outputs' derived\n"
                 "                               properties (dtype[shape] device addr min_max)\n"
                 "       rdx uop print FILE      print FILE in canonical text form\n"
                 "       rdx uop simplify FILE   apply the symbolic rules and print the result\n"
                 "Options:\n"
                 "  -a, --annotate   with print/simplify: add each node's properties as comments\n"
                 "  -h, --help       show this help\n"
                 "The text form is described in docs/ir.md.\n");
}

int rdx_cmd_uop(int argc, char **argv)
{
    static const struct option opts[] = {
        { "annotate", no_argument, NULL, 'a' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int annotate = 0, c;
    optind = 0; /* full getopt reset: the subcommand parses its own argv */
    while ((c = getopt_long(argc, argv, "ah", opts, NULL)) != -1) {
        switch (c) {
        case 'a':
            annotate = 1;
            break;
        case 'h':
            usage(stdout);
            return RDX_EXIT_OK;
        default:
            return rdx_cli_usage_error("uop", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 2)
        return rdx_cli_usage_error("uop", "expected an action (check, print, simplify) and a FILE");
    const char *action = argv[optind], *path = argv[optind + 1];
    int act = !strcmp(action, "check")      ? 0
              : !strcmp(action, "print")    ? 1
              : !strcmp(action, "simplify") ? 2
                                            : -1;
    if (act < 0)
        return rdx_cli_usage_error("uop", "unknown action '%s' (expected check, print or simplify)",
                                   action);
    uint8_t *text;
    size_t len;
    if (rdx_file_read(path, &text, &len))
        return rdx_cli_fail("uop");
    rdx_ir_ctx *ctx;
    if (rdx_ir_ctx_create(&ctx)) {
        free(text);
        return rdx_cli_fail("uop");
    }
    const rdx_uop **roots = NULL;
    size_t n = 0;
    int rc = RDX_EXIT_OK;
    if (rdx_ir_parse(ctx, path, (const char *)text, len, &roots, &n)) {
        rc = rdx_cli_fail("uop");
        goto out;
    }
    if (act == 0) {
        for (size_t k = 0; k < n; k++) {
            char d[1024];
            printf("output %zu: %s %s\n", k, rdx_op_name((rdx_op)roots[k]->op),
                   rdx_uop_describe(roots[k], d, sizeof d));
        }
        goto out;
    }
    if (act == 2) {
        for (size_t k = 0; k < n; k++) {
            if (rdx_ir_simplify(ctx, roots[k], &roots[k]) || rdx_ir_verify(ctx, roots[k])) {
                rc = rdx_cli_fail("uop");
                goto out;
            }
        }
    }
    char *out;
    if (rdx_ir_print(roots, n, annotate, &out)) {
        rc = rdx_cli_fail("uop");
        goto out;
    }
    fputs(out, stdout);
    free(out);
out:
    free(roots);
    free(text);
    rdx_ir_ctx_destroy(ctx);
    return rc;
}
