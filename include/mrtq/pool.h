/* mrtq/pool.h -- 2-D pooling reference kernels on int8/uint8 tensors
 * (NCHW or NHWC, batch N): max pooling (padding never wins, as MRT's INT_MIN
 * padding and TFLite's valid-only window), TFLite's average pooling (valid
 * elements only, rounding half away from zero), and average pooling as MRT
 * rewrites it (a window sum with zero padding, then any requantization). */
#ifndef MRTQ_POOL_H
#define MRTQ_POOL_H

#include "requant.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { MRTQ_POOL_NCHW = 0, MRTQ_POOL_NHWC = 1 };

typedef struct mrtq_pool2d {
  size_t n, c, h, w;                   /* input */
  size_t kh, kw, stride_h, stride_w;   /* window */
  size_t pad_top, pad_left, pad_bottom, pad_right;
  int layout;                          /* MRTQ_POOL_NCHW or MRTQ_POOL_NHWC */
  int is_unsigned;                     /* uint8 data, else int8 */
} mrtq_pool2d;

/* Output height and width: (h + pads - kh) / stride + 1 (floor).
 * Errors: NULL -> MRTQ_EINVAL; a zero size, stride or window, a window
 * larger than the padded input, or padding at least as large as the window
 * (a window of padding only) -> MRTQ_ESHAPE; element counts overflowing
 * size_t -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_pool2d_out(const mrtq_pool2d *p, size_t *ho, size_t *wo) {
  size_t hp, wp;
  if (!p || !ho || !wo || (p->layout != MRTQ_POOL_NCHW && p->layout != MRTQ_POOL_NHWC)) return MRTQ_EINVAL;
  if (!p->n || !p->c || !p->h || !p->w || !p->kh || !p->kw || !p->stride_h || !p->stride_w) return MRTQ_ESHAPE;
  if (p->pad_top >= p->kh || p->pad_bottom >= p->kh || p->pad_left >= p->kw || p->pad_right >= p->kw)
    return MRTQ_ESHAPE;
  if (p->h > SIZE_MAX / 4 || p->w > SIZE_MAX / 4 || p->kh > SIZE_MAX / 4 || p->kw > SIZE_MAX / 4) return MRTQ_ESHAPE;
  hp = p->h + p->pad_top + p->pad_bottom, wp = p->w + p->pad_left + p->pad_right;
  if (p->kh > hp || p->kw > wp) return MRTQ_ESHAPE;
  *ho = (hp - p->kh) / p->stride_h + 1, *wo = (wp - p->kw) / p->stride_w + 1;
  if (p->n > SIZE_MAX / p->c || p->n * p->c > SIZE_MAX / (*ho > p->h ? *ho : p->h) ||
      p->n * p->c * (*ho > p->h ? *ho : p->h) > SIZE_MAX / (*wo > p->w ? *wo : p->w))
    return MRTQ_ESHAPE;
  return MRTQ_OK;
}

/* Visit one output element's window: the sum and maximum of its valid
 * (non-padding) elements and their count. */
MRTQ_API void mrtq__pool_window(const mrtq_pool2d *p, const uint8_t *x, size_t n, size_t ch, size_t oy, size_t ox,
                                int32_t zx, int64_t *sum, int32_t *max, size_t *count) {
  size_t ky, kx;
  *sum = 0, *max = INT32_MIN, *count = 0;
  for (ky = 0; ky < p->kh; ky++)
    for (kx = 0; kx < p->kw; kx++) {
      size_t iy = oy * p->stride_h + ky, ix = ox * p->stride_w + kx, at;
      int32_t v;
      if (iy < p->pad_top || iy >= p->pad_top + p->h || ix < p->pad_left || ix >= p->pad_left + p->w) continue;
      iy -= p->pad_top, ix -= p->pad_left;
      at = p->layout == MRTQ_POOL_NCHW ? ((n * p->c + ch) * p->h + iy) * p->w + ix
                                       : ((n * p->h + iy) * p->w + ix) * p->c + ch;
      v = p->is_unsigned ? (int32_t)x[at] : (int32_t)(int8_t)x[at];
      *sum += v - zx, *count += 1;
      if (v > *max) *max = v;
    }
}

MRTQ_API size_t mrtq__pool_out_at(const mrtq_pool2d *p, size_t ho, size_t wo, size_t n, size_t ch, size_t oy,
                                  size_t ox) {
  return p->layout == MRTQ_POOL_NCHW ? ((n * p->c + ch) * ho + oy) * wo + ox : ((n * ho + oy) * wo + ox) * p->c + ch;
}

enum { MRTQ__POOL_MAX = 0, MRTQ__POOL_AVG_TFLITE = 1, MRTQ__POOL_AVG_RQ = 2 };

/* The shared loop: one window per output element, reduced by `mode`. */
MRTQ_API void mrtq__pool2d(const mrtq_pool2d *p, size_t ho, size_t wo, const uint8_t *x, int mode, int32_t qmin,
                           int32_t qmax, int32_t zx, const mrtq_rq *rq, uint8_t *out) {
  size_t n, ch, oy, ox;
  for (n = 0; n < p->n; n++)
    for (ch = 0; ch < p->c; ch++)
      for (oy = 0; oy < ho; oy++)
        for (ox = 0; ox < wo; ox++) {
          int64_t s, c;
          int32_t mx, v;
          size_t cnt;
          mrtq__pool_window(p, x, n, ch, oy, ox, zx, &s, &mx, &cnt);
          c = (int64_t)cnt;
          if (mode == MRTQ__POOL_MAX) v = mrtq__clamp64(mx, qmin, qmax);
          else if (mode == MRTQ__POOL_AVG_TFLITE) v = mrtq__clamp64(s > 0 ? (s + c / 2) / c : (s - c / 2) / c, qmin, qmax);
          else v = mrtq_rq_apply(rq, (int32_t)s, qmin, qmax);
          out[mrtq__pool_out_at(p, ho, wo, n, ch, oy, ox)] = (uint8_t)v;
        }
}

/* Max pooling: out = clamp(max of the window's valid elements, qmin, qmax)
 * (padding never wins; the shape rules guarantee a valid element). Input and
 * output share quantization. out holds n*c*ho*wo elements in the same layout.
 * Errors: as mrtq_pool2d_out; NULL data, qmin > qmax, a bound outside the
 * data type -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_maxpool2d(const mrtq_pool2d *p, const void *x, int32_t qmin, int32_t qmax, void *out) {
  size_t ho, wo;
  mrtq_status st = mrtq_pool2d_out(p, &ho, &wo);
  if (st != MRTQ_OK) return st;
  if (!x || !out || qmin > qmax || !mrtq__in_q8(qmin, p->is_unsigned) || !mrtq__in_q8(qmax, p->is_unsigned)) return MRTQ_EINVAL;
  mrtq__pool2d(p, ho, wo, (const uint8_t *)x, MRTQ__POOL_MAX, qmin, qmax, 0, NULL, (uint8_t *)out);
  return MRTQ_OK;
}

/* TFLite's quantized average pooling (reference kernel): over the window's
 * valid elements only, count = their number, s = their sum (stored values),
 *   avg = s > 0 ? (s + count/2) / count : (s - count/2) / count   (C
 * division truncating toward zero: round half away from zero), clamped to
 * [qmin, qmax]. Input and output share quantization. Errors as
 * mrtq_maxpool2d. */
MRTQ_API mrtq_status mrtq_avgpool2d_tflite(const mrtq_pool2d *p, const void *x, int32_t qmin, int32_t qmax, void *out) {
  size_t ho, wo;
  mrtq_status st = mrtq_pool2d_out(p, &ho, &wo);
  if (st != MRTQ_OK) return st;
  if (!x || !out || qmin > qmax || !mrtq__in_q8(qmin, p->is_unsigned) || !mrtq__in_q8(qmax, p->is_unsigned)) return MRTQ_EINVAL;
  mrtq__pool2d(p, ho, wo, (const uint8_t *)x, MRTQ__POOL_AVG_TFLITE, qmin, qmax, 0, NULL, (uint8_t *)out);
  return MRTQ_OK;
}

/* Average pooling as MRT rewrites it: the window sum of (x - zx) with padding
 * counted as real zeros (a depthwise convolution with a ones kernel), then a
 * requantization, usually of scale s_x / (kh * kw * s_out):
 *   out = mrtq_rq_apply(rq, sum, type range)
 * (rq from mrtq_rq_init with any family; kh * kw * 255 must fit int32, else
 * MRTQ_EOVERFLOW). Errors as mrtq_maxpool2d; rq NULL or zx outside the data
 * type -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_avgpool2d_rq(const mrtq_pool2d *p, const void *x, int32_t zx, const mrtq_rq *rq, void *out) {
  size_t ho, wo;
  int32_t lo, hi;
  mrtq_status st = mrtq_pool2d_out(p, &ho, &wo);
  if (st != MRTQ_OK) return st;
  lo = p->is_unsigned ? 0 : -128, hi = p->is_unsigned ? 255 : 127;
  if (!x || !out || !rq || zx < lo || zx > hi) return MRTQ_EINVAL;
  if (p->kh > (size_t)INT32_MAX / 255 / p->kw) return MRTQ_EOVERFLOW; /* |x - zx| <= 255 per element */
  mrtq__pool2d(p, ho, wo, (const uint8_t *)x, MRTQ__POOL_AVG_RQ, lo, hi, zx, rq, (uint8_t *)out);
  return MRTQ_OK;
}

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_POOL_H */
