/*
 * preload/tree.c — the emulated driver's sysfs, written once to a private folder, and the
 * redirection of the /sys paths it serves to that folder.
 *
 * Served: /sys/devices/virtual/kfd/kfd (the KFD topology, read through the emulated
 * driver's OS table, and the device number), /sys/class/kfd/kfd (a link to it, as on a real
 * system), and per GPU a PCI device as libdrm looks for one: /sys/devices/rdx-emu/<slot>/
 * (vendor, device, subsystem ids, class, uevent with PCI_SLOT_NAME, a `subsystem` link named
 * pci, drm/renderD<m>/dev, the driver's ip_discovery table, power_dpm_force_performance_level
 * "profile_standard") reached from /sys/class/drm/renderD<m>
 * and /sys/dev/char/226:<m>. A real card's nodes under /sys/class/drm and /sys/dev/char/226:* are
 * hidden.
 */
#include "preload/preload.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const served[] = { "/sys/devices/virtual/kfd", "/sys/class/kfd",
                                      "/sys/class/drm", "/sys/devices/rdx-emu" };
#define DRM_CHAR "/sys/dev/char/226:" /* every DRM minor's link: ours only */

#define TOPO "/sys/devices/virtual/kfd/kfd/topology"

const char *pl_redirect(const char *path, char *buf, size_t cap)
{
    if (!path || path[0] != '/')
        return path;
    if (pl_cpu_cache_path(path)) { /* CPU cache folders the host lacks (cpucache.c) */
        if (pl_start())
            return path;
        int w = snprintf(buf, cap, "%s%s", pl_tree_root, path);
        return w > 0 && (size_t)w < cap ? buf : path;
    }
    for (size_t i = 0; i <= sizeof served / sizeof served[0]; i++) {
        if (i == sizeof served / sizeof served[0]) {
            if (strncmp(path, DRM_CHAR, strlen(DRM_CHAR)))
                continue;
        } else {
            size_t n = strlen(served[i]);
            if (strncmp(path, served[i], n) || (path[n] && path[n] != '/'))
                continue;
        }
        if (pl_start())
            return path; /* the error was reported; the program sees the real files */
        int w = snprintf(buf, cap, "%s%s", pl_tree_root, path);
        return w > 0 && (size_t)w < cap ? buf : path;
    }
    return path;
}

static int write_file(const char *path, const char *data, size_t len)
{
    int fd = pl_libc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0444);
    if (fd < 0)
        return -errno;
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            int e = errno;
            pl_libc.close(fd);
            return -e;
        }
        off += (size_t)w;
    }
    return pl_libc.close(fd) < 0 ? -errno : 0;
}

static int make_dirs(const char *path)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = 0;
        if (mkdir(p, 0755) < 0 && errno != EEXIST)
            return -errno;
        *s = '/';
    }
    return mkdir(p, 0755) < 0 && errno != EEXIST ? -errno : 0;
}

typedef struct walk {
    const rdx_os *os;
    const char *root;
    char path[PATH_MAX]; /* the sysfs path being copied */
    size_t src_len;      /* the length of the copied subtree's own path in path */
    const char *dst;     /* where that subtree goes under root (NULL: the same path) */
} walk;

static int copy_node(walk *w);

static int copy_child(void *user, const char *name)
{
    walk *w = user;
    size_t n = strlen(w->path);
    if (n + 1 + strlen(name) >= sizeof w->path)
        return -ENAMETOOLONG;
    w->path[n] = '/';
    strcpy(w->path + n + 1, name);
    int r = copy_node(w);
    w->path[n] = 0;
    return r;
}

/* Copy w->path: a folder if the table lists it, else a file it reads. */
static int copy_node(walk *w)
{
    char dst[PATH_MAX];
    int n = w->dst ? snprintf(dst, sizeof dst, "%s%s%s", w->root, w->dst, w->path + w->src_len)
                   : snprintf(dst, sizeof dst, "%s%s", w->root, w->path);
    if (n < 0 || n >= (int)sizeof dst)
        return -ENAMETOOLONG;
    static char data[1 << 16];
    size_t len;
    int r = w->os->read_file(w->os->ctx, w->path, data, sizeof data, &len);
    if (r == 0)
        return write_file(dst, data, len);
    r = make_dirs(dst);
    if (r)
        return r;
    return w->os->list_dir(w->os->ctx, w->path, copy_child, w);
}

static int write_text(const char *root, const char *rel, const char *text)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s%s", root, rel);
    char *slash = strrchr(p, '/');
    *slash = 0;
    int r = make_dirs(p);
    *slash = '/';
    return r ? r : write_file(p, text, strlen(text));
}

/* The value of `name` in a sysfs properties text ("name value" lines), or 0. */
static unsigned long long prop_of(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (!strncmp(p, name, n) && p[n] == ' ')
            return strtoull(p + n + 1, NULL, 10);
    return 0;
}

static int link_to(const char *root, const char *target_rel, const char *link_rel)
{
    char target[PATH_MAX], link[PATH_MAX];
    snprintf(target, sizeof target, "%s%s", root, target_rel);
    snprintf(link, sizeof link, "%s%s", root, link_rel);
    char *slash = strrchr(link, '/');
    *slash = 0;
    int r = make_dirs(link);
    *slash = '/';
    if (!r && symlink(target, link) < 0)
        r = -errno;
    return r;
}

/* GPU node `node`'s PCI device and DRM node, from its topology properties. */
static int write_pci(const rdx_os *os, const char *root, unsigned node)
{
    char path[128], props[8192];
    size_t len;
    snprintf(path, sizeof path, TOPO "/nodes/%u/properties", node);
    int r = os->read_file(os->ctx, path, props, sizeof props, &len);
    if (r)
        return r;
    unsigned vendor = (unsigned)prop_of(props, "vendor_id");
    unsigned device = (unsigned)prop_of(props, "device_id");
    unsigned loc = (unsigned)prop_of(props, "location_id");
    unsigned domain = (unsigned)prop_of(props, "domain");
    unsigned minor = (unsigned)prop_of(props, "drm_render_minor");
    char dev[96], rel[192], text[256];
    snprintf(dev, sizeof dev, "/sys/devices/rdx-emu/%04x:%02x:%02x.%u", domain, loc >> 8,
             (loc >> 3) & 0x1f, loc & 7);
    static const char *const names[] = { "vendor",           "device", "subsystem_vendor",
                                         "subsystem_device", "class",  "revision" };
    unsigned vals[] = { vendor, device, vendor, device, 0x030000, 0xc8 };
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !r; i++) {
        snprintf(rel, sizeof rel, "%s/%s", dev, names[i]);
        snprintf(text, sizeof text,
                 i == 4   ? "0x%06x\n"
                 : i == 5 ? "0x%02x\n"
                          : "0x%04x\n",
                 vals[i]);
        r = write_text(root, rel, text);
    }
    if (!r) {
        snprintf(rel, sizeof rel, "%s/uevent", dev);
        snprintf(text, sizeof text,
                 "DRIVER=amdgpu\nPCI_CLASS=30000\nPCI_ID=%04X:%04X\nPCI_SUBSYS_ID=%04X:%04X\n"
                 "PCI_SLOT_NAME=%04x:%02x:%02x.%u\n",
                 vendor, device, vendor, device, domain, loc >> 8, (loc >> 3) & 0x1f, loc & 7);
        r = write_text(root, rel, text);
    }
    if (!r) { /* amdgpu's DPM level: the emulated GPU's clocks never change (its timing
                 model counts the fixed engine clock of its target), the stable state profilers ask
                 for */
        snprintf(rel, sizeof rel, "%s/power_dpm_force_performance_level", dev);
        r = write_text(root, rel, "profile_standard\n");
    }
    if (!r) {
        snprintf(rel, sizeof rel, "%s/drm/renderD%u/dev", dev, minor);
        snprintf(text, sizeof text, "226:%u\n", minor);
        r = write_text(root, rel, text);
    }
    if (!r) { /* the IP discovery table, as the emulated driver serves it */
        walk w = { .os = os, .root = root };
        snprintf(w.path, sizeof w.path, "/sys/class/drm/renderD%u/device/ip_discovery", minor);
        w.src_len = strlen(w.path);
        snprintf(rel, sizeof rel, "%s/ip_discovery", dev);
        w.dst = rel;
        r = copy_node(&w);
    }
    char link[192];
    if (!r) {
        snprintf(link, sizeof link, "%s/subsystem", dev);
        r = link_to(root, "/sys/bus/pci", link);
    }
    if (!r) {
        snprintf(rel, sizeof rel, "%s/drm/renderD%u/device", dev, minor);
        r = link_to(root, dev, rel);
    }
    snprintf(rel, sizeof rel, "%s/drm/renderD%u", dev, minor);
    if (!r) {
        snprintf(link, sizeof link, "/sys/class/drm/renderD%u", minor);
        r = link_to(root, rel, link);
    }
    if (!r) {
        snprintf(link, sizeof link, DRM_CHAR "%u", minor);
        r = link_to(root, rel, link);
    }
    return r;
}

int pl_tree_write(const rdx_os *os, const char *root, unsigned num_gpus)
{
    walk w = { .os = os, .root = root };
    snprintf(w.path, sizeof w.path, "%s", TOPO);
    int r = copy_node(&w);
    if (!r)
        r = write_text(root, "/sys/devices/virtual/kfd/kfd/dev", "235:0\n");
    char p[PATH_MAX], target[PATH_MAX];
    if (!r) {
        snprintf(p, sizeof p, "%s/sys/class/kfd", root);
        r = make_dirs(p);
    }
    if (!r) {
        snprintf(p, sizeof p, "%s/sys/class/kfd/kfd", root);
        snprintf(target, sizeof target, "%s/sys/devices/virtual/kfd/kfd", root);
        if (symlink(target, p) < 0)
            r = -errno;
    }
    if (!r) {
        snprintf(p, sizeof p, "%s/sys/bus/pci", root);
        r = make_dirs(p);
    }
    for (unsigned i = 1; i <= num_gpus && !r; i++)
        r = write_pci(os, root, i);
    if (!r)
        r = pl_cpu_cache_write(root);
    return r;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

void pl_tree_remove(const char *root)
{
    nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}
