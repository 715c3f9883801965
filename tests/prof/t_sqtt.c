/*
 * tests/prof/t_sqtt.c — SQ thread traces (rdx/sqtt.h): the decoder on a
 * stream packed by hand from the token layouts (layouts 3 and 4), and the
 * round trip of the emulated GPU's trace: encode the profile's instruction
 * trace, decode it, map it back to PCs, get the instructions the waves ran.
 */
#include <stdlib.h>
#include <string.h>

#include <rdx/codeobj.h>
#include <rdx/isa.h>
#include <rdx/sqtt.h>

#include "emu/core/timing.h"
#include "tests/prof/prof_test.h"
#include "util/file.h"

/* A nibble packer written for the test (low nibble of each byte first). */
typedef struct pk {
    uint8_t b[256];
    unsigned n;
} pk;

static void put(pk *s, uint64_t v, unsigned nib)
{
    for (unsigned i = 0; i < nib; i++, s->n++)
        s->b[s->n / 2] |= (uint8_t)(((v >> (4 * i)) & 15) << ((s->n & 1) * 4));
}

START_TEST(decode_hand_packed)
{
    pk s;
    memset(&s, 0, sizeof s);
    put(&s, 0x11 | 3 << 7, 16); /* LAYOUT_HEADER, layout 3 */
    put(&s, 0x0c | 2 << 5 | 1 << 8 | 3 << 10 | 5 << 13,
        8);                                         /* WAVESTART delta 2 simd 1 wgp 3 wave 5 */
    put(&s, 0x2 | 7 << 4 | 5 << 8 | 0x21 << 13, 5); /* INST delta 7 wave 5 op 0x21 */
    put(&s, 0x8 | 6 << 4, 2);                       /* TS_DELTA_SHORT: 6 + 4 */
    put(&s, 0x3 | 1 << 3 | 5 << 7, 3);              /* VALUINST delta 1 wave 5 */
    put(&s, 0x01 | 1000ull << 12, 12);              /* TS_DELTA_OR_MARK 1000 */
    put(&s, 0x15 | 0 << 5 | 1 << 9 | 3 << 11 | 5 << 15, 5); /* WAVEEND simd 1 wgp 3 wave 5 */
    put(&s, 0x11 | 4 << 7, 16);                             /* LAYOUT_HEADER, layout 4 */
    put(&s, 0x2 | 3 << 3 | 9 << 7 | 0x8cu << 12, 5); /* INST (layout 4) delta 3 wave 9 op 0x8c */
    put(&s, 0, 2);                                   /* two NOPs: a whole byte */
    rdx_sqtt_packet *p;
    size_t n;
    ck_assert_int_eq(rdx_sqtt_decode(s.b, (s.n + 1) / 2, &p, &n), RDX_OK);
    static const struct {
        int type;
        uint64_t time;
    } want[] = { { RDX_SQTT_LAYOUT_HEADER, 0 }, { RDX_SQTT_WAVESTART, 2 },
                 { RDX_SQTT_INST, 9 },          { RDX_SQTT_TS_DELTA_SHORT, 19 },
                 { RDX_SQTT_VALUINST, 20 },     { RDX_SQTT_TS_DELTA_OR_MARK, 1020 },
                 { RDX_SQTT_WAVEEND, 1020 },    { RDX_SQTT_LAYOUT_HEADER, 1020 },
                 { RDX_SQTT_INST, 1023 },       { RDX_SQTT_NOP, 1023 },
                 { RDX_SQTT_NOP, 1023 } };
    ck_assert_uint_eq(n, sizeof want / sizeof *want);
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg(p[i].type == want[i].type, "packet %zu: %s", i,
                      rdx_sqtt_type_name(p[i].type));
        ck_assert_uint_eq(p[i].time, want[i].time);
    }
    ck_assert_uint_eq(p[1].simd, 1);
    ck_assert_uint_eq(p[1].cu, 3);
    ck_assert_uint_eq(p[1].wave, 5);
    ck_assert_uint_eq(p[2].op, 0x21);
    ck_assert_uint_eq(p[2].wave, 5);
    ck_assert_uint_eq(p[4].wave, 5);
    ck_assert_uint_eq(p[6].simd, 1);
    ck_assert_uint_eq(p[6].wave, 5);
    ck_assert_uint_eq(p[8].layout, 4);
    ck_assert_uint_eq(p[8].op, 0x8c);
    ck_assert_uint_eq(p[8].wave, 9);
    free(p);
    /* a layout rdx does not know */
    memset(&s, 0, sizeof s);
    put(&s, 0x11 | 9 << 7, 16);
    ck_assert_int_eq(rdx_sqtt_decode(s.b, 8, &p, &n), RDX_ERR_UNSUPPORTED);
    ck_assert(strstr(rdx_error_message(), "layout 9"));
}
END_TEST

/* The emulated trace of loops.cl's workgroup 0 decodes, its clock never goes back, every
   wave starts and ends, and the instruction packets map back to the PCs the traced
   waves ran, in order (s_delay_alu excepted: it issues no packet). */
START_TEST(emulated_trace_round_trip)
{
    uint8_t *elf;
    size_t len;
    ck_assert_int_eq(rdx_file_read(pt_loops_co, &elf, &len), RDX_OK);
    /* 128-byte aligned: the memory lines counted do not depend on where malloc put it */
    uint32_t *out = aligned_alloc(128, (8 * 64 + 64) * 4);
    memset(out, 0, (8 * 64 + 64) * 4);
    rdx_emu_buffer b = { out, (8 * 64 + 64) * 4, RDX_EMU_RW };
    /* explicit arguments, then the hidden group size the kernel reads (rdx/opencl.h
       get_local_size: offset 0x1c); every other byte zero */
    uint8_t ka[256] = { 0 };
    uint32_t seed = 7;
    uint16_t gsize = 64;
    memcpy(ka, &out, sizeof out);
    memcpy(ka + 8, &seed, 4);
    memcpy(ka + 0x1c, &gsize, 2);
    rdx_emu_launch l = { .grid = { 8 * 64 },
                         .wg = { 64 },
                         .kernarg = ka,
                         .kernarg_size = sizeof ka,
                         .bufs = &b,
                         .nbufs = 1 };
    rdx_emu *emu;
    ck_assert_int_eq(rdx_emu_create("gfx1100", &emu), RDX_OK);
    rdx_emu_set_profiling(emu, 1);
    ck_assert_int_eq(rdx_emu_run_codeobj(emu, elf, len, "loops", &l), RDX_OK);
    const rdx_emu_profile *p = rdx_emu_get_profile(emu);
    ck_assert_uint_gt(p->ntrace, 0);
    uint8_t *blob;
    size_t blen;
    ck_assert_int_eq(rdx_sqtt_encode_profile(p, 3, &blob, &blen), RDX_OK);
    rdx_sqtt_packet *pk;
    size_t n;
    ck_assert_int_eq(rdx_sqtt_decode(blob, blen, &pk, &n), RDX_OK);
    ck_assert_int_eq(pk[0].type, RDX_SQTT_LAYOUT_HEADER);
    unsigned starts = 0, ends = 0;
    for (size_t i = 0; i < n; i++) {
        ck_assert(i == 0 || pk[i].time >= pk[i - 1].time);
        ck_assert_str_ne(rdx_sqtt_type_name(pk[i].type), "?");
        starts += pk[i].type == RDX_SQTT_WAVESTART;
        ends += pk[i].type == RDX_SQTT_WAVEEND;
    }
    ck_assert_uint_eq(starts, 2); /* workgroup 0: 64 work-items, 2 waves */
    ck_assert_uint_eq(ends, 2);
    /* map to PCs with the kernel's code */
    rdx_codeobj *co;
    ck_assert_int_eq(rdx_codeobj_read(elf, len, NULL, &co), RDX_OK);
    const rdx_codeobj_kernel *k = &co->kernels[0];
    rdx_sqtt_inst *mi;
    size_t nm;
    ck_assert_msg(rdx_sqtt_map(pk, n, co->text + k->code_offset, co->text_size - k->code_offset,
                               p->code, 32, &mi, &nm) == RDX_OK,
                  "%s", rdx_error_message());
    /* the traced SIMD's waves, from the profile */
    size_t j = 0;
    uint32_t traced = UINT32_MAX;
    for (size_t w = 0; w < p->nwaves && p->waves[w].group == 0; w++)
        if (p->waves[w].simd == 0)
            traced = p->waves[w].wave;
    ck_assert_uint_ne(traced, UINT32_MAX);
    for (size_t i = 0; i < p->ntrace; i++) {
        const rdx_emu_prof_inst *t = &p->trace[i];
        if (t->wave != traced || !strcmp(rdx_isa_op_name((rdx_isa_op)t->op), "s_delay_alu"))
            continue;
        ck_assert_msg(j < nm, "trace has more instructions than the decoded %zu", nm);
        ck_assert_msg(mi[j].pc == t->pc, "instruction %zu: pc code+0x%llx, want code+0x%llx", j,
                      (unsigned long long)(mi[j].pc - p->code),
                      (unsigned long long)(t->pc - p->code));
        ck_assert_uint_eq(mi[j].wave, traced);
        j++;
    }
    ck_assert_uint_eq(j, nm);
    ck_assert_uint_gt(nm, 30); /* the whole kernel, the loop's body included */
    free(mi);
    rdx_codeobj_free(co);
    free(pk);
    free(blob);
    rdx_emu_destroy(emu);
    free(out);
    free(elf);
}
END_TEST

/* The layout of a target's traces, decided in one place: 3 on gfx11 (RDNA3, RDNA3.5), 4 on
   gfx12, 0 for a name rdx does not know. */
START_TEST(layout_of_target)
{
    ck_assert_uint_eq(rdx_sqtt_layout_of("gfx1100"), 3);
    ck_assert_uint_eq(rdx_sqtt_layout_of("gfx1151"), 3);
    ck_assert_uint_eq(rdx_sqtt_layout_of("gfx1200"), 4);
    ck_assert_uint_eq(rdx_sqtt_layout_of("gfx1201"), 4);
    ck_assert_uint_eq(rdx_sqtt_layout_of("gfx906"), 0);
    ck_assert_uint_eq(rdx_sqtt_layout_of(NULL), 0);
}
END_TEST

/* The emulated gfx1200's trace in layout 4: every packet decodes as layout 4 (wave slots of
   WAVESTART at bit 15, INST ops at bit 12), the clock never goes back, and the instruction
   packets map back (with gfx12's instruction table) to exactly the PCs the traced wave ran,
   the silent s_barrier_wait excepted; the barrier is INST BARRIER_SIGNAL, the loop's branch
   JUMP twice and JUMP_NO once, as the gfx1200 cards' traces show them. */
START_TEST(emulated_trace_layout4)
{
    size_t len;
    uint8_t *elf = pt_assemble_for(pt_gfx12_src, "gfx1200", &len);
    uint32_t *out = aligned_alloc(128, 256);
    memset(out, 0, 256);
    rdx_emu_buffer b = { out, 256, RDX_EMU_RW };
    void *ka = out;
    rdx_emu_launch l = {
        .grid = { 64 }, .wg = { 64 }, .kernarg = &ka, .kernarg_size = 8, .bufs = &b, .nbufs = 1
    };
    rdx_emu *emu;
    ck_assert_int_eq(rdx_emu_create("gfx1200", &emu), RDX_OK);
    rdx_emu_set_profiling(emu, 1);
    ck_assert_msg(rdx_emu_run_codeobj(emu, elf, len, "k", &l) == RDX_OK, "%s", rdx_error_message());
    const rdx_emu_profile *p = rdx_emu_get_profile(emu);
    uint8_t *blob;
    size_t blen;
    ck_assert_int_eq(rdx_sqtt_encode_profile(p, 5, &blob, &blen), RDX_ERR_INVALID);
    ck_assert_int_eq(rdx_sqtt_encode_profile(p, rdx_sqtt_layout_of("gfx1200"), &blob, &blen),
                     RDX_OK);
    rdx_sqtt_packet *pk;
    size_t n;
    ck_assert_int_eq(rdx_sqtt_decode(blob, blen, &pk, &n), RDX_OK);
    ck_assert_int_eq(pk[0].type, RDX_SQTT_LAYOUT_HEADER);
    unsigned starts = 0, ends = 0, jump = 0, jump_no = 0, bar = 0;
    for (size_t i = 0; i < n; i++) {
        ck_assert_uint_eq(pk[i].layout, 4);
        ck_assert(i == 0 || pk[i].time >= pk[i - 1].time);
        starts += pk[i].type == RDX_SQTT_WAVESTART;
        ends += pk[i].type == RDX_SQTT_WAVEEND;
        if (pk[i].type == RDX_SQTT_WAVESTART || pk[i].type == RDX_SQTT_WAVEEND)
            ck_assert_uint_lt(pk[i].wave, 2);
        if (pk[i].type == RDX_SQTT_INST) {
            jump += pk[i].op == RDX_SQTT_OP_JUMP;
            jump_no += pk[i].op == RDX_SQTT_OP_JUMP_NO;
            bar += pk[i].op == RDX_SQTT_OP_L4_BARRIER_SIGNAL;
        }
    }
    ck_assert_uint_eq(starts, 2);
    ck_assert_uint_eq(ends, 2);
    rdx_codeobj *co;
    ck_assert_int_eq(rdx_codeobj_read(elf, len, NULL, &co), RDX_OK);
    const rdx_codeobj_kernel *k = &co->kernels[0];
    rdx_sqtt_inst *mi;
    size_t nm;
    ck_assert_msg(rdx_sqtt_map(pk, n, co->text + k->code_offset, co->text_size - k->code_offset,
                               p->code, 32, &mi, &nm) == RDX_OK,
                  "%s", rdx_error_message());
    uint32_t traced = UINT32_MAX;
    size_t on_simd0 = 0;
    for (size_t w = 0; w < p->nwaves && p->waves[w].group == 0; w++)
        if (p->waves[w].simd == 0) {
            traced = p->waves[w].wave;
            on_simd0++;
        }
    ck_assert_uint_eq(on_simd0, 1);
    ck_assert_uint_eq(jump, 2);
    ck_assert_uint_eq(jump_no, 1);
    ck_assert_uint_eq(bar, 1);
    size_t j = 0;
    for (size_t i = 0; i < p->ntrace; i++) {
        const rdx_emu_prof_inst *t = &p->trace[i];
        const char *m = rdx_isa_op_name((rdx_isa_op)t->op);
        if (t->wave != traced || !strcmp(m, "s_barrier_wait"))
            continue;
        ck_assert_msg(j < nm, "trace has more instructions than the decoded %zu", nm);
        ck_assert_msg(mi[j].pc == t->pc, "instruction %zu (%s): pc code+0x%llx, want code+0x%llx",
                      j, m, (unsigned long long)(mi[j].pc - p->code),
                      (unsigned long long)(t->pc - p->code));
        j++;
    }
    ck_assert_uint_eq(j, nm);
    ck_assert_uint_eq(nm, 4 + 3 * 4 + 8); /* the prologue, 3 loop trips, the rest */
    /* the first instruction comes RDNA4's launch after its WAVESTART */
    for (size_t i = 0; i < n; i++)
        if (pk[i].type == RDX_SQTT_WAVESTART && pk[i].simd == 0) {
            ck_assert_uint_eq(mi[0].time - pk[i].time, EMU_T12_WAVE_LAUNCH);
            break;
        }
    free(mi);
    rdx_codeobj_free(co);
    free(pk);
    free(blob);
    rdx_emu_destroy(emu);
    free(out);
    free(elf);
}
END_TEST

TCase *pt_tcase_sqtt(void)
{
    TCase *tc = tcase_create("sqtt");
    tcase_add_test(tc, decode_hand_packed);
    tcase_add_test(tc, emulated_trace_round_trip);
    tcase_add_test(tc, layout_of_target);
    tcase_add_test(tc, emulated_trace_layout4);
    return tc;
}
