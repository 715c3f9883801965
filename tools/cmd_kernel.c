/* tools/cmd_kernel.c — `rdx kernel`: compile one kernel-form UOp file with the codegen back end. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codegen.h>
#include <rdx/ir.h>

#include "tools/cli.h"
#include "util/file.h"

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: rdx kernel [options] FILE.uop\n"
            "Compile a kernel-form UOp graph (docs/codegen-kernel-form.md) to a code\n"
            "object with the codegen back end.\n"
            "Options:\n"
            "  -t, --target GFX      the target (default gfx1100), one of:\n"
            "                        %s\n"
            "  -o, --output OUT.co   write the code object\n"
            "  -p, --print STAGE     print a stage: isel, linear, regalloc, asm (repeatable)\n"
            "  -n, --name NAME       kernel symbol (default \"kernel\")\n"
            "  -w, --wg-size N       workgroup size for idx/GLOBAL dimensions (default 256)\n"
            "  -h, --help            show this help\n"
            "Without -o and -p, prints the kernel's arguments, launch and register counts.\n",
            rdx_codegen_target_list());
}

int rdx_cmd_kernel(int argc, char **argv)
{
    static const struct option opts[] = {
        { "output", required_argument, NULL, 'o' },
        { "print", required_argument, NULL, 'p' },
        { "name", required_argument, NULL, 'n' },
        { "wg-size", required_argument, NULL, 'w' },
        { "target", required_argument, NULL, 't' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *outp = NULL;
    rdx_codegen_options o;
    memset(&o, 0, sizeof o);
    int c;
    optind = 0;
    while ((c = getopt_long(argc, argv, "o:p:n:w:t:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            outp = optarg;
            break;
        case 'p': {
            int s = rdx_codegen_stage_find(optarg);
            if (s < 0)
                return rdx_cli_usage_error(
                    "kernel", "unknown stage '%s' (isel, linear, regalloc, asm)", optarg);
            o.keep_stages |= 1u << s;
            break;
        }
        case 'n':
            o.name = optarg;
            break;
        case 't':
            o.target = optarg; /* checked by rdx_codegen_compile (names the targets) */
            break;
        case 'w': {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (*end || v < 1 || v > 1024)
                return rdx_cli_usage_error("kernel", "bad workgroup size '%s' (1..1024)", optarg);
            o.wg_size = (uint32_t)v;
            break;
        }
        case 'h':
            usage(stdout);
            return RDX_EXIT_OK;
        default:
            return rdx_cli_usage_error("kernel", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return rdx_cli_usage_error("kernel", "expected one FILE.uop");
    const char *path = argv[optind];
    uint8_t *text;
    size_t len;
    if (rdx_file_read(path, &text, &len))
        return rdx_cli_fail("kernel");
    rdx_ir_ctx *ctx;
    if (rdx_ir_ctx_create(&ctx)) {
        free(text);
        return rdx_cli_fail("kernel");
    }
    const rdx_uop **roots = NULL;
    size_t n = 0;
    rdx_codegen_kernel *k = NULL;
    int rc = RDX_EXIT_OK;
    if (rdx_ir_parse(ctx, path, (const char *)text, len, &roots, &n)) {
        rc = rdx_cli_fail("kernel");
        goto out;
    }
    if (n != 1) {
        fprintf(stderr, "rdx kernel: %s: expected one output (a SINK), got %zu\n", path, n);
        rc = RDX_EXIT_FAIL;
        goto out;
    }
    if (rdx_codegen_compile(ctx, roots[0], &o, &k)) {
        rc = rdx_cli_fail("kernel");
        goto out;
    }
    for (int s = 0; s < RDX_CG_STAGE_COUNT; s++)
        if (k->stage_text[s])
            printf("; ---- %s\n%s", rdx_codegen_stage_name((rdx_codegen_stage)s), k->stage_text[s]);
    if (outp && rdx_file_write(outp, k->code_object, k->code_object_size)) {
        rc = rdx_cli_fail("kernel");
        goto out;
    }
    if (!outp && !o.keep_stages) {
        printf("kernarg %u bytes:", k->kernarg_size);
        for (size_t a = 0; a < k->nargs; a++) {
            char d[48];
            const rdx_codegen_arg *ar = &k->args[a];
            printf(" [%u] %s %s", ar->offset,
                   ar->kind == RDX_CG_ARG_BUFFER  ? "buffer"
                   : ar->kind == RDX_CG_ARG_VALUE ? "value"
                                                  : "var",
                   ar->kind == RDX_CG_ARG_VAR ? ar->name : rdx_dtype_str(ar->dtype, d, sizeof d));
        }
        printf("\n%u SGPRs, %u VGPRs, %u bytes LDS, %u bytes of code, workgroup", k->num_sgprs,
               k->num_vgprs, k->lds_size, k->code_size);
        for (unsigned d = 0; d < k->ndims; d++)
            printf(" %u", k->dims[d].wg);
        printf("\n");
    }
out:
    rdx_codegen_kernel_free(k);
    free(roots);
    free(text);
    rdx_ir_ctx_destroy(ctx);
    return rc;
}
