/*
 * tests/oracle/mnemonics.c — the instructions the corpus's code objects contain
 * (llvm-objdump -d over all of them, one run): what an emulator must implement to
 * run the corpus, and where each instruction first appears.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/oracle/oracle_int.h"
#include "tests/harness/harness.h"

static int by_name(const void *a, const void *b)
{
    return strcmp(((const rdx_oracle_mnemonic *)a)->name, ((const rdx_oracle_mnemonic *)b)->name);
}

/* The entry and level of a code-object path "<dir>/<id>-O<n>.co". */
static void where_of(const rdx_oracle *o, const char *path, char *out, size_t len)
{
    snprintf(out, len, "?");
    for (int i = 0; i < o->nk; i++)
        for (int opt = 0; opt < RDX_ORACLE_NOPT; opt++)
            if (o->ks[i].co_path[opt] && !strcmp(o->ks[i].co_path[opt], path))
                snprintf(out, len, "%s %s", o->ks[i].k->id, rdx_oracle_opts[opt]);
}

rdx_oracle_mnemonic *rdx_oracle_mnemonics(const rdx_oracle *o, int *count, char *err, size_t errlen)
{
    char objdump[512];
    const char *t = rdx_test_llvm_tool("llvm-objdump");
    snprintf(objdump, sizeof objdump, "%s", t ? t : "");
    *count = 0;
    if (!objdump[0]) {
        rdx_oracle_err(err, errlen, "llvm-objdump not found");
        return NULL;
    }
    char mcpu[48];
    snprintf(mcpu, sizeof mcpu, "--mcpu=%s", o->target);
    const char *const head[] = { objdump, "-d", "--no-show-raw-insn", "--no-leading-addr",
                                 mcpu,    NULL };
    int status;
    char *text = rdx_oracle_tool_on_code_objects(o, head, "objdump.txt", &status);
    if (!text) {
        rdx_oracle_err(err, errlen, "llvm-objdump -d failed (status %d)", status);
        return NULL;
    }
    int cap = 256, nm = 0;
    rdx_oracle_mnemonic *m = malloc((size_t)cap * sizeof *m);
    char where[96] = "?";
    for (char *line = text; m && line && *line;) {
        char *e = strchr(line, '\n');
        if (e)
            *e = 0;
        size_t len = strlen(line);
        /* "<path>:\tfile format elf64-amdgpu" starts a file; "\t<mnemonic> ..." an instruction */
        char *ff = strstr(line, ":\tfile format ");
        if (ff) {
            *ff = 0;
            where_of(o, line, where, sizeof where);
        } else if (len > 1 && line[0] == '\t' && line[1] >= 'a' && line[1] <= 'z') {
            size_t w = strcspn(line + 1, " \t");
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(w < 63 ? w : 63), line + 1);
            int seen = 0;
            for (int k = 0; k < nm && !seen; k++)
                seen = !strcmp(m[k].name, name);
            if (!seen) {
                if (nm == cap) {
                    rdx_oracle_mnemonic *g = realloc(m, (size_t)cap * 2 * sizeof *m);
                    if (!g) {
                        free(m);
                        m = NULL;
                        break;
                    }
                    m = g;
                    cap *= 2;
                }
                snprintf(m[nm].name, sizeof m[nm].name, "%s", name);
                snprintf(m[nm].first_seen, sizeof m[nm].first_seen, "%s", where);
                nm++;
            }
        }
        line = e ? e + 1 : NULL;
    }
    free(text);
    if (!m) {
        rdx_oracle_err(err, errlen, "out of memory");
        return NULL;
    }
    qsort(m, (size_t)nm, sizeof *m, by_name);
    *count = nm;
    return m;
}
