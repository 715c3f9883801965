/*
 * isa/codeobj/kd.c — the AMDHSA kernel descriptor: the bit-field layout table
 * (from LLVM AMDGPUUsage "Kernel Descriptor", "compute_pgm_rsrc1/2/3" and
 * "Kernel Code Properties" tables for GFX11 and GFX12), pack and unpack.
 */
#include <stddef.h>
#include <string.h>

#include <rdx/codeobj.h>

#include "util/error.h"

/* X(member, directive, word, shift, width, min_major, max_major) */
#define KD_FIELDS(X)                                                                               \
    X(granulated_workitem_vgpr_count, NULL, RSRC1, 0, 6, 11, 12)                                   \
    X(granulated_wavefront_sgpr_count, NULL, RSRC1, 6, 4, 11, 12)                                  \
    X(priority, NULL, RSRC1, 10, 2, 11, 12)                                                        \
    X(float_round_mode_32, "amdhsa_float_round_mode_32", RSRC1, 12, 2, 11, 12)                     \
    X(float_round_mode_16_64, "amdhsa_float_round_mode_16_64", RSRC1, 14, 2, 11, 12)               \
    X(float_denorm_mode_32, "amdhsa_float_denorm_mode_32", RSRC1, 16, 2, 11, 12)                   \
    X(float_denorm_mode_16_64, "amdhsa_float_denorm_mode_16_64", RSRC1, 18, 2, 11, 12)             \
    X(priv, NULL, RSRC1, 20, 1, 11, 12)                                                            \
    X(enable_dx10_clamp, "amdhsa_dx10_clamp", RSRC1, 21, 1, 11, 11)                                \
    X(enable_wg_rr_en, "amdhsa_round_robin_scheduling", RSRC1, 21, 1, 12, 12)                      \
    X(debug_mode, NULL, RSRC1, 22, 1, 11, 12)                                                      \
    X(enable_ieee_mode, "amdhsa_ieee_mode", RSRC1, 23, 1, 11, 11)                                  \
    X(disable_perf, NULL, RSRC1, 23, 1, 12, 12)                                                    \
    X(bulky, NULL, RSRC1, 24, 1, 11, 12)                                                           \
    X(cdbg_user, NULL, RSRC1, 25, 1, 11, 12)                                                       \
    X(fp16_ovfl, "amdhsa_fp16_overflow", RSRC1, 26, 1, 11, 12)                                     \
    X(wgp_mode, "amdhsa_workgroup_processor_mode", RSRC1, 29, 1, 11, 12)                           \
    X(mem_ordered, "amdhsa_memory_ordered", RSRC1, 30, 1, 11, 12)                                  \
    X(fwd_progress, "amdhsa_forward_progress", RSRC1, 31, 1, 11, 12)                               \
    X(enable_private_segment, "amdhsa_enable_private_segment", RSRC2, 0, 1, 11, 12)                \
    X(user_sgpr_count, "amdhsa_user_sgpr_count", RSRC2, 1, 5, 11, 12)                              \
    X(enable_trap_handler, NULL, RSRC2, 6, 1, 11, 11)                                              \
    X(enable_sgpr_workgroup_id_x, "amdhsa_system_sgpr_workgroup_id_x", RSRC2, 7, 1, 11, 12)        \
    X(enable_sgpr_workgroup_id_y, "amdhsa_system_sgpr_workgroup_id_y", RSRC2, 8, 1, 11, 12)        \
    X(enable_sgpr_workgroup_id_z, "amdhsa_system_sgpr_workgroup_id_z", RSRC2, 9, 1, 11, 12)        \
    X(enable_sgpr_workgroup_info, "amdhsa_system_sgpr_workgroup_info", RSRC2, 10, 1, 11, 12)       \
    X(enable_vgpr_workitem_id, "amdhsa_system_vgpr_workitem_id", RSRC2, 11, 2, 11, 12)             \
    X(enable_exception_address_watch, NULL, RSRC2, 13, 1, 11, 12)                                  \
    X(enable_exception_memory, NULL, RSRC2, 14, 1, 11, 12)                                         \
    X(granulated_lds_size, NULL, RSRC2, 15, 9, 11, 12)                                             \
    X(enable_exception_fp_invalid_operation, "amdhsa_exception_fp_ieee_invalid_op", RSRC2, 24, 1,  \
      11, 12)                                                                                      \
    X(enable_exception_fp_denormal_source, "amdhsa_exception_fp_denorm_src", RSRC2, 25, 1, 11, 12) \
    X(enable_exception_fp_division_by_zero, "amdhsa_exception_fp_ieee_div_zero", RSRC2, 26, 1, 11, \
      12)                                                                                          \
    X(enable_exception_fp_overflow, "amdhsa_exception_fp_ieee_overflow", RSRC2, 27, 1, 11, 12)     \
    X(enable_exception_fp_underflow, "amdhsa_exception_fp_ieee_underflow", RSRC2, 28, 1, 11, 12)   \
    X(enable_exception_fp_inexact, "amdhsa_exception_fp_ieee_inexact", RSRC2, 29, 1, 11, 12)       \
    X(enable_exception_int_divide_by_zero, "amdhsa_exception_int_div_zero", RSRC2, 30, 1, 11, 12)  \
    X(shared_vgpr_count, "amdhsa_shared_vgpr_count", RSRC3, 0, 4, 11, 11)                          \
    X(inst_pref_size, "amdhsa_inst_pref_size", RSRC3, 4, 6, 11, 11)                                \
    X(inst_pref_size, "amdhsa_inst_pref_size", RSRC3, 4, 8, 12, 12)                                \
    X(trap_on_start, NULL, RSRC3, 10, 1, 11, 11)                                                   \
    X(trap_on_end, NULL, RSRC3, 11, 1, 11, 11)                                                     \
    X(glg_en, NULL, RSRC3, 13, 1, 12, 12)                                                          \
    X(image_op, NULL, RSRC3, 31, 1, 11, 12)                                                        \
    X(enable_sgpr_private_segment_buffer, "amdhsa_user_sgpr_private_segment_buffer", PROPERTIES,   \
      0, 1, 11, 12)                                                                                \
    X(enable_sgpr_dispatch_ptr, "amdhsa_user_sgpr_dispatch_ptr", PROPERTIES, 1, 1, 11, 12)         \
    X(enable_sgpr_queue_ptr, "amdhsa_user_sgpr_queue_ptr", PROPERTIES, 2, 1, 11, 12)               \
    X(enable_sgpr_kernarg_segment_ptr, "amdhsa_user_sgpr_kernarg_segment_ptr", PROPERTIES, 3, 1,   \
      11, 12)                                                                                      \
    X(enable_sgpr_dispatch_id, "amdhsa_user_sgpr_dispatch_id", PROPERTIES, 4, 1, 11, 12)           \
    X(enable_sgpr_flat_scratch_init, "amdhsa_user_sgpr_flat_scratch_init", PROPERTIES, 5, 1, 11,   \
      12)                                                                                          \
    X(enable_sgpr_private_segment_size, "amdhsa_user_sgpr_private_segment_size", PROPERTIES, 6, 1, \
      11, 12)                                                                                      \
    X(enable_wavefront_size32, "amdhsa_wavefront_size32", PROPERTIES, 10, 1, 11, 12)               \
    X(uses_dynamic_stack, "amdhsa_uses_dynamic_stack", PROPERTIES, 11, 1, 11, 12)                  \
    X(kernarg_preload_spec_length, "amdhsa_user_sgpr_kernarg_preload_length", PRELOAD, 0, 7, 11,   \
      12)                                                                                          \
    X(kernarg_preload_spec_offset, "amdhsa_user_sgpr_kernarg_preload_offset", PRELOAD, 7, 9, 11, 12)

static const rdx_kd_field fields[] = {
#define X(member, directive, word, shift, width, lo, hi) \
    { #member,                                           \
      directive,                                         \
      RDX_KD_WORD_##word,                                \
      shift,                                             \
      width,                                             \
      lo,                                                \
      hi,                                                \
      offsetof(rdx_kernel_descriptor, member) },
    KD_FIELDS(X)
#undef X
};

enum { NUM_FIELDS = sizeof fields / sizeof fields[0] };

/* Byte offsets of the descriptor's parts (AMDGPUUsage "Kernel Descriptor"). */
enum {
    KD_GROUP_SEGMENT_FIXED_SIZE = 0,
    KD_PRIVATE_SEGMENT_FIXED_SIZE = 4,
    KD_KERNARG_SIZE = 8,
    KD_RESERVED0 = 12,
    KD_ENTRY_OFFSET = 16,
    KD_RESERVED1 = 24,
    KD_RSRC3 = 44,
    KD_RSRC1 = 48,
    KD_RSRC2 = 52,
    KD_PROPERTIES = 56,
    KD_PRELOAD = 58,
    KD_RESERVED3 = 60,
};

size_t rdx_codeobj_kd_field_count(void)
{
    return NUM_FIELDS;
}

const rdx_kd_field *rdx_codeobj_kd_field_at(size_t i)
{
    return i < NUM_FIELDS ? &fields[i] : NULL;
}

const rdx_kd_field *rdx_codeobj_kd_field_find(const char *name, unsigned major)
{
    for (size_t i = 0; i < NUM_FIELDS; i++) {
        const rdx_kd_field *f = &fields[i];
        if (major < f->min_major || major > f->max_major)
            continue;
        if (!strcmp(f->name, name) || (f->directive && !strcmp(f->directive, name)))
            return f;
    }
    return NULL;
}

static uint32_t *member(rdx_kernel_descriptor *kd, const rdx_kd_field *f)
{
    return (uint32_t *)((char *)kd + f->member_offset);
}

uint32_t rdx_codeobj_kd_get(const rdx_kernel_descriptor *kd, const rdx_kd_field *f)
{
    return *(const uint32_t *)((const char *)kd + f->member_offset);
}

static uint32_t field_mask(const rdx_kd_field *f)
{
    return f->width >= 32 ? 0xffffffffu : (1u << f->width) - 1;
}

rdx_status rdx_codeobj_kd_set(rdx_kernel_descriptor *kd, const rdx_kd_field *f, uint32_t value)
{
    if (value & ~field_mask(f))
        return rdx_fail(RDX_ERR_RANGE,
                        "kernel descriptor field %s: value %u does not fit in %u bits", f->name,
                        value, f->width);
    *member(kd, f) = value;
    return RDX_OK;
}

static uint32_t get_le(const uint8_t *p, unsigned n)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t *reserved_of(rdx_kernel_descriptor *kd, rdx_kd_word w)
{
    switch (w) {
    case RDX_KD_WORD_RSRC1:
        return &kd->rsrc1_reserved;
    case RDX_KD_WORD_RSRC2:
        return &kd->rsrc2_reserved;
    case RDX_KD_WORD_RSRC3:
        return &kd->rsrc3_reserved;
    case RDX_KD_WORD_PROPERTIES:
        return &kd->kernel_code_properties_reserved;
    case RDX_KD_WORD_PRELOAD:
        break;
    }
    return NULL; /* kernarg_preload has no reserved bits */
}

static const unsigned word_offset[] = { KD_RSRC1, KD_RSRC2, KD_RSRC3, KD_PROPERTIES, KD_PRELOAD };
static const unsigned word_bytes[] = { 4, 4, 4, 2, 2 };

static bool major_ok(unsigned major)
{
    return major == 11 || major == 12;
}

rdx_status rdx_codeobj_kd_unpack(const uint8_t bytes[RDX_KERNEL_DESCRIPTOR_SIZE], unsigned major,
                                 rdx_kernel_descriptor *kd)
{
    memset(kd, 0, sizeof *kd);
    if (!major_ok(major))
        return rdx_fail(RDX_ERR_UNSUPPORTED,
                        "kernel descriptor layout of gfx%u is not supported (gfx11, gfx12)", major);
    kd->group_segment_fixed_size = get_le(bytes + KD_GROUP_SEGMENT_FIXED_SIZE, 4);
    kd->private_segment_fixed_size = get_le(bytes + KD_PRIVATE_SEGMENT_FIXED_SIZE, 4);
    kd->kernarg_size = get_le(bytes + KD_KERNARG_SIZE, 4);
    uint64_t entry =
        get_le(bytes + KD_ENTRY_OFFSET, 4) | (uint64_t)get_le(bytes + KD_ENTRY_OFFSET + 4, 4) << 32;
    memcpy(&kd->kernel_code_entry_byte_offset, &entry, 8);
    memcpy(kd->reserved0, bytes + KD_RESERVED0, sizeof kd->reserved0);
    memcpy(kd->reserved1, bytes + KD_RESERVED1, sizeof kd->reserved1);
    memcpy(kd->reserved3, bytes + KD_RESERVED3, sizeof kd->reserved3);
    uint32_t words[5], used[5] = { 0 };
    for (int w = 0; w < 5; w++)
        words[w] = get_le(bytes + word_offset[w], word_bytes[w]);
    for (size_t i = 0; i < NUM_FIELDS; i++) {
        const rdx_kd_field *f = &fields[i];
        if (major < f->min_major || major > f->max_major)
            continue;
        *member(kd, f) = (words[f->word] >> f->shift) & field_mask(f);
        used[f->word] |= field_mask(f) << f->shift;
    }
    for (int w = 0; w < 5; w++) {
        uint32_t *res = reserved_of(kd, (rdx_kd_word)w);
        if (res)
            *res = words[w] & ~used[w];
    }
    return RDX_OK;
}

rdx_status rdx_codeobj_kd_pack(const rdx_kernel_descriptor *kd, unsigned major,
                               uint8_t bytes[RDX_KERNEL_DESCRIPTOR_SIZE])
{
    memset(bytes, 0, RDX_KERNEL_DESCRIPTOR_SIZE);
    if (!major_ok(major))
        return rdx_fail(RDX_ERR_UNSUPPORTED,
                        "kernel descriptor layout of gfx%u is not supported (gfx11, gfx12)", major);
    uint32_t words[5] = { 0 }, used[5] = { 0 };
    for (size_t i = 0; i < NUM_FIELDS; i++) {
        const rdx_kd_field *f = &fields[i];
        uint32_t v = rdx_codeobj_kd_get(kd, f);
        if (major < f->min_major || major > f->max_major) {
            /* A member shared with a field valid on this major is checked there. */
            const rdx_kd_field *other = rdx_codeobj_kd_field_find(f->name, major);
            if (v && !other)
                return rdx_fail(RDX_ERR_RANGE,
                                "kernel descriptor field %s does not exist on gfx%u but is %u",
                                f->name, major, v);
            continue;
        }
        if (v & ~field_mask(f))
            return rdx_fail(RDX_ERR_RANGE,
                            "kernel descriptor field %s: value %u does not fit in %u bits", f->name,
                            v, f->width);
        words[f->word] |= v << f->shift;
        used[f->word] |= field_mask(f) << f->shift;
    }
    for (int w = 0; w < 5; w++) {
        const uint32_t *res = reserved_of((rdx_kernel_descriptor *)kd, (rdx_kd_word)w);
        if (!res)
            continue;
        if (*res & used[w])
            return rdx_fail(
                RDX_ERR_RANGE,
                "kernel descriptor: reserved bits 0x%08x of word %d overlap defined fields", *res,
                w);
        if (w == RDX_KD_WORD_PROPERTIES && (*res >> 16))
            return rdx_fail(
                RDX_ERR_RANGE,
                "kernel descriptor: kernel_code_properties_reserved 0x%x exceeds 16 bits", *res);
        words[w] |= *res;
    }
    put_le(bytes + KD_GROUP_SEGMENT_FIXED_SIZE, kd->group_segment_fixed_size, 4);
    put_le(bytes + KD_PRIVATE_SEGMENT_FIXED_SIZE, kd->private_segment_fixed_size, 4);
    put_le(bytes + KD_KERNARG_SIZE, kd->kernarg_size, 4);
    put_le(bytes + KD_ENTRY_OFFSET, (uint64_t)kd->kernel_code_entry_byte_offset, 8);
    memcpy(bytes + KD_RESERVED0, kd->reserved0, sizeof kd->reserved0);
    memcpy(bytes + KD_RESERVED1, kd->reserved1, sizeof kd->reserved1);
    memcpy(bytes + KD_RESERVED3, kd->reserved3, sizeof kd->reserved3);
    for (int w = 0; w < 5; w++)
        put_le(bytes + word_offset[w], words[w], word_bytes[w]);
    return RDX_OK;
}

void rdx_codeobj_kd_init(rdx_kernel_descriptor *kd, unsigned major)
{
    memset(kd, 0, sizeof *kd);
    kd->float_denorm_mode_16_64 = 3;
    kd->wgp_mode = 1;
    kd->mem_ordered = 1;
    kd->enable_sgpr_workgroup_id_x = 1;
    kd->enable_wavefront_size32 = 1;
    if (major <= 11) {
        kd->enable_dx10_clamp = 1;
        kd->enable_ieee_mode = 1;
    }
}

uint32_t rdx_codeobj_kd_implied_user_sgprs(const rdx_kernel_descriptor *kd)
{
    return 4 * kd->enable_sgpr_private_segment_buffer + 2 * kd->enable_sgpr_dispatch_ptr +
           2 * kd->enable_sgpr_queue_ptr + 2 * kd->enable_sgpr_kernarg_segment_ptr +
           2 * kd->enable_sgpr_dispatch_id + 2 * kd->enable_sgpr_flat_scratch_init +
           kd->enable_sgpr_private_segment_size + kd->kernarg_preload_spec_length;
}

uint32_t rdx_codeobj_vgpr_granules(unsigned major, bool wave32, uint32_t next_free_vgpr)
{
    (void)major; /* gfx10-gfx12 share the encoding granule */
    uint32_t g = wave32 ? 8 : 4;
    uint32_t n = next_free_vgpr ? next_free_vgpr : 1;
    return (n + g - 1) / g - 1;
}

uint32_t rdx_codeobj_vgprs_of_granules(unsigned major, bool wave32, uint32_t granules)
{
    (void)major;
    return (granules + 1) * (wave32 ? 8u : 4u);
}

uint32_t rdx_codeobj_sgpr_granules(unsigned major, uint32_t num_sgprs)
{
    (void)major;
    uint32_t n = num_sgprs ? num_sgprs : 1;
    return (n + 7) / 8 - 1;
}
