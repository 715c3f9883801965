/*
 * emu/run/codeobj.c — one dispatch of a code object's kernel straight on the
 * wave emulator (rdx_emu_run_codeobj / rdx_emu_run_kernel): read the ELF,
 * register code, kernarg and buffers, dispatch from the kernel descriptor,
 * unregister.  Uses only the public emulator and code-object APIs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/codeobj.h>
#include <rdx/emu.h>

#include "emu/core/emu_int.h"
#include "util/error.h"

#define PAGE 4096u

/* The kernel named `name` (NULL: the only one) of co, or NULL after recording why. */
static const rdx_codeobj_kernel *find_kernel(const rdx_codeobj *co, const char *name)
{
    if (!name) {
        if (co->num_kernels == 1)
            return &co->kernels[0];
        if (co->num_kernels == 0) {
            rdx_fail(RDX_ERR_INVALID, "emu run: the code object has no kernel");
            return NULL;
        }
    } else {
        for (size_t i = 0; i < co->num_kernels; i++)
            if (!strcmp(co->kernels[i].name, name))
                return &co->kernels[i];
    }
    char list[256];
    size_t n = 0;
    list[0] = 0;
    for (size_t i = 0; i < co->num_kernels && n < sizeof list; i++)
        n +=
            (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", co->kernels[i].name);
    if (name)
        rdx_fail(RDX_ERR_INVALID, "emu run: no kernel '%s' in the code object (it has: %s)", name,
                 co->num_kernels ? list : "none");
    else
        rdx_fail(RDX_ERR_INVALID, "emu run: the code object has %zu kernels (%s); name one",
                 co->num_kernels, list);
    return NULL;
}

/* Whether bufs[i] repeats an earlier entry exactly (registered once). */
static int repeated(const rdx_emu_buffer *bufs, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (bufs[j].data == bufs[i].data && bufs[j].size == bufs[i].size)
            return 1;
    return 0;
}

rdx_status rdx_emu_run_kernel(rdx_emu *emu, const rdx_codeobj *co, const char *kernel,
                              const rdx_emu_launch *l)
{
    if (!emu || !co || !l)
        return rdx_fail(RDX_ERR_INVALID, "emu run: NULL %s",
                        !emu  ? "emulator"
                        : !co ? "code object"
                              : "launch");
    if (l->kernarg_size && !l->kernarg)
        return rdx_fail(RDX_ERR_INVALID, "emu run: kernarg_size %zu without kernarg bytes",
                        l->kernarg_size);
    if (l->nbufs && !l->bufs)
        return rdx_fail(RDX_ERR_INVALID, "emu run: %zu buffers without a buffer list", l->nbufs);
    const rdx_codeobj_kernel *k = find_kernel(co, kernel);
    if (!k)
        return RDX_ERR_INVALID;
    /* the code object's generation must be the emulator's: gfx11 code (gfx110x, gfx115x) on an
       RDNA3/RDNA3.5 emulator, gfx12 code on an RDNA4 one */
    unsigned want = emu->target->family == RDX_ISA_FAMILY_RDNA4 ? 12 : 11;
    if (!co->target || co->target->major != want)
        return rdx_fail(RDX_ERR_UNSUPPORTED,
                        "emu run: kernel '%s' is built for %s, not for the emulator's %s (gfx%u)",
                        k->name, co->target ? co->target->name : "an unknown target",
                        emu->target->name, want);
    if (k->code_offset >= co->text_size)
        return rdx_fail(RDX_ERR_INVALID,
                        "emu run: kernel '%s' starts at .text+0x%llx, past the %zu code bytes",
                        k->name, (unsigned long long)k->code_offset, co->text_size);

    rdx_emu_dispatch d;
    memset(&d, 0, sizeof d);
    uint8_t kd[RDX_KERNEL_DESCRIPTOR_SIZE];
    rdx_status st = rdx_codeobj_kd_pack(&k->kd, want, kd);
    if (st)
        return rdx_fail_context(st, "emu run: descriptor of kernel '%s'", k->name);
    rdx_emu_dispatch_from_descriptor(&d, kd);

    size_t code_cap = (co->text_size + PAGE - 1) & ~(size_t)(PAGE - 1);
    size_t ka_size = l->kernarg_size > k->kd.kernarg_size ? l->kernarg_size : k->kd.kernarg_size;
    uint8_t *code = aligned_alloc(PAGE, code_cap);
    /* 128-byte aligned (a memory line): the kernel estimate's DRAM lines do not depend on
       where the copy lands */
    uint8_t *ka = ka_size ? aligned_alloc(128, (ka_size + 127) & ~(size_t)127) : NULL;
    if (!code || (ka_size && !ka)) {
        free(code);
        free(ka);
        return rdx_fail(RDX_ERR_NOMEM, "emu run: out of memory for kernel '%s'", k->name);
    }
    memset(code, 0, code_cap);
    memcpy(code, co->text, co->text_size);
    if (ka) {
        memset(ka, 0, ka_size);
        if (l->kernarg_size)
            memcpy(ka, l->kernarg, l->kernarg_size);
    }

    /* Register code, kernarg, buffers; `nmapped` buffers (in order) succeeded. */
    st = rdx_emu_map_labeled(emu, (uint64_t)(uintptr_t)code, code_cap, RDX_EMU_READ, "code");
    int code_mapped = st == RDX_OK, ka_mapped = 0;
    if (!st && ka) {
        st = rdx_emu_map_labeled(emu, (uint64_t)(uintptr_t)ka, ka_size, RDX_EMU_READ, "kernarg");
        ka_mapped = st == RDX_OK;
    }
    size_t nmapped = 0;
    for (; !st && nmapped < l->nbufs; nmapped++) {
        const rdx_emu_buffer *b = &l->bufs[nmapped];
        if (!b->size || repeated(l->bufs, nmapped))
            continue;
        char label[32]; /* names it in fault reports: "... of the 64-byte buffer 2 at ..." */
        snprintf(label, sizeof label, "buffer %zu", nmapped);
        st = rdx_emu_map_labeled(emu, (uint64_t)(uintptr_t)b->data, b->size,
                                 b->access ? b->access : RDX_EMU_RW, label);
        if (st) {
            rdx_fail_context(st, "emu run: buffer %zu (%zu bytes at %p)", nmapped, b->size,
                             b->data);
            break;
        }
    }
    if (!st) {
        d.code = (uint64_t)(uintptr_t)code + k->code_offset;
        d.kernarg = (uint64_t)(uintptr_t)ka;
        memcpy(d.grid, l->grid, sizeof d.grid);
        memcpy(d.wg, l->wg, sizeof d.wg);
        d.dynamic_lds_size = l->dynamic_lds_size;
        d.budget = l->budget;
        d.cancel = l->cancel;
        d.cycle_limit = l->cycle_limit;
        d.dispatch_budget = l->dispatch_budget;
        st = rdx_emu_run(emu, &d);
    }
    /* Unregister exactly what was registered (the message of st stays). */
    for (size_t i = 0; i < nmapped; i++)
        if (l->bufs[i].size && !repeated(l->bufs, i))
            (void)rdx_emu_unmap(emu, (uint64_t)(uintptr_t)l->bufs[i].data);
    if (ka_mapped)
        (void)rdx_emu_unmap(emu, (uint64_t)(uintptr_t)ka);
    if (code_mapped)
        (void)rdx_emu_unmap(emu, (uint64_t)(uintptr_t)code);
    free(ka);
    free(code);
    return st;
}

rdx_status rdx_emu_run_codeobj(rdx_emu *emu, const void *elf, size_t size, const char *kernel,
                               const rdx_emu_launch *launch)
{
    if (!emu || !elf || !launch)
        return rdx_fail(RDX_ERR_INVALID, "emu run: NULL %s",
                        !emu   ? "emulator"
                        : !elf ? "code object"
                               : "launch");
    rdx_codeobj *co = NULL;
    rdx_status st = rdx_codeobj_read(elf, size, "code object", &co);
    if (!st)
        st = rdx_emu_run_kernel(emu, co, kernel, launch);
    rdx_codeobj_free(co);
    return st;
}
