/* tools/cli.c — shared helpers of the rdx subcommands. */
#include "tools/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

#include <rdx/status.h>

int rdx_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "rdx %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'rdx %s --help'.\n", cmd);
    return RDX_EXIT_USAGE;
}

int rdx_cli_fail(const char *cmd)
{
    fprintf(stderr, "rdx %s: %s\n", cmd, rdx_error_message());
    return RDX_EXIT_FAIL;
}

int rdx_cli_parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end || *s == '-')
        return -1;
    *out = v;
    return 0;
}
