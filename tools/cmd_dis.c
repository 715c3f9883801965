/* tools/cmd_dis.c — `rdx dis`: disassemble a code object or raw instruction bytes. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>
#include <rdx/codeobj.h>
#include <rdx/isa.h>

#include "tools/cli.h"
#include "util/file.h"

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: rdx dis [options] IN\n"
            "\n"
            "Disassemble an HSA code object or, with --raw, a file of bare instruction\n"
            "bytes.  Instructions are printed as llvm-mc/llvm-objdump print them; a code\n"
            "object becomes a listing rdx as accepts again (kernel labels, each\n"
            "descriptor as an .amdhsa_kernel block, the metadata as .amdgpu_metadata).\n"
            "\n"
            "Options:\n"
            "      --raw           IN holds raw instruction bytes (needs --arch)\n"
            "      --arch GFX      gfx1100, gfx1201, ... (the targets of isa/targets/targets.txt)\n"
            "      --no-addr       do not print the offset and encoding comments\n"
            "  -h, --help          this help\n");
}

int rdx_cmd_dis(int argc, char **argv)
{
    static const struct option opts[] = {
        { "raw", no_argument, NULL, 'r' },        { "arch", required_argument, NULL, 'a' },
        { "mcpu", required_argument, NULL, 'a' }, { "no-addr", no_argument, NULL, 'n' },
        { "help", no_argument, NULL, 'h' },       { NULL, 0, NULL, 0 },
    };
    const char *arch = NULL;
    int raw = 0, addr = 1, c;
    opterr = 0;
    while ((c = getopt_long_only(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'r':
            raw = 1;
            break;
        case 'a':
            arch = optarg;
            break;
        case 'n':
            addr = 0;
            break;
        case 'h':
            usage(stdout);
            return RDX_EXIT_OK;
        default:
            return rdx_cli_usage_error("dis", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind + 1 != argc)
        return rdx_cli_usage_error("dis", "expected one input file");
    if (raw && !arch)
        return rdx_cli_usage_error("dis", "--raw needs --arch GFX (e.g. gfx1100)");
    const rdx_isa_target *t = NULL;
    if (arch && !(t = rdx_isa_target_find(arch)))
        return rdx_cli_usage_error("dis", "unknown target '%s'", arch);
    uint8_t *data;
    size_t len;
    if (rdx_file_read(argv[optind], &data, &len) != RDX_OK)
        return rdx_cli_fail("dis");
    unsigned flags = addr ? 0 : RDX_ASM_DIS_NO_ADDR;
    if (raw) {
        rdx_asm_disassemble(stdout, t, data, len, 0, NULL, NULL, 0, flags);
        free(data);
        return RDX_EXIT_OK;
    }
    rdx_codeobj *co;
    rdx_status st = rdx_codeobj_read(data, len, argv[optind], &co);
    free(data);
    if (st != RDX_OK)
        return rdx_cli_fail("dis");
    st = rdx_asm_disassemble_codeobj(stdout, co, argv[optind], flags);
    rdx_codeobj_free(co);
    return st == RDX_OK ? RDX_EXIT_OK : rdx_cli_fail("dis");
}
