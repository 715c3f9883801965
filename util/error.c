/* util/error.c — the per-thread error message behind rdx_error_message(). */
#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rdx/version.h>

#define RDX_ERROR_CAP 4096

static _Thread_local char error_text[RDX_ERROR_CAP];

const char *rdx_error_message(void)
{
    return error_text;
}

void rdx_error_clear(void)
{
    error_text[0] = '\0';
}

const char *rdx_status_name(rdx_status status)
{
    switch (status) {
#define RDX_STATUS_CASE_(name, value, desc) \
    case name:                              \
        return desc;
        RDX_STATUS_LIST(RDX_STATUS_CASE_)
#undef RDX_STATUS_CASE_
    }
    return "unknown status";
}

const char *rdx_version(void)
{
    return RDX_VERSION_STRING;
}

rdx_status rdx_fail(rdx_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(error_text, sizeof error_text, fmt, ap);
    va_end(ap);
    return status;
}

rdx_status rdx_fail_errno(rdx_status status, int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(error_text, sizeof error_text, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof error_text)
        snprintf(error_text + n, sizeof error_text - (size_t)n, ": %s", strerror(err));
    return status;
}

rdx_status rdx_fail_context(rdx_status status, const char *fmt, ...)
{
    char inner[RDX_ERROR_CAP];
    memcpy(inner, error_text, sizeof inner);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(error_text, sizeof error_text, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n + 2 < sizeof error_text) {
        /* Append ": <inner>", truncated to fit (no format: truncation is intended). */
        size_t at = (size_t)n, room = sizeof error_text - at - 1;
        memcpy(error_text + at, ": ", 2);
        at += 2;
        room -= 2;
        size_t len = strnlen(inner, room);
        memcpy(error_text + at, inner, len);
        error_text[at + len] = '\0';
    }
    return status;
}
