/*
 * tools/prof_sqtt.c — `rdx prof --decode-sqtt FILE [CODEOBJ]`: decode an SQ thread
 * trace (a card's or the emulated GPU's, rdx/sqtt.h), print what it holds and,
 * with the kernel's code object, how often each instruction of the traced waves
 * appears and when it first and last issued.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/asm.h>
#include <rdx/codeobj.h>
#include <rdx/isa.h>
#include <rdx/sqtt.h>

#include "tools/cli.h"
#include "tools/prof.h"
#include "util/error.h"
#include "util/file.h"

int prof_decode_sqtt(const char *path, const char *co_path, const char *kernel)
{
    uint8_t *d = NULL, *elf = NULL;
    size_t n = 0, elen = 0, np = 0, nm = 0;
    rdx_sqtt_packet *p = NULL;
    rdx_sqtt_inst *mi = NULL;
    rdx_codeobj *co = NULL;
    int rc = RDX_EXIT_OK;
    if (rdx_file_read(path, &d, &n) || rdx_sqtt_decode(d, n, &p, &np)) {
        rc = rdx_cli_fail("prof");
        goto out;
    }
    unsigned cnt[25] = { 0 }, mono = 1;
    for (size_t i = 0; i < np; i++) {
        cnt[p[i].type < 25 ? p[i].type : 0]++;
        mono &= i == 0 || p[i].time >= p[i - 1].time;
    }
    printf("sqtt: %s: %zu bytes, %zu packets, layout %u, time 0..%llu%s\n", path, n, np,
           np ? p[np - 1].layout : 3, np ? (unsigned long long)p[np - 1].time : 0ull,
           mono ? "" : " (NOT monotonic)");
    printf("  ");
    for (int t = 1; t < 25; t++)
        if (cnt[t])
            printf(" %s %u", rdx_sqtt_type_name(t), cnt[t]);
    printf("\n");
    if (!co_path)
        goto out;
    if (!np) { /* nothing to map to the code object's instructions */
        fprintf(stderr, "rdx prof: %s: the trace holds no packets\n", path);
        rc = RDX_EXIT_FAIL;
        goto out;
    }
    if (rdx_file_read(co_path, &elf, &elen) || rdx_codeobj_read(elf, elen, co_path, &co)) {
        rc = rdx_cli_fail("prof");
        goto out;
    }
    const rdx_codeobj_kernel *k = NULL;
    for (size_t i = 0; i < co->num_kernels; i++)
        if (!kernel || !strcmp(co->kernels[i].name, kernel))
            k = k ? k : &co->kernels[i];
    if (!k || k->code_offset >= co->text_size) {
        rc = rdx_cli_usage_error("prof", "%s: no kernel%s%s", co_path, kernel ? " " : "",
                                 kernel ? kernel : "");
        goto out;
    }
    const uint8_t *code = co->text + k->code_offset;
    size_t csize = co->text_size - k->code_offset;
    if (rdx_sqtt_map(p, np, code, csize, 0, 32, &mi, &nm)) {
        rc = rdx_cli_fail("prof");
        goto out;
    }
    printf("the traced SIMD's waves (CU 0): %zu instructions of %s\n", nm, k->name);
    printf("%8s %8s %10s %10s  %s\n", "offset", "count", "first", "last", "instruction");
    const rdx_isa_target *t = rdx_isa_target_find(p[np - 1].layout == 4 ? "gfx1200" : "gfx1100");
    for (uint64_t off = 0; off < csize;) {
        uint64_t c = 0, first = 0, last = 0;
        for (size_t i = 0; i < nm; i++)
            if (mi[i].pc == off) {
                if (!c)
                    first = mi[i].time;
                last = mi[i].time;
                c++;
            }
        rdx_isa_inst ii;
        size_t len = 4;
        char text[128] = "?";
        if (t && rdx_isa_decode(t, code + off, csize - off, &ii, &len) == RDX_OK)
            rdx_asm_print_inst(t, &ii, text, sizeof text);
        if (c)
            printf("%8llx %8llu %10llu %10llu  %s\n", (unsigned long long)off,
                   (unsigned long long)c, (unsigned long long)first, (unsigned long long)last,
                   text);
        if (!strcmp(text, "s_endpgm") && off > (nm ? mi[nm - 1].pc : 0))
            break;
        off += len ? len : 4;
    }
out:
    free(mi);
    free(p);
    free(d);
    free(elf);
    rdx_codeobj_free(co);
    return rc;
}
