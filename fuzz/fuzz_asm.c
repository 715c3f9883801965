/*
 * fuzz/fuzz_asm.c — libFuzzer target for the assembler and the printer.
 *
 * The first input byte picks the target; the rest is assembled as a source
 * file.  Assembly must either succeed with no diagnostics or fail with at
 * least one.  Every instruction it produced is then decoded and printed, and
 * the printed text must assemble again to the same bytes (print is a
 * fixpoint of assemble for rdx's own output).  Files with kernels or
 * metadata are also written as code objects.
 * Build and run: make fuzz && build/fuzz/fuzz_asm -max_total_time=60
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>
#include <rdx/isa.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const rdx_isa_target *t = rdx_isa_target_at(data[0] % rdx_isa_target_count());
    if (strcmp(t->name, "gfx1100") && strcmp(t->name, "gfx1201"))
        t = rdx_isa_target_find("gfx1100");
    rdx_asm_options o = { .filename = "fuzz.s", .arch = t->name };
    rdx_asm_result *r = NULL;
    rdx_status st = rdx_asm_assemble((const char *)data + 1, size - 1, &o, &r);
    if (st != RDX_OK && st != RDX_ERR_PARSE)
        return 0; /* out of memory */
    if (!r || (st == RDX_OK) != (r->ndiags == 0))
        abort();
    /* The code object, when the file has kernels (covers the metadata YAML reader). */
    if (st == RDX_OK && (r->nkernels || r->metadata)) {
        uint8_t *obj = NULL;
        size_t olen = 0;
        if (rdx_asm_write_codeobj(r, &obj, &olen) == RDX_OK)
            free(obj);
    }
    int text = rdx_asm_find_section(r, ".text");
    for (size_t i = 0; st == RDX_OK && text >= 0 && i < r->nstmts; i++) {
        const rdx_asm_stmt *s = &r->stmts[i];
        if (s->section != text || s->size < 4 || s->size > RDX_ISA_MAX_BYTES)
            continue;
        const uint8_t *b = r->sections[text].data + s->offset;
        rdx_isa_inst in;
        size_t len;
        char line[512];
        if (rdx_isa_decode(t, b, s->size, &in, &len) != RDX_OK || len != s->size)
            continue; /* data directives land in .text too */
        if (rdx_asm_print_inst(t, &in, line, sizeof line) != RDX_OK)
            abort();
        uint8_t again[RDX_ISA_MAX_BYTES];
        size_t alen;
        if (in.op == RDX_ISA_OP_NONE)
            continue;
        if (rdx_asm_assemble_inst(t, line, again, &alen) == RDX_OK &&
            (alen != s->size || memcmp(again, b, alen)))
            abort();
    }
    rdx_asm_free(r);
    return 0;
}
