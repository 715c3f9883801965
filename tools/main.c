/* tools/main.c — the rdx command: dispatch to a subcommand. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <rdx/version.h>

#include "tools/cli.h"

typedef struct rdx_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
} rdx_command;

static const rdx_command commands[] = {
#define RDX_CMD(name, summary) { #name, summary, rdx_cmd_##name },
#include "tools/commands.def"
#undef RDX_CMD
    { NULL, NULL, NULL },
};

static void usage(FILE *out)
{
    fprintf(out, "Usage: rdx <command> [options] [args]\n"
                 "       rdx --help | --version\n"
                 "\n"
                 "rdx takes tensor programs and AMD RDNA kernels to the GPU with no vendor\n"
                 "runtime: assembler, code objects, emulator and driver in one tool.\n"
                 "\n"
                 "Commands:\n");
    int any = 0;
    for (const rdx_command *c = commands; c->name; c++) {
        fprintf(out, "  %-10s %s\n", c->name, c->summary);
        any = 1;
    }
    if (!any)
        fprintf(out, "  (none yet)\n");
    fprintf(out, "\n"
                 "Run 'rdx <command> --help' for a command's options.\n"
                 "Exit status: 0 success, 1 the work failed, 2 bad usage.\n");
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    /* Only parse options before the subcommand ('+' stops at the first non-option). */
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "+hV", opts, NULL)) != -1) {
        switch (c) {
        case 'h':
            usage(stdout);
            return RDX_EXIT_OK;
        case 'V':
            printf("rdx %s\n", rdx_version());
            return RDX_EXIT_OK;
        default:
            fprintf(stderr, "rdx: unknown option '%s'\n", argv[optind - 1]);
            usage(stderr);
            return RDX_EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        usage(stderr);
        return RDX_EXIT_USAGE;
    }
    const char *name = argv[optind];
    if (!strcmp(name, "help")) {
        if (optind + 1 >= argc) {
            usage(stdout);
            return RDX_EXIT_OK;
        }
        name = argv[optind + 1];
        for (const rdx_command *cmd = commands; cmd->name; cmd++) {
            if (!strcmp(cmd->name, name)) {
                char *sub[] = { argv[optind + 1], "--help", NULL };
                optind = 0; /* full reset of getopt for the subcommand */
                return cmd->run(2, sub);
            }
        }
        fprintf(stderr, "rdx: unknown command '%s' (see 'rdx --help')\n", name);
        return RDX_EXIT_USAGE;
    }
    for (const rdx_command *cmd = commands; cmd->name; cmd++) {
        if (!strcmp(cmd->name, name)) {
            int sub_argc = argc - optind;
            char **sub_argv = argv + optind;
            optind = 0; /* full reset of getopt for the subcommand */
            opterr = 1;
            return cmd->run(sub_argc, sub_argv);
        }
    }
    fprintf(stderr, "rdx: unknown command '%s' (see 'rdx --help')\n", name);
    return RDX_EXIT_USAGE;
}
