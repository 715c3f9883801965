/* tests/emu_kernels/emu_load.c — code object loading and dispatch for the emulator tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codeobj.h>

#include "tests/emu_kernels/emu_load.h"
#include "util/error.h"

static rdx_status load_co(rdx_codeobj *co, const char *path, emu_prog *p);

rdx_status emu_prog_load(const char *path, emu_prog *p)
{
    memset(p, 0, sizeof *p);
    rdx_codeobj *co = NULL;
    rdx_status st = rdx_codeobj_read_file(path, &co);
    if (st)
        return st;
    return load_co(co, path, p);
}

rdx_status emu_prog_load_mem(const void *data, size_t len, emu_prog *p)
{
    memset(p, 0, sizeof *p);
    rdx_codeobj *co = NULL;
    rdx_status st = rdx_codeobj_read(data, len, NULL, &co);
    if (st)
        return st;
    return load_co(co, "<memory>", p);
}

static rdx_status load_co(rdx_codeobj *co, const char *path, emu_prog *p)
{
    rdx_status st = RDX_OK;
    size_t cap = (co->text_size + 4095) & ~(size_t)4095;
    p->code = aligned_alloc(4096, cap ? cap : 4096);
    p->kernels = calloc(co->num_kernels ? co->num_kernels : 1, sizeof *p->kernels);
    if (!p->code || !p->kernels) {
        rdx_codeobj_free(co);
        emu_prog_free(p);
        return rdx_fail(RDX_ERR_NOMEM, "out of memory loading %s", path);
    }
    memset(p->code, 0, cap ? cap : 4096);
    memcpy(p->code, co->text, co->text_size);
    p->code_size = cap ? cap : 4096;
    p->nkernels = co->num_kernels;
    for (size_t i = 0; i < co->num_kernels; i++) {
        struct emu_prog_kernel *k = &p->kernels[i];
        snprintf(k->name, sizeof k->name, "%s", co->kernels[i].name);
        k->entry = (uint64_t)(uintptr_t)p->code + co->kernels[i].code_offset;
        st = rdx_codeobj_kd_pack(&co->kernels[i].kd, 11, k->kd);
        k->kernarg_size = co->kernels[i].kd.kernarg_size;
        if (st)
            break;
    }
    rdx_codeobj_free(co);
    if (st)
        emu_prog_free(p);
    return st;
}

void emu_prog_free(emu_prog *p)
{
    free(p->code);
    free(p->kernels);
    memset(p, 0, sizeof *p);
}

const struct emu_prog_kernel *emu_prog_kernel(const emu_prog *p, const char *name)
{
    for (size_t i = 0; i < p->nkernels; i++)
        if (!strcmp(p->kernels[i].name, name))
            return &p->kernels[i];
    return NULL;
}

rdx_status emu_prog_run(rdx_emu *emu, const emu_prog *p, const struct emu_prog_kernel *k,
                        const uint32_t grid[3], const uint32_t wg[3], const void *kernarg,
                        size_t kernarg_size, const rdx_emu_range *ranges, size_t nranges)
{
    rdx_emu_dispatch d;
    memset(&d, 0, sizeof d);
    rdx_status st = rdx_emu_dispatch_from_descriptor(&d, k->kd);
    if (st)
        return st;
    d.code = k->entry;
    for (int i = 0; i < 3; i++) {
        d.grid[i] = grid[i];
        d.wg[i] = wg[i];
    }
    d.kernarg = (uint64_t)(uintptr_t)kernarg;
    size_t mapped = 0;
    st = rdx_emu_map(emu, (uint64_t)(uintptr_t)p->code, p->code_size, RDX_EMU_READ);
    if (!st && kernarg_size)
        st = rdx_emu_map(emu, d.kernarg, kernarg_size, RDX_EMU_READ);
    for (; !st && mapped < nranges; mapped++)
        st = rdx_emu_map(emu, ranges[mapped].addr, ranges[mapped].size, RDX_EMU_RW);
    if (!st)
        st = rdx_emu_run(emu, &d);
    rdx_status keep = st;
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", rdx_error_message());
    for (size_t i = 0; i < mapped; i++)
        rdx_emu_unmap(emu, ranges[i].addr);
    if (kernarg_size)
        rdx_emu_unmap(emu, d.kernarg);
    rdx_emu_unmap(emu, (uint64_t)(uintptr_t)p->code);
    if (keep)
        return rdx_fail(keep, "%s", msg);
    return RDX_OK;
}
