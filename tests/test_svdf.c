/* TFLite's integer SVDF (mrtq/svdf.h) against an oracle written here from
 * TFLite's reference code (kernels/svdf.cc + reference/svdf.h for the TF
 * interpreter, micro/kernels/svdf_common.cc for TFLite Micro), in a
 * different shape from the library: the state is kept as rows, each row
 * shifted on its own; sums are exact in 64 bits and reduced modulo 2^32 only
 * at the end; Prepare's effective scales are float operations on volatile
 * floats and QuantizeMultiplier is frexp / round (libm); the Q31 multiply is
 * the 128-bit SRDHM / RDIVPOT of oracle.h. Every step of every sequence (>= 12
 * steps) compares the outputs and the whole state. */
#include <math.h>

#include "harness.h"
#include "mrtq.h"
#include "oracle.h"

static long long n_out, n_state, n_sat_feat_lo, n_sat_feat_hi, n_sat_out_lo, n_sat_out_hi;

/* ---- the oracle ---- */
typedef struct {
  int32_t mult, shift;
} om;
static om o_qm(double s) { /* TFLite QuantizeMultiplier (default build) */
  om r = {0, 0};
  int e = 0;
  double q;
  int64_t qf;
  if (s == 0) return r;
  q = frexp(s, &e);
  qf = (int64_t)round(q * 2147483648.0);
  if (qf == ((int64_t)1 << 31)) qf /= 2, e++;
  if (e < -31) return r;
  r.mult = (int32_t)qf, r.shift = e;
  return r;
}
static double o_eff(float a, float b, float c) { /* Prepare: a * b / c in float, widened */
  volatile float p = a * b;
  volatile float q = p / c;
  return (double)q;
}
static long long n_tie_srdhm, n_tie_rdivpot;
static int32_t o_mbqm(int32_t x, om m) { /* MultiplyByQuantizedMultiplier(int32), counting exact ties */
  int ls = m.shift > 0 ? m.shift : 0, rs = m.shift > 0 ? 0 : -m.shift;
  int32_t xs = o_sat32((i128)x * o_pow2(ls)), h;
  if ((((int64_t)xs * m.mult) & 0x7fffffff) == 0x40000000) n_tie_srdhm++;
  h = o_srdhm(xs, m.mult);
  if (rs > 0 && rs < 32 && ((int64_t)h & (((int64_t)1 << rs) - 1)) == ((int64_t)1 << (rs - 1))) n_tie_rdivpot++;
  return o_rdivpot(h, rs);
}
static int32_t o_wrap32(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }
static int32_t o_clamp(int64_t v, int64_t lo, int64_t hi) { return (int32_t)(v < lo ? lo : v > hi ? hi : v); }

typedef struct {
  int B, I, F, M, rank, s8; /* s8: state and weights_time int8 */
  om m1, m2;
  int32_t zi, zs, zo;
} cfg;

/* One step on the oracle's state st[b][f][j] (int32 copies of the values). */
static void o_step(const cfg *c, const int8_t *x, const int8_t *wf, const int32_t *wt, const int32_t *bias, int32_t *st,
                   int32_t *out) {
  int b, f, j, i, u, r, U = c->F / c->rank;
  int32_t tmin = c->s8 ? -128 : -32768, tmax = c->s8 ? 127 : 32767;
  for (b = 0; b < c->B; b++)
    for (f = 0; f < c->F; f++) {
      int32_t *row = st + ((size_t)b * c->F + f) * c->M;
      int64_t d = 0;
      int32_t v, w;
      for (j = 0; j + 1 < c->M; j++) row[j] = row[j + 1];
      for (i = 0; i < c->I; i++) d += (int64_t)wf[f * c->I + i] * (x[b * c->I + i] - c->zi);
      v = o_mbqm(o_wrap32(d), c->m1);
      if (v < tmin) n_sat_feat_lo++;
      if (v > tmax) n_sat_feat_hi++;
      v = o_clamp(v, tmin, tmax) + c->zs;
      w = c->s8 ? (int32_t)(int8_t)(uint8_t)(v & 0xff) : (int32_t)(int16_t)(uint16_t)(v & 0xffff);
      row[c->M - 1] = w;
    }
  for (b = 0; b < c->B; b++)
    for (u = 0; u < U; u++) {
      int64_t a = bias ? bias[u] : 0;
      int32_t y;
      for (r = 0; r < c->rank; r++) {
        int fr = u * c->rank + r;
        for (j = 0; j < c->M; j++) a += (int64_t)wt[fr * c->M + j] * (st[((size_t)b * c->F + fr) * c->M + j] - c->zs);
      }
      y = o_mbqm(o_wrap32(a), c->m2);
      if ((int64_t)y + c->zo < -128) n_sat_out_lo++;
      if ((int64_t)y + c->zo > 127) n_sat_out_hi++;
      out[b * U + u] = o_clamp((int64_t)y + c->zo, -128, 127);
    }
}

/* m * 2^e with m drawn first, then e (two statements: the same stream on every compiler) */
static float rnd_scale_m(uint32_t steps, int lo, int hi) {
  double m = 1.0 + (double)(th_rand32() % steps) / (double)steps;
  int e = (int)th_range(lo, hi);
  return (float)ldexp(m, e);
}
static float rnd_scale(int lo, int hi) { return rnd_scale_m(1000000u, lo, hi); }

/* Runs `steps` steps of one configuration through the library and the oracle. */
static void run_cfg(const cfg *c, const mrtq_tflite_svdf_params *p, int steps, int with_bias, int32_t wrange) {
  size_t nx = (size_t)c->B * c->I, nwf = (size_t)c->F * c->I, nwt = (size_t)c->F * c->M, ns = (size_t)c->B * c->F * c->M;
  int U = c->F / c->rank;
  int8_t *x = malloc(nx + 1), *wf = malloc(nwf + 1), *out = malloc((size_t)c->B * U + 1);
  int32_t *wt = malloc((nwt + 1) * 4), *bias = malloc(((size_t)U + 1) * 4), *st = malloc((ns + 1) * 4),
          *want = malloc(((size_t)c->B * U + 1) * 4);
  void *wtl = malloc(nwt * 2 + 2), *stl = malloc(ns * 2 + 2);
  size_t k;
  int s;
  int32_t smin = c->s8 ? -128 : -32768, smax = c->s8 ? 127 : 32767;
  mrtq_dtype t = c->s8 ? MRTQ_S8 : MRTQ_S16;
  for (k = 0; k < nwf; k++) wf[k] = (int8_t)th_range(-128, 127);
  for (k = 0; k < nwt; k++) {
    wt[k] = (int32_t)th_range(wrange < smin ? smin : -wrange, wrange > smax ? smax : wrange);
    mrtq__store(wtl, k, t, wt[k]);
  }
  for (k = 0; k < (size_t)U; k++) bias[k] = (int32_t)th_range(-100000, 100000);
  for (k = 0; k < ns; k++) { /* any starting state, as a model's variable tensor may hold */
    st[k] = (int32_t)th_range(smin, smax);
    mrtq__store(stl, k, t, st[k]);
  }
  for (s = 0; s < steps; s++) {
    mrtq_status rc;
    for (k = 0; k < nx; k++) x[k] = (int8_t)th_range(-128, 127);
    o_step(c, x, wf, wt, with_bias ? bias : NULL, st, want);
    rc = mrtq_tflite_svdf(p, (size_t)c->B, (size_t)c->I, (size_t)c->F, (size_t)c->M, x, wf, wtl, with_bias ? bias : NULL,
                          stl, out);
    CHECK_EQ(rc, MRTQ_OK, "step %d", s);
    for (k = 0; k < (size_t)c->B * U; k++) {
      CHECK_EQ(out[k], want[k], "step %d out %zu (B%d I%d F%d M%d rank %d s8 %d)", s, k, c->B, c->I, c->F, c->M, c->rank, c->s8);
      n_out++;
    }
    for (k = 0; k < ns; k++) {
      CHECK_EQ(mrtq__load(stl, k, t), st[k], "step %d state %zu", s, k);
      n_state++;
    }
  }
  free(x), free(wf), free(out), free(wt), free(bias), free(st), free(want), free(wtl), free(stl);
}

/* The TF interpreter's form: int16 state, zero point 0, scales from Prepare. */
static void test_interpreter_random(void) {
  int it;
  for (it = 0; it < 200; it++) {
    cfg c;
    mrtq_tflite_svdf_params p;
    memset(&p, 0, sizeof p);
    float s_in = rnd_scale(-10, -4), s_wf = rnd_scale(-9, -5), s_wt = rnd_scale(-22, -13), s_out = rnd_scale(-8, -2);
    float s_state = rnd_scale(-16, -8);
    int32_t zi = (int32_t)th_range(-128, 127), zo = (int32_t)th_range(-128, 127);
    memset(&c, 0, sizeof c);
    c.B = (int)th_range(1, 3), c.I = (int)th_range(it % 9 == 0 ? 0 : 1, 9), c.rank = (int)th_range(1, 3);
    c.F = c.rank * (int)th_range(1, 4), c.M = (int)th_range(1, 6);
    if (it % 7 == 0) c.M = 1;
    if (it % 5 == 0) c.B = 1;
    c.zi = zi, c.zo = zo, c.zs = 0, c.s8 = 0;
    c.m1 = o_qm(o_eff(s_in, s_wf, s_state)), c.m2 = o_qm(o_eff(s_state, s_wt, s_out));
    CHECK_EQ(mrtq_tflite_svdf_init(s_in, zi, s_wf, s_wt, s_state, s_out, zo, c.rank, MRTQ_TFLITE_ACT_RELU, &p), MRTQ_OK, "init %d", it);
    CHECK_EQ(p.m1.mult, c.m1.mult, "m1 %d", it);
    CHECK_EQ(p.m1.shift, c.m1.shift, "m1 shift %d", it);
    CHECK_EQ(p.m2.mult, c.m2.mult, "m2 %d", it);
    CHECK_EQ(p.m2.shift, c.m2.shift, "m2 shift %d", it);
    CHECK_EQ(p.zp_state, 0, "zp_state %d", it);
    CHECK_EQ(p.state_type, MRTQ_S16, "type %d", it);
    run_cfg(&c, &p, 12, it % 4 != 3, 32767);
  }
}

/* TFLite Micro's form: int8 or int16 state with a zero point. */
static void test_micro_random(void) {
  int it;
  for (it = 0; it < 300; it++) {
    cfg c;
    mrtq_tflite_svdf_params p;
    memset(&p, 0, sizeof p);
    int s8 = it % 2;
    float s_in = rnd_scale(-10, -4), s_wf = rnd_scale(-9, -5), s_wt = s8 ? rnd_scale(-12, -6) : rnd_scale(-22, -13);
    float s_out = rnd_scale(-8, -2), s_state = s8 ? rnd_scale(-9, -3) : rnd_scale(-16, -8);
    memset(&c, 0, sizeof c);
    c.s8 = s8;
    c.B = (int)th_range(1, 3), c.I = (int)th_range(1, 9), c.rank = (int)th_range(1, 3);
    c.F = c.rank * (int)th_range(1, 4), c.M = (int)th_range(1, 6);
    c.zi = (int32_t)th_range(-128, 127), c.zo = (int32_t)th_range(-128, 127);
    c.zs = s8 ? (int32_t)th_range(-128, 127) : (int32_t)th_range(-32768, 32767);
    if (it % 6 == 0) c.zs = s8 ? 127 : 32767; /* the store wraps */
    c.m1 = o_qm(o_eff(s_in, s_wf, s_state)), c.m2 = o_qm(o_eff(s_state, s_wt, s_out));
    CHECK_EQ(mrtq_tflite_svdf_init_micro(s_in, c.zi, s_wf, s_wt, s_state, c.zs, s_out, c.zo, c.rank,
                                         s8 ? MRTQ_S8 : MRTQ_S16, &p),
             MRTQ_OK, "init %d", it);
    CHECK_EQ(p.m1.mult, c.m1.mult, "m1 %d", it);
    CHECK_EQ(p.m1.shift, c.m1.shift, "m1 shift %d", it);
    CHECK_EQ(p.m2.mult, c.m2.mult, "m2 %d", it);
    CHECK_EQ(p.m2.shift, c.m2.shift, "m2 shift %d", it);
    run_cfg(&c, &p, 12, it % 3 != 2, s8 ? 127 : 32767);
  }
}

/* Extreme multipliers and shifts through init_mult, saturation at both ends
 * of both stages, wrapping int32 sums. */
static void test_extremes(void) {
  static const int32_t mults[] = {0, 1 << 30, (1 << 30) + 1, INT32_MAX, 1518500250};
  static const int32_t shifts[] = {-31, -30, -17, -8, -1, 0, 1, 5, 12, 30};
  int it;
  for (it = 0; it < 120; it++) {
    cfg c;
    mrtq_tflite_svdf_params p;
    memset(&p, 0, sizeof p);
    int s8 = it % 3 == 0;
    memset(&c, 0, sizeof c);
    c.s8 = s8;
    c.B = (int)th_range(1, 2), c.I = (int)th_range(1, 6), c.rank = (int)th_range(1, 2);
    c.F = c.rank * (int)th_range(1, 3), c.M = (int)th_range(1, 4);
    c.zi = (int32_t)th_range(-128, 127), c.zo = (int32_t)th_range(-128, 127);
    c.zs = s8 ? (int32_t)th_range(-128, 127) : (int32_t)th_range(-32768, 32767);
    c.m1.mult = mults[th_range(0, 4)], c.m2.mult = mults[th_range(0, 4)];
    c.m1.shift = c.m1.mult ? shifts[th_range(0, 9)] : 0, c.m2.shift = c.m2.mult ? shifts[th_range(0, 9)] : 0;
    {
      mrtq_mult m1, m2;
      m1.mult = c.m1.mult, m1.shift = c.m1.shift, m2.mult = c.m2.mult, m2.shift = c.m2.shift;
      CHECK_EQ(mrtq_tflite_svdf_init_mult(m1, m2, c.zi, c.zs, c.zo, c.rank, s8 ? MRTQ_S8 : MRTQ_S16, &p), MRTQ_OK, "%d", it);
    }
    run_cfg(&c, &p, 12, 1, s8 ? 127 : 32767);
  }
  /* a long int16 time filter whose int32 sum wraps */
  {
    cfg c;
    mrtq_tflite_svdf_params p;
    memset(&p, 0, sizeof p);
    mrtq_mult m = {1 << 30, -20};
    memset(&c, 0, sizeof c);
    c.B = 1, c.I = 4, c.rank = 1, c.F = 2, c.M = 200;
    c.m1.mult = 1 << 30, c.m1.shift = 15, c.m2.mult = m.mult, c.m2.shift = m.shift;
    CHECK_EQ(mrtq_tflite_svdf_init_mult(m, m, 0, 0, 0, 1, MRTQ_S16, &p), MRTQ_OK, "wrap");
    p.m1.shift = 15;
    run_cfg(&c, &p, 12, 0, 32767);
  }
  CHECK(n_sat_feat_lo > 0 && n_sat_feat_hi > 0);
  CHECK(n_sat_out_lo > 0 && n_sat_out_hi > 0);
  CHECK(n_tie_srdhm > 0 && n_tie_rdivpot > 0);
}

/* The state's evolution on a hand-checked case: rank 1, one filter, memory 3,
 * unit multipliers ({2^30, 1} is exactly 1.0): each step pushes
 * clamp(sum_i wf_i (x_i - zp_in)) into the newest slot, and the output is
 * sum_j wt_j s_j + bias (values worked out by hand below). */
static void test_hand(void) {
  mrtq_tflite_svdf_params p;
  memset(&p, 0, sizeof p);
  mrtq_mult one = {1 << 30, 1};
  int8_t wf[2] = {1, 2}, x[2], out[1];
  int16_t wt[3] = {1, 10, 100}, st[3] = {7, 8, 9};
  int32_t bias[1] = {-5};
  CHECK_EQ(mrtq_tflite_svdf_init_mult(one, one, 1, 0, 3, 1, MRTQ_S16, &p), MRTQ_OK, "init");
  x[0] = 3, x[1] = 4; /* (3-1) + 2 (4-1) = 8: state 8 9 8; out 8 + 90 + 800 - 5 + 3 = 896 -> 127 */
  CHECK_EQ(mrtq_tflite_svdf(&p, 1, 2, 1, 3, x, wf, wt, bias, st, out), MRTQ_OK, "step 1");
  CHECK_EQ(st[0], 8, "s0"); CHECK_EQ(st[1], 9, "s1"); CHECK_EQ(st[2], 8, "s2"); CHECK_EQ(out[0], 127, "out");
  wt[0] = 0, wt[1] = 0, wt[2] = -1;
  x[0] = 1, x[1] = -60; /* 0 + 2 (-61) = -122: state 9 8 -122; out 122 - 5 + 3 = 120 */
  CHECK_EQ(mrtq_tflite_svdf(&p, 1, 2, 1, 3, x, wf, wt, bias, st, out), MRTQ_OK, "step 2");
  CHECK_EQ(st[0], 9, "s0"); CHECK_EQ(st[1], 8, "s1"); CHECK_EQ(st[2], -122, "s2"); CHECK_EQ(out[0], 120, "out");
  n_out += 2, n_state += 6;
}

static void test_refusals(void) {
  mrtq_tflite_svdf_params p, q;
  memset(&p, 0, sizeof p);
  mrtq_mult ok = {1 << 30, -3}, bad = {5, 0};
  int8_t x[4] = {0}, wf[4] = {0}, out[4] = {0};
  int16_t wt[8] = {0}, st[8] = {0};
  CHECK_REFUSED(mrtq_tflite_svdf_init(1, 0, 1, 1, 1, 1, 0, 1, MRTQ_TFLITE_ACT_RELU, NULL), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_svdf_init(0, 0, 1, 1, 1, 1, 0, 1, MRTQ_TFLITE_ACT_RELU, &p), MRTQ_EINVAL, "s_in: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_svdf_init(1, 0, NAN, 1, 1, 1, 0, 1, MRTQ_TFLITE_ACT_RELU, &p), MRTQ_EINVAL, "s_wf: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_svdf_init(1, 0, 1, -1, 1, 1, 0, 1, MRTQ_TFLITE_ACT_RELU, &p), MRTQ_EINVAL, "s_wt: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_svdf_init(1, 0, 1, 1, INFINITY, 1, 0, 1, MRTQ_TFLITE_ACT_RELU, &p), MRTQ_EINVAL, "s_state: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_svdf_init(1, 0, 1, 1, 1, 0, 0, 1, MRTQ_TFLITE_ACT_RELU, &p), MRTQ_EINVAL, "s_out: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_svdf_init(1, 128, 1, 1, 1, 1, 0, 1, MRTQ_TFLITE_ACT_RELU, &p), MRTQ_EINVAL, "zp_in: outside [-128, 127]");
  CHECK_REFUSED(mrtq_tflite_svdf_init(1, 0, 1, 1, 1, 1, -129, 1, MRTQ_TFLITE_ACT_RELU, &p), MRTQ_EINVAL, "zp_out: outside [-128, 127]");
  CHECK_REFUSED(mrtq_tflite_svdf_init(1, 0, 1, 1, 1, 1, 0, 0, MRTQ_TFLITE_ACT_RELU, &p), MRTQ_EINVAL, "rank: must be >= 1");
  CHECK_REFUSED(mrtq_tflite_svdf_init(1, 0, 1, 1, 1, 1, 0, 1, (mrtq_tflite_act)9, &p), MRTQ_EINVAL, "act: not an mrtq_tflite_act");
  CHECK_REFUSED(mrtq_tflite_svdf_init(1, 0, 1, 1, 1, 1, 0, 1, MRTQ_TFLITE_ACT_NONE, &p), MRTQ_EUNSUPPORTED,
                "act: the TF interpreter's integer SVDF takes only RELU (and does not apply it)");
  CHECK_REFUSED(mrtq_tflite_svdf_init(1e30f, 0, 1e30f, 1, 1, 1, 0, 1, MRTQ_TFLITE_ACT_RELU, &p), MRTQ_ERANGE,
                "s_in, s_wf, s_state: s_in * s_wf or s_in * s_wf / s_state overflows float (TFLite computes in float)");
  CHECK_REFUSED(mrtq_tflite_svdf_init(1, 0, 1, 1e30f, 1e30f, 1, 0, 1, MRTQ_TFLITE_ACT_RELU, &p), MRTQ_ERANGE,
                "s_state, s_wt, s_out: s_state * s_wt or s_state * s_wt / s_out overflows float (TFLite computes in float)");
  CHECK_REFUSED(mrtq_tflite_svdf_init(1, 0, 1, 1, 1e-10f, 1, 0, 1, MRTQ_TFLITE_ACT_RELU, &p), MRTQ_ERANGE,
                "s_in, s_wf, s_state: s_in * s_wf / s_state must be < 2^30 (TFLite's 1 << shift)");
  CHECK_REFUSED(mrtq_tflite_svdf_init(1, 0, 1, 1, 1, 1e-10f, 0, 1, MRTQ_TFLITE_ACT_RELU, &p), MRTQ_ERANGE,
                "s_state, s_wt, s_out: s_state * s_wt / s_out must be < 2^30 (TFLite's 1 << shift)");
  CHECK_REFUSED(mrtq_tflite_svdf_init_micro(1, 0, 1, 1, 1, 0, 1, 0, 1, MRTQ_S32, &p), MRTQ_EUNSUPPORTED,
                "state_type: must be MRTQ_S16 or MRTQ_S8 (TFLite's int16 or int8 state)");
  CHECK_REFUSED(mrtq_tflite_svdf_init_micro(1, 0, 1, 1, 1, 0, 1, 0, 1, (mrtq_dtype)0, &p), MRTQ_EINVAL, "state_type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_tflite_svdf_init_micro(1, 0, 1, 1, 1, 128, 1, 0, 1, MRTQ_S8, &p), MRTQ_EINVAL, "zp_state: outside state_type");
  CHECK_REFUSED(mrtq_tflite_svdf_init_mult(ok, ok, 0, 0, 0, 1, MRTQ_S16, NULL), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_svdf_init_mult(bad, ok, 0, 0, 0, 1, MRTQ_S16, &p), MRTQ_EINVAL,
                "m1: mult 0 with shift 0, or mult in [2^30, 2^31 - 1] with shift in [-31, 30]");
  CHECK_REFUSED(mrtq_tflite_svdf_init_mult(ok, bad, 0, 0, 0, 1, MRTQ_S16, &p), MRTQ_EINVAL,
                "m2: mult 0 with shift 0, or mult in [2^30, 2^31 - 1] with shift in [-31, 30]");
  /* a failed init writes nothing */
  memset(&q, 0x5a, sizeof q);
  p = q;
  CHECK_REFUSED(mrtq_tflite_svdf_init_mult(ok, ok, 0, 0, 0, 0, MRTQ_S16, &p), MRTQ_EINVAL, "rank: must be >= 1");
  CHECK(memcmp(&p, &q, sizeof p) == 0);
  /* the kernel */
  CHECK_EQ(mrtq_tflite_svdf_init_mult(ok, ok, 0, 0, 0, 2, MRTQ_S16, &p), MRTQ_OK, "valid");
  CHECK_REFUSED(mrtq_tflite_svdf(NULL, 1, 1, 2, 2, x, wf, wt, NULL, st, out), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_svdf(&p, 1, 1, 2, 2, NULL, wf, wt, NULL, st, out), MRTQ_EINVAL, "in: NULL");
  CHECK_REFUSED(mrtq_tflite_svdf(&p, 1, 1, 2, 2, x, NULL, wt, NULL, st, out), MRTQ_EINVAL, "w_feature: NULL");
  CHECK_REFUSED(mrtq_tflite_svdf(&p, 1, 1, 2, 2, x, wf, NULL, NULL, st, out), MRTQ_EINVAL, "w_time: NULL");
  CHECK_REFUSED(mrtq_tflite_svdf(&p, 1, 1, 2, 2, x, wf, wt, NULL, NULL, out), MRTQ_EINVAL, "state: NULL");
  CHECK_REFUSED(mrtq_tflite_svdf(&p, 1, 1, 2, 2, x, wf, wt, NULL, st, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_svdf(&p, 1, 1, 2, 0, x, wf, wt, NULL, st, out), MRTQ_ESHAPE,
                "memory_size: must be >= 1 (TFLite writes slot memory_size - 1)");
  CHECK_REFUSED(mrtq_tflite_svdf(&p, 1, 1, 3, 2, x, wf, wt, NULL, st, out), MRTQ_ESHAPE, "num_filters: must be a multiple of p->rank");
  CHECK_REFUSED(mrtq_tflite_svdf(&p, SIZE_MAX / 2, 1, 2, 2, x, wf, wt, NULL, st, out), MRTQ_ERANGE,
                "batch, input_size, num_filters, memory_size: an array's size overflows size_t");
  q = p, q.state_type = MRTQ_U8;
  CHECK_REFUSED(mrtq_tflite_svdf(&q, 1, 1, 2, 2, x, wf, wt, NULL, st, out), MRTQ_EUNSUPPORTED, "p->state_type: must be MRTQ_S16 or MRTQ_S8");
  q = p, q.state_type = (mrtq_dtype)0;
  CHECK_REFUSED(mrtq_tflite_svdf(&q, 1, 1, 2, 2, x, wf, wt, NULL, st, out), MRTQ_EINVAL,
                "p->state_type: not an mrtq_dtype (0: a zero-initialised struct)");
  q = p, q.m1.mult = -1;
  CHECK_REFUSED(mrtq_tflite_svdf(&q, 1, 1, 2, 2, x, wf, wt, NULL, st, out), MRTQ_EINVAL,
                "p->m1: mult 0 with shift 0, or mult in [2^30, 2^31 - 1] with shift in [-31, 30]");
  q = p, q.m2.shift = 31;
  CHECK_REFUSED(mrtq_tflite_svdf(&q, 1, 1, 2, 2, x, wf, wt, NULL, st, out), MRTQ_EINVAL,
                "p->m2: mult 0 with shift 0, or mult in [2^30, 2^31 - 1] with shift in [-31, 30]");
  q = p, q.zp_in = -200;
  CHECK_REFUSED(mrtq_tflite_svdf(&q, 1, 1, 2, 2, x, wf, wt, NULL, st, out), MRTQ_EINVAL, "p->zp_in: outside [-128, 127]");
  q = p, q.zp_state = 40000;
  CHECK_REFUSED(mrtq_tflite_svdf(&q, 1, 1, 2, 2, x, wf, wt, NULL, st, out), MRTQ_EINVAL, "p->zp_state: outside p->state_type");
  q = p, q.zp_out = 300;
  CHECK_REFUSED(mrtq_tflite_svdf(&q, 1, 1, 2, 2, x, wf, wt, NULL, st, out), MRTQ_EINVAL, "p->zp_out: outside [-128, 127]");
  q = p, q.rank = 0;
  CHECK_REFUSED(mrtq_tflite_svdf(&q, 1, 1, 2, 2, x, wf, wt, NULL, st, out), MRTQ_EINVAL, "p->rank: must be >= 1");
  /* empty shapes: nothing to write */
  CHECK_EQ(mrtq_tflite_svdf(&p, 0, 1, 2, 2, x, wf, wt, NULL, st, out), MRTQ_OK, "batch 0");
  CHECK_EQ(mrtq_tflite_svdf(&p, 1, 1, 0, 2, x, wf, wt, NULL, st, out), MRTQ_OK, "filters 0");
}

int main(void) {
  TH_RUN(test_hand);
  TH_RUN(test_interpreter_random);
  TH_RUN(test_micro_random);
  TH_RUN(test_extremes);
  TH_RUN(test_refusals);
  printf("  svdf: %lld outputs and %lld state values compared (feature saturations %lld low, %lld high; output %lld low, "
         "%lld high; exact ties %lld SRDHM, %lld RDIVPOT)\n",
         n_out, n_state, n_sat_feat_lo, n_sat_feat_hi, n_sat_out_lo, n_sat_out_hi, n_tie_srdhm, n_tie_rdivpot);
  return th_finish("test_svdf");
}
