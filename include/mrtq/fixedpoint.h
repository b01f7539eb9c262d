/* mrtq/fixedpoint.h -- frexp-based fixed-point multiplier encoding and the
 * integer rounding primitives (layer 2; includes only mrtq/common.h).
 *
 * Multipliers: a positive real scale s is stored as mrtq_mult {mult, shift}
 * meaning  s ~= mult * 2^(shift - F),  F = 31 (Q31) or 15 (Q15), where `shift`
 * is the exponent frexp() returns: s = q * 2^shift with q in [0.5, 1).
 *
 *   function            value                                   ties                bit-exact with
 *   mrtq_mult_q31       round(q * 2^31), renormalised, flushed  away from zero      TFLite QuantizeMultiplier (default build)
 *   mrtq_mult_q15       round(q * 2^15), cut-off 1e-6, flushed  away from zero      VTA TFLite delegate (alkali-csd-fw)
 *   mrtq_srdhm          floor((a*b + 2^30) / 2^31), saturated   toward +infinity    gemmlowp SaturatingRoundingDoublingHighMul
 *   mrtq_rdivpot        x / 2^e rounded                         away from zero      gemmlowp RoundingDivideByPOT
 *   mrtq_rshift_rndnu   floor(x / 2^n + 1/2), 64-bit            toward +infinity    MRT / VTA nudge rounding (no clip)
 *   mrtq_rshift_clip    rshift_rndnu, clipped to +-(2^(p-1)-1)  toward +infinity    MRT cvm_right_shift (its definition)
 *
 * The encoders are the only functions here that can fail; the rounding
 * primitives are total (a documented result for every argument value, never
 * undefined behaviour). Normative math: docs/semantics.md sections 3 and 4. */
#ifndef MRTQ_FIXEDPOINT_H
#define MRTQ_FIXEDPOINT_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* A fixed-point multiplier: scale ~= mult * 2^(shift - F). */
typedef struct mrtq_mult {
  int32_t mult;  /* mantissa: [2^30, 2^31 - 1] (Q31) or [2^14, 2^15 - 1] (Q15); {0, 0} means scale 0 / flushed */
  int32_t shift; /* frexp exponent */
} mrtq_mult;

/* Q31 multiplier of a scale, bit-exact with TFLite QuantizeMultiplier (default
 * build, i.e. without TFLITE_SINGLE_ROUNDING's clamp of shift to 30) for every
 * finite scale >= 0:
 *   scale == 0 (either sign)  -> {0, 0}
 *   q = frexp(scale, &shift); mult = round(q * 2^31), ties away from zero;
 *   mult == 2^31              -> {2^30, shift + 1}   (renormalise)
 *   shift < -31               -> {0, 0}              (flush: scales below
 *                                2^-32 * (1 - 2^-32), denormals included)
 * Otherwise mult is in [2^30, 2^31 - 1] and shift in [-31, 1025] (1025 only by
 * renormalisation, scale >= 2^1024 * (1 - 2^-32)); the error |scale -
 * mult * 2^(shift - 31)| is at most 2^-31 relative. A shift above 30 is
 * outside what the single-rounding family (mrtq_mul_q31_rndnu) was designed
 * for; mrtq_rq_init refuses it.
 * Errors (nothing written to *out): out NULL, scale NaN or +-infinity, scale
 * negative -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_mult_q31(double scale, mrtq_mult *out);

/* Q15 multiplier of a scale, bit-exact with the VTA TFLite delegate's 16-bit
 * encoding (alkali-csd-fw) for every finite scale >= 0:
 *   scale < 1e-6              -> {0, 0}   (the delegate's cut-off)
 *   q = frexp(scale, &shift); mult = round(q * 2^15), ties away from zero;
 *   mult == 2^15              -> {2^14, shift + 1}
 *   shift < -15               -> {0, 0}   (so every scale below
 *                                2^-16 * (1 - 2^-16) flushes)
 * Otherwise mult is in [16384, 32767], shift in [-15, 1025], and the scale is
 * mult * 2^(shift - 15). No upper clamp (as upstream).
 * Examples: 1/64 -> {16384, -5}; 1.0 -> {16384, 1}; 2e-5 -> {21475, -15};
 * 1.5e-5 -> {0, 0}.
 * Errors (nothing written to *out): out NULL, scale NaN or +-infinity, scale
 * negative -> MRTQ_EINVAL (upstream maps negatives to {0, 0} through its
 * cut-off; mrtq refuses them). */
MRTQ_API mrtq_status mrtq_mult_q15(double scale, mrtq_mult *out);

/* gemmlowp SaturatingRoundingDoublingHighMul, bit-exact for all a, b:
 *   floor((a * b + 2^30) / 2^31)  (the high word of 2ab, rounded to nearest,
 *   ties toward +infinity for both signs), exact in 64 bits; the only result
 *   outside int32, a == b == INT32_MIN, saturates to INT32_MAX. Total. */
MRTQ_API int32_t mrtq_srdhm(int32_t a, int32_t b);

/* gemmlowp RoundingDivideByPOT: x / 2^exponent rounded to nearest, ties away
 * from zero. Bit-exact with gemmlowp for exponent in [0, 31] (its whole
 * domain). Total: exponent < 0 returns x unchanged; exponent > 31 keeps the
 * same exact definition (so the result is 0, except x = INT32_MIN with
 * exponent 32, which is a tie at -1/2 and gives -1). */
MRTQ_API int32_t mrtq_rdivpot(int32_t x, int exponent);

/* floor(x / 2^n + 1/2): round to nearest, ties toward +infinity (MRT's and
 * the VTA nudge form's rounding shift), exact for every int64 x and n in
 * [0, 62]. Total: n <= 0 returns x unchanged; n >= 63 keeps the exact
 * definition (n = 63 gives -1, 0 or 1; n >= 64 gives 0). */
MRTQ_API int64_t mrtq_rshift_rndnu(int64_t x, int n);

/* MRT cvm_right_shift: mrtq_rshift_rndnu(x, b) clipped symmetrically to
 * [-(2^(prec-1) - 1), 2^(prec-1) - 1] (the value -2^(prec-1) never occurs).
 * Defined by that formula for every b in [0, 62] and prec in [1, 32] (prec 1
 * always gives 0); upstream's CPU kernels diverge from it for b >= 31 and
 * prec + b >= 32 and overflow at x = INT32_MAX, b = 1 -- mrtq does not copy
 * that. Total: b follows mrtq_rshift_rndnu; prec < 1 acts as 1, prec > 32 as 32. */
MRTQ_API int32_t mrtq_rshift_clip(int64_t x, int b, int prec);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

/* Split a finite double x > 0 exactly into q * 2^e, q in [0.5, 1) (frexp,
 * without libm; denormals handled). Returns q. */
MRTQ__PRIV double mrtq__frexp(double x, int *e) {
  uint64_t u;
  int ex;
  memcpy(&u, &x, sizeof u);
  ex = (int)((u >> 52) & 0x7ff);
  if (ex == 0) { /* denormal: scale up by 2^64, exactly */
    double y = x * 18446744073709551616.0;
    memcpy(&u, &y, sizeof u);
    ex = (int)((u >> 52) & 0x7ff) - 64;
  }
  *e = ex - 1022;
  u = (u & ~((uint64_t)0x7ff << 52)) | ((uint64_t)1022 << 52);
  memcpy(&x, &u, sizeof x);
  return x;
}

/* Non-zero iff x is NaN or +-infinity (also used by the headers above). */
MRTQ__PRIV int mrtq__nonfinite(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return ((u >> 52) & 0x7ff) == 0x7ff;
}

/* Non-zero iff f is NaN or +-infinity (also used by the headers above). */
MRTQ__PRIV int mrtq__nonfinite_f32(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return ((u >> 23) & 0xffu) == 0xffu;
}

/* The shared encoder, on a scale the caller has checked (finite, >= 0) and a
 * non-NULL out: q_fixed = round-half-away(q * 2^F); renormalise when it
 * reaches 2^F; flush to {0, 0} when shift < -F. Cannot fail. */
MRTQ__PRIV void mrtq__mult_encode(double scale, int F, mrtq_mult *out) {
  int e = 0;
  double v;
  int64_t t;
  out->mult = 0;
  out->shift = 0;
  if (scale == 0) return;
  v = mrtq__frexp(scale, &e) * (double)((int64_t)1 << F); /* exact: a power-of-two scaling */
  t = (int64_t)v;                                        /* v in [2^(F-1), 2^F): truncation = floor */
  if (v - (double)t >= 0.5) t += 1;                      /* exact difference; ties away from zero */
  if (t == ((int64_t)1 << F)) {
    t /= 2;
    e += 1;
  }
  if (e < -F) return; /* flushed to {0, 0} */
  out->mult = (int32_t)t;
  out->shift = e;
}

/* The refusals shared by both encoders. */
MRTQ__PRIV mrtq_status mrtq__mult_check(double scale, const mrtq_mult *out) {
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (mrtq__nonfinite(scale)) return MRTQ__ERR(MRTQ_EINVAL, "scale: NaN or infinite");
  if (scale < 0) return MRTQ__ERR(MRTQ_EINVAL, "scale: negative (must be >= 0)");
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_mult_q31(double scale, mrtq_mult *out) {
  mrtq_status st = mrtq__mult_check(scale, out);
  if (st != MRTQ_OK) return st;
  mrtq__mult_encode(scale, 31, out);
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_mult_q15(double scale, mrtq_mult *out) {
  mrtq_status st = mrtq__mult_check(scale, out);
  if (st != MRTQ_OK) return st;
  if (scale < 1e-6) {
    out->mult = 0;
    out->shift = 0;
    return MRTQ_OK;
  }
  mrtq__mult_encode(scale, 15, out);
  return MRTQ_OK;
}

MRTQ_API int32_t mrtq_srdhm(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  return (int32_t)mrtq__asr64((int64_t)a * b + ((int64_t)1 << 30), 31);
}

MRTQ_API int32_t mrtq_rdivpot(int32_t x, int exponent) {
  int64_t q, r, half;
  if (exponent <= 0) return x;
  if (exponent > 62) return 0;
  q = mrtq__asr64(x, exponent); /* floor */
  r = (int64_t)x - q * ((int64_t)1 << exponent);
  half = (int64_t)1 << (exponent - 1);
  return (int32_t)(q + (r > half || (r == half && x >= 0)));
}

MRTQ_API int64_t mrtq_rshift_rndnu(int64_t x, int n) {
  if (n <= 0) return x;
  if (n >= 64) return 0;
  return mrtq__asr64(x, n) + (int64_t)(((uint64_t)x >> (n - 1)) & 1u);
}

MRTQ_API int32_t mrtq_rshift_clip(int64_t x, int b, int prec) {
  int64_t r = mrtq_rshift_rndnu(x, b), lim;
  if (prec < 1) prec = 1;
  if (prec > 32) prec = 32;
  lim = ((int64_t)1 << (prec - 1)) - 1;
  return (int32_t)(r > lim ? lim : r < -lim ? -lim : r);
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_FIXEDPOINT_H */
