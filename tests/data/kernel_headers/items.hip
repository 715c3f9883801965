/* tests/data/kernel_headers/items.hip — threadIdx, blockIdx, blockDim,
 * gridDim, __syncthreads over __shared__ memory and the atomics of
 * rdx/hip.h, built with the header and no ROCm or HIP installation
 * (tests/kernel_headers compares with the host). */

#define REC 9 /* unsigneds per thread */

extern "C" __global__ void items(unsigned *rec)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned *r = rec + REC * (y * (gridDim.x * blockDim.x) + x);
    r[0] = threadIdx.x;
    r[1] = threadIdx.y;
    r[2] = blockIdx.x;
    r[3] = blockIdx.y;
    r[4] = blockDim.x;
    r[5] = blockDim.y;
    r[6] = gridDim.x;
    r[7] = gridDim.y;
    r[8] = warpSize + 1000 * (threadIdx.z + blockIdx.z + blockDim.z + gridDim.z);
}

/* Each block reverses its slice of in[] through shared memory. */
extern "C" __global__ void __launch_bounds__(256) reverse(const int *in, int *out)
{
    __shared__ int tile[256];
    unsigned l = threadIdx.x, n = blockDim.x, base = blockIdx.x * n;
    tile[l] = in[base + l];
    __syncthreads();
    out[base + l] = tile[n - 1 - l];
}

/* c[0] counts threads, c[1] = max id, c[2] = min id, c[3] = xor of ids,
 * c[4] set once by atomicCAS, c[5] the threads whose CAS won; f[0] sums
 * 0.5 per thread (exact). */
extern "C" __global__ void atomics(unsigned *c, float *f)
{
    unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(c, 1u);
    atomicMax(c + 1, id);
    atomicMin(c + 2, id);
    atomicXor(c + 3, id);
    if (atomicCAS(c + 4, 0u, id + 1) == 0u)
        atomicAdd(c + 5, 1u);
    atomicAdd(f, 0.5f);
    __threadfence();
}
