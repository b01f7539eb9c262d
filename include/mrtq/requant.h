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

/* ---- SIMD selection (compile time; see mrtq.h) ---- */
#define MRTQ_SIMD_SCALAR 0
#define MRTQ_SIMD_SSE41 1
#define MRTQ_SIMD_AVX2 2
#define MRTQ_SIMD_AVX512 3
#define MRTQ_SIMD_NEON 4
#if defined(MRTQ_NO_SIMD)
#undef MRTQ_SIMD
#define MRTQ_SIMD MRTQ_SIMD_SCALAR
#elif !defined(MRTQ_SIMD)
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__)
#define MRTQ_SIMD MRTQ_SIMD_AVX512
#elif defined(__AVX2__)
#define MRTQ_SIMD MRTQ_SIMD_AVX2
#elif defined(__SSE4_1__)
#define MRTQ_SIMD MRTQ_SIMD_SSE41
#elif defined(__aarch64__) && defined(__ARM_NEON)
#define MRTQ_SIMD MRTQ_SIMD_NEON
#else
#define MRTQ_SIMD MRTQ_SIMD_SCALAR
#endif
#endif
#if MRTQ_SIMD == MRTQ_SIMD_AVX512 && !(defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__))
#error "MRTQ_SIMD=MRTQ_SIMD_AVX512 needs a compiler target with AVX-512 F, BW and DQ (e.g. -mavx512f -mavx512bw -mavx512dq)"
#elif MRTQ_SIMD == MRTQ_SIMD_AVX2 && !defined(__AVX2__)
#error "MRTQ_SIMD=MRTQ_SIMD_AVX2 needs a compiler target with AVX2 (e.g. -mavx2)"
#elif MRTQ_SIMD == MRTQ_SIMD_NEON && !(defined(__aarch64__) && defined(__ARM_NEON))
#error "MRTQ_SIMD=MRTQ_SIMD_NEON needs an AArch64 target with NEON"
#elif MRTQ_SIMD == MRTQ_SIMD_SSE41 && !defined(__SSE4_1__)
#error "MRTQ_SIMD=MRTQ_SIMD_SSE41 needs a compiler target with SSE4.1 (e.g. -msse4.1)"
#elif MRTQ_SIMD < 0 || MRTQ_SIMD > 4
#error "MRTQ_SIMD must be one of MRTQ_SIMD_SCALAR, _SSE41, _AVX2, _AVX512, _NEON"
#endif

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
 * 0: SRDHM never yields -2^31, the one input that would give -1). Any mult, including negative, follows the formula. */
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
 *        e.g. p = -2^7 gives -1, the tie p = -2^14 gives -1; p is always a
 *        multiple of 2^7)
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

/* ==== array API ====
 * One requantization, described once (mrtq_rq_init), applied to arrays.
 * out[i] = clamp(F(acc[i]) + zp, qmin', qmax') where F is the family's scalar
 * function above and qmin', qmax' are qmin, qmax saturated into the output
 * type's range ([-128, 127] for _s8, [0, 255] for _u8): see mrtq_rq_apply. Every SIMD
 * path gives exactly these bytes (see MRTQ_SIMD in mrtq.h). */

typedef enum mrtq_scheme {
  MRTQ_Q31_DBL = 0,   /* mrtq_mul_q31_dbl   (TFLite default, gemmlowp) */
  MRTQ_Q31_RNDNU = 1, /* mrtq_mul_q31_rndnu (TFLite single rounding, XNNPACK rndnu) */
  MRTQ_Q15_VTA = 2,   /* mrtq_mul_q15_vta   (VTA functional simulator) */
  MRTQ_Q15_RNDNU = 3, /* mrtq_mul_q15_rndnu (VTA sequence with nudge rounding) */
  MRTQ_FP32 = 4       /* mrtq_requant_fp32  (XNNPACK x86, oneDNN) */
} mrtq_scheme;

typedef struct mrtq_rq {
  mrtq_scheme scheme;
  mrtq_mult m;        /* fixed-point families: the encoded scale */
  float scale;        /* MRTQ_FP32: (float)scale */
  int32_t zp, qmin, qmax;
} mrtq_rq;

/* Describe a requantization: scheme, real scale (> 0), output zero point and
 * clamp bounds. The multiplier comes from mrtq_mult_q31 (Q31 families) or
 * mrtq_mult_q15 (Q15 families); FP32 keeps (float)scale.
 * Errors: rq NULL, scale NaN/inf/<= 0, qmin > qmax, unknown scheme ->
 * MRTQ_EINVAL; a scale the family cannot represent -> MRTQ_ERANGE: flushed to
 * zero by the encoder (Q31 below 2^-32 * (1 - 2^-32), Q15 below
 * 2^-16 * (1 - 2^-16); the delegate's 1e-6 cut-off lies inside that), Q31
 * scales >= 2^30 * (1 - 2^-32) (shift > 30, outside TFLite's domain), Q15
 * scales >= 2^15 * (1 - 2^-16) (shift > 15: the VTA shift would turn left),
 * FP32 scales above FLT_MAX or that round to 0 in float. On error *rq is left unchanged. */
MRTQ_API mrtq_status mrtq_rq_init(mrtq_rq *rq, mrtq_scheme scheme, double scale, int32_t zp, int32_t qmin,
                                  int32_t qmax) {
  mrtq_rq r;
  mrtq_status st = MRTQ_OK;
  if (!rq || mrtq__nonfinite(scale) || !(scale > 0) || qmin > qmax) return MRTQ_EINVAL;
  r.scheme = scheme;
  r.m.mult = 0;
  r.m.shift = 0;
  r.scale = 0.0f;
  r.zp = zp;
  r.qmin = qmin;
  r.qmax = qmax;
  switch (scheme) {
    case MRTQ_Q31_DBL:
    case MRTQ_Q31_RNDNU:
      st = mrtq_mult_q31(scale, &r.m);
      if (st == MRTQ_OK && (r.m.mult == 0 || r.m.shift > 30)) st = MRTQ_ERANGE;
      break;
    case MRTQ_Q15_VTA:
    case MRTQ_Q15_RNDNU:
      st = mrtq_mult_q15(scale, &r.m);
      if (st == MRTQ_OK && (r.m.mult == 0 || r.m.shift > 15)) st = MRTQ_ERANGE;
      break;
    case MRTQ_FP32:
      if (!(scale <= 3.4028234663852886e38)) return MRTQ_ERANGE;
      r.scale = (float)scale;
      if (!(r.scale > 0)) st = MRTQ_ERANGE;
      break;
    default: return MRTQ_EINVAL;
  }
  if (st == MRTQ_OK) *rq = r;
  return st;
}

/* The effective clamp bounds for an output type [lo, hi]: qmin and qmax each
 * saturated into the type's range (so the result is clamp to [qmin, qmax],
 * then saturation to the type; never empty, since qmin <= qmax). */
MRTQ_API void mrtq__rq_bounds(const mrtq_rq *rq, int32_t *lo, int32_t *hi) {
  int32_t l = *lo, h = *hi;
  *lo = rq->qmin < l ? l : rq->qmin > h ? h : rq->qmin;
  *hi = rq->qmax < l ? l : rq->qmax > h ? h : rq->qmax;
}

/* One element, the scalar specification of every array path:
 *   fixed-point families: clamp(F(acc) + zp, lo', hi'), F the family's
 *     function (its int32 result, saturated where the family saturates), the
 *     sum exact;
 *   FP32: mrtq_requant_fp32(acc, scale, zp, lo', hi');
 * where lo' = qmin and hi' = qmax, each saturated into [lo, hi] (the output
 * type's range): clamp to [qmin, qmax], then saturate to the type. */
MRTQ_API int32_t mrtq_rq_apply(const mrtq_rq *rq, int32_t acc, int32_t lo, int32_t hi) {
  int32_t y;
  mrtq__rq_bounds(rq, &lo, &hi);
  switch (rq->scheme) {
    case MRTQ_Q31_DBL: y = mrtq_mul_q31_dbl(acc, rq->m); break;
    case MRTQ_Q31_RNDNU: y = mrtq_mul_q31_rndnu(acc, rq->m); break;
    case MRTQ_Q15_VTA: y = mrtq_mul_q15_vta(acc, rq->m); break;
    case MRTQ_Q15_RNDNU: y = mrtq_mul_q15_rndnu(acc, rq->m); break;
    default: return mrtq_requant_fp32(acc, rq->scale, rq->zp, lo, hi);
  }
  return mrtq__clamp64((int64_t)y + rq->zp, lo, hi);
}

/* Scalar array loops (the specification; also the fallback). */
MRTQ_API void mrtq_requant_s8_scalar(const mrtq_rq *rq, const int32_t *acc, size_t n, int8_t *out) {
  size_t i;
  for (i = 0; i < n; i++) out[i] = (int8_t)mrtq_rq_apply(rq, acc[i], -128, 127);
}
MRTQ_API void mrtq_requant_u8_scalar(const mrtq_rq *rq, const int32_t *acc, size_t n, uint8_t *out) {
  size_t i;
  for (i = 0; i < n; i++) out[i] = (uint8_t)mrtq_rq_apply(rq, acc[i], 0, 255);
}

/* Fast-path precondition: effective bounds lo <= hi and lo - zp, hi - zp in
 * [-2^24, 2^24] (true for every zero point within 2^24 - 256 of the output
 * range). Then the clamp can be applied before adding zp, in int32 or exactly
 * in float. Returns 1 and the shifted bounds, or 0 (use the scalar loop). */
MRTQ_API int mrtq__rq_fast(const mrtq_rq *rq, int32_t lo, int32_t hi, int32_t *lo2, int32_t *hi2) {
  int64_t l, h;
  /* the SIMD code relies on what mrtq_rq_init guarantees; a hand-made rq
   * outside it goes to the (total) scalar code */
  switch (rq->scheme) {
    case MRTQ_Q31_DBL:
    case MRTQ_Q31_RNDNU:
      if (rq->m.mult < 0 || rq->m.shift < -31 || rq->m.shift > 30) return 0;
      break;
    case MRTQ_Q15_VTA:
    case MRTQ_Q15_RNDNU:
      if (rq->m.mult < 0 || rq->m.mult > 32767 || rq->m.shift < -15 || rq->m.shift > 15) return 0;
      break;
    case MRTQ_FP32:
      if (mrtq__nonfinite_f32(rq->scale)) return 0;
      break;
    default: return 0;
  }
  mrtq__rq_bounds(rq, &lo, &hi);
  l = (int64_t)lo - rq->zp;
  h = (int64_t)hi - rq->zp;
  if (lo > hi || l < -(1 << 24) || h > (1 << 24)) return 0;
  *lo2 = (int32_t)l;
  *hi2 = (int32_t)h;
  return 1;
}

#ifdef __cplusplus
}
#endif
#if MRTQ_SIMD == MRTQ_SIMD_AVX512
#include "requant_avx512.h"
#elif MRTQ_SIMD == MRTQ_SIMD_AVX2
#include "requant_avx2.h"
#elif MRTQ_SIMD == MRTQ_SIMD_SSE41
#include "requant_sse41.h"
#elif MRTQ_SIMD == MRTQ_SIMD_NEON
#include "requant_neon.h"
#endif
#ifdef __cplusplus
extern "C" {
#endif

/* SIMD blocks (when the build has a SIMD path and the precondition holds),
 * then the scalar loop for the rest. Bytes are the same either way. */
MRTQ_API size_t mrtq__requant_simd(const mrtq_rq *rq, const int32_t *acc, size_t n, uint8_t *out, int32_t lo,
                                   int32_t hi) {
#if MRTQ_SIMD != MRTQ_SIMD_SCALAR
  int32_t lo2, hi2;
  int u8 = lo == 0; /* uint8 output: bias by -128 so lanes are signed bytes, flip the top bit back */
  int full = rq->qmin <= lo && rq->qmax >= hi; /* the clamp is the output type's own saturation */
  if (!mrtq__rq_fast(rq, lo, hi, &lo2, &hi2)) return 0;
#if MRTQ_SIMD == MRTQ_SIMD_AVX512
  return mrtq__requant_avx512(rq, acc, n, out, lo2, hi2, u8 ? rq->zp - 128 : rq->zp, u8 ? 0x80 : 0, full);
#elif MRTQ_SIMD == MRTQ_SIMD_AVX2
  return mrtq__requant_avx2(rq, acc, n, out, lo2, hi2, u8 ? rq->zp - 128 : rq->zp, u8 ? 0x80 : 0, full);
#elif MRTQ_SIMD == MRTQ_SIMD_SSE41
  return mrtq__requant_sse41(rq, acc, n, out, lo2, hi2, u8 ? rq->zp - 128 : rq->zp, u8 ? 0x80 : 0, full);
#else
  return mrtq__requant_neon(rq, acc, n, out, lo2, hi2, u8 ? rq->zp - 128 : rq->zp, u8 ? 0x80 : 0, full);
#endif
#else
  (void)rq, (void)acc, (void)n, (void)out, (void)lo, (void)hi;
  return 0;
#endif
}

/* Requantize n int32 accumulators to int8: out[i] = mrtq_rq_apply(rq, acc[i],
 * -128, 127), with the build's SIMD path (MRTQ_SIMD) where it applies. Any n
 * (0 included), any alignment. Like memcpy, the array functions cannot fail
 * and check nothing: rq (one per channel in the per-channel forms) must point
 * to valid descriptions (from mrtq_rq_init; a hand-filled one outside its
 * ranges still gets the exact scalar result), acc and out to n elements each,
 * not overlapping. */
MRTQ_API void mrtq_requant_s8(const mrtq_rq *rq, const int32_t *acc, size_t n, int8_t *out) {
  size_t i = mrtq__requant_simd(rq, acc, n, (uint8_t *)out, -128, 127);
  mrtq_requant_s8_scalar(rq, acc + i, n - i, out + i);
}

/* Requantize to uint8: out[i] = mrtq_rq_apply(rq, acc[i], 0, 255). */
MRTQ_API void mrtq_requant_u8(const mrtq_rq *rq, const int32_t *acc, size_t n, uint8_t *out) {
  size_t i = mrtq__requant_simd(rq, acc, n, out, 0, 255);
  mrtq_requant_u8_scalar(rq, acc + i, n - i, out + i);
}

/* Per channel, channel-outer layout (NCHW and the like): acc holds `outer`
 * blocks of `channels` runs of `inner` contiguous elements; run c of every
 * block uses rq[c]. */
MRTQ_API void mrtq_requant_s8_outer(const mrtq_rq *rq, size_t outer, size_t channels, size_t inner,
                                    const int32_t *acc, int8_t *out) {
  size_t o, c;
  for (o = 0; o < outer; o++)
    for (c = 0; c < channels; c++, acc += inner, out += inner) mrtq_requant_s8(&rq[c], acc, inner, out);
}
MRTQ_API void mrtq_requant_u8_outer(const mrtq_rq *rq, size_t outer, size_t channels, size_t inner,
                                    const int32_t *acc, uint8_t *out) {
  size_t o, c;
  for (o = 0; o < outer; o++)
    for (c = 0; c < channels; c++, acc += inner, out += inner) mrtq_requant_u8(&rq[c], acc, inner, out);
}

/* Per channel, channel-inner layout (NHWC and the like): acc holds `rows`
 * rows of `channels` elements; element c of every row uses rq[c]. */
MRTQ_API void mrtq_requant_s8_inner(const mrtq_rq *rq, size_t rows, size_t channels, const int32_t *acc,
                                    int8_t *out) {
  size_t r, c;
  for (r = 0; r < rows; r++, acc += channels, out += channels)
    for (c = 0; c < channels; c++) out[c] = (int8_t)mrtq_rq_apply(&rq[c], acc[c], -128, 127);
}
MRTQ_API void mrtq_requant_u8_inner(const mrtq_rq *rq, size_t rows, size_t channels, const int32_t *acc,
                                    uint8_t *out) {
  size_t r, c;
  for (r = 0; r < rows; r++, acc += channels, out += channels)
    for (c = 0; c < channels; c++) out[c] = (uint8_t)mrtq_rq_apply(&rq[c], acc[c], 0, 255);
}

/* ---- array quantize / dequantize (ONNX QuantizeLinear / DequantizeLinear) ---- */

/* SIMD blocks of the array quantize (AVX2, AVX-512), when |zp| <= 2^24 so the
 * float bounds lo - zp, hi - zp are exact; returns how many were written. */
MRTQ_API size_t mrtq__quantize_simd(const float *x, size_t n, float scale, int32_t zp, uint8_t *out, int32_t lo,
                                    int32_t hi) {
#if MRTQ_SIMD == MRTQ_SIMD_AVX512 || MRTQ_SIMD == MRTQ_SIMD_AVX2
  int u8 = lo == 0;
  if (zp < -(1 << 24) || zp > (1 << 24)) return 0;
#if MRTQ_SIMD == MRTQ_SIMD_AVX512
  return mrtq__quantize_avx512(x, n, scale, (float)(lo - zp), (float)(hi - zp), u8 ? zp - 128 : zp, u8 ? 0x80 : 0, out);
#else
  return mrtq__quantize_avx2(x, n, scale, (float)(lo - zp), (float)(hi - zp), u8 ? zp - 128 : zp, u8 ? 0x80 : 0, out);
#endif
#else
  (void)x, (void)n, (void)scale, (void)zp, (void)out, (void)lo, (void)hi;
  return 0;
#endif
}

/* The scalar array quantize: the specification of the SIMD blocks. */
MRTQ_API void mrtq__quantize_scalar(const float *x, size_t n, float scale, int32_t zp, uint8_t *out, int32_t lo,
                                    int32_t hi) {
  size_t i;
  for (i = 0; i < n; i++) out[i] = (uint8_t)(mrtq_quantize_f32(x[i], scale, zp, lo, hi) & 0xff);
}

/* out[i] = mrtq_quantize_f32(x[i], scale, zp, -128, 127) (s8) or (..., 0, 255)
 * (u8), with the build's AVX2/AVX-512 path where it applies (same bytes). */
MRTQ_API void mrtq_quantize_f32_s8(const float *x, size_t n, float scale, int32_t zp, int8_t *out) {
  size_t done = mrtq__quantize_simd(x, n, scale, zp, (uint8_t *)out, -128, 127);
  mrtq__quantize_scalar(x + done, n - done, scale, zp, (uint8_t *)out + done, -128, 127);
}
MRTQ_API void mrtq_quantize_f32_u8(const float *x, size_t n, float scale, int32_t zp, uint8_t *out) {
  size_t done = mrtq__quantize_simd(x, n, scale, zp, out, 0, 255);
  mrtq__quantize_scalar(x + done, n - done, scale, zp, out + done, 0, 255);
}
/* SIMD blocks of the array dequantize (AVX2, AVX-512) when |zp| <= 2^24. */
MRTQ_API size_t mrtq__dequantize_simd(const uint8_t *q, int is_u8, size_t n, float scale, int32_t zp, float *out) {
#if MRTQ_SIMD == MRTQ_SIMD_AVX512 || MRTQ_SIMD == MRTQ_SIMD_AVX2
  if (zp < -(1 << 24) || zp > (1 << 24)) return 0;
#if MRTQ_SIMD == MRTQ_SIMD_AVX512
  return mrtq__dequantize_avx512(q, is_u8, n, scale, zp, out);
#else
  return mrtq__dequantize_avx2(q, is_u8, n, scale, zp, out);
#endif
#else
  (void)q, (void)is_u8, (void)n, (void)scale, (void)zp, (void)out;
  return 0;
#endif
}
MRTQ_API void mrtq__dequantize_s8_scalar(const int8_t *q, size_t n, float scale, int32_t zp, float *out) {
  size_t i;
  for (i = 0; i < n; i++) out[i] = mrtq_dequantize_f32(q[i], scale, zp);
}
MRTQ_API void mrtq__dequantize_u8_scalar(const uint8_t *q, size_t n, float scale, int32_t zp, float *out) {
  size_t i;
  for (i = 0; i < n; i++) out[i] = mrtq_dequantize_f32(q[i], scale, zp);
}

/* out[i] = mrtq_dequantize_f32(q[i], scale, zp), with the build's AVX2/AVX-512
 * path where it applies (same floats). */
MRTQ_API void mrtq_dequantize_s8_f32(const int8_t *q, size_t n, float scale, int32_t zp, float *out) {
  size_t done = mrtq__dequantize_simd((const uint8_t *)q, 0, n, scale, zp, out);
  mrtq__dequantize_s8_scalar(q + done, n - done, scale, zp, out + done);
}
MRTQ_API void mrtq_dequantize_u8_f32(const uint8_t *q, size_t n, float scale, int32_t zp, float *out) {
  size_t done = mrtq__dequantize_simd(q, 1, n, scale, zp, out);
  mrtq__dequantize_u8_scalar(q + done, n - done, scale, zp, out + done);
}
/* Per channel, channel-outer: `outer` blocks of `channels` runs of `inner`;
 * run c uses scale[c], zp[c]. */
MRTQ_API void mrtq_quantize_f32_s8_outer(const float *x, size_t outer, size_t channels, size_t inner,
                                         const float *scale, const int32_t *zp, int8_t *out) {
  size_t o, c;
  for (o = 0; o < outer; o++)
    for (c = 0; c < channels; c++, x += inner, out += inner) mrtq_quantize_f32_s8(x, inner, scale[c], zp[c], out);
}
MRTQ_API void mrtq_quantize_f32_u8_outer(const float *x, size_t outer, size_t channels, size_t inner,
                                         const float *scale, const int32_t *zp, uint8_t *out) {
  size_t o, c;
  for (o = 0; o < outer; o++)
    for (c = 0; c < channels; c++, x += inner, out += inner) mrtq_quantize_f32_u8(x, inner, scale[c], zp[c], out);
}
MRTQ_API void mrtq_dequantize_s8_f32_outer(const int8_t *q, size_t outer, size_t channels, size_t inner,
                                           const float *scale, const int32_t *zp, float *out) {
  size_t o, c;
  for (o = 0; o < outer; o++)
    for (c = 0; c < channels; c++, q += inner, out += inner) mrtq_dequantize_s8_f32(q, inner, scale[c], zp[c], out);
}
MRTQ_API void mrtq_dequantize_u8_f32_outer(const uint8_t *q, size_t outer, size_t channels, size_t inner,
                                           const float *scale, const int32_t *zp, float *out) {
  size_t o, c;
  for (o = 0; o < outer; o++)
    for (c = 0; c < channels; c++, q += inner, out += inner) mrtq_dequantize_u8_f32(q, inner, scale[c], zp[c], out);
}

/* Per channel, channel-inner (NHWC-like): `rows` rows of `channels`
 * elements; element c of every row uses scale[c], zp[c]. */
MRTQ_API void mrtq_quantize_f32_s8_inner(const float *x, size_t rows, size_t channels, const float *scale,
                                         const int32_t *zp, int8_t *out) {
  size_t r, c;
  for (r = 0; r < rows; r++, x += channels, out += channels)
    for (c = 0; c < channels; c++) out[c] = (int8_t)mrtq_quantize_f32(x[c], scale[c], zp[c], -128, 127);
}
MRTQ_API void mrtq_quantize_f32_u8_inner(const float *x, size_t rows, size_t channels, const float *scale,
                                         const int32_t *zp, uint8_t *out) {
  size_t r, c;
  for (r = 0; r < rows; r++, x += channels, out += channels)
    for (c = 0; c < channels; c++) out[c] = (uint8_t)mrtq_quantize_f32(x[c], scale[c], zp[c], 0, 255);
}
MRTQ_API void mrtq_dequantize_s8_f32_inner(const int8_t *q, size_t rows, size_t channels, const float *scale,
                                           const int32_t *zp, float *out) {
  size_t r, c;
  for (r = 0; r < rows; r++, q += channels, out += channels)
    for (c = 0; c < channels; c++) out[c] = mrtq_dequantize_f32(q[c], scale[c], zp[c]);
}
MRTQ_API void mrtq_dequantize_u8_f32_inner(const uint8_t *q, size_t rows, size_t channels, const float *scale,
                                           const int32_t *zp, float *out) {
  size_t r, c;
  for (r = 0; r < rows; r++, q += channels, out += channels)
    for (c = 0; c < channels; c++) out[c] = mrtq_dequantize_f32(q[c], scale[c], zp[c]);
}

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_REQUANT_H */
