/* mrtq/activation.h -- TFLite's quantized activation operators, bit-exact with
 * its kernels (includes mrtq/attr.h, mrtq/eltwise.h, mrtq/fxmath.h and
 * mrtq/tflite.h; included by mrtq.h and mrtq/lstm.h). No libm: the tables
 * TFLite builds from a float function take that function as an argument.
 *
 *   operator          types (in = out)        mrtq                          TFLite kernel it reproduces
 *   RELU, RELU6,      int8, uint8, int16      mrtq_tflite_relu_init         QuantizedReluX / ReluQuantized:
 *   RELU_N1_TO_1      (int16: zero points 0)  mrtq_tflite_relu              rescale, then clamp to the bounds
 *   RELU6 (Micro)     int8, int16             mrtq_tflite_relu6_init_micro  TFLite Micro's Relu6Quantized: clamp, no rescale
 *   LEAKY_RELU        int8, uint8, int16      mrtq_tflite_leaky_relu_init   reference_ops::QuantizeLeakyRelu
 *                                             mrtq_tflite_leaky_relu
 *   PRELU             int8 / int8 alpha,      mrtq_tflite_prelu_init (TF),  reference_ops::BroadcastPrelu4DSlow
 *                     uint8 / uint8,          _init_micro (TFLite Micro)
 *                     int16 / int8 alpha      mrtq_tflite_prelu
 *   HARD_SWISH        int8, uint8             mrtq_tflite_hard_swish_init   reference_ops::HardSwish (int16 fixed point)
 *                                             mrtq_tflite_hard_swish
 *   LOGISTIC, TANH    int8                    mrtq_tflite_fx8_init          reference_integer_ops::Logistic / Tanh
 *                                             mrtq_tflite_logistic / _tanh  (gemmlowp fixed point; TFLite Micro)
 *   LOGISTIC, TANH    int8, uint8             mrtq_tflite_logistic_lut_init the TF interpreter's kernels: a 256-entry
 *                                             / _tanh_lut_init, _lut8       table built in float (LUTPopulate)
 *   LOGISTIC, TANH    int16                   mrtq_tflite_logistic16_init   reference_integer_ops::Logistic / Tanh
 *                                             / _tanh16_init, _logistic16   (int16: sigmoid table, interpolation)
 *                                             / _tanh16
 *
 * Which runtime runs which: the TF interpreter evaluates int8 / uint8 LOGISTIC
 * and TANH through the float-built table in its reference and its default
 * (generic optimized) kernels; TFLite Micro and CMSIS-NN's reference run the
 * gemmlowp fixed-point form. The two differ (docs/kernels.md 4.24 counts by
 * how much). Each init states whether it is the TF interpreter's Prepare, TFLite
 * Micro's, or both (where they compute the same numbers).
 *
 * Every kernel reads a (possibly hand-filled) params struct and refuses one
 * outside its init's ranges, naming the field; a refusal writes nothing. in
 * and out may be the same array. Normative formulas and tie rules:
 * docs/kernels.md 4.24; the versions read: docs/anchors.md 2.19. */
#ifndef MRTQ_ACTIVATION_H
#define MRTQ_ACTIVATION_H

#include "attr.h"
#include "eltwise.h"
#include "fxmath.h"
#include "tflite.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* ---- RELU, RELU_N1_TO_1, RELU6 as operators ---- */
typedef struct mrtq_tflite_relu_params {
  mrtq_dtype type;       /* MRTQ_S8, MRTQ_U8 or MRTQ_S16 (input and output) */
  int32_t in_zp, out_zp; /* within type (mrtq_tflite_relu_init: 0 for MRTQ_S16) */
  mrtq_mult m;           /* mult in [0, 2^31 - 1], shift in [-31, 30] */
  int32_t qmin, qmax;    /* stored bounds, within type, qmin <= qmax */
} mrtq_tflite_relu_params;

/* What TFLite's ReluPrepare computes (the TF interpreter's kernels/
 * activations.cc and TFLite Micro's activations_common.cc alike):
 *   m = mrtq_mult_q31(fl(in_scale / out_scale))   one float division, then
 *       QuantizeMultiplier in double
 *   [qmin, qmax] = mrtq_tflite_act_range(act, out_scale, out_zp, type):
 *       out_zp + round_half_away(fl(f / out_scale)) for f = 0, -1, 1, 6, cut
 *       to the type (QuantizedReluX's roundf bounds; RELU has no upper one)
 * act: MRTQ_TFLITE_ACT_RELU, _RELU_N1_TO_1 or _RELU6 (the operators RELU,
 * RELU_N1_TO_1, RELU6). type MRTQ_S8, MRTQ_U8 or MRTQ_S16, int16 with both
 * zero points 0 as both TFLites require (the TF interpreter takes int8 and
 * uint8, and int16 for RELU and RELU6; TFLite Micro's RELU int8 and int16).
 * Errors (nothing written): out NULL, act outside the three, a scale NaN,
 * infinite or <= 0, a zero point outside type or non-zero for MRTQ_S16, type
 * not an mrtq_dtype -> MRTQ_EINVAL; type MRTQ_S32 / MRTQ_S4 ->
 * MRTQ_EUNSUPPORTED; in_scale / out_scale encoding with shift above 30 (a
 * ratio of 2^30 or more: TFLite's shift overflows) or a bound out of range
 * (mrtq_tflite_act_range's MRTQ_ERANGE) -> MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_tflite_relu_init(mrtq_tflite_act act, mrtq_dtype type, float in_scale, int32_t in_zp,
                                           float out_scale, int32_t out_zp, mrtq_tflite_relu_params *out);

/* TFLite Micro's RELU6 (Relu6Prepare / Relu6Quantized): no rescale; the
 * input is clamped to [in_zp, six], six = clamp(in_zp + round_half_away(fl(6
 * / in_scale)), type) (FloatToQuantizedType), and the output tensor's scale
 * and zero point are not read (TFLite Micro assumes they equal the input's).
 * Fills m with the identity {2^30, 1}, out_zp = in_zp, [qmin, qmax] = [in_zp,
 * six]. type MRTQ_S8 or MRTQ_S16 (any zero point: Micro does not check it).
 * Errors as mrtq_tflite_relu_init. */
MRTQ_API mrtq_status mrtq_tflite_relu6_init_micro(mrtq_dtype type, float in_scale, int32_t in_zp,
                                                  mrtq_tflite_relu_params *out);

/* y = clamp(out_zp + mrtq_mul_q31_dbl(x - in_zp, m), qmin, qmax) for each of
 * the n elements of in (p->type). Bit-exact with TFLite's QuantizedReluX
 * (optimized_ops::ReluX) and ReluQuantized wherever TFLite's int32
 * arithmetic is defined ((x - in_zp) * 2^shift within int32; mrtq saturates
 * it beyond). Errors: p, in or out NULL -> MRTQ_EINVAL; p->type outside the
 * enum -> MRTQ_EINVAL, S32 / S4 -> MRTQ_EUNSUPPORTED; a field outside the
 * ranges above -> MRTQ_EINVAL (zero points, bounds) or MRTQ_ERANGE (m). */
MRTQ_API mrtq_status mrtq_tflite_relu(const mrtq_tflite_relu_params *p, size_t n, const void *in, void *out);

/* ---- LEAKY_RELU ---- */
typedef struct mrtq_tflite_leaky_relu_params {
  mrtq_dtype type;        /* MRTQ_S8, MRTQ_U8 or MRTQ_S16 (input and output) */
  int32_t in_zp, out_zp;  /* within type */
  mrtq_mult identity;     /* x >= in_zp: mult [0, 2^31 - 1], shift [-31, 30] */
  mrtq_mult alpha;        /* x <  in_zp: the magnitude, same ranges */
  int32_t alpha_negative; /* 0 or 1: TFLite's stored alpha multiplier is negative (that branch's result is negated) */
} mrtq_tflite_leaky_relu_params;

/* LeakyReluPrepare (TF interpreter and TFLite Micro alike: float arithmetic,
 * then QuantizeMultiplier in double):
 *   identity = mrtq_mult_q31(fl(in_scale / out_scale))
 *   alpha    = mrtq_mult_q31(|fl(fl(in_scale * alpha) / out_scale)|),
 *   alpha_negative = (alpha < 0 and that multiplier did not flush to 0)
 * TFLite encodes a negative multiplier with the sign on the fixed-point value
 * and its kernel negates the product of the magnitude; rounding half away
 * from zero is symmetric, so the magnitude encodes to the same mantissa.
 * type MRTQ_S8, MRTQ_U8 or MRTQ_S16. For int16 the TF interpreter requires
 * zero points 0 and its default (generic optimized) registration runs another
 * kernel, optimized_integer_ops::QuantizeLeakyRelu, not reproduced here; its
 * reference registration and TFLite Micro (any int16 zero point) run this one. Errors (nothing
 * written): out NULL, a scale NaN, infinite or <= 0, alpha NaN or infinite,
 * a zero point outside type, type not an mrtq_dtype -> MRTQ_EINVAL; S32 / S4
 * -> MRTQ_EUNSUPPORTED; a float quotient that overflows or a multiplier
 * encoding with shift above 30 -> MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_tflite_leaky_relu_init(mrtq_dtype type, float in_scale, int32_t in_zp, float alpha,
                                                 float out_scale, int32_t out_zp, mrtq_tflite_leaky_relu_params *out);

/* reference_ops::QuantizeLeakyRelu: v = x - in_zp;
 *   v >= 0: y = out_zp + mrtq_mul_q31_dbl(v, identity)
 *   v <  0: t = mrtq_mul_q31_dbl(v, alpha); y = out_zp + (alpha_negative ? -t : t)
 * clamped to the type. Bit-exact with TFLite wherever its int32 arithmetic
 * is defined (v * 2^shift within int32). Errors: p, in or out NULL ->
 * MRTQ_EINVAL; a field outside the ranges above -> MRTQ_EINVAL (type, zero
 * points, alpha_negative) or MRTQ_ERANGE (the multipliers; S32 / S4 ->
 * MRTQ_EUNSUPPORTED). */
MRTQ_API mrtq_status mrtq_tflite_leaky_relu(const mrtq_tflite_leaky_relu_params *p, size_t n, const void *in,
                                            void *out);

/* ---- PRELU ---- */
typedef struct mrtq_tflite_prelu_params {
  mrtq_dtype type;                /* input and output: MRTQ_S8, MRTQ_U8 or MRTQ_S16 */
  mrtq_dtype alpha_type;          /* type for 8-bit types; MRTQ_S8 for MRTQ_S16 */
  int32_t in_zp, alpha_zp, out_zp; /* each within its tensor's type */
  mrtq_mult m1;                   /* x >= in_zp: in / out;         mult [0, 2^31 - 1], shift [-31, 30] */
  mrtq_mult m2;                   /* x <  in_zp: in * alpha / out; same ranges */
} mrtq_tflite_prelu_params;

/* PreluPrepare of the TF interpreter (kernels/activations.cc): the two
 * multipliers in float, m1 = mrtq_mult_q31(fl(in_scale / out_scale)), m2 =
 * mrtq_mult_q31(fl(fl(in_scale * alpha_scale) / out_scale)). type MRTQ_S8
 * (alpha int8) or MRTQ_U8 (alpha uint8). Errors (nothing written): out NULL,
 * a scale NaN, infinite or <= 0, a zero point outside its type, type not an
 * mrtq_dtype -> MRTQ_EINVAL; another type -> MRTQ_EUNSUPPORTED; a float
 * product or quotient that overflows, or a multiplier with shift above 30 ->
 * MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_tflite_prelu_init(mrtq_dtype type, float in_scale, int32_t in_zp, float alpha_scale,
                                            int32_t alpha_zp, float out_scale, int32_t out_zp,
                                            mrtq_tflite_prelu_params *out);

/* TFLite Micro's CalculatePreluParams (micro/kernels/prelu_common.cc): the
 * same two multipliers from the scales widened to double, m1 = Q31(in / out),
 * m2 = Q31(in * alpha / out) (double product, then double quotient). type
 * MRTQ_S8 (alpha int8) or MRTQ_S16 (alpha int8). Errors as
 * mrtq_tflite_prelu_init. */
MRTQ_API mrtq_status mrtq_tflite_prelu_init_micro(mrtq_dtype type, float in_scale, int32_t in_zp, float alpha_scale,
                                                  int32_t alpha_zp, float out_scale, int32_t out_zp,
                                                  mrtq_tflite_prelu_params *out);

/* reference_ops::BroadcastPrelu4DSlow: alpha (alpha_shape) is broadcast to the
 * input's shape (NumPy rules, as mrtq_bcast_init; the output has the input's
 * shape, which the broadcast must not grow, as TFLite requires). Per element,
 * v = x - in_zp:
 *   v >= 0: y = mrtq_mul_q31_dbl(v, m1) + out_zp
 *   v <  0: y = mrtq_mul_q31_dbl(v * (a - alpha_zp), m2) + out_zp   (exact product)
 * clamped to the type. Bit-exact with TFLite wherever its int32 arithmetic
 * is defined. Errors: p, in, alpha or out NULL -> MRTQ_EINVAL; shapes as
 * mrtq_bcast_init, and a broadcast output other than in_shape ->
 * MRTQ_ESHAPE; a field outside the ranges above -> MRTQ_EINVAL (types, zero
 * points; a type pair other than the three -> MRTQ_EUNSUPPORTED) or
 * MRTQ_ERANGE (multipliers). */
MRTQ_API mrtq_status mrtq_tflite_prelu(const mrtq_tflite_prelu_params *p, const size_t *in_shape, int in_ndim,
                                       const size_t *alpha_shape, int alpha_ndim, const void *in, const void *alpha,
                                       void *out);

/* ---- HARD_SWISH ---- */
typedef struct mrtq_tflite_hard_swish_params {
  mrtq_dtype type;                   /* MRTQ_S8 or MRTQ_U8 (input and output) */
  int32_t in_zp, out_zp;             /* within type */
  int16_t output_multiplier_fixedpoint_int16;  /* [0, 32767] */
  int32_t output_multiplier_exponent;          /* [-31, 0] */
  int16_t reluish_multiplier_fixedpoint_int16; /* [0, 32767] */
  int32_t reluish_multiplier_exponent;         /* [-31, 31] */
} mrtq_tflite_hard_swish_params;

/* HardSwishPrepare (TF interpreter and TFLite Micro alike), in float:
 *   hires   = fl(in_scale / 128)  (TFLite: (1.0f / 128.0f) * in_scale)
 *   output  : Q31 of fl(hires / out_scale), then to 16 bits
 *   reluish : Q31 of fl(hires / fl(3 / 32768)), then to 16 bits
 * each Q31 pair by QuantizeMultiplier (mrtq_mult_q31) and its mantissa m
 * reduced by DownScaleInt32ToInt16Multiplier: m >= 2^31 - 1 - 2^15 ? 32767 :
 * floor((m + 2^15) / 2^16) (to nearest, ties up); the exponents are the
 * shifts. Errors (nothing written): out NULL, a scale NaN, infinite or <= 0,
 * a zero point outside type, type not an mrtq_dtype -> MRTQ_EINVAL; another
 * type -> MRTQ_EUNSUPPORTED; output exponent above 0 (in_scale / out_scale
 * of 128 or more: TFLite refuses the model) or reluish exponent above 31
 * (in_scale above about 2^24.4: TFLite's shift overflows) -> MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_tflite_hard_swish_init(mrtq_dtype type, float in_scale, int32_t in_zp, float out_scale,
                                                 int32_t out_zp, mrtq_tflite_hard_swish_params *out);

/* reference_ops::HardSwish, in TFLite's int16 steps (gemmlowp's int16 SRDHM
 * and RoundingDivideByPOT):
 *   h  = 128 (x - in_zp)                                (|h| <= 32640)
 *   o  = srdhm16(h, output_multiplier_fixedpoint_int16)
 *   r  = h; e = reluish_multiplier_exponent
 *   e > 0: r = sat16(r 2^(e-1)); r = srdhm16(r, reluish_multiplier_fixedpoint_int16);
 *          r = sat16(2 r)
 *   e <= 0: r = srdhm16(r, reluish_...); e < 0: r = rdivpot16(r, -e)
 *   r  = floor((r + 2^15) / 2)                          (in [0, 32767])
 *   p  = trunc(r o / 2^15)                              (toward zero)
 *   y  = clamp(wrap16(rdivpot16(p, -output_multiplier_exponent) + out_zp), type)
 *        (TFLite adds the zero point to an int16: the sum wraps modulo 2^16,
 *        which a uint8 zero point of 130 or more can reach when in_scale /
 *        out_scale is near 128)
 * srdhm16(a, b) = floor((a b + 2^14) / 2^15) (ties toward +infinity; -32768
 * times -32768 saturates to 32767); rdivpot16(v, k) = v / 2^k rounded to
 * nearest, ties away from zero, for k <= 15, and for k in [16, 31] what
 * gemmlowp's int16 RoundingDivideByPOT computes there (its mask wraps to
 * 16 bits): 1 for v >= 0, -1 for v < 0. Bit-exact with TFLite for every
 * input. Errors: p, in or out NULL -> MRTQ_EINVAL; a field outside the
 * ranges above -> MRTQ_EINVAL (type, zero points; S16 / S32 / S4 ->
 * MRTQ_EUNSUPPORTED) or MRTQ_ERANGE (multipliers, exponents). */
MRTQ_API mrtq_status mrtq_tflite_hard_swish(const mrtq_tflite_hard_swish_params *p, size_t n, const void *in,
                                            void *out);

/* ---- LOGISTIC and TANH, int8, fixed point (TFLite Micro) ---- */
typedef struct mrtq_tflite_fx8_params {
  int32_t input_zp;           /* [-128, 127] */
  int32_t input_range_radius; /* [0, 2^31 - 1] */
  int32_t input_multiplier;   /* [0, 2^31 - 1] */
  int32_t input_left_shift;   /* [0, 62] */
} mrtq_tflite_fx8_params;

/* The Prepare of TFLite Micro's int8 LOGISTIC and TANH (logistic_common.cc,
 * tanh.cc: the same four numbers for both), in double:
 *   r = in_scale 2^27;  q = frexp(r, &input_left_shift)
 *   input_multiplier   = round_half_away(q 2^31)   (no renormalisation: a
 *                        float scale never rounds up to 2^31)
 *   input_range_radius = floor(15 2^27 / 2^input_left_shift)
 *                        (CalculateInputRadius(4, shift, 31); 0 for shift >= 31)
 *   input_zp           = in_zp
 * The output is fixed: scale 1/256, zero point -128 for LOGISTIC (Micro
 * checks the zero point), scale 1/128, zero point 0 for TANH (not checked).
 * Errors (nothing written): out NULL, in_scale NaN, infinite or <= 0, in_zp
 * outside int8 -> MRTQ_EINVAL; in_scale below 2^-28 or 2^35 or more
 * (input_left_shift below 0 or above 62, where TFLite's CalculateInputRadius
 * shifts by a negative amount or overflows 1LL << shift) -> MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_tflite_fx8_init(float in_scale, int32_t in_zp, mrtq_tflite_fx8_params *out);

/* reference_integer_ops::Logistic (int8): v = x - input_zp;
 *   v <= -radius: y = -128;  else v >= radius: y = 127;  else
 *   y = clamp(rdivpot(logistic(mrtq_mul_q31_dbl(v, {mult, shift}), 4), 23) - 128, -128, 127)
 * with logistic gemmlowp's on Q4.27 (mrtq_fx_logistic_s32, result Q0.31) and
 * rdivpot ties away from zero. Bit-exact with TFLite for every input a
 * struct from mrtq_tflite_fx8_init gives (|v| < radius keeps v 2^shift
 * within int32; with a hand-filled radius beyond that mrtq saturates the
 * product where TFLite's overflows). Errors: p, in or out NULL ->
 * MRTQ_EINVAL; a field outside the ranges above -> MRTQ_ERANGE naming it. */
MRTQ_API mrtq_status mrtq_tflite_logistic(const mrtq_tflite_fx8_params *p, size_t n, const int8_t *in, int8_t *out);

/* reference_integer_ops::Tanh (int8): as mrtq_tflite_logistic with
 *   y = clamp(rdivpot(tanh(q4, 4), 24), -128, 127)   (tanh: mrtq_fx_tanh_s32)
 * and -128 / 127 at the radius. Same domain and errors. */
MRTQ_API mrtq_status mrtq_tflite_tanh(const mrtq_tflite_fx8_params *p, size_t n, const int8_t *in, int8_t *out);

/* ---- LOGISTIC and TANH, int8 / uint8, the TF interpreter's float table ---- */
typedef struct mrtq_tflite_lut8_params {
  mrtq_dtype type;    /* MRTQ_S8 or MRTQ_U8 (input and output) */
  uint8_t table[256]; /* indexed by the input's byte: (uint8_t)x */
} mrtq_tflite_lut8_params;

/* The TF interpreter's int8 / uint8 LOGISTIC and TANH Prepare
 * (PopulateLookupTable, LUTPopulate in later versions), every step in float:
 *   for each stored x:  d = fl(in_scale * (x - in_zp))
 *     LOGISTIC: t = fl(1 / fl(1 + expf_fn(-d)))      TANH: t = tanhf_fn(d)
 *     r = round_half_away(fl(t * fl(1 / out_scale)))
 *     table[(uint8_t)x] = clamp(trunc(fl(r + out_zp)), type)
 * Pass expf / tanhf from <math.h>: the table equals TFLite's when it is
 * built against the same libm. A NaN from the function stores the type's
 * minimum (x86-64 TFLite: its int32 conversion of NaN gives INT32_MIN);
 * infinities saturate. TFLite also requires out_scale 1/256 for LOGISTIC; mrtq
 * takes any. Errors (nothing written): out or the function NULL, a scale NaN,
 * infinite or <= 0, out_scale below 2^-126, a zero point outside type, type
 * not an mrtq_dtype -> MRTQ_EINVAL; another type -> MRTQ_EUNSUPPORTED. */
MRTQ_API mrtq_status mrtq_tflite_logistic_lut_init(mrtq_dtype type, float in_scale, int32_t in_zp, float out_scale,
                                                   int32_t out_zp, float (*expf_fn)(float),
                                                   mrtq_tflite_lut8_params *out);
MRTQ_API mrtq_status mrtq_tflite_tanh_lut_init(mrtq_dtype type, float in_scale, int32_t in_zp, float out_scale,
                                               int32_t out_zp, float (*tanhf_fn)(float), mrtq_tflite_lut8_params *out);

/* EvalUsingLookupTable: y = table[(uint8_t)x] for each of the n elements.
 * Errors: p, in or out NULL -> MRTQ_EINVAL; p->type not MRTQ_S8 / MRTQ_U8 ->
 * MRTQ_EINVAL (outside the enum) or MRTQ_EUNSUPPORTED. */
MRTQ_API mrtq_status mrtq_tflite_lut8(const mrtq_tflite_lut8_params *p, size_t n, const void *in, void *out);

/* ---- LOGISTIC and TANH, int16 ---- */
typedef struct mrtq_tflite_fx16_params {
  int32_t input_multiplier; /* 0 (power-of-two scale) or [1, 32767] */
  int32_t input_left_shift; /* multiplier 0: [0, 1]; otherwise [0, 31] */
} mrtq_tflite_fx16_params;

/* The int16 Prepare of TFLite Micro (logistic_common.cc, tanh.cc), in double:
 *   k = log2(in_scale) when TFLite's CheckedLog2 accepts it as a power of two
 *   (|log2 s - round(log2 s)| < 10^-3, decided exactly); shift = 12 + k.
 *   Power of two and shift == 0 (LOGISTIC), shift 0 or 1 (TANH):
 *     input_multiplier = 0, input_left_shift = shift
 *   otherwise: m = in_scale * 4096 * 3, shift = 0;
 *     while (m <= 32767 / 2 and shift <= 30) { shift++; m *= 2 }
 *     input_multiplier = trunc(m), input_left_shift = shift
 * (input and output zero points must be 0 and the output scale 2^-15 in
 * TFLite; the kernel reads neither.) The TF interpreter's Prepare computes the
 * same two numbers. Which kernel runs: TFLite Micro and the interpreter's
 * reference registration always run the one below; the interpreter's default
 * registration runs it when input_multiplier > 0, and for a power-of-two
 * scale (multiplier 0) another kernel, optimized_ops::Logistic / Tanh on
 * int16, not reproduced here. TFLite decides CheckedLog2 with
 * float logf: on scales within about 10^-6 of its 10^-3 tolerance the two
 * decisions can differ (docs/kernels.md 4.24).
 * Errors (nothing written): out NULL, in_scale NaN, infinite or <= 0 ->
 * MRTQ_EINVAL; m of 32768 or more (in_scale from 32768 / 12288, about 2.67:
 * trunc(m) would exceed TFLite's DCHECK of 32767) or truncating to 0
 * (in_scale below about 4e-14) -> MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_tflite_logistic16_init(float in_scale, mrtq_tflite_fx16_params *out);
MRTQ_API mrtq_status mrtq_tflite_tanh16_init(float in_scale, mrtq_tflite_fx16_params *out);

/* reference_integer_ops::Logistic / Tanh (int16). With M = input_multiplier,
 * s = input_left_shift (M == 0: M = 3 2^s, s = 0):
 *   v = floor((x M + (s > 0 ? 2^(s-1) : 0)) / 2^s);  a = |v|
 *   LOGISTIC: i = floor(a / 2^9), f = a mod 2^9; r = i >= 255 ? 32767 2^10
 *             : 2^9 T[i] + f (T[i+1] - T[i]);
 *             y = v >= 0 ? floor((r + 2^9) / 2^10) : floor((2^25 - r + 2^9 - 1) / 2^10)
 *   TANH:     i = floor(a / 2^8), f = a mod 2^8; r = i >= 255 ? 65535 2^8
 *             : 2^8 T[i] + f (T[i+1] - T[i]);
 *             y = v >= 0 ? floor((r - 2^23 + 2^7) / 2^8) : floor((2^23 - r + 2^7 - 1) / 2^8)
 * T: TFLite's 256-entry sigmoid_table_uint16 (kernels/internal/common.h),
 * T[k] close to 65536 / (1 + e^(-k/24)). Output scale 2^-15, zero point 0.
 * Bit-exact with TFLite for every input. Errors: p, in or out NULL ->
 * MRTQ_EINVAL; a field outside the ranges above -> MRTQ_ERANGE naming it. */
MRTQ_API mrtq_status mrtq_tflite_logistic16(const mrtq_tflite_fx16_params *p, size_t n, const int16_t *in,
                                            int16_t *out);
MRTQ_API mrtq_status mrtq_tflite_tanh16(const mrtq_tflite_fx16_params *p, size_t n, const int16_t *in, int16_t *out);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

/* TFLite's sigmoid_table_uint16 (internal/common.h, tflite-micro
 * 90b983c2b3f1), the data of the scheme: T[k] ~ 65536 / (1 + exp(-k / 24)). */
static const uint16_t mrtq__sigmoid_t16[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794, 41432, 42064, 42688,
    43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409,
    51865, 52311, 52745, 53169, 53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
    57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110,
    61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186,
    63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
    64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900,
    64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208,
    65221, 65234, 65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
    65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433, 65438, 65442, 65445, 65449,
    65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491,
    65493, 65495, 65497, 65498, 65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
    65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
    65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530,
    65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
    65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535};

/* The interpolated table at a = |v|, frac_bits 9 (logistic) or 8 (tanh):
 * r = 2^fb T[i] + f (T[i+1] - T[i]), i = a >> fb, f = a mod 2^fb;
 * i >= 255 gives `top`. Exact in uint32 (r < 2^25). */
MRTQ__PRIV uint32_t mrtq__act_interp(uint64_t a, int fb, uint32_t top) {
  uint64_t i = a >> fb;
  uint32_t ta, tb, f;
  if (i >= 255) return top;
  ta = mrtq__sigmoid_t16[i], tb = mrtq__sigmoid_t16[i + 1], f = (uint32_t)(a & ((1u << fb) - 1u));
  return (ta << fb) + f * (tb - ta);
}

/* TFLite's int16 Logistic after its input scaling: v the scaled input. */
MRTQ__PRIV int16_t mrtq__act_logistic16(int64_t v) {
  uint32_t r = mrtq__act_interp((uint64_t)(v < 0 ? -v : v), 9, 32767u << 10);
  r = v >= 0 ? (r + 512u) >> 10 : ((1u << 25) - r + 511u) >> 10;
  return (int16_t)r; /* r <= 32767 */
}

/* TFLite's int16 Tanh after its input scaling: v the scaled input. */
MRTQ__PRIV int16_t mrtq__act_tanh16(int64_t v) {
  int64_t r = (int64_t)mrtq__act_interp((uint64_t)(v < 0 ? -v : v), 8, 65535u << 8);
  r = v >= 0 ? r - (1 << 23) + 128 : (1 << 23) - r + 127;
  return (int16_t)mrtq__asr64(r, 8); /* in [-32767, 32767] */
}

/* A scale argument: finite and > 0. */
MRTQ__PRIV int mrtq__act_scale_ok(float s) { return !mrtq__nonfinite_f32(s) && s > 0; }

/* A Q31 multiplier field as TFLite's MultiplyByQuantizedMultiplier takes it. */
MRTQ__PRIV int mrtq__act_mult_ok(mrtq_mult m) { return m.mult >= 0 && m.shift >= -31 && m.shift <= 30; }

/* mrtq_mult_q31 of a non-negative finite double, refusing a shift above 30. */
MRTQ__PRIV int mrtq__act_q31(double r, mrtq_mult *m) {
  mrtq__mult_encode(r, 31, m);
  return m->shift <= 30;
}


/* in type: S8 / U8, or S16 with `wide`; the refusal names `name`. */
#define MRTQ__ACT_TYPE(t, wide, name)                                                                      \
  (mrtq__dtype_q8(t) || ((wide) && (t) == MRTQ_S16) ? MRTQ_OK                                               \
   : !mrtq__dtype_ok(t) ? MRTQ__ERR(MRTQ_EINVAL, name ": not an mrtq_dtype (0: a zero-initialised struct)") \
                        : MRTQ__ERR(MRTQ_EUNSUPPORTED, name ": not a type this operator takes"))

MRTQ__PRIV mrtq_status mrtq__act_io(const void *p, const void *in, const void *out) {
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!in) return MRTQ__ERR(MRTQ_EINVAL, "in: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  return MRTQ_OK;
}

MRTQ__PRIV int32_t mrtq__act_clamp(int64_t v, mrtq_dtype t) {
  int32_t lo = 0, hi = 0;
  (void)mrtq_dtype_range(t, &lo, &hi);
  return mrtq__clamp64(v, lo, hi);
}

/* ---- RELU ---- */

MRTQ__PRIV mrtq_status mrtq__relu_check(const mrtq_tflite_relu_params *p) {
  mrtq_status st = MRTQ__ACT_TYPE(p->type, 1, "p->type");
  if (st != MRTQ_OK) return st;
  if (!mrtq__in_type(p->in_zp, p->type)) return MRTQ__ERR(MRTQ_EINVAL, "p->in_zp: outside p->type");
  if (!mrtq__in_type(p->out_zp, p->type)) return MRTQ__ERR(MRTQ_EINVAL, "p->out_zp: outside p->type");
  if (!mrtq__in_type(p->qmin, p->type) || !mrtq__in_type(p->qmax, p->type) || p->qmin > p->qmax)
    return MRTQ__ERR(MRTQ_EINVAL, "p->qmin, p->qmax: outside p->type or qmin > qmax");
  if (!mrtq__act_mult_ok(p->m)) return MRTQ__ERR(MRTQ_ERANGE, "p->m: mult negative or shift outside [-31, 30]");
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_relu_init(mrtq_tflite_act act, mrtq_dtype type, float in_scale, int32_t in_zp,
                                           float out_scale, int32_t out_zp, mrtq_tflite_relu_params *out) {
  mrtq_tflite_relu_params r;
  mrtq_status st;
  float ratio;
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (act != MRTQ_TFLITE_ACT_RELU && act != MRTQ_TFLITE_ACT_RELU_N1_TO_1 && act != MRTQ_TFLITE_ACT_RELU6)
    return MRTQ__ERR(MRTQ_EINVAL, "act: must be RELU, RELU_N1_TO_1 or RELU6");
  if ((st = MRTQ__ACT_TYPE(type, 1, "type")) != MRTQ_OK) return st;
  if (!mrtq__act_scale_ok(in_scale)) return MRTQ__ERR(MRTQ_EINVAL, "in_scale: NaN, infinite or <= 0");
  if (!mrtq__act_scale_ok(out_scale)) return MRTQ__ERR(MRTQ_EINVAL, "out_scale: NaN, infinite or <= 0");
  if (!mrtq__in_type(in_zp, type) || (type == MRTQ_S16 && in_zp))
    return MRTQ__ERR(MRTQ_EINVAL, "in_zp: outside type (0 for MRTQ_S16)");
  if (!mrtq__in_type(out_zp, type) || (type == MRTQ_S16 && out_zp))
    return MRTQ__ERR(MRTQ_EINVAL, "out_zp: outside type (0 for MRTQ_S16)");
  memset(&r, 0, sizeof r);
  ratio = mrtq__f32(in_scale / out_scale);
  if (mrtq__nonfinite_f32(ratio) || !mrtq__act_q31((double)ratio, &r.m))
    return MRTQ__ERR(MRTQ_ERANGE, "in_scale / out_scale: 2^30 or more (TFLite's shift overflows)");
  if ((st = mrtq_tflite_act_range(act, out_scale, out_zp, type, &r.qmin, &r.qmax)) != MRTQ_OK) return st;
  r.type = type, r.in_zp = in_zp, r.out_zp = out_zp;
  *out = r;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_relu6_init_micro(mrtq_dtype type, float in_scale, int32_t in_zp,
                                                  mrtq_tflite_relu_params *out) {
  mrtq_tflite_relu_params r;
  mrtq_status st;
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if ((st = MRTQ__ACT_TYPE(type, 1, "type")) != MRTQ_OK) return st;
  if (type == MRTQ_U8) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "type: TFLite Micro's RELU6 takes MRTQ_S8 or MRTQ_S16");
  if (!mrtq__act_scale_ok(in_scale)) return MRTQ__ERR(MRTQ_EINVAL, "in_scale: NaN, infinite or <= 0");
  if (!mrtq__in_type(in_zp, type)) return MRTQ__ERR(MRTQ_EINVAL, "in_zp: outside type");
  memset(&r, 0, sizeof r);
  if ((st = mrtq_tflite_act_range(MRTQ_TFLITE_ACT_RELU6, in_scale, in_zp, type, &r.qmin, &r.qmax)) != MRTQ_OK)
    return st;
  r.type = type, r.in_zp = in_zp, r.out_zp = in_zp;
  r.m.mult = 1073741824, r.m.shift = 1; /* the identity: mrtq_mul_q31_dbl(v, m) = v for |v| < 2^30 */
  *out = r;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_relu(const mrtq_tflite_relu_params *p, size_t n, const void *in, void *out) {
  mrtq_status st = mrtq__act_io(p, in, out);
  size_t i;
  if (st != MRTQ_OK) return st;
  if ((st = mrtq__relu_check(p)) != MRTQ_OK) return st;
  for (i = 0; i < n; i++) {
    int64_t y = (int64_t)p->out_zp + mrtq_mul_q31_dbl(mrtq__load(in, i, p->type) - p->in_zp, p->m);
    mrtq__store(out, i, p->type, mrtq__clamp64(y, p->qmin, p->qmax));
  }
  return MRTQ_OK;
}

/* ---- LEAKY_RELU ---- */

MRTQ__PRIV mrtq_status mrtq__leaky_check(const mrtq_tflite_leaky_relu_params *p) {
  mrtq_status st = MRTQ__ACT_TYPE(p->type, 1, "p->type");
  if (st != MRTQ_OK) return st;
  if (!mrtq__in_type(p->in_zp, p->type)) return MRTQ__ERR(MRTQ_EINVAL, "p->in_zp: outside p->type");
  if (!mrtq__in_type(p->out_zp, p->type)) return MRTQ__ERR(MRTQ_EINVAL, "p->out_zp: outside p->type");
  if (p->alpha_negative != 0 && p->alpha_negative != 1) return MRTQ__ERR(MRTQ_EINVAL, "p->alpha_negative: not 0 or 1");
  if (!mrtq__act_mult_ok(p->identity))
    return MRTQ__ERR(MRTQ_ERANGE, "p->identity: mult negative or shift outside [-31, 30]");
  if (!mrtq__act_mult_ok(p->alpha)) return MRTQ__ERR(MRTQ_ERANGE, "p->alpha: mult negative or shift outside [-31, 30]");
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_leaky_relu_init(mrtq_dtype type, float in_scale, int32_t in_zp, float alpha,
                                                 float out_scale, int32_t out_zp, mrtq_tflite_leaky_relu_params *out) {
  mrtq_tflite_leaky_relu_params r;
  mrtq_status st;
  float ri, ra;
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if ((st = MRTQ__ACT_TYPE(type, 1, "type")) != MRTQ_OK) return st;
  if (!mrtq__act_scale_ok(in_scale)) return MRTQ__ERR(MRTQ_EINVAL, "in_scale: NaN, infinite or <= 0");
  if (!mrtq__act_scale_ok(out_scale)) return MRTQ__ERR(MRTQ_EINVAL, "out_scale: NaN, infinite or <= 0");
  if (mrtq__nonfinite_f32(alpha)) return MRTQ__ERR(MRTQ_EINVAL, "alpha: NaN or infinite");
  if (!mrtq__in_type(in_zp, type)) return MRTQ__ERR(MRTQ_EINVAL, "in_zp: outside type");
  if (!mrtq__in_type(out_zp, type)) return MRTQ__ERR(MRTQ_EINVAL, "out_zp: outside type");
  memset(&r, 0, sizeof r);
  ri = mrtq__f32(in_scale / out_scale);
  ra = mrtq__f32(mrtq__f32(in_scale * alpha) / out_scale);
  if (mrtq__nonfinite_f32(ri) || !mrtq__act_q31((double)ri, &r.identity))
    return MRTQ__ERR(MRTQ_ERANGE, "in_scale / out_scale: 2^30 or more (TFLite's shift overflows)");
  if (mrtq__nonfinite_f32(ra) || !mrtq__act_q31(ra < 0 ? -(double)ra : (double)ra, &r.alpha))
    return MRTQ__ERR(MRTQ_ERANGE, "in_scale * alpha / out_scale: magnitude 2^30 or more (TFLite's shift overflows)");
  r.alpha_negative = ra < 0 && r.alpha.mult != 0; /* the sign of TFLite's stored multiplier (0 when it flushed) */
  r.type = type, r.in_zp = in_zp, r.out_zp = out_zp;
  *out = r;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_leaky_relu(const mrtq_tflite_leaky_relu_params *p, size_t n, const void *in,
                                            void *out) {
  mrtq_status st = mrtq__act_io(p, in, out);
  size_t i;
  if (st != MRTQ_OK) return st;
  if ((st = mrtq__leaky_check(p)) != MRTQ_OK) return st;
  for (i = 0; i < n; i++) {
    int32_t v = mrtq__load(in, i, p->type) - p->in_zp;
    int64_t y = p->out_zp;
    if (v >= 0) {
      y += mrtq_mul_q31_dbl(v, p->identity);
    } else {
      int64_t t = mrtq_mul_q31_dbl(v, p->alpha);
      y += p->alpha_negative ? -t : t;
    }
    mrtq__store(out, i, p->type, mrtq__act_clamp(y, p->type));
  }
  return MRTQ_OK;
}

/* ---- PRELU ---- */

MRTQ__PRIV mrtq_status mrtq__prelu_check(const mrtq_tflite_prelu_params *p) {
  mrtq_status st = MRTQ__ACT_TYPE(p->type, 1, "p->type");
  if (st != MRTQ_OK) return st;
  if (!mrtq__dtype_ok(p->alpha_type))
    return MRTQ__ERR(MRTQ_EINVAL, "p->alpha_type: not an mrtq_dtype (0: a zero-initialised struct)");
  if (p->alpha_type != (p->type == MRTQ_S16 ? MRTQ_S8 : p->type))
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "p->alpha_type: must be p->type (8-bit) or MRTQ_S8 (p->type MRTQ_S16)");
  if (!mrtq__in_type(p->in_zp, p->type)) return MRTQ__ERR(MRTQ_EINVAL, "p->in_zp: outside p->type");
  if (!mrtq__in_type(p->alpha_zp, p->alpha_type)) return MRTQ__ERR(MRTQ_EINVAL, "p->alpha_zp: outside p->alpha_type");
  if (!mrtq__in_type(p->out_zp, p->type)) return MRTQ__ERR(MRTQ_EINVAL, "p->out_zp: outside p->type");
  if (!mrtq__act_mult_ok(p->m1)) return MRTQ__ERR(MRTQ_ERANGE, "p->m1: mult negative or shift outside [-31, 30]");
  if (!mrtq__act_mult_ok(p->m2)) return MRTQ__ERR(MRTQ_ERANGE, "p->m2: mult negative or shift outside [-31, 30]");
  return MRTQ_OK;
}

/* Both inits: r1 = in / out and r2 = in * alpha / out as the chosen TFLite
 * computes them (r2 < 0: that product or quotient overflowed). */
MRTQ__PRIV mrtq_status mrtq__prelu_init(mrtq_dtype type, float in_scale, int32_t in_zp, float alpha_scale,
                                        int32_t alpha_zp, float out_scale, int32_t out_zp, int micro,
                                        mrtq_tflite_prelu_params *out) {
  mrtq_tflite_prelu_params r;
  mrtq_status st;
  double r1, r2;
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if ((st = MRTQ__ACT_TYPE(type, 1, "type")) != MRTQ_OK) return st;
  if (micro && type == MRTQ_U8) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "type: TFLite Micro's PRELU takes MRTQ_S8 or MRTQ_S16");
  if (!micro && type == MRTQ_S16)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "type: the TF interpreter's PRELU takes MRTQ_S8 or MRTQ_U8");
  if (!mrtq__act_scale_ok(in_scale)) return MRTQ__ERR(MRTQ_EINVAL, "in_scale: NaN, infinite or <= 0");
  if (!mrtq__act_scale_ok(alpha_scale)) return MRTQ__ERR(MRTQ_EINVAL, "alpha_scale: NaN, infinite or <= 0");
  if (!mrtq__act_scale_ok(out_scale)) return MRTQ__ERR(MRTQ_EINVAL, "out_scale: NaN, infinite or <= 0");
  memset(&r, 0, sizeof r);
  r.type = type, r.alpha_type = type == MRTQ_S16 ? MRTQ_S8 : type;
  if (!mrtq__in_type(in_zp, type)) return MRTQ__ERR(MRTQ_EINVAL, "in_zp: outside type");
  if (!mrtq__in_type(alpha_zp, r.alpha_type)) return MRTQ__ERR(MRTQ_EINVAL, "alpha_zp: outside the alpha type");
  if (!mrtq__in_type(out_zp, type)) return MRTQ__ERR(MRTQ_EINVAL, "out_zp: outside type");
  if (micro) {
    r1 = (double)in_scale / (double)out_scale;
    r2 = mrtq__f64((double)in_scale * (double)alpha_scale) / (double)out_scale;
  } else {
    float f1 = mrtq__f32(in_scale / out_scale), f2 = mrtq__f32(mrtq__f32(in_scale * alpha_scale) / out_scale);
    r1 = !mrtq__nonfinite_f32(f1) ? (double)f1 : -1.0;
    r2 = !mrtq__nonfinite_f32(f2) ? (double)f2 : -1.0;
  }
  if (r1 < 0 || !mrtq__act_q31(r1, &r.m1))
    return MRTQ__ERR(MRTQ_ERANGE, "in_scale / out_scale: overflows or is 2^30 or more (TFLite's shift overflows)");
  if (r2 < 0 || mrtq__nonfinite(r2) || !mrtq__act_q31(r2, &r.m2))
    return MRTQ__ERR(MRTQ_ERANGE, "in_scale * alpha_scale / out_scale: overflows or is 2^30 or more");
  r.in_zp = in_zp, r.alpha_zp = alpha_zp, r.out_zp = out_zp;
  *out = r;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_prelu_init(mrtq_dtype type, float in_scale, int32_t in_zp, float alpha_scale,
                                            int32_t alpha_zp, float out_scale, int32_t out_zp,
                                            mrtq_tflite_prelu_params *out) {
  return mrtq__prelu_init(type, in_scale, in_zp, alpha_scale, alpha_zp, out_scale, out_zp, 0, out);
}

MRTQ_API mrtq_status mrtq_tflite_prelu_init_micro(mrtq_dtype type, float in_scale, int32_t in_zp, float alpha_scale,
                                                  int32_t alpha_zp, float out_scale, int32_t out_zp,
                                                  mrtq_tflite_prelu_params *out) {
  return mrtq__prelu_init(type, in_scale, in_zp, alpha_scale, alpha_zp, out_scale, out_zp, 1, out);
}

MRTQ_API mrtq_status mrtq_tflite_prelu(const mrtq_tflite_prelu_params *p, const size_t *in_shape, int in_ndim,
                                       const size_t *alpha_shape, int alpha_ndim, const void *in, const void *alpha,
                                       void *out) {
  mrtq_status st = mrtq__act_io(p, in, out);
  mrtq_bcast bc;
  size_t i;
  int d;
  if (st != MRTQ_OK) return st;
  if (!alpha) return MRTQ__ERR(MRTQ_EINVAL, "alpha: NULL");
  if ((st = mrtq__prelu_check(p)) != MRTQ_OK) return st;
  if ((st = mrtq_bcast_init(in_shape, in_ndim, alpha_shape, alpha_ndim, &bc)) != MRTQ_OK) return st;
  if (bc.ndim != in_ndim) return MRTQ__ERR(MRTQ_ESHAPE, "alpha_shape: more dimensions than in_shape (the output would grow)");
  for (d = 0; d < in_ndim; d++)
    if (bc.out[d] != in_shape[d]) return MRTQ__ERR(MRTQ_ESHAPE, "alpha_shape: broadcasting would grow the input's shape");
  for (i = 0; i < bc.n; i++) {
    size_t ia, ib;
    int32_t v, y;
    mrtq__bcast_at(&bc, i, &ia, &ib);
    v = mrtq__load(in, ia, p->type) - p->in_zp;
    y = v >= 0 ? mrtq_mul_q31_dbl(v, p->m1)
               : mrtq_mul_q31_dbl(v * (mrtq__load(alpha, ib, p->alpha_type) - p->alpha_zp), p->m2); /* |.| < 2^25 */
    mrtq__store(out, ia, p->type, mrtq__act_clamp((int64_t)y + p->out_zp, p->type));
  }
  return MRTQ_OK;
}

/* ---- HARD_SWISH ---- */

/* gemmlowp's RoundingDivideByPOT on int16 for exponent k in [0, 31]: its mask
 * (1 << k) - 1 is taken to 16 bits, so k >= 16 gives 1 (v >= 0) or -1. */
MRTQ__PRIV int32_t mrtq__rdivpot16(int32_t v, int k) {
  if (k >= 16) return v >= 0 ? 1 : -1;
  return mrtq_rdivpot(v, k);
}

/* reference_ops::SaturatingLeftShift: v 2^k saturated to int16, k in [0, 30]. */
MRTQ__PRIV int32_t mrtq__shl_sat16(int32_t v, int k) { return mrtq__clamp64((int64_t)v * ((int64_t)1 << k), -32768, 32767); }

/* DownScaleInt32ToInt16Multiplier. */
MRTQ__PRIV int16_t mrtq__hs_down16(int32_t m) {
  if (m >= INT32_MAX - 32768) return 32767;
  return (int16_t)((m + 32768) >> 16);
}

MRTQ__PRIV mrtq_status mrtq__hs_check(const mrtq_tflite_hard_swish_params *p) {
  mrtq_status st = MRTQ__ACT_TYPE(p->type, 0, "p->type");
  if (st != MRTQ_OK) return st;
  if (!mrtq__in_type(p->in_zp, p->type)) return MRTQ__ERR(MRTQ_EINVAL, "p->in_zp: outside p->type");
  if (!mrtq__in_type(p->out_zp, p->type)) return MRTQ__ERR(MRTQ_EINVAL, "p->out_zp: outside p->type");
  if (p->output_multiplier_fixedpoint_int16 < 0)
    return MRTQ__ERR(MRTQ_ERANGE, "p->output_multiplier_fixedpoint_int16: negative");
  if (p->output_multiplier_exponent < -31 || p->output_multiplier_exponent > 0)
    return MRTQ__ERR(MRTQ_ERANGE, "p->output_multiplier_exponent: outside [-31, 0]");
  if (p->reluish_multiplier_fixedpoint_int16 < 0)
    return MRTQ__ERR(MRTQ_ERANGE, "p->reluish_multiplier_fixedpoint_int16: negative");
  if (p->reluish_multiplier_exponent < -31 || p->reluish_multiplier_exponent > 31)
    return MRTQ__ERR(MRTQ_ERANGE, "p->reluish_multiplier_exponent: outside [-31, 31]");
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_hard_swish_init(mrtq_dtype type, float in_scale, int32_t in_zp, float out_scale,
                                                 int32_t out_zp, mrtq_tflite_hard_swish_params *out) {
  mrtq_tflite_hard_swish_params r;
  mrtq_status st;
  mrtq_mult mo, mr;
  float hires, fo, fr;
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if ((st = MRTQ__ACT_TYPE(type, 0, "type")) != MRTQ_OK) return st;
  if (!mrtq__act_scale_ok(in_scale)) return MRTQ__ERR(MRTQ_EINVAL, "in_scale: NaN, infinite or <= 0");
  if (!mrtq__act_scale_ok(out_scale)) return MRTQ__ERR(MRTQ_EINVAL, "out_scale: NaN, infinite or <= 0");
  if (!mrtq__in_type(in_zp, type)) return MRTQ__ERR(MRTQ_EINVAL, "in_zp: outside type");
  if (!mrtq__in_type(out_zp, type)) return MRTQ__ERR(MRTQ_EINVAL, "out_zp: outside type");
  hires = mrtq__f32(0.0078125f * in_scale);
  fo = mrtq__f32(hires / out_scale);
  fr = mrtq__f32(hires / mrtq__f32(3.0f / 32768.0f));
  if (mrtq__nonfinite_f32(fo)) return MRTQ__ERR(MRTQ_ERANGE, "in_scale / out_scale: 128 or more (TFLite refuses: output exponent above 0)");
  mrtq__mult_encode((double)fo, 31, &mo);
  if (mo.shift > 0) return MRTQ__ERR(MRTQ_ERANGE, "in_scale / out_scale: 128 or more (TFLite refuses: output exponent above 0)");
  if (!mrtq__nonfinite_f32(fr)) mrtq__mult_encode((double)fr, 31, &mr);
  if (mrtq__nonfinite_f32(fr) || mr.shift > 31) return MRTQ__ERR(MRTQ_ERANGE, "in_scale: too large (reluish exponent above 31; TFLite's shift overflows)");
  memset(&r, 0, sizeof r);
  r.type = type, r.in_zp = in_zp, r.out_zp = out_zp;
  r.output_multiplier_fixedpoint_int16 = mrtq__hs_down16(mo.mult);
  r.output_multiplier_exponent = mo.shift;
  r.reluish_multiplier_fixedpoint_int16 = mrtq__hs_down16(mr.mult);
  r.reluish_multiplier_exponent = mr.shift;
  *out = r;
  return MRTQ_OK;
}

MRTQ__PRIV int32_t mrtq__hs_one(const mrtq_tflite_hard_swish_params *p, int32_t x) {
  const int32_t h = (x - p->in_zp) * 128; /* |x - zp| <= 255 */
  const int32_t o = mrtq__fx_mul(h, p->output_multiplier_fixedpoint_int16, 16);
  const int e = p->reluish_multiplier_exponent;
  int32_t r = h, pr;
  if (e > 0) r = mrtq__shl_sat16(r, e - 1);
  r = mrtq__fx_mul(r, p->reluish_multiplier_fixedpoint_int16, 16);
  if (e > 0) r = mrtq__shl_sat16(r, 1);
  if (e < 0) r = mrtq__rdivpot16(r, -e);
  r = (r + 32768) >> 1;              /* r + 2^15 in [0, 65535]: a plain shift */
  pr = (int32_t)((r * o) / 32768);   /* C division truncates toward zero, as TFLite's */
  pr = mrtq__rdivpot16(pr, -p->output_multiplier_exponent) + p->out_zp;
  pr = (int32_t)((uint32_t)(pr + 32768) & 0xFFFFu) - 32768; /* TFLite's int16 sum wraps */
  return mrtq__act_clamp(pr, p->type);
}

MRTQ_API mrtq_status mrtq_tflite_hard_swish(const mrtq_tflite_hard_swish_params *p, size_t n, const void *in,
                                            void *out) {
  mrtq_status st = mrtq__act_io(p, in, out);
  size_t i;
  if (st != MRTQ_OK) return st;
  if ((st = mrtq__hs_check(p)) != MRTQ_OK) return st;
  for (i = 0; i < n; i++) mrtq__store(out, i, p->type, mrtq__hs_one(p, mrtq__load(in, i, p->type)));
  return MRTQ_OK;
}

/* ---- LOGISTIC / TANH int8, fixed point ---- */

MRTQ__PRIV mrtq_status mrtq__fx8_check(const mrtq_tflite_fx8_params *p) {
  if (p->input_zp < -128 || p->input_zp > 127) return MRTQ__ERR(MRTQ_ERANGE, "p->input_zp: outside int8");
  if (p->input_range_radius < 0) return MRTQ__ERR(MRTQ_ERANGE, "p->input_range_radius: negative");
  if (p->input_multiplier < 0) return MRTQ__ERR(MRTQ_ERANGE, "p->input_multiplier: negative");
  if (p->input_left_shift < 0 || p->input_left_shift > 62)
    return MRTQ__ERR(MRTQ_ERANGE, "p->input_left_shift: outside [0, 62]");
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_fx8_init(float in_scale, int32_t in_zp, mrtq_tflite_fx8_params *out) {
  mrtq_tflite_fx8_params r;
  double q;
  int e = 0;
  int64_t t;
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (!mrtq__act_scale_ok(in_scale)) return MRTQ__ERR(MRTQ_EINVAL, "in_scale: NaN, infinite or <= 0");
  if (in_zp < -128 || in_zp > 127) return MRTQ__ERR(MRTQ_EINVAL, "in_zp: outside int8");
  q = mrtq__frexp((double)in_scale * 134217728.0, &e); /* exact: a float times 2^27 */
  if (e < 0 || e > 62)
    return MRTQ__ERR(MRTQ_ERANGE, "in_scale: below 2^-28 or 2^35 or more (TFLite's input radius shifts by a negative amount or overflows)");
  t = (int64_t)(q * 2147483648.0); /* q has 24 significant bits: q 2^31 is an integer below 2^31 */
  memset(&r, 0, sizeof r);
  r.input_zp = in_zp;
  r.input_multiplier = (int32_t)t;
  r.input_left_shift = e;
  r.input_range_radius = e >= 31 ? 0 : (int32_t)(((int64_t)15 << 27) >> e); /* floor: exact */
  *out = r;
  return MRTQ_OK;
}

/* which: 0 logistic, 1 tanh. */
MRTQ__PRIV mrtq_status mrtq__fx8_run(const mrtq_tflite_fx8_params *p, size_t n, const int8_t *in, int8_t *out,
                                     int which) {
  mrtq_status st = mrtq__act_io(p, in, out);
  size_t i;
  if (st != MRTQ_OK) return st;
  if ((st = mrtq__fx8_check(p)) != MRTQ_OK) return st;
  for (i = 0; i < n; i++) {
    const int32_t v = (int32_t)in[i] - p->input_zp;
    int32_t y;
    if (v <= -p->input_range_radius) {
      y = -128;
    } else if (v >= p->input_range_radius) {
      y = 127;
    } else {
      mrtq_mult m;
      int32_t q4;
      m.mult = p->input_multiplier, m.shift = p->input_left_shift;
      q4 = mrtq_mul_q31_dbl(v, m);
      y = which ? mrtq_rdivpot(mrtq__fx_tanh(q4, 4, 32), 24) : mrtq_rdivpot(mrtq__fx_logistic(q4, 4, 32), 23) - 128;
      y = y < -128 ? -128 : y > 127 ? 127 : y;
    }
    out[i] = (int8_t)y;
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_logistic(const mrtq_tflite_fx8_params *p, size_t n, const int8_t *in, int8_t *out) {
  return mrtq__fx8_run(p, n, in, out, 0);
}

MRTQ_API mrtq_status mrtq_tflite_tanh(const mrtq_tflite_fx8_params *p, size_t n, const int8_t *in, int8_t *out) {
  return mrtq__fx8_run(p, n, in, out, 1);
}

/* ---- LOGISTIC / TANH int8 / uint8, float table ---- */

/* which: 0 logistic (f = expf), 1 tanh (f = tanhf). */
MRTQ__PRIV mrtq_status mrtq__lut8_init(mrtq_dtype type, float in_scale, int32_t in_zp, float out_scale, int32_t out_zp,
                                       float (*f)(float), int which, mrtq_tflite_lut8_params *out) {
  mrtq_tflite_lut8_params r;
  mrtq_status st;
  int32_t lo = 0, hi = 0, x;
  float inv;
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (!f) return which ? MRTQ__ERR(MRTQ_EINVAL, "tanhf_fn: NULL") : MRTQ__ERR(MRTQ_EINVAL, "expf_fn: NULL");
  if ((st = MRTQ__ACT_TYPE(type, 0, "type")) != MRTQ_OK) return st;
  if (!mrtq__act_scale_ok(in_scale)) return MRTQ__ERR(MRTQ_EINVAL, "in_scale: NaN, infinite or <= 0");
  if (!mrtq__act_scale_ok(out_scale) || !(out_scale >= 1.17549435082228750797e-38f /* 2^-126 */))
    return MRTQ__ERR(MRTQ_EINVAL, "out_scale: NaN, infinite or below 2^-126");
  if (!mrtq__in_type(in_zp, type)) return MRTQ__ERR(MRTQ_EINVAL, "in_zp: outside type");
  if (!mrtq__in_type(out_zp, type)) return MRTQ__ERR(MRTQ_EINVAL, "out_zp: outside type");
  (void)mrtq_dtype_range(type, &lo, &hi);
  memset(&r, 0, sizeof r);
  r.type = type;
  inv = mrtq__f32(1.0f / out_scale);
  for (x = lo; x <= hi; x++) {
    float d = mrtq__f32(in_scale * (float)(x - in_zp));
    float t = which ? f(d) : mrtq__f32(1.0f / mrtq__f32(1.0f + f(-d)));
    float s = mrtq__f32(mrtq__round_away_f32(mrtq__f32(t * inv)) + (float)out_zp);
    int32_t q = s != s ? lo : s >= 2147483648.0f ? hi : s <= -2147483648.0f ? lo : mrtq__clamp64((int64_t)s, lo, hi);
    r.table[(uint8_t)(x & 255)] = (uint8_t)(q & 255);
  }
  *out = r;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_logistic_lut_init(mrtq_dtype type, float in_scale, int32_t in_zp, float out_scale,
                                                   int32_t out_zp, float (*expf_fn)(float),
                                                   mrtq_tflite_lut8_params *out) {
  return mrtq__lut8_init(type, in_scale, in_zp, out_scale, out_zp, expf_fn, 0, out);
}

MRTQ_API mrtq_status mrtq_tflite_tanh_lut_init(mrtq_dtype type, float in_scale, int32_t in_zp, float out_scale,
                                               int32_t out_zp, float (*tanhf_fn)(float), mrtq_tflite_lut8_params *out) {
  return mrtq__lut8_init(type, in_scale, in_zp, out_scale, out_zp, tanhf_fn, 1, out);
}

MRTQ_API mrtq_status mrtq_tflite_lut8(const mrtq_tflite_lut8_params *p, size_t n, const void *in, void *out) {
  mrtq_status st = mrtq__act_io(p, in, out);
  const uint8_t *x = (const uint8_t *)in;
  uint8_t *y = (uint8_t *)out;
  size_t i;
  if (st != MRTQ_OK) return st;
  if ((st = MRTQ__ACT_TYPE(p->type, 0, "p->type")) != MRTQ_OK) return st;
  for (i = 0; i < n; i++) y[i] = p->table[x[i]];
  return MRTQ_OK;
}

/* ---- LOGISTIC / TANH int16 ---- */

/* tanh: 1 (the power-of-two form also takes shift 1). */
MRTQ__PRIV mrtq_status mrtq__fx16_init(float in_scale, int tanh, mrtq_tflite_fx16_params *out) {
  mrtq_tflite_fx16_params r;
  int k = 0, shift;
  double m;
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (!mrtq__act_scale_ok(in_scale)) return MRTQ__ERR(MRTQ_EINVAL, "in_scale: NaN, infinite or <= 0");
  memset(&r, 0, sizeof r);
  if (mrtq__pot_log2((double)in_scale, &k) && (12 + k == 0 || (tanh && 12 + k == 1))) {
    r.input_multiplier = 0, r.input_left_shift = 12 + k;
    *out = r;
    return MRTQ_OK;
  }
  m = (double)in_scale * 4096.0 * 3.0;
  for (shift = 0; m <= 32767.0 / 2.0 && shift <= 30; shift++) m *= 2.0;
  if (m >= 32768.0) return MRTQ__ERR(MRTQ_ERANGE, "in_scale: 32768 / 12288 or more (TFLite's input multiplier exceeds 32767)");
  if (m < 1.0) return MRTQ__ERR(MRTQ_ERANGE, "in_scale: too small (TFLite's input multiplier truncates to 0)");
  r.input_multiplier = (int32_t)m, r.input_left_shift = shift;
  *out = r;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_logistic16_init(float in_scale, mrtq_tflite_fx16_params *out) {
  return mrtq__fx16_init(in_scale, 0, out);
}

MRTQ_API mrtq_status mrtq_tflite_tanh16_init(float in_scale, mrtq_tflite_fx16_params *out) {
  return mrtq__fx16_init(in_scale, 1, out);
}

MRTQ__PRIV mrtq_status mrtq__fx16_run(const mrtq_tflite_fx16_params *p, size_t n, const int16_t *in, int16_t *out,
                                      int tanh) {
  mrtq_status st = mrtq__act_io(p, in, out);
  int64_t mult, rnd;
  int shift;
  size_t i;
  if (st != MRTQ_OK) return st;
  if (p->input_multiplier < 0 || p->input_multiplier > 32767)
    return MRTQ__ERR(MRTQ_ERANGE, "p->input_multiplier: outside [0, 32767]");
  if (p->input_left_shift < 0 || p->input_left_shift > (p->input_multiplier ? 31 : 1))
    return MRTQ__ERR(MRTQ_ERANGE, "p->input_left_shift: outside [0, 31] ([0, 1] with input_multiplier 0)");
  mult = p->input_multiplier ? p->input_multiplier : 3 << p->input_left_shift;
  shift = p->input_multiplier ? p->input_left_shift : 0;
  rnd = shift > 0 ? (int64_t)1 << (shift - 1) : 0;
  for (i = 0; i < n; i++) {
    int64_t v = mrtq__asr64((int64_t)in[i] * mult + rnd, shift); /* |x M| < 2^30 */
    out[i] = tanh ? mrtq__act_tanh16(v) : mrtq__act_logistic16(v);
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_logistic16(const mrtq_tflite_fx16_params *p, size_t n, const int16_t *in,
                                            int16_t *out) {
  return mrtq__fx16_run(p, n, in, out, 0);
}

MRTQ_API mrtq_status mrtq_tflite_tanh16(const mrtq_tflite_fx16_params *p, size_t n, const int16_t *in, int16_t *out) {
  return mrtq__fx16_run(p, n, in, out, 1);
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_ACTIVATION_H */
