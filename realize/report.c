/* realize/report.c — the realization report (free, print) and the element
 * comparison used to check device results against the interpreter. */
#include <math.h>
#include <stdlib.h>

#include <rdx/realize.h>

void rdx_realize_report_free(rdx_realize_report *r)
{
    if (!r)
        return;
    for (size_t k = 0; r->kernels && k < r->nkernels; k++)
        for (int st = 0; st < RDX_CG_STAGE_COUNT; st++)
            free(r->kernels[k].stage_text[st]);
    free(r->kernels);
    free(r);
}

void rdx_realize_report_print(const rdx_realize_report *r, FILE *f)
{
    if (!r || !f)
        return;
    int est = r->total_cycles > 0;
    fprintf(f, "%-3s %-20s %12s %8s %12s %12s %12s %5s %5s\n", "#", "kernel", "GPU us", "compile",
            est ? "est. cycles" : "", est ? "kernel cyc" : "", est ? "wave-insts" : "", "SGPR",
            "VGPR");
    for (size_t k = 0; k < r->nkernels; k++) {
        const rdx_realize_kernel *rk = &r->kernels[k];
        char c[24] = "", kc[24] = "", w[24] = "";
        if (est) {
            snprintf(c, sizeof c, "%llu", (unsigned long long)rk->est_cycles);
            snprintf(kc, sizeof kc, "%llu", (unsigned long long)rk->est_kernel_cycles);
            snprintf(w, sizeof w, "%llu", (unsigned long long)rk->wave_insts);
        }
        fprintf(f, "%-3zu %-20s %12.3f %6.2fms %12s %12s %12s %5u %5u\n", k, rk->name,
                (double)rk->gpu_ns / 1e3, rk->compile_ms, c, kc, w, rk->num_sgprs, rk->num_vgprs);
    }
    fprintf(f, "total %llu ns GPU time on %s, %zu kernels (%s), %.2f ms compile",
            (unsigned long long)r->total_ns, r->os, r->nkernels, r->device, r->compile_ms);
    if (est)
        fprintf(f, ", %llu estimated cycles (%llu kernel cycles), %llu wave-instructions",
                (unsigned long long)r->total_cycles, (unsigned long long)r->total_kernel_cycles,
                (unsigned long long)r->total_wave_insts);
    fprintf(f, "\nmemory plan: %zu buffers, peak %llu bytes with reuse vs %llu without\n",
            r->nbuffers, (unsigned long long)r->memory.arena,
            (unsigned long long)r->memory.no_reuse);
}

static int close_enough(const rdx_array *want, const rdx_array *got, int64_t i, double rtol)
{
    if (!rdx_dtype_is_float(want->dtype))
        return rdx_array_get_int(want, i) == rdx_array_get_int(got, i);
    double a = rdx_array_get(want, i), b = rdx_array_get(got, i);
    return (isnan(a) && isnan(b)) || a == b || fabs(a - b) <= rtol * (fabs(a) > 1 ? fabs(a) : 1);
}

int64_t rdx_realize_compare(const rdx_array *want, const rdx_array *got, double rtol,
                            int64_t *first)
{
    int64_t bad = 0, f = -1;
    if (!want || !got || want->numel != got->numel || want->dtype.scalar != got->dtype.scalar ||
        rdx_dtype_itemsize(want->dtype) != rdx_dtype_itemsize(got->dtype)) {
        bad = want && got ? (want->numel > got->numel ? want->numel : got->numel) : 1;
        f = 0;
    } else {
        for (int64_t i = 0; i < want->numel; i++)
            if (!close_enough(want, got, i, rtol) && bad++ == 0)
                f = i;
    }
    if (first)
        *first = f;
    return bad;
}
