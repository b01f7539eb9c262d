/* A small persistent pthread pool with the parallel-for that mrtq_parallel
 * takes (pthreadpool_parallelize_1d's contract): an example of the caller's
 * side, used by examples/threads.c and by the benchmark's 2-thread rows.
 * mrtq itself starts no threads and does not need this file.
 *
 *   ex_pool pool;
 *   ex_pool_start(&pool, 2);                 // the caller + 1 worker
 *   mrtq_parallel par = {ex_pool_parallel_for, &pool, 2};
 *   mrtq_fastconv_q8(..., scratch, 2 * sbytes, &par, dst);
 *   ex_pool_stop(&pool);
 *
 * Tasks are handed out one at a time under a mutex; the calling thread runs
 * tasks too and returns when every task has returned. */
#ifndef MRTQ_EXAMPLE_POOL_H
#define MRTQ_EXAMPLE_POOL_H

#include <pthread.h>
#include <stddef.h>

#define EX_POOL_MAX 64

typedef struct ex_pool {
  pthread_t th[EX_POOL_MAX];
  int workers; /* threads started besides the caller */
  pthread_mutex_t mu;
  pthread_cond_t go, done;
  unsigned long gen; /* one per parallel_for call */
  int busy, quit;    /* workers still in the current call; stop */
  void (*task)(void *, size_t);
  void *ctx;
  size_t n, next;
} ex_pool;

/* The next task index of the current call, or n when none is left. */
static size_t ex_pool_take(ex_pool *p) {
  size_t i;
  pthread_mutex_lock(&p->mu);
  i = p->next < p->n ? p->next++ : p->n;
  pthread_mutex_unlock(&p->mu);
  return i;
}

/* Wait a little without sleeping first (a call follows a call closely in a
 * network; a sleeping thread takes tens of microseconds to wake). */
#define EX_POOL_SPIN 20000
static void ex_pool_relax(void) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  __builtin_ia32_pause();
#endif
}

static void *ex_pool_worker(void *arg) {
  ex_pool *p = (ex_pool *)arg;
  unsigned long seen = 0;
  for (;;) {
    size_t i;
    int spin;
    for (spin = 0; spin < EX_POOL_SPIN && __atomic_load_n(&p->gen, __ATOMIC_ACQUIRE) == seen; spin++) ex_pool_relax();
    pthread_mutex_lock(&p->mu);
    while (p->gen == seen && !p->quit) pthread_cond_wait(&p->go, &p->mu);
    if (p->quit) {
      pthread_mutex_unlock(&p->mu);
      return NULL;
    }
    seen = p->gen;
    pthread_mutex_unlock(&p->mu);
    while ((i = ex_pool_take(p)) < p->n) p->task(p->ctx, i);
    pthread_mutex_lock(&p->mu);
    if (__atomic_sub_fetch(&p->busy, 1, __ATOMIC_ACQ_REL) == 0) pthread_cond_signal(&p->done);
    pthread_mutex_unlock(&p->mu);
  }
}

/* threads in all, the caller included (1: no worker). 0 on success. */
static int ex_pool_start(ex_pool *p, int threads) {
  int i;
  p->workers = 0, p->gen = 0, p->busy = 0, p->quit = 0, p->n = p->next = 0;
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->go, NULL);
  pthread_cond_init(&p->done, NULL);
  for (i = 1; i < threads && i <= EX_POOL_MAX; i++) {
    if (pthread_create(&p->th[p->workers], NULL, ex_pool_worker, p) != 0) return -1;
    p->workers++;
  }
  return 0;
}

/* mrtq_parallel.parallel_for */
static void ex_pool_parallel_for(void *pool, void (*task)(void *, size_t), void *ctx, size_t n) {
  ex_pool *p = (ex_pool *)pool;
  size_t i;
  int spin;
  pthread_mutex_lock(&p->mu);
  p->task = task, p->ctx = ctx, p->n = n, p->next = 0, p->busy = p->workers;
  __atomic_add_fetch(&p->gen, 1, __ATOMIC_RELEASE);
  pthread_cond_broadcast(&p->go);
  pthread_mutex_unlock(&p->mu);
  while ((i = ex_pool_take(p)) < n) task(ctx, i);
  for (spin = 0; spin < EX_POOL_SPIN && __atomic_load_n(&p->busy, __ATOMIC_ACQUIRE) > 0; spin++) ex_pool_relax();
  pthread_mutex_lock(&p->mu);
  while (p->busy > 0) pthread_cond_wait(&p->done, &p->mu);
  pthread_mutex_unlock(&p->mu);
}

static void ex_pool_stop(ex_pool *p) {
  int i;
  pthread_mutex_lock(&p->mu);
  p->quit = 1;
  pthread_cond_broadcast(&p->go);
  pthread_mutex_unlock(&p->mu);
  for (i = 0; i < p->workers; i++) pthread_join(p->th[i], NULL);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->go);
  pthread_cond_destroy(&p->done);
}

#endif /* MRTQ_EXAMPLE_POOL_H */
