/* Scalar core: multiplier encoding (mrtq_mult_q31 / _q15) from arbitrary
 * doubles, the rounding primitives, the five fixed-point families (Q31 on an
 * int64 accumulator too), the float
 * families, mrtq_rq_init / mrtq_rq_apply and precision.h, each against an
 * independent exact oracle (libm frexp, 128-bit integers, rintf). A refusal
 * writes nothing and reports exactly one reason. */
#include "fuzz.h"

#include "mrtq/precision.h"
#include "mrtq/requant.h"

typedef __int128 i128;

static i128 floor_div_pow2(i128 x, int n) { /* floor(x / 2^n), n in [0, 126] */
  i128 d = (i128)1 << n, q = x / d;
  if (x % d != 0 && x < 0) q -= 1;
  return q;
}
static int64_t sat32(i128 v) { return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int64_t)v; }

/* Encoders by the libm recipe. */
static void enc_oracle(double scale, int F, int32_t *mult, int32_t *shift) {
  int e;
  double q = frexp(scale, &e);
  double t = round(ldexp(q, F)); /* exact: q * 2^F is an exact double; round() is half away */
  *mult = 0, *shift = 0;
  if (scale == 0) return;
  if (t == ldexp(1.0, F)) t /= 2, e += 1;
  if (e < -F) return;
  *mult = (int32_t)t, *shift = e;
}

static int64_t srdhm_o(int64_t a, int64_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  return (int64_t)floor_div_pow2((i128)a * b + ((i128)1 << 30), 31);
}
static int64_t rdivpot_o(int64_t x, int64_t e) { /* half away from zero, any exponent */
  i128 ax = x < 0 ? -(i128)x : x, r;
  if (e <= 0) return x;
  if (e > 100) return 0;
  r = (ax + ((i128)1 << (e - 1))) >> e;
  return (int64_t)(x < 0 ? -r : r);
}
static int64_t rndnu_o(i128 x, int64_t n) { /* floor(x / 2^n + 1/2), |x| < 2^100 */
  if (n <= 0) return (int64_t)x;
  if (n > 120) return 0;
  return (int64_t)floor_div_pow2(x + ((i128)1 << (n - 1)), (int)n);
}
static int64_t shl_sat_o(i128 v, int64_t k) { /* v * 2^k saturated, k >= 0 */
  if (v == 0) return 0;
  if (k >= 64) return v > 0 ? INT32_MAX : INT32_MIN;
  return sat32(v * ((i128)1 << k));
}
static int64_t mul_rndnu_o(int32_t x, mrtq_mult m, int F) {
  i128 p = (i128)x * m.mult;
  int64_t k = (int64_t)F - m.shift;
  if (k > 0) return sat32(rndnu_o(p, k));
  return shl_sat_o(p, -k);
}
static int64_t mul_x64_o(int64_t x, mrtq_mult m) { /* rm = min(floor((M + 2^15) / 2^16), 2^15 - 1) */
  i128 rm = floor_div_pow2((i128)m.mult + 32768, 16), p;
  int64_t k = 15 - (int64_t)m.shift;
  if (rm > 32767) rm = 32767;
  p = (i128)x * rm; /* |p| <= 2^78 */
  if (k > 120) return 0;
  if (k > 0) return sat32(floor_div_pow2(p + ((i128)1 << (k - 1)), (int)k)); /* in 128 bits: rndnu_o's int64 result would wrap */
  if (p == 0) return 0;
  if (-k > 40) return p > 0 ? INT32_MAX : INT32_MIN;
  return sat32(p * ((i128)1 << -k));
}
static int64_t mul_dbl_o(int32_t x, mrtq_mult m) {
  int64_t xs = m.shift > 0 ? shl_sat_o(x, m.shift) : x;
  return rdivpot_o(srdhm_o(xs, m.mult), m.shift < 0 ? -(int64_t)m.shift : 0);
}
static int64_t wrap32(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }
static int64_t wrap16(int64_t v) { return (int16_t)(uint16_t)(uint64_t)v; }
static int64_t mul_vta_o(int32_t x, mrtq_mult m) {
  int64_t p = wrap32((int64_t)x * m.mult), k = 15 - (int64_t)m.shift;
  if (k >= 0) return (int64_t)floor_div_pow2(p, k > 40 ? 40 : (int)k);
  if (k <= -32) return 0;
  return wrap32((int64_t)((uint64_t)p << -k));
}
static int64_t dequant_vta_o(int32_t q, int32_t zp, mrtq_mult m) {
  int64_t w = wrap16(wrap16((int64_t)q - zp) * 128), mult = wrap16(m.mult), p = w * mult, r;
  r = (int64_t)floor_div_pow2(p + (p >= 0 ? 16384 : 1 - 16384), 15);
  if (w == -32768 && mult == -32768) r = 32767;
  r = wrap16(r);
  if (m.shift <= 0) return (int64_t)floor_div_pow2(r, m.shift < -31 ? 31 : -m.shift);
  if (m.shift >= 16) return 0;
  return wrap16(r * ((int64_t)1 << m.shift));
}
static int64_t rne_o(float f) { /* RNE of a float, saturated at +-2^40, NaN 0 */
  double r;
  if (f != f) return 0;
  if (f > 1e12f) return (int64_t)1 << 40;
  if (f < -1e12f) return -((int64_t)1 << 40);
  r = (double)rintf(f); /* the default rounding mode: to nearest, ties to even */
  if (r > 1099511627776.0) return (int64_t)1 << 40;
  if (r < -1099511627776.0) return -((int64_t)1 << 40);
  return (int64_t)r;
}
static int64_t clamp_o(int64_t v, int64_t lo, int64_t hi) {
  if (v < lo) v = lo;
  if (v > hi) v = hi;
  return v;
}


static void check_encoders(double s) {
  mrtq_mult m, *null = NULL;
  int32_t om, os;
  mrtq_status st;
  int bad = isnan(s) || isinf(s) || s < 0;
  m.mult = 0x5a5a5a5a, m.shift = -0x5a5a5a5a;
  FZ_CALL(st, mrtq_mult_q31(s, &m), "mrtq_mult_q31");
  FZ_EQ(st, bad ? MRTQ_EINVAL : MRTQ_OK, "mrtq_mult_q31(%a)", s);
  if (bad) { /* 0.2: a refusal writes nothing (it wrote {0, 0}) */
    FZ_CHECK(m.mult == 0x5a5a5a5a && m.shift == -0x5a5a5a5a, "refused scale %a wrote *out", s);
  } else {
    enc_oracle(s, 31, &om, &os);
    FZ_EQ(m.mult, om, "mrtq_mult_q31(%a).mult", s);
    FZ_EQ(m.shift, os, "mrtq_mult_q31(%a).shift", s);
    FZ_CHECK(m.mult == 0 || (m.mult >= (1 << 30) && m.shift >= -31 && m.shift <= 1025), "range, scale %a", s);
  }
  m.mult = 0x5a5a5a5a, m.shift = -0x5a5a5a5a;
  FZ_CALL(st, mrtq_mult_q15(s, &m), "mrtq_mult_q15");
  FZ_EQ(st, bad ? MRTQ_EINVAL : MRTQ_OK, "mrtq_mult_q15(%a)", s);
  if (bad) {
    FZ_CHECK(m.mult == 0x5a5a5a5a && m.shift == -0x5a5a5a5a, "mrtq_mult_q15: refused scale %a wrote *out", s);
  } else {
    if (s < 1e-6) om = 0, os = 0;
    else enc_oracle(s, 15, &om, &os);
    FZ_EQ(m.mult, om, "mrtq_mult_q15(%a).mult", s);
    FZ_EQ(m.shift, os, "mrtq_mult_q15(%a).shift", s);
    FZ_CHECK(m.mult == 0 || (m.mult >= 16384 && m.mult <= 32767), "q15 range, scale %a", s);
  }
  FZ_CALL(st, mrtq_mult_q31(s, null), "mrtq_mult_q31(NULL)");
  FZ_EQ(st, MRTQ_EINVAL, "NULL out");
  FZ_CALL(st, mrtq_mult_q15(s, null), "mrtq_mult_q15(NULL)");
  FZ_EQ(st, MRTQ_EINVAL, "NULL out");
}

static void check_rq(fz *f, double s) {
  mrtq_rq rq, keep;
  mrtq_scheme sch = (mrtq_scheme)fz_irange(f, -1, 5);
  int32_t zp = fz_i32(f), qmin = fz_i32(f), qmax = fz_i32(f), acc = fz_i32(f), lo = fz_i32(f), hi = fz_i32(f);
  mrtq_status st;
  int k;
  memset(&rq, 0xa5, sizeof rq);
  keep = rq;
  mrtq_status want = MRTQ_OK;
  if (sch < 0 || sch > 4 || isnan(s) || isinf(s) || !(s > 0) || qmin > qmax) want = MRTQ_EINVAL;
  else { /* the documented MRTQ_ERANGE: a scale the family cannot carry */
    int32_t em, es;
    if (sch <= MRTQ_Q31_RNDNU) enc_oracle(s, 31, &em, &es), want = em == 0 || es > 30 ? MRTQ_ERANGE : MRTQ_OK;
    else if (sch <= MRTQ_Q15_RNDNU) {
      if (s < 1e-6) em = 0, es = 0;
      else enc_oracle(s, 15, &em, &es);
      want = em == 0 || es > 15 ? MRTQ_ERANGE : MRTQ_OK;
    } else want = s > 3.4028234663852886e38 || !((float)s > 0) ? MRTQ_ERANGE : MRTQ_OK;
  }
  FZ_CALL(st, mrtq_rq_init(sch, s, zp, qmin, qmax, &rq), "mrtq_rq_init");
  FZ_EQ(st, want, "mrtq_rq_init(scheme %d, %a, qmin %d, qmax %d)", (int)sch, s, qmin, qmax);
  if (st != MRTQ_OK) {
    FZ_CHECK(memcmp(&rq, &keep, sizeof rq) == 0, "mrtq_rq_init refused (%d) but changed *rq", (int)st);
    FZ_CALL(st, mrtq_rq_init(sch, s, zp, qmin, qmax, NULL), "mrtq_rq_init(NULL)");
    FZ_EQ(st, MRTQ_EINVAL, "mrtq_rq_init(..., NULL)");
    return;
  }
  FZ_CHECK(sch >= 0 && sch <= 4 && s > 0 && qmin <= qmax, "mrtq_rq_init accepted scheme %d scale %a", (int)sch, s);
  FZ_CHECK(rq.scheme == sch && rq.zp == zp && rq.qmin == qmin && rq.qmax == qmax, "mrtq_rq_init fields");
  if (sch <= MRTQ_Q31_RNDNU) FZ_CHECK(rq.m.mult >= (1 << 30) && rq.m.shift <= 30 && rq.m.shift >= -31, "q31 rq");
  if (sch == MRTQ_Q15_VTA || sch == MRTQ_Q15_RNDNU) FZ_CHECK(rq.m.mult >= 16384 && rq.m.shift <= 15, "q15 rq");
  /* 0.2: a field the scheme does not read is 0 (the array functions refuse it otherwise) */
  if (sch == MRTQ_FP32) {
    FZ_CHECK(rq.m.mult == 0 && rq.m.shift == 0, "mrtq_rq_init(MRTQ_FP32) left m = {%d, %d}", rq.m.mult, rq.m.shift);
    FZ_CHECK(rq.scale == (float)s && rq.scale > 0, "mrtq_rq_init(MRTQ_FP32) scale %a of %a", (double)rq.scale, s);
  } else {
    mrtq_mult e;
    FZ_CHECK(rq.scale == 0, "mrtq_rq_init(scheme %d) left scale %a", (int)sch, (double)rq.scale);
    FZ_EQ(sch <= MRTQ_Q31_RNDNU ? mrtq_mult_q31(s, &e) : mrtq_mult_q15(s, &e), MRTQ_OK, "encoder of %a", s);
    FZ_CHECK(e.mult == rq.m.mult && e.shift == rq.m.shift, "mrtq_rq_init(scheme %d, %a): m is not the encoder's",
             (int)sch, s);
  }
  if (lo > hi) k = lo, lo = hi, hi = k;
  for (k = 0; k < 3; k++) {
    int64_t y, l = k == 0 ? -128 : k == 1 ? 0 : lo, h = k == 0 ? 127 : k == 1 ? 255 : hi, L, H;
    int32_t got = mrtq_rq_apply(&rq, acc, (int32_t)l, (int32_t)h);
    L = clamp_o(qmin, l, h), H = clamp_o(qmax, l, h);
    switch (sch) {
      case MRTQ_Q31_DBL: y = mul_dbl_o(acc, rq.m); break;
      case MRTQ_Q31_RNDNU: y = mul_rndnu_o(acc, rq.m, 31); break;
      case MRTQ_Q15_VTA: y = mul_vta_o(acc, rq.m); break;
      case MRTQ_Q15_RNDNU: y = mul_rndnu_o(acc, rq.m, 15); break;
      default: y = rne_o((float)acc * rq.scale); break;
    }
    FZ_EQ(got, clamp_o(y + zp, L, H), "mrtq_rq_apply scheme %d scale %a acc %d zp %d [%d, %d] in [%lld, %lld]",
          (int)sch, s, acc, zp, qmin, qmax, (long long)l, (long long)h);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f = {data, size};
  double s = fz_double(&f);
  mrtq_mult m;
  int32_t x = fz_i32(&f), y = fz_i32(&f), zp = fz_i32(&f), qmin = fz_i32(&f), qmax = fz_i32(&f);
  int64_t x64 = (int64_t)fz_u64(&f);
  int n = fz_int(&f, -4, 70), prec = fz_int(&f, -2, 34);
  float fs = fz_float(&f), fx = fz_float(&f);
  int64_t r;

  check_encoders(s);

  /* rounding primitives: every argument value */
  FZ_EQ(mrtq_srdhm(x, y), srdhm_o(x, y), "mrtq_srdhm(%d, %d)", x, y);
  FZ_EQ(mrtq_rdivpot(x, n), rdivpot_o(x, n), "mrtq_rdivpot(%d, %d)", x, n);
  FZ_EQ(mrtq_rshift_rndnu(x64, n), rndnu_o(x64, n), "mrtq_rshift_rndnu(%lld, %d)", (long long)x64, n);
  r = rndnu_o(x64, n);
  {
    int p = prec < 1 ? 1 : prec > 32 ? 32 : prec;
    int64_t lim = ((int64_t)1 << (p - 1)) - 1;
    FZ_EQ(mrtq_rshift_clip(x64, n, prec), clamp_o(r, -lim, lim), "mrtq_rshift_clip(%lld, %d, %d)", (long long)x64, n,
          prec);
  }

  /* the fixed-point families with any {mult, shift} (hand-made, total) and encoded ones */
  m.mult = y, m.shift = fz_bool(&f) ? (int32_t)fz_irange(&f, -70, 70) : fz_i32(&f);
  if (fz_bool(&f)) mrtq_mult_q31(s, &m);
  FZ_EQ(mrtq_mul_q31_dbl(x, m), mul_dbl_o(x, m), "mrtq_mul_q31_dbl(%d, {%d, %d})", x, m.mult, m.shift);
  FZ_EQ(mrtq_mul_q31_rndnu(x, m), mul_rndnu_o(x, m, 31), "mrtq_mul_q31_rndnu(%d, {%d, %d})", x, m.mult, m.shift);
  FZ_EQ(mrtq_mul_q31_x64(x64, m), mul_x64_o(x64, m), "mrtq_mul_q31_x64(%lld, {%d, %d})", (long long)x64, m.mult,
        m.shift);
  if (fz_bool(&f)) mrtq_mult_q15(s, &m);
  FZ_EQ(mrtq_mul_q15_vta(x, m), mul_vta_o(x, m), "mrtq_mul_q15_vta(%d, {%d, %d})", x, m.mult, m.shift);
  FZ_EQ(mrtq_mul_q15_rndnu(x, m), mul_rndnu_o(x, m, 15), "mrtq_mul_q15_rndnu(%d, {%d, %d})", x, m.mult, m.shift);
  FZ_EQ(mrtq_dequant_vta(x, zp, m), dequant_vta_o(x, zp, m), "mrtq_dequant_vta(%d, %d, {%d, %d})", x, zp, m.mult,
        m.shift);

  /* float families */
  FZ_EQ(mrtq_requant_fp32(x, fs, zp, qmin, qmax), clamp_o(rne_o((float)x * fs) + zp, qmin, qmax),
        "mrtq_requant_fp32(%d, %a, %d, %d, %d)", x, (double)fs, zp, qmin, qmax);
  FZ_EQ(mrtq_quantize_f32(fx, fs, zp, qmin, qmax), clamp_o(rne_o(fx / fs) + zp, qmin, qmax),
        "mrtq_quantize_f32(%a, %a, %d, %d, %d)", (double)fx, (double)fs, zp, qmin, qmax);
  {
    float got = mrtq_dequantize_f32(x, fs, zp), want = (float)((int64_t)x - zp) * fs;
    FZ_CHECK(memcmp(&got, &want, sizeof got) == 0 || (got != got && want != want), "mrtq_dequantize_f32(%d, %a, %d)",
             x, (double)fs, zp);
  }

  check_rq(&f, s);

  /* precision.h: total over every int */
  {
    int p0 = fz_int(&f, -2, 70), p1 = fz_int(&f, -2, 70);
    uint64_t k = fz_u64(&f) >> fz_range(&f, 0, 63);
    int bl = 0;
    uint64_t t = k;
    while (t) t >>= 1, bl++;
    FZ_EQ(mrtq_bitlen(k), bl, "mrtq_bitlen(%llu)", (unsigned long long)k);
    FZ_EQ(mrtq_prec_of(k), bl + 1, "mrtq_prec_of");
    (void)mrtq_prec_max(p0);
    (void)mrtq_prec_conv(p0, p1, k);
    (void)mrtq_prec_bias(p0, p1);
    (void)mrtq_prec_add(p0, p1);
    (void)mrtq_prec_mul(p0, p1);
    (void)mrtq_prec_max2(p0, p1);
    (void)mrtq_prec_sum(p0, k);
    { /* D1 (px + pw overflowed int) fixed in 0.2: total over every int */
      uint64_t kmax = mrtq_prec_max_k32(p0, p1);
      if (p0 >= 1 && p1 >= 1 && (int64_t)p0 + p1 < 32) {
        FZ_EQ(kmax, ((uint64_t)1 << (32 - p0 - p1)) - 1, "mrtq_prec_max_k32(%d, %d)", p0, p1);
        FZ_CHECK(mrtq_prec_conv(p0, p1, kmax) <= 32, "prec_conv(%d, %d, max_k32) > 32", p0, p1);
      } else {
        FZ_EQ(kmax, 0, "mrtq_prec_max_k32(%d, %d)", p0, p1);
      }
    }
  }
  return 0;
}
