/* tflite.h and mrtq_rq_from_mult with fuzzer-chosen arguments (huge, zero,
 * NaN, infinite, denormal, outside the enums): no undefined behaviour, every
 * refusal reports exactly one reason and writes nothing, and accepted calls
 * keep their contracts:
 *   act_range      bounds inside the type, qmin <= zp <= qmax for the ReLUs,
 *                  equal to zp + roundf(f / scale) clamped (TFLite's formula);
 *   pad_axis       out = ceil(in / stride) (SAME) or floor((in - e) / stride)
 *                  + 1 (VALID), before + after = the TFLite total, after -
 *                  before in {0, 1}; conv2d_pad / pool2d_pad + _out agree;
 *   bias_s32 / 64  |out| <= 2^31 - 1 (2^63 - 1), NaN -> 0, the roundf oracle;
 *   weight_qparams values in [-127, 127], scale = max / 127 per channel;
 *   rq_from_mult   an accepted pair passes the array functions' checks and
 *                  mrtq_rq_apply runs on edge accumulators. */
#include "fuzz.h"

#include "mrtq.h"

static void check_act(fz *f) {
  float scale = fz_float(f);
  int act = fz_rare(f, 16) ? (int)fz_irange(f, -2, 9) : (int)fz_range(f, 0, 3);
  uint8_t tb = fz_u8(f);
  mrtq_dtype t = tb >= 240 ? (mrtq_dtype)(tb - 240) : (mrtq_dtype)(1 + tb % 3); /* S8, U8, S16 mostly */
  int32_t tmin = 0, tmax = 0, zp, lo = 99999, hi = 99999;
  mrtq_status st;
  int tok = mrtq_dtype_range(t, &tmin, &tmax) == MRTQ_OK && t != MRTQ_S32 && t != MRTQ_S4;
  zp = fz_rare(f, 8) ? fz_i32(f) : (int32_t)fz_irange(f, tok ? tmin : -128, tok ? tmax : 127);
  FZ_CALL(st, mrtq_tflite_act_range((mrtq_tflite_act)act, scale, zp, t, &lo, &hi), "mrtq_tflite_act_range");
  if (st != MRTQ_OK) {
    FZ_CHECK(lo == 99999 && hi == 99999, "act_range refused but wrote");
    FZ_CHECK(act < 0 || act > 3 || !tok || !(scale > 0) || !isfinite(scale) || zp < tmin || zp > tmax ||
                 st == MRTQ_ERANGE,
             "act_range refused valid arguments: act %d scale %a zp %d type %d", act, scale, zp, (int)t);
    return;
  }
  FZ_CHECK(act >= 0 && act <= 3 && tok && scale > 0 && isfinite(scale) && zp >= tmin && zp <= tmax,
           "act_range accepted act %d scale %a zp %d type %d", act, scale, zp, (int)t);
  FZ_CHECK(tmin <= lo && lo <= hi && hi <= tmax, "bounds [%d, %d] outside the type", lo, hi);
  {
    float fl = act == 2 ? -1.0f : 0.0f, fh = act == 2 ? 1.0f : 6.0f;
    double rl = (double)roundf(fl / scale) + zp, rh = (double)roundf(fh / scale) + zp;
    int32_t wl = act == 0 ? tmin : rl <= tmin ? tmin : (int32_t)rl;
    int32_t wh = act <= 1 ? tmax : rh >= tmax ? tmax : (int32_t)rh;
    FZ_EQ(lo, wl, "act %d scale %a zp %d", act, scale, zp);
    FZ_EQ(hi, wh, "act %d scale %a zp %d", act, scale, zp);
  }
}

static void check_pad(fz *f) {
  mrtq_tflite_padding pad = (mrtq_tflite_padding)(fz_rare(f, 8) ? (int)fz_irange(f, -1, 4) : (int)fz_range(f, 1, 2));
  size_t in = fz_dim(f, 1, 300), k = fz_dim(f, 1, 12), stride = fz_dim(f, 1, 6), dil = fz_dim(f, 1, 5);
  size_t out = 7, before = 7, after = 7;
  mrtq_status st;
  FZ_CALL(st, mrtq_tflite_pad_axis(pad, in, k, stride, dil, &out, &before, &after), "mrtq_tflite_pad_axis");
  if (st != MRTQ_OK) {
    FZ_CHECK(out == 7 && before == 7 && after == 7, "pad_axis refused but wrote");
    return;
  }
  FZ_CHECK(pad == MRTQ_TFLITE_PAD_SAME || pad == MRTQ_TFLITE_PAD_VALID, "pad %d accepted", (int)pad);
  FZ_CHECK(in && k && stride && dil, "a zero argument accepted");
  {
    /* exact in 128 bits */
    __extension__ typedef unsigned __int128 u128;
    u128 e = (u128)(k - 1) * dil + 1, o, total, span;
    FZ_CHECK(e <= SIZE_MAX, "e overflows size_t but was accepted");
    if (pad == MRTQ_TFLITE_PAD_SAME) {
      o = ((u128)in + stride - 1) / stride;
    } else {
      FZ_CHECK(e <= in, "VALID with e > in accepted");
      o = ((u128)in - e) / stride + 1;
    }
    span = (o - 1) * stride + e;
    total = span > in ? span - in : 0;
    FZ_CHECK(out == o, "out %zu", out);
    FZ_CHECK(before == total / 2 && after == total - total / 2, "before %zu after %zu", before, after);
  }
  if (in <= 300 && k <= 12 && stride <= 6 && dil <= 5) { /* through a conv shape and mrtq_conv2d_out */
    mrtq_conv2d_shape s;
    size_t ho = 0, wo = 0;
    memset(&s, 0, sizeof s);
    s.n = s.c = s.o = s.groups = 1, s.layout = MRTQ_NCHW;
    s.h = in, s.kh = k, s.stride_h = stride, s.dil_h = dil;
    s.w = 1, s.kw = 1, s.stride_w = 1, s.dil_w = 1;
    FZ_CALL(st, mrtq_tflite_conv2d_pad(pad, &s), "mrtq_tflite_conv2d_pad");
    FZ_EQ(st, MRTQ_OK, "conv2d_pad");
    FZ_CALL(st, mrtq_conv2d_out(&s, &ho, &wo), "mrtq_conv2d_out");
    FZ_EQ(st, MRTQ_OK, "conv2d_out");
    FZ_EQ(ho, out, "conv ho");
    FZ_EQ(wo, 1, "conv wo");
    if (dil == 1) {
      mrtq_pool2d p;
      memset(&p, 0, sizeof p);
      p.n = p.c = 1, p.layout = MRTQ_NHWC, p.type = MRTQ_S8;
      p.h = in, p.kh = k, p.stride_h = stride, p.w = 1, p.kw = 1, p.stride_w = 1;
      FZ_CALL(st, mrtq_tflite_pool2d_pad(pad, &p), "mrtq_tflite_pool2d_pad");
      FZ_EQ(st, MRTQ_OK, "pool2d_pad");
      FZ_CALL(st, mrtq_pool2d_out(&p, &ho, &wo), "mrtq_pool2d_out");
      FZ_EQ(st, MRTQ_OK, "pool2d_out");
      FZ_EQ(ho, out, "pool ho");
    }
  }
}

/* TFLite's bias: fl(b * fl(1 / fl(s_in * s_w))), roundf, SafeCast, symmetric clamp. */
static int64_t bias_oracle(float s_in, float sw, float b, int bits) {
  float s = s_in * sw, inv = s == 0 ? 0.0f : (float)(1.0 / (double)s), r = roundf(b * inv);
  double lim = bits == 32 ? 2147483648.0 : 9223372036854775808.0;
  int64_t kmax = bits == 32 ? INT32_MAX : INT64_MAX;
  if (isnan(r)) return 0;
  if ((double)r >= lim) return kmax;
  if ((double)r <= -lim) return -kmax;
  return (int64_t)r;
}

static void check_bias(fz *f) {
  size_t n = (size_t)fz_range(f, 0, 8), nw = fz_rare(f, 8) ? (size_t)fz_range(f, 0, 9) : fz_bool(f) ? 1 : n, i;
  float s_in = fz_float(f), sw[9], b[8];
  int32_t o32[8];
  int64_t o64[8];
  int ok = 1;
  mrtq_status st;
  for (i = 0; i < 9; i++) sw[i] = fz_bool(f) ? fz_float(f) : fabsf(fz_float(f));
  for (i = 0; i < 8; i++) b[i] = fz_float(f);
  for (i = 0; i < 8; i++) o32[i] = 77, o64[i] = 77;
  if (nw != 1 && nw != n) ok = 0;
  if (!isfinite(s_in) || s_in < 0) ok = 0;
  for (i = 0; i < nw && i < 9; i++)
    if (!isfinite(sw[i]) || sw[i] < 0) ok = 0;
  FZ_CALL(st, mrtq_tflite_bias_s32(s_in, sw, nw, b, n, o32), "mrtq_tflite_bias_s32");
  FZ_EQ(st == MRTQ_OK, ok, "bias_s32 status %d", (int)st);
  FZ_CALL(st, mrtq_tflite_bias_s64(s_in, sw, nw, b, n, o64), "mrtq_tflite_bias_s64");
  FZ_EQ(st == MRTQ_OK, ok, "bias_s64 status %d", (int)st);
  for (i = 0; i < n; i++) {
    if (!ok) {
      FZ_CHECK(o32[i] == 77 && o64[i] == 77, "bias refused but wrote");
      continue;
    }
    FZ_CHECK(o32[i] != INT32_MIN && o64[i] != INT64_MIN, "bias reached the negative end");
    FZ_EQ(o32[i], bias_oracle(s_in, sw[nw == 1 ? 0 : i], b[i], 32), "bias32 %zu", i);
    FZ_EQ(o64[i], bias_oracle(s_in, sw[nw == 1 ? 0 : i], b[i], 64), "bias64 %zu", i);
  }
}

static void check_weights(fz *f) {
  size_t shape[5], total = 1, i;
  int ndim = fz_rare(f, 8) ? (int)fz_irange(f, -1, 5) : (int)fz_range(f, 1, 4), axis, d, ok = 1;
  uint8_t tb = fz_u8(f);
  mrtq_dtype t = tb >= 248 ? (mrtq_dtype)(tb - 248) : MRTQ_S8;
  float *w, sc[64];
  int8_t *q;
  mrtq_status st;
  axis = fz_rare(f, 8) ? (int)fz_irange(f, -1, 5) : (int)fz_range(f, 0, ndim > 0 ? (uint64_t)ndim - 1 : 0);
  for (d = 0; d < 5; d++) shape[d] = fz_dim(f, 1, 6);
  for (d = 0; d < ndim && d < 5; d++) {
    if (shape[d] == 0 || total > 4096 / (shape[d] ? shape[d] : 1)) ok = 0;
    total *= shape[d] ? shape[d] : 1;
  }
  if (ndim < 1 || ndim > 4 || axis < 0 || axis >= ndim || t != MRTQ_S8) ok = 0;
  if (ok && shape[axis] > 64) ok = 0;
  if (!ok) { /* only calls that cannot read past small buffers: refused by shape, type or rank */
    float one = 1.0f;
    if (ndim >= 1 && ndim <= 4 && axis >= 0 && axis < ndim && t == MRTQ_S8) {
      int zero = 0;
      for (d = 0; d < ndim; d++) zero |= shape[d] == 0;
      if (!zero) return; /* a valid large shape: buffers too big for the harness */
    }
    sc[0] = 5.0f;
    FZ_CALL(st, mrtq_tflite_weight_qparams(&one, shape, ndim, axis, t, sc, NULL), "mrtq_tflite_weight_qparams");
    FZ_CHECK(st != MRTQ_OK, "weights accepted ndim %d axis %d type %d", ndim, axis, (int)t);
    FZ_CHECK(sc[0] == 5.0f, "weights refused but wrote");
    return;
  }
  w = (float *)malloc(total * sizeof *w), q = (int8_t *)malloc(total);
  for (i = 0; i < total; i++) w[i] = fz_rare(f, 64) ? fz_float(f) : ldexpf((float)fz_irange(f, -300, 300), (int)fz_irange(f, -140, 20));
  memset(q, 0x55, total);
  FZ_CALL(st, mrtq_tflite_weight_qparams(w, shape, ndim, axis, t, sc, q), "mrtq_tflite_weight_qparams");
  if (st != MRTQ_OK) {
    int finite = 1;
    for (i = 0; i < total; i++) finite &= isfinite(w[i]) != 0;
    FZ_CHECK(st == MRTQ_ERANGE || (!finite && st == MRTQ_EINVAL), "weights refused status %d", (int)st);
    for (i = 0; i < total; i++) FZ_CHECK(q[i] == 0x55, "weights refused but wrote");
  } else {
    size_t inner = 1, outer = 1, c, o, k;
    for (d = axis + 1; d < ndim; d++) inner *= shape[d];
    for (d = 0; d < axis; d++) outer *= shape[d];
    for (c = 0; c < shape[axis]; c++) {
      float m = 0.0f;
      for (o = 0; o < outer; o++)
        for (k = 0; k < inner; k++) m = fmaxf(m, fabsf(w[(o * shape[axis] + c) * inner + k]));
      FZ_CHECK(sc[c] == m / 127.0f, "scale[%zu]", c);
      for (o = 0; o < outer; o++)
        for (k = 0; k < inner; k++) {
          size_t at = (o * shape[axis] + c) * inner + k;
          float inv = m == 0 ? 0.0f : 127.0f / m, r = roundf(w[at] * inv);
          FZ_EQ(q[at], r > 127 ? 127 : r < -127 ? -127 : (int)r, "q[%zu]", at);
        }
    }
  }
  free(w), free(q);
}

static void check_from_mult(fz *f) {
  int scheme = fz_rare(f, 16) ? (int)fz_irange(f, -1, 6) : (int)fz_range(f, 0, 3);
  mrtq_mult m;
  int32_t zp = fz_i32(f), qmin = fz_i32(f), qmax = fz_i32(f), edges[4], lo8, hi8, want0;
  mrtq_rq rq, arr[3];
  mrtq_status st;
  int8_t out[3];
  int i;
  m.mult = fz_bool(f) ? fz_i32(f) : (int32_t)fz_irange(f, (int64_t)1 << 14, INT32_MAX);
  m.shift = fz_bool(f) ? fz_i32(f) : (int32_t)fz_irange(f, -40, 40);
  if (fz_rare(f, 32)) m.mult = 0, m.shift = 0;
  memset(&rq, 0x5a, sizeof rq);
  FZ_CALL(st, mrtq_rq_from_mult((mrtq_scheme)scheme, m, zp, qmin, qmax, &rq), "mrtq_rq_from_mult");
  if (st != MRTQ_OK) {
    FZ_CHECK(rq.zp == 0x5a5a5a5a, "rq_from_mult refused but wrote");
    return;
  }
  FZ_CHECK(scheme >= 0 && scheme <= 3 && qmin <= qmax, "accepted scheme %d qmin %d qmax %d", scheme, qmin, qmax);
  if (m.mult != 0) {
    int q31 = scheme <= 1;
    FZ_CHECK(q31 ? m.mult >= (1 << 30) && m.shift >= -31 && m.shift <= 30
                 : m.mult >= (1 << 14) && m.mult < (1 << 15) && m.shift >= -15 && m.shift <= 15,
             "accepted pair %d %d for scheme %d", m.mult, m.shift, scheme);
  } else {
    FZ_EQ(m.shift, 0, "(0, s) accepted");
  }
  edges[0] = 0, edges[1] = INT32_MIN, edges[2] = INT32_MAX, edges[3] = fz_i32(f);
  /* (0, 0): clamp(zp) to the bounds saturated into int8 */
  lo8 = qmin < -128 ? -128 : qmin > 127 ? 127 : qmin, hi8 = qmax < -128 ? -128 : qmax > 127 ? 127 : qmax;
  want0 = zp < lo8 ? lo8 : zp > hi8 ? hi8 : zp;
  for (i = 0; i < 4; i++) {
    int32_t y = mrtq_rq_apply(&rq, edges[i], -128, 127);
    FZ_CHECK(y >= -128 && y <= 127, "apply out of range");
    if (m.mult == 0) FZ_EQ(y, want0, "(0, 0) gives clamp(zp)");
  }
  arr[0] = arr[1] = arr[2] = rq;
  FZ_CALL(st, mrtq_requant_s8_inner(arr, edges, 1, 3, out), "mrtq_requant_s8_inner");
  FZ_EQ(st, MRTQ_OK, "an accepted description passes the array checks");
  {
    int32_t mu[2], sh[2];
    mu[0] = mu[1] = m.mult, sh[0] = sh[1] = m.shift;
    FZ_CALL(st, mrtq_rq_from_mult_ch((mrtq_scheme)scheme, mu, sh, 2, zp, qmin, qmax, arr), "mrtq_rq_from_mult_ch");
    FZ_EQ(st, MRTQ_OK, "per channel");
    FZ_CHECK(arr[1].m.mult == m.mult && arr[1].m.shift == m.shift && arr[1].zp == zp, "per channel fields");
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f = {data, size};
  switch (fz_range(&f, 0, 4)) {
    case 0: check_act(&f); break;
    case 1: check_pad(&f); break;
    case 2: check_bias(&f); break;
    case 3: check_weights(&f); break;
    default: check_from_mult(&f); break;
  }
  return 0;
}
