/* mrtq/conv.h -- reference quantized 2-D convolution and fully connected
 * layers in the seed formalization's expansion form:
 *   sum (X - zx)(W - zw) = sum X W - zx sum W - zw sum X + K zx zw
 * with every term checked against int32 before the kernel runs
 * (MRTQ_EOVERFLOW instead of overflowing). Output: the int32 tensor (the
 * expansion scale is s_x * s_w) or 8-bit values through any requantization
 * family, per tensor or per output channel. Also batched matrix
 * multiplication (mrtq_matmul_*), the same expansion over k. */
#ifndef MRTQ_CONV_H
#define MRTQ_CONV_H

#include "requant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Activations NCHW with weights OIHW ([o][c/groups][kh][kw]), or NHWC with
 * weights OHWI ([o][kh][kw][c/groups]); the output follows the input. */
enum { MRTQ_CONV_NCHW = 0, MRTQ_CONV_NHWC = 1 };

/* A quantized operand: int8 or uint8 data and its zero point(s). zp_ch
 * (weights only, or NULL): one zero point per output channel; an activation
 * (src, matmul A) with zp_ch set is refused (MRTQ_EINVAL). */
typedef struct mrtq_qoperand {
  const void *data;
  int is_unsigned;
  int32_t zp;
  const int32_t *zp_ch;
} mrtq_qoperand;

typedef struct mrtq_conv2d_shape {
  size_t n, c, h, w;        /* input */
  size_t o, kh, kw;         /* output channels, kernel */
  size_t stride_h, stride_w, dil_h, dil_w;
  size_t pad_top, pad_left, pad_bottom, pad_right; /* rows above / below, columns left / right */
  size_t groups;            /* 1: dense; c: depthwise (with o a multiple of c) */
  int layout;               /* MRTQ_CONV_NCHW or MRTQ_CONV_NHWC */
} mrtq_conv2d_shape;

/* Output height and width: (h + pad_top + pad_bottom - (kh - 1) dil_h - 1) /
 * stride_h + 1 (floor), likewise for w. Padding holds real zeros (the zero
 * point); the four sides are independent (TFLite's SAME padding puts the odd
 * row or column at the bottom / right). Errors: NULL or unknown
 * layout -> MRTQ_EINVAL; a zero dimension, stride, dilation or group count,
 * c or o not a multiple of groups, a dilated kernel larger than the padded
 * input, sizes overflowing size_t -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_conv2d_out(const mrtq_conv2d_shape *s, size_t *ho, size_t *wo) {
  size_t hp, wp, ekh, ekw;
  if (!s || !ho || !wo || (s->layout != MRTQ_CONV_NCHW && s->layout != MRTQ_CONV_NHWC)) return MRTQ_EINVAL;
  if (!s->n || !s->c || !s->h || !s->w || !s->o || !s->kh || !s->kw || !s->stride_h || !s->stride_w || !s->dil_h ||
      !s->dil_w || !s->groups || s->c % s->groups || s->o % s->groups)
    return MRTQ_ESHAPE;
  if (s->h > SIZE_MAX / 8 || s->w > SIZE_MAX / 8 || s->pad_top > SIZE_MAX / 8 || s->pad_bottom > SIZE_MAX / 8 ||
      s->pad_left > SIZE_MAX / 8 || s->pad_right > SIZE_MAX / 8 ||
      s->kh > SIZE_MAX / 8 / s->dil_h || s->kw > SIZE_MAX / 8 / s->dil_w)
    return MRTQ_ESHAPE;
  hp = s->h + s->pad_top + s->pad_bottom, wp = s->w + s->pad_left + s->pad_right;
  ekh = (s->kh - 1) * s->dil_h + 1, ekw = (s->kw - 1) * s->dil_w + 1;
  if (ekh > hp || ekw > wp) return MRTQ_ESHAPE;
  *ho = (hp - ekh) / s->stride_h + 1, *wo = (wp - ekw) / s->stride_w + 1;
  /* every tensor's element count must fit size_t */
  if (s->n > SIZE_MAX / s->c || s->n * s->c > SIZE_MAX / s->h || s->n * s->c * s->h > SIZE_MAX / s->w ||
      s->n > SIZE_MAX / s->o || s->n * s->o > SIZE_MAX / *ho || s->n * s->o * *ho > SIZE_MAX / *wo ||
      s->o > SIZE_MAX / s->kh || s->o * s->kh > SIZE_MAX / s->kw || s->o * s->kh * s->kw > SIZE_MAX / (s->c / s->groups))
    return MRTQ_ESHAPE;
  return MRTQ_OK;
}

MRTQ_API int32_t mrtq__q8(const void *p, size_t at, int is_unsigned) {
  return is_unsigned ? (int32_t)((const uint8_t *)p)[at] : (int32_t)((const int8_t *)p)[at];
}

/* Zero points within their types and the expansion's worst case within
 * int32: for a reduction of length k, |sum XW| + |zx sum W| + |zw sum X| +
 * |k zx zw| + |bias| < 2^31 bounds every partial sum and the result. nw zero
 * points (w->zp_ch, or w->zp when zp_ch is NULL) and nb bias values (bias may
 * be NULL). */
MRTQ_API mrtq_status mrtq__dot_check(uint64_t k, const mrtq_qoperand *x, const mrtq_qoperand *w, size_t nw,
                                     const int32_t *bias, size_t nb) {
  uint64_t mx, mw, zx, zw = 0, b = 0, total;
  size_t o;
  if (!x || !w || !x->data || !w->data || x->zp_ch) return MRTQ_EINVAL; /* zp_ch: weights only */
  if (!mrtq__in_q8(x->zp, x->is_unsigned)) return MRTQ_EINVAL;
  for (o = 0; o < (w->zp_ch ? nw : 1); o++) {
    int32_t z = w->zp_ch ? w->zp_ch[o] : w->zp;
    if (!mrtq__in_q8(z, w->is_unsigned)) return MRTQ_EINVAL;
    if ((uint64_t)(z < 0 ? -z : z) > zw) zw = (uint64_t)(z < 0 ? -z : z);
  }
  if (bias)
    for (o = 0; o < nb; o++) {
      uint64_t v = bias[o] < 0 ? (uint64_t)0 - (uint64_t)(int64_t)bias[o] : (uint64_t)bias[o];
      if (v > b) b = v;
    }
  if (k > ((uint64_t)1 << 40)) return MRTQ_EOVERFLOW;
  mx = x->is_unsigned ? 255 : 128, mw = w->is_unsigned ? 255 : 128;
  zx = (uint64_t)(x->zp < 0 ? -x->zp : x->zp);
  total = k * mx * mw + zx * k * mw + zw * k * mx + k * zx * zw + b;
  return total > (uint64_t)INT32_MAX ? MRTQ_EOVERFLOW : MRTQ_OK;
}

/* Check everything and bound the expansion's terms; *k gets the reduction
 * length (c / groups) * kh * kw. */
MRTQ_API mrtq_status mrtq__conv_check(const mrtq_conv2d_shape *s, const mrtq_qoperand *x, const mrtq_qoperand *w,
                                      const int32_t *bias, size_t *ho, size_t *wo, uint64_t *k) {
  mrtq_status st = mrtq_conv2d_out(s, ho, wo);
  if (st != MRTQ_OK) return st;
  *k = (uint64_t)(s->c / s->groups) * s->kh * s->kw;
  return mrtq__dot_check(*k, x, w, s->o, bias, s->o);
}

/* Whether padded-input position (iy, ix) is padding (outside the input). */
MRTQ_API int mrtq__conv_pad(const mrtq_conv2d_shape *s, size_t iy, size_t ix) {
  return iy < s->pad_top || iy >= s->pad_top + s->h || ix < s->pad_left || ix >= s->pad_left + s->w;
}

/* The expansion-form accumulator of one output element. */
MRTQ_API int32_t mrtq__conv_at(const mrtq_conv2d_shape *s, const mrtq_qoperand *x, const mrtq_qoperand *w,
                               const int32_t *bias, int32_t k, size_t n, size_t o, size_t oy, size_t ox, int32_t sw) {
  size_t cg = s->c / s->groups, og = s->o / s->groups, g = o / og, c, ky, kx;
  int32_t zx = x->zp, zw = w->zp_ch ? w->zp_ch[o] : w->zp, sxw = 0, sx = 0;
  int nchw = s->layout == MRTQ_CONV_NCHW;
  size_t wst = nchw ? s->kh * s->kw : 1, xst = nchw ? s->h * s->w : 1; /* steps between channels */
  for (ky = 0; ky < s->kh; ky++)
    for (kx = 0; kx < s->kw; kx++) {
      size_t iy = oy * s->stride_h + ky * s->dil_h, ix = ox * s->stride_w + kx * s->dil_w;
      /* channel c of the group: weight wa + c wst, src xa + c xst */
      size_t wa = nchw ? (o * cg * s->kh + ky) * s->kw + kx : ((o * s->kh + ky) * s->kw + kx) * cg, xa = 0;
      int pad = mrtq__conv_pad(s, iy, ix);
      if (!pad) {
        size_t yy = iy - s->pad_top, xx = ix - s->pad_left;
        xa = nchw ? ((n * s->c + g * cg) * s->h + yy) * s->w + xx : ((n * s->h + yy) * s->w + xx) * s->c + g * cg;
      }
      for (c = 0; c < cg; c++) {
        int32_t wv = mrtq__q8(w->data, wa + c * wst, w->is_unsigned);
        int32_t xv = pad ? zx /* a real zero */ : mrtq__q8(x->data, xa + c * xst, x->is_unsigned);
        sxw += xv * wv, sx += xv;
      }
    }
  return sxw - zx * sw - zw * sx + k * zx * zw + (bias ? bias[o] : 0);
}

/* The sum of output channel o's weights. */
MRTQ_API int32_t mrtq__conv_wsum(const mrtq_conv2d_shape *s, const mrtq_qoperand *w, size_t o) {
  size_t i, kk = (s->c / s->groups) * s->kh * s->kw;
  int32_t sum = 0;
  for (i = 0; i < kk; i++) sum += mrtq__q8(w->data, o * kk + i, w->is_unsigned); /* both layouts: o outermost */
  return sum;
}

MRTQ_API size_t mrtq__conv_out_at(const mrtq_conv2d_shape *s, size_t ho, size_t wo, size_t n, size_t o, size_t oy,
                                  size_t ox) {
  return s->layout == MRTQ_CONV_NCHW ? ((n * s->o + o) * ho + oy) * wo + ox : ((n * ho + oy) * wo + ox) * s->o + o;
}

/* The int32 convolution: acc = sum over the group's input channels and the
 * kernel of (X - zx)(W - zw_o) + bias[o] (bias may be NULL), n*o*ho*wo values
 * in the input's layout. Computed in the expansion form, every term within
 * int32. Errors: as mrtq_conv2d_out; NULL data, a zero point outside its
 * type -> MRTQ_EINVAL; terms that could overflow int32 -> MRTQ_EOVERFLOW.
 * Nothing is written on error. */
MRTQ_API mrtq_status mrtq_conv2d_s32(const mrtq_conv2d_shape *s, const mrtq_qoperand *x, const mrtq_qoperand *w,
                                     const int32_t *bias, int32_t *acc) {
  size_t ho, wo, n, o, oy, ox;
  uint64_t k;
  mrtq_status st = mrtq__conv_check(s, x, w, bias, &ho, &wo, &k);
  if (st != MRTQ_OK) return st;
  if (!acc) return MRTQ_EINVAL;
  for (o = 0; o < s->o; o++) {
    int32_t sw = mrtq__conv_wsum(s, w, o);
    for (n = 0; n < s->n; n++)
      for (oy = 0; oy < ho; oy++)
        for (ox = 0; ox < wo; ox++)
          acc[mrtq__conv_out_at(s, ho, wo, n, o, oy, ox)] = mrtq__conv_at(s, x, w, bias, (int32_t)k, n, o, oy, ox, sw);
  }
  return MRTQ_OK;
}

/* The requantized convolution: out = mrtq_rq_apply(rq[o] (or rq[0] when
 * nrq == 1), acc, type range) as int8, or uint8 when out_unsigned. For
 * TFLite's convention pass per-channel MRTQ_Q31_DBL descriptions of scale
 * s_x s_w[o] / s_y and an int32 bias. Errors: as mrtq_conv2d_s32; rq NULL or
 * nrq neither 1 nor o -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_conv2d_q8(const mrtq_conv2d_shape *s, const mrtq_qoperand *x, const mrtq_qoperand *w,
                                    const int32_t *bias, const mrtq_rq *rq, size_t nrq, int out_unsigned, void *out) {
  size_t ho, wo, n, o, oy, ox;
  uint64_t k;
  int32_t lo = out_unsigned ? 0 : -128, hi = out_unsigned ? 255 : 127;
  mrtq_status st = mrtq__conv_check(s, x, w, bias, &ho, &wo, &k);
  if (st != MRTQ_OK) return st;
  if (!out || !rq || (nrq != 1 && nrq != s->o)) return MRTQ_EINVAL;
  for (o = 0; o < s->o; o++) {
    int32_t sw = mrtq__conv_wsum(s, w, o);
    const mrtq_rq *r = &rq[nrq == 1 ? 0 : o];
    for (n = 0; n < s->n; n++)
      for (oy = 0; oy < ho; oy++)
        for (ox = 0; ox < wo; ox++)
          ((uint8_t *)out)[mrtq__conv_out_at(s, ho, wo, n, o, oy, ox)] =
              (uint8_t)mrtq_rq_apply(r, mrtq__conv_at(s, x, w, bias, (int32_t)k, n, o, oy, ox, sw), lo, hi);
  }
  return MRTQ_OK;
}

/* Fully connected: rows x k inputs (row-major) times o x k weights -> rows x o
 * (a 1x1 convolution of `rows` images of k channels). Same semantics and
 * errors as mrtq_conv2d_s32 / _q8. */
MRTQ_API mrtq_conv2d_shape mrtq__fc_shape(size_t rows, size_t k, size_t o) {
  mrtq_conv2d_shape s;
  memset(&s, 0, sizeof s);
  s.n = rows, s.c = k, s.h = s.w = 1, s.o = o, s.kh = s.kw = 1;
  s.stride_h = s.stride_w = s.dil_h = s.dil_w = s.groups = 1;
  s.layout = MRTQ_CONV_NCHW;
  return s;
}
MRTQ_API mrtq_status mrtq_fc_s32(size_t rows, size_t k, size_t o, const mrtq_qoperand *x, const mrtq_qoperand *w,
                                 const int32_t *bias, int32_t *acc) {
  mrtq_conv2d_shape s = mrtq__fc_shape(rows, k, o);
  return mrtq_conv2d_s32(&s, x, w, bias, acc);
}
MRTQ_API mrtq_status mrtq_fc_q8(size_t rows, size_t k, size_t o, const mrtq_qoperand *x, const mrtq_qoperand *w,
                                const int32_t *bias, const mrtq_rq *rq, size_t nrq, int out_unsigned, void *out) {
  mrtq_conv2d_shape s = mrtq__fc_shape(rows, k, o);
  return mrtq_conv2d_q8(&s, x, w, bias, rq, nrq, out_unsigned, out);
}

/* ---- Batched matrix multiplication ----
 * For each b < batch: Y[b] = (A[b] - za)(B[b] - zb) + bias, with A[b] an
 * m x k and B[b] a k x n row-major matrix, Y[b] m x n; B is one matrix
 * shared by every batch when b_shared (weights), else batch matrices.
 *   acc[b][i][j] = sum_t (A[b][i][t] - za)(B[b][t][j] - zb_j) + bias[j]
 * zb_j = b->zp_ch[j] (per column, n entries) or b->zp; bias (n entries) may
 * be NULL. Computed in the expansion form
 *   sum A B - za colsum_j(B) - zb_j rowsum_i(A) + k za zb_j + bias[j]
 * with the int32 worst case checked first (as mrtq_conv2d_s32: k |A| |B| +
 * |za| k |B| + |zb| k |A| + k |za zb| + |bias| < 2^31, else MRTQ_EOVERFLOW).
 * Errors: NULL operands, data or acc, a zero point outside its type ->
 * MRTQ_EINVAL; a zero size or element counts overflowing size_t ->
 * MRTQ_ESHAPE. Nothing is written on error. */
MRTQ_API mrtq_status mrtq__matmul_check(size_t batch, size_t m, size_t k, size_t n, const mrtq_qoperand *a,
                                        const mrtq_qoperand *b, int b_shared, const int32_t *bias) {
  size_t bb = b_shared ? 1 : batch;
  if (!batch || !m || !k || !n) return MRTQ_ESHAPE;
  if (batch > SIZE_MAX / m || batch * m > SIZE_MAX / k || batch * m > SIZE_MAX / n || bb > SIZE_MAX / k ||
      bb * k > SIZE_MAX / n)
    return MRTQ_ESHAPE;
  return mrtq__dot_check((uint64_t)k, a, b, n, bias, n);
}

/* One batch of the expansion form: int32 values into out, or requantized
 * bytes when rq is not NULL. */
MRTQ_API void mrtq__matmul_batch(size_t bi, size_t m, size_t k, size_t n, const mrtq_qoperand *a,
                                 const mrtq_qoperand *b, int b_shared, const int32_t *bias, const mrtq_rq *rq,
                                 size_t nrq, int out_unsigned, void *out) {
  size_t i, j, t, ab = bi * m * k, bb = b_shared ? 0 : bi * k * n;
  int32_t lo = out_unsigned ? 0 : -128, hi = out_unsigned ? 255 : 127, za = a->zp;
  for (j = 0; j < n; j++) {
    int32_t zb = b->zp_ch ? b->zp_ch[j] : b->zp, colsum = 0;
    for (t = 0; t < k; t++) colsum += mrtq__q8(b->data, bb + t * n + j, b->is_unsigned);
    for (i = 0; i < m; i++) {
      int32_t dot = 0, rowsum = 0, acc;
      for (t = 0; t < k; t++) {
        int32_t av = mrtq__q8(a->data, ab + i * k + t, a->is_unsigned);
        dot += av * mrtq__q8(b->data, bb + t * n + j, b->is_unsigned);
        rowsum += av;
      }
      acc = dot - za * colsum - zb * rowsum + (int32_t)k * za * zb + (bias ? bias[j] : 0);
      if (rq)
        ((uint8_t *)out)[(bi * m + i) * n + j] = (uint8_t)mrtq_rq_apply(&rq[nrq == 1 ? 0 : j], acc, lo, hi);
      else
        ((int32_t *)out)[(bi * m + i) * n + j] = acc;
    }
  }
}

/* The int32 result: batch x m x n values. Semantics and errors above. */
MRTQ_API mrtq_status mrtq_matmul_s32(size_t batch, size_t m, size_t k, size_t n, const mrtq_qoperand *a,
                                     const mrtq_qoperand *b, int b_shared, const int32_t *bias, int32_t *acc) {
  size_t bi;
  mrtq_status st = mrtq__matmul_check(batch, m, k, n, a, b, b_shared, bias);
  if (st != MRTQ_OK) return st;
  if (!acc) return MRTQ_EINVAL;
  for (bi = 0; bi < batch; bi++) mrtq__matmul_batch(bi, m, k, n, a, b, b_shared, bias, NULL, 0, 0, acc);
  return MRTQ_OK;
}

/* Requantized: out = mrtq_rq_apply(rq[j] (or rq[0] when nrq == 1), acc, type
 * range) as int8, or uint8 when out_unsigned. Errors: as mrtq_matmul_s32; rq
 * NULL or nrq neither 1 nor n -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_matmul_q8(size_t batch, size_t m, size_t k, size_t n, const mrtq_qoperand *a,
                                    const mrtq_qoperand *b, int b_shared, const int32_t *bias, const mrtq_rq *rq,
                                    size_t nrq, int out_unsigned, void *out) {
  size_t bi;
  mrtq_status st = mrtq__matmul_check(batch, m, k, n, a, b, b_shared, bias);
  if (st != MRTQ_OK) return st;
  if (!out || !rq || (nrq != 1 && nrq != n)) return MRTQ_EINVAL;
  for (bi = 0; bi < batch; bi++) mrtq__matmul_batch(bi, m, k, n, a, b, b_shared, bias, rq, nrq, out_unsigned, out);
  return MRTQ_OK;
}

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_CONV_H */
