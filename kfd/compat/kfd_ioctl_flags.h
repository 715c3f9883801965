/*
 * kfd/compat/kfd_ioctl_flags.h — <linux/kfd_ioctl.h> plus a UB-free spelling
 * of its top allocation flag.
 *
 * The uapi header defines KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE as (1 << 31),
 * which overflows int when evaluated at run time (UBSan reports it).  The
 * same bit as an unsigned constant, checked against the header at compile
 * time; everything else comes from the header unchanged.
 */
#ifndef RDX_KFD_COMPAT_KFD_IOCTL_FLAGS_H
#define RDX_KFD_COMPAT_KFD_IOCTL_FLAGS_H

#include <linux/kfd_ioctl.h>

#define RDX_KFD_ALLOC_WRITABLE (1u << 31)
_Static_assert(RDX_KFD_ALLOC_WRITABLE == (unsigned)KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE,
               "KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE moved");

#endif
