/*
 * fuzz/fuzz_decode.c — libFuzzer target for the instruction decoder.
 *
 * The first input byte picks the target; the rest is decoded instruction by
 * instruction.  Every decoded instruction is re-encoded: the encoder may
 * reject it, but when it accepts it, decoding its bytes again must give the
 * same instruction and the same bytes (encode is a fixpoint of decode).
 * Build and run: make fuzz && build/fuzz/fuzz_decode -max_total_time=60
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/isa.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const rdx_isa_target *t = rdx_isa_target_at(data[0] % rdx_isa_target_count());
    data++;
    size--;
    size_t pos = 0;
    while (pos < size) {
        rdx_isa_inst in;
        size_t len = 0;
        if (rdx_isa_decode(t, data + pos, size - pos, &in, &len) != RDX_OK) {
            pos += 4;
            continue;
        }
        if (len == 0 || len > size - pos)
            abort();
        uint8_t out[RDX_ISA_MAX_BYTES];
        size_t elen = 0;
        if (rdx_isa_encode(t, &in, out, &elen) == RDX_OK) {
            rdx_isa_inst again;
            size_t alen = 0;
            uint8_t out2[RDX_ISA_MAX_BYTES];
            size_t elen2 = 0;
            if (rdx_isa_decode(t, out, elen, &again, &alen) != RDX_OK || alen != elen)
                abort();
            if (rdx_isa_encode(t, &again, out2, &elen2) != RDX_OK || elen2 != elen ||
                memcmp(out, out2, elen) != 0)
                abort();
        }
        pos += len;
    }
    return 0;
}
