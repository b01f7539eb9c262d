/* TFLite ADD and MUL (mrtq/eltwise.h) and NumPy broadcasting, against
 * oracles written here: the TFLite reference formula evaluated with the
 * 128-bit SRDHM / RDIVPOT of oracle.h, the parameters derived here from the
 * scales in double (the Q31 encoder itself is tested against TFLite's rules in
 * test_fixedpoint.c; MUL's real multiplier in float, as the TF interpreter's
 * mul.cc computes it), broadcasting by explicit nested index loops, and a
 * hand-checked case. */
#include <math.h>

#include "harness.h"
#include "mrtq.h"
#include "oracle.h"

static int32_t o_mul_dbl(int32_t x, mrtq_mult m) { /* TFLite MultiplyByQuantizedMultiplier, default build */
  int64_t xs = m.shift > 0 ? (int64_t)x * ((int64_t)1 << m.shift) : x;
  return o_rdivpot(o_srdhm((int32_t)xs, m.mult), m.shift > 0 ? 0 : -m.shift);
}
static int32_t o_clamp(int64_t v, int32_t lo, int32_t hi) { return (int32_t)(v < lo ? lo : v > hi ? hi : v); }

static int32_t o_add(double s1, int32_t z1, double s2, int32_t z2, double so, int32_t zo, int32_t lo, int32_t hi,
                     int32_t a, int32_t b) {
  double t = 2 * (s1 > s2 ? s1 : s2);
  mrtq_mult m1, m2, mo;
  mrtq_mult_q31(s1 / t, &m1), mrtq_mult_q31(s2 / t, &m2), mrtq_mult_q31(t / (1048576.0 * so), &mo);
  return o_clamp((int64_t)o_mul_dbl(o_mul_dbl((a - z1) * 1048576, m1) + o_mul_dbl((b - z2) * 1048576, m2), mo) + zo, lo,
                 hi);
}
static int32_t o_mul(double s1, int32_t z1, double s2, int32_t z2, double so, int32_t zo, int32_t lo, int32_t hi,
                     int32_t a, int32_t b) {
  mrtq_mult m;
  volatile float prod = (float)s1 * (float)s2, q = prod / (float)so; /* TF's mul.cc: float scales, float arithmetic */
  mrtq_mult_q31(q, &m);
  return o_clamp((int64_t)o_mul_dbl((a - z1) * (b - z2), m) + zo, lo, hi);
}

static double rand_scale(void) { return (float)ldexp(1.0 + (double)(th_rand32() % 10000u) / 10000.0, -(int)th_range(2, 12)); }

/* every pair of stored values, for random parameter sets, int8 and uint8 */
static void test_all_pairs(void) {
  static uint8_t a[256 * 256], b[256 * 256], out[256 * 256];
  size_t shape[1] = {256 * 256};
  int trial;
  long long n = 0;
  for (trial = 0; trial < 24; trial++) {
    int u = trial % 2, mul = trial / 2 % 2, i;
    int32_t lo = u ? 0 : -128, hi = u ? 255 : 127;
    int32_t z1 = (int32_t)th_range(lo, hi), z2 = (int32_t)th_range(lo, hi), zo = (int32_t)th_range(lo, hi);
    int32_t qmin = trial % 3 ? lo : zo, qmax = hi; /* some with a fused ReLU: min = zero point */
    double s1 = rand_scale(), s2 = rand_scale(), so = mul ? s1 * s2 * (0.5 + (double)(th_rand32() % 100u) / 20.0)
                                                       : (s1 > s2 ? s1 : s2) * (0.5 + (double)(th_rand32() % 100u) / 40.0);
    mrtq_tflite_add_params pa;
    mrtq_tflite_mul_params pm;
    for (i = 0; i < 65536; i++) a[i] = (uint8_t)(i >> 8), b[i] = (uint8_t)i;
    if (mul) {
      CHECK_EQ(mrtq_tflite_mul_init(s1, z1, s2, z2, so, zo, qmin, qmax, u ? MRTQ_U8 : MRTQ_S8, &pm), MRTQ_OK, "mul init");
      CHECK_EQ(mrtq_tflite_mul(shape, 1, shape, 1, &pm, a, b, out), MRTQ_OK, "mul");
    } else {
      CHECK_EQ(mrtq_tflite_add_init(s1, z1, s2, z2, so, zo, qmin, qmax, u ? MRTQ_U8 : MRTQ_S8, &pa), MRTQ_OK, "add init");
      CHECK_EQ(mrtq_tflite_add(shape, 1, shape, 1, &pa, a, b, out), MRTQ_OK, "add");
    }
    for (i = 0; i < 65536; i++) {
      int32_t x = u ? a[i] : (int8_t)a[i], y = u ? b[i] : (int8_t)b[i];
      int32_t want = mul ? o_mul(s1, z1, s2, z2, so, zo, qmin, qmax, x, y) : o_add(s1, z1, s2, z2, so, zo, qmin, qmax, x, y);
      int32_t got = u ? out[i] : (int8_t)out[i];
      if (got != want) CHECK_EQ(got, want, "trial %d %s a=%d b=%d", trial, mul ? "mul" : "add", x, y);
      n++;
    }
    CHECK(n > 0);
  }
  printf("  %lld element pairs compared\n", n);
}

/* hand-checked: s1 = s2 = 0.5, s_out = 1, zero points 0: T = 1, m1 = m2 =
 * {2^30, 0}, mo = Q31(2^-20) = {2^30, -19}; a = 3, b = 5: SRDHM(3 * 2^20, 2^30)
 * = 3 * 2^19, likewise 5 * 2^19, sum 2^22, SRDHM(2^22, 2^30) = 2^21, RDIVPOT(2^21,
 * 19) = 4 = 0.5 * 3 + 0.5 * 5. MUL with s_out = 0.25: 0.25 * 15 / 0.25 = 15. */
static void test_hand(void) {
  mrtq_tflite_add_params pa;
  mrtq_tflite_mul_params pm;
  CHECK_EQ(mrtq_tflite_add_init(0.5, 0, 0.5, 0, 1.0, 0, -128, 127, MRTQ_S8, &pa), MRTQ_OK, "init");
  CHECK(pa.m1.mult == (1 << 30) && pa.m1.shift == 0 && pa.mo.mult == (1 << 30) && pa.mo.shift == -19);
  CHECK_EQ(mrtq_tflite_add_one(&pa, 3, 5), 4, "3 + 5 halves");
  CHECK_EQ(mrtq_tflite_add_one(&pa, 127, 127), 127, "saturates");
  CHECK_EQ(mrtq_tflite_mul_init(0.5, 0, 0.5, 0, 0.25, 0, -128, 127, MRTQ_S8, &pm), MRTQ_OK, "init");
  CHECK_EQ(mrtq_tflite_mul_one(&pm, 3, 5), 15, "3 * 5");
  CHECK_EQ(mrtq_tflite_mul_one(&pm, -3, 5), -15, "-3 * 5");
}

/* broadcasting: 4-D shapes with 1s, missing leading dimensions, scalars */
static void test_broadcast(void) {
  static int8_t a[4 * 3 * 5 * 2], b[4 * 3 * 5 * 2], out[4 * 3 * 5 * 2];
  mrtq_tflite_add_params p;
  int trial;
  CHECK_EQ(mrtq_tflite_add_init(0.03, 3, 0.07, -9, 0.08, 1, -128, 127, MRTQ_S8, &p), MRTQ_OK, "init");
  for (trial = 0; trial < 300; trial++) {
    size_t full[4] = {4, 3, 5, 2}, sa[4], sb[4], i0, i1, i2, i3, k;
    int nda = (int)th_range(0, 4), ndb = (int)th_range(0, 4), d;
    for (k = 0; k < sizeof a; k++) a[k] = (int8_t)th_rand32(), b[k] = (int8_t)th_rand32();
    for (d = 0; d < 4; d++) { /* a's and b's dims: the full size or 1, aligned at the end */
      sa[d] = th_rand32() % 3u ? full[d] : 1;
      sb[d] = (sa[d] == 1 || th_rand32() % 3u) ? full[d] : 1;
    }
    CHECK_EQ(mrtq_tflite_add(sa + 4 - nda, nda, sb + 4 - ndb, ndb, &p, a, b, out), MRTQ_OK, "broadcast add");
    {
      size_t od[4], n = 0;
      for (d = 0; d < 4; d++) {
        size_t x = d >= 4 - nda ? sa[d] : 1, y = d >= 4 - ndb ? sb[d] : 1;
        od[d] = x > y ? x : y;
      }
      for (i0 = 0; i0 < od[0]; i0++)
        for (i1 = 0; i1 < od[1]; i1++)
          for (i2 = 0; i2 < od[2]; i2++)
            for (i3 = 0; i3 < od[3]; i3++) {
              size_t idx[4] = {i0, i1, i2, i3}, ia = 0, ib = 0;
              for (d = 0; d < 4; d++) { /* row-major offsets, index 0 on size-1 and missing dims */
                size_t x = d >= 4 - nda ? sa[d] : 1, y = d >= 4 - ndb ? sb[d] : 1;
                ia = ia * x + (x == 1 ? 0 : idx[d]);
                ib = ib * y + (y == 1 ? 0 : idx[d]);
              }
              CHECK_EQ(out[n], o_add(0.03, 3, 0.07, -9, 0.08, 1, -128, 127, a[ia], b[ib]), "trial %d at %zu", trial, n);
              n++;
            }
    }
  }
  {
    size_t s1[2] = {3, 4}, s2[2] = {2, 4}, z[2] = {0, 4};
    size_t big[2] = {(size_t)1 << 40, (size_t)1 << 40};
    mrtq_bcast bc, keep;
    mrtq_tflite_add_params bad = p;
    CHECK_REFUSED(mrtq_tflite_add(s1, 2, s2, 2, &p, a, b, out), MRTQ_ESHAPE, "shape_a, shape_b: sizes differ and neither is 1");
    CHECK_REFUSED(mrtq_tflite_add(z, 2, s2, 2, &p, a, b, out), MRTQ_ESHAPE, "shape_a: a zero dimension");
    CHECK_REFUSED(mrtq_tflite_add(s2, 2, z, 2, &p, a, b, out), MRTQ_ESHAPE, "shape_b: a zero dimension");
    CHECK_REFUSED(mrtq_tflite_add(s1, 9, s2, 2, &p, a, b, out), MRTQ_EINVAL, "nda: must be in [0, MRTQ_MAX_DIMS]");
    CHECK_REFUSED(mrtq_tflite_add(s1, -1, s2, 2, &p, a, b, out), MRTQ_EINVAL, "nda: must be in [0, MRTQ_MAX_DIMS]");
    CHECK_REFUSED(mrtq_tflite_add(s1, 2, s2, 9, &p, a, b, out), MRTQ_EINVAL, "ndb: must be in [0, MRTQ_MAX_DIMS]");
    CHECK_REFUSED(mrtq_tflite_add(NULL, 2, s2, 2, &p, a, b, out), MRTQ_EINVAL, "shape_a: NULL with nda > 0");
    CHECK_REFUSED(mrtq_tflite_add(s1, 2, NULL, 2, &p, a, b, out), MRTQ_EINVAL, "shape_b: NULL with ndb > 0");
    CHECK_REFUSED(mrtq_tflite_add(big, 2, big, 2, &p, a, b, out), MRTQ_ESHAPE, "shape_a, shape_b: element count overflows size_t");
    CHECK_REFUSED(mrtq_tflite_add(s1, 2, s1, 2, &p, NULL, b, out), MRTQ_EINVAL, "a: NULL");
    CHECK_REFUSED(mrtq_tflite_add(s1, 2, s1, 2, &p, a, NULL, out), MRTQ_EINVAL, "b: NULL");
    CHECK_REFUSED(mrtq_tflite_add(s1, 2, s1, 2, &p, a, b, NULL), MRTQ_EINVAL, "out: NULL");
    CHECK_REFUSED(mrtq_tflite_add(s1, 2, s1, 2, NULL, a, b, out), MRTQ_EINVAL, "p: NULL");
    bad.type = (mrtq_dtype)0; /* a hand-filled parameter set without a type */
    CHECK_REFUSED(mrtq_tflite_add(s1, 2, s1, 2, &bad, a, b, out), MRTQ_EINVAL, "p->type: not an mrtq_dtype");
    bad.type = MRTQ_S32;
    CHECK_REFUSED(mrtq_tflite_add(s1, 2, s1, 2, &bad, a, b, out), MRTQ_EUNSUPPORTED, "p->type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S16");
    /* scalars: a rank-0 shape may be NULL */
    CHECK_EQ(mrtq_tflite_add(NULL, 0, NULL, 0, &p, a, b, out), MRTQ_OK, "scalar + scalar");
    CHECK_EQ(out[0], o_add(0.03, 3, 0.07, -9, 0.08, 1, -128, 127, a[0], b[0]), "scalar");
    /* mrtq_bcast_init on its own; a refusal leaves *bc unchanged */
    memset(&keep, 0x5a, sizeof keep), bc = keep;
    CHECK_REFUSED(mrtq_bcast_init(s1, 2, s2, 2, &bc), MRTQ_ESHAPE, "shape_a, shape_b: sizes differ");
    CHECK(memcmp(&bc, &keep, sizeof bc) == 0);
    CHECK_REFUSED(mrtq_bcast_init(s1, 2, s2, 2, NULL), MRTQ_EINVAL, "bc: NULL");
    CHECK_EQ(mrtq_bcast_init(s1, 2, s1 + 1, 1, &bc), MRTQ_OK, "3x4 + 4");
    CHECK(bc.ndim == 2 && bc.n == 12 && bc.out[0] == 3 && bc.out[1] == 4 && bc.sa[0] == 4 && bc.sa[1] == 1 &&
          bc.sb[0] == 0 && bc.sb[1] == 1);
  }
}

static void test_bad_params(void) {
  mrtq_tflite_add_params pa;
  mrtq_tflite_mul_params pm;
  mrtq_tflite_add_params keep;
  CHECK_REFUSED(mrtq_tflite_add_init(0, 0, 0.1, 0, 0.1, 0, -128, 127, MRTQ_S8, &pa), MRTQ_EINVAL, "s1: must be finite and > 0");
  CHECK_REFUSED(mrtq_tflite_add_init(0.1, 0, -0.1, 0, 0.1, 0, -128, 127, MRTQ_S8, &pa), MRTQ_EINVAL, "s2: must be finite and > 0");
  CHECK_REFUSED(mrtq_tflite_add_init(0.1, 0, 0.1, 0, INFINITY, 0, -128, 127, MRTQ_S8, &pa), MRTQ_EINVAL, "s_out: must be finite and > 0");
  CHECK_REFUSED(mrtq_tflite_add_init(0.1, 200, 0.1, 0, 0.1, 0, -128, 127, MRTQ_S8, &pa), MRTQ_EINVAL, "zp1: outside type");
  CHECK_REFUSED(mrtq_tflite_add_init(0.1, 0, 0.1, -129, 0.1, 0, -128, 127, MRTQ_S8, &pa), MRTQ_EINVAL, "zp2: outside type");
  CHECK_REFUSED(mrtq_tflite_add_init(0.1, 0, 0.1, 0, 0.1, -1, 0, 255, MRTQ_U8, &pa), MRTQ_EINVAL, "zp_out: outside type");
  CHECK_REFUSED(mrtq_tflite_add_init(0.1, 0, 0.1, 0, 0.1, 0, -129, 127, MRTQ_S8, &pa), MRTQ_EINVAL, "qmin: outside type");
  CHECK_REFUSED(mrtq_tflite_add_init(0.1, 0, 0.1, 0, 0.1, 0, 0, 256, MRTQ_U8, &pa), MRTQ_EINVAL, "qmax: outside type");
  CHECK_REFUSED(mrtq_tflite_add_init(0.1, 0, 0.1, 0, 0.1, 0, 0, 127, MRTQ_S32, &pa), MRTQ_EUNSUPPORTED, "type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_add_init(0.1, 0, 0.1, 0, 0.1, 0, 0, 127, (mrtq_dtype)0, &pa), MRTQ_EINVAL, "type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_tflite_add_init(0.1, 0, 0.1, 0, 0.1, 0, 0, 127, MRTQ_S8, NULL), MRTQ_EINVAL, "p: NULL");
  CHECK_EQ(mrtq_tflite_add_init(0.1, 200, 0.1, 0, 0.1, 0, 0, 255, MRTQ_U8, &pa), MRTQ_OK, "uint8 zp");
  CHECK(pa.type == MRTQ_U8);
  keep = pa;
  CHECK_REFUSED(mrtq_tflite_add_init(0.1, 0, 0.1, 0, 0.1, 0, 5, 4, MRTQ_S8, &pa), MRTQ_EINVAL, "qmin, qmax: qmin > qmax");
  CHECK_REFUSED(mrtq_tflite_add_init(1.0, 0, 1.0, 0, 1e-7, 0, -128, 127, MRTQ_S8, &pa), MRTQ_ERANGE,
                "s_out: the output multiplier 2 max(s1, s2) / (2^20 s_out) must be < 1");
  CHECK_REFUSED(mrtq_tflite_add_init(1e-12, 0, 1.0, 0, 1.0, 0, -128, 127, MRTQ_S8, &pa), MRTQ_ERANGE,
                "s1, s2: s / (2 max(s1, s2)) flushes to 0 in Q31");
  CHECK_REFUSED(mrtq_tflite_add_init(1.0, 0, 1.0, 0, 1e10, 0, -128, 127, MRTQ_S8, &pa), MRTQ_ERANGE,
                "s_out: the output multiplier flushes to 0 in Q31");
  /* T / (2^20 s_out) = 1 / (1 + 2^-40): below 1, but Q31 rounds it to 2^31 -> {2^30, shift 1} (found by
   * fuzz_eltwise); one ulp further from 1 in Q31 terms, 1 - 2^-31, still encodes with shift 0 */
  CHECK_REFUSED(mrtq_tflite_add_init(1.0, 0, 1.0, 0, ldexp(1.0 + ldexp(1.0, -40), -19), 0, -128, 127, MRTQ_S8, &pa),
                MRTQ_ERANGE, "s_out: the output multiplier rounds to 1 in Q31");
  CHECK_EQ(mrtq_tflite_add_init(1.0, 0, 1.0, 0, ldexp(1.0, -19) / (1.0 - ldexp(1.0, -31)), 0, -128, 127, MRTQ_S8, &pa),
           MRTQ_OK, "just below the rounding");
  CHECK(pa.mo.mult == INT32_MAX && pa.mo.shift == 0);
  pa = keep;
  CHECK(memcmp(&pa, &keep, sizeof pa) == 0); /* refusals leave *p unchanged */
  CHECK_REFUSED(mrtq_tflite_mul_init(1.0, 0, 1.0, 0, 1e-6, 0, -128, 127, MRTQ_S8, &pm), MRTQ_ERANGE,
                "s1, s2, s_out: s1 * s2 / s_out must be < 2^15");
  CHECK_REFUSED(mrtq_tflite_mul_init(1e200, 0, 1e200, 0, 1e-10, 0, -128, 127, MRTQ_S8, &pm), MRTQ_ERANGE,
                "s1: must round to a positive finite float");
  CHECK_REFUSED(mrtq_tflite_mul_init(1e-10, 0, 1e-10, 0, 1.0, 0, -128, 127, MRTQ_S8, &pm), MRTQ_ERANGE,
                "s1, s2, s_out: s1 * s2 / s_out flushes to 0 in Q31");
  CHECK_REFUSED(mrtq_tflite_mul_init(NAN, 0, 1.0, 0, 1.0, 0, -128, 127, MRTQ_S8, &pm), MRTQ_EINVAL, "s1: must be finite and > 0");
  CHECK_REFUSED(mrtq_tflite_mul_init(1.0, 0, 1.0, 0, 1.0, 0, -128, 127, MRTQ_S4, &pm), MRTQ_EUNSUPPORTED, "type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_mul_init(1.0, 0, 1.0, 0, 1.0, 0, -128, 127, MRTQ_S8, NULL), MRTQ_EINVAL, "p: NULL");
  {
    uint8_t a[1] = {3}, b[1] = {4}, o[1] = {0};
    size_t one[1] = {1};
    mrtq_tflite_mul_params bad;
    CHECK_EQ(mrtq_tflite_mul_init(0.5, 0, 0.5, 0, 0.25, 0, -128, 127, MRTQ_S8, &pm), MRTQ_OK, "init");
    CHECK_EQ(mrtq_tflite_mul(one, 1, one, 1, &pm, a, b, o), MRTQ_OK, "mul");
    CHECK_EQ(o[0], 12, "3 * 4");
    bad = pm, bad.type = MRTQ_S32;
    CHECK_REFUSED(mrtq_tflite_mul(one, 1, one, 1, &bad, a, b, o), MRTQ_EUNSUPPORTED, "p->type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S16");
    CHECK_REFUSED(mrtq_tflite_mul(one, 1, one, 1, NULL, a, b, o), MRTQ_EINVAL, "p: NULL");
  }
}

/* ReLU / ReLU6 / clamp: bounds from exact rounding of lo/scale, hi/scale */
static void test_clamp(void) {
  int32_t lo = 0, hi = 0, i;
  uint8_t x[256], o[256];
  CHECK_EQ(mrtq_clamp_bounds_onnx(0.0f, INFINITY, 0.05f, -10, MRTQ_S8, &lo, &hi), MRTQ_OK, "relu");
  CHECK(lo == -10 && hi == 127);
  CHECK_EQ(mrtq_clamp_bounds_onnx(0.0f, 6.0f, 0.05f, -10, MRTQ_S8, &lo, &hi), MRTQ_OK, "relu6");
  CHECK(lo == -10 && hi == 110); /* 6 / 0.05 = 120 (float: 119.99999 or 120.00001, rounds to 120) - 10 */
  CHECK_EQ(mrtq_clamp_bounds_onnx(-1.0f, 1.0f, 0.4f, 100, MRTQ_U8, &lo, &hi), MRTQ_OK, "uint8");
  CHECK(lo == 98 && hi == 102); /* -2.5 -> -2 and 2.5 -> 2 (ties to even) */
  for (i = 0; i < 256; i++) x[i] = (uint8_t)i;
  CHECK_EQ(mrtq_clamp_q(x, 256, 98, 102, MRTQ_U8, o), MRTQ_OK, "apply");
  for (i = 0; i < 256; i++) CHECK_EQ(o[i], i < 98 ? 98 : i > 102 ? 102 : i, "u8 %d", i);
  CHECK_EQ(mrtq_clamp_q(x, 256, -10, 110, MRTQ_S8, o), MRTQ_OK, "apply s8");
  for (i = 0; i < 256; i++) {
    int32_t v = (int8_t)x[i];
    CHECK_EQ((int8_t)o[i], v < -10 ? -10 : v > 110 ? 110 : v, "s8 %d", v);
  }
  /* the other types: the type's range bounds the result */
  CHECK_EQ(mrtq_clamp_bounds_onnx(0.0f, INFINITY, 0.05f, -10, MRTQ_S16, &lo, &hi), MRTQ_OK, "relu s16");
  CHECK(lo == -10 && hi == 32767);
  CHECK_EQ(mrtq_clamp_bounds_onnx(-INFINITY, 6.0f, 0.05f, -10, MRTQ_S32, &lo, &hi), MRTQ_OK, "s32");
  CHECK(lo == INT32_MIN && hi == 110);
  CHECK_EQ(mrtq_clamp_bounds_onnx(0.0f, 6.0f, 0.5f, -3, MRTQ_S4, &lo, &hi), MRTQ_OK, "relu6 s4");
  CHECK(lo == -3 && hi == 7);
  lo = hi = 77;
  CHECK_REFUSED(mrtq_clamp_bounds_onnx(1.0f, 0.0f, 0.1f, 0, MRTQ_S8, &lo, &hi), MRTQ_EINVAL, "lo, hi: lo > hi");
  CHECK_REFUSED(mrtq_clamp_bounds_onnx(NAN, 1.0f, 0.1f, 0, MRTQ_S8, &lo, &hi), MRTQ_EINVAL, "lo: NaN");
  CHECK_REFUSED(mrtq_clamp_bounds_onnx(0.0f, NAN, 0.1f, 0, MRTQ_S8, &lo, &hi), MRTQ_EINVAL, "hi: NaN");
  CHECK_REFUSED(mrtq_clamp_bounds_onnx(0.0f, 1.0f, 0.0f, 0, MRTQ_S8, &lo, &hi), MRTQ_EINVAL, "scale: must be finite and > 0");
  CHECK_REFUSED(mrtq_clamp_bounds_onnx(0.0f, 1.0f, NAN, 0, MRTQ_S8, &lo, &hi), MRTQ_EINVAL, "scale: must be finite and > 0");
  CHECK_REFUSED(mrtq_clamp_bounds_onnx(0.0f, 1.0f, 0.1f, 0, (mrtq_dtype)0, &lo, &hi), MRTQ_EINVAL, "type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_clamp_bounds_onnx(0.0f, 1.0f, 0.1f, -1, MRTQ_U8, &lo, &hi), MRTQ_EINVAL, "zp: outside type");
  CHECK_REFUSED(mrtq_clamp_bounds_onnx(0.0f, 1.0f, 0.1f, 8, MRTQ_S4, &lo, &hi), MRTQ_EINVAL, "zp: outside type");
  CHECK_REFUSED(mrtq_clamp_bounds_onnx(0.0f, 1.0f, 0.1f, 0, MRTQ_S8, NULL, &hi), MRTQ_EINVAL, "qlo, qhi: NULL");
  CHECK(lo == 77 && hi == 77);
  CHECK_REFUSED(mrtq_clamp_q(x, 4, 5, 4, MRTQ_S8, o), MRTQ_EINVAL, "qlo, qhi: qlo > qhi");
  CHECK_REFUSED(mrtq_clamp_q(NULL, 4, 0, 4, MRTQ_S8, o), MRTQ_EINVAL, "x: NULL with n > 0");
  CHECK_REFUSED(mrtq_clamp_q(x, 4, 0, 4, MRTQ_S8, NULL), MRTQ_EINVAL, "out: NULL with n > 0");
  CHECK_EQ(mrtq_clamp_q(NULL, 0, 0, 4, MRTQ_S8, NULL), MRTQ_OK, "n 0");
  CHECK_REFUSED(mrtq_clamp_q(x, 4, 0, 4, MRTQ_S16, o), MRTQ_EUNSUPPORTED, "type: must be MRTQ_S8 or MRTQ_U8");
}

/* XNNPACK's add scheme by hand: s1 = 0.5, s2 = s_out = 1: ratios 0.5 and 1,
 * shift 20, multipliers 2^19 and 2^20. a = 1, b = 0: (2^19 + 2^19) >> 20 = 1
 * (0.5 rounds up); a = -1: 0 (-0.5 rounds toward +inf); a = 3, b = 4: 5.5 -> 6;
 * subtract: 1.5 - 4 = -2.5 -> -2. Ratios outside [2^-10, 2^8) are refused. */
static void test_xnn_add_hand(void) {
  mrtq_xnn_add_params p;
  CHECK_EQ(mrtq_xnn_add_init(0.5f, 0, 1.0f, 0, 1.0f, 0, -128, 127, MRTQ_S8, 0, &p), MRTQ_OK, "init");
  CHECK(p.shift == 20 && p.ma == (1 << 19) && p.mb == (1 << 20));
  CHECK_EQ(mrtq_xnn_add_one(&p, 1, 0), 1, "0.5");
  CHECK_EQ(mrtq_xnn_add_one(&p, -1, 0), 0, "-0.5");
  CHECK_EQ(mrtq_xnn_add_one(&p, 3, 4), 6, "5.5");
  CHECK_EQ(mrtq_xnn_add_one(&p, 127, 127), 127, "clamp");
  CHECK_EQ(mrtq_xnn_add_init(0.5f, 0, 1.0f, 0, 1.0f, 0, -128, 127, MRTQ_S8, 1, &p), MRTQ_OK, "init sub");
  CHECK_EQ(mrtq_xnn_add_one(&p, 3, 4), -2, "-2.5");
  CHECK_REFUSED(mrtq_xnn_add_init(0x1p-11f, 0, 1.0f, 0, 1.0f, 0, -128, 127, MRTQ_S8, 0, &p), MRTQ_ERANGE,
                "s1, s_out: s1 / s_out must be in [2^-10, 2^8)");
  CHECK_REFUSED(mrtq_xnn_add_init(256.0f, 0, 1.0f, 0, 1.0f, 0, -128, 127, MRTQ_S8, 0, &p), MRTQ_ERANGE,
                "s1, s_out: s1 / s_out must be in [2^-10, 2^8)");
  CHECK_REFUSED(mrtq_xnn_add_init(1.0f, 0, 256.0f, 0, 1.0f, 0, -128, 127, MRTQ_S8, 0, &p), MRTQ_ERANGE,
                "s2, s_out: s2 / s_out must be in [2^-10, 2^8)");
  CHECK_REFUSED(mrtq_xnn_add_init(1e-40f, 0, 1.0f, 0, 1.0f, 0, -128, 127, MRTQ_S8, 0, &p), MRTQ_EINVAL, "s1: subnormal");
  CHECK_REFUSED(mrtq_xnn_add_init(1.0f, 0, 1e-40f, 0, 1.0f, 0, -128, 127, MRTQ_S8, 0, &p), MRTQ_EINVAL, "s2: subnormal");
  CHECK_REFUSED(mrtq_xnn_add_init(1.0f, 0, 1.0f, 0, 1e-40f, 0, -128, 127, MRTQ_S8, 0, &p), MRTQ_EINVAL, "s_out: subnormal");
  CHECK_REFUSED(mrtq_xnn_add_init(1.0f, 128, 1.0f, 0, 1.0f, 0, -128, 127, MRTQ_S8, 0, &p), MRTQ_EINVAL, "zp1: outside type");
  CHECK_REFUSED(mrtq_xnn_add_init(1.0f, 0, 1.0f, 0, 1.0f, 0, -128, 127, MRTQ_S16, 0, &p), MRTQ_EUNSUPPORTED, "type: must be MRTQ_S8 or MRTQ_U8");
  CHECK_REFUSED(mrtq_xnn_add_init(1.0f, 0, 1.0f, 0, 1.0f, 0, -128, 127, MRTQ_S8, 0, NULL), MRTQ_EINVAL, "p: NULL");
  CHECK_EQ(p.mb, -(1 << 20), "unchanged by the refusals");
  {
    int8_t a[2] = {3, 1}, b[1] = {4}, o[2] = {0, 0};
    size_t sa[1] = {2}, sb[1] = {1};
    mrtq_xnn_add_params bad = p;
    CHECK_EQ(mrtq_xnn_add(sa, 1, sb, 1, &p, a, b, o), MRTQ_OK, "sub broadcast");
    CHECK(o[0] == -2 && o[1] == -3); /* 1.5 - 4 = -2.5 -> -2; 0.5 - 4 = -3.5 -> -3 */
    bad.type = MRTQ_S4;
    CHECK_REFUSED(mrtq_xnn_add(sa, 1, sb, 1, &bad, a, b, o), MRTQ_EUNSUPPORTED, "p->type: must be MRTQ_S8 or MRTQ_U8");
    CHECK_REFUSED(mrtq_xnn_add(sa, 1, sb, 1, NULL, a, b, o), MRTQ_EINVAL, "p: NULL");
  }
}

static void test_clamp_bounds_outside_type(void) {
  int8_t x[2] = {-5, 5}, out[2] = {9, 9};
  CHECK_REFUSED(mrtq_clamp_q(x, 2, 200, 250, MRTQ_S8, out), MRTQ_EINVAL, "qlo: outside type");
  CHECK_REFUSED(mrtq_clamp_q(x, 2, -1, 255, MRTQ_U8, out), MRTQ_EINVAL, "qlo: outside type");
  CHECK_REFUSED(mrtq_clamp_q(x, 2, 0, 256, MRTQ_U8, out), MRTQ_EINVAL, "qhi: outside type");
  CHECK(out[0] == 9 && out[1] == 9);
  CHECK_EQ(mrtq_clamp_q(x, 2, 0, 127, MRTQ_S8, out), MRTQ_OK, "relu");
  CHECK(out[0] == 0 && out[1] == 5);
}

int main(void) {
  TH_RUN(test_clamp_bounds_outside_type);
  TH_RUN(test_xnn_add_hand);
  TH_RUN(test_clamp);
  TH_RUN(test_hand);
  TH_RUN(test_all_pairs);
  TH_RUN(test_broadcast);
  TH_RUN(test_bad_params);
  return th_finish("test_eltwise");
}
