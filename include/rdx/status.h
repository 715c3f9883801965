/*
 * rdx/status.h — status codes and the per-thread error message.
 *
 * Every rdx function that can fail returns an rdx_status: RDX_OK (0) on
 * success, one of the codes below otherwise.  On failure the function also
 * records a human-readable message — naming the input, the position and what
 * was expected — in per-thread storage, read with rdx_error_message().  The
 * message stays valid until the next failing rdx call on the same thread.
 */
#ifndef RDX_STATUS_H
#define RDX_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/* X-macro list of status codes: name, value, short description. */
#define RDX_STATUS_LIST(X)                     \
    X(RDX_OK, 0, "success")                    \
    X(RDX_ERR_INVALID, 1, "invalid argument")  \
    X(RDX_ERR_PARSE, 2, "malformed input")     \
    X(RDX_ERR_NOMEM, 3, "out of memory")       \
    X(RDX_ERR_IO, 4, "I/O error")              \
    X(RDX_ERR_UNSUPPORTED, 5, "not supported") \
    X(RDX_ERR_NOT_FOUND, 6, "not found")       \
    X(RDX_ERR_DEVICE, 7, "device error")       \
    X(RDX_ERR_FAULT, 8, "GPU fault")           \
    X(RDX_ERR_TIMEOUT, 9, "timed out")         \
    X(RDX_ERR_RANGE, 10, "value out of range")

/* Status returned by every fallible rdx function; 0 means success. */
typedef enum rdx_status {
#define RDX_STATUS_ENUM_(name, value, desc) name = value,
    RDX_STATUS_LIST(RDX_STATUS_ENUM_)
#undef RDX_STATUS_ENUM_
} rdx_status;

/*
 * The message recorded by the most recent failing rdx call on this thread,
 * or "" if there was none since the last rdx_error_clear().  The returned
 * string is owned by rdx and valid until the next rdx call on this thread
 * that sets or clears the message.  Never NULL.
 */
const char *rdx_error_message(void);

/* Forget this thread's recorded message.  Cannot fail. */
void rdx_error_clear(void);

/*
 * Short constant description of a status code ("out of memory", ...).
 * Returns "unknown status" for values outside the list.  Never NULL.
 */
const char *rdx_status_name(rdx_status status);

#ifdef __cplusplus
}
#endif

#endif /* RDX_STATUS_H */
