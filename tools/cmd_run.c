/*
 * tools/cmd_run.c — `rdx run CODEOBJ ...`: load a code object, dispatch one
 * of its kernels with arguments from the command line, print the time of
 * each dispatch (GPU time on a card; on the emulated GPU the emulation's
 * wall time and the timing model's estimate) and write buffers back to files.
 */
#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codeobj.h>
#include <rdx/emu.h>
#include <rdx/emu_prof.h>
#include <rdx/emudev.h>
#include <rdx/runtime.h>

#include "tools/cli.h"
#include "tools/launch.h"
#include "util/error.h"
#include "util/file.h"

#define CMD      "run"
#define MAX_OUTS 64

static void help(void)
{
    printf("Usage: rdx run CODEOBJ --grid X[,Y[,Z]] --block X[,Y[,Z]] [options]\n"
           "\n"
           "Load a code object (rdx's or LLVM's) on the device, dispatch a kernel and\n"
           "print the time of each dispatch: on a real card its GPU time (timestamps);\n"
           "on the emulated GPU the wall time of the emulation, with the emulator's\n"
           "timing-model estimate of the kernel's time beside it (the\n"
           "kernel run once more on a private emulator, over copies of the inputs).\n"
           "Arguments are laid out by the code\n"
           "object's metadata (.args offsets and sizes; hidden arguments filled as\n"
           "LLVM's code object v5 expects), or packed with natural alignment when the\n"
           "kernel has no metadata.\n"
           "\n"
           "Options:\n" RDX_CLI_LAUNCH_HELP
           "  --out N:FILE      after the run, write argument N's buffer (N counts the\n"
           "                    --arg options from 0; it must be a file: or zeros:\n"
           "                    argument) to FILE\n"
           "  --device emu|kfd  the emulated GPU or a real card (default: RDX_DEVICE,\n"
           "                    else a real card when /dev/kfd has one, else emu)\n"
           "  --arch GFX        emulated GPU only: its target, one of:\n"
           "                    %s;\n"
           "                    default RDX_EMU_ARCH,\n"
           "                    else the code object's target when the emulated GPU\n"
           "                    models it, else gfx1100\n"
           "  --repeat N        dispatch N times (default 1)\n"
           "  --timeout MS      wait at most MS milliseconds per dispatch (default 60000);\n"
           "                    then the dispatch is abandoned (its queue is reset)\n"
           "  --wave-budget N   emulated GPU only: a wave that runs more than N\n"
           "                    instructions ends its dispatch with a hang report (the\n"
           "                    PC histogram of where the waves were); default 200000000\n"
           "  --dispatch-budget N  emulated GPU only: a dispatch whose waves run more than\n"
           "                    N instructions in all ends with a slow-dispatch report\n"
           "                    (with the PC histogram); default: no limit\n"
           "  --fidelity        emulated GPU only: after the first dispatch, list the\n"
           "                    executed opcodes with their counts and whether a\n"
           "                    hardware-derived test backs their semantics\n"
           "                    (\"hw-tested: <tests>\" / \"not hw-tested\")\n"
           "  --profile         profile the dispatch on the device's queue instead, as on a\n"
           "                    card: rdx prof --source hw with the launch options (and\n"
           "                    --device and --arch): SQ perf counters, the SQ thread trace\n"
           "                    (RDNA3 targets) decoded per\n"
           "                    instruction, the GPU time (docs/prof.md \"On the queue\")\n"
           "  -h, --help        show this help\n"
           "\n"
           "Exit status: 0 success, 1 the run failed (a GPU fault is printed with its\n"
           "address and program counter; a hang ends in a timeout, or on the emulated\n"
           "GPU in a hang report at a budget; every emulated hang report, a timeout's\n"
           "included, says where the waves were), 2 bad usage.\n",
           rdx_cli_emu_targets());
}

typedef struct cli_out {
    uint32_t arg;
    const char *path;
} cli_out;

/* One --out N:FILE (whether argument N exists and is a buffer is checked
 * against the kernel later, in check_outs). */
static int parse_out(const char *spec, cli_out *o)
{
    const char *colon = strchr(spec, ':');
    if (!colon)
        return rdx_cli_usage_error(CMD,
                                   "--out %s: expected N:FILE (no ':' after the argument "
                                   "index N)",
                                   spec);
    char num[32];
    size_t len = (size_t)(colon - spec);
    uint64_t n;
    if (len == 0 || len >= sizeof num)
        return rdx_cli_usage_error(CMD, "--out %s: expected N:FILE, N an argument index", spec);
    memcpy(num, spec, len);
    num[len] = 0;
    if (rdx_cli_parse_u64(num, &n) || n > UINT32_MAX)
        return rdx_cli_usage_error(CMD, "--out %s: '%s' is not an argument index (0, 1, ...)", spec,
                                   num);
    if (!colon[1])
        return rdx_cli_usage_error(CMD, "--out %s: no FILE after '%s:'", spec, num);
    o->arg = (uint32_t)n;
    o->path = colon + 1;
    return RDX_EXIT_OK;
}

typedef struct run_state {
    rdx_device *dev;
    rdx_program *prog;
    rdx_queue *q;
    rdx_cli_launch L; /* the launch options */
    int fidelity;     /* --fidelity: print the estimate run's fidelity report */
} run_state;

static void cleanup(run_state *s)
{
    for (int i = 0; i < s->L.nargs; i++)
        rdx_buffer_free(s->L.args[i].buf);
    rdx_cli_launch_free(&s->L);
    if (s->q && rdx_queue_destroy(s->q))
        fprintf(stderr, "rdx run: %s\n", rdx_error_message());
    rdx_program_free(s->prog);
    if (rdx_device_close(s->dev))
        fprintf(stderr, "rdx run: %s\n", rdx_error_message());
}

/* Each --out names an argument that exists and is a buffer (the arguments
 * already match the kernel's: rdx_kernel_pack_args accepted them). */
static int check_outs(const run_state *s, const rdx_kernel *k, const cli_out *outs, int nouts)
{
    for (int i = 0; i < nouts; i++) {
        uint32_t n = outs[i].arg;
        if (n >= (uint32_t)s->L.nargs) {
            /* the kernel's own count, or with no metadata the --arg count */
            uint32_t have =
                rdx_kernel_has_metadata(k) ? rdx_kernel_arg_count(k) : (uint32_t)s->L.nargs;
            char range[48] = "";
            if (have)
                snprintf(range, sizeof range, " (0..%u)", have - 1);
            if (rdx_kernel_has_metadata(k))
                return rdx_cli_usage_error(CMD,
                                           "--out %u:%s: argument %u does not exist: kernel %s "
                                           "has %u argument%s%s",
                                           n, outs[i].path, n, rdx_kernel_name(k), have,
                                           have == 1 ? "" : "s", range);
            return rdx_cli_usage_error(CMD,
                                       "--out %u:%s: argument %u does not exist: %u --arg "
                                       "option%s given%s",
                                       n, outs[i].path, n, have, have == 1 ? " was" : "s were",
                                       range);
        }
        if (!s->L.args[n].is_buffer)
            return rdx_cli_usage_error(CMD,
                                       "--out %u:%s: argument %u (--arg %s) is a value, not a "
                                       "buffer; --out takes a file: or zeros: argument",
                                       n, outs[i].path, n, s->L.args[n].spec);
    }
    return RDX_EXIT_OK;
}

/* The emulator's kernel time estimate (rdx_emu_counters.est_kernel_cycles,
 * engine clocks of the target's chip; docs/emu.md "Kernel time estimate") of one
 * dispatch: the kernel run once more on a private wave emulator
 * (rdx_cli_emu_launch).  RDX_OK with *c filled, or the reason there is no
 * estimate (recorded). */
static rdx_status emu_estimate(const run_state *s, const char *path, const rdx_kernel *k,
                               uint64_t wave_budget, rdx_emu_counters *c)
{
    uint8_t *elf = NULL;
    size_t elf_size = 0;
    rdx_emu *emu = NULL;
    rdx_status st = rdx_file_read(path, &elf, &elf_size);
    if (!st) /* the device's target: the code object is for it (rdx_program_load checked) */
        st = rdx_emu_create(rdx_device_get_info(s->dev)->target, &emu);
    if (!st)
        st = rdx_cli_emu_launch(emu, &s->L, elf, elf_size, k, wave_budget);
    if (!st)
        *c = *rdx_emu_get_counters(emu);
    if (!st && s->fidelity)
        st = rdx_emu_fidelity_report(c, stdout);
    c->pcs = NULL; /* owned by the emulator, gone below */
    c->npc = 0;
    rdx_emu_destroy(emu);
    free(elf);
    return st;
}

/* Print the kernel time estimate (or why there is none) and put the
 * "; timing model estimate X us" suffix of the dispatch lines in est. */
static void estimate_line(const run_state *s, const char *path, const rdx_kernel *k,
                          uint64_t wave_budget, char *est, size_t size)
{
    rdx_emu_counters c = { 0 };
    if (emu_estimate(s, path, k, wave_budget, &c)) {
        printf("kernel time estimate: none (%s)\n", rdx_error_message());
        return;
    }
    const char *target = rdx_device_get_info(s->dev)->target;
    unsigned mhz = rdx_emu_clock_mhz(target); /* the clock of the chip the model ran */
    double us = (double)c.est_kernel_cycles / mhz;
    printf("kernel time estimate: %.3f us (%llu cycles at %u MHz, %s-bound; the emulator's "
           "timing model of a %s)\n",
           us, (unsigned long long)c.est_kernel_cycles, mhz, rdx_emu_bound_name(c.est_bound),
           target);
    snprintf(est, size, "; timing model estimate %.3f us", us);
}

static int run(run_state *s, const char *path, const cli_out *outs, int nouts, rdx_device_kind kind,
               const char *arch, uint64_t repeat, uint32_t timeout, uint64_t wave_budget,
               uint64_t dispatch_budget)
{
    char co_arch[16];
    rdx_device_options o = {
        .kind = kind,
        .emu_wave_budget = wave_budget,
        .emu_dispatch_budget = dispatch_budget,
        .emu_arch = arch ? arch : rdx_cli_codeobj_arch(path, co_arch, sizeof co_arch)
    };
    if (rdx_device_open(&o, &s->dev))
        return rdx_cli_fail(CMD);
    const rdx_device_info *di = rdx_device_get_info(s->dev);
    printf("device: %s (%s, %u CUs, %s)\n", di->name, di->target, di->cu_count, di->os_name);
    if (rdx_program_load_file(s->dev, path, &s->prog))
        return rdx_cli_fail(CMD);
    const rdx_kernel *k = NULL;
    int prc = rdx_cli_pick_kernel(CMD, s->prog, path, &s->L, &k);
    if (prc)
        return prc;
    rdx_launch l = s->L.l;
    l.kernel = k;
    rdx_arg args[RDX_CLI_MAX_ARGS];
    for (int i = 0; i < s->L.nargs; i++) {
        rdx_cli_arg *a = &s->L.args[i];
        if (a->is_buffer) {
            char label[40];
            snprintf(label, sizeof label, "buffer of argument %d", i); /* for fault reports */
            if (rdx_buffer_alloc(s->dev, a->size, RDX_MEM_DEVICE, &a->buf) ||
                rdx_buffer_set_label(a->buf, label))
                return rdx_cli_fail(CMD);
            if (a->data && rdx_buffer_upload(a->buf, 0, a->data, a->size))
                return rdx_cli_fail(CMD);
            a->arg = rdx_arg_buffer(a->buf);
        }
        args[i] = a->arg;
    }
    l.args = args;
    l.nargs = (uint32_t)s->L.nargs;
    /* Check the layout first: a mismatch is bad usage. */
    uint8_t scratch[4096];
    uint32_t size;
    if (rdx_kernel_pack_args(k, &l, scratch, sizeof scratch, &size)) {
        char sig[1024];
        rdx_cli_signature(k, sig, sizeof sig);
        return rdx_cli_usage_error(CMD, "%s\nthe kernel is %s", rdx_error_message(), sig);
    }
    int rc = check_outs(s, k, outs, nouts);
    if (rc)
        return rc;
    printf("kernel: %s, grid %ux%ux%u workgroups of %ux%ux%u, %u argument bytes%s\n",
           rdx_kernel_name(k), l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2],
           size, rdx_kernel_has_metadata(k) ? "" : " (no metadata: packed)");
    /* On the emulated GPU a dispatch's time is the wall time of its
     * emulation; the timing model's estimate of the kernel on a real gfx1100
     * is printed beside it. */
    int emulated = !strcmp(di->os_name, "emu");
    char est[160] = "";
    const char *what = emulated ? "emulated (wall time of the emulation)" : "GPU time";
    if (s->fidelity && !emulated)
        printf("fidelity: only on the emulated GPU (--device emu)\n");
    if (rdx_queue_create(s->dev, RDX_QUEUE_COMPUTE, &s->q))
        return rdx_cli_fail(CMD);
    uint64_t total = 0;
    for (uint64_t r = 0; r < repeat; r++) {
        uint64_t t, ns;
        if (rdx_queue_dispatch(s->q, &l, &t))
            return rdx_cli_fail(CMD);
        rdx_status st = rdx_queue_wait(s->q, t, timeout);
        if (st == RDX_ERR_TIMEOUT) {
            /* Abandon the hung dispatch: the queue is recreated (on the
             * emulated GPU its waves stop at once), so closing does not wait
             * for it, and the abandoned ticket's report says where the GPU
             * stopped it (the emulated GPU's PC histogram). */
            char msg[4096];
            snprintf(msg, sizeof msg, "%s", rdx_error_message());
            if (rdx_queue_reset(s->q)) {
                fprintf(stderr, "rdx %s: %s\n", CMD, msg);
                return rdx_cli_fail(CMD);
            }
            (void)rdx_queue_wait(s->q, t, 0);
            fprintf(stderr, "rdx %s: %s; %s\n", CMD, msg, rdx_error_message());
            return RDX_EXIT_FAIL;
        }
        if (st)
            return rdx_cli_fail(CMD);
        if (rdx_queue_dispatch_time(s->q, t, &ns))
            return rdx_cli_fail(CMD);
        total += ns;
        /* after the first dispatch ran well (a fault or hang is reported by
         * the device first; the estimate's run then ends within the budget) */
        if (emulated && r == 0)
            estimate_line(s, path, k, wave_budget, est, sizeof est);
        if (repeat <= 10 || r < 3 || r + 1 == repeat)
            printf("dispatch %llu: %.3f us %s%s\n", (unsigned long long)(r + 1), ns / 1e3, what,
                   est);
    }
    if (repeat > 1)
        printf("%llu dispatches: %.3f us %s on average%s\n", (unsigned long long)repeat,
               total / 1e3 / (double)repeat, what, est);
    for (int i = 0; i < nouts; i++) {
        rdx_cli_arg *a = &s->L.args[outs[i].arg];
        uint8_t *data = malloc(a->size);
        if (!data)
            return rdx_cli_usage_error(CMD, "out of memory");
        rdx_status st = rdx_buffer_download(a->buf, 0, data, a->size);
        if (st == RDX_OK)
            st = rdx_file_write(outs[i].path, data, a->size);
        free(data);
        if (st)
            return rdx_cli_fail(CMD);
        printf("wrote argument %u (%llu bytes) to %s\n", outs[i].arg, (unsigned long long)a->size,
               outs[i].path);
    }
    return RDX_EXIT_OK;
}

/* `rdx run --profile ...`: the same launch through rdx prof's on-the-queue profile
   (`rdx prof --source hw`, tools/prof_hw.c: perf counters and SQ thread trace on the device). */
static int run_profile(int argc, char **argv, int at)
{
    char **av = calloc((size_t)argc + 3, sizeof *av);
    if (!av)
        return rdx_cli_usage_error(CMD, "out of memory");
    int n = 0;
    av[n++] = (char *)"prof";
    av[n++] = (char *)"--source";
    av[n++] = (char *)"hw";
    for (int i = 1; i < argc; i++)
        if (i != at)
            av[n++] = argv[i];
    int rc = rdx_cmd_prof(n, av);
    free(av);
    return rc;
}

int rdx_cmd_run(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--profile"))
            return run_profile(argc, argv, i);
    static const struct option opts[] = { RDX_CLI_LAUNCH_OPTS,
                                          { "out", required_argument, NULL, 'o' },
                                          { "device", required_argument, NULL, 'd' },
                                          { "arch", required_argument, NULL, 'A' },
                                          { "repeat", required_argument, NULL, 'r' },
                                          { "timeout", required_argument, NULL, 't' },
                                          { "wave-budget", required_argument, NULL, 'w' },
                                          { "dispatch-budget", required_argument, NULL, 'D' },
                                          { "fidelity", no_argument, NULL, 'F' },
                                          { "help", no_argument, NULL, 'h' },
                                          { NULL, 0, NULL, 0 } };
    run_state s;
    memset(&s, 0, sizeof s);
    int nouts = 0, rc = RDX_EXIT_OK;
    cli_out outs[MAX_OUTS];
    rdx_device_kind kind = RDX_DEVICE_AUTO;
    const char *arch = NULL;
    uint64_t repeat = 1, timeout = 60000, wave_budget = 0, dispatch_budget = 0;
    optind = 0; /* full reinitialisation: main parsed with "+" */
    opterr = 0;
    int c;
    while (rc == RDX_EXIT_OK && (c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'k':
        case 'g':
        case 'b':
        case 'a':
            rc = rdx_cli_launch_option(CMD, c, optarg, &s.L);
            break;
        case 'o':
            if (nouts == MAX_OUTS)
                rc = rdx_cli_usage_error(CMD, "more than %d --out options", MAX_OUTS);
            else
                rc = parse_out(optarg, &outs[nouts++]);
            break;
        case 'd':
            if (!strcmp(optarg, "emu"))
                kind = RDX_DEVICE_EMU;
            else if (!strcmp(optarg, "kfd"))
                kind = RDX_DEVICE_KFD;
            else
                rc = rdx_cli_usage_error(CMD, "--device %s: expected emu or kfd", optarg);
            break;
        case 'A':
            arch = optarg;
            if (rdx_emudev_check_arch("--arch", arch, 1))
                rc = rdx_cli_usage_error(CMD, "%s", rdx_error_message());
            break;
        case 'r':
            if (rdx_cli_parse_u64(optarg, &repeat) || repeat == 0)
                rc = rdx_cli_usage_error(CMD, "--repeat %s: expected a count >= 1", optarg);
            break;
        case 't':
            if (rdx_cli_parse_u64(optarg, &timeout) || timeout == 0 || timeout >= UINT32_MAX)
                rc = rdx_cli_usage_error(CMD, "--timeout %s: expected milliseconds >= 1", optarg);
            break;
        case 'w':
            if (rdx_cli_parse_u64(optarg, &wave_budget) || wave_budget == 0)
                rc = rdx_cli_usage_error(CMD, "--wave-budget %s: expected instructions >= 1",
                                         optarg);
            break;
        case 'D':
            if (rdx_cli_parse_u64(optarg, &dispatch_budget) || dispatch_budget == 0)
                rc = rdx_cli_usage_error(CMD, "--dispatch-budget %s: expected instructions >= 1",
                                         optarg);
            break;
        case 'F':
            s.fidelity = 1;
            break;
        case 'h':
            help();
            rdx_cli_launch_free(&s.L);
            return RDX_EXIT_OK;
        default:
            rc = rdx_cli_usage_error(CMD, "unknown or incomplete option '%s'", argv[optind - 1]);
            break;
        }
    }
    if (rc == RDX_EXIT_OK && optind != argc - 1)
        rc = rdx_cli_usage_error(CMD, optind >= argc ? "no code object given"
                                                     : "expected one code object");
    if (rc == RDX_EXIT_OK && (!s.L.have_grid || !s.L.have_block))
        rc = rdx_cli_usage_error(CMD, "--grid and --block are required");
    if (rc == RDX_EXIT_OK)
        rc = run(&s, argv[optind], outs, nouts, kind, arch, repeat, (uint32_t)timeout, wave_budget,
                 dispatch_budget);
    cleanup(&s);
    return rc;
}
