/* mrtq/pool.h -- 2-D pooling reference kernels on int8/uint8 tensors, and
 * int16 for max pooling and TFLite's average pooling (NCHW or NHWC, batch N): max pooling (padding never wins, as MRT's INT_MIN
 * padding and TFLite's valid-only window), TFLite's average pooling (valid
 * elements only, rounding half away from zero), and average pooling as MRT
 * rewrites it (a window sum with zero padding, then any requantization). */
#ifndef MRTQ_POOL_H
#define MRTQ_POOL_H

#include "requant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* One pooling layer. Every field is read by every kernel; mrtq_pool2d_out
 * checks the geometry (all but `type`). */
typedef struct mrtq_pool2d {
  size_t n, c, h, w;                 /* input: batch, channels, height, width (each >= 1) */
  size_t kh, kw, stride_h, stride_w; /* window and stride (each >= 1) */
  size_t pad_top, pad_left, pad_bottom, pad_right; /* each < the window along its axis */
  mrtq_layout layout;                /* MRTQ_NCHW or MRTQ_NHWC; the output has the same layout */
  mrtq_dtype type;                   /* MRTQ_S8, MRTQ_U8 (MRTQ_S16 where a kernel says so): input and output elements */
} mrtq_pool2d;

/* Output height and width: ho = (h + pad_top + pad_bottom - kh) / stride_h
 * + 1, wo likewise (floor).
 * Errors: p, ho or wo NULL, p->layout not an mrtq_layout -> MRTQ_EINVAL; a
 * zero size, window or stride, padding at least as large as the window (a
 * window of padding only), a window larger than the padded input, or sizes
 * overflowing size_t -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_pool2d_out(const mrtq_pool2d *p, size_t *ho, size_t *wo);

/* Max pooling: out = clamp(max of the window's valid elements, qmin, qmax)
 * (padding never wins; the shape rules guarantee a valid element). Input and
 * output share quantization. x holds n*c*h*w elements of p->type (MRTQ_S8,
 * MRTQ_U8 or MRTQ_S16; int16 at any alignment), out n*c*ho*wo in the same
 * layout. Bit-exact with TFLite's (int8, uint8, int16: reference_integer_ops::
 * MaxPool) and XNNPACK's max pooling.
 * Errors: as mrtq_pool2d_out; p->type another mrtq_dtype than S8 / U8 / S16 ->
 * MRTQ_EUNSUPPORTED, outside the enum (0: a zeroed struct) -> MRTQ_EINVAL;
 * x or out NULL, qmin or qmax outside the type, qmin > qmax -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_maxpool2d(const mrtq_pool2d *p, const void *x, int32_t qmin, int32_t qmax, void *out);

/* TFLite's quantized average pooling (reference kernel): over the window's
 * valid elements only, count = their number, s = their sum (stored values),
 *   avg = s > 0 ? (s + count/2) / count : (s - count/2) / count   (C
 * division truncating toward zero: round half away from zero), clamped to
 * [qmin, qmax]. Input and output share quantization. p->type MRTQ_S8, MRTQ_U8
 * or MRTQ_S16; TFLite's int16 kernel (reference_integer_ops::AveragePool for
 * int16_t) is the same computation with an int32 sum, so mrtq refuses an
 * int16 layer whose windows could hold more than 65535 valid elements
 * (min(kh, h) * min(kw, w) > 65535: then the sum, or the rounding step
 * s - count/2, could leave int32). Bit-exact with TFLite.
 * Errors as mrtq_maxpool2d; MRTQ_S16 with min(kh, h) * min(kw, w) > 65535 ->
 * MRTQ_EOVERFLOW. */
MRTQ_API mrtq_status mrtq_avgpool2d_tflite(const mrtq_pool2d *p, const void *x, int32_t qmin, int32_t qmax,
                                           void *out);

/* Average pooling as MRT rewrites it: the window sum of (x - x_zp) with padding
 * counted as real zeros (a depthwise convolution with a ones kernel), then a
 * requantization, usually of scale s_x / (kh * kw * s_out):
 *   out = mrtq_rq_apply(rq, sum, the range of p->type)
 * (rq from mrtq_rq_init with any family; its own [qmin, qmax] applies too).
 * 8-bit only: p->type MRTQ_S8 or MRTQ_U8 (MRTQ_S16 is refused).
 * Errors: as mrtq_pool2d_out; p->type another mrtq_dtype than S8 / U8 -> MRTQ_EUNSUPPORTED, outside the enum (0: a
 * zeroed struct) -> MRTQ_EINVAL;
 * rq, x or out NULL, x_zp outside the type, an rq that fails the array
 * functions' descriptor checks (scheme, fields it does not read, qmin <=
 * qmax) -> MRTQ_EINVAL; kh * kw * 255 not
 * within int32 -> MRTQ_EOVERFLOW. */
MRTQ_API mrtq_status mrtq_avgpool2d_rq(const mrtq_pool2d *p, const mrtq_rq *rq, const void *x, int32_t x_zp,
                                       void *out);

/* XNNPACK's max pooling (xnn_create_max_pooling2d_nhwc_s8 / _u8, Debian's
 * 2022 snapshot), which has dilation and accepts padding as large as the
 * window or larger. Taps at rows oy stride_h + ky dil_h - pad_top (ky < kh)
 * and columns likewise; padding never wins:
 *   out = clamp(max over the taps inside the input, qmin, qmax)
 * (with dil_h = dil_w = 1 and padding below the window: mrtq_maxpool2d).
 * Output: ho = (h + pad_top + pad_bottom - ((kh - 1) dil_h + 1)) / stride_h
 * + 1, likewise wo (mrtq_maxpool2d_xnn_out). Every output window must hold a
 * tap inside the input (the stride may skip the all-padding ones; XNNPACK
 * accepts IH 2, IW 1, pool 1x2, stride 3, bottom 1, left 1: one output, the
 * first row's element). p->type MRTQ_S8 or MRTQ_U8, either layout.
 * Errors: p, x, out, ho or wo NULL, layout outside mrtq_layout, qmin / qmax
 * outside the type or qmin > qmax -> MRTQ_EINVAL; a zero size, window,
 * stride or dilation, a dilated window larger than the padded input, a
 * window of padding only, sizes overflowing size_t -> MRTQ_ESHAPE; a
 * dilation above 1 (either axis) together with bottom or right padding
 * (either), or dil_h > 1 with dil_w 1 and pad_left > (kw - 1) / 2 ->
 * MRTQ_EUNSUPPORTED: the 2022 XNNPACK gives bytes there that are no function
 * of the window (it reads outside it; tests/test_xnnpack.c counts such
 * layers), so there is no behaviour to reproduce; p->type another mrtq_dtype
 * -> MRTQ_EUNSUPPORTED (outside the enum: MRTQ_EINVAL). Nothing is written on
 * error. */
MRTQ_API mrtq_status mrtq_maxpool2d_xnn_out(const mrtq_pool2d *p, size_t dil_h, size_t dil_w, size_t *ho,
                                            size_t *wo);
MRTQ_API mrtq_status mrtq_maxpool2d_xnn(const mrtq_pool2d *p, size_t dil_h, size_t dil_w, const void *x,
                                        int32_t qmin, int32_t qmax, void *out);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

/* The checks every pooling geometry starts with (both output-size rules). */
MRTQ__PRIV mrtq_status mrtq__pool_shape_args(const mrtq_pool2d *p, const size_t *ho, const size_t *wo) {
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!ho || !wo) return MRTQ__ERR(MRTQ_EINVAL, "ho, wo: NULL");
  if (p->layout != MRTQ_NCHW && p->layout != MRTQ_NHWC)
    return MRTQ__ERR(MRTQ_EINVAL, "p->layout: must be MRTQ_NCHW or MRTQ_NHWC");
  if (!p->n || !p->c || !p->h || !p->w) return MRTQ__ERR(MRTQ_ESHAPE, "p->n, p->c, p->h, p->w: must be >= 1");
  if (!p->kh || !p->kw) return MRTQ__ERR(MRTQ_ESHAPE, "p->kh, p->kw: must be >= 1");
  if (!p->stride_h || !p->stride_w) return MRTQ__ERR(MRTQ_ESHAPE, "p->stride_h, p->stride_w: must be >= 1");
  return MRTQ_OK;
}

/* n c max(oh, h) max(ow, w) fits size_t (input and output element counts). */
MRTQ__PRIV mrtq_status mrtq__pool_count_ok(const mrtq_pool2d *p, size_t oh, size_t ow) {
  size_t mh = oh > p->h ? oh : p->h, mw = ow > p->w ? ow : p->w;
  if (p->n > SIZE_MAX / p->c || p->n * p->c > SIZE_MAX / mh || p->n * p->c * mh > SIZE_MAX / mw)
    return MRTQ__ERR(MRTQ_ESHAPE, "p: element count overflows size_t");
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_pool2d_out(const mrtq_pool2d *p, size_t *ho, size_t *wo) {
  size_t hp, wp;
  mrtq_status st = mrtq__pool_shape_args(p, ho, wo);
  if (st != MRTQ_OK) return st;
  if (p->pad_top >= p->kh || p->pad_bottom >= p->kh)
    return MRTQ__ERR(MRTQ_ESHAPE, "p->pad_top, p->pad_bottom: must be < p->kh");
  if (p->pad_left >= p->kw || p->pad_right >= p->kw)
    return MRTQ__ERR(MRTQ_ESHAPE, "p->pad_left, p->pad_right: must be < p->kw");
  if (p->h > SIZE_MAX / 4 || p->w > SIZE_MAX / 4 || p->kh > SIZE_MAX / 4 || p->kw > SIZE_MAX / 4)
    return MRTQ__ERR(MRTQ_ESHAPE, "p: sizes overflow size_t");
  hp = p->h + p->pad_top + p->pad_bottom, wp = p->w + p->pad_left + p->pad_right;
  if (p->kh > hp) return MRTQ__ERR(MRTQ_ESHAPE, "p->kh: larger than the padded height");
  if (p->kw > wp) return MRTQ__ERR(MRTQ_ESHAPE, "p->kw: larger than the padded width");
  {
    size_t oh = (hp - p->kh) / p->stride_h + 1, ow = (wp - p->kw) / p->stride_w + 1;
    if ((st = mrtq__pool_count_ok(p, oh, ow)) != MRTQ_OK) return st;
    *ho = oh, *wo = ow;
  }
  return MRTQ_OK;
}

/* Visit one output element's window (taps dil_h / dil_w apart; 1: dense):
 * the sum of (v - x_zp) and the maximum of its valid (non-padding) elements,
 * and their count. */
MRTQ__PRIV void mrtq__pool_window(const mrtq_pool2d *p, size_t dil_h, size_t dil_w, const void *x, size_t n,
                                  size_t ch, size_t oy, size_t ox, int32_t x_zp, int64_t *sum, int32_t *max,
                                  size_t *count) {
  size_t ky, kx;
  *sum = 0, *max = INT32_MIN, *count = 0;
  for (ky = 0; ky < p->kh; ky++)
    for (kx = 0; kx < p->kw; kx++) {
      size_t iy = oy * p->stride_h + ky * dil_h, ix = ox * p->stride_w + kx * dil_w, at;
      int32_t v;
      if (iy < p->pad_top || iy >= p->pad_top + p->h || ix < p->pad_left || ix >= p->pad_left + p->w) continue;
      iy -= p->pad_top, ix -= p->pad_left;
      at = p->layout == MRTQ_NCHW ? ((n * p->c + ch) * p->h + iy) * p->w + ix
                                  : ((n * p->h + iy) * p->w + ix) * p->c + ch;
      v = mrtq__load(x, at, p->type);
      *sum += v - x_zp, *count += 1;
      if (v > *max) *max = v;
    }
}

MRTQ__PRIV size_t mrtq__pool_out_at(const mrtq_pool2d *p, size_t ho, size_t wo, size_t n, size_t ch, size_t oy,
                                    size_t ox) {
  return p->layout == MRTQ_NCHW ? ((n * p->c + ch) * ho + oy) * wo + ox : ((n * ho + oy) * wo + ox) * p->c + ch;
}

enum { MRTQ__POOL_MAX = 0, MRTQ__POOL_AVG_TFLITE = 1, MRTQ__POOL_AVG_RQ = 2 };

/* The shared loop: one window per output element, reduced by `mode`. */
MRTQ__PRIV void mrtq__pool2d(const mrtq_pool2d *p, size_t dil_h, size_t dil_w, size_t ho, size_t wo, const void *x,
                             int mode, int32_t qmin, int32_t qmax, int32_t x_zp, const mrtq_rq *rq, void *out) {
  size_t n, ch, oy, ox;
  for (n = 0; n < p->n; n++)
    for (ch = 0; ch < p->c; ch++)
      for (oy = 0; oy < ho; oy++)
        for (ox = 0; ox < wo; ox++) {
          int64_t s, c;
          int32_t mx, v;
          size_t cnt;
          mrtq__pool_window(p, dil_h, dil_w, x, n, ch, oy, ox, x_zp, &s, &mx, &cnt);
          c = (int64_t)cnt;
          if (mode == MRTQ__POOL_MAX) v = mrtq__clamp64(mx, qmin, qmax);
          else if (mode == MRTQ__POOL_AVG_TFLITE) v = mrtq__clamp64(s > 0 ? (s + c / 2) / c : (s - c / 2) / c, qmin, qmax);
          else v = mrtq_rq_apply(rq, (int32_t)s, qmin, qmax);
          mrtq__store(out, mrtq__pool_out_at(p, ho, wo, n, ch, oy, ox), p->type, v);
        }
}

/* The data pointers and output bounds every max / TFLite-average pooling checks. */
MRTQ__PRIV mrtq_status mrtq__pool_operands(const mrtq_pool2d *p, const void *x, int32_t qmin, int32_t qmax,
                                           const void *out) {
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (!mrtq__in_type(qmin, p->type)) return MRTQ__ERR(MRTQ_EINVAL, "qmin: outside p->type");
  if (!mrtq__in_type(qmax, p->type)) return MRTQ__ERR(MRTQ_EINVAL, "qmax: outside p->type");
  if (qmin > qmax) return MRTQ__ERR(MRTQ_EINVAL, "qmin, qmax: qmin > qmax");
  return MRTQ_OK;
}

/* The checks mrtq_maxpool2d and mrtq_avgpool2d_tflite share (8-bit or int16). */
MRTQ__PRIV mrtq_status mrtq__pool_args(const mrtq_pool2d *p, const void *x, int32_t qmin, int32_t qmax, void *out,
                                       size_t *ho, size_t *wo) {
  mrtq_status st = mrtq_pool2d_out(p, ho, wo);
  if (st != MRTQ_OK) return st;
  {
    mrtq_status tst = MRTQ__Q816_TYPE(p->type, "p->type");
    if (tst != MRTQ_OK) return tst;
  }
  return mrtq__pool_operands(p, x, qmin, qmax, out);
}

MRTQ_API mrtq_status mrtq_maxpool2d(const mrtq_pool2d *p, const void *x, int32_t qmin, int32_t qmax, void *out) {
  size_t ho, wo;
  mrtq_status st = mrtq__pool_args(p, x, qmin, qmax, out, &ho, &wo);
  if (st != MRTQ_OK) return st;
  mrtq__pool2d(p, 1, 1, ho, wo, x, MRTQ__POOL_MAX, qmin, qmax, 0, NULL, out);
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_avgpool2d_tflite(const mrtq_pool2d *p, const void *x, int32_t qmin, int32_t qmax,
                                           void *out) {
  size_t ho, wo;
  mrtq_status st = mrtq__pool_args(p, x, qmin, qmax, out, &ho, &wo);
  if (st != MRTQ_OK) return st;
  /* TFLite sums in int32: |sum| <= count * 2^15, count <= min(kh, h) * min(kw, w) valid elements */
  if (p->type == MRTQ_S16 && (p->kh < p->h ? p->kh : p->h) > 65535 / (p->kw < p->w ? p->kw : p->w))
    return MRTQ__ERR(MRTQ_EOVERFLOW, "p->kh, p->kw: a window holds more than 65535 valid elements "
                                     "(min(kh, h) * min(kw, w)) for MRTQ_S16 (TFLite's int32 window sum)");
  mrtq__pool2d(p, 1, 1, ho, wo, x, MRTQ__POOL_AVG_TFLITE, qmin, qmax, 0, NULL, out);
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_avgpool2d_rq(const mrtq_pool2d *p, const mrtq_rq *rq, const void *x, int32_t x_zp,
                                       void *out) {
  size_t ho, wo;
  int32_t lo, hi;
  mrtq_status st = mrtq_pool2d_out(p, &ho, &wo);
  if (st != MRTQ_OK) return st;
  {
    mrtq_status tst = MRTQ__Q8_TYPE(p->type, "p->type");
    if (tst != MRTQ_OK) return tst;
  }
  lo = p->type == MRTQ_U8 ? 0 : -128, hi = p->type == MRTQ_U8 ? 255 : 127;
  if (!rq) return MRTQ__ERR(MRTQ_EINVAL, "rq: NULL");
  if ((st = mrtq__rq_check(rq, 0)) != MRTQ_OK) return st;
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (x_zp < lo || x_zp > hi) return MRTQ__ERR(MRTQ_EINVAL, "x_zp: outside p->type");
  if (p->kh > (size_t)INT32_MAX / 255 / p->kw) /* |x - x_zp| <= 255 per element */
    return MRTQ__ERR(MRTQ_EOVERFLOW, "p->kh, p->kw: kh * kw * 255 exceeds int32");
  mrtq__pool2d(p, 1, 1, ho, wo, x, MRTQ__POOL_AVG_RQ, lo, hi, x_zp, rq, out);
  return MRTQ_OK;
}

/* Along one axis: the output count into *out; 0, or 1 (the dilated window
 * larger than the padded size), or 2 (a window without a tap inside [pad0,
 * pad0 + size)). Sizes were bounded by the caller, and dil == 1 or pad1 == 0
 * (the caller refuses the rest). O(1), no scan over the outputs:
 * - dil == 1: output o's taps are the run [o s, o s + k - 1], which moves
 *   right with o, so only the first (the run ends before pad0) and the last
 *   (it starts at or after pad0 + size) can miss the input;
 * - pad1 == 0: the last tap o s + (k - 1) dil <= padded - 1 = pad0 + size - 1
 *   is never past the input, so a window hits the input iff its last tap is at
 *   or after pad0, which is weakest for o = 0.
 * Both cases: miss iff (k - 1) dil < pad0 or (*out - 1) s >= pad0 + size. */
MRTQ__PRIV int mrtq__xnn_axis(size_t size, size_t k, size_t stride, size_t dil, size_t pad0, size_t pad1,
                              size_t *out) {
  size_t ek = (k - 1) * dil + 1, padded = size + pad0 + pad1;
  if (ek > padded) return 1;
  *out = (padded - ek) / stride + 1;
  if ((k - 1) * dil < pad0 || (*out - 1) * stride >= pad0 + size) return 2;
  return 0;
}

MRTQ_API mrtq_status mrtq_maxpool2d_xnn_out(const mrtq_pool2d *p, size_t dil_h, size_t dil_w, size_t *ho,
                                            size_t *wo) {
  size_t oh, ow;
  mrtq_status st = mrtq__pool_shape_args(p, ho, wo);
  if (st != MRTQ_OK) return st;
  if (!dil_h || !dil_w) return MRTQ__ERR(MRTQ_ESHAPE, "dil_h, dil_w: must be >= 1");
  if ((dil_h > 1 || dil_w > 1) && (p->pad_bottom || p->pad_right))
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "p->pad_bottom, p->pad_right: with a dilation above 1 XNNPACK (2022) reads "
                                        "outside the window");
  if (dil_h > 1 && dil_w == 1 && p->pad_left > (p->kw - 1) / 2)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "p->pad_left: above (kw - 1) / 2 with dil_h > 1, dil_w 1 XNNPACK (2022) "
                                        "reads outside the window");
  if (p->h > SIZE_MAX / 4 || p->w > SIZE_MAX / 4 || p->kh > SIZE_MAX / 4 / dil_h || p->kw > SIZE_MAX / 4 / dil_w ||
      p->pad_top > SIZE_MAX / 4 || p->pad_bottom > SIZE_MAX / 4 || p->pad_left > SIZE_MAX / 4 ||
      p->pad_right > SIZE_MAX / 4)
    return MRTQ__ERR(MRTQ_ESHAPE, "p: sizes overflow size_t");
  switch (mrtq__xnn_axis(p->h, p->kh, p->stride_h, dil_h, p->pad_top, p->pad_bottom, &oh)) {
    case 1: return MRTQ__ERR(MRTQ_ESHAPE, "p->kh: the dilated window is larger than the padded height");
    case 2: return MRTQ__ERR(MRTQ_ESHAPE, "p->pad_top, p->pad_bottom: an output row whose window is padding only");
    default: break;
  }
  switch (mrtq__xnn_axis(p->w, p->kw, p->stride_w, dil_w, p->pad_left, p->pad_right, &ow)) {
    case 1: return MRTQ__ERR(MRTQ_ESHAPE, "p->kw: the dilated window is larger than the padded width");
    case 2: return MRTQ__ERR(MRTQ_ESHAPE, "p->pad_left, p->pad_right: an output column whose window is padding only");
    default: break;
  }
  if ((st = mrtq__pool_count_ok(p, oh, ow)) != MRTQ_OK) return st;
  *ho = oh, *wo = ow;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_maxpool2d_xnn(const mrtq_pool2d *p, size_t dil_h, size_t dil_w, const void *x,
                                        int32_t qmin, int32_t qmax, void *out) {
  size_t ho, wo;
  mrtq_status st = mrtq_maxpool2d_xnn_out(p, dil_h, dil_w, &ho, &wo);
  if (st != MRTQ_OK) return st;
  if ((st = MRTQ__Q8_TYPE(p->type, "p->type")) != MRTQ_OK) return st;
  if ((st = mrtq__pool_operands(p, x, qmin, qmax, out)) != MRTQ_OK) return st;
  mrtq__pool2d(p, dil_h, dil_w, ho, wo, x, MRTQ__POOL_MAX, qmin, qmax, 0, NULL, out);
  return MRTQ_OK;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_POOL_H */
