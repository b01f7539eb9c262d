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
/* mrtq_onednn_epilogue into an int32 (999 when refused: a failed check). */
static int32_t epi(const mrtq_onednn_attr *a, const mrtq_onednn_pos *at, int32_t acc, const int32_t *bias, int32_t prev,
                   mrtq_dtype t) {
  int32_t v = 999;
  CHECK_EQ(mrtq_onednn_epilogue(a, at, acc, bias, prev, t, &v), MRTQ_OK, "epilogue");
  return v;
}

static void test_epilogue_hand(void) {
  float sc = 0.05f;
  int32_t bias[1] = {10};
  mrtq_onednn_attr a;
  mrtq_onednn_pos at = {0, 0, 0};
  memset(&a, 0, sizeof a);
  a.oscale = &sc, a.dst_zp = 3;
  CHECK_EQ(epi(&a, &at, 100, bias, 0, MRTQ_S8), 8, "scale and zp");
  a.n_po = 1, a.po[0].kind = MRTQ_ONEDNN_LINEAR, a.po[0].alpha = 2, a.po[0].beta = -1, a.po[0].scale = 1;
  CHECK_EQ(epi(&a, &at, 100, bias, 0, MRTQ_S8), 13, "linear");
  a.po[0].kind = MRTQ_ONEDNN_SUM, a.po[0].scale = 0.5f, a.po[0].alpha = a.po[0].beta = 0;
  CHECK_EQ(epi(&a, &at, 100, bias, -7, MRTQ_S8), 5, "sum");
  a.po[0].kind = MRTQ_ONEDNN_CLIP, a.po[0].alpha = -1, a.po[0].beta = 1, a.po[0].scale = 1;
  CHECK_EQ(epi(&a, &at, 100, bias, 0, MRTQ_S8), 4, "clip");
  a.po[0].kind = MRTQ_ONEDNN_RELU, a.po[0].alpha = 0.25f, a.po[0].beta = 0, bias[0] = -10;
  CHECK_EQ(epi(&a, &at, -100, bias, 0, MRTQ_S8), 2, "leaky relu");
  a.n_po = 0;
  CHECK_EQ(epi(&a, &at, 100000, NULL, 0, MRTQ_S8), 127, "saturation");
  CHECK_EQ(epi(&a, &at, -100000, NULL, 0, MRTQ_U8), 0, "saturation u8");
  /* the eltwise scale multiplies the result (oneDNN: fl(eltwise(f) * scale)); it was dropped before:
     ReLU with scale 0.5 on 40 stores 20 (not 40); with dst zp 3: 23 */
  a.oscale = NULL, a.dst_zp = 0, a.n_po = 1, a.po[0].kind = MRTQ_ONEDNN_RELU, a.po[0].alpha = 0, a.po[0].scale = 0.5f;
  CHECK_EQ(epi(&a, &at, 40, NULL, 0, MRTQ_S8), 20, "relu scale 0.5 on 40");
  a.dst_zp = 3;
  CHECK_EQ(epi(&a, &at, 40, NULL, 0, MRTQ_S8), 23, "relu scale 0.5 on 40, dst zp 3");
  /* The sum post-op's zero point (dnnl_post_ops_append_sum_v3), measured against oneDNN 2.6.3 on an AVX512-VNNI
     CPU (issue 20's vector): a 1x1 conv of s8 src 43 with weight 1, sum scale 0x3eededee, zp 16, over a stored
     -69 stores 3: fmaf(0.46470..., -85, 43) = 3.4999... One rounding after the product (the reference kernels'
     form) lands on 3.5 and gives 4. */
  {
    uint32_t u = 0x3eededeeu;
    mrtq_onednn_attr z;
    memset(&z, 0, sizeof z);
    z.n_po = 1, z.po[0].kind = MRTQ_ONEDNN_SUM, z.po[0].zp = 16;
    memcpy(&z.po[0].scale, &u, sizeof u);
    CHECK_EQ(epi(&z, &at, 43, NULL, -69, MRTQ_S8), 3, "sum with zp 16 (fused, oneDNN's JIT)");
    z.ref_rounding = 1;
    CHECK_EQ(epi(&z, &at, 43, NULL, -69, MRTQ_S8), 4, "sum with zp 16 (two roundings, oneDNN's reference)");
  }
  a.dst_zp = 0; /* leaky: -40 * 0.25 = -10, times 0.5 = -5; LINEAR 2x - 1 on 40 = 79, times 0.5 = 39.5 -> 40 (even);
                   CLIP [-1, 1] on 40 = 1, times -3 = -3 */
  a.po[0].alpha = 0.25f;
  CHECK_EQ(epi(&a, &at, -40, NULL, 0, MRTQ_S8), -5, "leaky relu scale");
  a.po[0].kind = MRTQ_ONEDNN_LINEAR, a.po[0].alpha = 2, a.po[0].beta = -1;
  CHECK_EQ(epi(&a, &at, 40, NULL, 0, MRTQ_S8), 40, "linear scale: 39.5 ties to even");
  a.po[0].kind = MRTQ_ONEDNN_CLIP, a.po[0].alpha = -1, a.po[0].beta = 1, a.po[0].scale = -3;
  CHECK_EQ(epi(&a, &at, 40, NULL, 0, MRTQ_S8), -3, "clip scale -3");
  /* LINEAR(1, 0) on 3 with scale fl(1/3): 3 fl(1/3) rounds to 1 */
  a.po[0].kind = MRTQ_ONEDNN_LINEAR, a.po[0].alpha = 1, a.po[0].beta = 0, a.po[0].scale = 1.0f / 3.0f;
  CHECK_EQ(epi(&a, &at, 3, NULL, 0, MRTQ_S8), 1, "linear scale 1/3 on 3");
}

#define CONV(a_, bias_, t_) mrtq_conv2d_onednn(&s, (a_), &qx, &qw, (bias_), (t_), out)
static void test_bad_input(void) {
  int8_t x[4] = {1, 2, 3, 4}, w[4] = {1, 1, 1, 1}, out[1] = {9};
  const int32_t bias0[1] = {0};
  float sc = 1.0f;
  mrtq_conv2d_shape s;
  mrtq_qoperand qx, qw;
  mrtq_onednn_attr a, b;
  memset(&s, 0, sizeof s), memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw), memset(&a, 0, sizeof a);
  s.n = s.o = 1, s.c = 4, s.h = s.w = s.kh = s.kw = 1, s.stride_h = s.stride_w = s.dil_h = s.dil_w = s.groups = 1;
  s.layout = MRTQ_NHWC;
  qx.data = x, qw.data = w, qx.type = qw.type = MRTQ_S8, a.oscale = &sc;
  CHECK_EQ(CONV(&a, NULL, MRTQ_S8), MRTQ_OK, "ok");
  CHECK_EQ(out[0], 10, "value");
  out[0] = 9;
  /* the eight: each its own reason */
  qw.zp = 1;
  CHECK_REFUSED(CONV(&a, NULL, MRTQ_S8), MRTQ_EINVAL, "w->zp: must be 0 (oneDNN's int8 weights");
  qw.zp = 0, qw.zp_ch = bias0;
  CHECK_REFUSED(CONV(&a, NULL, MRTQ_S8), MRTQ_EINVAL, "w->zp_ch: must be NULL (oneDNN's int8 weights");
  qw.zp_ch = NULL, qx.zp = 2;
  CHECK_REFUSED(CONV(&a, NULL, MRTQ_S8), MRTQ_EINVAL, "x->zp: must equal attr->src_zp");
  qx.zp = 0, a.n_po = 5;
  CHECK_REFUSED(CONV(&a, NULL, MRTQ_S8), MRTQ_EINVAL, "attr->n_po: at most 4 post-ops (MRTQ_ONEDNN_MAX_PO)");
  a.n_po = -1;
  CHECK_REFUSED(CONV(&a, NULL, MRTQ_S8), MRTQ_EINVAL, "attr->n_po: must be >= 0");
  a.n_po = 1, a.po[0].kind = 7;
  CHECK_REFUSED(CONV(&a, NULL, MRTQ_S8), MRTQ_EINVAL, "attr->po[i].kind: not a post-op kind");
  a.po[0].kind = MRTQ_ONEDNN_CLIP, a.po[0].alpha = 2, a.po[0].beta = 1, a.po[0].scale = 1;
  CHECK_REFUSED(CONV(&a, NULL, MRTQ_S8), MRTQ_EINVAL, "attr->po[i].beta: must be >= attr->po[i].alpha on CLIP");
  a.po[0].alpha = 1;
  CHECK_EQ(CONV(&a, NULL, MRTQ_S8), MRTQ_OK, "clip with alpha = beta");
  CHECK_EQ(out[0], 1, "value");
  out[0] = 9;
  a.n_po = 0, a.dst_zp = 200;
  CHECK_REFUSED(CONV(&a, NULL, MRTQ_S8), MRTQ_EINVAL, "attr->dst_zp: outside dst_type's range");
  a.dst_zp = 0, a.oscale = NULL;
  CHECK_EQ(CONV(&a, NULL, MRTQ_S8), MRTQ_OK, "no scales: 1");
  CHECK_EQ(out[0], 10, "value");
  out[0] = 9;
  a.oscale = &sc, a.scheme = MRTQ_ONEDNN_NEW;
  CHECK_REFUSED(CONV(&a, NULL, MRTQ_S8), MRTQ_EINVAL, "attr->oscale: must be NULL in the NEW scheme");
  a.oscale = NULL, a.dst_scale = &sc;
  CHECK_REFUSED(CONV(&a, bias0, MRTQ_S8), MRTQ_EINVAL, "bias: must be NULL in the NEW scheme");
  a.scheme = MRTQ_ONEDNN_OLD;
  CHECK_REFUSED(CONV(&a, NULL, MRTQ_S8), MRTQ_EINVAL, "attr->dst_scale: must be NULL in the OLD scheme");
  a.dst_scale = NULL, a.scheme = 2;
  CHECK_REFUSED(CONV(&a, NULL, MRTQ_S8), MRTQ_EINVAL, "attr->scheme: must be MRTQ_ONEDNN_OLD or MRTQ_ONEDNN_NEW");
  a.scheme = 0, a.oscale = &sc;
  CHECK_REFUSED(CONV(NULL, NULL, MRTQ_S8), MRTQ_EINVAL, "attr: NULL");
  CHECK_REFUSED(mrtq_conv2d_onednn(&s, &a, &qx, &qw, NULL, MRTQ_S8, NULL), MRTQ_EINVAL, "dst: NULL");
  CHECK_REFUSED(CONV(&a, NULL, MRTQ_S16), MRTQ_EUNSUPPORTED, "dst_type: must be MRTQ_S8 or MRTQ_U8");
  CHECK_REFUSED(CONV(&a, NULL, (mrtq_dtype)0), MRTQ_EINVAL, "dst_type: not an mrtq_dtype");
  /* every other attribute field: a value the mode does not read is refused, not dropped */
#define ATTR_BAD(stmt, why)                                                                                  \
  do {                                                                                                       \
    b = a;                                                                                                   \
    stmt;                                                                                                    \
    CHECK_REFUSED(CONV(&b, NULL, MRTQ_S8), MRTQ_EINVAL, why);                                                 \
  } while (0)
  ATTR_BAD(b.ref_rounding = 2, "attr->ref_rounding: must be 0 (JIT kernels) or 1");
  ATTR_BAD(b.oscale_mask = 16, "attr->oscale_mask: a bit beyond the dst's logical dimensions");
  ATTR_BAD((b.oscale = NULL, b.oscale_mask = 2), "attr->oscale_mask: must be 0 without attr->oscale");
  ATTR_BAD((b.scheme = MRTQ_ONEDNN_NEW, b.oscale = NULL, b.oscale_mask = 2), "attr->oscale_mask: must be 0 in the NEW scheme");
  ATTR_BAD((b.scheme = MRTQ_ONEDNN_NEW, b.oscale = NULL, b.wei_scale = &sc, b.wei_per_oc = 2), "attr->wei_per_oc: must be 0 or 1");
  ATTR_BAD((b.scheme = MRTQ_ONEDNN_NEW, b.oscale = NULL, b.wei_per_oc = 1), "attr->wei_per_oc: must be 0 without attr->wei_scale");
  ATTR_BAD(b.src_scale = &sc, "attr->src_scale: must be NULL in the OLD scheme");
  ATTR_BAD(b.wei_scale = &sc, "attr->wei_scale: must be NULL in the OLD scheme");
  ATTR_BAD(b.fbias = &sc, "attr->fbias: must be NULL in the OLD scheme");
  ATTR_BAD(b.wei_per_oc = 1, "attr->wei_per_oc: must be 0 in the OLD scheme");
  ATTR_BAD((b.dst_zp_ch = bias0, b.dst_zp = 1), "attr->dst_zp: must be 0 beside attr->dst_zp_ch");
  ATTR_BAD((b.n_po = 1, b.po[0].kind = MRTQ_ONEDNN_BIN_ADD), "attr->po[i].src1: NULL on a binary post-op");
  ATTR_BAD((b.n_po = 1, b.po[0].kind = MRTQ_ONEDNN_BIN_MUL, b.po[0].src1 = &sc, b.po[0].src1_bcast = 3),
           "attr->po[i].src1_bcast: must be MRTQ_ONEDNN_COMMON, _PER_OC or _PER_ELEM");
  ATTR_BAD((b.n_po = 1, b.po[0].kind = MRTQ_ONEDNN_RELU, b.po[0].scale = 1, b.po[0].src1 = &sc),
           "attr->po[i].src1: must be NULL on SUM and eltwise post-ops");
  ATTR_BAD((b.n_po = 1, b.po[0].kind = MRTQ_ONEDNN_SUM, b.po[0].src1_bcast = MRTQ_ONEDNN_PER_OC),
           "attr->po[i].src1_bcast: must be 0 on SUM and eltwise post-ops");
  ATTR_BAD((b.n_po = 1, b.po[0].kind = MRTQ_ONEDNN_SUM, b.po[0].scale = 1, b.po[0].alpha = 2),
           "attr->po[i].alpha: must be 0 on SUM and binary post-ops");
  ATTR_BAD((b.n_po = 1, b.po[0].kind = MRTQ_ONEDNN_RELU, b.po[0].scale = 1, b.po[0].zp = 3),
           "attr->po[i].zp: must be 0 on eltwise and binary post-ops");
  ATTR_BAD((b.n_po = 1, b.po[0].kind = MRTQ_ONEDNN_BIN_ADD, b.po[0].src1 = &sc, b.po[0].alpha = 2),
           "attr->po[i].alpha: must be 0 on SUM and binary post-ops");
  ATTR_BAD((b.n_po = 1, b.po[0].kind = MRTQ_ONEDNN_RELU, b.po[0].scale = 1, b.po[0].beta = 2),
           "attr->po[i].beta: must be 0 on SUM, RELU and binary post-ops");
  ATTR_BAD((b.n_po = 2, b.po[1].kind = MRTQ_ONEDNN_RELU), "attr->po[i].scale: must be nonzero on RELU, LINEAR and CLIP");
  ATTR_BAD((b.n_po = 1, b.po[0].kind = MRTQ_ONEDNN_LINEAR, b.po[0].alpha = 1, b.po[0].beta = 2, b.po[0].scale = 0),
           "attr->po[i].scale: must be nonzero");
  { /* zero points per channel: (x - zx[c]) w summed = (1-1) + (2-3) + (3-0) + (4+4) = 10, plus dst zp 5 */
    const int32_t zxc[4] = {1, 3, 0, -4}, zyc[1] = {5}, bad_zyc[1] = {128}, bad_zxc[4] = {1, 3, 0, -129};
    a.src_zp_ch = zxc, a.dst_zp_ch = zyc;
    CHECK_EQ(CONV(&a, NULL, MRTQ_S8), MRTQ_OK, "per-channel zero points");
    CHECK_EQ(out[0], 15, "value");
    out[0] = 9;
    a.src_zp = qx.zp = 1;
    CHECK_REFUSED(CONV(&a, NULL, MRTQ_S8), MRTQ_EINVAL, "attr->src_zp: must be 0 beside attr->src_zp_ch");
    a.src_zp = qx.zp = 0, a.src_zp_ch = bad_zxc;
    CHECK_REFUSED(CONV(&a, NULL, MRTQ_S8), MRTQ_EINVAL, "attr->src_zp_ch[c]: outside x->type's range");
    a.src_zp_ch = zxc;
    CHECK_REFUSED(mrtq_fc_onednn(1, 4, 1, &a, &qx, &qw, NULL, MRTQ_S8, out), MRTQ_EINVAL,
                  "attr->src_zp_ch: must be NULL for an inner product");
    a.src_zp_ch = NULL, a.dst_zp = 1;
    CHECK_REFUSED(CONV(&a, NULL, MRTQ_S8), MRTQ_EINVAL, "attr->dst_zp: must be 0 beside attr->dst_zp_ch");
    a.dst_zp = 0, a.dst_zp_ch = bad_zyc;
    CHECK_REFUSED(CONV(&a, NULL, MRTQ_S8), MRTQ_EINVAL, "attr->dst_zp_ch[o]: outside dst_type's range");
    CHECK_EQ(CONV(&a, NULL, MRTQ_U8), MRTQ_OK, "128 is in uint8");
    out[0] = 9, a.dst_zp_ch = NULL, qx.zp_ch = zxc;
    CHECK_REFUSED(CONV(&a, NULL, MRTQ_S8), MRTQ_EINVAL, "x->zp_ch: must be NULL");
    qx.zp_ch = NULL;
  }
  { /* the public epilogue checks what the kernels check */
    mrtq_onednn_pos at = {0, 0, 0};
    int32_t v = 55;
    const int32_t zy[1] = {300};
    CHECK_REFUSED(mrtq_onednn_epilogue(&a, NULL, 1, NULL, 0, MRTQ_S8, &v), MRTQ_EINVAL, "at: NULL");
    CHECK_REFUSED(mrtq_onednn_epilogue(&a, &at, 1, NULL, 0, MRTQ_S8, NULL), MRTQ_EINVAL, "out: NULL");
    CHECK_REFUSED(mrtq_onednn_epilogue(NULL, &at, 1, NULL, 0, MRTQ_S8, &v), MRTQ_EINVAL, "attr: NULL");
    CHECK_REFUSED(mrtq_onednn_epilogue(&a, &at, 1, NULL, 0, MRTQ_S4, &v), MRTQ_EUNSUPPORTED, "dst_type: must be");
    b = a, b.scheme = MRTQ_ONEDNN_NEW, b.oscale = NULL;
    CHECK_REFUSED(mrtq_onednn_epilogue(&b, &at, 1, bias0, 0, MRTQ_S8, &v), MRTQ_EINVAL, "bias: must be NULL in the NEW scheme");
    b = a, b.dst_zp_ch = zy;
    CHECK_REFUSED(mrtq_onednn_epilogue(&b, &at, 1, NULL, 0, MRTQ_U8, &v), MRTQ_EINVAL, "attr->dst_zp_ch[o]: outside");
    CHECK_EQ(v, 55, "untouched");
  }
  s.kh = 0;
  CHECK_REFUSED(CONV(&a, NULL, MRTQ_S8), MRTQ_ESHAPE, "s->kh: must be >= 1");
  CHECK_EQ(out[0], 9, "untouched");
}
#undef ATTR_BAD
#undef CONV

/* The epilogue against an evaluation in double with each float operation's
 * result rounded to float by a cast (one double operation on floats then a
 * cast to float equals the float operation: double has more than 2 x 24 + 2
 * bits), sum and linear as one double expression then a cast (exact in double
 * for these operands: 6-bit factors, sums spanning fewer than 53 bits), and C's rint for the final ties-to-even
 * rounding: NEW scheme and binary post-ops with scaled src1. */
static float fl(double v) { return (float)v; }
static void test_epilogue_oracle(void) {
  long t, bad = 0;
  for (t = 0; t < 400000; t++) {
    mrtq_onednn_attr a;
    mrtq_onednn_pos at;
    float ss = ldexpf(1.0f + (float)(th_rand32() % 4096u) / 4096.0f, -(int)th_range(2, 9));
    float ws[3], ds = ldexpf(1.0f + (float)(th_rand32() % 4096u) / 4096.0f, -(int)th_range(0, 4)), fb[3], src1[2][6], osc[6];
    int32_t acc = (int32_t)th_range(-3000000, 3000000), prev = (int32_t)th_range(-128, 127), bias[3], got, want;
    int i, k, du = (int)(th_rand32() & 1u);
    double f;
    memset(&a, 0, sizeof a);
    at.oc = (size_t)th_range(0, 2), at.at = (size_t)th_range(0, 5), at.si = at.at;
    for (i = 0; i < 3; i++) ws[i] = ldexpf(1.0f + (float)(th_rand32() % 4096u) / 4096.0f, -(int)th_range(4, 9)), fb[i] = (float)th_range(-999, 999) / 8.0f, bias[i] = (int32_t)th_range(-99999, 99999);
    for (i = 0; i < 6; i++) src1[0][i] = (float)th_range(-999, 999) / 16.0f, src1[1][i] = (float)th_range(-99, 99) / 64.0f, osc[i] = ldexpf(1.0f + (float)(th_rand32() % 4096u) / 4096.0f, -(int)th_range(10, 16));
    a.scheme = (int)(th_rand32() & 1u), a.ref_rounding = (int)(th_rand32() % 4u == 0);
    a.dst_zp = (int32_t)(du ? th_range(0, 255) : th_range(-128, 127));
    if (a.scheme == MRTQ_ONEDNN_NEW) {
      a.src_scale = th_rand32() & 1u ? &ss : NULL, a.wei_scale = ws, a.wei_per_oc = (int)(th_rand32() & 1u);
      a.dst_scale = th_rand32() & 1u ? &ds : NULL, a.fbias = th_rand32() & 1u ? fb : NULL;
      f = fl((double)fl((double)acc) * fl((double)(a.src_scale ? ss : 1.0f) * (a.wei_per_oc ? ws[at.oc] : ws[0])));
      if (a.fbias) f = fl(f + fb[at.oc]);
    } else {
      a.oscale = osc;
      f = fl(fl((double)acc) + (double)fl((double)bias[at.oc]));
      f = fl(f * osc[at.si]);
    }
    a.n_po = (int)th_range(0, 4);
    for (k = 0; k < a.n_po; k++) {
      mrtq_onednn_po *p = &a.po[k];
      p->kind = (int)th_range(0, 5), p->scale = (float)th_range(1, 40) / 16.0f, p->alpha = (float)th_range(-40, 40) / 16.0f;
      p->beta = (float)th_range(1, 40) / 4.0f, p->src1 = src1[p->kind & 1], p->src1_bcast = (int)th_range(0, 2);
      if (p->kind == MRTQ_ONEDNN_CLIP && p->alpha > p->beta) p->alpha = -p->beta;
      /* the fields a kind does not read stay 0 (they are refused); half the eltwise ones unscaled */
      if (p->kind < MRTQ_ONEDNN_BIN_ADD) p->src1 = NULL, p->src1_bcast = 0;
      if (p->kind == MRTQ_ONEDNN_SUM || p->kind >= MRTQ_ONEDNN_BIN_ADD) p->alpha = 0;
      if (p->kind == MRTQ_ONEDNN_SUM || p->kind == MRTQ_ONEDNN_RELU || p->kind >= MRTQ_ONEDNN_BIN_ADD) p->beta = 0;
      if (p->kind >= MRTQ_ONEDNN_RELU && p->kind <= MRTQ_ONEDNN_CLIP && (th_rand32() & 1u)) p->scale = 1.0f;
      if (p->kind == MRTQ_ONEDNN_SUM && (th_rand32() & 1u)) p->zp = (int32_t)th_range(-300, 300);
      if (p->kind == MRTQ_ONEDNN_SUM && p->zp && th_range(0, 7) == 0) p->zp = (int32_t)th_range(-(1 << 26), 1 << 26);
      switch (p->kind) {
        case MRTQ_ONEDNN_SUM: { /* fl(prev - fl(zp)): the zero point subtracted in float */
          const double d = fl((double)prev - fl((double)p->zp));
          f = a.ref_rounding ? fl(f + (double)fl((double)p->scale * d)) : fl((double)p->scale * d + f);
          break;
        }
        case MRTQ_ONEDNN_RELU: f = f > 0 ? f : fl((double)p->alpha * f); break;
        case MRTQ_ONEDNN_LINEAR: f = a.ref_rounding ? fl(fl((double)p->alpha * f) + (double)p->beta) : fl((double)p->alpha * f + p->beta); break;
        case MRTQ_ONEDNN_CLIP: f = f < p->alpha ? p->alpha : f > p->beta ? p->beta : f; break;
        default: {
          double v = fl((double)p->scale * p->src1[p->src1_bcast == 2 ? at.at : p->src1_bcast == 1 ? at.oc : 0]);
          f = p->kind == MRTQ_ONEDNN_BIN_ADD ? fl(f + v) : fl(f * v);
        }
      }
      if (p->kind >= MRTQ_ONEDNN_RELU && p->kind <= MRTQ_ONEDNN_CLIP) f = fl(f * (double)p->scale); /* eltwise scale */
    }
    if (a.dst_scale) f = fl(f / ds);
    f = fl(f + a.dst_zp);
    f = rint(f);
    want = f < (du ? 0 : -128) ? (du ? 0 : -128) : f > (du ? 255 : 127) ? (du ? 255 : 127) : (int32_t)f;
    got = epi(&a, &at, acc, a.scheme == MRTQ_ONEDNN_OLD ? bias : NULL, prev, du ? MRTQ_U8 : MRTQ_S8);
    if (got != want && bad++ < 4) CHECK_EQ(got, want, "trial %ld scheme %d", t, a.scheme);
  }
  CHECK_EQ(bad, 0, "mismatches");
}

/* Output scales over any mask of the convolution's dst dimensions (n, oc, oh,
 * ow): each output's scale index written out per mask from the coordinates,
 * the accumulators from mrtq_conv2d_s32, the float sequence by hand. */
static void test_scale_masks(void) {
  static int8_t x[2 * 5 * 6 * 3], w[4 * 2 * 2 * 3];
  static int8_t out[2 * 4 * 5 * 4];
  static int32_t acc[2 * 4 * 5 * 4];
  static float osc[2 * 4 * 4 * 5];
  mrtq_conv2d_shape s;
  mrtq_qoperand qx, qw;
  mrtq_onednn_attr a;
  size_t i, n, o, y, xx, ho, wo;
  int mask;
  memset(&s, 0, sizeof s), memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
  s.n = 2, s.c = 3, s.h = 5, s.w = 6, s.o = 4, s.kh = s.kw = 2, s.stride_h = s.stride_w = s.dil_h = s.dil_w = s.groups = 1;
  s.layout = MRTQ_NHWC;
  for (i = 0; i < sizeof x; i++) x[i] = (int8_t)th_range(-128, 127);
  for (i = 0; i < sizeof w; i++) w[i] = (int8_t)th_range(-128, 127);
  for (i = 0; i < sizeof osc / sizeof osc[0]; i++) osc[i] = ldexpf(1.0f + (float)(th_rand32() % 256u) / 256.0f, -(int)th_range(9, 13));
  qx.data = x, qw.data = w, qx.zp = 3, qx.type = qw.type = MRTQ_S8;
  CHECK_EQ(mrtq_conv2d_out(&s, &ho, &wo), MRTQ_OK, "shape");
  CHECK_EQ(mrtq_conv2d_s32(&s, &qx, &qw, NULL, acc), MRTQ_OK, "s32");
  for (mask = 0; mask < 16; mask++) {
    memset(&a, 0, sizeof a);
    a.oscale = osc, a.oscale_mask = mask, a.src_zp = 3;
    CHECK_EQ(mrtq_conv2d_onednn(&s, &a, &qx, &qw, NULL, MRTQ_S8, out), MRTQ_OK, "mask %d", mask);
    for (n = 0; n < 2; n++)
      for (y = 0; y < ho; y++)
        for (xx = 0; xx < wo; xx++)
          for (o = 0; o < 4; o++) {
            size_t at = ((n * ho + y) * wo + xx) * 4 + o, si = 0;
            float f;
            long r;
            if (mask & 1) si = n;
            if (mask & 2) si = si * 4 + o;
            if (mask & 4) si = si * ho + y;
            if (mask & 8) si = si * wo + xx;
            f = (float)acc[at] * osc[si];
            r = lrintf(f);
            r = r < -128 ? -128 : r > 127 ? 127 : r;
            if (out[at] != r) {
              CHECK_EQ(out[at], r, "mask %d at %zu", mask, at);
              n = 2, y = ho, xx = wo, o = 4;
            }
          }
  }
  memset(&a, 0, sizeof a);
  a.oscale = osc, a.oscale_mask = 16, a.src_zp = 3;
  CHECK_REFUSED(mrtq_conv2d_onednn(&s, &a, &qx, &qw, NULL, MRTQ_S8, out), MRTQ_EINVAL, "attr->oscale_mask: a bit beyond");
  a.oscale_mask = 4;
  CHECK_REFUSED(mrtq_fc_onednn(2, 3, 1, &a, &qx, &qw, NULL, MRTQ_S8, out), MRTQ_EINVAL, "attr->oscale_mask: a bit beyond");
}

/* mrtq_binary_onednn by hand: a = [10, -20] (int8, zp 2), b = [3] (uint8) ->
 * 0.5 (a - 2) + 0.25 * 3 = 4.75, -10.25 -> 5, -10; multiplied: 4 * 0.75 = 3,
 * -11 * 0.75 = -8.25 -> -8; errors. */
static void test_binary_hand(void) {
  int8_t a[2] = {10, -20}, out[2] = {0, 0};
  uint8_t b[1] = {3};
  size_t sa[1] = {2}, sb[1] = {1}, sbad[1] = {3};
  mrtq_qoperand qa, qb;
  mrtq_onednn_attr at;
  float one = 1.0f;
  memset(&qa, 0, sizeof qa), memset(&qb, 0, sizeof qb), memset(&at, 0, sizeof at);
  qa.data = a, qa.zp = 2, qa.type = MRTQ_S8, qb.data = b, qb.type = MRTQ_U8;
  CHECK_EQ(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_ADD, &at, &qa, sa, 1, 0.5f, &qb, sb, 1, 0.25f, MRTQ_S8, out), MRTQ_OK, "add");
  CHECK(out[0] == 5 && out[1] == -10);
  CHECK_EQ(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_MUL, &at, &qa, sa, 1, 0.5f, &qb, sb, 1, 0.25f, MRTQ_S8, out), MRTQ_OK, "mul");
  CHECK(out[0] == 3 && out[1] == -8);
  CHECK_REFUSED(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_ADD, &at, &qb, sb, 1, 1, &qa, sa, 1, 1, MRTQ_S8, out), MRTQ_ESHAPE, "shape_b: broadcasts a beyond shape_a");
  CHECK_EQ(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_ADD, &at, &qa, sa, 1, 1, &qb, sbad, 1, 1, MRTQ_S8, out), MRTQ_ESHAPE, "not broadcastable");
  CHECK_REFUSED(mrtq_binary_onednn(MRTQ_ONEDNN_SUM, &at, &qa, sa, 1, 1, &qb, sb, 1, 1, MRTQ_S8, out), MRTQ_EINVAL, "op: must be MRTQ_ONEDNN_BIN_ADD or MRTQ_ONEDNN_BIN_MUL");
  at.oscale = &one;
  CHECK_REFUSED(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_ADD, &at, &qa, sa, 1, 1, &qb, sb, 1, 1, MRTQ_S8, out), MRTQ_EINVAL, "attr->oscale: must be NULL (the binary primitive");
  at.oscale = NULL, at.n_po = 1, at.po[0].kind = MRTQ_ONEDNN_BIN_ADD;
  CHECK_REFUSED(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_ADD, &at, &qa, sa, 1, 1, &qb, sb, 1, 1, MRTQ_S8, out), MRTQ_EINVAL, "attr->po[i].src1: NULL on a binary post-op");
  at.po[0].src1 = &one, at.po[0].src1_bcast = 3;
  CHECK_REFUSED(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_ADD, &at, &qa, sa, 1, 1, &qb, sb, 1, 1, MRTQ_S8, out), MRTQ_EINVAL, "attr->po[i].src1_bcast: must be MRTQ_ONEDNN_COMMON");
  at.n_po = 0, at.src_zp_ch = &qb.zp;
  CHECK_REFUSED(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_ADD, &at, &qa, sa, 1, 1, &qb, sb, 1, 1, MRTQ_S8, out), MRTQ_EINVAL, "attr->src_zp_ch: must be NULL for the binary primitive");
  at.src_zp_ch = NULL, qb.zp_ch = &qb.zp;
  CHECK_REFUSED(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_ADD, &at, &qa, sa, 1, 1, &qb, sb, 1, 1, MRTQ_S8, out), MRTQ_EINVAL, "b->zp_ch: must be NULL");
  qb.zp_ch = NULL;
  { /* a dst zero point per channel (dimension 1): 4.75 + 1 -> 6, -10.25 - 3 = -13.25 -> -13 */
    size_t s2a[2] = {1, 2}, s2b[2] = {1, 1};
    const int32_t zyc[2] = {1, -3}, bad_zyc[2] = {1, -129};
    at.dst_zp_ch = zyc;
    CHECK_EQ(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_ADD, &at, &qa, s2a, 2, 0.5f, &qb, s2b, 2, 0.25f, MRTQ_S8, out), MRTQ_OK, "dst zp per channel");
    CHECK(out[0] == 6 && out[1] == -13);
    at.dst_zp_ch = bad_zyc;
    CHECK_REFUSED(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_ADD, &at, &qa, s2a, 2, 0.5f, &qb, s2b, 2, 0.25f, MRTQ_S8, out), MRTQ_EINVAL, "attr->dst_zp_ch[o]: outside dst_type's range");
    at.dst_zp_ch = zyc, at.dst_zp = 1;
    CHECK_REFUSED(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_ADD, &at, &qa, s2a, 2, 0.5f, &qb, s2b, 2, 0.25f, MRTQ_S8, out), MRTQ_EINVAL, "attr->dst_zp: must be 0 beside attr->dst_zp_ch");
    at.dst_zp_ch = NULL, at.dst_zp = 0;
    CHECK_EQ(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_MUL, &at, &qa, sa, 1, 0.5f, &qb, sb, 1, 0.25f, MRTQ_S8, out), MRTQ_OK, "mul again");
  }
  qa.zp = 200;
  CHECK_REFUSED(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_ADD, &at, &qa, sa, 1, 1, &qb, sb, 1, 1, MRTQ_S8, out), MRTQ_EINVAL, "a->zp: outside a->type's range");
  qa.zp = 2;
#define BIN_REFUSED(code, why) \
  CHECK_REFUSED(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_ADD, &at, &qa, sa, 1, 1, &qb, sb, 1, 1, MRTQ_S8, out), code, why)
  qb.zp = 256;
  BIN_REFUSED(MRTQ_EINVAL, "b->zp: outside b->type's range");
  qb.zp = 0, qa.zp_ch = &qa.zp;
  BIN_REFUSED(MRTQ_EINVAL, "a->zp_ch: must be NULL");
  qa.zp_ch = NULL, qa.data = NULL;
  BIN_REFUSED(MRTQ_EINVAL, "a->data: NULL");
  qa.data = a, qb.data = NULL;
  BIN_REFUSED(MRTQ_EINVAL, "b->data: NULL");
  qb.data = b, qa.type = MRTQ_S16;
  BIN_REFUSED(MRTQ_EUNSUPPORTED, "a->type: must be MRTQ_S8 or MRTQ_U8");
  qa.type = MRTQ_S8, qb.type = (mrtq_dtype)0;
  BIN_REFUSED(MRTQ_EINVAL, "b->type: not an mrtq_dtype");
  qb.type = MRTQ_U8, at.scheme = MRTQ_ONEDNN_NEW;
  BIN_REFUSED(MRTQ_EINVAL, "attr->scheme: must be MRTQ_ONEDNN_OLD for the binary primitive");
  at.scheme = MRTQ_ONEDNN_OLD, at.src_zp = 1;
  BIN_REFUSED(MRTQ_EINVAL, "attr->src_zp: must be 0 (the binary primitive");
  at.src_zp = 0;
#undef BIN_REFUSED
  CHECK_REFUSED(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_ADD, &at, NULL, sa, 1, 1, &qb, sb, 1, 1, MRTQ_S8, out), MRTQ_EINVAL, "a: NULL");
  CHECK_REFUSED(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_ADD, &at, &qa, sa, 1, 1, NULL, sb, 1, 1, MRTQ_S8, out), MRTQ_EINVAL, "b: NULL");
  CHECK_REFUSED(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_ADD, &at, &qa, sa, 1, 1, &qb, sb, 1, 1, MRTQ_S8, NULL), MRTQ_EINVAL, "dst: NULL");
  CHECK_REFUSED(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_ADD, &at, &qa, sa, 1, 1, &qb, sb, 1, 1, MRTQ_S32, out), MRTQ_EUNSUPPORTED, "dst_type: must be");
  CHECK_REFUSED(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_ADD, NULL, &qa, sa, 1, 1, &qb, sb, 1, 1, MRTQ_S8, out), MRTQ_EINVAL, "attr: NULL");
  {
    size_t s2b[2] = {1, 1};
    CHECK_REFUSED(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_ADD, &at, &qa, sa, 1, 1, &qb, s2b, 2, 1, MRTQ_S8, out), MRTQ_ESHAPE,
                  "ndb: more dimensions than nda");
  }
  CHECK(out[0] == 3 && out[1] == -8);
}

/* mrtq_sum_onednn on values worked out by hand: ties to even after the
 * float sum, saturation, NaN (127 / 0: oneDNN 2.6.3's sum, measured by
 * test_onednn), in place, bad input. */
static void test_sum_hand(void) {
  int8_t a[3] = {10, -20, 0}, out[3] = {9, 9, 9};
  uint8_t b[3] = {3, 3, 3}, outu[3] = {9, 9, 9};
  mrtq_qoperand q[2];
  float sc[2] = {0.5f, 0.25f};
  memset(q, 0, sizeof q);
  q[0].data = a, q[0].type = MRTQ_S8, q[1].data = b, q[1].type = MRTQ_U8, q[1].zp = 1; /* b - 1 = 2: 0.5 */
  CHECK_EQ(mrtq_sum_onednn(2, q, sc, 3, MRTQ_S8, out), MRTQ_OK, "sum");
  CHECK(out[0] == 6 && out[1] == -10 && out[2] == 0); /* 5.5 -> 6, -9.5 -> -10, 0.5 -> 0 */
  CHECK_EQ(mrtq_sum_onednn(2, q, sc, 3, MRTQ_U8, outu), MRTQ_OK, "sum, u8 dst");
  CHECK(outu[0] == 6 && outu[1] == 0 && outu[2] == 0);
  sc[0] = 100.0f;
  CHECK_EQ(mrtq_sum_onednn(2, q, sc, 3, MRTQ_S8, out), MRTQ_OK, "saturating");
  CHECK(out[0] == 127 && out[1] == -128 && out[2] == 0);
  sc[0] = NAN;
  CHECK_EQ(mrtq_sum_onednn(2, q, sc, 3, MRTQ_S8, out), MRTQ_OK, "NaN");
  CHECK(out[0] == 127 && out[1] == 127 && out[2] == 127);
  CHECK_EQ(mrtq_sum_onednn(2, q, sc, 3, MRTQ_U8, outu), MRTQ_OK, "NaN, u8 dst");
  CHECK(outu[0] == 0 && outu[1] == 0 && outu[2] == 0);
  sc[0] = 0.5f;
  CHECK_EQ(mrtq_sum_onednn(2, q, sc, 3, MRTQ_S8, a), MRTQ_OK, "in place");
  CHECK(a[0] == 6 && a[1] == -10 && a[2] == 0);
  CHECK_REFUSED(mrtq_sum_onednn(0, q, sc, 3, MRTQ_S8, out), MRTQ_EINVAL, "n: must be >= 1");
  CHECK_REFUSED(mrtq_sum_onednn(2, q, NULL, 3, MRTQ_S8, out), MRTQ_EINVAL, "scales: NULL");
  q[1].zp = 256;
  CHECK_REFUSED(mrtq_sum_onednn(2, q, sc, 3, MRTQ_S8, out), MRTQ_EINVAL, "srcs[k].zp: outside srcs[k].type's range");
  q[1].zp = 0, q[1].zp_ch = &q[1].zp;
  CHECK_REFUSED(mrtq_sum_onednn(2, q, sc, 3, MRTQ_S8, out), MRTQ_EINVAL, "srcs[k].zp_ch: must be NULL");
  q[1].zp_ch = NULL, q[1].data = NULL;
  CHECK_REFUSED(mrtq_sum_onednn(2, q, sc, 3, MRTQ_S8, out), MRTQ_EINVAL, "srcs[k].data: NULL");
  q[1].data = b, q[1].type = MRTQ_S4;
  CHECK_REFUSED(mrtq_sum_onednn(2, q, sc, 3, MRTQ_S8, out), MRTQ_EUNSUPPORTED, "srcs[k].type: must be MRTQ_S8 or MRTQ_U8");
  q[1].type = (mrtq_dtype)0;
  CHECK_REFUSED(mrtq_sum_onednn(2, q, sc, 3, MRTQ_S8, out), MRTQ_EINVAL, "srcs[k].type: not an mrtq_dtype");
  q[1].type = MRTQ_U8;
  CHECK_REFUSED(mrtq_sum_onednn(2, NULL, sc, 3, MRTQ_S8, out), MRTQ_EINVAL, "srcs: NULL");
  CHECK_REFUSED(mrtq_sum_onednn(2, q, sc, 3, MRTQ_S8, NULL), MRTQ_EINVAL, "dst: NULL");
  CHECK_REFUSED(mrtq_sum_onednn(2, q, sc, 3, MRTQ_S16, out), MRTQ_EUNSUPPORTED, "dst_type: must be MRTQ_S8 or MRTQ_U8");
  CHECK(out[0] == 127 && out[1] == 127 && out[2] == 127); /* untouched since the NaN call */
}

/* mrtq_conv2d_out_onednn: oneDNN's output size, trunc((hp - ekh) / stride) + 1 with C's truncating division on
 * signed values (oneDNN 2.6's convolution descriptor), against that formula written here in long long; the
 * issue's measured case (IH 1, IW 2, KH 2, KW 1, stride 2, no padding: OH 1, OW 1) by hand; and the refusal of an
 * overrun of the stride or more, where oneDNN's size is 0 or less. */
static void test_conv_out_onednn(void) {
  mrtq_conv2d_shape s;
  size_t ho = 0, wo = 0, h2, w2;
  long t, overrun = 0, fits = 0;
  memset(&s, 0, sizeof s);
  s.n = s.c = s.o = s.groups = 1, s.h = 1, s.w = 2, s.kh = 2, s.kw = 1, s.stride_h = s.stride_w = 2, s.dil_h = s.dil_w = 1;
  s.layout = MRTQ_NHWC;
  CHECK_EQ(mrtq_conv2d_out_onednn(&s, &ho, &wo), MRTQ_OK, "the issue's case");
  CHECK(ho == 1 && wo == 1);
  CHECK_REFUSED(mrtq_conv2d_out(&s, &h2, &w2), MRTQ_ESHAPE, "s->kh: the dilated kernel is taller than the padded input");
  s.stride_h = 1;
  CHECK_REFUSED(mrtq_conv2d_out_onednn(&s, &ho, &wo), MRTQ_ESHAPE, "s->kh: the dilated kernel overruns the padded input by s->stride_h or more");
  s.stride_h = 2, s.kh = 1, s.kw = 4; /* wp 2, ekw 4: an overrun of 2 = the stride */
  CHECK_REFUSED(mrtq_conv2d_out_onednn(&s, &ho, &wo), MRTQ_ESHAPE, "s->kw: the dilated kernel overruns the padded input by s->stride_w or more");
  for (t = 0; t < 200000; t++) {
    long long hp, wp, ekh, ekw, oh, ow;
    mrtq_status st;
    s.h = (size_t)th_range(1, 9), s.w = (size_t)th_range(1, 9), s.kh = (size_t)th_range(1, 6), s.kw = (size_t)th_range(1, 6);
    s.stride_h = (size_t)th_range(1, 4), s.stride_w = (size_t)th_range(1, 4), s.dil_h = (size_t)th_range(1, 3);
    s.dil_w = (size_t)th_range(1, 3), s.pad_top = (size_t)th_range(0, 2), s.pad_bottom = (size_t)th_range(0, 2);
    s.pad_left = (size_t)th_range(0, 2), s.pad_right = (size_t)th_range(0, 2);
    hp = (long long)(s.h + s.pad_top + s.pad_bottom), wp = (long long)(s.w + s.pad_left + s.pad_right);
    ekh = (long long)((s.kh - 1) * s.dil_h + 1), ekw = (long long)((s.kw - 1) * s.dil_w + 1);
    oh = (hp - ekh) / (long long)s.stride_h + 1, ow = (wp - ekw) / (long long)s.stride_w + 1; /* truncation */
    ho = wo = 0;
    st = mrtq_conv2d_out_onednn(&s, &ho, &wo);
    if (oh <= 0 || ow <= 0) {
      CHECK_EQ(st, MRTQ_ESHAPE, "h %zu kh %zu dil %zu stride %zu pads %zu %zu", s.h, s.kh, s.dil_h, s.stride_h, s.pad_top, s.pad_bottom);
      continue;
    }
    CHECK_EQ(st, MRTQ_OK, "h %zu kh %zu dil %zu stride %zu pads %zu %zu", s.h, s.kh, s.dil_h, s.stride_h, s.pad_top, s.pad_bottom);
    CHECK_EQ((long long)ho, oh, "ho");
    CHECK_EQ((long long)wo, ow, "wo");
    if (mrtq_conv2d_out(&s, &h2, &w2) == MRTQ_OK) {
      CHECK(h2 == ho && w2 == wo); /* where the kernel fits, both rules agree */
      fits++;
    } else {
      overrun++;
    }
  }
  CHECK(overrun > 0 && fits > 0);
  printf("  conv2d_out_onednn: %ld shapes where the last window runs past the padding, %ld where it fits\n", overrun, fits);
}

int main(void) {
#if defined(__FMA__) && (defined(__GNUC__) || defined(__clang__))
  if (!__builtin_cpu_supports("fma")) return th_skip("test_attr", "CPU lacks FMA (the contraction build)");
#endif
  TH_RUN(test_fmaf);
  TH_RUN(test_conv_out_onednn);
  TH_RUN(test_epilogue_hand);
  TH_RUN(test_epilogue_oracle);
  TH_RUN(test_scale_masks);
  TH_RUN(test_binary_hand);
  TH_RUN(test_sum_hand);
  TH_RUN(test_bad_input);
  return th_finish("test_attr");
}
