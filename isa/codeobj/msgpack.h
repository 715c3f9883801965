/*
 * isa/codeobj/msgpack.h — MessagePack encoder, strict decoder and document
 * tree (internal; used for the NT_AMDGPU_METADATA note).
 *
 * The format is the public MessagePack specification (msgpack.org): nil,
 * bool, int/uint (up to 64 bits), float32/float64, str, bin, array, map.
 * Extension types are rejected.  The decoder checks every length against the
 * bytes left, limits nesting depth, and rejects trailing bytes.
 */
#ifndef RDX_ISA_CODEOBJ_MSGPACK_H
#define RDX_ISA_CODEOBJ_MSGPACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rdx/codeobj.h>
#include <rdx/status.h>

#include "util/arena.h"
#include "util/buf.h"

typedef enum rdx_msgpack_kind {
    RDX_MSGPACK_NIL,
    RDX_MSGPACK_BOOL,
    RDX_MSGPACK_INT, /* negative integers only */
    RDX_MSGPACK_UINT,
    RDX_MSGPACK_FLOAT,
    RDX_MSGPACK_STR,
    RDX_MSGPACK_BIN,
    RDX_MSGPACK_ARRAY,
    RDX_MSGPACK_MAP,
} rdx_msgpack_kind;

/* Maximum nesting depth the decoder accepts. */
#define RDX_MSGPACK_MAX_DEPTH 32

/* One node of a decoded document (allocated in an arena). */
struct rdx_msgpack_node {
    rdx_msgpack_kind kind;
    uint32_t len; /* STR/BIN: bytes; ARRAY: items; MAP: key/value pairs */
    union {
        bool b;
        int64_t i;
        uint64_t u;
        double f;
        const char *str; /* NUL-terminated copy (may contain NULs inside) */
        const uint8_t *bin;
        rdx_msgpack_node *items; /* ARRAY: len items; MAP: 2*len, key then value */
    } v;
};

/* Name of a kind ("map", "unsigned integer", ...) for messages. */
const char *rdx_msgpack_kind_name(rdx_msgpack_kind k);

/*
 * Decode exactly one object filling all `len` bytes at `p`.  Nodes and
 * strings are allocated in `arena`.  `what` names the input in messages,
 * which give the byte offset: "<what>: msgpack offset 12: ...".
 */
rdx_status rdx_msgpack_decode(const uint8_t *p, size_t len, rdx_arena *arena, const char *what,
                              rdx_msgpack_node **out);

/* The value of string key `key` in map `m`, or NULL (also when m is not a map). */
const rdx_msgpack_node *rdx_msgpack_map_get(const rdx_msgpack_node *m, const char *key);

/* Streaming encoder: append one item (containers: the header, then the items). */
rdx_status rdx_msgpack_put_nil(rdx_buf *b);
rdx_status rdx_msgpack_put_bool(rdx_buf *b, bool v);
rdx_status rdx_msgpack_put_uint(rdx_buf *b, uint64_t v);
rdx_status rdx_msgpack_put_int(rdx_buf *b, int64_t v); /* non-negative values as uint */
rdx_status rdx_msgpack_put_float(rdx_buf *b, double v);
rdx_status rdx_msgpack_put_str(rdx_buf *b, const char *s, size_t n);
/* Only the header of a string of `n` bytes; the caller appends the bytes. */
rdx_status rdx_msgpack_put_str_header(rdx_buf *b, size_t n);
rdx_status rdx_msgpack_put_cstr(rdx_buf *b, const char *s);
rdx_status rdx_msgpack_put_bin(rdx_buf *b, const void *p, size_t n);
rdx_status rdx_msgpack_put_array(rdx_buf *b, uint32_t count);
rdx_status rdx_msgpack_put_map(rdx_buf *b, uint32_t pairs);

/* Encode a whole tree (smallest encodings). */
rdx_status rdx_msgpack_encode(rdx_buf *b, const rdx_msgpack_node *n);

/* Print a tree as YAML, llvm-readelf style; `indent` spaces before each line. */
void rdx_msgpack_print_yaml(FILE *f, const rdx_msgpack_node *n, int indent);

#endif /* RDX_ISA_CODEOBJ_MSGPACK_H */
