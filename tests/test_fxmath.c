/* mrtq/fxmath.h against oracles that need no gemmlowp (tests/test_fxmath.cpp
 * compares with gemmlowp itself, where a C++ compiler and the header exist):
 *   - exp_neg, logistic, tanh, exp_quarter and the two reciprocal helpers
 *     within a stated absolute error of libm's double result: every int16
 *     input for every accepted integer-bits value, and 2*10^5 int32 inputs per
 *     integer-bits value (spread over every magnitude);
 *   - exact values: exp_neg(0) = 1.0 (the maximum), logistic(0) = 1/2,
 *     tanh(0) = 0, the symmetries logistic(-a) = 1 - logistic(a) and
 *     tanh(-a) = -tanh(a) (a not the type minimum);
 *   - exp_neg_s16 non-decreasing on [-32768, 0] for every integer-bits value;
 *   - mul_pot / rescale / srdhm_s16 against exact 64-bit arithmetic;
 *   - every refusal. */
#include <math.h>

#include "harness.h"
#include "mrtq.h"

static long long compared;

/* Max absolute errors (in units of 1.0), measured with glibc's libm and
 * stated in the header and docs/semantics.md 4a. */
#define EXP32_ERR 0x1p-22
#define LOGISTIC32_ERR 0x1p-23
#define TANH32_ERR 0x1p-22
#define EXP16_ERR 0x1p-13
#define LOGISTIC16_ERR 0x1p-12
#define TANH16_ERR 0x1p-11

static int32_t rnd32(void) {
  int k = (int)th_range(0, 31);
  return (int32_t)th_range(-((int64_t)1 << k), ((int64_t)1 << k) - (k == 31));
}

static void test_exp_neg_vs_libm(void) {
  int n;
  long long c0 = compared;
  for (n = 0; n <= 13; n++) {
    int32_t a;
    int16_t prev = 0;
    double worst = 0;
    for (a = -32768; a <= 0; a++) {
      int16_t r = 0;
      double e;
      CHECK_EQ(mrtq_fx_exp_neg_s16((int16_t)a, n, &r), MRTQ_OK, "n=%d", n);
      e = fabs(r / 32768.0 - exp(ldexp(a, n - 15)));
      if (e > worst) worst = e;
      if (a > -32768) CHECK(r >= prev);
      prev = r;
      compared++;
    }
    CHECK(worst <= EXP16_ERR);
  }
  for (n = 0; n <= 29; n++) {
    long i;
    double worst = 0;
    for (i = 0; i < 200000; i++) {
      int32_t a = rnd32(), r = 0;
      double e;
      if (a > 0) a = -a;
      CHECK_EQ(mrtq_fx_exp_neg_s32(a, n, &r), MRTQ_OK, "n=%d", n);
      e = fabs(ldexp(r, -31) - exp(ldexp(a, n - 31)));
      if (e > worst) worst = e;
      compared++;
    }
    CHECK(worst <= EXP32_ERR);
  }
  {
    int32_t r32 = 0;
    int16_t r16 = 0;
    for (n = 0; n <= 29; n++) {
      CHECK_EQ(mrtq_fx_exp_neg_s32(0, n, &r32), MRTQ_OK, "n=%d", n);
      CHECK_EQ(r32, INT32_MAX, "exp_neg_s32(0) n=%d", n);
    }
    for (n = 0; n <= 13; n++) {
      CHECK_EQ(mrtq_fx_exp_neg_s16(0, n, &r16), MRTQ_OK, "n=%d", n);
      CHECK_EQ(r16, 32767, "exp_neg_s16(0) n=%d", n);
    }
    /* Below -32 the result is exactly 0 (int bits > 5). */
    CHECK_EQ(mrtq_fx_exp_neg_s32(INT32_MIN, 6, &r32), MRTQ_OK, "min");
    CHECK_EQ(r32, 0, "exp_neg_s32(-64, 6)");
  }
  printf("  exp_neg: %lld outputs compared with libm\n", compared - c0);
}

static void test_logistic_tanh_vs_libm(void) {
  int n;
  long long c0 = compared;
  for (n = 0; n <= 13; n++) {
    int32_t a;
    double wl = 0, wt = 0;
    for (a = -32768; a <= 32767; a++) {
      int16_t l = 0, t = 0, l2 = 0, t2 = 0;
      double x = ldexp(a, n - 15), e;
      CHECK_EQ(mrtq_fx_logistic_s16((int16_t)a, n, &l), MRTQ_OK, "n=%d", n);
      e = fabs(l / 32768.0 - 1 / (1 + exp(-x)));
      if (e > wl) wl = e;
      if (a > -32768) {
        CHECK_EQ(mrtq_fx_logistic_s16((int16_t)-a, n, &l2), MRTQ_OK, "n=%d", n);
        if (a != 0) CHECK_EQ(l2, 32767 - l, "logistic symmetry a=%d n=%d", a, n);
      }
      compared++;
      if (n <= 12) {
        CHECK_EQ(mrtq_fx_tanh_s16((int16_t)a, n, &t), MRTQ_OK, "n=%d", n);
        e = fabs(t / 32768.0 - tanh(x));
        if (e > wt) wt = e;
        if (a > -32768) {
          CHECK_EQ(mrtq_fx_tanh_s16((int16_t)-a, n, &t2), MRTQ_OK, "n=%d", n);
          CHECK_EQ(t2, -t, "tanh odd a=%d n=%d", a, n);
        }
        compared++;
      }
    }
    CHECK(wl <= LOGISTIC16_ERR);
    CHECK(wt <= TANH16_ERR);
    {
      int16_t r = 0;
      CHECK_EQ(mrtq_fx_logistic_s16(0, n, &r), MRTQ_OK, "n=%d", n);
      CHECK_EQ(r, 16384, "logistic_s16(0) n=%d", n);
      if (n <= 12) {
        CHECK_EQ(mrtq_fx_tanh_s16(0, n, &r), MRTQ_OK, "n=%d", n);
        CHECK_EQ(r, 0, "tanh_s16(0) n=%d", n);
      }
    }
  }
  for (n = 0; n <= 29; n++) {
    long i;
    double wl = 0, wt = 0;
    int32_t r = 0;
    for (i = 0; i < 200000; i++) {
      int32_t a = rnd32(), l = 0, l2 = 0, t = 0, t2 = 0;
      double x = ldexp(a, n - 31), e;
      CHECK_EQ(mrtq_fx_logistic_s32(a, n, &l), MRTQ_OK, "n=%d", n);
      e = fabs(ldexp(l, -31) - 1 / (1 + exp(-x)));
      if (e > wl) wl = e;
      if (a != INT32_MIN && a != 0) {
        CHECK_EQ(mrtq_fx_logistic_s32(-a, n, &l2), MRTQ_OK, "n=%d", n);
        CHECK_EQ(l2, INT32_MAX - l, "logistic symmetry a=%d n=%d", a, n);
      }
      compared++;
      if (n <= 28) {
        CHECK_EQ(mrtq_fx_tanh_s32(a, n, &t), MRTQ_OK, "n=%d", n);
        e = fabs(ldexp(t, -31) - tanh(x));
        if (e > wt) wt = e;
        if (a != INT32_MIN) {
          CHECK_EQ(mrtq_fx_tanh_s32(-a, n, &t2), MRTQ_OK, "n=%d", n);
          CHECK_EQ(t2, -t, "tanh odd a=%d n=%d", a, n);
        }
        compared++;
      }
    }
    CHECK(wl <= LOGISTIC32_ERR);
    CHECK(wt <= TANH32_ERR);
    CHECK_EQ(mrtq_fx_logistic_s32(0, n, &r), MRTQ_OK, "n=%d", n);
    CHECK_EQ(r, 1 << 30, "logistic_s32(0) n=%d", n);
    if (n <= 28) {
      CHECK_EQ(mrtq_fx_tanh_s32(0, n, &r), MRTQ_OK, "n=%d", n);
      CHECK_EQ(r, 0, "tanh_s32(0) n=%d", n);
    }
  }
  printf("  logistic / tanh: %lld outputs compared with libm\n", compared - c0);
}

static void test_q0_helpers_vs_libm(void) {
  long long c0 = compared;
  double w1 = 0, w2 = 0, w3 = 0;
  int32_t a;
  long i;
  for (a = 0; a <= 32767; a++) {
    double x = a / 32768.0;
    w1 = fmax(w1, fabs(mrtq_fx_one_over_one_plus_x_s16((int16_t)a) / 32768.0 - 1 / (1 + x)));
    w2 = fmax(w2, fabs(mrtq_fx_one_minus_x_over_one_plus_x_s16((int16_t)a) / 32768.0 - (1 - x) / (1 + x)));
    compared += 2;
  }
  for (a = -8192; a < 0; a++) {
    w3 = fmax(w3, fabs(mrtq_fx_exp_quarter_s16((int16_t)a) / 32768.0 - exp(a / 32768.0)));
    compared++;
  }
  CHECK(w1 <= 0x1p-12);
  CHECK(w2 <= 0x1p-11);
  CHECK(w3 <= 0x1p-14);
  w1 = w2 = w3 = 0;
  for (i = 0; i < 1000000; i++) {
    int32_t x = (int32_t)th_range(0, INT32_MAX), q = (int32_t)th_range(-(1 << 29), -1);
    double xd = ldexp(x, -31);
    w1 = fmax(w1, fabs(ldexp(mrtq_fx_one_over_one_plus_x_s32(x), -31) - 1 / (1 + xd)));
    w2 = fmax(w2, fabs(ldexp(mrtq_fx_one_minus_x_over_one_plus_x_s32(x), -31) - (1 - xd) / (1 + xd)));
    w3 = fmax(w3, fabs(ldexp(mrtq_fx_exp_quarter_s32(q), -31) - exp(ldexp(q, -31))));
    compared += 3;
  }
  CHECK(w1 <= 0x1p-28);
  CHECK(w2 <= 0x1p-27);
  CHECK(w3 <= 0x1p-22);
  printf("  Q0 helpers: %lld outputs compared with libm\n", compared - c0);
}

/* mul_pot, rescale and srdhm_s16 against exact 64-bit arithmetic. */
static int64_t exact_mul_pot(int64_t x, int e, int64_t lo, int64_t hi) {
  if (e >= 0) {
    int64_t v = x * ((int64_t)1 << e);
    return v < lo ? lo : v > hi ? hi : v;
  } else { /* round half away from zero */
    int64_t d = (int64_t)1 << -e, m = x < 0 ? -x : x, q = (m + d / 2) / d;
    return x < 0 ? -q : q;
  }
}

static void test_pot_exact(void) {
  long long c0 = compared;
  int32_t ed[TH_EDGES_MAX];
  int ne = th_edges(ed), e, i, s, d;
  for (e = -31; e <= 31; e++)
    for (i = 0; i < ne + 20000; i++) {
      int32_t x = i < ne ? ed[i] : rnd32(), r = 0;
      CHECK_EQ(mrtq_fx_mul_pot_s32(x, e, &r), MRTQ_OK, "e=%d", e);
      CHECK_EQ(r, exact_mul_pot(x, e, INT32_MIN, INT32_MAX), "mul_pot_s32 x=%d e=%d", x, e);
      compared++;
    }
  for (e = -15; e <= 15; e++)
    for (i = -32768; i <= 32767; i++) {
      int16_t r = 0;
      CHECK_EQ(mrtq_fx_mul_pot_s16((int16_t)i, e, &r), MRTQ_OK, "e=%d", e);
      CHECK_EQ(r, exact_mul_pot(i, e, -32768, 32767), "mul_pot_s16 x=%d e=%d", i, e);
      compared++;
    }
  for (s = 0; s <= 31; s++)
    for (d = 0; d <= 31; d += 1)
      for (i = 0; i < 300; i++) {
        int32_t x = rnd32(), r = 0;
        CHECK_EQ(mrtq_fx_rescale_s32(x, s, d, &r), MRTQ_OK, "s=%d d=%d", s, d);
        CHECK_EQ(r, exact_mul_pot(x, s - d, INT32_MIN, INT32_MAX), "rescale_s32 x=%d %d->%d", x, s, d);
        compared++;
        if (s <= 15 && d <= 15) {
          int16_t r16 = 0, x16 = (int16_t)th_range(-32768, 32767);
          CHECK_EQ(mrtq_fx_rescale_s16(x16, s, d, &r16), MRTQ_OK, "s=%d d=%d", s, d);
          CHECK_EQ(r16, exact_mul_pot(x16, s - d, -32768, 32767), "rescale_s16 x=%d %d->%d", x16, s, d);
          compared++;
        }
      }
  for (i = 0; i < 2000000; i++) {
    int32_t a = (int32_t)th_range(-32768, 32767), b = (int32_t)th_range(-32768, 32767);
    int64_t p = (int64_t)a * b + (1 << 14), want = (p >= 0 ? p : p - 32767) / 32768; /* floor */
    if (i < 4) a = b = i < 2 ? -32768 : 32767;
    if (i < 4) want = i < 2 ? 32767 : ((int64_t)32767 * 32767 + (1 << 14)) / 32768;
    CHECK_EQ(mrtq_fx_srdhm_s16((int16_t)a, (int16_t)b), want, "srdhm_s16 %d %d", a, b);
    compared++;
  }
  printf("  mul_pot / rescale / srdhm_s16: %lld outputs compared with exact arithmetic\n", compared - c0);
}

static void test_refusals(void) {
  int32_t r32 = 0;
  int16_t r16 = 0;
  CHECK_REFUSED(mrtq_fx_mul_pot_s32(1, 32, &r32), MRTQ_ERANGE, "exponent: outside [-31, 31]");
  CHECK_REFUSED(mrtq_fx_mul_pot_s32(1, -32, &r32), MRTQ_ERANGE, "exponent: outside [-31, 31]");
  CHECK_REFUSED(mrtq_fx_mul_pot_s16(1, 16, &r16), MRTQ_ERANGE, "exponent: outside [-15, 15]");
  CHECK_REFUSED(mrtq_fx_mul_pot_s16(1, -16, &r16), MRTQ_ERANGE, "exponent: outside [-15, 15]");
  CHECK_REFUSED(mrtq_fx_mul_pot_s32(1, 0, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_fx_mul_pot_s16(1, 0, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_fx_rescale_s32(1, 32, 0, &r32), MRTQ_ERANGE, "src_bits: outside [0, 31]");
  CHECK_REFUSED(mrtq_fx_rescale_s32(1, -1, 0, &r32), MRTQ_ERANGE, "src_bits: outside [0, 31]");
  CHECK_REFUSED(mrtq_fx_rescale_s32(1, 0, 32, &r32), MRTQ_ERANGE, "dst_bits: outside [0, 31]");
  CHECK_REFUSED(mrtq_fx_rescale_s32(1, 0, 0, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_fx_rescale_s16(1, 16, 0, &r16), MRTQ_ERANGE, "src_bits: outside [0, 15]");
  CHECK_REFUSED(mrtq_fx_rescale_s16(1, 0, -1, &r16), MRTQ_ERANGE, "dst_bits: outside [0, 15]");
  CHECK_REFUSED(mrtq_fx_rescale_s16(1, 0, 0, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_fx_exp_neg_s32(-1, 30, &r32), MRTQ_ERANGE, "int_bits: outside [0, 29]");
  CHECK_REFUSED(mrtq_fx_exp_neg_s32(-1, -1, &r32), MRTQ_ERANGE, "int_bits: outside [0, 29]");
  CHECK_REFUSED(mrtq_fx_exp_neg_s32(-1, 5, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_fx_exp_neg_s16(-1, 14, &r16), MRTQ_ERANGE, "int_bits: outside [0, 13]");
  CHECK_REFUSED(mrtq_fx_exp_neg_s16(-1, 5, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_fx_tanh_s32(1, 29, &r32), MRTQ_ERANGE, "int_bits: outside [0, 28]");
  CHECK_REFUSED(mrtq_fx_tanh_s32(1, 3, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_fx_tanh_s16(1, 13, &r16), MRTQ_ERANGE, "int_bits: outside [0, 12]");
  CHECK_REFUSED(mrtq_fx_tanh_s16(1, 3, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_fx_logistic_s32(1, 30, &r32), MRTQ_ERANGE, "int_bits: outside [0, 29]");
  CHECK_REFUSED(mrtq_fx_logistic_s32(1, 3, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_fx_logistic_s16(1, 14, &r16), MRTQ_ERANGE, "int_bits: outside [0, 13]");
  CHECK_REFUSED(mrtq_fx_logistic_s16(1, -1, &r16), MRTQ_ERANGE, "int_bits: outside [0, 13]");
  CHECK_REFUSED(mrtq_fx_logistic_s16(1, 3, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_EQ(r32, 0, "a refusal writes nothing");
  CHECK_EQ(r16, 0, "a refusal writes nothing");
}

int main(void) {
  TH_RUN(test_exp_neg_vs_libm);
  TH_RUN(test_logistic_tanh_vs_libm);
  TH_RUN(test_q0_helpers_vs_libm);
  TH_RUN(test_pot_exact);
  TH_RUN(test_refusals);
  printf("  total: %lld outputs compared\n", compared);
  return th_finish("test_fxmath");
}
