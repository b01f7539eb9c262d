/* Array paths of requant.h: mrtq_requant_s8/_u8 (and _outer/_inner), the
 * array quantize / dequantize (and _outer/_inner) equal their scalar
 * specification element by element, at any length and alignment, and write
 * exactly their extent. Built once per SIMD path (run.sh: -DMRTQ_SIMD=... and
 * the matching -m flags), so each binary checks one path against the scalar
 * functions. mrtq_requant (any mrtq_dtype) too. A refusal (a descriptor field
 * against the contract, NULL data) writes nothing and reports exactly one
 * reason. */
#include "fuzz.h"

#include "mrtq/requant.h"


/* The array functions' check of one mrtq_rq (requant.h): scheme in the enum,
 * no non-zero field the scheme does not read, qmin <= qmax. */
static int rq_ok(const mrtq_rq *rq) {
  if (rq->scheme < MRTQ_Q31_DBL || rq->scheme > MRTQ_FP32) return 0;
  if (rq->scheme == MRTQ_FP32 ? rq->m.mult != 0 || rq->m.shift != 0 : rq->scale != 0) return 0;
  return rq->qmin <= rq->qmax;
}

static int32_t acc_value(fz *f) { /* mostly near the interesting band, sometimes anything */
  uint8_t m = fz_u8(f);
  if (m < 128) return (int32_t)fz_irange(f, -70000, 70000);
  return fz_i32(f);
}

static void make_rq(fz *f, mrtq_rq *rq) {
  if (fz_rare(f, 32)) { /* hand-filled: any fields. Valid ones (rq_ok) give the scalar result, others are refused */
    uint8_t clean = fz_u8(f);
    rq->scheme = (mrtq_scheme)fz_irange(f, -1, 6);
    rq->m.mult = fz_i32(f), rq->m.shift = (int32_t)fz_irange(f, -40, 40);
    rq->scale = fz_float(f);
    rq->zp = fz_i32(f), rq->qmin = fz_i32(f), rq->qmax = fz_i32(f);
    if (clean < 192) { /* mostly: zero what the scheme does not read, order the bounds */
      if (rq->scheme == MRTQ_FP32) rq->m.mult = 0, rq->m.shift = 0;
      else rq->scale = 0;
      if (rq->qmin > rq->qmax && clean < 128) {
        int32_t t = rq->qmin;
        rq->qmin = rq->qmax, rq->qmax = t;
      }
    }
    return;
  }
  for (;;) {
    mrtq_scheme s = (mrtq_scheme)fz_range(f, 0, 4);
    double scale = fz_double(f);
    int32_t zp = fz_u8(f) < 200 ? (int32_t)fz_irange(f, -300, 300) : fz_i32(f);
    int32_t qmin = fz_u8(f) < 128 ? (int32_t)fz_irange(f, -200, 300) : fz_i32(f);
    int32_t qmax = fz_u8(f) < 128 ? (int32_t)fz_irange(f, -200, 300) : fz_i32(f);
    if (mrtq_rq_init(s, scale, zp, qmin, qmax, rq) == MRTQ_OK) return;
    if (f->n == 0) { /* out of input: a plain valid one */
      if (mrtq_rq_init(s, 0.25, 3, -128, 255, rq) != MRTQ_OK) FZ_FAIL("mrtq_rq_init(scheme %d, 0.25) refused", (int)s);
      return;
    }
  }
}

/* mrtq_requant into any mrtq_dtype (t; 0 and 6 are no type): element i =
 * mrtq_rq_apply(rq, acc[i], range of t); an odd S4 count leaves the last high
 * nibble as it was. */
static void check_requant_any(const mrtq_rq *rq, const int32_t *acc, size_t n, int t, size_t mis, int null) {
  static const int32_t lo[] = {0, -128, 0, -32768, INT32_MIN, -8}, hi[] = {0, 127, 255, 32767, INT32_MAX, 7};
  size_t bytes = t == MRTQ_S4 ? (n + 1) / 2 : t == MRTQ_S16 ? n * 2 : t == MRTQ_S32 ? n * 4 : n, i;
  int tok = t >= MRTQ_S8 && t <= MRTQ_S4, ok = rq_ok(rq) && tok && !(null && n);
  fz_buf bo;
  uint8_t *out;
  /* out at any address, also for S16 / S32 (was defect D9: stores through int16_t * / int32_t * casts) */
  out = (uint8_t *)fz_buf_new_at(&bo, bytes, 0xa5, mis);
  mrtq_status st;
  FZ_CALL(st, mrtq_requant(rq, null == 1 ? NULL : acc, n, (mrtq_dtype)t, null == 2 ? NULL : out), "mrtq_requant");
  fz_after(&bo, st, "mrtq_requant");
  FZ_EQ(st, ok ? MRTQ_OK : MRTQ_EINVAL, "mrtq_requant(type %d, n %zu, null %d) rq_ok %d", t, n, null, rq_ok(rq));
  if (st != MRTQ_OK) {
    fz_buf_free(&bo);
    return;
  }
  for (i = 0; i < n; i++) {
    int32_t want = mrtq_rq_apply(rq, acc[i], lo[t], hi[t]), got;
    switch (t) {
      case MRTQ_S8: got = (int8_t)out[i]; break;
      case MRTQ_U8: got = out[i]; break;
      case MRTQ_S16: { int16_t v; memcpy(&v, out + 2 * i, 2); got = v; break; }
      case MRTQ_S32: memcpy(&got, out + 4 * i, 4); break;
      default: got = (int32_t)((out[i / 2] >> (i % 2 * 4)) & 15u), got = got >= 8 ? got - 16 : got; break;
    }
    FZ_EQ(got, want, "mrtq_requant(%s)[%zu of %zu] scheme %d m {%d, %d} scale %a zp %d [%d, %d] acc %d",
          mrtq_dtype_str((mrtq_dtype)t), i, n, (int)rq->scheme, rq->m.mult, rq->m.shift, (double)rq->scale, rq->zp,
          rq->qmin, rq->qmax, acc[i]);
  }
  if (t == MRTQ_S4 && n % 2) FZ_EQ(out[n / 2] >> 4, 0xa5 >> 4, "mrtq_requant(s4, odd n %zu) wrote the last high nibble", n);
  fz_buf_free(&bo);
}

static void check_requant(fz *f) {
  size_t n = (size_t)fz_range(f, 0, 300), i, mis = (size_t)fz_range(f, 0, 63);
  mrtq_rq rq;
  fz_buf ba, bo;
  int32_t *acc;
  uint8_t *out;
  uint8_t sel = fz_u8(f);
  int u8 = sel & 1, null = fz_rare(f, 8) ? (int)fz_range(f, 0, 3) : 0; /* 1: acc NULL, 2: out NULL, 3: rq NULL */
  mrtq_status st;
  make_rq(f, &rq);
  acc = (int32_t *)fz_buf_new_at(&ba, n * 4, 0, (size_t)fz_range(f, 0, 15) * 4);
  for (i = 0; i < n; i++) acc[i] = acc_value(f);
  if (sel & 2) { /* the any-type form: S8, U8, S16, S32, S4, sometimes no type */
    int t = sel >= 248 ? (int)(sel % 2 ? 0 : 6) : (int)(sel >> 2) % 5 + 1;
    if (null == 3) {
      out = (uint8_t *)fz_buf_new(&bo, 8, 0xa5);
      FZ_CALL(st, mrtq_requant(NULL, acc, n, (mrtq_dtype)t, out), "mrtq_requant(NULL rq)");
      FZ_EQ(st, MRTQ_EINVAL, "mrtq_requant(NULL rq)");
      fz_after(&bo, st, "mrtq_requant(NULL rq)");
      fz_buf_free(&bo);
    } else check_requant_any(&rq, acc, n, t, mis, null);
    fz_buf_free(&ba);
    return;
  }
  out = (uint8_t *)fz_buf_new_at(&bo, n, 0xa5, mis);
  {
    const mrtq_rq *r = null == 3 ? NULL : &rq;
    const int32_t *a = null == 1 ? NULL : acc;
    uint8_t *o = null == 2 ? NULL : out;
    int ok = null != 3 && rq_ok(&rq) && !(null && n);
    if (u8) FZ_CALL(st, mrtq_requant_u8(r, a, n, o), "mrtq_requant_u8");
    else FZ_CALL(st, mrtq_requant_s8(r, a, n, (int8_t *)o), "mrtq_requant_s8");
    fz_after(&bo, st, u8 ? "mrtq_requant_u8" : "mrtq_requant_s8");
    FZ_EQ(st, ok ? MRTQ_OK : MRTQ_EINVAL, "mrtq_requant_%s(n %zu, null %d) rq_ok %d", u8 ? "u8" : "s8", n, null,
          rq_ok(&rq));
    if (st != MRTQ_OK) {
      fz_buf_free(&ba), fz_buf_free(&bo);
      return;
    }
  }
  for (i = 0; i < n; i++) {
    int32_t want = mrtq_rq_apply(&rq, acc[i], u8 ? 0 : -128, u8 ? 255 : 127);
    int32_t got = u8 ? (int32_t)out[i] : (int32_t)(int8_t)out[i];
    FZ_EQ(got, want, "mrtq_requant_%s[%zu of %zu] scheme %d m {%d, %d} scale %a zp %d [%d, %d] acc %d",
          u8 ? "u8" : "s8", i, n, (int)rq.scheme, rq.m.mult, rq.m.shift, (double)rq.scale, rq.zp, rq.qmin, rq.qmax,
          acc[i]);
  }
  fz_buf_free(&ba), fz_buf_free(&bo);
}

static void check_requant_pc(fz *f) {
  size_t outer = (size_t)fz_range(f, 1, 3), ch = (size_t)fz_range(f, 1, 6), inner = (size_t)fz_range(f, 1, 40);
  size_t total = outer * ch * inner, i, o, c, k;
  mrtq_rq rq[6];
  fz_buf ba, bo;
  int32_t *acc;
  uint8_t *out;
  int u8 = fz_bool(f), inner_layout = fz_bool(f);
  int ok = 1;
  mrtq_status st;
  for (c = 0; c < ch; c++) make_rq(f, &rq[c]), ok &= rq_ok(&rq[c]);
  acc = (int32_t *)fz_buf_new(&ba, total * 4, 0);
  for (i = 0; i < total; i++) acc[i] = acc_value(f);
  out = (uint8_t *)fz_buf_new_at(&bo, total, 0x5a, (size_t)fz_range(f, 0, 63));
  if (inner_layout) { /* rows x channels */
    size_t rows = outer * inner;
    if (u8) FZ_CALL(st, mrtq_requant_u8_inner(rq, acc, rows, ch, out), "mrtq_requant_u8_inner");
    else FZ_CALL(st, mrtq_requant_s8_inner(rq, acc, rows, ch, (int8_t *)out), "mrtq_requant_s8_inner");
    fz_after(&bo, st, "mrtq_requant_*_inner");
    FZ_EQ(st, ok ? MRTQ_OK : MRTQ_EINVAL, "mrtq_requant_%s_inner status", u8 ? "u8" : "s8");
    for (i = 0; i < total && st == MRTQ_OK; i++) {
      c = i % ch;
      FZ_EQ(u8 ? (int32_t)out[i] : (int32_t)(int8_t)out[i], mrtq_rq_apply(&rq[c], acc[i], u8 ? 0 : -128, u8 ? 255 : 127),
            "mrtq_requant_%s_inner element %zu", u8 ? "u8" : "s8", i);
    }
  } else {
    if (u8) FZ_CALL(st, mrtq_requant_u8_outer(rq, acc, outer, ch, inner, out), "mrtq_requant_u8_outer");
    else FZ_CALL(st, mrtq_requant_s8_outer(rq, acc, outer, ch, inner, (int8_t *)out), "mrtq_requant_s8_outer");
    fz_after(&bo, st, "mrtq_requant_*_outer");
    FZ_EQ(st, ok ? MRTQ_OK : MRTQ_EINVAL, "mrtq_requant_%s_outer status", u8 ? "u8" : "s8");
    for (o = 0, i = 0; o < outer && st == MRTQ_OK; o++)
      for (c = 0; c < ch; c++)
        for (k = 0; k < inner; k++, i++)
          FZ_EQ(u8 ? (int32_t)out[i] : (int32_t)(int8_t)out[i],
                mrtq_rq_apply(&rq[c], acc[i], u8 ? 0 : -128, u8 ? 255 : 127), "mrtq_requant_%s_outer element %zu",
                u8 ? "u8" : "s8", i);
  }
  FZ_CHECK(fz_guards_intact(&bo), "per-channel requant wrote outside its %zu bytes", total);
  fz_buf_free(&ba), fz_buf_free(&bo);
}

static float x_value(fz *f) {
  uint8_t m = fz_u8(f);
  if (m < 100) return (float)fz_irange(f, -400, 400) * 0.5f; /* ties */
  return fz_float(f);
}
static int same_float(float a, float b) { return memcmp(&a, &b, sizeof a) == 0 || (a != a && b != b); }

static void check_quantize(fz *f) {
  size_t n = (size_t)fz_range(f, 0, 200), i;
  float scale = fz_u8(f) < 200 ? (float)fz_double(f) : fz_float(f);
  int32_t zp = fz_u8(f) < 200 ? (int32_t)fz_irange(f, -300, 300) : fz_i32(f);
  uint8_t sel = fz_u8(f);
  int u8 = sel & 1, null = sel >= 240 ? (int)(sel >> 1 & 1) + 1 : 0; /* 1: input NULL, 2: out NULL */
  mrtq_status st;
  fz_buf bx, bo, bq, bd;
  float *x = (float *)fz_buf_new_at(&bx, n * 4, 0, (size_t)fz_range(f, 0, 15) * 4), *d;
  uint8_t *out = (uint8_t *)fz_buf_new_at(&bo, n, 0xa5, (size_t)fz_range(f, 0, 63)), *q;
  for (i = 0; i < n; i++) x[i] = x_value(f);
  if (u8) FZ_CALL(st, mrtq_quantize_f32_u8(scale, zp, null == 1 ? NULL : x, n, null == 2 ? NULL : out), "mrtq_quantize_f32_u8");
  else FZ_CALL(st, mrtq_quantize_f32_s8(scale, zp, null == 1 ? NULL : x, n, null == 2 ? NULL : (int8_t *)out),
           "mrtq_quantize_f32_s8");
  fz_after(&bo, st, "mrtq_quantize_f32_*");
  FZ_EQ(st, null && n ? MRTQ_EINVAL : MRTQ_OK, "mrtq_quantize_f32_%s(n %zu, null %d)", u8 ? "u8" : "s8", n, null);
  for (i = 0; i < n && st == MRTQ_OK; i++)
    FZ_EQ(u8 ? (int32_t)out[i] : (int32_t)(int8_t)out[i], mrtq_quantize_f32(x[i], scale, zp, u8 ? 0 : -128, u8 ? 255 : 127),
          "mrtq_quantize_f32_%s[%zu of %zu] x %a scale %a zp %d", u8 ? "u8" : "s8", i, n, (double)x[i], (double)scale, zp);
  /* dequantize */
  q = (uint8_t *)fz_buf_new_at(&bq, n, 0, (size_t)fz_range(f, 0, 63));
  fz_fill(f, q, n);
  d = (float *)fz_buf_new_at(&bd, n * 4, 0xa5, (size_t)fz_range(f, 0, 15) * 4);
  if (u8) FZ_CALL(st, mrtq_dequantize_u8_f32(scale, zp, null == 1 ? NULL : q, n, null == 2 ? NULL : d), "mrtq_dequantize_u8_f32");
  else FZ_CALL(st, mrtq_dequantize_s8_f32(scale, zp, null == 1 ? NULL : (const int8_t *)q, n, null == 2 ? NULL : d),
           "mrtq_dequantize_s8_f32");
  fz_after(&bd, st, "mrtq_dequantize_*_f32");
  FZ_EQ(st, null && n ? MRTQ_EINVAL : MRTQ_OK, "mrtq_dequantize_%s_f32(n %zu, null %d)", u8 ? "u8" : "s8", n, null);
  for (i = 0; i < n && st == MRTQ_OK; i++) {
    float want = mrtq_dequantize_f32(u8 ? (int32_t)q[i] : (int32_t)(int8_t)q[i], scale, zp);
    FZ_CHECK(same_float(d[i], want), "mrtq_dequantize_%s_f32[%zu] q %d scale %a zp %d: %a, want %a", u8 ? "u8" : "s8",
             i, (int)q[i], (double)scale, zp, (double)d[i], (double)want);
  }
  fz_buf_free(&bx), fz_buf_free(&bo), fz_buf_free(&bq), fz_buf_free(&bd);
}

static void check_quantize_pc(fz *f) {
  size_t outer = (size_t)fz_range(f, 1, 3), ch = (size_t)fz_range(f, 1, 5), inner = (size_t)fz_range(f, 1, 40);
  size_t total = outer * ch * inner, i, c;
  float scale[5], *x, *d;
  int32_t zp[5];
  uint8_t *out, *q;
  int u8 = fz_bool(f), inner_layout = fz_bool(f);
  fz_buf bx, bo, bq, bd;
  for (c = 0; c < ch; c++) {
    scale[c] = (float)fz_double(f);
    zp[c] = fz_u8(f) < 200 ? (int32_t)fz_irange(f, -300, 300) : fz_i32(f);
  }
  x = (float *)fz_buf_new(&bx, total * 4, 0);
  for (i = 0; i < total; i++) x[i] = x_value(f);
  out = (uint8_t *)fz_buf_new_at(&bo, total, 0xa5, (size_t)fz_range(f, 0, 63));
  q = (uint8_t *)fz_buf_new(&bq, total, 0);
  fz_fill(f, q, total);
  d = (float *)fz_buf_new(&bd, total * 4, 0x5a);
  mrtq_status st, st2;
  /* rarely one NULL: 1 scale, 2 zp, 3 the input, 4 the output */
  int null = fz_rare(f, 8) ? (int)fz_range(f, 1, 4) : 0;
  const float *sp = null == 1 ? NULL : scale;
  const int32_t *zpp = null == 2 ? NULL : zp;
  if (inner_layout) {
    size_t rows = outer * inner;
    if (u8) {
      FZ_CALL(st, mrtq_quantize_f32_u8_inner(sp, zpp, null == 3 ? NULL : x, rows, ch, null == 4 ? NULL : out),
          "mrtq_quantize_f32_u8_inner");
      FZ_CALL(st2, mrtq_dequantize_u8_f32_inner(sp, zpp, null == 3 ? NULL : q, rows, ch, null == 4 ? NULL : d),
          "mrtq_dequantize_u8_f32_inner");
    } else {
      FZ_CALL(st, mrtq_quantize_f32_s8_inner(sp, zpp, null == 3 ? NULL : x, rows, ch, null == 4 ? NULL : (int8_t *)out),
          "mrtq_quantize_f32_s8_inner");
      FZ_CALL(st2, mrtq_dequantize_s8_f32_inner(sp, zpp, null == 3 ? NULL : (const int8_t *)q, rows, ch, null == 4 ? NULL : d),
          "mrtq_dequantize_s8_f32_inner");
    }
  } else {
    if (u8) {
      FZ_CALL(st, mrtq_quantize_f32_u8_outer(sp, zpp, null == 3 ? NULL : x, outer, ch, inner, null == 4 ? NULL : out),
          "mrtq_quantize_f32_u8_outer");
      FZ_CALL(st2, mrtq_dequantize_u8_f32_outer(sp, zpp, null == 3 ? NULL : q, outer, ch, inner, null == 4 ? NULL : d),
          "mrtq_dequantize_u8_f32_outer");
    } else {
      FZ_CALL(st, mrtq_quantize_f32_s8_outer(sp, zpp, null == 3 ? NULL : x, outer, ch, inner, null == 4 ? NULL : (int8_t *)out),
          "mrtq_quantize_f32_s8_outer");
      FZ_CALL(st2,
          mrtq_dequantize_s8_f32_outer(sp, zpp, null == 3 ? NULL : (const int8_t *)q, outer, ch, inner, null == 4 ? NULL : d),
          "mrtq_dequantize_s8_f32_outer");
    }
  }
  fz_after(&bo, st, "per-channel quantize");
  fz_after(&bd, st2, "per-channel dequantize");
  FZ_EQ(st, null ? MRTQ_EINVAL : MRTQ_OK, "per-channel quantize (%s) null %d", inner_layout ? "inner" : "outer", null);
  FZ_EQ(st2, null ? MRTQ_EINVAL : MRTQ_OK, "per-channel dequantize (%s) null %d", inner_layout ? "inner" : "outer", null);
  if (null) {
    fz_buf_free(&bx), fz_buf_free(&bo), fz_buf_free(&bq), fz_buf_free(&bd);
    return;
  }
  for (i = 0; i < total; i++) {
    int32_t qv = u8 ? (int32_t)q[i] : (int32_t)(int8_t)q[i];
    c = inner_layout ? i % ch : i / inner % ch;
    FZ_EQ(u8 ? (int32_t)out[i] : (int32_t)(int8_t)out[i],
          mrtq_quantize_f32(x[i], scale[c], zp[c], u8 ? 0 : -128, u8 ? 255 : 127), "per-channel quantize element %zu (%s)",
          i, inner_layout ? "inner" : "outer");
    FZ_CHECK(same_float(d[i], mrtq_dequantize_f32(qv, scale[c], zp[c])), "per-channel dequantize element %zu (%s)", i,
             inner_layout ? "inner" : "outer");
  }
  fz_buf_free(&bx), fz_buf_free(&bo), fz_buf_free(&bq), fz_buf_free(&bd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f = {data, size};
  switch (fz_u8(&f) % 4) {
    case 0: check_requant(&f); break;
    case 1: check_requant_pc(&f); break;
    case 2: check_quantize(&f); break;
    default: check_quantize_pc(&f); break;
  }
  return 0;
}
