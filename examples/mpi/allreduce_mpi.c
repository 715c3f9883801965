/*
 * examples/mpi/allreduce_mpi.c — an allreduce across processes, each driving
 * the GPUs of its own machine, with MPI between the processes (Debian's Open
 * MPI; built when it is installed).
 *
 *   mpirun -np 2 build/examples/mpi/allreduce_mpi [GPUS [MIB]]
 *
 * Every process opens GPUS (default 2) GPUs — emulated ones here: each
 * process has an emulated machine of its own, as each node of a cluster has
 * its cards — and fills one buffer per GPU.  The allreduce over all
 * processes x GPUs is hierarchical, as on a cluster:
 *
 *   1. within the process, a ring reduce-scatter over its GPUs
 *      (rdx_reduce_scatter): GPU i holds the process's sum of chunk i;
 *   2. between the processes, MPI_Allreduce of each chunk, each GPU's chunk
 *      through host memory (one MPI call over the chunks together);
 *   3. within the process, a ring all-gather (rdx_allgather): every GPU holds
 *      the sum over all processes and GPUs.
 *
 * So between the processes each process sends and receives what MPI's
 * allreduce of one buffer costs (the chunks of all its GPUs, once), and within
 * a process each GPU moves 2(G-1)/G of the buffer.  Every element is checked
 * (sums of small integers: exact); exit 1 on a mismatch.  Rank 0 prints the
 * summary.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/rdx.h>

static float value(int rank, uint32_t gpu, uint64_t k)
{
    return (float)((k * 5 + (uint64_t)rank * 11 + gpu * 3) % 13) - 6.0f;
}

static int fail(int rank, const char *what)
{
    fprintf(stderr, "allreduce_mpi: rank %d: %s: %s\n", rank, what, rdx_error_message());
    return 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    uint32_t gpus = argc > 1 ? (uint32_t)atoi(argv[1]) : 2;
    uint64_t mib = argc > 2 ? (uint64_t)atoll(argv[2]) : 1;
    uint64_t count = (mib << 20) / 4, bytes = count * 4;
    int rc = 0;
    rdx_device *d[RDX_MAX_GPUS] = { 0 };
    rdx_buffer *b[RDX_MAX_GPUS] = { 0 };
    float *host = malloc(bytes);
    rdx_device_options o = { .kind = RDX_DEVICE_EMU, .quiet = true, .emu_gpus = gpus };
    /* a rank that fails still takes part in every MPI call (the others would wait for it) */
    if (!host || gpus < 1 || gpus > RDX_MAX_GPUS || rdx_device_open_all(&o, gpus, d)) {
        rc = fail(rank, "opening the GPUs");
        gpus = 0;
    }
    for (uint32_t i = 0; i < gpus && !rc; i++) {
        for (uint64_t k = 0; k < count; k++)
            host[k] = value(rank, i, k);
        if (rdx_buffer_alloc(d[i], bytes, RDX_MEM_DEVICE, &b[i]) ||
            rdx_buffer_upload(b[i], 0, host, bytes))
            rc = fail(rank, "uploading");
    }
    rdx_collective_stats rs = { 0 }, ag = { 0 };
    rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32);
    double t0 = MPI_Wtime();
    /* 1. within the process */
    if (!rc && rdx_reduce_scatter(d, gpus, b, count, f32, &rs))
        rc = fail(rank, "reduce-scatter");
    /* 2. between the processes: each GPU's finished chunk through host memory */
    for (uint32_t i = 0; i < gpus && !rc; i++) {
        uint64_t n, off = rdx_collective_chunk(count, gpus, i, &n);
        if (n && rdx_buffer_download(b[i], off * 4, host + off, n * 4))
            rc = fail(rank, "downloading a chunk");
    }
    int any = rc;
    MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (!any && count > (uint64_t)INT32_MAX)
        any = 1; /* one MPI call takes an int count */
    if (!any)
        MPI_Allreduce(MPI_IN_PLACE, host, (int)count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    rc = rc || any;
    for (uint32_t i = 0; i < gpus && !rc; i++) {
        uint64_t n, off = rdx_collective_chunk(count, gpus, i, &n);
        if (n && rdx_buffer_upload(b[i], off * 4, host + off, n * 4))
            rc = fail(rank, "uploading a chunk");
    }
    /* 3. within the process */
    if (!rc && rdx_allgather(d, gpus, b, count, f32, &ag))
        rc = fail(rank, "all-gather");
    double secs = MPI_Wtime() - t0;
    /* every element of every GPU */
    uint64_t bad = 0;
    for (uint32_t i = 0; i < gpus && !rc; i++) {
        if (rdx_buffer_download(b[i], 0, host, bytes)) {
            rc = fail(rank, "downloading");
            break;
        }
        for (uint64_t k = 0; k < count; k++) {
            float want = 0;
            for (int r = 0; r < size; r++)
                for (uint32_t j = 0; j < gpus; j++)
                    want += value(r, j, k);
            bad += host[k] != want;
        }
    }
    if (bad) {
        fprintf(stderr, "allreduce_mpi: rank %d: %llu elements differ\n", rank,
                (unsigned long long)bad);
        rc = 1;
    }
    int all_rc = rc;
    MPI_Allreduce(MPI_IN_PLACE, &all_rc, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && !all_rc)
        printf("allreduce of %llu floats over %d processes x %u GPUs: every element of every "
               "GPU matches; within each process each GPU sent %llu bytes (reduce-scatter) + "
               "%llu (all-gather), %u peer copies, %u reduction kernels; between the processes "
               "one MPI_Allreduce of %llu bytes; %.3f s\n",
               (unsigned long long)count, size, gpus, (unsigned long long)rs.bytes_sent[0],
               (unsigned long long)ag.bytes_sent[0], rs.copies + ag.copies, rs.kernels,
               (unsigned long long)bytes, secs);
    rc = all_rc;
    for (uint32_t i = 0; i < gpus && i < RDX_MAX_GPUS; i++) {
        rdx_buffer_free(b[i]);
        rdx_device_close(d[i]);
    }
    free(host);
    MPI_Finalize();
    return rc;
}
