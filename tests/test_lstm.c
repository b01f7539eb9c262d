/* mrtq_tflite_lstm (mrtq/lstm.h) against an independent restatement of
 * TFLite Micro's reference UNIDIRECTIONAL_SEQUENCE_LSTM (tensorflow/tflite-micro
 * 90b983c2b3f1: micro/kernels/lstm_eval.{h,cc}, lstm_eval_common.cc,
 * unidirectional_sequence_lstm.cc; internal/reference/integer_ops/
 * fully_connected.h, logistic.h, tanh.h, mul.h; internal/common.cc), written
 * the way TFLite Micro runs it, not the way mrtq does:
 *  - the step is TFLite Micro's LstmStep: gate by gate over the whole batch
 *    (FullyConnected on the input, FullyConnected on the hidden state into a
 *    second buffer, saturating AddElementWise, Sigmoid / Tanh in place), then
 *    UpdateLstmCell, the output gate, UpdateLstmHidden; a batch-major input
 *    runs one batch at a time over every step, as EvalLstm does;
 *  - the accumulators are exact (int64 / 128-bit, sizes chosen so TFLite's
 *    int32 accumulator cannot overflow), MultiplyByQuantizedMultiplier is the
 *    exact 128-bit SRDHM / RDIVPOT of oracle.h, its int64 form a 128-bit
 *    round-half-up division;
 *  - Logistic / Tanh (int16): the interpolation written as
 *    T[i] (2^b - f) + T[i+1] f with divisions, TFLite's input scaling by
 *    division; the table is checked against 65536 sigmoid(k / 24) (libm exp,
 *    |difference| < 1.2) and against a hash computed from the upstream file;
 *  - Prepare: QuantizeMultiplier with frexp and round (std::round), the fc
 *    scale product in float, the cell power with logf as CheckedLog2 does.
 * Compared: every output of every step, and the hidden and cell states after
 * every step (a step-by-step run), for both activation types, both layouts,
 * tanh and sigmoid cell gates, with and without the cell clip, plus saturating
 * gates and extreme scales; every refusal with its reason. Also TFLite
 * Micro's own unit-test model (float weights and float expected outputs,
 * int8 and int16 quantization settings), within that test's tolerances. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "mrtq.h"
#include "oracle.h"

static long long compared;
#define EQ(got, want) CHECK_EQ(got, want, "%s", #got)

/* ================= the oracle ================= */

static i128 o_floor(i128 a, i128 b) { return o_floor_div(a, b); }

/* QuantizeMultiplier (quantization_util.cc), as TFLite writes it. */
static void o_qm(double d, int32_t *m, int32_t *s) {
  int e = 0;
  double q;
  int64_t qf;
  if (d == 0) {
    *m = 0, *s = 0;
    return;
  }
  q = frexp(d, &e);
  qf = (int64_t)round(q * 2147483648.0);
  if (qf == 2147483648LL) qf /= 2, e++;
  if (e < -31) qf = 0, e = 0;
  *m = (int32_t)qf, *s = e;
}

/* MultiplyByQuantizedMultiplier(int32): gemmlowp's two roundings; the left
 * shift saturates (mrtq's total rule; TFLite's product would overflow). */
static int32_t o_mbqm(int64_t x, int32_t m, int32_t s) {
  int32_t xs = o_sat32((i128)x * o_pow2(s > 0 ? s : 0));
  return o_rdivpot(o_srdhm(xs, m), s > 0 ? 0 : -s);
}
/* MultiplyByQuantizedMultiplier(int64): the multiplier cut to 16 bits, one
 * rounding, ties up; s <= 7 here (TFLite asserts it). */
static int32_t o_mbqm64(int64_t x, int32_t m, int32_t s) {
  int64_t rm = m < 0x7FFF0000 ? (m + 32768) / 65536 : 32767;
  return o_sat32(o_round_half_up((i128)x * rm, o_pow2(15 - s)));
}
static int32_t o_clamp(int64_t v, int64_t lo, int64_t hi) { return (int32_t)(v < lo ? lo : v > hi ? hi : v); }

static long long n_z, n_zsat, n_clip, n_sig_hi, n_sig_lo, n_hsat;
static const uint16_t *T; /* TFLite's sigmoid_table_uint16 (checked in t_table) */

/* reference_integer_ops::Logistic (int16) with multiplier 0, shift 0. */
static int32_t o_sigmoid(int32_t z) {
  int64_t v = 3 * (int64_t)z, a = v < 0 ? -v : v, i = a / 512, f = a % 512, r;
  r = i >= 255 ? 32767 * 1024 : (int64_t)T[i] * (512 - f) + (int64_t)T[i + 1] * f;
  return (int32_t)(v >= 0 ? (r + 512) / 1024 : (33554432 - r + 511) / 1024);
}
/* lstm_eval.cc's Tanh wrapper + reference_integer_ops::Tanh (int16). */
static int32_t o_tanh(int32_t z, int power) {
  int s = 15 + power - 3;
  i128 v, a, i, f, r, n;
  if (s >= 0) /* multiplier 0: 3 << s, shift 0 */
    v = (i128)z * (3 * ((int64_t)1 << s));
  else /* multiplier 3, shift -s, rounding 2^(-s-1) */
    v = o_floor((i128)z * 3 + o_pow2(-s - 1), o_pow2(-s));
  a = v < 0 ? -v : v, i = a / 256, f = a % 256;
  r = i >= 255 ? (i128)65535 * 256 : (i128)T[i] * (256 - f) + (i128)T[i + 1] * f;
  n = v >= 0 ? r - 8388608 + 128 : 8388608 - r + 127;
  return (int32_t)o_floor(n, 256);
}

typedef struct {
  int s16;                            /* 0: int8 activations, 1: int16 */
  int nb, ns, ni, nc, time_major;
  int32_t zx, zh;                     /* zero points */
  int32_t gi_m[4], gi_s[4], gr_m[4], gr_s[4], fc_m, fc_s, ic_m, ic_s, h_m, h_s; /* Prepare's pairs */
  int power, use_clip, qclip, sigmoid_cell;
  int8_t *wi[4], *wr[4];
  int64_t *bias[4];
} o_model;

/* FullyConnected (integer_ops/fully_connected.h) over `rows` rows: int16
 * output, zero output offset, activation range the whole int16. */
static void o_fc(const o_model *M, const int32_t *x, int rows, int n, int32_t zp, const int8_t *w,
                 const int64_t *bias, int32_t m, int32_t s, int32_t *dst) {
  int r, j, k;
  for (r = 0; r < rows; r++)
    for (j = 0; j < M->nc; j++) {
      int64_t acc = 0;
      int32_t v;
      for (k = 0; k < n; k++) acc += (int64_t)w[j * n + k] * (x[r * n + k] - zp);
      if (bias) acc += bias[j];
      if (!M->s16) {
        CHECK(acc >= INT32_MIN && acc <= INT32_MAX); /* TFLite's int32 accumulator is exact */
        v = o_mbqm(acc, m, s);
      } else {
        v = o_mbqm64(acc, m, s);
      }
      dst[r * M->nc + j] = o_clamp(v, -32768, 32767);
    }
}

/* One LstmStep over `rows` rows: x [rows][ni], h [rows][nc], c [rows][nc]. */
static void o_step(const o_model *M, int rows, const int32_t *x, int32_t *h, int32_t *c) {
  int nst = rows * M->nc, g, i;
  int32_t *gate[4], *buf = malloc(sizeof(int32_t) * (size_t)nst), *tc = malloc(sizeof(int32_t) * (size_t)nst);
  int32_t lo = M->s16 ? -32768 : -128, hi = M->s16 ? 32767 : 127;
  static const int order[4] = {1, 0, 2, 3}; /* forget, input, cell, output: LstmStep's order */
  for (g = 0; g < 4; g++) gate[g] = malloc(sizeof(int32_t) * (size_t)nst);
  for (i = 0; i < 3; i++) { /* forget, input, cell gates */
    int q = order[i];
    o_fc(M, x, rows, M->ni, M->zx, M->wi[q], M->bias[q], M->gi_m[q], M->gi_s[q], gate[q]);
    o_fc(M, h, rows, M->nc, M->zh, M->wr[q], NULL, M->gr_m[q], M->gr_s[q], buf);
    for (g = 0; g < nst; g++) {
      int32_t z = o_clamp((int64_t)gate[q][g] + buf[g], -32768, 32767);
      n_z++;
      n_zsat += (int64_t)gate[q][g] + buf[g] != z || gate[q][g] == 32767 || gate[q][g] == -32768;
      gate[q][g] = q == 2 && !M->sigmoid_cell ? o_tanh(z, -12) : o_sigmoid(z);
    }
  }
  /* UpdateLstmCell: cell *= forget (in place); buf = input * cell gate; add; clip */
  for (g = 0; g < nst; g++) c[g] = o_clamp(o_mbqm((int64_t)gate[1][g] * c[g], M->fc_m, M->fc_s), -32768, 32767);
  for (g = 0; g < nst; g++) buf[g] = o_clamp(o_mbqm((int64_t)gate[0][g] * gate[2][g], M->ic_m, M->ic_s), -32768, 32767);
  for (g = 0; g < nst; g++) c[g] = o_clamp((int64_t)c[g] + buf[g], -32768, 32767);
  if (M->use_clip)
    for (g = 0; g < nst; g++) {
      n_clip += c[g] > M->qclip || c[g] < -M->qclip;
      c[g] = c[g] > M->qclip ? M->qclip : c[g] < -M->qclip ? -M->qclip : c[g];
    }
  /* output gate, from the hidden state before this step */
  o_fc(M, x, rows, M->ni, M->zx, M->wi[3], M->bias[3], M->gi_m[3], M->gi_s[3], gate[3]);
  o_fc(M, h, rows, M->nc, M->zh, M->wr[3], NULL, M->gr_m[3], M->gr_s[3], buf);
  for (g = 0; g < nst; g++) {
    gate[3][g] = o_sigmoid(o_clamp((int64_t)gate[3][g] + buf[g], -32768, 32767));
    n_sig_hi += gate[3][g] >= 32700, n_sig_lo += gate[3][g] <= 70;
  }
  /* UpdateLstmHidden */
  for (g = 0; g < nst; g++) tc[g] = o_tanh(c[g], M->power);
  for (g = 0; g < nst; g++) {
    int64_t v = M->zh + (int64_t)o_mbqm((int64_t)tc[g] * gate[3][g], M->h_m, M->h_s);
    n_hsat += v < lo || v > hi;
    h[g] = o_clamp(v, lo, hi);
  }
  for (g = 0; g < 4; g++) free(gate[g]);
  free(buf);
  free(tc);
}

/* ================= test drivers ================= */

static void t_table(void) {
  uint32_t hsh = 0;
  int k;
  T = mrtq__sigmoid_t16;
  for (k = 0; k < 256; k++) {
    double e = 65536.0 / (1.0 + exp(-k / 24.0));
    CHECK(fabs((double)T[k] - e) < 1.2);
    if (k) CHECK(T[k] >= T[k - 1]);
    hsh = hsh * 31u + T[k];
  }
  /* h = h * 31 + T[k] mod 2^32 over tflite-micro 90b983c2b3f1's
     internal/common.h sigmoid_table_uint16, computed from that file with python */
  EQ(hsh, 1684986857u);
  EQ(T[0], 32768);
  EQ(T[255], 65535);
}

/* Both nonlinearities for every int16 input and every cell power. */
static void t_nonlinear(void) {
  long long n = 0;
  int32_t z;
  int p;
  T = mrtq__sigmoid_t16;
  /* fixed points, by hand from the formulas: sigmoid16(0) = (2^15 2^9 + 512) >> 10
     = 16384 (0.5 in Q0.15); tanh16(0) = 128 >> 8 = 0; tanh16(-1, -12): v = -3,
     r = 256 T[0] + 3 (T[1] - T[0]) = 8390657, (2^23 - r + 127) / 256 floored = -8 */
  EQ(mrtq__lstm_sigmoid16(0), 16384);
  EQ(mrtq__lstm_tanh16(0, -12), 0);
  EQ(mrtq__lstm_tanh16(-1, -12), -8);
  for (z = -32768; z <= 32767; z++) {
    int16_t got = mrtq__lstm_sigmoid16(z);
    if (got != o_sigmoid(z)) CHECK_EQ(got, o_sigmoid(z), " z=%d", z);
    n++;
    for (p = -43; p <= 2; p++) {
      int16_t gt = mrtq__lstm_tanh16(z, p);
      int32_t want = o_tanh(z, p);
      if (gt != want) CHECK_EQ(gt, want, " z=%d p=%d", z, p);
      n++;
    }
  }
  /* exact symmetry, from the two branches: with r = 1024 a + b, floor((r + 512) / 1024)
     + floor((2^25 - r + 511) / 1024) = 2^15 for every r < 2^25 */
  for (z = 1; z <= 32767; z++) EQ(mrtq__lstm_sigmoid16(z) + mrtq__lstm_sigmoid16(-z), 32768);
  CHECK(mrtq__lstm_tanh16(32767, 2) == 32767 && mrtq__lstm_tanh16(-32768, 2) == -32767);
  compared += n;
  printf("  sigmoid16 / tanh16: %lld outputs compared\n", n);
}

static float rnd_unit(void) { return (float)(th_rand32() >> 8) / 16777216.0f; }
/* 2^[lo, hi] times [1, 2); one draw after the other, so every compiler sees the same sequence */
static float rnd_scale(int lo, int hi) {
  float m = 1.0f + rnd_unit();
  return ldexpf(m, (int)th_range(lo, hi));
}

/* TFLite Micro's Prepare, restated (lstm_eval_common.cc). */
static void o_prepare(o_model *M, const mrtq_tflite_lstm_scales *s) {
  int g, e;
  for (g = 0; g < 4; g++) {
    float fi = s->input * s->w_in[g], fr = s->hidden * s->w_rec[g];
    o_qm((double)fi / (double)0.000244140625f, &M->gi_m[g], &M->gi_s[g]);
    o_qm((double)fr / (double)0.000244140625f, &M->gr_m[g], &M->gr_s[g]);
  }
  o_qm((double)0.000030517578125f * (double)s->cell / (double)s->cell, &M->fc_m, &M->fc_s);
  o_qm((double)0.000030517578125f * (double)0.000030517578125f / (double)s->cell, &M->ic_m, &M->ic_s);
  o_qm((double)0.000030517578125f * (double)0.000030517578125f / (double)s->hidden, &M->h_m, &M->h_s);
  { /* CheckedLog2 */
    float l = logf(s->cell) * (1.0f / logf(2.0f));
    e = (int)roundf(l);
    M->power = e;
  }
  M->use_clip = s->cell_clip > 0;
  M->qclip = (int16_t)fmin(fmax((double)s->cell_clip / (double)s->cell, -32768.0), 32767.0);
}

static void put(void *p, int s16, size_t i, int32_t v) {
  if (s16) {
    int16_t h = (int16_t)v;
    memcpy((char *)p + 2 * i, &h, 2);
  } else {
    ((int8_t *)p)[i] = (int8_t)v;
  }
}
static int32_t get(const void *p, int s16, size_t i) {
  if (s16) {
    int16_t h;
    memcpy(&h, (const char *)p + 2 * i, 2);
    return h;
  }
  return ((const int8_t *)p)[i];
}

/* kind: 0 ordinary, 1 saturating gates (big weights / bias), 2 extreme scales,
   3 tight cell clip */
static long long run_case(int s16, int time_major, int kind, int sigmoid_cell, int with_clip) {
  o_model M;
  mrtq_tflite_lstm_scales sc;
  mrtq_tflite_lstm_params P;
  mrtq_tflite_lstm_shape sh;
  mrtq_tflite_lstm_weights W;
  int g, b, t, j, es = s16 ? 2 : 1;
  long long n = 0;
  int32_t lo = s16 ? -32768 : -128, hi = s16 ? 32767 : 127;
  int32_t *x, *h0, *c0, *oh, *oc, *ox;
  void *in, *hid, *out, *hid2, *out2, *scratch;
  int16_t *cel, *cel2;
  size_t nin, nst, nout;
  memset(&M, 0, sizeof M);
  memset(&sc, 0, sizeof sc);
  M.s16 = s16, M.time_major = time_major, M.sigmoid_cell = sigmoid_cell;
  M.nb = (int)th_range(1, 3), M.ns = th_range(0, 3) == 0 ? 1 : (int)th_range(10, 14);
  M.ni = (int)th_range(1, 12), M.nc = (int)th_range(1, 10);
  if (th_range(0, 7) == 0) M.ni = (int)th_range(13, 64), M.nc = (int)th_range(11, 32);
  if (kind == 2 && th_range(0, 1)) M.ni = (int)th_range(40, 64);
  /* scales: activations, weights, states */
  sc.input = s16 ? rnd_scale(-16, -10) : rnd_scale(-9, -4);
  sc.hidden = s16 ? ldexpf(1.0f, -15) * (th_range(0, 1) ? 1.0f : 1.0f + rnd_unit()) : rnd_scale(-9, -6);
  for (g = 0; g < 4; g++) /* most gate sums inside Q3.12's [-8, 8), some beyond */
    sc.w_in[g] = rnd_scale(s16 ? -12 : -14, s16 ? -6 : -8), sc.w_rec[g] = rnd_scale(-14, -8);
  sc.cell = ldexpf(1.0f, (int)th_range(-15, -9));
  if (kind == 2) { /* extreme: tiny and large products, cell scales at both ends of [-43, 2] */
    for (g = 0; g < 4; g++) {
      sc.w_in[g] = rnd_scale(s16 ? -4 : -3, s16 ? 2 : 6);
      sc.w_rec[g] = rnd_scale(-20, -12);
    }
    sc.cell = ldexpf(1.0f, th_range(0, 1) ? (int)th_range(-43, -30) : (int)th_range(-2, 2));
    sc.hidden = s16 ? rnd_scale(-20, -2) : rnd_scale(-12, 2);
  }
  if (!s16) sc.input_zp = (int32_t)th_range(-128, 127), sc.hidden_zp = (int32_t)th_range(-128, 127);
  else if (th_range(0, 3) == 0) sc.input_zp = (int32_t)th_range(-300, 300), sc.hidden_zp = (int32_t)th_range(-300, 300);
  sc.cell_clip = 0;
  if (with_clip) {
    float whole = (float)(kind == 3 ? th_range(0, 600) : th_range(1000, 40000));
    sc.cell_clip = sc.cell * (kind == 3 ? whole + rnd_unit() : whole);
  }
  o_prepare(&M, &sc);
  M.zx = sc.input_zp, M.zh = sc.hidden_zp;
  EQ(mrtq_tflite_lstm_init(s16 ? MRTQ_S16 : MRTQ_S8, &sc, sigmoid_cell ? MRTQ_LSTM_SIGMOID : MRTQ_LSTM_TANH, &P),
           MRTQ_OK);
  /* the init is Prepare, field by field */
  for (g = 0; g < 4; g++) {
    CHECK(P.gate_in[g].mult == M.gi_m[g] && P.gate_in[g].shift == M.gi_s[g]);
    CHECK(P.gate_rec[g].mult == M.gr_m[g] && P.gate_rec[g].shift == M.gr_s[g]);
  }
  CHECK(P.forget_cell.mult == M.fc_m && P.forget_cell.shift == M.fc_s);
  CHECK(P.input_cell.mult == M.ic_m && P.input_cell.shift == M.ic_s);
  CHECK(P.hidden.mult == M.h_m && P.hidden.shift == M.h_s);
  EQ(P.cell_power, M.power);
  EQ(P.cell_clip, M.use_clip ? M.qclip : -1);
  CHECK(P.input_zp == M.zx && P.hidden_zp == M.zh);
  n += 16;
  if (s16) /* TFLite's int64 MultiplyByQuantizedMultiplier asserts shift < 8 */
    for (g = 0; g < 4; g++) CHECK(M.gi_s[g] < 8 && M.gr_s[g] < 8);
  /* tensors */
  nin = (size_t)M.ns * M.nb * M.ni, nst = (size_t)M.nb * M.nc, nout = (size_t)M.ns * M.nb * M.nc;
  x = malloc(sizeof(int32_t) * nin);
  h0 = malloc(sizeof(int32_t) * nst), c0 = malloc(sizeof(int32_t) * nst);
  oh = malloc(sizeof(int32_t) * nst), oc = malloc(sizeof(int32_t) * nst), ox = malloc(sizeof(int32_t) * nout);
  in = malloc(nin * (size_t)es + 1), hid = malloc(nst * (size_t)es + 1), out = malloc(nout * (size_t)es + 1);
  hid2 = malloc(nst * (size_t)es + 1), out2 = malloc(nout * (size_t)es + 1);
  cel = malloc(sizeof(int16_t) * nst), cel2 = malloc(sizeof(int16_t) * nst);
  scratch = malloc(mrtq_tflite_lstm_scratch_size((size_t)M.nc));
  for (g = 0; g < 4; g++) {
    M.wi[g] = malloc((size_t)M.nc * M.ni), M.wr[g] = malloc((size_t)M.nc * M.nc);
    M.bias[g] = th_range(0, 5) ? malloc(sizeof(int64_t) * (size_t)M.nc) : NULL;
    for (j = 0; j < M.nc * M.ni; j++) M.wi[g][j] = (int8_t)th_range(kind == 1 ? -128 : -40, kind == 1 ? 127 : 40);
    for (j = 0; j < M.nc * M.nc; j++) M.wr[g][j] = (int8_t)th_range(kind == 1 ? -128 : -40, kind == 1 ? 127 : 40);
    if (M.bias[g])
      for (j = 0; j < M.nc; j++) {
        int64_t r = kind == 1 ? (s16 ? ((int64_t)1 << 40) : ((int64_t)1 << 24)) : (s16 ? ((int64_t)1 << 26) : 4000);
        M.bias[g][j] = th_range(-r, r);
      }
    W.w_in[g] = M.wi[g], W.w_rec[g] = M.wr[g];
    W.bias[g] = NULL;
  }
  /* library biases: int32 for S8, int64 for S16 */
  {
    void *bb[4] = {NULL, NULL, NULL, NULL};
    for (g = 0; g < 4; g++)
      if (M.bias[g]) {
        bb[g] = malloc((size_t)M.nc * 8);
        for (j = 0; j < M.nc; j++) {
          if (s16) memcpy((char *)bb[g] + 8 * j, &M.bias[g][j], 8);
          else ((int32_t *)bb[g])[j] = (int32_t)M.bias[g][j];
        }
        W.bias[g] = bb[g];
      }
    for (j = 0; j < (int)nin; j++) x[j] = (int32_t)th_range(lo, hi), put(in, s16, (size_t)j, x[j]);
    for (j = 0; j < (int)nst; j++) {
      h0[j] = (int32_t)th_range(lo, hi), put(hid, s16, (size_t)j, h0[j]), put(hid2, s16, (size_t)j, h0[j]);
      c0[j] = (int32_t)th_range(-32768, 32767), cel[j] = cel2[j] = (int16_t)c0[j];
    }
    sh.n_input = (size_t)M.ni, sh.n_cell = (size_t)M.nc, sh.batch = (size_t)M.nb, sh.steps = (size_t)M.ns;
    sh.time_major = time_major;
    /* the oracle: EvalLstm */
    memcpy(oh, h0, sizeof(int32_t) * nst), memcpy(oc, c0, sizeof(int32_t) * nst);
    if (time_major) {
      for (t = 0; t < M.ns; t++) {
        o_step(&M, M.nb, x + (size_t)t * M.nb * M.ni, oh, oc);
        memcpy(ox + (size_t)t * M.nb * M.nc, oh, sizeof(int32_t) * nst);
      }
    } else {
      for (b = 0; b < M.nb; b++)
        for (t = 0; t < M.ns; t++) {
          o_step(&M, 1, x + ((size_t)b * M.ns + t) * M.ni, oh + b * M.nc, oc + b * M.nc);
          memcpy(ox + ((size_t)b * M.ns + t) * M.nc, oh + b * M.nc, sizeof(int32_t) * M.nc);
        }
    }
    /* the whole sequence in one call */
    EQ(mrtq_tflite_lstm(&P, &sh, &W, in, scratch, mrtq_tflite_lstm_scratch_size(sh.n_cell), hid, cel, out),
             MRTQ_OK);
    for (j = 0; j < (int)nout; j++) {
      int32_t gv = get(out, s16, (size_t)j);
      if (gv != ox[j]) CHECK_EQ(gv, ox[j], " out[%d] s16=%d tm=%d kind=%d", j, s16, time_major, kind);
    }
    for (j = 0; j < (int)nst; j++) {
      EQ(get(hid, s16, (size_t)j), oh[j]);
      EQ(cel[j], oc[j]);
    }
    n += (long long)nout + 2 * (long long)nst;
    /* step by step (time-major slices, batch 1 .. nb rows at a time): the
       states after every step against the oracle's */
    memcpy(oh, h0, sizeof(int32_t) * nst), memcpy(oc, c0, sizeof(int32_t) * nst);
    for (t = 0; t < M.ns; t++) {
      mrtq_tflite_lstm_shape s1 = sh;
      s1.steps = 1, s1.time_major = 1;
      if (time_major) {
        o_step(&M, M.nb, x + (size_t)t * M.nb * M.ni, oh, oc);
        EQ(mrtq_tflite_lstm(&P, &s1, &W, (char *)in + (size_t)t * M.nb * M.ni * es, scratch,
                                  mrtq_tflite_lstm_scratch_size(sh.n_cell), hid2, cel2, out2),
                 MRTQ_OK);
      } else { /* row b of step t sits at (b * ns + t): one call per batch row */
        for (b = 0; b < M.nb; b++) {
          s1.batch = 1;
          o_step(&M, 1, x + ((size_t)b * M.ns + t) * M.ni, oh + b * M.nc, oc + b * M.nc);
          EQ(mrtq_tflite_lstm(&P, &s1, &W, (char *)in + ((size_t)b * M.ns + t) * M.ni * es, scratch,
                                    mrtq_tflite_lstm_scratch_size(sh.n_cell), (char *)hid2 + (size_t)b * M.nc * es,
                                    cel2 + b * M.nc, (char *)out2 + (size_t)b * M.nc * es),
                   MRTQ_OK);
        }
      }
      for (j = 0; j < (int)nst; j++) {
        int32_t gh = get(hid2, s16, (size_t)j);
        if (gh != oh[j] || cel2[j] != oc[j]) {
          CHECK_EQ(gh, oh[j], " hidden[%d] after step %d", j, t);
          CHECK_EQ(cel2[j], oc[j], " cell[%d] after step %d", j, t);
        }
        EQ(get(out2, s16, (size_t)j), oh[j]);
      }
      n += 3 * (long long)nst;
    }
    for (g = 0; g < 4; g++) free(bb[g]);
  }
  for (g = 0; g < 4; g++) free(M.wi[g]), free(M.wr[g]), free(M.bias[g]);
  free(x), free(h0), free(c0), free(oh), free(oc), free(ox), free(in), free(hid), free(out), free(hid2), free(out2);
  free(cel), free(cel2), free(scratch);
  return n;
}

static long long n_s8, n_s16;

static void t_lstm_s8(void) {
  int i;
  T = mrtq__sigmoid_t16;
  for (i = 0; i < 480; i++) n_s8 += run_case(0, i & 1, (i >> 1) % 4, (i % 7) == 3, (i >> 3) & 1);
  compared += n_s8;
  printf("  lstm int8 activations: %lld outputs compared\n", n_s8);
}

static void t_lstm_s16(void) {
  int i;
  T = mrtq__sigmoid_t16;
  for (i = 0; i < 480; i++) n_s16 += run_case(1, i & 1, (i >> 1) % 4, (i % 7) == 3, (i >> 3) & 1);
  compared += n_s16;
  printf("  lstm int16 activations: %lld outputs compared\n", n_s16);
  /* the edges were reached (both types together) */
  printf("  edges: %lld of %lld gate sums saturated, %lld clipped cells, %lld / %lld output gates near 1 / 0, %lld saturated hidden\n",
         n_zsat, n_z, n_clip, n_sig_hi, n_sig_lo, n_hsat);
  CHECK(n_zsat > 0 && n_clip > 0 && n_sig_hi > 0 && n_sig_lo > 0 && n_hsat > 0);
}

/* The edge regimes are really reached: a clip that binds, gates at both
   ends of the sigmoid. */
static void t_edges_reached(void) {
  mrtq_tflite_lstm_scales sc;
  mrtq_tflite_lstm_params P;
  mrtq_tflite_lstm_shape sh = {2, 2, 1, 3, 1};
  mrtq_tflite_lstm_weights W;
  int8_t wi[4][4], wr[4][4], in[6] = {127, 127, 127, 127, 127, 127}, hid[2] = {0, 0}, out[6];
  int16_t cel[2] = {30000, 20000}, scratch[8];
  int g, j;
  memset(&sc, 0, sizeof sc);
  sc.input = 1.0f / 16, sc.hidden = 1.0f / 128, sc.cell = 1.0f / 2048, sc.cell_clip = 3.0f;
  for (g = 0; g < 4; g++) {
    sc.w_in[g] = 1.0f / 16, sc.w_rec[g] = 1.0f / 64;
    for (j = 0; j < 4; j++) wi[g][j] = 127, wr[g][j] = 0;
    W.w_in[g] = wi[g], W.w_rec[g] = wr[g], W.bias[g] = NULL;
  }
  EQ(mrtq_tflite_lstm_init(MRTQ_S8, &sc, MRTQ_LSTM_TANH, &P), MRTQ_OK);
  EQ(P.cell_clip, 6144); /* 3 / 2^-11 */
  EQ(P.cell_power, -11);
  EQ(mrtq_tflite_lstm(&P, &sh, &W, in, scratch, sizeof scratch, hid, cel, out), MRTQ_OK);
  /* z saturates at 32767 for every gate: sigmoid 32767, tanh 32767 (by hand:
     |3 z| / 512 = 191 < 255: T-interpolated; checked against the oracle) */
  T = mrtq__sigmoid_t16;
  EQ(scratch[0], o_sigmoid(32767));
  EQ(cel[0], 6144); /* clip binds */
  EQ(cel[1], 6144);
  compared += 3;
}

/* TFLite Micro's own LSTM unit test (micro/kernels/unidirectional_sequence_lstm_test.cc
   with testdata/lstm_test_data.cc, tflite-micro 90b983c2): a 2-batch, 3-step,
   2-input, 2-cell model given in float, its expected outputs and final states
   computed in float (independent of any integer code), and the int8 / int16
   quantization settings of that test. Its tolerances (hidden 1e-2 for int8,
   1e-3 for int16, cell 1e-2) are what TFLite Micro's integer kernel meets;
   mrtq must meet them too. Weights and biases are quantized as that test does
   (roundf(v / scale), clamped), the input and the states as round(v / scale) + zp. */
static int32_t q_sym(float v, float scale, int32_t lo, int32_t hi) { return o_clamp((int64_t)roundf(v / scale), lo, hi); }

static void t_tflm_vector(void) {
  static const float wf[4] = {-10, -10, -20, -20}, bf[2] = {1, 2};   /* forget: input and recurrent weights alike */
  static const float wi[4] = {10, 10, 20, 20}, bi[2] = {-1, -2};     /* input gate */
  static const float w1[4] = {1, 1, 1, 1}, b0[2] = {0, 0};           /* cell and output gates */
  static const float x[12] = {0.2f, 0.3f, 0.2f, 0.3f, 0.2f, 0.3f, -0.98f, 0.62f, 0.01f, 0.99f, 0.49f, -0.32f};
  static const float want_out[12] = {0.26455893f, 0.26870455f, 0.47935803f, 0.47937014f, 0.58013272f, 0.58013278f,
                                     -1.41184672e-3f, -1.43329117e-5f, 0.46887168f, 0.46891281f, 0.50054074f, 0.50054148f};
  static const float want_cell[4] = {0.89740515f, 0.8974053f, 0.80327607f, 0.80327785f};
  int s16;
  long long n = 0;
  T = mrtq__sigmoid_t16;
  for (s16 = 0; s16 <= 1; s16++) {
    const float *W[4] = {wi, wf, w1, w1}, *B[4] = {bi, bf, b0, b0};
    const float wscale[4] = {0.15748031496062992f, 0.15748031496062992f, 0.007874015748031496f, 0.007874015748031496f};
    float bscale[4];
    mrtq_tflite_lstm_scales sc;
    mrtq_tflite_lstm_params P;
    mrtq_tflite_lstm_shape sh = {2, 2, 2, 3, 0};
    mrtq_tflite_lstm_weights Wt;
    int8_t wq[4][4];
    int32_t b32[4][2];
    int64_t b64[4][2];
    int16_t in16[12], hid16[4], out16[12], cel[4] = {0, 0, 0, 0}, scratch[8];
    int8_t in8[12], hid8[4], out8[12];
    int g, i;
    float tol = s16 ? 1e-3f : 1e-2f;
    memset(&sc, 0, sizeof sc);
    if (s16) {
      sc.input = 3.0518044e-5f, sc.hidden = 2.1362956633198035e-05f;
      bscale[0] = bscale[1] = 4.8059911474468205e-06f, bscale[2] = bscale[3] = 2.40299557372341e-07f;
    } else {
      sc.input = 0.00784313725490196f, sc.hidden = 0.004705882165580988f, sc.hidden_zp = -21;
      bscale[0] = bscale[1] = 0.0012351397251814111f, bscale[2] = bscale[3] = 6.175698625907056e-5f;
    }
    sc.cell = 0.00024414062f, sc.cell_clip = 6;
    for (g = 0; g < 4; g++) {
      sc.w_in[g] = sc.w_rec[g] = wscale[g];
      for (i = 0; i < 4; i++) wq[g][i] = (int8_t)q_sym(W[g][i], wscale[g], -128, 127);
      for (i = 0; i < 2; i++) {
        b32[g][i] = q_sym(B[g][i], bscale[g], INT32_MIN, INT32_MAX);
        b64[g][i] = b32[g][i];
      }
      Wt.w_in[g] = Wt.w_rec[g] = wq[g];
      Wt.bias[g] = s16 ? (const void *)b64[g] : (const void *)b32[g];
    }
    EQ(mrtq_tflite_lstm_init(s16 ? MRTQ_S16 : MRTQ_S8, &sc, MRTQ_LSTM_TANH, &P), MRTQ_OK);
    EQ(P.cell_clip, 24576); /* 6 / 2^-12 */
    for (i = 0; i < 12; i++) {
      int32_t q = o_clamp((int64_t)roundf(x[i] / sc.input) + sc.input_zp, s16 ? -32768 : -128, s16 ? 32767 : 127);
      if (s16) in16[i] = (int16_t)q;
      else in8[i] = (int8_t)q;
    }
    for (i = 0; i < 4; i++) hid16[i] = 0, hid8[i] = (int8_t)sc.hidden_zp; /* the states start at 0.0 */
    EQ(mrtq_tflite_lstm(&P, &sh, &Wt, s16 ? (const void *)in16 : (const void *)in8, scratch, sizeof scratch,
                        s16 ? (void *)hid16 : (void *)hid8, cel, s16 ? (void *)out16 : (void *)out8),
       MRTQ_OK);
    for (i = 0; i < 12; i++) {
      float got = (float)((s16 ? out16[i] : out8[i]) - sc.hidden_zp) * sc.hidden;
      if (!(fabsf(got - want_out[i]) <= tol)) CHECK_EQ((long long)(got * 1e6f), (long long)(want_out[i] * 1e6f), " s16=%d out[%d] (x 1e6)", s16, i);
      else CHECK(1);
    }
    for (i = 0; i < 4; i++) {
      float gh = (float)((s16 ? hid16[i] : hid8[i]) - sc.hidden_zp) * sc.hidden;
      float gc = (float)cel[i] * sc.cell;
      CHECK(fabsf(gh - want_out[(i / 2) * 6 + 4 + i % 2]) <= tol); /* the final hidden state is the last output */
      CHECK(fabsf(gc - want_cell[i]) <= 1e-2f);
    }
    n += 12 + 8;
  }
  compared += n;
  printf("  TFLite Micro's unit-test vector: %lld outputs compared (within its tolerances)\n", n);
}

static void t_refusals(void) {
  mrtq_tflite_lstm_scales sc, bad;
  mrtq_tflite_lstm_params P, Q;
  mrtq_tflite_lstm_shape sh = {2, 2, 1, 1, 1}, s2;
  mrtq_tflite_lstm_weights W, W2;
  int8_t w[4] = {1, 2, 3, 4}, in[2] = {0, 0}, hid[2] = {0, 0}, out[2];
  int16_t cel[2] = {0, 0}, scratch[9];
  int g;
  memset(&sc, 0, sizeof sc);
  sc.input = 0.01f, sc.hidden = 0.01f, sc.cell = 1.0f / 2048;
  for (g = 0; g < 4; g++) sc.w_in[g] = sc.w_rec[g] = 0.01f, W.w_in[g] = W.w_rec[g] = w, W.bias[g] = NULL;
  EQ(mrtq_tflite_lstm_init(MRTQ_S8, &sc, MRTQ_LSTM_TANH, &P), MRTQ_OK);
  /* init */
  CHECK_REFUSED(mrtq_tflite_lstm_init(MRTQ_S8, &sc, MRTQ_LSTM_TANH, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_lstm_init(MRTQ_S8, NULL, MRTQ_LSTM_TANH, &Q), MRTQ_EINVAL, "s: NULL");
  CHECK_REFUSED(mrtq_tflite_lstm_init((mrtq_dtype)0, &sc, MRTQ_LSTM_TANH, &Q), MRTQ_EINVAL, "type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_tflite_lstm_init(MRTQ_U8, &sc, MRTQ_LSTM_TANH, &Q), MRTQ_EUNSUPPORTED,
                "type: must be MRTQ_S8 or MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_lstm_init(MRTQ_S8, &sc, (mrtq_lstm_act)0, &Q), MRTQ_EINVAL, "cell_act: not an mrtq_lstm_act");
  bad = sc, bad.input = 0;
  CHECK_REFUSED(mrtq_tflite_lstm_init(MRTQ_S8, &bad, MRTQ_LSTM_TANH, &Q), MRTQ_EINVAL, "s->input: NaN, infinite or <= 0");
  bad = sc, bad.hidden = (float)NAN;
  CHECK_REFUSED(mrtq_tflite_lstm_init(MRTQ_S8, &bad, MRTQ_LSTM_TANH, &Q), MRTQ_EINVAL, "s->hidden: NaN, infinite or <= 0");
  bad = sc, bad.cell = -1;
  CHECK_REFUSED(mrtq_tflite_lstm_init(MRTQ_S8, &bad, MRTQ_LSTM_TANH, &Q), MRTQ_EINVAL, "s->cell: NaN, infinite or <= 0");
  bad = sc, bad.w_in[2] = (float)INFINITY;
  CHECK_REFUSED(mrtq_tflite_lstm_init(MRTQ_S8, &bad, MRTQ_LSTM_TANH, &Q), MRTQ_EINVAL, "s->w_in[g]: NaN, infinite or <= 0");
  bad = sc, bad.w_rec[3] = 0;
  CHECK_REFUSED(mrtq_tflite_lstm_init(MRTQ_S8, &bad, MRTQ_LSTM_TANH, &Q), MRTQ_EINVAL, "s->w_rec[g]: NaN, infinite or <= 0");
  bad = sc, bad.cell_clip = -1;
  CHECK_REFUSED(mrtq_tflite_lstm_init(MRTQ_S8, &bad, MRTQ_LSTM_TANH, &Q), MRTQ_EINVAL,
                "s->cell_clip: NaN, infinite or negative");
  bad = sc, bad.input_zp = 128;
  CHECK_REFUSED(mrtq_tflite_lstm_init(MRTQ_S8, &bad, MRTQ_LSTM_TANH, &Q), MRTQ_ERANGE, "s->input_zp: outside type");
  bad = sc, bad.hidden_zp = -32769;
  CHECK_REFUSED(mrtq_tflite_lstm_init(MRTQ_S16, &bad, MRTQ_LSTM_TANH, &Q), MRTQ_ERANGE, "s->hidden_zp: outside type");
  bad = sc, bad.w_in[1] = 1e6f, bad.input = 1e6f; /* 1e12 * 4096 >= 2^30 */
  CHECK_REFUSED(mrtq_tflite_lstm_init(MRTQ_S8, &bad, MRTQ_LSTM_TANH, &Q), MRTQ_ERANGE,
                "s->w_in[g]: input * w_in[g] / 2^-12 >= 2^30");
  bad = sc, bad.w_rec[0] = 1e6f, bad.hidden = 1e6f;
  CHECK_REFUSED(mrtq_tflite_lstm_init(MRTQ_S8, &bad, MRTQ_LSTM_TANH, &Q), MRTQ_ERANGE,
                "s->w_rec[g]: hidden * w_rec[g] / 2^-12 >= 2^30");
  bad = sc, bad.cell = 1e-25f; /* 2^-30 / cell ~ 2^53 */
  CHECK_REFUSED(mrtq_tflite_lstm_init(MRTQ_S8, &bad, MRTQ_LSTM_TANH, &Q), MRTQ_ERANGE, "s->cell: 2^-30 / cell >= 2^30");
  bad = sc, bad.hidden = 1e-25f, bad.w_rec[0] = bad.w_rec[1] = bad.w_rec[2] = bad.w_rec[3] = 1.0f;
  CHECK_REFUSED(mrtq_tflite_lstm_init(MRTQ_S8, &bad, MRTQ_LSTM_TANH, &Q), MRTQ_ERANGE,
                "s->hidden: 2^-30 / hidden >= 2^30");
  bad = sc, bad.cell = 16.0f; /* log2 = 4 */
  CHECK_REFUSED(mrtq_tflite_lstm_init(MRTQ_S8, &bad, MRTQ_LSTM_TANH, &Q), MRTQ_ERANGE,
                "s->cell: log2 rounds outside [-43, 2]");
  bad = sc, bad.cell = ldexpf(1.0f, -44);
  CHECK_REFUSED(mrtq_tflite_lstm_init(MRTQ_S8, &bad, MRTQ_LSTM_TANH, &Q), MRTQ_ERANGE,
                "s->cell: log2 rounds outside [-43, 2]");
  /* log2 rounding at the edges of the accepted range: 2^2.49 -> 2, 2^-43.49 -> -43 */
  bad = sc, bad.cell = 5.6f;
  EQ(mrtq_tflite_lstm_init(MRTQ_S8, &bad, MRTQ_LSTM_TANH, &Q), MRTQ_OK);
  EQ(Q.cell_power, 2);
  bad = sc, bad.cell = ldexpf(1.42f, -44);
  EQ(mrtq_tflite_lstm_init(MRTQ_S8, &bad, MRTQ_LSTM_TANH, &Q), MRTQ_OK);
  EQ(Q.cell_power, -43);
  /* the kernel: every field of a hand-filled struct */
#define RUN(pp, ss, ww) mrtq_tflite_lstm((pp), (ss), (ww), in, scratch, sizeof scratch, hid, cel, out)
  CHECK_REFUSED(RUN(NULL, &sh, &W), MRTQ_EINVAL, "p: NULL");
  Q = P, Q.type = (mrtq_dtype)0;
  CHECK_REFUSED(RUN(&Q, &sh, &W), MRTQ_EINVAL, "p->type: not an mrtq_dtype");
  Q = P, Q.type = MRTQ_S32;
  CHECK_REFUSED(RUN(&Q, &sh, &W), MRTQ_EUNSUPPORTED, "p->type: must be MRTQ_S8 or MRTQ_S16");
  Q = P, Q.cell_act = (mrtq_lstm_act)3;
  CHECK_REFUSED(RUN(&Q, &sh, &W), MRTQ_EINVAL, "p->cell_act: not an mrtq_lstm_act");
  Q = P, Q.input_zp = -129;
  CHECK_REFUSED(RUN(&Q, &sh, &W), MRTQ_ERANGE, "p->input_zp: outside p->type");
  Q = P, Q.hidden_zp = 200;
  CHECK_REFUSED(RUN(&Q, &sh, &W), MRTQ_ERANGE, "p->hidden_zp: outside p->type");
  Q = P, Q.gate_in[3].shift = 31;
  CHECK_REFUSED(RUN(&Q, &sh, &W), MRTQ_ERANGE, "p->gate_in[g]: mult < 0 or shift outside [-31, 30]");
  Q = P, Q.gate_rec[0].mult = -1;
  CHECK_REFUSED(RUN(&Q, &sh, &W), MRTQ_ERANGE, "p->gate_rec[g]: mult < 0 or shift outside [-31, 30]");
  Q = P, Q.forget_cell.shift = -32;
  CHECK_REFUSED(RUN(&Q, &sh, &W), MRTQ_ERANGE, "p->forget_cell: mult < 0 or shift outside [-31, 30]");
  Q = P, Q.input_cell.shift = 100;
  CHECK_REFUSED(RUN(&Q, &sh, &W), MRTQ_ERANGE, "p->input_cell: mult < 0 or shift outside [-31, 30]");
  Q = P, Q.hidden.mult = INT32_MIN;
  CHECK_REFUSED(RUN(&Q, &sh, &W), MRTQ_ERANGE, "p->hidden: mult < 0 or shift outside [-31, 30]");
  Q = P, Q.cell_power = 3;
  CHECK_REFUSED(RUN(&Q, &sh, &W), MRTQ_ERANGE, "p->cell_power: outside [-43, 2]");
  Q = P, Q.cell_clip = -2;
  CHECK_REFUSED(RUN(&Q, &sh, &W), MRTQ_ERANGE, "p->cell_clip: outside [-1, 32767]");
  CHECK_REFUSED(RUN(&P, NULL, &W), MRTQ_EINVAL, "sh: NULL");
  CHECK_REFUSED(RUN(&P, &sh, NULL), MRTQ_EINVAL, "w: NULL");
  CHECK_REFUSED(mrtq_tflite_lstm(&P, &sh, &W, in, NULL, 16, hid, cel, out), MRTQ_EINVAL, "scratch: NULL");
  s2 = sh, s2.time_major = 2;
  CHECK_REFUSED(RUN(&P, &s2, &W), MRTQ_EINVAL, "sh->time_major: must be 0 or 1");
  s2 = sh, s2.n_cell = 0;
  CHECK_REFUSED(RUN(&P, &s2, &W), MRTQ_EINVAL, "sh->n_input, n_cell, batch: 0");
  s2 = sh, s2.batch = SIZE_MAX / 4;
  CHECK_REFUSED(RUN(&P, &s2, &W), MRTQ_ESHAPE, "sh->batch, n_cell: state bytes overflow size_t");
  s2 = sh, s2.steps = SIZE_MAX / 4;
  CHECK_REFUSED(RUN(&P, &s2, &W), MRTQ_ESHAPE, "sh->steps, batch, n_input, n_cell: tensor bytes overflow size_t");
  s2 = sh, s2.n_input = SIZE_MAX / 4, s2.steps = 0;
  CHECK_REFUSED(RUN(&P, &s2, &W), MRTQ_ESHAPE, "sh->n_cell, n_input: weight bytes overflow size_t");
  CHECK_REFUSED(mrtq_tflite_lstm(&P, &sh, &W, in, (char *)scratch + 1, 16, hid, cel, out), MRTQ_EINVAL,
                "scratch: not 2-byte aligned");
  CHECK_REFUSED(mrtq_tflite_lstm(&P, &sh, &W, in, scratch, 15, hid, cel, out), MRTQ_EINVAL,
                "scratch_bytes: smaller than mrtq_tflite_lstm_scratch_size");
  CHECK_REFUSED(mrtq_tflite_lstm(&P, &sh, &W, NULL, scratch, 16, hid, cel, out), MRTQ_EINVAL, "in: NULL");
  CHECK_REFUSED(mrtq_tflite_lstm(&P, &sh, &W, in, scratch, 16, NULL, cel, out), MRTQ_EINVAL, "hidden: NULL");
  CHECK_REFUSED(mrtq_tflite_lstm(&P, &sh, &W, in, scratch, 16, hid, NULL, out), MRTQ_EINVAL, "cell: NULL");
  CHECK_REFUSED(mrtq_tflite_lstm(&P, &sh, &W, in, scratch, 16, hid, cel, NULL), MRTQ_EINVAL, "out: NULL");
  W2 = W, W2.w_rec[2] = NULL;
  CHECK_REFUSED(RUN(&P, &sh, &W2), MRTQ_EINVAL, "w->w_in[g], w->w_rec[g]: NULL");
  /* steps 0: nothing read or written, NULL data allowed */
  s2 = sh, s2.steps = 0;
  EQ(mrtq_tflite_lstm(&P, &s2, &W2, NULL, scratch, 16, NULL, NULL, NULL), MRTQ_OK);
  EQ(mrtq_tflite_lstm_scratch_size(5), 40u);
  EQ(mrtq_tflite_lstm_scratch_size(SIZE_MAX / 4), 0u);
#undef RUN
}

int main(void) {
  TH_RUN(t_table);
  TH_RUN(t_nonlinear);
  TH_RUN(t_lstm_s8);
  TH_RUN(t_lstm_s16);
  TH_RUN(t_edges_reached);
  TH_RUN(t_tflm_vector);
  TH_RUN(t_refusals);
  printf("  test_lstm: %lld outputs compared\n", compared);
  return th_finish("test_lstm");
}
