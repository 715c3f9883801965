/*
 * tests/oracle/metadata.c — the AMDHSA kernel metadata as llvm-readelf --notes
 * prints it (YAML): per kernel its arguments (offset, size, value kind, type name)
 * and segment sizes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/oracle/oracle_int.h"

/* One "key: value" line: the key's column, whether it opens a list item. */
typedef struct md_line {
    int col;
    int item;
    char key[48];
    char val[40];
} md_line;

static int parse_line(const char *s, size_t len, md_line *l)
{
    size_t i = 0;
    while (i < len && s[i] == ' ')
        i++;
    l->item = 0;
    if (i + 1 < len && s[i] == '-' && s[i + 1] == ' ') {
        l->item = 1;
        i += 2;
        while (i < len && s[i] == ' ')
            i++;
    }
    if (i >= len || s[i] != '.')
        return 0;
    l->col = (int)i;
    size_t k = 0;
    i++;
    while (i < len && s[i] != ':' && k + 1 < sizeof l->key)
        l->key[k++] = s[i++];
    l->key[k] = 0;
    if (i >= len || s[i] != ':')
        return 0;
    i++;
    while (i < len && s[i] == ' ')
        i++;
    size_t v = 0;
    while (i < len && v + 1 < sizeof l->val) {
        if (s[i] != '\'')
            l->val[v++] = s[i];
        i++;
    }
    l->val[v] = 0;
    return 1;
}

static uint32_t num(const char *s)
{
    return (uint32_t)strtoul(s, NULL, 0);
}

int rdx_oracle_md_parse(const char *text, const char *name, rdx_oracle_md *md, char *err,
                        size_t errlen)
{
    /* Kernel entries are list items at column 4 ("  - .args:"); argument entries are
     * list items deeper in. Parse each kernel, keep the one named `name`. */
    rdx_oracle_md cur;
    int have = 0, found = 0, bad = 0;
    const char *p = text;
    while (p && *p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        md_line l;
        if (strncmp(p, "amdhsa.", 7) == 0 || strncmp(p, "File:", 5) == 0) {
            if (have && strcmp(cur.name, name) == 0) {
                *md = cur;
                found = 1;
            }
            have = 0;
        } else if (parse_line(p, len, &l)) {
            if (l.col <= 4 && l.item) {
                if (have && strcmp(cur.name, name) == 0) {
                    *md = cur;
                    found = 1;
                }
                memset(&cur, 0, sizeof cur);
                have = 1;
            }
            if (have && l.col > 4) {
                if (l.item) {
                    if (cur.nargs >= RDX_ORACLE_MAX_MD_ARGS)
                        bad = 1;
                    else
                        cur.nargs++;
                }
                if (cur.nargs > 0 && !bad) {
                    rdx_oracle_md_arg *a = &cur.args[cur.nargs - 1];
                    if (!strcmp(l.key, "offset"))
                        a->offset = num(l.val);
                    else if (!strcmp(l.key, "size"))
                        a->size = num(l.val);
                    else if (!strcmp(l.key, "value_kind"))
                        snprintf(a->value_kind, sizeof a->value_kind, "%s", l.val);
                    else if (!strcmp(l.key, "type_name"))
                        snprintf(a->type_name, sizeof a->type_name, "%s", l.val);
                }
            } else if (have) {
                if (!strcmp(l.key, "name"))
                    snprintf(cur.name, sizeof cur.name, "%s", l.val);
                else if (!strcmp(l.key, "kernarg_segment_size"))
                    cur.kernarg_segment_size = num(l.val);
                else if (!strcmp(l.key, "group_segment_fixed_size"))
                    cur.group_segment_fixed_size = num(l.val);
                else if (!strcmp(l.key, "private_segment_fixed_size"))
                    cur.private_segment_fixed_size = num(l.val);
                else if (!strcmp(l.key, "wavefront_size"))
                    cur.wavefront_size = num(l.val);
                else if (!strcmp(l.key, "sgpr_count"))
                    cur.sgpr_count = num(l.val);
                else if (!strcmp(l.key, "vgpr_count"))
                    cur.vgpr_count = num(l.val);
            }
        }
        p = e ? e + 1 : NULL;
    }
    if (have && strcmp(cur.name, name) == 0) {
        *md = cur;
        found = 1;
    }
    if (bad)
        return rdx_oracle_err(err, errlen, "metadata: more than %d arguments",
                              RDX_ORACLE_MAX_MD_ARGS);
    if (!found)
        return rdx_oracle_err(err, errlen, "metadata: no kernel named '%s' (.name)", name);
    if (md->kernarg_segment_size == 0 || md->wavefront_size == 0)
        return rdx_oracle_err(err, errlen,
                              "metadata of '%s': missing .kernarg_segment_size or "
                              ".wavefront_size",
                              name);
    for (int a = 0; a < md->nargs; a++)
        if (!md->args[a].value_kind[0] || !md->args[a].size ||
            md->args[a].offset + md->args[a].size > md->kernarg_segment_size)
            return rdx_oracle_err(err, errlen,
                                  "metadata of '%s': argument %d has no value kind, no size or "
                                  "lies outside the kernarg segment",
                                  name, a);
    return 0;
}
