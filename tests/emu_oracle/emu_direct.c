/*
 * tests/emu_oracle/emu_direct.c — run one oracle launch directly on the wave
 * emulator (include/rdx/emu.h): the emulator's oracle test and the runtime's
 * direct-emulator reference both use it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codeobj.h>
#include <rdx/emu.h>

#include "tests/emu_oracle/oracle.h"

int rdx_oracle_run_on_emu(rdx_emu *e, const rdx_oracle_launch *l, char *msg, size_t msglen)
{
    rdx_codeobj *co = NULL;
    if (rdx_codeobj_read(l->code, l->code_size, l->kernel_name, &co)) {
        snprintf(msg, msglen, "code object: %s", rdx_error_message());
        return 1;
    }
    const rdx_codeobj_kernel *k = NULL;
    for (size_t i = 0; i < co->num_kernels; i++)
        if (!strcmp(co->kernels[i].name, l->kernel_name))
            k = &co->kernels[i];
    size_t cap = (co->text_size + 4095) & ~(size_t)4095;
    uint8_t *code = k ? aligned_alloc(4096, cap ? cap : 4096) : NULL;
    uint8_t kd[64];
    if (!k || !code || rdx_codeobj_kd_pack(&k->kd, 11, kd)) {
        snprintf(msg, msglen, "kernel %s: %s", l->kernel_name,
                 k ? "cannot pack its descriptor" : "not in the code object");
        free(code);
        rdx_codeobj_free(co);
        return 1;
    }
    memset(code, 0, cap ? cap : 4096);
    memcpy(code, co->text, co->text_size);
    rdx_emu_dispatch d;
    memset(&d, 0, sizeof d);
    rdx_emu_dispatch_from_descriptor(&d, kd);
    d.code = (uint64_t)(uintptr_t)code + k->code_offset;
    rdx_codeobj_free(co);
    for (int i = 0; i < 3; i++) {
        d.grid[i] = l->grid[i];
        d.wg[i] = l->block[i];
    }
    d.kernarg = (uint64_t)(uintptr_t)l->kernarg;
    rdx_status st = rdx_emu_map(e, (uint64_t)(uintptr_t)code, cap ? cap : 4096, RDX_EMU_READ);
    int code_mapped = !st, kernarg_mapped = 0, mapped = 0;
    if (!st && l->kernarg_size) {
        st = rdx_emu_map(e, d.kernarg, l->kernarg_size, RDX_EMU_READ);
        kernarg_mapped = !st;
    }
    /* mapped counts the buffers registered (a failed one is not unmapped) */
    for (; !st && mapped < l->nbufs; mapped++)
        if (l->bufs[mapped].size && (st = rdx_emu_map(e, (uint64_t)(uintptr_t)l->bufs[mapped].data,
                                                      l->bufs[mapped].size, RDX_EMU_RW)))
            break;
    if (!st)
        st = rdx_emu_run(e, &d);
    if (st)
        snprintf(msg, msglen, "%s", rdx_error_message());
    for (int i = 0; i < mapped; i++)
        if (l->bufs[i].size)
            rdx_emu_unmap(e, (uint64_t)(uintptr_t)l->bufs[i].data);
    if (kernarg_mapped)
        rdx_emu_unmap(e, d.kernarg);
    if (code_mapped)
        rdx_emu_unmap(e, (uint64_t)(uintptr_t)code);
    free(code);
    return st ? 1 : 0;
}
