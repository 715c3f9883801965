/*
 * tools/prof_realize.c — `rdx realize --profile` on the emulated GPU goes
 * through rdx prof's shared code: realize's own report (with --profile's
 * per-kernel estimates), then the profile of every kernel of the schedule as
 * `rdx prof FILE.uop --no-disasm` prints it (the realize profile hook,
 * tools/realize_cli.h).  On a real card (or several GPUs) `--profile` keeps
 * realize's own meaning: the GPU times.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/cli.h"
#include "tools/prof.h"
#include "tools/realize_cli.h"

typedef struct cap {
    prof_run *run;
    int oom;
} cap;

static void on_kernel(void *user, size_t kernel, const char *name, const rdx_emu *emu,
                      const void *elf, size_t elf_size, const uint32_t grid[3],
                      const uint32_t wg[3])
{
    cap *c = user;
    (void)kernel;
    if (prof_capture(c->run, name, emu, elf, elf_size, grid, wg, 0))
        c->oom = 1;
}

/* Whether this realize command line runs on the emulated GPU (one device). */
static int on_emulator(int argc, char **argv)
{
    const char *dev = getenv("RDX_DEVICE");
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--gpus") || !strncmp(argv[i], "--gpus=", 7))
            return 0;
        if (!strcmp(argv[i], "--device") && i + 1 < argc)
            dev = argv[i + 1];
        else if (!strncmp(argv[i], "--device=", 9))
            dev = argv[i] + 9;
    }
    if (dev && *dev && strcmp(dev, "auto"))
        return !strcmp(dev, "emu");
    return access("/dev/kfd", F_OK) != 0; /* AUTO: the emulated GPU when there is no card */
}

int prof_realize(int argc, char **argv)
{
    int profile = 0;
    for (int i = 1; i < argc; i++)
        profile |= !strcmp(argv[i], "--profile");
    if (!profile || !on_emulator(argc, argv))
        return -1;
    prof_run run;
    memset(&run, 0, sizeof run);
    snprintf(run.label, sizeof run.label, "rdx realize --profile");
    cap c = { &run, 0 };
    rdx_cli_realize_hook hook = { on_kernel, &c, stdout };
    int rc = rdx_cli_realize(argc, argv, &hook);
    if (rc == RDX_EXIT_OK && c.oom)
        rc = rdx_cli_usage_error("realize", "out of memory");
    if (rc == RDX_EXIT_OK) {
        prof_opts o = { .no_disasm = 1 };
        printf("\n");
        prof_print_text(stdout, &run, &o);
    }
    prof_run_free(&run);
    return rc;
}
