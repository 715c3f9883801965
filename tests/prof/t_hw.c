/*
 * tests/prof/t_hw.c — profiling through the queue (rdx/queue_prof.h,
 * rdx/pm4_prof.h, emu/dev/perf.c): the perf counters and the SQ thread trace
 * programmed with PM4 register writes on a runtime queue of the emulated GPU,
 * read back with COPY_DATA and from the trace buffers.  The counter values
 * are checked against counts known by hand and against a private emulator's
 * run of the same dispatch; the trace decodes and maps back to exactly the
 * PCs the traced wave ran.  Bad programming: a trace buffer too small (cut,
 * BUF0_FULL, dropped bytes), unaligned or odd sizes (errors naming them), no
 * counter selected (reads 0 on the GPU; refused by the runtime).  `rdx prof
 * --source hw`: its JSON and its Chrome trace (the queue's copies, register
 * programming, dispatch and waits; the traced waves).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codeobj.h>
#include <rdx/emudev.h>
#include <rdx/isa.h>
#include <rdx/kfd.h>
#include <rdx/pm4_prof.h>
#include <rdx/queue_prof.h>
#include <rdx/runtime.h>
#include <rdx/sqtt.h>

#include "tests/prof/json.h"
#include "tests/prof/prof_test.h"
#include "util/file.h"

#define GROUPS 8u
#define ITEMS  64u

typedef struct hw {
    rdx_device *dev;
    rdx_program *prog;
    const rdx_kernel *k;
    rdx_queue *q;
    rdx_buffer *out;
} hw;

static void hw_open(hw *h)
{
    memset(h, 0, sizeof *h);
    rdx_device_options o = { .kind = RDX_DEVICE_EMU, .quiet = true };
    ck_assert_msg(rdx_device_open(&o, &h->dev) == RDX_OK, "%s", rdx_error_message());
    ck_assert_msg(rdx_program_load_file(h->dev, pt_loops_co, &h->prog) == RDX_OK, "%s",
                  rdx_error_message());
    ck_assert_int_eq(rdx_program_find(h->prog, "loops", &h->k), RDX_OK);
    ck_assert_int_eq(rdx_queue_create(h->dev, RDX_QUEUE_COMPUTE, &h->q), RDX_OK);
    ck_assert_int_eq(rdx_buffer_alloc(h->dev, GROUPS * ITEMS * 4 + 256, RDX_MEM_HOST, &h->out),
                     RDX_OK);
}

static void hw_dispatch(hw *h, unsigned times)
{
    rdx_arg args[2] = { rdx_arg_buffer(h->out), rdx_arg_u32(7) };
    rdx_launch l = {
        .kernel = h->k, .grid = { GROUPS, 1, 1 }, .block = { ITEMS, 1, 1 }, .args = args, .nargs = 2
    };
    for (unsigned i = 0; i < times; i++)
        ck_assert_msg(rdx_queue_dispatch(h->q, &l, NULL) == RDX_OK, "%s", rdx_error_message());
}

static void hw_close(hw *h)
{
    ck_assert_int_eq(rdx_queue_destroy(h->q), RDX_OK);
    rdx_buffer_free(h->out);
    rdx_program_free(h->prog);
    ck_assert_int_eq(rdx_device_close(h->dev), RDX_OK);
}

/* The same dispatch on a private emulator with profiling on (the independent count). */
static rdx_emu *private_run(uint32_t **outp)
{
    uint8_t *elf;
    size_t len;
    ck_assert_int_eq(rdx_file_read(pt_loops_co, &elf, &len), RDX_OK);
    uint32_t *out = aligned_alloc(128, GROUPS * ITEMS * 4 + 256);
    memset(out, 0, GROUPS * ITEMS * 4 + 256);
    rdx_emu_buffer b = { out, GROUPS * ITEMS * 4 + 256, RDX_EMU_RW };
    uint8_t ka[256] = { 0 };
    uint32_t seed = 7;
    uint16_t gsize = ITEMS;
    memcpy(ka, &out, sizeof out);
    memcpy(ka + 8, &seed, 4);
    memcpy(ka + 0x1c, &gsize, 2);
    rdx_emu_launch l = { .grid = { GROUPS * ITEMS },
                         .wg = { ITEMS },
                         .kernarg = ka,
                         .kernarg_size = sizeof ka,
                         .bufs = &b,
                         .nbufs = 1 };
    rdx_emu *emu;
    ck_assert_int_eq(rdx_emu_create("gfx1100", &emu), RDX_OK);
    rdx_emu_set_profiling(emu, 1);
    ck_assert_int_eq(rdx_emu_run_codeobj(emu, elf, len, "loops", &l), RDX_OK);
    free(elf);
    *outp = out;
    return emu;
}

/* Counter values read through COPY_DATA equal the emulator's counts: SQ_WAVES is 16 per
   dispatch (8 groups of 2 waves, by hand), the instruction counts those of a private run,
   and two dispatches count twice. */
START_TEST(counters_equal_emulator_counts)
{
    uint32_t *out;
    rdx_emu *emu = private_run(&out);
    const rdx_emu_counters *c = rdx_emu_get_counters(emu);
    const rdx_emu_profile *p = rdx_emu_get_profile(emu);
    hw h;
    hw_open(&h);
    rdx_perf_counter cs[] = { RDX_PERF_SQ_WAVES,        RDX_PERF_SQ_INSTS_VALU,
                              RDX_PERF_SQ_INSTS_SALU,   RDX_PERF_SQ_INSTS_SMEM,
                              RDX_PERF_SQ_INSTS_LDS,    RDX_PERF_SQ_WAVE32_INSTS,
                              RDX_PERF_SQ_WAVE64_INSTS, RDX_PERF_SQC_LDS_BANK_CONFLICT,
                              RDX_PERF_GRBM_GUI_ACTIVE, RDX_PERF_GRBM_COUNT };
    rdx_queue_profile_options o = { cs, 10, 0, 0 };
    ck_assert_msg(rdx_queue_profile_begin(h.q, &o) == RDX_OK, "%s", rdx_error_message());
    hw_dispatch(&h, 2);
    rdx_queue_profile r;
    ck_assert_msg(rdx_queue_profile_end(h.q, &r) == RDX_OK, "%s", rdx_error_message());
    ck_assert_uint_eq(r.ncounters, 10);
    uint64_t want[10] = { 2 * 16,
                          2 * (c->by_class[RDX_EMU_CLASS_VALU] + c->by_class[RDX_EMU_CLASS_TRANS] +
                               c->by_class[RDX_EMU_CLASS_WMMA]),
                          2 * c->by_class[RDX_EMU_CLASS_SALU],
                          2 * c->by_class[RDX_EMU_CLASS_SMEM],
                          2 * c->by_class[RDX_EMU_CLASS_LDS],
                          2 * c->wave_insts,
                          0,
                          2 * p->lds_conflicts,
                          2 * c->est_kernel_cycles,
                          2 * c->est_kernel_cycles };
    ck_assert_uint_eq(c->waves, 16);
    ck_assert_uint_gt(c->by_class[RDX_EMU_CLASS_VALU], 0);
    for (int i = 0; i < 10; i++) {
        ck_assert_int_eq(r.counter[i], cs[i]);
        ck_assert_msg(r.value[i] == want[i], "%s: %llu, want %llu", rdx_perf_counter_name(cs[i]),
                      (unsigned long long)r.value[i], (unsigned long long)want[i]);
    }
    ck_assert_uint_eq(r.nse, 0);
    rdx_queue_profile_free(&r);
    /* a dispatch after the profile ended is not counted: a new profile starts from 0 */
    rdx_queue_profile_options o1 = { cs, 1, 0, 0 };
    ck_assert_int_eq(rdx_queue_profile_begin(h.q, &o1), RDX_OK);
    hw_dispatch(&h, 1);
    ck_assert_int_eq(rdx_queue_profile_end(h.q, &r), RDX_OK);
    ck_assert_uint_eq(r.value[0], 16);
    rdx_queue_profile_free(&r);
    hw_close(&h);
    rdx_emu_destroy(emu);
    free(out);
}
END_TEST

/* The traced wave's PCs from the profile of a private run, as offsets from the entry. */
static size_t traced_pcs(const rdx_emu_profile *p, uint64_t *pcs, size_t cap)
{
    uint32_t traced = UINT32_MAX;
    for (size_t w = 0; w < p->nwaves && p->waves[w].group == 0; w++)
        if (p->waves[w].simd == 0)
            traced = p->waves[w].wave;
    ck_assert_uint_ne(traced, UINT32_MAX);
    size_t n = 0;
    for (size_t i = 0; i < p->ntrace; i++) {
        const rdx_emu_prof_inst *t = &p->trace[i];
        if (t->wave != traced || !strcmp(rdx_isa_op_name((rdx_isa_op)t->op), "s_delay_alu"))
            continue;
        ck_assert_uint_lt(n, cap);
        pcs[n++] = t->pc - p->code;
    }
    return n;
}

/* SQTT programmed through PM4: SE 0's buffer holds one stream (one layout header for
   two dispatches), it decodes with a clock that never goes back, and each dispatch's
   instruction packets map back to exactly the PCs the traced wave ran. */
START_TEST(sqtt_via_pm4_round_trip)
{
    uint32_t *out;
    rdx_emu *emu = private_run(&out);
    const rdx_emu_profile *p = rdx_emu_get_profile(emu);
    static uint64_t want[4096];
    size_t nwant = traced_pcs(p, want, 4096);
    ck_assert_uint_gt(nwant, 30);
    hw h;
    hw_open(&h);
    rdx_queue_profile_options o = { NULL, 0, 64 << 10, 0 };
    ck_assert_msg(rdx_queue_profile_begin(h.q, &o) == RDX_OK, "%s", rdx_error_message());
    hw_dispatch(&h, 2);
    rdx_queue_profile r;
    ck_assert_msg(rdx_queue_profile_end(h.q, &r) == RDX_OK, "%s", rdx_error_message());
    ck_assert_uint_eq(r.nse, 6); /* the emulated gfx1100: 6 shader engines */
    ck_assert_uint_gt(r.sqtt_len[0], 0);
    ck_assert_uint_eq(r.sqtt_len[0] % 32, 0);
    ck_assert(!r.sqtt_full[0]);
    for (int se = 1; se < 6; se++)
        ck_assert_uint_eq(r.sqtt_len[se], 0);
    rdx_sqtt_packet *pk;
    size_t n;
    ck_assert_int_eq(rdx_sqtt_decode(r.sqtt[0], r.sqtt_len[0], &pk, &n), RDX_OK);
    unsigned headers = 0, starts = 0, ends = 0;
    for (size_t i = 0; i < n; i++) {
        ck_assert(i == 0 || pk[i].time >= pk[i - 1].time);
        headers += pk[i].type == RDX_SQTT_LAYOUT_HEADER;
        starts += pk[i].type == RDX_SQTT_WAVESTART;
        ends += pk[i].type == RDX_SQTT_WAVEEND;
    }
    ck_assert_uint_eq(headers, 1);
    ck_assert_uint_eq(starts, 4); /* workgroup 0's 2 waves, twice */
    ck_assert_uint_eq(ends, 4);
    rdx_codeobj *co;
    uint8_t *elf;
    size_t len;
    ck_assert_int_eq(rdx_file_read(pt_loops_co, &elf, &len), RDX_OK);
    ck_assert_int_eq(rdx_codeobj_read(elf, len, NULL, &co), RDX_OK);
    const rdx_codeobj_kernel *k = &co->kernels[0];
    rdx_sqtt_inst *mi;
    size_t nm;
    ck_assert_msg(rdx_sqtt_map(pk, n, co->text + k->code_offset, co->text_size - k->code_offset, 0,
                               32, &mi, &nm) == RDX_OK,
                  "%s", rdx_error_message());
    ck_assert_uint_eq(nm, 2 * nwant);
    for (size_t i = 0; i < nm; i++)
        ck_assert_msg(mi[i].pc == want[i % nwant], "instruction %zu: pc 0x%llx, want 0x%llx", i,
                      (unsigned long long)mi[i].pc, (unsigned long long)want[i % nwant]);
    free(mi);
    rdx_codeobj_free(co);
    free(elf);
    free(pk);
    rdx_queue_profile_free(&r);
    hw_close(&h);
    rdx_emu_destroy(emu);
    free(out);
}
END_TEST

/* At least 8 bytes of NOPs follow the last packet of a trace, whatever its length (kernels
   of 1..24 SALU instructions before s_endpgm), so a decoder reading 64 bits at a time
   (tinygrad's) reaches it: without them tinygrad lost the WAVEEND of a trace whose stream
   ended near a 32-byte boundary. */
START_TEST(sqtt_tail_padding)
{
    hw h;
    hw_open(&h);
    for (unsigned k = 1; k <= 24; k++) {
        char body[1024] = "", src[2048];
        for (unsigned i = 0; i < k; i++)
            strcat(body, "  s_mov_b32 s1, 0\n");
        snprintf(src, sizeof src,
                 "  .amdgcn_target \"amdgcn-amd-amdhsa--gfx1100\"\n  .text\n  .globl k\n"
                 "  .p2align 8\nk:\n%s  s_endpgm\n  .rodata\n  .p2align 6\n  .amdhsa_kernel k\n"
                 "  .amdhsa_next_free_vgpr 1\n  .amdhsa_next_free_sgpr 8\n"
                 "  .amdhsa_wavefront_size32 1\n  .end_amdhsa_kernel\n",
                 body);
        size_t len;
        uint8_t *elf = pt_assemble(src, &len);
        rdx_program *prog;
        const rdx_kernel *kern;
        ck_assert_int_eq(rdx_program_load(h.dev, elf, len, "k.s", &prog), RDX_OK);
        ck_assert_int_eq(rdx_program_find(prog, "k", &kern), RDX_OK);
        rdx_queue_profile_options o = { NULL, 0, 64 << 10, 0 };
        ck_assert_int_eq(rdx_queue_profile_begin(h.q, &o), RDX_OK);
        rdx_launch l = { .kernel = kern, .grid = { 1, 1, 1 }, .block = { 32, 1, 1 } };
        ck_assert_int_eq(rdx_queue_dispatch(h.q, &l, NULL), RDX_OK);
        rdx_queue_profile r;
        ck_assert_int_eq(rdx_queue_profile_end(h.q, &r), RDX_OK);
        rdx_sqtt_packet *pk;
        size_t n, last;
        ck_assert_int_eq(rdx_sqtt_decode(r.sqtt[0], r.sqtt_len[0], &pk, &n), RDX_OK);
        for (last = n; last > 0 && pk[last - 1].type == RDX_SQTT_NOP; last--)
            ;
        ck_assert_uint_gt(last, 0);
        ck_assert_int_eq(pk[last - 1].type, RDX_SQTT_WAVEEND);
        uint64_t end = pk[last - 1].offset + pk[last - 1].nibbles;
        ck_assert_msg(2 * r.sqtt_len[0] - end >= 16, "%u instructions: %llu nibbles after the last",
                      k, (unsigned long long)(2 * r.sqtt_len[0] - end));
        free(pk);
        rdx_queue_profile_free(&r);
        rdx_program_free(prog);
        free(elf);
    }
    hw_close(&h);
}
END_TEST

/* A trace buffer too small: the stream is cut at its end (WPTR stops there), BUF0_FULL
   says so, DROPPED_CNTR counts the bytes that did not fit, and what was kept decodes. */
START_TEST(sqtt_buffer_too_small)
{
    hw h;
    hw_open(&h);
    rdx_queue_profile_options o = { NULL, 0, 4096, 0 };
    ck_assert_int_eq(rdx_queue_profile_begin(h.q, &o), RDX_OK);
    hw_dispatch(&h, 40); /* each dispatch's stream is a few hundred bytes */
    rdx_queue_profile r;
    ck_assert_msg(rdx_queue_profile_end(h.q, &r) == RDX_OK, "%s", rdx_error_message());
    ck_assert_uint_eq(r.sqtt_len[0], 4096);
    ck_assert(r.sqtt_full[0]);
    ck_assert_uint_gt(r.sqtt_dropped[0], 0);
    ck_assert(!r.sqtt_full[1]);
    rdx_sqtt_packet *pk;
    size_t n;
    ck_assert_int_eq(rdx_sqtt_decode(r.sqtt[0], r.sqtt_len[0], &pk, &n), RDX_OK);
    ck_assert_uint_gt(n, 100);
    free(pk);
    rdx_queue_profile_free(&r);
    hw_close(&h);
}
END_TEST

/* Bad programming is refused with a message naming it. */
START_TEST(bad_programming_refused)
{
    hw h;
    hw_open(&h);
    rdx_queue_profile_options o = { NULL, 0, 1000, 0 };
    ck_assert_int_eq(rdx_queue_profile_begin(h.q, &o), RDX_ERR_INVALID);
    ck_assert(strstr(rdx_error_message(), "multiple of 4096"));
    o.sqtt_bytes = 0;
    ck_assert_int_eq(rdx_queue_profile_begin(h.q, &o), RDX_ERR_INVALID);
    ck_assert(strstr(rdx_error_message(), "nothing to profile"));
    rdx_perf_counter twice[] = { RDX_PERF_SQ_WAVES, RDX_PERF_SQ_WAVES };
    rdx_queue_profile_options o2 = { twice, 2, 0, 0 };
    ck_assert_int_eq(rdx_queue_profile_begin(h.q, &o2), RDX_ERR_INVALID);
    ck_assert(strstr(rdx_error_message(), "SQ_WAVES is given twice"));
    rdx_perf_counter grbm[] = { RDX_PERF_GRBM_COUNT, RDX_PERF_GRBM_GUI_ACTIVE, RDX_PERF_SQ_WAVES };
    rdx_queue_profile_options o3 = { grbm, 3, 0, 0 };
    ck_assert_int_eq(rdx_queue_profile_begin(h.q, &o3), RDX_OK);
    ck_assert_int_eq(rdx_queue_profile_begin(h.q, &o3), RDX_ERR_INVALID);
    ck_assert(strstr(rdx_error_message(), "already has a profile running"));
    rdx_queue_profile r;
    ck_assert_int_eq(rdx_queue_profile_end(h.q, &r), RDX_OK);
    ck_assert_uint_eq(r.value[2], 0); /* nothing dispatched */
    ck_assert_int_eq(rdx_queue_profile_end(h.q, &r), RDX_ERR_INVALID);
    ck_assert(strstr(rdx_error_message(), "no profile is running"));
    rdx_perf_counter c;
    ck_assert_int_eq(rdx_perf_counter_parse("SQ_INSTS_VALU", &c), RDX_OK);
    ck_assert_int_eq(c, RDX_PERF_SQ_INSTS_VALU);
    ck_assert_int_eq(rdx_perf_counter_parse("SQ_NOPE", &c), RDX_ERR_NOT_FOUND);
    ck_assert(strstr(rdx_error_message(), "SQ_WAVES"));
    /* the builders */
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    rdx_pm4_sqtt_desc d = { .nse = 2, .buf = { 0x100000, 0x100100 }, .buf_size = 4096 };
    ck_assert_int_eq(rdx_pm4_sqtt_start(&cb, &d), RDX_ERR_INVALID);
    ck_assert(strstr(rdx_error_message(), "SE 1's buffer at 0x100100"));
    rdx_pm4_cmdbuf_reset(&cb);
    d.buf[1] = 0x200000;
    d.buf_size = 6000;
    ck_assert_int_eq(rdx_pm4_sqtt_start(&cb, &d), RDX_ERR_INVALID);
    ck_assert(strstr(rdx_error_message(), "6000 bytes"));
    rdx_pm4_cmdbuf_reset(&cb);
    rdx_pm4_perf_desc pd = { .nsq = 0, .ngrbm = 0 };
    ck_assert_int_eq(rdx_pm4_perf_start(&cb, &pd), RDX_ERR_INVALID);
    ck_assert(strstr(rdx_error_message(), "at least one"));
    rdx_pm4_cmdbuf_reset(&cb);
    pd.nsq = 1;
    pd.sq_sel[0] = 512;
    ck_assert_int_eq(rdx_pm4_perf_start(&cb, &pd), RDX_ERR_INVALID);
    ck_assert(strstr(rdx_error_message(), "event 512"));
    rdx_pm4_cmdbuf_free(&cb);
    hw_close(&h);
}
END_TEST

/* The registers the sequences write, against AMD's gc_11_0_0_offset.h (register offset +
   the segment base: 0x1260 for segment 0, 0xa000 for segment 1, as amdgpu's IP discovery
   gives them for GC 11.0.0), and the sequences disassemble with every register named. */
START_TEST(registers_and_disassembly)
{
    static const struct {
        uint32_t reg, offset, seg;
    } want[] = {
        { RDX_PM4_REG_GRBM_GFX_INDEX, 0x2200, 1 },
        { RDX_PM4_REG_SPI_CONFIG_CNTL, 0x2440, 1 },
        { RDX_PM4_REG_CP_PERFMON_CNTL, 0x3808, 1 },
        { RDX_PM4_REG_SQ_PERFCOUNTER0_SELECT, 0x39c0, 1 },
        { RDX_PM4_REG_SQ_PERFCOUNTER_CTRL, 0x39e0, 1 },
        { RDX_PM4_REG_SQ_PERFCOUNTER0_LO, 0x31c0, 1 },
        { RDX_PM4_REG_GRBM_PERFCOUNTER0_SELECT, 0x3840, 1 },
        { RDX_PM4_REG_GRBM_PERFCOUNTER0_LO, 0x3040, 1 },
        { RDX_PM4_REG_SQ_THREAD_TRACE_BUF0_SIZE_GFX12, 0x39e6, 1 },
        { RDX_PM4_REG_SQ_THREAD_TRACE_BUF0_LO_GFX12, 0x39e7, 1 },
        { RDX_PM4_REG_SQ_THREAD_TRACE_BUF0_BASE, 0x39e8, 1 },
        { RDX_PM4_REG_SQ_THREAD_TRACE_BUF0_SIZE, 0x39e9, 1 },
        { RDX_PM4_REG_SQ_THREAD_TRACE_CTRL, 0x39ec, 1 },
        { RDX_PM4_REG_SQ_THREAD_TRACE_MASK, 0x39ed, 1 },
        { RDX_PM4_REG_SQ_THREAD_TRACE_TOKEN_MASK, 0x39ee, 1 },
        { RDX_PM4_REG_SQ_THREAD_TRACE_WPTR, 0x39ef, 1 },
        { RDX_PM4_REG_SQ_THREAD_TRACE_STATUS, 0x39f4, 1 },
        { RDX_PM4_REG_SQ_THREAD_TRACE_USERDATA_2, 0x2342, 1 },
        { RDX_PM4_REG_COMPUTE_PERFCOUNT_ENABLE, 0x1bab, 0 },
        { RDX_PM4_REG_COMPUTE_THREAD_TRACE_ENABLE, 0x1bbe, 0 },
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        ck_assert_uint_eq(want[i].reg, want[i].offset + (want[i].seg ? 0xa000u : 0x1260u));
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    rdx_pm4_perf_desc pd = { .sq_sel = { 4, 62 }, .nsq = 2, .grbm_sel = { 2 }, .ngrbm = 1 };
    rdx_pm4_gpu_shape sh = { 1, 1, 1 };
    rdx_pm4_sqtt_desc d = { .nse = 1, .buf = { 0x200000 }, .buf_size = 8192, .simd = 2 };
    rdx_pm4_perf_start(&cb, &pd);
    rdx_pm4_sqtt_start(&cb, &d);
    rdx_pm4_sqtt_stop(&cb, 1, 0x1000);
    rdx_pm4_perf_read(&cb, &pd, &sh, 0x2000);
    ck_assert_int_eq(rdx_pm4_cmdbuf_status(&cb), RDX_OK);
    char *text = NULL;
    ck_assert_int_eq(rdx_pm4_disasm(cb.dw, cb.len, NULL, &text), RDX_OK);
    static const char *const names[] = { "CP_PERFMON_CNTL=",
                                         "SQ_PERFCOUNTER0_SELECT=",
                                         "PERF_SEL=0x4",
                                         "SQ_PERFCOUNTER2_SELECT=",
                                         "PERF_SEL=0x3e",
                                         "GRBM_PERFCOUNTER0_SELECT=",
                                         "COMPUTE_PERFCOUNT_ENABLE=",
                                         "SQ_THREAD_TRACE_BUF0_SIZE=",
                                         "SIZE=0x2",
                                         "SQ_THREAD_TRACE_BUF0_BASE=0x00000200",
                                         "SIMD_SEL=0x2",
                                         "WTYPE_INCLUDE=0x40",
                                         "SQ_THREAD_TRACE_CTRL=",
                                         "MODE=0x1",
                                         "COMPUTE_THREAD_TRACE_ENABLE=",
                                         "THREAD_TRACE_FINISH",
                                         "SPI_CONFIG_CNTL=",
                                         "GRBM_GFX_INDEX=" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        ck_assert_msg(strstr(text, names[i]), "no %s in the disassembly", names[i]);
    free(text);
    rdx_pm4_cmdbuf_free(&cb);
    /* gfx12's buffer registers (tinygrad's gc_12_0_0 table): size in BUF0_SIZE_GFX12 (0xd9e6,
       bits 21:0), the address's low bits in BUF0_LO_GFX12, its high bits at 0xd9e8 */
    rdx_pm4_cmdbuf_init(&cb);
    d.gfx12 = 1;
    d.buf[0] = 0x123400200000ull;
    rdx_pm4_sqtt_start(&cb, &d);
    ck_assert_int_eq(rdx_pm4_cmdbuf_status(&cb), RDX_OK);
    ck_assert_int_eq(rdx_pm4_disasm(cb.dw, cb.len, NULL, &text), RDX_OK);
    ck_assert_msg(strstr(text, "SQ_THREAD_TRACE_BUF0_SIZE_GFX12=0x00000002") &&
                      strstr(text, "SQ_THREAD_TRACE_BUF0_LO_GFX12=0x23400200") &&
                      strstr(text, "SQ_THREAD_TRACE_BUF0_BASE=0x00000001") &&
                      !strstr(text, "SQ_THREAD_TRACE_BUF0_SIZE="),
                  "%s", text);
    free(text);
    rdx_pm4_cmdbuf_free(&cb);
}
END_TEST

/* On the emulated GPU, with raw packets on a KFD queue: a counter whose select was never
   written reads 0 after dispatch-free counting; after THREAD_TRACE_FINISH the first read of
   STATUS shows the flush pending (a queue polling for it yields to the others once: without
   that, tinygrad's profiler saw its copy queue's signal overtaken), the second not; SQ
   counters count under SQ_PERFCOUNTER_CTRL2.FORCE_EN when a dispatch cleared
   COMPUTE_PERFCOUNT_ENABLE (tinygrad's does, and read 0 before); GL2C_MISS / GL2C_HIT of a
   kernel with one scalar load (tinygrad's default counters read 0 before);
   SQ_THREAD_TRACE_WPTR of a trace that traced nothing is the buffer's own address / 32; a register
   value survives GRBM selection of its SE (per-SE state), another SE reads its own. */
START_TEST(registers_defined_without_work)
{
    rdx_emudev_config cfg = { .num_gpus = 1 };
    rdx_emudev *ed;
    rdx_kfd *kfd;
    ck_assert_int_eq(rdx_emudev_create(&cfg, &ed), RDX_OK);
    ck_assert_int_eq(rdx_kfd_open(rdx_emudev_os(ed), &kfd), RDX_OK);
    rdx_kfd_queue *q;
    ck_assert_int_eq(rdx_kfd_queue_create(kfd, 0, RDX_KFD_QUEUE_COMPUTE, 65536, &q), RDX_OK);
    rdx_kfd_event *ev;
    ck_assert_int_eq(rdx_kfd_event_create(kfd, RDX_KFD_EVENT_SIGNAL, 1, &ev), RDX_OK);
    rdx_kfd_mem_desc md = { .kind = RDX_KFD_MEM_GTT, .size = 65536 };
    rdx_kfd_mem *m;
    ck_assert_int_eq(rdx_kfd_mem_alloc(kfd, 0, &md, &m), RDX_OK);
    uint8_t *cpu = rdx_kfd_mem_cpu(m);
    uint64_t gpu = rdx_kfd_mem_gpu_addr(m);
    memset(cpu, 0xab, 256);
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    /* counting on, GRBM counter 0 selected, SQ counter 0 never selected */
    rdx_pm4_perf_desc pd = { .ngrbm = 1, .grbm_sel = { 2 } };
    rdx_pm4_perf_start(&cb, &pd);
    rdx_pm4_grbm_select(&cb, 0, 0, 0);
    rdx_pm4_copy_reg_to_mem(&cb, RDX_PM4_REG_SQ_PERFCOUNTER0_LO, gpu);
    rdx_pm4_grbm_select(&cb, -1, -1, -1);
    rdx_pm4_copy_reg_to_mem(&cb, RDX_PM4_REG_GRBM_PERFCOUNTER0_LO, gpu + 4);
    /* a trace of SE 0 and 1 in buffers at gpu + 4096 and + 8192, stopped at once */
    rdx_pm4_sqtt_desc d = { .nse = 2, .buf = { gpu + 4096, gpu + 8192 }, .buf_size = 4096 };
    rdx_pm4_sqtt_start(&cb, &d);
    /* THREAD_TRACE_FINISH: the flush shows as pending to the first read of STATUS only */
    rdx_pm4_event_write(&cb, RDX_PM4_V_EVENT_THREAD_TRACE_FINISH, 0);
    rdx_pm4_grbm_select(&cb, 0, 0, -1);
    rdx_pm4_copy_reg_to_mem(&cb, RDX_PM4_REG_SQ_THREAD_TRACE_STATUS, gpu + 48);
    rdx_pm4_copy_reg_to_mem(&cb, RDX_PM4_REG_SQ_THREAD_TRACE_STATUS, gpu + 52);
    rdx_pm4_sqtt_stop(&cb, 2, gpu + 16);
    rdx_pm4_grbm_select(&cb, 1, 0, -1);
    rdx_pm4_copy_reg_to_mem(&cb, RDX_PM4_REG_SQ_THREAD_TRACE_BUF0_BASE, gpu + 40);
    rdx_pm4_grbm_select(&cb, 0, 0, -1);
    rdx_pm4_copy_reg_to_mem(&cb, RDX_PM4_REG_SQ_THREAD_TRACE_BUF0_BASE, gpu + 44);
    /* SQ counting under SQ_PERFCOUNTER_CTRL2.FORCE_EN with COMPUTE_PERFCOUNT_ENABLE cleared,
       as tinygrad's dispatch clears it (its COMPUTE_START_X write runs on through 0x2e0b):
       a one-wave s_endpgm kernel still counts its wave */
    uint32_t endpgm = 0xbfb00000u;
    memcpy(cpu + 0x8000, &endpgm, 4);
    /* a one-wave kernel with one scalar load of a line nothing else touches: the L2 model
       sees one request, a (compulsory) miss — GL2C_MISS 1, GL2C_HIT 0 by hand */
    size_t klen;
    uint8_t *kelf = pt_assemble(
        "  .amdgcn_target \"amdgcn-amd-amdhsa--gfx1100\"\n  .text\n  .globl k\n  .p2align 8\n"
        "k:\n  s_load_b32 s2, s[0:1], 0x0\n  s_waitcnt lgkmcnt(0)\n  s_endpgm\n  .rodata\n"
        "  .p2align 6\n  .amdhsa_kernel k\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
        "  .amdhsa_next_free_vgpr 1\n  .amdhsa_next_free_sgpr 8\n"
        "  .amdhsa_wavefront_size32 1\n  .end_amdhsa_kernel\n",
        &klen);
    rdx_codeobj *kco;
    ck_assert_int_eq(rdx_codeobj_read(kelf, klen, NULL, &kco), RDX_OK);
    memcpy(cpu + 0x8100, kco->text + kco->kernels[0].code_offset, 16); /* 8 + 4 + 4 bytes */
    rdx_codeobj_free(kco);
    free(kelf);
    uint32_t gsel[2] = { 43, 42 }; /* GL2C_MISS, GL2C_HIT */
    rdx_pm4_set_uconfig_reg(&cb, RDX_PM4_REG_GL2C_PERFCOUNTER0_SELECT, &gsel[0], 1);
    rdx_pm4_set_uconfig_reg(&cb, RDX_PM4_REG_GL2C_PERFCOUNTER1_SELECT, &gsel[1], 1);
    rdx_pm4_perf_desc wd = { .nsq = 1, .sq_sel = { 4 } }; /* SQ_WAVES */
    rdx_pm4_perf_start(&cb, &wd);
    uint32_t zero = 0;
    rdx_pm4_set_sh_reg(&cb, RDX_PM4_REG_COMPUTE_PERFCOUNT_ENABLE, &zero, 1);
    rdx_pm4_dispatch_desc dd = {
        .code_addr = gpu + 0x8000, .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .wave32 = true
    };
    rdx_pm4_dispatch(&cb, &dd);
    rdx_pm4_dispatch_desc ld = { .code_addr = gpu + 0x8100,
                                 .rsrc2 = 2u << 1, /* USER_SGPR 2: the address to load */
                                 .user_sgpr = { (uint32_t)(gpu + 0x9000),
                                                (uint32_t)((gpu + 0x9000) >> 32) },
                                 .user_sgpr_count = 2,
                                 .grid = { 1, 1, 1 },
                                 .block = { 32, 1, 1 },
                                 .wave32 = true };
    rdx_pm4_dispatch(&cb, &ld);
    rdx_pm4_cs_partial_flush(&cb);
    rdx_pm4_grbm_select(&cb, -1, -1, 0);
    rdx_pm4_copy_reg_to_mem(&cb, RDX_PM4_REG_GL2C_PERFCOUNTER0_LO, gpu + 60);
    rdx_pm4_copy_reg_to_mem(&cb, RDX_PM4_REG_GL2C_PERFCOUNTER1_LO, gpu + 64);
    rdx_pm4_grbm_select(&cb, 0, 0, 0);
    rdx_pm4_copy_reg_to_mem(&cb, RDX_PM4_REG_SQ_PERFCOUNTER0_LO, gpu + 56);
    rdx_pm4_signal(&cb, rdx_kfd_event_mailbox(ev), rdx_kfd_event_id(ev), true,
                   rdx_kfd_event_id(ev));
    ck_assert_int_eq(rdx_pm4_cmdbuf_status(&cb), RDX_OK);
    ck_assert_int_eq(rdx_kfd_queue_submit(q, cb.dw, cb.len), RDX_OK);
    char why[512] = "";
    rdx_status wst = rdx_kfd_event_wait(kfd, &ev, 1, 0, 5000);
    rdx_emudev_last_error(ed, why, sizeof why);
    ck_assert_msg(wst == RDX_OK, "the queue did not finish: %s", why);
    uint32_t v[17];
    memcpy(v, cpu, sizeof v);
    ck_assert_uint_eq(v[14], 2); /* SQ_WAVES under FORCE_EN: both one-wave kernels */
    ck_assert_uint_eq(v[15], 1); /* GL2C_MISS */
    ck_assert_uint_eq(v[16], 0); /* GL2C_HIT */
    ck_assert_uint_eq(v[12], 1); /* FINISH_PENDING */
    ck_assert_uint_eq(v[13], 0);
    ck_assert_uint_eq(v[0], 0); /* SQ counter 0: nothing selected, nothing ran */
    ck_assert_uint_eq(v[1], 0); /* GRBM_GUI_ACTIVE: no dispatch */
    ck_assert_uint_eq(v[4], (uint32_t)((gpu + 4096) / 32) & 0x1fffffff); /* SE 0 WPTR */
    ck_assert_uint_eq(v[5], 0);                                          /* STATUS2 */
    ck_assert_uint_eq(v[6], 0);                                          /* DROPPED_CNTR */
    ck_assert_uint_eq(v[7], (uint32_t)((gpu + 8192) / 32) & 0x1fffffff); /* SE 1 WPTR */
    ck_assert_uint_eq(v[10], (uint32_t)((gpu + 8192) >> 12));
    ck_assert_uint_eq(v[11], (uint32_t)((gpu + 4096) >> 12));
    rdx_pm4_cmdbuf_free(&cb);
    ck_assert_int_eq(rdx_kfd_mem_free(kfd, m), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_destroy(kfd, ev), RDX_OK);
    ck_assert_int_eq(rdx_kfd_queue_destroy(kfd, q), RDX_OK);
    rdx_kfd_close(kfd);
    rdx_emudev_destroy(ed);
}
END_TEST

/* tinygrad's gfx12 counter programming (ops_amd.py pmc_start on a gc 12 GPU): CP_PERFMON_CNTL_1
   (0x3808, CP_PERFMON_CNTL's address), SQ_PERFCOUNTER_CTRL/CTRL2, the even SQ selects with
   gfx12's event numbers (rocprofiler's gfx12 table: SQ_INSTS_SALU 46, SQ_INSTS_VALU 50,
   SQ_WAVE32_INSTS 70; gfx11's are 58, 62, 82; GL2C_HIT 41 and GL2C_MISS 42, gfx11's 42 and
   43), a one-wave kernel with one scalar load of a line nothing else touches, COPY_DATA of
   the counters.  The emulated gfx1201 counts them (the SQ ones read 0 before, and GL2C_MISS's
   42 counted hits: it knew only gfx11's numbers). */
START_TEST(gfx12_counter_selects)
{
    rdx_emudev_config cfg = { .num_gpus = 1, .arch = "gfx1201" };
    rdx_emudev *ed;
    rdx_kfd *kfd;
    ck_assert_int_eq(rdx_emudev_create(&cfg, &ed), RDX_OK);
    ck_assert_int_eq(rdx_kfd_open(rdx_emudev_os(ed), &kfd), RDX_OK);
    rdx_kfd_queue *q;
    ck_assert_int_eq(rdx_kfd_queue_create(kfd, 0, RDX_KFD_QUEUE_COMPUTE, 65536, &q), RDX_OK);
    rdx_kfd_event *ev;
    ck_assert_int_eq(rdx_kfd_event_create(kfd, RDX_KFD_EVENT_SIGNAL, 1, &ev), RDX_OK);
    rdx_kfd_mem_desc md = { .kind = RDX_KFD_MEM_GTT, .size = 65536 };
    rdx_kfd_mem *m;
    ck_assert_int_eq(rdx_kfd_mem_alloc(kfd, 0, &md, &m), RDX_OK);
    uint8_t *cpu = rdx_kfd_mem_cpu(m);
    uint64_t gpu = rdx_kfd_mem_gpu_addr(m);
    memset(cpu, 0xab, 64);
    size_t klen;
    uint8_t *kelf = pt_assemble_for(
        "  .amdgcn_target \"amdgcn-amd-amdhsa--gfx1201\"\n  .text\n  .globl k\n  .p2align 8\n"
        "k:\n  s_load_b32 s5, s[0:1], 0x0\n  s_wait_kmcnt 0x0\n"
        "  s_mov_b32 s2, 1\n  s_mov_b32 s3, 2\n  s_mov_b32 s4, 3\n  v_mov_b32_e32 v0, 0\n"
        "  v_mov_b32_e32 v1, 1\n  s_endpgm\n  .rodata\n  .p2align 6\n  .amdhsa_kernel k\n"
        "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
        "  .amdhsa_next_free_vgpr 2\n  .amdhsa_next_free_sgpr 8\n"
        "  .amdhsa_wavefront_size32 1\n  .end_amdhsa_kernel\n",
        "gfx1201", &klen);
    rdx_codeobj *kco;
    ck_assert_int_eq(rdx_codeobj_read(kelf, klen, NULL, &kco), RDX_OK);
    size_t code = kco->text_size - kco->kernels[0].code_offset;
    ck_assert_uint_le(code, 0x1000);
    memcpy(cpu + 0x8000, kco->text + kco->kernels[0].code_offset, code);
    rdx_codeobj_free(kco);
    free(kelf);
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init(&cb);
    uint32_t gsel[2] = { 41, 42 }; /* gfx12's GL2C_HIT, GL2C_MISS */
    rdx_pm4_set_uconfig_reg(&cb, RDX_PM4_REG_GL2C_PERFCOUNTER0_SELECT, &gsel[0], 1);
    rdx_pm4_set_uconfig_reg(&cb, RDX_PM4_REG_GL2C_PERFCOUNTER1_SELECT, &gsel[1], 1);
    rdx_pm4_perf_desc pd = { .nsq = 3, .sq_sel = { 46, 50, 70 } };
    rdx_pm4_perf_start(&cb, &pd);
    rdx_pm4_dispatch_desc dd = { .code_addr = gpu + 0x8000,
                                 .rsrc2 = 2u << 1, /* USER_SGPR 2: the address to load */
                                 .user_sgpr = { (uint32_t)(gpu + 0x9000),
                                                (uint32_t)((gpu + 0x9000) >> 32) },
                                 .user_sgpr_count = 2,
                                 .grid = { 1, 1, 1 },
                                 .block = { 32, 1, 1 },
                                 .wave32 = true };
    rdx_pm4_dispatch(&cb, &dd);
    rdx_pm4_cs_partial_flush(&cb);
    rdx_pm4_grbm_select(&cb, 0, 0, 0);
    for (uint32_t i = 0; i < 3; i++)
        rdx_pm4_copy_reg_to_mem(&cb, RDX_PM4_REG_SQ_PERFCOUNTER0_LO + 2 * i, gpu + 4 * i);
    rdx_pm4_grbm_select(&cb, -1, -1, 0);
    rdx_pm4_copy_reg_to_mem(&cb, RDX_PM4_REG_GL2C_PERFCOUNTER0_LO, gpu + 12);
    rdx_pm4_copy_reg_to_mem(&cb, RDX_PM4_REG_GL2C_PERFCOUNTER1_LO, gpu + 16);
    rdx_pm4_grbm_select(&cb, -1, -1, -1);
    rdx_pm4_signal(&cb, rdx_kfd_event_mailbox(ev), rdx_kfd_event_id(ev), true,
                   rdx_kfd_event_id(ev));
    ck_assert_int_eq(rdx_pm4_cmdbuf_status(&cb), RDX_OK);
    ck_assert_int_eq(rdx_kfd_queue_submit(q, cb.dw, cb.len), RDX_OK);
    char why[512] = "";
    rdx_status wst = rdx_kfd_event_wait(kfd, &ev, 1, 0, 5000);
    rdx_emudev_last_error(ed, why, sizeof why);
    ck_assert_msg(wst == RDX_OK, "the queue did not finish: %s", why);
    uint32_t v[5];
    memcpy(v, cpu, sizeof v);
    ck_assert_msg(v[0] == 3, "SQ_INSTS_SALU (46) %u", v[0]); /* the 3 s_mov (s_endpgm: not SALU) */
    ck_assert_uint_eq(v[1], 2);                              /* SQ_INSTS_VALU (50) */
    ck_assert_uint_eq(v[2], 8); /* SQ_WAVE32_INSTS (70): every instruction */
    ck_assert_uint_eq(v[3], 0); /* GL2C_HIT (41) */
    ck_assert_uint_eq(v[4], 1); /* GL2C_MISS (42): the load's compulsory miss */
    rdx_pm4_cmdbuf_free(&cb);
    ck_assert_int_eq(rdx_kfd_mem_free(kfd, m), RDX_OK);
    ck_assert_int_eq(rdx_kfd_event_destroy(kfd, ev), RDX_OK);
    ck_assert_int_eq(rdx_kfd_queue_destroy(kfd, q), RDX_OK);
    rdx_kfd_close(kfd);
    rdx_emudev_destroy(ed);
}
END_TEST

#define LAUNCH "--grid", "8", "--block", "64", "--arg", filearg, "--arg", "u32:7"

static jval *parse_ok(const char *text)
{
    size_t at = 0;
    jval *v = json_parse(text, &at);
    ck_assert_msg(v != NULL, "JSON syntax error at offset %zu", at);
    return v;
}

/* `rdx prof --source hw --json --trace`: the counters as the queue read them (SQ_WAVES 16,
   SALU as the model run counts), the traced waves' per-PC table (the loop's latch runs
   once in workgroup 0's waves), the queue's events, and a Chrome trace holding the
   copies, the programming, the dispatch, the waits and the two traced waves. */
START_TEST(cli_source_hw)
{
    uint32_t *out;
    rdx_emu *emu = private_run(&out);
    const rdx_emu_counters *c = rdx_emu_get_counters(emu);
    char *path = rdx_test_tmp_path("hw-trace.json"), *in = rdx_test_tmp_path("hw-in.bin");
    char filearg[4200];
    snprintf(filearg, sizeof filearg, "file:%s", in); /* an input the upload copies */
    static uint8_t zeros[GROUPS * ITEMS * 4];
    ck_assert_int_eq(rdx_file_write(in, zeros, sizeof zeros), RDX_OK);
    rdx_test_proc p;
    const char *args[] = { "--source", "hw", "--json", "--trace", path, pt_loops_co, LAUNCH, NULL };
    ck_assert_msg(pt_prof(args, &p) == 0, "%s", p.err);
    jval *v = parse_ok(p.out);
    ck_assert_str_eq(json_get(v, "source")->str, "hw");
    const jval *d = json_get(v, "dispatches")->items[0];
    const jval *cs = json_get(d, "counters");
    ck_assert_uint_eq((uint64_t)json_get(cs, "SQ_WAVES")->num, 16);
    ck_assert_uint_eq((uint64_t)json_get(cs, "SQ_INSTS_SALU")->num,
                      c->by_class[RDX_EMU_CLASS_SALU]);
    ck_assert_uint_gt(json_get(d, "gpu_ns")->num, 0);
    const jval *pcs = json_get(d, "pcs");
    ck_assert_uint_gt(pcs->n, 30);
    int latch = 0;
    for (size_t i = 0; i < pcs->n; i++)
        if (strstr(json_get(pcs->items[i], "inst")->str, "s_cbranch_scc0")) {
            ck_assert_uint_eq((uint64_t)json_get(pcs->items[i], "count")->num, 1);
            latch = 1;
        }
    ck_assert(latch);
    ck_assert_uint_eq(json_get(d, "waves")->n, 2);
    const jval *q = json_get(d, "queue");
    int kinds[4] = { 0 };
    static const char *const names[] = { "copy", "program", "dispatch", "wait" };
    for (size_t i = 0; i < q->n; i++)
        for (int k = 0; k < 4; k++)
            kinds[k] += !strcmp(json_get(q->items[i], "kind")->str, names[k]);
    for (int k = 0; k < 4; k++)
        ck_assert_msg(kinds[k] > 0, "no %s event", names[k]);
    json_free(v);
    /* the Chrome trace */
    char *text = rdx_test_read_file(path, NULL);
    v = parse_ok(text);
    const jval *ev = json_get(v, "traceEvents");
    int seen[4] = { 0 };
    size_t waves = 0;
    for (size_t i = 0; i < ev->n; i++) {
        const jval *e = ev->items[i], *ph = json_get(e, "ph"), *pid = json_get(e, "pid");
        ck_assert(ph && ph->t == J_STR && pid && pid->t == J_NUM && json_get(e, "name"));
        if (strcmp(ph->str, "X")) {
            ck_assert_str_eq(ph->str, "M");
            continue;
        }
        ck_assert(json_get(e, "ts") && json_get(e, "dur") && json_get(e, "tid"));
        ck_assert(json_get(e, "dur")->num >= 0);
        if (pid->num == 0) {
            const jval *cat = json_get(e, "cat");
            ck_assert(cat && cat->t == J_STR);
            for (int k = 0; k < 4; k++)
                seen[k] += !strcmp(cat->str, names[k]);
        } else {
            waves++;
            ck_assert(json_get(json_get(e, "args"), "insts"));
        }
    }
    for (int k = 0; k < 4; k++)
        ck_assert_msg(seen[k] > 0, "no %s event in the trace", names[k]);
    ck_assert_uint_eq(waves, 2);
    json_free(v);
    free(text);
    rdx_test_proc_free(&p);
    /* the text report */
    const char *targs[] = { "--source", "hw", "--sort", "--top", "3", pt_loops_co, LAUNCH, NULL };
    ck_assert_msg(pt_prof(targs, &p) == 0, "%s", p.err);
    ck_assert_msg(strstr(p.out, "GPU time") && strstr(p.out, "SQ_INSTS_VALU") &&
                      strstr(p.out, "traced instructions") && strstr(p.out, "more instructions"),
                  "%s", p.out);
    rdx_test_proc_free(&p);
    const char *bad[] = { "--source", "hw", "tests/data/realize/argmax_two_reduces.uop", NULL };
    ck_assert_int_eq(pt_prof(bad, &p), 2);
    ck_assert(strstr(p.err, "--source model"));
    rdx_test_proc_free(&p);
    /* --counters picks them */
    const char *pick[] = { "--source",  "hw",   "--json", "--counters", "SQ_WAVES,GRBM_COUNT",
                           pt_loops_co, LAUNCH, NULL };
    ck_assert_msg(pt_prof(pick, &p) == 0, "%s", p.err);
    v = parse_ok(p.out);
    cs = json_get(json_get(v, "dispatches")->items[0], "counters");
    ck_assert_uint_eq(cs->n, 2);
    ck_assert_uint_eq((uint64_t)json_get(cs, "SQ_WAVES")->num, 16);
    ck_assert(json_get(cs, "GRBM_COUNT") != NULL);
    json_free(v);
    rdx_test_proc_free(&p);
    const char *badc[] = { "--source", "hw", "--counters", "SQ_NOPE", pt_loops_co, LAUNCH, NULL };
    ck_assert_int_eq(pt_prof(badc, &p), 2);
    ck_assert(strstr(p.err, "'SQ_NOPE': unknown"));
    rdx_test_proc_free(&p);
    const char *bad2[] = { "--source", "card", pt_loops_co, LAUNCH, NULL };
    ck_assert_int_eq(pt_prof(bad2, &p), 2);
    ck_assert(strstr(p.err, "expected hw or model"));
    rdx_test_proc_free(&p);
    free(path);
    free(in);
    rdx_emu_destroy(emu);
    free(out);
}
END_TEST

/* `rdx run --profile` and `rdx realize --profile` (on the emulated GPU) go through rdx
   prof's shared code: run's is --source hw's report, realize's adds every kernel's
   per-dispatch profile after realize's own report. */
START_TEST(run_and_realize_profile)
{
    static uint8_t zeros[GROUPS * ITEMS * 4];
    char *in = rdx_test_tmp_path("run-in.bin");
    ck_assert_int_eq(rdx_file_write(in, zeros, sizeof zeros), RDX_OK);
    char filearg[4200];
    snprintf(filearg, sizeof filearg, "file:%s", in);
    const char *run[] = { rdx_test_rdx_path(), "run", "--profile", pt_loops_co, LAUNCH,
                          "--device",          "emu", NULL };
    rdx_test_proc p;
    ck_assert_int_eq(rdx_test_run(run, NULL, 0, &p), 0);
    ck_assert_msg(strstr(p.out, "rdx prof --source hw") && strstr(p.out, "SQ_WAVES") &&
                      strstr(p.out, "traced instructions"),
                  "%s", p.out);
    rdx_test_proc_free(&p);
    const char *realize[] = { rdx_test_rdx_path(),
                              "realize",
                              "--check",
                              "--profile",
                              "--device",
                              "emu",
                              "tests/data/codegen_front/softmax.uop",
                              NULL };
    ck_assert_int_eq(rdx_test_run(realize, NULL, 0, &p), 0);
    ck_assert_msg(strstr(p.out, "matches the interpreter") &&
                      strstr(p.out, "rdx prof: rdx realize --profile") &&
                      strstr(p.out, "kernel time (model of a gfx1100") &&
                      strstr(p.out, "wave cycles:"),
                  "%s", p.out);
    rdx_test_proc_free(&p);
    free(in);
}
END_TEST

/* examples/saxpy.s assembled for target (gfx12: its split waits), as a code object path. */
static char *saxpy_for(const char *target)
{
    uint8_t *src = NULL;
    size_t len = 0;
    ck_assert_int_eq(rdx_file_read("examples/saxpy.s", &src, &len), RDX_OK);
    char *text = calloc(1, len * 2 + 64), *o = text;
    ck_assert_ptr_nonnull(text);
    for (size_t i = 0; i < len;) {
        const char *rest = (const char *)src + i;
        size_t n = len - i;
        if (n >= 7 && !memcmp(rest, "gfx1100", 7)) {
            o += sprintf(o, "%s", target), i += 7;
        } else if (target[3] == '2' && n >= 19 && !memcmp(rest, "s_waitcnt lgkmcnt(0)", 19)) {
            o += sprintf(o, "s_wait_kmcnt 0"), i += 20;
        } else if (target[3] == '2' && n >= 18 && !memcmp(rest, "s_waitcnt vmcnt(0)", 18)) {
            o += sprintf(o, "s_wait_loadcnt 0"), i += 18;
        } else {
            *o++ = (char)src[i++];
        }
    }
    free(src);
    char name[64];
    snprintf(name, sizeof name, "saxpy-%s.s", target);
    char *s_path = rdx_test_tmp_path(name);
    ck_assert_int_eq(rdx_file_write(s_path, text, strlen(text)), RDX_OK);
    free(text);
    snprintf(name, sizeof name, "saxpy-%s.co", target);
    char *co_path = rdx_test_tmp_path(name);
    const char *as[] = { rdx_test_rdx_path(), "as", s_path, "-o", co_path, NULL };
    rdx_test_proc p;
    ck_assert_msg(rdx_test_run(as, NULL, 0, &p) == 0, "%s", p.err);
    rdx_test_proc_free(&p);
    free(s_path);
    return co_path;
}

#define SAXPY_LAUNCH                                                                              \
    "--grid", "1", "--block", "64", "--arg", "zeros:256", "--arg", "zeros:256", "--arg", "f32:2", \
        "--arg", "u32:64"

/* --source hw and run --profile put the code object on an emulated GPU of its own target (or
   --arch's), as rdx run does — an assembly file's too (its .amdgcn_target, read from the bytes
   assembled, not from the file again); an RDNA4 GPU writes its thread trace in layout 4, which
   decodes and maps to the kernel's gfx12 instructions. */
START_TEST(source_hw_follows_the_target)
{
    unsetenv("RDX_EMU_ARCH");
    char *co1151 = saxpy_for("gfx1151"), *co1201 = saxpy_for("gfx1201");
    rdx_test_proc p;
    const char *a[] = { "--source", "hw", co1151, SAXPY_LAUNCH, NULL };
    ck_assert_msg(pt_prof(a, &p) == 0, "%s%s", p.out, p.err);
    ck_assert_msg(strstr(p.out, "(gfx1151, emu)") && strstr(p.out, "SQ_WAVES") &&
                      strstr(p.out, "2 waves traced"),
                  "%s", p.out);
    rdx_test_proc_free(&p);
    const char *b[] = { "--source", "hw", co1201, SAXPY_LAUNCH, NULL };
    ck_assert_msg(pt_prof(b, &p) == 0, "%s%s", p.out, p.err);
    ck_assert_msg(strstr(p.out, "(gfx1201, emu)") && strstr(p.out, "2 waves traced") &&
                      strstr(p.out, "v_fmac_f32") && strstr(p.out, "global_store_b32"),
                  "%s", p.out);
    rdx_test_proc_free(&p);
    char *s1201 = rdx_test_tmp_path("saxpy-gfx1201.s");
    const char *c[] = { "--source", "hw", s1201, SAXPY_LAUNCH, NULL };
    ck_assert_msg(pt_prof(c, &p) == 0, "%s%s", p.out, p.err);
    ck_assert_msg(strstr(p.out, "(gfx1201, emu)") && strstr(p.out, "2 waves traced"), "%s", p.out);
    rdx_test_proc_free(&p);
    free(s1201);
    const char *run[] = { rdx_test_rdx_path(), "run",  "--profile",  "--arch",
                          "gfx1151",           co1151, SAXPY_LAUNCH, NULL };
    ck_assert_msg(rdx_test_run(run, NULL, 0, &p) == 0, "%s%s", p.out, p.err);
    ck_assert_msg(strstr(p.out, "(gfx1151, emu)"), "%s", p.out);
    rdx_test_proc_free(&p);
    const char *mismatch[] = { rdx_test_rdx_path(), "run",  "--profile",  "--arch",
                               "gfx1100",           co1151, SAXPY_LAUNCH, NULL };
    ck_assert_int_ne(rdx_test_run(mismatch, NULL, 0, &p), 0);
    ck_assert_msg(strstr(p.err, "code object for gfx1151, the device is a gfx1100"), "%s", p.err);
    rdx_test_proc_free(&p);
    free(co1151);
    free(co1201);
}
END_TEST

/* The kernel time estimate in microseconds is its cycles at the engine clock of the chip the
   model ran (emu/dev/target.c: gfx1100 2482 MHz, gfx1151 2900 MHz): rdx prof's report, its
   JSON and rdx run's estimate line, on a gfx1151 and a gfx1100. */
START_TEST(estimate_us_at_the_target_clock)
{
    unsetenv("RDX_EMU_ARCH");
    static const char *const targets[] = { "gfx1100", "gfx1151" };
    static const unsigned mhz[] = { 2482, 2900 };
    double us[2];
    for (int t = 0; t < 2; t++) {
        char *co = saxpy_for(targets[t]);
        ck_assert_uint_eq(rdx_emu_clock_mhz(targets[t]), mhz[t]);
        rdx_test_proc p;
        const char *a[] = { co, SAXPY_LAUNCH, NULL };
        ck_assert_msg(pt_prof(a, &p) == 0, "%s%s", p.out, p.err);
        const char *l = strstr(p.out, "kernel time (model of a ");
        ck_assert_msg(l, "%s", p.out);
        char chip[16];
        unsigned m = 0;
        unsigned long long cyc = 0;
        ck_assert_msg(sscanf(l, "kernel time (model of a %15[^;]; us at %u MHz): %llu cycles = %lf",
                             chip, &m, &cyc, &us[t]) == 4,
                      "%s", l);
        ck_assert_str_eq(chip, targets[t]);
        ck_assert_uint_eq(m, mhz[t]);
        ck_assert_msg(cyc > 0 && fabs(us[t] - (double)cyc / mhz[t]) < 0.001, "%s", l);
        rdx_test_proc_free(&p);
        const char *j[] = { "--json", co, SAXPY_LAUNCH, NULL };
        ck_assert_msg(pt_prof(j, &p) == 0, "%s%s", p.out, p.err);
        jval *v = json_parse(p.out, NULL);
        ck_assert_msg(v, "%s", p.out);
        const jval *d = json_get(v, "dispatches")->items[0];
        ck_assert(json_get(d, "clock_mhz")->num == mhz[t]);
        ck_assert(json_get(d, "kernel_cycles")->num == (double)cyc);
        ck_assert(fabs(json_get(d, "kernel_us")->num - (double)cyc / mhz[t]) < 1e-3);
        ck_assert(fabs(json_get(v, "clock_ghz")->num - mhz[t] / 1000.0) < 1e-3);
        json_free(v);
        rdx_test_proc_free(&p);
        const char *run[] = { rdx_test_rdx_path(), "run", co, SAXPY_LAUNCH, NULL };
        ck_assert_msg(rdx_test_run(run, NULL, 0, &p) == 0, "%s%s", p.out, p.err);
        l = strstr(p.out, "kernel time estimate: ");
        ck_assert_msg(l, "%s", p.out);
        double rus = 0;
        unsigned long long rcyc = 0;
        ck_assert_msg(
            sscanf(l, "kernel time estimate: %lf us (%llu cycles at %u MHz", &rus, &rcyc, &m) == 3,
            "%s", l);
        ck_assert_uint_eq(m, mhz[t]);
        ck_assert_msg(strstr(l, targets[t]), "%s", l);
        ck_assert_msg(fabs(rus - (double)rcyc / mhz[t]) < 0.001, "%s", l);
        rdx_test_proc_free(&p);
        free(co);
    }
    ck_assert(us[0] != us[1]);
}
END_TEST

TCase *pt_tcase_hw(void)
{
    TCase *tc = tcase_create("hw");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, counters_equal_emulator_counts);
    tcase_add_test(tc, sqtt_via_pm4_round_trip);
    tcase_add_test(tc, sqtt_tail_padding);
    tcase_add_test(tc, sqtt_buffer_too_small);
    tcase_add_test(tc, bad_programming_refused);
    tcase_add_test(tc, registers_defined_without_work);
    tcase_add_test(tc, gfx12_counter_selects);
    tcase_add_test(tc, registers_and_disassembly);
    tcase_add_test(tc, cli_source_hw);
    tcase_add_test(tc, run_and_realize_profile);
    tcase_add_test(tc, source_hw_follows_the_target);
    tcase_add_test(tc, estimate_us_at_the_target_clock);
    return tc;
}
