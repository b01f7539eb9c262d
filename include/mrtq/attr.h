/* mrtq/attr.h -- oneDNN-style quantization attributes on top of the
 * reference kernels: output scales (common or per output channel), src and
 * dst zero points, an int32 bias and a chain of post-ops (sum, relu, linear,
 * clip), evaluated in float exactly as oneDNN 2.6's int8 primitives do on a
 * CPU with VNNI ("the older scheme": output_scale = src_scale * wei_scale /
 * dst_scale) and in the scale RFC's newer scheme; oneDNN's convolution,
 * inner product, binary and sum primitives. */
#ifndef MRTQ_ATTR_H
#define MRTQ_ATTR_H

#include "conv.h"
#include "eltwise.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
  MRTQ_ONEDNN_SUM = 0,     /* f = fma(scale, prev, f): the stored dst value, its zero point not subtracted */
  MRTQ_ONEDNN_RELU = 1,    /* f > 0 ? f : alpha * f (alpha 0, JIT: max(f, 0), so NaN gives 0) */
  MRTQ_ONEDNN_LINEAR = 2,  /* fma(alpha, f, beta) */
  MRTQ_ONEDNN_CLIP = 3,    /* min(max(f, alpha), beta), x86 order: NaN gives alpha; alpha > beta is refused */
  MRTQ_ONEDNN_BIN_ADD = 4, /* f + fl(scale * src1[i]) */
  MRTQ_ONEDNN_BIN_MUL = 5  /* f * fl(scale * src1[i]) */
};
#define MRTQ_ONEDNN_MAX_PO 4
/* Which element of a binary post-op's src1 an output uses. */
enum { MRTQ_ONEDNN_COMMON = 0, MRTQ_ONEDNN_PER_OC = 1, MRTQ_ONEDNN_PER_ELEM = 2 };
/* The two schemes: OLD (oneDNN 2.x: one output scale over the int32 sum plus
 * an int32 bias), NEW (the scale RFC / oneDNN 3.x: per-argument scales, an f32
 * bias added after dequantization, the dst scale divided out last). */
enum { MRTQ_ONEDNN_OLD = 0, MRTQ_ONEDNN_NEW = 1 };

/* One post-op. Binary ones read src1 (f32; one value, one per output
 * channel, or one per dst element at the dst's own offset, as src1_bcast
 * says) scaled by `scale` (1: oneDNN 2.6's unscaled binary post-op). */
typedef struct mrtq_onednn_po {
  int kind;
  float scale, alpha, beta;
  const float *src1;
  int src1_bcast;
} mrtq_onednn_po;

/* Attributes. OLD: oscale (NULL: 1) indexed by oscale_mask, a bit per
 * logical dst dimension as oneDNN's masks (convolution dst (n, oc, oh, ow):
 * 0 common, 2 per output channel; inner product (n, oc)); the int32 bias.
 * NEW: src_scale and dst_scale (NULL: 1) common, wei_scale (NULL: 1) common or
 * per output channel (wei_per_oc), the f32 bias fbias (NULL: none); the int32
 * bias argument of the kernels must be NULL. Both: src / dst zero points, a
 * post-op chain. Scales are read when the kernel runs (oneDNN's run-time
 * scales and its creation-time ones are the same values to mrtq). */
typedef struct mrtq_onednn_attr {
  const float *oscale;
  int oscale_mask;
  int32_t src_zp, dst_zp;
  int n_po;
  mrtq_onednn_po po[MRTQ_ONEDNN_MAX_PO];
  int scheme;
  const float *src_scale, *wei_scale, *dst_scale, *fbias;
  int wei_per_oc;
  int ref_rounding; /* 1: as oneDNN's reference ("ref:any") implementations: SUM and LINEAR round the
                       product first, ReLU keeps a NaN, a NaN is stored as 0; 0: as its JIT kernels: one
                       fused rounding, ReLU with alpha 0 is max(f, 0) (NaN gives 0), a NaN is stored as
                       127 (int8) or 0 (uint8) */
  /* Zero points per channel (NULL: src_zp / dst_zp for every channel; oneDNN's
     zero-point mask 1 << 1, given at run time): src_zp_ch one per input
     channel of a convolution (src_zp and the src operand's zp must then be 0);
     dst_zp_ch one per output channel (logical dst dimension 1), added in
     place of dst_zp (which must then be 0). */
  const int32_t *src_zp_ch, *dst_zp_ch;
} mrtq_onednn_attr;

/* Where one output sits: the index into the OLD output scales (from the
 * mask), its output channel, its element offset in dst. */
typedef struct mrtq_onednn_pos {
  size_t si, oc, at;
} mrtq_onednn_pos;

/* fmaf(a, b, c): a * b + c rounded once to float (ties to even), without
 * libm: the product is exact in double (24 + 24 bits); the sum's rounding
 * error is recovered exactly (two-sum), and only where the double sum is a
 * float midpoint does that error decide the direction. */
MRTQ_API float mrtq__fmaf(float a, float b, float c) {
  double p = (double)a * (double)b, s = p + (double)c, bb = s - p, err = (p - (s - bb)) + ((double)c - bb);
  float r = (float)s, nb;
  uint32_t u;
  if (err == 0 || (double)r == s || s != s) return r;
  memcpy(&u, &r, sizeof u);
  /* the float on the other side of s */
  if (((double)r < s) == !(u >> 31)) u++; else u--;
  memcpy(&nb, &u, sizeof nb);
  if (((double)r + (double)nb) * 0.5 != s) return r; /* not a midpoint: s's rounding is the sum's */
  return err > 0 ? (r > nb ? r : nb) : (r < nb ? r : nb);
}

/* x as a float value of its own: a product passed through here is rounded
 * before any addition that follows, whatever the compiler's contraction
 * setting (gcc's -ffp-contract=fast in GNU modes, clang's "on" within one
 * expression): the volatile store cannot be fused into an fma. */
MRTQ_API float mrtq__f32(float x) {
  volatile float t = x;
  return t;
}

/* RNE and saturation of f to [lo, hi] (the int8 or uint8 range), as oneDNN
 * 2.6 stores (measured): +-inf saturate; NaN gives 127 for int8 and 0 for
 * uint8 in its JIT kernels and its sum primitive (ref 0: their saturation
 * takes min(f, 127) first for int8 and max(f, 0) first for uint8, and each
 * returns the bound for NaN), and 0 in its reference implementations (ref 1:
 * NaN passes their compares and converts to the integer 0x80000000, whose low
 * byte is stored). */
MRTQ_API int32_t mrtq__onednn_store(float f, int32_t lo, int32_t hi, int ref) {
  if (f != f) return ref ? 0 : lo < 0 ? hi : lo;
  return mrtq__clamp64(mrtq__rne_f32(f), lo, hi);
}

/* Post-ops, the NEW scheme's dst scale, the dst zero point, RNE and
 * saturation to [lo, hi]: the tail every primitive shares. A NaN follows
 * oneDNN's x86 kernels through the post-ops: CLIP is max then min, each
 * returning its second operand for NaN; ReLU with alpha 0 is max(f, 0) in the
 * JIT kernels (ref_rounding 0) and f > 0 ? f : alpha * f in the reference
 * ones; the store as mrtq__onednn_store. */
MRTQ_API int32_t mrtq__onednn_tail(const mrtq_onednn_attr *a, const mrtq_onednn_pos *at, float f, int32_t prev,
                                   int32_t lo, int32_t hi) {
  int i;
  for (i = 0; i < a->n_po; i++) {
    const mrtq_onednn_po *p = &a->po[i];
    float v;
    switch (p->kind) {
      case MRTQ_ONEDNN_SUM: /* fused, as oneDNN's JIT */
        f = a->ref_rounding ? f + mrtq__f32(p->scale * (float)prev) : mrtq__fmaf(p->scale, (float)prev, f);
        break;
      case MRTQ_ONEDNN_RELU: f = f > 0 ? f : p->alpha == 0 && !a->ref_rounding ? 0.0f : p->alpha * f; break;
      case MRTQ_ONEDNN_LINEAR: f = a->ref_rounding ? mrtq__f32(p->alpha * f) + p->beta : mrtq__fmaf(p->alpha, f, p->beta); break;
      case MRTQ_ONEDNN_CLIP:
        f = f > p->alpha ? f : p->alpha;
        f = f < p->beta ? f : p->beta;
        break;
      default:
        v = mrtq__f32(p->scale * p->src1[p->src1_bcast == MRTQ_ONEDNN_PER_ELEM ? at->at : p->src1_bcast ? at->oc : 0]);
        f = p->kind == MRTQ_ONEDNN_BIN_ADD ? f + v : f * v;
        break;
    }
  }
  if (a->scheme == MRTQ_ONEDNN_NEW && a->dst_scale) f /= a->dst_scale[0];
  f += (float)(a->dst_zp_ch ? a->dst_zp_ch[at->oc] : a->dst_zp);
  return mrtq__onednn_store(f, lo, hi, a->ref_rounding);
}

/* The float epilogue of one output of a convolution or inner product: acc is
 * the exact integer sum sum (x - src_zp) w, prev the stored dst value (for
 * SUM). OLD: f = fl(acc) + fl(bias[oc]), times oscale[si]. NEW: f = fl(acc) *
 * fl(src_scale * wei_scale[oc or 0]) + fbias[oc]. Then the shared tail:
 * the post-ops in order, / dst_scale (NEW), + the dst zero point, RNE and
 * saturation to [lo, hi] (the dst type's range). A NaN (a NaN or infinite
 * scale, inf * 0, ...) goes through them as in oneDNN 2.6 on x86, measured:
 * CLIP gives alpha for it (max(f, alpha) then min(., beta)); ReLU with alpha
 * 0 gives 0 in the JIT kernels (ref_rounding 0) and keeps it in the reference
 * ones; a NaN stored is 127 for int8 and 0 for uint8 (JIT), 0 (reference). */
MRTQ_API int32_t mrtq_onednn_epilogue(const mrtq_onednn_attr *a, const mrtq_onednn_pos *at, int32_t acc,
                                      const int32_t *bias, int32_t prev, int32_t lo, int32_t hi) {
  float f = (float)acc;
  if (a->scheme == MRTQ_ONEDNN_NEW) {
    float ss = a->src_scale ? a->src_scale[0] : 1.0f, ws = a->wei_scale ? a->wei_scale[a->wei_per_oc ? at->oc : 0] : 1.0f;
    f = mrtq__f32(f * (ss * ws));
    if (a->fbias) f += a->fbias[at->oc];
  } else {
    if (bias) f += (float)bias[at->oc];
    if (a->oscale) f *= a->oscale[at->si];
  }
  return mrtq__onednn_tail(a, at, f, prev, lo, hi);
}

MRTQ_API int mrtq__onednn_attr_ok(const mrtq_onednn_attr *a, int dst_unsigned, int ndim) {
  int i;
  if (!a || a->n_po < 0 || a->n_po > MRTQ_ONEDNN_MAX_PO || (a->scheme != MRTQ_ONEDNN_OLD && a->scheme != MRTQ_ONEDNN_NEW))
    return 0;
  if (a->oscale_mask < 0 || a->oscale_mask >= (1 << ndim) || !mrtq__in_q8(a->dst_zp, dst_unsigned)) return 0;
  if (a->scheme == MRTQ_ONEDNN_NEW ? a->oscale != NULL : (a->src_scale || a->wei_scale || a->dst_scale || a->fbias))
    return 0; /* one scheme's fields set with the other's */
  for (i = 0; i < a->n_po; i++) {
    const mrtq_onednn_po *p = &a->po[i];
    if (p->kind < MRTQ_ONEDNN_SUM || p->kind > MRTQ_ONEDNN_BIN_MUL) return 0;
    if (p->kind == MRTQ_ONEDNN_CLIP && p->alpha > p->beta) return 0; /* oneDNN refuses it too */
    if (p->kind >= MRTQ_ONEDNN_BIN_ADD && (!p->src1 || p->src1_bcast < MRTQ_ONEDNN_COMMON || p->src1_bcast > MRTQ_ONEDNN_PER_ELEM))
      return 0;
  }
  return 1;
}

/* The index into a masked scale array for logical coordinates coord[ndim]
 * of dims[ndim]: the row-major offset over the dimensions whose mask bit is
 * set. */
MRTQ_API size_t mrtq__mask_index(int mask, int ndim, const size_t *dims, const size_t *coord) {
  size_t i = 0;
  int d;
  for (d = 0; d < ndim; d++)
    if (mask >> d & 1) i = i * dims[d] + coord[d];
  return i;
}

/* The per-channel zero points of a: nsrc src ones (NULL or in the src type,
 * src_zp and zx 0 beside them) and ndst dst ones (NULL or in the dst type).
 * *zmax gets the src zero point of largest magnitude (zx without them). */
MRTQ_API int mrtq__onednn_zp_ok(const mrtq_onednn_attr *a, size_t nsrc, int32_t zx, int src_unsigned, size_t ndst,
                                int dst_unsigned, int32_t *zmax) {
  size_t i;
  *zmax = zx;
  if (a->src_zp_ch) {
    if (a->src_zp || zx) return 0;
    for (i = 0; i < nsrc; i++) {
      int32_t z = a->src_zp_ch[i];
      if (!mrtq__in_q8(z, src_unsigned)) return 0;
      if ((z < 0 ? -z : z) > (*zmax < 0 ? -*zmax : *zmax)) *zmax = z;
    }
  }
  if (a->dst_zp_ch) {
    if (a->dst_zp) return 0;
    for (i = 0; i < ndst; i++)
      if (!mrtq__in_q8(a->dst_zp_ch[i], dst_unsigned)) return 0;
  }
  return 1;
}

/* The exact sum of (x - zxc[ci]) w over output (n, o, oy, ox)'s in-bounds
 * taps, a src zero point per input channel ci (weights' zero point 0). */
MRTQ_API int32_t mrtq__conv_at_zpc(const mrtq_conv2d_shape *s, const mrtq_qoperand *x, const mrtq_qoperand *w,
                                   const int32_t *zxc, size_t n, size_t o, size_t oy, size_t ox) {
  size_t cg = s->c / s->groups, g = o / (s->o / s->groups), c, ky, kx;
  int nchw = s->layout == MRTQ_CONV_NCHW;
  int32_t acc = 0;
  for (ky = 0; ky < s->kh; ky++)
    for (kx = 0; kx < s->kw; kx++) {
      size_t iy = oy * s->stride_h + ky * s->dil_h, ix = ox * s->stride_w + kx * s->dil_w, yy, xx;
      if (mrtq__conv_pad(s, iy, ix)) continue; /* x = zx there: a real zero */
      yy = iy - s->pad_top, xx = ix - s->pad_left;
      for (c = 0; c < cg; c++) {
        size_t ci = g * cg + c;
        size_t wa = nchw ? ((o * cg + c) * s->kh + ky) * s->kw + kx : ((o * s->kh + ky) * s->kw + kx) * cg + c;
        size_t xa = nchw ? ((n * s->c + ci) * s->h + yy) * s->w + xx : ((n * s->h + yy) * s->w + xx) * s->c + ci;
        acc += (mrtq__q8(x->data, xa, x->is_unsigned) - zxc[ci]) * mrtq__q8(w->data, wa, w->is_unsigned);
      }
    }
  return acc;
}

/* oneDNN's int8 convolution (weights symmetric: w->zp must be 0): out
 * (int8, or uint8 when dst_unsigned; read first when a SUM post-op is
 * present) = the epilogue of the exact sum. x->zp must equal a->src_zp (both
 * 0 with per-channel src zero points, which a->src_zp_ch then gives, s->c of
 * them). bias is the OLD scheme's int32 bias (NULL with NEW). Errors: as
 * mrtq_conv2d_s32; attributes invalid (see mrtq_onednn_attr), a weight zero
 * point, x->zp != a->src_zp, a per-channel zero point outside its type, an
 * int32 bias with NEW -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_conv2d_onednn(const mrtq_conv2d_shape *s, const mrtq_qoperand *x, const mrtq_qoperand *w,
                                        const int32_t *bias, const mrtq_onednn_attr *a, int dst_unsigned, void *dst) {
  size_t ho, wo, c[4], d[4];
  uint64_t k;
  int32_t lo = dst_unsigned ? 0 : -128, hi = dst_unsigned ? 255 : 127, zmax;
  mrtq_onednn_pos at;
  mrtq_qoperand xb;
  mrtq_status st = mrtq__conv_check(s, x, w, NULL, &ho, &wo, &k);
  if (st != MRTQ_OK) return st;
  if (!dst || !mrtq__onednn_attr_ok(a, dst_unsigned, 4) || w->zp != 0 || w->zp_ch || x->zp != a->src_zp ||
      (bias && a->scheme == MRTQ_ONEDNN_NEW) || !mrtq__onednn_zp_ok(a, s->c, x->zp, x->is_unsigned, s->o, dst_unsigned, &zmax))
    return MRTQ_EINVAL;
  xb = *x, xb.zp = zmax; /* the worst case with the largest src zero point */
  if ((st = mrtq__dot_check(k, &xb, w, s->o, NULL, 0)) != MRTQ_OK) return st;
  d[0] = s->n, d[1] = s->o, d[2] = ho, d[3] = wo;
  for (c[1] = 0; c[1] < s->o; c[1]++) {
    int32_t sw = mrtq__conv_wsum(s, w, c[1]);
    for (c[0] = 0; c[0] < s->n; c[0]++)
      for (c[2] = 0; c[2] < ho; c[2]++)
        for (c[3] = 0; c[3] < wo; c[3]++) {
          int32_t prev, acc;
          at.at = mrtq__conv_out_at(s, ho, wo, c[0], c[1], c[2], c[3]);
          at.oc = c[1], at.si = mrtq__mask_index(a->oscale_mask, 4, d, c);
          prev = mrtq__q8(dst, at.at, dst_unsigned);
          acc = a->src_zp_ch ? mrtq__conv_at_zpc(s, x, w, a->src_zp_ch, c[0], c[1], c[2], c[3])
                             : mrtq__conv_at(s, x, w, NULL, (int32_t)k, c[0], c[1], c[2], c[3], sw);
          ((uint8_t *)dst)[at.at] = (uint8_t)mrtq_onednn_epilogue(a, &at, acc, bias, prev, lo, hi);
        }
  }
  return MRTQ_OK;
}

/* oneDNN's int8 inner product: rows x k src (row-major), o x k weights, dst
 * rows x o; logical dst dimensions (n, oc) for the OLD scale mask (2: per
 * output channel). No per-channel src zero points. Otherwise as
 * mrtq_conv2d_onednn. */
MRTQ_API mrtq_status mrtq_fc_onednn(size_t rows, size_t k, size_t o, const mrtq_qoperand *x, const mrtq_qoperand *w,
                                    const int32_t *bias, const mrtq_onednn_attr *a, int dst_unsigned, void *dst) {
  mrtq_conv2d_shape s = mrtq__fc_shape(rows, k, o); /* (n, oc) are the convolution's (n, oc, 1, 1) */
  if (!a || a->oscale_mask > 3 || a->src_zp_ch) return MRTQ_EINVAL;
  return mrtq_conv2d_onednn(&s, x, w, bias, a, dst_unsigned, dst);
}

/* oneDNN's binary ADD or MUL (op MRTQ_ONEDNN_BIN_ADD / _BIN_MUL) on 8-bit
 * tensors with input scales, broadcasting b over a (NumPy rules; the dst has
 * a's shape, which must be the broadcast shape):
 *   f = fl(scale_a * (a - a->zp)) op fl(scale_b * (b - b->zp))
 * rounded once more, then the shared tail (post-ops; a binary post-op's
 * PER_OC is logical dimension 1 of dst). oneDNN 2.6 takes no zero points here
 * (a->zp = b->zp = 0 is its primitive) and no output scale: attr->oscale must
 * be NULL, attr->src_zp 0 and src_zp_ch NULL, the OLD scheme. attr->dst_zp_ch
 * (or NULL) gives a dst zero point per index of logical dimension 1 (one
 * for a 1-D dst). Errors: NULL, attributes invalid, an input's zp outside its
 * type or zp_ch set -> MRTQ_EINVAL; shapes as mrtq_bcast_init, or a broadcast
 * shape other than a's -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_binary_onednn(int op, const mrtq_qoperand *a, const size_t *shape_a, int nda, float scale_a,
                                        const mrtq_qoperand *b, const size_t *shape_b, int ndb, float scale_b,
                                        const mrtq_onednn_attr *attr, int dst_unsigned, void *dst) {
  mrtq_bcast bc;
  mrtq_onednn_pos at;
  size_t inner = 1;
  int32_t lo = dst_unsigned ? 0 : -128, hi = dst_unsigned ? 255 : 127, zmax;
  int d;
  mrtq_status st;
  if (!a || !b || !a->data || !b->data || !dst || (op != MRTQ_ONEDNN_BIN_ADD && op != MRTQ_ONEDNN_BIN_MUL)) return MRTQ_EINVAL;
  if (!mrtq__in_q8(a->zp, a->is_unsigned) || !mrtq__in_q8(b->zp, b->is_unsigned) || a->zp_ch || b->zp_ch) return MRTQ_EINVAL;
  if (!mrtq__onednn_attr_ok(attr, dst_unsigned, MRTQ_MAX_DIMS) || attr->oscale || attr->src_zp || attr->src_zp_ch ||
      attr->scheme != MRTQ_ONEDNN_OLD)
    return MRTQ_EINVAL;
  if ((st = mrtq_bcast_init(shape_a, nda, shape_b, ndb, &bc)) != MRTQ_OK) return st;
  if (bc.ndim != nda) return MRTQ_ESHAPE;
  for (d = 0; d < nda; d++)
    if (bc.out[d] != shape_a[d]) return MRTQ_ESHAPE;
  for (d = 2; d < nda; d++) inner *= shape_a[d];
  if (!mrtq__onednn_zp_ok(attr, 0, 0, 0, nda >= 2 ? shape_a[1] : 1, dst_unsigned, &zmax)) return MRTQ_EINVAL;
  at.si = 0;
  for (at.at = 0; at.at < bc.n; at.at++) {
    size_t ia, ib;
    float fa, fb;
    mrtq__bcast_at(&bc, at.at, &ia, &ib);
    fa = mrtq__f32(scale_a * (float)(mrtq__q8(a->data, ia, a->is_unsigned) - a->zp));
    fb = mrtq__f32(scale_b * (float)(mrtq__q8(b->data, ib, b->is_unsigned) - b->zp));
    at.oc = nda >= 2 ? at.at / inner % shape_a[1] : 0;
    ((uint8_t *)dst)[at.at] = (uint8_t)mrtq__onednn_tail(attr, &at, op == MRTQ_ONEDNN_BIN_ADD ? fa + fb : fa * fb,
                                                         mrtq__q8(dst, at.at, dst_unsigned), lo, hi);
  }
  return MRTQ_OK;
}

/* oneDNN's sum primitive (the scale RFC's "each input of sum"): n >= 1
 * 8-bit tensors of count elements, each with its f32 scale; dst (int8, or
 * uint8 when dst_unsigned) = RNE and saturation of
 *   f = fl(scale_0 (x_0 - zp_0)) + fl(scale_1 (x_1 - zp_1)) + ...
 * in float, left to right, every product and every addition rounded (oneDNN
 * 2.6.3's sum on int8, measured: no fused multiply-add, no 8-bit
 * intermediate). +-inf saturates; NaN gives 127 for an int8 dst and 0 for a
 * uint8 one, as that sum does (measured; so do the JIT convolution's stores).
 * oneDNN's sum takes no zero points (zp 0 is its primitive); srcs[k].zp_ch
 * must be NULL. dst may be one of the srcs (in place: each element is read
 * before it is written).
 * Per-input scales of a concatenation are mrtq_concat with an MRTQ_FP32
 * requantization per input (docs/kernels.md 7). Errors: NULL, n == 0, a zero
 * point outside its type or per channel -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_sum_onednn(size_t n, const mrtq_qoperand *srcs, const float *scales, size_t count,
                                     int dst_unsigned, void *dst) {
  size_t i, k;
  int32_t lo = dst_unsigned ? 0 : -128, hi = dst_unsigned ? 255 : 127;
  if (!srcs || !scales || !dst || n == 0) return MRTQ_EINVAL;
  for (k = 0; k < n; k++)
    if (!srcs[k].data || srcs[k].zp_ch || !mrtq__in_q8(srcs[k].zp, srcs[k].is_unsigned)) return MRTQ_EINVAL;
  for (i = 0; i < count; i++) {
    float f = 0.0f;
    for (k = 0; k < n; k++) {
      float v = mrtq__f32(scales[k] * (float)(mrtq__q8(srcs[k].data, i, srcs[k].is_unsigned) - srcs[k].zp));
      f = k ? f + v : v;
    }
    ((uint8_t *)dst)[i] = (uint8_t)mrtq__onednn_store(f, lo, hi, 0);
  }
  return MRTQ_OK;
}

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_ATTR_H */
