/* mrtq/requant_sse41.h -- SSE4.1 twin of the array requantization in
 * mrtq/requant.h. Included only from requant.h's bodies section, when
 * MRTQ_SIMD selects it or run-time dispatch is on (then inside a target
 * pragma region: nothing here may depend on the -m flags); everything here
 * is private (mrtq__, MRTQ__PRIV).
 * Same preconditions, arguments and contract as requant_avx512.h (the
 * arithmetic of each family is explained there); blocks of 16. SSE4.1 has no
 * 64-bit compare (that is SSE4.2): 64-bit signs come from the high dwords. */
#ifndef MRTQ_REQUANT_SSE41_H
#define MRTQ_REQUANT_SSE41_H

#include <smmintrin.h>

typedef struct mrtq__sse41_k {
  __m128i lo, hi, zp, mult, round64, half, mask, halfm1, lo64, hi64, k, k2, ls, rs;
  __m128 scale, flo, fhi;
  int rs_i;
} mrtq__sse41_k;

/* all-ones in the 64-bit lanes of p that are negative */
MRTQ__PRIV __m128i mrtq__sse41_neg64(__m128i p) {
  return _mm_shuffle_epi32(_mm_srai_epi32(p, 31), _MM_SHUFFLE(3, 3, 1, 1));
}
/* floor(p / 2^k) on 64-bit lanes */
MRTQ__PRIV __m128i mrtq__sse41_sra64(__m128i p, __m128i vk) {
  __m128i s = mrtq__sse41_neg64(p);
  return _mm_xor_si128(_mm_srl_epi64(_mm_xor_si128(p, s), vk), s);
}
/* clamp 64-bit lanes with |v| < 2^62 to [lo, hi] (int32 bounds as 64-bit):
 * the differences cannot overflow, so their signs decide. */
MRTQ__PRIV __m128i mrtq__sse41_clamp64(__m128i v, __m128i lo, __m128i hi) {
  v = _mm_blendv_epi8(v, lo, mrtq__sse41_neg64(_mm_sub_epi64(v, lo)));
  return _mm_blendv_epi8(v, hi, mrtq__sse41_neg64(_mm_sub_epi64(hi, v)));
}
/* low dwords of two vectors of two 64-bit lanes -> one vector of 4 */
MRTQ__PRIV __m128i mrtq__sse41_lo32x2(__m128i a, __m128i b) {
  return _mm_unpacklo_epi64(_mm_shuffle_epi32(a, _MM_SHUFFLE(2, 0, 2, 0)), _mm_shuffle_epi32(b, _MM_SHUFFLE(2, 0, 2, 0)));
}

MRTQ__PRIV __m128i mrtq__sse41_q15_vta(__m128i x, const mrtq__sse41_k *c) {
  return _mm_sra_epi32(_mm_mullo_epi32(x, c->mult), c->k);
}

MRTQ__PRIV __m128i mrtq__sse41_q31_dbl(__m128i x, const mrtq__sse41_k *c) {
  __m128i e = _mm_add_epi64(_mm_mul_epi32(x, c->mult), c->round64);
  __m128i o = _mm_add_epi64(_mm_mul_epi32(_mm_srli_epi64(x, 32), c->mult), c->round64);
  __m128i v = _mm_blend_epi16(_mm_srli_epi64(e, 31), _mm_slli_epi64(o, 1), 0xCC);
  if (c->rs_i > 0) {
    __m128i q = _mm_sra_epi32(v, c->rs);
    __m128i rem = _mm_and_si128(v, c->mask);
    __m128i thr = _mm_sub_epi32(c->halfm1, _mm_srai_epi32(v, 31));
    v = _mm_sub_epi32(q, _mm_cmpgt_epi32(rem, thr));
  }
  return v;
}

MRTQ__PRIV __m128i mrtq__sse41_q31_dbl_wide2(__m128i x, const mrtq__sse41_k *c) {
  const __m128i imin = _mm_set1_epi64x(INT32_MIN), imax = _mm_set1_epi64x(INT32_MAX);
  __m128i v = mrtq__sse41_clamp64(_mm_sll_epi64(_mm_cvtepi32_epi64(x), c->ls), imin, imax);
  v = mrtq__sse41_sra64(_mm_add_epi64(_mm_mul_epi32(v, c->mult), c->round64), _mm_cvtsi32_si128(31));
  if (c->rs_i > 0) v = mrtq__sse41_sra64(_mm_add_epi64(_mm_add_epi64(v, c->half), mrtq__sse41_neg64(v)), c->rs);
  return v;
}
MRTQ__PRIV __m128i mrtq__sse41_q31_dbl_wide(__m128i x, const mrtq__sse41_k *c) {
  return mrtq__sse41_lo32x2(mrtq__sse41_q31_dbl_wide2(x, c), mrtq__sse41_q31_dbl_wide2(_mm_srli_si128(x, 8), c));
}

MRTQ__PRIV __m128i mrtq__sse41_rndnu_hi(__m128i x, const mrtq__sse41_k *c) {
  __m128i e = _mm_add_epi64(_mm_mul_epi32(x, c->mult), c->round64);
  __m128i o = _mm_add_epi64(_mm_mul_epi32(_mm_srli_epi64(x, 32), c->mult), c->round64);
  return _mm_sra_epi32(_mm_blend_epi16(_mm_srli_epi64(e, 32), o, 0xCC), c->k2);
}

MRTQ__PRIV __m128i mrtq__sse41_rndnu_q15(__m128i x, const mrtq__sse41_k *c) {
  __m128i xl = _mm_and_si128(x, _mm_set1_epi32(0xffff)), xh = _mm_srai_epi32(x, 16);
  __m128i b = _mm_srli_epi32(_mm_add_epi32(_mm_mullo_epi32(xl, c->mult), c->half), 16);
  return _mm_sra_epi32(_mm_add_epi32(_mm_mullo_epi32(xh, c->mult), b), c->k2);
}

MRTQ__PRIV __m128i mrtq__sse41_rndnu_wide2(__m128i x, const mrtq__sse41_k *c) {
  __m128i p = _mm_add_epi64(_mm_mul_epi32(_mm_cvtepi32_epi64(x), c->mult), c->round64);
  return mrtq__sse41_clamp64(mrtq__sse41_sra64(p, c->k), c->lo64, c->hi64);
}
MRTQ__PRIV __m128i mrtq__sse41_rndnu_wide(__m128i x, const mrtq__sse41_k *c) {
  return mrtq__sse41_lo32x2(mrtq__sse41_rndnu_wide2(x, c), mrtq__sse41_rndnu_wide2(_mm_srli_si128(x, 8), c));
}

MRTQ__PRIV __m128i mrtq__sse41_fp32(__m128i x, const mrtq__sse41_k *c) {
  __m128 f = _mm_mul_ps(_mm_cvtepi32_ps(x), c->scale);
  return _mm_cvtps_epi32(_mm_min_ps(_mm_max_ps(f, c->flo), c->fhi));
}

#define MRTQ__SSE41_CLAMP_ZP(y) _mm_add_epi32(_mm_min_epi32(_mm_max_epi32((y), c.lo), c.hi), c.zp)
#define MRTQ__SSE41_ZP(y) _mm_add_epi32((y), c.zp)
#define MRTQ__SSE41_LOOP(F, POST)                                                                   \
  for (; i + 16 <= n; i += 16) {                                                                    \
    __m128i y0 = POST(F(_mm_loadu_si128((const __m128i *)(acc + i)), &c));                          \
    __m128i y1 = POST(F(_mm_loadu_si128((const __m128i *)(acc + i + 4)), &c));                      \
    __m128i y2 = POST(F(_mm_loadu_si128((const __m128i *)(acc + i + 8)), &c));                      \
    __m128i y3 = POST(F(_mm_loadu_si128((const __m128i *)(acc + i + 12)), &c));                     \
    __m128i p = _mm_packs_epi16(_mm_packs_epi32(y0, y1), _mm_packs_epi32(y2, y3));                  \
    _mm_storeu_si128((__m128i *)(out + i), _mm_xor_si128(p, vflip));                                \
  }

MRTQ__PRIV size_t mrtq__requant_sse41(const mrtq_rq *rq, const int32_t *acc, size_t n, uint8_t *out, int32_t lo2,
                                    int32_t hi2, int32_t zp, int flip, int full) {
  mrtq__sse41_k c;
  const __m128i vflip = _mm_set1_epi8((char)flip);
  const int shift = rq->m.shift;
  size_t i = 0;
  (void)full;
  memset(&c, 0, sizeof c);
  c.lo = _mm_set1_epi32(lo2);
  c.hi = _mm_set1_epi32(hi2);
  c.lo64 = _mm_set1_epi64x(lo2);
  c.hi64 = _mm_set1_epi64x(hi2);
  c.zp = _mm_set1_epi32(zp);
  c.mult = _mm_set1_epi32(rq->m.mult);
  switch (rq->scheme) {
    case MRTQ_Q15_VTA:
      c.k = _mm_cvtsi32_si128(15 - shift);
      MRTQ__SSE41_LOOP(mrtq__sse41_q15_vta, MRTQ__SSE41_CLAMP_ZP)
      break;
    case MRTQ_Q15_RNDNU:
    case MRTQ_Q31_RNDNU: {
      const int k = (rq->scheme == MRTQ_Q15_RNDNU ? 15 : 31) - shift;
      c.round64 = _mm_set1_epi64x(k > 0 ? (int64_t)1 << (k - 1) : 0);
      c.half = _mm_set1_epi32(k >= 16 && k < 32 ? (int32_t)1 << (k - 1) : 0);
      c.k = _mm_cvtsi32_si128(k);
      c.k2 = _mm_cvtsi32_si128(k >= 32 ? k - 32 : k - 16);
      if (k >= 32) {
        MRTQ__SSE41_LOOP(mrtq__sse41_rndnu_hi, MRTQ__SSE41_CLAMP_ZP)
      } else if (rq->scheme == MRTQ_Q15_RNDNU && k >= 16) {
        MRTQ__SSE41_LOOP(mrtq__sse41_rndnu_q15, MRTQ__SSE41_CLAMP_ZP)
      } else {
        MRTQ__SSE41_LOOP(mrtq__sse41_rndnu_wide, MRTQ__SSE41_CLAMP_ZP)
      }
      break;
    }
    case MRTQ_Q31_DBL: {
      const int rs = shift > 0 ? 0 : -shift;
      c.rs_i = rs;
      c.rs = _mm_cvtsi32_si128(rs);
      c.ls = _mm_cvtsi32_si128(shift > 0 ? shift : 0);
      c.round64 = _mm_set1_epi64x((int64_t)1 << 30);
      c.half = _mm_set1_epi64x(rs > 0 ? (int64_t)1 << (rs - 1) : 0);
      c.mask = _mm_set1_epi32((int32_t)(((int64_t)1 << rs) - 1));
      c.halfm1 = _mm_set1_epi32((int32_t)((((int64_t)1 << rs) - 1) >> 1));
      if (shift <= 0) {
        MRTQ__SSE41_LOOP(mrtq__sse41_q31_dbl, MRTQ__SSE41_CLAMP_ZP)
      } else {
        MRTQ__SSE41_LOOP(mrtq__sse41_q31_dbl_wide, MRTQ__SSE41_CLAMP_ZP)
      }
      break;
    }
    case MRTQ_FP32:
      c.scale = _mm_set1_ps(rq->scale);
      c.flo = _mm_set1_ps((float)lo2);
      c.fhi = _mm_set1_ps((float)hi2);
      MRTQ__SSE41_LOOP(mrtq__sse41_fp32, MRTQ__SSE41_ZP)
      break;
  }
  return i;
}

#endif /* MRTQ_REQUANT_SSE41_H */
