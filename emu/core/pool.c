/*
 * emu/core/pool.c — the host threads that run a dispatch's workgroups.  They are
 * created on the first dispatch that needs them and then park on a condition
 * variable between dispatches, until rdx_emu_destroy: a dispatch wakes them instead
 * of creating and ending threads (each of which cost a clone, a stack madvise at
 * exit — a TLB shootdown of every core running the process — and a new placement
 * by the scheduler).
 */
#include <stdlib.h>
#include <unistd.h>

#include "emu/core/pool.h"

struct emu_pool {
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    pthread_t *th;  /* th[i - 1] runs index i */
    unsigned nth;   /* threads created */
    uint64_t gen;   /* dispatches started (a thread runs each generation once) */
    unsigned want;  /* indices 1 .. want-1 take part in generation gen */
    unsigned busy;  /* of those, still running */
    int quit;       /* rdx_emu_destroy: the threads end */
    pid_t pid;      /* the process that created the threads (none cross fork) */
    emu_pool_fn fn; /* the current generation's work */
    void *arg;
};

typedef struct pool_thread {
    emu_pool *p;
    unsigned index;
} pool_thread;

static void *pool_main(void *a)
{
    pool_thread self = *(pool_thread *)a;
    free(a);
    emu_pool *p = self.p;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->mu);
    seen = p->gen; /* created for the generation being started: it takes part in it */
    if (seen)
        seen--;
    for (;;) {
        while (!p->quit && p->gen == seen)
            pthread_cond_wait(&p->go, &p->mu);
        if (p->quit)
            break;
        seen = p->gen;
        if (self.index >= p->want)
            continue;
        emu_pool_fn fn = p->fn;
        void *arg = p->arg;
        pthread_mutex_unlock(&p->mu);
        fn(arg, self.index);
        pthread_mutex_lock(&p->mu);
        if (--p->busy == 0)
            pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static emu_pool *pool_new(void)
{
    emu_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    p->pid = getpid();
    return p;
}

/* Threads up to index n - 1 (called with p->mu held); returns how many indices can run. */
static unsigned pool_grow(emu_pool *p, unsigned n)
{
    if (p->nth + 1 >= n)
        return n;
    pthread_t *th = realloc(p->th, (n - 1) * sizeof *th);
    if (!th)
        return p->nth + 1;
    p->th = th;
    while (p->nth + 1 < n) {
        pool_thread *a = malloc(sizeof *a);
        if (!a)
            break;
        a->p = p;
        a->index = p->nth + 1;
        if (pthread_create(&p->th[p->nth], NULL, pool_main, a)) {
            free(a);
            break;
        }
        p->nth++;
    }
    return p->nth + 1;
}

/* A forked child's copy of its parent's pool: its memory freed, its mutex and condition
   variables not touched (one of the parent's threads may have held the mutex at the fork;
   no thread of the child uses them). */
static void pool_forget(emu_pool *p)
{
    free(p->th);
    free(p);
}

unsigned emu_pool_run(emu_pool **pp, unsigned n, emu_pool_fn fn, void *arg)
{
    emu_pool *p = *pp;
    if (n > 1 && p && p->pid != getpid()) {
        pool_forget(p); /* a forked child: the parent's threads are not here */
        p = NULL;
        *pp = NULL;
    }
    if (n > 1 && !p)
        p = *pp = pool_new();
    unsigned ran = 1;
    if (n > 1 && p) {
        pthread_mutex_lock(&p->mu);
        /* new threads start in this generation: gen is bumped first */
        p->gen++;
        ran = pool_grow(p, n);
        p->want = ran;
        p->busy = ran - 1;
        p->fn = fn;
        p->arg = arg;
        pthread_cond_broadcast(&p->go);
        pthread_mutex_unlock(&p->mu);
    }
    fn(arg, 0);
    if (ran > 1) {
        pthread_mutex_lock(&p->mu);
        while (p->busy)
            pthread_cond_wait(&p->done, &p->mu);
        pthread_mutex_unlock(&p->mu);
    }
    return ran;
}

void emu_pool_free(emu_pool *p)
{
    if (!p)
        return;
    if (p->pid != getpid()) { /* a forked child's copy: its threads are the parent's */
        pool_forget(p);
        return;
    }
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->nth; i++)
        pthread_join(p->th[i], NULL);
    free(p->th);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->go);
    pthread_mutex_destroy(&p->mu);
    free(p);
}
