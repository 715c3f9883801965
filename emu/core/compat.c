/*
 * emu/core/compat.c — remu-compatible entry points (run_asm and
 * rdx_emu_run_asm_ex) for harnesses that drove tinygrad's remu; the target is
 * rdx_emu_run_asm_ex's argument, and RDX_EMU_ARCH (default gfx1100) for run_asm.
 */
#include <stdio.h>
#include <stdlib.h>

#include "emu/core/emu_int.h"
#include "emu/core/exec.h"
#include "util/error.h"

#define REMU_SCRATCH      (64u * 1024u)
#define REMU_LDS_GRANULES 128u /* x 512 bytes = 64 KiB */

int rdx_emu_run_asm_ex(uint64_t code, uint64_t code_size, uint32_t gx, uint32_t gy, uint32_t gz,
                       uint32_t lx, uint32_t ly, uint32_t lz, uint64_t kernarg, uint32_t rsrc2,
                       uint32_t rsrc1, uint32_t scratch_per_lane, const char *target,
                       const uint32_t *user_sgprs, uint32_t n_user_sgprs,
                       const rdx_emu_range *ranges, uint32_t nranges)
{
    if (!code || code_size == 0 || (code_size & 3))
        return rdx_fail(RDX_ERR_INVALID,
                        "run_asm: code 0x%llx of %llu bytes (need a non-empty "
                        "multiple of 4)",
                        (unsigned long long)code, (unsigned long long)code_size);
    if (n_user_sgprs > 16 || (n_user_sgprs && !user_sgprs) || (nranges && !ranges))
        return rdx_fail(RDX_ERR_INVALID, "run_asm: bad user SGPR or range arguments");
    rdx_emu *emu = NULL;
    rdx_status st = rdx_emu_create(target, &emu);
    if (st)
        return st;
    if (nranges == 0) {
        st = emu_mem_add_host_maps(&emu->mem);
    } else {
        for (uint32_t i = 0; i < nranges && !st; i++)
            st = rdx_emu_map(emu, ranges[i].addr, ranges[i].size, RDX_EMU_RW);
        if (!st && !emu_mem_find(&emu->mem, code, code_size, RDX_EMU_READ))
            st = rdx_emu_map(emu, code, code_size, RDX_EMU_READ);
    }
    if (st) {
        rdx_emu_destroy(emu);
        return st;
    }
    rdx_emu_dispatch d = { 0 };
    d.code = code;
    d.code_properties = 1u << 10; /* wave32 */
    unsigned dims = gz != 1 ? 3 : gy != 1 ? 2 : 1;
    if (rsrc2 == 0) {
        /* remu: kernarg pointer in s[0:1], workgroup IDs ending at s15, packed v0, LDS 64 KiB
           (remu grew its LDS on demand) */
        unsigned first = 16 - dims;
        rsrc2 = first << 1 | 1u << 7 | (dims >= 2) << 8 | (dims >= 3) << 9 | 2u << 11 | 1u |
                REMU_LDS_GRANULES << 15;
    }
    d.rsrc2 = rsrc2;
    /* LDS_SIZE, rsrc2[23:15]: granules of 128 dwords on gfx11 (AMDGPUUsage) */
    d.group_segment_size = ((rsrc2 >> 15) & 0x1ff) * 512u;
    /* 0: no denormal flushing (remu computed with the host's IEEE f32/f64), IEEE and DX10
       clamp on, all 256 VGPRs; otherwise the caller's COMPUTE_PGM_RSRC1 as it is */
    d.rsrc1 = rsrc1 ? rsrc1 : 63u | 3u << 16 | 3u << 18 | 1u << 21 | 1u << 23;
    d.grid[0] = gx * lx;
    d.grid[1] = gy * ly;
    d.grid[2] = gz * lz;
    d.wg[0] = lx;
    d.wg[1] = ly;
    d.wg[2] = lz;
    d.kernarg = kernarg;
    d.private_segment_size = scratch_per_lane ? scratch_per_lane : REMU_SCRATCH;
    if (n_user_sgprs) {
        for (uint32_t i = 0; i < n_user_sgprs; i++)
            d.user_sgpr[i] = user_sgprs[i];
        d.user_sgpr_count = n_user_sgprs;
    } else {
        d.user_sgpr[0] = (uint32_t)kernarg;
        d.user_sgpr[1] = (uint32_t)(kernarg >> 32);
        d.user_sgpr_count = 2;
    }
    st = rdx_emu_run(emu, &d);
    rdx_emu_destroy(emu);
    return (int)st;
}

/* run_asm's target: RDX_EMU_ARCH (as for the emulated device) when set, else gfx1100 */
int run_asm(uint64_t code, uint32_t code_size, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,
            uint32_t ly, uint32_t lz, uint64_t kernarg)
{
    const char *arch = getenv("RDX_EMU_ARCH");
    int st = rdx_emu_run_asm_ex(code, code_size, gx, gy, gz, lx, ly, lz, kernarg, 0, 0, 0,
                                arch && *arch ? arch : NULL, NULL, 0, NULL, 0);
    if (st)
        fprintf(stderr, "run_asm: %s\n", rdx_error_message());
    return st;
}
