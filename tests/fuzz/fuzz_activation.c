/* activation.h with fuzzer-chosen arguments: every init from any floats and
 * zero points (huge, zero, NaN, infinite, denormal, outside the type), and
 * every kernel on a hand-filled params struct with any field values (outside
 * the enums too) and any input bytes. No undefined behaviour; every refusal
 * reports exactly one reason and writes nothing (the struct, or the output
 * array and the canaries around it); an accepted call keeps its contract:
 *   inits    the struct they fill is accepted by its kernel;
 *   kernels  accept a struct exactly when its fields are within the ranges
 *            the header states; outputs within the type (and within
 *            [qmin, qmax] for RELU); n elements written, nothing past them;
 *            LOGISTIC / TANH int8 outside the radius give -128 / 127. */
#include "fuzz.h"

#include "mrtq.h"

#define FZ_N 48

static mrtq_dtype fz_type(fz *f) {
  uint8_t b = fz_u8(f);
  return b >= 240 ? (mrtq_dtype)(b - 240) : (mrtq_dtype)(1 + b % 3); /* S8, U8, S16 mostly */
}

static int32_t fz_zp(fz *f, mrtq_dtype t) {
  int32_t lo = -128, hi = 255;
  if (fz_rare(f, 8)) return fz_i32(f);
  if (mrtq_dtype_range(t, &lo, &hi) != MRTQ_OK || t == MRTQ_S32) lo = -128, hi = 255;
  return (int32_t)fz_irange(f, lo, hi);
}

static mrtq_mult fz_mult(fz *f) {
  mrtq_mult m;
  m.mult = fz_rare(f, 16) ? fz_i32(f) : (int32_t)fz_irange(f, 0, INT32_MAX);
  m.shift = fz_rare(f, 16) ? fz_i32(f) : (int32_t)fz_irange(f, -33, 32);
  return m;
}

static int in_type(int64_t v, mrtq_dtype t) {
  int32_t lo, hi;
  return (t == MRTQ_S8 || t == MRTQ_U8 || t == MRTQ_S16) && mrtq_dtype_range(t, &lo, &hi) == MRTQ_OK && v >= lo &&
         v <= hi;
}
static int mult_ok(mrtq_mult m) { return m.mult >= 0 && m.shift >= -31 && m.shift <= 30; }

/* Input bytes and a canary-guarded output (16 canary bytes before the
 * elements, the rest after): run `call`, which writes n elements of `bytes`
 * each at fz_out + 16; an accepted call leaves every byte outside them, a
 * refused one every byte, as it was. */
static uint8_t fz_in[FZ_N * 2];
static union {
  uint8_t b[FZ_N * 2 + 32];
  int16_t h[FZ_N + 16];
} fz_o;
#define fz_out fz_o.b
#define FZ_RUN(st, call, what, n, bytes)                                                                \
  do {                                                                                                \
    size_t k_, end_;                                                                                  \
    memset(fz_out, 0xA5, sizeof fz_out);                                                              \
    FZ_CALL(st, call, what);                                                                          \
    end_ = (st) == MRTQ_OK ? 16 + (size_t)(n) * (bytes) : 0;                                          \
    for (k_ = 0; k_ < sizeof fz_out; k_++)                                                            \
      if (k_ < 16 || k_ >= end_) FZ_CHECK(fz_out[k_] == 0xA5, "%s wrote byte %zu (status %d)", what, k_, (int)(st)); \
  } while (0)

static int32_t out_at(size_t i, mrtq_dtype t) {
  const uint8_t *p = fz_out + 16;
  if (t == MRTQ_S16) {
    int16_t v;
    memcpy(&v, p + 2 * i, 2);
    return v;
  }
  return t == MRTQ_S8 ? (int32_t)(int8_t)p[i] : (int32_t)p[i];
}

static void check_relu(fz *f) {
  mrtq_tflite_relu_params p, q;
  mrtq_status st;
  size_t n = fz_range(f, 0, FZ_N), i;
  memset(&p, 0x5A, sizeof p);
  q = p;
  if (fz_bool(f)) {
    int micro = fz_rare(f, 64);
    mrtq_tflite_act act = (mrtq_tflite_act)fz_irange(f, -1, 7);
    mrtq_dtype t = fz_type(f);
    float si = fz_float(f), so = fz_float(f);
    int32_t zi = fz_zp(f, t), zo = fz_zp(f, t);
    if (micro)
      FZ_CALL(st, mrtq_tflite_relu6_init_micro(t, si, zi, &p), "relu6_init_micro");
    else
      FZ_CALL(st, mrtq_tflite_relu_init(act, t, si, zi, so, zo, &p), "relu_init");
    if (st != MRTQ_OK) {
      FZ_CHECK(!memcmp(&p, &q, sizeof p), "relu init refused but wrote");
      return;
    }
  } else {
    memset(&p, 0, sizeof p);
    p.type = fz_type(f), p.in_zp = fz_zp(f, p.type), p.out_zp = fz_zp(f, p.type), p.m = fz_mult(f);
    p.qmin = fz_zp(f, p.type), p.qmax = fz_zp(f, p.type);
  }
  fz_fill(f, fz_in, sizeof fz_in);
  {
    int ok = in_type(p.in_zp, p.type) && in_type(p.out_zp, p.type) && in_type(p.qmin, p.type) &&
             in_type(p.qmax, p.type) && p.qmin <= p.qmax && mult_ok(p.m);
    size_t b = p.type == MRTQ_S16 ? 2 : 1;
    FZ_RUN(st, mrtq_tflite_relu(&p, n, fz_in, fz_out + 16), "relu", n, b);
    FZ_CHECK((st == MRTQ_OK) == ok, "relu: status %d, fields ok %d", (int)st, ok);
    if (st == MRTQ_OK)
      for (i = 0; i < n; i++) FZ_CHECK(out_at(i, p.type) >= p.qmin && out_at(i, p.type) <= p.qmax, "relu bound");
  }
}

static void check_leaky(fz *f) {
  mrtq_tflite_leaky_relu_params p, q;
  mrtq_status st;
  size_t n = fz_range(f, 0, FZ_N);
  memset(&p, 0x5A, sizeof p);
  q = p;
  if (fz_bool(f)) {
    mrtq_dtype t = fz_type(f);
    float si = fz_float(f), a = fz_float(f), so = fz_float(f);
    int32_t zi = fz_zp(f, t), zo = fz_zp(f, t);
    FZ_CALL(st, mrtq_tflite_leaky_relu_init(t, si, zi, a, so, zo, &p), "leaky_relu_init");
    if (st != MRTQ_OK) {
      FZ_CHECK(!memcmp(&p, &q, sizeof p), "leaky init refused but wrote");
      return;
    }
  } else {
    memset(&p, 0, sizeof p);
    p.type = fz_type(f), p.in_zp = fz_zp(f, p.type), p.out_zp = fz_zp(f, p.type);
    p.identity = fz_mult(f), p.alpha = fz_mult(f), p.alpha_negative = (int32_t)fz_irange(f, -1, 2);
  }
  fz_fill(f, fz_in, sizeof fz_in);
  {
    int ok = in_type(p.in_zp, p.type) && in_type(p.out_zp, p.type) && mult_ok(p.identity) && mult_ok(p.alpha) &&
             (p.alpha_negative == 0 || p.alpha_negative == 1);
    FZ_RUN(st, mrtq_tflite_leaky_relu(&p, n, fz_in, fz_out + 16), "leaky_relu", n, p.type == MRTQ_S16 ? 2u : 1u);
    FZ_CHECK((st == MRTQ_OK) == ok, "leaky: status %d, fields ok %d", (int)st, ok);
  }
}

static void check_prelu(fz *f) {
  mrtq_tflite_prelu_params p, q;
  mrtq_status st;
  size_t shape[3], ashape[3], n = 1;
  int nd = (int)fz_range(f, 0, 3), na = (int)fz_range(f, 0, 3), d;
  uint8_t alpha[FZ_N * 2];
  memset(&p, 0x5A, sizeof p);
  q = p;
  for (d = 0; d < nd; d++) shape[d] = fz_range(f, 1, 3), n *= shape[d]; /* n <= 27 <= FZ_N */
  for (d = 0; d < na; d++) ashape[d] = fz_bool(f) ? 1 : fz_range(f, 1, 3);
  if (fz_bool(f)) {
    mrtq_dtype t = fz_type(f);
    float si = fz_float(f), sa = fz_float(f), so = fz_float(f);
    int32_t zi = fz_zp(f, t), za = fz_zp(f, MRTQ_S8), zo = fz_zp(f, t);
    if (fz_bool(f))
      FZ_CALL(st, mrtq_tflite_prelu_init_micro(t, si, zi, sa, za, so, zo, &p), "prelu_init_micro");
    else
      FZ_CALL(st, mrtq_tflite_prelu_init(t, si, zi, sa, za, so, zo, &p), "prelu_init");
    if (st != MRTQ_OK) {
      FZ_CHECK(!memcmp(&p, &q, sizeof p), "prelu init refused but wrote");
      return;
    }
  } else {
    memset(&p, 0, sizeof p);
    p.type = fz_type(f), p.alpha_type = fz_type(f);
    p.in_zp = fz_zp(f, p.type), p.alpha_zp = fz_zp(f, p.alpha_type), p.out_zp = fz_zp(f, p.type);
    p.m1 = fz_mult(f), p.m2 = fz_mult(f);
  }
  fz_fill(f, fz_in, sizeof fz_in);
  fz_fill(f, alpha, sizeof alpha);
  {
    size_t b = p.type == MRTQ_S16 ? 2 : 1;
    FZ_RUN(st, mrtq_tflite_prelu(&p, shape, nd, ashape, na, fz_in, alpha, fz_out + 16), "prelu", n, b);
    if (st == MRTQ_OK)
      FZ_CHECK(in_type(p.in_zp, p.type) && in_type(p.out_zp, p.type) && mult_ok(p.m1) && mult_ok(p.m2) &&
                   p.alpha_type == (p.type == MRTQ_S16 ? MRTQ_S8 : p.type) && in_type(p.alpha_zp, p.alpha_type) &&
                   na <= nd,
               "prelu accepted a bad struct or shape");
  }
}

static void check_hard_swish(fz *f) {
  mrtq_tflite_hard_swish_params p, q;
  mrtq_status st;
  size_t n = fz_range(f, 0, FZ_N);
  memset(&p, 0x5A, sizeof p);
  q = p;
  if (fz_bool(f)) {
    mrtq_dtype t = fz_type(f);
    float si = fz_float(f), so = fz_float(f);
    int32_t zi = fz_zp(f, t), zo = fz_zp(f, t);
    FZ_CALL(st, mrtq_tflite_hard_swish_init(t, si, zi, so, zo, &p), "hard_swish_init");
    if (st != MRTQ_OK) {
      FZ_CHECK(!memcmp(&p, &q, sizeof p), "hard_swish init refused but wrote");
      return;
    }
  } else {
    memset(&p, 0, sizeof p);
    p.type = fz_type(f), p.in_zp = fz_zp(f, p.type), p.out_zp = fz_zp(f, p.type);
    p.output_multiplier_fixedpoint_int16 = (int16_t)fz_u16(f);
    p.output_multiplier_exponent = fz_rare(f, 16) ? fz_i32(f) : (int32_t)fz_irange(f, -33, 2);
    p.reluish_multiplier_fixedpoint_int16 = (int16_t)fz_u16(f);
    p.reluish_multiplier_exponent = fz_rare(f, 16) ? fz_i32(f) : (int32_t)fz_irange(f, -33, 33);
  }
  fz_fill(f, fz_in, sizeof fz_in);
  {
    int ok = (p.type == MRTQ_S8 || p.type == MRTQ_U8) && in_type(p.in_zp, p.type) && in_type(p.out_zp, p.type) &&
             p.output_multiplier_fixedpoint_int16 >= 0 && p.reluish_multiplier_fixedpoint_int16 >= 0 &&
             p.output_multiplier_exponent >= -31 && p.output_multiplier_exponent <= 0 &&
             p.reluish_multiplier_exponent >= -31 && p.reluish_multiplier_exponent <= 31;
    FZ_RUN(st, mrtq_tflite_hard_swish(&p, n, fz_in, fz_out + 16), "hard_swish", n, 1u);
    FZ_CHECK((st == MRTQ_OK) == ok, "hard_swish: status %d, fields ok %d", (int)st, ok);
  }
}

static void check_fx8(fz *f) {
  mrtq_tflite_fx8_params p, q;
  mrtq_status st;
  size_t n = fz_range(f, 0, FZ_N), i;
  int tanh = fz_bool(f);
  memset(&p, 0x5A, sizeof p);
  q = p;
  if (fz_bool(f)) {
    float s = fz_float(f);
    int32_t zp = fz_zp(f, MRTQ_S8);
    FZ_CALL(st, mrtq_tflite_fx8_init(s, zp, &p), "fx8_init");
    if (st != MRTQ_OK) {
      FZ_CHECK(!memcmp(&p, &q, sizeof p), "fx8 init refused but wrote");
      return;
    }
  } else {
    p.input_zp = fz_zp(f, MRTQ_S8);
    p.input_range_radius = fz_rare(f, 16) ? fz_i32(f) : (int32_t)fz_irange(f, 0, 300);
    p.input_multiplier = fz_i32(f);
    p.input_left_shift = fz_rare(f, 16) ? fz_i32(f) : (int32_t)fz_irange(f, -2, 64);
  }
  fz_fill(f, fz_in, sizeof fz_in);
  {
    int ok = in_type(p.input_zp, MRTQ_S8) && p.input_range_radius >= 0 && p.input_multiplier >= 0 &&
             p.input_left_shift >= 0 && p.input_left_shift <= 62;
    if (tanh)
      FZ_RUN(st, mrtq_tflite_tanh(&p, n, (const int8_t *)fz_in, (int8_t *)fz_out + 16), "tanh", n, 1u);
    else
      FZ_RUN(st, mrtq_tflite_logistic(&p, n, (const int8_t *)fz_in, (int8_t *)fz_out + 16), "logistic", n, 1u);
    FZ_CHECK((st == MRTQ_OK) == ok, "fx8: status %d, fields ok %d", (int)st, ok);
    if (st == MRTQ_OK)
      for (i = 0; i < n; i++) {
        int32_t v = (int32_t)(int8_t)fz_in[i] - p.input_zp;
        if (v <= -p.input_range_radius) FZ_EQ(out_at(i, MRTQ_S8), -128, "below the radius");
        else if (v >= p.input_range_radius) FZ_EQ(out_at(i, MRTQ_S8), 127, "above the radius");
      }
  }
}

static float fz_expf(float x) { return expf(x); }
static float fz_nanf(float x) { return x > 0 ? NAN : x < -1 ? INFINITY : -INFINITY; }

static void check_lut(fz *f) {
  mrtq_tflite_lut8_params p, q;
  mrtq_status st;
  size_t n = fz_range(f, 0, FZ_N);
  int which = (int)fz_range(f, 0, 2);
  mrtq_dtype t = fz_type(f);
  float si = fz_float(f), so = fz_float(f);
  int32_t zi = fz_zp(f, t), zo = fz_zp(f, t);
  float (*fn)(float) = fz_rare(f, 16) ? NULL : which == 2 ? fz_nanf : which ? tanhf : fz_expf;
  memset(&p, 0x5A, sizeof p);
  q = p;
  if (which == 1)
    FZ_CALL(st, mrtq_tflite_tanh_lut_init(t, si, zi, so, zo, fn, &p), "tanh_lut_init");
  else
    FZ_CALL(st, mrtq_tflite_logistic_lut_init(t, si, zi, so, zo, fn, &p), "logistic_lut_init");
  if (st != MRTQ_OK) {
    FZ_CHECK(!memcmp(&p, &q, sizeof p), "lut init refused but wrote");
    return;
  }
  if (fz_rare(f, 32)) p.type = fz_type(f);
  fz_fill(f, fz_in, sizeof fz_in);
  FZ_RUN(st, mrtq_tflite_lut8(&p, n, fz_in, fz_out + 16), "lut8", n, 1u);
  FZ_CHECK((st == MRTQ_OK) == (p.type == MRTQ_S8 || p.type == MRTQ_U8), "lut8 status %d", (int)st);
}

static void check_fx16(fz *f) {
  mrtq_tflite_fx16_params p, q;
  mrtq_status st;
  size_t n = fz_range(f, 0, FZ_N);
  int tanh = fz_bool(f);
  memset(&p, 0x5A, sizeof p);
  q = p;
  if (fz_bool(f)) {
    float s = fz_float(f);
    if (tanh)
      FZ_CALL(st, mrtq_tflite_tanh16_init(s, &p), "tanh16_init");
    else
      FZ_CALL(st, mrtq_tflite_logistic16_init(s, &p), "logistic16_init");
    if (st != MRTQ_OK) {
      FZ_CHECK(!memcmp(&p, &q, sizeof p), "fx16 init refused but wrote");
      return;
    }
  } else {
    p.input_multiplier = fz_rare(f, 16) ? fz_i32(f) : (int32_t)fz_irange(f, -1, 32768);
    p.input_left_shift = fz_rare(f, 16) ? fz_i32(f) : (int32_t)fz_irange(f, -1, 32);
  }
  fz_fill(f, fz_in, sizeof fz_in);
  {
    int ok = p.input_multiplier >= 0 && p.input_multiplier <= 32767 && p.input_left_shift >= 0 &&
             p.input_left_shift <= (p.input_multiplier ? 31 : 1);
    int16_t x[FZ_N];
    memcpy(x, fz_in, sizeof x);
    if (tanh)
      FZ_RUN(st, mrtq_tflite_tanh16(&p, n, x, fz_o.h + 8), "tanh16", n, 2u);
    else
      FZ_RUN(st, mrtq_tflite_logistic16(&p, n, x, fz_o.h + 8), "logistic16", n, 2u);
    FZ_CHECK((st == MRTQ_OK) == ok, "fx16: status %d, fields ok %d", (int)st, ok);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f = {data, size};
  switch (fz_range(&f, 0, 7)) {
    case 0: check_relu(&f); break;
    case 1: check_leaky(&f); break;
    case 2: check_prelu(&f); break;
    case 3: check_hard_swish(&f); break;
    case 4: check_fx8(&f); break;
    case 5: check_lut(&f); break;
    default: check_fx16(&f); break;
  }
  return 0;
}
