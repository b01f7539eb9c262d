/* mrtq/fixedpoint.h against independent oracles: libm's frexp/llround for
 * the multiplier rules of docs/anchors.md (multiplier encoding), exact 128-bit arithmetic for the
 * rounding primitives. */
#include <math.h>

#include "harness.h"
#include "mrtq.h"
#include "oracle.h"

/* The upstream encoder rule (TFLite QuantizeMultiplier, VTA delegate), with
 * libm: q = frexp(s), round half away (llround), renormalise, flush. */
static void oracle_mult(double s, int F, double cutoff, int32_t *mult, int32_t *shift) {
  int e;
  double q;
  long long qf;
  *mult = 0;
  *shift = 0;
  if (s == 0 || s < cutoff) return;
  q = frexp(s, &e);
  qf = llround(ldexp(q, F));
  if (qf == (1LL << F)) {
    qf /= 2;
    e++;
  }
  if (e < -F) return;
  *mult = (int32_t)qf;
  *shift = e;
}

static void check_mult_at(double s) {
  mrtq_mult m = {0, 0};
  int32_t wm, ws;
  mrtq_status st = mrtq_mult_q31(s, &m);
  oracle_mult(s, 31, 0.0, &wm, &ws);
  CHECK_EQ(st, MRTQ_OK, "q31 %a", s);
  CHECK_EQ(m.mult, wm, "q31 mult of %a", s);
  CHECK_EQ(m.shift, ws, "q31 shift of %a", s);
  if (wm) { /* the encoding approximates s within half a unit of its last place */
    long double err = fabsl(ldexpl((long double)m.mult, m.shift - 31) - (long double)s);
    CHECK(err <= ldexpl(1.0L, m.shift - 32));
    CHECK(m.mult >= (1 << 30));
  }
  st = mrtq_mult_q15(s, &m);
  oracle_mult(s, 15, 1e-6, &wm, &ws);
  CHECK_EQ(st, MRTQ_OK, "q15 %a", s);
  CHECK_EQ(m.mult, wm, "q15 mult of %a", s);
  CHECK_EQ(m.shift, ws, "q15 shift of %a", s);
  if (wm) CHECK(m.mult >= 16384 && m.mult <= 32767);
}

/* Every binary exponent a double has (denormals included), with mantissas at
 * 1, the largest below 2, exact ties of the Q31 and Q15 rounding, the values
 * that round up to 2^F, and random ones. */
static void test_mult_whole_exponent_range(void) {
  int e, i;
  for (e = -1074; e <= 1023; e++) {
    check_mult_at(ldexp(1.0, e));
    check_mult_at(ldexp(1.5, e));
    check_mult_at(ldexp(nextafter(2.0, 0.0), e));
    for (i = 0; i < 6; i++) {
      /* q = (k + 1/2) / 2^F with k in [2^(F-1), 2^F): a tie at F bits */
      double k31 = (double)th_range(1LL << 30, (1LL << 31) - 1), k15 = (double)th_range(1 << 14, (1 << 15) - 1);
      check_mult_at(ldexp((k31 + 0.5) / 2147483648.0, e));
      check_mult_at(ldexp((k15 + 0.5) / 32768.0, e));
      /* just below 1: rounds to 2^F and renormalises */
      check_mult_at(ldexp(1.0 - ldexp((double)th_range(1, 1 << 20), -53), e));
      check_mult_at(ldexp(1.0 + (double)(th_rand64() >> 12) / 4503599627370496.0, e));
    }
  }
}

static void test_mult_cutoffs(void) {
  mrtq_mult m = {0, 0};
  /* values around the flush thresholds 2^-32 (Q31), 2^-16 and 1e-6 (Q15) */
  double around[] = {ldexp(1.0, -32), ldexp(1.0, -33), ldexp(1.0, -16), 1e-6, nextafter(1e-6, 0.0),
                     nextafter(1e-6, 1.0), 1.5e-5, 2e-5, ldexp(1.0 - ldexp(1.0, -17), -16),
                     ldexp(1.0 - ldexp(1.0, -16), -16), ldexp(1.0 - ldexp(1.0, -33), -32),
                     ldexp(1.0 - ldexp(1.0, -32), -32), 4.9e-324, 2.2250738585072014e-308, 1.7976931348623157e308};
  size_t i;
  for (i = 0; i < sizeof around / sizeof around[0]; i++) {
    check_mult_at(around[i]);
    check_mult_at(nextafter(around[i], 0.0));
    if (around[i] < 1e308) check_mult_at(nextafter(around[i], INFINITY));
  }
  /* docs/anchors.md (multiplier encoding) examples of the VTA delegate's encoding */
  mrtq_mult_q15(1.0 / 64, &m);
  CHECK(m.mult == 16384 && m.shift == -5);
  mrtq_mult_q15(1.0, &m);
  CHECK(m.mult == 16384 && m.shift == 1);
  mrtq_mult_q15(2e-5, &m);
  CHECK(m.mult == 21475 && m.shift == -15);
  mrtq_mult_q15(1.5e-5, &m);
  CHECK(m.mult == 0 && m.shift == 0);
}

/* Published vectors: TensorFlow Lite quantization_util_test.cc
 * (QuantizeMultiplierUnderflow, QuantizeMultiplierSmallerThanOneExp,
 * QuantizeMultiplierGreaterThanOne, QuantizeMultiplierArray); all of them use
 * the same frexp encoding as QuantizeMultiplier. */
static void test_mult_tflite_published(void) {
  struct { double s; int32_t mult, shift; } v[] = {
      {0x1p-31, 1073741824, -30}, {0x1p-32, 1073741824, -31}, {(double)ldexpf(0.99f, -32), 0, 0}, {0x1p-33, 0, 0},
      {0.25, 1073741824, -1}, {0.50 - 5e-9, 2147483627, -1}, {0.50 - 1e-10, 1073741824, 0}, {0.50, 1073741824, 0},
      {0.75, 1610612736, 0}, {1 - 1e-9, 2147483646, 0}, {1 + 1e-11, 1073741824, 1}, {1.25, 1342177280, 1},
      {1.50, 1610612736, 1}, {1.75, 1879048192, 1}, {2 - 1e-9, 2147483647, 1}, {2 - 1e-11, 1073741824, 2},
      {2, 1073741824, 2}, {0.125, 1073741824, -2}, {4, 1073741824, 3}, {0, 0, 0}};
  size_t i;
  for (i = 0; i < sizeof v / sizeof v[0]; i++) {
    mrtq_mult m = {0, 0};
    CHECK_EQ(mrtq_mult_q31(v[i].s, &m), MRTQ_OK, "%a", v[i].s);
    CHECK_EQ(m.mult, v[i].mult, "mult of %.17g", v[i].s);
    CHECK_EQ(m.shift, v[i].shift, "shift of %.17g", v[i].s);
  }
}

static void test_mult_bad_input(void) {
  double bad[] = {NAN, -NAN, INFINITY, -INFINITY, -1.0, -4.9e-324, -1e300};
  size_t i;
  for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    const char *why = i < 4 ? "scale: NaN or infinite" : "scale: negative";
    mrtq_mult m = {7, 7};
    CHECK_REFUSED(mrtq_mult_q31(bad[i], &m), MRTQ_EINVAL, why);
    CHECK(m.mult == 7 && m.shift == 7); /* a refusal writes nothing */
    CHECK_REFUSED(mrtq_mult_q15(bad[i], &m), MRTQ_EINVAL, why);
    CHECK(m.mult == 7 && m.shift == 7);
  }
  CHECK_REFUSED(mrtq_mult_q31(0.5, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_mult_q15(0.5, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_mult_q15(0.0, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_mult_q15(1e-7, NULL), MRTQ_EINVAL, "out: NULL"); /* below the cut-off too */
  /* zero (and -0.0) is a valid scale: {0, 0}, as upstream */
  {
    mrtq_mult m = {7, 7};
    CHECK_EQ(mrtq_mult_q31(-0.0, &m), MRTQ_OK, "-0");
    CHECK(m.mult == 0 && m.shift == 0);
    m.mult = 7, m.shift = 7;
    CHECK_EQ(mrtq_mult_q15(-0.0, &m), MRTQ_OK, "-0");
    CHECK(m.mult == 0 && m.shift == 0);
  }
}

/* ---- rounding primitives ---- */

static void test_srdhm(void) {
  int32_t ed[TH_EDGES_MAX];
  int n = th_edges(ed), i, j;
  long r;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) CHECK_EQ(mrtq_srdhm(ed[i], ed[j]), o_srdhm(ed[i], ed[j]), "%d %d", ed[i], ed[j]);
  for (r = 0; r < 1000000; r++) {
    int32_t a = th_i32(), b = th_i32();
    CHECK_EQ(mrtq_srdhm(a, b), o_srdhm(a, b), "%d %d", a, b);
  }
  /* exact ties: a*b = (2m+1) * 2^30, both signs */
  for (r = 0; r < 100000; r++) {
    int32_t a = (int32_t)th_range(-(1 << 15), 1 << 15) | 1, b = (int32_t)((th_range(-(1 << 14), (1 << 14) - 1) * 2 + 1) * (1 << 15));
    CHECK_EQ(mrtq_srdhm(a, b), o_srdhm(a, b), "tie %d %d", a, b);
  }
}

static void test_rdivpot(void) {
  int32_t ed[TH_EDGES_MAX];
  int n = th_edges(ed), i, e;
  long r;
  for (e = -3; e <= 70; e++) {
    for (i = 0; i < n; i++) CHECK_EQ(mrtq_rdivpot(ed[i], e), o_rdivpot(ed[i], e), "x=%d e=%d", ed[i], e);
    if (e >= 1 && e <= 31) /* ties for this exponent: x = (2m + 1) 2^(e-1) */
      for (i = 0; i < 200; i++) {
        int64_t x = (2 * th_range(-(1LL << (31 - e)), (1LL << (31 - e)) - 1) + 1) * (1LL << (e - 1));
        if (x < INT32_MIN || x > INT32_MAX) continue;
        CHECK_EQ(mrtq_rdivpot((int32_t)x, e), o_rdivpot((int32_t)x, e), "tie x=%lld e=%d", (long long)x, e);
      }
  }
  for (r = 0; r < 1000000; r++) {
    int32_t x = th_i32();
    e = (int)th_range(0, 31);
    CHECK_EQ(mrtq_rdivpot(x, e), o_rdivpot(x, e), "x=%d e=%d", x, e);
  }
}

static int64_t o_rndnu(int64_t x, int n) {
  if (n <= 0) return x;
  return (int64_t)o_round_half_up(x, o_pow2(n));
}

static int64_t rand_i64(void) {
  switch (th_rand32() % 4u) {
    case 0: return (int64_t)th_rand64();
    case 1: return (int64_t)th_i32();
    case 2: return (int64_t)(th_rand64() >> th_range(1, 62)) * ((th_rand32() & 1) ? -1 : 1);
    default: return (th_rand32() & 1) ? INT64_MAX - th_range(0, 2) : INT64_MIN + th_range(0, 2);
  }
}

static void test_rshift_rndnu(void) {
  int n, k;
  long r;
  for (n = -2; n <= 70; n++) {
    for (k = 0; k < 63; k++) { /* +-2^k + {-1, 0, 1}, extremes */
      int64_t p = (int64_t)1 << k, d;
      for (d = -1; d <= 1; d++) {
        CHECK_EQ(mrtq_rshift_rndnu(p + d, n), o_rndnu(p + d, n), "x=%lld n=%d", (long long)(p + d), n);
        CHECK_EQ(mrtq_rshift_rndnu(-p + d, n), o_rndnu(-p + d, n), "x=%lld n=%d", (long long)(-p + d), n);
      }
    }
    CHECK_EQ(mrtq_rshift_rndnu(INT64_MIN, n), o_rndnu(INT64_MIN, n), "min n=%d", n);
    CHECK_EQ(mrtq_rshift_rndnu(INT64_MAX, n), o_rndnu(INT64_MAX, n), "max n=%d", n);
    if (n >= 1 && n <= 62)
      for (k = 0; k < 200; k++) { /* ties: (2m + 1) 2^(n-1) */
        int64_t m = th_range(-(1LL << (62 - n)), (1LL << (62 - n)) - 1);
        int64_t x = (int64_t)((uint64_t)(2 * m + 1) << (n - 1));
        CHECK_EQ(mrtq_rshift_rndnu(x, n), o_rndnu(x, n), "tie x=%lld n=%d", (long long)x, n);
      }
  }
  for (r = 0; r < 1000000; r++) {
    int64_t x = rand_i64();
    n = (int)th_range(0, 62);
    CHECK_EQ(mrtq_rshift_rndnu(x, n), o_rndnu(x, n), "x=%lld n=%d", (long long)x, n);
  }
}

static int32_t o_clip(int64_t x, int b, int p) {
  i128 r = o_rndnu(x, b), lim;
  if (p < 1) p = 1;
  if (p > 32) p = 32;
  lim = o_pow2(p - 1) - 1;
  return (int32_t)(r > lim ? lim : r < -lim ? -lim : r);
}

static void test_rshift_clip(void) {
  int b, p;
  long r;
  for (b = 0; b <= 62; b++)
    for (p = 0; p <= 33; p++) {
      int64_t xs[8];
      int i;
      xs[0] = INT64_MIN;
      xs[1] = INT64_MAX;
      xs[2] = 0;
      xs[3] = INT32_MAX; /* upstream overflows at b = 1 */
      xs[4] = INT32_MIN;
      xs[5] = ((int64_t)1 << (p - 1 + b > 62 ? 62 : p - 1 + b < 0 ? 0 : p - 1 + b)) - 1; /* just inside / at the clip */
      xs[6] = -xs[5];
      xs[7] = rand_i64();
      for (i = 0; i < 8; i++) CHECK_EQ(mrtq_rshift_clip(xs[i], b, p), o_clip(xs[i], b, p), "x=%lld b=%d p=%d", (long long)xs[i], b, p);
    }
  for (r = 0; r < 1000000; r++) {
    int64_t x = rand_i64();
    b = (int)th_range(0, 62);
    p = (int)th_range(1, 32);
    CHECK_EQ(mrtq_rshift_clip(x, b, p), o_clip(x, b, p), "x=%lld b=%d p=%d", (long long)x, b, p);
  }
}

static void test_status_and_version(void) {
  int s;
  for (s = 1; s <= 5; s++) {
    CHECK(mrtq_status_str((mrtq_status)s) != NULL);
    CHECK(strcmp(mrtq_status_str((mrtq_status)s), mrtq_status_str(MRTQ_OK)) != 0);
  }
  CHECK(MRTQ_OK == 0 && MRTQ_EINVAL != 0 && MRTQ_ERANGE != 0 && MRTQ_EOVERFLOW != 0 && MRTQ_ESHAPE != 0 && MRTQ_EUNSUPPORTED != 0);
  CHECK(strcmp(mrtq_status_str((mrtq_status)99), "unknown status") == 0);
  {
    char buf[32];
    snprintf(buf, sizeof buf, "%d.%d.%d", MRTQ_VERSION_MAJOR, MRTQ_VERSION_MINOR, MRTQ_VERSION_PATCH);
    CHECK(strcmp(buf, MRTQ_VERSION_STRING) == 0);
  }
}

int main(void) {
  TH_RUN(test_mult_whole_exponent_range);
  TH_RUN(test_mult_cutoffs);
  TH_RUN(test_mult_tflite_published);
  TH_RUN(test_mult_bad_input);
  TH_RUN(test_srdhm);
  TH_RUN(test_rdivpot);
  TH_RUN(test_rshift_rndnu);
  TH_RUN(test_rshift_clip);
  TH_RUN(test_status_and_version);
  return th_finish("test_fixedpoint");
}
