/* mrtq/attr.h -- oneDNN-style quantization attributes on top of the
 * reference kernels: output scales (common or per output channel), src and
 * dst zero points, an int32 bias and a chain of post-ops (sum, relu, linear,
 * clip, binary add / mul), evaluated in float exactly as oneDNN 2.6's int8
 * primitives do on a CPU with VNNI ("the OLD scheme": output_scale =
 * src_scale * wei_scale / dst_scale) and in the scale RFC's NEW scheme;
 * oneDNN's convolution, inner product, binary and sum primitives. Bit-exact
 * with oneDNN 2.6.3 (tests/test_onednn.c compares them byte for byte).
 *
 * Operands are mrtq_qoperand (mrtq/common.h) of type MRTQ_S8 or MRTQ_U8; dsts
 * are MRTQ_S8 or MRTQ_U8 (dst_type); other types are refused with
 * MRTQ_EUNSUPPORTED. Argument order: the shape (or sizes), the attributes,
 * the inputs, the dst type, the dst. Every refusal names the argument or
 * attribute field through MRTQ_ON_ERROR and writes nothing. */
#ifndef MRTQ_ATTR_H
#define MRTQ_ATTR_H

#include "conv.h"
#include "eltwise.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* Post-op kinds. f is the value so far; each eltwise kind's result is then
 * multiplied by its `scale` (oneDNN's eltwise scale: fl(eltwise(f) * scale),
 * a separate rounding; skipped when scale is 1, which changes nothing). */
enum {
  MRTQ_ONEDNN_SUM = 0,     /* f = fma(scale, fl(prev - zp), f): prev the stored dst value, zp the post-op's own
                              (oneDNN's sum_v3; 0: dnnl_post_ops_append_sum), not the dst zero point */
  MRTQ_ONEDNN_RELU = 1,    /* f > 0 ? f : alpha * f (alpha 0, JIT: max(f, 0), so NaN gives 0); then * scale */
  MRTQ_ONEDNN_LINEAR = 2,  /* fma(alpha, f, beta) (reference: fl(alpha f) + beta); then * scale */
  MRTQ_ONEDNN_CLIP = 3,    /* min(max(f, alpha), beta), x86 order: NaN gives alpha; alpha > beta is refused; then * scale */
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

/* One post-op; the fields a kind does not read must be 0 (NULL), or the
 * attribute is refused.
 *   SUM            scale (any; 1 is oneDNN's plain sum), zp (the zero point of
 *                  dnnl_post_ops_append_sum_v3, subtracted in float from the
 *                  stored value: fl(fl(prev) - fl(zp)); 0 for oneDNN's sum)
 *   RELU           alpha (0: ReLU, else leaky), scale (nonzero)
 *   LINEAR, CLIP   alpha, beta (CLIP: alpha <= beta), scale (nonzero)
 *   BIN_ADD / _MUL src1 (f32: one value, one per output channel, or one per
 *                  dst element at the dst's own offset, as src1_bcast says),
 *                  scale (1: oneDNN 2.6's unscaled binary post-op)
 * An eltwise scale of 0 is refused: it would make the result 0 (a
 * zero-initialised post-op would silently zero the layer); 1 is unscaled. */
typedef struct mrtq_onednn_po {
  int kind;
  float scale, alpha, beta;
  const float *src1;
  int src1_bcast;
  int32_t zp; /* SUM only: the sum's zero point; 0 on every other kind */
} mrtq_onednn_po;

/* Attributes.
 *   OLD: oscale (NULL: 1) indexed by oscale_mask, a bit per logical dst
 *        dimension as oneDNN's masks (convolution dst (n, oc, oh, ow): 0
 *        common, 2 per output channel; inner product (n, oc)); oscale_mask 0
 *        without oscale. The kernels' int32 bias. src_scale, wei_scale,
 *        dst_scale, fbias NULL and wei_per_oc 0.
 *   NEW: src_scale and dst_scale (NULL: 1) common, wei_scale (NULL: 1)
 *        common or per output channel (wei_per_oc 1, only with wei_scale),
 *        the f32 bias fbias (NULL: none); oscale NULL, oscale_mask 0, and the
 *        kernels' int32 bias NULL.
 *   Both: src / dst zero points (src_zp equal to the src operand's zp), a
 *        chain of n_po <= MRTQ_ONEDNN_MAX_PO post-ops (po[n_po..] are not
 *        read), ref_rounding (below), zero points per channel (below).
 * Scales are read when the kernel runs (oneDNN's run-time scales and its
 * creation-time ones are the same values to mrtq). */
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
                       127 (int8) or 0 (uint8). Other values are refused. */
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

/* The float epilogue of one output of a convolution or inner product into
 * *out: acc is the exact integer sum of (x - src zero point) w (so
 * attr->src_zp and src_zp_ch are not read here), prev the stored dst value
 * (for SUM).
 *   OLD: f = fl(acc) + fl(bias[at->oc]) (bias may be NULL), times
 *        oscale[at->si].
 *   NEW: f = fl(acc) * fl(src_scale * wei_scale[oc or 0]) + fbias[oc].
 * Then the post-ops in order, / dst_scale (NEW), + the dst zero point,
 * rounding to nearest, ties to even, and saturation to dst_type's range. A NaN
 * (a NaN or infinite scale, inf * 0, ...) goes through them as in oneDNN 2.6
 * on x86, measured: CLIP gives alpha for it (max(f, alpha) then min(., beta));
 * ReLU with alpha 0 gives 0 in the JIT kernels (ref_rounding 0) and keeps it
 * in the reference ones; a NaN stored is 127 for int8 and 0 for uint8 (JIT), 0
 * (reference). Errors: the attribute as mrtq_conv2d_onednn checks it
 * (4 logical dst dimensions), NULL at or out, an int32 bias with NEW, a dst
 * zero point outside dst_type -> MRTQ_EINVAL; dst_type not MRTQ_S8 / MRTQ_U8
 * -> MRTQ_EUNSUPPORTED. */
MRTQ_API mrtq_status mrtq_onednn_epilogue(const mrtq_onednn_attr *attr, const mrtq_onednn_pos *at, int32_t acc,
                                          const int32_t *bias, int32_t prev, mrtq_dtype dst_type, int32_t *out);

/* oneDNN's int8 convolution: dst (read first when a SUM post-op is present)
 * = the epilogue of the exact sum of (x - src zero point) w, in s->layout.
 * The output is sized as oneDNN sizes it (mrtq_conv2d_out_onednn): a last
 * window that runs past the bottom / right padding by less than the stride
 * is computed, its missing taps read as padding.
 * Weights symmetric (w->zp 0, w->zp_ch NULL); x->zp equals attr->src_zp
 * (both 0 with per-channel src zero points, which attr->src_zp_ch then
 * gives, s->c of them); bias is the OLD scheme's int32 bias (NULL with NEW).
 * Errors: as mrtq_conv2d_s32; attributes invalid (see mrtq_onednn_attr and
 * mrtq_onednn_po: every field is checked), a weight zero point, x->zp !=
 * attr->src_zp, a per-channel zero point outside its type, an int32 bias with
 * NEW, dst NULL -> MRTQ_EINVAL; dst_type not MRTQ_S8 / MRTQ_U8, w->type
 * MRTQ_S4 (oneDNN 2.6 has no int4 weights; the TFLite-convention
 * mrtq_conv2d_q8 takes them) -> MRTQ_EUNSUPPORTED. */
MRTQ_API mrtq_status mrtq_conv2d_onednn(const mrtq_conv2d_shape *s, const mrtq_onednn_attr *attr, const mrtq_qoperand *x,
                                        const mrtq_qoperand *w, const int32_t *bias, mrtq_dtype dst_type, void *dst);

/* oneDNN's int8 inner product: rows x k src (row-major), o x k weights, dst
 * rows x o; logical dst dimensions (n, oc) for the OLD scale mask (2: per
 * output channel; a mask over more than 2 dimensions is refused). No
 * per-channel src zero points. Otherwise as mrtq_conv2d_onednn. */
MRTQ_API mrtq_status mrtq_fc_onednn(size_t rows, size_t k, size_t o, const mrtq_onednn_attr *attr, const mrtq_qoperand *x,
                                    const mrtq_qoperand *w, const int32_t *bias, mrtq_dtype dst_type, void *dst);

/* oneDNN's binary ADD or MUL (op MRTQ_ONEDNN_BIN_ADD / _BIN_MUL) on 8-bit
 * tensors with input scales, broadcasting b over a (NumPy rules; the dst has
 * a's shape, which must be the broadcast shape):
 *   f = fl(scale_a * (a - a->zp)) op fl(scale_b * (b - b->zp))
 * rounded once more, then the epilogue's tail (post-ops; a binary post-op's
 * PER_OC is logical dimension 1 of dst). oneDNN 2.6 takes no zero points here
 * (a->zp = b->zp = 0 is its primitive) and no output scale: attr->oscale
 * NULL, attr->src_zp 0 and src_zp_ch NULL, the OLD scheme. attr->dst_zp_ch (or
 * NULL) gives a dst zero point per index of logical dimension 1 (one for a
 * 1-D dst). Errors: NULL, attributes invalid, an input's zp outside its type
 * or zp_ch set -> MRTQ_EINVAL; a type other than MRTQ_S8 / MRTQ_U8 ->
 * MRTQ_EUNSUPPORTED; shapes as mrtq_bcast_init, or a broadcast shape other
 * than a's -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_binary_onednn(int op, const mrtq_onednn_attr *attr, const mrtq_qoperand *a,
                                        const size_t *shape_a, int nda, float scale_a, const mrtq_qoperand *b,
                                        const size_t *shape_b, int ndb, float scale_b, mrtq_dtype dst_type, void *dst);

/* oneDNN's sum primitive (the scale RFC's "each input of sum"): n >= 1
 * 8-bit tensors of count elements, each with its f32 scale; dst (dst_type) =
 * RNE and saturation of
 *   f = fl(scale_0 (x_0 - zp_0)) + fl(scale_1 (x_1 - zp_1)) + ...
 * in float, left to right, every product and every addition rounded (oneDNN
 * 2.6.3's sum on int8, measured: no fused multiply-add, no 8-bit
 * intermediate). +-inf saturates; NaN gives 127 for an int8 dst and 0 for a
 * uint8 one, as that sum does (measured; so do the JIT convolution's stores).
 * oneDNN's sum takes no zero points (zp 0 is its primitive); srcs[k].zp_ch
 * must be NULL. dst may be one of the srcs (in place: each element is read
 * before it is written). Per-input scales of a concatenation are mrtq_concat
 * with an MRTQ_FP32 requantization per input (docs/kernels.md 7). Errors:
 * NULL, n == 0, a zero point outside its type or per channel -> MRTQ_EINVAL;
 * a type other than MRTQ_S8 / MRTQ_U8 -> MRTQ_EUNSUPPORTED. */
MRTQ_API mrtq_status mrtq_sum_onednn(size_t n, const mrtq_qoperand *srcs, const float *scales, size_t count,
                                     mrtq_dtype dst_type, void *dst);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

/* fmaf(a, b, c): a * b + c rounded once to float (ties to even), without
 * libm: the product is exact in double (24 + 24 bits); the sum's rounding
 * error is recovered exactly (two-sum), and only where the double sum is a
 * float midpoint does that error decide the direction. */
MRTQ__PRIV float mrtq__fmaf(float a, float b, float c) {
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
MRTQ__PRIV float mrtq__f32(float x) {
  volatile float t = x;
  return t;
}

/* x as a double value of its own (no contraction into a following add). */
MRTQ__PRIV double mrtq__f64(double x) {
  volatile double t = x;
  return t;
}

/* RNE and saturation of f to [lo, hi] (the int8 or uint8 range), as oneDNN
 * 2.6 stores (measured): +-inf saturate; NaN gives 127 for int8 and 0 for
 * uint8 in its JIT kernels and its sum primitive (ref 0: their saturation
 * takes min(f, 127) first for int8 and max(f, 0) first for uint8, and each
 * returns the bound for NaN), and 0 in its reference implementations (ref 1:
 * NaN passes their compares and converts to the integer 0x80000000, whose low
 * byte is stored). */
MRTQ__PRIV int32_t mrtq__onednn_store(float f, int32_t lo, int32_t hi, int ref) {
  if (f != f) return ref ? 0 : lo < 0 ? hi : lo;
  return mrtq__clamp64(mrtq__rne_f32(f), lo, hi);
}

/* Post-ops, the NEW scheme's dst scale, the dst zero point, RNE and
 * saturation to [lo, hi]: the tail every primitive shares. A NaN follows
 * oneDNN's x86 kernels through the post-ops: CLIP is max then min, each
 * returning its second operand for NaN; ReLU with alpha 0 is max(f, 0) in the
 * JIT kernels (ref_rounding 0) and f > 0 ? f : alpha * f in the reference
 * ones; an eltwise post-op's scale multiplies its result, rounded on its own
 * (oneDNN's JIT injector and reference both multiply after the function);
 * the store as mrtq__onednn_store. */
MRTQ__PRIV int32_t mrtq__onednn_tail(const mrtq_onednn_attr *a, const mrtq_onednn_pos *at, float f, int32_t prev,
                                     int32_t lo, int32_t hi) {
  int i;
  for (i = 0; i < a->n_po; i++) {
    const mrtq_onednn_po *p = &a->po[i];
    float v;
    switch (p->kind) {
      case MRTQ_ONEDNN_SUM: /* fused, as oneDNN's JIT; the zero point subtracted in float first */
        v = mrtq__f32((float)prev - (float)p->zp);
        f = a->ref_rounding ? f + mrtq__f32(p->scale * v) : mrtq__fmaf(p->scale, v, f);
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
    /* the eltwise scale: its own product (1 changes nothing, NaN included) */
    if (p->kind >= MRTQ_ONEDNN_RELU && p->kind <= MRTQ_ONEDNN_CLIP && p->scale != 1.0f) f = mrtq__f32(f * p->scale);
  }
  if (a->scheme == MRTQ_ONEDNN_NEW && a->dst_scale) f /= a->dst_scale[0];
  f += (float)(a->dst_zp_ch ? a->dst_zp_ch[at->oc] : a->dst_zp);
  return mrtq__onednn_store(f, lo, hi, a->ref_rounding);
}

/* The epilogue without checks (the kernels check the attribute once). */
MRTQ__PRIV int32_t mrtq__onednn_epilogue(const mrtq_onednn_attr *a, const mrtq_onednn_pos *at, int32_t acc,
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

/* Every field of an attribute for a dst of type dst_type (already checked)
 * with ndim logical dimensions: MRTQ_OK or the refusal. The per-channel zero
 * points' values are checked by mrtq__onednn_zp_ok (it knows their count). */
MRTQ__PRIV mrtq_status mrtq__onednn_attr_ok(const mrtq_onednn_attr *a, mrtq_dtype dst_type, int ndim) {
  int i;
  if (!a) return MRTQ__ERR(MRTQ_EINVAL, "attr: NULL");
  if (a->scheme != MRTQ_ONEDNN_OLD && a->scheme != MRTQ_ONEDNN_NEW)
    return MRTQ__ERR(MRTQ_EINVAL, "attr->scheme: must be MRTQ_ONEDNN_OLD or MRTQ_ONEDNN_NEW");
  if (a->n_po < 0) return MRTQ__ERR(MRTQ_EINVAL, "attr->n_po: must be >= 0");
  if (a->n_po > MRTQ_ONEDNN_MAX_PO) return MRTQ__ERR(MRTQ_EINVAL, "attr->n_po: at most 4 post-ops (MRTQ_ONEDNN_MAX_PO)");
  if (a->ref_rounding != 0 && a->ref_rounding != 1)
    return MRTQ__ERR(MRTQ_EINVAL, "attr->ref_rounding: must be 0 (JIT kernels) or 1 (reference implementations)");
  if (a->oscale_mask < 0 || a->oscale_mask >= (1 << ndim))
    return MRTQ__ERR(MRTQ_EINVAL, "attr->oscale_mask: a bit beyond the dst's logical dimensions");
  if (a->scheme == MRTQ_ONEDNN_NEW) {
    if (a->oscale) return MRTQ__ERR(MRTQ_EINVAL, "attr->oscale: must be NULL in the NEW scheme (src_scale, wei_scale, dst_scale)");
    if (a->oscale_mask) return MRTQ__ERR(MRTQ_EINVAL, "attr->oscale_mask: must be 0 in the NEW scheme (wei_per_oc)");
    if (a->wei_per_oc != 0 && a->wei_per_oc != 1) return MRTQ__ERR(MRTQ_EINVAL, "attr->wei_per_oc: must be 0 or 1");
    if (a->wei_per_oc && !a->wei_scale) return MRTQ__ERR(MRTQ_EINVAL, "attr->wei_per_oc: must be 0 without attr->wei_scale");
  } else {
    if (a->oscale_mask && !a->oscale) return MRTQ__ERR(MRTQ_EINVAL, "attr->oscale_mask: must be 0 without attr->oscale");
    if (a->src_scale) return MRTQ__ERR(MRTQ_EINVAL, "attr->src_scale: must be NULL in the OLD scheme (attr->oscale)");
    if (a->wei_scale) return MRTQ__ERR(MRTQ_EINVAL, "attr->wei_scale: must be NULL in the OLD scheme (attr->oscale)");
    if (a->dst_scale) return MRTQ__ERR(MRTQ_EINVAL, "attr->dst_scale: must be NULL in the OLD scheme (attr->oscale)");
    if (a->fbias) return MRTQ__ERR(MRTQ_EINVAL, "attr->fbias: must be NULL in the OLD scheme (the int32 bias argument)");
    if (a->wei_per_oc) return MRTQ__ERR(MRTQ_EINVAL, "attr->wei_per_oc: must be 0 in the OLD scheme (attr->oscale_mask)");
  }
  if (a->dst_zp_ch && a->dst_zp) return MRTQ__ERR(MRTQ_EINVAL, "attr->dst_zp: must be 0 beside attr->dst_zp_ch");
  if (!mrtq__in_type(a->dst_zp, dst_type)) return MRTQ__ERR(MRTQ_EINVAL, "attr->dst_zp: outside dst_type's range");
  for (i = 0; i < a->n_po; i++) {
    const mrtq_onednn_po *p = &a->po[i];
    int binary = p->kind == MRTQ_ONEDNN_BIN_ADD || p->kind == MRTQ_ONEDNN_BIN_MUL;
    if (p->kind < MRTQ_ONEDNN_SUM || p->kind > MRTQ_ONEDNN_BIN_MUL)
      return MRTQ__ERR(MRTQ_EINVAL, "attr->po[i].kind: not a post-op kind (MRTQ_ONEDNN_SUM .. MRTQ_ONEDNN_BIN_MUL)");
    if (binary) {
      if (!p->src1) return MRTQ__ERR(MRTQ_EINVAL, "attr->po[i].src1: NULL on a binary post-op");
      if (p->src1_bcast < MRTQ_ONEDNN_COMMON || p->src1_bcast > MRTQ_ONEDNN_PER_ELEM)
        return MRTQ__ERR(MRTQ_EINVAL, "attr->po[i].src1_bcast: must be MRTQ_ONEDNN_COMMON, _PER_OC or _PER_ELEM");
    } else {
      if (p->src1) return MRTQ__ERR(MRTQ_EINVAL, "attr->po[i].src1: must be NULL on SUM and eltwise post-ops");
      if (p->src1_bcast) return MRTQ__ERR(MRTQ_EINVAL, "attr->po[i].src1_bcast: must be 0 on SUM and eltwise post-ops");
    }
    if (p->kind != MRTQ_ONEDNN_SUM && p->zp != 0)
      return MRTQ__ERR(MRTQ_EINVAL, "attr->po[i].zp: must be 0 on eltwise and binary post-ops (only SUM has a zero point)");
    if ((binary || p->kind == MRTQ_ONEDNN_SUM) && p->alpha != 0)
      return MRTQ__ERR(MRTQ_EINVAL, "attr->po[i].alpha: must be 0 on SUM and binary post-ops");
    if ((binary || p->kind == MRTQ_ONEDNN_SUM || p->kind == MRTQ_ONEDNN_RELU) && p->beta != 0)
      return MRTQ__ERR(MRTQ_EINVAL, "attr->po[i].beta: must be 0 on SUM, RELU and binary post-ops");
    if (p->kind == MRTQ_ONEDNN_CLIP && p->alpha > p->beta) /* oneDNN refuses it too */
      return MRTQ__ERR(MRTQ_EINVAL, "attr->po[i].beta: must be >= attr->po[i].alpha on CLIP");
    if (p->kind >= MRTQ_ONEDNN_RELU && p->kind <= MRTQ_ONEDNN_CLIP && p->scale == 0)
      return MRTQ__ERR(MRTQ_EINVAL, "attr->po[i].scale: must be nonzero on RELU, LINEAR and CLIP (it multiplies the "
                                    "result; 1: unscaled)");
  }
  return MRTQ_OK;
}

/* The index into a masked scale array for logical coordinates coord[ndim]
 * of dims[ndim]: the row-major offset over the dimensions whose mask bit is
 * set. */
MRTQ__PRIV size_t mrtq__mask_index(int mask, int ndim, const size_t *dims, const size_t *coord) {
  size_t i = 0;
  int d;
  for (d = 0; d < ndim; d++)
    if (mask >> d & 1) i = i * dims[d] + coord[d];
  return i;
}

/* The per-channel zero points of a: nsrc src ones (NULL or in src_type,
 * src_zp beside them 0; the src operand's zp equals src_zp, checked before)
 * and ndst dst ones (NULL or in dst_type). *zmax gets the src zero point of
 * largest magnitude (zx without them). */
MRTQ__PRIV mrtq_status mrtq__onednn_zp_ok(const mrtq_onednn_attr *a, size_t nsrc, int32_t zx, mrtq_dtype src_type,
                                          size_t ndst, mrtq_dtype dst_type, int32_t *zmax) {
  size_t i;
  *zmax = zx;
  if (a->src_zp_ch) {
    if (a->src_zp) return MRTQ__ERR(MRTQ_EINVAL, "attr->src_zp: must be 0 beside attr->src_zp_ch");
    for (i = 0; i < nsrc; i++) {
      int32_t z = a->src_zp_ch[i];
      if (!mrtq__in_type(z, src_type)) return MRTQ__ERR(MRTQ_EINVAL, "attr->src_zp_ch[c]: outside x->type's range");
      if ((z < 0 ? -z : z) > (*zmax < 0 ? -*zmax : *zmax)) *zmax = z;
    }
  }
  if (a->dst_zp_ch)
    for (i = 0; i < ndst; i++)
      if (!mrtq__in_type(a->dst_zp_ch[i], dst_type))
        return MRTQ__ERR(MRTQ_EINVAL, "attr->dst_zp_ch[o]: outside dst_type's range");
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_onednn_epilogue(const mrtq_onednn_attr *attr, const mrtq_onednn_pos *at, int32_t acc,
                                          const int32_t *bias, int32_t prev, mrtq_dtype dst_type, int32_t *out) {
  mrtq_status st = MRTQ__Q8_TYPE(dst_type, "dst_type");
  if (st != MRTQ_OK || (st = mrtq__onednn_attr_ok(attr, dst_type, 4)) != MRTQ_OK) return st;
  if (!at) return MRTQ__ERR(MRTQ_EINVAL, "at: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (bias && attr->scheme == MRTQ_ONEDNN_NEW)
    return MRTQ__ERR(MRTQ_EINVAL, "bias: must be NULL in the NEW scheme (attr->fbias is its bias)");
  if (attr->dst_zp_ch && !mrtq__in_type(attr->dst_zp_ch[at->oc], dst_type))
    return MRTQ__ERR(MRTQ_EINVAL, "attr->dst_zp_ch[o]: outside dst_type's range");
  *out = mrtq__onednn_epilogue(attr, at, acc, bias, prev, dst_type == MRTQ_U8 ? 0 : -128, dst_type == MRTQ_U8 ? 255 : 127);
  return MRTQ_OK;
}

/* The exact sum of (x - zxc[ci]) w over output (n, o, oy, ox)'s in-bounds
 * taps, a src zero point per input channel ci (weights' zero point 0). */
MRTQ__PRIV int32_t mrtq__conv_at_zpc(const mrtq_conv2d_shape *s, const mrtq_qoperand *x, const mrtq_qoperand *w,
                                     const int32_t *zxc, size_t n, size_t o, size_t oy, size_t ox) {
  size_t cg = s->c / s->groups, g = o / (s->o / s->groups), c, ky, kx;
  int nchw = s->layout == MRTQ_NCHW, xu = x->type == MRTQ_U8, wu = w->type == MRTQ_U8;
  int32_t acc = 0;
  for (ky = 0; ky < s->kh; ky++)
    for (kx = 0; kx < s->kw; kx++) {
      size_t iy = oy * s->stride_h + ky * s->dil_h, ix = ox * s->stride_w + kx * s->dil_w, yy, xx;
      if (mrtq__conv_pad(s, iy, ix)) continue; /* x = zx there: a real zero */
      yy = iy - s->pad_top, xx = ix - s->pad_left;
      for (c = 0; c < cg; c++) {
        size_t ci = g * cg + c;
        size_t wa = mrtq__conv_w_at(s, o, c, ky, kx);
        size_t xa = nchw ? ((n * s->c + ci) * s->h + yy) * s->w + xx : ((n * s->h + yy) * s->w + xx) * s->c + ci;
        acc += (mrtq__q8(x->data, xa, xu) - zxc[ci]) * mrtq__q8(w->data, wa, wu);
      }
    }
  return acc;
}

/* Everything mrtq_conv2d_onednn and the fast core check about a convolution
 * with attributes, given its checked operands: the attribute (for ndim
 * logical dst dimensions), symmetric weights (w NULL: already packed), x->zp
 * against attr->src_zp, the int32 bias against the scheme, per-channel zero
 * points (nsrc src ones allowed, 0: refused), and the int32 worst case with
 * the largest src zero point over a reduction of k. */
MRTQ__PRIV mrtq_status mrtq__onednn_conv_ok(const mrtq_onednn_attr *attr, int ndim, const mrtq_qoperand *x,
                                            const mrtq_qoperand *w, const int32_t *bias, size_t nsrc, size_t ndst,
                                            uint64_t k, mrtq_dtype dst_type) {
  mrtq_status st;
  mrtq_qoperand xb, wb;
  int32_t zmax;
  if ((st = mrtq__onednn_attr_ok(attr, dst_type, ndim)) != MRTQ_OK) return st;
  if (ndim == 2 && attr->src_zp_ch)
    return MRTQ__ERR(MRTQ_EINVAL, "attr->src_zp_ch: must be NULL for an inner product (oneDNN 2.6 has none there)");
  if (w && w->zp_ch) return MRTQ__ERR(MRTQ_EINVAL, "w->zp_ch: must be NULL (oneDNN's int8 weights have no zero point)");
  if (w && w->zp) return MRTQ__ERR(MRTQ_EINVAL, "w->zp: must be 0 (oneDNN's int8 weights have no zero point)");
  if (x->zp != attr->src_zp) return MRTQ__ERR(MRTQ_EINVAL, "x->zp: must equal attr->src_zp");
  if (bias && attr->scheme == MRTQ_ONEDNN_NEW)
    return MRTQ__ERR(MRTQ_EINVAL, "bias: must be NULL in the NEW scheme (attr->fbias is its bias)");
  if (!nsrc && attr->src_zp_ch)
    return MRTQ__ERR(MRTQ_EINVAL, "attr->src_zp_ch: must be NULL for the fast core (oneDNN runs per-channel src zero "
                                  "points on its reference implementation only; use mrtq_conv2d_onednn)");
  if ((st = mrtq__onednn_zp_ok(attr, nsrc, x->zp, x->type, ndst, dst_type, &zmax)) != MRTQ_OK) return st;
  xb = *x, xb.zp = zmax; /* the worst case with the largest src zero point */
  if (w) wb = *w;
  else memset(&wb, 0, sizeof wb), wb.data = x->data, wb.type = MRTQ_S8; /* packed s8 weights, zero point 0 */
  return mrtq__dot_check(k, &xb, &wb, 1, NULL, 0, 0);
}

/* mrtq_conv2d_onednn with ndim logical dst dimensions (2: an inner product). */
MRTQ__PRIV mrtq_status mrtq__conv2d_onednn(const mrtq_conv2d_shape *s, int ndim, const mrtq_onednn_attr *attr,
                                           const mrtq_qoperand *x, const mrtq_qoperand *w, const int32_t *bias,
                                           mrtq_dtype dst_type, void *dst) {
  size_t ho, wo, c[4], d[4];
  uint64_t k;
  int32_t lo = dst_type == MRTQ_U8 ? 0 : -128, hi = dst_type == MRTQ_U8 ? 255 : 127;
  int du = dst_type == MRTQ_U8;
  mrtq_onednn_pos at;
  mrtq_status st;
  /* before mrtq__conv_check, which takes the TFLite kernels' int4 weights and
   * would judge their zero point first */
  if (w && w->type == MRTQ_S4)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "w->type: must be MRTQ_S8 or MRTQ_U8 (oneDNN has no int4 weights; mrtq_conv2d_q8 takes them)");
  if ((st = mrtq__conv_check_ex(s, x, w, NULL, &ho, &wo, &k, 1)) != MRTQ_OK) return st; /* oneDNN's output size */
  if ((st = MRTQ__Q8_TYPE(dst_type, "dst_type")) != MRTQ_OK) return st;
  if (!dst) return MRTQ__ERR(MRTQ_EINVAL, "dst: NULL");
  if ((st = mrtq__onednn_conv_ok(attr, ndim, x, w, bias, s->c, s->o, k, dst_type)) != MRTQ_OK) return st;
  d[0] = s->n, d[1] = s->o, d[2] = ho, d[3] = wo;
  for (c[1] = 0; c[1] < s->o; c[1]++) {
    int32_t sw = mrtq__conv_wsum(s, w, c[1]);
    for (c[0] = 0; c[0] < s->n; c[0]++)
      for (c[2] = 0; c[2] < ho; c[2]++)
        for (c[3] = 0; c[3] < wo; c[3]++) {
          int32_t prev, acc;
          at.at = mrtq__conv_out_at(s, ho, wo, c[0], c[1], c[2], c[3]);
          at.oc = c[1], at.si = mrtq__mask_index(attr->oscale_mask, 4, d, c);
          prev = mrtq__q8(dst, at.at, du);
          acc = attr->src_zp_ch ? mrtq__conv_at_zpc(s, x, w, attr->src_zp_ch, c[0], c[1], c[2], c[3])
                                : mrtq__conv_at(s, x, w, NULL, (int32_t)k, c[0], c[1], c[2], c[3], sw);
          ((uint8_t *)dst)[at.at] = (uint8_t)mrtq__onednn_epilogue(attr, &at, acc, bias, prev, lo, hi);
        }
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_conv2d_onednn(const mrtq_conv2d_shape *s, const mrtq_onednn_attr *attr, const mrtq_qoperand *x,
                                        const mrtq_qoperand *w, const int32_t *bias, mrtq_dtype dst_type, void *dst) {
  return mrtq__conv2d_onednn(s, 4, attr, x, w, bias, dst_type, dst);
}

MRTQ_API mrtq_status mrtq_fc_onednn(size_t rows, size_t k, size_t o, const mrtq_onednn_attr *attr, const mrtq_qoperand *x,
                                    const mrtq_qoperand *w, const int32_t *bias, mrtq_dtype dst_type, void *dst) {
  mrtq_conv2d_shape s = mrtq_fc_shape(rows, k, o); /* (n, oc) are the convolution's (n, oc, 1, 1) */
  return mrtq__conv2d_onednn(&s, 2, attr, x, w, bias, dst_type, dst);
}

/* An 8-bit input of the binary or sum primitive: data, type, zero point
 * (name: the argument, f: its field prefix, "a->" or "srcs[k]."). */
#define MRTQ__ONEDNN_INPUT(q, name, f)                                                                           \
  do {                                                                                                          \
    if (!(q)) return MRTQ__ERR(MRTQ_EINVAL, name ": NULL");                                                      \
    if (!(q)->data) return MRTQ__ERR(MRTQ_EINVAL, f "data: NULL");                                               \
    if ((st = MRTQ__Q8_TYPE((q)->type, f "type")) != MRTQ_OK) return st;                                        \
    if ((q)->zp_ch) return MRTQ__ERR(MRTQ_EINVAL, f "zp_ch: must be NULL (oneDNN's primitive has none)");         \
    if (!mrtq__in_type((q)->zp, (q)->type)) return MRTQ__ERR(MRTQ_EINVAL, f "zp: outside " f "type's range");    \
  } while (0)

MRTQ_API mrtq_status mrtq_binary_onednn(int op, const mrtq_onednn_attr *attr, const mrtq_qoperand *a,
                                        const size_t *shape_a, int nda, float scale_a, const mrtq_qoperand *b,
                                        const size_t *shape_b, int ndb, float scale_b, mrtq_dtype dst_type, void *dst) {
  mrtq_bcast bc;
  mrtq_onednn_pos at;
  size_t inner = 1;
  int32_t lo = dst_type == MRTQ_U8 ? 0 : -128, hi = dst_type == MRTQ_U8 ? 255 : 127, zmax;
  int d, au, bu, du = dst_type == MRTQ_U8;
  mrtq_status st;
  if (op != MRTQ_ONEDNN_BIN_ADD && op != MRTQ_ONEDNN_BIN_MUL)
    return MRTQ__ERR(MRTQ_EINVAL, "op: must be MRTQ_ONEDNN_BIN_ADD or MRTQ_ONEDNN_BIN_MUL");
  MRTQ__ONEDNN_INPUT(a, "a", "a->");
  MRTQ__ONEDNN_INPUT(b, "b", "b->");
  if ((st = MRTQ__Q8_TYPE(dst_type, "dst_type")) != MRTQ_OK) return st;
  if (!dst) return MRTQ__ERR(MRTQ_EINVAL, "dst: NULL");
  if ((st = mrtq__onednn_attr_ok(attr, dst_type, MRTQ_MAX_DIMS)) != MRTQ_OK) return st;
  if (attr->scheme != MRTQ_ONEDNN_OLD) return MRTQ__ERR(MRTQ_EINVAL, "attr->scheme: must be MRTQ_ONEDNN_OLD for the binary primitive");
  if (attr->oscale) return MRTQ__ERR(MRTQ_EINVAL, "attr->oscale: must be NULL (the binary primitive has src scales: scale_a, scale_b)");
  if (attr->src_zp) return MRTQ__ERR(MRTQ_EINVAL, "attr->src_zp: must be 0 (the binary primitive's are a->zp, b->zp)");
  if (attr->src_zp_ch) return MRTQ__ERR(MRTQ_EINVAL, "attr->src_zp_ch: must be NULL for the binary primitive");
  if ((st = mrtq_bcast_init(shape_a, nda, shape_b, ndb, &bc)) != MRTQ_OK) return st;
  if (bc.ndim != nda) return MRTQ__ERR(MRTQ_ESHAPE, "ndb: more dimensions than nda (the dst has a's shape)");
  for (d = 0; d < nda; d++)
    if (bc.out[d] != shape_a[d]) return MRTQ__ERR(MRTQ_ESHAPE, "shape_b: broadcasts a beyond shape_a (the dst has a's shape)");
  for (d = 2; d < nda; d++) inner *= shape_a[d];
  if ((st = mrtq__onednn_zp_ok(attr, 0, 0, a->type, nda >= 2 ? shape_a[1] : 1, dst_type, &zmax)) != MRTQ_OK) return st;
  au = a->type == MRTQ_U8, bu = b->type == MRTQ_U8;
  at.si = 0;
  for (at.at = 0; at.at < bc.n; at.at++) {
    size_t ia, ib;
    float fa, fb;
    mrtq__bcast_at(&bc, at.at, &ia, &ib);
    fa = mrtq__f32(scale_a * (float)(mrtq__q8(a->data, ia, au) - a->zp));
    fb = mrtq__f32(scale_b * (float)(mrtq__q8(b->data, ib, bu) - b->zp));
    at.oc = nda >= 2 ? at.at / inner % shape_a[1] : 0;
    ((uint8_t *)dst)[at.at] = (uint8_t)mrtq__onednn_tail(attr, &at, op == MRTQ_ONEDNN_BIN_ADD ? fa + fb : fa * fb,
                                                         mrtq__q8(dst, at.at, du), lo, hi);
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_sum_onednn(size_t n, const mrtq_qoperand *srcs, const float *scales, size_t count,
                                     mrtq_dtype dst_type, void *dst) {
  size_t i, k;
  int32_t lo = dst_type == MRTQ_U8 ? 0 : -128, hi = dst_type == MRTQ_U8 ? 255 : 127;
  mrtq_status st;
  if (n == 0) return MRTQ__ERR(MRTQ_EINVAL, "n: must be >= 1");
  if (!srcs) return MRTQ__ERR(MRTQ_EINVAL, "srcs: NULL");
  if (!scales) return MRTQ__ERR(MRTQ_EINVAL, "scales: NULL");
  for (k = 0; k < n; k++) MRTQ__ONEDNN_INPUT(srcs + k, "srcs", "srcs[k].");
  if ((st = MRTQ__Q8_TYPE(dst_type, "dst_type")) != MRTQ_OK) return st;
  if (!dst) return MRTQ__ERR(MRTQ_EINVAL, "dst: NULL");
  for (i = 0; i < count; i++) {
    float f = 0.0f;
    for (k = 0; k < n; k++) {
      float v = mrtq__f32(scales[k] * (float)(mrtq__q8(srcs[k].data, i, srcs[k].type == MRTQ_U8) - srcs[k].zp));
      f = k ? f + v : v;
    }
    ((uint8_t *)dst)[i] = (uint8_t)mrtq__onednn_store(f, lo, hi, 0);
  }
  return MRTQ_OK;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_ATTR_H */
