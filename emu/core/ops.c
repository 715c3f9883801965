/*
 * emu/core/ops.c — the op-id-indexed semantics table, built once from
 * ops.def (by mnemonic) and the family parsers, over every op of
 * rdx/isa_ops.h.  VOPD halves (v_dual_X) share the handler of v_X.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "emu/core/ops.h"

typedef struct emu_opdef {
    const char *name;
    emu_fn fn;
    uint8_t cls;
    uint32_t param;
} emu_opdef;

static const emu_opdef defs[] = {
#define EMU_OP(name, fn, cls, param) { #name, fn, RDX_EMU_CLASS_##cls, param },
#include "emu/core/ops.def"
#undef EMU_OP
};

/* gfx12 names of gfx11 ops with the same semantics: the gfx11 name's handler */
static const char *const renames[][2] = {
    { "s_add_co_u32", "s_add_u32" },
    { "s_add_co_i32", "s_add_i32" },
    { "s_add_co_ci_u32", "s_addc_u32" },
    { "s_sub_co_u32", "s_sub_u32" },
    { "s_sub_co_i32", "s_sub_i32" },
    { "s_sub_co_ci_u32", "s_subb_u32" },
    { "s_addk_co_i32", "s_addk_i32" },
    { "v_mad_co_u64_u32", "v_mad_u64_u32" },
    { "v_mad_co_i64_i32", "v_mad_i64_i32" },
    /* the _num min/max: a NaN operand gives the other one (gfx12 has no IEEE mode) */
    { "v_max_num_f32", "v_max_f32" },
    { "v_min_num_f32", "v_min_f32" },
    { "v_max_num_f16", "v_max_f16" },
    { "v_min_num_f16", "v_min_f16" },
    { "v_max_num_f64", "v_max_f64" },
    { "v_min_num_f64", "v_min_f64" },
    { "v_max3_num_f32", "v_max3_f32" },
    { "v_min3_num_f32", "v_min3_f32" },
    { "v_max3_num_f16", "v_max3_f16" },
    { "v_min3_num_f16", "v_min3_f16" },
    { "v_maxmin_num_f32", "v_maxmin_f32" },
    { "v_minmax_num_f32", "v_minmax_f32" },
    { "v_maxmin_num_f16", "v_maxmin_f16" },
    { "v_minmax_num_f16", "v_minmax_f16" },
    { "v_med3_num_f32", "v_med3_f32" },
    { "v_med3_num_f16", "v_med3_f16" },
    { "v_pk_max_num_f16", "v_pk_max_f16" },
    { "v_pk_min_num_f16", "v_pk_min_f16" },
    { "ds_max_num_f32", "ds_max_f32" },
    { "ds_min_num_f32", "ds_min_f32" },
    { "ds_max_num_f64", "ds_max_f64" },
    { "ds_min_num_f64", "ds_min_f64" },
    { "ds_max_num_rtn_f32", "ds_max_rtn_f32" },
    { "ds_min_num_rtn_f32", "ds_min_rtn_f32" },
    { "ds_max_num_rtn_f64", "ds_max_rtn_f64" },
    { "ds_min_num_rtn_f64", "ds_min_rtn_f64" },
    { "global_atomic_max_num_f32", "global_atomic_max_f32" },
    { "global_atomic_min_num_f32", "global_atomic_min_f32" },
    { "flat_atomic_max_num_f32", "flat_atomic_max_f32" },
    { "flat_atomic_min_num_f32", "flat_atomic_min_f32" },
    { "buffer_atomic_max_num_f32", "buffer_atomic_max_f32" },
    { "buffer_atomic_min_num_f32", "buffer_atomic_min_f32" },
    { "global_atomic_sub_clamp_u32", "global_atomic_csub_u32" },
    { "flat_atomic_sub_clamp_u32", "flat_atomic_csub_u32" },
    { "buffer_atomic_sub_clamp_u32", "buffer_atomic_csub_u32" },
};

static emu_opinfo table[RDX_ISA_OP_COUNT];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int lookup(const char *name, emu_opinfo *oi)
{
    for (size_t i = 0; i < sizeof renames / sizeof renames[0]; i++)
        if (!strcmp(renames[i][0], name)) {
            name = renames[i][1];
            break;
        }
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        if (!strcmp(defs[i].name, name)) {
            oi->fn = defs[i].fn;
            oi->cls = defs[i].cls;
            oi->param = defs[i].param;
            return 1;
        }
    return emu_cmp_family(name, oi) || emu_vm_family(name, oi) || emu_ds_family(name, oi) ||
           emu_vmfmt_family(name, oi) || emu_mimg_family(name, oi);
}

static void build(void)
{
    for (unsigned op = 1; op < RDX_ISA_OP_COUNT; op++) {
        const char *n = rdx_isa_op_name((rdx_isa_op)op);
        if (!n)
            continue;
        emu_opinfo oi = { 0 };
        char buf[64];
        /* LLVM's suffixed spellings are not op names, but the JSON has a few _e32 names */
        size_t len = strlen(n);
        if (len < sizeof buf) {
            memcpy(buf, n, len + 1);
            if (len > 4 && !strcmp(buf + len - 4, "_e32"))
                buf[len - 4] = 0;
            if (lookup(buf, &oi)) {
                table[op] = oi;
                continue;
            }
            if (!strncmp(buf, "v_dual_", 7)) {
                char plain[64];
                snprintf(plain, sizeof plain, "v_%s", buf + 7);
                if (lookup(plain, &oi))
                    table[op] = oi;
            }
        }
    }
}

const emu_opinfo *emu_op_info(unsigned op)
{
    pthread_once(&once, build);
    if (op >= RDX_ISA_OP_COUNT)
        return NULL;
    return &table[op];
}

const char *emu_op_name(unsigned op)
{
    const char *n = op < RDX_ISA_OP_COUNT ? rdx_isa_op_name((rdx_isa_op)op) : NULL;
    return n ? n : "?";
}
