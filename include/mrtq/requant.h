/* mrtq/requant.h -- the requantization families, scalar (layer 3; includes
 * mrtq/fixedpoint.h). Each function is the specification of its family:
 * total (no undefined behaviour for any argument values), named after its
 * rounding, never switched by a build macro. Normative math and the relation
 * to each upstream anchor: docs/semantics.md.
 *
 * The float functions (requant_fp32, quantize_f32, dequantize_f32) assume the
 * default floating-point environment (round to nearest even, no trapping) and
 * a compiler that rounds every float assignment to float (C11 standard
 * FLT_EVAL_METHOD semantics; true of every x86-64/aarch64 compiler). They are
 * written so that no multiply can be contracted into an FMA. */
#ifndef MRTQ_REQUANT_H
#define MRTQ_REQUANT_H

#include "fixedpoint.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the fixed-point families ---- */

/* Q31 double rounding: TFLite MultiplyByQuantizedMultiplier (default build),
 * gemmlowp, CMSIS-NN default, XNNPACK "gemmlowp" requantization:
 *   RDIVPOT(SRDHM(x * 2^max(shift, 0), mult), max(-shift, 0))
 * i.e. first round x*mult/2^31 to nearest with ties toward +inf, then divide by
 * 2^-shift rounding to nearest with ties away from zero (two roundings; they
 * differ from single rounding by 1 on ~8% of random inputs).
 * Bit-exact with TFLite for mult in [0, 2^31-1], shift in [-31, 30] and
 * x * 2^max(shift,0) within int32 (where TFLite is defined). Outside: the left
 * shift saturates x * 2^shift to int32 (as gemmlowp/TFLite NEON paths do with a
 * saturating shift), and shift < -31 keeps RDIVPOT's exact definition (result
 * 0 or -1). Any mult, including negative, follows the formula. */
MRTQ_API int32_t mrtq_mul_q31_dbl(int32_t x, mrtq_mult m) {
  int64_t sh = m.shift;
  int32_t xs = sh > 0 ? mrtq__shl_sat32(x, sh) : x;
  return mrtq_rdivpot(mrtq_srdhm(xs, m.mult), sh < 0 ? (sh < -63 ? 63 : (int)-sh) : 0);
}

/* Exact floor(x * mult * 2^(shift - F) + 1/2), saturated to int32. */
MRTQ_API int32_t mrtq__mul_rndnu(int32_t x, mrtq_mult m, int F) {
  int64_t p = (int64_t)x * m.mult; /* exact: |p| <= 2^62 */
  int64_t k = (int64_t)F - m.shift; /* right-shift amount */
  if (k > 0) return mrtq__sat32(mrtq_rshift_rndnu(p, k > 64 ? 64 : (int)k));
  return mrtq__shl_sat32(p, -k);
}

/* Q31 single rounding: TFLite MultiplyByQuantizedMultiplier under
 * TFLITE_SINGLE_ROUNDING, CMSIS-NN single rounding, XNNPACK "rndnu":
 *   floor(x * mult / 2^(31 - shift) + 1/2)   (one rounding, ties toward +inf)
 * computed exactly in 64 bits. Bit-exact with TFLite over its domain (mult in
 * [0, 2^31-1], shift in [-31, 30]). Total: any shift keeps the exact formula,
 * the result saturated to int32. */
MRTQ_API int32_t mrtq_mul_q31_rndnu(int32_t x, mrtq_mult m) { return mrtq__mul_rndnu(x, m, 31); }

/* Q15 as the VTA functional simulator executes the TFLite delegate's sequence
 * (MUL imm, SHR imm):
 *   p = (x * mult) mod 2^32 as int32 (wrapping multiply);
 *   k = 15 - shift;  k >= 0: floor(p / 2^k)  (arithmetic shift: ties and all
 *   fractions toward -inf);  k < 0: (p * 2^-k) mod 2^32 (wrapping left shift).
 * Shift amounts the hardware cannot take (|k| >= 32, only reachable with
 * out-of-range shifts) keep the exact definition: k >= 32 gives 0 or -1,
 * k <= -32 gives 0. */
MRTQ_API int32_t mrtq_mul_q15_vta(int32_t x, mrtq_mult m) {
  int32_t p = mrtq__wrap32((uint32_t)x * (uint32_t)m.mult);
  int64_t k = (int64_t)15 - m.shift;
  if (k >= 0) return mrtq__asr32(p, k > 31 ? 31 : (int)k);
  if (k <= -32) return 0;
  return mrtq__wrap32((uint32_t)p << (int)-k);
}

/* Q15 with nudge rounding (the rounding form of the VTA sequence):
 *   floor(x * mult / 2^(15 - shift) + 1/2)  (ties toward +inf), exact (no
 * wrap in the multiply), saturated to int32. Any shift. */
MRTQ_API int32_t mrtq_mul_q15_rndnu(int32_t x, mrtq_mult m) { return mrtq__mul_rndnu(x, m, 15); }

/* int32 -> int16 modulo 2^16 (as a conversion to int16_t does on every
 * two's-complement target), returned as int32. */
MRTQ_API int32_t mrtq__wrap16(int64_t v) {
  uint32_t u = (uint32_t)((uint64_t)v & 0xffffu);
  return u >= 0x8000u ? (int32_t)u - 0x10000 : (int32_t)u;
}

/* The VTA TFLite delegate's host-side dequantization of an int8 input
 * (alkali-csd-fw simulateRealValue), the step that feeds its ADD on VTA.
 * Every intermediate is int16 as upstream, so it wraps modulo 2^16:
 *   v = (q - zp) mod 2^16;  w = (v * 2^7) mod 2^16          (left shift 7)
 *   p = w * mult16  (exact, |p| <= 2^30; mult16 = mult mod 2^16)
 *   r = floor((p + n) / 2^15), n = 2^14 if p >= 0 else 1 - 2^14
 *       (a nudge then a floor shift: non-negative ties go up, and every
 *        negative p comes out one lower than TFLite's truncating SRDHM,
 *        e.g. p = -1 gives -1, the tie p = -2^14 gives -1)
 *   r = INT16_MAX if w == mult16 == INT16_MIN (upstream's overflow guard);
 *   r = r mod 2^16, then y = floor(r / 2^-shift)            (for shift <= 0)
 * Bit-exact with the delegate over its domain: q in [-128, 127], zp and mult
 * in int16, shift in [-15, 0] (what mrtq_mult_q15 gives for the delegate's
 * input scales, which are <= 1/2). Total outside it: shift < -31 acts as -31;
 * shift > 0 (undefined upstream) gives (r * 2^shift) mod 2^16, 0 from 16 on. */
MRTQ_API int32_t mrtq_dequant_vta(int32_t q, int32_t zp, mrtq_mult m) {
  int32_t w = mrtq__wrap16((int64_t)mrtq__wrap16((int64_t)q - zp) * 128);
  int32_t mult = mrtq__wrap16(m.mult);
  int32_t p = w * mult; /* |w|, |mult| <= 2^15: fits */
  int32_t r = mrtq__asr32(p + (p >= 0 ? (1 << 14) : 1 - (1 << 14)), 15);
  if (w == mult && w == -32768) r = 32767;
  r = mrtq__wrap16(r);
  if (m.shift <= 0) return mrtq__asr32(r, m.shift < -31 ? 31 : (int)-m.shift);
  if (m.shift >= 16) return 0;
  return mrtq__wrap16((int64_t)r * ((int64_t)1 << m.shift));
}

/* ---- float families ---- */

/* float f -> nearest integer, ties to even, as int64; saturates at +-2^40
 * (beyond any int32 result plus zero point); NaN -> 0. Pure integer work on the
 * bit pattern: independent of the rounding mode and of FMA contraction. */
MRTQ_API int64_t mrtq__rne_f32(float f) {
  uint32_t u, ex, s;
  uint64_t m, q, r, half;
  const int64_t big = (int64_t)1 << 40;
  memcpy(&u, &f, sizeof u);
  ex = (u >> 23) & 0xffu;
  m = u & 0x7fffffu;
  if (ex == 0xffu) return m ? 0 : (u >> 31) ? -big : big;
  if (ex < 126u) return 0; /* |f| < 1/2 */
  m |= 0x800000u;          /* f = +-m * 2^(ex - 150) */
  if (ex >= 150u) {
    q = ex - 150u > 16u ? (uint64_t)big : m << (ex - 150u);
  } else {
    s = 150u - ex; /* 1..24 */
    q = m >> s;
    r = m & (((uint64_t)1 << s) - 1u);
    half = (uint64_t)1 << (s - 1u);
    q += (r > half || (r == half && (q & 1u)));
  }
  return (u >> 31) ? -(int64_t)q : (int64_t)q;
}

/* fp32 requantization as XNNPACK's x86 qs8 kernels and oneDNN's int8
 * primitives compute it:
 *   f = (float)acc * scale          (two float roundings, no FMA)
 *   clamp(RNE(f) + zp, qmin, qmax)  (round to nearest, ties to even)
 * (equal to XNNPACK's float clamp to [qmin-zp, qmax-zp] before rounding, since
 * the bounds are integers). Total: f = +-inf saturates; f NaN (scale NaN)
 * counts as 0; if qmin > qmax the result is qmax. */
MRTQ_API int32_t mrtq_requant_fp32(int32_t acc, float scale, int32_t zp, int32_t qmin, int32_t qmax) {
  float f = (float)acc * scale;
  return mrtq__clamp64(mrtq__rne_f32(f) + zp, qmin, qmax);
}

/* ONNX QuantizeLinear: saturate(RNE(x / scale) + zp) into [qmin, qmax]
 * (x / scale is one correctly rounded float division; ties to even). For the
 * standard types pass [-128, 127] or [0, 255]. Total: +-inf quotients
 * saturate; NaN (x NaN, or 0/0) counts as 0, giving clamp(zp); qmin > qmax
 * gives qmax. */
MRTQ_API int32_t mrtq_quantize_f32(float x, float scale, int32_t zp, int32_t qmin, int32_t qmax) {
  float f = x / scale;
  return mrtq__clamp64(mrtq__rne_f32(f) + zp, qmin, qmax);
}

/* ONNX DequantizeLinear: (float)(q - zp) * scale, the difference taken exactly
 * in 64 bits and then rounded to float (exact whenever |q - zp| <= 2^24), one
 * float multiply. */
MRTQ_API float mrtq_dequantize_f32(int32_t q, float scale, int32_t zp) {
  return (float)((int64_t)q - zp) * scale;
}

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_REQUANT_H */
