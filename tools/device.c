/* tools/device.c — device selection for the subcommands (see device.h). */
#include "tools/device.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

static rdx_status open_emu(uint32_t gpus, rdx_tool_device *out)
{
    rdx_emudev_config cfg = { .num_gpus = gpus, .vram_size = 0, .legacy_sysfs = 0 };
    rdx_status st = rdx_emudev_create(&cfg, &out->emu);
    if (st != RDX_OK)
        return st;
    st = rdx_kfd_open(rdx_emudev_os(out->emu), &out->kfd);
    if (st != RDX_OK) {
        rdx_emudev_destroy(out->emu);
        out->emu = NULL;
        return st;
    }
    out->kind = "emu";
    return RDX_OK;
}

rdx_status rdx_tool_device_open(const char *choice, uint32_t emu_gpus, rdx_tool_device *out)
{
    memset(out, 0, sizeof *out);
    const char *from = "--device";
    if (!choice) {
        choice = getenv("RDX_DEVICE");
        from = "RDX_DEVICE";
    }
    if (choice && *choice) {
        if (!strcmp(choice, "emu"))
            return open_emu(emu_gpus, out);
        if (strcmp(choice, "kfd"))
            return rdx_fail(RDX_ERR_INVALID, "%s='%s': expected 'emu' or 'kfd'", from, choice);
        rdx_status st = rdx_kfd_open(rdx_os_linux(), &out->kfd);
        if (st == RDX_OK)
            out->kind = "kfd";
        return st;
    }
    /* Default: a real card if there is one. */
    rdx_status st = rdx_kfd_open(rdx_os_linux(), &out->kfd);
    if (st == RDX_OK) {
        out->kind = "kfd";
        return RDX_OK;
    }
    fprintf(stderr,
            "rdx: no usable AMD GPU (%s); using the emulated gfx1100 (set RDX_DEVICE to "
            "choose)\n",
            rdx_error_message());
    return open_emu(emu_gpus, out);
}

void rdx_tool_device_close(rdx_tool_device *d)
{
    rdx_kfd_close(d->kfd);
    rdx_emudev_destroy(d->emu);
    memset(d, 0, sizeof *d);
}
