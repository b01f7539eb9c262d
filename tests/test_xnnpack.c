/* Differential against XNNPACK (Debian libxnnpack-dev, a test-only peer):
 * int8 max pooling (NHWC, padding, stride, output clamp) and constant padding
 * of N-d tensors, byte for byte with mrtq's maxpool2d and pad on random
 * shapes. Without XNNPACK at build time the test reports itself skipped. */
#include "harness.h"
#include "mrtq.h"

#ifndef MRTQ_HAVE_XNNPACK
int main(void) { return th_skip("test_xnnpack", "XNNPACK (libxnnpack-dev) not found at build time"); }
#else
#include <math.h>
#include <stdlib.h>
#include <xnnpack.h>

static long long compared, interior; /* outputs strictly inside the clamp: the requantization really ran */

static void test_max_pooling(void) {
  static int8_t x[2 * 13 * 13 * 20], ours[2 * 14 * 14 * 20], theirs[2 * 14 * 14 * 20];
  int trial;
  for (trial = 0; trial < 300; trial++) {
    mrtq_pool2d p;
    xnn_operator_t op = NULL;
    size_t ho = 0, wo = 0, i, n;
    int8_t lo = (int8_t)th_range(-128, -100), hi = (int8_t)th_range(90, 127);
    memset(&p, 0, sizeof p);
    p.n = (size_t)th_range(1, 2), p.c = (size_t)th_range(1, 20), p.h = (size_t)th_range(2, 13), p.w = (size_t)th_range(2, 13);
    p.kh = (size_t)th_range(1, 3), p.kw = (size_t)th_range(2, 3); /* XNNPACK wants a window of 2+ elements */
    p.stride_h = (size_t)th_range(1, 2), p.stride_w = (size_t)th_range(1, 2);
    p.pad_top = (size_t)th_range(0, (int64_t)p.kh - 1), p.pad_bottom = (size_t)th_range(0, (int64_t)p.kh - 1);
    p.pad_left = (size_t)th_range(0, (int64_t)p.kw - 1), p.pad_right = (size_t)th_range(0, (int64_t)p.kw - 1);
    p.layout = MRTQ_NHWC, p.type = MRTQ_S8;
    if (mrtq_pool2d_out(&p, &ho, &wo) != MRTQ_OK) continue;
    n = p.n * ho * wo * p.c;
    for (i = 0; i < p.n * p.h * p.w * p.c; i++) x[i] = (int8_t)th_rand32();
    CHECK_EQ(mrtq_maxpool2d(&p, x, lo, hi, ours), MRTQ_OK, "ours");
    CHECK_EQ(xnn_create_max_pooling2d_nhwc_s8((uint32_t)p.pad_top, (uint32_t)p.pad_right, (uint32_t)p.pad_bottom,
                                              (uint32_t)p.pad_left, (uint32_t)p.kh, (uint32_t)p.kw,
                                              (uint32_t)p.stride_h, (uint32_t)p.stride_w, 1, 1, p.c, p.c, p.c, lo, hi,
                                              0, &op),
             xnn_status_success, "create (trial %d)", trial);
    if (!op) continue;
    CHECK_EQ(xnn_setup_max_pooling2d_nhwc_s8(op, p.n, p.h, p.w, x, theirs, NULL), xnn_status_success, "setup");
    CHECK_EQ(xnn_run_operator(op, NULL), xnn_status_success, "run");
    xnn_delete_operator(op);
    for (i = 0; i < n; i++)
      if (ours[i] != theirs[i]) CHECK_EQ(ours[i], theirs[i], "trial %d element %zu", trial, i);
    compared += (long long)n;
  }
}

/* XNNPACK's max pooling with dilation and with padding as large as the window
 * or larger (mrtq_maxpool2d_xnn). Layers mrtq refuses (a window of padding
 * only) are counted, not run; the ones it refuses as unreproducible (a
 * dilation with bottom / right padding) are run on XNNPACK too, and counted
 * where its bytes are no function of the window (neither the valid taps'
 * maximum nor the nearest-edge reading of newer XNNPACK sources). */
static long long xnn_compared, xnn_refused, xnn_unrepro, xnn_unrepro_off;
static void test_max_pooling_dilated(void) {
  static int8_t x[2 * 13 * 13 * 8], ours[2 * 40 * 40 * 8], theirs[2 * 40 * 40 * 8];
  for (int trial = 0; trial < 6000; trial++) {
    mrtq_pool2d p;
    xnn_operator_t op = NULL;
    size_t ho = 0, wo = 0, i, n, dh = (size_t)th_range(1, 3), dw = (size_t)th_range(1, 3);
    memset(&p, 0, sizeof p);
    p.n = (size_t)th_range(1, 2), p.c = (size_t)th_range(1, 8), p.h = (size_t)th_range(1, 13), p.w = (size_t)th_range(1, 13);
    p.kh = (size_t)th_range(1, 3), p.kw = (size_t)th_range(2, 3);
    p.stride_h = (size_t)th_range(1, 4), p.stride_w = (size_t)th_range(1, 4);
    p.pad_top = (size_t)th_range(0, (int64_t)p.kh + 2), p.pad_left = (size_t)th_range(0, (int64_t)p.kw + 2);
    p.pad_bottom = (size_t)th_range(0, (int64_t)p.kh + 2), p.pad_right = (size_t)th_range(0, (int64_t)p.kw + 2);
    if (trial % 2 && (dh > 1 || dw > 1)) p.pad_bottom = p.pad_right = 0;
    p.layout = MRTQ_NHWC, p.type = MRTQ_S8;
    mrtq_status st = mrtq_maxpool2d_xnn_out(&p, dh, dw, &ho, &wo);
    { /* the geometry written out here: the dilated window fits, every window holds an input tap */
      size_t eh = (p.kh - 1) * dh + 1, ew = (p.kw - 1) * dw + 1;
      int fits = eh <= p.h + p.pad_top + p.pad_bottom && ew <= p.w + p.pad_left + p.pad_right;
      if (fits) {
        ho = (p.h + p.pad_top + p.pad_bottom - eh) / p.stride_h + 1, wo = (p.w + p.pad_left + p.pad_right - ew) / p.stride_w + 1;
        for (size_t oy = 0; oy < ho && fits; oy++) {
          int hit = 0;
          for (size_t k = 0; k < p.kh; k++) hit |= oy * p.stride_h + k * dh >= p.pad_top && oy * p.stride_h + k * dh < p.pad_top + p.h;
          fits = hit;
        }
        for (size_t ox = 0; ox < wo && fits; ox++) {
          int hit = 0;
          for (size_t k = 0; k < p.kw; k++) hit |= ox * p.stride_w + k * dw >= p.pad_left && ox * p.stride_w + k * dw < p.pad_left + p.w;
          fits = hit;
        }
      }
      int unrepro = ((dh > 1 || dw > 1) && (p.pad_bottom || p.pad_right)) ||
                    (dh > 1 && dw == 1 && p.pad_left > (p.kw - 1) / 2);
      CHECK_EQ(st, unrepro ? MRTQ_EUNSUPPORTED : fits ? MRTQ_OK : MRTQ_ESHAPE, "trial %d geometry", trial);
      if (!fits) {
        xnn_refused++;
        continue;
      }
    }
    for (i = 0; i < p.n * p.h * p.w * p.c; i++) x[i] = (int8_t)th_rand32();
    CHECK_EQ(xnn_create_max_pooling2d_nhwc_s8((uint32_t)p.pad_top, (uint32_t)p.pad_right, (uint32_t)p.pad_bottom,
                                              (uint32_t)p.pad_left, (uint32_t)p.kh, (uint32_t)p.kw,
                                              (uint32_t)p.stride_h, (uint32_t)p.stride_w, (uint32_t)dh, (uint32_t)dw,
                                              p.c, p.c, p.c, -128, 127, 0, &op),
             xnn_status_success, "create (trial %d)", trial);
    if (!op) continue;
    n = p.n * ho * wo * p.c;
    CHECK_EQ(xnn_setup_max_pooling2d_nhwc_s8(op, p.n, p.h, p.w, x, theirs, NULL), xnn_status_success, "setup");
    CHECK_EQ(xnn_run_operator(op, NULL), xnn_status_success, "run");
    xnn_delete_operator(op);
    if (st == MRTQ_OK) {
      CHECK_EQ(mrtq_maxpool2d_xnn(&p, dh, dw, x, -128, 127, ours), MRTQ_OK, "ours");
      for (i = 0; i < n; i++)
        if (ours[i] != theirs[i]) CHECK_EQ(ours[i], theirs[i], "trial %d element %zu", trial, i);
      xnn_compared += (long long)n;
      continue;
    }
    /* the two readings of a tap in the padding: skipped, or the nearest input row / column */
    int off = 0;
    for (size_t b = 0; b < p.n; b++)
      for (size_t oy = 0; oy < ho; oy++)
        for (size_t ox = 0; ox < wo; ox++)
          for (size_t c = 0; c < p.c; c++) {
            int mv = -129, mc = -129;
            for (size_t ky = 0; ky < p.kh; ky++)
              for (size_t kx = 0; kx < p.kw; kx++) {
                long iy = (long)(oy * p.stride_h + ky * dh) - (long)p.pad_top;
                long ix = (long)(ox * p.stride_w + kx * dw) - (long)p.pad_left;
                long cy = iy < 0 ? 0 : iy >= (long)p.h ? (long)p.h - 1 : iy, cx = ix < 0 ? 0 : ix >= (long)p.w ? (long)p.w - 1 : ix;
                int vc = x[((b * p.h + (size_t)cy) * p.w + (size_t)cx) * p.c + c];
                mc = vc > mc ? vc : mc;
                if (iy < 0 || ix < 0 || iy >= (long)p.h || ix >= (long)p.w) continue;
                int v = x[((b * p.h + (size_t)iy) * p.w + (size_t)ix) * p.c + c];
                mv = v > mv ? v : mv;
              }
            int g = theirs[((b * ho + oy) * wo + ox) * p.c + c];
            off |= g != mv && g != mc;
          }
    xnn_unrepro++, xnn_unrepro_off += off;
  }
  /* the refusal's reason must show in XNNPACK itself: some refused layer gives
   * bytes that neither reading of the window explains */
  CHECK(xnn_unrepro > 0 && xnn_unrepro_off > 0);
  /* the case XNNPACK accepts and mrtq_maxpool2d refuses: IH 2, IW 1, pool 1x2, stride 3, bottom 1, left 1 */
  {
    mrtq_pool2d p;
    size_t ho = 0, wo = 0;
    int8_t in[2] = {5, -7}, o1[4] = {0}, o2[4] = {0};
    xnn_operator_t op = NULL;
    memset(&p, 0, sizeof p);
    p.n = p.c = 1, p.h = 2, p.w = 1, p.kh = 1, p.kw = 2, p.stride_h = p.stride_w = 3, p.pad_bottom = 1, p.pad_left = 1;
    p.layout = MRTQ_NHWC, p.type = MRTQ_S8;
    CHECK_EQ(mrtq_maxpool2d_xnn_out(&p, 1, 1, &ho, &wo), MRTQ_OK, "accepted");
    CHECK_EQ(ho * wo, 1, "one output");
    CHECK_EQ(mrtq_maxpool2d_xnn(&p, 1, 1, in, -128, 127, o1), MRTQ_OK, "ours");
    CHECK_EQ(xnn_create_max_pooling2d_nhwc_s8(0, 0, 1, 1, 1, 2, 3, 3, 1, 1, 1, 1, 1, -128, 127, 0, &op),
             xnn_status_success, "create");
    CHECK_EQ(xnn_setup_max_pooling2d_nhwc_s8(op, 1, 2, 1, in, o2, NULL), xnn_status_success, "setup");
    CHECK_EQ(xnn_run_operator(op, NULL), xnn_status_success, "run");
    xnn_delete_operator(op);
    CHECK_EQ(o1[0], o2[0], "the issue's layer");
    CHECK_EQ(o2[0], 5, "XNNPACK's output");
  }
}

static void test_constant_pad(void) {
  static uint8_t x[5 * 6 * 7], ours[11 * 12 * 13], theirs[11 * 12 * 13];
  int trial;
  for (trial = 0; trial < 300; trial++) {
    size_t s[3], b[3], a[3], n = 1, i;
    int nd = (int)th_range(1, 3), d;
    uint8_t v = (uint8_t)th_rand32();
    xnn_operator_t op = NULL;
    for (d = 0; d < nd; d++) {
      s[d] = (size_t)th_range(1, 5 + d), b[d] = (size_t)th_range(0, 3), a[d] = (size_t)th_range(0, 3);
      n *= s[d] + b[d] + a[d];
    }
    for (i = 0; i < sizeof x; i++) x[i] = (uint8_t)th_rand32();
    CHECK_EQ(mrtq_pad(s, nd, b, a, 1, x, &v, ours), MRTQ_OK, "ours");
    CHECK_EQ(xnn_create_constant_pad_nd_x8(&v, 0, &op), xnn_status_success, "create");
    if (!op) continue;
    CHECK_EQ(xnn_setup_constant_pad_nd_x8(op, (size_t)nd, s, b, a, x, theirs, NULL), xnn_status_success, "setup");
    CHECK_EQ(xnn_run_operator(op, NULL), xnn_status_success, "run");
    xnn_delete_operator(op);
    for (i = 0; i < n; i++)
      if (ours[i] != theirs[i]) CHECK_EQ(ours[i], theirs[i], "trial %d element %zu", trial, i);
    compared += (long long)n;
  }
}

/* qs8 / qc8 convolution (NHWC, weights OHWI per group, symmetric int8
 * weights, int32 bias, fp32 requantization): mrtq_conv2d_q8 with MRTQ_FP32
 * and the requantization scale computed in float as XNNPACK's operator
 * creation does (input_scale * kernel_scale / output_scale). */
static void conv_case(int per_channel, int trial) {
  static int8_t x[2 * 11 * 11 * 24], w[24 * 5 * 5 * 24], ours[2 * 13 * 13 * 24], theirs[2 * 13 * 13 * 24];
  static int32_t bias[24];
  float kscale[24], in_scale = ldexpf(1.0f + (float)(th_rand32() % 1000u) / 1000.0f, -(int)th_range(3, 8));
  float out_scale = ldexpf(1.0f + (float)(th_rand32() % 1000u) / 1000.0f, -(int)th_range(0, 5));
  int8_t zx = (int8_t)th_range(-128, 127), zy = (int8_t)th_range(-128, 127), lo, hi;
  mrtq_conv2d_shape s;
  mrtq_qoperand qx, qw;
  mrtq_rq rq[24];
  xnn_operator_t op = NULL;
  size_t ho = 0, wo = 0, i, n, cg, og;
  enum xnn_status xs;
  memset(&s, 0, sizeof s), memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw), memset(rq, 0, sizeof rq);
  s.groups = th_rand32() % 4u == 0 ? (size_t)th_range(2, 3) : 1;
  s.n = (size_t)th_range(1, 2), s.h = (size_t)th_range(1, 11), s.w = (size_t)th_range(1, 11);
  cg = (size_t)th_range(1, 8), og = (size_t)th_range(1, 8);
  if (th_rand32() % 4u == 0) s.groups = (size_t)th_range(2, 24), cg = 1, og = 1; /* depthwise */
  s.c = s.groups * cg, s.o = s.groups * og;
  s.kh = (size_t)th_range(1, 5), s.kw = (size_t)th_range(1, 5), s.stride_h = (size_t)th_range(1, 2);
  s.stride_w = (size_t)th_range(1, 2), s.dil_h = (size_t)th_range(1, 2), s.dil_w = (size_t)th_range(1, 2);
  s.pad_top = (size_t)th_range(0, 2), s.pad_bottom = (size_t)th_range(0, 2), s.pad_left = (size_t)th_range(0, 2);
  s.pad_right = (size_t)th_range(0, 2), s.layout = MRTQ_NHWC;
  if (mrtq_conv2d_out(&s, &ho, &wo) != MRTQ_OK) return;
  lo = (int8_t)th_range(-128, -60), hi = (int8_t)th_range(60, 127);
  for (i = 0; i < s.n * s.h * s.w * s.c; i++) x[i] = (int8_t)th_rand32();
  for (i = 0; i < s.o * s.kh * s.kw * cg; i++) w[i] = (int8_t)th_range(-127, 127);
  for (i = 0; i < s.o; i++) {
    bias[i] = (int32_t)th_range(-30000, 30000);
    kscale[i] = ldexpf(1.0f + (float)(th_rand32() % 1000u) / 1000.0f, -(int)th_range(6, 10));
    if (!per_channel) kscale[i] = kscale[0];
    CHECK_EQ(mrtq_rq_init(MRTQ_FP32, (double)(in_scale * kscale[i] / out_scale), zy, lo, hi, &rq[i]), MRTQ_OK, "rq");
  }
  qx.data = x, qx.zp = zx, qw.data = w, qx.type = qw.type = MRTQ_S8;
  CHECK_EQ(mrtq_conv2d_q8(&s, rq, s.o, &qx, &qw, bias, MRTQ_S8, ours), MRTQ_OK, "ours");
  if (per_channel)
    xs = xnn_create_convolution2d_nhwc_qc8((uint32_t)s.pad_top, (uint32_t)s.pad_right, (uint32_t)s.pad_bottom,
                                           (uint32_t)s.pad_left, (uint32_t)s.kh, (uint32_t)s.kw, (uint32_t)s.stride_h,
                                           (uint32_t)s.stride_w, (uint32_t)s.dil_h, (uint32_t)s.dil_w,
                                           (uint32_t)s.groups, cg, og, s.c, s.o, zx, in_scale, kscale, w, bias, zy,
                                           out_scale, lo, hi, 0, &op);
  else
    xs = xnn_create_convolution2d_nhwc_qs8((uint32_t)s.pad_top, (uint32_t)s.pad_right, (uint32_t)s.pad_bottom,
                                           (uint32_t)s.pad_left, (uint32_t)s.kh, (uint32_t)s.kw, (uint32_t)s.stride_h,
                                           (uint32_t)s.stride_w, (uint32_t)s.dil_h, (uint32_t)s.dil_w,
                                           (uint32_t)s.groups, cg, og, s.c, s.o, zx, in_scale, kscale[0], w, bias, zy,
                                           out_scale, lo, hi, 0, &op);
  CHECK_EQ(xs, xnn_status_success, "create conv (trial %d)", trial);
  if (!op) return;
  if (per_channel)
    CHECK_EQ(xnn_setup_convolution2d_nhwc_qc8(op, s.n, s.h, s.w, x, theirs, NULL), xnn_status_success, "setup");
  else
    CHECK_EQ(xnn_setup_convolution2d_nhwc_qs8(op, s.n, s.h, s.w, x, theirs, NULL), xnn_status_success, "setup");
  CHECK_EQ(xnn_run_operator(op, NULL), xnn_status_success, "run");
  xnn_delete_operator(op);
  n = s.n * ho * wo * s.o;
  for (i = 0; i < n; i++) {
    if (ours[i] != theirs[i]) CHECK_EQ(ours[i], theirs[i], "conv trial %d (qc8 %d) element %zu", trial, per_channel, i);
    interior += ours[i] > lo && ours[i] < hi;
  }
  compared += (long long)n;
}

static void test_conv_qs8(void) {
  int trial;
  long long before = compared;
  interior = 0;
  for (trial = 0; trial < 200; trial++) conv_case(0, trial);
  printf("  qs8 convolution: %lld outputs, %lld inside the clamp\n", compared - before, interior);
  CHECK(interior * 2 > compared - before);
}

static void test_conv_qc8(void) {
  int trial;
  long long before = compared;
  interior = 0;
  for (trial = 0; trial < 200; trial++) conv_case(1, trial);
  printf("  qc8 (per-channel) convolution: %lld outputs, %lld inside the clamp\n", compared - before, interior);
  CHECK(interior * 2 > compared - before);
}

/* qs8 fully connected: rows x k times o x k, as mrtq_fc_q8 with MRTQ_FP32 */
static void test_fc_qs8(void) {
  static int8_t x[8 * 300], w[64 * 300], ours[8 * 64], theirs[8 * 64];
  static int32_t bias[64];
  int trial;
  long long before = compared;
  interior = 0;
  for (trial = 0; trial < 200; trial++) {
    size_t rows = (size_t)th_range(1, 8), k = (size_t)th_range(1, 300), o = (size_t)th_range(1, 64), i;
    float in_scale = ldexpf(1.0f + (float)(th_rand32() % 1000u) / 1000.0f, -(int)th_range(3, 8));
    float ks = ldexpf(1.0f + (float)(th_rand32() % 1000u) / 1000.0f, -(int)th_range(6, 10));
    float out_scale = ldexpf(1.0f + (float)(th_rand32() % 1000u) / 1000.0f, -(int)th_range(0, 5));
    int8_t zx = (int8_t)th_range(-128, 127), zy = (int8_t)th_range(-128, 127);
    mrtq_qoperand qx, qw;
    mrtq_rq rq;
    xnn_operator_t op = NULL;
    memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw), memset(&rq, 0, sizeof rq);
    for (i = 0; i < rows * k; i++) x[i] = (int8_t)th_rand32();
    for (i = 0; i < o * k; i++) w[i] = (int8_t)th_range(-127, 127);
    for (i = 0; i < o; i++) bias[i] = (int32_t)th_range(-30000, 30000);
    CHECK_EQ(mrtq_rq_init(MRTQ_FP32, (double)(in_scale * ks / out_scale), zy, -128, 127, &rq), MRTQ_OK, "rq");
    qx.data = x, qx.zp = zx, qw.data = w, qx.type = qw.type = MRTQ_S8;
    CHECK_EQ(mrtq_fc_q8(rows, k, o, &rq, 1, &qx, &qw, bias, MRTQ_S8, ours), MRTQ_OK, "ours");
    CHECK_EQ(xnn_create_fully_connected_nc_qs8(k, o, k, o, zx, in_scale, ks, w, bias, zy, out_scale, -128, 127, 0, &op),
             xnn_status_success, "create fc");
    if (!op) continue;
    CHECK_EQ(xnn_setup_fully_connected_nc_qs8(op, rows, x, theirs, NULL), xnn_status_success, "setup");
    CHECK_EQ(xnn_run_operator(op, NULL), xnn_status_success, "run");
    xnn_delete_operator(op);
    for (i = 0; i < rows * o; i++) {
      if (ours[i] != theirs[i]) CHECK_EQ(ours[i], theirs[i], "fc trial %d element %zu", trial, i);
      interior += ours[i] > -128 && ours[i] < 127;
    }
    compared += (long long)(rows * o);
  }
  printf("  qs8 fully connected: %lld outputs, %lld inside the clamp\n", compared - before, interior);
  CHECK(interior * 2 > compared - before);
}

/* qs8 / qu8 add and qs8 subtract with broadcasting: mrtq_xnn_add (XNNPACK's
 * own fixed-point scheme) */
static void test_add(void) {
  static uint8_t a[4 * 5 * 6], b[4 * 5 * 6], ours[4 * 5 * 6], theirs[4 * 5 * 6];
  int trial;
  long long before = compared;
  for (trial = 0; trial < 2000; trial++) {
    int u = trial % 3 == 2, sub = trial % 3 == 1, nd = (int)th_range(1, 3), d, ndb;
    size_t sa[3], sb[3], n = 1, i;
    float so = ldexpf(1.0f + (float)(th_rand32() % 1000u) / 1000.0f, -(int)th_range(2, 8));
    float s1 = so * ldexpf(1.0f + (float)(th_rand32() % 1000u) / 1000.0f, (int)th_range(-9, 6));
    float s2 = so * ldexpf(1.0f + (float)(th_rand32() % 1000u) / 1000.0f, (int)th_range(-9, 6));
    int32_t lo = u ? 0 : -128, hi = u ? 255 : 127;
    int32_t z1 = (int32_t)th_range(lo, hi), z2 = (int32_t)th_range(lo, hi), zo = (int32_t)th_range(lo, hi);
    int32_t qmin = (int32_t)th_range(lo, lo + 40), qmax = (int32_t)th_range(hi - 40, hi);
    mrtq_xnn_add_params p;
    mrtq_bcast bc;
    if (trial % 50 == 0) s1 = so * 0x1p-11f; /* ratios outside [2^-10, 2^8): both refuse */
    if (trial % 50 == 1) s2 = so * 300.0f;
    xnn_operator_t op = NULL;
    enum xnn_status xs;
    mrtq_status st;
    for (d = 0; d < nd; d++) sa[d] = (size_t)th_range(1, 4 + d);
    ndb = (int)th_range(1, nd);
    for (d = 0; d < ndb; d++) sb[d] = th_rand32() % 3u ? sa[nd - ndb + d] : 1;
    if (th_rand32() % 4u == 0) sa[th_rand32() % (uint32_t)nd] = 1; /* broadcast the first input too */
    if (mrtq_bcast_init(sa, nd, sb, ndb, &bc) != MRTQ_OK) continue;
    for (i = 0; i < sizeof a; i++) a[i] = (uint8_t)th_rand32(), b[i] = (uint8_t)th_rand32();
    memset(&p, 0, sizeof p); /* a refusal leaves it as it was */
    st = mrtq_xnn_add_init(s1, z1, s2, z2, so, zo, qmin, qmax, u ? MRTQ_U8 : MRTQ_S8, sub, &p);
    if (u)
      xs = xnn_create_add_nd_qu8((uint8_t)z1, s1, (uint8_t)z2, s2, (uint8_t)zo, so, (uint8_t)qmin, (uint8_t)qmax, 0, &op);
    else if (sub)
      xs = xnn_create_subtract_nd_qs8((int8_t)z1, s1, (int8_t)z2, s2, (int8_t)zo, so, (int8_t)qmin, (int8_t)qmax, 0, &op);
    else
      xs = xnn_create_add_nd_qs8((int8_t)z1, s1, (int8_t)z2, s2, (int8_t)zo, so, (int8_t)qmin, (int8_t)qmax, 0, &op);
    if (xs != xnn_status_success) { /* both refuse the same ratios */
      CHECK_EQ(st, MRTQ_ERANGE, "XNNPACK refused (status %d), trial %d", (int)xs, trial);
      continue;
    }
    CHECK_EQ(st, MRTQ_OK, "init, trial %d", trial);
    CHECK_EQ(mrtq_xnn_add(sa, nd, sb, ndb, &p, a, b, ours), MRTQ_OK, "ours");
    if (u)
      xs = xnn_setup_add_nd_qu8(op, (size_t)nd, sa, (size_t)ndb, sb, a, b, theirs, NULL);
    else if (sub)
      xs = xnn_setup_subtract_nd_qs8(op, (size_t)nd, sa, (size_t)ndb, sb, (const int8_t *)a, (const int8_t *)b,
                                     (int8_t *)theirs, NULL);
    else
      xs = xnn_setup_add_nd_qs8(op, (size_t)nd, sa, (size_t)ndb, sb, (const int8_t *)a, (const int8_t *)b,
                                (int8_t *)theirs, NULL);
    CHECK_EQ(xs, xnn_status_success, "setup");
    CHECK_EQ(xnn_run_operator(op, NULL), xnn_status_success, "run");
    xnn_delete_operator(op);
    n = bc.n;
    for (i = 0; i < n; i++)
      if (ours[i] != theirs[i]) CHECK_EQ(ours[i], theirs[i], "add trial %d (u %d sub %d) element %zu", trial, u, sub, i);
    compared += (long long)n;
  }
  printf("  qs8 add, qs8 subtract, qu8 add: %lld outputs\n", compared - before);
}

int main(void) {
  if (xnn_initialize(NULL) != xnn_status_success) return th_skip("test_xnnpack", "xnn_initialize failed on this CPU");
  TH_RUN(test_max_pooling);
  TH_RUN(test_max_pooling_dilated);
  TH_RUN(test_constant_pad);
  TH_RUN(test_conv_qs8);
  TH_RUN(test_conv_qc8);
  TH_RUN(test_fc_qs8);
  TH_RUN(test_add);
  printf("  dilated / wide-padding max pooling: %lld outputs; %lld layers with a window of padding only refused; of "
         "%lld dilated layers refused as unreproducible (bottom / right padding, or wide left padding with dil_w 1), "
         "%lld where XNNPACK's bytes are no function of the window\n",
         xnn_compared, xnn_refused, xnn_unrepro, xnn_unrepro_off);
  printf("  %lld elements compared with XNNPACK\n", compared);
  return th_finish("test_xnnpack");
}
#endif
