/* The array requantization API (mrtq/requant.h) against its scalar
 * specification mrtq_rq_apply, element by element. Built once per SIMD path
 * (scalar, SSE4.1, AVX2, AVX-512, and a plain build with run-time dispatch
 * that forces each path the CPU has: see tests/meson.build); every build must give the
 * same bytes on edge values, exact ties for every shift, every zero point of
 * the output type, >= 10^6 random inputs per family, any length and alignment,
 * and must not write past the end of the output (guard bytes) nor touch a byte
 * past either array (test_page_end: an inaccessible page after them). */
#define _DEFAULT_SOURCE 1 /* mmap, MAP_ANONYMOUS (test_page_end) */
#include <math.h>

#include "harness.h"
#include "mrtq.h"

#ifndef MRTQ_TEST_PATH
#define MRTQ_TEST_PATH "default"
#endif
/* the path the cases run on (a dispatched build forces each in turn) */
static const char *path_name = MRTQ_TEST_PATH;

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
  CHECK_EQ(mrtq_requant_s8(rq, acc, n, o8), MRTQ_OK, "status");
  for (i = 0; i < n; i++)
    CHECK_EQ(o8[i], mrtq_rq_apply(rq, acc[i], -128, 127), "s8 %s acc=%d mult=%d shift=%d zp=%d [%d,%d] i=%zu",
             family_name[rq->scheme], acc[i], rq->m.mult, rq->m.shift, rq->zp, rq->qmin, rq->qmax, i);
  for (i = off + n; i < off + n + 32; i++) CHECK_EQ(outbuf[i], 0xA5, "guard byte %zu", i);
  memset(outbuf, 0xA5, sizeof outbuf);
  CHECK_EQ(mrtq_requant_u8(rq, acc, n, outbuf + off), MRTQ_OK, "status");
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
  while (mrtq_rq_init(s, rand_scale(s), zp, qmin, qmax, rq) != MRTQ_OK) {
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
      if (mrtq_rq_init(s, ldexp(1.0, r), zp, INT32_MIN, INT32_MAX, &rq) != MRTQ_OK) continue;
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
      mrtq_rq_init(s, 0.0123, zp, INT32_MIN, INT32_MAX, &rq);
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
  printf("     %s: %ld inputs compared on path %s\n", family_name[s], total, path_name);
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
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.0123, 5, -128, 127, &rq), MRTQ_OK, "ok");
  mrtq_mult_q31(0.0123, &m);
  CHECK(rq.m.mult == m.mult && rq.m.shift == m.shift && rq.zp == 5 && rq.qmin == -128 && rq.qmax == 127);
  CHECK(rq.scale == 0.0f); /* the field this scheme does not read is 0 */
  CHECK_EQ(mrtq_rq_init(MRTQ_Q15_VTA, 0.0123, 5, -128, 127, &rq), MRTQ_OK, "ok");
  mrtq_mult_q15(0.0123, &m);
  CHECK(rq.m.mult == m.mult && rq.m.shift == m.shift && rq.scale == 0.0f);
  CHECK_EQ(mrtq_rq_init(MRTQ_FP32, 0.0123, 5, -128, 127, &rq), MRTQ_OK, "ok");
  CHECK(rq.scale == 0.0123f && rq.m.mult == 0 && rq.m.shift == 0);
  keep = rq;
  for (s = 0; s < 5; s++) {
    const char *below = s <= 1 ? "below the Q31 range" : s <= 3 ? "below the Q15 range" : "rounds to 0 in float";
    CHECK_REFUSED(mrtq_rq_init((mrtq_scheme)s, 0.5, 0, -128, 127, NULL), MRTQ_EINVAL, "rq: NULL");
    CHECK_REFUSED(mrtq_rq_init((mrtq_scheme)s, NAN, 0, -128, 127, &rq), MRTQ_EINVAL, "scale: NaN or infinite");
    CHECK_REFUSED(mrtq_rq_init((mrtq_scheme)s, INFINITY, 0, -128, 127, &rq), MRTQ_EINVAL, "scale: NaN or infinite");
    CHECK_REFUSED(mrtq_rq_init((mrtq_scheme)s, -0.5, 0, -128, 127, &rq), MRTQ_EINVAL, "scale: must be > 0");
    CHECK_REFUSED(mrtq_rq_init((mrtq_scheme)s, 0.0, 0, -128, 127, &rq), MRTQ_EINVAL, "scale: must be > 0");
    CHECK_REFUSED(mrtq_rq_init((mrtq_scheme)s, 0.5, 0, 10, 9, &rq), MRTQ_EINVAL, "qmin: must be <= qmax");
    CHECK_REFUSED(mrtq_rq_init((mrtq_scheme)s, 1e-300, 0, -128, 127, &rq), MRTQ_ERANGE, below);
    CHECK(memcmp(&rq, &keep, sizeof rq) == 0); /* unchanged on error */
  }
  CHECK_REFUSED(mrtq_rq_init(MRTQ_Q31_DBL, 0x1p30, 0, -128, 127, &rq), MRTQ_ERANGE, "scale: above the Q31 range");
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_RNDNU, 0x1p29, 0, -128, 127, &rq), MRTQ_OK, "shift 30");
  CHECK_REFUSED(mrtq_rq_init(MRTQ_Q15_RNDNU, 0x1p15, 0, -128, 127, &rq), MRTQ_ERANGE, "scale: above the Q15 range");
  CHECK_EQ(mrtq_rq_init(MRTQ_Q15_VTA, 0x1p14, 0, -128, 127, &rq), MRTQ_OK, "shift 15");
  CHECK_REFUSED(mrtq_rq_init(MRTQ_Q15_VTA, 1.5e-5, 0, -128, 127, &rq), MRTQ_ERANGE, "scale: below the Q15 range");
  CHECK_REFUSED(mrtq_rq_init(MRTQ_FP32, 1e39, 0, -128, 127, &rq), MRTQ_ERANGE, "scale: above FLT_MAX");
  CHECK_REFUSED(mrtq_rq_init(MRTQ_FP32, 1e-50, 0, -128, 127, &rq), MRTQ_ERANGE, "scale: rounds to 0 in float");
  CHECK_REFUSED(mrtq_rq_init((mrtq_scheme)7, 0.5, 0, -128, 127, &rq), MRTQ_EINVAL, "scheme: not an mrtq_scheme");
  CHECK_REFUSED(mrtq_rq_init((mrtq_scheme)-1, 0.5, 0, -128, 127, &rq), MRTQ_EINVAL, "scheme: not an mrtq_scheme");
}

/* Hand-filled descriptions outside what mrtq_rq_init produces still give the
 * scalar result on every path (the SIMD code steps aside). The fields their
 * scheme does not read are left 0. */
static void test_hand_made_rq(void) {
  mrtq_rq bad[7];
  size_t i, k;
  for (k = 0; k < 7; k++) {
    bad[k].zp = 3;
    bad[k].qmin = -128;
    bad[k].qmax = 127;
    bad[k].scale = 0.0f;
    bad[k].m.mult = 1 << 30;
    bad[k].m.shift = 0;
  }
  bad[0].scheme = MRTQ_Q31_RNDNU, bad[0].m.shift = 45;
  bad[1].scheme = MRTQ_Q31_DBL, bad[1].m.shift = -50;
  bad[2].scheme = MRTQ_Q15_VTA, bad[2].m.shift = 20, bad[2].m.mult = 40000;
  bad[3].scheme = MRTQ_Q15_RNDNU, bad[3].m.shift = -30, bad[3].m.mult = -5;
  bad[4].scheme = MRTQ_FP32, bad[4].scale = NAN, bad[4].m.mult = 0;
  bad[5].scheme = MRTQ_FP32, bad[5].scale = INFINITY, bad[5].m.mult = 0;
  bad[6].scheme = MRTQ_Q31_DBL, bad[6].m.mult = -7, bad[6].m.shift = -3;
  for (i = 0; i < 4096; i++) accbuf[i] = (i & 1) ? th_i32() : (int32_t)th_range(-5000, 5000);
  for (k = 0; k < 7; k++) check_array(&bad[k], accbuf, 4096, k % 3);
}

/* Every refusal of the array functions, with its reason; a refusal writes
 * nothing (canary bytes stay). */
static void test_array_refusals(void) {
  mrtq_rq good, bad, pc[3];
  int32_t acc[4] = {1, 2, 3, 4};
  int8_t o8[4];
  uint8_t u8[4];
  float f[4] = {1, 2, 3, 4}, sc[3] = {1, 1, 1}, fo[4];
  int32_t zp[3] = {0, 0, 0};
  size_t i;
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.5, 0, -128, 127, &good), MRTQ_OK, "init");
  memset(o8, 0x5A, sizeof o8);
  memset(u8, 0x5A, sizeof u8);
  CHECK_REFUSED(mrtq_requant_s8(NULL, acc, 4, o8), MRTQ_EINVAL, "rq: NULL");
  CHECK_REFUSED(mrtq_requant_u8(NULL, acc, 0, u8), MRTQ_EINVAL, "rq: NULL"); /* even with n == 0 */
  bad = good, bad.scheme = (mrtq_scheme)9;
  CHECK_REFUSED(mrtq_requant_s8(&bad, acc, 4, o8), MRTQ_EINVAL, "rq->scheme: not an mrtq_scheme");
  bad = good, bad.scale = 0.5f;
  CHECK_REFUSED(mrtq_requant_s8(&bad, acc, 4, o8), MRTQ_EINVAL, "rq->scale: must be 0 with a fixed-point scheme");
  bad = good, bad.scale = NAN;
  CHECK_REFUSED(mrtq_requant_u8(&bad, acc, 4, u8), MRTQ_EINVAL, "rq->scale: must be 0");
  CHECK_EQ(mrtq_rq_init(MRTQ_FP32, 0.5, 0, -128, 127, &bad), MRTQ_OK, "init");
  bad.m.mult = 1 << 30;
  CHECK_REFUSED(mrtq_requant_s8(&bad, acc, 4, o8), MRTQ_EINVAL, "rq->m.mult: must be 0 with MRTQ_FP32");
  bad.m.mult = 0, bad.m.shift = -3;
  CHECK_REFUSED(mrtq_requant_u8(&bad, acc, 4, u8), MRTQ_EINVAL, "rq->m.shift: must be 0 with MRTQ_FP32");
  bad = good, bad.qmin = 5, bad.qmax = 4;
  CHECK_REFUSED(mrtq_requant_s8(&bad, acc, 4, o8), MRTQ_EINVAL, "rq->qmin: must be <= qmax");
  CHECK_REFUSED(mrtq_requant_s8(&good, NULL, 4, o8), MRTQ_EINVAL, "acc: NULL");
  CHECK_REFUSED(mrtq_requant_u8(&good, acc, 4, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_EQ(mrtq_requant_s8(&good, NULL, 0, NULL), MRTQ_OK, "empty");
  CHECK_REFUSED(mrtq_requant(&good, acc, 4, (mrtq_dtype)0, o8), MRTQ_EINVAL, "dst_type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_requant(&good, acc, 4, (mrtq_dtype)6, o8), MRTQ_EINVAL, "dst_type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_requant(NULL, acc, 4, MRTQ_S8, o8), MRTQ_EINVAL, "rq: NULL");
  bad = good, bad.scale = 1.0f;
  CHECK_REFUSED(mrtq_requant(&bad, acc, 4, MRTQ_S16, o8), MRTQ_EINVAL, "rq->scale");
  CHECK_REFUSED(mrtq_requant(&good, NULL, 4, MRTQ_S32, o8), MRTQ_EINVAL, "acc: NULL");
  CHECK_REFUSED(mrtq_requant(&good, acc, 4, MRTQ_S4, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_EQ(mrtq_requant(&good, NULL, 0, MRTQ_S4, NULL), MRTQ_OK, "empty");
  /* per channel: every rq[c] is checked, the reason names rq[c] */
  pc[0] = good, pc[1] = good, pc[2] = good;
  pc[2].scheme = (mrtq_scheme)5;
  CHECK_REFUSED(mrtq_requant_s8_outer(pc, acc, 1, 3, 1, o8), MRTQ_EINVAL, "rq[c].scheme: not an mrtq_scheme");
  CHECK_REFUSED(mrtq_requant_u8_inner(pc, acc, 0, 3, u8), MRTQ_EINVAL, "rq[c].scheme"); /* even with no rows */
  pc[2] = good, pc[1].qmin = 200;
  CHECK_REFUSED(mrtq_requant_u8_outer(pc, acc, 1, 3, 1, u8), MRTQ_EINVAL, "rq[c].qmin: must be <= qmax");
  pc[1] = good, pc[0].scale = 2.0f;
  CHECK_REFUSED(mrtq_requant_s8_inner(pc, acc, 1, 3, o8), MRTQ_EINVAL, "rq[c].scale: must be 0");
  CHECK_EQ(mrtq_rq_init(MRTQ_FP32, 0.5, 0, -128, 127, &pc[0]), MRTQ_OK, "init");
  pc[1] = pc[0], pc[2] = pc[0], pc[2].m.mult = 7;
  CHECK_REFUSED(mrtq_requant_u8_outer(pc, acc, 1, 3, 1, u8), MRTQ_EINVAL, "rq[c].m.mult: must be 0 with MRTQ_FP32");
  pc[2].m.mult = 0, pc[2].m.shift = 1;
  CHECK_REFUSED(mrtq_requant_s8_inner(pc, acc, 1, 3, o8), MRTQ_EINVAL, "rq[c].m.shift: must be 0 with MRTQ_FP32");
  pc[0] = good, pc[1] = good, pc[2] = good;
  CHECK_REFUSED(mrtq_requant_s8_outer(NULL, acc, 1, 3, 1, o8), MRTQ_EINVAL, "rq: NULL");
  CHECK_REFUSED(mrtq_requant_s8_inner(pc, NULL, 1, 3, o8), MRTQ_EINVAL, "acc: NULL");
  CHECK_REFUSED(mrtq_requant_u8_outer(pc, acc, 1, 3, 1, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_EQ(mrtq_requant_s8_outer(NULL, NULL, 5, 0, 5, NULL), MRTQ_OK, "no channels");
  CHECK_EQ(mrtq_requant_u8_inner(pc, NULL, 0, 3, NULL), MRTQ_OK, "no rows");
  for (i = 0; i < 4; i++) CHECK(o8[i] == 0x5A && u8[i] == 0x5A); /* refusals wrote nothing */
  /* quantize / dequantize */
  memset(fo, 0, sizeof fo);
  CHECK_REFUSED(mrtq_quantize_f32_s8(0.5f, 0, NULL, 4, o8), MRTQ_EINVAL, "x: NULL");
  CHECK_REFUSED(mrtq_quantize_f32_u8(0.5f, 0, f, 4, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_dequantize_s8_f32(0.5f, 0, NULL, 4, fo), MRTQ_EINVAL, "q: NULL");
  CHECK_REFUSED(mrtq_dequantize_u8_f32(0.5f, 0, u8, 4, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_EQ(mrtq_quantize_f32_s8(0.5f, 0, NULL, 0, NULL), MRTQ_OK, "empty");
  CHECK_REFUSED(mrtq_quantize_f32_s8_outer(NULL, zp, f, 1, 3, 1, o8), MRTQ_EINVAL, "scale: NULL while channels > 0");
  CHECK_REFUSED(mrtq_quantize_f32_u8_inner(sc, NULL, f, 0, 3, u8), MRTQ_EINVAL, "zp: NULL while channels > 0");
  CHECK_REFUSED(mrtq_dequantize_s8_f32_outer(sc, zp, NULL, 1, 3, 1, fo), MRTQ_EINVAL, "q: NULL");
  CHECK_REFUSED(mrtq_dequantize_u8_f32_inner(sc, zp, u8, 1, 3, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_quantize_f32_s8_inner(sc, zp, NULL, 1, 3, o8), MRTQ_EINVAL, "x: NULL");
  CHECK_REFUSED(mrtq_quantize_f32_u8_outer(sc, zp, f, 1, 3, 1, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_dequantize_u8_f32_outer(sc, NULL, u8, 1, 3, 1, fo), MRTQ_EINVAL, "zp: NULL");
  CHECK_REFUSED(mrtq_dequantize_s8_f32_inner(NULL, zp, o8, 1, 3, fo), MRTQ_EINVAL, "scale: NULL");
  CHECK_EQ(mrtq_dequantize_s8_f32_outer(NULL, NULL, NULL, 4, 0, 4, NULL), MRTQ_OK, "no channels");
  for (i = 0; i < 4; i++) CHECK(o8[i] == 0x5A && u8[i] == 0x5A && fo[i] == 0.0f);
}

/* mrtq_requant to every mrtq_dtype against mrtq_rq_apply with the type's
 * range (s8 / u8 also against the typed functions), with guard bytes. */
static void test_requant_any_type(void) {
  static int16_t o16[4100];
  static int32_t o32[4100];
  static uint8_t o4[2100], ref[4100];
  int trial;
  for (trial = 0; trial < 60; trial++) {
    mrtq_rq rq;
    size_t i, n = (trial % 3 == 0) ? (size_t)th_range(0, 70) : (size_t)th_range(1000, 4096);
    rand_rq(&rq, (mrtq_scheme)(trial % 5));
    for (i = 0; i < n; i++) accbuf[i] = (th_rand32() & 1) ? th_i32() : (int32_t)th_range(-(1 << 20), 1 << 20);
    memset(outbuf, 0xA5, sizeof outbuf);
    CHECK_EQ(mrtq_requant(&rq, accbuf, n, MRTQ_S8, outbuf), MRTQ_OK, "s8");
    CHECK_EQ(mrtq_requant_s8(&rq, accbuf, n, (int8_t *)ref), MRTQ_OK, "s8 typed");
    for (i = 0; i < n; i++) CHECK_EQ((int8_t)outbuf[i], mrtq_rq_apply(&rq, accbuf[i], -128, 127), "s8 i=%zu", i);
    CHECK(memcmp(outbuf, ref, n) == 0 && outbuf[n] == 0xA5);
    CHECK_EQ(mrtq_requant(&rq, accbuf, n, MRTQ_U8, outbuf), MRTQ_OK, "u8");
    CHECK_EQ(mrtq_requant_u8(&rq, accbuf, n, ref), MRTQ_OK, "u8 typed");
    for (i = 0; i < n; i++) CHECK_EQ(outbuf[i], mrtq_rq_apply(&rq, accbuf[i], 0, 255), "u8 i=%zu", i);
    CHECK(memcmp(outbuf, ref, n) == 0 && outbuf[n] == 0xA5);
    o16[n] = 0x1234;
    CHECK_EQ(mrtq_requant(&rq, accbuf, n, MRTQ_S16, o16), MRTQ_OK, "s16");
    for (i = 0; i < n; i++) CHECK_EQ(o16[i], mrtq_rq_apply(&rq, accbuf[i], -32768, 32767), "s16 i=%zu", i);
    CHECK(o16[n] == 0x1234);
    o32[n] = 0x12345678;
    CHECK_EQ(mrtq_requant(&rq, accbuf, n, MRTQ_S32, o32), MRTQ_OK, "s32");
    for (i = 0; i < n; i++) CHECK_EQ(o32[i], mrtq_rq_apply(&rq, accbuf[i], INT32_MIN, INT32_MAX), "s32 i=%zu", i);
    CHECK(o32[n] == 0x12345678);
    memset(o4, 0xA5, sizeof o4);
    CHECK_EQ(mrtq_requant(&rq, accbuf, n, MRTQ_S4, o4), MRTQ_OK, "s4");
    for (i = 0; i < n; i++) { /* element 2i in the low nibble, sign-extended */
      int32_t nib = (i & 1) ? o4[i / 2] >> 4 : o4[i / 2] & 15;
      CHECK_EQ(nib >= 8 ? nib - 16 : nib, mrtq_rq_apply(&rq, accbuf[i], -8, 7), "s4 i=%zu", i);
    }
    if (n & 1) CHECK_EQ(o4[n / 2] >> 4, 0xA, "odd n: the last high nibble is kept");
    CHECK_EQ(o4[(n + 1) / 2], 0xA5, "s4 guard");
    { /* out is a void *: any byte address (found by fuzz_array, D9: it stored through int16_t / int32_t casts) */
      size_t off = 1 + (size_t)trial % 3, m = n < 1000 ? n : 1000;
      int16_t h;
      int32_t w;
      memset(outbuf, 0xA5, sizeof outbuf);
      CHECK_EQ(mrtq_requant(&rq, accbuf, m, MRTQ_S16, outbuf + off), MRTQ_OK, "s16 at +%zu", off);
      for (i = 0; i < m; i++) {
        memcpy(&h, outbuf + off + 2 * i, 2);
        CHECK_EQ(h, o16[i], "s16 at +%zu, i=%zu", off, i);
      }
      CHECK(outbuf[off - 1] == 0xA5 && outbuf[off + 2 * m] == 0xA5);
      CHECK_EQ(mrtq_requant(&rq, accbuf, m, MRTQ_S32, outbuf + off), MRTQ_OK, "s32 at +%zu", off);
      for (i = 0; i < m; i++) {
        memcpy(&w, outbuf + off + 4 * i, 4);
        CHECK_EQ(w, o32[i], "s32 at +%zu, i=%zu", off, i);
      }
      CHECK(outbuf[off - 1] == 0xA5 && outbuf[off + 4 * m] == 0xA5);
    }
  }
}

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#include <unistd.h>
/* No path reads or writes past the arrays: acc and out end exactly where an
 * inaccessible page begins (a read or write past them faults in any build,
 * not only under a sanitizer). Every family, shifts on both sides of 0, every
 * length 0..160 and a long one, s8 and u8, against the scalar specification. */
static void test_page_end(void) {
  const size_t pg = (size_t)sysconf(_SC_PAGESIZE), nmax = 4096 + 33;
  const size_t abytes = (nmax * sizeof(int32_t) + pg - 1) / pg * pg, obytes = (nmax + pg - 1) / pg * pg;
  uint8_t *a = mmap(NULL, abytes + pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  uint8_t *o = mmap(NULL, obytes + pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  static const double scales[] = {0x1p-9 * 1.37, 0.75, 1.0, 0x1p3 * 1.1};
  int s, k;
  CHECK(a != MAP_FAILED && o != MAP_FAILED);
  if (a == MAP_FAILED || o == MAP_FAILED) return;
  CHECK(mprotect(a + abytes, pg, PROT_NONE) == 0 && mprotect(o + obytes, pg, PROT_NONE) == 0);
  for (s = 0; s < 5; s++)
    for (k = 0; k < 4; k++) {
      mrtq_rq rq;
      size_t n, i;
      if (mrtq_rq_init((mrtq_scheme)s, scales[k], 3, INT32_MIN, INT32_MAX, &rq) != MRTQ_OK) continue;
      for (n = 0; n <= nmax; n = n < 160 ? n + 1 : n == 160 ? nmax - 1 : nmax + 1) {
        int32_t *acc = (int32_t *)(void *)(a + abytes) - n;
        uint8_t *out = o + obytes - n;
        for (i = 0; i < n; i++) acc[i] = (th_rand32() & 1) ? th_i32() : (int32_t)th_range(-(1 << 20), 1 << 20);
        CHECK_EQ(mrtq_requant_s8(&rq, acc, n, (int8_t *)out), MRTQ_OK, "s8 status");
        for (i = 0; i < n; i++)
          CHECK_EQ((int8_t)out[i], mrtq_rq_apply(&rq, acc[i], -128, 127), "s8 %s n=%zu i=%zu", family_name[s], n, i);
        CHECK_EQ(mrtq_requant_u8(&rq, acc, n, out), MRTQ_OK, "u8 status");
        for (i = 0; i < n; i++)
          CHECK_EQ(out[i], mrtq_rq_apply(&rq, acc[i], 0, 255), "u8 %s n=%zu i=%zu", family_name[s], n, i);
      }
    }
  munmap(a, abytes + pg);
  munmap(o, obytes + pg);
}
#endif

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
    CHECK_EQ(mrtq_requant_s8_outer(rq, accbuf, outer, ch, inner, (int8_t *)outbuf), MRTQ_OK, "status");
    for (o = 0; o < outer; o++)
      for (c = 0; c < ch; c++)
        for (i = 0; i < inner; i++) {
          size_t k = (o * ch + c) * inner + i;
          CHECK_EQ((int8_t)outbuf[k], mrtq_rq_apply(&rq[c], accbuf[k], -128, 127), "outer s8 k=%zu", k);
        }
    CHECK_EQ(outbuf[n], 0xA5, "guard");
    CHECK_EQ(mrtq_requant_u8_outer(rq, accbuf, outer, ch, inner, outbuf), MRTQ_OK, "status");
    for (o = 0; o < outer; o++)
      for (c = 0; c < ch; c++)
        for (i = 0; i < inner; i++) {
          size_t k = (o * ch + c) * inner + i;
          CHECK_EQ(outbuf[k], mrtq_rq_apply(&rq[c], accbuf[k], 0, 255), "outer u8 k=%zu", k);
        }
    CHECK_EQ(mrtq_requant_s8_inner(rq, accbuf, outer * inner, ch, (int8_t *)outbuf), MRTQ_OK, "status");
    for (i = 0; i < n; i++) CHECK_EQ((int8_t)outbuf[i], mrtq_rq_apply(&rq[i % ch], accbuf[i], -128, 127), "inner s8");
    CHECK_EQ(mrtq_requant_u8_inner(rq, accbuf, outer * inner, ch, outbuf), MRTQ_OK, "status");
    for (i = 0; i < n; i++) CHECK_EQ(outbuf[i], mrtq_rq_apply(&rq[i % ch], accbuf[i], 0, 255), "inner u8");
    CHECK_EQ(outbuf[n], 0xA5, "guard");
  }
}

/* The _inner forms over many channels: chunks of 128 channels whose
 * descriptions share a lane form run the vector twins (Q31 double rounding
 * with shift <= 0, FP32), the rest of a row the scalar twin, any other chunk
 * mrtq_rq_apply; every output against mrtq_rq_apply, guard bytes after. The
 * chunks of each form are counted so the test cannot pass without them. */
static void test_inner_wide(void) {
  static mrtq_rq rq[400];
  static const size_t chs[] = {1, 7, 8, 9, 15, 16, 17, 33, 127, 128, 129, 200, 256, 257, 300, 400};
  long lane_out[4] = {0, 0, 0, 0};
  int trial;
  for (trial = 0; trial < 240; trial++) {
    const size_t ch = trial < 48 ? chs[trial % 16] : (size_t)th_range(1, 400);
    const size_t rows = (size_t)th_range(1, 40);
    const int mode = trial % 6; /* 0, 1 Q31 (TFLite per channel), 2 FP32, 3 both, 4 far zero points, 5 one hand-made */
    size_t n = rows * ch, c, i;
    int u8;
    if (n > MAXN) continue;
    for (c = 0; c < ch; c++) {
      mrtq_scheme s = mode == 2 || (mode == 3 && (c / 64) % 2) ? MRTQ_FP32 : MRTQ_Q31_DBL;
      int32_t zp = mode == 4 && th_rand32() % 8u == 0 ? th_i32() : (int32_t)th_range(-140, 260);
      int32_t qmin = INT32_MIN, qmax = INT32_MAX;
      double sc = ldexp(0.5 + (double)(th_rand64() >> 11) / 18014398509481984.0, (int)th_range(-31, 0));
      if (mode == 1 && th_rand32() % 50u == 0) sc = ldexp(sc, (int)th_range(1, 12)); /* a positive shift */
      if (th_rand32() % 4u == 0) qmin = (int32_t)th_range(-200, 100), qmax = (int32_t)th_range(qmin, 300);
      while (mrtq_rq_init(s, sc, zp, qmin, qmax, &rq[c]) != MRTQ_OK) sc = 0.01;
    }
    if (mode == 5) { /* outside mrtq_rq_init's domain: its chunk takes mrtq_rq_apply */
      c = (size_t)th_range(0, (int64_t)ch - 1);
      rq[c].scheme = MRTQ_Q31_DBL, rq[c].m.mult = 1 << 30, rq[c].m.shift = -40, rq[c].scale = 0.0f;
    }
    for (i = 0; i < n; i++) {
      int32_t ed[TH_EDGES_MAX];
      int ne = th_edges(ed);
      accbuf[i] = th_rand32() % 4u == 0 ? ed[th_rand32() % (uint32_t)ne]
                  : th_rand32() & 1   ? th_i32()
                                      : (int32_t)th_range(-(1 << 22), 1 << 22);
    }
    for (u8 = 0; u8 <= 1; u8++) {
      const int32_t lo = u8 ? 0 : -128, hi = u8 ? 255 : 127;
      size_t c0;
      for (c0 = 0; c0 < ch; c0 += 128) /* the chunks the header forms (count only) */
        lane_out[mrtq__rq_lanes_form(rq + c0, ch - c0 < 128 ? ch - c0 : 128, ch - c0 < 128 ? ch - c0 : 128, lo, hi)] +=
            (long)rows * (long)(ch - c0 < 128 ? ch - c0 : 128);
      memset(outbuf, 0xA5, sizeof outbuf);
      if (u8) {
        CHECK_EQ(mrtq_requant_u8_inner(rq, accbuf, rows, ch, outbuf + 1), MRTQ_OK, "status");
      } else {
        CHECK_EQ(mrtq_requant_s8_inner(rq, accbuf, rows, ch, (int8_t *)outbuf + 1), MRTQ_OK, "status");
      }
      for (i = 0; i < n; i++) {
        int32_t want = mrtq_rq_apply(&rq[i % ch], accbuf[i], lo, hi), got = u8 ? outbuf[1 + i] : (int8_t)outbuf[1 + i];
        if (got != want) {
          CHECK_EQ(got, want, "inner %s mode %d ch %zu row %zu c %zu acc %d mult %d shift %d zp %d scale %g on %s",
                   u8 ? "u8" : "s8", mode, ch, i / ch, i % ch, accbuf[i], rq[i % ch].m.mult, rq[i % ch].m.shift,
                   rq[i % ch].zp, (double)rq[i % ch].scale, path_name);
          break;
        }
      }
      CHECK_EQ(outbuf[0], 0xA5, "guard before");
      for (i = 1 + n; i < 1 + n + 32; i++) CHECK_EQ(outbuf[i], 0xA5, "guard byte %zu", i);
    }
  }
  CHECK(lane_out[MRTQ__LANE_Q31] > 100000 && lane_out[MRTQ__LANE_FP32] > 50000 && lane_out[0] > 10000 &&
        lane_out[MRTQ__LANE_Q31W] > 1000);
  printf("     _inner outputs by chunk form on %s: Q31 %ld, FP32 %ld, Q31 64-bit (scalar) %ld, other %ld\n", path_name,
         lane_out[2], lane_out[3], lane_out[1], lane_out[0]);
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
    CHECK_EQ(mrtq_quantize_f32_s8(sc, zp, x + off, n, (int8_t *)outbuf + off), MRTQ_OK, "status");
    for (i = 0; i < n; i++)
      CHECK_EQ((int8_t)outbuf[off + i], mrtq_quantize_f32(x[off + i], sc, zp, -128, 127), "s8 x=%a s=%a zp=%d",
               (double)x[off + i], (double)sc, zp);
    CHECK_EQ(outbuf[off + n], 0xA5, "guard");
    CHECK_EQ(mrtq_quantize_f32_u8(sc, zp, x + off, n, outbuf + off), MRTQ_OK, "status");
    for (i = 0; i < n; i++)
      CHECK_EQ(outbuf[off + i], mrtq_quantize_f32(x[off + i], sc, zp, 0, 255), "u8 x=%a s=%a zp=%d",
               (double)x[off + i], (double)sc, zp);
    CHECK_EQ(outbuf[off + n], 0xA5, "guard");
  }
}

/* Zero points near +-2^24, where the float clamp bounds lo - zp, hi - zp stop
 * being exact: every path must still give the scalar bytes (the SIMD blocks
 * took zp up to 2^24 and rounded a bound: -127 for -128; found by fuzz_array). */
static void test_quantize_zp_near_2_24(void) {
  static float x[96];
  const int32_t base[4] = {(1 << 24), -(1 << 24), (1 << 24) + 300, -(1 << 24) - 300};
  int b, d, u;
  size_t i;
  for (i = 0; i < 96; i++) x[i] = (i % 3 == 0) ? -3e9f : (i % 3 == 1) ? 3e9f : (float)((int)i - 48) * 1e6f;
  for (b = 0; b < 4; b++)
    for (d = -300; d <= 300; d += 7) {
      int32_t zp = base[b] + d;
      for (u = 0; u < 2; u++) {
        memset(outbuf, 0xA5, 100);
        if (u)
          CHECK_EQ(mrtq_quantize_f32_u8(1.0f, zp, x, 96, outbuf), MRTQ_OK, "u8");
        else
          CHECK_EQ(mrtq_quantize_f32_s8(1.0f, zp, x, 96, (int8_t *)outbuf), MRTQ_OK, "s8");
        for (i = 0; i < 96; i++)
          CHECK_EQ(u ? (int32_t)outbuf[i] : (int32_t)(int8_t)outbuf[i],
                   mrtq_quantize_f32(x[i], 1.0f, zp, u ? 0 : -128, u ? 255 : 127), "zp %d u8 %d i %zu", zp, u, i);
      }
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
    CHECK_EQ(mrtq_dequantize_s8_f32(sc, zp, (const int8_t *)q + off, n, back + off), MRTQ_OK, "status");
    for (i = 0; i < n; i++) CHECK(back[off + i] == mrtq_dequantize_f32((int8_t)q[off + i], sc, zp));
    CHECK_EQ(mrtq_dequantize_u8_f32(sc, zp, q + off, n, back + off), MRTQ_OK, "status");
    for (i = 0; i < n; i++) CHECK(back[off + i] == mrtq_dequantize_f32(q[off + i], sc, zp));
    CHECK(back[off + n] == 12345.0f);
  }
  { /* channel-inner: rows x 3 channels */
    static float x[3 * 500];
    float sc[3] = {0.02f, 0.5f, 3.0f};
    int32_t zs[3] = {0, -7, 100}, zu[3] = {0, 128, 255};
    size_t rows = 500;
    for (i = 0; i < 3 * rows; i++) x[i] = (float)((int32_t)th_rand32() >> 22) / 3.0f;
    CHECK_EQ(mrtq_quantize_f32_s8_inner(sc, zs, x, rows, 3, (int8_t *)outbuf), MRTQ_OK, "status");
    for (i = 0; i < 3 * rows; i++) CHECK_EQ((int8_t)outbuf[i], mrtq_quantize_f32(x[i], sc[i % 3], zs[i % 3], -128, 127), "inner q s8");
    CHECK_EQ(mrtq_dequantize_s8_f32_inner(sc, zs, (const int8_t *)outbuf, rows, 3, back), MRTQ_OK, "status");
    for (i = 0; i < 3 * rows; i++) CHECK(back[i] == mrtq_dequantize_f32((int8_t)outbuf[i], sc[i % 3], zs[i % 3]));
    CHECK_EQ(mrtq_quantize_f32_u8_inner(sc, zu, x, rows, 3, outbuf), MRTQ_OK, "status");
    for (i = 0; i < 3 * rows; i++) CHECK_EQ(outbuf[i], mrtq_quantize_f32(x[i], sc[i % 3], zu[i % 3], 0, 255), "inner q u8");
    CHECK_EQ(mrtq_dequantize_u8_f32_inner(sc, zu, outbuf, rows, 3, back), MRTQ_OK, "status");
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
  CHECK_EQ(mrtq_quantize_f32_s8(0.5f, 3, x, n, (int8_t *)outbuf), MRTQ_OK, "status");
  for (i = 0; i < n; i++) CHECK_EQ((int8_t)outbuf[i], mrtq_quantize_f32(x[i], 0.5f, 3, -128, 127), "q s8 %zu", i);
  CHECK_EQ(mrtq_dequantize_s8_f32(0.5f, 3, (const int8_t *)outbuf, n, back), MRTQ_OK, "status");
  for (i = 0; i < n; i++) CHECK(back[i] == mrtq_dequantize_f32((int8_t)outbuf[i], 0.5f, 3));
  CHECK_EQ(mrtq_quantize_f32_u8(0.25f, 128, x, n, outbuf), MRTQ_OK, "status");
  for (i = 0; i < n; i++) CHECK_EQ(outbuf[i], mrtq_quantize_f32(x[i], 0.25f, 128, 0, 255), "q u8 %zu", i);
  CHECK_EQ(mrtq_dequantize_u8_f32(0.25f, 128, outbuf, n, back), MRTQ_OK, "status");
  for (i = 0; i < n; i++) CHECK(back[i] == mrtq_dequantize_f32(outbuf[i], 0.25f, 128));
  /* per channel, channel-outer: 2 blocks x 3 channels x inner */
  CHECK_EQ(mrtq_quantize_f32_s8_outer(sc, zps, x, 2, 3, inner, (int8_t *)outbuf), MRTQ_OK, "status");
  for (i = 0; i < 6 * inner; i++) {
    size_t c = (i / inner) % 3;
    CHECK_EQ((int8_t)outbuf[i], mrtq_quantize_f32(x[i], sc[c], zps[c], -128, 127), "q s8 outer %zu", i);
  }
  CHECK_EQ(mrtq_dequantize_s8_f32_outer(sc, zps, (const int8_t *)outbuf, 2, 3, inner, back), MRTQ_OK, "status");
  for (i = 0; i < 6 * inner; i++) CHECK(back[i] == mrtq_dequantize_f32((int8_t)outbuf[i], sc[(i / inner) % 3], zps[(i / inner) % 3]));
  CHECK_EQ(mrtq_quantize_f32_u8_outer(sc, zpu, x, 2, 3, inner, outbuf), MRTQ_OK, "status");
  for (i = 0; i < 6 * inner; i++) {
    size_t c = (i / inner) % 3;
    CHECK_EQ(outbuf[i], mrtq_quantize_f32(x[i], sc[c], zpu[c], 0, 255), "q u8 outer %zu", i);
  }
  CHECK_EQ(mrtq_dequantize_u8_f32_outer(sc, zpu, outbuf, 2, 3, inner, back), MRTQ_OK, "status");
  for (i = 0; i < 6 * inner; i++) CHECK(back[i] == mrtq_dequantize_f32(outbuf[i], sc[(i / inner) % 3], zpu[(i / inner) % 3]));
}

static void run_all(void) {
  TH_RUN(test_rq_init);
  TH_RUN(test_q31_dbl);
  TH_RUN(test_q31_rndnu);
  TH_RUN(test_q15_vta);
  TH_RUN(test_q15_rndnu);
  TH_RUN(test_fp32);
  TH_RUN(test_hand_made_rq);
  TH_RUN(test_per_channel);
  TH_RUN(test_inner_wide);
  TH_RUN(test_quantize_arrays);
  TH_RUN(test_quantize_arrays_edges);
  TH_RUN(test_quantize_zp_near_2_24);
  TH_RUN(test_dequantize_arrays);
  TH_RUN(test_array_refusals);
  TH_RUN(test_requant_any_type);
#if defined(__unix__) || defined(__APPLE__)
  TH_RUN(test_page_end);
#endif
}

int main(void) {
#if MRTQ__DISPATCH
  /* a build with run-time dispatch (no -m flags, no MRTQ_SIMD): the public
   * entry points on every path this CPU runs, each forced in turn through the
   * private mrtq__simd_force (tests/test_dispatch.c checks that it reaches
   * them and that the automatic choice is the best) */
  static const char *names[] = {"dispatch/scalar", "dispatch/sse41", "dispatch/avx2", "dispatch/avx512"};
  int best = mrtq__simd_force(-1), level;
  for (level = MRTQ_SIMD_SCALAR; level <= best; level++) {
    if (mrtq__simd_force(level) != level) {
      printf("FAIL cannot force path %d\n", level);
      th_failed++;
      continue;
    }
    path_name = names[level];
    printf("-- path %s\n", path_name);
    run_all();
  }
  mrtq__simd_force(-1);
#else
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
  run_all();
#endif
  return th_finish("test_array_" MRTQ_TEST_PATH);
}
