/* TFLite's RESIZE_BILINEAR (mrtq_tflite_resize_bilinear) beside XNNPACK's
 * resize_bilinear2d_nhwc_s8 / _u8 (Debian libxnnpack-dev, 2022; a test-only
 * peer). XNNPACK's scheme is not TFLite's: this test measures where they
 * agree and by how much they differ (docs/kernels.md section 4.18 quotes its
 * output), and holds the two facts it found:
 *   - uint8, integer upscales (H' = k H, W' = k W, k <= 4) with half-pixel
 *     centres or with neither flag: every output byte equal;
 *   - elsewhere the two differ by at most 1 (uint8) and 4 (int8).
 * XNNPACK has no int8 MAXIMUM / MINIMUM or TRANSPOSE in this release (only
 * f32 maximum / minimum), so nothing else is compared. Without XNNPACK at
 * build time the test reports itself skipped. */
#include "harness.h"
#include "mrtq.h"

#ifndef MRTQ_HAVE_XNNPACK
int main(void) { return th_skip("test_xnnpack_layout", "XNNPACK (libxnnpack-dev) not found at build time"); }
#else
#include <stdlib.h>
#include <xnnpack.h>

/* mode 0: half_pixel_centers (XNNPACK flags 0), 1: align_corners, 2: neither (TENSORFLOW_LEGACY_MODE) */
static const char *mode_name[3] = {"half_pixel_centers", "align_corners", "neither flag"};

/* one random case; returns the largest |difference|, adds to *n and *diff */
static int one_case(int u8, int mode, size_t N, size_t H, size_t W, size_t C, size_t OH, size_t OW, long long *n,
                    long long *diff) {
  static uint8_t x[2 * 10 * 10 * 5], ours[2 * 40 * 40 * 5], theirs[2 * 40 * 40 * 5];
  mrtq_tflite_resize_params p;
  xnn_operator_t op = NULL;
  size_t shape[4], i, cnt = N * OH * OW * C;
  uint32_t flags = mode == 1 ? XNN_FLAG_ALIGN_CORNERS : mode == 2 ? XNN_FLAG_TENSORFLOW_LEGACY_MODE : 0;
  int worst = 0;
  enum xnn_status st;
  shape[0] = N, shape[1] = H, shape[2] = W, shape[3] = C;
  for (i = 0; i < N * H * W * C; i++) x[i] = (uint8_t)th_rand32();
  CHECK_EQ(mrtq_tflite_resize_init(mode == 1, mode == 0, &p), MRTQ_OK, "init");
  CHECK_EQ(mrtq_tflite_resize_bilinear(&p, shape, OH, OW, x, u8 ? MRTQ_U8 : MRTQ_S8, ours), MRTQ_OK, "ours");
  st = u8 ? xnn_create_resize_bilinear2d_nhwc_u8(C, C, C, flags, &op)
          : xnn_create_resize_bilinear2d_nhwc_s8(C, C, C, flags, &op);
  CHECK_EQ(st, xnn_status_success, "create");
  if (st != xnn_status_success) return 0;
  st = u8 ? xnn_setup_resize_bilinear2d_nhwc_u8(op, N, H, W, OH, OW, x, theirs, NULL)
          : xnn_setup_resize_bilinear2d_nhwc_s8(op, N, H, W, OH, OW, (const int8_t *)x, (int8_t *)theirs, NULL);
  CHECK_EQ(st, xnn_status_success, "setup");
  if (st == xnn_status_success) CHECK_EQ(xnn_run_operator(op, NULL), xnn_status_success, "run");
  xnn_delete_operator(op);
  for (i = 0; i < cnt; i++) {
    int a = u8 ? ours[i] : (int8_t)ours[i], b = u8 ? theirs[i] : (int8_t)theirs[i], d = abs(a - b);
    if (d) (*diff)++;
    if (d > worst) worst = d;
  }
  *n += (long long)cnt;
  return worst;
}

static long long compared;

static void test_resize_bilinear_random(void) {
  int u8, mode, trial;
  for (u8 = 0; u8 < 2; u8++)
    for (mode = 0; mode < 3; mode++) {
      long long n = 0, diff = 0;
      int worst = 0;
      for (trial = 0; trial < 400; trial++) {
        size_t N = (size_t)th_range(1, 2), H = (size_t)th_range(1, 10), W = (size_t)th_range(1, 10);
        size_t C = (size_t)th_range(1, 5), OH = (size_t)th_range(1, 20), OW = (size_t)th_range(1, 20);
        int w = one_case(u8, mode, N, H, W, C, OH, OW, &n, &diff);
        if (w > worst) worst = w;
      }
      CHECK(worst <= (u8 ? 1 : 4));
      printf("  %s, %s, random sizes: %lld of %lld outputs differ, by at most %d\n", u8 ? "uint8" : "int8",
             mode_name[mode], diff, n, worst);
      compared += n;
    }
}

static void test_resize_bilinear_integer_upscale(void) {
  int u8, mode, trial;
  for (u8 = 0; u8 < 2; u8++)
    for (mode = 0; mode < 3; mode++) {
      long long n = 0, diff = 0;
      int worst = 0;
      for (trial = 0; trial < 400; trial++) {
        size_t N = (size_t)th_range(1, 2), H = (size_t)th_range(1, 10), W = (size_t)th_range(1, 10);
        size_t C = (size_t)th_range(1, 5), k = (size_t)th_range(1, 4);
        int w = one_case(u8, mode, N, H, W, C, k * H, k * W, &n, &diff);
        if (w > worst) worst = w;
      }
      if (u8 && mode != 1) CHECK_EQ(diff, 0, "uint8 integer upscales, %s", mode_name[mode]);
      CHECK(worst <= (u8 ? 1 : 4));
      printf("  %s, %s, upscale by 1-4: %lld of %lld outputs differ, by at most %d\n", u8 ? "uint8" : "int8",
             mode_name[mode], diff, n, worst);
      compared += n;
    }
}

int main(void) {
  if (xnn_initialize(NULL) != xnn_status_success) return th_skip("test_xnnpack_layout", "xnn_initialize failed on this CPU");
  TH_RUN(test_resize_bilinear_random);
  TH_RUN(test_resize_bilinear_integer_upscale);
  printf("  RESIZE_BILINEAR vs XNNPACK: %lld outputs compared\n", compared);
  return th_finish("test_xnnpack_layout");
}
#endif
