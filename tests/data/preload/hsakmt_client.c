/*
 * tests/data/preload/hsakmt_client.c — libhsakmt, the official KFD thunk, under `rdx emu`.
 * Prints one line per step and "hsakmt: ok" at the end; exits 1 at the first step that
 * fails.
 *
 * Usage: hsakmt_client NUM_GPUS FULL
 *   FULL = 1: the system properties are checked too.  libhsakmt reads the host CPU's cache
 *   description (/sys/devices/system/node/node0/cpu<i>/cache) for the CPU node and fails
 *   without it, as it would with a real card: some virtual machines lack it.
 */
#include <hsakmt.h>
#include <stdio.h>
#include <stdlib.h>

#define STEP(call, what)                                         \
    do {                                                         \
        HSAKMT_STATUS s_ = (call);                               \
        if (s_ != HSAKMT_STATUS_SUCCESS) {                       \
            printf("hsakmt: %s failed: status %d\n", what, s_); \
            return 1;                                            \
        }                                                        \
        printf("hsakmt: %s\n", what);                            \
    } while (0)

int main(int argc, char **argv)
{
    unsigned gpus = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
    int full = argc > 2 && atoi(argv[2]);
    STEP(hsaKmtOpenKFD(), "open");
    HsaVersionInfo v;
    STEP(hsaKmtGetVersion(&v), "version");
    if (v.KernelInterfaceMajorVersion != 1) {
        printf("hsakmt: KFD interface %u.%u, expected 1.x\n", v.KernelInterfaceMajorVersion,
               v.KernelInterfaceMinorVersion);
        return 1;
    }
    if (full) {
        HsaSystemProperties sp;
        STEP(hsaKmtAcquireSystemProperties(&sp), "system properties");
        if (sp.NumNodes != gpus + 1) {
            printf("hsakmt: %u nodes, expected %u\n", sp.NumNodes, gpus + 1);
            return 1;
        }
        for (unsigned n = 1; n <= gpus; n++) {
            HsaNodeProperties np;
            STEP(hsaKmtGetNodeProperties(n, &np), "node properties");
            if (np.EngineId.ui32.Major != 11 || !np.NumFComputeCores || !np.DeviceId) {
                printf("hsakmt: node %u: gfx%u, %u SIMDs, device 0x%x\n", n,
                       np.EngineId.ui32.Major, np.NumFComputeCores, np.DeviceId);
                return 1;
            }
        }
        STEP(hsaKmtReleaseSystemProperties(), "release");
    }
    STEP(hsaKmtCloseKFD(), "close");
    printf("hsakmt: ok\n");
    return 0;
}
