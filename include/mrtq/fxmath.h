/* mrtq/fxmath.h -- gemmlowp's fixed-point transcendental functions as plain C,
 * with the number of integer bits an argument checked at run time (includes
 * only mrtq/fixedpoint.h; included by mrtq.h).
 *
 * A fixed-point value with I integer bits in a W-bit raw integer (W = 32: the
 * _s32 functions; W = 16: the _s16 functions, gemmlowp's
 * FixedPoint<int16_t, I>) stores the real number raw / 2^(W - 1 - I): the
 * range is [-2^I, 2^I). The results of exp, logistic, tanh and the two
 * reciprocal helpers have 0 integer bits (Q0.31 or Q0.15), so 1.0 is stored as
 * the type's maximum.
 *
 *   mrtq                                   gemmlowp (fixedpoint/fixedpoint.h)                    int bits: s32 / s16
 *   mrtq_fx_srdhm_s16                      SaturatingRoundingDoublingHighMul<int16_t>            -
 *                                          (the int32 one is mrtq_srdhm, fixedpoint.h)
 *   mrtq_fx_mul_pot_s32 / _s16             SaturatingRoundingMultiplyByPOT<exponent>             exponent [-31, 31] / [-15, 15]
 *   mrtq_fx_rescale_s32 / _s16             Rescale<dst_bits>(FixedPoint<src_bits>)               [0, 31] / [0, 15]
 *   mrtq_fx_exp_quarter_s32 / _s16         exp_on_interval_between_negative_one_quarter_and_0_excl  0 (input Q0)
 *   mrtq_fx_exp_neg_s32 / _s16             exp_on_negative_values                                [0, 29] / [0, 13]
 *   mrtq_fx_one_over_one_plus_x_s32 / _s16 one_over_one_plus_x_for_x_in_0_1                      0 (input Q0)
 *   mrtq_fx_one_minus_x_over_one_plus_x_s32 / _s16  one_minus_x_over_one_plus_x_for_x_in_0_1     0 (input Q0)
 *   mrtq_fx_tanh_s32 / _s16                tanh                                                  [0, 28] / [0, 12]
 *   mrtq_fx_logistic_s32 / _s16            logistic                                              [0, 29] / [0, 13]
 *
 * Every function is bit-exact with gemmlowp's scalar code (the version Debian
 * ships as libgemmlowp-dev, unchanged in that file since 2019) for EVERY raw
 * input, including the inputs outside the interval a function is meant for
 * (a positive value given to exp_neg, a negative one given to
 * one_over_one_plus_x, INT32_MIN given to logistic): gemmlowp's plain int32
 * additions and negations there overflow, and mrtq defines them as wrapping
 * modulo 2^32, which is what gemmlowp's code does when compiled (the tests
 * build gemmlowp with -fwrapv). The int16 forms wrap modulo 2^16 as gemmlowp's
 * int16 arithmetic does, except where gemmlowp saturates (the last addition of
 * exp_quarter, AddSaturatingIf16Bit). So the functions are total in x; only
 * the integer-bits and exponent arguments can be refused, where gemmlowp
 * itself would shift by a negative amount or fail to compile. A refusal
 * (MRTQ_ERANGE, naming the argument) writes nothing to *out; *out NULL is
 * MRTQ_EINVAL. With a constant in-range argument the checks fold away.
 *
 * Tie rules: every product is SRDHM (ties toward +infinity), every right shift
 * RoundingDivideByPOT (ties away from zero); left shifts saturate. The exact
 * formulas, their error against the real functions and what TFLite uses them
 * for: docs/semantics.md section 4a. */
#ifndef MRTQ_FXMATH_H
#define MRTQ_FXMATH_H

#include "fixedpoint.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* gemmlowp's int16 SaturatingRoundingDoublingHighMul: floor((a * b + 2^14) /
 * 2^15) (ties toward +infinity), the one result outside int16, a == b ==
 * -32768, saturating to 32767. Total. */
MRTQ_API int16_t mrtq_fx_srdhm_s16(int16_t a, int16_t b);

/* gemmlowp SaturatingRoundingMultiplyByPOT<exponent>(x), x * 2^exponent:
 *   exponent == 0: x;
 *   exponent < 0:  mrtq_rdivpot(x, -exponent), x / 2^-exponent rounded to
 *                  nearest, ties away from zero;
 *   exponent > 0:  x * 2^exponent, saturated to [INT32_MIN, INT32_MAX]
 *                  ([-32768, 32767] for _s16) -- a value whose magnitude
 *                  exceeds 2^(W-1-exponent) - 1 gives the bound of its sign;
 *                  -2^(W-1-exponent) itself shifts exactly to the minimum.
 * exponent in [-31, 31] (_s32) or [-15, 15] (_s16), else MRTQ_ERANGE
 * ("exponent: ..."). TFLite's run-time form SaturatingRoundingMultiplyByPOTParam
 * (kernels/internal/common.h) is the same function for exponent >= 0. */
MRTQ_API mrtq_status mrtq_fx_mul_pot_s32(int32_t x, int exponent, int32_t *out);
MRTQ_API mrtq_status mrtq_fx_mul_pot_s16(int16_t x, int exponent, int16_t *out);

/* gemmlowp Rescale<dst_bits>(FixedPoint<raw, src_bits>::FromRaw(x)): the same
 * real value with dst_bits integer bits, i.e. mul_pot(x, src_bits - dst_bits)
 * (rounding ties away from zero when dst_bits > src_bits, saturating when
 * dst_bits < src_bits). src_bits, dst_bits in [0, 31] (_s32) or [0, 15]
 * (_s16), else MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_fx_rescale_s32(int32_t x, int src_bits, int dst_bits, int32_t *out);
MRTQ_API mrtq_status mrtq_fx_rescale_s16(int16_t x, int src_bits, int dst_bits, int16_t *out);

/* gemmlowp exp_on_interval_between_negative_one_quarter_and_0_excl: exp(a) for
 * a Q0 value a in [-1/4, 0), Q0 result, by the 4th-order Taylor expansion of
 * exp around -1/8 (formula: docs/semantics.md 4a). Meant for a in
 * [-2^(W-3), 0) raw; total on every raw a. */
MRTQ_API int32_t mrtq_fx_exp_quarter_s32(int32_t a);
MRTQ_API int16_t mrtq_fx_exp_quarter_s16(int16_t a);

/* gemmlowp exp_on_negative_values: exp(a) for a <= 0 with int_bits integer
 * bits, Q0 result: exp of (a mod 1/4) - 1/4 by exp_quarter, times exp(-2^k)
 * for each set bit k of the rest (k from -2 up to min(4, int_bits - 1)); a
 * below -32 (only representable for int_bits > 5) gives 0; a == 0 gives the
 * maximum (1.0). Error (tests/test_fxmath.c, against libm's double exp):
 * at most 2^-22 (_s32) and 2^-13 (_s16) absolute; _s16 is non-decreasing on
 * [-32768, 0]. Total on every
 * raw a. int_bits in [0, 29] (_s32) or [0, 13] (_s16), else MRTQ_ERANGE
 * ("int_bits: ..."). TFLite's int8 / uint8 softmax calls it with 5 (Q5.26). */
MRTQ_API mrtq_status mrtq_fx_exp_neg_s32(int32_t a, int int_bits, int32_t *out);
MRTQ_API mrtq_status mrtq_fx_exp_neg_s16(int16_t a, int int_bits, int16_t *out);

/* gemmlowp one_over_one_plus_x_for_x_in_0_1: 1 / (1 + a) for a Q0 value a in
 * [0, 1), Q0 result in (1/2, 1]: three Newton-Raphson steps from 48/17 -
 * 32/17 * d, d = (1 + a) / 2 rounded half away from zero, in Q2. Total on every
 * raw a. TFLite's GetReciprocal (softmax) calls it. */
MRTQ_API int32_t mrtq_fx_one_over_one_plus_x_s32(int32_t a);
MRTQ_API int16_t mrtq_fx_one_over_one_plus_x_s16(int16_t a);

/* gemmlowp one_minus_x_over_one_plus_x_for_x_in_0_1: (1 - a) / (1 + a) for a
 * Q0 value a in [0, 1), Q0 result: the same Newton-Raphson iteration, minus
 * one. Total on every raw a. */
MRTQ_API int32_t mrtq_fx_one_minus_x_over_one_plus_x_s32(int32_t a);
MRTQ_API int16_t mrtq_fx_one_minus_x_over_one_plus_x_s16(int16_t a);

/* gemmlowp tanh: tanh(a) for any a with int_bits integer bits, Q0 result:
 * (1 - e) / (1 + e), e = exp_neg(-2|a|) (int_bits + 1 bits), negated for
 * a < 0; a == 0 gives 0. Odd except at the type minimum. Error against libm:
 * at most 2^-22 (_s32), 2^-11 (_s16); not monotone for small int_bits. int_bits in [0, 28]
 * (_s32) or [0, 12] (_s16), else MRTQ_ERANGE. TFLite's int16 LSTM calls it
 * with 3 (gates) and the cell state's integer bits. */
MRTQ_API mrtq_status mrtq_fx_tanh_s32(int32_t a, int int_bits, int32_t *out);
MRTQ_API mrtq_status mrtq_fx_tanh_s16(int16_t a, int int_bits, int16_t *out);

/* gemmlowp logistic: 1 / (1 + exp(-a)) for any a with int_bits integer bits,
 * Q0 result: for a > 0, one_over_one_plus_x(exp_neg(-a)); for a < 0, the
 * maximum (1.0) minus that of |a| (|INT_MIN| wraps to itself); a == 0 gives
 * 1/2 (2^(W-2) raw); logistic(-a) = 1.0 - logistic(a). Error against libm: at
 * most 2^-23 (_s32), 2^-12 (_s16); the _s16 results are not monotone for
 * int_bits <= 6 (gemmlowp's, reproduced). int_bits in [0, 29] (_s32) or [0, 13] (_s16), else
 * MRTQ_ERANGE. TFLite's int16 LSTM calls it with 3. */
MRTQ_API mrtq_status mrtq_fx_logistic_s32(int32_t a, int int_bits, int32_t *out);
MRTQ_API mrtq_status mrtq_fx_logistic_s16(int16_t a, int int_bits, int16_t *out);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

/* One implementation serves both widths: values are held in int32_t, w is the
 * raw width (16 or 32), and every operation is the one gemmlowp performs on a
 * w-bit raw integer. The private functions below take arguments already in
 * range (the layers above call them after their own checks). */

/* v modulo 2^w as a signed w-bit value. */
MRTQ__PRIV int32_t mrtq__fx_wrap(int64_t v, int w) {
  uint32_t u = (uint32_t)((uint64_t)v & 0xffffffffu);
  if (w == 16) u = ((u + 0x8000u) & 0xffffu) - 0x8000u; /* unsigned: modulo 2^32 */
  return mrtq__wrap32(u);
}
MRTQ__PRIV int32_t mrtq__fx_max(int w) { return w == 16 ? 32767 : INT32_MAX; }
MRTQ__PRIV int32_t mrtq__fx_min(int w) { return w == 16 ? -32768 : INT32_MIN; }
MRTQ__PRIV int32_t mrtq__fx_add(int32_t a, int32_t b, int w) { return mrtq__fx_wrap((int64_t)a + b, w); }
MRTQ__PRIV int32_t mrtq__fx_sub(int32_t a, int32_t b, int w) { return mrtq__fx_wrap((int64_t)a - b, w); }
MRTQ__PRIV int32_t mrtq__fx_neg(int32_t a, int w) { return mrtq__fx_wrap(-(int64_t)a, w); }
/* The fixed-point product (SRDHM of width w). */
MRTQ__PRIV int32_t mrtq__fx_mul(int32_t a, int32_t b, int w) {
  if (w == 32) return mrtq_srdhm(a, b);
  if (a == -32768 && b == -32768) return 32767;
  return mrtq_srdhm(a * 65536, b); /* floor((a b 2^16 + 2^30) / 2^31) = floor((a b + 2^14) / 2^15) */
}
/* A gemmlowp constant given as its Q0.31 (or Q2.29 ...) int32 raw value, at
 * width w (RescaleConstantInitializer: rounded by 16 bits for int16). */
MRTQ__PRIV int32_t mrtq__fx_const(int32_t c, int w) { return w == 32 ? c : mrtq_rdivpot(c, 16); }
/* 1.0 with int_bits integer bits (the maximum when int_bits == 0). */
MRTQ__PRIV int32_t mrtq__fx_one(int int_bits, int w) {
  return int_bits == 0 ? mrtq__fx_max(w) : (int32_t)1 << (w - 1 - int_bits);
}
/* SaturatingRoundingMultiplyByPOT, exponent in [-(w-1), w-1]. */
MRTQ__PRIV int32_t mrtq__fx_mul_pot(int32_t x, int exponent, int w) {
  int32_t thr;
  if (exponent == 0) return x;
  if (exponent < 0) return mrtq_rdivpot(x, -exponent);
  thr = (int32_t)(((int64_t)1 << (w - 1 - exponent)) - 1);
  if (x > thr) return mrtq__fx_max(w);
  if (x < -thr) return mrtq__fx_min(w);
  return (int32_t)((int64_t)x * ((int64_t)1 << exponent)); /* exact: |x| <= thr */
}
/* RoundingHalfSum: (a + b) / 2, ties away from zero. */
MRTQ__PRIV int32_t mrtq__fx_half_sum(int32_t a, int32_t b) {
  int64_t s = (int64_t)a + b;
  return (int32_t)((s + (s >= 0 ? 1 : -1)) / 2); /* C division truncates */
}

MRTQ__PRIV int32_t mrtq__fx_exp_quarter(int32_t a, int w) {
  const int32_t c = mrtq__fx_const(1895147668, w);  /* exp(-1/8) */
  const int32_t third = mrtq__fx_const(715827883, w); /* 1/3 */
  int32_t x = mrtq__fx_add(a, (int32_t)1 << (w - 4), w); /* a + 1/8 */
  int32_t x2 = mrtq__fx_mul(x, x, w), x3 = mrtq__fx_mul(x2, x, w), x4 = mrtq__fx_mul(x2, x2, w);
  int32_t x4_4 = mrtq__fx_mul_pot(x4, -2, w);
  int32_t poly = mrtq__fx_mul_pot(mrtq__fx_add(mrtq__fx_mul(mrtq__fx_add(x4_4, x3, w), third, w), x2, w), -1, w);
  int32_t r = mrtq__fx_mul(c, mrtq__fx_add(x, poly, w), w);
  if (w == 16) { /* AddSaturatingIf16Bit */
    int32_t s = c + r;
    return s > 32767 ? 32767 : s < -32768 ? -32768 : s;
  }
  return mrtq__fx_add(c, r, w);
}

MRTQ__PRIV int32_t mrtq__fx_exp_neg(int32_t a, int int_bits, int w) {
  /* Q0.31 values of exp(-2^k), k = -2 .. 4 */
  static const int32_t m[7] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  const int frac = w - 1 - int_bits;
  const int32_t quarter = (int32_t)1 << (frac - 2);
  const int32_t a_mod = mrtq__fx_sub(mrtq__wrap32((uint32_t)a & (uint32_t)(quarter - 1)), quarter, w);
  const uint32_t rem = (uint32_t)mrtq__fx_sub(a_mod, a, w);
  int32_t r = mrtq__fx_exp_quarter(mrtq__fx_mul_pot(a_mod, int_bits, w), w);
  int k;
  for (k = -2; k <= 4 && k < int_bits; k++)
    if (rem & ((uint32_t)1 << (frac + k))) r = mrtq__fx_mul(r, mrtq__fx_const(m[k + 2], w), w);
  if (int_bits > 5 && a < mrtq__fx_const(-((int32_t)1 << (36 - int_bits)), w)) r = 0; /* below -32 */
  if (a == 0) r = mrtq__fx_max(w);
  return r;
}

/* The Newton-Raphson iteration shared by the two reciprocal helpers: Q2
 * approximation of 2 / (1 + a). */
MRTQ__PRIV int32_t mrtq__fx_newton(int32_t a, int w) {
  const int32_t one2 = mrtq__fx_one(2, w);
  const int32_t d = mrtq__fx_half_sum(a, mrtq__fx_max(w));
  int32_t x = mrtq__fx_add(mrtq__fx_const(1515870810, w), mrtq__fx_mul(d, mrtq__fx_const(-1010580540, w), w), w);
  int i;
  for (i = 0; i < 3; i++) {
    int32_t e = mrtq__fx_sub(one2, mrtq__fx_mul(d, x, w), w);
    x = mrtq__fx_add(x, mrtq__fx_mul_pot(mrtq__fx_mul(x, e, w), 2, w), w);
  }
  return x;
}
MRTQ__PRIV int32_t mrtq__fx_one_over_one_plus_x(int32_t a, int w) { return mrtq__fx_mul_pot(mrtq__fx_newton(a, w), 1, w); }
MRTQ__PRIV int32_t mrtq__fx_one_minus_x_over_one_plus_x(int32_t a, int w) {
  return mrtq__fx_mul_pot(mrtq__fx_sub(mrtq__fx_newton(a, w), mrtq__fx_one(2, w), w), 2, w);
}

MRTQ__PRIV int32_t mrtq__fx_tanh(int32_t a, int int_bits, int w) {
  int32_t n = a < 0 ? a : mrtq__fx_neg(a, w);
  int32_t t = mrtq__fx_one_minus_x_over_one_plus_x(mrtq__fx_exp_neg(n, int_bits + 1, w), w);
  return a == 0 ? 0 : a < 0 ? mrtq__fx_neg(t, w) : t;
}

MRTQ__PRIV int32_t mrtq__fx_logistic(int32_t a, int int_bits, int w) {
  int32_t abs_a = a > 0 ? a : mrtq__fx_neg(a, w);
  int32_t pos = mrtq__fx_one_over_one_plus_x(mrtq__fx_exp_neg(mrtq__fx_neg(abs_a, w), int_bits, w), w);
  if (a == 0) return mrtq__fx_const(1 << 30, w);
  return a > 0 ? pos : mrtq__fx_sub(mrtq__fx_max(w), pos, w);
}

/* ---- public wrappers ---- */

MRTQ_API int16_t mrtq_fx_srdhm_s16(int16_t a, int16_t b) { return (int16_t)mrtq__fx_mul(a, b, 16); }

MRTQ_API mrtq_status mrtq_fx_mul_pot_s32(int32_t x, int exponent, int32_t *out) {
  if (exponent < -31 || exponent > 31) return MRTQ__ERR(MRTQ_ERANGE, "exponent: outside [-31, 31]");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  *out = mrtq__fx_mul_pot(x, exponent, 32);
  return MRTQ_OK;
}
MRTQ_API mrtq_status mrtq_fx_mul_pot_s16(int16_t x, int exponent, int16_t *out) {
  if (exponent < -15 || exponent > 15) return MRTQ__ERR(MRTQ_ERANGE, "exponent: outside [-15, 15]");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  *out = (int16_t)mrtq__fx_mul_pot(x, exponent, 16);
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_fx_rescale_s32(int32_t x, int src_bits, int dst_bits, int32_t *out) {
  if (src_bits < 0 || src_bits > 31) return MRTQ__ERR(MRTQ_ERANGE, "src_bits: outside [0, 31]");
  if (dst_bits < 0 || dst_bits > 31) return MRTQ__ERR(MRTQ_ERANGE, "dst_bits: outside [0, 31]");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  *out = mrtq__fx_mul_pot(x, src_bits - dst_bits, 32);
  return MRTQ_OK;
}
MRTQ_API mrtq_status mrtq_fx_rescale_s16(int16_t x, int src_bits, int dst_bits, int16_t *out) {
  if (src_bits < 0 || src_bits > 15) return MRTQ__ERR(MRTQ_ERANGE, "src_bits: outside [0, 15]");
  if (dst_bits < 0 || dst_bits > 15) return MRTQ__ERR(MRTQ_ERANGE, "dst_bits: outside [0, 15]");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  *out = (int16_t)mrtq__fx_mul_pot(x, src_bits - dst_bits, 16);
  return MRTQ_OK;
}

MRTQ_API int32_t mrtq_fx_exp_quarter_s32(int32_t a) { return mrtq__fx_exp_quarter(a, 32); }
MRTQ_API int16_t mrtq_fx_exp_quarter_s16(int16_t a) { return (int16_t)mrtq__fx_exp_quarter(a, 16); }

MRTQ_API mrtq_status mrtq_fx_exp_neg_s32(int32_t a, int int_bits, int32_t *out) {
  if (int_bits < 0 || int_bits > 29) return MRTQ__ERR(MRTQ_ERANGE, "int_bits: outside [0, 29]");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  *out = mrtq__fx_exp_neg(a, int_bits, 32);
  return MRTQ_OK;
}
MRTQ_API mrtq_status mrtq_fx_exp_neg_s16(int16_t a, int int_bits, int16_t *out) {
  if (int_bits < 0 || int_bits > 13) return MRTQ__ERR(MRTQ_ERANGE, "int_bits: outside [0, 13]");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  *out = (int16_t)mrtq__fx_exp_neg(a, int_bits, 16);
  return MRTQ_OK;
}

MRTQ_API int32_t mrtq_fx_one_over_one_plus_x_s32(int32_t a) { return mrtq__fx_one_over_one_plus_x(a, 32); }
MRTQ_API int16_t mrtq_fx_one_over_one_plus_x_s16(int16_t a) { return (int16_t)mrtq__fx_one_over_one_plus_x(a, 16); }
MRTQ_API int32_t mrtq_fx_one_minus_x_over_one_plus_x_s32(int32_t a) {
  return mrtq__fx_one_minus_x_over_one_plus_x(a, 32);
}
MRTQ_API int16_t mrtq_fx_one_minus_x_over_one_plus_x_s16(int16_t a) {
  return (int16_t)mrtq__fx_one_minus_x_over_one_plus_x(a, 16);
}

MRTQ_API mrtq_status mrtq_fx_tanh_s32(int32_t a, int int_bits, int32_t *out) {
  if (int_bits < 0 || int_bits > 28) return MRTQ__ERR(MRTQ_ERANGE, "int_bits: outside [0, 28]");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  *out = mrtq__fx_tanh(a, int_bits, 32);
  return MRTQ_OK;
}
MRTQ_API mrtq_status mrtq_fx_tanh_s16(int16_t a, int int_bits, int16_t *out) {
  if (int_bits < 0 || int_bits > 12) return MRTQ__ERR(MRTQ_ERANGE, "int_bits: outside [0, 12]");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  *out = (int16_t)mrtq__fx_tanh(a, int_bits, 16);
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_fx_logistic_s32(int32_t a, int int_bits, int32_t *out) {
  if (int_bits < 0 || int_bits > 29) return MRTQ__ERR(MRTQ_ERANGE, "int_bits: outside [0, 29]");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  *out = mrtq__fx_logistic(a, int_bits, 32);
  return MRTQ_OK;
}
MRTQ_API mrtq_status mrtq_fx_logistic_s16(int16_t a, int int_bits, int16_t *out) {
  if (int_bits < 0 || int_bits > 13) return MRTQ__ERR(MRTQ_ERANGE, "int_bits: outside [0, 13]");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  *out = (int16_t)mrtq__fx_logistic(a, int_bits, 16);
  return MRTQ_OK;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_FXMATH_H */
