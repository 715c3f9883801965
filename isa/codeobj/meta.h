/*
 * isa/codeobj/meta.h — the code object metadata (AMDGPUUsage "Code Object V4
 * Metadata" / "V5"): kernel structs to MessagePack and back (internal).
 */
#ifndef RDX_ISA_CODEOBJ_META_H
#define RDX_ISA_CODEOBJ_META_H

#include <rdx/codeobj.h>

#include "util/arena.h"
#include "isa/codeobj/msgpack.h"
#include "util/buf.h"

/* amdhsa.version the writer uses for code object `version` (4: 1.1, 5: 1.2). */
void rdx_codeobj_meta_version(unsigned version, uint32_t out[2]);

/*
 * Append the whole metadata document (amdhsa.kernels, amdhsa.target
 * "amdgcn-amd-amdhsa--<target>", amdhsa.version) for `n` kernels to `b`.
 * Kernel meta .name/.symbol default to the kernel name / "<name>.kd".
 */
rdx_status rdx_codeobj_meta_encode(rdx_buf *b, const rdx_codeobj_target *t, unsigned version,
                                   const rdx_codeobj_kernel *ks, size_t n);

/*
 * Decode amdhsa.kernels[index] (`km`) into *out; strings point into the
 * document, the args array is allocated in `a`.  Messages name `what` and the
 * key path (amdhsa.kernels[1].args[0].offset).
 */
rdx_status rdx_codeobj_meta_decode_kernel(const rdx_msgpack_node *km, size_t index, rdx_arena *a,
                                          const char *what, rdx_codeobj_kernel_meta *out);

#endif /* RDX_ISA_CODEOBJ_META_H */
