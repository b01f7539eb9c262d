/* mrtq/scale.h: qparams schemes against published vectors (TFLite's
 * quantization_util_test.cc, ONNX's dynamicquantizelinear backend test) and
 * against each scheme's rule recomputed here in long double / with libm;
 * calibration against a naive index-by-index oracle. */
#include <float.h>
#include <math.h>

#include "harness.h"
#include "mrtq.h"

static void test_qrange(void) {
  int32_t lo, hi;
  int b;
  for (b = 2; b <= 32; b++) {
    CHECK_EQ(mrtq_qrange(b, 1, &lo, &hi), MRTQ_OK, "b=%d", b);
    CHECK(lo == -(long long)ldexp(1.0, b - 1) && hi == (long long)ldexp(1.0, b - 1) - 1);
    if (b <= 31) {
      CHECK_EQ(mrtq_qrange(b, 0, &lo, &hi), MRTQ_OK, "b=%d", b);
      CHECK(lo == 0 && hi == (long long)ldexp(1.0, b) - 1);
    }
  }
  CHECK_EQ(mrtq_qrange(0, 1, &lo, &hi), MRTQ_EINVAL, "bits 0");
  CHECK_EQ(mrtq_qrange(1, 1, &lo, &hi), MRTQ_EINVAL, "bits 1");
  CHECK_EQ(mrtq_qrange(33, 1, &lo, &hi), MRTQ_EINVAL, "bits 33");
  CHECK_EQ(mrtq_qrange(32, 0, &lo, &hi), MRTQ_ERANGE, "u32");
  CHECK_EQ(mrtq_qrange(8, 1, NULL, &hi), MRTQ_EINVAL, "NULL");
}

/* TFLite quantization_util_test.cc, ChooseQuantizationParams<uint8_t> cases
 * (scale within 1e-5 as published; zero points exact). */
static void test_tflite_published(void) {
  mrtq_qparams p = {0, 0, 0, 0};
  CHECK_EQ(mrtq_qparams_from_range(-10.0f, 30.0f, 8, 0, MRTQ_QS_TFLITE, &p), MRTQ_OK, "-10..30");
  CHECK(fabs(p.scale - 0.156863) < 1e-5 && p.zero_point == 64);
  CHECK_EQ(mrtq_qparams_from_range(0.0f, 30.0f, 8, 0, MRTQ_QS_TFLITE, &p), MRTQ_OK, "0..30");
  CHECK(fabs(p.scale - 0.117647) < 1e-5 && p.zero_point == 0);
  CHECK_EQ(mrtq_qparams_from_range(-10.0f, 0.0f, 8, 0, MRTQ_QS_TFLITE, &p), MRTQ_OK, "-10..0");
  CHECK(fabs(p.scale - 0.039216) < 1e-5 && p.zero_point == 255);
  /* TFLite returns scale 0 for the empty range {0}; mrtq gives scale 1 (documented) */
  CHECK_EQ(mrtq_qparams_from_range(0.0f, 0.0f, 8, 0, MRTQ_QS_TFLITE, &p), MRTQ_OK, "0..0");
  CHECK(p.scale == 1.0f && p.zero_point == 0);
}

/* ONNX backend test dynamicquantizelinear.py: the three published cases. */
static void check_onnx_case(const float *x, size_t n, float want_scale, int32_t want_zp) {
  float lo, hi;
  mrtq_qparams p = {0, 0, 0, 0};
  size_t i;
  CHECK_EQ(mrtq_minmax_f32(x, n, &lo, &hi), MRTQ_OK, "minmax");
  CHECK_EQ(mrtq_qparams_from_range(lo, hi, 8, 0, MRTQ_QS_ONNX_DYNAMIC, &p), MRTQ_OK, "onnx");
  CHECK(p.scale == want_scale);
  CHECK_EQ(p.zero_point, want_zp, "zp");
  CHECK(p.qmin == 0 && p.qmax == 255);
  for (i = 0; i < n; i++) { /* y = saturate(RNE(x / scale) + zp): quotient rounded via double (innocuous) */
    double r = nearbyint((double)(float)((double)x[i] / (double)p.scale)) + want_zp;
    CHECK_EQ(mrtq_quantize_f32(x[i], p.scale, p.zero_point, 0, 255), r < 0 ? 0 : r > 255 ? 255 : (long long)r, "y[%zu]", i);
  }
}

static void test_onnx_published(void) {
  const float a[] = {0, 2, -3, -2.5f, 1.34f, 0.5f};
  const float b[] = {-1.0f, -2.1f, -1.3f, -2.5f, -3.34f, -4.0f};
  const float c[] = {1, 2.1f, 1.3f, 2.5f, 3.34f, 4.0f, 1.5f, 2.6f, 3.9f, 4.0f, 3.0f, 2.345f};
  const float z[] = {0, 0, 0};
  mrtq_qparams p = {0, 0, 0, 0};
  check_onnx_case(a, 6, 0.0196078438f, 153);
  check_onnx_case(b, 6, 0.0156862754f, 255);
  check_onnx_case(c, 12, 0.0156862754f, 0);
  /* all zero: the ONNX reference defines scale 1 and zero point 0 */
  check_onnx_case(z, 3, 1.0f, 0);
  (void)p;
}

static float rand_f(void) {
  switch (th_rand32() % 4u) {
    case 0: return 0.0f;
    case 1: return (float)th_range(-1000, 1000) / 8.0f;
    default: return ldexpf((float)((int32_t)th_rand32()) / 2147483648.0f, (int)th_range(-20, 20));
  }
}

/* Every scheme against its rule recomputed independently, over random ranges,
 * widths and signedness; plus the properties every result must have. */
static void test_schemes_random(void) {
  long r;
  for (r = 0; r < 200000; r++) {
    float a = rand_f(), b = rand_f(), lo = a < b ? a : b, hi = a < b ? b : a;
    int bits = (int)th_range(2, 16), sg = (int)(th_rand32() & 1u);
    mrtq_qscheme s = (mrtq_qscheme)(th_rand32() % 4u);
    long double L = lo < 0 ? lo : 0, H = hi > 0 ? hi : 0;
    long long qmin = sg ? -(1LL << (bits - 1)) : 0, qmax = sg ? (1LL << (bits - 1)) - 1 : (1LL << bits) - 1;
    mrtq_qparams p = {0, 0, 0, 0};
    mrtq_status st = mrtq_qparams_from_range(lo, hi, bits, sg, s, &p);
    if (s == MRTQ_QS_SYMMETRIC && !sg && lo < 0) {
      CHECK_EQ(st, MRTQ_ERANGE, "unsigned symmetric with negatives");
      continue;
    }
    CHECK_EQ(st, MRTQ_OK, "lo=%a hi=%a bits=%d s=%d", (double)lo, (double)hi, bits, (int)s);
    if (st != MRTQ_OK) continue;
    CHECK(p.zero_point >= p.qmin && p.zero_point <= p.qmax && p.scale > 0);
    if (H == L) {
      CHECK(p.scale == 1.0f);
      continue;
    }
    switch (s) {
      case MRTQ_QS_SYMMETRIC: {
        long double amax = -L > H ? -L : H, top = sg ? qmax : qmax;
        CHECK(p.zero_point == 0 && p.qmax == qmax && p.qmin == (sg ? -qmax : 0));
        CHECK(p.scale == (float)(amax / top));
        break;
      }
      case MRTQ_QS_MRT_ZP: {
        /* zp_u = ceil(-sc * min): the exact rational value, allowing the
         * double computation to land on the other side only when it is within
         * 1e-9 of an integer */
        long double levels = ldexpl(1.0L, bits) - 1, exact = -L * levels / (H - L);
        long long zpu = p.zero_point - (sg ? -(1LL << (bits - 1)) : 0), c = (long long)ceill(exact);
        CHECK(zpu == c || fabsl(exact - roundl(exact)) < 1e-9L);
        CHECK(fabsl((long double)p.scale - (H - L) / levels) <= (H - L) / levels * 1e-7L);
        break;
      }
      case MRTQ_QS_ONNX_DYNAMIC: {
        float fs = (float)((double)((float)H - (float)L) / (double)(float)(qmax - qmin));
        float izp = (float)((double)(float)qmin - (double)(float)((double)(float)L / (double)fs));
        double zc = izp < qmin ? (double)qmin : izp > qmax ? (double)qmax : (double)izp;
        CHECK(p.scale == fs);
        CHECK_EQ(p.zero_point, (long long)nearbyint(zc), "onnx zp lo=%a hi=%a", (double)lo, (double)hi);
        break;
      }
      case MRTQ_QS_TFLITE: {
        double sc = ((double)H - (double)L) / (double)(qmax - qmin);
        double zmin = qmin - (double)L / sc, zmax = qmax - (double)H / sc;
        double emin = fabs((double)qmin) + fabs((double)L / sc), emax = fabs((double)qmax) + fabs((double)H / sc);
        double z = emin < emax ? zmin : zmax;
        long long want = z < qmin ? qmin : z > qmax ? qmax : (long long)round(z);
        CHECK(p.scale == (float)sc);
        CHECK_EQ(p.zero_point, want, "tflite lo=%a hi=%a", (double)lo, (double)hi);
        break;
      }
    }
    /* real 0 is exactly representable: it quantizes to the zero point */
    CHECK_EQ(mrtq_quantize_f32(0.0f, p.scale, p.zero_point, p.qmin, p.qmax), p.zero_point, "zero");
  }
}

static void test_scheme_bad_input(void) {
  mrtq_qparams p = {0.25f, 3, -1, 1}, keep = p;
  float bad[] = {NAN, INFINITY, -INFINITY};
  size_t i;
  int s;
  for (s = 0; s < 4; s++) {
    for (i = 0; i < 3; i++) {
      CHECK_EQ(mrtq_qparams_from_range(bad[i], 1.0f, 8, 1, (mrtq_qscheme)s, &p), MRTQ_EINVAL, "min bad");
      CHECK_EQ(mrtq_qparams_from_range(-1.0f, bad[i], 8, 1, (mrtq_qscheme)s, &p), MRTQ_EINVAL, "max bad");
    }
    CHECK_EQ(mrtq_qparams_from_range(1.0f, -1.0f, 8, 1, (mrtq_qscheme)s, &p), MRTQ_EINVAL, "min > max");
    CHECK_EQ(mrtq_qparams_from_range(-1.0f, 1.0f, 0, 1, (mrtq_qscheme)s, &p), MRTQ_EINVAL, "bits 0");
    CHECK_EQ(mrtq_qparams_from_range(-1.0f, 1.0f, 1, 1, (mrtq_qscheme)s, &p), MRTQ_EINVAL, "bits 1");
    CHECK_EQ(mrtq_qparams_from_range(-1.0f, 1.0f, 33, 1, (mrtq_qscheme)s, &p), MRTQ_EINVAL, "bits 33");
    CHECK_EQ(mrtq_qparams_from_range(0.0f, 1.0f, 32, 0, (mrtq_qscheme)s, &p), MRTQ_ERANGE, "u32");
    CHECK_EQ(mrtq_qparams_from_range(-1.0f, 1.0f, 8, 1, (mrtq_qscheme)s, NULL), MRTQ_EINVAL, "NULL");
    /* a range whose scale underflows float: the smallest denormal over 2^31 levels */
    CHECK_EQ(mrtq_qparams_from_range(0.0f, 0x1p-149f, 32, 1, (mrtq_qscheme)s, &p), MRTQ_ERANGE, "tiny");
    /* the widest range float allows: a finite scale in double math; ONNX's
       float32 max - min overflows to infinity */
    if (s == MRTQ_QS_ONNX_DYNAMIC) {
      CHECK_EQ(mrtq_qparams_from_range(-FLT_MAX, FLT_MAX, 2, 1, (mrtq_qscheme)s, &p), MRTQ_ERANGE, "huge");
    } else {
      CHECK_EQ(mrtq_qparams_from_range(-FLT_MAX, FLT_MAX, 2, 1, (mrtq_qscheme)s, &p), MRTQ_OK, "huge");
      CHECK(p.scale > 0 && p.scale <= FLT_MAX);
    }
    /* 16 and 32 bits work */
    CHECK_EQ(mrtq_qparams_from_range(-1.0f, 1.0f, 32, 1, (mrtq_qscheme)s, &p), MRTQ_OK, "32 bits");
    CHECK_EQ(mrtq_qparams_from_range(-1.0f, 1.0f, 16, 1, (mrtq_qscheme)s, &p), MRTQ_OK, "16 bits");
    p = keep;
  }
  CHECK_EQ(mrtq_qparams_from_range(-1.0f, 1.0f, 8, 1, (mrtq_qscheme)9, &p), MRTQ_EINVAL, "scheme");
  CHECK(p.scale == keep.scale && p.zero_point == keep.zero_point); /* unchanged on error */
}

static void test_mrt_sc_conversions(void) {
  mrtq_qparams p = {0, 0, 0, 0};
  double sc;
  /* MRT symmetric int8 on max|x| = 2: sc = 127 / 2, scale = 2 / 127 */
  CHECK_EQ(mrtq_qparams_from_range(-2.0f, 1.0f, 8, 1, MRTQ_QS_SYMMETRIC, &p), MRTQ_OK, "sym");
  CHECK(p.scale == (float)(2.0 / 127.0));
  CHECK_EQ(mrtq_qparams_to_mrt_sc(&p, &sc), MRTQ_OK, "to sc");
  CHECK(fabs(sc - 127.0 / 2.0) < 1e-5);
  CHECK_EQ(mrtq_qparams_from_mrt_sc(63.5, 0, 8, 1, &p), MRTQ_OK, "from sc");
  CHECK(p.scale == (float)(1 / 63.5) && p.zero_point == 0 && p.qmin == -128 && p.qmax == 127);
  /* MRT zero point, uint8 on [-1, 3]: sc = 255/4, zp = ceil(255/4) = 64 */
  CHECK_EQ(mrtq_qparams_from_range(-1.0f, 3.0f, 8, 0, MRTQ_QS_MRT_ZP, &p), MRTQ_OK, "zp");
  CHECK(p.zero_point == 64 && p.scale == (float)(4.0 / 255.0));
  CHECK_EQ(mrtq_qparams_from_range(-1.0f, 3.0f, 8, 1, MRTQ_QS_MRT_ZP, &p), MRTQ_OK, "zp signed");
  CHECK(p.zero_point == 64 - 128);
  CHECK_EQ(mrtq_qparams_from_mrt_sc(NAN, 0, 8, 1, &p), MRTQ_EINVAL, "nan");
  CHECK_EQ(mrtq_qparams_from_mrt_sc(-1.0, 0, 8, 1, &p), MRTQ_EINVAL, "neg");
  CHECK_EQ(mrtq_qparams_from_mrt_sc(0.0, 0, 8, 1, &p), MRTQ_EINVAL, "zero");
  CHECK_EQ(mrtq_qparams_from_mrt_sc(1.0, 200, 8, 1, &p), MRTQ_ERANGE, "zp range");
  CHECK_EQ(mrtq_qparams_from_mrt_sc(1e-300, 0, 8, 1, &p), MRTQ_ERANGE, "scale overflows float");
  p.scale = 0.0f;
  CHECK_EQ(mrtq_qparams_to_mrt_sc(&p, &sc), MRTQ_EINVAL, "scale 0");
  CHECK_EQ(mrtq_qparams_to_mrt_sc(NULL, &sc), MRTQ_EINVAL, "NULL");
}

/* Per-axis calibration against a naive oracle that decodes every flat index. */
static void test_calibration_axis(void) {
  static float x[4096];
  float mins[64], maxs[64], mabs[64];
  int trial;
  for (trial = 0; trial < 300; trial++) {
    int ndim = (int)th_range(1, 4), axis = (int)th_range(0, ndim - 1), d;
    size_t shape[4], n = 1, i, c;
    for (d = 0; d < ndim; d++) {
      shape[d] = (size_t)th_range(1, 7);
      n *= shape[d];
    }
    for (i = 0; i < n; i++) x[i] = rand_f();
    CHECK_EQ(mrtq_minmax_f32_axis(x, shape, ndim, axis, mins, maxs), MRTQ_OK, "minmax");
    CHECK_EQ(mrtq_maxabs_f32_axis(x, shape, ndim, axis, mabs), MRTQ_OK, "maxabs");
    for (c = 0; c < shape[axis]; c++) {
      float lo = INFINITY, hi = -INFINITY, ma = 0;
      for (i = 0; i < n; i++) {
        size_t rem = i, idx[4];
        for (d = ndim - 1; d >= 0; d--) {
          idx[d] = rem % shape[d];
          rem /= shape[d];
        }
        if (idx[axis] != c) continue;
        if (x[i] < lo) lo = x[i];
        if (x[i] > hi) hi = x[i];
        if (fabsf(x[i]) > ma) ma = fabsf(x[i]);
      }
      CHECK(mins[c] == lo && maxs[c] == hi && mabs[c] == ma);
    }
    { /* whole tensor */
      float lo = 0, hi = 0, ma = 0;
      CHECK_EQ(mrtq_minmax_f32(x, n, &lo, &hi), MRTQ_OK, "whole");
      CHECK_EQ(mrtq_maxabs_f32(x, n, &ma), MRTQ_OK, "whole");
      for (i = 0; i < n; i++) CHECK(x[i] >= lo && x[i] <= hi && fabsf(x[i]) <= ma);
    }
    { /* per-channel qparams equal per-range qparams */
      mrtq_qparams pc[64], one = {0, 0, 0, 0};
      CHECK_EQ(mrtq_qparams_per_channel(mins, maxs, shape[axis], 8, 1, MRTQ_QS_TFLITE, pc), MRTQ_OK, "pc");
      for (c = 0; c < shape[axis]; c++) {
        mrtq_qparams_from_range(mins[c], maxs[c], 8, 1, MRTQ_QS_TFLITE, &one);
        CHECK(pc[c].scale == one.scale && pc[c].zero_point == one.zero_point);
      }
    }
  }
}

static void test_calibration_bad_input(void) {
  float x[6] = {1, 2, 3, 4, 5, 6}, lo, hi, m[6], M[6];
  size_t shape[3] = {2, 3, 1}, zero[2] = {2, 0}, huge[3] = {SIZE_MAX / 2, 3, 1};
  mrtq_qparams p[2];
  CHECK_EQ(mrtq_minmax_f32(NULL, 6, &lo, &hi), MRTQ_EINVAL, "NULL");
  CHECK_EQ(mrtq_minmax_f32(x, 0, &lo, &hi), MRTQ_EINVAL, "empty");
  CHECK_EQ(mrtq_maxabs_f32(x, 6, NULL), MRTQ_EINVAL, "NULL");
  CHECK_EQ(mrtq_minmax_f32_axis(x, shape, 3, 3, m, M), MRTQ_ESHAPE, "axis");
  CHECK_EQ(mrtq_minmax_f32_axis(x, shape, 3, -1, m, M), MRTQ_ESHAPE, "axis");
  CHECK_EQ(mrtq_minmax_f32_axis(x, shape, 0, 0, m, M), MRTQ_ESHAPE, "ndim");
  CHECK_EQ(mrtq_minmax_f32_axis(x, zero, 2, 0, m, M), MRTQ_ESHAPE, "zero dim");
  CHECK_EQ(mrtq_minmax_f32_axis(x, huge, 3, 1, m, M), MRTQ_ESHAPE, "size_t overflow");
  CHECK_EQ(mrtq_maxabs_f32_axis(x, huge, 3, 1, m), MRTQ_ESHAPE, "size_t overflow");
  CHECK_EQ(mrtq_minmax_f32_axis(x, NULL, 3, 0, m, M), MRTQ_EINVAL, "NULL shape");
  x[4] = NAN;
  CHECK_EQ(mrtq_minmax_f32_axis(x, shape, 3, 1, m, M), MRTQ_EINVAL, "NaN");
  CHECK_EQ(mrtq_maxabs_f32(x, 6, &lo), MRTQ_EINVAL, "NaN");
  x[4] = -INFINITY;
  CHECK_EQ(mrtq_minmax_f32(x, 6, &lo, &hi), MRTQ_EINVAL, "inf");
  /* Outputs untouched on failure, even for channels before the bad element
   * (x[4] lies in channel 1 of 3 along axis 1). */
  m[0] = m[1] = m[2] = M[0] = M[1] = M[2] = -7.0f;
  CHECK_EQ(mrtq_maxabs_f32_axis(x, shape, 3, 1, m), MRTQ_EINVAL, "inf");
  CHECK_EQ(mrtq_minmax_f32_axis(x, shape, 3, 1, m, M), MRTQ_EINVAL, "inf");
  CHECK(m[0] == -7.0f && m[1] == -7.0f && m[2] == -7.0f);
  CHECK(M[0] == -7.0f && M[1] == -7.0f && M[2] == -7.0f);
  m[0] = 1;
  M[0] = 0;
  CHECK_EQ(mrtq_qparams_per_channel(m, M, 1, 8, 1, MRTQ_QS_TFLITE, p), MRTQ_EINVAL, "min > max");
  CHECK_EQ(mrtq_qparams_per_channel(m, M, 0, 8, 1, MRTQ_QS_TFLITE, p), MRTQ_EINVAL, "no channels");
}

int main(void) {
  TH_RUN(test_qrange);
  TH_RUN(test_tflite_published);
  TH_RUN(test_onnx_published);
  TH_RUN(test_schemes_random);
  TH_RUN(test_scheme_bad_input);
  TH_RUN(test_mrt_sc_conversions);
  TH_RUN(test_calibration_axis);
  TH_RUN(test_calibration_bad_input);
  return th_finish("test_scale");
}
