/* mrtq/scale.h -- choosing scales and zero points, and calibration (layer 4;
 * includes mrtq/requant.h).
 *
 * Convention (TFLite, ONNX, oneDNN):  real = scale * (q - zp), q in
 * [qmin, qmax]. MRT's `sc` multiplies a real value instead (q = sc * real +
 * zp), so sc = 1 / scale with the same zero point; see mrtq_qparams_to_mrt_sc
 * / mrtq_qparams_from_mrt_sc.
 *
 * Integer ranges: a storage type (mrtq_dtype) and a precision `bits`. bits 0
 * is the type's full width; bits in [2, mrtq_dtype_bits(type)] is a narrower
 * range inside the type (MRT's arbitrary precision P: e.g. MRTQ_S32 with bits
 * 20 for a 20-bit expansion, MRTQ_S8 with bits 4 for int4 values stored one
 * per byte). Signed types (S4, S8, S16, S32) give [-2^(b-1), 2^(b-1) - 1],
 * MRTQ_U8 gives [0, 2^b - 1], b the effective width. Any other bits
 * (1, negative, wider than the type) is refused. */
#ifndef MRTQ_SCALE_H
#define MRTQ_SCALE_H

#include "requant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

typedef struct mrtq_qparams {
  float scale;        /* > 0 */
  int32_t zp;         /* in [qmin, qmax] */
  int32_t qmin, qmax; /* the integer range */
} mrtq_qparams;

typedef enum mrtq_qscheme {
  /* MRT symmetric: zp = 0, range +-(2^(b-1) - 1) (signed) or [0, 2^b - 1]
   * (MRTQ_U8, needs min >= 0); scale = max|x| / qmax (MRT: sc = qmax / max|x|). */
  MRTQ_QS_SYMMETRIC = 0,
  /* MRT zero point: sc = (2^b - 1) / (max - min), zp = ceil(-sc * min) on the
   * unsigned range [0, 2^b - 1] (minus 2^(b-1) when signed); scale = 1/sc. */
  MRTQ_QS_MRT_ZP = 1,
  /* ONNX DynamicQuantizeLinear, float32 arithmetic: scale = (max - min) /
   * (qmax - qmin), zp = RNE(clamp(qmin - min / scale, qmin, qmax)). */
  MRTQ_QS_ONNX_DYNAMIC = 2,
  /* TFLite ChooseQuantizationParams (double arithmetic): scale = (max - min) /
   * (qmax - qmin); zero point from whichever of min/max gives the smaller
   * error, clamped, rounded half away from zero ("nudged"). */
  MRTQ_QS_TFLITE = 3
} mrtq_qscheme;

/* Integer range of `type` at precision `bits` (see the top of this file):
 * signed [-2^(b-1), 2^(b-1) - 1], MRTQ_U8 [0, 2^b - 1], b = bits, or the
 * type's width when bits is 0.
 * Errors (MRTQ_EINVAL): type outside mrtq_dtype; bits not 0 and outside
 * [2, mrtq_dtype_bits(type)]; qmin or qmax NULL. */
MRTQ_API mrtq_status mrtq_qrange(mrtq_dtype type, int bits, int32_t *qmin, int32_t *qmax);

/* Quantization parameters for real values in [min, max] under `scheme`, for
 * the range mrtq_qrange(type, bits) (b below: its effective width).
 *
 * All asymmetric schemes first widen the range to contain 0 (min' = min(min, 0),
 * max' = max(max, 0)), so that real 0 is exactly representable (zero padding).
 * A degenerate range (max' == min', i.e. all zero; or max|x| == 0 for
 * SYMMETRIC) gives scale 1 (as onnxruntime defines it; the ONNX Python
 * reference gives 1/255 and TFLite 0, which no quantizer can divide by) and
 * the zero point the scheme's formula gives for it: qmin for ONNX_DYNAMIC and
 * MRT_ZP, 0 for SYMMETRIC and TFLITE.
 * The float scale is the scheme's scale rounded to float (ONNX computes it in
 * float32 directly).
 *   SYMMETRIC   signed: q in [-(2^(b-1)-1), 2^(b-1)-1], zp 0,
 *               scale = (float)(max(|min|, |max|) / (2^(b-1) - 1)) (double math);
 *               MRTQ_U8: q in [0, 2^b - 1], zp 0, scale = max / (2^b - 1);
 *               min < 0 is MRTQ_ERANGE.
 *   MRT_ZP      sc = (2^b - 1) / (max' - min') in double, zp_u = ceil(-sc * min')
 *               in [0, 2^b - 1]; zp = zp_u (MRTQ_U8) or zp_u - 2^(b-1)
 *               (signed); scale = (float)(1 / sc).
 *   ONNX_DYNAMIC float32: scale = (max' - min') / (float)(qmax - qmin);
 *               zp = RNE(clamp(qmin - min' / scale, qmin, qmax)) (ties to even).
 *               Bit-exact with ONNX DynamicQuantizeLinear for MRTQ_U8, bits 0;
 *               the same formula for other ranges.
 *   TFLITE      double: scale = (max' - min') / (qmax - qmin); zp candidates
 *               qmin - min'/scale and qmax - max'/scale, the one with smaller
 *               |qmin| + |min'/scale| resp. |qmax| + |max'/scale| (ties: the
 *               max candidate); clamped to [qmin, qmax], rounded half away
 *               from zero. Bit-exact with TFLite's ChooseQuantizationParams.
 * Errors: out NULL, min or max NaN/inf, min > max, an unknown scheme ->
 * MRTQ_EINVAL; type and bits as mrtq_qrange; SYMMETRIC on MRTQ_U8 with
 * min < 0, a scale above FLT_MAX or one that rounds to 0 in float ->
 * MRTQ_ERANGE. On error *out is left unchanged. */
MRTQ_API mrtq_status mrtq_qparams_from_range(mrtq_qscheme scheme, float min, float max, mrtq_dtype type, int bits,
                                             mrtq_qparams *out);

/* MRT's sc for these parameters: sc = 1 / scale (q = sc * real + zp), in
 * double (the reciprocal of the float scale, rounded once). p->zp, p->qmin
 * and p->qmax are the same in both conventions; they are checked, not used.
 * Errors (MRTQ_EINVAL): p or sc NULL; p->scale NaN, infinite or <= 0;
 * p->qmin > p->qmax; p->zp outside [p->qmin, p->qmax]. */
MRTQ_API mrtq_status mrtq_qparams_to_mrt_sc(const mrtq_qparams *p, double *sc);

/* Parameters from MRT's sc and zero point for the range mrtq_qrange(type,
 * bits): scale = (float)(1 / sc), zp as given.
 * Errors: out NULL, sc NaN, infinite or <= 0 -> MRTQ_EINVAL; type and bits as
 * mrtq_qrange; zp outside the range, or 1/sc not representable as a positive
 * finite float -> MRTQ_ERANGE. On error *out is left unchanged. */
MRTQ_API mrtq_status mrtq_qparams_from_mrt_sc(double sc, int32_t zp, mrtq_dtype type, int bits, mrtq_qparams *out);

/* Channel-wise qparams: out[c] = mrtq_qparams_from_range(scheme, mins[c],
 * maxs[c], type, bits) for c in [0, channels). For SYMMETRIC pass the
 * per-channel max|x| as maxs and its negation (or 0) as mins.
 * Errors: mins, maxs or out NULL, channels == 0 -> MRTQ_EINVAL; otherwise the
 * status of the first failing channel (reported by mrtq_qparams_from_range).
 * On error nothing is written. */
MRTQ_API mrtq_status mrtq_qparams_per_channel(mrtq_qscheme scheme, const float *mins, const float *maxs,
                                              size_t channels, mrtq_dtype type, int bits, mrtq_qparams *out);

/* ---- calibration ---- */

/* Per-channel minimum and maximum of a float tensor x of the given N-d shape
 * (row-major, last dimension fastest) along `axis`: mins[c], maxs[c] over all
 * elements whose index on `axis` is c, c in [0, shape[axis]). For the whole
 * tensor (layer-wise) use mrtq_minmax_f32.
 * Errors: x, shape, mins or maxs NULL -> MRTQ_EINVAL; ndim < 1, axis outside
 * [0, ndim), a zero dimension or an element count overflowing size_t ->
 * MRTQ_ESHAPE; a NaN or infinite element -> MRTQ_EINVAL. Outputs are written
 * only on success. */
MRTQ_API mrtq_status mrtq_minmax_f32_axis(const size_t *shape, int ndim, int axis, const float *x, float *mins,
                                          float *maxs);

/* Per-channel max |x| along `axis` (same shape rules and errors as
 * mrtq_minmax_f32_axis; written only on success). */
MRTQ_API mrtq_status mrtq_maxabs_f32_axis(const size_t *shape, int ndim, int axis, const float *x, float *maxabs);

/* Whole-tensor (layer-wise) minimum and maximum of n floats.
 * Errors (MRTQ_EINVAL): x, min or max NULL; n == 0; a NaN or infinite
 * element. Written only on success. */
MRTQ_API mrtq_status mrtq_minmax_f32(const float *x, size_t n, float *min, float *max);

/* Whole-tensor max |x| of n floats. Errors as mrtq_minmax_f32. */
MRTQ_API mrtq_status mrtq_maxabs_f32(const float *x, size_t n, float *maxabs);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

/* Round half away from zero of a finite double with |v| < 2^62 (std::round). */
MRTQ__PRIV int64_t mrtq__round_away(double v) {
  int64_t t = (int64_t)v; /* truncation toward zero */
  double frac = v - (double)t;
  if (frac >= 0.5) return t + 1;
  if (frac <= -0.5) return t - 1;
  return t;
}

/* std::round of any double (half away from zero; NaN and infinities pass),
 * and roundf of any float: the float's exact value rounded, a float again. */
MRTQ__PRIV double mrtq__round_away_f64(double v) {
  if (v != v || v >= 4503599627370496.0 || v <= -4503599627370496.0) return v; /* NaN, inf, or already integral */
  return (double)mrtq__round_away(v);
}
MRTQ__PRIV float mrtq__round_away_f32(float v) { return (float)mrtq__round_away_f64((double)v); }

/* Smallest integer >= v, for finite |v| < 2^62. */
MRTQ__PRIV int64_t mrtq__ceil(double v) {
  int64_t t = (int64_t)v;
  return (double)t < v ? t + 1 : t;
}

MRTQ_API mrtq_status mrtq_qrange(mrtq_dtype type, int bits, int32_t *qmin, int32_t *qmax) {
  int w = mrtq_dtype_bits(type);
  if (!w) return MRTQ__ERR(MRTQ_EINVAL, "type: not an mrtq_dtype");
  if (bits != 0 && (bits < 2 || bits > w))
    return MRTQ__ERR(MRTQ_EINVAL, "bits: must be 0 (the type's width) or in [2, the type's bits]");
  if (!qmin || !qmax) return MRTQ__ERR(MRTQ_EINVAL, "qmin, qmax: NULL");
  if (bits == 0) bits = w;
  if (type != MRTQ_U8) {
    *qmax = (int32_t)(((int64_t)1 << (bits - 1)) - 1);
    *qmin = -*qmax - 1;
  } else {
    *qmin = 0;
    *qmax = (int32_t)(((int64_t)1 << bits) - 1);
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_qparams_from_range(mrtq_qscheme scheme, float min, float max, mrtq_dtype type, int bits,
                                             mrtq_qparams *out) {
  int32_t qmin, qmax;
  mrtq_qparams p;
  double lo, hi, scale = 1.0;
  mrtq_status st;
  int is_signed = type != MRTQ_U8;
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (mrtq__nonfinite_f32(min)) return MRTQ__ERR(MRTQ_EINVAL, "min: NaN or infinite");
  if (mrtq__nonfinite_f32(max)) return MRTQ__ERR(MRTQ_EINVAL, "max: NaN or infinite");
  if (min > max) return MRTQ__ERR(MRTQ_EINVAL, "min, max: min > max");
  if (scheme != MRTQ_QS_SYMMETRIC && scheme != MRTQ_QS_MRT_ZP && scheme != MRTQ_QS_ONNX_DYNAMIC &&
      scheme != MRTQ_QS_TFLITE)
    return MRTQ__ERR(MRTQ_EINVAL, "scheme: not an mrtq_qscheme");
  st = mrtq_qrange(type, bits, &qmin, &qmax);
  if (st != MRTQ_OK) return st;
  if (bits == 0) bits = mrtq_dtype_bits(type);
  lo = min < 0 ? (double)min : 0.0;
  hi = max > 0 ? (double)max : 0.0;
  p.qmin = qmin;
  p.qmax = qmax;
  p.zp = 0;
  p.scale = 1.0f;
  switch (scheme) {
    case MRTQ_QS_SYMMETRIC: {
      double amax = -lo > hi ? -lo : hi;
      if (is_signed) {
        p.qmin = -qmax;
      } else if (min < 0) {
        return MRTQ__ERR(MRTQ_ERANGE, "min: must be >= 0 for MRTQ_QS_SYMMETRIC on MRTQ_U8");
      }
      if (amax > 0) scale = amax / (double)qmax;
      break;
    }
    case MRTQ_QS_MRT_ZP: {
      double levels = (double)(((int64_t)1 << bits) - 1);
      int64_t zpu = 0;
      if (hi > lo) {
        double sc = levels / (hi - lo);
        zpu = mrtq__ceil(-sc * lo);
        if (zpu > (int64_t)levels) zpu = (int64_t)levels; /* cannot happen in exact math; guards rounding */
        scale = 1.0 / sc;
      }
      p.zp = (int32_t)(is_signed ? zpu - ((int64_t)1 << (bits - 1)) : zpu);
      break;
    }
    case MRTQ_QS_ONNX_DYNAMIC: { /* float32 throughout, as the ONNX reference */
      float flo = (float)lo, fhi = (float)hi, fs = 1.0f, izp;
      if (fhi > flo) fs = (fhi - flo) / (float)((int64_t)qmax - qmin);
      if (!(fs > 0) || mrtq__nonfinite_f32(fs))
        return MRTQ__ERR(MRTQ_ERANGE, "min, max: the float32 scale (max - min) / (qmax - qmin) is 0 or infinite");
      izp = (float)qmin - flo / fs;
      if (izp < (float)qmin) izp = (float)qmin;
      if (izp > (float)qmax) izp = (float)qmax;
      p.zp = mrtq__clamp64(mrtq__rne_f32(izp), qmin, qmax);
      p.scale = fs;
      *out = p;
      return MRTQ_OK;
    }
    case MRTQ_QS_TFLITE: {
      if (hi > lo) {
        double fmin, fmax, emin, emax, zpd;
        scale = (hi - lo) / ((double)qmax - (double)qmin);
        fmin = (double)qmin - lo / scale;
        fmax = (double)qmax - hi / scale;
        emin = (qmin < 0 ? -(double)qmin : (double)qmin) + (lo < 0 ? -lo : lo) / scale;
        emax = (qmax < 0 ? -(double)qmax : (double)qmax) + hi / scale;
        zpd = emin < emax ? fmin : fmax;
        if (zpd < (double)qmin) p.zp = qmin;
        else if (zpd > (double)qmax) p.zp = qmax;
        else p.zp = (int32_t)mrtq__round_away(zpd);
      } else {
        p.zp = 0;
      }
      break;
    }
  }
  /* above FLT_MAX (not reached by float inputs: at most 2 FLT_MAX / 3) or rounding to 0 */
  if (!(scale <= 3.4028234663852886e38) || !((float)scale > 0))
    return MRTQ__ERR(MRTQ_ERANGE, "min, max: the scale is not a positive finite float");
  p.scale = (float)scale;
  *out = p;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_qparams_to_mrt_sc(const mrtq_qparams *p, double *sc) {
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!sc) return MRTQ__ERR(MRTQ_EINVAL, "sc: NULL");
  if (mrtq__nonfinite_f32(p->scale) || !(p->scale > 0))
    return MRTQ__ERR(MRTQ_EINVAL, "p->scale: must be finite and > 0");
  if (p->qmin > p->qmax) return MRTQ__ERR(MRTQ_EINVAL, "p->qmin, p->qmax: qmin > qmax");
  if (p->zp < p->qmin || p->zp > p->qmax) return MRTQ__ERR(MRTQ_EINVAL, "p->zp: outside [p->qmin, p->qmax]");
  *sc = 1.0 / (double)p->scale;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_qparams_from_mrt_sc(double sc, int32_t zp, mrtq_dtype type, int bits, mrtq_qparams *out) {
  int32_t qmin, qmax;
  mrtq_status st;
  float s;
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (mrtq__nonfinite(sc) || !(sc > 0)) return MRTQ__ERR(MRTQ_EINVAL, "sc: must be finite and > 0");
  st = mrtq_qrange(type, bits, &qmin, &qmax);
  if (st != MRTQ_OK) return st;
  if (zp < qmin || zp > qmax) return MRTQ__ERR(MRTQ_ERANGE, "zp: outside the range of type and bits");
  if (!(1.0 / sc <= 3.4028234663852886e38)) /* above FLT_MAX */
    return MRTQ__ERR(MRTQ_ERANGE, "sc: 1 / sc exceeds FLT_MAX");
  s = (float)(1.0 / sc);
  if (!(s > 0)) return MRTQ__ERR(MRTQ_ERANGE, "sc: 1 / sc rounds to 0 in float");
  out->scale = s;
  out->zp = zp;
  out->qmin = qmin;
  out->qmax = qmax;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_qparams_per_channel(mrtq_qscheme scheme, const float *mins, const float *maxs,
                                              size_t channels, mrtq_dtype type, int bits, mrtq_qparams *out) {
  size_t c;
  mrtq_qparams one;
  if (!mins) return MRTQ__ERR(MRTQ_EINVAL, "mins: NULL");
  if (!maxs) return MRTQ__ERR(MRTQ_EINVAL, "maxs: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (channels == 0) return MRTQ__ERR(MRTQ_EINVAL, "channels: must be >= 1");
  for (c = 0; c < channels; c++) { /* check every channel first: a refusal writes nothing */
    mrtq_status st = mrtq_qparams_from_range(scheme, mins[c], maxs[c], type, bits, &one);
    if (st != MRTQ_OK) return st;
  }
  for (c = 0; c < channels; c++) (void)mrtq_qparams_from_range(scheme, mins[c], maxs[c], type, bits, &out[c]);
  return MRTQ_OK;
}

/* Check an N-d shape and split it around `axis`: outer = prod(shape[0..axis)),
 * channels = shape[axis], inner = prod(shape(axis..ndim)). */
MRTQ__PRIV mrtq_status mrtq__split_shape(const size_t *shape, int ndim, int axis, size_t *outer, size_t *channels,
                                         size_t *inner) {
  size_t o = 1, in = 1;
  int d;
  if (!shape) return MRTQ__ERR(MRTQ_EINVAL, "shape: NULL");
  if (ndim < 1) return MRTQ__ERR(MRTQ_ESHAPE, "ndim: must be >= 1");
  if (axis < 0 || axis >= ndim) return MRTQ__ERR(MRTQ_ESHAPE, "axis: must be in [0, ndim)");
  for (d = 0; d < ndim; d++) {
    size_t *acc = d < axis ? &o : &in;
    if (shape[d] == 0) return MRTQ__ERR(MRTQ_ESHAPE, "shape[d]: a zero dimension");
    if (d == axis) continue;
    if (*acc > SIZE_MAX / shape[d]) return MRTQ__ERR(MRTQ_ESHAPE, "shape: element count overflows size_t");
    *acc *= shape[d];
  }
  if (o > SIZE_MAX / shape[axis] || o * shape[axis] > SIZE_MAX / in)
    return MRTQ__ERR(MRTQ_ESHAPE, "shape: element count overflows size_t");
  *outer = o;
  *channels = shape[axis];
  *inner = in;
  return MRTQ_OK;
}

/* 1 if none of the n floats is NaN or infinite. */
MRTQ__PRIV int mrtq__all_finite_f32(const float *x, size_t n) {
  size_t i;
  for (i = 0; i < n; i++)
    if (mrtq__nonfinite_f32(x[i])) return 0;
  return 1;
}

MRTQ_API mrtq_status mrtq_minmax_f32_axis(const size_t *shape, int ndim, int axis, const float *x, float *mins,
                                          float *maxs) {
  size_t outer, ch, inner, o, c, i;
  const float *p = x;
  mrtq_status st;
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  if (!mins) return MRTQ__ERR(MRTQ_EINVAL, "mins: NULL");
  if (!maxs) return MRTQ__ERR(MRTQ_EINVAL, "maxs: NULL");
  st = mrtq__split_shape(shape, ndim, axis, &outer, &ch, &inner);
  if (st != MRTQ_OK) return st;
  if (!mrtq__all_finite_f32(x, outer * ch * inner)) return MRTQ__ERR(MRTQ_EINVAL, "x: a NaN or infinite element");
  for (o = 0; o < outer; o++) {
    for (c = 0; c < ch; c++) {
      float lo = o ? mins[c] : p[0], hi = o ? maxs[c] : p[0];
      for (i = 0; i < inner; i++, p++) {
        if (*p < lo) lo = *p;
        if (*p > hi) hi = *p;
      }
      mins[c] = lo;
      maxs[c] = hi;
    }
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_maxabs_f32_axis(const size_t *shape, int ndim, int axis, const float *x, float *maxabs) {
  size_t outer, ch, inner, o, c, i;
  const float *p = x;
  mrtq_status st;
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  if (!maxabs) return MRTQ__ERR(MRTQ_EINVAL, "maxabs: NULL");
  st = mrtq__split_shape(shape, ndim, axis, &outer, &ch, &inner);
  if (st != MRTQ_OK) return st;
  if (!mrtq__all_finite_f32(x, outer * ch * inner)) return MRTQ__ERR(MRTQ_EINVAL, "x: a NaN or infinite element");
  for (o = 0; o < outer; o++) {
    for (c = 0; c < ch; c++) {
      float m = o ? maxabs[c] : 0.0f;
      for (i = 0; i < inner; i++, p++) {
        float a = *p < 0 ? -*p : *p;
        if (a > m) m = a;
      }
      maxabs[c] = m;
    }
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_minmax_f32(const float *x, size_t n, float *min, float *max) {
  size_t shape[2]; /* one channel of n elements */
  shape[0] = 1;
  shape[1] = n;
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  if (!min || !max) return MRTQ__ERR(MRTQ_EINVAL, "min, max: NULL");
  if (n == 0) return MRTQ__ERR(MRTQ_EINVAL, "n: must be >= 1");
  /* the shape {1, n} is valid: only a non-finite element can fail (EINVAL, reported there) */
  return mrtq_minmax_f32_axis(shape, 2, 0, x, min, max);
}

MRTQ_API mrtq_status mrtq_maxabs_f32(const float *x, size_t n, float *maxabs) {
  size_t shape[2]; /* one channel of n elements */
  shape[0] = 1;
  shape[1] = n;
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  if (!maxabs) return MRTQ__ERR(MRTQ_EINVAL, "maxabs: NULL");
  if (n == 0) return MRTQ__ERR(MRTQ_EINVAL, "n: must be >= 1");
  return mrtq_maxabs_f32_axis(shape, 2, 0, x, maxabs);
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_SCALE_H */
