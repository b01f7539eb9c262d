/* mrtq/resize.h -- TFLite's RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR on
 * quantized NHWC tensors: the 10-bit fixed-point bilinear interpolation of
 * reference_ops::ResizeBilinearInteger (int8, int16), the float
 * interpolation of reference_ops::ResizeBilinear (uint8) and the float index
 * computation of reference_ops::ResizeNearestNeighbor (any element type),
 * each bit-exact with TFLite's reference kernel. Semantics: docs/kernels.md
 * section 4.18; upstream files: docs/anchors.md section 2.16. */
#ifndef MRTQ_RESIZE_H
#define MRTQ_RESIZE_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* TFLite's ResizeBilinearParams / ResizeNearestNeighborParams: the two
 * builtin options of both operators, each 0 or 1. Filled by
 * mrtq_tflite_resize_init; the kernels check a hand-filled struct the same
 * way (reasons "p->align_corners: ..."). */
typedef struct mrtq_tflite_resize_params {
  int align_corners;      /* 1: the corner pixels of input and output are aligned */
  int half_pixel_centers; /* 1: pixel centres at +0.5 */
} mrtq_tflite_resize_params;

/* Errors (MRTQ_EINVAL, *p unchanged): p NULL, a flag other than 0 or 1.
 * Both flags 1 is accepted here: RESIZE_NEAREST_NEIGHBOR takes it (TFLite
 * does not refuse it), RESIZE_BILINEAR refuses it. */
MRTQ_API mrtq_status mrtq_tflite_resize_init(int align_corners, int half_pixel_centers, mrtq_tflite_resize_params *p);

/* TFLite's RESIZE_BILINEAR. int8 / int16 as reference_ops::
 * ResizeBilinearInteger computes it (tensorflow/lite/kernels/internal/
 * reference/resize_bilinear.h, tflite-micro 90b983c2; run by the TF
 * interpreter's resize_bilinear.cc for int8 in both its reference and its
 * optimized kernel, and for int16, and by TFLite Micro for int8).
 * x is NHWC with in_shape = {N, H, W, C}; out is {N, out_h, out_w, C}. Per
 * axis (H with out_h, W with out_w; all integer arithmetic, "/" truncating
 * toward zero as C does):
 *   s = (1024 * H + out_h / 2) / out_h               (10-bit scale, rounded)
 *       or, with align_corners and out_h > 1,
 *   s = (1024 * (H - 1) + (out_h - 1) / 2) / (out_h - 1)
 *       i.e. 1024 H / out_h (or 1024 (H - 1) / (out_h - 1)) rounded to
 *       nearest, a tie rounded up (ties occur only for an even divisor)
 *   t(y) = y * s                                      (position, 10-bit)
 *       or, with half_pixel_centers,  t(y) = y * s + s / 2 - 512
 *   y0 = max(t / 1024, 0),  y1 = min((t + 1023) / 1024, H - 1)
 *   f = t - 1024 * y0   (in [-512, 1023]; negative only at the top edge
 *                        with half_pixel_centers, where y0 = y1 = 0)
 * and with g the same for x (x0, x1), each output element is
 *   acc = x[y0][x0] (1024 - f)(1024 - g) + x[y1][x0] f (1024 - g)
 *       + x[y0][x1] (1024 - f) g + x[y1][x1] f g          (exact, int64)
 *   out = acc / 2^20 rounded to nearest, ties away from zero
 *         ((acc + (acc > 0 ? 2^19 : -2^19)) / 2^20, truncating).
 * out is a weighted mean of the (at most four) inputs, so it never leaves
 * their range: no saturation is needed. Where s is exact (1024 H a multiple
 * of out_h, or 1024 (H - 1) of out_h - 1 with align_corners; with
 * half_pixel_centers s also even) the positions are the real ones and out is
 * the bilinear interpolation of the stored values rounded half away from
 * zero.
 * Quantization: TFLite gives the output the input's scale and zero point;
 * the stored values are interpolated as they are (the zero point cancels
 * because the weights sum to 2^20).
 * Ranges: in_shape[i] <= INT32_MAX, out_h and out_w in [1, INT32_MAX] (TFLite
 * refuses a size <= 0); N = 0 or C = 0 is an empty output (nothing written,
 * x and out may be NULL). TFLite's arithmetic is int32: sizes at which
 * 1024 H + out_h / 2 or t(out_h - 1) + 1023 would overflow it are refused, and
 * so are the shapes at which TFLite reads past the input: y0 > H - 1, which
 * happens when s rounds up far enough (e.g. H = 1, out_h = 1500: s = 1, y0 = 1
 * at y = 1499). x and out must not overlap.
 *
 * MRTQ_U8: TFLite has no integer kernel for uint8. The TF interpreter's
 * reference kernel runs reference_ops::ResizeBilinear<uint8_t>, in float,
 * and so does mrtq for MRTQ_U8: per axis, in IEEE binary32 (each operation
 * rounded to nearest-even; mrtq emulates each exactly in double, so neither
 * FLT_EVAL_METHOD nor contraction changes it)
 *   scale = fl(H / out_h), or fl((H - 1) / (out_h - 1)) with align_corners
 *           and out_h > 1 (sizes converted to float first),
 *   t = fl(y scale), or fl(fl(fl(y + 0.5) scale) - 0.5) with
 *       half_pixel_centers,
 *   y0 = max(floor(t), 0), y1 = min(ceil(t), H - 1), dy = fl(t - y0),
 * and per element, left to right, each product and sum rounded,
 *   v = x00 fl(1 - dy) fl(1 - dx) + x10 dy fl(1 - dx) + x01 fl(1 - dy) dx
 *       + x11 dy dx + 0.5,   out = trunc(v)   (x10 = x[y1][x0], ...)
 * i.e. round half up up to float error. A TFLite built with fused
 * multiply-adds (contraction on a target with FMA, e.g. GCC's C++ default on
 * aarch64) may give other bytes; x86-64 builds without FMA give these. Shapes
 * whose float position of the last row / column floors past the input are
 * refused (MRTQ_ERANGE), as in the integer kernel.
 * The TF interpreter's default (optimized) kernel computes uint8 otherwise:
 * mrtq_tflite_resize_bilinear_opt.
 * Errors (nothing written): p, in_shape NULL, x or out NULL with a non-empty
 * output, a flag of p other than 0 or 1, both flags 1 (TFLite's Prepare
 * refuses align_corners with half_pixel_centers), out_h or out_w 0 or above
 * INT32_MAX, an in_shape[i] above INT32_MAX, type outside the enum ->
 * MRTQ_EINVAL; type not MRTQ_S8 / MRTQ_U8 / MRTQ_S16 -> MRTQ_EUNSUPPORTED
 * (TFLite's RESIZE_BILINEAR types); H or W 0 with a non-empty output,
 * element counts overflowing size_t -> MRTQ_ESHAPE; the int32 overflows and
 * the reads past the input above -> MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_tflite_resize_bilinear(const mrtq_tflite_resize_params *p, const size_t *in_shape,
                                                 size_t out_h, size_t out_w, const void *x, mrtq_dtype type,
                                                 void *out);
/* The same in TFLite's TFLITE_SINGLE_ROUNDING build: out = floor((acc +
 * 2^19) / 2^20), one rounding with ties toward +inf (it differs from the
 * default only on exact ties below zero, e.g. acc = -3 * 2^19: -1 here, -2 in
 * the default). Same arguments, ranges and errors; MRTQ_U8 (the float
 * kernel, which that build does not change) gives the same bytes as
 * mrtq_tflite_resize_bilinear. */
MRTQ_API mrtq_status mrtq_tflite_resize_bilinear_rndnu(const mrtq_tflite_resize_params *p, const size_t *in_shape,
                                                       size_t out_h, size_t out_w, const void *x, mrtq_dtype type,
                                                       void *out);
/* The TF interpreter's default RESIZE_BILINEAR kernel (resize_bilinear.cc's
 * kOptimized, what Register_RESIZE_BILINEAR returns), which differs from its
 * reference kernel for uint8 only: optimized_ops::ResizeBilinear
 * (tensorflow/lite/kernels/internal/optimized/resize_bilinear.h, TF 2.x).
 *   MRTQ_S8, MRTQ_S16: ResizeBilinearInteger, as mrtq_tflite_resize_bilinear.
 *   MRTQ_U8, an exact x8 upscale with half_pixel_centers (out_h = 8 H,
 *     out_w = 8 W, align_corners 0, C a multiple of 8):
 *     ResizeBilinear888Uint8, an incremental 8.8 fixed-point kernel that is
 *     exact: out = floor(v + 1/2) with v the real bilinear interpolation at
 *     the half-pixel positions (weights (2k + 1) / 16), i.e. rounded half up;
 *     positions outside the input clamp to its edge, as in the reference.
 *   MRTQ_U8 otherwise: ResizeBilinearGenericSmallChannel, the float kernel
 *     with the same positions (scale, t, y0, y1, dy as in the uint8 form of
 *     mrtq_tflite_resize_bilinear) but the weights multiplied first and the
 *     corners taken in another order, each operation in binary32:
 *       w00 = fl(fl(1 - dy) fl(1 - dx)), w01 = fl(fl(1 - dy) dx),
 *       w10 = fl(dy fl(1 - dx)), w11 = fl(dy dx),
 *       v = x00 w00 + x01 w01 + x10 w10 + x11 w11 + 0.5 (left to right),
 *       out = trunc(v)   (x01 = x[y0][x1], x10 = x[y1][x0]).
 *     Another association than the reference's, so some bytes differ (the
 *     count is in tests/test_layout_ops.c's output); the same FMA caveat.
 * Same arguments, ranges and errors as mrtq_tflite_resize_bilinear. */
MRTQ_API mrtq_status mrtq_tflite_resize_bilinear_opt(const mrtq_tflite_resize_params *p, const size_t *in_shape,
                                                     size_t out_h, size_t out_w, const void *x, mrtq_dtype type,
                                                     void *out);

/* TFLite's RESIZE_NEAREST_NEIGHBOR as reference_ops::ResizeNearestNeighbor
 * computes it (tensorflow/lite/kernels/internal/reference/
 * resize_nearest_neighbor.h, tflite-micro 90b983c2): TFLite Micro (int8,
 * int16), the TF interpreter's reference kernel, and its default kernel for
 * int16 and int32. Each output pixel copies one input pixel (all C channels):
 * out[n][y][x] = x[n][iy(y)][ix(x)], with, per axis (H, out_h; W, out_w),
 * every step in IEEE binary32 arithmetic rounded to nearest-even as TFLite
 * computes it (mrtq emulates each float operation exactly in double, so the
 * result does not depend on FLT_EVAL_METHOD or contraction):
 *   scale = fl(H / out_h)          (each size converted to float first)
 *           or, with align_corners and out_h > 1, fl((H - 1) / (out_h - 1))
 *   t = fl(fl(y + off) * scale),   off = 0.5 with half_pixel_centers, else 0
 *   iy = align_corners ? round(t) (half away from zero, TfLiteRound) : floor(t)
 *   iy = min(iy, H - 1); with half_pixel_centers also iy = max(iy, 0).
 * align_corners and half_pixel_centers together are allowed (TFLite does not
 * refuse them): off = 0.5 and round(). No arithmetic on the values: any
 * element type (MRTQ_S8, MRTQ_U8, MRTQ_S16, MRTQ_S32 at any alignment;
 * MRTQ_S4 refused); the output keeps the input's scale and zero point.
 * Ranges: in_shape[i], out_h, out_w <= INT32_MAX; an empty output (N, C,
 * out_h or out_w 0) writes nothing (x and out may be NULL). x and out must
 * not overlap.
 * Errors (nothing written): p or in_shape NULL, x or out NULL with a
 * non-empty output, a flag other than 0 or 1, a size above INT32_MAX, type
 * outside the enum -> MRTQ_EINVAL; type MRTQ_S4 -> MRTQ_EUNSUPPORTED; H or W
 * 0 with a non-empty output (TFLite would read outside x), element counts
 * overflowing size_t -> MRTQ_ESHAPE.
 * Not this function: the TF interpreter's default kernel for uint8 / int8,
 * optimized_ops::ResizeNearestNeighbor, indexes with a 16.16 fixed-point
 * scale when neither flag is set (docs/kernels.md section 4.18). */
MRTQ_API mrtq_status mrtq_tflite_resize_nearest(const mrtq_tflite_resize_params *p, const size_t *in_shape,
                                                size_t out_h, size_t out_w, const void *x, mrtq_dtype type,
                                                void *out);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

MRTQ_API mrtq_status mrtq_tflite_resize_init(int align_corners, int half_pixel_centers, mrtq_tflite_resize_params *p) {
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (align_corners != 0 && align_corners != 1) return MRTQ__ERR(MRTQ_EINVAL, "align_corners: must be 0 or 1");
  if (half_pixel_centers != 0 && half_pixel_centers != 1)
    return MRTQ__ERR(MRTQ_EINVAL, "half_pixel_centers: must be 0 or 1");
  p->align_corners = align_corners, p->half_pixel_centers = half_pixel_centers;
  return MRTQ_OK;
}

/* The checks both operators share: p, sizes (each <= INT32_MAX), the counts.
 * *empty: the output has no element (then x and out are not checked). */
MRTQ__PRIV mrtq_status mrtq__resize_args(const mrtq_tflite_resize_params *p, const size_t *in_shape, size_t out_h,
                                         size_t out_w, const void *x, mrtq_dtype type, const void *out, int *empty,
                                         size_t *elem_bytes) {
  size_t nin = 1, nout = 1, dims[6];
  int i;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (p->align_corners != 0 && p->align_corners != 1) return MRTQ__ERR(MRTQ_EINVAL, "p->align_corners: must be 0 or 1");
  if (p->half_pixel_centers != 0 && p->half_pixel_centers != 1)
    return MRTQ__ERR(MRTQ_EINVAL, "p->half_pixel_centers: must be 0 or 1");
  if (!in_shape) return MRTQ__ERR(MRTQ_EINVAL, "in_shape: NULL");
  for (i = 0; i < 4; i++)
    if (in_shape[i] > (size_t)INT32_MAX) return MRTQ__ERR(MRTQ_EINVAL, "in_shape[i]: above INT32_MAX (TFLite's dims are int32)");
  if (out_h > (size_t)INT32_MAX) return MRTQ__ERR(MRTQ_EINVAL, "out_h: above INT32_MAX (TFLite's sizes are int32)");
  if (out_w > (size_t)INT32_MAX) return MRTQ__ERR(MRTQ_EINVAL, "out_w: above INT32_MAX (TFLite's sizes are int32)");
  if (!mrtq__dtype_ok(type)) return MRTQ__ERR(MRTQ_EINVAL, "type: not an mrtq_dtype (0: a zero-initialised operand)");
  dims[0] = in_shape[0], dims[1] = in_shape[1], dims[2] = in_shape[2], dims[3] = in_shape[3];
  dims[4] = out_h, dims[5] = out_w;
  *elem_bytes = (size_t)mrtq_dtype_bits(type) / 8;
  *empty = in_shape[0] == 0 || in_shape[3] == 0 || out_h == 0 || out_w == 0;
  for (i = 0; i < 6; i++) { /* both counts, in bytes, fit size_t (zero sizes skipped) */
    size_t *c = i >= 1 && i <= 2 ? &nin : i >= 4 ? &nout : NULL;
    if (!dims[i]) continue;
    if (!c) { /* N and C count in both */
      if (nin > SIZE_MAX / dims[i] || nout > SIZE_MAX / dims[i])
        return MRTQ__ERR(MRTQ_ESHAPE, "in_shape, out_h, out_w: an element count overflows size_t");
      nin *= dims[i], nout *= dims[i];
    } else {
      if (*c > SIZE_MAX / dims[i]) return MRTQ__ERR(MRTQ_ESHAPE, "in_shape, out_h, out_w: an element count overflows size_t");
      *c *= dims[i];
    }
  }
  if (*elem_bytes && (nin > SIZE_MAX / *elem_bytes || nout > SIZE_MAX / *elem_bytes))
    return MRTQ__ERR(MRTQ_ESHAPE, "in_shape, out_h, out_w: a byte count overflows size_t");
  if (*empty) return MRTQ_OK;
  if (in_shape[1] == 0 || in_shape[2] == 0)
    return MRTQ__ERR(MRTQ_ESHAPE, "in_shape: H or W is 0 with a non-empty output (TFLite would read outside x)");
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  return MRTQ_OK;
}

/* ---- bilinear ---- */

/* One axis of ResizeBilinearInteger: the 10-bit scale, and per output
 * coordinate v the source rows lo, hi and the fraction f (t - 1024 lo). All
 * in int64, with the checks that TFLite's int32 arithmetic holds and that
 * lo stays inside the input. */
MRTQ__PRIV mrtq_status mrtq__rb_scale(int64_t in, int64_t outn, int align, int hpc, int64_t *s) {
  int64_t num = align && outn > 1 ? 1024 * (in - 1) + (outn - 1) / 2 : 1024 * in + outn / 2;
  int64_t den = align && outn > 1 ? outn - 1 : outn;
  if (num > INT32_MAX) return MRTQ__ERR(MRTQ_ERANGE, "in_shape: 1024 * H (or W) overflows TFLite's int32 scale");
  *s = num / den;
  /* the largest position TFLite forms: t(out - 1) + 1023 */
  if ((outn - 1) * *s + (hpc ? *s / 2 : 0) + 1023 > INT32_MAX)
    return MRTQ__ERR(MRTQ_ERANGE, "out_h, out_w: the 10-bit position overflows TFLite's int32");
  return MRTQ_OK;
}

MRTQ__PRIV void mrtq__rb_at(int64_t v, int64_t s, int hpc, int64_t in, int64_t *lo, int64_t *hi, int64_t *f) {
  int64_t t = hpc ? v * s + s / 2 - 512 : v * s;
  int64_t l = t / 1024, h = (t + 1023) / 1024; /* truncating, as TFLite's int32 division */
  if (l < 0) l = 0;
  if (h > in - 1) h = in - 1;
  *lo = l, *hi = h, *f = t - 1024 * l;
}

/* IEEE binary32 operations, each correctly rounded: the double result of an
 * operation on two floats, rounded once to float, is the correctly rounded
 * float result (53 >= 2 * 24 + 2), whatever FLT_EVAL_METHOD is, and no
 * compiler may fuse two of them. */
MRTQ__PRIV float mrtq__f32_div(float a, float b) { return (float)((double)a / (double)b); }
MRTQ__PRIV float mrtq__f32_mul(float a, float b) { return (float)((double)a * (double)b); }
MRTQ__PRIV float mrtq__f32_add(float a, float b) { return (float)((double)a + (double)b); }
MRTQ__PRIV float mrtq__f32_sub(float a, float b) { return (float)((double)a - (double)b); }

/* TFLite's float scale of one axis: fl(in / out), or fl((in - 1) / (out - 1))
 * with align_corners and out > 1 (each size converted to float first). */
MRTQ__PRIV float mrtq__rs_scale(int64_t in, int64_t outn, int align) {
  return align && outn > 1 ? mrtq__f32_div((float)(in - 1), (float)(outn - 1)) : mrtq__f32_div((float)in, (float)outn);
}

/* reference_ops::ComputeInterpolationValues in binary32: the position
 * (fl(fl(fl(v + 1/2) scale) - 1/2) with half_pixel_centers, else fl(v
 * scale)), lo = max(floor, 0), hi = min(ceil, in - 1). */
MRTQ__PRIV float mrtq__rbf_at(int64_t v, float scale, int hpc, int64_t in, int64_t *lo, int64_t *hi) {
  float t = hpc ? mrtq__f32_sub(mrtq__f32_mul(mrtq__f32_add((float)v, 0.5f), scale), 0.5f) : mrtq__f32_mul((float)v, scale);
  double d = (double)t;
  int64_t f = (int64_t)d, c;      /* |t| < 2^32: exact in int64 */
  if ((double)f > d) f--;         /* floor */
  c = (double)f < d ? f + 1 : f;  /* ceil */
  *lo = f < 0 ? 0 : f;
  *hi = c > in - 1 ? in - 1 : c;
  return t;
}

/* TFLite's reference_ops::ResizeBilinear<uint8_t> (the float kernel the TF
 * interpreter's reference RESIZE_BILINEAR runs on uint8): per element, in
 * binary32, left to right,
 *   v = x00 (1 - dy)(1 - dx) + x10 dy (1 - dx) + x01 (1 - dy) dx + x11 dy dx + 1/2
 * (dy = t - y0, each product rounded, then each sum), out = trunc(v). */
MRTQ__PRIV mrtq_status mrtq__resize_bilinear_f32(const mrtq_tflite_resize_params *p, size_t N, size_t H, size_t W, size_t C,
                                                 size_t out_h, size_t out_w, const uint8_t *x, uint8_t *out, int opt) {
  float sh = mrtq__rs_scale((int64_t)H, (int64_t)out_h, p->align_corners);
  float sw = mrtq__rs_scale((int64_t)W, (int64_t)out_w, p->align_corners);
  int64_t y0, y1, x0, x1;
  size_t n, yy, xx, c;
  /* floor of the last position past the input: TFLite would read outside x */
  (void)mrtq__rbf_at((int64_t)out_h - 1, sh, p->half_pixel_centers, (int64_t)H, &y0, &y1);
  if (y0 > (int64_t)H - 1)
    return MRTQ__ERR(MRTQ_ERANGE, "out_h: TFLite's float position of the last row is past the input (it would read outside x)");
  (void)mrtq__rbf_at((int64_t)out_w - 1, sw, p->half_pixel_centers, (int64_t)W, &x0, &x1);
  if (x0 > (int64_t)W - 1)
    return MRTQ__ERR(MRTQ_ERANGE, "out_w: TFLite's float position of the last column is past the input (it would read outside x)");
  for (n = 0; n < N; n++)
    for (yy = 0; yy < out_h; yy++) {
      float ty = mrtq__rbf_at((int64_t)yy, sh, p->half_pixel_centers, (int64_t)H, &y0, &y1);
      float dy = mrtq__f32_sub(ty, (float)y0), ey = mrtq__f32_sub(1.0f, dy);
      for (xx = 0; xx < out_w; xx++) {
        float tx = mrtq__rbf_at((int64_t)xx, sw, p->half_pixel_centers, (int64_t)W, &x0, &x1);
        float dx = mrtq__f32_sub(tx, (float)x0), ex = mrtq__f32_sub(1.0f, dx);
        const uint8_t *r0 = x + (n * H + (size_t)y0) * W * C, *r1 = x + (n * H + (size_t)y1) * W * C;
        /* the optimized kernel's weights, products first */
        float w00 = mrtq__f32_mul(ey, ex), w01 = mrtq__f32_mul(ey, dx), w10 = mrtq__f32_mul(dy, ex), w11 = mrtq__f32_mul(dy, dx);
        for (c = 0; c < C; c++) {
          float v00 = (float)r0[(size_t)x0 * C + c], v10 = (float)r1[(size_t)x0 * C + c];
          float v01 = (float)r0[(size_t)x1 * C + c], v11 = (float)r1[(size_t)x1 * C + c], v;
          if (opt) { /* ResizeBilinearGenericSmallChannel: (y0,x0), (y0,x1), (y1,x0), (y1,x1) */
            v = mrtq__f32_add(mrtq__f32_mul(v00, w00), mrtq__f32_mul(v01, w01));
            v = mrtq__f32_add(v, mrtq__f32_mul(v10, w10));
            v = mrtq__f32_add(v, mrtq__f32_mul(v11, w11));
          } else { /* ResizeBilinear<uint8_t>: (y0,x0), (y1,x0), (y0,x1), (y1,x1), value times each weight */
            v = mrtq__f32_mul(mrtq__f32_mul(v00, ey), ex);
            v = mrtq__f32_add(v, mrtq__f32_mul(mrtq__f32_mul(v10, dy), ex));
            v = mrtq__f32_add(v, mrtq__f32_mul(mrtq__f32_mul(v01, ey), dx));
            v = mrtq__f32_add(v, mrtq__f32_mul(mrtq__f32_mul(v11, dy), dx));
          }
          v = mrtq__f32_add(v, 0.5f);
          /* a weighted mean of bytes plus 1/2: in (0, 256), so the truncation is defined */
          *out++ = (uint8_t)(v <= 0.0f ? 0 : v >= 255.0f ? 255 : (int)v);
        }
      }
    }
  return MRTQ_OK;
}

/* ResizeBilinear888Uint8 (x8 upscale, half-pixel centres, C % 8 == 0): its
 * 8.8 accumulators are exact, so each output is floor(v + 1/2) of the real
 * interpolation v. Restated directly: along an axis, output o of the 8 per
 * input pixel has position (o + 1/2) / 8 - 1/2, i.e. pixel lo = floor and
 * fraction k / 16 with k odd; clamped to the edge outside [0, n - 1]. */
MRTQ__PRIV void mrtq__rb888_at(size_t o, size_t n, size_t *lo, size_t *hi, int64_t *k) {
  int64_t t = 2 * (int64_t)o + 1 - 8; /* position in 1/16 */
  if (t <= 0) {
    *lo = *hi = 0, *k = 0;
  } else if (t >= 16 * ((int64_t)n - 1)) {
    *lo = *hi = n - 1, *k = 0;
  } else {
    *lo = (size_t)(t / 16), *hi = *lo + 1, *k = t % 16;
  }
}

MRTQ__PRIV void mrtq__resize_bilinear_888(size_t N, size_t H, size_t W, size_t C, const uint8_t *x, uint8_t *out) {
  size_t n, yy, xx, c, y0, y1, x0, x1;
  int64_t ky, kx;
  for (n = 0; n < N; n++)
    for (yy = 0; yy < 8 * H; yy++) {
      mrtq__rb888_at(yy, H, &y0, &y1, &ky);
      for (xx = 0; xx < 8 * W; xx++) {
        const uint8_t *r0 = x + (n * H + y0) * W * C, *r1 = x + (n * H + y1) * W * C;
        mrtq__rb888_at(xx, W, &x0, &x1, &kx);
        for (c = 0; c < C; c++) {
          int64_t acc = (int64_t)r0[x0 * C + c] * (16 - ky) * (16 - kx) + (int64_t)r1[x0 * C + c] * ky * (16 - kx) +
                        (int64_t)r0[x1 * C + c] * (16 - ky) * kx + (int64_t)r1[x1 * C + c] * ky * kx;
          *out++ = (uint8_t)((acc + 128) >> 8); /* floor(acc / 256 + 1/2), acc >= 0 */
        }
      }
    }
}

MRTQ__PRIV mrtq_status mrtq__resize_bilinear(const mrtq_tflite_resize_params *p, const size_t *in_shape, size_t out_h,
                                             size_t out_w, const void *x, mrtq_dtype type, void *out, int rndnu,
                                             int opt) {
  int empty;
  size_t eb, n, c, yy, xx, N, H, W, C, o = 0;
  int64_t sh, sw, y0, y1, fy, x0, x1, fx;
  mrtq_status st = mrtq__resize_args(p, in_shape, out_h, out_w, x, type, out, &empty, &eb);
  if (st != MRTQ_OK) return st;
  if (p->align_corners && p->half_pixel_centers)
    return MRTQ__ERR(MRTQ_EINVAL, "p->half_pixel_centers: must be 0 with p->align_corners (TFLite's RESIZE_BILINEAR refuses both)");
  if (out_h == 0) return MRTQ__ERR(MRTQ_EINVAL, "out_h: must be >= 1 (TFLite's RESIZE_BILINEAR refuses a size <= 0)");
  if (out_w == 0) return MRTQ__ERR(MRTQ_EINVAL, "out_w: must be >= 1 (TFLite's RESIZE_BILINEAR refuses a size <= 0)");
  if (type != MRTQ_S8 && type != MRTQ_U8 && type != MRTQ_S16)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S16 (TFLite's RESIZE_BILINEAR types)");
  if (empty) return MRTQ_OK;
  N = in_shape[0], H = in_shape[1], W = in_shape[2], C = in_shape[3];
  if (type == MRTQ_U8 && opt && p->half_pixel_centers && out_h == 8 * H && out_w == 8 * W && C % 8 == 0) {
    mrtq__resize_bilinear_888(N, H, W, C, (const uint8_t *)x, (uint8_t *)out);
    return MRTQ_OK;
  }
  if (type == MRTQ_U8)
    return mrtq__resize_bilinear_f32(p, N, H, W, C, out_h, out_w, (const uint8_t *)x, (uint8_t *)out, opt);
  if ((st = mrtq__rb_scale((int64_t)H, (int64_t)out_h, p->align_corners, p->half_pixel_centers, &sh)) != MRTQ_OK) return st;
  if ((st = mrtq__rb_scale((int64_t)W, (int64_t)out_w, p->align_corners, p->half_pixel_centers, &sw)) != MRTQ_OK) return st;
  /* positions grow with the coordinate: the last one has the largest lo */
  mrtq__rb_at((int64_t)out_h - 1, sh, p->half_pixel_centers, (int64_t)H, &y0, &y1, &fy);
  if (y0 > (int64_t)H - 1)
    return MRTQ__ERR(MRTQ_ERANGE, "out_h: TFLite's rounded 10-bit scale puts the last row past the input (it would read outside x)");
  mrtq__rb_at((int64_t)out_w - 1, sw, p->half_pixel_centers, (int64_t)W, &x0, &x1, &fx);
  if (x0 > (int64_t)W - 1)
    return MRTQ__ERR(MRTQ_ERANGE, "out_w: TFLite's rounded 10-bit scale puts the last column past the input (it would read outside x)");
  for (n = 0; n < N; n++)
    for (yy = 0; yy < out_h; yy++) {
      mrtq__rb_at((int64_t)yy, sh, p->half_pixel_centers, (int64_t)H, &y0, &y1, &fy);
      for (xx = 0; xx < out_w; xx++) {
        size_t r0, r1;
        mrtq__rb_at((int64_t)xx, sw, p->half_pixel_centers, (int64_t)W, &x0, &x1, &fx);
        r0 = (n * H + (size_t)y0) * W, r1 = (n * H + (size_t)y1) * W;
        for (c = 0; c < C; c++, o++) {
          int64_t acc = (int64_t)mrtq__load(x, (r0 + (size_t)x0) * C + c, type) * (1024 - fy) * (1024 - fx) +
                        (int64_t)mrtq__load(x, (r1 + (size_t)x0) * C + c, type) * fy * (1024 - fx) +
                        (int64_t)mrtq__load(x, (r0 + (size_t)x1) * C + c, type) * (1024 - fy) * fx +
                        (int64_t)mrtq__load(x, (r1 + (size_t)x1) * C + c, type) * fy * fx;
          int64_t v = rndnu ? mrtq__asr64(acc + ((int64_t)1 << 19), 20)
                            : (acc + (acc > 0 ? ((int64_t)1 << 19) : -((int64_t)1 << 19))) / ((int64_t)1 << 20);
          mrtq__store(out, o, type, (int32_t)v); /* a weighted mean: within the type */
        }
      }
    }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_resize_bilinear(const mrtq_tflite_resize_params *p, const size_t *in_shape,
                                                 size_t out_h, size_t out_w, const void *x, mrtq_dtype type,
                                                 void *out) {
  return mrtq__resize_bilinear(p, in_shape, out_h, out_w, x, type, out, 0, 0);
}

MRTQ_API mrtq_status mrtq_tflite_resize_bilinear_rndnu(const mrtq_tflite_resize_params *p, const size_t *in_shape,
                                                       size_t out_h, size_t out_w, const void *x, mrtq_dtype type,
                                                       void *out) {
  return mrtq__resize_bilinear(p, in_shape, out_h, out_w, x, type, out, 1, 0);
}

MRTQ_API mrtq_status mrtq_tflite_resize_bilinear_opt(const mrtq_tflite_resize_params *p, const size_t *in_shape,
                                                     size_t out_h, size_t out_w, const void *x, mrtq_dtype type,
                                                     void *out) {
  return mrtq__resize_bilinear(p, in_shape, out_h, out_w, x, type, out, 0, 1);
}

/* ---- nearest neighbour ---- */

/* reference_ops::GetNearestNeighbor for output coordinate v. Every value here
 * is >= 0 (t is a product of non-negative floats), so floor is truncation and
 * TfLiteRound (half away from zero) is floor(t + 1/2), both exact in double
 * (t < 2^31 has at most 24 significant bits). */
MRTQ__PRIV size_t mrtq__rn_at(int64_t v, int64_t in, int64_t outn, int align, int hpc) {
  float scale = mrtq__rs_scale(in, outn, align);
  float t = mrtq__f32_mul(mrtq__f32_add((float)v, hpc ? 0.5f : 0.0f), scale);
  double r = align ? (double)t + 0.5 : (double)t;
  int64_t i = (int64_t)r; /* r >= 0: truncation is floor */
  if (i > in - 1) i = in - 1;
  if (i < 0) i = 0; /* TFLite: only with half_pixel_centers; i >= 0 anyway */
  return (size_t)i;
}

MRTQ_API mrtq_status mrtq_tflite_resize_nearest(const mrtq_tflite_resize_params *p, const size_t *in_shape,
                                                size_t out_h, size_t out_w, const void *x, mrtq_dtype type,
                                                void *out) {
  int empty;
  size_t eb, n, yy, xx, N, H, W, C, row;
  uint8_t *dst = (uint8_t *)out;
  const uint8_t *src = (const uint8_t *)x;
  mrtq_status st = mrtq__resize_args(p, in_shape, out_h, out_w, x, type, out, &empty, &eb);
  if (st != MRTQ_OK) return st;
  if (type == MRTQ_S4)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "type: must be MRTQ_S8, MRTQ_U8, MRTQ_S16 or MRTQ_S32 (TFLite has no int4 resize)");
  if (empty) return MRTQ_OK;
  N = in_shape[0], H = in_shape[1], W = in_shape[2], C = in_shape[3];
  row = C * eb; /* bytes per pixel */
  for (n = 0; n < N; n++)
    for (yy = 0; yy < out_h; yy++) {
      size_t iy = mrtq__rn_at((int64_t)yy, (int64_t)H, (int64_t)out_h, p->align_corners, p->half_pixel_centers);
      for (xx = 0; xx < out_w; xx++) {
        size_t ix = mrtq__rn_at((int64_t)xx, (int64_t)W, (int64_t)out_w, p->align_corners, p->half_pixel_centers);
        memcpy(dst, src + ((n * H + iy) * W + ix) * row, row);
        dst += row;
      }
    }
  return MRTQ_OK;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_RESIZE_H */
