/* mrtq example: a small quantized network on built-in data, run through mrtq's
 * reference kernels and compared with float, layer by layer.
 *
 *   input 1x3x16x16 -> conv1 3x3 (3->8, pad 1) + ReLU -> max pool 2x2/2
 *     -> conv2 3x3 (8->8, pad 1) -> add (conv2 + pool, a residual)
 *     -> flatten -> FC (512 -> 10)
 *
 * TFLite's int8 convention: activations int8 with a zero point (TFLite's
 * nudged scheme, calibrated on the float run), weights int8 symmetric per
 * output channel (conv) or per tensor (FC), int32 biases at step s_x s_w,
 * per-channel Q31 double-rounding requantization, ReLU folded into the
 * requantization's lower bound, TFLite's ADD.
 *
 * Two errors per layer, in LSB of the layer's output step:
 *   local   the quantized output against float math on the same quantized
 *           inputs and dequantized weights (clamped to the output's range): the
 *           layer's own rounding. Bounded: requantization with double rounding
 *           is within 1 LSB (semantics.md §5), max pooling is exact, TFLite's
 *           ADD within 1 LSB plus its 2^-20 input scaling (< 0.001 LSB). The
 *           program fails (exit 1) if any local error exceeds its bound.
 *   e2e     against the float network (float weights and input): what the whole
 *           quantized pipeline accumulates up to that layer; reported, not bounded. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mrtq.h"

#define C0 3
#define H0 16
#define C1 8
#define H1 8 /* after pooling */
#define NF (C1 * H1 * H1)
#define NO 10

/* float model and reference activations */
static double x0[C0 * H0 * H0], w1[C1 * C0 * 9], b1[C1], w2[C1 * C1 * 9], b2[C1], wf[NO * NF], bf[NO];
static double f1[C1 * H0 * H0], fp[NF], f2[NF], fa[NF], ff[NO];
/* quantized model and activations */
static int8_t qx0[C0 * H0 * H0], qw1[C1 * C0 * 9], qw2[C1 * C1 * 9], qwf[NO * NF];
static int8_t q1[C1 * H0 * H0], qp[NF], q2[NF], qa[NF], qf[NO];
static int32_t qb1[C1], qb2[C1], qbf[NO];
static double sw1[C1], sw2[C1], swf;
static int failed;

static uint32_t lcg = 2024u;
static double uniform(double a) { /* in [-a, a) */
  lcg = lcg * 1664525u + 1013904223u;
  return a * ((double)(lcg >> 8) / 8388608.0 - 1.0);
}

static void check(mrtq_status st, const char *what) {
  if (st != MRTQ_OK) {
    printf("%s: %s\n", what, mrtq_status_str(st));
    failed = 1;
  }
}

static void make_model(void) {
  int i;
  for (i = 0; i < C0 * H0 * H0; i++) {
    int c = i / (H0 * H0), h = i / H0 % H0, w = i % H0;
    x0[i] = sin(0.35 * h + c) * cos(0.25 * w - 0.5 * c) + uniform(0.1);
  }
  for (i = 0; i < C1 * C0 * 9; i++) w1[i] = uniform(sqrt(6.0 / (C0 * 9)));
  for (i = 0; i < C1 * C1 * 9; i++) w2[i] = uniform(sqrt(6.0 / (C1 * 9)));
  for (i = 0; i < NO * NF; i++) wf[i] = uniform(sqrt(6.0 / NF));
  for (i = 0; i < C1; i++) b1[i] = uniform(0.1), b2[i] = uniform(0.1);
  for (i = 0; i < NO; i++) bf[i] = uniform(0.1);
}

/* 3x3 convolution, pad 1, NCHW, in double */
static void conv3x3(const double *x, int ci, int hw, const double *w, const double *b, int co, double *y) {
  int o, c, h, v, i, j;
  for (o = 0; o < co; o++)
    for (h = 0; h < hw; h++)
      for (v = 0; v < hw; v++) {
        double s = b[o];
        for (c = 0; c < ci; c++)
          for (i = 0; i < 3; i++)
            for (j = 0; j < 3; j++) {
              int yy = h + i - 1, xx = v + j - 1;
              if (yy >= 0 && yy < hw && xx >= 0 && xx < hw) s += x[(c * hw + yy) * hw + xx] * w[((o * ci + c) * 3 + i) * 3 + j];
            }
        y[(o * hw + h) * hw + v] = s;
      }
}

static void maxpool2(const double *x, int c, int hw, double *y) {
  int k, h, v;
  for (k = 0; k < c; k++)
    for (h = 0; h < hw / 2; h++)
      for (v = 0; v < hw / 2; v++) {
        const double *p = x + (k * hw + 2 * h) * hw + 2 * v;
        double m = p[0];
        m = p[1] > m ? p[1] : m, m = p[hw] > m ? p[hw] : m, m = p[hw + 1] > m ? p[hw + 1] : m;
        y[(k * hw / 2 + h) * hw / 2 + v] = m;
      }
}

static void fc(const double *x, const double *w, const double *b, double *y) {
  int o, k;
  for (o = 0; o < NO; o++) {
    double s = b[o];
    for (k = 0; k < NF; k++) s += x[k] * w[o * NF + k];
    y[o] = s;
  }
}

static void float_net(void) {
  int i;
  conv3x3(x0, C0, H0, w1, b1, C1, f1);
  for (i = 0; i < C1 * H0 * H0; i++) f1[i] = f1[i] > 0 ? f1[i] : 0;
  maxpool2(f1, C1, H0, fp);
  conv3x3(fp, C1, H1, w2, b2, C1, f2);
  for (i = 0; i < NF; i++) fa[i] = f2[i] + fp[i];
  fc(fa, wf, bf, ff);
}

/* TFLite-style activation qparams from the float range */
static mrtq_qparams calib(const double *v, int n) {
  mrtq_qparams q;
  double lo = v[0], hi = v[0];
  int i;
  memset(&q, 0, sizeof q);
  for (i = 1; i < n; i++) lo = v[i] < lo ? v[i] : lo, hi = v[i] > hi ? v[i] : hi;
  check(mrtq_qparams_from_range(MRTQ_QS_TFLITE, (float)lo, (float)hi, MRTQ_S8, 0, &q), "calibration");
  return q;
}

/* symmetric int8 weights (MRT symmetric / TFLite: step max|w| / 127, zero
 * point 0): one step per output channel, or one for the tensor when !per_ch */
static void quant_weights(const double *w, int o, int k, int per_ch, int8_t *q, double *s) {
  int i, j;
  for (i = 0; i < (per_ch ? o : 1); i++) {
    double m = 0;
    for (j = 0; j < (per_ch ? k : o * k); j++) m = fabs(w[i * k + j]) > m ? fabs(w[i * k + j]) : m;
    s[i] = (float)(m / 127);
  }
  for (i = 0; i < o; i++)
    for (j = 0; j < k; j++) q[i * k + j] = (int8_t)mrtq_quantize_f32((float)w[i * k + j], (float)s[per_ch ? i : 0], 0, -127, 127);
}

static int32_t quant_bias(double b, double step) { return (int32_t)nearbyint(b / step); }

/* the report for one layer */
static void report(const char *name, const int8_t *q, const mrtq_qparams *p, const double *local_ref, const double *e2e_ref,
                   int n, double bound) {
  double s = p->scale, lmax = 0, emax = 0, esum = 0, lo = (p->qmin - p->zp) * s, hi = (p->qmax - p->zp) * s;
  int i;
  for (i = 0; i < n; i++) {
    double v = (q[i] - p->zp) * s, r = local_ref[i] < lo ? lo : local_ref[i] > hi ? hi : local_ref[i];
    double le = fabs(v - r) / s, ee = fabs(v - e2e_ref[i]) / s;
    lmax = le > lmax ? le : lmax, emax = ee > emax ? ee : emax, esum += ee;
  }
  printf("  %-22s %10.6f %5d %8.4f %6.2f | %8.3f %8.4f %7.3f\n", name, s, (int)p->zp, lmax, bound, emax,
         emax * s, esum / n);
  if (lmax > bound) {
    printf("  ^ local error above its bound\n");
    failed = 1;
  }
}

static void dequant(const int8_t *q, int n, const mrtq_qparams *p, double *out) {
  int i;
  for (i = 0; i < n; i++) out[i] = (q[i] - p->zp) * (double)p->scale;
}

int main(void) {
  static double dx[C0 * H0 * H0], dw1[C1 * C0 * 9], db1[C1], dw2[C1 * C1 * 9], db2[C1], dwf[NO * NF], dbf[NO];
  static double d1[C1 * H0 * H0], dp[NF], d2[NF], lref[C1 * H0 * H0];
  mrtq_qparams px, p1, p2, pa, pf;
  mrtq_conv2d_shape s;
  mrtq_qoperand ox, ow;
  mrtq_pool2d pool;
  mrtq_tflite_add_params add;
  mrtq_rq rq[C1];
  int i, o, top_f = 0, top_q = 0;

  make_model();
  float_net();
  px = calib(x0, C0 * H0 * H0), p1 = calib(f1, C1 * H0 * H0), p2 = calib(f2, NF), pa = calib(fa, NF), pf = calib(ff, NO);
  quant_weights(w1, C1, C0 * 9, 1, qw1, sw1);
  quant_weights(w2, C1, C1 * 9, 1, qw2, sw2);
  quant_weights(wf, NO, NF, 0, qwf, &swf);
  for (i = 0; i < C0 * H0 * H0; i++) qx0[i] = (int8_t)mrtq_quantize_f32((float)x0[i], px.scale, px.zp, -128, 127);

  printf("conv 3x3 (3->8) + ReLU -> maxpool 2x2 -> conv 3x3 (8->8) -> add -> FC (512->10), int8, TFLite convention\n");
  printf("  %-22s %10s %5s %8s %6s | %8s %8s %7s\n", "layer", "step", "zp", "local", "bound", "e2e max", "(real)",
         "e2e avg");
  printf("  %-22s %10s %5s %8s %6s | %8s %8s %7s\n", "", "", "", "LSB", "LSB", "LSB", "", "LSB");

  /* conv1 + ReLU: per-channel Q31_DBL, ReLU as the lower bound (the stored zero) */
  memset(&s, 0, sizeof s), memset(&ox, 0, sizeof ox), memset(&ow, 0, sizeof ow), memset(rq, 0, sizeof rq);
  s.n = 1, s.c = C0, s.h = s.w = H0, s.o = C1, s.kh = s.kw = 3, s.stride_h = s.stride_w = s.dil_h = s.dil_w = 1;
  s.pad_top = s.pad_bottom = s.pad_left = s.pad_right = 1, s.groups = 1, s.layout = MRTQ_NCHW;
  ox.data = qx0, ox.type = MRTQ_S8, ox.zp = px.zp, ow.data = qw1, ow.type = MRTQ_S8;
  for (o = 0; o < C1; o++) {
    qb1[o] = quant_bias(b1[o], (double)px.scale * sw1[o]);
    check(mrtq_rq_init(MRTQ_Q31_DBL, (double)px.scale * sw1[o] / p1.scale, p1.zp, p1.zp, 127, &rq[o]), "rq1");
  }
  check(mrtq_conv2d_q8(&s, rq, C1, &ox, &ow, qb1, MRTQ_S8, q1), "conv1");
  dequant(qx0, C0 * H0 * H0, &px, dx);
  for (o = 0; o < C1; o++) db1[o] = qb1[o] * (double)px.scale * sw1[o];
  for (i = 0; i < C1 * C0 * 9; i++) dw1[i] = qw1[i] * sw1[i / (C0 * 9)];
  conv3x3(dx, C0, H0, dw1, db1, C1, lref);
  for (i = 0; i < C1 * H0 * H0; i++) lref[i] = lref[i] > 0 ? lref[i] : 0;
  report("conv1 + relu", q1, &p1, lref, f1, C1 * H0 * H0, 1.0 + 1e-6);

  /* max pool: same qparams, exact */
  memset(&pool, 0, sizeof pool);
  pool.n = 1, pool.c = C1, pool.h = pool.w = H0, pool.kh = pool.kw = 2, pool.stride_h = pool.stride_w = 2;
  pool.layout = MRTQ_NCHW, pool.type = MRTQ_S8;
  check(mrtq_maxpool2d(&pool, q1, -128, 127, qp), "maxpool");
  dequant(q1, C1 * H0 * H0, &p1, d1);
  maxpool2(d1, C1, H0, lref);
  report("maxpool 2x2", qp, &p1, lref, fp, NF, 0.0);

  /* conv2, no activation */
  s.c = C1, s.h = s.w = H1, s.o = C1, ox.data = qp, ox.zp = p1.zp, ow.data = qw2;
  for (o = 0; o < C1; o++) {
    qb2[o] = quant_bias(b2[o], (double)p1.scale * sw2[o]);
    check(mrtq_rq_init(MRTQ_Q31_DBL, (double)p1.scale * sw2[o] / p2.scale, p2.zp, -128, 127, &rq[o]), "rq2");
  }
  check(mrtq_conv2d_q8(&s, rq, C1, &ox, &ow, qb2, MRTQ_S8, q2), "conv2");
  dequant(qp, NF, &p1, dp);
  for (o = 0; o < C1; o++) db2[o] = qb2[o] * (double)p1.scale * sw2[o];
  for (i = 0; i < C1 * C1 * 9; i++) dw2[i] = qw2[i] * sw2[i / (C1 * 9)];
  conv3x3(dp, C1, H1, dw2, db2, C1, lref);
  report("conv2", q2, &p2, lref, f2, NF, 1.0 + 1e-6);

  /* residual add: TFLite ADD */
  memset(&add, 0, sizeof add);
  {
    size_t shape[4] = {1, C1, H1, H1};
    check(mrtq_tflite_add_init(p2.scale, p2.zp, p1.scale, p1.zp, pa.scale, pa.zp, -128, 127, MRTQ_S8,
                               &add),
          "add init");
    check(mrtq_tflite_add(shape, 4, shape, 4, &add, q2, qp, qa), "add");
  }
  dequant(q2, NF, &p2, d2);
  for (i = 0; i < NF; i++) lref[i] = d2[i] + dp[i];
  report("add (residual)", qa, &pa, lref, fa, NF, 1.0 + 1e-3);

  /* flatten (NCHW row-major: no data movement) + FC with per-tensor weights */
  {
    static double da[NF];
    for (o = 0; o < NO; o++) qbf[o] = quant_bias(bf[o], (double)pa.scale * swf);
    check(mrtq_rq_init(MRTQ_Q31_DBL, (double)pa.scale * swf / pf.scale, pf.zp, -128, 127, &rq[0]), "rqf");
    ox.data = qa, ox.zp = pa.zp, ow.data = qwf;
    check(mrtq_fc_q8(1, NF, NO, rq, 1, &ox, &ow, qbf, MRTQ_S8, qf), "fc");
    dequant(qa, NF, &pa, da);
    for (o = 0; o < NO; o++) dbf[o] = qbf[o] * (double)pa.scale * swf;
    for (i = 0; i < NO * NF; i++) dwf[i] = qwf[i] * swf;
    fc(da, dwf, dbf, lref);
    report("flatten + fc", qf, &pf, lref, ff, NO, 1.0 + 1e-6);
  }

  for (o = 1; o < NO; o++) {
    if (ff[o] > ff[top_f]) top_f = o;
    if (qf[o] > qf[top_q]) top_q = o;
  }
  printf("logits (float | int8 dequantized):");
  for (o = 0; o < NO; o++) printf(" %.3f|%.3f", ff[o], (qf[o] - pf.zp) * (double)pf.scale);
  printf("\ntop-1: float class %d, int8 class %d%s\n", top_f, top_q, top_f == top_q ? "" : " (differs)");
  printf("local: the layer alone (its rounding, bounded); e2e: the quantized pipeline against the float network\n");
  if (failed) printf("FAILED\n");
  return failed;
}
