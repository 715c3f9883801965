/*
 * runtime/share.c — one KFD process per OS table, shared by the devices of
 * a process.
 *
 * KFD has one process per process: every open of /dev/kfd reaches it, and
 * AMDKFD_IOC_ACQUIRE_VM takes one DRM file per GPU for good (a second open
 * of the render node is refused with EBUSY).  So the devices a program opens
 * on the GPUs of one machine must share one rdx_kfd: this registry keeps it,
 * counted, per OS table (the Linux table, a caller's rdx_emudev table) and,
 * for emulated machines of several GPUs the runtime creates itself, per
 * configuration.  A one-GPU emulated device keeps a machine of its own, as
 * before (each such device is independent of every other).
 */
#include "runtime/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/emudev.h>

struct rt_share {
    rt_share *next;
    const rdx_os *os;      /* key of a table share (NULL for an emulated machine of ours) */
    rdx_emudev *emu;       /* the emulated machine we created, or NULL */
    rdx_emudev_config cfg; /* its configuration (the key of a shared one) */
    int listed;            /* in the registry (private one-GPU machines are not) */
    rdx_kfd *kfd;
    unsigned refs;
};

static pthread_mutex_t share_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_share *shares;

static bool same_cfg(const rdx_emudev_config *a, const rdx_emudev_config *b)
{
    return a->num_gpus == b->num_gpus && a->vram_size == b->vram_size &&
           a->legacy_sysfs == b->legacy_sysfs && a->wave_budget == b->wave_budget &&
           a->dispatch_budget == b->dispatch_budget && a->bounds == b->bounds &&
           !strcmp(a->arch ? a->arch : "", b->arch ? b->arch : "");
}

rdx_status rt_share_os(const rdx_os *os, rt_share **out)
{
    pthread_mutex_lock(&share_lock);
    for (rt_share *s = shares; s; s = s->next) {
        if (s->os == os) {
            s->refs++;
            pthread_mutex_unlock(&share_lock);
            *out = s;
            return RDX_OK;
        }
    }
    rt_share *s = calloc(1, sizeof *s);
    rdx_status st = s ? rdx_kfd_open(os, &s->kfd)
                      : rdx_fail(RDX_ERR_NOMEM, "opening the KFD process: out of memory");
    if (st) {
        free(s);
        pthread_mutex_unlock(&share_lock);
        return st;
    }
    s->os = os;
    s->refs = 1;
    s->listed = 1;
    s->next = shares;
    shares = s;
    pthread_mutex_unlock(&share_lock);
    *out = s;
    return RDX_OK;
}

rdx_status rt_share_emu(const rdx_emudev_config *cfg, rt_share **out)
{
    bool shared = cfg->num_gpus > 1;
    pthread_mutex_lock(&share_lock);
    for (rt_share *s = shared ? shares : NULL; s; s = s->next) {
        if (s->emu && same_cfg(&s->cfg, cfg)) {
            s->refs++;
            pthread_mutex_unlock(&share_lock);
            *out = s;
            return RDX_OK;
        }
    }
    rt_share *s = calloc(1, sizeof *s);
    rdx_status st = s ? rdx_emudev_create(cfg, &s->emu)
                      : rdx_fail(RDX_ERR_NOMEM, "creating the emulated GPU: out of memory");
    if (st == RDX_OK) {
        st = rdx_kfd_open(rdx_emudev_os(s->emu), &s->kfd);
        if (st)
            rdx_emudev_destroy(s->emu);
    }
    if (st) {
        free(s);
        pthread_mutex_unlock(&share_lock);
        return st;
    }
    s->cfg = *cfg;
    s->refs = 1;
    if (shared) {
        s->listed = 1;
        s->next = shares;
        shares = s;
    }
    pthread_mutex_unlock(&share_lock);
    *out = s;
    return RDX_OK;
}

rdx_kfd *rt_share_kfd(const rt_share *s)
{
    return s->kfd;
}

rdx_emudev *rt_share_emudev(const rt_share *s)
{
    return s->emu;
}

rdx_status rt_share_put(rt_share *s)
{
    if (!s)
        return RDX_OK;
    pthread_mutex_lock(&share_lock);
    if (--s->refs) {
        pthread_mutex_unlock(&share_lock);
        return RDX_OK;
    }
    if (s->listed)
        for (rt_share **pp = &shares; *pp; pp = &(*pp)->next)
            if (*pp == s) {
                *pp = s->next;
                break;
            }
    pthread_mutex_unlock(&share_lock);
    rdx_status st = rdx_kfd_close(s->kfd);
    rdx_emudev_destroy(s->emu);
    free(s);
    return st;
}
