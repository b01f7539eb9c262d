/* mrtq/requant_neon.h -- NEON (AArch64) twin of the array requantization in
 * mrtq/requant.h. Included only from requant.h's bodies section, when
 * MRTQ_SIMD selects it; everything here is private (mrtq__, MRTQ__PRIV).
 * Same preconditions, arguments and contract as requant_avx512.h; blocks of
 * 16. NEON has the exact primitives: vqrdmulh is SRDHM, vrshl a rounding
 * shift (ties toward +inf, no overflow), vcvtn rounds to nearest even and
 * saturates, vqmovn narrows with saturation. */
#ifndef MRTQ_REQUANT_NEON_H
#define MRTQ_REQUANT_NEON_H

#include <arm_neon.h>

typedef struct mrtq__neon_k {
  int32x4_t lo, hi, zp, mult, nk, ls, nrs;
  int64x2_t nk64;
  float32x4_t scale;
  int rs_i, k_i;
} mrtq__neon_k;

MRTQ__PRIV int32x4_t mrtq__neon_q15_vta(int32x4_t x, const mrtq__neon_k *c) {
  return vshlq_s32(vmulq_s32(x, c->mult), c->nk); /* wrapping multiply; shift right by k (floor) */
}

/* Q31 double rounding: saturating left shift, SRDHM, then RDIVPOT as
 * rounding shift of x - [x < 0] (ties away from zero). */
MRTQ__PRIV int32x4_t mrtq__neon_q31_dbl(int32x4_t x, const mrtq__neon_k *c) {
  int32x4_t v = vqrdmulhq_s32(vqshlq_s32(x, c->ls), c->mult);
  if (c->rs_i > 0) v = vrshlq_s32(vqaddq_s32(v, vshrq_n_s32(v, 31)), c->nrs);
  return v;
}

/* Single rounding: exact 64-bit products, rounding shift, saturating narrow. */
MRTQ__PRIV int32x4_t mrtq__neon_rndnu(int32x4_t x, const mrtq__neon_k *c) {
  int64x2_t a = vrshlq_s64(vmull_s32(vget_low_s32(x), vget_low_s32(c->mult)), c->nk64);
  int64x2_t b = vrshlq_s64(vmull_high_s32(x, c->mult), c->nk64);
  return vcombine_s32(vqmovn_s64(a), vqmovn_s64(b));
}

/* fp32: (float)acc, one multiply, round to nearest even with saturation. */
MRTQ__PRIV int32x4_t mrtq__neon_fp32(int32x4_t x, const mrtq__neon_k *c) {
  return vcvtnq_s32_f32(vmulq_f32(vcvtq_f32_s32(x), c->scale));
}

#define MRTQ__NEON_POST(y) vaddq_s32(vminq_s32(vmaxq_s32((y), c.lo), c.hi), c.zp)
#define MRTQ__NEON_LOOP(F)                                                                             \
  for (; i + 16 <= n; i += 16) {                                                                       \
    int32x4_t y0 = MRTQ__NEON_POST(F(vld1q_s32(acc + i), &c));                                         \
    int32x4_t y1 = MRTQ__NEON_POST(F(vld1q_s32(acc + i + 4), &c));                                     \
    int32x4_t y2 = MRTQ__NEON_POST(F(vld1q_s32(acc + i + 8), &c));                                     \
    int32x4_t y3 = MRTQ__NEON_POST(F(vld1q_s32(acc + i + 12), &c));                                    \
    int8x16_t b = vcombine_s8(vqmovn_s16(vcombine_s16(vqmovn_s32(y0), vqmovn_s32(y1))),               \
                              vqmovn_s16(vcombine_s16(vqmovn_s32(y2), vqmovn_s32(y3))));              \
    vst1q_u8(out + i, veorq_u8(vreinterpretq_u8_s8(b), vflip));                                        \
  }

MRTQ__PRIV size_t mrtq__requant_neon(const mrtq_rq *rq, const int32_t *acc, size_t n, uint8_t *out, int32_t lo2,
                                   int32_t hi2, int32_t zp, int flip, int full) {
  mrtq__neon_k c;
  const uint8x16_t vflip = vdupq_n_u8((uint8_t)flip);
  const int shift = rq->m.shift;
  size_t i = 0;
  (void)full;
  memset(&c, 0, sizeof c);
  c.lo = vdupq_n_s32(lo2);
  c.hi = vdupq_n_s32(hi2);
  c.zp = vdupq_n_s32(zp);
  c.mult = vdupq_n_s32(rq->m.mult);
  switch (rq->scheme) {
    case MRTQ_Q15_VTA:
      c.nk = vdupq_n_s32(-(15 - shift));
      MRTQ__NEON_LOOP(mrtq__neon_q15_vta)
      break;
    case MRTQ_Q15_RNDNU:
    case MRTQ_Q31_RNDNU:
      c.nk64 = vdupq_n_s64(-(int64_t)((rq->scheme == MRTQ_Q15_RNDNU ? 15 : 31) - shift));
      MRTQ__NEON_LOOP(mrtq__neon_rndnu)
      break;
    case MRTQ_Q31_DBL:
      c.rs_i = shift > 0 ? 0 : -shift;
      c.ls = vdupq_n_s32(shift > 0 ? shift : 0);
      c.nrs = vdupq_n_s32(-c.rs_i);
      MRTQ__NEON_LOOP(mrtq__neon_q31_dbl)
      break;
    case MRTQ_FP32:
      c.scale = vdupq_n_f32(rq->scale);
      MRTQ__NEON_LOOP(mrtq__neon_fp32)
      break;
  }
  return i;
}

#endif /* MRTQ_REQUANT_NEON_H */
