/* tests/kfd/notes.c — memory notes (rdx_kfd_mem_note over rdx_os.mem_note):
 * what the emulated driver accepts and refuses, with the errno named. */
#include <string.h>

#include "tests/kfd/kfd_test.h"

static rdx_kfd_mem *gtt(kfd_fixture *f, uint64_t size)
{
    rdx_kfd_mem_desc d = { .kind = RDX_KFD_MEM_GTT, .size = size };
    rdx_kfd_mem *m = NULL;
    ck_assert_msg(rdx_kfd_mem_alloc(f->kfd, 0, &d, &m) == RDX_OK, "%s", rdx_error_message());
    return m;
}

static void refused(rdx_status st, const char *want)
{
    ck_assert_int_eq(st, RDX_ERR_DEVICE);
    ck_assert_msg(strstr(rdx_error_message(), want), "expected \"%s\" in: %s", want,
                  rdx_error_message());
}

START_TEST(pool_alloc_free_and_refusals)
{
    kfd_fixture f;
    fixture_open(&f, 1);
    rdx_kfd_mem *m = gtt(&f, 65536);
    uint64_t a = rdx_kfd_mem_gpu_addr(m);
    /* An allocation outside any pool, a pool that is no buffer's start. */
    refused(rdx_kfd_mem_note(f.kfd, RDX_OS_MEM_ALLOC, a, 16, "x"), "memory note ALLOC of 0x");
    refused(rdx_kfd_mem_note(f.kfd, RDX_OS_MEM_POOL, a + 4096, 4096, NULL),
            "memory note POOL of 0x");
    ck_assert_int_eq(rdx_kfd_mem_note(f.kfd, RDX_OS_MEM_POOL, a, 65536, NULL), RDX_OK);
    ck_assert_int_eq(rdx_kfd_mem_note(f.kfd, RDX_OS_MEM_ALLOC, a, 16, "first"), RDX_OK);
    ck_assert_int_eq(rdx_kfd_mem_note(f.kfd, RDX_OS_MEM_ALLOC, a + 256, 16, NULL), RDX_OK);
    /* Overlapping, empty, beyond the buffer; freeing what is not allocated. */
    refused(rdx_kfd_mem_note(f.kfd, RDX_OS_MEM_ALLOC, a + 8, 16, "y"), "('y'): Invalid argument");
    refused(rdx_kfd_mem_note(f.kfd, RDX_OS_MEM_ALLOC, a + 512, 0, NULL), "Invalid argument");
    refused(rdx_kfd_mem_note(f.kfd, RDX_OS_MEM_ALLOC, a + 65536 - 8, 16, NULL), "Invalid argument");
    refused(rdx_kfd_mem_note(f.kfd, RDX_OS_MEM_FREE, a + 8, 0, NULL), "memory note FREE of 0x");
    ck_assert_int_eq(rdx_kfd_mem_note(f.kfd, RDX_OS_MEM_FREE, a, 0, NULL), RDX_OK);
    refused(rdx_kfd_mem_note(f.kfd, RDX_OS_MEM_FREE, a, 0, NULL), "Invalid argument");
    /* A freed extent's bytes can be allocated again. */
    ck_assert_int_eq(rdx_kfd_mem_note(f.kfd, RDX_OS_MEM_ALLOC, a, 256, "again"), RDX_OK);
    /* Freeing the buffer object drops its live extents (no leak under ASan). */
    ck_assert_int_eq(rdx_kfd_mem_free(f.kfd, m), RDX_OK);
    refused(rdx_kfd_mem_note(f.kfd, RDX_OS_MEM_FREE, a, 0, NULL), "Invalid argument");
    fixture_close(&f);
}
END_TEST

TCase *kfd_tcase_notes(void)
{
    TCase *tc = tcase_create("notes");
    tcase_add_test(tc, pool_alloc_free_and_refusals);
    return tc;
}
