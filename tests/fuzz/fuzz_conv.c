/* conv.h: mrtq_conv2d_out, mrtq_conv2d_s32 / _q8, mrtq_fc_s32 / _q8 and
 * mrtq_matmul_s32 / _q8 with fuzzer-chosen shapes (valid small ones, and
 * invalid or huge ones that must be refused), operand types, zero points
 * (per tensor and per channel), biases and requantizations. Success: the
 * values equal a direct int64 oracle, every byte of the output extent is
 * written (two runs with different canaries agree) and nothing outside it;
 * refusal: the documented status class, an untouched output and one
 * reason through MRTQ_ON_ERROR. Operand and dst types are mrtq_dtype (S8 / U8
 * mostly; sometimes 0, S4 (taken as the weights of a convolution or fully
 * connected layer only), a type these kernels refuse, or no mrtq_dtype); the
 * requantizations are sometimes broken by hand (a scheme outside the enum, a
 * field the scheme never reads, qmin > qmax), which the _q8 kernels refuse. */
#include "fuzz.h"

#include "mrtq/conv.h"
#include "mrtq/fastconv.h"
#include "fuzz_q8.h"

#define WORK_MAX 200000u /* multiply-adds per call */

static int32_t zp_for(fz *f, mrtq_dtype t) {
  if (fz_rare(f, 10)) return fz_i32(f);
  return t == MRTQ_U8 ? (int32_t)fz_range(f, 0, 255) : t == MRTQ_S4 ? (int32_t)fz_irange(f, -8, 7) : (int32_t)fz_irange(f, -128, 127);
}

static int32_t q8(const uint8_t *p, size_t i, int u) { return u ? (int32_t)p[i] : (int32_t)(int8_t)p[i]; }
static int in_q8(int64_t v, mrtq_dtype t) { return t == MRTQ_U8 ? v >= 0 && v <= 255 : v >= -128 && v <= 127; }
/* Weights: S8 / U8, or S4 (two per byte, element i in nibble i % 2 of byte i / 2) where conv_w says so. */
static int w_ok(mrtq_dtype t, int conv_w) { return is_q8(t) || (conv_w && t == MRTQ_S4); }
static int in_w(int64_t v, mrtq_dtype t) { return t == MRTQ_S4 ? v >= -8 && v <= 7 : in_q8(v, t); }
static int32_t wval(const uint8_t *p, size_t i, mrtq_dtype t) {
  int v;
  if (t != MRTQ_S4) return q8(p, i, t == MRTQ_U8);
  v = i % 2 ? p[i / 2] >> 4 : p[i / 2] & 15;
  return v >= 8 ? v - 16 : v;
}

/* The documented int32 worst case of the expansion form (conv.h). */
static int worst_case_ok(uint64_t k, const mrtq_qoperand *x, const mrtq_qoperand *w, size_t nw, const int32_t *bias,
                         size_t nb) {
  __int128 mx = x->type == MRTQ_U8 ? 255 : 128, mw = w->type == MRTQ_U8 ? 255 : w->type == MRTQ_S4 ? 8 : 128, zx = x->zp < 0 ? -(int64_t)x->zp : x->zp;
  __int128 zw = 0, b = 0, total;
  size_t i;
  for (i = 0; i < (w->zp_ch ? nw : 1); i++) {
    int64_t z = w->zp_ch ? w->zp_ch[i] : w->zp;
    if ((z < 0 ? -z : z) > zw) zw = z < 0 ? -z : z;
  }
  for (i = 0; bias && i < nb; i++) {
    int64_t v = bias[i];
    if ((v < 0 ? -v : v) > b) b = v < 0 ? -v : v;
  }
  total = (__int128)k * mx * mw + zx * k * mw + zw * k * mx + (__int128)k * zx * zw + b;
  return total <= INT32_MAX;
}

typedef struct rqset {
  mrtq_rq rq[16];
  size_t n;
  int bad[16]; /* broken by hand: the _q8 kernels must refuse it */
} rqset;
static void make_rqs(fz *f, rqset *r, size_t channels) {
  size_t i;
  r->n = fz_bool(f) || channels > 16 ? 1 : channels;
  if (fz_rare(f, 6)) r->n = (size_t)fz_range(f, 0, 17); /* maybe a wrong count */
  for (i = 0; i < 16; i++) {
    mrtq_scheme s = (mrtq_scheme)fz_range(f, 0, 4);
    int32_t zp = (int32_t)fz_irange(f, -200, 300), a = (int32_t)fz_irange(f, -300, 300), b = (int32_t)fz_irange(f, -300, 300);
    mrtq_rq keep;
    mrtq_status st;
    memset(&r->rq[i], 0x5c, sizeof r->rq[i]);
    keep = r->rq[i];
    st = mrtq_rq_init(s, fz_double(f), zp, a < b ? a : b, a < b ? b : a, &r->rq[i]);
    if (st != MRTQ_OK) {
      FZ_CHECK(memcmp(&keep, &r->rq[i], sizeof keep) == 0, "mrtq_rq_init refused (%d) but wrote *rq", (int)st);
      FZ_EQ(mrtq_rq_init(s, 0.0625, zp, a < b ? a : b, a < b ? b : a, &r->rq[i]), MRTQ_OK, "mrtq_rq_init of 1/16");
    }
    r->bad[i] = 0;
    if (fz_rare(f, 4)) { /* a descriptor the kernels must refuse */
      switch (fz_range(f, 0, 3)) {
        case 0: r->rq[i].scheme = (mrtq_scheme)(fz_bool(f) ? 5 : -1); break;
        case 1: /* a field the scheme never reads */
          if (r->rq[i].scheme == MRTQ_FP32) r->rq[i].m.mult = 1;
          else r->rq[i].scale = 1.0f;
          break;
        case 2:
          if (r->rq[i].scheme == MRTQ_FP32) r->rq[i].m.shift = -1;
          else r->rq[i].scale = -0.5f;
          break;
        default: r->rq[i].qmin = 1, r->rq[i].qmax = 0; break;
      }
      r->bad[i] = 1;
    }
  }
}
/* Every rq the kernel reads (rq[0..nrq)) is well formed. */
static int rqs_ok(const rqset *r) {
  size_t i;
  for (i = 0; i < r->n && i < 16; i++)
    if (r->bad[i]) return 0;
  return 1;
}

/* ---- convolution ---- */
static void check_conv(fz *f) {
  mrtq_conv2d_shape s;
  mrtq_qoperand x, w;
  size_t ho = 12345, wo = 12345, ho2 = 7, wo2 = 7, nx, nw, ny, i, n, o, oy, ox, c, ky, kx, cg = 0, og = 0;
  int valid, small = 0, q8out = fz_bool(f), pc;
  mrtq_dtype dt = type_for(f);
  int ou = dt == MRTQ_U8;
  int32_t zpch[64], bias[64];
  uint8_t *xd, *wd;
  fz_buf ba, bb;
  rqset r;
  mrtq_status st, st2, want_shape;
  memset(&s, 0, sizeof s);
  s.n = fz_dim(f, 1, 2), s.c = fz_dim(f, 1, 8), s.h = fz_dim(f, 1, 9), s.w = fz_dim(f, 1, 9), s.o = fz_dim(f, 1, 8);
  s.kh = fz_dim(f, 1, 4), s.kw = fz_dim(f, 1, 4), s.stride_h = fz_dim(f, 1, 3), s.stride_w = fz_dim(f, 1, 3);
  s.dil_h = fz_dim(f, 1, 3), s.dil_w = fz_dim(f, 1, 3);
  s.pad_top = fz_range(f, 0, 3), s.pad_left = fz_range(f, 0, 3), s.pad_bottom = fz_range(f, 0, 3),
  s.pad_right = fz_range(f, 0, 3);
  if (fz_rare(f, 4)) s.pad_top = SIZE_MAX - fz_range(f, 0, 3);
  s.groups = fz_u8(f) < 128 ? 1 : fz_bool(f) ? s.c : fz_dim(f, 1, 8);
  s.layout = fz_rare(f, 4) ? (mrtq_layout)fz_irange(f, -1, 3) : fz_bool(f) ? MRTQ_NHWC : MRTQ_NCHW;
  /* the weights' layout: TFLite's depthwise filter where the shape is depthwise, sometimes on a dense shape
   * (refused) or outside the enum */
  s.w_layout = fz_rare(f, 4) ? (mrtq_wlayout)fz_irange(f, -1, 3)
                             : fz_bool(f) && (s.groups == s.c || fz_rare(f, 3)) ? MRTQ_W_TFLITE_DW : MRTQ_W_LIKE_X;

  /* the oracle's view of the shape (128-bit, no overflow) */
  {
    __int128 hp = (__int128)s.h + s.pad_top + s.pad_bottom, wp = (__int128)s.w + s.pad_left + s.pad_right, ekh, ekw;
    int enums = (s.layout == MRTQ_NCHW || s.layout == MRTQ_NHWC) &&
                (s.w_layout == MRTQ_W_LIKE_X || s.w_layout == MRTQ_W_TFLITE_DW);
    valid = enums && s.n && s.c && s.h && s.w && s.o && s.kh && s.kw && s.stride_h && s.stride_w && s.dil_h && s.dil_w &&
            s.groups && s.c % s.groups == 0 && s.o % s.groups == 0 && (s.w_layout != MRTQ_W_TFLITE_DW || s.groups == s.c);
    want_shape = valid ? MRTQ_OK : enums ? MRTQ_ESHAPE : MRTQ_EINVAL;
    if (valid) {
      __int128 big = (__int128)1 << 100;
      ekh = s.kh - 1 && s.dil_h > big / (s.kh - 1) ? big : ((__int128)s.kh - 1) * s.dil_h + 1;
      ekw = s.kw - 1 && s.dil_w > big / (s.kw - 1) ? big : ((__int128)s.kw - 1) * s.dil_w + 1;
      valid = ekh <= hp && ekw <= wp;
      if (!valid) want_shape = MRTQ_ESHAPE;
      if (valid) {
        __int128 h2 = (hp - ekh) / s.stride_h + 1, w2 = (wp - ekw) / s.stride_w + 1;
        cg = s.c / s.groups, og = s.o / s.groups;
        small = s.n <= 64 && s.c <= 64 && s.h <= 64 && s.w <= 64 && s.o <= 64 && s.kh <= 64 && s.kw <= 64 &&
                h2 <= 64 && w2 <= 64 && s.pad_top <= 64 && s.dil_h <= 64 && s.dil_w <= 64 && s.stride_h <= 64 &&
                s.stride_w <= 64; /* huge strides / dilations with a 1-tap kernel: refused as overflowing (fine) */
        small = small && s.n * (__int128)s.c * s.h * s.w <= 4096 && s.n * (__int128)s.o * h2 * w2 <= 4096 &&
                (__int128)s.o * s.kh * s.kw * cg <= 4096 &&
                s.n * (__int128)s.o * h2 * w2 * s.kh * s.kw * cg <= WORK_MAX;
        ho2 = (size_t)(h2 > 1000000 ? 0 : h2), wo2 = (size_t)(w2 > 1000000 ? 0 : w2);
      }
    }
  }
  fz_reason_begin();
  st = mrtq_conv2d_out(&s, &ho, &wo);
  fz_reason_end(st, "mrtq_conv2d_out");
  if (st != MRTQ_OK) FZ_CHECK(ho == 12345 && wo == 12345, "mrtq_conv2d_out refused (%d) but wrote *ho, *wo", (int)st);
  if (getenv("FZ_DEBUG"))
    fprintf(stderr, "conv n %zu c %zu h %zu w %zu o %zu k %zux%zu s %zu,%zu d %zu,%zu p %zu,%zu,%zu,%zu g %zu layout %d w_layout %d: "
            "status %d valid %d small %d\n", s.n, s.c, s.h, s.w, s.o, s.kh, s.kw, s.stride_h, s.stride_w, s.dil_h, s.dil_w,
            s.pad_top, s.pad_left, s.pad_bottom, s.pad_right, s.groups, s.layout, (int)s.w_layout, (int)st, valid, small);
  if (!valid) FZ_EQ(st, want_shape, "mrtq_conv2d_out refused the wrong way");
  if (st == MRTQ_OK) FZ_CHECK(valid, "mrtq_conv2d_out accepted an invalid shape");
  if (valid && small) {
    FZ_EQ(st, MRTQ_OK, "mrtq_conv2d_out refused a small valid shape n %zu c %zu h %zu w %zu o %zu k %zux%zu s %zu,%zu d %zu,%zu p %zu,%zu,%zu,%zu g %zu",
          s.n, s.c, s.h, s.w, s.o, s.kh, s.kw, s.stride_h, s.stride_w, s.dil_h, s.dil_w, s.pad_top, s.pad_left, s.pad_bottom, s.pad_right, s.groups);
    FZ_CHECK(ho == ho2 && wo == wo2, "output size %zux%zu, want %zux%zu", ho, wo, ho2, wo2);
  }
  if (valid && !small) return; /* too big to run */
  if (!valid) ho = wo = 1, cg = 1; /* run the kernels on dummy buffers: they must refuse */

  nx = valid ? s.n * s.c * s.h * s.w : 16, nw = valid ? s.o * cg * s.kh * s.kw : 16, ny = valid ? s.n * s.o * ho * wo : 16;
  xd = (uint8_t *)malloc(nx + 1), wd = (uint8_t *)malloc(nw + 1);
  fz_fill(f, xd, nx), fz_fill(f, wd, nw);
  x.data = xd, x.type = type_for(f), x.zp = zp_for(f, x.type), x.zp_ch = NULL;
  w.data = wd, w.type = type_for(f), w.zp = zp_for(f, w.type), w.zp_ch = NULL;
  pc = fz_bool(f) && s.o <= 64;
  for (i = 0; i < 64; i++) zpch[i] = zp_for(f, w.type), bias[i] = fz_u8(f) < 200 ? (int32_t)fz_irange(f, -5000, 5000) : fz_i32(f);
  if (pc) w.zp_ch = zpch, w.zp = fz_rare(f, 8) ? w.zp : 0; /* w->zp beside w->zp_ch: refused */
  if (fz_rare(f, 3)) x.zp_ch = zpch; /* refused: activations have no per-channel zero points */
  if (fz_rare(f, 3)) x.data = NULL;
  make_rqs(f, &r, s.o);
  {
    const int32_t *bp = fz_bool(f) && s.o <= 64 ? bias : NULL;
    int zps_ok = in_q8(x.zp, x.type) && !(w.zp_ch && w.zp), ok;
    for (i = 0; i < (w.zp_ch ? s.o : 1); i++) zps_ok &= in_w(w.zp_ch ? w.zp_ch[i] : w.zp, w.type);
    ok = valid && x.data && is_q8(x.type) && w_ok(w.type, 1) && !x.zp_ch && zps_ok &&
         worst_case_ok((uint64_t)cg * s.kh * s.kw, &x, &w, s.o, bp, s.o);
    if (q8out) {
      uint8_t *y1 = (uint8_t *)fz_buf_new(&ba, ny, 0xa5), *y2 = (uint8_t *)fz_buf_new(&bb, ny, 0x5a);
      fz_reason_begin();
      st = mrtq_conv2d_q8(&s, r.rq, r.n, &x, &w, bp, dt, y1);
      fz_reason_end(st, "mrtq_conv2d_q8");
      st2 = mrtq_conv2d_q8(&s, r.rq, r.n, &x, &w, bp, dt, y2);
      if (ok && ((r.n != 1 && r.n != s.o) || !rqs_ok(&r) || !is_q8(dt))) ok = 0;
      fz_after(&ba, st, "mrtq_conv2d_q8");
      fz_after(&bb, st2, "mrtq_conv2d_q8");
      FZ_EQ(st, st2, "same call, same status");
      FZ_EQ(st == MRTQ_OK, ok, "mrtq_conv2d_q8 status %d (shape valid %d)", (int)st, valid);
      if (st == MRTQ_OK) FZ_CHECK(fz_same_output(&ba, &bb), "mrtq_conv2d_q8 left part of its output unwritten");
      /* the fast core from the same weights (any type and zero points it packs): same status, same bytes */
      if (valid) {
        mrtq_fastconv fp;
        size_t wb = 0, sb = 0;
        if (mrtq_fastconv_sizes(&s, &wb, &sb) == MRTQ_OK && wb <= ((size_t)16 << 20) && sb <= ((size_t)16 << 20)) {
          void *wm = malloc(wb), *sm = malloc(sb);
          fz_buf bc;
          uint8_t *y3 = (uint8_t *)fz_buf_new(&bc, ny, 0x3c);
          if (mrtq_fastconv_init(&s, &w, wm, wb, &fp) == MRTQ_OK) {
            mrtq_status st3 = mrtq_fastconv_q8(&fp, r.rq, r.n, &x, bp, dt, sm, sb, NULL, y3);
            fz_after(&bc, st3, "mrtq_fastconv_q8");
            FZ_EQ(st3, st, "mrtq_fastconv_q8 status as mrtq_conv2d_q8's");
            if (st == MRTQ_OK && st3 == MRTQ_OK)
              FZ_CHECK(memcmp(fz_buf_data(&ba), y3, ny) == 0, "mrtq_fastconv_q8 bytes differ from mrtq_conv2d_q8's");
          }
          fz_buf_free(&bc), free(wm), free(sm);
        }
      }
    } else {
      fz_buf_new(&ba, ny * 4, 0xa5), fz_buf_new(&bb, ny * 4, 0x5a);
      fz_reason_begin();
      st = mrtq_conv2d_s32(&s, &x, &w, bp, (int32_t *)fz_buf_data(&ba));
      fz_reason_end(st, "mrtq_conv2d_s32");
      st2 = mrtq_conv2d_s32(&s, &x, &w, bp, (int32_t *)fz_buf_data(&bb));
      fz_after(&ba, st, "mrtq_conv2d_s32");
      fz_after(&bb, st2, "mrtq_conv2d_s32");
      FZ_EQ(st == MRTQ_OK, ok, "mrtq_conv2d_s32 status %d (shape valid %d)", (int)st, valid);
      if (st == MRTQ_OK) FZ_CHECK(fz_same_output(&ba, &bb), "mrtq_conv2d_s32 left part of its output unwritten");
    }
    if (st == MRTQ_OK) { /* the direct oracle */
      int nchw = s.layout == MRTQ_NCHW;
      for (n = 0; n < s.n; n++)
        for (o = 0; o < s.o; o++)
          for (oy = 0; oy < ho; oy++)
            for (ox = 0; ox < wo; ox++) {
              int64_t acc = bp ? bp[o] : 0;
              int32_t zw = w.zp_ch ? w.zp_ch[o] : w.zp;
              size_t g = o / og, at = nchw ? ((n * s.o + o) * ho + oy) * wo + ox : ((n * ho + oy) * wo + ox) * s.o + o;
              for (c = 0; c < cg; c++)
                for (ky = 0; ky < s.kh; ky++)
                  for (kx = 0; kx < s.kw; kx++) {
                    size_t iy = oy * s.stride_h + ky * s.dil_h, ix = ox * s.stride_w + kx * s.dil_w, ci = g * cg + c;
                    size_t wa = nchw ? ((o * cg + c) * s.kh + ky) * s.kw + kx : ((o * s.kh + ky) * s.kw + kx) * cg + c;
                    int32_t xv;
                    if (s.w_layout == MRTQ_W_TFLITE_DW) wa = (ky * s.kw + kx) * s.o + o; /* [1][kh][kw][o] */
                    if (iy < s.pad_top || iy >= s.pad_top + s.h || ix < s.pad_left || ix >= s.pad_left + s.w) continue;
                    iy -= s.pad_top, ix -= s.pad_left;
                    xv = q8(xd, nchw ? ((n * s.c + ci) * s.h + iy) * s.w + ix : ((n * s.h + iy) * s.w + ix) * s.c + ci,
                            x.type == MRTQ_U8);
                    acc += (int64_t)(xv - x.zp) * (wval(wd, wa, w.type) - zw);
                  }
              FZ_CHECK(acc >= INT32_MIN && acc <= INT32_MAX, "accepted, but the exact sum %lld leaves int32", (long long)acc);
              if (q8out) {
                int32_t got = q8((const uint8_t *)fz_buf_data(&ba), at, ou);
                FZ_EQ(got, mrtq_rq_apply(&r.rq[r.n == 1 ? 0 : o], (int32_t)acc, ou ? 0 : -128, ou ? 255 : 127),
                      "mrtq_conv2d_q8 output %zu (n %zu o %zu y %zu x %zu)", at, n, o, oy, ox);
              } else {
                int32_t got;
                memcpy(&got, (const uint8_t *)fz_buf_data(&ba) + 4 * at, 4);
                FZ_EQ(got, acc, "mrtq_conv2d_s32 output %zu (n %zu o %zu y %zu x %zu)", at, n, o, oy, ox);
              }
            }
    }
    fz_buf_free(&ba), fz_buf_free(&bb);
  }
  free(xd), free(wd);
}

/* ---- fully connected and matmul ---- */
static void check_fc_matmul(fz *f) {
  int mm = fz_bool(f), q8out = fz_bool(f);
  mrtq_dtype dt = type_for(f);
  int ou = dt == MRTQ_U8, shared = fz_bool(f);
  size_t batch = mm ? fz_dim(f, 1, 3) : 1, m = fz_dim(f, 1, 8), k = fz_dim(f, 1, 24), n = fz_dim(f, 1, 12), i, j, t, b;
  size_t na, nb, ny;
  int valid = batch && m && k && n, pc;
  int32_t zpch[64], bias[64];
  uint8_t *ad, *bd;
  mrtq_qoperand a, bo;
  rqset r;
  fz_buf ba, bb;
  mrtq_status st, st2;
  const int32_t *bp;
  int ok, zps_ok;
  if (valid && (batch > 4096 || m > 4096 || k > 4096 || n > 4096 || (__int128)batch * m * k * n > WORK_MAX)) return;
  if (valid && n > 64) return;
  na = valid ? batch * m * k : 16, nb = valid ? (shared || !mm ? 1 : batch) * k * n : 16, ny = valid ? batch * m * n : 16;
  ad = (uint8_t *)malloc(na + 1), bd = (uint8_t *)malloc(nb + 1);
  fz_fill(f, ad, na), fz_fill(f, bd, nb);
  a.data = ad, a.type = type_for(f), a.zp = zp_for(f, a.type), a.zp_ch = NULL;
  bo.data = bd, bo.type = type_for(f), bo.zp = zp_for(f, bo.type), bo.zp_ch = NULL;
  pc = fz_bool(f) && valid;
  for (i = 0; i < 64; i++) zpch[i] = zp_for(f, bo.type), bias[i] = fz_u8(f) < 200 ? (int32_t)fz_irange(f, -5000, 5000) : fz_i32(f);
  if (pc) bo.zp_ch = zpch, bo.zp = fz_rare(f, 8) ? bo.zp : 0; /* b->zp beside b->zp_ch: refused */
  if (fz_rare(f, 3)) a.zp_ch = zpch;
  bp = fz_bool(f) && valid ? bias : NULL;
  make_rqs(f, &r, n);
  zps_ok = in_q8(a.zp, a.type) && !(bo.zp_ch && bo.zp);
  for (i = 0; i < (bo.zp_ch ? n : 1); i++) zps_ok &= in_w(bo.zp_ch ? bo.zp_ch[i] : bo.zp, bo.type);
  ok = valid && is_q8(a.type) && w_ok(bo.type, !mm) && !a.zp_ch && zps_ok && worst_case_ok(k, &a, &bo, n, bp, n);
  if (q8out && ((r.n != 1 && r.n != n) || !rqs_ok(&r) || !is_q8(dt))) ok = 0;
  fz_reason_begin();
  fz_buf_new(&ba, ny * (q8out ? 1 : 4), 0xa5), fz_buf_new(&bb, ny * (q8out ? 1 : 4), 0x5a);
  /* fc: x rows x k, weights o x k (row-major): B^T of the matmul */
  if (!mm) {
    uint8_t *wt = (uint8_t *)malloc(nb + 1);
    mrtq_qoperand w = bo;
    if (valid && bo.type == MRTQ_S4) { /* nibble (t, j) of bd to nibble (j, t) of wt; the rest of wt as bd */
      memcpy(wt, bd, nb);
      for (j = 0; j < n; j++)
        for (t = 0; t < k; t++) {
          size_t e = j * k + t;
          uint8_t v = (uint8_t)(wval(bd, t * n + j, MRTQ_S4) & 15);
          wt[e / 2] = (uint8_t)(e % 2 ? (wt[e / 2] & 0x0F) | v << 4 : (wt[e / 2] & 0xF0) | v);
        }
    } else if (valid)
      for (j = 0; j < n; j++)
        for (t = 0; t < k; t++) wt[j * k + t] = bd[t * n + j];
    else memcpy(wt, bd, nb);
    w.data = wt;
    if (q8out) {
      st = mrtq_fc_q8(m, k, n, r.rq, r.n, &a, &w, bp, dt, fz_buf_data(&ba));
      fz_reason_end(st, "mrtq_fc_q8");
      st2 = mrtq_fc_q8(m, k, n, r.rq, r.n, &a, &w, bp, dt, fz_buf_data(&bb));
    } else {
      st = mrtq_fc_s32(m, k, n, &a, &w, bp, (int32_t *)fz_buf_data(&ba));
      fz_reason_end(st, "mrtq_fc_s32");
      st2 = mrtq_fc_s32(m, k, n, &a, &w, bp, (int32_t *)fz_buf_data(&bb));
    }
    free(wt);
  } else if (q8out) {
    st = mrtq_matmul_q8(batch, m, k, n, r.rq, r.n, &a, &bo, shared, bp, dt, fz_buf_data(&ba));
    fz_reason_end(st, "mrtq_matmul_q8");
    st2 = mrtq_matmul_q8(batch, m, k, n, r.rq, r.n, &a, &bo, shared, bp, dt, fz_buf_data(&bb));
  } else {
    st = mrtq_matmul_s32(batch, m, k, n, &a, &bo, shared, bp, (int32_t *)fz_buf_data(&ba));
    fz_reason_end(st, "mrtq_matmul_s32");
    st2 = mrtq_matmul_s32(batch, m, k, n, &a, &bo, shared, bp, (int32_t *)fz_buf_data(&bb));
  }
  fz_after(&ba, st, mm ? "mrtq_matmul" : "mrtq_fc");
  fz_after(&bb, st2, mm ? "mrtq_matmul" : "mrtq_fc");
  FZ_EQ(st == MRTQ_OK, ok, "%s_%s status %d", mm ? "mrtq_matmul" : "mrtq_fc", q8out ? "q8" : "s32", (int)st);
  if (st == MRTQ_OK) {
    FZ_CHECK(fz_same_output(&ba, &bb), "%s left part of its output unwritten", mm ? "mrtq_matmul" : "mrtq_fc");
    for (b = 0; b < batch; b++)
      for (i = 0; i < m; i++)
        for (j = 0; j < n; j++) {
          int64_t acc = bp ? bp[j] : 0;
          size_t bb0 = mm && !shared ? b * k * n : 0, at = (b * m + i) * n + j;
          int32_t zb = bo.zp_ch ? bo.zp_ch[j] : bo.zp;
          for (t = 0; t < k; t++)
            acc += (int64_t)(q8(ad, (b * m + i) * k + t, a.type == MRTQ_U8) - a.zp) *
                   (wval(bd, bb0 + t * n + j, bo.type) - zb);
          if (q8out) {
            FZ_EQ(q8((const uint8_t *)fz_buf_data(&ba), at, ou),
                  mrtq_rq_apply(&r.rq[r.n == 1 ? 0 : j], (int32_t)acc, ou ? 0 : -128, ou ? 255 : 127), "%s_q8 output %zu",
                  mm ? "mrtq_matmul" : "mrtq_fc", at);
          } else {
            int32_t got;
            memcpy(&got, (const uint8_t *)fz_buf_data(&ba) + 4 * at, 4);
            FZ_EQ(got, acc, "%s_s32 output %zu", mm ? "mrtq_matmul" : "mrtq_fc", at);
          }
        }
  }
  fz_buf_free(&ba), fz_buf_free(&bb);
  free(ad), free(bd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f = {data, size};
  if (fz_bool(&f)) check_conv(&f);
  else check_fc_matmul(&f);
  return 0;
}
