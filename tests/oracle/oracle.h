/*
 * tests/oracle/oracle.h — the emulator's kernel oracle.
 *
 * A shared test library, not a Check suite: the Makefile builds the .c files of tests/oracle
 * once and links the objects into the suites that use it (emu_oracle, runtime).
 *
 * The corpus (tests/data/emu/kernels/NAME.cl, listed in tests/data/emu/kernels.def)
 * is compiled at test time by clang-19 into gfx1100 code objects at -O0, -O2 and -O3,
 * and by the host C compiler (gcc) through tests/data/emu/rdx_cl.h into one host
 * executable per kernel.  The host run on the manifest's deterministic inputs gives
 * the expected outputs.  A device — later the emulator — runs each code object on
 * the same inputs through a callback, and the oracle compares.
 *
 * Use (the emulator suite):
 *
 *     char err[512];
 *     rdx_oracle *o = rdx_oracle_prepare(NULL, err, sizeof err);   // compile + host runs
 *     rdx_oracle_summary sum;
 *     int failed = rdx_oracle_run_all(o, my_run_fn, my_ctx, &sum, stderr);
 *     rdx_oracle_free(o);
 *
 * None of these functions use Check: they return errors as text, so they can run in
 * a fixture or a test alike.
 */
#ifndef RDX_TESTS_EMU_ORACLE_H
#define RDX_TESTS_EMU_ORACLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Element types: X(NAME, C type name in kernels, size in bytes, is float). */
#define RDX_ORACLE_TYPES(X) \
    X(I8, "char", 1, 0)     \
    X(U8, "uchar", 1, 0)    \
    X(I16, "short", 2, 0)   \
    X(U16, "ushort", 2, 0)  \
    X(I32, "int", 4, 0)     \
    X(U32, "uint", 4, 0)    \
    X(I64, "long", 8, 0)    \
    X(U64, "ulong", 8, 0)   \
    X(F16, "half", 2, 1)    \
    X(BF16, "ushort", 2, 1) \
    X(F32, "float", 4, 1)   \
    X(F64, "double", 8, 1)

typedef enum rdx_oracle_type {
#define RDX_ORACLE_TYPE_ENUM(name, cname, size, isf) RDX_ORACLE_##name,
    RDX_ORACLE_TYPES(RDX_ORACLE_TYPE_ENUM)
#undef RDX_ORACLE_TYPE_ENUM
        RDX_ORACLE_TYPE_COUNT
} rdx_oracle_type;

/* Size in bytes, kernel-side C type name, float-ness, manifest name ("F32"). */
size_t rdx_oracle_type_size(rdx_oracle_type t);
const char *rdx_oracle_type_cname(rdx_oracle_type t);
int rdx_oracle_type_is_float(rdx_oracle_type t);
const char *rdx_oracle_type_name(rdx_oracle_type t);

/* How a buffer is filled before a dispatch (all deterministic). */
typedef enum rdx_oracle_init_kind {
    RDX_ORACLE_INIT_ZERO,
    RDX_ORACLE_INIT_FILL,    /* every element = a */
    RDX_ORACLE_INIT_IOTA,    /* element i = a + i * b */
    RDX_ORACLE_INIT_RAND,    /* uniform: reals in [a, b) for floats, integers in [a, b] */
    RDX_ORACLE_INIT_IRAND,   /* uniform integers in [a, b], stored in the element type */
    RDX_ORACLE_INIT_LOGRAND, /* positive floats 2^u, u uniform in [a, b) */
    RDX_ORACLE_INIT_EDGE,    /* as RAND, but 1 in 4 elements an edge value of the type */
} rdx_oracle_init_kind;

typedef struct rdx_oracle_init {
    rdx_oracle_init_kind kind;
    uint32_t seed;
    double a, b;
} rdx_oracle_init;

/* How an output buffer is compared with the host's result. */
typedef enum rdx_oracle_cmp_kind {
    RDX_ORACLE_CMP_NONE,  /* an input only: not compared */
    RDX_ORACLE_CMP_EXACT, /* bit-exact (integers; floats: equal values, any NaN = NaN) */
    RDX_ORACLE_CMP_ULP,   /* floats: at most `tol` units in the last place apart */
    RDX_ORACLE_CMP_ABS,   /* floats: |got - want| <= tol (NaN = NaN, inf = same inf) */
} rdx_oracle_cmp_kind;

typedef struct rdx_oracle_cmp {
    rdx_oracle_cmp_kind kind;
    double tol;
} rdx_oracle_cmp;

typedef enum rdx_oracle_arg_kind {
    RDX_ORACLE_ARG_BUFFER,
    RDX_ORACLE_ARG_SCALAR
} rdx_oracle_arg_kind;

/* One kernel argument as the manifest declares it. */
typedef struct rdx_oracle_arg {
    rdx_oracle_arg_kind kind;
    rdx_oracle_type type;
    size_t count;         /* buffer: elements */
    rdx_oracle_init init; /* buffer */
    rdx_oracle_cmp cmp;   /* buffer: NONE for inputs */
    int64_t ival;         /* scalar value (integer types) */
    double fval;          /* scalar value (float types) */
} rdx_oracle_arg;

/* Per-kernel flags. */
#define RDX_ORACLE_F_WAVE64            1u /* compile with -mwavefrontsize64 */
#define RDX_ORACLE_F_CRDIV             2u /* -cl-fp32-correctly-rounded-divide-sqrt */
#define RDX_ORACLE_F_UNSAFE_FP_ATOMICS 4u /* -munsafe-fp-atomics (global_atomic_add_f32) */

#define RDX_ORACLE_MAX_ARGS 16

/* One manifest entry: one dispatch of one kernel. */
typedef struct rdx_oracle_kernel {
    const char *id;     /* unique entry name (a file may serve several entries) */
    const char *kernel; /* the __kernel function's name */
    const char *file;   /* under tests/data/emu/kernels/ */
    unsigned flags;     /* RDX_ORACLE_F_* */
    uint32_t grid[3];   /* work-items per dimension (partial last groups allowed) */
    uint32_t block[3];  /* work-group size */
    int nargs;
    rdx_oracle_arg args[RDX_ORACLE_MAX_ARGS];
} rdx_oracle_kernel;

/* The manifest (tests/data/emu/kernels.def). */
extern const rdx_oracle_kernel rdx_oracle_kernels[];
extern const int rdx_oracle_kernel_count;
const rdx_oracle_kernel *rdx_oracle_find(const char *id);

/* The optimisation levels every kernel is compiled at. */
#define RDX_ORACLE_NOPT 3
extern const char *const rdx_oracle_opts[RDX_ORACLE_NOPT]; /* "-O0", "-O2", "-O3" */

/* A kernel argument's entry in the code object's metadata (llvm-readelf --notes). */
typedef struct rdx_oracle_md_arg {
    uint32_t offset, size;
    char value_kind[40]; /* "global_buffer", "by_value", "hidden_block_count_x", ... */
    char type_name[40];  /* "float*", "int", or "" for hidden arguments */
} rdx_oracle_md_arg;

#define RDX_ORACLE_MAX_MD_ARGS 48

/* The AMDHSA metadata of one kernel in one code object. */
typedef struct rdx_oracle_md {
    char name[64];
    uint32_t kernarg_segment_size, group_segment_fixed_size, private_segment_fixed_size;
    uint32_t wavefront_size, sgpr_count, vgpr_count;
    int nargs;
    rdx_oracle_md_arg args[RDX_ORACLE_MAX_MD_ARGS];
} rdx_oracle_md;

/*
 * Parse the kernel `name` out of `llvm-readelf --notes` text.  Returns 0, or -1
 * with a message in err when the kernel is absent or its entry malformed.
 */
int rdx_oracle_md_parse(const char *text, const char *name, rdx_oracle_md *md, char *err,
                        size_t errlen);

/*
 * Kernel-argument layout by the AMDGPU ABI: each explicit argument at its natural
 * alignment (pointers 8 bytes).  Writes offsets[nargs]; returns the end offset.
 */
uint32_t rdx_oracle_explicit_layout(const rdx_oracle_kernel *k, uint32_t *offsets);

/* A buffer handed to a device: host memory (GPU address == host address). */
typedef struct rdx_oracle_buffer {
    void *data;
    size_t size; /* bytes */
    int arg;     /* its kernel-argument index */
    rdx_oracle_type type;
    size_t count;
    int is_output; /* compared after the run */
} rdx_oracle_buffer;

/* Everything a device needs for one dispatch. */
typedef struct rdx_oracle_launch {
    const rdx_oracle_kernel *kernel; /* the manifest entry */
    const char *opt;                 /* "-O0", "-O2" or "-O3" */
    const uint8_t *code;             /* the code object (ELF), read-only */
    size_t code_size;
    const char *kernel_name; /* the kernel symbol; its descriptor is "<name>.kd" */
    uint32_t grid[3];        /* work-items per dimension */
    uint32_t block[3];       /* work-group size */
    uint32_t groups[3];      /* work-groups per dimension, partial ones included */
    void *kernarg;           /* explicit + hidden arguments, 16-byte aligned */
    uint32_t kernarg_size;
    rdx_oracle_buffer *bufs; /* every buffer argument, in argument order */
    int nbufs;
    const rdx_oracle_md *md; /* the code object's metadata for this kernel */
} rdx_oracle_launch;

/*
 * A device: run one dispatch to completion, writing the output buffers in place.
 * Return 0 on success; non-zero with a message in msg (a fault, an unsupported
 * instruction, ...) on failure.
 */
typedef int (*rdx_oracle_run_fn)(void *user, const rdx_oracle_launch *l, char *msg, size_t msglen);

typedef struct rdx_oracle rdx_oracle;

typedef struct rdx_oracle_options {
    const char *data_dir; /* default "tests/data/emu" (run from the repository root) */
    const char *clang;    /* default: the harness's LLVM 19 clang */
    const char *host_cc;  /* default: gcc from PATH, else cc */
    int jobs;             /* parallel compiler processes; default min(ncpu, 4) */
    const char *only;     /* prepare just this manifest id (NULL: all) */
    const char *target;   /* clang's -mcpu: gfx1100 (NULL), gfx1151, gfx1201, ... */
    unsigned levels;      /* the levels to compile and run: bit i = rdx_oracle_opts[i]; 0: all */
    /* take the host side (executables, expected outputs) from this oracle instead of
       building and running it again (it must outlive the new one); NULL: build it */
    const struct rdx_oracle *host_from;
} rdx_oracle_options;

/*
 * Compile every manifest kernel at every level (opts->levels) for gfx1100 (or opts->target),
 * read each code object's
 * metadata, compile and run the host version, keep its outputs.  opts may be NULL.
 * Returns the oracle (free with rdx_oracle_free), or NULL with a message in err if
 * the setup itself failed (tools missing, temp dir).  Per-kernel failures (a
 * compile error, a host-run error) do not fail the call: they are recorded and
 * reported by rdx_oracle_status() and skipped by rdx_oracle_run_all().
 */
rdx_oracle *rdx_oracle_prepare(const rdx_oracle_options *opts, char *err, size_t errlen);
void rdx_oracle_free(rdx_oracle *o);

/* Number of kernels / prepared (kernel, level) code objects. */
int rdx_oracle_count(const rdx_oracle *o);
int rdx_oracle_code_object_count(const rdx_oracle *o);
/* Seconds rdx_oracle_prepare took; phases (may be NULL) gets the compiles, the
 * metadata reading and the host runs. */
double rdx_oracle_prepare_seconds(const rdx_oracle *o, double phases[3]);

/* The manifest entry of the i-th prepared kernel. */
const rdx_oracle_kernel *rdx_oracle_kernel_at(const rdx_oracle *o, int i);

/*
 * Whether kernel i is ready: NULL if it is, else what went wrong (compiler or host
 * output included).  opt_index -1 asks about the host side, 0..2 about a level.
 */
const char *rdx_oracle_status(const rdx_oracle *o, int i, int opt_index);

/* The code object of kernel i at level opt_index, its metadata. */
const uint8_t *rdx_oracle_code(const rdx_oracle *o, int i, int opt_index, size_t *size);
const rdx_oracle_md *rdx_oracle_metadata(const rdx_oracle *o, int i, int opt_index);

/* The host's result for buffer argument `arg` of kernel i (NULL for scalars). */
const void *rdx_oracle_expected(const rdx_oracle *o, int i, int arg, size_t *size);

/*
 * Fill a fresh set of argument buffers for kernel i from the manifest: bufs[arg]
 * gets a malloc'd, initialised buffer for each buffer argument (NULL for scalars).
 * Free with rdx_oracle_free_buffers.
 */
void rdx_oracle_make_buffers(const rdx_oracle_kernel *k, void *bufs[RDX_ORACLE_MAX_ARGS]);
void rdx_oracle_free_buffers(const rdx_oracle_kernel *k, void *bufs[RDX_ORACLE_MAX_ARGS]);

/*
 * Run kernel i's host executable on caller buffers (bufs as from
 * rdx_oracle_make_buffers; updated in place) with the given grid (NULL: the
 * manifest's).  Scalars come from `scalars` when non-NULL (indexed by argument),
 * else from the manifest.  Returns 0, or -1 with a message in err.
 */
int rdx_oracle_host_run(const rdx_oracle *o, int i, void *bufs[RDX_ORACLE_MAX_ARGS],
                        const uint32_t *grid, const rdx_oracle_arg *scalars, char *err,
                        size_t errlen);

/*
 * Compare `got` with `want` (count elements of type t) under rule c.  Returns the
 * number of mismatching elements; writes up to `max_report` mismatches as
 * "name[i]: got G, want W (d ulp)" lines into report (may be NULL).
 */
size_t rdx_oracle_compare(rdx_oracle_type t, rdx_oracle_cmp c, const void *got, const void *want,
                          size_t count, const char *name, char *report, size_t reportlen,
                          int max_report);

/* Distance in units in the last place between two floats of type t (0 for equal
 * values, +0 = -0; UINT64_MAX if exactly one is NaN or t is not a float type). */
uint64_t rdx_oracle_ulp_distance(rdx_oracle_type t, const void *a, const void *b);

/*
 * Pack the kernel-argument segment for kernel i at level opt_index: explicit
 * arguments from `argptrs` (buffer addresses; scalars from the manifest) at the
 * metadata's offsets, hidden arguments by value kind (block counts = full groups,
 * group sizes, remainders, grid dims; the rest zero).  Returns a malloc'd,
 * 16-byte-aligned buffer of *size bytes, or NULL with a message in err.
 */
void *rdx_oracle_pack_kernarg(const rdx_oracle *o, int i, int opt_index,
                              void *const bufs[RDX_ORACLE_MAX_ARGS], uint32_t *size, char *err,
                              size_t errlen);

/* One distinct instruction of the corpus and the first code object containing it. */
typedef struct rdx_oracle_mnemonic {
    char name[64];       /* as llvm-objdump prints it: "v_add_nc_u32_e32" */
    char first_seen[96]; /* "<entry> -O<n>" */
} rdx_oracle_mnemonic;

/*
 * The distinct instructions in all prepared code objects (llvm-objdump -d, one
 * run), sorted by name: what a device must implement to run the whole corpus.
 * Returns a malloc'd array of *count entries (free it), or NULL with a message.
 */
rdx_oracle_mnemonic *rdx_oracle_mnemonics(const rdx_oracle *o, int *count, char *err,
                                          size_t errlen);

typedef struct rdx_oracle_summary {
    int launches; /* (kernel, level) pairs handed to the device */
    int passed;
    int device_failed; /* run_fn returned non-zero */
    int mismatched;    /* ran, but an output differed */
    int skipped;       /* not prepared (compile or host failure) */
} rdx_oracle_summary;

/*
 * One launch: kernel i at level opt_index, as rdx_oracle_run_all does it; adds to
 * *sum (which the caller zeroes first).  Returns 0 when it passed.
 */
int rdx_oracle_run_one(rdx_oracle *o, int i, int opt_index, rdx_oracle_run_fn run, void *user,
                       rdx_oracle_summary *sum, FILE *log);

/*
 * For every prepared kernel and level: make fresh buffers, pack the kernarg
 * segment, call run(user, launch, ...), compare every output buffer with the host's
 * result by the manifest's rule.  Each failure is written to `log` (may be NULL)
 * with the kernel, level and the first mismatches.  Returns the number of failed
 * launches (device_failed + mismatched + skipped).
 */
/*
 * Run launch `l` directly on emulator `e`: load its code object, register the
 * code, kernarg and buffers, dispatch from the kernel descriptor, unregister.
 * Returns 0, or 1 with the reason in msg.
 */
typedef struct rdx_emu rdx_emu;
int rdx_oracle_run_on_emu(rdx_emu *e, const rdx_oracle_launch *l, char *msg, size_t msglen);

int rdx_oracle_run_all(rdx_oracle *o, rdx_oracle_run_fn run, void *user, rdx_oracle_summary *sum,
                       FILE *log);

/* The target the oracle compiled for ("gfx1100") and whether level opt_index was selected. */
const char *rdx_oracle_target(const rdx_oracle *o);
int rdx_oracle_level_on(const rdx_oracle *o, int opt_index);

#endif /* RDX_TESTS_EMU_ORACLE_H */
