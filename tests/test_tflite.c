/* The TFLite porting helpers (mrtq/tflite.h, mrtq_clamp_bounds_tflite in
 * mrtq/eltwise.h, mrtq_rq_from_mult / _ch in mrtq/requant.h), each against
 * TFLite's own formulas restated here from its sources (read at
 * tensorflow/tflite-micro 90b983c2b3f1 for kernels/kernel_util.cc,
 * kernels/padding.h and internal/quantization_util.*; tensorflow/tensorflow
 * for tools/optimize/quantization_utils.cc), written the way TFLite writes
 * them -- libm's roundf (std::round), frexp, TFLite's loop nests and
 * checks -- not the way mrtq does:
 *  - fused activation bounds: Quantize + CalculateActivationRangeQuantized,
 *    the two tie examples as fixed cases, random scales and tie hunts;
 *  - SAME / VALID: ComputeOutSizeChecked and ComputePaddingWithOffsetChecked
 *    in int64, then mrtq_conv2d_out / mrtq_pool2d_out give TFLite's size;
 *  - (multiplier, shift) pairs: QuantizeMultiplier (frexp, roundf) and
 *    MultiplyByQuantizedMultiplier (exact 128-bit SRDHM / RDIVPOT from
 *    oracle.h); the (0, 0) pair through a per-channel conv whose oracle is
 *    TFLite's reference loop nest;
 *  - bias: SymmetricPerChannelBiasQuantize with SafeCast;
 *  - weights: FillPerChannelMinMax, SymmetricPerChannelQuantization and
 *    SymmetricPerChannelQuantizeValues over 4-D extended indices;
 *  - every refusal with its reason. */
#include <math.h>

#include "harness.h"
#include "mrtq.h"
#include "oracle.h"

static long long compared;

static float rand_unit(void) { return (float)(th_rand32() >> 8) / 16777216.0f; } /* [0, 1) */
/* A positive float spread over many binades: 2^[lo, hi) times [1, 2). */
static float rand_scale(int lo, int hi) {
  float m = 1.0f + rand_unit(); /* one draw after the other: the same sequence on every compiler */
  int e = (int)th_range(lo, hi - 1);
  return ldexpf(m, e);
}
/* (u - 1/2) * 2^e, u uniform in [0, 1), e uniform in [lo, hi]. */
static float rand_signed(int lo, int hi) {
  float u = rand_unit() - 0.5f;
  int e = (int)th_range(lo, hi);
  return u * ldexpf(1.0f, e);
}

/* ================= fused activation bounds ================= */

/* kernel_util.cc Quantize: tmp = TfLiteRound(f / scale) in float; refused
 * unless float(INT32_MIN) <= tmp <= float(INT32_MAX) (= 2^31); then
 * zp + (int32)tmp, here exact in 64 bits (TFLite's cast overflows at 2^31). */
static int o_quantize(float scale, int32_t zp, float f, int64_t *q) {
  const float tmp = roundf(f / scale);
  if (!(tmp >= (float)INT32_MIN && tmp <= (float)INT32_MAX)) return 0;
  *q = (int64_t)zp + (int64_t)tmp;
  return 1;
}

/* CalculateActivationRangeQuantizedImpl; 0 when TFLite refuses. */
static int o_act_range(int act, float scale, int32_t zp, int32_t qmin, int32_t qmax, int32_t *lo, int32_t *hi) {
  int64_t t, a = qmin, b = qmax;
  if (act == 1) { /* kTfLiteActRelu */
    if (!o_quantize(scale, zp, 0.0f, &t)) return 0;
    a = t > qmin ? t : qmin;
  } else if (act == 3) { /* kTfLiteActRelu6 */
    if (!o_quantize(scale, zp, 0.0f, &t)) return 0;
    a = t > qmin ? t : qmin;
    if (!o_quantize(scale, zp, 6.0f, &t)) return 0;
    b = t < qmax ? t : qmax;
  } else if (act == 2) { /* kTfLiteActReluN1To1 */
    if (!o_quantize(scale, zp, -1.0f, &t)) return 0;
    a = t > qmin ? t : qmin;
    if (!o_quantize(scale, zp, 1.0f, &t)) return 0;
    b = t < qmax ? t : qmax;
  }
  *lo = (int32_t)a, *hi = (int32_t)b;
  return 1;
}

static void type_range(mrtq_dtype t, int32_t *lo, int32_t *hi) {
  *lo = t == MRTQ_U8 ? 0 : t == MRTQ_S8 ? -128 : -32768;
  *hi = t == MRTQ_U8 ? 255 : t == MRTQ_S8 ? 127 : 32767;
}

static void test_act_fixed_ties(void) {
  int32_t lo = 0, hi = 0;
  /* 1 / (6/255) is 42.5 in float: away from zero 43, to even 42 */
  CHECK_EQ(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_RELU_N1_TO_1, 6.0f / 255.0f, 0, MRTQ_S8, &lo, &hi), MRTQ_OK, "n1to1");
  CHECK_EQ(lo, -43, "n1to1 lo"); CHECK_EQ(hi, 43, "n1to1 hi");
  CHECK_EQ(mrtq_clamp_bounds_tflite(-1.0f, 1.0f, 6.0f / 255.0f, 0, MRTQ_S8, &lo, &hi), MRTQ_OK, "tflite bounds");
  CHECK_EQ(lo, -43, "lo"); CHECK_EQ(hi, 43, "hi");
  CHECK_EQ(mrtq_clamp_bounds_onnx(-1.0f, 1.0f, 6.0f / 255.0f, 0, MRTQ_S8, &lo, &hi), MRTQ_OK, "onnx bounds");
  CHECK_EQ(lo, -42, "onnx lo"); CHECK_EQ(hi, 42, "onnx hi");
  /* 6 / 0.48 = 12.5: -128 + 13 = -115 (ONNX: -116) */
  CHECK_EQ(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_RELU6, 0.48f, -128, MRTQ_S8, &lo, &hi), MRTQ_OK, "relu6");
  CHECK_EQ(lo, -128, "relu6 lo"); CHECK_EQ(hi, -115, "relu6 hi");
  CHECK_EQ(mrtq_clamp_bounds_onnx(0.0f, 6.0f, 0.48f, -128, MRTQ_S8, &lo, &hi), MRTQ_OK, "onnx relu6");
  CHECK_EQ(hi, -116, "onnx relu6 hi");
  /* ReLU: [zp, tmax]; NONE: the type's range */
  CHECK_EQ(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_RELU, 0.1f, 7, MRTQ_U8, &lo, &hi), MRTQ_OK, "relu");
  CHECK(lo == 7 && hi == 255);
  CHECK_EQ(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_NONE, 0.1f, 0, MRTQ_S16, &lo, &hi), MRTQ_OK, "none");
  CHECK(lo == -32768 && hi == 32767);
  /* 6 / scale exactly 2^31 passes TFLite's check (its int32 cast then
   * overflows); mrtq computes zp + 2^31 exactly: the type's maximum */
  CHECK_EQ(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_RELU6, ldexpf(3.0f, -30), 5, MRTQ_S8, &lo, &hi), MRTQ_OK, "2^31");
  CHECK(lo == 5 && hi == 127);
  CHECK_EQ(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_RELU_N1_TO_1, ldexpf(1.0f, -31), -5, MRTQ_S16, &lo, &hi), MRTQ_OK,
           "-2^31");
  CHECK(lo == -32768 && hi == 32767);
  compared += 16;
}

static void test_act_random(void) {
  static const mrtq_dtype types[3] = {MRTQ_S8, MRTQ_U8, MRTQ_S16};
  long long n = 0, refused = 0, ties = 0;
  int it;
  for (it = 0; it < 300000; it++) {
    mrtq_dtype t = types[th_range(0, 2)];
    int act = (int)th_range(0, 3), ok;
    int32_t tmin, tmax, zp, lo = 99, hi = 99, wlo = 0, whi = 0;
    float scale;
    mrtq_status st;
    type_range(t, &tmin, &tmax);
    zp = (int32_t)th_range(tmin, tmax);
    if (it % 3 == 0) {
      /* a tie hunt: f / scale near k + 1/2 for f = 1 or 6 */
      float f = (th_rand32() & 1u) ? 1.0f : 6.0f;
      scale = f / ((float)th_range(0, 300) + 0.5f);
    } else {
      scale = rand_scale(-34, 8);
    }
    ok = o_act_range(act, scale, zp, tmin, tmax, &wlo, &whi);
    st = mrtq_tflite_act_range((mrtq_tflite_act)act, scale, zp, t, &lo, &hi);
    if (!ok) {
      CHECK_EQ(st, MRTQ_ERANGE, "refused by TFLite: act %d scale %a", act, scale);
      CHECK(lo == 99 && hi == 99);
      refused++;
      continue;
    }
    CHECK_EQ(st, MRTQ_OK, "act %d scale %a zp %d", act, scale, zp);
    CHECK_EQ(lo, wlo, "lo: act %d scale %a zp %d type %d", act, scale, zp, (int)t);
    CHECK_EQ(hi, whi, "hi: act %d scale %a zp %d type %d", act, scale, zp, (int)t);
    n += 2;
    /* the same bounds through mrtq_clamp_bounds_tflite; count where ONNX's rounding differs */
    if (act >= 2) {
      float flo = act == 2 ? -1.0f : 0.0f, fhi = act == 2 ? 1.0f : 6.0f;
      int32_t blo = 0, bhi = 0, elo = 0, ehi = 0;
      CHECK_EQ(mrtq_clamp_bounds_tflite(flo, fhi, scale, zp, t, &blo, &bhi), MRTQ_OK, "bounds");
      CHECK(blo == wlo && bhi == whi);
      CHECK_EQ(mrtq_clamp_bounds_onnx(flo, fhi, scale, zp, t, &elo, &ehi), MRTQ_OK, "onnx");
      ties += elo != blo || ehi != bhi;
      n += 2;
    }
  }
  CHECK(refused > 100);
  CHECK(ties > 1000); /* the tie hunt found half-integers where the two rules differ */
  printf("  act_range: %lld outputs compared (%lld TFLite refusals, %lld ONNX/TFLite tie differences)\n", n, refused,
         ties);
  compared += n;
}

/* mrtq_clamp_bounds_tflite on any bounds and type: zp + roundf(bound / scale)
 * saturated to the type (infinite bounds: the type's ends). */
static void test_clamp_bounds_tflite_random(void) {
  static const mrtq_dtype types[5] = {MRTQ_S8, MRTQ_U8, MRTQ_S16, MRTQ_S32, MRTQ_S4};
  long long n = 0;
  int it;
  for (it = 0; it < 200000; it++) {
    mrtq_dtype t = types[th_range(0, 4)];
    int32_t tmin = 0, tmax = 0, zp, lo = 0, hi = 0;
    float a = rand_signed(-4, 40), b, scale = rand_scale(-20, 10);
    double ra, rb;
    (void)mrtq_dtype_range(t, &tmin, &tmax);
    zp = (int32_t)th_range(tmin, tmax);
    b = a + fabsf(rand_signed(-4, 40));
    if (it % 50 == 0) a = -INFINITY;
    if (it % 70 == 0) b = INFINITY;
    ra = (double)roundf(a / scale) + zp, rb = (double)roundf(b / scale) + zp;
    CHECK_EQ(mrtq_clamp_bounds_tflite(a, b, scale, zp, t, &lo, &hi), MRTQ_OK, "%a %a %a", a, b, scale);
    CHECK_EQ(lo, ra < tmin ? tmin : ra > tmax ? tmax : (int64_t)ra, "lo %a / %a + %d", a, scale, zp);
    CHECK_EQ(hi, rb < tmin ? tmin : rb > tmax ? tmax : (int64_t)rb, "hi %a / %a + %d", b, scale, zp);
    n += 2;
  }
  printf("  clamp_bounds_tflite: %lld outputs compared\n", n);
  compared += n;
}

static void test_act_refusals(void) {
  int32_t lo = 1, hi = 2;
  CHECK_REFUSED(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_RELU, 0.1f, 0, MRTQ_S8, NULL, &hi), MRTQ_EINVAL, "qmin, qmax: NULL");
  CHECK_REFUSED(mrtq_tflite_act_range((mrtq_tflite_act)7, 0.1f, 0, MRTQ_S8, &lo, &hi), MRTQ_EINVAL,
                "act: not an mrtq_tflite_act");
  CHECK_REFUSED(mrtq_tflite_act_range((mrtq_tflite_act)-1, 0.1f, 0, MRTQ_S8, &lo, &hi), MRTQ_EINVAL,
                "act: not an mrtq_tflite_act");
  CHECK_REFUSED(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_TANH, 0.1f, 0, MRTQ_S8, &lo, &hi), MRTQ_EUNSUPPORTED,
                "act: TANH, SIGN_BIT and SIGMOID have no quantized clamp form (TFLite silently applies none)");
  CHECK_REFUSED(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_SIGN_BIT, 0.1f, 0, MRTQ_S8, &lo, &hi), MRTQ_EUNSUPPORTED,
                "act: TANH, SIGN_BIT");
  CHECK_REFUSED(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_SIGMOID, 0.1f, 0, MRTQ_S8, &lo, &hi), MRTQ_EUNSUPPORTED,
                "act: TANH, SIGN_BIT");
  CHECK_REFUSED(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_RELU, 0.0f, 0, MRTQ_S8, &lo, &hi), MRTQ_EINVAL,
                "scale: must be finite and > 0");
  CHECK_REFUSED(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_NONE, NAN, 0, MRTQ_S8, &lo, &hi), MRTQ_EINVAL,
                "scale: must be finite and > 0");
  CHECK_REFUSED(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_RELU, -0.5f, 0, MRTQ_S8, &lo, &hi), MRTQ_EINVAL,
                "scale: must be finite and > 0");
  CHECK_REFUSED(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_RELU, INFINITY, 0, MRTQ_S8, &lo, &hi), MRTQ_EINVAL,
                "scale: must be finite and > 0");
  CHECK_REFUSED(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_RELU, 0.1f, 0, (mrtq_dtype)0, &lo, &hi), MRTQ_EINVAL,
                "type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_RELU, 0.1f, 0, MRTQ_S32, &lo, &hi), MRTQ_EUNSUPPORTED,
                "type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S16 (TFLite refuses other types)");
  CHECK_REFUSED(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_RELU, 0.1f, 0, MRTQ_S4, &lo, &hi), MRTQ_EUNSUPPORTED,
                "type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_RELU, 0.1f, 128, MRTQ_S8, &lo, &hi), MRTQ_EINVAL,
                "zp: outside type");
  CHECK_REFUSED(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_RELU, 0.1f, -1, MRTQ_U8, &lo, &hi), MRTQ_EINVAL,
                "zp: outside type");
  /* 6 / scale above 2^31 (the next float after 2^31 is 2^31 + 256) */
  CHECK_REFUSED(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_RELU6, nextafterf(ldexpf(3.0f, -30), 0.0f), 0, MRTQ_S8, &lo, &hi),
                MRTQ_ERANGE, "scale: f / scale rounds outside [-2^31, 2^31] (TFLite refuses the model)");
  CHECK_REFUSED(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_RELU_N1_TO_1, 1e-12f, 0, MRTQ_S16, &lo, &hi), MRTQ_ERANGE,
                "scale: f / scale rounds outside");
  CHECK(lo == 1 && hi == 2); /* nothing written */
  /* the shared argument checks of mrtq_clamp_bounds_tflite */
  CHECK_REFUSED(mrtq_clamp_bounds_tflite(0.0f, 1.0f, 0.1f, 0, MRTQ_S8, &lo, NULL), MRTQ_EINVAL, "qlo, qhi: NULL");
  CHECK_REFUSED(mrtq_clamp_bounds_tflite(NAN, 1.0f, 0.1f, 0, MRTQ_S8, &lo, &hi), MRTQ_EINVAL, "lo: NaN");
  CHECK_REFUSED(mrtq_clamp_bounds_tflite(0.0f, NAN, 0.1f, 0, MRTQ_S8, &lo, &hi), MRTQ_EINVAL, "hi: NaN");
  CHECK_REFUSED(mrtq_clamp_bounds_tflite(2.0f, 1.0f, 0.1f, 0, MRTQ_S8, &lo, &hi), MRTQ_EINVAL, "lo, hi: lo > hi");
  CHECK_REFUSED(mrtq_clamp_bounds_tflite(0.0f, 1.0f, -1.0f, 0, MRTQ_S8, &lo, &hi), MRTQ_EINVAL,
                "scale: must be finite and > 0");
  CHECK_REFUSED(mrtq_clamp_bounds_tflite(0.0f, 1.0f, 0.1f, 0, (mrtq_dtype)9, &lo, &hi), MRTQ_EINVAL,
                "type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_clamp_bounds_tflite(0.0f, 1.0f, 0.1f, -9, MRTQ_S4, &lo, &hi), MRTQ_EINVAL, "zp: outside type");
  CHECK(lo == 1 && hi == 2);
}

/* ================= SAME / VALID padding ================= */

/* padding.h ComputeOutSizeChecked (int64; C division truncates toward zero
 * as C++'s does); 0 when TFLite refuses (a negative size). */
static int o_out_size(int same, int64_t in, int64_t k, int64_t stride, int64_t dil, int64_t *out) {
  const int64_t eff = (k - 1) * dil + 1;
  const int64_t v = same ? (in + stride - 1) / stride : (in + stride - eff) / stride;
  if (v < 0) return 0;
  *out = v;
  return 1;
}

/* ComputePaddingWithOffsetChecked: the padding before and the offset (the
 * odd one, which TFLite's kernels leave after). */
static void o_padding(int64_t stride, int64_t dil, int64_t in, int64_t k, int64_t out, int64_t *pad, int64_t *offset) {
  const int64_t eff = (k - 1) * dil + 1;
  int64_t total = (out - 1) * stride + eff - in;
  total = total > 0 ? total : 0;
  *offset = total % 2;
  *pad = total / 2;
}

static void test_pad_random(void) {
  long long n = 0, odd = 0, valid_empty = 0;
  int it;
  for (it = 0; it < 100000; it++) {
    int same = (int)(th_rand32() & 1u);
    mrtq_tflite_padding mode = same ? MRTQ_TFLITE_PAD_SAME : MRTQ_TFLITE_PAD_VALID;
    int64_t in = th_range(1, 300), k = th_range(1, 11), st = th_range(1, 5), dl = th_range(1, 4), wo, wp, wf;
    size_t out = 0, before = 0, after = 0;
    int ok = o_out_size(same, in, k, st, dl, &wo);
    mrtq_status s = mrtq_tflite_pad_axis(mode, (size_t)in, (size_t)k, (size_t)st, (size_t)dl, &out, &before, &after);
    if (!ok || wo == 0) { /* TFLite: no output (or refused); mrtq refuses both */
      CHECK_EQ(s, MRTQ_ESHAPE, "in %lld k %lld s %lld d %lld", (long long)in, (long long)k, (long long)st, (long long)dl);
      valid_empty++;
      continue;
    }
    o_padding(st, dl, in, k, wo, &wp, &wf);
    CHECK_EQ(s, MRTQ_OK, "axis");
    CHECK_EQ(out, wo, "out: same %d in %lld k %lld s %lld d %lld", same, (long long)in, (long long)k, (long long)st,
             (long long)dl);
    CHECK_EQ(before, wp, "before");
    CHECK_EQ(after, wp + wf, "after: the odd one after");
    odd += wf;
    n += 3;
  }
  CHECK(odd > 1000 && valid_empty > 100);
  printf("  pad_axis: %lld outputs compared (%lld odd totals, %lld VALID with no output)\n", n, odd, valid_empty);
  compared += n;
}

/* The pads filled into a conv shape / pooling layer make mrtq_conv2d_out /
 * mrtq_pool2d_out give TFLite's output size. */
static void test_pad_shapes(void) {
  long long n = 0, odd = 0;
  int it;
  for (it = 0; it < 20000; it++) {
    int same = (int)(th_rand32() & 1u);
    mrtq_tflite_padding mode = same ? MRTQ_TFLITE_PAD_SAME : MRTQ_TFLITE_PAD_VALID;
    mrtq_conv2d_shape s;
    mrtq_pool2d p;
    int64_t oh, ow, ph, fh, pw, fw;
    size_t ho = 0, wo = 0;
    int okh, okw;
    memset(&s, 0, sizeof s), memset(&p, 0, sizeof p);
    s.n = 1, s.c = s.o = s.groups = 1, s.layout = MRTQ_NHWC;
    s.h = (size_t)th_range(1, 64), s.w = (size_t)th_range(1, 64), s.kh = (size_t)th_range(1, 7), s.kw = (size_t)th_range(1, 7);
    s.stride_h = (size_t)th_range(1, 4), s.stride_w = (size_t)th_range(1, 4);
    s.dil_h = (size_t)th_range(1, 3), s.dil_w = (size_t)th_range(1, 3);
    okh = o_out_size(same, (int64_t)s.h, (int64_t)s.kh, (int64_t)s.stride_h, (int64_t)s.dil_h, &oh) && oh > 0;
    okw = o_out_size(same, (int64_t)s.w, (int64_t)s.kw, (int64_t)s.stride_w, (int64_t)s.dil_w, &ow) && ow > 0;
    if (!okh || !okw) {
      CHECK_EQ(mrtq_tflite_conv2d_pad(mode, &s), MRTQ_ESHAPE, "no output");
      continue;
    }
    o_padding((int64_t)s.stride_h, (int64_t)s.dil_h, (int64_t)s.h, (int64_t)s.kh, oh, &ph, &fh);
    o_padding((int64_t)s.stride_w, (int64_t)s.dil_w, (int64_t)s.w, (int64_t)s.kw, ow, &pw, &fw);
    CHECK_EQ(mrtq_tflite_conv2d_pad(mode, &s), MRTQ_OK, "conv pad");
    CHECK(s.pad_top == (size_t)ph && s.pad_bottom == (size_t)(ph + fh));
    CHECK(s.pad_left == (size_t)pw && s.pad_right == (size_t)(pw + fw));
    CHECK_EQ(mrtq_conv2d_out(&s, &ho, &wo), MRTQ_OK, "conv out");
    CHECK_EQ(ho, oh, "conv ho"); CHECK_EQ(wo, ow, "conv wo");
    odd += fh + fw;
    n += 6;
    /* pooling: no dilation */
    p.n = p.c = 1, p.layout = MRTQ_NHWC, p.type = MRTQ_S8;
    p.h = s.h, p.w = s.w, p.kh = s.kh, p.kw = s.kw, p.stride_h = s.stride_h, p.stride_w = s.stride_w;
    okh = o_out_size(same, (int64_t)p.h, (int64_t)p.kh, (int64_t)p.stride_h, 1, &oh) && oh > 0;
    okw = o_out_size(same, (int64_t)p.w, (int64_t)p.kw, (int64_t)p.stride_w, 1, &ow) && ow > 0;
    if (!okh || !okw) {
      CHECK_EQ(mrtq_tflite_pool2d_pad(mode, &p), MRTQ_ESHAPE, "no pool output");
      continue;
    }
    o_padding((int64_t)p.stride_h, 1, (int64_t)p.h, (int64_t)p.kh, oh, &ph, &fh);
    o_padding((int64_t)p.stride_w, 1, (int64_t)p.w, (int64_t)p.kw, ow, &pw, &fw);
    CHECK_EQ(mrtq_tflite_pool2d_pad(mode, &p), MRTQ_OK, "pool pad");
    CHECK(p.pad_top == (size_t)ph && p.pad_bottom == (size_t)(ph + fh));
    CHECK(p.pad_left == (size_t)pw && p.pad_right == (size_t)(pw + fw));
    CHECK_EQ(mrtq_pool2d_out(&p, &ho, &wo), MRTQ_OK, "pool out");
    CHECK_EQ(ho, oh, "pool ho"); CHECK_EQ(wo, ow, "pool wo");
    odd += fh + fw;
    n += 6;
  }
  CHECK(odd > 1000);
  printf("  conv2d_pad / pool2d_pad + _out: %lld outputs compared (%lld odd totals)\n", n, odd);
  compared += n;
}

static void test_pad_fixed(void) {
  size_t o = 0, b = 0, a = 0;
  mrtq_conv2d_shape s;
  mrtq_pool2d p;
  /* MobileNet's first layer: 224, 3x3, stride 2, SAME -> 112, total 1: pad 0 before, 1 after */
  CHECK_EQ(mrtq_tflite_pad_axis(MRTQ_TFLITE_PAD_SAME, 224, 3, 2, 1, &o, &b, &a), MRTQ_OK, "mobilenet");
  CHECK(o == 112 && b == 0 && a == 1);
  /* 7x7 stride 2 on 224 (ResNet): total 5 -> 2 before, 3 after */
  CHECK_EQ(mrtq_tflite_pad_axis(MRTQ_TFLITE_PAD_SAME, 224, 7, 2, 1, &o, &b, &a), MRTQ_OK, "resnet");
  CHECK(o == 112 && b == 2 && a == 3);
  /* dilation 2, 3 taps: e = 5; SAME stride 1 on 10: total 4 */
  CHECK_EQ(mrtq_tflite_pad_axis(MRTQ_TFLITE_PAD_SAME, 10, 3, 1, 2, &o, &b, &a), MRTQ_OK, "dilated");
  CHECK(o == 10 && b == 2 && a == 2);
  CHECK_EQ(mrtq_tflite_pad_axis(MRTQ_TFLITE_PAD_VALID, 10, 3, 1, 2, &o, &b, &a), MRTQ_OK, "valid");
  CHECK(o == 6 && b == 0 && a == 0);
  /* refusals */
  CHECK_REFUSED(mrtq_tflite_pad_axis(MRTQ_TFLITE_PAD_SAME, 10, 3, 1, 1, NULL, &b, &a), MRTQ_EINVAL,
                "out, before, after: NULL");
  CHECK_REFUSED(mrtq_tflite_pad_axis((mrtq_tflite_padding)0, 10, 3, 1, 1, &o, &b, &a), MRTQ_EINVAL,
                "pad: not an mrtq_tflite_padding (the .tflite schema's SAME = 0, VALID = 1 must be mapped)");
  CHECK_REFUSED(mrtq_tflite_pad_axis(MRTQ_TFLITE_PAD_SAME, 0, 3, 1, 1, &o, &b, &a), MRTQ_ESHAPE,
                "in, k, stride, dil: must be >= 1");
  CHECK_REFUSED(mrtq_tflite_pad_axis(MRTQ_TFLITE_PAD_SAME, 10, 3, 0, 1, &o, &b, &a), MRTQ_ESHAPE,
                "in, k, stride, dil: must be >= 1");
  CHECK_REFUSED(mrtq_tflite_pad_axis(MRTQ_TFLITE_PAD_SAME, 10, SIZE_MAX / 2, 1, 3, &o, &b, &a), MRTQ_ESHAPE,
                "k, dil: the dilated kernel (k - 1) * dil + 1 overflows size_t");
  CHECK_REFUSED(mrtq_tflite_pad_axis(MRTQ_TFLITE_PAD_VALID, 4, 3, 1, 2, &o, &b, &a), MRTQ_ESHAPE,
                "k: the dilated kernel is larger than in (VALID padding: no output)");
  CHECK(o == 6 && b == 0 && a == 0);
  memset(&s, 0, sizeof s);
  s.h = s.w = 8, s.kh = s.kw = 3, s.stride_h = s.stride_w = 1, s.dil_h = s.dil_w = 1;
  s.pad_top = 9;
  CHECK_REFUSED(mrtq_tflite_conv2d_pad(MRTQ_TFLITE_PAD_SAME, NULL), MRTQ_EINVAL, "s: NULL");
  CHECK_REFUSED(mrtq_tflite_conv2d_pad((mrtq_tflite_padding)3, &s), MRTQ_EINVAL, "pad: not an mrtq_tflite_padding");
  s.dil_w = 0;
  CHECK_REFUSED(mrtq_tflite_conv2d_pad(MRTQ_TFLITE_PAD_SAME, &s), MRTQ_ESHAPE,
                "s->h, s->w, s->kh, s->kw, s->stride_h, s->stride_w, s->dil_h, s->dil_w: must be >= 1");
  s.dil_w = 1, s.kh = SIZE_MAX / 2, s.dil_h = 4;
  CHECK_REFUSED(mrtq_tflite_conv2d_pad(MRTQ_TFLITE_PAD_SAME, &s), MRTQ_ESHAPE,
                "s->kh, s->dil_h: the dilated kernel overflows size_t");
  s.kh = 3, s.dil_h = 1, s.kw = SIZE_MAX / 2, s.dil_w = 4;
  CHECK_REFUSED(mrtq_tflite_conv2d_pad(MRTQ_TFLITE_PAD_SAME, &s), MRTQ_ESHAPE,
                "s->kw, s->dil_w: the dilated kernel overflows size_t");
  s.kw = 3, s.dil_w = 1, s.kh = 9;
  CHECK_REFUSED(mrtq_tflite_conv2d_pad(MRTQ_TFLITE_PAD_VALID, &s), MRTQ_ESHAPE,
                "s->kh: the dilated kernel is taller than s->h (VALID padding: no output)");
  s.kh = 3, s.dil_w = 5;
  CHECK_REFUSED(mrtq_tflite_conv2d_pad(MRTQ_TFLITE_PAD_VALID, &s), MRTQ_ESHAPE,
                "s->kw: the dilated kernel is wider than s->w (VALID padding: no output)");
  CHECK(s.pad_top == 9 && s.pad_bottom == 0); /* nothing written */
  s.dil_w = 1;
  CHECK_EQ(mrtq_tflite_conv2d_pad(MRTQ_TFLITE_PAD_VALID, &s), MRTQ_OK, "valid conv");
  CHECK(s.pad_top == 0 && s.pad_bottom == 0 && s.pad_left == 0 && s.pad_right == 0);
  memset(&p, 0, sizeof p);
  p.h = p.w = 5, p.kh = p.kw = 2, p.stride_h = p.stride_w = 2;
  CHECK_REFUSED(mrtq_tflite_pool2d_pad(MRTQ_TFLITE_PAD_SAME, NULL), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_pool2d_pad((mrtq_tflite_padding)0, &p), MRTQ_EINVAL, "pad: not an mrtq_tflite_padding");
  p.stride_h = 0;
  CHECK_REFUSED(mrtq_tflite_pool2d_pad(MRTQ_TFLITE_PAD_SAME, &p), MRTQ_ESHAPE,
                "p->h, p->w, p->kh, p->kw, p->stride_h, p->stride_w: must be >= 1");
  p.stride_h = 2, p.kh = 6;
  CHECK_REFUSED(mrtq_tflite_pool2d_pad(MRTQ_TFLITE_PAD_VALID, &p), MRTQ_ESHAPE,
                "p->kh: the window is taller than p->h (VALID padding: no output)");
  p.kh = 2, p.kw = 6;
  CHECK_REFUSED(mrtq_tflite_pool2d_pad(MRTQ_TFLITE_PAD_VALID, &p), MRTQ_ESHAPE,
                "p->kw: the window is wider than p->w (VALID padding: no output)");
  p.kw = 2;
  CHECK_EQ(mrtq_tflite_pool2d_pad(MRTQ_TFLITE_PAD_SAME, &p), MRTQ_OK, "pool same"); /* 5 / 2 -> 3, total 1 */
  CHECK(p.pad_top == 0 && p.pad_bottom == 1 && p.pad_left == 0 && p.pad_right == 1);
}

/* ================= (multiplier, shift) pairs ================= */

/* quantization_util.cc QuantizeMultiplier (default build), with libm. */
static void o_quantize_multiplier(double d, int32_t *mult, int *shift) {
  double q;
  int64_t qf;
  if (d == 0.) {
    *mult = 0, *shift = 0;
    return;
  }
  q = frexp(d, shift);
  qf = (int64_t)round(q * (double)(1LL << 31));
  if (qf == (1LL << 31)) qf /= 2, ++*shift;
  if (*shift < -31) *shift = 0, qf = 0;
  *mult = (int32_t)qf;
}

/* MultiplyByQuantizedMultiplier (double rounding), on oracle.h's exact SRDHM / RDIVPOT. */
static int32_t o_mbqm(int32_t x, int32_t mult, int shift) {
  int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  return o_rdivpot(o_srdhm((int32_t)((int64_t)x * ((int64_t)1 << left)), mult), right);
}

static int32_t o_clamp(int64_t v, int32_t lo, int32_t hi) { return (int32_t)(v < lo ? lo : v > hi ? hi : v); }

static void test_from_mult_random(void) {
  long long n = 0;
  int it, j;
  for (it = 0; it < 20000; it++) {
    double scale = (it % 97 == 0) ? ldexp(1.0, -33) * rand_unit() : (double)rand_scale(-31, 0);
    int32_t mult, zp = (int32_t)th_range(-128, 127), lo = (int32_t)th_range(-128, 0), hi = (int32_t)th_range(0, 127);
    int shift;
    mrtq_mult m;
    mrtq_rq rq, ri;
    memset(&rq, 0, sizeof rq), memset(&ri, 0, sizeof ri);
    o_quantize_multiplier(scale, &mult, &shift);
    m.mult = mult, m.shift = shift;
    CHECK_EQ(mrtq_rq_from_mult(MRTQ_Q31_DBL, m, zp, lo, hi, &rq), MRTQ_OK, "pair %d %d", mult, shift);
    if (mult != 0) { /* the same description as from the real scale */
      CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, scale, zp, lo, hi, &ri), MRTQ_OK, "init");
      CHECK(ri.m.mult == rq.m.mult && ri.m.shift == rq.m.shift && ri.scale == rq.scale && ri.zp == rq.zp &&
            ri.qmin == rq.qmin && ri.qmax == rq.qmax && ri.scheme == rq.scheme);
    }
    for (j = 0; j < 16; j++) {
      int32_t x = th_i32();
      CHECK_EQ(mrtq_rq_apply(&rq, x, -128, 127), o_clamp((int64_t)o_mbqm(x, mult, shift) + zp, lo, hi),
               "x %d pair %d %d", x, mult, shift);
      n++;
    }
  }
  /* Q31 single rounding and the Q15 families, on their own oracles */
  for (it = 0; it < 20000; it++) {
    int32_t x = th_i32(), mult = (int32_t)th_range(1 << 30, INT32_MAX);
    int shift = (int)th_range(-31, 30);
    mrtq_mult m;
    mrtq_rq rq;
    m.mult = mult, m.shift = shift;
    CHECK_EQ(mrtq_rq_from_mult(MRTQ_Q31_RNDNU, m, 0, INT32_MIN, INT32_MAX, &rq), MRTQ_OK, "rndnu");
    CHECK_EQ(mrtq_rq_apply(&rq, x, INT32_MIN, INT32_MAX), o_sat32(o_round_half_up((i128)x * mult, o_pow2(31 - shift))),
             "rndnu x %d m %d s %d", x, mult, shift);
    m.mult = (int32_t)th_range(1 << 14, (1 << 15) - 1), m.shift = (int)th_range(-15, 15);
    CHECK_EQ(mrtq_rq_from_mult(MRTQ_Q15_VTA, m, 3, -128, 127, &rq), MRTQ_OK, "vta");
    { /* (x * mult) mod 2^32 as int32, arithmetic shift by 15 - shift (floor) or left when negative (wraps) */
      int64_t p = (int64_t)(int32_t)(uint32_t)((uint64_t)(int64_t)x * (uint64_t)(int64_t)m.mult);
      int k = 15 - m.shift;
      int64_t y = k >= 0 ? (int64_t)o_floor_div(p, o_pow2(k)) : (int64_t)(int32_t)(uint32_t)((uint64_t)p << -k);
      CHECK_EQ(mrtq_rq_apply(&rq, x, -128, 127), o_clamp(y + 3, -128, 127), "vta x %d", x);
    }
    n += 2;
  }
  printf("  rq_from_mult: %lld outputs compared\n", n);
  compared += n;
}

static void test_from_mult_edges(void) {
  static const mrtq_scheme fixed[4] = {MRTQ_Q31_DBL, MRTQ_Q31_RNDNU, MRTQ_Q15_VTA, MRTQ_Q15_RNDNU};
  int32_t edges[TH_EDGES_MAX];
  int ne = th_edges(edges), i, k;
  long long n = 0;
  mrtq_mult m;
  mrtq_rq rq;
  memset(&rq, 0x5a, sizeof rq);
  /* (0, 0): every scheme maps every accumulator to clamp(zp) */
  m.mult = 0, m.shift = 0;
  for (k = 0; k < 4; k++) {
    CHECK_EQ(mrtq_rq_from_mult(fixed[k], m, -3, 0, 127, &rq), MRTQ_OK, "(0, 0)");
    for (i = 0; i < ne; i++, n++) CHECK_EQ(mrtq_rq_apply(&rq, edges[i], -128, 127), 0, "clamp(-3) to [0, 127]");
    CHECK_EQ(mrtq_rq_from_mult(fixed[k], m, 9, -128, 127, &rq), MRTQ_OK, "(0, 0)");
    for (i = 0; i < ne; i++, n++) CHECK_EQ(mrtq_rq_apply(&rq, edges[i], -128, 127), 9, "zp 9");
  }
  /* range ends accepted */
  m.mult = 1 << 30, m.shift = -31;
  CHECK_EQ(mrtq_rq_from_mult(MRTQ_Q31_DBL, m, 0, -128, 127, &rq), MRTQ_OK, "q31 low ends");
  m.mult = INT32_MAX, m.shift = 30;
  CHECK_EQ(mrtq_rq_from_mult(MRTQ_Q31_RNDNU, m, 0, -128, 127, &rq), MRTQ_OK, "q31 high ends");
  m.mult = 1 << 14, m.shift = -15;
  CHECK_EQ(mrtq_rq_from_mult(MRTQ_Q15_VTA, m, 0, -128, 127, &rq), MRTQ_OK, "q15 low ends");
  m.mult = (1 << 15) - 1, m.shift = 15;
  CHECK_EQ(mrtq_rq_from_mult(MRTQ_Q15_RNDNU, m, 0, -128, 127, &rq), MRTQ_OK, "q15 high ends");
  /* and refused one step outside */
  memset(&rq, 0x5a, sizeof rq);
  m.mult = (1 << 30) - 1, m.shift = 0;
  CHECK_REFUSED(mrtq_rq_from_mult(MRTQ_Q31_DBL, m, 0, -128, 127, &rq), MRTQ_ERANGE,
                "m.mult: must be in [2^30, 2^31 - 1] for a Q31 scheme (or the pair (0, 0))");
  m.mult = -(1 << 30);
  CHECK_REFUSED(mrtq_rq_from_mult(MRTQ_Q31_RNDNU, m, 0, -128, 127, &rq), MRTQ_ERANGE, "m.mult: must be in [2^30");
  m.mult = 1 << 30, m.shift = -32;
  CHECK_REFUSED(mrtq_rq_from_mult(MRTQ_Q31_DBL, m, 0, -128, 127, &rq), MRTQ_ERANGE,
                "m.shift: must be in [-31, 30] for a Q31 scheme");
  m.shift = 31;
  CHECK_REFUSED(mrtq_rq_from_mult(MRTQ_Q31_DBL, m, 0, -128, 127, &rq), MRTQ_ERANGE, "m.shift: must be in [-31, 30]");
  m.mult = 1 << 15, m.shift = 0;
  CHECK_REFUSED(mrtq_rq_from_mult(MRTQ_Q15_VTA, m, 0, -128, 127, &rq), MRTQ_ERANGE,
                "m.mult: must be in [2^14, 2^15 - 1] for a Q15 scheme (or the pair (0, 0))");
  m.mult = (1 << 14) - 1;
  CHECK_REFUSED(mrtq_rq_from_mult(MRTQ_Q15_RNDNU, m, 0, -128, 127, &rq), MRTQ_ERANGE, "m.mult: must be in [2^14");
  m.mult = 1 << 14, m.shift = 16;
  CHECK_REFUSED(mrtq_rq_from_mult(MRTQ_Q15_VTA, m, 0, -128, 127, &rq), MRTQ_ERANGE,
                "m.shift: must be in [-15, 15] for a Q15 scheme");
  m.shift = -16;
  CHECK_REFUSED(mrtq_rq_from_mult(MRTQ_Q15_VTA, m, 0, -128, 127, &rq), MRTQ_ERANGE, "m.shift: must be in [-15, 15]");
  m.mult = 0, m.shift = 3;
  CHECK_REFUSED(mrtq_rq_from_mult(MRTQ_Q31_DBL, m, 0, -128, 127, &rq), MRTQ_ERANGE,
                "m.shift: must be 0 when m.mult is 0 (the pair (0, 0) is a zero scale)");
  m.mult = 1 << 30, m.shift = 0;
  CHECK_REFUSED(mrtq_rq_from_mult(MRTQ_FP32, m, 0, -128, 127, &rq), MRTQ_EINVAL,
                "scheme: MRTQ_FP32 takes a float scale, not a (multiplier, shift) pair (use mrtq_rq_init)");
  CHECK_REFUSED(mrtq_rq_from_mult((mrtq_scheme)5, m, 0, -128, 127, &rq), MRTQ_EINVAL, "scheme: not an mrtq_scheme");
  CHECK_REFUSED(mrtq_rq_from_mult(MRTQ_Q31_DBL, m, 0, 5, 4, &rq), MRTQ_EINVAL, "qmin: must be <= qmax");
  CHECK_REFUSED(mrtq_rq_from_mult(MRTQ_Q31_DBL, m, 0, -128, 127, NULL), MRTQ_EINVAL, "rq: NULL");
  CHECK(rq.zp == 0x5a5a5a5a); /* nothing written */
  compared += n;
  printf("  rq_from_mult (0, 0) and ends: %lld outputs compared\n", n);
}

static void test_from_mult_ch(void) {
  int32_t mult[4] = {1 << 30, 0, INT32_MAX, 1518500250}, shift[4] = {-1, 0, -31, 2};
  mrtq_rq rq[4], one;
  int c;
  memset(rq, 0x5a, sizeof rq), memset(&one, 0, sizeof one);
  CHECK_EQ(mrtq_rq_from_mult_ch(MRTQ_Q31_DBL, mult, shift, 4, -7, -100, 100, rq), MRTQ_OK, "ch");
  for (c = 0; c < 4; c++) {
    mrtq_mult m;
    m.mult = mult[c], m.shift = shift[c];
    CHECK_EQ(mrtq_rq_from_mult(MRTQ_Q31_DBL, m, -7, -100, 100, &one), MRTQ_OK, "one");
    CHECK(one.scheme == rq[c].scheme && one.m.mult == rq[c].m.mult && one.m.shift == rq[c].m.shift &&
          one.zp == rq[c].zp && one.qmin == rq[c].qmin && one.qmax == rq[c].qmax && one.scale == rq[c].scale);
  }
  CHECK_EQ(mrtq_rq_from_mult_ch(MRTQ_Q31_DBL, NULL, NULL, 0, 0, 0, 0, NULL), MRTQ_OK, "n = 0");
  memset(rq, 0x5a, sizeof rq);
  CHECK_REFUSED(mrtq_rq_from_mult_ch(MRTQ_Q31_DBL, mult, shift, 4, 0, 0, 0, NULL), MRTQ_EINVAL, "rq: NULL while n > 0");
  CHECK_REFUSED(mrtq_rq_from_mult_ch(MRTQ_Q31_DBL, NULL, shift, 4, 0, 0, 0, rq), MRTQ_EINVAL,
                "mult, shift: NULL while n > 0");
  CHECK_REFUSED(mrtq_rq_from_mult_ch(MRTQ_FP32, mult, shift, 4, 0, 0, 0, rq), MRTQ_EINVAL, "scheme: MRTQ_FP32");
  CHECK_REFUSED(mrtq_rq_from_mult_ch(MRTQ_Q31_DBL, mult, shift, 4, 0, 1, 0, rq), MRTQ_EINVAL, "qmin: must be <= qmax");
  shift[3] = 31;
  CHECK_REFUSED(mrtq_rq_from_mult_ch(MRTQ_Q31_DBL, mult, shift, 4, 0, 0, 0, rq), MRTQ_ERANGE,
                "shift[c]: must be in [-31, 30] for a Q31 scheme");
  shift[3] = 2, mult[2] = 5;
  CHECK_REFUSED(mrtq_rq_from_mult_ch(MRTQ_Q31_DBL, mult, shift, 4, 0, 0, 0, rq), MRTQ_ERANGE,
                "mult[c]: must be in [2^30, 2^31 - 1] for a Q31 scheme (or the pair (0, 0))");
  mult[2] = INT32_MAX, shift[1] = -3;
  CHECK_REFUSED(mrtq_rq_from_mult_ch(MRTQ_Q31_DBL, mult, shift, 4, 0, 0, 0, rq), MRTQ_ERANGE,
                "shift[c]: must be 0 when mult[c] is 0 (the pair (0, 0) is a zero scale)");
  shift[1] = 0;
  CHECK_REFUSED(mrtq_rq_from_mult_ch(MRTQ_Q15_VTA, mult, shift, 4, 0, 0, 0, rq), MRTQ_ERANGE,
                "mult[c]: must be in [2^14, 2^15 - 1] for a Q15 scheme (or the pair (0, 0))");
  {
    int32_t m15[2] = {1 << 14, 1 << 14}, s15[2] = {0, 20};
    CHECK_REFUSED(mrtq_rq_from_mult_ch(MRTQ_Q15_RNDNU, m15, s15, 2, 0, 0, 0, rq), MRTQ_ERANGE,
                  "shift[c]: must be in [-15, 15] for a Q15 scheme");
  }
  CHECK(rq[0].zp == 0x5a5a5a5a); /* nothing written */
}

/* A per-channel int8 conv whose channel 1 has filter scale 0: TFLite's
 * QuantizeMultiplier gives it (0, 0) and its outputs are clamp(zp). The
 * oracle is TFLite's reference integer_ops conv loop nest (NHWC, OHWI,
 * taps outside the image skipped, acc += w * (x + input_offset), + bias,
 * MultiplyByQuantizedMultiplier, + output offset, clamp), with the pads of
 * padding.h. mrtq: mrtq_rq_from_mult_ch on the same pairs, mrtq_conv2d_q8. */
static void test_zero_pair_conv(void) {
  enum { H = 9, W = 7, C = 3, O = 4, KH = 3, KW = 2, SH = 2, SW = 1 };
  int8_t x[H * W * C], w[O * KH * KW * C], y[H * W * O];
  int32_t bias[O], mult[O], shift[O];
  const float s_in = 0.05f, s_out = 0.11f;
  float s_w[O];
  const int32_t x_zp = -6, y_zp = -2, act_lo = -2, act_hi = 127; /* ReLU: [y_zp, 127] */
  mrtq_conv2d_shape s;
  mrtq_rq rq[O];
  mrtq_qoperand qx, qw;
  int64_t oh, ow, ph, fh, pw, fw;
  int round, i, zero_ch_seen = 0;
  long long n = 0;
  for (round = 0; round < 30; round++) {
    int same = round & 1, oy, ox, oc;
    for (i = 0; i < H * W * C; i++) x[i] = (int8_t)th_range(-128, 127);
    for (i = 0; i < O * KH * KW * C; i++) w[i] = (int8_t)th_range(-127, 127);
    for (i = 0; i < O; i++) {
      s_w[i] = i == 1 ? 0.0f : rand_scale(-9, -5);
      bias[i] = (int32_t)th_range(-5000, 5000);
      int sh = 0;
      o_quantize_multiplier((double)s_in * (double)s_w[i] / (double)s_out, &mult[i], &sh);
      shift[i] = sh;
    }
    CHECK(mult[1] == 0 && shift[1] == 0);
    CHECK_EQ(mrtq_rq_from_mult_ch(MRTQ_Q31_DBL, mult, shift, O, y_zp, act_lo, act_hi, rq), MRTQ_OK, "rq");
    memset(&s, 0, sizeof s), memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
    s.n = 1, s.h = H, s.w = W, s.c = C, s.o = O, s.kh = KH, s.kw = KW, s.stride_h = SH, s.stride_w = SW;
    s.dil_h = s.dil_w = 1, s.groups = 1, s.layout = MRTQ_NHWC;
    CHECK_EQ(mrtq_tflite_conv2d_pad(same ? MRTQ_TFLITE_PAD_SAME : MRTQ_TFLITE_PAD_VALID, &s), MRTQ_OK, "pad");
    qx.data = x, qx.type = MRTQ_S8, qx.zp = x_zp, qw.data = w, qw.type = MRTQ_S8;
    CHECK_EQ(mrtq_conv2d_q8(&s, rq, O, &qx, &qw, bias, MRTQ_S8, y), MRTQ_OK, "conv");
    CHECK(o_out_size(same, H, KH, SH, 1, &oh) && o_out_size(same, W, KW, SW, 1, &ow));
    o_padding(SH, 1, H, KH, oh, &ph, &fh);
    o_padding(SW, 1, W, KW, ow, &pw, &fw);
    for (oy = 0; oy < oh; oy++)
      for (ox = 0; ox < ow; ox++)
        for (oc = 0; oc < O; oc++) {
          int32_t acc = 0, want;
          int fy, fx, ic;
          for (fy = 0; fy < KH; fy++)
            for (fx = 0; fx < KW; fx++) {
              int64_t iy = oy * SH - ph + fy, ix = ox * SW - pw + fx;
              if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
              for (ic = 0; ic < C; ic++)
                acc += w[((oc * KH + fy) * KW + fx) * C + ic] * (x[(iy * W + ix) * C + ic] + (-x_zp));
            }
          acc += bias[oc];
          acc = o_mbqm(acc, mult[oc], shift[oc]);
          want = o_clamp((int64_t)acc + y_zp, act_lo, act_hi);
          if (oc == 1) {
            CHECK_EQ(want, y_zp, "channel 1 is clamp(zp)");
            zero_ch_seen++;
          }
          CHECK_EQ(y[(oy * ow + ox) * O + oc], want, "y[%d][%d][%d] same %d", oy, ox, oc, same);
          n++;
        }
  }
  CHECK(zero_ch_seen > 0);
  printf("  conv2d_q8 with a (0, 0) channel: %lld outputs compared\n", n);
  compared += n;
}

/* ================= bias ================= */

/* SymmetricPerChannelBiasQuantize / SymmetricBiasQuantize with SafeCast, for
 * a signed integer of `bits` bits (32 or 64). */
static int64_t o_bias(float input_scale, float weight_scale, float data, int bits) {
  const float scaling_factor = input_scale * weight_scale;
  const float scaling_factor_inv = (scaling_factor == 0) ? 0 : 1.0 / scaling_factor;
  const float r = roundf(data * scaling_factor_inv);
  const int64_t kmax = bits == 32 ? INT32_MAX : INT64_MAX, kmin = -kmax - 1;
  const float min_value = (float)kmin, max_exclusive = bits == 32 ? 2147483648.0f : 9223372036854775808.0f;
  int64_t q;
  if (isnan(r))
    q = 0;
  else if (r < min_value)
    q = kmin;
  else if (r >= max_exclusive)
    q = kmax;
  else
    q = (int64_t)r;
  return q < -kmax ? -kmax : q > kmax ? kmax : q;
}

static void test_bias_fixed(void) {
  const float sw[2] = {0.25f, 0.0f}, b[8] = {0.1875f, -0.1875f, 0.3125f, -0.3125f, 1e30f, -1e30f, NAN, INFINITY};
  int32_t out[8];
  int64_t out64[8];
  const float b64[4] = {1e30f, -9223372036854775808.0f, 4611686018427387904.0f, -2.5f};
  /* s = 0.125, inv = 8: 1.5 -> 2, -1.5 -> -2, 2.5 -> 3 (away; ONNX's even would give 2), saturation, NaN -> 0 */
  static const int32_t want[8] = {2, -2, 3, -3, INT32_MAX, -INT32_MAX, 0, INT32_MAX};
  static const int64_t want64[4] = {INT64_MAX, -INT64_MAX, (int64_t)1 << 62, -3};
  int i;
  CHECK_EQ(mrtq_tflite_bias_s32(0.5f, sw, 1, b, 8, out), MRTQ_OK, "per layer");
  for (i = 0; i < 8; i++) CHECK_EQ(out[i], want[i], "b[%d]", i);
  /* per channel with a zero scale: 0 */
  CHECK_EQ(mrtq_tflite_bias_s32(0.5f, sw, 2, b, 2, out), MRTQ_OK, "per channel");
  CHECK(out[0] == 2 && out[1] == 0);
  CHECK_EQ(mrtq_tflite_bias_s64(1.0f, sw, 1, b64, 4, out64), MRTQ_OK, "s64"); /* inv = 4 */
  CHECK_EQ(out64[0], INT64_MAX, "1e30");
  CHECK_EQ(out64[1], -INT64_MAX, "-2^63 * 4 saturates; the clamp is symmetric");
  CHECK_EQ(out64[2], INT64_MAX, "2^62 * 4 = 2^64");
  CHECK_EQ(out64[3], -10, "-2.5 * 4");
  {
    const float b2[2] = {4611686018427387904.0f / 4, -2.5f / 4}; /* 2^60 * 4 = 2^62 exactly; -0.625 * 4 = -2.5 */
    CHECK_EQ(mrtq_tflite_bias_s64(1.0f, sw, 1, b2, 2, out64), MRTQ_OK, "s64 b");
    CHECK_EQ(out64[0], want64[2], "2^62");
    CHECK_EQ(out64[1], want64[3], "-2.5 away");
  }
  compared += 20;
  /* refusals */
  CHECK_REFUSED(mrtq_tflite_bias_s32(0.5f, NULL, 1, b, 8, out), MRTQ_EINVAL, "s_w: NULL");
  CHECK_REFUSED(mrtq_tflite_bias_s32(0.5f, sw, 1, NULL, 8, out), MRTQ_EINVAL, "b: NULL while n > 0");
  CHECK_REFUSED(mrtq_tflite_bias_s32(0.5f, sw, 1, b, 8, NULL), MRTQ_EINVAL, "out: NULL while n > 0");
  CHECK_REFUSED(mrtq_tflite_bias_s64(0.5f, sw, 1, b, 8, NULL), MRTQ_EINVAL, "out: NULL while n > 0");
  CHECK_REFUSED(mrtq_tflite_bias_s32(0.5f, sw, 2, b, 8, out), MRTQ_EINVAL, "nw: must be 1 (per layer) or n (per channel)");
  CHECK_REFUSED(mrtq_tflite_bias_s32(NAN, sw, 1, b, 8, out), MRTQ_EINVAL, "s_in: must be finite and >= 0");
  CHECK_REFUSED(mrtq_tflite_bias_s64(-1.0f, sw, 1, b, 8, out64), MRTQ_EINVAL, "s_in: must be finite and >= 0");
  {
    const float bad[2] = {0.5f, -0.25f}, inf[1] = {INFINITY};
    out[0] = 77;
    CHECK_REFUSED(mrtq_tflite_bias_s32(0.5f, bad, 2, b, 2, out), MRTQ_EINVAL, "s_w[c]: must be finite and >= 0");
    CHECK_REFUSED(mrtq_tflite_bias_s32(0.5f, inf, 1, b, 2, out), MRTQ_EINVAL, "s_w[c]: must be finite and >= 0");
    CHECK(out[0] == 77);
  }
  CHECK_EQ(mrtq_tflite_bias_s32(0.5f, sw, 1, NULL, 0, NULL), MRTQ_OK, "n = 0");
}

static void test_bias_random(void) {
  enum { N = 64 };
  float sw[N], b[N];
  int32_t out[N];
  int64_t out64[N];
  long long n = 0, ties = 0, sat = 0;
  int it, i;
  for (it = 0; it < 20000; it++) {
    float s_in = rand_scale(-12, 2);
    int per_channel = (int)(th_rand32() & 1u), nw = per_channel ? N : 1;
    for (i = 0; i < N; i++) {
      sw[i] = (th_rand32() % 64u == 0) ? 0.0f : rand_scale(-14, 0);
      switch (th_rand32() % 4u) {
        case 0: b[i] = (rand_unit() - 0.5f) * 10.0f; break;
        case 1: /* a bias on a half step of its scale: a tie in float when exact */
          b[i] = ((float)th_range(-100000, 100000) + 0.5f) * (s_in * sw[per_channel ? i : 0]);
          break;
        case 2: b[i] = rand_signed(0, 70); break;
        default: b[i] = (rand_unit() - 0.5f) * 1e-3f; break;
      }
    }
    CHECK_EQ(mrtq_tflite_bias_s32(s_in, sw, (size_t)nw, b, N, out), MRTQ_OK, "s32");
    CHECK_EQ(mrtq_tflite_bias_s64(s_in, sw, (size_t)nw, b, N, out64), MRTQ_OK, "s64");
    for (i = 0; i < N; i++) {
      float swi = sw[per_channel ? i : 0], s = s_in * swi, v = s == 0 ? 0.0f : b[i] * (float)(1.0 / s);
      ties += fabsf(v) < 1e9f && fabsf(v) - floorf(fabsf(v)) == 0.5f;
      sat += out[i] == INT32_MAX || out[i] == -INT32_MAX;
      CHECK_EQ(out[i], o_bias(s_in, swi, b[i], 32), "s32 b %a s_in %a s_w %a", b[i], s_in, swi);
      CHECK_EQ(out64[i], o_bias(s_in, swi, b[i], 64), "s64 b %a s_in %a s_w %a", b[i], s_in, swi);
      n += 2;
    }
  }
  CHECK(ties > 10000 && sat > 10000);
  printf("  bias_s32 / bias_s64: %lld outputs compared (%lld exact ties, %lld saturated)\n", n, ties, sat);
  compared += n;
}

/* ================= weights ================= */

/* FillPerChannelMinMax + SymmetricPerChannelQuantization +
 * SymmetricPerChannelQuantizeValues (the current version: a shape of at most
 * 4 dimensions extended to 4 with leading 1s, the channel index moved with
 * it). */
static long long o_weight_ties; /* products w * inv exactly halfway between integers */
static void o_weights(const float *input, const size_t *dims, int ndim, int channel_dim_index, float *scales,
                      int8_t *values) {
  int d[4] = {1, 1, 1, 1}, idx[4], ch, c;
  float mins[64], maxs[64];
  int has[64];
  const float half_scale = 127;
  for (c = 0; c < ndim; c++) d[4 - ndim + c] = (int)dims[c];
  ch = channel_dim_index + 4 - ndim;
  memset(has, 0, sizeof has);
  for (idx[0] = 0; idx[0] < d[0]; idx[0]++)
    for (idx[1] = 0; idx[1] < d[1]; idx[1]++)
      for (idx[2] = 0; idx[2] < d[2]; idx[2]++)
        for (idx[3] = 0; idx[3] < d[3]; idx[3]++) {
          int k = idx[ch];
          float val = input[((idx[0] * d[1] + idx[1]) * d[2] + idx[2]) * d[3] + idx[3]];
          if (has[k]) {
            if (mins[k] > val)
              mins[k] = val;
            else if (maxs[k] < val)
              maxs[k] = val;
          } else {
            mins[k] = maxs[k] = val, has[k] = 1;
          }
        }
  for (c = 0; c < d[ch]; c++) {
    float half_range = fabsf(mins[c]) > fabsf(maxs[c]) ? fabsf(mins[c]) : fabsf(maxs[c]);
    float inv = half_range == 0 ? 0 : half_scale / half_range;
    scales[c] = half_range / half_scale;
    maxs[c] = inv; /* reuse: the channel's inverse scale */
  }
  for (idx[0] = 0; idx[0] < d[0]; idx[0]++)
    for (idx[1] = 0; idx[1] < d[1]; idx[1]++)
      for (idx[2] = 0; idx[2] < d[2]; idx[2]++)
        for (idx[3] = 0; idx[3] < d[3]; idx[3]++) {
          int at = ((idx[0] * d[1] + idx[1]) * d[2] + idx[2]) * d[3] + idx[3];
          float p = input[at] * maxs[idx[ch]];
          int32_t q = (int32_t)roundf(p);
          o_weight_ties += fabsf(p) - floorf(fabsf(p)) == 0.5f;
          int8_t lo = (int8_t)(q > -127 ? q : -127);
          values[at] = (int8_t)(lo < 127 ? lo : 127);
        }
}

static void test_weights_random(void) {
  static float w[4096];
  static int8_t q[4096], wq[4096];
  float sc[64], wsc[64];
  long long n = 0, zero_ch = 0;
  int it;
  for (it = 0; it < 3000; it++) {
    size_t shape[4], total = 1;
    int ndim, axis, i, kind = it % 4;
    if (kind == 0) { /* conv [O][KH][KW][I], axis 0 */
      ndim = 4, axis = 0;
      shape[0] = (size_t)th_range(1, 16), shape[1] = shape[2] = (size_t)th_range(1, 3) * 2 - 1,
      shape[3] = (size_t)th_range(1, 8);
    } else if (kind == 1) { /* depthwise [1][KH][KW][O], axis 3 */
      ndim = 4, axis = 3;
      shape[0] = 1, shape[1] = shape[2] = (size_t)th_range(1, 3) * 2 - 1, shape[3] = (size_t)th_range(1, 64);
    } else if (kind == 2) { /* fully connected [O][I], axis 0 */
      ndim = 2, axis = 0;
      shape[0] = (size_t)th_range(1, 32), shape[1] = (size_t)th_range(1, 64);
    } else { /* any rank and axis */
      ndim = (int)th_range(1, 4), axis = (int)th_range(0, ndim - 1);
      for (i = 0; i < ndim; i++) shape[i] = (size_t)th_range(1, 6);
    }
    for (i = 0; i < ndim; i++) total *= shape[i];
    if (total > 4096 || shape[axis] > 64) continue;
    {
      float mag = ldexpf(1.0f, (int)th_range(-20, 10));
      for (i = 0; i < (int)total; i++) {
        uint32_t r = th_rand32() % 16u;
        /* 0, +-mag (a channel's max), a grid k / 254 of it (k odd: w * 127 / mag is a tie), or uniform */
        w[i] = r == 0   ? 0.0f
               : r <= 2 ? ((r & 1u) ? mag : -mag)
               : r <= 8 ? mag * ((float)th_range(-254, 254) / 254.0f)
                        : (rand_unit() - 0.5f) * mag;
      }
    }
    if (th_rand32() % 4u == 0) { /* an all-zero channel */
      size_t inner = 1, outer = 1, o, k, c0 = (size_t)th_range(0, (int64_t)shape[axis] - 1);
      for (i = axis + 1; i < ndim; i++) inner *= shape[i];
      for (i = 0; i < axis; i++) outer *= shape[i];
      for (o = 0; o < outer; o++)
        for (k = 0; k < inner; k++) w[(o * shape[axis] + c0) * inner + k] = 0.0f;
      zero_ch++;
    }
    o_weights(w, shape, ndim, axis, wsc, wq);
    CHECK_EQ(mrtq_tflite_weight_qparams(w, shape, ndim, axis, MRTQ_S8, sc, q), MRTQ_OK, "weights");
    for (i = 0; i < (int)shape[axis]; i++) {
      CHECK(memcmp(&sc[i], &wsc[i], sizeof(float)) == 0);
      n++;
    }
    for (i = 0; i < (int)total; i++, n++) CHECK_EQ(q[i], wq[i], "q[%d] w %a", i, w[i]);
    CHECK_EQ(mrtq_tflite_weight_qparams(w, shape, ndim, axis, MRTQ_S8, sc, NULL), MRTQ_OK, "scales only");
  }
  CHECK(zero_ch > 100 && o_weight_ties > 1000);
  printf("  weight_qparams: %lld outputs compared (%lld exact ties)\n", n, o_weight_ties);
  compared += n;
}

static void test_weights_fixed(void) {
  /* [2][4], axis 0: channel 0's max is 127 (inv 1): 2.5 -> 3, -2.5 -> -3, 0.5 -> 1 (away); channel 1 all zero */
  const float w[8] = {127.0f, 2.5f, -2.5f, 0.5f, 0.0f, -0.0f, 0.0f, 0.0f};
  const size_t shape[2] = {2, 4}, bad0[2] = {2, 0};
  static const int8_t want[8] = {127, 3, -3, 1, 0, 0, 0, 0};
  float sc[2] = {9, 9};
  int8_t q[8];
  int i;
  CHECK_EQ(mrtq_tflite_weight_qparams(w, shape, 2, 0, MRTQ_S8, sc, q), MRTQ_OK, "fixed");
  CHECK(sc[0] == 1.0f && sc[1] == 0.0f);
  for (i = 0; i < 8; i++) CHECK_EQ(q[i], want[i], "q[%d]", i);
  compared += 10;
  sc[0] = sc[1] = 9;
  CHECK_REFUSED(mrtq_tflite_weight_qparams(NULL, shape, 2, 0, MRTQ_S8, sc, q), MRTQ_EINVAL, "w: NULL");
  CHECK_REFUSED(mrtq_tflite_weight_qparams(w, shape, 2, 0, MRTQ_S8, NULL, q), MRTQ_EINVAL, "scale: NULL");
  CHECK_REFUSED(mrtq_tflite_weight_qparams(w, NULL, 2, 0, MRTQ_S8, sc, q), MRTQ_EINVAL, "shape: NULL");
  CHECK_REFUSED(mrtq_tflite_weight_qparams(w, shape, 0, 0, MRTQ_S8, sc, q), MRTQ_EINVAL,
                "ndim: must be in [1, 4] (TFLite's per-channel quantizer)");
  CHECK_REFUSED(mrtq_tflite_weight_qparams(w, shape, 5, 0, MRTQ_S8, sc, q), MRTQ_EINVAL, "ndim: must be in [1, 4]");
  CHECK_REFUSED(mrtq_tflite_weight_qparams(w, shape, 2, 2, MRTQ_S8, sc, q), MRTQ_ESHAPE, "axis: must be in [0, ndim)");
  CHECK_REFUSED(mrtq_tflite_weight_qparams(w, shape, 2, -1, MRTQ_S8, sc, q), MRTQ_ESHAPE, "axis: must be in [0, ndim)");
  CHECK_REFUSED(mrtq_tflite_weight_qparams(w, bad0, 2, 0, MRTQ_S8, sc, q), MRTQ_ESHAPE, "shape[d]: a zero dimension");
  CHECK_REFUSED(mrtq_tflite_weight_qparams(w, shape, 2, 0, (mrtq_dtype)0, sc, q), MRTQ_EINVAL, "type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_tflite_weight_qparams(w, shape, 2, 0, MRTQ_S4, sc, q), MRTQ_EUNSUPPORTED,
                "type: MRTQ_S4 has no per-channel scale rule in TFLite's quantizer (scales are max / 127)");
  CHECK_REFUSED(mrtq_tflite_weight_qparams(w, shape, 2, 0, MRTQ_S16, sc, q), MRTQ_EUNSUPPORTED, "type: must be MRTQ_S8");
  {
    float wn[8];
    memcpy(wn, w, sizeof wn);
    wn[5] = NAN;
    CHECK_REFUSED(mrtq_tflite_weight_qparams(wn, shape, 2, 0, MRTQ_S8, sc, q), MRTQ_EINVAL, "w: a NaN or infinite element");
    wn[5] = -INFINITY;
    CHECK_REFUSED(mrtq_tflite_weight_qparams(wn, shape, 2, 0, MRTQ_S8, sc, q), MRTQ_EINVAL, "w: a NaN or infinite element");
    wn[5] = 1e-38f; /* channel 1's max: 127 / 1e-38 overflows float */
    CHECK_REFUSED(mrtq_tflite_weight_qparams(wn, shape, 2, 0, MRTQ_S8, sc, q), MRTQ_ERANGE,
                  "w: a channel's max |w| is so small that 127 / max overflows float");
    wn[5] = 1e-36f; /* fine: 1.27e38 */
    CHECK_EQ(mrtq_tflite_weight_qparams(wn, shape, 2, 0, MRTQ_S8, sc, q), MRTQ_OK, "tiny max");
    CHECK(q[5] == 127 && q[4] == 0 && sc[1] == 1e-36f / 127.0f);
  }
  {
    const size_t big[2] = {SIZE_MAX / 2, 4};
    CHECK_REFUSED(mrtq_tflite_weight_qparams(w, big, 2, 1, MRTQ_S8, sc, q), MRTQ_ESHAPE,
                  "shape: element count overflows size_t");
  }
}

int main(void) {
  TH_RUN(test_act_fixed_ties);
  TH_RUN(test_act_random);
  TH_RUN(test_clamp_bounds_tflite_random);
  TH_RUN(test_act_refusals);
  TH_RUN(test_pad_random);
  TH_RUN(test_pad_shapes);
  TH_RUN(test_pad_fixed);
  TH_RUN(test_from_mult_random);
  TH_RUN(test_from_mult_edges);
  TH_RUN(test_from_mult_ch);
  TH_RUN(test_zero_pair_conv);
  TH_RUN(test_bias_fixed);
  TH_RUN(test_bias_random);
  TH_RUN(test_weights_fixed);
  TH_RUN(test_weights_random);
  printf("  test_tflite: %lld outputs compared in all\n", compared);
  return th_finish("test_tflite");
}
