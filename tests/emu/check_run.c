/*
 * tests/emu/check_run.c — rdx_emu_run_codeobj: a code object's kernel run
 * straight on the emulator (results against a host computation, nothing left
 * registered afterwards, kernarg padding, kernel selection, error paths), and
 * the cancel hook of rdx_emu_dispatch (a spinning dispatch ends promptly with
 * a hang report, the emulator stays usable).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdx/codeobj.h>

#include "tests/emu/emu_test.h"

/* out[i] = in[i] * 3 + c for i < grid; kernarg {in, out, c} in s[0:1], group id X in s2. */
static const char *const triple_src =
    "s_load_b128 s[4:7], s[0:1], 0x0\n s_load_b32 s8, s[0:1], 0x10\n s_waitcnt lgkmcnt(0)\n"
    "v_and_b32 v1, 0x3ff, v0\n s_lshl_b32 s9, s2, 5\n v_add_nc_u32 v1, s9, v1\n"
    "v_lshlrev_b32 v2, 2, v1\n global_load_b32 v3, v2, s[4:5]\n s_waitcnt vmcnt(0)\n"
    "v_mul_lo_u32 v3, v3, 3\n v_add_nc_u32 v3, s8, v3\n global_store_b32 v2, v3, s[6:7]\n"
    "s_endpgm\n";
static const char *const spin_src = "L:\n s_add_u32 s20, s20, 1\n s_branch L\n";

#define SPIN_OFFSET 256u

/* A code object (rdx's writer) with kernels "triple" at 0 and "spin" at 256. */
static uint8_t *build_codeobj(size_t *len)
{
    size_t na, nb;
    uint8_t *a = et_assemble(triple_src, &na), *b = et_assemble(spin_src, &nb);
    ck_assert_uint_le(na, SPIN_OFFSET);
    uint8_t code[SPIN_OFFSET + 64] = { 0 };
    ck_assert_uint_le(nb, 64);
    memcpy(code, a, na);
    memcpy(code + SPIN_OFFSET, b, nb);
    free(a);
    free(b);
    rdx_codeobj_kernel k[2];
    memset(k, 0, sizeof k);
    for (int i = 0; i < 2; i++) {
        rdx_codeobj_kd_init(&k[i].kd, 11); /* wave32, workgroup id X */
        k[i].kd.enable_sgpr_kernarg_segment_ptr = 1;
        k[i].kd.user_sgpr_count = 2;
        k[i].kd.granulated_workitem_vgpr_count = 1;
        k[i].kd.kernarg_size = 24;
        rdx_codeobj_kernel_meta_init(&k[i].meta);
    }
    k[0].name = "triple";
    k[1].name = "spin";
    k[1].code_offset = SPIN_OFFSET;
    rdx_codeobj_image img = {
        .target = "gfx1100", .code = code, .code_size = sizeof code, .kernels = k, .num_kernels = 2
    };
    uint8_t *out;
    ck_assert_int_eq(rdx_codeobj_write(&img, &out, len), RDX_OK);
    return out;
}

static rdx_emu *emu_new(void)
{
    rdx_emu *e;
    ck_assert_int_eq(rdx_emu_create("gfx1100", &e), RDX_OK);
    rdx_emu_set_threads(e, 2);
    return e;
}

#define N 100

START_TEST(run_codeobj_matches_host_and_unregisters)
{
    size_t len;
    uint8_t *elf = build_codeobj(&len);
    int32_t *in = malloc(N * 4), *out = malloc(N * 4);
    for (int i = 0; i < N; i++) {
        in[i] = i * 7 - 300;
        out[i] = -1;
    }
    struct {
        uint64_t in, out;
        int32_t c, pad;
    } ka = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out, 11, 0 };
    rdx_emu_buffer bufs[3] = { { in, N * 4, RDX_EMU_READ },
                               { out, N * 4, RDX_EMU_WRITE },
                               { in, N * 4, RDX_EMU_READ } }; /* a repeat: registered once */
    rdx_emu_launch l = { .grid = { N },
                         .wg = { 32 },
                         .kernarg = &ka,
                         .kernarg_size = sizeof ka,
                         .bufs = bufs,
                         .nbufs = 3 };
    rdx_emu *e = emu_new();
    ck_assert_msg(rdx_emu_run_codeobj(e, elf, len, "triple", &l) == RDX_OK, "%s",
                  rdx_error_message());
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(out[i], in[i] * 3 + 11);
    const rdx_emu_counters *c = rdx_emu_get_counters(e);
    ck_assert_uint_eq(c->workgroups, 4); /* 100 work-items in groups of 32: a partial one */
    ck_assert_uint_eq(c->bytes_written, N * 4);
    /* Nothing of the call stays registered: the buffers can be registered again. */
    ck_assert_int_eq(rdx_emu_map(e, (uint64_t)(uintptr_t)in, N * 4, RDX_EMU_RW), RDX_OK);
    ck_assert_int_eq(rdx_emu_unmap(e, (uint64_t)(uintptr_t)in), RDX_OK);
    ck_assert_int_eq(rdx_emu_map(e, (uint64_t)(uintptr_t)out, N * 4, RDX_EMU_RW), RDX_OK);
    ck_assert_int_eq(rdx_emu_unmap(e, (uint64_t)(uintptr_t)out), RDX_OK);

    /* A kernarg shorter than the descriptor's 24 bytes is zero-padded: c reads 0.
       The code object is read once and dispatched through rdx_emu_run_kernel. */
    rdx_codeobj *co;
    ck_assert_int_eq(rdx_codeobj_read(elf, len, "test", &co), RDX_OK);
    l.kernarg_size = 16;
    l.nbufs = 2;
    ck_assert_msg(rdx_emu_run_kernel(e, co, "triple", &l) == RDX_OK, "%s", rdx_error_message());
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(out[i], in[i] * 3);
    rdx_codeobj_free(co);

    /* Without the output buffer the store is a VM fault at the output's address. */
    l.nbufs = 1;
    ck_assert_int_eq(rdx_emu_run_codeobj(e, elf, len, "triple", &l), RDX_ERR_FAULT);
    const rdx_emu_fault *f = rdx_emu_last_fault(e);
    ck_assert_int_eq(f->kind, RDX_EMU_FAULT_VM);
    ck_assert_int_eq(f->write, 1);
    ck_assert_uint_eq(f->address, (uint64_t)(uintptr_t)out);
    /* and the emulator is usable again */
    l.nbufs = 2;
    l.kernarg_size = sizeof ka;
    ck_assert_int_eq(rdx_emu_run_codeobj(e, elf, len, "triple", &l), RDX_OK);
    ck_assert_int_eq(out[5], in[5] * 3 + 11);
    rdx_emu_destroy(e);
    free(in);
    free(out);
    free(elf);
}
END_TEST

/* st must be `want` with a message containing `part`. */
static void fails(rdx_status st, rdx_status want, const char *part)
{
    ck_assert_msg(st == want, "status %d, want %d (%s)", st, want, rdx_error_message());
    ck_assert_msg(strstr(rdx_error_message(), part), "message '%s' lacks '%s'", rdx_error_message(),
                  part);
}

START_TEST(run_codeobj_errors)
{
    size_t len;
    uint8_t *elf = build_codeobj(&len);
    static int32_t buf[N];
    rdx_emu_buffer b = { buf, sizeof buf, 0 };
    rdx_emu_launch l = { .grid = { 32 }, .wg = { 32 }, .bufs = &b, .nbufs = 1 };
    rdx_emu *e = emu_new();
    fails(rdx_emu_run_codeobj(NULL, elf, len, "triple", &l), RDX_ERR_INVALID, "NULL emulator");
    fails(rdx_emu_run_codeobj(e, NULL, len, "triple", &l), RDX_ERR_INVALID, "NULL code object");
    fails(rdx_emu_run_codeobj(e, elf, len, "triple", NULL), RDX_ERR_INVALID, "NULL launch");
    fails(rdx_emu_run_kernel(e, NULL, "triple", &l), RDX_ERR_INVALID, "NULL code object");
    static const uint8_t junk[64] = { 0x7f, 'E', 'L', 'F' };
    ck_assert_int_ne(rdx_emu_run_codeobj(e, junk, sizeof junk, "triple", &l), RDX_OK);
    ck_assert_msg(strstr(rdx_error_message(), "code object"), "%s", rdx_error_message());
    fails(rdx_emu_run_codeobj(e, elf, len, "nope", &l), RDX_ERR_INVALID,
          "no kernel 'nope' in the code object (it has: triple, spin)");
    fails(rdx_emu_run_codeobj(e, elf, len, NULL, &l), RDX_ERR_INVALID, "has 2 kernels");
    l.kernarg_size = 8;
    fails(rdx_emu_run_codeobj(e, elf, len, "triple", &l), RDX_ERR_INVALID, "without kernarg");
    l.kernarg_size = 0;
    l.nbufs = 2;
    l.bufs = NULL;
    fails(rdx_emu_run_codeobj(e, elf, len, "triple", &l), RDX_ERR_INVALID, "without a buffer");
    /* A buffer overlapping a range the caller registered: an error naming the
       buffer; the caller's range stays, nothing of the call does. */
    l.bufs = &b;
    l.nbufs = 1;
    ck_assert_int_eq(rdx_emu_map(e, (uint64_t)(uintptr_t)buf + 64, 64, RDX_EMU_RW), RDX_OK);
    fails(rdx_emu_run_codeobj(e, elf, len, "triple", &l), RDX_ERR_INVALID, "buffer 0");
    ck_assert_int_eq(rdx_emu_unmap(e, (uint64_t)(uintptr_t)buf + 64), RDX_OK);
    ck_assert_int_eq(rdx_emu_map(e, (uint64_t)(uintptr_t)buf, sizeof buf, RDX_EMU_RW), RDX_OK);
    ck_assert_int_eq(rdx_emu_unmap(e, (uint64_t)(uintptr_t)buf), RDX_OK);
    rdx_emu_destroy(e);
    free(elf);
}
END_TEST

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *cancel_later(void *flag)
{
    struct timespec ts = { 0, 100 * 1000 * 1000 };
    nanosleep(&ts, NULL);
    __atomic_store_n((int *)flag, 1, __ATOMIC_RELEASE);
    return NULL;
}

START_TEST(cancel_hook_ends_a_spinning_dispatch)
{
    size_t len;
    uint8_t *elf = build_codeobj(&len);
    static int64_t ka[3];
    int flag = 0;
    /* A budget of 10^12 instructions per wave: hours of emulation. */
    rdx_emu_launch l = { .grid = { 256 },
                         .wg = { 64 },
                         .kernarg = ka,
                         .kernarg_size = sizeof ka,
                         .budget = 1000000000000ull,
                         .cancel = &flag };
    rdx_emu *e = emu_new();
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, cancel_later, &flag), 0);
    double t0 = now_s();
    rdx_status st = rdx_emu_run_codeobj(e, elf, len, "spin", &l);
    double el = now_s() - t0;
    pthread_join(th, NULL);
    ck_assert_int_eq(st, RDX_ERR_TIMEOUT);
    ck_assert_msg(el < 5.0, "cancelling took %.2f s", el);
    const rdx_emu_fault *f = rdx_emu_last_fault(e);
    ck_assert_int_eq(f->kind, RDX_EMU_FAULT_HANG);
    ck_assert_msg(strstr(f->message, "cancelled") && strstr(f->message, "PC histogram") &&
                      strstr(f->message, "s_add_u32 s20, s20, 1") && !strstr(f->message, "budget"),
                  "%s", f->message);
    /* The waves of the workgroups in flight, counted per PC (at most 2 threads x 2 waves). */
    ck_assert_uint_ge(f->nhist, 1);
    uint64_t waves = 0;
    for (unsigned i = 0; i < f->nhist; i++)
        waves += f->hist[i].count;
    ck_assert_uint_ge(waves, 1);
    ck_assert_uint_le(waves, 8);
    ck_assert_uint_ge(rdx_emu_get_counters(e)->wave_insts, 512);
    /* A flag already set ends the dispatch at once; a clear one lets it finish. */
    t0 = now_s();
    ck_assert_int_eq(rdx_emu_run_codeobj(e, elf, len, "spin", &l), RDX_ERR_TIMEOUT);
    ck_assert_msg(now_s() - t0 < 2.0, "a cancelled dispatch took %.2f s", now_s() - t0);
    flag = 0;
    static int32_t in[32], out[32];
    for (int i = 0; i < 32; i++)
        in[i] = i;
    int64_t ka2[3] = { (int64_t)(uintptr_t)in, (int64_t)(uintptr_t)out, 5 };
    rdx_emu_buffer b[2] = { { in, sizeof in, RDX_EMU_READ }, { out, sizeof out, RDX_EMU_RW } };
    rdx_emu_launch t = { .grid = { 32 },
                         .wg = { 32 },
                         .kernarg = ka2,
                         .kernarg_size = sizeof ka2,
                         .bufs = b,
                         .nbufs = 2,
                         .cancel = &flag };
    ck_assert_int_eq(rdx_emu_run_codeobj(e, elf, len, "triple", &t), RDX_OK);
    ck_assert_int_eq(out[31], 31 * 3 + 5);
    rdx_emu_destroy(e);
    free(elf);
}
END_TEST

Suite *et_suite_run(void)
{
    Suite *s = suite_create("emu_run");
    TCase *t = tcase_create("run");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, run_codeobj_matches_host_and_unregisters);
    tcase_add_test(t, run_codeobj_errors);
    tcase_add_test(t, cancel_hook_ends_a_spinning_dispatch);
    suite_add_tcase(s, t);
    return s;
}
