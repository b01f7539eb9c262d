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
  CHECK_REFUSED(mrtq_ort_quantize_linear(&one, 1, 1, 0, MRTQ_S16, &o), MRTQ_EUNSUPPORTED, "type: QuantizeLinear here");
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
  CHECK_REFUSED(mrtq_ort_qlinear_init(NAN, 0, 1, 0, 1, 0, MRTQ_U8, &p), MRTQ_EINVAL, "sa: not finite and positive");
  CHECK_REFUSED(mrtq_ort_qlinear_init(1, 0, 0, 0, 1, 0, MRTQ_U8, &p), MRTQ_EINVAL, "sb: not finite and positive");
  CHECK_REFUSED(mrtq_ort_qlinear_init(1, 0, 1, 0, INFINITY, 0, MRTQ_U8, &p), MRTQ_EINVAL, "sc: not finite");
  CHECK_REFUSED(mrtq_ort_qlinear_init(1, -1, 1, 0, 1, 0, MRTQ_U8, &p), MRTQ_EINVAL, "za: outside the type");
  CHECK_REFUSED(mrtq_ort_qlinear_init(1, 0, 1, 128, 1, 0, MRTQ_S8, &p), MRTQ_EINVAL, "zb: outside the type");
  CHECK_REFUSED(mrtq_ort_qlinear_init(1, 0, 1, 0, 1, 256, MRTQ_U8, &p), MRTQ_EINVAL, "zc: outside the type");
  CHECK_REFUSED(mrtq_ort_qlinear_init(1, 0, 1, 0, 1, 0, MRTQ_S16, &p), MRTQ_EUNSUPPORTED, "type: QuantizeLinear");
  size_t sh[1] = {2}, bad[1] = {3};
  CHECK_EQ(mrtq_ort_qlinear_init(1, 0, 1, 0, 1, 0, MRTQ_U8, &p), MRTQ_OK, "init");
  CHECK_REFUSED(mrtq_ort_qlinear_add(sh, 1, sh, 1, NULL, a, b, out), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_ort_qlinear_add(sh, 1, sh, 1, &p, NULL, b, out), MRTQ_EINVAL, "a / b / out: NULL");
  CHECK_REFUSED(mrtq_ort_qlinear_mul(sh, 1, bad, 1, &p, a, b, out), MRTQ_ESHAPE, "");
  p.zc = 999;
  CHECK_REFUSED(mrtq_ort_qlinear_mul(sh, 1, sh, 1, &p, a, b, out), MRTQ_EINVAL, "zc: outside the type");
}

int main(void) {
  TH_RUN(t_qlinear_scale);
  TH_RUN(t_quantize);
  TH_RUN(t_dequantize);
  TH_RUN(t_axis);
  TH_RUN(t_dynamic);
  TH_RUN(t_qlinear_binary);
  return th_finish("test_ort_api");
}
