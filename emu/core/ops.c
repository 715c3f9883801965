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

static emu_opinfo table[RDX_ISA_OP_COUNT];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int lookup(const char *name, emu_opinfo *oi)
{
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
