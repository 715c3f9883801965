/*
 * tests/codeobj_oracle/runtime_test.c — the dispatch the runtime builds from rdx's
 * code objects, against the public hardware rules (gfx11): COMPUTE_PGM_RSRC* from
 * the descriptor, LDS_SIZE in 512-byte granules (AMDGPUUsage, GRANULATED_LDS_SIZE
 * for GFX7-GFX11), USER_DATA_* in the descriptor's user-SGPR order with
 * USER_SGPR_COUNT registers, scratch: COMPUTE_TMPRING_SIZE.WAVES counts the waves
 * of one shader engine (Mesa's ac_get_scratch_tmpring_size divides by num_se on
 * gfx11+), so WAVES x SEs x WAVESIZE must fit the scratch buffer; WAVESIZE in
 * 256-byte units holds a wave32's private segment.
 */
#include <stdlib.h>
#include <string.h>

#include <rdx/pm4.h>
#include <rdx/runtime.h>

#include "runtime/internal.h"
#include "tests/codeobj_oracle/cor_test.h"
#include "util/error.h"

/* The SH registers a command buffer sets (last value wins), by offset from 0x2c00. */
typedef struct {
    uint32_t val[RDX_PM4_SH_REG_END - RDX_PM4_SH_REG_START];
    uint8_t set[RDX_PM4_SH_REG_END - RDX_PM4_SH_REG_START];
} shadow;

static void collect(const uint32_t *dw, size_t ndw, shadow *sh)
{
    memset(sh, 0, sizeof *sh);
    rdx_pm4_iter it;
    rdx_pm4_iter_init(&it, dw, ndw, false);
    while (!rdx_pm4_iter_done(&it)) {
        rdx_pm4_packet p;
        ck_assert_msg(!rdx_pm4_iter_next(&it, &p), "%s", rdx_error_message());
        if (p.opcode != RDX_PM4_OP_SET_SH_REG)
            continue;
        uint32_t base = p.dw[1] & 0xffff;
        for (uint32_t i = 2; i < p.ndw; i++) {
            ck_assert_uint_lt(base + i - 2, RDX_PM4_SH_REG_END - RDX_PM4_SH_REG_START);
            sh->val[base + i - 2] = p.dw[i];
            sh->set[base + i - 2] = 1;
        }
    }
}

static uint32_t reg(const shadow *sh, uint32_t r)
{
    ck_assert_msg(sh->set[r - RDX_PM4_SH_REG_START], "register 0x%x not set", r);
    return sh->val[r - RDX_PM4_SH_REG_START];
}

/* Compile `sink`, load it on an emulated device, build one dispatch of `groups`
   workgroups into mem (rt_build_dispatch, as rdx_queue_dispatch does) and return the
   SH registers it sets; *kd gets the kernel's descriptor. */
typedef struct {
    rdx_device *dev;
    rdx_program *prog;
    rdx_queue *q;
    const rdx_kernel *k;
    rdx_codeobj *co;
} fixture;

static void build(fixture *f, rdx_ir_ctx *ctx, const rdx_uop *sink, uint32_t wg, uint32_t groups,
                  shadow *sh)
{
    rdx_codegen_kernel *ck = cor_compile(ctx, sink, "k", wg);
    ck_assert(!rdx_codeobj_read(ck->code_object, ck->code_object_size, "k", &f->co));
    rdx_device_options o = { .kind = RDX_DEVICE_EMU, .quiet = true };
    ck_assert_msg(!rdx_device_open(&o, &f->dev), "%s", rdx_error_message());
    ck_assert_msg(!rdx_program_load(f->dev, ck->code_object, ck->code_object_size, "k", &f->prog),
                  "%s", rdx_error_message());
    ck_assert(!rdx_program_find(f->prog, "k", &f->k));
    ck_assert(!rdx_queue_create(f->dev, RDX_QUEUE_COMPUTE, &f->q));
    rdx_launch l = { .kernel = f->k, .grid = { groups }, .block = { ck->dims[0].wg } };
    for (int d = 1; d < 3; d++)
        l.grid[d] = 1, l.block[d] = ck->dims[d].wg ? ck->dims[d].wg : 1;
    rt_grid g;
    ck_assert(!rt_launch_grid(&l, &g));
    ck_assert_msg(!rt_queue_scratch(f->q, f->k), "%s", rdx_error_message());
    uint32_t mem[RT_MAX_DISPATCH_DW];
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init_fixed(&cb, mem, RT_MAX_DISPATCH_DW);
    ck_assert_msg(!rt_build_dispatch(f->q, &l, &g, 0x123400, 0x123000, &cb), "%s",
                  rdx_error_message());
    collect(mem, cb.len, sh);
    rdx_codegen_kernel_free(ck);
}

static void done(fixture *f)
{
    rdx_codeobj_free(f->co);
    ck_assert(!rdx_queue_destroy(f->q));
    rdx_program_free(f->prog);
    ck_assert(!rdx_device_close(f->dev));
}

/* The registers every dispatch of kernel f->co's descriptor must get. */
static void check_common(const fixture *f, const shadow *sh)
{
    const rdx_kernel_descriptor *kd = &f->co->kernels[0].kd;
    uint8_t bytes[RDX_KERNEL_DESCRIPTOR_SIZE];
    ck_assert(!rdx_codeobj_kd_pack(kd, 11, bytes));
    uint32_t rsrc1, rsrc2, rsrc3;
    memcpy(&rsrc3, bytes + 44, 4);
    memcpy(&rsrc1, bytes + 48, 4);
    memcpy(&rsrc2, bytes + 52, 4);
    /* RSRC1 is the descriptor's with PRIV set (gfx11's CWSR workaround, as tinygrad's driver
       and AMD's kfdtest do) */
    ck_assert_uint_eq(reg(sh, RDX_PM4_REG_COMPUTE_PGM_RSRC1), rsrc1 | (1u << 20));
    ck_assert_uint_eq(reg(sh, RDX_PM4_REG_COMPUTE_RESTART_X), 0);
    ck_assert_uint_eq(reg(sh, RDX_PM4_REG_COMPUTE_PGM_RSRC3), rsrc3);
    /* RSRC2 is the descriptor's but for LDS_SIZE, which the CP takes from the dispatch
       (the descriptor's GRANULATED_LDS_SIZE is 0): 512-byte granules on gfx11 */
    uint32_t r2 = reg(sh, RDX_PM4_REG_COMPUTE_PGM_RSRC2);
    uint32_t lds = rdx_pm4_reg_get(r2, RDX_PM4_RF_COMPUTE_PGM_RSRC2_LDS_SIZE);
    ck_assert_uint_eq(lds, (kd->group_segment_fixed_size + 511) / 512);
    ck_assert_uint_eq(r2 & ~(0x1ffu << 15), rsrc2 & ~(0x1ffu << 15));
    /* user SGPRs: USER_SGPR_COUNT registers, kernarg pointer first (the only enabled
       one), the padding 0 */
    uint32_t n = rdx_pm4_reg_get(r2, RDX_PM4_RF_COMPUTE_PGM_RSRC2_USER_SGPR);
    ck_assert_uint_eq(n, kd->user_sgpr_count);
    ck_assert_uint_eq(reg(sh, RDX_PM4_REG_COMPUTE_USER_DATA_0), 0x123400);
    ck_assert_uint_eq(reg(sh, RDX_PM4_REG_COMPUTE_USER_DATA_0 + 1), 0);
    for (uint32_t i = 2; i < n; i++)
        ck_assert_uint_eq(reg(sh, RDX_PM4_REG_COMPUTE_USER_DATA_0 + i), 0);
    /* the entry point */
    uint64_t pgm =
        (uint64_t)reg(sh, RDX_PM4_REG_COMPUTE_PGM_HI) << 32 | reg(sh, RDX_PM4_REG_COMPUTE_PGM_LO);
    ck_assert_uint_eq(pgm << 8, f->k->code_addr);
    /* the instruction prefetch may read 3 cache lines of 128 bytes past the last
       instruction (clang pads with s_code_end for it): still inside the program */
    ck_assert_uint_ge(f->prog->code.addr + f->prog->code.size,
                      f->k->code_addr + f->co->kernels[0].code_size + 3 * 128);
}

START_TEST(scratch_per_shader_engine)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    fixture f;
    shadow *sh = malloc(sizeof *sh);
    build(&f, ctx, cor_spill_kernel(ctx), 256, 2, sh);
    check_common(&f, sh);
    const rdx_kernel_descriptor *kd = &f.co->kernels[0].kd;
    ck_assert_uint_eq(kd->enable_private_segment, 1);
    ck_assert_uint_eq(rdx_pm4_reg_get(reg(sh, RDX_PM4_REG_COMPUTE_PGM_RSRC2),
                                      RDX_PM4_RF_COMPUTE_PGM_RSRC2_SCRATCH_EN),
                      1);
    uint32_t tmp = reg(sh, RDX_PM4_REG_COMPUTE_TMPRING_SIZE);
    uint64_t waves = rdx_pm4_reg_get(tmp, RDX_PM4_RF_COMPUTE_TMPRING_SIZE_WAVES);
    uint64_t wavesize = rdx_pm4_reg_get(tmp, RDX_PM4_RF_COMPUTE_TMPRING_SIZE_WAVESIZE) * 256;
    /* shader engines from the DRM device info (not the topology the runtime sizes with) */
    uint32_t se = f.dev->gpu_info->drm_num_shader_engines;
    ck_assert_uint_gt(se, 1);
    ck_assert_uint_ge(waves, 1);
    ck_assert_uint_ge(wavesize, 32ull * kd->private_segment_fixed_size);
    ck_assert_msg(waves * se * wavesize <= f.q->scratch.size,
                  "WAVES %llu per SE x %u SEs x %llu bytes > scratch buffer of %llu bytes",
                  (unsigned long long)waves, se, (unsigned long long)wavesize,
                  (unsigned long long)f.q->scratch.size);
    uint64_t base = (uint64_t)reg(sh, RDX_PM4_REG_COMPUTE_DISPATCH_SCRATCH_BASE_HI) << 32 |
                    reg(sh, RDX_PM4_REG_COMPUTE_DISPATCH_SCRATCH_BASE_LO);
    ck_assert_uint_eq(base << 8, f.q->scratch.addr);
    done(&f);
    free(sh);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

START_TEST(lds_and_user_sgprs)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    static const char *const files[] = { "lds.uop", "xyz.uop", "byval.uop" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        fixture f;
        shadow *sh = malloc(sizeof *sh);
        build(&f, ctx, cor_parse_file(ctx, files[i]), 0, 2, sh);
        check_common(&f, sh);
        /* no scratch: SCRATCH_EN clear */
        ck_assert_uint_eq(rdx_pm4_reg_get(reg(sh, RDX_PM4_REG_COMPUTE_PGM_RSRC2),
                                          RDX_PM4_RF_COMPUTE_PGM_RSRC2_SCRATCH_EN),
                          0);
        done(&f);
        free(sh);
    }
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

/* A clang kernel that enables the dispatch-packet and kernarg user SGPRs (and pads to
   15 for the gfx1100 wave32 rule): USER_DATA in AMDGPUUsage's order with the padding
   zeroed, and on the emulated GPU through the whole runtime the kernel sees an AQL
   packet with its launch shape and a kernarg segment holding its argument. */
START_TEST(user_sgpr_order)
{
    rdx_device *dev;
    rdx_device_options o = { .kind = RDX_DEVICE_EMU, .quiet = true };
    ck_assert(!rdx_device_open(&o, &dev));
    rdx_program *prog;
    ck_assert_msg(!rdx_program_load_file(dev, cor_clang_path(), &prog), "%s", rdx_error_message());
    const rdx_kernel *k;
    ck_assert(!rdx_program_find(prog, "usersgprs", &k));
    const rdx_kernel_descriptor *kd = &cor_clang_kernel("usersgprs")->kd;
    ck_assert_uint_eq(kd->enable_sgpr_dispatch_ptr, 1);
    ck_assert_uint_eq(kd->enable_sgpr_kernarg_segment_ptr, 1);
    ck_assert_uint_eq(kd->enable_sgpr_queue_ptr + kd->enable_sgpr_dispatch_id +
                          kd->enable_sgpr_private_segment_buffer +
                          kd->enable_sgpr_flat_scratch_init + kd->enable_sgpr_private_segment_size,
                      0);
    rdx_queue *q;
    ck_assert(!rdx_queue_create(dev, RDX_QUEUE_COMPUTE, &q));
    rdx_buffer *b;
    ck_assert(!rdx_buffer_alloc(dev, 256, RDX_MEM_HOST, &b));
    rdx_arg args[1] = { rdx_arg_buffer(b) };
    rdx_launch l = { .kernel = k, .grid = { 1 }, .block = { 64 }, .args = args, .nargs = 1 };
    /* the registers */
    rt_grid g;
    ck_assert(!rt_launch_grid(&l, &g));
    uint32_t mem[RT_MAX_DISPATCH_DW];
    rdx_pm4_cmdbuf cb;
    rdx_pm4_cmdbuf_init_fixed(&cb, mem, RT_MAX_DISPATCH_DW);
    ck_assert(!rt_build_dispatch(q, &l, &g, 0x123400, 0x123000, &cb));
    shadow *sh = malloc(sizeof *sh);
    collect(mem, cb.len, sh);
    uint32_t n = rdx_pm4_reg_get(reg(sh, RDX_PM4_REG_COMPUTE_PGM_RSRC2),
                                 RDX_PM4_RF_COMPUTE_PGM_RSRC2_USER_SGPR);
    ck_assert_uint_eq(n, kd->user_sgpr_count);
    static const uint32_t want[4] = { 0x123000, 0, 0x123400, 0 }; /* packet, kernarg */
    for (uint32_t i = 0; i < n; i++)
        ck_assert_uint_eq(reg(sh, RDX_PM4_REG_COMPUTE_USER_DATA_0 + i), i < 4 ? want[i] : 0);
    free(sh);
    /* the run */
    uint64_t t;
    ck_assert_msg(!rdx_queue_dispatch(q, &l, &t), "%s", rdx_error_message());
    ck_assert_msg(!rdx_queue_wait(q, t, 10000), "%s", rdx_error_message());
    uint64_t seen[2];
    ck_assert(!rdx_buffer_download(b, 0, seen, sizeof seen));
    ck_assert(seen[0] && seen[1]);
    /* AQL kernel dispatch packet: workgroup_size_x (u16 at 4), grid_size_x (u32 at 12);
       the kernarg segment starts with the buffer argument (CPU address == GPU address) */
    uint16_t wgx;
    uint32_t gridx;
    uint64_t arg0;
    memcpy(&wgx, (const void *)(uintptr_t)(seen[0] + 4), 2);
    memcpy(&gridx, (const void *)(uintptr_t)(seen[0] + 12), 4);
    memcpy(&arg0, (const void *)(uintptr_t)seen[1], 8);
    ck_assert_uint_eq(wgx, 64);
    ck_assert_uint_eq(gridx, 64);
    ck_assert_uint_eq(arg0, rdx_buffer_gpu_addr(b));
    rdx_buffer_free(b);
    ck_assert(!rdx_queue_destroy(q));
    rdx_program_free(prog);
    ck_assert(!rdx_device_close(dev));
}
END_TEST

/* The launch shape the code was compiled for (its register budget depends on it): a
   larger workgroup, or another than the required one, is refused; the right one runs. */
START_TEST(launch_shape_checked)
{
    rdx_ir_ctx *ctx;
    ck_assert_int_eq(rdx_ir_ctx_create(&ctx), RDX_OK);
    rdx_codegen_kernel *ck = cor_compile(ctx, cor_parse_file(ctx, "lds.uop"), "k", 0);
    rdx_device *dev;
    rdx_device_options o = { .kind = RDX_DEVICE_EMU, .quiet = true };
    ck_assert(!rdx_device_open(&o, &dev));
    rdx_program *prog;
    ck_assert(!rdx_program_load(dev, ck->code_object, ck->code_object_size, "k", &prog));
    const rdx_kernel *k;
    ck_assert(!rdx_program_find(prog, "k", &k));
    rdx_queue *q;
    ck_assert(!rdx_queue_create(dev, RDX_QUEUE_COMPUTE, &q));
    rdx_buffer *in, *out;
    ck_assert(!rdx_buffer_alloc(dev, 512 * 4, RDX_MEM_HOST, &in));
    ck_assert(!rdx_buffer_alloc(dev, 8 * 4, RDX_MEM_HOST, &out));
    float v[512], sums[8], want[8] = { 0 };
    for (int i = 0; i < 512; i++) {
        v[i] = (float)(i % 7);
        want[i / 64] += v[i];
    }
    ck_assert(!rdx_buffer_upload(in, 0, v, sizeof v));
    rdx_arg args[2] = { rdx_arg_buffer(in), rdx_arg_buffer(out) };
    rdx_launch l = { .kernel = k, .grid = { 4 }, .block = { 128 }, .args = args, .nargs = 2 };
    ck_assert_int_eq(rdx_queue_dispatch(q, &l, NULL), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "at most 64 (.max_flat_workgroup_size)"), "%s",
                  rdx_error_message());
    l.grid[0] = 16, l.block[0] = 32;
    ck_assert_int_eq(rdx_queue_dispatch(q, &l, NULL), RDX_ERR_INVALID);
    ck_assert_msg(strstr(rdx_error_message(), "requires 64x1x1 (.reqd_workgroup_size)"), "%s",
                  rdx_error_message());
    l.grid[0] = 8, l.block[0] = 64;
    uint64_t t;
    ck_assert_msg(!rdx_queue_dispatch(q, &l, &t), "%s", rdx_error_message());
    ck_assert_msg(!rdx_queue_wait(q, t, 10000), "%s", rdx_error_message());
    ck_assert(!rdx_buffer_download(out, 0, sums, sizeof sums));
    for (int g = 0; g < 8; g++)
        ck_assert_float_eq(sums[g], want[g]);
    rdx_buffer_free(in);
    rdx_buffer_free(out);
    ck_assert(!rdx_queue_destroy(q));
    rdx_program_free(prog);
    ck_assert(!rdx_device_close(dev));
    rdx_codegen_kernel_free(ck);
    rdx_ir_ctx_destroy(ctx);
}
END_TEST

/* rt_scratch_size against the closed form for Navi 31's shape and a one-SE part */
START_TEST(scratch_size_rule)
{
    rdx_kfd_gpu_info g;
    memset(&g, 0, sizeof g);
    g.cu_count = 96, g.array_count = 12, g.simd_arrays_per_engine = 2; /* 6 SEs */
    uint32_t w;
    uint64_t b;
    rt_scratch_size(&g, 1024, &w, &b);
    ck_assert_uint_eq(w, 64); /* 384 waves over 6 SEs */
    ck_assert_uint_eq(b, 64ull * 6 * 1024);
    g.cu_count = 2, g.array_count = 1, g.simd_arrays_per_engine = 1; /* 32 waves minimum */
    rt_scratch_size(&g, 256, &w, &b);
    ck_assert_uint_eq(w, 32);
    ck_assert_uint_eq(b, 32ull * 256);
    g.array_count = 0, g.drm_num_shader_engines = 4; /* topology without arrays */
    rt_scratch_size(&g, 256, &w, &b);
    ck_assert_uint_eq(w, 8);
    ck_assert_uint_eq(b, 8ull * 4 * 256);
}
END_TEST

TCase *cor_tcase_runtime(void)
{
    TCase *tc = tcase_create("runtime");
    tcase_add_unchecked_fixture(tc, cor_clang_setup, NULL);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, scratch_size_rule);
    tcase_add_test(tc, scratch_per_shader_engine);
    tcase_add_test(tc, lds_and_user_sgprs);
    tcase_add_test(tc, launch_shape_checked);
    tcase_add_test(tc, user_sgpr_order);
    return tc;
}
