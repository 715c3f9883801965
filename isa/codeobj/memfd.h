/*
 * isa/codeobj/memfd.h — the memfd a thread's code objects are written into (internal).
 *
 * libelf writes a code object through a file descriptor.  Each thread has one memfd for
 * that, created on its first code object and reused by every later one (the writer
 * empties it first), so a warm compile creates and closes no descriptor.  It is closed
 * when the thread exits; in a child made by fork(), the forking thread's inherited
 * descriptor (the same file as the parent's) is closed and the child makes its own.
 */
#ifndef RDX_ISA_CODEOBJ_MEMFD_H
#define RDX_ISA_CODEOBJ_MEMFD_H

#include <rdx/status.h>

/* The calling thread's code-object memfd, created on first use, in *fd. */
rdx_status rdx_codeobj_memfd(int *fd);

#endif /* RDX_ISA_CODEOBJ_MEMFD_H */
