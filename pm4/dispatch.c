/* pm4/dispatch.c — the gfx11 and gfx12 compute dispatch sequence. */
#include <rdx/pm4.h>

#include "pm4/internal.h"
#include "util/error.h"

uint32_t rdx_pm4_dispatch_initiator(bool wave32)
{
    return RDX_PM4_REG_PUT(COMPUTE_DISPATCH_INITIATOR, COMPUTE_SHADER_EN, 1) |
           RDX_PM4_REG_PUT(COMPUTE_DISPATCH_INITIATOR, FORCE_START_AT_000, 1) |
           RDX_PM4_REG_PUT(COMPUTE_DISPATCH_INITIATOR, CS_W32_EN, wave32);
}

/* LDS_SIZE is encoded in 512-byte units on gfx7+ (Mesa ac_gpu_info
 * lds_encode_granularity), 9 bits wide. */
#define LDS_GRANULE 512u
/* TMPRING_SIZE.WAVESIZE is in 256-byte units on gfx11 (15 bits) and gfx12 (18 bits). */
#define SCRATCH_GRANULE 256u

static uint32_t wavesize_max(uint32_t major)
{
    return major == 12 ? (1u << RDX_PM4_GFX12_TMPRING_WAVESIZE_W) - 1 : 0x7fffu;
}

static rdx_status invalid(rdx_pm4_cmdbuf *cb, const char *what, unsigned long long v,
                          const char *expected)
{
    return pm4_error(cb,
                     rdx_fail(RDX_ERR_INVALID, "rdx_pm4_dispatch: %s = %llu (0x%llx), expected %s",
                              what, v, v, expected));
}

static rdx_status check_desc(rdx_pm4_cmdbuf *cb, const rdx_pm4_dispatch_desc *d)
{
    if (d->code_addr & 0xff || d->code_addr >> 48)
        return invalid(cb, "code_addr", d->code_addr, "256-byte aligned below 2^48");
    if (d->user_sgpr_count > 16)
        return invalid(cb, "user_sgpr_count", d->user_sgpr_count, "0..16");
    uint32_t rsrc2_user = rdx_pm4_reg_get(d->rsrc2, RDX_PM4_RF_COMPUTE_PGM_RSRC2_USER_SGPR);
    if (rsrc2_user != d->user_sgpr_count)
        return invalid(cb, "user_sgpr_count", d->user_sgpr_count,
                       rsrc2_user == 1 ? "1 (rsrc2.USER_SGPR)" : "rsrc2.USER_SGPR");
    uint64_t threads = 1;
    bool by_items = d->items[0] || d->items[1] || d->items[2];
    for (int i = 0; i < 3; i++) {
        static const char *const gname[] = { "grid[0]", "grid[1]", "grid[2]" };
        static const char *const bname[] = { "block[0]", "block[1]", "block[2]" };
        static const char *const iname[] = { "items[0]", "items[1]", "items[2]" };
        if (by_items && !d->items[i])
            return invalid(cb, iname[i], d->items[i], ">= 1 (the grid is given in work-items)");
        if (by_items && d->grid[i])
            return invalid(cb, gname[i], d->grid[i], "0 when the grid is given in items[]");
        if (!by_items && !d->grid[i])
            return invalid(cb, gname[i], d->grid[i], ">= 1");
        if (!d->block[i] || d->block[i] > 1024)
            return invalid(cb, bname[i], d->block[i], "1..1024");
        threads *= d->block[i];
    }
    if (threads > 1024)
        return invalid(cb, "block[0]*block[1]*block[2]", threads, "<= 1024");
    if (d->lds_bytes > 65536)
        return invalid(cb, "lds_bytes", d->lds_bytes, "<= 65536");
    if (d->scratch_addr & 0xff || d->scratch_addr >> 48)
        return invalid(cb, "scratch_addr", d->scratch_addr, "256-byte aligned below 2^48");
    if (d->scratch_waves > 0xfff)
        return invalid(cb, "scratch_waves", d->scratch_waves, "<= 4095");
    if (d->gfx_major && d->gfx_major != 11 && d->gfx_major != 12)
        return invalid(cb, "gfx_major", d->gfx_major, "0, 11 or 12");
    uint32_t major = d->gfx_major ? d->gfx_major : 11;
    if ((d->scratch_wave_bytes + (uint64_t)SCRATCH_GRANULE - 1) / SCRATCH_GRANULE >
        wavesize_max(major))
        return invalid(cb, "scratch_wave_bytes", d->scratch_wave_bytes,
                       major == 12 ? "<= 67108608 (gfx12)" : "<= 8388352 (gfx11)");
    if (rdx_pm4_reg_get(d->rsrc2, RDX_PM4_RF_COMPUTE_PGM_RSRC2_SCRATCH_EN) &&
        (!d->scratch_addr || !d->scratch_waves || !d->scratch_wave_bytes))
        return invalid(cb, "scratch_addr", d->scratch_addr,
                       "scratch (address, waves, bytes) when rsrc2.SCRATCH_EN is set");
    return RDX_OK;
}

rdx_status rdx_pm4_dispatch(rdx_pm4_cmdbuf *cb, const rdx_pm4_dispatch_desc *d)
{
    if (cb->status)
        return cb->status;
    if (check_desc(cb, d))
        return cb->status;

    size_t start = cb->len;
    if (d->acquire)
        rdx_pm4_acquire_mem(cb, RDX_PM4_GCR_ALL);

    uint64_t pgm = d->code_addr >> 8;
    uint32_t v[6];
    v[0] = lo32(pgm);
    v[1] = RDX_PM4_REG_PUT(COMPUTE_PGM_HI, DATA, hi32(pgm));
    rdx_pm4_set_sh_reg(cb, RDX_PM4_REG_COMPUTE_PGM_LO, v, 2);

    uint32_t lds = (d->lds_bytes + LDS_GRANULE - 1) / LDS_GRANULE;
    /* PRIV = 1 on gfx11, whatever the descriptor says: the compute-wave save/restore (CWSR)
     * workaround that tinygrad's driver and AMD's kfdtest apply (DEGFX11_12113), without which
     * a preempted dispatch can hang or trap.  gfx12 does not need it (tinygrad sets it on
     * gfx11 only): its rsrc1 goes as the descriptor has it. */
    bool gfx12 = d->gfx_major == 12;
    v[0] = d->rsrc1 | (gfx12 ? 0 : RDX_PM4_REG_PUT(COMPUTE_PGM_RSRC1, PRIV, 1));
    v[1] = (d->rsrc2 & ~RDX_PM4_REG_PUT(COMPUTE_PGM_RSRC2, LDS_SIZE, ~0u)) |
           RDX_PM4_REG_PUT(COMPUTE_PGM_RSRC2, LDS_SIZE, lds);
    rdx_pm4_set_sh_reg(cb, RDX_PM4_REG_COMPUTE_PGM_RSRC1, v, 2);
    rdx_pm4_set_sh_reg(cb, RDX_PM4_REG_COMPUTE_PGM_RSRC3, &d->rsrc3, 1);

    uint32_t wavesize = (d->scratch_wave_bytes + SCRATCH_GRANULE - 1) / SCRATCH_GRANULE;
    v[0] = RDX_PM4_REG_PUT(COMPUTE_TMPRING_SIZE, WAVES, d->scratch_waves) |
           (gfx12 ? wavesize << RDX_PM4_GFX12_TMPRING_WAVESIZE_LO
                  : RDX_PM4_REG_PUT(COMPUTE_TMPRING_SIZE, WAVESIZE, wavesize));
    rdx_pm4_set_sh_reg(cb, RDX_PM4_REG_COMPUTE_TMPRING_SIZE, v, 1);

    uint64_t scratch = d->scratch_addr >> 8;
    v[0] = lo32(scratch);
    v[1] = RDX_PM4_REG_PUT(COMPUTE_DISPATCH_SCRATCH_BASE_HI, DATA, hi32(scratch));
    rdx_pm4_set_sh_reg(cb, RDX_PM4_REG_COMPUTE_DISPATCH_SCRATCH_BASE_LO, v, 2);

    if (d->user_sgpr_count)
        rdx_pm4_set_sh_reg(cb, RDX_PM4_REG_COMPUTE_USER_DATA_0, d->user_sgpr, d->user_sgpr_count);

    rdx_pm4_set_sh_reg(cb, RDX_PM4_REG_COMPUTE_RESOURCE_LIMITS, &d->resource_limits, 1);

    /* RESTART_X/Y/Z = 0: no restart state left from a dispatch that CWSR saved and restored
     * (tinygrad and kfdtest write them before every dispatch). */
    v[0] = v[1] = v[2] = 0;
    rdx_pm4_set_sh_reg(cb, RDX_PM4_REG_COMPUTE_RESTART_X, v, 3);

    /* START_X/Y/Z and NUM_THREAD_X/Y/Z are six consecutive registers; the
     * three NUM_THREAD registers share one field layout. */
    bool by_items = d->items[0] || d->items[1] || d->items[2];
    bool partial = false;
    v[0] = v[1] = v[2] = 0;
    for (int i = 0; i < 3; i++) {
        uint32_t rem = by_items ? d->items[i] % d->block[i] : 0;
        partial |= rem != 0;
        v[3 + i] = RDX_PM4_REG_PUT(COMPUTE_NUM_THREAD_X, NUM_THREAD_FULL, d->block[i]) |
                   RDX_PM4_REG_PUT(COMPUTE_NUM_THREAD_X, NUM_THREAD_PARTIAL, rem);
    }
    rdx_pm4_set_sh_reg(cb, RDX_PM4_REG_COMPUTE_START_X, v, 6);

    uint32_t initiator =
        rdx_pm4_dispatch_initiator(d->wave32) |
        RDX_PM4_REG_PUT(COMPUTE_DISPATCH_INITIATOR, USE_THREAD_DIMENSIONS, by_items) |
        RDX_PM4_REG_PUT(COMPUTE_DISPATCH_INITIATOR, PARTIAL_TG_EN, partial);
    const uint32_t *dim = by_items ? d->items : d->grid;
    rdx_pm4_dispatch_direct(cb, dim[0], dim[1], dim[2], initiator);
    if (cb->status)
        cb->len = start; /* leave no partial sequence behind */
    return cb->status;
}
