/* Array paths of requant.h: mrtq_requant_s8/_u8 (and _outer/_inner), the
 * array quantize / dequantize (and _outer/_inner) equal their scalar
 * specification element by element, at any length and alignment, and write
 * exactly their extent. Built once per SIMD path (run.sh: -DMRTQ_SIMD=... and
 * the matching -m flags), so each binary checks one path against the scalar
 * functions. */
#include "fuzz.h"

#include "mrtq/requant.h"

static int32_t acc_value(fz *f) { /* mostly near the interesting band, sometimes anything */
  uint8_t m = fz_u8(f);
  if (m < 128) return (int32_t)fz_irange(f, -70000, 70000);
  return fz_i32(f);
}

static void make_rq(fz *f, mrtq_rq *rq) {
  if (fz_rare(f, 32)) { /* hand-filled: any fields (the array functions promise the scalar result anyway) */
    rq->scheme = (mrtq_scheme)fz_range(f, 0, 4);
    rq->m.mult = fz_i32(f), rq->m.shift = (int32_t)fz_irange(f, -40, 40);
    rq->scale = fz_float(f);
    rq->zp = fz_i32(f), rq->qmin = fz_i32(f), rq->qmax = fz_i32(f);
    return;
  }
  for (;;) {
    mrtq_scheme s = (mrtq_scheme)fz_range(f, 0, 4);
    double scale = fz_double(f);
    int32_t zp = fz_u8(f) < 200 ? (int32_t)fz_irange(f, -300, 300) : fz_i32(f);
    int32_t qmin = fz_u8(f) < 128 ? (int32_t)fz_irange(f, -200, 300) : fz_i32(f);
    int32_t qmax = fz_u8(f) < 128 ? (int32_t)fz_irange(f, -200, 300) : fz_i32(f);
    if (mrtq_rq_init(rq, s, scale, zp, qmin, qmax) == MRTQ_OK) return;
    if (f->n == 0) { /* out of input: a plain valid one */
      mrtq_rq_init(rq, s, 0.25, 3, -128, 255);
      return;
    }
  }
}

static void check_requant(fz *f) {
  size_t n = (size_t)fz_range(f, 0, 300), i, mis = (size_t)fz_range(f, 0, 63);
  mrtq_rq rq;
  fz_buf ba, bo;
  int32_t *acc;
  uint8_t *out;
  int u8 = fz_bool(f);
  make_rq(f, &rq);
  acc = (int32_t *)fz_buf_new_at(&ba, n * 4, 0, (size_t)fz_range(f, 0, 15) * 4);
  for (i = 0; i < n; i++) acc[i] = acc_value(f);
  out = (uint8_t *)fz_buf_new_at(&bo, n, 0xa5, mis);
  if (u8) mrtq_requant_u8(&rq, acc, n, out);
  else mrtq_requant_s8(&rq, acc, n, (int8_t *)out);
  FZ_CHECK(fz_guards_intact(&bo), "mrtq_requant_%s wrote outside its %zu bytes", u8 ? "u8" : "s8", n);
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
  for (c = 0; c < ch; c++) make_rq(f, &rq[c]);
  acc = (int32_t *)fz_buf_new(&ba, total * 4, 0);
  for (i = 0; i < total; i++) acc[i] = acc_value(f);
  out = (uint8_t *)fz_buf_new_at(&bo, total, 0x5a, (size_t)fz_range(f, 0, 63));
  if (inner_layout) { /* rows x channels */
    size_t rows = outer * inner;
    if (u8) mrtq_requant_u8_inner(rq, rows, ch, acc, out);
    else mrtq_requant_s8_inner(rq, rows, ch, acc, (int8_t *)out);
    for (i = 0; i < total; i++) {
      c = i % ch;
      FZ_EQ(u8 ? (int32_t)out[i] : (int32_t)(int8_t)out[i], mrtq_rq_apply(&rq[c], acc[i], u8 ? 0 : -128, u8 ? 255 : 127),
            "mrtq_requant_%s_inner element %zu", u8 ? "u8" : "s8", i);
    }
  } else {
    if (u8) mrtq_requant_u8_outer(rq, outer, ch, inner, acc, out);
    else mrtq_requant_s8_outer(rq, outer, ch, inner, acc, (int8_t *)out);
    for (o = 0, i = 0; o < outer; o++)
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
  int u8 = fz_bool(f);
  fz_buf bx, bo, bq, bd;
  float *x = (float *)fz_buf_new_at(&bx, n * 4, 0, (size_t)fz_range(f, 0, 15) * 4), *d;
  uint8_t *out = (uint8_t *)fz_buf_new_at(&bo, n, 0xa5, (size_t)fz_range(f, 0, 63)), *q;
  for (i = 0; i < n; i++) x[i] = x_value(f);
  if (u8) mrtq_quantize_f32_u8(x, n, scale, zp, out);
  else mrtq_quantize_f32_s8(x, n, scale, zp, (int8_t *)out);
  FZ_CHECK(fz_guards_intact(&bo), "mrtq_quantize_f32_%s wrote outside its %zu bytes", u8 ? "u8" : "s8", n);
  for (i = 0; i < n; i++)
    FZ_EQ(u8 ? (int32_t)out[i] : (int32_t)(int8_t)out[i], mrtq_quantize_f32(x[i], scale, zp, u8 ? 0 : -128, u8 ? 255 : 127),
          "mrtq_quantize_f32_%s[%zu of %zu] x %a scale %a zp %d", u8 ? "u8" : "s8", i, n, (double)x[i], (double)scale, zp);
  /* dequantize */
  q = (uint8_t *)fz_buf_new_at(&bq, n, 0, (size_t)fz_range(f, 0, 63));
  fz_fill(f, q, n);
  d = (float *)fz_buf_new_at(&bd, n * 4, 0xa5, (size_t)fz_range(f, 0, 15) * 4);
  if (u8) mrtq_dequantize_u8_f32(q, n, scale, zp, d);
  else mrtq_dequantize_s8_f32((const int8_t *)q, n, scale, zp, d);
  FZ_CHECK(fz_guards_intact(&bd), "mrtq_dequantize_%s_f32 wrote outside its %zu floats", u8 ? "u8" : "s8", n);
  for (i = 0; i < n; i++) {
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
  if (inner_layout) {
    size_t rows = outer * inner;
    if (u8) mrtq_quantize_f32_u8_inner(x, rows, ch, scale, zp, out), mrtq_dequantize_u8_f32_inner(q, rows, ch, scale, zp, d);
    else mrtq_quantize_f32_s8_inner(x, rows, ch, scale, zp, (int8_t *)out),
         mrtq_dequantize_s8_f32_inner((const int8_t *)q, rows, ch, scale, zp, d);
  } else {
    if (u8) mrtq_quantize_f32_u8_outer(x, outer, ch, inner, scale, zp, out),
            mrtq_dequantize_u8_f32_outer(q, outer, ch, inner, scale, zp, d);
    else mrtq_quantize_f32_s8_outer(x, outer, ch, inner, scale, zp, (int8_t *)out),
         mrtq_dequantize_s8_f32_outer((const int8_t *)q, outer, ch, inner, scale, zp, d);
  }
  FZ_CHECK(fz_guards_intact(&bo) && fz_guards_intact(&bd), "per-channel (de)quantize wrote outside its extent");
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
