/* tools/cmd_emu.c — `rdx emu`: run a program with emulated GPUs behind the kernel interface. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/cli.h"
#include <rdx/emudev.h>

#define LIB_NAME "librdx-emu.so"

static void help(void)
{
    printf("Usage: rdx emu [options] [--] COMMAND [ARGS...]\n"
           "\n"
           "Run COMMAND with emulated AMD GPUs in place of real ones.  COMMAND runs with rdx's\n"
           "interposer (" LIB_NAME ") in LD_PRELOAD, which serves /dev/kfd, the render nodes\n"
           "/dev/dri/renderD128.. and the KFD topology in sysfs (/sys/devices/virtual/kfd,\n"
           "/sys/class/kfd, /sys/class/drm) from rdx's emulated driver, inside the process.\n"
           "Every other path and fd reaches the system untouched; a real card is hidden.\n"
           "Each process that opens the device gets emulated GPUs of its own.\n"
           "\n"
           "Options:\n"
           "  --gpus N          number of emulated GPUs, 1-8 (default 1; RDX_EMU_GPUS)\n"
           "  --arch GFX[,GFX]  the GPUs' target, one for all or one per GPU (RDX_EMU_ARCH;\n"
           "                    default gfx1100), of:\n"
           "                    %s;\n"
           "                    e.g. --gpus 2 --arch gfx1100,gfx1201\n"
           "  --wave-budget N   instructions a wave may run before its dispatch is reported\n"
           "                    hung (RDX_EMU_WAVE_BUDGET)\n"
           "  -h, --help        show this help\n"
           "\n"
           "RDX_EMU_TRACE=1 prints each ioctl served, with its result, on stderr.\n"
           "The library is looked for in RDX_EMU_LIB, then beside the rdx binary, then in\n"
           "../lib/rdx/ from it (make install).  It also works set by hand:\n"
           "  LD_PRELOAD=/usr/local/lib/rdx/" LIB_NAME " RDX_EMU_GPUS=2 COMMAND\n"
           "\n"
           "Exit status: COMMAND's own; 2 bad usage; 126/127 COMMAND could not be run.\n",
           rdx_cli_emu_targets());
}

/* The interposer's path: RDX_EMU_LIB, else beside this binary, else ../lib/rdx/. */
static int find_lib(char *out, size_t cap)
{
    const char *env = getenv("RDX_EMU_LIB");
    if (env && *env) {
        if (access(env, R_OK)) {
            fprintf(stderr, "rdx emu: RDX_EMU_LIB=%s: %s\n", env, strerror(errno));
            return -1;
        }
        snprintf(out, cap, "%s", env);
        return 0;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        fprintf(stderr, "rdx emu: cannot find the rdx binary (/proc/self/exe): %s\n",
                strerror(errno));
        return -1;
    }
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    *slash = 0;
    static const char *const rel[] = { "/" LIB_NAME, "/../lib/rdx/" LIB_NAME };
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        if (snprintf(out, cap, "%s%s", exe, rel[i]) >= (int)cap)
            continue;
        if (!access(out, R_OK))
            return 0;
    }
    fprintf(stderr, "rdx emu: no %s beside %s or in %s/../lib/rdx (set RDX_EMU_LIB)\n", LIB_NAME,
            exe, exe);
    return -1;
}

int rdx_cmd_emu(int argc, char **argv)
{
    const char *gpus = NULL, *arch = NULL, *budget = NULL;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            help();
            return RDX_EXIT_OK;
        }
        const char **slot = !strcmp(a, "--gpus")          ? &gpus
                            : !strcmp(a, "--arch")        ? &arch
                            : !strcmp(a, "--wave-budget") ? &budget
                                                          : NULL;
        if (slot) {
            if (i + 1 >= argc)
                return rdx_cli_usage_error("emu", "%s needs a value", a);
            *slot = argv[++i];
            continue;
        }
        if (a[0] == '-')
            return rdx_cli_usage_error("emu", "unknown option '%s'", a);
        break; /* the command */
    }
    if (i >= argc)
        return rdx_cli_usage_error("emu", "no command to run");
    uint64_t v;
    if (gpus && (rdx_cli_parse_u64(gpus, &v) || v < 1 || v > 8))
        return rdx_cli_usage_error("emu", "--gpus '%s': expected a number from 1 to 8", gpus);
    if (arch) {
        const char *env = getenv("RDX_EMU_GPUS");
        uint64_t n = 1;
        if (gpus)
            (void)rdx_cli_parse_u64(gpus, &n);
        else if (env && *env && (rdx_cli_parse_u64(env, &n) || n < 1 || n > 8))
            n = 1; /* the interposer reports a bad RDX_EMU_GPUS itself */
        if (rdx_emudev_check_arch("--arch", arch, (uint32_t)n) != RDX_OK)
            return rdx_cli_usage_error("emu", "%s", rdx_error_message());
    }
    if (budget && (rdx_cli_parse_u64(budget, &v) || v == 0))
        return rdx_cli_usage_error("emu", "--wave-budget '%s': expected a positive number", budget);
    char lib[PATH_MAX];
    if (find_lib(lib, sizeof lib))
        return RDX_EXIT_FAIL;
    const char *old = getenv("LD_PRELOAD");
    size_t len = strlen(lib) + (old ? strlen(old) + 1 : 0) + 1;
    char *pre = malloc(len);
    if (!pre) {
        fprintf(stderr, "rdx emu: out of memory\n");
        return RDX_EXIT_FAIL;
    }
    snprintf(pre, len, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "");
    if (setenv("LD_PRELOAD", pre, 1) || (gpus && setenv("RDX_EMU_GPUS", gpus, 1)) ||
        (arch && setenv("RDX_EMU_ARCH", arch, 1)) ||
        (budget && setenv("RDX_EMU_WAVE_BUDGET", budget, 1))) {
        fprintf(stderr, "rdx emu: setenv: %s\n", strerror(errno));
        free(pre);
        return RDX_EXIT_FAIL;
    }
    free(pre);
    execvp(argv[i], argv + i);
    int e = errno;
    fprintf(stderr, "rdx emu: cannot run '%s': %s\n", argv[i], strerror(e));
    return e == ENOENT ? 127 : 126;
}
