/* mrtq/precision.h -- precision inference: the bit-width of every operator's
 * output from its inputs' (the MRT formalization's empty "Expansion Infer
 * Precision" section, as cvm-runtime fills it), and the largest reduction
 * that cannot overflow an int32 or int64 accumulator (or TFLite's 2^47
 * bound), by precision or exactly by value range.
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

/* The same rule for a 64-bit accumulator (TFLite's 16x8 convolution, depthwise
 * and fully connected kernels sum int16 x int8 products in int64): the
 * largest K with px + pw + bitlen(K) <= 64, 2^(64 - px - pw) - 1 (0 when
 * px + pw >= 64, or px, pw < 1). */
MRTQ_API uint64_t mrtq_prec_max_k64(int px, int pw);

/* The largest K with px + pw + bitlen(K) <= 48, i.e. whose sum has
 * precision 48: |sum| <= 2^47 - 1, inside the range -2^47 <= x < 2^47 that
 * TFLite's 64-bit MultiplyByQuantizedMultiplier assumes (tensorflow/lite/
 * kernels/internal/common.cc, both rounding builds): 2^(48 - px - pw) - 1 (0
 * when px + pw >= 48, or px, pw < 1). For int16 x int8 (px = 17, pw = 9 by
 * the convention above): 2^22 - 1. */
MRTQ_API uint64_t mrtq_prec_max_k48(int px, int pw);

/* Exact, for given value ranges (not precisions): the largest K such that
 * accumulating K products x * w, x in [xmin, xmax], w in [wmin, wmax], then
 * adding a bias b in [bmin, bmax], never leaves [lo, hi] -- neither a partial
 * sum of k <= K products nor the final sum. With pmin, pmax the smallest and
 * largest product (corners of the box), that is the largest K with
 *   lo <= min(0, K pmin, K pmin + bmin)  and  max(0, K pmax, K pmax + bmax) <= hi
 * (every one of these values is reached by some inputs, so K + 1 overflows
 * for some inputs). Typical limits: [INT64_MIN, INT64_MAX] (an int64
 * accumulator), [-2^47, 2^47 - 1] (TFLite's 64-bit requantization),
 * [INT32_MIN, INT32_MAX]. E.g. int16 x int8 (x in [-32768, 32767], w in
 * [-127, 127]) with no bias into [-2^47, 2^47 - 1]: pmin = -32768 * 127,
 * pmax = 32768 * 127, K = floor((2^47 - 1) / (32768 * 127)) = 33818640.
 * The bias range must itself lie in [lo, hi] (it is a value of the
 * accumulator's type); then the K that fit are exactly 0..K.
 * Returns UINT64_MAX when no K overflows (every product 0), 0 when not even
 * K = 1 fits or an argument is invalid (xmin > xmax, wmin > wmax, bmin >
 * bmax, lo > 0, hi < 0, or [bmin, bmax] not inside [lo, hi]). */
MRTQ_API uint64_t mrtq_prec_max_k_range(int32_t xmin, int32_t xmax, int32_t wmin, int32_t wmax, int64_t bmin,
                                        int64_t bmax, int64_t lo, int64_t hi);

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

MRTQ_API uint64_t mrtq_prec_max_k64(int px, int pw) {
  if (px < 1 || pw < 1 || px >= 64 || pw >= 64 || px + pw >= 64) return 0;
  return ((uint64_t)1 << (64 - px - pw)) - 1u;
}

MRTQ_API uint64_t mrtq_prec_max_k48(int px, int pw) {
  if (px < 1 || pw < 1 || px >= 48 || pw >= 48 || px + pw >= 48) return 0;
  return ((uint64_t)1 << (48 - px - pw)) - 1u;
}

MRTQ_API uint64_t mrtq_prec_max_k_range(int32_t xmin, int32_t xmax, int32_t wmin, int32_t wmax, int64_t bmin,
                                        int64_t bmax, int64_t lo, int64_t hi) {
  int64_t c[4], pmin, pmax;
  uint64_t k = UINT64_MAX;
  int i;
  if (xmin > xmax || wmin > wmax || bmin > bmax || lo > 0 || hi < 0) return 0;
  c[0] = (int64_t)xmin * wmin, c[1] = (int64_t)xmin * wmax, c[2] = (int64_t)xmax * wmin, c[3] = (int64_t)xmax * wmax;
  pmin = pmax = c[0]; /* |x w| <= 2^62: exact */
  for (i = 1; i < 4; i++) pmin = c[i] < pmin ? c[i] : pmin, pmax = c[i] > pmax ? c[i] : pmax;
  if (bmax > hi || bmin < lo) return 0; /* the bias must be a value of the accumulator */
  if (pmax > 0) { /* K pmax <= hi - max(bmax, 0), a difference in [0, 2^63 - 1] */
    uint64_t room = (uint64_t)hi - (uint64_t)(bmax > 0 ? bmax : 0), q = room / (uint64_t)pmax;
    k = q < k ? q : k;
  }
  if (pmin < 0) { /* K |pmin| <= min(bmin, 0) - lo, a difference in [0, 2^64 - 1] */
    uint64_t room = (uint64_t)(bmin < 0 ? bmin : 0) - (uint64_t)lo, q = room / ((uint64_t)0 - (uint64_t)pmin);
    k = q < k ? q : k;
  }
  return k;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_PRECISION_H */
