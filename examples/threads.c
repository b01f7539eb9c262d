/* mrtq example: one ResNet-18 3x3 layer (56 x 56 x 64 -> 64, int8, TFLite's
 * convention: per-channel Q31 double rounding) on the fast core, with the
 * caller's threads.
 *
 * The weights are packed once (mrtq_fastconv_init) and the per-channel
 * requantization planned once (mrtq_fastconv_q8plan_init: TFLite's Prepare);
 * each call (mrtq_fastconv_q8plan_run: its Eval) then checks only the input.
 * mrtq starts no threads. The caller hands the fast core a parallel-for
 * (here examples/pool.h, a small persistent pthread pool; pthreadpool's
 * pthreadpool_parallelize_1d has the same contract) and one scratch slot per
 * task; the call is split into that many tasks and gives the same bytes for
 * any number of them. The example checks the bytes against mrtq_conv2d_q8
 * (the scalar specification) and prints the time with 1 and with N threads
 * (N = the CPUs online, at most 8; or the first argument): the medians of 15
 * calls of each, the two alternating.
 * Built-in data: a deterministic pseudo-random input, weights and scales. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *why = ""; /* the reason of mrtq's last refusal */
#define MRTQ_ON_ERROR(code, reason) ((void)(code), why = (reason))
#include "mrtq.h"
#include "pool.h"

static uint32_t rng = 12345u;
static uint32_t next(void) { return rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5; }

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void check(mrtq_status st, const char *what) {
  if (st == MRTQ_OK) return;
  fprintf(stderr, "%s: %s (%s)\n", what, mrtq_status_str(st), why);
  exit(1);
}

/* One timed call of the planned layer with par (NULL: one task), in ms. */
static double run_ms(const mrtq_fastconv_q8plan *plan, const mrtq_qoperand *x, void *scr, size_t scr_bytes,
                     const mrtq_parallel *par, uint8_t *y) {
  double t0 = now();
  check(mrtq_fastconv_q8plan_run(plan, x, scr, scr_bytes, par, y), "mrtq_fastconv_q8plan_run");
  return (now() - t0) * 1e3;
}

#define ROUNDS 15
static double median(double *t) {
  double v;
  int i, j;
  for (i = 1; i < ROUNDS; i++)
    for (j = i; j > 0 && t[j - 1] > t[j]; j--) v = t[j], t[j] = t[j - 1], t[j - 1] = v;
  return t[ROUNDS / 2];
}

int main(int argc, char **argv) {
  mrtq_conv2d_shape s;
  mrtq_fastconv p;
  mrtq_fastconv_q8plan plan;
  mrtq_qoperand x, w;
  mrtq_rq rq[64];
  int32_t bias[64];
  size_t ho, wo, wb, sb, pb, i, nx, nw, ny;
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  int threads = argc > 1 ? atoi(argv[1]) : (int)(cpus < 1 ? 1 : cpus > 8 ? 8 : cpus);
  int8_t *xd, *wd;
  uint8_t *ref, *y1, *yn;
  void *mem, *pmem, *scr;
  ex_pool pool;
  mrtq_parallel par;
  double t_ref, t1[ROUNDS], tn[ROUNDS], m1, mn;
  int r;
  if (threads < 1 || threads > EX_POOL_MAX) threads = 1;
#if MRTQ__FAST_VNNI && defined(__GNUC__)
  if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") || !__builtin_cpu_supports("avx512dq") ||
      !__builtin_cpu_supports("avx512vnni"))
    return printf("this CPU lacks AVX-512 VNNI: run mrtq_threads (the plain C build) instead\n"), 77;
#endif
  memset(&s, 0, sizeof s);
  s.n = 1, s.c = 64, s.h = s.w = 56, s.o = 64, s.kh = s.kw = 3, s.stride_h = s.stride_w = 1, s.dil_h = s.dil_w = 1;
  s.pad_top = s.pad_bottom = s.pad_left = s.pad_right = 1, s.groups = 1, s.layout = MRTQ_NHWC;
  check(mrtq_conv2d_out(&s, &ho, &wo), "shape");
  nx = s.h * s.w * s.c, nw = s.o * s.kh * s.kw * s.c, ny = ho * wo * s.o;
  xd = (int8_t *)malloc(nx), wd = (int8_t *)malloc(nw), ref = (uint8_t *)malloc(ny), y1 = (uint8_t *)malloc(ny);
  yn = (uint8_t *)malloc(ny);
  for (i = 0; i < nx; i++) xd[i] = (int8_t)(next() >> 24);
  for (i = 0; i < nw; i++) wd[i] = (int8_t)(next() >> 24);
  memset(&x, 0, sizeof x), memset(&w, 0, sizeof w);
  x.data = xd, x.type = MRTQ_S8, x.zp = -3, w.data = wd, w.type = MRTQ_S8;
  for (i = 0; i < s.o; i++) { /* s_x s_w[o] / s_y spreading the sums over int8, ReLU as the clamp from the zero point */
    double scale = (0.5 + (double)(next() % 1000) / 1000.0) / (16.0 * 24.0);
    check(mrtq_rq_init(MRTQ_Q31_DBL, scale, -20, -20, 127, &rq[i]), "mrtq_rq_init");
    bias[i] = (int32_t)(next() % 20001) - 10000;
  }
  t_ref = now();
  check(mrtq_conv2d_q8(&s, rq, s.o, &x, &w, bias, MRTQ_S8, ref), "mrtq_conv2d_q8");
  t_ref = (now() - t_ref) * 1e3;

  check(mrtq_fastconv_sizes(&s, &wb, &sb), "mrtq_fastconv_sizes");
  mem = malloc(wb), scr = malloc(sb * (size_t)threads);
  if (!xd || !wd || !ref || !y1 || !yn || !mem || !scr) return fprintf(stderr, "out of memory\n"), 1;
  check(mrtq_fastconv_init(&s, &w, mem, wb, &p), "mrtq_fastconv_init");
  /* TFLite's Prepare: the per-channel descriptors and bias planned once */
  check(mrtq_fastconv_q8plan_sizes(&p, &pb), "mrtq_fastconv_q8plan_sizes");
  if (!(pmem = malloc(pb))) return fprintf(stderr, "out of memory\n"), 1;
  check(mrtq_fastconv_q8plan_init(&p, rq, s.o, bias, MRTQ_S8, pmem, pb, &plan), "mrtq_fastconv_q8plan_init");
  if (ex_pool_start(&pool, threads) != 0) return fprintf(stderr, "pthread_create failed\n"), 1;
  par.parallel_for = ex_pool_parallel_for, par.pool = &pool, par.slots = (size_t)threads;
  /* the two alternate, so a change in the machine's load between them moves both alike */
  for (r = 0; r < ROUNDS; r++) {
    t1[r] = run_ms(&plan, &x, scr, sb, NULL, y1);
    tn[r] = run_ms(&plan, &x, scr, sb * (size_t)threads, &par, yn);
  }
  ex_pool_stop(&pool);
  m1 = median(t1), mn = median(tn);

  printf("ResNet-18 conv2 3x3, 56x56x64 -> 64, int8, TFLite's per-channel Q31 requantization (%s)\n",
         MRTQ__FAST_VNNI ? "AVX512-VNNI fast core" : "fast core in plain C: build with -mavx512vnni -DMRTQ_SIMD=MRTQ_SIMD_AVX512 for speed");
  printf("  mrtq_conv2d_q8 (scalar specification)   %8.2f ms\n", t_ref);
  printf("  mrtq_fastconv_q8plan_run, 1 task        %8.2f ms  (median of %d calls, alternating with the next line's)\n", m1,
         ROUNDS);
  printf("  mrtq_fastconv_q8plan_run, %d threads     %8.2f ms  (%.2fx the 1-task speed; on a shared host this moves\n"
         "                                                    from run to run with the other work on its cores)\n",
         threads, mn, m1 / mn);
  printf("  bytes: 1 task %s the specification, %d threads %s\n", memcmp(y1, ref, ny) ? "DIFFER from" : "equal to", threads,
         memcmp(yn, ref, ny) ? "DIFFER" : "equal too");
  return memcmp(y1, ref, ny) || memcmp(yn, ref, ny);
}
