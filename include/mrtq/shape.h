/* mrtq/shape.h -- data-movement operators on quantized tensors: constant
 * padding, slicing along an axis (MRT's lazy channel split), concatenation
 * with per-input rescaling of 8-bit tensors and of int32 expansion tensors
 * (MRT's lazy merge by concat, with both choices of the common scale), and
 * flatten (a reshape: row-major data is unchanged; mrtq_flatten_shape gives
 * the 2-D shape). */
#ifndef MRTQ_SHAPE_H
#define MRTQ_SHAPE_H

#include "eltwise.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The stored value of a real padding constant pv: mrtq_quantize_f32(pv,
 * scale, zp, qmin, qmax) (round half to even: MRT's round(PV * sc), ONNX's
 * Pad of a quantized tensor). */
MRTQ_API int32_t mrtq_pad_value(float pv, float scale, int32_t zp, int32_t qmin, int32_t qmax) {
  return mrtq_quantize_f32(pv, scale, zp, qmin, qmax);
}

/* Constant padding of an N-d tensor of elem_size-byte elements (row-major):
 * before[d] and after[d] elements on each side of dimension d, filled with the
 * elem_size bytes at `value`. Output shape shape[d] + before[d] + after[d].
 * Errors: NULL, ndim outside [1, 8], elem_size 0 -> MRTQ_EINVAL; a zero
 * dimension or sizes overflowing size_t -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_pad(const void *x, const size_t *shape, int ndim, const size_t *before, const size_t *after,
                              size_t elem_size, const void *value, void *out) {
  size_t oshape[8], total = 1, i;
  int d;
  const uint8_t *src = (const uint8_t *)x;
  uint8_t *dst = (uint8_t *)out;
  if (!x || !shape || !before || !after || !value || !out || ndim < 1 || ndim > 8 || elem_size == 0)
    return MRTQ_EINVAL;
  for (d = 0; d < ndim; d++) {
    if (shape[d] == 0 || before[d] > SIZE_MAX / 4 || after[d] > SIZE_MAX / 4 || shape[d] > SIZE_MAX / 4) return MRTQ_ESHAPE;
    oshape[d] = shape[d] + before[d] + after[d];
    if (total > SIZE_MAX / oshape[d]) return MRTQ_ESHAPE;
    total *= oshape[d];
  }
  if (total > SIZE_MAX / elem_size) return MRTQ_ESHAPE;
  for (i = 0; i < total; i++) { /* each output element: inside -> copy, else the constant */
    size_t at = i, in = 0, stride = 1;
    int inside = 1;
    for (d = ndim - 1; d >= 0; d--) {
      size_t k = at % oshape[d];
      at /= oshape[d];
      if (k < before[d] || k >= before[d] + shape[d]) inside = 0;
      else in += (k - before[d]) * stride;
      stride *= shape[d];
    }
    memcpy(dst + i * elem_size, inside ? src + in * elem_size : (const uint8_t *)value, elem_size);
  }
  return MRTQ_OK;
}

/* The common real scale of a merge (concat or add) of inputs with real
 * scales scale[0..n): MRTQ_MERGE_MIN_SCALE takes the smallest real step (the
 * seed's lazy merge: the largest MRT sc; finest, an input may saturate),
 * MRTQ_MERGE_MAX_SCALE the largest (MRT's production code: the smallest sc; no
 * input overflows). Errors: NULL, n == 0, a scale not finite and positive,
 * unknown choice -> MRTQ_EINVAL. */
enum { MRTQ_MERGE_MIN_SCALE = 0, MRTQ_MERGE_MAX_SCALE = 1 };
MRTQ_API mrtq_status mrtq_merge_scale(const double *scale, size_t n, int choice, double *out) {
  size_t i;
  double s;
  if (!scale || !out || n == 0 || (choice != MRTQ_MERGE_MIN_SCALE && choice != MRTQ_MERGE_MAX_SCALE)) return MRTQ_EINVAL;
  for (i = 0; i < n; i++)
    if (mrtq__nonfinite(scale[i]) || !(scale[i] > 0)) return MRTQ_EINVAL;
  s = scale[0];
  for (i = 1; i < n; i++)
    if (choice == MRTQ_MERGE_MIN_SCALE ? scale[i] < s : scale[i] > s) s = scale[i];
  *out = s;
  return MRTQ_OK;
}

/* Concatenation of n int8 (or uint8) tensors along `axis`, each rescaled to
 * the output's quantization: out = mrtq_rq_apply(rq[k], x - zx[k], type
 * range) for the elements of input k (rq[k] usually of scale scale_k /
 * scale_out and the output zero point; any family), or a plain copy where
 * rq[k] is NULL. Shapes: every input has ndim dimensions equal to shapes[0]
 * except along `axis`. Errors: NULL, n == 0, ndim outside [1, 8], axis
 * outside [0, ndim), a zero point outside the type -> MRTQ_EINVAL; mismatched
 * or zero dimensions, sizes overflowing size_t -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_concat(const void *const *x, const size_t *const *shapes, size_t n, int ndim, int axis,
                                 const int32_t *zx, const mrtq_rq *const *rq, int is_unsigned, void *out) {
  size_t outer = 1, inner = 1, total_axis = 0, k, o, i;
  int d;
  uint8_t *dst = (uint8_t *)out;
  int32_t lo = is_unsigned ? 0 : -128, hi = is_unsigned ? 255 : 127;
  if (!x || !shapes || !zx || !rq || !out || n == 0 || ndim < 1 || ndim > 8 || axis < 0 || axis >= ndim)
    return MRTQ_EINVAL;
  for (k = 0; k < n; k++) {
    if (!x[k] || !shapes[k]) return MRTQ_EINVAL;
    if (zx[k] < lo || zx[k] > hi) return MRTQ_EINVAL;
    for (d = 0; d < ndim; d++)
      if (shapes[k][d] == 0 || (d != axis && shapes[k][d] != shapes[0][d])) return MRTQ_ESHAPE;
    if (total_axis > SIZE_MAX - shapes[k][axis]) return MRTQ_ESHAPE;
    total_axis += shapes[k][axis];
  }
  for (d = 0; d < ndim; d++) {
    size_t s = d == axis ? total_axis : shapes[0][d];
    if (d < axis) {
      if (outer > SIZE_MAX / s) return MRTQ_ESHAPE;
      outer *= s;
    } else if (d > axis) {
      if (inner > SIZE_MAX / s) return MRTQ_ESHAPE;
      inner *= s;
    }
  }
  if (outer > SIZE_MAX / inner || outer * inner > SIZE_MAX / total_axis) return MRTQ_ESHAPE;
  for (o = 0; o < outer; o++)
    for (k = 0; k < n; k++) {
      size_t run = shapes[k][axis] * inner;
      const uint8_t *src = (const uint8_t *)x[k] + o * run;
      for (i = 0; i < run; i++) {
        int32_t v = is_unsigned ? (int32_t)src[i] : (int32_t)(int8_t)src[i];
        *dst++ = rq[k] ? (uint8_t)mrtq_rq_apply(rq[k], v - zx[k], lo, hi) : src[i];
      }
    }
  return MRTQ_OK;
}

/* Elements [begin, end) of dimension `axis` of an N-d row-major tensor of
 * elem_size-byte elements; out has shape[axis] replaced by end - begin. MRT's
 * lazy split of channel i is begin = i, end = i + 1 (every part keeps the
 * tensor's scale). Errors: NULL, ndim outside [1, 8], axis outside [0,
 * ndim), elem_size 0, begin >= end or end > shape[axis] -> MRTQ_EINVAL; a
 * zero dimension or sizes overflowing size_t -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_slice(const void *x, const size_t *shape, int ndim, int axis, size_t begin, size_t end,
                                size_t elem_size, void *out) {
  size_t outer = 1, inner = elem_size, o;
  int d;
  if (!x || !shape || !out || ndim < 1 || ndim > 8 || axis < 0 || axis >= ndim || elem_size == 0) return MRTQ_EINVAL;
  for (d = 0; d < ndim; d++) {
    if (shape[d] == 0) return MRTQ_ESHAPE;
    if (d < axis) {
      if (outer > SIZE_MAX / shape[d]) return MRTQ_ESHAPE;
      outer *= shape[d];
    } else if (d > axis) {
      if (inner > SIZE_MAX / shape[d]) return MRTQ_ESHAPE;
      inner *= shape[d];
    }
  }
  if (inner > SIZE_MAX / shape[axis] || outer > SIZE_MAX / (inner * shape[axis])) return MRTQ_ESHAPE;
  if (begin >= end || end > shape[axis]) return MRTQ_EINVAL;
  for (o = 0; o < outer; o++)
    memcpy((uint8_t *)out + o * (end - begin) * inner, (const uint8_t *)x + (o * shape[axis] + begin) * inner,
           (end - begin) * inner);
  return MRTQ_OK;
}

/* Flatten from `axis` (ONNX Flatten; MXNet / MRT flatten is axis 1): rows =
 * shape[0] * ... * shape[axis-1] (1 for axis 0), cols = the product of the
 * rest. The data do not move. Errors: NULL, ndim outside [1, 8], axis outside
 * [0, ndim] -> MRTQ_EINVAL; a zero dimension or products overflowing size_t
 * -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_flatten_shape(const size_t *shape, int ndim, int axis, size_t *rows, size_t *cols) {
  size_t r = 1, c = 1;
  int d;
  if (!shape || !rows || !cols || ndim < 1 || ndim > 8 || axis < 0 || axis > ndim) return MRTQ_EINVAL;
  for (d = 0; d < ndim; d++) {
    size_t *p = d < axis ? &r : &c;
    if (shape[d] == 0 || *p > SIZE_MAX / shape[d]) return MRTQ_ESHAPE;
    *p *= shape[d];
  }
  if (r > SIZE_MAX / c) return MRTQ_ESHAPE;
  *rows = r, *cols = c;
  return MRTQ_OK;
}

/* MRT's lazy merge by concat: n int32 expansion tensors (mrtq_etensor: each
 * rescaled to the common scale, see mrtq_merge_scale) concatenated along
 * `axis`; out holds the values v (MRT: Xe = concat([(sc_xe / sc_xei) Xei])).
 * Shapes: every part has parts[0]'s rank and dimensions except along axis.
 * Errors: NULL, n == 0, a rank outside [1, 8], axis outside [0, ndim) ->
 * MRTQ_EINVAL; mismatched or zero dimensions, sizes overflowing size_t ->
 * MRTQ_ESHAPE; X - zp outside int32 -> MRTQ_EOVERFLOW. Nothing is written on
 * error. */
MRTQ_API mrtq_status mrtq_mrt_concat(const mrtq_etensor *parts, size_t n, int axis, int32_t *out) {
  size_t outer = 1, inner = 1, total_axis = 0, k, o, i, cnt;
  int d, nd;
  if (!parts || !out || n == 0) return MRTQ_EINVAL;
  nd = parts[0].ndim;
  if (nd < 1 || nd > 8 || axis < 0 || axis >= nd) return MRTQ_EINVAL;
  for (k = 0; k < n; k++) {
    int64_t lo, hi;
    mrtq_status st = mrtq__ebounds(&parts[k], &cnt, &lo, &hi);
    if (st != MRTQ_OK) return st;
    if (parts[k].ndim != nd) return MRTQ_ESHAPE;
    for (d = 0; d < nd; d++)
      if (d != axis && parts[k].shape[d] != parts[0].shape[d]) return MRTQ_ESHAPE;
    if (total_axis > SIZE_MAX - parts[k].shape[axis]) return MRTQ_ESHAPE;
    total_axis += parts[k].shape[axis];
  }
  for (d = 0; d < nd; d++) {
    if (d < axis) outer *= parts[0].shape[d]; /* each factor's product is part 0's count: no overflow */
    else if (d > axis) inner *= parts[0].shape[d];
  }
  if (outer > SIZE_MAX / inner || outer * inner > SIZE_MAX / total_axis) return MRTQ_ESHAPE;
  for (o = 0; o < outer; o++)
    for (k = 0; k < n; k++) {
      size_t run = parts[k].shape[axis] * inner;
      for (i = 0; i < run; i++) *out++ = mrtq__ev(&parts[k], o * run + i);
    }
  return MRTQ_OK;
}

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_SHAPE_H */
