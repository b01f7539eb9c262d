/* TFLite's TRANSPOSE_CONV (mrtq/transpose_conv.h) against an independent
 * restatement of TFLite's reference kernels written here:
 *  - the oracle is the GATHER form (the library scatters): for each output
 *    element (b, oy, ox, co) it walks the filter taps (fy, fx) and takes the
 *    input row iy = (oy + pad_top - fy) / stride_h only when that division is
 *    exact and iy is inside the input (likewise ix), summing in exact int64;
 *    this is the same set of products TFLite's scatter loop adds (its output
 *    position iy stride - pad + fy, cropped to the output), found the other
 *    way round;
 *  - requantization as TFLite computes it, restated from tests/oracle.h's
 *    exact 128-bit primitives: MultiplyByQuantizedMultiplier(int32) as
 *    gemmlowp's SRDHM then RDIVPOT (default build) or one rounding
 *    (TFLITE_SINGLE_ROUNDING), MultiplyByQuantizedMultiplier(int64) with the
 *    multiplier first rounded to 16 bits, then + zero point, clamp;
 *  - Prepare restated: QuantizeMultiplier by frexp / round half away,
 *    (double)s_x (double)s_w / (double)s_y per channel (int8, int16) and the
 *    float product for uint8; ComputePaddingHeightWidth in C int arithmetic
 *    with the output size as its "in" size;
 *  - seeded random shapes: size-0 and size-1 dimensions, strides 1 to 5 (above
 *    the kernel too), SAME / VALID on odd totals, output sizes consistent with
 *    the input and not, per-channel and per-tensor multipliers, narrowed
 *    clamps; edges: the int32 (8-bit) and 2^47 (16x8) overflow bounds hit
 *    exactly with extreme data, saturation at both ends, the (0, 0)
 *    multiplier, every refusal. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "mrtq.h"
#include "oracle.h"

static long long compared_s8, compared_u8, compared_s16, hit_lo, hit_hi, outside;

/* ---- TFLite's Prepare, restated ---- */

static void o_quantize_multiplier(double d, int32_t *qm, int32_t *shift) {
  int e = 0;
  double q;
  long long f;
  if (d == 0.0) {
    *qm = 0, *shift = 0;
    return;
  }
  q = frexp(d, &e);
  f = (long long)round(q * 2147483648.0);
  if (f == 2147483648LL) f /= 2, e++;
  if (e < -31) e = 0, f = 0;
  *qm = (int32_t)f, *shift = e;
}

/* ComputePaddingHeightWidth for one axis, as TFLite's int code (division
 * truncating toward zero), with in = the transposed conv's output size. */
static long o_pad(int same, long in, long k, long stride) {
  long out = same ? (in + stride - 1) / stride : (in + stride - k) / stride;
  long total = (out - 1) * stride + k - in;
  return total > 0 ? total / 2 : 0;
}

/* ---- TFLite's requantization, restated ---- */

static int o_out_of_domain; /* set when x 2^shift leaves int32 (TFLite overflows; mrtq saturates) */

static int32_t o_mbqm32(int64_t x, int32_t m, int32_t shift, int single) {
  if (single) {
    i128 v = o_round_half_up((i128)x * m, o_pow2(31 - shift));
    return o_sat32(v);
  } else {
    int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
    i128 xl = (i128)x * o_pow2(left);
    if (xl > INT32_MAX || xl < INT32_MIN) o_out_of_domain = 1;
    return o_rdivpot(o_srdhm(o_sat32(xl), m), right);
  }
}

/* MultiplyByQuantizedMultiplier(int64_t): multiplier to 16 bits, then one
 * rounding; the int64 result taken modulo 2^32 (static_cast<int32_t>). */
static int32_t o_mbqm64(int64_t x, int32_t m, int32_t shift) {
  i128 rm = m < 0x7FFF0000 ? o_floor_div((i128)m + 32768, 65536) : 32767;
  i128 r = o_round_half_up((i128)x * rm, o_pow2(15 - shift));
  uint32_t u = (uint32_t)(uint64_t)(int64_t)r;
  return u >= 2147483648u ? (int32_t)((int64_t)u - 4294967296LL) : (int32_t)u;
}

static int32_t o_clamp(int64_t v, int32_t lo, int32_t hi) { return v < lo ? lo : v > hi ? hi : (int32_t)v; }

/* ---- the gather-form oracle ---- */

typedef struct tc_case {
  mrtq_tflite_tconv_shape s;
  mrtq_dtype t;
  int32_t zx, zw;
  const void *x, *w;
  const int64_t *bias; /* NULL: none */
  const mrtq_rq *rq;
  size_t nrq;
} tc_case;

static int64_t o_xval(const tc_case *k, size_t i) {
  if (k->t == MRTQ_U8) return ((const uint8_t *)k->x)[i];
  if (k->t == MRTQ_S8) return ((const int8_t *)k->x)[i];
  return ((const int16_t *)k->x)[i];
}
static int64_t o_wval(const tc_case *k, size_t i) {
  return k->t == MRTQ_U8 ? ((const uint8_t *)k->w)[i] : ((const int8_t *)k->w)[i];
}

static int32_t o_tconv_at(const tc_case *k, size_t b, size_t oy, size_t ox, size_t co) {
  const mrtq_tflite_tconv_shape *s = &k->s;
  const mrtq_rq *r = &k->rq[k->nrq == 1 ? 0 : co];
  int64_t acc = 0;
  size_t fy, fx, ci;
  for (fy = 0; fy < s->kh; fy++)
    for (fx = 0; fx < s->kw; fx++) {
      long ny = (long)oy + (long)s->pad_top - (long)fy, nx = (long)ox + (long)s->pad_left - (long)fx;
      long iy, ix;
      if (ny < 0 || nx < 0 || ny % (long)s->stride_h || nx % (long)s->stride_w) continue;
      iy = ny / (long)s->stride_h, ix = nx / (long)s->stride_w;
      if (iy >= (long)s->h || ix >= (long)s->w) continue;
      for (ci = 0; ci < s->c; ci++) {
        int64_t xv = o_xval(k, ((b * s->h + (size_t)iy) * s->w + (size_t)ix) * s->c + ci) - k->zx;
        int64_t wv = o_wval(k, ((co * s->kh + fy) * s->kw + fx) * s->c + ci) - k->zw;
        acc += xv * wv;
      }
    }
  if (k->bias) acc += k->bias[co];
  if (k->t == MRTQ_S16) return o_clamp(o_mbqm64(acc, r->m.mult, r->m.shift), r->qmin, r->qmax);
  return o_clamp((int64_t)o_mbqm32(acc, r->m.mult, r->m.shift, r->scheme == MRTQ_Q31_RNDNU) + r->zp, r->qmin, r->qmax);
}

/* Run the kernel and compare every output; returns the status. */
static mrtq_status tc_run(const tc_case *k) {
  const mrtq_tflite_tconv_shape *s = &k->s;
  size_t ny = s->n * s->oh * s->ow * s->o, bytes = 0, i, b, oy, ox, co;
  mrtq_qoperand x = {k->x, k->t, k->zx, NULL}, w = {k->w, k->t == MRTQ_S16 ? MRTQ_S8 : k->t, k->zw, NULL};
  int64_t *scratch;
  void *out;
  int32_t *b32 = NULL;
  mrtq_status st;
  CHECK_EQ(mrtq_tflite_tconv_scratch_size(s, k->t, &bytes), MRTQ_OK, "scratch size");
  CHECK_EQ(bytes, ny * (k->t == MRTQ_S16 ? 8 : 4), "scratch bytes");
  scratch = (int64_t *)malloc(bytes + 8);
  out = malloc(ny * 2 + 2);
  if (k->t != MRTQ_S16 && k->bias) {
    b32 = (int32_t *)malloc(s->o * sizeof(int32_t) + 4);
    for (i = 0; i < s->o; i++) b32[i] = (int32_t)k->bias[i];
  }
  if (k->t == MRTQ_S16)
    st = mrtq_tflite_tconv_s16x8(s, k->rq, k->nrq, &x, &w, k->bias, scratch, (int16_t *)out);
  else
    st = mrtq_tflite_tconv_q8(s, k->rq, k->nrq, &x, &w, b32, scratch, out);
  if (st == MRTQ_OK)
    for (b = 0; b < s->n; b++)
      for (oy = 0; oy < s->oh; oy++)
        for (ox = 0; ox < s->ow; ox++)
          for (co = 0; co < s->o; co++) {
            size_t at = ((b * s->oh + oy) * s->ow + ox) * s->o + co;
            const mrtq_rq *r = &k->rq[k->nrq == 1 ? 0 : co];
            int32_t want, got;
            o_out_of_domain = 0;
            want = o_tconv_at(k, b, oy, ox, co);
            got = k->t == MRTQ_U8 ? ((uint8_t *)out)[at] : k->t == MRTQ_S8 ? ((int8_t *)out)[at] : ((int16_t *)out)[at];
            CHECK_EQ(got, want, "type %d n%zu h%zu w%zu c%zu o%zu k%zux%zu s%zux%zu out%zux%zu pad%zu,%zu at %zu",
                     (int)k->t, s->n, s->h, s->w, s->c, s->o, s->kh, s->kw, s->stride_h, s->stride_w, s->oh, s->ow,
                     s->pad_top, s->pad_left, at);
            if (o_out_of_domain) outside++;
            if (want == r->qmin) hit_lo++;
            if (want == r->qmax) hit_hi++;
            if (k->t == MRTQ_S8) compared_s8++;
            else if (k->t == MRTQ_U8) compared_u8++;
            else compared_s16++;
          }
  free(scratch), free(out), free(b32);
  return st;
}

static void fill_data(void *p, size_t n, mrtq_dtype t) {
  size_t i;
  int mode = (int)th_range(0, 3); /* 0: uniform; 1: extremes; 2: small; 3: one value */
  int64_t lo = t == MRTQ_U8 ? 0 : t == MRTQ_S8 ? -128 : -32768, hi = t == MRTQ_U8 ? 255 : t == MRTQ_S8 ? 127 : 32767;
  int64_t one = th_range(lo, hi);
  for (i = 0; i < n; i++) {
    int64_t v = mode == 0 ? th_range(lo, hi) : mode == 1 ? (th_rand32() & 1 ? lo : hi) : mode == 2 ? th_range(-3, 3) : one;
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    if (t == MRTQ_U8) ((uint8_t *)p)[i] = (uint8_t)v;
    else if (t == MRTQ_S8) ((int8_t *)p)[i] = (int8_t)v;
    else ((int16_t *)p)[i] = (int16_t)v;
  }
}

/* A float scale (1 + f / den) 2^e, the two random draws sequenced (the
 * order of a call's arguments is unspecified: same values on every compiler). */
static float rand_scale(int64_t den, int elo, int ehi) {
  double f = 1.0 + (double)th_range(0, den - 1) / (double)den;
  int e = (int)th_range(elo, ehi);
  return (float)ldexp(f, e);
}

/* ---- random layers ---- */

static void random_layers(mrtq_dtype t, int count) {
  int it;
  for (it = 0; it < count; it++) {
    tc_case k;
    mrtq_tflite_tconv_shape *s = &k.s;
    mrtq_rq rq[8];
    float sw[8], sx = rand_scale(1001, -9, -5);
    float sy = rand_scale(1001, -9, t == MRTQ_S16 ? 12 : 5);
    int64_t bias[8];
    size_t i, nx, nw;
    void *x, *w;
    int32_t qlo = t == MRTQ_U8 ? 0 : t == MRTQ_S8 ? -128 : -32768, qhi = t == MRTQ_U8 ? 255 : t == MRTQ_S8 ? 127 : 32767;
    int32_t zy = t == MRTQ_S16 ? 0 : (int32_t)th_range(qlo, qhi), lo = qlo, hi = qhi;
    int same = (int)(th_rand32() & 1);
    memset(&k, 0, sizeof k);
    s->n = (size_t)th_range(0, 2), s->h = (size_t)th_range(0, 5), s->w = (size_t)th_range(0, 5);
    s->c = (size_t)th_range(0, 4), s->o = (size_t)th_range(0, 5);
    if (th_range(0, 9) == 0) s->n = 1, s->h = s->w = 1; /* 1 x 1 images */
    s->kh = (size_t)th_range(0, 9) == 0 ? 0 : (size_t)th_range(1, 5);
    s->kw = (size_t)th_range(1, 5);
    s->stride_h = (size_t)th_range(1, 5), s->stride_w = (size_t)th_range(1, 5);
    if (th_range(0, 2)) { /* the output size TFLite's shapes imply (odd and even totals) */
      size_t lo_h = s->h ? (s->h - 1) * s->stride_h + 1 : 0, lo_w = s->w ? (s->w - 1) * s->stride_w + 1 : 0;
      s->oh = lo_h + (size_t)th_range(0, (int64_t)s->stride_h - 1 + (int64_t)s->kh);
      s->ow = lo_w + (size_t)th_range(0, (int64_t)s->stride_w - 1 + (int64_t)s->kw);
    } else {
      s->oh = (size_t)th_range(0, 13), s->ow = (size_t)th_range(0, 13);
    }
    if (th_range(0, 4)) {
      CHECK_EQ(mrtq_tflite_tconv_pad(same ? MRTQ_TFLITE_PAD_SAME : MRTQ_TFLITE_PAD_VALID, s), MRTQ_OK, "pad");
      CHECK_EQ(s->pad_top, o_pad(same, (long)s->oh, (long)s->kh, (long)s->stride_h), "pad_top");
      CHECK_EQ(s->pad_left, o_pad(same, (long)s->ow, (long)s->kw, (long)s->stride_w), "pad_left");
    } else {
      s->pad_top = (size_t)th_range(0, 6), s->pad_left = (size_t)th_range(0, 6);
    }
    nx = s->n * s->h * s->w * s->c, nw = s->o * s->kh * s->kw * s->c;
    x = malloc(nx * 2 + 2), w = malloc(nw + 1);
    fill_data(x, nx, t);
    fill_data(w, nw, t == MRTQ_S16 ? MRTQ_S8 : t);
    k.t = t, k.x = x, k.w = w;
    k.zx = t == MRTQ_S16 ? 0 : (int32_t)th_range(qlo, qhi);
    k.zw = t == MRTQ_U8 ? (int32_t)th_range(0, 255) : 0;
    k.nrq = t == MRTQ_U8 || th_range(0, 3) == 0 || s->o == 0 ? 1 : s->o;
    for (i = 0; i < 8; i++) {
      sw[i] = rand_scale(1001, -10, -4);
      if (th_range(0, 15) == 0) sw[i] = 0.0f; /* a zero scale: (0, 0), output clamp(zp) */
      bias[i] = t == MRTQ_S16 ? th_range(-((int64_t)1 << 40), (int64_t)1 << 40) : th_range(-200000, 200000);
    }
    if (th_range(0, 2) == 0) { /* a narrowed clamp (a fused activation) */
      lo = (int32_t)th_range(qlo, zy), hi = (int32_t)th_range(zy, qhi);
    }
    CHECK_EQ(mrtq_tflite_tconv_rq_init(sx, sw, k.nrq, sy, zy, lo, hi, t, rq), MRTQ_OK, "rq_init");
    for (i = 0; i < k.nrq; i++) { /* Prepare's multiplier, restated */
      int32_t qm, sh;
      double r = t == MRTQ_U8 ? (double)(float)(sx * sw[i]) / (double)sy : (double)sx * (double)sw[i] / (double)sy;
      o_quantize_multiplier(r, &qm, &sh);
      CHECK_EQ(rq[i].m.mult, qm, "mult %zu", i);
      CHECK_EQ(rq[i].m.shift, sh, "shift %zu", i);
      if (t != MRTQ_S16 && th_range(0, 3) == 0) rq[i].scheme = MRTQ_Q31_RNDNU;
    }
    k.rq = rq, k.bias = th_range(0, 3) ? bias : NULL;
    CHECK_EQ(tc_run(&k), MRTQ_OK, "random layer %d", it);
    free(x), free(w);
  }
}

static void test_random_s8(void) { random_layers(MRTQ_S8, 20000); }
static void test_random_u8(void) { random_layers(MRTQ_U8, 12000); }
static void test_random_s16(void) { random_layers(MRTQ_S16, 12000); }

/* Edge multipliers and shifts over fixed data: every shift from -31 to 30
 * (8-bit) and -31 to 7 (16x8), the largest and smallest multipliers, ties. */
static void test_extreme_multipliers(void) {
  static const int32_t mults[] = {1073741824, 1073741825, 1518500250, 2147483646, 2147483647};
  int8_t x8[2 * 3 * 3 * 2], w8[3 * 2 * 2 * 2];
  int16_t x16[2 * 3 * 3 * 2];
  int32_t b32[3];
  int64_t b64[3];
  size_t i, mi;
  int sh;
  mrtq_tflite_tconv_shape s = {2, 3, 3, 2, 3, 2, 2, 7, 6, 2, 2, 0, 0};
  CHECK_EQ(mrtq_tflite_tconv_pad(MRTQ_TFLITE_PAD_SAME, &s), MRTQ_OK, "pad");
  for (i = 0; i < sizeof x8; i++) x8[i] = (int8_t)(i % 2 ? 127 - (int)i : -128 + 3 * (int)i);
  for (i = 0; i < sizeof w8; i++) w8[i] = (int8_t)(i % 3 ? -128 + (int)i : 127 - 2 * (int)i);
  for (i = 0; i < sizeof x16 / 2; i++) x16[i] = (int16_t)(i % 2 ? 32767 - 97 * (int)i : -32768 + 131 * (int)i);
  for (i = 0; i < 3; i++) b32[i] = (int32_t)(i * 1000 - 1500), b64[i] = (int64_t)i * 123456789 - 200000000;
  for (mi = 0; mi < sizeof mults / sizeof mults[0]; mi++)
    for (sh = -31; sh <= 30; sh++) {
      mrtq_rq rq[3];
      tc_case k;
      int c;
      memset(&k, 0, sizeof k);
      k.s = s, k.t = MRTQ_S8, k.x = x8, k.w = w8, k.zx = -3, k.nrq = 3;
      for (c = 0; c < 3; c++) {
        mrtq_mult m = {mults[(mi + (size_t)c) % 5], sh};
        CHECK_EQ(mrtq_rq_from_mult(c == 1 ? MRTQ_Q31_RNDNU : MRTQ_Q31_DBL, m, c - 1, -128, 127, &rq[c]), MRTQ_OK, "rq");
      }
      {
        int64_t bb[3] = {b32[0], b32[1], b32[2]};
        k.bias = bb, k.rq = rq;
        CHECK_EQ(tc_run(&k), MRTQ_OK, "s8 mult %d shift %d", (int)mults[mi], sh);
      }
      if (sh <= 7) {
        for (c = 0; c < 3; c++) {
          mrtq_mult m = {mults[(mi + (size_t)c) % 5], sh};
          CHECK_EQ(mrtq_rq_from_mult(MRTQ_Q31_DBL, m, 0, -32768, 32767, &rq[c]), MRTQ_OK, "rq16");
        }
        k.t = MRTQ_S16, k.x = x16, k.zx = 0, k.bias = b64;
        CHECK_EQ(tc_run(&k), MRTQ_OK, "s16 mult %d shift %d", (int)mults[mi], sh);
      }
    }
}

/* The overflow bounds, met exactly: accepted at the bound with the data that
 * reaches it, refused one above. */
static void test_overflow_bounds(void) {
  /* int8: T = c (1 x 1 image and kernel), |X| = |W| = 128 with zx = 0:
     T 2^14 + |bias| <= 2^31 - 1 */
  size_t c = 131071, i;
  int8_t *x = (int8_t *)malloc(c), *w = (int8_t *)malloc(c);
  int32_t bias = 16383;
  int64_t b64, scr[2];
  int32_t *scratch32 = (int32_t *)scr;
  mrtq_tflite_tconv_shape s = {1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0};
  mrtq_qoperand qx = {x, MRTQ_S8, 0, NULL}, qw = {w, MRTQ_S8, 0, NULL};
  mrtq_rq rq;
  mrtq_mult one = {1073741824, 0}; /* 0.5 */
  int64_t *scratch64 = scr;
  int8_t y8;
  s.c = c;
  for (i = 0; i < c; i++) x[i] = -128, w[i] = -128;
  CHECK_EQ(mrtq_rq_from_mult(MRTQ_Q31_DBL, one, 0, -128, 127, &rq), MRTQ_OK, "rq");
  CHECK_EQ(mrtq_tflite_tconv_q8(&s, &rq, 1, &qx, &qw, &bias, scratch32, &y8), MRTQ_OK, "at the bound");
  CHECK_EQ(scratch32[0], 2147467264, "the sum 131071 * 2^14 (the bias is added after the scratch)");
  CHECK_EQ(y8, 127, "saturated high");
  bias = -16383;
  CHECK_EQ(mrtq_tflite_tconv_q8(&s, &rq, 1, &qx, &qw, &bias, scratch32, &y8), MRTQ_OK, "at the bound");
  bias = 16384;
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, &rq, 1, &qx, &qw, &bias, scratch32, &y8), MRTQ_EOVERFLOW,
                "s, bias: T |X| |W| + max|bias| could overflow int32");
  s.c = c + 1;
  free(x), free(w);
  x = (int8_t *)calloc(c + 1, 1), w = (int8_t *)calloc(c + 1, 1);
  qx.data = x, qw.data = w;
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, &rq, 1, &qx, &qw, NULL, scratch32, &y8), MRTQ_EOVERFLOW,
                "s, bias: T |X| |W| + max|bias| could overflow int32");
  /* T counts the taps a stride lets through: kh 5, stride 2 -> 3 rows */
  {
    mrtq_tflite_tconv_shape s2 = {1, 4, 1, 0, 1, 5, 1, 1, 1, 2, 1, 0, 0};
    /* T = c 3: 3 c 2^14 <= 2^31 - 1 -> c <= 43690 */
    s2.c = 43690;
    CHECK_EQ(mrtq_tflite_tconv_q8(&s2, &rq, 1, &qx, &qw, NULL, scratch32, &y8), MRTQ_OK, "T = 3c");
    s2.c = 43691;
    CHECK_REFUSED(mrtq_tflite_tconv_q8(&s2, &rq, 1, &qx, &qw, NULL, scratch32, &y8), MRTQ_EOVERFLOW, "T |X| |W|");
    s2.h = 2; /* min(h, ceil(kh / stride)) = 2 */
    CHECK_EQ(mrtq_tflite_tconv_q8(&s2, &rq, 1, &qx, &qw, NULL, scratch32, &y8), MRTQ_OK, "T = 2c");
  }
  free(x), free(w);
  /* 16x8: T 2^22 + |bias| < 2^47, T = 1 */
  {
    int16_t x16 = -32768, y16 = 0;
    int8_t w8 = -128;
    mrtq_tflite_tconv_shape s3 = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0};
    mrtq_qoperand q16 = {&x16, MRTQ_S16, 0, NULL}, q8 = {&w8, MRTQ_S8, 0, NULL};
    mrtq_mult m = {1073741824, -31}; /* 2^-32: rm 2^14, k = 46 */
    tc_case k;
    CHECK_EQ(mrtq_rq_from_mult(MRTQ_Q31_DBL, m, 0, -32768, 32767, &rq), MRTQ_OK, "rq16");
    b64 = ((int64_t)1 << 47) - ((int64_t)1 << 22) - 1;
    CHECK_EQ(mrtq_tflite_tconv_s16x8(&s3, &rq, 1, &q16, &q8, &b64, scratch64, &y16), MRTQ_OK, "16x8 at the bound");
    CHECK_EQ(scratch64[0], (int64_t)1 << 22, "the sum (-2^15)(-2^7)");
    memset(&k, 0, sizeof k);
    k.s = s3, k.t = MRTQ_S16, k.x = &x16, k.w = &w8, k.bias = &b64, k.rq = &rq, k.nrq = 1;
    CHECK_EQ(tc_run(&k), MRTQ_OK, "16x8 at the bound, against the oracle");
    b64 = -(((int64_t)1 << 47) - ((int64_t)1 << 22) - 1);
    CHECK_EQ(tc_run(&k), MRTQ_OK, "16x8 near -2^47");
    b64 = ((int64_t)1 << 47) - ((int64_t)1 << 22);
    CHECK_REFUSED(mrtq_tflite_tconv_s16x8(&s3, &rq, 1, &q16, &q8, &b64, scratch64, &y16), MRTQ_EOVERFLOW,
                  "s, bias: T 2^22 + max|bias| must stay below 2^47");
    b64 = INT64_MIN; /* |INT64_MIN| computed without overflow */
    CHECK_REFUSED(mrtq_tflite_tconv_s16x8(&s3, &rq, 1, &q16, &q8, &b64, scratch64, &y16), MRTQ_EOVERFLOW,
                  "s, bias: T 2^22 + max|bias|");
  }
}

/* Saturation at both ends and the (0, 0) multiplier. */
static void test_saturation_and_zero(void) {
  int8_t x[4] = {127, -128, 127, -128}, w[4] = {127, 127, -128, -128}, y[2 * 2 * 2];
  int64_t scr[4];
  int32_t *scratch = (int32_t *)scr, bias[2] = {0, 0};
  mrtq_tflite_tconv_shape s = {1, 1, 1, 2, 2, 1, 1, 2, 2, 1, 1, 0, 0};
  mrtq_qoperand qx = {x, MRTQ_S8, 0, NULL}, qw = {w, MRTQ_S8, 0, NULL};
  mrtq_rq rq[2];
  mrtq_mult big = {2147483647, 10}, zero = {0, 0};
  size_t i;
  /* 1 x 1 input, 1 x 1 kernel, 2 x 2 output: only (0, 0) receives a product */
  CHECK_EQ(mrtq_rq_from_mult(MRTQ_Q31_DBL, big, 5, -128, 127, &rq[0]), MRTQ_OK, "rq");
  CHECK_EQ(mrtq_rq_from_mult(MRTQ_Q31_DBL, zero, -7, -128, 127, &rq[1]), MRTQ_OK, "rq");
  x[1] = 127; /* channel sums: co 0: 127*127 + 127*127, co 1: 127*(-128) * 2 */
  bias[0] = -40000;
  CHECK_EQ(mrtq_tflite_tconv_q8(&s, rq, 2, &qx, &qw, bias, scratch, y), MRTQ_OK, "run");
  CHECK_EQ(y[0], -128, "saturated low: (32258 - 40000) 2^10 scaled");
  CHECK_EQ(y[1], -7, "(0, 0): clamp(zp)");
  for (i = 1; i < 4; i++) CHECK_EQ(y[2 * i], o_clamp((int64_t)o_mbqm32(-40000, big.mult, big.shift, 0) + 5, -128, 127), "bias only");
  bias[0] = 40000;
  CHECK_EQ(mrtq_tflite_tconv_q8(&s, rq, 2, &qx, &qw, bias, scratch, y), MRTQ_OK, "run");
  CHECK_EQ(y[0], 127, "saturated high");
}

/* Refusals: every reason the header gives. */
static void test_refusals(void) {
  int8_t x[8] = {0}, w[8] = {0}, y[8];
  int16_t x16[8] = {0}, y16[8];
  uint8_t xu[8] = {0}, wu[8] = {0};
  int64_t scratch[16], b64[2] = {0, 0};
  mrtq_tflite_tconv_shape s = {1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 0, 0}, t;
  mrtq_qoperand qx = {x, MRTQ_S8, 0, NULL}, qw = {w, MRTQ_S8, 0, NULL}, qu = {xu, MRTQ_U8, 3, NULL},
                qwu = {wu, MRTQ_U8, 4, NULL}, q16 = {x16, MRTQ_S16, 0, NULL}, q;
  mrtq_rq rq[2], r;
  mrtq_mult one = {1073741824, 0}, m;
  size_t bytes;
  float sw[2] = {0.5f, 0.25f}, bad[1] = {-1.0f};
  int32_t zch[2] = {0, 0};
  CHECK_EQ(mrtq_rq_from_mult(MRTQ_Q31_DBL, one, 0, -128, 127, &rq[0]), MRTQ_OK, "rq");
  rq[1] = rq[0];
  /* pad */
  CHECK_REFUSED(mrtq_tflite_tconv_pad(MRTQ_TFLITE_PAD_SAME, NULL), MRTQ_EINVAL, "s: NULL");
  CHECK_REFUSED(mrtq_tflite_tconv_pad((mrtq_tflite_padding)0, &s), MRTQ_EINVAL,
                "pad: must be MRTQ_TFLITE_PAD_SAME or MRTQ_TFLITE_PAD_VALID");
  t = s, t.stride_h = 0;
  CHECK_REFUSED(mrtq_tflite_tconv_pad(MRTQ_TFLITE_PAD_SAME, &t), MRTQ_ESHAPE, "s->stride_h: must be >= 1");
  t = s, t.stride_w = 0;
  CHECK_REFUSED(mrtq_tflite_tconv_pad(MRTQ_TFLITE_PAD_SAME, &t), MRTQ_ESHAPE, "s->stride_w: must be >= 1");
  t = s, t.oh = (size_t)INT32_MAX + 1;
  CHECK_REFUSED(mrtq_tflite_tconv_pad(MRTQ_TFLITE_PAD_SAME, &t), MRTQ_ESHAPE,
                "s: every size, stride and pad must be <= 2^31 - 1");
  /* scratch size */
  CHECK_REFUSED(mrtq_tflite_tconv_scratch_size(NULL, MRTQ_S8, &bytes), MRTQ_EINVAL, "s: NULL");
  CHECK_REFUSED(mrtq_tflite_tconv_scratch_size(&s, MRTQ_S8, NULL), MRTQ_EINVAL, "bytes: NULL");
  CHECK_REFUSED(mrtq_tflite_tconv_scratch_size(&s, MRTQ_S32, &bytes), MRTQ_EUNSUPPORTED,
                "x_type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_tconv_scratch_size(&s, (mrtq_dtype)0, &bytes), MRTQ_EINVAL, "x_type: not an mrtq_dtype");
  if (sizeof(size_t) == 8) {
    t = s, t.n = t.h = t.w = t.c = (size_t)INT32_MAX;
    CHECK_REFUSED(mrtq_tflite_tconv_scratch_size(&t, MRTQ_S8, &bytes), MRTQ_ESHAPE,
                  "s: the input's element count n h w c overflows size_t");
    t = s, t.o = t.kh = t.kw = t.c = (size_t)INT32_MAX;
    CHECK_REFUSED(mrtq_tflite_tconv_scratch_size(&t, MRTQ_S8, &bytes), MRTQ_ESHAPE,
                  "s: the filter's element count o kh kw c overflows size_t");
    t = s, t.n = t.oh = t.ow = t.o = (size_t)INT32_MAX;
    CHECK_REFUSED(mrtq_tflite_tconv_scratch_size(&t, MRTQ_S8, &bytes), MRTQ_ESHAPE,
                  "s: the output's element count n oh ow o (or its scratch bytes) overflows size_t");
  }
  /* rq_init */
  CHECK_REFUSED(mrtq_tflite_tconv_rq_init(0.5f, sw, 2, 0.5f, 0, -128, 127, (mrtq_dtype)0, rq), MRTQ_EINVAL,
                "x_type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_tflite_tconv_rq_init(0.5f, NULL, 2, 0.5f, 0, -128, 127, MRTQ_S8, rq), MRTQ_EINVAL, "s_w: NULL");
  CHECK_REFUSED(mrtq_tflite_tconv_rq_init(0.5f, sw, 2, 0.5f, 0, -128, 127, MRTQ_S8, NULL), MRTQ_EINVAL, "rq: NULL");
  CHECK_REFUSED(mrtq_tflite_tconv_rq_init(0.5f, sw, 0, 0.5f, 0, -128, 127, MRTQ_S8, rq), MRTQ_EINVAL, "nw: must be >= 1");
  CHECK_REFUSED(mrtq_tflite_tconv_rq_init(0.5f, sw, 2, 0.5f, 0, 0, 255, MRTQ_U8, rq), MRTQ_EINVAL,
                "nw: must be 1 with MRTQ_U8");
  CHECK_REFUSED(mrtq_tflite_tconv_rq_init(0.0f, sw, 2, 0.5f, 0, -128, 127, MRTQ_S8, rq), MRTQ_EINVAL,
                "s_x: must be finite and > 0");
  CHECK_REFUSED(mrtq_tflite_tconv_rq_init(0.5f, sw, 2, (float)INFINITY, 0, -128, 127, MRTQ_S8, rq), MRTQ_EINVAL,
                "s_y: must be finite and > 0");
  CHECK_REFUSED(mrtq_tflite_tconv_rq_init(0.5f, bad, 1, 0.5f, 0, -128, 127, MRTQ_S8, rq), MRTQ_EINVAL,
                "s_w[c]: must be finite and >= 0");
  CHECK_REFUSED(mrtq_tflite_tconv_rq_init(0.5f, sw, 2, 0.5f, 128, -128, 127, MRTQ_S8, rq), MRTQ_EINVAL,
                "zp_y: outside x_type");
  CHECK_REFUSED(mrtq_tflite_tconv_rq_init(0.5f, sw, 2, 0.5f, 1, -32768, 32767, MRTQ_S16, rq), MRTQ_EINVAL,
                "zp_y: must be 0 with MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_tconv_rq_init(0.5f, sw, 2, 0.5f, 0, -129, 127, MRTQ_S8, rq), MRTQ_EINVAL,
                "qmin, qmax: outside x_type");
  CHECK_REFUSED(mrtq_tflite_tconv_rq_init(0.5f, sw, 2, 0.5f, 0, 5, 4, MRTQ_S8, rq), MRTQ_EINVAL, "qmin: must be <= qmax");
  {
    float huge[1] = {3e38f};
    CHECK_REFUSED(mrtq_tflite_tconv_rq_init(1e30f, huge, 1, 1e-30f, 0, -128, 127, MRTQ_S8, rq), MRTQ_ERANGE,
                  "s_w[c]: s_x s_w[c] / s_y must be below 2^30");
  }
  CHECK_EQ(mrtq_rq_from_mult(MRTQ_Q31_DBL, one, 0, -128, 127, &rq[0]), MRTQ_OK, "rq");
  rq[1] = rq[0];
  /* q8 kernel */
  CHECK_REFUSED(mrtq_tflite_tconv_q8(NULL, rq, 1, &qx, &qw, NULL, scratch, y), MRTQ_EINVAL, "s: NULL");
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, rq, 1, NULL, &qw, NULL, scratch, y), MRTQ_EINVAL, "x: NULL");
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, rq, 1, &qx, NULL, NULL, scratch, y), MRTQ_EINVAL, "w: NULL");
  q = qx, q.data = NULL;
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, rq, 1, &q, &qw, NULL, scratch, y), MRTQ_EINVAL, "x->data: NULL");
  q = qw, q.data = NULL;
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, rq, 1, &qx, &q, NULL, scratch, y), MRTQ_EINVAL, "w->data: NULL");
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, NULL, 1, &qx, &qw, NULL, scratch, y), MRTQ_EINVAL, "rq: NULL");
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, rq, 3, &qx, &qw, NULL, scratch, y), MRTQ_EINVAL, "nrq: must be 1 or s->o");
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, rq, 1, &qx, &qw, NULL, scratch, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, rq, 1, &qx, &qw, NULL, NULL, y), MRTQ_EINVAL, "scratch: NULL");
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, rq, 1, &qx, &qw, NULL, (char *)scratch + 4, y), MRTQ_EINVAL,
                "scratch: must be aligned for int64_t");
  q = qx, q.type = MRTQ_S16;
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, rq, 1, &q, &qw, NULL, scratch, y), MRTQ_EUNSUPPORTED,
                "x->type: must be MRTQ_S8 or MRTQ_U8");
  q = qw, q.type = (mrtq_dtype)0;
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, rq, 1, &qx, &q, NULL, scratch, y), MRTQ_EINVAL, "w->type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, rq, 1, &qx, &qwu, NULL, scratch, y), MRTQ_EINVAL, "w->type: must be x->type");
  q = qx, q.zp_ch = zch;
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, rq, 1, &q, &qw, NULL, scratch, y), MRTQ_EINVAL, "x->zp_ch: must be NULL");
  q = qw, q.zp_ch = zch;
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, rq, 1, &qx, &q, NULL, scratch, y), MRTQ_EINVAL, "w->zp_ch: must be NULL");
  q = qx, q.zp = 128;
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, rq, 1, &q, &qw, NULL, scratch, y), MRTQ_EINVAL, "x->zp: outside x->type");
  q = qw, q.zp = -129;
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, rq, 1, &qx, &q, NULL, scratch, y), MRTQ_EINVAL, "w->zp: outside w->type");
  q = qw, q.zp = 1;
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, rq, 1, &qx, &q, NULL, scratch, y), MRTQ_EINVAL,
                "w->zp: must be 0 with MRTQ_S8");
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, rq, 2, &qu, &qwu, NULL, scratch, y), MRTQ_EINVAL,
                "nrq: must be 1 with MRTQ_U8");
  r = rq[0], r.scheme = MRTQ_FP32, r.m.mult = 0, r.m.shift = 0, r.scale = 1.0f;
  CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, &r, 1, &qx, &qw, NULL, scratch, y), MRTQ_EUNSUPPORTED,
                "rq->scheme: must be MRTQ_Q31_DBL or MRTQ_Q31_RNDNU");
  {
    mrtq_rq rr[2];
    rr[0] = rq[0], rr[1] = rq[0], rr[1].zp = 200;
    CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, rr, 2, &qx, &qw, NULL, scratch, y), MRTQ_EINVAL, "rq[c].zp: outside x->type");
    rr[1] = rq[0], rr[1].qmin = 5, rr[1].qmax = 4;
    CHECK_REFUSED(mrtq_tflite_tconv_q8(&s, rr, 2, &qx, &qw, NULL, scratch, y), MRTQ_EINVAL, "rq[c].qmin: must be <= qmax");
  }
  /* empty output: NULL out and scratch are fine; an empty input leaves bias only */
  t = s, t.oh = 0;
  CHECK_EQ(mrtq_tflite_tconv_q8(&t, rq, 1, &qx, &qw, NULL, NULL, NULL), MRTQ_OK, "empty output");
  t = s, t.n = 0;
  q = qx, q.data = NULL;
  CHECK_EQ(mrtq_tflite_tconv_q8(&t, rq, 1, &q, &qw, NULL, NULL, NULL), MRTQ_OK, "empty batch");
  /* 16x8 kernel */
  CHECK_EQ(mrtq_rq_from_mult(MRTQ_Q31_DBL, one, 0, -32768, 32767, &rq[0]), MRTQ_OK, "rq16");
  rq[1] = rq[0];
  CHECK_REFUSED(mrtq_tflite_tconv_s16x8(&s, rq, 1, &qx, &qw, b64, scratch, y16), MRTQ_EUNSUPPORTED,
                "x->type: must be MRTQ_S16");
  q = qw, q.type = (mrtq_dtype)9;
  CHECK_REFUSED(mrtq_tflite_tconv_s16x8(&s, rq, 1, &q16, &q, b64, scratch, y16), MRTQ_EINVAL,
                "w->type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_tflite_tconv_s16x8(&s, rq, 1, &q16, &qwu, b64, scratch, y16), MRTQ_EUNSUPPORTED,
                "w->type: must be MRTQ_S8 (TFLite 16x8 weights are int8)");
  q = qw, q.zp_ch = zch;
  CHECK_REFUSED(mrtq_tflite_tconv_s16x8(&s, rq, 1, &q16, &q, b64, scratch, y16), MRTQ_EINVAL,
                "w->zp_ch: must be NULL (TFLite 16x8 weights are symmetric");
  q = qw, q.zp = 2;
  CHECK_REFUSED(mrtq_tflite_tconv_s16x8(&s, rq, 1, &q16, &q, b64, scratch, y16), MRTQ_EINVAL,
                "w->zp: must be 0 (TFLite 16x8 weights are symmetric)");
  m.mult = 1073741824, m.shift = 8;
  r = rq[0], r.m = m;
  CHECK_REFUSED(mrtq_tflite_tconv_s16x8(&s, &r, 1, &q16, &qw, b64, scratch, y16), MRTQ_ERANGE, "rq->m.shift: must be <= 7");
  CHECK_EQ(mrtq_tflite_tconv_s16x8(&s, rq, 2, &q16, &qw, b64, scratch, y16), MRTQ_OK, "16x8 ok");
  (void)y;
}

int main(void) {
  TH_RUN(test_random_s8);
  TH_RUN(test_random_u8);
  TH_RUN(test_random_s16);
  TH_RUN(test_extreme_multipliers);
  TH_RUN(test_overflow_bounds);
  TH_RUN(test_saturation_and_zero);
  TH_RUN(test_refusals);
  printf("  transpose_conv int8: %lld outputs compared\n", compared_s8);
  printf("  transpose_conv uint8: %lld outputs compared\n", compared_u8);
  printf("  transpose_conv 16x8: %lld outputs compared\n", compared_s16);
  printf("  (%lld at qmin, %lld at qmax; %lld with x 2^shift beyond int32, where mrtq saturates and TFLite overflows)\n",
         hit_lo, hit_hi, outside);
  return th_finish("test_transpose_conv");
}
