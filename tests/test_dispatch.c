/* Run-time dispatch of the array functions (mrtq/requant.h, MRTQ_NO_DISPATCH
 * in mrtq.h). Built several ways (tests/meson.build): plain (dispatch on),
 * -mavx2 (dispatch on, above an AVX2 floor), -mavx512f/bw/dq, MRTQ_SIMD and
 * MRTQ_NO_DISPATCH (dispatch off: the compile-time path). Checks that
 *   - dispatch is on exactly in the builds that should have it;
 *   - the automatic choice is the best path this CPU runs, as the compiler's
 *     own detection (__builtin_cpu_supports, which reads cpuid and xgetbv
 *     itself) sees it, and it is cached: the same on every call;
 *   - mrtq__simd_force reaches every path up to that one, clamps a request
 *     above it, and returns to the automatic choice;
 *   - on each reachable path, the public entry points (s8 / u8 requant of the
 *     five families, mrtq_requant, the _outer forms, array quantize and
 *     dequantize) give the bytes of the scalar specification (mrtq_rq_apply,
 *     mrtq_quantize_f32, mrtq_dequantize_f32; test_requant.c checks those
 *     against their independent oracles) on edge values and random inputs.
 * tests/test_array.c's dispatch build runs its full tables on every path. */
#include <math.h>

#include "harness.h"
#include "mrtq.h"

#ifndef MRTQ_TEST_PATH
#define MRTQ_TEST_PATH "default"
#endif
#ifndef MRTQ_TEST_EXPECT_DISPATCH
#define MRTQ_TEST_EXPECT_DISPATCH 0
#endif

static const char *names[] = {"scalar", "sse41", "avx2", "avx512", "neon"};
static long long compared;

/* the best x86 path by the compiler's detection; elsewhere the build's */
static int best_path(void) {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq"))
    return MRTQ_SIMD_AVX512;
  if (__builtin_cpu_supports("avx2")) return MRTQ_SIMD_AVX2;
  if (__builtin_cpu_supports("sse4.1")) return MRTQ_SIMD_SSE41;
  return MRTQ_SIMD_SCALAR;
#else
  return MRTQ_SIMD;
#endif
}

#define N 4099 /* not a multiple of any block: every path leaves a tail */
static int32_t acc[N];
static int8_t o8[N + 1];
static uint8_t u8[N + 1];
static float xf[N], back[N];

static void fill_acc(void) {
  int32_t ed[TH_EDGES_MAX];
  int ne = th_edges(ed), i;
  for (i = 0; i < N; i++) {
    if (i < ne) acc[i] = ed[i];
    else if (i < 600) acc[i] = (int32_t)(th_range(-(1 << 20), 1 << 20) * 2 + 1) * (1 << (i % 11)); /* ties */
    else acc[i] = (th_rand32() & 1) ? th_i32() : (int32_t)th_range(-(1 << 20), 1 << 20);
  }
}

/* the public entry points on the path now in effect against the scalar
 * specification */
static void compare_on_path(void) {
  static const double scales[] = {1.0 / 64, 0.0123, 3.5, 1.0 / 4096, 1e-6};
  static const int32_t zps[] = {0, -128, 255, 17, 1 << 23, INT32_MIN};
  const char *p = names[mrtq__simd_path()];
  int s, k, z, r;
  size_t i;
  for (s = MRTQ_Q31_DBL; s <= MRTQ_FP32; s++)
    for (k = 0; k < 5; k++)
      for (z = 0; z < 6; z++)
        for (r = 0; r < 2; r++) {
          mrtq_rq rq;
          int32_t qmin = r ? -100 : INT32_MIN, qmax = r ? 200 : INT32_MAX;
          if (mrtq_rq_init((mrtq_scheme)s, scales[k], zps[z], qmin, qmax, &rq) != MRTQ_OK) continue;
          fill_acc();
          CHECK_EQ(mrtq_requant_s8(&rq, acc, N, o8 + 1), MRTQ_OK, "s8");
          CHECK_EQ(mrtq_requant_u8(&rq, acc, N, u8 + 1), MRTQ_OK, "u8");
          for (i = 0; i < N; i++) {
            CHECK_EQ(o8[i + 1], mrtq_rq_apply(&rq, acc[i], -128, 127), "%s s8 scheme %d acc %d zp %d", p, s, acc[i], zps[z]);
            CHECK_EQ(u8[i + 1], mrtq_rq_apply(&rq, acc[i], 0, 255), "%s u8 scheme %d acc %d zp %d", p, s, acc[i], zps[z]);
          }
          CHECK_EQ(mrtq_requant(&rq, acc, N, MRTQ_S8, o8), MRTQ_OK, "requant");
          for (i = 0; i < N; i++) CHECK_EQ(o8[i], mrtq_rq_apply(&rq, acc[i], -128, 127), "%s mrtq_requant", p);
          compared += 3 * N;
        }
  { /* per channel, channel-outer: 3 channels of 1000 (blocks and tails) */
    mrtq_rq rq[3];
    for (k = 0; k < 3; k++) mrtq_rq_init((mrtq_scheme)k, scales[k], zps[k], INT32_MIN, INT32_MAX, &rq[k]);
    fill_acc();
    CHECK_EQ(mrtq_requant_u8_outer(rq, acc, 1, 3, 1000, u8), MRTQ_OK, "outer");
    for (i = 0; i < 3000; i++) CHECK_EQ(u8[i], mrtq_rq_apply(&rq[i / 1000], acc[i], 0, 255), "%s outer %zu", p, i);
    compared += 3000;
  }
  /* array quantize / dequantize: edge floats, then random ones */
  for (z = 0; z < 5; z++) {
    float sc = (float)scales[z];
    int32_t zp = zps[z];
    for (i = 0; i < N; i++) {
      static const float ef[] = {0.0f, -0.0f, 0.5f, -0.5f, 1.5f, -2.5f, 127.5f, -128.5f, 1e30f, -1e30f, 8388608.5f};
      uint32_t b = th_rand32();
      if (i < 11) xf[i] = ef[i] / sc;
      else if ((b & 3u) == 0) xf[i] = (float)((double)th_range(-600, 600) / 2.0) / sc; /* ties after scaling */
      else xf[i] = (float)((double)(int32_t)th_rand32() / 16777216.0) * 300.0f / sc;
    }
    CHECK_EQ(mrtq_quantize_f32_s8(1.0f / sc, zp, xf, N, o8), MRTQ_OK, "q s8");
    CHECK_EQ(mrtq_quantize_f32_u8(1.0f / sc, zp, xf, N, u8), MRTQ_OK, "q u8");
    for (i = 0; i < N; i++) {
      CHECK_EQ(o8[i], mrtq_quantize_f32(xf[i], 1.0f / sc, zp, -128, 127), "%s quantize s8 x %a", p, (double)xf[i]);
      CHECK_EQ(u8[i], mrtq_quantize_f32(xf[i], 1.0f / sc, zp, 0, 255), "%s quantize u8 x %a", p, (double)xf[i]);
    }
    CHECK_EQ(mrtq_dequantize_u8_f32(sc, zp, u8, N, back), MRTQ_OK, "dq u8");
    for (i = 0; i < N; i++) CHECK(memcmp(&back[i], &(float){mrtq_dequantize_f32(u8[i], sc, zp)}, 4) == 0);
    CHECK_EQ(mrtq_dequantize_s8_f32(sc, zp, o8, N, back), MRTQ_OK, "dq s8");
    for (i = 0; i < N; i++) CHECK(memcmp(&back[i], &(float){mrtq_dequantize_f32(o8[i], sc, zp)}, 4) == 0);
    compared += 4 * N;
  }
}

static void test_choice(void) {
  int best = best_path();
  CHECK_EQ(MRTQ__DISPATCH, MRTQ_TEST_EXPECT_DISPATCH, "dispatch on in build " MRTQ_TEST_PATH);
#if MRTQ__DISPATCH
  CHECK_EQ(mrtq__simd_path(), best, "automatic choice");
  CHECK_EQ(mrtq__simd_path(), best, "cached choice, second call");
  CHECK_EQ(mrtq__simd_cpu(), best, "detection");
#else
  CHECK_EQ(mrtq__simd_path(), MRTQ_SIMD, "no dispatch: the compile-time path");
  CHECK_EQ(mrtq__simd_force(MRTQ_SIMD_SCALAR), MRTQ_SIMD, "no dispatch: force changes nothing");
  (void)best;
#endif
  printf("     build %s: MRTQ_SIMD %s, dispatch %d, path in use %s\n", MRTQ_TEST_PATH, names[MRTQ_SIMD], MRTQ__DISPATCH,
         names[mrtq__simd_path()]);
}

static void test_force(void) {
#if MRTQ__DISPATCH
  int best = best_path(), level;
  for (level = MRTQ_SIMD_SCALAR; level <= best; level++) {
    CHECK_EQ(mrtq__simd_force(level), level, "force %d", level);
    CHECK_EQ(mrtq__simd_path(), level, "forced path stays %d", level);
  }
  CHECK_EQ(mrtq__simd_force(MRTQ_SIMD_AVX512), best, "a path above the CPU's gives the CPU's best");
  CHECK_EQ(mrtq__simd_force(MRTQ_SIMD_NEON), best, "not an x86 path: automatic");
  CHECK_EQ(mrtq__simd_force(-1), best, "back to automatic");
#else
  CHECK_EQ(mrtq__simd_force(-1), MRTQ_SIMD, "no dispatch");
#endif
}

static void test_results_every_path(void) {
  int level, top = MRTQ__DISPATCH ? best_path() : MRTQ_SIMD_SCALAR;
  compared = 0;
  for (level = MRTQ_SIMD_SCALAR; level <= top; level++) {
    if (MRTQ__DISPATCH) CHECK_EQ(mrtq__simd_force(level), level, "force");
    compare_on_path();
  }
  mrtq__simd_force(-1);
  compare_on_path(); /* and the automatic choice */
  printf("  dispatch (%s build, paths %s up to %s): %lld outputs compared\n", MRTQ_TEST_PATH,
         MRTQ__DISPATCH ? "scalar" : "fixed", names[MRTQ__DISPATCH ? top : MRTQ_SIMD], compared);
}

int main(void) {
#if defined(__x86_64__)
#if MRTQ_SIMD == MRTQ_SIMD_AVX512
  if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") || !__builtin_cpu_supports("avx512dq"))
    return th_skip("test_dispatch_" MRTQ_TEST_PATH, "CPU lacks AVX-512 F/BW/DQ");
#elif MRTQ_SIMD == MRTQ_SIMD_AVX2
  if (!__builtin_cpu_supports("avx2")) return th_skip("test_dispatch_" MRTQ_TEST_PATH, "CPU lacks AVX2");
#endif
#endif
  TH_RUN(test_choice);
  TH_RUN(test_force);
  TH_RUN(test_results_every_path);
  return th_finish("test_dispatch_" MRTQ_TEST_PATH);
}
