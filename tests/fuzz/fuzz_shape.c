/* shape.h: mrtq_pad, mrtq_slice, mrtq_concat, mrtq_mrt_concat,
 * mrtq_flatten_shape, mrtq_merge_scale and mrtq_pad_value over fuzzer-chosen
 * ranks, shapes, axes and element sizes (valid small ones and invalid ones):
 * results equal index-by-index oracles, the output extent is written
 * exactly, refusals write nothing and report one reason. The rescales of
 * mrtq_concat and mrtq_mrt_concat are sometimes broken by hand (a scheme
 * outside the enum, a field the scheme never reads, qmin > qmax): refused. */
#include "fuzz.h"

#include "mrtq/shape.h"
#include "fuzz_q8.h"

#define MAXN 20000

static int nd_of(fz *f) { return fz_rare(f, 8) ? (int)fz_irange(f, -2, 10) : (int)fz_range(f, 1, 4); }
static size_t dim_of(fz *f) {
  uint8_t m = fz_u8(f);
  if (m >= 252) return 0;
  if (m >= 250) return SIZE_MAX / (m - 248);
  return (size_t)fz_range(f, 1, 5);
}
/* Product of d[0..nd) if every dim is nonzero and it stays small; 0 if a dim
 * is 0; SIZE_MAX when big. */
static size_t count(const size_t *d, int nd) {
  __int128 t = 1;
  int i;
  for (i = 0; i < nd; i++) {
    if (d[i] == 0) return 0;
    t *= d[i] > MAXN ? MAXN + 1 : d[i];
    if (t > MAXN) t = MAXN + 1;
  }
  return t > MAXN ? SIZE_MAX : (size_t)t;
}
static int32_t q8(const uint8_t *p, size_t i, int u) { return u ? (int32_t)p[i] : (int32_t)(int8_t)p[i]; }

static void check_pad(fz *f) {
  int nd = nd_of(f), d, ok;
  size_t shape[10], before[10], after[10], oshape[10], es = fz_rare(f, 8) ? fz_range(f, 0, 9) : fz_range(f, 1, 4);
  size_t nin, nout, i;
  uint8_t value[16], *x;
  fz_buf b1, b2;
  mrtq_status st, st2;
  for (d = 0; d < 10; d++) {
    shape[d] = dim_of(f), before[d] = fz_range(f, 0, 2), after[d] = fz_range(f, 0, 2);
    if (fz_rare(f, 3)) after[d] = SIZE_MAX - fz_range(f, 0, 2);
  }
  fz_fill(f, value, sizeof value);
  ok = nd >= 1 && nd <= 8 && es > 0;
  nin = ok ? count(shape, nd) : 1;
  for (d = 0; ok && d < nd; d++) oshape[d] = shape[d] + before[d] + after[d], ok = after[d] < SIZE_MAX / 8;
  nout = ok ? count(oshape, nd) : 1;
  if (ok && (nin == SIZE_MAX || nout == SIZE_MAX)) return; /* too big to run */
  if (ok && nin == 0) ok = 0;
  if (nin == 0 || nin == SIZE_MAX) nin = 1;
  if (nout == 0 || nout == SIZE_MAX) nout = 1;
  x = (uint8_t *)malloc(nin * es + 16);
  fz_fill(f, x, nin * es);
  fz_buf_new_at(&b1, nout * es, 0xa5, fz_range(f, 0, 63)), fz_buf_new(&b2, nout * es, 0x5a);
  fz_reason_begin();
  st = mrtq_pad(shape, nd, before, after, es, x, value, fz_buf_data(&b1));
  fz_reason_end(st, "mrtq_pad");
  if (getenv("FZ_DEBUG")) fprintf(stderr, "pad nd %d shape %zu before %zu after %zu es %zu: %d\n", nd, shape[0], before[0], after[0], es, (int)st);
  st2 = mrtq_pad(shape, nd, before, after, es, x, value, fz_buf_data(&b2));
  fz_after(&b1, st, "mrtq_pad");
  fz_after(&b2, st2, "mrtq_pad");
  FZ_EQ(st == MRTQ_OK, ok, "mrtq_pad status %d (rank %d, elem_size %zu)", (int)st, nd, es);
  if (st == MRTQ_OK) {
    const uint8_t *y = (const uint8_t *)fz_buf_data(&b1);
    FZ_CHECK(fz_same_output(&b1, &b2), "mrtq_pad left part of its output unwritten");
    for (i = 0; i < nout; i++) {
      size_t at = i, in = 0, stride = 1;
      int inside = 1;
      for (d = nd - 1; d >= 0; d--) {
        size_t k = at % oshape[d];
        at /= oshape[d];
        if (k < before[d] || k >= before[d] + shape[d]) inside = 0;
        else in += (k - before[d]) * stride;
        stride *= shape[d];
      }
      FZ_CHECK(memcmp(y + i * es, inside ? x + in * es : value, es) == 0, "mrtq_pad output element %zu", i);
    }
  }
  fz_buf_free(&b1), fz_buf_free(&b2);
  free(x);
}

static void check_slice(fz *f) {
  int nd = nd_of(f), axis = (int)fz_irange(f, -1, 9), d, ok;
  size_t shape[10], es = fz_rare(f, 8) ? fz_range(f, 0, 9) : fz_range(f, 1, 4), begin, end, nin, nout, outer = 1, inner = 1;
  size_t o, i;
  uint8_t *x;
  fz_buf b1, b2;
  mrtq_status st, st2;
  for (d = 0; d < 10; d++) shape[d] = dim_of(f);
  begin = fz_range(f, 0, 6), end = fz_range(f, 0, 7);
  ok = nd >= 1 && nd <= 8 && axis >= 0 && axis < nd && es > 0;
  nin = ok ? count(shape, nd) : 1;
  if (ok && nin == SIZE_MAX) return;
  if (ok && nin == 0) ok = 0;
  if (ok && (begin >= end || end > shape[axis])) ok = 0;
  if (nin == 0 || nin == SIZE_MAX) nin = 1;
  nout = ok ? nin / shape[axis] * (end - begin) : 1;
  if (ok)
    for (d = 0; d < nd; d++) {
      if (d < axis) outer *= shape[d];
      if (d > axis) inner *= shape[d];
    }
  x = (uint8_t *)malloc(nin * es + 16);
  fz_fill(f, x, nin * es);
  fz_buf_new_at(&b1, nout * es, 0xa5, fz_range(f, 0, 63)), fz_buf_new(&b2, nout * es, 0x5a);
  fz_reason_begin();
  st = mrtq_slice(shape, nd, axis, begin, end, es, x, fz_buf_data(&b1));
  fz_reason_end(st, "mrtq_slice");
  st2 = mrtq_slice(shape, nd, axis, begin, end, es, x, fz_buf_data(&b2));
  fz_after(&b1, st, "mrtq_slice");
  fz_after(&b2, st2, "mrtq_slice");
  FZ_EQ(st == MRTQ_OK, ok, "mrtq_slice status %d", (int)st);
  if (st == MRTQ_OK) {
    const uint8_t *y = (const uint8_t *)fz_buf_data(&b1);
    FZ_CHECK(fz_same_output(&b1, &b2), "mrtq_slice left part of its output unwritten");
    for (o = 0; o < outer; o++)
      for (i = 0; i < (end - begin) * inner; i++)
        FZ_CHECK(memcmp(y + (o * (end - begin) * inner + i) * es, x + (o * shape[axis] * inner + begin * inner + i) * es,
                        es) == 0, "mrtq_slice element %zu of block %zu", i, o);
  }
  fz_buf_free(&b1), fz_buf_free(&b2);
  free(x);
}

static void check_concat(fz *f) {
  size_t n = fz_rare(f, 4) ? 0 : fz_range(f, 1, 4), k, i, o, total_axis = 0, outer = 1, inner = 1, nout, cnt[4];
  int nd = nd_of(f), axis = (int)fz_irange(f, -1, 8), d, ok, bad = 0;
  uint8_t tb = fz_u8(f); /* one byte, its low bit as the old is_unsigned flag */
  mrtq_dtype type = tb >= 248 ? (mrtq_dtype)(tb - 249) : tb & 1 ? MRTQ_U8 : MRTQ_S8;
  int u = type == MRTQ_U8, lo = u ? 0 : -128, hi = u ? 255 : 127;
  size_t shp[4][10];
  const size_t *shapes[4];
  const void *xs[4];
  uint8_t *x[4];
  int32_t zx[4];
  mrtq_rq rqs[4];
  const mrtq_rq *rq[4];
  fz_buf b1, b2;
  mrtq_status st, st2;
  for (d = 0; d < 10; d++) shp[0][d] = dim_of(f);
  ok = n >= 1 && nd >= 1 && nd <= 8 && axis >= 0 && axis < nd && (type == MRTQ_S8 || type == MRTQ_U8);
  for (k = 0; k < 4; k++) {
    for (d = 0; d < 10; d++) shp[k][d] = k && fz_u8(f) > 20 ? shp[0][d] : dim_of(f);
    if (ok && axis >= 0 && axis < 10) shp[k][axis] = fz_rare(f, 4) ? 0 : fz_range(f, 1, 4);
    shapes[k] = shp[k];
    zx[k] = fz_rare(f, 8) ? fz_i32(f) : (int32_t)fz_irange(f, lo, hi);
    if (mrtq_rq_init((mrtq_scheme)fz_range(f, 0, 4), fz_double(f), (int32_t)fz_irange(f, lo, hi), lo, hi, &rqs[k]) !=
        MRTQ_OK)
      FZ_EQ(mrtq_rq_init(MRTQ_FP32, 0.5, 0, lo, hi, &rqs[k]), MRTQ_OK, "mrtq_rq_init");
    rq[k] = fz_bool(f) ? &rqs[k] : NULL;
    if (spoil_rq(f, &rqs[k]) && rq[k] && k < n) bad = 1;
  }
  for (k = 0; ok && k < n; k++) {
    ok = zx[k] >= lo && zx[k] <= hi;
    for (d = 0; ok && d < nd; d++) ok = shp[k][d] != 0 && (d == axis || shp[k][d] == shp[0][d]);
  }
  for (k = 0; k < 4; k++) {
    size_t c = nd >= 1 && nd <= 8 ? count(shp[k], nd) : 0;
    if (c == SIZE_MAX) {
      while (k-- > 0) free(x[k]);
      return;
    }
    cnt[k] = c ? c : 1;
    x[k] = (uint8_t *)malloc(cnt[k]);
    fz_fill(f, x[k], cnt[k]);
    xs[k] = x[k];
  }
  if (ok) {
    for (k = 0; k < n; k++) total_axis += shp[k][axis];
    for (d = 0; d < nd; d++) {
      if (d < axis) outer *= shp[0][d];
      if (d > axis) inner *= shp[0][d];
    }
    nout = outer * total_axis * inner;
  } else {
    nout = 4;
  }
  fz_buf_new_at(&b1, nout, 0xa5, fz_range(f, 0, 63)), fz_buf_new(&b2, nout, 0x5a);
  fz_reason_begin();
  st = mrtq_concat(shapes, n, nd, axis, rq, xs, zx, type, fz_buf_data(&b1));
  fz_reason_end(st, "mrtq_concat");
  st2 = mrtq_concat(shapes, n, nd, axis, rq, xs, zx, type, fz_buf_data(&b2));
  fz_after(&b1, st, "mrtq_concat");
  fz_after(&b2, st2, "mrtq_concat");
  FZ_EQ(st == MRTQ_OK, ok && !bad, "mrtq_concat status %d (n %zu rank %d axis %d)", (int)st, n, nd, axis);
  if (ok && bad) FZ_EQ(st, MRTQ_EINVAL, "mrtq_concat with a malformed rq[k]");
  if (st == MRTQ_OK) {
    const uint8_t *y = (const uint8_t *)fz_buf_data(&b1);
    size_t at = 0;
    FZ_CHECK(fz_same_output(&b1, &b2), "mrtq_concat left part of its output unwritten");
    for (o = 0; o < outer; o++)
      for (k = 0; k < n; k++) {
        size_t run = shp[k][axis] * inner;
        for (i = 0; i < run; i++, at++) {
          int32_t v = q8(x[k], o * run + i, u);
          int32_t want = rq[k] ? mrtq_rq_apply(rq[k], v - zx[k], lo, hi) : v;
          FZ_EQ(q8(y, at, u), want, "mrtq_concat output %zu (input %zu)", at, k);
        }
      }
  }
  fz_buf_free(&b1), fz_buf_free(&b2);
  for (k = 0; k < 4; k++) free(x[k]);
}

static void check_mrt_concat(fz *f) {
  size_t n = fz_rare(f, 4) ? 0 : fz_range(f, 1, 3), k, i, o, total_axis = 0, outer = 1, inner = 1, nout, c;
  int axis = (int)fz_irange(f, -1, 5), nd0 = nd_of(f), d, ok, over[3] = {0, 0, 0}, bad[3] = {0, 0, 0};
  size_t shp[3][10];
  int32_t *data[3];
  mrtq_rq rqs[3];
  mrtq_etensor parts[3];
  fz_buf b1;
  mrtq_status st;
  for (k = 0; k < 3; k++) {
    parts[k].ndim = k && fz_u8(f) > 10 ? nd0 : nd_of(f);
    for (d = 0; d < 10; d++) shp[k][d] = k && fz_u8(f) > 20 ? shp[0][d] : dim_of(f);
    if (axis >= 0 && axis < 10) shp[k][axis] = fz_rare(f, 4) ? 0 : fz_range(f, 1, 4);
    parts[k].shape = shp[k];
    parts[k].zp = fz_u8(f) < 200 ? (int32_t)fz_irange(f, -300, 300) : fz_i32(f);
    if (mrtq_mrt_realize_init((mrtq_scheme)fz_range(f, 0, 4), fz_double(f), (int)fz_range(f, 2, 32), &rqs[k]) != MRTQ_OK)
      FZ_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.5, 0, -1000, 1000, &rqs[k]), MRTQ_OK, "mrtq_rq_init");
    parts[k].rq = fz_bool(f) ? &rqs[k] : NULL;
    bad[k] = spoil_rq(f, &rqs[k]) && parts[k].rq;
    c = parts[k].ndim >= 0 && parts[k].ndim <= 8 ? count(shp[k], parts[k].ndim) : 0;
    if (c == SIZE_MAX) {
      while (k-- > 0) free(data[k]);
      return;
    }
    c = c ? c : 1;
    data[k] = (int32_t *)malloc(4 * c);
    for (i = 0; i < c; i++) {
      data[k][i] = fz_u8(f) < 240 ? (int32_t)fz_irange(f, -70000, 70000) : fz_i32(f);
      over[k] |= (int64_t)data[k][i] - parts[k].zp < INT32_MIN || (int64_t)data[k][i] - parts[k].zp > INT32_MAX;
    }
    parts[k].data = data[k];
  }
  ok = n >= 1 && parts[0].ndim >= 1 && parts[0].ndim <= 8 && axis >= 0 && axis < parts[0].ndim;
  for (k = 0; ok && k < n; k++) {
    ok = parts[k].ndim == parts[0].ndim;
    for (d = 0; ok && d < parts[0].ndim; d++) ok = shp[k][d] != 0 && (d == axis || shp[k][d] == shp[0][d]);
  }
  if (ok) {
    for (k = 0; k < n; k++) total_axis += shp[k][axis];
    for (d = 0; d < parts[0].ndim; d++) {
      if (d < axis) outer *= shp[0][d];
      if (d > axis) inner *= shp[0][d];
    }
    nout = outer * total_axis * inner;
  } else {
    nout = 4;
  }
  fz_buf_new(&b1, nout * 4, 0xa5);
  fz_reason_begin();
  st = mrtq_mrt_concat(parts, n, axis, (int32_t *)fz_buf_data(&b1));
  fz_reason_end(st, "mrtq_mrt_concat");
  fz_after(&b1, st, "mrtq_mrt_concat");
  if (!ok) FZ_CHECK(st != MRTQ_OK, "mrtq_mrt_concat accepted bad parts");
  else { /* parts in order: a malformed rescale (checked first), then X - zp outside int32 */
    mrtq_status want = MRTQ_OK;
    for (k = 0; k < n && want == MRTQ_OK; k++) want = bad[k] ? MRTQ_EINVAL : over[k] ? MRTQ_EOVERFLOW : MRTQ_OK;
    FZ_EQ(st, want, "mrtq_mrt_concat status");
  }
  if (st == MRTQ_OK) {
    const int32_t *y = (const int32_t *)fz_buf_data(&b1);
    size_t at = 0;
    for (o = 0; o < outer; o++)
      for (k = 0; k < n; k++) {
        size_t run = shp[k][axis] * inner;
        for (i = 0; i < run; i++, at++) {
          int32_t v = (int32_t)((int64_t)data[k][o * run + i] - parts[k].zp);
          if (parts[k].rq) v = mrtq_rq_apply(parts[k].rq, v, INT32_MIN, INT32_MAX);
          FZ_EQ(y[at], v, "mrtq_mrt_concat output %zu (part %zu)", at, k);
        }
      }
  }
  fz_buf_free(&b1);
  for (k = 0; k < 3; k++) free(data[k]);
}

static void check_small(fz *f) {
  size_t shape[10], rows = 7, cols = 7, r = 1, c = 1;
  int nd = nd_of(f), axis = (int)fz_irange(f, -1, 9), d, ok;
  double sc[5], out = -1;
  size_t n = fz_range(f, 0, 5), i;
  mrtq_merge choice = (mrtq_merge)fz_irange(f, -1, 2);
  mrtq_status st;
  unsigned __int128 tr = 1, tc = 1;
  for (d = 0; d < 10; d++) shape[d] = dim_of(f);
  fz_reason_begin();
  st = mrtq_flatten_shape(shape, nd, axis, &rows, &cols);
  fz_reason_end(st, "mrtq_flatten_shape");
  ok = nd >= 1 && nd <= 8 && axis >= 0 && axis <= nd;
  for (d = 0; ok && d < nd; d++) {
    ok = shape[d] != 0;
    if (d < axis) tr *= shape[d], tr = tr > SIZE_MAX ? (unsigned __int128)SIZE_MAX + 1 : tr; /* exact below 2^65 * 2^64 */
    else tc *= shape[d], tc = tc > SIZE_MAX ? (unsigned __int128)SIZE_MAX + 1 : tc;
  }
  if (ok && (tr > SIZE_MAX || tc > SIZE_MAX || tr * tc > SIZE_MAX)) ok = -1; /* overflowing: refused */
  if (ok == 1) {
    r = (size_t)tr, c = (size_t)tc;
    FZ_EQ(st, MRTQ_OK, "mrtq_flatten_shape");
    FZ_CHECK(rows == r && cols == c, "mrtq_flatten_shape %zu x %zu, want %zu x %zu", rows, cols, r, c);
  } else {
    FZ_CHECK(st != MRTQ_OK, "mrtq_flatten_shape accepted a bad shape");
    FZ_CHECK(rows == 7 && cols == 7, "mrtq_flatten_shape refused but wrote");
  }
  for (i = 0; i < 5; i++) sc[i] = fz_double(f);
  fz_reason_begin();
  st = mrtq_merge_scale(choice, sc, n, &out);
  fz_reason_end(st, "mrtq_merge_scale");
  ok = n >= 1 && (choice == MRTQ_MERGE_MIN_SCALE || choice == MRTQ_MERGE_MAX_SCALE);
  for (i = 0; ok && i < n; i++) ok = isfinite(sc[i]) && sc[i] > 0;
  FZ_EQ(st == MRTQ_OK, ok, "mrtq_merge_scale status");
  if (ok) {
    double w = sc[0];
    for (i = 1; i < n; i++) w = choice == 0 ? fmin(w, sc[i]) : fmax(w, sc[i]);
    FZ_CHECK(out == w, "mrtq_merge_scale %a, want %a", out, w);
  } else {
    FZ_CHECK(out == -1, "mrtq_merge_scale refused but wrote");
  }
  {
    float pv = fz_float(f), s = fz_float(f);
    int32_t zp = fz_i32(f), qmin = fz_i32(f), qmax = fz_i32(f);
    FZ_EQ(mrtq_pad_value(pv, s, zp, qmin, qmax), mrtq_quantize_f32(pv, s, zp, qmin, qmax), "mrtq_pad_value");
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f = {data, size};
  switch (fz_u8(&f) % 5) {
    case 0: check_pad(&f); break;
    case 1: check_slice(&f); break;
    case 2: check_concat(&f); break;
    case 3: check_mrt_concat(&f); break;
    default: check_small(&f); break;
  }
  return 0;
}
