/* tools/cmd_info.c — `rdx info`: the devices, their targets, compute units and memory. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/kfd.h>

#include "tools/cli.h"
#include <rdx/emudev.h>
#include <rdx/runtime.h>

static void help(void)
{
    printf("Usage: rdx info [options]\n"
           "\n"
           "List the GPUs of the device: target, compute units, memory banks, caches,\n"
           "clocks and the queue sizes the kernel driver expects.\n"
           "\n"
           "Options:\n"
           "  --device emu|kfd  the emulated GPU or the real driver (default: RDX_DEVICE,\n"
           "                    else a real card when /dev/kfd has one, else emu)\n"
           "  --gpus N          number of emulated cards (emu only; default 1)\n"
           "  --arch GFX[,GFX]  the emulated cards' target, one for all or one per card\n"
           "                    (emu only; default RDX_EMU_ARCH, else gfx1100), of:\n"
           "                    %s\n"
           "  -h, --help        show this help\n"
           "\n"
           "Exit status: 0 success, 1 the device could not be opened, 2 bad usage.\n",
           rdx_cli_emu_targets());
}

static void print_size(uint64_t bytes)
{
    if (bytes >= (1ull << 30))
        printf("%.1f GiB", (double)bytes / (1ull << 30));
    else if (bytes >= (1ull << 20))
        printf("%.1f MiB", (double)bytes / (1ull << 20));
    else
        printf("%llu KiB", (unsigned long long)(bytes >> 10));
}

static const char *heap_name(uint32_t t)
{
    return t == 0 ? "system" : t == 1 ? "VRAM (public)" : t == 2 ? "VRAM (private)" : "other";
}

static void print_gpu(uint32_t i, const rdx_kfd_gpu_info *g)
{
    printf("gpu %u: %s  (%s, gfx_target_version %u, node %u, gpu_id %u, device 0x%04x, "
           "/dev/dri/renderD%u)\n",
           i, g->target, g->name, g->gfx_target_version, g->node_id, g->gpu_id, g->device_id,
           g->drm_render_minor);
    printf("  compute units: %u (%u SIMDs, %u per CU; %u shader engines, %u arrays x %u CUs)\n",
           g->cu_count, g->simd_count, g->simd_per_cu, g->drm_num_shader_engines, g->array_count,
           g->cu_per_simd_array);
    printf("  waves: wave%u native, %u per SIMD; LDS %u KiB per workgroup\n", g->wave_front_size,
           g->max_waves_per_simd, g->lds_size_kb);
    for (uint32_t b = 0; b < g->num_mem_banks; b++) {
        printf("  memory bank %u: %s ", b, heap_name(g->mem_banks[b].heap_type));
        print_size(g->mem_banks[b].size_bytes);
        printf(", %u-bit, %u MHz\n", g->mem_banks[b].width_bits, g->mem_banks[b].mem_clk_max_mhz);
    }
    printf("  caches:");
    for (uint32_t c = 0; c < g->num_caches; c++)
        printf("%s L%u %u KiB%s", c ? "," : "", g->caches[c].level, g->caches[c].size_kb,
               g->caches[c].type & 2 ? " (instruction)" : "");
    printf("\n  clocks: %u MHz engine, %u kHz timestamp\n", g->max_engine_clk_mhz,
           g->gpu_counter_freq_khz);
    printf("  queues: %u compute, %u SDMA engines; ctl stack %u B, context save %u B, EOP %u B\n",
           g->num_cp_queues, g->num_sdma_engines, g->ctl_stack_size, g->cwsr_size,
           g->eop_buffer_size);
}

int rdx_cmd_info(int argc, char **argv)
{
    static const struct option opts[] = {
        { "device", required_argument, NULL, 'd' },
        { "gpus", required_argument, NULL, 'g' },
        { "arch", required_argument, NULL, 'a' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *device = NULL, *arch = NULL;
    unsigned long gpus = 1;
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'd':
            device = optarg;
            break;
        case 'a':
            arch = optarg;
            break;
        case 'g': {
            char *end;
            gpus = strtoul(optarg, &end, 10);
            if (*end || end == optarg || gpus == 0 || gpus > 8)
                return rdx_cli_usage_error("info", "--gpus '%s': expected 1..8", optarg);
            break;
        }
        case 'h':
            help();
            return RDX_EXIT_OK;
        default:
            return rdx_cli_usage_error("info", "unknown option");
        }
    }
    if (optind < argc)
        return rdx_cli_usage_error("info", "unexpected argument '%s'", argv[optind]);
    rdx_device_kind kind = RDX_DEVICE_AUTO;
    if (device && !strcmp(device, "emu"))
        kind = RDX_DEVICE_EMU;
    else if (device && !strcmp(device, "kfd"))
        kind = RDX_DEVICE_KFD;
    else if (device)
        return rdx_cli_usage_error("info", "--device '%s': expected 'emu' or 'kfd'", device);
    if (arch) { /* the emulated device reads RDX_EMU_ARCH */
        if (rdx_emudev_check_arch("--arch", arch, (uint32_t)gpus) != RDX_OK)
            return rdx_cli_usage_error("info", "%s", rdx_error_message());
        if (setenv("RDX_EMU_ARCH", arch, 1))
            return rdx_cli_fail("info");
    }
    rdx_emudev *emu;
    rdx_kfd *kfd;
    rdx_status st = rdx_device_select(kind, 0, (uint32_t)gpus, false, &emu, &kfd);
    if (st == RDX_ERR_INVALID) {
        fprintf(stderr, "rdx info: %s\nTry 'rdx info --help'.\n", rdx_error_message());
        return RDX_EXIT_USAGE;
    }
    if (st != RDX_OK)
        return rdx_cli_fail("info");
    uint32_t major, minor;
    rdx_kfd_version(kfd, &major, &minor);
    if (!strcmp(rdx_kfd_interface(kfd), "drm"))
        printf("device: drm (amdgpu command submission through libdrm_amdgpu, DRM interface "
               "%u.%u), %u GPU%s\n",
               major, minor, rdx_kfd_gpu_count(kfd), rdx_kfd_gpu_count(kfd) == 1 ? "" : "s");
    else
        printf("device: %s (KFD ioctl interface %u.%u), %u GPU%s\n",
               emu ? "emulated (rdx emu)" : "kfd (/dev/kfd)", major, minor, rdx_kfd_gpu_count(kfd),
               rdx_kfd_gpu_count(kfd) == 1 ? "" : "s");
    for (uint32_t i = 0; i < rdx_kfd_gpu_count(kfd); i++)
        print_gpu(i, rdx_kfd_gpu(kfd, i));
    rdx_kfd_close(kfd);
    rdx_emudev_destroy(emu);
    return RDX_EXIT_OK;
}
