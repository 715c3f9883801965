/*
 * runtime/hidden.h — the hidden kernel arguments of LLVM's code object v5
 * (AMDGPUUsage "Code Object V5 Metadata", .value_kind "hidden_*"), declared
 * once: X(ENUM, "value_kind").  What the runtime writes for each is in
 * runtime/args.c; kinds not listed there are zero-filled.
 */
#ifndef RDX_RUNTIME_HIDDEN_H
#define RDX_RUNTIME_HIDDEN_H

#include <stdint.h>

/* clang-format off */
#define RT_HIDDEN_ARGS(X)                                   \
    X(BLOCK_COUNT_X, "hidden_block_count_x")                \
    X(BLOCK_COUNT_Y, "hidden_block_count_y")                \
    X(BLOCK_COUNT_Z, "hidden_block_count_z")                \
    X(GROUP_SIZE_X, "hidden_group_size_x")                  \
    X(GROUP_SIZE_Y, "hidden_group_size_y")                  \
    X(GROUP_SIZE_Z, "hidden_group_size_z")                  \
    X(REMAINDER_X, "hidden_remainder_x")                    \
    X(REMAINDER_Y, "hidden_remainder_y")                    \
    X(REMAINDER_Z, "hidden_remainder_z")                    \
    X(TOOL_CORRELATION_ID, "hidden_tool_correlation_id")    \
    X(GRID_DIMS, "hidden_grid_dims")                        \
    X(GLOBAL_OFFSET_X, "hidden_global_offset_x")            \
    X(GLOBAL_OFFSET_Y, "hidden_global_offset_y")            \
    X(GLOBAL_OFFSET_Z, "hidden_global_offset_z")            \
    X(NONE, "hidden_none")                                  \
    X(PRINTF_BUFFER, "hidden_printf_buffer")                \
    X(HOSTCALL_BUFFER, "hidden_hostcall_buffer")            \
    X(DEFAULT_QUEUE, "hidden_default_queue")                \
    X(COMPLETION_ACTION, "hidden_completion_action")        \
    X(MULTIGRID_SYNC_ARG, "hidden_multigrid_sync_arg")      \
    X(HEAP_V1, "hidden_heap_v1")                            \
    X(DYNAMIC_LDS_SIZE, "hidden_dynamic_lds_size")          \
    X(PRIVATE_BASE, "hidden_private_base")                  \
    X(SHARED_BASE, "hidden_shared_base")                    \
    X(QUEUE_PTR, "hidden_queue_ptr")
/* clang-format on */

typedef enum rt_hidden_kind {
#define RT_HIDDEN_ENUM_(e, s) RT_HIDDEN_##e,
    RT_HIDDEN_ARGS(RT_HIDDEN_ENUM_)
#undef RT_HIDDEN_ENUM_
        RT_HIDDEN_UNKNOWN /* a hidden_* kind this table does not know: zero-filled */
} rt_hidden_kind;

/* The kind of a "hidden_*" value kind (RT_HIDDEN_UNKNOWN if not listed). */
uint32_t rt_hidden_lookup(const char *value_kind);

#endif /* RDX_RUNTIME_HIDDEN_H */
