/*
 * tools/cli.h — shared conventions of the rdx subcommands.
 */
#ifndef RDX_TOOLS_CLI_H
#define RDX_TOOLS_CLI_H

#include <stdint.h>
#include <stdio.h>

/* Exit codes of every subcommand. */
enum { RDX_EXIT_OK = 0, RDX_EXIT_FAIL = 1, RDX_EXIT_USAGE = 2 };

#define RDX_CMD(name, summary) int rdx_cmd_##name(int argc, char **argv);
#include "tools/commands.def"
#undef RDX_CMD

/*
 * Print "rdx <cmd>: <message>\nTry 'rdx <cmd> --help'.\n" to stderr and return
 * RDX_EXIT_USAGE.  For bad usage detected by a subcommand.
 */
int rdx_cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Print "rdx <cmd>: <rdx_error_message()>" to stderr and return RDX_EXIT_FAIL. */
int rdx_cli_fail(const char *cmd);

/* Parse a whole unsigned number (decimal, 0x hex or 0 octal) into *out; -1 when s is
 * not one (empty, trailing text, a minus sign, out of range), else 0. */
int rdx_cli_parse_u64(const char *s, uint64_t *out);

#endif /* RDX_TOOLS_CLI_H */
