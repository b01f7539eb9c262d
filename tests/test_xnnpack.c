/* Differential against XNNPACK (Debian libxnnpack-dev, a test-only peer):
 * int8 max pooling (NHWC, padding, stride, output clamp) and constant padding
 * of N-d tensors, byte for byte with mrtq's maxpool2d and pad on random
 * shapes. Without XNNPACK at build time the test reports itself skipped. */
#include "harness.h"
#include "mrtq.h"

#ifndef MRTQ_HAVE_XNNPACK
int main(void) { return th_skip("test_xnnpack", "XNNPACK (libxnnpack-dev) not found at build time"); }
#else
#include <stdlib.h>
#include <xnnpack.h>

static long long compared;

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
    p.layout = MRTQ_POOL_NHWC;
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
    CHECK_EQ(mrtq_pad(x, s, nd, b, a, 1, &v, ours), MRTQ_OK, "ours");
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

int main(void) {
  if (xnn_initialize(NULL) != xnn_status_success) return th_skip("test_xnnpack", "xnn_initialize failed on this CPU");
  TH_RUN(test_max_pooling);
  TH_RUN(test_constant_pad);
  printf("  %lld elements compared with XNNPACK\n", compared);
  return th_finish("test_xnnpack");
}
#endif
