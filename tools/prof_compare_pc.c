/*
 * tools/prof_compare_pc.c — `rdx prof --compare A B`, per instruction: the
 * two dispatches' instructions aligned by their disassembly (a longest common
 * subsequence, as `diff` aligns lines: an instruction of A and one of B are
 * the same when their text is), and the instructions whose cost (the wave
 * model's cycles, issue + stalls) changed most — aligned pairs, and the
 * instructions only A or only B has.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/prof.h"

#define ALIGN_MAX 3000 /* instructions per side the alignment takes (n x m table) */
#define SHOW      20

typedef struct pc_row {
    const rdx_emu_prof_pc *a, *b; /* either may be NULL */
    uint64_t ca, cb;              /* cycles */
} pc_row;

static uint64_t absdiff(uint64_t a, uint64_t b)
{
    return a > b ? a - b : b - a;
}

static int cmp_change(const void *x, const void *y)
{
    const pc_row *p = x, *q = y;
    uint64_t dp = absdiff(p->ca, p->cb), dq = absdiff(q->ca, q->cb);
    if (dp != dq)
        return dp > dq ? -1 : 1;
    uint64_t op = p->a ? p->a->pc : p->b->pc, oq = q->a ? q->a->pc : q->b->pc;
    return op < oq ? -1 : op > oq;
}

/* The aligned rows of x and y (malloc'd, *n of them); NULL when out of memory. */
static pc_row *align(const prof_disp *x, const prof_disp *y, size_t *n)
{
    size_t na = x->p.npc < ALIGN_MAX ? x->p.npc : ALIGN_MAX;
    size_t nb = y->p.npc < ALIGN_MAX ? y->p.npc : ALIGN_MAX;
    char(*ta)[96] = calloc(na + 1, sizeof *ta), (*tb)[96] = calloc(nb + 1, sizeof *tb);
    uint16_t *L = calloc((na + 1) * (nb + 1), sizeof *L);
    pc_row *rows = calloc(na + nb + 1, sizeof *rows);
    if (!ta || !tb || !L || !rows) {
        free(ta);
        free(tb);
        free(L);
        free(rows);
        return NULL;
    }
    for (size_t i = 0; i < na; i++)
        prof_disasm(x, x->p.pcs[i].pc, ta[i], sizeof ta[i]);
    for (size_t j = 0; j < nb; j++)
        prof_disasm(y, y->p.pcs[j].pc, tb[j], sizeof tb[j]);
    /* L[i][j]: the longest common subsequence of a[i..] and b[j..] */
    for (size_t i = na; i-- > 0;)
        for (size_t j = nb; j-- > 0;) {
            uint16_t *c = &L[i * (nb + 1) + j];
            if (!strcmp(ta[i], tb[j]))
                *c = (uint16_t)(L[(i + 1) * (nb + 1) + j + 1] + 1);
            else {
                uint16_t d = L[(i + 1) * (nb + 1) + j], r = L[i * (nb + 1) + j + 1];
                *c = d > r ? d : r;
            }
        }
    size_t i = 0, j = 0, k = 0;
    while (i < na || j < nb) {
        pc_row *r = &rows[k++];
        if (i < na && j < nb && !strcmp(ta[i], tb[j])) {
            r->a = &x->p.pcs[i++];
            r->b = &y->p.pcs[j++];
        } else if (j == nb || (i < na && L[(i + 1) * (nb + 1) + j] >= L[i * (nb + 1) + j + 1])) {
            r->a = &x->p.pcs[i++];
        } else {
            r->b = &y->p.pcs[j++];
        }
        r->ca = r->a ? prof_pc_cycles(r->a) : 0;
        r->cb = r->b ? prof_pc_cycles(r->b) : 0;
    }
    free(ta);
    free(tb);
    free(L);
    *n = k;
    return rows;
}

void prof_print_compare_pcs(FILE *f, const prof_disp *x, const prof_disp *y, int json)
{
    size_t n = 0;
    pc_row *rows = align(x, y, &n);
    if (!rows) {
        if (!json)
            fprintf(f, "(per instruction: out of memory)\n");
        else
            fprintf(f, "[]");
        return;
    }
    size_t same = 0;
    for (size_t i = 0; i < n; i++)
        same += rows[i].a && rows[i].b;
    qsort(rows, n, sizeof *rows, cmp_change);
    char text[128];
    if (json) {
        fputc('[', f);
        for (size_t i = 0; i < n; i++) {
            const pc_row *r = &rows[i];
            if (r->a)
                prof_disasm(x, r->a->pc, text, sizeof text);
            else
                prof_disasm(y, r->b->pc, text, sizeof text);
            fprintf(f, "%s{\"a_offset\":", i ? "," : "");
            if (r->a)
                fprintf(f, "%llu", (unsigned long long)(r->a->pc - x->p.code));
            else
                fprintf(f, "null");
            fprintf(f, ",\"b_offset\":");
            if (r->b)
                fprintf(f, "%llu", (unsigned long long)(r->b->pc - y->p.code));
            else
                fprintf(f, "null");
            fprintf(f,
                    ",\"a_cycles\":%llu,\"b_cycles\":%llu,\"a_count\":%llu,\"b_count\":%llu,"
                    "\"inst\":\"",
                    (unsigned long long)r->ca, (unsigned long long)r->cb,
                    r->a ? (unsigned long long)r->a->count : 0ull,
                    r->b ? (unsigned long long)r->b->count : 0ull);
            for (const char *c = text; *c; c++)
                if (*c != '"' && *c != '\\')
                    fputc(*c, f);
            fprintf(f, "\"}");
        }
        fputc(']', f);
        free(rows);
        return;
    }
    fprintf(f,
            "instructions whose cost changed most, per instruction (dispatch %s: %zu of A's %zu "
            "and B's %zu instructions aligned by their disassembly):\n",
            x->name, same, x->p.npc, y->p.npc);
    fprintf(f, "%8s %8s %12s %12s %13s %10s %10s  %s\n", "A offset", "B offset", "A cycles",
            "B cycles", "B - A", "A count", "B count", "instruction");
    for (size_t i = 0; i < n && i < SHOW; i++) {
        const pc_row *r = &rows[i];
        if (r->ca == r->cb)
            break;
        char oa[20] = "-", ob[20] = "-";
        if (r->a)
            snprintf(oa, sizeof oa, "%llx", (unsigned long long)(r->a->pc - x->p.code));
        if (r->b)
            snprintf(ob, sizeof ob, "%llx", (unsigned long long)(r->b->pc - y->p.code));
        if (r->a)
            prof_disasm(x, r->a->pc, text, sizeof text);
        else
            prof_disasm(y, r->b->pc, text, sizeof text);
        fprintf(f, "%8s %8s %12llu %12llu %+13lld %10llu %10llu  %s\n", oa, ob,
                (unsigned long long)r->ca, (unsigned long long)r->cb,
                (long long)r->cb - (long long)r->ca, r->a ? (unsigned long long)r->a->count : 0ull,
                r->b ? (unsigned long long)r->b->count : 0ull, text);
    }
    free(rows);
}
