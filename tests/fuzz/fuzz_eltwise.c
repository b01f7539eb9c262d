/* eltwise.h: mrtq_bcast_init, TFLite ADD / MUL and XNNPACK ADD / SUB (init
 * with any scales and zero points, broadcast kernels equal to the one-element
 * functions and to the documented formulas), MRT's binary operators and merge
 * on int32 expansion tensors (interval-checked overflow, values), clamp
 * bounds and mrtq_clamp_q. Shapes, ranks and broadcasts are fuzzed; refusals
 * write nothing (an init leaves *p as it was) and report one reason, success
 * writes exactly the broadcast extent. Types are mrtq_dtype (S8 / U8 mostly,
 * sometimes S16, which TFLite's ADD / MUL take, or one these operators refuse); the MRT rescales are sometimes broken
 * by hand (a scheme outside the enum, a field the scheme never reads,
 * qmin > qmax), which the operators refuse. */
#include "fuzz.h"

#include "mrtq/eltwise.h"
#include "fuzz_q8.h"

typedef struct shp {
  int nd;
  size_t d[9];
} shp;

static void make_shapes(fz *f, shp *a, shp *b) {
  int i;
  a->nd = fz_rare(f, 6) ? (int)fz_irange(f, -2, 10) : (int)fz_range(f, 0, 4);
  b->nd = fz_rare(f, 6) ? (int)fz_irange(f, -2, 10) : (int)fz_range(f, 0, 4);
  for (i = 0; i < 9; i++) {
    uint8_t m = fz_u8(f);
    a->d[i] = m >= 252 ? 0 : m >= 250 ? SIZE_MAX / (m - 248) : (size_t)fz_range(f, 1, 4);
    b->d[i] = fz_u8(f) < 128 ? 1 : (size_t)fz_range(f, 1, 4);
  }
  /* often make b a broadcastable suffix of a */
  if (fz_u8(f) < 160 && b->nd >= 0 && b->nd <= 9 && a->nd >= 0 && a->nd <= 9)
    for (i = 0; i < b->nd && i < a->nd; i++)
      if (b->d[b->nd - 1 - i] != 1) b->d[b->nd - 1 - i] = a->d[a->nd - 1 - i];
}

/* The broadcast oracle: status, output count and per-output input offsets. */
static int bcast_o(const shp *a, const shp *b, size_t *out, int *nd, size_t *n) {
  int i, k;
  if (a->nd < 0 || b->nd < 0 || a->nd > 8 || b->nd > 8) return MRTQ_EINVAL;
  k = a->nd > b->nd ? a->nd : b->nd;
  *nd = k;
  for (i = 0; i < k; i++) {
    int ia = i - (k - a->nd), ib = i - (k - b->nd);
    size_t x = ia >= 0 ? a->d[ia] : 1, y = ib >= 0 ? b->d[ib] : 1;
    if (x == 0 || y == 0 || (x != y && x != 1 && y != 1)) return MRTQ_ESHAPE;
    out[i] = x > y ? x : y;
  }
  {
    uint64_t t = 1, ta = 1, tb = 1; /* each stops at its cap: no product can wrap */
    for (i = 0; i < a->nd && ta < 100000; i++) ta *= a->d[i] > 100000 ? 100000 : a->d[i];
    for (i = 0; i < b->nd && tb < 100000; i++) tb *= b->d[i] > 100000 ? 100000 : b->d[i];
    for (i = 0; i < k && t < 100000; i++) t *= out[i] > 100000 ? 100000 : out[i];
    if (t >= 100000 || ta >= 100000 || tb >= 100000) return -1; /* too big to run (or overflowing): skip */
    *n = (size_t)t;
  }
  return MRTQ_OK;
}
static void offsets(const shp *a, const shp *b, const size_t *out, int nd, size_t at, size_t *ia, size_t *ib) {
  int i;
  size_t sa = 1, sb = 1;
  *ia = *ib = 0;
  for (i = nd - 1; i >= 0; i--) {
    size_t k = at % out[i];
    int da = i - (nd - a->nd), db = i - (nd - b->nd);
    at /= out[i];
    if (da >= 0) {
      if (a->d[da] != 1) *ia += k * sa;
      sa *= a->d[da];
    }
    if (db >= 0) {
      if (b->d[db] != 1) *ib += k * sb;
      sb *= b->d[db];
    }
  }
}
static size_t count_of(const shp *s) {
  size_t n = 1;
  int i;
  for (i = 0; i < s->nd; i++) n *= s->d[i];
  return n;
}
static size_t own_count(const shp *s) { /* elements of a valid shape (bcast_o bounded it), else 4 */
  int i;
  if (s->nd < 0 || s->nd > 8) return 4;
  for (i = 0; i < s->nd; i++)
    if (s->d[i] == 0) return 4;
  {
    uint64_t t = 1; /* stops at 100000, so no product can wrap */
    for (i = 0; i < s->nd && t < 100000; i++) t *= s->d[i] > 100000 ? 100000 : s->d[i];
    if (t >= 100000) return SIZE_MAX; /* valid but too big to run */
  }
  return count_of(s);
}
static int32_t q8(const uint8_t *p, size_t i, int u) { return u ? (int32_t)p[i] : (int32_t)(int8_t)p[i]; }
/* element i of an int8 / uint8 / int16 (s16) array */
static int32_t elt(const uint8_t *p, size_t i, int u, int s16) {
  int16_t v;
  if (!s16) return q8(p, i, u);
  memcpy(&v, p + 2 * i, 2);
  return v;
}

static void check_binary8(fz *f) {
  shp a, b;
  size_t out[9], n = 0, na, nb, i;
  int nd = 0, want, op = (int)fz_range(f, 0, 2);
  mrtq_dtype type = type_for(f);
  int s16 = type == MRTQ_S16 && op < 2; /* TFLite's ADD and MUL also take int16 (zero points 0) */
  int u = type == MRTQ_U8, lo = s16 ? -32768 : u ? 0 : -128, hi = s16 ? 32767 : u ? 255 : 127, es = s16 ? 2 : 1;
  int32_t zp1 = fz_rare(f, 8) ? fz_i32(f) : s16 ? 0 : (int32_t)fz_irange(f, lo, hi);
  int32_t zp2 = fz_rare(f, 8) ? fz_i32(f) : s16 ? 0 : (int32_t)fz_irange(f, lo, hi);
  int32_t zpo = fz_rare(f, 8) ? fz_i32(f) : s16 ? 0 : (int32_t)fz_irange(f, lo, hi);
  int32_t qmin = fz_rare(f, 8) ? fz_i32(f) : (int32_t)fz_irange(f, lo, hi);
  int32_t qmax = fz_rare(f, 8) ? fz_i32(f) : (int32_t)fz_irange(f, lo, hi);
  double s1 = fz_double(f), s2 = fz_double(f), so = fz_double(f);
  mrtq_tflite_add_params pa, keep_a;
  mrtq_tflite_mul_params pm, keep_m;
  mrtq_xnn_add_params px, keep_x;
  mrtq_status st, st2;
  uint8_t *xa, *xb;
  fz_buf b1, b2;
  int sub = fz_bool(f), args = 0, zps;
  const char *name = op == 0 ? "mrtq_tflite_add" : op == 1 ? "mrtq_tflite_mul" : "mrtq_xnn_add";
  if (qmin > qmax && fz_u8(f) < 220) { int32_t t = qmin; qmin = qmax, qmax = t; }
  memset(&keep_a, 0x77, sizeof keep_a), memset(&keep_m, 0x77, sizeof keep_m), memset(&keep_x, 0x77, sizeof keep_x);
  zps = zp1 >= lo && zp1 <= hi && zp2 >= lo && zp2 <= hi && zpo >= lo && zpo <= hi && qmin >= lo && qmax <= hi &&
        qmin <= qmax && qmax >= lo && qmin <= hi && (!s16 || (zp1 == 0 && zp2 == 0 && zpo == 0));
  args = isfinite(s1) && isfinite(s2) && isfinite(so) && s1 > 0 && s2 > 0 && so > 0 && zps;
  if (op == 0) {
    memset(&pa, 0x77, sizeof pa);
    fz_reason_begin();
    st = mrtq_tflite_add_init(s1, zp1, s2, zp2, so, zpo, qmin, qmax, type, &pa);
    fz_reason_end(st, "mrtq_tflite_add_init");
    if (st != MRTQ_OK) /* D2 (fixed): ERANGE left *p partly filled */
      FZ_CHECK(memcmp(&pa, &keep_a, sizeof pa) == 0, "mrtq_tflite_add_init refused (%d) but changed *p", (int)st);
    else FZ_CHECK(pa.m1.shift <= 0 && pa.m2.shift <= 0 && pa.mo.shift <= 0 && pa.m1.mult > 0 && pa.m2.mult > 0 && pa.mo.mult > 0,
                  "mrtq_tflite_add_init multipliers {%d,%d} {%d,%d} {%d,%d}", pa.m1.mult, pa.m1.shift, pa.m2.mult,
                  pa.m2.shift, pa.mo.mult, pa.mo.shift);
  } else if (op == 1) {
    memset(&pm, 0x77, sizeof pm);
    fz_reason_begin();
    st = mrtq_tflite_mul_init(s1, zp1, s2, zp2, so, zpo, qmin, qmax, type, &pm);
    fz_reason_end(st, "mrtq_tflite_mul_init");
    if (st != MRTQ_OK) /* D2 (fixed) */
      FZ_CHECK(memcmp(&pm, &keep_m, sizeof pm) == 0, "mrtq_tflite_mul_init refused (%d) but changed *p", (int)st);
    else FZ_CHECK(pm.m.mult > 0 && pm.m.shift <= (s16 ? 0 : 15), "mrtq_tflite_mul_init multiplier {%d, %d}", pm.m.mult, pm.m.shift);
  } else {
    float f1 = (float)s1, f2 = (float)s2, fo = (float)so;
    if (fz_bool(f)) f1 = fz_float(f), f2 = fz_float(f), fo = fz_float(f);
    args = zps && isfinite(f1) && isfinite(f2) && isfinite(fo) && f1 >= 1.17549435e-38f && f2 >= 1.17549435e-38f &&
           fo >= 1.17549435e-38f;
    memset(&px, 0x77, sizeof px);
    fz_reason_begin();
    st = mrtq_xnn_add_init(f1, zp1, f2, zp2, fo, zpo, qmin, qmax, type, sub, &px);
    fz_reason_end(st, "mrtq_xnn_add_init");
    if (st != MRTQ_OK) FZ_CHECK(memcmp(&px, &keep_x, sizeof px) == 0, "mrtq_xnn_add_init refused but changed *p");
    else FZ_CHECK(px.shift >= 12 && px.shift <= 30, "mrtq_xnn_add_init shift %d", px.shift);
    if (st == MRTQ_OK) s1 = f1, s2 = f2, so = fo;
  }
  if (getenv("FZ_DEBUG")) fprintf(stderr, "%s_init type %d: status %d\n", name, (int)type, (int)st);
  if (!is_q8(type) && !s16) /* outside the enum (0 included): EINVAL; another type: EUNSUPPORTED */
    FZ_EQ(st, type >= MRTQ_S8 && type <= MRTQ_S4 ? MRTQ_EUNSUPPORTED : MRTQ_EINVAL, "%s_init type %d", name, (int)type);
  else if (!args) FZ_EQ(st, MRTQ_EINVAL, "%s_init accepted bad arguments or misreported", name);
  else FZ_CHECK(st == MRTQ_OK || st == MRTQ_ERANGE, "%s_init status %d", name, (int)st);
  if (st != MRTQ_OK) return;

  make_shapes(f, &a, &b);
  want = bcast_o(&a, &b, out, &nd, &n);
  if (want < 0) return;
  na = want == MRTQ_OK ? count_of(&a) : 4, nb = want == MRTQ_OK ? count_of(&b) : 4;
  xa = (uint8_t *)malloc(na * es + 1), xb = (uint8_t *)malloc(nb * es + 1);
  fz_fill(f, xa, na * es), fz_fill(f, xb, nb * es);
  fz_buf_new_at(&b1, want == MRTQ_OK ? n * es : 8, 0xa5, fz_range(f, 0, 63)), fz_buf_new(&b2, want == MRTQ_OK ? n * es : 8, 0x5a);
  fz_reason_begin();
  if (op == 0) {
    st = mrtq_tflite_add(a.d, a.nd, b.d, b.nd, &pa, xa, xb, fz_buf_data(&b1));
    fz_reason_end(st, name);
    st2 = mrtq_tflite_add(a.d, a.nd, b.d, b.nd, &pa, xa, xb, fz_buf_data(&b2));
  } else if (op == 1) {
    st = mrtq_tflite_mul(a.d, a.nd, b.d, b.nd, &pm, xa, xb, fz_buf_data(&b1));
    fz_reason_end(st, name);
    st2 = mrtq_tflite_mul(a.d, a.nd, b.d, b.nd, &pm, xa, xb, fz_buf_data(&b2));
  } else {
    st = mrtq_xnn_add(a.d, a.nd, b.d, b.nd, &px, xa, xb, fz_buf_data(&b1));
    fz_reason_end(st, name);
    st2 = mrtq_xnn_add(a.d, a.nd, b.d, b.nd, &px, xa, xb, fz_buf_data(&b2));
  }
  fz_after(&b1, st, name);
  fz_after(&b2, st2, name);
  FZ_EQ(st, want, "%s status (ranks %d, %d)", name, a.nd, b.nd);
  if (st == MRTQ_OK) {
    const uint8_t *y = (const uint8_t *)fz_buf_data(&b1);
    FZ_CHECK(fz_same_output(&b1, &b2), "%s left part of its output unwritten", name);
    for (i = 0; i < n; i++) {
      size_t ia, ib;
      int32_t va, vb, w;
      offsets(&a, &b, out, nd, i, &ia, &ib);
      va = elt(xa, ia, u, s16), vb = elt(xb, ib, u, s16);
      if (op == 0) {
        int sh = s16 ? 15 : 20;
        int32_t s = mrtq_mul_q31_dbl((va - zp1) * (1 << sh), pa.m1) + mrtq_mul_q31_dbl((vb - zp2) * (1 << sh), pa.m2);
        int64_t y2 = (int64_t)mrtq_mul_q31_dbl(s, pa.mo) + zpo;
        w = (int32_t)(y2 < qmin ? qmin : y2 > qmax ? qmax : y2);
        FZ_EQ(mrtq_tflite_add_one(&pa, va, vb), w, "mrtq_tflite_add_one(%d, %d)", va, vb);
      } else if (op == 1) {
        int64_t y2 = (int64_t)mrtq_mul_q31_dbl((va - zp1) * (vb - zp2), pm.m) + zpo;
        w = (int32_t)(y2 < qmin ? qmin : y2 > qmax ? qmax : y2);
        FZ_EQ(mrtq_tflite_mul_one(&pm, va, vb), w, "mrtq_tflite_mul_one(%d, %d)", va, vb);
      } else {
        int64_t acc = (int64_t)(va - zp1) * px.ma + (int64_t)(vb - zp2) * px.mb + ((int64_t)1 << (px.shift - 1)), v;
        FZ_CHECK(acc >= INT32_MIN && acc <= INT32_MAX, "XNNPACK accumulator %lld leaves int32", (long long)acc);
        v = acc >= 0 ? acc >> px.shift : -((-acc + ((int64_t)1 << px.shift) - 1) >> px.shift);
        v = v < qmin - zpo ? qmin - zpo : v > qmax - zpo ? qmax - zpo : v;
        w = (int32_t)(v + zpo);
        FZ_EQ(mrtq_xnn_add_one(&px, va, vb), w, "mrtq_xnn_add_one(%d, %d)", va, vb);
      }
      FZ_EQ(elt(y, i, u, s16), w, "%s output %zu (a[%zu] = %d, b[%zu] = %d)", name, i, ia, va, ib, vb);
    }
  }
  fz_buf_free(&b1), fz_buf_free(&b2);
  free(xa), free(xb);
}

/* ---- MRT expansion tensors ---- */
/* A rescale from mrtq_mrt_realize_init (or a plain one); returns 1 when it
 * was then broken by hand (the operators must refuse it). */
static int make_rq(fz *f, mrtq_rq *rq) {
  int prec = (int)fz_irange(f, 1, 33);
  mrtq_scheme s = (mrtq_scheme)fz_range(f, 0, 4);
  double sc = fz_double(f);
  mrtq_rq keep;
  mrtq_status st;
  memset(rq, 0x3c, sizeof *rq);
  keep = *rq;
  fz_reason_begin();
  st = mrtq_mrt_realize_init(s, sc, prec, rq);
  fz_reason_end(st, "mrtq_mrt_realize_init");
  if (prec < 2 || prec > 32) FZ_EQ(st, MRTQ_EINVAL, "mrtq_mrt_realize_init prec %d", prec);
  if (st == MRTQ_OK) {
    int64_t lim = ((int64_t)1 << (prec - 1)) - 1;
    FZ_CHECK(rq->zp == 0 && rq->qmin == -lim && rq->qmax == lim, "mrtq_mrt_realize_init prec %d bounds", prec);
  } else {
    FZ_CHECK(memcmp(rq, &keep, sizeof keep) == 0, "mrtq_mrt_realize_init refused (%d) but wrote *rq", (int)st);
    FZ_EQ(mrtq_rq_init(s, 0.5, 0, -1000, 1000, rq), MRTQ_OK, "mrtq_rq_init");
  }
  return spoil_rq(f, rq);
}

static void check_mrt(fz *f) {
  shp a, b;
  size_t out[9], n = 0, na, nb, i;
  int nd = 0, want, op = (int)fz_irange(f, -1, 3), merge = fz_bool(f), k, nparts, bad_a, bad_b;
  mrtq_rq ra, rb;
  mrtq_etensor ta, tb, parts[4];
  int32_t *da, *db;
  fz_buf b1;
  mrtq_status st;
  make_shapes(f, &a, &b);
  bad_a = make_rq(f, &ra), bad_b = make_rq(f, &rb);
  if (merge) b = a; /* merge: parts of one shape (sometimes changed below) */
  if (merge && fz_rare(f, 20) && b.nd > 0 && b.nd <= 8) b.d[0] += 1;
  nparts = merge ? (int)fz_range(f, 1, 4) : 0;
  want = bcast_o(&a, &b, out, &nd, &n);
  if (want < 0) return;
  if (merge && want == MRTQ_OK) { /* parts of one shape: b must equal a unless a is alone */
    int same = a.nd == b.nd;
    for (k = 0; same && k < a.nd; k++) same = a.d[k] == b.d[k];
    if (nparts > 1 && !same) want = MRTQ_ESHAPE;
  }
  if (merge && want != MRTQ_OK && nparts == 1) { /* b is no part: only a's own validity counts */
    shp one = a;
    int ok = a.nd >= 0 && a.nd <= 8;
    for (k = 0; ok && k < a.nd; k++) ok = a.d[k] != 0;
    if (ok && bcast_o(&a, &one, out, &nd, &n) == MRTQ_OK) want = MRTQ_OK, b = a;
  }
  na = own_count(&a), nb = own_count(&b); /* each tensor's data as its own shape says (read before shapes are matched) */
  if (na == SIZE_MAX || nb == SIZE_MAX) return;
  da = (int32_t *)malloc(4 * na + 4), db = (int32_t *)malloc(4 * nb + 4);
  for (i = 0; i < na; i++) da[i] = fz_u8(f) < 200 ? (int32_t)fz_irange(f, -70000, 70000) : fz_i32(f);
  for (i = 0; i < nb; i++) db[i] = fz_u8(f) < 200 ? (int32_t)fz_irange(f, -70000, 70000) : fz_i32(f);
  ta.data = da, ta.shape = a.d, ta.ndim = a.nd, ta.zp = fz_u8(f) < 200 ? (int32_t)fz_irange(f, -300, 300) : fz_i32(f);
  ta.rq = fz_bool(f) ? &ra : NULL;
  tb.data = db, tb.shape = b.d, tb.ndim = b.nd, tb.zp = fz_u8(f) < 200 ? (int32_t)fz_irange(f, -300, 300) : fz_i32(f);
  tb.rq = fz_bool(f) ? &rb : NULL;
  bad_a &= ta.rq != NULL, bad_b &= tb.rq != NULL;
  /* the interval check and values, exactly */
  {
    int64_t la = INT64_MAX, ha = INT64_MIN, lb = INT64_MAX, hb = INT64_MIN, lo, hi;
    int over = 0, over_a = 0, over_b = 0;
    mrtq_status first = MRTQ_OK; /* the first tensor's refusal, in the order the operators check them */
    if (want == MRTQ_OK) {
      for (i = 0; i < na; i++) {
        int64_t v = (int64_t)da[i] - ta.zp;
        over_a |= v < INT32_MIN || v > INT32_MAX;
        la = v < la ? v : la, ha = v > ha ? v : ha;
      }
      for (i = 0; i < nb; i++) {
        int64_t v = (int64_t)db[i] - tb.zp;
        over_b |= v < INT32_MIN || v > INT32_MAX;
        lb = v < lb ? v : lb, hb = v > hb ? v : hb;
      }
      over = over_a | over_b;
      /* each tensor: its rescale is checked, then its values; a before b (b
       * only when it is an operand or a part) */
      first = bad_a ? MRTQ_EINVAL : over_a ? MRTQ_EOVERFLOW : MRTQ_OK;
      if (first == MRTQ_OK && (!merge || nparts > 1)) first = bad_b ? MRTQ_EINVAL : over_b ? MRTQ_EOVERFLOW : MRTQ_OK;
      if (ta.rq) la = ra.qmin, ha = ra.qmax;
      if (tb.rq) lb = rb.qmin, hb = rb.qmax;
    } else {
      la = ha = lb = hb = 0;
    }
    if (merge) {
      for (k = 0; k < nparts; k++) parts[k] = k % 2 ? tb : ta;
      lo = hi = 0;
      for (k = 0; k < nparts; k++) lo += k % 2 ? lb : la, hi += k % 2 ? hb : ha;
      if (nparts == 1) over &= 1; /* only part a's values matter (b's are still checked: it is not a part) */
    } else {
      if (op == MRTQ_MRT_ADD) lo = la + lb, hi = ha + hb;
      else if (op == MRTQ_MRT_SUB) lo = la - hb, hi = ha - lb;
      else {
        __int128 p[4] = {(__int128)la * lb, (__int128)la * hb, (__int128)ha * lb, (__int128)ha * hb};
        __int128 l2 = p[0], h2 = p[0];
        for (k = 1; k < 4; k++) l2 = p[k] < l2 ? p[k] : l2, h2 = p[k] > h2 ? p[k] : h2;
        lo = l2 < INT64_MIN / 2 ? INT64_MIN / 2 : (int64_t)l2, hi = h2 > INT64_MAX / 2 ? INT64_MAX / 2 : (int64_t)h2;
      }
    }
    fz_buf_new(&b1, (want == MRTQ_OK ? n : 4) * 4, 0xa5);
    fz_reason_begin();
    if (merge) st = mrtq_mrt_merge_add(parts, (size_t)nparts, (int32_t *)fz_buf_data(&b1));
    else st = mrtq_mrt_binary((mrtq_mrt_op)op, &ta, &tb, (int32_t *)fz_buf_data(&b1));
    fz_reason_end(st, merge ? "mrtq_mrt_merge_add" : "mrtq_mrt_binary");
    fz_after(&b1, st, merge ? "mrtq_mrt_merge_add" : "mrtq_mrt_binary");
    if (!merge && (op < 0 || op > 2)) FZ_EQ(st, MRTQ_EINVAL, "mrtq_mrt_binary unknown op %d", op);
    else if (want != MRTQ_OK) FZ_CHECK(st != MRTQ_OK, "%s accepted bad shapes", merge ? "merge" : "binary");
    else if (first != MRTQ_OK)
      FZ_EQ(st, first, "%s with a malformed rescale (a %d, b %d) or X - zp outside int32", merge ? "mrtq_mrt_merge_add" : "mrtq_mrt_binary",
            bad_a, bad_b);
    else if (merge && nparts == 1) { /* only a's own overflow counts */
      int ov = 0;
      for (i = 0; i < na; i++) ov |= (int64_t)da[i] - ta.zp < INT32_MIN || (int64_t)da[i] - ta.zp > INT32_MAX;
      FZ_EQ(st, ov || la < INT32_MIN || ha > INT32_MAX ? MRTQ_EOVERFLOW : MRTQ_OK, "mrtq_mrt_merge_add of one part");
    } else
      FZ_EQ(st, over || lo < INT32_MIN || hi > INT32_MAX ? MRTQ_EOVERFLOW : MRTQ_OK, "%s status (range [%lld, %lld])",
            merge ? "mrtq_mrt_merge_add" : "mrtq_mrt_binary", (long long)lo, (long long)hi);
    if (st == MRTQ_OK) {
      const int32_t *y = (const int32_t *)fz_buf_data(&b1);
      for (i = 0; i < (merge ? count_of(&a) : n); i++) {
        size_t ia = i, ib = i;
        int64_t va, vb, w;
        if (!merge) offsets(&a, &b, out, nd, i, &ia, &ib);
        va = (int64_t)da[ia] - ta.zp, vb = (int64_t)db[ib] - tb.zp;
        if (ta.rq) va = mrtq_rq_apply(ta.rq, (int32_t)va, INT32_MIN, INT32_MAX);
        if (tb.rq) vb = mrtq_rq_apply(tb.rq, (int32_t)vb, INT32_MIN, INT32_MAX);
        if (merge) {
          w = 0;
          for (k = 0; k < nparts; k++) w += k % 2 ? vb : va;
        } else {
          w = op == MRTQ_MRT_ADD ? va + vb : op == MRTQ_MRT_SUB ? va - vb : va * vb;
        }
        FZ_EQ(y[i], w, "%s output %zu", merge ? "mrtq_mrt_merge_add" : "mrtq_mrt_binary", i);
      }
    }
  }
  fz_buf_free(&b1);
  free(da), free(db);
}

static void check_clamp(fz *f) {
  float lo = fz_float(f), hi = fz_float(f), scale = fz_float(f);
  int32_t zp = fz_rare(f, 10) ? fz_i32(f) : (int32_t)fz_irange(f, -128, 255), qlo = 99999, qhi = 99999;
  /* bounds: any mrtq_dtype (sometimes none); mrtq_clamp_q: S8 / U8 (sometimes another) */
  uint8_t tb = fz_u8(f); /* one byte, its low bit as the old is_unsigned flag */
  mrtq_dtype bt = tb >= 232 ? (mrtq_dtype)((tb - 232) % 8 - 1) : tb & 1 ? MRTQ_U8 : MRTQ_S8, ct;
  int32_t tmin = 0, tmax = 0;
  int u, bt_ok = mrtq_dtype_range(bt, &tmin, &tmax) == MRTQ_OK;
  size_t n = (size_t)fz_range(f, 0, 100), i;
  mrtq_status st;
  uint8_t *x;
  fz_buf b1;
  fz_reason_begin();
  st = mrtq_clamp_bounds_onnx(lo, hi, scale, zp, bt, &qlo, &qhi);
  fz_reason_end(st, "mrtq_clamp_bounds_onnx");
  { /* the TFLite rounding: same checks, zp + roundf(bound / scale) (ties away from zero) saturated to the type */
    int32_t tlo = 99999, thi = 99999;
    mrtq_status ts;
    fz_reason_begin();
    ts = mrtq_clamp_bounds_tflite(lo, hi, scale, zp, bt, &tlo, &thi);
    fz_reason_end(ts, "mrtq_clamp_bounds_tflite");
    FZ_EQ(ts, st, "mrtq_clamp_bounds_tflite and _onnx check differently");
    if (ts != MRTQ_OK) {
      FZ_CHECK(tlo == 99999 && thi == 99999, "mrtq_clamp_bounds_tflite refused but wrote");
    } else {
      double rl = (double)roundf(lo / scale) + zp, rh = (double)roundf(hi / scale) + zp;
      FZ_EQ(tlo, rl <= tmin ? tmin : rl >= tmax ? tmax : (int32_t)rl, "tflite qlo");
      FZ_EQ(thi, rh <= tmin ? tmin : rh >= tmax ? tmax : (int32_t)rh, "tflite qhi");
      FZ_CHECK(tlo - (int64_t)qlo <= 1 && qlo - (int64_t)tlo <= 1, "tflite and onnx lower bounds differ by more than 1");
      FZ_CHECK(thi - (int64_t)qhi <= 1 && qhi - (int64_t)thi <= 1, "tflite and onnx upper bounds differ by more than 1");
    }
  }
  if (isnan(lo) || isnan(hi) || !(lo <= hi) || !isfinite(scale) || !(scale > 0) || !bt_ok || zp < tmin || zp > tmax) {
    FZ_EQ(st, MRTQ_EINVAL, "mrtq_clamp_bounds_onnx accepted bad arguments");
    FZ_CHECK(qlo == 99999 && qhi == 99999, "mrtq_clamp_bounds_onnx refused but wrote");
    qlo = fz_i32(f), qhi = fz_i32(f);
  } else {
    FZ_EQ(st, MRTQ_OK, "mrtq_clamp_bounds_onnx");
    FZ_EQ(qlo, mrtq_quantize_f32(lo, scale, zp, tmin, tmax), "qlo");
    FZ_EQ(qhi, mrtq_quantize_f32(hi, scale, zp, tmin, tmax), "qhi");
    FZ_CHECK(qlo <= qhi, "bounds %d > %d", qlo, qhi);
  }
  ct = is_q8(bt) ? bt : fz_rare(f, 32) ? bt : fz_bool(f) ? MRTQ_U8 : MRTQ_S8;
  u = ct == MRTQ_U8, tmin = u ? 0 : -128, tmax = u ? 255 : 127;
  x = (uint8_t *)malloc(n + 1);
  fz_fill(f, x, n);
  fz_buf_new_at(&b1, n, 0xa5, fz_range(f, 0, 63));
  fz_reason_begin();
  st = mrtq_clamp_q(x, n, qlo, qhi, ct, fz_buf_data(&b1));
  fz_reason_end(st, "mrtq_clamp_q");
  fz_after(&b1, st, "mrtq_clamp_q");
  if (!is_q8(ct)) FZ_EQ(st, ct >= MRTQ_S8 && ct <= MRTQ_S4 ? MRTQ_EUNSUPPORTED : MRTQ_EINVAL, "mrtq_clamp_q type %d", (int)ct);
  else FZ_EQ(st == MRTQ_OK, qlo <= qhi && qlo >= tmin && qlo <= tmax && qhi >= tmin && qhi <= tmax, "mrtq_clamp_q status");
  if (st == MRTQ_OK)
    for (i = 0; i < n; i++) {
      int32_t v = q8(x, i, u);
      FZ_EQ(q8((const uint8_t *)fz_buf_data(&b1), i, u), v < qlo ? qlo : v > qhi ? qhi : v, "mrtq_clamp_q[%zu]", i);
    }
  if (st == MRTQ_OK) { /* in place */
    st = mrtq_clamp_q(x, n, qlo, qhi, ct, x);
    FZ_CHECK(st == MRTQ_OK && (n == 0 || memcmp(x, fz_buf_data(&b1), n) == 0), "mrtq_clamp_q in place differs");
  }
  fz_buf_free(&b1);
  free(x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f = {data, size};
  switch (fz_u8(&f) % 3) {
    case 0: check_binary8(&f); break;
    case 1: check_mrt(&f); break;
    default: check_clamp(&f); break;
  }
  return 0;
}
