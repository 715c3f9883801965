/*
 * tools/device.h — choosing the device a subcommand runs on.
 *
 * RDX_DEVICE=kfd: the real kernel driver (/dev/kfd); RDX_DEVICE=emu: the
 * emulated gfx1100; unset: a real card when /dev/kfd opens and the KFD
 * topology lists a GPU, otherwise the emulated GPU with a one-line notice on
 * stderr.  A --device option, when given, takes precedence over RDX_DEVICE.
 */
#ifndef RDX_TOOLS_DEVICE_H
#define RDX_TOOLS_DEVICE_H

#include <rdx/emudev.h>
#include <rdx/kfd.h>

typedef struct rdx_tool_device {
    rdx_emudev *emu; /* NULL on a real device */
    rdx_kfd *kfd;
    const char *kind; /* "kfd" or "emu" */
} rdx_tool_device;

/*
 * Open the device named by `choice` ("kfd", "emu", or NULL for RDX_DEVICE /
 * the default); `emu_gpus` is the number of emulated cards (0 = 1).
 * RDX_ERR_INVALID for an unknown name (message names it).
 */
rdx_status rdx_tool_device_open(const char *choice, uint32_t emu_gpus, rdx_tool_device *out);
void rdx_tool_device_close(rdx_tool_device *d);

#endif
