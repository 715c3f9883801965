/* emu/core/pool.h — the parked host threads of an emulator (pool.c). */
#ifndef RDX_EMU_CORE_POOL_H
#define RDX_EMU_CORE_POOL_H

#include <pthread.h>
#include <stdint.h>

typedef struct emu_pool emu_pool;

/* Work of one index of a dispatch (0 is the caller's thread). */
typedef void (*emu_pool_fn)(void *arg, unsigned index);

/*
 * Run fn(arg, i) for i in 0 .. n-1 at the same time: 0 on the caller's thread, the others
 * on the pool's threads (*pp, created on first use, more threads created as needed), and
 * return when every one has returned.  Returns how many indices ran: fewer than n when a
 * thread could not be created (the caller's work distribution must not depend on n).
 * After a fork the child starts a pool of its own.
 */
unsigned emu_pool_run(emu_pool **pp, unsigned n, emu_pool_fn fn, void *arg);

/* End and join the threads and free the pool (NULL is ignored). */
void emu_pool_free(emu_pool *p);

#endif /* RDX_EMU_CORE_POOL_H */
