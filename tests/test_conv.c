/* Reference convolution and FC (mrtq/conv.h) against the direct definition
 * sum (X - zx)(W - zw_o) + bias, computed here in 64-bit over an explicitly
 * padded copy of the input with its own index formulas: random shapes (groups
 * and depthwise, stride, dilation, padding, NCHW/NHWC, int8/uint8, per-tensor
 * and per-channel weight zero points, bias), real layer shapes (ResNet-18 3x3
 * and 1x1, MobileNet depthwise), requantized outputs against mrtq_rq_apply of
 * the exact sum and against float math, guard bytes around every output, and
 * every bad input a status with nothing written. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "mrtq.h"

#define GUARD 64
#define PADMARK 100000

static long long compared;

typedef struct {
  mrtq_conv2d_shape s;
  mrtq_qoperand x, w;
  int32_t zw_ch[512], bias[512];
  int use_bias;
} layer_t;

/* the direct definition, in 64-bit */
static int64_t *oracle(const layer_t *L, size_t ho, size_t wo) {
  const mrtq_conv2d_shape *s = &L->s;
  size_t hp = s->h + s->pad_top + s->pad_bottom, wp = s->w + s->pad_left + s->pad_right, cg = s->c / s->groups, og = s->o / s->groups;
  size_t n, c, i, j, o, oy, ox, ky, kx;
  int32_t *xp = (int32_t *)malloc(s->n * s->c * hp * wp * sizeof(int32_t));
  int64_t *y = (int64_t *)malloc(s->n * s->o * ho * wo * sizeof(int64_t));
  if (!xp || !y) return NULL;
  for (n = 0; n < s->n; n++)
    for (c = 0; c < s->c; c++)
      for (i = 0; i < hp; i++)
        for (j = 0; j < wp; j++) {
          int32_t v = PADMARK;
          if (i >= s->pad_top && i < s->pad_top + s->h && j >= s->pad_left && j < s->pad_left + s->w) {
            size_t yy = i - s->pad_top, xx = j - s->pad_left;
            size_t at = s->layout == MRTQ_NCHW ? ((n * s->c + c) * s->h + yy) * s->w + xx : ((n * s->h + yy) * s->w + xx) * s->c + c;
            v = L->x.type == MRTQ_U8 ? ((const uint8_t *)L->x.data)[at] : ((const int8_t *)L->x.data)[at];
          }
          xp[((n * s->c + c) * hp + i) * wp + j] = v;
        }
  for (n = 0; n < s->n; n++)
    for (o = 0; o < s->o; o++)
      for (oy = 0; oy < ho; oy++)
        for (ox = 0; ox < wo; ox++) {
          int64_t acc = L->use_bias ? L->bias[o] : 0;
          int32_t zw = L->w.zp_ch ? L->zw_ch[o] : L->w.zp;
          for (c = 0; c < cg; c++)
            for (ky = 0; ky < s->kh; ky++)
              for (kx = 0; kx < s->kw; kx++) {
                size_t ci = (o / og) * cg + c;
                int32_t xv = xp[((n * s->c + ci) * hp + oy * s->stride_h + ky * s->dil_h) * wp + ox * s->stride_w + kx * s->dil_w];
                size_t wa = s->layout == MRTQ_NCHW ? ((o * cg + c) * s->kh + ky) * s->kw + kx : ((o * s->kh + ky) * s->kw + kx) * cg + c;
                if (s->w_layout == MRTQ_W_TFLITE_DW) wa = ky * s->kw * s->o + kx * s->o + o; /* [1][kh][kw][o] */
                int32_t wv = L->w.type == MRTQ_U8 ? ((const uint8_t *)L->w.data)[wa] : ((const int8_t *)L->w.data)[wa];
                if (xv == PADMARK) continue; /* padding: a real zero */
                acc += (int64_t)(xv - L->x.zp) * (wv - zw);
              }
          y[s->layout == MRTQ_NCHW ? ((n * s->o + o) * ho + oy) * wo + ox : ((n * ho + oy) * wo + ox) * s->o + o] = acc;
        }
  free(xp);
  return y;
}

static int guards_ok(const uint8_t *buf, size_t bytes) {
  size_t i;
  for (i = 0; i < GUARD; i++)
    if (buf[i] != 0xa5 || buf[GUARD + bytes + i] != 0xa5) return 0;
  return 1;
}

/* run one layer: int32 output, then requantized with random per-channel rq */
static void run(layer_t *L, int check_float) {
  size_t ho = 0, wo = 0, ny, i;
  int64_t *want;
  uint8_t *a32, *a8;
  mrtq_rq rq[512];
  double scale[512];
  int out_u = (int)(th_rand32() & 1u), per_ch = (int)(th_rand32() & 1u), fam = (int)(th_rand32() % 5u);
  CHECK_EQ(mrtq_conv2d_out(&L->s, &ho, &wo), MRTQ_OK, "shape");
  ny = L->s.n * L->s.o * ho * wo;
  want = oracle(L, ho, wo);
  a32 = (uint8_t *)malloc(ny * 4 + 2 * GUARD), a8 = (uint8_t *)malloc(ny + 2 * GUARD);
  if (!want || !a32 || !a8) return;
  memset(a32, 0xa5, ny * 4 + 2 * GUARD), memset(a8, 0xa5, ny + 2 * GUARD);
  CHECK_EQ(mrtq_conv2d_s32(&L->s, &L->x, &L->w, L->use_bias ? L->bias : NULL, (int32_t *)(void *)(a32 + GUARD)),
           MRTQ_OK, "s32");
  CHECK(guards_ok(a32, ny * 4));
  for (i = 0; i < ny; i++) {
    int32_t got;
    memcpy(&got, a32 + GUARD + 4 * i, 4);
    if (got != want[i]) CHECK_EQ(got, want[i], "acc %zu", i);
  }
  for (i = 0; i < (per_ch ? L->s.o : 1); i++) {
    scale[i] = ldexp(1.0 + (double)(th_rand32() % 1000u) / 1000.0, -(int)th_range(6, 14));
    CHECK_EQ(mrtq_rq_init((mrtq_scheme)fam, scale[i], (int32_t)th_range(out_u ? 100 : -20, out_u ? 150 : 20),
                          out_u ? 0 : -128, out_u ? 255 : 127, &rq[i]),
             MRTQ_OK, "rq");
  }
  CHECK_EQ(mrtq_conv2d_q8(&L->s, rq, per_ch ? L->s.o : 1, &L->x, &L->w, L->use_bias ? L->bias : NULL, out_u ? MRTQ_U8 : MRTQ_S8, a8 + GUARD),
           MRTQ_OK, "q8");
  CHECK(guards_ok(a8, ny));
  for (i = 0; i < ny; i++) {
    size_t o = L->s.layout == MRTQ_NCHW ? (i / (ho * wo)) % L->s.o : i % L->s.o;
    const mrtq_rq *r = &rq[per_ch ? o : 0];
    int32_t got = out_u ? a8[GUARD + i] : (int8_t)a8[GUARD + i];
    CHECK_EQ(got, mrtq_rq_apply(r, (int32_t)want[i], out_u ? 0 : -128, out_u ? 255 : 127), "q8 %zu", i);
    if (check_float && fam == MRTQ_Q31_RNDNU) { /* single rounding: within half an LSB of the real value */
      double real = (double)want[i] * scale[per_ch ? o : 0] + r->zp;
      real = real < (out_u ? 0 : -128) ? (out_u ? 0 : -128) : real > (out_u ? 255 : 127) ? (out_u ? 255 : 127) : real;
      CHECK(fabs(real - got) <= 0.5 + 1e-6);
    }
  }
  compared += (long long)ny * 2;
  free(want), free(a32), free(a8);
}

static void random_layer(layer_t *L, uint8_t *xb, uint8_t *wb) {
  size_t i, nx, nw;
  memset(L, 0, sizeof *L);
  L->s.groups = th_rand32() % 4u == 0 ? (size_t)th_range(2, 3) : 1;
  L->s.n = (size_t)th_range(1, 2), L->s.c = L->s.groups * (size_t)th_range(1, 6), L->s.o = L->s.groups * (size_t)th_range(1, 6);
  if (th_rand32() % 5u == 0) L->s.groups = L->s.c, L->s.o = L->s.c * (size_t)th_range(1, 2); /* depthwise */
  L->s.h = (size_t)th_range(1, 9), L->s.w = (size_t)th_range(1, 9);
  L->s.kh = (size_t)th_range(1, 3), L->s.kw = (size_t)th_range(1, 3);
  L->s.stride_h = (size_t)th_range(1, 2), L->s.stride_w = (size_t)th_range(1, 2);
  L->s.dil_h = (size_t)th_range(1, 2), L->s.dil_w = (size_t)th_range(1, 2);
  L->s.pad_top = (size_t)th_range(0, 3), L->s.pad_bottom = (size_t)th_range(0, 3); /* sides independent */
  L->s.pad_left = (size_t)th_range(0, 3), L->s.pad_right = (size_t)th_range(0, 3);
  while ((L->s.kh - 1) * L->s.dil_h + 1 > L->s.h + L->s.pad_top + L->s.pad_bottom) L->s.pad_bottom++;
  while ((L->s.kw - 1) * L->s.dil_w + 1 > L->s.w + L->s.pad_left + L->s.pad_right) L->s.pad_right++;
  L->s.layout = (mrtq_layout)(th_rand32() & 1u);
  if (L->s.groups == L->s.c && th_rand32() % 2u) L->s.w_layout = MRTQ_W_TFLITE_DW; /* TFLite's depthwise filter */
  L->x.type = th_rand32() & 1u ? MRTQ_U8 : MRTQ_S8, L->w.type = th_rand32() & 1u ? MRTQ_U8 : MRTQ_S8;
  L->x.zp = L->x.type == MRTQ_U8 ? (int32_t)th_range(0, 255) : (int32_t)th_range(-128, 127);
  L->w.zp = th_rand32() & 1u ? 0 : L->w.type == MRTQ_U8 ? (int32_t)th_range(0, 255) : (int32_t)th_range(-128, 127);
  if (th_rand32() % 3u == 0) {
    L->w.zp_ch = L->zw_ch, L->w.zp = 0; /* zp_ch replaces zp */
    for (i = 0; i < L->s.o; i++) L->zw_ch[i] = L->w.type == MRTQ_U8 ? (int32_t)th_range(0, 255) : (int32_t)th_range(-128, 127);
  }
  L->use_bias = (int)(th_rand32() & 1u);
  for (i = 0; i < L->s.o; i++) L->bias[i] = (int32_t)th_range(-100000, 100000);
  nx = L->s.n * L->s.c * L->s.h * L->s.w, nw = L->s.o * (L->s.c / L->s.groups) * L->s.kh * L->s.kw;
  for (i = 0; i < nx; i++) xb[i] = (uint8_t)th_rand32();
  for (i = 0; i < nw; i++) wb[i] = (uint8_t)th_rand32();
  L->x.data = xb, L->w.data = wb;
}

static void test_random(void) {
  static uint8_t xb[2 * 18 * 9 * 9], wb[36 * 18 * 9];
  int trial;
  for (trial = 0; trial < 400; trial++) {
    layer_t L;
    random_layer(&L, xb, wb);
    run(&L, 1);
  }
  printf("  random layers: %lld outputs compared\n", compared);
}

/* hand-checked: 1x1x2x2 input {1, 2, 3, 4} (zx 1), 1x1x2x2 kernel {1, 0, 0, -1}
 * (zw 0), no padding: (1-1)*1 + (4-1)*(-1) = -3; bias 10 -> 7. */
static void test_hand(void) {
  int8_t x[4] = {1, 2, 3, 4}, w[4] = {1, 0, 0, -1};
  int32_t bias[1] = {10}, acc = 0;
  layer_t L;
  memset(&L, 0, sizeof L);
  L.s.n = L.s.c = L.s.o = 1, L.s.h = L.s.w = 2, L.s.kh = L.s.kw = 2;
  L.s.stride_h = L.s.stride_w = L.s.dil_h = L.s.dil_w = L.s.groups = 1;
  L.x.data = x, L.x.zp = 1, L.w.data = w, L.x.type = L.w.type = MRTQ_S8;
  CHECK_EQ(mrtq_conv2d_s32(&L.s, &L.x, &L.w, bias, &acc), MRTQ_OK, "conv");
  CHECK_EQ(acc, 7, "hand value");
  /* FC: rows {1, 2, 3}, weights {1, 1, 1} and {-1, 0, 1}, zx = zw = 0: 6 and 2 */
  {
    int8_t r[3] = {1, 2, 3}, m[6] = {1, 1, 1, -1, 0, 1};
    int32_t y[2] = {0, 0};
    L.x.data = r, L.x.zp = 0, L.w.data = m;
    CHECK_EQ(mrtq_fc_s32(1, 3, 2, &L.x, &L.w, NULL, y), MRTQ_OK, "fc");
    CHECK(y[0] == 6 && y[1] == 2);
  }
}

/* real layer shapes */
static void test_real_layers(void) {
  static uint8_t xb[256 * 28 * 28], wb[256 * 256 * 9];
  static const size_t shapes[][9] = {
      /* c, h, w, o, k, stride, pad, groups, label */
      {256, 14, 14, 256, 3, 1, 1, 1, 0},   /* ResNet-18 layer3 3x3 */
      {128, 28, 28, 256, 1, 2, 0, 1, 1},   /* ResNet-18 downsample 1x1/2 */
      {128, 28, 28, 128, 3, 1, 1, 128, 2}, /* MobileNet depthwise 3x3 */
      {64, 28, 28, 64, 3, 2, 1, 64, 3},    /* MobileNet depthwise 3x3/2 */
  };
  size_t i, j;
  for (i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    layer_t L;
    long long before = compared;
    memset(&L, 0, sizeof L);
    L.s.n = 1, L.s.c = shapes[i][0], L.s.h = shapes[i][1], L.s.w = shapes[i][2], L.s.o = shapes[i][3];
    L.s.kh = L.s.kw = shapes[i][4], L.s.stride_h = L.s.stride_w = shapes[i][5], L.s.pad_top = L.s.pad_bottom = L.s.pad_left = L.s.pad_right = shapes[i][6];
    L.s.dil_h = L.s.dil_w = 1, L.s.groups = shapes[i][7], L.s.layout = i % 2 ? MRTQ_NHWC : MRTQ_NCHW;
    L.x.type = MRTQ_U8, L.w.type = MRTQ_S8, L.x.zp = 128, L.w.zp = 0, L.use_bias = 1;
    for (j = 0; j < L.s.o; j++) L.bias[j] = (int32_t)th_range(-5000, 5000);
    for (j = 0; j < sizeof xb; j++) xb[j] = (uint8_t)th_rand32();
    for (j = 0; j < sizeof wb; j++) wb[j] = (uint8_t)th_range(-60, 60);
    L.x.data = xb, L.w.data = wb;
    run(&L, 1);
    printf("  layer %zu: %lld outputs compared\n", i, compared - before);
  }
}

static void test_bad_input(void) {
  static int8_t x[64], w[64];
  uint8_t out[64 + 2 * GUARD];
  layer_t L;
  mrtq_rq rq;
  size_t ho, wo;
  memset(&L, 0, sizeof L);
  L.s.n = L.s.c = L.s.o = 1, L.s.h = L.s.w = 4, L.s.kh = L.s.kw = 3;
  L.s.stride_h = L.s.stride_w = L.s.dil_h = L.s.dil_w = L.s.groups = 1;
  L.x.data = x, L.w.data = w, L.x.type = L.w.type = MRTQ_S8;
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.01, 0, -128, 127, &rq), MRTQ_OK, "rq");
  memset(out, 0xa5, sizeof out);
#define BAD(field, value, want, why)                                                                         \
  do {                                                                                                       \
    layer_t B = L;                                                                                           \
    B.field = value;                                                                                         \
    CHECK_REFUSED(mrtq_conv2d_q8(&B.s, &rq, 1, &B.x, &B.w, NULL, MRTQ_S8, out + GUARD), want, why);          \
  } while (0)
  BAD(s.n, 0, MRTQ_ESHAPE, "s->n: must be >= 1");
  BAD(s.w_layout, (mrtq_wlayout)2, MRTQ_EINVAL, "s->w_layout: must be MRTQ_W_LIKE_X or MRTQ_W_TFLITE_DW");
  {
    layer_t B = L; /* TFLite's depthwise filter on a dense shape: refused, never misread */
    B.s.c = 2, B.s.o = 2, B.s.w_layout = MRTQ_W_TFLITE_DW;
    CHECK_REFUSED(mrtq_conv2d_q8(&B.s, &rq, 1, &B.x, &B.w, NULL, MRTQ_S8, out + GUARD), MRTQ_ESHAPE,
                  "s->w_layout: MRTQ_W_TFLITE_DW is a depthwise filter (needs s->groups == s->c)");
  }
  BAD(s.c, 0, MRTQ_ESHAPE, "s->c: must be >= 1");
  BAD(s.h, 0, MRTQ_ESHAPE, "s->h: must be >= 1");
  BAD(s.w, 0, MRTQ_ESHAPE, "s->w: must be >= 1");
  BAD(s.o, 0, MRTQ_ESHAPE, "s->o: must be >= 1");
  BAD(s.kh, 0, MRTQ_ESHAPE, "s->kh: must be >= 1");
  BAD(s.kw, 0, MRTQ_ESHAPE, "s->kw: must be >= 1");
  BAD(s.stride_h, 0, MRTQ_ESHAPE, "s->stride_h: must be >= 1");
  BAD(s.stride_w, 0, MRTQ_ESHAPE, "s->stride_w: must be >= 1");
  BAD(s.dil_h, 0, MRTQ_ESHAPE, "s->dil_h: must be >= 1");
  BAD(s.dil_w, 0, MRTQ_ESHAPE, "s->dil_w: must be >= 1");
  BAD(s.groups, 0, MRTQ_ESHAPE, "s->groups: must be >= 1");
  BAD(s.kh, 5, MRTQ_ESHAPE, "s->kh: the dilated kernel is taller");   /* kernel larger than the input */
  BAD(s.dil_w, 2, MRTQ_ESHAPE, "s->kw: the dilated kernel is wider"); /* dilated kernel 5 > 4 */
  BAD(s.groups, 2, MRTQ_ESHAPE, "s->c: must be a multiple of s->groups"); /* c = 1 not a multiple of 2 */
  {
    layer_t B = L;
    B.s.c = B.s.groups = 2, B.s.o = 3; /* o = 3 not a multiple of 2 */
    CHECK_REFUSED(mrtq_conv2d_q8(&B.s, &rq, 1, &B.x, &B.w, NULL, MRTQ_S8, out + GUARD), MRTQ_ESHAPE, "s->o: must be a multiple of s->groups");
  }
  BAD(s.h, SIZE_MAX / 2, MRTQ_ESHAPE, "s->h, s->pad_top"); /* sizes overflow */
  BAD(s.pad_right, SIZE_MAX / 2, MRTQ_ESHAPE, "s->w, s->pad_left");
  BAD(s.layout, (mrtq_layout)7, MRTQ_EINVAL, "s->layout: must be MRTQ_NCHW or MRTQ_NHWC");
  BAD(x.data, NULL, MRTQ_EINVAL, "x->data: NULL");
  BAD(w.data, NULL, MRTQ_EINVAL, "w->data: NULL");
  BAD(x.zp, 300, MRTQ_EINVAL, "x->zp: outside x->type's range");
  BAD(w.zp, -129, MRTQ_EINVAL, "w->zp: outside w->type's range");
  BAD(x.type, (mrtq_dtype)0, MRTQ_EINVAL, "x->type: not an mrtq_dtype");
  BAD(w.type, MRTQ_S16, MRTQ_EUNSUPPORTED, "w->type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S4");
  BAD(x.zp_ch, L.bias, MRTQ_EINVAL, "x->zp_ch: must be NULL");
  {
    static const int32_t zw_ok[1] = {0}, zw_bad[1] = {128};
    layer_t B = L;
    B.w.zp_ch = zw_bad;
    CHECK_REFUSED(mrtq_conv2d_q8(&B.s, &rq, 1, &B.x, &B.w, NULL, MRTQ_S8, out + GUARD), MRTQ_EINVAL, "w->zp_ch[o]: outside");
    B.w.zp_ch = zw_ok, B.w.zp = 1; /* silently replaced before: now refused */
    CHECK_REFUSED(mrtq_conv2d_q8(&B.s, &rq, 1, &B.x, &B.w, NULL, MRTQ_S8, out + GUARD), MRTQ_EINVAL, "w->zp: must be 0 beside w->zp_ch");
    CHECK_REFUSED(mrtq_conv2d_q8(NULL, &rq, 1, &B.x, &B.w, NULL, MRTQ_S8, out + GUARD), MRTQ_EINVAL, "s: NULL");
    CHECK_REFUSED(mrtq_conv2d_q8(&L.s, &rq, 1, NULL, &B.w, NULL, MRTQ_S8, out + GUARD), MRTQ_EINVAL, "x: NULL");
    CHECK_REFUSED(mrtq_conv2d_q8(&L.s, &rq, 1, &B.x, NULL, NULL, MRTQ_S8, out + GUARD), MRTQ_EINVAL, "w: NULL");
    CHECK_REFUSED(mrtq_conv2d_out(&L.s, NULL, &wo), MRTQ_EINVAL, "ho, wo: NULL");
  }
  { /* element counts over size_t: the src (n c h w), the dst, the weights */
    layer_t B = L;
    B.s.n = SIZE_MAX / 4, B.s.c = 8;
    CHECK_REFUSED(mrtq_conv2d_out(&B.s, &ho, &wo), MRTQ_ESHAPE, "s: the src's element count");
    B = L, B.s.o = SIZE_MAX / 2; /* n o ho = SIZE_MAX - 1, times wo = 2 */
    CHECK_REFUSED(mrtq_conv2d_out(&B.s, &ho, &wo), MRTQ_ESHAPE, "s: the dst's element count");
    B = L, B.s.o = SIZE_MAX / 4; /* the dst fits (4 o), o kh does not */
    CHECK_REFUSED(mrtq_conv2d_out(&B.s, &ho, &wo), MRTQ_ESHAPE, "s: the weights' element count");
  }
  CHECK_REFUSED(mrtq_conv2d_q8(&L.s, NULL, 1, &L.x, &L.w, NULL, MRTQ_S8, out + GUARD), MRTQ_EINVAL, "rq: NULL");
  CHECK_REFUSED(mrtq_conv2d_q8(&L.s, &rq, 2, &L.x, &L.w, NULL, MRTQ_S8, out + GUARD), MRTQ_EINVAL, "nrq: must be 1 or s->o");
  CHECK_REFUSED(mrtq_conv2d_q8(&L.s, &rq, 1, &L.x, &L.w, NULL, MRTQ_S32, out + GUARD), MRTQ_EUNSUPPORTED, "dst_type: must be MRTQ_S8 or MRTQ_U8");
  CHECK_REFUSED(mrtq_conv2d_q8(&L.s, &rq, 1, &L.x, &L.w, NULL, (mrtq_dtype)0, out + GUARD), MRTQ_EINVAL, "dst_type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_conv2d_q8(&L.s, &rq, 1, &L.x, &L.w, NULL, MRTQ_S8, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_conv2d_s32(&L.s, &L.x, &L.w, NULL, NULL), MRTQ_EINVAL, "acc: NULL");
  { /* the requantization descriptors: no field the scheme never reads may be set */
    mrtq_rq bad[2];
    bad[0] = bad[1] = rq, bad[0].scale = 0.5f;
    CHECK_REFUSED(mrtq_conv2d_q8(&L.s, bad, 1, &L.x, &L.w, NULL, MRTQ_S8, out + GUARD), MRTQ_EINVAL, "rq->scale: must be 0 with a fixed-point scheme");
    bad[0] = rq, bad[0].scheme = (mrtq_scheme)9;
    CHECK_REFUSED(mrtq_conv2d_q8(&L.s, bad, 1, &L.x, &L.w, NULL, MRTQ_S8, out + GUARD), MRTQ_EINVAL, "rq->scheme: not an mrtq_scheme");
    bad[0] = rq, bad[1].qmin = 5, bad[1].qmax = 4;
    L.s.o = 2;
    CHECK_REFUSED(mrtq_conv2d_q8(&L.s, bad, 2, &L.x, &L.w, NULL, MRTQ_S8, out + GUARD), MRTQ_EINVAL, "rq[c].qmin: must be <= qmax");
    L.s.o = 1;
  }
  /* uint8 x uint8 with K = 40000: 40000 * 255 * 255 > 2^31 */
  {
    layer_t B = L;
    B.s.c = 40000, B.s.kh = B.s.kw = 1, B.x.type = B.w.type = MRTQ_U8;
    CHECK_REFUSED(mrtq_conv2d_q8(&B.s, &rq, 1, &B.x, &B.w, NULL, MRTQ_S8, out + GUARD), MRTQ_EOVERFLOW, "could overflow int32");
  }
  {
    size_t i, untouched = 1;
    for (i = 0; i < sizeof out; i++) untouched &= out[i] == 0xa5;
    CHECK(untouched); /* nothing written on any error */
  }
  CHECK_EQ(mrtq_conv2d_out(&L.s, &ho, &wo), MRTQ_OK, "ok");
  CHECK(ho == 2 && wo == 2);
#undef BAD
}

int main(void) {
  TH_RUN(test_hand);
  TH_RUN(test_random);
  TH_RUN(test_real_layers);
  TH_RUN(test_bad_input);
  printf("  total: %lld outputs compared, 0 mismatches allowed\n", compared);
  return th_finish("test_conv");
}
