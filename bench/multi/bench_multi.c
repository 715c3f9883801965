/*
 * bench/multi — ALLREDUCE of 64 MiB of float32 over 2, 4 and 8 emulated GPUs
 * (rdx_allreduce, rdx/collective.h: a ring of peer SDMA copies and reduction
 * kernels), against the same reduction on one device in the same run (the N
 * vectors summed by one realized tensor program on GPU 0).
 *
 * Printed per N: the bytes each GPU sent and received (the ring's
 * 2(N-1)/N x size, checked: a difference fails the bench), the number of peer
 * copies and reduction kernels, the wall time of the collective and the
 * reduction kernels' GPU time — on the emulated GPU the emulation's wall
 * time, which says how much work each device did, not how fast cards would
 * be (the emulated machine runs its GPUs' queues one packet at a time) — and
 * the one-device reduction's kernel time for comparison.  The results are
 * checked against the host (sums of small integers: exact).
 *
 * Then a sharded element-wise program (min(MIB, 8) MiB, rows over the N GPUs)
 * realized by rdx_tensor_realize_multi with the devices at the same time and
 * one after another (RDX_MULTI_SERIAL): the wall time, the sum of the devices'
 * run times and their ratio (the overlap), and the emulated time (each GPU's
 * kernel time estimate; the program's is the largest, the serial one the sum).
 *
 * Then the data-parallel update w - 0.5 * allreduce(g) as one program (min(MIB, 4) MiB of
 * gradient per GPU): the allreduce inside it runs as the ring (the bytes GPU 0 sent, checked
 * against 2(N-1)/N x size), against the same program on one GPU.
 *
 * Usage: bench_multi [MIB [N...]]   (default 64 MiB over 2 4 8 GPUs)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdx/rdx.h>

static __attribute__((noreturn)) void die(const char *what)
{
    fprintf(stderr, "bench multi: %s: %s\n", what, rdx_error_message());
    exit(1);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Element k of GPU d's vector: small integers, so every sum is exact in float32. */
static float value(uint32_t d, uint64_t k)
{
    return (float)((k * 7 + d * 13) % 17) - 8.0f;
}

/* The one-device baseline: the n vectors summed by one tensor program on dev; its GPU time. */
static double one_device_ms(rdx_device *dev, uint32_t n, uint64_t count, float *host)
{
    rdx_graph *g;
    if (rdx_graph_create(&g, NULL))
        die("graph");
    int64_t dims = (int64_t)count;
    const rdx_tensor *sum = NULL;
    for (uint32_t d = 0; d < n; d++) {
        for (uint64_t k = 0; k < count; k++)
            host[k] = value(d, k);
        const rdx_tensor *t = rdx_tensor_from_data(g, rdx_dtype_of(RDX_FLOAT32), 1, &dims, host);
        sum = sum ? rdx_tensor_add(g, sum, t) : t;
    }
    rdx_array out;
    rdx_realize_report *rep;
    if (!sum || rdx_tensor_realize_on(g, dev, &sum, 1, NULL, &out, &rep))
        die("the one-device reduction");
    double ms = (double)rep->total_ns / 1e6;
    for (uint64_t k = 0; k < count; k += 4099) {
        float want = 0;
        for (uint32_t d = 0; d < n; d++)
            want += value(d, k);
        if (((const float *)out.data)[k] != want) {
            fprintf(stderr, "bench multi: one device: element %llu is %g, expected %g\n",
                    (unsigned long long)k, (double)((const float *)out.data)[k], (double)want);
            exit(1);
        }
    }
    rdx_realize_report_free(rep);
    rdx_graph_destroy(g);
    return ms;
}

/* A sharded element-wise program, relu(2x + 1) over x of `mib` MiB (rows sharded over the n
 * GPUs), realized with the devices at the same time and then one after another
 * (RDX_MULTI_SERIAL): the wall time of the devices' runs, the sum of each device's run (the
 * overlap is that sum over the wall time), and in a third, profiled run the emulated time —
 * each GPU's kernel time estimate (est. kernel cycles at its target's engine clock; the GPUs are
 * independent, so the program's emulated time is the largest, against the sum when they take
 * turns). */
static void overlap(rdx_device **d, uint32_t n, uint64_t mib, int *rc)
{
    static const char *const names[8] = { "AMD:0", "AMD:1", "AMD:2", "AMD:3",
                                          "AMD:4", "AMD:5", "AMD:6", "AMD:7" };
    int64_t cols = 1024, rows = (int64_t)(mib << 20) / 4 / cols;
    rows -= rows % n;
    float *x = malloc((size_t)(rows * cols) * sizeof *x);
    if (!x)
        die("out of memory");
    for (int64_t k = 0; k < rows * cols; k++)
        x[k] = value(0, (uint64_t)k);
    double wall[2] = { 0 }, busy[2] = { 0 }, emu_max = 0, emu_sum = 0;
    for (int run = 0; run < 4; run++) { /* a warm-up, concurrent, serial, profiled */
        int serial = run == 2, prof = run == 3, keep = run == 1 || run == 2;
        rdx_graph *g;
        if (rdx_graph_create(&g, NULL))
            die("graph");
        const rdx_tensor *t = rdx_tensor_from_data_on(g, rdx_dtype_of(RDX_FLOAT32), 2,
                                                      (int64_t[]){ rows, cols }, x, names, n);
        const rdx_tensor *y =
            t ? rdx_tensor_relu(g, rdx_tensor_adds(g, rdx_tensor_muls(g, t, 2), 1)) : NULL;
        rdx_realize_options o = { .profile = prof };
        rdx_array out;
        rdx_realize_multi_result *res;
        if (serial)
            setenv("RDX_MULTI_SERIAL", "1", 1);
        if (!y || rdx_tensor_realize_multi(g, d, n, &y, 1, &o, &out, &res))
            die("the sharded program");
        unsetenv("RDX_MULTI_SERIAL");
        for (int64_t k = 0; k < rows * cols; k += 4099) {
            float v = 2 * x[k] + 1, want = v > 0 ? v : 0;
            if (((const float *)out.data)[k] != want) {
                fprintf(stderr, "bench multi: sharded program element %lld is %g, expected %g\n",
                        (long long)k, (double)((const float *)out.data)[k], (double)want);
                *rc = 1;
                break;
            }
        }
        if (keep)
            wall[serial] = res->wall_ms;
        for (uint32_t i = 0; i < n; i++) {
            if (keep)
                busy[serial] += res->end_ms[i] - res->start_ms[i];
            else if (res->reports[i]) {
                double ms = (double)res->reports[i]->total_kernel_cycles /
                            rdx_emu_clock_mhz(rdx_device_get_info(d[i])->target); /* us */
                emu_sum += ms;
                emu_max = ms > emu_max ? ms : emu_max;
            }
        }
        rdx_realize_multi_result_free(res);
        rdx_graph_destroy(g);
    }
    printf("%-4u %12.1f %12.1f %9.2f %12.1f %12.1f %9.2f %12.3f %12.3f\n", n, wall[0], busy[0],
           wall[0] > 0 ? busy[0] / wall[0] : 0.0, wall[1], busy[1],
           wall[1] > 0 ? busy[1] / wall[1] : 0.0, emu_max, emu_sum);
    free(x);
}

/* The data-parallel update as one program: w - 0.5 * allreduce(g), g of `mib` MiB per GPU
 * (sharded over the n GPUs: GPU j's gradient is its shard), w sharded too (each GPU updates
 * its 1/n of the weights): the allreduce inside the program runs as the ring between the
 * GPUs (rdx_tensor_realize_multi), each GPU then its rows of the update.  Printed: the bytes
 * GPU 0 sent (must be 2(N-1)/N x size), ring copies and kernels, the local copies, the wall
 * time, and the same program on one GPU (the devices folded into it). */
static void update(rdx_device **d, uint32_t n, uint64_t mib, int *rc)
{
    static const char *const names[8] = { "AMD:0", "AMD:1", "AMD:2", "AMD:3",
                                          "AMD:4", "AMD:5", "AMD:6", "AMD:7" };
    int64_t cnt = (int64_t)(mib << 20) / 4;
    cnt -= cnt % n;
    int64_t len = cnt * n;
    float *gh = malloc((size_t)len * sizeof *gh), *wh = malloc((size_t)cnt * sizeof *wh);
    if (!gh || !wh)
        die("out of memory");
    for (uint32_t j = 0; j < n; j++)
        for (int64_t k = 0; k < cnt; k++)
            gh[j * cnt + k] = value(j, (uint64_t)k);
    for (int64_t k = 0; k < cnt; k++)
        wh[k] = value(n, (uint64_t)k);
    rdx_graph *g;
    if (rdx_graph_create(&g, NULL))
        die("graph");
    rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32);
    const rdx_tensor *tg = rdx_tensor_from_data_on(g, f32, 1, &len, gh, names, n);
    const rdx_tensor *tw = rdx_tensor_from_data_on(g, f32, 1, &cnt, wh, names, n);
    const rdx_tensor *y =
        tg && tw ? rdx_tensor_sub(g, tw, rdx_tensor_muls(g, rdx_tensor_allreduce(g, tg), 0.5))
                 : NULL;
    rdx_array out, one;
    rdx_realize_multi_result *res;
    double t0 = now_ms();
    if (!y || rdx_tensor_realize_multi(g, d, n, &y, 1, NULL, &out, &res))
        die("the data-parallel update");
    double wall = now_ms() - t0;
    t0 = now_ms();
    if (rdx_tensor_realize_on(g, d[0], &y, 1, NULL, &one, NULL))
        die("the update on one GPU");
    double wall1 = now_ms() - t0;
    for (int64_t k = 0; k < cnt; k += 997) {
        float sum = 0;
        for (uint32_t j = 0; j < n; j++)
            sum += value(j, (uint64_t)k);
        float want = wh[k] - 0.5f * sum;
        if (((const float *)out.data)[k] != want || ((const float *)one.data)[k] != want) {
            fprintf(stderr, "bench multi: update element %lld is %g (one GPU %g), expected %g\n",
                    (long long)k, (double)((const float *)out.data)[k],
                    (double)((const float *)one.data)[k], (double)want);
            *rc = 1;
            break;
        }
    }
    uint64_t ring = 2 * (uint64_t)(n - 1) * (uint64_t)cnt * 4 / n;
    for (uint32_t i = 0; i < n; i++)
        if (res->ring_bytes_sent[i] != ring || res->inner_collectives != 1) {
            fprintf(stderr, "bench multi: update: GPU %u sent %llu bytes, the ring moves %llu\n", i,
                    (unsigned long long)res->ring_bytes_sent[i], (unsigned long long)ring);
            *rc = 1;
        }
    printf("%-4u %14llu %14llu %7u %7u %7u %10.1f %12.1f\n", n,
           (unsigned long long)res->ring_bytes_sent[0], (unsigned long long)ring, res->ring_copies,
           res->ring_kernels, res->local_copies, wall, wall1);
    rdx_realize_multi_result_free(res);
    rdx_graph_destroy(g);
    free(gh);
    free(wh);
}

/* section(d, n, mib, rc) on n freshly opened emulated GPUs, for each n of ns[0..nn). */
static void on_gpus(const uint32_t *ns, uint32_t nn,
                    void (*section)(rdx_device **, uint32_t, uint64_t, int *), uint64_t mib,
                    int *rc)
{
    for (uint32_t t = 0; t < nn; t++) {
        uint32_t n = ns[t];
        rdx_device *d[RDX_MAX_GPUS];
        rdx_device_options o = { .kind = RDX_DEVICE_EMU, .quiet = true, .emu_gpus = n };
        if (rdx_device_open_all(&o, n, d))
            die("opening the GPUs");
        section(d, n, mib, rc);
        for (uint32_t i = 0; i < n; i++)
            if (rdx_device_close(d[i]))
                die("closing");
    }
}

int main(int argc, char **argv)
{
    uint64_t mib = argc > 1 ? strtoull(argv[1], NULL, 10) : 64;
    uint32_t ns[8] = { 2, 4, 8 }, nn = 3;
    if (argc > 2) {
        nn = 0;
        for (int i = 2; i < argc && nn < 8; i++)
            ns[nn++] = (uint32_t)strtoul(argv[i], NULL, 10);
    }
    if (mib < 1 || mib > 1024)
        die("MIB must be 1..1024");
    uint64_t bytes = mib << 20, count = bytes / 4;
    float *host = malloc(bytes);
    if (!host)
        die("out of memory");
    printf("allreduce of %llu MiB of float32 (%llu elements), emulated gfx1100 GPUs\n",
           (unsigned long long)mib, (unsigned long long)count);
    printf("%-4s %14s %14s %7s %7s %10s %12s %12s %8s\n", "GPUs", "sent/GPU", "2(N-1)/N*size",
           "copies", "kernels", "wall ms", "kernel ms", "1-dev ms", "ratio");
    int rc = 0;
    for (uint32_t t = 0; t < nn; t++) {
        uint32_t n = ns[t];
        rdx_device *d[RDX_MAX_GPUS];
        rdx_buffer *b[RDX_MAX_GPUS];
        rdx_device_options o = { .kind = RDX_DEVICE_EMU, .quiet = true, .emu_gpus = n };
        if (n < 2 || n > RDX_MAX_GPUS || rdx_device_open_all(&o, n, d))
            die("opening the GPUs");
        for (uint32_t i = 0; i < n; i++) {
            for (uint64_t k = 0; k < count; k++)
                host[k] = value(i, k);
            if (rdx_buffer_alloc(d[i], bytes, RDX_MEM_DEVICE, &b[i]) ||
                rdx_buffer_upload(b[i], 0, host, bytes))
                die("uploading");
        }
        rdx_collective_stats st;
        double t0 = now_ms();
        if (rdx_allreduce(d, n, b, count, rdx_dtype_of(RDX_FLOAT32), &st))
            die("allreduce");
        double wall = now_ms() - t0;
        /* check every GPU's result on a sample, and the traffic */
        for (uint32_t i = 0; i < n; i++) {
            if (rdx_buffer_download(b[i], 0, host, bytes))
                die("downloading");
            for (uint64_t k = 0; k < count; k += 997) {
                float want = 0;
                for (uint32_t j = 0; j < n; j++)
                    want += value(j, k);
                if (host[k] != want) {
                    fprintf(stderr, "bench multi: GPU %u element %llu is %g, expected %g\n", i,
                            (unsigned long long)k, (double)host[k], (double)want);
                    rc = 1;
                    break;
                }
            }
        }
        uint64_t ring = 2 * (uint64_t)(n - 1) * bytes / n;
        for (uint32_t i = 0; i < n; i++)
            if (count % n == 0 && (st.bytes_sent[i] != ring || st.bytes_received[i] != ring)) {
                fprintf(stderr,
                        "bench multi: GPU %u sent %llu and received %llu bytes, the ring "
                        "moves %llu\n",
                        i, (unsigned long long)st.bytes_sent[i],
                        (unsigned long long)st.bytes_received[i], (unsigned long long)ring);
                rc = 1;
            }
        for (uint32_t i = 0; i < n; i++)
            rdx_buffer_free(b[i]);
        double one = one_device_ms(d[0], n, count, host);
        printf("%-4u %14llu %14llu %7u %7u %10.1f %12.1f %12.1f %8.2f\n", n,
               (unsigned long long)st.bytes_sent[0], (unsigned long long)ring, st.copies,
               st.kernels, wall, (double)st.kernel_ns / 1e6, one,
               one > 0 ? (double)st.kernel_ns / 1e6 / one : 0.0);
        for (uint32_t i = 0; i < n; i++)
            if (rdx_device_close(d[i]))
                die("closing");
    }
    printf("ratio: the ring's reduction kernel time (all GPUs, summed) over the one-device "
           "reduction's; per GPU it is 1/N of that sum\n");
    uint64_t omib = mib < 8 ? mib : 8;
    printf(
        "\nsharded relu(2x+1) over %llu MiB, the devices at the same time vs one after another\n",
        (unsigned long long)omib);
    printf("%-4s %12s %12s %9s %12s %12s %9s %12s %12s\n", "GPUs", "wall ms", "sum ms", "overlap",
           "serial wall", "serial sum", "overlap", "emu us", "emu serial");
    on_gpus(ns, nn, overlap, omib, &rc);
    printf("wall/sum ms: the devices' runs after compiling (upload, kernels, download), the sum "
           "of each device's; overlap = sum / wall (1 = one at a time); emu us: the largest GPU's "
           "kernel time estimate (a profiled run, at its engine clock), emu serial: their sum\n");
    uint64_t umib = mib < 4 ? mib : 4;
    printf("\ndata-parallel update w - 0.5 * allreduce(g) as one program, %llu MiB of gradient "
           "per GPU\n",
           (unsigned long long)umib);
    printf("%-4s %14s %14s %7s %7s %7s %10s %12s\n", "GPUs", "sent/GPU", "2(N-1)/N*size", "copies",
           "kernels", "local", "wall ms", "1-GPU ms");
    on_gpus(ns, nn, update, umib, &rc);
    printf("wall ms: compile and run of the program on the N GPUs (the ring between its two "
           "stages); 1-GPU ms: the same program on GPU 0 alone\n");
    free(host);
    return rc;
}
