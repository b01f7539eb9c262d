/* mrtq/requant_avx512.h -- AVX-512 (F + BW) twin of the array requantization
 * in mrtq/requant.h. Included only by requant.h when MRTQ_SIMD selects it.
 * Bit-exact with mrtq_rq_apply (tests/test_array.c proves it per family).
 *
 * Preconditions (checked by the caller, mrtq__rq_fast): the effective bounds
 * satisfy lo <= hi, and lo - zp, hi - zp lie in [-2^24, 2^24], so the clamp
 * can be done on the family's value before the zero point is added, in 32-bit
 * integers or exactly in float. Processes whole blocks of 16 and returns how
 * many elements it wrote; the caller finishes the tail with the scalar code. */
#ifndef MRTQ_REQUANT_AVX512_H
#define MRTQ_REQUANT_AVX512_H

#include <immintrin.h>

/* 8 int32 -> 8 int64 lanes, times mult (exact 64-bit product), then the
 * family's rounding right shift by k (k >= 0), as 64-bit lanes. */
MRTQ_API __m512i mrtq__avx512_mul_rndnu(__m256i x, __m512i vmult, __m512i vround, __m128i vk) {
  __m512i p = _mm512_mul_epi32(_mm512_cvtepi32_epi64(x), vmult);
  return _mm512_sra_epi64(_mm512_add_epi64(p, vround), vk);
}

/* Q31 double rounding on 8 lanes: saturating left shift, SRDHM, RDIVPOT. */
MRTQ_API __m512i mrtq__avx512_q31_dbl8(__m256i x, __m512i vmult, __m128i vls, __m128i vrs, __m512i vhalf, int rs) {
  const __m512i imin = _mm512_set1_epi64(INT32_MIN), imax = _mm512_set1_epi64(INT32_MAX);
  __m512i v = _mm512_sll_epi64(_mm512_cvtepi32_epi64(x), vls); /* |x| * 2^30 at most: exact */
  v = _mm512_min_epi64(_mm512_max_epi64(v, imin), imax);        /* saturate to int32 */
  v = _mm512_mul_epi32(v, vmult);                               /* exact */
  v = _mm512_srai_epi64(_mm512_add_epi64(v, _mm512_set1_epi64((int64_t)1 << 30)), 31); /* SRDHM */
  if (rs > 0) /* round half away from zero: floor((v + 2^(rs-1) - [v < 0]) / 2^rs) */
    v = _mm512_sra_epi64(_mm512_add_epi64(_mm512_add_epi64(v, vhalf), _mm512_srai_epi64(v, 63)), vrs);
  return v;
}

MRTQ_API size_t mrtq__requant_avx512(const mrtq_rq *rq, const int32_t *acc, size_t n, uint8_t *out, int32_t lo2,
                                     int32_t hi2) {
  const __m512i vlo = _mm512_set1_epi32(lo2), vhi = _mm512_set1_epi32(hi2), vzp = _mm512_set1_epi32(rq->zp);
  const __m512i vlo64 = _mm512_set1_epi64(lo2), vhi64 = _mm512_set1_epi64(hi2);
  size_t i = 0;
  switch (rq->scheme) {
    case MRTQ_Q15_VTA: {
      const __m512i vmult = _mm512_set1_epi32(rq->m.mult);
      const __m128i vk = _mm_cvtsi32_si128(15 - rq->m.shift); /* [0, 30]: mrtq_rq_init */
      for (; i + 16 <= n; i += 16) {
        __m512i y = _mm512_sra_epi32(_mm512_mullo_epi32(_mm512_loadu_si512(acc + i), vmult), vk);
        y = _mm512_add_epi32(_mm512_min_epi32(_mm512_max_epi32(y, vlo), vhi), vzp);
        _mm_storeu_si128((__m128i *)(out + i), _mm512_cvtepi32_epi8(y));
      }
      break;
    }
    case MRTQ_Q15_RNDNU:
    case MRTQ_Q31_RNDNU: {
      const int k = (rq->scheme == MRTQ_Q15_RNDNU ? 15 : 31) - rq->m.shift; /* [0, 30] or [1, 62] */
      const __m512i vmult = _mm512_set1_epi64(rq->m.mult);
      const __m512i vround = _mm512_set1_epi64(k > 0 ? (int64_t)1 << (k - 1) : 0);
      const __m128i vk = _mm_cvtsi32_si128(k);
      for (; i + 16 <= n; i += 16) {
        __m512i a = mrtq__avx512_mul_rndnu(_mm256_loadu_si256((const __m256i *)(acc + i)), vmult, vround, vk);
        __m512i b = mrtq__avx512_mul_rndnu(_mm256_loadu_si256((const __m256i *)(acc + i + 8)), vmult, vround, vk);
        a = _mm512_min_epi64(_mm512_max_epi64(a, vlo64), vhi64); /* clamp before narrowing: exact */
        b = _mm512_min_epi64(_mm512_max_epi64(b, vlo64), vhi64);
        __m512i y = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(a)), _mm512_cvtepi64_epi32(b), 1);
        _mm_storeu_si128((__m128i *)(out + i), _mm512_cvtepi32_epi8(_mm512_add_epi32(y, vzp)));
      }
      break;
    }
    case MRTQ_Q31_DBL: {
      const int ls = rq->m.shift > 0 ? rq->m.shift : 0, rs = rq->m.shift > 0 ? 0 : -rq->m.shift; /* rs <= 31 */
      const __m512i vmult = _mm512_set1_epi64(rq->m.mult);
      const __m512i vhalf = _mm512_set1_epi64(rs > 0 ? (int64_t)1 << (rs - 1) : 0);
      const __m128i vls = _mm_cvtsi32_si128(ls), vrs = _mm_cvtsi32_si128(rs);
      for (; i + 16 <= n; i += 16) {
        __m512i a = mrtq__avx512_q31_dbl8(_mm256_loadu_si256((const __m256i *)(acc + i)), vmult, vls, vrs, vhalf, rs);
        __m512i b = mrtq__avx512_q31_dbl8(_mm256_loadu_si256((const __m256i *)(acc + i + 8)), vmult, vls, vrs, vhalf, rs);
        __m512i y = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(a)), _mm512_cvtepi64_epi32(b), 1);
        y = _mm512_add_epi32(_mm512_min_epi32(_mm512_max_epi32(y, vlo), vhi), vzp);
        _mm_storeu_si128((__m128i *)(out + i), _mm512_cvtepi32_epi8(y));
      }
      break;
    }
    case MRTQ_FP32: {
      /* (float)acc and the product round to nearest as in C; the float clamp to
       * the integer bounds (exact: |bound| <= 2^24) commutes with RNE, and
       * vcvtps2dq rounds to nearest even in the default MXCSR mode. */
      const __m512 vs = _mm512_set1_ps(rq->scale), flo = _mm512_set1_ps((float)lo2), fhi = _mm512_set1_ps((float)hi2);
      for (; i + 16 <= n; i += 16) {
        __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_loadu_si512(acc + i)), vs);
        f = _mm512_min_ps(_mm512_max_ps(f, flo), fhi);
        _mm_storeu_si128((__m128i *)(out + i), _mm512_cvtepi32_epi8(_mm512_add_epi32(_mm512_cvtps_epi32(f), vzp)));
      }
      break;
    }
  }
  return i;
}

#endif /* MRTQ_REQUANT_AVX512_H */
