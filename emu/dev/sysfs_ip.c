/*
 * emu/dev/sysfs_ip.c — the IP discovery table amdgpu publishes per card under
 * /sys/class/drm/renderD<m>/device/ip_discovery/die/0/<hw_id>/<instance>/
 * (major, minor, revision, hw_id, num_instance): what drivers such as tinygrad's read to
 * choose register layouts.  Navi 31 (gfx1100): GC 11.0.0, SDMA 6.0.0 (two engines),
 * NBIO/NBIF 4.3.0.  Hardware ids are amdgpu's soc15_hw_ip.h numbers.
 */
#include "emu/dev/emudev.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const struct {
    unsigned hw_id, instance, major, minor, revision;
} ips[] = {
    { 11, 0, 11, 0, 0 }, /* GC_HWID */
    { 42, 0, 6, 0, 0 },  /* SDMA0_HWID */
    { 43, 0, 6, 0, 0 },  /* SDMA1_HWID */
    { 108, 0, 4, 3, 0 }, /* NBIF_HWID */
};
#define NIPS (sizeof ips / sizeof ips[0])

static const char *const files[] = { "major", "minor", "revision", "hw_id", "num_instance" };
#define NFILES (sizeof files / sizeof files[0])

/* Parse "/sys/class/drm/renderD<m>/device/ip_discovery/die/0" for one of dev's cards; the
 * rest of the path goes to *rest.  Returns 0 or -ENOENT. */
static int parse_base(rdx_emudev *dev, const char *path, const char **rest)
{
    unsigned minor;
    int used = 0;
    if (sscanf(path, "/sys/class/drm/renderD%u/device/ip_discovery/die/0%n", &minor, &used) != 1 ||
        !used || minor < EMU_RENDER_MINOR_BASE || minor >= EMU_RENDER_MINOR_BASE + dev->num_gpus)
        return -ENOENT;
    if (path[used] && path[used] != '/')
        return -ENOENT;
    *rest = path + used;
    return 0;
}

/* "/<hw_id>/<instance>" → the table index, *rest after it; -1 if none. */
static int parse_ip(const char *p, const char **rest)
{
    unsigned hw, inst;
    int used = 0;
    if (sscanf(p, "/%u/%u%n", &hw, &inst, &used) != 2 || (p[used] && p[used] != '/'))
        return -1;
    for (size_t i = 0; i < NIPS; i++)
        if (ips[i].hw_id == hw && ips[i].instance == inst) {
            *rest = p + used;
            return (int)i;
        }
    return -1;
}

int emu_sysfs_ip_read(rdx_emudev *dev, const char *path, char *buf, size_t cap, size_t *len)
{
    const char *p, *rest;
    if (parse_base(dev, path, &p))
        return -ENOENT;
    int i = parse_ip(p, &rest);
    if (i < 0 || rest[0] != '/')
        return -ENOENT;
    unsigned v;
    const char *f = rest + 1;
    if (!strcmp(f, "major"))
        v = ips[i].major;
    else if (!strcmp(f, "minor"))
        v = ips[i].minor;
    else if (!strcmp(f, "revision"))
        v = ips[i].revision;
    else if (!strcmp(f, "hw_id"))
        v = ips[i].hw_id;
    else if (!strcmp(f, "num_instance"))
        v = ips[i].instance;
    else
        return -ENOENT;
    int n = snprintf(buf, cap, "%u\n", v);
    if (n < 0 || (size_t)n >= cap)
        return -EFBIG;
    *len = (size_t)n;
    return 0;
}

int emu_sysfs_ip_list(rdx_emudev *dev, const char *path, rdx_os_dir_fn fn, void *user)
{
    const char *p, *rest;
    unsigned minor;
    int used = 0;
    if (sscanf(path, "/sys/class/drm/renderD%u/device/ip_discovery%n", &minor, &used) == 1 &&
        used && minor >= EMU_RENDER_MINOR_BASE && minor < EMU_RENDER_MINOR_BASE + dev->num_gpus) {
        if (!path[used])
            return fn(user, "die");
        if (!strcmp(path + used, "/die"))
            return fn(user, "0");
    }
    if (parse_base(dev, path, &p))
        return -ENOENT;
    char name[16];
    if (!*p) { /* die/0: one folder per hardware id */
        for (size_t i = 0; i < NIPS; i++) {
            if (i && ips[i].hw_id == ips[i - 1].hw_id)
                continue;
            snprintf(name, sizeof name, "%u", ips[i].hw_id);
            int r = fn(user, name);
            if (r)
                return r;
        }
        return 0;
    }
    unsigned hw;
    used = 0;
    if (sscanf(p, "/%u%n", &hw, &used) == 1 && !p[used]) { /* die/0/<hw_id>: its instances */
        int found = 0;
        for (size_t i = 0; i < NIPS; i++)
            if (ips[i].hw_id == hw) {
                found = 1;
                snprintf(name, sizeof name, "%u", ips[i].instance);
                int r = fn(user, name);
                if (r)
                    return r;
            }
        return found ? 0 : -ENOENT;
    }
    if (parse_ip(p, &rest) < 0 || *rest)
        return -ENOENT;
    for (size_t f = 0; f < NFILES; f++) {
        int r = fn(user, files[f]);
        if (r)
            return r;
    }
    return 0;
}
