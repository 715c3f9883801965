/* kfd/memory.h — allocation with a chosen CPU mapping (internal). */
#ifndef RDX_KFD_MEMORY_H
#define RDX_KFD_MEMORY_H

#include "kfd/internal.h"

/* rdx_kfd_mem_alloc, with the CPU view mapped from (cpu_fd, cpu_off) when
 * cpu_fd >= 0 (the doorbell slice is mapped through /dev/kfd). */
rdx_status rdx_kfd_mem_alloc_at(rdx_kfd *k, uint32_t gpu, const rdx_kfd_mem_desc *d, int cpu_fd,
                                uint64_t cpu_off, rdx_kfd_mem **out);

/* AMDKFD_IOC_MAP_MEMORY_TO_GPU (map) or UNMAP_MEMORY_FROM_GPU of m in its
 * GPU's VM, or every GPU's when it was allocated with RDX_KFD_MEM_ALL_GPUS. */
rdx_status rdx_kfd_mem_map(rdx_kfd *k, rdx_kfd_mem *m, int map);

#endif /* RDX_KFD_MEMORY_H */
