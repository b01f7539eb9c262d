/* mrtq/ort.h without ONNX Runtime: each function against a restatement of
 * ORT's arithmetic written here from its formula (libm's fmaf for the fused
 * steps, volatile floats for the single roundings), the published QLinearMul
 * vector, the edge values, and every refusal. tests/test_ort.c compares the
 * same functions with real ONNX Runtime. */
#include "harness.h"

#include <float.h>
#include <math.h>

#include "mrtq.h"

static float th_float(void) { /* a random finite float of either sign, any exponent */
  uint32_t u;
  float f;
  do {
    u = th_rand32();
    memcpy(&f, &u, sizeof f);
  } while (!isfinite(f));
  return f;
}
static float th_scale(int lo, int hi) {
  return ldexpf(1.0f + (float)(th_rand32() >> 9) / 8388608.0f, (int)th_range(lo, hi));
}

/* A refused init must leave its parameters untouched: fill them with a
 * pattern, refuse, compare. */
#define REFUSED_KEEPS(call, code, substr, pp)                                   \
  do {                                                                          \
    unsigned char th_was_[sizeof *(pp)];                                        \
    memset((pp), 0xa5, sizeof *(pp));                                           \
    memcpy(th_was_, (pp), sizeof *(pp));                                        \
    CHECK_REFUSED(call, code, substr);                                          \
    CHECK(memcmp(th_was_, (pp), sizeof *(pp)) == 0);                            \
  } while (0)

static void t_qlinear_scale(void) {
  float w[64], out[64];
  for (int it = 0; it < 2000; it++) {
    size_t n = (size_t)th_range(1, 64);
    float x = th_scale(-12, 0), y = th_scale(-10, 2);
    for (size_t j = 0; j < n; j++) w[j] = th_scale(-12, 0);
    CHECK_EQ(mrtq_ort_qlinear_scale(x, w, n, y, out), MRTQ_OK, "it %d", it);
    for (size_t j = 0; j < n; j++) {
      volatile float p = x * w[j];
      volatile float q = p / y;
      CHECK(out[j] == q);
    }
  }
  float one = 1.0f, big = 3e38f, tiny = 1e-30f;
  CHECK_REFUSED(mrtq_ort_qlinear_scale(1, NULL, 1, 1, out), MRTQ_EINVAL, "w_scale / out: NULL");
  CHECK_REFUSED(mrtq_ort_qlinear_scale(1, &one, 1, 1, NULL), MRTQ_EINVAL, "w_scale / out: NULL");
  CHECK_REFUSED(mrtq_ort_qlinear_scale(1, &one, 0, 1, out), MRTQ_EINVAL, "n: no weight scale");
  const float bad[] = {NAN, INFINITY, 0.0f, -1.0f, -0.0f};
  for (int k = 0; k < 5; k++) {
    CHECK_REFUSED(mrtq_ort_qlinear_scale(bad[k], &one, 1, 1, out), MRTQ_EINVAL, "x_scale: not finite and positive");
    CHECK_REFUSED(mrtq_ort_qlinear_scale(1, &one, 1, bad[k], out), MRTQ_EINVAL, "y_scale: not finite and positive");
    CHECK_REFUSED(mrtq_ort_qlinear_scale(1, &bad[k], 1, 1, out), MRTQ_EINVAL, "w_scale[j]: not finite and positive");
  }
  for (int it = 0; it < 2000; it++) {
    float al = th_scale(-3, 3), x = th_scale(-12, 0), y = th_scale(-10, 2);
    w[0] = th_scale(-12, 0), w[1] = th_scale(-12, 0);
    CHECK_EQ(mrtq_ort_qgemm_scale(al, x, w, 2, y, out), MRTQ_OK, "it %d", it);
    for (int j = 0; j < 2; j++) {
      volatile float ax = al * x, p = ax * w[j], q = p / y;
      CHECK(out[j] == q);
    }
  }
  CHECK_REFUSED(mrtq_ort_qgemm_scale(-1, 1, &one, 1, 1, out), MRTQ_EINVAL, "alpha: not finite and positive");
  CHECK_REFUSED(mrtq_ort_qgemm_scale(1, NAN, &one, 1, 1, out), MRTQ_EINVAL, "a_scale: not finite and positive");
  CHECK_REFUSED(mrtq_ort_qgemm_scale(big, big, &one, 1, 1, out), MRTQ_ERANGE, "alpha: alpha * a_scale overflows");
  CHECK_REFUSED(mrtq_ort_qlinear_scale(big, &big, 1, 1, out), MRTQ_ERANGE, "w_scale[j]: x_scale * w_scale / y_scale");
  CHECK_REFUSED(mrtq_ort_qlinear_scale(tiny, &tiny, 1, 1e10f, out), MRTQ_ERANGE, "rounds to 0 in float");
}

/* ORT's QuantizeLinear restated: the float quotient clamped in float to
 * [qmin - zp, qmax - zp] (max then min, NaN taking the lower bound), rounded
 * half to even (rintf), plus zp. */
static int32_t ort_q(float x, float s, int32_t zp, int32_t lo, int32_t hi) {
  volatile float f = x / s;
  float a = (float)(lo - zp), b = (float)(hi - zp);
  float g = f > a ? f : a; /* NaN: a */
  g = g < b ? g : b;
  return (int32_t)rintf(g) + zp;
}

static void t_quantize(void) {
  static float x[4096];
  static uint8_t out[4096];
  for (int it = 0; it < 300; it++) {
    mrtq_dtype t = it % 2 ? MRTQ_S8 : MRTQ_U8;
    int32_t lo = t == MRTQ_S8 ? -128 : 0, hi = lo + 255, zp = (int32_t)th_range(lo, hi);
    float s = it % 7 ? th_scale(-12, 6) : th_float();
    size_t n = (size_t)th_range(1, 4096);
    for (size_t i = 0; i < n; i++) {
      switch (th_rand32() % 6) {
        case 0: x[i] = th_float(); break;
        case 1: x[i] = ((float)th_range(-300, 300) + 0.5f) * s; break; /* ties */
        case 2: x[i] = (float)(th_rand32() % 3 == 0 ? NAN : th_rand32() % 2 ? INFINITY : -INFINITY); break;
        default: x[i] = (float)th_range(-40000, 40000) / 128.0f * s;
      }
    }
    CHECK_EQ(mrtq_ort_quantize_linear(x, n, s, zp, t, out), MRTQ_OK, "it %d", it);
    for (size_t i = 0; i < n; i++) {
      int32_t got = t == MRTQ_S8 ? (int8_t)out[i] : out[i];
      CHECK_EQ(got, ort_q(x[i], s, zp, lo, hi), "it %d i %zu x %a s %a zp %d", it, i, x[i], s, zp);
      if (isnan(x[i]) && zp != lo) CHECK(got != mrtq_quantize_f32(x[i], s, zp, lo, hi)); /* where ORT differs */
    }
  }
  uint8_t o;
  float one = 1.0f;
  CHECK_REFUSED(mrtq_ort_quantize_linear(&one, 1, 1, 0, MRTQ_S16, &o), MRTQ_EUNSUPPORTED, "type: ORT's 8-bit operators");
  CHECK_REFUSED(mrtq_ort_quantize_linear(&one, 1, 1, 0, (mrtq_dtype)0, &o), MRTQ_EINVAL, "type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_ort_quantize_linear(&one, 1, 1, 256, MRTQ_U8, &o), MRTQ_EINVAL, "zp: outside the type");
  CHECK_REFUSED(mrtq_ort_quantize_linear(&one, 1, 1, -129, MRTQ_S8, &o), MRTQ_EINVAL, "zp: outside the type");
  CHECK_REFUSED(mrtq_ort_quantize_linear(NULL, 1, 1, 0, MRTQ_U8, &o), MRTQ_EINVAL, "x / out: NULL");
  CHECK_REFUSED(mrtq_ort_quantize_linear(&one, 1, 1, 0, MRTQ_U8, NULL), MRTQ_EINVAL, "x / out: NULL");
  CHECK_EQ(mrtq_ort_quantize_linear(NULL, 0, 1, 0, MRTQ_U8, NULL), MRTQ_OK, "n 0");
}

static void t_dequantize(void) {
  static uint8_t q8[256];
  int32_t q32[64];
  float out[256];
  for (int it = 0; it < 200; it++) {
    mrtq_dtype t = it % 2 ? MRTQ_S8 : MRTQ_U8;
    int32_t lo = t == MRTQ_S8 ? -128 : 0, zp = (int32_t)th_range(lo, lo + 255);
    float s = th_scale(-20, 20);
    for (int i = 0; i < 256; i++) q8[i] = (uint8_t)i;
    CHECK_EQ(mrtq_ort_dequantize_linear(q8, 256, s, zp, t, out), MRTQ_OK, "it %d", it);
    for (int i = 0; i < 256; i++) {
      int32_t v = t == MRTQ_S8 ? (int8_t)q8[i] : q8[i];
      volatile float want = (float)(v - zp) * s;
      CHECK(out[i] == want);
    }
    for (int i = 0; i < 64; i++) q32[i] = (int32_t)th_rand32();
    q32[0] = INT32_MIN, q32[1] = INT32_MAX, q32[2] = (1 << 24) + 1;
    CHECK_EQ(mrtq_ort_dequantize_linear(q32, 64, s, 0, MRTQ_S32, out), MRTQ_OK, "s32");
    for (int i = 0; i < 64; i++) {
      volatile float want = (float)q32[i] * s;
      CHECK(out[i] == want);
    }
  }
  CHECK_REFUSED(mrtq_ort_dequantize_linear(q32, 1, 1, 1, MRTQ_S32, out), MRTQ_EINVAL, "zp: must be 0 for int32");
  CHECK_REFUSED(mrtq_ort_dequantize_linear(q32, 1, 1, 0, MRTQ_S16, out), MRTQ_EUNSUPPORTED, "type: DequantizeLinear");
  CHECK_REFUSED(mrtq_ort_dequantize_linear(q32, 1, 1, 0, (mrtq_dtype)9, out), MRTQ_EINVAL, "type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_ort_dequantize_linear(q32, 1, 1, 128, MRTQ_S8, out), MRTQ_EINVAL, "zp: outside the type");
  CHECK_REFUSED(mrtq_ort_dequantize_linear(NULL, 1, 1, 0, MRTQ_S8, out), MRTQ_EINVAL, "q / out: NULL");
  CHECK_REFUSED(mrtq_ort_dequantize_linear(q32, 1, 1, 0, MRTQ_S8, NULL), MRTQ_EINVAL, "q / out: NULL");
}

/* Per axis against per-tensor calls made element by element from the index
 * arithmetic written here. */
static void t_axis(void) {
  static float x[2 * 3 * 4 * 5], s[5], back[2 * 3 * 4 * 5];
  static uint8_t q[2 * 3 * 4 * 5];
  int32_t zp[5];
  const size_t shape[4] = {2, 3, 4, 5};
  for (int it = 0; it < 200; it++) {
    int ndim = 1 + (int)(th_rand32() % 4), axis = (int)th_range(-ndim, ndim - 1), a = axis < 0 ? axis + ndim : axis;
    const size_t *sh = shape + 4 - ndim;
    size_t n = 1, inner = 1;
    for (int d = 0; d < ndim; d++) n *= sh[d];
    for (int d = a + 1; d < ndim; d++) inner *= sh[d];
    mrtq_dtype t = it % 2 ? MRTQ_S8 : MRTQ_U8;
    int32_t lo = t == MRTQ_S8 ? -128 : 0, hi = lo + 255;
    for (size_t c = 0; c < sh[a]; c++) s[c] = th_scale(-8, 2), zp[c] = (int32_t)th_range(lo, hi);
    for (size_t i = 0; i < n; i++) x[i] = i % 9 == 0 ? NAN : (float)th_range(-30000, 30000) / 64.0f * s[0];
    int usezp = it % 3 != 0;
    CHECK_EQ(mrtq_ort_quantize_linear_axis(x, sh, ndim, axis, s, usezp ? zp : NULL, t, q), MRTQ_OK, "it %d", it);
    CHECK_EQ(mrtq_ort_dequantize_linear_axis(q, sh, ndim, axis, s, usezp ? zp : NULL, t, back), MRTQ_OK, "it %d", it);
    for (size_t i = 0; i < n; i++) {
      size_t c = (i / inner) % sh[a];
      int32_t z = usezp ? zp[c] : 0, got = t == MRTQ_S8 ? (int8_t)q[i] : q[i];
      CHECK_EQ(got, ort_q(x[i], s[c], z, lo, hi), "it %d i %zu", it, i);
      volatile float want = (float)(got - z) * s[c];
      CHECK(back[i] == want);
    }
  }
  size_t zero[2] = {2, 0}, huge[3] = {SIZE_MAX / 2, 3, 1};
  CHECK_REFUSED(mrtq_ort_quantize_linear_axis(x, NULL, 1, 0, s, zp, MRTQ_U8, q), MRTQ_EINVAL, "shape: NULL");
  CHECK_REFUSED(mrtq_ort_quantize_linear_axis(x, shape, 0, 0, s, zp, MRTQ_U8, q), MRTQ_EINVAL, "ndim: outside");
  CHECK_REFUSED(mrtq_ort_quantize_linear_axis(x, shape, 9, 0, s, zp, MRTQ_U8, q), MRTQ_EINVAL, "ndim: outside");
  CHECK_REFUSED(mrtq_ort_quantize_linear_axis(x, shape, 4, 4, s, zp, MRTQ_U8, q), MRTQ_EINVAL, "axis: outside");
  CHECK_REFUSED(mrtq_ort_dequantize_linear_axis(q, shape, 4, -5, s, zp, MRTQ_U8, x), MRTQ_EINVAL, "axis: outside");
  CHECK_REFUSED(mrtq_ort_quantize_linear_axis(x, zero, 2, 0, s, zp, MRTQ_U8, q), MRTQ_ESHAPE, "a zero dimension");
  CHECK_REFUSED(mrtq_ort_quantize_linear_axis(x, huge, 3, 0, s, zp, MRTQ_U8, q), MRTQ_ESHAPE, "overflows size_t");
  CHECK_REFUSED(mrtq_ort_quantize_linear_axis(x, shape, 4, 0, NULL, zp, MRTQ_U8, q), MRTQ_EINVAL,
                "x / scale / out: NULL");
  CHECK_REFUSED(mrtq_ort_dequantize_linear_axis(q, shape, 4, 0, s, zp, MRTQ_U8, NULL), MRTQ_EINVAL,
                "q / scale / out: NULL");
  zp[1] = 300;
  CHECK_REFUSED(mrtq_ort_quantize_linear_axis(x, shape, 4, 0, s, zp, MRTQ_U8, q), MRTQ_EINVAL, "zp: outside the type");
  CHECK_REFUSED(mrtq_ort_dequantize_linear_axis(q, shape, 4, 0, s, zp, MRTQ_U8, x), MRTQ_EINVAL, "zp: outside");
}

/* DynamicQuantizeLinear: the parameters equal mrtq_qparams_from_range's
 * MRTQ_QS_ONNX_DYNAMIC for the range widened to 0, the data ORT's quantize. */
static void t_dynamic(void) {
  static float x[1000];
  static uint8_t y[1000];
  for (int it = 0; it < 500; it++) {
    size_t n = (size_t)th_range(1, 1000);
    float sc = ldexpf(1.0f, (int)th_range(-20, 20)), off = it % 4 == 0 ? sc * 3 : it % 4 == 1 ? -sc * 5 : 0;
    for (size_t i = 0; i < n; i++) x[i] = it % 10 == 0 ? off : (float)th_range(-1000000, 1000000) / 1e6f * sc + off;
    float s = 0, lo = 0, hi = 0;
    int32_t zp = -1;
    CHECK_EQ(mrtq_ort_dynamic_quantize_linear(x, n, y, &s, &zp), MRTQ_OK, "it %d", it);
    for (size_t i = 0; i < n; i++) lo = fminf(lo, x[i]), hi = fmaxf(hi, x[i]);
    mrtq_qparams qp = {0, 0, 0, 0};
    CHECK_EQ(mrtq_qparams_from_range(MRTQ_QS_ONNX_DYNAMIC, lo, hi, MRTQ_U8, 0, &qp), MRTQ_OK, "it %d", it);
    CHECK(s == qp.scale);
    CHECK_EQ(zp, qp.zp, "it %d", it);
    for (size_t i = 0; i < n; i++) CHECK_EQ(y[i], ort_q(x[i], s, zp, 0, 255), "it %d i %zu", it, i);
  }
  float s, bad[2] = {1.0f, NAN};
  int32_t zp;
  CHECK_REFUSED(mrtq_ort_dynamic_quantize_linear(NULL, 1, y, &s, &zp), MRTQ_EINVAL, "x / y / scale / zp: NULL");
  CHECK_REFUSED(mrtq_ort_dynamic_quantize_linear(x, 1, y, NULL, &zp), MRTQ_EINVAL, "x / y / scale / zp: NULL");
  CHECK_REFUSED(mrtq_ort_dynamic_quantize_linear(x, 0, y, &s, &zp), MRTQ_EINVAL, "n: an empty tensor has no range");
  CHECK_REFUSED(mrtq_ort_dynamic_quantize_linear(bad, 2, y, &s, &zp), MRTQ_EINVAL, "x[i]: NaN or infinite");
  bad[1] = -INFINITY;
  CHECK_REFUSED(mrtq_ort_dynamic_quantize_linear(bad, 2, y, &s, &zp), MRTQ_EINVAL, "x[i]: NaN or infinite");
}

/* QLinearAdd / QLinearMul restated per element (path: 0 both advance, 1 b
 * one value per span, 2 a one value per span). */
static int32_t ort_bin(int mul, int path, const mrtq_ort_qlinear_params *p, int32_t a, int32_t b) {
  int32_t lo = p->type == MRTQ_S8 ? -128 : 0, hi = lo + 255;
  volatile float ra = p->sa / p->sc, rb = p->sb / p->sc, pab = p->sa * p->sb;
  volatile float r = pab / p->sc, v;
  float zc = (float)p->zc;
  if (mul) {
    volatile float t = (float)((a - p->za) * (b - p->zb)) * r;
    v = t + zc;
  } else if (path == 2) {
    volatile float pa = ra * (float)p->za;
    float f = zc - fmaf(rb, (float)p->zb, pa);
    v = fmaf((float)b, rb, fmaf((float)a, ra, f));
  } else {
    volatile float pb = rb * (float)p->zb;
    float f = zc - fmaf(ra, (float)p->za, pb);
    v = fmaf((float)a, ra, fmaf((float)b, rb, f));
  }
  long q = (v >= -2147483648.0f && v < 2147483648.0f) ? lrintf(v) : INT32_MIN;
  return (int32_t)(q < lo ? lo : q > hi ? hi : q);
}

static void t_qlinear_binary(void) {
  mrtq_ort_qlinear_params p;
  /* the published vector: ORT's QLinearMul with scales 1, 1, 2, zc 1 on products 3, 5, -3 */
  {
    const uint8_t a[3] = {3, 5, 3};
    uint8_t o[3];
    size_t sh[1] = {3};
    CHECK_EQ(mrtq_ort_qlinear_init(1, 0, 1, 1, 2, 1, MRTQ_U8, &p), MRTQ_OK, "init");
    const uint8_t b2[3] = {2, 2, 0}; /* products (a - 0)(b - 1): 3, 5, -3 */
    CHECK_EQ(mrtq_ort_qlinear_mul(sh, 1, sh, 1, &p, a, b2, o), MRTQ_OK, "mul");
    CHECK_EQ(o[0], 2, "3 * 0.5 + 1 = 2.5 -> 2");
    CHECK_EQ(o[1], 4, "5 * 0.5 + 1 = 3.5 -> 4");
    CHECK_EQ(o[2], 0, "-3 * 0.5 + 1 = -0.5 -> 0");
  }
  /* the x86 conversion quirk: a product beyond 2^31 stores the minimum */
  {
    const int8_t a[1] = {127}, b[1] = {127};
    int8_t o[1];
    size_t sh[1] = {1};
    CHECK_EQ(mrtq_ort_qlinear_init(1, 0, 1, 0, ldexpf(1, -30), 0, MRTQ_S8, &p), MRTQ_OK, "init");
    CHECK_EQ(mrtq_ort_qlinear_mul(sh, 1, sh, 1, &p, a, b, o), MRTQ_OK, "mul");
    CHECK_EQ(o[0], -128, "127 * 127 * 2^30 overflows cvtps2dq: the type minimum");
  }
  /* random parameters on every path */
  static uint8_t a[64 * 64], b[64 * 64], out[64 * 64];
  const size_t shapes[4][2][2] = {{{64, 64}, {64, 64}}, {{64, 64}, {64, 1}}, {{64, 1}, {64, 64}}, {{1, 1}, {64, 64}}};
  const int paths[4] = {0, 1, 2, 2};
  for (int it = 0; it < 400; it++) {
    mrtq_dtype t = it % 2 ? MRTQ_S8 : MRTQ_U8;
    int32_t lo = t == MRTQ_S8 ? -128 : 0, hi = lo + 255;
    int mul = (it / 2) % 2, sk = (it / 4) % 4;
    CHECK_EQ(mrtq_ort_qlinear_init(th_scale(-8, 0), (int32_t)th_range(lo, hi), th_scale(-8, 0),
                                   (int32_t)th_range(lo, hi), th_scale(mul ? -12 : -8, 0), (int32_t)th_range(lo, hi),
                                   t, &p),
             MRTQ_OK, "it %d", it);
    for (int i = 0; i < 64 * 64; i++) a[i] = (uint8_t)th_rand32(), b[i] = (uint8_t)th_rand32();
    const size_t *sa = shapes[sk][0], *sb = shapes[sk][1];
    CHECK_EQ((mul ? mrtq_ort_qlinear_mul : mrtq_ort_qlinear_add)(sa, 2, sb, 2, &p, a, b, out), MRTQ_OK, "it %d", it);
    for (size_t i = 0; i < 64; i++)
      for (size_t j = 0; j < 64; j++) {
        size_t ia = (i % sa[0]) * sa[1] + j % sa[1], ib = (i % sb[0]) * sb[1] + j % sb[1];
        int32_t x = t == MRTQ_S8 ? (int8_t)a[ia] : a[ia], y = t == MRTQ_S8 ? (int8_t)b[ib] : b[ib];
        int32_t got = t == MRTQ_S8 ? (int8_t)out[i * 64 + j] : out[i * 64 + j];
        CHECK_EQ(got, ort_bin(mul, paths[sk], &p, x, y), "it %d (%zu, %zu)", it, i, j);
      }
  }
  CHECK_REFUSED(mrtq_ort_qlinear_init(1, 0, 1, 0, 1, 0, MRTQ_U8, NULL), MRTQ_EINVAL, "p: NULL");
  REFUSED_KEEPS(mrtq_ort_qlinear_init(NAN, 0, 1, 0, 1, 0, MRTQ_U8, &p), MRTQ_EINVAL, "sa: not finite and positive", &p);
  REFUSED_KEEPS(mrtq_ort_qlinear_init(1, 0, 0, 0, 1, 0, MRTQ_U8, &p), MRTQ_EINVAL, "sb: not finite and positive", &p);
  REFUSED_KEEPS(mrtq_ort_qlinear_init(1, 0, 1, 0, INFINITY, 0, MRTQ_U8, &p), MRTQ_EINVAL, "sc: not finite", &p);
  REFUSED_KEEPS(mrtq_ort_qlinear_init(1, -1, 1, 0, 1, 0, MRTQ_U8, &p), MRTQ_EINVAL, "za: outside the type", &p);
  REFUSED_KEEPS(mrtq_ort_qlinear_init(1, 0, 1, 128, 1, 0, MRTQ_S8, &p), MRTQ_EINVAL, "zb: outside the type", &p);
  REFUSED_KEEPS(mrtq_ort_qlinear_init(1, 0, 1, 0, 1, 256, MRTQ_U8, &p), MRTQ_EINVAL, "zc: outside the type", &p);
  REFUSED_KEEPS(mrtq_ort_qlinear_init(1, 0, 1, 0, 1, 0, MRTQ_S16, &p), MRTQ_EUNSUPPORTED, "type: ORT's 8-bit", &p);
  REFUSED_KEEPS(mrtq_ort_qlinear_init(1, 0, 1, 0, 1, 0, (mrtq_dtype)99, &p), MRTQ_EINVAL, "type: not an mrtq_dtype", &p);
  size_t sh[1] = {2}, bad[1] = {3};
  CHECK_EQ(mrtq_ort_qlinear_init(1, 0, 1, 0, 1, 0, MRTQ_U8, &p), MRTQ_OK, "init");
  CHECK_REFUSED(mrtq_ort_qlinear_add(sh, 1, sh, 1, NULL, a, b, out), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_ort_qlinear_add(sh, 1, sh, 1, &p, NULL, b, out), MRTQ_EINVAL, "a / b / out: NULL");
  CHECK_REFUSED(mrtq_ort_qlinear_mul(sh, 1, bad, 1, &p, a, b, out), MRTQ_ESHAPE, "");
  p.zc = 999;
  CHECK_REFUSED(mrtq_ort_qlinear_mul(sh, 1, sh, 1, &p, a, b, out), MRTQ_EINVAL, "zc: outside the type");
}

/* MLAS's FMA3 logistic restated with libm's fmaf. */
static float ref_logistic(float in) {
  float x = isnan(in) ? in : fminf(18.0f, fmaxf(-18.0f, in));
  volatile float x2 = x * x;
  float p = fmaf(x2, 4.37031012579801e-11f, 1.15627324459942e-07f);
  p = fmaf(x2, p, 6.08574864600143e-05f), p = fmaf(x2, p, 8.51377133304701e-03f);
  p = fmaf(x2, p, 2.48287947061529e-01f);
  float q = fmaf(x2, 6.10247389755681e-13f, 5.76102136993427e-09f);
  q = fmaf(x2, q, 6.29106785017040e-06f), q = fmaf(x2, q, 1.70198817374094e-03f);
  q = fmaf(x2, q, 1.16817656904453e-01f), q = fmaf(x2, q, 9.93151921023180e-01f);
  volatile float xp = x * p;
  volatile float r = xp / q;
  volatile float y = r + 0.5f;
  return isnan(y) ? y : y > 0.0f ? y : 0.0f;
}

static void t_lut(void) {
  for (int i = 0; i < 200000; i++) {
    float x = i < 100000 ? (float)th_range(-2000000, 2000000) / 100000.0f : th_float();
    float got = mrtq_ort_logistic(x), want = ref_logistic(x);
    CHECK(memcmp(&got, &want, 4) == 0);
  }
  CHECK(isnan(mrtq_ort_logistic(NAN)));
  CHECK(mrtq_ort_logistic(INFINITY) == mrtq_ort_logistic(18.0f) && mrtq_ort_logistic(-INFINITY) == 0.0f);
  CHECK(mrtq_ort_logistic(0.0f) == 0.5f);
  mrtq_ort_lut_params p;
  memset(&p, 0, sizeof p);
  static uint8_t all[256], out[256];
  for (int b = 0; b < 256; b++) all[b] = (uint8_t)b;
  for (int it = 0; it < 400; it++) {
    mrtq_dtype t = it % 2 ? MRTQ_S8 : MRTQ_U8;
    int32_t lo = t == MRTQ_S8 ? -128 : 0, hi = lo + 255, xzp = (int32_t)th_range(lo, hi), yzp = (int32_t)th_range(lo, hi);
    float xs = th_scale(-9, 1), ys = th_scale(-10, 0), alpha = (float)th_range(-300, 300) / 100.0f;
    int sig = (it / 2) % 2;
    CHECK_EQ(sig ? mrtq_ort_qlinear_sigmoid_init(xs, xzp, ys, yzp, t, &p)
                 : mrtq_ort_qlinear_leaky_relu_init(xs, xzp, ys, yzp, alpha, t, &p),
             MRTQ_OK, "it %d", it);
    CHECK_EQ(mrtq_ort_lut(&p, all, 256, out), MRTQ_OK, "it %d", it);
    for (int b = 0; b < 256; b++) {
      int32_t v = t == MRTQ_S8 ? (int8_t)b : b;
      volatile float d = xs * (float)(v - xzp), ad = alpha * d;
      float f = sig ? ref_logistic(d) : d >= 0 ? d : ad;
      int32_t got = t == MRTQ_S8 ? (int8_t)out[b] : out[b];
      CHECK_EQ(got, ort_q(f, ys, yzp, lo, hi), "it %d byte %d", it, b);
    }
  }
  CHECK_REFUSED(mrtq_ort_qlinear_sigmoid_init(1, 0, 1, 0, MRTQ_U8, NULL), MRTQ_EINVAL, "p: NULL");
  REFUSED_KEEPS(mrtq_ort_qlinear_sigmoid_init(0, 0, 1, 0, MRTQ_U8, &p), MRTQ_EINVAL, "x_scale: not finite", &p);
  REFUSED_KEEPS(mrtq_ort_qlinear_sigmoid_init(1, 0, -1, 0, MRTQ_U8, &p), MRTQ_EINVAL, "y_scale: not finite", &p);
  REFUSED_KEEPS(mrtq_ort_qlinear_sigmoid_init(1, 200, 1, 0, MRTQ_S8, &p), MRTQ_EINVAL, "x_zp: outside the type", &p);
  REFUSED_KEEPS(mrtq_ort_qlinear_sigmoid_init(1, 0, 1, -1, MRTQ_U8, &p), MRTQ_EINVAL, "zp: outside the type", &p);
  REFUSED_KEEPS(mrtq_ort_qlinear_leaky_relu_init(1, 0, 1, 0, NAN, MRTQ_U8, &p), MRTQ_EINVAL, "alpha: NaN or infinite",
                &p);
  REFUSED_KEEPS(mrtq_ort_qlinear_leaky_relu_init(1, 0, 1, 0, 0.1f, MRTQ_S16, &p), MRTQ_EUNSUPPORTED, "type:", &p);
  REFUSED_KEEPS(mrtq_ort_qlinear_sigmoid_init(1, 0, 1, 0, (mrtq_dtype)99, &p), MRTQ_EINVAL, "type: not an mrtq_dtype",
                &p);
  CHECK_EQ(mrtq_ort_qlinear_sigmoid_init(1, 0, 1, 0, MRTQ_U8, &p), MRTQ_OK, "init");
  CHECK_REFUSED(mrtq_ort_lut(NULL, all, 1, out), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_ort_lut(&p, NULL, 1, out), MRTQ_EINVAL, "x / out: NULL");
  p.type = MRTQ_S16;
  CHECK_REFUSED(mrtq_ort_lut(&p, all, 1, out), MRTQ_EINVAL, "p->type: not MRTQ_S8 / MRTQ_U8");
}

/* QLinearAveragePool's float form restated from its formula (NCHW index
 * arithmetic here; the global form through the integer sum). */
static void t_avgpool(void) {
  static uint8_t x[2 * 3 * 9 * 9], out[2 * 3 * 17 * 17]; /* ho, wo <= h + kh - 1 <= 17 */
  for (int it = 0; it < 600; it++) {
    mrtq_pool2d p;
    memset(&p, 0, sizeof p);
    p.n = 1 + it % 2, p.c = (size_t)th_range(1, 3), p.h = (size_t)th_range(1, 9), p.w = (size_t)th_range(1, 9);
    p.kh = (size_t)th_range(1, (int64_t)p.h), p.kw = (size_t)th_range(1, (int64_t)p.w);
    p.stride_h = (size_t)th_range(1, 3), p.stride_w = (size_t)th_range(1, 3);
    p.pad_top = (size_t)th_range(0, (int64_t)p.kh - 1), p.pad_bottom = (size_t)th_range(0, (int64_t)p.kh - 1);
    p.pad_left = (size_t)th_range(0, (int64_t)p.kw - 1), p.pad_right = (size_t)th_range(0, (int64_t)p.kw - 1);
    int global = it % 7 == 0;
    if (global) p.kh = p.h, p.kw = p.w, p.pad_top = p.pad_bottom = p.pad_left = p.pad_right = 0;
    p.layout = MRTQ_NCHW, p.type = it % 3 ? MRTQ_U8 : MRTQ_S8;
    int32_t lo = p.type == MRTQ_S8 ? -128 : 0, hi = lo + 255, xzp = (int32_t)th_range(lo, hi), yzp = (int32_t)th_range(lo, hi);
    float xs = th_scale(-8, 0), ys = global ? xs * (float)th_range(50, 200) / 100.0f : th_scale(-8, 0);
    int cip = (it / 2) % 2;
    size_t n = p.n * p.c * p.h * p.w, ho, wo;
    for (size_t i = 0; i < n; i++) x[i] = (uint8_t)th_rand32();
    CHECK_EQ(mrtq_pool2d_out(&p, &ho, &wo), MRTQ_OK, "it %d", it);
    CHECK_EQ(mrtq_ort_qlinear_avgpool(&p, cip, xs, xzp, ys, yzp, x, out), MRTQ_OK, "it %d", it);
    for (size_t b = 0; b < p.n * p.c; b++)
      for (size_t oh = 0; oh < ho; oh++)
        for (size_t ow = 0; ow < wo; ow++) {
          long h0 = (long)(oh * p.stride_h) - (long)p.pad_top, w0 = (long)(ow * p.stride_w) - (long)p.pad_left;
          long h1 = h0 + (long)p.kh, w1 = w0 + (long)p.kw, cnt = 0;
          h1 = h1 < (long)p.h ? h1 : (long)p.h, w1 = w1 < (long)p.w ? w1 : (long)p.w;
          h0 = h0 > 0 ? h0 : 0, w0 = w0 > 0 ? w0 : 0;
          volatile float sum = 0.0f;
          long long isum = 0;
          for (long ih = h0; ih < h1; ih++)
            for (long iw = w0; iw < w1; iw++, cnt++) {
              int32_t v = x[(b * p.h + (size_t)ih) * p.w + (size_t)iw];
              v = p.type == MRTQ_S8 ? (int8_t)v : v;
              volatile float d = xs * (float)(v - xzp);
              sum = sum + d;
              isum += v - xzp;
            }
          int32_t want;
          if (global) {
            volatile float den = ys * (float)(p.h * p.w);
            float s = xs / den;
            volatile float v = (float)isum * s; /* isum is exact in float here */
            long r = lrintf(v) + yzp;
            want = (int32_t)(r < lo ? lo : r > hi ? hi : r);
          } else {
            volatile float avg = sum / (float)(cip ? (long)(p.kh * p.kw) : cnt), q = avg / ys, t = q + (float)yzp;
            long r = lrintf(t);
            want = (int32_t)(r < lo ? lo : r > hi ? hi : r);
          }
          size_t o = (b * ho + oh) * wo + ow;
          CHECK_EQ(p.type == MRTQ_S8 ? (int8_t)out[o] : out[o], want, "it %d out %zu", it, o);
        }
  }
  mrtq_pool2d p;
  memset(&p, 0, sizeof p);
  p.n = p.c = 1, p.h = p.w = 4, p.kh = p.kw = 2, p.stride_h = p.stride_w = 1, p.layout = MRTQ_NCHW, p.type = MRTQ_S16;
  CHECK_REFUSED(mrtq_ort_qlinear_avgpool(&p, 0, 1, 0, 1, 0, x, out), MRTQ_EUNSUPPORTED, "p->type: QLinearAveragePool");
  p.type = (mrtq_dtype)77;
  CHECK_REFUSED(mrtq_ort_qlinear_avgpool(&p, 0, 1, 0, 1, 0, x, out), MRTQ_EINVAL, "p->type: not an mrtq_dtype");
  p.type = MRTQ_U8;
  CHECK_REFUSED(mrtq_ort_qlinear_avgpool(&p, 0, 1, 0, 1, 0, NULL, out), MRTQ_EINVAL, "x / out: NULL");
  CHECK_REFUSED(mrtq_ort_qlinear_avgpool(&p, 0, NAN, 0, 1, 0, x, out), MRTQ_EINVAL, "x_scale: not finite");
  CHECK_REFUSED(mrtq_ort_qlinear_avgpool(&p, 0, 1, 0, 1, 256, x, out), MRTQ_EINVAL, "zp: outside the type");
  p.kh = p.kw = 4;
  CHECK_REFUSED(mrtq_ort_qlinear_avgpool(&p, 0, 1, 0, 1e-5f, 0, x, out), MRTQ_ERANGE, "outside [2^-32, 256)");
  p.h = p.w = p.kh = p.kw = 2902; /* 2902^2 = 8,421,604: 255 h w exceeds int32 (not read: refused first) */
  CHECK_REFUSED(mrtq_ort_qlinear_avgpool(&p, 0, 1, 0, 1, 0, x, out), MRTQ_EOVERFLOW, "p->h * p->w: above 8,421,504");
  p.h = p.w = p.kh = p.kw = 2901; /* 8,415,801: accepted by this check, refused by ORT's scale limit */
  CHECK_REFUSED(mrtq_ort_qlinear_avgpool(&p, 0, 1e-10f, 0, 1, 0, x, out), MRTQ_ERANGE, "outside [2^-32, 256)");
  /* a window of 2^66 elements over a 1x1 image (pads just below the window) */
  p.h = p.w = 1, p.kh = p.kw = (size_t)1 << 33, p.stride_h = p.stride_w = (size_t)1 << 34;
  p.pad_top = p.pad_bottom = p.pad_left = p.pad_right = ((size_t)1 << 33) - 1;
  CHECK_REFUSED(mrtq_ort_qlinear_avgpool(&p, 1, 1, 0, 1, 0, x, out), MRTQ_ESHAPE, "p->kh * p->kw: overflows size_t");
  float s = 0;
  CHECK_EQ(mrtq_ort_avgpool_scale(3.0f, 0.1f, 49, &s), MRTQ_OK, "scale");
  {
    volatile float den = 0.1f * 49.0f;
    CHECK(s == 3.0f / den);
  }
  CHECK_REFUSED(mrtq_ort_avgpool_scale(1, 1, 16, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_ort_avgpool_scale(1, INFINITY, 16, &s), MRTQ_EINVAL, "y_scale: not finite");
  CHECK_REFUSED(mrtq_ort_avgpool_scale(1, 1, 0, &s), MRTQ_EINVAL, "hw: 0");
  CHECK_REFUSED(mrtq_ort_avgpool_scale(1, 1, (size_t)1 << 24, &s), MRTQ_ERANGE, "hw: at least 2^24");
  CHECK_EQ(mrtq_ort_avgpool_scale(1, 1, ((size_t)1 << 24) - 1, &s), MRTQ_OK, "2^24 - 1 is accepted");
  CHECK_REFUSED(mrtq_ort_avgpool_scale(1e-5f, 1e5f, 1000, &s), MRTQ_ERANGE, "outside [2^-32, 256)");
}

static double bad_exp(double v) { return v > 0 ? INFINITY : exp(v); }
static double big_exp(double v) { return v > 0 ? 1e300 : exp(v); } /* finite, above FLT_MAX */
static double neg_exp(double v) { (void)v; return -1.0; }


static void t_softmax(void) {
  static uint8_t x[4 * 40 * 3], out[4 * 40 * 3];
  mrtq_ort_softmax_params p;
  memset(&p, 0, sizeof p);
  for (int it = 0; it < 400; it++) {
    mrtq_dtype t = it % 2 ? MRTQ_S8 : MRTQ_U8;
    int32_t lo = t == MRTQ_S8 ? -128 : 0, hi = lo + 255;
    size_t outer = (size_t)th_range(1, 4), d = (size_t)th_range(1, 40), inner = (size_t)th_range(1, 3);
    float xs = th_scale(-6, 1), ys = it % 3 == 0 ? 1.0f / 256 : it % 3 == 1 ? 1.0f / 255 : th_scale(-9, -1);
    int32_t yzp = (int32_t)th_range(lo, hi);
    for (size_t i = 0; i < outer * d * inner; i++) x[i] = (uint8_t)th_rand32();
    CHECK_EQ(mrtq_ort_qlinear_softmax_init(xs, ys, yzp, d, t, exp, log, &p), MRTQ_OK, "it %d", it);
    CHECK_EQ(mrtq_ort_qlinear_softmax(&p, x, outer, inner, out), MRTQ_OK, "it %d", it);
    volatile float q = FLT_MAX / (float)d;
    double bs = fmax(0.0, log((double)q) - 5.0) / (double)xs;
    float y = floorf(1.0f / ys);
    for (size_t o = 0; o < outer; o++)
      for (size_t i = 0; i < inner; i++) {
        int32_t m = lo, v[40];
        for (size_t j = 0; j < d; j++) {
          size_t at = (o * d + j) * inner + i;
          v[j] = t == MRTQ_S8 ? (int8_t)x[at] : x[at];
          m = v[j] > m ? v[j] : m;
        }
        volatile float sum = 0.0f;
        for (size_t j = 0; j < d; j++) sum = sum + (float)exp(((double)(v[j] - m) + bs) * (double)xs);
        for (size_t j = 0; j < d; j++) {
          volatile float e = (float)exp(((double)(v[j] - m) + bs) * (double)xs), ty = e * y, r = ty / sum;
          long want = isinf(ty) ? (t == MRTQ_U8 ? yzp : yzp < 0 ? hi : lo) : lrintf(r) + yzp;
          want = want > hi ? hi : want;
          size_t at = (o * d + j) * inner + i;
          CHECK_EQ(t == MRTQ_S8 ? (int8_t)out[at] : out[at], want, "it %d at %zu", it, at);
        }
      }
  }
  CHECK_REFUSED(mrtq_ort_qlinear_softmax_init(1, 1, 0, 4, MRTQ_U8, exp, log, NULL), MRTQ_EINVAL, "p: NULL");
  REFUSED_KEEPS(mrtq_ort_qlinear_softmax_init(1, 1, 0, 4, MRTQ_U8, NULL, log, &p), MRTQ_EINVAL, "exp_fn / log_fn", &p);
  REFUSED_KEEPS(mrtq_ort_qlinear_softmax_init(1, 1, 0, 0, MRTQ_U8, exp, log, &p), MRTQ_EINVAL, "d: 0", &p);
  REFUSED_KEEPS(mrtq_ort_qlinear_softmax_init(0, 1, 0, 4, MRTQ_U8, exp, log, &p), MRTQ_EINVAL, "x_scale", &p);
  REFUSED_KEEPS(mrtq_ort_qlinear_softmax_init(1, 1, 0, 4, MRTQ_S16, exp, log, &p), MRTQ_EUNSUPPORTED, "type:", &p);
  REFUSED_KEEPS(mrtq_ort_qlinear_softmax_init(1, 1, 0, 4, (mrtq_dtype)99, exp, log, &p), MRTQ_EINVAL,
                "type: not an mrtq_dtype", &p);
  /* the table is fine here (exp), only y is refused: nothing may be written */
  REFUSED_KEEPS(mrtq_ort_qlinear_softmax_init(1, 1e-10f, 0, 4, MRTQ_U8, exp, log, &p), MRTQ_ERANGE,
                "y_scale: 1 / y_scale at least 2^31", &p);
  REFUSED_KEEPS(mrtq_ort_qlinear_softmax_init(1, 1, 0, 4, MRTQ_U8, bad_exp, log, &p), MRTQ_ERANGE,
                "exp_fn: a table entry outside [0, FLT_MAX]", &p);
  REFUSED_KEEPS(mrtq_ort_qlinear_softmax_init(1, 1, 0, 4, MRTQ_U8, big_exp, log, &p), MRTQ_ERANGE,
                "exp_fn: a table entry outside [0, FLT_MAX]", &p);
  REFUSED_KEEPS(mrtq_ort_qlinear_softmax_init(1, 1, 0, 4, MRTQ_U8, neg_exp, log, &p), MRTQ_ERANGE,
                "exp_fn: a table entry outside [0, FLT_MAX]", &p);
  /* a hand-filled p with a negative y: every quotient is negative, the output
   * clamps at the type's minimum (not a wrapped byte) */
  for (int ti = 0; ti < 2; ti++) {
    mrtq_dtype t = ti ? MRTQ_S8 : MRTQ_U8;
    int32_t lo = ti ? -128 : 0;
    CHECK_EQ(mrtq_ort_qlinear_softmax_init(1, 1.0f / 256, lo, 4, t, exp, log, &p), MRTQ_OK, "init");
    p.y = -1000.0f;
    const uint8_t hx[4] = {1, 2, 3, 4};
    uint8_t ho[4];
    CHECK_EQ(mrtq_ort_qlinear_softmax(&p, hx, 1, 1, ho), MRTQ_OK, "hand-filled");
    for (int j = 0; j < 4; j++) CHECK_EQ(ti ? (int8_t)ho[j] : ho[j], lo, "hand-filled y < 0, element %d", j);
  }
  CHECK_EQ(mrtq_ort_qlinear_softmax_init(1, 1.0f / 256, 0, 4, MRTQ_U8, exp, log, &p), MRTQ_OK, "init");
  CHECK_REFUSED(mrtq_ort_qlinear_softmax(NULL, x, 1, 1, out), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_ort_qlinear_softmax(&p, NULL, 1, 1, out), MRTQ_EINVAL, "x / out: NULL");
  CHECK_REFUSED(mrtq_ort_qlinear_softmax(&p, x, 0, 1, out), MRTQ_ESHAPE, "outer / inner: 0");
  CHECK_REFUSED(mrtq_ort_qlinear_softmax(&p, x, SIZE_MAX / 2, 1, out), MRTQ_ESHAPE, "overflows size_t");
  p.d = 0;
  CHECK_REFUSED(mrtq_ort_qlinear_softmax(&p, x, 1, 1, out), MRTQ_EINVAL, "p: not filled by the init");
  p.type = (mrtq_dtype)0;
  CHECK_REFUSED(mrtq_ort_qlinear_softmax(&p, x, 1, 1, out), MRTQ_EINVAL, "p->type: not MRTQ_S8 / MRTQ_U8");
}

/* QLinearConcat restated: per element, dequantize then ORT's quantize (or a
 * copy where the input's quantization is the output's). */
static void t_concat(void) {
  static uint8_t x0[100], x1[100], x2[100], out[400];
  const void *xs[3] = {x0, x1, x2};
  for (int it = 0; it < 300; it++) {
    mrtq_dtype t = it % 2 ? MRTQ_S8 : MRTQ_U8;
    int32_t lo = t == MRTQ_S8 ? -128 : 0, hi = lo + 255, yzp = (int32_t)th_range(lo, hi), zp[3];
    int axis = (int)th_range(0, 2);
    size_t n = (size_t)th_range(1, 3), base[3] = {3, (size_t)th_range(1, 5), 4}, sh[3][3], off = 0, total = 0;
    float ys = th_scale(-8, 0), sc[3];
    for (size_t k = 0; k < n; k++) {
      memcpy(sh[k], base, sizeof base);
      sh[k][axis] = (size_t)th_range(1, 5);
      sc[k] = it % 5 == 0 && k == 0 ? ys : th_scale(-8, 0);
      zp[k] = it % 5 == 0 && k == 0 ? yzp : (int32_t)th_range(lo, hi);
      for (int i = 0; i < 100; i++) ((uint8_t *)xs[k])[i] = (uint8_t)th_rand32();
      total += sh[k][axis];
    }
    const size_t *shapes[3] = {sh[0], sh[1], sh[2]};
    CHECK_EQ(mrtq_ort_qlinear_concat(shapes, n, 3, axis, xs, sc, zp, ys, yzp, t, out), MRTQ_OK, "it %d", it);
    size_t outer = 1, inner = 1;
    for (int d = 0; d < axis; d++) outer *= base[d];
    for (int d = axis + 1; d < 3; d++) inner *= base[d];
    for (size_t k = 0; k < n; k++) {
      size_t len = sh[k][axis] * inner;
      for (size_t o = 0; o < outer; o++)
        for (size_t i = 0; i < len; i++) {
          uint8_t b = ((const uint8_t *)xs[k])[o * len + i];
          int32_t v = t == MRTQ_S8 ? (int8_t)b : b, want = v;
          if (sc[k] != ys || zp[k] != yzp) {
            volatile float d = sc[k] * (float)(v - zp[k]);
            want = ort_q(d, ys, yzp, lo, hi);
          }
          uint8_t g = out[o * total * inner + off + i];
          CHECK_EQ(t == MRTQ_S8 ? (int8_t)g : g, want, "it %d k %zu", it, k);
        }
      off += len;
    }
  }
  size_t a[2] = {2, 3}, b[2] = {3, 3}, z[2] = {2, 0}, big[2] = {SIZE_MAX / 2, 4};
  const size_t *sh2[2] = {a, b}, *shz[2] = {a, z}, *shb[3] = {big, big, big};
  float sc[2] = {1, 1};
  int32_t zp[2] = {0, 0};
  const void *xx[2] = {x0, x1}, *xn[2] = {x0, NULL};
  CHECK_REFUSED(mrtq_ort_qlinear_concat(NULL, 2, 2, 0, xx, sc, zp, 1, 0, MRTQ_U8, out), MRTQ_EINVAL,
                "shapes / x / scale / zp / out: NULL");
  CHECK_REFUSED(mrtq_ort_qlinear_concat(sh2, 0, 2, 0, xx, sc, zp, 1, 0, MRTQ_U8, out), MRTQ_EINVAL, "n: no input");
  CHECK_REFUSED(mrtq_ort_qlinear_concat(sh2, 2, 0, 0, xx, sc, zp, 1, 0, MRTQ_U8, out), MRTQ_EINVAL, "ndim: outside");
  CHECK_REFUSED(mrtq_ort_qlinear_concat(sh2, 2, 2, 2, xx, sc, zp, 1, 0, MRTQ_U8, out), MRTQ_EINVAL, "axis: outside");
  CHECK_REFUSED(mrtq_ort_qlinear_concat(sh2, 2, 2, 0, xn, sc, zp, 1, 0, MRTQ_U8, out), MRTQ_EINVAL,
                "shapes[k] / x[k]: NULL");
  CHECK_REFUSED(mrtq_ort_qlinear_concat(sh2, 2, 2, 1, xx, sc, zp, 1, 0, MRTQ_U8, out), MRTQ_ESHAPE,
                "shapes[k]: differs off the axis");
  CHECK_REFUSED(mrtq_ort_qlinear_concat(shz, 2, 2, 0, xx, sc, zp, 1, 0, MRTQ_U8, out), MRTQ_ESHAPE,
                "shapes[k]: a zero dimension");
  {
    const void *x3[3] = {x0, x1, x2};
    float s3[3] = {1, 1, 1};
    int32_t z3[3] = {0, 0, 0};
    CHECK_REFUSED(mrtq_ort_qlinear_concat(shb, 3, 2, 0, x3, s3, z3, 1, 0, MRTQ_U8, out), MRTQ_ESHAPE,
                  "shapes: the axis overflows size_t");
  }
  CHECK_REFUSED(mrtq_ort_qlinear_concat(shb, 1, 2, 0, xx, sc, zp, 1, 0, MRTQ_U8, out), MRTQ_ESHAPE,
                "shapes: the element count overflows size_t");
  sc[1] = -1;
  CHECK_REFUSED(mrtq_ort_qlinear_concat(sh2, 2, 2, 0, xx, sc, zp, 1, 0, MRTQ_U8, out), MRTQ_EINVAL,
                "scale[k]: not finite and positive");
  sc[1] = 1, zp[1] = -1;
  CHECK_REFUSED(mrtq_ort_qlinear_concat(sh2, 2, 2, 0, xx, sc, zp, 1, 0, MRTQ_U8, out), MRTQ_EINVAL,
                "zp[k]: outside the type");
  CHECK_REFUSED(mrtq_ort_qlinear_concat(sh2, 2, 2, 0, xx, sc, zp, 1, 0, MRTQ_S32, out), MRTQ_EUNSUPPORTED, "type:");
  CHECK_REFUSED(mrtq_ort_qlinear_concat(sh2, 2, 2, 0, xx, sc, zp, 1, 0, (mrtq_dtype)42, out), MRTQ_EINVAL,
                "type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_ort_qlinear_concat(sh2, 2, 2, 0, xx, sc, zp, 0, 0, MRTQ_U8, out), MRTQ_EINVAL, "y_scale: not finite");
  CHECK_REFUSED(mrtq_ort_qlinear_concat(sh2, 2, 2, 0, xx, sc, zp, 1, 300, MRTQ_U8, out), MRTQ_EINVAL, "zp: outside");
}

int main(void) {
  TH_RUN(t_qlinear_scale);
  TH_RUN(t_quantize);
  TH_RUN(t_dequantize);
  TH_RUN(t_axis);
  TH_RUN(t_dynamic);
  TH_RUN(t_qlinear_binary);
  TH_RUN(t_lut);
  TH_RUN(t_avgpool);
  TH_RUN(t_softmax);
  TH_RUN(t_concat);
  return th_finish("test_ort_api");
}
