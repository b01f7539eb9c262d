/* mrtq/requant_avx512.h -- AVX-512 (F + BW + DQ) twin of the array requantization
 * in mrtq/requant.h. Included only from requant.h's bodies section, when
 * MRTQ_SIMD selects it or run-time dispatch is on (then inside a target
 * pragma region: nothing here may depend on the -m flags); everything here
 * is private (mrtq__, MRTQ__PRIV).
 * Bit-exact with mrtq_rq_apply (tests/test_array.c proves it per family).
 *
 * Preconditions (checked by the caller, mrtq__rq_fast): the effective bounds
 * satisfy lo <= hi, and lo - zp, hi - zp lie in [-2^24, 2^24], so the clamp
 * can be done on the family's value before the zero point is added, in 32-bit
 * integers or exactly in float. The caller passes zp (and, for uint8 output,
 * zp - 128 with flip = 0x80, so every lane is a signed byte before the final
 * xor). Processes whole blocks of 64 and returns how many elements it wrote;
 * the caller finishes the tail with the scalar code. */
#ifndef MRTQ_REQUANT_AVX512_H
#define MRTQ_REQUANT_AVX512_H

#include <immintrin.h>

typedef struct mrtq__avx512_k {
  __m512i lo, hi, zp, mult, mult64, round64, half, half32, rsv;
  __m128i k, k2, ls, rs;
  __m512 scale, flo, fhi;
  int rs_i;
} mrtq__avx512_k;

/* Even/odd 32x32->64 products of 16 lanes: even lanes in place, odd lanes
 * moved down first (vpmuldq reads the low dword of each qword). */
#define MRTQ__MUL_EVEN(x, m) _mm512_mul_epi32((x), (m))
#define MRTQ__MUL_ODD(x, m) _mm512_mul_epi32(_mm512_srli_epi64((x), 32), (m))

/* Q15 VTA: wrapping multiply, arithmetic shift. */
MRTQ__PRIV __m512i mrtq__avx512_q15_vta(__m512i x, const mrtq__avx512_k *c) {
  return _mm512_sra_epi32(_mm512_mullo_epi32(x, c->mult), c->k);
}

/* Q31 double rounding for shift <= 0, in 32-bit lanes:
 * SRDHM = bits 31..62 of x*M + 2^30 (no saturation case: M > 0), then RDIVPOT
 * by rs = -shift, ties away from zero, as sign(v) * ((|v| + half) >> rs):
 * |v| <= 2^31 - 1, so |v| + half < 2^32 and the shift is logical; the sign
 * goes back by a subtraction from 0 under v's sign mask. The same integers as
 * gemmlowp's remainder-and-threshold form, in 5 instructions for its 6.
 * xo holds the odd lanes' x in its even dwords (x >> 32, or x loaded one
 * element on). */
MRTQ__PRIV __m512i mrtq__avx512_q31_dbl2(__m512i x, __m512i xo, const mrtq__avx512_k *c) {
  __m512i e = _mm512_add_epi64(MRTQ__MUL_EVEN(x, c->mult), c->round64);
  __m512i o = _mm512_add_epi64(_mm512_mul_epi32(xo, c->mult), c->round64);
  __m512i v = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(e, 31), _mm512_slli_epi64(o, 1));
  if (c->rs_i > 0) {
    __m512i r = _mm512_srlv_epi32(_mm512_add_epi32(_mm512_abs_epi32(v), c->half32), c->rsv);
    v = _mm512_mask_sub_epi32(r, _mm512_movepi32_mask(v), _mm512_setzero_si512(), r);
  }
  return v;
}
MRTQ__PRIV __m512i mrtq__avx512_q31_dbl(__m512i x, const mrtq__avx512_k *c) {
  return mrtq__avx512_q31_dbl2(x, _mm512_srli_epi64(x, 32), c);
}
/* The same from memory, the odd lanes' x loaded one element on (a load for a
 * shift): reads p[0..16], one element past the block. */
MRTQ__PRIV __m512i mrtq__avx512_q31_dbl_at(const int32_t *p, const mrtq__avx512_k *c) {
  return mrtq__avx512_q31_dbl2(_mm512_loadu_si512(p), _mm512_loadu_si512(p + 1), c);
}

/* Q31 double rounding, any shift (the left shift saturates): 64-bit lanes. */
MRTQ__PRIV __m512i mrtq__avx512_q31_dbl_wide8(__m256i x, const mrtq__avx512_k *c) {
  const __m512i imin = _mm512_set1_epi64(INT32_MIN), imax = _mm512_set1_epi64(INT32_MAX);
  __m512i v = _mm512_sll_epi64(_mm512_cvtepi32_epi64(x), c->ls); /* |x| * 2^30 at most: exact */
  v = _mm512_min_epi64(_mm512_max_epi64(v, imin), imax);
  v = _mm512_srai_epi64(_mm512_add_epi64(_mm512_mul_epi32(v, c->mult64), c->round64), 31);
  if (c->rs_i > 0) v = _mm512_sra_epi64(_mm512_add_epi64(_mm512_add_epi64(v, c->half), _mm512_srai_epi64(v, 63)), c->rs);
  return v;
}
MRTQ__PRIV __m512i mrtq__avx512_q31_dbl_wide(__m512i x, const mrtq__avx512_k *c) {
  __m512i a = mrtq__avx512_q31_dbl_wide8(_mm512_castsi512_si256(x), c);
  __m512i b = mrtq__avx512_q31_dbl_wide8(_mm512_extracti64x4_epi64(x, 1), c);
  return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(a)), _mm512_cvtepi64_epi32(b), 1);
}

/* Single rounding floor((x*M + 2^(k-1)) / 2^k) with k >= 32: the high dword of
 * the 64-bit sum, then an arithmetic shift by k - 32 (|result| < 2^30: no
 * saturation). */
MRTQ__PRIV __m512i mrtq__avx512_rndnu_hi(__m512i x, const mrtq__avx512_k *c) {
  __m512i e = _mm512_add_epi64(MRTQ__MUL_EVEN(x, c->mult), c->round64);
  __m512i o = _mm512_add_epi64(MRTQ__MUL_ODD(x, c->mult), c->round64);
  return _mm512_sra_epi32(_mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(e, 32), o), c->k2);
}

/* Single rounding with a 16-bit multiplier and 16 <= k < 32: split
 * x = xh * 2^16 + xl (xl unsigned 16 bits), so
 * floor((x*M + 2^(k-1)) / 2^k) = (xh*M + ((xl*M + 2^(k-1)) >> 16)) >> (k-16),
 * every step within 32 bits (the inner sum is < 2^32, shifted logically). */
MRTQ__PRIV __m512i mrtq__avx512_rndnu_q15(__m512i x, const mrtq__avx512_k *c) {
  __m512i xl = _mm512_and_si512(x, _mm512_set1_epi32(0xffff)), xh = _mm512_srai_epi32(x, 16);
  __m512i b = _mm512_srli_epi32(_mm512_add_epi32(_mm512_mullo_epi32(xl, c->mult), c->half), 16);
  return _mm512_sra_epi32(_mm512_add_epi32(_mm512_mullo_epi32(xh, c->mult), b), c->k2);
}

/* Single rounding, general k: 64-bit lanes, clamped to [lo, hi] before
 * narrowing (exact). */
MRTQ__PRIV __m512i mrtq__avx512_rndnu_wide8(__m256i x, const mrtq__avx512_k *c) {
  __m512i p = _mm512_add_epi64(_mm512_mul_epi32(_mm512_cvtepi32_epi64(x), c->mult64), c->round64);
  return _mm512_min_epi64(_mm512_max_epi64(_mm512_sra_epi64(p, c->k), _mm512_cvtepi32_epi64(_mm512_castsi512_si256(c->lo))),
                          _mm512_cvtepi32_epi64(_mm512_castsi512_si256(c->hi)));
}
MRTQ__PRIV __m512i mrtq__avx512_rndnu_wide(__m512i x, const mrtq__avx512_k *c) {
  __m512i a = mrtq__avx512_rndnu_wide8(_mm512_castsi512_si256(x), c);
  __m512i b = mrtq__avx512_rndnu_wide8(_mm512_extracti64x4_epi64(x, 1), c);
  return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(a)), _mm512_cvtepi64_epi32(b), 1);
}

/* fp32: (float)acc and the product round to nearest as in C; the float clamp
 * to the integer bounds (exact: |bound| <= 2^24) commutes with RNE, and
 * vcvtps2dq rounds to nearest even in the default MXCSR mode. The clamp is
 * done here, so the caller's integer clamp is a no-op. */
MRTQ__PRIV __m512i mrtq__avx512_fp32(__m512i x, const mrtq__avx512_k *c) {
  __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(x), c->scale);
  return _mm512_cvtps_epi32(_mm512_min_ps(_mm512_max_ps(f, c->flo), c->fhi));
}

/* fp32 when the bounds are the whole output type: one vrangeps keeps the sign
 * and cuts |f| to 2^30 (so vcvtps2dq cannot overflow and |y + zp| < 2^31); the
 * saturating packs then do the clamp, exactly. */
MRTQ__PRIV __m512i mrtq__avx512_fp32_full(__m512i x, const mrtq__avx512_k *c) {
  __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(x), c->scale);
  return _mm512_cvtps_epi32(_mm512_range_ps(f, _mm512_set1_ps(1073741824.0f), 0x2));
}

/* 64 lanes of values already in [-128, 127] -> 64 bytes (saturating packs are
 * exact here; vpermd undoes the per-128-bit-lane interleave), xor flip. */
MRTQ__PRIV void mrtq__avx512_store64(uint8_t *out, __m512i a, __m512i b, __m512i c, __m512i d, __m512i flip) {
  __m512i p = _mm512_packs_epi16(_mm512_packs_epi32(a, b), _mm512_packs_epi32(c, d));
  p = _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15), p);
  _mm512_storeu_si512(out, _mm512_xor_si512(p, flip));
}

/* The block loop, one instance per family: F(x, &c) gives 16 family values;
 * then POST (clamp to [lo2, hi2] and/or add zp), narrow 64 at a time. The
 * input is prefetched 4 KiB ahead (DRAM-sized arrays: +5-10% measured). */
/* After F: clamp to [lo2, hi2] and add zp, or (fp32, clamped in float) add zp only. */
#define MRTQ__AVX512_CLAMP_ZP(y) _mm512_add_epi32(_mm512_min_epi32(_mm512_max_epi32((y), c.lo), c.hi), c.zp)
#define MRTQ__AVX512_ZP(y) _mm512_add_epi32((y), c.zp)
/* When the bounds are the whole output type (full) and |F| + |zp| < 2^31, the
 * saturating packs clamp for free: only zp is added. */
#define MRTQ__AVX512_LOOP_AUTO(F, SMALL)                      \
  if (full && (SMALL)) {                                       \
    MRTQ__AVX512_LOOP(F, MRTQ__AVX512_ZP)                           \
  } else {                                                     \
    MRTQ__AVX512_LOOP(F, MRTQ__AVX512_CLAMP_ZP)                     \
  }
#define MRTQ__AVX512_LOOP(F, POST)                                                                        \
  for (; i + 64 <= n; i += 64) {                                                                      \
    _mm_prefetch((const char *)(acc + i + 1024), _MM_HINT_T0);                                        \
    _mm_prefetch((const char *)(acc + i + 1040), _MM_HINT_T0);                                        \
    _mm_prefetch((const char *)(acc + i + 1056), _MM_HINT_T0);                                        \
    _mm_prefetch((const char *)(acc + i + 1072), _MM_HINT_T0);                                        \
    __m512i y0 = F(_mm512_loadu_si512(acc + i), &c), y1 = F(_mm512_loadu_si512(acc + i + 16), &c);    \
    __m512i y2 = F(_mm512_loadu_si512(acc + i + 32), &c), y3 = F(_mm512_loadu_si512(acc + i + 48), &c); \
    y0 = POST(y0);                                                                                    \
    y1 = POST(y1);                                                                                    \
    y2 = POST(y2);                                                                                    \
    y3 = POST(y3);                                                                                    \
    mrtq__avx512_store64(out + i, y0, y1, y2, y3, vflip);                                             \
  }

/* MRTQ__AVX512_LOOP with F reading its block from memory, while i + 64 <= N. */
#define MRTQ__AVX512_LOOP_AT(F, N, POST)                                                                  \
  for (; i + 64 <= (N); i += 64) {                                                                    \
    _mm_prefetch((const char *)(acc + i + 1024), _MM_HINT_T0);                                        \
    _mm_prefetch((const char *)(acc + i + 1040), _MM_HINT_T0);                                        \
    _mm_prefetch((const char *)(acc + i + 1056), _MM_HINT_T0);                                        \
    _mm_prefetch((const char *)(acc + i + 1072), _MM_HINT_T0);                                        \
    __m512i y0 = POST(F(acc + i, &c)), y1 = POST(F(acc + i + 16, &c));                                 \
    __m512i y2 = POST(F(acc + i + 32, &c)), y3 = POST(F(acc + i + 48, &c));                            \
    mrtq__avx512_store64(out + i, y0, y1, y2, y3, vflip);                                             \
  }
/* MRTQ__AVX512_LOOP_AT with MRTQ__AVX512_LOOP_AUTO's choice of what follows F. */
#define MRTQ__AVX512_LOOP_AT_AUTO(F, N, SMALL)        \
  if (full && (SMALL)) {                              \
    MRTQ__AVX512_LOOP_AT(F, N, MRTQ__AVX512_ZP)       \
  } else {                                            \
    MRTQ__AVX512_LOOP_AT(F, N, MRTQ__AVX512_CLAMP_ZP) \
  }

MRTQ__PRIV size_t mrtq__requant_avx512(const mrtq_rq *rq, const int32_t *acc, size_t n, uint8_t *out, int32_t lo2,
                                     int32_t hi2, int32_t zp, int flip, int full) {
  mrtq__avx512_k c;
  const __m512i vflip = _mm512_set1_epi8((char)flip);
  const int shift = rq->m.shift;
  size_t i = 0;
  memset(&c, 0, sizeof c);
  c.lo = _mm512_set1_epi32(lo2);
  c.hi = _mm512_set1_epi32(hi2);
  c.zp = _mm512_set1_epi32(zp);
  c.mult = _mm512_set1_epi32(rq->m.mult);
  c.mult64 = _mm512_set1_epi64(rq->m.mult);
  switch (rq->scheme) {
    case MRTQ_Q15_VTA:
      c.k = _mm_cvtsi32_si128(15 - shift); /* [0, 30]: mrtq_rq_init */
      MRTQ__AVX512_LOOP_AUTO(mrtq__avx512_q15_vta, 15 - shift >= 1) /* |F| <= 2^30 */
      break;
    case MRTQ_Q15_RNDNU:
    case MRTQ_Q31_RNDNU: {
      const int k = (rq->scheme == MRTQ_Q15_RNDNU ? 15 : 31) - shift; /* [0, 30] or [1, 62] */
      c.round64 = _mm512_set1_epi64(k > 0 ? (int64_t)1 << (k - 1) : 0);
      c.half = _mm512_set1_epi32(k >= 16 && k < 32 ? (int32_t)1 << (k - 1) : 0); /* 2^(k-1) < 2^31 when k < 32 */
      c.k = _mm_cvtsi32_si128(k);
      c.k2 = _mm_cvtsi32_si128(k >= 32 ? k - 32 : k - 16);
      if (k >= 32) {
        MRTQ__AVX512_LOOP_AUTO(mrtq__avx512_rndnu_hi, 1) /* |F| <= 2^30 */
      } else if (rq->scheme == MRTQ_Q15_RNDNU && k >= 16) {
        MRTQ__AVX512_LOOP_AUTO(mrtq__avx512_rndnu_q15, 1) /* |F| <= 2^30 */
      } else {
        MRTQ__AVX512_LOOP(mrtq__avx512_rndnu_wide, MRTQ__AVX512_CLAMP_ZP)
      }
      break;
    }
    case MRTQ_Q31_DBL: {
      const int rs = shift > 0 ? 0 : -shift; /* [0, 31] */
      c.rs_i = rs;
      c.rs = _mm_cvtsi32_si128(rs);
      c.ls = _mm_cvtsi32_si128(shift > 0 ? shift : 0);
      c.round64 = _mm512_set1_epi64((int64_t)1 << 30);
      c.half = _mm512_set1_epi64(rs > 0 ? (int64_t)1 << (rs - 1) : 0);
      c.half32 = _mm512_set1_epi32(rs > 0 ? (int32_t)1 << (rs - 1) : 0);
      c.rsv = _mm512_set1_epi32(rs);
      if (shift <= 0) {
        /* blocks whose odd-lane load (one element on) stays inside acc */
        size_t n1 = n > 0 ? n - 1 : 0;
        MRTQ__AVX512_LOOP_AT_AUTO(mrtq__avx512_q31_dbl_at, n1, rs >= 1) /* |F| <= 2^30 */
        MRTQ__AVX512_LOOP_AUTO(mrtq__avx512_q31_dbl, rs >= 1) /* the last block */
      } else {
        MRTQ__AVX512_LOOP(mrtq__avx512_q31_dbl_wide, MRTQ__AVX512_CLAMP_ZP)
      }
      break;
    }
    case MRTQ_FP32:
      c.scale = _mm512_set1_ps(rq->scale);
      c.flo = _mm512_set1_ps((float)lo2);
      c.fhi = _mm512_set1_ps((float)hi2);
      if (full) {
        MRTQ__AVX512_LOOP(mrtq__avx512_fp32_full, MRTQ__AVX512_ZP)
      } else {
        MRTQ__AVX512_LOOP(mrtq__avx512_fp32, MRTQ__AVX512_ZP)
      }
      break;
  }
  return i;
}

/* ---- per-channel lanes (requant.h's lane tables, MRTQ__LANE_Q31 / _FP32) ----
 * The FP32 one is inlined into the fast conv core's epilogue too
 * (mrtq/fastconv.h; its Q31 form takes both roundings in one shift). */
#if defined(__GNUC__)
#define MRTQ__LANES_HOT __attribute__((always_inline)) MRTQ__PRIV
#else
#define MRTQ__LANES_HOT MRTQ__PRIV
#endif
/* Q31 double rounding with a multiplier m (mo: its odd lanes moved down), a
 * right shift rs, its mask and half - 1 per lane: mrtq__avx512_q31_dbl's
 * SRDHM with per-lane shifts, then RDIVPOT as gemmlowp states it (floor shift
 * plus one where the remainder exceeds half - 1 + [v < 0]), the form the lane
 * tables' rows hold (rs = 0 leaves the SRDHM value: mask 0, no carry). */
MRTQ__LANES_HOT __m512i mrtq__avx512_q31_lanes(__m512i x, __m512i m, __m512i mo, __m512i rs, __m512i mask,
                                               __m512i halfm1) {
  const __m512i r30 = _mm512_set1_epi64((int64_t)1 << 30);
  __m512i ev = _mm512_add_epi64(_mm512_mul_epi32(x, m), r30);
  __m512i od = _mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64(x, 32), mo), r30);
  __m512i v = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(ev, 31), _mm512_slli_epi64(od, 1));
  __m512i q = _mm512_srav_epi32(v, rs);
  __m512i thr = _mm512_sub_epi32(halfm1, _mm512_srai_epi32(v, 31)); /* half - 1 + [v < 0] */
  return _mm512_mask_sub_epi32(q, _mm512_cmpgt_epi32_mask(_mm512_and_si512(v, mask), thr), q, _mm512_set1_epi32(-1));
}
/* mrtq_requant_fp32 less its zero point, per-lane scale: the float product
 * (one rounding, as (float)acc * scale in C; nothing follows that could fuse
 * with it), clamped in float to the bounds less the zero point (exact
 * integers, and clamping commutes with rounding to an integer; an infinite
 * product clamps to its bound, a finite scale gives no NaN), vcvtps2dq
 * (nearest even in the default MXCSR mode, as mrtq__rne_f32). */
MRTQ__LANES_HOT __m512i mrtq__avx512_fp32_lanes(__m512i x, __m512 scale, __m512 flo, __m512 fhi) {
  __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(x), scale);
  return _mm512_cvtps_epi32(_mm512_min_ps(_mm512_max_ps(f, flo), fhi));
}
/* `rows` rows (ld elements apart in acc and out) of n channels (n <= the
 * table's columns) from a lane table of form `form` (rows `stride` apart), 16
 * lanes a step, the last one masked: the family value, the clamp to the
 * bounds less zp, + zp, its low byte (the value lies in the output type's
 * range). Writes exactly n bytes per row. Blocks of up to 32 rows, and in
 * a block one 16-channel step at a time over its rows: a step's constants
 * are loaded once per block and stay in registers (loaded per output vector,
 * from a table on the caller's stack, they were four (FP32) or seven (Q31)
 * loads per 16 outputs, and their addresses could alias the stores of out
 * modulo 4 KiB: a stall that came and went with the stack's address, the
 * likely cause of a plain -O2 build's bimodal per-channel rate in the bench,
 * gone with this form: docs/PERFORMANCE.md). KLOAD loads a step's
 * constants (from c, lanes under m), BODY maps x to y with them. */
#define MRTQ__LANES_AVX512_ROWS(BODY, STORE)                                                          \
  for (r = r0; r < r1; r++) {                                                                         \
    __m512i x = _mm512_maskz_loadu_epi32(m, acc + r * ld + i), y;                                      \
    BODY;                                                                                             \
    y = _mm512_add_epi32(y, zp);                                                                      \
    STORE;                                                                                            \
  }
#define MRTQ__LANES_AVX512_LOOP(KLOAD, BODY)                                                          \
  for (r0 = 0; r0 < rows; r0 += 32) {                                                                 \
    const size_t r1 = rows - r0 < 32 ? rows : r0 + 32;                                                \
    for (i = 0; i < n; i += 16) {                                                                     \
      const __mmask16 m = n - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - i)) - 1u);        \
      const int32_t *c = t + i;                                                                       \
      const __m512i zp = _mm512_maskz_loadu_epi32(m, c + 6 * stride);                                 \
      KLOAD;                                                                                          \
      if (m == 0xFFFF) {                                                                              \
        MRTQ__LANES_AVX512_ROWS(BODY, _mm_storeu_si128((__m128i *)(out + r * ld + i), _mm512_cvtepi32_epi8(y))) \
      } else { /* the last, partial step: the masked byte store */                                    \
        MRTQ__LANES_AVX512_ROWS(BODY, _mm512_mask_storeu_epi8(out + r * ld + i, (__mmask64)m,         \
                                                              _mm512_castsi128_si512(_mm512_cvtepi32_epi8(y)))) \
      }                                                                                               \
    }                                                                                                 \
  }
MRTQ__PRIV void mrtq__lanes_avx512(const int32_t *t, size_t stride, int form, const int32_t *acc, size_t rows,
                                   size_t ld, size_t n, uint8_t *out) {
  size_t r0, r, i;
  if (form == MRTQ__LANE_FP32) { /* rows 1, 2: the float bounds */
    MRTQ__LANES_AVX512_LOOP(const __m512 sc = _mm512_castsi512_ps(_mm512_maskz_loadu_epi32(m, c));
                            const __m512 flo = _mm512_castsi512_ps(_mm512_maskz_loadu_epi32(m, c + stride));
                            const __m512 fhi = _mm512_castsi512_ps(_mm512_maskz_loadu_epi32(m, c + 2 * stride)),
                            y = mrtq__avx512_fp32_lanes(x, sc, flo, fhi))
  } else {
    MRTQ__LANES_AVX512_LOOP(const __m512i mu = _mm512_maskz_loadu_epi32(m, c);
                            const __m512i mo = _mm512_srli_epi64(mu, 32);
                            const __m512i rs = _mm512_maskz_loadu_epi32(m, c + stride);
                            const __m512i mask = _mm512_maskz_loadu_epi32(m, c + 2 * stride);
                            const __m512i hm1 = _mm512_maskz_loadu_epi32(m, c + 3 * stride);
                            const __m512i lo = _mm512_maskz_loadu_epi32(m, c + 4 * stride);
                            const __m512i hi = _mm512_maskz_loadu_epi32(m, c + 5 * stride),
                            y = _mm512_min_epi32(_mm512_max_epi32(mrtq__avx512_q31_lanes(x, mu, mo, rs, mask, hm1), lo), hi))
  }
}

/* ONNX QuantizeLinear on 64 floats a block: the IEEE division as in C, NaN
 * lanes zeroed, the clamp in float to [lo - zp, hi - zp] (integers of
 * magnitude <= 2^24, exact), RNE conversion, + zp (zpb: zp, or zp - 128 for
 * uint8 with flip 0x80), pack. */
MRTQ__PRIV __m512i mrtq__avx512_quant16(const float *x, __m512 vs, __m512 flo, __m512 fhi, __m512i zpb) {
  __m512 f = _mm512_div_ps(_mm512_loadu_ps(x), vs);
  f = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(f, f, _CMP_ORD_Q), f);
  return _mm512_add_epi32(_mm512_cvtps_epi32(_mm512_min_ps(_mm512_max_ps(f, flo), fhi)), zpb);
}
MRTQ__PRIV size_t mrtq__quantize_avx512(const float *x, size_t n, float scale, float flo, float fhi, int32_t zpb,
                                      int flip, uint8_t *out) {
  const __m512 vs = _mm512_set1_ps(scale), vlo = _mm512_set1_ps(flo), vhi = _mm512_set1_ps(fhi);
  const __m512i vzp = _mm512_set1_epi32(zpb), vflip = _mm512_set1_epi8((char)flip);
  size_t i = 0;
  for (; i + 64 <= n; i += 64)
    mrtq__avx512_store64(out + i, mrtq__avx512_quant16(x + i, vs, vlo, vhi, vzp),
                         mrtq__avx512_quant16(x + i + 16, vs, vlo, vhi, vzp),
                         mrtq__avx512_quant16(x + i + 32, vs, vlo, vhi, vzp),
                         mrtq__avx512_quant16(x + i + 48, vs, vlo, vhi, vzp), vflip);
  return i;
}

/* ONNX DequantizeLinear on 16 bytes a block: widen, subtract zp (|zp| <= 2^24:
 * exact in int32), convert (RNE, as C's int-to-float), one multiply. */
MRTQ__PRIV size_t mrtq__dequantize_avx512(const uint8_t *q, mrtq_dtype t, size_t n, float scale, int32_t zp, float *out) {
  const __m512 vs = _mm512_set1_ps(scale);
  const __m512i vzp = _mm512_set1_epi32(zp);
  const int u8 = t == MRTQ_U8; /* else MRTQ_S8 */
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m128i b = _mm_loadu_si128((const __m128i *)(q + i));
    __m512i v = u8 ? _mm512_cvtepu8_epi32(b) : _mm512_cvtepi8_epi32(b);
    _mm512_storeu_ps(out + i, _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(v, vzp)), vs));
  }
  return i;
}

#endif /* MRTQ_REQUANT_AVX512_H */
