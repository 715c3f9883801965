/*
 * tools/launch.c — the launch options `rdx run` and `rdx prof` share, and one
 * dispatch of a kernel on a private wave emulator (tools/launch.h).
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codeobj.h>
#include <rdx/emudev.h>

#include "tools/cli.h"
#include "tools/launch.h"
#include "util/error.h"
#include "util/file.h"

static int parse_arg(const char *cmd, const char *spec, rdx_cli_arg *a)
{
    memset(a, 0, sizeof *a);
    a->spec = spec;
    const char *colon = strchr(spec, ':');
    if (!colon)
        return rdx_cli_usage_error(cmd, "--arg %s: expected KIND:VALUE", spec);
    size_t kl = (size_t)(colon - spec);
    const char *v = colon + 1;
    char *end;
    errno = 0;
    if (kl == 4 && !strncmp(spec, "file", 4)) {
        size_t n;
        if (rdx_file_read(v, &a->data, &n))
            return rdx_cli_usage_error(cmd, "--arg %s: %s", spec, rdx_error_message());
        if (n == 0) {
            free(a->data);
            a->data = NULL;
            return rdx_cli_usage_error(cmd, "--arg %s: the file is empty", spec);
        }
        a->is_buffer = 1;
        a->size = n;
        return 0;
    }
    if (kl == 5 && !strncmp(spec, "zeros", 5)) {
        if (rdx_cli_parse_u64(v, &a->size) || a->size == 0)
            return rdx_cli_usage_error(cmd, "--arg %s: expected a byte count >= 1", spec);
        a->is_buffer = 1;
        return 0;
    }
    if (kl == 3 && (!strncmp(spec, "u32", 3) || !strncmp(spec, "u64", 3))) {
        uint64_t x;
        if (rdx_cli_parse_u64(v, &x) || (spec[1] == '3' && x > UINT32_MAX))
            return rdx_cli_usage_error(cmd, "--arg %s: expected an unsigned %s-bit integer", spec,
                                       spec[1] == '3' ? "32" : "64");
        a->arg = spec[1] == '3' ? rdx_arg_u32((uint32_t)x) : rdx_arg_u64(x);
        return 0;
    }
    if (kl == 3 && !strncmp(spec, "i32", 3)) {
        long long x = strtoll(v, &end, 0);
        if (errno || end == v || *end || x < INT32_MIN || x > INT32_MAX)
            return rdx_cli_usage_error(cmd, "--arg %s: expected a signed 32-bit integer", spec);
        a->arg = rdx_arg_i32((int32_t)x);
        return 0;
    }
    if (kl == 3 && (!strncmp(spec, "f32", 3) || !strncmp(spec, "f64", 3))) {
        double x = strtod(v, &end);
        if (errno == EINVAL || end == v || *end)
            return rdx_cli_usage_error(cmd, "--arg %s: expected a number", spec);
        /* a finite number too large for the type would silently become inf */
        int f32 = spec[1] == '3';
        if ((errno == ERANGE && isinf(x)) || (f32 && isfinite(x) && isinf((float)x)))
            return rdx_cli_usage_error(cmd, "--arg %s: %s does not fit %s (largest %g)", spec, v,
                                       f32 ? "a 32-bit float" : "a 64-bit float",
                                       f32 ? (double)FLT_MAX : DBL_MAX);
        a->arg = f32 ? rdx_arg_f32((float)x) : rdx_arg_f64(x);
        return 0;
    }
    return rdx_cli_usage_error(cmd,
                               "--arg %s: unknown kind '%.*s' (file, zeros, u32, i32, u64, f32, "
                               "f64)",
                               spec, (int)kl, spec);
}

/* Describe the kernel's explicit arguments for a usage message. */
void rdx_cli_signature(const rdx_kernel *k, char *buf, size_t size)
{
    size_t n = (size_t)snprintf(buf, size, "%s(", rdx_kernel_name(k));
    for (uint32_t i = 0; i < rdx_kernel_arg_count(k) && n < size; i++) {
        const rdx_kernel_arg *a = rdx_kernel_arg_at(k, i);
        n += (size_t)snprintf(buf + n, size - n, "%s%s%s%s [%u bytes]", i ? ", " : "", a->type_name,
                              *a->type_name ? " " : "", a->name, a->size);
    }
    if (n < size)
        snprintf(buf + n, size - n, ")");
}

/* The emulator's kernel time estimate (rdx_emu_counters.est_kernel_cycles,
 * engine clocks of the emulator's target; docs/emu.md "Kernel time estimate") of one
 * dispatch of `l`: the kernel run once more on a private wave emulator, on
 * host copies of the buffers' initial contents (so the device's buffers and
 * the outputs are untouched).  RDX_OK with *c filled, or the reason there is
 * no estimate (recorded). */
rdx_status rdx_cli_emu_launch(rdx_emu *emu, const rdx_cli_launch *L, const uint8_t *elf,
                              size_t elf_size, const rdx_kernel *k, uint64_t wave_budget)
{
    const rdx_cli_launch *s = L;
    const rdx_launch *l = &L->l;
    rdx_arg args[RDX_CLI_MAX_ARGS];
    uint8_t *host[RDX_CLI_MAX_ARGS] = { 0 };
    rdx_emu_buffer bufs[RDX_CLI_MAX_ARGS];
    size_t nbufs = 0;
    uint8_t kernarg[4096];
    uint32_t kernarg_size = 0;
    rdx_status st = RDX_OK;
    for (int i = 0; i < s->nargs && !st; i++) {
        const rdx_cli_arg *a = &s->args[i];
        args[i] = a->arg;
        if (!a->is_buffer)
            continue;
        /* 64 spare bytes: vector loads near the end may touch them (as realize's estimate) */
        host[i] = a->size <= SIZE_MAX - 64 ? calloc(1, (size_t)a->size + 64) : NULL;
        if (!host[i]) {
            st = rdx_fail(RDX_ERR_NOMEM, "no host memory for a copy of argument %d", i);
            break;
        }
        if (a->data)
            memcpy(host[i], a->data, a->size);
        args[i] = rdx_arg_u64((uint64_t)(uintptr_t)host[i]);
        bufs[nbufs++] = (rdx_emu_buffer){ host[i], (size_t)a->size + 64, RDX_EMU_RW };
    }
    rdx_launch hl = *l;
    hl.args = args;
    hl.nargs = (uint32_t)s->nargs;
    hl.kernel = k;
    rdx_emu_launch el = { .bufs = bufs, .nbufs = nbufs, .budget = wave_budget };
    for (int d = 0; d < 3 && !st; d++) {
        uint64_t items = (uint64_t)l->grid[d] * l->block[d];
        if (items > UINT32_MAX)
            st = rdx_fail(RDX_ERR_RANGE,
                          "the grid has %llu work-items in dimension %d, more than "
                          "the emulator's launch takes",
                          (unsigned long long)items, d);
        el.grid[d] = (uint32_t)items;
        el.wg[d] = l->block[d];
    }
    if (!st)
        st = rdx_kernel_pack_args(k, &hl, kernarg, sizeof kernarg, &kernarg_size);
    el.kernarg = kernarg;
    el.kernarg_size = kernarg_size;
    if (!st)
        st = rdx_emu_run_codeobj(emu, elf, elf_size, rdx_kernel_name(k), &el);
    for (int i = 0; i < s->nargs; i++)
        free(host[i]);
    return st;
}

int rdx_cli_launch_option(const char *cmd, int c, const char *optarg, rdx_cli_launch *L)
{
    switch (c) {
    case 'k':
        L->kname = optarg;
        return RDX_EXIT_OK;
    case 'g':
        L->have_grid = 1;
        return rdx_cli_parse_dims(cmd, "--grid", optarg, L->l.grid);
    case 'b':
        L->have_block = 1;
        return rdx_cli_parse_dims(cmd, "--block", optarg, L->l.block);
    case 'a': {
        if (L->nargs == RDX_CLI_MAX_ARGS)
            return rdx_cli_usage_error(cmd, "more than %d --arg options", RDX_CLI_MAX_ARGS);
        int rc = parse_arg(cmd, optarg, &L->args[L->nargs]);
        if (rc == RDX_EXIT_OK)
            L->nargs++;
        return rc;
    }
    default:
        return rdx_cli_usage_error(cmd, "unknown option");
    }
}

void rdx_cli_launch_free(rdx_cli_launch *L)
{
    for (int i = 0; i < L->nargs; i++) {
        free(L->args[i].data);
        L->args[i].data = NULL;
    }
}

int rdx_cli_pick_kernel(const char *cmd, const rdx_program *prog, const char *path,
                        const rdx_cli_launch *L, const rdx_kernel **out)
{
    if (L->kname) {
        if (rdx_program_find(prog, L->kname, out))
            return rdx_cli_usage_error(cmd, "%s", rdx_error_message());
        return RDX_EXIT_OK;
    }
    if (rdx_program_kernel_count(prog) == 1) {
        *out = rdx_program_kernel_at(prog, 0);
        return RDX_EXIT_OK;
    }
    rdx_program_find(prog, "", out);
    return rdx_cli_usage_error(cmd, "%s has %zu kernels; choose one with --kernel (%s)", path,
                               rdx_program_kernel_count(prog), rdx_error_message());
}

/* Whether RDX_EMU_ARCH chose the emulated GPU's target. */
static int env_arch_set(void)
{
    const char *env = getenv("RDX_EMU_ARCH");
    return env && *env;
}

/* The emulated target of an opened code object (co may be NULL; freed here), into buf; NULL
   when none. */
static const char *arch_of(rdx_codeobj *co, char *buf, size_t size)
{
    if (!co || !co->target) {
        rdx_codeobj_free(co);
        rdx_error_clear();
        return NULL;
    }
    snprintf(buf, size, "%s", co->target->name);
    rdx_codeobj_free(co);
    for (uint32_t i = 0; rdx_emudev_target_name(i); i++)
        if (!strcmp(rdx_emudev_target_name(i), buf))
            return buf;
    return NULL;
}

const char *rdx_cli_codeobj_arch(const char *path, char *buf, size_t size)
{
    rdx_codeobj *co = NULL;
    if (env_arch_set())
        return NULL;
    if (rdx_codeobj_read_file(path, &co) != RDX_OK) {
        rdx_codeobj_free(co);
        co = NULL;
    }
    return arch_of(co, buf, size);
}

const char *rdx_cli_codeobj_arch_of(const void *elf, size_t len, char *buf, size_t size)
{
    rdx_codeobj *co = NULL;
    if (env_arch_set())
        return NULL;
    if (rdx_codeobj_read(elf, len, NULL, &co) != RDX_OK) {
        rdx_codeobj_free(co);
        co = NULL;
    }
    return arch_of(co, buf, size);
}
