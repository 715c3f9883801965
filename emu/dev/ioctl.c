/*
 * emu/dev/ioctl.c — /dev/kfd's ioctl entry point as the kernel's kfd_ioctl dispatches it, and
 * the process-level ioctls (version, apertures, clocks, memory policy, trap handler, scratch,
 * tile config, available memory, XNACK mode, SMI events, RUNTIME_ENABLE).
 *
 * The handler is chosen by the request's number alone (not its type or size); numbers
 * outside the table are ENOTTY; the argument is copied in with the caller's size, the rest of
 * the driver's structure zeroed, and copied back with the caller's size, the direction being
 * the driver's.  The modelled kernel is a current one (KFD 1.17, ioctl numbers 1 .. 0x26), or
 * Linux 6.1 (KFD 1.11, 1 .. 0x23) when the device is configured as a legacy kernel.  Ioctls
 * the emulated driver does not implement answer EINVAL, as kfd_ioctl answers a number without
 * a function; the deprecated debugger ioctls EPERM and CRIU EACCES (an unprivileged process),
 * as the kernel does.  docs/kfd.md, "Validation rules", lists every rule with its source.
 */
#include "emu/dev/emudev.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int emu_vm_bound(rdx_emudev *dev, uint32_t g)
{
    return dev->gpus[g].vm_fd >= 0;
}

/* kfd_process_device_apertures of gpu index i: the 64-bit apertures of gfx9+
 * (MAKE_LDS_APP_BASE_V9 / MAKE_SCRATCH_APP_BASE_V9; SVM: the user address space). */
static void aperture(rdx_emudev *dev, uint32_t i, struct kfd_process_device_apertures *ap)
{
    memset(ap, 0, sizeof *ap);
    ap->lds_base = 0x1ull << 48;
    ap->lds_limit = ap->lds_base | 0xffffffffull;
    ap->scratch_base = 0x2ull << 48;
    ap->scratch_limit = ap->scratch_base | 0xffffffffull;
    ap->gpuvm_base = 0x200000ull;
    ap->gpuvm_limit = 0x00007fffffffffffull;
    ap->gpu_id = dev->gpus[i].gpu_id;
}

static int apertures_new(rdx_emudev *dev, struct kfd_ioctl_get_process_apertures_new_args *a)
{
    if (a->num_of_nodes == 0) { /* the count query */
        a->num_of_nodes = dev->num_gpus;
        return 0;
    }
    struct kfd_process_device_apertures ap[EMU_MAX_GPUS];
    uint32_t n = a->num_of_nodes < dev->num_gpus ? a->num_of_nodes : dev->num_gpus;
    for (uint32_t i = 0; i < n; i++)
        aperture(dev, i, &ap[i]);
    a->num_of_nodes = n;
    return emu_copy_to_user(a->kfd_process_device_apertures_ptr, ap, n * sizeof ap[0]) ? -EFAULT
                                                                                       : 0;
}

/* SMI events: an fd the client may poll and read; the emulated GPU raises no SMI events (no
 * thermal, reset or VM-fault sources), so nothing ever arrives.  The driver keeps the other
 * end of a socket pair until the process goes away. */
static int smi_events(rdx_emudev *dev, struct kfd_ioctl_smi_events_args *a)
{
    int g = emu_gpu_by_id(dev, a->gpuid);
    if (g < 0)
        return -EINVAL;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        return -errno;
    if (dev->smi_fds[g] >= 0)
        close(dev->smi_fds[g]);
    dev->smi_fds[g] = sv[1];
    a->anon_fd = (uint32_t)sv[0];
    return 0;
}

void emu_smi_release_all(rdx_emudev *dev)
{
    for (uint32_t g = 0; g < EMU_MAX_GPUS; g++) {
        if (dev->smi_fds[g] >= 0)
            close(dev->smi_fds[g]);
        dev->smi_fds[g] = -1;
    }
}

/* GET_TILE_CONFIG: gfx11 has no tile mode tables (32 and 16 zero entries, no banks or ranks
 * in MC_ARB_RAMCFG); as many entries as the caller has room for are copied. */
static int tile_config(rdx_emudev *dev, struct kfd_ioctl_get_tile_config_args *a)
{
    static const uint32_t zeros[32];
    if (emu_gpu_by_id(dev, a->gpu_id) < 0)
        return -EINVAL;
    a->gb_addr_config = EMU_GB_ADDR_CONFIG;
    a->num_banks = 0;
    a->num_ranks = 0;
    if (a->num_tile_configs > 32)
        a->num_tile_configs = 32;
    if (a->num_tile_configs &&
        emu_copy_to_user(a->tile_config_ptr, zeros, a->num_tile_configs * 4u)) {
        a->num_tile_configs = 0;
        return -EFAULT;
    }
    if (a->num_macro_tile_configs > 16)
        a->num_macro_tile_configs = 16;
    if (a->num_macro_tile_configs &&
        emu_copy_to_user(a->macro_tile_config_ptr, zeros, a->num_macro_tile_configs * 4u)) {
        a->num_macro_tile_configs = 0;
        return -EFAULT;
    }
    return 0;
}

static int runtime_enable(rdx_emudev *dev, struct emu_kfd_runtime_enable_args *a)
{
    if (!(a->mode_mask & EMU_RUNTIME_ENABLE_MODE_ENABLE_MASK)) {
        dev->runtime_enabled = 0; /* runtime_disable: nobody debugs the process */
        return 0;
    }
    if (dev->runtime_enabled)
        return -EBUSY;
    if (emu_queue_count(dev))
        return -EEXIST;
    dev->runtime_enabled = 1;
    return 0;
}

static int acquire_vm(rdx_emudev *dev, struct kfd_ioctl_acquire_vm_args *a)
{
    uint32_t fgpu;
    /* fget: the fd must be open (a DRM file of this device, or kfd_process_device_init_vm
     * refuses it) */
    int kind = emu_fd_kind_of(dev, (int)a->drm_fd, &fgpu);
    if (kind == EMU_FD_FREE)
        return -EINVAL;
    int g = emu_gpu_by_id(dev, a->gpu_id);
    if (g < 0)
        return -EINVAL;
    /* The VM keeps the file it was given until the process goes, even once that fd is
     * closed; another file (a closed fd's number reused is one) is refused. */
    if (dev->gpus[g].vm_fd >= 0)
        return dev->gpus[g].vm_fd == (int)a->drm_fd && !dev->gpus[g].vm_file_closed ? 0 : -EBUSY;
    if (kind != EMU_FD_RENDER || fgpu != (uint32_t)g)
        return -EINVAL;
    dev->gpus[g].vm_fd = (int)a->drm_fd;
    return 0;
}

/* The ioctls of this file; 1 when `nr` is one of them (*r its result). */
static int process_ioctl(rdx_emudev *dev, unsigned nr, void *arg, int *r)
{
    int g;
    switch (nr) {
    case _IOC_NR(AMDKFD_IOC_GET_VERSION): {
        struct kfd_ioctl_get_version_args *a = arg;
        a->major_version = 1;
        a->minor_version = dev->legacy_sysfs ? EMU_KFD_MINOR_LEGACY : EMU_KFD_MINOR_CURRENT;
        *r = 0;
        return 1;
    }
    case _IOC_NR(AMDKFD_IOC_ACQUIRE_VM):
        *r = acquire_vm(dev, arg);
        return 1;
    case _IOC_NR(AMDKFD_IOC_GET_CLOCK_COUNTERS): {
        /* a gpu id without a device is not an error: its counter reads 0 */
        struct kfd_ioctl_get_clock_counters_args *a = arg;
        struct timespec raw, boot;
        clock_gettime(CLOCK_MONOTONIC_RAW, &raw);
        clock_gettime(CLOCK_BOOTTIME, &boot);
        a->gpu_clock_counter = emu_gpu_by_id(dev, a->gpu_id) < 0 ? 0 : emu_gpu_clock();
        a->cpu_clock_counter = (uint64_t)raw.tv_sec * 1000000000u + (uint64_t)raw.tv_nsec;
        a->system_clock_counter = (uint64_t)boot.tv_sec * 1000000000u + (uint64_t)boot.tv_nsec;
        a->system_clock_freq = 1000000000u;
        *r = 0;
        return 1;
    }
    case _IOC_NR(AMDKFD_IOC_SET_MEMORY_POLICY): {
        struct kfd_ioctl_set_memory_policy_args *a = arg;
        if (a->default_policy > KFD_IOC_CACHE_POLICY_NONCOHERENT ||
            a->alternate_policy > KFD_IOC_CACHE_POLICY_NONCOHERENT)
            *r = -EINVAL;
        else if ((g = emu_gpu_by_id(dev, a->gpu_id)) < 0)
            *r = -EINVAL;
        else /* kfd_bind_process_to_device fails without a VM; on gfx9+ nothing else */
            *r = emu_vm_bound(dev, (uint32_t)g) ? 0 : -ESRCH;
        return 1;
    }
    case _IOC_NR(AMDKFD_IOC_GET_PROCESS_APERTURES): {
        struct kfd_ioctl_get_process_apertures_args *a = arg;
        a->num_of_nodes = 0;
        for (uint32_t i = 0; i < dev->num_gpus && i < NUM_OF_SUPPORTED_GPUS; i++)
            aperture(dev, i, &a->process_apertures[a->num_of_nodes++]);
        *r = 0;
        return 1;
    }
    case _IOC_NR(AMDKFD_IOC_GET_PROCESS_APERTURES_NEW):
        *r = apertures_new(dev, arg);
        return 1;
    case _IOC_NR(AMDKFD_IOC_SET_TRAP_HANDLER): {
        /* the trap handler's TBA/TMA are kept by the kernel for the queues' MQDs; the wave
         * emulator runs no trap handler */
        struct kfd_ioctl_set_trap_handler_args *a = arg;
        g = emu_gpu_by_id(dev, a->gpu_id);
        *r = g < 0 ? -EINVAL : emu_vm_bound(dev, (uint32_t)g) ? 0 : -ESRCH;
        return 1;
    }
    case _IOC_NR(AMDKFD_IOC_SET_SCRATCH_BACKING_VA): {
        struct kfd_ioctl_set_scratch_backing_va_args *a = arg;
        g = emu_gpu_by_id(dev, a->gpu_id);
        *r = g < 0 ? -EINVAL : emu_vm_bound(dev, (uint32_t)g) ? 0 : -ENODEV;
        return 1;
    }
    case _IOC_NR(AMDKFD_IOC_AVAILABLE_MEMORY): {
        struct kfd_ioctl_get_available_memory_args *a = arg;
        g = emu_gpu_by_id(dev, a->gpu_id);
        if (g < 0) {
            *r = -EINVAL;
        } else {
            a->available = dev->gpus[g].vram_size - dev->gpus[g].vram_used;
            *r = 0;
        }
        return 1;
    }
    case _IOC_NR(AMDKFD_IOC_SET_XNACK_MODE): {
        /* gfx11 and gfx12 cannot retry faults: XNACK stays off */
        struct kfd_ioctl_set_xnack_mode_args *a = arg;
        if (a->xnack_enabled < 0)
            a->xnack_enabled = 0, *r = 0;
        else if (emu_queue_count(dev))
            *r = -EBUSY;
        else
            *r = a->xnack_enabled ? -EPERM : 0;
        return 1;
    }
    case _IOC_NR(AMDKFD_IOC_SMI_EVENTS):
        *r = smi_events(dev, arg);
        return 1;
    case _IOC_NR(AMDKFD_IOC_GET_TILE_CONFIG):
        *r = tile_config(dev, arg);
        return 1;
    case _IOC_NR(EMU_IOC_RUNTIME_ENABLE):
        *r = runtime_enable(dev, arg);
        return 1;
    case _IOC_NR(AMDKFD_IOC_DBG_REGISTER_DEPRECATED):
    case _IOC_NR(AMDKFD_IOC_DBG_UNREGISTER_DEPRECATED):
    case _IOC_NR(AMDKFD_IOC_DBG_ADDRESS_WATCH_DEPRECATED):
    case _IOC_NR(AMDKFD_IOC_DBG_WAVE_CONTROL_DEPRECATED):
        *r = -EPERM;
        return 1;
    }
    return 0;
}

/* The driver's request code (size and direction) of ioctl number nr, or 0 for a number
 * without a function in the emulated driver. */
static unsigned long driver_cmd(unsigned nr)
{
    static const unsigned long cmds[] = {
        AMDKFD_IOC_GET_VERSION,
        EMU_IOC_CREATE_QUEUE,
        AMDKFD_IOC_DESTROY_QUEUE,
        AMDKFD_IOC_SET_MEMORY_POLICY,
        AMDKFD_IOC_GET_CLOCK_COUNTERS,
        AMDKFD_IOC_GET_PROCESS_APERTURES,
        AMDKFD_IOC_UPDATE_QUEUE,
        AMDKFD_IOC_CREATE_EVENT,
        AMDKFD_IOC_DESTROY_EVENT,
        AMDKFD_IOC_SET_EVENT,
        AMDKFD_IOC_RESET_EVENT,
        AMDKFD_IOC_WAIT_EVENTS,
        AMDKFD_IOC_DBG_REGISTER_DEPRECATED,
        AMDKFD_IOC_DBG_UNREGISTER_DEPRECATED,
        AMDKFD_IOC_DBG_ADDRESS_WATCH_DEPRECATED,
        AMDKFD_IOC_DBG_WAVE_CONTROL_DEPRECATED,
        AMDKFD_IOC_SET_SCRATCH_BACKING_VA,
        AMDKFD_IOC_GET_TILE_CONFIG,
        AMDKFD_IOC_SET_TRAP_HANDLER,
        AMDKFD_IOC_GET_PROCESS_APERTURES_NEW,
        AMDKFD_IOC_ACQUIRE_VM,
        AMDKFD_IOC_ALLOC_MEMORY_OF_GPU,
        AMDKFD_IOC_FREE_MEMORY_OF_GPU,
        AMDKFD_IOC_MAP_MEMORY_TO_GPU,
        AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU,
        AMDKFD_IOC_SMI_EVENTS,
        AMDKFD_IOC_SET_XNACK_MODE,
        AMDKFD_IOC_CRIU_OP,
        AMDKFD_IOC_AVAILABLE_MEMORY,
        EMU_IOC_RUNTIME_ENABLE,
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (_IOC_NR(cmds[i]) == nr)
            return cmds[i];
    return 0;
}

int emu_kfd_ioctl(rdx_emudev *dev, unsigned long request, void *user_arg)
{
    unsigned nr = _IOC_NR(request);
    unsigned count = dev->legacy_sysfs ? EMU_KFD_COUNT_LEGACY : EMU_KFD_COUNT_CURRENT;
    if (nr < 1 || nr >= count)
        return -ENOTTY;
    unsigned long cmd = driver_cmd(nr);
    if (!cmd)
        return -EINVAL; /* no function for this number */
    if (cmd == AMDKFD_IOC_CRIU_OP)
        return -EACCES; /* needs CAP_CHECKPOINT_RESTORE or CAP_SYS_ADMIN */
    if (dev->legacy_sysfs && cmd == EMU_IOC_CREATE_QUEUE)
        cmd = AMDKFD_IOC_CREATE_QUEUE; /* 6.1's structure has no sdma_engine_id */
    size_t usize = _IOC_SIZE(request), asize = _IOC_SIZE(cmd) > usize ? _IOC_SIZE(cmd) : usize;
    _Alignas(16) unsigned char stack[512];
    unsigned char *arg = asize <= sizeof stack ? stack : malloc(asize);
    if (!arg)
        return -ENOMEM;
    memset(arg, 0, asize);
    int r;
    if ((_IOC_DIR(cmd) & _IOC_WRITE) &&
        emu_copy_from_user(arg, (uint64_t)(uintptr_t)user_arg, usize)) {
        r = -EFAULT;
        goto out;
    }
    dev->stats.ioctls++;
    if (process_ioctl(dev, nr, arg, &r)) {
        /* handled */
    } else if (cmd == AMDKFD_IOC_ALLOC_MEMORY_OF_GPU || cmd == AMDKFD_IOC_FREE_MEMORY_OF_GPU ||
               cmd == AMDKFD_IOC_MAP_MEMORY_TO_GPU || cmd == AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU) {
        emu_wait_gpus_idle(dev, emu_mem_ioctl_gpus(dev, cmd, arg));
        r = emu_ioctl_mem(dev, cmd, arg);
    } else if (cmd == EMU_IOC_CREATE_QUEUE || cmd == AMDKFD_IOC_CREATE_QUEUE ||
               cmd == AMDKFD_IOC_DESTROY_QUEUE || cmd == AMDKFD_IOC_UPDATE_QUEUE) {
        if (cmd == AMDKFD_IOC_DESTROY_QUEUE)
            emu_queue_mark_destroying(dev, arg);
        emu_wait_gpus_idle(dev, emu_queue_ioctl_gpus(dev, cmd, arg)); /* not the other GPUs' */
        r = emu_ioctl_queue(dev, cmd == EMU_IOC_CREATE_QUEUE ? AMDKFD_IOC_CREATE_QUEUE : cmd, arg);
    } else {
        r = emu_ioctl_event(dev, cmd, arg); /* WAIT_EVENTS may drop the lock */
    }
    if ((_IOC_DIR(cmd) & _IOC_READ) && emu_copy_to_user((uint64_t)(uintptr_t)user_arg, arg, usize))
        r = -EFAULT;
out:
    if (arg != stack)
        free(arg);
    return r;
}
