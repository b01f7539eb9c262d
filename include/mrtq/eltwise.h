/* mrtq/eltwise.h -- elementwise quantized operators (ReLU / clamp, and with
 * NumPy-style broadcasting: TFLite's int8/uint8 ADD and MUL, bit-exact with TFLite's
 * reference kernels (tensorflow/lite/kernels/internal/reference/
 * integer_ops/add.h and mul.h, default build: double rounding); MRT's
 * broadcast_add / sub / mul and lazy merge by add on int32 expansion tensors
 * with per-input rescaling). */
#ifndef MRTQ_ELTWISE_H
#define MRTQ_ELTWISE_H

#include "requant.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MRTQ_MAX_DIMS 8

/* Broadcasting of two shapes (NumPy rules: aligned at the last dimension;
 * each pair of sizes equal, or one of them 1). */
typedef struct mrtq_bcast {
  int ndim;
  size_t out[MRTQ_MAX_DIMS];        /* output shape */
  size_t sa[MRTQ_MAX_DIMS], sb[MRTQ_MAX_DIMS]; /* element strides of a and b (0 where broadcast) */
  size_t n;                         /* output elements */
} mrtq_bcast;

/* Errors: NULL, a rank outside [0, MRTQ_MAX_DIMS] -> MRTQ_EINVAL; a zero
 * dimension, incompatible sizes, or an element count overflowing size_t ->
 * MRTQ_ESHAPE. A rank-0 shape is a scalar. */
MRTQ_API mrtq_status mrtq_bcast_init(const size_t *shape_a, int nda, const size_t *shape_b, int ndb, mrtq_bcast *bc) {
  int i, nd;
  size_t ta = 1, tb = 1;
  if (!bc || nda < 0 || ndb < 0 || nda > MRTQ_MAX_DIMS || ndb > MRTQ_MAX_DIMS || (nda && !shape_a) ||
      (ndb && !shape_b))
    return MRTQ_EINVAL;
  nd = nda > ndb ? nda : ndb;
  bc->ndim = nd;
  bc->n = 1;
  for (i = nd - 1; i >= 0; i--) { /* from the last dimension */
    int ia = i - (nd - nda), ib = i - (nd - ndb);
    size_t a = ia >= 0 ? shape_a[ia] : 1, b = ib >= 0 ? shape_b[ib] : 1, o;
    if (a == 0 || b == 0 || (a != b && a != 1 && b != 1)) return MRTQ_ESHAPE;
    o = a > b ? a : b;
    bc->out[i] = o;
    bc->sa[i] = a == 1 ? 0 : ta;
    bc->sb[i] = b == 1 ? 0 : tb;
    if (ta > SIZE_MAX / a || tb > SIZE_MAX / b || bc->n > SIZE_MAX / o) return MRTQ_ESHAPE;
    ta *= a, tb *= b, bc->n *= o;
  }
  return MRTQ_OK;
}

/* Element offsets of a and b for output element `at` (row-major). */
MRTQ_API void mrtq__bcast_at(const mrtq_bcast *bc, size_t at, size_t *ia, size_t *ib) {
  int i;
  *ia = 0, *ib = 0;
  for (i = bc->ndim - 1; i >= 0; i--) {
    size_t k = at % bc->out[i];
    at /= bc->out[i];
    *ia += k * bc->sa[i], *ib += k * bc->sb[i];
  }
}

/* ---- TFLite ADD ----
 * With T = 2 max(s1, s2) and left shift L = 20 (all in double, as TFLite's
 * Prepare): multipliers m1 = Q31(s1 / T), m2 = Q31(s2 / T), mo = Q31(T /
 * (2^L s_out)) (mrtq_mult_q31; all shifts <= 0). Per element:
 *   v1 = (a - zp1) * 2^L,  v2 = (b - zp2) * 2^L,
 *   y = mul_q31_dbl(mul_q31_dbl(v1, m1) + mul_q31_dbl(v2, m2), mo) + zp_out,
 *   out = clamp(y, qmin, qmax)
 * (mul_q31_dbl: SRDHM, ties toward +inf, then RDIVPOT, ties away from 0). */
typedef struct mrtq_tflite_add_params {
  mrtq_mult m1, m2, mo;
  int32_t zp1, zp2, zp_out, qmin, qmax;
  int left_shift, is_unsigned;
} mrtq_tflite_add_params;

/* The arguments every binary operator checks: three finite positive scales,
 * zero points and bounds within the type, qmin <= qmax. */
MRTQ_API int mrtq__binary_args_ok(double s1, int32_t zp1, double s2, int32_t zp2, double s_out, int32_t zp_out,
                                  int32_t qmin, int32_t qmax, int is_unsigned) {
  return !mrtq__nonfinite(s1) && !mrtq__nonfinite(s2) && !mrtq__nonfinite(s_out) && s1 > 0 && s2 > 0 && s_out > 0 &&
         mrtq__in_q8(zp1, is_unsigned) && mrtq__in_q8(zp2, is_unsigned) && mrtq__in_q8(zp_out, is_unsigned) &&
         mrtq__in_q8(qmin, is_unsigned) && mrtq__in_q8(qmax, is_unsigned) && qmin <= qmax;
}

/* Errors: NULL, a scale NaN, infinite or <= 0, a zero point or bound outside
 * the type (int8, or uint8 when is_unsigned), qmin > qmax -> MRTQ_EINVAL; an
 * output multiplier >= 1 (TFLite refuses it) or a multiplier that flushes to 0
 * -> MRTQ_ERANGE. On error *p is zeroed. */
MRTQ_API mrtq_status mrtq_tflite_add_init(double s1, int32_t zp1, double s2, int32_t zp2, double s_out, int32_t zp_out,
                                          int32_t qmin, int32_t qmax, int is_unsigned, mrtq_tflite_add_params *p) {
  double t, r1, r2, ro;
  if (p) memset(p, 0, sizeof *p);
  if (!p || !mrtq__binary_args_ok(s1, zp1, s2, zp2, s_out, zp_out, qmin, qmax, is_unsigned)) return MRTQ_EINVAL;
  p->left_shift = 20;
  t = 2 * (s1 > s2 ? s1 : s2);
  r1 = s1 / t, r2 = s2 / t, ro = t / ((double)(1 << p->left_shift) * s_out);
  if (!(ro < 1.0)) return MRTQ_ERANGE;
  mrtq_mult_q31(r1, &p->m1);
  mrtq_mult_q31(r2, &p->m2);
  mrtq_mult_q31(ro, &p->mo);
  if (p->m1.mult == 0 || p->m2.mult == 0 || p->mo.mult == 0) return MRTQ_ERANGE;
  p->zp1 = zp1, p->zp2 = zp2, p->zp_out = zp_out, p->qmin = qmin, p->qmax = qmax, p->is_unsigned = is_unsigned;
  return MRTQ_OK;
}

/* One element (a, b: the stored int8/uint8 values). */
MRTQ_API int32_t mrtq_tflite_add_one(const mrtq_tflite_add_params *p, int32_t a, int32_t b) {
  int32_t v1 = (a - p->zp1) * (1 << p->left_shift), v2 = (b - p->zp2) * (1 << p->left_shift); /* |.| <= 255 * 2^20 */
  int32_t sum = mrtq_mul_q31_dbl(v1, p->m1) + mrtq_mul_q31_dbl(v2, p->m2);  /* each |.| <= 2^27 */
  return mrtq__clamp64((int64_t)mrtq_mul_q31_dbl(sum, p->mo) + p->zp_out, p->qmin, p->qmax);
}

/* ---- TFLite MUL ----
 * m = Q31(s1 s2 / s_out) (double), y = mul_q31_dbl((a - zp1)(b - zp2), m) +
 * zp_out, clamped. */
typedef struct mrtq_tflite_mul_params {
  mrtq_mult m;
  int32_t zp1, zp2, zp_out, qmin, qmax;
  int is_unsigned;
} mrtq_tflite_mul_params;

/* Errors as mrtq_tflite_add_init; MRTQ_ERANGE for a multiplier that flushes to
 * 0 or has shift > 15 (TFLite's left shift would overflow int32). On error *p
 * is zeroed. */
MRTQ_API mrtq_status mrtq_tflite_mul_init(double s1, int32_t zp1, double s2, int32_t zp2, double s_out, int32_t zp_out,
                                          int32_t qmin, int32_t qmax, int is_unsigned, mrtq_tflite_mul_params *p) {
  if (p) memset(p, 0, sizeof *p);
  if (!p || !mrtq__binary_args_ok(s1, zp1, s2, zp2, s_out, zp_out, qmin, qmax, is_unsigned)) return MRTQ_EINVAL;
  if (mrtq__nonfinite(s1 * s2 / s_out) || mrtq_mult_q31(s1 * s2 / s_out, &p->m) != MRTQ_OK || p->m.mult == 0 ||
      p->m.shift > 15)
    return MRTQ_ERANGE;
  p->zp1 = zp1, p->zp2 = zp2, p->zp_out = zp_out, p->qmin = qmin, p->qmax = qmax, p->is_unsigned = is_unsigned;
  return MRTQ_OK;
}

MRTQ_API int32_t mrtq_tflite_mul_one(const mrtq_tflite_mul_params *p, int32_t a, int32_t b) {
  return mrtq__clamp64((int64_t)mrtq_mul_q31_dbl((a - p->zp1) * (b - p->zp2), p->m) + p->zp_out, p->qmin, p->qmax);
}

/* ---- XNNPACK ADD / SUBTRACT (qs8, qu8) ----
 * XNNPACK's own fixed-point scheme (operator creation and scalar/SIMD
 * kernels of the 2022 releases, Debian's libxnnpack):
 *   ra = fl(s1 / s_out), rb = fl(s2 / s_out)  (float divisions), each in
 *        [2^-10, 2^8);
 *   shift = 20 - e, e the binary exponent of max(ra, rb)  (shift in [12, 30]);
 *   ma = rne(ra * 2^shift), mb = rne(rb * 2^shift)  (negated for subtract);
 *   acc = (a - zp1) ma + (b - zp2) mb + 2^(shift - 1);
 *   out = clamp(floor(acc / 2^shift), qmin - zp_out, qmax - zp_out) + zp_out
 * i.e. one rounding, ties toward +inf, of the sum scaled by 20-21-bit
 * multipliers. Every intermediate fits int32. */
typedef struct mrtq_xnn_add_params {
  int32_t ma, mb, shift, zp1, zp2, zp_out, qmin, qmax;
  int is_unsigned;
} mrtq_xnn_add_params;

/* Errors: NULL, a scale not finite and positive (or subnormal: XNNPACK
 * refuses those), a zero point or bound outside the type, qmin > qmax ->
 * MRTQ_EINVAL; a ratio s / s_out outside [2^-10, 2^8) -> MRTQ_ERANGE
 * (XNNPACK: unsupported parameter). On error *p is zeroed. */
MRTQ_API mrtq_status mrtq_xnn_add_init(float s1, int32_t zp1, float s2, int32_t zp2, float s_out, int32_t zp_out,
                                       int32_t qmin, int32_t qmax, int is_unsigned, int subtract,
                                       mrtq_xnn_add_params *p) {
  float ra, rb, mx;
  uint32_t bits;
  if (p) memset(p, 0, sizeof *p);
  if (!p || !mrtq__binary_args_ok(s1, zp1, s2, zp2, s_out, zp_out, qmin, qmax, is_unsigned) ||
      !(s1 >= 1.17549435e-38f) || !(s2 >= 1.17549435e-38f) || !(s_out >= 1.17549435e-38f))
    return MRTQ_EINVAL;
  /* a float quotient: the double quotient rounded to float is the correctly
   * rounded float quotient (53 >= 2 * 24 + 2) */
  ra = (float)((double)s1 / (double)s_out), rb = (float)((double)s2 / (double)s_out);
  if (!(ra >= 0.0009765625f && ra < 256.0f && rb >= 0.0009765625f && rb < 256.0f)) return MRTQ_ERANGE; /* [2^-10, 2^8) */
  mx = ra > rb ? ra : rb;
  memcpy(&bits, &mx, sizeof bits);
  p->shift = 20 - ((int32_t)(bits >> 23) - 127); /* mx is normal: its biased exponent */
  /* exact products (a power of two, no overflow), then round half to even */
  p->ma = (int32_t)mrtq__rne_f32(ra * (float)((int32_t)1 << p->shift));
  p->mb = (int32_t)mrtq__rne_f32(rb * (float)((int32_t)1 << p->shift));
  if (subtract) p->mb = -p->mb;
  p->zp1 = zp1, p->zp2 = zp2, p->zp_out = zp_out, p->qmin = qmin, p->qmax = qmax, p->is_unsigned = is_unsigned;
  return MRTQ_OK;
}

/* One element (a, b: the stored values). */
MRTQ_API int32_t mrtq_xnn_add_one(const mrtq_xnn_add_params *p, int32_t a, int32_t b) {
  int32_t half = p->shift > 0 && p->shift < 31 ? (int32_t)1 << (p->shift - 1) : 0; /* (zeroed params: no UB) */
  int32_t acc = (a - p->zp1) * p->ma + (b - p->zp2) * p->mb + half; /* |.| < 2^31 */
  int32_t v = mrtq__asr32(acc, p->shift);
  return v < p->qmin - p->zp_out ? p->qmin : v > p->qmax - p->zp_out ? p->qmax : v + p->zp_out;
}

/* Broadcast loops over raw bytes (int8 or uint8 per the parameters). */
MRTQ_API mrtq_status mrtq__eltwise(int op, const void *prm, int is_unsigned, const void *a, const size_t *shape_a,
                                   int nda, const void *b, const size_t *shape_b, int ndb, void *out) {
  mrtq_bcast bc;
  mrtq_status st = mrtq_bcast_init(shape_a, nda, shape_b, ndb, &bc);
  const uint8_t *pa = (const uint8_t *)a, *pb = (const uint8_t *)b;
  uint8_t *po = (uint8_t *)out;
  size_t i;
  if (st != MRTQ_OK) return st;
  if (!prm || !a || !b || !out) return MRTQ_EINVAL;
  for (i = 0; i < bc.n; i++) {
    size_t ia, ib;
    int32_t x, y, r;
    mrtq__bcast_at(&bc, i, &ia, &ib);
    x = is_unsigned ? (int32_t)pa[ia] : (int32_t)(int8_t)pa[ia];
    y = is_unsigned ? (int32_t)pb[ib] : (int32_t)(int8_t)pb[ib];
    r = op == 2   ? mrtq_xnn_add_one((const mrtq_xnn_add_params *)prm, x, y)
        : op == 1 ? mrtq_tflite_mul_one((const mrtq_tflite_mul_params *)prm, x, y)
                  : mrtq_tflite_add_one((const mrtq_tflite_add_params *)prm, x, y);
    po[i] = (uint8_t)r;
  }
  return MRTQ_OK;
}

/* out = a + b (TFLite ADD) over the broadcast of shape_a and shape_b; out
 * holds the broadcast shape's elements. a, b, out are int8 or uint8 arrays as
 * p->is_unsigned says. Errors: NULL -> MRTQ_EINVAL; shapes as
 * mrtq_bcast_init. */
MRTQ_API mrtq_status mrtq_tflite_add(const mrtq_tflite_add_params *p, const void *a, const size_t *shape_a, int nda,
                                     const void *b, const size_t *shape_b, int ndb, void *out) {
  return mrtq__eltwise(0, p, p ? p->is_unsigned : 0, a, shape_a, nda, b, shape_b, ndb, out);
}

/* out = a * b (TFLite MUL), as mrtq_tflite_add. */
MRTQ_API mrtq_status mrtq_tflite_mul(const mrtq_tflite_mul_params *p, const void *a, const size_t *shape_a, int nda,
                                     const void *b, const size_t *shape_b, int ndb, void *out) {
  return mrtq__eltwise(1, p, p ? p->is_unsigned : 0, a, shape_a, nda, b, shape_b, ndb, out);
}

/* out = a + b (or a - b) in XNNPACK's scheme, with broadcasting; as
 * mrtq_tflite_add. */
MRTQ_API mrtq_status mrtq_xnn_add(const mrtq_xnn_add_params *p, const void *a, const size_t *shape_a, int nda,
                                  const void *b, const size_t *shape_b, int ndb, void *out) {
  return mrtq__eltwise(2, p, p ? p->is_unsigned : 0, a, shape_a, nda, b, shape_b, ndb, out);
}

/* ---- MRT operators on expansion tensors ----
 * In MRT's formalization an operator's int32 output (its "expansion", real
 * value (X - zp) * scale) is realized into a narrower integer before the next
 * operator: scaled to a target scale and clipped to a precision. An
 * mrtq_etensor names one input: its int32 values, shape, zero point and the
 * optional rescale. Element value:
 *   d = X - zp (exact; must lie in int32, else MRTQ_EOVERFLOW),
 *   v = rq ? mrtq_rq_apply(rq, d, INT32_MIN, INT32_MAX) : d
 * so v lies in [rq->qmin, rq->qmax] with a rescale, and is the value itself
 * without one. The rescale's scale is s_in / s_common (real steps; MRT's
 * sc_common / sc_in) and any family; mrtq_mrt_realize_init builds MRT's own:
 * zero point 0 and the symmetric clip to prec bits. */
typedef struct mrtq_etensor {
  const int32_t *data;
  const size_t *shape;
  int ndim;
  int32_t zp;
  const mrtq_rq *rq; /* NULL: no rescale */
} mrtq_etensor;

/* A rescale by `scale` through `scheme`, zero point 0, clipped to
 * [-(2^(prec-1) - 1), 2^(prec-1) - 1] (MRT's realize into prec bits; with
 * MRTQ_Q31_RNDNU it is MRT's cvm_right_shift of the encoded fraction: ties
 * toward +inf). Errors: prec outside [2, 32] -> MRTQ_EINVAL; otherwise as
 * mrtq_rq_init. */
MRTQ_API mrtq_status mrtq_mrt_realize_init(mrtq_rq *rq, mrtq_scheme scheme, double scale, int prec) {
  int32_t lim;
  if (prec < 2 || prec > 32) return MRTQ_EINVAL;
  lim = (int32_t)(((int64_t)1 << (prec - 1)) - 1);
  return mrtq_rq_init(rq, scheme, scale, 0, -lim, lim);
}

MRTQ_API int32_t mrtq__ev(const mrtq_etensor *t, size_t at) {
  int32_t d = (int32_t)((int64_t)t->data[at] - t->zp); /* in range: checked by mrtq__ebounds */
  return t->rq ? mrtq_rq_apply(t->rq, d, INT32_MIN, INT32_MAX) : d;
}

/* The element count of t (shape checked) and the range [lo, hi] of its
 * values v. */
MRTQ_API mrtq_status mrtq__ebounds(const mrtq_etensor *t, size_t *count, int64_t *lo, int64_t *hi) {
  size_t n = 1, i;
  int d;
  if (!t || !t->data || t->ndim < 0 || t->ndim > MRTQ_MAX_DIMS || (t->ndim && !t->shape)) return MRTQ_EINVAL;
  for (d = 0; d < t->ndim; d++) {
    if (t->shape[d] == 0 || n > SIZE_MAX / t->shape[d]) return MRTQ_ESHAPE;
    n *= t->shape[d];
  }
  *count = n;
  *lo = INT32_MAX, *hi = INT32_MIN;
  for (i = 0; i < n; i++) {
    int64_t v = (int64_t)t->data[i] - t->zp;
    if (v < INT32_MIN || v > INT32_MAX) return MRTQ_EOVERFLOW;
    if (v < *lo) *lo = v;
    if (v > *hi) *hi = v;
  }
  if (t->rq) *lo = t->rq->qmin, *hi = t->rq->qmax;
  return MRTQ_OK;
}

enum { MRTQ_MRT_ADD = 0, MRTQ_MRT_SUB = 1, MRTQ_MRT_MUL = 2 };

/* MRT's broadcast_add, broadcast_sub and broadcast_mul on expansion tensors
 * (NumPy broadcasting, as mrtq_bcast_init): out = va + vb, va - vb or
 * va * vb, an int32 expansion of scale s_common (add, sub: both inputs
 * rescaled to one scale, see mrtq_merge_scale) or s_a' * s_b' (mul: the
 * product of the inputs' scales after their rescales). The result's range
 * follows from the inputs' ranges (interval arithmetic: the rescales'
 * [qmin, qmax], else the values' own range); a range outside int32 ->
 * MRTQ_EOVERFLOW before anything is written (precision inference:
 * add/sub max(pa, pb) + 1, mul pa + pb bits, must not exceed 32).
 * Errors: NULL, an unknown op, a rank outside [0, MRTQ_MAX_DIMS] ->
 * MRTQ_EINVAL; shapes as mrtq_bcast_init -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_mrt_binary(int op, const mrtq_etensor *a, const mrtq_etensor *b, int32_t *out) {
  mrtq_bcast bc;
  size_t na, nb, i;
  int64_t la, ha, lb, hb, lo, hi;
  mrtq_status st;
  if (!a || !b || !out || op < MRTQ_MRT_ADD || op > MRTQ_MRT_MUL) return MRTQ_EINVAL;
  st = mrtq_bcast_init(a->shape, a->ndim, b->shape, b->ndim, &bc);
  if (st == MRTQ_OK) st = mrtq__ebounds(a, &na, &la, &ha);
  if (st == MRTQ_OK) st = mrtq__ebounds(b, &nb, &lb, &hb);
  if (st != MRTQ_OK) return st;
  if (op == MRTQ_MRT_ADD) lo = la + lb, hi = ha + hb;
  else if (op == MRTQ_MRT_SUB) lo = la - hb, hi = ha - lb;
  else {
    int64_t p[4];
    int k;
    p[0] = la * lb, p[1] = la * hb, p[2] = ha * lb, p[3] = ha * hb;
    lo = hi = p[0];
    for (k = 1; k < 4; k++) lo = p[k] < lo ? p[k] : lo, hi = p[k] > hi ? p[k] : hi;
  }
  if (lo < INT32_MIN || hi > INT32_MAX) return MRTQ_EOVERFLOW;
  for (i = 0; i < bc.n; i++) {
    size_t ia, ib;
    int64_t x, y;
    mrtq__bcast_at(&bc, i, &ia, &ib);
    x = mrtq__ev(a, ia), y = mrtq__ev(b, ib);
    out[i] = (int32_t)(op == MRTQ_MRT_ADD ? x + y : op == MRTQ_MRT_SUB ? x - y : x * y);
  }
  return MRTQ_OK;
}

/* MRT's lazy merge by broadcast_add: n parts of one shape summed after their
 * rescales to the common scale (mrtq_merge_scale):
 *   out = sum_i v_i  (MRT: Xe = sum_i (sc_xe / sc_xei) Xei)
 * The sum of the parts' ranges (interval arithmetic; at most the precision
 * rule's max p + bitlen(n) bits) must lie in int32, else MRTQ_EOVERFLOW
 * before anything is written. Errors: NULL, n == 0 or n >
 * 2^31, a rank outside [0, MRTQ_MAX_DIMS] -> MRTQ_EINVAL; parts of different
 * shapes, a zero dimension, sizes overflowing size_t -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_mrt_merge_add(const mrtq_etensor *parts, size_t n, int32_t *out) {
  size_t count = 0, c, i, k;
  int64_t lo = 0, hi = 0;
  int d;
  if (!parts || !out || n == 0 || n > ((size_t)1 << 31)) return MRTQ_EINVAL;
  for (k = 0; k < n; k++) {
    int64_t l, h;
    mrtq_status st = mrtq__ebounds(&parts[k], &c, &l, &h);
    if (st != MRTQ_OK) return st;
    if (parts[k].ndim != parts[0].ndim) return MRTQ_ESHAPE;
    for (d = 0; d < parts[k].ndim; d++)
      if (parts[k].shape[d] != parts[0].shape[d]) return MRTQ_ESHAPE;
    count = c, lo += l, hi += h; /* |bounds| <= 2^31 each, n <= 2^31: no int64 overflow */
  }
  if (lo < INT32_MIN || hi > INT32_MAX) return MRTQ_EOVERFLOW;
  for (i = 0; i < count; i++) {
    int64_t acc = 0;
    for (k = 0; k < n; k++) acc += mrtq__ev(&parts[k], i);
    out[i] = (int32_t)acc;
  }
  return MRTQ_OK;
}

/* ---- ReLU and clamp on quantized values ----
 * A real clamp [lo, hi] of a tensor with (scale, zp) is a clamp of the stored
 * values to [q(lo), q(hi)], q = mrtq_quantize_f32 (round half to even) within
 * the type; ReLU is lo = 0 (q = zp), hi = +inf (the type's maximum), ReLU6 is
 * [0, 6]. mrtq_clamp_bounds gives the stored bounds (NaN bounds, lo > hi,
 * scale not finite and positive, zp outside the type -> MRTQ_EINVAL);
 * mrtq_clamp_q applies them to n stored values (in place allowed; bounds
 * outside the type or qlo > qhi -> MRTQ_EINVAL). */
MRTQ_API mrtq_status mrtq_clamp_bounds(float lo, float hi, float scale, int32_t zp, int is_unsigned, int32_t *qlo,
                                       int32_t *qhi) {
  int32_t tmin = is_unsigned ? 0 : -128, tmax = is_unsigned ? 255 : 127;
  if (!qlo || !qhi || lo != lo || hi != hi || !(lo <= hi) || mrtq__nonfinite_f32(scale) || !(scale > 0) ||
      zp < tmin || zp > tmax)
    return MRTQ_EINVAL;
  *qlo = mrtq_quantize_f32(lo, scale, zp, tmin, tmax);
  *qhi = mrtq_quantize_f32(hi, scale, zp, tmin, tmax);
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_clamp_q(const void *x, size_t n, int32_t qlo, int32_t qhi, int is_unsigned, void *out) {
  const uint8_t *s = (const uint8_t *)x;
  uint8_t *d = (uint8_t *)out;
  size_t i;
  if ((!x || !out) && n) return MRTQ_EINVAL;
  if (qlo > qhi || !mrtq__in_q8(qlo, is_unsigned) || !mrtq__in_q8(qhi, is_unsigned)) return MRTQ_EINVAL;
  for (i = 0; i < n; i++) {
    int32_t v = is_unsigned ? (int32_t)s[i] : (int32_t)(int8_t)s[i];
    d[i] = (uint8_t)(v < qlo ? qlo : v > qhi ? qhi : v);
  }
  return MRTQ_OK;
}

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_ELTWISE_H */
