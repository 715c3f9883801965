/*
 * emu/dev/sysfs_ip.c — the IP discovery table amdgpu publishes per card under
 * /sys/class/drm/renderD<m>/device/ip_discovery/die/0/<hw_id>/<instance>/
 * (major, minor, revision, hw_id, num_instance): what drivers such as tinygrad's read to
 * choose register layouts.  The versions are the GPU's target row (target.c): GC, SDMA
 * (one or two engines), NBIO/NBIF.  Hardware ids are amdgpu's soc15_hw_ip.h numbers; as
 * amdgpu_discovery.c does, each hw_id folder is also reachable by its name (GC, SDMA0,
 * SDMA1, NBIF: a symbolic link to the numbered folder).
 */
#include "emu/dev/emudev.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

typedef struct ip {
    unsigned hw_id, instance, major, minor, revision;
    const char *name;
} ip;
#define MAX_IPS 4

/* The IP blocks of gpu g, in hw_id order; returns their number. */
static size_t gpu_ips(const rdx_emudev *dev, uint32_t g, ip *ips)
{
    const emu_target *t = dev->gpus[g].t;
    size_t n = 0;
    ips[n++] = (ip){ 11, 0, t->gc[0], t->gc[1], t->gc[2], "GC" };
    ips[n++] = (ip){ 42, 0, t->sdma[0], t->sdma[1], t->sdma[2], "SDMA0" };
    if (t->sdma_engines > 1)
        ips[n++] = (ip){ 43, 0, t->sdma[0], t->sdma[1], t->sdma[2], "SDMA1" };
    ips[n++] = (ip){ 108, 0, t->nbio[0], t->nbio[1], t->nbio[2], "NBIF" };
    return n;
}

static const char *const files[] = { "major", "minor", "revision", "hw_id", "num_instance" };
#define NFILES (sizeof files / sizeof files[0])

/* Parse "/sys/class/drm/renderD<m>/device/ip_discovery/die/0" for one of dev's cards; the
 * rest of the path goes to *rest, its IP blocks to ips (*n of them).  Returns 0 or -ENOENT. */
static int parse_base(rdx_emudev *dev, const char *path, const char **rest, ip *ips, size_t *n)
{
    unsigned minor;
    int used = 0;
    if (sscanf(path, "/sys/class/drm/renderD%u/device/ip_discovery/die/0%n", &minor, &used) != 1 ||
        !used || minor < EMU_RENDER_MINOR_BASE || minor >= EMU_RENDER_MINOR_BASE + dev->num_gpus)
        return -ENOENT;
    if (path[used] && path[used] != '/')
        return -ENOENT;
    *rest = path + used;
    *n = gpu_ips(dev, minor - EMU_RENDER_MINOR_BASE, ips);
    return 0;
}

/* "/<hw_id or name>" → the hw_id (*rest after it); -1 if none of ips has it. */
static int parse_hw(const char *p, const ip *ips, size_t n, const char **rest)
{
    if (*p != '/')
        return -1;
    size_t len = strcspn(p + 1, "/");
    for (size_t i = 0; i < n; i++) {
        char num[16];
        snprintf(num, sizeof num, "%u", ips[i].hw_id);
        if ((strlen(num) == len && !strncmp(p + 1, num, len)) ||
            (strlen(ips[i].name) == len && !strncmp(p + 1, ips[i].name, len))) {
            *rest = p + 1 + len;
            return (int)ips[i].hw_id;
        }
    }
    return -1;
}

/* "/<hw_id or name>/<instance>" → the table index, *rest after it; -1 if none. */
static int parse_ip(const char *p, const ip *ips, size_t n, const char **rest)
{
    unsigned inst;
    int used = 0;
    const char *q;
    int hw = parse_hw(p, ips, n, &q);
    if (hw < 0 || sscanf(q, "/%u%n", &inst, &used) != 1 || (q[used] && q[used] != '/'))
        return -1;
    for (size_t i = 0; i < n; i++)
        if (ips[i].hw_id == (unsigned)hw && ips[i].instance == inst) {
            *rest = q + used;
            return (int)i;
        }
    return -1;
}

int emu_sysfs_ip_read(rdx_emudev *dev, const char *path, char *buf, size_t cap, size_t *len)
{
    const char *p, *rest;
    ip ips[MAX_IPS];
    size_t nips;
    if (parse_base(dev, path, &p, ips, &nips))
        return -ENOENT;
    int i = parse_ip(p, ips, nips, &rest);
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
    ip ips[MAX_IPS];
    size_t nips;
    if (parse_base(dev, path, &p, ips, &nips))
        return -ENOENT;
    char name[16];
    if (!*p) { /* die/0: one folder per hardware id, and its named link */
        for (size_t i = 0; i < nips; i++) {
            if (i && ips[i].hw_id == ips[i - 1].hw_id)
                continue;
            snprintf(name, sizeof name, "%u", ips[i].hw_id);
            int r = fn(user, name);
            if (!r)
                r = fn(user, ips[i].name);
            if (r)
                return r;
        }
        return 0;
    }
    int hw = parse_hw(p, ips, nips, &rest);
    if (hw >= 0 && !*rest) { /* die/0/<hw_id>: its instances */
        for (size_t i = 0; i < nips; i++)
            if (ips[i].hw_id == (unsigned)hw) {
                snprintf(name, sizeof name, "%u", ips[i].instance);
                int r = fn(user, name);
                if (r)
                    return r;
            }
        return 0;
    }
    if (parse_ip(p, ips, nips, &rest) < 0 || *rest)
        return -ENOENT;
    for (size_t f = 0; f < NFILES; f++) {
        int r = fn(user, files[f]);
        if (r)
            return r;
    }
    return 0;
}
