/* mrtq/fastconv.h against its specification: every output byte of
 * mrtq_fastconv_onednn equal to mrtq_conv2d_onednn / mrtq_fc_onednn (attr.h,
 * itself byte-exact with oneDNN in tests/test_onednn.c) over random layers
 * (groups, depthwise, dilation, four-sided padding, both layouts, s8 / u8 src
 * and dst, both schemes, every scale mask, post-op chains, the reference
 * rounding) and edge values (extreme data and zero points, reductions at the
 * int32 bound where the shifted sums wrap, K not a multiple of 4, channel
 * counts off the 16 / 64 blocks, pixel counts off the 6-row tiles). Built
 * once per path (MRTQ_TEST_PATH): the C loops and AVX512-VNNI. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "harness.h"
#include "mrtq.h"

#ifndef MRTQ_TEST_PATH
#define MRTQ_TEST_PATH "scalar"
#endif

static long outputs; /* outputs compared */

static float rscale(int lo, int hi) { return ldexpf(1.0f + (float)(th_rand32() % 1000u) / 1000.0f, -(int)th_range(lo, hi)); }

typedef struct bufs {
  float osc[4096], ws[4096], fb[4096], ss, ds, s1[MRTQ_ONEDNN_MAX_PO][65536];
  int32_t dzp[4096];
} bufs;
static bufs B;
static const float special[5] = {NAN, INFINITY, -INFINITY, 1e30f, -1e30f};

/* Random attributes for o channels, ndst dst elements, the OLD mask over
 * dims d (count of scales from the mask). */
static void rand_attr(mrtq_onednn_attr *a, const size_t d[4], int fc, size_t ndst, int dst_u, int src_u, int32_t *zx) {
  size_t i, cnt = 1;
  int j;
  memset(a, 0, sizeof *a);
  a->scheme = th_range(0, 2) == 0 ? MRTQ_ONEDNN_NEW : MRTQ_ONEDNN_OLD;
  *zx = (int32_t)(src_u ? th_range(0, 255) : th_range(-128, 127));
  if (th_range(0, 3) == 0) *zx = src_u ? (th_range(0, 1) ? 255 : 0) : (th_range(0, 1) ? 127 : -128);
  a->src_zp = *zx;
  a->dst_zp = (int32_t)(dst_u ? th_range(0, 255) : th_range(-128, 127));
  if (d[1] <= 4096 && th_range(0, 3) == 0) { /* a dst zero point per channel */
    for (i = 0; i < d[1]; i++) B.dzp[i] = (int32_t)(dst_u ? th_range(0, 255) : th_range(-128, 127));
    a->dst_zp_ch = B.dzp, a->dst_zp = 0;
  }
  if (a->scheme == MRTQ_ONEDNN_OLD) {
    a->oscale_mask = (int)th_range(0, fc ? 3 : 15);
    for (j = 0; j < 4; j++)
      if (a->oscale_mask >> j & 1) cnt *= d[j];
    if (cnt > 4096) a->oscale_mask = 2, cnt = d[1];
    for (i = 0; i < cnt; i++) B.osc[i] = rscale(4, 12);
    if (th_range(0, 15) == 0) B.osc[th_range(0, (int64_t)cnt - 1)] = special[th_range(0, 4)];
    a->oscale = th_range(0, 7) ? B.osc : NULL;
    if (!a->oscale) a->oscale_mask = 0; /* a mask without scales is refused */
  } else {
    B.ss = rscale(3, 6), B.ds = rscale(0, 3);
    for (i = 0; i < d[1]; i++) B.ws[i] = rscale(3, 8), B.fb[i] = (float)th_range(-2000, 2000) / 64.0f;
    a->src_scale = &B.ss, a->dst_scale = th_range(0, 5) ? &B.ds : NULL, a->wei_scale = B.ws;
    a->wei_per_oc = (int)th_range(0, 1), a->fbias = th_range(0, 3) ? B.fb : NULL;
  }
  a->ref_rounding = th_range(0, 4) == 0;
  a->n_po = (int)th_range(0, MRTQ_ONEDNN_MAX_PO);
  for (j = 0; j < a->n_po; j++) {
    mrtq_onednn_po *p = &a->po[j];
    p->kind = (int)th_range(MRTQ_ONEDNN_SUM, MRTQ_ONEDNN_BIN_MUL);
    p->scale = th_range(0, 1) ? 1.0f : rscale(0, 3);
    p->alpha = (float)th_range(-40, 40) / 16.0f, p->beta = p->alpha + (float)th_range(0, 80) / 4.0f;
    if (p->kind == MRTQ_ONEDNN_RELU && th_range(0, 1)) p->alpha = 0;
    /* the fields a kind does not read must be 0 (the scale of RELU, LINEAR and CLIP multiplies their result) */
    if (p->kind == MRTQ_ONEDNN_SUM || p->kind >= MRTQ_ONEDNN_BIN_ADD) p->alpha = 0;
    if (p->kind == MRTQ_ONEDNN_SUM && (th_rand32() & 1u)) p->zp = (int32_t)th_range(-300, 300);
    if (p->kind == MRTQ_ONEDNN_SUM || p->kind == MRTQ_ONEDNN_RELU || p->kind >= MRTQ_ONEDNN_BIN_ADD) p->beta = 0;
    if (p->kind >= MRTQ_ONEDNN_BIN_ADD) {
      p->src1 = B.s1[j];
      p->src1_bcast = (int)th_range(0, ndst <= 65536 ? 2 : 1);
      for (i = 0; i < (p->src1_bcast == 2 ? ndst : p->src1_bcast ? d[1] : 1); i++)
        B.s1[j][i] = (float)th_range(-300, 300) / (p->kind == MRTQ_ONEDNN_BIN_MUL ? 128.0f : 8.0f);
      if (th_range(0, 7) == 0) /* specials: NaN counts as 0, infinities and huge values saturate */
        for (i = 0; i < (p->src1_bcast == 2 ? ndst : p->src1_bcast ? d[1] : 1); i += (size_t)th_range(1, 4))
          B.s1[j][i] = special[th_range(0, 4)];
    }
  }
}

static void fill8(void *p, size_t n, int u, int edge) {
  size_t i;
  for (i = 0; i < n; i++) {
    int32_t v = u ? (int32_t)th_range(0, 255) : (int32_t)th_range(-128, 127);
    if (edge) v = (th_range(0, 1) ? (u ? 255 : 127) : (u ? 0 : -128));
    ((uint8_t *)p)[i] = (uint8_t)v;
  }
}

static long overrun_layers; /* layers whose last window runs past the padding (oneDNN's output size) */

/* One layer: random data, the specification and the fast path from the
 * same dst (SUM reads it), compared byte for byte. Returns mismatches. */
static long layer(const mrtq_conv2d_shape *s, int fc, int src_u, int dst_u, int edge, const mrtq_onednn_attr *given,
                  int32_t given_zx) {
  size_t ho, wo, wb, sb, nx, nw, ny, i, d[4];
  mrtq_fastconv p;
  mrtq_qoperand qx, qw;
  mrtq_onednn_attr a;
  int32_t zx, *bias;
  void *x, *w, *mem, *scr;
  uint8_t *y0, *y1;
  long bad = 0;
  mrtq_status st;
  CHECK_EQ(mrtq_conv2d_out_onednn(s, &ho, &wo), MRTQ_OK, "shape");
  CHECK_EQ(mrtq_fastconv_sizes(s, &wb, &sb), MRTQ_OK, "sizes");
  {
    size_t h2, w2;
    overrun_layers += mrtq_conv2d_out(s, &h2, &w2) != MRTQ_OK;
  }
  nx = s->n * s->c * s->h * s->w, nw = s->o * (s->c / s->groups) * s->kh * s->kw, ny = s->n * s->o * ho * wo;
  d[0] = s->n, d[1] = s->o, d[2] = ho, d[3] = wo;
  x = malloc(nx), w = malloc(nw), y0 = (uint8_t *)malloc(ny), y1 = (uint8_t *)malloc(ny);
  mem = malloc(wb + 1), scr = malloc(sb + 3), bias = (int32_t *)malloc(s->o * sizeof *bias);
  fill8(x, nx, src_u, edge), fill8(w, nw, 0, edge), fill8(y0, ny, dst_u, 0);
  memcpy(y1, y0, ny);
  if (given) a = *given, zx = given_zx;
  else rand_attr(&a, d, fc, ny, dst_u, src_u, &zx);
  for (i = 0; i < s->o; i++) bias[i] = (int32_t)th_range(-30000, 30000);
  memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
  qx.data = x, qx.type = src_u ? MRTQ_U8 : MRTQ_S8, qx.zp = zx, qw.data = w, qw.type = MRTQ_S8;
  if (fc) st = mrtq_fc_onednn(s->n, s->c, s->o, &a, &qx, &qw, a.scheme == MRTQ_ONEDNN_OLD ? bias : NULL, dst_u ? MRTQ_U8 : MRTQ_S8, y0);
  else st = mrtq_conv2d_onednn(s, &a, &qx, &qw, a.scheme == MRTQ_ONEDNN_OLD ? bias : NULL, dst_u ? MRTQ_U8 : MRTQ_S8, y0);
  CHECK_EQ(st, MRTQ_OK, "specification");
  /* odd offsets: the packed weights and scratch are aligned inside */
  st = fc ? mrtq_fastconv_init_fc(s->n, s->c, s->o, &qw, (uint8_t *)mem + 1, wb, &p)
          : mrtq_fastconv_init(s, &qw, (uint8_t *)mem + 1, wb, &p);
  CHECK_EQ(st, MRTQ_OK, "init");
  if (st == MRTQ_OK) {
    st = mrtq_fastconv_onednn(&p, &a, &qx, a.scheme == MRTQ_ONEDNN_OLD ? bias : NULL, dst_u ? MRTQ_U8 : MRTQ_S8, (uint8_t *)scr + 3, sb, NULL, y1);
    CHECK_EQ(st, MRTQ_OK, "fast");
    for (i = 0; i < ny; i++)
      if (y0[i] != y1[i] && bad++ < 3)
        CHECK_EQ(y1[i], y0[i], "at %zu: n%zu c%zu h%zu w%zu o%zu k%zux%zu s%zu g%zu layout %d src_u %d dst_u %d scheme %d mask %d npo %d ref %d",
                 i, s->n, s->c, s->h, s->w, s->o, s->kh, s->kw, s->stride_h, s->groups, s->layout, src_u, dst_u,
                 a.scheme, a.oscale_mask, a.n_po, a.ref_rounding);
    outputs += (long)ny;
  }
  free(x), free(w), free(y0), free(y1), free(mem), free(scr), free(bias);
  return bad;
}

/* SUM and LINEAR are one rounding (fma) unless ref_rounding; a binary add's
 * scaled src1 is rounded before the addition. Inputs where that matters are
 * searched for (acc drawn near a half-integer result) until the two
 * roundings give other bytes: for SUM and LINEAR by the specification
 * itself (mrtq_onednn_epilogue with ref_rounding 0 and 1); for the binary
 * add by exact arithmetic in this file (the product rounded by a cast, the
 * sum of two floats exact in double, C99 fmaf for the fused alternative,
 * lrintf), which also checks the specification. Each case is built as an
 * inner product (k = 2048, weights 127 except a last 1, each row's x summing
 * to its acc; output scale 2^-17, exact), and the fast path must give the
 * single-rounding bytes where the spec says fma and the two-rounding bytes
 * where it does not, whatever the compiler's contraction setting (this test
 * is also built with -ffp-contract=fast). */
/* The specification's epilogue of one int8 output (no bias). */
static int32_t spec_epi(const mrtq_onednn_attr *a, const mrtq_onednn_pos *at, int32_t acc, int32_t prev) {
  int32_t v = 999;
  CHECK_EQ(mrtq_onednn_epilogue(a, at, acc, NULL, prev, MRTQ_S8, &v), MRTQ_OK, "epilogue");
  return v;
}
static float full_mantissa(float lo) { return lo * (1.0f + (float)(th_rand32() % 8388607u + 1u) / 8388608.0f); }
static void test_fused_rounding(void) {
  enum { R = 64, K = 2048 };
  static int8_t x[R * K], w[K];
  int kind, r;
  long bad = 0;
  size_t i, wb, sb;
  float sc = 1.0f / 131072.0f;
  for (i = 0; i < K; i++) w[i] = i + 1 < K ? 127 : 1;
  for (kind = 0; kind < 3; kind++) {
    static float s1[R];
    mrtq_onednn_attr a, ar;
    mrtq_onednn_pos at = {0, 0, 0};
    mrtq_conv2d_shape s = mrtq_fc_shape(R, K, 1);
    mrtq_qoperand qx, qw;
    mrtq_fastconv p;
    uint8_t y0[R], y1[R], want[R], other[R];
    void *mem, *scr;
    memset(&a, 0, sizeof a), memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
    a.oscale = &sc, a.n_po = 1;
    a.po[0].kind = kind == 2 ? MRTQ_ONEDNN_BIN_ADD : kind ? MRTQ_ONEDNN_LINEAR : MRTQ_ONEDNN_SUM;
    a.po[0].scale = full_mantissa(kind == 2 ? 0.25f : 0.5f);
    if (kind == 2) a.po[0].src1 = s1, a.po[0].src1_bcast = MRTQ_ONEDNN_PER_ELEM;
    if (kind == 1) a.po[0].alpha = full_mantissa(0.5f), a.po[0].beta = full_mantissa(8.0f), a.po[0].scale = 1.0f;
    ar = a, ar.ref_rounding = 1;
    for (r = 0; r < R; r++) {
      int32_t acc = 0, prev = 0, q, rem, e0 = 0, e1 = 0;
      long tries;
      size_t k;
      for (tries = 0; tries < 1000000; tries++) {
        double n = (double)th_range(-40, 40) + 0.5;
        prev = (int32_t)(th_range(0, 1) ? th_range(100, 127) : th_range(-128, -100));
        if (kind == 2) { /* v = fl(scale src1) in [16, 64), f = acc 2^-17 exact (|acc| < 2^24) */
          float v, f;
          s1[r] = full_mantissa(64.0f), at.at = (size_t)r;
          v = (float)((double)a.po[0].scale * (double)s1[r]);
          acc = (int32_t)((n - (double)v) * 131072.0) + (int32_t)th_range(-2, 2), f = (float)acc / 131072.0f;
          e0 = (int32_t)lrintf((float)((double)f + (double)v)), e1 = (int32_t)lrintf(fmaf(a.po[0].scale, s1[r], f));
          CHECK_EQ(spec_epi(&a, &at, acc, prev), e0, "spec, binary add: one row");
        } else {
          acc = (int32_t)((kind ? (n - a.po[0].beta) / a.po[0].alpha : n - (double)a.po[0].scale * prev) * 131072.0) +
                (int32_t)th_range(-2, 2);
          e0 = spec_epi(&a, &at, acc, prev);
          e1 = spec_epi(&ar, &at, acc, prev);
        }
        if (e0 != e1) break;
      }
      CHECK(e0 != e1);
      want[r] = (uint8_t)e0, other[r] = (uint8_t)e1, y0[r] = y1[r] = (uint8_t)prev;
      q = acc / 127, rem = acc - 127 * q; /* |rem| < 127 */
      for (k = 0; k + 1 < K; k++)
        x[r * K + k] = (int8_t)(q / (K - 1) + ((int32_t)k < (q < 0 ? -q : q) % (K - 1) ? (q < 0 ? -1 : 1) : 0));
      x[r * K + K - 1] = (int8_t)rem;
    }
    qx.data = x, qw.data = w, qx.type = qw.type = MRTQ_S8;
    CHECK_EQ(mrtq_fc_onednn(R, K, 1, &a, &qx, &qw, NULL, MRTQ_S8, y0), MRTQ_OK, "spec");
    mrtq_fastconv_sizes(&s, &wb, &sb);
    mem = malloc(wb), scr = malloc(sb);
    CHECK_EQ(mrtq_fastconv_init_fc(R, K, 1, &qw, mem, wb, &p), MRTQ_OK, "init");
    CHECK_EQ(mrtq_fastconv_onednn(&p, &a, &qx, NULL, MRTQ_S8, scr, sb, NULL, y1), MRTQ_OK, "fast");
    for (r = 0; r < R; r++) {
      CHECK_EQ(y0[r], want[r], "spec, row %d: the built acc", r); /* the rows hold the chosen sums */
      CHECK(want[r] != other[r]);
      if (y1[r] != want[r] && bad++ < 3) CHECK_EQ(y1[r], want[r], "row %d, %s", r, kind == 2 ? "binary add" : kind ? "linear" : "sum");
    }
    outputs += R;
    free(mem), free(scr);
  }
  CHECK_EQ(bad, 0, "mismatches");
}

static mrtq_conv2d_shape rand_shape(int depthwise) {
  mrtq_conv2d_shape s;
  size_t cg, og;
  int wide = depthwise && th_range(0, 1); /* kernels to 7x7, strides to 4, padding to 8 (and past the kernel) */
  memset(&s, 0, sizeof s);
  s.groups = depthwise ? (size_t)th_range(1, 70) : (size_t)(th_range(0, 3) ? 1 : th_range(2, 4));
  cg = depthwise ? 1 : (size_t)th_range(1, th_range(0, 1) ? 9 : 80);
  og = depthwise ? 1 : (size_t)th_range(1, th_range(0, 1) ? 20 : 140);
  s.n = (size_t)th_range(1, 2), s.c = cg * s.groups, s.o = og * s.groups;
  s.h = (size_t)th_range(1, 12), s.w = (size_t)th_range(1, 12);
  s.kh = (size_t)th_range(1, wide ? 7 : 3), s.kw = (size_t)th_range(1, wide ? 7 : 3);
  s.stride_h = (size_t)th_range(1, wide ? 4 : 2), s.stride_w = (size_t)th_range(1, wide ? 4 : 2);
  s.dil_h = (size_t)th_range(1, 2), s.dil_w = (size_t)th_range(1, 2);
  s.pad_top = (size_t)th_range(0, wide ? 8 : 2), s.pad_bottom = (size_t)th_range(0, wide ? 8 : 2);
  s.pad_left = (size_t)th_range(0, wide ? 8 : 2), s.pad_right = (size_t)th_range(0, wide ? 8 : 2);
  /* NCHW depthwise takes the GEMM path */
  s.layout = th_range(0, depthwise ? 5 : 2) ? MRTQ_NHWC : MRTQ_NCHW;
  if (s.groups == s.c && th_range(0, 1)) s.w_layout = MRTQ_W_TFLITE_DW; /* TFLite's [1][kh][kw][o] filter */
  {
    /* a sixth of the layers let the last window run past the bottom / right padding by less than the stride
       (oneDNN's truncating output size: one window, its missing taps read as padding) */
    const int over = th_range(0, 5) == 0;
    if (over) { /* small input, no bottom / right padding, a stride of 2 or more: the overrun happens */
      s.h = 1, s.w = 1, s.pad_bottom = 0, s.pad_right = 0;
      s.stride_h = s.stride_h < 2 ? 2 : s.stride_h, s.stride_w = s.stride_w < 2 ? 2 : s.stride_w;
    }
    while ((s.kh - 1) * s.dil_h + 1 > s.h + s.pad_top + s.pad_bottom + (over ? s.stride_h - 1 : 0)) s.h++;
    while ((s.kw - 1) * s.dil_w + 1 > s.w + s.pad_left + s.pad_right + (over ? s.stride_w - 1 : 0)) s.w++;
  }
  return s;
}

/* 300 random layers (rand_shape), dense or depthwise. */
static void random_layers(int depthwise) {
  int t;
  long bad = 0, before = outputs;
  for (t = 0; t < 300; t++) {
    mrtq_conv2d_shape s = rand_shape(depthwise);
    bad += layer(&s, 0, (int)th_range(0, 1), (int)th_range(0, 1), th_range(0, 9) == 0, NULL, 0);
  }
  CHECK_EQ(bad, 0, "mismatches");
  printf("  %s: %ld outputs (%ld layers so far whose last window runs past the padding)\n", depthwise ? "depthwise" : "conv",
         outputs - before, overrun_layers);
  CHECK(overrun_layers > 0);
}
static void test_conv_random(void) { random_layers(0); }
static void test_depthwise_random(void) { random_layers(1); }

static void test_fc_random(void) {
  int t;
  long bad = 0, before = outputs;
  for (t = 0; t < 200; t++) {
    mrtq_conv2d_shape s = mrtq_fc_shape((size_t)th_range(1, 40), (size_t)th_range(1, 700), (size_t)th_range(1, 150));
    bad += layer(&s, 1, (int)th_range(0, 1), (int)th_range(0, 1), th_range(0, 9) == 0, NULL, 0);
  }
  CHECK_EQ(bad, 0, "mismatches");
  printf("  inner product: %ld outputs\n", outputs - before);
}

/* mrtq_fastconv_q8 against mrtq_conv2d_q8 / mrtq_fc_q8 (conv.h, the scalar
 * specification, itself byte-exact with TFLite in tests/test_conv_tflite.c):
 * the same status, and on success the same bytes. fam: 0 TFLite (per-channel
 * MRTQ_Q31_DBL from mrtq_rq_init: the vector epilogue), 1 any family per
 * channel (mixed: mrtq_rq_apply per output), 2 Q31_DBL with hand-made
 * (multiplier, shift) pairs over the whole int32 / shift range the
 * descriptors accept (the vector epilogue where mult >= 0 and shift in [-31,
 * 30], else scalar), with bounds and zero points anywhere. */
static long q8_outputs, q8_vec_layers, q8_wide_layers, q8_fp32_layers, q8_direct, q8_direct_s8;
static void make_rq(mrtq_rq *r, int fam, int dst_u) {
  int32_t lo = dst_u ? 0 : -128, hi = dst_u ? 255 : 127;
  int32_t zp = (int32_t)th_range(lo, hi), qmin = lo, qmax = hi;
  static const mrtq_scheme all[5] = {MRTQ_Q31_DBL, MRTQ_Q31_RNDNU, MRTQ_Q15_VTA, MRTQ_Q15_RNDNU, MRTQ_FP32};
  mrtq_scheme sc = fam == 1 ? all[th_range(0, 4)] : fam == 3 ? MRTQ_FP32 : MRTQ_Q31_DBL;
  if (th_range(0, 3) == 0) qmin = (int32_t)th_range(lo - 5, hi), qmax = (int32_t)th_range(qmin, hi + 5);
  if (fam == 2) {
    memset(r, 0, sizeof *r);
    r->scheme = MRTQ_Q31_DBL, r->zp = th_range(0, 3) ? zp : (int32_t)th_rand32(), r->qmin = qmin, r->qmax = qmax;
    r->m.mult = th_range(0, 3) ? (int32_t)th_range(1 << 30, INT32_MAX) : (int32_t)th_rand32();
    r->m.shift = th_range(0, 3) ? (int32_t)th_range(-31, 30) : (int32_t)th_range(-70, 40);
    return;
  }
  CHECK_EQ(mrtq_rq_init(sc, (double)rscale(0, 14), zp, qmin, qmax, r),
           MRTQ_OK, "rq_init");
  if (fam == 3 && th_range(0, 15) == 0) { /* hand-made: a scale of any float bits (the scalar epilogue where not finite) */
    const float odd[6] = {INFINITY, -INFINITY, NAN, 0.0f, -0.5f, 3e38f};
    r->scale = odd[th_range(0, 5)];
  }
  if (fam == 3 && th_range(0, 15) == 0) r->zp = (int32_t)th_rand32(); /* bounds far from the zero point */
}
/* The weights of a layer_q8 (q8_wkind): 0 int8 without a zero point; 1
 * uint8 with one zero point (TFLite's legacy models); 2 int8 or uint8 with a
 * zero point per output channel (ONNX); 3 int4, packed, with or without a
 * zero point. Values stay within int8 of their zero point, except in a
 * twentieth of the layers (q8_wout: one weight outside, which init refuses).
 * w holds nw bytes (o rows of kk). */
static int q8_wkind, q8_wout;
static long q8_wkind_out[4], q8_wrefused, q8_woverflow;
static void make_weights(const mrtq_conv2d_shape *s, mrtq_qoperand *qw, void *w, size_t nw, int32_t *zch) {
  size_t i, o = s->o, oc, c, ky, kx;
  int8_t *v = (int8_t *)malloc(nw);
  q8_wout = 0;
  if (q8_wkind == 3) { /* int4 */
    for (i = 0; i < nw; i++) v[i] = (int8_t)th_range(-8, 7);
    if (th_range(0, 7) == 0) v[th_range(0, (int64_t)nw - 1)] = -8;
    CHECK_EQ(mrtq_s4_pack(v, nw, w), MRTQ_OK, "pack");
    qw->type = MRTQ_S4, qw->zp = th_range(0, 1) ? 0 : (int32_t)th_range(-8, 7);
    free(v);
    return;
  }
  qw->type = q8_wkind == 1 || th_range(0, 1) ? MRTQ_U8 : MRTQ_S8;
  for (i = 0; i < o; i++) {
    int32_t lo = qw->type == MRTQ_U8 ? 0 : -128, hi = qw->type == MRTQ_U8 ? 255 : 127;
    zch[i] = (int32_t)th_range(qw->type == MRTQ_U8 ? 100 : -20, qw->type == MRTQ_U8 ? 156 : 20);
    if (th_range(0, 9) == 0) zch[i] = (int32_t)th_range(lo, hi); /* anywhere: the values then span less */
    if (q8_wkind == 1 && i > 0) zch[i] = zch[0]; /* one zero point */
  }
  for (oc = 0; oc < o; oc++) /* in the filter layout (TFLite's depthwise one has the channel innermost) */
    for (c = 0; c < s->c / s->groups; c++)
      for (ky = 0; ky < s->kh; ky++)
        for (kx = 0; kx < s->kw; kx++) {
          int32_t z = zch[oc], lo = qw->type == MRTQ_U8 ? 0 : -128, hi = qw->type == MRTQ_U8 ? 255 : 127;
          int32_t a = z - 128 > lo ? z - 128 : lo, b = z + 127 < hi ? z + 127 : hi;
          int32_t val = th_range(0, 15) == 0 ? (th_range(0, 1) ? a : b) : (int32_t)th_range(a, b);
          i = mrtq__conv_w_at(s, oc, c, ky, kx);
          if (qw->type == MRTQ_U8) ((uint8_t *)w)[i] = (uint8_t)val; else ((int8_t *)w)[i] = (int8_t)val;
        }
  if (th_range(0, 19) == 0) { /* one weight outside int8 of its zero point, where its type allows one */
    size_t at0 = (size_t)th_range(0, (int64_t)o - 1), at = mrtq__conv_w_at(s, at0, 0, 0, 0);
    int32_t z = zch[at0];
    if (qw->type == MRTQ_U8 && (z > 128 || z < 127)) ((uint8_t *)w)[at] = z > 128 ? 0 : 255, q8_wout = 1;
    if (qw->type == MRTQ_S8 && z != 0) ((int8_t *)w)[at] = (int8_t)(z > 0 ? -128 : 127), q8_wout = 1;
  }
  if (q8_wkind == 1) qw->zp = zch[0];
  else qw->zp_ch = zch;
  free(v);
}
/* The same layer through a plan (mrtq_fastconv_q8plan_init, then _run at a
 * misaligned scratch and plan memory): status s0 (mrtq_fastconv_q8's) when
 * both succeed or the first to refuse is the same check (_init checks the
 * descriptors, which mrtq_fastconv_q8 checks after x: where both are bad
 * either refusal is right), y0's bytes on success, nothing written on
 * error. The descriptors and bias handed to _init are overwritten before
 * _run (the plan keeps copies). Returns the mismatches. */
static long q8_planned;
static long layer_q8_plan(const mrtq_fastconv *p, const mrtq_rq *rq, size_t nrq, const mrtq_qoperand *qx, const int32_t *bias,
                          mrtq_dtype dt, const uint8_t *y0, size_t ny, size_t sb, mrtq_status s0) {
  size_t pb = 0, i, o = p->s.o;
  mrtq_fastconv_q8plan pl;
  mrtq_rq *rc = (mrtq_rq *)malloc(nrq * sizeof *rc);
  int32_t *bc = (int32_t *)malloc(o * sizeof *bc);
  uint8_t *pm, *scr = (uint8_t *)malloc(sb + 7), *y2 = (uint8_t *)malloc(ny + 1);
  mrtq_status si, s2 = MRTQ_OK;
  long bad = 0;
  CHECK_EQ(mrtq_fastconv_q8plan_sizes(p, &pb), MRTQ_OK, "plan sizes");
  pm = (uint8_t *)malloc(pb + 5);
  memcpy(rc, rq, nrq * sizeof *rc);
  if (bias) memcpy(bc, bias, o * sizeof *bc);
  memset(y2, 0x5a, ny + 1);
  si = mrtq_fastconv_q8plan_init(p, rc, nrq, bias ? bc : NULL, dt, pm + 5, pb, &pl);
  memset(rc, 0xA5, nrq * sizeof *rc), memset(bc, 0x7f, o * sizeof *bc);
  if (si == MRTQ_OK) s2 = mrtq_fastconv_q8plan_run(&pl, qx, scr + 7, sb, NULL, y2);
  if (s0 == MRTQ_OK || si == MRTQ_OK) CHECK_EQ(si == MRTQ_OK ? s2 : si, s0, "planned status (init %d)", (int)si);
  /* both refused: either check may come first (above); the bytes below must then be untouched */
  for (i = 0; i <= ny; i++)
    if (y2[i] != (s0 == MRTQ_OK && i < ny ? y0[i] : 0x5a) && bad++ < 3) CHECK_EQ(y2[i], y0[i], "planned, at %zu", i);
  q8_planned += s0 == MRTQ_OK;
  free(rc), free(bc), free(pm), free(scr), free(y2);
  return bad;
}
static long layer_q8(const mrtq_conv2d_shape *s, int fc, int src_u, int dst_u, int edge, int fam) {
  size_t ho = 0, wo = 0, wb, sb, nx, nw, ny, i, nrq = th_range(0, 3) ? s->o : 1;
  int32_t *zch = (int32_t *)malloc(s->o * sizeof *zch);
  mrtq_fastconv p;
  mrtq_qoperand qx, qw;
  mrtq_rq *rq = (mrtq_rq *)malloc(s->o * sizeof *rq);
  int32_t *bias = (int32_t *)malloc(s->o * sizeof *bias);
  mrtq_dtype dt = dst_u ? MRTQ_U8 : MRTQ_S8;
  void *x, *w, *mem, *scr;
  uint8_t *y0, *y1;
  long bad = 0;
  mrtq_status s0, s1;
  CHECK_EQ(mrtq_fastconv_sizes(s, &wb, &sb), MRTQ_OK, "sizes");
  mrtq_conv2d_out_onednn(s, &ho, &wo);
  nx = s->n * s->c * s->h * s->w, nw = s->o * (s->c / s->groups) * s->kh * s->kw, ny = s->n * s->o * ho * wo;
  x = malloc(nx), w = malloc(nw), y0 = (uint8_t *)malloc(ny + 1), y1 = (uint8_t *)malloc(ny + 1);
  mem = malloc(wb + 1), scr = malloc(sb + 3);
  fill8(x, nx, src_u, edge), fill8(w, nw, 0, edge);
  memset(&qw, 0, sizeof qw);
  qw.data = w, qw.type = MRTQ_S8;
  if (q8_wkind) make_weights(s, &qw, w, nw, zch);
  memset(y0, 0x5a, ny + 1), memset(y1, 0x5a, ny + 1);
  for (i = 0; i < s->o; i++) make_rq(&rq[i], fam, dst_u), bias[i] = (int32_t)th_range(-300000, 300000);
  memset(&qx, 0, sizeof qx);
  qx.data = x, qx.type = src_u ? MRTQ_U8 : MRTQ_S8;
  qx.zp = edge ? (src_u ? 255 * (int32_t)th_range(0, 1) : (th_range(0, 1) ? 127 : -128)) : (int32_t)th_range(src_u ? 0 : -128, src_u ? 255 : 127);
  int use_bias = th_range(0, 4) != 0;
  if (fc) s0 = mrtq_fc_q8(s->n, s->c, s->o, rq, nrq, &qx, &qw, use_bias ? bias : NULL, dt, y0);
  else s0 = mrtq_conv2d_q8(s, rq, nrq, &qx, &qw, use_bias ? bias : NULL, dt, y0);
  if (q8_wout) { /* a weight less its zero point outside int8: refused at init, the reference takes it */
    CHECK_EQ(fc ? mrtq_fastconv_init_fc(s->n, s->c, s->o, &qw, (uint8_t *)mem + 1, wb, &p)
                : mrtq_fastconv_init(s, &qw, (uint8_t *)mem + 1, wb, &p),
             MRTQ_EUNSUPPORTED, "init refuses w - zw outside int8");
    q8_wrefused++;
    free(x), free(w), free(y0), free(y1), free(mem), free(scr), free(bias), free(rq), free(zch);
    return 0;
  }
  CHECK_EQ(fc ? mrtq_fastconv_init_fc(s->n, s->c, s->o, &qw, (uint8_t *)mem + 1, wb, &p)
              : mrtq_fastconv_init(s, &qw, (uint8_t *)mem + 1, wb, &p),
           MRTQ_OK, "init (%s; wkind %d)", th_why ? th_why : "", q8_wkind);
  s1 = mrtq_fastconv_q8(&p, rq, nrq, &qx, use_bias ? bias : NULL, dt, (uint8_t *)scr + 3, sb, NULL, y1);
  if (s0 == MRTQ_OK) q8_wkind_out[q8_wkind] += (long)ny;
  if (s0 == MRTQ_EOVERFLOW) q8_woverflow++;
  CHECK_EQ(s1, s0, "status as the specification's (n%zu c%zu h%zu w%zu o%zu k%zux%zu)", s->n, s->c, s->h, s->w, s->o, s->kh, s->kw);
  for (i = 0; i <= ny; i++) /* the byte past the end: never written */
    if (y0[i] != y1[i] && bad++ < 3)
      CHECK_EQ(y1[i], y0[i], "at %zu: n%zu c%zu h%zu w%zu o%zu k%zux%zu s%zu g%zu layout %d src_u %d dst_u %d fam %d nrq %zu", i,
               s->n, s->c, s->h, s->w, s->o, s->kh, s->kw, s->stride_h, s->groups, s->layout, src_u, dst_u, fam, nrq);
  bad += layer_q8_plan(&p, rq, nrq, &qx, use_bias ? bias : NULL, dt, y0, ny, sb, s0);
  if (s0 == MRTQ_OK) {
    q8_outputs += (long)ny, q8_direct += mrtq__fast_direct(&p, &qx);
    q8_direct_s8 += mrtq__fast_direct(&p, &qx) && qx.type == MRTQ_S8; /* moved by 128 in the kernel (A's flip) */
    int vec = s->layout == MRTQ_NHWC || ho * wo == 1, wide = 0;
    int fp = rq[0].scheme == MRTQ_FP32;
    for (i = 0; i < nrq; i++) {
      int32_t lo = dst_u ? 0 : -128, hi = dst_u ? 255 : 127, l0 = lo, h0 = hi;
      lo = rq[i].qmin < l0 ? l0 : rq[i].qmin > h0 ? h0 : rq[i].qmin; /* the effective bounds */
      hi = rq[i].qmax < l0 ? l0 : rq[i].qmax > h0 ? h0 : rq[i].qmax;
      if (fp) {
        vec &= rq[i].scheme == MRTQ_FP32 && isfinite(rq[i].scale) && (int64_t)lo - rq[i].zp >= -(1 << 24) &&
               (int64_t)hi - rq[i].zp <= (1 << 24);
      } else {
        vec &= rq[i].scheme == MRTQ_Q31_DBL && rq[i].m.mult >= 0 && rq[i].m.shift >= -31 && rq[i].m.shift <= 30;
        wide |= rq[i].m.shift > 0 || (int64_t)lo - rq[i].zp < INT32_MIN || (int64_t)hi - rq[i].zp > INT32_MAX;
      }
    }
    q8_vec_layers += vec, q8_wide_layers += vec && wide && !fp, q8_fp32_layers += vec && fp;
  }
  free(x), free(w), free(y0), free(y1), free(mem), free(scr), free(bias), free(rq), free(zch);
  return bad;
}
static void test_q8_random(void) {
  long bad = 0;
  int t;
  for (t = 0; t < 1200; t++) {
    int kind = t % 3; /* dense, depthwise, inner product */
    mrtq_conv2d_shape s =
        kind == 2 ? mrtq_fc_shape((size_t)th_range(1, 40), (size_t)th_range(1, 700), (size_t)th_range(1, 150)) : rand_shape(kind);
    bad += layer_q8(&s, kind == 2, (int)th_range(0, 1), (int)th_range(0, 1), th_range(0, 9) == 0, t / 3 % 4);
  }
  CHECK_EQ(bad, 0, "mismatches");
  printf("  requantized (mrtq_fastconv_q8 vs mrtq_conv2d_q8 / mrtq_fc_q8): %ld outputs, %ld layers on the vector epilogue "
         "(%ld of them on its 64-bit-lane Q31 form, %ld on its FP32 form); %ld layers also through a plan; %ld GEMM "
         "layers reading their interior pixels in place (%ld of them an s8 src)\n", q8_outputs, q8_vec_layers, q8_wide_layers,
         q8_fp32_layers, q8_planned, q8_direct, q8_direct_s8);
  CHECK(q8_outputs > 0 && q8_planned > 0 && q8_direct > 50 && q8_direct_s8 > 20 &&
        (!MRTQ__FAST_VNNI || (q8_vec_layers > q8_wide_layers + q8_fp32_layers && q8_wide_layers > 0 && q8_fp32_layers > 0)));
}
/* The fast core with uint8, zero-pointed and int4 weights (make_weights)
 * against mrtq_conv2d_q8 / mrtq_fc_q8 with the operand as given. */
static void test_q8_weights(void) {
  long bad = 0;
  int t;
  for (t = 0; t < 900; t++) {
    int kind = t % 3;
    mrtq_conv2d_shape s =
        kind == 2 ? mrtq_fc_shape((size_t)th_range(1, 40), (size_t)th_range(1, 700), (size_t)th_range(1, 150)) : rand_shape(kind);
    q8_wkind = 1 + t / 3 % 3;
    bad += layer_q8(&s, kind == 2, (int)th_range(0, 1), (int)th_range(0, 1), th_range(0, 9) == 0, t / 9 % 4);
  }
  q8_wkind = 0;
  CHECK_EQ(bad, 0, "mismatches");
  { /* the int32 worst case is the weights' as given: uint8 with zero point 128 over k = 20000 could overflow
       (mrtq_conv2d_q8 refuses), their int8 packing alone could not */
    const size_t k = 20000;
    mrtq_conv2d_shape s = mrtq_fc_shape(1, k, 1);
    size_t wb, sb;
    uint8_t *x = (uint8_t *)calloc(k, 1), *w = (uint8_t *)calloc(k, 1), y0 = 7, y1 = 7;
    void *mem, *scr;
    mrtq_qoperand qx, qw;
    mrtq_rq rq;
    mrtq_fastconv p;
    memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
    qx.data = x, qx.type = MRTQ_U8, qx.zp = 255, qw.data = w, qw.type = MRTQ_U8, qw.zp = 128;
    memset(w, 128, k);
    CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.001, 0, -128, 127, &rq), MRTQ_OK, "rq");
    CHECK_EQ(mrtq_fastconv_sizes(&s, &wb, &sb), MRTQ_OK, "sizes");
    mem = malloc(wb), scr = malloc(sb);
    CHECK_EQ(mrtq_fastconv_init_fc(1, k, 1, &qw, mem, wb, &p), MRTQ_OK, "init");
    CHECK_REFUSED(mrtq_fc_q8(1, k, 1, &rq, 1, &qx, &qw, NULL, MRTQ_S8, &y0), MRTQ_EOVERFLOW, "could overflow int32");
    CHECK_REFUSED(mrtq_fastconv_q8(&p, &rq, 1, &qx, NULL, MRTQ_S8, scr, sb, NULL, &y1), MRTQ_EOVERFLOW, "could overflow int32");
    CHECK_EQ(y1, 7, "nothing written");
    free(x), free(w), free(mem), free(scr);
  }
  printf("  weights as given: %ld outputs with uint8 and one zero point, %ld with zero points per channel, %ld int4; "
         "%ld layers refused at init (a weight outside int8 of its zero point), %ld refused by both (int32 worst case)\n",
         q8_wkind_out[1], q8_wkind_out[2], q8_wkind_out[3], q8_wrefused, q8_woverflow);
  CHECK(q8_wkind_out[1] > 100000 && q8_wkind_out[2] > 100000 && q8_wkind_out[3] > 100000 && q8_wrefused > 10);
}

/* Real layers in TFLite's int8 convention (per-channel Q31_DBL, s8 src). */
static void test_q8_real(void) {
  static const size_t L[][7] = {/* c, hw, o, k, stride, pad, groups */
                                {64, 14, 64, 3, 1, 1, 1}, {64, 14, 128, 1, 2, 0, 1}, {32, 28, 32, 3, 1, 1, 32},
                                {512, 7, 512, 3, 1, 1, 512}, {256, 7, 512, 3, 2, 1, 1}};
  long bad = 0;
  size_t i;
  for (i = 0; i < sizeof L / sizeof L[0]; i++) {
    mrtq_conv2d_shape s;
    memset(&s, 0, sizeof s);
    s.n = 1, s.c = L[i][0], s.h = s.w = L[i][1], s.o = L[i][2], s.kh = s.kw = L[i][3];
    s.stride_h = s.stride_w = L[i][4], s.dil_h = s.dil_w = 1, s.groups = L[i][6];
    s.pad_top = s.pad_left = s.pad_bottom = s.pad_right = L[i][5];
    s.layout = MRTQ_NHWC;
    bad += layer_q8(&s, 0, 0, 0, 0, 0);
  }
  CHECK_EQ(bad, 0, "mismatches");
}

/* Threads: a call split into slots tasks gives the bytes of the one-task
 * call, whether the tasks run in turn (parallel_for NULL), in a shuffled
 * order on the calling thread, or on real threads (pthreads, one per task). */
typedef struct pt_arg {
  void (*task)(void *, size_t);
  void *ctx;
  size_t i;
} pt_arg;
static void *pt_main(void *v) {
  pt_arg *a = (pt_arg *)v;
  a->task(a->ctx, a->i);
  return NULL;
}
static long pt_calls, shuffled_calls;
static void pt_parallel_for(void *pool, void (*task)(void *, size_t), void *ctx, size_t n) {
  pthread_t th[16];
  pt_arg arg[16];
  size_t i, started = 0;
  (void)pool;
  for (i = 1; i < n && i < 16; i++) {
    arg[i].task = task, arg[i].ctx = ctx, arg[i].i = i;
    if (pthread_create(&th[i], NULL, pt_main, &arg[i]) != 0) break;
    started = i;
  }
  for (i = started + 1; i < n; i++) task(ctx, i); /* any the pool could not start */
  task(ctx, 0);
  for (i = 1; i <= started; i++) pthread_join(th[i], NULL);
  pt_calls++;
}
static void shuffled_parallel_for(void *pool, void (*task)(void *, size_t), void *ctx, size_t n) {
  size_t order[64], i;
  (void)pool;
  for (i = 0; i < n; i++) order[i] = i;
  for (i = n; i > 1; i--) {
    size_t j = (size_t)th_range(0, (int64_t)i - 1), t = order[i - 1];
    order[i - 1] = order[j], order[j] = t;
  }
  for (i = 0; i < n; i++) task(ctx, order[i]);
  shuffled_calls++;
}
#if MRTQ__FAST_VNNI
/* The fast core's 32-bit-lane Q31 epilogue (mrtq__fast_ekv's form 2, the
 * step its loops run per 16 outputs: both roundings in one int64 shift; bias
 * 0, the bounds left open and zp 0, so the value itself is seen) on edge
 * values, against gemmlowp's two steps written here in exact
 * int64 arithmetic as gemmlowp's fixedpoint.h states them
 * (SaturatingRoundingDoublingHighMul's nudge and truncating division, then
 * RoundingDivideByPOT's remainder against mask / 2 + [v < 0]) and against
 * mrtq_mul_q31_dbl: every rs in [0, 31], multipliers 0, 1, 2^30, 2^31 - 1
 * and random, x at INT32_MIN, INT32_MAX, +-2^k + {-1, 0, 1} and random, 16
 * different channels a vector (even and odd lanes). */
static int64_t gemmlowp_q31(int32_t x, int32_t m, int rs) {
  int64_t p = (int64_t)x * m, v = (p + (p >= 0 ? (int64_t)1 << 30 : 1 - ((int64_t)1 << 30))) / ((int64_t)1 << 31);
  int64_t d = (int64_t)1 << rs, fl = v >= 0 ? v / d : -((-v + d - 1) / d), rem = v - fl * d; /* floor, and v & mask */
  return fl + (rem > (d - 1) / 2 + (v < 0));
}
static void test_q31v(void) {
  static const int32_t ms[] = {0, 1, 2, 1 << 30, (1 << 30) + 1, INT32_MAX - 1, INT32_MAX};
  int32_t xs[200], t[8 * 16];
  long checked = 0, bad = 0;
  int nx = 0, k, trial, i;
  xs[nx++] = INT32_MIN, xs[nx++] = INT32_MAX, xs[nx++] = INT32_MIN + 1, xs[nx++] = 0;
  for (k = 0; k < 31; k++)
    for (i = -1; i <= 1; i++) xs[nx++] = (int32_t)(((int64_t)1 << k) + i), xs[nx++] = (int32_t)(-((int64_t)1 << k) + i);
  for (trial = 0; trial < 20000; trial++) {
    mrtq_rq rq[16];
    mrtq__fast_ctx cx;
    mrtq__fast_epv e;
    mrtq__fast_ek ek;
    int32_t xv[16], out[16];
    memset(&cx, 0, sizeof cx), memset(&e, 0, sizeof e), memset(t, 0, sizeof t); /* row 7, the bias: 0 */
    for (i = 0; i < 16; i++) {
      memset(&rq[i], 0, sizeof rq[i]);
      rq[i].scheme = MRTQ_Q31_DBL, rq[i].qmin = INT32_MIN, rq[i].qmax = INT32_MAX;
      rq[i].m.mult = th_range(0, 2) ? ms[th_range(0, 6)] : (int32_t)th_range(0, INT32_MAX);
      rq[i].m.shift = trial < 32 * 16 ? -((trial / 16 + i) % 32) : -(int32_t)th_range(0, 31); /* every rs in every lane first */
      xv[i] = th_range(0, 3) ? xs[th_range(0, nx - 1)] : (int32_t)th_rand32();
      if (th_range(0, 7) == 0 && -rq[i].m.shift >= 1 && -rq[i].m.shift <= 29) {
        /* an exact tie of the rounding divide: M = 2^30 gives v = floor((x + 1) / 2), so x = 2v for v = (2j + 1) 2^(rs - 1) */
        int rs = -rq[i].m.shift;
        int64_t j = th_range(-((int64_t)1 << (29 - rs)), ((int64_t)1 << (29 - rs)) - 1);
        rq[i].m.mult = 1 << 30, xv[i] = (int32_t)(2 * (2 * j + 1) * ((int64_t)1 << (rs - 1)));
      }
    }
    CHECK_EQ(mrtq__rq_lanes_table(rq, 16, 16, INT32_MIN, INT32_MAX, t, 16), 2, "lane form 2");
    cx.vec = 2, cx.rqt = t, cx.rqs = 16;
    mrtq__fast_epv_init_rq(&e, &cx, 0xFFFF, 0);
    mrtq__fast_ek_get(2, &e, &ek);
    _mm512_storeu_si512(out, mrtq__fast_ekv(2, &ek, _mm512_loadu_si512(xv)));
    for (i = 0; i < 16; i++, checked++) {
      int64_t want = gemmlowp_q31(xv[i], rq[i].m.mult, -rq[i].m.shift);
      if ((out[i] != want || want != mrtq_mul_q31_dbl(xv[i], rq[i].m)) && bad++ < 5)
        CHECK_EQ(out[i], want, "x %d mult %d rs %d (lane %d; mrtq_mul_q31_dbl %d)", xv[i], rq[i].m.mult, -rq[i].m.shift, i,
                 mrtq_mul_q31_dbl(xv[i], rq[i].m));
    }
  }
  CHECK_EQ(bad, 0, "mismatches");
  printf("  the 32-bit-lane Q31 epilogue: %ld lanes equal to gemmlowp's two steps (exact int64) and mrtq_mul_q31_dbl\n", checked);
}
#endif

static void test_threads(void) {
  long bad = 0, compared = 0;
  int t;
  for (t = 0; t < 240; t++) {
    int kind = t % 3, onednn = t / 3 % 2, mode = t / 6 % 3, dst_u = (int)th_range(0, 1), src_u = (int)th_range(0, 1);
    mrtq_conv2d_shape s =
        kind == 2 ? mrtq_fc_shape((size_t)th_range(1, 40), (size_t)th_range(1, 300), (size_t)th_range(1, 100)) : rand_shape(kind);
    size_t ho, wo, wb, sb, nx, nw, ny, i, slots = (size_t)th_range(2, 9);
    mrtq_fastconv p;
    mrtq_qoperand qx, qw;
    mrtq_onednn_attr a;
    mrtq_parallel par;
    mrtq_rq *rq = (mrtq_rq *)malloc(s.o * sizeof *rq);
    int32_t *bias = (int32_t *)malloc(s.o * sizeof *bias), zx = 0;
    uint8_t *x, *w, *y0, *y1;
    void *mem, *scr;
    mrtq_dtype dt = dst_u ? MRTQ_U8 : MRTQ_S8;
    if (mrtq_conv2d_out(&s, &ho, &wo) != MRTQ_OK) { /* an overrun shape: mrtq_fastconv_q8 refuses it */
      free(rq), free(bias);
      continue;
    }
    CHECK_EQ(mrtq_fastconv_sizes(&s, &wb, &sb), MRTQ_OK, "sizes");
    nx = s.n * s.c * s.h * s.w, nw = s.o * (s.c / s.groups) * s.kh * s.kw, ny = s.n * s.o * ho * wo;
    x = (uint8_t *)malloc(nx), w = (uint8_t *)malloc(nw), y0 = (uint8_t *)malloc(ny), y1 = (uint8_t *)malloc(ny);
    mem = malloc(wb), scr = malloc(sb * slots);
    fill8(x, nx, src_u, 0), fill8(w, nw, 0, 0), fill8(y0, ny, dst_u, 0);
    memcpy(y1, y0, ny); /* SUM reads dst */
    for (i = 0; i < s.o; i++) make_rq(&rq[i], 0, dst_u), bias[i] = (int32_t)th_range(-30000, 30000);
    {
      size_t d[4] = {s.n, s.o, ho, wo};
      rand_attr(&a, d, kind == 2, ny, dst_u, src_u, &zx);
    }
    memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
    qx.data = x, qx.type = src_u ? MRTQ_U8 : MRTQ_S8, qx.zp = onednn ? zx : (int32_t)th_range(src_u ? 0 : -128, src_u ? 255 : 127);
    qw.data = w, qw.type = MRTQ_S8;
    CHECK_EQ(kind == 2 ? mrtq_fastconv_init_fc(s.n, s.c, s.o, &qw, mem, wb, &p) : mrtq_fastconv_init(&s, &qw, mem, wb, &p), MRTQ_OK,
             "init");
    par.parallel_for = mode == 0 ? NULL : mode == 1 ? shuffled_parallel_for : pt_parallel_for, par.pool = NULL, par.slots = slots;
    {
      const int32_t *bp = onednn && a.scheme != MRTQ_ONEDNN_OLD ? NULL : bias;
      mrtq_status s0 = onednn ? mrtq_fastconv_onednn(&p, &a, &qx, bp, dt, scr, sb, NULL, y0)
                              : mrtq_fastconv_q8(&p, rq, s.o, &qx, bp, dt, scr, sb, NULL, y0);
      mrtq_status s1 = onednn ? mrtq_fastconv_onednn(&p, &a, &qx, bp, dt, scr, sb * slots, &par, y1)
                              : mrtq_fastconv_q8(&p, rq, s.o, &qx, bp, dt, scr, sb * slots, &par, y1);
      CHECK_EQ(s0, MRTQ_OK, "one task");
      CHECK_EQ(s1, MRTQ_OK, "%zu tasks", slots);
      if (!onednn && t % 2 == 0) { /* and through a plan, the tasks' bytes again (y1 rewritten) */
        size_t pb = 0;
        mrtq_fastconv_q8plan pl;
        void *pm;
        CHECK_EQ(mrtq_fastconv_q8plan_sizes(&p, &pb), MRTQ_OK, "plan sizes");
        pm = malloc(pb);
        CHECK_EQ(mrtq_fastconv_q8plan_init(&p, rq, s.o, bp, dt, pm, pb, &pl), MRTQ_OK, "plan");
        memset(y1, 0, ny);
        CHECK_EQ(mrtq_fastconv_q8plan_run(&pl, &qx, scr, sb * slots, &par, y1), MRTQ_OK, "%zu tasks, planned", slots);
        free(pm);
      }
      if (onednn && mode == 0)
        CHECK_REFUSED(mrtq_fastconv_onednn(&p, &a, &qx, bp, dt, scr, sb * slots - 1, &par, y1), MRTQ_EINVAL,
                      "scratch_bytes: smaller than sbytes from mrtq_fastconv_sizes (times par->slots)");
    }
    for (i = 0; i < ny; i++)
      if (y0[i] != y1[i] && bad++ < 3)
        CHECK_EQ(y1[i], y0[i], "at %zu: %zu tasks, mode %d, kind %d, onednn %d", i, slots, mode, kind, onednn);
    compared += (long)ny;
    free(x), free(w), free(y0), free(y1), free(mem), free(scr), free(rq), free(bias);
  }
  CHECK_EQ(bad, 0, "mismatches");
  CHECK(pt_calls > 0 && shuffled_calls > 0);
  printf("  threads: %ld outputs of 2..9-task calls equal to the one-task call's (%ld calls on pthreads, %ld shuffled)\n",
         compared, pt_calls, shuffled_calls);
  {
    mrtq_parallel big;
    mrtq_fastconv p;
    mrtq_conv2d_shape s = mrtq_fc_shape(1, 8, 1);
    int8_t w8[8] = {0}, x8[8] = {0};
    uint8_t mem[1024], y[1];
    mrtq_qoperand qx, qw;
    mrtq_rq rq;
    memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
    qx.data = x8, qx.type = MRTQ_S8, qw.data = w8, qw.type = MRTQ_S8;
    CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.5, 0, -128, 127, &rq), MRTQ_OK, "rq");
    CHECK_EQ(mrtq_fastconv_init(&s, &qw, mem, sizeof mem, &p), MRTQ_OK, "init");
    big.parallel_for = pt_parallel_for, big.pool = NULL, big.slots = SIZE_MAX / 2;
    CHECK_REFUSED(mrtq_fastconv_q8(&p, &rq, 1, &qx, NULL, MRTQ_S8, mem, sizeof mem, &big, y), MRTQ_ESHAPE,
                  "par->slots: slots * sbytes overflows size_t");
  }
}

/* Real layer shapes (ResNet-18, MobileNet), reduced in spatial size. */
static void test_real_shapes(void) {
  static const size_t L[][7] = {/* c, hw, o, k, stride, pad, groups */
                                {64, 14, 64, 3, 1, 1, 1},   {128, 7, 128, 3, 1, 1, 1}, {64, 14, 128, 1, 2, 0, 1},
                                {3, 32, 64, 7, 2, 3, 1},    {32, 28, 32, 3, 1, 1, 32}, {64, 28, 64, 3, 2, 1, 64},
                                {512, 7, 512, 3, 1, 1, 512}, {256, 7, 512, 3, 2, 1, 1}};
  size_t i;
  long bad = 0;
  for (i = 0; i < sizeof L / sizeof L[0]; i++) {
    mrtq_conv2d_shape s;
    int lay;
    for (lay = 0; lay < 2; lay++) {
      memset(&s, 0, sizeof s);
      s.n = 1, s.c = L[i][0], s.h = s.w = L[i][1], s.o = L[i][2], s.kh = s.kw = L[i][3];
      s.stride_h = s.stride_w = L[i][4], s.dil_h = s.dil_w = 1, s.groups = L[i][6];
      s.pad_top = s.pad_left = s.pad_bottom = s.pad_right = L[i][5];
      s.layout = lay ? MRTQ_NCHW : MRTQ_NHWC;
      bad += layer(&s, 0, lay == 0, 1, 0, NULL, 0);
    }
  }
  CHECK_EQ(bad, 0, "mismatches");
}

/* Edge values: all-extreme data and zero points, with reductions at the
 * int32 bound. s8 src with k = 131071 (k 128 128 < 2^31, the check passes):
 * the shifted sums (x + 128) w reach 131071 * 255 * 127 and wrap modulo 2^32,
 * the result is exact again. */
static void test_edges(void) {
  long bad = 0;
  int su, du, e;
  mrtq_onednn_attr a;
  float big = 1.0f / 65536.0f;
  memset(&a, 0, sizeof a);
  a.oscale = &big;
  for (e = 0; e < 8; e++)
    for (su = 0; su < 2; su++)
      for (du = 0; du < 2; du++) {
        /* s8: zx 0 at k = 131071, else 127 or -128 at 65535 (128 (128 + 128) k < 2^31);
           u8: zx 0 at 32000, 255 at 16000 ((255 + 255) 128 k < 2^31) */
        int32_t zx = su ? (e & 1 ? 255 : 0) : (e % 4 == 0 ? 0 : e & 1 ? 127 : -128);
        mrtq_conv2d_shape s = mrtq_fc_shape(7, su ? (zx ? 16000 : 32000) : (zx ? 65535 : 131071), 17 + (size_t)e);
        a.src_zp = zx, a.dst_zp = du ? 128 : 0;
        bad += layer(&s, 1, su, du, 1, &a, zx);
      }
  for (e = 0; e < 4; e++) { /* depthwise, a kernel the size of the image at the int32 bound (bias up to 30000):
                               s8 zx 127: 128 (128 + 127) k at k = 256^2; u8 zx 255: (255 + 255) 128 k at 181^2 */
    mrtq_conv2d_shape s;
    size_t ks = e & 1 ? 181 : 256;
    memset(&s, 0, sizeof s);
    s.n = 1, s.groups = s.c = s.o = 17, s.h = s.w = s.kh = s.kw = ks, s.stride_h = s.stride_w = s.dil_h = s.dil_w = 1;
    s.pad_top = s.pad_left = s.pad_bottom = s.pad_right = (size_t)(e >> 1), s.layout = MRTQ_NHWC;
    a.src_zp = e & 1 ? 255 : 127, a.dst_zp = 0;
    bad += layer(&s, 0, e & 1, 0, 1, &a, a.src_zp);
  }
  {
    mrtq_conv2d_shape s = mrtq_fc_shape(1, 131072, 1); /* one past the bound: refused */
    mrtq_fastconv p;
    size_t wb, sb;
    int8_t *w = (int8_t *)calloc(131072, 1), *x = (int8_t *)calloc(131072, 1);
    void *mem, *scr;
    uint8_t y = 0;
    mrtq_qoperand qx, qw;
    memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
    qx.data = x, qw.data = w, qx.type = qw.type = MRTQ_S8;
    mrtq_fastconv_sizes(&s, &wb, &sb);
    mem = malloc(wb), scr = malloc(sb);
    a.src_zp = 0, a.dst_zp = 0;
    CHECK_EQ(mrtq_fastconv_init_fc(1, 131072, 1, &qw, mem, wb, &p), MRTQ_OK, "init");
    CHECK_REFUSED(mrtq_fastconv_onednn(&p, &a, &qx, NULL, MRTQ_S8, scr, sb, NULL, &y), MRTQ_EOVERFLOW, "could overflow int32");
    CHECK_REFUSED(mrtq_fc_onednn(1, 131072, 1, &a, &qx, &qw, NULL, MRTQ_S8, &y), MRTQ_EOVERFLOW, "could overflow int32");
    free(w), free(x), free(mem), free(scr);
  }
  CHECK_EQ(bad, 0, "mismatches");
}

static void test_bad_input(void) {
  int8_t x[8] = {0}, w[8] = {0};
  uint8_t y[2] = {0}, mem[1024], scr[4096];
  const int32_t z128 = 128;
  size_t wb, sb;
  mrtq_fastconv p;
  mrtq_qoperand qx, qw;
  mrtq_onednn_attr a;
  mrtq_conv2d_shape s = mrtq_fc_shape(1, 8, 1);
  memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw), memset(&a, 0, sizeof a), memset(&p, 0, sizeof p);
  qx.data = x, qw.data = w, qx.type = qw.type = MRTQ_S8;
  CHECK_EQ(mrtq_fastconv_sizes(&s, &wb, &sb), MRTQ_OK, "sizes");
  CHECK(wb <= sizeof mem && sb <= sizeof scr);
  CHECK_REFUSED(mrtq_fastconv_sizes(NULL, &wb, &sb), MRTQ_EINVAL, "s: NULL");
  CHECK_REFUSED(mrtq_fastconv_sizes(&s, NULL, &sb), MRTQ_EINVAL, "wbytes, sbytes: NULL");
  s.groups = 3;
  CHECK_REFUSED(mrtq_fastconv_sizes(&s, &wb, &sb), MRTQ_ESHAPE, "s->c: must be a multiple of s->groups");
  s.groups = 1;
  { /* kp * groups too large to pack: 2^62 / 8 channels x 8 groups */
    mrtq_conv2d_shape big = s;
    big.c = big.o = big.groups = (size_t)1 << 58;
    CHECK_REFUSED(mrtq_fastconv_sizes(&big, &wb, &sb), MRTQ_ESHAPE, "s: the packed weights' size overflows");
    CHECK_EQ(mrtq_fastconv_sizes(&s, &wb, &sb), MRTQ_OK, "sizes");
  }
  CHECK_REFUSED(mrtq_fastconv_init(&s, &qw, mem, 1, &p), MRTQ_EINVAL, "mem_bytes: smaller than wbytes");
  qw.type = MRTQ_S16;
  CHECK_REFUSED(mrtq_fastconv_init(&s, &qw, mem, sizeof mem, &p), MRTQ_EUNSUPPORTED, "w->type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S4");
  qw.type = (mrtq_dtype)0;
  CHECK_REFUSED(mrtq_fastconv_init(&s, &qw, mem, sizeof mem, &p), MRTQ_EINVAL, "w->type: not an mrtq_dtype");
  qw.type = MRTQ_S8, qw.zp = 1, qw.zp_ch = &z128;
  CHECK_REFUSED(mrtq_fastconv_init(&s, &qw, mem, sizeof mem, &p), MRTQ_EINVAL, "w->zp: must be 0 beside w->zp_ch");
  qw.zp = 0;
  CHECK_REFUSED(mrtq_fastconv_init(&s, &qw, mem, sizeof mem, &p), MRTQ_EINVAL, "w->zp_ch[o]: outside w->type's range");
  qw.zp_ch = NULL, qw.zp = 128;
  CHECK_REFUSED(mrtq_fastconv_init(&s, &qw, mem, sizeof mem, &p), MRTQ_EINVAL, "w->zp: outside w->type's range");
  { /* uint8 weights: w - zw must be an int8 value; oneDNN's entry takes no such packing */
    static const uint8_t wu[8] = {0, 255, 128, 1, 2, 3, 4, 5};
    mrtq_fastconv pu;
    qw.data = wu, qw.type = MRTQ_U8, qw.zp = 0;
    memset(&pu, 0x3c, sizeof pu);
    CHECK_REFUSED(mrtq_fastconv_init(&s, &qw, mem, sizeof mem, &pu), MRTQ_EUNSUPPORTED, "w: a weight less its zero point outside [-128, 127]");
    CHECK_EQ(pu.k, 0x3c3c3c3c3c3c3c3cu, "nothing written");
    qw.zp = 128;
    CHECK_EQ(mrtq_fastconv_init(&s, &qw, mem, sizeof mem, &pu), MRTQ_OK, "init (u8, zp 128)");
    CHECK_REFUSED(mrtq_fastconv_onednn(&pu, &a, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EUNSUPPORTED,
                  "p: weights packed from other than MRTQ_S8 or with a zero point");
    qw.data = w, qw.type = MRTQ_S8, qw.zp = 0;
  }
  CHECK_REFUSED(mrtq_fastconv_init(&s, NULL, mem, sizeof mem, &p), MRTQ_EINVAL, "w: NULL");
  qw.data = NULL;
  CHECK_REFUSED(mrtq_fastconv_init(&s, &qw, mem, sizeof mem, &p), MRTQ_EINVAL, "w->data: NULL");
  qw.data = w;
  CHECK_REFUSED(mrtq_fastconv_init(&s, &qw, NULL, sizeof mem, &p), MRTQ_EINVAL, "mem: NULL");
  CHECK_REFUSED(mrtq_fastconv_init(&s, &qw, mem, sizeof mem, NULL), MRTQ_EINVAL, "p: NULL");
  CHECK_EQ(mrtq_fastconv_init(&s, &qw, mem, sizeof mem, &p), MRTQ_OK, "init");
  y[0] = 77;
  CHECK_REFUSED(mrtq_fastconv_onednn(&p, &a, &qx, NULL, MRTQ_S8, scr, 1, NULL, y), MRTQ_EINVAL, "scratch_bytes: smaller than sbytes");
  CHECK_REFUSED(mrtq_fastconv_onednn(&p, &a, &qx, NULL, MRTQ_S8, NULL, sizeof scr, NULL, y), MRTQ_EINVAL, "scratch: NULL");
  CHECK_REFUSED(mrtq_fastconv_onednn(&p, &a, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, NULL), MRTQ_EINVAL, "dst: NULL");
  CHECK_REFUSED(mrtq_fastconv_onednn(NULL, &a, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_fastconv_onednn(&p, &a, NULL, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "x: NULL");
  CHECK_REFUSED(mrtq_fastconv_onednn(&p, NULL, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "attr: NULL");
  CHECK_REFUSED(mrtq_fastconv_onednn(&p, &a, &qx, NULL, MRTQ_S32, scr, sizeof scr, NULL, y), MRTQ_EUNSUPPORTED, "dst_type: must be MRTQ_S8 or MRTQ_U8");
  qx.data = NULL;
  CHECK_REFUSED(mrtq_fastconv_onednn(&p, &a, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "x->data: NULL");
  qx.data = x, qx.type = MRTQ_S16;
  CHECK_REFUSED(mrtq_fastconv_onednn(&p, &a, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EUNSUPPORTED, "x->type: must be MRTQ_S8 or MRTQ_U8");
  qx.type = MRTQ_S8, qx.zp = 3;
  CHECK_REFUSED(mrtq_fastconv_onednn(&p, &a, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "x->zp: must equal attr->src_zp");
  qx.zp = 0, a.dst_zp = 200;
  CHECK_REFUSED(mrtq_fastconv_onednn(&p, &a, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "attr->dst_zp: outside dst_type's range");
  a.dst_zp = 0, a.src_zp_ch = &a.dst_zp;
  CHECK_REFUSED(mrtq_fastconv_onednn(&p, &a, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "attr->src_zp_ch: must be NULL for the fast core");
  a.src_zp_ch = NULL, a.dst_zp_ch = &z128;
  CHECK_REFUSED(mrtq_fastconv_onednn(&p, &a, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "attr->dst_zp_ch[o]: outside dst_type's range");
  a.dst_zp_ch = NULL, qx.zp_ch = &a.src_zp;
  CHECK_REFUSED(mrtq_fastconv_onednn(&p, &a, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "x->zp_ch: must be NULL");
  qx.zp_ch = NULL, a.scheme = MRTQ_ONEDNN_NEW;
  CHECK_REFUSED(mrtq_fastconv_onednn(&p, &a, &qx, (const int32_t *)&z128, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "bias: must be NULL in the NEW scheme");
  a.scheme = MRTQ_ONEDNN_OLD, a.oscale = (const float *)&z128, a.oscale_mask = 4; /* (not read: refused first) */
  CHECK_EQ(mrtq_fastconv_init_fc(1, 8, 1, &qw, mem, sizeof mem, &p), MRTQ_OK, "init fc");
  CHECK_REFUSED(mrtq_fastconv_onednn(&p, &a, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "attr->oscale_mask: a bit beyond");
  CHECK_EQ(y[0], 77, "nothing written on error");
  a.oscale_mask = 0, a.oscale = NULL;
  CHECK_EQ(mrtq_fastconv_onednn(&p, &a, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_OK, "ok");
  CHECK_EQ(y[0], 0, "zero sum");
  { /* mrtq_fastconv_q8: its own arguments, then mrtq_conv2d_q8's checks in their order */
    mrtq_rq rq[2]; /* two: gcc cannot see that nrq 2 is refused before rq[1] is read */
    CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.5, 0, -128, 127, &rq[0]), MRTQ_OK, "rq");
    rq[1] = rq[0];
    y[0] = 77;
    CHECK_REFUSED(mrtq_fastconv_q8(NULL, rq, 1, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "p: NULL");
    CHECK_REFUSED(mrtq_fastconv_q8(&p, rq, 1, NULL, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "x: NULL");
    CHECK_REFUSED(mrtq_fastconv_q8(&p, NULL, 1, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "rq: NULL");
    CHECK_REFUSED(mrtq_fastconv_q8(&p, rq, 2, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "nrq: must be 1 or s->o");
    CHECK_REFUSED(mrtq_fastconv_q8(&p, rq, 1, &qx, NULL, MRTQ_S32, scr, sizeof scr, NULL, y), MRTQ_EUNSUPPORTED, "dst_type");
    CHECK_REFUSED(mrtq_fastconv_q8(&p, rq, 1, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, NULL), MRTQ_EINVAL, "out: NULL");
    CHECK_REFUSED(mrtq_fastconv_q8(&p, rq, 1, &qx, NULL, MRTQ_S8, NULL, sizeof scr, NULL, y), MRTQ_EINVAL, "scratch: NULL");
    CHECK_REFUSED(mrtq_fastconv_q8(&p, rq, 1, &qx, NULL, MRTQ_S8, scr, 1, NULL, y), MRTQ_EINVAL, "scratch_bytes: smaller");
    qx.zp = 300;
    CHECK_REFUSED(mrtq_fastconv_q8(&p, rq, 1, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "x->zp: outside");
    qx.zp = 0, p.wo = 2;
    CHECK_REFUSED(mrtq_fastconv_q8(&p, rq, 1, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EINVAL,
                  "p->ho, p->wo: not the shape's output size");
    CHECK_EQ(y[0], 77, "nothing written on error");
    p.wo = 1;
    x[0] = 3, w[0] = 5;
    CHECK_EQ(mrtq_fastconv_init_fc(1, 8, 1, &qw, mem, sizeof mem, &p), MRTQ_OK, "init fc");
    CHECK_EQ(mrtq_fastconv_q8(&p, rq, 1, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_OK, "ok");
    CHECK_EQ(y[0], 8, "3 * 5 * 0.5 = 7.5 -> 8 (ties away from zero)");
  }
  { /* the plan: _sizes, _init, _run, each argument in its order */
    mrtq_rq rq[2];
    mrtq_fastconv_q8plan pl, pz;
    mrtq_fastconv big;
    uint8_t pm[2048];
    size_t pb = 0;
    int32_t b1 = 4;
    CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.5, 0, -128, 127, &rq[0]), MRTQ_OK, "rq");
    rq[1] = rq[0];
    CHECK_REFUSED(mrtq_fastconv_q8plan_sizes(NULL, &pb), MRTQ_EINVAL, "p: NULL");
    CHECK_REFUSED(mrtq_fastconv_q8plan_sizes(&p, NULL), MRTQ_EINVAL, "bytes: NULL");
    big = p, big.s.o = SIZE_MAX / 4;
    CHECK_REFUSED(mrtq_fastconv_q8plan_sizes(&big, &pb), MRTQ_ESHAPE, "p->s.o: the plan's size overflows size_t");
    big = p, big.x16 = 1;
    CHECK_REFUSED(mrtq_fastconv_q8plan_sizes(&big, &pb), MRTQ_EUNSUPPORTED, "p: packed for 16x8");
    CHECK_EQ(mrtq_fastconv_q8plan_sizes(&p, &pb), MRTQ_OK, "sizes");
    CHECK(pb <= sizeof pm);
    memset(&pz, 0x33, sizeof pz), pl = pz, memset(pm, 0x44, sizeof pm);
    CHECK_REFUSED(mrtq_fastconv_q8plan_init(NULL, rq, 1, NULL, MRTQ_S8, pm, pb, &pl), MRTQ_EINVAL, "p: NULL");
    CHECK_REFUSED(mrtq_fastconv_q8plan_init(&big, rq, 1, NULL, MRTQ_S8, pm, pb, &pl), MRTQ_EUNSUPPORTED, "p: packed for 16x8");
    big = p, big.wo = 2;
    CHECK_REFUSED(mrtq_fastconv_q8plan_init(&big, rq, 1, NULL, MRTQ_S8, pm, pb, &pl), MRTQ_EINVAL,
                  "p->ho, p->wo: not the shape's output size");
    CHECK_REFUSED(mrtq_fastconv_q8plan_init(&p, NULL, 1, NULL, MRTQ_S8, pm, pb, &pl), MRTQ_EINVAL, "rq: NULL");
    CHECK_REFUSED(mrtq_fastconv_q8plan_init(&p, rq, 2, NULL, MRTQ_S8, pm, pb, &pl), MRTQ_EINVAL, "nrq: must be 1 or s->o");
    CHECK_REFUSED(mrtq_fastconv_q8plan_init(&p, rq, 1, NULL, MRTQ_S32, pm, pb, &pl), MRTQ_EUNSUPPORTED, "dst_type");
    CHECK_REFUSED(mrtq_fastconv_q8plan_init(&p, rq, 1, NULL, MRTQ_S8, NULL, pb, &pl), MRTQ_EINVAL, "mem: NULL");
    CHECK_REFUSED(mrtq_fastconv_q8plan_init(&p, rq, 1, NULL, MRTQ_S8, pm, pb, NULL), MRTQ_EINVAL, "plan: NULL");
    CHECK_REFUSED(mrtq_fastconv_q8plan_init(&p, rq, 1, NULL, MRTQ_S8, pm, pb - 1, &pl), MRTQ_EINVAL,
                  "mem_bytes: smaller than bytes from mrtq_fastconv_q8plan_sizes");
    CHECK(memcmp(&pl, &pz, sizeof pl) == 0 && pm[0] == 0x44 && pm[pb - 1] == 0x44); /* neither written on error */
    CHECK_EQ(mrtq_fastconv_q8plan_init(&p, rq, 1, &b1, MRTQ_S8, pm, pb, &pl), MRTQ_OK, "plan");
    y[0] = 77;
    CHECK_REFUSED(mrtq_fastconv_q8plan_run(NULL, &qx, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "plan: NULL");
    pz = pl, pz.p = NULL;
    CHECK_REFUSED(mrtq_fastconv_q8plan_run(&pz, &qx, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "plan->p: NULL");
    big = p, big.s.o = 2, pz = pl, pz.p = &big;
    CHECK_REFUSED(mrtq_fastconv_q8plan_run(&pz, &qx, scr, sizeof scr, NULL, y), MRTQ_EINVAL,
                  "plan->p: its packing changed since mrtq_fastconv_q8plan_init");
    CHECK_REFUSED(mrtq_fastconv_q8plan_run(&pl, NULL, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "x: NULL");
    qx.zp = 300;
    CHECK_REFUSED(mrtq_fastconv_q8plan_run(&pl, &qx, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "x->zp: outside");
    qx.zp = 0;
    CHECK_REFUSED(mrtq_fastconv_q8plan_run(&pl, &qx, scr, sizeof scr, NULL, NULL), MRTQ_EINVAL, "dst: NULL");
    CHECK_REFUSED(mrtq_fastconv_q8plan_run(&pl, &qx, NULL, sizeof scr, NULL, y), MRTQ_EINVAL, "scratch: NULL");
    CHECK_REFUSED(mrtq_fastconv_q8plan_run(&pl, &qx, scr, 1, NULL, y), MRTQ_EINVAL, "scratch_bytes: smaller");
    CHECK_EQ(y[0], 77, "nothing written on error");
    b1 = 1000; /* the plan's copy of the bias is what counts */
    CHECK_EQ(mrtq_fastconv_q8plan_run(&pl, &qx, scr, sizeof scr, NULL, y), MRTQ_OK, "ok");
    CHECK_EQ(y[0], 10, "(3 * 5 + 4) * 0.5 = 9.5 -> 10 (ties away from zero)");
    b1 = INT32_MAX - 100; /* a bias whose sum bound overflows: refused at run, with x's zero point */
    CHECK_EQ(mrtq_fastconv_q8plan_init(&p, rq, 1, &b1, MRTQ_S8, pm, pb, &pl), MRTQ_OK, "plan");
    CHECK_REFUSED(mrtq_fastconv_q8plan_run(&pl, &qx, scr, sizeof scr, NULL, y), MRTQ_EOVERFLOW, "could overflow int32");
  }
}

int main(void) {
#if MRTQ__FAST_VNNI
  if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") ||
      !__builtin_cpu_supports("avx512dq") || !__builtin_cpu_supports("avx512vnni"))
    return th_skip("test_fastconv_" MRTQ_TEST_PATH, "CPU lacks AVX-512 F/BW/DQ/VNNI");
#endif
#if defined(__AVX512VBMI__)
  if (!__builtin_cpu_supports("avx512vbmi")) return th_skip("test_fastconv_" MRTQ_TEST_PATH, "CPU lacks AVX512-VBMI");
#endif
  printf("path %s (VNNI %d)\n", MRTQ_TEST_PATH, MRTQ__FAST_VNNI);
  TH_RUN(test_bad_input);
  TH_RUN(test_edges);
  TH_RUN(test_real_shapes);
  TH_RUN(test_fused_rounding);
  TH_RUN(test_conv_random);
  TH_RUN(test_depthwise_random);
  TH_RUN(test_fc_random);
  TH_RUN(test_q8_real);
  TH_RUN(test_q8_weights);
  TH_RUN(test_q8_random);
  TH_RUN(test_threads);
#if MRTQ__FAST_VNNI
  TH_RUN(test_q31v);
#endif
  printf("  %ld outputs compared\n", outputs);
  return th_finish("test_fastconv_" MRTQ_TEST_PATH);
}
