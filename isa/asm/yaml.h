/*
 * isa/asm/yaml.h — the YAML subset of .amdgpu_metadata blocks, to MessagePack
 * (internal).
 *
 * Accepts what LLVM writes and people write by hand in metadata blocks: block
 * maps ("key: value"), block sequences ("- item", also holding maps), flow
 * sequences of scalars ("[ 16, 16, 1 ]"), plain and quoted scalars, comments,
 * and the "---" / "..." document markers.  Typing follows LLVM's: plain
 * integers become integers, true/false booleans, everything else and all
 * quoted scalars strings.  Map keys are written sorted, as LLVM writes them.
 */
#ifndef RDX_ISA_ASM_YAML_H
#define RDX_ISA_ASM_YAML_H

#include <stddef.h>
#include <stdint.h>

#include <rdx/status.h>

/*
 * Convert YAML text to one MessagePack document in a new malloc'd buffer
 * (*out, *len; the caller frees it).  Errors: RDX_ERR_PARSE naming the line
 * (relative to `first_line`, the line of the text's first character in
 * `file`) and what was expected; RDX_ERR_NOMEM.
 */
rdx_status rdx_asm_yaml_to_msgpack(const char *text, size_t n, const char *file,
                                   unsigned first_line, uint8_t **out, size_t *len);

#endif /* RDX_ISA_ASM_YAML_H */
