/* mrtq/precision.h -- precision inference: the bit-width of every operator's
 * output from its inputs' (the MRT formalization's empty "Expansion Infer
 * Precision" section, as cvm-runtime fills it), and the largest reduction
 * that cannot overflow int32.
 *
 * A value has signed precision p (1 <= p <= 64) when |v| <= 2^(p-1) - 1, i.e.
 * it lies in [-(2^(p-1) - 1), 2^(p-1) - 1]; the precision of a bound b >= 0 is
 * mrtq_prec_of(b) = bitlen(b) + 1, bitlen(b) = ceil(log2(b + 1)) (the number
 * of bits of b). int8 data has precision 8 (|v| <= 127, and -128 needs 9:
 * mrtq_prec_of(128) = 9), uint8 data 9, int32 32. */
#ifndef MRTQ_PRECISION_H
#define MRTQ_PRECISION_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* Number of bits of v: ceil(log2(v + 1)), i.e. the position of the highest
 * set bit plus one; 0 for 0, 64 for values >= 2^63. */
MRTQ_API int mrtq_bitlen(uint64_t v);

/* The signed precision of a magnitude bound: bitlen(bound) + 1, in [1, 65]
 * (mrtq_prec_of(127) = 8, mrtq_prec_of(128) = 9). */
MRTQ_API int mrtq_prec_of(uint64_t bound);

/* The largest magnitude of precision p: 2^(p-1) - 1 for p in [1, 64]
 * (INT64_MAX for 64); 0 outside [1, 64]. */
MRTQ_API uint64_t mrtq_prec_max(int p);

/* Output precision of each operator. Every rule bounds the exact result:
 *   conv / dense / matmul, reduction length K:  px + pw + bitlen(K)   mrtq_prec_conv
 *   + bias of precision pb:                     max(p, pb) + 1        mrtq_prec_bias
 *   add, sub:                                   max(p0, p1) + 1       mrtq_prec_add
 *   mul:                                        p0 + p1               mrtq_prec_mul
 *   concat, max (and max pooling):              max(p0, p1)           mrtq_prec_max2
 *   sum of n values:                            p + bitlen(n)         mrtq_prec_sum
 *   relu, clamp, pad, flatten, reshape:         p (unchanged)
 * (For conv: |sum| <= K (2^(px-1) - 1)(2^(pw-1) - 1) < 2^(px+pw+bitlen(K)-2).)
 * Domains: px, pw, pb in [1, 64]; p, p0, p1 in [1, 65] (65: a saturated
 * result fed on); k, n >= 1. An argument outside its domain gives 0
 * (invalid: these return a precision, not a status, and report nothing).
 * Results above 64 saturate to 65, which no int type carries.
 * mrtq_prec_sat(p): 0 for p < 1, 65 for p > 64, else p. */
MRTQ_API int mrtq_prec_sat(int64_t p);
MRTQ_API int mrtq_prec_conv(int px, int pw, uint64_t k);
MRTQ_API int mrtq_prec_bias(int p, int pb);
MRTQ_API int mrtq_prec_add(int p0, int p1);
MRTQ_API int mrtq_prec_mul(int p0, int p1);
MRTQ_API int mrtq_prec_max2(int p0, int p1);
MRTQ_API int mrtq_prec_sum(int p, uint64_t n);

/* The largest reduction length K with px + pw + bitlen(K) <= 32, i.e. the
 * largest conv/dense whose sum of products provably fits int32:
 * 2^(32 - px - pw) - 1 (0 when px + pw >= 32, or px, pw < 1). */
MRTQ_API uint64_t mrtq_prec_max_k32(int px, int pw);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

MRTQ_API int mrtq_bitlen(uint64_t v) {
  int n = 0;
  while (v) v >>= 1, n++;
  return n;
}

MRTQ_API int mrtq_prec_of(uint64_t bound) { return mrtq_bitlen(bound) + 1; }

MRTQ_API uint64_t mrtq_prec_max(int p) {
  if (p < 1 || p > 64) return 0;
  return p == 64 ? (uint64_t)INT64_MAX : ((uint64_t)1 << (p - 1)) - 1u;
}

MRTQ_API int mrtq_prec_sat(int64_t p) { return p < 1 ? 0 : p > 64 ? 65 : (int)p; }
MRTQ_API int mrtq_prec_conv(int px, int pw, uint64_t k) {
  if (px < 1 || px > 64 || pw < 1 || pw > 64 || k == 0) return 0;
  return mrtq_prec_sat((int64_t)px + pw + mrtq_bitlen(k));
}
MRTQ_API int mrtq_prec_bias(int p, int pb) {
  if (p < 1 || p > 65 || pb < 1 || pb > 64) return 0;
  return mrtq_prec_sat((int64_t)(p > pb ? p : pb) + 1);
}
MRTQ_API int mrtq_prec_add(int p0, int p1) {
  if (p0 < 1 || p0 > 65 || p1 < 1 || p1 > 65) return 0;
  return mrtq_prec_sat((int64_t)(p0 > p1 ? p0 : p1) + 1);
}
MRTQ_API int mrtq_prec_mul(int p0, int p1) {
  if (p0 < 1 || p0 > 65 || p1 < 1 || p1 > 65) return 0;
  return mrtq_prec_sat((int64_t)p0 + p1);
}
MRTQ_API int mrtq_prec_max2(int p0, int p1) {
  if (p0 < 1 || p0 > 65 || p1 < 1 || p1 > 65) return 0;
  return p0 > p1 ? p0 : p1;
}
MRTQ_API int mrtq_prec_sum(int p, uint64_t n) {
  if (p < 1 || p > 65 || n == 0) return 0;
  return mrtq_prec_sat((int64_t)p + mrtq_bitlen(n));
}

MRTQ_API uint64_t mrtq_prec_max_k32(int px, int pw) {
  if (px < 1 || pw < 1 || px >= 32 || pw >= 32 || px + pw >= 32) return 0; /* no int overflow in px + pw */
  return ((uint64_t)1 << (32 - px - pw)) - 1u;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_PRECISION_H */
