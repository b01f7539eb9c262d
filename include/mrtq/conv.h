/* mrtq/conv.h -- reference quantized 2-D convolution, fully connected layers
 * and batched matrix multiplication in the expansion form
 *   sum (X - zx)(W - zw) = sum X W - zx sum W - zw sum X + K zx zw
 * with every term's worst case checked against int32 before the kernel runs
 * (MRTQ_EOVERFLOW instead of overflowing). Output: the int32 tensor (whose
 * scale is s_x * s_w) or 8-bit values through any requantization family of
 * mrtq/requant.h, per tensor or per output channel.
 *
 * Operands are mrtq_qoperand (mrtq/common.h): these kernels take MRTQ_S8 and
 * MRTQ_U8 data (src, weights, matrices, outputs), and the convolution and
 * fully connected kernels also MRTQ_S4 weights (TFLite's int4); other types
 * are refused with MRTQ_EUNSUPPORTED. Argument order: the shape (or sizes)
 * and requantization, then the inputs, then the output type and the output.
 * Every refusal names the argument through MRTQ_ON_ERROR and writes
 * nothing. */
#ifndef MRTQ_CONV_H
#define MRTQ_CONV_H

#include "requant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* The weights' memory layout. MRTQ_W_LIKE_X (0, the default) follows the
 * activations: OIHW [o][c/groups][kh][kw] with MRTQ_NCHW, OHWI
 * [o][kh][kw][c/groups] with MRTQ_NHWC. MRTQ_W_TFLITE_DW is TFLite's (and
 * TFLite Micro's, CMSIS-NN's) depthwise filter [1][kh][kw][o], o = c * depth
 * multiplier, output channel fastest; it needs a depthwise shape (groups ==
 * c), with either activation layout. */
typedef enum mrtq_wlayout { MRTQ_W_LIKE_X = 0, MRTQ_W_TFLITE_DW = 1 } mrtq_wlayout;

/* A 2-D convolution. Activations NCHW or NHWC (mrtq_layout); the output
 * follows the input; the weights as w_layout says. Every size, stride, dilation and the group count is >= 1;
 * groups divides c and o (1: dense; c: depthwise, o a multiple of c). The four
 * paddings are independent (TFLite's SAME padding puts the odd row or column
 * at the bottom / right) and hold real zeros (the src zero point). */
typedef struct mrtq_conv2d_shape {
  size_t n, c, h, w;                               /* input */
  size_t o, kh, kw;                                /* output channels, kernel */
  size_t stride_h, stride_w, dil_h, dil_w;         /* dilation 1: dense taps */
  size_t pad_top, pad_left, pad_bottom, pad_right; /* rows above / below, columns left / right */
  size_t groups;
  mrtq_layout layout;
  mrtq_wlayout w_layout; /* 0: OIHW / OHWI as layout says */
} mrtq_conv2d_shape;

/* Output height and width: ho = (h + pad_top + pad_bottom - (kh - 1) dil_h - 1)
 * / stride_h + 1 (floor), likewise wo. Errors: NULL, a layout outside
 * mrtq_layout or w_layout outside mrtq_wlayout -> MRTQ_EINVAL;
 * MRTQ_W_TFLITE_DW with groups != c (not depthwise) -> MRTQ_ESHAPE; a zero size, stride, dilation or group count, c
 * or o not a multiple of groups, a dilated kernel larger than the padded
 * input, sizes or element counts overflowing size_t -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_conv2d_out(const mrtq_conv2d_shape *s, size_t *ho, size_t *wo);

/* oneDNN's output size: ho = trunc((h + pad_top + pad_bottom - (kh - 1) dil_h
 * - 1) / stride_h) + 1 with C's truncating division (oneDNN 2.6's
 * convolution descriptor), likewise wo. It equals mrtq_conv2d_out's wherever
 * the dilated kernel fits the padded input; where it overruns it by less
 * than the stride, the quotient truncates to 0 and ho = 1: one window, whose
 * taps past the input read as padding (oneDNN accepts such a layer: IH 1, KH
 * 2, stride 2 gives OH 1). The oneDNN-convention kernels (mrtq_conv2d_onednn,
 * mrtq/fastconv.h) size their output so. Errors: as mrtq_conv2d_out, except
 * that an overrun of at least the stride (oneDNN's size would be 0 or less)
 * -> MRTQ_ESHAPE ("s->kh: ..." / "s->kw: ..."). */
MRTQ_API mrtq_status mrtq_conv2d_out_onednn(const mrtq_conv2d_shape *s, size_t *ho, size_t *wo);

/* The shape of a fully connected layer as a convolution: rows images of k
 * channels, 1 x 1, o outputs (NCHW, so rows x k src and o x k weights are
 * row-major). Never fails (zero sizes are refused by the kernels). */
MRTQ_API mrtq_conv2d_shape mrtq_fc_shape(size_t rows, size_t k, size_t o);

/* The int32 convolution: acc = sum over the group's input channels and the
 * kernel of (X - x->zp)(W - zw_o) + bias[o], n * o * ho * wo values in the
 * input's layout; zw_o = w->zp_ch[o] (w->zp then 0) or w->zp; bias (o
 * values) may be NULL. Exact: the worst case
 *   K |X| |W| + |zx| K |W| + |zw| K |X| + K |zx zw| + |bias| < 2^31
 * (K = (c / groups) kh kw, |X|, |W| the type's largest magnitude: 128 for
 * MRTQ_S8, 255 for MRTQ_U8, 8 for MRTQ_S4) is checked first; a total of
 * exactly 2^31 - 1 is accepted. x: MRTQ_S8 or MRTQ_U8; w: MRTQ_S8, MRTQ_U8 or
 * MRTQ_S4. MRTQ_S4 weights (int4, zero points in [-8, 7]) are packed as
 * mrtq_dtype says over the whole weight tensor in its layout (s->w_layout):
 * weight element i, its index in that layout, is nibble i % 2 (0: low) of
 * byte i / 2, sign-extended; an odd element count leaves the last high nibble
 * unused (never read). Otherwise they are int8 weights: the results equal
 * those of the MRTQ_S8 tensor mrtq_s4_unpack gives, which is how TFLite runs
 * int4 filters (it unpacks them and calls its int8 kernels).
 * Errors: as mrtq_conv2d_out; NULL operand, data or acc, a type 0, x->zp_ch
 * set, a zero point outside its type, w->zp != 0 beside w->zp_ch ->
 * MRTQ_EINVAL; another type -> MRTQ_EUNSUPPORTED; the worst case over int32
 * -> MRTQ_EOVERFLOW. */
MRTQ_API mrtq_status mrtq_conv2d_s32(const mrtq_conv2d_shape *s, const mrtq_qoperand *x, const mrtq_qoperand *w,
                                     const int32_t *bias, int32_t *acc);

/* The requantized convolution: out = mrtq_rq_apply(rq[o] (rq[0] when nrq ==
 * 1), acc, dst_type's range), stored as dst_type (MRTQ_S8 or MRTQ_U8). For
 * TFLite's convention pass per-channel MRTQ_Q31_DBL descriptions of s_x
 * s_w[o] / s_y and an int32 bias (bit-exact with TFLite's reference conv and
 * depthwise conv, int8 or int4 filters; MRTQ_FP32 gives XNNPACK's).
 * Errors: as mrtq_conv2d_s32; rq or out NULL, nrq neither 1 nor s->o, an
 * rq[c] that fails the array functions' descriptor checks (scheme, fields it
 * does not read, qmin <= qmax) -> MRTQ_EINVAL; dst_type another type ->
 * MRTQ_EUNSUPPORTED. */
MRTQ_API mrtq_status mrtq_conv2d_q8(const mrtq_conv2d_shape *s, const mrtq_rq *rq, size_t nrq, const mrtq_qoperand *x,
                                    const mrtq_qoperand *w, const int32_t *bias, mrtq_dtype dst_type, void *out);

/* Fully connected: rows x k inputs (row-major) times o x k weights -> rows x o,
 * the convolution of mrtq_fc_shape(rows, k, o). Semantics and errors as
 * mrtq_conv2d_s32 / _q8 (nrq 1 or o); MRTQ_S4 weights are the o x k matrix
 * packed row-major (element j k + t is nibble (j k + t) % 2 of byte
 * (j k + t) / 2). Bit-exact with TFLite's reference FullyConnected (int8 or
 * int4 filter) given its MRTQ_Q31_DBL multiplier. */
MRTQ_API mrtq_status mrtq_fc_s32(size_t rows, size_t k, size_t o, const mrtq_qoperand *x, const mrtq_qoperand *w,
                                 const int32_t *bias, int32_t *acc);
MRTQ_API mrtq_status mrtq_fc_q8(size_t rows, size_t k, size_t o, const mrtq_rq *rq, size_t nrq, const mrtq_qoperand *x,
                                const mrtq_qoperand *w, const int32_t *bias, mrtq_dtype dst_type, void *out);

/* Batched matrix multiplication. For each b < batch: Y[b] = (A[b] - za)(B[b] -
 * zb) + bias, A[b] m x k and B[b] k x n row-major, Y[b] m x n; B is one
 * matrix shared by every batch when b_shared is nonzero (weights), else batch
 * matrices.
 *   acc[b][i][j] = sum_t (A[b][i][t] - a->zp)(B[b][t][j] - zb_j) + bias[j]
 * zb_j = b->zp_ch[j] (n entries; b->zp then 0) or b->zp; bias (n entries) may
 * be NULL. Exact, with the worst case checked first as in mrtq_conv2d_s32 (K
 * = k). a, b: MRTQ_S8 or MRTQ_U8 (MRTQ_S4 is refused: MRTQ_EUNSUPPORTED).
 * Errors: a zero batch, m, k or n, element counts overflowing size_t ->
 * MRTQ_ESHAPE; otherwise as mrtq_conv2d_s32 (a->zp_ch set -> MRTQ_EINVAL). */
MRTQ_API mrtq_status mrtq_matmul_s32(size_t batch, size_t m, size_t k, size_t n, const mrtq_qoperand *a,
                                     const mrtq_qoperand *b, int b_shared, const int32_t *bias, int32_t *acc);
/* Requantized: out = mrtq_rq_apply(rq[j] (rq[0] when nrq == 1), acc, dst_type's
 * range) as dst_type. Errors: as mrtq_matmul_s32; rq or out NULL, nrq neither
 * 1 nor n, an rq[c] failing the descriptor checks -> MRTQ_EINVAL; dst_type not MRTQ_S8 / MRTQ_U8 -> MRTQ_EUNSUPPORTED. */
MRTQ_API mrtq_status mrtq_matmul_q8(size_t batch, size_t m, size_t k, size_t n, const mrtq_rq *rq, size_t nrq,
                                    const mrtq_qoperand *a, const mrtq_qoperand *b, int b_shared, const int32_t *bias,
                                    mrtq_dtype dst_type, void *out);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

/* One of two reasons: the convolution's argument names (x, w) or the matrix
 * multiplication's (a, b). */
#define MRTQ__WHY2(mm, for_mm, for_conv) ((mm) ? (for_mm) : (for_conv))

/* Element at of 8-bit data, u8 when u (the type switch hoisted by the caller). */
MRTQ__PRIV int32_t mrtq__q8(const void *p, size_t at, int u) {
  return u ? (int32_t)((const uint8_t *)p)[at] : (int32_t)((const int8_t *)p)[at];
}

/* Element at of MRTQ_S4 data: nibble at % 2 of byte at / 2, sign-extended. */
MRTQ__PRIV int32_t mrtq__s4(const void *p, size_t at) {
  uint32_t b = ((const uint8_t *)p)[at >> 1];
  return (int32_t)(((at & 1) ? b >> 4 : b & 15u) ^ 8u) - 8;
}

/* Both output-size rules (onednn: truncating division, see
 * mrtq_conv2d_out_onednn). */
MRTQ__PRIV mrtq_status mrtq__conv_out(const mrtq_conv2d_shape *s, size_t *ho, size_t *wo, int onednn) {
  size_t hp, wp, ekh, ekw, h, w;
  if (!s) return MRTQ__ERR(MRTQ_EINVAL, "s: NULL");
  if (!ho || !wo) return MRTQ__ERR(MRTQ_EINVAL, "ho, wo: NULL");
  if (s->layout != MRTQ_NCHW && s->layout != MRTQ_NHWC) return MRTQ__ERR(MRTQ_EINVAL, "s->layout: must be MRTQ_NCHW or MRTQ_NHWC");
  if (s->w_layout != MRTQ_W_LIKE_X && s->w_layout != MRTQ_W_TFLITE_DW)
    return MRTQ__ERR(MRTQ_EINVAL, "s->w_layout: must be MRTQ_W_LIKE_X or MRTQ_W_TFLITE_DW");
  if (!s->n) return MRTQ__ERR(MRTQ_ESHAPE, "s->n: must be >= 1");
  if (!s->c) return MRTQ__ERR(MRTQ_ESHAPE, "s->c: must be >= 1");
  if (!s->h) return MRTQ__ERR(MRTQ_ESHAPE, "s->h: must be >= 1");
  if (!s->w) return MRTQ__ERR(MRTQ_ESHAPE, "s->w: must be >= 1");
  if (!s->o) return MRTQ__ERR(MRTQ_ESHAPE, "s->o: must be >= 1");
  if (!s->kh) return MRTQ__ERR(MRTQ_ESHAPE, "s->kh: must be >= 1");
  if (!s->kw) return MRTQ__ERR(MRTQ_ESHAPE, "s->kw: must be >= 1");
  if (!s->stride_h) return MRTQ__ERR(MRTQ_ESHAPE, "s->stride_h: must be >= 1");
  if (!s->stride_w) return MRTQ__ERR(MRTQ_ESHAPE, "s->stride_w: must be >= 1");
  if (!s->dil_h) return MRTQ__ERR(MRTQ_ESHAPE, "s->dil_h: must be >= 1 (1: no dilation)");
  if (!s->dil_w) return MRTQ__ERR(MRTQ_ESHAPE, "s->dil_w: must be >= 1 (1: no dilation)");
  if (!s->groups) return MRTQ__ERR(MRTQ_ESHAPE, "s->groups: must be >= 1 (1: dense)");
  if (s->c % s->groups) return MRTQ__ERR(MRTQ_ESHAPE, "s->c: must be a multiple of s->groups");
  if (s->o % s->groups) return MRTQ__ERR(MRTQ_ESHAPE, "s->o: must be a multiple of s->groups");
  if (s->w_layout == MRTQ_W_TFLITE_DW && s->groups != s->c)
    return MRTQ__ERR(MRTQ_ESHAPE, "s->w_layout: MRTQ_W_TFLITE_DW is a depthwise filter (needs s->groups == s->c)");
  if (s->h > SIZE_MAX / 8 || s->pad_top > SIZE_MAX / 8 || s->pad_bottom > SIZE_MAX / 8 || s->kh > SIZE_MAX / 8 / s->dil_h)
    return MRTQ__ERR(MRTQ_ESHAPE, "s->h, s->pad_top, s->pad_bottom, s->kh * s->dil_h: each must be below SIZE_MAX / 8");
  if (s->w > SIZE_MAX / 8 || s->pad_left > SIZE_MAX / 8 || s->pad_right > SIZE_MAX / 8 || s->kw > SIZE_MAX / 8 / s->dil_w)
    return MRTQ__ERR(MRTQ_ESHAPE, "s->w, s->pad_left, s->pad_right, s->kw * s->dil_w: each must be below SIZE_MAX / 8");
  hp = s->h + s->pad_top + s->pad_bottom, wp = s->w + s->pad_left + s->pad_right;
  ekh = (s->kh - 1) * s->dil_h + 1, ekw = (s->kw - 1) * s->dil_w + 1;
  if (!onednn && ekh > hp) return MRTQ__ERR(MRTQ_ESHAPE, "s->kh: the dilated kernel is taller than the padded input");
  if (!onednn && ekw > wp) return MRTQ__ERR(MRTQ_ESHAPE, "s->kw: the dilated kernel is wider than the padded input");
  if (onednn && ekh > hp && ekh - hp >= s->stride_h)
    return MRTQ__ERR(MRTQ_ESHAPE, "s->kh: the dilated kernel overruns the padded input by s->stride_h or more (oneDNN's output height would be 0)");
  if (onednn && ekw > wp && ekw - wp >= s->stride_w)
    return MRTQ__ERR(MRTQ_ESHAPE, "s->kw: the dilated kernel overruns the padded input by s->stride_w or more (oneDNN's output width would be 0)");
  h = ekh > hp ? 1 : (hp - ekh) / s->stride_h + 1, w = ekw > wp ? 1 : (wp - ekw) / s->stride_w + 1;
  /* every tensor's element count must fit size_t */
  if (s->n > SIZE_MAX / s->c || s->n * s->c > SIZE_MAX / s->h || s->n * s->c * s->h > SIZE_MAX / s->w)
    return MRTQ__ERR(MRTQ_ESHAPE, "s: the src's element count n c h w overflows size_t");
  if (s->n > SIZE_MAX / s->o || s->n * s->o > SIZE_MAX / h || s->n * s->o * h > SIZE_MAX / w)
    return MRTQ__ERR(MRTQ_ESHAPE, "s: the dst's element count n o ho wo overflows size_t");
  if (s->o > SIZE_MAX / s->kh || s->o * s->kh > SIZE_MAX / s->kw || s->o * s->kh * s->kw > SIZE_MAX / (s->c / s->groups))
    return MRTQ__ERR(MRTQ_ESHAPE, "s: the weights' element count o kh kw (c / groups) overflows size_t");
  *ho = h, *wo = w;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_conv2d_out(const mrtq_conv2d_shape *s, size_t *ho, size_t *wo) {
  return mrtq__conv_out(s, ho, wo, 0);
}

MRTQ_API mrtq_status mrtq_conv2d_out_onednn(const mrtq_conv2d_shape *s, size_t *ho, size_t *wo) {
  return mrtq__conv_out(s, ho, wo, 1);
}

MRTQ_API mrtq_conv2d_shape mrtq_fc_shape(size_t rows, size_t k, size_t o) {
  mrtq_conv2d_shape s;
  memset(&s, 0, sizeof s);
  s.n = rows, s.c = k, s.h = s.w = 1, s.o = o, s.kh = s.kw = 1;
  s.stride_h = s.stride_w = s.dil_h = s.dil_w = s.groups = 1;
  s.layout = MRTQ_NCHW;
  return s;
}

/* The weights' zero points (w->zp_ch's nw entries, or w->zp): each a value of
 * w->type, w->zp 0 beside zp_ch; *zmax gets the one of largest magnitude.
 * mm: name the operand b (matmul) instead of w. Shared by mrtq__dot_check and
 * the fast core's packing (fastconv.h). */
MRTQ__PRIV mrtq_status mrtq__w_zp_check(const mrtq_qoperand *w, size_t nw, int mm, int32_t *zmax) {
  size_t o;
  (void)mm; /* only in the reasons, which a build may not keep */
  *zmax = 0;
  if (w->zp_ch && w->zp)
    return MRTQ__ERR(MRTQ_EINVAL, MRTQ__WHY2(mm, "b->zp: must be 0 beside b->zp_ch (which replaces it)",
                                             "w->zp: must be 0 beside w->zp_ch (which replaces it)"));
  if (!w->zp_ch && !mrtq__in_type(w->zp, w->type))
    return MRTQ__ERR(MRTQ_EINVAL, MRTQ__WHY2(mm, "b->zp: outside b->type's range", "w->zp: outside w->type's range"));
  for (o = 0; o < (w->zp_ch ? nw : 1); o++) {
    int32_t z = w->zp_ch ? w->zp_ch[o] : w->zp;
    if (!mrtq__in_type(z, w->type))
      return MRTQ__ERR(MRTQ_EINVAL, MRTQ__WHY2(mm, "b->zp_ch[j]: outside b->type's range", "w->zp_ch[o]: outside w->type's range"));
    if ((z < 0 ? -z : z) > (*zmax < 0 ? -*zmax : *zmax)) *zmax = z; /* a value of an 8- or 4-bit type: no overflow */
  }
  return MRTQ_OK;
}

/* The largest |bias[o]| of nb values (0 when bias is NULL). */
MRTQ__PRIV uint64_t mrtq__bias_max(const int32_t *bias, size_t nb) {
  uint64_t b = 0;
  size_t o;
  if (bias)
    for (o = 0; o < nb; o++) {
      uint64_t v = bias[o] < 0 ? (uint64_t)0 - (uint64_t)(int64_t)bias[o] : (uint64_t)bias[o];
      if (v > b) b = v;
    }
  return b;
}

/* Operands, zero points and the expansion's worst case within int32: for a
 * reduction of length k, |sum XW| + |zx sum W| + |zw sum X| + |k zx zw| +
 * |bias| < 2^31 bounds every partial sum and the result. nw zero points
 * (w->zp_ch, or w->zp when zp_ch is NULL) and nb bias values (bias may be
 * NULL; mrtq__dot_check_b takes their largest magnitude b instead). mm:
 * name the operands a, b (matmul) instead of x, w, and take only 8-bit b;
 * a convolution's w may also be MRTQ_S4 (|W| <= 8), which the
 * callers that cannot read int4 (attr.h, fastconv.h) refuse before. */
MRTQ__PRIV mrtq_status mrtq__dot_check_b(uint64_t k, const mrtq_qoperand *x, const mrtq_qoperand *w, size_t nw, uint64_t b,
                                         int mm) {
  uint64_t mx, mw, zx, zw;
  int32_t zmax;
  mrtq_status st;
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, MRTQ__WHY2(mm, "a: NULL", "x: NULL"));
  if (!w) return MRTQ__ERR(MRTQ_EINVAL, MRTQ__WHY2(mm, "b: NULL", "w: NULL"));
  if (!x->data) return MRTQ__ERR(MRTQ_EINVAL, MRTQ__WHY2(mm, "a->data: NULL", "x->data: NULL"));
  if (!w->data) return MRTQ__ERR(MRTQ_EINVAL, MRTQ__WHY2(mm, "b->data: NULL", "w->data: NULL"));
  if ((st = mm ? MRTQ__Q8_TYPE(x->type, "a->type") : MRTQ__Q8_TYPE(x->type, "x->type")) != MRTQ_OK) return st;
  if (mm) {
    if ((st = MRTQ__Q8_TYPE(w->type, "b->type")) != MRTQ_OK) return st;
  } else if (!mrtq__dtype_q8(w->type) && w->type != MRTQ_S4) { /* the convolution also takes int4 weights */
    if (!mrtq__dtype_ok(w->type)) return MRTQ__ERR(MRTQ_EINVAL, "w->type: not an mrtq_dtype (0: a zero-initialised operand)");
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "w->type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S4");
  }
  if (x->zp_ch)
    return MRTQ__ERR(MRTQ_EINVAL, MRTQ__WHY2(mm, "a->zp_ch: must be NULL (zero points per channel are B's)",
                                             "x->zp_ch: must be NULL (zero points per channel are the weights')"));
  if (!mrtq__in_type(x->zp, x->type))
    return MRTQ__ERR(MRTQ_EINVAL, MRTQ__WHY2(mm, "a->zp: outside a->type's range", "x->zp: outside x->type's range"));
  if ((st = mrtq__w_zp_check(w, nw, mm, &zmax)) != MRTQ_OK) return st;
  zw = (uint64_t)(zmax < 0 ? -zmax : zmax);
  mx = x->type == MRTQ_U8 ? 255 : 128, mw = w->type == MRTQ_U8 ? 255 : w->type == MRTQ_S4 ? 8 : 128;
  zx = (uint64_t)(x->zp < 0 ? -x->zp : x->zp);
  if (k > ((uint64_t)1 << 40) || k * mx * mw + zx * k * mw + zw * k * mx + k * zx * zw + b > (uint64_t)INT32_MAX)
    return MRTQ__ERR(MRTQ_EOVERFLOW,
                     MRTQ__WHY2(mm, "k: k |A| |B| + |za| k |B| + |zb| k |A| + k |za zb| + |bias| could overflow int32",
                                "s: K |X| |W| + |zx| K |W| + |zw| K |X| + K |zx zw| + |bias| could overflow int32 "
                                "(K = (c / groups) kh kw)"));
  return MRTQ_OK;
}
MRTQ__PRIV mrtq_status mrtq__dot_check(uint64_t k, const mrtq_qoperand *x, const mrtq_qoperand *w, size_t nw,
                                       const int32_t *bias, size_t nb, int mm) {
  return mrtq__dot_check_b(k, x, w, nw, mrtq__bias_max(bias, nb), mm);
}

/* Check everything and bound the expansion's terms; *k gets the reduction
 * length (c / groups) * kh * kw. */
MRTQ__PRIV mrtq_status mrtq__conv_check_ex(const mrtq_conv2d_shape *s, const mrtq_qoperand *x, const mrtq_qoperand *w,
                                           const int32_t *bias, size_t *ho, size_t *wo, uint64_t *k, int onednn) {
  mrtq_status st = mrtq__conv_out(s, ho, wo, onednn);
  if (st != MRTQ_OK) return st;
  *k = (uint64_t)(s->c / s->groups) * s->kh * s->kw;
  return mrtq__dot_check(*k, x, w, s->o, bias, s->o, 0);
}
MRTQ__PRIV mrtq_status mrtq__conv_check(const mrtq_conv2d_shape *s, const mrtq_qoperand *x, const mrtq_qoperand *w,
                                        const int32_t *bias, size_t *ho, size_t *wo, uint64_t *k) {
  return mrtq__conv_check_ex(s, x, w, bias, ho, wo, k, 0);
}

/* Whether padded-input position (iy, ix) is padding (outside the input). */
MRTQ__PRIV int mrtq__conv_pad(const mrtq_conv2d_shape *s, size_t iy, size_t ix) {
  return iy < s->pad_top || iy >= s->pad_top + s->h || ix < s->pad_left || ix >= s->pad_left + s->w;
}

/* Where weight (output channel o, channel c within its group, ky, kx) is in
 * s->w_layout (checked by mrtq_conv2d_out). */
MRTQ__PRIV size_t mrtq__conv_w_at(const mrtq_conv2d_shape *s, size_t o, size_t c, size_t ky, size_t kx) {
  size_t cg = s->c / s->groups;
  if (s->w_layout == MRTQ_W_TFLITE_DW) return (ky * s->kw + kx) * s->o + o; /* cg == 1, c == 0 */
  return s->layout == MRTQ_NCHW ? ((o * cg + c) * s->kh + ky) * s->kw + kx : ((o * s->kh + ky) * s->kw + kx) * cg + c;
}

/* The tap loops of mrtq__conv_at, written once for each way of reading a
 * weight (LOADW: an expression of wa, the weight's index), so that the type
 * switch stays out of them. */
#define MRTQ__CONV_TAPS(LOADW)                                                                                   \
  for (ky = 0; ky < s->kh; ky++)                                                                                \
    for (kx = 0; kx < s->kw; kx++) {                                                                            \
      size_t iy = oy * s->stride_h + ky * s->dil_h, ix = ox * s->stride_w + kx * s->dil_w;                      \
      size_t xa = 0; /* channel c of the group: src xa + c xst */                                               \
      int pad = mrtq__conv_pad(s, iy, ix);                                                                      \
      if (!pad) {                                                                                               \
        size_t yy = iy - s->pad_top, xx = ix - s->pad_left;                                                     \
        xa = nchw ? ((n * s->c + g * cg) * s->h + yy) * s->w + xx : ((n * s->h + yy) * s->w + xx) * s->c + g * cg; \
      }                                                                                                         \
      for (c = 0; c < cg; c++) {                                                                                \
        size_t wa = mrtq__conv_w_at(s, o, c, ky, kx);                                                           \
        int32_t wv = (LOADW), xv = pad ? zx /* a real zero */ : mrtq__q8(x->data, xa + c * xst, xu);             \
        sxw += xv * wv, sx += xv;                                                                               \
      }                                                                                                         \
    }

/* The expansion-form accumulator of one output element. */
MRTQ__PRIV int32_t mrtq__conv_at(const mrtq_conv2d_shape *s, const mrtq_qoperand *x, const mrtq_qoperand *w,
                                 const int32_t *bias, int32_t k, size_t n, size_t o, size_t oy, size_t ox, int32_t sw) {
  size_t cg = s->c / s->groups, og = s->o / s->groups, g = o / og, c, ky, kx;
  int32_t zx = x->zp, zw = w->zp_ch ? w->zp_ch[o] : w->zp, sxw = 0, sx = 0;
  int nchw = s->layout == MRTQ_NCHW, xu = x->type == MRTQ_U8, wu = w->type == MRTQ_U8;
  size_t xst = nchw ? s->h * s->w : 1; /* step between channels */
  if (w->type == MRTQ_S4) {
    MRTQ__CONV_TAPS(mrtq__s4(w->data, wa))
  } else if (wu) {
    MRTQ__CONV_TAPS((int32_t)((const uint8_t *)w->data)[wa])
  } else {
    MRTQ__CONV_TAPS((int32_t)((const int8_t *)w->data)[wa])
  }
  return sxw - zx * sw - zw * sx + k * zx * zw + (bias ? bias[o] : 0);
}
#undef MRTQ__CONV_TAPS

/* The sum of output channel o's weights. */
MRTQ__PRIV int32_t mrtq__conv_wsum(const mrtq_conv2d_shape *s, const mrtq_qoperand *w, size_t o) {
  size_t c, ky, kx, cg = s->c / s->groups;
  int32_t sum = 0;
  int s4 = w->type == MRTQ_S4, wu = w->type == MRTQ_U8;
  for (c = 0; c < cg; c++)
    for (ky = 0; ky < s->kh; ky++)
      for (kx = 0; kx < s->kw; kx++) {
        size_t wa = mrtq__conv_w_at(s, o, c, ky, kx);
        sum += s4 ? mrtq__s4(w->data, wa) : mrtq__q8(w->data, wa, wu);
      }
  return sum;
}

MRTQ__PRIV size_t mrtq__conv_out_at(const mrtq_conv2d_shape *s, size_t ho, size_t wo, size_t n, size_t o, size_t oy,
                                    size_t ox) {
  return s->layout == MRTQ_NCHW ? ((n * s->o + o) * ho + oy) * wo + ox : ((n * ho + oy) * wo + ox) * s->o + o;
}

MRTQ_API mrtq_status mrtq_conv2d_s32(const mrtq_conv2d_shape *s, const mrtq_qoperand *x, const mrtq_qoperand *w,
                                     const int32_t *bias, int32_t *acc) {
  size_t ho, wo, n, o, oy, ox;
  uint64_t k;
  mrtq_status st = mrtq__conv_check(s, x, w, bias, &ho, &wo, &k);
  if (st != MRTQ_OK) return st;
  if (!acc) return MRTQ__ERR(MRTQ_EINVAL, "acc: NULL");
  for (o = 0; o < s->o; o++) {
    int32_t sw = mrtq__conv_wsum(s, w, o);
    for (n = 0; n < s->n; n++)
      for (oy = 0; oy < ho; oy++)
        for (ox = 0; ox < wo; ox++)
          acc[mrtq__conv_out_at(s, ho, wo, n, o, oy, ox)] = mrtq__conv_at(s, x, w, bias, (int32_t)k, n, o, oy, ox, sw);
  }
  return MRTQ_OK;
}

/* The requantization arguments of the _q8 kernels: rq, nrq (1 or nout),
 * dst_type, out. */
MRTQ__PRIV mrtq_status mrtq__q8_out_check(const mrtq_rq *rq, size_t nrq, size_t nout, int mm, mrtq_dtype dst_type,
                                          const void *out) {
  mrtq_status st;
  (void)mm; /* read by the reasons only */
  if (!rq) return MRTQ__ERR(MRTQ_EINVAL, "rq: NULL");
  if (nrq != 1 && nrq != nout) return MRTQ__ERR(MRTQ_EINVAL, MRTQ__WHY2(mm, "nrq: must be 1 or n", "nrq: must be 1 or s->o (o)"));
  if ((st = mrtq__rq_args(rq, nrq, nrq > 1, NULL, 0, NULL)) != MRTQ_OK) return st;
  if ((st = MRTQ__Q8_TYPE(dst_type, "dst_type")) != MRTQ_OK) return st;
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_conv2d_q8(const mrtq_conv2d_shape *s, const mrtq_rq *rq, size_t nrq, const mrtq_qoperand *x,
                                    const mrtq_qoperand *w, const int32_t *bias, mrtq_dtype dst_type, void *out) {
  size_t ho, wo, n, o, oy, ox;
  uint64_t k;
  int32_t lo = dst_type == MRTQ_U8 ? 0 : -128, hi = dst_type == MRTQ_U8 ? 255 : 127;
  mrtq_status st = mrtq__conv_check(s, x, w, bias, &ho, &wo, &k);
  if (st != MRTQ_OK) return st;
  if ((st = mrtq__q8_out_check(rq, nrq, s->o, 0, dst_type, out)) != MRTQ_OK) return st;
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

MRTQ_API mrtq_status mrtq_fc_s32(size_t rows, size_t k, size_t o, const mrtq_qoperand *x, const mrtq_qoperand *w,
                                 const int32_t *bias, int32_t *acc) {
  mrtq_conv2d_shape s = mrtq_fc_shape(rows, k, o);
  return mrtq_conv2d_s32(&s, x, w, bias, acc);
}

MRTQ_API mrtq_status mrtq_fc_q8(size_t rows, size_t k, size_t o, const mrtq_rq *rq, size_t nrq, const mrtq_qoperand *x,
                                const mrtq_qoperand *w, const int32_t *bias, mrtq_dtype dst_type, void *out) {
  mrtq_conv2d_shape s = mrtq_fc_shape(rows, k, o);
  return mrtq_conv2d_q8(&s, rq, nrq, x, w, bias, dst_type, out);
}

/* The sizes of a batched matrix multiplication (every matmul kernel's first
 * check): each >= 1, every operand's element count within size_t. */
MRTQ__PRIV mrtq_status mrtq__matmul_shape(size_t batch, size_t m, size_t k, size_t n, int b_shared) {
  size_t bb = b_shared ? 1 : batch;
  if (!batch) return MRTQ__ERR(MRTQ_ESHAPE, "batch: must be >= 1");
  if (!m) return MRTQ__ERR(MRTQ_ESHAPE, "m: must be >= 1");
  if (!k) return MRTQ__ERR(MRTQ_ESHAPE, "k: must be >= 1");
  if (!n) return MRTQ__ERR(MRTQ_ESHAPE, "n: must be >= 1");
  if (batch > SIZE_MAX / m || batch * m > SIZE_MAX / k || batch * m > SIZE_MAX / n)
    return MRTQ__ERR(MRTQ_ESHAPE, "batch, m, k, n: A's or Y's element count overflows size_t");
  if (bb > SIZE_MAX / k || bb * k > SIZE_MAX / n)
    return MRTQ__ERR(MRTQ_ESHAPE, "batch, k, n: B's element count overflows size_t");
  return MRTQ_OK;
}

MRTQ__PRIV mrtq_status mrtq__matmul_check(size_t batch, size_t m, size_t k, size_t n, const mrtq_qoperand *a,
                                          const mrtq_qoperand *b, int b_shared, const int32_t *bias) {
  mrtq_status st = mrtq__matmul_shape(batch, m, k, n, b_shared);
  if (st != MRTQ_OK) return st;
  return mrtq__dot_check((uint64_t)k, a, b, n, bias, n, 1);
}

/* One batch of the expansion form: int32 values into out, or requantized
 * bytes when rq is not NULL. */
MRTQ__PRIV void mrtq__matmul_batch(size_t bi, size_t m, size_t k, size_t n, const mrtq_qoperand *a,
                                   const mrtq_qoperand *b, int b_shared, const int32_t *bias, const mrtq_rq *rq,
                                   size_t nrq, mrtq_dtype dst_type, void *out) {
  size_t i, j, t, ab = bi * m * k, bb = b_shared ? 0 : bi * k * n;
  int au = a->type == MRTQ_U8, bu = b->type == MRTQ_U8;
  int32_t lo = dst_type == MRTQ_U8 ? 0 : -128, hi = dst_type == MRTQ_U8 ? 255 : 127, za = a->zp;
  for (j = 0; j < n; j++) {
    int32_t zb = b->zp_ch ? b->zp_ch[j] : b->zp, colsum = 0;
    for (t = 0; t < k; t++) colsum += mrtq__q8(b->data, bb + t * n + j, bu);
    for (i = 0; i < m; i++) {
      int32_t dot = 0, rowsum = 0, acc;
      for (t = 0; t < k; t++) {
        int32_t av = mrtq__q8(a->data, ab + i * k + t, au);
        dot += av * mrtq__q8(b->data, bb + t * n + j, bu);
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

MRTQ_API mrtq_status mrtq_matmul_s32(size_t batch, size_t m, size_t k, size_t n, const mrtq_qoperand *a,
                                     const mrtq_qoperand *b, int b_shared, const int32_t *bias, int32_t *acc) {
  size_t bi;
  mrtq_status st = mrtq__matmul_check(batch, m, k, n, a, b, b_shared, bias);
  if (st != MRTQ_OK) return st;
  if (!acc) return MRTQ__ERR(MRTQ_EINVAL, "acc: NULL");
  for (bi = 0; bi < batch; bi++) mrtq__matmul_batch(bi, m, k, n, a, b, b_shared, bias, NULL, 0, MRTQ_S8, acc);
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_matmul_q8(size_t batch, size_t m, size_t k, size_t n, const mrtq_rq *rq, size_t nrq,
                                    const mrtq_qoperand *a, const mrtq_qoperand *b, int b_shared, const int32_t *bias,
                                    mrtq_dtype dst_type, void *out) {
  size_t bi;
  mrtq_status st = mrtq__matmul_check(batch, m, k, n, a, b, b_shared, bias);
  if (st != MRTQ_OK) return st;
  if ((st = mrtq__q8_out_check(rq, nrq, n, 1, dst_type, out)) != MRTQ_OK) return st;
  for (bi = 0; bi < batch; bi++) mrtq__matmul_batch(bi, m, k, n, a, b, b_shared, bias, rq, nrq, dst_type, out);
  return MRTQ_OK;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_CONV_H */
