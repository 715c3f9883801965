/*
 * preload/cpucache.c — a description of the host CPUs' caches in sysfs, served only when the
 * host has none.
 *
 * libhsakmt builds the KFD topology's CPU node with the CPUs' caches, read from
 * /sys/devices/system/node/node<k>/cpu<n>/cache/index<i>/ (level, type, size,
 * coherency_line_size, ways_of_associativity, physical_line_partition, shared_cpu_list,
 * shared_cpu_map; /sys/devices/system/cpu/cpu<n>/cache without NUMA), and fails
 * (hsaKmtAcquireSystemProperties) when it finds none — which virtual machines whose kernel
 * publishes no cache information cause, with or without a GPU.  When cpu0 of the host has no
 * cache folder, the private tree gets one for every CPU the host lists (the same CPUs and
 * nodes): a generic description — L1 data and instruction 32 KiB 8-way, L2 512 KiB 8-way
 * (per CPU), L3 16 MiB 16-way shared by the CPUs of a node, 64-byte lines — not the host's
 * real caches, and the cache folders' paths are redirected there.  Hosts that describe their
 * caches are never touched.
 */
#include "preload/preload.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NODE_DIR "/sys/devices/system/node"
#define CPU_DIR  "/sys/devices/system/cpu"
#define MAX_CPUS 1024

static int served; /* set once by pl_cpu_cache_write */

static const struct {
    unsigned level, ways, kib;
    const char *type;
    int shared; /* by the node's CPUs */
} caches[] = {
    { 1, 8, 32, "Data", 0 },
    { 1, 8, 32, "Instruction", 0 },
    { 2, 8, 512, "Unified", 0 },
    { 3, 16, 16384, "Unified", 1 },
};

/* Whether `name` is "cpu<digits>"; its number in *n. */
static int cpu_entry(const char *name, unsigned *n)
{
    if (strncmp(name, "cpu", 3) || !isdigit((unsigned char)name[3]))
        return 0;
    char *end;
    unsigned long v = strtoul(name + 3, &end, 10);
    if (*end || v >= MAX_CPUS)
        return 0;
    *n = (unsigned)v;
    return 1;
}

/* The CPUs listed under dir (cpu<n> entries) into set[]; returns how many. */
static unsigned list_cpus(const char *dir, unsigned char *set)
{
    DIR *d = pl_libc.opendir(dir);
    if (!d)
        return 0;
    unsigned count = 0, n;
    for (struct dirent *e; (e = readdir(d));)
        if (cpu_entry(e->d_name, &n) && !set[n])
            set[n] = 1, count++;
    closedir(d);
    return count;
}

static int put(const char *root, const char *dir, unsigned idx, const char *file, const char *text)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s%s/index%u", root, dir, idx);
    for (char *s = p + strlen(root) + 1; *s; s++) { /* make the folders */
        if (*s != '/')
            continue;
        *s = 0;
        if (mkdir(p, 0755) < 0 && errno != EEXIST)
            return -errno;
        *s = '/';
    }
    if (mkdir(p, 0755) < 0 && errno != EEXIST)
        return -errno;
    size_t n = strlen(p);
    snprintf(p + n, sizeof p - n, "/%s", file);
    int fd = pl_libc.open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0444);
    if (fd < 0)
        return -errno;
    size_t len = strlen(text);
    ssize_t w = write(fd, text, len);
    int e = w == (ssize_t)len ? 0 : -EIO;
    close(fd);
    return e;
}

/* The shared_cpu_list and shared_cpu_map texts of the CPUs in set[]. */
static void cpu_texts(const unsigned char *set, char *list, size_t lcap, char *map, size_t mcap)
{
    size_t l = 0;
    list[0] = 0;
    for (unsigned i = 0; i < MAX_CPUS; i++) {
        if (!set[i] || (i && set[i - 1]))
            continue;
        unsigned j = i;
        while (j + 1 < MAX_CPUS && set[j + 1])
            j++;
        l += (size_t)snprintf(list + l, lcap - l, j > i ? "%s%u-%u" : "%s%u", l ? "," : "", i, j);
    }
    snprintf(list + l, lcap - l, "\n");
    unsigned top = 0;
    for (unsigned i = 0; i < MAX_CPUS; i++)
        if (set[i])
            top = i;
    size_t m = 0;
    for (int g = (int)(top / 32); g >= 0; g--) {
        uint32_t word = 0;
        for (unsigned b = 0; b < 32; b++)
            if (set[(unsigned)g * 32 + b])
                word |= 1u << b;
        m += (size_t)snprintf(map + m, mcap - m, g ? "%08x," : "%08x\n", word);
    }
}

/* The cache folders of CPU n (of a node whose CPUs are node_set) under `dir`. */
static int write_cpu(const char *root, const char *dir, unsigned n, const unsigned char *node_set)
{
    static unsigned char own[MAX_CPUS];
    memset(own, 0, sizeof own);
    own[n] = 1;
    char list[4096], map[1024], text[64];
    int r = 0;
    for (unsigned i = 0; i < sizeof caches / sizeof caches[0] && !r; i++) {
        cpu_texts(caches[i].shared ? node_set : own, list, sizeof list, map, sizeof map);
        snprintf(text, sizeof text, "%u\n", caches[i].level);
        r = put(root, dir, i, "level", text);
        snprintf(text, sizeof text, "%s\n", caches[i].type);
        r = r ? r : put(root, dir, i, "type", text);
        snprintf(text, sizeof text, "%uK\n", caches[i].kib);
        r = r ? r : put(root, dir, i, "size", text);
        r = r ? r : put(root, dir, i, "coherency_line_size", "64\n");
        snprintf(text, sizeof text, "%u\n", caches[i].ways);
        r = r ? r : put(root, dir, i, "ways_of_associativity", text);
        r = r ? r : put(root, dir, i, "physical_line_partition", "1\n");
        r = r ? r : put(root, dir, i, "shared_cpu_list", list);
        r = r ? r : put(root, dir, i, "shared_cpu_map", map);
    }
    return r;
}

int pl_cpu_cache_write(const char *root)
{
    struct stat st;
    if (pl_libc.stat(CPU_DIR "/cpu0/cache", &st) == 0 ||
        pl_libc.stat(NODE_DIR "/node0/cpu0/cache", &st) == 0)
        return 0; /* the host describes its caches */
    static unsigned char all[MAX_CPUS], node_set[MAX_CPUS];
    memset(all, 0, sizeof all);
    char dir[PATH_MAX];
    int r = 0, nodes = 0;
    DIR *d = pl_libc.opendir(NODE_DIR);
    for (struct dirent *e; d && !r && (e = readdir(d));) {
        unsigned k;
        char *end;
        if (strncmp(e->d_name, "node", 4) || !isdigit((unsigned char)e->d_name[4]))
            continue;
        k = (unsigned)strtoul(e->d_name + 4, &end, 10);
        if (*end)
            continue;
        nodes++;
        memset(node_set, 0, sizeof node_set);
        snprintf(dir, sizeof dir, NODE_DIR "/node%u", k);
        list_cpus(dir, node_set);
        for (unsigned n = 0; n < MAX_CPUS && !r; n++) {
            if (!node_set[n])
                continue;
            all[n] = 1;
            snprintf(dir, sizeof dir, NODE_DIR "/node%u/cpu%u/cache", k, n);
            r = write_cpu(root, dir, n, node_set);
            snprintf(dir, sizeof dir, CPU_DIR "/cpu%u/cache", n);
            r = r ? r : write_cpu(root, dir, n, node_set);
        }
    }
    if (d)
        closedir(d);
    if (!nodes && !r) { /* no NUMA: the CPUs form one node */
        list_cpus(CPU_DIR, all);
        for (unsigned n = 0; n < MAX_CPUS && !r; n++) {
            if (!all[n])
                continue;
            snprintf(dir, sizeof dir, CPU_DIR "/cpu%u/cache", n);
            r = write_cpu(root, dir, n, all);
        }
    }
    served = !r;
    return r;
}

int pl_cpu_cache_probe(void);

int pl_cpu_cache_path(const char *path)
{
    unsigned a, b;
    int used = 0;
    const char *rest = NULL;
    if (strncmp(path, "/sys/devices/system/", 20)) /* the common case, cheaply */
        return 0;
    if (!served && !pl_cpu_cache_probe())
        return 0;
    if (sscanf(path, NODE_DIR "/node%u/cpu%u/cache%n", &a, &b, &used) == 2 && used)
        rest = path + used;
    else if (sscanf(path, CPU_DIR "/cpu%u/cache%n", &a, &used) == 1 && used)
        rest = path + used;
    return rest && (*rest == 0 || *rest == '/');
}

int pl_cpu_cache_probe(void)
{
    /* before the tree exists: whether it would hold cache folders (the host has none) */
    struct stat st;
    static int known = -1;
    if (known < 0)
        known = pl_libc.stat(CPU_DIR "/cpu0/cache", &st) != 0 &&
                pl_libc.stat(NODE_DIR "/node0/cpu0/cache", &st) != 0;
    return known;
}
