/*
 * tools/cmd_prof.c — `rdx prof`: profile a kernel on the emulated GPU (of the code object's
 * target, RDX_EMU_ARCH when set) —
 * a code object (clang, hipcc, rdx), an assembly file, or every kernel of a
 * tensor-level UOp graph (through `rdx realize`'s command line) — and print
 * the per-dispatch report and annotated disassembly (tools/prof_text.c),
 * JSON, a Chrome trace, or the comparison of two inputs.  docs/prof.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdx/asm.h>
#include <rdx/codeobj.h>
#include <rdx/emu.h>
#include <rdx/emu_prof.h>
#include <rdx/runtime.h>
#include <rdx/sqtt.h>

#include "tools/cli.h"
#include "tools/launch.h"
#include "tools/prof.h"
#include "tools/realize_cli.h"
#include "util/error.h"
#include "util/file.h"

#define CMD "prof"

static void help(void)
{
    printf("Usage: rdx prof [options] INPUT [launch options]\n"
           "       rdx prof [options] --compare A B [launch options]\n"
           "\n"
           "Profile a kernel on the emulated GPU (of a code object's target, or RDX_EMU_ARCH;\n"
           "gfx1100 by default): every count is exact (the emulator ran it), every time\n"
           "comes from the emulator's timing model of that target's chip (docs/prof.md says\n"
           "which is which).  INPUT is\n"
           "  a code object (clang/hipcc/rdx ELF)  with the launch options of rdx "
           "run:\n" RDX_CLI_LAUNCH_HELP
           "                    --wave-budget N  instructions a wave may run (default 2e8)\n"
           "  an assembly file (.s)   assembled first (rdx as), launched as a code object\n"
           "  a tensor-level UOp graph (.uop)  every kernel of its schedule, with the options\n"
           "                    of rdx realize (-i, -v, --seed, --raw, --beam, ...)\n"
           "\n"
           "Options:\n"
           "  --json            everything as one JSON document on stdout\n"
           "  --trace FILE      write a Chrome trace (Perfetto, chrome://tracing): the\n"
           "                    dispatches back to back, each wave on its WGP/SIMD track from\n"
           "                    the timing model, waves-in-flight and DRAM-bandwidth counters\n"
           "  --sqtt FILE       write the emulated GPU's SQ thread trace of the (first)\n"
           "                    dispatch's workgroup 0 in the RDNA3 token format (rdx/sqtt.h)\n"
           "  --decode-sqtt FILE  decode an SQ thread trace (a card's, e.g. tinygrad's\n"
           "                    extra/sqtt examples, or --sqtt's); with INPUT (the kernel's code\n"
           "                    object; --kernel NAME) map the traced SIMD's waves to its\n"
           "                    instructions: count, first and last issue time per instruction\n"
           "  --compare-trace FILE  compare the timing model with FILE, an SQ thread trace of\n"
           "                    INPUT (a card's, same launch; RDNA3 traces, layout 3): per\n"
           "                    wave its duration, per instruction class the mean issue\n"
           "                    interval and the stalls\n"
           "  --source hw|model where the profile comes from: model (default) replays the\n"
           "                    kernel on a private wave emulator (every count exact, every\n"
           "                    time the timing model's); hw runs it on the device's queue\n"
           "                    (a card, else the emulated GPU: --arch GFX, else RDX_EMU_ARCH,\n"
           "                    else the code object's target; RDX_DEVICE=emu|kfd) with SQ\n"
           "                    perf counters and an SQ thread trace programmed by PM4\n"
           "                    register writes, as on a card, and prints the counters, the\n"
           "                    GPU time and the decoded trace's per-instruction table:\n"
           "                      count   times the traced waves issued it\n"
           "                      cycles  clocks from its issue to its wave's next issue\n"
           "                      first   the trace clock when it first issued\n"
           "                    (code objects and .s; --json, --trace, --sqtt, --sort, --top;\n"
           "                    --counters A,B,... picks the counters, at most 8 SQ_* and 2\n"
           "                    GRBM_*, from SQ_WAVES, SQ_BUSY_CYCLES, SQ_WAVE_CYCLES,\n"
           "                    SQ_INSTS_VALU/SALU/SMEM/LDS, SQ_WAVE32_INSTS, SQ_WAVE64_INSTS,\n"
           "                    SQC_LDS_BANK_CONFLICT, GRBM_COUNT, GRBM_GUI_ACTIVE)\n"
           "  --sort            annotated disassembly hottest first (default: address order)\n"
           "  --top N           only the first N lines of the disassembly (default all)\n"
           "  --no-disasm       only the per-dispatch report\n"
           "  --threads N       host threads of the emulator (code objects; the profile is\n"
           "                    identical for any N)\n"
           "  --compare A B     profile A and B (two code objects or two .uop files, same\n"
           "                    launch options) and print the per-dispatch figures side by\n"
           "                    side and the instructions whose cost changed most\n"
           "  --compare-raw F.uop   the same for one graph: heuristics (A) against --raw (B)\n"
           "  -h, --help        this help\n"
           "\n"
           "Per dispatch: the kernel time estimate and its terms (compute = waves replayed\n"
           "on the busiest WGP, of which issue and latency; L0, LDS and DRAM bandwidth\n"
           "bounds) and the bound; occupancy with the limit of each resource and what\n"
           "would give one more wave per SIMD; instruction mix; lane utilization; bytes\n"
           "by path; LDS bank conflicts; the cache model's hit rates; the waves' cycles\n"
           "split into issue and stall reasons.\n"
           "\n"
           "Annotated disassembly columns:\n"
           "  offset    byte offset of the instruction from the kernel's entry\n"
           "  count     wave-instructions executed there (all waves)\n"
           "  lanes     average active lanes (EXEC bits) when it executed\n"
           "  cyc%%      its share of all waves' cycles (issue + stalls)\n"
           "  issue     issue cycles (the model's per-class table)\n"
           "  vmcnt     cycles s_waitcnt waited for vector memory (loads/stores)\n"
           "  lgkmcnt   cycles s_waitcnt waited for LDS, scalar memory, messages\n"
           "  depend    data dependency: cycles of s_delay_alu\n"
           "  barrier   cycles waited at s_barrier for the other waves of the group\n"
           "  hazard    wait states: cycles of s_nop\n"
           "  branch    the model's extra cycle of every branch\n"
           "  sleep     s_sleep\n"
           "  then the instruction, its source line (code objects with DWARF line tables,\n"
           "  clang -g) and LDS bank-conflict cycles.  Per wave, issue + the stall columns\n"
           "  sum to the wave's cycles.\n"
           "\n"
           "Exit status: 0 success, 1 the run failed, 2 bad usage.\n");
}

typedef struct prof_cli {
    int json, no_disasm, sort, compare, compare_raw;
    unsigned top, threads;
    const char *trace, *sqtt, *decode_sqtt, *compare_trace, *source;
    const char *inputs[2];
    int ninputs;
} prof_cli;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && !strcmp(s + n - m, suf);
}

int prof_load_elf(const char *path, uint8_t **elf, size_t *len)
{
    uint8_t *src;
    size_t n;
    if (rdx_file_read(path, &src, &n))
        return rdx_cli_fail(CMD);
    if (!(ends_with(path, ".s") || ends_with(path, ".asm") || ends_with(path, ".S"))) {
        *elf = src;
        *len = n;
        return RDX_EXIT_OK;
    }
    rdx_asm_options o = { .filename = path, .arch = NULL };
    rdx_asm_result *r = NULL;
    rdx_status st = rdx_asm_assemble((const char *)src, n, &o, &r);
    free(src);
    if (!r)
        return rdx_cli_fail(CMD);
    if (st) {
        for (size_t i = 0; i < r->ndiags; i++)
            fprintf(stderr, "%s\n", r->diags[i].text);
        rdx_asm_free(r);
        return RDX_EXIT_FAIL;
    }
    st = rdx_asm_write_codeobj(r, elf, len);
    rdx_asm_free(r);
    return st ? rdx_cli_fail(CMD) : RDX_EXIT_OK;
}

/* Profile one dispatch of a code object's kernel into run; an exit status. */
static int prof_codeobj(const prof_cli *pc, const char *path, int argc, char **argv, prof_run *run)
{
    static const struct option opts[] = { RDX_CLI_LAUNCH_OPTS,
                                          { "wave-budget", required_argument, NULL, 'w' },
                                          { NULL, 0, NULL, 0 } };
    rdx_cli_launch L;
    memset(&L, 0, sizeof L);
    uint64_t budget = 0;
    int rc = RDX_EXIT_OK, c;
    optind = 0;
    opterr = 0;
    while (rc == RDX_EXIT_OK && (c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 'w') {
            if (rdx_cli_parse_u64(optarg, &budget) || budget == 0)
                rc = rdx_cli_usage_error(CMD, "--wave-budget %s: expected instructions >= 1",
                                         optarg);
        } else if (c == '?' || c == ':') {
            rc = rdx_cli_usage_error(CMD, "unknown or incomplete option '%s'", argv[optind - 1]);
        } else {
            rc = rdx_cli_launch_option(CMD, c, optarg, &L);
        }
    }
    if (rc == RDX_EXIT_OK && optind != argc)
        rc = rdx_cli_usage_error(CMD, "unexpected argument '%s'", argv[optind]);
    if (rc == RDX_EXIT_OK && (!L.have_grid || !L.have_block))
        rc = rdx_cli_usage_error(CMD, "--grid and --block are required for a code object");
    uint8_t *elf = NULL;
    size_t len = 0;
    if (rc == RDX_EXIT_OK)
        rc = prof_load_elf(path, &elf, &len);
    rdx_device *dev = NULL;
    rdx_program *prog = NULL;
    rdx_emu *emu = NULL;
    const rdx_kernel *k = NULL;
    rdx_device_options dopts = { .kind = RDX_DEVICE_EMU };
    /* the emulated GPU of the code object's target (RDX_EMU_ARCH when set) */
    char arch[16] = "";
    dopts.emu_arch =
        rc == RDX_EXIT_OK ? rdx_cli_codeobj_arch_of(elf, len, arch, sizeof arch) : NULL;
    if (rc == RDX_EXIT_OK &&
        (rdx_device_open(&dopts, &dev) || rdx_program_load(dev, elf, len, path, &prog)))
        rc = rdx_cli_fail(CMD);
    if (rc == RDX_EXIT_OK)
        rc = rdx_cli_pick_kernel(CMD, prog, path, &L, &k);
    if (rc == RDX_EXIT_OK && rdx_emu_create(rdx_device_get_info(dev)->target, &emu))
        rc = rdx_cli_fail(CMD);
    if (rc == RDX_EXIT_OK) {
        rdx_emu_set_threads(emu, pc->threads);
        rdx_emu_set_profiling(emu, 1);
        double t0 = now_ms();
        if (rdx_cli_emu_launch(emu, &L, elf, len, k, budget)) {
            rc = rdx_cli_fail(CMD);
        } else {
            uint32_t grid[3], wg[3];
            for (int d = 0; d < 3; d++) {
                wg[d] = L.l.block[d];
                grid[d] = L.l.grid[d] * L.l.block[d];
            }
            if (prof_capture(run, rdx_kernel_name(k), emu, elf, len, grid, wg, now_ms() - t0))
                rc = rdx_cli_usage_error(CMD, "out of memory");
        }
    }
    rdx_emu_destroy(emu);
    rdx_program_free(prog);
    if (dev)
        rdx_device_close(dev);
    free(elf);
    rdx_cli_launch_free(&L);
    return rc;
}

typedef struct hook_ctx {
    prof_run *run;
    double t0;
    int oom;
} hook_ctx;

static void on_kernel(void *user, size_t kernel, const char *name, const rdx_emu *emu,
                      const void *elf, size_t elf_size, const uint32_t grid[3],
                      const uint32_t wg[3])
{
    hook_ctx *h = user;
    (void)kernel;
    if (prof_capture(h->run, name, emu, elf, elf_size, grid, wg, 0))
        h->oom = 1;
}

/* Profile every kernel of a tensor-level graph (rdx realize's options); an exit status. */
static int prof_uop(const prof_cli *pc, int argc, char **argv, prof_run *run)
{
    hook_ctx h = { run, now_ms(), 0 };
    rdx_cli_realize_hook hook = { on_kernel, &h, pc->json ? NULL : stdout };
    int rc = rdx_cli_realize(argc, argv, &hook);
    if (rc == RDX_EXIT_OK && h.oom)
        rc = rdx_cli_usage_error(CMD, "out of memory");
    return rc;
}

/* Profile input `path` with the remaining options rest[0..nrest) into run. */
static int profile_input(const prof_cli *pc, const char *path, int nrest, char **rest, int raw,
                         prof_run *run)
{
    snprintf(run->label, sizeof run->label, "%s%s", path, raw ? " (--raw)" : "");
    char **av = calloc((size_t)nrest + 4, sizeof *av);
    if (!av)
        return rdx_cli_usage_error(CMD, "out of memory");
    int n = 0, rc;
    av[n++] = (char *)CMD;
    for (int i = 0; i < nrest; i++)
        av[n++] = rest[i];
    if (ends_with(path, ".uop")) {
        if (raw)
            av[n++] = (char *)"--raw";
        av[n++] = (char *)path;
        rc = prof_uop(pc, n, av, run);
    } else {
        rc = prof_codeobj(pc, path, n, av, run);
    }
    free(av);
    return rc;
}

/* Whether argv[i] is one of prof's options (taken out of argv); *rc set on bad usage. */
static int take_option(prof_cli *pc, int argc, char **argv, int *i, int *rc)
{
    const char *a = argv[*i], *val = NULL;
    char name[32];
    const char *eq = strchr(a, '=');
    size_t nl = eq ? (size_t)(eq - a) : strlen(a);
    if (nl >= sizeof name)
        return 0;
    memcpy(name, a, nl);
    name[nl] = 0;
    static const char *const with_value[] = { "--trace",         "--top",   "--threads",
                                              "--compare-raw",   "--sqtt",  "--decode-sqtt",
                                              "--compare-trace", "--source" };
    int needs = 0;
    for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++)
        needs |= !strcmp(name, with_value[k]);
    if (!needs && strcmp(name, "--json") && strcmp(name, "--sort") && strcmp(name, "--no-disasm") &&
        strcmp(name, "--compare") && strcmp(name, "--help") && strcmp(name, "-h"))
        return 0;
    if (needs) {
        if (eq)
            val = eq + 1;
        else if (*i + 1 < argc)
            val = argv[++*i];
        else {
            *rc = rdx_cli_usage_error(CMD, "%s needs a value", name);
            return 1;
        }
    }
    uint64_t v;
    if (!strcmp(name, "--json"))
        pc->json = 1;
    else if (!strcmp(name, "--sort"))
        pc->sort = 1;
    else if (!strcmp(name, "--no-disasm"))
        pc->no_disasm = 1;
    else if (!strcmp(name, "--trace"))
        pc->trace = val;
    else if (!strcmp(name, "--sqtt"))
        pc->sqtt = val;
    else if (!strcmp(name, "--decode-sqtt"))
        pc->decode_sqtt = val;
    else if (!strcmp(name, "--compare-trace"))
        pc->compare_trace = val;
    else if (!strcmp(name, "--source")) {
        if (strcmp(val, "hw") && strcmp(val, "model"))
            *rc = rdx_cli_usage_error(CMD, "--source %s: expected hw or model", val);
        pc->source = val;
    } else if (!strcmp(name, "--top") || !strcmp(name, "--threads")) {
        if (rdx_cli_parse_u64(val, &v) || v > 1u << 20)
            *rc = rdx_cli_usage_error(CMD, "%s %s: expected a count", name, val);
        else if (name[2] == 't' && name[3] == 'o')
            pc->top = (unsigned)v;
        else
            pc->threads = (unsigned)v;
    } else if (!strcmp(name, "--compare")) {
        if (*i + 2 >= argc) {
            *rc = rdx_cli_usage_error(CMD, "--compare needs two inputs A B");
            return 1;
        }
        pc->compare = 1;
        pc->inputs[0] = argv[++*i];
        pc->inputs[1] = argv[++*i];
        pc->ninputs = 2;
    } else if (!strcmp(name, "--compare-raw")) {
        pc->compare_raw = 1;
        pc->inputs[0] = pc->inputs[1] = val;
        pc->ninputs = 2;
    } else {
        help();
        *rc = -1;
    }
    return 1;
}

/* The emulated SQ thread trace of run's first dispatch into path; an exit status. */
static int write_sqtt(const char *path, const prof_run *r, int quiet)
{
    uint8_t *blob = NULL;
    size_t len = 0;
    unsigned layout = r->n ? rdx_sqtt_layout_of(r->d[0].target) : 0;
    if (!r->n || rdx_sqtt_encode_profile(&r->d[0].p, layout, &blob, &len) ||
        rdx_file_write(path, blob, len)) {
        free(blob);
        return rdx_cli_fail(CMD);
    }
    free(blob);
    if (!quiet)
        printf("sqtt: %s (%zu bytes, %s layout %u, workgroup 0 of dispatch 0)\n", path, len,
               layout == 4 ? "RDNA4" : "RDNA3", layout);
    return RDX_EXIT_OK;
}

/* `--source hw`: one code object or .s through the device's queue (tools/prof_hw.c). */
static int prof_source_hw(const prof_cli *pc, int nrest, char **rest)
{
    if (pc->compare || pc->compare_raw || pc->ninputs != 1)
        return rdx_cli_usage_error(CMD, "--source hw profiles one input (no --compare)");
    if (ends_with(pc->inputs[0], ".uop"))
        return rdx_cli_usage_error(CMD, "--source hw takes a code object or a .s file; a .uop "
                                        "graph is profiled with the model (--source model)");
    prof_hw_opts o = { .json = pc->json,
                       .sort = pc->sort,
                       .no_disasm = pc->no_disasm,
                       .top = pc->top,
                       .trace = pc->trace,
                       .sqtt = pc->sqtt,
                       .device = RDX_DEVICE_AUTO };
    char **av = calloc((size_t)nrest + 2, sizeof *av);
    if (!av)
        return rdx_cli_usage_error(CMD, "out of memory");
    av[0] = (char *)CMD;
    for (int i = 0; i < nrest; i++)
        av[1 + i] = rest[i];
    int rc = prof_hw(&o, pc->inputs[0], nrest + 1, av);
    free(av);
    return rc;
}

/* Whether a launch or realize option (without "=VALUE") takes the next word as its value. */
static int takes_value(const char *a)
{
    static const char *const v[] = {
        "--kernel", "--grid",  "--block",     "--arg",         "--wave-budget",
        "-i",       "--input", "-v",          "--var",         "--seed",
        "--beam",   "--cache", "--beam-time", "--beam-budget", "--isa",
        "--device", "--gpus",  "--counters",  "--arch"
    };
    for (size_t k = 0; k < sizeof v / sizeof *v; k++)
        if (!strcmp(a, v[k]))
            return 1;
    return 0;
}

int rdx_cmd_prof(int argc, char **argv)
{
    prof_cli pc;
    memset(&pc, 0, sizeof pc);
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    if (!rest)
        return rdx_cli_usage_error(CMD, "out of memory");
    int nrest = 0, rc = RDX_EXIT_OK;
    for (int i = 1; i < argc && rc == RDX_EXIT_OK; i++) {
        if (take_option(&pc, argc, argv, &i, &rc))
            continue;
        /* the first word that is neither an option nor an option's value is the input */
        if (!pc.ninputs && !pc.compare && !pc.compare_raw && argv[i][0] != '-' &&
            !(nrest && takes_value(rest[nrest - 1]))) {
            pc.inputs[pc.ninputs++] = argv[i];
            continue;
        }
        rest[nrest++] = argv[i];
    }
    if (rc == -1) {
        free(rest);
        return RDX_EXIT_OK;
    }
    if (rc == RDX_EXIT_OK && pc.decode_sqtt) {
        const char *kname = NULL;
        for (int i = 0; i + 1 < nrest; i++)
            if (!strcmp(rest[i], "--kernel"))
                kname = rest[i + 1];
        rc = prof_decode_sqtt(pc.decode_sqtt, pc.ninputs ? pc.inputs[0] : NULL, kname);
        free(rest);
        return rc;
    }
    if (rc == RDX_EXIT_OK && pc.ninputs == 0)
        rc = rdx_cli_usage_error(CMD, "no input given (a code object, a .s file or a .uop graph)");
    if (rc == RDX_EXIT_OK && pc.source && !strcmp(pc.source, "hw")) {
        rc = prof_source_hw(&pc, nrest, rest);
        free(rest);
        return rc;
    }
    prof_run runs[2];
    memset(runs, 0, sizeof runs);
    for (int k = 0; k < pc.ninputs && rc == RDX_EXIT_OK; k++)
        rc = profile_input(&pc, pc.inputs[k], nrest, rest, pc.compare_raw && k == 1, &runs[k]);
    prof_opts po = { .sort = pc.sort, .no_disasm = pc.no_disasm, .top = pc.top };
    if (rc == RDX_EXIT_OK) {
        if (pc.compare_trace)
            rc = prof_compare_trace(stdout, pc.compare_trace, &runs[0]);
        else if (pc.ninputs == 2)
            prof_print_compare(stdout, &runs[0], &runs[1], pc.json);
        else if (pc.json)
            prof_print_json(stdout, &runs[0], &po);
        else
            prof_print_text(stdout, &runs[0], &po);
        if (rc == RDX_EXIT_OK && pc.sqtt)
            rc = write_sqtt(pc.sqtt, &runs[0], pc.json);
        if (pc.trace && prof_write_trace(pc.trace, &runs[0])) {
            fprintf(stderr, "rdx %s: cannot write the trace %s: %s\n", CMD, pc.trace,
                    strerror(errno));
            rc = RDX_EXIT_FAIL;
        } else if (pc.trace && !pc.json) {
            printf("trace: %s (open in https://ui.perfetto.dev or chrome://tracing)\n", pc.trace);
        }
    }
    prof_run_free(&runs[0]);
    prof_run_free(&runs[1]);
    free(rest);
    return rc;
}
