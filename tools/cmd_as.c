/* tools/cmd_as.c — `rdx as`: assemble an AMDGPU assembly file into a code object. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>

#include "tools/cli.h"
#include "util/file.h"

static void usage(FILE *f)
{
    fprintf(f, "Usage: rdx as [options] IN.s -o OUT\n"
               "\n"
               "Assemble AMDGPU assembly (llvm-mc syntax) for an RDNA3/RDNA4 target into an HSA\n"
               "code object (one kernel per .amdhsa_kernel block).\n"
               "\n"
               "Options:\n"
               "  -o, --output FILE   where to write (required unless --show-encoding)\n"
               "      --arch GFX      gfx1100, gfx1201, ... (also -mcpu=GFX); default: the\n"
               "                      file's .amdgcn_target, else gfx1100\n"
               "      --raw           write the bare .text bytes instead of a code object\n"
               "      --show-encoding print each statement's bytes and source line on stdout\n"
               "  -h, --help          this help\n"
               "\n"
               "Errors are printed as FILE:LINE:COL: error: MESSAGE, all of them; exit 1.\n");
}

int rdx_cmd_as(int argc, char **argv)
{
    static const struct option opts[] = {
        { "output", required_argument, NULL, 'o' },
        { "arch", required_argument, NULL, 'a' },
        { "mcpu", required_argument, NULL, 'a' },
        { "raw", no_argument, NULL, 'r' },
        { "show-encoding", no_argument, NULL, 's' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *output = NULL, *arch = NULL;
    int raw = 0, show = 0, c;
    opterr = 0;
    while ((c = getopt_long_only(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            output = optarg;
            break;
        case 'a':
            arch = optarg;
            break;
        case 'r':
            raw = 1;
            break;
        case 's':
            show = 1;
            break;
        case 'h':
            usage(stdout);
            return RDX_EXIT_OK;
        default:
            return rdx_cli_usage_error("as", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind + 1 != argc)
        return rdx_cli_usage_error("as", "expected one input file");
    if (!output && !show)
        return rdx_cli_usage_error("as", "missing -o OUT");
    const char *in = argv[optind];
    uint8_t *src;
    size_t len;
    if (rdx_file_read(in, &src, &len) != RDX_OK)
        return rdx_cli_fail("as");
    rdx_asm_options o = { .filename = in, .arch = arch };
    rdx_asm_result *r = NULL;
    rdx_status st = rdx_asm_assemble((const char *)src, len, &o, &r);
    free(src);
    if (!r)
        return rdx_cli_fail("as");
    int rc = RDX_EXIT_OK;
    if (st != RDX_OK) {
        for (size_t i = 0; i < r->ndiags; i++)
            fprintf(stderr, "%s\n", r->diags[i].text);
        rc = RDX_EXIT_FAIL;
    }
    if (rc == RDX_EXIT_OK && show) {
        for (size_t i = 0; i < r->nstmts; i++) {
            const rdx_asm_stmt *s = &r->stmts[i];
            const uint8_t *d = r->sections[s->section].data + s->offset;
            for (size_t k = 0; k < s->size; k++)
                printf("%02x", d[k]);
            printf("\t%u\n", s->line);
        }
    }
    if (rc == RDX_EXIT_OK && output) {
        if (raw) {
            int text = rdx_asm_find_section(r, ".text");
            st = rdx_file_write(output, text >= 0 ? r->sections[text].data : (const uint8_t *)"",
                                text >= 0 ? r->sections[text].size : 0);
        } else {
            uint8_t *obj;
            size_t olen;
            st = rdx_asm_write_codeobj(r, &obj, &olen);
            if (st == RDX_OK) {
                st = rdx_file_write(output, obj, olen);
                free(obj);
            }
        }
        if (st != RDX_OK)
            rc = rdx_cli_fail("as");
    }
    rdx_asm_free(r);
    return rc;
}
