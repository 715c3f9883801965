/* tools/emu_launch.h — the BEAM timer of `rdx compile --beam`: compiles a
 * kernel-form graph with the codegen back end and runs it directly on the wave
 * emulator, whose cycle estimate is the cost BEAM minimises (`rdx realize`
 * runs kernels through the runtime instead). */
#ifndef RDX_TOOLS_EMU_LAUNCH_H
#define RDX_TOOLS_EMU_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/codegen.h>
#include <rdx/ir.h>

/* A BEAM timer (rdx_cg_timer): runs the kernel on zeroed buffers sized from
 * its PARAMs; *cost is the emulator's estimated cycles of the dispatch. */
typedef struct rdx_tool_timer_ctx {
    rdx_ir_ctx *ctx;
    const rdx_uop *const *vars;
    const int64_t *varvals;
    size_t nvars;
} rdx_tool_timer_ctx;
rdx_status rdx_tool_emu_timer(const rdx_uop *kernel, void *user, double *cost);

#endif
