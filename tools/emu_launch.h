/* tools/emu_launch.h — compile a kernel-form graph with the codegen back end
 * and run it on the wave emulator (shared by `rdx compile --beam` and
 * `rdx realize`). */
#ifndef RDX_TOOLS_EMU_LAUNCH_H
#define RDX_TOOLS_EMU_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/codegen.h>
#include <rdx/ir.h>

typedef struct rdx_tool_launch {
    uint64_t cycles, wave_insts; /* the emulator's counters of the dispatch */
} rdx_tool_launch;

/*
 * Compile `sink` (options o, may be NULL) and run it once: PARAM slot k uses
 * bufs[k] of sizes[k] bytes (k < nbufs); DEFINE_VARs take varvals[j] of
 * vars[j].  Errors of the back end and the emulator (message recorded).
 */
rdx_status rdx_tool_launch_kernel(rdx_ir_ctx *ctx, const rdx_uop *sink,
                                  const rdx_codegen_options *o, void **bufs, const size_t *sizes,
                                  size_t nbufs, const rdx_uop *const *vars, const int64_t *varvals,
                                  size_t nvars, rdx_tool_launch *out);

/* A BEAM timer (rdx_cg_timer): runs the kernel on zeroed buffers sized from its PARAMs. */
typedef struct rdx_tool_timer_ctx {
    rdx_ir_ctx *ctx;
    const rdx_uop *const *vars;
    const int64_t *varvals;
    size_t nvars;
} rdx_tool_timer_ctx;
rdx_status rdx_tool_emu_timer(const rdx_uop *kernel, void *user, double *cost);

#endif
