/*
 * tests/drm/check_drm.c — the amdgpu DRM path (docs/drm.md): the emulated driver's ioctls
 * (raw, in process) and rdx's DRM backend (kfd/drm_*.c) through the runtime, in children run
 * under `rdx emu` with RDX_SUBMIT=drm (libdrm_amdgpu reaches the emulated GPU only through
 * the interposer).  `build/tests/drm --child NAME` runs one child scenario.
 */
#include <stdio.h>
#include <string.h>

#include "tests/drm/drm_test.h"

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--child")) {
        drm_inject_from_env();
        return drm_child(argv[2]);
    }
    Suite *s = suite_create("drm");
    suite_add_tcase(s, drm_tcase_ioctl());
    suite_add_tcase(s, drm_tcase_cs());
    suite_add_tcase(s, drm_tcase_backend());
    return rdx_test_main(s);
}
