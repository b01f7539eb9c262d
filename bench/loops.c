/* The measured loops (C compiled as C). Built once per path with
 * -DMRTQB_PATH=scalar|sse41|avx2|avx512|dispatch and that path's compiler flags
 * (dispatch: none, as a plain -O2 user builds); each build
 * defines mrtqb_requant_<path> (and, for the SIMD builds, the ceiling loop). */
#include <stdlib.h>
#include <string.h>

#include "mrtq.h"
#include "shim.h"

#define MRTQB_CAT2(a, b) a##b
#define MRTQB_CAT(a, b) MRTQB_CAT2(a, b)

_Static_assert(sizeof(mrtq_rq) <= sizeof(mrtqb_rq), "mrtqb_rq too small");

void MRTQB_CAT(mrtqb_requant_, MRTQB_PATH)(const mrtqb_rq *rq, const int32_t *acc, size_t n, int8_t *out) {
  mrtq_rq r;
  memcpy(&r, rq, sizeof r);
  (void)mrtq_requant_s8(&r, acc, n, out); /* rq from mrtqb_rq_init, buffers from the caller: cannot be refused */
}

void MRTQB_CAT(mrtqb_inner_, MRTQB_PATH)(const void *rq, const int32_t *acc, size_t rows, size_t ch, int8_t *out) {
  (void)mrtq_requant_s8_inner((const mrtq_rq *)rq, acc, rows, ch, out); /* made by mrtqb_perch_create */
}

#if MRTQB_IS_SCALAR
int mrtqb_rq_init(mrtqb_rq *rq, int scheme, double scale, int32_t zp) {
  mrtq_rq r;
  int st = (int)mrtq_rq_init((mrtq_scheme)scheme, scale, zp, -128, 127, &r);
  memset(rq, 0, sizeof *rq);
  if (st == 0) memcpy(rq, &r, sizeof r);
  return st;
}
void mrtqb_rq_params(const mrtqb_rq *rq, int *scheme, int32_t *mult, int32_t *shift, float *scale, int32_t *zp) {
  mrtq_rq r;
  memcpy(&r, rq, sizeof r);
  *scheme = (int)r.scheme, *mult = r.m.mult, *shift = r.m.shift, *scale = r.scale, *zp = r.zp;
}
void *mrtqb_perch_create(int scheme, size_t ch, const double *scale, int32_t zp) {
  mrtq_rq *r = (mrtq_rq *)malloc(ch * sizeof *r);
  size_t c;
  for (c = 0; r && c < ch; c++)
    if (mrtq_rq_init((mrtq_scheme)scheme, scale[c], zp, -128, 127, &r[c]) != MRTQ_OK) {
      free(r);
      return NULL;
    }
  return r;
}
void mrtqb_perch_destroy(void *rq) { free(rq); }
void mrtqb_perch_params(const void *rq, size_t c, int32_t *mult, int32_t *shift, float *scale, int32_t *zp) {
  const mrtq_rq *r = (const mrtq_rq *)rq + c;
  *mult = r->m.mult, *shift = r->m.shift, *scale = r->scale, *zp = r->zp;
}
void mrtqb_rq_mult(const mrtqb_rq *rq, int32_t *mult, int32_t *shift) {
  mrtq_rq r;
  memcpy(&r, rq, sizeof r);
  *mult = r.m.mult;
  *shift = r.m.shift;
}
#endif

/* The ceiling: the same bytes loaded, narrowed with the same 64-lane (AVX-512)
 * or 32-lane (AVX2) pack-and-store the requantization paths use, stored --
 * the same block loop as the paths' (requant_avx512.h / _avx2.h), software
 * prefetch 4 KiB ahead included, with the arithmetic left out. Without the
 * prefetch it was no ceiling: mrtq's paths ran faster than it on DRAM data. */
#if defined(__AVX512F__) && MRTQ_SIMD == MRTQ_SIMD_AVX512
void mrtqb_ceiling_avx512(const int32_t *acc, size_t n, int8_t *out) {
  const __m512i z = _mm512_setzero_si512();
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    _mm_prefetch((const char *)(acc + i + 1024), _MM_HINT_T0);
    _mm_prefetch((const char *)(acc + i + 1040), _MM_HINT_T0);
    _mm_prefetch((const char *)(acc + i + 1056), _MM_HINT_T0);
    _mm_prefetch((const char *)(acc + i + 1072), _MM_HINT_T0);
    mrtq__avx512_store64((uint8_t *)out + i, _mm512_loadu_si512(acc + i), _mm512_loadu_si512(acc + i + 16),
                         _mm512_loadu_si512(acc + i + 32), _mm512_loadu_si512(acc + i + 48), z);
  }
  for (; i < n; i++) out[i] = (int8_t)(acc[i] < -128 ? -128 : acc[i] > 127 ? 127 : acc[i]);
}
#elif defined(__AVX2__) && MRTQ_SIMD == MRTQ_SIMD_AVX2
void mrtqb_ceiling_avx2(const int32_t *acc, size_t n, int8_t *out) {
  const __m256i z = _mm256_setzero_si256();
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    _mm_prefetch((const char *)(acc + i + 1024), _MM_HINT_T0);
    _mm_prefetch((const char *)(acc + i + 1040), _MM_HINT_T0);
    mrtq__avx2_store32((uint8_t *)out + i, _mm256_loadu_si256((const __m256i *)(acc + i)),
                       _mm256_loadu_si256((const __m256i *)(acc + i + 8)),
                       _mm256_loadu_si256((const __m256i *)(acc + i + 16)),
                       _mm256_loadu_si256((const __m256i *)(acc + i + 24)), z);
  }
  for (; i < n; i++) out[i] = (int8_t)(acc[i] < -128 ? -128 : acc[i] > 127 ? 127 : acc[i]);
}
#endif
