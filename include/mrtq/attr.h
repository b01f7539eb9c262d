/* mrtq/attr.h -- oneDNN-style quantization attributes on top of the
 * reference kernels: output scales (common or per output channel), src and
 * dst zero points, an int32 bias and a chain of post-ops (sum, relu, linear,
 * clip), evaluated in float exactly as oneDNN 2.6's int8 primitives do on a
 * CPU with VNNI ("the older scheme": output_scale = src_scale * wei_scale /
 * dst_scale). */
#ifndef MRTQ_ATTR_H
#define MRTQ_ATTR_H

#include "conv.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { MRTQ_ONEDNN_SUM = 0, MRTQ_ONEDNN_RELU = 1, MRTQ_ONEDNN_LINEAR = 2, MRTQ_ONEDNN_CLIP = 3 };
#define MRTQ_ONEDNN_MAX_PO 4

/* One post-op: SUM (f += scale * previous stored dst value), RELU (f < 0:
 * alpha * f), LINEAR (alpha * f + beta), CLIP (clamp to [alpha, beta]). */
typedef struct mrtq_onednn_po {
  int kind;
  float scale, alpha, beta;
} mrtq_onednn_po;

typedef struct mrtq_onednn_attr {
  const float *oscale; /* output scales: one, or one per output channel when per_oc */
  int per_oc;
  int32_t src_zp, dst_zp;
  int n_po;
  mrtq_onednn_po po[MRTQ_ONEDNN_MAX_PO];
} mrtq_onednn_attr;

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

/* The float epilogue of one output: acc is the exact integer sum
 * sum (x - src_zp) w; prev the stored dst value (for SUM). */
MRTQ_API int32_t mrtq_onednn_epilogue(const mrtq_onednn_attr *a, size_t oc, int32_t acc, const int32_t *bias,
                                      int32_t prev, int32_t lo, int32_t hi) {
  float f = (float)acc;
  int i;
  if (bias) f += (float)bias[oc];
  f *= a->oscale[a->per_oc ? oc : 0];
  for (i = 0; i < a->n_po; i++) {
    const mrtq_onednn_po *p = &a->po[i];
    switch (p->kind) {
      case MRTQ_ONEDNN_SUM: f = mrtq__fmaf(p->scale, (float)prev, f); break; /* fused, as oneDNN's JIT */
      case MRTQ_ONEDNN_RELU: f = f > 0 ? f : p->alpha * f; break;
      case MRTQ_ONEDNN_LINEAR: f = mrtq__fmaf(p->alpha, f, p->beta); break;
      default: f = f < p->alpha ? p->alpha : f > p->beta ? p->beta : f; break;
    }
  }
  f += (float)a->dst_zp;
  return mrtq__clamp64(mrtq__rne_f32(f), lo, hi);
}

MRTQ_API int mrtq__onednn_attr_ok(const mrtq_onednn_attr *a, int dst_unsigned) {
  int i;
  if (!a || !a->oscale || a->n_po < 0 || a->n_po > MRTQ_ONEDNN_MAX_PO) return 0;
  if (!mrtq__in_q8(a->dst_zp, dst_unsigned)) return 0;
  for (i = 0; i < a->n_po; i++)
    if (a->po[i].kind < MRTQ_ONEDNN_SUM || a->po[i].kind > MRTQ_ONEDNN_CLIP) return 0;
  return 1;
}

/* oneDNN's int8 convolution (weights symmetric: w->zp must be 0): out
 * (int8, or uint8 when dst_unsigned; read first when a SUM post-op is
 * present) = the epilogue of the exact sum. x->zp must equal a->src_zp.
 * Errors: as mrtq_conv2d_s32; attributes invalid, a weight zero point, or
 * x->zp != a->src_zp -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_conv2d_onednn(const mrtq_conv2d_shape *s, const mrtq_qoperand *x, const mrtq_qoperand *w,
                                        const int32_t *bias, const mrtq_onednn_attr *a, int dst_unsigned, void *dst) {
  size_t ho, wo, n, o, oy, ox;
  uint64_t k;
  int32_t lo = dst_unsigned ? 0 : -128, hi = dst_unsigned ? 255 : 127;
  mrtq_status st = mrtq__conv_check(s, x, w, NULL, &ho, &wo, &k);
  if (st != MRTQ_OK) return st;
  if (!dst || !mrtq__onednn_attr_ok(a, dst_unsigned) || w->zp != 0 || w->zp_ch || x->zp != a->src_zp) return MRTQ_EINVAL;
  for (o = 0; o < s->o; o++) {
    int32_t sw = mrtq__conv_wsum(s, w, o);
    for (n = 0; n < s->n; n++)
      for (oy = 0; oy < ho; oy++)
        for (ox = 0; ox < wo; ox++) {
          size_t at = mrtq__conv_out_at(s, ho, wo, n, o, oy, ox);
          int32_t prev = mrtq__q8(dst, at, dst_unsigned);
          int32_t acc = mrtq__conv_at(s, x, w, NULL, (int32_t)k, n, o, oy, ox, sw);
          ((uint8_t *)dst)[at] = (uint8_t)mrtq_onednn_epilogue(a, o, acc, bias, prev, lo, hi);
        }
  }
  return MRTQ_OK;
}

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_ATTR_H */
