/*
 * tools/prof_text.c — `rdx prof`'s report for people: per dispatch the
 * kernel time model's figures, occupancy, instruction mix, lanes, bytes by
 * path, LDS bank conflicts and the cache model, then the annotated
 * disassembly; and the comparison of two runs.  docs/prof.md explains it.
 */
#include <stdlib.h>
#include <string.h>

#include <rdx/isa.h>

#include "tools/prof.h"

static double pct(uint64_t a, uint64_t b)
{
    return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void print_dispatch(FILE *f, size_t i, const prof_disp *d)
{
    const rdx_emu_counters *c = &d->c;
    const rdx_emu_profile *p = &d->p;
    fprintf(f, "== dispatch %zu: %s  grid %ux%ux%u work-items, workgroup %ux%ux%u, wave%u\n", i,
            d->name, d->grid[0], d->grid[1], d->grid[2], d->wg[0], d->wg[1], d->wg[2],
            p->wave_size);
    fprintf(f, "   %llu workgroups, %llu waves, %llu wave-instructions (emulated in %.1f ms)\n",
            (unsigned long long)c->workgroups, (unsigned long long)c->waves,
            (unsigned long long)c->wave_insts, d->emu_ms);
    const char *chip = prof_disp_chip(d);
    unsigned mhz = rdx_emu_clock_mhz(chip);
    fprintf(f, "kernel time (model of a %s; us at %u MHz): %llu cycles = %.3f us, %s-bound\n", chip,
            mhz, (unsigned long long)c->est_kernel_cycles, (double)c->est_kernel_cycles / mhz,
            rdx_emu_bound_name(c->est_bound));
    fprintf(f, "   compute (waves replayed on the busiest WGP) %12.0f cycles\n", p->model_compute);
    fprintf(f, "     issue (busiest SIMD's issue cycles)        %12.0f cycles\n", p->model_issue);
    fprintf(f, "     latency (compute beyond issue)             %12.0f cycles\n",
            p->model_compute > p->model_issue ? p->model_compute - p->model_issue : 0.0);
    fprintf(f, "   L0 bandwidth (line requests / 128 B/clk/CU) %12.0f cycles\n", p->model_l0);
    fprintf(f, "   LDS bandwidth (bytes / 128 B/clk/CU)        %12.0f cycles\n", p->model_lds);
    fprintf(f, "   DRAM bandwidth (%llu unique-line bytes / 384 B/clk) %.0f cycles\n",
            (unsigned long long)c->est_dram_bytes, p->model_dram);
    const rdx_emu_occupancy *o = &d->occ;
    fprintf(f,
            "occupancy: %u waves/SIMD (of 16), %u workgroups/%s, limited by %s\n"
            "   per resource: VGPRs (%u) %u, LDS (%u B/group) %u, barriers %u, wave slots "
            "(groups of %u waves) %u; SGPRs (%u) do not limit on gfx11\n",
            o->waves_per_simd, o->groups_per_unit, p->wgp_mode ? "WGP" : "CU",
            rdx_emu_occ_limit_name(o->limit), p->vgprs, o->by_vgprs, p->lds_bytes, o->by_lds,
            o->by_barriers, p->group_waves, o->by_slots, p->sgprs);
    if (o->waves_per_simd < 16) {
        fprintf(f, "   one more wave/SIMD:");
        if (o->vgprs_for_more)
            fprintf(f, " VGPRs <= %u", o->vgprs_for_more);
        if (o->lds_for_more && p->lds_bytes)
            fprintf(f, "%s LDS <= %u B/group", o->vgprs_for_more ? "," : "", o->lds_for_more);
        if (!o->vgprs_for_more && !(o->lds_for_more && p->lds_bytes))
            fprintf(f, " a smaller workgroup");
        fprintf(f, "\n");
    }
    fprintf(f, "instruction mix:");
    for (int k = 0; k < RDX_EMU_CLASS_COUNT; k++)
        if (c->by_class[k])
            fprintf(f, " %s %llu (%.1f%%)", rdx_emu_class_name((rdx_emu_class)k),
                    (unsigned long long)c->by_class[k], pct(c->by_class[k], c->wave_insts));
    fprintf(f, "\n");
    fprintf(f, "lane utilization: %.1f of %u lanes active (%.1f%%) over %llu vector instructions\n",
            c->avg_active_lanes, p->wave_size, 100.0 * c->avg_active_lanes / p->wave_size,
            (unsigned long long)c->vector_insts);
    fprintf(f,
            "bytes: global read %llu, written %llu (with scalar loads); LDS %llu; scratch %llu\n",
            (unsigned long long)c->bytes_read, (unsigned long long)c->bytes_written,
            (unsigned long long)c->lds_bytes, (unsigned long long)c->scratch_bytes);
    fprintf(f, "LDS bank conflicts: %llu extra cycles over %llu DS accesses\n",
            (unsigned long long)p->lds_conflicts, (unsigned long long)p->lds_insts);
    fprintf(f,
            "cache model: L0 %.1f%% hits (%llu of %llu line reads; 32 KiB per workgroup), L2 "
            "%.1f%% hits (%llu of %llu requests; ideal L2)\n",
            pct(p->l0_hits, p->l0_hits + p->l0_misses), (unsigned long long)p->l0_hits,
            (unsigned long long)(p->l0_hits + p->l0_misses),
            pct(p->l2_hits, p->l2_hits + p->l2_misses), (unsigned long long)p->l2_hits,
            (unsigned long long)(p->l2_hits + p->l2_misses));
    uint64_t tot = p->issue;
    for (int s = 0; s < RDX_EMU_STALL_COUNT; s++)
        tot += p->stall[s];
    fprintf(f, "wave cycles: %llu = issue %llu", (unsigned long long)tot,
            (unsigned long long)p->issue);
    for (int s = 0; s < RDX_EMU_STALL_COUNT; s++)
        fprintf(f, " + %s %llu", rdx_emu_stall_name((rdx_emu_stall)s),
                (unsigned long long)p->stall[s]);
    fprintf(f, "\n");
}

static const rdx_emu_prof_pc *const *hot_order(const prof_disp *d, int sort)
{
    const rdx_emu_prof_pc **v = malloc((d->p.npc + 1) * sizeof *v);
    if (!v)
        return NULL;
    for (size_t i = 0; i < d->p.npc; i++)
        v[i] = &d->p.pcs[i];
    if (sort) /* insertion-stable selection by cycles, ties by pc */
        for (size_t i = 1; i < d->p.npc; i++) {
            const rdx_emu_prof_pc *x = v[i];
            uint64_t cx = prof_pc_cycles(x);
            size_t j = i;
            while (j > 0 && prof_pc_cycles(v[j - 1]) < cx) {
                v[j] = v[j - 1];
                j--;
            }
            v[j] = x;
        }
    return (const rdx_emu_prof_pc *const *)v;
}

static void print_disasm(FILE *f, const prof_disp *d, const prof_opts *o)
{
    const rdx_emu_prof_pc *const *v = hot_order(d, o->sort);
    if (!v)
        return;
    uint64_t total = d->p.issue;
    for (int s = 0; s < RDX_EMU_STALL_COUNT; s++)
        total += d->p.stall[s];
    fprintf(f, "annotated disassembly (%s):\n", o->sort ? "hottest first" : "in address order");
    fprintf(f, "%8s %10s %6s %6s %10s %10s %10s %8s %8s %8s %8s %8s  %s\n", "offset", "count",
            "lanes", "cyc%", "issue", "vmcnt", "lgkmcnt", "depend", "barrier", "hazard", "branch",
            "sleep", "instruction");
    size_t n = d->p.npc;
    if (o->top && o->top < n)
        n = o->top;
    for (size_t i = 0; i < n; i++) {
        const rdx_emu_prof_pc *p = v[i];
        char text[128], src[96];
        prof_disasm(d, p->pc, text, sizeof text);
        prof_source(d, p->pc, src, sizeof src);
        double lanes = p->count ? (double)p->lanes / (double)p->count : 0;
        fprintf(f,
                "%8llx %10llu %6.1f %6.2f %10llu %10llu %10llu %8llu %8llu %8llu %8llu %8llu  %s",
                (unsigned long long)(p->pc - d->p.code), (unsigned long long)p->count, lanes,
                100.0 * (double)prof_pc_cycles(p) / (double)(total ? total : 1),
                (unsigned long long)p->issue, (unsigned long long)p->stall[RDX_EMU_STALL_VMCNT],
                (unsigned long long)p->stall[RDX_EMU_STALL_LGKMCNT],
                (unsigned long long)p->stall[RDX_EMU_STALL_DEPEND],
                (unsigned long long)p->stall[RDX_EMU_STALL_BARRIER],
                (unsigned long long)p->stall[RDX_EMU_STALL_HAZARD],
                (unsigned long long)p->stall[RDX_EMU_STALL_BRANCH],
                (unsigned long long)p->stall[RDX_EMU_STALL_SLEEP], text);
        if (src[0])
            fprintf(f, "  ; %s", src);
        if (p->lds_conflicts)
            fprintf(f, "  ; %llu bank-conflict cycles", (unsigned long long)p->lds_conflicts);
        fprintf(f, "\n");
    }
    if (n < d->p.npc)
        fprintf(f, "   (%zu more instructions; --top 0 shows all)\n", d->p.npc - n);
    free((void *)v);
}

void prof_print_text(FILE *f, const prof_run *r, const prof_opts *o)
{
    fprintf(f, "rdx prof: %s (emulated %s; every count exact, every time a model: docs/prof.md)\n",
            r->label, prof_run_target(r));
    uint64_t sum = 0;
    double us = 0; /* each dispatch at its own chip's clock */
    for (size_t i = 0; i < r->n; i++) {
        print_dispatch(f, i, &r->d[i]);
        if (!o->no_disasm)
            print_disasm(f, &r->d[i], o);
        sum += r->d[i].c.est_kernel_cycles;
        us += prof_disp_us(&r->d[i], r->d[i].c.est_kernel_cycles);
    }
    if (r->n > 1)
        fprintf(f, "total: %zu dispatches, %llu model cycles = %.3f us\n", r->n,
                (unsigned long long)sum, us);
}

/* Cycles per op name in run r (all dispatches). */
typedef struct op_cost {
    uint32_t op;
    uint64_t a, b, na, nb;
} op_cost;

static op_cost *op_find(op_cost **v, size_t *n, uint32_t op)
{
    for (size_t i = 0; i < *n; i++)
        if ((*v)[i].op == op)
            return &(*v)[i];
    op_cost *nv = realloc(*v, (*n + 1) * sizeof *nv);
    if (!nv)
        return NULL;
    *v = nv;
    memset(&nv[*n], 0, sizeof nv[*n]);
    nv[*n].op = op;
    return &nv[(*n)++];
}

static uint64_t absdiff(uint64_t a, uint64_t b)
{
    return a > b ? a - b : b - a;
}

void prof_print_compare(FILE *f, const prof_run *a, const prof_run *b, int json)
{
    op_cost *v = NULL;
    size_t n = 0;
    char name[128];
    for (int side = 0; side < 2; side++) {
        const prof_run *r = side ? b : a;
        for (size_t i = 0; i < r->n; i++) {
            const prof_disp *d = &r->d[i];
            for (size_t k = 0; k < d->p.npc; k++) {
                op_cost *c = op_find(&v, &n, d->p.pcs[k].op);
                if (!c)
                    break;
                *(side ? &c->b : &c->a) += prof_pc_cycles(&d->p.pcs[k]);
                *(side ? &c->nb : &c->na) += d->p.pcs[k].count;
            }
        }
    }
    for (size_t i = 1; i < n; i++) { /* largest change first */
        op_cost x = v[i];
        size_t j = i;
        while (j > 0 && absdiff(v[j - 1].a, v[j - 1].b) < absdiff(x.a, x.b)) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
    size_t nd = a->n > b->n ? a->n : b->n;
    if (json) {
        fprintf(f, "{\"a\":\"%s\",\"b\":\"%s\",\"dispatches\":[", a->label, b->label);
        for (size_t i = 0; i < nd; i++) {
            const prof_disp *x = i < a->n ? &a->d[i] : NULL, *y = i < b->n ? &b->d[i] : NULL;
            fprintf(f, "%s{\"a_cycles\":%llu,\"b_cycles\":%llu,\"a_insts\":%llu,\"b_insts\":%llu",
                    i ? "," : "", x ? (unsigned long long)x->c.est_kernel_cycles : 0ull,
                    y ? (unsigned long long)y->c.est_kernel_cycles : 0ull,
                    x ? (unsigned long long)x->c.wave_insts : 0ull,
                    y ? (unsigned long long)y->c.wave_insts : 0ull);
            if (x && y) { /* per instruction, aligned by disassembly (prof_compare_pc.c) */
                fprintf(f, ",\"pcs\":");
                prof_print_compare_pcs(f, x, y, 1);
            }
            fputc('}', f);
        }
        fprintf(f, "],\"ops\":[");
        for (size_t i = 0; i < n; i++) {
            snprintf(name, sizeof name, "%s", rdx_isa_op_name((rdx_isa_op)v[i].op));
            fprintf(f,
                    "%s{\"op\":\"%s\",\"a_cycles\":%llu,\"b_cycles\":%llu,\"a_count\":%llu,"
                    "\"b_count\":%llu}",
                    i ? "," : "", name, (unsigned long long)v[i].a, (unsigned long long)v[i].b,
                    (unsigned long long)v[i].na, (unsigned long long)v[i].nb);
        }
        fprintf(f, "]}\n");
        free(v);
        return;
    }
    fprintf(f, "compare: A = %s, B = %s\n", a->label, b->label);
    fprintf(f, "%-28s %14s %14s %8s\n", "dispatch", "A", "B", "B/A");
    for (size_t i = 0; i < nd; i++) {
        const prof_disp *x = i < a->n ? &a->d[i] : NULL, *y = i < b->n ? &b->d[i] : NULL;
        uint64_t ka = x ? x->c.est_kernel_cycles : 0, kb = y ? y->c.est_kernel_cycles : 0;
        snprintf(name, sizeof name, "%zu %s", i, x ? x->name : y->name);
        fprintf(f, "%-28s %14llu %14llu %8.2f   kernel cycles\n", name, (unsigned long long)ka,
                (unsigned long long)kb, ka ? (double)kb / (double)ka : 0.0);
        fprintf(f, "%-28s %14s %14s %8s   bound\n", "",
                x ? rdx_emu_bound_name(x->c.est_bound) : "-",
                y ? rdx_emu_bound_name(y->c.est_bound) : "-", "");
        fprintf(f, "%-28s %14llu %14llu %8s   wave-instructions\n", "",
                x ? (unsigned long long)x->c.wave_insts : 0ull,
                y ? (unsigned long long)y->c.wave_insts : 0ull, "");
        fprintf(f, "%-28s %14u %14u %8s   waves/SIMD\n", "", x ? x->occ.waves_per_simd : 0,
                y ? y->occ.waves_per_simd : 0, "");
        fprintf(f, "%-28s %14u %14u %8s   VGPRs\n", "", x ? x->p.vgprs : 0, y ? y->p.vgprs : 0, "");
    }
    fprintf(f, "instructions whose cost changed most (wave cycles summed per mnemonic):\n");
    fprintf(f, "%-28s %14s %14s %14s %12s %12s\n", "instruction", "A cycles", "B cycles", "B - A",
            "A count", "B count");
    for (size_t i = 0; i < n && i < 20; i++) {
        if (v[i].a == v[i].b)
            break;
        snprintf(name, sizeof name, "%s", rdx_isa_op_name((rdx_isa_op)v[i].op));
        fprintf(f, "%-28s %14llu %14llu %+14lld %12llu %12llu\n", name, (unsigned long long)v[i].a,
                (unsigned long long)v[i].b, (long long)v[i].b - (long long)v[i].a,
                (unsigned long long)v[i].na, (unsigned long long)v[i].nb);
    }
    free(v);
    for (size_t i = 0; i < a->n && i < b->n && i < 4; i++)
        prof_print_compare_pcs(f, &a->d[i], &b->d[i], 0);
}
