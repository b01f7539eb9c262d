/* mrtq/ort.h and mrtq_maxpool2d_xnn with fuzzer-chosen arguments: scales from
 * any float bits (NaN, infinite, denormal, negative, huge), zero points in or
 * out of the type, element types outside the enum, shapes with zero or huge
 * dimensions, any input bytes. No undefined behaviour; a refusal reports
 * exactly one reason and writes nothing; an accepted call writes within its
 * output extent, every byte of it (two runs with different canaries agree),
 * and mrtq_maxpool2d_xnn's outputs lie within [qmin, qmax]. The parameters
 * are read first and the data last, so every parameter is the fuzzer's. */
#include "fuzz.h"

#include <math.h>

#include "mrtq.h"

static mrtq_dtype fz_type(fz *f) {
  uint8_t b = fz_u8(f);
  return b >= 248 ? (mrtq_dtype)(b - 248) : b & 1 ? MRTQ_U8 : MRTQ_S8;
}
static int32_t fz_zp(fz *f, mrtq_dtype t) {
  if (fz_rare(f, 8)) return fz_i32(f);
  return t == MRTQ_U8 ? (int32_t)fz_irange(f, 0, 255) : (int32_t)fz_irange(f, -128, 127);
}
/* A size in [lo, hi], or rarely 0 (the refusals of empty shapes). */
static size_t fz_sz(fz *f, size_t lo, size_t hi) { return fz_rare(f, 8) ? 0 : (size_t)fz_range(f, lo, hi); }
static float fz_scale(fz *f) { return fz_rare(f, 32) ? fz_float(f) : ldexpf(1.0f + (float)fz_u8(f) / 256.0f, fz_int(f, -40, 20)); }

/* Run `call` twice, into two guarded buffers of n bytes with different
 * canaries; check the refusal / extent contract and that both agree. */
#define FZ_TWICE(n, call_a, call_b, what)                                                    \
  do {                                                                                       \
    fz_buf b1_, b2_;                                                                         \
    mrtq_status s1_, s2_;                                                                    \
    void *o1 = fz_buf_new(&b1_, (n), 0x5A), *o2 = fz_buf_new(&b2_, (n), 0xC3);              \
    FZ_CALL(s1_, call_a, what);                                                              \
    FZ_CALL(s2_, call_b, what);                                                              \
    FZ_EQ(s1_, s2_, "%s: the same call twice", what);                                        \
    fz_after(&b1_, s1_, what);                                                               \
    fz_after(&b2_, s2_, what);                                                               \
    if (s1_ == MRTQ_OK) FZ_CHECK(fz_same_output(&b1_, &b2_), "%s left bytes of its output unwritten", what); \
    fz_buf_free(&b1_), fz_buf_free(&b2_);                                                    \
    (void)o1, (void)o2;                                                                      \
  } while (0)

/* The data, read LAST (after every parameter, so the parameters see the
 * fuzzer's bytes): up to 8 floats of any bits at chosen places, then the
 * bytes of x (the rest of the input, then a pseudo-random pad); xf is x
 * spread over floats where no special float was placed. */
static uint8_t x[4096], y[4096];
static float xf[512];
static void fz_data(fz *f) {
  float sp[8];
  size_t at[8];
  int ns = (int)fz_irange(f, 0, 8);
  for (int k = 0; k < ns; k++) at[k] = (size_t)fz_range(f, 0, 511), sp[k] = fz_float(f);
  fz_fill(f, x, sizeof x);
  for (size_t i = 0; i < 512; i++) xf[i] = ((float)x[i] - 128.0f) * 0.37f;
  for (int k = 0; k < ns; k++) xf[at[k]] = sp[k];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f = {data, size};
  static float sc[16];
  int32_t zp[16];
  mrtq_status st;
  int op = fz_int(&f, 0, 8);
  mrtq_dtype t = fz_type(&f);
  size_t n = fz_sz(&f, 0, 512);
  for (int k = 0; k < 16; k++) sc[k] = fz_scale(&f), zp[k] = fz_zp(&f, t);
  switch (op) {
    case 0: { /* QuantizeLinear / per axis */
      size_t shape[3] = {fz_sz(&f, 0, 4), fz_sz(&f, 0, 8), fz_sz(&f, 0, 16)};
      int axis = fz_int(&f, -4, 3);
      const int32_t *zpa = fz_bool(&f) ? zp : NULL;
      fz_data(&f);
      FZ_TWICE(n, mrtq_ort_quantize_linear(xf, n, sc[0], zp[0], t, o1), mrtq_ort_quantize_linear(xf, n, sc[0], zp[0], t, o2),
               "mrtq_ort_quantize_linear");
      if (shape[1] <= 16 && shape[0] * shape[1] * shape[2] <= 512)
        FZ_TWICE(shape[0] * shape[1] * shape[2],
                 mrtq_ort_quantize_linear_axis(xf, shape, 3, axis, sc, zpa, t, o1),
                 mrtq_ort_quantize_linear_axis(xf, shape, 3, axis, sc, zpa, t, o2), "mrtq_ort_quantize_linear_axis");
      break;
    }
    case 1: { /* DequantizeLinear, DynamicQuantizeLinear */
      size_t m = n / 4;
      fz_data(&f);
      FZ_TWICE(m * 4, mrtq_ort_dequantize_linear(x, m, sc[0], zp[0], t, (float *)o1),
               mrtq_ort_dequantize_linear(x, m, sc[0], zp[0], t, (float *)o2), "mrtq_ort_dequantize_linear");
      float s = 0;
      int32_t z = 0;
      FZ_CALL(st, mrtq_ort_dynamic_quantize_linear(xf, n, y, &s, &z), "mrtq_ort_dynamic_quantize_linear");
      /* the scale is 0 when the range is below 255 times the smallest subnormal (ORT's too) */
      if (st == MRTQ_OK) FZ_CHECK(z >= 0 && z <= 255 && s >= 0, "dynamic: zp %d scale %g", (int)z, (double)s);
      break;
    }
    case 2:
    case 3: { /* QLinearAdd / QLinearMul with broadcasting */
      size_t sa[2] = {fz_sz(&f, 0, 6), fz_sz(&f, 0, 6)}, sb[2] = {fz_sz(&f, 0, 6), fz_sz(&f, 0, 6)};
      int nda = (int)fz_irange(&f, 0, 2), ndb = (int)fz_irange(&f, 0, 2);
      mrtq_ort_qlinear_params p;
      memset(&p, 0, sizeof p);
      FZ_CALL(st, mrtq_ort_qlinear_init(sc[0], zp[0], sc[1], zp[1], sc[2], zp[2], t, &p), "mrtq_ort_qlinear_init");
      if (st != MRTQ_OK && fz_bool(&f)) p.sa = sc[0], p.sb = sc[1], p.sc = sc[2], p.za = zp[0], p.zb = zp[1], p.zc = zp[2], p.type = t;
      mrtq_bcast bc;
      if (mrtq_bcast_init(sa + 2 - nda, nda, sb + 2 - ndb, ndb, &bc) != MRTQ_OK) bc.n = 1;
      fz_data(&f);
      if (op == 2)
        FZ_TWICE(bc.n, mrtq_ort_qlinear_add(sa + 2 - nda, nda, sb + 2 - ndb, ndb, &p, x, x + 64, o1),
                 mrtq_ort_qlinear_add(sa + 2 - nda, nda, sb + 2 - ndb, ndb, &p, x, x + 64, o2), "mrtq_ort_qlinear_add");
      else
        FZ_TWICE(bc.n, mrtq_ort_qlinear_mul(sa + 2 - nda, nda, sb + 2 - ndb, ndb, &p, x, x + 64, o1),
                 mrtq_ort_qlinear_mul(sa + 2 - nda, nda, sb + 2 - ndb, ndb, &p, x, x + 64, o2), "mrtq_ort_qlinear_mul");
      break;
    }
    case 4: { /* the lookup tables */
      mrtq_ort_lut_params p;
      memset(&p, 0, sizeof p);
      if (fz_bool(&f))
        FZ_CALL(st, mrtq_ort_qlinear_sigmoid_init(sc[0], zp[0], sc[1], zp[1], t, &p), "mrtq_ort_qlinear_sigmoid_init");
      else
        FZ_CALL(st, mrtq_ort_qlinear_leaky_relu_init(sc[0], zp[0], sc[1], zp[1], fz_float(&f), t, &p),
                "mrtq_ort_qlinear_leaky_relu_init");
      if (fz_rare(&f, 16)) p.type = fz_type(&f);
      float lx = fz_float(&f);
      fz_data(&f);
      FZ_TWICE(n, mrtq_ort_lut(&p, x, n, o1), mrtq_ort_lut(&p, x, n, o2), "mrtq_ort_lut");
      float l = mrtq_ort_logistic(lx);
      FZ_CHECK(l != l || (l >= 0.0f && l < 1.0001f), "logistic %g", (double)l);
      break;
    }
    case 5:
    case 6: { /* QLinearAveragePool; XNNPACK's max pooling */
      mrtq_pool2d p;
      memset(&p, 0, sizeof p);
      p.n = fz_sz(&f, 0, 2), p.c = fz_sz(&f, 0, 3), p.h = fz_sz(&f, 0, 9), p.w = fz_sz(&f, 0, 9);
      p.kh = fz_sz(&f, 0, 5), p.kw = fz_sz(&f, 0, 5), p.stride_h = fz_sz(&f, 0, 4), p.stride_w = fz_sz(&f, 0, 4);
      p.pad_top = fz_range(&f, 0, 6), p.pad_left = fz_range(&f, 0, 6), p.pad_bottom = fz_range(&f, 0, 6);
      p.pad_right = fz_range(&f, 0, 6);
      if (fz_rare(&f, 8)) p.pad_bottom = SIZE_MAX - fz_range(&f, 0, 3);
      p.layout = (mrtq_layout)(fz_rare(&f, 8) ? fz_int(&f, -1, 3) : fz_bool(&f));
      p.type = t;
      size_t dh = fz_sz(&f, 0, 3), dw = fz_sz(&f, 0, 3), ho = 0, wo = 0, out_n = 0;
      int cip = fz_bool(&f);
      int32_t lo = fz_zp(&f, t), hi = fz_zp(&f, t);
      fz_data(&f);
      if (op == 5) {
        if (mrtq_pool2d_out(&p, &ho, &wo) == MRTQ_OK) out_n = p.n * p.c * ho * wo;
        FZ_TWICE(out_n, mrtq_ort_qlinear_avgpool(&p, cip, sc[0], zp[0], sc[1], zp[1], x, o1),
                 mrtq_ort_qlinear_avgpool(&p, cip, sc[0], zp[0], sc[1], zp[1], x, o2), "mrtq_ort_qlinear_avgpool");
      } else {
        if (mrtq_maxpool2d_xnn_out(&p, dh, dw, &ho, &wo) == MRTQ_OK) out_n = p.n * p.c * ho * wo;
        FZ_TWICE(out_n, mrtq_maxpool2d_xnn(&p, dh, dw, x, lo, hi, o1), mrtq_maxpool2d_xnn(&p, dh, dw, x, lo, hi, o2),
                 "mrtq_maxpool2d_xnn");
        if (out_n <= sizeof y && mrtq_maxpool2d_xnn(&p, dh, dw, x, lo, hi, y) == MRTQ_OK)
          for (size_t i = 0; i < out_n; i++) {
            int32_t v = t == MRTQ_S8 ? (int8_t)y[i] : y[i];
            FZ_CHECK(v >= lo && v <= hi, "mrtq_maxpool2d_xnn: %d outside [%d, %d]", (int)v, (int)lo, (int)hi);
          }
      }
      break;
    }
    case 7: { /* QLinearSoftmax */
      mrtq_ort_softmax_params p;
      memset(&p, 0, sizeof p);
      size_t d = fz_sz(&f, 0, 40), outer = fz_sz(&f, 0, 4), inner = fz_sz(&f, 0, 4);
      FZ_CALL(st, mrtq_ort_qlinear_softmax_init(sc[0], sc[1], zp[0], d, t, exp, log, &p), "softmax_init");
      if (fz_rare(&f, 16)) p.d = fz_sz(&f, 0, 64), p.y_zp = fz_i32(&f);
      if (fz_rare(&f, 16)) p.y = fz_float(&f), p.table[fz_u8(&f)] = fz_float(&f); /* hand-filled */
      fz_data(&f);
      size_t out_n = p.d && outer * p.d * inner <= 4096 ? outer * p.d * inner : 0;
      if (p.d * outer * inner > 4096) outer = inner = 0;
      FZ_TWICE(out_n, mrtq_ort_qlinear_softmax(&p, x, outer, inner, o1), mrtq_ort_qlinear_softmax(&p, x, outer, inner, o2),
               "mrtq_ort_qlinear_softmax");
      break;
    }
    default: { /* QLinearConcat, the scale helpers */
      size_t s0[2] = {fz_sz(&f, 0, 4), fz_sz(&f, 0, 4)}, s1[2] = {fz_sz(&f, 0, 4), fz_sz(&f, 0, 4)};
      const size_t *shapes[2] = {s0, s1};
      const void *xs[2] = {x, x + 100};
      int axis = fz_int(&f, -1, 2);
      size_t hw = (size_t)fz_range(&f, 0, 1u << 25);
      fz_data(&f);
      size_t tot = axis == 0 ? (s0[0] + s1[0]) * s0[1] : s0[0] * (s0[1] + s1[1]);
      FZ_TWICE(tot, mrtq_ort_qlinear_concat(shapes, 2, 2, axis, xs, sc, zp, sc[2], zp[2], t, o1),
               mrtq_ort_qlinear_concat(shapes, 2, 2, axis, xs, sc, zp, sc[2], zp[2], t, o2), "mrtq_ort_qlinear_concat");
      float out[16], s = 0;
      FZ_CALL(st, mrtq_ort_qlinear_scale(sc[0], sc + 1, 8, sc[9], out), "mrtq_ort_qlinear_scale");
      FZ_CALL(st, mrtq_ort_qgemm_scale(sc[10], sc[0], sc + 1, 8, sc[9], out), "mrtq_ort_qgemm_scale");
      FZ_CALL(st, mrtq_ort_avgpool_scale(sc[0], sc[1], hw, &s), "mrtq_ort_avgpool_scale");
      break;
    }
  }
  return 0;
}
