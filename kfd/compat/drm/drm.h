/*
 * kfd/compat/drm/drm.h — build shim.
 *
 * Debian's <linux/kfd_ioctl.h> (linux-libc-dev) includes <drm/drm.h>, but
 * that header ships only with libdrm-dev, as /usr/include/libdrm/drm.h.  The
 * build puts kfd/compat on the include path so the include resolves to
 * libdrm's copy without touching the system.
 */
#include <libdrm/drm.h>
