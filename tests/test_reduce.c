/* TFLite's quantized MEAN and SUM (mrtq/reduce.h) against an oracle written
 * here from TFLite's reference code (reference/reduce.h QuantizedMeanOrSum,
 * integer_ops/mean.h Mean, reduce.cc / reduce_common.cc Prepare), in another
 * shape than the library: each output element gathers its inputs by decoding
 * every flat input index into coordinates (no running output offset), sums
 * exactly in 64 bits, folds 1/n into the multiplier with 128-bit arithmetic
 * and a floor(log2) found by comparison, and rounds with oracle.h's 128-bit
 * SRDHM / RDIVPOT and half-away division. QuantizeMultiplier is frexp /
 * round (libm). */
#include <math.h>

#include "harness.h"
#include "mrtq.h"
#include "oracle.h"

static long long n_mean, n_sum, n_sum16, n_hw, n_ties, n_sat_lo, n_sat_hi, n_kclamp, n_empty;

typedef struct {
  int32_t mult, shift;
} om;
static om o_qm(double s) {
  om r = {0, 0};
  int e = 0;
  int64_t qf;
  double q;
  if (s == 0) return r;
  q = frexp(s, &e);
  qf = (int64_t)round(q * 2147483648.0);
  if (qf == ((int64_t)1 << 31)) qf /= 2, e++;
  if (e < -31) return r;
  r.mult = (int32_t)qf, r.shift = e;
  return r;
}
static long long n_tie_srdhm, n_tie_rdivpot;
static int32_t o_mbqm(int32_t x, om m) { /* MultiplyByQuantizedMultiplier(int32), counting exact ties */
  int ls = m.shift > 0 ? m.shift : 0, rs = m.shift > 0 ? 0 : -m.shift;
  int32_t xs = o_sat32((i128)x * o_pow2(ls)), h;
  if ((((int64_t)xs * m.mult) & 0x7fffffff) == 0x40000000) n_tie_srdhm++;
  h = o_srdhm(xs, m.mult);
  if (rs > 0 && rs < 32 && ((int64_t)h & (((int64_t)1 << rs) - 1)) == ((int64_t)1 << (rs - 1))) n_tie_rdivpot++;
  return o_rdivpot(h, rs);
}
static void o_range(mrtq_dtype t, int64_t *lo, int64_t *hi) {
  *lo = t == MRTQ_S8 ? -128 : t == MRTQ_U8 ? 0 : -32768;
  *hi = t == MRTQ_S8 ? 127 : t == MRTQ_U8 ? 255 : 32767;
}
static int32_t o_clamp(int64_t v, mrtq_dtype t) {
  int64_t lo, hi;
  o_range(t, &lo, &hi);
  if (v < lo) n_sat_lo++;
  if (v > hi) n_sat_hi++;
  return (int32_t)(v < lo ? lo : v > hi ? hi : v);
}

/* mode 0 mean, 1 sum, 2 the interpreter's int16 sum. out gets every output. */
static void o_reduce(const int32_t *x, const size_t *shape, int ndim, const int *red, om m, int32_t zi, int32_t zo,
                     mrtq_dtype t, int mode, int32_t *out, size_t *nout_) {
  size_t total = 1, nout = 1, n = 1, o, i;
  int d;
  for (d = 0; d < ndim; d++) {
    total *= shape[d];
    if (red[d]) n *= shape[d];
    else nout *= shape[d];
  }
  *nout_ = nout;
  if (total == 0) {
    for (o = 0; o < nout; o++) out[o] = 0, n_empty++;
    return;
  }
  for (o = 0; o < nout; o++) {
    int64_t s = 0;
    int32_t tt;
    for (i = 0; i < total; i++) { /* does input i belong to output o? */
      size_t rem = i, oi = 0, ostr = 1;
      for (d = ndim - 1; d >= 0; d--) {
        size_t c = rem % shape[d];
        rem /= shape[d];
        if (!red[d]) oi += c * ostr, ostr *= shape[d];
      }
      if (oi == o) s += x[i];
    }
    tt = (int32_t)(uint32_t)(uint64_t)(s - (int64_t)zi * (int64_t)n);
    if (mode == 2) {
      out[o] = (int16_t)(uint16_t)(uint32_t)tt;
    } else if (mode == 1) {
      out[o] = o_clamp((int64_t)o_mbqm(tt, m) + zo, t);
    } else {
      om mm;
      int k = 0;
      while (((i128)1 << (k + 1)) <= (i128)n) k++; /* floor(log2 n) */
      if (k > 32) k = 32;
      if (k > 31 + m.shift) k = 31 + m.shift, n_kclamp++;
      mm.mult = (int32_t)(((i128)m.mult << k) / (i128)n), mm.shift = m.shift - k;
      out[o] = o_clamp((int64_t)o_mbqm(tt, mm) + zo, t);
    }
  }
}

/* m * 2^e with m drawn first, then e (two statements: the same stream on every compiler) */
static float rnd_scale_m(uint32_t steps, int lo, int hi) {
  double m = 1.0 + (double)(th_rand32() % steps) / (double)steps;
  int e = (int)th_range(lo, hi);
  return (float)ldexp(m, e);
}
static float rnd_scale(int lo, int hi) { return rnd_scale_m(1000000u, lo, hi); }

static void test_general_random(void) {
  static const mrtq_dtype ts[3] = {MRTQ_S8, MRTQ_U8, MRTQ_S16};
  int it;
  for (it = 0; it < 3000; it++) {
    mrtq_dtype t = ts[it % 3];
    size_t shape[5], total = 1, i, nout = 0, want_shape[5], got_shape[5], bytes = 0;
    int ndim = (int)th_range(1, 5), naxes, d, red[5] = {0}, kd, want_nd, got_nd = 0;
    int32_t axes[7], x[1200], want[1200];
    int64_t lo, hi;
    mrtq_tflite_reduce_params p;
    memset(&p, 0, sizeof p);
    float s_in = rnd_scale(-12, -2), s_out = rnd_scale(-12, -2);
    int32_t zi, zo;
    om m;
    void *in = malloc(1200 * 2 + 2), *out = malloc(1200 * 2 + 2), *scratch;
    for (d = 0; d < ndim; d++) {
      shape[d] = (size_t)th_range(1, ndim <= 2 ? 12 : ndim == 3 ? 6 : 4);
      if (it % 37 == 0 && d == ndim - 1) shape[d] = 0; /* empty input */
      total *= shape[d];
    }
    naxes = (int)th_range(1, ndim + 2);
    for (i = 0; i < (size_t)naxes; i++) { /* negative and repeated axes */
      int a = (int)th_range(0, ndim - 1);
      axes[i] = th_rand32() & 1 ? a - ndim : a;
      red[a] = 1;
    }
    o_range(t, &lo, &hi);
    zi = t == MRTQ_S16 ? 0 : (int32_t)th_range(lo, hi), zo = t == MRTQ_S16 ? 0 : (int32_t)th_range(lo, hi);
    if (it % 5 == 0) s_out = s_in * (float)th_range(1, 3); /* at and below ratio 1 */
    m = o_qm((double)s_in / (double)s_out);
    if (m.shift > 30) {
      free(in), free(out);
      continue;
    }
    CHECK_EQ(mrtq_tflite_reduce_init(s_in, zi, s_out, zo, t, &p), MRTQ_OK, "init %d", it);
    CHECK_EQ(p.m.mult, m.mult, "mult %d", it);
    CHECK_EQ(p.m.shift, m.shift, "shift %d", it);
    for (i = 0; i < total; i++) {
      x[i] = (int32_t)(it % 11 == 0 ? (th_rand32() & 1 ? lo : hi) : th_range(lo, hi));
      mrtq__store(in, i, t, x[i]);
    }
    /* the output shape, both ways */
    for (kd = 0; kd < 2; kd++) {
      want_nd = 0;
      for (d = 0; d < ndim; d++)
        if (!red[d] || kd) want_shape[want_nd++] = red[d] ? 1 : shape[d];
      CHECK_EQ(mrtq_tflite_reduce_shape(shape, ndim, axes, naxes, kd, got_shape, &got_nd), MRTQ_OK, "shape %d", it);
      CHECK_EQ(got_nd, want_nd, "ndim %d", it);
      for (d = 0; d < want_nd && d < got_nd; d++) CHECK_EQ(got_shape[d], want_shape[d], "dim %d of %d", d, it);
    }
    CHECK_EQ(mrtq_tflite_reduce_scratch_size(shape, ndim, axes, naxes, &bytes), MRTQ_OK, "scratch %d", it);
    scratch = malloc(bytes + 4);
    /* MEAN */
    o_reduce(x, shape, ndim, red, m, zi, zo, t, 0, want, &nout);
    CHECK_EQ(mrtq_tflite_mean(&p, shape, ndim, axes, naxes, in, scratch, out), MRTQ_OK, "mean %d", it);
    for (i = 0; i < nout; i++) {
      CHECK_EQ(mrtq__load(out, i, t), want[i], "mean it %d out %zu", it, i);
      n_mean++;
    }
    /* SUM: the interpreter's and Micro's */
    o_reduce(x, shape, ndim, red, m, zi, zo, t, 1, want, &nout);
    if (t != MRTQ_U8) {
      CHECK_EQ(mrtq_tflite_sum_micro(&p, shape, ndim, axes, naxes, in, scratch, out), MRTQ_OK, "sum_micro %d", it);
      for (i = 0; i < nout; i++) {
      CHECK_EQ(mrtq__load(out, i, t), want[i], "sum_micro it %d out %zu", it, i);
      n_sum++;
    }
    }
    if (t != MRTQ_S16) {
      CHECK_EQ(mrtq_tflite_sum(&p, shape, ndim, axes, naxes, in, scratch, out), MRTQ_OK, "sum %d", it);
      for (i = 0; i < nout; i++) {
      CHECK_EQ(mrtq__load(out, i, t), want[i], "sum it %d out %zu", it, i);
      n_sum++;
    }
    } else {
      mrtq_tflite_reduce_params q;
      mrtq_mult one = {1 << 30, 1};
      CHECK_EQ(mrtq_tflite_reduce_init(s_in, 0, s_in, 0, MRTQ_S16, &q), MRTQ_OK, "equal scales");
      CHECK_EQ(q.m.mult, one.mult, "one");
      CHECK_EQ(q.m.shift, one.shift, "one");
      o_reduce(x, shape, ndim, red, m, 0, 0, t, 2, want, &nout);
      CHECK_EQ(mrtq_tflite_sum(&q, shape, ndim, axes, naxes, in, scratch, out), MRTQ_OK, "sum16 %d", it);
      for (i = 0; i < nout; i++) {
      CHECK_EQ(mrtq__load(out, i, t), want[i], "sum16 it %d out %zu", it, i);
      n_sum16++;
    }
    }
    free(in), free(out), free(scratch);
  }
  CHECK(n_empty > 0);
}

/* Extreme multipliers and shifts (the k clamp at 31 + shift), int32 sums
 * that wrap, reduction over everything. */
static void test_general_extremes(void) {
  static const int32_t mults[] = {0, 1 << 30, INT32_MAX, 1518500250};
  static const int32_t shifts[] = {-31, -30, -28, -20, -5, 0, 1, 7, 30};
  static int32_t x[70000], want[16];
  static int16_t buf[70000];
  int it;
  uint32_t scratch[16];
  int16_t out[16];
  for (it = 0; it < 400; it++) {
    mrtq_tflite_reduce_params p;
    memset(&p, 0, sizeof p);
    mrtq_mult mm;
    om m;
    size_t shape[3], nout, i, total;
    int red[3] = {0, 0, 0}, naxes = 0, d;
    int32_t axes[3];
    mrtq_dtype t = it % 2 ? MRTQ_S16 : MRTQ_S8;
    int64_t lo, hi;
    mm.mult = mults[it % 4], mm.shift = mm.mult ? shifts[(it / 4) % 9] : 0;
    m.mult = mm.mult, m.shift = mm.shift;
    o_range(t, &lo, &hi);
    CHECK_EQ(mrtq_tflite_reduce_init_mult(mm, t == MRTQ_S16 ? 0 : -7, t == MRTQ_S16 ? 0 : 9, t, &p), MRTQ_OK, "%d", it);
    shape[0] = (size_t)th_range(1, 4), shape[1] = (size_t)th_range(1, 200), shape[2] = (size_t)th_range(1, 3);
    if (it % 50 == 7) shape[0] = 1, shape[1] = 70000, shape[2] = 1; /* an int16 sum that wraps int32 */
    total = shape[0] * shape[1] * shape[2];
    for (d = 0; d < 3; d++)
      if (th_rand32() % 2 || d == 1) red[d] = 1, axes[naxes++] = d;
    for (i = 0; i < total; i++) {
      x[i] = (int32_t)(it % 50 == 7 ? hi : (it % 3 == 0 ? (th_rand32() & 1 ? lo : hi) : th_range(lo, hi)));
      if (t == MRTQ_S16) buf[i] = (int16_t)x[i];
      else ((int8_t *)buf)[i] = (int8_t)x[i];
    }
    o_reduce(x, shape, 3, red, m, p.zp_in, p.zp_out, t, 0, want, &nout);
    CHECK_EQ(mrtq_tflite_mean(&p, shape, 3, axes, naxes, buf, scratch, out), MRTQ_OK, "mean %d", it);
    for (i = 0; i < nout; i++) {
      CHECK_EQ(mrtq__load(out, i, t), want[i], "mean it %d out %zu", it, i);
      n_mean++;
    }
    o_reduce(x, shape, 3, red, m, p.zp_in, p.zp_out, t, 1, want, &nout);
    CHECK_EQ(mrtq_tflite_sum_micro(&p, shape, 3, axes, naxes, buf, scratch, out), MRTQ_OK, "sum %d", it);
    for (i = 0; i < nout; i++) {
      CHECK_EQ(mrtq__load(out, i, t), want[i], "sum it %d out %zu", it, i);
      n_sum++;
    }
  }
  CHECK(n_kclamp > 0);
  CHECK(n_tie_srdhm > 0 && n_tie_rdivpot > 0);
  CHECK(n_sat_lo > 0 && n_sat_hi > 0);
}

/* The height-width path against integer_ops/mean.h restated. */
static void test_mean_hw(void) {
  int it;
  static int32_t x[4 * 9 * 9 * 5];
  static int16_t in[4 * 9 * 9 * 5];
  int16_t out[4 * 5];
  for (it = 0; it < 3000; it++) {
    mrtq_dtype t = it % 2 ? MRTQ_S16 : MRTQ_S8;
    size_t sh[4], i, b, c, h, w, n;
    int64_t lo, hi;
    mrtq_tflite_reduce_params p;
    memset(&p, 0, sizeof p);
    om m;
    int32_t zi, zo;
    o_range(t, &lo, &hi);
    sh[0] = (size_t)th_range(1, 4), sh[1] = (size_t)th_range(it % 17 ? 1 : 0, 9), sh[2] = (size_t)th_range(1, 9),
    sh[3] = (size_t)th_range(1, 5);
    if (it % 3 == 0) sh[1] = 1, sh[2] = (size_t)th_range(1, 2); /* n 1 or 2: many ties */
    zi = t == MRTQ_S16 ? 0 : (int32_t)th_range(lo, hi), zo = t == MRTQ_S16 ? 0 : (int32_t)th_range(lo, hi);
    if (it % 4 == 0) {
      mrtq_mult mm;
      mm.mult = (int32_t)th_range(1 << 30, INT32_MAX), mm.shift = (int32_t)th_range(-31, 8);
      CHECK_EQ(mrtq_tflite_reduce_init_mult(mm, zi, zo, t, &p), MRTQ_OK, "%d", it);
    } else {
      float si = rnd_scale(-12, -2), so = rnd_scale(-12, -2);
      CHECK_EQ(mrtq_tflite_reduce_init(si, zi, so, zo, t, &p), MRTQ_OK, "%d", it);
    }
    m.mult = p.m.mult, m.shift = p.m.shift;
    for (i = 0; i < sh[0] * sh[1] * sh[2] * sh[3]; i++) {
      x[i] = (int32_t)(it % 7 == 0 ? (th_rand32() & 1 ? lo : hi) : th_range(lo, hi));
      if (t == MRTQ_S16) in[i] = (int16_t)x[i];
      else ((int8_t *)in)[i] = (int8_t)x[i];
    }
    CHECK_EQ(mrtq_tflite_mean_hw(&p, sh, in, out), MRTQ_OK, "hw %d", it);
    n = sh[1] * sh[2];
    for (b = 0; b < sh[0]; b++)
      for (c = 0; c < sh[3]; c++) {
        int64_t s = 0;
        int32_t y, want;
        if (n == 0) {
          want = 0;
        } else {
          for (h = 0; h < sh[1]; h++)
            for (w = 0; w < sh[2]; w++) s += x[((b * sh[1] + h) * sh[2] + w) * sh[3] + c] - zi;
          y = o_mbqm((int32_t)s, m);
          if ((i128)(y < 0 ? -(int64_t)y : y) * 2 % (i128)(2 * n) == (i128)n) n_ties++;
          want = o_clamp((int64_t)o_round_half_away(y, (i128)n) + zo, t);
        }
        CHECK_EQ(mrtq__load(out, b * sh[3] + c, t), want, "hw it %d b %zu c %zu", it, b, c);
        n_hw++;
      }
  }
  CHECK(n_ties > 100);
}

static void test_refusals(void) {
  mrtq_tflite_reduce_params p, q;
  memset(&p, 0, sizeof p);
  mrtq_mult ok = {1 << 30, -2};
  size_t sh[3] = {2, 3, 4}, osh[3], bytes;
  int32_t ax[2] = {1, -1}, bad[1] = {3};
  int od;
  int8_t in[24] = {0}, out[24];
  uint32_t scr[24];
  CHECK_REFUSED(mrtq_tflite_reduce_init(1, 0, 1, 0, MRTQ_S8, NULL), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_reduce_init(-1, 0, 1, 0, MRTQ_S8, &p), MRTQ_EINVAL, "s_in: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_reduce_init(1, 0, NAN, 0, MRTQ_S8, &p), MRTQ_EINVAL, "s_out: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_reduce_init(1, 0, 1, 0, MRTQ_S32, &p), MRTQ_EUNSUPPORTED, "type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_reduce_init(1, 0, 1, 0, (mrtq_dtype)0, &p), MRTQ_EINVAL, "type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_tflite_reduce_init(1, -1, 1, 0, MRTQ_U8, &p), MRTQ_EINVAL, "zp_in: outside type");
  CHECK_REFUSED(mrtq_tflite_reduce_init(1, 0, 1, 128, MRTQ_S8, &p), MRTQ_EINVAL, "zp_out: outside type");
  CHECK_REFUSED(mrtq_tflite_reduce_init(1, 1, 1, 0, MRTQ_S16, &p), MRTQ_EINVAL, "zp_in, zp_out: must be 0 for MRTQ_S16 (TFLite's reduce.cc)");
  CHECK_REFUSED(mrtq_tflite_reduce_init(1, 0, 1e-10f, 0, MRTQ_S8, &p), MRTQ_ERANGE, "s_in, s_out: s_in / s_out must be < 2^30 (TFLite's 1 << shift)");
  CHECK_REFUSED(mrtq_tflite_reduce_init_mult(ok, 0, 0, MRTQ_S8, NULL), MRTQ_EINVAL, "p: NULL");
  q = p;
  {
    mrtq_mult b2 = {1 << 29, 0};
    CHECK_REFUSED(mrtq_tflite_reduce_init_mult(b2, 0, 0, MRTQ_S8, &p), MRTQ_EINVAL,
                  "m: mult 0 with shift 0, or mult in [2^30, 2^31 - 1] with shift in [-31, 30]");
  }
  CHECK(memcmp(&p, &q, sizeof p) == 0);
  CHECK_EQ(mrtq_tflite_reduce_init_mult(ok, 3, -4, MRTQ_S8, &p), MRTQ_OK, "valid");
  CHECK_REFUSED(mrtq_tflite_reduce_shape(sh, 0, ax, 2, 0, osh, &od), MRTQ_ESHAPE, "ndim: must be in [1, MRTQ_MAX_DIMS]");
  CHECK_REFUSED(mrtq_tflite_reduce_shape(NULL, 3, ax, 2, 0, osh, &od), MRTQ_EINVAL, "shape: NULL");
  CHECK_REFUSED(mrtq_tflite_reduce_shape(sh, 3, ax, 0, 0, osh, &od), MRTQ_EUNSUPPORTED,
                "naxes: must be >= 1 (with no axes the TF interpreter copies the input and TFLite Micro requantizes it)");
  CHECK_REFUSED(mrtq_tflite_reduce_shape(sh, 3, NULL, 2, 0, osh, &od), MRTQ_EINVAL, "axes: NULL");
  CHECK_REFUSED(mrtq_tflite_reduce_shape(sh, 3, bad, 1, 0, osh, &od), MRTQ_ESHAPE, "axes[i]: outside [-ndim, ndim), for some i < naxes");
  CHECK_REFUSED(mrtq_tflite_reduce_shape(sh, 3, ax, 2, 0, NULL, &od), MRTQ_EINVAL, "out_shape: NULL");
  CHECK_REFUSED(mrtq_tflite_reduce_shape(sh, 3, ax, 2, 0, osh, NULL), MRTQ_EINVAL, "out_ndim: NULL");
  CHECK_REFUSED(mrtq_tflite_reduce_scratch_size(sh, 3, ax, 2, NULL), MRTQ_EINVAL, "bytes: NULL");
  {
    size_t big[3] = {SIZE_MAX / 2, 3, 1};
    CHECK_REFUSED(mrtq_tflite_reduce_scratch_size(big, 3, ax, 1, &bytes), MRTQ_ERANGE, "shape: the element count overflows size_t");
    {
      size_t big2[3] = {0, SIZE_MAX / 2, 3};
      int32_t a0[1] = {0};
      CHECK_REFUSED(mrtq_tflite_reduce_scratch_size(big2, 3, a0, 1, &bytes), MRTQ_ERANGE, "shape: the output count overflows size_t");
    }
    {
      size_t big3[2] = {SIZE_MAX / 4 + 1, 1};
      int32_t a1[1] = {1};
      CHECK_REFUSED(mrtq_tflite_reduce_scratch_size(big3, 2, a1, 1, &bytes), MRTQ_ERANGE, "shape: the scratch size overflows size_t");
    }
  }
#if SIZE_MAX > INT64_MAX
  {
    size_t huge[1] = {SIZE_MAX / 2 + 2}; /* 2^63 + 1 elements: a count TFLite's int64 cannot hold */
    int32_t a0[1] = {0};
    CHECK_REFUSED(mrtq_tflite_reduce_scratch_size(huge, 1, a0, 1, &bytes), MRTQ_ERANGE,
                  "shape: the reduced element count exceeds INT64_MAX");
  }
#endif
  CHECK_EQ(mrtq_tflite_reduce_scratch_size(sh, 3, ax, 2, &bytes), MRTQ_OK, "bytes");
  CHECK_EQ(bytes, 8, "2 outputs");
  CHECK_REFUSED(mrtq_tflite_mean(NULL, sh, 3, ax, 2, in, scr, out), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_mean(&p, sh, 3, ax, 2, NULL, scr, out), MRTQ_EINVAL, "in: NULL (allowed only without elements)");
  CHECK_REFUSED(mrtq_tflite_mean(&p, sh, 3, ax, 2, in, scr, NULL), MRTQ_EINVAL, "out: NULL (allowed only without outputs)");
  CHECK_REFUSED(mrtq_tflite_mean(&p, sh, 3, ax, 2, in, NULL, out), MRTQ_EINVAL, "scratch: NULL (allowed only without elements)");
  q = p, q.type = MRTQ_S4;
  CHECK_REFUSED(mrtq_tflite_mean(&q, sh, 3, ax, 2, in, scr, out), MRTQ_EUNSUPPORTED, "p->type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S16");
  q = p, q.type = (mrtq_dtype)0;
  CHECK_REFUSED(mrtq_tflite_mean(&q, sh, 3, ax, 2, in, scr, out), MRTQ_EINVAL, "p->type: not an mrtq_dtype (0: a zero-initialised struct)");
  q = p, q.m.shift = 31;
  CHECK_REFUSED(mrtq_tflite_mean(&q, sh, 3, ax, 2, in, scr, out), MRTQ_EINVAL,
                "p->m: mult 0 with shift 0, or mult in [2^30, 2^31 - 1] with shift in [-31, 30]");
  q = p, q.zp_in = 128;
  CHECK_REFUSED(mrtq_tflite_mean(&q, sh, 3, ax, 2, in, scr, out), MRTQ_EINVAL, "p->zp_in: outside p->type");
  q = p, q.zp_out = -129;
  CHECK_REFUSED(mrtq_tflite_sum(&q, sh, 3, ax, 2, in, scr, out), MRTQ_EINVAL, "p->zp_out: outside p->type");
  q = p, q.type = MRTQ_S16;
  CHECK_REFUSED(mrtq_tflite_sum_micro(&q, sh, 3, ax, 2, in, scr, out), MRTQ_EINVAL, "p->zp_in, p->zp_out: must be 0 for MRTQ_S16");
  q.zp_in = q.zp_out = 0;
  CHECK_REFUSED(mrtq_tflite_sum(&q, sh, 3, ax, 2, in, scr, out), MRTQ_EUNSUPPORTED,
                "p->m: must be {2^30, 1} (equal scales) for the TF interpreter's int16 SUM (use mrtq_tflite_sum_micro for "
                "TFLite Micro's)");
  q = p, q.type = MRTQ_U8, q.zp_in = 3, q.zp_out = 4;
  CHECK_REFUSED(mrtq_tflite_sum_micro(&q, sh, 3, ax, 2, in, scr, out), MRTQ_EUNSUPPORTED, "p->type: TFLite Micro's SUM takes MRTQ_S8 or MRTQ_S16");
  {
    size_t s4[4] = {1, 2, 2, 3};
    CHECK_REFUSED(mrtq_tflite_mean_hw(NULL, s4, in, out), MRTQ_EINVAL, "p: NULL");
    CHECK_REFUSED(mrtq_tflite_mean_hw(&q, s4, in, out), MRTQ_EUNSUPPORTED,
                  "p->type: MRTQ_S8 or MRTQ_S16 (TFLite's uint8 height-width mean computes in float)");
    CHECK_REFUSED(mrtq_tflite_mean_hw(&p, NULL, in, out), MRTQ_EINVAL, "shape: NULL");
    CHECK_REFUSED(mrtq_tflite_mean_hw(&p, s4, NULL, out), MRTQ_EINVAL, "in: NULL (allowed only without elements)");
    CHECK_REFUSED(mrtq_tflite_mean_hw(&p, s4, in, NULL), MRTQ_EINVAL, "out: NULL (allowed only without outputs)");
    s4[1] = 65536, s4[2] = 65536;
    CHECK_REFUSED(mrtq_tflite_mean_hw(&p, s4, in, out), MRTQ_ERANGE, "shape: shape[1] * shape[2] must be <= 2^31 - 1 (TFLite's int count)");
    s4[0] = SIZE_MAX / 2, s4[1] = 2, s4[2] = 1, s4[3] = 2;
    CHECK_REFUSED(mrtq_tflite_mean_hw(&p, s4, in, out), MRTQ_ERANGE, "shape: the element count overflows size_t");
  }
  /* an empty input: outputs 0, no scratch needed */
  {
    size_t e[2] = {3, 0};
    int32_t a1[1] = {1};
    memset(out, 0x55, sizeof out);
    CHECK_EQ(mrtq_tflite_mean(&p, e, 2, a1, 1, NULL, NULL, out), MRTQ_OK, "empty");
    CHECK_EQ(out[0], 0, "0");
    CHECK_EQ(out[1], 0, "0");
    CHECK_EQ(out[2], 0, "0");
    CHECK_EQ(out[3], 0x55, "untouched");
  }
}

int main(void) {
  TH_RUN(test_general_random);
  TH_RUN(test_general_extremes);
  TH_RUN(test_mean_hw);
  TH_RUN(test_refusals);
  printf("  reduce: %lld MEAN, %lld SUM, %lld int16 interpreter SUM, %lld height-width MEAN outputs compared (%lld ties, "
         "%lld saturated low, %lld high, %lld clamped k; exact ties %lld SRDHM, %lld RDIVPOT)\n",
         n_mean, n_sum, n_sum16, n_hw, n_ties, n_sat_lo, n_sat_hi, n_kclamp, n_tie_srdhm, n_tie_rdivpot);
  return th_finish("test_reduce");
}
