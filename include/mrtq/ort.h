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
 *   QGemm (quantized output)      mrtq_ort_qgemm_scale, then likewise
 *   QLinearAdd, QLinearMul        mrtq_ort_qlinear_init, mrtq_ort_qlinear_add / _mul
 *   QLinearLeakyRelu, QLinearSigmoid  mrtq_ort_qlinear_leaky_relu_init / _sigmoid_init, mrtq_ort_lut
 *   QLinearAveragePool            mrtq_ort_qlinear_avgpool (2-D)
 *   QLinearGlobalAveragePool      mrtq_ort_avgpool_scale, then mrtq_avgpool2d_rq with MRTQ_FP32
 *   QLinearSoftmax                mrtq_ort_qlinear_softmax_init, mrtq_ort_qlinear_softmax
 *   QLinearConcat                 mrtq_ort_qlinear_concat
 *   ConvInteger, MatMulInteger    mrtq_conv2d_s32, mrtq_matmul_s32 (exact int32; nothing ORT-specific)
 * (the com.microsoft domain's operators: ORT's contrib ops). No libm: the
 * softmax table takes exp and log as arguments.
 *
 * Where ONNX Runtime departs from the ONNX specification or from mrtq's own
 * functions, the contract says so (docs/kernels.md 7c states every formula,
 * 8 what is not reproduced). A refusal names the argument and writes nothing.
 * Element types, in every function here: an mrtq_dtype the operator does not
 * take -> MRTQ_EUNSUPPORTED; a value outside the enum (a zeroed or corrupt
 * field) -> MRTQ_EINVAL, "type: not an mrtq_dtype". */
#ifndef MRTQ_ORT_H
#define MRTQ_ORT_H

#include "attr.h"
#include "eltwise.h"
#include "pool.h"

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

/* com.microsoft QGemm with a quantized output: ORT scales alpha first,
 *   out[j] = fl(fl(fl(alpha * a_scale) * b_scale[j]) / y_scale),   j < n
 * then requantizes the int32 accumulator (plus its int32 bias C) as
 * QLinearMatMul does (MRTQ_FP32 with out[j]). alpha must be finite and
 * positive (a negative or zero scale has no requantization here).
 * Errors: alpha or a_scale NaN, infinite, zero or negative -> MRTQ_EINVAL;
 * alpha * a_scale overflowing or rounding to 0 -> MRTQ_ERANGE; otherwise as
 * mrtq_ort_qlinear_scale (b_scale in the place of w_scale). */
MRTQ_API mrtq_status mrtq_ort_qgemm_scale(float alpha, float a_scale, const float *b_scale, size_t n, float y_scale,
                                          float *out);

/* QuantizeLinear (8-bit outputs) as ONNX Runtime computes it:
 *   out[i] = clamp(rne(x[i] / scale) + zp, qmin, qmax)
 * the IEEE float quotient rounded half to even (as mrtq_quantize_f32), except
 * that a NaN quotient (x NaN, inf / inf, 0 / 0) stores qmin, the type's minimum
 * (MLAS clamps in float with max / min instructions that return their second
 * operand for NaN); mrtq_quantize_f32 stores the zero point there. Infinities
 * saturate. type MRTQ_S8 or MRTQ_U8; zp within the type. Any scale (ONNX
 * requires a positive one; ORT does not check, and neither does this).
 * Errors: x or out NULL while n > 0, zp outside the type -> MRTQ_EINVAL;
 * another mrtq_dtype -> MRTQ_EUNSUPPORTED (outside the enum: MRTQ_EINVAL). */
MRTQ_API mrtq_status mrtq_ort_quantize_linear(const float *x, size_t n, float scale, int32_t zp, mrtq_dtype type,
                                              void *out);

/* DequantizeLinear: out[i] = (float)(q[i] - zp) * scale (the difference exact
 * in int32, then one float multiply: mrtq_dequantize_f32). type MRTQ_S8,
 * MRTQ_U8 or MRTQ_S32 (ONNX's int32 DequantizeLinear: zp must then be 0, and
 * (float)q rounds beyond 2^24); zp within the type.
 * Errors: q or out NULL while n > 0, zp outside the type, zp != 0 with
 * MRTQ_S32 -> MRTQ_EINVAL; another mrtq_dtype -> MRTQ_EUNSUPPORTED (outside
 * the enum: MRTQ_EINVAL). */
MRTQ_API mrtq_status mrtq_ort_dequantize_linear(const void *q, size_t n, float scale, int32_t zp, mrtq_dtype type,
                                                float *out);

/* Per axis (ONNX opset 13's `axis` attribute): the tensor of ndim dimensions
 * `shape` split at axis (negative counts from the end, as ONNX) into outer x
 * C x inner, C = shape[axis]; element (o, c, i) uses scale[c] and zp[c] (C
 * entries each; zp NULL means all 0), otherwise as the per-tensor functions.
 * Errors: shape, x / q, scale or out NULL, ndim outside [1, MRTQ_MAX_DIMS],
 * axis outside [-ndim, ndim), a zp[c] outside the type -> MRTQ_EINVAL; a zero
 * dimension or an element count overflowing size_t -> MRTQ_ESHAPE; types as
 * the per-tensor functions. Nothing is written on error. */
MRTQ_API mrtq_status mrtq_ort_quantize_linear_axis(const float *x, const size_t *shape, int ndim, int axis,
                                                   const float *scale, const int32_t *zp, mrtq_dtype type,
                                                   void *out);
MRTQ_API mrtq_status mrtq_ort_dequantize_linear_axis(const void *q, const size_t *shape, int ndim, int axis,
                                                     const float *scale, const int32_t *zp, mrtq_dtype type,
                                                     float *out);

/* DynamicQuantizeLinear (uint8) in one call: the parameters and the data.
 *   lo = min(0, min x), hi = max(0, max x)
 *   scale = hi == lo ? 1 : fl((hi - lo) / 255)      (float throughout)
 *   zp = rne(max(0, min(255, fl(0 - lo / scale)))) (in float, then round half to even; min and max
 *        as C++'s std::min / std::max, so a NaN there, from a scale that underflowed to 0 with lo = 0,
 *        gives 255)
 *   y[i] = mrtq_ort_quantize_linear(x[i], scale, zp)
 * For a range no wider than FLT_MAX (hi - lo finite), scale and zp are
 * mrtq_qparams_from_range(MRTQ_QS_ONNX_DYNAMIC, ...)'s for that range (which
 * refuses wider ones). Errors: x, y, scale or zp NULL, n == 0 (ORT has no minimum of an
 * empty tensor), an x[i] NaN or infinite (ORT's range would then depend on
 * where the NaN sits; a scale from an infinite range is NaN) -> MRTQ_EINVAL.
 * A finite range wider than FLT_MAX gives scale +inf, zero point 0 and all
 * outputs 0, as ORT's float arithmetic does. Nothing is written on error. */
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
 * 0; mrtq's MRTQ_FP32 requantization of the products gives 3, 3, and -1
 * before the clamp).
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

/* ---- the lookup-table operators: com.microsoft QLinearLeakyRelu, QLinearSigmoid ----
 * ORT builds a 256-entry table once and gathers (y = table[x's byte]). For
 * each stored value v of the type:
 *   d = fl(x_scale * (float)(v - x_zp))
 *   f = d >= 0 ? d : fl(alpha * d)            (LeakyRelu; ONNX's default alpha is 0.01f)
 *   f = mrtq_ort_logistic(d)                  (Sigmoid: MLAS's rational approximation, below)
 *   table[v] = mrtq_ort_quantize_linear(f, y_scale, y_zp)
 * Scales finite and positive; zero points within the type; alpha finite.
 * Errors: p NULL, a scale or alpha out of range, a zero point outside the type
 * -> MRTQ_EINVAL; type another mrtq_dtype than MRTQ_S8 / MRTQ_U8 ->
 * MRTQ_EUNSUPPORTED (outside the enum: MRTQ_EINVAL). Nothing written on error. */
typedef struct mrtq_ort_lut_params {
  uint8_t table[256]; /* indexed by the stored byte (int8: its two's-complement byte) */
  mrtq_dtype type;    /* MRTQ_S8 or MRTQ_U8 */
} mrtq_ort_lut_params;
MRTQ_API mrtq_status mrtq_ort_qlinear_leaky_relu_init(float x_scale, int32_t x_zp, float y_scale, int32_t y_zp,
                                                      float alpha, mrtq_dtype type, mrtq_ort_lut_params *p);
MRTQ_API mrtq_status mrtq_ort_qlinear_sigmoid_init(float x_scale, int32_t x_zp, float y_scale, int32_t y_zp,
                                                   mrtq_dtype type, mrtq_ort_lut_params *p);
/* out[i] = p->table[byte of x[i]], i < n (x and out may be the same array).
 * Errors: p NULL, p->type not MRTQ_S8 / MRTQ_U8, x or out NULL while n > 0 ->
 * MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_ort_lut(const mrtq_ort_lut_params *p, const void *x, size_t n, void *out);

/* MLAS's logistic on x86-64 with AVX2 and FMA (MlasComputeLogistic's FMA3
 * kernel; AVX-512 CPUs run it too), one float per call, every step rounded to
 * float as the kernel does:
 *   x = min(18, max(-18, in)), x2 = fl(x * x),
 *   p = x2 (x2 (x2 (x2 a9 + a7) + a5) + a3) + a1     (each step an fma)
 *   q = x2 (x2 (x2 (x2 (x2 b10 + b8) + b6) + b4) + b2) + b0   (each an fma)
 *   y = max(0, fl(fl(fl(x * p) / q) + 0.5))
 * with Eigen's coefficients a1 = 2.48287947061529e-01f, a3 = 8.51377133304701e-03f,
 * a5 = 6.08574864600143e-05f, a7 = 1.15627324459942e-07f, a9 = 4.37031012579801e-11f,
 * b0 = 9.93151921023180e-01f, b2 = 1.16817656904453e-01f, b4 = 1.70198817374094e-03f,
 * b6 = 6.29106785017040e-06f, b8 = 5.76102136993427e-09f, b10 = 6.10247389755681e-13f.
 * No upper clamp: y slightly exceeds 1 for some inputs (x = 17.844f gives
 * 1 + 2^-23). NaN stays NaN. Total. */
MRTQ_API float mrtq_ort_logistic(float in);

/* ---- com.microsoft QLinearAveragePool, 2-D ----
 * NCHW or NHWC (p->layout; ORT's channels_last), the geometry of *p (ORT's
 * kernel_shape, strides, pads; pads < kernel as ORT requires; ceil_mode 0),
 * p->type MRTQ_S8 or MRTQ_U8 for input and output. Two computations, as ORT:
 * - the window is the whole image (kh = h, kw = w) and no padding: ORT's
 *   global pooling in integers, acc = sum x - x_zp h w, then MRTQ_FP32 with
 *   the scale mrtq_ort_avgpool_scale(x_scale, y_scale, h w) (which must be in
 *   [2^-32, 256) and h w < 2^24, else ORT refuses the layer: MRTQ_ERANGE);
 *   mrtq holds acc in int32, so it refuses h w above 8,421,504 (255 h w
 *   would exceed int32; ORT accepts up to 2^24 - 1 there: not reproduced)
 *   with MRTQ_EOVERFLOW;
 * - otherwise, per output, the window clipped to the input (rows from
 *   max(oh stride - pad_top, 0) to min(oh stride - pad_top + kh, h), likewise
 *   columns), in float:
 *     sum = fl(... fl(fl(0 + d_1) + d_2) ...),  d = fl(x_scale * (float)(x - x_zp)),
 *           row-major over the window
 *     avg = fl(sum / (float)count),  count = kh kw (count_include_pad != 0) or
 *           the clipped window's element count (count_include_pad == 0)
 *     out = clamp(cvt(fl(fl(avg / y_scale) + y_zp)), qmin, qmax)
 *   with the output zero point added in float BEFORE rounding (ties go to the
 *   even sum, not the even quotient) and cvt as QLinearAdd's.
 * Errors: as mrtq_pool2d_out; x or out NULL, a scale not finite and positive,
 * a zero point outside the type, p->type outside the enum -> MRTQ_EINVAL;
 * kh kw overflowing size_t -> MRTQ_ESHAPE; p->type another mrtq_dtype ->
 * MRTQ_EUNSUPPORTED; the global form outside ORT's limits -> MRTQ_ERANGE, or
 * with h w above 8,421,504 -> MRTQ_EOVERFLOW. Nothing is written on error. */
MRTQ_API mrtq_status mrtq_ort_qlinear_avgpool(const mrtq_pool2d *p, int count_include_pad, float x_scale,
                                              int32_t x_zp, float y_scale, int32_t y_zp, const void *x, void *out);

/* The requantization scale of QLinearGlobalAveragePool (and of the global
 * form above): *out = fl(x_scale / fl(y_scale * (float)hw)), hw = the image's
 * element count (exact in float below 2^24). Use it with MRTQ_FP32 and
 * mrtq_avgpool2d_rq (window = the image). Errors: out NULL, a scale not finite
 * and positive, hw 0 -> MRTQ_EINVAL; hw >= 2^24, or a result outside [2^-32,
 * 256) (ORT refuses those layers) -> MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_ort_avgpool_scale(float x_scale, float y_scale, size_t hw, float *out);

/* ---- com.microsoft QLinearSoftmax ----
 * Over rows of d elements: element (o, j, i) of an outer x d x inner tensor is
 * at (o d + j) inner + i; ONNX opset >= 13 puts the axis there (ORT
 * transposes it last, which computes the same), opset < 13 flattens from the
 * axis (outer = the dims before it, d = the product of the rest, inner = 1).
 * ORT (qlinear_softmax.cc), with s = x_scale:
 *   bs = max(0, log((float)(FLT_MAX / (float)d)) - 5) / s          (double)
 *   e[k] = (float)exp((k - 255 + bs) s),  k = 0..255               (double exp)
 *   per row, m its largest element: t(x) = e[255 - m + x],
 *   sum = fl(... fl(t_1 + t_2) ...) in row order,
 *   Y = floorf(1.0f / y_scale)   (the floor of the float reciprocal: y_scale = fl(1/255) gives 254)
 *   out = min(rne(fl(fl(t(x) Y) / sum)) + y_zp, qmax)   (never below y_zp)
 * except where fl(t(x) Y) overflows to infinity (e[255] is about FLT_MAX / (148
 * d), so only rows of d < Y / 148 elements: a one-element row with Y >= 149):
 * ORT's float-to-integer cast of the infinite quotient gives 0 in its uint8
 * kernel (out = y_zp) and INT32_MIN in its int8 kernel, to which the zero
 * point is added with 32-bit wraparound before the clamp: -128 for y_zp >= 0,
 * 127 for y_zp < 0 (ORT's x86-64 build; both casts are undefined in C++, so
 * another build may differ).
 * The input zero point is never read (softmax is shift-invariant). exp_fn and
 * log_fn are the double exp and log (libm's, to match ORT's build; mrtq does
 * not link libm). Errors: p, exp_fn or log_fn NULL, a scale not finite and
 * positive, d == 0, y_zp outside the type -> MRTQ_EINVAL; type not MRTQ_S8 /
 * MRTQ_U8 -> MRTQ_EUNSUPPORTED; type outside the enum -> MRTQ_EINVAL; a table
 * entry NaN or outside [0, FLT_MAX] (only an exp_fn other than exp gives one:
 * e[255] is below FLT_MAX / 148), 1 / y_scale >= 2^31 (ORT's float-to-integer
 * cast of r is then undefined) -> MRTQ_ERANGE. Nothing is written on error. */
typedef struct mrtq_ort_softmax_params {
  float table[256]; /* e[k] */
  float y;          /* floorf(1.0f / y_scale) */
  size_t d;         /* row length */
  int32_t y_zp;
  mrtq_dtype type;
} mrtq_ort_softmax_params;
MRTQ_API mrtq_status mrtq_ort_qlinear_softmax_init(float x_scale, float y_scale, int32_t y_zp, size_t d,
                                                   mrtq_dtype type, double (*exp_fn)(double),
                                                   double (*log_fn)(double), mrtq_ort_softmax_params *p);
/* Errors: p NULL or not an init's (type, d, y_zp), x or out NULL, outer or
 * inner 0, outer d inner overflowing size_t -> MRTQ_EINVAL / MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_ort_qlinear_softmax(const mrtq_ort_softmax_params *p, const void *x, size_t outer,
                                              size_t inner, void *out);

/* ---- com.microsoft QLinearConcat ----
 * n inputs of `type` (MRTQ_S8 / MRTQ_U8), each with its own scale and zero
 * point, concatenated along axis into the output's quantization. ORT maps
 * each input through a 256-entry table unless its scale and zero point equal
 * the output's (then it copies):
 *   table_k[v] = mrtq_ort_quantize_linear(fl(scale[k] * (float)(v - zp[k])), y_scale, y_zp)
 * (a dequantize and a quantize: two roundings, not an fp32 requantization by
 * fl(scale[k] / y_scale)). Shapes: ndim dimensions, equal except along axis.
 * Errors: NULL arrays or entries, n == 0, ndim outside [1, MRTQ_MAX_DIMS],
 * axis outside [0, ndim), a scale not finite and positive, a zero point
 * outside the type -> MRTQ_EINVAL; a zero dimension, shapes that differ off
 * the axis, sizes overflowing size_t -> MRTQ_ESHAPE; another mrtq_dtype ->
 * MRTQ_EUNSUPPORTED (outside the enum: MRTQ_EINVAL). Nothing is written on
 * error. */
MRTQ_API mrtq_status mrtq_ort_qlinear_concat(const size_t *const *shapes, size_t n, int ndim, int axis,
                                             const void *const *x, const float *scale, const int32_t *zp,
                                             float y_scale, int32_t y_zp, mrtq_dtype type, void *out);

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

MRTQ_API mrtq_status mrtq_ort_qgemm_scale(float alpha, float a_scale, const float *b_scale, size_t n, float y_scale,
                                          float *out) {
  if (!mrtq__ort_scale_ok(alpha)) return MRTQ__ERR(MRTQ_EINVAL, "alpha: not finite and positive");
  if (!mrtq__ort_scale_ok(a_scale)) return MRTQ__ERR(MRTQ_EINVAL, "a_scale: not finite and positive");
  volatile float xa = alpha * a_scale;
  if (!mrtq__ort_scale_ok(xa)) return MRTQ__ERR(MRTQ_ERANGE, "alpha: alpha * a_scale overflows or rounds to 0");
  return mrtq_ort_qlinear_scale(xa, b_scale, n, y_scale, out);
}

MRTQ__PRIV mrtq_status mrtq__ort_qtype(mrtq_dtype type, int32_t zp, int32_t *lo, int32_t *hi) {
  if (type != MRTQ_S8 && type != MRTQ_U8) {
    if (mrtq_dtype_bits(type) == 0) return MRTQ__ERR(MRTQ_EINVAL, "type: not an mrtq_dtype");
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "type: ORT's 8-bit operators take MRTQ_S8 or MRTQ_U8");
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
  /* ORT's std::max(0, std::min(255, z)): a NaN z (lo = 0 over a scale that underflowed to 0) gives 255 */
  z = z < 255.0f ? z : 255.0f;
  z = 0.0f < z ? z : 0.0f;
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


/* ---- lookup tables ---- */

MRTQ__PRIV mrtq_status mrtq__ort_lut_args(float xs, int32_t xzp, float ys, int32_t yzp, mrtq_dtype type,
                                          const void *p, int32_t *lo, int32_t *hi) {
  mrtq_status st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!mrtq__ort_scale_ok(xs)) return MRTQ__ERR(MRTQ_EINVAL, "x_scale: not finite and positive");
  if (!mrtq__ort_scale_ok(ys)) return MRTQ__ERR(MRTQ_EINVAL, "y_scale: not finite and positive");
  if ((st = mrtq__ort_qtype(type, yzp, lo, hi))) return st;
  if (xzp < *lo || xzp > *hi) return MRTQ__ERR(MRTQ_EINVAL, "x_zp: outside the type");
  return MRTQ_OK;
}

MRTQ_API float mrtq_ort_logistic(float in) {
  float x = in > -18.0f ? in : in != in ? in : -18.0f;
  x = x < 18.0f ? x : x != x ? x : 18.0f;
  float x2 = mrtq__f32(x * x);
  float pp = mrtq__fmaf(x2, 4.37031012579801e-11f, 1.15627324459942e-07f);
  pp = mrtq__fmaf(x2, pp, 6.08574864600143e-05f);
  pp = mrtq__fmaf(x2, pp, 8.51377133304701e-03f);
  pp = mrtq__fmaf(x2, pp, 2.48287947061529e-01f);
  float q = mrtq__fmaf(x2, 6.10247389755681e-13f, 5.76102136993427e-09f);
  q = mrtq__fmaf(x2, q, 6.29106785017040e-06f);
  q = mrtq__fmaf(x2, q, 1.70198817374094e-03f);
  q = mrtq__fmaf(x2, q, 1.16817656904453e-01f);
  q = mrtq__fmaf(x2, q, 9.93151921023180e-01f);
  float y = mrtq__f32(mrtq__f32(mrtq__f32(x * pp) / q) + 0.5f);
  return y > 0.0f ? y : y != y ? y : 0.0f;
}

/* ORT's table of a function of the dequantized byte: kind 0 LeakyRelu
 * (alpha), 1 Sigmoid, 2 the identity (QLinearConcat's requantization). */
MRTQ__PRIV void mrtq__ort_lut_fill(int kind, float xs, int32_t xzp, float ys, int32_t yzp, float alpha,
                                   mrtq_dtype type, int32_t lo, int32_t hi, mrtq_ort_lut_params *p) {
  for (int b = 0; b < 256; b++) {
    int32_t v = type == MRTQ_S8 && b >= 128 ? b - 256 : b;
    float d = mrtq__f32(xs * (float)(v - xzp)), f;
    if (kind == 0)
      f = d >= 0.0f ? d : mrtq__f32(alpha * d);
    else if (kind == 1)
      f = mrtq_ort_logistic(d);
    else
      f = d;
    p->table[b] = (uint8_t)mrtq__ort_q1(f, ys, yzp, lo, hi);
  }
  p->type = type;
}

MRTQ_API mrtq_status mrtq_ort_qlinear_leaky_relu_init(float x_scale, int32_t x_zp, float y_scale, int32_t y_zp,
                                                      float alpha, mrtq_dtype type, mrtq_ort_lut_params *p) {
  int32_t lo = 0, hi = 0;
  mrtq_status st = mrtq__ort_lut_args(x_scale, x_zp, y_scale, y_zp, type, p, &lo, &hi);
  if (st) return st;
  if (!(alpha - alpha == 0.0f)) return MRTQ__ERR(MRTQ_EINVAL, "alpha: NaN or infinite");
  mrtq__ort_lut_fill(0, x_scale, x_zp, y_scale, y_zp, alpha, type, lo, hi, p);
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_ort_qlinear_sigmoid_init(float x_scale, int32_t x_zp, float y_scale, int32_t y_zp,
                                                   mrtq_dtype type, mrtq_ort_lut_params *p) {
  int32_t lo = 0, hi = 0;
  mrtq_status st = mrtq__ort_lut_args(x_scale, x_zp, y_scale, y_zp, type, p, &lo, &hi);
  if (st) return st;
  mrtq__ort_lut_fill(1, x_scale, x_zp, y_scale, y_zp, 0.0f, type, lo, hi, p);
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_ort_lut(const mrtq_ort_lut_params *p, const void *x, size_t n, void *out) {
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (p->type != MRTQ_S8 && p->type != MRTQ_U8) return MRTQ__ERR(MRTQ_EINVAL, "p->type: not MRTQ_S8 / MRTQ_U8");
  if (n && (!x || !out)) return MRTQ__ERR(MRTQ_EINVAL, "x / out: NULL");
  for (size_t i = 0; i < n; i++) ((uint8_t *)out)[i] = p->table[((const uint8_t *)x)[i]];
  return MRTQ_OK;
}

/* ---- average pooling ---- */

MRTQ_API mrtq_status mrtq_ort_avgpool_scale(float x_scale, float y_scale, size_t hw, float *out) {
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (!mrtq__ort_scale_ok(x_scale)) return MRTQ__ERR(MRTQ_EINVAL, "x_scale: not finite and positive");
  if (!mrtq__ort_scale_ok(y_scale)) return MRTQ__ERR(MRTQ_EINVAL, "y_scale: not finite and positive");
  if (hw == 0) return MRTQ__ERR(MRTQ_EINVAL, "hw: 0");
  if (hw >= ((size_t)1 << 24)) return MRTQ__ERR(MRTQ_ERANGE, "hw: at least 2^24 (ORT refuses)");
  volatile float den = y_scale * (float)hw;
  float s = x_scale / den;
  if (!(s >= 2.3283064365386963e-10f && s < 256.0f)) return MRTQ__ERR(MRTQ_ERANGE, "x_scale / (y_scale hw): outside [2^-32, 256)");
  *out = s;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_ort_qlinear_avgpool(const mrtq_pool2d *p, int count_include_pad, float x_scale,
                                              int32_t x_zp, float y_scale, int32_t y_zp, const void *x, void *out) {
  size_t ho, wo;
  int32_t lo = 0, hi = 0;
  mrtq_status st = mrtq_pool2d_out(p, &ho, &wo);
  if (st) return st;
  if (p->type != MRTQ_S8 && p->type != MRTQ_U8) {
    if (mrtq_dtype_bits(p->type) == 0) return MRTQ__ERR(MRTQ_EINVAL, "p->type: not an mrtq_dtype");
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "p->type: QLinearAveragePool takes MRTQ_S8 or MRTQ_U8");
  }
  if ((st = mrtq__ort_lut_args(x_scale, x_zp, y_scale, y_zp, p->type, p, &lo, &hi))) return st;
  if (!x || !out) return MRTQ__ERR(MRTQ_EINVAL, "x / out: NULL");
  if (p->kh > SIZE_MAX / p->kw) return MRTQ__ERR(MRTQ_ESHAPE, "p->kh * p->kw: overflows size_t");
  int nhwc = p->layout == MRTQ_NHWC;
  if (p->kh == p->h && p->kw == p->w && !p->pad_top && !p->pad_left && !p->pad_bottom && !p->pad_right) {
    float s;
    mrtq_rq rq;
    if (p->h * p->w > (size_t)INT32_MAX / 255)
      return MRTQ__ERR(MRTQ_EOVERFLOW, "p->h * p->w: above 8,421,504, the global form's int32 sum could overflow");
    if ((st = mrtq_ort_avgpool_scale(x_scale, y_scale, p->h * p->w, &s))) return st;
    if ((st = mrtq_rq_init(MRTQ_FP32, s, y_zp, lo, hi, &rq))) return st;
    return mrtq_avgpool2d_rq(p, &rq, x, x_zp, out);
  }
  float yzf = (float)y_zp;
  for (size_t n = 0; n < p->n; n++)
    for (size_t c = 0; c < p->c; c++)
      for (size_t oh = 0; oh < ho; oh++)
        for (size_t ow = 0; ow < wo; ow++) {
          /* the window, clipped to the input: rows [h0, h1), columns [w0, w1) */
          size_t ts = oh * p->stride_h, ls = ow * p->stride_w;
          size_t h0 = ts > p->pad_top ? ts - p->pad_top : 0, w0 = ls > p->pad_left ? ls - p->pad_left : 0;
          size_t h1 = ts + p->kh - p->pad_top, w1 = ls + p->kw - p->pad_left; /* >= 1: pads < window */
          h1 = h1 < p->h ? h1 : p->h, w1 = w1 < p->w ? w1 : p->w;
          float sum = 0.0f;
          for (size_t ih = h0; ih < h1; ih++)
            for (size_t iw = w0; iw < w1; iw++) {
              size_t at = nhwc ? ((n * p->h + ih) * p->w + iw) * p->c + c : ((n * p->c + c) * p->h + ih) * p->w + iw;
              sum = mrtq__f32(sum + mrtq__f32(x_scale * (float)(mrtq__load(x, at, p->type) - x_zp)));
            }
          size_t count = count_include_pad ? p->kh * p->kw : (h1 - h0) * (w1 - w0);
          float avg = sum / (float)count;
          int32_t q = mrtq__ort_cvt(mrtq__f32(mrtq__f32(avg / y_scale) + yzf));
          size_t o = nhwc ? ((n * ho + oh) * wo + ow) * p->c + c : ((n * p->c + c) * ho + oh) * wo + ow;
          mrtq__store(out, o, p->type, q < lo ? lo : q > hi ? hi : q);
        }
  return MRTQ_OK;
}

/* ---- softmax ---- */

MRTQ_API mrtq_status mrtq_ort_qlinear_softmax_init(float x_scale, float y_scale, int32_t y_zp, size_t d,
                                                   mrtq_dtype type, double (*exp_fn)(double),
                                                   double (*log_fn)(double), mrtq_ort_softmax_params *p) {
  int32_t lo = 0, hi = 0;
  mrtq_status st = mrtq__ort_lut_args(x_scale, 0, y_scale, y_zp, type, p, &lo, &hi);
  if (st) return st;
  if (!exp_fn || !log_fn) return MRTQ__ERR(MRTQ_EINVAL, "exp_fn / log_fn: NULL");
  if (d == 0) return MRTQ__ERR(MRTQ_EINVAL, "d: 0");
  volatile float q = 3.40282347e38f / (float)d;
  double bs = log_fn((double)q) - 5.0;
  bs = (bs > 0.0 ? bs : 0.0) / (double)x_scale;
  volatile float r = 1.0f / y_scale;
  if (!(r < 2147483648.0f)) return MRTQ__ERR(MRTQ_ERANGE, "y_scale: 1 / y_scale at least 2^31 (ORT's cast overflows)");
  float t[256];
  for (int k = 0; k < 256; k++) {
    double e = exp_fn(((double)k - 255.0 + bs) * (double)x_scale);
    /* converted only once known to be in range: (float) of a finite double
     * above FLT_MAX is undefined */
    if (!(e >= 0.0 && e <= 3.4028234663852886e38))
      return MRTQ__ERR(MRTQ_ERANGE, "exp_fn: a table entry outside [0, FLT_MAX]");
    t[k] = (float)e;
  }
  memcpy(p->table, t, sizeof t);
  p->y = (float)(int32_t)r; /* floorf of a positive float below 2^31 */
  p->d = d, p->y_zp = y_zp, p->type = type;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_ort_qlinear_softmax(const mrtq_ort_softmax_params *p, const void *x, size_t outer,
                                              size_t inner, void *out) {
  int32_t lo = 0, hi = 0;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (p->type != MRTQ_S8 && p->type != MRTQ_U8) return MRTQ__ERR(MRTQ_EINVAL, "p->type: not MRTQ_S8 / MRTQ_U8");
  mrtq_dtype_range(p->type, &lo, &hi);
  if (p->d == 0 || p->y_zp < lo || p->y_zp > hi) return MRTQ__ERR(MRTQ_EINVAL, "p: not filled by the init");
  if (!x || !out) return MRTQ__ERR(MRTQ_EINVAL, "x / out: NULL");
  if (outer == 0 || inner == 0) return MRTQ__ERR(MRTQ_ESHAPE, "outer / inner: 0");
  if (outer > SIZE_MAX / p->d || outer * p->d > SIZE_MAX / inner)
    return MRTQ__ERR(MRTQ_ESHAPE, "outer * d * inner: overflows size_t");
  for (size_t o = 0; o < outer; o++)
    for (size_t i = 0; i < inner; i++) {
      size_t base = o * p->d * inner + i;
      int32_t m = lo;
      for (size_t j = 0; j < p->d; j++) {
        int32_t v = mrtq__load(x, base + j * inner, p->type);
        m = v > m ? v : m;
      }
      float sum = 0.0f;
      for (size_t j = 0; j < p->d; j++) sum = mrtq__f32(sum + p->table[255 - m + mrtq__load(x, base + j * inner, p->type)]);
      for (size_t j = 0; j < p->d; j++) {
        float t = p->table[255 - m + mrtq__load(x, base + j * inner, p->type)];
        float ty = mrtq__f32(t * p->y);
        int64_t r;
        if (ty > 3.40282347e38f) /* inf: ORT's cast gives 0 (uint32) or INT32_MIN (int32, + zp wrapping) */
          r = p->type == MRTQ_U8 ? p->y_zp : p->y_zp < 0 ? hi : lo;
        else
          r = mrtq__rne_f32(mrtq__f32(ty / sum)) + p->y_zp;
        /* r >= y_zp for an init's table; both ends for a hand-filled one */
        int32_t q = (int32_t)(r > hi ? hi : r < lo ? lo : r);
        mrtq__store(out, base + j * inner, p->type, q);
      }
    }
  return MRTQ_OK;
}


/* ---- concat ---- */

MRTQ_API mrtq_status mrtq_ort_qlinear_concat(const size_t *const *shapes, size_t n, int ndim, int axis,
                                             const void *const *x, const float *scale, const int32_t *zp,
                                             float y_scale, int32_t y_zp, mrtq_dtype type, void *out) {
  int32_t lo = 0, hi = 0;
  mrtq_status st;
  if (!shapes || !x || !scale || !zp || !out) return MRTQ__ERR(MRTQ_EINVAL, "shapes / x / scale / zp / out: NULL");
  if (!mrtq__ort_scale_ok(y_scale)) return MRTQ__ERR(MRTQ_EINVAL, "y_scale: not finite and positive");
  if ((st = mrtq__ort_qtype(type, y_zp, &lo, &hi))) return st;
  for (size_t k = 0; k < n; k++) {
    if (!mrtq__ort_scale_ok(scale[k])) return MRTQ__ERR(MRTQ_EINVAL, "scale[k]: not finite and positive");
    if (zp[k] < lo || zp[k] > hi) return MRTQ__ERR(MRTQ_EINVAL, "zp[k]: outside the type");
  }
  if (n == 0) return MRTQ__ERR(MRTQ_EINVAL, "n: no input");
  if (ndim < 1 || ndim > MRTQ_MAX_DIMS) return MRTQ__ERR(MRTQ_EINVAL, "ndim: outside [1, MRTQ_MAX_DIMS]");
  if (axis < 0 || axis >= ndim) return MRTQ__ERR(MRTQ_EINVAL, "axis: outside [0, ndim)");
  size_t outer = 1, inner = 1, along = 0, at = 0;
  for (size_t k = 0; k < n; k++) {
    if (!shapes[k] || !x[k]) return MRTQ__ERR(MRTQ_EINVAL, "shapes[k] / x[k]: NULL");
    for (int d = 0; d < ndim; d++) {
      if (shapes[k][d] == 0) return MRTQ__ERR(MRTQ_ESHAPE, "shapes[k]: a zero dimension");
      if (d != axis && shapes[k][d] != shapes[0][d]) return MRTQ__ERR(MRTQ_ESHAPE, "shapes[k]: differs off the axis");
    }
    if (along > SIZE_MAX - shapes[k][axis]) return MRTQ__ERR(MRTQ_ESHAPE, "shapes: the axis overflows size_t");
    along += shapes[k][axis];
  }
  size_t total = 1;
  for (int d = 0; d < ndim; d++) {
    size_t v = d == axis ? along : shapes[0][d];
    if (v > SIZE_MAX / total) return MRTQ__ERR(MRTQ_ESHAPE, "shapes: the element count overflows size_t");
    total *= v;
    if (d < axis) outer *= v;
    if (d > axis) inner *= v;
  }
  for (size_t k = 0; k < n; k++) {
    size_t len = shapes[k][axis] * inner;
    mrtq_ort_lut_params t;
    int map = scale[k] != y_scale || zp[k] != y_zp; /* else ORT copies */
    if (map) mrtq__ort_lut_fill(2, scale[k], zp[k], y_scale, y_zp, 0.0f, type, lo, hi, &t);
    for (size_t o = 0; o < outer; o++) {
      uint8_t *dst = (uint8_t *)out + o * along * inner + at;
      const uint8_t *src = (const uint8_t *)x[k] + o * len;
      if (map)
        for (size_t i = 0; i < len; i++) dst[i] = t.table[src[i]];
      else
        memcpy(dst, src, len);
    }
    at += len;
  }
  return MRTQ_OK;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_ORT_H */
