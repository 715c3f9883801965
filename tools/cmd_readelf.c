/* tools/cmd_readelf.c — `rdx readelf OBJ`: print a code object's kernels, descriptors, metadata. */
#include <getopt.h>
#include <stdio.h>

#include <rdx/codeobj.h>

#include "tools/cli.h"

static void usage(FILE *out)
{
    fprintf(out, "Usage: rdx readelf [--help] OBJ...\n"
                 "\n"
                 "Print an AMDGPU code object: target, kernels, every kernel descriptor field\n"
                 "by name, relocations (relocatable objects) and the NT_AMDGPU_METADATA note\n"
                 "as YAML.  Reads rdx's objects and LLVM's (ld.lld shared objects, clang -c).\n"
                 "\n"
                 "  -h, --help   show this help\n");
}

int rdx_cmd_readelf(int argc, char **argv)
{
    static const struct option opts[] = {
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h':
            usage(stdout);
            return RDX_EXIT_OK;
        default:
            return rdx_cli_usage_error("readelf", "unknown option");
        }
    }
    if (optind >= argc)
        return rdx_cli_usage_error("readelf", "no code object given");
    int rc = RDX_EXIT_OK;
    for (int i = optind; i < argc; i++) {
        rdx_codeobj *co;
        if (rdx_codeobj_read_file(argv[i], &co)) {
            rc = rdx_cli_fail("readelf");
            continue;
        }
        if (argc - optind > 1)
            printf("%sFile: %s\n", i > optind ? "\n" : "", argv[i]);
        rdx_codeobj_print(stdout, co);
        rdx_codeobj_free(co);
    }
    return rc;
}
