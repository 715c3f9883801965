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
    fprintf(f, "Usage: rdx dis [options] IN\n"
               "\n"
               "Disassemble an HSA code object (each kernel, with its descriptor and the\n"
               "metadata) or, with --raw, a file of bare instruction bytes.  Instructions\n"
               "are printed as llvm-mc/llvm-objdump print them.\n"
               "\n"
               "Options:\n"
               "      --raw           IN holds raw instruction bytes (needs --arch)\n"
               "      --arch GFX      gfx1100 or gfx1201\n"
               "      --no-addr       do not print the offset and encoding comments\n"
               "  -h, --help          this help\n");
}

/* Disassemble code[0..n) starting at `base`; labels from kernels (may be NULL). */
static void dis_code(const rdx_isa_target *t, const uint8_t *code, size_t n,
                     const rdx_codeobj_kernel *ks, size_t nk, int addr)
{
    size_t off = 0;
    char text[512];
    while (off < n) {
        for (size_t i = 0; i < nk; i++)
            if (ks[i].code_offset == off)
                printf("%s%s:\n", off ? "\n" : "", ks[i].name);
        rdx_isa_inst in;
        size_t len = 0;
        if (rdx_isa_decode(t, code + off, n - off, &in, &len) == RDX_OK &&
            rdx_asm_print_inst(t, &in, text, sizeof text) == RDX_OK) {
            putchar('\t');
            fputs(text, stdout);
        } else {
            len = n - off >= 4 ? 4 : n - off;
            uint32_t w = 0;
            for (size_t k = 0; k < len; k++)
                w |= (uint32_t)code[off + k] << (8 * k);
            if (len == 4)
                printf("\t.long 0x%08x ; invalid instruction encoding", w);
            else
                printf("\t.byte 0x%02x ; trailing byte", code[off]), len = 1;
        }
        if (addr) {
            printf(" // %06zx:", off);
            for (size_t k = 0; k + 4 <= len; k += 4) {
                uint32_t w = 0;
                for (size_t b = 0; b < 4; b++)
                    w |= (uint32_t)code[off + k + b] << (8 * b);
                printf(" %08X", w);
            }
        }
        putchar('\n');
        off += len;
    }
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
        return rdx_cli_usage_error("dis", "--raw needs --arch gfx1100|gfx1201");
    const rdx_isa_target *t = NULL;
    if (arch && !(t = rdx_isa_target_find(arch)))
        return rdx_cli_usage_error("dis", "unknown target '%s'", arch);
    uint8_t *data;
    size_t len;
    if (rdx_file_read(argv[optind], &data, &len) != RDX_OK)
        return rdx_cli_fail("dis");
    if (raw) {
        dis_code(t, data, len, NULL, 0, addr);
        free(data);
        return RDX_EXIT_OK;
    }
    rdx_codeobj *co;
    rdx_status st = rdx_codeobj_read(data, len, argv[optind], &co);
    free(data);
    if (st != RDX_OK)
        return rdx_cli_fail("dis");
    if (!t)
        t = rdx_isa_target_find(co->target->name);
    if (!t) {
        fprintf(stderr, "rdx dis: no instruction tables for %s\n", co->target->name);
        rdx_codeobj_free(co);
        return RDX_EXIT_FAIL;
    }
    printf("; %s code object v%u, target %s\n", argv[optind], co->version, co->target->name);
    for (size_t i = 0; i < co->num_kernels; i++) {
        printf("; kernel %s at .text+0x%llx, descriptor:\n", co->kernels[i].name,
               (unsigned long long)co->kernels[i].code_offset);
        rdx_codeobj_print_kd(stdout, &co->kernels[i].kd, co->target->major, ";   ");
    }
    printf("; metadata:\n");
    rdx_codeobj_print_metadata(stdout, co);
    printf("\n\t.text\n");
    dis_code(t, co->text, co->text_size, co->kernels, co->num_kernels, addr);
    rdx_codeobj_free(co);
    return RDX_EXIT_OK;
}
