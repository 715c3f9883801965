/*
 * tools/prof_hw.c — `rdx prof --source hw`: profile a kernel through the
 * device's own queue, as on a card: the perf counters and the SQ thread
 * trace are programmed with PM4 register writes (rdx/queue_prof.h), the
 * dispatch is timed with the queue's GPU timestamps, the counters come back
 * through COPY_DATA and the trace from its buffers; the trace is decoded and
 * mapped to the kernel's instructions (rdx/sqtt.h) into a per-PC table and a
 * timeline.  On the emulated GPU the device model serves the registers
 * (emu/dev/perf.c); nothing here knows which device it drives.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdx/asm.h>
#include <rdx/codeobj.h>
#include <rdx/emudev.h>
#include <rdx/isa.h>
#include <rdx/queue_prof.h>
#include <rdx/runtime.h>
#include <rdx/sqtt.h>

#include "tools/cli.h"
#include "tools/launch.h"
#include "tools/prof.h"
#include "util/error.h"
#include "util/file.h"

#define CMD            "prof"
#define HW_SQTT_BYTES  (4u << 20) /* trace buffer per shader engine */
#define HW_MAX_QEVENTS 80

static const rdx_perf_counter hw_counters[] = {
    RDX_PERF_SQ_WAVES,       RDX_PERF_SQ_INSTS_VALU,         RDX_PERF_SQ_INSTS_SALU,
    RDX_PERF_SQ_INSTS_SMEM,  RDX_PERF_SQ_INSTS_LDS,          RDX_PERF_SQ_WAVE_CYCLES,
    RDX_PERF_SQ_BUSY_CYCLES, RDX_PERF_SQC_LDS_BANK_CONFLICT, RDX_PERF_GRBM_GUI_ACTIVE,
};
#define HW_NCOUNTERS (sizeof hw_counters / sizeof *hw_counters)

/* One event of the queue's timeline (host clock, microseconds from the start). */
typedef struct qevent {
    const char *kind; /* "copy", "program", "dispatch", "wait" */
    char name[64];
    double ts, dur;
} qevent;

/* One PC of the traced waves. */
typedef struct hw_pc {
    uint64_t off, count, cycles, first;
} hw_pc;

/* One traced wave. */
typedef struct hw_wave {
    uint32_t se, simd, slot;
    uint64_t start, end, insts;
} hw_wave;

typedef struct hw_run {
    char kname[64], device[96];
    uint32_t grid[3], block[3];
    uint64_t gpu_ns;
    rdx_queue_profile prof;
    size_t npackets[RDX_QUEUE_PROF_MAX_SE];
    hw_pc *pcs;
    size_t npcs;
    hw_wave *waves;
    size_t nwaves;
    uint64_t trace_end;
    const uint8_t *code;
    size_t code_size;
    const rdx_isa_target *target; /* the code object's (disassembly) */
    unsigned clock_mhz;           /* the device's engine clock (the trace's clock) */
    qevent q[HW_MAX_QEVENTS];
    size_t nq;
} hw_run;

static double host_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static void qev(hw_run *r, double t0, const char *kind, const char *name, double start, double end)
{
    if (r->nq == HW_MAX_QEVENTS)
        return;
    qevent *e = &r->q[r->nq++];
    e->kind = kind;
    char tmp[sizeof e->name]; /* name may be a field of r */
    snprintf(tmp, sizeof tmp, "%s", name);
    memcpy(e->name, tmp, sizeof tmp);
    e->ts = start - t0;
    e->dur = end - start;
}

static hw_pc *pc_at(hw_run *r, uint64_t off)
{
    for (size_t i = 0; i < r->npcs; i++)
        if (r->pcs[i].off == off)
            return &r->pcs[i];
    hw_pc *n = realloc(r->pcs, (r->npcs + 1) * sizeof *n);
    if (!n)
        return NULL;
    r->pcs = n;
    n[r->npcs] = (hw_pc){ off, 0, 0, UINT64_MAX };
    return &n[r->npcs++];
}

static int cmp_pc(const void *a, const void *b)
{
    const hw_pc *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* Decode SE se's trace and fold its instructions into r's per-PC table and waves. */
static int fold_trace(hw_run *r, uint32_t se)
{
    rdx_sqtt_packet *pk = NULL;
    size_t n = 0, nm = 0;
    rdx_sqtt_inst *mi = NULL;
    if (rdx_sqtt_decode(r->prof.sqtt[se], r->prof.sqtt_len[se], &pk, &n))
        return -1;
    r->npackets[se] = n;
    if (n && pk[n - 1].time > r->trace_end)
        r->trace_end = pk[n - 1].time;
    int rc = 0;
    /* the waves: WAVESTART .. WAVEEND of each slot */
    for (size_t i = 0; i < n && !rc; i++) {
        if (pk[i].type == RDX_SQTT_WAVESTART) {
            hw_wave *w = realloc(r->waves, (r->nwaves + 1) * sizeof *w);
            if (!w) {
                rc = -1;
                break;
            }
            r->waves = w;
            w[r->nwaves++] = (hw_wave){ se, pk[i].simd, pk[i].wave, pk[i].time, pk[i].time, 0 };
        } else if (pk[i].type == RDX_SQTT_WAVEEND) {
            for (size_t k = r->nwaves; k-- > 0;)
                if (r->waves[k].se == se && r->waves[k].slot == pk[i].wave &&
                    r->waves[k].simd == pk[i].simd && r->waves[k].end == r->waves[k].start) {
                    r->waves[k].end = pk[i].time;
                    break;
                }
        }
    }
    if (!rc && n && rdx_sqtt_map(pk, n, r->code, r->code_size, 0, 32, &mi, &nm))
        rc = -1;
    /* cycles of an instruction: from its issue to its wave's next instruction */
    for (size_t i = 0; i < nm && !rc; i++) {
        hw_pc *p = pc_at(r, mi[i].pc);
        if (!p) {
            rc = -1;
            break;
        }
        uint64_t next = mi[i].time;
        for (size_t j = i + 1; j < nm; j++)
            if (mi[j].wave == mi[i].wave && mi[j].simd == mi[i].simd) {
                next = mi[j].time;
                break;
            }
        p->count++;
        p->cycles += next - mi[i].time;
        if (mi[i].time < p->first)
            p->first = mi[i].time;
        for (size_t k = r->nwaves; k-- > 0;)
            if (r->waves[k].se == se && r->waves[k].slot == mi[i].wave) {
                r->waves[k].insts++;
                break;
            }
    }
    free(mi);
    free(pk);
    return rc;
}

static void disasm(const hw_run *r, uint64_t off, char *buf, size_t size)
{
    const rdx_isa_target *t = r->target;
    rdx_isa_inst ii;
    size_t len = 0;
    snprintf(buf, size, "?");
    if (t && off < r->code_size &&
        rdx_isa_decode(t, r->code + off, r->code_size - off, &ii, &len) == RDX_OK)
        rdx_asm_print_inst(t, &ii, buf, size);
}

static void jstr(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if ((unsigned char)*s >= 0x20)
            fputc(*s, f);
    }
    fputc('"', f);
}

static int cmp_hot(const void *a, const void *b)
{
    const hw_pc *x = a, *y = b;
    if (x->cycles != y->cycles)
        return x->cycles > y->cycles ? -1 : 1;
    return cmp_pc(a, b);
}

static void print_text(const hw_run *r, const prof_hw_opts *o, const char *path)
{
    printf("rdx prof --source hw: %s on %s: counters and SQ thread trace programmed through the "
           "queue's PM4 (docs/prof.md \"On the queue\")\n",
           path, r->device);
    printf("== dispatch 0: %s  grid %ux%ux%u workgroups of %ux%ux%u\n", r->kname, r->grid[0],
           r->grid[1], r->grid[2], r->block[0], r->block[1], r->block[2]);
    printf("GPU time (the queue's timestamps): %.3f us%s\n", (double)r->gpu_ns / 1e3,
           strstr(r->device, ", emu)") ? " (the emulated GPU: wall time of the emulation; "
                                         "SQ_BUSY_CYCLES is the timing model's kernel time)"
                                       : "");
    printf("counters (summed over the GPU's instances):\n");
    for (uint32_t i = 0; i < r->prof.ncounters; i++)
        printf("  %-24s %12llu\n", rdx_perf_counter_name(r->prof.counter[i]),
               (unsigned long long)r->prof.value[i]);
    printf("SQ thread trace:");
    for (uint32_t se = 0; se < r->prof.nse; se++)
        printf(" SE %u %zu bytes%s%s", se, r->prof.sqtt_len[se],
               r->prof.sqtt_full[se] ? " (FULL: cut)" : "", se + 1 < r->prof.nse ? "," : "");
    printf("\n  %zu waves traced, clock 0..%llu\n", r->nwaves, (unsigned long long)r->trace_end);

    if (o->no_disasm)
        return;
    printf("traced instructions (cycles: clocks from the instruction's issue to its wave's next "
           "issue; %s):\n",
           o->sort ? "hottest first" : "address order");
    printf("  %8s %8s %10s %10s  %s\n", "offset", "count", "cycles", "first", "instruction");
    hw_pc *v = malloc((r->npcs + 1) * sizeof *v);
    if (!v)
        return;
    if (r->npcs) { /* none without a trace */
        memcpy(v, r->pcs, r->npcs * sizeof *v);
        qsort(v, r->npcs, sizeof *v, o->sort ? cmp_hot : cmp_pc);
    }
    size_t shown = o->top && o->top < r->npcs ? o->top : r->npcs;
    for (size_t i = 0; i < shown; i++) {
        char text[128];
        disasm(r, v[i].off, text, sizeof text);
        printf("  %8llx %8llu %10llu %10llu  %s\n", (unsigned long long)v[i].off,
               (unsigned long long)v[i].count, (unsigned long long)v[i].cycles,
               (unsigned long long)v[i].first, text);
    }
    if (shown < r->npcs)
        printf("   (%zu more instructions; --top 0 shows all)\n", r->npcs - shown);
    free(v);
}

static void print_json(const hw_run *r, const char *path)
{
    printf("{\"source\":\"hw\",\"input\":");
    jstr(stdout, path);
    printf(",\"device\":");
    jstr(stdout, r->device);
    printf(",\"dispatches\":[{\"name\":");
    jstr(stdout, r->kname);
    printf(",\"grid\":[%u,%u,%u],\"workgroup\":[%u,%u,%u],\"gpu_ns\":%llu,\"counters\":{",
           r->grid[0], r->grid[1], r->grid[2], r->block[0], r->block[1], r->block[2],
           (unsigned long long)r->gpu_ns);
    for (uint32_t i = 0; i < r->prof.ncounters; i++)
        printf("%s\"%s\":%llu", i ? "," : "", rdx_perf_counter_name(r->prof.counter[i]),
               (unsigned long long)r->prof.value[i]);
    printf("},\"sqtt\":[");
    for (uint32_t se = 0; se < r->prof.nse; se++)
        printf("%s{\"se\":%u,\"bytes\":%zu,\"packets\":%zu,\"full\":%s,\"dropped\":%u}",
               se ? "," : "", se, r->prof.sqtt_len[se], r->npackets[se],
               r->prof.sqtt_full[se] ? "true" : "false", r->prof.sqtt_dropped[se]);
    printf("],\"waves\":[");
    for (size_t i = 0; i < r->nwaves; i++)
        printf("%s{\"se\":%u,\"simd\":%u,\"slot\":%u,\"start\":%llu,\"end\":%llu,\"insts\":%llu}",
               i ? "," : "", r->waves[i].se, r->waves[i].simd, r->waves[i].slot,
               (unsigned long long)r->waves[i].start, (unsigned long long)r->waves[i].end,
               (unsigned long long)r->waves[i].insts);
    printf("],\"pcs\":[");
    for (size_t i = 0; i < r->npcs; i++) {
        char text[128];
        disasm(r, r->pcs[i].off, text, sizeof text);
        printf("%s{\"offset\":%llu,\"count\":%llu,\"cycles\":%llu,\"first\":%llu,\"inst\":",
               i ? "," : "", (unsigned long long)r->pcs[i].off, (unsigned long long)r->pcs[i].count,
               (unsigned long long)r->pcs[i].cycles, (unsigned long long)r->pcs[i].first);
        jstr(stdout, text);
        printf("}");
    }
    printf("],\"queue\":[");
    for (size_t i = 0; i < r->nq; i++) {
        printf("%s{\"kind\":\"%s\",\"name\":", i ? "," : "", r->q[i].kind);
        jstr(stdout, r->q[i].name);
        printf(",\"ts_us\":%.3f,\"dur_us\":%.3f}", r->q[i].ts, r->q[i].dur);
    }
    printf("]}]}\n");
}

/* The Chrome trace: the queue's copies, programming, dispatch and waits (host clock; the
   dispatch's length from its GPU timestamps) and each traced wave on its SE/SIMD track
   (the trace's clock, the device target's engine clock, placed at the dispatch's start). */
static int write_trace(const char *file, const hw_run *r)
{
    FILE *f = fopen(file, "w");
    if (!f)
        return -1;
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":\"rdx prof --source hw: "
               "the queue's events on the host clock, waves from the SQ thread trace\"},"
               "\"traceEvents\":[\n");
    fprintf(f, "{\"ph\":\"M\",\"pid\":0,\"name\":\"process_name\",\"args\":{\"name\":"
               "\"queue\"}}");
    static const char *const kinds[] = { "copy", "program", "dispatch", "wait" };
    for (int k = 0; k < 4; k++)
        fprintf(f,
                ",\n{\"ph\":\"M\",\"pid\":0,\"tid\":%d,\"name\":\"thread_name\",\"args\":{"
                "\"name\":\"%ss\"}}",
                k, kinds[k]);
    double dstart = 0;
    for (size_t i = 0; i < r->nq; i++) {
        int tid = 0;
        for (int k = 0; k < 4; k++)
            if (!strcmp(r->q[i].kind, kinds[k]))
                tid = k;
        if (tid == 2)
            dstart = r->q[i].ts;
        fprintf(f, ",\n{\"ph\":\"X\",\"pid\":0,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,\"name\":", tid,
                r->q[i].ts, r->q[i].dur);
        jstr(f, r->q[i].name);
        fprintf(f, ",\"cat\":\"%s\"}", r->q[i].kind);
    }
    for (uint32_t se = 0; se < r->prof.nse; se++)
        fprintf(f,
                ",\n{\"ph\":\"M\",\"pid\":%u,\"name\":\"process_name\",\"args\":{\"name\":\"SE "
                "%u (SQ thread trace)\"}}",
                1 + se, se);
    for (size_t i = 0; i < r->nwaves; i++) {
        const hw_wave *w = &r->waves[i];
        fprintf(f,
                ",\n{\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"ts\":%.4f,\"dur\":%.4f,\"name\":\"wave "
                "%u\",\"args\":{\"simd\":%u,\"insts\":%llu}}",
                1 + w->se, w->simd * 16 + w->slot, dstart + (double)w->start / r->clock_mhz,
                (double)(w->end - w->start) / r->clock_mhz, w->slot, w->simd,
                (unsigned long long)w->insts);
    }
    fprintf(f, "\n]}\n");
    return fclose(f) ? -1 : 0;
}

int prof_hw(const prof_hw_opts *o, const char *path, int argc, char **argv)
{
    static const struct option opts[] = { RDX_CLI_LAUNCH_OPTS,
                                          { "device", required_argument, NULL, 'd' },
                                          { "counters", required_argument, NULL, 'c' },
                                          { "arch", required_argument, NULL, 'A' },
                                          { NULL, 0, NULL, 0 } };
    const char *arch = NULL;
    char co_arch[16];
    rdx_device_kind kind = o->device;
    rdx_perf_counter cs[RDX_QUEUE_PROF_MAX_COUNTERS];
    uint32_t ncs = HW_NCOUNTERS;
    memcpy(cs, hw_counters, sizeof hw_counters);
    rdx_cli_launch L;
    memset(&L, 0, sizeof L);
    int rc = RDX_EXIT_OK, c;
    optind = 0;
    opterr = 0;
    while (rc == RDX_EXIT_OK && (c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 'c') {
            ncs = 0;
            char list[1024];
            snprintf(list, sizeof list, "%s", optarg);
            for (char *save = NULL, *t = strtok_r(list, ",", &save); t && rc == RDX_EXIT_OK;
                 t = strtok_r(NULL, ",", &save)) {
                if (ncs == RDX_QUEUE_PROF_MAX_COUNTERS)
                    rc = rdx_cli_usage_error(CMD, "--counters: at most %d counters",
                                             RDX_QUEUE_PROF_MAX_COUNTERS);
                else if (rdx_perf_counter_parse(t, &cs[ncs++]))
                    rc = rdx_cli_usage_error(CMD, "--counters: %s", rdx_error_message());
            }
        } else if (c == 'A') {
            arch = optarg;
            if (rdx_emudev_check_arch("--arch", arch, 1))
                rc = rdx_cli_usage_error(CMD, "%s", rdx_error_message());
        } else if (c == 'd') {
            if (!strcmp(optarg, "emu"))
                kind = RDX_DEVICE_EMU;
            else if (!strcmp(optarg, "kfd"))
                kind = RDX_DEVICE_KFD;
            else if (!strcmp(optarg, "auto"))
                kind = RDX_DEVICE_AUTO;
            else
                rc = rdx_cli_usage_error(CMD, "--device %s: expected emu, kfd or auto", optarg);
        } else if (c == '?' || c == ':')
            rc = rdx_cli_usage_error(CMD, "--source hw: unknown or incomplete option '%s'",
                                     argv[optind - 1]);
        else
            rc = rdx_cli_launch_option(CMD, c, optarg, &L);
    }
    if (rc == RDX_EXIT_OK && optind != argc)
        rc = rdx_cli_usage_error(CMD, "unexpected argument '%s'", argv[optind]);
    if (rc == RDX_EXIT_OK && (!L.have_grid || !L.have_block))
        rc = rdx_cli_usage_error(CMD, "--grid and --block are required for a code object");
    hw_run r;
    memset(&r, 0, sizeof r);
    uint8_t *elf = NULL;
    size_t len = 0;
    rdx_codeobj *co = NULL;
    rdx_device *dev = NULL;
    rdx_program *prog = NULL;
    rdx_queue *q = NULL;
    const rdx_kernel *k = NULL;
    double t0 = host_us();
    if (rc == RDX_EXIT_OK)
        rc = prof_load_elf(path, &elf, &len);
    /* the emulated GPU is the code object's target unless --arch or RDX_EMU_ARCH says */
    rdx_device_options dopts = { .kind = kind,
                                 .quiet = true,
                                 .emu_arch = arch  ? arch
                                             : elf ? rdx_cli_codeobj_arch_of(elf, len, co_arch,
                                                                             sizeof co_arch)
                                                   : NULL };
    if (rc == RDX_EXIT_OK &&
        (rdx_device_open(&dopts, &dev) || rdx_program_load(dev, elf, len, path, &prog) ||
         rdx_codeobj_read(elf, len, path, &co)))
        rc = rdx_cli_fail(CMD);
    if (rc == RDX_EXIT_OK)
        rc = rdx_cli_pick_kernel(CMD, prog, path, &L, &k);
    if (rc == RDX_EXIT_OK) {
        const rdx_device_info *di = rdx_device_get_info(dev);
        snprintf(r.device, sizeof r.device, "%s (%s, %s)", di->name, di->target, di->os_name);
        r.clock_mhz = rdx_emu_clock_mhz(di->target);
        snprintf(r.kname, sizeof r.kname, "%s", rdx_kernel_name(k));
        r.target = rdx_isa_target_find(co->target ? co->target->name : "gfx1100");
        for (size_t i = 0; i < co->num_kernels; i++)
            if (!strcmp(co->kernels[i].name, r.kname) &&
                co->kernels[i].code_offset < co->text_size) {
                r.code = co->text + co->kernels[i].code_offset;
                r.code_size = co->text_size - co->kernels[i].code_offset;
            }
    }
    rdx_arg args[RDX_CLI_MAX_ARGS];
    for (int i = 0; rc == RDX_EXIT_OK && i < L.nargs; i++) {
        rdx_cli_arg *a = &L.args[i];
        if (a->is_buffer) {
            double s = host_us();
            if (rdx_buffer_alloc(dev, a->size, RDX_MEM_DEVICE, &a->buf) ||
                (a->data && rdx_buffer_upload(a->buf, 0, a->data, a->size))) {
                rc = rdx_cli_fail(CMD);
                break;
            }
            if (a->data) {
                char name[64];
                snprintf(name, sizeof name, "upload of argument %d (%llu bytes, SDMA)", i,
                         (unsigned long long)a->size);
                qev(&r, t0, "copy", name, s, host_us());
            }
            a->arg = rdx_arg_buffer(a->buf);
        }
        args[i] = a->arg;
    }
    rdx_launch l = L.l;
    l.kernel = k;
    l.args = args;
    l.nargs = (uint32_t)L.nargs;
    for (int d = 0; d < 3; d++) {
        r.grid[d] = l.grid[d];
        r.block[d] = l.block[d];
    }
    rdx_queue_profile_options po = { cs, ncs, HW_SQTT_BYTES, 0 };
    uint64_t t = 0;
    double s = host_us();
    if (rc == RDX_EXIT_OK &&
        (rdx_queue_create(dev, RDX_QUEUE_COMPUTE, &q) || rdx_queue_profile_begin(q, &po)))
        rc = rdx_cli_fail(CMD);
    if (rc == RDX_EXIT_OK) {
        qev(&r, t0, "program", "perf counters and thread trace on (PM4)", s, host_us());
        s = host_us();
        if (rdx_queue_dispatch(q, &l, &t) || rdx_queue_wait(q, t, 60000) ||
            rdx_queue_dispatch_time(q, t, &r.gpu_ns))
            rc = rdx_cli_fail(CMD);
    }
    if (rc == RDX_EXIT_OK) {
        double e = host_us();
        qev(&r, t0, "dispatch", r.kname, s, s + (double)r.gpu_ns / 1e3);
        qev(&r, t0, "wait", "host wait for the dispatch", s, e);
        s = host_us();
        if (rdx_queue_profile_end(q, &r.prof))
            rc = rdx_cli_fail(CMD);
        else
            qev(&r, t0, "program", "trace stop, counter read-back (PM4), wait", s, host_us());
    }
    for (uint32_t se = 0; rc == RDX_EXIT_OK && se < r.prof.nse; se++)
        if (r.prof.sqtt_len[se] && fold_trace(&r, se))
            rc = rdx_cli_fail(CMD);
    if (rc == RDX_EXIT_OK) {
        if (r.npcs) /* none when the GPU wrote no trace (an emulated RDNA4) */
            qsort(r.pcs, r.npcs, sizeof *r.pcs, cmp_pc);
        if (o->json)
            print_json(&r, path);
        else
            print_text(&r, o, path);
        if (o->trace && write_trace(o->trace, &r)) {
            fprintf(stderr, "rdx %s: cannot write the trace %s\n", CMD, o->trace);
            rc = RDX_EXIT_FAIL;
        } else if (o->trace && !o->json) {
            printf("trace: %s (open in https://ui.perfetto.dev or chrome://tracing)\n", o->trace);
        }
        if (rc == RDX_EXIT_OK && o->sqtt && r.prof.nse &&
            rdx_file_write(o->sqtt, r.prof.sqtt[0], r.prof.sqtt_len[0]))
            rc = rdx_cli_fail(CMD);
    }
    rdx_queue_profile_free(&r.prof);
    free(r.pcs);
    free(r.waves);
    if (q)
        rdx_queue_destroy(q);
    for (int i = 0; i < L.nargs; i++)
        rdx_buffer_free(L.args[i].buf);
    rdx_program_free(prog);
    if (dev)
        rdx_device_close(dev);
    rdx_codeobj_free(co);
    free(elf);
    rdx_cli_launch_free(&L);
    return rc;
}
