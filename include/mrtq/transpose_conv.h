/* mrtq/transpose_conv.h -- TFLite's TRANSPOSE_CONV (a transposed, or
 * "deconvolution", 2-D convolution) in its integer forms, bit-exact with
 * TFLite's reference kernels (layer 6; includes mrtq/conv_s16.h for the 16x8
 * requantization and mrtq/tflite.h for the padding enum):
 *
 *   function                    TFLite kernel it matches (and versions read)
 *   --------------------------  -----------------------------------------------------------------
 *   mrtq_tflite_tconv_q8        int8: reference_integer_ops::TransposeConv (per-channel
 *                               multipliers; per tensor = every channel the same);
 *                               uint8: reference_ops::TransposeConv (per tensor, filter zero point)
 *                               (kernels/internal/reference/integer_ops/transpose_conv.h and
 *                               reference/transpose_conv.h, tflite-micro 90b983c2)
 *   mrtq_tflite_tconv_s16x8     int16 activations, int8 filter, int64 bias and accumulator:
 *                               reference_integer_ops::TransposeConv<int64_t> (same files)
 *
 * THE SCATTER FORM. Input x [n][h][w][c] (NHWC), filter [o][kh][kw][c] (OHWI,
 * TFLite's order after its converter), output [n][oh][ow][o], whose size is
 * given (TFLite's output_shape input tensor), not derived. Each input element
 * (b, iy, ix, ci) adds (x - zx) (w - zw) to every output element
 *   (b, iy stride_h - pad_top + fy, ix stride_w - pad_left + fx, co)
 * that lies inside the output (the rest is dropped: TFLite "crops"), for
 * every filter tap (fy, fx) and output channel co. Per output element:
 *   S = sum of those products, then acc = S + bias[co]
 * accumulated in a caller's scratch buffer of n oh ow o elements (int32 for
 * 8-bit data, int64 for int16: mrtq_tflite_tconv_scratch_size), as TFLite's
 * kernels do. Then
 *   8-bit:  y = clamp(F(acc) + rq[co].zp, rq[co].qmin, rq[co].qmax)
 *           F = mrtq_mul_q31_dbl (MRTQ_Q31_DBL: SRDHM ties toward +infinity,
 *           then RDIVPOT ties away from zero; TFLite's default build) or
 *           mrtq_mul_q31_rndnu (MRTQ_Q31_RNDNU: one rounding, ties toward
 *           +infinity; TFLITE_SINGLE_ROUNDING builds);
 *   int16:  y = clamp(wrap32(R(acc)), rq[co].qmin, rq[co].qmax), R TFLite's
 *           64-bit MultiplyByQuantizedMultiplier (mrtq_mul_q31_x64's formula:
 *           the multiplier rounded to 16 bits, then one rounding, ties toward
 *           +infinity), wrap32 its int64 result modulo 2^32 (TFLite's
 *           static_cast<int32_t>; equal to it whenever it fits int32), no
 *           output zero point.
 * Padding: only pad_top and pad_left are read, as in TFLite (its
 * padding_values.height / .width); the bottom and right follow from the
 * output size. mrtq_tflite_tconv_pad computes them as TFLite's Prepare / Eval
 * does: ComputePaddingHeightWidth with the OUTPUT size in the place of the
 * input size (SAME or VALID, dilation 1).
 *
 * WHICH TFLITE RUNS WHAT (tensorflow/lite/kernels/transpose_conv.cc read at
 * commits 00f0938a and 91f256e5, TFLite Micro micro/kernels/transpose_conv.cc
 * at 90b983c2):
 *   - int8 and uint8: the TF interpreter registers its optimized kernel by
 *     default (optimized_integer_ops::TransposeConvV2 / optimized_ops::
 *     TransposeConvV2: im2col-free GEMM of the filter [kh kw o][c] by the
 *     input, then col2im into an int32 scratch, bias, requantization). It
 *     forms the same int32 sums S + bias (the same products added at the same
 *     positions: col2im walks (oh + pads - kh) / stride + 1 input rows, which
 *     is h exactly when the input has the size the output and padding imply,
 *     h = ceil(oh / stride_h) for SAME and (oh - kh) / stride_h + 1 for
 *     VALID, likewise for the width; for other input sizes its col2im layout
 *     disagrees with the GEMM's and the two kernels differ). Its final
 *     requantization (optimized_ops::Quantize, NEON and scalar paths) was not
 *     read byte for byte here: mrtq claims the reference kernel, which the TF
 *     interpreter runs when built with the reference op resolver, and TFLite
 *     Micro always runs.
 *   - int16 (16x8): both run the reference kernel with an int64 accumulator
 *     (TF: bias must be int64; Micro: an int16 bias is widened to int64, pass
 *     it widened).
 *   - fused activation: both TF interpreter versions read prepare the range
 *     with kTfLiteActNone (the type's range); TFLite Micro applies the
 *     model's fused activation (mrtq_tflite_act_range): either way it is
 *     rq[co].qmin / qmax.
 *   - a per-tensor int8 filter scale: 91f256e5 and TFLite Micro broadcast it
 *     to every output channel (pass nrq 1); 00f0938a sizes its per-channel
 *     arrays by the filter's scale count and so reads past them for
 *     o > 1 (no defined result to match).
 *   - Prepare (kernel_util.cc PopulateConvolutionQuantizationParams): int8
 *     and int16 multipliers per channel from (double)s_x (double)s_w[co] /
 *     (double)s_y; uint8 is per tensor only, from (double)fl(s_x s_w) /
 *     (double)s_y (GetQuantizedConvolutionMultipler: the two float scales
 *     multiplied in float): mrtq_tflite_tconv_rq_init.
 *
 * OVERFLOW. TFLite's int32 scratch has no guard: a sum beyond int32 is
 * undefined behaviour there. The 8-bit kernel refuses, before anything is
 * written, every shape and type whose worst case could leave int32:
 *   T |X| |W| + max|bias| <= 2^31 - 1,
 *   T = c min(h, ceil(kh / stride_h)) min(w, ceil(kw / stride_w))
 * (T bounds the products that reach one output element; |X| = max |x - zx|
 * over the type: max(127 - zx, zx + 128) for int8, max(255 - zx, zx) for
 * uint8; |W| = 128 for int8 (zero point 0), max(255 - zw, zw) for uint8).
 * The 16x8 kernel sums exactly in int64 and refuses T 2^22 + max|bias| >=
 * 2^47, the domain of TFLite's 64-bit multiply (as mrtq/conv_s16.h).
 *
 * Every refusal names the argument through MRTQ_ON_ERROR and writes nothing
 * (neither the scratch nor the output). */
#ifndef MRTQ_TRANSPOSE_CONV_H
#define MRTQ_TRANSPOSE_CONV_H

#include "conv_s16.h"
#include "tflite.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* The shape of a TFLite TRANSPOSE_CONV. Every size is at most 2^31 - 1
 * (TFLite's dimensions are int); sizes may be 0 (an empty tensor: nothing to
 * scatter, or nothing to write); strides are >= 1. */
typedef struct mrtq_tflite_tconv_shape {
  size_t n, h, w, c;          /* input x [n][h][w][c] */
  size_t o, kh, kw;           /* filter [o][kh][kw][c] */
  size_t oh, ow;              /* output [n][oh][ow][o]: TFLite's output_shape tensor {n, oh, ow, o} */
  size_t stride_h, stride_w;  /* >= 1 */
  size_t pad_top, pad_left;   /* TFLite's padding_values.height / .width (mrtq_tflite_tconv_pad) */
} mrtq_tflite_tconv_shape;

/* s->pad_top and s->pad_left as TFLite computes them for TRANSPOSE_CONV:
 * ComputePaddingHeightWidth(stride, dilation 1, oh, ow, kh, kw, pad), i.e.
 * per axis with the output size as "in" (TFLite's int arithmetic, division
 * truncating toward zero):
 *   SAME   out' = (in + stride - 1) / stride
 *   VALID  out' = (in + stride - k) / stride      (may be <= 0: TFLite goes on)
 *   total  = max(0, (out' - 1) stride + k - in),  before = total / 2
 * (the odd one of an odd total is after: bottom / right, which the kernels do
 * not read). VALID gives 0 whenever k <= in; with k > in it can give more
 * (in 1, k 12, stride 8: total 3, before 1). Reads oh, ow, kh, kw,
 * stride_h, stride_w; writes pad_top and pad_left only.
 * Errors (nothing written): s NULL, pad not an mrtq_tflite_padding ->
 * MRTQ_EINVAL; a stride 0, a size above 2^31 - 1 -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_tflite_tconv_pad(mrtq_tflite_padding pad, mrtq_tflite_tconv_shape *s);

/* The bytes of scratch the kernel for activations of x_type needs: n oh ow o
 * elements of int32 (MRTQ_S8, MRTQ_U8) or int64 (MRTQ_S16), TFLite's own
 * scratch tensor. The scratch must be aligned for int64_t (any malloc or
 * int64_t array is). Errors (nothing written): s or bytes NULL -> MRTQ_EINVAL;
 * x_type another mrtq_dtype -> MRTQ_EUNSUPPORTED (outside the enum:
 * MRTQ_EINVAL); a size above 2^31 - 1, a count or byte size overflowing
 * size_t -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_tflite_tconv_scratch_size(const mrtq_tflite_tconv_shape *s, mrtq_dtype x_type,
                                                    size_t *bytes);

/* The requantizations TFLite's Prepare computes (kernel_util.cc
 * PopulateConvolutionQuantizationParams), from the float scales a model
 * stores: for MRTQ_S8 and MRTQ_S16 (x_type), per channel c < nw,
 *   r_c = (double)s_x * (double)s_w[c] / (double)s_y
 * (nw = 1: a per-tensor filter scale, broadcast by TFLite to every channel:
 * pass nrq 1 to the kernel); for MRTQ_U8 (per tensor only, nw must be 1)
 *   r = (double)fl(s_x * s_w[0]) / (double)s_y   (the product in float)
 * then rq[c] = {MRTQ_Q31_DBL, QuantizeMultiplier(r_c) (mrtq_mult_q31; a scale
 * below 2^-32 or 0 gives (0, 0): that channel outputs clamp(zp_y)), scale 0,
 * zp_y, qmin, qmax}. qmin / qmax: the output type's range, or the fused
 * activation's (mrtq_tflite_act_range). For TFLITE_SINGLE_ROUNDING builds set
 * each rq[c].scheme to MRTQ_Q31_RNDNU afterwards (8-bit only). MRTQ_S16: the
 * 16x8 kernel then takes shifts up to 7 (r below 128) and refuses larger.
 * Errors (nothing written): s_w or rq NULL; nw 0, or not 1 with MRTQ_U8; s_x,
 * s_y NaN, infinite or <= 0; an s_w[c] NaN, infinite or < 0; zp_y, qmin or
 * qmax outside x_type, qmin > qmax, zp_y not 0 with MRTQ_S16 (TFLite 16x8
 * outputs have no zero point) -> MRTQ_EINVAL; x_type another mrtq_dtype ->
 * MRTQ_EUNSUPPORTED (outside the enum: MRTQ_EINVAL); a multiplier of 2^30 or
 * more (shift above 30) -> MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_tflite_tconv_rq_init(float s_x, const float *s_w, size_t nw, float s_y, int32_t zp_y,
                                               int32_t qmin, int32_t qmax, mrtq_dtype x_type, mrtq_rq *rq);

/* 8-bit TRANSPOSE_CONV (the scatter form above). x, w and out share one type
 * (TFLite: filter and output of the input's type): MRTQ_S8 (w->zp 0, rq per
 * channel: nrq = s->o, or 1 for a per-tensor filter scale) or MRTQ_U8 (any
 * zero points, nrq = 1). out holds n oh ow o elements of x->type; bias (o
 * values, any int32) may be NULL; scratch holds
 * mrtq_tflite_tconv_scratch_size bytes (overwritten). rq[c]: MRTQ_Q31_DBL or
 * MRTQ_Q31_RNDNU (mrtq_tflite_tconv_rq_init, or mrtq_rq_from_mult /
 * mrtq_rq_from_mult_ch from TFLite's stored pairs; the legacy uint8 OpData
 * keeps the negated shift: negate it back), zp and qmin / qmax within the
 * type. Bit-exact with TFLite's reference TransposeConv (int8 per channel,
 * uint8 per tensor) for every accepted input, in the default
 * (MRTQ_Q31_DBL) and TFLITE_SINGLE_ROUNDING (MRTQ_Q31_RNDNU) builds, within
 * requant.h's domains of those functions (a shift above 0 with x 2^shift
 * beyond int32: mrtq saturates where TFLite's code overflows).
 * Errors (nothing written): s, x, w, rq, scratch or out NULL (out and
 * scratch may be NULL when the output is empty), x->data or w->data NULL with
 * elements to read, a type 0, x->zp_ch or w->zp_ch set, a zero point outside
 * its type, w->type not x->type, w->zp not 0 with MRTQ_S8, nrq not 1 or s->o,
 * nrq not 1 with MRTQ_U8, an rq[c] failing the array functions' descriptor
 * checks, rq[c].zp outside the type, scratch not aligned for int64_t ->
 * MRTQ_EINVAL; x->type not MRTQ_S8 / MRTQ_U8, rq[c].scheme not a Q31 scheme
 * -> MRTQ_EUNSUPPORTED; a stride 0, a size above 2^31 - 1, an element count
 * overflowing size_t -> MRTQ_ESHAPE; the worst case above over int32 ->
 * MRTQ_EOVERFLOW. */
MRTQ_API mrtq_status mrtq_tflite_tconv_q8(const mrtq_tflite_tconv_shape *s, const mrtq_rq *rq, size_t nrq,
                                          const mrtq_qoperand *x, const mrtq_qoperand *w, const int32_t *bias,
                                          void *scratch, void *out);

/* 16x8 TRANSPOSE_CONV: x MRTQ_S16 (zp 0), w MRTQ_S8 (zp 0), an int64 bias (o
 * values, may be NULL; TFLite Micro's int16 bias: pass it widened), an int64
 * scratch (mrtq_tflite_tconv_scratch_size with MRTQ_S16), int16 out. rq: nrq
 * = 1 or s->o descriptions with TFLite's 16x8 rules (mrtq/conv_s16.h: Q31
 * scheme, zp 0, qmin / qmax within int16, m.mult >= 0, m.shift in [-31, 7]).
 * Per element y = clamp(wrap32(R(S + bias[co])), qmin, qmax) as the header
 * comment states. Bit-exact with TFLite's reference
 * TransposeConv<int64_t> (int16) for every accepted input.
 * Errors (nothing written): as mrtq_tflite_tconv_q8 for the shape, pointers
 * and scratch; x or w failing the 16x8 operand rules, an rq[c] failing the
 * 16x8 descriptor rules (the reasons of mrtq_conv2d_s16x8_acc64);
 * T 2^22 + max|bias| >= 2^47 -> MRTQ_EOVERFLOW. */
MRTQ_API mrtq_status mrtq_tflite_tconv_s16x8(const mrtq_tflite_tconv_shape *s, const mrtq_rq *rq, size_t nrq,
                                             const mrtq_qoperand *x, const mrtq_qoperand *w, const int64_t *bias,
                                             void *scratch, int16_t *out);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

/* One axis of TFLite's ComputePaddingHeightWidth for a transposed
 * convolution: in, k < 2^31, stride in [1, 2^31) (checked by the caller);
 * exact in int64 with C's truncating division, as TFLite's int code. */
MRTQ__PRIV size_t mrtq__tconv_pad1(mrtq_tflite_padding pad, size_t in, size_t k, size_t stride) {
  int64_t i = (int64_t)in, f = (int64_t)k, st = (int64_t)stride;
  int64_t out = pad == MRTQ_TFLITE_PAD_SAME ? (i + st - 1) / st : (i + st - f) / st;
  int64_t total = (out - 1) * st + f - i; /* |.| < 2^63: every factor below 2^32 */
  return total > 0 ? (size_t)(total / 2) : 0;
}

/* The shape's checks: strides, sizes within int, element counts within size_t. */
MRTQ__PRIV mrtq_status mrtq__tconv_shape_check(const mrtq_tflite_tconv_shape *s) {
  const size_t lim = (size_t)INT32_MAX;
  if (!s) return MRTQ__ERR(MRTQ_EINVAL, "s: NULL");
  if (!s->stride_h) return MRTQ__ERR(MRTQ_ESHAPE, "s->stride_h: must be >= 1");
  if (!s->stride_w) return MRTQ__ERR(MRTQ_ESHAPE, "s->stride_w: must be >= 1");
  if (s->n > lim || s->h > lim || s->w > lim || s->c > lim || s->o > lim || s->kh > lim || s->kw > lim ||
      s->oh > lim || s->ow > lim || s->stride_h > lim || s->stride_w > lim || s->pad_top > lim || s->pad_left > lim)
    return MRTQ__ERR(MRTQ_ESHAPE, "s: every size, stride and pad must be <= 2^31 - 1 (TFLite's dimensions are int)");
  return MRTQ_OK;
}

/* a * b * c * d within size_t (0 when any is 0); 1 on overflow. */
MRTQ__PRIV int mrtq__tconv_count(size_t a, size_t b, size_t c, size_t d, size_t *out) {
  size_t v = a;
  if (!a || !b || !c || !d) return *out = 0, 0;
  if (v > SIZE_MAX / b) return 1;
  v *= b;
  if (v > SIZE_MAX / c) return 1;
  v *= c;
  if (v > SIZE_MAX / d) return 1;
  *out = v * d;
  return 0;
}

/* The three tensors' element counts and the scratch's bytes (esz per element). */
MRTQ__PRIV mrtq_status mrtq__tconv_counts(const mrtq_tflite_tconv_shape *s, size_t esz, size_t *nx, size_t *nw,
                                          size_t *ny, size_t *bytes) {
  mrtq_status st = mrtq__tconv_shape_check(s);
  if (st != MRTQ_OK) return st;
  if (mrtq__tconv_count(s->n, s->h, s->w, s->c, nx))
    return MRTQ__ERR(MRTQ_ESHAPE, "s: the input's element count n h w c overflows size_t");
  if (mrtq__tconv_count(s->o, s->kh, s->kw, s->c, nw))
    return MRTQ__ERR(MRTQ_ESHAPE, "s: the filter's element count o kh kw c overflows size_t");
  if (mrtq__tconv_count(s->n, s->oh, s->ow, s->o, ny) || *ny > SIZE_MAX / esz)
    return MRTQ__ERR(MRTQ_ESHAPE, "s: the output's element count n oh ow o (or its scratch bytes) overflows size_t");
  *bytes = *ny * esz;
  return MRTQ_OK;
}

/* T: the most products that reach one output element. */
MRTQ__PRIV uint64_t mrtq__tconv_taps(const mrtq_tflite_tconv_shape *s) {
  uint64_t th = ((uint64_t)s->kh + s->stride_h - 1) / s->stride_h, tw = ((uint64_t)s->kw + s->stride_w - 1) / s->stride_w;
  uint64_t t;
  if (th > s->h) th = s->h;
  if (tw > s->w) tw = s->w;
  t = (uint64_t)s->c * th; /* each factor < 2^31 (checked): t < 2^62 */
  if (t && tw > ((uint64_t)1 << 62) / t) return (uint64_t)1 << 62; /* saturated: refused by both callers */
  return t * tw;
}

MRTQ_API mrtq_status mrtq_tflite_tconv_pad(mrtq_tflite_padding pad, mrtq_tflite_tconv_shape *s) {
  mrtq_status st;
  if (!s) return MRTQ__ERR(MRTQ_EINVAL, "s: NULL");
  if (pad != MRTQ_TFLITE_PAD_SAME && pad != MRTQ_TFLITE_PAD_VALID)
    return MRTQ__ERR(MRTQ_EINVAL, "pad: must be MRTQ_TFLITE_PAD_SAME or MRTQ_TFLITE_PAD_VALID");
  if ((st = mrtq__tconv_shape_check(s)) != MRTQ_OK) return st;
  s->pad_top = mrtq__tconv_pad1(pad, s->oh, s->kh, s->stride_h);
  s->pad_left = mrtq__tconv_pad1(pad, s->ow, s->kw, s->stride_w);
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_tconv_scratch_size(const mrtq_tflite_tconv_shape *s, mrtq_dtype x_type,
                                                    size_t *bytes) {
  size_t nx, nw, ny, b;
  mrtq_status st;
  if (!s) return MRTQ__ERR(MRTQ_EINVAL, "s: NULL");
  if (!bytes) return MRTQ__ERR(MRTQ_EINVAL, "bytes: NULL");
  if ((st = MRTQ__Q816_TYPE(x_type, "x_type")) != MRTQ_OK) return st;
  if ((st = mrtq__tconv_counts(s, x_type == MRTQ_S16 ? 8 : 4, &nx, &nw, &ny, &b)) != MRTQ_OK) return st;
  *bytes = b;
  return MRTQ_OK;
}

/* QuantizeMultiplier of Prepare's real multiplier (finite, non-negative
 * scales): the uint8 path multiplies the two float scales in float. */
MRTQ__PRIV mrtq_mult mrtq__tconv_mult(float s_x, float s_w, float s_y, mrtq_dtype x_type) {
  float prod = s_x * s_w; /* rounded to float (FLT_EVAL_METHOD 0, see requant.h) */
  double r = x_type == MRTQ_U8 ? (double)prod / (double)s_y : (double)s_x * (double)s_w / (double)s_y;
  mrtq_mult m = {0, 0};
  (void)mrtq_mult_q31(r, &m); /* r finite (at most 2^256) and >= 0: cannot fail */
  return m;
}

MRTQ_API mrtq_status mrtq_tflite_tconv_rq_init(float s_x, const float *s_w, size_t nw, float s_y, int32_t zp_y,
                                               int32_t qmin, int32_t qmax, mrtq_dtype x_type, mrtq_rq *rq) {
  size_t c;
  mrtq_status st;
  if ((st = MRTQ__Q816_TYPE(x_type, "x_type")) != MRTQ_OK) return st;
  if (!s_w) return MRTQ__ERR(MRTQ_EINVAL, "s_w: NULL");
  if (!rq) return MRTQ__ERR(MRTQ_EINVAL, "rq: NULL");
  if (!nw) return MRTQ__ERR(MRTQ_EINVAL, "nw: must be >= 1");
  if (x_type == MRTQ_U8 && nw != 1)
    return MRTQ__ERR(MRTQ_EINVAL, "nw: must be 1 with MRTQ_U8 (TFLite's uint8 TRANSPOSE_CONV is per tensor)");
  if (mrtq__nonfinite_f32(s_x) || !(s_x > 0)) return MRTQ__ERR(MRTQ_EINVAL, "s_x: must be finite and > 0");
  if (mrtq__nonfinite_f32(s_y) || !(s_y > 0)) return MRTQ__ERR(MRTQ_EINVAL, "s_y: must be finite and > 0");
  for (c = 0; c < nw; c++)
    if (mrtq__nonfinite_f32(s_w[c]) || !(s_w[c] >= 0)) return MRTQ__ERR(MRTQ_EINVAL, "s_w[c]: must be finite and >= 0");
  if (!mrtq__in_type(zp_y, x_type)) return MRTQ__ERR(MRTQ_EINVAL, "zp_y: outside x_type");
  if (x_type == MRTQ_S16 && zp_y) return MRTQ__ERR(MRTQ_EINVAL, "zp_y: must be 0 with MRTQ_S16 (TFLite 16x8 outputs have no zero point)");
  if (!mrtq__in_type(qmin, x_type) || !mrtq__in_type(qmax, x_type))
    return MRTQ__ERR(MRTQ_EINVAL, "qmin, qmax: outside x_type");
  if (qmin > qmax) return MRTQ__ERR(MRTQ_EINVAL, "qmin: must be <= qmax");
  /* every multiplier first, so that a refusal writes nothing */
  for (c = 0; c < nw; c++)
    if (mrtq__tconv_mult(s_x, s_w[c], s_y, x_type).shift > 30)
      return MRTQ__ERR(MRTQ_ERANGE, "s_w[c]: s_x s_w[c] / s_y must be below 2^30 (a Q31 shift above 30)");
  for (c = 0; c < nw; c++) /* checked above: cannot fail */
    (void)mrtq_rq_from_mult(MRTQ_Q31_DBL, mrtq__tconv_mult(s_x, s_w[c], s_y, x_type), zp_y, qmin, qmax, &rq[c]);
  return MRTQ_OK;
}

/* Everything both kernels check but the operand types and requantizations:
 * the shape, the pointers, the scratch's alignment. *nx, *nw, *ny: element
 * counts. */
MRTQ__PRIV mrtq_status mrtq__tconv_args(const mrtq_tflite_tconv_shape *s, const mrtq_qoperand *x,
                                        const mrtq_qoperand *w, const mrtq_rq *rq, size_t nrq, const void *scratch,
                                        const void *out, size_t esz, size_t *nx, size_t *nw, size_t *ny) {
  size_t bytes;
  mrtq_status st = mrtq__tconv_counts(s, esz, nx, nw, ny, &bytes);
  if (st != MRTQ_OK) return st;
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  if (!w) return MRTQ__ERR(MRTQ_EINVAL, "w: NULL");
  if (*nx && !x->data) return MRTQ__ERR(MRTQ_EINVAL, "x->data: NULL (allowed only for an empty input)");
  if (*nw && !w->data) return MRTQ__ERR(MRTQ_EINVAL, "w->data: NULL (allowed only for an empty filter)");
  if (!rq) return MRTQ__ERR(MRTQ_EINVAL, "rq: NULL");
  if (nrq != 1 && nrq != s->o) return MRTQ__ERR(MRTQ_EINVAL, "nrq: must be 1 or s->o");
  if (*ny && !out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL (allowed only for an empty output)");
  if (*ny && !scratch) return MRTQ__ERR(MRTQ_EINVAL, "scratch: NULL (allowed only for an empty output)");
  if (*ny && (uintptr_t)scratch % sizeof(int64_t))
    return MRTQ__ERR(MRTQ_EINVAL, "scratch: must be aligned for int64_t");
  return MRTQ_OK;
}

/* The scatter, the same loops for both kernels: ACC is the scratch's element
 * type, LOADX / LOADW read the (offset-corrected) input and filter values as
 * ACC at indices xa, wa. The scratch was zeroed by the caller. */
#define MRTQ__TCONV_SCATTER(ACC, acc, LOADX, LOADW)                                                           \
  for (b = 0; b < s->n; b++)                                                                                  \
    for (iy = 0; iy < s->h; iy++)                                                                             \
      for (ix = 0; ix < s->w; ix++) {                                                                         \
        int64_t y0 = (int64_t)iy * (int64_t)s->stride_h - (int64_t)s->pad_top;                                \
        int64_t x0 = (int64_t)ix * (int64_t)s->stride_w - (int64_t)s->pad_left;                               \
        size_t xa0 = ((b * s->h + iy) * s->w + ix) * s->c;                                                    \
        for (fy = 0; fy < s->kh; fy++) {                                                                      \
          int64_t oy = y0 + (int64_t)fy;                                                                      \
          if (oy < 0 || oy >= (int64_t)s->oh) continue;                                                       \
          for (fx = 0; fx < s->kw; fx++) {                                                                    \
            int64_t ox = x0 + (int64_t)fx;                                                                    \
            ACC *dst;                                                                                         \
            if (ox < 0 || ox >= (int64_t)s->ow) continue;                                                     \
            dst = acc + ((b * s->oh + (size_t)oy) * s->ow + (size_t)ox) * s->o;                               \
            for (co = 0; co < s->o; co++) {                                                                   \
              size_t wa0 = ((co * s->kh + fy) * s->kw + fx) * s->c;                                           \
              ACC sum = 0;                                                                                    \
              for (ci = 0; ci < s->c; ci++) {                                                                 \
                size_t xa = xa0 + ci, wa = wa0 + ci;                                                          \
                sum += (LOADX) * (LOADW);                                                                     \
              }                                                                                               \
              dst[co] += sum;                                                                                 \
            }                                                                                                 \
          }                                                                                                   \
        }                                                                                                     \
      }

MRTQ_API mrtq_status mrtq_tflite_tconv_q8(const mrtq_tflite_tconv_shape *s, const mrtq_rq *rq, size_t nrq,
                                          const mrtq_qoperand *x, const mrtq_qoperand *w, const int32_t *bias,
                                          void *scratch, void *out) {
  size_t nx, nw, ny, c, b, iy, ix, fy, fx, co, ci, i;
  int32_t xlo = 0, xhi = 0, zx, zw, *acc = (int32_t *)scratch;
  uint64_t ax, aw, bmax = 0;
  mrtq_status st = mrtq__tconv_args(s, x, w, rq, nrq, scratch, out, 4, &nx, &nw, &ny);
  if (st != MRTQ_OK) return st;
  if ((st = MRTQ__Q8_TYPE(x->type, "x->type")) != MRTQ_OK) return st;
  if (!mrtq__dtype_ok(w->type)) return MRTQ__ERR(MRTQ_EINVAL, "w->type: not an mrtq_dtype (0: a zero-initialised operand)");
  if (w->type != x->type) return MRTQ__ERR(MRTQ_EINVAL, "w->type: must be x->type (TFLite's 8-bit TRANSPOSE_CONV)");
  if (x->zp_ch) return MRTQ__ERR(MRTQ_EINVAL, "x->zp_ch: must be NULL (an activation has one zero point)");
  if (w->zp_ch)
    return MRTQ__ERR(MRTQ_EINVAL, "w->zp_ch: must be NULL (TFLite's TRANSPOSE_CONV reads one filter zero point, or none)");
  if (!mrtq__in_type(x->zp, x->type)) return MRTQ__ERR(MRTQ_EINVAL, "x->zp: outside x->type");
  if (!mrtq__in_type(w->zp, w->type)) return MRTQ__ERR(MRTQ_EINVAL, "w->zp: outside w->type");
  if (x->type == MRTQ_S8 && w->zp)
    return MRTQ__ERR(MRTQ_EINVAL, "w->zp: must be 0 with MRTQ_S8 (TFLite's int8 TransposeConv ignores a filter zero point)");
  if (x->type == MRTQ_U8 && nrq != 1)
    return MRTQ__ERR(MRTQ_EINVAL, "nrq: must be 1 with MRTQ_U8 (TFLite's uint8 TRANSPOSE_CONV is per tensor)");
  for (c = 0; c < nrq; c++) {
    int pc = nrq > 1 ? 1 : 0; /* the reasons name rq[c]. or rq-> */
    if ((st = mrtq__rq_check(&rq[c], pc)) != MRTQ_OK) return st;
    if (rq[c].scheme != MRTQ_Q31_DBL && rq[c].scheme != MRTQ_Q31_RNDNU)
      return MRTQ__RQ_ERR(pc, MRTQ_EUNSUPPORTED,
                          "scheme: must be MRTQ_Q31_DBL or MRTQ_Q31_RNDNU (TFLite requantizes with a Q31 multiplier)");
    if (!mrtq__in_type(rq[c].zp, x->type)) return MRTQ__RQ_ERR(pc, MRTQ_EINVAL, "zp: outside x->type");
  }
  (void)mrtq_dtype_range(x->type, &xlo, &xhi);
  zx = x->zp, zw = w->zp;
  ax = (uint64_t)(xhi - zx > zx - xlo ? xhi - zx : zx - xlo);
  aw = x->type == MRTQ_S8 ? 128 : (uint64_t)(xhi - zw > zw - xlo ? xhi - zw : zw - xlo);
  for (c = 0; bias && c < s->o; c++) {
    uint64_t v = bias[c] < 0 ? (uint64_t)0 - (uint64_t)(int64_t)bias[c] : (uint64_t)bias[c];
    if (v > bmax) bmax = v;
  }
  {
    uint64_t t = mrtq__tconv_taps(s);
    if (t > ((uint64_t)1 << 31) || t * ax * aw + bmax > (uint64_t)INT32_MAX)
      return MRTQ__ERR(MRTQ_EOVERFLOW,
                       "s, bias: T |X| |W| + max|bias| could overflow int32 (T = c min(h, ceil(kh / stride_h)) "
                       "min(w, ceil(kw / stride_w)))");
  }
  if (!ny) return MRTQ_OK;
  memset(acc, 0, ny * sizeof(int32_t));
  if (x->type == MRTQ_U8) {
    const uint8_t *xd = (const uint8_t *)x->data, *wd = (const uint8_t *)w->data;
    MRTQ__TCONV_SCATTER(int32_t, acc, (int32_t)xd[xa] - zx, (int32_t)wd[wa] - zw)
  } else {
    const int8_t *xd = (const int8_t *)x->data, *wd = (const int8_t *)w->data;
    MRTQ__TCONV_SCATTER(int32_t, acc, (int32_t)xd[xa] - zx, (int32_t)wd[wa])
  }
  for (i = 0; i < ny; i++) {
    size_t o = i % s->o;
    int32_t v = mrtq_rq_apply(&rq[nrq == 1 ? 0 : o], acc[i] + (bias ? bias[o] : 0), xlo, xhi);
    mrtq__store(out, i, x->type, v);
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_tconv_s16x8(const mrtq_tflite_tconv_shape *s, const mrtq_rq *rq, size_t nrq,
                                             const mrtq_qoperand *x, const mrtq_qoperand *w, const int64_t *bias,
                                             void *scratch, int16_t *out) {
  size_t nx, nw, ny, c, b, iy, ix, fy, fx, co, ci, i;
  int64_t *acc = (int64_t *)scratch;
  uint64_t bmax = 0, t;
  mrtq_status st = mrtq__tconv_args(s, x, w, rq, nrq, scratch, out, 8, &nx, &nw, &ny);
  if (st != MRTQ_OK) return st;
  if ((st = mrtq__s16_x_check(x, 0, 0)) != MRTQ_OK) return st;
  if (!mrtq__dtype_ok(w->type)) return MRTQ__ERR(MRTQ_EINVAL, "w->type: not an mrtq_dtype (0: a zero-initialised operand)");
  if (w->type != MRTQ_S8) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "w->type: must be MRTQ_S8 (TFLite 16x8 weights are int8)");
  if (w->zp_ch) return MRTQ__ERR(MRTQ_EINVAL, "w->zp_ch: must be NULL (TFLite 16x8 weights are symmetric: zero point 0)");
  if (w->zp) return MRTQ__ERR(MRTQ_EINVAL, "w->zp: must be 0 (TFLite 16x8 weights are symmetric)");
  for (c = 0; c < nrq; c++)
    if ((st = mrtq__s16_rq_check(&rq[c], nrq > 1 ? 1 : 0, 1)) != MRTQ_OK) return st;
  for (c = 0; bias && c < s->o; c++) {
    uint64_t v = bias[c] < 0 ? (uint64_t)0 - (uint64_t)bias[c] : (uint64_t)bias[c];
    if (v > bmax) bmax = v;
  }
  t = mrtq__tconv_taps(s);
  if (t >= ((uint64_t)1 << 25) || (t << 22) + bmax >= ((uint64_t)1 << 47))
    return MRTQ__ERR(MRTQ_EOVERFLOW, "s, bias: T 2^22 + max|bias| must stay below 2^47, the domain of TFLite's "
                                     "64-bit multiply (T = c min(h, ceil(kh / stride_h)) min(w, ceil(kw / stride_w)))");
  if (!ny) return MRTQ_OK;
  memset(acc, 0, ny * sizeof(int64_t));
  {
    const int8_t *wd = (const int8_t *)w->data;
    MRTQ__TCONV_SCATTER(int64_t, acc, (int64_t)mrtq__load(x->data, xa, MRTQ_S16), (int64_t)wd[wa])
  }
  for (i = 0; i < ny; i++) {
    size_t o = i % s->o;
    const mrtq_rq *r = &rq[nrq == 1 ? 0 : o];
    out[i] = (int16_t)mrtq__clamp64(mrtq__s16_x64_wrap(acc[i] + (bias ? bias[o] : 0), r->m), r->qmin, r->qmax);
  }
  return MRTQ_OK;
}
#undef MRTQ__TCONV_SCATTER

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_TRANSPOSE_CONV_H */
