/* scale.h: mrtq_qrange, mrtq_qparams_from_range (every scheme, any floats and
 * widths), the MRT sc conversions, calibration (mrtq_minmax_f32[_axis],
 * mrtq_maxabs_f32[_axis]) over fuzzer-chosen shapes and mrtq_qparams_per_channel:
 * results satisfy their contracts and naive oracles; refusals leave the
 * outputs untouched and report exactly one reason. */
#include "fuzz.h"

#include "mrtq/scale.h"


/* A storage type: mostly one of the five, sometimes no type (0 or 6). */
static mrtq_dtype pick_type(fz *f) {
  uint8_t b = fz_u8(f);
  if (b >= 240) return (mrtq_dtype)(b % 2 ? 0 : 6);
  return (mrtq_dtype)(b % 5 + 1);
}
/* mrtq_qrange's oracle: 1 and the range, or 0 for a refused (type, bits). */
static int range_o(mrtq_dtype t, int bits, int32_t *qmin, int32_t *qmax) {
  int w = t == MRTQ_S8 || t == MRTQ_U8 ? 8 : t == MRTQ_S16 ? 16 : t == MRTQ_S32 ? 32 : t == MRTQ_S4 ? 4 : 0, b;
  if (!w || (bits != 0 && (bits < 2 || bits > w))) return 0;
  b = bits ? bits : w;
  *qmin = t == MRTQ_U8 ? 0 : (int32_t)-((int64_t)1 << (b - 1));
  *qmax = (int32_t)(t == MRTQ_U8 ? ((int64_t)1 << b) - 1 : ((int64_t)1 << (b - 1)) - 1);
  return 1;
}

static int same_qp(const mrtq_qparams *a, const mrtq_qparams *b) { return memcmp(a, b, sizeof *a) == 0; }

static void check_qparams(fz *f) {
  float mn = fz_float(f), mx = fz_float(f);
  int bits = fz_int(f, 0, 34);
  mrtq_dtype type = pick_type(f);
  int sgn = type != MRTQ_U8;
  mrtq_qscheme sch = (mrtq_qscheme)fz_irange(f, -1, 4);
  mrtq_qparams p, keep;
  int32_t qmin = 0x5a5a5a5a, qmax = 0x5a5a5a5a, omin = 0, omax = 0;
  mrtq_status st, rst;
  double sc;
  int rok = range_o(type, bits, &omin, &omax);
  if (fz_u8(f) < 64 && mn > mx) { float t = mn; mn = mx, mx = t; }
  FZ_CALL(rst, mrtq_qrange(type, bits, &qmin, &qmax), "mrtq_qrange");
  if (!rok) {
    FZ_EQ(rst, MRTQ_EINVAL, "mrtq_qrange(type %d, bits %d)", (int)type, bits);
    FZ_CHECK(qmin == 0x5a5a5a5a && qmax == 0x5a5a5a5a, "mrtq_qrange refused but wrote");
    qmin = qmax = 0;
  } else {
    FZ_EQ(rst, MRTQ_OK, "mrtq_qrange(type %d, bits %d)", (int)type, bits);
    FZ_EQ(qmin, omin, "qmin of type %d bits %d", (int)type, bits);
    FZ_EQ(qmax, omax, "qmax of type %d bits %d", (int)type, bits);
  }
  memset(&p, 0x5a, sizeof p);
  keep = p;
  FZ_CALL(st, mrtq_qparams_from_range(sch, mn, mx, type, bits, &p), "mrtq_qparams_from_range");
  if (st != MRTQ_OK) {
    FZ_CHECK(same_qp(&p, &keep), "mrtq_qparams_from_range refused (%d) but wrote *out", (int)st);
    if (rst != MRTQ_OK && !(isnan(mn) || isnan(mx) || isinf(mn) || isinf(mx) || mn > mx))
      FZ_EQ(st, rst, "bad bits %d", bits);
  } else {
    FZ_CHECK(rst == MRTQ_OK && isfinite(mn) && isfinite(mx) && mn <= mx && sch >= 0 && sch <= 3,
             "mrtq_qparams_from_range accepted min %a max %a bits %d scheme %d", (double)mn, (double)mx, bits, (int)sch);
    FZ_CHECK(isfinite(p.scale) && p.scale > 0, "scale %a (min %a max %a bits %d scheme %d)", (double)p.scale, (double)mn,
             (double)mx, bits, (int)sch);
    FZ_EQ(p.qmax, qmax, "qmax");
    FZ_EQ(p.qmin, sch == MRTQ_QS_SYMMETRIC && sgn ? -qmax : qmin, "qmin");
    FZ_CHECK(p.zp >= p.qmin && p.zp <= p.qmax, "zero point %d outside [%d, %d] (min %a max %a type %d bits %d "
             "scheme %d)", p.zp, p.qmin, p.qmax, (double)mn, (double)mx, (int)type, bits, (int)sch);
    if (sch == MRTQ_QS_SYMMETRIC) FZ_EQ(p.zp, 0, "symmetric zero point");
    if (sch == MRTQ_QS_ONNX_DYNAMIC) { /* float32 oracle */
      float lo = mn < 0 ? mn : 0.0f, hi = mx > 0 ? mx : 0.0f, s = 1.0f, z;
      volatile float range, q;
      if (hi > lo) {
        range = hi - lo;
        q = (float)((int64_t)qmax - qmin);
        s = range / q;
      }
      FZ_CHECK(memcmp(&s, &p.scale, sizeof s) == 0, "ONNX scale %a, want %a (min %a max %a)", (double)p.scale,
               (double)s, (double)mn, (double)mx);
      z = (float)qmin - lo / s;
      z = z < (float)qmin ? (float)qmin : z > (float)qmax ? (float)qmax : z;
      {
        double r = (double)rintf(z);
        if (r > qmax) r = qmax;
        if (r < qmin) r = qmin;
        FZ_EQ(p.zp, (int64_t)r, "ONNX zero point (min %a max %a bits %d)", (double)mn, (double)mx, bits);
      }
    }
    FZ_CALL(st, mrtq_qparams_to_mrt_sc(&p, &sc), "mrtq_qparams_to_mrt_sc");
    FZ_EQ(st, MRTQ_OK, "to_mrt_sc");
    FZ_CHECK(sc == 1.0 / (double)p.scale, "sc");
  }
  /* from_mrt_sc: any sc and zero point */
  {
    double s2 = fz_double(f);
    int32_t zp = fz_i32(f);
    mrtq_qparams q, k2;
    memset(&q, 0x33, sizeof q);
    k2 = q;
    FZ_CALL(st, mrtq_qparams_from_mrt_sc(s2, zp, type, bits, &q), "mrtq_qparams_from_mrt_sc");
    if (st != MRTQ_OK) {
      FZ_CHECK(same_qp(&q, &k2), "mrtq_qparams_from_mrt_sc refused but wrote *out");
      if (rst == MRTQ_OK && isfinite(s2) && s2 > 0) FZ_EQ(st, MRTQ_ERANGE, "from_mrt_sc(%a, zp %d)", s2, zp);
      else FZ_EQ(st, MRTQ_EINVAL, "from_mrt_sc(%a, zp %d, type %d, bits %d)", s2, zp, (int)type, bits);
    } else {
      float want = (float)(1.0 / s2);
      FZ_CHECK(isfinite(s2) && s2 > 0 && rst == MRTQ_OK && zp >= qmin && zp <= qmax, "from_mrt_sc accepted sc %a zp %d",
               s2, zp);
      FZ_CHECK(memcmp(&want, &q.scale, sizeof want) == 0 && want > 0 && isfinite(want), "from_mrt_sc scale");
      FZ_CHECK(q.zp == zp && q.qmin == qmin && q.qmax == qmax, "from_mrt_sc fields");
    }
  }
  /* to_mrt_sc on any parameters: 0.2 also refuses qmin > qmax and zp outside [qmin, qmax] */
  {
    mrtq_qparams r;
    double s3 = 12345.0;
    int ok;
    r.scale = fz_u8(f) < 128 ? (float)fz_double(f) : fz_float(f);
    r.zp = fz_u8(f) < 200 ? (int32_t)fz_irange(f, -300, 300) : fz_i32(f);
    r.qmin = fz_u8(f) < 200 ? (int32_t)fz_irange(f, -300, 300) : fz_i32(f);
    r.qmax = fz_u8(f) < 200 ? (int32_t)fz_irange(f, -300, 300) : fz_i32(f);
    ok = isfinite(r.scale) && r.scale > 0 && r.qmin <= r.qmax && r.zp >= r.qmin && r.zp <= r.qmax;
    FZ_CALL(st, mrtq_qparams_to_mrt_sc(&r, &s3), "mrtq_qparams_to_mrt_sc");
    FZ_EQ(st, ok ? MRTQ_OK : MRTQ_EINVAL, "to_mrt_sc(scale %a, zp %d, [%d, %d])", (double)r.scale, r.zp, r.qmin, r.qmax);
    if (ok) FZ_CHECK(s3 == 1.0 / (double)r.scale, "to_mrt_sc value");
    else FZ_CHECK(s3 == 12345.0, "to_mrt_sc refused but wrote *sc");
  }
}

static void check_calibration(fz *f) {
  size_t shape[5], n, outer = 1, inner = 1, ch, i, o, c, k;
  int ndim = (int)fz_irange(f, -1, 5), axis = (int)fz_irange(f, -1, 5), d, bad = 0, nonfinite = 0;
  fz_buf bx, bmin, bmax, babs;
  float *x, *mins, *maxs, *abs_, mn, mx, ab;
  mrtq_status st;
  for (d = 0; d < 5; d++) shape[d] = fz_rare(f, 8) ? 0 : (size_t)fz_range(f, 1, 6);
  if (ndim < 1 || axis < 0 || axis >= ndim) bad = 1;
  n = 1;
  for (d = 0; d < (ndim > 0 ? ndim : 0); d++) n *= shape[d] ? shape[d] : 1;
  if (!bad)
    for (d = 0; d < ndim; d++) bad |= shape[d] == 0;
  x = (float *)fz_buf_new(&bx, n * 4, 0);
  for (i = 0; i < n; i++) {
    x[i] = fz_rare(f, 4) ? fz_float(f) : (float)fz_irange(f, -1000, 1000) / 8.0f;
    nonfinite |= !isfinite(x[i]);
  }
  ch = bad ? 1 : shape[axis];
  if (!bad)
    for (d = 0; d < ndim; d++) {
      if (d < axis) outer *= shape[d];
      if (d > axis) inner *= shape[d];
    }
  mins = (float *)fz_buf_new(&bmin, ch * 4, 0xa5);
  maxs = (float *)fz_buf_new(&bmax, ch * 4, 0xa5);
  abs_ = (float *)fz_buf_new(&babs, ch * 4, 0xa5);
  FZ_CALL(st, mrtq_minmax_f32_axis(shape, ndim, axis, x, mins, maxs), "mrtq_minmax_f32_axis");
  fz_after(&bmin, st, "mrtq_minmax_f32_axis (mins)");
  fz_after(&bmax, st, "mrtq_minmax_f32_axis (maxs)");
  if (bad || nonfinite) FZ_CHECK(st != MRTQ_OK, "minmax_axis accepted ndim %d axis %d (nonfinite %d)", ndim, axis, nonfinite);
  else FZ_EQ(st, MRTQ_OK, "mrtq_minmax_f32_axis ndim %d axis %d", ndim, axis);
  FZ_CALL(st, mrtq_maxabs_f32_axis(shape, ndim, axis, x, abs_), "mrtq_maxabs_f32_axis");
  fz_after(&babs, st, "mrtq_maxabs_f32_axis");
  if (bad || nonfinite) FZ_CHECK(st != MRTQ_OK, "maxabs_axis accepted a bad tensor");
  else FZ_EQ(st, MRTQ_OK, "mrtq_maxabs_f32_axis");
  if (!bad && !nonfinite) {
    for (c = 0; c < ch; c++) {
      float lo = INFINITY, hi = -INFINITY, a = 0;
      for (o = 0; o < outer; o++)
        for (k = 0; k < inner; k++) {
          float v = x[(o * ch + c) * inner + k];
          lo = v < lo ? v : lo, hi = v > hi ? v : hi, a = fabsf(v) > a ? fabsf(v) : a;
        }
      FZ_CHECK(mins[c] == lo && maxs[c] == hi && abs_[c] == a, "channel %zu: min %a max %a abs %a, want %a %a %a", c,
               (double)mins[c], (double)maxs[c], (double)abs_[c], (double)lo, (double)hi, (double)a);
    }
  }
  /* whole tensor */
  {
    size_t m = (size_t)fz_range(f, 0, n);
    mn = mx = ab = 12345.0f;
    FZ_CALL(st, mrtq_minmax_f32(x, m, &mn, &mx), "mrtq_minmax_f32");
    if (st != MRTQ_OK) FZ_CHECK(mn == 12345.0f && mx == 12345.0f, "mrtq_minmax_f32 refused but wrote");
    FZ_CALL(st, mrtq_maxabs_f32(x, m, &ab), "mrtq_maxabs_f32");
    if (st != MRTQ_OK) FZ_CHECK(ab == 12345.0f, "mrtq_maxabs_f32 refused but wrote");
    else {
      float a = 0;
      for (i = 0; i < m; i++) a = fabsf(x[i]) > a ? fabsf(x[i]) : a;
      FZ_CHECK(m > 0 && ab == a, "mrtq_maxabs_f32 %a, want %a", (double)ab, (double)a);
    }
  }
  /* per-channel qparams from these ranges */
  if (st == MRTQ_OK && !bad && !nonfinite) {
    int bits = (int)fz_irange(f, 0, 33);
    mrtq_dtype type = pick_type(f);
    mrtq_qscheme sch = (mrtq_qscheme)fz_range(f, 0, 3);
    fz_buf bq;
    mrtq_qparams *qp = (mrtq_qparams *)fz_buf_new(&bq, ch * sizeof *qp, 0x77);
    FZ_CALL(st, mrtq_qparams_per_channel(sch, mins, maxs, ch, type, bits, qp), "mrtq_qparams_per_channel");
    fz_after(&bq, st, "mrtq_qparams_per_channel"); /* 0.2: a refusal writes no channel */
    for (c = 0; c < ch; c++) {
      mrtq_qparams one;
      mrtq_status s1 = mrtq_qparams_from_range(sch, mins[c], maxs[c], type, bits, &one);
      if (s1 != MRTQ_OK) {
        FZ_EQ(st, s1, "mrtq_qparams_per_channel status at channel %zu", c);
        break;
      }
      if (st == MRTQ_OK)
        FZ_CHECK(same_qp(&one, &qp[c]), "mrtq_qparams_per_channel channel %zu differs from mrtq_qparams_from_range", c);
    }
    if (st != MRTQ_OK) FZ_CHECK(c < ch, "mrtq_qparams_per_channel refused (%d) but every channel is valid", (int)st);
    fz_buf_free(&bq);
  }
  fz_buf_free(&bx), fz_buf_free(&bmin), fz_buf_free(&bmax), fz_buf_free(&babs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f = {data, size};
  if (fz_bool(&f)) check_qparams(&f);
  else check_calibration(&f);
  return 0;
}
