/* mrtq example: one ResNet-18 3x3 layer (56 x 56 x 64 -> 64, int8, TFLite's
 * convention: per-channel Q31 double rounding) on the fast core, with the
 * caller's threads.
 *
 * mrtq starts no threads. The caller hands the fast core a parallel-for
 * (here examples/pool.h, a small persistent pthread pool; pthreadpool's
 * pthreadpool_parallelize_1d has the same contract) and one scratch slot per
 * task; the call is split into that many tasks and gives the same bytes for
 * any number of them. The example checks the bytes against mrtq_conv2d_q8
 * (the scalar specification) and prints the time with 1 and with N threads
 * (N = the CPUs online, at most 8; or the first argument).
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

/* The median of 7 timed runs of the fast core with par (NULL: one task). */
static double run_ms(const mrtq_fastconv *p, const mrtq_rq *rq, size_t o, const mrtq_qoperand *x, const int32_t *bias,
                     void *scr, size_t scr_bytes, const mrtq_parallel *par, uint8_t *y) {
  double t[7], v;
  int i, j;
  for (i = 0; i < 7; i++) {
    double t0 = now();
    check(mrtq_fastconv_q8(p, rq, o, x, bias, MRTQ_S8, scr, scr_bytes, par, y), "mrtq_fastconv_q8");
    t[i] = (now() - t0) * 1e3;
  }
  for (i = 1; i < 7; i++)
    for (j = i; j > 0 && t[j - 1] > t[j]; j--) v = t[j], t[j] = t[j - 1], t[j - 1] = v;
  return t[3];
}

int main(int argc, char **argv) {
  mrtq_conv2d_shape s;
  mrtq_fastconv p;
  mrtq_qoperand x, w;
  mrtq_rq rq[64];
  int32_t bias[64];
  size_t ho, wo, wb, sb, i, nx, nw, ny;
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  int threads = argc > 1 ? atoi(argv[1]) : (int)(cpus < 1 ? 1 : cpus > 8 ? 8 : cpus);
  int8_t *xd, *wd;
  uint8_t *ref, *y1, *yn;
  void *mem, *scr;
  ex_pool pool;
  mrtq_parallel par;
  double t_ref, t1, tn;
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
  t1 = run_ms(&p, rq, s.o, &x, bias, scr, sb, NULL, y1);
  if (ex_pool_start(&pool, threads) != 0) return fprintf(stderr, "pthread_create failed\n"), 1;
  par.parallel_for = ex_pool_parallel_for, par.pool = &pool, par.slots = (size_t)threads;
  tn = run_ms(&p, rq, s.o, &x, bias, scr, sb * (size_t)threads, &par, yn);
  ex_pool_stop(&pool);

  printf("ResNet-18 conv2 3x3, 56x56x64 -> 64, int8, TFLite's per-channel Q31 requantization (%s)\n",
         MRTQ__FAST_VNNI ? "AVX512-VNNI fast core" : "fast core in plain C: build with -mavx512vnni -DMRTQ_SIMD=MRTQ_SIMD_AVX512 for speed");
  printf("  mrtq_conv2d_q8 (scalar specification)   %8.2f ms\n", t_ref);
  printf("  mrtq_fastconv_q8, 1 task                %8.2f ms\n", t1);
  printf("  mrtq_fastconv_q8, %d threads (pool.h)   %8.2f ms  (%.2fx the 1-task speed)\n", threads, tn, t1 / tn);
  printf("  bytes: 1 task %s the specification, %d threads %s\n", memcmp(y1, ref, ny) ? "DIFFER from" : "equal to", threads,
         memcmp(yn, ref, ny) ? "DIFFER" : "equal too");
  return memcmp(y1, ref, ny) || memcmp(yn, ref, ny);
}
