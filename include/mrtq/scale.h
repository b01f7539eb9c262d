/* mrtq/scale.h -- choosing scales and zero points, and calibration (layer 4;
 * includes mrtq/requant.h).
 *
 * Convention (TFLite, ONNX, oneDNN):  real = scale * (q - zero_point),
 * q in [qmin, qmax]. MRT's `sc` multiplies a real value instead
 * (q = sc * real + zp), so sc = 1 / scale with the same zero point; see
 * mrtq_qparams_to_mrt_sc / mrtq_qparams_from_mrt_sc. */
#ifndef MRTQ_SCALE_H
#define MRTQ_SCALE_H

#include "requant.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mrtq_qparams {
  float scale;        /* > 0 */
  int32_t zero_point; /* in [qmin, qmax] */
  int32_t qmin, qmax; /* the integer range */
} mrtq_qparams;

typedef enum mrtq_qscheme {
  /* MRT symmetric: zp = 0, range +-(2^(bits-1) - 1) (signed) or [0, 2^bits - 1]
   * (unsigned, needs min >= 0); scale = max|x| / qmax (MRT: sc = qmax / max|x|). */
  MRTQ_QS_SYMMETRIC = 0,
  /* MRT zero point: sc = (2^bits - 1) / (max - min), zp = ceil(-sc * min) on the
   * unsigned range [0, 2^bits - 1] (minus 2^(bits-1) when signed); scale = 1/sc. */
  MRTQ_QS_MRT_ZP = 1,
  /* ONNX DynamicQuantizeLinear, float32 arithmetic: scale = (max - min) /
   * (qmax - qmin), zp = RNE(clamp(qmin - min / scale, qmin, qmax)). */
  MRTQ_QS_ONNX_DYNAMIC = 2,
  /* TFLite ChooseQuantizationParams (double arithmetic): scale = (max - min) /
   * (qmax - qmin); zero point from whichever of min/max gives the smaller
   * error, clamped, rounded half away from zero ("nudged"). */
  MRTQ_QS_TFLITE = 3
} mrtq_qscheme;

/* Integer range of a bits-wide type: signed [-2^(bits-1), 2^(bits-1) - 1],
 * unsigned [0, 2^bits - 1]. bits in [2, 32] signed, [2, 31] unsigned
 * (else MRTQ_EINVAL; unsigned 32 does not fit int32: MRTQ_ERANGE). */
MRTQ_API mrtq_status mrtq_qrange(int bits, int is_signed, int32_t *qmin, int32_t *qmax) {
  if (!qmin || !qmax || bits < 2 || bits > 32) return MRTQ_EINVAL;
  if (!is_signed && bits == 32) return MRTQ_ERANGE;
  if (is_signed) {
    *qmax = (int32_t)(((int64_t)1 << (bits - 1)) - 1);
    *qmin = -*qmax - 1;
  } else {
    *qmin = 0;
    *qmax = (int32_t)(((int64_t)1 << bits) - 1);
  }
  return MRTQ_OK;
}

/* Round half away from zero of a finite double with |v| < 2^62 (std::round). */
MRTQ_API int64_t mrtq__round_away(double v) {
  int64_t t = (int64_t)v; /* truncation toward zero */
  double frac = v - (double)t;
  if (frac >= 0.5) return t + 1;
  if (frac <= -0.5) return t - 1;
  return t;
}

/* Smallest integer >= v, for finite |v| < 2^62. */
MRTQ_API int64_t mrtq__ceil(double v) {
  int64_t t = (int64_t)v;
  return (double)t < v ? t + 1 : t;
}

/* Quantization parameters for real values in [min, max] under `scheme`, for a
 * bits-wide signed or unsigned integer type.
 *
 * All asymmetric schemes first widen the range to contain 0 (min' = min(min, 0),
 * max' = max(max, 0)), so that real 0 is exactly representable (zero padding).
 * A degenerate range (max' == min', i.e. all zero; or max|x| == 0 for
 * SYMMETRIC) gives scale 1 (as onnxruntime defines it; the ONNX Python reference gives
 * 1/255 and TFLite 0, which no quantizer can divide by) and the zero point the
 * scheme's formula gives for it: qmin for ONNX_DYNAMIC and MRT_ZP, 0 for
 * SYMMETRIC and TFLITE.
 * The float scale is the scheme's scale rounded to float (ONNX computes it in
 * float32 directly).
 *   SYMMETRIC   signed: q in [-(2^(b-1)-1), 2^(b-1)-1], zp 0,
 *               scale = (float)(max(|min|, |max|) / (2^(b-1) - 1)) (double math);
 *               unsigned: q in [0, 2^b - 1], zp 0, scale = max / (2^b - 1);
 *               min < 0 is MRTQ_ERANGE.
 *   MRT_ZP      sc = (2^b - 1) / (max' - min') in double, zp_u = ceil(-sc * min')
 *               in [0, 2^b - 1]; zp = zp_u (unsigned) or zp_u - 2^(b-1)
 *               (signed); scale = (float)(1 / sc).
 *   ONNX_DYNAMIC float32: scale = (max' - min') / (float)(qmax - qmin);
 *               zp = RNE(clamp(qmin - min' / scale, qmin, qmax)).
 *               Bit-exact with ONNX DynamicQuantizeLinear for bits 8 unsigned;
 *               the same formula for other widths.
 *   TFLITE      double: scale = (max' - min') / (qmax - qmin); zp candidates
 *               qmin - min'/scale and qmax - max'/scale, the one with smaller
 *               |qmin| + |min'/scale| resp. |qmax| + |max'/scale| (ties: the
 *               max candidate); clamped to [qmin, qmax], rounded half away.
 * Errors: out NULL, min or max NaN/inf, min > max -> MRTQ_EINVAL; bad bits ->
 * see mrtq_qrange; a scale that rounds to 0 in float -> MRTQ_ERANGE. On error *out is left unchanged. */
MRTQ_API mrtq_status mrtq_qparams_from_range(float min, float max, int bits, int is_signed, mrtq_qscheme scheme,
                                             mrtq_qparams *out) {
  int32_t qmin, qmax;
  mrtq_qparams p;
  double lo, hi, scale = 1.0;
  mrtq_status st;
  if (!out || mrtq__nonfinite_f32(min) || mrtq__nonfinite_f32(max) || min > max) return MRTQ_EINVAL;
  st = mrtq_qrange(bits, is_signed, &qmin, &qmax);
  if (st != MRTQ_OK) return st;
  lo = min < 0 ? (double)min : 0.0;
  hi = max > 0 ? (double)max : 0.0;
  p.qmin = qmin;
  p.qmax = qmax;
  p.zero_point = 0;
  p.scale = 1.0f;
  switch (scheme) {
    case MRTQ_QS_SYMMETRIC: {
      double amax = -lo > hi ? -lo : hi;
      if (is_signed) {
        p.qmin = -qmax;
      } else if (min < 0) {
        return MRTQ_ERANGE;
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
      p.zero_point = (int32_t)(is_signed ? zpu - ((int64_t)1 << (bits - 1)) : zpu);
      break;
    }
    case MRTQ_QS_ONNX_DYNAMIC: { /* float32 throughout, as the ONNX reference */
      float flo = (float)lo, fhi = (float)hi, fs = 1.0f, izp;
      if (fhi > flo) fs = (fhi - flo) / (float)((int64_t)qmax - qmin);
      if (!(fs > 0) || mrtq__nonfinite_f32(fs)) return MRTQ_ERANGE;
      izp = (float)qmin - flo / fs;
      if (izp < (float)qmin) izp = (float)qmin;
      if (izp > (float)qmax) izp = (float)qmax;
      p.zero_point = mrtq__clamp64(mrtq__rne_f32(izp), qmin, qmax);
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
        if (zpd < (double)qmin) p.zero_point = qmin;
        else if (zpd > (double)qmax) p.zero_point = qmax;
        else p.zero_point = (int32_t)mrtq__round_away(zpd);
      } else {
        p.zero_point = 0;
      }
      break;
    }
    default: return MRTQ_EINVAL;
  }
  if (!(scale <= 3.4028234663852886e38)) return MRTQ_ERANGE; /* above FLT_MAX: no float scale */
  p.scale = (float)scale;
  if (!(p.scale > 0)) return MRTQ_ERANGE;
  *out = p;
  return MRTQ_OK;
}

/* MRT's sc for these parameters: sc = 1 / scale (q = sc * real + zero_point).
 * Errors: NULL pointers, scale not finite and > 0 -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_qparams_to_mrt_sc(const mrtq_qparams *p, double *sc) {
  if (!p || !sc || mrtq__nonfinite_f32(p->scale) || !(p->scale > 0)) return MRTQ_EINVAL;
  *sc = 1.0 / (double)p->scale;
  return MRTQ_OK;
}

/* Parameters from MRT's sc and zero point for a bits-wide type:
 * scale = (float)(1 / sc). Errors: out NULL, sc not finite and > 0 ->
 * MRTQ_EINVAL; zero point outside the type's range, or 1/sc not representable
 * as a positive finite float -> MRTQ_ERANGE; bad bits -> see mrtq_qrange. */
MRTQ_API mrtq_status mrtq_qparams_from_mrt_sc(double sc, int32_t zp, int bits, int is_signed, mrtq_qparams *out) {
  int32_t qmin, qmax;
  mrtq_status st;
  float s;
  if (!out || mrtq__nonfinite(sc) || !(sc > 0)) return MRTQ_EINVAL;
  st = mrtq_qrange(bits, is_signed, &qmin, &qmax);
  if (st != MRTQ_OK) return st;
  if (zp < qmin || zp > qmax) return MRTQ_ERANGE;
  if (!(1.0 / sc <= 3.4028234663852886e38)) return MRTQ_ERANGE; /* above FLT_MAX */
  s = (float)(1.0 / sc);
  if (!(s > 0)) return MRTQ_ERANGE;
  out->scale = s;
  out->zero_point = zp;
  out->qmin = qmin;
  out->qmax = qmax;
  return MRTQ_OK;
}

/* ---- calibration ---- */

/* Check an N-d shape and split it around `axis`: outer = prod(shape[0..axis)),
 * channels = shape[axis], inner = prod(shape(axis..ndim)). */
MRTQ_API mrtq_status mrtq__split_shape(const size_t *shape, int ndim, int axis, size_t *outer, size_t *channels,
                                       size_t *inner) {
  size_t o = 1, in = 1;
  int d;
  if (!shape || ndim < 1 || axis < 0 || axis >= ndim) return shape ? MRTQ_ESHAPE : MRTQ_EINVAL;
  for (d = 0; d < ndim; d++) {
    size_t *acc = d < axis ? &o : &in;
    if (shape[d] == 0) return MRTQ_ESHAPE;
    if (d == axis) continue;
    if (*acc > SIZE_MAX / shape[d]) return MRTQ_ESHAPE;
    *acc *= shape[d];
  }
  if (o > SIZE_MAX / shape[axis] || o * shape[axis] > SIZE_MAX / in) return MRTQ_ESHAPE;
  *outer = o;
  *channels = shape[axis];
  *inner = in;
  return MRTQ_OK;
}

/* 1 if none of the n floats is NaN or infinite. */
MRTQ_API int mrtq__all_finite_f32(const float *x, size_t n) {
  size_t i;
  for (i = 0; i < n; i++)
    if (mrtq__nonfinite_f32(x[i])) return 0;
  return 1;
}

/* Per-channel minimum and maximum of a float tensor of the given N-d shape
 * (row-major, last dimension fastest) along `axis`: mins[c], maxs[c] over all
 * elements whose index on `axis` is c, c in [0, shape[axis]). For the whole
 * tensor (layer-wise) use mrtq_minmax_f32.
 * Errors: NULL pointers -> MRTQ_EINVAL; ndim < 1, axis outside [0, ndim),
 * a zero dimension or an element count overflowing size_t -> MRTQ_ESHAPE; a NaN
 * or infinite element -> MRTQ_EINVAL. Outputs are written only on success. */
MRTQ_API mrtq_status mrtq_minmax_f32_axis(const float *x, const size_t *shape, int ndim, int axis, float *mins,
                                          float *maxs) {
  size_t outer, ch, inner, o, c, i;
  const float *p = x;
  mrtq_status st;
  if (!x || !mins || !maxs) return MRTQ_EINVAL;
  st = mrtq__split_shape(shape, ndim, axis, &outer, &ch, &inner);
  if (st != MRTQ_OK) return st;
  if (!mrtq__all_finite_f32(x, outer * ch * inner)) return MRTQ_EINVAL;
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

/* Per-channel max |x| along `axis` (same shape rules and errors as
 * mrtq_minmax_f32_axis; outputs are written only on success). */
MRTQ_API mrtq_status mrtq_maxabs_f32_axis(const float *x, const size_t *shape, int ndim, int axis, float *maxabs) {
  size_t outer, ch, inner, o, c, i;
  const float *p = x;
  mrtq_status st;
  if (!x || !maxabs) return MRTQ_EINVAL;
  st = mrtq__split_shape(shape, ndim, axis, &outer, &ch, &inner);
  if (st != MRTQ_OK) return st;
  if (!mrtq__all_finite_f32(x, outer * ch * inner)) return MRTQ_EINVAL;
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

/* Whole-tensor (layer-wise) minimum and maximum of n floats.
 * Errors: NULL pointers, n == 0, a NaN or infinite element -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_minmax_f32(const float *x, size_t n, float *min, float *max) {
  size_t shape[2]; /* one channel of n elements */
  shape[0] = 1;
  shape[1] = n;
  if (n == 0) return MRTQ_EINVAL;
  return mrtq_minmax_f32_axis(x, shape, 2, 0, min, max) == MRTQ_OK ? MRTQ_OK : MRTQ_EINVAL;
}

/* Whole-tensor max |x| of n floats. Errors as mrtq_minmax_f32. */
MRTQ_API mrtq_status mrtq_maxabs_f32(const float *x, size_t n, float *maxabs) {
  size_t shape[2]; /* one channel of n elements */
  shape[0] = 1;
  shape[1] = n;
  if (n == 0) return MRTQ_EINVAL;
  return mrtq_maxabs_f32_axis(x, shape, 2, 0, maxabs) == MRTQ_OK ? MRTQ_OK : MRTQ_EINVAL;
}

/* Channel-wise qparams: out[c] = mrtq_qparams_from_range(mins[c], maxs[c], ...)
 * for c in [0, channels). For SYMMETRIC pass the per-channel max|x| as maxs and
 * its negation (or 0) as mins. Stops at the first failing channel and returns
 * its status (channels before it are written). channels == 0 or NULL ->
 * MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_qparams_per_channel(const float *mins, const float *maxs, size_t channels, int bits,
                                              int is_signed, mrtq_qscheme scheme, mrtq_qparams *out) {
  size_t c;
  if (!mins || !maxs || !out || channels == 0) return MRTQ_EINVAL;
  for (c = 0; c < channels; c++) {
    mrtq_status st = mrtq_qparams_from_range(mins[c], maxs[c], bits, is_signed, scheme, &out[c]);
    if (st != MRTQ_OK) return st;
  }
  return MRTQ_OK;
}

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_SCALE_H */
