/* mrtq/requant_avx2.h -- AVX2 twin of the array requantization in
 * mrtq/requant.h. Included only by requant.h when MRTQ_SIMD selects it.
 * Same preconditions and contract as requant_avx512.h; blocks of 8. */
#ifndef MRTQ_REQUANT_AVX2_H
#define MRTQ_REQUANT_AVX2_H

#include <immintrin.h>

/* floor(p / 2^k) on 64-bit lanes (AVX2 has no vpsraq): flip negatives, shift
 * logically, flip back. */
MRTQ_API __m256i mrtq__avx2_sra64(__m256i p, __m128i vk) {
  __m256i s = _mm256_cmpgt_epi64(_mm256_setzero_si256(), p);
  return _mm256_xor_si256(_mm256_srl_epi64(_mm256_xor_si256(p, s), vk), s);
}
MRTQ_API __m256i mrtq__avx2_clamp64(__m256i v, __m256i lo, __m256i hi) {
  v = _mm256_blendv_epi8(v, lo, _mm256_cmpgt_epi64(lo, v));
  return _mm256_blendv_epi8(v, hi, _mm256_cmpgt_epi64(v, hi));
}
/* The low 32 bits of four 64-bit lanes, packed into 128 bits. */
MRTQ_API __m128i mrtq__avx2_lo32(__m256i v) {
  return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
}
/* Store the low byte of each of 8 int32 lanes. */
MRTQ_API void mrtq__avx2_store8(uint8_t *out, __m256i y) {
  const __m256i pick = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12, -1,
                                        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  __m256i t = _mm256_shuffle_epi8(y, pick);
  _mm_storel_epi64((__m128i *)out, _mm_unpacklo_epi32(_mm256_castsi256_si128(t), _mm256_extracti128_si256(t, 1)));
}

MRTQ_API __m256i mrtq__avx2_mul_rndnu4(__m128i x, __m256i vmult, __m256i vround, __m128i vk, __m256i lo, __m256i hi) {
  __m256i p = _mm256_mul_epi32(_mm256_cvtepi32_epi64(x), vmult);
  return mrtq__avx2_clamp64(mrtq__avx2_sra64(_mm256_add_epi64(p, vround), vk), lo, hi);
}

MRTQ_API __m256i mrtq__avx2_q31_dbl4(__m128i x, __m256i vmult, __m128i vls, __m128i vrs, __m256i vhalf, int rs) {
  const __m256i imin = _mm256_set1_epi64x(INT32_MIN), imax = _mm256_set1_epi64x(INT32_MAX);
  __m256i v = _mm256_sll_epi64(_mm256_cvtepi32_epi64(x), vls);
  v = mrtq__avx2_clamp64(v, imin, imax);
  v = _mm256_mul_epi32(v, vmult);
  v = mrtq__avx2_sra64(_mm256_add_epi64(v, _mm256_set1_epi64x((int64_t)1 << 30)), _mm_cvtsi32_si128(31));
  if (rs > 0) {
    __m256i neg = _mm256_cmpgt_epi64(_mm256_setzero_si256(), v); /* -1 where v < 0 */
    v = mrtq__avx2_sra64(_mm256_add_epi64(_mm256_add_epi64(v, vhalf), neg), vrs);
  }
  return v;
}

MRTQ_API size_t mrtq__requant_avx2(const mrtq_rq *rq, const int32_t *acc, size_t n, uint8_t *out, int32_t lo2,
                                   int32_t hi2) {
  const __m256i vlo = _mm256_set1_epi32(lo2), vhi = _mm256_set1_epi32(hi2), vzp = _mm256_set1_epi32(rq->zp);
  const __m256i vlo64 = _mm256_set1_epi64x(lo2), vhi64 = _mm256_set1_epi64x(hi2);
  size_t i = 0;
  switch (rq->scheme) {
    case MRTQ_Q15_VTA: {
      const __m256i vmult = _mm256_set1_epi32(rq->m.mult);
      const __m128i vk = _mm_cvtsi32_si128(15 - rq->m.shift);
      for (; i + 8 <= n; i += 8) {
        __m256i y = _mm256_sra_epi32(_mm256_mullo_epi32(_mm256_loadu_si256((const __m256i *)(acc + i)), vmult), vk);
        mrtq__avx2_store8(out + i, _mm256_add_epi32(_mm256_min_epi32(_mm256_max_epi32(y, vlo), vhi), vzp));
      }
      break;
    }
    case MRTQ_Q15_RNDNU:
    case MRTQ_Q31_RNDNU: {
      const int k = (rq->scheme == MRTQ_Q15_RNDNU ? 15 : 31) - rq->m.shift;
      const __m256i vmult = _mm256_set1_epi64x(rq->m.mult);
      const __m256i vround = _mm256_set1_epi64x(k > 0 ? (int64_t)1 << (k - 1) : 0);
      const __m128i vk = _mm_cvtsi32_si128(k);
      for (; i + 8 <= n; i += 8) {
        __m256i a = mrtq__avx2_mul_rndnu4(_mm_loadu_si128((const __m128i *)(acc + i)), vmult, vround, vk, vlo64, vhi64);
        __m256i b = mrtq__avx2_mul_rndnu4(_mm_loadu_si128((const __m128i *)(acc + i + 4)), vmult, vround, vk, vlo64, vhi64);
        __m256i y = _mm256_set_m128i(mrtq__avx2_lo32(b), mrtq__avx2_lo32(a));
        mrtq__avx2_store8(out + i, _mm256_add_epi32(y, vzp));
      }
      break;
    }
    case MRTQ_Q31_DBL: {
      const int ls = rq->m.shift > 0 ? rq->m.shift : 0, rs = rq->m.shift > 0 ? 0 : -rq->m.shift;
      const __m256i vmult = _mm256_set1_epi64x(rq->m.mult);
      const __m256i vhalf = _mm256_set1_epi64x(rs > 0 ? (int64_t)1 << (rs - 1) : 0);
      const __m128i vls = _mm_cvtsi32_si128(ls), vrs = _mm_cvtsi32_si128(rs);
      for (; i + 8 <= n; i += 8) {
        __m256i a = mrtq__avx2_q31_dbl4(_mm_loadu_si128((const __m128i *)(acc + i)), vmult, vls, vrs, vhalf, rs);
        __m256i b = mrtq__avx2_q31_dbl4(_mm_loadu_si128((const __m128i *)(acc + i + 4)), vmult, vls, vrs, vhalf, rs);
        __m256i y = _mm256_set_m128i(mrtq__avx2_lo32(b), mrtq__avx2_lo32(a));
        mrtq__avx2_store8(out + i, _mm256_add_epi32(_mm256_min_epi32(_mm256_max_epi32(y, vlo), vhi), vzp));
      }
      break;
    }
    case MRTQ_FP32: {
      const __m256 vs = _mm256_set1_ps(rq->scale), flo = _mm256_set1_ps((float)lo2), fhi = _mm256_set1_ps((float)hi2);
      for (; i + 8 <= n; i += 8) {
        __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)(acc + i))), vs);
        f = _mm256_min_ps(_mm256_max_ps(f, flo), fhi);
        mrtq__avx2_store8(out + i, _mm256_add_epi32(_mm256_cvtps_epi32(f), vzp));
      }
      break;
    }
  }
  return i;
}

#endif /* MRTQ_REQUANT_AVX2_H */
