/* tools/cmd_pm4.c — `rdx pm4 FILE`: disassemble a PM4 or SDMA command buffer. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/pm4.h>

#include "tools/cli.h"
#include "util/error.h"
#include "util/file.h"

static void help(void)
{
    printf("Usage: rdx pm4 [options] FILE\n"
           "\n"
           "Print every packet of a gfx11 command buffer with its fields, and every\n"
           "register it writes with the register's fields, by name.  FILE holds\n"
           "little-endian dwords (or hex text with --hex).  Malformed packets are\n"
           "reported with their dword offset.\n"
           "\n"
           "Options:\n"
           "  --sdma            the stream is SDMA (v6) packets, not PM4\n"
           "  --base ADDR       print GPU addresses ADDR + 4*dword instead of offsets\n"
           "  --offset BYTES    start BYTES into the file (multiple of 4)\n"
           "  --count DWORDS    decode at most DWORDS dwords\n"
           "  --hex             FILE is text: whitespace/comma separated hex dwords\n"
           "                    ('0x' optional; '#' starts a comment)\n"
           "  -h, --help        show this help\n"
           "\n"
           "Exit status: 0 all packets well-formed, 1 malformed stream or unreadable\n"
           "file, 2 bad usage.\n");
}

/* Parse hex text into dwords; returns a malloc'd array or NULL (error recorded). */
static uint32_t *parse_hex(const char *path, const char *text, size_t *ndw)
{
    size_t cap = 64, n = 0;
    uint32_t *dw = malloc(cap * sizeof *dw);
    if (!dw) {
        rdx_fail(RDX_ERR_NOMEM, "out of memory reading '%s'", path);
        return NULL;
    }
    unsigned lineno = 1;
    const char *p = text;
    while (*p) {
        if (*p == '#') {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        if (*p == '\n')
            lineno++;
        if (isspace((unsigned char)*p) || *p == ',') {
            p++;
            continue;
        }
        const char *s = p;
        if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
            p += 2;
        const char *digits = p;
        uint64_t v = 0;
        while (isxdigit((unsigned char)*p)) {
            v = v * 16 + (uint64_t)(isdigit((unsigned char)*p) ? *p - '0' : (*p | 0x20) - 'a' + 10);
            p++;
            if (v > 0xffffffffu)
                break;
        }
        if (p == digits || v > 0xffffffffu ||
            (*p && !isspace((unsigned char)*p) && *p != ',' && *p != '#')) {
            int len = 0;
            while (s[len] && !isspace((unsigned char)s[len]) && len < 20)
                len++;
            rdx_fail(RDX_ERR_PARSE, "%s:%u: expected a 32-bit hex dword, found '%.*s'", path,
                     lineno, len, s);
            free(dw);
            return NULL;
        }
        if (n == cap) {
            uint32_t *q = realloc(dw, 2 * cap * sizeof *dw);
            if (!q) {
                free(dw);
                rdx_fail(RDX_ERR_NOMEM, "out of memory reading '%s'", path);
                return NULL;
            }
            dw = q;
            cap *= 2;
        }
        dw[n++] = (uint32_t)v;
    }
    *ndw = n;
    return dw;
}

int rdx_cmd_pm4(int argc, char **argv)
{
    enum { OPT_SDMA = 1, OPT_BASE, OPT_OFFSET, OPT_COUNT, OPT_HEX };
    static const struct option opts[] = {
        { "help", no_argument, NULL, 'h' },
        { "sdma", no_argument, NULL, OPT_SDMA },
        { "base", required_argument, NULL, OPT_BASE },
        { "offset", required_argument, NULL, OPT_OFFSET },
        { "count", required_argument, NULL, OPT_COUNT },
        { "hex", no_argument, NULL, OPT_HEX },
        { NULL, 0, NULL, 0 },
    };
    rdx_pm4_disasm_opts o = { 0 };
    uint64_t offset = 0, count = UINT64_MAX;
    int hex = 0, c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h':
            help();
            return RDX_EXIT_OK;
        case OPT_SDMA:
            o.sdma = true;
            break;
        case OPT_BASE:
            if (rdx_cli_parse_u64(optarg, &o.base))
                return rdx_cli_usage_error("pm4", "--base: '%s' is not an address", optarg);
            o.has_base = true;
            break;
        case OPT_OFFSET:
            if (rdx_cli_parse_u64(optarg, &offset) || offset % 4)
                return rdx_cli_usage_error("pm4", "--offset: '%s' is not a multiple of 4", optarg);
            break;
        case OPT_COUNT:
            if (rdx_cli_parse_u64(optarg, &count))
                return rdx_cli_usage_error("pm4", "--count: '%s' is not a number", optarg);
            break;
        case OPT_HEX:
            hex = 1;
            break;
        default:
            return rdx_cli_usage_error("pm4", "unknown option");
        }
    }
    if (optind + 1 != argc)
        return rdx_cli_usage_error("pm4", "expected one FILE, got %d", argc - optind);
    const char *path = argv[optind];

    uint8_t *data;
    size_t len;
    if (rdx_file_read(path, &data, &len))
        return rdx_cli_fail("pm4");
    uint32_t *dw;
    size_t ndw;
    if (hex) {
        dw = parse_hex(path, (const char *)data, &ndw);
        free(data);
        if (!dw)
            return rdx_cli_fail("pm4");
        if (offset / 4 > ndw) {
            free(dw);
            rdx_fail(RDX_ERR_RANGE, "%s: --offset %llu is past the end (%zu dwords)", path,
                     (unsigned long long)offset, ndw);
            return rdx_cli_fail("pm4");
        }
    } else {
        if (len % 4) {
            free(data);
            rdx_fail(RDX_ERR_PARSE, "%s: %zu bytes is not a whole number of dwords", path, len);
            return rdx_cli_fail("pm4");
        }
        if (offset > len) {
            free(data);
            rdx_fail(RDX_ERR_RANGE, "%s: --offset %llu is past the end (%zu bytes)", path,
                     (unsigned long long)offset, len);
            return rdx_cli_fail("pm4");
        }
        ndw = len / 4;
        dw = malloc(ndw ? ndw * 4 : 4);
        if (!dw) {
            free(data);
            rdx_fail(RDX_ERR_NOMEM, "out of memory reading '%s'", path);
            return rdx_cli_fail("pm4");
        }
        for (size_t i = 0; i < ndw; i++)
            dw[i] = (uint32_t)data[4 * i] | (uint32_t)data[4 * i + 1] << 8 |
                    (uint32_t)data[4 * i + 2] << 16 | (uint32_t)data[4 * i + 3] << 24;
        free(data);
    }
    size_t first = (size_t)(offset / 4);
    size_t n = ndw - first;
    if (count < n)
        n = (size_t)count;
    if (o.has_base)
        o.base += offset; /* addresses of the bytes actually shown */

    char *text;
    rdx_status st = rdx_pm4_disasm(dw + first, n, &o, &text);
    free(dw);
    if (st == RDX_ERR_NOMEM)
        return rdx_cli_fail("pm4");
    fputs(text, stdout);
    free(text);
    if (st)
        return rdx_cli_fail("pm4");
    return RDX_EXIT_OK;
}
