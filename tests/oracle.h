/* Independent oracles for the mrtq tests: exact 128-bit integer arithmetic
 * written from the definitions in docs/semantics.md, deliberately in a
 * different form from the library code (division instead of shifts). */
#ifndef MRTQ_TEST_ORACLE_H
#define MRTQ_TEST_ORACLE_H

#include <stdint.h>

__extension__ typedef __int128 i128;

/* floor(a / b), b > 0. */
static inline i128 o_floor_div(i128 a, i128 b) {
  i128 q = a / b; /* truncates toward zero */
  if ((a % b != 0) && (a < 0)) q -= 1;
  return q;
}
static inline i128 o_pow2(int k) { return (i128)1 << k; }
/* round(num / den) to nearest, ties toward +inf: floor((2 num + den) / (2 den)). */
static inline i128 o_round_half_up(i128 num, i128 den) { return o_floor_div(2 * num + den, 2 * den); }
/* round(num / den) to nearest, ties away from zero. */
static inline i128 o_round_half_away(i128 num, i128 den) {
  i128 a = num < 0 ? -num : num;
  i128 r = (2 * a + den) / (2 * den);
  return num < 0 ? -r : r;
}
static inline int32_t o_sat32(i128 v) { return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v; }


/* gemmlowp SaturatingRoundingDoublingHighMul: the high word of 2ab rounded to
 * nearest, ties toward +inf; INT32_MIN * INT32_MIN saturates. */
static inline int32_t o_srdhm(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  return (int32_t)o_round_half_up((i128)a * b * 2, o_pow2(32));
}
/* gemmlowp RoundingDivideByPOT: x / 2^e to nearest, ties away from zero. */
static inline int32_t o_rdivpot(int32_t x, int e) {
  if (e <= 0) return x;
  return (int32_t)o_round_half_away(x, o_pow2(e));
}

#endif
