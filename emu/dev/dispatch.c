/*
 * emu/dev/dispatch.c — DISPATCH_DIRECT on the wave emulator (rdx/emu.h).
 *
 * The dispatch is described by the queue's shadow SH registers, as the
 * hardware reads them: COMPUTE_PGM_LO/HI (code address >> 8), PGM_RSRC1/2/3,
 * COMPUTE_USER_DATA_0.. (rsrc2.USER_SGPR of them, loaded into s0..),
 * NUM_THREAD_X/Y/Z (workgroup size), TMPRING_SIZE.WAVESIZE (scratch per wave,
 * 256-byte units; 15 bits on gfx11, 18 on gfx12) and rsrc2.LDS_SIZE
 * (512-byte units); the initiator gives wave32 (CS_W32_EN) and whether the
 * dimensions count threads (USE_THREAD_DIMENSIONS) or workgroups.  Each GPU
 * has its own emulator instance, of its target, whose registered memory
 * follows the buffers mapped to that GPU.  A VM fault raises the memory-fault event with the
 * faulting address; other faults (bad instruction, hang) raise the hardware-exception event.  The
 * queue stops in both cases.  The queue's `destroying` flag is the
 * dispatch's cancel hook: destroying the queue (or closing the process's
 * last /dev/kfd fd, or destroying the device) ends a running dispatch within
 * one slice of 4096 instructions per host thread, between workgroups too,
 * without a fault event; its report (the stopped waves' PC histogram)
 * becomes the device's last error (rdx_emudev_last_error).
 */
#include "emu/dev/emudev.h"
#include "kfd/compat/kfd_ioctl_flags.h"

#include <rdx/emu.h>
#include <rdx/pm4.h>

#define LDS_GRANULE     512u /* COMPUTE_PGM_RSRC2.LDS_SIZE unit on gfx11 */
#define SCRATCH_GRANULE 256u /* COMPUTE_TMPRING_SIZE.WAVESIZE unit on gfx11 */

#define SH(q, name) ((q)->sh_regs[RDX_PM4_REG_##name - RDX_PM4_SH_REG_START])

void emu_gpu_map_notify(rdx_emudev *dev, emu_bo *b, uint32_t gpu, int mapped)
{
    rdx_emu *emu = dev->gpus[gpu].emu;
    if (!emu)
        return;
    if (mapped) {
        unsigned access = RDX_EMU_READ | (b->flags & RDX_KFD_ALLOC_WRITABLE ? RDX_EMU_WRITE : 0);
        (void)rdx_emu_map(emu, b->va, b->size, access); /* ranges never overlap per GPU */
    } else {
        (void)rdx_emu_unmap(emu, b->va);
    }
}

int emu_dispatch(rdx_emudev *dev, emu_queue *q, uint32_t x, uint32_t y, uint32_t z,
                 uint32_t initiator)
{
    rdx_emu *emu = dev->gpus[q->gpu].emu;
    if (!emu) {
        emu_queue_fail(dev, q, "DISPATCH_DIRECT on a %s: unsupported by the wave emulator (%s)",
                       dev->gpus[q->gpu].t->name, dev->gpus[q->gpu].emu_error);
        return -1;
    }
    rdx_emu_dispatch d = { 0 };
    d.code = ((uint64_t)SH(q, COMPUTE_PGM_HI) << 32 | SH(q, COMPUTE_PGM_LO)) << 8;
    d.rsrc1 = SH(q, COMPUTE_PGM_RSRC1);
    d.rsrc2 = SH(q, COMPUTE_PGM_RSRC2);
    d.rsrc3 = SH(q, COMPUTE_PGM_RSRC3);
    int wave32 = rdx_pm4_reg_get(initiator, RDX_PM4_RF_COMPUTE_DISPATCH_INITIATOR_CS_W32_EN);
    d.code_properties = wave32 ? 1u << 10 : 0;
    uint32_t wg[3] = {
        rdx_pm4_reg_get(SH(q, COMPUTE_NUM_THREAD_X),
                        RDX_PM4_RF_COMPUTE_NUM_THREAD_X_NUM_THREAD_FULL),
        rdx_pm4_reg_get(SH(q, COMPUTE_NUM_THREAD_Y),
                        RDX_PM4_RF_COMPUTE_NUM_THREAD_Y_NUM_THREAD_FULL),
        rdx_pm4_reg_get(SH(q, COMPUTE_NUM_THREAD_Z),
                        RDX_PM4_RF_COMPUTE_NUM_THREAD_Z_NUM_THREAD_FULL),
    };
    uint32_t dim[3] = { x, y, z };
    int threads =
        rdx_pm4_reg_get(initiator, RDX_PM4_RF_COMPUTE_DISPATCH_INITIATOR_USE_THREAD_DIMENSIONS);
    for (int i = 0; i < 3; i++) {
        if (!wg[i])
            wg[i] = 1;
        uint64_t g = threads ? dim[i] : (uint64_t)dim[i] * wg[i];
        if (g > UINT32_MAX || dim[i] == 0) {
            emu_queue_fail(dev, q, "DISPATCH_DIRECT: grid dimension %d of %u %s", i, dim[i],
                           dim[i] ? "overflows" : "is empty");
            return -1;
        }
        d.grid[i] = (uint32_t)g;
        d.wg[i] = wg[i];
    }
    d.user_sgpr_count = rdx_pm4_reg_get(d.rsrc2, RDX_PM4_RF_COMPUTE_PGM_RSRC2_USER_SGPR);
    for (uint32_t i = 0; i < d.user_sgpr_count && i < 16; i++)
        d.user_sgpr[i] = q->sh_regs[RDX_PM4_REG_COMPUTE_USER_DATA_0 - RDX_PM4_SH_REG_START + i];
    if (d.user_sgpr_count >= 2)
        d.kernarg = (uint64_t)d.user_sgpr[1] << 32 | d.user_sgpr[0];
    d.group_segment_size =
        rdx_pm4_reg_get(d.rsrc2, RDX_PM4_RF_COMPUTE_PGM_RSRC2_LDS_SIZE) * LDS_GRANULE;
    /* WAVESIZE: 15 bits on gfx11, 18 on gfx12 (rdx/pm4_defs.h) */
    uint32_t tmpring = SH(q, COMPUTE_TMPRING_SIZE);
    uint32_t wave_bytes =
        (dev->gpus[q->gpu].t->gc[0] == 12
             ? (tmpring >> RDX_PM4_GFX12_TMPRING_WAVESIZE_LO) &
                   ((1u << RDX_PM4_GFX12_TMPRING_WAVESIZE_W) - 1)
             : rdx_pm4_reg_get(tmpring, RDX_PM4_RF_COMPUTE_TMPRING_SIZE_WAVESIZE)) *
        SCRATCH_GRANULE;
    d.private_segment_size = wave_bytes / (wave32 ? 32 : 64);
    d.budget = dev->wave_budget;
    d.dispatch_budget = dev->dispatch_budget;
    d.cancel = &q->destroying; /* DESTROY_QUEUE stops a hung dispatch (emu_queue_mark_destroying) */
    /* Run with the lock dropped so WAIT_EVENTS (with its timeout) and event
     * calls proceed; calls that change mappings or queues wait (emu_wait_idle). */
    emu_gpu *gpu = &dev->gpus[q->gpu];
    while (gpu->idle_waiters) /* a thread waits for this GPU to be idle (emu_wait_gpus_idle) */
        pthread_cond_wait(&dev->idle, &dev->lock);
    emu_perf_dispatch_begin(dev, q); /* counted or traced: profiling on (perf.c) */
    dev->dispatching++;
    gpu->dispatching++;
    if ((uint32_t)dev->dispatching > dev->stats.dispatches_max)
        dev->stats.dispatches_max = (uint32_t)dev->dispatching;
    pthread_mutex_unlock(&dev->lock);
    rdx_status st = rdx_emu_run(emu, &d);
    pthread_mutex_lock(&dev->lock);
    dev->dispatching--;
    gpu->dispatching--;
    pthread_cond_broadcast(&dev->idle);
    if (st == RDX_OK)
        return emu_perf_dispatch_end(dev, q, initiator);
    const rdx_emu_fault *f = rdx_emu_last_fault(emu);
    if (__atomic_load_n(&q->destroying, __ATOMIC_ACQUIRE)) {
        /* The queue is being destroyed (e.g. rdx_queue_reset of a hung
         * queue): its waves are dropped without a fault event; where they
         * were stays readable as the device's last error. */
        q->error = 1;
        emu_set_error(dev, "gpu %u queue %u: dispatch %ux%ux%u stopped by DESTROY_QUEUE: %s",
                      dev->gpus[q->gpu].gpu_id, q->id, x, y, z, f->message);
        return -1;
    }
    if (f->kind == RDX_EMU_FAULT_VM) {
        int present = f->write && emu_gpu_read_only_at(dev, q->gpu, f->address);
        emu_event_memory_fault(dev, q->gpu, f->address, f->write, present);
        q->error = 1; /* a VM fault is reported as such, not as a hardware exception */
    }
    emu_queue_fail(dev, q, "dispatch %ux%ux%u faulted: %s", x, y, z, f->message);
    return -1;
}
