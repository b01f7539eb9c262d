/* Padding and concatenation (mrtq/shape.h) against explicit index loops
 * written here; concatenation's rescaling against mrtq_rq_apply element by
 * element (the families are tested on their own); merge-scale choices. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "mrtq.h"

static void test_pad(void) {
  static int8_t x[6 * 5 * 4], out[12 * 11 * 10];
  int trial;
  long long n = 0;
  for (trial = 0; trial < 300; trial++) {
    size_t s[3], b[3], a[3], o[3], i, j, k;
    int8_t v = (int8_t)th_rand32();
    for (i = 0; i < 3; i++) s[i] = (size_t)th_range(1, 6 - (int64_t)i), b[i] = (size_t)th_range(0, 3), a[i] = (size_t)th_range(0, 3);
    for (i = 0; i < s[0] * s[1] * s[2]; i++) x[i] = (int8_t)th_rand32();
    CHECK_EQ(mrtq_pad(s, 3, b, a, 1, x, &v, out), MRTQ_OK, "pad");
    for (i = 0; i < 3; i++) o[i] = s[i] + b[i] + a[i];
    for (i = 0; i < o[0]; i++)
      for (j = 0; j < o[1]; j++)
        for (k = 0; k < o[2]; k++) {
          int in = i >= b[0] && i < b[0] + s[0] && j >= b[1] && j < b[1] + s[1] && k >= b[2] && k < b[2] + s[2];
          int8_t want = in ? x[((i - b[0]) * s[1] + (j - b[1])) * s[2] + (k - b[2])] : v;
          CHECK_EQ(out[(i * o[1] + j) * o[2] + k], want, "trial %d (%zu,%zu,%zu)", trial, i, j, k);
          n++;
        }
  }
  {
    size_t s[2] = {2, 0}, b[2] = {0, 0}, s2[2] = {2, 3}, huge[2] = {SIZE_MAX / 2, 1}, big[2] = {(size_t)1 << 40, (size_t)1 << 40};
    int8_t v = 0;
    volatile size_t esz_v = (size_t)1 << 30; /* hidden from the optimizer, which would warn about the loop */
    size_t esz = esz_v;
    out[0] = 5;
    CHECK_REFUSED(mrtq_pad(s, 2, b, b, 1, x, &v, out), MRTQ_ESHAPE, "shape[d]: a zero dimension");
    CHECK_REFUSED(mrtq_pad(s, 9, b, b, 1, x, &v, out), MRTQ_EINVAL, "ndim: must be in [1, MRTQ_MAX_DIMS]");
    CHECK_REFUSED(mrtq_pad(s, 0, b, b, 1, x, &v, out), MRTQ_EINVAL, "ndim: must be in [1, MRTQ_MAX_DIMS]");
    CHECK_REFUSED(mrtq_pad(s2, 2, b, b, 1, NULL, &v, out), MRTQ_EINVAL, "x: NULL");
    CHECK_REFUSED(mrtq_pad(NULL, 2, b, b, 1, x, &v, out), MRTQ_EINVAL, "shape: NULL");
    CHECK_REFUSED(mrtq_pad(s2, 2, NULL, b, 1, x, &v, out), MRTQ_EINVAL, "before: NULL");
    CHECK_REFUSED(mrtq_pad(s2, 2, b, NULL, 1, x, &v, out), MRTQ_EINVAL, "after: NULL");
    CHECK_REFUSED(mrtq_pad(s2, 2, b, b, 0, x, &v, out), MRTQ_EINVAL, "elem_size: must be >= 1");
    CHECK_REFUSED(mrtq_pad(s2, 2, b, b, 1, x, NULL, out), MRTQ_EINVAL, "value: NULL");
    CHECK_REFUSED(mrtq_pad(s2, 2, b, b, 1, x, &v, NULL), MRTQ_EINVAL, "out: NULL");
    CHECK_REFUSED(mrtq_pad(huge, 2, b, b, 1, x, &v, out), MRTQ_ESHAPE, "shape, before, after: a padded size overflows size_t");
    CHECK_REFUSED(mrtq_pad(big, 2, b, b, 1, x, &v, out), MRTQ_ESHAPE, "shape, before, after: the element count overflows size_t");
    CHECK_REFUSED(mrtq_pad(big + 1, 1, b, b, esz, x, &v, out), MRTQ_ESHAPE, "elem_size: the byte count overflows size_t");
    CHECK_EQ(out[0], 5, "untouched");
  }
  /* the constant: round half to even of pv / scale, plus zp */
  CHECK_EQ(mrtq_pad_value(0.25f, 0.5f, 3, -128, 127), 3, "0.5 -> 0 (even)");
  CHECK_EQ(mrtq_pad_value(0.75f, 0.5f, 3, -128, 127), 5, "1.5 -> 2");
  CHECK_EQ(mrtq_pad_value(0.0f, 0.1f, -7, -128, 127), -7, "real 0 is the zero point");
  printf("  %lld padded elements compared\n", n);
}

static void test_concat(void) {
  static int8_t in[3][4 * 7 * 5], out[4 * 21 * 5];
  int trial;
  long long n = 0;
  for (trial = 0; trial < 200; trial++) {
    size_t shp[3][3], k, i, j, l, nin = (size_t)th_range(1, 3);
    int axis = (int)th_range(0, 2), u = (int)(th_rand32() & 1u);
    const void *xs[3];
    const size_t *ss[3];
    int32_t zx[3];
    mrtq_rq rqs[3];
    const mrtq_rq *rp[3];
    double scales[3], so = 0;
    size_t base[3] = {(size_t)th_range(1, 4), (size_t)th_range(1, 7), (size_t)th_range(1, 5)}, tot = 0;
    for (k = 0; k < nin; k++) {
      for (i = 0; i < 3; i++) shp[k][i] = (int)i == axis ? (size_t)th_range(1, 7 - (int64_t)(i == 1 ? 0 : 2)) : base[i];
      if (shp[k][axis] > (axis == 1 ? 7u : axis == 0 ? 4u : 5u)) shp[k][axis] = 1;
      for (i = 0; i < shp[k][0] * shp[k][1] * shp[k][2]; i++) in[k][i] = (int8_t)th_rand32();
      xs[k] = in[k], ss[k] = shp[k], tot += shp[k][axis];
      zx[k] = u ? (int32_t)th_range(0, 255) : (int32_t)th_range(-128, 127);
      scales[k] = 0.01 * (double)th_range(1, 9);
    }
    CHECK_EQ(mrtq_merge_scale((trial & 1) ? MRTQ_MERGE_MAX_SCALE : MRTQ_MERGE_MIN_SCALE, scales, nin, &so), MRTQ_OK, "merge scale");
    for (k = 0; k < nin; k++) {
      CHECK_EQ(mrtq_rq_init((mrtq_scheme)(trial % 5), scales[k] / so, (int32_t)th_range(-3, 3), u ? 0 : -128, u ? 255 : 127, &rqs[k]),
               MRTQ_OK, "rq");
      rp[k] = (k == 1 && trial % 3 == 0) ? NULL : &rqs[k]; /* sometimes a plain copy */
    }
    CHECK_EQ(mrtq_concat(ss, nin, 3, axis, rp, xs, zx, (u) ? MRTQ_U8 : MRTQ_S8, out), MRTQ_OK, "concat");
    { /* each input element, at its place in the output */
      size_t o[3], first = 0;
      o[0] = base[0], o[1] = base[1], o[2] = base[2];
      o[axis] = tot;
      for (k = 0; k < nin; k++) {
        for (i = 0; i < shp[k][0]; i++)
          for (j = 0; j < shp[k][1]; j++)
            for (l = 0; l < shp[k][2]; l++) {
              size_t p3[3], at = (i * shp[k][1] + j) * shp[k][2] + l;
              int32_t v = u ? (int32_t)(uint8_t)in[k][at] : (int32_t)in[k][at];
              uint8_t want = rp[k] ? (uint8_t)mrtq_rq_apply(rp[k], v - zx[k], u ? 0 : -128, u ? 255 : 127)
                                   : (uint8_t)in[k][at];
              p3[0] = i, p3[1] = j, p3[2] = l;
              p3[axis] += first;
              CHECK_EQ((uint8_t)out[(p3[0] * o[1] + p3[1]) * o[2] + p3[2]], want, "trial %d axis %d input %zu", trial,
                       axis, k);
              n++;
            }
        first += shp[k][axis];
      }
    }
  }
  {
    double sc[3] = {0.1, 0.05, 0.2}, r = 0;
    CHECK_EQ(mrtq_merge_scale(MRTQ_MERGE_MIN_SCALE, sc, 3, &r), MRTQ_OK, "min");
    CHECK(r == 0.05);
    CHECK_EQ(mrtq_merge_scale(MRTQ_MERGE_MAX_SCALE, sc, 3, &r), MRTQ_OK, "max");
    CHECK(r == 0.2);
    sc[1] = -1;
    CHECK_REFUSED(mrtq_merge_scale(MRTQ_MERGE_MAX_SCALE, sc, 3, &r), MRTQ_EINVAL, "scale[i]: must be finite and > 0");
    sc[1] = NAN;
    CHECK_REFUSED(mrtq_merge_scale(MRTQ_MERGE_MIN_SCALE, sc, 3, &r), MRTQ_EINVAL, "scale[i]: must be finite and > 0");
    sc[1] = 0.05;
    CHECK_REFUSED(mrtq_merge_scale((mrtq_merge)2, sc, 3, &r), MRTQ_EINVAL, "choice: must be MRTQ_MERGE_MIN_SCALE or MRTQ_MERGE_MAX_SCALE");
    CHECK_REFUSED(mrtq_merge_scale(MRTQ_MERGE_MIN_SCALE, NULL, 3, &r), MRTQ_EINVAL, "scale: NULL");
    CHECK_REFUSED(mrtq_merge_scale(MRTQ_MERGE_MIN_SCALE, sc, 3, NULL), MRTQ_EINVAL, "out: NULL");
    CHECK_REFUSED(mrtq_merge_scale(MRTQ_MERGE_MIN_SCALE, sc, 0, &r), MRTQ_EINVAL, "n: must be >= 1");
    CHECK(r == 0.2); /* unchanged by the refusals */
  }
  {
    size_t s1[2] = {2, 3}, s2[2] = {3, 3};
    const size_t *ss[2] = {s1, s2};
    const void *xs[2] = {in[0], in[1]};
    int32_t zx[2] = {0, 0};
    const mrtq_rq *rp[2] = {NULL, NULL};
    size_t z[2] = {2, 0}, big[2] = {SIZE_MAX / 2 + 1, 1}, wide[2] = {2, SIZE_MAX / 2};
    const size_t *sz[2] = {s1, z}, *sbig[2] = {big, big}, *swide[2] = {wide, wide}, *snull[2] = {s1, NULL};
    const void *xnull[2] = {in[0], NULL};
    int32_t zbad[2] = {0, 128};
    CHECK_REFUSED(mrtq_concat(ss, 2, 2, 1, rp, xs, zx, MRTQ_S8, out), MRTQ_ESHAPE, "shapes[k][d]: differs from shapes[0][d] off the axis");
    CHECK_EQ(mrtq_concat(ss, 2, 2, 0, rp, xs, zx, MRTQ_S8, out), MRTQ_OK, "along axis 0");
    out[0] = 42;
    CHECK_REFUSED(mrtq_concat(ss, 2, 2, 2, rp, xs, zx, MRTQ_S8, out), MRTQ_EINVAL, "axis: must be in [0, ndim)");
    CHECK_REFUSED(mrtq_concat(ss, 2, 9, 0, rp, xs, zx, MRTQ_S8, out), MRTQ_EINVAL, "ndim: must be in [1, MRTQ_MAX_DIMS]");
    CHECK_REFUSED(mrtq_concat(ss, 0, 2, 0, rp, xs, zx, MRTQ_S8, out), MRTQ_EINVAL, "n: must be >= 1");
    CHECK_REFUSED(mrtq_concat(NULL, 2, 2, 0, rp, xs, zx, MRTQ_S8, out), MRTQ_EINVAL, "shapes: NULL");
    CHECK_REFUSED(mrtq_concat(ss, 2, 2, 0, NULL, xs, zx, MRTQ_S8, out), MRTQ_EINVAL, "rq: NULL");
    CHECK_REFUSED(mrtq_concat(ss, 2, 2, 0, rp, NULL, zx, MRTQ_S8, out), MRTQ_EINVAL, "x: NULL");
    CHECK_REFUSED(mrtq_concat(ss, 2, 2, 0, rp, xs, NULL, MRTQ_S8, out), MRTQ_EINVAL, "x_zp: NULL");
    CHECK_REFUSED(mrtq_concat(ss, 2, 2, 0, rp, xs, zx, MRTQ_S8, NULL), MRTQ_EINVAL, "out: NULL");
    CHECK_REFUSED(mrtq_concat(ss, 2, 2, 0, rp, xnull, zx, MRTQ_S8, out), MRTQ_EINVAL, "x[k]: NULL");
    CHECK_REFUSED(mrtq_concat(snull, 2, 2, 0, rp, xs, zx, MRTQ_S8, out), MRTQ_EINVAL, "shapes[k]: NULL");
    CHECK_REFUSED(mrtq_concat(ss, 2, 2, 0, rp, xs, zbad, MRTQ_S8, out), MRTQ_EINVAL, "x_zp[k]: outside type");
    {
      mrtq_rq bad;
      const mrtq_rq *rbad[2];
      CHECK_EQ(mrtq_rq_init(MRTQ_Q15_VTA, 0.5, 0, -128, 127, &bad), MRTQ_OK, "rq");
      bad.scale = 1.0f, rbad[0] = NULL, rbad[1] = &bad; /* a field the scheme never reads */
      CHECK_REFUSED(mrtq_concat(ss, 2, 2, 0, rbad, xs, zx, MRTQ_S8, out), MRTQ_EINVAL, "rq[k]->scale: must be 0 with a fixed-point scheme");
    }
    CHECK_EQ(mrtq_concat(ss, 2, 2, 0, rp, xs, zbad, MRTQ_U8, out), MRTQ_OK, "128 is a uint8 zero point");
    out[0] = 42;
    CHECK_REFUSED(mrtq_concat(ss, 2, 2, 0, rp, xs, zx, MRTQ_S16, out), MRTQ_EUNSUPPORTED, "type: must be MRTQ_S8 or MRTQ_U8");
    CHECK_REFUSED(mrtq_concat(ss, 2, 2, 0, rp, xs, zx, (mrtq_dtype)0, out), MRTQ_EINVAL, "type: not an mrtq_dtype");
    CHECK_REFUSED(mrtq_concat(sz, 2, 2, 0, rp, xs, zx, MRTQ_S8, out), MRTQ_ESHAPE, "shapes[k][d]: a zero dimension");
    CHECK_REFUSED(mrtq_concat(sbig, 2, 2, 0, rp, xs, zx, MRTQ_S8, out), MRTQ_ESHAPE, "shapes: the concatenated axis overflows size_t");
    CHECK_REFUSED(mrtq_concat(swide, 2, 2, 1, rp, xs, zx, MRTQ_S8, out), MRTQ_ESHAPE, "shapes: the element count overflows size_t");
    CHECK_REFUSED(mrtq_concat(swide, 2, 2, 0, rp, xs, zx, MRTQ_S8, out), MRTQ_ESHAPE, "shapes: the element count overflows size_t");
    CHECK_EQ(out[0], 42, "untouched");
  }
  printf("  %lld concatenated elements compared\n", n);
}

/* Per-input f32 scales on a concatenation (oneDNN 3.x's concat with src
 * scales; oneDNN 2.6 refuses them): mrtq_concat with an MRTQ_FP32
 * requantization of scale_k per input gives RNE(fl(scale_k x)) + zp,
 * saturated. Oracle: the product exact in double, rounded once to float by
 * the cast, lrint (ties to even), clamp. */
static void test_concat_scales(void) {
  static uint8_t in[4][600], out[4 * 600];
  int trial;
  long long n = 0;
  for (trial = 0; trial < 200; trial++) {
    size_t nin = (size_t)th_range(1, 4), rows = (size_t)th_range(1, 6), shp[4][2], k, i, j, first = 0, tot = 0;
    int u = (int)(th_rand32() & 1u);
    int32_t zp = u ? (int32_t)th_range(0, 255) : (int32_t)th_range(-128, 127), zx[4] = {0, 0, 0, 0}, lo = u ? 0 : -128,
            hi = u ? 255 : 127;
    float sc[4];
    mrtq_rq rqs[4];
    const mrtq_rq *rp[4];
    const void *xs[4];
    const size_t *ss[4];
    for (k = 0; k < nin; k++) {
      shp[k][0] = rows, shp[k][1] = (size_t)th_range(1, 100), tot += shp[k][1];
      sc[k] = (float)((1.0 + (double)(th_rand32() % 8388607u + 1u) / 8388608.0) * ldexp(1.0, -(int)th_range(-1, 6)));
      for (i = 0; i < rows * shp[k][1]; i++) in[k][i] = (uint8_t)th_rand32();
      CHECK_EQ(mrtq_rq_init(MRTQ_FP32, (double)sc[k], zp, lo, hi, &rqs[k]), MRTQ_OK, "rq");
      rp[k] = &rqs[k], xs[k] = in[k], ss[k] = shp[k];
    }
    CHECK_EQ(mrtq_concat(ss, nin, 2, 1, rp, xs, zx, (u) ? MRTQ_U8 : MRTQ_S8, out), MRTQ_OK, "concat");
    for (k = 0; k < nin; first += shp[k][1], k++)
      for (i = 0; i < rows; i++)
        for (j = 0; j < shp[k][1]; j++) {
          int32_t v = u ? (int32_t)in[k][i * shp[k][1] + j] : (int32_t)(int8_t)in[k][i * shp[k][1] + j];
          long want = lrint((double)(float)((double)sc[k] * v)) + zp;
          uint8_t got = out[i * tot + first + j];
          want = want < lo ? lo : want > hi ? hi : want;
          CHECK_EQ(u ? (long)got : (long)(int8_t)got, want, "trial %d input %zu (%zu, %zu), scale %a", trial, k, i, j, sc[k]);
          n++;
        }
  }
  printf("  %lld elements concatenated with per-input f32 scales\n", n);
}

int main(void) {
  TH_RUN(test_pad);
  TH_RUN(test_concat);
  TH_RUN(test_concat_scales);
  return th_finish("test_shape");
}
