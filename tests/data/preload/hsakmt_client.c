/*
 * tests/data/preload/hsakmt_client.c — libhsakmt, the official KFD thunk, under `rdx emu`:
 * the whole sequence through its public API.  Prints one line per step and "hsakmt: ok" at
 * the end; exits 1 at the first step that fails.
 *
 * Usage: hsakmt_client NUM_GPUS MODE
 *   MODE "dispatch": open KFD, read the topology (gfx target, SIMDs, CUs, wave limits, memory
 *     banks, caches, io links), allocate and map VRAM, GTT and userptr memory, create an event
 *     and a compute queue, run a dispatch built with rdx's PM4 builders (kernel assembled
 *     with rdx's assembler), wait on the event, check the results, tear everything down.
 *   MODE "refused": the same up to the compute queue, which must fail: libhsakmt 5.2.3 sizes
 *     gfx11's context-save area with 0x40000 VGPR bytes per CU, and a current kernel (6.12+)
 *     refuses any size but its own (0x60000 per CU) — run it on the Linux 6.1 model
 *     (RDX_EMU_KERNEL=6.1) to get a queue.
 *   MODE "topology TARGETS": only open KFD and check the topology of nodes 1..NUM_GPUS against
 *     TARGETS (comma-separated, one per GPU, e.g. "gfx1100,gfx1201"; the facts each target's
 *     node must show are in `expects` below, from the sources docs/kfd.md cites).
 * Without a target list every node must be a gfx1100.
 */
#include <hsakmt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>
#include <rdx/isa.h>
#include <rdx/pm4.h>

#define STEP(call, what)                                        \
    do {                                                        \
        HSAKMT_STATUS s_ = (call);                              \
        if (s_ != HSAKMT_STATUS_SUCCESS) {                      \
            printf("hsakmt: %s failed: status %d\n", what, s_); \
            return 1;                                           \
        }                                                       \
        printf("hsakmt: %s\n", what);                           \
    } while (0)

#define CHECK(cond, ...)         \
    do {                         \
        if (!(cond)) {           \
            printf("hsakmt: ");  \
            printf(__VA_ARGS__); \
            printf("\n");        \
            return 1;            \
        }                        \
    } while (0)

/* out[gid] = s2 + gid, gid = tgid.x * 64 + tid.x (s[0:1] = out, s2 = base, s3 = tgid.x). */
static const char *const kernel_src[] = {
    "s_lshl_b32 s4, s3, 6",    "v_add_nc_u32 v0, s4, v0",         "v_add_nc_u32 v1, s2, v0",
    "v_lshlrev_b32 v0, 2, v0", "global_store_b32 v0, v1, s[0:1]", "s_endpgm"
};

/* What libhsakmt must report for a node of each target: gfx target version (KFD's
 * kgd2kfd_probe), CUs, PCI device id, L2 KiB, caches listed. */
static const struct expect {
    const char *name;
    unsigned major, minor, step, cus, device, l2_kb, caches;
} expects[] = {
    { "gfx1100", 11, 0, 0, 96, 0x744c, 6144, 5 },
    { "gfx1201", 12, 0, 1, 64, 0x7550, 8192, 5 },
    { "gfx1151", 11, 5, 1, 40, 0x1586, 2048, 5 },
};

static const struct expect *expect_of(const char *list, unsigned node)
{
    for (unsigned i = 1; list && i < node; i++) {
        list = strchr(list, ',');
        list = list ? list + 1 : NULL;
    }
    size_t len = list ? strcspn(list, ",") : 0;
    for (size_t i = 0; i < sizeof expects / sizeof expects[0]; i++)
        if (!list ? i == 0
                  : (strlen(expects[i].name) == len && !strncmp(list, expects[i].name, len)))
            return &expects[i];
    return NULL;
}

static int topology(unsigned gpus, const char *targets)
{
    HsaSystemProperties sp;
    STEP(hsaKmtAcquireSystemProperties(&sp), "system properties");
    CHECK(sp.NumNodes == gpus + 1, "%u nodes, expected %u", sp.NumNodes, gpus + 1);
    for (unsigned n = 1; n <= gpus; n++) {
        const struct expect *e = expect_of(targets, n);
        CHECK(e, "node %u: no expectations for the target list '%s'", n, targets);
        HsaNodeProperties np;
        STEP(hsaKmtGetNodeProperties(n, &np), "node properties");
        CHECK(np.EngineId.ui32.Major == e->major && np.EngineId.ui32.Minor == e->minor &&
                  np.EngineId.ui32.Stepping == e->step,
              "node %u: gfx%u%x%x, expected %s", n, np.EngineId.ui32.Major, np.EngineId.ui32.Minor,
              np.EngineId.ui32.Stepping, e->name);
        printf("hsakmt: node %u is gfx%u%x%x\n", n, np.EngineId.ui32.Major, np.EngineId.ui32.Minor,
               np.EngineId.ui32.Stepping);
        CHECK(np.NumFComputeCores == 2 * e->cus && np.NumSIMDPerCU == 2,
              "node %u: %u SIMDs, %u per CU", n, np.NumFComputeCores, np.NumSIMDPerCU);
        CHECK(np.MaxWavesPerSIMD == 16 && np.WaveFrontSize == 32,
              "node %u: %u waves per SIMD, wave%u", n, np.MaxWavesPerSIMD, np.WaveFrontSize);
        CHECK(np.DeviceId == e->device, "node %u: device 0x%x", n, np.DeviceId);
        /* the VRAM bank of sysfs, plus the apertures libhsakmt adds (LDS, scratch, SVM …) */
        HsaMemoryProperties mp[16];
        CHECK(np.NumMemoryBanks >= 1 && np.NumMemoryBanks <= 16, "node %u: %u memory banks", n,
              np.NumMemoryBanks);
        STEP(hsaKmtGetNodeMemoryProperties(n, np.NumMemoryBanks, mp), "memory banks");
        HSAuint64 vram_bytes = 0;
        for (unsigned b = 0; b < np.NumMemoryBanks; b++)
            if (mp[b].HeapType == HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC ||
                mp[b].HeapType == HSA_HEAPTYPE_FRAME_BUFFER_PRIVATE)
                vram_bytes += mp[b].SizeInBytes;
        CHECK(vram_bytes >= (1ull << 30), "node %u: VRAM %llu bytes", n,
              (unsigned long long)vram_bytes);
        HsaCacheProperties cp[8];
        CHECK(np.NumCaches == e->caches, "node %u: %u caches", n, np.NumCaches);
        STEP(hsaKmtGetNodeCacheProperties(n, np.CComputeIdLo, np.NumCaches, cp), "caches");
        CHECK(cp[3].CacheLevel == 2 && cp[3].CacheSize == e->l2_kb, "node %u: L2 %u KiB level %u",
              n, cp[3].CacheSize, cp[3].CacheLevel);
        /* libhsakmt counts a GPU node's io_links and p2p_links together: one PCIe link to
         * the CPU, then one indirect link to every other GPU through it (docs/kfd.md). */
        HsaIoLinkProperties lp[8];
        CHECK(np.NumIOLinks == gpus && gpus <= 8, "node %u: %u io links", n, np.NumIOLinks);
        STEP(hsaKmtGetNodeIoLinkProperties(n, np.NumIOLinks, lp), "io links");
        CHECK(lp[0].NodeFrom == n && lp[0].NodeTo == 0 &&
                  lp[0].IoLinkType == HSA_IOLINKTYPE_PCIEXPRESS,
              "node %u: io link %u -> %u type %d", n, lp[0].NodeFrom, lp[0].NodeTo,
              lp[0].IoLinkType);
        for (unsigned k = 1; k < np.NumIOLinks; k++)
            CHECK(lp[k].NodeFrom == n && lp[k].NodeTo != n && lp[k].NodeTo != 0 &&
                      lp[k].NodeTo <= gpus && lp[k].Weight > lp[0].Weight,
                  "node %u: p2p link %u: %u -> %u weight %u", n, k, lp[k].NodeFrom, lp[k].NodeTo,
                  lp[k].Weight);
    }
    HsaNodeProperties cpu;
    STEP(hsaKmtGetNodeProperties(0, &cpu), "CPU node properties");
    CHECK(cpu.NumCaches > 0 && cpu.NumIOLinks == gpus, "CPU node: %u caches, %u io links",
          cpu.NumCaches, cpu.NumIOLinks);
    return 0;
}

/* Allocate size bytes (flags) on node and map them to the GPUs. */
static int alloc_map(HSAuint32 node, HSAuint64 size, HsaMemFlags flags, void **out,
                     const char *what)
{
    char step[96];
    snprintf(step, sizeof step, "allocate %s", what);
    STEP(hsaKmtAllocMemory(node, size, flags, out), step);
    HSAuint64 alt = 0; /* an alternate GPU address on APUs only: the CPU's is the GPU's */
    snprintf(step, sizeof step, "map %s", what);
    STEP(hsaKmtMapMemoryToGPU(*out, size, &alt), step);
    return 0;
}

static int unmap_free(void *p, HSAuint64 size, const char *what)
{
    char step[96];
    snprintf(step, sizeof step, "unmap %s", what);
    STEP(hsaKmtUnmapMemoryToGPU(p), step);
    snprintf(step, sizeof step, "free %s", what);
    STEP(hsaKmtFreeMemory(p, size), step);
    return 0;
}

int main(int argc, char **argv)
{
    unsigned gpus = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
    int dispatch = argc > 2 && !strcmp(argv[2], "dispatch");
    STEP(hsaKmtOpenKFD(), "open");
    HsaVersionInfo v;
    STEP(hsaKmtGetVersion(&v), "version");
    CHECK(v.KernelInterfaceMajorVersion == 1, "KFD interface %u.%u, expected 1.x",
          v.KernelInterfaceMajorVersion, v.KernelInterfaceMinorVersion);
    int topo_only = argc > 2 && !strcmp(argv[2], "topology");
    if (topology(gpus, topo_only && argc > 3 ? argv[3] : NULL))
        return 1;
    if (topo_only) {
        STEP(hsaKmtReleaseSystemProperties(), "release");
        STEP(hsaKmtCloseKFD(), "close");
        printf("hsakmt: ok\n");
        return 0;
    }

    /* memory: VRAM (the output), GTT (the kernel's code), userptr (the ring: paged system
     * memory, which libhsakmt registers as a userptr) */
    HsaMemFlags vram = { 0 }, gtt = { 0 }, user = { 0 };
    vram.ui32.NonPaged = 1, vram.ui32.HostAccess = 1, vram.ui32.CoarseGrain = 1;
    vram.ui32.PageSize = HSA_PAGE_SIZE_4KB;
    gtt.ui32.NonPaged = 1, gtt.ui32.HostAccess = 1, gtt.ui32.ExecuteAccess = 1;
    gtt.ui32.PageSize = HSA_PAGE_SIZE_4KB;
    user.ui32.HostAccess = 1, user.ui32.PageSize = HSA_PAGE_SIZE_4KB;
    void *out, *code, *ring;
    if (alloc_map(1, 65536, vram, &out, "VRAM") || alloc_map(0, 4096, gtt, &code, "GTT") ||
        alloc_map(0, 4096, user, &ring, "userptr"))
        return 1;
    memset(out, 0, 65536);

    /* the kernel, assembled with rdx's assembler */
    const rdx_isa_target *t = rdx_isa_target_find("gfx1100");
    CHECK(t, "no gfx1100 target in rdx");
    size_t at = 0;
    for (size_t i = 0; i < sizeof kernel_src / sizeof kernel_src[0]; i++) {
        size_t len;
        CHECK(rdx_asm_assemble_inst(t, kernel_src[i], (uint8_t *)code + at, &len) == RDX_OK,
              "assembling '%s'", kernel_src[i]);
        at += len;
    }
    memset((uint8_t *)code + at, 0, 256); /* instruction prefetch past the end */

    HsaEventDescriptor ed = { 0 };
    ed.EventType = HSA_EVENTTYPE_SIGNAL;
    ed.NodeId = 1;
    ed.SyncVar.SyncVar.UserData = NULL;
    HsaEvent *ev;
    STEP(hsaKmtCreateEvent(&ed, false, false, &ev), "create event");

    HsaQueueResource qr;
    memset(&qr, 0, sizeof qr);
    HSAKMT_STATUS qs = hsaKmtCreateQueue(1, HSA_QUEUE_COMPUTE, 100, HSA_QUEUE_PRIORITY_NORMAL, ring,
                                         4096, NULL, &qr);
    if (!dispatch) {
        CHECK(qs != HSAKMT_STATUS_SUCCESS, "the compute queue was created");
        printf("hsakmt: create queue refused (context-save size)\n");
    } else {
        CHECK(qs == HSAKMT_STATUS_SUCCESS, "create queue failed: status %d", qs);
        printf("hsakmt: create queue\n");
        /* the dispatch with rdx's PM4 builders; completion: the event's mailbox and an
         * interrupt carrying its id */
        rdx_pm4_cmdbuf cb;
        rdx_pm4_cmdbuf_init_fixed(&cb, ring, 1024);
        rdx_pm4_dispatch_desc d;
        memset(&d, 0, sizeof d);
        d.code_addr = (uint64_t)(uintptr_t)code;
        d.rsrc2 = RDX_PM4_REG_PUT(COMPUTE_PGM_RSRC2, USER_SGPR, 3) |
                  RDX_PM4_REG_PUT(COMPUTE_PGM_RSRC2, TGID_X_EN, 1);
        d.user_sgpr[0] = (uint32_t)(uintptr_t)out;
        d.user_sgpr[1] = (uint32_t)((uint64_t)(uintptr_t)out >> 32);
        d.user_sgpr[2] = 1000;
        d.user_sgpr_count = 3;
        d.grid[0] = 4, d.grid[1] = d.grid[2] = 1;
        d.block[0] = 64, d.block[1] = d.block[2] = 1;
        d.wave32 = true;
        d.acquire = true;
        CHECK(rdx_pm4_dispatch(&cb, &d) == RDX_OK, "rdx_pm4_dispatch: %s", rdx_error_message());
        rdx_pm4_cs_partial_flush(&cb);
        rdx_pm4_signal(&cb, ev->EventData.HWData2, ev->EventId, true, ev->EventId);
        CHECK(rdx_pm4_cmdbuf_status(&cb) == RDX_OK, "PM4: %s", rdx_error_message());
        /* the write pointer (dwords) to libhsakmt's pointer, then the 64-bit doorbell */
        __atomic_store_n(qr.Queue_write_ptr_aql, (HSAuint64)cb.len, __ATOMIC_RELEASE);
        __atomic_store_n(qr.Queue_DoorBell_aql, (HSAuint64)cb.len, __ATOMIC_RELEASE);
        STEP(hsaKmtWaitOnEvent(ev, 10000), "wait on the event");
        const uint32_t *o = out;
        for (uint32_t i = 0; i < 256; i++)
            CHECK(o[i] == 1000 + i, "out[%u] = %u, expected %u", i, o[i], 1000 + i);
        CHECK(o[256] == 0, "out[256] = %u, expected 0", o[256]);
        printf("hsakmt: dispatch results\n");
        STEP(hsaKmtDestroyQueue(qr.QueueId), "destroy queue");
    }
    STEP(hsaKmtDestroyEvent(ev), "destroy event");
    if (unmap_free(ring, 4096, "userptr") || unmap_free(code, 4096, "GTT") ||
        unmap_free(out, 65536, "VRAM"))
        return 1;
    STEP(hsaKmtReleaseSystemProperties(), "release");
    STEP(hsaKmtCloseKFD(), "close");
    printf("hsakmt: ok\n");
    return 0;
}
