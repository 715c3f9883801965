/* tests/codeobj/co_helpers.c — oracle plumbing for the code-object tests. */
#include "tests/codeobj/co_test.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int co_llvm_major = 19;

static const char *co_tool(const char *tool)
{
    const char *path = co_llvm_major == 19 ? rdx_test_llvm_tool(tool)
                                           : rdx_test_llvm_tool_version(tool, co_llvm_major);
    ck_assert_msg(path != NULL, "LLVM %d tool %s not found (run scripts/setup)", co_llvm_major,
                  tool);
    return path;
}

char *co_llvm(const char *tool, ...)
{
    const char *argv[32];
    int n = 0;
    argv[n++] = co_tool(tool);
    va_list ap;
    va_start(ap, tool);
    const char *a;
    while ((a = va_arg(ap, const char *)) && n < 31)
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    rdx_test_proc p;
    rdx_test_run(argv, NULL, 0, &p);
    ck_assert_msg(p.status == 0, "%s %s failed (%d): %s", tool, argv[1], p.status, p.err);
    char *out = p.out;
    p.out = NULL;
    rdx_test_proc_free(&p);
    return out;
}

static int split_flags(char *extra, const char **argv, int n, int max)
{
    for (char *t = strtok(extra, " "); t && n < max; t = strtok(NULL, " "))
        argv[n++] = t;
    return n;
}

static char *compile(const char *mcpu, const char *extra, const char *mode, const char *out)
{
    char mcpu_flag[64], *ex = strdup(extra);
    snprintf(mcpu_flag, sizeof mcpu_flag, "-mcpu=%s", mcpu);
    const char *argv[32] = { co_tool("clang"), "-x",        "cl",
                             "-cl-std=CL2.0",  "-target",   "amdgcn-amd-amdhsa",
                             mcpu_flag,        "-nogpulib", "-O2" };
    int n = 9;
    if (mode)
        argv[n++] = mode;
    n = split_flags(ex, argv, n, 26);
    argv[n++] = "-o";
    argv[n++] = out;
    argv[n++] = CO_KERNELS_CL;
    argv[n] = NULL;
    rdx_test_proc p;
    rdx_test_run(argv, NULL, 0, &p);
    ck_assert_msg(p.status == 0, "clang %s %s failed: %s", mcpu, extra, p.err);
    rdx_test_proc_free(&p);
    free(ex);
    return NULL;
}

char *co_compile(const char *mcpu, const char *extra, int reloc, const char *out_name)
{
    char *path = rdx_test_tmp_path(out_name);
    compile(mcpu, extra, reloc ? "-c" : NULL, path);
    return path;
}

char *co_compile_asm(const char *mcpu, const char *extra)
{
    char *path = rdx_test_tmp_path("kernels.s");
    compile(mcpu, extra, "-S", path);
    char *text = rdx_test_read_file(path, NULL);
    free(path);
    return text;
}

void co_lines_add(co_lines *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        ck_assert(l->v != NULL);
    }
    l->v[l->n++] = strdup(s);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void co_lines_sort(co_lines *l)
{
    if (l->n)
        qsort(l->v, l->n, sizeof *l->v, cmp_str);
}

void co_lines_free(co_lines *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

void co_lines_assert_equal(const co_lines *got, const co_lines *want, const char *what)
{
    size_t n = got->n < want->n ? got->n : want->n;
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(!strcmp(got->v[i], want->v[i]),
                      "%s: entry %zu differs: got '%s', expected '%s'", what, i, got->v[i],
                      want->v[i]);
    ck_assert_msg(got->n == want->n, "%s: got %zu entries, expected %zu (next: '%s')", what, got->n,
                  want->n,
                  got->n > want->n ? got->v[n]
                  : want->n > n    ? want->v[n]
                                   : "");
}

/* ---- YAML flattening (the subset llvm-readelf prints) ---- */

typedef struct yframe {
    int col;
    int kind; /* 0 map, 1 list, 2 pending (key without value) */
    int index;
    char path[256];
} yframe;

/* dst = a + "/" + b (or b when a is empty); asserts it fits. */
static void join(char *dst, size_t n, const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    ck_assert(la + lb + 2 <= n);
    char tmp[1024];
    ck_assert(la + lb + 2 <= sizeof tmp);
    memcpy(tmp, a, la);
    size_t o = la;
    if (la)
        tmp[o++] = '/';
    memcpy(tmp + o, b, lb + 1);
    memcpy(dst, tmp, o + lb + 1);
}

static void unquote(const char *s, char *out, size_t max)
{
    if (!strncmp(s, "!str ", 5)) /* LLVM tags strings YAML would read otherwise ("n") */
        s += 5;
    size_t n = strlen(s);
    while (n && s[n - 1] == ' ')
        n--;
    size_t o = 0;
    if (n >= 2 && s[0] == '\'' && s[n - 1] == '\'') {
        for (size_t i = 1; i + 1 < n && o + 1 < max; i++) {
            out[o++] = s[i];
            if (s[i] == '\'' && s[i + 1] == '\'')
                i++;
        }
    } else if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
        for (size_t i = 1; i + 1 < n && o + 1 < max; i++)
            out[o++] = s[i];
    } else {
        for (size_t i = 0; i < n && o + 1 < max; i++)
            out[o++] = s[i];
    }
    out[o] = 0;
}

static void emit_kv(co_lines *out, const char *path, const char *raw)
{
    char v[512], line[1024];
    unquote(raw, v, sizeof v);
    snprintf(line, sizeof line, "%s=%s", path, v);
    co_lines_add(out, line);
}

void co_flatten_llvm_notes(const char *text, co_lines *out)
{
    const char *start = strstr(text, "\n---\n");
    if (!start) {
        start = strstr(text, "---\n");
        ck_assert_msg(start != NULL, "no YAML document in llvm-readelf output:\n%s", text);
    } else {
        start++;
    }
    start += 4;
    yframe st[32];
    int top = 0;
    st[0] = (yframe){ 0, 0, 0, "" };
    const char *line = start;
    while (*line) {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        char buf[1024];
        ck_assert(len < sizeof buf);
        memcpy(buf, line, len);
        buf[len] = 0;
        line = eol ? eol + 1 : line + len;
        if (!strcmp(buf, "..."))
            break;
        int col = 0;
        while (buf[col] == ' ')
            col++;
        char *s = buf + col;
        if (!*s)
            continue;
        char path[256];
        /* List items: "- " possibly followed by "key: value" or a scalar. */
        while (s[0] == '-' && (s[1] == ' ' || s[1] == 0)) {
            while (top > 0 && st[top].col > col)
                top--;
            if (st[top].kind == 2) {
                st[top].kind = 1;
                st[top].col = col;
                st[top].index = 0;
            } else {
                ck_assert_msg(st[top].kind == 1 && st[top].col == col,
                              "unexpected list item at column %d: %s", col, buf);
                st[top].index++;
            }
            snprintf(path, sizeof path, "%s[%d]", st[top].path, st[top].index);
            s += 2;
            col += 2;
            char *colon = strstr(s, ": ");
            size_t sl = strlen(s);
            bool key_only = sl && s[sl - 1] == ':';
            if (!colon && !key_only) {
                emit_kv(out, path, s);
                s = NULL;
                break;
            }
            /* A map item: push it and handle the key below. */
            ck_assert(top + 1 < 32);
            st[++top] = (yframe){ col, 0, 0, "" };
            snprintf(st[top].path, sizeof st[top].path, "%s", path);
        }
        if (!s)
            continue;
        while (top > 0 && st[top].col > col)
            top--;
        if (st[top].kind == 2) { /* nested map under a pending key */
            st[top].kind = 0;
            st[top].col = col;
        }
        ck_assert_msg(st[top].kind == 0, "unexpected key at column %d: %s", col, buf);
        char *colon = strstr(s, ": ");
        size_t sl = strlen(s);
        char key[256];
        if (colon) {
            *colon = 0;
            unquote(s, key, sizeof key);
            join(path, sizeof path, st[top].path, key);
            char *v = colon + 2;
            while (*v == ' ')
                v++;
            emit_kv(out, path, v);
        } else {
            ck_assert_msg(sl && s[sl - 1] == ':', "cannot parse YAML line: %s", buf);
            s[sl - 1] = 0;
            unquote(s, key, sizeof key);
            ck_assert(top + 1 < 32);
            yframe *f = &st[++top];
            f->col = col + 1; /* children are deeper than the key */
            f->kind = 2;
            f->index = 0;
            join(f->path, sizeof f->path, st[top - 1].path, key);
        }
    }
    co_lines_sort(out);
}

static void flatten(const rdx_msgpack_node *n, const char *path, co_lines *out)
{
    char line[1024], sub[512];
    switch (n->kind) {
    case RDX_MSGPACK_MAP:
        if (n->len == 0) {
            snprintf(line, sizeof line, "%s={}", path);
            break;
        }
        for (uint32_t i = 0; i < n->len; i++) {
            const rdx_msgpack_node *k = &n->v.items[2 * i];
            ck_assert_msg(k->kind == RDX_MSGPACK_STR, "non-string key under %s", path);
            snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "/" : "", k->v.str);
            flatten(&n->v.items[2 * i + 1], sub, out);
        }
        return;
    case RDX_MSGPACK_ARRAY:
        if (n->len == 0) {
            snprintf(line, sizeof line, "%s=[]", path); /* as YAML prints it */
            break;
        }
        for (uint32_t i = 0; i < n->len; i++) {
            snprintf(sub, sizeof sub, "%s[%u]", path, i);
            flatten(&n->v.items[i], sub, out);
        }
        return;
    case RDX_MSGPACK_STR:
        snprintf(line, sizeof line, "%s=%s", path, n->v.str);
        break;
    case RDX_MSGPACK_UINT:
        snprintf(line, sizeof line, "%s=%" PRIu64, path, n->v.u);
        break;
    case RDX_MSGPACK_INT:
        snprintf(line, sizeof line, "%s=%" PRId64, path, n->v.i);
        break;
    case RDX_MSGPACK_BOOL:
        snprintf(line, sizeof line, "%s=%s", path, n->v.b ? "true" : "false");
        break;
    default:
        ck_abort_msg("unexpected %s in metadata at %s", rdx_msgpack_kind_name(n->kind), path);
    }
    co_lines_add(out, line);
}

void co_flatten_doc(const rdx_msgpack_node *n, co_lines *out)
{
    flatten(n, "", out);
    co_lines_sort(out);
}

/* ---- .amdhsa_ directive blocks ---- */

size_t co_kernel_directives(const char *text, const char *kernel, co_directive *out, size_t max)
{
    char head[256];
    snprintf(head, sizeof head, ".amdhsa_kernel %s\n", kernel);
    const char *p = strstr(text, head);
    ck_assert_msg(p != NULL, "no '.amdhsa_kernel %s' block", kernel);
    p += strlen(head);
    const char *end = strstr(p, ".end_amdhsa_kernel");
    ck_assert(end != NULL);
    size_t n = 0;
    while (p < end) {
        const char *eol = strchr(p, '\n');
        if (!eol || eol > end)
            eol = end;
        const char *s = p;
        while (s < eol && (*s == ' ' || *s == '\t'))
            s++;
        char name[80] = "";
        long long v = 0;
        int got = 0;
        if (*s == '.' && sscanf(s + 1, "%79s %lld", name, &v) == 2)
            got = 1;
        else if (*s == ';' && sscanf(s + 1, "%79s %lld", name, &v) == 2)
            got = 1;
        if (got) {
            ck_assert(n < max);
            for (char *c = name; *c; c++)
                *c = (char)tolower((unsigned char)*c);
            snprintf(out[n].name, sizeof out[n].name, "%s", name);
            out[n].value = v;
            n++;
        }
        p = eol + 1;
    }
    return n;
}

static long long find_dir(const co_directive *d, size_t n, const char *name, long long dflt)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(d[i].name, name))
            return d[i].value;
    return dflt;
}

size_t co_check_directives(const co_directive *d, size_t n, const rdx_kernel_descriptor *kd,
                           unsigned major, const char *what)
{
    size_t checked = 0;
    bool wave32 = kd->enable_wavefront_size32;
    for (size_t i = 0; i < n; i++) {
        const char *name = d[i].name;
        long long v = d[i].value, got;
        if (!strcmp(name, "amdhsa_group_segment_fixed_size")) {
            got = kd->group_segment_fixed_size;
        } else if (!strcmp(name, "amdhsa_private_segment_fixed_size")) {
            got = kd->private_segment_fixed_size;
        } else if (!strcmp(name, "amdhsa_kernarg_size")) {
            got = kd->kernarg_size;
        } else if (!strcmp(name, "amdhsa_next_free_vgpr")) {
            v = rdx_codeobj_vgpr_granules(major, wave32, (uint32_t)v);
            got = kd->granulated_workitem_vgpr_count;
        } else if (!strcmp(name, "amdhsa_next_free_sgpr")) {
            long long total = v + 2 * find_dir(d, n, "amdhsa_reserve_vcc", 1);
            v = rdx_codeobj_sgpr_granules(major, (uint32_t)total);
            got = kd->granulated_wavefront_sgpr_count;
            /* GFX10+ reserve the field: LLVM 20 and later write 0 there, clang 19
             * the granule; both are what the compiler meant. */
            if (major >= 10 && got == 0)
                got = v;
        } else if (!strcmp(name, "amdhsa_reserve_vcc") ||
                   !strcmp(name, "amdhsa_reserve_xnack_mask") ||
                   !strcmp(name, "amdhsa_reserve_flat_scratch")) {
            continue; /* inputs of next_free_sgpr, not descriptor fields */
        } else {
            const rdx_kd_field *f = rdx_codeobj_kd_field_find(name, major);
            ck_assert_msg(f != NULL, "%s: directive/field '%s' is unknown to rdx for gfx%u", what,
                          name, major);
            got = rdx_codeobj_kd_get(kd, f);
        }
        ck_assert_msg(got == v, "%s: %s is %lld in the oracle, rdx says %lld", what, name, v, got);
        checked++;
    }
    return checked;
}

uint8_t *co_section_bytes(const char *path, const char *sec, uint64_t *addr, size_t *len)
{
    char *out = co_llvm("llvm-readelf", "-x", sec, path, (char *)NULL);
    size_t cap = 4096, n = 0;
    uint8_t *b = malloc(cap);
    bool first = true;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        unsigned long long a;
        char rest[256];
        /* "  0x00000800 00000000 00000000 14000000 00000000 ................" */
        if (sscanf(line, " 0x%llx %255[^\n]", &a, rest) != 2)
            continue;
        if (strlen(rest) > 35)
            rest[35] = 0; /* four 8-digit words; the ASCII column follows */
        if (first && addr)
            *addr = a;
        first = false;
        const char *p = rest;
        for (int w = 0; w < 4; w++) {
            while (*p == ' ')
                p++;
            int digits = 0;
            while (isxdigit((unsigned char)p[digits]))
                digits++;
            if (digits == 0 || digits % 2 || (p[digits] != ' ' && p[digits] != 0))
                break;
            for (int i = 0; i < digits; i += 2) {
                unsigned byte;
                sscanf(p + i, "%2x", &byte);
                if (n == cap)
                    b = realloc(b, cap *= 2);
                b[n++] = (uint8_t)byte;
            }
            p += digits;
        }
    }
    free(out);
    *len = n;
    return b;
}
