/* mrtq/scale.h: qparams schemes against published vectors (TFLite's
 * quantization_util_test.cc, ONNX's dynamicquantizelinear backend test) and
 * against each scheme's rule recomputed here in long double / with libm;
 * calibration against a naive index-by-index oracle. */
#include <float.h>
#include <math.h>

#include "harness.h"
#include "mrtq.h"

/* The type's precision: signed types [-2^(b-1), 2^(b-1) - 1] for every b from
 * 2 to the type's width, MRTQ_U8 [0, 2^b - 1]; bits 0 is the full width. */
static void test_qrange(void) {
  static const mrtq_dtype types[] = {MRTQ_S4, MRTQ_S8, MRTQ_S16, MRTQ_S32, MRTQ_U8};
  int32_t lo = 0, hi = 0;
  int b, t;
  for (t = 0; t < 5; t++) {
    mrtq_dtype ty = types[t];
    int w = mrtq_dtype_bits(ty), sg = ty != MRTQ_U8;
    int32_t tlo = 0, thi = 0;
    CHECK_EQ(mrtq_dtype_range(ty, &tlo, &thi), MRTQ_OK, "range");
    CHECK_EQ(mrtq_qrange(ty, 0, &lo, &hi), MRTQ_OK, "full %s", mrtq_dtype_str(ty));
    CHECK(lo == tlo && hi == thi);
    for (b = 2; b <= w; b++) {
      CHECK_EQ(mrtq_qrange(ty, b, &lo, &hi), MRTQ_OK, "%s b=%d", mrtq_dtype_str(ty), b);
      if (sg) CHECK(lo == -(long long)ldexp(1.0, b - 1) && hi == (long long)ldexp(1.0, b - 1) - 1);
      else CHECK(lo == 0 && hi == (long long)ldexp(1.0, b) - 1);
    }
    CHECK_REFUSED(mrtq_qrange(ty, w + 1, &lo, &hi), MRTQ_EINVAL, "bits: must be 0");
    CHECK_REFUSED(mrtq_qrange(ty, 1, &lo, &hi), MRTQ_EINVAL, "bits: must be 0");
    CHECK_REFUSED(mrtq_qrange(ty, -1, &lo, &hi), MRTQ_EINVAL, "bits: must be 0");
  }
  CHECK_REFUSED(mrtq_qrange(MRTQ_S32, 33, &lo, &hi), MRTQ_EINVAL, "bits");
  CHECK_REFUSED(mrtq_qrange(MRTQ_U8, 9, &lo, &hi), MRTQ_EINVAL, "bits");
  CHECK_REFUSED(mrtq_qrange((mrtq_dtype)0, 8, &lo, &hi), MRTQ_EINVAL, "type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_qrange((mrtq_dtype)9, 0, &lo, &hi), MRTQ_EINVAL, "type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_qrange(MRTQ_S8, 8, NULL, &hi), MRTQ_EINVAL, "qmin, qmax: NULL");
  CHECK_REFUSED(mrtq_qrange(MRTQ_S8, 8, &lo, NULL), MRTQ_EINVAL, "qmin, qmax: NULL");
}

/* TFLite quantization_util_test.cc, ChooseQuantizationParams<uint8_t> cases
 * (scale within 1e-5 as published; zero points exact). */
static void test_tflite_published(void) {
  mrtq_qparams p = {0, 0, 0, 0};
  CHECK_EQ(mrtq_qparams_from_range(MRTQ_QS_TFLITE, -10.0f, 30.0f, MRTQ_U8, 8, &p), MRTQ_OK, "-10..30");
  CHECK(fabs(p.scale - 0.156863) < 1e-5 && p.zp == 64);
  CHECK_EQ(mrtq_qparams_from_range(MRTQ_QS_TFLITE, 0.0f, 30.0f, MRTQ_U8, 8, &p), MRTQ_OK, "0..30");
  CHECK(fabs(p.scale - 0.117647) < 1e-5 && p.zp == 0);
  CHECK_EQ(mrtq_qparams_from_range(MRTQ_QS_TFLITE, -10.0f, 0.0f, MRTQ_U8, 8, &p), MRTQ_OK, "-10..0");
  CHECK(fabs(p.scale - 0.039216) < 1e-5 && p.zp == 255);
  /* TFLite returns scale 0 for the empty range {0}; mrtq gives scale 1 (documented) */
  CHECK_EQ(mrtq_qparams_from_range(MRTQ_QS_TFLITE, 0.0f, 0.0f, MRTQ_U8, 8, &p), MRTQ_OK, "0..0");
  CHECK(p.scale == 1.0f && p.zp == 0);
}

/* ONNX backend test dynamicquantizelinear.py: the three published cases. */
static void check_onnx_case(const float *x, size_t n, float want_scale, int32_t want_zp) {
  float lo, hi;
  mrtq_qparams p = {0, 0, 0, 0};
  size_t i;
  CHECK_EQ(mrtq_minmax_f32(x, n, &lo, &hi), MRTQ_OK, "minmax");
  CHECK_EQ(mrtq_qparams_from_range(MRTQ_QS_ONNX_DYNAMIC, lo, hi, MRTQ_U8, 8, &p), MRTQ_OK, "onnx");
  CHECK(p.scale == want_scale);
  CHECK_EQ(p.zp, want_zp, "zp");
  CHECK(p.qmin == 0 && p.qmax == 255);
  for (i = 0; i < n; i++) { /* y = saturate(RNE(x / scale) + zp): quotient rounded via double (innocuous) */
    double r = nearbyint((double)(float)((double)x[i] / (double)p.scale)) + want_zp;
    CHECK_EQ(mrtq_quantize_f32(x[i], p.scale, p.zp, 0, 255), r < 0 ? 0 : r > 255 ? 255 : (long long)r, "y[%zu]", i);
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
    int sg = (int)(th_rand32() & 1u), bits = sg ? (int)th_range(2, 16) : (int)th_range(2, 8);
    /* the storage type: U8, or a signed type at least bits wide; its full width passed as 0 half the time */
    mrtq_dtype ty = !sg ? MRTQ_U8 : bits <= 8 && (th_rand32() & 1u) ? MRTQ_S8 : (th_rand32() & 1u) ? MRTQ_S16 : MRTQ_S32;
    int pass = bits == mrtq_dtype_bits(ty) && (th_rand32() & 1u) ? 0 : bits;
    mrtq_qscheme s = (mrtq_qscheme)(th_rand32() % 4u);
    long double L = lo < 0 ? lo : 0, H = hi > 0 ? hi : 0;
    long long qmin = sg ? -(1LL << (bits - 1)) : 0, qmax = sg ? (1LL << (bits - 1)) - 1 : (1LL << bits) - 1;
    mrtq_qparams p = {0, 0, 0, 0};
    mrtq_status st = mrtq_qparams_from_range(s, lo, hi, ty, pass, &p);
    if (s == MRTQ_QS_SYMMETRIC && !sg && lo < 0) {
      CHECK_EQ(st, MRTQ_ERANGE, "unsigned symmetric with negatives");
      CHECK(th_why && strstr(th_why, "min: must be >= 0 for MRTQ_QS_SYMMETRIC on MRTQ_U8"));
      continue;
    }
    CHECK_EQ(st, MRTQ_OK, "lo=%a hi=%a bits=%d s=%d", (double)lo, (double)hi, bits, (int)s);
    if (st != MRTQ_OK) continue;
    CHECK(p.zp >= p.qmin && p.zp <= p.qmax && p.scale > 0);
    if (H == L) {
      CHECK(p.scale == 1.0f);
      continue;
    }
    switch (s) {
      case MRTQ_QS_SYMMETRIC: {
        long double amax = -L > H ? -L : H, top = sg ? qmax : qmax;
        CHECK(p.zp == 0 && p.qmax == qmax && p.qmin == (sg ? -qmax : 0));
        CHECK(p.scale == (float)(amax / top));
        break;
      }
      case MRTQ_QS_MRT_ZP: {
        /* zp_u = ceil(-sc * min): the exact rational value, allowing the
         * double computation to land on the other side only when it is within
         * 1e-9 of an integer */
        long double levels = ldexpl(1.0L, bits) - 1, exact = -L * levels / (H - L);
        long long zpu = p.zp - (sg ? -(1LL << (bits - 1)) : 0), c = (long long)ceill(exact);
        CHECK(zpu == c || fabsl(exact - roundl(exact)) < 1e-9L);
        CHECK(fabsl((long double)p.scale - (H - L) / levels) <= (H - L) / levels * 1e-7L);
        break;
      }
      case MRTQ_QS_ONNX_DYNAMIC: {
        float fs = (float)((double)((float)H - (float)L) / (double)(float)(qmax - qmin));
        float izp = (float)((double)(float)qmin - (double)(float)((double)(float)L / (double)fs));
        double zc = izp < qmin ? (double)qmin : izp > qmax ? (double)qmax : (double)izp;
        CHECK(p.scale == fs);
        CHECK_EQ(p.zp, (long long)nearbyint(zc), "onnx zp lo=%a hi=%a", (double)lo, (double)hi);
        break;
      }
      case MRTQ_QS_TFLITE: {
        double sc = ((double)H - (double)L) / (double)(qmax - qmin);
        double zmin = qmin - (double)L / sc, zmax = qmax - (double)H / sc;
        double emin = fabs((double)qmin) + fabs((double)L / sc), emax = fabs((double)qmax) + fabs((double)H / sc);
        double z = emin < emax ? zmin : zmax;
        long long want = z < qmin ? qmin : z > qmax ? qmax : (long long)round(z);
        CHECK(p.scale == (float)sc);
        CHECK_EQ(p.zp, want, "tflite lo=%a hi=%a", (double)lo, (double)hi);
        break;
      }
    }
    /* real 0 is exactly representable: it quantizes to the zero point */
    CHECK_EQ(mrtq_quantize_f32(0.0f, p.scale, p.zp, p.qmin, p.qmax), p.zp, "zero");
  }
}

static void test_scheme_bad_input(void) {
  mrtq_qparams p = {0.25f, 3, -1, 1}, keep = p;
  float bad[] = {NAN, INFINITY, -INFINITY};
  size_t i;
  int s;
  for (s = 0; s < 4; s++) {
    for (i = 0; i < 3; i++) {
      CHECK_REFUSED(mrtq_qparams_from_range((mrtq_qscheme)s, bad[i], 1.0f, MRTQ_S8, 8, &p), MRTQ_EINVAL, "min: NaN or infinite");
      CHECK_REFUSED(mrtq_qparams_from_range((mrtq_qscheme)s, -1.0f, bad[i], MRTQ_S8, 8, &p), MRTQ_EINVAL, "max: NaN or infinite");
    }
    CHECK_REFUSED(mrtq_qparams_from_range((mrtq_qscheme)s, 1.0f, -1.0f, MRTQ_S8, 8, &p), MRTQ_EINVAL, "min, max: min > max");
    CHECK_REFUSED(mrtq_qparams_from_range((mrtq_qscheme)s, -1.0f, 1.0f, MRTQ_S8, 1, &p), MRTQ_EINVAL, "bits: must be 0");
    CHECK_REFUSED(mrtq_qparams_from_range((mrtq_qscheme)s, -1.0f, 1.0f, MRTQ_S8, 9, &p), MRTQ_EINVAL, "bits: must be 0");
    CHECK_REFUSED(mrtq_qparams_from_range((mrtq_qscheme)s, -1.0f, 1.0f, MRTQ_S32, 33, &p), MRTQ_EINVAL, "bits: must be 0");
    CHECK_REFUSED(mrtq_qparams_from_range((mrtq_qscheme)s, 0.0f, 1.0f, MRTQ_U8, 9, &p), MRTQ_EINVAL, "bits: must be 0");
    CHECK_REFUSED(mrtq_qparams_from_range((mrtq_qscheme)s, 0.0f, 1.0f, (mrtq_dtype)0, 8, &p), MRTQ_EINVAL, "type: not an mrtq_dtype");
    CHECK_REFUSED(mrtq_qparams_from_range((mrtq_qscheme)s, -1.0f, 1.0f, MRTQ_S8, 8, NULL), MRTQ_EINVAL, "out: NULL");
    /* a range whose scale underflows float: the smallest denormal over 2^31 levels */
    if (s == MRTQ_QS_ONNX_DYNAMIC)
      CHECK_REFUSED(mrtq_qparams_from_range((mrtq_qscheme)s, 0.0f, 0x1p-149f, MRTQ_S32, 32, &p), MRTQ_ERANGE,
                    "min, max: the float32 scale");
    else
      CHECK_REFUSED(mrtq_qparams_from_range((mrtq_qscheme)s, 0.0f, 0x1p-149f, MRTQ_S32, 0, &p), MRTQ_ERANGE,
                    "min, max: the scale is not a positive finite float");
    /* the widest range float allows: a finite scale in double math; ONNX's
       float32 max - min overflows to infinity */
    if (s == MRTQ_QS_ONNX_DYNAMIC) {
      CHECK_REFUSED(mrtq_qparams_from_range((mrtq_qscheme)s, -FLT_MAX, FLT_MAX, MRTQ_S8, 2, &p), MRTQ_ERANGE,
                    "min, max: the float32 scale");
    } else {
      CHECK_EQ(mrtq_qparams_from_range((mrtq_qscheme)s, -FLT_MAX, FLT_MAX, MRTQ_S8, 2, &p), MRTQ_OK, "huge");
      CHECK(p.scale > 0 && p.scale <= FLT_MAX);
    }
    /* 4, 16 and 32 bits work, as a narrower range or as the full type */
    CHECK_EQ(mrtq_qparams_from_range((mrtq_qscheme)s, -1.0f, 1.0f, MRTQ_S32, 32, &p), MRTQ_OK, "32 bits");
    CHECK_EQ(mrtq_qparams_from_range((mrtq_qscheme)s, -1.0f, 1.0f, MRTQ_S32, 0, &p), MRTQ_OK, "s32");
    CHECK(p.qmax == (s == MRTQ_QS_SYMMETRIC ? INT32_MAX : INT32_MAX) && p.qmin == (s == MRTQ_QS_SYMMETRIC ? -INT32_MAX : INT32_MIN));
    CHECK_EQ(mrtq_qparams_from_range((mrtq_qscheme)s, -1.0f, 1.0f, MRTQ_S16, 16, &p), MRTQ_OK, "16 bits");
    CHECK_EQ(mrtq_qparams_from_range((mrtq_qscheme)s, -1.0f, 1.0f, MRTQ_S4, 0, &p), MRTQ_OK, "s4");
    CHECK(p.qmax == 7 && p.qmin == (s == MRTQ_QS_SYMMETRIC ? -7 : -8));
    CHECK_EQ(mrtq_qparams_from_range((mrtq_qscheme)s, -1.0f, 1.0f, MRTQ_S8, 4, &p), MRTQ_OK, "int4 in int8");
    CHECK(p.qmax == 7 && p.qmin == (s == MRTQ_QS_SYMMETRIC ? -7 : -8));
    p = keep;
  }
  CHECK_REFUSED(mrtq_qparams_from_range((mrtq_qscheme)9, -1.0f, 1.0f, MRTQ_S8, 8, &p), MRTQ_EINVAL, "scheme: not an mrtq_qscheme");
  CHECK(p.scale == keep.scale && p.zp == keep.zp); /* unchanged on error */
  CHECK_REFUSED(mrtq_qparams_from_range(MRTQ_QS_SYMMETRIC, -1.0f, 1.0f, MRTQ_U8, 0, &p), MRTQ_ERANGE,
                "min: must be >= 0 for MRTQ_QS_SYMMETRIC on MRTQ_U8");
  CHECK(p.scale == keep.scale && p.zp == keep.zp && p.qmin == keep.qmin && p.qmax == keep.qmax);
}

static void test_mrt_sc_conversions(void) {
  mrtq_qparams p = {0, 0, 0, 0};
  double sc;
  /* MRT symmetric int8 on max|x| = 2: sc = 127 / 2, scale = 2 / 127 */
  CHECK_EQ(mrtq_qparams_from_range(MRTQ_QS_SYMMETRIC, -2.0f, 1.0f, MRTQ_S8, 8, &p), MRTQ_OK, "sym");
  CHECK(p.scale == (float)(2.0 / 127.0));
  CHECK_EQ(mrtq_qparams_to_mrt_sc(&p, &sc), MRTQ_OK, "to sc");
  CHECK(fabs(sc - 127.0 / 2.0) < 1e-5);
  CHECK_EQ(mrtq_qparams_from_mrt_sc(63.5, 0, MRTQ_S8, 8, &p), MRTQ_OK, "from sc");
  CHECK(p.scale == (float)(1 / 63.5) && p.zp == 0 && p.qmin == -128 && p.qmax == 127);
  /* MRT zero point, uint8 on [-1, 3]: sc = 255/4, zp = ceil(255/4) = 64 */
  CHECK_EQ(mrtq_qparams_from_range(MRTQ_QS_MRT_ZP, -1.0f, 3.0f, MRTQ_U8, 8, &p), MRTQ_OK, "zp");
  CHECK(p.zp == 64 && p.scale == (float)(4.0 / 255.0));
  CHECK_EQ(mrtq_qparams_from_range(MRTQ_QS_MRT_ZP, -1.0f, 3.0f, MRTQ_S8, 8, &p), MRTQ_OK, "zp signed");
  CHECK(p.zp == 64 - 128);
  CHECK_EQ(mrtq_qparams_from_mrt_sc(63.5, -8, MRTQ_S8, 4, &p), MRTQ_OK, "int4 range in int8");
  CHECK(p.qmin == -8 && p.qmax == 7 && p.zp == -8);
  CHECK_EQ(mrtq_qparams_from_mrt_sc(63.5, 255, MRTQ_U8, 0, &p), MRTQ_OK, "u8");
  CHECK(p.qmin == 0 && p.qmax == 255 && p.zp == 255);
  CHECK_REFUSED(mrtq_qparams_from_mrt_sc(NAN, 0, MRTQ_S8, 8, &p), MRTQ_EINVAL, "sc: must be finite and > 0");
  CHECK_REFUSED(mrtq_qparams_from_mrt_sc(-1.0, 0, MRTQ_S8, 8, &p), MRTQ_EINVAL, "sc: must be finite and > 0");
  CHECK_REFUSED(mrtq_qparams_from_mrt_sc(0.0, 0, MRTQ_S8, 8, &p), MRTQ_EINVAL, "sc: must be finite and > 0");
  CHECK_REFUSED(mrtq_qparams_from_mrt_sc(1.0, 200, MRTQ_S8, 8, &p), MRTQ_ERANGE, "zp: outside the range");
  CHECK_REFUSED(mrtq_qparams_from_mrt_sc(1.0, 8, MRTQ_S8, 4, &p), MRTQ_ERANGE, "zp: outside the range");
  CHECK_REFUSED(mrtq_qparams_from_mrt_sc(1e-300, 0, MRTQ_S8, 8, &p), MRTQ_ERANGE, "sc: 1 / sc exceeds FLT_MAX");
  CHECK_REFUSED(mrtq_qparams_from_mrt_sc(1e300, 0, MRTQ_S8, 8, &p), MRTQ_ERANGE, "sc: 1 / sc rounds to 0 in float");
  CHECK_REFUSED(mrtq_qparams_from_mrt_sc(1.0, 0, MRTQ_S8, 8, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_qparams_from_mrt_sc(1.0, 0, MRTQ_S8, 1, &p), MRTQ_EINVAL, "bits: must be 0");
  CHECK_REFUSED(mrtq_qparams_from_mrt_sc(1.0, 0, (mrtq_dtype)7, 0, &p), MRTQ_EINVAL, "type: not an mrtq_dtype");
  CHECK(p.qmin == 0 && p.qmax == 255 && p.zp == 255); /* unchanged by the refusals */
  p.scale = 0.0f;
  CHECK_REFUSED(mrtq_qparams_to_mrt_sc(&p, &sc), MRTQ_EINVAL, "p->scale: must be finite and > 0");
  p.scale = INFINITY;
  CHECK_REFUSED(mrtq_qparams_to_mrt_sc(&p, &sc), MRTQ_EINVAL, "p->scale: must be finite and > 0");
  CHECK_REFUSED(mrtq_qparams_to_mrt_sc(NULL, &sc), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_qparams_to_mrt_sc(&p, NULL), MRTQ_EINVAL, "sc: NULL");
  p.scale = 0.5f, p.zp = 0, p.qmin = 5, p.qmax = 4;
  CHECK_REFUSED(mrtq_qparams_to_mrt_sc(&p, &sc), MRTQ_EINVAL, "p->qmin, p->qmax: qmin > qmax");
  p.qmin = -128, p.qmax = 127, p.zp = 128;
  CHECK_REFUSED(mrtq_qparams_to_mrt_sc(&p, &sc), MRTQ_EINVAL, "p->zp: outside [p->qmin, p->qmax]");
  p.zp = 127;
  CHECK_EQ(mrtq_qparams_to_mrt_sc(&p, &sc), MRTQ_OK, "zp at qmax");
  CHECK(sc == 2.0);
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
    CHECK_EQ(mrtq_minmax_f32_axis(shape, ndim, axis, x, mins, maxs), MRTQ_OK, "minmax");
    CHECK_EQ(mrtq_maxabs_f32_axis(shape, ndim, axis, x, mabs), MRTQ_OK, "maxabs");
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
      CHECK_EQ(mrtq_qparams_per_channel(MRTQ_QS_TFLITE, mins, maxs, shape[axis], MRTQ_S8, 8, pc), MRTQ_OK, "pc");
      for (c = 0; c < shape[axis]; c++) {
        mrtq_qparams_from_range(MRTQ_QS_TFLITE, mins[c], maxs[c], MRTQ_S8, 8, &one);
        CHECK(pc[c].scale == one.scale && pc[c].zp == one.zp);
      }
    }
  }
}

static void test_calibration_bad_input(void) {
  float x[6] = {1, 2, 3, 4, 5, 6}, lo, hi, m[6], M[6];
  size_t shape[3] = {2, 3, 1}, zero[2] = {2, 0}, huge[3] = {SIZE_MAX / 2, 3, 1};
  mrtq_qparams p[2] = {{0.5f, 1, 2, 3}, {0.5f, 1, 2, 3}};
  CHECK_REFUSED(mrtq_minmax_f32(NULL, 6, &lo, &hi), MRTQ_EINVAL, "x: NULL");
  CHECK_REFUSED(mrtq_minmax_f32(x, 6, NULL, &hi), MRTQ_EINVAL, "min, max: NULL");
  CHECK_REFUSED(mrtq_minmax_f32(x, 0, &lo, &hi), MRTQ_EINVAL, "n: must be >= 1");
  CHECK_REFUSED(mrtq_maxabs_f32(x, 6, NULL), MRTQ_EINVAL, "maxabs: NULL");
  CHECK_REFUSED(mrtq_maxabs_f32(NULL, 6, &lo), MRTQ_EINVAL, "x: NULL");
  CHECK_REFUSED(mrtq_maxabs_f32(x, 0, &lo), MRTQ_EINVAL, "n: must be >= 1");
  CHECK_REFUSED(mrtq_minmax_f32_axis(shape, 3, 3, x, m, M), MRTQ_ESHAPE, "axis: must be in [0, ndim)");
  CHECK_REFUSED(mrtq_minmax_f32_axis(shape, 3, -1, x, m, M), MRTQ_ESHAPE, "axis: must be in [0, ndim)");
  CHECK_REFUSED(mrtq_minmax_f32_axis(shape, 0, 0, x, m, M), MRTQ_ESHAPE, "ndim: must be >= 1");
  CHECK_REFUSED(mrtq_minmax_f32_axis(zero, 2, 0, x, m, M), MRTQ_ESHAPE, "shape[d]: a zero dimension");
  CHECK_REFUSED(mrtq_minmax_f32_axis(huge, 3, 1, x, m, M), MRTQ_ESHAPE, "shape: element count overflows size_t");
  CHECK_REFUSED(mrtq_maxabs_f32_axis(huge, 3, 1, x, m), MRTQ_ESHAPE, "shape: element count overflows size_t");
  CHECK_REFUSED(mrtq_minmax_f32_axis(NULL, 3, 0, x, m, M), MRTQ_EINVAL, "shape: NULL");
  CHECK_REFUSED(mrtq_minmax_f32_axis(shape, 3, 0, NULL, m, M), MRTQ_EINVAL, "x: NULL");
  CHECK_REFUSED(mrtq_minmax_f32_axis(shape, 3, 0, x, NULL, M), MRTQ_EINVAL, "mins: NULL");
  CHECK_REFUSED(mrtq_minmax_f32_axis(shape, 3, 0, x, m, NULL), MRTQ_EINVAL, "maxs: NULL");
  CHECK_REFUSED(mrtq_maxabs_f32_axis(shape, 3, 0, x, NULL), MRTQ_EINVAL, "maxabs: NULL");
  CHECK_REFUSED(mrtq_maxabs_f32_axis(shape, 3, 0, NULL, m), MRTQ_EINVAL, "x: NULL");
  x[4] = NAN;
  CHECK_REFUSED(mrtq_minmax_f32_axis(shape, 3, 1, x, m, M), MRTQ_EINVAL, "x: a NaN or infinite element");
  CHECK_REFUSED(mrtq_maxabs_f32(x, 6, &lo), MRTQ_EINVAL, "x: a NaN or infinite element");
  x[4] = -INFINITY;
  CHECK_REFUSED(mrtq_minmax_f32(x, 6, &lo, &hi), MRTQ_EINVAL, "x: a NaN or infinite element");
  /* Outputs untouched on failure, even for channels before the bad element
   * (x[4] lies in channel 1 of 3 along axis 1). */
  m[0] = m[1] = m[2] = M[0] = M[1] = M[2] = -7.0f;
  CHECK_REFUSED(mrtq_maxabs_f32_axis(shape, 3, 1, x, m), MRTQ_EINVAL, "x: a NaN or infinite element");
  CHECK_REFUSED(mrtq_minmax_f32_axis(shape, 3, 1, x, m, M), MRTQ_EINVAL, "x: a NaN or infinite element");
  CHECK(m[0] == -7.0f && m[1] == -7.0f && m[2] == -7.0f);
  CHECK(M[0] == -7.0f && M[1] == -7.0f && M[2] == -7.0f);
  m[0] = 1;
  M[0] = 0;
  CHECK_REFUSED(mrtq_qparams_per_channel(MRTQ_QS_TFLITE, m, M, 1, MRTQ_S8, 8, p), MRTQ_EINVAL, "min, max: min > max");
  CHECK_REFUSED(mrtq_qparams_per_channel(MRTQ_QS_TFLITE, m, M, 0, MRTQ_S8, 8, p), MRTQ_EINVAL, "channels: must be >= 1");
  CHECK_REFUSED(mrtq_qparams_per_channel(MRTQ_QS_TFLITE, NULL, M, 1, MRTQ_S8, 8, p), MRTQ_EINVAL, "mins: NULL");
  CHECK_REFUSED(mrtq_qparams_per_channel(MRTQ_QS_TFLITE, m, NULL, 1, MRTQ_S8, 8, p), MRTQ_EINVAL, "maxs: NULL");
  CHECK_REFUSED(mrtq_qparams_per_channel(MRTQ_QS_TFLITE, m, M, 1, MRTQ_S8, 8, NULL), MRTQ_EINVAL, "out: NULL");
  /* a refusal in a later channel writes no channel */
  m[0] = -1, M[0] = 1, m[1] = 2, M[1] = 1;
  CHECK_REFUSED(mrtq_qparams_per_channel(MRTQ_QS_TFLITE, m, M, 2, MRTQ_S8, 8, p), MRTQ_EINVAL, "min, max: min > max");
  CHECK(p[0].scale == 0.5f && p[0].zp == 1 && p[0].qmin == 2 && p[0].qmax == 3);
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
