/* Pooling (mrtq/pool.h) against oracles written here: each input is first
 * copied into an explicitly padded NCHW array whose padding cells are marked,
 * then max / TFLite average (exact rational rounding, ties away from zero,
 * from oracle.h) / MRT average (sum with zero padding, then mrtq_rq_apply,
 * whose families are tested on their own) are computed per window; random
 * shapes, both layouts, int8 and uint8, and the shape errors. */
#include <stdlib.h>

#include "harness.h"
#include "mrtq.h"
#include "oracle.h"

#define PADCELL 1000 /* marks a padding cell in the oracle's copy */

static void test_random(void) {
  static uint8_t x[4000], out_max[8000], out_avg[8000], out_rq[8000];
  int trial;
  long long n_cmp = 0;
  for (trial = 0; trial < 400; trial++) {
    mrtq_pool2d p;
    mrtq_rq rq;
    size_t ho = 0, wo = 0, hp, wp, nx, i, n, c, oy, ox, ky, kx;
    int32_t *xp, qmin, qmax, zx;
    int u;
    mrtq_status st;
    memset(&p, 0, sizeof p);
    p.n = (size_t)th_range(1, 2), p.c = (size_t)th_range(1, 5), p.h = (size_t)th_range(1, 12), p.w = (size_t)th_range(1, 12);
    p.kh = (size_t)th_range(1, 4), p.kw = (size_t)th_range(1, 4), p.stride_h = (size_t)th_range(1, 3), p.stride_w = (size_t)th_range(1, 3);
    p.pad_top = (size_t)th_range(0, (int64_t)p.kh - 1), p.pad_bottom = (size_t)th_range(0, (int64_t)p.kh - 1);
    p.pad_left = (size_t)th_range(0, (int64_t)p.kw - 1), p.pad_right = (size_t)th_range(0, (int64_t)p.kw - 1);
    p.layout = (th_rand32() & 1u) ? MRTQ_NHWC : MRTQ_NCHW, p.type = (th_rand32() & 1u) ? MRTQ_U8 : MRTQ_S8;
    u = p.type == MRTQ_U8;
    qmin = u ? (int32_t)th_range(0, 30) : (int32_t)th_range(-128, -100);
    qmax = u ? (int32_t)th_range(200, 255) : (int32_t)th_range(100, 127);
    zx = u ? (int32_t)th_range(0, 255) : (int32_t)th_range(-128, 127);
    st = mrtq_pool2d_out(&p, &ho, &wo);
    if (p.kh > p.h + p.pad_top + p.pad_bottom || p.kw > p.w + p.pad_left + p.pad_right) {
      CHECK_EQ(st, MRTQ_ESHAPE, "window larger than the padded input");
      continue;
    }
    CHECK_EQ(st, MRTQ_OK, "shape");
    hp = p.h + p.pad_top + p.pad_bottom, wp = p.w + p.pad_left + p.pad_right;
    CHECK_EQ(ho, (hp - p.kh) / p.stride_h + 1, "ho");
    nx = p.n * p.c * p.h * p.w;
    for (i = 0; i < nx; i++) x[i] = (uint8_t)th_rand32();
    CHECK_EQ(mrtq_rq_init((mrtq_scheme)(trial % 5), 1.0 / (double)(p.kh * p.kw) * 0.9, (int32_t)th_range(-5, 5),
                          u ? 0 : -128, u ? 255 : 127, &rq),
             MRTQ_OK, "rq");
    CHECK_EQ(mrtq_maxpool2d(&p, x, qmin, qmax, out_max), MRTQ_OK, "max");
    CHECK_EQ(mrtq_avgpool2d_tflite(&p, x, qmin, qmax, out_avg), MRTQ_OK, "avg");
    CHECK_EQ(mrtq_avgpool2d_rq(&p, &rq, x, zx, out_rq), MRTQ_OK, "avg rq");
    /* the oracle's padded NCHW copy */
    xp = (int32_t *)malloc(p.n * p.c * hp * wp * sizeof(int32_t));
    if (!xp) return;
    for (n = 0; n < p.n; n++)
      for (c = 0; c < p.c; c++)
        for (oy = 0; oy < hp; oy++)
          for (ox = 0; ox < wp; ox++) {
            int32_t v = PADCELL;
            if (oy >= p.pad_top && oy < p.pad_top + p.h && ox >= p.pad_left && ox < p.pad_left + p.w) {
              size_t yy = oy - p.pad_top, xx = ox - p.pad_left;
              size_t at = p.layout == MRTQ_NCHW ? ((n * p.c + c) * p.h + yy) * p.w + xx : ((n * p.h + yy) * p.w + xx) * p.c + c;
              v = u ? (int32_t)x[at] : (int32_t)(int8_t)x[at];
            }
            xp[((n * p.c + c) * hp + oy) * wp + ox] = v;
          }
    for (n = 0; n < p.n; n++)
      for (c = 0; c < p.c; c++)
        for (oy = 0; oy < ho; oy++)
          for (ox = 0; ox < wo; ox++) {
            int32_t mx = INT32_MIN, cnt = 0, got_max, got_avg, got_rq, lo = u ? 0 : -128, hi = u ? 255 : 127;
            int64_t sum = 0, sumz = 0, avg;
            size_t at = p.layout == MRTQ_NCHW ? ((n * p.c + c) * ho + oy) * wo + ox : ((n * ho + oy) * wo + ox) * p.c + c;
            for (ky = 0; ky < p.kh; ky++)
              for (kx = 0; kx < p.kw; kx++) {
                int32_t v = xp[((n * p.c + c) * hp + oy * p.stride_h + ky) * wp + ox * p.stride_w + kx];
                if (v == PADCELL) continue; /* padding: never the max, not counted, a real zero for MRT */
                if (v > mx) mx = v;
                sum += v, sumz += v - zx, cnt++;
              }
            CHECK(cnt > 0);
            got_max = u ? out_max[at] : (int8_t)out_max[at];
            got_avg = u ? out_avg[at] : (int8_t)out_avg[at];
            got_rq = u ? out_rq[at] : (int8_t)out_rq[at];
            CHECK_EQ(got_max, mx < qmin ? qmin : mx > qmax ? qmax : mx, "max trial %d", trial);
            avg = (int64_t)o_round_half_away(sum, cnt);
            CHECK_EQ(got_avg, avg < qmin ? qmin : avg > qmax ? qmax : avg, "avg trial %d sum %lld cnt %d", trial, (long long)sum, cnt);
            CHECK_EQ(got_rq, mrtq_rq_apply(&rq, (int32_t)sumz, lo, hi), "rq trial %d", trial);
            n_cmp += 3;
          }
    free(xp);
  }
  printf("  %lld pooled outputs compared\n", n_cmp);
}

static void test_errors(void) {
  mrtq_pool2d p;
  mrtq_rq rq;
  uint8_t x[64] = {0}, o[64];
  size_t ho = 77, wo = 77;
  memset(&p, 0, sizeof p);
  p.n = 1, p.c = 1, p.h = 4, p.w = 4, p.kh = 2, p.kw = 2, p.stride_h = 2, p.stride_w = 2, p.type = MRTQ_S8;
  CHECK_EQ(mrtq_pool2d_out(&p, &ho, &wo), MRTQ_OK, "2x2/2");
  CHECK(ho == 2 && wo == 2);
  ho = wo = 77;
  p.pad_top = 2;
  CHECK_REFUSED(mrtq_pool2d_out(&p, &ho, &wo), MRTQ_ESHAPE, "p->pad_top, p->pad_bottom: must be < p->kh");
  p.pad_top = 0, p.pad_bottom = 2;
  CHECK_REFUSED(mrtq_pool2d_out(&p, &ho, &wo), MRTQ_ESHAPE, "p->pad_top, p->pad_bottom: must be < p->kh");
  p.pad_bottom = 0, p.pad_right = 2;
  CHECK_REFUSED(mrtq_pool2d_out(&p, &ho, &wo), MRTQ_ESHAPE, "p->pad_left, p->pad_right: must be < p->kw");
  p.pad_right = 0, p.stride_w = 0;
  CHECK_REFUSED(mrtq_pool2d_out(&p, &ho, &wo), MRTQ_ESHAPE, "p->stride_h, p->stride_w: must be >= 1");
  p.stride_w = 2, p.kw = 0;
  CHECK_REFUSED(mrtq_pool2d_out(&p, &ho, &wo), MRTQ_ESHAPE, "p->kh, p->kw: must be >= 1");
  p.kw = 2, p.c = 0;
  CHECK_REFUSED(mrtq_pool2d_out(&p, &ho, &wo), MRTQ_ESHAPE, "p->n, p->c, p->h, p->w: must be >= 1");
  p.c = 1, p.kh = 5;
  CHECK_REFUSED(mrtq_pool2d_out(&p, &ho, &wo), MRTQ_ESHAPE, "p->kh: larger than the padded height");
  p.kh = 2, p.kw = 5;
  CHECK_REFUSED(mrtq_pool2d_out(&p, &ho, &wo), MRTQ_ESHAPE, "p->kw: larger than the padded width");
  p.kw = 2, p.h = SIZE_MAX / 2;
  CHECK_REFUSED(mrtq_pool2d_out(&p, &ho, &wo), MRTQ_ESHAPE, "p: sizes overflow size_t");
  p.h = 4, p.n = SIZE_MAX / 2;
  CHECK_REFUSED(mrtq_pool2d_out(&p, &ho, &wo), MRTQ_ESHAPE, "p: element count overflows size_t");
  p.n = 1, p.layout = (mrtq_layout)7;
  CHECK_REFUSED(mrtq_pool2d_out(&p, &ho, &wo), MRTQ_EINVAL, "p->layout: must be MRTQ_NCHW or MRTQ_NHWC");
  p.layout = MRTQ_NCHW;
  CHECK_REFUSED(mrtq_pool2d_out(NULL, &ho, &wo), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_pool2d_out(&p, NULL, &wo), MRTQ_EINVAL, "ho, wo: NULL");
  CHECK(ho == 77 && wo == 77); /* refusals wrote nothing */
  CHECK_REFUSED(mrtq_maxpool2d(&p, NULL, -128, 127, o), MRTQ_EINVAL, "x: NULL");
  CHECK_REFUSED(mrtq_maxpool2d(&p, x, -128, 127, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_maxpool2d(&p, x, 5, 4, o), MRTQ_EINVAL, "qmin, qmax: qmin > qmax");
  CHECK_REFUSED(mrtq_avgpool2d_tflite(&p, x, 5, 4, o), MRTQ_EINVAL, "qmin, qmax: qmin > qmax");
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.25, 0, -128, 127, &rq), MRTQ_OK, "rq");
  CHECK_REFUSED(mrtq_avgpool2d_rq(&p, &rq, x, 200, o), MRTQ_EINVAL, "x_zp: outside p->type");
  CHECK_REFUSED(mrtq_avgpool2d_rq(&p, NULL, x, 0, o), MRTQ_EINVAL, "rq: NULL");
  {
    mrtq_rq bad = rq;
    bad.m.mult = 0, bad.m.shift = 0, bad.scheme = MRTQ_FP32, bad.scale = 0.25f, bad.m.shift = 3;
    CHECK_REFUSED(mrtq_avgpool2d_rq(&p, &bad, x, 0, o), MRTQ_EINVAL, "rq->m.shift: must be 0 with MRTQ_FP32");
  }
  CHECK_REFUSED(mrtq_avgpool2d_rq(&p, &rq, NULL, 0, o), MRTQ_EINVAL, "x: NULL");
  CHECK_REFUSED(mrtq_avgpool2d_rq(&p, &rq, x, 0, NULL), MRTQ_EINVAL, "out: NULL");
  /* the element type: 0 (a zeroed struct) and the types pooling does not take */
  p.type = (mrtq_dtype)0;
  CHECK_REFUSED(mrtq_maxpool2d(&p, x, -128, 127, o), MRTQ_EINVAL, "p->type: not an mrtq_dtype");
  p.type = MRTQ_S32;
  CHECK_REFUSED(mrtq_avgpool2d_tflite(&p, x, -128, 127, o), MRTQ_EUNSUPPORTED, "p->type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S16");
  p.type = MRTQ_S16; /* the MRT form stays 8-bit */
  CHECK_REFUSED(mrtq_avgpool2d_rq(&p, &rq, x, 0, o), MRTQ_EUNSUPPORTED, "p->type: must be MRTQ_S8 or MRTQ_U8");
  p.type = MRTQ_S4;
  CHECK_REFUSED(mrtq_avgpool2d_rq(&p, &rq, x, 0, o), MRTQ_EUNSUPPORTED, "p->type: must be MRTQ_S8 or MRTQ_U8");
  p.type = MRTQ_S8;
  p.kh = p.kw = 3000, p.h = p.w = 3000;
  CHECK_REFUSED(mrtq_avgpool2d_rq(&p, &rq, x, 0, o), MRTQ_EOVERFLOW, "p->kh, p->kw: kh * kw * 255 exceeds int32");
  /* hand-checked: 2x2 windows of {1, 2, 3, 4} average 2.5 -> 3; {-1, -2, -3, -4} -> -3 */
  {
    int8_t v[4] = {1, 2, 3, 4}, w[4] = {-1, -2, -3, -4}, r = 0;
    mrtq_pool2d q;
    memset(&q, 0, sizeof q);
    q.type = MRTQ_S8, q.n = q.c = 1, q.h = q.w = 2, q.kh = q.kw = 2, q.stride_h = q.stride_w = 1;
    CHECK_EQ(mrtq_avgpool2d_tflite(&q, v, -128, 127, &r), MRTQ_OK, "avg");
    CHECK_EQ(r, 3, "2.5 rounds away from zero");
    CHECK_EQ(mrtq_avgpool2d_tflite(&q, w, -128, 127, &r), MRTQ_OK, "avg");
    CHECK_EQ(r, -3, "-2.5 rounds away from zero");
    CHECK_EQ(mrtq_maxpool2d(&q, w, -128, 127, &r), MRTQ_OK, "max");
    CHECK_EQ(r, -1, "max");
  }
}

/* bounds outside the data type are refused (they would wrap when stored) */
static void test_bounds_outside_type(void) {
  int8_t x[4] = {1, 2, 3, 4}, out[1] = {9};
  mrtq_pool2d p;
  memset(&p, 0, sizeof p);
  p.n = p.c = 1, p.h = p.w = p.kh = p.kw = 2, p.stride_h = p.stride_w = 1, p.layout = MRTQ_NCHW, p.type = MRTQ_S8;
  CHECK_EQ(mrtq_maxpool2d(&p, x, -128, 127, out), MRTQ_OK, "int8 range");
  CHECK_EQ(out[0], 4, "max");
  out[0] = 9;
  CHECK_REFUSED(mrtq_maxpool2d(&p, x, -129, 127, out), MRTQ_EINVAL, "qmin: outside p->type");
  CHECK_REFUSED(mrtq_avgpool2d_tflite(&p, x, -128, 200, out), MRTQ_EINVAL, "qmax: outside p->type");
  p.type = MRTQ_U8;
  CHECK_REFUSED(mrtq_maxpool2d(&p, x, -1, 255, out), MRTQ_EINVAL, "qmin: outside p->type");
  CHECK_REFUSED(mrtq_maxpool2d(&p, x, 0, 256, out), MRTQ_EINVAL, "qmax: outside p->type");
  CHECK_EQ(out[0], 9, "untouched");
}

/* int16 max and TFLite average pooling, against TFLite's reference structure
 * restated here (integer_ops/pooling.h, int16_t): per output, the window's
 * origin in_y = oy * stride - pad_top, its tap range clamped to the input
 * (filter_y_start = max(0, -in_y), filter_y_end = min(kh, h - in_y)), an
 * int32 sum with the count of taps, then (sum +- count / 2) / count with C's
 * truncating division; NHWC offsets as TFLite's Offset(), NCHW by its own
 * formula. Random shapes and values (int16 extremes mixed in), every layout,
 * windows of one tap, windows at the padding. */
static int32_t t16_at(const int16_t *x, const mrtq_pool2d *p, size_t n, size_t c, size_t y, size_t xx) {
  return p->layout == MRTQ_NHWC ? x[((n * p->h + y) * p->w + xx) * p->c + c] : x[((n * p->c + c) * p->h + y) * p->w + xx];
}
static void test_int16(void) {
  static int16_t x[6000], out_max[12000], out_avg[12000];
  long long n_cmp = 0, ties = 0;
  int trial;
  for (trial = 0; trial < 600; trial++) {
    mrtq_pool2d p;
    size_t ho = 0, wo = 0, nx, i, n, c, oy, ox;
    int32_t qmin = trial % 3 ? -32768 : (int32_t)th_range(-32768, 0), qmax = trial % 4 ? 32767 : (int32_t)th_range(0, 32767);
    memset(&p, 0, sizeof p);
    p.n = (size_t)th_range(1, 2), p.c = (size_t)th_range(1, 4), p.h = (size_t)th_range(1, 12), p.w = (size_t)th_range(1, 12);
    p.kh = (size_t)th_range(1, 5), p.kw = (size_t)th_range(1, 5), p.stride_h = (size_t)th_range(1, 3), p.stride_w = (size_t)th_range(1, 3);
    p.pad_top = (size_t)th_range(0, (int64_t)p.kh - 1), p.pad_bottom = (size_t)th_range(0, (int64_t)p.kh - 1);
    p.pad_left = (size_t)th_range(0, (int64_t)p.kw - 1), p.pad_right = (size_t)th_range(0, (int64_t)p.kw - 1);
    p.layout = (th_rand32() & 1u) ? MRTQ_NHWC : MRTQ_NCHW, p.type = MRTQ_S16;
    if (mrtq_pool2d_out(&p, &ho, &wo) != MRTQ_OK) continue;
    nx = p.n * p.c * p.h * p.w;
    for (i = 0; i < nx; i++) {
      uint32_t k = th_rand32() % 8u;
      x[i] = k == 0 ? -32768 : k == 1 ? 32767 : k == 2 ? (int16_t)th_range(-3, 3) : (int16_t)th_range(-32768, 32767);
    }
    CHECK_EQ(mrtq_maxpool2d(&p, x, qmin, qmax, out_max), MRTQ_OK, "max16");
    CHECK_EQ(mrtq_avgpool2d_tflite(&p, x, qmin, qmax, out_avg), MRTQ_OK, "avg16");
    for (n = 0; n < p.n; n++)
      for (oy = 0; oy < ho; oy++)
        for (ox = 0; ox < wo; ox++)
          for (c = 0; c < p.c; c++) {
            int in_y = (int)(oy * p.stride_h) - (int)p.pad_top, in_x = (int)(ox * p.stride_w) - (int)p.pad_left;
            int fy0 = in_y < 0 ? -in_y : 0, fx0 = in_x < 0 ? -in_x : 0;
            int fy1 = (int)p.kh < (int)p.h - in_y ? (int)p.kh : (int)p.h - in_y;
            int fx1 = (int)p.kw < (int)p.w - in_x ? (int)p.kw : (int)p.w - in_x;
            int32_t acc = 0, mx = -32768, avg;
            int count = 0, fy, fx;
            size_t at = p.layout == MRTQ_NHWC ? ((n * ho + oy) * wo + ox) * p.c + c : ((n * p.c + c) * ho + oy) * wo + ox;
            for (fy = fy0; fy < fy1; fy++)
              for (fx = fx0; fx < fx1; fx++) {
                int32_t v = t16_at(x, &p, n, c, (size_t)(in_y + fy), (size_t)(in_x + fx));
                acc += v, count++;
                mx = v > mx ? v : mx;
              }
            CHECK(count > 0);
            if (count % 2 == 0 && acc % count == count / 2 * (acc < 0 ? -1 : 1) && acc % count != 0) ties++;
            avg = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
            avg = avg < qmin ? qmin : avg > qmax ? qmax : avg;
            mx = mx < qmin ? qmin : mx > qmax ? qmax : mx;
            if (out_max[at] != mx) CHECK_EQ(out_max[at], mx, "max16 trial %d at %zu", trial, at);
            if (out_avg[at] != avg) CHECK_EQ(out_avg[at], avg, "avg16 trial %d at %zu", trial, at);
            n_cmp += 2;
          }
  }
  CHECK(ties > 0);
  printf("  int16 max / average pooling: %lld outputs compared (%lld exact ties)\n", n_cmp, ties);
}

/* int16 hand cases, the int32-sum bound and the type rules */
static void test_int16_edges(void) {
  int16_t x[4] = {-32768, -32768, -32768, -32767}, y[4] = {32767, 32767, 32766, 32766}, out[1] = {7};
  int16_t t[4] = {1, 2, -2, -2};
  mrtq_pool2d p;
  memset(&p, 0, sizeof p);
  p.n = p.c = 1, p.h = p.w = p.kh = p.kw = 2, p.stride_h = p.stride_w = 1, p.layout = MRTQ_NHWC, p.type = MRTQ_S16;
  CHECK_EQ(mrtq_avgpool2d_tflite(&p, x, -32768, 32767, out), MRTQ_OK, "low");
  CHECK_EQ(out[0], -32768, "-32767.75 -> -32768");
  CHECK_EQ(mrtq_avgpool2d_tflite(&p, y, -32768, 32767, out), MRTQ_OK, "high");
  CHECK_EQ(out[0], 32767, "32766.5 -> 32767 (half away from zero)");
  CHECK_EQ(mrtq_avgpool2d_tflite(&p, t, -32768, 32767, out), MRTQ_OK, "tie");
  CHECK_EQ(out[0], 0, "-1/4 -> 0");
  t[3] = -3;
  CHECK_EQ(mrtq_avgpool2d_tflite(&p, t, -32768, 32767, out), MRTQ_OK, "tie");
  CHECK_EQ(out[0], -1, "-2/4 = -0.5 -> -1");
  CHECK_EQ(mrtq_maxpool2d(&p, x, -100, 100, out), MRTQ_OK, "max clamp");
  CHECK_EQ(out[0], -100, "clamped to qmin");
  CHECK_REFUSED(mrtq_maxpool2d(&p, x, -32769, 0, out), MRTQ_EINVAL, "qmin: outside p->type");
  CHECK_REFUSED(mrtq_avgpool2d_tflite(&p, x, 0, 32768, out), MRTQ_EINVAL, "qmax: outside p->type");
  /* the int32 window sum: kh * kw <= 65535 */
  p.h = p.kh = 65535, p.w = p.kw = 1;
  out[0] = 7;
  {
    static int16_t big[65536];
    size_t i;
    for (i = 0; i < 65535; i++) big[i] = -32768;
    CHECK_EQ(mrtq_avgpool2d_tflite(&p, big, -32768, 32767, out), MRTQ_OK, "65535 taps");
    CHECK_EQ(out[0], -32768, "sum -2^31 + 2^15");
    CHECK_EQ(mrtq_maxpool2d(&p, big, -32768, 32767, out), MRTQ_OK, "max has no sum");
    p.h = p.kh = 65536;
    out[0] = 7;
    CHECK_REFUSED(mrtq_avgpool2d_tflite(&p, big, -32768, 32767, out), MRTQ_EOVERFLOW,
                  "p->kh, p->kw: a window holds more than 65535 valid elements (min(kh, h) * min(kw, w)) for MRTQ_S16");
    CHECK_EQ(out[0], 7, "untouched");
    { /* a huge window over a small input holds few valid elements: TFLite sums them without trouble */
      mrtq_pool2d q = p;
      int16_t o4[4];
      q.h = q.w = 2, q.kh = q.kw = 300, q.pad_top = q.pad_left = q.pad_bottom = q.pad_right = 149;
      big[0] = -32768, big[1] = 3, big[2] = 4, big[3] = 5; /* sum -32756 over 4 valid taps: -8189 exactly */
      CHECK_EQ(mrtq_avgpool2d_tflite(&q, big, -32768, 32767, o4), MRTQ_OK, "300x300 window over 2x2");
      CHECK_EQ(o4[0], -8189, "(-32756 - 2) / 4 truncated");
      big[0] = -32768;
    }
    p.type = MRTQ_S8; /* 8-bit windows of that size are summed exactly (int64) */
    CHECK_EQ(mrtq_avgpool2d_tflite(&p, big, -128, 127, out), MRTQ_OK, "int8, 65536 taps");
  }
}

/* mrtq_maxpool2d_xnn: the maximum over the taps inside the input, written out
 * here with signed index arithmetic; with dilation 1 and padding below the
 * window it must equal mrtq_maxpool2d. */
static void test_xnn_max(void) {
  static uint8_t x[2 * 3 * 11 * 11], out[2 * 3 * 40 * 40], ref[2 * 3 * 40 * 40];
  long long compared = 0;
  for (int it = 0; it < 3000; it++) {
    mrtq_pool2d p;
    memset(&p, 0, sizeof p);
    size_t dh = (size_t)th_range(1, 3), dw = (size_t)th_range(1, 3), ho = 0, wo = 0;
    p.n = (size_t)th_range(1, 2), p.c = (size_t)th_range(1, 3), p.h = (size_t)th_range(1, 11), p.w = (size_t)th_range(1, 11);
    p.kh = (size_t)th_range(1, 4), p.kw = (size_t)th_range(1, 4);
    p.stride_h = (size_t)th_range(1, 4), p.stride_w = (size_t)th_range(1, 4);
    p.pad_top = (size_t)th_range(0, 5), p.pad_left = (size_t)th_range(0, 5);
    p.pad_bottom = dh > 1 || dw > 1 ? 0 : (size_t)th_range(0, 5), p.pad_right = dh > 1 || dw > 1 ? 0 : (size_t)th_range(0, 5);
    if (dh > 1 && dw == 1 && p.pad_left > (p.kw - 1) / 2) p.pad_left = (p.kw - 1) / 2;
    p.layout = it % 2 ? MRTQ_NHWC : MRTQ_NCHW, p.type = it % 3 ? MRTQ_S8 : MRTQ_U8;
    /* acceptance by brute force: the dilated window fits the padded input and
     * every output window has a tap inside it (scanned tap by tap) */
    int fits = 1;
    for (int ax = 0; ax < 2; ax++) {
      size_t sz = ax ? p.w : p.h, k = ax ? p.kw : p.kh, st = ax ? p.stride_w : p.stride_h, d = ax ? dw : dh;
      size_t p0 = ax ? p.pad_left : p.pad_top, padded = sz + p0 + (ax ? p.pad_right : p.pad_bottom);
      if ((k - 1) * d + 1 > padded) { fits = 0; break; }
      for (size_t o = 0; o <= (padded - (k - 1) * d - 1) / st; o++) {
        int hit = 0;
        for (size_t t = 0; t < k; t++) hit |= o * st + t * d >= p0 && o * st + t * d < p0 + sz;
        fits &= hit;
      }
    }
    mrtq_status acc = mrtq_maxpool2d_xnn_out(&p, dh, dw, &ho, &wo);
    CHECK_EQ(acc == MRTQ_OK, fits, "it %d: accepted iff every window holds an input tap", it);
    if (acc != MRTQ_OK) continue;
    int32_t lo = p.type == MRTQ_S8 ? -128 : 0, qmin = lo + (int32_t)th_range(0, 20), qmax = lo + 255 - (int32_t)th_range(0, 20);
    for (size_t i = 0; i < p.n * p.c * p.h * p.w; i++) x[i] = (uint8_t)th_rand32();
    CHECK_EQ(mrtq_maxpool2d_xnn(&p, dh, dw, x, qmin, qmax, out), MRTQ_OK, "it %d", it);
    for (size_t b = 0; b < p.n; b++)
      for (size_t c = 0; c < p.c; c++)
        for (size_t oy = 0; oy < ho; oy++)
          for (size_t ox = 0; ox < wo; ox++) {
            int32_t m = INT32_MIN;
            int any = 0;
            for (long ky = 0; ky < (long)p.kh; ky++)
              for (long kx = 0; kx < (long)p.kw; kx++) {
                long iy = (long)(oy * p.stride_h) + ky * (long)dh - (long)p.pad_top;
                long ix = (long)(ox * p.stride_w) + kx * (long)dw - (long)p.pad_left;
                if (iy < 0 || ix < 0 || iy >= (long)p.h || ix >= (long)p.w) continue;
                size_t at = p.layout == MRTQ_NCHW ? ((b * p.c + c) * p.h + (size_t)iy) * p.w + (size_t)ix
                                                  : ((b * p.h + (size_t)iy) * p.w + (size_t)ix) * p.c + c;
                int32_t v = p.type == MRTQ_S8 ? (int8_t)x[at] : x[at];
                m = v > m ? v : m, any = 1;
              }
            CHECK(any);
            m = m < qmin ? qmin : m > qmax ? qmax : m;
            size_t o = p.layout == MRTQ_NCHW ? ((b * p.c + c) * ho + oy) * wo + ox : ((b * ho + oy) * wo + ox) * p.c + c;
            CHECK_EQ(p.type == MRTQ_S8 ? (int8_t)out[o] : out[o], m, "it %d out %zu", it, o);
            compared++;
          }
    if (dh == 1 && dw == 1 && mrtq_maxpool2d(&p, x, qmin, qmax, ref) == MRTQ_OK)
      CHECK(memcmp(ref, out, p.n * p.c * ho * wo) == 0);
  }
  printf("  XNNPACK max pooling (dilation, wide padding): %lld outputs compared\n", compared);
  mrtq_pool2d p;
  size_t ho, wo;
  memset(&p, 0, sizeof p);
  p.n = p.c = 1, p.h = 2, p.w = 1, p.kh = 1, p.kw = 2, p.stride_h = p.stride_w = 3, p.pad_bottom = 1, p.pad_left = 1;
  p.layout = MRTQ_NHWC, p.type = MRTQ_S8;
  CHECK_REFUSED(mrtq_maxpool2d(&p, x, -128, 127, out), MRTQ_ESHAPE, "must be < p->kh");
  CHECK_EQ(mrtq_maxpool2d_xnn_out(&p, 1, 1, &ho, &wo), MRTQ_OK, "the issue's layer");
  CHECK_EQ(ho * wo, 1, "one output");
  CHECK_REFUSED(mrtq_maxpool2d_xnn_out(NULL, 1, 1, &ho, &wo), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_maxpool2d_xnn_out(&p, 1, 1, NULL, &wo), MRTQ_EINVAL, "ho, wo: NULL");
  CHECK_REFUSED(mrtq_maxpool2d_xnn_out(&p, 0, 1, &ho, &wo), MRTQ_ESHAPE, "dil_h, dil_w: must be >= 1");
  CHECK_REFUSED(mrtq_maxpool2d_xnn_out(&p, 2, 1, &ho, &wo), MRTQ_EUNSUPPORTED, "p->pad_bottom, p->pad_right: with a dilation");
  p.pad_bottom = 0, p.pad_left = 1, p.kw = 3, p.w = 3, p.stride_w = 1;
  p.pad_left = 2;
  CHECK_REFUSED(mrtq_maxpool2d_xnn_out(&p, 2, 1, &ho, &wo), MRTQ_EUNSUPPORTED, "p->pad_left: above (kw - 1) / 2");
  p.pad_left = 0, p.kh = 2;
  CHECK_REFUSED(mrtq_maxpool2d_xnn_out(&p, 3, 1, &ho, &wo), MRTQ_ESHAPE, "p->kh: the dilated window is larger");
  p.kh = 1, p.kw = 2;
  CHECK_REFUSED(mrtq_maxpool2d_xnn_out(&p, 1, 4, &ho, &wo), MRTQ_ESHAPE, "p->kw: the dilated window is larger");
  p.pad_top = 2, p.stride_h = 1;
  CHECK_REFUSED(mrtq_maxpool2d_xnn_out(&p, 1, 1, &ho, &wo), MRTQ_ESHAPE, "an output row whose window is padding only");
  p.pad_top = 0, p.pad_right = 3;
  CHECK_REFUSED(mrtq_maxpool2d_xnn_out(&p, 1, 1, &ho, &wo), MRTQ_ESHAPE, "an output column whose window is padding");
  p.pad_right = 0, p.layout = (mrtq_layout)7;
  CHECK_REFUSED(mrtq_maxpool2d_xnn_out(&p, 1, 1, &ho, &wo), MRTQ_EINVAL, "p->layout");
  p.layout = MRTQ_NCHW, p.h = 0;
  CHECK_REFUSED(mrtq_maxpool2d_xnn_out(&p, 1, 1, &ho, &wo), MRTQ_ESHAPE, "p->n, p->c, p->h, p->w");
  p.h = 2, p.kw = 0;
  CHECK_REFUSED(mrtq_maxpool2d_xnn_out(&p, 1, 1, &ho, &wo), MRTQ_ESHAPE, "p->kh, p->kw");
  p.kw = 2, p.stride_w = 0;
  CHECK_REFUSED(mrtq_maxpool2d_xnn_out(&p, 1, 1, &ho, &wo), MRTQ_ESHAPE, "p->stride_h, p->stride_w");
  p.stride_w = 1, p.w = SIZE_MAX / 2;
  CHECK_REFUSED(mrtq_maxpool2d_xnn_out(&p, 1, 1, &ho, &wo), MRTQ_ESHAPE, "p: sizes overflow size_t");
  p.w = 3, p.n = SIZE_MAX / 8, p.c = 1000;
  CHECK_REFUSED(mrtq_maxpool2d_xnn_out(&p, 1, 1, &ho, &wo), MRTQ_ESHAPE, "p: element count overflows size_t");
  p.n = p.c = 1;
  /* a shape query answers at once for sizes no image has (no scan over the outputs) */
  p.h = (size_t)1 << 40, p.w = 1, p.kh = 3, p.kw = 1, p.stride_h = 1, p.stride_w = 1;
  p.pad_top = p.pad_bottom = p.pad_left = p.pad_right = 0;
  CHECK_EQ(mrtq_maxpool2d_xnn_out(&p, 5, 1, &ho, &wo), MRTQ_OK, "2^40 rows");
  CHECK_EQ(ho, ((size_t)1 << 40) - 10, "2^40 rows, dilated window 11");
  p.h = p.w = (size_t)1 << 61, p.kh = p.kw = 1;
  CHECK_REFUSED(mrtq_maxpool2d_xnn_out(&p, 1, 1, &ho, &wo), MRTQ_ESHAPE, "p: element count overflows size_t");
  p.h = 2, p.w = 3, p.kh = 1, p.kw = 2;
  CHECK_REFUSED(mrtq_maxpool2d_xnn(&p, 1, 1, NULL, -128, 127, out), MRTQ_EINVAL, "x: NULL");
  CHECK_REFUSED(mrtq_maxpool2d_xnn(&p, 1, 1, x, -128, 127, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_maxpool2d_xnn(&p, 1, 1, x, -129, 127, out), MRTQ_EINVAL, "qmin: outside p->type");
  CHECK_REFUSED(mrtq_maxpool2d_xnn(&p, 1, 1, x, -128, 128, out), MRTQ_EINVAL, "qmax: outside p->type");
  CHECK_REFUSED(mrtq_maxpool2d_xnn(&p, 1, 1, x, 5, 4, out), MRTQ_EINVAL, "qmin, qmax: qmin > qmax");
  p.type = MRTQ_S16;
  CHECK_REFUSED(mrtq_maxpool2d_xnn(&p, 1, 1, x, -128, 127, out), MRTQ_EUNSUPPORTED, "p->type");
  p.type = (mrtq_dtype)0;
  CHECK_REFUSED(mrtq_maxpool2d_xnn(&p, 1, 1, x, -128, 127, out), MRTQ_EINVAL, "p->type: not an mrtq_dtype");
}

int main(void) {
  TH_RUN(test_int16);
  TH_RUN(test_int16_edges);
  TH_RUN(test_bounds_outside_type);
  TH_RUN(test_random);
  TH_RUN(test_errors);
  TH_RUN(test_xnn_max);
  return th_finish("test_pool");
}
