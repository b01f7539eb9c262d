/* TFLite's quantized convolution convention through mrtq_conv2d_q8:
 *  - two published vectors from TFLite's kernel tests
 *    (tensorflow/tensorflow, tensorflow/lite/kernels/conv_test.cc:
 *    ConvolutionOpTest.SimplePerChannelTest, int8 per-channel; and
 *    QuantizedConvolutionOpTest.SimpleTestExplicitQuantizedOp, uint8 with
 *    weight zero points), their float filters quantized as that file's
 *    helpers do (round half away from zero; the biases divide exactly);
 *  - random layers and MobileNet / ResNet shapes against an oracle written
 *    here in TFLite's own form: the reference kernels' loop nest (taps outside
 *    the image skipped, acc += w * (x + input_offset), + bias), the multiplier
 *    from frexp as QuantizeMultiplier defines it, MultiplyByQuantizedMultiplier
 *    with exact 128-bit SRDHM / RDIVPOT (tests/oracle.h), + output offset,
 *    clamp to the fused activation. SAME padding with odd totals (the extra
 *    row / column at the bottom / right), dilation, depthwise with TFLite's
 *    [1][KH][KW][C*M] filter transposed to mrtq's OHWI. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "mrtq.h"
#include "oracle.h"

static long long compared;

static int32_t rnd_away(double v) { return (int32_t)(v < 0 ? -floor(-v + 0.5) : floor(v + 0.5)); }

/* ---- published vectors ---- */

static void test_published_per_channel(void) {
  /* input [1][2][3][2] NHWC, range [-63.5, 64] -> step 0.5, zero point -1 */
  static const double xf[12] = {3, 2, 1, -1, -2, -3, 4, 3, 2, -2, -3, -4};
  /* filter [2][2][2][2] OHWI, per-channel steps {1, 2}, zero points 0 */
  static const double wf[16] = {1, 2, 3, 4, 3, 4, 5, 6, 7, 8, 5, 6, 3, 4, 1, 2};
  static const double bf[2] = {3, -2}, sw[2] = {1, 2};
  static const int8_t want[4] = {61, 127, -115, -93}; /* [1][1][2][2] */
  int8_t x[12], w[16], y[4];
  int32_t b[2];
  mrtq_rq rq[2];
  mrtq_conv2d_shape s;
  mrtq_qoperand qx, qw;
  int i;
  memset(&s, 0, sizeof s), memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
  for (i = 0; i < 12; i++) x[i] = (int8_t)(rnd_away(xf[i] / 0.5) - 1);
  for (i = 0; i < 16; i++) w[i] = (int8_t)rnd_away(wf[i] / sw[i / 8]);
  for (i = 0; i < 2; i++) {
    b[i] = rnd_away(bf[i] / (0.5 * sw[i]));
    CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.5 * sw[i] / 0.5, -1, -128, 127, &rq[i]), MRTQ_OK, "rq");
  }
  s.n = 1, s.h = 2, s.w = 3, s.c = 2, s.o = 2, s.kh = s.kw = 2, s.stride_h = s.stride_w = 1, s.dil_h = s.dil_w = 1;
  s.groups = 1, s.layout = MRTQ_NHWC;
  qx.data = x, qx.zp = -1, qw.data = w, qx.type = qw.type = MRTQ_S8;
  CHECK_EQ(mrtq_conv2d_q8(&s, rq, 2, &qx, &qw, b, MRTQ_S8, y), MRTQ_OK, "conv");
  for (i = 0; i < 4; i++) CHECK_EQ(y[i], want[i], "published per-channel output %d", i);
}

static void test_published_uint8(void) {
  /* input [2][2][4][1], uint8 range [-63.5, 64]: step 0.5, zero point 127 */
  static const double xf[16] = {1, 1, 1, 1, 2, 2, 2, 2, 1, 2, 3, 4, 1, 2, 3, 4};
  /* filter [3][2][2][1], uint8 range [-63.5, 64]: step 0.5, zero point 127 */
  static const double wf[12] = {1, 2, 3, 4, -1, 1, -1, 1, -1, -1, 1, 1};
  static const double bf[3] = {1, 2, 3};
  static const uint8_t want[12] = {145, 129, 132, 145, 129, 132, 144, 131, 130, 164, 131, 130};
  uint8_t x[16], w[12], y[12];
  int32_t b[3];
  mrtq_rq rq;
  mrtq_conv2d_shape s;
  mrtq_qoperand qx, qw;
  int i;
  memset(&s, 0, sizeof s), memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw), memset(&rq, 0, sizeof rq);
  for (i = 0; i < 16; i++) x[i] = (uint8_t)(rnd_away(xf[i] / 0.5) + 127);
  for (i = 0; i < 12; i++) w[i] = (uint8_t)(rnd_away(wf[i] / 0.5) + 127);
  for (i = 0; i < 3; i++) b[i] = rnd_away(bf[i] / 0.25);
  /* output range [-127, 128]: step 1, zero point 127; the test model's default stride is 2, VALID */
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.25, 127, 0, 255, &rq), MRTQ_OK, "rq");
  s.n = 2, s.h = 2, s.w = 4, s.c = 1, s.o = 3, s.kh = s.kw = 2, s.stride_h = s.stride_w = 2, s.dil_h = s.dil_w = 1;
  s.groups = 1, s.layout = MRTQ_NHWC;
  qx.data = x, qx.type = MRTQ_U8, qx.zp = 127, qw.data = w, qw.type = MRTQ_U8, qw.zp = 127;
  CHECK_EQ(mrtq_conv2d_q8(&s, &rq, 1, &qx, &qw, b, MRTQ_U8, y), MRTQ_OK, "conv");
  for (i = 0; i < 12; i++) CHECK_EQ(y[i], want[i], "published uint8 output %d", i);
}

/* ---- TFLite's own form ---- */

/* QuantizeMultiplier: q = round-half-away(frac * 2^31) of frexp's fraction;
 * q == 2^31 -> q / 2, exponent + 1; exponent < -31 -> 0. */
static void o_quantize_multiplier(double r, int32_t *m, int *shift) {
  int e;
  double f = frexp(r, &e);
  int64_t q = (int64_t)(f * 2147483648.0 < 0 ? -floor(-f * 2147483648.0 + 0.5) : floor(f * 2147483648.0 + 0.5));
  if (q == ((int64_t)1 << 31)) q /= 2, e++;
  if (e < -31) q = 0, e = 0;
  *m = (int32_t)q, *shift = e;
}

static int32_t o_mbqm(int64_t acc, int32_t m, int shift) {
  int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  return o_rdivpot(o_srdhm(o_sat32((i128)acc * o_pow2(left)), m), right);
}

typedef struct {
  int n, h, w, c, o, kh, kw, sh, sw, dh, dw, depth_mult; /* depth_mult > 0: depthwise */
  int same;                                           /* SAME padding, else VALID */
  int ho, wo, pt, pl, pb, pr;
} tl_shape;

static void tl_padding(tl_shape *t) {
  int ekh = (t->kh - 1) * t->dh + 1, ekw = (t->kw - 1) * t->dw + 1, ph, pw;
  if (t->same) {
    t->ho = (t->h + t->sh - 1) / t->sh, t->wo = (t->w + t->sw - 1) / t->sw;
    ph = (t->ho - 1) * t->sh + ekh - t->h, pw = (t->wo - 1) * t->sw + ekw - t->w;
    ph = ph > 0 ? ph : 0, pw = pw > 0 ? pw : 0;
    t->pt = ph / 2, t->pb = ph - ph / 2, t->pl = pw / 2, t->pr = pw - pw / 2;
  } else {
    t->ho = (t->h - ekh) / t->sh + 1, t->wo = (t->w - ekw) / t->sw + 1;
    t->pt = t->pb = t->pl = t->pr = 0;
  }
}

/* One layer: int8 NHWC input (zero point zx), int8 symmetric per-channel
 * filter in TFLite's layout (conv: [O][KH][KW][C]; depthwise:
 * [1][KH][KW][C*M]), int32 bias, per-channel output multipliers. */
static void run_layer(const tl_shape *t, int32_t zx, int32_t zy, int32_t act_min, int32_t act_max, double sx, double sy,
                      const double *sw) {
  size_t nx = (size_t)t->n * t->h * t->w * t->c, nwt = (size_t)t->o * t->kh * t->kw * (t->depth_mult ? 1 : t->c);
  size_t ny = (size_t)t->n * t->ho * t->wo * t->o, i;
  int8_t *x = (int8_t *)malloc(nx), *wt = (int8_t *)malloc(nwt), *wm = (int8_t *)malloc(nwt), *y = (int8_t *)malloc(ny + 64);
  int32_t *bias = (int32_t *)malloc((size_t)t->o * sizeof(int32_t));
  mrtq_rq *rq = (mrtq_rq *)malloc((size_t)t->o * sizeof(mrtq_rq));
  int32_t *mult = (int32_t *)malloc((size_t)t->o * sizeof(int32_t));
  int *shift = (int *)malloc((size_t)t->o * sizeof(int));
  mrtq_conv2d_shape s;
  mrtq_qoperand qx, qw;
  int b, oy, ox, o, ky, kx, c;
  if (!x || !wt || !wm || !y || !bias || !rq || !mult || !shift) return;
  for (i = 0; i < nx; i++) x[i] = (int8_t)th_range(-128, 127);
  for (i = 0; i < nwt; i++) wt[i] = (int8_t)th_range(-127, 127);
  for (o = 0; o < t->o; o++) {
    bias[o] = (int32_t)th_range(-20000, 20000);
    o_quantize_multiplier(sx * sw[o] / sy, &mult[o], &shift[o]);
    CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, sx * sw[o] / sy, zy, act_min, act_max, &rq[o]), MRTQ_OK, "rq");
    CHECK(rq[o].m.mult == mult[o] && rq[o].m.shift == shift[o]); /* mrtq's encoding is QuantizeMultiplier's */
  }
  /* mrtq's weights: OHWI; a depthwise filter [1][KH][KW][C*M] becomes [C*M][KH][KW][1] */
  if (t->depth_mult)
    for (o = 0; o < t->o; o++)
      for (ky = 0; ky < t->kh; ky++)
        for (kx = 0; kx < t->kw; kx++) wm[(o * t->kh + ky) * t->kw + kx] = wt[(ky * t->kw + kx) * t->o + o];
  else
    memcpy(wm, wt, nwt);
  memset(&s, 0, sizeof s), memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
  s.n = (size_t)t->n, s.h = (size_t)t->h, s.w = (size_t)t->w, s.c = (size_t)t->c, s.o = (size_t)t->o;
  s.kh = (size_t)t->kh, s.kw = (size_t)t->kw, s.stride_h = (size_t)t->sh, s.stride_w = (size_t)t->sw;
  s.dil_h = (size_t)t->dh, s.dil_w = (size_t)t->dw, s.groups = t->depth_mult ? (size_t)t->c : 1;
  s.pad_top = (size_t)t->pt, s.pad_bottom = (size_t)t->pb, s.pad_left = (size_t)t->pl, s.pad_right = (size_t)t->pr;
  s.layout = MRTQ_NHWC;
  qx.data = x, qx.zp = zx, qw.data = wm, qx.type = qw.type = MRTQ_S8;
  memset(y, 0x5a, ny + 64);
  CHECK_EQ(mrtq_conv2d_q8(&s, rq, (size_t)t->o, &qx, &qw, bias, MRTQ_S8, y), MRTQ_OK, "conv");
  for (i = ny; i < ny + 64; i++) CHECK_EQ((uint8_t)y[i], 0x5a, "guard");
  /* TFLite's loop nest */
  for (b = 0; b < t->n; b++)
    for (oy = 0; oy < t->ho; oy++)
      for (ox = 0; ox < t->wo; ox++)
        for (o = 0; o < t->o; o++) {
          int64_t acc = 0;
          int32_t v;
          int ic0 = t->depth_mult ? o / t->depth_mult : 0, ic1 = t->depth_mult ? ic0 + 1 : t->c;
          for (ky = 0; ky < t->kh; ky++)
            for (kx = 0; kx < t->kw; kx++) {
              int iy = oy * t->sh - t->pt + ky * t->dh, ix = ox * t->sw - t->pl + kx * t->dw;
              if (iy < 0 || iy >= t->h || ix < 0 || ix >= t->w) continue;
              for (c = ic0; c < ic1; c++) {
                int32_t xv = x[((b * t->h + iy) * t->w + ix) * t->c + c];
                int32_t wv = t->depth_mult ? wt[(ky * t->kw + kx) * t->o + o] : wt[((o * t->kh + ky) * t->kw + kx) * t->c + c];
                acc += (int64_t)wv * (xv + (-zx));
              }
            }
          acc += bias[o];
          v = o_mbqm(acc, mult[o], shift[o]) + zy;
          v = v < act_min ? act_min : v > act_max ? act_max : v;
          i = (((size_t)b * t->ho + oy) * t->wo + ox) * t->o + o;
          if (y[i] != v) CHECK_EQ(y[i], v, "output %zu", i);
          compared++;
        }
  free(x), free(wt), free(wm), free(y), free(bias), free(rq), free(mult), free(shift);
}

static void random_act(int32_t zy, int32_t *lo, int32_t *hi) {
  switch (th_rand32() % 3u) {
    case 0: *lo = -128, *hi = 127; break;             /* none */
    case 1: *lo = zy, *hi = 127; break;               /* ReLU */
    default: *lo = zy, *hi = zy + (int32_t)th_range(0, 127 - zy); /* ReLU6-like */
  }
}

static void test_random(void) {
  int trial;
  long long before = compared;
  for (trial = 0; trial < 400; trial++) {
    tl_shape t;
    double sw[64], sx = ldexp(1.0 + (double)(th_rand32() % 1000u) / 1000.0, -(int)th_range(1, 8)), sy;
    int32_t zx = (int32_t)th_range(-128, 127), zy = (int32_t)th_range(-128, 100), lo, hi;
    int o, dw = (int)(th_rand32() % 3u == 0);
    memset(&t, 0, sizeof t);
    t.n = (int)th_range(1, 2), t.h = (int)th_range(1, 9), t.w = (int)th_range(1, 9), t.c = (int)th_range(1, 8);
    t.kh = (int)th_range(1, 5), t.kw = (int)th_range(1, 5), t.sh = (int)th_range(1, 2), t.sw = (int)th_range(1, 2);
    t.dh = (int)th_range(1, 2), t.dw = (int)th_range(1, 2), t.same = (int)(th_rand32() & 1u);
    t.depth_mult = dw ? (int)th_range(1, 3) : 0;
    t.o = dw ? t.c * t.depth_mult : (int)th_range(1, 8);
    if (!t.same && ((t.kh - 1) * t.dh + 1 > t.h || (t.kw - 1) * t.dw + 1 > t.w)) t.same = 1; /* VALID needs room */
    tl_padding(&t);
    /* output steps from very small to large, so the multiplier's exponent is negative and positive */
    sy = sx * ldexp(1.0, (int)th_range(-3, 12));
    for (o = 0; o < t.o; o++) sw[o] = ldexp(1.0 + (double)(th_rand32() % 1000u) / 1000.0, -(int)th_range(0, 10));
    random_act(zy, &lo, &hi);
    run_layer(&t, zx, zy, lo, hi, sx, sy, sw);
  }
  printf("  random layers: %lld outputs compared\n", compared - before);
}

/* MobileNet-v1 depthwise 3x3 stride 1 and 2 (SAME: stride 2 on an even input
 * pads only the bottom and right), a ResNet 3x3 and a 1x1 stride-2 conv, at a
 * reduced spatial size */
static void test_real_shapes(void) {
  static const int shapes[][8] = {
      /* h, c, o (0 = depthwise, M 1), k, stride, same */
      {28, 32, 0, 3, 1, 1, 0, 0},
      {28, 64, 0, 3, 2, 1, 0, 0},
      {14, 64, 64, 3, 1, 1, 0, 0},
      {28, 64, 128, 1, 2, 1, 0, 0},
  };
  size_t i;
  long long before = compared;
  for (i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    tl_shape t;
    double sw[128];
    int o;
    int32_t lo, hi;
    memset(&t, 0, sizeof t);
    t.n = 1, t.h = t.w = shapes[i][0], t.c = shapes[i][1], t.o = shapes[i][2] ? shapes[i][2] : t.c;
    t.depth_mult = shapes[i][2] ? 0 : 1, t.kh = t.kw = shapes[i][3], t.sh = t.sw = shapes[i][4], t.same = shapes[i][5];
    t.dh = t.dw = 1;
    tl_padding(&t);
    for (o = 0; o < t.o; o++) sw[o] = ldexp(1.0 + (double)(th_rand32() % 1000u) / 1000.0, -8);
    random_act(-128, &lo, &hi);
    run_layer(&t, (int32_t)th_range(-20, 20), -128, lo, hi, 0.02, 0.05, sw);
    if (t.sh == 2 && t.h % 2 == 0 && t.kh == 3) CHECK(t.pt == 0 && t.pb == 1); /* TFLite's odd total */
  }
  printf("  real shapes: %lld outputs compared\n", compared - before);
}

int main(void) {
  TH_RUN(test_published_per_channel);
  TH_RUN(test_published_uint8);
  TH_RUN(test_random);
  TH_RUN(test_real_shapes);
  return th_finish("test_conv_tflite");
}
