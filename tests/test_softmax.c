/* TFLite SOFTMAX (mrtq/softmax.h) against an oracle written here in TFLite's
 * own structure, none of it calling the library's arithmetic:
 *   - Prepare: PreprocessSoftmaxScaling / QuantizeMultiplier with libm frexp
 *     and round, CalculateInputRadius with floor (int8 / uint8); the int16
 *     multiplier as the TF interpreter (float product) and TFLite Micro
 *     (double product) compute it; LUTPopulateInt16 in double and in float
 *     with libm exp / expf / round / roundf, and the older gen_lut (TF 2.4 -
 *     2.12) to show it gives the TF interpreter's current tables;
 *     PopulateSoftmaxLookupTable with expf;
 *   - gemmlowp arithmetic restated for this kernel only: SRDHM with its nudge
 *     and truncating division, RoundingDivideByPOT with mask and threshold,
 *     exp_on_negative_values specialised to Q5.26 (straight-line), the
 *     reciprocal of GetReciprocal, LUTLookup's interpolation;
 *   - the three kernels: reference_ops::Softmax (int8 / uint8 in, 8- or
 *     16-bit out), reference_ops::SoftmaxInt16, optimized_ops::Softmax.
 * Inputs: seeded random rows of length 1..300 over scales and betas from the
 * smallest TFLite accepts to the capped multiplier, rows of equal maxima,
 * all-equal rows, length-1 rows, differences exactly at / below / above
 * diff_min, every int16 exp-table lookup (every knot and every point between),
 * the 512-equal-values refusal; and every refusal reason. */
#include <math.h>

#include "harness.h"
#include "mrtq.h"

static long long compared;

/* ---- gemmlowp / TFLite arithmetic (oracle) ---- */
static int32_t o_srdhm(int32_t a, int32_t b) {
  int64_t ab, nudge;
  if (a == b && a == INT32_MIN) return INT32_MAX;
  ab = (int64_t)a * b;
  nudge = ab >= 0 ? ((int64_t)1 << 30) : 1 - ((int64_t)1 << 30);
  return (int32_t)((ab + nudge) / ((int64_t)1 << 31)); /* truncating division */
}
static int32_t o_rdivpot(int32_t x, int e) {
  int32_t mask = (int32_t)(((int64_t)1 << e) - 1), rem = x & mask, thr = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> e) + (rem > thr ? 1 : 0);
}
/* MultiplyByQuantizedMultiplier (default build), x * 2^left in range. */
static int32_t o_mbqm(int32_t x, int32_t m, int shift) {
  int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  int64_t xs = (int64_t)x * ((int64_t)1 << left);
  CHECK(xs >= INT32_MIN && xs <= INT32_MAX);
  return o_rdivpot(o_srdhm((int32_t)xs, m), right);
}
static int32_t o_sat_shl(int32_t x, int e) {
  int64_t v = (int64_t)x * ((int64_t)1 << e);
  return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}
/* exp(a) for a Q5.26 value a <= 0, Q0.31 result. */
static int32_t o_exp_q526(int32_t a) {
  static const int32_t k_exp[7] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  const int32_t quarter = 1 << 24;
  int32_t a_mod, x, x2, x3, x4, poly, r, rem;
  int b;
  if (a == 0) return INT32_MAX;
  a_mod = (int32_t)(a & (quarter - 1)) - quarter; /* in [-1/4, 0) */
  x = a_mod * 32 + (1 << 28);                     /* to Q0.31, plus 1/8 */
  x2 = o_srdhm(x, x);
  x3 = o_srdhm(x2, x);
  x4 = o_srdhm(x2, x2);
  poly = o_rdivpot(o_srdhm(o_rdivpot(x4, 2) + x3, 715827883) + x2, 1);
  r = 1895147668 + o_srdhm(1895147668, x + poly);
  rem = a_mod - a; /* a non-negative multiple of 1/4 */
  for (b = 0; b < 7; b++)
    if (rem & (1 << (24 + b))) r = o_srdhm(r, k_exp[b]);
  return r;
}
/* 1 / (1 + a) for a Q0.31 value a in [0, 1), Q0.31 result. */
static int32_t o_recip(int32_t a) {
  int64_t sum = (int64_t)a + INT32_MAX;
  int32_t hd = (int32_t)((sum + (sum >= 0 ? 1 : -1)) / 2), x;
  int i;
  x = 1515870810 + o_srdhm(hd, -1010580540);
  for (i = 0; i < 3; i++) x = x + o_sat_shl(o_srdhm(x, (1 << 29) - o_srdhm(hd, x)), 2);
  return o_sat_shl(x, 1);
}
static int o_clz(uint32_t v) {
  int n = 32;
  while (v) {
    v >>= 1;
    n--;
  }
  return n;
}

/* ---- Prepare (oracle) ---- */
static void o_quantize_multiplier(double r, int32_t *m, int *shift) {
  double q;
  int64_t qf;
  if (r == 0) {
    *m = 0;
    *shift = 0;
    return;
  }
  q = frexp(r, shift);
  qf = (int64_t)round(q * 2147483648.0);
  if (qf == ((int64_t)1 << 31)) {
    qf /= 2;
    ++*shift;
  }
  if (*shift < -31) {
    *shift = 0;
    qf = 0;
  }
  *m = (int32_t)qf;
}
/* PreprocessSoftmaxScaling(beta, scale, 5) and CalculateInputRadius(5, shift, 31). */
static int o_prepare8(float scale, float beta, int32_t *m, int *shift, int32_t *diff_min) {
  double r = fmin((double)beta * (double)scale * (double)(1 << 26), 2147483647.0);
  if (!(r > 1.0)) return 0; /* TFLITE_CHECK_GT fails */
  o_quantize_multiplier(r, m, shift);
  *diff_min = (int32_t)(-1.0 * floor(1.0 * 31 * (double)(1LL << 26) / (double)(1LL << *shift)));
  return 1;
}

/* ---- reference_ops::Softmax, int8 / uint8 in ---- */
static void o_softmax8(int32_t m, int shift, int32_t diff_min, const int32_t *x, int depth, int obits, int32_t omin,
                       int32_t *y, int *abort_) {
  int32_t mx = x[0], sum = 0, shifted, recip;
  int c, clz, nbou, e;
  for (c = 1; c < depth; c++) mx = x[c] > mx ? x[c] : mx;
  for (c = 0; c < depth; c++) {
    int32_t d = x[c] - mx;
    if (d >= diff_min) sum += o_rdivpot(o_exp_q526(o_mbqm(d, m, shift)), 12);
  }
  clz = o_clz((uint32_t)sum);
  nbou = 12 - clz;
  shifted = (int32_t)(((uint32_t)sum << clz) - 2147483648u);
  recip = o_recip(shifted);
  e = nbou + 31 - obits;
  *abort_ = !(e >= 0 && e <= 31);
  if (*abort_) return;
  for (c = 0; c < depth; c++) {
    int32_t d = x[c] - mx;
    if (d >= diff_min) {
      int32_t u = o_rdivpot(o_srdhm(recip, o_exp_q526(o_mbqm(d, m, shift))), e) + omin;
      int32_t omax = obits == 16 ? 32767 : omin + 255;
      y[c] = u > omax ? omax : u < omin ? omin : u;
    } else {
      y[c] = omin;
    }
  }
}

static int32_t rd(const void *p, size_t i, mrtq_dtype t) {
  return t == MRTQ_S8 ? ((const int8_t *)p)[i] : t == MRTQ_U8 ? ((const uint8_t *)p)[i] : ((const int16_t *)p)[i];
}

/* Runs one tensor through mrtq and the oracle; returns outputs compared. */
static long run8(const mrtq_tflite_softmax_params *p, int32_t m, int shift, int32_t dmin, size_t rows, size_t depth,
                 const void *in, mrtq_dtype it, mrtq_dtype ot) {
  static int32_t x[4096], want[4096];
  static int16_t out16[65536];
  const int obits = ot == MRTQ_S16 ? 16 : 8;
  const int32_t omin = ot == MRTQ_S16 ? -32768 : ot == MRTQ_S8 ? -128 : 0;
  size_t r, c;
  long n = 0;
  int any_abort = 0;
  CHECK(rows * depth <= 65536 && depth <= 4096);
  for (r = 0; r < rows; r++) {
    int ab;
    for (c = 0; c < depth; c++) x[c] = rd(in, r * depth + c, it);
    o_softmax8(m, shift, dmin, x, (int)depth, obits, omin, want, &ab);
    any_abort |= ab;
  }
  if (any_abort) {
    CHECK_REFUSED(mrtq_tflite_softmax(p, rows, depth, in, it, ot, out16), MRTQ_ERANGE,
                  "in: a row's sum of exps reaches 512 with an 8-bit output (TFLite's reference aborts)");
    return 0;
  }
  CHECK_EQ(mrtq_tflite_softmax(p, rows, depth, in, it, ot, out16), MRTQ_OK, "rows=%zu depth=%zu", rows, depth);
  for (r = 0; r < rows; r++) {
    int ab;
    for (c = 0; c < depth; c++) x[c] = rd(in, r * depth + c, it);
    o_softmax8(m, shift, dmin, x, (int)depth, obits, omin, want, &ab);
    for (c = 0; c < depth; c++) {
      CHECK_EQ(rd(out16, r * depth + c, ot), want[c], "row %zu col %zu depth %zu m=%d shift=%d", r, c, depth, m, shift);
      n++;
    }
  }
  return n;
}

/* A random float scale * beta product spanning TFLite's accepted range. */
static void rand_scale_beta(float *scale, float *beta) {
  int kind = (int)th_range(0, 5);
  *scale = (float)ldexp(1.0 + (double)th_range(0, 1 << 20) / (1 << 20), (int)th_range(-12, 0));
  switch (kind) {
    case 0: *beta = 1.0f; break;
    case 1: *beta = (float)ldexp(1.0 + (double)th_range(0, 1000) / 1000, (int)th_range(-8, 8)); break;
    case 2: /* just above TFLite's minimum: beta * scale * 2^26 slightly > 1 */
      *beta = (float)(ldexp(1.0, -26) / *scale * (1.0 + (double)th_range(1, 1000) * 1e-6));
      break;
    case 3: *beta = (float)ldexp(1.0, (int)th_range(10, 30)); break; /* the multiplier capped at 2^31 - 1 */
    default: *beta = (float)th_range(1, 40) / 8.0f; break;
  }
}

static void test_prepare8(void) {
  long i, n = 0;
  for (i = 0; i < 200000; i++) {
    float s, b;
    int32_t m = 0, dmin = 0;
    int sh = 0;
    mrtq_tflite_softmax_params p;
    rand_scale_beta(&s, &b);
    if (i % 7 == 0) b = (float)ldexp(1.0, -26) / s; /* exactly at the minimum: refused */
    if (!o_prepare8(s, b, &m, &sh, &dmin)) {
      CHECK_REFUSED(mrtq_tflite_softmax_init(s, b, &p), MRTQ_ERANGE,
                    "beta * input_scale: at most 2^-26 (TFLite's QuantizeMultiplierGreaterThanOne needs > 1 after * 2^26)");
      continue;
    }
    CHECK_EQ(mrtq_tflite_softmax_init(s, b, &p), MRTQ_OK, "s=%a b=%a", s, b);
    CHECK_EQ(p.input_multiplier, m, "s=%a b=%a", s, b);
    CHECK_EQ(p.input_left_shift, sh, "s=%a b=%a", s, b);
    CHECK_EQ(p.diff_min, dmin, "s=%a b=%a", s, b);
    n++;
  }
  printf("  prepare (int8 / uint8): %ld parameter sets compared\n", n);
  compared += n;
}

static void test_reference_random(void) {
  static int8_t in8[65536];
  static uint8_t inu[65536];
  long n = 0, i;
  for (i = 0; i < 1500; i++) {
    float s, b;
    int32_t m, dmin;
    int sh;
    size_t depth = (size_t)th_range(1, 300), rows = (size_t)th_range(1, 6), k;
    int lo = (int)th_range(-128, 127), hi = (int)th_range(lo, 127), style = (int)th_range(0, 3);
    mrtq_tflite_softmax_params p;
    do rand_scale_beta(&s, &b);
    while (!o_prepare8(s, b, &m, &sh, &dmin));
    CHECK_EQ(mrtq_tflite_softmax_init(s, b, &p), MRTQ_OK, "init");
    for (k = 0; k < rows * depth; k++) {
      int v = (int)th_range(lo, hi);
      if (style == 1 && th_range(0, 3) == 0) v = hi;   /* several equal maxima */
      if (style == 2) v = hi - (int)th_range(0, 2);   /* nearly all equal */
      if (style == 3 && k % depth != 0) v = (int)(k % 2 ? lo : hi); /* two values */
      in8[k] = (int8_t)v;
      inu[k] = (uint8_t)(v + 128);
    }
    n += run8(&p, m, sh, dmin, rows, depth, in8, MRTQ_S8, MRTQ_S8);
    n += run8(&p, m, sh, dmin, rows, depth, in8, MRTQ_S8, MRTQ_S16);
    n += run8(&p, m, sh, dmin, rows, depth, inu, MRTQ_U8, MRTQ_U8);
    n += run8(&p, m, sh, dmin, rows, depth, inu, MRTQ_U8, MRTQ_S16);
  }
  printf("  reference softmax, random rows: %ld outputs compared\n", n);
  compared += n;
}

static void test_reference_edges(void) {
  static int8_t in8[65536];
  long n = 0;
  int ls, j;
  /* diff_min within the int8 range: scale 0.1, beta 1 gives shift 23 and
   * diff_min -248; test differences -250 .. -245 around it for several
   * scales whose diff_min lies in [-255, 0]. */
  static const float scales[] = {0.1f, 0.0625f, 0.25f, 0.5f, 1.0f, 3.0f, 0.07f, 0.2f};
  for (ls = 0; ls < (int)(sizeof scales / sizeof scales[0]); ls++) {
    int32_t m, dmin;
    int sh, d;
    mrtq_tflite_softmax_params p;
    CHECK(o_prepare8(scales[ls], 1.0f, &m, &sh, &dmin));
    CHECK_EQ(mrtq_tflite_softmax_init(scales[ls], 1.0f, &p), MRTQ_OK, "init");
    CHECK(dmin >= -255 && dmin <= 0);
    for (d = dmin - 3; d <= dmin + 3; d++) {
      if (d < -255 || d > 0) continue;
      /* row: the maximum 127, one value at difference d, more at d - 1 / d + 1 */
      in8[0] = 127;
      in8[1] = (int8_t)(127 + d);
      in8[2] = (int8_t)(127 + (d - 1 < -255 ? d : d - 1));
      in8[3] = (int8_t)(127 + (d + 1 > 0 ? d : d + 1));
      in8[4] = 127;
      n += run8(&p, m, sh, dmin, 1, 5, in8, MRTQ_S8, MRTQ_S8);
      n += run8(&p, m, sh, dmin, 1, 5, in8, MRTQ_S8, MRTQ_S16);
    }
  }
  /* all-equal rows of every length up to 511 (8-bit) and a few longer (int16
   * out), and length-1 rows */
  {
    int32_t m, dmin;
    int sh, len;
    mrtq_tflite_softmax_params p;
    CHECK(o_prepare8(0.05f, 1.0f, &m, &sh, &dmin));
    CHECK_EQ(mrtq_tflite_softmax_init(0.05f, 1.0f, &p), MRTQ_OK, "init");
    for (len = 1; len <= 511; len += (len < 40 ? 1 : 17)) {
      for (j = 0; j < len; j++) in8[j] = (int8_t)(len % 256 - 128);
      n += run8(&p, m, sh, dmin, 1, (size_t)len, in8, MRTQ_S8, MRTQ_S8);
      n += run8(&p, m, sh, dmin, 1, (size_t)len, in8, MRTQ_S8, MRTQ_S16);
    }
    for (j = 0; j < 64; j++) in8[j] = (int8_t)th_range(-128, 127); /* 64 rows of length 1 */
    n += run8(&p, m, sh, dmin, 64, 1, in8, MRTQ_S8, MRTQ_S8);
    n += run8(&p, m, sh, dmin, 64, 1, in8, MRTQ_S8, MRTQ_S16);
    /* 512 equal values: 8-bit output refused (TFLite aborts), int16 fine */
    for (j = 0; j < 512; j++) in8[j] = 5;
    n += run8(&p, m, sh, dmin, 1, 512, in8, MRTQ_S8, MRTQ_S8);
    n += run8(&p, m, sh, dmin, 1, 512, in8, MRTQ_S8, MRTQ_S16);
    /* a long row whose sum stays small is accepted with an 8-bit output */
    for (j = 0; j < 3000; j++) in8[j] = (int8_t)(j == 7 ? 127 : -128);
    n += run8(&p, m, sh, dmin, 1, 3000, in8, MRTQ_S8, MRTQ_S8);
    /* the refusal leaves the output untouched, even after accepted rows */
    {
      static int8_t o[2 * 512];
      for (j = 0; j < 512; j++) in8[j] = (int8_t)(j ? -128 : 0);
      for (j = 512; j < 1024; j++) in8[j] = 3;
      memset(o, 0x55, sizeof o);
      CHECK_REFUSED(mrtq_tflite_softmax(&p, 2, 512, in8, MRTQ_S8, MRTQ_S8, o), MRTQ_ERANGE,
                    "in: a row's sum of exps reaches 512 with an 8-bit output (TFLite's reference aborts)");
      for (j = 0; j < 1024; j++) CHECK_EQ(o[j], 0x55, "untouched %d", j);
    }
  }
  /* int16 output: a sum above 2^31 - 1 needs 4096 equal values */
  {
    static int8_t big[4100];
    static int16_t o16[4100];
    mrtq_tflite_softmax_params p;
    CHECK_EQ(mrtq_tflite_softmax_init(0.05f, 1.0f, &p), MRTQ_OK, "init");
    memset(big, 0, sizeof big);
    CHECK_REFUSED(mrtq_tflite_softmax(&p, 1, 4096, big, MRTQ_S8, MRTQ_S16, o16), MRTQ_ERANGE,
                  "in: a row's sum of exps exceeds 4096 - 2^-19 (TFLite's int32 sum overflows)");
    CHECK_EQ(mrtq_tflite_softmax(&p, 1, 4095, big, MRTQ_S8, MRTQ_S16, o16), MRTQ_OK, "4095");
    CHECK_EQ(o16[0], -32768 + 16, "1/4095 of 65536, rounded");
  }
  printf("  reference softmax, edges: %ld outputs compared\n", n);
  compared += n;
}

/* ---- int16: tables and kernel (oracle) ---- */
static double o_fd(int which, double x) { return which ? 1.0 / (1.0 + x) : exp(x); }
static float o_ff(int which, float x) { return which ? 1.0f / (1.0f + x) : expf(x); }

/* LUTPopulateInt16<double> (current TFLite) */
static void o_lut_d(int which, double in_scale, int32_t in_zp, double out_scale, int16_t *lut) {
  double in_min = in_scale * (-32768 - in_zp), in_max = in_scale * (32767 - in_zp);
  double out_min = out_scale * (-32768), out_max = out_scale * 32767;
  double step = (in_max - in_min) / 512, half = step / 2, inv = 65536 / (out_max - out_min);
  int i;
  for (i = 0; i < 512; i++) {
    double t0 = i * step, x0 = in_min + t0, xm = x0 + half, t1 = (i + 1) * step, x1 = in_min + t1;
    double val = o_fd(which, x0), vmid = o_fd(which, xm), vnext = o_fd(which, x1);
    double a = val * inv, b = vnext * inv, c = vmid * inv;
    double sample = round(a), interp = round((b + round(a)) / 2), mid = round(c);
    double bias = round((interp - mid) / 2);
    lut[i] = (int16_t)fmin(fmax(sample - bias, -32768.0), 32767.0);
  }
  {
    double v = o_fd(which, in_max) * inv;
    lut[512] = (int16_t)fmin(fmax(round(v), -32768.0), 32767.0);
  }
}
/* LUTPopulateInt16<float> (TFLite Micro) */
static void o_lut_f(int which, float in_scale, int32_t in_zp, float out_scale, int16_t *lut) {
  float in_min = in_scale * (float)(-32768 - in_zp), in_max = in_scale * (float)(32767 - in_zp);
  float out_min = out_scale * (float)(-32768), out_max = out_scale * (float)32767;
  float step = (in_max - in_min) / 512, half = step / 2, inv = (float)65536 / (out_max - out_min);
  int i;
  for (i = 0; i < 512; i++) {
    float t0 = (float)i * step, x0 = in_min + t0, xm = x0 + half, t1 = (float)(i + 1) * step, x1 = in_min + t1;
    float val = o_ff(which, x0), vmid = o_ff(which, xm), vnext = o_ff(which, x1);
    float a = val * inv, b = vnext * inv, c = vmid * inv;
    float ra = roundf(a), s = b + ra, interp = roundf(s / 2), mid = roundf(c);
    float bias = roundf((interp - mid) / 2);
    float v = ra - bias;
    lut[i] = (int16_t)(v < -32768.0f ? -32768.0f : v > 32767.0f ? 32767.0f : v);
  }
  {
    float v = o_ff(which, in_max) * inv;
    v = roundf(v);
    lut[512] = (int16_t)(v < -32768.0f ? -32768.0f : v > 32767.0f ? 32767.0f : v);
  }
}
/* gen_lut (TF 2.4 - 2.12): num = 513 entries over [lo, hi], values * 32768 */
static void o_gen_lut(int which, double lo, double hi, int16_t *lut) {
  double step = (hi - lo) / (513 - 1), half = step / 2.0;
  int i;
  for (i = 0; i < 512; i++) {
    double t0 = i * step, x0 = lo + t0, xm = x0 + half, t1 = (i + 1) * step, x1 = lo + t1;
    double a = o_fd(which, x0) * 32768.0, b = o_fd(which, x1) * 32768.0, c = o_fd(which, xm) * 32768.0;
    double sample = round(a), interp = round((b + round(a)) / 2.0), mid = round(c);
    double bias = round((interp - mid) / 2.0);
    lut[i] = (int16_t)fmin(fmax(sample - bias, -32768.0), 32767.0);
  }
  lut[512] = (int16_t)fmin(fmax(round(o_fd(which, hi) * 32768.0), -32768.0), 32767.0);
}
static int16_t o_lookup(int16_t v, const int16_t *lut) {
  uint16_t index = (uint16_t)(256 + (v >> 7));
  int16_t offset = (int16_t)(v & 0x7f), base = lut[index], slope = (int16_t)(lut[index + 1] - lut[index]);
  int delta = (slope * offset + 64) >> 7;
  return (int16_t)(base + delta);
}
static void o_softmax16(int32_t m, int shift, const int16_t *elut, const int16_t *rlut, const int16_t *x, int depth,
                        int16_t *y) {
  int16_t mx = -32768;
  int32_t sum = 0, shifted, sym;
  int c, hp1, rs;
  int16_t recip;
  for (c = 0; c < depth; c++) mx = x[c] > mx ? x[c] : mx;
  for (c = 0; c < depth; c++) {
    int32_t sd = o_mbqm(x[c] - mx, m, shift) + 32767;
    int16_t sat = (int16_t)(sd < -32768 ? -32768 : sd > 32767 ? 32767 : sd);
    y[c] = o_lookup(sat, elut);
    sum += y[c];
  }
  hp1 = o_clz((uint32_t)sum);
  shifted = (int32_t)((((int64_t)sum << (hp1 - 1)) + (1 << 13)) >> 14);
  sym = shifted - ((1 << 15) + (1 << 16));
  recip = o_lookup((int16_t)(sym < -32768 ? -32768 : sym > 32767 ? 32767 : sym), rlut);
  rs = 31 - hp1;
  for (c = 0; c < depth; c++) {
    int64_t rnd = (int64_t)1 << (rs - 1);
    int32_t r = (int32_t)(((int64_t)y[c] * recip + rnd) >> rs);
    y[c] = (int16_t)(r < 0 ? 0 : r > 32767 ? 32767 : r);
  }
}

static mrtq_tflite_softmax16_params P16, P16m;
static int16_t T_exp_d[513], T_rec_d[513], T_exp_f[513], T_rec_f[513];

static void test_tables16(void) {
  int16_t g_exp[513], g_rec[513];
  int i, diff_exp = 0, diff_rec = 0;
  o_lut_d(0, 10.0 / 65535, 32767, 2.0 / 65535, T_exp_d);
  o_lut_d(1, 1.0 / 65535, -32768, 2.0 / 65535, T_rec_d);
  o_lut_f(0, 10.0f / 65535, 32767, 2.0f / 65535, T_exp_f);
  o_lut_f(1, 1.0f / 65535, -32768, 2.0f / 65535, T_rec_f);
  o_gen_lut(0, -10.0, 0.0, g_exp);
  o_gen_lut(1, 0.0, 1.0, g_rec);
  CHECK_EQ(mrtq_tflite_softmax16_init(1.0f / 4096, 1.0f, exp, &P16), MRTQ_OK, "init");
  CHECK_EQ(mrtq_tflite_softmax16_init_micro(1.0f / 4096, 1.0f, expf, &P16m), MRTQ_OK, "init_micro");
  for (i = 0; i < 513; i++) {
    CHECK_EQ(P16.exp_lut[i], T_exp_d[i], "interpreter exp table [%d]", i);
    CHECK_EQ(P16.one_over_one_plus_x_lut[i], T_rec_d[i], "interpreter 1/(1+x) table [%d]", i);
    CHECK_EQ(P16m.exp_lut[i], T_exp_f[i], "micro exp table [%d]", i);
    CHECK_EQ(P16m.one_over_one_plus_x_lut[i], T_rec_f[i], "micro 1/(1+x) table [%d]", i);
    /* TF 2.4 - 2.12's gen_lut gives the same tables as the current double form */
    CHECK_EQ(g_exp[i], T_exp_d[i], "gen_lut exp [%d]", i);
    CHECK_EQ(g_rec[i], T_rec_d[i], "gen_lut 1/(1+x) [%d]", i);
    diff_exp += T_exp_d[i] != T_exp_f[i];
    diff_rec += T_rec_d[i] != T_rec_f[i];
    CHECK(T_exp_d[i] >= 0 && T_rec_d[i] >= 0 && T_exp_f[i] >= 0 && T_rec_f[i] >= 0);
  }
  compared += 4 * 513;
  printf("  int16 tables: 4 x 513 entries compared; TF interpreter (double) vs Micro (float): %d exp and %d 1/(1+x) "
         "entries differ\n", diff_exp, diff_rec);
}

static void prepare16(float s, float b, int micro, int32_t *m, int *sh) {
  double r;
  if (micro) {
    r = (double)s * (double)b / (10.0 / 65535.0);
  } else {
    float f = s * b;
    r = (double)f / (10.0 / 65535.0);
  }
  o_quantize_multiplier(r, m, sh);
}

static void test_prepare16(void) {
  long i, n = 0, differ = 0;
  for (i = 0; i < 100000; i++) {
    float s = (float)ldexp(1.0 + (double)th_range(0, 1 << 23) / (1 << 23), (int)th_range(-24, 2));
    float b = i % 3 ? 1.0f : (float)ldexp(1.0 + (double)th_range(0, 1 << 23) / (1 << 23), (int)th_range(-4, 2));
    int32_t m, mm;
    int sh, shm;
    static mrtq_tflite_softmax16_params p;
    prepare16(s, b, 0, &m, &sh);
    prepare16(s, b, 1, &mm, &shm);
    if (sh > 15) {
      CHECK_REFUSED(mrtq_tflite_softmax16_init(s, b, exp, &p), MRTQ_ERANGE,
                    "input_scale * beta / (10 / 65535): 2^15 or more after rounding (shift above 15; TFLite's product overflows int32)");
      continue;
    }
    CHECK_EQ(mrtq_tflite_softmax16_init(s, b, exp, &p), MRTQ_OK, "s=%a b=%a", s, b);
    CHECK_EQ(p.input_multiplier, m, "s=%a b=%a", s, b);
    CHECK_EQ(p.input_left_shift, sh, "s=%a b=%a", s, b);
    if (shm <= 15) {
      CHECK_EQ(mrtq_tflite_softmax16_init_micro(s, b, expf, &p), MRTQ_OK, "s=%a b=%a", s, b);
      CHECK_EQ(p.input_multiplier, mm, "micro s=%a b=%a", s, b);
      CHECK_EQ(p.input_left_shift, shm, "micro s=%a b=%a", s, b);
    }
    differ += m != mm || sh != shm;
    n++;
  }
  printf("  prepare (int16): %ld parameter sets compared; interpreter and Micro multipliers differ in %ld\n", n, differ);
  compared += n;
}

static long run16(const mrtq_tflite_softmax16_params *p, const int16_t *elut, const int16_t *rlut, size_t rows,
                  size_t depth, const int16_t *in) {
  static int16_t out[70000], want[70000];
  size_t r, c;
  long n = 0;
  CHECK_EQ(mrtq_tflite_softmax16(p, rows, depth, in, out), MRTQ_OK, "rows=%zu depth=%zu", rows, depth);
  for (r = 0; r < rows; r++) {
    o_softmax16(p->input_multiplier, p->input_left_shift, elut, rlut, in + r * depth, (int)depth, want);
    for (c = 0; c < depth; c++) {
      CHECK_EQ(out[r * depth + c], want[c], "row %zu col %zu", r, c);
      n++;
    }
  }
  return n;
}

static void test_softmax16(void) {
  static int16_t in[140000];
  static mrtq_tflite_softmax16_params p;
  long n = 0, i;
  int v;
  /* every exp-table lookup: input scale * beta = 10/65535 makes the scaled
   * difference ~ the difference itself, and rows [32767, v] for every v
   * reach every symmetric value -- every knot and every point between */
  for (v = -32768; v <= 32767; v++) {
    in[2 * (v + 32768)] = 32767;
    in[2 * (v + 32768) + 1] = (int16_t)v;
  }
  CHECK_EQ(mrtq_tflite_softmax16_init(10.0f / 65535.0f, 1.0f, exp, &p), MRTQ_OK, "init");
  n += run16(&p, T_exp_d, T_rec_d, 32768, 2, in);
  n += run16(&p, T_exp_d, T_rec_d, 32768, 2, in + 65536);
  CHECK_EQ(mrtq_tflite_softmax16_init_micro(10.0f / 65535.0f, 1.0f, expf, &p), MRTQ_OK, "init");
  n += run16(&p, T_exp_f, T_rec_f, 32768, 2, in);
  n += run16(&p, T_exp_f, T_rec_f, 32768, 2, in + 65536);
  /* random rows, scales, betas; both flavours */
  for (i = 0; i < 1200; i++) {
    size_t depth = (size_t)th_range(1, 300), rows = (size_t)th_range(1, 4), k;
    float s = (float)ldexp(1.0 + (double)th_range(0, 1 << 20) / (1 << 20), (int)th_range(-16, -4));
    float b = i % 2 ? 1.0f : (float)th_range(1, 32) / 8.0f;
    int lo = (int)th_range(-32768, 32767), hi = (int)th_range(lo, 32767), style = (int)th_range(0, 2);
    int micro = (int)(i % 2);
    for (k = 0; k < rows * depth; k++) {
      int x = (int)th_range(lo, hi);
      if (style == 1 && th_range(0, 3) == 0) x = hi;
      if (style == 2) x = hi;
      in[k] = (int16_t)x;
    }
    if (micro) {
      if (mrtq_tflite_softmax16_init_micro(s, b, expf, &p) != MRTQ_OK) continue;
      n += run16(&p, T_exp_f, T_rec_f, rows, depth, in);
    } else {
      if (mrtq_tflite_softmax16_init(s, b, exp, &p) != MRTQ_OK) continue;
      n += run16(&p, T_exp_d, T_rec_d, rows, depth, in);
    }
  }
  /* long rows (sum far from overflow) and length-1 rows */
  CHECK_EQ(mrtq_tflite_softmax16_init(1.0f / 2048, 1.0f, exp, &p), MRTQ_OK, "init");
  for (i = 0; i < 20000; i++) in[i] = (int16_t)th_range(-32768, 32767);
  n += run16(&p, T_exp_d, T_rec_d, 1, 20000, in);
  n += run16(&p, T_exp_d, T_rec_d, 20000, 1, in);
  /* in place */
  {
    int16_t a[7] = {5, 400, -3, 400, 30000, -32768, 7}, b2[7];
    int16_t want[7];
    memcpy(b2, a, sizeof a);
    o_softmax16(p.input_multiplier, p.input_left_shift, T_exp_d, T_rec_d, a, 7, want);
    CHECK_EQ(mrtq_tflite_softmax16(&p, 1, 7, b2, b2), MRTQ_OK, "in place");
    for (i = 0; i < 7; i++) CHECK_EQ(b2[i], want[i], "in place %ld", i);
  }
  /* 65600 equal values: the int32 sum would overflow (65600 * 32762 > 2^31) */
  for (i = 0; i < 65600; i++) in[i] = 100;
  {
    static int16_t o[65600];
    CHECK_REFUSED(mrtq_tflite_softmax16(&p, 1, 65600, in, o), MRTQ_ERANGE,
                  "in: a row's sum of exps exceeds 2^31 - 1 (TFLite's int32 sum overflows)");
    in[0] = 30000; /* one maximum far above the rest: small sum, accepted */
    CHECK_EQ(mrtq_tflite_softmax16(&p, 1, 65600, in, o), MRTQ_OK, "long row");
  }
  printf("  int16 softmax: %ld outputs compared\n", n);
  compared += n;
}

/* ---- optimized_ops::Softmax with the float table (oracle) ---- */
static void o_softmax_lut(float in_scale, float beta, float out_scale, int32_t zp, int add_half, const int32_t *x,
                          int depth, int32_t qmin, int32_t qmax, int32_t *y) {
  float table[256], sum = 0.0f, inv, d;
  float sc = -in_scale * beta;
  int32_t mx = INT32_MIN;
  int k, j;
  for (k = 0; k <= 255; k++) {
    float a = sc * (float)k;
    table[255 - k] = expf(a);
  }
  for (j = 0; j < depth; j++) mx = x[j] > mx ? x[j] : mx;
  for (j = 0; j < depth; j++) sum += table[255 - mx + x[j]];
  d = sum * out_scale;
  inv = 1.0f / d;
  for (j = 0; j < depth; j++) {
    float prob = table[255 - mx + x[j]] * inv;
    int32_t q;
    if (add_half) {
      float t = prob + 0.5f;
      q = (int32_t)t;
    } else {
      q = (int32_t)roundf(prob) + zp;
    }
    y[j] = q < qmin ? qmin : q > qmax ? qmax : q;
  }
}

static void test_softmax_lut(void) {
  static int8_t in8[4096];
  static uint8_t inu[4096];
  static int16_t out[4096];
  static int32_t x[4096], want[4096];
  long n = 0, i;
  for (i = 0; i < 2000; i++) {
    size_t depth = (size_t)th_range(1, 300), c;
    float s = (float)ldexp(1.0 + (double)th_range(0, 1 << 20) / (1 << 20), (int)th_range(-10, 0));
    float b = i % 3 ? 1.0f : (float)th_range(0, 64) / 8.0f;
    int kind = (int)(i % 4), add_half = kind == 3 && i % 8 == 7;
    mrtq_dtype it = kind == 0 || kind == 1 ? MRTQ_S8 : MRTQ_U8;
    mrtq_dtype ot = kind == 1 || kind == 2 ? MRTQ_S16 : it;
    float os = ot == MRTQ_S16 ? 1.0f / 65536 : 1.0f / 256;
    int32_t zp = ot == MRTQ_S16 ? -32768 : ot == MRTQ_S8 ? -128 : 0, qmin, qmax;
    int lo = (int)th_range(-128, 127), hi = (int)th_range(lo, 127);
    static mrtq_tflite_softmax_lut_params p;
    (void)mrtq_dtype_range(ot, &qmin, &qmax);
    if (i % 50 == 0) os = (float)ldexp(1.0, -(int)th_range(1, 30)); /* other output scales too */
    for (c = 0; c < depth; c++) {
      int v = (int)th_range(lo, hi);
      in8[c] = (int8_t)v;
      inu[c] = (uint8_t)(v + 128);
      x[c] = it == MRTQ_S8 ? v : v + 128;
    }
    CHECK_EQ(mrtq_tflite_softmax_lut_init(s, b, os, zp, expf, &p), MRTQ_OK, "init");
    p.u8_add_half = add_half;
    CHECK_EQ(mrtq_tflite_softmax_lut(&p, 1, depth, it == MRTQ_S8 ? (const void *)in8 : (const void *)inu, it, ot, out),
             MRTQ_OK, "run");
    o_softmax_lut(s, b, os, zp, add_half, x, (int)depth, qmin, qmax, want);
    for (c = 0; c < depth; c++) {
      CHECK_EQ(rd(out, c, ot), want[c], "i=%ld c=%zu", i, c);
      n++;
    }
  }
  printf("  float-table softmax (TF interpreter default): %ld outputs compared\n", n);
  compared += n;
}

static void test_refusals(void) {
  mrtq_tflite_softmax_params p, q;
  static mrtq_tflite_softmax16_params p16, q16;
  static mrtq_tflite_softmax_lut_params pl, ql;
  int8_t in[4] = {1, 2, 3, 4}, out[4];
  int16_t in16[4] = {1, 2, 3, 4}, out16[4];
  CHECK_EQ(mrtq_tflite_softmax_init(0.1f, 1.0f, &p), MRTQ_OK, "init");
  CHECK_REFUSED(mrtq_tflite_softmax_init(0.1f, 1.0f, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_softmax_init(NAN, 1.0f, &q), MRTQ_EINVAL, "input_scale: NaN or infinite");
  CHECK_REFUSED(mrtq_tflite_softmax_init(0.1f, INFINITY, &q), MRTQ_EINVAL, "beta: NaN or infinite");
  CHECK_REFUSED(mrtq_tflite_softmax_init(0.1f, -1.0f, &q), MRTQ_ERANGE, "beta * input_scale: at most 2^-26");
  CHECK_REFUSED(mrtq_tflite_softmax_init_mult(1, 1, 0, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_softmax_init_mult(-1, 1, 0, &q), MRTQ_ERANGE, "input_multiplier: outside [0, 2^31 - 1]");
  CHECK_REFUSED(mrtq_tflite_softmax_init_mult(1, 32, 0, &q), MRTQ_ERANGE, "input_left_shift: outside [0, 31]");
  CHECK_REFUSED(mrtq_tflite_softmax_init_mult(1, 1, 1, &q), MRTQ_ERANGE, "diff_min: outside [-2^31 / 2^input_left_shift, 0]");
  CHECK_REFUSED(mrtq_tflite_softmax_init_mult(1, 31, -2, &q), MRTQ_ERANGE, "diff_min: outside [-2^31 / 2^input_left_shift, 0]");
  CHECK_EQ(mrtq_tflite_softmax_init_mult(p.input_multiplier, p.input_left_shift, p.diff_min, &q), MRTQ_OK, "init_mult");
  CHECK(q.input_multiplier == p.input_multiplier && q.input_left_shift == p.input_left_shift && q.diff_min == p.diff_min);
  CHECK_EQ(mrtq_tflite_softmax_init_mult(0, 31, -1, &q), MRTQ_OK, "edge: -1 * 2^31 fits");
  CHECK_REFUSED(mrtq_tflite_softmax(NULL, 1, 4, in, MRTQ_S8, MRTQ_S8, out), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_softmax(&p, 1, 4, NULL, MRTQ_S8, MRTQ_S8, out), MRTQ_EINVAL, "in: NULL");
  CHECK_REFUSED(mrtq_tflite_softmax(&p, 1, 4, in, MRTQ_S8, MRTQ_S8, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_softmax(&p, SIZE_MAX, 4, in, MRTQ_S8, MRTQ_S8, out), MRTQ_ESHAPE, "rows * depth: overflows size_t");
  CHECK_REFUSED(mrtq_tflite_softmax(&p, 1, 4, in, (mrtq_dtype)0, MRTQ_S8, out), MRTQ_EINVAL,
                "in_type: not an mrtq_dtype (0: a zero-initialised operand)");
  CHECK_REFUSED(mrtq_tflite_softmax(&p, 1, 4, in, MRTQ_S16, MRTQ_S16, out), MRTQ_EUNSUPPORTED, "in_type: must be MRTQ_S8 or MRTQ_U8");
  CHECK_REFUSED(mrtq_tflite_softmax(&p, 1, 4, in, MRTQ_S8, (mrtq_dtype)0, out), MRTQ_EINVAL,
                "out_type: not an mrtq_dtype (0: a zero-initialised operand)");
  CHECK_REFUSED(mrtq_tflite_softmax(&p, 1, 4, in, MRTQ_S8, MRTQ_U8, out), MRTQ_EUNSUPPORTED, "out_type: must be in_type or MRTQ_S16");
  q = p;
  q.input_multiplier = -5;
  CHECK_REFUSED(mrtq_tflite_softmax(&q, 1, 4, in, MRTQ_S8, MRTQ_S8, out), MRTQ_ERANGE, "p->input_multiplier: outside [0, 2^31 - 1]");
  q = p;
  q.input_left_shift = -1;
  CHECK_REFUSED(mrtq_tflite_softmax(&q, 1, 4, in, MRTQ_S8, MRTQ_S8, out), MRTQ_ERANGE, "p->input_left_shift: outside [0, 31]");
  q = p;
  q.diff_min = 3;
  CHECK_REFUSED(mrtq_tflite_softmax(&q, 1, 4, in, MRTQ_S8, MRTQ_S8, out), MRTQ_ERANGE,
                "p->diff_min: outside [-2^31 / 2^p->input_left_shift, 0]");
  memset(&q, 0, sizeof q); /* a zeroed struct is valid: every difference scales to 0 */
  CHECK_EQ(mrtq_tflite_softmax(&q, 1, 4, in, MRTQ_S8, MRTQ_S8, out), MRTQ_OK, "zeroed struct");
  CHECK_EQ(mrtq_tflite_softmax(&p, 0, 4, in, MRTQ_S8, MRTQ_S8, out), MRTQ_OK, "no rows");
  CHECK_EQ(mrtq_tflite_softmax(&p, 3, 0, in, MRTQ_S8, MRTQ_S8, out), MRTQ_OK, "empty rows");

  /* int16 */
  CHECK_REFUSED(mrtq_tflite_softmax16_init(0.001f, 1.0f, exp, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_softmax16_init(0.001f, 1.0f, NULL, &q16), MRTQ_EINVAL, "exp_fn: NULL");
  CHECK_REFUSED(mrtq_tflite_softmax16_init_micro(0.001f, 1.0f, expf, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_softmax16_init_micro(0.001f, 1.0f, NULL, &q16), MRTQ_EINVAL, "expf_fn: NULL");
  CHECK_REFUSED(mrtq_tflite_softmax16_init(0.0f, 1.0f, exp, &q16), MRTQ_EINVAL, "input_scale: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_softmax16_init_micro(0.001f, -1.0f, expf, &q16), MRTQ_EINVAL, "beta: NaN, infinite or negative");
  CHECK_REFUSED(mrtq_tflite_softmax16_init(1e30f, 1e30f, exp, &q16), MRTQ_ERANGE, "input_scale * beta: overflows float");
  CHECK_REFUSED(mrtq_tflite_softmax16_init_micro(1.0f, 5.0001f, expf, &q16), MRTQ_ERANGE,
                "input_scale * beta / (10 / 65535): 2^15 or more after rounding (shift above 15; TFLite's product overflows int32)");
  CHECK_EQ(mrtq_tflite_softmax16_init(0.001f, 0.0f, exp, &p16), MRTQ_OK, "beta 0");
  CHECK_EQ(p16.input_multiplier, 0, "beta 0: multiplier 0");
  CHECK_EQ(mrtq_tflite_softmax16(&p16, 1, 4, in16, out16), MRTQ_OK, "beta 0 runs");
  CHECK_EQ(out16[0], out16[3], "beta 0: uniform");
  CHECK_EQ(mrtq_tflite_softmax16_init(0.001f, 1.0f, exp, &p16), MRTQ_OK, "init");
  CHECK_REFUSED(mrtq_tflite_softmax16(NULL, 1, 4, in16, out16), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_softmax16(&p16, 1, 4, NULL, out16), MRTQ_EINVAL, "in: NULL");
  CHECK_REFUSED(mrtq_tflite_softmax16(&p16, 1, 4, in16, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_softmax16(&p16, 2, SIZE_MAX, in16, out16), MRTQ_ESHAPE, "rows * depth: overflows size_t");
  q16 = p16;
  q16.input_multiplier = -1;
  CHECK_REFUSED(mrtq_tflite_softmax16(&q16, 1, 4, in16, out16), MRTQ_ERANGE, "p->input_multiplier: negative");
  q16 = p16;
  q16.input_left_shift = 16;
  CHECK_REFUSED(mrtq_tflite_softmax16(&q16, 1, 4, in16, out16), MRTQ_ERANGE, "p->input_left_shift: outside [-31, 15]");
  q16 = p16;
  q16.exp_lut[100] = -1;
  CHECK_REFUSED(mrtq_tflite_softmax16(&q16, 1, 4, in16, out16), MRTQ_ERANGE, "p->exp_lut[i]: negative, for some i");
  q16 = p16;
  q16.one_over_one_plus_x_lut[512] = -7;
  CHECK_REFUSED(mrtq_tflite_softmax16(&q16, 1, 4, in16, out16), MRTQ_ERANGE,
                "p->one_over_one_plus_x_lut[i]: negative, for some i");
  /* hand-made tables where TFLite's shifts are undefined: defined here */
  memset(&q16, 0, sizeof q16);
  CHECK_EQ(mrtq_tflite_softmax16(&q16, 1, 4, in16, out16), MRTQ_OK, "zero tables");
  CHECK(out16[0] == 0 && out16[3] == 0);
  q16.exp_lut[511] = 1; /* the maximum's exp: 1, sum 1 */
  q16.exp_lut[512] = 1;
  q16.one_over_one_plus_x_lut[0] = 32767;
  CHECK_EQ(mrtq_tflite_softmax16(&q16, 1, 1, in16, out16), MRTQ_OK, "sum 1");

  /* float table */
  CHECK_REFUSED(mrtq_tflite_softmax_lut_init(0.1f, 1.0f, 1.0f / 256, -128, expf, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_softmax_lut_init(0.1f, 1.0f, 1.0f / 256, -128, NULL, &ql), MRTQ_EINVAL, "expf_fn: NULL");
  CHECK_REFUSED(mrtq_tflite_softmax_lut_init(-0.1f, 1.0f, 1.0f / 256, -128, expf, &ql), MRTQ_EINVAL,
                "input_scale: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_softmax_lut_init(0.1f, -1.0f, 1.0f / 256, -128, expf, &ql), MRTQ_EINVAL,
                "beta: NaN, infinite or negative");
  CHECK_REFUSED(mrtq_tflite_softmax_lut_init(0.1f, 1.0f, 1e-39f, -128, expf, &ql), MRTQ_EINVAL,
                "output_scale: NaN, infinite or below 2^-126");
  CHECK_EQ(mrtq_tflite_softmax_lut_init(0.1f, 1.0f, 1.0f / 256, -128, expf, &pl), MRTQ_OK, "init");
  CHECK_REFUSED(mrtq_tflite_softmax_lut(NULL, 1, 4, in, MRTQ_S8, MRTQ_S8, out), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_softmax_lut(&pl, 1, 4, in, MRTQ_S8, MRTQ_U8, out), MRTQ_EUNSUPPORTED,
                "out_type: must be in_type or MRTQ_S16");
  ql = pl;
  ql.output_scale = NAN;
  CHECK_REFUSED(mrtq_tflite_softmax_lut(&ql, 1, 4, in, MRTQ_S8, MRTQ_S8, out), MRTQ_EINVAL,
                "p->output_scale: NaN, infinite or below 2^-126");
  ql = pl;
  ql.output_zp = 128;
  CHECK_REFUSED(mrtq_tflite_softmax_lut(&ql, 1, 4, in, MRTQ_S8, MRTQ_S8, out), MRTQ_EINVAL, "p->output_zp: outside out_type");
  ql = pl;
  ql.u8_add_half = 2;
  CHECK_REFUSED(mrtq_tflite_softmax_lut(&ql, 1, 4, in, MRTQ_S8, MRTQ_S8, out), MRTQ_EINVAL, "p->u8_add_half: not 0 or 1");
  ql = pl;
  ql.u8_add_half = 1;
  CHECK_REFUSED(mrtq_tflite_softmax_lut(&ql, 1, 4, in, MRTQ_S8, MRTQ_S8, out), MRTQ_EINVAL,
                "p->u8_add_half: 1 needs out_type MRTQ_U8");
  /* any table value is defined */
  ql = pl;
  ql.table[255] = NAN;
  ql.table[254] = INFINITY;
  CHECK_EQ(mrtq_tflite_softmax_lut(&ql, 1, 4, in, MRTQ_S8, MRTQ_S8, out), MRTQ_OK, "NaN table");
}

int main(void) {
  TH_RUN(test_prepare8);
  TH_RUN(test_reference_random);
  TH_RUN(test_reference_edges);
  TH_RUN(test_tables16);
  TH_RUN(test_prepare16);
  TH_RUN(test_softmax16);
  TH_RUN(test_softmax_lut);
  TH_RUN(test_refusals);
  printf("  total: %lld outputs compared\n", compared);
  return th_finish("test_softmax");
}
