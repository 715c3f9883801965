/*
 * tools/prof_json.c — `rdx prof --json` (every figure of the report, for
 * scripts) and `--trace FILE.json` (the Chrome trace event format that
 * Perfetto and chrome://tracing open: the queue's dispatches, each wave's
 * lifetime on its SIMD from the timing model, a waves-in-flight counter).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools/prof.h"

#define TRACE_MAX_WAVES 200000u

static void jstr(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void json_dispatch(FILE *f, const prof_disp *d)
{
    const rdx_emu_counters *c = &d->c;
    const rdx_emu_profile *p = &d->p;
    fprintf(f, "{\"name\":");
    jstr(f, d->name);
    fprintf(f,
            ",\"grid\":[%u,%u,%u],\"workgroup\":[%u,%u,%u],\"wave_size\":%u,\"workgroups\":%llu,"
            "\"waves\":%llu,\"wave_insts\":%llu,\"emu_ms\":%.3f",
            d->grid[0], d->grid[1], d->grid[2], d->wg[0], d->wg[1], d->wg[2], p->wave_size,
            (unsigned long long)c->workgroups, (unsigned long long)c->waves,
            (unsigned long long)c->wave_insts, d->emu_ms);
    fprintf(f,
            ",\"clock_mhz\":%u,\"kernel_cycles\":%llu,\"kernel_us\":%.4f,\"bound\":\"%s\","
            "\"model\":{\"compute\":%.1f,"
            "\"issue\":%.1f,\"latency\":%.1f,\"l0\":%.1f,\"lds\":%.1f,\"dram\":%.1f,"
            "\"dram_bytes\":%llu}",
            rdx_emu_clock_mhz(prof_disp_chip(d)), (unsigned long long)c->est_kernel_cycles,
            prof_disp_us(d, (double)c->est_kernel_cycles), rdx_emu_bound_name(c->est_bound),
            p->model_compute, p->model_issue,
            p->model_compute > p->model_issue ? p->model_compute - p->model_issue : 0.0,
            p->model_l0, p->model_lds, p->model_dram, (unsigned long long)c->est_dram_bytes);
    const rdx_emu_occupancy *o = &d->occ;
    fprintf(f,
            ",\"occupancy\":{\"waves_per_simd\":%u,\"groups_per_unit\":%u,\"limit\":\"%s\","
            "\"by_vgprs\":%u,\"by_lds\":%u,\"by_barriers\":%u,\"by_slots\":%u,\"vgprs\":%u,"
            "\"sgprs\":%u,\"lds_bytes\":%u,\"group_waves\":%u,\"vgprs_for_more\":%u,"
            "\"lds_for_more\":%u}",
            o->waves_per_simd, o->groups_per_unit, rdx_emu_occ_limit_name(o->limit), o->by_vgprs,
            o->by_lds, o->by_barriers, o->by_slots, p->vgprs, p->sgprs, p->lds_bytes,
            p->group_waves, o->vgprs_for_more, o->lds_for_more);
    fprintf(f, ",\"mix\":{");
    for (int k = 0; k < RDX_EMU_CLASS_COUNT; k++)
        fprintf(f, "%s\"%s\":%llu", k ? "," : "", rdx_emu_class_name((rdx_emu_class)k),
                (unsigned long long)c->by_class[k]);
    fprintf(f, "},\"lanes\":{\"avg_active\":%.3f,\"vector_insts\":%llu,\"lane_ops\":%llu}",
            c->avg_active_lanes, (unsigned long long)c->vector_insts,
            (unsigned long long)c->lane_ops);
    fprintf(f,
            ",\"bytes\":{\"global_read\":%llu,\"global_written\":%llu,\"lds\":%llu,"
            "\"scratch\":%llu}",
            (unsigned long long)c->bytes_read, (unsigned long long)c->bytes_written,
            (unsigned long long)c->lds_bytes, (unsigned long long)c->scratch_bytes);
    fprintf(
        f,
        ",\"lds_bank_conflicts\":{\"cycles\":%llu,\"accesses\":%llu},\"cache\":{\"l0_hits\":%llu,"
        "\"l0_misses\":%llu,\"l2_hits\":%llu,\"l2_misses\":%llu}",
        (unsigned long long)p->lds_conflicts, (unsigned long long)p->lds_insts,
        (unsigned long long)p->l0_hits, (unsigned long long)p->l0_misses,
        (unsigned long long)p->l2_hits, (unsigned long long)p->l2_misses);
    fprintf(f, ",\"cycles\":{\"issue\":%llu", (unsigned long long)p->issue);
    for (int s = 0; s < RDX_EMU_STALL_COUNT; s++)
        fprintf(f, ",\"%s\":%llu", rdx_emu_stall_name((rdx_emu_stall)s),
                (unsigned long long)p->stall[s]);
    fprintf(f, "},\"pcs\":[");
    for (size_t i = 0; i < p->npc; i++) {
        const rdx_emu_prof_pc *x = &p->pcs[i];
        char text[128], src[96];
        prof_disasm(d, x->pc, text, sizeof text);
        prof_source(d, x->pc, src, sizeof src);
        fprintf(f, "%s{\"offset\":%llu,\"count\":%llu,\"lanes\":%llu,\"issue\":%llu", i ? "," : "",
                (unsigned long long)(x->pc - p->code), (unsigned long long)x->count,
                (unsigned long long)x->lanes, (unsigned long long)x->issue);
        for (int s = 0; s < RDX_EMU_STALL_COUNT; s++)
            fprintf(f, ",\"%s\":%llu", rdx_emu_stall_name((rdx_emu_stall)s),
                    (unsigned long long)x->stall[s]);
        fprintf(f, ",\"lds_conflicts\":%llu,\"l0_hits\":%llu,\"l0_misses\":%llu,\"text\":",
                (unsigned long long)x->lds_conflicts, (unsigned long long)x->l0_hits,
                (unsigned long long)x->l0_misses);
        jstr(f, text);
        if (src[0]) {
            fprintf(f, ",\"source\":");
            jstr(f, src);
        }
        fprintf(f, "}");
    }
    fprintf(f, "]}");
}

void prof_print_json(FILE *f, const prof_run *r, const prof_opts *o)
{
    (void)o;
    fprintf(f, "{\"input\":");
    jstr(f, r->label);
    fprintf(f, ",\"target\":\"%s\",\"clock_ghz\":%.3f,\"dispatches\":[", prof_run_target(r),
            rdx_emu_clock_mhz(r->n ? prof_disp_chip(&r->d[0]) : NULL) / 1000.0);
    for (size_t i = 0; i < r->n; i++) {
        if (i)
            fputc(',', f);
        json_dispatch(f, &r->d[i]);
    }
    fprintf(f, "]}\n");
}

typedef struct tevent {
    double t;
    int delta;
} tevent;

static int cmp_tevent(const void *a, const void *b)
{
    const tevent *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->delta - y->delta; /* ends before starts at the same time */
}

int prof_write_trace(const char *path, const prof_run *r)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f,
            "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":\"rdx prof: emulated %s, "
            "times from the kernel time model at %u MHz\"},\"traceEvents\":[\n",
            prof_run_target(r), rdx_emu_clock_mhz(r->n ? prof_disp_chip(&r->d[0]) : NULL));
    fprintf(f,
            "{\"ph\":\"M\",\"pid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"queue\"}},\n");
    fprintf(f, "{\"ph\":\"M\",\"pid\":0,\"tid\":0,\"name\":\"thread_name\",\"args\":{\"name\":"
               "\"dispatches\"}}");
    double t0 = 0;
    unsigned named[48 * 4 + 1] = { 0 };
    size_t waves_out = 0;
    for (size_t i = 0; i < r->n; i++) {
        const prof_disp *d = &r->d[i];
        double dur = prof_disp_us(d, (double)d->c.est_kernel_cycles);
        fprintf(f, ",\n{\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":%.4f,\"dur\":%.4f,\"name\":", t0,
                dur);
        jstr(f, d->name);
        fprintf(f, ",\"args\":{\"kernel_cycles\":%llu,\"bound\":\"%s\",\"waves\":%llu}}",
                (unsigned long long)d->c.est_kernel_cycles, rdx_emu_bound_name(d->c.est_bound),
                (unsigned long long)d->c.waves);
        tevent *ev = malloc((2 * d->p.nwaves + 1) * sizeof *ev);
        size_t nev = 0;
        for (size_t w = 0; w < d->p.nwaves; w++) {
            const rdx_emu_prof_wave *x = &d->p.waves[w];
            unsigned pid = 1 + x->unit; /* one process per WGP (CU), one thread per SIMD */
            if (pid < sizeof named / sizeof named[0] && !named[pid]) {
                named[pid] = 1;
                fprintf(f,
                        ",\n{\"ph\":\"M\",\"pid\":%u,\"name\":\"process_name\",\"args\":{\"name\":"
                        "\"%s %u\"}}",
                        pid, d->p.wgp_mode ? "WGP" : "CU", x->unit);
                for (unsigned s = 0; s < (d->p.wgp_mode ? 4u : 2u); s++)
                    fprintf(f,
                            ",\n{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"name\":\"thread_name\","
                            "\"args\":{\"name\":\"SIMD %u\"}}",
                            pid, s, s);
            }
            if (ev) {
                ev[nev++] = (tevent){ t0 + prof_disp_us(d, (double)x->start), 1 };
                ev[nev++] = (tevent){ t0 + prof_disp_us(d, (double)x->end), -1 };
            }
            if (waves_out >= TRACE_MAX_WAVES)
                continue;
            waves_out++;
            fprintf(f,
                    ",\n{\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"ts\":%.4f,\"dur\":%.4f,\"name\":\"wg "
                    "%llu wave %u\",\"args\":{\"dispatch\":%zu,\"issue\":%llu,\"cycles\":%llu",
                    pid, x->simd, t0 + prof_disp_us(d, (double)x->start),
                    prof_disp_us(d, (double)(x->end - x->start)), (unsigned long long)x->group,
                    x->wave, i, (unsigned long long)x->issue, (unsigned long long)x->cycles);
            for (int s = 0; s < RDX_EMU_STALL_COUNT; s++)
                if (x->stall[s])
                    fprintf(f, ",\"%s\":%llu", rdx_emu_stall_name((rdx_emu_stall)s),
                            (unsigned long long)x->stall[s]);
            fprintf(f, "}}");
        }
        if (ev) {
            qsort(ev, nev, sizeof *ev, cmp_tevent);
            long inflight = 0;
            for (size_t k = 0; k < nev; k++) {
                inflight += ev[k].delta;
                if (k + 1 < nev && ev[k + 1].t == ev[k].t)
                    continue; /* one sample per time */
                fprintf(f,
                        ",\n{\"ph\":\"C\",\"pid\":0,\"ts\":%.4f,\"name\":\"waves in flight\","
                        "\"args\":{\"waves\":%ld}}",
                        ev[k].t, inflight);
            }
            free(ev);
        }
        /* the dispatch's mean DRAM bandwidth (model) as a counter */
        double gbs = dur > 0 ? (double)d->c.est_dram_bytes / (dur * 1e3) : 0;
        fprintf(f,
                ",\n{\"ph\":\"C\",\"pid\":0,\"ts\":%.4f,\"name\":\"DRAM GB/s\",\"args\":{\"GB/s\":"
                "%.2f}},\n{\"ph\":\"C\",\"pid\":0,\"ts\":%.4f,\"name\":\"DRAM GB/s\",\"args\":{"
                "\"GB/s\":0}}",
                t0, gbs, t0 + dur);
        t0 += dur;
    }
    fprintf(f, "\n]}\n");
    int bad = ferror(f);
    if (fclose(f) || bad) {
        if (!errno)
            errno = EIO;
        return -1;
    }
    return 0;
}
