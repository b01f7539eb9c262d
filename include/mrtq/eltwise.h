/* mrtq/eltwise.h -- elementwise quantized operators: ReLU / clamp on stored
 * values; NumPy-style broadcasting; TFLite's int8/uint8/int16 ADD and MUL,
 * bit-exact with TFLite's reference kernels (tensorflow/lite/kernels/internal/
 * reference/add.h, integer_ops/add.h and mul.h, default build: double
 * rounding), with parameters from scales or from TFLite's precomputed values;
 * TFLite's MAXIMUM / MINIMUM with broadcasting;
 * XNNPACK's ADD / SUBTRACT scheme; MRT's broadcast_add / sub / mul and lazy
 * merge by add on int32 expansion tensors with per-input rescaling. */
#ifndef MRTQ_ELTWISE_H
#define MRTQ_ELTWISE_H

#include "requant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

#define MRTQ_MAX_DIMS 8

/* ---- broadcasting ---- */

/* Broadcasting of two shapes (NumPy rules: aligned at the last dimension;
 * each pair of sizes equal, or one of them 1). Filled by mrtq_bcast_init. */
typedef struct mrtq_bcast {
  int ndim;                                    /* max(nda, ndb) */
  size_t out[MRTQ_MAX_DIMS];                   /* output shape */
  size_t sa[MRTQ_MAX_DIMS], sb[MRTQ_MAX_DIMS]; /* element strides of a and b (0 where broadcast) */
  size_t n;                                    /* output elements */
} mrtq_bcast;

/* The broadcast of shape_a (nda dimensions) and shape_b (ndb); a rank-0 shape
 * is a scalar (its pointer may then be NULL).
 * Errors: nda or ndb outside [0, MRTQ_MAX_DIMS], a shape NULL with a rank
 * > 0, bc NULL -> MRTQ_EINVAL; a zero dimension, sizes that are neither equal
 * nor 1, an element count overflowing size_t -> MRTQ_ESHAPE. On error *bc is
 * left unchanged. */
MRTQ_API mrtq_status mrtq_bcast_init(const size_t *shape_a, int nda, const size_t *shape_b, int ndb, mrtq_bcast *bc);

/* ---- TFLite ADD ----
 * General path (TFLite's int8 / uint8 ADD and its general int16 ADD): with
 * T = 2 max(s1, s2) and left shift L = 20 for 8-bit types, L = 15 for
 * MRTQ_S16 (all in double, as TFLite's Prepare): multipliers m1 = Q31(s1 /
 * T), m2 = Q31(s2 / T), mo = Q31(T / (2^L s_out)) (mrtq_mult_q31; all shifts
 * <= 0). Per element:
 *   v1 = (a - zp1) * 2^L,  v2 = (b - zp2) * 2^L,
 *   y = mul_q31_dbl(mul_q31_dbl(v1, m1) + mul_q31_dbl(v2, m2), mo) + zp_out,
 *   out = clamp(y, qmin, qmax)
 * (mul_q31_dbl: SRDHM, ties toward +inf, then RDIVPOT, ties away from 0).
 * Every intermediate fits int32 (8-bit: |v| <= 255 * 2^22 for L <= 22;
 * int16: zero points 0, |v| <= 2^30 for L <= 15). Bit-exact with TFLite's
 * reference ADD (reference_integer_ops::Add for int8, reference_ops::Add /
 * AddGeneralParamScale / BroadcastAdd6DSlow for uint8 and int16).
 *
 * Power-of-two int16 path (pot = 1; mrtq_tflite_add16_pot_init): TFLite's
 * older int16 ADD for symmetric power-of-two scales (LSTM cells), a different
 * computation: with e1 = -m1.shift, e2 = -m2.shift (one of them 0),
 *   y = sat16(rdivpot(a, e1) + rdivpot(b, e2)),  out = clamp(y, qmin, qmax)
 * (rdivpot: x / 2^e rounded to nearest, ties away from zero; sat16: saturate
 * to [-32768, 32767]). Bit-exact with TFLite's reference_ops::Add for int16
 * with pot_scale true. */
typedef struct mrtq_tflite_add_params {
  mrtq_mult m1, m2, mo; /* pot = 1: only m1.shift and m2.shift are set (mults and mo zero) */
  int32_t zp1, zp2, zp_out, qmin, qmax;
  int left_shift;  /* 20 (8-bit) or 15 (int16) from the scales; 0 when pot = 1 */
  mrtq_dtype type; /* MRTQ_S8, MRTQ_U8 or MRTQ_S16: a, b and out */
  int pot;         /* 0: general path; 1: TFLite's power-of-two int16 path (type MRTQ_S16) */
} mrtq_tflite_add_params;

/* General-path parameters for scales s1, s2, s_out (real = s * (q - zp)),
 * zero points and output bounds, all in `type` (L = 20 for MRTQ_S8 / MRTQ_U8,
 * 15 for MRTQ_S16; pot = 0). For MRTQ_S16 every zero point must be 0, as
 * TFLite's add.cc requires (tensorflow commit 3175de16; the older add.cc of
 * commit 01da0c85 and TFLite Micro's add_common.cc (90b983c2) accept others).
 * The scales are used as given (pass TFLite's float scales): Prepare's only
 * float operations, 2 max(s1, s2) and 2^L s_out, are exact there, so the TF
 * interpreter and TFLite Micro compute these same doubles -- except for
 * scales beyond 2^107, where TFLite's float 2^L s_out (2 max(s1, s2) beyond
 * 2^127) overflows and its Prepare aborts.
 * Errors: p NULL, a scale NaN, infinite or <= 0, a zero point or bound outside
 * the type, qmin > qmax, an MRTQ_S16 zero point not 0 -> MRTQ_EINVAL; type
 * another mrtq_dtype than S8 / U8 / S16 -> MRTQ_EUNSUPPORTED, outside the enum
 * -> MRTQ_EINVAL; an output multiplier >= 1 (TFLite refuses it), one just
 * below 1 that rounds up to 2^31 in Q31 and so encodes with shift 1 (TFLite's
 * QuantizeMultiplierSmallerThanOneExp checks shift <= 0 and aborts there) or a
 * multiplier that flushes to 0 -> MRTQ_ERANGE. On error *p is left unchanged. */
MRTQ_API mrtq_status mrtq_tflite_add_init(double s1, int32_t zp1, double s2, int32_t zp2, double s_out, int32_t zp_out,
                                          int32_t qmin, int32_t qmax, mrtq_dtype type, mrtq_tflite_add_params *p);

/* General-path parameters from the values TFLite's ArithmeticParams holds
 * (or CMSIS-NN's, which are the same numbers), no scales needed:
 * input1/input2/output multiplier and shift as m1, m2, mo, left_shift, and
 * the zero points zp1, zp2, zp_out -- note TFLite stores input1_offset =
 * -zp1 and input2_offset = -zp2 (negated) and output_offset = zp_out: pass
 * zero points, not offsets -- the activation bounds qmin, qmax and the type.
 * Valid ranges (what TFLite's kernels assume, so that no int32 overflows):
 * each mult in [2^30, 2^31 - 1] and shift in [-31, 0] (TFLite's
 * QuantizeMultiplierSmallerThanOneExp); left_shift in [0, 22] for MRTQ_S8 /
 * MRTQ_U8 (TFLite uses 20), [0, 15] for MRTQ_S16 (TFLite uses 15); zero points
 * and bounds in the type, zero points 0 for MRTQ_S16, qmin <= qmax. With
 * TFLite's values it gives the same bytes as mrtq_tflite_add_init.
 * Errors: p NULL, any value outside its range -> MRTQ_EINVAL; type as
 * mrtq_tflite_add_init. On error *p is left unchanged. */
MRTQ_API mrtq_status mrtq_tflite_add_init_mult(mrtq_mult m1, mrtq_mult m2, mrtq_mult mo, int left_shift, int32_t zp1,
                                               int32_t zp2, int32_t zp_out, int32_t qmin, int32_t qmax, mrtq_dtype type,
                                               mrtq_tflite_add_params *p);

/* TFLite's power-of-two int16 ADD (type MRTQ_S16, pot = 1), from the scales.
 * Which TFLite runs it: tensorflow/lite/kernels/add.cc (both versions read,
 * commits 01da0c85 and 3175de16) takes this path when the model's
 * AddOptions.pot_scale_int16 is true (the schema's default: a model that does
 * not write the flag gets it) and all three scales are powers of two by
 * CheckedLog2 (01da0c85 also needs zero points 0); otherwise, and always in
 * TFLite Micro, the general path (mrtq_tflite_add_init). A scale s
 * counts as 2^k when |log2 s - k| < 10^-3 with k = round(log2 s) (half away
 * from zero); mrtq decides this exactly in double. TFLite evaluates
 * fl(logf(s) * fl(1 / logf(2))) in float (quantization_util.cc: std::log on
 * a float, times the float constant 1.0f / std::log(2.0f)), whose last bits
 * depend on the C library's logf (glibc's is not correctly rounded), so mrtq
 * keeps the exact decision. The two differ only for scales within float
 * rounding of 2^(k +- 0.001): with glibc 2.36 on x86-64, 249 of the 40,800
 * floats within 200 ulps of 2^(k +- 0.001), k in [-25, 25], are classified
 * differently (e.g. s = 0x1.ffa4e6p-41: TFLite takes the power-of-two path,
 * mrtq refuses it with MRTQ_ERANGE). Then m1.shift = k1 - k_out, m2.shift =
 * k2 - k_out, both <= 0 and one of them 0 (TFLite's rules), and mrtq also
 * requires each >= -15: gemmlowp's int16 rounding shift is exact only up to
 * 15 (TFLite returns 1 or -1 instead of the rounded value beyond). Zero
 * points are 0 by definition of this path. qmin, qmax: int16 bounds.
 * Errors: p NULL, a scale NaN, infinite or <= 0, qmin or qmax outside int16,
 * qmin > qmax -> MRTQ_EINVAL; a scale not a power of two, both shifts
 * non-zero, a shift > 0 or < -15 -> MRTQ_ERANGE. On error *p is unchanged. */
MRTQ_API mrtq_status mrtq_tflite_add16_pot_init(double s1, double s2, double s_out, int32_t qmin, int32_t qmax,
                                                mrtq_tflite_add_params *p);

/* One element (p from one of the three constructors above; pot selects the
 * path). Total: a and b are first clamped into p->type (a value outside the
 * type gives the result of the nearest stored value), so any int32 is
 * accepted. It does not validate p (it has no status): on a struct no
 * constructor produced, each field is forced into its constructors' range
 * (types other than S8 / U8 treated as int16, pot != 0 as 1) and the result
 * is unspecified but defined -- no UB for any struct. */
MRTQ_API int32_t mrtq_tflite_add_one(const mrtq_tflite_add_params *p, int32_t a, int32_t b);

/* out = a + b (TFLite ADD) over the broadcast of shape_a and shape_b; out
 * holds the broadcast shape's elements. a, b and out are arrays of p->type
 * (int16 at any alignment). The power-of-two path applies its per-element
 * formula over the broadcast too (TFLite's reference runs it only on equal
 * shapes).
 * Errors: shapes as mrtq_bcast_init; p, a, b or out NULL -> MRTQ_EINVAL;
 * p->type another mrtq_dtype than S8 / U8 / S16 -> MRTQ_EUNSUPPORTED, outside
 * the enum (0: a zeroed struct) -> MRTQ_EINVAL; a struct that breaks the
 * constructors' rules -> MRTQ_EINVAL, the reason naming the field ("p->zp1:
 * outside type", "p->left_shift: ...", "p->m1: ..."): zero points and bounds
 * in the type, qmin <= qmax, int16 zero points 0; pot 0 or 1; pot = 0: the
 * ranges of mrtq_tflite_add_init_mult; pot = 1: type MRTQ_S16, m1.shift and
 * m2.shift in [-15, 0] with one of them 0, every other multiplier field and
 * left_shift 0. Nothing is written on error. */
MRTQ_API mrtq_status mrtq_tflite_add(const size_t *shape_a, int nda, const size_t *shape_b, int ndb,
                                     const mrtq_tflite_add_params *p, const void *a, const void *b, void *out);

/* ---- TFLite MUL ----
 * m = Q31(r), y = mul_q31_dbl((a - zp1)(b - zp2), m) + zp_out, clamped to [qmin, qmax] (SRDHM ties toward +inf, then RDIVPOT ties
 * away from zero). The same formula for int8, uint8 and int16 (TFLite's
 * reference_integer_ops::Mul / MulElementwise / BroadcastMul6DSlow on int16
 * in and out; the product (a - zp1)(b - zp2) is int32: |a b| <= 2^30 for
 * int16, whose zero points must be 0). Bit-exact with TFLite's reference MUL.
 * (TFLite's int16-in, int8-out MUL of LSTM cells is another operator: not
 * here.) The real multiplier r depends on which TFLite prepares the operator
 * (both store the scales as float, f = fl(s)):
 *   TF interpreter (tensorflow/lite/kernels/mul.cc, TF 2.x: the float scales
 *   multiplied and divided in float, then widened): r = fl(fl(f1 f2) / f3)
 *   -> mrtq_tflite_mul_init;
 *   TFLite Micro (micro/kernels/mul_common.cc, tflite-micro 90b983c2: each
 *   scale widened to double first): r = f1 f2 / f3 in double
 *   -> mrtq_tflite_mul_init_micro.
 * The two multipliers differ for most scale triples (2983 of 3000 random
 * ones in tests/test_eltwise16.c), and then some outputs differ by 1 (e.g.
 * int16, s1 = 0x1.805e6p-4, s2 = 0x1.22a6f4p-7, s_out = 0x1.639582p+1: TF
 * {1317768704, -11}, Micro {1317768713, -11}; a = -2675, b = 32748 gives
 * -26247 and -26248). (ADD needs no such pair: its Prepare's float
 * operations, 2 max(f1, f2) and 2^L f3, are exact, so the TF interpreter and
 * TFLite Micro compute the same doubles.) */
typedef struct mrtq_tflite_mul_params {
  mrtq_mult m;
  int32_t zp1, zp2, zp_out, qmin, qmax;
  mrtq_dtype type; /* MRTQ_S8, MRTQ_U8 or MRTQ_S16 */
} mrtq_tflite_mul_params;

/* The TF interpreter's MUL (mul.cc): each scale rounded to float (nearest,
 * ties to even; a float argument is taken as is), r = fl(fl(f1 f2) / f3)
 * (IEEE single operations, whatever the compiler's FLT_EVAL_METHOD), m =
 * Q31(r) (mrtq_mult_q31, TFLite's QuantizeMultiplier). Bit-exact with
 * TFLite's reference MUL as the TF interpreter prepares it.
 * Errors as mrtq_tflite_add_init (MRTQ_S16: zero points 0, as TFLite's mul.cc
 * (6706a2ff) and TFLite Micro's mul_common.cc require), except the
 * MRTQ_ERANGE cases: a scale that does not round to a positive finite float
 * (beyond FLT_MAX, or below half the least subnormal), f1 f2 or r beyond
 * FLT_MAX in float, r flushing to 0 in Q31, or a shift at which TFLite's left
 * shift x * 2^shift overflows int32 for some input: shift > 15 for 8-bit
 * types (|x| <= 255^2), shift > 0 for MRTQ_S16 (|x| <= 2^30; so r must be
 * below 1, and not round up to 1). On error *p is left unchanged.
 * Changed in 0.3.0: r was s1 s2 / s_out in double (TFLite Micro's form, now
 * mrtq_tflite_mul_init_micro). */
MRTQ_API mrtq_status mrtq_tflite_mul_init(double s1, int32_t zp1, double s2, int32_t zp2, double s_out, int32_t zp_out,
                                          int32_t qmin, int32_t qmax, mrtq_dtype type, mrtq_tflite_mul_params *p);
/* TFLite Micro's MUL (mul_common.cc, tflite-micro 90b983c2): each scale
 * rounded to float as above, r = f1 f2 / f3 in double (never overflows: the
 * operands are floats), m = Q31(r). Bit-exact with TFLite Micro's reference
 * MUL. Same arguments, ranges and errors as mrtq_tflite_mul_init, the shift
 * refusals decided on this r. */
MRTQ_API mrtq_status mrtq_tflite_mul_init_micro(double s1, int32_t zp1, double s2, int32_t zp2, double s_out,
                                                int32_t zp_out, int32_t qmin, int32_t qmax, mrtq_dtype type,
                                                mrtq_tflite_mul_params *p);

/* Parameters from the values TFLite's ArithmeticParams holds (output
 * multiplier and shift as m; zero points, not TFLite's negated input
 * offsets; activation bounds; type). Valid ranges: m.mult in [2^30, 2^31 -
 * 1] (TFLite's QuantizeMultiplier), m.shift in [-31, 15] for MRTQ_S8 / MRTQ_U8
 * and [-31, 0] for MRTQ_S16 (no int32 overflow, as mrtq_tflite_mul_init);
 * zero points and bounds in the type, zero points 0 for MRTQ_S16, qmin <=
 * qmax. The same bytes as mrtq_tflite_mul_init where both apply.
 * Errors: p NULL, a value outside its range -> MRTQ_EINVAL; type as
 * mrtq_tflite_mul_init. On error *p is left unchanged. */
MRTQ_API mrtq_status mrtq_tflite_mul_init_mult(mrtq_mult m, int32_t zp1, int32_t zp2, int32_t zp_out, int32_t qmin,
                                               int32_t qmax, mrtq_dtype type, mrtq_tflite_mul_params *p);
/* One element; total as mrtq_tflite_add_one: a and b (and, on a struct no
 * constructor produced, the zero points) are clamped into p->type first (an
 * int16 struct's zero points forced to 0); the result is then defined for
 * any input. */
MRTQ_API int32_t mrtq_tflite_mul_one(const mrtq_tflite_mul_params *p, int32_t a, int32_t b);
/* out = a * b (TFLite MUL), as mrtq_tflite_add; the struct is checked with
 * mrtq_tflite_mul_init_mult's rules (reasons "p->m: ...", "p->zp1: ...",
 * MRTQ_EINVAL; nothing written). */
MRTQ_API mrtq_status mrtq_tflite_mul(const size_t *shape_a, int nda, const size_t *shape_b, int ndb,
                                     const mrtq_tflite_mul_params *p, const void *a, const void *b, void *out);

/* ---- XNNPACK ADD / SUBTRACT (qs8, qu8) ----
 * XNNPACK's own fixed-point scheme (operator creation and scalar/SIMD
 * kernels of the 2022 releases, Debian's libxnnpack):
 *   ra = fl(s1 / s_out), rb = fl(s2 / s_out)  (float divisions), each in
 *        [2^-10, 2^8);
 *   shift = 20 - e, e the binary exponent of max(ra, rb)  (shift in [12, 30]);
 *   ma = rne(ra * 2^shift), mb = rne(rb * 2^shift)  (mb negated for subtract);
 *   acc = (a - zp1) ma + (b - zp2) mb + 2^(shift - 1);
 *   out = clamp(floor(acc / 2^shift), qmin - zp_out, qmax - zp_out) + zp_out
 * i.e. one rounding, ties toward +inf, of the sum scaled by 20-21-bit
 * multipliers. Every intermediate fits int32. Byte-exact with XNNPACK. */
typedef struct mrtq_xnn_add_params {
  int32_t ma, mb, shift, zp1, zp2, zp_out, qmin, qmax;
  mrtq_dtype type; /* MRTQ_S8 (qs8) or MRTQ_U8 (qu8) */
} mrtq_xnn_add_params;

/* subtract: 0 for a + b, else a - b.
 * Errors: p NULL, a scale not finite and positive, or subnormal (XNNPACK
 * refuses those), a zero point or bound outside the type, qmin > qmax ->
 * MRTQ_EINVAL; type another mrtq_dtype than S8 / U8 -> MRTQ_EUNSUPPORTED, outside the enum (0: a
 * zeroed struct) -> MRTQ_EINVAL; a ratio s / s_out
 * outside [2^-10, 2^8) -> MRTQ_ERANGE (XNNPACK: unsupported parameter). On
 * error *p is left unchanged. */
MRTQ_API mrtq_status mrtq_xnn_add_init(float s1, int32_t zp1, float s2, int32_t zp2, float s_out, int32_t zp_out,
                                       int32_t qmin, int32_t qmax, mrtq_dtype type, int subtract,
                                       mrtq_xnn_add_params *p);
MRTQ_API int32_t mrtq_xnn_add_one(const mrtq_xnn_add_params *p, int32_t a, int32_t b);
/* out = a + b (or a - b) in XNNPACK's scheme, with broadcasting; as
 * mrtq_tflite_add. */
MRTQ_API mrtq_status mrtq_xnn_add(const size_t *shape_a, int nda, const size_t *shape_b, int ndb,
                                  const mrtq_xnn_add_params *p, const void *a, const void *b, void *out);

/* ---- TFLite MAXIMUM / MINIMUM ----
 * out = max(a, b) or min(a, b) of the stored values, element by element over
 * the broadcast of shape_a and shape_b (NumPy rules, as mrtq_bcast_init, but
 * a zero dimension is allowed: paired with 0 or 1 it gives an empty output,
 * nothing is written and a, b, out may then be NULL; paired with any other
 * size it is refused). a, b and out are arrays of `type` (MRTQ_S8, MRTQ_U8,
 * MRTQ_S16 or MRTQ_S32; int16 / int32 at any alignment). No arithmetic: the
 * result is always one of the two inputs, so there is no rounding and no
 * saturation. Bit-exact with TFLite's reference_ops::MaximumMinimumBroadcastSlow
 * (tensorflow/lite/kernels/internal/reference/maximum_minimum.h, tflite-micro
 * 90b983c2), which the TF interpreter's maximum_minimum.cc and TFLite Micro's
 * maximum_minimum.cc run for every integer type (the interpreter's int8
 * broadcast fast path selects the same values).
 * Quantization: TFLite's Prepare checks only that both inputs have the same
 * type (it does not compare scales or zero points); a max / min of stored
 * values is the max / min of the real values only when a, b and out share one
 * scale and zero point, which TFLite's converter guarantees and mrtq cannot
 * see (it takes no scales).
 * Errors (nothing written): nda or ndb outside [0, MRTQ_MAX_DIMS], a shape
 * NULL with a rank > 0, a, b or out NULL with a non-empty output ->
 * MRTQ_EINVAL; type MRTQ_S4 -> MRTQ_EUNSUPPORTED (TFLite has no int4
 * MAXIMUM / MINIMUM), outside the enum -> MRTQ_EINVAL; sizes that are
 * neither equal nor 1, an element count overflowing size_t -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_tflite_maximum(const size_t *shape_a, int nda, const size_t *shape_b, int ndb, const void *a,
                                         const void *b, mrtq_dtype type, void *out);
MRTQ_API mrtq_status mrtq_tflite_minimum(const size_t *shape_a, int nda, const size_t *shape_b, int ndb, const void *a,
                                         const void *b, mrtq_dtype type, void *out);

/* ---- MRT operators on expansion tensors ----
 * In MRT's formalization an operator's int32 output (its "expansion", real
 * value (X - zp) * scale) is realized into a narrower integer before the next
 * operator: scaled to a target scale and clipped to a precision. An
 * mrtq_etensor names one input: its int32 values, shape, zero point and the
 * optional rescale. Element value:
 *   d = X - zp (exact; must lie in int32, else MRTQ_EOVERFLOW),
 *   v = rq ? mrtq_rq_apply(rq, d, INT32_MIN, INT32_MAX) : d
 * so v lies in [rq->qmin, rq->qmax] with a rescale, and is the value itself
 * without one. The rescale's scale is s_in / s_common (real steps; MRT's
 * sc_common / sc_in) and any family; mrtq_mrt_realize_init builds MRT's own:
 * zero point 0 and the symmetric clip to prec bits. Every field is read. */
typedef struct mrtq_etensor {
  const int32_t *data;
  const size_t *shape; /* ndim sizes, each >= 1 (may be NULL when ndim is 0) */
  int ndim;            /* [0, MRTQ_MAX_DIMS] */
  int32_t zp;
  const mrtq_rq *rq;   /* NULL: no rescale */
} mrtq_etensor;

/* A rescale by `scale` through `scheme`, zero point 0, clipped to
 * [-(2^(prec-1) - 1), 2^(prec-1) - 1] (MRT's realize into prec bits; with
 * MRTQ_Q31_RNDNU it is MRT's cvm_right_shift of the encoded fraction: ties
 * toward +inf). Errors: rq NULL, prec outside [2, 32] -> MRTQ_EINVAL;
 * otherwise as mrtq_rq_init (its status, passed on). */
MRTQ_API mrtq_status mrtq_mrt_realize_init(mrtq_scheme scheme, double scale, int prec, mrtq_rq *rq);

typedef enum mrtq_mrt_op { MRTQ_MRT_ADD = 0, MRTQ_MRT_SUB = 1, MRTQ_MRT_MUL = 2 } mrtq_mrt_op;

/* MRT's broadcast_add, broadcast_sub and broadcast_mul on expansion tensors
 * (NumPy broadcasting, as mrtq_bcast_init): out = va + vb, va - vb or
 * va * vb, an int32 expansion of scale s_common (add, sub: both inputs
 * rescaled to one scale, see mrtq_merge_scale) or s_a' * s_b' (mul: the
 * product of the inputs' scales after their rescales). The result's range
 * follows from the inputs' ranges (interval arithmetic: the rescales'
 * [qmin, qmax], else the values' own range); a range outside int32 ->
 * MRTQ_EOVERFLOW before anything is written (precision inference:
 * add/sub max(pa, pb) + 1, mul pa + pb bits, must not exceed 32).
 * Errors: a, b or out NULL, op not an mrtq_mrt_op, a->data or b->data NULL,
 * a rank outside [0, MRTQ_MAX_DIMS], a shape NULL with a rank > 0, an
 * a->rq or b->rq that fails the array functions' descriptor checks ->
 * MRTQ_EINVAL; shapes that do not broadcast, a zero dimension or sizes
 * overflowing size_t -> MRTQ_ESHAPE; X - zp outside int32 -> MRTQ_EOVERFLOW. */
MRTQ_API mrtq_status mrtq_mrt_binary(mrtq_mrt_op op, const mrtq_etensor *a, const mrtq_etensor *b, int32_t *out);

/* MRT's lazy merge by broadcast_add: n parts of one shape summed after their
 * rescales to the common scale (mrtq_merge_scale):
 *   out = sum_i v_i  (MRT: Xe = sum_i (sc_xe / sc_xei) Xei)
 * The sum of the parts' ranges (interval arithmetic; at most the precision
 * rule's max p + bitlen(n) bits) must lie in int32, else MRTQ_EOVERFLOW
 * before anything is written. Errors: parts or out NULL, n == 0 or n > 2^31,
 * a part's data NULL, rank outside [0, MRTQ_MAX_DIMS] or shape NULL with a
 * rank > 0, a part's rq that fails the array functions' descriptor checks ->
 * MRTQ_EINVAL; parts of different ranks or shapes, a zero
 * dimension, sizes overflowing size_t -> MRTQ_ESHAPE; X - zp outside int32
 * -> MRTQ_EOVERFLOW. */
MRTQ_API mrtq_status mrtq_mrt_merge_add(const mrtq_etensor *parts, size_t n, int32_t *out);

/* ---- ReLU and clamp on quantized values ----
 * A real clamp [lo, hi] of a tensor with (scale, zp) is a clamp of the stored
 * values to [q(lo), q(hi)]: q(v) = zp + round(fl(v / scale)), fl(v / scale)
 * one float division, the sum exact, saturated to the type. ReLU is lo = 0
 * (q = zp), hi = +inf (the type's maximum); ReLU6 is [0, 6]. Two rounding
 * rules, named after their origin (they differ by one where v / scale is a
 * half-integer in float):
 *   mrtq_clamp_bounds_onnx    ties to even: q = mrtq_quantize_f32 (ONNX
 *                             QuantizeLinear; e.g. ReLU6 at scale 0.48, zp
 *                             -128: 6 / 0.48 = 12.5 -> 12, qhi = -116)
 *   mrtq_clamp_bounds_tflite  ties away from zero (TfLiteRound, std::round),
 *                             as TFLite's CalculateActivationRangeQuantized
 *                             (tensorflow/lite/kernels/kernel_util.cc) rounds
 *                             a fused activation's bounds: 12.5 -> 13, qhi =
 *                             -115; for TFLite's fused activations themselves
 *                             see mrtq_tflite_act_range (mrtq/tflite.h).
 * Both: the stored bounds *qlo, *qhi for any mrtq_dtype; +-inf and quotients
 * beyond the type saturate to the type's range.
 * Errors (MRTQ_EINVAL, nothing written): qlo or qhi NULL, lo or hi NaN,
 * lo > hi, scale not finite and positive, type not an mrtq_dtype, zp outside
 * the type. */
MRTQ_API mrtq_status mrtq_clamp_bounds_onnx(float lo, float hi, float scale, int32_t zp, mrtq_dtype type,
                                            int32_t *qlo, int32_t *qhi);
MRTQ_API mrtq_status mrtq_clamp_bounds_tflite(float lo, float hi, float scale, int32_t zp, mrtq_dtype type,
                                              int32_t *qlo, int32_t *qhi);

/* out[i] = min(max(x[i], qlo), qhi) for n stored values of `type` (in place
 * allowed). Errors: x or out NULL with n > 0, qlo or qhi outside the type,
 * qlo > qhi -> MRTQ_EINVAL; type another mrtq_dtype than S8 / U8 -> MRTQ_EUNSUPPORTED, outside the enum (0: a
 * zeroed struct) -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_clamp_q(const void *x, size_t n, int32_t qlo, int32_t qhi, mrtq_dtype type, void *out);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

/* The broadcast; `et` names the arguments as the MRT operators spell them
 * (a->shape, ...) instead of mrtq_bcast_init's (shape_a, ...). */
#define MRTQ__BWHY(et, code, plain, mrt) ((et) ? MRTQ__ERR(code, mrt) : MRTQ__ERR(code, plain))
MRTQ__PRIV mrtq_status mrtq__bcast(const size_t *shape_a, int nda, const size_t *shape_b, int ndb, mrtq_bcast *bc,
                                   int et) {
  int i, nd;
  size_t ta = 1, tb = 1;
  mrtq_bcast r;
  if (nda < 0 || nda > MRTQ_MAX_DIMS)
    return MRTQ__BWHY(et, MRTQ_EINVAL, "nda: must be in [0, MRTQ_MAX_DIMS]", "a->ndim: must be in [0, MRTQ_MAX_DIMS]");
  if (ndb < 0 || ndb > MRTQ_MAX_DIMS)
    return MRTQ__BWHY(et, MRTQ_EINVAL, "ndb: must be in [0, MRTQ_MAX_DIMS]", "b->ndim: must be in [0, MRTQ_MAX_DIMS]");
  if (nda && !shape_a) return MRTQ__BWHY(et, MRTQ_EINVAL, "shape_a: NULL with nda > 0", "a->shape: NULL with a->ndim > 0");
  if (ndb && !shape_b) return MRTQ__BWHY(et, MRTQ_EINVAL, "shape_b: NULL with ndb > 0", "b->shape: NULL with b->ndim > 0");
  if (!bc) return MRTQ__ERR(MRTQ_EINVAL, "bc: NULL");
  memset(&r, 0, sizeof r);
  nd = nda > ndb ? nda : ndb;
  r.ndim = nd;
  r.n = 1;
  for (i = nd - 1; i >= 0; i--) { /* from the last dimension */
    int ia = i - (nd - nda), ib = i - (nd - ndb);
    size_t a = ia >= 0 ? shape_a[ia] : 1, b = ib >= 0 ? shape_b[ib] : 1, o;
    if (a == 0) return MRTQ__BWHY(et, MRTQ_ESHAPE, "shape_a: a zero dimension", "a->shape: a zero dimension");
    if (b == 0) return MRTQ__BWHY(et, MRTQ_ESHAPE, "shape_b: a zero dimension", "b->shape: a zero dimension");
    if (a != b && a != 1 && b != 1)
      return MRTQ__BWHY(et, MRTQ_ESHAPE, "shape_a, shape_b: sizes differ and neither is 1",
                        "a->shape, b->shape: sizes differ and neither is 1");
    o = a > b ? a : b;
    r.out[i] = o;
    r.sa[i] = a == 1 ? 0 : ta;
    r.sb[i] = b == 1 ? 0 : tb;
    if (ta > SIZE_MAX / a || tb > SIZE_MAX / b || r.n > SIZE_MAX / o)
      return MRTQ__BWHY(et, MRTQ_ESHAPE, "shape_a, shape_b: element count overflows size_t",
                        "a->shape, b->shape: element count overflows size_t");
    ta *= a, tb *= b, r.n *= o;
  }
  *bc = r;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_bcast_init(const size_t *shape_a, int nda, const size_t *shape_b, int ndb, mrtq_bcast *bc) {
  return mrtq__bcast(shape_a, nda, shape_b, ndb, bc, 0);
}

/* Element offsets of a and b for output element `at` (row-major). */
MRTQ__PRIV void mrtq__bcast_at(const mrtq_bcast *bc, size_t at, size_t *ia, size_t *ib) {
  int i;
  *ia = 0, *ib = 0;
  for (i = bc->ndim - 1; i >= 0; i--) {
    size_t k = at % bc->out[i];
    at /= bc->out[i];
    *ia += k * bc->sa[i], *ib += k * bc->sb[i];
  }
}

/* The arguments every binary operator's init checks: an 8-bit type (or
 * int16 with `wide`), three finite positive scales, zero points and bounds
 * within the type, qmin <= qmax. */
MRTQ__PRIV mrtq_status mrtq__binary_args(double s1, int32_t zp1, double s2, int32_t zp2, double s_out, int32_t zp_out,
                                         int32_t qmin, int32_t qmax, mrtq_dtype type, int wide) {
  {
    mrtq_status tst = wide ? MRTQ__Q816_TYPE(type, "type") : MRTQ__Q8_TYPE(type, "type");
    if (tst != MRTQ_OK) return tst;
  }
  if (mrtq__nonfinite(s1) || !(s1 > 0)) return MRTQ__ERR(MRTQ_EINVAL, "s1: must be finite and > 0");
  if (mrtq__nonfinite(s2) || !(s2 > 0)) return MRTQ__ERR(MRTQ_EINVAL, "s2: must be finite and > 0");
  if (mrtq__nonfinite(s_out) || !(s_out > 0)) return MRTQ__ERR(MRTQ_EINVAL, "s_out: must be finite and > 0");
  if (!mrtq__in_type(zp1, type)) return MRTQ__ERR(MRTQ_EINVAL, "zp1: outside type");
  if (!mrtq__in_type(zp2, type)) return MRTQ__ERR(MRTQ_EINVAL, "zp2: outside type");
  if (!mrtq__in_type(zp_out, type)) return MRTQ__ERR(MRTQ_EINVAL, "zp_out: outside type");
  if (!mrtq__in_type(qmin, type)) return MRTQ__ERR(MRTQ_EINVAL, "qmin: outside type");
  if (!mrtq__in_type(qmax, type)) return MRTQ__ERR(MRTQ_EINVAL, "qmax: outside type");
  if (qmin > qmax) return MRTQ__ERR(MRTQ_EINVAL, "qmin, qmax: qmin > qmax");
  return MRTQ_OK;
}

/* A reason naming an argument (pre 0: "zp1: ...") or the field of the
 * params struct an array function checks (pre 1: "p->zp1: ..."). */
#define MRTQ__PWHY(pre, code, s) ((pre) ? MRTQ__ERR(code, "p->" s) : MRTQ__ERR(code, s))

/* TFLite's int16 ADD and MUL are symmetric: every zero point 0. */
MRTQ__PRIV mrtq_status mrtq__zp16(int32_t zp1, int32_t zp2, int32_t zp_out, mrtq_dtype type, int pre) {
  if (type != MRTQ_S16) return MRTQ_OK;
  if (zp1 != 0) return MRTQ__PWHY(pre, MRTQ_EINVAL, "zp1: must be 0 for MRTQ_S16 (TFLite's int16 ADD / MUL are symmetric)");
  if (zp2 != 0) return MRTQ__PWHY(pre, MRTQ_EINVAL, "zp2: must be 0 for MRTQ_S16 (TFLite's int16 ADD / MUL are symmetric)");
  if (zp_out != 0)
    return MRTQ__PWHY(pre, MRTQ_EINVAL, "zp_out: must be 0 for MRTQ_S16 (TFLite's int16 ADD / MUL are symmetric)");
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_add_init(double s1, int32_t zp1, double s2, int32_t zp2, double s_out, int32_t zp_out,
                                          int32_t qmin, int32_t qmax, mrtq_dtype type, mrtq_tflite_add_params *p) {
  double t, r1, r2, ro;
  mrtq_tflite_add_params r;
  mrtq_status st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if ((st = mrtq__binary_args(s1, zp1, s2, zp2, s_out, zp_out, qmin, qmax, type, 1)) != MRTQ_OK) return st;
  if ((st = mrtq__zp16(zp1, zp2, zp_out, type, 0)) != MRTQ_OK) return st;
  memset(&r, 0, sizeof r);
  r.left_shift = type == MRTQ_S16 ? 15 : 20;
  t = 2 * (s1 > s2 ? s1 : s2);
  r1 = s1 / t, r2 = s2 / t, ro = t / ((double)(1 << r.left_shift) * s_out);
  if (!(ro < 1.0))
    return type == MRTQ_S16
               ? MRTQ__ERR(MRTQ_ERANGE, "s_out: the output multiplier 2 max(s1, s2) / (2^15 s_out) must be < 1")
               : MRTQ__ERR(MRTQ_ERANGE, "s_out: the output multiplier 2 max(s1, s2) / (2^20 s_out) must be < 1");
  mrtq_mult_q31(r1, &r.m1);
  mrtq_mult_q31(r2, &r.m2);
  mrtq_mult_q31(ro, &r.mo);
  if (r.m1.mult == 0 || r.m2.mult == 0) return MRTQ__ERR(MRTQ_ERANGE, "s1, s2: s / (2 max(s1, s2)) flushes to 0 in Q31");
  if (r.mo.mult == 0) return MRTQ__ERR(MRTQ_ERANGE, "s_out: the output multiplier flushes to 0 in Q31");
  if (r.mo.shift > 0) /* within 2^-32 of 1: Q31 rounds it to 1.0 = {2^30, 1} (found by fuzz_eltwise) */
    return MRTQ__ERR(MRTQ_ERANGE, "s_out: the output multiplier rounds to 1 in Q31 (shift 1; TFLite requires shift <= 0)");
  r.zp1 = zp1, r.zp2 = zp2, r.zp_out = zp_out, r.qmin = qmin, r.qmax = qmax, r.type = type;
  *p = r;
  return MRTQ_OK;
}

/* One Q31 multiplier as TFLite's ArithmeticParams holds it for ADD / MUL:
 * mult in [2^30, 2^31 - 1], shift in [-31, max_shift]. `which` names it in
 * the reason: 0 m1, 1 m2, 2 mo, 3 m (MUL, 8-bit), 4 m (MUL, int16); pre as
 * MRTQ__PWHY. */
MRTQ__PRIV mrtq_status mrtq__tfl_mult(mrtq_mult m, int which, int pre) {
  int max_shift = which == 3 ? 15 : 0;
  if (m.mult < (1 << 30)) {
    switch (which) {
      case 0: return MRTQ__PWHY(pre, MRTQ_EINVAL, "m1: mult must be in [2^30, 2^31 - 1] (TFLite's QuantizeMultiplier)");
      case 1: return MRTQ__PWHY(pre, MRTQ_EINVAL, "m2: mult must be in [2^30, 2^31 - 1] (TFLite's QuantizeMultiplier)");
      case 2: return MRTQ__PWHY(pre, MRTQ_EINVAL, "mo: mult must be in [2^30, 2^31 - 1] (TFLite's QuantizeMultiplier)");
      default: return MRTQ__PWHY(pre, MRTQ_EINVAL, "m: mult must be in [2^30, 2^31 - 1] (TFLite's QuantizeMultiplier)");
    }
  }
  if (m.shift < -31 || m.shift > max_shift) {
    switch (which) {
      case 0: return MRTQ__PWHY(pre, MRTQ_EINVAL, "m1: shift must be in [-31, 0] (a multiplier below 1)");
      case 1: return MRTQ__PWHY(pre, MRTQ_EINVAL, "m2: shift must be in [-31, 0] (a multiplier below 1)");
      case 2: return MRTQ__PWHY(pre, MRTQ_EINVAL, "mo: shift must be in [-31, 0] (a multiplier below 1)");
      case 3:
        return MRTQ__PWHY(pre, MRTQ_EINVAL, "m: shift must be in [-31, 15] for MRTQ_S8 / MRTQ_U8 (the left shift must not overflow int32)");
      default:
        return MRTQ__PWHY(pre, MRTQ_EINVAL, "m: shift must be in [-31, 0] for MRTQ_S16 (the left shift must not overflow int32)");
    }
  }
  return MRTQ_OK;
}

/* Type, zero points and bounds in the type, qmin <= qmax, int16 zero points
 * 0 (the constructors from precomputed values, and the array functions'
 * check of the struct; pre as MRTQ__PWHY). */
MRTQ__PRIV mrtq_status mrtq__tfl_zps(int32_t zp1, int32_t zp2, int32_t zp_out, int32_t qmin, int32_t qmax,
                                     mrtq_dtype type, int pre) {
  mrtq_status st = pre ? MRTQ__Q816_TYPE(type, "p->type") : MRTQ__Q816_TYPE(type, "type");
  if (st != MRTQ_OK) return st;
  if (!mrtq__in_type(zp1, type)) return MRTQ__PWHY(pre, MRTQ_EINVAL, "zp1: outside type");
  if (!mrtq__in_type(zp2, type)) return MRTQ__PWHY(pre, MRTQ_EINVAL, "zp2: outside type");
  if (!mrtq__in_type(zp_out, type)) return MRTQ__PWHY(pre, MRTQ_EINVAL, "zp_out: outside type");
  if (!mrtq__in_type(qmin, type)) return MRTQ__PWHY(pre, MRTQ_EINVAL, "qmin: outside type");
  if (!mrtq__in_type(qmax, type)) return MRTQ__PWHY(pre, MRTQ_EINVAL, "qmax: outside type");
  if (qmin > qmax) return MRTQ__PWHY(pre, MRTQ_EINVAL, "qmin, qmax: qmin > qmax");
  return mrtq__zp16(zp1, zp2, zp_out, type, pre);
}

/* ADD's left shift: [0, 15] for MRTQ_S16, [0, 22] for 8-bit (type valid). */
MRTQ__PRIV mrtq_status mrtq__tfl_lshift(int left_shift, mrtq_dtype type, int pre) {
  if (type == MRTQ_S16 && (left_shift < 0 || left_shift > 15))
    return MRTQ__PWHY(pre, MRTQ_EINVAL, "left_shift: must be in [0, 15] for MRTQ_S16 (TFLite uses 15)");
  if (left_shift < 0 || left_shift > 22)
    return MRTQ__PWHY(pre, MRTQ_EINVAL, "left_shift: must be in [0, 22] for MRTQ_S8 / MRTQ_U8 (TFLite uses 20)");
  return MRTQ_OK;
}

/* The array functions' check of an ADD struct: the rules its constructors
 * enforce, reasons naming the field. */
MRTQ__PRIV mrtq_status mrtq__tfl_add_check(const mrtq_tflite_add_params *p) {
  mrtq_status st = mrtq__tfl_zps(p->zp1, p->zp2, p->zp_out, p->qmin, p->qmax, p->type, 1);
  if (st != MRTQ_OK) return st;
  if (p->pot != 0 && p->pot != 1) return MRTQ__ERR(MRTQ_EINVAL, "p->pot: must be 0 or 1");
  if (p->pot) {
    if (p->type != MRTQ_S16) return MRTQ__ERR(MRTQ_EINVAL, "p->pot: 1 requires p->type MRTQ_S16");
    if (p->m1.mult != 0 || p->m2.mult != 0 || p->mo.mult != 0 || p->mo.shift != 0 || p->left_shift != 0)
      return MRTQ__ERR(MRTQ_EINVAL, "p->pot: 1 requires m1.mult, m2.mult, mo and left_shift 0 (as mrtq_tflite_add16_pot_init)");
    if (p->m1.shift < -15 || p->m1.shift > 0) return MRTQ__ERR(MRTQ_EINVAL, "p->m1: shift must be in [-15, 0] when pot = 1");
    if (p->m2.shift < -15 || p->m2.shift > 0) return MRTQ__ERR(MRTQ_EINVAL, "p->m2: shift must be in [-15, 0] when pot = 1");
    if (p->m1.shift != 0 && p->m2.shift != 0)
      return MRTQ__ERR(MRTQ_EINVAL, "p->m1, p->m2: one shift must be 0 when pot = 1 (TFLite shifts one input)");
    return MRTQ_OK;
  }
  if ((st = mrtq__tfl_mult(p->m1, 0, 1)) != MRTQ_OK) return st;
  if ((st = mrtq__tfl_mult(p->m2, 1, 1)) != MRTQ_OK) return st;
  if ((st = mrtq__tfl_mult(p->mo, 2, 1)) != MRTQ_OK) return st;
  return mrtq__tfl_lshift(p->left_shift, p->type, 1);
}

/* The same for a MUL struct. */
MRTQ__PRIV mrtq_status mrtq__tfl_mul_check(const mrtq_tflite_mul_params *p) {
  mrtq_status st = mrtq__tfl_zps(p->zp1, p->zp2, p->zp_out, p->qmin, p->qmax, p->type, 1);
  if (st != MRTQ_OK) return st;
  return mrtq__tfl_mult(p->m, p->type == MRTQ_S16 ? 4 : 3, 1);
}

/* The range of stored values the per-element functions clamp inputs into:
 * the type's, int16's for a type that is not S8 / U8 (a corrupted struct). */
MRTQ__PRIV void mrtq__tfl_range(mrtq_dtype type, int32_t *lo, int32_t *hi) {
  *lo = type == MRTQ_U8 ? 0 : type == MRTQ_S8 ? -128 : -32768;
  *hi = type == MRTQ_U8 ? 255 : type == MRTQ_S8 ? 127 : 32767;
}
MRTQ__PRIV int32_t mrtq__clampi(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : v > hi ? hi : v; }

MRTQ_API mrtq_status mrtq_tflite_add_init_mult(mrtq_mult m1, mrtq_mult m2, mrtq_mult mo, int left_shift, int32_t zp1,
                                               int32_t zp2, int32_t zp_out, int32_t qmin, int32_t qmax, mrtq_dtype type,
                                               mrtq_tflite_add_params *p) {
  mrtq_tflite_add_params r;
  mrtq_status st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if ((st = mrtq__tfl_zps(zp1, zp2, zp_out, qmin, qmax, type, 0)) != MRTQ_OK) return st;
  if ((st = mrtq__tfl_mult(m1, 0, 0)) != MRTQ_OK) return st;
  if ((st = mrtq__tfl_mult(m2, 1, 0)) != MRTQ_OK) return st;
  if ((st = mrtq__tfl_mult(mo, 2, 0)) != MRTQ_OK) return st;
  if ((st = mrtq__tfl_lshift(left_shift, type, 0)) != MRTQ_OK) return st;
  memset(&r, 0, sizeof r);
  r.m1 = m1, r.m2 = m2, r.mo = mo, r.left_shift = left_shift;
  r.zp1 = zp1, r.zp2 = zp2, r.zp_out = zp_out, r.qmin = qmin, r.qmax = qmax, r.type = type;
  *p = r;
  return MRTQ_OK;
}

/* TFLite's CheckedLog2, decided exactly: s = q 2^e (q in [0.5, 1)) is 2^k
 * when |log2 s - k| < 1e-3, k = round(log2 s): k = e when q > 2^-0.001, k =
 * e - 1 when q < 2^0.001 / 2 (the two constants rounded to double). */
MRTQ__PRIV int mrtq__pot_log2(double s, int *k) {
  int e;
  double q = mrtq__frexp(s, &e);
  if (q > 0.9993070929904525) return *k = e, 1;
  if (q < 0.5003466937312904) return *k = e - 1, 1;
  return 0;
}

MRTQ_API mrtq_status mrtq_tflite_add16_pot_init(double s1, double s2, double s_out, int32_t qmin, int32_t qmax,
                                                mrtq_tflite_add_params *p) {
  mrtq_tflite_add_params r;
  int k1, k2, ko, e1, e2;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (mrtq__nonfinite(s1) || !(s1 > 0)) return MRTQ__ERR(MRTQ_EINVAL, "s1: must be finite and > 0");
  if (mrtq__nonfinite(s2) || !(s2 > 0)) return MRTQ__ERR(MRTQ_EINVAL, "s2: must be finite and > 0");
  if (mrtq__nonfinite(s_out) || !(s_out > 0)) return MRTQ__ERR(MRTQ_EINVAL, "s_out: must be finite and > 0");
  if (!mrtq__in_type(qmin, MRTQ_S16)) return MRTQ__ERR(MRTQ_EINVAL, "qmin: outside int16");
  if (!mrtq__in_type(qmax, MRTQ_S16)) return MRTQ__ERR(MRTQ_EINVAL, "qmax: outside int16");
  if (qmin > qmax) return MRTQ__ERR(MRTQ_EINVAL, "qmin, qmax: qmin > qmax");
  if (!mrtq__pot_log2(s1, &k1)) return MRTQ__ERR(MRTQ_ERANGE, "s1: not a power of two (TFLite's CheckedLog2)");
  if (!mrtq__pot_log2(s2, &k2)) return MRTQ__ERR(MRTQ_ERANGE, "s2: not a power of two (TFLite's CheckedLog2)");
  if (!mrtq__pot_log2(s_out, &ko)) return MRTQ__ERR(MRTQ_ERANGE, "s_out: not a power of two (TFLite's CheckedLog2)");
  e1 = k1 - ko, e2 = k2 - ko; /* |k| <= 1075: no overflow */
  if (e1 != 0 && e2 != 0) return MRTQ__ERR(MRTQ_ERANGE, "s1, s2: one of them must equal s_out (TFLite shifts one input)");
  if (e1 > 0 || e2 > 0) return MRTQ__ERR(MRTQ_ERANGE, "s1, s2: an input scale above s_out (TFLite's shifts must be <= 0)");
  if (e1 < -15 || e2 < -15)
    return MRTQ__ERR(MRTQ_ERANGE, "s1, s2: an input scale below s_out / 2^15 (int16 rounding shift beyond 15)");
  memset(&r, 0, sizeof r);
  r.m1.shift = e1, r.m2.shift = e2, r.qmin = qmin, r.qmax = qmax, r.type = MRTQ_S16, r.pot = 1;
  *p = r;
  return MRTQ_OK;
}

/* One element on a valid struct (every field in its constructors' range)
 * and a, b in p->type. */
MRTQ__PRIV int32_t mrtq__tfl_add_el(const mrtq_tflite_add_params *p, int32_t a, int32_t b) {
  int32_t v1, v2, sum;
  if (p->pot) { /* e in [0, 15]: the rounded quotients fit int16, their sum int32 */
    int32_t y = mrtq_rdivpot(a, -p->m1.shift) + mrtq_rdivpot(b, -p->m2.shift);
    return mrtq__clamp64(y < -32768 ? -32768 : y > 32767 ? 32767 : y, p->qmin, p->qmax);
  }
  /* |a - zp| <= 255 and L <= 22, or |a| <= 2^15 and L <= 15: |v| <= 2^30 */
  v1 = (a - p->zp1) * (1 << p->left_shift), v2 = (b - p->zp2) * (1 << p->left_shift);
  sum = mrtq_mul_q31_dbl(v1, p->m1) + mrtq_mul_q31_dbl(v2, p->m2); /* each |.| <= |v| (multipliers < 1) */
  return mrtq__clamp64((int64_t)mrtq_mul_q31_dbl(sum, p->mo) + p->zp_out, p->qmin, p->qmax);
}

MRTQ_API int32_t mrtq_tflite_add_one(const mrtq_tflite_add_params *p, int32_t a, int32_t b) {
  mrtq_tflite_add_params q = *p; /* every field forced into its range: no UB from any struct */
  int32_t lo, hi, wide;
  mrtq__tfl_range(q.type, &lo, &hi);
  wide = q.type != MRTQ_S8 && q.type != MRTQ_U8;
  a = mrtq__clampi(a, lo, hi), b = mrtq__clampi(b, lo, hi);
  if (q.pot) {
    q.m1.shift = mrtq__clampi(q.m1.shift, -15, 0), q.m2.shift = mrtq__clampi(q.m2.shift, -15, 0);
    return mrtq__tfl_add_el(&q, a, b);
  }
  q.zp1 = wide ? 0 : mrtq__clampi(q.zp1, lo, hi), q.zp2 = wide ? 0 : mrtq__clampi(q.zp2, lo, hi);
  q.left_shift = q.left_shift < 0 ? 0 : q.left_shift > (wide ? 15 : 22) ? (wide ? 15 : 22) : q.left_shift;
  q.m1.mult = mrtq__clampi(q.m1.mult, 1 << 30, INT32_MAX), q.m1.shift = mrtq__clampi(q.m1.shift, -31, 0);
  q.m2.mult = mrtq__clampi(q.m2.mult, 1 << 30, INT32_MAX), q.m2.shift = mrtq__clampi(q.m2.shift, -31, 0);
  q.mo.mult = mrtq__clampi(q.mo.mult, 1 << 30, INT32_MAX), q.mo.shift = mrtq__clampi(q.mo.shift, -31, 0);
  return mrtq__tfl_add_el(&q, a, b);
}

/* A scale as TFLite stores it: rounded to float (nearest, ties to even).
 * `which` names it: 0 s1, 1 s2, 2 s_out. Refused when it does not round to
 * a positive finite float (the check precedes the conversion: no UB). */
MRTQ__PRIV mrtq_status mrtq__f32_scale(double s, int which, float *f) {
  /* s is finite and > 0 (mrtq__binary_args); 3.4028234663852886e+38 is FLT_MAX (a
   * value above it may be UB to convert) */
  if (s > 3.4028234663852886e+38 || (float)s == 0.0f) {
    switch (which) {
      case 0: return MRTQ__ERR(MRTQ_ERANGE, "s1: must round to a positive finite float (TFLite stores float scales)");
      case 1: return MRTQ__ERR(MRTQ_ERANGE, "s2: must round to a positive finite float (TFLite stores float scales)");
      default: return MRTQ__ERR(MRTQ_ERANGE, "s_out: must round to a positive finite float (TFLite stores float scales)");
    }
  }
  *f = (float)s;
  return MRTQ_OK;
}

/* Both MUL constructors from scales; micro 0: the TF interpreter's
 * fl(fl(f1 f2) / f3), 1: TFLite Micro's f1 f2 / f3 in double. */
MRTQ__PRIV mrtq_status mrtq__tfl_mul_init(double s1, int32_t zp1, double s2, int32_t zp2, double s_out, int32_t zp_out,
                                          int32_t qmin, int32_t qmax, mrtq_dtype type, int micro,
                                          mrtq_tflite_mul_params *p) {
  mrtq_tflite_mul_params r;
  mrtq_status st;
  float f1 = 0, f2 = 0, f3 = 0;
  double real;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if ((st = mrtq__binary_args(s1, zp1, s2, zp2, s_out, zp_out, qmin, qmax, type, 1)) != MRTQ_OK) return st;
  if ((st = mrtq__zp16(zp1, zp2, zp_out, type, 0)) != MRTQ_OK) return st;
  if ((st = mrtq__f32_scale(s1, 0, &f1)) != MRTQ_OK) return st;
  if ((st = mrtq__f32_scale(s2, 1, &f2)) != MRTQ_OK) return st;
  if ((st = mrtq__f32_scale(s_out, 2, &f3)) != MRTQ_OK) return st;
  memset(&r, 0, sizeof r);
  if (micro) {
    real = (double)f1 * (double)f2 / (double)f3; /* |.| < 2^405: finite */
  } else {
    /* float arithmetic without relying on FLT_EVAL_METHOD: the product of
     * two floats is exact in double, so one conversion rounds it once; the
     * double quotient rounded to float is the correctly rounded float
     * quotient (53 >= 2 * 24 + 2). Each is checked against float's
     * overflow threshold before the conversion. */
    double prod = (double)f1 * (double)f2, quot;
    float fp, fq;
    if (prod > 3.4028234663852886e+38)
      return MRTQ__ERR(MRTQ_ERANGE, "s1, s2, s_out: s1 * s2 or s1 * s2 / s_out overflows float (TFLite's mul.cc computes in float)");
    fp = (float)prod;
    quot = (double)fp / (double)f3;
    if (quot > 3.4028234663852886e+38)
      return MRTQ__ERR(MRTQ_ERANGE, "s1, s2, s_out: s1 * s2 or s1 * s2 / s_out overflows float (TFLite's mul.cc computes in float)");
    fq = (float)quot;
    real = fq;
  }
  (void)mrtq_mult_q31(real, &r.m); /* a finite positive (or 0) scale: cannot fail */
  if (r.m.mult == 0) return MRTQ__ERR(MRTQ_ERANGE, "s1, s2, s_out: s1 * s2 / s_out flushes to 0 in Q31");
  if (r.m.shift > 15)
    return MRTQ__ERR(MRTQ_ERANGE, "s1, s2, s_out: s1 * s2 / s_out must be < 2^15 (TFLite's left shift)");
  if (type == MRTQ_S16 && r.m.shift > 0)
    return MRTQ__ERR(MRTQ_ERANGE, "s1, s2, s_out: s1 * s2 / s_out must encode with shift <= 0 for MRTQ_S16 (TFLite's left shift of a * b would overflow int32)");
  r.zp1 = zp1, r.zp2 = zp2, r.zp_out = zp_out, r.qmin = qmin, r.qmax = qmax, r.type = type;
  *p = r;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_mul_init(double s1, int32_t zp1, double s2, int32_t zp2, double s_out, int32_t zp_out,
                                          int32_t qmin, int32_t qmax, mrtq_dtype type, mrtq_tflite_mul_params *p) {
  return mrtq__tfl_mul_init(s1, zp1, s2, zp2, s_out, zp_out, qmin, qmax, type, 0, p);
}

MRTQ_API mrtq_status mrtq_tflite_mul_init_micro(double s1, int32_t zp1, double s2, int32_t zp2, double s_out,
                                                int32_t zp_out, int32_t qmin, int32_t qmax, mrtq_dtype type,
                                                mrtq_tflite_mul_params *p) {
  return mrtq__tfl_mul_init(s1, zp1, s2, zp2, s_out, zp_out, qmin, qmax, type, 1, p);
}

MRTQ_API mrtq_status mrtq_tflite_mul_init_mult(mrtq_mult m, int32_t zp1, int32_t zp2, int32_t zp_out, int32_t qmin,
                                               int32_t qmax, mrtq_dtype type, mrtq_tflite_mul_params *p) {
  mrtq_tflite_mul_params r;
  mrtq_status st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if ((st = mrtq__tfl_zps(zp1, zp2, zp_out, qmin, qmax, type, 0)) != MRTQ_OK) return st;
  if ((st = mrtq__tfl_mult(m, type == MRTQ_S16 ? 4 : 3, 0)) != MRTQ_OK) return st;
  memset(&r, 0, sizeof r);
  r.m = m, r.zp1 = zp1, r.zp2 = zp2, r.zp_out = zp_out, r.qmin = qmin, r.qmax = qmax, r.type = type;
  *p = r;
  return MRTQ_OK;
}

/* One element on a valid struct, a and b in p->type: |(a - zp1)(b - zp2)|
 * <= 255^2 (8-bit) or 2^30 (int16, zero points 0). */
MRTQ__PRIV int32_t mrtq__tfl_mul_el(const mrtq_tflite_mul_params *p, int32_t a, int32_t b) {
  return mrtq__clamp64((int64_t)mrtq_mul_q31_dbl((a - p->zp1) * (b - p->zp2), p->m) + p->zp_out, p->qmin, p->qmax);
}

MRTQ_API int32_t mrtq_tflite_mul_one(const mrtq_tflite_mul_params *p, int32_t a, int32_t b) {
  mrtq_tflite_mul_params q = *p; /* mrtq_mul_q31_dbl is total: only the product's factors need forcing */
  int32_t lo, hi, wide;
  mrtq__tfl_range(q.type, &lo, &hi);
  wide = q.type != MRTQ_S8 && q.type != MRTQ_U8;
  a = mrtq__clampi(a, lo, hi), b = mrtq__clampi(b, lo, hi);
  q.zp1 = wide ? 0 : mrtq__clampi(q.zp1, lo, hi), q.zp2 = wide ? 0 : mrtq__clampi(q.zp2, lo, hi);
  return mrtq__tfl_mul_el(&q, a, b);
}

MRTQ_API mrtq_status mrtq_xnn_add_init(float s1, int32_t zp1, float s2, int32_t zp2, float s_out, int32_t zp_out,
                                       int32_t qmin, int32_t qmax, mrtq_dtype type, int subtract,
                                       mrtq_xnn_add_params *p) {
  float ra, rb, mx;
  uint32_t bits;
  mrtq_xnn_add_params r;
  mrtq_status st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if ((st = mrtq__binary_args(s1, zp1, s2, zp2, s_out, zp_out, qmin, qmax, type, 0)) != MRTQ_OK) return st;
  if (!(s1 >= 1.17549435e-38f)) return MRTQ__ERR(MRTQ_EINVAL, "s1: subnormal (XNNPACK refuses it)");
  if (!(s2 >= 1.17549435e-38f)) return MRTQ__ERR(MRTQ_EINVAL, "s2: subnormal (XNNPACK refuses it)");
  if (!(s_out >= 1.17549435e-38f)) return MRTQ__ERR(MRTQ_EINVAL, "s_out: subnormal (XNNPACK refuses it)");
  memset(&r, 0, sizeof r);
  /* a float quotient: the double quotient rounded to float is the correctly
   * rounded float quotient (53 >= 2 * 24 + 2) */
  ra = (float)((double)s1 / (double)s_out), rb = (float)((double)s2 / (double)s_out);
  if (!(ra >= 0.0009765625f && ra < 256.0f)) return MRTQ__ERR(MRTQ_ERANGE, "s1, s_out: s1 / s_out must be in [2^-10, 2^8)");
  if (!(rb >= 0.0009765625f && rb < 256.0f)) return MRTQ__ERR(MRTQ_ERANGE, "s2, s_out: s2 / s_out must be in [2^-10, 2^8)");
  mx = ra > rb ? ra : rb;
  memcpy(&bits, &mx, sizeof bits);
  r.shift = 20 - ((int32_t)(bits >> 23) - 127); /* mx is normal: its biased exponent */
  /* exact products (a power of two, no overflow), then round half to even */
  r.ma = (int32_t)mrtq__rne_f32(ra * (float)((int32_t)1 << r.shift));
  r.mb = (int32_t)mrtq__rne_f32(rb * (float)((int32_t)1 << r.shift));
  if (subtract) r.mb = -r.mb;
  r.zp1 = zp1, r.zp2 = zp2, r.zp_out = zp_out, r.qmin = qmin, r.qmax = qmax, r.type = type;
  *p = r;
  return MRTQ_OK;
}

MRTQ_API int32_t mrtq_xnn_add_one(const mrtq_xnn_add_params *p, int32_t a, int32_t b) {
  int32_t half = p->shift > 0 && p->shift < 31 ? (int32_t)1 << (p->shift - 1) : 0; /* (zeroed params: no UB) */
  int32_t acc = (a - p->zp1) * p->ma + (b - p->zp2) * p->mb + half; /* |.| < 2^31 */
  int32_t v = mrtq__asr32(acc, p->shift);
  return v < p->qmin - p->zp_out ? p->qmin : v > p->qmax - p->zp_out ? p->qmax : v + p->zp_out;
}

/* Broadcast loops over arrays of `type` (int8, uint8, or int16 for TFLite's
 * ADD / MUL: op 0, 1; XNNPACK's, op 2, is 8-bit only). */
MRTQ__PRIV mrtq_status mrtq__eltwise(int op, const void *prm, mrtq_dtype type, const void *a, const size_t *shape_a,
                                     int nda, const void *b, const size_t *shape_b, int ndb, void *out) {
  mrtq_bcast bc;
  mrtq_status st = mrtq_bcast_init(shape_a, nda, shape_b, ndb, &bc);
  size_t i;
  if (st != MRTQ_OK) return st;
  if (!prm) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  {
    mrtq_status tst = op == 2   ? MRTQ__Q8_TYPE(type, "p->type")
                      : op == 1 ? mrtq__tfl_mul_check((const mrtq_tflite_mul_params *)prm)
                                : mrtq__tfl_add_check((const mrtq_tflite_add_params *)prm);
    if (tst != MRTQ_OK) return tst;
  }
  if (!a) return MRTQ__ERR(MRTQ_EINVAL, "a: NULL");
  if (!b) return MRTQ__ERR(MRTQ_EINVAL, "b: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  for (i = 0; i < bc.n; i++) {
    size_t ia, ib;
    int32_t x, y, r;
    mrtq__bcast_at(&bc, i, &ia, &ib);
    x = mrtq__load(a, ia, type), y = mrtq__load(b, ib, type);
    r = op == 2   ? mrtq_xnn_add_one((const mrtq_xnn_add_params *)prm, x, y)
        : op == 1 ? mrtq__tfl_mul_el((const mrtq_tflite_mul_params *)prm, x, y)
                  : mrtq__tfl_add_el((const mrtq_tflite_add_params *)prm, x, y);
    mrtq__store(out, i, type, r);
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_add(const size_t *shape_a, int nda, const size_t *shape_b, int ndb,
                                     const mrtq_tflite_add_params *p, const void *a, const void *b, void *out) {
  return mrtq__eltwise(0, p, p ? p->type : MRTQ_S8, a, shape_a, nda, b, shape_b, ndb, out);
}

MRTQ_API mrtq_status mrtq_tflite_mul(const size_t *shape_a, int nda, const size_t *shape_b, int ndb,
                                     const mrtq_tflite_mul_params *p, const void *a, const void *b, void *out) {
  return mrtq__eltwise(1, p, p ? p->type : MRTQ_S8, a, shape_a, nda, b, shape_b, ndb, out);
}

MRTQ_API mrtq_status mrtq_xnn_add(const size_t *shape_a, int nda, const size_t *shape_b, int ndb,
                                  const mrtq_xnn_add_params *p, const void *a, const void *b, void *out) {
  return mrtq__eltwise(2, p, p ? p->type : MRTQ_S8, a, shape_a, nda, b, shape_b, ndb, out);
}

MRTQ_API mrtq_status mrtq_mrt_realize_init(mrtq_scheme scheme, double scale, int prec, mrtq_rq *rq) {
  int32_t lim;
  if (!rq) return MRTQ__ERR(MRTQ_EINVAL, "rq: NULL");
  if (prec < 2 || prec > 32) return MRTQ__ERR(MRTQ_EINVAL, "prec: must be in [2, 32]");
  lim = (int32_t)(((int64_t)1 << (prec - 1)) - 1);
  return mrtq_rq_init(scheme, scale, 0, -lim, lim, rq);
}

MRTQ__PRIV int32_t mrtq__ev(const mrtq_etensor *t, size_t at) {
  int32_t d = (int32_t)((int64_t)t->data[at] - t->zp); /* in range: checked by mrtq__ebounds */
  return t->rq ? mrtq_rq_apply(t->rq, d, INT32_MIN, INT32_MAX) : d;
}

/* The reason, naming the tensor as the caller spells it: who 0 "a->", 1
 * "b->", 2 "parts[k]." (each a string literal, for MRTQ_ON_ERROR). */
#define MRTQ__EWHY(who, code, s) \
  ((who) == 0 ? MRTQ__ERR(code, "a->" s) : (who) == 1 ? MRTQ__ERR(code, "b->" s) : MRTQ__ERR(code, "parts[k]." s))

/* The element count of t (shape checked) and the range [lo, hi] of its
 * values v. */
MRTQ__PRIV mrtq_status mrtq__ebounds(const mrtq_etensor *t, int who, size_t *count, int64_t *lo, int64_t *hi) {
  size_t n = 1, i;
  int d;
  if (!t->data) return MRTQ__EWHY(who, MRTQ_EINVAL, "data: NULL");
  if (t->ndim < 0 || t->ndim > MRTQ_MAX_DIMS) return MRTQ__EWHY(who, MRTQ_EINVAL, "ndim: must be in [0, MRTQ_MAX_DIMS]");
  if (t->ndim && !t->shape) return MRTQ__EWHY(who, MRTQ_EINVAL, "shape: NULL with ndim > 0");
  if (t->rq) {
    mrtq_status st = mrtq__rq_check(t->rq, who == 0 ? 3 : who == 1 ? 4 : 5);
    if (st != MRTQ_OK) return st;
  }
  for (d = 0; d < t->ndim; d++) {
    if (t->shape[d] == 0) return MRTQ__EWHY(who, MRTQ_ESHAPE, "shape: a zero dimension");
    if (n > SIZE_MAX / t->shape[d]) return MRTQ__EWHY(who, MRTQ_ESHAPE, "shape: element count overflows size_t");
    n *= t->shape[d];
  }
  *count = n;
  *lo = INT32_MAX, *hi = INT32_MIN;
  for (i = 0; i < n; i++) {
    int64_t v = (int64_t)t->data[i] - t->zp;
    if (v < INT32_MIN || v > INT32_MAX) return MRTQ__EWHY(who, MRTQ_EOVERFLOW, "data: an element X - zp outside int32");
    if (v < *lo) *lo = v;
    if (v > *hi) *hi = v;
  }
  if (t->rq) *lo = t->rq->qmin, *hi = t->rq->qmax;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_mrt_binary(mrtq_mrt_op op, const mrtq_etensor *a, const mrtq_etensor *b, int32_t *out) {
  mrtq_bcast bc;
  size_t na, nb, i;
  int64_t la, ha, lb, hb, lo, hi;
  mrtq_status st;
  if (op != MRTQ_MRT_ADD && op != MRTQ_MRT_SUB && op != MRTQ_MRT_MUL)
    return MRTQ__ERR(MRTQ_EINVAL, "op: must be MRTQ_MRT_ADD, MRTQ_MRT_SUB or MRTQ_MRT_MUL");
  if (!a) return MRTQ__ERR(MRTQ_EINVAL, "a: NULL");
  if (!b) return MRTQ__ERR(MRTQ_EINVAL, "b: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  st = mrtq__bcast(a->shape, a->ndim, b->shape, b->ndim, &bc, 1);
  if (st == MRTQ_OK) st = mrtq__ebounds(a, 0, &na, &la, &ha);
  if (st == MRTQ_OK) st = mrtq__ebounds(b, 1, &nb, &lb, &hb);
  if (st != MRTQ_OK) return st;
  if (op == MRTQ_MRT_ADD) lo = la + lb, hi = ha + hb;
  else if (op == MRTQ_MRT_SUB) lo = la - hb, hi = ha - lb;
  else {
    int64_t p[4];
    int k;
    p[0] = la * lb, p[1] = la * hb, p[2] = ha * lb, p[3] = ha * hb;
    lo = hi = p[0];
    for (k = 1; k < 4; k++) lo = p[k] < lo ? p[k] : lo, hi = p[k] > hi ? p[k] : hi;
  }
  if (lo < INT32_MIN || hi > INT32_MAX)
    return MRTQ__ERR(MRTQ_EOVERFLOW, "a, b: the result's range exceeds int32 (more than 32 bits of precision)");
  for (i = 0; i < bc.n; i++) {
    size_t ia, ib;
    int64_t x, y;
    mrtq__bcast_at(&bc, i, &ia, &ib);
    x = mrtq__ev(a, ia), y = mrtq__ev(b, ib);
    out[i] = (int32_t)(op == MRTQ_MRT_ADD ? x + y : op == MRTQ_MRT_SUB ? x - y : x * y);
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_mrt_merge_add(const mrtq_etensor *parts, size_t n, int32_t *out) {
  size_t count = 0, c, i, k;
  int64_t lo = 0, hi = 0;
  int d;
  if (!parts) return MRTQ__ERR(MRTQ_EINVAL, "parts: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (n == 0 || n > ((size_t)1 << 31)) return MRTQ__ERR(MRTQ_EINVAL, "n: must be in [1, 2^31]");
  for (k = 0; k < n; k++) {
    int64_t l, h;
    mrtq_status st = mrtq__ebounds(&parts[k], 2, &c, &l, &h);
    if (st != MRTQ_OK) return st;
    if (parts[k].ndim != parts[0].ndim) return MRTQ__ERR(MRTQ_ESHAPE, "parts[k].ndim: differs from parts[0].ndim");
    for (d = 0; d < parts[k].ndim; d++)
      if (parts[k].shape[d] != parts[0].shape[d])
        return MRTQ__ERR(MRTQ_ESHAPE, "parts[k].shape: differs from parts[0].shape");
    count = c, lo += l, hi += h; /* |bounds| <= 2^31 each, n <= 2^31: no int64 overflow */
  }
  if (lo < INT32_MIN || hi > INT32_MAX)
    return MRTQ__ERR(MRTQ_EOVERFLOW, "parts: the sum's range exceeds int32 (more than 32 bits of precision)");
  for (i = 0; i < count; i++) {
    int64_t acc = 0;
    for (k = 0; k < n; k++) acc += mrtq__ev(&parts[k], i);
    out[i] = (int32_t)acc;
  }
  return MRTQ_OK;
}

/* float f -> nearest integer, ties away from zero (C's roundf, TFLite's
 * TfLiteRound), as int64; saturates at +-2^40 (beyond any int32 result plus
 * zero point); NaN -> 0. The float is exact in double and |f| < 2^40 keeps
 * the difference f - trunc(f) exact. Also used by mrtq/tflite.h. */
MRTQ__PRIV int64_t mrtq__rnda_f32(float f) {
  double v = f, frac;
  int64_t t;
  if (v != v) return 0;
  if (v >= 1099511627776.0) return (int64_t)1 << 40;
  if (v <= -1099511627776.0) return -((int64_t)1 << 40);
  t = (int64_t)v; /* truncation toward zero */
  frac = v - (double)t;
  return t + (frac >= 0.5) - (frac <= -0.5);
}

/* The checks both clamp_bounds functions make; the type's range into *tmin, *tmax. */
MRTQ__PRIV mrtq_status mrtq__clamp_bounds_args(float lo, float hi, float scale, int32_t zp, mrtq_dtype type,
                                               const int32_t *qlo, const int32_t *qhi, int32_t *tmin, int32_t *tmax) {
  if (!qlo || !qhi) return MRTQ__ERR(MRTQ_EINVAL, "qlo, qhi: NULL");
  if (lo != lo) return MRTQ__ERR(MRTQ_EINVAL, "lo: NaN");
  if (hi != hi) return MRTQ__ERR(MRTQ_EINVAL, "hi: NaN");
  if (lo > hi) return MRTQ__ERR(MRTQ_EINVAL, "lo, hi: lo > hi");
  if (mrtq__nonfinite_f32(scale) || !(scale > 0)) return MRTQ__ERR(MRTQ_EINVAL, "scale: must be finite and > 0");
  if (!mrtq__dtype_ok(type)) return MRTQ__ERR(MRTQ_EINVAL, "type: not an mrtq_dtype");
  (void)mrtq_dtype_range(type, tmin, tmax); /* a valid type: cannot fail */
  if (zp < *tmin || zp > *tmax) return MRTQ__ERR(MRTQ_EINVAL, "zp: outside type");
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_clamp_bounds_onnx(float lo, float hi, float scale, int32_t zp, mrtq_dtype type,
                                            int32_t *qlo, int32_t *qhi) {
  int32_t tmin = 0, tmax = 0;
  mrtq_status st = mrtq__clamp_bounds_args(lo, hi, scale, zp, type, qlo, qhi, &tmin, &tmax);
  if (st != MRTQ_OK) return st;
  *qlo = mrtq_quantize_f32(lo, scale, zp, tmin, tmax);
  *qhi = mrtq_quantize_f32(hi, scale, zp, tmin, tmax);
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_clamp_bounds_tflite(float lo, float hi, float scale, int32_t zp, mrtq_dtype type,
                                              int32_t *qlo, int32_t *qhi) {
  int32_t tmin = 0, tmax = 0;
  float flo, fhi;
  mrtq_status st = mrtq__clamp_bounds_args(lo, hi, scale, zp, type, qlo, qhi, &tmin, &tmax);
  if (st != MRTQ_OK) return st;
  flo = lo / scale; /* one float division each, as TFLite's Quantize */
  fhi = hi / scale;
  *qlo = mrtq__clamp64(mrtq__rnda_f32(flo) + zp, tmin, tmax);
  *qhi = mrtq__clamp64(mrtq__rnda_f32(fhi) + zp, tmin, tmax);
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_clamp_q(const void *x, size_t n, int32_t qlo, int32_t qhi, mrtq_dtype type, void *out) {
  size_t i;
  if (!x && n) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL with n > 0");
  if (!out && n) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL with n > 0");
  {
    mrtq_status tst = MRTQ__Q8_TYPE(type, "type");
    if (tst != MRTQ_OK) return tst;
  }
  if (!mrtq__in_type(qlo, type)) return MRTQ__ERR(MRTQ_EINVAL, "qlo: outside type");
  if (!mrtq__in_type(qhi, type)) return MRTQ__ERR(MRTQ_EINVAL, "qhi: outside type");
  if (qlo > qhi) return MRTQ__ERR(MRTQ_EINVAL, "qlo, qhi: qlo > qhi");
  if (type == MRTQ_U8) {
    const uint8_t *s = (const uint8_t *)x;
    uint8_t *d = (uint8_t *)out;
    for (i = 0; i < n; i++) {
      int32_t v = s[i];
      d[i] = (uint8_t)(v < qlo ? qlo : v > qhi ? qhi : v);
    }
  } else {
    const int8_t *s = (const int8_t *)x;
    int8_t *d = (int8_t *)out;
    for (i = 0; i < n; i++) {
      int32_t v = s[i];
      d[i] = (int8_t)(v < qlo ? qlo : v > qhi ? qhi : v);
    }
  }
  return MRTQ_OK;
}

/* TFLite MAXIMUM (is_max 1) / MINIMUM (0). Shapes with a zero dimension are
 * checked pairwise here (TFLite's CalculateShapeForBroadcast: 0 pairs with 0
 * or 1) and give an empty output; the rest is mrtq_bcast's. */
MRTQ__PRIV mrtq_status mrtq__tfl_minmax(int is_max, const size_t *shape_a, int nda, const size_t *shape_b, int ndb,
                                        const void *a, const void *b, mrtq_dtype type, void *out) {
  size_t sa[MRTQ_MAX_DIMS] = {0}, sb[MRTQ_MAX_DIMS] = {0}, i;
  int d, nd, empty = 0;
  mrtq_bcast bc;
  mrtq_status st;
  if (nda < 0 || nda > MRTQ_MAX_DIMS) return MRTQ__ERR(MRTQ_EINVAL, "nda: must be in [0, MRTQ_MAX_DIMS]");
  if (ndb < 0 || ndb > MRTQ_MAX_DIMS) return MRTQ__ERR(MRTQ_EINVAL, "ndb: must be in [0, MRTQ_MAX_DIMS]");
  if (nda && !shape_a) return MRTQ__ERR(MRTQ_EINVAL, "shape_a: NULL with nda > 0");
  if (ndb && !shape_b) return MRTQ__ERR(MRTQ_EINVAL, "shape_b: NULL with ndb > 0");
  if (!mrtq__dtype_ok(type)) return MRTQ__ERR(MRTQ_EINVAL, "type: not an mrtq_dtype (0: a zero-initialised operand)");
  if (type == MRTQ_S4)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "type: must be MRTQ_S8, MRTQ_U8, MRTQ_S16 or MRTQ_S32 (TFLite has no int4 MAXIMUM / MINIMUM)");
  nd = nda > ndb ? nda : ndb;
  for (d = 0; d < nd; d++) { /* aligned at the last dimension */
    int ia = d - (nd - nda), ib = d - (nd - ndb);
    size_t x = ia >= 0 ? shape_a[ia] : 1, y = ib >= 0 ? shape_b[ib] : 1;
    if (x == 0 || y == 0) {
      if ((x > 1 && y == 0) || (y > 1 && x == 0))
        return MRTQ__ERR(MRTQ_ESHAPE, "shape_a, shape_b: sizes differ and neither is 1");
      empty = 1, x = 1, y = 1; /* the rest is checked on the non-empty pairs */
    }
    if (ia >= 0) sa[ia] = x;
    if (ib >= 0) sb[ib] = y;
  }
  if ((st = mrtq__bcast(sa, nda, sb, ndb, &bc, 0)) != MRTQ_OK) return st;
  if (empty) return MRTQ_OK;
  if (!a) return MRTQ__ERR(MRTQ_EINVAL, "a: NULL");
  if (!b) return MRTQ__ERR(MRTQ_EINVAL, "b: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  for (i = 0; i < bc.n; i++) {
    size_t ia, ib;
    int32_t x, y;
    mrtq__bcast_at(&bc, i, &ia, &ib);
    x = mrtq__load(a, ia, type), y = mrtq__load(b, ib, type);
    mrtq__store(out, i, type, is_max ? (x > y ? x : y) : (x < y ? x : y));
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_maximum(const size_t *shape_a, int nda, const size_t *shape_b, int ndb, const void *a,
                                         const void *b, mrtq_dtype type, void *out) {
  return mrtq__tfl_minmax(1, shape_a, nda, shape_b, ndb, a, b, type, out);
}

MRTQ_API mrtq_status mrtq_tflite_minimum(const size_t *shape_a, int nda, const size_t *shape_b, int ndb, const void *a,
                                         const void *b, mrtq_dtype type, void *out) {
  return mrtq__tfl_minmax(0, shape_a, nda, shape_b, ndb, a, b, type, out);
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_ELTWISE_H */
