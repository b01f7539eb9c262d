/* mrtq/requant_avx2.h -- AVX2 twin of the array requantization in
 * mrtq/requant.h. Included only from requant.h's bodies section, when
 * MRTQ_SIMD selects it or run-time dispatch is on (then inside a target
 * pragma region: nothing here may depend on the -m flags); everything here
 * is private (mrtq__, MRTQ__PRIV).
 * Same preconditions, arguments and contract as requant_avx512.h (the
 * arithmetic of each family is explained there); blocks of 32. */
#ifndef MRTQ_REQUANT_AVX2_H
#define MRTQ_REQUANT_AVX2_H

#include <immintrin.h>

typedef struct mrtq__avx2_k {
  __m256i lo, hi, zp, mult, round64, half, half32, rsv, lo64, hi64;
  __m128i k, k2, ls, rs;
  __m256 scale, flo, fhi;
  int rs_i;
} mrtq__avx2_k;

/* floor(p / 2^k) on 64-bit lanes (AVX2 has no vpsraq): flip negatives, shift
 * logically, flip back. */
MRTQ__PRIV __m256i mrtq__avx2_sra64(__m256i p, __m128i vk) {
  __m256i s = _mm256_cmpgt_epi64(_mm256_setzero_si256(), p);
  return _mm256_xor_si256(_mm256_srl_epi64(_mm256_xor_si256(p, s), vk), s);
}
MRTQ__PRIV __m256i mrtq__avx2_clamp64(__m256i v, __m256i lo, __m256i hi) {
  v = _mm256_blendv_epi8(v, lo, _mm256_cmpgt_epi64(lo, v));
  return _mm256_blendv_epi8(v, hi, _mm256_cmpgt_epi64(v, hi));
}
/* Two vectors of four 64-bit lanes -> their low dwords as one vector of 8. */
MRTQ__PRIV __m256i mrtq__avx2_lo32x2(__m256i a, __m256i b) {
  const __m256i idx = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
  return _mm256_set_m128i(_mm256_castsi256_si128(_mm256_permutevar8x32_epi32(b, idx)),
                          _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(a, idx)));
}

MRTQ__PRIV __m256i mrtq__avx2_q15_vta(__m256i x, const mrtq__avx2_k *c) {
  return _mm256_sra_epi32(_mm256_mullo_epi32(x, c->mult), c->k);
}

/* Q31 double rounding, shift <= 0: SRDHM (bits 31..62 of x*M + 2^30 for the
 * even and the odd lanes), then RDIVPOT by rs = -shift rounding half away
 * from zero as sign(v) * ((|v| + half) >> rs): |v| <= 2^31 - 1 (M < 2^31), so
 * |v| + half < 2^32 and the shift is logical; vpsignd puts the sign back (and
 * keeps 0). Four instructions where gemmlowp's remainder-and-threshold form
 * (kept in the SSE4.1 twin and the per-channel lanes) takes six; the same
 * integers.
 * xo holds the odd lanes' x in its even dwords (x >> 32, or x loaded one
 * element later). */
MRTQ__PRIV __m256i mrtq__avx2_q31_dbl2(__m256i x, __m256i xo, const mrtq__avx2_k *c) {
  __m256i e = _mm256_add_epi64(_mm256_mul_epi32(x, c->mult), c->round64);
  __m256i o = _mm256_add_epi64(_mm256_mul_epi32(xo, c->mult), c->round64);
  __m256i v = _mm256_blend_epi32(_mm256_srli_epi64(e, 31), _mm256_slli_epi64(o, 1), 0xAA);
  if (c->rs_i > 0)
    v = _mm256_sign_epi32(_mm256_srlv_epi32(_mm256_add_epi32(_mm256_abs_epi32(v), c->half32), c->rsv), v);
  return v;
}
MRTQ__PRIV __m256i mrtq__avx2_q31_dbl(__m256i x, const mrtq__avx2_k *c) {
  return mrtq__avx2_q31_dbl2(x, _mm256_srli_epi64(x, 32), c);
}
/* The same from memory, the odd lanes' x loaded one element on (one load
 * instead of a shift): reads p[0..8], one element past the block. */
MRTQ__PRIV __m256i mrtq__avx2_q31_dbl_at(const int32_t *p, const mrtq__avx2_k *c) {
  return mrtq__avx2_q31_dbl2(_mm256_loadu_si256((const __m256i *)p), _mm256_loadu_si256((const __m256i *)(p + 1)), c);
}

MRTQ__PRIV __m256i mrtq__avx2_q31_dbl_wide4(__m128i x, const mrtq__avx2_k *c) {
  const __m256i imin = _mm256_set1_epi64x(INT32_MIN), imax = _mm256_set1_epi64x(INT32_MAX);
  __m256i v = mrtq__avx2_clamp64(_mm256_sll_epi64(_mm256_cvtepi32_epi64(x), c->ls), imin, imax);
  v = mrtq__avx2_sra64(_mm256_add_epi64(_mm256_mul_epi32(v, c->mult), c->round64), _mm_cvtsi32_si128(31));
  if (c->rs_i > 0) {
    __m256i neg = _mm256_cmpgt_epi64(_mm256_setzero_si256(), v);
    v = mrtq__avx2_sra64(_mm256_add_epi64(_mm256_add_epi64(v, c->half), neg), c->rs);
  }
  return v;
}
MRTQ__PRIV __m256i mrtq__avx2_q31_dbl_wide(__m256i x, const mrtq__avx2_k *c) {
  return mrtq__avx2_lo32x2(mrtq__avx2_q31_dbl_wide4(_mm256_castsi256_si128(x), c),
                           mrtq__avx2_q31_dbl_wide4(_mm256_extracti128_si256(x, 1), c));
}

MRTQ__PRIV __m256i mrtq__avx2_rndnu_hi(__m256i x, const mrtq__avx2_k *c) {
  __m256i e = _mm256_add_epi64(_mm256_mul_epi32(x, c->mult), c->round64);
  __m256i o = _mm256_add_epi64(_mm256_mul_epi32(_mm256_srli_epi64(x, 32), c->mult), c->round64);
  return _mm256_sra_epi32(_mm256_blend_epi32(_mm256_srli_epi64(e, 32), o, 0xAA), c->k2);
}

MRTQ__PRIV __m256i mrtq__avx2_rndnu_q15(__m256i x, const mrtq__avx2_k *c) {
  __m256i xl = _mm256_and_si256(x, _mm256_set1_epi32(0xffff)), xh = _mm256_srai_epi32(x, 16);
  __m256i b = _mm256_srli_epi32(_mm256_add_epi32(_mm256_mullo_epi32(xl, c->mult), c->half), 16);
  return _mm256_sra_epi32(_mm256_add_epi32(_mm256_mullo_epi32(xh, c->mult), b), c->k2);
}

MRTQ__PRIV __m256i mrtq__avx2_rndnu_wide4(__m128i x, const mrtq__avx2_k *c) {
  __m256i p = _mm256_add_epi64(_mm256_mul_epi32(_mm256_cvtepi32_epi64(x), c->mult), c->round64);
  return mrtq__avx2_clamp64(mrtq__avx2_sra64(p, c->k), c->lo64, c->hi64);
}
MRTQ__PRIV __m256i mrtq__avx2_rndnu_wide(__m256i x, const mrtq__avx2_k *c) {
  return mrtq__avx2_lo32x2(mrtq__avx2_rndnu_wide4(_mm256_castsi256_si128(x), c),
                           mrtq__avx2_rndnu_wide4(_mm256_extracti128_si256(x, 1), c));
}

MRTQ__PRIV __m256i mrtq__avx2_fp32(__m256i x, const mrtq__avx2_k *c) {
  __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(x), c->scale);
  return _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(f, c->flo), c->fhi));
}

/* 32 lanes of values in [-128, 127] -> 32 bytes, xor flip. */
MRTQ__PRIV void mrtq__avx2_store32(uint8_t *out, __m256i a, __m256i b, __m256i c, __m256i d, __m256i flip) {
  __m256i p = _mm256_packs_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, d));
  p = _mm256_permutevar8x32_epi32(p, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
  _mm256_storeu_si256((__m256i *)out, _mm256_xor_si256(p, flip));
}

/* After F: clamp to [lo2, hi2] and add zp, or (fp32, clamped in float) add zp only. */
#define MRTQ__AVX2_CLAMP_ZP(y) _mm256_add_epi32(_mm256_min_epi32(_mm256_max_epi32((y), c.lo), c.hi), c.zp)
#define MRTQ__AVX2_ZP(y) _mm256_add_epi32((y), c.zp)
/* When the bounds are the whole output type (full) and |F| + |zp| < 2^31, the
 * saturating packs clamp for free: only zp is added. */
#define MRTQ__AVX2_LOOP_AUTO(F, SMALL)                      \
  if (full && (SMALL)) {                                       \
    MRTQ__AVX2_LOOP(F, MRTQ__AVX2_ZP)                           \
  } else {                                                     \
    MRTQ__AVX2_LOOP(F, MRTQ__AVX2_CLAMP_ZP)                     \
  }
#define MRTQ__AVX2_LOOP(F, POST)                                                                               \
  for (; i + 32 <= n; i += 32) {                                                                           \
    _mm_prefetch((const char *)(acc + i + 1024), _MM_HINT_T0);                                             \
    _mm_prefetch((const char *)(acc + i + 1040), _MM_HINT_T0);                                             \
    __m256i y0 = F(_mm256_loadu_si256((const __m256i *)(acc + i)), &c);                                    \
    __m256i y1 = F(_mm256_loadu_si256((const __m256i *)(acc + i + 8)), &c);                                \
    __m256i y2 = F(_mm256_loadu_si256((const __m256i *)(acc + i + 16)), &c);                               \
    __m256i y3 = F(_mm256_loadu_si256((const __m256i *)(acc + i + 24)), &c);                               \
    y0 = POST(y0);                                                                                    \
    y1 = POST(y1);                                                                                    \
    y2 = POST(y2);                                                                                    \
    y3 = POST(y3);                                                                                    \
    mrtq__avx2_store32(out + i, y0, y1, y2, y3, vflip);                                                    \
  }

/* MRTQ__AVX2_LOOP with F reading its block from memory, while i + 32 <= N. */
#define MRTQ__AVX2_LOOP_AT(F, N, POST)                                                                           \
  for (; i + 32 <= (N); i += 32) {                                                                         \
    _mm_prefetch((const char *)(acc + i + 1024), _MM_HINT_T0);                                             \
    _mm_prefetch((const char *)(acc + i + 1040), _MM_HINT_T0);                                             \
    __m256i y0 = POST(F(acc + i, &c)), y1 = POST(F(acc + i + 8, &c));                                       \
    __m256i y2 = POST(F(acc + i + 16, &c)), y3 = POST(F(acc + i + 24, &c));                                 \
    mrtq__avx2_store32(out + i, y0, y1, y2, y3, vflip);                                                    \
  }
/* MRTQ__AVX2_LOOP_AT with MRTQ__AVX2_LOOP_AUTO's choice of what follows F. */
#define MRTQ__AVX2_LOOP_AT_AUTO(F, N, SMALL)      \
  if (full && (SMALL)) {                          \
    MRTQ__AVX2_LOOP_AT(F, N, MRTQ__AVX2_ZP)       \
  } else {                                        \
    MRTQ__AVX2_LOOP_AT(F, N, MRTQ__AVX2_CLAMP_ZP) \
  }

MRTQ__PRIV size_t mrtq__requant_avx2(const mrtq_rq *rq, const int32_t *acc, size_t n, uint8_t *out, int32_t lo2,
                                   int32_t hi2, int32_t zp, int flip, int full) {
  mrtq__avx2_k c;
  const __m256i vflip = _mm256_set1_epi8((char)flip);
  const int shift = rq->m.shift;
  size_t i = 0;
  memset(&c, 0, sizeof c);
  c.lo = _mm256_set1_epi32(lo2);
  c.hi = _mm256_set1_epi32(hi2);
  c.lo64 = _mm256_set1_epi64x(lo2);
  c.hi64 = _mm256_set1_epi64x(hi2);
  c.zp = _mm256_set1_epi32(zp);
  c.mult = _mm256_set1_epi32(rq->m.mult);
  switch (rq->scheme) {
    case MRTQ_Q15_VTA:
      c.k = _mm_cvtsi32_si128(15 - shift);
      MRTQ__AVX2_LOOP_AUTO(mrtq__avx2_q15_vta, 15 - shift >= 1) /* |F| <= 2^30 */
      break;
    case MRTQ_Q15_RNDNU:
    case MRTQ_Q31_RNDNU: {
      const int k = (rq->scheme == MRTQ_Q15_RNDNU ? 15 : 31) - shift;
      c.round64 = _mm256_set1_epi64x(k > 0 ? (int64_t)1 << (k - 1) : 0);
      c.half = _mm256_set1_epi32(k >= 16 && k < 32 ? (int32_t)1 << (k - 1) : 0);
      c.k = _mm_cvtsi32_si128(k);
      c.k2 = _mm_cvtsi32_si128(k >= 32 ? k - 32 : k - 16);
      if (k >= 32) {
        MRTQ__AVX2_LOOP_AUTO(mrtq__avx2_rndnu_hi, 1) /* |F| <= 2^30 */
      } else if (rq->scheme == MRTQ_Q15_RNDNU && k >= 16) {
        MRTQ__AVX2_LOOP_AUTO(mrtq__avx2_rndnu_q15, 1) /* |F| <= 2^30 */
      } else {
        MRTQ__AVX2_LOOP(mrtq__avx2_rndnu_wide, MRTQ__AVX2_CLAMP_ZP)
      }
      break;
    }
    case MRTQ_Q31_DBL: {
      const int rs = shift > 0 ? 0 : -shift;
      c.rs_i = rs;
      c.rs = _mm_cvtsi32_si128(rs);
      c.ls = _mm_cvtsi32_si128(shift > 0 ? shift : 0);
      c.round64 = _mm256_set1_epi64x((int64_t)1 << 30);
      c.half = _mm256_set1_epi64x(rs > 0 ? (int64_t)1 << (rs - 1) : 0);
      c.half32 = _mm256_set1_epi32(rs > 0 ? (int32_t)1 << (rs - 1) : 0);
      c.rsv = _mm256_set1_epi32(rs);
      if (shift <= 0) {
        /* blocks whose odd-lane load (one element on) stays inside acc */
        size_t n1 = n > 0 ? n - 1 : 0;
        MRTQ__AVX2_LOOP_AT_AUTO(mrtq__avx2_q31_dbl_at, n1, rs >= 1) /* |F| <= 2^30 */
        MRTQ__AVX2_LOOP_AUTO(mrtq__avx2_q31_dbl, rs >= 1) /* the last block */
      } else {
        MRTQ__AVX2_LOOP(mrtq__avx2_q31_dbl_wide, MRTQ__AVX2_CLAMP_ZP)
      }
      break;
    }
    case MRTQ_FP32:
      c.scale = _mm256_set1_ps(rq->scale);
      c.flo = _mm256_set1_ps((float)lo2);
      c.fhi = _mm256_set1_ps((float)hi2);
      MRTQ__AVX2_LOOP(mrtq__avx2_fp32, MRTQ__AVX2_ZP)
      break;
  }
  return i;
}

/* ---- per-channel lanes (requant.h's lane tables), 8 a step: as
 * mrtq__lanes_avx512 (the arithmetic is explained there) over `rows` rows ld
 * apart; returns how many of each row's n channels it wrote (whole steps of
 * 8). */
MRTQ__PRIV size_t mrtq__lanes_avx2(const int32_t *t, size_t stride, int form, const int32_t *acc, size_t rows,
                                   size_t ld, size_t n, uint8_t *out, int u8) {
  const __m256i r30 = _mm256_set1_epi64x((int64_t)1 << 30);
  const size_t n8 = n / 8 * 8;
  size_t r, i;
  for (r = 0; r < rows; r++, acc += ld, out += ld)
    for (i = 0; i < n8; i += 8) {
      const int32_t *c = t + i;
      __m256i x = _mm256_loadu_si256((const __m256i *)(acc + i)), y;
      __m128i w;
      if (form == MRTQ__LANE_FP32) { /* rows 1, 2: the float bounds */
        __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(x), _mm256_loadu_ps((const float *)c));
        y = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(f, _mm256_loadu_ps((const float *)(c + stride))),
                                             _mm256_loadu_ps((const float *)(c + 2 * stride))));
      } else {
        __m256i m = _mm256_loadu_si256((const __m256i *)c);
        __m256i e = _mm256_add_epi64(_mm256_mul_epi32(x, m), r30);
        __m256i o = _mm256_add_epi64(_mm256_mul_epi32(_mm256_srli_epi64(x, 32), _mm256_srli_epi64(m, 32)), r30);
        __m256i v = _mm256_blend_epi32(_mm256_srli_epi64(e, 31), _mm256_slli_epi64(o, 1), 0xAA);
        __m256i q = _mm256_srav_epi32(v, _mm256_loadu_si256((const __m256i *)(c + stride)));
        __m256i rem = _mm256_and_si256(v, _mm256_loadu_si256((const __m256i *)(c + 2 * stride)));
        __m256i thr = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(c + 3 * stride)), _mm256_srai_epi32(v, 31));
        y = _mm256_min_epi32(_mm256_max_epi32(_mm256_sub_epi32(q, _mm256_cmpgt_epi32(rem, thr)),
                                              _mm256_loadu_si256((const __m256i *)(c + 4 * stride))),
                             _mm256_loadu_si256((const __m256i *)(c + 5 * stride)));
      }
      y = _mm256_add_epi32(y, _mm256_loadu_si256((const __m256i *)(c + 6 * stride)));
      /* in the type's range: exact packs (unsigned for uint8) */
      w = _mm_packs_epi32(_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1));
      w = u8 ? _mm_packus_epi16(w, w) : _mm_packs_epi16(w, w);
      _mm_storel_epi64((__m128i *)(out + i), w);
    }
  return n8;
}

/* ONNX QuantizeLinear on 32 floats a block (see requant_avx512.h). */
MRTQ__PRIV __m256i mrtq__avx2_quant8(const float *x, __m256 vs, __m256 flo, __m256 fhi, __m256i zpb) {
  __m256 f = _mm256_div_ps(_mm256_loadu_ps(x), vs);
  f = _mm256_and_ps(f, _mm256_cmp_ps(f, f, _CMP_ORD_Q));
  return _mm256_add_epi32(_mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(f, flo), fhi)), zpb);
}
MRTQ__PRIV size_t mrtq__quantize_avx2(const float *x, size_t n, float scale, float flo, float fhi, int32_t zpb,
                                    int flip, uint8_t *out) {
  const __m256 vs = _mm256_set1_ps(scale), vlo = _mm256_set1_ps(flo), vhi = _mm256_set1_ps(fhi);
  const __m256i vzp = _mm256_set1_epi32(zpb), vflip = _mm256_set1_epi8((char)flip);
  size_t i = 0;
  for (; i + 32 <= n; i += 32)
    mrtq__avx2_store32(out + i, mrtq__avx2_quant8(x + i, vs, vlo, vhi, vzp), mrtq__avx2_quant8(x + i + 8, vs, vlo, vhi, vzp),
                       mrtq__avx2_quant8(x + i + 16, vs, vlo, vhi, vzp),
                       mrtq__avx2_quant8(x + i + 24, vs, vlo, vhi, vzp), vflip);
  return i;
}

/* ONNX DequantizeLinear on 8 bytes a block (see requant_avx512.h). */
MRTQ__PRIV size_t mrtq__dequantize_avx2(const uint8_t *q, mrtq_dtype t, size_t n, float scale, int32_t zp, float *out) {
  const __m256 vs = _mm256_set1_ps(scale);
  const __m256i vzp = _mm256_set1_epi32(zp);
  const int u8 = t == MRTQ_U8; /* else MRTQ_S8 */
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m128i b = _mm_loadl_epi64((const __m128i *)(q + i));
    __m256i v = u8 ? _mm256_cvtepu8_epi32(b) : _mm256_cvtepi8_epi32(b);
    _mm256_storeu_ps(out + i, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(v, vzp)), vs));
  }
  return i;
}

#endif /* MRTQ_REQUANT_AVX2_H */
