// gemmlowp peer for Q31 double rounding (compiled with -mavx2 -DGEMMLOWP_ENABLE_AVX2).
#include "peers.h"

#if defined(MRTQB_HAVE_GEMMLOWP) && defined(__AVX2__)
#include <immintrin.h>

#include <gemmlowp/fixedpoint/fixedpoint.h>

bool peer_gemmlowp_q31_dbl(const int32_t *acc, size_t n, int32_t mult, int32_t shift, int32_t zp, int8_t *out) {
  if (shift > 0) return false;
  const __m256i vm = _mm256_set1_epi32(mult), vzp = _mm256_set1_epi32(zp);
  const __m256i lo = _mm256_set1_epi32(-128), hi = _mm256_set1_epi32(127);
  const int rs = -shift;
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m256i y[4];
    for (int j = 0; j < 4; j++) {
      __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(acc + i + 8 * j));
      __m256i v = gemmlowp::RoundingDivideByPOT(gemmlowp::SaturatingRoundingDoublingHighMul(x, vm), rs);
      y[j] = _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(v, vzp), lo), hi);
    }
    // pack 32 int32 -> 32 int8 (packs works per 128-bit lane: fix the order)
    __m256i p16a = _mm256_packs_epi32(y[0], y[1]), p16b = _mm256_packs_epi32(y[2], y[3]);
    __m256i p8 = _mm256_packs_epi16(p16a, p16b);
    p8 = _mm256_permutevar8x32_epi32(p8, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(out + i), p8);
  }
  for (; i < n; i++) {
    int32_t v = gemmlowp::RoundingDivideByPOT(gemmlowp::SaturatingRoundingDoublingHighMul(acc[i], mult), rs) + zp;
    out[i] = static_cast<int8_t>(v < -128 ? -128 : v > 127 ? 127 : v);
  }
  return true;
}
#else
bool peer_gemmlowp_q31_dbl(const int32_t *, size_t, int32_t, int32_t, int32_t, int8_t *) { return false; }
#endif
