/* tests/kfd/memory.c — allocation, GPU/CPU mapping and freeing of every memory kind. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tests/kfd/kfd_test.h"

static rdx_kfd_mem *alloc(kfd_fixture *f, rdx_kfd_mem_kind kind, uint64_t size, void *userptr)
{
    rdx_kfd_mem_desc d = { .kind = kind, .size = size, .flags = 0, .userptr = userptr };
    rdx_kfd_mem *m = NULL;
    rdx_status st = rdx_kfd_mem_alloc(f->kfd, 0, &d, &m);
    ck_assert_msg(st == RDX_OK, "alloc: %s", rdx_error_message());
    return m;
}

static void expect_stats(rdx_emudev *dev, uint32_t bos, uint32_t mapped)
{
    rdx_emudev_stats s;
    rdx_emudev_get_stats(dev, &s);
    ck_assert_uint_eq(s.bos, bos);
    ck_assert_uint_eq(s.gpu_mapped, mapped);
}

START_TEST(gtt_cpu_equals_gpu_and_data_visible)
{
    kfd_fixture f;
    fixture_open(&f, 1);
    rdx_kfd_mem *m = alloc(&f, RDX_KFD_MEM_GTT, 10000, NULL);
    ck_assert_uint_eq(rdx_kfd_mem_size(m), 12288);
    ck_assert_ptr_nonnull(rdx_kfd_mem_cpu(m));
    ck_assert_uint_eq((uint64_t)(uintptr_t)rdx_kfd_mem_cpu(m), rdx_kfd_mem_gpu_addr(m));
    ck_assert_uint_eq(rdx_kfd_mem_gpu_addr(m) % 4096, 0);
    ck_assert_uint_ne(rdx_kfd_mem_handle(m), 0);
    expect_stats(f.dev, 1, 1);
    /* Fresh memory reads as zero; what the CPU writes is what the GPU address holds. */
    uint32_t *p = rdx_kfd_mem_cpu(m);
    for (int i = 0; i < 3072; i++)
        ck_assert_uint_eq(p[i], 0);
    for (int i = 0; i < 3072; i++)
        p[i] = 0x9e3779b9u * (uint32_t)i;
    const uint32_t *g = (const uint32_t *)(uintptr_t)rdx_kfd_mem_gpu_addr(m);
    for (int i = 0; i < 3072; i++)
        ck_assert_uint_eq(g[i], 0x9e3779b9u * (uint32_t)i);
    ck_assert_int_eq(rdx_kfd_mem_free(f.kfd, m), RDX_OK);
    expect_stats(f.dev, 0, 0);
    fixture_close(&f);
}
END_TEST

START_TEST(every_kind)
{
    kfd_fixture f;
    fixture_open(&f, 1);
    rdx_kfd_mem *vram = alloc(&f, RDX_KFD_MEM_VRAM, 1 << 20, NULL);
    ck_assert_ptr_null(rdx_kfd_mem_cpu(vram)); /* not CPU-visible */
    ck_assert_uint_ne(rdx_kfd_mem_gpu_addr(vram), 0);
    rdx_kfd_mem *pub = alloc(&f, RDX_KFD_MEM_VRAM_HOST, 65536, NULL);
    ck_assert_uint_eq((uint64_t)(uintptr_t)rdx_kfd_mem_cpu(pub), rdx_kfd_mem_gpu_addr(pub));
    memset(rdx_kfd_mem_cpu(pub), 0x5a, 65536);
    ck_assert_uint_eq(((unsigned char *)rdx_kfd_mem_cpu(pub))[65535], 0x5a);
    /* USERPTR at an unaligned address inside the caller's pages. */
    unsigned char *host =
        mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(host, MAP_FAILED);
    host[100] = 42;
    rdx_kfd_mem *up = alloc(&f, RDX_KFD_MEM_USERPTR, 5000, host + 100);
    ck_assert_ptr_eq(rdx_kfd_mem_cpu(up), host + 100);
    ck_assert_uint_eq(rdx_kfd_mem_gpu_addr(up), (uint64_t)(uintptr_t)(host + 100));
    ck_assert_uint_eq(*(unsigned char *)(uintptr_t)rdx_kfd_mem_gpu_addr(up), 42);
    ck_assert_uint_eq(rdx_kfd_mem_size(up), 8192); /* pages 0 and 1 of host */
    rdx_kfd_mem *db = alloc(&f, RDX_KFD_MEM_DOORBELL, 8192, NULL);
    ck_assert_ptr_null(rdx_kfd_mem_cpu(db)); /* CPU view comes with a queue's offset */
    expect_stats(f.dev, 4, 4);
    /* Addresses do not overlap. */
    rdx_kfd_mem *all[] = { vram, pub, up, db };
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < i; j++) {
            uint64_t a = rdx_kfd_mem_gpu_addr(all[i]), b = rdx_kfd_mem_gpu_addr(all[j]);
            ck_assert(a + rdx_kfd_mem_size(all[i]) <= b || b + rdx_kfd_mem_size(all[j]) <= a);
        }
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(rdx_kfd_mem_free(f.kfd, all[i]), RDX_OK);
    ck_assert_uint_eq(host[100], 42); /* the user's memory is untouched */
    munmap(host, 3 * 4096);
    expect_stats(f.dev, 0, 0);
    fixture_close(&f);
}
END_TEST

START_TEST(alloc_free_loop_and_second_gpu)
{
    kfd_fixture f;
    fixture_open(&f, 2);
    for (int round = 0; round < 50; round++) {
        rdx_kfd_mem_desc d = { .kind = round % 2 ? RDX_KFD_MEM_GTT : RDX_KFD_MEM_VRAM_HOST,
                               .size = 4096u * (1 + round % 7),
                               .flags = RDX_KFD_MEM_UNCACHED,
                               .userptr = NULL };
        rdx_kfd_mem *m;
        ck_assert_int_eq(rdx_kfd_mem_alloc(f.kfd, (uint32_t)round % 2, &d, &m), RDX_OK);
        ((volatile uint32_t *)rdx_kfd_mem_cpu(m))[0] = (uint32_t)round;
        ck_assert_int_eq(rdx_kfd_mem_free(f.kfd, m), RDX_OK);
    }
    expect_stats(f.dev, 0, 0);
    fixture_close(&f);
}
END_TEST

START_TEST(bad_descriptors)
{
    kfd_fixture f;
    fixture_open(&f, 1);
    rdx_kfd_mem *m = NULL;
    rdx_kfd_mem_desc d = { .kind = RDX_KFD_MEM_GTT, .size = 0, .flags = 0, .userptr = NULL };
    ck_assert_int_eq(rdx_kfd_mem_alloc(f.kfd, 0, &d, &m), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "size 0"));
    d.size = 4096;
    ck_assert_int_eq(rdx_kfd_mem_alloc(f.kfd, 3, &d, &m), RDX_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "gpu index 3"));
    d.kind = RDX_KFD_MEM_USERPTR;
    ck_assert_int_eq(rdx_kfd_mem_alloc(f.kfd, 0, &d, &m), RDX_ERR_INVALID);
    d.kind = RDX_KFD_MEM_DOORBELL;
    ck_assert_int_eq(rdx_kfd_mem_alloc(f.kfd, 0, &d, &m), RDX_ERR_INVALID);
    d.kind = RDX_KFD_MEM_GTT;
    d.size = UINT64_MAX;
    ck_assert_int_eq(rdx_kfd_mem_alloc(f.kfd, 0, &d, &m), RDX_ERR_RANGE);
    d.size = 4096;
    d.kind = (rdx_kfd_mem_kind)99;
    ck_assert_int_eq(rdx_kfd_mem_alloc(f.kfd, 0, &d, &m), RDX_ERR_INVALID);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(rdx_kfd_mem_free(f.kfd, NULL), RDX_OK);
    fixture_close(&f);
}
END_TEST

START_TEST(vram_exhaustion_is_enomem)
{
    rdx_emudev_config cfg = { .num_gpus = 1, .vram_size = 8u << 20, .legacy_sysfs = 0 };
    kfd_fixture f;
    ck_assert_int_eq(rdx_emudev_create(&cfg, &f.dev), RDX_OK);
    ck_assert_int_eq(rdx_kfd_open(rdx_emudev_os(f.dev), &f.kfd), RDX_OK);
    rdx_kfd_mem *a = alloc(&f, RDX_KFD_MEM_VRAM, 6u << 20, NULL), *b = NULL;
    rdx_kfd_mem_desc d = {
        .kind = RDX_KFD_MEM_VRAM, .size = 4u << 20, .flags = 0, .userptr = NULL
    };
    ck_assert_int_eq(rdx_kfd_mem_alloc(f.kfd, 0, &d, &b), RDX_ERR_NOMEM);
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "AMDKFD_IOC_ALLOC_MEMORY_OF_GPU"));
    ck_assert_ptr_nonnull(strstr(rdx_error_message(), "Cannot allocate memory"));
    /* GTT does not count against VRAM. */
    d.kind = RDX_KFD_MEM_GTT;
    ck_assert_int_eq(rdx_kfd_mem_alloc(f.kfd, 0, &d, &b), RDX_OK);
    rdx_kfd_mem_free(f.kfd, b);
    rdx_kfd_mem_free(f.kfd, a);
    /* Freed VRAM is available again. */
    d.kind = RDX_KFD_MEM_VRAM;
    d.size = 8u << 20;
    ck_assert_int_eq(rdx_kfd_mem_alloc(f.kfd, 0, &d, &b), RDX_OK);
    rdx_kfd_mem_free(f.kfd, b);
    fixture_close(&f);
}
END_TEST

TCase *kfd_tcase_memory(void)
{
    TCase *tc = tcase_create("memory");
    tcase_add_test(tc, gtt_cpu_equals_gpu_and_data_visible);
    tcase_add_test(tc, every_kind);
    tcase_add_test(tc, alloc_free_loop_and_second_gpu);
    tcase_add_test(tc, bad_descriptors);
    tcase_add_test(tc, vram_exhaustion_is_enomem);
    return tc;
}
