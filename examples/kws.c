/* mrtq example: an int8 keyword-spotting network in TFLite's convention, on
 * built-in data, against the float network it was quantized from.
 *
 * The network is the DS-CNN of ARM's ML-KWS-for-MCU ("Hello Edge", Zhang et
 * al. 2017), scaled down: 24 channels instead of 64, 3 blocks instead of 4,
 * 5 classes instead of 12.
 *
 *   features 49 frames x 10 MFCC coefficients x 1      (NHWC, batch 1)
 *   -> conv 10x4, stride 2, SAME (1 -> 24) + ReLU          25 x 5 x 24
 *   -> 3 x (depthwise 3x3, SAME + ReLU -> pointwise 1x1 + ReLU)
 *   -> average pool 25x5 (the whole map)                    1 x 1 x 24
 *   -> fully connected (24 -> 5) -> softmax
 *
 * Each step is what TFLite's converter and its reference kernels compute:
 *   weights      int8, one scale per output channel, zero point 0:
 *                mrtq_tflite_weight_qparams (the depthwise filter stays in
 *                TFLite's [1][KH][KW][C] layout: w_layout = MRTQ_W_TFLITE_DW)
 *   biases       int32 at step s_in * s_w[c]: mrtq_tflite_bias_s32
 *   activations  int8 with a zero point, from the float network's ranges over
 *                the built-in inputs: mrtq_minmax_f32, mrtq_qparams_from_range
 *                (MRTQ_QS_TFLITE)
 *   SAME padding mrtq_tflite_conv2d_pad, mrtq_tflite_pool2d_pad
 *   ReLU         the output's stored bounds: mrtq_tflite_act_range
 *   conv, FC     mrtq_conv2d_q8 / mrtq_fc_q8 with per-channel Q31
 *                double-rounding requantization of s_in s_w[c] / s_out
 *                (mrtq_rq_init(MRTQ_Q31_DBL, ...))
 *   avg pool     mrtq_avgpool2d_tflite (output qparams = input qparams)
 *   softmax      mrtq_tflite_softmax (TFLite's reference int8 softmax, gemmlowp
 *                fixed point; parameters from mrtq_tflite_softmax_init): the
 *                output scale is 1/256, the zero point -128
 *
 * The data: five synthetic "keywords" (a silence and four spectro-temporal
 * shapes), three noisy, shifted utterances of each. The model: seeded random
 * convolutions (batch norm, if any, folded into them); the FC layer is a
 * ridge regression of the pooled features of 40 further seeded utterances onto
 * their keywords, solved in closed form, so the float network does classify
 * the built-in inputs. Nothing is trained by descent and nothing is read from
 * a file.
 *
 * Output: per layer, the shape, the output's scale and zero point and the
 * error of the dequantized int8 output against the float network, over every
 * built-in input (max and mean, in units of the output scale); then the class
 * probabilities, float and int8, for one input of each keyword.
 *
 * `kws --check` (the test test_example_kws) recomputes every layer's int8
 * output a second way -- accumulators by a plain loop restating TFLite's
 * reference kernels, compared with mrtq_conv2d_s32 / mrtq_fc_s32, then the
 * requantization written out with mrtq_mult_q31 and mrtq_mul_q31_dbl -- and
 * requires the same bytes; the softmax once more from parameters derived a
 * second way, and within about half a step of the exact softmax of the int8
 * logits; and the int8 network's top class must be the float network's on
 * every built-in input. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mrtq.h"

#define FR 49        /* frames */
#define CO 10        /* MFCC coefficients */
#define CH 24        /* channels of every hidden layer */
#define OH 25        /* the map after the strided conv: 25 x 5 */
#define OW 5
#define MAP (OH * OW * CH)
#define NBLK 3                /* depthwise-separable blocks */
#define NCONV (1 + 2 * NBLK)  /* conv, then dw / pw per block */
#define NCLS 5
#define NPER 3                /* built-in inputs per class */
#define NIN (NCLS * NPER)
#define MAXW (CH * 10 * 4)    /* the largest weight tensor (conv1) */

static const char *class_name[NCLS] = {"silence", "rise", "fall", "bursts", "hum"};

/* One convolution layer: the float model, its TFLite int8 form, and the
 * calibrated output. */
typedef struct layer {
  char name[24];
  mrtq_conv2d_shape s; /* NHWC geometry; pads from mrtq_tflite_conv2d_pad */
  size_t ho, wo, nw;   /* output size; weight count */
  int dw;              /* depthwise: weights [1][KH][KW][C] */
  float w[MAXW], b[CH];
  int8_t qw[MAXW];     /* int8 weights, scale sw[c], zero point 0 */
  float sw[CH];
  int32_t qb[CH];      /* int32 bias at step s_in * sw[c] */
  mrtq_qparams q;      /* the output's scale and zero point */
  int32_t qmin, qmax;  /* the fused activation's stored bounds */
  mrtq_rq rq[CH];      /* per-channel requantization */
} layer;

static layer L[NCONV], fc; /* fc: a 1 x 1 "convolution" over the pooled map */
static mrtq_qparams qin;   /* the input's */
static mrtq_tflite_softmax_params sm; /* beta 1, on the logits' scale */
static const mrtq_qparams q_prob = {1.0f / 256, -128, -128, 127}; /* softmax output, fixed by TFLite */

/* float network, every layer of every input (calibration needs them all) */
static float fx[NIN][FR * CO], fa[NCONV][NIN][MAP], fpool[NIN][CH], flogit[NIN][NCLS], fprob[NIN][NCLS];
/* int8 network */
static int8_t qx[NIN][FR * CO], qa[NCONV][NIN][MAP], qpool[NIN][CH], qlogit[NIN][NCLS], qprob[NIN][NCLS];
static int label[NIN];
static int failed;
static long long calls; /* mrtq calls made through check() */

static void check(mrtq_status st, const char *what) {
  calls++;
  if (st != MRTQ_OK) {
    printf("%s: %s\n", what, mrtq_status_str(st));
    failed = 1;
  }
}

/* ---- built-in data and float model ---- */

static uint32_t lcg = 2017u;
static double uniform(double a) { /* in [-a, a) */
  lcg = lcg * 1664525u + 1013904223u;
  return a * ((double)(lcg >> 8) / 8388608.0 - 1.0);
}

static double gauss(double v, double mu, double w) { return exp(-(v - mu) * (v - mu) / (w * w)); }

/* Feature (t, k) of keyword `cls`, moved by `shift` frames: a word lasts about
 * frames 12..36 and raises coefficient 0 (the log energy); its shape lives in
 * coefficients 1..9: a band rising or falling through them, two short bursts,
 * or a steady pattern. */
static double keyword(int cls, int t, int k, double shift) {
  double u = t - shift, env = gauss(u, 24, 10), v = 0;
  if (cls == 0) return -1.0; /* silence: low energy, nothing else */
  switch (cls) {
    case 1: v = env * gauss(k, 1 + 8 * (u - 12) / 24, 1.2); break;
    case 2: v = env * gauss(k, 9 - 8 * (u - 12) / 24, 1.2); break;
    case 3: v = (gauss(u, 17, 2.5) + gauss(u, 31, 2.5)) * cos(2.1 * k); break;
    case 4: v = env * cos(0.9 * k); break;
  }
  return k == 0 ? -1.0 + 2.0 * env : 1.5 * v;
}

/* One utterance of keyword cls: moved by up to 4 frames, louder or softer
 * by up to 20%, plus noise. */
static void make_input(int cls, float *x) {
  double shift = uniform(4), amp = 1 + uniform(0.2);
  int t, k;
  for (t = 0; t < FR; t++)
    for (k = 0; k < CO; k++) x[t * CO + k] = (float)(amp * keyword(cls, t, k, shift) + uniform(0.25));
}

/* Geometry: NHWC, stride 1 unless given, TFLite's SAME padding. */
static void set_shape(layer *l, const char *name, size_t h, size_t w, size_t c, size_t k_h, size_t k_w,
                      size_t stride, int dw) {
  mrtq_conv2d_shape *s = &l->s;
  memset(s, 0, sizeof *s);
  snprintf(l->name, sizeof l->name, "%s", name);
  s->n = 1, s->c = c, s->h = h, s->w = w, s->o = CH, s->kh = k_h, s->kw = k_w;
  s->stride_h = s->stride_w = stride, s->dil_h = s->dil_w = 1, s->layout = MRTQ_NHWC;
  s->groups = dw ? CH : 1, s->w_layout = dw ? MRTQ_W_TFLITE_DW : MRTQ_W_LIKE_X;
  l->dw = dw;
  l->nw = dw ? k_h * k_w * CH : CH * k_h * k_w * c;
  check(mrtq_tflite_conv2d_pad(MRTQ_TFLITE_PAD_SAME, s), "SAME padding");
  check(mrtq_conv2d_out(s, &l->ho, &l->wo), "output size");
}

/* He-uniform weights and small biases, seeded. */
static void init_weights(layer *l) {
  size_t i, fan_in = l->dw ? l->s.kh * l->s.kw : l->s.kh * l->s.kw * l->s.c;
  for (i = 0; i < l->nw; i++) l->w[i] = (float)uniform(sqrt(6.0 / (double)fan_in));
  for (i = 0; i < l->s.o; i++) l->b[i] = (float)uniform(0.1);
}

/* ---- the float network ---- */

/* One convolution + ReLU in float (double sums), NHWC; dense weights
 * [O][KH][KW][C], depthwise [1][KH][KW][C]; padding contributes nothing. */
static void conv_f(const layer *l, const float *x, float *y) {
  const mrtq_conv2d_shape *s = &l->s;
  size_t oy, ox, o, i, j, c;
  for (oy = 0; oy < l->ho; oy++)
    for (ox = 0; ox < l->wo; ox++)
      for (o = 0; o < s->o; o++) {
        double acc = l->b[o];
        for (i = 0; i < s->kh; i++)
          for (j = 0; j < s->kw; j++) {
            size_t iy = oy * s->stride_h + i, ix = ox * s->stride_w + j; /* + pad_top / pad_left */
            if (iy < s->pad_top || iy - s->pad_top >= s->h || ix < s->pad_left || ix - s->pad_left >= s->w) continue;
            iy -= s->pad_top, ix -= s->pad_left;
            if (l->dw)
              acc += (double)x[(iy * s->w + ix) * s->c + o] * l->w[(i * s->kw + j) * s->c + o];
            else
              for (c = 0; c < s->c; c++)
                acc += (double)x[(iy * s->w + ix) * s->c + c] * l->w[((o * s->kh + i) * s->kw + j) * s->c + c];
          }
        y[(oy * l->wo + ox) * s->o + o] = acc > 0 ? (float)acc : 0.0f;
      }
}

static void softmax_f(const float *z, float *p) {
  double m = z[0], sum = 0;
  int c;
  for (c = 1; c < NCLS; c++) m = z[c] > m ? z[c] : m;
  for (c = 0; c < NCLS; c++) sum += exp(z[c] - m);
  for (c = 0; c < NCLS; c++) p[c] = (float)(exp(z[c] - m) / sum);
}

/* The convolutions and the pooling, in float, for one input x (layer outputs
 * into fa[.][i] when i >= 0); the pooled features into pooled. */
static void features_f(const float *x, int i, float *pooled) {
  static float a[2][MAP];
  const float *in = x;
  int l, c, p;
  for (l = 0; l < NCONV; l++) {
    float *out = i >= 0 ? fa[l][i] : a[l % 2];
    conv_f(&L[l], in, out);
    in = out;
  }
  for (c = 0; c < CH; c++) {
    double s = 0;
    for (p = 0; p < OH * OW; p++) s += in[p * CH + c];
    pooled[c] = (float)(s / (OH * OW));
  }
}

static void logits_f(const float *pooled, float *z) {
  int o, c;
  for (o = 0; o < NCLS; o++) {
    double acc = fc.b[o];
    for (c = 0; c < CH; c++) acc += (double)pooled[c] * fc.w[o * CH + c];
    z[o] = (float)acc;
  }
}

/* The FC layer, fitted in closed form: ridge regression of the pooled
 * features of NFIT further seeded inputs per keyword onto the scores 8 (their
 * keyword) and 0 (the others): one (CH + 1)-square linear system (CH weights
 * and the bias per class), solved by Gauss-Jordan elimination. */
#define NFIT 8
static void fit_readout(void) {
  static double a[CH + 1][CH + 1 + NCLS]; /* [A^T A + lambda I | A^T Y] */
  float x[FR * CO], f[CH + 1];
  int i, r, c, k, o;
  memset(a, 0, sizeof a);
  for (i = 0; i < NCLS * NFIT; i++) {
    make_input(i / NFIT, x);
    features_f(x, -1, f);
    f[CH] = 1; /* the bias' input */
    for (r = 0; r <= CH; r++) {
      for (c = 0; c <= CH; c++) a[r][c] += (double)f[r] * f[c];
      a[r][CH + 1 + i / NFIT] += 8.0 * f[r];
    }
  }
  for (r = 0; r <= CH; r++) a[r][r] += 0.02; /* a small ridge: well conditioned */
  for (k = 0; k <= CH; k++) /* elimination; the matrix is positive definite */
    for (r = 0; r <= CH; r++) {
      double m = a[r][k] / a[k][k];
      if (r == k) continue;
      for (c = k; c < CH + 1 + NCLS; c++) a[r][c] -= m * a[k][c];
    }
  for (o = 0; o < NCLS; o++) {
    for (c = 0; c < CH; c++) fc.w[o * CH + c] = (float)(a[c][CH + 1 + o] / a[c][c]);
    fc.b[o] = (float)(a[CH][CH + 1 + o] / a[CH][CH]);
  }
}

static void make_model(void) {
  int b;
  set_shape(&L[0], "conv 10x4 /2 + relu", FR, CO, 1, 10, 4, 2, 0);
  for (b = 0; b < NBLK; b++) {
    char name[24];
    snprintf(name, sizeof name, "dw%d 3x3 + relu", b + 1);
    set_shape(&L[1 + 2 * b], name, OH, OW, CH, 3, 3, 1, 1);
    snprintf(name, sizeof name, "pw%d 1x1 + relu", b + 1);
    set_shape(&L[2 + 2 * b], name, OH, OW, CH, 1, 1, 1, 0);
  }
  for (b = 0; b < NCONV; b++) init_weights(&L[b]);
  snprintf(fc.name, sizeof fc.name, "fc");
  fc.s = mrtq_fc_shape(1, CH, NCLS), fc.nw = NCLS * CH;
  fit_readout();
}

static void make_inputs(void) {
  int i;
  for (i = 0; i < NIN; i++) make_input(label[i] = i / NPER, fx[i]);
}

/* ---- quantization, as TFLite's converter does it ---- */

/* A tensor's qparams from its float range (mrtq's calibration). */
static mrtq_qparams calibrate(const float *v, size_t n) {
  mrtq_qparams q;
  float lo = 0, hi = 0;
  memset(&q, 0, sizeof q);
  check(mrtq_minmax_f32(v, n, &lo, &hi), "calibration");
  check(mrtq_qparams_from_range(MRTQ_QS_TFLITE, lo, hi, MRTQ_S8, 0, &q), "calibration");
  return q;
}

/* TFLite's QUANTIZE (reference AffineQuantize): zp + round(x / scale), one
 * float division, ties away from zero (roundf), clamped to int8. */
static int8_t quantize_input(float x, const mrtq_qparams *q) {
  float r = roundf(x / q->scale) + (float)q->zp;
  return (int8_t)(r < -128 ? -128 : r > 127 ? 127 : r);
}

/* Weights, bias and requantization of a layer whose input has qparams in. */
static void quantize_layer(layer *l, const mrtq_qparams *in, mrtq_tflite_act act, int ndim) {
  size_t conv_shape[4] = {l->s.o, l->s.kh, l->s.kw, l->s.c}, dw_shape[4] = {1, l->s.kh, l->s.kw, l->s.o};
  size_t fc_shape[2] = {l->s.o, l->s.c}, o;
  const size_t *shape = ndim == 2 ? fc_shape : l->dw ? dw_shape : conv_shape;
  /* channel axis: 0 for [O][KH][KW][I] and [O][I], 3 for [1][KH][KW][C] */
  check(mrtq_tflite_weight_qparams(l->w, shape, ndim, l->dw ? 3 : 0, MRTQ_S8, l->sw, l->qw), "weights");
  check(mrtq_tflite_bias_s32(in->scale, l->sw, l->s.o, l->b, l->s.o, l->qb), "bias");
  check(mrtq_tflite_act_range(act, l->q.scale, l->q.zp, MRTQ_S8, &l->qmin, &l->qmax), "activation");
  for (o = 0; o < l->s.o; o++) /* TFLite: each float scale widened to double, then s_in s_w / s_out */
    check(mrtq_rq_init(MRTQ_Q31_DBL, (double)in->scale * l->sw[o] / l->q.scale, l->q.zp, l->qmin, l->qmax, &l->rq[o]),
          "requantization");
}

static void quantize_model(void) {
  int l;
  qin = calibrate((const float *)fx, (size_t)NIN * FR * CO);
  for (l = 0; l < NCONV; l++) {
    L[l].q = calibrate((const float *)fa[l], (size_t)NIN * MAP);
    quantize_layer(&L[l], l ? &L[l - 1].q : &qin, MRTQ_TFLITE_ACT_RELU, 4);
  }
  fc.q = calibrate((const float *)flogit, (size_t)NIN * NCLS);
  quantize_layer(&fc, &L[NCONV - 1].q, MRTQ_TFLITE_ACT_NONE, 2); /* the pool keeps its input's qparams */
  check(mrtq_tflite_softmax_init(fc.q.scale, 1.0f, &sm), "softmax");
}

/* ---- the int8 network ---- */

static void pool_shape(mrtq_pool2d *p) {
  memset(p, 0, sizeof *p);
  p->n = 1, p->c = CH, p->h = OH, p->w = OW, p->kh = OH, p->kw = OW, p->stride_h = p->stride_w = 1;
  p->layout = MRTQ_NHWC, p->type = MRTQ_S8;
  check(mrtq_tflite_pool2d_pad(MRTQ_TFLITE_PAD_VALID, p), "pool padding");
}

static void run_int8(int i) {
  mrtq_qoperand x, w;
  mrtq_pool2d pool;
  int l, k;
  memset(&x, 0, sizeof x), memset(&w, 0, sizeof w);
  x.type = w.type = MRTQ_S8; /* weights: zero point 0 */
  for (k = 0; k < FR * CO; k++) qx[i][k] = quantize_input(fx[i][k], &qin);
  x.data = qx[i], x.zp = qin.zp;
  for (l = 0; l < NCONV; l++) {
    w.data = L[l].qw;
    check(mrtq_conv2d_q8(&L[l].s, L[l].rq, CH, &x, &w, L[l].qb, MRTQ_S8, qa[l][i]), L[l].name);
    x.data = qa[l][i], x.zp = L[l].q.zp;
  }
  pool_shape(&pool);
  check(mrtq_avgpool2d_tflite(&pool, qa[NCONV - 1][i], -128, 127, qpool[i]), "avg pool");
  x.data = qpool[i], w.data = fc.qw;
  check(mrtq_fc_q8(1, CH, NCLS, fc.rq, NCLS, &x, &w, fc.qb, MRTQ_S8, qlogit[i]), "fc");
  check(mrtq_tflite_softmax(&sm, 1, NCLS, qlogit[i], MRTQ_S8, MRTQ_S8, qprob[i]), "softmax");
}

/* ---- the report ---- */

/* Max and mean |dequantized int8 - float| over n values, in output steps. */
static void report(const char *name, const char *shape, const int8_t *q, const float *f, size_t n,
                   const mrtq_qparams *p) {
  double emax = 0, esum = 0;
  size_t k;
  for (k = 0; k < n; k++) {
    double e = fabs((q[k] - p->zp) * (double)p->scale - f[k]) / p->scale;
    emax = e > emax ? e : emax, esum += e;
  }
  printf("  %-20s %-10s %10.6f %5d %8.3f %8.3f\n", name, shape, p->scale, (int)p->zp, emax, esum / (double)n);
}

static int argmax_f(const float *v) {
  int c, m = 0;
  for (c = 1; c < NCLS; c++) m = v[c] > v[m] ? c : m;
  return m;
}

static int argmax_q(const int8_t *v) {
  int c, m = 0;
  for (c = 1; c < NCLS; c++) m = v[c] > v[m] ? c : m;
  return m;
}

static void print_report(void) {
  char shape[16];
  int l, i, c, agree = 0, right_f = 0, right_q = 0;
  printf("DS-CNN keyword spotting (ML-KWS-for-MCU shape, scaled down), int8 in TFLite's convention\n");
  printf("%d built-in inputs (%d per keyword); errors over all of them, in steps of the output scale\n\n", NIN, NPER);
  printf("  %-20s %-10s %10s %5s %8s %8s\n", "layer", "output", "scale", "zp", "max err", "mean err");
  report("input (quantize)", "49x10x1", (const int8_t *)qx, (const float *)fx, (size_t)NIN * FR * CO, &qin);
  for (l = 0; l < NCONV; l++) {
    snprintf(shape, sizeof shape, "%zux%zux%zu", L[l].ho, L[l].wo, L[l].s.o);
    report(L[l].name, shape, (const int8_t *)qa[l], (const float *)fa[l], (size_t)NIN * MAP, &L[l].q);
  }
  snprintf(shape, sizeof shape, "1x1x%d", CH);
  report("avg pool 25x5", shape, (const int8_t *)qpool, (const float *)fpool, (size_t)NIN * CH, &L[NCONV - 1].q);
  report("fc (logits)", "5", (const int8_t *)qlogit, (const float *)flogit, (size_t)NIN * NCLS, &fc.q);
  report("softmax", "5", (const int8_t *)qprob, (const float *)fprob, (size_t)NIN * NCLS, &q_prob);

  printf("\nclass probabilities, float | int8 (one input per keyword; int8: (q + 128) / 256):\n  %-8s", "input");
  for (c = 0; c < NCLS; c++) printf(" %15s", class_name[c]);
  printf("   top-1 float / int8\n");
  for (i = 0; i < NIN; i++) {
    int tf = argmax_f(fprob[i]), tq = argmax_q(qprob[i]);
    agree += tf == tq, right_f += tf == label[i], right_q += tq == label[i];
    if (i % NPER) continue;
    printf("  %-8s", class_name[label[i]]);
    for (c = 0; c < NCLS; c++) printf("   %5.3f | %5.3f", fprob[i][c], (qprob[i][c] + 128) / 256.0);
    printf("   %s / %s%s\n", class_name[tf], class_name[tq], tf == tq ? "" : " (differs)");
  }
  printf("top-1 of the int8 network equals the float network's on %d of %d inputs\n", agree, NIN);
  printf("top-1 is the input's keyword on %d (float) and %d (int8) of %d inputs\n", right_f, right_q, NIN);
}

/* ---- --check: every layer's int8 output a second way ---- */

static int cases_passed, cases_failed;

static void expect(int ok, const char *what, long long compared, const char *unit) {
  printf("  %-34s %s (%lld %s)\n", what, ok ? "ok" : "FAILED", compared, unit);
  if (ok) cases_passed++;
  else cases_failed++;
}

/* TFLite's reference int8 convolution and depthwise convolution
 * (reference/integer_ops/conv.h, depthwise_conv.h), restated: the bias plus,
 * over the window's taps inside the input, (x - zp_x) * w (weights' zero
 * point 0). NHWC; weights [O][KH][KW][C] or [1][KH][KW][C]. */
static int32_t acc_ref(const layer *l, const int8_t *x, int32_t zp_x, size_t oy, size_t ox, size_t o) {
  const mrtq_conv2d_shape *s = &l->s;
  int32_t acc = l->qb[o];
  long y0 = (long)(oy * s->stride_h) - (long)s->pad_top, x0 = (long)(ox * s->stride_w) - (long)s->pad_left;
  long i, j, c;
  for (i = 0; i < (long)s->kh; i++)
    for (j = 0; j < (long)s->kw; j++) {
      long iy = y0 + i, ix = x0 + j;
      if (iy < 0 || iy >= (long)s->h || ix < 0 || ix >= (long)s->w) continue;
      if (l->dw)
        acc += (x[(iy * (long)s->w + ix) * (long)s->c + (long)o] - zp_x) * l->qw[(i * (long)s->kw + j) * (long)s->c + (long)o];
      else
        for (c = 0; c < (long)s->c; c++)
          acc += (x[(iy * (long)s->w + ix) * (long)s->c + c] - zp_x) *
                 l->qw[(((long)o * (long)s->kh + i) * (long)s->kw + j) * (long)s->c + c];
    }
  return acc;
}

/* The requantization written out, as TFLite's kernels do it per channel:
 * QuantizeMultiplier of the double s_in s_w[o] / s_out (mrtq_mult_q31),
 * MultiplyByQuantizedMultiplier (mrtq_mul_q31_dbl), + zp, then the fused
 * activation's bounds: ReLU [max(zp, -128), 127], none [-128, 127]. */
static int32_t requant_ref(const layer *l, const mrtq_qparams *in, int relu, size_t o, int32_t acc) {
  mrtq_mult m;
  int32_t v, lo = relu && l->q.zp > -128 ? l->q.zp : -128;
  if (mrtq_mult_q31((double)in->scale * l->sw[o] / l->q.scale, &m) != MRTQ_OK) return 1000; /* never equal */
  v = mrtq_mul_q31_dbl(acc, m) + l->q.zp;
  return v < lo ? lo : v > 127 ? 127 : v;
}

static int run_check(void) {
  static int32_t acc[MAP];
  mrtq_qoperand x, w;
  char what[64];
  int i, l, c;
  memset(&x, 0, sizeof x), memset(&w, 0, sizeof w);
  x.type = w.type = MRTQ_S8;
  printf("\n--check: each layer's int8 output recomputed from its int8 input\n");
  for (l = 0; l <= NCONV; l++) { /* l == NCONV: the FC layer, its input the pooled map */
    const layer *ly = l < NCONV ? &L[l] : &fc;
    const mrtq_qparams *qi = l == 0 ? &qin : &L[(l < NCONV ? l : NCONV) - 1].q;
    long long n = 0, bad_acc = 0, bad_out = 0;
    size_t oy, ox, o;
    for (i = 0; i < NIN; i++) {
      const int8_t *src = l == 0 ? qx[i] : l < NCONV ? qa[l - 1][i] : qpool[i];
      const int8_t *dst = l < NCONV ? qa[l][i] : qlogit[i];
      size_t ho = l < NCONV ? ly->ho : 1, wo = l < NCONV ? ly->wo : 1;
      x.data = src, x.zp = qi->zp, w.data = ly->qw;
      if ((l < NCONV ? mrtq_conv2d_s32(&ly->s, &x, &w, ly->qb, acc) : mrtq_fc_s32(1, CH, NCLS, &x, &w, ly->qb, acc)) !=
          MRTQ_OK) {
        bad_acc++;
        continue;
      }
      for (oy = 0; oy < ho; oy++)
        for (ox = 0; ox < wo; ox++)
          for (o = 0; o < ly->s.o; o++) {
            size_t at = (oy * wo + ox) * ly->s.o + o;
            int32_t a = acc_ref(ly, src, qi->zp, oy, ox, o);
            bad_acc += acc[at] != a;
            bad_out += dst[at] != requant_ref(ly, qi, l < NCONV, o, a);
            n++;
          }
    }
    snprintf(what, sizeof what, "%s: accumulators", ly->name);
    expect(bad_acc == 0, what, n, "outputs compared");
    snprintf(what, sizeof what, "%s: int8 output", ly->name);
    expect(bad_out == 0, what, n, "outputs compared");
  }
  { /* TFLite's average pooling (reference/integer_ops/pooling.h) over the
     * whole map: the sum of the stored values over its count, rounded half
     * away from zero, clamped to int8 */
    long long n = 0, bad = 0;
    for (i = 0; i < NIN; i++)
      for (c = 0; c < CH; c++) {
        int32_t sum = 0, cnt = OH * OW, v;
        int p;
        for (p = 0; p < OH * OW; p++) sum += qa[NCONV - 1][i][p * CH + c];
        v = sum > 0 ? (sum + cnt / 2) / cnt : (sum - cnt / 2) / cnt;
        bad += qpool[i][c] != (v < -128 ? -128 : v > 127 ? 127 : v);
        n++;
      }
    expect(bad == 0, "avg pool: int8 output", n, "outputs compared");
  }
  { /* softmax: TFLite's Prepare restated (PreprocessSoftmaxScaling with 5
     * integer bits, CalculateInputRadius), the kernel run from those numbers
     * through mrtq_tflite_softmax_init_mult; and each stored probability q
     * within half a step, plus 1/64 of a step for the fixed-point exp and
     * reciprocal, of 256 p - 128, p the exact softmax of the int8 logits
     * (127 where 256 p - 128 > 127: the clamp) */
    double r = fc.q.scale * 67108864.0, dev = 0; /* beta 1, times 2^26 */
    mrtq_mult m;
    mrtq_tflite_softmax_params p2;
    int8_t y[NCLS];
    long long n = 0, bad = 0;
    check(mrtq_mult_q31(r < 2147483647.0 ? r : 2147483647.0, &m), "softmax multiplier");
    check(mrtq_tflite_softmax_init_mult(m.mult, m.shift, -(int32_t)floor(31.0 * 67108864.0 / ldexp(1.0, m.shift)), &p2),
          "softmax parameters");
    for (i = 0; i < NIN; i++) {
      double z[NCLS], mx = -1e300, sum = 0;
      check(mrtq_tflite_softmax(&p2, 1, NCLS, qlogit[i], MRTQ_S8, MRTQ_S8, y), "softmax");
      for (c = 0; c < NCLS; c++) z[c] = (qlogit[i][c] - fc.q.zp) * (double)fc.q.scale, mx = z[c] > mx ? z[c] : mx;
      for (c = 0; c < NCLS; c++) sum += exp(z[c] - mx);
      for (c = 0; c < NCLS; c++, n++) {
        double v = 256 * exp(z[c] - mx) / sum - 128, e = fabs(qprob[i][c] - (v < 127 ? v : 127));
        bad += y[c] != qprob[i][c] || e > 0.5 + 1.0 / 64;
        dev = e > dev ? e : dev;
      }
    }
    printf("  softmax: largest distance to the exact softmax of the int8 logits: %.3f steps\n", dev);
    expect(bad == 0, "softmax: int8 output", n, "outputs compared");
  }
  { /* the decision: the int8 network's top class is the float network's,
     * and that is the input's keyword */
    long long bad = 0;
    for (i = 0; i < NIN; i++)
      bad += argmax_q(qlogit[i]) != argmax_f(flogit[i]) || argmax_q(qprob[i]) != argmax_f(fprob[i]) ||
             argmax_f(fprob[i]) != label[i];
    expect(bad == 0, "top-1: int8 == float == keyword", NIN, "inputs compared");
  }
  expect(!failed, "every mrtq call returned MRTQ_OK", calls, "calls");
  printf("test_example_kws: %d passed, %d failed\n", cases_passed, cases_failed);
  return cases_failed != 0;
}

int main(int argc, char **argv) {
  int i, check_mode = argc == 2 && strcmp(argv[1], "--check") == 0;
  if (argc > 1 && !check_mode) {
    printf("usage: %s [--check]\n", argv[0]);
    return 2;
  }
  make_model();
  make_inputs();
  for (i = 0; i < NIN; i++) {
    features_f(fx[i], i, fpool[i]);
    logits_f(fpool[i], flogit[i]);
    softmax_f(flogit[i], fprob[i]);
  }
  quantize_model();
  for (i = 0; i < NIN; i++) run_int8(i);
  print_report();
  if (failed) printf("FAILED\n");
  if (check_mode) failed |= run_check();
  return failed;
}
