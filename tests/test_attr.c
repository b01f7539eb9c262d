/* mrtq/attr.h without oneDNN: the exact fused multiply-add against the C
 * library's fmaf (correctly rounded by C99's definition) on random and edge
 * operands, the float epilogue on hand-checked values, and bad input. The
 * byte-exact comparison with oneDNN itself is tests/test_onednn.c. */
#include <math.h>

#include "harness.h"
#include "mrtq.h"

static float bits_f(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static void test_fmaf(void) {
  long i, bad = 0, n = 0;
  for (i = 0; i < 3000000; i++) {
    float a, b, c, want, got;
    if (i % 3 == 0) a = bits_f(th_rand32()), b = bits_f(th_rand32()), c = bits_f(th_rand32());
    else { /* the epilogue's range: scales, stored values, accumulators near half-integers */
      a = ldexpf(1.0f + (float)(th_rand32() % 8388608u) / 8388608.0f, -(int)th_range(0, 8));
      b = (float)th_range(-128, 127);
      c = ldexpf((float)(th_rand32() % 16777216u), -(int)th_range(16, 30)) * (th_rand32() & 1u ? 1.0f : -1.0f);
    }
    if (!isfinite(a) || !isfinite(b) || !isfinite(c) || !isfinite(a * b) || fabs((double)a * b) > 1e37) continue;
    want = fmaf(a, b, c), got = mrtq__fmaf(a, b, c);
    n++;
    if (memcmp(&want, &got, sizeof want) != 0 && !(want == 0 && got == 0)) {
      if (bad++ < 4) CHECK_EQ(1, 0, "fmaf(%a, %a, %a) = %a, mrtq %a", a, b, c, want, got);
    }
  }
  CHECK_EQ(bad, 0, "of %ld", n);
  /* the double sum lands on a float midpoint and only its error decides:
   * (1 + 2^-23)(1 - 2^-23) + 2^24 + 2 = 2^24 + 3 - 2^-46 -> 2^24 + 2 (the
   * double sum 2^24 + 3 alone would round to even, 2^24 + 4); and the mirror
   * with the error above the midpoint */
  CHECK(mrtq__fmaf(1.0f + ldexpf(1, -23), 1.0f - ldexpf(1, -23), ldexpf(1, 24) + 2) == ldexpf(1, 24) + 2);
  CHECK(mrtq__fmaf(-(1.0f + ldexpf(1, -23)), 1.0f - ldexpf(1, -23), ldexpf(1, 24) + 4) == ldexpf(1, 24) + 4);
  CHECK(mrtq__fmaf(1.0f + ldexpf(1, -23), 1.0f + ldexpf(1, -23), ldexpf(1, 24) + 2) == ldexpf(1, 24) + 4);
}

/* hand-checked: acc 100, bias 10, scale 0.05 -> 5.5; relu passes it;
 * dst_zp 3 -> 8.5 -> 8 (ties to even); with linear 2x - 1 -> 10 + 3 = 13; a
 * SUM of 0.5 * prev (prev -7) -> 5.5 - 3.5 = 2 + 3 = 5; clip [-1, 1] -> 1 + 3
 * = 4; negative with relu alpha 0.25: acc -100 -> -5.5 * 0.25 = -1.375 + 3
 * -> 1.625 -> 2; saturation at the type. */
static void test_epilogue_hand(void) {
  float sc = 0.05f;
  int32_t bias[1] = {10};
  mrtq_onednn_attr a;
  memset(&a, 0, sizeof a);
  a.oscale = &sc, a.dst_zp = 3;
  CHECK_EQ(mrtq_onednn_epilogue(&a, 0, 100, bias, 0, -128, 127), 8, "scale and zp");
  a.n_po = 1, a.po[0].kind = MRTQ_ONEDNN_LINEAR, a.po[0].alpha = 2, a.po[0].beta = -1;
  CHECK_EQ(mrtq_onednn_epilogue(&a, 0, 100, bias, 0, -128, 127), 13, "linear");
  a.po[0].kind = MRTQ_ONEDNN_SUM, a.po[0].scale = 0.5f;
  CHECK_EQ(mrtq_onednn_epilogue(&a, 0, 100, bias, -7, -128, 127), 5, "sum");
  a.po[0].kind = MRTQ_ONEDNN_CLIP, a.po[0].alpha = -1, a.po[0].beta = 1;
  CHECK_EQ(mrtq_onednn_epilogue(&a, 0, 100, bias, 0, -128, 127), 4, "clip");
  a.po[0].kind = MRTQ_ONEDNN_RELU, a.po[0].alpha = 0.25f, bias[0] = -10;
  CHECK_EQ(mrtq_onednn_epilogue(&a, 0, -100, bias, 0, -128, 127), 2, "leaky relu");
  a.n_po = 0;
  CHECK_EQ(mrtq_onednn_epilogue(&a, 0, 100000, NULL, 0, -128, 127), 127, "saturation");
  CHECK_EQ(mrtq_onednn_epilogue(&a, 0, -100000, NULL, 0, 0, 255), 0, "saturation u8");
}

static void test_bad_input(void) {
  int8_t x[4] = {1, 2, 3, 4}, w[4] = {1, 1, 1, 1}, out[1] = {9};
  float sc = 1.0f;
  mrtq_conv2d_shape s;
  mrtq_qoperand qx, qw;
  mrtq_onednn_attr a;
  memset(&s, 0, sizeof s), memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw), memset(&a, 0, sizeof a);
  s.n = s.o = 1, s.c = 4, s.h = s.w = s.kh = s.kw = 1, s.stride_h = s.stride_w = s.dil_h = s.dil_w = s.groups = 1;
  s.layout = MRTQ_CONV_NHWC;
  qx.data = x, qw.data = w, a.oscale = &sc;
  CHECK_EQ(mrtq_conv2d_onednn(&s, &qx, &qw, NULL, &a, 0, out), MRTQ_OK, "ok");
  CHECK_EQ(out[0], 10, "value");
  out[0] = 9;
  qw.zp = 1;
  CHECK_EQ(mrtq_conv2d_onednn(&s, &qx, &qw, NULL, &a, 0, out), MRTQ_EINVAL, "weight zero point");
  qw.zp = 0, qx.zp = 2;
  CHECK_EQ(mrtq_conv2d_onednn(&s, &qx, &qw, NULL, &a, 0, out), MRTQ_EINVAL, "x zp != src zp");
  qx.zp = 0, a.n_po = 5;
  CHECK_EQ(mrtq_conv2d_onednn(&s, &qx, &qw, NULL, &a, 0, out), MRTQ_EINVAL, "5 post-ops");
  a.n_po = 1, a.po[0].kind = 7;
  CHECK_EQ(mrtq_conv2d_onednn(&s, &qx, &qw, NULL, &a, 0, out), MRTQ_EINVAL, "unknown post-op");
  a.n_po = 0, a.dst_zp = 200;
  CHECK_EQ(mrtq_conv2d_onednn(&s, &qx, &qw, NULL, &a, 0, out), MRTQ_EINVAL, "dst zp outside int8");
  a.dst_zp = 0, a.oscale = NULL;
  CHECK_EQ(mrtq_conv2d_onednn(&s, &qx, &qw, NULL, &a, 0, out), MRTQ_EINVAL, "no scales");
  a.oscale = &sc, s.kh = 0;
  CHECK_EQ(mrtq_conv2d_onednn(&s, &qx, &qw, NULL, &a, 0, out), MRTQ_ESHAPE, "kernel 0");
  CHECK_EQ(out[0], 9, "untouched");
}

int main(void) {
  TH_RUN(test_fmaf);
  TH_RUN(test_epilogue_hand);
  TH_RUN(test_bad_input);
  return th_finish("test_attr");
}
