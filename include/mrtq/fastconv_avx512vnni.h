/* mrtq/fastconv_avx512vnni.h -- AVX512-VNNI twin of the loops in
 * mrtq/fastconv.h (the micro-kernel, the depthwise path, the epilogue of 16
 * outputs). Included only by fastconv.h, from its bodies section, when
 * MRTQ_SIMD is MRTQ_SIMD_AVX512 and the target has AVX512-VNNI. Everything
 * here is private (MRTQ__PRIV). Bit-exact with the C loops and with
 * mrtq_conv2d_onednn (tests/test_fastconv.c).
 *
 * Integer sums: vpdpbusd adds four u8 x s8 products to each 32-bit lane
 * without saturation, so every sum is the true one modulo 2^32, as in C.
 * Float epilogue: the same operations in the same order as
 * mrtq_onednn_epilogue, one IEEE operation per C operation (vfmadd for
 * mrtq__fmaf, which rounds once; no other product fused, whatever the
 * contraction setting: MRTQ__FAST_ROUNDED); NaN becomes the bound taken
 * first (127 for int8, 0 for uint8, as mrtq__onednn_store), and the value is clamped to
 * the dst range in float before the round to nearest even, which is what
 * mrtq__rne_f32 + mrtq__clamp64 give (the bounds are integers). */
#ifndef MRTQ_FASTCONV_AVX512VNNI_H
#define MRTQ_FASTCONV_AVX512VNNI_H

#include <immintrin.h>

#ifdef __cplusplus
extern "C" {
#endif

MRTQ__PRIV int32_t mrtq__ld32(const uint8_t *p) {
  int32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

/* A product that the next addition must not absorb. gcc 12 and clang 14
 * were not seen to fuse _mm512_add_ps(f, _mm512_mul_ps(a, b)) even with
 * -ffp-contract=fast; the empty asm makes the rounded product a value of its
 * own so that no compiler may. */
#if defined(__GNUC__)
#define MRTQ__FAST_ROUNDED(v) __asm__("" : "+v"(v))
#else
#define MRTQ__FAST_ROUNDED(v) ((void)0)
#endif

/* The epilogue and the depthwise taps run once per 16 outputs: inlined
 * into their loops where the compiler allows asking. */
#if defined(__GNUC__)
#define MRTQ__FAST_HOT __attribute__((always_inline)) MRTQ__PRIV
#else
#define MRTQ__FAST_HOT MRTQ__PRIV
#endif
/* The micro-kernel is kept a call of its own: inlined into the tile loops,
 * gcc 12 (-O3, and -O2 in larger callers) copies and spills its 24
 * accumulators inside the k loop, at half the speed. (gcc warns that an
 * inline function is given noinline, and still keeps the call: the warning
 * is silenced around the four kernels below.) */
#if defined(__GNUC__)
#define MRTQ__FAST_KERNEL_API __attribute__((noinline, unused)) MRTQ__PRIV
#else
#define MRTQ__FAST_KERNEL_API MRTQ__PRIV
#endif

/* 16 bytes at p (lanes under m) widened to 32-bit lanes. */
MRTQ__PRIV __m512i mrtq__fast_ld8x16(const void *p, __mmask16 m, int is_unsigned) {
  __m128i b = m == 0xFFFF ? _mm_loadu_si128((const __m128i *)p)
                          : _mm512_castsi512_si128(_mm512_maskz_loadu_epi8((__mmask64)m, p));
  return is_unsigned ? _mm512_cvtepu8_epi32(b) : _mm512_cvtepi8_epi32(b);
}

/* 16 floats: p[0] in every lane (lane = 0) or p[0..15] under m (lane = 1). */
MRTQ__PRIV __m512 mrtq__fast_ldf(const float *p, int lane, __mmask16 m) {
  return lane ? _mm512_maskz_loadu_ps(m, p) : _mm512_set1_ps(p[0]);
}

/* mrtq_onednn_epilogue for 16 lanes, in two halves: mrtq__fast_epv_init reads
 * the attributes once for channels oc0.. (lanes under m) and OLD scale index
 * si0 (si0 + lane when the mask has the channel bit, which the caller has
 * made the last one set); mrtq__fast_epv_run then stores the outputs of one
 * pixel (dst offsets at0.., consecutive) from its sums. The values kept are
 * the same single IEEE operations the scalar epilogue performs per output
 * (the NEW scale product, a binary post-op's scaled operand), so keeping
 * them changes no rounding. ref_rounding is 0 here (the caller checks). */
typedef struct mrtq__fast_epv {
  __m512 scale, add, div, zp, lo, hi, pa[MRTQ_ONEDNN_MAX_PO], pb[MRTQ_ONEDNN_MAX_PO], ps[MRTQ_ONEDNN_MAX_PO];
  const float *oscale, *src1[MRTQ_ONEDNN_MAX_PO]; /* src1: PER_ELEM operands, else NULL */
  int is_new, has_scale, has_add, has_div, dst_unsigned, n_po, kind[MRTQ_ONEDNN_MAX_PO], relu0[MRTQ_ONEDNN_MAX_PO];
  int scaled[MRTQ_ONEDNN_MAX_PO]; /* an eltwise post-op with a scale other than 1 (ps) */
  /* mrtq_fastconv_q8's epilogue. Q31 double rounding in two halves of
   * eight 64-bit lanes: multiplier, left and right shift, zero point,
   * effective bounds; and the int32 bias (all forms) */
  int is_rq; /* 0: oneDNN's epilogue; 1: Q31, 64-bit lanes; 2: Q31, 32-bit lanes; 3: FP32 */
  __m512i rm[2], rls[2], rrs[2], rzp[2], rlo[2], rhi[2], rbias;
  /* the 32-bit-lane form (every shift <= 0, bounds - zp within int32;
   * mrtq__fast_q31v): the multiplier (and its odd lanes moved down); per
   * 64-bit lane of the even and the odd channels K = 2^30 + half 2^31 and
   * S = 31 + rs, and the lanes whose rs >= 1; the bounds less the zero
   * point, the zero point */
  __m512i m32, mo32, ke, ko, se, so, lo32, hi32, zp32;
  __mmask8 kre, kro;
  __m512 fscale, flo, fhi; /* MRTQ_FP32 (is_rq 3): the scale, the bounds less the zero point */
} mrtq__fast_epv;

/* The constants of channels oc0.. (lanes under m) for the form x->vec picks:
 * from the call's table (2, 3), or built here from the descriptors (1). */
MRTQ__FAST_HOT void mrtq__fast_epv_init_rq(mrtq__fast_epv *e, const mrtq__fast_ctx *x, __mmask16 m, size_t oc0) {
  int64_t v[6][16];
  int32_t b[16];
  int i, h, f;
  e->is_rq = x->vec;
  if (x->vec >= 2) { /* the 32-bit-lane forms: the call's table (mrtq_fastconv_q8) */
    const int32_t *t = x->rqt + oc0;
    size_t n = x->rqs;
    e->lo32 = _mm512_maskz_loadu_epi32(m, t + 4 * n), e->hi32 = _mm512_maskz_loadu_epi32(m, t + 5 * n);
    e->zp32 = _mm512_maskz_loadu_epi32(m, t + 6 * n), e->rbias = _mm512_maskz_loadu_epi32(m, t + 7 * n);
    if (x->vec == 3) { /* FP32 */
      e->fscale = _mm512_castsi512_ps(_mm512_maskz_loadu_epi32(m, t));
      e->flo = _mm512_castsi512_ps(_mm512_maskz_loadu_epi32(m, t + n)); /* the float bounds (lane table rows 1, 2) */
      e->fhi = _mm512_castsi512_ps(_mm512_maskz_loadu_epi32(m, t + 2 * n));
    } else { /* from the table's multiplier, rs and mask = 2^rs - 1 (half = (mask + 1) / 2: 0 when rs = 0) */
      const __m512i low32 = _mm512_set1_epi64(0xFFFFFFFF), r30 = _mm512_set1_epi64((int64_t)1 << 30), s31 = _mm512_set1_epi64(31);
      __m512i rs = _mm512_maskz_loadu_epi32(m, t + n);
      __m512i half = _mm512_srli_epi32(_mm512_add_epi32(_mm512_maskz_loadu_epi32(m, t + 2 * n), _mm512_set1_epi32(1)), 1);
      e->m32 = _mm512_maskz_loadu_epi32(m, t), e->mo32 = _mm512_srli_epi64(e->m32, 32);
      e->ke = _mm512_add_epi64(_mm512_slli_epi64(_mm512_and_si512(half, low32), 31), r30);
      e->ko = _mm512_add_epi64(_mm512_slli_epi64(_mm512_srli_epi64(half, 32), 31), r30);
      e->se = _mm512_add_epi64(_mm512_and_si512(rs, low32), s31), e->so = _mm512_add_epi64(_mm512_srli_epi64(rs, 32), s31);
      e->kre = _mm512_cmpgt_epi64_mask(e->se, s31), e->kro = _mm512_cmpgt_epi64_mask(e->so, s31);
    }
    return;
  }
  memset(v, 0, sizeof v), memset(b, 0, sizeof b);
  for (i = 0; i < 16; i++)
    if (m >> i & 1) {
      const mrtq_rq *r = &x->rq[x->nrq == 1 ? 0 : oc0 + (size_t)i];
      int32_t lo = x->lo, hi = x->hi;
      mrtq__rq_bounds(r, &lo, &hi);
      v[0][i] = r->m.mult, v[1][i] = r->m.shift > 0 ? r->m.shift : 0, v[2][i] = r->m.shift < 0 ? -r->m.shift : 0;
      v[3][i] = r->zp, v[4][i] = lo, v[5][i] = hi;
      b[i] = x->bias ? x->bias[oc0 + (size_t)i] : 0;
    }
  e->rbias = _mm512_loadu_si512(b);
  for (h = 0; h < 2; h++) {
    __m512i *dst[6] = {&e->rm[h], &e->rls[h], &e->rrs[h], &e->rzp[h], &e->rlo[h], &e->rhi[h]};
    for (f = 0; f < 6; f++) *dst[f] = _mm512_loadu_si512(&v[f][8 * h]);
  }
}

/* mrtq_rq_apply for MRTQ_Q31_DBL on eight int32 values sign-extended to 64
 * bits (half h of the lanes), exactly as mrtq_mul_q31_dbl states it: the
 * saturating left shift, SRDHM = floor((x M + 2^30) / 2^31) (which equals
 * gemmlowp's nudge-and-truncate form; only x = M = INT32_MIN exceeds int32
 * and saturates), the rounding divide by 2^rs (remainder against half - 1 +
 * [v < 0]: ties away from zero), then + zp and the clamp, all in 64 bits. */
MRTQ__FAST_HOT __m512i mrtq__fast_q31h(__m512i v, const mrtq__fast_epv *e, int h) {
  const __m512i imin = _mm512_set1_epi64(INT32_MIN), imax = _mm512_set1_epi64(INT32_MAX), one = _mm512_set1_epi64(1);
  __m512i mask, rem, thr, q;
  v = _mm512_min_epi64(_mm512_max_epi64(_mm512_sllv_epi64(v, e->rls[h]), imin), imax); /* |x| 2^30 at most: exact */
  v = _mm512_srai_epi64(_mm512_add_epi64(_mm512_mul_epi32(v, e->rm[h]), _mm512_set1_epi64((int64_t)1 << 30)), 31);
  v = _mm512_min_epi64(v, imax);
  mask = _mm512_sub_epi64(_mm512_sllv_epi64(one, e->rrs[h]), one);
  rem = _mm512_and_si512(v, mask);
  thr = _mm512_sub_epi64(_mm512_srli_epi64(mask, 1), _mm512_srai_epi64(v, 63));
  q = _mm512_srav_epi64(v, e->rrs[h]);
  q = _mm512_mask_sub_epi64(q, _mm512_cmpgt_epi64_mask(rem, thr), q, _mm512_set1_epi64(-1));
  return _mm512_min_epi64(_mm512_max_epi64(_mm512_add_epi64(q, e->rzp[h]), e->rlo[h]), e->rhi[h]);
}

/* 16 bytes of r's low bytes (lanes under m) at p, narrowed in a register
 * (vpmovdb to memory is slow on some cores: see the depthwise note in
 * docs/PERFORMANCE.md). */
MRTQ__FAST_HOT void mrtq__fast_st8(uint8_t *p, __m512i r, __mmask16 m) {
  __m128i q = _mm512_cvtepi32_epi8(r);
  if (m == 0xFFFF) _mm_storeu_si128((__m128i *)p, q);
  else _mm512_mask_storeu_epi8(p, (__mmask64)m, _mm512_castsi128_si512(q));
}

/* The same for 16 int32 lanes when every shift is <= 0 (no left shift) and
 * the bounds less the zero point fit int32 (requant.h's lane form 2), with
 * the two roundings in one: for v = SRDHM(x, M) = floor((p + 2^30) / 2^31),
 * p = x M (64-bit products of the even and the odd lanes), gemmlowp's
 * rounding divide is floor((v + half - [v < 0]) / 2^rs) for rs >= 1 (its
 * remainder test: ties away from zero) and v for rs = 0, and floor(floor(a /
 * 2^31) / 2^rs) = floor(a / 2^(31 + rs)), so q = floor((p + K - C) /
 * 2^S) with K = 2^30 + half 2^31, S = 31 + rs, C = 2^31 where rs >= 1 and
 * p < 0, else 0 (p < 0 stands for v < 0: where they differ, -2^30 <= p < 0,
 * v = 0 and both give 0). |p| <= 2^62 and K < 2^62, so p + K - C is exact
 * in int64; q is an int32 (|v| <= 2^31 - 1). Then the clamp to the bounds
 * less the zero point and + zp (exact: clamping commutes with adding zp).
 * The same integers as mrtq__avx512_q31_lanes and mrtq_rq_apply (tests:
 * test_fastconv's q8 layers; test_q31v on edge values). The constants by
 * value (mrtq__fast_ekv passes them from a local mrtq__fast_ek). */
MRTQ__FAST_HOT __m512i mrtq__fast_q31v(__m512i x, __m512i m32, __m512i mo32, __m512i ke, __m512i ko, __m512i se, __m512i so,
                                       __mmask8 kre, __mmask8 kro, __m512i lo, __m512i hi, __m512i zp) {
  const __m512i c = _mm512_set1_epi64((int64_t)1 << 31), z = _mm512_setzero_si512();
  __m512i pe = _mm512_mul_epi32(x, m32), po = _mm512_mul_epi32(_mm512_srli_epi64(x, 32), mo32);
  __m512i te = _mm512_add_epi64(pe, ke), to = _mm512_add_epi64(po, ko), q;
  te = _mm512_mask_sub_epi64(te, _mm512_mask_cmplt_epi64_mask(kre, pe, z), te, c);
  to = _mm512_mask_sub_epi64(to, _mm512_mask_cmplt_epi64_mask(kro, po, z), to, c);
  /* the odd lanes' low dwords into the odd dwords */
  q = _mm512_mask_shuffle_epi32(_mm512_srav_epi64(te, se), 0xAAAA, _mm512_srav_epi64(to, so), _MM_PERM_CCAA);
  return _mm512_add_epi32(_mm512_min_epi32(_mm512_max_epi32(q, lo), hi), zp);
}
/* The constants of one of the epilogue's common forms (mrtq__fast_rows_kind:
 * 2 and 3 mrtq_fastconv_q8's Q31 and FP32, 4..7 oneDNN's short chain) for 16
 * channels, copied out of e into a local of the loop that uses them (a
 * uint8_t store could alias e's fields, not a local's, so the compiler keeps
 * them in registers): kind 2
 * k = bias, m32, mo32, ke, ko, se, so, lo32, hi32, zp32 and the masks; kind
 * 3 k = bias, the scale, flo, fhi, zp32; kinds 4..7 k = the bias add (0
 * when absent), the scale (1 when absent), zp, lo, hi as floats. */
typedef struct mrtq__fast_ek {
  __m512i k[10];
  __mmask8 kre, kro;
} mrtq__fast_ek;

MRTQ__FAST_HOT void mrtq__fast_ek_get(int kind, const mrtq__fast_epv *e, mrtq__fast_ek *k) {
  if (kind == 2) {
    k->k[0] = e->rbias, k->k[1] = e->m32, k->k[2] = e->mo32, k->k[3] = e->ke, k->k[4] = e->ko, k->k[5] = e->se;
    k->k[6] = e->so, k->k[7] = e->lo32, k->k[8] = e->hi32, k->k[9] = e->zp32, k->kre = e->kre, k->kro = e->kro;
  } else if (kind == 3) {
    k->k[0] = e->rbias, k->k[1] = _mm512_castps_si512(e->fscale), k->k[2] = _mm512_castps_si512(e->flo);
    k->k[3] = _mm512_castps_si512(e->fhi), k->k[9] = e->zp32;
  } else {
    k->k[0] = _mm512_castps_si512(e->has_add ? e->add : _mm512_setzero_ps());
    k->k[1] = _mm512_castps_si512(e->has_scale ? e->scale : _mm512_set1_ps(1.0f));
    k->k[2] = _mm512_castps_si512(e->zp), k->k[3] = _mm512_castps_si512(e->lo), k->k[4] = _mm512_castps_si512(e->hi);
  }
}

/* One pixel's 16 outputs of such a form from its sums: int32 lanes in the
 * dst type's range. */
MRTQ__FAST_HOT __m512i mrtq__fast_ekv(int kind, const mrtq__fast_ek *k, __m512i acc) {
  if (kind == 2)
    return mrtq__fast_q31v(_mm512_add_epi32(acc, k->k[0]), k->k[1], k->k[2], k->k[3], k->k[4], k->k[5], k->k[6], k->kre,
                           k->kro, k->k[7], k->k[8], k->k[9]);
  if (kind == 3)
    return _mm512_add_epi32(mrtq__avx512_fp32_lanes(_mm512_add_epi32(acc, k->k[0]), _mm512_castsi512_ps(k->k[1]),
                                                    _mm512_castsi512_ps(k->k[2]), _mm512_castsi512_ps(k->k[3])),
                            k->k[9]);
  {
    const __m512 lo = _mm512_castsi512_ps(k->k[3]), hi = _mm512_castsi512_ps(k->k[4]);
    __m512 f = _mm512_mul_ps(_mm512_add_ps(_mm512_cvtepi32_ps(acc), _mm512_castsi512_ps(k->k[0])), _mm512_castsi512_ps(k->k[1]));
    if (kind & 1) f = _mm512_max_ps(f, _mm512_setzero_ps()); /* NaN -> 0, as the blend in mrtq__fast_epv_run */
    f = _mm512_add_ps(f, _mm512_castsi512_ps(k->k[2]));
    /* the bound taken first is the one NaN gives (mrtq__onednn_store) */
    f = kind & 2 ? _mm512_min_ps(_mm512_max_ps(f, lo), hi) : _mm512_max_ps(_mm512_min_ps(f, hi), lo);
    return _mm512_cvt_roundps_epi32(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  }
}

/* 16 outputs of mrtq_fastconv_q8 (lanes under m) at dst + at0. */
MRTQ__FAST_HOT void mrtq__fast_rq_run(const mrtq__fast_epv *e, __m512i acc, __mmask16 m, size_t at0, uint8_t *dst) {
  __m512i r;
  if (e->is_rq >= 2) { /* the 32-bit-lane forms, bias included (mrtq__fast_rows_v runs them per row) */
    mrtq__fast_ek k;
    mrtq__fast_ek_get(e->is_rq, e, &k);
    r = mrtq__fast_ekv(e->is_rq, &k, acc);
  } else {
    __m512i v = _mm512_add_epi32(acc, e->rbias); /* the true sum: no wrap (the caller's check) */
    __m512i a = mrtq__fast_q31h(_mm512_cvtepi32_epi64(_mm512_castsi512_si256(v)), e, 0);
    __m512i b = mrtq__fast_q31h(_mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(v, 1)), e, 1);
    r = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(a)), _mm512_cvtepi64_epi32(b), 1);
  }
  mrtq__fast_st8(dst + at0, r, m); /* in the type's range: its low byte */
}

MRTQ__FAST_HOT void mrtq__fast_epv_init(mrtq__fast_epv *e, const mrtq_onednn_attr *a, __mmask16 m, size_t oc0, size_t si0,
                                    const int32_t *bias, int dst_unsigned) {
  int i;
  e->is_rq = 0;
  e->dst_unsigned = dst_unsigned, e->is_new = a->scheme == MRTQ_ONEDNN_NEW, e->n_po = a->n_po, e->oscale = a->oscale;
  e->lo = _mm512_set1_ps(dst_unsigned ? 0.0f : -128.0f), e->hi = _mm512_set1_ps(dst_unsigned ? 255.0f : 127.0f);
  e->zp = a->dst_zp_ch ? _mm512_cvtepi32_ps(_mm512_maskz_loadu_epi32(m, a->dst_zp_ch + oc0)) : _mm512_set1_ps((float)a->dst_zp);
  e->scale = e->add = e->div = _mm512_setzero_ps();
  if (e->is_new) {
    __m512 ss = _mm512_set1_ps(a->src_scale ? a->src_scale[0] : 1.0f);
    __m512 ws = a->wei_scale ? mrtq__fast_ldf(a->wei_scale + (a->wei_per_oc ? oc0 : 0), a->wei_per_oc, m) : _mm512_set1_ps(1.0f);
    e->has_scale = 1, e->scale = _mm512_mul_ps(ss, ws);
    e->has_add = a->fbias != NULL;
    if (a->fbias) e->add = _mm512_maskz_loadu_ps(m, a->fbias + oc0);
    e->has_div = a->dst_scale != NULL;
    if (a->dst_scale) e->div = _mm512_set1_ps(a->dst_scale[0]);
  } else {
    e->has_add = bias != NULL, e->has_div = 0;
    if (bias) e->add = _mm512_cvtepi32_ps(_mm512_maskz_loadu_epi32(m, bias + oc0));
    e->has_scale = a->oscale != NULL;
    if (a->oscale) e->scale = mrtq__fast_ldf(a->oscale + si0, a->oscale_mask & 2, m);
  }
  for (i = 0; i < a->n_po; i++) {
    const mrtq_onednn_po *p = &a->po[i];
    e->kind[i] = p->kind, e->src1[i] = NULL;
    e->scaled[i] = p->kind >= MRTQ_ONEDNN_RELU && p->kind <= MRTQ_ONEDNN_CLIP && p->scale != 1.0f;
    e->ps[i] = _mm512_set1_ps(p->scale);
    switch (p->kind) {
      case MRTQ_ONEDNN_SUM: e->pa[i] = _mm512_set1_ps(p->scale), e->pb[i] = _mm512_set1_ps((float)p->zp); break;
      case MRTQ_ONEDNN_RELU: e->pa[i] = _mm512_set1_ps(p->alpha), e->relu0[i] = p->alpha == 0; break;
      case MRTQ_ONEDNN_LINEAR:
      case MRTQ_ONEDNN_CLIP: e->pa[i] = _mm512_set1_ps(p->alpha), e->pb[i] = _mm512_set1_ps(p->beta); break;
      default:
        e->pa[i] = _mm512_set1_ps(p->scale);
        if (p->src1_bcast == MRTQ_ONEDNN_PER_ELEM) {
          e->src1[i] = p->src1;
        } else {
          __m512 v = p->src1_bcast == MRTQ_ONEDNN_PER_OC ? _mm512_maskz_loadu_ps(m, p->src1 + oc0) : _mm512_set1_ps(p->src1[0]);
          e->pa[i] = _mm512_mul_ps(e->pa[i], v);
        }
        break;
    }
  }
}

/* The OLD scale of another pixel (a scale mask over ow, no channel bit). */
MRTQ__FAST_HOT void mrtq__fast_epv_si(mrtq__fast_epv *e, size_t si) {
  if (!e->is_new && e->has_scale) e->scale = _mm512_set1_ps(e->oscale[si]);
}

MRTQ__FAST_HOT void mrtq__fast_epv_run(const mrtq__fast_epv *e, __m512i acc, __mmask16 m, size_t at0, uint8_t *dst) {
  __m512 f = _mm512_cvtepi32_ps(acc);
  int i;
  if (e->is_rq) {
    mrtq__fast_rq_run(e, acc, m, at0, dst);
    return;
  }
  if (e->is_new) {
    f = _mm512_mul_ps(f, e->scale);
    MRTQ__FAST_ROUNDED(f);
    if (e->has_add) f = _mm512_add_ps(f, e->add);
  } else {
    if (e->has_add) f = _mm512_add_ps(f, e->add);
    if (e->has_scale) f = _mm512_mul_ps(f, e->scale);
  }
  for (i = 0; i < e->n_po; i++) {
    __m512 v;
    __mmask16 gt;
    switch (e->kind[i]) {
      case MRTQ_ONEDNN_SUM:
        v = _mm512_sub_ps(_mm512_cvtepi32_ps(mrtq__fast_ld8x16(dst + at0, m, e->dst_unsigned)), e->pb[i]);
        f = _mm512_fmadd_ps(e->pa[i], v, f);
        break;
      case MRTQ_ONEDNN_RELU: /* alpha 0: max(f, 0), NaN -> 0 (the JIT's; ref_rounding is 0 here) */
        gt = _mm512_cmp_ps_mask(f, _mm512_setzero_ps(), _CMP_GT_OQ);
        f = _mm512_mask_blend_ps(gt, e->relu0[i] ? _mm512_setzero_ps() : _mm512_mul_ps(e->pa[i], f), f);
        break;
      case MRTQ_ONEDNN_LINEAR: f = _mm512_fmadd_ps(e->pa[i], f, e->pb[i]); break;
      case MRTQ_ONEDNN_CLIP: f = _mm512_min_ps(_mm512_max_ps(f, e->pa[i]), e->pb[i]); break; /* NaN -> alpha */
      default:
        v = e->pa[i];
        if (e->src1[i]) {
          v = _mm512_mul_ps(v, _mm512_maskz_loadu_ps(m, e->src1[i] + at0));
          MRTQ__FAST_ROUNDED(v);
        }
        f = e->kind[i] == MRTQ_ONEDNN_BIN_ADD ? _mm512_add_ps(f, v) : _mm512_mul_ps(f, v);
        break;
    }
    if (e->scaled[i]) { /* the eltwise scale: a product of its own, as mrtq__onednn_tail */
      f = _mm512_mul_ps(f, e->ps[i]);
      MRTQ__FAST_ROUNDED(f);
    }
  }
  if (e->has_div) f = _mm512_div_ps(f, e->div);
  f = _mm512_add_ps(f, e->zp);
  /* the bound taken first is the one NaN gives (mrtq__onednn_store) */
  f = e->dst_unsigned ? _mm512_min_ps(_mm512_max_ps(f, e->lo), e->hi) : _mm512_max_ps(_mm512_min_ps(f, e->hi), e->lo);
  mrtq__fast_st8(dst + at0, _mm512_cvt_roundps_epi32(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), m);
}

/* Both halves for one pixel's 16 outputs. */
MRTQ__FAST_HOT void mrtq__fast_epi16(const mrtq_onednn_attr *a, __m512i acc, __mmask16 m, size_t oc0, size_t si0, size_t at0,
                                 const int32_t *bias, int dst_unsigned, uint8_t *dst) {
  mrtq__fast_epv e;
  memset(&e, 0, sizeof e);
  mrtq__fast_epv_init(&e, a, m, oc0, si0, bias, dst_unsigned);
  mrtq__fast_epv_run(&e, acc, m, at0, dst);
}

/* The micro-kernel: as the C one in fastconv.h, NR blocks of 16 channels,
 * MR pixels (a tile's last micro-tile may have fewer than six: a kernel for
 * each count, so no pixel is computed twice). */
#define MRTQ__FAST_XU8(v) _mm512_set1_epi32(v)                       /* u = the src byte */
#define MRTQ__FAST_XS8(v) _mm512_xor_si512(_mm512_set1_epi32(v), fv) /* u = the s8 byte ^ 0x80 */
#define MRTQ__FAST_ROW(r, X)                                                           \
  if (mrc > r) do {                                                                  \
    __m512i xa = X(mrtq__ld32(a##r + t));                                            \
    c##r##0 = _mm512_dpbusd_epi32(c##r##0, xa, b0);                                  \
    if (nrc > 1) c##r##1 = _mm512_dpbusd_epi32(c##r##1, xa, b1);                      \
    if (nrc > 2) c##r##2 = _mm512_dpbusd_epi32(c##r##2, xa, b2);                      \
    if (nrc > 3) c##r##3 = _mm512_dpbusd_epi32(c##r##3, xa, b3);                      \
  } while (0)
#define MRTQ__FAST_OUT(r)                                                            \
  if (mrc > r) do {                                                                \
    _mm512_storeu_si512(ct + r * 64, c##r##0);                                     \
    if (nrc > 1) _mm512_storeu_si512(ct + r * 64 + 16, c##r##1);                   \
    if (nrc > 2) _mm512_storeu_si512(ct + r * 64 + 32, c##r##2);                   \
    if (nrc > 3) _mm512_storeu_si512(ct + r * 64 + 48, c##r##3);                   \
  } while (0)
#define MRTQ__FAST_SEGS(X)                                                                                           \
  for (sg = 0; sg < A->nseg; sg++) { /* the weights run on through the segments; the rows step by ss */        \
    for (t = 0; t < seglen; t += 4) {                                                                            \
      __m512i b0 = _mm512_loadu_si512(w0 + t * 16), b1 = zero, b2 = zero, b3 = zero;                            \
      if (nrc > 1) b1 = _mm512_loadu_si512(w1 + t * 16);                                                          \
      if (nrc > 2) b2 = _mm512_loadu_si512(w2 + t * 16);                                                          \
      if (nrc > 3) b3 = _mm512_loadu_si512(w3 + t * 16);                                                          \
      MRTQ__FAST_ROW(0, X);                                                                                        \
      MRTQ__FAST_ROW(1, X);                                                                                        \
      MRTQ__FAST_ROW(2, X);                                                                                        \
      MRTQ__FAST_ROW(3, X);                                                                                        \
      MRTQ__FAST_ROW(4, X);                                                                                        \
      MRTQ__FAST_ROW(5, X);                                                                                        \
    }                                                                                                            \
    a0 += A->ss[0], a1 += A->ss[1], a2 += A->ss[2], a3 += A->ss[3], a4 += A->ss[4], a5 += A->ss[5];             \
    w0 += seglen * 16, w1 += seglen * 16, w2 += seglen * 16, w3 += seglen * 16;                                  \
  }
#define MRTQ__FAST_KERNEL(NR, MR)                                                                                    \
  MRTQ__FAST_KERNEL_API void mrtq__fast_kernel##NR##_##MR(const mrtq__fast_arows *A, const int8_t *w, size_t kp,      \
                                                          const int32_t *ws, int32_t zu, int32_t *__restrict ct) {   \
    const uint8_t *a0 = A->a[0], *a1 = A->a[1], *a2 = A->a[2], *a3 = A->a[3], *a4 = A->a[4], *a5 = A->a[5];      \
    const int8_t *w0 = w, *w1 = w + kp * 16, *w2 = w + 2 * kp * 16, *w3 = w + 3 * kp * 16;                       \
    __m512i zero = _mm512_setzero_si512(), zv = _mm512_set1_epi32(zu), fv = _mm512_set1_epi32((int)A->flip);  \
    __m512i c00 = zero, c01 = zero, c02 = zero, c03 = zero, c10 = zero, c11 = zero, c12 = zero, c13 = zero;     \
    __m512i c20 = zero, c21 = zero, c22 = zero, c23 = zero, c30 = zero, c31 = zero, c32 = zero, c33 = zero;     \
    __m512i c40 = zero, c41 = zero, c42 = zero, c43 = zero, c50 = zero, c51 = zero, c52 = zero, c53 = zero;     \
    const size_t nrc = NR, mrc = MR, seglen = A->seglen;                                                         \
    size_t t, sg;                                                                                                \
    (void)w1, (void)w2, (void)w3;                                                                                \
    /* the loop twice: with the s8 move (A->flip) and without (no vpxord for u8) */                             \
    if (A->flip) {                                                                                               \
      MRTQ__FAST_SEGS(MRTQ__FAST_XS8)                                                                            \
    } else {                                                                                                     \
      MRTQ__FAST_SEGS(MRTQ__FAST_XU8)                                                                            \
    }                                                                                                            \
    MRTQ__FAST_OUT(0);                                                                                             \
    MRTQ__FAST_OUT(1);                                                                                             \
    MRTQ__FAST_OUT(2);                                                                                             \
    MRTQ__FAST_OUT(3);                                                                                             \
    MRTQ__FAST_OUT(4);                                                                                             \
    MRTQ__FAST_OUT(5);                                                                                             \
    /* zu sum w, subtracted from the stored sums (a use of the accumulators                                      \
       after the loop makes gcc 12 copy and spill them inside it). ct is                                         \
       restrict (it is the task's own scratch): without it gcc 12 stores the                                     \
       sums twice, before and after reading ws; with it, once */                                                 \
    for (t = 0; t < nrc * 16; t += 16) {                                                                         \
      __m512i zw = _mm512_mullo_epi32(zv, _mm512_loadu_si512(ws + t));                                           \
      size_t r;                                                                                                  \
      for (r = 0; r < MR; r++) _mm512_storeu_si512(ct + r * 64 + t, _mm512_sub_epi32(_mm512_loadu_si512(ct + r * 64 + t), zw)); \
    }                                                                                                            \
  }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#endif
#define MRTQ__FAST_KERNELS(MR) \
  MRTQ__FAST_KERNEL(1, MR) MRTQ__FAST_KERNEL(2, MR) MRTQ__FAST_KERNEL(3, MR) MRTQ__FAST_KERNEL(4, MR)
MRTQ__FAST_KERNELS(1)
MRTQ__FAST_KERNELS(2)
MRTQ__FAST_KERNELS(3)
MRTQ__FAST_KERNELS(4)
MRTQ__FAST_KERNELS(5)
MRTQ__FAST_KERNELS(6)
#undef MRTQ__FAST_KERNELS

/* The micro-kernel for one pixel (an inner product of one row, a tile's
 * last pixel): the six-row kernel would repeat it in every row. Two sets of
 * accumulators take alternate groups of four taps (two dependency chains
 * per block); row 0 of ct gets their sum less zu times the weights' sum.
 * Each broadcast is XORed with flip (A's: 0 for a u8 src; one row, so one
 * loop for both). */
#define MRTQ__FAST_KERNEL1R(NR)                                                                                      \
  MRTQ__FAST_KERNEL_API void mrtq__fast_kernel1r##NR(const uint8_t *a, uint32_t flip, const int8_t *w, size_t kp,    \
                                                     const int32_t *ws, int32_t zu, int32_t *ct) {                   \
    const int8_t *w0 = w, *w1 = w + kp * 16, *w2 = w + 2 * kp * 16, *w3 = w + 3 * kp * 16;                       \
    const __m512i zero = _mm512_setzero_si512(), zv = _mm512_set1_epi32(zu), fv = _mm512_set1_epi32((int)flip); \
    __m512i p0 = zero, p1 = zero, p2 = zero, p3 = zero, q0 = zero, q1 = zero, q2 = zero, q3 = zero;             \
    const size_t nrc = NR;                                                                                       \
    size_t t = 0;                                                                                                \
    (void)w1, (void)w2, (void)w3;                                                                                \
    for (; t + 8 <= kp; t += 8) {                                                                                \
      __m512i xa = _mm512_xor_si512(_mm512_set1_epi32(mrtq__ld32(a + t)), fv);                                  \
      __m512i xb = _mm512_xor_si512(_mm512_set1_epi32(mrtq__ld32(a + t + 4)), fv);                              \
      p0 = _mm512_dpbusd_epi32(p0, xa, _mm512_loadu_si512(w0 + t * 16));                                       \
      q0 = _mm512_dpbusd_epi32(q0, xb, _mm512_loadu_si512(w0 + t * 16 + 64));                                  \
      if (nrc > 1) p1 = _mm512_dpbusd_epi32(p1, xa, _mm512_loadu_si512(w1 + t * 16));                          \
      if (nrc > 1) q1 = _mm512_dpbusd_epi32(q1, xb, _mm512_loadu_si512(w1 + t * 16 + 64));                     \
      if (nrc > 2) p2 = _mm512_dpbusd_epi32(p2, xa, _mm512_loadu_si512(w2 + t * 16));                          \
      if (nrc > 2) q2 = _mm512_dpbusd_epi32(q2, xb, _mm512_loadu_si512(w2 + t * 16 + 64));                     \
      if (nrc > 3) p3 = _mm512_dpbusd_epi32(p3, xa, _mm512_loadu_si512(w3 + t * 16));                          \
      if (nrc > 3) q3 = _mm512_dpbusd_epi32(q3, xb, _mm512_loadu_si512(w3 + t * 16 + 64));                     \
    }                                                                                                            \
    if (t < kp) { /* kp is a multiple of 4 */                                                                    \
      __m512i xa = _mm512_xor_si512(_mm512_set1_epi32(mrtq__ld32(a + t)), fv);                                   \
      p0 = _mm512_dpbusd_epi32(p0, xa, _mm512_loadu_si512(w0 + t * 16));                                       \
      if (nrc > 1) p1 = _mm512_dpbusd_epi32(p1, xa, _mm512_loadu_si512(w1 + t * 16));                          \
      if (nrc > 2) p2 = _mm512_dpbusd_epi32(p2, xa, _mm512_loadu_si512(w2 + t * 16));                          \
      if (nrc > 3) p3 = _mm512_dpbusd_epi32(p3, xa, _mm512_loadu_si512(w3 + t * 16));                          \
    }                                                                                                            \
    _mm512_storeu_si512(ct, _mm512_sub_epi32(_mm512_add_epi32(p0, q0), _mm512_mullo_epi32(zv, _mm512_loadu_si512(ws)))); \
    if (nrc > 1)                                                                                                 \
      _mm512_storeu_si512(ct + 16, _mm512_sub_epi32(_mm512_add_epi32(p1, q1), _mm512_mullo_epi32(zv, _mm512_loadu_si512(ws + 16)))); \
    if (nrc > 2)                                                                                                 \
      _mm512_storeu_si512(ct + 32, _mm512_sub_epi32(_mm512_add_epi32(p2, q2), _mm512_mullo_epi32(zv, _mm512_loadu_si512(ws + 32)))); \
    if (nrc > 3)                                                                                                 \
      _mm512_storeu_si512(ct + 48, _mm512_sub_epi32(_mm512_add_epi32(p3, q3), _mm512_mullo_epi32(zv, _mm512_loadu_si512(ws + 48)))); \
  }
MRTQ__FAST_KERNEL1R(1)
MRTQ__FAST_KERNEL1R(2)
MRTQ__FAST_KERNEL1R(3)
MRTQ__FAST_KERNEL1R(4)
#undef MRTQ__FAST_KERNEL1R

/* The 16x8 micro-kernel over the taps [t0, t1) (even, t1 - t0 <= 510):
 * vpdpwssd adds two int16 x int16 products to each 32-bit lane, x a pair of
 * src taps broadcast, w the pair of weights of each of 16 channels; the
 * chunk's sums are exact in int32 (510 2^22 < 2^31). */
#define MRTQ__FAST_ROW16(r)                                                          \
  do {                                                                               \
    __m512i xa = _mm512_set1_epi32(mrtq__ld32((const uint8_t *)(a##r + t)));         \
    c##r##0 = _mm512_dpwssd_epi32(c##r##0, xa, b0);                                  \
    if (nrc > 1) c##r##1 = _mm512_dpwssd_epi32(c##r##1, xa, b1);                      \
    if (nrc > 2) c##r##2 = _mm512_dpwssd_epi32(c##r##2, xa, b2);                      \
    if (nrc > 3) c##r##3 = _mm512_dpwssd_epi32(c##r##3, xa, b3);                      \
  } while (0)
#define MRTQ__FAST_KERNEL16(NR)                                                                                      \
  MRTQ__FAST_KERNEL_API void mrtq__fast_kernel16_##NR(const int16_t *a, size_t lda, size_t mr, const int16_t *w,      \
                                                      size_t kp, size_t t0, size_t t1, int32_t *ct) {                \
    const int16_t *a0 = a, *a1 = a + (mr > 1 ? 1 : 0) * lda, *a2 = a + (mr > 2 ? 2 : mr - 1) * lda,              \
                  *a3 = a + (mr > 3 ? 3 : mr - 1) * lda, *a4 = a + (mr > 4 ? 4 : mr - 1) * lda,                  \
                  *a5 = a + (mr > 5 ? 5 : mr - 1) * lda;                                                        \
    const int16_t *w0 = w, *w1 = w + kp * 16, *w2 = w + 2 * kp * 16, *w3 = w + 3 * kp * 16;                      \
    __m512i zero = _mm512_setzero_si512();                                                                     \
    __m512i c00 = zero, c01 = zero, c02 = zero, c03 = zero, c10 = zero, c11 = zero, c12 = zero, c13 = zero;     \
    __m512i c20 = zero, c21 = zero, c22 = zero, c23 = zero, c30 = zero, c31 = zero, c32 = zero, c33 = zero;     \
    __m512i c40 = zero, c41 = zero, c42 = zero, c43 = zero, c50 = zero, c51 = zero, c52 = zero, c53 = zero;     \
    const size_t nrc = NR, mrc = 6;                                                                              \
    size_t t;                                                                                                    \
    (void)w1, (void)w2, (void)w3;                                                                                \
    for (t = t0; t < t1; t += 2) {                                                                               \
      __m512i b0 = _mm512_loadu_si512(w0 + t * 16), b1 = zero, b2 = zero, b3 = zero;                            \
      if (nrc > 1) b1 = _mm512_loadu_si512(w1 + t * 16);                                                          \
      if (nrc > 2) b2 = _mm512_loadu_si512(w2 + t * 16);                                                          \
      if (nrc > 3) b3 = _mm512_loadu_si512(w3 + t * 16);                                                          \
      MRTQ__FAST_ROW16(0);                                                                                         \
      MRTQ__FAST_ROW16(1);                                                                                         \
      MRTQ__FAST_ROW16(2);                                                                                         \
      MRTQ__FAST_ROW16(3);                                                                                         \
      MRTQ__FAST_ROW16(4);                                                                                         \
      MRTQ__FAST_ROW16(5);                                                                                         \
    }                                                                                                            \
    MRTQ__FAST_OUT(0);                                                                                             \
    MRTQ__FAST_OUT(1);                                                                                             \
    MRTQ__FAST_OUT(2);                                                                                             \
    MRTQ__FAST_OUT(3);                                                                                             \
    MRTQ__FAST_OUT(4);                                                                                             \
    MRTQ__FAST_OUT(5);                                                                                             \
  }
MRTQ__FAST_KERNEL16(1)
MRTQ__FAST_KERNEL16(2)
MRTQ__FAST_KERNEL16(3)
MRTQ__FAST_KERNEL16(4)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#undef MRTQ__FAST_KERNEL
#undef MRTQ__FAST_KERNEL16
#undef MRTQ__FAST_ROW
#undef MRTQ__FAST_ROW16
#undef MRTQ__FAST_OUT
#undef MRTQ__FAST_SEGS
#undef MRTQ__FAST_XU8
#undef MRTQ__FAST_XS8

/* The 16x8 micro-kernel: as the C one in fastconv.h (exact int64 sums into
 * ct), the taps in chunks of at most 510 summed in int32 (into ct32), each
 * chunk's sums then added in int64. */
MRTQ__PRIV void mrtq__fast_kernel16(const int16_t *a, size_t lda, size_t mr, const int16_t *w, size_t nr, size_t kp,
                                    int32_t *ct32, int64_t *ct) {
  size_t t0, t1, r, j, n = nr * MRTQ__FAST_NB;
  for (t0 = 0; t0 < kp; t0 = t1) {
    t1 = kp - t0 > 510 ? t0 + 510 : kp;
    switch (nr) {
      case 1: mrtq__fast_kernel16_1(a, lda, mr, w, kp, t0, t1, ct32); break;
      case 2: mrtq__fast_kernel16_2(a, lda, mr, w, kp, t0, t1, ct32); break;
      case 3: mrtq__fast_kernel16_3(a, lda, mr, w, kp, t0, t1, ct32); break;
      default: mrtq__fast_kernel16_4(a, lda, mr, w, kp, t0, t1, ct32); break;
    }
    for (r = 0; r < mr; r++)
      for (j = 0; j < n; j++) ct[r * 64 + j] = (t0 ? ct[r * 64 + j] : 0) + ct32[r * 64 + j];
  }
}

MRTQ__PRIV void mrtq__fast_kernel(const mrtq__fast_arows *A, size_t mr, const int8_t *w, size_t nr, size_t kp,
                                  const int32_t *ws, int32_t zu, int32_t *ct) {
  typedef void (*kfn)(const mrtq__fast_arows *, const int8_t *, size_t, const int32_t *, int32_t, int32_t *);
#define MRTQ__FAST_KROW(MR) {mrtq__fast_kernel1_##MR, mrtq__fast_kernel2_##MR, mrtq__fast_kernel3_##MR, mrtq__fast_kernel4_##MR}
  static const kfn k[6][4] = {MRTQ__FAST_KROW(1), MRTQ__FAST_KROW(2), MRTQ__FAST_KROW(3),
                              MRTQ__FAST_KROW(4), MRTQ__FAST_KROW(5), MRTQ__FAST_KROW(6)};
#undef MRTQ__FAST_KROW
  if (mr == 1 && A->nseg == 1) { /* one contiguous row (two chains per block; a pixel read in place takes the MR = 1 kernel) */
    switch (nr) {
      case 1: mrtq__fast_kernel1r1(A->a[0], A->flip, w, kp, ws, zu, ct); break;
      case 2: mrtq__fast_kernel1r2(A->a[0], A->flip, w, kp, ws, zu, ct); break;
      case 3: mrtq__fast_kernel1r3(A->a[0], A->flip, w, kp, ws, zu, ct); break;
      default: mrtq__fast_kernel1r4(A->a[0], A->flip, w, kp, ws, zu, ct); break;
    }
    return;
  }
  k[mr - 1][nr - 1](A, w, kp, ws, zu, ct); /* 1 <= mr <= 6, 1 <= nr <= 4 */
}

/* 16 src values at p (lanes under m) widened to 32-bit lanes: zero-extended
 * for a u8 src, sign-extended for an s8 one (s8 a constant at each call, so
 * the full-vector load folds into the widening instruction). */
MRTQ__FAST_HOT __m512i mrtq__fast_dw_ld(const uint8_t *p, __mmask16 m, int s8) {
  __m128i b = m == 0xFFFF ? _mm_loadu_si128((const __m128i *)p)
                          : _mm512_castsi512_si128(_mm512_maskz_loadu_epi8((__mmask64)m, p));
  return s8 ? _mm512_cvtepi8_epi32(b) : _mm512_cvtepu8_epi32(b);
}

/* A depthwise weight lane (an int32 in [-128, 127]) as mrtq__fast_dw_dot
 * takes it: as it is for a u8 src, its low word (w, then a zero word) for s8. */
MRTQ__FAST_HOT __m512i mrtq__fast_dw_w(__m512i w, int s8) {
  return s8 ? _mm512_and_si512(w, _mm512_set1_epi32(0xFFFF)) : w;
}

/* acc + x w in each lane, x from mrtq__fast_dw_ld, w from mrtq__fast_dw_w:
 * vpdpbusd for a u8 x (bytes x, 0, 0, 0 against w's bytes: only x times w's
 * low byte, as a signed byte, is not zero), vpdpwssd for s8 (words x and
 * -[x < 0] against w and 0). */
MRTQ__FAST_HOT __m512i mrtq__fast_dw_dot(__m512i acc, __m512i x, __m512i w, int s8) {
  return s8 ? _mm512_dpwssd_epi32(acc, x, w) : _mm512_dpbusd_epi32(acc, x, w);
}

/* acc + the sum over nky x nkx taps from xp / wp (strides in bytes of x, in
 * weights) of x w, 16 channels, and the taps' weights' sum into *ws when ws
 * is not NULL. */
MRTQ__FAST_HOT __m512i mrtq__fast_dw_taps(__m512i acc, const uint8_t *xp, size_t xrow, size_t xcol, const int32_t *wp,
                                      size_t wrow, size_t wcol, size_t nky, size_t nkx, __mmask16 mk, int s8,
                                      __m512i *ws) {
  __m512i sum = _mm512_setzero_si512();
  size_t i, j;
  /* indexed, not stepped: a pointer stepped past the last tap could leave
     the src buffer, which C does not allow even unread */
  for (i = 0; i < nky; i++)
    for (j = 0; j < nkx; j++) {
      __m512i wv = _mm512_loadu_si512(wp + i * wrow + j * wcol);
      acc = mrtq__fast_dw_dot(acc, mrtq__fast_dw_ld(xp + i * xrow + j * xcol, mk, s8), mrtq__fast_dw_w(wv, s8), s8);
      if (ws) sum = _mm512_add_epi32(sum, wv);
    }
  if (ws) *ws = sum;
  return acc;
}

/* The columns ox in [*oxa, *oxb) whose taps are all inside the src row. */
MRTQ__PRIV void mrtq__fast_dw_cols(const mrtq_fastconv *p, size_t *oxa, size_t *oxb) {
  const mrtq_conv2d_shape *s = &p->s;
  size_t span = (s->kw - 1) * s->dil_w, a = (s->pad_left + s->stride_w - 1) / s->stride_w, b = 0;
  if (s->pad_left + s->w > span) b = (s->pad_left + s->w - 1 - span) / s->stride_w + 1;
  if (b > p->wo) b = p->wo;
  *oxa = a < b ? a : b, *oxb = b;
}

/* The sum of an edge column ox of a depthwise row: the taps in bounds (nky
 * rows from xr / wp, the columns found here) minus zx times their weights'
 * sum. */
MRTQ__FAST_HOT __m512i mrtq__fast_dw_edge(const mrtq_conv2d_shape *s, const uint8_t *xr, const int32_t *wp, size_t nky, size_t ox,
                                      __mmask16 mk, int s8, __m512i zx) {
  size_t kx0, kx1, cp = mrtq__fast_up(s->c, MRTQ__FAST_NB);
  __m512i ws = _mm512_setzero_si512(), acc = ws;
  mrtq__fast_krange(ox, s->stride_w, s->dil_w, s->pad_left, s->w, s->kw, &kx0, &kx1);
  if (nky && kx1 > kx0) {
    const uint8_t *xp = xr + (ox * s->stride_w + kx0 * s->dil_w - s->pad_left) * s->c;
    acc = mrtq__fast_dw_taps(acc, xp, s->dil_h * s->w * s->c, s->dil_w * s->c, wp + kx0 * cp, s->kw * cp, cp, nky,
                             kx1 - kx0, mk, s8, &ws);
  }
  return _mm512_sub_epi32(acc, _mm512_mullo_epi32(zx, ws));
}

/* The sums of columns [ob, oe) of one depthwise output row and channel block
 * into acc[ox - ob]: nky kernel rows from xr / wp (xr the first in-bounds src
 * row at column 0 and channel c0), the interior columns [oxa, oxb) from base
 * (-zx times the row's weights' sum). */
MRTQ__FAST_HOT void mrtq__fast_dw_sums(const mrtq_conv2d_shape *s, const uint8_t *xr, const int32_t *wp, size_t nky, size_t oxa,
                                   size_t oxb, size_t ob, size_t oe, __mmask16 mk, __m512i base, __m512i zx, int s8,
                                   __m512i *acc) {
  size_t cp = mrtq__fast_up(s->c, MRTQ__FAST_NB), xrow = s->dil_h * s->w * s->c, xcol = s->dil_w * s->c, ox = ob;
  for (; ox < oe && ox < oxa; ox++) acc[ox - ob] = mrtq__fast_dw_edge(s, xr, wp, nky, ox, mk, s8, zx);
  for (; ox < oe && ox < oxb; ox++)
    acc[ox - ob] = nky ? mrtq__fast_dw_taps(base, xr + (ox * s->stride_w - s->pad_left) * s->c, xrow, xcol, wp, s->kw * cp, cp,
                                            nky, s->kw, mk, s8, NULL)
                       : base;
  for (; ox < oe; ox++) acc[ox - ob] = mrtq__fast_dw_edge(s, xr, wp, nky, ox, mk, s8, zx);
}

/* One kernel row of four outputs of a 3x3 window at stride sw (1 or 2, a
 * constant at each call), 16 channels: a[j] += the taps of output column j,
 * src columns col0 + j sw + kx of the row at pr (NULL: a row outside the
 * image), weights w0..w2 (from mrtq__fast_dw_w). Each src vector is widened
 * once for every output it is a tap of (3 sw + 3 a row, against 12 for four
 * windows). With edge 0 every column is in the row and all 16 channels are
 * loaded; with edge 1 a tap outside the image reads zv (the src zero point
 * in every lane: its terms cancel against the caller's -zx sum w) and the
 * channels under mk. The weights come by value: kept in registers. */
MRTQ__FAST_HOT void mrtq__fast_dw3_row(__m512i a[4], const uint8_t *pr, ptrdiff_t col0, const mrtq_conv2d_shape *s, __m512i w0,
                                       __m512i w1, __m512i w2, size_t sw, __mmask16 mk, __m512i zv, int s8, int edge) {
  __m512i v[9];
  size_t j;
  for (j = 0; j < 3 * sw + 3; j++) {
    ptrdiff_t c = col0 + (ptrdiff_t)j;
    if (!edge) v[j] = mrtq__fast_dw_ld(pr + (size_t)c * s->c, 0xFFFF, s8);
    else v[j] = pr && c >= 0 && (size_t)c < s->w ? mrtq__fast_dw_ld(pr + (size_t)c * s->c, mk, s8) : zv;
  }
  for (j = 0; j < 4; j++)
    a[j] = mrtq__fast_dw_dot(mrtq__fast_dw_dot(mrtq__fast_dw_dot(a[j], v[j * sw], w0, s8), v[j * sw + 1], w1, s8), v[j * sw + 2],
                             w2, s8);
}

/* The sums of output row oy's columns [ob, oe) (and up to three past oe,
 * not used) of a 3x3 depthwise layer at stride_w 1 or 2, dil_w 1, into
 * acc[ox - ob], four columns a step from base = -zx times the nine weights'
 * sum (xb: the image's start at channel c0): blocks whose taps are all in
 * the image (and all 16 channels) load straight, the others through
 * mrtq__fast_dw3_row's edge form. */
MRTQ__FAST_HOT void mrtq__fast_dw3_sums(const mrtq_conv2d_shape *s, const uint8_t *xb, size_t oy, size_t ob, size_t oe,
                                        __mmask16 mk, __m512i base, __m512i zv, const __m512i w9[9], int s8, __m512i *acc) {
  const __m512i w0 = w9[0], w1 = w9[1], w2 = w9[2], w3 = w9[3], w4 = w9[4], w5 = w9[5], w6 = w9[6], w7 = w9[7], w8 = w9[8];
  const size_t sw = s->stride_w;
  const uint8_t *pr[3];
  int i, inside = mk == 0xFFFF; /* all three rows in the image, all 16 channels */
  size_t ox;
  for (i = 0; i < 3; i++) {
    ptrdiff_t r = (ptrdiff_t)(oy * s->stride_h + (size_t)i * s->dil_h) - (ptrdiff_t)s->pad_top;
    pr[i] = r >= 0 && (size_t)r < s->h ? xb + (size_t)r * s->w * s->c : NULL;
    inside = inside && pr[i];
  }
  for (ox = ob; ox < oe; ox += 4) {
    ptrdiff_t col0 = (ptrdiff_t)(ox * sw) - (ptrdiff_t)s->pad_left;
    __m512i a[4] = {base, base, base, base}; /* a local: stores to acc could alias the src loads (uint8_t) */
    if (inside && col0 >= 0 && (size_t)col0 + 3 * sw + 3 <= s->w) {
      if (sw == 1) {
        mrtq__fast_dw3_row(a, pr[0], col0, s, w0, w1, w2, 1, 0xFFFF, zv, s8, 0);
        mrtq__fast_dw3_row(a, pr[1], col0, s, w3, w4, w5, 1, 0xFFFF, zv, s8, 0);
        mrtq__fast_dw3_row(a, pr[2], col0, s, w6, w7, w8, 1, 0xFFFF, zv, s8, 0);
      } else {
        mrtq__fast_dw3_row(a, pr[0], col0, s, w0, w1, w2, 2, 0xFFFF, zv, s8, 0);
        mrtq__fast_dw3_row(a, pr[1], col0, s, w3, w4, w5, 2, 0xFFFF, zv, s8, 0);
        mrtq__fast_dw3_row(a, pr[2], col0, s, w6, w7, w8, 2, 0xFFFF, zv, s8, 0);
      }
    } else {
      mrtq__fast_dw3_row(a, pr[0], col0, s, w0, w1, w2, sw, mk, zv, s8, 1);
      mrtq__fast_dw3_row(a, pr[1], col0, s, w3, w4, w5, sw, mk, zv, s8, 1);
      mrtq__fast_dw3_row(a, pr[2], col0, s, w6, w7, w8, sw, mk, zv, s8, 1);
    }
    acc[ox - ob] = a[0], acc[ox - ob + 1] = a[1], acc[ox - ob + 2] = a[2], acc[ox - ob + 3] = a[3];
  }
}

#if defined(__AVX512VBMI__)
#define MRTQ__FAST_VBMI 1
#else
#define MRTQ__FAST_VBMI 0
#endif
#if MRTQ__FAST_VBMI
/* With AVX512-VBMI a 3x3 depthwise window takes three vpdpbusd, not nine: a
 * column vector T(col) holds, in each 32-bit lane c, the u of channel c in
 * the three kernel rows (bytes 0-2; byte 3 meets a zero weight), and the
 * weights W_kx hold w(ky = 0, 1, 2; kx) in the same bytes, so an output is
 * base + T(col) W_0 + T(col + 1) W_1 + T(col + 2) W_2 (u = x for u8, x ^ 0x80
 * for s8, zu = zx or zx + 128: the GEMM's shift). T of a column is built once
 * (the three rows' 16 bytes in a register's first three quarters, vpermb to
 * the lanes) and serves every output it is a tap of. Padding: a row or a
 * column outside the image holds zx's byte, so its u is zu and the base -zu
 * sum w cancels it. */

/* T of the column at byte offset at of rows pr[0..2] (NULL: outside the
 * image, zxb's bytes); edge 0: every row in the image, all 16 channels;
 * edge 1: the channels under mk (the others 0). */
MRTQ__FAST_HOT __m512i mrtq__fast_dwt(const uint8_t *const pr[3], size_t at, __mmask16 mk, __m128i zxb, __m512i idx, int s8,
                                      int edge) {
  __m128i r[3];
  __m512i z;
  int i;
  for (i = 0; i < 3; i++)
    r[i] = !edge ? _mm_loadu_si128((const __m128i *)(pr[i] + at))
                 : pr[i] ? _mm512_castsi512_si128(_mm512_maskz_loadu_epi8((__mmask64)mk, pr[i] + at)) : zxb;
  z = _mm512_inserti32x4(_mm512_inserti32x4(_mm512_zextsi128_si512(r[0]), r[1], 1), r[2], 2);
  z = _mm512_permutexvar_epi8(idx, z);
  return s8 ? _mm512_xor_si512(z, _mm512_set1_epi8((char)0x80)) : z;
}

/* The sums of output row oy's columns [ob, oe) (and up to three past oe, not
 * used) into acc[ox - ob], stride_w sw (1 or 2, a constant at each call),
 * dil_w 1, four columns a step from base = -zu times the nine weights' sum
 * (xb: the image's start at channel c0; zt: T of a column outside the
 * image). The 3 - sw columns two steps share are carried over. */
MRTQ__FAST_HOT void mrtq__fast_dwt_sums(const mrtq_conv2d_shape *s, const uint8_t *xb, size_t oy, size_t ob, size_t oe,
                                        __mmask16 mk, __m512i base, __m512i zt, __m128i zxb, __m512i idx, __m512i w0,
                                        __m512i w1, __m512i w2, size_t sw, int s8, __m512i *acc) {
  const size_t nc = 3 * sw + 3, keep = 3 - sw;
  const uint8_t *pr[3];
  __m512i t[9];
  int inside = mk == 0xFFFF; /* all three rows in the image, all 16 channels */
  size_t ox, j;
  for (j = 0; j < 3; j++) {
    ptrdiff_t r = (ptrdiff_t)(oy * s->stride_h + j * s->dil_h) - (ptrdiff_t)s->pad_top;
    pr[j] = r >= 0 && (size_t)r < s->h ? xb + (size_t)r * s->w * s->c : NULL;
    inside = inside && pr[j];
  }
  for (j = 0; j < keep; j++) { /* the first step's first columns: as if carried */
    ptrdiff_t c = (ptrdiff_t)(ob * sw + j) - (ptrdiff_t)s->pad_left;
    t[j] = c >= 0 && (size_t)c < s->w ? mrtq__fast_dwt(pr, (size_t)c * s->c, mk, zxb, idx, s8, 1) : zt;
  }
  for (ox = ob; ox < oe; ox += 4) {
    ptrdiff_t col0 = (ptrdiff_t)(ox * sw) - (ptrdiff_t)s->pad_left;
    if (inside && col0 >= 0 && (size_t)col0 + nc <= s->w) {
      for (j = keep; j < nc; j++) t[j] = mrtq__fast_dwt(pr, ((size_t)col0 + j) * s->c, 0xFFFF, zxb, idx, s8, 0);
    } else {
      for (j = keep; j < nc; j++) {
        ptrdiff_t c = col0 + (ptrdiff_t)j;
        t[j] = c >= 0 && (size_t)c < s->w ? mrtq__fast_dwt(pr, (size_t)c * s->c, mk, zxb, idx, s8, 1) : zt;
      }
    }
    for (j = 0; j < 4; j++)
      acc[ox - ob + j] = _mm512_dpbusd_epi32(
          _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(base, t[j * sw], w0), t[j * sw + 1], w1), t[j * sw + 2], w2);
    for (j = 0; j < keep; j++) t[j] = t[4 * sw + j];
  }
}
#endif

/* Which loop of mrtq__fast_rows_v takes e's outputs: 2 and 3 mrtq_fastconv_q8's
 * Q31 and FP32 forms, 4 + relu + 2 du oneDNN's short OLD chain (its ReLU and
 * dst type part of the kind, so the loops test neither), 0 none (the general
 * form). */
MRTQ__FAST_HOT int mrtq__fast_rows_kind(const mrtq__fast_epv *e, const mrtq_onednn_attr *a) {
  if (e->is_rq == 2 || e->is_rq == 3) return e->is_rq;
  return !e->is_rq && !e->is_new && !e->has_div && !(a->oscale_mask & 8) &&
                 (e->n_po == 0 || (e->n_po == 1 && e->kind[0] == MRTQ_ONEDNN_RELU && e->relu0[0] && !e->scaled[0]))
             ? 4 + (e->n_po ? 1 : 0) + (e->dst_unsigned ? 2 : 0)
             : 0;
}

/* The loop of one of those forms (kind, a constant where this is inlined)
 * over cnt pixels, pixel j's outputs at dst + j o. */
MRTQ__FAST_HOT void mrtq__fast_rows_v(int kind, const mrtq__fast_epv *e, const int32_t *acc, size_t lda, size_t cnt,
                                      __mmask16 mk, uint8_t *dst, size_t o) {
  mrtq__fast_ek k;
  size_t j;
  mrtq__fast_ek_get(kind, e, &k);
  for (j = 0; j < cnt; j++) mrtq__fast_st8(dst + j * o, mrtq__fast_ekv(kind, &k, _mm512_loadu_si512(acc + j * lda)), mk);
}

/* The epilogue of cnt pixels m0.. (consecutive in the output), 16 channels
 * c0.. under mk, pixel j's sums at acc + j lda (16 int32 readable there,
 * those outside mk unused), with e's constants. The common forms run a loop
 * of their own (mrtq__fast_rows_v) with the constants in registers (an output's store could
 * alias e's fields through uint8_t, so a loop over mrtq__fast_epv_run
 * reloads them, and tests its flags, per pixel): mrtq_fastconv_q8's
 * 32-bit-lane Q31 and FP32 forms, and oneDNN's OLD chain with at most a ReLU
 * of slope 0 and scale 1 (its bias add and scale multiply, absent, are + 0
 * and x 1: the same floats, as the converted sum is never -0). The rest as
 * mrtq__fast_epv_run per pixel; an OLD scale mask over ow without the channel
 * bit (depthwise only: the pixels one output row, c[0] and c[2] its n and oy)
 * sets the scale per pixel. */
MRTQ__PRIV void mrtq__fast_epv_rows(const mrtq__fast_ctx *x, mrtq__fast_epv *e, const int32_t *acc, size_t lda, size_t cnt,
                                    __mmask16 mk, size_t m0, size_t c0, size_t c[4]) {
  const mrtq_onednn_attr *a = x->a;
  size_t j, o = x->p->s.o;
  uint8_t *dst = x->dst + m0 * o + c0;
  switch (mrtq__fast_rows_kind(e, a)) {
#define MRTQ__FAST_KIND(K) \
  case K: mrtq__fast_rows_v(K, e, acc, lda, cnt, mk, dst, o); return;
    MRTQ__FAST_KIND(2) MRTQ__FAST_KIND(3) MRTQ__FAST_KIND(4) MRTQ__FAST_KIND(5) MRTQ__FAST_KIND(6) MRTQ__FAST_KIND(7)
#undef MRTQ__FAST_KIND
    default: break;
  }
  {
    int px = a && a->scheme == MRTQ_ONEDNN_OLD && (a->oscale_mask & 8) && !(a->oscale_mask & 2);
    for (j = 0; j < cnt; j++) {
      if (px) {
        c[3] = (m0 + j) % x->p->wo;
        mrtq__fast_epv_si(e, mrtq__mask_index(a->oscale_mask, 4, x->d, c));
      }
      mrtq__fast_epv_run(e, _mm512_loadu_si512(acc + j * lda), mk, (m0 + j) * o + c0, x->dst);
    }
  }
}

/* The depthwise epilogue of cnt pixels m0.. of one output row from their
 * sums acc[0 .. cnt): mrtq__fast_epv_rows, or the scalar one per output. */
MRTQ__PRIV void mrtq__fast_dw_flush(const mrtq__fast_ctx *x, mrtq__fast_epv *e, const __m512i *acc, size_t cnt, __mmask16 mk,
                                    size_t m0, size_t c0, size_t c[4]) {
  size_t j, o = x->p->s.o;
  if (x->vec) {
    mrtq__fast_epv_rows(x, e, (const int32_t *)acc, 16, cnt, mk, m0, c0, c);
    return;
  }
  for (j = 0; j < cnt; j++) {
    int32_t tmp[16];
    _mm512_storeu_si512(tmp, acc[j]);
    mrtq__fast_store_scalar(x, tmp, o - c0 < 16 ? o - c0 : 16, m0 + j, c0);
  }
}

/* The GEMM epilogue's constants kept for a task's item: every pixel's scale
 * index the same (no OLD scale mask other than the channel bit). */
MRTQ__PRIV int mrtq__fast_kept(const mrtq__fast_ctx *x) {
  const mrtq_onednn_attr *a = x->a;
  return x->vec && (!a || a->scheme == MRTQ_ONEDNN_NEW || !(a->oscale_mask & ~2));
}

/* Those constants for channels oc0 .. oc0 + count (16 a block). */
MRTQ__PRIV void mrtq__fast_ev_init(const mrtq__fast_ctx *x, mrtq__fast_epv *ev, size_t count, size_t oc0) {
  const mrtq_onednn_attr *a = x->a;
  size_t i;
  for (i = 0; i < count; i += 16) {
    size_t nn = count - i < 16 ? count - i : 16;
    __mmask16 mk = (__mmask16)((1u << nn) - 1);
    if (!a) mrtq__fast_epv_init_rq(&ev[i / 16], x, mk, oc0 + i);
    else mrtq__fast_epv_init(&ev[i / 16], a, mk, oc0 + i, a->oscale_mask & 2 ? oc0 + i : 0, x->bias, x->du);
  }
}

/* Store count (<= 64) sums of each of rows pixels m.. (rows of acc lda
 * apart), channels oc0.., with the kept constants ev: inlined in the GEMM's
 * task, the form chosen once per micro-tile, not per block and call. */
MRTQ__FAST_HOT void mrtq__fast_store_ev(const mrtq__fast_ctx *x, mrtq__fast_epv *ev, const int32_t *acc, size_t lda,
                                        size_t rows, size_t count, size_t m, size_t oc0) {
  size_t i, o = x->p->s.o, c[4] = {0, 0, 0, 0};
  uint8_t *dst = x->dst + m * o + oc0;
#define MRTQ__FAST_BLOCKS(STMT)                                                 \
  for (i = 0; i < count; i += 16) {                                             \
    __mmask16 mk = (__mmask16)((1u << (count - i < 16 ? count - i : 16)) - 1); \
    STMT;                                                                       \
  }
  int kind = mrtq__fast_rows_kind(&ev[0], x->a); /* the same for every block of a call */
  switch (kind) {
#define MRTQ__FAST_KIND(K)                                                                                     \
  case K: MRTQ__FAST_BLOCKS(mrtq__fast_rows_v(K, &ev[i / 16], acc + i, lda, rows, mk, dst + i, o)); break;
    MRTQ__FAST_KIND(2) MRTQ__FAST_KIND(3) MRTQ__FAST_KIND(4) MRTQ__FAST_KIND(5) MRTQ__FAST_KIND(6) MRTQ__FAST_KIND(7)
#undef MRTQ__FAST_KIND
    default: MRTQ__FAST_BLOCKS(mrtq__fast_epv_rows(x, &ev[i / 16], acc + i, lda, rows, mk, m, oc0 + i, c)); break;
  }
#undef MRTQ__FAST_BLOCKS
}

/* Depthwise (NHWC, one channel per group), 16 channels per vector, one
 * output row and channel block at a time, 64 columns a step: the sum of x w
 * over the in-bounds taps minus zx times the sum of their weights, modulo
 * 2^32 and exact in the end, then the epilogue of the step's columns.
 * 3x3 kernels at stride_w 1 or 2, dil_w 1 take every tap, those outside
 * the image as zx (within the src type, the operand check: the lane holding
 * zx reads as zx in vpdpbusd / vpdpwssd): mrtq__fast_dw3_sums. Otherwise
 * columns whose taps
 * are all in bounds start from -zx sum w over the row's in-bounds kernel
 * rows, kept per row and block; the others (the edges) sum their own
 * rectangle of taps. */
MRTQ__PRIV void mrtq__fast_dw(const mrtq__fast_ctx *x, const mrtq_qoperand *src, size_t first, size_t step) {
  const mrtq_fastconv *p = x->p;
  const mrtq_conv2d_shape *s = &p->s;
  const mrtq_onednn_attr *a = x->a;
  const uint8_t *xd = (const uint8_t *)src->data;
  const int s8 = src->type != MRTQ_U8;
  const int k3 = s->kh == 3 && s->kw == 3 && s->stride_w <= 2 && s->dil_w == 1;
  size_t n, oy, c0, ky, kx, ob, cp = mrtq__fast_up(s->c, MRTQ__FAST_NB), oxa, oxb, c[4], i;
  __m512i zx = _mm512_set1_epi32(src->zp), acc[64 + 3]; /* mrtq__fast_dw3_sums writes up to three past a step */
  mrtq__fast_epv e; /* set per row and block when x->vec */
#if MRTQ__FAST_VBMI
  uint8_t ix[64];
  __m512i idx;
  for (i = 0; i < 64; i++) ix[i] = (uint8_t)(16 * (i % 4) + i / 4); /* T's byte 4c + k <- row k's channel c */
  idx = _mm512_loadu_si512(ix);
#endif
  memset(&e, 0, sizeof e);
  mrtq__fast_dw_cols(p, &oxa, &oxb);
  for (n = 0; n < s->n; n++)
    for (oy = 0; oy < p->ho; oy++) {
      size_t ky0, ky1, m0 = (n * p->ho + oy) * p->wo;
      if ((n * p->ho + oy) % step != first) continue; /* output rows first, first + step, ... */
      mrtq__fast_krange(oy, s->stride_h, s->dil_h, s->pad_top, s->h, s->kh, &ky0, &ky1);
      for (c0 = 0; c0 < s->c; c0 += 16) {
        size_t nn = s->c - c0 < 16 ? s->c - c0 : 16, si;
        __mmask16 mk = (__mmask16)((1u << nn) - 1);
        const int32_t *wp = p->wdw + ky0 * s->kw * cp + c0;
        /* the first in-bounds src row's start (any row when none is) */
        const uint8_t *xr = xd + ((n * s->h + (ky1 > ky0 ? oy * s->stride_h + ky0 * s->dil_h - s->pad_top : 0)) * s->w) * s->c + c0;
        __m512i base = _mm512_setzero_si512(), w9[9];
        c[0] = n, c[1] = 0, c[2] = oy, c[3] = 0;
        for (i = 0; i < 9; i++) w9[i] = base; /* read only when k3 */
        if (x->vec && !a) {
          mrtq__fast_epv_init_rq(&e, x, mk, c0);
        } else if (x->vec) {
          si = mrtq__mask_index(a->oscale_mask, 4, x->d, c);
          mrtq__fast_epv_init(&e, a, mk, c0, si + (a->oscale_mask & 2 ? c0 : 0), x->bias, x->du);
        }
#if MRTQ__FAST_VBMI
        if (k3) { /* T columns (mrtq__fast_dwt_sums): u = x ^ 0x80 for s8, zu = zx + 128 */
          const __m512i ff = _mm512_set1_epi32(0xFF), zu = _mm512_set1_epi32(src->zp + (s8 ? 128 : 0));
          const __m512i zt = _mm512_xor_si512(_mm512_set1_epi8((char)src->zp), _mm512_set1_epi8((char)(s8 ? 0x80 : 0)));
          const __m128i zxb = _mm_set1_epi8((char)src->zp);
          __m512i wk[3];
          for (i = 0; i < 9; i++) base = _mm512_add_epi32(base, _mm512_loadu_si512(p->wdw + i * cp + c0));
          base = _mm512_sub_epi32(_mm512_setzero_si512(), _mm512_mullo_epi32(zu, base));
          for (i = 0; i < 3; i++) /* W_kx: w(0, kx), w(1, kx), w(2, kx) in bytes 0-2 */
            wk[i] = _mm512_or_si512(
                _mm512_or_si512(_mm512_and_si512(_mm512_loadu_si512(p->wdw + i * cp + c0), ff),
                                _mm512_slli_epi32(_mm512_and_si512(_mm512_loadu_si512(p->wdw + (3 + i) * cp + c0), ff), 8)),
                _mm512_slli_epi32(_mm512_and_si512(_mm512_loadu_si512(p->wdw + (6 + i) * cp + c0), ff), 16));
          for (ob = 0; ob < p->wo; ob += 64) {
            size_t oe = p->wo - ob < 64 ? p->wo : ob + 64;
            const uint8_t *xb = xd + n * s->h * s->w * s->c + c0;
            if (s->stride_w == 1 && s8) mrtq__fast_dwt_sums(s, xb, oy, ob, oe, mk, base, zt, zxb, idx, wk[0], wk[1], wk[2], 1, 1, acc);
            else if (s->stride_w == 1) mrtq__fast_dwt_sums(s, xb, oy, ob, oe, mk, base, zt, zxb, idx, wk[0], wk[1], wk[2], 1, 0, acc);
            else if (s8) mrtq__fast_dwt_sums(s, xb, oy, ob, oe, mk, base, zt, zxb, idx, wk[0], wk[1], wk[2], 2, 1, acc);
            else mrtq__fast_dwt_sums(s, xb, oy, ob, oe, mk, base, zt, zxb, idx, wk[0], wk[1], wk[2], 2, 0, acc);
            mrtq__fast_dw_flush(x, &e, acc, oe - ob, mk, m0 + ob, c0, c);
          }
          continue;
        }
#endif
        if (k3) { /* base: -zx times all nine weights */
          for (i = 0; i < 9; i++) {
            __m512i wv = _mm512_loadu_si512(p->wdw + i * cp + c0);
            base = _mm512_add_epi32(base, wv), w9[i] = mrtq__fast_dw_w(wv, s8);
          }
        } else { /* base: -zx times the in-bounds kernel rows' weights */
          for (ky = ky0; ky < ky1; ky++)
            for (kx = 0; kx < s->kw; kx++) base = _mm512_add_epi32(base, _mm512_loadu_si512(p->wdw + (ky * s->kw + kx) * cp + c0));
        }
        base = _mm512_sub_epi32(_mm512_setzero_si512(), _mm512_mullo_epi32(zx, base));
        for (ob = 0; ob < p->wo; ob += 64) {
          size_t oe = p->wo - ob < 64 ? p->wo : ob + 64;
          const uint8_t *xb = xd + n * s->h * s->w * s->c + c0;
          if (k3 && s8) mrtq__fast_dw3_sums(s, xb, oy, ob, oe, mk, base, zx, w9, 1, acc);
          else if (k3) mrtq__fast_dw3_sums(s, xb, oy, ob, oe, mk, base, zx, w9, 0, acc);
          else if (s8) mrtq__fast_dw_sums(s, xr, wp, ky1 - ky0, oxa, oxb, ob, oe, mk, base, zx, 1, acc);
          else mrtq__fast_dw_sums(s, xr, wp, ky1 - ky0, oxa, oxb, ob, oe, mk, base, zx, 0, acc);
          mrtq__fast_dw_flush(x, &e, acc, oe - ob, mk, m0 + ob, c0, c);
        }
      }
    }
}

/* The 16x8 epilogue's constants for channels oc0.. (lanes under m), in two
 * halves of eight 64-bit lanes: _acc64 (vec16 1) the bias, TFLite's 16-bit
 * multiplier rm, 2^(k-1) and k = 15 - shift, the bounds; _acc32 (vec16 2)
 * the 64-bit-lane Q31 constants of mrtq_fastconv_q8's epilogue (bounds
 * [-32768, 32767] with rq's, zero point 0) and the int32 bias; _acc32 with
 * MRTQ_Q31_RNDNU (vec16 3) the multiplier in rm, 2^(k-1) and k = 31 - shift,
 * the bounds, and the int32 bias in b32. */
typedef struct mrtq__fast_e16 {
  __m512i b[2], rm[2], rnd[2], k[2], lo[2], hi[2], b32;
  mrtq__fast_epv q;
} mrtq__fast_e16;

MRTQ__FAST_HOT void mrtq__fast_e16_init(mrtq__fast_e16 *e, const mrtq__fast_ctx *x, __mmask16 m, size_t oc0) {
  int64_t v[6][16];
  int32_t b[16] = {0};
  int i, h, f;
  const __m512i z = _mm512_setzero_si512();
  /* the other form's fields too: a compiler cannot see that run reads only the form init set */
  for (h = 0; h < 2; h++) e->b[h] = e->rm[h] = e->rnd[h] = e->k[h] = e->lo[h] = e->hi[h] = z;
  e->b32 = z;
  if (x->vec16 == 2) {
    mrtq__fast_ctx c = *x;
    c.vec = 1; /* the descriptors' 64-bit-lane form */
    mrtq__fast_epv_init_rq(&e->q, &c, m, oc0);
    return;
  }
  e->q.rbias = z;
  for (h = 0; h < 2; h++) e->q.rm[h] = e->q.rls[h] = e->q.rrs[h] = e->q.rzp[h] = e->q.rlo[h] = e->q.rhi[h] = z;
  memset(v, 0, sizeof v);
  for (i = 0; i < 16; i++)
    if (m >> i & 1) {
      const mrtq_rq *r = &x->rq[x->nrq == 1 ? 0 : oc0 + (size_t)i];
      int k = (x->vec16 == 1 ? 15 : 31) - r->m.shift; /* 8..46 (the caller's check); RNDNU 1..62 */
      int32_t lo = x->lo, hi = x->hi;
      mrtq__rq_bounds(r, &lo, &hi); /* [qmin, qmax] (within int16: the caller's check) */
      v[0][i] = x->vec16 == 1 ? (x->bias64 ? x->bias64[oc0 + (size_t)i] : 0) : 0;
      v[1][i] = x->vec16 == 3 ? r->m.mult /* as mrtq__s16_x64_wrap: */
                : r->m.mult < 0x7FFF0000 ? ((int64_t)r->m.mult + 32768) / 65536 : 32767;
      v[2][i] = (int64_t)1 << (k - 1), v[3][i] = k, v[4][i] = lo, v[5][i] = hi;
      b[i] = x->vec16 == 3 && x->bias ? x->bias[oc0 + (size_t)i] : 0;
    }
  e->b32 = _mm512_loadu_si512(b);
  for (h = 0; h < 2; h++) {
    __m512i *dst[6] = {&e->b[h], &e->rm[h], &e->rnd[h], &e->k[h], &e->lo[h], &e->hi[h]};
    for (f = 0; f < 6; f++) *dst[f] = _mm512_loadu_si512(&v[f][8 * h]);
  }
}

/* 16 outputs (lanes under m) from their exact sums lo (lanes 0-7) and hi
 * (8-15), stored at out + at0: _acc64 clamp(wrap32((S rm + 2^(k-1)) >> k))
 * (vpmullq exact: |S| < 2^47, rm < 2^15; vpmovqd the wrap), _acc32
 * mrtq_rq_apply of wrap32(S) + bias (vpmovqd, then an int32 add). */
MRTQ__FAST_HOT void mrtq__fast_e16_run(const mrtq__fast_e16 *e, int vec16, __m512i lo, __m512i hi, __mmask16 m,
                                       int16_t *out, size_t at0) {
  __m512i r;
  __m256i q;
  if (vec16 == 1) { /* two halves written out: an array of them went through memory (gcc 12) */
    __m512i a = _mm512_mullo_epi64(_mm512_add_epi64(lo, e->b[0]), e->rm[0]);
    __m512i b = _mm512_mullo_epi64(_mm512_add_epi64(hi, e->b[1]), e->rm[1]);
    a = _mm512_srav_epi64(_mm512_add_epi64(a, e->rnd[0]), e->k[0]);
    b = _mm512_srav_epi64(_mm512_add_epi64(b, e->rnd[1]), e->k[1]);
    a = _mm512_min_epi64(_mm512_max_epi64(_mm512_cvtepi32_epi64(_mm512_cvtepi64_epi32(a)), e->lo[0]), e->hi[0]);
    b = _mm512_min_epi64(_mm512_max_epi64(_mm512_cvtepi32_epi64(_mm512_cvtepi64_epi32(b)), e->lo[1]), e->hi[1]);
    r = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(a)), _mm512_cvtepi64_epi32(b), 1);
  } else if (vec16 == 3) { /* wrap32(S + bias), then floor((x mult + 2^(k-1)) / 2^k) exact in int64 (|x mult| <= 2^62,
                              2^(k-1) <= 2^61), then the clamp (inside int16: saturating to int32 first changes nothing) */
    __m512i v = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(lo)), _mm512_cvtepi64_epi32(hi), 1);
    __m512i a, b;
    v = _mm512_add_epi32(v, e->b32);
    a = _mm512_mul_epi32(_mm512_cvtepi32_epi64(_mm512_castsi512_si256(v)), e->rm[0]);
    b = _mm512_mul_epi32(_mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(v, 1)), e->rm[1]);
    a = _mm512_srav_epi64(_mm512_add_epi64(a, e->rnd[0]), e->k[0]);
    b = _mm512_srav_epi64(_mm512_add_epi64(b, e->rnd[1]), e->k[1]);
    a = _mm512_min_epi64(_mm512_max_epi64(a, e->lo[0]), e->hi[0]);
    b = _mm512_min_epi64(_mm512_max_epi64(b, e->lo[1]), e->hi[1]);
    r = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(a)), _mm512_cvtepi64_epi32(b), 1);
  } else {
    __m512i v = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(lo)), _mm512_cvtepi64_epi32(hi), 1);
    v = _mm512_add_epi32(v, e->q.rbias); /* wrap32(S + bias): TFLite's int32 accumulator */
    r = _mm512_inserti64x4(
        _mm512_castsi256_si512(_mm512_cvtepi64_epi32(mrtq__fast_q31h(_mm512_cvtepi32_epi64(_mm512_castsi512_si256(v)), &e->q, 0))),
        _mm512_cvtepi64_epi32(mrtq__fast_q31h(_mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(v, 1)), &e->q, 1)), 1);
  }
  q = _mm512_cvtepi32_epi16(r); /* in int16 (clamped): the low halves */
  if (m == 0xFFFF) _mm256_storeu_si256((__m256i *)(void *)(out + at0), q);
  else _mm512_mask_storeu_epi16(out + at0, (__mmask32)m, _mm512_castsi256_si512(q));
}

/* The 16x8 epilogue of count outputs of each of rows pixels m.. (int64 sums
 * lda apart), channels oc0..: 16 at a time when x->vec16, else the scalar
 * statements. */
MRTQ__PRIV void mrtq__fast_store16(const mrtq__fast_ctx *x, const int64_t *acc, size_t lda, size_t rows, size_t count,
                                   size_t m, size_t oc0) {
  size_t i, r, o = x->p->s.o;
  mrtq__fast_e16 e;
  if (!x->vec16) {
    mrtq__fast_store16_scalar(x, acc, lda, rows, count, m, oc0);
    return;
  }
  for (i = 0; i < count; i += 16) {
    size_t nn = count - i < 16 ? count - i : 16;
    __mmask16 mk = (__mmask16)((1u << nn) - 1);
    mrtq__fast_e16_init(&e, x, mk, oc0 + i);
    for (r = 0; r < rows; r++) {
      const int64_t *a = acc + r * lda + i;
      mrtq__fast_e16_run(&e, x->vec16, _mm512_maskz_loadu_epi64((__mmask8)mk, a),
                         _mm512_maskz_loadu_epi64((__mmask8)(mk >> 8), a + 8), mk, x->out16, (m + r) * o + oc0 + i);
    }
  }
}

/* 16x8 depthwise (NHWC, one channel per group), 16 channels per vector, one
 * output row at a time: per output the in-bounds taps' x w, x zero-extended
 * into the low half of each 32-bit lane (the high half 0) and the int32
 * weight's low half its int16 value, so vpdpwssd adds x w + 0; exact in
 * int32 over at most 510 taps, then added into two int64 halves; then the
 * 16x8 epilogue. */
MRTQ__PRIV void mrtq__fast_dw16(const mrtq__fast_ctx *x, const mrtq_qoperand *src, size_t first, size_t step) {
  const mrtq_fastconv *p = x->p;
  const mrtq_conv2d_shape *s = &p->s;
  const uint8_t *xd = (const uint8_t *)src->data; /* any alignment: bytes */
  /* the shape in locals: the stores below may alias *p as far as the compiler knows */
  const size_t C = s->c, O = s->o, W = s->w, H = s->h, KW = s->kw, SW = s->stride_w, DW = s->dil_w, PL = s->pad_left;
  const size_t ho = p->ho, wo = p->wo, cp = mrtq__fast_up(C, MRTQ__FAST_NB), xrow = 2 * s->dil_h * W * C, xcol = 2 * DW * C;
  const int32_t *wdw = p->wdw;
  int16_t *out = x->out16;
  const int vec16 = x->vec16;
  size_t n, oy, ox, c0, ky, kx;
  int64_t tmp[16];
  mrtq__fast_e16 e; /* set per row and block when vec16 */
  memset(&e, 0, sizeof e);
  for (n = 0; n < s->n; n++)
    for (oy = 0; oy < ho; oy++) {
      size_t ky0, ky1, m0 = (n * ho + oy) * wo;
      if ((n * ho + oy) % step != first) continue; /* output rows first, first + step, ... */
      mrtq__fast_krange(oy, s->stride_h, s->dil_h, s->pad_top, H, s->kh, &ky0, &ky1);
      for (c0 = 0; c0 < C; c0 += 16) {
        size_t nn = C - c0 < 16 ? C - c0 : 16;
        __mmask16 mk = (__mmask16)((1u << nn) - 1);
        /* the first in-bounds src row at channel c0 (any row when none is) */
        const uint8_t *xr = xd + 2 * ((n * H + (ky1 > ky0 ? oy * s->stride_h + ky0 * s->dil_h - s->pad_top : 0)) * W * C + c0);
        if (vec16) mrtq__fast_e16_init(&e, x, mk, c0); /* once per row and block */
        for (ox = 0; ox < wo; ox++) {
          size_t kx0, kx1, taps = 0;
          __m512i acc = _mm512_setzero_si512(), lo = acc, hi = acc;
          mrtq__fast_krange(ox, SW, DW, PL, W, KW, &kx0, &kx1);
          if (kx1 > kx0) {
            const uint8_t *xp = xr + 2 * (ox * SW + kx0 * DW - PL) * C;
            for (ky = ky0; ky < ky1; ky++) {
              const int32_t *wp = wdw + (ky * KW + kx0) * cp + c0;
              const uint8_t *xq = xp + (ky - ky0) * xrow;
              size_t nkx = kx1 - kx0, end;
              for (kx = 0; kx < nkx;) { /* taps < 510 here */
                end = nkx - kx <= 510 - taps ? nkx : kx + (510 - taps);
                taps += end - kx;
                for (; kx < end; kx++) {
                  __m512i xv =
                      _mm512_cvtepu16_epi32(_mm512_castsi512_si256(_mm512_maskz_loadu_epi16((__mmask32)mk, xq + kx * xcol)));
                  acc = _mm512_dpwssd_epi32(acc, xv, _mm512_loadu_si512(wp + kx * cp));
                }
                if (taps == 510) { /* the int32 chunk is full: into int64 */
                  lo = _mm512_add_epi64(lo, _mm512_cvtepi32_epi64(_mm512_castsi512_si256(acc)));
                  hi = _mm512_add_epi64(hi, _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(acc, 1)));
                  acc = _mm512_setzero_si512(), taps = 0;
                }
              }
            }
          }
          lo = _mm512_add_epi64(lo, _mm512_cvtepi32_epi64(_mm512_castsi512_si256(acc)));
          hi = _mm512_add_epi64(hi, _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(acc, 1)));
          if (vec16) {
            mrtq__fast_e16_run(&e, vec16, lo, hi, mk, out, (m0 + ox) * O + c0);
          } else {
            _mm512_storeu_si512(tmp, lo), _mm512_storeu_si512(tmp + 8, hi);
            mrtq__fast_store16_scalar(x, tmp, 0, 1, nn, m0 + ox, c0);
          }
        }
      }
    }
}

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_FASTCONV_AVX512VNNI_H */
