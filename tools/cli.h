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
 * not one (empty, not starting with a digit, trailing text, out of range), else 0. */
int rdx_cli_parse_u64(const char *s, uint64_t *out);

/*
 * Parse the comma list X[,Y[,Z]] of option `opt` (e.g. "--grid") into d
 * (missing dimensions are 1).  Every field must be an integer 1..2^32-1: an
 * empty field, a trailing comma, a non-number, zero, overflow or a fourth
 * dimension is a usage error naming the option and the dimension (printed;
 * returns RDX_EXIT_USAGE), else RDX_EXIT_OK.
 */
int rdx_cli_parse_dims(const char *cmd, const char *opt, const char *s, uint32_t d[3]);

/* The emulated GPU's targets (rdx_emudev_target_name, in its order) as text:
 * "gfx1100, gfx1101, ...". */
const char *rdx_cli_emu_targets(void);

#endif /* RDX_TOOLS_CLI_H */
