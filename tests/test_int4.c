/* int4 (MRTQ_S4) weights in the convolution, depthwise and fully connected
 * kernels of conv.h, and the packing helpers mrtq_s4_pack / mrtq_s4_unpack.
 *
 * Oracle: TFLite runs an int4 filter by unpacking it to int8
 * (tensor_utils::UnpackDenseInt4IntoInt8) and calling its int8 reference
 * kernels (reference_integer_ops::ConvPerChannel, DepthwiseConvPerChannel,
 * FullyConnected). This file restates both in its own code: a nibble decoder,
 * and TFLite's loop nests with their NHWC Offset() arithmetic, acc +=
 * (filter + filter_offset) (input + input_offset) over in-image taps in
 * int64, + bias, MultiplyByQuantizedMultiplier in gemmlowp's form (nudged
 * high multiply with truncating division, then the mask / threshold rounding
 * shift), + output offset, clamp. TFLite's conv and depthwise filters have no
 * zero point (filter_offset 0); FullyConnected's per-tensor form has one;
 * mrtq takes one everywhere, so the oracle carries filter_offset in every
 * nest (0 gives TFLite's loop exactly). The _s32 kernels are compared with
 * the oracle's exact accumulator. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "mrtq.h"

static long long n_pack, n_conv, n_dw, n_fc, n_edge;

/* ---- the test's own int4 codec ---- */

/* Nibble j of a packed buffer as a signed value: low nibble for even j. */
static int nib_get(const uint8_t *p, size_t j) {
  unsigned v = (j & 1) ? (unsigned)(p[j >> 1] >> 4) : (unsigned)(p[j >> 1] & 0x0F);
  return (int)v - (int)((v & 8u) << 1);
}

/* Pack n values of [-8, 7] a byte at a time; the unused high nibble of an
 * odd n gets `junk` (the kernels must never read it). */
static void nib_pack(const int8_t *v, size_t n, uint8_t *p, unsigned junk) {
  size_t b;
  for (b = 0; b < (n + 1) / 2; b++) {
    unsigned lo = (unsigned)(v[2 * b] + 16) % 16u;
    unsigned hi = 2 * b + 1 < n ? (unsigned)(v[2 * b + 1] + 16) % 16u : junk & 15u;
    p[b] = (uint8_t)(lo + 16u * hi);
  }
}

/* ---- TFLite's reference arithmetic, restated ---- */

/* QuantizeMultiplier: frexp's fraction times 2^31, rounded half away from
 * zero; 2^31 renormalized; an exponent below -31 flushes to (0, 0). */
static void tfl_quantize_multiplier(double r, int32_t *m, int *shift) {
  int e;
  double q = frexp(r, &e) * 2147483648.0;
  long long qi = (long long)(q >= 0 ? floor(q + 0.5) : -floor(-q + 0.5));
  if (qi == 2147483648LL) qi /= 2, e++;
  if (e < -31) qi = 0, e = 0;
  *m = (int32_t)qi, *shift = e;
}

/* gemmlowp SaturatingRoundingDoublingHighMul, in its own form. */
static int32_t tfl_srdhm(int32_t a, int32_t b) {
  int64_t ab, nudge;
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  ab = (int64_t)a * b;
  nudge = ab >= 0 ? (1LL << 30) : 1 - (1LL << 30);
  return (int32_t)((ab + nudge) / (1LL << 31)); /* C division truncates, as gemmlowp's */
}

/* gemmlowp RoundingDivideByPOT: mask, remainder, threshold. */
static int32_t tfl_rdivpot(int32_t x, int e) {
  int64_t mask = (1LL << e) - 1, rem = (int64_t)x & mask, thr = (mask >> 1) + (x < 0 ? 1 : 0);
  int64_t fl = ((int64_t)x - rem) / (1LL << e); /* x - rem is a multiple of 2^e: the floor */
  return (int32_t)(fl + (rem > thr ? 1 : 0));
}

/* MultiplyByQuantizedMultiplier (the double-rounding build); every
 * accumulator here keeps acc * 2^left inside int32, as TFLite needs. */
static int32_t tfl_mbqm(int64_t acc, int32_t m, int shift) {
  int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  return tfl_rdivpot(tfl_srdhm((int32_t)(acc * (1LL << left)), m), right);
}

/* RuntimeShape Offset() of a 4-D NHWC / OHWI shape {d0, d1, d2, d3}. */
static size_t off4(const int d[4], int i0, int i1, int i2, int i3) {
  return (((size_t)i0 * (size_t)d[1] + (size_t)i1) * (size_t)d[2] + (size_t)i2) * (size_t)d[3] + (size_t)i3;
}

/* ---- one random layer ---- */

typedef struct {
  int kind; /* 0 conv (groups >= 1), 1 depthwise, 2 fully connected */
  int n, h, w, c, o, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr, groups, mult, ho, wo;
  int nchw, dw_tflite; /* activation layout; depthwise filter in TFLite's [1][kh][kw][o] */
  int xu, yu, per_channel, wzp_mode;
} layer;

/* Requantization of one output channel, TFLite's way. */
typedef struct {
  int32_t m, zy, lo, hi;
  int sh;
} tfl_rq;

static int32_t tfl_out(const tfl_rq *r, int64_t acc) {
  int32_t v = tfl_mbqm(acc, r->m, r->sh) + r->zy;
  return v < r->lo ? r->lo : v > r->hi ? r->hi : v;
}

/* The weight tensor in TFLite's layout: conv OHWI [o][kh][kw][c / groups],
 * depthwise [1][kh][kw][o], FC [o][k]. */
static size_t tfl_wcount(const layer *L) {
  return L->kind == 1 ? (size_t)L->kh * L->kw * L->o : (size_t)L->o * L->kh * L->kw * (L->c / L->groups);
}

/* TFLite's loop nests (NHWC in and out): exact int64 accumulators (bias
 * included) into acc[n][ho][wo][o]. */
static void tfl_accumulate(const layer *L, const int32_t *x, int32_t zx, const int8_t *wt, const int32_t *zw,
                           const int32_t *bias, int64_t *acc) {
  int in_d[4] = {L->n, L->h, L->w, L->c}, out_d[4] = {L->n, L->ho, L->wo, L->o};
  int b, oy, ox, oc, fy, fx, ic, m;
  if (L->kind == 2) { /* FullyConnected: input [batches][accum_depth], filter [out][accum_depth] */
    int accum = L->c;
    for (b = 0; b < L->n; b++)
      for (oc = 0; oc < L->o; oc++) {
        int64_t a = 0;
        int d;
        for (d = 0; d < accum; d++) a += (int64_t)(wt[oc * accum + d] + (-zw[oc])) * (x[b * accum + d] + (-zx));
        acc[(size_t)b * L->o + oc] = a + (bias ? bias[oc] : 0);
      }
    return;
  }
  if (L->kind == 1) { /* DepthwiseConvPerChannel: filter {1, kh, kw, o}, oc = ic * depth_multiplier + m */
    int f_d[4] = {1, L->kh, L->kw, L->o};
    for (b = 0; b < L->n; b++)
      for (oy = 0; oy < L->ho; oy++)
        for (ox = 0; ox < L->wo; ox++)
          for (ic = 0; ic < L->c; ic++)
            for (m = 0; m < L->mult; m++) {
              int64_t a = 0;
              int y0 = oy * L->sh - L->pt, x0 = ox * L->sw - L->pl;
              oc = m + ic * L->mult;
              for (fy = 0; fy < L->kh; fy++)
                for (fx = 0; fx < L->kw; fx++) {
                  int iy = y0 + L->dh * fy, ix = x0 + L->dw * fx;
                  if (ix < 0 || ix >= L->w || iy < 0 || iy >= L->h) continue;
                  a += (int64_t)(x[off4(in_d, b, iy, ix, ic)] + (-zx)) * (wt[off4(f_d, 0, fy, fx, oc)] + (-zw[oc]));
                }
              acc[off4(out_d, b, oy, ox, oc)] = a + (bias ? bias[oc] : 0);
            }
    return;
  }
  { /* ConvPerChannel: filter {o, kh, kw, c / groups}; group = oc / (o / groups) */
    int fdepth = L->c / L->groups, per_group = L->o / L->groups;
    int f_d[4] = {L->o, L->kh, L->kw, fdepth};
    for (b = 0; b < L->n; b++)
      for (oy = 0; oy < L->ho; oy++)
        for (ox = 0; ox < L->wo; ox++)
          for (oc = 0; oc < L->o; oc++) {
            int64_t a = 0;
            int y0 = oy * L->sh - L->pt, x0 = ox * L->sw - L->pl, g = oc / per_group;
            for (fy = 0; fy < L->kh; fy++)
              for (fx = 0; fx < L->kw; fx++) {
                int iy = y0 + L->dh * fy, ix = x0 + L->dw * fx;
                if (ix < 0 || ix >= L->w || iy < 0 || iy >= L->h) continue;
                for (ic = 0; ic < fdepth; ic++)
                  a += (int64_t)(wt[off4(f_d, oc, fy, fx, ic)] + (-zw[oc])) *
                       (x[off4(in_d, b, iy, ix, ic + g * fdepth)] + (-zx));
              }
            acc[off4(out_d, b, oy, ox, oc)] = a + (bias ? bias[oc] : 0);
          }
  }
}

/* Draw a layer's shape (TFLite's output size formula for the chosen pads). */
static void draw_shape(layer *L, int kind) {
  memset(L, 0, sizeof *L);
  L->kind = kind;
  for (;;) {
    int ekh, ekw;
    L->n = (int)th_range(1, 2);
    if (kind == 2) {
      L->c = (int)th_range(1, 40), L->o = (int)th_range(1, 9), L->h = L->w = L->kh = L->kw = 1;
      L->sh = L->sw = L->dh = L->dw = 1, L->groups = 1, L->n = (int)th_range(1, 4);
    } else {
      L->h = (int)th_range(1, 8), L->w = (int)th_range(1, 8);
      L->kh = (int)th_range(1, 4), L->kw = (int)th_range(1, 4);
      L->sh = (int)th_range(1, 3), L->sw = (int)th_range(1, 3), L->dh = (int)th_range(1, 2), L->dw = (int)th_range(1, 2);
      if (kind == 1) {
        L->c = (int)th_range(1, 6), L->mult = (int)th_range(1, 3), L->o = L->c * L->mult, L->groups = L->c;
      } else {
        L->groups = (int)th_range(1, 3), L->c = L->groups * (int)th_range(1, 4), L->o = L->groups * (int)th_range(1, 3);
      }
      if (th_rand32() % 2u) { /* TFLite SAME: the odd row / column goes bottom / right */
        int oh = (L->h + L->sh - 1) / L->sh, ow = (L->w + L->sw - 1) / L->sw;
        int ph = (oh - 1) * L->sh + (L->kh - 1) * L->dh + 1 - L->h, pw = (ow - 1) * L->sw + (L->kw - 1) * L->dw + 1 - L->w;
        ph = ph > 0 ? ph : 0, pw = pw > 0 ? pw : 0;
        L->pt = ph / 2, L->pb = ph - ph / 2, L->pl = pw / 2, L->pr = pw - pw / 2;
      } else { /* any pads (VALID when all 0) */
        L->pt = (int)th_range(0, 2), L->pb = (int)th_range(0, 2), L->pl = (int)th_range(0, 2), L->pr = (int)th_range(0, 2);
      }
    }
    ekh = (L->kh - 1) * L->dh + 1, ekw = (L->kw - 1) * L->dw + 1;
    if (L->h + L->pt + L->pb < ekh || L->w + L->pl + L->pr < ekw) continue;
    L->ho = (L->h + L->pt + L->pb - ekh) / L->sh + 1, L->wo = (L->w + L->pl + L->pr - ekw) / L->sw + 1;
    return;
  }
}

/* mrtq's weight index of TFLite weight element e (the layout mrtq reads:
 * OHWI / OIHW, or TFLite's own depthwise filter). */
static size_t mrtq_widx(const layer *L, size_t e) {
  size_t cg = (size_t)(L->c / L->groups), kh = (size_t)L->kh, kw = (size_t)L->kw, o, ky, kx, c;
  if (L->kind == 1) { /* e = (ky kw + kx) o_count + o */
    o = e % (size_t)L->o, kx = e / (size_t)L->o % kw, ky = e / (size_t)L->o / kw, c = 0;
    if (L->dw_tflite) return e;
  } else { /* e = ((o kh + ky) kw + kx) cg + c */
    c = e % cg, kx = e / cg % kw, ky = e / cg / kw % kh, o = e / cg / kw / kh;
  }
  return L->nchw ? ((o * cg + c) * kh + ky) * kw + kx : ((o * kh + ky) * kw + kx) * cg + c;
}

/* mrtq's index of NHWC element (b, y, x, c) in the layer's layout. */
static size_t act_idx(const layer *L, int nchw, int ch, int hh, int ww, int b, int y, int x, int c) {
  (void)L;
  return nchw ? (((size_t)b * ch + c) * hh + y) * ww + x : (((size_t)b * hh + y) * ww + x) * ch + c;
}

/* Weight values: random in [-8, 7], or every one -8 or 7 (the extremes). */
static int8_t draw_w(int mode) { return mode == 1 ? -8 : mode == 2 ? 7 : (int8_t)th_range(-8, 7); }

static void run_layer(layer *L) {
  size_t nx = (size_t)L->n * L->h * L->w * L->c, nw = tfl_wcount(L), ny = (size_t)L->n * L->ho * L->wo * L->o, i;
  size_t nbytes = (nw + 1) / 2;
  int32_t *xv = (int32_t *)malloc(nx * sizeof(int32_t)), *bias = (int32_t *)malloc((size_t)L->o * sizeof(int32_t));
  int32_t *zw = (int32_t *)calloc((size_t)L->o, sizeof(int32_t)), *accm = (int32_t *)malloc((ny + 4) * sizeof(int32_t));
  int64_t *acc = (int64_t *)malloc(ny * sizeof(int64_t));
  int8_t *wt = (int8_t *)malloc(nw), *wm = (int8_t *)malloc(nw);
  uint8_t *xb = (uint8_t *)malloc(nx), *wp = (uint8_t *)malloc(nbytes + 1), *y1 = (uint8_t *)malloc(ny + 8);
  uint8_t *y2 = (uint8_t *)malloc(ny + 8);
  tfl_rq *r = (tfl_rq *)malloc((size_t)L->o * sizeof(tfl_rq));
  mrtq_rq *rq = (mrtq_rq *)malloc((size_t)L->o * sizeof(mrtq_rq));
  int32_t zx = L->xu ? (int32_t)th_range(0, 255) : (int32_t)th_range(-128, 127), zy, lo, hi;
  int wmode = th_rand32() % 6u == 0 ? (int)th_range(1, 2) : 0, b, y, x, c, use_bias = th_rand32() % 4u != 0;
  unsigned junk = th_rand32() & 15u;
  mrtq_conv2d_shape s;
  mrtq_qoperand qx, qw;
  size_t nrq = L->per_channel ? (size_t)L->o : 1;
  mrtq_dtype yt = L->yu ? MRTQ_U8 : MRTQ_S8;
  if (!xv || !bias || !zw || !accm || !acc || !wt || !wm || !xb || !wp || !y1 || !y2 || !r || !rq) {
    CHECK(0);
    return;
  }
  /* data: NHWC values for the oracle, then mrtq's bytes in the chosen layout */
  for (i = 0; i < nx; i++) xv[i] = L->xu ? (int32_t)th_range(0, 255) : (int32_t)th_range(-128, 127);
  if (wmode == 0 && th_rand32() % 5u == 0) /* extreme inputs too */
    for (i = 0; i < nx; i++) xv[i] = L->xu ? (th_rand32() & 1u ? 255 : 0) : (th_rand32() & 1u ? 127 : -128);
  for (i = 0; i < nw; i++) wt[i] = draw_w(wmode);
  for (i = 0; i < (size_t)L->o; i++) bias[i] = (int32_t)th_range(-30000, 30000);
  /* weight zero points: 0 (TFLite), one per tensor, or one per channel */
  if (L->wzp_mode == 1) {
    int32_t z = (int32_t)th_range(-8, 7);
    for (i = 0; i < (size_t)L->o; i++) zw[i] = z;
  } else if (L->wzp_mode == 2)
    for (i = 0; i < (size_t)L->o; i++) zw[i] = (int32_t)th_range(-8, 7);
  if (L->kind == 2) L->nchw = 0; /* FC: rows x k either way */
  for (b = 0; b < L->n; b++)
    for (y = 0; y < L->h; y++)
      for (x = 0; x < L->w; x++)
        for (c = 0; c < L->c; c++)
          xb[act_idx(L, L->nchw, L->c, L->h, L->w, b, y, x, c)] =
              (uint8_t)xv[(((size_t)b * L->h + y) * L->w + x) * L->c + c];
  for (i = 0; i < nw; i++) wm[mrtq_widx(L, i)] = wt[i];
  memset(wp, 0xEE, nbytes + 1);
  nib_pack(wm, nw, wp, junk);
  /* requantization: per channel or one for all */
  zy = L->yu ? (int32_t)th_range(0, 255) : (int32_t)th_range(-128, 127);
  lo = L->yu ? 0 : -128, hi = L->yu ? 255 : 127;
  if (th_rand32() % 3u == 0) lo = (int32_t)th_range(lo, zy), hi = (int32_t)th_range(zy, hi); /* a fused activation */
  for (i = 0; i < nrq; i++) {
    double scale = ldexp(1.0 + (double)(th_rand32() % 1000u) / 1000.0, -(int)th_range(4, 14));
    tfl_quantize_multiplier(scale, &r[i].m, &r[i].sh);
    r[i].zy = zy, r[i].lo = lo, r[i].hi = hi;
    CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, scale, zy, lo, hi, &rq[i]), MRTQ_OK, "rq %zu", i);
  }
  /* oracle */
  tfl_accumulate(L, xv, zx, wt, zw, use_bias ? bias : NULL, acc);
  /* mrtq */
  memset(&s, 0, sizeof s), memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
  s.n = (size_t)L->n, s.c = (size_t)L->c, s.h = (size_t)L->h, s.w = (size_t)L->w, s.o = (size_t)L->o;
  s.kh = (size_t)L->kh, s.kw = (size_t)L->kw, s.stride_h = (size_t)L->sh, s.stride_w = (size_t)L->sw;
  s.dil_h = (size_t)L->dh, s.dil_w = (size_t)L->dw, s.groups = (size_t)L->groups;
  s.pad_top = (size_t)L->pt, s.pad_left = (size_t)L->pl, s.pad_bottom = (size_t)L->pb, s.pad_right = (size_t)L->pr;
  s.layout = L->nchw ? MRTQ_NCHW : MRTQ_NHWC;
  s.w_layout = L->kind == 1 && L->dw_tflite ? MRTQ_W_TFLITE_DW : MRTQ_W_LIKE_X;
  qx.data = xb, qx.type = L->xu ? MRTQ_U8 : MRTQ_S8, qx.zp = zx;
  qw.data = wp, qw.type = MRTQ_S4;
  if (L->wzp_mode == 2) qw.zp_ch = zw;
  else qw.zp = zw[0];
  memset(y1, 0xA5, ny + 8);
  if (L->kind == 2)
    CHECK_EQ(mrtq_fc_q8((size_t)L->n, (size_t)L->c, (size_t)L->o, rq, nrq, &qx, &qw, use_bias ? bias : NULL, yt, y1),
             MRTQ_OK, "fc_q8");
  else
    CHECK_EQ(mrtq_conv2d_q8(&s, rq, nrq, &qx, &qw, use_bias ? bias : NULL, yt, y1), MRTQ_OK, "conv2d_q8 kind %d", L->kind);
  for (i = ny; i < ny + 8; i++) CHECK_EQ(y1[i], 0xA5, "q8 wrote past its output (%zu)", i);
  memset(accm, 0x5A, (ny + 4) * sizeof(int32_t));
  if (L->kind == 2)
    CHECK_EQ(mrtq_fc_s32((size_t)L->n, (size_t)L->c, (size_t)L->o, &qx, &qw, use_bias ? bias : NULL, accm), MRTQ_OK, "fc_s32");
  else
    CHECK_EQ(mrtq_conv2d_s32(&s, &qx, &qw, use_bias ? bias : NULL, accm), MRTQ_OK, "conv2d_s32");
  for (i = ny; i < ny + 4; i++) CHECK_EQ((uint32_t)accm[i], 0x5A5A5A5Au, "s32 wrote past its output (%zu)", i);
  /* the unused high nibble of an odd count: other junk, same bytes */
  if (nw % 2) {
    wp[nbytes - 1] = (uint8_t)((wp[nbytes - 1] & 0x0F) | (((junk + 1 + th_rand32() % 15u) & 15u) << 4));
    memset(y2, 0xA5, ny + 8);
    if (L->kind == 2)
      CHECK_EQ(mrtq_fc_q8((size_t)L->n, (size_t)L->c, (size_t)L->o, rq, nrq, &qx, &qw, use_bias ? bias : NULL, yt, y2),
               MRTQ_OK, "fc_q8");
    else
      CHECK_EQ(mrtq_conv2d_q8(&s, rq, nrq, &qx, &qw, use_bias ? bias : NULL, yt, y2), MRTQ_OK, "conv2d_q8");
    CHECK(memcmp(y1, y2, ny + 8) == 0);
  }
  /* compare, output by output, in NHWC order */
  for (b = 0; b < L->n; b++)
    for (y = 0; y < L->ho; y++)
      for (x = 0; x < L->wo; x++)
        for (c = 0; c < L->o; c++) {
          size_t at = act_idx(L, L->nchw, L->o, L->ho, L->wo, b, y, x, c), o_at = (((size_t)b * L->ho + y) * L->wo + x) * L->o + c;
          int32_t want = tfl_out(&r[L->per_channel ? c : 0], acc[o_at]);
          int32_t got = L->yu ? (int32_t)y1[at] : (int32_t)(int8_t)y1[at];
          if (got != want) CHECK_EQ(got, want, "kind %d q8 output (b %d y %d x %d o %d)", L->kind, b, y, x, c);
          if (accm[at] != acc[o_at]) CHECK_EQ(accm[at], acc[o_at], "kind %d s32 output (b %d y %d x %d o %d)", L->kind, b, y, x, c);
          if (L->kind == 0) n_conv += 2;
          else if (L->kind == 1) n_dw += 2;
          else n_fc += 2;
        }
  free(xv), free(bias), free(zw), free(accm), free(acc), free(wt), free(wm), free(xb), free(wp), free(y1), free(y2);
  free(r), free(rq);
}

static void test_random_layers(void) {
  int i;
  for (i = 0; i < 1500; i++) {
    layer L;
    draw_shape(&L, i % 3);
    L.nchw = (int)(th_rand32() % 2u);
    L.dw_tflite = L.kind == 1 && th_rand32() % 2u;
    L.xu = (int)(th_rand32() % 4u == 0), L.yu = (int)(th_rand32() % 4u == 0);
    L.per_channel = (int)(th_rand32() % 2u);
    L.wzp_mode = th_rand32() % 2u ? 0 : (int)th_range(1, 2); /* half TFLite's symmetric filters */
    run_layer(&L);
  }
  /* odd weight counts on purpose: 3x3 depthwise with one channel, 1x1 conv 3 -> 3, FC 5 x 7 */
  for (i = 0; i < 60; i++) {
    layer L;
    memset(&L, 0, sizeof L);
    L.kind = i % 3, L.n = 1, L.h = L.w = 5, L.sh = L.sw = L.dh = L.dw = 1, L.groups = 1;
    if (L.kind == 1) L.c = 1, L.mult = 1, L.o = 1, L.kh = L.kw = 3, L.pt = L.pl = L.pb = L.pr = 1, L.groups = 1;
    else if (L.kind == 0) L.c = 3, L.o = 3, L.kh = L.kw = 1;
    else L.c = 7, L.o = 5, L.h = L.w = L.kh = L.kw = 1;
    L.ho = L.h + L.pt + L.pb - L.kh + 1, L.wo = L.w + L.pl + L.pr - L.kw + 1;
    L.nchw = i % 2, L.dw_tflite = (i / 3) % 2, L.xu = (i / 6) % 2, L.yu = (i / 12) % 2, L.per_channel = (i / 24) % 2;
    L.wzp_mode = i % 5 == 0 ? 2 : 0;
    CHECK(tfl_wcount(&L) % 2 == 1);
    run_layer(&L);
  }
  printf("  conv: %lld outputs compared (q8 and s32)\n", n_conv);
  printf("  depthwise: %lld outputs compared (q8 and s32)\n", n_dw);
  printf("  fully connected: %lld outputs compared (q8 and s32)\n", n_fc);
}

/* ---- the exact int32 bound with |W| <= 8 ---- */

static void test_overflow_bound(void) {
  /* FC, one output: x = -128 (zp 0), w = -8 (zp 0): every product is
     +1024 and the checked worst case K 128 8 + |bias| is the accumulator
     itself. K = 2^21 - 1: 2^31 - 1024, so bias 1023 reaches INT32_MAX. */
  size_t k = ((size_t)1 << 21) - 1, i;
  int8_t *x = (int8_t *)malloc(k + 1);
  uint8_t *w = (uint8_t *)malloc(k / 2 + 2);
  int32_t acc = 0, bias;
  int8_t y = 0;
  mrtq_qoperand qx, qw;
  mrtq_rq rq;
  if (!x || !w) {
    CHECK(0);
    return;
  }
  memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
  for (i = 0; i <= k; i++) x[i] = -128;
  memset(w, 0x88, k / 2 + 2); /* -8 in both nibbles */
  qx.data = x, qx.type = MRTQ_S8, qw.data = w, qw.type = MRTQ_S4;
  bias = 1023;
  CHECK_EQ(mrtq_fc_s32(1, k, 1, &qx, &qw, &bias, &acc), MRTQ_OK, "at the bound");
  CHECK_EQ(acc, INT32_MAX, "the accumulator is the bound");
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 1.0 / 67108864.0, 0, -128, 127, &rq), MRTQ_OK, "rq"); /* 2^-26: 2^31 -> 32 */
  CHECK_EQ(mrtq_fc_q8(1, k, 1, &rq, 1, &qx, &qw, &bias, MRTQ_S8, &y), MRTQ_OK, "q8 at the bound");
  CHECK_EQ(y, tfl_mbqm(INT32_MAX, rq.m.mult, rq.m.shift), "q8 at the bound");
  CHECK_EQ(y, 32, "q8 at the bound");
  bias = -1023;
  CHECK_EQ(mrtq_fc_s32(1, k, 1, &qx, &qw, &bias, &acc), MRTQ_OK, "at the bound, negative bias");
  CHECK_EQ(acc, (int64_t)k * 1024 - 1023, "exact");
  bias = 1024, acc = 77;
  CHECK_REFUSED(mrtq_fc_s32(1, k, 1, &qx, &qw, &bias, &acc), MRTQ_EOVERFLOW,
                "s: K |X| |W| + |zx| K |W| + |zw| K |X| + K |zx zw| + |bias| could overflow int32");
  CHECK_EQ(acc, 77, "nothing written");
  bias = INT32_MIN + 1; /* |bias| 2^31 - 1 alone is the bound: one more tap is too many */
  CHECK_REFUSED(mrtq_fc_s32(1, 1, 1, &qx, &qw, &bias, &acc), MRTQ_EOVERFLOW, "could overflow int32");
  CHECK_REFUSED(mrtq_fc_s32(1, k + 1, 1, &qx, &qw, NULL, &acc), MRTQ_EOVERFLOW, "could overflow int32"); /* 2^31 */
  CHECK_EQ(mrtq_fc_s32(1, k, 1, &qx, &qw, NULL, &acc), MRTQ_OK, "2^31 - 1024");
  CHECK_EQ(acc, INT32_MAX - 1023, "exact");
  n_edge += 5;
  /* every term: u8 x (|X| 255, zx 255), zw -8, per-tensor: K (255 8 + 255 8 + 8 255 + 255 8) = 8160 K */
  {
    size_t kk = 1000;
    int64_t rest = (int64_t)8160 * (int64_t)kk, want = 0;
    uint8_t *xu = (uint8_t *)malloc(kk);
    for (i = 0; i < kk; i++) xu[i] = (uint8_t)(i % 3 ? 0 : 255);
    for (i = 0; i < kk / 2; i++) w[i] = (uint8_t)(i % 2 ? 0x87 : 0x78);
    qx.data = xu, qx.type = MRTQ_U8, qx.zp = 255, qw.zp = -8;
    bias = (int32_t)(INT32_MAX - rest);
    for (i = 0; i < kk; i++) want += (int64_t)(xu[i] - 255) * (nib_get(w, i) + 8);
    want += bias;
    CHECK_EQ(mrtq_fc_s32(1, kk, 1, &qx, &qw, &bias, &acc), MRTQ_OK, "at the bound with zero points");
    CHECK_EQ(acc, want, "exact");
    bias = -bias;
    CHECK_EQ(mrtq_fc_s32(1, kk, 1, &qx, &qw, &bias, &acc), MRTQ_OK, "at the bound, negative bias");
    CHECK_EQ(acc, want - 2 * (int64_t)(INT32_MAX - rest), "exact");
    bias = (int32_t)(INT32_MAX - rest + 1);
    CHECK_REFUSED(mrtq_fc_s32(1, kk, 1, &qx, &qw, &bias, &acc), MRTQ_EOVERFLOW, "could overflow int32");
    { /* the same bound through a convolution: K = c kh kw = 10 * 10 * 10, zw per channel */
      mrtq_conv2d_shape s;
      int32_t zch[2] = {3, -8}, b2[2];
      int32_t out[2];
      memset(&s, 0, sizeof s);
      s.n = 1, s.c = 10, s.h = s.w = 10, s.o = 2, s.kh = s.kw = 10, s.stride_h = s.stride_w = s.dil_h = s.dil_w = 1;
      s.groups = 1, s.layout = MRTQ_NHWC;
      qw.zp = 0, qw.zp_ch = zch;
      b2[0] = (int32_t)(INT32_MAX - rest), b2[1] = 0;
      CHECK_EQ(mrtq_conv2d_s32(&s, &qx, &qw, b2, out), MRTQ_OK, "conv at the bound");
      for (i = 0; i < 2; i++) {
        int64_t a = b2[i];
        size_t e;
        for (e = 0; e < kk; e++) a += (int64_t)(xu[e % 1000] - 255) * (nib_get(w, i * kk + e) - zch[i]);
        CHECK_EQ(out[i], a, "conv channel %zu", i);
      }
      b2[1] = -(int32_t)(INT32_MAX - rest + 1);
      CHECK_REFUSED(mrtq_conv2d_s32(&s, &qx, &qw, b2, out), MRTQ_EOVERFLOW, "could overflow int32");
      qw.zp_ch = NULL;
    }
    free(xu);
    n_edge += 4;
  }
  free(x), free(w);
  printf("  overflow bound: %lld outputs compared\n", n_edge);
}

/* ---- refusals ---- */

static void test_refusals(void) {
  static int8_t x[64];
  static uint8_t w[64], out[64];
  int32_t acc[16], z[4] = {0, 7, -8, 8};
  mrtq_conv2d_shape s = mrtq_fc_shape(2, 4, 4);
  mrtq_qoperand qx, qw;
  mrtq_onednn_attr a;
  mrtq_rq rq;
  mrtq_fastconv p;
  static uint8_t mem[1 << 14];
  float sc = 0.5f;
  memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw), memset(&a, 0, sizeof a);
  qx.data = x, qx.type = MRTQ_S8, qw.data = w, qw.type = MRTQ_S4;
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.25, 0, -128, 127, &rq), MRTQ_OK, "rq");
  CHECK_EQ(mrtq_conv2d_s32(&s, &qx, &qw, NULL, acc), MRTQ_OK, "s4 weights taken");
  /* zero points of int4 weights: [-8, 7] */
  qw.zp = 8;
  CHECK_REFUSED(mrtq_conv2d_s32(&s, &qx, &qw, NULL, acc), MRTQ_EINVAL, "w->zp: outside w->type's range");
  qw.zp = -9;
  CHECK_REFUSED(mrtq_fc_q8(2, 4, 4, &rq, 1, &qx, &qw, NULL, MRTQ_S8, out), MRTQ_EINVAL, "w->zp: outside w->type's range");
  qw.zp = -8;
  CHECK_EQ(mrtq_fc_q8(2, 4, 4, &rq, 1, &qx, &qw, NULL, MRTQ_S8, out), MRTQ_OK, "zp -8");
  qw.zp = 0, qw.zp_ch = z;
  CHECK_REFUSED(mrtq_conv2d_q8(&s, &rq, 1, &qx, &qw, NULL, MRTQ_S8, out), MRTQ_EINVAL, "w->zp_ch[o]: outside w->type's range");
  z[3] = 7;
  CHECK_EQ(mrtq_conv2d_q8(&s, &rq, 1, &qx, &qw, NULL, MRTQ_S8, out), MRTQ_OK, "zp_ch in [-8, 7]");
  qw.zp_ch = NULL;
  /* activations and outputs stay 8-bit */
  qx.type = MRTQ_S4;
  CHECK_REFUSED(mrtq_conv2d_s32(&s, &qx, &qw, NULL, acc), MRTQ_EUNSUPPORTED, "x->type: must be MRTQ_S8 or MRTQ_U8");
  qx.type = MRTQ_S8;
  CHECK_REFUSED(mrtq_fc_q8(2, 4, 4, &rq, 1, &qx, &qw, NULL, MRTQ_S4, out), MRTQ_EUNSUPPORTED, "dst_type: must be MRTQ_S8 or MRTQ_U8");
  /* other weight types */
  qw.type = MRTQ_S16;
  CHECK_REFUSED(mrtq_conv2d_s32(&s, &qx, &qw, NULL, acc), MRTQ_EUNSUPPORTED, "w->type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S4");
  qw.type = MRTQ_S32;
  CHECK_REFUSED(mrtq_fc_s32(2, 4, 4, &qx, &qw, NULL, acc), MRTQ_EUNSUPPORTED, "w->type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S4");
  qw.type = (mrtq_dtype)0;
  CHECK_REFUSED(mrtq_conv2d_s32(&s, &qx, &qw, NULL, acc), MRTQ_EINVAL,
                "w->type: not an mrtq_dtype (0: a zero-initialised operand)");
  qw.type = (mrtq_dtype)9;
  CHECK_REFUSED(mrtq_fc_s32(2, 4, 4, &qx, &qw, NULL, acc), MRTQ_EINVAL, "w->type: not an mrtq_dtype");
  qw.type = MRTQ_S4;
  /* batch matmul: 8-bit operands only */
  CHECK_REFUSED(mrtq_matmul_s32(1, 2, 4, 4, &qx, &qw, 1, NULL, acc), MRTQ_EUNSUPPORTED, "b->type: must be MRTQ_S8 or MRTQ_U8");
  CHECK_REFUSED(mrtq_matmul_q8(1, 2, 4, 4, &rq, 1, &qx, &qw, 1, NULL, MRTQ_S8, out), MRTQ_EUNSUPPORTED,
                "b->type: must be MRTQ_S8 or MRTQ_U8");
  {
    mrtq_qoperand qa = qw, qb = qx;
    CHECK_REFUSED(mrtq_matmul_s32(1, 2, 4, 4, &qa, &qb, 1, NULL, acc), MRTQ_EUNSUPPORTED, "a->type: must be MRTQ_S8 or MRTQ_U8");
  }
  /* the oneDNN-convention functions and the fast core: no int4 */
  a.oscale = &sc;
  CHECK_REFUSED(mrtq_conv2d_onednn(&s, &a, &qx, &qw, NULL, MRTQ_S8, out), MRTQ_EUNSUPPORTED,
                "w->type: must be MRTQ_S8 or MRTQ_U8 (oneDNN has no int4 weights; mrtq_conv2d_q8 takes them)");
  CHECK_REFUSED(mrtq_fc_onednn(2, 4, 4, &a, &qx, &qw, NULL, MRTQ_S8, out), MRTQ_EUNSUPPORTED,
                "w->type: must be MRTQ_S8 or MRTQ_U8 (oneDNN has no int4 weights");
  qw.zp = 100; /* outside int4: the type is refused first, not the zero point */
  CHECK_REFUSED(mrtq_conv2d_onednn(&s, &a, &qx, &qw, NULL, MRTQ_S8, out), MRTQ_EUNSUPPORTED, "w->type: must be MRTQ_S8 or MRTQ_U8");
  CHECK_REFUSED(mrtq_fc_onednn(2, 4, 4, &a, &qx, &qw, NULL, MRTQ_S8, out), MRTQ_EUNSUPPORTED, "w->type: must be MRTQ_S8 or MRTQ_U8");
  qw.zp = 0;
  qw.type = MRTQ_S8;
  CHECK_EQ(mrtq_fc_onednn(2, 4, 4, &a, &qx, &qw, NULL, MRTQ_S8, out), MRTQ_OK, "the same call with int8 weights");
  qw.type = MRTQ_S4;
  /* the fast core packs int4 weights (tests/test_fastconv.c compares its bytes with mrtq_conv2d_q8's) */
  CHECK_EQ(mrtq_fastconv_init(&s, &qw, mem, sizeof mem, &p), MRTQ_OK, "fast core, int4 weights");
  CHECK_EQ(mrtq_fastconv_init_fc(2, 4, 4, &qw, mem, sizeof mem, &p), MRTQ_OK, "fast core, int4 weights (inner product)");
  {
    static uint8_t scr[1 << 14];
    CHECK_REFUSED(mrtq_fastconv_onednn(&p, &a, &qx, NULL, MRTQ_S8, scr, sizeof scr, NULL, out), MRTQ_EUNSUPPORTED,
                  "p: weights packed from other than MRTQ_S8");
  }
  /* a depthwise filter in TFLite's layout with int4 weights: taken */
  {
    mrtq_conv2d_shape d;
    memset(&d, 0, sizeof d);
    d.n = 1, d.c = 3, d.h = d.w = 3, d.o = 3, d.kh = d.kw = 2, d.stride_h = d.stride_w = d.dil_h = d.dil_w = 1;
    d.groups = 3, d.layout = MRTQ_NHWC, d.w_layout = MRTQ_W_TFLITE_DW;
    CHECK_EQ(mrtq_conv2d_q8(&d, &rq, 1, &qx, &qw, NULL, MRTQ_U8, out), MRTQ_OK, "depthwise, TFLite's filter");
    CHECK_REFUSED(mrtq_conv2d_onednn(&d, &a, &qx, &qw, NULL, MRTQ_S8, out), MRTQ_EUNSUPPORTED, "oneDNN has no int4 weights");
  }
}

/* ---- pack / unpack ---- */

static void test_pack_unpack(void) {
  int8_t v[40], back[48];
  uint8_t pk[32], mine[32];
  int a, b;
  size_t n, i;
  /* every byte: its two nibbles, sign-extended */
  for (a = 0; a < 256; a++) {
    uint8_t byte = (uint8_t)a;
    int8_t two[2];
    CHECK_EQ(mrtq_s4_unpack(&byte, 2, two), MRTQ_OK, "unpack");
    CHECK_EQ(two[0], (a & 15) >= 8 ? (a & 15) - 16 : (a & 15), "low nibble of 0x%02x", a);
    CHECK_EQ(two[1], (a >> 4) >= 8 ? (a >> 4) - 16 : (a >> 4), "high nibble of 0x%02x", a);
    n_pack += 2;
  }
  /* every pair of values: one byte, low nibble first */
  for (a = -8; a <= 7; a++)
    for (b = -8; b <= 7; b++) {
      int8_t two[2], got[2];
      uint8_t byte = 0x5A;
      two[0] = (int8_t)a, two[1] = (int8_t)b;
      CHECK_EQ(mrtq_s4_pack(two, 2, &byte), MRTQ_OK, "pack");
      CHECK_EQ(byte, (uint8_t)((a & 15) | (b & 15) << 4), "pack(%d, %d)", a, b);
      CHECK_EQ(mrtq_s4_unpack(&byte, 2, got), MRTQ_OK, "unpack");
      CHECK(got[0] == a && got[1] == b);
      n_pack += 3;
    }
  /* TFLite's documented example (portable_tensor_utils.h): {0x12, 0x34} -> {2, 1, 4, 3} */
  {
    const uint8_t ex[2] = {0x12, 0x34};
    CHECK_EQ(mrtq_s4_unpack(ex, 4, back), MRTQ_OK, "example");
    CHECK(back[0] == 2 && back[1] == 1 && back[2] == 4 && back[3] == 3);
    CHECK_EQ(mrtq_s4_pack(back, 4, pk), MRTQ_OK, "example");
    CHECK(pk[0] == 0x12 && pk[1] == 0x34);
    n_pack += 6;
  }
  /* round trips for n = 0 .. 40, odd and even; guards after the output */
  for (n = 0; n <= 40; n++) {
    size_t nb = (n + 1) / 2;
    for (i = 0; i < n; i++) v[i] = (int8_t)th_range(-8, 7);
    memset(pk, 0xFF, sizeof pk);
    CHECK_EQ(mrtq_s4_pack(v, n, pk), MRTQ_OK, "pack n %zu", n);
    memset(mine, 0xFF, sizeof mine);
    nib_pack(v, n, mine, 0); /* the unused high nibble written as 0 */
    CHECK(memcmp(pk, mine, sizeof pk) == 0);
    for (i = nb; i < sizeof pk; i++) CHECK_EQ(pk[i], 0xFF, "pack wrote byte %zu (n %zu)", i, n);
    if (n % 2) CHECK_EQ(pk[nb - 1] >> 4, 0, "odd n %zu: the unused high nibble", n);
    memset(back, 0x7F, sizeof back);
    CHECK_EQ(mrtq_s4_unpack(pk, n, back), MRTQ_OK, "unpack n %zu", n);
    for (i = 0; i < n; i++) CHECK_EQ(back[i], v[i], "round trip n %zu element %zu", n, i);
    for (i = n; i < sizeof back; i++) CHECK_EQ(back[i], 0x7F, "unpack wrote element %zu (n %zu)", i, n);
    /* junk in the unused nibble is never read */
    if (n % 2) {
      pk[nb - 1] = (uint8_t)(pk[nb - 1] | 0xA0);
      CHECK_EQ(mrtq_s4_unpack(pk, n, back), MRTQ_OK, "unpack n %zu", n);
      CHECK_EQ(back[n - 1], v[n - 1], "last element, junk beside it (n %zu)", n);
      CHECK_EQ(back[n], 0x7F, "n %zu", n);
    }
    for (i = 0; i < n; i++) CHECK_EQ(back[i], nib_get(pk, i), "the test's decoder, n %zu element %zu", n, i);
    /* in place: pack over the values, then unpack over the bytes */
    {
      int8_t buf[40];
      memcpy(buf, v, n);
      CHECK_EQ(mrtq_s4_pack(buf, n, buf), MRTQ_OK, "pack in place");
      CHECK(n == 0 || memcmp(buf, mine, nb) == 0);
      CHECK_EQ(mrtq_s4_unpack(buf, n, buf), MRTQ_OK, "unpack in place");
      CHECK(n == 0 || memcmp(buf, v, n) == 0);
    }
    n_pack += (long long)(3 * n + nb);
  }
  /* refusals: nothing written */
  memset(pk, 0x33, sizeof pk);
  v[0] = 1, v[1] = 8, v[2] = 0;
  CHECK_REFUSED(mrtq_s4_pack(v, 3, pk), MRTQ_ERANGE, "src[i]: outside [-8, 7]");
  CHECK_EQ(pk[0], 0x33, "nothing written");
  v[1] = 0, v[2] = -9;
  CHECK_REFUSED(mrtq_s4_pack(v, 3, pk), MRTQ_ERANGE, "src[i]: outside [-8, 7] (MRTQ_S4's range), for every i < n");
  CHECK_EQ(pk[0], 0x33, "nothing written");
  v[2] = 127;
  CHECK_EQ(mrtq_s4_pack(v, 2, pk), MRTQ_OK, "n = 2 does not look at v[2]");
  CHECK_REFUSED(mrtq_s4_pack(NULL, 3, pk), MRTQ_EINVAL, "src: NULL");
  CHECK_REFUSED(mrtq_s4_pack(v, 2, NULL), MRTQ_EINVAL, "dst: NULL");
  CHECK_REFUSED(mrtq_s4_unpack(NULL, 3, back), MRTQ_EINVAL, "src: NULL");
  CHECK_REFUSED(mrtq_s4_unpack(pk, 1, NULL), MRTQ_EINVAL, "dst: NULL");
  CHECK_EQ(mrtq_s4_pack(NULL, 0, NULL), MRTQ_OK, "n = 0");
  CHECK_EQ(mrtq_s4_unpack(NULL, 0, NULL), MRTQ_OK, "n = 0");
  printf("  pack / unpack: %lld outputs compared\n", n_pack);
}

/* The int4 convolution equals the int8 one on the unpacked weights (TFLite's
 * own route), for both depthwise layouts and both activation layouts. */
static void test_equals_unpacked_int8(void) {
  long long cmp = 0;
  int it;
  for (it = 0; it < 200; it++) {
    layer L;
    size_t nx, nw, ny, i;
    int8_t *x8, *w8;
    uint8_t *w4, *y4, *y8;
    int32_t *a4, *a8, zch[32];
    mrtq_conv2d_shape s;
    mrtq_qoperand qx, qw4, qw8;
    mrtq_rq rq;
    draw_shape(&L, it % 2);
    memset(&s, 0, sizeof s);
    s.n = (size_t)L.n, s.c = (size_t)L.c, s.h = (size_t)L.h, s.w = (size_t)L.w, s.o = (size_t)L.o;
    s.kh = (size_t)L.kh, s.kw = (size_t)L.kw, s.stride_h = (size_t)L.sh, s.stride_w = (size_t)L.sw;
    s.dil_h = (size_t)L.dh, s.dil_w = (size_t)L.dw, s.groups = (size_t)L.groups;
    s.pad_top = (size_t)L.pt, s.pad_left = (size_t)L.pl, s.pad_bottom = (size_t)L.pb, s.pad_right = (size_t)L.pr;
    s.layout = it % 4 < 2 ? MRTQ_NHWC : MRTQ_NCHW;
    s.w_layout = L.kind == 1 && it % 8 >= 4 ? MRTQ_W_TFLITE_DW : MRTQ_W_LIKE_X;
    nx = (size_t)L.n * L.c * L.h * L.w, nw = tfl_wcount(&L), ny = (size_t)L.n * L.o * L.ho * L.wo;
    x8 = (int8_t *)malloc(nx), w8 = (int8_t *)malloc(nw), w4 = (uint8_t *)malloc(nw / 2 + 1);
    y4 = (uint8_t *)malloc(ny), y8 = (uint8_t *)malloc(ny);
    a4 = (int32_t *)malloc(ny * sizeof(int32_t)), a8 = (int32_t *)malloc(ny * sizeof(int32_t));
    for (i = 0; i < nx; i++) x8[i] = (int8_t)th_range(-128, 127);
    for (i = 0; i < nw / 2 + 1; i++) w4[i] = (uint8_t)th_rand32();
    CHECK_EQ(mrtq_s4_unpack(w4, nw, w8), MRTQ_OK, "unpack");
    for (i = 0; i < (size_t)L.o && i < 32; i++) zch[i] = (int32_t)th_range(-8, 7);
    memset(&qx, 0, sizeof qx), memset(&qw4, 0, sizeof qw4);
    qx.data = x8, qx.type = MRTQ_S8, qx.zp = (int32_t)th_range(-128, 127);
    qw4.data = w4, qw4.type = MRTQ_S4, qw4.zp_ch = L.o <= 32 ? zch : NULL;
    qw8 = qw4, qw8.data = w8, qw8.type = MRTQ_S8;
    CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.0123, 3, -128, 127, &rq), MRTQ_OK, "rq");
    CHECK_EQ(mrtq_conv2d_s32(&s, &qx, &qw4, NULL, a4), MRTQ_OK, "s4");
    CHECK_EQ(mrtq_conv2d_s32(&s, &qx, &qw8, NULL, a8), MRTQ_OK, "s8");
    CHECK(memcmp(a4, a8, ny * sizeof(int32_t)) == 0);
    CHECK_EQ(mrtq_conv2d_q8(&s, &rq, 1, &qx, &qw4, NULL, MRTQ_S8, y4), MRTQ_OK, "s4");
    CHECK_EQ(mrtq_conv2d_q8(&s, &rq, 1, &qx, &qw8, NULL, MRTQ_S8, y8), MRTQ_OK, "s8");
    CHECK(memcmp(y4, y8, ny) == 0);
    cmp += 2 * (long long)ny;
    free(x8), free(w8), free(w4), free(y4), free(y8), free(a4), free(a8);
  }
  printf("  int4 = unpacked int8: %lld outputs compared\n", cmp);
}

int main(void) {
  TH_RUN(test_pack_unpack);
  TH_RUN(test_random_layers);
  TH_RUN(test_equals_unpacked_int8);
  TH_RUN(test_overflow_bound);
  TH_RUN(test_refusals);
  return th_finish("test_int4");
}
