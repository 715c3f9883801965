/* codegen/opt_text.c — OptOp sequences as text: "SPLIT(1,4,UPCAST) LDS(2,0,LOOP)",
 * the form `rdx compile -p optimize` prints and `rdx compile --opts` reads. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codegen_front.h>

#include "util/error.h"

size_t rdx_opts_format(const rdx_opt *o, size_t n, char *buf, size_t cap)
{
    size_t at = 0;
    if (cap)
        buf[0] = 0;
    for (size_t k = 0; k < n; k++) {
        char one[96];
        int len = snprintf(one, sizeof one, "%s%s(%d,%lld,%s%s)", k ? " " : "",
                           rdx_optop_name(o[k].op), o[k].axis, (long long)o[k].amount,
                           rdx_axistype_name(o[k].target), o[k].top ? ",1" : "");
        if (len > 0 && at + (size_t)len < cap)
            memcpy(buf + at, one, (size_t)len + 1);
        at += len > 0 ? (size_t)len : 0;
    }
    return at;
}

/* The enum value whose name (or, for axis types, letter) is word[0..len); -1 if none. */
static int optop_of(const char *w, size_t len)
{
    for (int k = 0; k < RDX_OPTOP_COUNT; k++) {
        const char *nm = rdx_optop_name((rdx_optop)k);
        if (strlen(nm) == len && !strncmp(nm, w, len))
            return k;
    }
    return -1;
}

static int axistype_of(const char *w, size_t len)
{
    static const char letters[] = {
#define L_(n, c) c,
        RDX_AXIS_LIST(L_)
#undef L_
    };
    for (int k = 0; k < RDX_AXIS_COUNT; k++) {
        const char *nm = rdx_axistype_name((rdx_axistype)k);
        if ((strlen(nm) == len && !strncmp(nm, w, len)) || (len == 1 && w[0] == letters[k]))
            return k;
    }
    return -1;
}

/* An integer at *p (decimal or 0x hex) into *v; advances *p. */
static int read_int(const char **p, long long *v)
{
    char *end;
    errno = 0;
    *v = strtoll(*p, &end, 0);
    if (end == *p || errno)
        return -1;
    *p = end;
    return 0;
}

#define BAD(what)                                                                       \
    rdx_fail(RDX_ERR_INVALID, "opts: column %zu (opt %zu): expected %s, found '%.12s'", \
             (size_t)(p - text) + 1, n + 1, what, *p ? p : "end of text")

rdx_status rdx_opts_parse(const char *text, rdx_opt *out, size_t cap, size_t *nout)
{
    if (!text || (!out && cap) || !nout)
        return rdx_fail(RDX_ERR_INVALID, "opts: NULL argument");
    const char *p = text;
    size_t n = 0;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (!*p)
            break;
        const char *w = p;
        while (isupper((unsigned char)*p))
            p++;
        int op = optop_of(w, (size_t)(p - w));
        if (op < 0) {
            p = w;
            return BAD("an OptOp name (SPLIT, PADTO, SWAP, NOLOCALS, TC, LDS)");
        }
        if (n == cap)
            return rdx_fail(RDX_ERR_RANGE, "opts: more than %zu opts", cap);
        rdx_opt o = { (rdx_optop)op, 0, 0, RDX_AXIS_LOOP, 0 };
        long long axis = 0, amount = 0, top = 0;
        if (*p != '(')
            return BAD("'('");
        p++;
        if (read_int(&p, &axis) || axis < 0 || axis >= RDX_CG_MAX_AXES)
            return BAD("an axis (0..31)");
        if (*p++ != ',') {
            p--;
            return BAD("','");
        }
        if (read_int(&p, &amount))
            return BAD("an amount");
        if (*p++ != ',') {
            p--;
            return BAD("','");
        }
        w = p;
        while (isalpha((unsigned char)*p) || *p == '_')
            p++;
        int t = axistype_of(w, (size_t)(p - w));
        if (t < 0) {
            p = w;
            return BAD("an axis type (GLOBAL, LOCAL, WARP, LOOP, REDUCE, GROUP_REDUCE, UPCAST, "
                       "UNROLL, or its letter g l w L R G u r)");
        }
        if (*p == ',') {
            p++;
            if (read_int(&p, &top) || (top != 0 && top != 1))
                return BAD("top: 0 or 1");
        }
        if (*p != ')')
            return BAD("')'");
        p++;
        o.axis = (int32_t)axis;
        o.amount = amount;
        o.target = (rdx_axistype)t;
        o.top = (int)top;
        out[n++] = o;
    }
    *nout = n;
    return RDX_OK;
}
