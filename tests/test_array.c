/* The array requantization API (mrtq/requant.h) against its scalar
 * specification mrtq_rq_apply, element by element. Built once per SIMD path
 * (scalar, AVX2, AVX-512: see tests/meson.build); every build must give the
 * same bytes on edge values, exact ties for every shift, every zero point of
 * the output type, >= 10^6 random inputs per family, any length and alignment,
 * and must not write past the end of the output (guard bytes). */
#include <math.h>

#include "harness.h"
#include "mrtq.h"

#ifndef MRTQ_TEST_PATH
#define MRTQ_TEST_PATH "default"
#endif

static const char *family_name[] = {"Q31_DBL", "Q31_RNDNU", "Q15_VTA", "Q15_RNDNU", "FP32"};

#define MAXN 20000
static int32_t accbuf[MAXN + 64];
static uint8_t outbuf[MAXN + 64 + 32];

/* Run s8 and u8 over acc[0..n) at a misaligned offset and compare with the
 * scalar specification; check the guard bytes after the output. */
static void check_array(const mrtq_rq *rq, const int32_t *acc, size_t n, size_t off) {
  size_t i;
  int8_t *o8 = (int8_t *)outbuf + off;
  memset(outbuf, 0xA5, sizeof outbuf);
  mrtq_requant_s8(rq, acc, n, o8);
  for (i = 0; i < n; i++)
    CHECK_EQ(o8[i], mrtq_rq_apply(rq, acc[i], -128, 127), "s8 %s acc=%d mult=%d shift=%d zp=%d [%d,%d] i=%zu",
             family_name[rq->scheme], acc[i], rq->m.mult, rq->m.shift, rq->zp, rq->qmin, rq->qmax, i);
  for (i = off + n; i < off + n + 32; i++) CHECK_EQ(outbuf[i], 0xA5, "guard byte %zu", i);
  memset(outbuf, 0xA5, sizeof outbuf);
  mrtq_requant_u8(rq, acc, n, outbuf + off);
  for (i = 0; i < n; i++)
    CHECK_EQ(outbuf[off + i], mrtq_rq_apply(rq, acc[i], 0, 255), "u8 %s acc=%d mult=%d shift=%d zp=%d i=%zu",
             family_name[rq->scheme], acc[i], rq->m.mult, rq->m.shift, rq->zp, i);
  for (i = off + n; i < off + n + 32; i++) CHECK_EQ(outbuf[i], 0xA5, "guard byte %zu", i);
}

static double rand_scale(mrtq_scheme s) {
  int top = s == MRTQ_Q15_VTA || s == MRTQ_Q15_RNDNU ? 14 : 20;
  double mant = 0.5 + (double)(th_rand64() >> 11) / 18014398509481984.0;
  return ldexp(mant, (int)th_range(-15, top));
}

static void rand_rq(mrtq_rq *rq, mrtq_scheme s) {
  int32_t zp, qmin = INT32_MIN, qmax = INT32_MAX;
  switch (th_rand32() % 6u) {
    case 0: zp = (int32_t)th_range(-128, 127); break;
    case 1: zp = (int32_t)th_range(0, 255); break;
    case 2: zp = (int32_t)th_range(-(1 << 24), 1 << 24); break; /* fast path still applies */
    case 3: zp = th_i32(); break;                                  /* scalar fallback */
    default: zp = (int32_t)th_range(-300, 300); break;
  }
  if (th_rand32() % 3u == 0) {
    qmin = (int32_t)th_range(-200, 100);
    qmax = (int32_t)th_range(qmin, 300);
  }
  while (mrtq_rq_init(rq, s, rand_scale(s), zp, qmin, qmax) != MRTQ_OK) {
  }
}

/* edge values plus exact ties of this rq's rounding */
static size_t fill_edges(const mrtq_rq *rq, int32_t *acc) {
  int32_t ed[TH_EDGES_MAX];
  int n = th_edges(ed), i;
  size_t k = 0;
  for (i = 0; i < n; i++) acc[k++] = ed[i];
  if (rq->scheme != MRTQ_FP32) { /* acc = t * 2^j: ties when the scale is a power of two */
    for (i = 0; i < 200; i++) acc[k++] = (int32_t)(th_range(-(1 << 20), 1 << 20) * 2 + 1) * (1 << (i % 11));
  }
  return k;
}

static void run_family(mrtq_scheme s) {
  long total = 0;
  int r;
  /* every power-of-two scale the family takes (every shift), with ties */
  for (r = -31; r <= 15; r++) {
    mrtq_rq rq;
    size_t n;
    int32_t zp;
    for (zp = -128; zp <= 255; zp += 383 / 7) {
      if (mrtq_rq_init(&rq, s, ldexp(1.0, r), zp, INT32_MIN, INT32_MAX) != MRTQ_OK) continue;
      n = fill_edges(&rq, accbuf);
      check_array(&rq, accbuf, n, (size_t)(r & 7));
      total += (long)n;
    }
  }
  /* every zero point of the output types */
  {
    mrtq_rq rq;
    int32_t zp;
    for (zp = -128; zp <= 255; zp++) {
      size_t n;
      mrtq_rq_init(&rq, s, 0.0123, zp, INT32_MIN, INT32_MAX);
      n = fill_edges(&rq, accbuf);
      check_array(&rq, accbuf, n, 0);
      total += (long)n;
    }
  }
  /* random: 64 descriptions x 16384 inputs, plus every length 0..70 */
  for (r = 0; r < 64; r++) {
    mrtq_rq rq;
    size_t i, n = 16384;
    rand_rq(&rq, s);
    for (i = 0; i < n; i++) accbuf[i] = (th_rand32() & 1) ? th_i32() : (int32_t)th_range(-(1 << 20), 1 << 20);
    check_array(&rq, accbuf, n, (size_t)r % 5);
    total += (long)n;
    for (i = 0; i <= 70; i += 1 + (size_t)(r % 3)) check_array(&rq, accbuf + r, i, (size_t)r % 3);
  }
  printf("     %s: %ld inputs compared on path %s\n", family_name[s], total, MRTQ_TEST_PATH);
}

static void test_q31_dbl(void) { run_family(MRTQ_Q31_DBL); }
static void test_q31_rndnu(void) { run_family(MRTQ_Q31_RNDNU); }
static void test_q15_vta(void) { run_family(MRTQ_Q15_VTA); }
static void test_q15_rndnu(void) { run_family(MRTQ_Q15_RNDNU); }
static void test_fp32(void) { run_family(MRTQ_FP32); }

static void test_rq_init(void) {
  mrtq_rq rq, keep;
  mrtq_mult m;
  int s;
  CHECK_EQ(mrtq_rq_init(&rq, MRTQ_Q31_DBL, 0.0123, 5, -128, 127), MRTQ_OK, "ok");
  mrtq_mult_q31(0.0123, &m);
  CHECK(rq.m.mult == m.mult && rq.m.shift == m.shift && rq.zp == 5 && rq.qmin == -128 && rq.qmax == 127);
  CHECK_EQ(mrtq_rq_init(&rq, MRTQ_Q15_VTA, 0.0123, 5, -128, 127), MRTQ_OK, "ok");
  mrtq_mult_q15(0.0123, &m);
  CHECK(rq.m.mult == m.mult && rq.m.shift == m.shift);
  CHECK_EQ(mrtq_rq_init(&rq, MRTQ_FP32, 0.0123, 5, -128, 127), MRTQ_OK, "ok");
  CHECK(rq.scale == 0.0123f);
  keep = rq;
  for (s = 0; s < 5; s++) {
    CHECK_EQ(mrtq_rq_init(NULL, (mrtq_scheme)s, 0.5, 0, -128, 127), MRTQ_EINVAL, "NULL");
    CHECK_EQ(mrtq_rq_init(&rq, (mrtq_scheme)s, NAN, 0, -128, 127), MRTQ_EINVAL, "NaN");
    CHECK_EQ(mrtq_rq_init(&rq, (mrtq_scheme)s, INFINITY, 0, -128, 127), MRTQ_EINVAL, "inf");
    CHECK_EQ(mrtq_rq_init(&rq, (mrtq_scheme)s, -0.5, 0, -128, 127), MRTQ_EINVAL, "negative");
    CHECK_EQ(mrtq_rq_init(&rq, (mrtq_scheme)s, 0.0, 0, -128, 127), MRTQ_EINVAL, "zero");
    CHECK_EQ(mrtq_rq_init(&rq, (mrtq_scheme)s, 0.5, 0, 10, 9), MRTQ_EINVAL, "qmin > qmax");
    CHECK_EQ(mrtq_rq_init(&rq, (mrtq_scheme)s, 1e-300, 0, -128, 127), MRTQ_ERANGE, "flushed");
    CHECK(rq.zp == keep.zp && rq.scale == keep.scale); /* unchanged on error */
  }
  CHECK_EQ(mrtq_rq_init(&rq, MRTQ_Q31_DBL, 0x1p30, 0, -128, 127), MRTQ_ERANGE, "shift 31");
  CHECK_EQ(mrtq_rq_init(&rq, MRTQ_Q31_RNDNU, 0x1p29, 0, -128, 127), MRTQ_OK, "shift 30");
  CHECK_EQ(mrtq_rq_init(&rq, MRTQ_Q15_RNDNU, 0x1p15, 0, -128, 127), MRTQ_ERANGE, "shift 16");
  CHECK_EQ(mrtq_rq_init(&rq, MRTQ_Q15_VTA, 0x1p14, 0, -128, 127), MRTQ_OK, "shift 15");
  CHECK_EQ(mrtq_rq_init(&rq, MRTQ_Q15_VTA, 1.5e-5, 0, -128, 127), MRTQ_ERANGE, "below 2^-16");
  CHECK_EQ(mrtq_rq_init(&rq, MRTQ_FP32, 1e39, 0, -128, 127), MRTQ_ERANGE, "float overflow");
  CHECK_EQ(mrtq_rq_init(&rq, MRTQ_FP32, 1e-50, 0, -128, 127), MRTQ_ERANGE, "float underflow");
  CHECK_EQ(mrtq_rq_init(&rq, (mrtq_scheme)7, 0.5, 0, -128, 127), MRTQ_EINVAL, "scheme");
}

/* Hand-filled descriptions outside what mrtq_rq_init produces still give the
 * scalar result on every path (the SIMD code steps aside). */
static void test_hand_made_rq(void) {
  mrtq_rq bad[7];
  size_t i, k;
  for (k = 0; k < 7; k++) {
    bad[k].zp = 3;
    bad[k].qmin = -128;
    bad[k].qmax = 127;
    bad[k].scale = 0.5f;
    bad[k].m.mult = 1 << 30;
    bad[k].m.shift = 0;
  }
  bad[0].scheme = MRTQ_Q31_RNDNU, bad[0].m.shift = 45;
  bad[1].scheme = MRTQ_Q31_DBL, bad[1].m.shift = -50;
  bad[2].scheme = MRTQ_Q15_VTA, bad[2].m.shift = 20, bad[2].m.mult = 40000;
  bad[3].scheme = MRTQ_Q15_RNDNU, bad[3].m.shift = -30, bad[3].m.mult = -5;
  bad[4].scheme = MRTQ_FP32, bad[4].scale = NAN;
  bad[5].scheme = MRTQ_FP32, bad[5].scale = INFINITY;
  bad[6].scheme = MRTQ_Q31_DBL, bad[6].m.mult = -7, bad[6].m.shift = -3;
  for (i = 0; i < 4096; i++) accbuf[i] = (i & 1) ? th_i32() : (int32_t)th_range(-5000, 5000);
  for (k = 0; k < 7; k++) check_array(&bad[k], accbuf, 4096, k % 3);
}

/* Per-channel layouts against per-element application. */
static void test_per_channel(void) {
  int trial;
  for (trial = 0; trial < 200; trial++) {
    mrtq_rq rq[9];
    size_t outer = (size_t)th_range(1, 3), ch = (size_t)th_range(1, 9), inner = (size_t)th_range(1, 40), c, o, i;
    size_t n = outer * ch * inner;
    mrtq_scheme s = (mrtq_scheme)(th_rand32() % 5u);
    for (c = 0; c < ch; c++) rand_rq(&rq[c], s);
    for (i = 0; i < n; i++) accbuf[i] = th_i32() >> (th_rand32() % 16u);
    memset(outbuf, 0xA5, sizeof outbuf);
    mrtq_requant_s8_outer(rq, outer, ch, inner, accbuf, (int8_t *)outbuf);
    for (o = 0; o < outer; o++)
      for (c = 0; c < ch; c++)
        for (i = 0; i < inner; i++) {
          size_t k = (o * ch + c) * inner + i;
          CHECK_EQ((int8_t)outbuf[k], mrtq_rq_apply(&rq[c], accbuf[k], -128, 127), "outer s8 k=%zu", k);
        }
    CHECK_EQ(outbuf[n], 0xA5, "guard");
    mrtq_requant_u8_outer(rq, outer, ch, inner, accbuf, outbuf);
    for (o = 0; o < outer; o++)
      for (c = 0; c < ch; c++)
        for (i = 0; i < inner; i++) {
          size_t k = (o * ch + c) * inner + i;
          CHECK_EQ(outbuf[k], mrtq_rq_apply(&rq[c], accbuf[k], 0, 255), "outer u8 k=%zu", k);
        }
    mrtq_requant_s8_inner(rq, outer * inner, ch, accbuf, (int8_t *)outbuf);
    for (i = 0; i < n; i++) CHECK_EQ((int8_t)outbuf[i], mrtq_rq_apply(&rq[i % ch], accbuf[i], -128, 127), "inner s8");
    mrtq_requant_u8_inner(rq, outer * inner, ch, accbuf, outbuf);
    for (i = 0; i < n; i++) CHECK_EQ(outbuf[i], mrtq_rq_apply(&rq[i % ch], accbuf[i], 0, 255), "inner u8");
    CHECK_EQ(outbuf[n], 0xA5, "guard");
  }
}

/* Array quantize against the scalar function over edge floats (ties at every
 * half-integer, NaN, infinities, denormals, huge values), many scales and zero
 * points (inside and far outside the SIMD precondition), every length 0..70. */
static void test_quantize_arrays_edges(void) {
  static float x[MAXN];
  static const float specials[] = {0.0f, -0.0f, 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, 127.5f, -128.5f, 255.5f,
                                   126.5f, 1e30f, -1e30f, 3.4e38f, -3.4e38f, 1e-45f, -1e-45f, 16777215.0f};
  int trial;
  size_t i, nspec = sizeof specials / sizeof specials[0];
  for (i = 0; i < MAXN; i++) {
    switch (th_rand32() % 5u) {
      case 0: x[i] = specials[th_rand32() % nspec]; break;
      case 1: x[i] = (float)th_range(-600, 600) / 2.0f; break; /* exact ties with scale 1, 0.5 */
      case 2: x[i] = (th_rand32() & 1) ? NAN : ((th_rand32() & 1) ? INFINITY : -INFINITY); break;
      default: x[i] = (float)((int32_t)th_rand32()) / (float)(1u << th_range(0, 31)); break;
    }
  }
  for (trial = 0; trial < 200; trial++) {
    float scales[] = {1.0f, 0.5f, 0.25f, 3.0f, 0.1f, 1e-3f, 1e20f, 1e-30f, 0.0f};
    float sc = (trial % 3) ? scales[th_rand32() % 9u] : ldexpf(1.0f + (float)(th_rand32() >> 9) / 8388608.0f, (int)th_range(-20, 10));
    int32_t zp = (trial % 7 == 0) ? th_i32() : (int32_t)th_range(-300, 300);
    size_t n = (trial % 4 == 0) ? (size_t)th_range(0, 70) : (size_t)th_range(1000, 5000), off = (size_t)trial % 5;
    memset(outbuf, 0xA5, sizeof outbuf);
    mrtq_quantize_f32_s8(x + off, n, sc, zp, (int8_t *)outbuf + off);
    for (i = 0; i < n; i++)
      CHECK_EQ((int8_t)outbuf[off + i], mrtq_quantize_f32(x[off + i], sc, zp, -128, 127), "s8 x=%a s=%a zp=%d",
               (double)x[off + i], (double)sc, zp);
    CHECK_EQ(outbuf[off + n], 0xA5, "guard");
    mrtq_quantize_f32_u8(x + off, n, sc, zp, outbuf + off);
    for (i = 0; i < n; i++)
      CHECK_EQ(outbuf[off + i], mrtq_quantize_f32(x[off + i], sc, zp, 0, 255), "u8 x=%a s=%a zp=%d",
               (double)x[off + i], (double)sc, zp);
    CHECK_EQ(outbuf[off + n], 0xA5, "guard");
  }
}

/* Array dequantize and the channel-inner quantize/dequantize against the
 * scalar functions: every byte value, many scales, near and far zero points. */
static void test_dequantize_arrays(void) {
  static float back[MAXN];
  static uint8_t q[MAXN];
  int trial;
  size_t i;
  for (i = 0; i < MAXN; i++) q[i] = (uint8_t)i; /* every byte value, repeated */
  for (trial = 0; trial < 100; trial++) {
    float sc = (trial % 5 == 0) ? 1e30f : ldexpf(1.0f + (float)(th_rand32() >> 9) / 8388608.0f, (int)th_range(-30, 10));
    int32_t zp = (trial % 7 == 0) ? th_i32() : (int32_t)th_range(-300, 300);
    size_t n = (size_t)th_range(0, 3000), off = (size_t)trial % 5;
    back[off + n] = 12345.0f;
    mrtq_dequantize_s8_f32((const int8_t *)q + off, n, sc, zp, back + off);
    for (i = 0; i < n; i++) CHECK(back[off + i] == mrtq_dequantize_f32((int8_t)q[off + i], sc, zp));
    mrtq_dequantize_u8_f32(q + off, n, sc, zp, back + off);
    for (i = 0; i < n; i++) CHECK(back[off + i] == mrtq_dequantize_f32(q[off + i], sc, zp));
    CHECK(back[off + n] == 12345.0f);
  }
  { /* channel-inner: rows x 3 channels */
    static float x[3 * 500];
    float sc[3] = {0.02f, 0.5f, 3.0f};
    int32_t zs[3] = {0, -7, 100}, zu[3] = {0, 128, 255};
    size_t rows = 500;
    for (i = 0; i < 3 * rows; i++) x[i] = (float)((int32_t)th_rand32() >> 22) / 3.0f;
    mrtq_quantize_f32_s8_inner(x, rows, 3, sc, zs, (int8_t *)outbuf);
    for (i = 0; i < 3 * rows; i++) CHECK_EQ((int8_t)outbuf[i], mrtq_quantize_f32(x[i], sc[i % 3], zs[i % 3], -128, 127), "inner q s8");
    mrtq_dequantize_s8_f32_inner((const int8_t *)outbuf, rows, 3, sc, zs, back);
    for (i = 0; i < 3 * rows; i++) CHECK(back[i] == mrtq_dequantize_f32((int8_t)outbuf[i], sc[i % 3], zs[i % 3]));
    mrtq_quantize_f32_u8_inner(x, rows, 3, sc, zu, outbuf);
    for (i = 0; i < 3 * rows; i++) CHECK_EQ(outbuf[i], mrtq_quantize_f32(x[i], sc[i % 3], zu[i % 3], 0, 255), "inner q u8");
    mrtq_dequantize_u8_f32_inner(outbuf, rows, 3, sc, zu, back);
    for (i = 0; i < 3 * rows; i++) CHECK(back[i] == mrtq_dequantize_f32(outbuf[i], sc[i % 3], zu[i % 3]));
  }
}

static void test_quantize_arrays(void) {
  static float x[4096], back[4096];
  float sc[3] = {0.02f, 0.5f, 3.0f};
  int32_t zps[3] = {0, -7, 100}, zpu[3] = {0, 128, 255};
  size_t i, n = 4096, inner = n / 3 / 2;
  for (i = 0; i < n; i++) x[i] = (float)((int32_t)th_rand32() >> 20) / 7.0f;
  x[0] = NAN;
  x[1] = INFINITY;
  x[2] = 2.5f;
  mrtq_quantize_f32_s8(x, n, 0.5f, 3, (int8_t *)outbuf);
  for (i = 0; i < n; i++) CHECK_EQ((int8_t)outbuf[i], mrtq_quantize_f32(x[i], 0.5f, 3, -128, 127), "q s8 %zu", i);
  mrtq_dequantize_s8_f32((const int8_t *)outbuf, n, 0.5f, 3, back);
  for (i = 0; i < n; i++) CHECK(back[i] == mrtq_dequantize_f32((int8_t)outbuf[i], 0.5f, 3));
  mrtq_quantize_f32_u8(x, n, 0.25f, 128, outbuf);
  for (i = 0; i < n; i++) CHECK_EQ(outbuf[i], mrtq_quantize_f32(x[i], 0.25f, 128, 0, 255), "q u8 %zu", i);
  mrtq_dequantize_u8_f32(outbuf, n, 0.25f, 128, back);
  for (i = 0; i < n; i++) CHECK(back[i] == mrtq_dequantize_f32(outbuf[i], 0.25f, 128));
  /* per channel, channel-outer: 2 blocks x 3 channels x inner */
  mrtq_quantize_f32_s8_outer(x, 2, 3, inner, sc, zps, (int8_t *)outbuf);
  for (i = 0; i < 6 * inner; i++) {
    size_t c = (i / inner) % 3;
    CHECK_EQ((int8_t)outbuf[i], mrtq_quantize_f32(x[i], sc[c], zps[c], -128, 127), "q s8 outer %zu", i);
  }
  mrtq_dequantize_s8_f32_outer((const int8_t *)outbuf, 2, 3, inner, sc, zps, back);
  for (i = 0; i < 6 * inner; i++) CHECK(back[i] == mrtq_dequantize_f32((int8_t)outbuf[i], sc[(i / inner) % 3], zps[(i / inner) % 3]));
  mrtq_quantize_f32_u8_outer(x, 2, 3, inner, sc, zpu, outbuf);
  for (i = 0; i < 6 * inner; i++) {
    size_t c = (i / inner) % 3;
    CHECK_EQ(outbuf[i], mrtq_quantize_f32(x[i], sc[c], zpu[c], 0, 255), "q u8 outer %zu", i);
  }
  mrtq_dequantize_u8_f32_outer(outbuf, 2, 3, inner, sc, zpu, back);
  for (i = 0; i < 6 * inner; i++) CHECK(back[i] == mrtq_dequantize_f32(outbuf[i], sc[(i / inner) % 3], zpu[(i / inner) % 3]));
}

int main(void) {
#if defined(__x86_64__) || defined(__i386__)
#if MRTQ_SIMD == MRTQ_SIMD_AVX512
  if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") || !__builtin_cpu_supports("avx512dq"))
    return th_skip("test_array_" MRTQ_TEST_PATH, "CPU lacks AVX-512 F/BW/DQ");
#elif MRTQ_SIMD == MRTQ_SIMD_AVX2
  if (!__builtin_cpu_supports("avx2")) return th_skip("test_array_" MRTQ_TEST_PATH, "CPU lacks AVX2");
#elif MRTQ_SIMD == MRTQ_SIMD_SSE41
  if (!__builtin_cpu_supports("sse4.1")) return th_skip("test_array_" MRTQ_TEST_PATH, "CPU lacks SSE4.1");
#endif
#endif
  TH_RUN(test_rq_init);
  TH_RUN(test_q31_dbl);
  TH_RUN(test_q31_rndnu);
  TH_RUN(test_q15_vta);
  TH_RUN(test_q15_rndnu);
  TH_RUN(test_fp32);
  TH_RUN(test_hand_made_rq);
  TH_RUN(test_per_channel);
  TH_RUN(test_quantize_arrays);
  TH_RUN(test_quantize_arrays_edges);
  TH_RUN(test_dequantize_arrays);
  return th_finish("test_array_" MRTQ_TEST_PATH);
}
