/*
 * emu/dev/exec_pending.c — TEMPORARY: packet execution waits for the pm4
 * layer's packet decoder (branch pm4).  Until it is merged every packet
 * stops the queue with a clear error; nothing here pretends to execute.
 */
#include "emu/dev/emudev.h"

int emu_pm4_run(rdx_emudev *dev, emu_queue *q, uint64_t wptr)
{
    (void)wptr;
    emu_queue_fail(dev, q, "PM4 execution not available: the pm4 packet decoder is not merged");
    return -1;
}

int emu_sdma_run(rdx_emudev *dev, emu_queue *q, uint64_t wptr)
{
    (void)wptr;
    emu_queue_fail(dev, q, "SDMA execution not available: the pm4 packet decoder is not merged");
    return -1;
}
