/* mrtq/requant.h against independent oracles: exact 128-bit integer
 * arithmetic from each family's definition (docs/semantics.md), and for the
 * float families libm's nearbyint on exactly computed products/quotients. */
#include <float.h>
#include <math.h>

#include "harness.h"
#include "mrtq.h"
#include "oracle.h"

/* ---- oracles ---- */

/* Q31 double rounding: RDIVPOT(SRDHM(x * 2^max(shift,0), M), max(-shift,0)),
 * the left shift saturated (mrtq's documented extension). */
static int32_t o_q31_dbl(int32_t x, int32_t M, int shift) {
  int32_t xs = shift > 0 ? o_sat32((i128)x * o_pow2(shift > 100 ? 100 : shift)) : x;
  return o_rdivpot(o_srdhm(xs, M), shift < 0 ? (-shift > 100 ? 100 : -shift) : 0);
}

/* exact floor(x * M * 2^(shift - F) + 1/2), saturated */
static int32_t o_rndnu(int32_t x, int32_t M, int shift, int F) {
  i128 p = (i128)x * M;
  int k = F - shift;
  if (k > 0) return o_sat32(o_round_half_up(p, o_pow2(k > 110 ? 110 : k)));
  return o_sat32(p * o_pow2(-k > 60 ? 60 : -k));
}

/* value of v modulo 2^32 as a signed 32-bit number */
static int32_t o_mod32(i128 v) {
  i128 m = v - o_floor_div(v, o_pow2(32)) * o_pow2(32); /* [0, 2^32) */
  return (int32_t)(m >= o_pow2(31) ? m - o_pow2(32) : m);
}

/* VTA functional simulator: wrapping product, then floor shift by k = 15 - shift
 * (negative k: wrapping left shift). */
static int32_t o_q15_vta(int32_t x, int32_t M, int shift) {
  int32_t p = o_mod32((i128)x * M);
  int k = 15 - shift;
  if (k >= 0) return (int32_t)o_floor_div(p, o_pow2(k > 100 ? 100 : k));
  return o_mod32((i128)p * o_pow2(-k > 100 ? 100 : -k));
}

static long long o_clampll(long long v, long long lo, long long hi) { return v < lo ? lo : v > hi ? hi : v; }

/* fp32: (float)acc * scale correctly rounded (the double product of two floats
 * is exact), RNE by libm, + zp, clamp. */
static int32_t o_fp32(int32_t acc, float scale, int32_t zp, int32_t qmin, int32_t qmax) {
  float fa = (float)acc;
  float f = (float)((double)fa * (double)scale);
  double r = isnan(f) ? 0.0 : nearbyint((double)f);
  if (r > 1e12) r = 1e12;
  if (r < -1e12) r = -1e12;
  return (int32_t)o_clampll(o_clampll((long long)r + zp, qmin, LLONG_MAX), LLONG_MIN, qmax);
}

/* ONNX QuantizeLinear: a float division is the double quotient rounded to
 * float (double has > 2 * 24 + 2 bits, so this double rounding is innocuous). */
static int32_t o_quant(float x, float scale, int32_t zp, int32_t qmin, int32_t qmax) {
  float f = (float)((double)x / (double)scale);
  double r = isnan(f) ? 0.0 : nearbyint((double)f);
  if (r > 1e12) r = 1e12;
  if (r < -1e12) r = -1e12;
  return (int32_t)o_clampll(o_clampll((long long)r + zp, qmin, LLONG_MAX), LLONG_MIN, qmax);
}

/* The delegate's dequantization restated with its own int16 types. It relies
 * on gcc/clang's documented implementation-defined behaviour (conversion to
 * int16_t wraps, >> of a negative value is arithmetic), which is exactly what
 * the upstream C++ code gets on these compilers. Domain: shift in [-15, 0]. */
static int32_t o_dequant_vta(int32_t q, int32_t zp, int32_t mult, int shift) {
  int16_t off = (int16_t)(-zp), m16 = (int16_t)mult;
  int16_t v = (int16_t)(off + (int16_t)q);
  int16_t w = (int16_t)(v * (1 << 7));
  int overflow = w == m16 && w == INT16_MIN;
  int32_t raw = (int32_t)w * m16;
  int32_t nudge = raw >= 0 ? (1 << 14) : (1 - (1 << 14));
  int32_t scaled = (raw + nudge) >> 15;
  int16_t sat = overflow ? INT16_MAX : (int16_t)scaled;
  return (int16_t)(sat >> -shift);
}

/* ---- inputs ---- */

static int32_t rand_mult31(void) {
  switch (th_rand32() % 8u) {
    case 0: return (int32_t)(1u << 30);
    case 1: return INT32_MAX;
    case 2: return 0;
    default: return (int32_t)th_range(1LL << 30, INT32_MAX);
  }
}
static int32_t rand_mult15(void) {
  switch (th_rand32() % 8u) {
    case 0: return 16384;
    case 1: return 32767;
    case 2: return 0;
    default: return (int32_t)th_range(16384, 32767);
  }
}

typedef int32_t (*family_fn)(int32_t, mrtq_mult);

/* Every family over the edge table x every shift of its domain, plus random
 * inputs inside the domain and outside it (any mult, shifts in [-80, 80]). */
static void sweep(family_fn fn, int32_t (*oracle)(int32_t, int32_t, int), int32_t (*rmult)(void), int smin, int smax,
                  int32_t mtop) {
  int32_t ed[TH_EDGES_MAX];
  int n = th_edges(ed), i, s;
  long r;
  int32_t mults[5];
  mults[0] = mtop / 2 + 1; /* 2^(F-1) */
  mults[1] = mtop;         /* 2^F - 1 */
  mults[2] = 0;
  mults[3] = mtop / 3 * 2 + 1;
  mults[4] = rmult();
  for (s = smin; s <= smax; s++)
    for (i = 0; i < n; i++) {
      int j;
      for (j = 0; j < 5; j++) {
        mrtq_mult m = {0, 0};
        m.mult = mults[j];
        m.shift = s;
        CHECK_EQ(fn(ed[i], m), oracle(ed[i], m.mult, s), "x=%d mult=%d shift=%d", ed[i], m.mult, s);
      }
    }
  for (r = 0; r < 1000000; r++) {
    mrtq_mult m = {0, 0};
    int32_t x = th_i32();
    m.mult = rmult();
    m.shift = (int32_t)th_range(smin, smax);
    CHECK_EQ(fn(x, m), oracle(x, m.mult, m.shift), "x=%d mult=%d shift=%d", x, m.mult, m.shift);
  }
  for (r = 0; r < 200000; r++) { /* out of domain: documented, total */
    mrtq_mult m = {0, 0};
    int32_t x = th_i32();
    m.mult = th_i32();
    m.shift = (int32_t)th_range(-80, 80);
    CHECK_EQ(fn(x, m), oracle(x, m.mult, m.shift), "x=%d mult=%d shift=%d", x, m.mult, m.shift);
  }
  { /* extreme shifts must not misbehave */
    mrtq_mult m = {0, 0};
    m.mult = mtop;
    m.shift = INT32_MIN;
    (void)fn(INT32_MIN, m);
    m.shift = INT32_MAX;
    (void)fn(INT32_MIN, m);
  }
}

static int32_t o_q31_rndnu(int32_t x, int32_t M, int s) { return o_rndnu(x, M, s, 31); }
static int32_t o_q15_rndnu(int32_t x, int32_t M, int s) { return o_rndnu(x, M, s, 15); }

static void test_q31_dbl(void) { sweep(mrtq_mul_q31_dbl, o_q31_dbl, rand_mult31, -31, 30, INT32_MAX); }
static void test_q31_rndnu(void) { sweep(mrtq_mul_q31_rndnu, o_q31_rndnu, rand_mult31, -31, 30, INT32_MAX); }
static void test_q15_vta(void) { sweep(mrtq_mul_q15_vta, o_q15_vta, rand_mult15, -15, 31, 32767); }
static void test_q15_rndnu(void) { sweep(mrtq_mul_q15_rndnu, o_q15_rndnu, rand_mult15, -15, 31, 32767); }

/* Exact ties for every shift: x * M = (2j + 1) * 2^(k-1). Double rounding sends
 * such a tie up (+inf) in SRDHM when k = 31; single rounding always up. */
static void test_ties_every_shift(void) {
  int s;
  for (s = -31; s <= 30; s++) {
    int k = 31 - s, i;
    for (i = 0; i < 64; i++) {
      mrtq_mult m = {0, 0};
      int32_t x;
      /* M = 2^30 (so x * M = x * 2^30): x odd * 2^(k - 31) is a tie when k > 31 */
      m.mult = 1 << 30;
      m.shift = s;
      if (k - 31 >= 0 && k - 31 <= 29)
        x = (int32_t)((2 * th_range(-(1LL << (29 - (k - 31))), (1LL << (29 - (k - 31))) - 1) + 1) * (1LL << (k - 31)));
      else
        x = (int32_t)(2 * th_range(-1000, 1000) + 1);
      CHECK_EQ(mrtq_mul_q31_rndnu(x, m), o_q31_rndnu(x, m.mult, s), "x=%d shift=%d", x, s);
      CHECK_EQ(mrtq_mul_q31_dbl(x, m), o_q31_dbl(x, m.mult, s), "x=%d shift=%d", x, s);
      if (s >= -15) {
        m.mult = 1 << 14;
        m.shift = s < 31 ? s : 30;
        CHECK_EQ(mrtq_mul_q15_rndnu(x, m), o_q15_rndnu(x, m.mult, m.shift), "x=%d shift=%d", x, m.shift);
        CHECK_EQ(mrtq_mul_q15_vta(x, m), o_q15_vta(x, m.mult, m.shift), "x=%d shift=%d", x, m.shift);
      }
    }
  }
  { /* hand-checkable: 3 * 0.5 = 1.5 and -1.5 */
    mrtq_mult half = {1 << 30, 0};    /* Q31: 2^30 * 2^-31 = 0.5 */
    mrtq_mult half15 = {1 << 14, 0};  /* Q15: 2^14 * 2^-15 = 0.5 */
    CHECK_EQ(mrtq_mul_q31_rndnu(3, half), 2, "1.5 up");
    CHECK_EQ(mrtq_mul_q31_rndnu(-3, half), -1, "-1.5 up");
    CHECK_EQ(mrtq_mul_q31_dbl(3, half), 2, "1.5 up");
    CHECK_EQ(mrtq_mul_q31_dbl(-3, half), -1, "-1.5 up (SRDHM)");
    CHECK_EQ(mrtq_mul_q15_vta(-3, half15), -2, "-1.5 floor");
    CHECK_EQ(mrtq_mul_q15_rndnu(-3, half15), -1, "-1.5 up");
  }
  { /* a multiplier just above 1/4: each family against its own oracle */
    mrtq_mult m = {(1 << 30) + 1, -1}; /* ~0.25 */
    int32_t x = (1 << 30) + 1, dbl = mrtq_mul_q31_dbl(x, m), sgl = mrtq_mul_q31_rndnu(x, m);
    CHECK_EQ(dbl, o_q31_dbl(x, m.mult, m.shift), "dbl");
    CHECK_EQ(sgl, o_q31_rndnu(x, m.mult, m.shift), "sgl");
  }
}

/* mrtq_dequant_vta against the delegate's steps: every int8 q, zero points
 * over int8 plus int16 edges, multipliers over the Q15 range plus int16
 * edges, every shift in [-15, 0]; then >= 10^6 random int16-domain cases. */
static void test_dequant_vta(void) {
  int32_t zps[] = {0, 1, -1, 127, -128, 5, -77, 32767, -32768, 300, -300};
  int32_t mults[] = {16384, 32767, 0, 1, -1, 21475, 25891, -32768, 32767 / 3, 16385};
  int q, s;
  size_t zi, mi;
  long r;
  for (q = -128; q <= 127; q++)
    for (zi = 0; zi < sizeof zps / sizeof zps[0]; zi++)
      for (mi = 0; mi < sizeof mults / sizeof mults[0]; mi++)
        for (s = -15; s <= 0; s++) {
          mrtq_mult m;
          m.mult = mults[mi];
          m.shift = s;
          CHECK_EQ(mrtq_dequant_vta(q, zps[zi], m), o_dequant_vta(q, zps[zi], m.mult, s), "q=%d zp=%d mult=%d shift=%d", q,
                   zps[zi], m.mult, s);
        }
  for (r = 0; r < 1000000; r++) {
    mrtq_mult m;
    int32_t qq = (int32_t)th_range(-128, 127), zp = (int32_t)th_range(-32768, 32767);
    m.mult = (th_rand32() & 1) ? (int32_t)th_range(16384, 32767) : (int32_t)th_range(-32768, 32767);
    m.shift = (int32_t)th_range(-15, 0);
    CHECK_EQ(mrtq_dequant_vta(qq, zp, m), o_dequant_vta(qq, zp, m.mult, m.shift), "q=%d zp=%d mult=%d shift=%d", qq, zp,
             m.mult, m.shift);
  }
  { /* hand-checkable: q - zp = 3, mult 16384 (0.5), shift 0: 3 * 128 * 0.5 = 192 */
    mrtq_mult half = {16384, 0};
    CHECK_EQ(mrtq_dequant_vta(4, 1, half), 192, "192");
    /* q - zp = -1 with mult 1: p = -128, floor((-128 + 1 - 2^14) / 2^15) = -1 (TFLite would give 0) */
    half.mult = 1;
    CHECK_EQ(mrtq_dequant_vta(0, 1, half), -1, "floor bias");
  }
  { /* out of domain stays total and documented */
    mrtq_mult m = {16384, 3};
    CHECK_EQ(mrtq_dequant_vta(4, 1, m), (192 * 8) % 65536, "shift 3");
    m.shift = 20;
    CHECK_EQ(mrtq_dequant_vta(4, 1, m), 0, "shift 20");
    m.shift = INT32_MIN;
    CHECK_EQ(mrtq_dequant_vta(4, 1, m), 0, "shift min");
    /* q - zp = -2^32 + 1, which is 1 modulo 2^16 */
    m.shift = -2;
    CHECK_EQ(mrtq_dequant_vta(INT32_MIN, INT32_MAX, m), o_dequant_vta(1, 0, 16384, -2), "extremes");
  }
}

/* Published vectors: TensorFlow Lite quantization_util_test.cc,
 * MultiplyByQuantizedMultiplierInt32 (the same expectations hold in its
 * double-rounding and single-rounding builds; negative multipliers only in the
 * double-rounding build). */
static void test_tflite_published(void) {
  struct { int32_t x; double s; int32_t want; } v[] = {
      {0, 0.1, 0}, {1, 0, 0}, {10000, 0.00097656, 10}, {-10000, 0.00097656, -10},
      {INT32_MIN, 0.00001, -21475}, {INT32_MAX, 0.00001, 21475}};
  size_t i;
  for (i = 0; i < sizeof v / sizeof v[0]; i++) {
    mrtq_mult m = {0, 0}, neg;
    CHECK_EQ(mrtq_mult_q31(v[i].s, &m), MRTQ_OK, "encode");
    CHECK_EQ(mrtq_mul_q31_dbl(v[i].x, m), v[i].want, "dbl x=%d s=%g", v[i].x, v[i].s);
    CHECK_EQ(mrtq_mul_q31_rndnu(v[i].x, m), v[i].want, "rndnu x=%d s=%g", v[i].x, v[i].s);
    /* TFLite encodes -s as the negated mantissa of s (frexp and round are odd) */
    neg.mult = -m.mult;
    neg.shift = m.shift;
    if (v[i].x != INT32_MIN || m.mult == 0)
      CHECK_EQ(mrtq_mul_q31_dbl(v[i].x, neg), -v[i].want, "dbl x=%d s=-%g", v[i].x, v[i].s);
  }
  { /* INT32_MIN * -0.00001 = 21475 (published) */
    mrtq_mult m = {0, 0};
    mrtq_mult_q31(0.00001, &m);
    m.mult = -m.mult;
    CHECK_EQ(mrtq_mul_q31_dbl(INT32_MIN, m), 21475, "min * -1e-5");
  }
  { /* max x and multiplier, shift -3: round(x * M / 2^34) per the published test's formula */
    mrtq_mult m = {INT32_MAX, -3};
    int32_t want = (int32_t)llround((double)((long long)INT32_MAX * INT32_MAX) / (double)(1LL << 34));
    CHECK_EQ(mrtq_mul_q31_dbl(INT32_MAX, m), want, "max");
    CHECK_EQ(mrtq_mul_q31_dbl(-INT32_MAX, m), -want, "-max");
    CHECK_EQ(mrtq_mul_q31_rndnu(INT32_MAX, m), want, "max");
    CHECK_EQ(mrtq_mul_q31_rndnu(-INT32_MAX, m), -want, "-max");
  }
}

/* Double and single rounding differ by at most 1, on a few percent of inputs. */
static void test_dbl_vs_single_share(void) {
  long r, diff = 0, n = 200000;
  for (r = 0; r < n; r++) {
    mrtq_mult m = {0, 0};
    int32_t x = (int32_t)th_rand32(), a, b;
    m.mult = (int32_t)th_range(1LL << 30, INT32_MAX);
    m.shift = (int32_t)th_range(-12, -1);
    a = mrtq_mul_q31_dbl(x, m);
    b = mrtq_mul_q31_rndnu(x, m);
    CHECK(a - b >= -1 && a - b <= 1);
    diff += a != b;
  }
  printf("     double vs single rounding differ on %.2f%% of %ld random inputs\n", 100.0 * diff / n, n);
  CHECK(diff > 0);
}

static float rand_scale(void) {
  switch (th_rand32() % 6u) {
    case 0: return 0.5f;
    case 1: return ldexpf(1.0f, (int)th_range(-30, 3));
    case 2: return nextafterf(ldexpf(1.0f, (int)th_range(-20, 0)), 0.0f);
    default: return ldexpf(1.0f + (float)(th_rand32() >> 9) / 8388608.0f, (int)th_range(-30, 2));
  }
}

static void rand_bounds(int32_t *zp, int32_t *qmin, int32_t *qmax) {
  switch (th_rand32() % 5u) {
    case 0: *qmin = -128; *qmax = 127; *zp = (int32_t)th_range(-128, 127); break;
    case 1: *qmin = 0; *qmax = 255; *zp = (int32_t)th_range(0, 255); break;
    case 2: *qmin = INT32_MIN; *qmax = INT32_MAX; *zp = th_i32(); break;
    case 3: *qmin = -32768; *qmax = 32767; *zp = th_i32(); break;
    default: *qmin = (int32_t)th_range(-1000, 0); *qmax = (int32_t)th_range(0, 1000); *zp = th_i32(); break;
  }
}

static void test_requant_fp32(void) {
  int32_t ed[TH_EDGES_MAX];
  int n = th_edges(ed), i;
  long r;
  float scales[] = {1.0f, 0.5f, 0.25f, 1.0f / 3, 0x1p-31f, 0x1.fffffep-1f, 3.0e-5f, 1e30f, FLT_MAX, INFINITY, 0.0f, -0.5f};
  int32_t zps[] = {0, -128, 127, 255, INT32_MIN, INT32_MAX};
  size_t si, zi;
  for (si = 0; si < sizeof scales / sizeof scales[0]; si++)
    for (zi = 0; zi < sizeof zps / sizeof zps[0]; zi++)
      for (i = 0; i < n; i++) {
        CHECK_EQ(mrtq_requant_fp32(ed[i], scales[si], zps[zi], -128, 127), o_fp32(ed[i], scales[si], zps[zi], -128, 127),
                 "acc=%d scale=%a zp=%d", ed[i], (double)scales[si], zps[zi]);
        CHECK_EQ(mrtq_requant_fp32(ed[i], scales[si], zps[zi], INT32_MIN, INT32_MAX),
                 o_fp32(ed[i], scales[si], zps[zi], INT32_MIN, INT32_MAX), "acc=%d scale=%a zp=%d", ed[i],
                 (double)scales[si], zps[zi]);
      }
  for (r = 0; r < 1000000; r++) {
    int32_t acc = th_i32(), zp, lo, hi;
    float s = rand_scale();
    rand_bounds(&zp, &lo, &hi);
    CHECK_EQ(mrtq_requant_fp32(acc, s, zp, lo, hi), o_fp32(acc, s, zp, lo, hi), "acc=%d scale=%a zp=%d [%d,%d]", acc,
             (double)s, zp, lo, hi);
  }
  /* ties to even, hand-checkable: 2.5 -> 2, 3.5 -> 4, -2.5 -> -2 */
  CHECK_EQ(mrtq_requant_fp32(5, 0.5f, 0, -128, 127), 2, "2.5");
  CHECK_EQ(mrtq_requant_fp32(7, 0.5f, 0, -128, 127), 4, "3.5");
  CHECK_EQ(mrtq_requant_fp32(-5, 0.5f, 0, -128, 127), -2, "-2.5");
  /* documented out-of-domain results: NaN scale counts as 0; qmin > qmax gives qmax */
  CHECK_EQ(mrtq_requant_fp32(1000, NAN, 3, -128, 127), 3, "NaN");
  CHECK_EQ(mrtq_requant_fp32(0, 1.0f, 0, 10, -10), -10, "qmin > qmax");
}

static void test_quantize_dequantize_f32(void) {
  long r;
  float xs[] = {0.0f, -0.0f, 0.5f, 1.5f, 2.5f, -2.5f, 126.5f, 127.5f, -128.5f, 1e30f, -1e30f, INFINITY, -INFINITY, NAN,
                FLT_MIN, 0x1p-149f, 8388607.5f, 16777216.0f};
  float scales[] = {1.0f, 0.5f, 0.1f, 3.0f, 0x1p-20f, FLT_MAX, 0x1p-149f, 0.0f};
  size_t xi, si;
  for (xi = 0; xi < sizeof xs / sizeof xs[0]; xi++)
    for (si = 0; si < sizeof scales / sizeof scales[0]; si++) {
      CHECK_EQ(mrtq_quantize_f32(xs[xi], scales[si], 0, -128, 127), o_quant(xs[xi], scales[si], 0, -128, 127),
               "x=%a s=%a", (double)xs[xi], (double)scales[si]);
      CHECK_EQ(mrtq_quantize_f32(xs[xi], scales[si], 128, 0, 255), o_quant(xs[xi], scales[si], 128, 0, 255),
               "x=%a s=%a", (double)xs[xi], (double)scales[si]);
    }
  for (r = 0; r < 1000000; r++) {
    int32_t zp, lo, hi, q;
    float s = rand_scale(), x, d, od;
    rand_bounds(&zp, &lo, &hi);
    x = (float)((double)(int32_t)th_rand32() / (double)(1u << th_range(0, 31))) * (th_rand32() % 4u ? 1.0f : s);
    CHECK_EQ(mrtq_quantize_f32(x, s, zp, lo, hi), o_quant(x, s, zp, lo, hi), "x=%a s=%a zp=%d", (double)x, (double)s, zp);
    q = th_i32();
    d = mrtq_dequantize_f32(q, s, zp);
    od = (float)((double)(float)((double)q - (double)zp) * (double)s);
    CHECK(d == od || (isnan(d) && isnan(od)));
  }
  /* ONNX QuantizeLinear rounds half to even: 2.5 -> 2, 3.5 -> 4; saturates */
  CHECK_EQ(mrtq_quantize_f32(2.5f, 1.0f, 0, -128, 127), 2, "2.5");
  CHECK_EQ(mrtq_quantize_f32(3.5f, 1.0f, 0, -128, 127), 4, "3.5");
  CHECK_EQ(mrtq_quantize_f32(-1000.0f, 1.0f, 10, 0, 255), 0, "saturate");
  CHECK_EQ(mrtq_quantize_f32(NAN, 1.0f, 10, 0, 255), 10, "NaN counts as 0");
  CHECK(mrtq_dequantize_f32(-128, 0.5f, 1) == -64.5f);
}

int main(void) {
  TH_RUN(test_q31_dbl);
  TH_RUN(test_q31_rndnu);
  TH_RUN(test_q15_vta);
  TH_RUN(test_q15_rndnu);
  TH_RUN(test_ties_every_shift);
  TH_RUN(test_dequant_vta);
  TH_RUN(test_tflite_published);
  TH_RUN(test_dbl_vs_single_share);
  TH_RUN(test_requant_fp32);
  TH_RUN(test_quantize_dequantize_f32);
  return th_finish("test_requant");
}
