/* mrtq/tflite.h -- porting helpers: the numbers a .tflite file holds, as mrtq
 * descriptors (includes mrtq/conv.h, mrtq/pool.h, mrtq/eltwise.h and
 * mrtq/scale.h; included by mrtq.h after the kernel headers).
 *
 * Each function computes what TFLite computes from the same numbers, bit for
 * bit, with the arithmetic (float or double, rounding, clamps) of the TFLite
 * source it names; docs/semantics.md section 11g has the formulas and the
 * versions read.
 *   function                     TFLite source                                       gives
 *   mrtq_tflite_act_range        kernels/kernel_util.cc                              a fused activation's stored bounds
 *                                CalculateActivationRangeQuantized
 *   mrtq_tflite_pad_axis         kernels/padding.h ComputeOutSize,                   SAME / VALID output size and pads
 *   mrtq_tflite_conv2d_pad       ComputePaddingHeightWidth                           (odd totals: the extra one after)
 *   mrtq_tflite_pool2d_pad
 *   mrtq_tflite_bias_s32 / _s64  tools/optimize/quantization_utils.cc                int32 / int64 bias from float
 *                                SymmetricPerChannelBiasQuantize,
 *                                SymmetricPerLayerBiasQuantize, SymmetricBiasQuantize
 *   mrtq_tflite_weight_qparams   tools/optimize/quantization_utils.cc                per-channel int8 weight scales
 *                                SymmetricPerChannelQuantization,                    and values
 *                                SymmetricPerChannelQuantizeValues
 * The requantization of a conv / depthwise / FC layer is mrtq_rq_init(
 * MRTQ_Q31_DBL, s_in * s_w[c] / s_out, ...) per channel with each float scale
 * widened to double first, as kernel_util.cc's
 * PopulateConvolutionQuantizationParams computes it for int8 and int16 inputs
 * (for uint8 inputs its legacy per-tensor path, GetQuantizedConvolutionMultipler,
 * multiplies the two input scales in float: there pass fl(s_in * s_w) / s_out),
 * or, from TFLite's stored (multiplier, shift) pairs, mrtq_rq_from_mult /
 * mrtq_rq_from_mult_ch (mrtq/requant.h).
 * Every function refuses what TFLite refuses or would compute with undefined
 * behaviour, and the few further inputs its comment lists (an activation
 * TFLite silently drops, a VALID layer without output, a zero point outside
 * its type, non-finite weights); a refusal names the argument and writes
 * nothing. */
#ifndef MRTQ_TFLITE_H
#define MRTQ_TFLITE_H

#include "conv.h"
#include "eltwise.h"
#include "pool.h"
#include "scale.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* ---- fused activations ---- */

/* TFLite's fused activation, with the values of both TfLiteFusedActivation
 * (the runtime enum) and the .tflite schema's ActivationFunctionType (NONE
 * 0 ... SIGN_BIT 5; SIGMOID exists at run time only), so a value read from a
 * model can be passed as it is. */
typedef enum mrtq_tflite_act {
  MRTQ_TFLITE_ACT_NONE = 0,
  MRTQ_TFLITE_ACT_RELU = 1,         /* [0, +inf) */
  MRTQ_TFLITE_ACT_RELU_N1_TO_1 = 2, /* [-1, 1] */
  MRTQ_TFLITE_ACT_RELU6 = 3,        /* [0, 6] */
  MRTQ_TFLITE_ACT_TANH = 4,         /* no quantized clamp form: refused */
  MRTQ_TFLITE_ACT_SIGN_BIT = 5,     /* no quantized clamp form: refused */
  MRTQ_TFLITE_ACT_SIGMOID = 6       /* no quantized clamp form: refused */
} mrtq_tflite_act;

/* The stored bounds [*qmin, *qmax] of a fused activation on an output tensor
 * (scale, zp) of `type`, bit-exact with TFLite's
 * CalculateActivationRangeQuantized (tensorflow/lite/kernels/kernel_util.cc):
 *   q(f)  = zp + round(fl(f / scale))   one float division; round half AWAY
 *           from zero (TfLiteRound = std::round); the sum exact
 *   NONE          [tmin, tmax]                        the type's range
 *   RELU          [max(tmin, q(0)), tmax]             q(0) = zp
 *   RELU_N1_TO_1  [max(tmin, q(-1)), min(tmax, q(1))]
 *   RELU6         [max(tmin, q(0)), min(tmax, q(6))]
 * Ties: ReLU_N1_TO_1 at scale 6/255, zp 0 gives [-43, 43] (1 / scale is 42.5
 * in float); ReLU6 at scale 0.48, zp -128 gives qmax -115 (6 / 0.48 = 12.5).
 * mrtq_clamp_bounds_onnx rounds those ties to even ([-42, 42], -116).
 * type: MRTQ_S8, MRTQ_U8 or MRTQ_S16 (what TFLite takes); zp within the
 * type; scale finite and > 0 (read for NONE too: a tensor's scale).
 * Errors (nothing written):
 *   MRTQ_EINVAL        qmin or qmax NULL; act outside the enum; scale NaN,
 *                      infinite or <= 0; type not an mrtq_dtype; zp outside
 *                      the type.
 *   MRTQ_EUNSUPPORTED  act TANH, SIGN_BIT or SIGMOID (TFLite's function
 *                      silently applies no clamp for them; mrtq refuses);
 *                      type MRTQ_S32 or MRTQ_S4 (TFLite refuses).
 *   MRTQ_ERANGE        round(fl(f / scale)) outside [-2^31, 2^31] for a bound
 *                      the activation needs (TFLite refuses the model: its
 *                      check admits 2^31 itself, which its int32 cast then
 *                      overflows; mrtq computes that one exactly, giving
 *                      tmax). */
MRTQ_API mrtq_status mrtq_tflite_act_range(mrtq_tflite_act act, float scale, int32_t zp, mrtq_dtype type,
                                           int32_t *qmin, int32_t *qmax);

/* ---- SAME / VALID padding ---- */

/* TFLite's padding mode with TfLitePadding's values (SAME 1, VALID 2; 0 is
 * TFLite's "unknown" and is refused). The .tflite schema's Padding enum
 * numbers them differently (SAME 0, VALID 1): map it, do not cast it. */
typedef enum mrtq_tflite_padding { MRTQ_TFLITE_PAD_SAME = 1, MRTQ_TFLITE_PAD_VALID = 2 } mrtq_tflite_padding;

/* One spatial axis as TFLite's ComputeOutSize and ComputePaddingHeightWidth
 * (tensorflow/lite/kernels/padding.h) compute it, with the dilated kernel
 * e = (k - 1) * dil + 1:
 *   SAME   out = ceil(in / stride)
 *   VALID  out = floor((in - e) / stride) + 1      (e <= in required)
 *   total  = max(0, (out - 1) * stride + e - in)
 *   before = floor(total / 2),  after = total - before
 * (an odd total puts the extra row / column after: bottom / right). VALID
 * always gives total 0. Exact in size_t for every accepted argument.
 * Errors (nothing written): out, before or after NULL, pad not an
 * mrtq_tflite_padding -> MRTQ_EINVAL; in, k, stride or dil 0, e overflowing
 * size_t, VALID with e > in (TFLite: an empty or negative output) ->
 * MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_tflite_pad_axis(mrtq_tflite_padding pad, size_t in, size_t k, size_t stride, size_t dil,
                                          size_t *out, size_t *before, size_t *after);

/* Fill s->pad_top / pad_bottom (from s->h, s->kh, s->stride_h, s->dil_h) and
 * s->pad_left / pad_right (from s->w, s->kw, s->stride_w, s->dil_w) by
 * mrtq_tflite_pad_axis; no other field is read or written. mrtq_conv2d_out
 * then gives TFLite's output size (ComputePaddingHeightWidth).
 * Errors (nothing written): s NULL, pad not an mrtq_tflite_padding ->
 * MRTQ_EINVAL; a size, kernel, stride or dilation of 0, a dilated kernel
 * overflowing size_t, VALID with a dilated kernel larger than the input ->
 * MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_tflite_conv2d_pad(mrtq_tflite_padding pad, mrtq_conv2d_shape *s);

/* The same for a pooling layer (no dilation): p->pad_top / pad_bottom from
 * p->h, p->kh, p->stride_h; p->pad_left / pad_right from p->w, p->kw,
 * p->stride_w. Every pad is then < its window (as mrtq_pool2d_out requires)
 * and mrtq_pool2d_out gives TFLite's output size. Errors as
 * mrtq_tflite_conv2d_pad (p NULL -> MRTQ_EINVAL). */
MRTQ_API mrtq_status mrtq_tflite_pool2d_pad(mrtq_tflite_padding pad, mrtq_pool2d *p);

/* ---- bias ---- */

/* A float bias quantized as TFLite's model quantizer does
 * (tensorflow/lite/tools/optimize/quantization_utils.cc:
 * SymmetricPerChannelBiasQuantize, SymmetricPerLayerBiasQuantize and, in
 * newer versions, the SymmetricBiasQuantize they call), element i with
 * channel scale s_w[i] (nw == n, per channel) or s_w[0] (nw == 1, per
 * layer):
 *   s   = fl(s_in * s_w)                 float product
 *   inv = s == 0 ? 0 : fl(1.0 / s)       division in double, rounded to float
 *   v   = fl(b[i] * inv)                 float product
 *   out[i] = clamp(round(v), -(2^31 - 1), 2^31 - 1)   round half AWAY from
 *            zero; v NaN -> 0 (SafeCast); +-inf and large values saturate;
 *            -2^31 is never produced (the clamp is symmetric)
 * (_s64: int64 output for 16x8 models, clamp to +-(2^63 - 1)). A zero scale
 * (s_in or s_w 0, or a product that underflows to 0) gives 0, as TFLite.
 * Any b (NaN and +-inf included). Output i depends on b[i] only (in place
 * not allowed: out and b have different types).
 * Errors (nothing written): s_w NULL; b or out NULL while n > 0; nw neither
 * 1 nor n; s_in or an s_w[c] NaN, infinite or negative -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_tflite_bias_s32(float s_in, const float *s_w, size_t nw, const float *b, size_t n,
                                          int32_t *out);
MRTQ_API mrtq_status mrtq_tflite_bias_s64(float s_in, const float *s_w, size_t nw, const float *b, size_t n,
                                          int64_t *out);

/* ---- weights ---- */

/* Per-channel symmetric weight quantization in one call, as TFLite's model
 * quantizer computes it (tensorflow/lite/tools/optimize/
 * quantization_utils.cc: SymmetricPerChannelQuantization, FillPerChannelMinMax
 * and SymmetricPerChannelQuantizeValues). w is a row-major float tensor of
 * `ndim` dimensions `shape`; channel c is every element whose index along
 * `axis` is c (TFLite: axis 0 for conv [O][KH][KW][I] and fully connected
 * [O][I] weights, axis 3 for the depthwise filter [1][KH][KW][O]). Per
 * channel, all in float:
 *   m        = max |w| over the channel
 *   scale[c] = fl(m / 127)                      (zero point 0)
 *   inv      = m == 0 ? 0 : fl(127 / m)
 *   q        = clamp(round(fl(w * inv)), -127, 127)   round half AWAY from
 *              zero; an all-zero channel has scale 0 and q 0
 * scale receives shape[axis] floats; q (NULL: scales only) receives every
 * element as int8_t, in w's layout. type: MRTQ_S8 only: TFLite's quantizer
 * has no int4 per-channel scale rule (its scales are always m / 127; its
 * int4 path only clamps values to [-7, 7] for scales it is given), so
 * MRTQ_S4 is refused.
 * Errors (nothing written):
 *   MRTQ_EINVAL        w, shape or scale NULL; ndim outside [1, 4] (TFLite
 *                      takes at most 4 dimensions); a NaN or infinite
 *                      element; type not an mrtq_dtype.
 *   MRTQ_ESHAPE        axis outside [0, ndim); a zero dimension; an element
 *                      count overflowing size_t.
 *   MRTQ_EUNSUPPORTED  type another mrtq_dtype than MRTQ_S8 (MRTQ_S4: see
 *                      above).
 *   MRTQ_ERANGE        a channel whose m is so small that 127 / m overflows
 *                      float (m < ~3.7e-37; TFLite's values would then be
 *                      NaN or infinite products cast to int). */
MRTQ_API mrtq_status mrtq_tflite_weight_qparams(const float *w, const size_t *shape, int ndim, int axis,
                                                mrtq_dtype type, float *scale, void *q);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

MRTQ_API mrtq_status mrtq_tflite_act_range(mrtq_tflite_act act, float scale, int32_t zp, mrtq_dtype type,
                                           int32_t *qmin, int32_t *qmax) {
  int32_t tmin = 0, tmax = 0;
  int64_t lo, hi;
  float f_lo = 0.0f, f_hi = 0.0f;
  int has_lo = 0, has_hi = 0;
  if (!qmin || !qmax) return MRTQ__ERR(MRTQ_EINVAL, "qmin, qmax: NULL");
  switch (act) {
    case MRTQ_TFLITE_ACT_NONE: break;
    case MRTQ_TFLITE_ACT_RELU: has_lo = 1; break;
    case MRTQ_TFLITE_ACT_RELU_N1_TO_1: f_lo = -1.0f, f_hi = 1.0f, has_lo = has_hi = 1; break;
    case MRTQ_TFLITE_ACT_RELU6: f_hi = 6.0f, has_lo = has_hi = 1; break;
    case MRTQ_TFLITE_ACT_TANH:
    case MRTQ_TFLITE_ACT_SIGN_BIT:
    case MRTQ_TFLITE_ACT_SIGMOID:
      return MRTQ__ERR(MRTQ_EUNSUPPORTED,
                       "act: TANH, SIGN_BIT and SIGMOID have no quantized clamp form (TFLite silently applies none)");
    default: return MRTQ__ERR(MRTQ_EINVAL, "act: not an mrtq_tflite_act");
  }
  if (mrtq__nonfinite_f32(scale) || !(scale > 0)) return MRTQ__ERR(MRTQ_EINVAL, "scale: must be finite and > 0");
  if (!mrtq__dtype_ok(type)) return MRTQ__ERR(MRTQ_EINVAL, "type: not an mrtq_dtype");
  if (type != MRTQ_S8 && type != MRTQ_U8 && type != MRTQ_S16)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S16 (TFLite refuses other types)");
  (void)mrtq_dtype_range(type, &tmin, &tmax); /* a valid type: cannot fail */
  if (zp < tmin || zp > tmax) return MRTQ__ERR(MRTQ_EINVAL, "zp: outside type");
  lo = tmin, hi = tmax;
  if (has_lo) {
    float t = f_lo / scale;         /* one float division */
    int64_t r = mrtq__rnda_f32(t); /* |r| <= 2^40: saturated far beyond the check */
    if (r < -((int64_t)1 << 31) || r > ((int64_t)1 << 31))
      return MRTQ__ERR(MRTQ_ERANGE, "scale: f / scale rounds outside [-2^31, 2^31] (TFLite refuses the model)");
    if (r + zp > lo) lo = r + zp;
  }
  if (has_hi) {
    float t = f_hi / scale;
    int64_t r = mrtq__rnda_f32(t);
    if (r < -((int64_t)1 << 31) || r > ((int64_t)1 << 31))
      return MRTQ__ERR(MRTQ_ERANGE, "scale: f / scale rounds outside [-2^31, 2^31] (TFLite refuses the model)");
    if (r + zp < hi) hi = r + zp;
  }
  *qmin = (int32_t)lo; /* lo in [tmin, zp], hi in [zp, tmax] */
  *qmax = (int32_t)hi;
  return MRTQ_OK;
}

/* One axis; the failure, if any, as a code for the caller to name:
 * 1 a zero argument, 2 the dilated kernel overflows, 3 VALID with e > in. */
MRTQ__PRIV int mrtq__tflite_pad1(mrtq_tflite_padding pad, size_t in, size_t k, size_t stride, size_t dil,
                                 size_t *out, size_t *before, size_t *after) {
  size_t e, o, span, total;
  if (!in || !k || !stride || !dil) return 1;
  if (k - 1 > (SIZE_MAX - 1) / dil) return 2;
  e = (k - 1) * dil + 1;
  if (pad == MRTQ_TFLITE_PAD_SAME) {
    o = (in - 1) / stride + 1; /* ceil(in / stride), no overflow */
  } else {
    if (e > in) return 3;
    o = (in - e) / stride + 1;
  }
  span = in - (o - 1) * stride; /* (o - 1) * stride <= in - 1: span >= 1 */
  total = e > span ? e - span : 0;
  *out = o;
  *before = total / 2;
  *after = total - total / 2;
  return 0;
}

#define MRTQ__PAD_WHY "pad: not an mrtq_tflite_padding (the .tflite schema's SAME = 0, VALID = 1 must be mapped)"

MRTQ_API mrtq_status mrtq_tflite_pad_axis(mrtq_tflite_padding pad, size_t in, size_t k, size_t stride, size_t dil,
                                          size_t *out, size_t *before, size_t *after) {
  size_t o = 0, b = 0, a = 0;
  if (!out || !before || !after) return MRTQ__ERR(MRTQ_EINVAL, "out, before, after: NULL");
  if (pad != MRTQ_TFLITE_PAD_SAME && pad != MRTQ_TFLITE_PAD_VALID) return MRTQ__ERR(MRTQ_EINVAL, MRTQ__PAD_WHY);
  switch (mrtq__tflite_pad1(pad, in, k, stride, dil, &o, &b, &a)) {
    case 0: break;
    case 1: return MRTQ__ERR(MRTQ_ESHAPE, "in, k, stride, dil: must be >= 1");
    case 2: return MRTQ__ERR(MRTQ_ESHAPE, "k, dil: the dilated kernel (k - 1) * dil + 1 overflows size_t");
    default: return MRTQ__ERR(MRTQ_ESHAPE, "k: the dilated kernel is larger than in (VALID padding: no output)");
  }
  *out = o, *before = b, *after = a;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_conv2d_pad(mrtq_tflite_padding pad, mrtq_conv2d_shape *s) {
  size_t o = 0, t = 0, b = 0, l = 0, r = 0;
  int eh, ew;
  if (!s) return MRTQ__ERR(MRTQ_EINVAL, "s: NULL");
  if (pad != MRTQ_TFLITE_PAD_SAME && pad != MRTQ_TFLITE_PAD_VALID) return MRTQ__ERR(MRTQ_EINVAL, MRTQ__PAD_WHY);
  eh = mrtq__tflite_pad1(pad, s->h, s->kh, s->stride_h, s->dil_h, &o, &t, &b);
  ew = mrtq__tflite_pad1(pad, s->w, s->kw, s->stride_w, s->dil_w, &o, &l, &r);
  if (eh == 1 || ew == 1)
    return MRTQ__ERR(MRTQ_ESHAPE, "s->h, s->w, s->kh, s->kw, s->stride_h, s->stride_w, s->dil_h, s->dil_w: must be >= 1");
  if (eh == 2) return MRTQ__ERR(MRTQ_ESHAPE, "s->kh, s->dil_h: the dilated kernel overflows size_t");
  if (ew == 2) return MRTQ__ERR(MRTQ_ESHAPE, "s->kw, s->dil_w: the dilated kernel overflows size_t");
  if (eh == 3) return MRTQ__ERR(MRTQ_ESHAPE, "s->kh: the dilated kernel is taller than s->h (VALID padding: no output)");
  if (ew == 3) return MRTQ__ERR(MRTQ_ESHAPE, "s->kw: the dilated kernel is wider than s->w (VALID padding: no output)");
  s->pad_top = t, s->pad_bottom = b, s->pad_left = l, s->pad_right = r;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_pool2d_pad(mrtq_tflite_padding pad, mrtq_pool2d *p) {
  size_t o = 0, t = 0, b = 0, l = 0, r = 0;
  int eh, ew;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (pad != MRTQ_TFLITE_PAD_SAME && pad != MRTQ_TFLITE_PAD_VALID) return MRTQ__ERR(MRTQ_EINVAL, MRTQ__PAD_WHY);
  eh = mrtq__tflite_pad1(pad, p->h, p->kh, p->stride_h, 1, &o, &t, &b);
  ew = mrtq__tflite_pad1(pad, p->w, p->kw, p->stride_w, 1, &o, &l, &r);
  if (eh == 1 || ew == 1) return MRTQ__ERR(MRTQ_ESHAPE, "p->h, p->w, p->kh, p->kw, p->stride_h, p->stride_w: must be >= 1");
  if (eh == 3) return MRTQ__ERR(MRTQ_ESHAPE, "p->kh: the window is taller than p->h (VALID padding: no output)");
  if (ew == 3) return MRTQ__ERR(MRTQ_ESHAPE, "p->kw: the window is wider than p->w (VALID padding: no output)");
  p->pad_top = t, p->pad_bottom = b, p->pad_left = l, p->pad_right = r;
  return MRTQ_OK;
}

/* TFLite's SafeCast of round-half-away(v) to a signed integer of `bits`
 * (32 or 64), then its symmetric clamp to +-(2^(bits-1) - 1): NaN -> 0,
 * values at or beyond 2^(bits-1) in magnitude saturate. */
MRTQ__PRIV int64_t mrtq__tflite_bias_round(float v, int bits) {
  const int64_t lim = bits == 32 ? INT32_MAX : INT64_MAX;
  const double two62 = 4611686018427387904.0, two63 = 9223372036854775808.0;
  double d = v; /* exact */
  int64_t r;
  if (d != d) return 0;
  if (d >= two63) return lim;
  if (d <= -two63) return -lim;
  r = (d >= two62 || d <= -two62) ? (int64_t)d : mrtq__round_away(d); /* beyond 2^62 a float is an integer */
  return r > lim ? lim : r < -lim ? -lim : r;
}

MRTQ__PRIV mrtq_status mrtq__tflite_bias(float s_in, const float *s_w, size_t nw, const float *b, size_t n, int bits,
                                         int32_t *o32, int64_t *o64) {
  size_t i;
  if (!s_w) return MRTQ__ERR(MRTQ_EINVAL, "s_w: NULL");
  if (n && !b) return MRTQ__ERR(MRTQ_EINVAL, "b: NULL while n > 0");
  if (n && !o32 && !o64) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL while n > 0");
  if (nw != 1 && nw != n) return MRTQ__ERR(MRTQ_EINVAL, "nw: must be 1 (per layer) or n (per channel)");
  if (mrtq__nonfinite_f32(s_in) || s_in < 0) return MRTQ__ERR(MRTQ_EINVAL, "s_in: must be finite and >= 0");
  for (i = 0; i < nw; i++)
    if (mrtq__nonfinite_f32(s_w[i]) || s_w[i] < 0) return MRTQ__ERR(MRTQ_EINVAL, "s_w[c]: must be finite and >= 0");
  for (i = 0; i < n; i++) {
    float s = s_in * s_w[nw == 1 ? 0 : i];
    float inv = s == 0 ? 0.0f : (float)(1.0 / (double)s);
    float v = b[i] * inv;
    int64_t r = mrtq__tflite_bias_round(v, bits);
    if (o32)
      o32[i] = (int32_t)r;
    else
      o64[i] = r;
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_bias_s32(float s_in, const float *s_w, size_t nw, const float *b, size_t n,
                                          int32_t *out) {
  return mrtq__tflite_bias(s_in, s_w, nw, b, n, 32, out, NULL);
}

MRTQ_API mrtq_status mrtq_tflite_bias_s64(float s_in, const float *s_w, size_t nw, const float *b, size_t n,
                                          int64_t *out) {
  return mrtq__tflite_bias(s_in, s_w, nw, b, n, 64, NULL, out);
}

MRTQ_API mrtq_status mrtq_tflite_weight_qparams(const float *w, const size_t *shape, int ndim, int axis,
                                                mrtq_dtype type, float *scale, void *q) {
  size_t outer = 0, ch = 0, inner = 0, o, c, i;
  mrtq_status st;
  if (!w) return MRTQ__ERR(MRTQ_EINVAL, "w: NULL");
  if (!scale) return MRTQ__ERR(MRTQ_EINVAL, "scale: NULL");
  if (ndim < 1 || ndim > 4) return MRTQ__ERR(MRTQ_EINVAL, "ndim: must be in [1, 4] (TFLite's per-channel quantizer)");
  if (!mrtq__dtype_ok(type)) return MRTQ__ERR(MRTQ_EINVAL, "type: not an mrtq_dtype");
  if (type == MRTQ_S4)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "type: MRTQ_S4 has no per-channel scale rule in TFLite's quantizer (scales are max / 127)");
  if (type != MRTQ_S8) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "type: must be MRTQ_S8");
  st = mrtq__split_shape(shape, ndim, axis, &outer, &ch, &inner);
  if (st != MRTQ_OK) return st;
  if (!mrtq__all_finite_f32(w, outer * ch * inner)) return MRTQ__ERR(MRTQ_EINVAL, "w: a NaN or infinite element");
  /* max |w| per channel into scale[] first (only after every check), then
   * the scale and the values from it */
  for (c = 0; c < ch; c++) {
    float m = 0.0f;
    for (o = 0; o < outer; o++)
      for (i = 0; i < inner; i++) {
        float v = w[(o * ch + c) * inner + i];
        v = v < 0 ? -v : v;
        if (v > m) m = v;
      }
    if (m != 0 && mrtq__nonfinite_f32(127.0f / m))
      return MRTQ__ERR(MRTQ_ERANGE, "w: a channel's max |w| is so small that 127 / max overflows float");
  }
  for (c = 0; c < ch; c++) {
    float m = 0.0f, inv;
    for (o = 0; o < outer; o++)
      for (i = 0; i < inner; i++) {
        float v = w[(o * ch + c) * inner + i];
        v = v < 0 ? -v : v;
        if (v > m) m = v;
      }
    scale[c] = m / 127.0f;
    inv = m == 0 ? 0.0f : 127.0f / m;
    if (q)
      for (o = 0; o < outer; o++)
        for (i = 0; i < inner; i++) {
          size_t at = (o * ch + c) * inner + i;
          float v = w[at] * inv;
          int64_t r = mrtq__rnda_f32(v);
          ((int8_t *)q)[at] = (int8_t)(r > 127 ? 127 : r < -127 ? -127 : r);
        }
  }
  return MRTQ_OK;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_TFLITE_H */
