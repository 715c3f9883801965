/*
 * util/error.h — recording errors (internal).
 *
 * rdx_fail() formats a message into this thread's error slot and returns the
 * status, so failing paths read:  return rdx_fail(RDX_ERR_PARSE, "%s:%d: ...", ...);
 */
#ifndef RDX_UTIL_ERROR_H
#define RDX_UTIL_ERROR_H

#include <rdx/status.h>

#if defined(__GNUC__)
#define RDX_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define RDX_PRINTF(fmt, args)
#endif

/* Record a formatted message for this thread and return `status`. */
rdx_status rdx_fail(rdx_status status, const char *fmt, ...) RDX_PRINTF(2, 3);

/* Like rdx_fail, appending ": <strerror(err)>" to the message. */
rdx_status rdx_fail_errno(rdx_status status, int err, const char *fmt, ...) RDX_PRINTF(3, 4);

/*
 * Prefix the currently recorded message with a formatted context string and
 * ": ", and return `status`.  Used when an inner call failed and the caller
 * can add where it happened.
 */
rdx_status rdx_fail_context(rdx_status status, const char *fmt, ...) RDX_PRINTF(2, 3);

#endif /* RDX_UTIL_ERROR_H */
