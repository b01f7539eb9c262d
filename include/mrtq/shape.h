/* mrtq/shape.h -- data-movement operators on quantized tensors: constant
 * padding, slicing along an axis (MRT's lazy channel split), concatenation
 * with per-input rescaling of 8-bit tensors and of int32 expansion tensors
 * (MRT's lazy merge by concat, with both choices of the common scale), and
 * flatten (a reshape: row-major data is unchanged; mrtq_flatten_shape gives
 * the 2-D shape), and TFLite's TRANSPOSE (a permutation of up to 6
 * dimensions). */
#ifndef MRTQ_SHAPE_H
#define MRTQ_SHAPE_H

#include "eltwise.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* The stored value of a real padding constant pv: mrtq_quantize_f32(pv,
 * scale, zp, qmin, qmax) (pv / scale rounded half to even, plus zp, clamped:
 * MRT's round(PV * sc), ONNX's Pad of a quantized tensor). Total: refuses
 * nothing (see mrtq_quantize_f32 for NaN and infinities). */
MRTQ_API int32_t mrtq_pad_value(float pv, float scale, int32_t zp, int32_t qmin, int32_t qmax);

/* Constant padding of an N-d row-major tensor x of elem_size-byte elements:
 * before[d] and after[d] elements on each side of dimension d, filled with the
 * elem_size bytes at `value`. out has shape shape[d] + before[d] + after[d].
 * Errors: shape, before, after, x, value or out NULL, ndim outside
 * [1, MRTQ_MAX_DIMS], elem_size 0 -> MRTQ_EINVAL; a zero dimension or sizes
 * overflowing size_t -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_pad(const size_t *shape, int ndim, const size_t *before, const size_t *after,
                              size_t elem_size, const void *x, const void *value, void *out);

/* The common real scale of a merge (concat or add) of inputs with real
 * scales scale[0..n): MRTQ_MERGE_MIN_SCALE takes the smallest real step (the
 * formalization's lazy merge: the largest MRT sc; finest, an input may
 * saturate), MRTQ_MERGE_MAX_SCALE the largest (MRT's production code: the
 * smallest sc; no input overflows).
 * Errors (MRTQ_EINVAL): choice not an mrtq_merge, scale or out NULL, n == 0,
 * a scale not finite and positive. */
typedef enum mrtq_merge { MRTQ_MERGE_MIN_SCALE = 0, MRTQ_MERGE_MAX_SCALE = 1 } mrtq_merge;
MRTQ_API mrtq_status mrtq_merge_scale(mrtq_merge choice, const double *scale, size_t n, double *out);

/* Concatenation of n tensors of `type` (MRTQ_S8 or MRTQ_U8) along `axis`,
 * each rescaled to the output's quantization: out = mrtq_rq_apply(rq[k],
 * x - x_zp[k], the type's range) for the elements of input k (rq[k] usually of
 * scale scale_k / scale_out and the output zero point; any family), or a
 * plain copy where rq[k] is NULL (x_zp[k] then unused, but still checked).
 * Shapes: every input has ndim dimensions equal to shapes[0] except along
 * `axis`. Errors: shapes, rq, x, x_zp or out NULL, a shapes[k] or x[k] NULL,
 * n == 0, ndim outside [1, MRTQ_MAX_DIMS], axis outside [0, ndim), a zero
 * point outside the type, a non-NULL rq[k] that fails the array functions'
 * descriptor checks -> MRTQ_EINVAL; type not S8 or U8 ->
 * MRTQ_EUNSUPPORTED; mismatched or zero dimensions, sizes overflowing size_t
 * -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_concat(const size_t *const *shapes, size_t n, int ndim, int axis, const mrtq_rq *const *rq,
                                 const void *const *x, const int32_t *x_zp, mrtq_dtype type, void *out);

/* Elements [begin, end) of dimension `axis` of an N-d row-major tensor x of
 * elem_size-byte elements; out has shape[axis] replaced by end - begin. MRT's
 * lazy split of channel i is begin = i, end = i + 1 (every part keeps the
 * tensor's scale). Errors: shape, x or out NULL, ndim outside [1,
 * MRTQ_MAX_DIMS], axis outside [0, ndim), elem_size 0, begin >= end or end >
 * shape[axis] -> MRTQ_EINVAL; a zero dimension or sizes overflowing size_t ->
 * MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_slice(const size_t *shape, int ndim, int axis, size_t begin, size_t end, size_t elem_size,
                                const void *x, void *out);

/* Flatten from `axis` (ONNX Flatten; MXNet / MRT flatten is axis 1): rows =
 * shape[0] * ... * shape[axis-1] (1 for axis 0), cols = the product of the
 * rest. The data do not move. Errors: shape, rows or cols NULL, ndim outside
 * [1, MRTQ_MAX_DIMS], axis outside [0, ndim] -> MRTQ_EINVAL; a zero dimension
 * or products overflowing size_t -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_flatten_shape(const size_t *shape, int ndim, int axis, size_t *rows, size_t *cols);

/* MRT's lazy merge by concat: n int32 expansion tensors (mrtq_etensor: each
 * rescaled to the common scale, see mrtq_merge_scale) concatenated along
 * `axis`; out holds the values v (MRT: Xe = concat([(sc_xe / sc_xei) Xei])).
 * Shapes: every part has parts[0]'s rank and dimensions except along axis.
 * Errors: parts or out NULL, n == 0, parts[0].ndim outside [1,
 * MRTQ_MAX_DIMS], axis outside [0, ndim), a part's data NULL or shape NULL,
 * a part's rq that fails the array functions' descriptor checks ->
 * MRTQ_EINVAL; mismatched ranks or dimensions, zero dimensions, sizes
 * overflowing size_t -> MRTQ_ESHAPE; X - zp outside int32 -> MRTQ_EOVERFLOW.
 * Nothing is written on error. */
MRTQ_API mrtq_status mrtq_mrt_concat(const mrtq_etensor *parts, size_t n, int axis, int32_t *out);

/* TFLite's TRANSPOSE: out is x with its dimensions permuted, out's dimension
 * i being x's dimension p(i), where p(i) = perm[i], or perm[i] + ndim for a
 * negative perm[i] (TFLite accepts [-ndim, ndim)):
 *   out shape[i] = shape[p(i)],
 *   out[c_0, ..., c_{ndim-1}] = x[j] with j's coordinate along dimension p(i) = c_i.
 * Row-major; any element type: MRTQ_S8, MRTQ_U8, MRTQ_S16, MRTQ_S32 (at any
 * alignment) and MRTQ_S4 (packed as mrtq_s4_pack; TFLite's transpose.cc since
 * it took int4 unpacks, transposes and repacks, writing the unused high nibble
 * of an odd count as 0, which mrtq does too). No arithmetic: bit-exact with
 * TFLite's reference_ops::Transpose (tensorflow/lite/kernels/internal/reference/
 * transpose.h, tflite-micro 90b983c2), which both the TF interpreter
 * (kernels/transpose.cc) and TFLite Micro run. Quantization is unchanged: the
 * TF interpreter's transpose.cc refuses an 8-/16-/4-bit output whose scale or
 * zero point differs from the input's; mrtq takes no scales (out keeps x's).
 * An empty tensor (a dimension 0) writes nothing (x and out may then be NULL),
 * as TFLite returns at once on a zero FlatSize. x and out must not overlap.
 * Errors (nothing written): shape or perm NULL, x or out NULL with a non-empty
 * tensor, ndim outside [1, MRTQ_TRANSPOSE_MAX_DIMS] (6, TFLite's
 * kTransposeMaxDimensions; its 0-d case would write outside its stride array),
 * a perm[i] outside [-ndim, ndim), perm not a permutation after the +ndim
 * (TFLite does not check this and reads outside x for a repeated axis), type
 * outside the enum -> MRTQ_EINVAL; an element count overflowing size_t ->
 * MRTQ_ESHAPE. */
#define MRTQ_TRANSPOSE_MAX_DIMS 6
MRTQ_API mrtq_status mrtq_transpose(const size_t *shape, int ndim, const int32_t *perm, const void *x, mrtq_dtype type,
                                    void *out);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

MRTQ_API int32_t mrtq_pad_value(float pv, float scale, int32_t zp, int32_t qmin, int32_t qmax) {
  return mrtq_quantize_f32(pv, scale, zp, qmin, qmax);
}

MRTQ_API mrtq_status mrtq_pad(const size_t *shape, int ndim, const size_t *before, const size_t *after,
                              size_t elem_size, const void *x, const void *value, void *out) {
  size_t oshape[MRTQ_MAX_DIMS], total = 1, i;
  int d;
  const uint8_t *src = (const uint8_t *)x;
  uint8_t *dst = (uint8_t *)out;
  if (!shape) return MRTQ__ERR(MRTQ_EINVAL, "shape: NULL");
  if (ndim < 1 || ndim > MRTQ_MAX_DIMS) return MRTQ__ERR(MRTQ_EINVAL, "ndim: must be in [1, MRTQ_MAX_DIMS]");
  if (!before) return MRTQ__ERR(MRTQ_EINVAL, "before: NULL");
  if (!after) return MRTQ__ERR(MRTQ_EINVAL, "after: NULL");
  if (elem_size == 0) return MRTQ__ERR(MRTQ_EINVAL, "elem_size: must be >= 1");
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  if (!value) return MRTQ__ERR(MRTQ_EINVAL, "value: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  for (d = 0; d < ndim; d++) {
    if (shape[d] == 0) return MRTQ__ERR(MRTQ_ESHAPE, "shape[d]: a zero dimension");
    if (before[d] > SIZE_MAX / 4 || after[d] > SIZE_MAX / 4 || shape[d] > SIZE_MAX / 4)
      return MRTQ__ERR(MRTQ_ESHAPE, "shape, before, after: a padded size overflows size_t");
    oshape[d] = shape[d] + before[d] + after[d];
    if (total > SIZE_MAX / oshape[d]) return MRTQ__ERR(MRTQ_ESHAPE, "shape, before, after: the element count overflows size_t");
    total *= oshape[d];
  }
  if (total > SIZE_MAX / elem_size) return MRTQ__ERR(MRTQ_ESHAPE, "elem_size: the byte count overflows size_t");
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

MRTQ_API mrtq_status mrtq_merge_scale(mrtq_merge choice, const double *scale, size_t n, double *out) {
  size_t i;
  double s;
  if (choice != MRTQ_MERGE_MIN_SCALE && choice != MRTQ_MERGE_MAX_SCALE)
    return MRTQ__ERR(MRTQ_EINVAL, "choice: must be MRTQ_MERGE_MIN_SCALE or MRTQ_MERGE_MAX_SCALE");
  if (!scale) return MRTQ__ERR(MRTQ_EINVAL, "scale: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (n == 0) return MRTQ__ERR(MRTQ_EINVAL, "n: must be >= 1");
  for (i = 0; i < n; i++)
    if (mrtq__nonfinite(scale[i]) || !(scale[i] > 0)) return MRTQ__ERR(MRTQ_EINVAL, "scale[i]: must be finite and > 0");
  s = scale[0];
  for (i = 1; i < n; i++)
    if (choice == MRTQ_MERGE_MIN_SCALE ? scale[i] < s : scale[i] > s) s = scale[i];
  *out = s;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_concat(const size_t *const *shapes, size_t n, int ndim, int axis, const mrtq_rq *const *rq,
                                 const void *const *x, const int32_t *x_zp, mrtq_dtype type, void *out) {
  size_t outer = 1, inner = 1, total_axis = 0, k, o, i;
  int d, u8 = type == MRTQ_U8;
  uint8_t *dst = (uint8_t *)out;
  int32_t lo = u8 ? 0 : -128, hi = u8 ? 255 : 127;
  if (!shapes) return MRTQ__ERR(MRTQ_EINVAL, "shapes: NULL");
  if (n == 0) return MRTQ__ERR(MRTQ_EINVAL, "n: must be >= 1");
  if (ndim < 1 || ndim > MRTQ_MAX_DIMS) return MRTQ__ERR(MRTQ_EINVAL, "ndim: must be in [1, MRTQ_MAX_DIMS]");
  if (axis < 0 || axis >= ndim) return MRTQ__ERR(MRTQ_EINVAL, "axis: must be in [0, ndim)");
  if (!rq) return MRTQ__ERR(MRTQ_EINVAL, "rq: NULL (an array of n pointers, each NULL for a plain copy)");
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  if (!x_zp) return MRTQ__ERR(MRTQ_EINVAL, "x_zp: NULL");
  {
    mrtq_status tst = MRTQ__Q8_TYPE(type, "type");
    if (tst != MRTQ_OK) return tst;
  }
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  for (k = 0; k < n; k++) {
    if (!x[k]) return MRTQ__ERR(MRTQ_EINVAL, "x[k]: NULL");
    if (!shapes[k]) return MRTQ__ERR(MRTQ_EINVAL, "shapes[k]: NULL");
    if (x_zp[k] < lo || x_zp[k] > hi) return MRTQ__ERR(MRTQ_EINVAL, "x_zp[k]: outside type");
    if (rq[k]) {
      mrtq_status st = mrtq__rq_check(rq[k], 2);
      if (st != MRTQ_OK) return st;
    }
    for (d = 0; d < ndim; d++) {
      if (shapes[k][d] == 0) return MRTQ__ERR(MRTQ_ESHAPE, "shapes[k][d]: a zero dimension");
      if (d != axis && shapes[k][d] != shapes[0][d])
        return MRTQ__ERR(MRTQ_ESHAPE, "shapes[k][d]: differs from shapes[0][d] off the axis");
    }
    if (total_axis > SIZE_MAX - shapes[k][axis])
      return MRTQ__ERR(MRTQ_ESHAPE, "shapes: the concatenated axis overflows size_t");
    total_axis += shapes[k][axis];
  }
  for (d = 0; d < ndim; d++) {
    size_t s = d == axis ? total_axis : shapes[0][d];
    if (d < axis) {
      if (outer > SIZE_MAX / s) return MRTQ__ERR(MRTQ_ESHAPE, "shapes: the element count overflows size_t");
      outer *= s;
    } else if (d > axis) {
      if (inner > SIZE_MAX / s) return MRTQ__ERR(MRTQ_ESHAPE, "shapes: the element count overflows size_t");
      inner *= s;
    }
  }
  if (outer > SIZE_MAX / inner || outer * inner > SIZE_MAX / total_axis)
    return MRTQ__ERR(MRTQ_ESHAPE, "shapes: the element count overflows size_t");
  for (o = 0; o < outer; o++)
    for (k = 0; k < n; k++) {
      size_t run = shapes[k][axis] * inner;
      const uint8_t *src = (const uint8_t *)x[k] + o * run;
      for (i = 0; i < run; i++) {
        int32_t v = u8 ? (int32_t)src[i] : (int32_t)(int8_t)src[i];
        *dst++ = rq[k] ? (uint8_t)mrtq_rq_apply(rq[k], v - x_zp[k], lo, hi) : src[i];
      }
    }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_slice(const size_t *shape, int ndim, int axis, size_t begin, size_t end, size_t elem_size,
                                const void *x, void *out) {
  size_t outer = 1, inner = elem_size, o;
  int d;
  if (!shape) return MRTQ__ERR(MRTQ_EINVAL, "shape: NULL");
  if (ndim < 1 || ndim > MRTQ_MAX_DIMS) return MRTQ__ERR(MRTQ_EINVAL, "ndim: must be in [1, MRTQ_MAX_DIMS]");
  if (axis < 0 || axis >= ndim) return MRTQ__ERR(MRTQ_EINVAL, "axis: must be in [0, ndim)");
  if (elem_size == 0) return MRTQ__ERR(MRTQ_EINVAL, "elem_size: must be >= 1");
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  for (d = 0; d < ndim; d++) {
    if (shape[d] == 0) return MRTQ__ERR(MRTQ_ESHAPE, "shape[d]: a zero dimension");
    if (d < axis) {
      if (outer > SIZE_MAX / shape[d]) return MRTQ__ERR(MRTQ_ESHAPE, "shape: the byte count overflows size_t");
      outer *= shape[d];
    } else if (d > axis) {
      if (inner > SIZE_MAX / shape[d]) return MRTQ__ERR(MRTQ_ESHAPE, "shape: the byte count overflows size_t");
      inner *= shape[d];
    }
  }
  if (inner > SIZE_MAX / shape[axis] || outer > SIZE_MAX / (inner * shape[axis]))
    return MRTQ__ERR(MRTQ_ESHAPE, "shape: the byte count overflows size_t");
  if (begin >= end) return MRTQ__ERR(MRTQ_EINVAL, "begin, end: begin >= end");
  if (end > shape[axis]) return MRTQ__ERR(MRTQ_EINVAL, "end: beyond shape[axis]");
  for (o = 0; o < outer; o++)
    memcpy((uint8_t *)out + o * (end - begin) * inner, (const uint8_t *)x + (o * shape[axis] + begin) * inner,
           (end - begin) * inner);
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_flatten_shape(const size_t *shape, int ndim, int axis, size_t *rows, size_t *cols) {
  size_t r = 1, c = 1;
  int d;
  if (!shape) return MRTQ__ERR(MRTQ_EINVAL, "shape: NULL");
  if (!rows || !cols) return MRTQ__ERR(MRTQ_EINVAL, "rows, cols: NULL");
  if (ndim < 1 || ndim > MRTQ_MAX_DIMS) return MRTQ__ERR(MRTQ_EINVAL, "ndim: must be in [1, MRTQ_MAX_DIMS]");
  if (axis < 0 || axis > ndim) return MRTQ__ERR(MRTQ_EINVAL, "axis: must be in [0, ndim]");
  for (d = 0; d < ndim; d++) {
    size_t *p = d < axis ? &r : &c;
    if (shape[d] == 0) return MRTQ__ERR(MRTQ_ESHAPE, "shape[d]: a zero dimension");
    if (*p > SIZE_MAX / shape[d]) return MRTQ__ERR(MRTQ_ESHAPE, "shape: a product overflows size_t");
    *p *= shape[d];
  }
  if (r > SIZE_MAX / c) return MRTQ__ERR(MRTQ_ESHAPE, "shape: the element count overflows size_t");
  *rows = r, *cols = c;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_mrt_concat(const mrtq_etensor *parts, size_t n, int axis, int32_t *out) {
  size_t outer = 1, inner = 1, total_axis = 0, k, o, i, cnt;
  int d, nd;
  if (!parts) return MRTQ__ERR(MRTQ_EINVAL, "parts: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (n == 0) return MRTQ__ERR(MRTQ_EINVAL, "n: must be >= 1");
  nd = parts[0].ndim;
  if (nd < 1 || nd > MRTQ_MAX_DIMS) return MRTQ__ERR(MRTQ_EINVAL, "parts[0].ndim: must be in [1, MRTQ_MAX_DIMS]");
  if (axis < 0 || axis >= nd) return MRTQ__ERR(MRTQ_EINVAL, "axis: must be in [0, parts[0].ndim)");
  for (k = 0; k < n; k++) {
    int64_t lo, hi;
    mrtq_status st = mrtq__ebounds(&parts[k], 2, &cnt, &lo, &hi);
    if (st != MRTQ_OK) return st;
    if (parts[k].ndim != nd) return MRTQ__ERR(MRTQ_ESHAPE, "parts[k].ndim: differs from parts[0].ndim");
    for (d = 0; d < nd; d++)
      if (d != axis && parts[k].shape[d] != parts[0].shape[d])
        return MRTQ__ERR(MRTQ_ESHAPE, "parts[k].shape: differs from parts[0].shape off the axis");
    if (total_axis > SIZE_MAX - parts[k].shape[axis])
      return MRTQ__ERR(MRTQ_ESHAPE, "parts: the concatenated axis overflows size_t");
    total_axis += parts[k].shape[axis];
  }
  for (d = 0; d < nd; d++) {
    if (d < axis) outer *= parts[0].shape[d]; /* each factor's product is part 0's count: no overflow */
    else if (d > axis) inner *= parts[0].shape[d];
  }
  if (outer > SIZE_MAX / inner || outer * inner > SIZE_MAX / total_axis)
    return MRTQ__ERR(MRTQ_ESHAPE, "parts: the element count overflows size_t");
  for (o = 0; o < outer; o++)
    for (k = 0; k < n; k++) {
      size_t run = parts[k].shape[axis] * inner;
      for (i = 0; i < run; i++) *out++ = mrtq__ev(&parts[k], o * run + i);
    }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_transpose(const size_t *shape, int ndim, const int32_t *perm, const void *x, mrtq_dtype type,
                                    void *out) {
  size_t ostride[MRTQ_TRANSPOSE_MAX_DIMS], istride[MRTQ_TRANSPOSE_MAX_DIMS], oshape[MRTQ_TRANSPOSE_MAX_DIMS];
  size_t coord[MRTQ_TRANSPOSE_MAX_DIMS], n = 1, i, at;
  int p[MRTQ_TRANSPOSE_MAX_DIMS], seen[MRTQ_TRANSPOSE_MAX_DIMS], d, empty = 0;
  if (!shape) return MRTQ__ERR(MRTQ_EINVAL, "shape: NULL");
  if (ndim < 1 || ndim > MRTQ_TRANSPOSE_MAX_DIMS)
    return MRTQ__ERR(MRTQ_EINVAL, "ndim: must be in [1, MRTQ_TRANSPOSE_MAX_DIMS] (6, TFLite's limit)");
  if (!perm) return MRTQ__ERR(MRTQ_EINVAL, "perm: NULL");
  if (!mrtq__dtype_ok(type)) return MRTQ__ERR(MRTQ_EINVAL, "type: not an mrtq_dtype (0: a zero-initialised operand)");
  for (d = 0; d < ndim; d++) seen[d] = 0;
  for (d = 0; d < ndim; d++) {
    if (perm[d] < -ndim || perm[d] >= ndim) return MRTQ__ERR(MRTQ_EINVAL, "perm[i]: must be in [-ndim, ndim)");
    p[d] = perm[d] < 0 ? perm[d] + ndim : perm[d];
    if (seen[p[d]]++) return MRTQ__ERR(MRTQ_EINVAL, "perm: not a permutation (an axis named twice)");
  }
  for (d = ndim - 1; d >= 0; d--) { /* row-major strides of x; overflow check on the non-zero sizes */
    istride[d] = n;
    if (shape[d] == 0) empty = 1;
    else if (n > SIZE_MAX / shape[d]) return MRTQ__ERR(MRTQ_ESHAPE, "shape: the element count overflows size_t");
    else n *= shape[d];
  }
  if (empty) return MRTQ_OK;
  if (type != MRTQ_S4 && n > SIZE_MAX / (size_t)(mrtq_dtype_bits(type) / 8))
    return MRTQ__ERR(MRTQ_ESHAPE, "shape: the byte count overflows size_t");
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  for (d = 0; d < ndim; d++) oshape[d] = shape[p[d]], ostride[d] = istride[p[d]], coord[d] = 0;
  /* out in its own order; `at` follows the matching element of x */
  for (i = 0, at = 0; i < n; i++) {
    if (type == MRTQ_S8 || type == MRTQ_U8) ((uint8_t *)out)[i] = ((const uint8_t *)x)[at];
    else mrtq__store(out, i, type, mrtq__load(x, at, type));
    for (d = ndim - 1; d >= 0; d--) { /* next output coordinate */
      at += ostride[d];
      if (++coord[d] < oshape[d]) break;
      at -= ostride[d] * oshape[d];
      coord[d] = 0;
    }
  }
  if (type == MRTQ_S4 && (n & 1)) ((uint8_t *)out)[n / 2] &= 0x0F; /* TFLite's packer: the unused nibble 0 */
  return MRTQ_OK;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_SHAPE_H */
