/*
 * util/file.h — whole-file I/O (internal).
 */
#ifndef RDX_UTIL_FILE_H
#define RDX_UTIL_FILE_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/status.h>

/*
 * Read all of `path` into a new malloc'd buffer (*out, owned by the caller,
 * NUL-terminated one past *len).  On failure nothing is allocated and the
 * message names the path and the OS error.
 */
rdx_status rdx_file_read(const char *path, uint8_t **out, size_t *len);

/* Write `len` bytes to `path`, replacing it.  Message names the path on failure. */
rdx_status rdx_file_write(const char *path, const void *data, size_t len);

#endif /* RDX_UTIL_FILE_H */
