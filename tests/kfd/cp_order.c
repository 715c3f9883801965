/*
 * tests/kfd/cp_order.c — the command processor's completion writes are
 * release stores (docs/kfd.md, Memory ordering), which need aligned
 * addresses: a 64-bit COPY_DATA to a 4- but not 8-aligned address writes
 * both dwords; a RELEASE_MEM whose address is not aligned to its data
 * (4 or 8 bytes) or a COPY_DATA to a byte address stops the queue with a
 * hardware exception naming the packet (before, they were written with a
 * plain memcpy at any byte address).  That the stores are ordered is
 * checked by `make tsan` on every threaded suite.
 */
#include <string.h>

#include <rdx/pm4.h>

#include "tests/kfd/kfd_test.h"

static void submit_and_wait(kfd_fixture *f, rdx_kfd_queue *q, rdx_pm4_cmdbuf *cb, rdx_kfd_event *ev)
{
    rdx_pm4_signal(cb, rdx_kfd_event_mailbox(ev), rdx_kfd_event_id(ev), true, rdx_kfd_event_id(ev));
    ck_assert_int_eq(rdx_pm4_cmdbuf_status(cb), RDX_OK);
    ck_assert_int_eq(rdx_kfd_queue_submit(q, cb->dw, cb->len), RDX_OK);
    rdx_pm4_cmdbuf_reset(cb);
    rdx_status st = rdx_kfd_event_wait(f->kfd, &ev, 1, 0, 5000);
    ck_assert_msg(st == RDX_OK, "wait: %s", rdx_error_message());
}

/* Submit cb on a new queue and expect a hardware exception whose report has `what`. */
static void expect_refused(kfd_fixture *f, rdx_kfd_event *hw, rdx_pm4_cmdbuf *cb, const char *what)
{
    rdx_kfd_queue *q;
    ck_assert_int_eq(rdx_kfd_queue_create(f->kfd, 0, RDX_KFD_QUEUE_COMPUTE, 4096, &q), RDX_OK);
    ck_assert_int_eq(rdx_pm4_cmdbuf_status(cb), RDX_OK);
    ck_assert_int_eq(rdx_kfd_queue_submit(q, cb->dw, cb->len), RDX_OK);
    rdx_pm4_cmdbuf_reset(cb);
    ck_assert_int_eq(rdx_kfd_event_wait(f->kfd, &hw, 1, 0, 5000), RDX_ERR_FAULT);
    char err[512];
    rdx_emudev_last_error(f->dev, err, sizeof err);
    ck_assert_msg(strstr(err, what), "%s", err);
    ck_assert_int_eq(rdx_kfd_queue_destroy(f->kfd, q), RDX_OK);
}

START_TEST(completion_writes_need_dword_alignment)
{
    kfd_fixture f;
    fixture_open(&f, 1);
    rdx_kfd_event *ev, *hw;
    ck_assert_int_eq(rdx_kfd_event_create(f.kfd, RDX_KFD_EVENT_SIGNAL, 1, &ev), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_create(f.kfd, RDX_KFD_EVENT_HW_EXCEPTION, 1, &hw), RDX_OK);
    rdx_kfd_mem_desc d = { .kind = RDX_KFD_MEM_GTT, .size = 4096, .flags = 0, .userptr = NULL };
    rdx_kfd_mem *m;
    ck_assert_int_eq(rdx_kfd_mem_alloc(f.kfd, 0, &d, &m), RDX_OK);
    uint8_t *cpu = rdx_kfd_mem_cpu(m);
    uint64_t gpu = rdx_kfd_mem_gpu_addr(m);
    memset(cpu, 0, 64);
    uint32_t mem[64];
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init_fixed(&cb, mem, 64);

    /* COPY_DATA of 64 bits to gpu + 4 (dword-aligned, as its builder allows): two
     * dword stores, both written. */
    rdx_kfd_queue *q;
    ck_assert_int_eq(rdx_kfd_queue_create(f.kfd, 0, RDX_KFD_QUEUE_COMPUTE, 4096, &q), RDX_OK);
    rdx_pm4_copy c = { .src_sel = RDX_PM4_V_CD_SRC_SEL_IMMEDIATE,
                       .dst_sel = RDX_PM4_V_CD_DST_SEL_MEMORY,
                       .count64 = true,
                       .src = 0x1122334455667788ull,
                       .dst = gpu + 4 };
    ck_assert_int_eq(rdx_pm4_copy_data(&cb, &c), RDX_OK);
    submit_and_wait(&f, q, &cb, ev);
    uint64_t v;
    memcpy(&v, cpu + 4, 8);
    ck_assert_uint_eq(v, 0x1122334455667788ull);
    ck_assert_int_eq(rdx_kfd_queue_destroy(f.kfd, q), RDX_OK);

    /* Misaligned (the builders refuse these; the packets are patched): refused, the
     * memory untouched.  RELEASE_MEM's ADDR_LO is dword 3, COPY_DATA's DST_ADDR_LO dword 4. */
    rdx_pm4_signal(&cb, gpu + 16, 7, false, 0);
    mem[3] = (uint32_t)(gpu + 20); /* 64-bit data: needs 8 */
    expect_refused(&f, hw, &cb, "RELEASE_MEM (opcode 0x49): misaligned address");
    rdx_pm4_signal(&cb, gpu + 16, 7, false, 0);
    mem[3] = (uint32_t)(gpu + 18);
    expect_refused(&f, hw, &cb, "RELEASE_MEM (opcode 0x49): misaligned address");
    c.count64 = false;
    c.dst = gpu + 32;
    ck_assert_int_eq(rdx_pm4_copy_data(&cb, &c), RDX_OK);
    mem[4] = (uint32_t)(gpu + 33);
    expect_refused(&f, hw, &cb, "COPY_DATA (opcode 0x40): misaligned destination");
    for (int i = 16; i < 40; i++)
        ck_assert_uint_eq(cpu[i], 0);

    ck_assert_int_eq(rdx_kfd_mem_free(f.kfd, m), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_destroy(f.kfd, ev), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_destroy(f.kfd, hw), RDX_OK);
    fixture_close(&f);
}
END_TEST

TCase *kfd_tcase_cp_order(void)
{
    TCase *tc = tcase_create("cp_order");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, completion_writes_need_dword_alignment);
    return tc;
}
