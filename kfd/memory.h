/* kfd/memory.h — allocation with a chosen CPU mapping (internal). */
#ifndef RDX_KFD_MEMORY_H
#define RDX_KFD_MEMORY_H

#include "kfd/internal.h"

/* rdx_kfd_mem_alloc, with the CPU view mapped from (cpu_fd, cpu_off) when
 * cpu_fd >= 0 (the doorbell slice is mapped through /dev/kfd). */
rdx_status rdx_kfd_mem_alloc_at(rdx_kfd *k, uint32_t gpu, const rdx_kfd_mem_desc *d, int cpu_fd,
                                uint64_t cpu_off, rdx_kfd_mem **out);

#endif /* RDX_KFD_MEMORY_H */
