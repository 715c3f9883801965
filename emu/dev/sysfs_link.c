/*
 * emu/dev/sysfs_link.c — the links of the virtual KFD topology: how the
 * emulated GPUs hang together, as in a box of N PCIe cards (Navi 31 has no
 * XGMI).
 *
 * As the kernel's kfd_topology.c builds them for discrete GPUs on PCIe: the
 * CPU node has one io_link to every GPU node, every GPU node one io_link to
 * the CPU, and (p2p_links, kfd_create_indirect_link_prop) one indirect link
 * to every other GPU through the CPU, whose weight is the sum of the two
 * hops.  A link's properties file lists, in the kernel's order: type (2 =
 * CRAT_IOLINK_TYPE_PCIEXPRESS), version, node_from, node_to, weight,
 * latencies, bandwidths (MB/s), recommended transfer size and SDMA engine
 * mask, flags (bit 0 ENABLED).  Peer access is enabled: the emulated GPUs
 * share one memory (GPU address == host address), so a buffer mapped to
 * several GPUs is the same bytes for all of them.
 */
#include "emu/dev/emudev.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define LINK_PCIE        2u
#define LINK_ENABLED     1u
#define LINK_WEIGHT_CPU  20u
#define LINK_PCIE4_X16MB 32000u /* MB/s of a PCIe 4.0 x16 link, each way */

/* The target node of link `idx` of `node` (io_links when !p2p), or -1. */
static int link_target(const rdx_emudev *dev, uint32_t node, int p2p, uint32_t idx)
{
    if (node == 0)
        return !p2p && idx < dev->num_gpus ? (int)idx + 1 : -1;
    if (!p2p)
        return idx == 0 ? 0 : -1;
    if (idx + 1 >= dev->num_gpus)
        return -1;
    uint32_t to = idx + 1; /* the other GPU nodes in order, skipping node itself */
    return (int)(to >= node ? to + 1 : to);
}

uint32_t emu_sysfs_link_count(const rdx_emudev *dev, uint32_t node, int p2p)
{
    if (node == 0)
        return p2p ? 0 : dev->num_gpus;
    return p2p ? dev->num_gpus - 1 : 1;
}

int emu_sysfs_link_read(rdx_emudev *dev, uint32_t node, const char *rest, char *buf, size_t cap,
                        size_t *len)
{
    unsigned idx;
    int used = 0, p2p;
    if (sscanf(rest, "/io_links/%u/properties%n", &idx, &used) == 1 && !rest[used])
        p2p = 0;
    else if ((used = 0, sscanf(rest, "/p2p_links/%u/properties%n", &idx, &used) == 1) &&
             !rest[used])
        p2p = 1;
    else
        return -ENOENT;
    int to = link_target(dev, node, p2p, idx);
    if (to < 0)
        return -ENOENT;
    uint32_t weight = p2p ? 2 * LINK_WEIGHT_CPU : LINK_WEIGHT_CPU;
    int n = snprintf(buf, cap,
                     "type %u\nversion_major 0\nversion_minor 0\nnode_from %u\nnode_to %d\n"
                     "weight %u\nmin_latency 0\nmax_latency 0\nmin_bandwidth %u\n"
                     "max_bandwidth %u\nrecommended_transfer_size 0\n"
                     "recommended_sdma_engine_id_mask 0\nflags %u\n",
                     LINK_PCIE, node, to, weight, LINK_PCIE4_X16MB, LINK_PCIE4_X16MB, LINK_ENABLED);
    if (n < 0 || (size_t)n >= cap)
        return -EFBIG;
    *len = (size_t)n;
    return 0;
}

int emu_sysfs_link_list(rdx_emudev *dev, uint32_t node, const char *rest, rdx_os_dir_fn fn,
                        void *user)
{
    int p2p;
    unsigned idx;
    int used = 0;
    if (!strcmp(rest, "/io_links") || !strcmp(rest, "/p2p_links")) {
        p2p = rest[1] == 'p';
        char name[16];
        for (uint32_t i = 0; i < emu_sysfs_link_count(dev, node, p2p); i++) {
            snprintf(name, sizeof name, "%u", i);
            int r = fn(user, name);
            if (r)
                return r;
        }
        return 0;
    }
    if (sscanf(rest, "/io_links/%u%n", &idx, &used) == 1 && !rest[used])
        p2p = 0;
    else if ((used = 0, sscanf(rest, "/p2p_links/%u%n", &idx, &used) == 1) && !rest[used])
        p2p = 1;
    else
        return -ENOENT;
    if (link_target(dev, node, p2p, idx) < 0)
        return -ENOENT;
    return fn(user, "properties");
}
