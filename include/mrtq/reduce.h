/* mrtq/reduce.h -- TFLite's quantized MEAN and SUM over axes (layer 6;
 * includes mrtq/eltwise.h for MRTQ_MAX_DIMS and mrtq/requant.h for the Q31
 * multiply).
 *
 * Bit-exact with TFLite's integer reference reductions for int8, uint8 and
 * int16 (normative math: docs/kernels.md 4.21):
 *   function                path (TFLite code it matches)
 *   mrtq_tflite_mean        the general integer QuantizedMeanOrSum
 *                           (kernels/internal/reference/reduce.h, mean): what
 *                           the TF interpreter's reference MEAN runs for every
 *                           int8 / uint8 / int16 input (reduce.cc EvalMean<
 *                           kReference>, tensorflow/tensorflow b1fb6997) and
 *                           TFLite Micro's MEAN for int8 / int16 (reduce_common.cc,
 *                           tflite-micro 90b983c2)
 *   mrtq_tflite_sum         the same function with compute_sum: TF interpreter
 *                           SUM for int8 / uint8; int16 SUM there has no
 *                           requantization (equal scales and zero points
 *                           required, the int16 sum wraps)
 *   mrtq_tflite_sum_micro   TFLite Micro's SUM for int8 / int16 (QuantizedMeanOrSum
 *                           with compute_sum for both)
 *   mrtq_tflite_mean_hw     reference_integer_ops::Mean (integer_ops/mean.h):
 *                           the 4-D mean over height and width with keep_dims
 *                           that older TFLite runs for int8 (and later int16)
 *                           (reduce.cc EvalMeanReferenceOps in TF 2.x before the
 *                           general path took over; TFLite Micro before it
 *                           moved to QuantizedMeanOrSum)
 * All take the parameters Prepare computes (mrtq_tflite_reduce_init):
 * m = QuantizeMultiplier((double)s_in / (double)s_out), the same in both
 * TFLites. keep_dims changes only the output's shape (mrtq_tflite_reduce_shape),
 * never its elements or their order.
 *
 * General path, per output element o (n = the product of the reduced dims,
 * S = the sum of its n inputs, modulo 2^32 as TFLite's int32 accumulator):
 *   t = (S - zp_in * n) mod 2^32, as an int32
 *   SUM:  y = mul_q31_dbl(t, m)
 *   MEAN: k = min(floor(log2 n), 32, 31 + m.shift);
 *         m' = {floor(m.mult * 2^k / n), m.shift - k};  y = mul_q31_dbl(t, m')
 *   out = clamp(y + zp_out, type's range)
 * (mul_q31_dbl: rounding to nearest twice, ties toward +infinity then away
 * from zero.) An input with no elements gives outputs 0 (not zp_out), as
 * TFLite fills them.
 * Height-width path, per [b][c] (n = H W):
 *   a = sum_{h,w} (x - zp_in) mod 2^32;  y = mul_q31_dbl(a, m);
 *   q = y / n rounded to nearest, ties away from zero (TFLite's
 *       (y +- floor(n / 2)) / n with C's truncating division);
 *   out = clamp(q + zp_out, type's range). */
#ifndef MRTQ_REDUCE_H
#define MRTQ_REDUCE_H

#include "eltwise.h"
#include "requant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* What TFLite's PrepareMeanOrSum computes. */
typedef struct mrtq_tflite_reduce_params {
  mrtq_mult m;    /* Q31(s_in / s_out): mult 0 or in [2^30, 2^31 - 1], shift in [-31, 30] ({0, 0}: flushed) */
  int32_t zp_in;  /* a value of type (0 for MRTQ_S16) */
  int32_t zp_out; /* a value of type (0 for MRTQ_S16) */
  mrtq_dtype type; /* input and output: MRTQ_S8, MRTQ_U8 or MRTQ_S16 */
} mrtq_tflite_reduce_params;

/* Parameters from TFLite's float tensor scales (finite, > 0):
 * m = Q31((double)s_in / (double)s_out) (mrtq_mult_q31 = QuantizeMultiplier).
 * MRTQ_S16 requires both zero points 0 (the TF interpreter's Prepare; TFLite
 * Micro does not check, and mrtq refuses such a model for both).
 * Errors (nothing written): p NULL, a scale NaN, infinite or <= 0, a zero
 * point outside type, an MRTQ_S16 zero point not 0 -> MRTQ_EINVAL; type
 * another mrtq_dtype -> MRTQ_EUNSUPPORTED, outside the enum -> MRTQ_EINVAL;
 * s_in / s_out >= 2^30 - 2^-2 (shift > 30: TFLite's 1 << shift overflows) ->
 * MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_tflite_reduce_init(float s_in, int32_t zp_in, float s_out, int32_t zp_out, mrtq_dtype type,
                                             mrtq_tflite_reduce_params *p);

/* Parameters from TFLite's OpData (multiplier, shift) and the zero points;
 * the ranges of the struct's comments. Errors as mrtq_tflite_reduce_init
 * (m outside its ranges -> MRTQ_EINVAL). */
MRTQ_API mrtq_status mrtq_tflite_reduce_init_mult(mrtq_mult m, int32_t zp_in, int32_t zp_out, mrtq_dtype type,
                                                  mrtq_tflite_reduce_params *p);

/* The output shape TFLite gives a reduction of `shape` (ndim dims) over
 * `axes` (naxes values, each in [-ndim, ndim): a negative axis counts from
 * the end; repeats count once): keep_dims non-zero keeps every dim, the
 * reduced ones as 1; keep_dims 0 drops them (*out_ndim may be 0: a scalar).
 * out_shape must hold ndim values.
 * Errors (nothing written): the axis and shape errors of mrtq_tflite_mean;
 * out_shape or out_ndim NULL -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_tflite_reduce_shape(const size_t *shape, int ndim, const int32_t *axes, int naxes,
                                              int keep_dims, size_t *out_shape, int *out_ndim);

/* Bytes of scratch mrtq_tflite_mean / _sum / _sum_micro need: 4 per output
 * element (TFLite's int32 temp_sum). Errors as mrtq_tflite_reduce_shape;
 * bytes NULL -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_tflite_reduce_scratch_size(const size_t *shape, int ndim, const int32_t *axes, int naxes,
                                                     size_t *bytes);

/* MEAN over axes (the header's general path), bit-exact with TFLite's
 * reference QuantizedMeanOrSum (mean), for p->type MRTQ_S8, MRTQ_U8 or
 * MRTQ_S16. in: the input, shape[0..ndim) row-major, of p->type (int16 at
 * any alignment); out: the output elements in order (its shape from
 * mrtq_tflite_reduce_shape); scratch: mrtq_tflite_reduce_scratch_size bytes,
 * 4-byte aligned, overwritten. ndim in [1, MRTQ_MAX_DIMS]; naxes >= 1. Where
 * TFLite is undefined (a left shift of t that overflows int32 when m.shift >
 * 0; only for s_in / s_out > 1) mrtq saturates it, as mrtq_mul_q31_dbl does.
 * Versions: an empty axis list is refused (MRTQ_EUNSUPPORTED): the TF
 * interpreter's newer reduce.h (tensorflow/tensorflow 4b21be89) copies the
 * input unchanged, TFLite Micro requantizes each element (n = 1: use
 * mrtq_tflite_quantize for that). The TF interpreter's older reference MEAN
 * (before b1fb6997) took other paths: see mrtq_tflite_mean_hw and
 * docs/kernels.md 4.21.
 * Errors (nothing written): p NULL, shape NULL, axes NULL, a struct outside
 * mrtq_tflite_reduce_init_mult's rules -> MRTQ_EINVAL (p->type another
 * mrtq_dtype: MRTQ_EUNSUPPORTED); ndim outside [1, MRTQ_MAX_DIMS], an axis
 * outside [-ndim, ndim) -> MRTQ_ESHAPE; naxes < 1 -> MRTQ_EUNSUPPORTED; in
 * NULL with elements, out or scratch NULL with outputs -> MRTQ_EINVAL; the
 * element count beyond SIZE_MAX or the reduced count beyond INT64_MAX ->
 * MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_tflite_mean(const mrtq_tflite_reduce_params *p, const size_t *shape, int ndim,
                                      const int32_t *axes, int naxes, const void *in, void *scratch, void *out);

/* SUM over axes as the TF interpreter computes it (reduce.cc EvalSum,
 * b1fb6997): MRTQ_S8 and MRTQ_U8 by the general path with compute_sum (y =
 * mul_q31_dbl(t, m)); MRTQ_S16 without requantization: the interpreter
 * requires equal scales and zero points (so p->m must be {2^30, 1}, which is
 * what equal scales give, and zero points 0) and sums in int16, so out =
 * S mod 2^16. (Its reference kernel passes an int8 input to
 * QuantizedMeanOrSum as uint8 data, a bug mrtq does not reproduce: MRTQ_S8
 * here is the optimized kernel's and TFLite Micro's int8 SUM.) Arrays and
 * errors as mrtq_tflite_mean, plus: MRTQ_S16 with p->m not {2^30, 1} ->
 * MRTQ_EUNSUPPORTED. */
MRTQ_API mrtq_status mrtq_tflite_sum(const mrtq_tflite_reduce_params *p, const size_t *shape, int ndim,
                                     const int32_t *axes, int naxes, const void *in, void *scratch, void *out);

/* SUM over axes as TFLite Micro computes it (reduce_common.cc EvalSumHelper,
 * 90b983c2): MRTQ_S8 and MRTQ_S16 by the general path with compute_sum.
 * Arrays and errors as mrtq_tflite_mean, plus: MRTQ_U8 -> MRTQ_EUNSUPPORTED
 * (Micro's SUM has no uint8). */
MRTQ_API mrtq_status mrtq_tflite_sum_micro(const mrtq_tflite_reduce_params *p, const size_t *shape, int ndim,
                                           const int32_t *axes, int naxes, const void *in, void *scratch, void *out);

/* The 4-D mean over height and width (the header's height-width path),
 * bit-exact with reference_integer_ops::Mean: in [N][H][W][C], out [N][1][1][C],
 * p->type MRTQ_S8 or MRTQ_S16. TFLite ran it when keep_dims is set, the input
 * has 4 dims and the axes are exactly {1, 2} or {2, 1} (two values, no
 * negatives, no repeats); the caller decides. An input with no elements
 * gives outputs 0. The uint8 form of that TFLite path computes in float and
 * is not provided.
 * Errors (nothing written): p NULL, shape NULL, in NULL with elements, out
 * NULL with outputs, a struct outside mrtq_tflite_reduce_init_mult's rules
 * -> MRTQ_EINVAL; p->type MRTQ_U8 or another mrtq_dtype -> MRTQ_EUNSUPPORTED;
 * H W beyond 2^31 - 1 (TFLite's int count) or N H W C beyond SIZE_MAX ->
 * MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_tflite_mean_hw(const mrtq_tflite_reduce_params *p, const size_t *shape, const void *in,
                                         void *out);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

/* The struct's rules; `kernel` picks the field names of the reasons. */
MRTQ__PRIV mrtq_status mrtq__red_check(mrtq_mult m, int32_t zp_in, int32_t zp_out, mrtq_dtype t, int kernel) {
  if (t != MRTQ_S8 && t != MRTQ_U8 && t != MRTQ_S16) {
    if (!mrtq__dtype_ok(t))
      return kernel ? MRTQ__ERR(MRTQ_EINVAL, "p->type: not an mrtq_dtype (0: a zero-initialised struct)")
                    : MRTQ__ERR(MRTQ_EINVAL, "type: not an mrtq_dtype");
    return kernel ? MRTQ__ERR(MRTQ_EUNSUPPORTED, "p->type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S16")
                  : MRTQ__ERR(MRTQ_EUNSUPPORTED, "type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S16");
  }
  if (m.mult == 0 ? m.shift != 0 : (m.mult < (1 << 30) || m.shift < -31 || m.shift > 30))
    return kernel ? MRTQ__ERR(MRTQ_EINVAL, "p->m: mult 0 with shift 0, or mult in [2^30, 2^31 - 1] with shift in [-31, 30]")
                  : MRTQ__ERR(MRTQ_EINVAL, "m: mult 0 with shift 0, or mult in [2^30, 2^31 - 1] with shift in [-31, 30]");
  if (!mrtq__in_type(zp_in, t))
    return kernel ? MRTQ__ERR(MRTQ_EINVAL, "p->zp_in: outside p->type") : MRTQ__ERR(MRTQ_EINVAL, "zp_in: outside type");
  if (!mrtq__in_type(zp_out, t))
    return kernel ? MRTQ__ERR(MRTQ_EINVAL, "p->zp_out: outside p->type") : MRTQ__ERR(MRTQ_EINVAL, "zp_out: outside type");
  if (t == MRTQ_S16 && (zp_in != 0 || zp_out != 0))
    return kernel ? MRTQ__ERR(MRTQ_EINVAL, "p->zp_in, p->zp_out: must be 0 for MRTQ_S16")
                  : MRTQ__ERR(MRTQ_EINVAL, "zp_in, zp_out: must be 0 for MRTQ_S16 (TFLite's reduce.cc)");
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_reduce_init(float s_in, int32_t zp_in, float s_out, int32_t zp_out, mrtq_dtype type,
                                             mrtq_tflite_reduce_params *p) {
  mrtq_tflite_reduce_params r;
  mrtq_status st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (mrtq__nonfinite_f32(s_in) || !(s_in > 0)) return MRTQ__ERR(MRTQ_EINVAL, "s_in: NaN, infinite or <= 0");
  if (mrtq__nonfinite_f32(s_out) || !(s_out > 0)) return MRTQ__ERR(MRTQ_EINVAL, "s_out: NaN, infinite or <= 0");
  memset(&r, 0, sizeof r);
  if ((st = mrtq__red_check(r.m, zp_in, zp_out, type, 0)) != MRTQ_OK) return st;
  (void)mrtq_mult_q31((double)s_in / (double)s_out, &r.m); /* finite, > 0 */
  if (r.m.shift > 30) return MRTQ__ERR(MRTQ_ERANGE, "s_in, s_out: s_in / s_out must be < 2^30 (TFLite's 1 << shift)");
  r.zp_in = zp_in, r.zp_out = zp_out, r.type = type;
  *p = r;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_reduce_init_mult(mrtq_mult m, int32_t zp_in, int32_t zp_out, mrtq_dtype type,
                                                  mrtq_tflite_reduce_params *p) {
  mrtq_status st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if ((st = mrtq__red_check(m, zp_in, zp_out, type, 0)) != MRTQ_OK) return st;
  p->m = m, p->zp_in = zp_in, p->zp_out = zp_out, p->type = type;
  return MRTQ_OK;
}

/* Shape and axes: *mask gets bit d for every reduced dim d; *total the element
 * count, *nout the output count, *n the reduced count. */
MRTQ__PRIV mrtq_status mrtq__red_axes(const size_t *shape, int ndim, const int32_t *axes, int naxes, unsigned *mask,
                                      size_t *total, size_t *nout, size_t *n) {
  int i, d;
  size_t t = 1, o = 1, r = 1, zero = 0;
  if (ndim < 1 || ndim > MRTQ_MAX_DIMS) return MRTQ__ERR(MRTQ_ESHAPE, "ndim: must be in [1, MRTQ_MAX_DIMS]");
  if (!shape) return MRTQ__ERR(MRTQ_EINVAL, "shape: NULL");
  if (naxes < 1)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED,
                     "naxes: must be >= 1 (with no axes the TF interpreter copies the input and TFLite Micro requantizes it)");
  if (!axes) return MRTQ__ERR(MRTQ_EINVAL, "axes: NULL");
  *mask = 0;
  for (i = 0; i < naxes; i++) {
    int32_t a = axes[i];
    if (a < -ndim || a >= ndim) return MRTQ__ERR(MRTQ_ESHAPE, "axes[i]: outside [-ndim, ndim), for some i < naxes");
    *mask |= 1u << (a < 0 ? a + ndim : a);
  }
  for (d = 0; d < ndim; d++)
    if (shape[d] == 0) zero = 1;
  for (d = 0; d < ndim; d++) {
    if (*mask >> d & 1u) {
      if (!zero && shape[d] > SIZE_MAX / r) return MRTQ__ERR(MRTQ_ERANGE, "shape: the element count overflows size_t");
      r = zero ? 0 : r * shape[d];
    } else {
      if (shape[d] && o > SIZE_MAX / shape[d]) return MRTQ__ERR(MRTQ_ERANGE, "shape: the output count overflows size_t");
      o *= shape[d];
    }
  }
  if (!zero && r > SIZE_MAX / o) return MRTQ__ERR(MRTQ_ERANGE, "shape: the element count overflows size_t");
  t = zero ? 0 : r * o;
  if ((uint64_t)r > (uint64_t)INT64_MAX) return MRTQ__ERR(MRTQ_ERANGE, "shape: the reduced element count exceeds INT64_MAX");
  *total = t, *nout = o, *n = r;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_reduce_shape(const size_t *shape, int ndim, const int32_t *axes, int naxes,
                                              int keep_dims, size_t *out_shape, int *out_ndim) {
  unsigned mask;
  size_t t, o, n;
  int d, k = 0;
  mrtq_status st = mrtq__red_axes(shape, ndim, axes, naxes, &mask, &t, &o, &n);
  if (st != MRTQ_OK) return st;
  if (!out_shape) return MRTQ__ERR(MRTQ_EINVAL, "out_shape: NULL");
  if (!out_ndim) return MRTQ__ERR(MRTQ_EINVAL, "out_ndim: NULL");
  for (d = 0; d < ndim; d++) {
    if (mask >> d & 1u) {
      if (keep_dims) out_shape[k++] = 1;
    } else {
      out_shape[k++] = shape[d];
    }
  }
  *out_ndim = k;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_reduce_scratch_size(const size_t *shape, int ndim, const int32_t *axes, int naxes,
                                                     size_t *bytes) {
  unsigned mask;
  size_t t, o, n;
  mrtq_status st = mrtq__red_axes(shape, ndim, axes, naxes, &mask, &t, &o, &n);
  if (st != MRTQ_OK) return st;
  if (!bytes) return MRTQ__ERR(MRTQ_EINVAL, "bytes: NULL");
  if (t == 0) { /* no input: the outputs are only filled with 0 */
    *bytes = 0;
    return MRTQ_OK;
  }
  *bytes = o * 4; /* o <= t and t * 1 fits: o * 4 may not */
  if (o > SIZE_MAX / 4) return MRTQ__ERR(MRTQ_ERANGE, "shape: the scratch size overflows size_t");
  return MRTQ_OK;
}

/* The general path; mode 0 MEAN, 1 SUM requantized, 2 the interpreter's int16
 * SUM (modulo 2^16). */
MRTQ__PRIV mrtq_status mrtq__red_run(const mrtq_tflite_reduce_params *p, const size_t *shape, int ndim,
                                     const int32_t *axes, int naxes, const void *in, void *scratch, void *out,
                                     int mode) {
  unsigned mask;
  size_t total, nout, n, i, ostride[MRTQ_MAX_DIMS], idx[MRTQ_MAX_DIMS], oo = 0, s = 1;
  uint32_t *acc = (uint32_t *)scratch;
  int32_t lo = 0, hi = 0;
  mrtq_mult m;
  mrtq_status st;
  int d;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if ((st = mrtq__red_check(p->m, p->zp_in, p->zp_out, p->type, 1)) != MRTQ_OK) return st;
  if ((st = mrtq__red_axes(shape, ndim, axes, naxes, &mask, &total, &nout, &n)) != MRTQ_OK) return st;
  if (total && !in) return MRTQ__ERR(MRTQ_EINVAL, "in: NULL (allowed only without elements)");
  if (nout && !out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL (allowed only without outputs)");
  if (total && !scratch) return MRTQ__ERR(MRTQ_EINVAL, "scratch: NULL (allowed only without elements)");
  if (mode == 2 && (p->m.mult != (1 << 30) || p->m.shift != 1))
    return MRTQ__ERR(MRTQ_EUNSUPPORTED,
                     "p->m: must be {2^30, 1} (equal scales) for the TF interpreter's int16 SUM (use mrtq_tflite_sum_micro for "
                     "TFLite Micro's)");
  if (total == 0) { /* TFLite fills the outputs with 0 */
    for (i = 0; i < nout; i++) mrtq__store(out, i, p->type, 0);
    return MRTQ_OK;
  }
  for (d = ndim - 1; d >= 0; d--) { /* output strides: 0 along reduced dims */
    ostride[d] = (mask >> d & 1u) ? 0 : s;
    if (!(mask >> d & 1u)) s *= shape[d];
    idx[d] = 0;
  }
  memset(acc, 0, nout * 4);
  for (i = 0; i < total; i++) {
    acc[oo] += (uint32_t)mrtq__load(in, i, p->type);
    for (d = ndim - 1; d >= 0; d--) { /* next index, row-major */
      if (++idx[d] < shape[d]) {
        oo += ostride[d];
        break;
      }
      oo -= ostride[d] * (shape[d] - 1);
      idx[d] = 0;
    }
  }
  (void)mrtq_dtype_range(p->type, &lo, &hi);
  m = p->m;
  if (mode == 0) { /* fold 1 / n into the multiplier, as TFLite does */
    int k = 0;
    uint64_t v = (uint64_t)n;
    while (v >>= 1) k++;
    if (k > 32) k = 32;
    if (k > 31 + m.shift) k = 31 + m.shift;
    m.mult = (int32_t)(((int64_t)m.mult * ((int64_t)1 << k)) / (int64_t)n);
    m.shift -= k;
  }
  for (i = 0; i < nout; i++) {
    int32_t t = mrtq__wrap32(acc[i] - (uint32_t)p->zp_in * (uint32_t)(uint64_t)n);
    if (mode == 2)
      mrtq__store(out, i, MRTQ_S16, mrtq__wrap16(t));
    else
      mrtq__store(out, i, p->type, mrtq__clamp64((int64_t)mrtq_mul_q31_dbl(t, m) + p->zp_out, lo, hi));
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_mean(const mrtq_tflite_reduce_params *p, const size_t *shape, int ndim,
                                      const int32_t *axes, int naxes, const void *in, void *scratch, void *out) {
  return mrtq__red_run(p, shape, ndim, axes, naxes, in, scratch, out, 0);
}

MRTQ_API mrtq_status mrtq_tflite_sum(const mrtq_tflite_reduce_params *p, const size_t *shape, int ndim,
                                     const int32_t *axes, int naxes, const void *in, void *scratch, void *out) {
  return mrtq__red_run(p, shape, ndim, axes, naxes, in, scratch, out, p && p->type == MRTQ_S16 ? 2 : 1);
}

MRTQ_API mrtq_status mrtq_tflite_sum_micro(const mrtq_tflite_reduce_params *p, const size_t *shape, int ndim,
                                           const int32_t *axes, int naxes, const void *in, void *scratch, void *out) {
  if (p && p->type == MRTQ_U8) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "p->type: TFLite Micro's SUM takes MRTQ_S8 or MRTQ_S16");
  return mrtq__red_run(p, shape, ndim, axes, naxes, in, scratch, out, 1);
}

MRTQ_API mrtq_status mrtq_tflite_mean_hw(const mrtq_tflite_reduce_params *p, const size_t *shape, const void *in,
                                         void *out) {
  size_t N, H, W, C, b, c, h, w, hw;
  int32_t lo = 0, hi = 0;
  mrtq_status st;
  int64_t n;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if ((st = mrtq__red_check(p->m, p->zp_in, p->zp_out, p->type, 1)) != MRTQ_OK) return st;
  if (p->type == MRTQ_U8)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "p->type: MRTQ_S8 or MRTQ_S16 (TFLite's uint8 height-width mean computes in float)");
  if (!shape) return MRTQ__ERR(MRTQ_EINVAL, "shape: NULL");
  N = shape[0], H = shape[1], W = shape[2], C = shape[3];
  if (H && W > (size_t)INT32_MAX / H) return MRTQ__ERR(MRTQ_ERANGE, "shape: shape[1] * shape[2] must be <= 2^31 - 1 (TFLite's int count)");
  hw = H * W;
  if (N && C && hw && (N > SIZE_MAX / C || N * C > SIZE_MAX / hw))
    return MRTQ__ERR(MRTQ_ERANGE, "shape: the element count overflows size_t");
  if (N && C && hw && !in) return MRTQ__ERR(MRTQ_EINVAL, "in: NULL (allowed only without elements)");
  if (N && C && !out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL (allowed only without outputs)");
  (void)mrtq_dtype_range(p->type, &lo, &hi);
  n = (int64_t)hw;
  for (b = 0; b < N; b++)
    for (c = 0; c < C; c++) {
      uint32_t a = 0;
      int64_t y;
      if (hw == 0) { /* no elements: TFLite fills the output with 0 */
        mrtq__store(out, b * C + c, p->type, 0);
        continue;
      }
      for (h = 0; h < H; h++)
        for (w = 0; w < W; w++) a += (uint32_t)(mrtq__load(in, ((b * H + h) * W + w) * C + c, p->type) - p->zp_in);
      y = mrtq_mul_q31_dbl(mrtq__wrap32(a), p->m);
      y = y > 0 ? (y + n / 2) / n : (y - n / 2) / n; /* exact in int64; C division truncates */
      mrtq__store(out, b * C + c, p->type, mrtq__clamp64(y + p->zp_out, lo, hi));
    }
  return MRTQ_OK;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_REDUCE_H */
