/*
 * runtime/peer.c — several GPUs in one process: opening a machine's GPUs as
 * devices, and which of them may touch each other's memory.
 *
 * A device whose GPU the topology links to every other GPU of the process
 * allocates its heap blocks mapped into all of them
 * (AMDKFD_IOC_MAP_MEMORY_TO_GPU with every gpu id, as libhsakmt does for
 * memory the runtime makes accessible to peers).  GPU addresses are the same
 * in every GPU's VM (the SVM aperture is the process's address space), so a
 * buffer's address is valid on each of them.
 */
#include "runtime/internal.h"

#include <stdio.h>
#include <stdlib.h>

bool rt_peers_linked(const rdx_kfd *k, uint32_t gpu)
{
    uint32_t n = rdx_kfd_gpu_count(k);
    if (n < 2)
        return false;
    const rdx_kfd_gpu_info *g = rdx_kfd_gpu(k, gpu);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t node = rdx_kfd_gpu(k, i)->node_id;
        if (i != gpu && (node >= 64 || !(g->linked_nodes & (1ull << node))))
            return false;
    }
    return true;
}

bool rdx_device_can_access_peer(const rdx_device *dev, const rdx_device *peer)
{
    if (!dev || !peer)
        return false;
    return dev == peer || (dev->kfd == peer->kfd && dev->peers && peer->peers);
}

rdx_status rdx_device_open_all(const rdx_device_options *opts, uint32_t n, rdx_device **out)
{
    if (!out || n < 1 || n > RDX_MAX_GPUS)
        return rdx_fail(RDX_ERR_INVALID, "rdx_device_open_all: %u devices (expected 1..%d)%s", n,
                        RDX_MAX_GPUS, out ? "" : ", no output array");
    rdx_device_options o = { 0 };
    if (opts)
        o = *opts;
    const char *env = getenv("RDX_EMU_GPUS");
    if (!o.emu_gpus && !(env && *env))
        o.emu_gpus = n;
    for (uint32_t i = 0; i < n; i++) {
        o.gpu = i;
        rdx_status st = rdx_device_open(&o, &out[i]);
        if (st) {
            char msg[1024];
            snprintf(msg, sizeof msg, "%s", rdx_error_message());
            for (uint32_t j = 0; j < i; j++) {
                rdx_device_close(out[j]);
                out[j] = NULL;
            }
            return rdx_fail(st, "rdx_device_open_all: GPU %u of %u: %s", i, n, msg);
        }
        o.quiet = true; /* AUTO's fallback notice once, not per GPU */
    }
    return RDX_OK;
}
