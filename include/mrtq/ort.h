/* mrtq/ort.h -- ONNX Runtime's quantized operators as its CPU execution
 * provider computes them on x86-64 (ORT 1.30, MLAS), bit-exact with real ONNX
 * Runtime (tests/test_ort.c runs onnxruntime-node on models built with ONNX).
 * Included by mrtq.h.
 *
 *   ONNX Runtime operator         mrtq
 *   QuantizeLinear                mrtq_ort_quantize_linear, _axis (NaN -> the type minimum)
 *   DequantizeLinear              mrtq_ort_dequantize_linear, _axis
 *   DynamicQuantizeLinear         mrtq_ort_dynamic_quantize_linear (parameters and data in one call)
 *   QLinearConv, QLinearMatMul    mrtq_ort_qlinear_scale (ORT's float requantization scale), then
 *                                 mrtq_conv2d_q8 / mrtq_matmul_q8 with MRTQ_FP32 descriptions of it
 *
 * Where ONNX Runtime departs from the ONNX specification or from mrtq's own
 * functions, the contract says so (docs/kernels.md 8 lists them). A refusal
 * names the argument and writes nothing. */
#ifndef MRTQ_ORT_H
#define MRTQ_ORT_H

#include "attr.h"
#include "eltwise.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* QLinearConv / QLinearMatMul / QGemm requantization scales as ONNX Runtime
 * forms them, in float, product first:
 *   out[j] = fl(fl(x_scale * w_scale[j]) / y_scale),   j < n
 * (n = 1 for a per-tensor weight scale, the output channel count for a
 * per-channel one). The order matters: fl(x_scale * fl(w_scale / y_scale)),
 * fl(fl(x_scale / y_scale) * w_scale) and the double-precision quotient each
 * give other floats for some scales, and other output bytes (tests/test_ort.c
 * holds such cases). ORT then requantizes each accumulator as MRTQ_FP32 does
 * (float multiply, round half to even, add the zero point, clamp): pass
 * out[j] to mrtq_rq_init(MRTQ_FP32, ...).
 * Errors: w_scale or out NULL, n == 0, a scale NaN, infinite, zero or
 * negative -> MRTQ_EINVAL; a result that overflows to infinity or rounds to
 * zero -> MRTQ_ERANGE (no requantization can carry it). */
MRTQ_API mrtq_status mrtq_ort_qlinear_scale(float x_scale, const float *w_scale, size_t n, float y_scale, float *out);

/* QuantizeLinear (8-bit outputs) as ONNX Runtime computes it:
 *   out[i] = clamp(rne(x[i] / scale) + zp, qmin, qmax)
 * the IEEE float quotient rounded half to even (as mrtq_quantize_f32), except
 * that a NaN quotient (x NaN, inf / inf, 0 / 0) stores qmin, the type's minimum
 * (MLAS clamps in float with max / min instructions that return their second
 * operand for NaN); mrtq_quantize_f32 stores the zero point there. Infinities
 * saturate. type MRTQ_S8 or MRTQ_U8; zp within the type. Any scale (ONNX
 * requires a positive one; ORT does not check, and neither does this).
 * Errors: x or out NULL while n > 0, zp outside the type -> MRTQ_EINVAL;
 * another type -> MRTQ_EUNSUPPORTED. */
MRTQ_API mrtq_status mrtq_ort_quantize_linear(const float *x, size_t n, float scale, int32_t zp, mrtq_dtype type,
                                              void *out);

/* DequantizeLinear: out[i] = (float)(q[i] - zp) * scale (the difference exact
 * in int32, then one float multiply: mrtq_dequantize_f32). type MRTQ_S8,
 * MRTQ_U8 or MRTQ_S32 (ONNX's int32 DequantizeLinear: zp must then be 0, and
 * (float)q rounds beyond 2^24); zp within the type.
 * Errors: q or out NULL while n > 0, zp outside the type, zp != 0 with
 * MRTQ_S32 -> MRTQ_EINVAL; another type -> MRTQ_EUNSUPPORTED. */
MRTQ_API mrtq_status mrtq_ort_dequantize_linear(const void *q, size_t n, float scale, int32_t zp, mrtq_dtype type,
                                                float *out);

/* Per axis (ONNX opset 13's `axis` attribute): the tensor of ndim dimensions
 * `shape` split at axis (negative counts from the end, as ONNX) into outer x
 * C x inner, C = shape[axis]; element (o, c, i) uses scale[c] and zp[c] (C
 * entries each; zp NULL means all 0), otherwise as the per-tensor functions.
 * Errors: shape, x / q, scale or out NULL, ndim outside [1, MRTQ_MAX_DIMS],
 * axis outside [-ndim, ndim), a zero dimension or an element count overflowing
 * size_t -> MRTQ_ESHAPE (NULL / axis: MRTQ_EINVAL); a zp[c] outside the type
 * -> MRTQ_EINVAL; types as the per-tensor functions. */
MRTQ_API mrtq_status mrtq_ort_quantize_linear_axis(const float *x, const size_t *shape, int ndim, int axis,
                                                   const float *scale, const int32_t *zp, mrtq_dtype type,
                                                   void *out);
MRTQ_API mrtq_status mrtq_ort_dequantize_linear_axis(const void *q, const size_t *shape, int ndim, int axis,
                                                     const float *scale, const int32_t *zp, mrtq_dtype type,
                                                     float *out);

/* DynamicQuantizeLinear (uint8) in one call: the parameters and the data.
 *   lo = min(0, min x), hi = max(0, max x)
 *   scale = hi == lo ? 1 : fl((hi - lo) / 255)      (float throughout)
 *   zp = rne(clamp(fl(0 - lo / scale), 0, 255))     (clamp in float, then round half to even)
 *   y[i] = mrtq_ort_quantize_linear(x[i], scale, zp)
 * scale and zp are mrtq_qparams_from_range(MRTQ_QS_ONNX_DYNAMIC, ...)'s for
 * that range. Errors: x, y, scale or zp NULL, n == 0 (ORT has no minimum of an
 * empty tensor), an x[i] NaN or infinite (ORT's range would then depend on
 * where the NaN sits; a scale from an infinite range is NaN) -> MRTQ_EINVAL.
 * Nothing is written on error. */
MRTQ_API mrtq_status mrtq_ort_dynamic_quantize_linear(const float *x, size_t n, uint8_t *y, float *scale,
                                                      int32_t *zp);


/* ---- com.microsoft QLinearAdd and QLinearMul ----
 * ONNX Runtime computes both in float, with the zero points folded into a
 * float bias before rounding; int8 and uint8, NumPy broadcasting. Per output
 * element, a and b the stored values (exact in float), fl() one float
 * rounding, fma() a fused multiply-add (one rounding):
 *   QLinearAdd (MLAS's AVX2 kernel, what an x86-64 CPU with AVX2 and FMA runs;
 *   AVX-512 CPUs too): rA = fl(sa / sc), rB = fl(sb / sc),
 *     F = fl(zc - fma(rA, za, fl(rB * zb)))
 *     v = fma(a, rA, fma(b, rB, F))                      a and b spans of the same length
 *     v = fma(a, rA, fma(b, rB, F))                      b one value per span (the same numbers)
 *     v = fma(b, rB, fma(a, rA, F2)),                    a one value per span: ORT swaps the operands,
 *        F2 = fl(zc - fma(rB, zb, fl(rA * za)))          so the bias sums the other way round
 *   QLinearMul (MLAS's SSE2 kernel, every x86-64 CPU): r = fl(fl(sa * sb) / sc),
 *     v = fl(fl((float)((a - za)(b - zb)) * r) + zc)     (two roundings, no fma; the product exact)
 *   out = clamp(cvt(v), qmin, qmax), cvt(v) = rne(v) for v in [-2^31, 2^31),
 *   INT32_MIN otherwise (x86's cvtps2dq: a v at or beyond 2^31, or NaN, stores
 *   the type's MINIMUM, not its maximum -- an ORT quirk kept here on purpose).
 * "a one value per span" is ORT's broadcast loop: a has a single element, or
 * (b not single) the innermost output dimension larger than 1 is one a does
 * not have (size 1 there); "b one value per span" likewise for b; otherwise
 * both advance together. The zero point of the output enters only through the
 * float bias (QLinearMul: scales 1, 1, 2, zc 1, products 3, 5, -3 give 2, 4,
 * 0; mrtq's MRTQ_FP32 requantization of the products gives 3, 3, -1).
 * Scales: finite and positive floats; zero points within the type. */
typedef struct mrtq_ort_qlinear_params {
  float sa, sb, sc;      /* the three scales */
  int32_t za, zb, zc;    /* the three zero points, within type */
  mrtq_dtype type;       /* MRTQ_S8 or MRTQ_U8: a, b and out */
} mrtq_ort_qlinear_params;

/* Fill *p. Errors: p NULL, a scale NaN, infinite, zero or negative, a zero
 * point outside the type -> MRTQ_EINVAL; type not MRTQ_S8 / MRTQ_U8 ->
 * MRTQ_EUNSUPPORTED (outside the enum: MRTQ_EINVAL). Nothing written on error. */
MRTQ_API mrtq_status mrtq_ort_qlinear_init(float sa, int32_t za, float sb, int32_t zb, float sc, int32_t zc,
                                           mrtq_dtype type, mrtq_ort_qlinear_params *p);
/* out = a + b (QLinearAdd) or a * b (QLinearMul) over the broadcast of
 * shape_a (nda dims) and shape_b, as above; out holds the broadcast shape's
 * elements. Errors: as mrtq_bcast_init; p, a, b or out NULL, a p that
 * mrtq_ort_qlinear_init would refuse -> MRTQ_EINVAL (or MRTQ_EUNSUPPORTED, the
 * type). */
MRTQ_API mrtq_status mrtq_ort_qlinear_add(const size_t *shape_a, int nda, const size_t *shape_b, int ndb,
                                          const mrtq_ort_qlinear_params *p, const void *a, const void *b, void *out);
MRTQ_API mrtq_status mrtq_ort_qlinear_mul(const size_t *shape_a, int nda, const size_t *shape_b, int ndb,
                                          const mrtq_ort_qlinear_params *p, const void *a, const void *b, void *out);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

MRTQ__PRIV int mrtq__ort_scale_ok(float s) { return s == s && s > 0.0f && s <= 3.40282347e38f; }

MRTQ_API mrtq_status mrtq_ort_qlinear_scale(float x_scale, const float *w_scale, size_t n, float y_scale,
                                            float *out) {
  if (!w_scale || !out) return MRTQ__ERR(MRTQ_EINVAL, "w_scale / out: NULL");
  if (n == 0) return MRTQ__ERR(MRTQ_EINVAL, "n: no weight scale");
  if (!mrtq__ort_scale_ok(x_scale)) return MRTQ__ERR(MRTQ_EINVAL, "x_scale: not finite and positive");
  if (!mrtq__ort_scale_ok(y_scale)) return MRTQ__ERR(MRTQ_EINVAL, "y_scale: not finite and positive");
  for (size_t j = 0; j < n; j++) {
    if (!mrtq__ort_scale_ok(w_scale[j])) return MRTQ__ERR(MRTQ_EINVAL, "w_scale[j]: not finite and positive");
    volatile float p = x_scale * w_scale[j]; /* one rounding per operation, whatever FP_CONTRACT says */
    float q = p / y_scale;
    if (!(q > 0.0f) || q > 3.40282347e38f)
      return MRTQ__ERR(MRTQ_ERANGE, "w_scale[j]: x_scale * w_scale / y_scale overflows or rounds to 0 in float");
  }
  for (size_t j = 0; j < n; j++) {
    volatile float p = x_scale * w_scale[j];
    out[j] = p / y_scale;
  }
  return MRTQ_OK;
}

MRTQ__PRIV mrtq_status mrtq__ort_qtype(mrtq_dtype type, int32_t zp, int32_t *lo, int32_t *hi) {
  if (type != MRTQ_S8 && type != MRTQ_U8) {
    if (mrtq_dtype_bits(type) == 0) return MRTQ__ERR(MRTQ_EINVAL, "type: not an mrtq_dtype");
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "type: QuantizeLinear here writes MRTQ_S8 or MRTQ_U8");
  }
  mrtq_dtype_range(type, lo, hi);
  if (zp < *lo || zp > *hi) return MRTQ__ERR(MRTQ_EINVAL, "zp: outside the type");
  return MRTQ_OK;
}

/* One element: the quotient, NaN -> qmin, else as mrtq_quantize_f32. */
MRTQ__PRIV int32_t mrtq__ort_q1(float x, float scale, int32_t zp, int32_t lo, int32_t hi) {
  float f = x / scale;
  if (f != f) return lo;
  return mrtq__clamp64(mrtq__rne_f32(f) + zp, lo, hi);
}

MRTQ__PRIV void mrtq__ort_qrun(const float *x, size_t n, float scale, int32_t zp, mrtq_dtype type, int32_t lo,
                               int32_t hi, void *out) {
  if (type == MRTQ_S8)
    for (size_t i = 0; i < n; i++) ((int8_t *)out)[i] = (int8_t)mrtq__ort_q1(x[i], scale, zp, lo, hi);
  else
    for (size_t i = 0; i < n; i++) ((uint8_t *)out)[i] = (uint8_t)mrtq__ort_q1(x[i], scale, zp, lo, hi);
}

MRTQ_API mrtq_status mrtq_ort_quantize_linear(const float *x, size_t n, float scale, int32_t zp, mrtq_dtype type,
                                              void *out) {
  int32_t lo = 0, hi = 0;
  mrtq_status st = mrtq__ort_qtype(type, zp, &lo, &hi);
  if (st) return st;
  if (n && (!x || !out)) return MRTQ__ERR(MRTQ_EINVAL, "x / out: NULL");
  mrtq__ort_qrun(x, n, scale, zp, type, lo, hi, out);
  return MRTQ_OK;
}

MRTQ__PRIV mrtq_status mrtq__ort_dqtype(mrtq_dtype type, int32_t zp) {
  int32_t lo = 0, hi = 0;
  if (type != MRTQ_S8 && type != MRTQ_U8 && type != MRTQ_S32) {
    if (mrtq_dtype_bits(type) == 0) return MRTQ__ERR(MRTQ_EINVAL, "type: not an mrtq_dtype");
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "type: DequantizeLinear here reads MRTQ_S8, MRTQ_U8 or MRTQ_S32");
  }
  mrtq_dtype_range(type, &lo, &hi);
  if (zp < lo || zp > hi) return MRTQ__ERR(MRTQ_EINVAL, "zp: outside the type");
  if (type == MRTQ_S32 && zp != 0) return MRTQ__ERR(MRTQ_EINVAL, "zp: must be 0 for int32 (ONNX)");
  return MRTQ_OK;
}

MRTQ__PRIV int32_t mrtq__ort_load(const void *q, size_t i, mrtq_dtype type) {
  if (type == MRTQ_S8) return ((const int8_t *)q)[i];
  if (type == MRTQ_U8) return ((const uint8_t *)q)[i];
  int32_t v;
  memcpy(&v, (const char *)q + 4 * i, 4);
  return v;
}

MRTQ__PRIV void mrtq__ort_dqrun(const void *q, size_t at, size_t n, float scale, int32_t zp, mrtq_dtype type,
                                float *out) {
  for (size_t i = 0; i < n; i++) out[i] = mrtq_dequantize_f32(mrtq__ort_load(q, at + i, type), scale, zp);
}

MRTQ_API mrtq_status mrtq_ort_dequantize_linear(const void *q, size_t n, float scale, int32_t zp, mrtq_dtype type,
                                                float *out) {
  mrtq_status st = mrtq__ort_dqtype(type, zp);
  if (st) return st;
  if (n && (!q || !out)) return MRTQ__ERR(MRTQ_EINVAL, "q / out: NULL");
  mrtq__ort_dqrun(q, 0, n, scale, zp, type, out);
  return MRTQ_OK;
}

/* outer x C x inner of shape split at axis. */
MRTQ__PRIV mrtq_status mrtq__ort_axis(const size_t *shape, int ndim, int axis, size_t *outer, size_t *ch,
                                      size_t *inner) {
  if (!shape) return MRTQ__ERR(MRTQ_EINVAL, "shape: NULL");
  if (ndim < 1 || ndim > MRTQ_MAX_DIMS) return MRTQ__ERR(MRTQ_EINVAL, "ndim: outside [1, MRTQ_MAX_DIMS]");
  if (axis < -ndim || axis >= ndim) return MRTQ__ERR(MRTQ_EINVAL, "axis: outside [-ndim, ndim)");
  if (axis < 0) axis += ndim;
  size_t total = 1;
  *outer = *inner = 1;
  for (int d = 0; d < ndim; d++) {
    if (shape[d] == 0) return MRTQ__ERR(MRTQ_ESHAPE, "shape: a zero dimension");
    if (total > SIZE_MAX / shape[d]) return MRTQ__ERR(MRTQ_ESHAPE, "shape: element count overflows size_t");
    total *= shape[d];
    if (d < axis) *outer *= shape[d];
    if (d > axis) *inner *= shape[d];
  }
  *ch = shape[axis];
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_ort_quantize_linear_axis(const float *x, const size_t *shape, int ndim, int axis,
                                                   const float *scale, const int32_t *zp, mrtq_dtype type,
                                                   void *out) {
  size_t outer, ch, inner;
  int32_t lo = 0, hi = 0;
  mrtq_status st = mrtq__ort_axis(shape, ndim, axis, &outer, &ch, &inner);
  if (st) return st;
  if (!x || !scale || !out) return MRTQ__ERR(MRTQ_EINVAL, "x / scale / out: NULL");
  for (size_t c = 0; c < ch; c++)
    if ((st = mrtq__ort_qtype(type, zp ? zp[c] : 0, &lo, &hi))) return st;
  for (size_t o = 0; o < outer; o++)
    for (size_t c = 0; c < ch; c++) {
      size_t at = (o * ch + c) * inner;
      mrtq__ort_qrun(x + at, inner, scale[c], zp ? zp[c] : 0, type, lo, hi, (char *)out + at);
    }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_ort_dequantize_linear_axis(const void *q, const size_t *shape, int ndim, int axis,
                                                     const float *scale, const int32_t *zp, mrtq_dtype type,
                                                     float *out) {
  size_t outer, ch, inner;
  mrtq_status st = mrtq__ort_axis(shape, ndim, axis, &outer, &ch, &inner);
  if (st) return st;
  if (!q || !scale || !out) return MRTQ__ERR(MRTQ_EINVAL, "q / scale / out: NULL");
  for (size_t c = 0; c < ch; c++)
    if ((st = mrtq__ort_dqtype(type, zp ? zp[c] : 0))) return st;
  for (size_t o = 0; o < outer; o++)
    for (size_t c = 0; c < ch; c++) {
      size_t at = (o * ch + c) * inner;
      mrtq__ort_dqrun(q, at, inner, scale[c], zp ? zp[c] : 0, type, out + at);
    }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_ort_dynamic_quantize_linear(const float *x, size_t n, uint8_t *y, float *scale,
                                                      int32_t *zp) {
  if (!x || !y || !scale || !zp) return MRTQ__ERR(MRTQ_EINVAL, "x / y / scale / zp: NULL");
  if (n == 0) return MRTQ__ERR(MRTQ_EINVAL, "n: an empty tensor has no range");
  float lo = 0.0f, hi = 0.0f;
  for (size_t i = 0; i < n; i++) {
    if (!(x[i] - x[i] == 0.0f)) return MRTQ__ERR(MRTQ_EINVAL, "x[i]: NaN or infinite");
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi;
  }
  float s = 1.0f;
  if (hi != lo) {
    volatile float d = hi - lo;
    s = d / 255.0f;
  }
  volatile float r = lo / s;
  float z = 0.0f - r;
  z = z < 0.0f ? 0.0f : z > 255.0f ? 255.0f : z;
  int32_t zi = (int32_t)mrtq__rne_f32(z);
  mrtq__ort_qrun(x, n, s, zi, MRTQ_U8, 0, 255, y);
  *scale = s;
  *zp = zi;
  return MRTQ_OK;
}


MRTQ_API mrtq_status mrtq_ort_qlinear_init(float sa, int32_t za, float sb, int32_t zb, float sc, int32_t zc,
                                           mrtq_dtype type, mrtq_ort_qlinear_params *p) {
  int32_t lo = 0, hi = 0;
  mrtq_status st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!mrtq__ort_scale_ok(sa)) return MRTQ__ERR(MRTQ_EINVAL, "sa: not finite and positive");
  if (!mrtq__ort_scale_ok(sb)) return MRTQ__ERR(MRTQ_EINVAL, "sb: not finite and positive");
  if (!mrtq__ort_scale_ok(sc)) return MRTQ__ERR(MRTQ_EINVAL, "sc: not finite and positive");
  if ((st = mrtq__ort_qtype(type, 0, &lo, &hi))) return st;
  if (za < lo || za > hi) return MRTQ__ERR(MRTQ_EINVAL, "za: outside the type");
  if (zb < lo || zb > hi) return MRTQ__ERR(MRTQ_EINVAL, "zb: outside the type");
  if (zc < lo || zc > hi) return MRTQ__ERR(MRTQ_EINVAL, "zc: outside the type");
  p->sa = sa, p->sb = sb, p->sc = sc, p->za = za, p->zb = zb, p->zc = zc, p->type = type;
  return MRTQ_OK;
}

/* x86's cvtps2dq: rne(v), or INT32_MIN for NaN and v outside [-2^31, 2^31). */
MRTQ__PRIV int32_t mrtq__ort_cvt(float v) {
  if (!(v >= -2147483648.0f && v < 2147483648.0f)) return INT32_MIN;
  return (int32_t)mrtq__rne_f32(v);
}

/* zc - (x y + z w) as ORT's gcc build of MLAS evaluates it: the first product
 * fused (tests/test_ort.c's constructed cases refute the other two orders). */
MRTQ__PRIV float mrtq__ort_bias(float zc, float x, float y, float z, float w) {
  return zc - mrtq__fmaf(x, y, mrtq__f32(z * w));
}

MRTQ__PRIV mrtq_status mrtq__ort_binary(int mul, const size_t *shape_a, int nda, const size_t *shape_b, int ndb,
                                        const mrtq_ort_qlinear_params *p, const void *a, const void *b, void *out) {
  mrtq_bcast bc;
  mrtq_ort_qlinear_params chk;
  mrtq_status st = mrtq_bcast_init(shape_a, nda, shape_b, ndb, &bc);
  if (st) return st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if ((st = mrtq_ort_qlinear_init(p->sa, p->za, p->sb, p->zb, p->sc, p->zc, p->type, &chk))) return st;
  if (!a || !b || !out) return MRTQ__ERR(MRTQ_EINVAL, "a / b / out: NULL");
  int32_t lo = 0, hi = 0;
  mrtq_dtype_range(p->type, &lo, &hi);
  /* which of ORT's three loops: 0 both advance, 1 b one value per span, 2 a one value per span */
  size_t na = 1, nb = 1;
  for (int d = 0; d < nda; d++) na *= shape_a[d];
  for (int d = 0; d < ndb; d++) nb *= shape_b[d];
  int path = 0;
  if (na == 1) {
    path = 2;
  } else if (nb == 1) {
    path = 1;
  } else {
    for (int d = bc.ndim - 1; d >= 0; d--) {
      if (bc.out[d] == 1) continue;
      path = bc.sa[d] == 0 ? 2 : bc.sb[d] == 0 ? 1 : 0;
      break;
    }
  }
  float za = (float)p->za, zb = (float)p->zb, zc = (float)p->zc;
  volatile float ra_v = p->sa / p->sc, rb_v = p->sb / p->sc, pr = p->sa * p->sb;
  float ra = ra_v, rb = rb_v, r = pr / p->sc;
  float f = path == 2 ? mrtq__ort_bias(zc, rb, zb, ra, za) : mrtq__ort_bias(zc, ra, za, rb, zb);
  for (size_t i = 0; i < bc.n; i++) {
    size_t ia, ib;
    mrtq__bcast_at(&bc, i, &ia, &ib);
    int32_t x = mrtq__load(a, ia, p->type), y = mrtq__load(b, ib, p->type);
    float v;
    if (mul)
      v = mrtq__f32(mrtq__f32((float)((x - p->za) * (y - p->zb)) * r) + zc);
    else if (path == 2)
      v = mrtq__fmaf((float)y, rb, mrtq__fmaf((float)x, ra, f));
    else
      v = mrtq__fmaf((float)x, ra, mrtq__fmaf((float)y, rb, f));
    int32_t q = mrtq__ort_cvt(v);
    mrtq__store(out, i, p->type, q < lo ? lo : q > hi ? hi : q);
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_ort_qlinear_add(const size_t *shape_a, int nda, const size_t *shape_b, int ndb,
                                          const mrtq_ort_qlinear_params *p, const void *a, const void *b, void *out) {
  return mrtq__ort_binary(0, shape_a, nda, shape_b, ndb, p, a, b, out);
}

MRTQ_API mrtq_status mrtq_ort_qlinear_mul(const size_t *shape_a, int nda, const size_t *shape_b, int ndb,
                                          const mrtq_ort_qlinear_params *p, const void *a, const void *b, void *out) {
  return mrtq__ort_binary(1, shape_a, nda, shape_b, ndb, p, a, b, out);
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_ORT_H */
