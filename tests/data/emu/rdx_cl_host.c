/*
 * rdx_cl_host.c — the host runner of the emulator kernel corpus.
 *
 * Linked at test time with one kernel compiled for the host through rdx_cl.h and a
 * generated entry `void rdx_cl_host_entry(void *const *args)` that calls the kernel
 * with the argument vector.  The runner reads one dispatch from stdin, runs every
 * work-group in order (z, y, x), writes every buffer argument back to stdout.
 *
 * Work-items of a group run as ucontext coroutines on one host thread: a work-item
 * runs until it reaches barrier(), a wave operation or returns; when every
 * work-item of the group is at the barrier they all continue, and when every
 * work-item of a wave (wave_size consecutive local linear IDs) has reached a wave
 * operation, that wave continues, each reading the values its wave-mates deposited.
 * Single-threaded and in a fixed order, so the results (even of atomics) are
 * deterministic.  A group where some work-items return while others wait at a
 * barrier, or a wave operation not reached by the whole wave, is reported: exit 3.
 *
 * Request (native byte order):  u32 'RDXQ', u32 grid[3] (work-items), u32 block[3],
 *   u32 nargs, u32 wave size (32 or 64), then per argument: u32 kind (0 buffer,
 *   1 scalar), u32 0, u64 nbytes, nbytes of data.
 * Reply: u32 'RDXA', then per buffer argument in order: u64 nbytes, the bytes.
 * Exit status: 0 ok, 2 bad request, 3 divergent barrier, 4 out of memory, 5 a write
 * past the end of an argument buffer (256 canary bytes follow each).
 */
#define _GNU_SOURCE
#include "rdx_cl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#define RDX_CL_MAGIC_REQ 0x51584452u /* "RDXQ" */
#define RDX_CL_MAGIC_REP 0x41584452u /* "RDXA" */
#define MAX_ARGS 32
#define MAX_ITEMS 1024
#define STACK_SIZE (512u * 1024u)
#define GUARD_SIZE 4096u
#define CANARY 256u

void rdx_cl_host_entry(void *const *args);

rdx_cl_item rdx_cl_cur;

enum { ITEM_READY, ITEM_BARRIER, ITEM_WAVE, ITEM_DONE };

typedef struct item {
    ucontext_t ctx;
    int state;
    uint local_id[3];
    unsigned phase; /* wave operations done: selects the slot buffer */
} item;

static ucontext_t sched_ctx;
static item items[MAX_ITEMS];
static int cur_item;
static void *const *cur_args;
/* values deposited by wave operations, by local linear id, double-buffered by phase */
static uint64_t wave_slots[2][MAX_ITEMS];
static int group_count; /* work-items in the running group */

static void item_main(void)
{
    rdx_cl_host_entry(cur_args);
    items[cur_item].state = ITEM_DONE;
    /* returning resumes uc_link: the scheduler */
}

const uint64_t *rdx_cl_host_wave_exchange(uint64_t v)
{
    item *it = &items[cur_item];
    uint ws = rdx_cl_cur.wave_size;
    int first = cur_item / (int)ws * (int)ws;
    if (first + (int)ws > group_count) {
        fprintf(stderr, "rdx_cl_host: wave operation in a partial wave (group of %d work-items, "
                        "wave size %u)\n", group_count, ws);
        exit(3);
    }
    unsigned ph = it->phase & 1u;
    wave_slots[ph][cur_item] = v;
    it->state = ITEM_WAVE;
    if (swapcontext(&it->ctx, &sched_ctx) != 0) {
        perror("swapcontext");
        exit(4);
    }
    it->phase++;
    return &wave_slots[ph][first];
}

void rdx_cl_host_barrier(void)
{
    items[cur_item].state = ITEM_BARRIER;
    if (swapcontext(&items[cur_item].ctx, &sched_ctx) != 0) {
        perror("swapcontext");
        exit(4);
    }
}

static void die(int code, const char *msg)
{
    fprintf(stderr, "rdx_cl_host: %s\n", msg);
    exit(code);
}

static void read_exact(void *p, size_t n)
{
    if (n && fread(p, 1, n, stdin) != n)
        die(2, "truncated request");
}

static void write_exact(const void *p, size_t n)
{
    if (n && fwrite(p, 1, n, stdout) != n)
        die(2, "cannot write reply");
}

/* Set up work-item i of a group of n[0] x n[1] x n[2] to start at item_main.
 * (A function of its own: getcontext returns twice.) */
static void init_item(int i, const uint n[3], char *stacks)
{
    item *it = &items[i];
    it->local_id[0] = (uint)i % n[0];
    it->local_id[1] = ((uint)i / n[0]) % n[1];
    it->local_id[2] = (uint)i / (n[0] * n[1]);
    it->state = ITEM_READY;
    it->phase = 0;
    if (getcontext(&it->ctx) != 0)
        die(4, "getcontext failed");
    it->ctx.uc_stack.ss_sp = stacks + (size_t)i * (STACK_SIZE + GUARD_SIZE) + GUARD_SIZE;
    it->ctx.uc_stack.ss_size = STACK_SIZE;
    it->ctx.uc_link = &sched_ctx;
    makecontext(&it->ctx, item_main, 0);
}

/* Run one work-group; returns 0, or 3 after reporting a divergent barrier. */
static int run_group(char *stacks, const uint group[3])
{
    uint n[3];
    for (int d = 0; d < 3; d++) {
        rdx_cl_cur.group_id[d] = group[d];
        uint start = group[d] * rdx_cl_cur.enqueued_size[d];
        uint left = rdx_cl_cur.global_size[d] - start;
        n[d] = left < rdx_cl_cur.enqueued_size[d] ? left : rdx_cl_cur.enqueued_size[d];
        rdx_cl_cur.local_size[d] = n[d];
    }
    int count = (int)(n[0] * n[1] * n[2]);
    group_count = count;
    for (int i = 0; i < count; i++)
        init_item(i, n, stacks);
    int ws = (int)rdx_cl_cur.wave_size;
    for (;;) {
        for (int i = 0; i < count; i++) {
            if (items[i].state != ITEM_READY)
                continue;
            cur_item = i;
            memcpy(rdx_cl_cur.local_id, items[i].local_id, sizeof rdx_cl_cur.local_id);
            rdx_cl_cur.lane = (uint)(i % ws);
            if (swapcontext(&sched_ctx, &items[i].ctx) != 0)
                die(4, "swapcontext failed");
        }
        /* waves whose every work-item waits at a wave operation go on */
        int released = 0;
        for (int w = 0; w < count; w += ws) {
            int all = 1;
            for (int i = w; i < w + ws && i < count; i++)
                all &= items[i].state == ITEM_WAVE;
            for (int i = w; all && i < w + ws && i < count; i++)
                items[i].state = ITEM_READY;
            released |= all;
        }
        if (released)
            continue;
        int done = 0, waiting = 0, wave = 0;
        for (int i = 0; i < count; i++) {
            done += items[i].state == ITEM_DONE;
            waiting += items[i].state == ITEM_BARRIER;
            wave += items[i].state == ITEM_WAVE;
        }
        if (done == count)
            return 0;
        if (wave) {
            fprintf(stderr,
                    "rdx_cl_host: divergent wave operation in group (%u,%u,%u): %d work-items "
                    "wait at a wave operation, %d at a barrier, %d returned\n",
                    group[0], group[1], group[2], wave, waiting, done);
            return 3;
        }
        if (done) {
            fprintf(stderr,
                    "rdx_cl_host: divergent barrier in group (%u,%u,%u): %d work-items returned, "
                    "%d wait at a barrier\n",
                    group[0], group[1], group[2], done, waiting);
            return 3;
        }
        for (int i = 0; i < count; i++)
            items[i].state = ITEM_READY;
    }
}

int main(void)
{
    uint32_t hdr[9];
    read_exact(hdr, sizeof hdr);
    if (hdr[0] != RDX_CL_MAGIC_REQ)
        die(2, "bad request magic");
    uint grid[3] = { hdr[1], hdr[2], hdr[3] }, block[3] = { hdr[4], hdr[5], hdr[6] };
    uint32_t nargs = hdr[7];
    if (hdr[8] != 32 && hdr[8] != 64)
        die(2, "wave size must be 32 or 64");
    rdx_cl_cur.wave_size = hdr[8];
    if (nargs > MAX_ARGS)
        die(2, "too many arguments");
    uint64_t items_per_group = 1;
    for (int d = 0; d < 3; d++) {
        if (grid[d] == 0 || block[d] == 0)
            die(2, "zero grid or block size");
        items_per_group *= block[d];
    }
    if (items_per_group > MAX_ITEMS)
        die(2, "work-group larger than 1024 work-items");

    void *args[MAX_ARGS];
    uint32_t kinds[MAX_ARGS];
    uint64_t sizes[MAX_ARGS];
    for (uint32_t i = 0; i < nargs; i++) {
        uint32_t kind[2];
        read_exact(kind, sizeof kind);
        read_exact(&sizes[i], sizeof sizes[i]);
        kinds[i] = kind[0];
        if (kinds[i] > 1 || sizes[i] > ((uint64_t)1 << 32))
            die(2, "bad argument header");
        /* CANARY bytes after each argument catch a kernel writing past its end */
        args[i] = aligned_alloc(256, ((size_t)sizes[i] + CANARY + 255) / 256 * 256);
        if (!args[i])
            die(4, "out of memory");
        read_exact(args[i], (size_t)sizes[i]);
        memset((char *)args[i] + sizes[i], 0xa5, CANARY);
    }

    size_t stacks_len = (size_t)items_per_group * (STACK_SIZE + GUARD_SIZE);
    char *stacks = mmap(NULL, stacks_len, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (stacks == MAP_FAILED)
        die(4, "cannot map work-item stacks");
    for (uint64_t i = 0; i < items_per_group; i++)
        mprotect(stacks + i * (STACK_SIZE + GUARD_SIZE), GUARD_SIZE, PROT_NONE);

    for (int d = 0; d < 3; d++) {
        rdx_cl_cur.enqueued_size[d] = block[d];
        rdx_cl_cur.num_groups[d] = (grid[d] + block[d] - 1) / block[d];
        rdx_cl_cur.global_size[d] = grid[d];
    }
    cur_args = args;
    uint g[3];
    for (g[2] = 0; g[2] < rdx_cl_cur.num_groups[2]; g[2]++)
        for (g[1] = 0; g[1] < rdx_cl_cur.num_groups[1]; g[1]++)
            for (g[0] = 0; g[0] < rdx_cl_cur.num_groups[0]; g[0]++) {
                int rc = run_group(stacks, g);
                if (rc)
                    return rc;
            }

    for (uint32_t i = 0; i < nargs; i++)
        for (uint32_t k = 0; k < CANARY; k++)
            if (((unsigned char *)args[i])[sizes[i] + k] != 0xa5) {
                fprintf(stderr, "rdx_cl_host: the kernel wrote past the end of argument %u "
                        "(%llu bytes), at byte %llu\n", i, (unsigned long long)sizes[i],
                        (unsigned long long)(sizes[i] + k));
                return 5;
            }

    uint32_t magic = RDX_CL_MAGIC_REP;
    write_exact(&magic, sizeof magic);
    for (uint32_t i = 0; i < nargs; i++) {
        if (kinds[i] != 0)
            continue;
        write_exact(&sizes[i], sizeof sizes[i]);
        write_exact(args[i], (size_t)sizes[i]);
    }
    if (fflush(stdout) != 0)
        die(2, "cannot write reply");
    for (uint32_t i = 0; i < nargs; i++)
        free(args[i]);
    munmap(stacks, stacks_len);
    return 0;
}
