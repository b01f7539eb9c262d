/* TFLite's activation operators (mrtq/activation.h) against oracles written
 * here in TFLite's own structure, none of them calling the library's
 * arithmetic:
 *   - QuantizeMultiplier (quantization_util.cc: frexp, round half away from
 *     zero, renormalise at 2^31, flush shifts below -31) and
 *     MultiplyByQuantizedMultiplier (common.cc, default build: gemmlowp's
 *     SaturatingRoundingDoublingHighMul with its nudge and truncating
 *     division, RoundingDivideByPOT with mask and threshold) restated with
 *     libm's frexp / round;
 *   - RELU, RELU_N1_TO_1, RELU6: ReluPrepare and QuantizedReluX's roundf
 *     bounds, ReluQuantized; TFLite Micro's Relu6Prepare
 *     (FloatToQuantizedType) and Relu6Quantized;
 *   - LEAKY_RELU: LeakyReluPrepare (float, then QuantizeMultiplier of a signed
 *     multiplier) and reference_ops::QuantizeLeakyRelu;
 *   - PRELU: the TF interpreter's PreluPrepare (float) and TFLite Micro's
 *     CalculatePreluParams (double), reference_ops::BroadcastPrelu4DSlow with
 *     its 4-D extended index arithmetic;
 *   - HARD_SWISH (lightly: the gemmlowp C++ test owns it): HardSwishPrepare,
 *     DownScaleInt32ToInt16Multiplier, reference_ops::HardSwish in int16 steps;
 *   - LOGISTIC / TANH int8 fixed point: the Prepare's four numbers
 *     (frexp, CalculateInputRadius); the kernel only at its radius and within
 *     one step of the real function (the gemmlowp C++ test owns it);
 *   - LOGISTIC / TANH int8 / uint8 float table: LUTPopulateInt8 with libm's
 *     expf / tanhf (and made-up functions for ties, NaN and infinities);
 *   - LOGISTIC / TANH int16: the Prepare (power-of-two or doubled multiplier)
 *     and reference_integer_ops::Logistic / Tanh with TFLite's
 *     sigmoid_table_uint16 copied below.
 * Seeded random parameters over wide scale ratios, every stored input of the
 * 8-bit types, every int16 input for a few parameter sets, constructed ties,
 * saturations, extreme multipliers, empty and size-1 arrays, in place runs,
 * and every refusal reason of activation.h. Three cases at the end hold
 * constructed checks of places the random draws rarely reach: TFLite Micro's
 * int16 RELU6 with a non-zero zero point, HARD_SWISH's int16 zero-point sum
 * that wraps, and the int16 LOGISTIC / TANH multipliers in (32767, 32768). */
#include <float.h>
#include <math.h>

#include "harness.h"
#include "mrtq.h"

static long long compared;

/* ---- types and buffers ---- */
static void trange(mrtq_dtype t, int32_t *lo, int32_t *hi) {
  *lo = t == MRTQ_S8 ? -128 : t == MRTQ_U8 ? 0 : -32768;
  *hi = t == MRTQ_S8 ? 127 : t == MRTQ_U8 ? 255 : 32767;
}
static int32_t rd(const void *p, size_t i, mrtq_dtype t) {
  return t == MRTQ_S8 ? ((const int8_t *)p)[i] : t == MRTQ_U8 ? ((const uint8_t *)p)[i] : ((const int16_t *)p)[i];
}
static void wr(void *p, size_t i, mrtq_dtype t, int32_t v) {
  if (t == MRTQ_S8)
    ((int8_t *)p)[i] = (int8_t)v;
  else if (t == MRTQ_U8)
    ((uint8_t *)p)[i] = (uint8_t)v;
  else
    ((int16_t *)p)[i] = (int16_t)v;
}
static int32_t clampi(int64_t v, int32_t lo, int32_t hi) { return (int32_t)(v < lo ? lo : v > hi ? hi : v); }
static const char *tname(mrtq_dtype t) { return t == MRTQ_S8 ? "s8" : t == MRTQ_U8 ? "u8" : "s16"; }

/* Fills buf with inputs of type t: every stored value for 8-bit types (in
 * order lo..hi) or when all16 is set; else 512 random int16 values with the
 * extremes and 0 first. Returns the count. */
static size_t fill_inputs(void *buf, mrtq_dtype t, int all16) {
  int32_t lo, hi, v;
  size_t n = 0, i;
  trange(t, &lo, &hi);
  if (t != MRTQ_S16 || all16) {
    for (v = lo; v <= hi; v++) wr(buf, n++, t, v);
    return n;
  }
  wr(buf, n++, t, -32768);
  wr(buf, n++, t, 32767);
  wr(buf, n++, t, 0);
  wr(buf, n++, t, 1);
  wr(buf, n++, t, -1);
  for (i = n; i < 512; i++) {
    int32_t x = (int32_t)th_range(-32768, 32767);
    wr(buf, n++, t, x);
  }
  return n;
}

/* ---- random parameters (one draw per statement) ---- */
/* A 24-bit mantissa in [0.5, 1): one in 8 exactly 0.5, one in 16 the largest. */
static double rand_mant(void) {
  int kind = (int)th_range(0, 15);
  int64_t r;
  if (kind <= 1) return 0.5;
  if (kind == 2) return 1.0 - ldexp(1.0, -24);
  r = th_range(0, (1 << 23) - 1);
  return 0.5 + (double)r / (double)(1 << 24);
}
static float scale_k(int k) {
  double m = rand_mant();
  return (float)ldexp(m, k);
}
static int32_t rand_zp(mrtq_dtype t) {
  int32_t lo, hi;
  int kind = (int)th_range(0, 7);
  trange(t, &lo, &hi);
  if (kind == 0) return lo;
  if (kind == 1) return hi;
  return (int32_t)th_range(lo, hi);
}
static mrtq_dtype rand_type(int with16) {
  int k = (int)th_range(0, with16 ? 2 : 1);
  return k == 0 ? MRTQ_S8 : k == 1 ? MRTQ_U8 : MRTQ_S16;
}
/* An input / output scale pair over wide ratios: anything, moderate, near
 * 2^30 (the largest accepted multiplier), near 2^-31 (the flush to 0), and
 * exact powers of two (whose products land on halves). */
static void draw_pair(float *in_s, float *out_s) {
  int kind = (int)th_range(0, 5);
  int kin = (int)th_range(-60, 60);
  int j;
  *in_s = scale_k(kin);
  switch (kind) {
    case 0:
      j = (int)th_range(-125, 126);
      *out_s = scale_k(j);
      break;
    case 1:
      j = (int)th_range(-8, 8);
      *out_s = scale_k(kin + j);
      break;
    case 2:
      j = (int)th_range(28, 32);
      *out_s = scale_k(kin - j);
      break;
    case 3:
      j = (int)th_range(29, 34);
      *out_s = scale_k(kin + j);
      break;
    default:
      j = (int)th_range(-12, 12);
      *out_s = (float)ldexp((double)*in_s, j);
      break;
  }
}

/* ---- TFLite / gemmlowp arithmetic (oracle) ---- */
static long o_tie_srdhm, o_tie_rdiv, o_beyond, o_renorm;
static void reset_counters(void) { o_tie_srdhm = o_tie_rdiv = o_beyond = o_renorm = 0; }

/* floor(v / 2^k): an arithmetic right shift written portably. */
static int64_t o_asr(int64_t v, int k) {
  int64_t d = (int64_t)1 << k, q = v / d;
  if (v % d != 0 && v < 0) q--;
  return q;
}
/* gemmlowp SaturatingRoundingDoublingHighMul (int32). */
static int32_t o_srdhm(int32_t a, int32_t b) {
  int64_t ab, nudge;
  if (a == b && a == INT32_MIN) return INT32_MAX;
  ab = (int64_t)a * b;
  if (ab % 2147483648LL == 1073741824LL || ab % 2147483648LL == -1073741824LL) o_tie_srdhm++;
  nudge = ab >= 0 ? ((int64_t)1 << 30) : 1 - ((int64_t)1 << 30);
  return (int32_t)((ab + nudge) / 2147483648LL); /* truncating division */
}
/* gemmlowp RoundingDivideByPOT (int32), exponent in [0, 31]. */
static int32_t o_rdivpot(int32_t x, int e) {
  int32_t mask = (int32_t)(((int64_t)1 << e) - 1), rem = x & mask, thr = (mask >> 1) + (x < 0 ? 1 : 0);
  if (e > 0 && rem == (int32_t)((int64_t)1 << (e - 1))) o_tie_rdiv++;
  return (int32_t)(o_asr(x, e) + (rem > thr ? 1 : 0));
}
/* MultiplyByQuantizedMultiplier (int32 x, default build). Where TFLite's
 * x * (1 << left_shift) leaves int32 (undefined there) mrtq's documented
 * saturation is taken, and counted. */
static int32_t o_mbqm(int32_t x, int32_t m, int shift) {
  int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  int64_t xs = (int64_t)x * ((int64_t)1 << left);
  if (xs > INT32_MAX || xs < INT32_MIN) {
    o_beyond++;
    xs = xs > INT32_MAX ? INT32_MAX : INT32_MIN;
  }
  return o_rdivpot(o_srdhm((int32_t)xs, m), right);
}
/* QuantizeMultiplier (default build). */
static void o_qm(double r, int32_t *m, int *shift) {
  double q;
  int64_t qf;
  if (r == 0.) {
    *m = 0;
    *shift = 0;
    return;
  }
  q = frexp(r, shift);
  qf = (int64_t)round(q * (double)(1LL << 31));
  if (qf == (1LL << 31)) {
    qf /= 2;
    ++*shift;
    o_renorm++;
  }
  if (*shift < -31) {
    *shift = 0;
    qf = 0;
  }
  *m = (int32_t)qf;
}

/* ======================= RELU, RELU_N1_TO_1, RELU6 ======================= */
typedef struct {
  int32_t m;
  int shift;
  int32_t qmin, qmax;
} o_relu_t;

/* ReluPrepare (m = QuantizeMultiplier(fl(in / out))) and QuantizedReluX's
 * bounds: max(type min, zp + (int32)roundf(act_min / s)), min(type max, zp +
 * (int32)roundf(act_max / s)), no upper bound for RELU. Returns 0, or 1 where
 * the multiplier's shift exceeds 30 (TFLite's 1 << shift overflows; mrtq
 * refuses), 2 where a roundf leaves [-2^31, 2^31] (TFLite's cast is
 * undefined; mrtq refuses). */
static int o_relu_prepare(mrtq_tflite_act act, mrtq_dtype t, float in_s, float out_s, int32_t out_zp, o_relu_t *o) {
  float act_min = 0.0f, act_max = INFINITY;
  int32_t tmin, tmax;
  const float ratio = in_s / out_s;
  trange(t, &tmin, &tmax);
  if (isinf(ratio)) return 1;
  o_qm((double)ratio, &o->m, &o->shift);
  if (o->shift > 30) return 1;
  if (act == MRTQ_TFLITE_ACT_RELU_N1_TO_1) act_min = -1.0f, act_max = 1.0f;
  if (act == MRTQ_TFLITE_ACT_RELU6) act_max = 6.0f;
  {
    const float q = act_min / out_s;
    const float r = roundf(q);
    if (r < -2147483648.0f || r > 2147483648.0f) return 2;
    o->qmin = clampi((int64_t)out_zp + (int64_t)r, tmin, INT32_MAX);
  }
  if (act_max == INFINITY) {
    o->qmax = tmax;
  } else {
    const float q = act_max / out_s;
    const float r = roundf(q);
    if (r < -2147483648.0f || r > 2147483648.0f) return 2;
    o->qmax = clampi((int64_t)out_zp + (int64_t)r, INT32_MIN, tmax);
  }
  return 0;
}
/* ReluQuantized / optimized_ops::ReluX; *u: the value before the clamp. */
static int32_t o_relu(const o_relu_t *o, int32_t in_zp, int32_t out_zp, int32_t x, int64_t *u) {
  int64_t c = (int64_t)out_zp + o_mbqm(x - in_zp, o->m, o->shift);
  *u = c;
  c = c > o->qmin ? c : o->qmin;
  c = c < o->qmax ? c : o->qmax;
  return (int32_t)c;
}

static mrtq_tflite_act rand_act(void) {
  int a = (int)th_range(0, 2);
  return a == 0 ? MRTQ_TFLITE_ACT_RELU : a == 1 ? MRTQ_TFLITE_ACT_RELU_N1_TO_1 : MRTQ_TFLITE_ACT_RELU6;
}

static void test_relu_prepare(void) {
  long i, n = 0, ref_m = 0, ref_b = 0, flushed = 0, top = 0, cut_lo = 0, cut_hi = 0;
  for (i = 0; i < 60000; i++) {
    mrtq_tflite_relu_params p, keep;
    o_relu_t o;
    float in_s, out_s;
    int32_t in_zp, out_zp, tmin, tmax;
    int st;
    mrtq_tflite_act act = rand_act();
    mrtq_dtype t = rand_type(1);
    draw_pair(&in_s, &out_s);
    in_zp = t == MRTQ_S16 ? 0 : rand_zp(t);
    out_zp = t == MRTQ_S16 ? 0 : rand_zp(t);
    trange(t, &tmin, &tmax);
    memset(&p, 0xA5, sizeof p);
    keep = p;
    memset(&o, 0, sizeof o);
    st = o_relu_prepare(act, t, in_s, out_s, out_zp, &o);
    if (st == 1) {
      CHECK_REFUSED(mrtq_tflite_relu_init(act, t, in_s, in_zp, out_s, out_zp, &p), MRTQ_ERANGE,
                    "in_scale / out_scale: 2^30 or more (TFLite's shift overflows)");
      CHECK(memcmp(&p, &keep, sizeof p) == 0);
      ref_m++;
      continue;
    }
    if (st == 2) {
      CHECK_REFUSED(mrtq_tflite_relu_init(act, t, in_s, in_zp, out_s, out_zp, &p), MRTQ_ERANGE,
                    "scale: f / scale rounds outside [-2^31, 2^31]");
      CHECK(memcmp(&p, &keep, sizeof p) == 0);
      ref_b++;
      continue;
    }
    CHECK_EQ(mrtq_tflite_relu_init(act, t, in_s, in_zp, out_s, out_zp, &p), MRTQ_OK, "act %d %s in %a out %a", (int)act,
             tname(t), in_s, out_s);
    CHECK_EQ(p.type, t, "type");
    CHECK_EQ(p.in_zp, in_zp, "in_zp");
    CHECK_EQ(p.out_zp, out_zp, "out_zp");
    CHECK_EQ(p.m.mult, o.m, "mult: in %a out %a", in_s, out_s);
    CHECK_EQ(p.m.shift, o.shift, "shift: in %a out %a", in_s, out_s);
    CHECK_EQ(p.qmin, o.qmin, "qmin: act %d %s out %a zp %d", (int)act, tname(t), out_s, out_zp);
    CHECK_EQ(p.qmax, o.qmax, "qmax: act %d %s out %a zp %d", (int)act, tname(t), out_s, out_zp);
    flushed += o.m == 0;
    top += o.shift == 30;
    cut_lo += act == MRTQ_TFLITE_ACT_RELU_N1_TO_1 && o.qmin == tmin && out_zp != tmin;
    cut_hi += act != MRTQ_TFLITE_ACT_RELU && o.qmax == tmax && out_zp != tmax;
    n++;
  }
  /* the edges of the multiplier, spelled out */
  {
    mrtq_tflite_relu_params p;
    memset(&p, 0, sizeof p);
    /* fl(in / out) = 2^30 (1 - 2^-24): the largest accepted, shift 30 */
    CHECK_EQ(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU, MRTQ_S8, 0x1.fffffep+29f, 0, 1.0f, 0, &p), MRTQ_OK, "2^30-");
    CHECK(p.m.mult == 2147483520 && p.m.shift == 30);
    CHECK_REFUSED(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU, MRTQ_S8, 0x1p+30f, 0, 1.0f, 0, &p), MRTQ_ERANGE,
                  "in_scale / out_scale: 2^30 or more");
    CHECK_REFUSED(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU, MRTQ_S8, FLT_MAX, 0, 0x1p-10f, 0, &p), MRTQ_ERANGE,
                  "in_scale / out_scale: 2^30 or more"); /* the float quotient overflows */
    /* 2^-32: mantissa 2^30, shift -31; just below: flushed to {0, 0} */
    CHECK_EQ(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU, MRTQ_S8, 0x1p-32f, 0, 1.0f, 0, &p), MRTQ_OK, "2^-32");
    CHECK(p.m.mult == 1073741824 && p.m.shift == -31);
    CHECK_EQ(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU, MRTQ_S8, 0x1.fffffep-33f, 0, 1.0f, 0, &p), MRTQ_OK, "2^-32-");
    CHECK(p.m.mult == 0 && p.m.shift == 0);
    /* RELU6 bound just inside / outside: 6 / s = 2^31 accepted (cut to the type), beyond refused */
    CHECK_EQ(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU6, MRTQ_S16, 0x1p-40f, 0, 6.0f * 0x1p-31f, 0, &p), MRTQ_OK,
             "6 / s = 2^31");
    CHECK(p.qmin == 0 && p.qmax == 32767);
    CHECK_REFUSED(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU6, MRTQ_S16, 0x1p-40f, 0, 6.0f * 0x1p-32f, 0, &p),
                  MRTQ_ERANGE, "scale: f / scale rounds outside");
  }
  printf("  relu prepare: %ld parameter sets compared; refused: %ld multipliers, %ld bounds; %ld flushed to 0, "
         "%ld with shift 30; bounds cut to the type: %ld low, %ld high\n",
         n, ref_m, ref_b, flushed, top, cut_lo, cut_hi);
  CHECK(ref_m > 0 && ref_b > 0 && flushed > 0 && top > 0 && cut_lo > 0 && cut_hi > 0);
  compared += n;
}

/* Bounds where f / s is exactly x.5 in float: roundf takes it away from zero
 * (half to even would not, for an even x). */
static void test_relu_bound_ties(void) {
  long ties = 0, ties_even = 0, n = 0;
  int j, f, k;
  mrtq_tflite_relu_params p;
  o_relu_t o;
  for (j = 0; j < 3000; j++) {
    for (f = 0; f < 2; f++) {
      const float fv = f ? 6.0f : 1.0f;
      const float s = (float)(2.0 * fv / (2 * j + 1));
      const float q = fv / s;
      const mrtq_tflite_act act = f ? MRTQ_TFLITE_ACT_RELU6 : MRTQ_TFLITE_ACT_RELU_N1_TO_1;
      if (q - floorf(q) != 0.5f) continue;
      ties++;
      ties_even += ((long)floorf(q)) % 2 == 0;
      for (k = 0; k < 3; k++) {
        const mrtq_dtype t = k == 0 ? MRTQ_S8 : k == 1 ? MRTQ_U8 : MRTQ_S16;
        int32_t zp = t == MRTQ_S16 ? 0 : rand_zp(t);
        memset(&p, 0, sizeof p);
        memset(&o, 0, sizeof o);
        CHECK_EQ(o_relu_prepare(act, t, s, s, zp, &o), 0, "oracle");
        CHECK_EQ(mrtq_tflite_relu_init(act, t, s, zp, s, zp, &p), MRTQ_OK, "tie s=%a", s);
        CHECK_EQ(p.qmin, o.qmin, "tie qmin s=%a %s zp %d", s, tname(t), zp);
        CHECK_EQ(p.qmax, o.qmax, "tie qmax s=%a %s zp %d", s, tname(t), zp);
        n++;
        if (f && t != MRTQ_U8) { /* TFLite Micro's RELU6: FloatToQuantizedType's round */
          int32_t lo, hi;
          const float q6 = 6.0f / s;
          trange(t, &lo, &hi);
          CHECK_EQ(mrtq_tflite_relu6_init_micro(t, s, zp, &p), MRTQ_OK, "micro tie");
          CHECK_EQ(p.qmax, clampi((int64_t)round((double)q6) + zp, lo, hi), "micro six s=%a zp %d", s, zp);
          n++;
        }
      }
    }
  }
  memset(&p, 0, sizeof p);
  CHECK_EQ(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU6, MRTQ_S16, 4.0f, 0, 4.0f, 0, &p), MRTQ_OK, "6 / 4");
  CHECK_EQ(p.qmax, 2, "6 / 4 = 1.5 rounds to 2");
  CHECK_EQ(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU_N1_TO_1, MRTQ_S16, 2.0f, 0, 2.0f, 0, &p), MRTQ_OK, "1 / 2");
  CHECK(p.qmin == -1 && p.qmax == 1);
  CHECK_EQ(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU6, MRTQ_S16, 0.8f, 0, 0.8f, 0, &p), MRTQ_OK, "6 / 0.8");
  CHECK_EQ(p.qmax, 8, "fl(6 / fl(0.8)) = 7.5 rounds to 8");
  printf("  relu bounds at ties: %ld ties (%ld where half-to-even would differ), %ld bounds compared\n", ties,
         ties_even, n);
  CHECK(ties > 0 && ties_even > 0);
  compared += n;
}

static void test_relu_kernel(void) {
  static int16_t in[65536], out[65536], buf[65536];
  long n = 0, sat_lo = 0, sat_hi = 0, sets = 0, i;
  size_t c, k;
  reset_counters();
  for (i = 0; i < 1500; i++) {
    mrtq_tflite_relu_params p;
    o_relu_t o;
    float in_s, out_s;
    int32_t in_zp, out_zp, tmin, tmax;
    mrtq_tflite_act act = rand_act();
    mrtq_dtype t = rand_type(1);
    draw_pair(&in_s, &out_s);
    in_zp = t == MRTQ_S16 ? 0 : rand_zp(t);
    out_zp = t == MRTQ_S16 ? 0 : rand_zp(t);
    trange(t, &tmin, &tmax);
    memset(&o, 0, sizeof o);
    if (o_relu_prepare(act, t, in_s, out_s, out_zp, &o) != 0) continue;
    memset(&p, 0, sizeof p);
    CHECK_EQ(mrtq_tflite_relu_init(act, t, in_s, in_zp, out_s, out_zp, &p), MRTQ_OK, "init");
    c = fill_inputs(in, t, sets % 200 == 0);
    CHECK_EQ(mrtq_tflite_relu(&p, c, in, out), MRTQ_OK, "run");
    for (k = 0; k < c; k++) {
      int64_t u;
      const int32_t x = rd(in, k, t), want = o_relu(&o, in_zp, out_zp, x, &u);
      CHECK_EQ(rd(out, k, t), want, "relu act %d %s x=%d in %a out %a zps %d %d", (int)act, tname(t), x, in_s, out_s,
               in_zp, out_zp);
      sat_lo += u < tmin;
      sat_hi += u > tmax;
      n++;
    }
    sets++;
  }
  /* hand-filled structs over every field's whole range */
  for (i = 0; i < 800; i++) {
    mrtq_tflite_relu_params p;
    o_relu_t o;
    int32_t tmin, tmax, a, b;
    int kind;
    mrtq_dtype t = rand_type(1);
    trange(t, &tmin, &tmax);
    memset(&p, 0, sizeof p);
    p.type = t;
    p.in_zp = t == MRTQ_S16 ? 0 : rand_zp(t);
    p.out_zp = t == MRTQ_S16 ? 0 : rand_zp(t);
    kind = (int)th_range(0, 3);
    p.m.mult = kind == 0 ? 0 : kind == 1 ? INT32_MAX : (int32_t)th_range(0, INT32_MAX);
    p.m.shift = (int)th_range(-31, 30);
    a = (int32_t)th_range(tmin, tmax);
    b = (int32_t)th_range(tmin, tmax);
    p.qmin = a < b ? a : b;
    p.qmax = a < b ? b : a;
    o.m = p.m.mult, o.shift = p.m.shift, o.qmin = p.qmin, o.qmax = p.qmax;
    c = fill_inputs(in, t, 0);
    CHECK_EQ(mrtq_tflite_relu(&p, c, in, out), MRTQ_OK, "hand-filled");
    for (k = 0; k < c; k++) {
      int64_t u;
      const int32_t x = rd(in, k, t);
      CHECK_EQ(rd(out, k, t), o_relu(&o, p.in_zp, p.out_zp, x, &u), "hand-filled %s x=%d m={%d,%d} [%d,%d]",
               tname(t), x, p.m.mult, p.m.shift, p.qmin, p.qmax);
      n++;
    }
  }
  /* in place, n = 0, n = 1 */
  {
    mrtq_tflite_relu_params p;
    o_relu_t o;
    int64_t u;
    memset(&p, 0, sizeof p);
    memset(&o, 0, sizeof o);
    CHECK_EQ(o_relu_prepare(MRTQ_TFLITE_ACT_RELU6, MRTQ_S8, 0.05f, 0.03f, -100, &o), 0, "oracle");
    CHECK_EQ(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU6, MRTQ_S8, 0.05f, 3, 0.03f, -100, &p), MRTQ_OK, "init");
    c = fill_inputs(buf, MRTQ_S8, 0);
    CHECK_EQ(mrtq_tflite_relu(&p, c, buf, buf), MRTQ_OK, "in place");
    for (k = 0; k < c; k++) CHECK_EQ(rd(buf, k, MRTQ_S8), o_relu(&o, 3, -100, (int32_t)k - 128, &u), "in place %zu", k);
    n += (long)c;
    memset(out, 0x5A, 8);
    CHECK_EQ(mrtq_tflite_relu(&p, 0, in, out), MRTQ_OK, "n = 0");
    CHECK(((uint8_t *)out)[0] == 0x5A && ((uint8_t *)out)[7] == 0x5A);
    ((int8_t *)in)[0] = 77;
    CHECK_EQ(mrtq_tflite_relu(&p, 1, in, out), MRTQ_OK, "n = 1");
    CHECK_EQ(((int8_t *)out)[0], o_relu(&o, 3, -100, 77, &u), "n = 1");
    CHECK(((uint8_t *)out)[1] == 0x5A);
    n++;
  }
  printf("  relu: %ld outputs (%ld parameter sets from init); saturated below / above the type: %ld / %ld; ties: "
         "%ld srdhm, %ld rdivpot; %ld beyond TFLite's int32 (x * 2^shift saturated)\n",
         n, sets, sat_lo, sat_hi, o_tie_srdhm, o_tie_rdiv, o_beyond);
  CHECK(sat_lo > 0 && sat_hi > 0 && o_tie_srdhm > 0 && o_tie_rdiv > 0 && o_beyond > 0);
  compared += n;
}

/* TFLite Micro's RELU6: Relu6Prepare (zero = zp, six =
 * FloatToQuantizedType(6, s, zp)) and Relu6Quantized (a clamp). */
static void test_relu6_micro(void) {
  static int16_t in[65536], out[65536];
  long n = 0, i, sets = 0, cut = 0, same = 0, s16_zp = 0;
  size_t c, k;
  for (i = 0; i < 400; i++) {
    mrtq_tflite_relu_params p, q;
    int32_t zp, lo, hi, six;
    float s, v;
    int ks;
    mrtq_dtype t = th_range(0, 1) ? MRTQ_S8 : MRTQ_S16;
    ks = (int)th_range(-20, 4);
    s = scale_k(ks);
    zp = rand_zp(t);
    trange(t, &lo, &hi);
    v = 6.0f / s;
    six = clampi((int64_t)round((double)v) + zp, lo, hi); /* |round| <= 6 2^21: no overflow */
    memset(&p, 0, sizeof p);
    CHECK_EQ(mrtq_tflite_relu6_init_micro(t, s, zp, &p), MRTQ_OK, "micro %s s=%a", tname(t), s);
    CHECK(p.type == t && p.in_zp == zp && p.out_zp == zp && p.qmin == zp);
    CHECK_EQ(p.qmax, six, "six %s s=%a zp %d", tname(t), s, zp);
    CHECK(p.m.mult == 1073741824 && p.m.shift == 1);
    cut += six == hi;
    s16_zp += t == MRTQ_S16 && zp != 0; /* TFLite Micro checks no int16 zero point here */
    c = fill_inputs(in, t, sets % 100 == 0);
    CHECK_EQ(mrtq_tflite_relu(&p, c, in, out), MRTQ_OK, "run");
    for (k = 0; k < c; k++) {
      const int32_t x = rd(in, k, t), want = x > six ? six : x < zp ? zp : x;
      CHECK_EQ(rd(out, k, t), want, "relu6 micro %s x=%d zp %d six %d", tname(t), x, zp, six);
      n++;
    }
    /* The TF interpreter's RELU6 on the same quantization for input and output
     * computes the same struct (QuantizeMultiplier(1) = {2^30, 1}). */
    if (t == MRTQ_S8 || zp == 0) {
      memset(&q, 0, sizeof q);
      CHECK_EQ(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU6, t, s, zp, s, zp, &q), MRTQ_OK, "interpreter");
      CHECK(q.m.mult == p.m.mult && q.m.shift == p.m.shift && q.qmin == p.qmin && q.qmax == p.qmax);
      same++;
    }
    sets++;
  }
  /* in place */
  {
    mrtq_tflite_relu_params p;
    const float s = 0.05f, v = 6.0f / s;
    const int32_t six = (int32_t)round((double)v) - 7;
    memset(&p, 0, sizeof p);
    CHECK_EQ(mrtq_tflite_relu6_init_micro(MRTQ_S8, s, -7, &p), MRTQ_OK, "init");
    c = fill_inputs(in, MRTQ_S8, 0);
    CHECK_EQ(mrtq_tflite_relu(&p, c, in, in), MRTQ_OK, "in place");
    for (k = 0; k < c; k++) {
      const int32_t x = (int32_t)k - 128;
      CHECK_EQ(rd(in, k, MRTQ_S8), x > six ? six : x < -7 ? -7 : x, "in place %d", x);
      n++;
    }
  }
  printf("  relu6 (TFLite Micro): %ld outputs, %ld parameter sets run (%ld with six cut to the type), %ld equal to "
         "the interpreter's struct; %ld int16 sets with a non-zero zero point\n",
         n, sets, cut, same, s16_zp);
  CHECK(cut > 0 && same > 0);
  compared += n;
}

/* ======================= LEAKY_RELU ======================= */
typedef struct {
  int32_t mi;
  int si;
  int32_t ma; /* signed, as TFLite's QuantizeMultiplier gives it */
  int sa;
} o_leaky_t;

/* LeakyReluPrepare: alpha_multiplier = fl(fl(in * alpha) / out), identity =
 * fl(in / out), each through QuantizeMultiplier. Returns 0, 1 (identity
 * overflowed or shift > 30), 2 (alpha, likewise). */
static int o_leaky_prepare(float in_s, float alpha, float out_s, o_leaky_t *o, float *fa) {
  const float prod = in_s * alpha;
  const float ra = prod / out_s;
  const float ri = in_s / out_s;
  *fa = ra;
  if (isinf(ri)) return 1;
  o_qm((double)ri, &o->mi, &o->si);
  if (o->si > 30) return 1;
  if (isinf(ra)) return 2;
  o_qm((double)ra, &o->ma, &o->sa);
  if (o->sa > 30) return 2;
  return 0;
}
/* reference_ops::QuantizeLeakyRelu. */
static int32_t o_leaky(const o_leaky_t *o, mrtq_dtype t, int32_t in_zp, int32_t out_zp, int32_t x, int64_t *u) {
  const int is_neg = o->ma < 0;
  const int32_t safe = is_neg ? -o->ma : o->ma;
  const int32_t v = x - in_zp;
  int64_t y = out_zp;
  int32_t lo, hi;
  if (v >= 0) {
    y += o_mbqm(v, o->mi, o->si);
  } else {
    int32_t s = o_mbqm(v, safe, o->sa);
    y += is_neg ? -(int64_t)s : (int64_t)s;
  }
  *u = y;
  trange(t, &lo, &hi);
  return clampi(y, lo, hi);
}

static float rand_alpha(void) {
  int kind = (int)th_range(0, 8);
  int k, neg;
  double m;
  neg = (int)th_range(0, 1);
  switch (kind) {
    case 0: return neg ? -0.0f : 0.0f;
    case 1: k = (int)th_range(-10, 0); break;
    case 2: k = (int)th_range(1, 12); break;
    case 3: return neg ? -1.0f : 1.0f;
    case 4: k = (int)th_range(-70, -40); break; /* flushes after the ratio */
    case 5: k = (int)th_range(20, 40); break;   /* towards the refusal */
    default: k = (int)th_range(-6, 3); break;
  }
  m = rand_mant();
  return (float)(neg ? -ldexp(m, k) : ldexp(m, k));
}

static void test_leaky_prepare(void) {
  long i, n = 0, ref_i = 0, ref_a = 0, negs = 0, zeros = 0, flushed_neg = 0;
  for (i = 0; i < 60000; i++) {
    mrtq_tflite_leaky_relu_params p, keep;
    o_leaky_t o;
    float in_s, out_s, alpha, fa;
    int32_t in_zp, out_zp;
    int st;
    mrtq_dtype t = rand_type(1);
    draw_pair(&in_s, &out_s);
    alpha = rand_alpha();
    in_zp = rand_zp(t);
    out_zp = rand_zp(t);
    memset(&p, 0xA5, sizeof p);
    keep = p;
    memset(&o, 0, sizeof o);
    st = o_leaky_prepare(in_s, alpha, out_s, &o, &fa);
    if (st == 1) {
      CHECK_REFUSED(mrtq_tflite_leaky_relu_init(t, in_s, in_zp, alpha, out_s, out_zp, &p), MRTQ_ERANGE,
                    "in_scale / out_scale: 2^30 or more (TFLite's shift overflows)");
      CHECK(memcmp(&p, &keep, sizeof p) == 0);
      ref_i++;
      continue;
    }
    if (st == 2) {
      CHECK_REFUSED(mrtq_tflite_leaky_relu_init(t, in_s, in_zp, alpha, out_s, out_zp, &p), MRTQ_ERANGE,
                    "in_scale * alpha / out_scale: magnitude 2^30 or more (TFLite's shift overflows)");
      CHECK(memcmp(&p, &keep, sizeof p) == 0);
      ref_a++;
      continue;
    }
    CHECK_EQ(mrtq_tflite_leaky_relu_init(t, in_s, in_zp, alpha, out_s, out_zp, &p), MRTQ_OK, "%s in %a out %a a %a",
             tname(t), in_s, out_s, alpha);
    CHECK(p.type == t && p.in_zp == in_zp && p.out_zp == out_zp);
    CHECK_EQ(p.identity.mult, o.mi, "identity in %a out %a", in_s, out_s);
    CHECK_EQ(p.identity.shift, o.si, "identity shift in %a out %a", in_s, out_s);
    CHECK(o.ma != INT32_MIN); /* a float ratio never rounds to -2^31 */
    CHECK_EQ(p.alpha.mult, o.ma < 0 ? -o.ma : o.ma, "alpha in %a a %a out %a", in_s, alpha, out_s);
    CHECK_EQ(p.alpha.shift, o.sa, "alpha shift in %a a %a out %a", in_s, alpha, out_s);
    /* the flag is the sign of TFLite's stored multiplier: 0 when it flushed */
    CHECK_EQ(p.alpha_negative, o.ma < 0, "alpha_negative vs TFLite's sign, a %a", alpha);
    negs += o.ma < 0;
    zeros += o.ma == 0;
    flushed_neg += o.ma == 0 && fa < 0;
    n++;
  }
  printf("  leaky_relu prepare: %ld parameter sets compared; refused: %ld identity, %ld alpha; %ld negative alpha "
         "multipliers, %ld zero (%ld of them a negative alpha flushed to 0)\n",
         n, ref_i, ref_a, negs, zeros, flushed_neg);
  CHECK(ref_i > 0 && ref_a > 0 && negs > 0 && zeros > 0 && flushed_neg > 0);
  compared += n;
}

static void test_leaky_kernel(void) {
  static int16_t in[65536], out[65536];
  long n = 0, sat_lo = 0, sat_hi = 0, sets = 0, neg_out = 0, i;
  size_t c, k;
  reset_counters();
  for (i = 0; i < 1500; i++) {
    mrtq_tflite_leaky_relu_params p;
    o_leaky_t o;
    float in_s, out_s, alpha, fa;
    int32_t in_zp, out_zp, tmin, tmax;
    mrtq_dtype t = rand_type(1);
    draw_pair(&in_s, &out_s);
    alpha = rand_alpha();
    in_zp = rand_zp(t);
    out_zp = rand_zp(t);
    trange(t, &tmin, &tmax);
    memset(&o, 0, sizeof o);
    if (o_leaky_prepare(in_s, alpha, out_s, &o, &fa) != 0) continue;
    memset(&p, 0, sizeof p);
    CHECK_EQ(mrtq_tflite_leaky_relu_init(t, in_s, in_zp, alpha, out_s, out_zp, &p), MRTQ_OK, "init");
    c = fill_inputs(in, t, sets % 200 == 0);
    CHECK_EQ(mrtq_tflite_leaky_relu(&p, c, in, out), MRTQ_OK, "run");
    for (k = 0; k < c; k++) {
      int64_t u;
      const int32_t x = rd(in, k, t), want = o_leaky(&o, t, in_zp, out_zp, x, &u);
      CHECK_EQ(rd(out, k, t), want, "leaky %s x=%d in %a a %a out %a zps %d %d", tname(t), x, in_s, alpha, out_s, in_zp,
               out_zp);
      sat_lo += u < tmin;
      sat_hi += u > tmax;
      neg_out += x < in_zp && o.ma < 0;
      n++;
    }
    sets++;
  }
  /* hand-filled structs over every field's range */
  for (i = 0; i < 800; i++) {
    mrtq_tflite_leaky_relu_params p;
    o_leaky_t o;
    int kind;
    mrtq_dtype t = rand_type(1);
    memset(&p, 0, sizeof p);
    p.type = t;
    p.in_zp = rand_zp(t);
    p.out_zp = rand_zp(t);
    kind = (int)th_range(0, 3);
    p.identity.mult = kind == 0 ? 0 : kind == 1 ? INT32_MAX : (int32_t)th_range(0, INT32_MAX);
    p.identity.shift = (int)th_range(-31, 30);
    kind = (int)th_range(0, 3);
    p.alpha.mult = kind == 0 ? 0 : kind == 1 ? INT32_MAX : (int32_t)th_range(0, INT32_MAX);
    p.alpha.shift = (int)th_range(-31, 30);
    p.alpha_negative = (int32_t)th_range(0, 1);
    o.mi = p.identity.mult, o.si = p.identity.shift, o.sa = p.alpha.shift;
    o.ma = p.alpha_negative ? -p.alpha.mult : p.alpha.mult;
    c = fill_inputs(in, t, 0);
    CHECK_EQ(mrtq_tflite_leaky_relu(&p, c, in, out), MRTQ_OK, "hand-filled");
    for (k = 0; k < c; k++) {
      int64_t u;
      const int32_t x = rd(in, k, t);
      CHECK_EQ(rd(out, k, t), o_leaky(&o, t, p.in_zp, p.out_zp, x, &u), "hand-filled %s x=%d", tname(t), x);
      n++;
    }
  }
  /* in place, n = 0, n = 1 */
  {
    mrtq_tflite_leaky_relu_params p;
    o_leaky_t o;
    float fa;
    int64_t u;
    memset(&p, 0, sizeof p);
    memset(&o, 0, sizeof o);
    CHECK_EQ(o_leaky_prepare(0.02f, -0.3f, 0.015f, &o, &fa), 0, "oracle");
    CHECK_EQ(mrtq_tflite_leaky_relu_init(MRTQ_U8, 0.02f, 100, -0.3f, 0.015f, 60, &p), MRTQ_OK, "init");
    c = fill_inputs(in, MRTQ_U8, 0);
    CHECK_EQ(mrtq_tflite_leaky_relu(&p, c, in, in), MRTQ_OK, "in place");
    for (k = 0; k < c; k++) CHECK_EQ(rd(in, k, MRTQ_U8), o_leaky(&o, MRTQ_U8, 100, 60, (int32_t)k, &u), "in place %zu", k);
    n += (long)c;
    memset(out, 0x5A, 8);
    CHECK_EQ(mrtq_tflite_leaky_relu(&p, 0, in, out), MRTQ_OK, "n = 0");
    CHECK(((uint8_t *)out)[0] == 0x5A && ((uint8_t *)out)[7] == 0x5A);
    ((uint8_t *)in)[0] = 3;
    CHECK_EQ(mrtq_tflite_leaky_relu(&p, 1, in, out), MRTQ_OK, "n = 1");
    CHECK_EQ(((uint8_t *)out)[0], o_leaky(&o, MRTQ_U8, 100, 60, 3, &u), "n = 1");
    CHECK(((uint8_t *)out)[1] == 0x5A);
    n++;
  }
  printf("  leaky_relu: %ld outputs (%ld parameter sets from init; %ld through a negative alpha); saturated below / "
         "above the type: %ld / %ld; ties: %ld srdhm, %ld rdivpot; %ld beyond TFLite's int32\n",
         n, sets, neg_out, sat_lo, sat_hi, o_tie_srdhm, o_tie_rdiv, o_beyond);
  CHECK(sat_lo > 0 && sat_hi > 0 && neg_out > 0 && o_tie_srdhm > 0 && o_tie_rdiv > 0 && o_beyond > 0);
  compared += n;
}

/* ======================= PRELU ======================= */
typedef struct {
  int32_t m1, m2;
  int s1, s2;
} o_prelu_t;

/* The interpreter's PreluPrepare (micro 0: float quotient and product) and
 * TFLite Micro's CalculatePreluParams (micro 1: the scales widened to
 * double). Returns 0, 1 (m1 refused: overflow or shift > 30), 2 (m2). */
static int o_prelu_prepare(int micro, float in_s, float a_s, float out_s, o_prelu_t *o) {
  double r1, r2;
  if (micro) {
    r1 = (double)in_s / (double)out_s;
    r2 = (double)in_s * (double)a_s / (double)out_s;
  } else {
    const float f1 = in_s / out_s;
    const float prod = in_s * a_s;
    const float f2 = prod / out_s;
    r1 = (double)f1;
    r2 = (double)f2;
  }
  if (isinf(r1)) return 1;
  o_qm(r1, &o->m1, &o->s1);
  if (o->s1 > 30) return 1;
  if (isinf(r2)) return 2;
  o_qm(r2, &o->m2, &o->s2);
  if (o->s2 > 30) return 2;
  return 0;
}

/* reference_ops::BroadcastPrelu4DSlow: shapes extended to 4-D, alpha's
 * strides 0 along its size-1 dimensions; the output has the input's shape. */
static void o_prelu_run(const o_prelu_t *o, mrtq_dtype t, mrtq_dtype at, int32_t in_zp, int32_t a_zp, int32_t out_zp,
                        const size_t *ish, int ind, const size_t *ash, int and_, const void *in, const void *al,
                        int32_t *want, long *sat_lo, long *sat_hi) {
  size_t id[4], ad[4], ast[4], b, y, x, c;
  int i;
  int32_t lo, hi;
  trange(t, &lo, &hi);
  for (i = 0; i < 4; i++) {
    id[i] = i < 4 - ind ? 1 : ish[i - (4 - ind)];
    ad[i] = i < 4 - and_ ? 1 : ash[i - (4 - and_)];
  }
  ast[3] = 1;
  for (i = 2; i >= 0; i--) ast[i] = ast[i + 1] * ad[i + 1];
  for (i = 0; i < 4; i++)
    if (ad[i] == 1) ast[i] = 0;
  for (b = 0; b < id[0]; b++)
    for (y = 0; y < id[1]; y++)
      for (x = 0; x < id[2]; x++)
        for (c = 0; c < id[3]; c++) {
          const size_t oi = ((b * id[1] + y) * id[2] + x) * id[3] + c;
          const size_t ai = b * ast[0] + y * ast[1] + x * ast[2] + c * ast[3];
          const int32_t input_value = -in_zp + rd(in, oi, t);
          int64_t ov;
          if (input_value >= 0) {
            ov = o_mbqm(input_value, o->m1, o->s1);
          } else {
            const int32_t alpha_value = -a_zp + rd(al, ai, at);
            ov = o_mbqm(input_value * alpha_value, o->m2, o->s2);
          }
          ov += out_zp;
          *sat_lo += ov < lo;
          *sat_hi += ov > hi;
          want[oi] = clampi(ov, lo, hi);
        }
}

static void test_prelu_prepare(void) {
  long i, n = 0, differ = 0, refused = 0, ties = 0, ties_even = 0, renorm = 0;
  for (i = 0; i < 60000; i++) {
    mrtq_tflite_prelu_params p, keep;
    o_prelu_t of, od;
    float in_s, out_s, a_s;
    int32_t in_zp, a_zp, out_zp;
    int sf, sd, ka, which;
    mrtq_dtype t;
    draw_pair(&in_s, &out_s);
    ka = (int)th_range(-20, 4);
    a_s = scale_k(ka);
    which = (int)th_range(0, 3); /* 0: s8 both; 1: u8 interpreter; 2: s16 micro; 3: s8 with a huge alpha scale */
    t = which == 1 ? MRTQ_U8 : which == 2 ? MRTQ_S16 : MRTQ_S8;
    if (which == 3) a_s = scale_k(ka + 120);
    in_zp = rand_zp(t);
    a_zp = rand_zp(t == MRTQ_S16 ? MRTQ_S8 : t);
    out_zp = rand_zp(t);
    memset(&of, 0, sizeof of);
    memset(&od, 0, sizeof od);
    sf = o_prelu_prepare(0, in_s, a_s, out_s, &of);
    sd = o_prelu_prepare(1, in_s, a_s, out_s, &od);
    if (t != MRTQ_S16) { /* the TF interpreter */
      memset(&p, 0xA5, sizeof p);
      keep = p;
      if (sf) {
        CHECK_REFUSED(mrtq_tflite_prelu_init(t, in_s, in_zp, a_s, a_zp, out_s, out_zp, &p), MRTQ_ERANGE,
                      sf == 1 ? "in_scale / out_scale: overflows or is 2^30 or more (TFLite's shift overflows)"
                              : "in_scale * alpha_scale / out_scale: overflows or is 2^30 or more");
        CHECK(memcmp(&p, &keep, sizeof p) == 0);
        refused++;
      } else {
        CHECK_EQ(mrtq_tflite_prelu_init(t, in_s, in_zp, a_s, a_zp, out_s, out_zp, &p), MRTQ_OK, "init");
        CHECK(p.type == t && p.alpha_type == t && p.in_zp == in_zp && p.alpha_zp == a_zp && p.out_zp == out_zp);
        CHECK_EQ(p.m1.mult, of.m1, "m1 in %a out %a", in_s, out_s);
        CHECK_EQ(p.m1.shift, of.s1, "s1 in %a out %a", in_s, out_s);
        CHECK_EQ(p.m2.mult, of.m2, "m2 in %a a %a out %a", in_s, a_s, out_s);
        CHECK_EQ(p.m2.shift, of.s2, "s2 in %a a %a out %a", in_s, a_s, out_s);
        n++;
      }
    }
    if (t != MRTQ_U8) { /* TFLite Micro */
      memset(&p, 0xA5, sizeof p);
      keep = p;
      if (sd) {
        CHECK_REFUSED(mrtq_tflite_prelu_init_micro(t, in_s, in_zp, a_s, a_zp, out_s, out_zp, &p), MRTQ_ERANGE,
                      sd == 1 ? "in_scale / out_scale: overflows or is 2^30 or more (TFLite's shift overflows)"
                              : "in_scale * alpha_scale / out_scale: overflows or is 2^30 or more");
        CHECK(memcmp(&p, &keep, sizeof p) == 0);
        refused++;
      } else {
        CHECK_EQ(mrtq_tflite_prelu_init_micro(t, in_s, in_zp, a_s, a_zp, out_s, out_zp, &p), MRTQ_OK, "init micro");
        CHECK(p.type == t && p.alpha_type == (t == MRTQ_S16 ? MRTQ_S8 : t));
        CHECK(p.in_zp == in_zp && p.alpha_zp == a_zp && p.out_zp == out_zp);
        CHECK_EQ(p.m1.mult, od.m1, "micro m1 in %a out %a", in_s, out_s);
        CHECK_EQ(p.m1.shift, od.s1, "micro s1 in %a out %a", in_s, out_s);
        CHECK_EQ(p.m2.mult, od.m2, "micro m2 in %a a %a out %a", in_s, a_s, out_s);
        CHECK_EQ(p.m2.shift, od.s2, "micro s2 in %a a %a out %a", in_s, a_s, out_s);
        n++;
      }
    }
    differ += !sf && !sd && (of.m1 != od.m1 || of.s1 != od.s1 || of.m2 != od.m2 || of.s2 != od.s2);
  }
  /* Micro's m2 at a rounding tie: in = A 2^-23, alpha = B 2^-23 (24-bit A odd,
   * B = B' 2^15 or 2^16 with B' odd), out a power of two: the exact product's
   * 32nd significant bit is the last one set, q 2^31 is x.5. */
  for (i = 0; i < 4000; i++) {
    mrtq_tflite_prelu_params p;
    o_prelu_t od, of;
    int e, sh, ko;
    int64_t A, Bp, B;
    double q, f;
    float in_s, a_s, out_s;
    A = th_range(1 << 22, (1 << 23) - 1) * 2 + 1;
    sh = (int)th_range(15, 16);
    Bp = th_range(0, ((int64_t)1 << (22 - sh)) - 1) * 2 + 1 + ((int64_t)1 << (23 - sh)); /* odd */
    B = Bp << sh; /* in [2^23, 2^24) */
    ko = (int)th_range(-3, 3);
    in_s = (float)ldexp((double)A, -23);
    a_s = (float)ldexp((double)B, -23 - 8);
    out_s = (float)ldexp(1.0, ko);
    q = frexp((double)in_s * (double)a_s / (double)out_s, &e);
    f = q * 2147483648.0;
    if (f - floor(f) != 0.5) continue;
    ties++;
    ties_even += fmod(floor(f), 2.0) == 0.0;
    memset(&od, 0, sizeof od);
    memset(&of, 0, sizeof of);
    CHECK_EQ(o_prelu_prepare(1, in_s, a_s, out_s, &od), 0, "oracle");
    memset(&p, 0, sizeof p);
    CHECK_EQ(mrtq_tflite_prelu_init_micro(MRTQ_S8, in_s, 0, a_s, 0, out_s, 0, &p), MRTQ_OK, "tie");
    CHECK_EQ(p.m2.mult, od.m2, "tie m2 in %a a %a out %a", in_s, a_s, out_s);
    CHECK_EQ(p.m2.shift, od.s2, "tie s2");
    CHECK_EQ(od.m2, (int32_t)floor(f) + 1, "away from zero");
    CHECK_EQ(o_prelu_prepare(0, in_s, a_s, out_s, &of), 0, "oracle");
    differ += of.m2 != od.m2 || of.s2 != od.s2;
    n++;
  }
  /* Micro's m2 renormalised: A B / C in double at 2^k (1 - tiny), rounding up
   * to 2^31 (a float quotient never does). C is the float just above the exact
   * quotient's mantissa. */
  for (i = 0; i < 200000 && renorm < 40; i++) {
    mrtq_tflite_prelu_params p;
    o_prelu_t od;
    int64_t A, B;
    double P, C0, C, q;
    float in_s, a_s, out_s;
    int e;
    A = th_range(1 << 23, (1 << 24) - 1);
    B = th_range(1 << 23, (1 << 24) - 1);
    P = (double)A * (double)B;                                 /* exact, in [2^46, 2^48) */
    C0 = P / (P >= 140737488355328.0 ? 16777216.0 : 8388608.0); /* in [2^23, 2^24) */
    C = ceil(C0);
    if (C == C0 || C >= 16777216.0) continue;
    in_s = (float)ldexp((double)A, -24);
    a_s = (float)ldexp((double)B, -24);
    out_s = (float)ldexp(C, -30);
    q = frexp((double)in_s * (double)a_s / (double)out_s, &e);
    if (round(q * 2147483648.0) != 2147483648.0) continue;
    memset(&od, 0, sizeof od);
    CHECK_EQ(o_prelu_prepare(1, in_s, a_s, out_s, &od), 0, "oracle");
    renorm++;
    memset(&p, 0, sizeof p);
    CHECK_EQ(mrtq_tflite_prelu_init_micro(MRTQ_S8, in_s, 0, a_s, 0, out_s, 0, &p), MRTQ_OK, "renorm");
    CHECK_EQ(p.m2.mult, od.m2, "renorm m2 in %a a %a out %a", in_s, a_s, out_s);
    CHECK_EQ(p.m2.shift, od.s2, "renorm s2 in %a a %a out %a", in_s, a_s, out_s);
    CHECK_EQ(od.m2, 1073741824, "renormalised mantissa");
    n++;
  }
  printf("  prelu prepare: %ld inits compared, %ld refused; interpreter (float) and Micro (double) multipliers "
         "differ for %ld scale triples; Micro m2 at a tie: %ld (%ld where half-to-even differs), renormalised: %ld\n",
         n, refused, differ, ties, ties_even, renorm);
  CHECK(differ > 0 && refused > 0 && ties > 0 && ties_even > 0 && renorm > 0);
  compared += n;
}

static void rand_shapes(size_t *ish, int *ind, size_t *ash, int *and_) {
  int d;
  *ind = (int)th_range(0, 4);
  for (d = 0; d < *ind; d++) ish[d] = (size_t)th_range(1, 5);
  *and_ = (int)th_range(0, *ind);
  for (d = 0; d < *and_; d++) {
    int one = (int)th_range(0, 2) == 0;
    ash[d] = one ? 1 : ish[*ind - *and_ + d];
  }
}
static size_t prod(const size_t *s, int nd) {
  size_t r = 1;
  int d;
  for (d = 0; d < nd; d++) r *= s[d];
  return r;
}

static void test_prelu_kernel(void) {
  static int16_t in[65536], out[65536], al[65536];
  static int32_t want[65536];
  long n = 0, sat_lo = 0, sat_hi = 0, sets = 0, i;
  size_t k;
  reset_counters();
  /* random parameters and shapes */
  for (i = 0; i < 4000; i++) {
    mrtq_tflite_prelu_params p;
    o_prelu_t o;
    size_t ish[4], ash[4], ni, na;
    int ind, and_, which, micro, ka;
    float in_s, out_s, a_s;
    int32_t in_zp, a_zp, out_zp, lo, hi, alo, ahi;
    mrtq_dtype t, at;
    draw_pair(&in_s, &out_s);
    ka = (int)th_range(-12, 3);
    a_s = scale_k(ka);
    which = (int)th_range(0, 3);
    t = which == 1 ? MRTQ_U8 : which == 2 ? MRTQ_S16 : MRTQ_S8;
    at = t == MRTQ_S16 ? MRTQ_S8 : t;
    micro = which == 2 || which == 3;
    in_zp = rand_zp(t);
    a_zp = rand_zp(at);
    out_zp = rand_zp(t);
    memset(&o, 0, sizeof o);
    if (o_prelu_prepare(micro, in_s, a_s, out_s, &o) != 0) continue;
    memset(&p, 0, sizeof p);
    if (micro)
      CHECK_EQ(mrtq_tflite_prelu_init_micro(t, in_s, in_zp, a_s, a_zp, out_s, out_zp, &p), MRTQ_OK, "init micro");
    else
      CHECK_EQ(mrtq_tflite_prelu_init(t, in_s, in_zp, a_s, a_zp, out_s, out_zp, &p), MRTQ_OK, "init");
    rand_shapes(ish, &ind, ash, &and_);
    ni = prod(ish, ind);
    na = prod(ash, and_);
    trange(t, &lo, &hi);
    trange(at, &alo, &ahi);
    for (k = 0; k < ni; k++) {
      int32_t v = (int32_t)th_range(lo, hi);
      wr(in, k, t, v);
    }
    for (k = 0; k < na; k++) {
      int32_t v = (int32_t)th_range(alo, ahi);
      wr(al, k, at, v);
    }
    o_prelu_run(&o, t, at, in_zp, a_zp, out_zp, ish, ind, ash, and_, in, al, want, &sat_lo, &sat_hi);
    CHECK_EQ(mrtq_tflite_prelu(&p, ish, ind, ash, and_, in, al, out), MRTQ_OK, "run %s ind %d and %d", tname(t), ind,
             and_);
    for (k = 0; k < ni; k++) {
      CHECK_EQ(rd(out, k, t), want[k], "prelu %s %s k=%zu ind %d and %d", tname(t), micro ? "micro" : "interp", k, ind,
               and_);
      n++;
    }
    sets++;
  }
  /* every (input, alpha) pair of the 8-bit types, every int16 input: input
   * [256][256], alpha [256] (along the columns) or [256][1] (the rows) */
  for (i = 0; i < 24; i++) {
    mrtq_tflite_prelu_params p;
    o_prelu_t o;
    const size_t ish[2] = {256, 256};
    size_t ash[2];
    int and_, micro, ka;
    float in_s, out_s, a_s;
    int32_t in_zp, a_zp, out_zp, lo, hi, alo, ahi;
    const mrtq_dtype t = i % 3 == 0 ? MRTQ_S8 : i % 3 == 1 ? MRTQ_U8 : MRTQ_S16;
    const mrtq_dtype at = t == MRTQ_S16 ? MRTQ_S8 : t;
    micro = t == MRTQ_S16 || (t == MRTQ_S8 && i % 2);
    do {
      draw_pair(&in_s, &out_s);
      ka = (int)th_range(-10, 2);
      a_s = scale_k(ka);
      memset(&o, 0, sizeof o);
    } while (o_prelu_prepare(micro, in_s, a_s, out_s, &o) != 0);
    in_zp = rand_zp(t);
    a_zp = rand_zp(at);
    out_zp = rand_zp(t);
    memset(&p, 0, sizeof p);
    if (micro)
      CHECK_EQ(mrtq_tflite_prelu_init_micro(t, in_s, in_zp, a_s, a_zp, out_s, out_zp, &p), MRTQ_OK, "init micro");
    else
      CHECK_EQ(mrtq_tflite_prelu_init(t, in_s, in_zp, a_s, a_zp, out_s, out_zp, &p), MRTQ_OK, "init");
    trange(t, &lo, &hi);
    trange(at, &alo, &ahi);
    for (k = 0; k < 65536; k++) wr(in, k, t, t == MRTQ_S16 ? (int32_t)k - 32768 : lo + (int32_t)(k / 256));
    for (k = 0; k < 256; k++) wr(al, k, at, alo + (int32_t)k);
    and_ = (int)(i % 2) + 1;
    ash[0] = 256;
    ash[1] = 1;
    o_prelu_run(&o, t, at, in_zp, a_zp, out_zp, ish, 2, ash, and_, in, al, want, &sat_lo, &sat_hi);
    CHECK_EQ(mrtq_tflite_prelu(&p, ish, 2, ash, and_, in, al, out), MRTQ_OK, "run all");
    for (k = 0; k < 65536; k++) {
      CHECK_EQ(rd(out, k, t), want[k], "prelu all %s k=%zu in %a a %a out %a zps %d %d %d", tname(t), k, in_s, a_s,
               out_s, in_zp, a_zp, out_zp);
      n++;
    }
  }
  /* hand-filled multipliers over their whole range */
  for (i = 0; i < 600; i++) {
    mrtq_tflite_prelu_params p;
    o_prelu_t o;
    size_t ish[4], ash[4], ni, na;
    int ind, and_, which;
    int32_t lo, hi, alo, ahi;
    mrtq_dtype t, at;
    which = (int)th_range(0, 2);
    t = which == 0 ? MRTQ_S8 : which == 1 ? MRTQ_U8 : MRTQ_S16;
    at = t == MRTQ_S16 ? MRTQ_S8 : t;
    memset(&p, 0, sizeof p);
    p.type = t, p.alpha_type = at;
    p.in_zp = rand_zp(t);
    p.alpha_zp = rand_zp(at);
    p.out_zp = rand_zp(t);
    p.m1.mult = (int32_t)th_range(0, INT32_MAX);
    p.m1.shift = (int)th_range(-31, 30);
    p.m2.mult = (int32_t)th_range(0, INT32_MAX);
    p.m2.shift = (int)th_range(-31, 30);
    o.m1 = p.m1.mult, o.s1 = p.m1.shift, o.m2 = p.m2.mult, o.s2 = p.m2.shift;
    rand_shapes(ish, &ind, ash, &and_);
    ni = prod(ish, ind);
    na = prod(ash, and_);
    trange(t, &lo, &hi);
    trange(at, &alo, &ahi);
    for (k = 0; k < ni; k++) {
      int32_t v = (int32_t)th_range(lo, hi);
      wr(in, k, t, v);
    }
    for (k = 0; k < na; k++) {
      int32_t v = (int32_t)th_range(alo, ahi);
      wr(al, k, at, v);
    }
    o_prelu_run(&o, t, at, p.in_zp, p.alpha_zp, p.out_zp, ish, ind, ash, and_, in, al, want, &sat_lo, &sat_hi);
    CHECK_EQ(mrtq_tflite_prelu(&p, ish, ind, ash, and_, in, al, out), MRTQ_OK, "hand-filled");
    for (k = 0; k < ni; k++) {
      CHECK_EQ(rd(out, k, t), want[k], "hand-filled %s k=%zu", tname(t), k);
      n++;
    }
  }
  /* in place; a rank-0 (one-element) input; alpha must not grow the output */
  {
    mrtq_tflite_prelu_params p;
    o_prelu_t o;
    const size_t ish[3] = {2, 3, 4}, ash[2] = {3, 1}, big[3] = {2, 3, 5}, one[3] = {1, 3, 4}, a4[4] = {1, 2, 3, 4};
    long sl = 0, sh = 0;
    memset(&o, 0, sizeof o);
    CHECK_EQ(o_prelu_prepare(1, 0.1f, 0.01f, 0.07f, &o), 0, "oracle");
    memset(&p, 0, sizeof p);
    CHECK_EQ(mrtq_tflite_prelu_init_micro(MRTQ_S16, 0.1f, 5, 0.01f, -3, 0.07f, -9, &p), MRTQ_OK, "init");
    for (k = 0; k < 24; k++) in[k] = (int16_t)(k * 2731 - 32768);
    for (k = 0; k < 3; k++) ((int8_t *)al)[k] = (int8_t)(k * 90 - 128);
    o_prelu_run(&o, MRTQ_S16, MRTQ_S8, 5, -3, -9, ish, 3, ash, 2, in, al, want, &sl, &sh);
    CHECK_EQ(mrtq_tflite_prelu(&p, ish, 3, ash, 2, in, al, in), MRTQ_OK, "in place");
    for (k = 0; k < 24; k++) CHECK_EQ(in[k], want[k], "in place %zu", k);
    n += 24;
    in[0] = -1000;
    ((int8_t *)al)[0] = 50;
    o_prelu_run(&o, MRTQ_S16, MRTQ_S8, 5, -3, -9, NULL, 0, NULL, 0, in, al, want, &sl, &sh);
    out[1] = 0x5A5A;
    CHECK_EQ(mrtq_tflite_prelu(&p, NULL, 0, NULL, 0, in, al, out), MRTQ_OK, "rank 0");
    CHECK_EQ(out[0], want[0], "rank 0");
    CHECK_EQ(out[1], 0x5A5A, "rank 0: one element written");
    CHECK_EQ(mrtq_tflite_prelu(&p, one, 1, one, 1, in, al, out), MRTQ_OK, "size 1");
    CHECK_EQ(out[0], want[0], "size 1");
    CHECK_EQ(out[1], 0x5A5A, "size 1: one element written");
    n += 2;
    for (k = 0; k < 60; k++) out[k] = 0x5A5A;
    CHECK_REFUSED(mrtq_tflite_prelu(&p, one, 3, ish, 3, in, al, out), MRTQ_ESHAPE,
                  "alpha_shape: broadcasting would grow the input's shape");
    CHECK_REFUSED(mrtq_tflite_prelu(&p, ish, 3, a4, 4, in, al, out), MRTQ_ESHAPE,
                  "alpha_shape: more dimensions than in_shape (the output would grow)");
    CHECK_REFUSED(mrtq_tflite_prelu(&p, ish + 2, 1, ish + 1, 2, in, al, out), MRTQ_ESHAPE,
                  "alpha_shape: more dimensions than in_shape");
    CHECK_REFUSED(mrtq_tflite_prelu(&p, big, 3, ish, 3, in, al, out), MRTQ_ESHAPE, "sizes differ and neither is 1");
    for (k = 0; k < 60; k++) CHECK_EQ(out[k], 0x5A5A, "refused: untouched %zu", k);
  }
  printf("  prelu: %ld outputs (%ld random shapes from init, 24 x 65536 every pair / every int16 input); saturated "
         "below / above the type: %ld / %ld; ties: %ld srdhm, %ld rdivpot; %ld beyond TFLite's int32\n",
         n, sets, sat_lo, sat_hi, o_tie_srdhm, o_tie_rdiv, o_beyond);
  CHECK(sat_lo > 0 && sat_hi > 0 && o_tie_srdhm > 0 && o_tie_rdiv > 0 && o_beyond > 0);
  compared += n;
}

/* ======================= HARD_SWISH (lightly) ======================= */
typedef struct {
  int32_t om, oe, rm, re;
} o_hs_t;

/* v taken modulo 2^16 to int16, as TFLite's int16_t assignments do. */
static int32_t w16(int64_t v) {
  v &= 0xFFFF;
  return (int32_t)(v >= 32768 ? v - 65536 : v);
}
/* gemmlowp SaturatingRoundingDoublingHighMul (int16). */
static int32_t o_srdhm16(int32_t a, int32_t b) {
  const int overflow = a == b && a == -32768;
  const int32_t ab = a * b;
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  const int32_t r = w16((ab + nudge) / (1 << 15));
  return overflow ? 32767 : r;
}
/* gemmlowp RoundingDivideByPOT (int16): the mask is an int16. */
static int32_t o_rdivpot16(int32_t x, int e) {
  const int32_t mask = w16(((int64_t)1 << e) - 1);
  const int32_t rem = w16(x & mask);
  const int32_t thr = w16(o_asr(mask, 1) + (x < 0 ? 1 : 0));
  return w16(o_asr(x, e) + (rem > thr ? 1 : 0));
}
/* reference_ops::SaturatingLeftShift. */
static int32_t o_satshl16(int32_t v, int k) { return clampi((int64_t)v * ((int64_t)1 << k), -32768, 32767); }
/* DownScaleInt32ToInt16Multiplier. */
static int32_t o_down16(int32_t m) {
  if (m >= INT32_MAX - (1 << 15)) return 32767;
  return (m + (1 << 15)) >> 16;
}
/* HardSwishPrepare. Returns 0, 1 (output exponent above 0, or the quotient
 * overflowed), 2 (reluish exponent above 31, or its quotient overflowed). */
static int o_hs_prepare(float in_s, float out_s, o_hs_t *o) {
  const float hires = (1.0f / 128.0f) * in_s;
  const float reluish_scale = 3.0f / 32768.0f;
  const float fo = hires / out_s;
  const float fr = hires / reluish_scale;
  int32_t m;
  int e;
  if (isinf(fo)) return 1;
  o_qm((double)fo, &m, &e);
  o->oe = e;
  if (o->oe > 0) return 1;
  o->om = o_down16(m);
  if (isinf(fr)) return 2;
  o_qm((double)fr, &m, &e);
  o->re = e;
  if (o->re > 31) return 2;
  o->rm = o_down16(m);
  return 0;
}
/* reference_ops::HardSwish in its int16 variables. *wrapped: the final
 * output_value += output_zero_point left int16 (TFLite stores it modulo 2^16). */
static int32_t o_hs(const o_hs_t *o, mrtq_dtype t, int32_t in_zp, int32_t out_zp, int32_t x, int *wrapped) {
  const int32_t input_value = w16(x - in_zp);
  const int32_t hires = w16(input_value * (1 << 7));
  const int32_t preshift = o_srdhm16(hires, o->om);
  int32_t reluish = hires, pre, outv, lo, hi, sum;
  if (o->re > 0) reluish = o_satshl16(reluish, o->re - 1);
  reluish = o_srdhm16(reluish, o->rm);
  if (o->re > 0) reluish = o_satshl16(reluish, 1);
  if (o->re < 0) reluish = o_rdivpot16(reluish, -o->re);
  reluish = w16((reluish + (1 << 15)) >> 1);
  pre = (reluish == -32768 && preshift == -32768) ? 32767 : w16((reluish * preshift) / (1 << 15));
  outv = o_rdivpot16(pre, -o->oe);
  sum = outv + out_zp;
  *wrapped = sum != w16(sum);
  outv = w16(sum);
  trange(t, &lo, &hi);
  outv = outv < hi ? outv : hi;
  outv = outv > lo ? outv : lo;
  return outv;
}

static void test_hard_swish(void) {
  static uint8_t in[256], out[256];
  long n = 0, sets = 0, refused = 0, wraps = 0, e0 = 0, big_shift = 0, pos_re = 0, i;
  int k;
  for (i = 0; i < 3000; i++) {
    mrtq_tflite_hard_swish_params p, keep;
    o_hs_t o;
    float in_s, out_s;
    int32_t in_zp, out_zp;
    int st, kin, j, kind;
    mrtq_dtype t = rand_type(0);
    kin = (int)th_range(-16, 24);
    in_s = scale_k(kin);
    kind = (int)th_range(0, 3);
    if (kind == 0) { /* in / out in [64, 128]: output exponent 0 (or the refusal) */
      j = (int)th_range(6, 7);
      out_s = scale_k(kin - j);
    } else if (kind == 1) { /* in / out below 2^-9: exponents beyond 15 */
      j = (int)th_range(8, 26);
      out_s = scale_k(kin + j);
    } else {
      j = (int)th_range(-4, 4);
      out_s = scale_k(kin + j);
    }
    in_zp = rand_zp(t);
    out_zp = rand_zp(t);
    memset(&o, 0, sizeof o);
    memset(&p, 0xA5, sizeof p);
    keep = p;
    st = o_hs_prepare(in_s, out_s, &o);
    if (st) {
      CHECK_REFUSED(mrtq_tflite_hard_swish_init(t, in_s, in_zp, out_s, out_zp, &p), MRTQ_ERANGE,
                    st == 1 ? "in_scale / out_scale: 128 or more (TFLite refuses: output exponent above 0)"
                            : "in_scale: too large (reluish exponent above 31; TFLite's shift overflows)");
      CHECK(memcmp(&p, &keep, sizeof p) == 0);
      refused++;
      continue;
    }
    CHECK_EQ(mrtq_tflite_hard_swish_init(t, in_s, in_zp, out_s, out_zp, &p), MRTQ_OK, "init");
    CHECK(p.type == t && p.in_zp == in_zp && p.out_zp == out_zp);
    CHECK_EQ(p.output_multiplier_fixedpoint_int16, o.om, "om in %a out %a", in_s, out_s);
    CHECK_EQ(p.output_multiplier_exponent, o.oe, "oe in %a out %a", in_s, out_s);
    CHECK_EQ(p.reluish_multiplier_fixedpoint_int16, o.rm, "rm in %a", in_s);
    CHECK_EQ(p.reluish_multiplier_exponent, o.re, "re in %a", in_s);
    e0 += o.oe == 0;
    big_shift += o.oe < -15 || o.re < -15;
    pos_re += o.re > 0;
    fill_inputs(in, t, 0);
    CHECK_EQ(mrtq_tflite_hard_swish(&p, 256, in, out), MRTQ_OK, "run");
    for (k = 0; k < 256; k++) {
      int wrapped;
      const int32_t x = rd(in, (size_t)k, t), want = o_hs(&o, t, in_zp, out_zp, x, &wrapped);
      wraps += wrapped; /* TFLite's int16 zero-point sum wrapped (also test_hard_swish_wrap) */
      CHECK_EQ(rd(out, (size_t)k, t), want, "hard_swish %s x=%d in %a out %a zps %d %d", tname(t), x, in_s, out_s, in_zp,
               out_zp);
      n++;
    }
    sets++;
  }
  /* the edges of Prepare, spelled out */
  {
    mrtq_tflite_hard_swish_params p;
    memset(&p, 0, sizeof p);
    CHECK_EQ(mrtq_tflite_hard_swish_init(MRTQ_S8, 1.0f, 0, 0x1.000002p-7f, 0, &p), MRTQ_OK, "just below 128");
    CHECK(p.output_multiplier_exponent == 0 && p.output_multiplier_fixedpoint_int16 == 32767);
    CHECK_REFUSED(mrtq_tflite_hard_swish_init(MRTQ_S8, 1.0f, 0, 0x1p-7f, 0, &p), MRTQ_ERANGE,
                  "in_scale / out_scale: 128 or more");
    CHECK_REFUSED(mrtq_tflite_hard_swish_init(MRTQ_S8, 1e38f, 0, 1e-38f, 0, &p), MRTQ_ERANGE,
                  "in_scale / out_scale: 128 or more"); /* the float quotient overflows */
    /* reluish = in 256 / 3: exponent 31 just below in = 3 2^23, 32 from there */
    CHECK_EQ(mrtq_tflite_hard_swish_init(MRTQ_S8, 0x1.7ffffep+24f, 0, 0x1.7ffffep+24f, 0, &p), MRTQ_OK, "re 31");
    CHECK_EQ(p.reluish_multiplier_exponent, 31, "re 31");
    CHECK_REFUSED(mrtq_tflite_hard_swish_init(MRTQ_S8, 0x1.8p+24f, 0, 0x1.8p+24f, 0, &p), MRTQ_ERANGE,
                  "in_scale: too large (reluish exponent above 31");
    CHECK_REFUSED(mrtq_tflite_hard_swish_init(MRTQ_S8, 1e38f, 0, 1e38f, 0, &p), MRTQ_ERANGE,
                  "in_scale: too large"); /* its float quotient overflows */
  }
  /* in place, n = 0, n = 1 */
  {
    mrtq_tflite_hard_swish_params p;
    o_hs_t o;
    int wrapped;
    memset(&o, 0, sizeof o);
    CHECK_EQ(o_hs_prepare(0.05f, 0.03f, &o), 0, "oracle");
    memset(&p, 0, sizeof p);
    CHECK_EQ(mrtq_tflite_hard_swish_init(MRTQ_S8, 0.05f, -20, 0.03f, -110, &p), MRTQ_OK, "init");
    fill_inputs(in, MRTQ_S8, 0);
    CHECK_EQ(mrtq_tflite_hard_swish(&p, 256, in, in), MRTQ_OK, "in place");
    for (k = 0; k < 256; k++)
      CHECK_EQ(((int8_t *)in)[k], o_hs(&o, MRTQ_S8, -20, -110, k - 128, &wrapped), "in place %d", k);
    n += 256;
    memset(out, 0x5A, 8);
    CHECK_EQ(mrtq_tflite_hard_swish(&p, 0, in, out), MRTQ_OK, "n = 0");
    CHECK(out[0] == 0x5A && out[7] == 0x5A);
    in[0] = 100;
    CHECK_EQ(mrtq_tflite_hard_swish(&p, 1, in, out), MRTQ_OK, "n = 1");
    CHECK_EQ((int8_t)out[0], o_hs(&o, MRTQ_S8, -20, -110, 100, &wrapped), "n = 1");
    CHECK(out[1] == 0x5A);
    n++;
  }
  printf("  hard_swish: %ld outputs, %ld parameter sets (%ld refused; %ld with output exponent 0, %ld with a shift "
         "beyond 15, %ld with a positive reluish exponent); %ld outputs where TFLite's int16 zero-point sum wraps "
         "(also test_hard_swish_wrap)\n",
         n, sets, refused, e0, big_shift, pos_re, wraps);
  CHECK(refused > 0 && e0 > 0 && big_shift > 0 && pos_re > 0);
  compared += n;
}

/* ======================= LOGISTIC / TANH int8, fixed point ======================= */
typedef struct {
  int32_t zp, radius, mult;
  int shift;
} o_fx8_t;

/* The Prepare of TFLite Micro's int8 LOGISTIC / TANH (logistic_common.cc,
 * tanh.cc). Returns 1 where CalculateInputRadius would shift by a negative
 * amount or by 63 or more (mrtq refuses). */
static int o_fx8_prepare(float s, int32_t zp, o_fx8_t *o) {
  const double input_real_multiplier = (double)s * (double)(1 << (31 - 4));
  const double q = frexp(input_real_multiplier, &o->shift);
  o->zp = zp;
  o->mult = (int32_t)round(q * (double)(1LL << 31));
  if (o->shift < 0 || o->shift > 62) return 1;
  o->radius = (int32_t)floor(1.0 * ((1 << 4) - 1) * (double)(1LL << (31 - 4)) / (double)(1LL << o->shift));
  return 0;
}

static void test_fx8(void) {
  static int8_t in[256], out[256], out2[256];
  long n = 0, i, refused = 0, at_radius = 0, inside = 0, zero_radius = 0;
  int k;
  for (i = 0; i < 20000; i++) {
    mrtq_tflite_fx8_params p, keep;
    o_fx8_t o;
    int32_t zp;
    int ks = (int)th_range(-32, 38);
    float s = scale_k(ks);
    zp = rand_zp(MRTQ_S8);
    memset(&o, 0, sizeof o);
    memset(&p, 0xA5, sizeof p);
    keep = p;
    if (o_fx8_prepare(s, zp, &o)) {
      CHECK_REFUSED(mrtq_tflite_fx8_init(s, zp, &p), MRTQ_ERANGE, "in_scale: below 2^-28 or 2^35 or more");
      CHECK(memcmp(&p, &keep, sizeof p) == 0);
      refused++;
      continue;
    }
    CHECK_EQ(mrtq_tflite_fx8_init(s, zp, &p), MRTQ_OK, "fx8 init s=%a", s);
    CHECK_EQ(p.input_zp, o.zp, "zp");
    CHECK_EQ(p.input_multiplier, o.mult, "mult s=%a", s);
    CHECK_EQ(p.input_left_shift, o.shift, "shift s=%a", s);
    CHECK_EQ(p.input_range_radius, o.radius, "radius s=%a", s);
    n++;
    zero_radius += o.radius == 0;
    if (i % 20) continue;
    /* the kernels lightly: exact at and beyond the radius, within one step
     * of the real function inside, monotone */
    fill_inputs(in, MRTQ_S8, 0);
    CHECK_EQ(mrtq_tflite_logistic(&p, 256, in, out), MRTQ_OK, "logistic");
    CHECK_EQ(mrtq_tflite_tanh(&p, 256, in, out2), MRTQ_OK, "tanh");
    for (k = 0; k < 256; k++) {
      const int32_t v = in[k] - zp;
      if (v <= -o.radius) {
        CHECK_EQ(out[k], -128, "logistic below the radius v=%d", v);
        CHECK_EQ(out2[k], -128, "tanh below the radius v=%d", v);
        at_radius++;
      } else if (v >= o.radius) {
        CHECK_EQ(out[k], 127, "logistic above the radius v=%d", v);
        CHECK_EQ(out2[k], 127, "tanh above the radius v=%d", v);
        at_radius++;
      } else {
        const double xr = (double)v * ldexp((double)o.mult, o.shift - 31) / 134217728.0;
        const double l = 256.0 / (1.0 + exp(-xr)) - 128.0, t = 128.0 * tanh(xr);
        CHECK(fabs(out[k] - (l > 127 ? 127 : l)) <= 1.0);
        CHECK(fabs(out2[k] - (t > 127 ? 127 : t)) <= 1.0);
        inside++;
      }
      if (k) CHECK(out[k] >= out[k - 1] && out2[k] >= out2[k - 1]);
    }
  }
  /* the edges of the accepted scales */
  {
    mrtq_tflite_fx8_params p;
    memset(&p, 0, sizeof p);
    CHECK_EQ(mrtq_tflite_fx8_init(0x1p-28f, 0, &p), MRTQ_OK, "2^-28");
    CHECK(p.input_left_shift == 0 && p.input_multiplier == 1073741824 && p.input_range_radius == 2013265920);
    CHECK_REFUSED(mrtq_tflite_fx8_init(0x1.fffffep-29f, 0, &p), MRTQ_ERANGE, "in_scale: below 2^-28 or 2^35 or more");
    CHECK_EQ(mrtq_tflite_fx8_init(0x1.fffffep+34f, 0, &p), MRTQ_OK, "2^35-");
    CHECK(p.input_left_shift == 62 && p.input_multiplier == 2147483520 && p.input_range_radius == 0);
    CHECK_REFUSED(mrtq_tflite_fx8_init(0x1p+35f, 0, &p), MRTQ_ERANGE,
                  "in_scale: below 2^-28 or 2^35 or more (TFLite's input radius shifts by a negative amount or overflows)");
    /* radius 0 (scale 8): the zero point itself gives -128 */
    CHECK_EQ(mrtq_tflite_fx8_init(8.0f, 3, &p), MRTQ_OK, "8");
    CHECK_EQ(p.input_range_radius, 0, "radius 0 from 8 on");
    in[0] = 3, in[1] = 4, in[2] = 2;
    CHECK_EQ(mrtq_tflite_logistic(&p, 3, in, in), MRTQ_OK, "in place");
    CHECK(in[0] == -128 && in[1] == 127 && in[2] == -128);
    in[0] = 4, in[1] = 3;
    CHECK_EQ(mrtq_tflite_tanh(&p, 1, in, in), MRTQ_OK, "tanh in place, n = 1");
    CHECK(in[0] == 127 && in[1] == 3);
    memset(out, 0x5A, 8);
    CHECK_EQ(mrtq_tflite_tanh(&p, 0, in, out), MRTQ_OK, "n = 0");
    CHECK_EQ(mrtq_tflite_logistic(&p, 0, in, out), MRTQ_OK, "n = 0");
    CHECK(out[0] == 0x5A && out[7] == 0x5A);
  }
  printf("  logistic / tanh int8 (fixed point): %ld inits compared (%ld refused, %ld with radius 0); kernels lightly: "
         "%ld outputs at the radius, %ld inside within one step\n",
         n, refused, zero_radius, at_radius, inside);
  CHECK(refused > 0 && zero_radius > 0 && at_radius > 0 && inside > 0);
  compared += n + at_radius;
}

/* ======================= LOGISTIC / TANH int8 / uint8, float table ======================= */
static long lut_nan, lut_sat, lut_ties;

/* LUTPopulateInt8 with the interpreter's transforms: logistic 1.0f / (1.0f +
 * f(-x)) (f = expf), tanh f(x) (f = tanhf). The static_cast<int32_t> of a NaN
 * or of a value beyond int32 is undefined in TFLite: mrtq's documented values
 * (NaN the type's minimum, beyond int32 saturated) are taken, and counted. */
static void o_lut(int tanh_, mrtq_dtype t, float in_s, int32_t in_zp, float out_s, int32_t out_zp, float (*f)(float),
                  uint8_t *lut) {
  const float inverse_scale = 1 / out_s;
  int32_t maxval, minval, val;
  trange(t, &minval, &maxval);
  for (val = minval; val <= maxval; ++val) {
    const float dequantized = in_s * (float)(val - in_zp);
    float transformed, prod, rescaled, sum;
    int32_t quantized;
    if (tanh_) {
      transformed = f(dequantized);
    } else {
      const float e = f(-dequantized);
      const float den = 1.0f + e;
      transformed = 1.0f / den;
    }
    prod = transformed * inverse_scale;
    rescaled = roundf(prod);
    if (prod - floorf(prod) == 0.5f) lut_ties++;
    sum = rescaled + (float)out_zp;
    if (sum != sum) {
      quantized = minval;
      lut_nan++;
    } else if (sum >= 2147483648.0f || sum < -2147483648.0f) {
      quantized = sum > 0 ? maxval : minval;
      lut_sat++;
    } else {
      quantized = (int32_t)sum;
    }
    lut[(uint8_t)(val & 255)] = (uint8_t)(clampi(quantized, minval, maxval) & 255);
  }
}

static float f_identity(float x) { return x; }
static float f_nan_above(float x) { return x > 0.0f ? NAN : x; }
static float f_huge(float x) { return x * 1e30f; }
static float f_inf(float x) { return x > 0.0f ? INFINITY : x < 0.0f ? -INFINITY : 0.0f; }

static void test_lut8(void) {
  static uint8_t in[256], out[256];
  long n = 0, i, sets = 0, special = 0;
  int k;
  lut_nan = lut_sat = lut_ties = 0;
  for (i = 0; i < 1200; i++) {
    mrtq_tflite_lut8_params p;
    uint8_t want[256];
    float in_s, out_s;
    int32_t in_zp, out_zp, lo, hi;
    int kin, kout, tanh_, kind, fk;
    float (*f)(float);
    mrtq_dtype t = rand_type(0);
    tanh_ = (int)th_range(0, 1);
    kin = (int)th_range(-14, 4);
    in_s = scale_k(kin);
    in_zp = rand_zp(t);
    trange(t, &lo, &hi);
    kind = (int)th_range(0, 3);
    if (kind == 0) { /* TFLite's output quantization */
      out_s = tanh_ ? 1.0f / 128 : 1.0f / 256;
      out_zp = tanh_ ? (t == MRTQ_S8 ? 0 : 128) : lo;
    } else if (kind == 1) { /* coarse or fine outputs: saturate at both ends */
      kout = (int)th_range(-30, 2);
      out_s = scale_k(kout);
      out_zp = rand_zp(t);
    } else {
      kout = (int)th_range(-9, -5);
      out_s = scale_k(kout);
      out_zp = rand_zp(t);
    }
    if (i % 50 == 7) in_s = scale_k(120); /* d overflows to infinity */
    fk = (int)th_range(0, 19);
    f = tanh_ ? tanhf : expf;
    if (fk == 0) f = f_identity, special++;
    if (fk == 1) f = f_nan_above, special++;
    if (fk == 2) f = f_huge, special++;
    if (fk == 3) f = f_inf, special++;
    o_lut(tanh_, t, in_s, in_zp, out_s, out_zp, f, want);
    memset(&p, 0xA5, sizeof p);
    if (tanh_)
      CHECK_EQ(mrtq_tflite_tanh_lut_init(t, in_s, in_zp, out_s, out_zp, f, &p), MRTQ_OK, "tanh lut");
    else
      CHECK_EQ(mrtq_tflite_logistic_lut_init(t, in_s, in_zp, out_s, out_zp, f, &p), MRTQ_OK, "logistic lut");
    CHECK_EQ(p.type, t, "type");
    for (k = 0; k < 256; k++)
      CHECK_EQ(p.table[k], want[k], "%s lut %s [%d] in %a zp %d out %a zp %d fk %d", tanh_ ? "tanh" : "logistic",
               tname(t), k, in_s, in_zp, out_s, out_zp, fk);
    fill_inputs(in, t, 0);
    CHECK_EQ(mrtq_tflite_lut8(&p, 256, in, out), MRTQ_OK, "run");
    for (k = 0; k < 256; k++) {
      CHECK_EQ(out[k], want[in[k]], "lut8 %d", k);
      n++;
    }
    sets++;
  }
  /* constructed ties: identity "tanh", in 1/2, out 1: t = (x - zp) / 2 */
  {
    mrtq_tflite_lut8_params p;
    uint8_t want[256];
    long before = lut_ties;
    memset(&p, 0, sizeof p);
    o_lut(1, MRTQ_S8, 0.5f, 0, 1.0f, 0, f_identity, want);
    CHECK_EQ(mrtq_tflite_tanh_lut_init(MRTQ_S8, 0.5f, 0, 1.0f, 0, f_identity, &p), MRTQ_OK, "ties");
    for (k = 0; k < 256; k++) CHECK_EQ(p.table[k], want[k], "tie table [%d]", k);
    CHECK_EQ((int8_t)p.table[5], 3, "2.5 rounds to 3");
    CHECK_EQ((int8_t)p.table[(uint8_t)-5], -3, "-2.5 rounds to -3");
    CHECK(lut_ties - before == 128);
    /* in place */
    fill_inputs(in, MRTQ_S8, 0);
    CHECK_EQ(mrtq_tflite_lut8(&p, 256, in, in), MRTQ_OK, "in place");
    for (k = 0; k < 256; k++) CHECK_EQ(in[k], want[(uint8_t)(k - 128)], "in place %d", k);
    n += 256;
    memset(out, 0x5A, 8);
    CHECK_EQ(mrtq_tflite_lut8(&p, 0, in, out), MRTQ_OK, "n = 0");
    CHECK(out[0] == 0x5A && out[7] == 0x5A);
    in[0] = 9;
    CHECK_EQ(mrtq_tflite_lut8(&p, 1, in, out), MRTQ_OK, "n = 1");
    CHECK_EQ(out[0], want[9], "n = 1");
    CHECK(out[1] == 0x5A);
    n++;
  }
  printf("  logistic / tanh float table: %ld outputs, %ld tables of 256 compared (%ld with made-up functions); "
         "%ld ties, %ld NaN entries, %ld beyond int32\n",
         n, sets, special, lut_ties, lut_nan, lut_sat);
  CHECK(special > 0 && lut_ties > 0 && lut_nan > 0 && lut_sat > 0);
  compared += n + sets * 256;
}

/* ======================= LOGISTIC / TANH int16 ======================= */
/* TFLite's sigmoid_table_uint16 (kernels/internal/common.h, tflite-micro 90b983c2). */
static const uint16_t sigmoid_table_uint16[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498,
    40149, 40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255,
    46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865,
    52311, 52745, 53169, 53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174,
    56503, 56823, 57133, 57433, 57724, 58007, 58280, 58544, 58800, 59048, 59288,
    59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110, 61279, 61441,
    61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886,
    62990, 63090, 63186, 63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835,
    63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308, 64357, 64405, 64450,
    64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845,
    64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079, 65097,
    65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258,
    65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360,
    65367, 65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425,
    65429, 65433, 65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465,
    65468, 65471, 65474, 65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491,
    65493, 65495, 65497, 65498, 65500, 65501, 65503, 65504, 65505, 65507, 65508,
    65509, 65510, 65511, 65512, 65513, 65514, 65515, 65516, 65517, 65517, 65518,
    65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524, 65525,
    65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529,
    65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531, 65531, 65531, 65531,
    65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533, 65533, 65533,
    65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
    65534, 65534, 65535};

/* The int16 Prepare (logistic_common.cc / tanh.cc). CheckedLog2 is TFLite's
 * logf-based test with tolerance 1e-3; the scales drawn here are exact
 * powers of two or have a mantissa in [0.51, 0.99] (|log2 frac| >= 0.0145),
 * where it and an exact test agree, so the oracle decides it with frexp.
 * Returns 0, 1 (the multiplier above 32767: TFLite's DCHECK), 2 (it truncates
 * to 0), 3 (m in (32767, 32768): trunc(m) = 32767, accepted by TFLite; the
 * multiplier and shift are set as for 0 -- test_fx16_window). */
static int o_fx16_prepare(float s, int tanh_, int32_t *mult, int32_t *shift) {
  int e, pot;
  const double q = frexp((double)s, &e);
  const int log2_rounded = e - 1;
  pot = q == 0.5;
  *shift = (15 - 3) + log2_rounded;
  pot = pot && (*shift == 0 || (tanh_ && *shift == 1));
  if (pot) {
    *mult = 0;
  } else {
    double multiplier = (double)s * 4096.0 * 3.0;
    *shift = 0;
    while (multiplier <= 32767.0 / 2.0 && *shift <= 30) {
      (*shift)++;
      multiplier = multiplier * 2.0;
    }
    if (multiplier >= 32768.0) return 1;
    *mult = (int32_t)multiplier;
    if (multiplier > 32767.0) return 3;
    if (*mult == 0) return 2;
  }
  return 0;
}
/* reference_integer_ops::Logistic (int16). */
static int16_t o_logistic16(int32_t input_multiplier, int32_t input_left_shift, int16_t x) {
  int64_t acc;
  int32_t round_, input_data;
  uint32_t abs_input_data, uh, result;
  if (input_multiplier == 0) {
    input_multiplier = 3 << input_left_shift;
    input_left_shift = 0;
  }
  round_ = (input_left_shift > 0) ? 1 << (input_left_shift - 1) : 0;
  acc = (int64_t)x * input_multiplier + round_;
  CHECK(acc >= INT32_MIN && acc <= INT32_MAX); /* TFLite's int32 expression */
  input_data = (int32_t)o_asr(acc, input_left_shift);
  abs_input_data = (uint32_t)(input_data < 0 ? -input_data : input_data);
  uh = abs_input_data >> 9;
  if (uh >= 255) {
    result = 0x7FFFu << 10;
  } else {
    const uint32_t ua = sigmoid_table_uint16[uh], ub = sigmoid_table_uint16[uh + 1], ut = abs_input_data & 0x1ff;
    result = (ua << 9) + ut * (ub - ua);
  }
  result = (input_data >= 0) ? (result + (1u << 9)) : ((1u << (16 + 9)) - result + (1u << 9) - 1);
  result >>= 10;
  return (int16_t)result;
}
/* reference_integer_ops::Tanh (int16). */
static int16_t o_tanh16(int32_t input_multiplier, int32_t input_left_shift, int16_t x) {
  int64_t acc;
  int32_t round_, input_data, result;
  uint32_t abs_input_data, uh;
  if (input_multiplier == 0) {
    input_multiplier = 3 << input_left_shift;
    input_left_shift = 0;
  }
  round_ = (input_left_shift > 0) ? 1 << (input_left_shift - 1) : 0;
  acc = (int64_t)x * input_multiplier + round_;
  CHECK(acc >= INT32_MIN && acc <= INT32_MAX);
  input_data = (int32_t)o_asr(acc, input_left_shift);
  abs_input_data = (uint32_t)(input_data < 0 ? -input_data : input_data);
  uh = abs_input_data >> 8;
  if (uh >= 255) {
    result = 0xFFFF << 8;
  } else {
    const uint32_t ua = sigmoid_table_uint16[uh], ub = sigmoid_table_uint16[uh + 1];
    const uint8_t ut = (uint8_t)(abs_input_data & 0xFF);
    result = (int32_t)((ua << 8) + ut * (ub - ua));
  }
  result = (input_data >= 0) ? (result - (1 << (14 + 9)) + (1 << (9 - 2))) : (-result + (1 << (14 + 9)) + (1 << (9 - 2)) - 1);
  result = (int32_t)o_asr(result, 9 - 1);
  return (int16_t)result;
}

/* A scale for the int16 Prepare: exactly 2^k, or a mantissa in [0.51, 0.99]. */
static float fx16_scale(int klo, int khi) {
  int k = (int)th_range(klo, khi);
  int kind = (int)th_range(0, 3);
  int64_t r;
  if (kind == 0) return (float)ldexp(1.0, k);
  r = th_range(0, 48000);
  return (float)ldexp(0.51 + (double)r / 100000.0, k);
}

static void test_fx16(void) {
  static int16_t in[65536], out[65536];
  long n = 0, inits = 0, refused = 0, pot = 0, window = 0, i;
  size_t c, k;
  int tanh_;
  /* Prepare */
  for (i = 0; i < 40000; i++) {
    mrtq_tflite_fx16_params p, keep;
    int32_t mult = 0, shift = 0;
    int st;
    const float s = fx16_scale(-50, 3);
    tanh_ = (int)(i % 2);
    st = o_fx16_prepare(s, tanh_, &mult, &shift);
    memset(&p, 0xA5, sizeof p);
    keep = p;
    window += st == 3;
    if (st == 1 || st == 2) {
      CHECK_REFUSED(tanh_ ? mrtq_tflite_tanh16_init(s, &p) : mrtq_tflite_logistic16_init(s, &p), MRTQ_ERANGE,
                    st == 1 ? "in_scale: 32768 / 12288 or more (TFLite's input multiplier exceeds 32767)"
                            : "in_scale: too small (TFLite's input multiplier truncates to 0)");
      CHECK(memcmp(&p, &keep, sizeof p) == 0);
      refused++;
      continue;
    }
    CHECK_EQ(tanh_ ? mrtq_tflite_tanh16_init(s, &p) : mrtq_tflite_logistic16_init(s, &p), MRTQ_OK, "init s=%a", s);
    CHECK_EQ(p.input_multiplier, mult, "%s mult s=%a", tanh_ ? "tanh" : "logistic", s);
    CHECK_EQ(p.input_left_shift, shift, "%s shift s=%a", tanh_ ? "tanh" : "logistic", s);
    pot += mult == 0;
    inits++;
  }
  /* the power-of-two forms and the edges, spelled out */
  {
    mrtq_tflite_fx16_params p;
    memset(&p, 0, sizeof p);
    CHECK_EQ(mrtq_tflite_logistic16_init(0x1p-12f, &p), MRTQ_OK, "2^-12");
    CHECK(p.input_multiplier == 0 && p.input_left_shift == 0);
    CHECK_EQ(mrtq_tflite_tanh16_init(0x1p-11f, &p), MRTQ_OK, "2^-11 tanh");
    CHECK(p.input_multiplier == 0 && p.input_left_shift == 1);
    /* a power of two with another shift: the doubled multiplier, 6 2^12 */
    CHECK_EQ(mrtq_tflite_logistic16_init(0x1p-11f, &p), MRTQ_OK, "2^-11 logistic");
    CHECK(p.input_multiplier == 24576 && p.input_left_shift == 12);
    CHECK_EQ(mrtq_tflite_tanh16_init(0x1p-10f, &p), MRTQ_OK, "2^-10 tanh");
    CHECK(p.input_multiplier == 24576 && p.input_left_shift == 11);
    CHECK_REFUSED(mrtq_tflite_logistic16_init(2.7f, &p), MRTQ_ERANGE, "in_scale: 32768 / 12288 or more");
    CHECK_REFUSED(mrtq_tflite_tanh16_init(0x1p-46f, &p), MRTQ_ERANGE, "in_scale: too small");
    CHECK_EQ(mrtq_tflite_tanh16_init(0x1p-44f, &p), MRTQ_OK, "2^-44");
    CHECK(p.input_multiplier == 1 && p.input_left_shift == 31); /* 3 2^-32 2^31 = 1.5 */
  }
  /* the kernels: every input for a few parameter sets, random ones otherwise */
  for (i = 0; i < 1400; i++) {
    mrtq_tflite_fx16_params p;
    int32_t mult = 0, shift = 0;
    int all = i < 14;
    float s;
    tanh_ = (int)(i % 2);
    if (i < 2)
      s = 0x1p-12f;
    else if (i < 4)
      s = 0x1p-11f;
    else if (i < 6)
      s = 0x1.8p-13f;
    else if (i < 8)
      s = 2.6f;
    else if (i < 10)
      s = 0x1.3p-44f;
    else if (i < 12)
      s = 0x1p-16f;
    else
      s = fx16_scale(-46, 1);
    if (o_fx16_prepare(s, tanh_, &mult, &shift)) continue;
    memset(&p, 0, sizeof p);
    CHECK_EQ(tanh_ ? mrtq_tflite_tanh16_init(s, &p) : mrtq_tflite_logistic16_init(s, &p), MRTQ_OK, "init");
    c = fill_inputs(in, MRTQ_S16, all);
    CHECK_EQ(tanh_ ? mrtq_tflite_tanh16(&p, c, in, out) : mrtq_tflite_logistic16(&p, c, in, out), MRTQ_OK, "run");
    for (k = 0; k < c; k++) {
      const int16_t want = tanh_ ? o_tanh16(mult, shift, in[k]) : o_logistic16(mult, shift, in[k]);
      CHECK_EQ(out[k], want, "%s16 x=%d s=%a {%d, %d}", tanh_ ? "tanh" : "logistic", in[k], s, mult, shift);
      n++;
    }
  }
  /* hand-filled structs over the kernels' ranges (mult 0: shift 0 or 1) */
  for (i = 0; i < 400; i++) {
    mrtq_tflite_fx16_params p;
    int kind = (int)th_range(0, 3);
    tanh_ = (int)(i % 2);
    memset(&p, 0, sizeof p);
    if (kind == 0) {
      p.input_multiplier = 0;
      p.input_left_shift = (int32_t)th_range(0, 1);
    } else {
      p.input_multiplier = kind == 1 ? 32767 : (int32_t)th_range(1, 32767);
      p.input_left_shift = (int32_t)th_range(0, 31);
    }
    c = fill_inputs(in, MRTQ_S16, 0);
    CHECK_EQ(tanh_ ? mrtq_tflite_tanh16(&p, c, in, out) : mrtq_tflite_logistic16(&p, c, in, out), MRTQ_OK, "run");
    for (k = 0; k < c; k++) {
      const int16_t want = tanh_ ? o_tanh16(p.input_multiplier, p.input_left_shift, in[k])
                                 : o_logistic16(p.input_multiplier, p.input_left_shift, in[k]);
      CHECK_EQ(out[k], want, "hand-filled %s16 x=%d {%d, %d}", tanh_ ? "tanh" : "logistic", in[k], p.input_multiplier,
               p.input_left_shift);
      n++;
    }
  }
  /* in place, n = 0, n = 1 */
  for (tanh_ = 0; tanh_ < 2; tanh_++) {
    mrtq_tflite_fx16_params p;
    int32_t mult = 0, shift = 0;
    memset(&p, 0, sizeof p);
    CHECK_EQ(o_fx16_prepare(0x1.4p-12f, tanh_, &mult, &shift), 0, "oracle");
    CHECK_EQ(tanh_ ? mrtq_tflite_tanh16_init(0x1.4p-12f, &p) : mrtq_tflite_logistic16_init(0x1.4p-12f, &p), MRTQ_OK,
             "init");
    c = fill_inputs(in, MRTQ_S16, 1);
    CHECK_EQ(tanh_ ? mrtq_tflite_tanh16(&p, c, in, in) : mrtq_tflite_logistic16(&p, c, in, in), MRTQ_OK, "in place");
    for (k = 0; k < c; k++) {
      const int16_t x = (int16_t)((int32_t)k - 32768);
      CHECK_EQ(in[k], tanh_ ? o_tanh16(mult, shift, x) : o_logistic16(mult, shift, x), "in place %d", x);
      n++;
    }
    out[0] = out[1] = 0x5A5A;
    CHECK_EQ(tanh_ ? mrtq_tflite_tanh16(&p, 0, in, out) : mrtq_tflite_logistic16(&p, 0, in, out), MRTQ_OK, "n = 0");
    CHECK(out[0] == 0x5A5A);
    in[0] = -12345;
    CHECK_EQ(tanh_ ? mrtq_tflite_tanh16(&p, 1, in, out) : mrtq_tflite_logistic16(&p, 1, in, out), MRTQ_OK, "n = 1");
    CHECK_EQ(out[0], tanh_ ? o_tanh16(mult, shift, -12345) : o_logistic16(mult, shift, -12345), "n = 1");
    CHECK(out[1] == 0x5A5A);
    n++;
  }
  printf("  logistic / tanh int16: %ld inits compared (%ld power-of-two forms, %ld refused, %ld in the (32767, "
         "32768) window, as TFLite: also test_fx16_window); %ld outputs\n",
         inits, pot, refused, window, n);
  CHECK(pot > 0 && refused > 0);
  compared += n + inits;
}

/* ======================= refusals ======================= */
static void test_refusals(void) {
  static int16_t in[16], out[16], al[16];
  mrtq_tflite_relu_params rp, rq, rk;
  mrtq_tflite_leaky_relu_params lp, lq, lk;
  mrtq_tflite_prelu_params pp, pq, pk;
  mrtq_tflite_hard_swish_params hp, hq, hk;
  mrtq_tflite_fx8_params fp, fq, fk;
  mrtq_tflite_lut8_params tp, tq, tk;
  mrtq_tflite_fx16_params sp, sq, sk;
  const mrtq_dtype bad = (mrtq_dtype)0, s32 = MRTQ_S32, s4 = MRTQ_S4;
  const size_t sh[1] = {4};
  int k;
  memset(in, 0, sizeof in);
  memset(al, 0, sizeof al);

  /* ---- RELU ---- */
  memset(&rq, 0xA5, sizeof rq);
  rk = rq;
  CHECK_REFUSED(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU, MRTQ_S8, 1.0f, 0, 1.0f, 0, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_NONE, MRTQ_S8, 1.0f, 0, 1.0f, 0, &rq), MRTQ_EINVAL,
                "act: must be RELU, RELU_N1_TO_1 or RELU6");
  CHECK_REFUSED(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_TANH, MRTQ_S8, 1.0f, 0, 1.0f, 0, &rq), MRTQ_EINVAL,
                "act: must be RELU");
  CHECK_REFUSED(mrtq_tflite_relu_init((mrtq_tflite_act)99, MRTQ_S8, 1.0f, 0, 1.0f, 0, &rq), MRTQ_EINVAL,
                "act: must be RELU");
  CHECK_REFUSED(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU, bad, 1.0f, 0, 1.0f, 0, &rq), MRTQ_EINVAL,
                "type: not an mrtq_dtype (0: a zero-initialised struct)");
  CHECK_REFUSED(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU, (mrtq_dtype)77, 1.0f, 0, 1.0f, 0, &rq), MRTQ_EINVAL,
                "type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU, s32, 1.0f, 0, 1.0f, 0, &rq), MRTQ_EUNSUPPORTED,
                "type: not a type this operator takes");
  CHECK_REFUSED(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU, s4, 1.0f, 0, 1.0f, 0, &rq), MRTQ_EUNSUPPORTED,
                "type: not a type this operator takes");
  CHECK_REFUSED(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU, MRTQ_S8, NAN, 0, 1.0f, 0, &rq), MRTQ_EINVAL,
                "in_scale: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU, MRTQ_S8, -1.0f, 0, 1.0f, 0, &rq), MRTQ_EINVAL,
                "in_scale: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU, MRTQ_S8, 1.0f, 0, 0.0f, 0, &rq), MRTQ_EINVAL,
                "out_scale: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU, MRTQ_S8, 1.0f, 0, INFINITY, 0, &rq), MRTQ_EINVAL,
                "out_scale: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU, MRTQ_S8, 1.0f, 128, 1.0f, 0, &rq), MRTQ_EINVAL,
                "in_zp: outside type (0 for MRTQ_S16)");
  CHECK_REFUSED(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU, MRTQ_S16, 1.0f, 1, 1.0f, 0, &rq), MRTQ_EINVAL,
                "in_zp: outside type (0 for MRTQ_S16)");
  CHECK_REFUSED(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU, MRTQ_U8, 1.0f, 0, 1.0f, -1, &rq), MRTQ_EINVAL,
                "out_zp: outside type (0 for MRTQ_S16)");
  CHECK_REFUSED(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU, MRTQ_S16, 1.0f, 0, 1.0f, -5, &rq), MRTQ_EINVAL,
                "out_zp: outside type (0 for MRTQ_S16)");
  CHECK_REFUSED(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU, MRTQ_S8, 4e9f, 0, 1.0f, 0, &rq), MRTQ_ERANGE,
                "in_scale / out_scale: 2^30 or more (TFLite's shift overflows)");
  CHECK_REFUSED(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU_N1_TO_1, MRTQ_S8, 1e-20f, 0, 1e-20f, 0, &rq), MRTQ_ERANGE,
                "scale: f / scale rounds outside");
  CHECK(memcmp(&rq, &rk, sizeof rq) == 0);
  CHECK_REFUSED(mrtq_tflite_relu6_init_micro(MRTQ_S8, 1.0f, 0, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_relu6_init_micro(bad, 1.0f, 0, &rq), MRTQ_EINVAL,
                "type: not an mrtq_dtype (0: a zero-initialised struct)");
  CHECK_REFUSED(mrtq_tflite_relu6_init_micro(s32, 1.0f, 0, &rq), MRTQ_EUNSUPPORTED, "type: not a type this operator takes");
  CHECK_REFUSED(mrtq_tflite_relu6_init_micro(MRTQ_U8, 1.0f, 0, &rq), MRTQ_EUNSUPPORTED,
                "type: TFLite Micro's RELU6 takes MRTQ_S8 or MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_relu6_init_micro(MRTQ_S8, 0.0f, 0, &rq), MRTQ_EINVAL, "in_scale: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_relu6_init_micro(MRTQ_S8, 1.0f, -129, &rq), MRTQ_EINVAL, "in_zp: outside type");
  CHECK_REFUSED(mrtq_tflite_relu6_init_micro(MRTQ_S16, 1.0f, 32768, &rq), MRTQ_EINVAL, "in_zp: outside type");
  CHECK_REFUSED(mrtq_tflite_relu6_init_micro(MRTQ_S16, 1e-30f, 0, &rq), MRTQ_ERANGE, "scale: f / scale rounds outside");
  CHECK(memcmp(&rq, &rk, sizeof rq) == 0);
  memset(&rp, 0, sizeof rp);
  CHECK_EQ(mrtq_tflite_relu_init(MRTQ_TFLITE_ACT_RELU6, MRTQ_S8, 0.1f, 1, 0.1f, 2, &rp), MRTQ_OK, "relu init");
  for (k = 0; k < 16; k++) out[k] = 0x5A5A;
  CHECK_REFUSED(mrtq_tflite_relu(NULL, 4, in, out), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_relu(&rp, 4, NULL, out), MRTQ_EINVAL, "in: NULL");
  CHECK_REFUSED(mrtq_tflite_relu(&rp, 4, in, NULL), MRTQ_EINVAL, "out: NULL");
  rq = rp, rq.type = bad;
  CHECK_REFUSED(mrtq_tflite_relu(&rq, 4, in, out), MRTQ_EINVAL, "p->type: not an mrtq_dtype (0: a zero-initialised struct)");
  rq = rp, rq.type = s32;
  CHECK_REFUSED(mrtq_tflite_relu(&rq, 4, in, out), MRTQ_EUNSUPPORTED, "p->type: not a type this operator takes");
  rq = rp, rq.in_zp = 200;
  CHECK_REFUSED(mrtq_tflite_relu(&rq, 4, in, out), MRTQ_EINVAL, "p->in_zp: outside p->type");
  rq = rp, rq.out_zp = -129;
  CHECK_REFUSED(mrtq_tflite_relu(&rq, 4, in, out), MRTQ_EINVAL, "p->out_zp: outside p->type");
  rq = rp, rq.type = MRTQ_S16, rq.in_zp = 1, rq.out_zp = 2; /* int16 zero points: a TFLite Micro RELU6 struct */
  CHECK_EQ(mrtq_tflite_relu(&rq, 4, in, out), MRTQ_OK, "int16 zero points in the struct");
  rq = rp, rq.qmin = 5, rq.qmax = 4;
  CHECK_REFUSED(mrtq_tflite_relu(&rq, 4, in, out), MRTQ_EINVAL, "p->qmin, p->qmax: outside p->type or qmin > qmax");
  rq = rp, rq.qmax = 128;
  CHECK_REFUSED(mrtq_tflite_relu(&rq, 4, in, out), MRTQ_EINVAL, "p->qmin, p->qmax: outside p->type");
  rq = rp, rq.qmin = -129;
  CHECK_REFUSED(mrtq_tflite_relu(&rq, 4, in, out), MRTQ_EINVAL, "p->qmin, p->qmax: outside p->type");
  rq = rp, rq.m.mult = -1;
  CHECK_REFUSED(mrtq_tflite_relu(&rq, 4, in, out), MRTQ_ERANGE, "p->m: mult negative or shift outside [-31, 30]");
  rq = rp, rq.m.shift = 31;
  CHECK_REFUSED(mrtq_tflite_relu(&rq, 4, in, out), MRTQ_ERANGE, "p->m: mult negative or shift outside [-31, 30]");
  rq = rp, rq.m.shift = -32;
  CHECK_REFUSED(mrtq_tflite_relu(&rq, 4, in, out), MRTQ_ERANGE, "p->m: mult negative or shift outside [-31, 30]");
  rq = rp, rq.m.shift = -31, rq.m.mult = INT32_MAX;
  CHECK_EQ(mrtq_tflite_relu(&rq, 4, in, out), MRTQ_OK, "shift -31 accepted");
  for (k = 4; k < 16; k++) CHECK_EQ(out[k], 0x5A5A, "untouched beyond n %d", k);
  for (k = 0; k < 16; k++) out[k] = 0x5A5A;
  rq = rp, rq.m.shift = 31;
  CHECK_REFUSED(mrtq_tflite_relu(&rq, 16, in, out), MRTQ_ERANGE, "p->m");
  for (k = 0; k < 16; k++) CHECK_EQ(out[k], 0x5A5A, "refused relu: untouched %d", k);

  /* ---- LEAKY_RELU ---- */
  memset(&lq, 0xA5, sizeof lq);
  lk = lq;
  CHECK_REFUSED(mrtq_tflite_leaky_relu_init(MRTQ_S8, 1.0f, 0, 0.1f, 1.0f, 0, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_leaky_relu_init(bad, 1.0f, 0, 0.1f, 1.0f, 0, &lq), MRTQ_EINVAL,
                "type: not an mrtq_dtype (0: a zero-initialised struct)");
  CHECK_REFUSED(mrtq_tflite_leaky_relu_init(s4, 1.0f, 0, 0.1f, 1.0f, 0, &lq), MRTQ_EUNSUPPORTED,
                "type: not a type this operator takes");
  CHECK_REFUSED(mrtq_tflite_leaky_relu_init(MRTQ_S8, -INFINITY, 0, 0.1f, 1.0f, 0, &lq), MRTQ_EINVAL,
                "in_scale: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_leaky_relu_init(MRTQ_S8, 1.0f, 0, 0.1f, NAN, 0, &lq), MRTQ_EINVAL,
                "out_scale: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_leaky_relu_init(MRTQ_S8, 1.0f, 0, NAN, 1.0f, 0, &lq), MRTQ_EINVAL, "alpha: NaN or infinite");
  CHECK_REFUSED(mrtq_tflite_leaky_relu_init(MRTQ_S8, 1.0f, 0, -INFINITY, 1.0f, 0, &lq), MRTQ_EINVAL,
                "alpha: NaN or infinite");
  CHECK_REFUSED(mrtq_tflite_leaky_relu_init(MRTQ_U8, 1.0f, 256, 0.1f, 1.0f, 0, &lq), MRTQ_EINVAL, "in_zp: outside type");
  CHECK_REFUSED(mrtq_tflite_leaky_relu_init(MRTQ_S16, 1.0f, 0, 0.1f, 1.0f, 40000, &lq), MRTQ_EINVAL,
                "out_zp: outside type");
  CHECK_REFUSED(mrtq_tflite_leaky_relu_init(MRTQ_S8, 1e30f, 0, 0.1f, 1e-30f, 0, &lq), MRTQ_ERANGE,
                "in_scale / out_scale: 2^30 or more (TFLite's shift overflows)");
  CHECK_REFUSED(mrtq_tflite_leaky_relu_init(MRTQ_S8, 1.0f, 0, -0x1p+30f, 1.0f, 0, &lq), MRTQ_ERANGE,
                "in_scale * alpha / out_scale: magnitude 2^30 or more (TFLite's shift overflows)");
  CHECK_REFUSED(mrtq_tflite_leaky_relu_init(MRTQ_S8, 1e30f, 0, 1e10f, 1.0f, 0, &lq), MRTQ_ERANGE,
                "in_scale / out_scale: 2^30 or more");
  CHECK_REFUSED(mrtq_tflite_leaky_relu_init(MRTQ_S8, 1e20f, 0, 1e20f, 1e15f, 0, &lq), MRTQ_ERANGE,
                "in_scale * alpha / out_scale: magnitude"); /* the float product overflows */
  CHECK(memcmp(&lq, &lk, sizeof lq) == 0);
  memset(&lp, 0, sizeof lp);
  CHECK_EQ(mrtq_tflite_leaky_relu_init(MRTQ_S8, 1.0f, 0, -0x1.fffffep+29f, 1.0f, 0, &lp), MRTQ_OK, "alpha -2^30+");
  CHECK(lp.alpha.mult == 2147483520 && lp.alpha.shift == 30 && lp.alpha_negative == 1);
  CHECK_EQ(mrtq_tflite_leaky_relu_init(MRTQ_S8, 0.1f, 1, 0.2f, 0.1f, 2, &lp), MRTQ_OK, "leaky init");
  for (k = 0; k < 16; k++) out[k] = 0x5A5A;
  CHECK_REFUSED(mrtq_tflite_leaky_relu(NULL, 4, in, out), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_leaky_relu(&lp, 4, NULL, out), MRTQ_EINVAL, "in: NULL");
  CHECK_REFUSED(mrtq_tflite_leaky_relu(&lp, 4, in, NULL), MRTQ_EINVAL, "out: NULL");
  lq = lp, lq.type = bad;
  CHECK_REFUSED(mrtq_tflite_leaky_relu(&lq, 4, in, out), MRTQ_EINVAL,
                "p->type: not an mrtq_dtype (0: a zero-initialised struct)");
  lq = lp, lq.type = s32;
  CHECK_REFUSED(mrtq_tflite_leaky_relu(&lq, 4, in, out), MRTQ_EUNSUPPORTED, "p->type: not a type this operator takes");
  lq = lp, lq.in_zp = 128;
  CHECK_REFUSED(mrtq_tflite_leaky_relu(&lq, 4, in, out), MRTQ_EINVAL, "p->in_zp: outside p->type");
  lq = lp, lq.out_zp = -200;
  CHECK_REFUSED(mrtq_tflite_leaky_relu(&lq, 4, in, out), MRTQ_EINVAL, "p->out_zp: outside p->type");
  lq = lp, lq.alpha_negative = 2;
  CHECK_REFUSED(mrtq_tflite_leaky_relu(&lq, 4, in, out), MRTQ_EINVAL, "p->alpha_negative: not 0 or 1");
  lq = lp, lq.alpha_negative = -1;
  CHECK_REFUSED(mrtq_tflite_leaky_relu(&lq, 4, in, out), MRTQ_EINVAL, "p->alpha_negative: not 0 or 1");
  lq = lp, lq.identity.mult = INT32_MIN;
  CHECK_REFUSED(mrtq_tflite_leaky_relu(&lq, 4, in, out), MRTQ_ERANGE,
                "p->identity: mult negative or shift outside [-31, 30]");
  lq = lp, lq.identity.shift = 31;
  CHECK_REFUSED(mrtq_tflite_leaky_relu(&lq, 4, in, out), MRTQ_ERANGE, "p->identity: mult negative");
  lq = lp, lq.alpha.mult = -5;
  CHECK_REFUSED(mrtq_tflite_leaky_relu(&lq, 4, in, out), MRTQ_ERANGE, "p->alpha: mult negative or shift outside [-31, 30]");
  lq = lp, lq.alpha.shift = -40;
  CHECK_REFUSED(mrtq_tflite_leaky_relu(&lq, 4, in, out), MRTQ_ERANGE, "p->alpha: mult negative");
  for (k = 0; k < 16; k++) CHECK_EQ(out[k], 0x5A5A, "refused leaky: untouched %d", k);

  /* ---- PRELU ---- */
  memset(&pq, 0xA5, sizeof pq);
  pk = pq;
  CHECK_REFUSED(mrtq_tflite_prelu_init(MRTQ_S8, 1.0f, 0, 0.1f, 0, 1.0f, 0, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_prelu_init_micro(MRTQ_S8, 1.0f, 0, 0.1f, 0, 1.0f, 0, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_prelu_init(bad, 1.0f, 0, 0.1f, 0, 1.0f, 0, &pq), MRTQ_EINVAL,
                "type: not an mrtq_dtype (0: a zero-initialised struct)");
  CHECK_REFUSED(mrtq_tflite_prelu_init_micro((mrtq_dtype)6, 1.0f, 0, 0.1f, 0, 1.0f, 0, &pq), MRTQ_EINVAL,
                "type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_tflite_prelu_init(s32, 1.0f, 0, 0.1f, 0, 1.0f, 0, &pq), MRTQ_EUNSUPPORTED,
                "type: not a type this operator takes");
  CHECK_REFUSED(mrtq_tflite_prelu_init_micro(s4, 1.0f, 0, 0.1f, 0, 1.0f, 0, &pq), MRTQ_EUNSUPPORTED,
                "type: not a type this operator takes");
  CHECK_REFUSED(mrtq_tflite_prelu_init_micro(MRTQ_U8, 1.0f, 0, 0.1f, 0, 1.0f, 0, &pq), MRTQ_EUNSUPPORTED,
                "type: TFLite Micro's PRELU takes MRTQ_S8 or MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_prelu_init(MRTQ_S16, 1.0f, 0, 0.1f, 0, 1.0f, 0, &pq), MRTQ_EUNSUPPORTED,
                "type: the TF interpreter's PRELU takes MRTQ_S8 or MRTQ_U8");
  CHECK_REFUSED(mrtq_tflite_prelu_init(MRTQ_S8, 0.0f, 0, 0.1f, 0, 1.0f, 0, &pq), MRTQ_EINVAL,
                "in_scale: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_prelu_init_micro(MRTQ_S8, 1.0f, 0, -0.1f, 0, 1.0f, 0, &pq), MRTQ_EINVAL,
                "alpha_scale: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_prelu_init(MRTQ_U8, 1.0f, 0, INFINITY, 0, 1.0f, 0, &pq), MRTQ_EINVAL,
                "alpha_scale: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_prelu_init(MRTQ_S8, 1.0f, 0, 0.1f, 0, NAN, 0, &pq), MRTQ_EINVAL,
                "out_scale: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_prelu_init(MRTQ_U8, 1.0f, -1, 0.1f, 0, 1.0f, 0, &pq), MRTQ_EINVAL, "in_zp: outside type");
  CHECK_REFUSED(mrtq_tflite_prelu_init_micro(MRTQ_S16, 1.0f, 0, 0.1f, 128, 1.0f, 0, &pq), MRTQ_EINVAL,
                "alpha_zp: outside the alpha type"); /* alpha int8 under an int16 input */
  CHECK_REFUSED(mrtq_tflite_prelu_init(MRTQ_U8, 1.0f, 0, 0.1f, 256, 1.0f, 0, &pq), MRTQ_EINVAL,
                "alpha_zp: outside the alpha type");
  CHECK_REFUSED(mrtq_tflite_prelu_init_micro(MRTQ_S8, 1.0f, 0, 0.1f, 0, 1.0f, 128, &pq), MRTQ_EINVAL,
                "out_zp: outside type");
  CHECK_REFUSED(mrtq_tflite_prelu_init(MRTQ_S8, 0x1p+30f, 0, 0.1f, 0, 1.0f, 0, &pq), MRTQ_ERANGE,
                "in_scale / out_scale: overflows or is 2^30 or more (TFLite's shift overflows)");
  CHECK_REFUSED(mrtq_tflite_prelu_init(MRTQ_S8, 1e30f, 0, 0.1f, 0, 1e-30f, 0, &pq), MRTQ_ERANGE,
                "in_scale / out_scale: overflows"); /* the float quotient overflows */
  CHECK_REFUSED(mrtq_tflite_prelu_init_micro(MRTQ_S8, 1e30f, 0, 0.1f, 0, 1e-30f, 0, &pq), MRTQ_ERANGE,
                "in_scale / out_scale: overflows or is 2^30 or more");
  CHECK_REFUSED(mrtq_tflite_prelu_init(MRTQ_S8, 1.0f, 0, 0x1p+30f, 0, 1.0f, 0, &pq), MRTQ_ERANGE,
                "in_scale * alpha_scale / out_scale: overflows or is 2^30 or more");
  CHECK_REFUSED(mrtq_tflite_prelu_init(MRTQ_S8, 1e30f, 0, 1e30f, 0, 1e30f, 0, &pq), MRTQ_ERANGE,
                "in_scale * alpha_scale / out_scale: overflows"); /* the float product overflows */
  CHECK_REFUSED(mrtq_tflite_prelu_init_micro(MRTQ_S16, 1.0f, 0, 0x1p+31f, 0, 1.0f, 0, &pq), MRTQ_ERANGE,
                "in_scale * alpha_scale / out_scale: overflows or is 2^30 or more");
  CHECK(memcmp(&pq, &pk, sizeof pq) == 0);
  /* in double, Micro takes what overflows the interpreter's float product */
  CHECK_REFUSED(mrtq_tflite_prelu_init(MRTQ_S8, 1e20f, 0, 1e20f, 0, 1e38f, 0, &pq), MRTQ_ERANGE,
                "in_scale * alpha_scale / out_scale: overflows");
  memset(&pp, 0, sizeof pp);
  CHECK_EQ(mrtq_tflite_prelu_init_micro(MRTQ_S8, 1e20f, 0, 1e20f, 0, 1e38f, 0, &pp), MRTQ_OK, "micro: double product");
  memset(&pp, 0, sizeof pp);
  CHECK_EQ(mrtq_tflite_prelu_init(MRTQ_S8, 0.1f, 1, 0.01f, 2, 0.05f, 3, &pp), MRTQ_OK, "prelu init");
  for (k = 0; k < 16; k++) out[k] = 0x5A5A;
  CHECK_REFUSED(mrtq_tflite_prelu(NULL, sh, 1, sh, 1, in, al, out), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_prelu(&pp, sh, 1, sh, 1, NULL, al, out), MRTQ_EINVAL, "in: NULL");
  CHECK_REFUSED(mrtq_tflite_prelu(&pp, sh, 1, sh, 1, in, al, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_prelu(&pp, sh, 1, sh, 1, in, NULL, out), MRTQ_EINVAL, "alpha: NULL");
  pq = pp, pq.type = bad;
  CHECK_REFUSED(mrtq_tflite_prelu(&pq, sh, 1, sh, 1, in, al, out), MRTQ_EINVAL,
                "p->type: not an mrtq_dtype (0: a zero-initialised struct)");
  pq = pp, pq.type = s32;
  CHECK_REFUSED(mrtq_tflite_prelu(&pq, sh, 1, sh, 1, in, al, out), MRTQ_EUNSUPPORTED, "p->type: not a type this operator takes");
  pq = pp, pq.alpha_type = bad;
  CHECK_REFUSED(mrtq_tflite_prelu(&pq, sh, 1, sh, 1, in, al, out), MRTQ_EINVAL,
                "p->alpha_type: not an mrtq_dtype (0: a zero-initialised struct)");
  pq = pp, pq.alpha_type = MRTQ_U8;
  CHECK_REFUSED(mrtq_tflite_prelu(&pq, sh, 1, sh, 1, in, al, out), MRTQ_EUNSUPPORTED,
                "p->alpha_type: must be p->type (8-bit) or MRTQ_S8 (p->type MRTQ_S16)");
  pq = pp, pq.type = MRTQ_S16, pq.alpha_type = MRTQ_S16;
  CHECK_REFUSED(mrtq_tflite_prelu(&pq, sh, 1, sh, 1, in, al, out), MRTQ_EUNSUPPORTED,
                "p->alpha_type: must be p->type (8-bit) or MRTQ_S8");
  pq = pp, pq.in_zp = -129;
  CHECK_REFUSED(mrtq_tflite_prelu(&pq, sh, 1, sh, 1, in, al, out), MRTQ_EINVAL, "p->in_zp: outside p->type");
  pq = pp, pq.alpha_zp = 128;
  CHECK_REFUSED(mrtq_tflite_prelu(&pq, sh, 1, sh, 1, in, al, out), MRTQ_EINVAL, "p->alpha_zp: outside p->alpha_type");
  pq = pp, pq.out_zp = 1000;
  CHECK_REFUSED(mrtq_tflite_prelu(&pq, sh, 1, sh, 1, in, al, out), MRTQ_EINVAL, "p->out_zp: outside p->type");
  pq = pp, pq.m1.mult = -1;
  CHECK_REFUSED(mrtq_tflite_prelu(&pq, sh, 1, sh, 1, in, al, out), MRTQ_ERANGE, "p->m1: mult negative or shift outside [-31, 30]");
  pq = pp, pq.m1.shift = 31;
  CHECK_REFUSED(mrtq_tflite_prelu(&pq, sh, 1, sh, 1, in, al, out), MRTQ_ERANGE, "p->m1: mult negative");
  pq = pp, pq.m2.mult = -1;
  CHECK_REFUSED(mrtq_tflite_prelu(&pq, sh, 1, sh, 1, in, al, out), MRTQ_ERANGE, "p->m2: mult negative or shift outside [-31, 30]");
  pq = pp, pq.m2.shift = -32;
  CHECK_REFUSED(mrtq_tflite_prelu(&pq, sh, 1, sh, 1, in, al, out), MRTQ_ERANGE, "p->m2: mult negative");
  CHECK_REFUSED(mrtq_tflite_prelu(&pp, sh, -1, sh, 1, in, al, out), MRTQ_EINVAL, "nda: must be in [0, MRTQ_MAX_DIMS]");
  CHECK_REFUSED(mrtq_tflite_prelu(&pp, NULL, 1, sh, 1, in, al, out), MRTQ_EINVAL, "shape_a: NULL with nda > 0");
  for (k = 0; k < 16; k++) CHECK_EQ(out[k], 0x5A5A, "refused prelu: untouched %d", k);
  memset(&pq, 0, sizeof pq); /* a zeroed struct: both types 0 */
  CHECK_REFUSED(mrtq_tflite_prelu(&pq, sh, 1, sh, 1, in, al, out), MRTQ_EINVAL, "p->type: not an mrtq_dtype");

  /* ---- HARD_SWISH ---- */
  memset(&hq, 0xA5, sizeof hq);
  hk = hq;
  CHECK_REFUSED(mrtq_tflite_hard_swish_init(MRTQ_S8, 1.0f, 0, 1.0f, 0, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_hard_swish_init(bad, 1.0f, 0, 1.0f, 0, &hq), MRTQ_EINVAL,
                "type: not an mrtq_dtype (0: a zero-initialised struct)");
  CHECK_REFUSED(mrtq_tflite_hard_swish_init(MRTQ_S16, 1.0f, 0, 1.0f, 0, &hq), MRTQ_EUNSUPPORTED,
                "type: not a type this operator takes");
  CHECK_REFUSED(mrtq_tflite_hard_swish_init(MRTQ_S8, -0.0f, 0, 1.0f, 0, &hq), MRTQ_EINVAL,
                "in_scale: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_hard_swish_init(MRTQ_S8, 1.0f, 0, -1.0f, 0, &hq), MRTQ_EINVAL,
                "out_scale: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_hard_swish_init(MRTQ_U8, 1.0f, 300, 1.0f, 0, &hq), MRTQ_EINVAL, "in_zp: outside type");
  CHECK_REFUSED(mrtq_tflite_hard_swish_init(MRTQ_S8, 1.0f, 0, 1.0f, 128, &hq), MRTQ_EINVAL, "out_zp: outside type");
  CHECK(memcmp(&hq, &hk, sizeof hq) == 0);
  memset(&hp, 0, sizeof hp);
  CHECK_EQ(mrtq_tflite_hard_swish_init(MRTQ_S8, 0.1f, 1, 0.05f, 2, &hp), MRTQ_OK, "hs init");
  for (k = 0; k < 16; k++) out[k] = 0x5A5A;
  CHECK_REFUSED(mrtq_tflite_hard_swish(NULL, 4, in, out), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_hard_swish(&hp, 4, NULL, out), MRTQ_EINVAL, "in: NULL");
  CHECK_REFUSED(mrtq_tflite_hard_swish(&hp, 4, in, NULL), MRTQ_EINVAL, "out: NULL");
  hq = hp, hq.type = bad;
  CHECK_REFUSED(mrtq_tflite_hard_swish(&hq, 4, in, out), MRTQ_EINVAL,
                "p->type: not an mrtq_dtype (0: a zero-initialised struct)");
  hq = hp, hq.type = MRTQ_S16;
  CHECK_REFUSED(mrtq_tflite_hard_swish(&hq, 4, in, out), MRTQ_EUNSUPPORTED, "p->type: not a type this operator takes");
  hq = hp, hq.in_zp = 128;
  CHECK_REFUSED(mrtq_tflite_hard_swish(&hq, 4, in, out), MRTQ_EINVAL, "p->in_zp: outside p->type");
  hq = hp, hq.type = MRTQ_U8, hq.in_zp = 0, hq.out_zp = -1;
  CHECK_REFUSED(mrtq_tflite_hard_swish(&hq, 4, in, out), MRTQ_EINVAL, "p->out_zp: outside p->type");
  hq = hp, hq.output_multiplier_fixedpoint_int16 = -1;
  CHECK_REFUSED(mrtq_tflite_hard_swish(&hq, 4, in, out), MRTQ_ERANGE, "p->output_multiplier_fixedpoint_int16: negative");
  hq = hp, hq.output_multiplier_exponent = 1;
  CHECK_REFUSED(mrtq_tflite_hard_swish(&hq, 4, in, out), MRTQ_ERANGE, "p->output_multiplier_exponent: outside [-31, 0]");
  hq = hp, hq.output_multiplier_exponent = -32;
  CHECK_REFUSED(mrtq_tflite_hard_swish(&hq, 4, in, out), MRTQ_ERANGE, "p->output_multiplier_exponent: outside [-31, 0]");
  hq = hp, hq.reluish_multiplier_fixedpoint_int16 = INT16_MIN;
  CHECK_REFUSED(mrtq_tflite_hard_swish(&hq, 4, in, out), MRTQ_ERANGE, "p->reluish_multiplier_fixedpoint_int16: negative");
  hq = hp, hq.reluish_multiplier_exponent = 32;
  CHECK_REFUSED(mrtq_tflite_hard_swish(&hq, 4, in, out), MRTQ_ERANGE, "p->reluish_multiplier_exponent: outside [-31, 31]");
  hq = hp, hq.reluish_multiplier_exponent = -32;
  CHECK_REFUSED(mrtq_tflite_hard_swish(&hq, 4, in, out), MRTQ_ERANGE, "p->reluish_multiplier_exponent: outside [-31, 31]");
  for (k = 0; k < 16; k++) CHECK_EQ(out[k], 0x5A5A, "refused hard_swish: untouched %d", k);

  /* ---- LOGISTIC / TANH int8 fixed point ---- */
  memset(&fq, 0xA5, sizeof fq);
  fk = fq;
  CHECK_REFUSED(mrtq_tflite_fx8_init(0.1f, 0, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_fx8_init(NAN, 0, &fq), MRTQ_EINVAL, "in_scale: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_fx8_init(0.1f, 128, &fq), MRTQ_EINVAL, "in_zp: outside int8");
  CHECK_REFUSED(mrtq_tflite_fx8_init(1e-20f, 0, &fq), MRTQ_ERANGE,
                "in_scale: below 2^-28 or 2^35 or more (TFLite's input radius shifts by a negative amount or overflows)");
  CHECK(memcmp(&fq, &fk, sizeof fq) == 0);
  memset(&fp, 0, sizeof fp);
  CHECK_EQ(mrtq_tflite_fx8_init(0.1f, 3, &fp), MRTQ_OK, "fx8 init");
  for (k = 0; k < 16; k++) out[k] = 0x5A5A;
  for (k = 0; k < 2; k++) {
    mrtq_status (*fn)(const mrtq_tflite_fx8_params *, size_t, const int8_t *, int8_t *) =
        k ? mrtq_tflite_tanh : mrtq_tflite_logistic;
    const int8_t *i8 = (const int8_t *)in;
    int8_t *o8 = (int8_t *)out;
    CHECK_REFUSED(fn(NULL, 4, i8, o8), MRTQ_EINVAL, "p: NULL");
    CHECK_REFUSED(fn(&fp, 4, NULL, o8), MRTQ_EINVAL, "in: NULL");
    CHECK_REFUSED(fn(&fp, 4, i8, NULL), MRTQ_EINVAL, "out: NULL");
    fq = fp, fq.input_zp = -129;
    CHECK_REFUSED(fn(&fq, 4, i8, o8), MRTQ_ERANGE, "p->input_zp: outside int8");
    fq = fp, fq.input_range_radius = -1;
    CHECK_REFUSED(fn(&fq, 4, i8, o8), MRTQ_ERANGE, "p->input_range_radius: negative");
    fq = fp, fq.input_multiplier = -1;
    CHECK_REFUSED(fn(&fq, 4, i8, o8), MRTQ_ERANGE, "p->input_multiplier: negative");
    fq = fp, fq.input_left_shift = -1;
    CHECK_REFUSED(fn(&fq, 4, i8, o8), MRTQ_ERANGE, "p->input_left_shift: outside [0, 62]");
    fq = fp, fq.input_left_shift = 63;
    CHECK_REFUSED(fn(&fq, 4, i8, o8), MRTQ_ERANGE, "p->input_left_shift: outside [0, 62]");
  }
  for (k = 0; k < 16; k++) CHECK_EQ(out[k], 0x5A5A, "refused fx8: untouched %d", k);

  /* ---- LOGISTIC / TANH float table ---- */
  memset(&tq, 0xA5, sizeof tq);
  tk = tq;
  CHECK_REFUSED(mrtq_tflite_logistic_lut_init(MRTQ_S8, 0.1f, 0, 1.0f / 256, -128, expf, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_tanh_lut_init(MRTQ_S8, 0.1f, 0, 1.0f / 128, 0, tanhf, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_logistic_lut_init(MRTQ_S8, 0.1f, 0, 1.0f / 256, -128, NULL, &tq), MRTQ_EINVAL,
                "expf_fn: NULL");
  CHECK_REFUSED(mrtq_tflite_tanh_lut_init(MRTQ_S8, 0.1f, 0, 1.0f / 128, 0, NULL, &tq), MRTQ_EINVAL, "tanhf_fn: NULL");
  CHECK_REFUSED(mrtq_tflite_logistic_lut_init(bad, 0.1f, 0, 1.0f / 256, -128, expf, &tq), MRTQ_EINVAL,
                "type: not an mrtq_dtype (0: a zero-initialised struct)");
  CHECK_REFUSED(mrtq_tflite_tanh_lut_init(MRTQ_S16, 0.1f, 0, 1.0f / 128, 0, tanhf, &tq), MRTQ_EUNSUPPORTED,
                "type: not a type this operator takes");
  CHECK_REFUSED(mrtq_tflite_logistic_lut_init(MRTQ_S8, INFINITY, 0, 1.0f / 256, -128, expf, &tq), MRTQ_EINVAL,
                "in_scale: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_tanh_lut_init(MRTQ_S8, 0.1f, 0, 0x1p-127f, 0, tanhf, &tq), MRTQ_EINVAL,
                "out_scale: NaN, infinite or below 2^-126");
  CHECK_REFUSED(mrtq_tflite_logistic_lut_init(MRTQ_S8, 0.1f, 0, -1.0f, 0, expf, &tq), MRTQ_EINVAL,
                "out_scale: NaN, infinite or below 2^-126");
  CHECK_REFUSED(mrtq_tflite_logistic_lut_init(MRTQ_U8, 0.1f, -1, 1.0f / 256, 0, expf, &tq), MRTQ_EINVAL,
                "in_zp: outside type");
  CHECK_REFUSED(mrtq_tflite_tanh_lut_init(MRTQ_S8, 0.1f, 0, 1.0f / 128, 200, tanhf, &tq), MRTQ_EINVAL,
                "out_zp: outside type");
  CHECK(memcmp(&tq, &tk, sizeof tq) == 0);
  memset(&tp, 0, sizeof tp);
  CHECK_EQ(mrtq_tflite_tanh_lut_init(MRTQ_S8, 0.1f, 0, 0x1p-126f, 0, tanhf, &tp), MRTQ_OK, "2^-126 accepted");
  CHECK_EQ(mrtq_tflite_tanh_lut_init(MRTQ_S8, 0.1f, 0, 1.0f / 128, 0, tanhf, &tp), MRTQ_OK, "lut init");
  for (k = 0; k < 16; k++) out[k] = 0x5A5A;
  CHECK_REFUSED(mrtq_tflite_lut8(NULL, 4, in, out), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_lut8(&tp, 4, NULL, out), MRTQ_EINVAL, "in: NULL");
  CHECK_REFUSED(mrtq_tflite_lut8(&tp, 4, in, NULL), MRTQ_EINVAL, "out: NULL");
  tq = tp, tq.type = bad;
  CHECK_REFUSED(mrtq_tflite_lut8(&tq, 4, in, out), MRTQ_EINVAL, "p->type: not an mrtq_dtype (0: a zero-initialised struct)");
  tq = tp, tq.type = MRTQ_S16;
  CHECK_REFUSED(mrtq_tflite_lut8(&tq, 4, in, out), MRTQ_EUNSUPPORTED, "p->type: not a type this operator takes");
  for (k = 0; k < 16; k++) CHECK_EQ(out[k], 0x5A5A, "refused lut8: untouched %d", k);

  /* ---- LOGISTIC / TANH int16 ---- */
  memset(&sq, 0xA5, sizeof sq);
  sk = sq;
  CHECK_REFUSED(mrtq_tflite_logistic16_init(0.001f, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_tanh16_init(0.001f, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_logistic16_init(0.0f, &sq), MRTQ_EINVAL, "in_scale: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_tanh16_init(NAN, &sq), MRTQ_EINVAL, "in_scale: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_logistic16_init(3.0f, &sq), MRTQ_ERANGE,
                "in_scale: 32768 / 12288 or more (TFLite's input multiplier exceeds 32767)");
  CHECK_REFUSED(mrtq_tflite_tanh16_init(1e-20f, &sq), MRTQ_ERANGE,
                "in_scale: too small (TFLite's input multiplier truncates to 0)");
  CHECK(memcmp(&sq, &sk, sizeof sq) == 0);
  memset(&sp, 0, sizeof sp);
  CHECK_EQ(mrtq_tflite_logistic16_init(0.001f, &sp), MRTQ_OK, "fx16 init");
  for (k = 0; k < 16; k++) out[k] = 0x5A5A;
  for (k = 0; k < 2; k++) {
    mrtq_status (*fn)(const mrtq_tflite_fx16_params *, size_t, const int16_t *, int16_t *) =
        k ? mrtq_tflite_tanh16 : mrtq_tflite_logistic16;
    CHECK_REFUSED(fn(NULL, 4, in, out), MRTQ_EINVAL, "p: NULL");
    CHECK_REFUSED(fn(&sp, 4, NULL, out), MRTQ_EINVAL, "in: NULL");
    CHECK_REFUSED(fn(&sp, 4, in, NULL), MRTQ_EINVAL, "out: NULL");
    sq = sp, sq.input_multiplier = 32768;
    CHECK_REFUSED(fn(&sq, 4, in, out), MRTQ_ERANGE, "p->input_multiplier: outside [0, 32767]");
    sq = sp, sq.input_multiplier = -1;
    CHECK_REFUSED(fn(&sq, 4, in, out), MRTQ_ERANGE, "p->input_multiplier: outside [0, 32767]");
    sq = sp, sq.input_left_shift = 32;
    CHECK_REFUSED(fn(&sq, 4, in, out), MRTQ_ERANGE,
                  "p->input_left_shift: outside [0, 31] ([0, 1] with input_multiplier 0)");
    sq = sp, sq.input_left_shift = -1;
    CHECK_REFUSED(fn(&sq, 4, in, out), MRTQ_ERANGE, "p->input_left_shift: outside [0, 31]");
    sq = sp, sq.input_multiplier = 0, sq.input_left_shift = 2;
    CHECK_REFUSED(fn(&sq, 4, in, out), MRTQ_ERANGE, "([0, 1] with input_multiplier 0)");
  }
  for (k = 0; k < 16; k++) CHECK_EQ(out[k], 0x5A5A, "refused fx16: untouched %d", k);
}

/* ======================= where mrtq and TFLite differ ======================= */
/* HARD_SWISH: TFLite's reference kernel adds the output zero point to an
 * int16_t (output_value += params.output_zero_point), which wraps modulo
 * 2^16 when the rescaled value plus the zero point passes 32767. That needs
 * an output exponent of 0 (in / out in [64, 128)) and, for the largest
 * rescaled value 32638, a zero point of 130 or more: uint8 only (the TF
 * interpreter). Example: uint8, in_scale 1, in_zp 0, out_scale 0x1.000002p-7
 * (in / out just below 128), out_zp 255, input 255: TFLite's int16 sum is
 * 32638 + 255 = 32893, stored as -32643 and clamped to 0; mrtq gives 255.
 * The checks below expect TFLite's bytes. */
static void test_hard_swish_wrap(void) {
  static uint8_t in[256], out[256];
  mrtq_tflite_hard_swish_params p;
  o_hs_t o;
  long wraps = 0, n = 0;
  int k, wrapped, zp;
  for (zp = 120; zp <= 255; zp += 15) {
    memset(&o, 0, sizeof o);
    CHECK_EQ(o_hs_prepare(1.0f, 0x1.000002p-7f, &o), 0, "oracle");
    memset(&p, 0, sizeof p);
    CHECK_EQ(mrtq_tflite_hard_swish_init(MRTQ_U8, 1.0f, 0, 0x1.000002p-7f, zp, &p), MRTQ_OK, "init");
    fill_inputs(in, MRTQ_U8, 0);
    CHECK_EQ(mrtq_tflite_hard_swish(&p, 256, in, out), MRTQ_OK, "run");
    for (k = 0; k < 256; k++) {
      const int32_t want = o_hs(&o, MRTQ_U8, 0, zp, k, &wrapped);
      wraps += wrapped;
      CHECK_EQ(out[k], want, "hard_swish u8 x=%d out_zp %d%s", k, zp, wrapped ? " (TFLite's int16 sum wraps)" : "");
      n++;
    }
  }
  printf("  hard_swish int16 wrap: %ld outputs, %ld where TFLite's zero-point sum wraps\n", n, wraps);
  CHECK(wraps > 0);
}

/* LOGISTIC / TANH int16 Prepare: for in_scale in (32767 / 12288, 32768 / 12288)
 * the multiplier m = in_scale 12288 lies in (32767, 32768) with shift 0;
 * TFLite stores trunc(m) = 32767, which its TFLITE_DCHECK_LE(input_multiplier,
 * 32767) accepts, and runs; so does mrtq. */
static void test_fx16_window(void) {
  const float scales[3] = {2.66664f, 0x1.55553p+1f, 0x1.5554ep+1f};
  int i, tanh_;
  for (i = 0; i < 3; i++) {
    for (tanh_ = 0; tanh_ < 2; tanh_++) {
      mrtq_tflite_fx16_params p;
      int32_t mult = 0, shift = 0;
      CHECK_EQ(o_fx16_prepare(scales[i], tanh_, &mult, &shift), 3, "in the window: %a", scales[i]);
      CHECK(mult == 32767 && shift == 0);
      memset(&p, 0, sizeof p);
      CHECK_EQ(tanh_ ? mrtq_tflite_tanh16_init(scales[i], &p) : mrtq_tflite_logistic16_init(scales[i], &p), MRTQ_OK,
               "%s16 init at %a (m = %.4f)", tanh_ ? "tanh" : "logistic", scales[i], (double)scales[i] * 12288.0);
      CHECK_EQ(p.input_multiplier, mult, "mult");
      CHECK_EQ(p.input_left_shift, shift, "shift");
    }
  }
}

/* TFLite Micro's RELU6 on int16 with a non-zero zero point: Relu6Prepare
 * does not check it, mrtq_tflite_relu6_init_micro(MRTQ_S16, s, zp != 0, &p)
 * fills in_zp = out_zp = qmin = zp, and Relu6Quantized clamps an input to
 * [zp, six]. */
static void test_relu6_micro_s16_zp(void) {
  static int16_t in[65536], out[65536];
  static const int32_t zps[4] = {0, 5, -300, 32767};
  long n = 0;
  int i;
  mrtq_status st;
  size_t c, k;
  for (i = 0; i < 4; i++) {
    mrtq_tflite_relu_params p;
    const float s = 0.01f, v = 6.0f / s;
    const int32_t zp = zps[i], six = clampi((int64_t)round((double)v) + zp, -32768, 32767);
    memset(&p, 0, sizeof p);
    CHECK_EQ(mrtq_tflite_relu6_init_micro(MRTQ_S16, s, zp, &p), MRTQ_OK, "init zp %d", zp);
    CHECK(p.in_zp == zp && p.out_zp == zp && p.qmin == zp && p.qmax == six);
    c = fill_inputs(in, MRTQ_S16, 1);
    memset(out, 0, sizeof out);
    st = mrtq_tflite_relu(&p, c, in, out);
    CHECK_EQ(st, MRTQ_OK, "relu6 micro s16 run, zp %d", zp);
    if (st != MRTQ_OK) continue; /* one failure per zero point, not 65536 */
    for (k = 0; k < c; k++) {
      const int32_t x = in[k];
      CHECK_EQ(out[k], x > six ? six : x < zp ? zp : x, "relu6 micro s16 x=%d zp %d", x, zp);
      n++;
    }
  }
  printf("  relu6 (TFLite Micro) int16 with zero points 0, 5, -300, 32767: %ld outputs\n", n);
}

int main(void) {
  TH_RUN(test_relu_prepare);
  TH_RUN(test_relu_bound_ties);
  TH_RUN(test_relu_kernel);
  TH_RUN(test_relu6_micro);
  TH_RUN(test_leaky_prepare);
  TH_RUN(test_leaky_kernel);
  TH_RUN(test_prelu_prepare);
  TH_RUN(test_prelu_kernel);
  TH_RUN(test_hard_swish);
  TH_RUN(test_fx8);
  TH_RUN(test_lut8);
  TH_RUN(test_fx16);
  TH_RUN(test_refusals);
  TH_RUN(test_relu6_micro_s16_zp);
  TH_RUN(test_hard_swish_wrap);
  TH_RUN(test_fx16_window);
  printf("  total: %lld outputs and parameter sets compared\n", compared);
  return th_finish("test_activation");
}
