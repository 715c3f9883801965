/*
 * tests/oracle/run.c — packing the kernel-argument segment and running a
 * device (the emulator, later) against the oracle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/oracle/oracle_int.h"

static void put(uint8_t *seg, uint32_t off, uint32_t size, uint64_t v)
{
    memcpy(seg + off, &v, size); /* little-endian host */
}

void *rdx_oracle_pack_kernarg(const rdx_oracle *o, int i, int opt_index,
                              void *const bufs[RDX_ORACLE_MAX_ARGS], uint32_t *size, char *err,
                              size_t errlen)
{
    const rdx_oracle_kernel *k = rdx_oracle_kernel_at(o, i);
    const rdx_oracle_md *md = rdx_oracle_metadata(o, i, opt_index);
    if (!k || !md) {
        rdx_oracle_err(err, errlen, "kernel %d at level %d is not prepared", i, opt_index);
        return NULL;
    }
    uint32_t bytes = (md->kernarg_segment_size + 15u) & ~15u;
    uint8_t *seg = aligned_alloc(16, bytes ? bytes : 16);
    if (!seg) {
        rdx_oracle_err(err, errlen, "out of memory");
        return NULL;
    }
    memset(seg, 0, bytes ? bytes : 16);
    uint32_t full[3], rem[3];
    for (int d = 0; d < 3; d++) {
        full[d] = k->grid[d] / k->block[d];
        rem[d] = k->grid[d] % k->block[d];
    }
    uint32_t dims = (k->grid[2] > 1 || k->block[2] > 1)   ? 3
                    : (k->grid[1] > 1 || k->block[1] > 1) ? 2
                                                          : 1;
    int a = 0;
    for (int m = 0; m < md->nargs; m++) {
        const rdx_oracle_md_arg *ma = &md->args[m];
        const char *vk = ma->value_kind;
        if (ma->size > 8)
            continue; /* no such argument in the corpus; left zero */
        if (strncmp(vk, "hidden_", 7) != 0) {
            if (a >= k->nargs) {
                free(seg);
                rdx_oracle_err(err, errlen, "%s: more explicit arguments than the manifest", k->id);
                return NULL;
            }
            if (k->args[a].kind == RDX_ORACLE_ARG_BUFFER) {
                put(seg, ma->offset, ma->size, (uint64_t)(uintptr_t)bufs[a]);
            } else {
                const rdx_oracle_arg *sa = &k->args[a];
                uint64_t v = 0;
                if (sa->type == RDX_ORACLE_F32) {
                    float f = (float)sa->fval;
                    memcpy(&v, &f, 4);
                } else if (sa->type == RDX_ORACLE_F64) {
                    memcpy(&v, &sa->fval, 8);
                } else {
                    v = (uint64_t)sa->ival;
                }
                put(seg, ma->offset, ma->size, v);
            }
            a++;
            continue;
        }
        static const char *const xyz[3] = { "x", "y", "z" };
        for (int d = 0; d < 3; d++) {
            char name[40];
            snprintf(name, sizeof name, "hidden_block_count_%s", xyz[d]);
            if (!strcmp(vk, name))
                put(seg, ma->offset, ma->size, full[d]);
            snprintf(name, sizeof name, "hidden_group_size_%s", xyz[d]);
            if (!strcmp(vk, name))
                put(seg, ma->offset, ma->size, k->block[d]);
            snprintf(name, sizeof name, "hidden_remainder_%s", xyz[d]);
            if (!strcmp(vk, name))
                put(seg, ma->offset, ma->size, rem[d]);
        }
        if (!strcmp(vk, "hidden_grid_dims"))
            put(seg, ma->offset, ma->size, dims);
        /* global offsets, queue, heap, printf/hostcall buffers: zero */
    }
    *size = bytes;
    return seg;
}

int rdx_oracle_run_one(rdx_oracle *o, int i, int opt, rdx_oracle_run_fn run, void *user,
                       rdx_oracle_summary *sum, FILE *log)
{
    const char *why = rdx_oracle_status(o, i, -1);
    if (!why)
        why = rdx_oracle_status(o, i, opt);
    if (why) {
        sum->skipped++;
        if (log)
            fprintf(log, "emu oracle: %s %s: not prepared: %s\n",
                    i >= 0 && i < rdx_oracle_count(o) ? rdx_oracle_kernel_at(o, i)->id : "?",
                    opt >= 0 && opt < RDX_ORACLE_NOPT ? rdx_oracle_opts[opt] : "?", why);
        return 1;
    }
    const rdx_oracle_kernel *k = rdx_oracle_kernel_at(o, i);
    void *bufs[RDX_ORACLE_MAX_ARGS];
    rdx_oracle_buffer rb[RDX_ORACLE_MAX_ARGS];
    char err[512] = "";
    int nb = 0, failed = 0;
    rdx_oracle_make_buffers(k, bufs);
    for (int a = 0; a < k->nargs; a++) {
        if (k->args[a].kind != RDX_ORACLE_ARG_BUFFER)
            continue;
        if (!bufs[a]) {
            failed = 1;
            snprintf(err, sizeof err, "out of memory");
        }
        rb[nb++] =
            (rdx_oracle_buffer){ .data = bufs[a],
                                 .size = k->args[a].count * rdx_oracle_type_size(k->args[a].type),
                                 .arg = a,
                                 .type = k->args[a].type,
                                 .count = k->args[a].count,
                                 .is_output = k->args[a].cmp.kind != RDX_ORACLE_CMP_NONE };
    }
    uint32_t kasize = 0;
    void *ka = failed ? NULL : rdx_oracle_pack_kernarg(o, i, opt, bufs, &kasize, err, sizeof err);
    if (!ka)
        failed = 1;
    if (failed) {
        sum->device_failed++;
        if (log)
            fprintf(log, "emu oracle: %s %s: cannot set up: %s\n", k->id, rdx_oracle_opts[opt],
                    err);
        free(ka);
        rdx_oracle_free_buffers(k, bufs);
        return 1;
    }
    size_t code_size = 0;
    const uint8_t *code = rdx_oracle_code(o, i, opt, &code_size);
    rdx_oracle_launch l = { .kernel = k,
                            .opt = rdx_oracle_opts[opt],
                            .code = code,
                            .code_size = code_size,
                            .kernel_name = k->kernel,
                            .kernarg = ka,
                            .kernarg_size = kasize,
                            .bufs = rb,
                            .nbufs = nb,
                            .md = rdx_oracle_metadata(o, i, opt) };
    for (int d = 0; d < 3; d++) {
        l.grid[d] = k->grid[d];
        l.block[d] = k->block[d];
        l.groups[d] = (k->grid[d] + k->block[d] - 1) / k->block[d];
    }
    char msg[1024] = "";
    sum->launches++;
    if (run(user, &l, msg, sizeof msg) != 0) {
        sum->device_failed++;
        if (log)
            fprintf(log, "emu oracle: %s %s: device failed: %s\n", k->id, rdx_oracle_opts[opt],
                    msg[0] ? msg : "(no message)");
        failed = 1;
    } else {
        char report[2048] = "";
        size_t bad = 0;
        for (int a = 0; a < k->nargs; a++) {
            if (k->args[a].kind != RDX_ORACLE_ARG_BUFFER ||
                k->args[a].cmp.kind == RDX_ORACLE_CMP_NONE)
                continue;
            char name[16];
            snprintf(name, sizeof name, "arg%d", a);
            const void *want = rdx_oracle_expected(o, i, a, NULL);
            bad += rdx_oracle_compare(k->args[a].type, k->args[a].cmp, bufs[a], want,
                                      k->args[a].count, name, report, sizeof report, 4);
        }
        if (bad) {
            sum->mismatched++;
            failed = 1;
            if (log)
                fprintf(log, "emu oracle: %s %s: %zu element(s) differ from the host:\n%s", k->id,
                        rdx_oracle_opts[opt], bad, report);
        } else {
            sum->passed++;
        }
    }
    free(ka);
    rdx_oracle_free_buffers(k, bufs);
    return failed;
}

int rdx_oracle_run_all(rdx_oracle *o, rdx_oracle_run_fn run, void *user, rdx_oracle_summary *sum,
                       FILE *log)
{
    rdx_oracle_summary s = { 0 };
    for (int i = 0; i < rdx_oracle_count(o); i++)
        for (int opt = 0; opt < RDX_ORACLE_NOPT; opt++)
            if (rdx_oracle_level_on(o, opt))
                rdx_oracle_run_one(o, i, opt, run, user, &s, log);
    if (sum)
        *sum = s;
    return s.device_failed + s.mismatched + s.skipped;
}
