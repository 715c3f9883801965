/*
 * isa/codeobj/elfdefs.h — AMDGPU ELF constants (AMDGPUUsage "ELF Code
 * Object") that older <elf.h> may lack (internal).
 */
#ifndef RDX_ISA_CODEOBJ_ELFDEFS_H
#define RDX_ISA_CODEOBJ_ELFDEFS_H

#include <elf.h>

#define RDX_EM_AMDGPU           224
#define RDX_ELFOSABI_AMDGPU_HSA 64
#define RDX_EF_AMDGPU_MACH      0x0ffu
#define RDX_NT_AMDGPU_METADATA  32
#define RDX_AMDGPU_NOTE_NAME    "AMDGPU"
/* EI_ABIVERSION of code object v4, v5, v6. */
#define RDX_ELFABIVERSION_HSA_V4 2
#define RDX_ELFABIVERSION_HSA_V5 3
#define RDX_ELFABIVERSION_HSA_V6 4

/* AMDGPU relocation types (AMDGPUUsage "Relocation Records"): X(name, value). */
#define RDX_R_AMDGPU_LIST(X) \
    X(NONE, 0)               \
    X(ABS32_LO, 1)           \
    X(ABS32_HI, 2)           \
    X(ABS64, 3)              \
    X(REL32, 4)              \
    X(REL64, 5)              \
    X(ABS32, 6)              \
    X(GOTPCREL, 7)           \
    X(GOTPCREL32_LO, 8)      \
    X(GOTPCREL32_HI, 9)      \
    X(REL32_LO, 10)          \
    X(REL32_HI, 11)          \
    X(RELATIVE64, 13)        \
    X(REL16, 14)

enum {
#define X(name, value) RDX_R_AMDGPU_##name = value,
    RDX_R_AMDGPU_LIST(X)
#undef X
};

/* Page size the writer aligns segments to (as ld.lld does for AMDGPU). */
#define RDX_CODEOBJ_PAGE 0x1000u

#endif /* RDX_ISA_CODEOBJ_ELFDEFS_H */
