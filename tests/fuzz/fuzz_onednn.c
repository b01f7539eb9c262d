/* attr.h and fastconv.h: oneDNN's int8 convolution / inner product
 * (mrtq_conv2d_onednn, mrtq_fc_onednn) with fuzzed shapes and attributes
 * (both scale schemes, masks, zero points per tensor and per channel, post-op
 * chains with binary src1 of every broadcast, reference and JIT rounding)
 * against a direct sum fed to mrtq_onednn_epilogue; the fast path
 * (mrtq_fastconv_init / _init_fc + mrtq_fastconv_onednn) gives the same bytes
 * and the same acceptance; mrtq_binary_onednn and mrtq_sum_onednn against
 * their per-element formulas. Refusals leave dst as it was (dst is read by the
 * SUM post-op, so it starts with fuzzed bytes), success stays within the
 * extent. Built twice by run.sh: with AVX512-VNNI (vector kernel and
 * epilogue) and without (plain C).
 * The expected values come twice: from mrtq_onednn_epilogue (mrtq's own
 * scalar specification) and from ref_epilogue / ref_tail below, written here
 * from attr.h's documented float sequence (an eltwise post-op's scale
 * multiplies its result: fl(eltwise(f) * scale)). Acceptance is compared with
 * attr_ok, the documented rules (fields a mode never reads must be 0, an
 * eltwise scale 0 is refused). */
#include "fuzz.h"

#include "mrtq/fastconv.h"

#include "fuzz_q8.h"

#define MAXOUT 2048
#define MAXF 4096

static float scale_value(fz *f) {
  uint8_t m = fz_u8(f);
  if (m < 200) return (float)fz_irange(f, 1, 4000) / 1024.0f * (m & 1 ? -1.0f : 1.0f);
  return fz_float(f);
}

static int in_type(int64_t v, mrtq_dtype t) { return t == MRTQ_U8 ? v >= 0 && v <= 255 : t == MRTQ_S8 ? v >= -128 && v <= 127 : 0; }

typedef struct attr_mem {
  float oscale[MAXF], src1[MRTQ_ONEDNN_MAX_PO][MAXF], ss, ws[MAXF], ds, fbias[MAXF];
  int32_t szp[256], dzp[256];
} attr_mem;

/* Attributes for a dst of logical dims (n, oc, ...) with nout elements and
 * noc channels, nsrc src channels. Mostly valid; sometimes not. */
static void make_attr(fz *f, mrtq_onednn_attr *a, attr_mem *m, int ndim, int du, int xu, size_t nsrc) {
  int i;
  size_t k;
  memset(a, 0, sizeof *a);
  for (k = 0; k < MAXF; k++) {
    m->oscale[k] = scale_value(f), m->ws[k] = scale_value(f), m->fbias[k] = (float)fz_irange(f, -2000, 2000) / 8.0f;
    if (k > 64 && fz_u8(f) < 250) break; /* the rest: defaults below */
  }
  for (; k < MAXF; k++) m->oscale[k] = 0.5f, m->ws[k] = 0.25f, m->fbias[k] = 1.5f;
  for (i = 0; i < MRTQ_ONEDNN_MAX_PO; i++)
    for (k = 0; k < MAXF; k++) m->src1[i][k] = k < 64 ? scale_value(f) : (float)(k % 7) - 3.0f;
  m->ss = scale_value(f), m->ds = fz_u8(f) < 250 ? (float)fz_irange(f, 1, 64) / 16.0f : fz_float(f);
  for (k = 0; k < 256; k++) {
    m->szp[k] = fz_rare(f, 4) ? fz_i32(f) : xu ? (int32_t)fz_range(f, 0, 255) : (int32_t)fz_irange(f, -128, 127);
    m->dzp[k] = fz_rare(f, 4) ? fz_i32(f) : du ? (int32_t)fz_range(f, 0, 255) : (int32_t)fz_irange(f, -128, 127);
    if (k > 16 && fz_u8(f) < 250) {
      for (; k < 256; k++) m->szp[k] = xu ? 3 : -3, m->dzp[k] = du ? 5 : -5;
      break;
    }
  }
  a->scheme = fz_rare(f, 4) ? (int)fz_irange(f, -1, 3) : fz_bool(f);
  a->oscale_mask = fz_rare(f, 4) ? (int)fz_irange(f, -1, 1 << ndim) : fz_bool(f) ? 0 : fz_bool(f) ? 2 : (int)fz_range(f, 0, (1 << ndim) - 1);
  if (a->scheme == MRTQ_ONEDNN_OLD ? fz_u8(f) < 200 : fz_rare(f, 4)) a->oscale = m->oscale;
  /* a mask is read only with OLD output scales: 0 otherwise, but sometimes left (refused) */
  if ((!a->oscale || a->scheme != MRTQ_ONEDNN_OLD) && !fz_rare(f, 8)) a->oscale_mask = 0;
  if (a->scheme == MRTQ_ONEDNN_NEW || fz_rare(f, 4)) {
    if (fz_bool(f)) a->src_scale = &m->ss;
    if (fz_bool(f)) a->wei_scale = m->ws, a->wei_per_oc = fz_bool(f);
    if (fz_bool(f)) a->dst_scale = &m->ds;
    if (fz_bool(f)) a->fbias = m->fbias;
  }
  a->src_zp = fz_rare(f, 4) ? fz_i32(f) : fz_bool(f) ? 0 : m->szp[0];
  a->dst_zp = fz_rare(f, 4) ? fz_i32(f) : fz_bool(f) ? 0 : m->dzp[0];
  if (fz_rare(f, 40) && nsrc) a->src_zp_ch = m->szp, a->src_zp = fz_rare(f, 8) ? a->src_zp : 0;
  if (fz_rare(f, 40)) a->dst_zp_ch = m->dzp, a->dst_zp = fz_rare(f, 8) ? a->dst_zp : 0;
  a->ref_rounding = fz_rare(f, 4) ? (int)fz_irange(f, -1, 2) : fz_bool(f);
  a->n_po = fz_rare(f, 4) ? (int)fz_irange(f, -1, 6) : (int)fz_range(f, 0, 4);
  for (i = 0; i < MRTQ_ONEDNN_MAX_PO; i++) {
    mrtq_onednn_po *p = &a->po[i];
    p->kind = fz_rare(f, 4) ? (int)fz_irange(f, -1, 7) : (int)fz_range(f, 0, 5);
    p->scale = scale_value(f), p->alpha = scale_value(f), p->beta = scale_value(f);
    if (p->kind == MRTQ_ONEDNN_CLIP && p->alpha > p->beta && fz_u8(f) < 240) {
      float t = p->alpha;
      p->alpha = p->beta, p->beta = t;
    }
    p->zp = fz_bool(f) ? 0 : fz_rare(f, 16) ? fz_i32(f) : (int32_t)fz_irange(f, -300, 300);
    p->src1 = fz_rare(f, 4) ? NULL : m->src1[i];
    p->src1_bcast = fz_rare(f, 4) ? (int)fz_irange(f, -1, 4) : (int)fz_range(f, 0, 2);
    /* the fields a kind never reads are 0 (each sometimes left: refused) */
    if (!fz_rare(f, 6)) {
      int binary = p->kind == MRTQ_ONEDNN_BIN_ADD || p->kind == MRTQ_ONEDNN_BIN_MUL;
      if (binary || p->kind == MRTQ_ONEDNN_SUM) p->alpha = 0;
      if (binary || p->kind == MRTQ_ONEDNN_SUM || p->kind == MRTQ_ONEDNN_RELU) p->beta = 0;
      if (p->kind != MRTQ_ONEDNN_SUM) p->zp = 0;
      if (!binary) p->src1 = NULL, p->src1_bcast = 0;
      if (p->kind == MRTQ_ONEDNN_RELU && fz_bool(f)) p->alpha = 0; /* plain ReLU */
    }
    /* an eltwise scale: 1 (unscaled) half the time; 0 sometimes (refused) */
    if (p->kind >= MRTQ_ONEDNN_RELU && p->kind <= MRTQ_ONEDNN_CLIP) p->scale = fz_bool(f) ? 1.0f : fz_rare(f, 8) ? 0.0f : p->scale;
  }
}

static int32_t q8(const void *p, size_t i, int u) {
  return u ? (int32_t)((const uint8_t *)p)[i] : (int32_t)((const int8_t *)p)[i];
}

/* The attribute rules of attr.h (mrtq_onednn_attr, mrtq_onednn_po) for a dst
 * of ndim logical dimensions and type dt (an S8 / U8 one). */
static int attr_ok(const mrtq_onednn_attr *a, int ndim, mrtq_dtype dt) {
  int i;
  if (a->scheme != MRTQ_ONEDNN_OLD && a->scheme != MRTQ_ONEDNN_NEW) return 0;
  if (a->n_po < 0 || a->n_po > MRTQ_ONEDNN_MAX_PO) return 0;
  if (a->ref_rounding != 0 && a->ref_rounding != 1) return 0;
  if (a->oscale_mask < 0 || a->oscale_mask >= (1 << ndim)) return 0;
  if (a->scheme == MRTQ_ONEDNN_NEW) {
    if (a->oscale || a->oscale_mask) return 0;
    if (a->wei_per_oc != 0 && a->wei_per_oc != 1) return 0;
    if (a->wei_per_oc && !a->wei_scale) return 0;
  } else {
    if (a->oscale_mask && !a->oscale) return 0;
    if (a->src_scale || a->wei_scale || a->dst_scale || a->fbias || a->wei_per_oc) return 0;
  }
  if (a->dst_zp_ch && a->dst_zp) return 0;
  if (!in_type(a->dst_zp, dt)) return 0;
  for (i = 0; i < a->n_po; i++) {
    const mrtq_onednn_po *p = &a->po[i];
    int binary = p->kind == MRTQ_ONEDNN_BIN_ADD || p->kind == MRTQ_ONEDNN_BIN_MUL, eltwise = p->kind >= MRTQ_ONEDNN_RELU && p->kind <= MRTQ_ONEDNN_CLIP;
    if (p->kind < MRTQ_ONEDNN_SUM || p->kind > MRTQ_ONEDNN_BIN_MUL) return 0;
    if (binary && (!p->src1 || p->src1_bcast < 0 || p->src1_bcast > 2)) return 0;
    if (!binary && (p->src1 || p->src1_bcast)) return 0;
    if ((binary || p->kind == MRTQ_ONEDNN_SUM) && p->alpha != 0) return 0;
    if ((binary || p->kind == MRTQ_ONEDNN_SUM || p->kind == MRTQ_ONEDNN_RELU) && p->beta != 0) return 0;
    if (p->kind != MRTQ_ONEDNN_SUM && p->zp != 0) return 0;
    if (p->kind == MRTQ_ONEDNN_CLIP && p->alpha > p->beta) return 0;
    if (eltwise && p->scale == 0) return 0;
  }
  return 1;
}

/* The documented float sequence, independently of attr.h's code: every
 * product stored to a volatile float (rounded on its own, never contracted),
 * fmaf from libm where oneDNN's JIT fuses. */
static float fl(float x) {
  volatile float t = x;
  return t;
}
static int32_t ref_store(float f, int32_t lo, int32_t hi, int ref) {
  float r;
  if (f != f) return ref ? 0 : lo < 0 ? hi : lo;
  r = rintf(f);
  return r < (float)lo ? lo : r > (float)hi ? hi : (int32_t)r;
}
static int32_t ref_tail(const mrtq_onednn_attr *a, const mrtq_onednn_pos *at, float f, int32_t prev, int32_t lo, int32_t hi) {
  int i;
  for (i = 0; i < a->n_po; i++) {
    const mrtq_onednn_po *p = &a->po[i];
    switch (p->kind) {
      case MRTQ_ONEDNN_SUM: {
        const float d = fl((float)prev - (float)p->zp); /* the sum's zero point, subtracted in float */
        f = a->ref_rounding ? fl(f + fl(p->scale * d)) : fmaf(p->scale, d, f);
        break;
      }
      case MRTQ_ONEDNN_RELU:
        if (!(f > 0)) f = p->alpha == 0 && !a->ref_rounding ? 0.0f : fl(p->alpha * f);
        f = fl(f * p->scale);
        break;
      case MRTQ_ONEDNN_LINEAR:
        f = a->ref_rounding ? fl(fl(p->alpha * f) + p->beta) : fmaf(p->alpha, f, p->beta);
        f = fl(f * p->scale);
        break;
      case MRTQ_ONEDNN_CLIP:
        f = f > p->alpha ? f : p->alpha;
        f = f < p->beta ? f : p->beta;
        f = fl(f * p->scale);
        break;
      default: {
        float v = fl(p->scale * p->src1[p->src1_bcast == MRTQ_ONEDNN_PER_ELEM ? at->at : p->src1_bcast == MRTQ_ONEDNN_PER_OC ? at->oc : 0]);
        f = p->kind == MRTQ_ONEDNN_BIN_ADD ? fl(f + v) : fl(f * v);
      }
    }
  }
  if (a->scheme == MRTQ_ONEDNN_NEW && a->dst_scale) f = fl(f / a->dst_scale[0]);
  f = fl(f + (float)(a->dst_zp_ch ? a->dst_zp_ch[at->oc] : a->dst_zp));
  return ref_store(f, lo, hi, a->ref_rounding);
}
static int32_t ref_epilogue(const mrtq_onednn_attr *a, const mrtq_onednn_pos *at, int32_t acc, const int32_t *bias,
                            int32_t prev, int32_t lo, int32_t hi) {
  float f = (float)acc;
  if (a->scheme == MRTQ_ONEDNN_NEW) {
    float ss = a->src_scale ? a->src_scale[0] : 1.0f, ws = a->wei_scale ? a->wei_scale[a->wei_per_oc ? at->oc : 0] : 1.0f;
    f = fl(f * fl(ss * ws));
    if (a->fbias) f = fl(f + a->fbias[at->oc]);
  } else {
    if (bias) f = fl(f + (float)bias[at->oc]);
    if (a->oscale) f = fl(f * a->oscale[at->si]);
  }
  return ref_tail(a, at, f, prev, lo, hi);
}

/* A dst buffer with fuzzed initial bytes (read by SUM), guarded. */
typedef struct dstbuf {
  fz_buf b;
  uint8_t *init;
} dstbuf;
static uint8_t *dst_new(fz *f, dstbuf *d, size_t n) {
  uint8_t *p = (uint8_t *)fz_buf_new_at(&d->b, n, 0xa5, fz_range(f, 0, 63));
  d->init = (uint8_t *)malloc(n + 1);
  fz_fill(f, d->init, n);
  memcpy(p, d->init, n);
  return p;
}
static void dst_after(const dstbuf *d, int st, const char *what) {
  if (!fz_guards_intact(&d->b)) FZ_FAIL("%s wrote outside its %zu-byte dst", what, d->b.n);
  if (st != 0 && memcmp(fz_buf_data(&d->b), d->init, d->b.n) != 0) FZ_FAIL("%s refused (%d) but changed dst", what, st);
}
static void dst_free(dstbuf *d) { fz_buf_free(&d->b), free(d->init); }

static size_t dim(fz *f, size_t lo, size_t hi) { return fz_rare(f, 3) ? 0 : (size_t)fz_range(f, lo, hi); }

static void check_conv(fz *f, attr_mem *m) {
  mrtq_conv2d_shape s;
  mrtq_qoperand x, w;
  mrtq_onednn_attr a;
  size_t ho, wo, nx, nw, ny, i, c4[4], d4[4], cg, og, ky, kx, ci;
  int fc = fz_bool(f), nchw;
  mrtq_dtype dt = type_for(f);
  int du = dt == MRTQ_U8;
  int32_t bias[256];
  const int32_t *bp;
  uint8_t *xd, *wd, *y;
  dstbuf db, dbf;
  mrtq_status st, stf;
  memset(&s, 0, sizeof s);
  if (fc) {
    size_t rows = dim(f, 1, 6), k = dim(f, 1, 80), o = dim(f, 1, 40);
    s = mrtq_fc_shape(rows, k, o);
  } else {
    s.n = dim(f, 1, 2), s.c = dim(f, 1, 20), s.h = dim(f, 1, 8), s.w = dim(f, 1, 8), s.o = dim(f, 1, 40);
    s.kh = dim(f, 1, 3), s.kw = dim(f, 1, 3), s.stride_h = dim(f, 1, 2), s.stride_w = dim(f, 1, 2);
    s.dil_h = dim(f, 1, 2), s.dil_w = dim(f, 1, 2);
    s.pad_top = fz_range(f, 0, 2), s.pad_left = fz_range(f, 0, 2), s.pad_bottom = fz_range(f, 0, 2), s.pad_right = fz_range(f, 0, 2);
    s.groups = fz_u8(f) < 140 ? 1 : fz_bool(f) ? s.c : (size_t)fz_range(f, 1, 4);
    if (s.groups == s.c && fz_bool(f)) s.o = s.c; /* depthwise */
    s.layout = fz_rare(f, 3) ? (mrtq_layout)5 : fz_u8(f) < 160 ? MRTQ_NHWC : MRTQ_NCHW;
  }
  if (mrtq_conv2d_out_onednn(&s, &ho, &wo) != MRTQ_OK) ho = wo = 0; /* oneDNN's output size */
  if (ho && (s.n * s.o * ho * wo > MAXOUT || s.o > 256 || s.c > 256)) return;
  cg = ho ? s.c / s.groups : 1, og = ho ? s.o / s.groups : 1;
  nx = ho ? s.n * s.c * s.h * s.w : 16, nw = ho ? s.o * cg * s.kh * s.kw : 16, ny = ho ? s.n * s.o * ho * wo : 16;
  xd = (uint8_t *)malloc(nx + 1), wd = (uint8_t *)malloc(nw + 1);
  fz_fill(f, xd, nx), fz_fill(f, wd, nw);
  x.data = xd, x.type = type_for(f), x.zp_ch = NULL;
  w.data = wd, w.type = fz_rare(f, 8) ? (fz_rare(f, 64) ? type_for(f) : MRTQ_U8) : MRTQ_S8;
  w.zp = fz_rare(f, 8) ? (int32_t)fz_irange(f, -3, 3) : 0, w.zp_ch = NULL;
  make_attr(f, &a, m, fc ? 2 : 4, du, x.type == MRTQ_U8, ho ? s.c : 0);
  x.zp = fz_rare(f, 8) ? (int32_t)fz_irange(f, -128, 255) : a.src_zp;
  for (i = 0; i < 256; i++) bias[i] = fz_u8(f) < 250 ? (int32_t)fz_irange(f, -3000, 3000) : fz_i32(f);
  bp = fz_bool(f) ? bias : NULL;
  y = dst_new(f, &db, ny);
  fz_reason_begin();
  st = fc ? mrtq_fc_onednn(s.n, s.c, s.o, &a, &x, &w, bp, dt, y) : mrtq_conv2d_onednn(&s, &a, &x, &w, bp, dt, y);
  fz_reason_end(st, fc ? "mrtq_fc_onednn" : "mrtq_conv2d_onednn");
  dst_after(&db, (int)st, fc ? "mrtq_fc_onednn" : "mrtq_conv2d_onednn");
  if (getenv("FZ_DEBUG")) fprintf(stderr, "conv fc %d status %d\n", fc, (int)st);
  if (st == MRTQ_OK) {
    int zps = 1;
    for (i = 0; a.src_zp_ch && i < s.c; i++) zps &= in_type(a.src_zp_ch[i], x.type);
    for (i = 0; a.dst_zp_ch && i < s.o; i++) zps &= in_type(a.dst_zp_ch[i], dt);
    FZ_CHECK(ho && w.zp == 0 && !w.zp_ch && x.zp == a.src_zp && !(bp && a.scheme == MRTQ_ONEDNN_NEW) && a.n_po >= 0 &&
                 a.n_po <= MRTQ_ONEDNN_MAX_PO && (a.scheme == 0 || a.scheme == 1) && is_q8(x.type) && is_q8(w.type) &&
                 is_q8(dt) && attr_ok(&a, fc ? 2 : 4, dt) && zps && !(a.src_zp_ch && (a.src_zp || fc)),
             "%s accepted invalid arguments", fc ? "mrtq_fc_onednn" : "mrtq_conv2d_onednn");
    nchw = s.layout == MRTQ_NCHW;
    d4[0] = s.n, d4[1] = s.o, d4[2] = ho, d4[3] = wo;
    for (c4[0] = 0; c4[0] < s.n; c4[0]++)
      for (c4[1] = 0; c4[1] < s.o; c4[1]++)
        for (c4[2] = 0; c4[2] < ho; c4[2]++)
          for (c4[3] = 0; c4[3] < wo; c4[3]++) {
            size_t n = c4[0], o = c4[1], oy = c4[2], ox = c4[3], g = o / og, si = 0;
            int64_t acc = 0;
            int d;
            int32_t want = 0;
            mrtq_onednn_pos pos;
            for (ci = 0; ci < cg; ci++)
              for (ky = 0; ky < s.kh; ky++)
                for (kx = 0; kx < s.kw; kx++) {
                  size_t iy = oy * s.stride_h + ky * s.dil_h, ix = ox * s.stride_w + kx * s.dil_w, cc = g * cg + ci;
                  size_t wa = nchw ? ((o * cg + ci) * s.kh + ky) * s.kw + kx : ((o * s.kh + ky) * s.kw + kx) * cg + ci;
                  int32_t zx = a.src_zp_ch ? a.src_zp_ch[cc] : x.zp;
                  if (iy < s.pad_top || iy >= s.pad_top + s.h || ix < s.pad_left || ix >= s.pad_left + s.w) continue;
                  iy -= s.pad_top, ix -= s.pad_left;
                  acc += (int64_t)(q8(xd, nchw ? ((n * s.c + cc) * s.h + iy) * s.w + ix : ((n * s.h + iy) * s.w + ix) * s.c + cc,
                                      x.type == MRTQ_U8) - zx) * q8(wd, wa, w.type == MRTQ_U8);
                }
            FZ_CHECK(acc >= INT32_MIN && acc <= INT32_MAX, "accepted, but the exact sum %lld leaves int32", (long long)acc);
            for (d = 0; d < (fc ? 2 : 4); d++)
              if (a.oscale_mask >> d & 1) si = si * d4[d] + c4[d];
            pos.si = si, pos.oc = o;
            pos.at = nchw ? ((n * s.o + o) * ho + oy) * wo + ox : ((n * ho + oy) * wo + ox) * s.o + o;
            FZ_EQ(mrtq_onednn_epilogue(&a, &pos, (int32_t)acc, bp, q8(db.init, pos.at, du), dt, &want), MRTQ_OK,
                  "mrtq_onednn_epilogue refused what %s accepted", fc ? "mrtq_fc_onednn" : "mrtq_conv2d_onednn");
            FZ_EQ(q8(y, pos.at, du), want, "%s output %zu (n %zu o %zu y %zu x %zu, acc %lld)",
                  fc ? "mrtq_fc_onednn" : "mrtq_conv2d_onednn", pos.at, n, o, oy, ox, (long long)acc);
            FZ_EQ(want, ref_epilogue(&a, &pos, (int32_t)acc, bp, q8(db.init, pos.at, du), du ? 0 : -128, du ? 255 : 127),
                  "mrtq_onednn_epilogue against the documented sequence, output %zu (acc %lld)", pos.at, (long long)acc);
          }
  }
  /* the fast path: same acceptance (bar per-channel src zero points and unsigned weights), same bytes */
  {
    mrtq_fastconv p;
    size_t wb = 0, sb = 0;
    mrtq_status sst = mrtq_fastconv_sizes(&s, &wb, &sb), ist;
    void *wmem, *scr;
    fz_buf sbuf;
    if (sst != MRTQ_OK) {
      FZ_CHECK(st != MRTQ_OK, "mrtq_fastconv_sizes refused (%d) a shape the reference accepted", (int)sst);
      goto done;
    }
    if (wb > ((size_t)64 << 20) || sb > ((size_t)64 << 20)) goto done;
    wmem = malloc(wb);
    if (fz_rare(f, 6) && wb > 0) wb -= fz_range(f, 1, wb); /* too little memory: refused */
    {
      mrtq_fastconv keep;
      memset(&p, 0x6b, sizeof p), memcpy(&keep, &p, sizeof p);
      fz_reason_begin();
      ist = fc ? mrtq_fastconv_init_fc(s.n, s.c, s.o, &w, wmem, wb, &p) : mrtq_fastconv_init(&s, &w, wmem, wb, &p);
      fz_reason_end(ist, "mrtq_fastconv_init");
      if (ist != MRTQ_OK) FZ_CHECK(memcmp(&p, &keep, sizeof p) == 0, "mrtq_fastconv_init refused (%d) but wrote *p", (int)ist);
    }
    if (ist != MRTQ_OK) {
      FZ_CHECK(!(st == MRTQ_OK && w.type == MRTQ_S8 && w.zp == 0 && ist != MRTQ_OK && wb >= 1 && ist != MRTQ_EINVAL),
               "mrtq_fastconv_init status %d", (int)ist);
      if (st == MRTQ_OK && w.type == MRTQ_U8) FZ_EQ(ist, MRTQ_EUNSUPPORTED, "mrtq_fastconv_init of u8 weights");
      free(wmem);
      goto done;
    }
    FZ_CHECK(w.type == MRTQ_S8 || w.type == MRTQ_U8 || w.type == MRTQ_S4, "mrtq_fastconv_init accepted a wider type");
    scr = fz_buf_new_at(&sbuf, sb, 0x3c, fz_range(f, 0, 63));
    y = dst_new(f, &dbf, ny);
    memcpy(y, db.init, ny), memcpy(dbf.init, db.init, ny);
    fz_reason_begin();
    stf = mrtq_fastconv_onednn(&p, &a, &x, bp, dt, scr, fz_rare(f, 6) ? sb / 2 : sb, NULL, y);
    fz_reason_end(stf, "mrtq_fastconv_onednn");
    dst_after(&dbf, (int)stf, "mrtq_fastconv_onednn");
    if (w.type != MRTQ_S8 || w.zp != 0) /* packed from other weights than oneDNN's: refused first */
      FZ_EQ(stf, MRTQ_EUNSUPPORTED, "mrtq_fastconv_onednn of weights packed from type %d zp %d", (int)w.type, w.zp);
    if (getenv("FZ_DEBUG")) fprintf(stderr, "fast status %d (ref %d)\n", (int)stf, (int)st);
    FZ_CHECK(fz_guards_intact(&sbuf), "mrtq_fastconv_onednn wrote outside its %zu bytes of scratch", sb);
    if (stf == MRTQ_OK) {
      FZ_EQ(st, MRTQ_OK, "the fast path accepted what mrtq_%s_onednn refused", fc ? "fc" : "conv2d");
      FZ_CHECK(memcmp(y, fz_buf_data(&db.b), ny) == 0, "mrtq_fastconv_onednn bytes differ from mrtq_%s_onednn",
               fc ? "fc" : "conv2d");
    } else if (st == MRTQ_OK) {
      FZ_CHECK(a.src_zp_ch != NULL || stf == MRTQ_EINVAL || (stf == MRTQ_EUNSUPPORTED && (w.type != MRTQ_S8 || w.zp != 0)),
               "mrtq_fastconv_onednn refused (%d) a layer the reference accepted", (int)stf);
    }
    dst_free(&dbf), fz_buf_free(&sbuf), free(wmem);
  }
done:
  dst_free(&db);
  free(xd), free(wd);
}

static void check_binary_sum(fz *f, attr_mem *m) {
  size_t sa[8], sbb[8], na = 1, nb = 1, i, inner = 1;
  int nda = (int)fz_range(f, 0, 4), ndb = (int)fz_range(f, 0, 4), d;
  mrtq_dtype dt = type_for(f);
  int du = dt == MRTQ_U8;
  int op = fz_rare(f, 4) ? (int)fz_irange(f, 0, 7) : fz_bool(f) ? MRTQ_ONEDNN_BIN_ADD : MRTQ_ONEDNN_BIN_MUL;
  mrtq_qoperand a, b;
  mrtq_onednn_attr at;
  float sca = scale_value(f), scb = scale_value(f);
  uint8_t *xa, *xb, *y;
  dstbuf db;
  mrtq_status st;
  for (d = 0; d < 8; d++) sa[d] = fz_rare(f, 3) ? 0 : (size_t)fz_range(f, 1, 4), sbb[d] = fz_bool(f) ? 1 : sa[d];
  if (ndb > nda) ndb = nda;
  for (d = 0; d < ndb; d++) sbb[d] = fz_bool(f) ? 1 : sa[nda - ndb + d];
  if (fz_rare(f, 10)) sbb[0] = (size_t)fz_range(f, 1, 3);
  for (d = 0; d < nda; d++) na *= sa[d];
  for (d = 0; d < ndb; d++) nb *= sbb[d];
  for (d = 2; d < nda; d++) inner *= sa[d];
  a.type = type_for(f), b.type = type_for(f);
  a.zp = fz_u8(f) < 200 ? 0 : (int32_t)fz_irange(f, -130, 260), b.zp = fz_u8(f) < 200 ? 0 : (int32_t)fz_irange(f, -130, 260);
  a.zp_ch = b.zp_ch = NULL;
  xa = (uint8_t *)malloc(na + 1), xb = (uint8_t *)malloc(nb + 1);
  fz_fill(f, xa, na), fz_fill(f, xb, nb);
  a.data = xa, b.data = xb;
  make_attr(f, &at, m, 8, du, 0, 0);
  if (fz_u8(f) < 200) at.oscale = NULL, at.oscale_mask = 0, at.src_zp = 0, at.src_zp_ch = NULL, at.scheme = MRTQ_ONEDNN_OLD;
  if (fz_u8(f) < 200) at.src_scale = at.wei_scale = at.dst_scale = at.fbias = NULL, at.wei_per_oc = 0;
  y = dst_new(f, &db, na ? na : 1);
  fz_reason_begin();
  st = mrtq_binary_onednn(op, &at, &a, sa, nda, sca, &b, sbb, ndb, scb, dt, y);
  fz_reason_end(st, "mrtq_binary_onednn");
  dst_after(&db, (int)st, "mrtq_binary_onednn");
  if (getenv("FZ_DEBUG")) fprintf(stderr, "binary status %d\n", (int)st);
  if (st == MRTQ_OK) {
    mrtq_bcast bc;
    int zps = 1;
    for (i = 0; at.dst_zp_ch && i < (nda >= 2 ? sa[1] : 1); i++) zps &= in_type(at.dst_zp_ch[i], dt);
    FZ_CHECK(na > 0 && (op == MRTQ_ONEDNN_BIN_ADD || op == MRTQ_ONEDNN_BIN_MUL) && !at.oscale && at.scheme == MRTQ_ONEDNN_OLD &&
                 is_q8(a.type) && is_q8(b.type) && is_q8(dt) && in_type(a.zp, a.type) && in_type(b.zp, b.type) &&
                 attr_ok(&at, MRTQ_MAX_DIMS, dt) && !at.src_zp && !at.src_zp_ch && zps,
             "mrtq_binary_onednn accepted invalid arguments");
    FZ_EQ(mrtq_bcast_init(sa, nda, sbb, ndb, &bc), MRTQ_OK, "broadcast");
    for (i = 0; i < na; i++) {
      size_t ia, ib;
      float fa, fb;
      volatile float t;
      mrtq_onednn_pos pos;
      mrtq__bcast_at(&bc, i, &ia, &ib);
      t = sca * (float)(q8(xa, ia, a.type == MRTQ_U8) - a.zp), fa = t;
      t = scb * (float)(q8(xb, ib, b.type == MRTQ_U8) - b.zp), fb = t;
      pos.si = 0, pos.at = i, pos.oc = nda >= 2 ? i / inner % sa[1] : 0;
      t = op == MRTQ_ONEDNN_BIN_ADD ? fa + fb : fa * fb;
      FZ_EQ(q8(y, i, du), mrtq__onednn_tail(&at, &pos, t, q8(db.init, i, du), du ? 0 : -128, du ? 255 : 127),
            "mrtq_binary_onednn output %zu", i);
      FZ_EQ(q8(y, i, du), ref_tail(&at, &pos, t, q8(db.init, i, du), du ? 0 : -128, du ? 255 : 127),
            "mrtq_binary_onednn output %zu against the documented sequence", i);
    }
  }
  dst_free(&db);
  /* sum of up to 3 inputs of na elements (in place sometimes) */
  {
    size_t n = fz_rare(f, 8) ? 0 : fz_range(f, 1, 3), k, cnt = na;
    mrtq_qoperand srcs[3];
    float scales[3];
    uint8_t *buf[3];
    for (k = 0; k < 3; k++) {
      buf[k] = (uint8_t *)malloc(cnt + 1);
      fz_fill(f, buf[k], cnt);
      srcs[k].data = buf[k], srcs[k].type = type_for(f);
      srcs[k].zp = fz_u8(f) < 200 ? 0 : (int32_t)fz_irange(f, -130, 260), srcs[k].zp_ch = fz_rare(f, 4) ? m->szp : NULL;
      scales[k] = scale_value(f);
    }
    y = dst_new(f, &db, cnt ? cnt : 1);
    fz_reason_begin();
    st = mrtq_sum_onednn(n, srcs, scales, cnt, dt, y);
    fz_reason_end(st, "mrtq_sum_onednn");
    dst_after(&db, (int)st, "mrtq_sum_onednn");
    if (getenv("FZ_DEBUG")) fprintf(stderr, "sum status %d\n", (int)st);
    if (st == MRTQ_OK) {
      FZ_CHECK(n >= 1 && is_q8(dt), "mrtq_sum_onednn accepted n = 0 or dst type %d", (int)dt);
      for (k = 0; k < n; k++)
        FZ_CHECK(is_q8(srcs[k].type) && in_type(srcs[k].zp, srcs[k].type) && !srcs[k].zp_ch,
                 "mrtq_sum_onednn accepted srcs[%zu] (type %d, zp %d)", k, (int)srcs[k].type, srcs[k].zp);
      for (i = 0; i < cnt; i++) {
        volatile float acc = 0.0f, v;
        int32_t want;
        for (k = 0; k < n; k++) {
          v = scales[k] * (float)(q8(buf[k], i, srcs[k].type == MRTQ_U8) - srcs[k].zp);
          acc = k ? acc + v : v;
        }
        if (acc != acc) want = du ? 0 : 127;
        else {
          float r = rintf(acc);
          want = r < (du ? 0 : -128) ? (du ? 0 : -128) : r > (du ? 255 : 127) ? (du ? 255 : 127) : (int32_t)r;
        }
        FZ_EQ(q8(y, i, du), want, "mrtq_sum_onednn output %zu", i);
      }
    }
    dst_free(&db);
    for (k = 0; k < 3; k++) free(buf[k]);
  }
  free(xa), free(xb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static attr_mem m;
  fz f = {data, size};
  if (fz_u8(&f) < 180) check_conv(&f, &m);
  else check_binary_sum(&f, &m);
  return 0;
}
