/*
 * bench/dispatch — the host cost of one dispatch through rdx/runtime.h (an
 * empty kernel, so the GPU's work is excluded) and the round-trip latency
 * (dispatch, then wait for its completion) on the emulated GPU, back to back
 * and from idle (the command processor asleep, woken by the doorbell store):
 * in process (KFD queues on rdx_emudev's OS table), and under `rdx emu`
 * through the libc table on both submission paths — KFD user queues (a ring
 * write and a doorbell) and the amdgpu DRM path (RDX_SUBMIT=drm: an
 * amdgpu_cs_submit ioctl per submission; docs/drm.md).
 *
 * Baselines measured in the same run: a memcpy of the same number of PM4
 * bytes into a ring-sized buffer (what any submission must at least do), a
 * plain (non-inlined) function call, and for the round trip a ping-pong
 * between two threads that hand a token over and back (spinning briefly,
 * then sleeping on a futex: what any completion that crosses to another
 * thread and back at least costs on this machine), and the doorbell watch's
 * own cost from idle, split into its steps: a thread sleeping in poll on a
 * userfaultfd that write-protects a shared page, another thread's store to
 * the page, the watcher awake, the protection lifted (UFFDIO_WRITEPROTECT),
 * the store returning — the mechanism that wakes an idle emulated command
 * processor (docs/kfd.md), without the emulator.  The kernel is encoded by
 * rdx's own encoder and wrapped in a code object by rdx's writer.
 */
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <rdx/isa.h>
#include <rdx/codeobj.h>
#include <rdx/runtime.h>

#define GOAL_NS      1000.0
#define TRIP_GOAL_NS 20000.0 /* a real card: ~10-20 us */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static __attribute__((noreturn)) void die(const char *what)
{
    fprintf(stderr, "bench dispatch: %s: %s\n", what, rdx_error_message());
    exit(1);
}

/* An empty kernel ("s_endpgm") in a code object written by rdx. */
static uint8_t *empty_code_object(size_t *len)
{
    const rdx_isa_target *t = rdx_isa_target_find("gfx1100");
    rdx_isa_inst in;
    memset(&in, 0, sizeof in);
    in.op = RDX_ISA_OP_S_ENDPGM;
    in.nopnd = 1;
    in.opnd[0] = rdx_isa_imm(0);
    uint8_t code[256] = { 0 };
    size_t n;
    if (!t || rdx_isa_encode(t, &in, code, &n))
        die("encoding s_endpgm");
    rdx_codeobj_kernel k;
    memset(&k, 0, sizeof k);
    k.name = "empty";
    k.code_offset = 0;
    k.code_size = n;
    rdx_codeobj_kd_init(&k.kd, 11);
    rdx_codeobj_kernel_meta_init(&k.meta);
    k.meta.wavefront_size = 32;
    k.meta.max_flat_workgroup_size = 1024;
    rdx_codeobj_image img;
    memset(&img, 0, sizeof img);
    img.target = "gfx1100";
    img.version = 5;
    img.code = code;
    img.code_size = sizeof code;
    img.kernels = &k;
    img.num_kernels = 1;
    uint8_t *out;
    if (rdx_codeobj_write(&img, &out, len))
        die("writing the code object");
    return out;
}

static __attribute__((noinline)) void plain_call(volatile uint64_t *sink, uint64_t v)
{
    *sink += v;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

/* The baseline ping-pong: a token handed to another thread and back; each side spins
 * briefly on the token, then sleeps on it with a futex. */
static uint32_t token;

static void token_wait(uint32_t want)
{
    for (int i = 0; i < 2000; i++)
        if (__atomic_load_n(&token, __ATOMIC_ACQUIRE) == want)
            return;
    for (uint32_t v; (v = __atomic_load_n(&token, __ATOMIC_ACQUIRE)) != want;)
        syscall(SYS_futex, &token, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
}

static void token_pass(uint32_t v)
{
    __atomic_store_n(&token, v, __ATOMIC_RELEASE);
    syscall(SYS_futex, &token, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

enum { PINGS = 2000 };

static void *pong(void *arg)
{
    (void)arg;
    for (uint32_t i = 0; i < PINGS; i++) {
        token_wait(2 * i + 1);
        token_pass(2 * i + 2);
    }
    return NULL;
}

static double ping_pong_ns(void)
{
    static double lat[PINGS];
    pthread_t t;
    token = 0;
    if (pthread_create(&t, NULL, pong, NULL))
        die("starting the ping-pong thread");
    for (uint32_t i = 0; i < PINGS; i++) {
        double a = now();
        token_pass(2 * i + 1);
        token_wait(2 * i + 2);
        lat[i] = now() - a;
    }
    pthread_join(t, NULL);
    return median(lat, PINGS);
}

/* The doorbell watch from idle, step by step (see the top of the file). */
enum { WATCH_TRIPS = 40 }; /* token: 4i+1 arm, 4i+2 armed, 4i+3 times written */
static int wuffd;
static volatile uint64_t *wpage;
static double w_store, w_awake, w_lifted;

static int wprotect(int on)
{
    struct uffdio_writeprotect w = { .range = { (uint64_t)(uintptr_t)wpage, 4096 },
                                     .mode = on ? UFFDIO_WRITEPROTECT_MODE_WP : 0 };
    return ioctl(wuffd, UFFDIO_WRITEPROTECT, &w);
}

static void *watcher(void *arg)
{
    (void)arg;
    for (int i = 0; i < WATCH_TRIPS; i++) {
        token_wait(4 * (uint32_t)i + 1);
        if (wprotect(1))
            die("UFFDIO_WRITEPROTECT");
        token_pass(4 * (uint32_t)i + 2);
        struct pollfd pf = { .fd = wuffd, .events = POLLIN };
        poll(&pf, 1, -1);
        w_awake = now();
        wprotect(0);
        w_lifted = now();
        struct uffd_msg m;
        while (read(wuffd, &m, sizeof m) > 0) {
        }
        token_pass(4 * (uint32_t)i + 3); /* the times are written */
    }
    return NULL;
}

/* Medians in ns of: store -> watcher awake, lifting the protection, lifted -> store returns,
 * and the whole store; 0 where userfaultfd write protection is unavailable. */
static int watch_steps(double out[4])
{
    memset(out, 0, 4 * sizeof out[0]);
    wuffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
    struct uffdio_api api = { .api = UFFD_API,
                              .features = UFFD_FEATURE_PAGEFAULT_FLAG_WP |
                                          UFFD_FEATURE_WP_HUGETLBFS_SHMEM };
    int mfd = memfd_create("bench-doorbell", MFD_CLOEXEC);
    if (wuffd < 0 || ioctl(wuffd, UFFDIO_API, &api) || mfd < 0 || ftruncate(mfd, 4096))
        return -1;
    wpage = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
    if (wpage == MAP_FAILED)
        return -1;
    wpage[0] = 0;
    struct uffdio_register r = { .range = { (uint64_t)(uintptr_t)wpage, 4096 },
                                 .mode = UFFDIO_REGISTER_MODE_WP };
    if (ioctl(wuffd, UFFDIO_REGISTER, &r))
        return -1;
    static double v[4][WATCH_TRIPS];
    pthread_t t;
    token = 0;
    if (pthread_create(&t, NULL, watcher, NULL))
        die("starting the watcher");
    for (int i = 0; i < WATCH_TRIPS; i++) {
        token_pass(4 * (uint32_t)i + 1);
        token_wait(4 * (uint32_t)i + 2);
        struct timespec pause = { 0, 3000000 }; /* the watcher sleeps, its CPU goes idle */
        nanosleep(&pause, NULL);
        w_store = now();
        wpage[0] = (uint64_t)i; /* stops on the protection until the watcher lifts it */
        double back = now();
        token_wait(4 * (uint32_t)i + 3);
        v[0][i] = w_awake - w_store;
        v[1][i] = w_lifted - w_awake;
        v[2][i] = back - w_lifted;
        v[3][i] = back - w_store;
    }
    pthread_join(t, NULL);
    for (int k = 0; k < 4; k++)
        out[k] = median(v[k], WATCH_TRIPS);
    munmap((void *)wpage, 4096);
    close(mfd);
    close(wuffd);
    return 0;
}

/* Host cost and round trip of empty dispatches on `o`'s device, printed under `label`. */
static void measure(const rdx_device_options *o, const char *label, double memcpy_ns,
                    double call_ns, double pp_ns)
{
    size_t len;
    uint8_t *elf = empty_code_object(&len);
    rdx_device *dev;
    rdx_program *prog;
    rdx_queue *q;
    const rdx_kernel *k;
    if (rdx_device_open(o, &dev) || rdx_program_load(dev, elf, len, "empty.co", &prog) ||
        rdx_program_find(prog, "empty", &k) || rdx_queue_create(dev, RDX_QUEUE_COMPUTE, &q))
        die("setup");
    free(elf);
    rdx_launch l;
    memset(&l, 0, sizeof l);
    l.kernel = k;
    l.grid[0] = 1;
    l.block[0] = 32;

    /* Host cost: batches that fit the ring, timed without the waits between them. */
    enum { BATCH = 400, ROUNDS = 25 };
    double wall = 0, cpu = 0;
    uint64_t t = 0;
    for (int r = 0; r < ROUNDS + 1; r++) {
        double w0 = now(), c0 = cpu_now();
        for (int i = 0; i < BATCH; i++)
            if (rdx_queue_dispatch(q, &l, &t))
                die("dispatch");
        double w1 = now(), c1 = cpu_now();
        if (r > 0) { /* the first round warms up */
            wall += w1 - w0;
            cpu += c1 - c0;
        }
        if (rdx_queue_wait(q, t, 60000))
            die("wait");
    }
    double per_dispatch = wall / (ROUNDS * BATCH), per_dispatch_cpu = cpu / (ROUNDS * BATCH);

    /* Round trip: dispatch and wait, one at a time; then from idle. */
    enum { TRIPS = 1000, IDLE_TRIPS = 40 };
    static double lat[TRIPS];
    double r0 = now();
    for (int i = 0; i < TRIPS; i++) {
        double a = now();
        if (rdx_queue_dispatch(q, &l, &t) || rdx_queue_wait(q, t, 60000))
            die("round trip");
        lat[i] = now() - a;
    }
    double trip_mean = (now() - r0) / TRIPS, trip_ns = median(lat, TRIPS);
    double p90 = lat[TRIPS * 9 / 10];
    for (int i = 0; i < IDLE_TRIPS; i++) {
        struct timespec pause = { 0, 3000000 }; /* the command processor goes to sleep */
        nanosleep(&pause, NULL);
        double a = now();
        if (rdx_queue_dispatch(q, &l, &t) || rdx_queue_wait(q, t, 60000))
            die("round trip from idle");
        lat[i] = now() - a;
    }
    double idle_ns = median(lat, IDLE_TRIPS);

    printf("dispatch host cost (empty kernel, emulated gfx1100, %s):\n", label);
    printf("  rdx_queue_dispatch       %8.1f ns wall, %8.1f ns CPU   (goal < %.0f ns: %s)\n",
           per_dispatch, per_dispatch_cpu, GOAL_NS, per_dispatch_cpu < GOAL_NS ? "met" : "MISSED");
    if (memcpy_ns > 0) {
        printf("  memcpy of %d PM4 dwords  %8.1f ns   ratio %.1fx\n", 96, memcpy_ns,
               per_dispatch / memcpy_ns);
        printf("  plain function call      %8.1f ns   ratio %.1fx\n", call_ns,
               per_dispatch / call_ns);
    }
    printf("round trip (dispatch + wait, empty kernel, %s):\n", label);
    printf("  back to back   median %7.1f us (mean %.1f, p90 %.1f)   (goal <= %.0f us: %s)\n",
           trip_ns / 1e3, trip_mean / 1e3, p90 / 1e3, TRIP_GOAL_NS / 1e3,
           trip_ns <= TRIP_GOAL_NS ? "met" : "MISSED");
    printf("  from idle      median %7.1f us   (after 3 ms idle: the doorbell wakes the CP)\n",
           idle_ns / 1e3);
    if (pp_ns > 0)
        printf("  thread ping-pong       %7.1f us   ratio %.1fx back to back, %.1fx from idle\n",
               pp_ns / 1e3, trip_ns / pp_ns, idle_ns / pp_ns);
    printf("  ratio to host cost %.0fx\n", trip_ns / per_dispatch);
    fflush(stdout);
    if (rdx_queue_destroy(q))
        die("queue destroy");
    rdx_program_free(prog);
    if (rdx_device_close(dev))
        die("close");
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--child")) {
        /* under rdx emu: the libc OS table, the submission path RDX_SUBMIT names */
        rdx_device_options o = { .kind = RDX_DEVICE_KFD, .quiet = true };
        measure(&o, argv[2], 0, 0, 0);
        return 0;
    }
    /* Baselines: memcpy of one dispatch's PM4 bytes into a ring; a function call. */
    enum { DW = 96, RING_DW = 65536, N = 2000000 };
    uint32_t src[DW], *ring = calloc(RING_DW, 4);
    for (int i = 0; i < DW; i++)
        src[i] = (uint32_t)i * 2654435761u;
    double m0 = now();
    for (int i = 0; i < N; i++) {
        memcpy(ring + (size_t)(i % (RING_DW / DW)) * DW, src, sizeof src);
        __asm__ volatile("" : : "r"(ring) : "memory");
    }
    double memcpy_ns = (now() - m0) / N;
    volatile uint64_t sink = 0;
    double f0 = now();
    for (int i = 0; i < N; i++)
        plain_call(&sink, (uint64_t)i);
    double call_ns = (now() - f0) / N;
    free(ring);

    rdx_device_options o = { .kind = RDX_DEVICE_EMU };
    measure(&o, "in process, KFD queues", memcpy_ns, call_ns, ping_pong_ns());
    double w[4];
    if (watch_steps(w) == 0)
        printf("doorbell watch alone, from idle (userfaultfd, no emulator):\n"
               "  store -> watcher awake %.1f us, lifting the protection %.1f us, "
               "-> store returns %.1f us: the store %.1f us\n",
               w[0] / 1e3, w[1] / 1e3, w[2] / 1e3, w[3] / 1e3);
    else
        printf("doorbell watch alone: userfaultfd write protection unavailable here\n");

    /* Both submission paths through `rdx emu`'s interposer, side by side. */
    const char *build = getenv("RDX_BUILD");
    static const char *const paths[2][2] = {
        { "kfd", "rdx emu, KFD user queues: ring + doorbell" },
        { "drm", "rdx emu, amdgpu DRM: one CS ioctl per submission" },
    };
    for (int i = 0; i < 2; i++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd,
                 "env RDX_DEVICE=kfd RDX_SUBMIT=%s '%s/rdx' emu -- /proc/%d/exe --child '%s'",
                 paths[i][0], build && *build ? build : "build", (int)getpid(), paths[i][1]);
        fflush(stdout);
        if (system(cmd) != 0)
            die(paths[i][1]);
    }
    return 0;
}
