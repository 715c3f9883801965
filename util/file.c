/* util/file.c — whole-file I/O. */
#include "util/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/error.h"

rdx_status rdx_file_read(const char *path, uint8_t **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return rdx_fail_errno(RDX_ERR_IO, errno, "cannot open '%s'", path);
    size_t cap = 4096, n = 0;
    uint8_t *data = malloc(cap);
    if (!data) {
        fclose(f);
        return rdx_fail(RDX_ERR_NOMEM, "out of memory reading '%s'", path);
    }
    for (;;) {
        if (n + 1 >= cap) {
            uint8_t *p = realloc(data, cap * 2);
            if (!p) {
                free(data);
                fclose(f);
                return rdx_fail(RDX_ERR_NOMEM, "out of memory reading '%s'", path);
            }
            data = p;
            cap *= 2;
        }
        size_t got = fread(data + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    int err = ferror(f) ? errno : 0;
    fclose(f);
    if (err) {
        free(data);
        return rdx_fail_errno(RDX_ERR_IO, err, "cannot read '%s'", path);
    }
    data[n] = 0;
    *out = data;
    *len = n;
    return RDX_OK;
}

rdx_status rdx_file_write(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return rdx_fail_errno(RDX_ERR_IO, errno, "cannot create '%s'", path);
    size_t put = fwrite(data, 1, len, f);
    int err = put != len ? errno : 0;
    if (fclose(f) != 0 && !err)
        err = errno;
    if (err || put != len)
        return rdx_fail_errno(RDX_ERR_IO, err ? err : EIO, "cannot write '%s'", path);
    return RDX_OK;
}
