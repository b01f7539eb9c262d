/* pool.h: mrtq_pool2d_out, mrtq_maxpool2d, mrtq_avgpool2d_tflite and
 * mrtq_avgpool2d_rq with fuzzer-chosen shapes (valid small ones, invalid or
 * huge ones that must be refused), layouts, types, bounds, zero points and
 * requantizations: values equal a direct window oracle, the output extent is
 * written exactly, refusals write nothing and report exactly one reason
 *. */
#include "fuzz.h"

#include "mrtq/pool.h"

static int32_t q8(const uint8_t *p, size_t i, int u) { return u ? (int32_t)p[i] : (int32_t)(int8_t)p[i]; }
/* element i of an int8 / uint8 / int16 (s16) array */
static int32_t elt(const uint8_t *p, size_t i, int u, int s16) {
  int16_t v;
  if (!s16) return q8(p, i, u);
  memcpy(&v, p + 2 * i, 2);
  return v;
}


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f = {data, size};
  mrtq_pool2d p;
  size_t ho = 0, wo = 0, nx, ny, n, c, oy, ox, ky, kx;
  int valid, small = 0, mode = (int)fz_range(&f, 0, 2), lo, hi, u8, tok, rq_bad = 0, null = 0, s16, es;
  int32_t qmin, qmax, zx;
  uint8_t tb;
  uint8_t *x;
  fz_buf b1, b2;
  mrtq_rq rq;
  mrtq_status st, st2;
  const char *name = mode == 0 ? "mrtq_maxpool2d" : mode == 1 ? "mrtq_avgpool2d_tflite" : "mrtq_avgpool2d_rq";
  memset(&p, 0, sizeof p);
  p.n = fz_dim(&f, 1, 2), p.c = fz_dim(&f, 1, 5), p.h = fz_dim(&f, 1, 12), p.w = fz_dim(&f, 1, 12);
  p.kh = fz_dim(&f, 1, 5), p.kw = fz_dim(&f, 1, 5), p.stride_h = fz_dim(&f, 1, 4), p.stride_w = fz_dim(&f, 1, 4);
  p.pad_top = fz_range(&f, 0, 4), p.pad_left = fz_range(&f, 0, 4), p.pad_bottom = fz_range(&f, 0, 4),
  p.pad_right = fz_range(&f, 0, 4);
  if (fz_rare(&f, 4)) p.pad_bottom = SIZE_MAX - fz_range(&f, 0, 3);
  p.layout = (mrtq_layout)(fz_rare(&f, 4) ? (int)fz_irange(&f, -1, 3) : fz_bool(&f));
  /* the element type: S8 / U8 by the low bit, rarely another (0, S16, S32, S4, 6, 7): S16 is taken by max
   * pooling and TFLite's average, refused by the MRT form like the others */
  tb = fz_u8(&f);
  p.type = tb >= 248 ? (mrtq_dtype)(tb - 248) : tb & 1 ? MRTQ_U8 : MRTQ_S8;
  s16 = p.type == MRTQ_S16 && mode < 2, es = s16 ? 2 : 1;
  tok = p.type == MRTQ_S8 || p.type == MRTQ_U8 || s16;
  u8 = p.type == MRTQ_U8;
  lo = s16 ? -32768 : u8 ? 0 : -128, hi = s16 ? 32767 : u8 ? 255 : 127;
  {
    __int128 hp = (__int128)p.h + p.pad_top + p.pad_bottom, wp = (__int128)p.w + p.pad_left + p.pad_right;
    int lay = p.layout == MRTQ_NCHW || p.layout == MRTQ_NHWC;
    valid = lay && p.n && p.c && p.h && p.w && p.kh && p.kw && p.stride_h && p.stride_w && p.pad_top < p.kh &&
            p.pad_bottom < p.kh && p.pad_left < p.kw && p.pad_right < p.kw && p.kh <= hp && p.kw <= wp;
    if (valid) {
      __int128 h2 = (hp - p.kh) / p.stride_h + 1, w2 = (wp - p.kw) / p.stride_w + 1;
      small = p.n <= 64 && p.c <= 64 && p.h <= 64 && p.w <= 64 && p.kh <= 64 && p.kw <= 64 && p.stride_h <= 64 &&
              p.stride_w <= 64 && p.pad_bottom <= 64 && p.n * p.c * p.h * p.w <= 20000;
      if (small) ho = (size_t)h2, wo = (size_t)w2;
    }
    oy = ox = 12345;
    FZ_CALL(st, mrtq_pool2d_out(&p, &oy, &ox), "mrtq_pool2d_out");
    if (st != MRTQ_OK) FZ_CHECK(oy == 12345 && ox == 12345, "mrtq_pool2d_out refused but wrote *ho / *wo");
    if (!lay) FZ_EQ(st, MRTQ_EINVAL, "mrtq_pool2d_out: unknown layout %d", p.layout);
    else if (!valid) FZ_EQ(st, MRTQ_ESHAPE, "mrtq_pool2d_out accepted or misreported an invalid shape");
    else if (small) {
      FZ_EQ(st, MRTQ_OK, "mrtq_pool2d_out refused a small valid shape");
      FZ_CHECK(oy == ho && ox == wo, "mrtq_pool2d_out %zux%zu, want %zux%zu", oy, ox, ho, wo);
    }
  }
  if (valid && !small) return 0;
  nx = valid ? p.n * p.c * p.h * p.w : 16, ny = valid ? p.n * p.c * ho * wo : 16;
  x = (uint8_t *)malloc(nx * es);
  qmin = fz_rare(&f, 10) ? fz_i32(&f) : (int32_t)fz_irange(&f, lo, hi);
  qmax = fz_rare(&f, 10) ? fz_i32(&f) : (int32_t)fz_irange(&f, lo, hi);
  if (qmin > qmax && fz_u8(&f) < 200) { int32_t t = qmin; qmin = qmax, qmax = t; }
  zx = fz_rare(&f, 10) ? fz_i32(&f) : (int32_t)fz_irange(&f, lo, hi);
  {
    mrtq_scheme sch = (mrtq_scheme)fz_range(&f, 0, 4);
    double sc = fz_double(&f);
    int32_t rzp = (int32_t)fz_irange(&f, -300, 300), rmin = (int32_t)fz_irange(&f, -300, 0),
            rmax = (int32_t)fz_irange(&f, 0, 300);
    if (mrtq_rq_init(sch, sc, rzp, rmin, rmax, &rq) != MRTQ_OK && mrtq_rq_init(MRTQ_Q31_DBL, 1.0 / 9, 0, -128, 255, &rq))
      FZ_FAIL("mrtq_rq_init(MRTQ_Q31_DBL, 1/9) refused");
  }
  /* rarely (0.2 refusals): an rq with a field its scheme does not read, or qmin > qmax; a NULL argument */
  if (fz_rare(&f, 6)) {
    rq_bad = (int)fz_range(&f, 1, 3);
    if (rq_bad == 1) {
      if (rq.scheme == MRTQ_FP32) rq.m.mult = 7;
      else rq.scale = 0.5f;
    } else if (rq_bad == 2) rq.qmin = rq.qmax + 1;
    else rq.scheme = (mrtq_scheme)7;
  }
  if (fz_rare(&f, 4)) null = (int)fz_range(&f, 1, 3); /* 1: x, 2: out, 3: rq */
  fz_fill(&f, x, nx * es);
  fz_buf_new_at(&b1, ny * es, 0xa5, fz_range(&f, 0, 63)), fz_buf_new(&b2, ny * es, 0x5a);
  {
    const void *xa = null == 1 ? NULL : x;
    void *o1 = null == 2 ? NULL : fz_buf_data(&b1), *o2 = null == 2 ? NULL : fz_buf_data(&b2);
    const mrtq_rq *r = null == 3 ? NULL : &rq;
    if (mode == 0) {
      FZ_CALL(st, mrtq_maxpool2d(&p, xa, qmin, qmax, o1), name);
      FZ_CALL(st2, mrtq_maxpool2d(&p, xa, qmin, qmax, o2), name);
    } else if (mode == 1) {
      FZ_CALL(st, mrtq_avgpool2d_tflite(&p, xa, qmin, qmax, o1), name);
      FZ_CALL(st2, mrtq_avgpool2d_tflite(&p, xa, qmin, qmax, o2), name);
    } else {
      FZ_CALL(st, mrtq_avgpool2d_rq(&p, r, xa, zx, o1), name);
      FZ_CALL(st2, mrtq_avgpool2d_rq(&p, r, xa, zx, o2), name);
    }
  }
  fz_after(&b1, st, name);
  fz_after(&b2, st2, name);
  FZ_EQ(st2, st, "%s: two calls, two statuses", name);
  {
    int nulls = null == 1 || null == 2 || (null == 3 && mode == 2);
    int args_ok = mode == 2 ? zx >= lo && zx <= hi && !rq_bad : qmin <= qmax && qmin >= lo && qmax <= hi && qmin >= lo && qmin <= hi &&
                                                        qmax >= lo;
    FZ_EQ(st == MRTQ_OK, valid && tok && args_ok && !nulls, "%s status %d (shape valid %d, type %d, rq_bad %d, null %d)",
          name, (int)st, valid, (int)p.type, rq_bad, null);
    /* which status: the shape's first (mrtq_pool2d_out's), then the type's */
    if (!valid) FZ_CHECK(st == MRTQ_EINVAL || st == MRTQ_ESHAPE, "%s: invalid shape gave status %d", name, (int)st);
    else if (!tok) /* a type outside the enum (0 included) is EINVAL, another type EUNSUPPORTED */
      FZ_EQ(st, p.type >= MRTQ_S8 && p.type <= MRTQ_S4 ? MRTQ_EUNSUPPORTED : MRTQ_EINVAL, "%s: type %d", name, (int)p.type);
    else if (st != MRTQ_OK) FZ_EQ(st, MRTQ_EINVAL, "%s: bad argument", name);
  }
  if (st == MRTQ_OK) {
    const uint8_t *y = (const uint8_t *)fz_buf_data(&b1);
    FZ_CHECK(fz_same_output(&b1, &b2), "%s left part of its output unwritten", name);
    for (n = 0; n < p.n; n++)
      for (c = 0; c < p.c; c++)
        for (oy = 0; oy < ho; oy++)
          for (ox = 0; ox < wo; ox++) {
            int64_t s = 0, cnt = 0, want;
            int32_t mx = INT32_MIN;
            size_t at = p.layout == MRTQ_NCHW ? ((n * p.c + c) * ho + oy) * wo + ox : ((n * ho + oy) * wo + ox) * p.c + c;
            for (ky = 0; ky < p.kh; ky++)
              for (kx = 0; kx < p.kw; kx++) {
                size_t iy = oy * p.stride_h + ky, ix = ox * p.stride_w + kx;
                int32_t v;
                if (iy < p.pad_top || iy >= p.pad_top + p.h || ix < p.pad_left || ix >= p.pad_left + p.w) continue;
                iy -= p.pad_top, ix -= p.pad_left;
                v = elt(x, p.layout == MRTQ_NCHW ? ((n * p.c + c) * p.h + iy) * p.w + ix : ((n * p.h + iy) * p.w + ix) * p.c + c,
                        u8, s16);
                s += mode == 2 ? v - zx : v, cnt++, mx = v > mx ? v : mx;
              }
            FZ_CHECK(cnt > 0, "a window with no valid element was accepted (n %zu c %zu y %zu x %zu)", n, c, oy, ox);
            if (mode == 0) want = mx;
            else if (mode == 1) want = s > 0 ? (s + cnt / 2) / cnt : (s - cnt / 2) / cnt;
            else want = mrtq_rq_apply(&rq, (int32_t)s, lo, hi);
            if (mode != 2) want = want < qmin ? qmin : want > qmax ? qmax : want;
            FZ_EQ(elt(y, at, u8, s16), want, "%s output %zu (n %zu c %zu y %zu x %zu)", name, at, n, c, oy, ox);
          }
  }
  fz_buf_free(&b1), fz_buf_free(&b2);
  free(x);
  return 0;
}
