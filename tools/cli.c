/* tools/cli.c — shared helpers of the rdx subcommands. */
#include "tools/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/emudev.h>
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
    if (*s < '0' || *s > '9') /* strtoull would skip spaces and take a sign */
        return -1;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end)
        return -1;
    *out = v;
    return 0;
}

int rdx_cli_parse_dims(const char *cmd, const char *opt, const char *s, uint32_t d[3])
{
    static const char *const axis[] = { "X", "Y", "Z" };
    d[0] = d[1] = d[2] = 1;
    if (!*s)
        return rdx_cli_usage_error(cmd, "%s '': expected X[,Y[,Z]] of integers >= 1", opt);
    const char *p = s;
    for (int n = 0;; n++) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (n == 3)
            return rdx_cli_usage_error(cmd, "%s %s: more than 3 dimensions (X[,Y[,Z]])", opt, s);
        if (len == 0)
            return rdx_cli_usage_error(
                cmd, "%s %s: dimension %d (%s) is empty%s, expected an integer >= 1", opt, s, n + 1,
                axis[n], comma ? "" : " (a trailing comma)");
        char tok[64];
        uint64_t v = 0;
        int bad = len >= sizeof tok;
        if (!bad) {
            memcpy(tok, p, len);
            tok[len] = 0;
            bad = rdx_cli_parse_u64(tok, &v);
        }
        if (bad && strspn(p, "0123456789") >= len)
            return rdx_cli_usage_error(cmd,
                                       "%s %s: dimension %d (%s) %.*s is too large, "
                                       "expected 1..%u",
                                       opt, s, n + 1, axis[n], (int)len, p, UINT32_MAX);
        if (bad)
            return rdx_cli_usage_error(cmd, "%s %s: dimension %d (%s) '%.*s' is not a number", opt,
                                       s, n + 1, axis[n], (int)len, p);
        if (v == 0 || v > UINT32_MAX)
            return rdx_cli_usage_error(cmd, "%s %s: dimension %d (%s) is %s, expected 1..%u", opt,
                                       s, n + 1, axis[n], tok, UINT32_MAX);
        d[n] = (uint32_t)v;
        if (!comma)
            return RDX_EXIT_OK;
        p = comma + 1;
    }
}

const char *rdx_cli_emu_targets(void)
{
    static char list[256]; /* built once: the CLI is single-threaded */
    if (!list[0]) {
        size_t at = 0;
        const char *n;
        for (uint32_t i = 0; (n = rdx_emudev_target_name(i)) && at < sizeof list; i++) {
            int w = snprintf(list + at, sizeof list - at, "%s%s", i ? ", " : "", n);
            if (w < 0)
                break;
            at += (size_t)w;
        }
    }
    return list;
}
