/*
 * tests/oracle/emu_direct.c — run one oracle launch directly on the wave
 * emulator (rdx_emu_run_codeobj of include/rdx/emu.h): the emulator's oracle
 * test and the runtime's direct-emulator reference both use it.
 */
#include <stdio.h>
#include <stdlib.h>

#include <rdx/emu.h>

#include "tests/oracle/oracle.h"

int rdx_oracle_run_on_emu(rdx_emu *e, const rdx_oracle_launch *l, char *msg, size_t msglen)
{
    rdx_emu_buffer *bufs = calloc(l->nbufs ? (size_t)l->nbufs : 1, sizeof *bufs);
    if (!bufs) {
        snprintf(msg, msglen, "out of memory");
        return 1;
    }
    for (int i = 0; i < l->nbufs; i++)
        bufs[i] = (rdx_emu_buffer){ l->bufs[i].data, l->bufs[i].size, RDX_EMU_RW };
    rdx_emu_launch r = {
        .grid = { l->grid[0], l->grid[1], l->grid[2] },
        .wg = { l->block[0], l->block[1], l->block[2] },
        .kernarg = l->kernarg,
        .kernarg_size = l->kernarg_size,
        .bufs = bufs,
        .nbufs = (size_t)l->nbufs,
    };
    rdx_status st = rdx_emu_run_codeobj(e, l->code, l->code_size, l->kernel_name, &r);
    if (st)
        snprintf(msg, msglen, "%s", rdx_error_message());
    free(bufs);
    return st ? 1 : 0;
}
