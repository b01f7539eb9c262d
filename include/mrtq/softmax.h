/* mrtq/softmax.h -- TFLite SOFTMAX on quantized tensors, bit-exact with
 * TFLite's kernels (includes mrtq/fxmath.h, mrtq/requant.h, mrtq/scale.h and
 * mrtq/attr.h; included by mrtq.h). No libm: the functions that build a table
 * of exp, as TFLite does with its libm, take that exp function as an argument
 * (pass the C library's exp / expf; their results are what TFLite's tables
 * hold when it is built against the same libm). Rows are the last axis: `rows` rows of `depth`
 * elements each, row-major.
 *
 *   function                  in -> out                  TFLite kernel (Prepare)
 *   mrtq_tflite_softmax       int8 -> int8 / int16,      reference_ops::Softmax (reference/softmax.h),
 *                             uint8 -> uint8 / int16     gemmlowp fixed point; parameters from
 *                                                        PreprocessSoftmaxScaling / CalculateInputRadius
 *                                                        (TFLite Micro's softmax_common.cc and the TF
 *                                                        interpreter's reference registration compute them
 *                                                        alike, in double)
 *   mrtq_tflite_softmax16     int16 -> int16             reference_ops::SoftmaxInt16: two 513-entry
 *                                                        int16 tables (exp, 1/(1+x)) with linear
 *                                                        interpolation; _init = TF interpreter
 *                                                        (tables in double, scale * beta in float),
 *                                                        _init_micro = TFLite Micro (tables in float,
 *                                                        scale * beta in double)
 *   mrtq_tflite_softmax_lut   int8 -> int8 / int16,      optimized_ops::Softmax with
 *                             uint8 -> uint8 / int16     PopulateSoftmaxLookupTable: the TF interpreter's
 *                                                        default kernel (a float exp table, float sums)
 *
 * Normative formulas, tie rules and the versions read: docs/kernels.md 4.12;
 * the fixed-point functions: docs/semantics.md 4a. Every refusal names the
 * argument and writes nothing (the kernels check the whole input first where
 * a row could fail). */
#ifndef MRTQ_SOFTMAX_H
#define MRTQ_SOFTMAX_H

#include "attr.h"
#include "fxmath.h"
#include "requant.h"
#include "scale.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* ---- int8 / uint8 reference (gemmlowp) ---- */
typedef struct mrtq_tflite_softmax_params {
  int32_t input_multiplier; /* Q31 multiplier of beta * input_scale * 2^26, in [0, 2^31 - 1] */
  int32_t input_left_shift; /* its exponent, in [0, 31] (TFLite: [1, 31]) */
  int32_t diff_min;         /* <= 0: differences below it contribute nothing */
} mrtq_tflite_softmax_params;

/* What TFLite's Prepare computes for an int8 / uint8 softmax from the input's
 * float scale and the operator's float beta (both widened to double):
 *   r = min(beta * input_scale * 2^26, 2^31 - 1)           (exact in double)
 *   {input_multiplier, input_left_shift} = mrtq_mult_q31(r)
 *   diff_min = -floor((2^5 - 1) * 2^26 / 2^input_left_shift)
 * (PreprocessSoftmaxScaling with 5 integer bits, QuantizeMultiplierGreaterThanOne,
 * CalculateInputRadius(5, left_shift, 31); kernels/internal/quantization_util.cc).
 * Errors (nothing written): out NULL -> MRTQ_EINVAL; input_scale or beta NaN
 * or infinite -> MRTQ_EINVAL; beta * input_scale * 2^26 <= 1 (TFLite's
 * QuantizeMultiplierGreaterThanOne aborts; negative and zero beta included)
 * -> MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_tflite_softmax_init(float input_scale, float beta, mrtq_tflite_softmax_params *out);

/* The parameters from the integers TFLite stores (SoftmaxParams
 * input_multiplier, input_left_shift, diff_min), checked as the kernel checks
 * a struct: input_multiplier in [0, 2^31 - 1], input_left_shift in [0, 31],
 * diff_min in [-2^31 / 2^input_left_shift, 0] (so that diff * 2^left_shift
 * cannot overflow int32, as TFLite's code assumes). Errors: out NULL ->
 * MRTQ_EINVAL; a value outside its range -> MRTQ_ERANGE naming it. */
MRTQ_API mrtq_status mrtq_tflite_softmax_init_mult(int32_t input_multiplier, int input_left_shift, int32_t diff_min,
                                                   mrtq_tflite_softmax_params *out);

/* TFLite's reference softmax on `rows` rows of `depth` int8 or uint8 values.
 * Per row, with M = the row's maximum and d = x - M (<= 0):
 *   e(d) = d < diff_min ? none
 *        : exp_neg(mul_q31_dbl(d, {input_multiplier, input_left_shift}), 5)  (Q5.26 -> Q0.31)
 *   S = sum over the row of rescale(e(d), 0 -> 12)   (Q12.19, each term rounded
 *       half away from zero; summed exactly -- see the refusal below)
 *   c = clz32(S); r = one_over_one_plus_x(S * 2^c - 2^31)   (1 / (S 2^c / 2^31), Q0.31)
 *   k = (12 - c) + 31 - B          (B = 8 for 8-bit outputs, 16 for int16)
 *   y = rdivpot(srdhm(r, e(d)), k) + qmin(out_type), clamped to out_type;
 *       qmin(out_type) when e(d) is none.
 * The output scale is 1/256 (int8: zero point -128, uint8: 0) or 1/65536
 * (int16: zero point -32768): what the kernel's arithmetic produces (which
 * of them each TFLite checks on the output tensor: docs/kernels.md 4.12). Ties:
 * SRDHM toward +infinity, rdivpot and the rescale away from zero. Bit-exact
 * with reference_ops::Softmax (tflite-micro 90b983c2, unchanged in TF 2.x) for
 * every input it accepts.
 * in_type MRTQ_S8 or MRTQ_U8; out_type equal to in_type or MRTQ_S16.
 * Errors: p, in or out NULL -> MRTQ_EINVAL; rows * depth overflowing size_t
 * -> MRTQ_ESHAPE; a type outside the enum -> MRTQ_EINVAL, another type or
 * pair -> MRTQ_EUNSUPPORTED; a struct outside mrtq_tflite_softmax_init_mult's
 * ranges -> MRTQ_ERANGE naming the field; a row whose S reaches 2^28 with an
 * 8-bit output (k > 31: TFLite's reference aborts on its TFLITE_CHECK; e.g.
 * 512 equal values) or exceeds 2^31 - 1 with an int16 output (TFLite's int32
 * sum overflows; only possible for depth >= 4096) -> MRTQ_ERANGE ("in: ..."),
 * found before anything is written. */
MRTQ_API mrtq_status mrtq_tflite_softmax(const mrtq_tflite_softmax_params *p, size_t rows, size_t depth, const void *in,
                                         mrtq_dtype in_type, mrtq_dtype out_type, void *out);

/* ---- int16 (tables) ---- */
#define MRTQ_TFLITE_SOFTMAX16_LUT 513
typedef struct mrtq_tflite_softmax16_params {
  int32_t input_multiplier; /* Q31 multiplier of input_scale * beta / (10 / 65535), in [0, 2^31 - 1] */
  int32_t input_left_shift; /* its shift, in [-31, 15] */
  int16_t exp_lut[MRTQ_TFLITE_SOFTMAX16_LUT];                 /* exp(x), x in [-10, 0]; entries in [0, 32767] */
  int16_t one_over_one_plus_x_lut[MRTQ_TFLITE_SOFTMAX16_LUT]; /* 1/(1+x), x in [0, 1]; entries in [0, 32767] */
} mrtq_tflite_softmax16_params;

/* What the TF interpreter's SoftmaxPrepare (kernels/activations.cc) computes
 * for int16 -> int16, with exp_fn in place of std::exp(double):
 *   m = fl32(input_scale * beta) / (10.0 / 65535.0)   (float product, then double)
 *   {input_multiplier, input_left_shift} = mrtq_mult_q31(m)
 *   the tables in double: LUTPopulate<int16_t>'s double form (TF 2.13 and
 *   later; gen_lut in TF 2.4 - 2.12 gives the same 513 values, checked by
 *   tests/test_softmax.c) over 512 steps with a bias correcting the midpoint
 *   of each interpolation segment (docs/kernels.md 4.12); exp_fn(x) is called
 *   for x in [-10, 0] (pass exp from <math.h>); the 1/(1+x) table needs no
 *   libm. Any value exp_fn returns is defined (NaN stores 0).
 * Errors (nothing written): out or exp_fn NULL, input_scale or beta NaN or infinite,
 * input_scale <= 0 or beta < 0 -> MRTQ_EINVAL (TFLite accepts a negative
 * beta here; mrtq refuses it); m that encodes with shift > 15 (m >= 2^15
 * after rounding, input_scale * beta about 5.0001 or more: every nonzero
 * difference then lies below -10, and TFLite's MultiplyByQuantizedMultiplier
 * overflows int32 on it) -> MRTQ_ERANGE; a float product input_scale * beta
 * that overflows (TF interpreter form only) -> MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_tflite_softmax16_init(float input_scale, float beta, double (*exp_fn)(double),
                                                mrtq_tflite_softmax16_params *out);

/* The same for TFLite Micro (micro/kernels/softmax_common.cc
 * CalculateSoftmaxParams): m = (double)input_scale * (double)beta /
 * (10.0 / 65535.0), and the tables in float (LUTPopulate<int16_t>'s float
 * form with expf_fn -- pass expf -- and 1.0f / (1.0f + x)). Same errors
 * (expf_fn NULL -> MRTQ_EINVAL). */
MRTQ_API mrtq_status mrtq_tflite_softmax16_init_micro(float input_scale, float beta, float (*expf_fn)(float),
                                                      mrtq_tflite_softmax16_params *out);

/* TFLite's reference_ops::SoftmaxInt16 (input and output zero points 0,
 * output scale 1/32768). Per row, M = the row's maximum, d = x - M:
 *   e(d) = lut(exp_lut, clamp(mul_q31_dbl(d, {mult, shift}) + 32767, -32768, 32767))
 *   S = sum of e(d) (int32);  c = clz32(S)
 *   s = floor((S * 2^(c-1) + 2^13) / 2^14) - 98304, clamped to int16
 *   r = lut(one_over_one_plus_x_lut, s)
 *   y = clamp(floor((e(d) * r + 2^(30-c)) / 2^(31-c)), 0, 32767)
 * where lut(t, v) = t[256 + (v >> 7)] + floor(((t[i+1] - t[i]) * (v & 127) + 64) / 128)
 * (i = 256 + floor(v / 128); ties toward +infinity). Bit-exact with TFLite's
 * reference for every input it computes without undefined behaviour; where
 * TFLite's shifts are undefined (S == 0 or 1, only with hand-made tables)
 * mrtq defines y = 0 (S == 0) and uses no rounding term (S == 1).
 * Errors: p, in or out NULL -> MRTQ_EINVAL; rows * depth overflowing size_t ->
 * MRTQ_ESHAPE; a struct outside the field ranges above -> MRTQ_ERANGE naming
 * the field; a row whose S exceeds 2^31 - 1 (TFLite's int32 sum overflows;
 * only possible for depth > 65538) -> MRTQ_ERANGE ("in: ..."), found before
 * anything is written. in and out may be the same array. */
MRTQ_API mrtq_status mrtq_tflite_softmax16(const mrtq_tflite_softmax16_params *p, size_t rows, size_t depth,
                                           const int16_t *in, int16_t *out);

/* ---- the TF interpreter's default int8 / uint8 kernel (float table) ---- */
typedef struct mrtq_tflite_softmax_lut_params {
  float table[256];     /* table[255 - k] = expf(fl(-input_scale * beta) * k), k = 0..255 */
  float output_scale;   /* in [2^-126, FLT_MAX] */
  int32_t output_zp;    /* in out_type's range */
  int32_t u8_add_half;  /* 0: round half away from zero (std::round); 1: uint8 output as x86 builds round it */
} mrtq_tflite_softmax_lut_params;

/* PopulateSoftmaxLookupTable (optimized_ops.h) and the output quantization of
 * the TF interpreter's SoftmaxPrepare: table[255 - k] = expf(s * k) in float
 * with s = fl(-input_scale * beta) and expf_fn in place of expf (pass expf
 * from <math.h>); output_scale / output_zp as given; u8_add_half = 0.
 * Errors (nothing written): out or expf_fn NULL, a scale or beta NaN or infinite,
 * input_scale <= 0, beta < 0 (mrtq refuses what would give infinite table
 * entries), output_scale < 2^-126 -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_tflite_softmax_lut_init(float input_scale, float beta, float output_scale, int32_t output_zp,
                                                  float (*expf_fn)(float), mrtq_tflite_softmax_lut_params *out);

/* optimized_ops::Softmax on int8 / uint8 input, in float: per row, M = the
 * row's maximum, t(x) = table[255 - M + x],
 *   sum = t(x_0) + t(x_1) + ... (float, in order);  inv = 1.0f / (sum * output_scale)
 *   y = clamp(round_half_away(t(x) * inv) + output_zp, out_type)
 * each float operation rounded on its own (no contraction). With
 * u8_add_half = 1 (uint8 output only) y = clamp(trunc(fl(t(x) * inv + 0.5f)),
 * 0, 255), output_zp ignored: what TFLite builds for other targets than
 * AArch64 compute for uint8 outputs (QuantizeSoftmaxOutput<uint8_t>); AArch64
 * builds round half away and add the zero point (u8_add_half = 0). A value
 * beyond int32 saturates (TFLite: undefined). TFLite's clang / AArch64 builds
 * with TFLITE_SOFTMAX_USE_UINT16_LUT run another kernel (SoftmaxInt8LUT), not
 * this one. in_type MRTQ_S8 or MRTQ_U8; out_type equal to in_type or MRTQ_S16.
 * Errors: p, in or out NULL -> MRTQ_EINVAL; rows * depth overflowing size_t
 * -> MRTQ_ESHAPE; types as mrtq_tflite_softmax; p->output_scale NaN, infinite
 * or below 2^-126, p->output_zp outside out_type, p->u8_add_half not 0 or 1,
 * or 1 with another out_type than MRTQ_U8 -> MRTQ_EINVAL. Any table value is
 * defined (NaN converts to 0). */
MRTQ_API mrtq_status mrtq_tflite_softmax_lut(const mrtq_tflite_softmax_lut_params *p, size_t rows, size_t depth,
                                             const void *in, mrtq_dtype in_type, mrtq_dtype out_type, void *out);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

/* Leading zeros of a 32-bit value (32 for 0). */
MRTQ__PRIV int mrtq__clz32(uint32_t v) {
  int n = 0;
  if (!v) return 32;
  while (!(v & 0x80000000u)) {
    v <<= 1;
    n++;
  }
  return n;
}

/* in / out types of the 8-bit softmax kernels. */
MRTQ__PRIV mrtq_status mrtq__sm_types(mrtq_dtype in_type, mrtq_dtype out_type) {
  mrtq_status st = MRTQ__Q8_TYPE(in_type, "in_type");
  if (st != MRTQ_OK) return st;
  if (!mrtq__dtype_ok(out_type)) return MRTQ__ERR(MRTQ_EINVAL, "out_type: not an mrtq_dtype (0: a zero-initialised operand)");
  if (out_type != in_type && out_type != MRTQ_S16)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "out_type: must be in_type or MRTQ_S16");
  return MRTQ_OK;
}

MRTQ__PRIV mrtq_status mrtq__sm_shape(size_t rows, size_t depth, const void *p, const void *in, const void *out) {
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!in) return MRTQ__ERR(MRTQ_EINVAL, "in: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (depth && rows > SIZE_MAX / depth) return MRTQ__ERR(MRTQ_ESHAPE, "rows * depth: overflows size_t");
  return MRTQ_OK;
}

/* ---- int8 / uint8 reference ---- */

MRTQ__PRIV mrtq_status mrtq__sm_check(int64_t mult, int64_t shift, int64_t diff_min, int struct_form) {
  if (mult < 0 || mult > INT32_MAX)
    return struct_form ? MRTQ__ERR(MRTQ_ERANGE, "p->input_multiplier: outside [0, 2^31 - 1]")
                       : MRTQ__ERR(MRTQ_ERANGE, "input_multiplier: outside [0, 2^31 - 1]");
  if (shift < 0 || shift > 31)
    return struct_form ? MRTQ__ERR(MRTQ_ERANGE, "p->input_left_shift: outside [0, 31]")
                       : MRTQ__ERR(MRTQ_ERANGE, "input_left_shift: outside [0, 31]");
  if (diff_min > 0 || diff_min * ((int64_t)1 << shift) < INT32_MIN)
    return struct_form ? MRTQ__ERR(MRTQ_ERANGE, "p->diff_min: outside [-2^31 / 2^p->input_left_shift, 0]")
                       : MRTQ__ERR(MRTQ_ERANGE, "diff_min: outside [-2^31 / 2^input_left_shift, 0]");
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_softmax_init(float input_scale, float beta, mrtq_tflite_softmax_params *out) {
  double r;
  mrtq_mult m = {0, 0};
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (mrtq__nonfinite_f32(input_scale)) return MRTQ__ERR(MRTQ_EINVAL, "input_scale: NaN or infinite");
  if (mrtq__nonfinite_f32(beta)) return MRTQ__ERR(MRTQ_EINVAL, "beta: NaN or infinite");
  r = (double)beta * (double)input_scale * 67108864.0; /* exact: a float product and a power of two */
  if (!(r > 1.0))
    return MRTQ__ERR(MRTQ_ERANGE, "beta * input_scale: at most 2^-26 (TFLite's QuantizeMultiplierGreaterThanOne needs > 1 after * 2^26)");
  if (r > 2147483647.0) r = 2147483647.0;
  (void)mrtq_mult_q31(r, &m); /* r is finite and positive */
  out->input_multiplier = m.mult;
  out->input_left_shift = m.shift; /* r in (1, 2^31 - 1]: shift in [1, 31] */
  out->diff_min = -(int32_t)(((int64_t)31 << 26) >> m.shift); /* floor: exact in integers */
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_softmax_init_mult(int32_t input_multiplier, int input_left_shift, int32_t diff_min,
                                                   mrtq_tflite_softmax_params *out) {
  mrtq_status st;
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  st = mrtq__sm_check(input_multiplier, input_left_shift, diff_min, 0);
  if (st != MRTQ_OK) return st;
  out->input_multiplier = input_multiplier;
  out->input_left_shift = input_left_shift;
  out->diff_min = diff_min;
  return MRTQ_OK;
}

/* exp of one difference d (>= diff_min) in Q0.31. */
MRTQ__PRIV int32_t mrtq__sm_exp(const mrtq_tflite_softmax_params *p, int32_t d) {
  mrtq_mult m;
  m.mult = p->input_multiplier;
  m.shift = p->input_left_shift;
  return mrtq__fx_exp_neg(mrtq_mul_q31_dbl(d, m), 5, 32);
}

/* The row's maximum and its exact sum of exps in Q12.19. */
MRTQ__PRIV int64_t mrtq__sm_row_sum(const mrtq_tflite_softmax_params *p, const void *in, size_t at, size_t depth,
                                    mrtq_dtype t, int32_t *max) {
  int32_t mx = mrtq__load(in, at, t);
  int64_t s = 0;
  size_t c;
  for (c = 1; c < depth; c++) {
    int32_t v = mrtq__load(in, at + c, t);
    if (v > mx) mx = v;
  }
  for (c = 0; c < depth; c++) {
    int32_t d = mrtq__load(in, at + c, t) - mx;
    if (d >= p->diff_min) s += mrtq__fx_mul_pot(mrtq__sm_exp(p, d), -12, 32);
  }
  *max = mx;
  return s;
}

MRTQ_API mrtq_status mrtq_tflite_softmax(const mrtq_tflite_softmax_params *p, size_t rows, size_t depth, const void *in,
                                         mrtq_dtype in_type, mrtq_dtype out_type, void *out) {
  mrtq_status st = mrtq__sm_shape(rows, depth, p, in, out);
  const int obits = out_type == MRTQ_S16 ? 16 : 8;
  const int32_t qmin = out_type == MRTQ_S16 ? -32768 : out_type == MRTQ_S8 ? -128 : 0;
  const int32_t qmax = out_type == MRTQ_S16 ? 32767 : out_type == MRTQ_S8 ? 127 : 255;
  size_t r, c;
  if (st != MRTQ_OK) return st;
  if ((st = mrtq__sm_types(in_type, out_type)) != MRTQ_OK) return st;
  if ((st = mrtq__sm_check(p->input_multiplier, p->input_left_shift, p->diff_min, 1)) != MRTQ_OK) return st;
  if (!depth) return MRTQ_OK;
  if (depth >= (obits == 8 ? 512u : 4096u)) /* a row could fail: check them all first */
    for (r = 0; r < rows; r++) {
      int32_t mx;
      int64_t s = mrtq__sm_row_sum(p, in, r * depth, depth, in_type, &mx);
      if (obits == 8 && s >= ((int64_t)1 << 28))
        return MRTQ__ERR(MRTQ_ERANGE, "in: a row's sum of exps reaches 512 with an 8-bit output (TFLite's reference aborts)");
      if (s > INT32_MAX)
        return MRTQ__ERR(MRTQ_ERANGE, "in: a row's sum of exps exceeds 4096 - 2^-19 (TFLite's int32 sum overflows)");
    }
  for (r = 0; r < rows; r++) {
    size_t at = r * depth;
    int32_t mx, recip;
    int64_t s = mrtq__sm_row_sum(p, in, at, depth, in_type, &mx);
    int clz, k;
    clz = mrtq__clz32((uint32_t)s); /* s in [2^19, 2^31 - 1]: the maximum contributes 2^19 */
    recip = mrtq__fx_one_over_one_plus_x(mrtq__wrap32(((uint32_t)s << clz) - 2147483648u), 32);
    k = (12 - clz) + 31 - obits; /* in [0, 31] after the checks above */
    for (c = 0; c < depth; c++) {
      int32_t d = mrtq__load(in, at + c, in_type) - mx, y = qmin;
      if (d >= p->diff_min) {
        y = mrtq_rdivpot(mrtq_srdhm(recip, mrtq__sm_exp(p, d)), k) + qmin;
        y = y > qmax ? qmax : y < qmin ? qmin : y;
      }
      mrtq__store(out, at + c, out_type, y);
    }
  }
  return MRTQ_OK;
}

/* ---- int16 ---- */

/* LUTPopulateInt16 (kernels/internal/common.h) in double: the table of f over
 * the int16 inputs of scale in_scale and zero point in_zp, output scale
 * out_scale, zero point 0. which: the exp function, or NULL for 1 / (1 + x). */
MRTQ__PRIV double mrtq__sm_fd(double (*f)(double), double x) { return f ? f(x) : 1.0 / mrtq__f64(1.0 + x); }
MRTQ__PRIV float mrtq__sm_ff(float (*f)(float), float x) { return f ? f(x) : 1.0f / mrtq__f32(1.0f + x); }

/* A table entry from an integral double: clamped to int16, NaN -> 0. */
MRTQ__PRIV int16_t mrtq__sm_lut_clamp(double v) {
  return (int16_t)(v != v ? 0 : v < -32768.0 ? -32768 : v > 32767.0 ? 32767 : (int)v);
}

MRTQ__PRIV void mrtq__sm_lut_double(double (*which)(double), double in_scale, int32_t in_zp, double out_scale, int16_t *lut) {
  const double in_min = in_scale * (double)(-32768 - in_zp), in_max = in_scale * (double)(32767 - in_zp);
  const double out_min = out_scale * -32768.0, out_max = out_scale * 32767.0;
  const double step = (in_max - in_min) / 512, half = step / 2;
  const double inv = 65536.0 / (out_max - out_min);
  int i;
  for (i = 0; i < 512; i++) {
    double x = mrtq__f64(in_min + mrtq__f64(i * step));
    double val = mrtq__sm_fd(which, x);
    double mid = mrtq__sm_fd(which, x + half);
    double next = mrtq__sm_fd(which, mrtq__f64(in_min + mrtq__f64((i + 1) * step)));
    double sample = mrtq__round_away_f64(mrtq__f64(val * inv));
    double interp = mrtq__round_away_f64(mrtq__f64(mrtq__f64(next * inv) + sample) / 2);
    double bias = mrtq__round_away_f64((interp - mrtq__round_away_f64(mrtq__f64(mid * inv))) / 2);
    lut[i] = mrtq__sm_lut_clamp(sample - bias);
  }
  lut[512] = mrtq__sm_lut_clamp(mrtq__round_away_f64(mrtq__f64(mrtq__sm_fd(which, in_max) * inv)));
}

/* The same in float (TFLite Micro). */
MRTQ__PRIV void mrtq__sm_lut_float(float (*which)(float), float in_scale, int32_t in_zp, float out_scale, int16_t *lut) {
  const float in_min = in_scale * (float)(-32768 - in_zp), in_max = in_scale * (float)(32767 - in_zp);
  const float out_min = out_scale * -32768.0f, out_max = out_scale * 32767.0f;
  const float step = (in_max - in_min) / 512, half = step / 2;
  const float inv = 65536.0f / (out_max - out_min);
  int i;
  for (i = 0; i < 512; i++) {
    float x = mrtq__f32(in_min + mrtq__f32((float)i * step));
    float val = mrtq__sm_ff(which, x);
    float mid = mrtq__sm_ff(which, x + half);
    float next = mrtq__sm_ff(which, mrtq__f32(in_min + mrtq__f32((float)(i + 1) * step)));
    float sample = mrtq__round_away_f32(mrtq__f32(val * inv));
    float interp = mrtq__round_away_f32(mrtq__f32(mrtq__f32(next * inv) + sample) / 2);
    float bias = mrtq__round_away_f32((interp - mrtq__round_away_f32(mrtq__f32(mid * inv))) / 2);
    lut[i] = mrtq__sm_lut_clamp(sample - bias);
  }
  lut[512] = mrtq__sm_lut_clamp(mrtq__round_away_f32(mrtq__f32(mrtq__sm_ff(which, in_max) * inv)));
}

/* The checks and tables shared by both int16 inits: m is the real multiplier
 * as the chosen TFLite computes it; exactly one of exp_fn (TF interpreter,
 * double tables) and expf_fn (TFLite Micro, float tables) is used. */
MRTQ__PRIV mrtq_status mrtq__sm16_init(float input_scale, float beta, double m, double (*exp_fn)(double),
                                       float (*expf_fn)(float), mrtq_tflite_softmax16_params *out) {
  mrtq_mult q = {0, 0};
  if (mrtq__nonfinite_f32(input_scale) || !(input_scale > 0))
    return MRTQ__ERR(MRTQ_EINVAL, "input_scale: NaN, infinite or <= 0");
  if (mrtq__nonfinite_f32(beta) || beta < 0) return MRTQ__ERR(MRTQ_EINVAL, "beta: NaN, infinite or negative");
  if (mrtq__nonfinite(m)) return MRTQ__ERR(MRTQ_ERANGE, "input_scale * beta: overflows float");
  (void)mrtq_mult_q31(m, &q); /* m finite, >= 0 */
  if (q.shift > 15)
    return MRTQ__ERR(MRTQ_ERANGE, "input_scale * beta / (10 / 65535): 2^15 or more after rounding (shift above 15; TFLite's product overflows int32)");
  out->input_multiplier = q.mult;
  out->input_left_shift = q.shift;
  if (expf_fn) {
    mrtq__sm_lut_float(expf_fn, 10.0f / 65535.0f, 32767, 2.0f / 65535.0f, out->exp_lut);
    mrtq__sm_lut_float(NULL, 1.0f / 65535.0f, -32768, 2.0f / 65535.0f, out->one_over_one_plus_x_lut);
  } else {
    mrtq__sm_lut_double(exp_fn, 10.0 / 65535.0, 32767, 2.0 / 65535.0, out->exp_lut);
    mrtq__sm_lut_double(NULL, 1.0 / 65535.0, -32768, 2.0 / 65535.0, out->one_over_one_plus_x_lut);
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_softmax16_init(float input_scale, float beta, double (*exp_fn)(double),
                                                mrtq_tflite_softmax16_params *out) {
  float prod = mrtq__f32(input_scale * beta); /* float product, as TFLite's float * float */
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (!exp_fn) return MRTQ__ERR(MRTQ_EINVAL, "exp_fn: NULL");
  return mrtq__sm16_init(input_scale, beta, (double)prod / (10.0 / 65535.0), exp_fn, NULL, out);
}

MRTQ_API mrtq_status mrtq_tflite_softmax16_init_micro(float input_scale, float beta, float (*expf_fn)(float),
                                                      mrtq_tflite_softmax16_params *out) {
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (!expf_fn) return MRTQ__ERR(MRTQ_EINVAL, "expf_fn: NULL");
  return mrtq__sm16_init(input_scale, beta, (double)input_scale * (double)beta / (10.0 / 65535.0), NULL, expf_fn, out);
}

/* LUTLookup: 513-entry table, 9-bit index, 7-bit linear interpolation. */
MRTQ__PRIV int32_t mrtq__sm_lut(const int16_t *t, int32_t v) {
  int32_t i = 256 + mrtq__asr32(v, 7), off = (int32_t)((uint32_t)v & 127u), slope = t[i + 1] - t[i];
  return t[i] + mrtq__asr32(slope * off + 64, 7);
}

MRTQ__PRIV int32_t mrtq__sm16_exp(const mrtq_tflite_softmax16_params *p, int32_t d) {
  mrtq_mult m;
  int32_t s;
  m.mult = p->input_multiplier;
  m.shift = p->input_left_shift;
  s = mrtq_mul_q31_dbl(d, m) + 32767; /* mul result in [-2^31 + 1, 0]: no overflow */
  return mrtq__sm_lut(p->exp_lut, s < -32768 ? -32768 : s);
}

MRTQ_API mrtq_status mrtq_tflite_softmax16(const mrtq_tflite_softmax16_params *p, size_t rows, size_t depth,
                                           const int16_t *in, int16_t *out) {
  mrtq_status st = mrtq__sm_shape(rows, depth, p, in, out);
  size_t r, c;
  int i;
  if (st != MRTQ_OK) return st;
  if (p->input_multiplier < 0) return MRTQ__ERR(MRTQ_ERANGE, "p->input_multiplier: negative");
  if (p->input_left_shift < -31 || p->input_left_shift > 15)
    return MRTQ__ERR(MRTQ_ERANGE, "p->input_left_shift: outside [-31, 15]");
  for (i = 0; i < MRTQ_TFLITE_SOFTMAX16_LUT; i++) {
    if (p->exp_lut[i] < 0) return MRTQ__ERR(MRTQ_ERANGE, "p->exp_lut[i]: negative, for some i");
    if (p->one_over_one_plus_x_lut[i] < 0)
      return MRTQ__ERR(MRTQ_ERANGE, "p->one_over_one_plus_x_lut[i]: negative, for some i");
  }
  if (depth > 65538u) /* 65538 * 32767 < 2^31: only longer rows can overflow */
    for (r = 0; r < rows; r++) {
      int32_t mx = in[r * depth];
      int64_t s = 0;
      for (c = 1; c < depth; c++) mx = in[r * depth + c] > mx ? in[r * depth + c] : mx;
      for (c = 0; c < depth; c++) s += mrtq__sm16_exp(p, in[r * depth + c] - mx);
      if (s > INT32_MAX) return MRTQ__ERR(MRTQ_ERANGE, "in: a row's sum of exps exceeds 2^31 - 1 (TFLite's int32 sum overflows)");
    }
  for (r = 0; r < rows; r++) {
    const int16_t *x = in + r * depth;
    int16_t *y = out + r * depth;
    int32_t mx = depth ? x[0] : 0, s32, recip, sym;
    int64_t s = 0, shifted;
    int clz, rs;
    for (c = 1; c < depth; c++) mx = x[c] > mx ? x[c] : mx;
    for (c = 0; c < depth; c++) { /* the exps are kept in out, as TFLite does */
      int32_t e = mrtq__sm16_exp(p, x[c] - mx);
      y[c] = (int16_t)e;
      s += e;
    }
    s32 = (int32_t)s;
    clz = mrtq__clz32((uint32_t)s32);
    shifted = mrtq__asr64(((int64_t)s32 << (clz - 1)) + (1 << 13), 14);
    sym = (int32_t)(shifted - 98304);
    recip = mrtq__sm_lut(p->one_over_one_plus_x_lut, sym < -32768 ? -32768 : sym > 32767 ? 32767 : sym);
    rs = 31 - clz;
    for (c = 0; c < depth; c++) {
      int64_t v = rs < 0 ? 0 : ((int64_t)y[c] * recip + (rs ? (int64_t)1 << (rs - 1) : 0)) >> rs;
      y[c] = (int16_t)(v < 0 ? 0 : v > 32767 ? 32767 : v);
    }
  }
  return MRTQ_OK;
}

/* ---- the TF interpreter's float-table kernel ---- */

MRTQ_API mrtq_status mrtq_tflite_softmax_lut_init(float input_scale, float beta, float output_scale, int32_t output_zp,
                                                  float (*expf_fn)(float), mrtq_tflite_softmax_lut_params *out) {
  float s;
  int k;
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (!expf_fn) return MRTQ__ERR(MRTQ_EINVAL, "expf_fn: NULL");
  if (mrtq__nonfinite_f32(input_scale) || !(input_scale > 0))
    return MRTQ__ERR(MRTQ_EINVAL, "input_scale: NaN, infinite or <= 0");
  if (mrtq__nonfinite_f32(beta) || beta < 0) return MRTQ__ERR(MRTQ_EINVAL, "beta: NaN, infinite or negative");
  if (mrtq__nonfinite_f32(output_scale) || !(output_scale >= 1.17549435082228750797e-38f /* 2^-126 */))
    return MRTQ__ERR(MRTQ_EINVAL, "output_scale: NaN, infinite or below 2^-126");
  s = mrtq__f32(-input_scale * beta);
  for (k = 0; k <= 255; k++) out->table[255 - k] = expf_fn(mrtq__f32(s * (float)k));
  out->output_scale = output_scale;
  out->output_zp = output_zp;
  out->u8_add_half = 0;
  return MRTQ_OK;
}

/* trunc or round-half-away of a float to int64, saturated at +-2^40, NaN -> 0. */
MRTQ__PRIV int64_t mrtq__sm_f2i(float f, int round_away) {
  double v = (double)f;
  if (v != v) return 0;
  if (v > 1099511627776.0) v = 1099511627776.0;
  if (v < -1099511627776.0) v = -1099511627776.0;
  return round_away ? mrtq__round_away(v) : (int64_t)v;
}

MRTQ_API mrtq_status mrtq_tflite_softmax_lut(const mrtq_tflite_softmax_lut_params *p, size_t rows, size_t depth,
                                             const void *in, mrtq_dtype in_type, mrtq_dtype out_type, void *out) {
  mrtq_status st = mrtq__sm_shape(rows, depth, p, in, out);
  int32_t qmin, qmax;
  size_t r, c;
  if (st != MRTQ_OK) return st;
  if ((st = mrtq__sm_types(in_type, out_type)) != MRTQ_OK) return st;
  (void)mrtq_dtype_range(out_type, &qmin, &qmax);
  if (mrtq__nonfinite_f32(p->output_scale) || !(p->output_scale >= 1.17549435082228750797e-38f /* 2^-126 */))
    return MRTQ__ERR(MRTQ_EINVAL, "p->output_scale: NaN, infinite or below 2^-126");
  if (p->output_zp < qmin || p->output_zp > qmax) return MRTQ__ERR(MRTQ_EINVAL, "p->output_zp: outside out_type");
  if (p->u8_add_half != 0 && p->u8_add_half != 1) return MRTQ__ERR(MRTQ_EINVAL, "p->u8_add_half: not 0 or 1");
  if (p->u8_add_half && out_type != MRTQ_U8) return MRTQ__ERR(MRTQ_EINVAL, "p->u8_add_half: 1 needs out_type MRTQ_U8");
  for (r = 0; r < rows; r++) {
    size_t at = r * depth;
    int32_t mx = depth ? mrtq__load(in, at, in_type) : 0;
    float sum = 0.0f, inv;
    for (c = 1; c < depth; c++) {
      int32_t v = mrtq__load(in, at + c, in_type);
      if (v > mx) mx = v;
    }
    for (c = 0; c < depth; c++) sum = sum + p->table[255 - mx + mrtq__load(in, at + c, in_type)];
    inv = 1.0f / mrtq__f32(sum * p->output_scale);
    for (c = 0; c < depth; c++) {
      float prob = mrtq__f32(p->table[255 - mx + mrtq__load(in, at + c, in_type)] * inv);
      int64_t y = p->u8_add_half ? mrtq__sm_f2i(prob + 0.5f, 0) : mrtq__sm_f2i(prob, 1) + p->output_zp;
      mrtq__store(out, at + c, out_type, (int32_t)(y < qmin ? qmin : y > qmax ? qmax : y));
    }
  }
  return MRTQ_OK;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_SOFTMAX_H */
