/* Two networks for mrtq's VTA network compiler (mrtq/vta/net.h), on built-in
 * data: ResNet-18 and MobileNet V1, int8, any input size that is a multiple
 * of 32 (224 is the published one). Weights are deterministic (a fixed
 * pseudo-random generator, not trained); the scales are calibrated on one
 * deterministic input as a post-training quantizer does: each layer's
 * output scale from the largest real value it produces there, per-channel
 * weight scales folded into per-channel multipliers. Activations are int8
 * with zero point -128 after a ReLU (TFLite's convention), 0 elsewhere.
 *
 * Used by examples/vta_resnet18.c, tests/test_vta_net.c and the benchmark.
 * The calibration runs the same CPU statements mrtq_vta_net_ref does (it
 * needs each layer's real output to scale the next), so it costs one CPU
 * pass of the network. */
#ifndef MRTQ_EXAMPLES_VTA_MODELS_H
#define MRTQ_EXAMPLES_VTA_MODELS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrtq/vta.h"

#define VTAM_MAX_LAYERS 64

typedef struct vtam {
  mrtq_vta_net net;
  mrtq_vta_net_layer layer[VTAM_MAX_LAYERS];
  const char *name[VTAM_MAX_LAYERS];
  int8_t *w[VTAM_MAX_LAYERS];     /* weights (owned) */
  int32_t *bias[VTAM_MAX_LAYERS]; /* (owned) */
  mrtq_mult *m[VTAM_MAX_LAYERS];  /* (owned) */
  int8_t *y[VTAM_MAX_LAYERS];     /* each layer's output on the calibration input (owned) */
  double scale[VTAM_MAX_LAYERS + 1]; /* real = scale * (q - zp) of each tensor */
  int32_t zp[VTAM_MAX_LAYERS + 1];
  size_t c[VTAM_MAX_LAYERS + 1], h[VTAM_MAX_LAYERS + 1], wd[VTAM_MAX_LAYERS + 1];
  uint8_t *x;                     /* the input image (owned) */
  size_t nlayers;
  uint64_t rng;
  int failed;
} vtam;

static inline uint32_t vtam_rand(vtam *m) { /* splitmix64, high half */
  uint64_t z = (m->rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static inline const void *vtam_tensor(const vtam *m, size_t t) { return t ? (const void *)m->y[t - 1] : (const void *)m->x; }

/* Append a layer whose quantization is set (the CONV's multipliers from
 * the accumulators on the calibration input) and run it on the CPU. */
static inline size_t vtam_conv(vtam *m, const char *name, size_t in, size_t o, size_t k, size_t stride, size_t pad, int dw,
                        int relu, int ones) {
  size_t i = m->nlayers, c = m->c[in], h = m->h[in], w = m->wd[in], cg = dw ? 1 : c, nw = o * cg * k * k;
  size_t ho = (h + 2 * pad - k) / stride + 1, wo = (w + 2 * pad - k) / stride + 1, oc, oy, ox, ci, ky, kx, j;
  mrtq_vta_net_layer *L = &m->layer[i];
  const int8_t *xs = (const int8_t *)vtam_tensor(m, in);
  const uint8_t *xu = (const uint8_t *)vtam_tensor(m, in);
  int xu8 = in == 0;
  double *amax = (double *)calloc(o, sizeof(double)), top = 0, sx = m->scale[in];
  int32_t zx = m->zp[in];
  mrtq_vta_conv_plan plan;
  if (m->failed || i >= VTAM_MAX_LAYERS || !amax) {
    m->failed = 1;
    free(amax);
    return 0;
  }
  m->w[i] = (int8_t *)malloc(nw), m->bias[i] = (int32_t *)calloc(o, sizeof(int32_t));
  m->m[i] = (mrtq_mult *)calloc(o, sizeof(mrtq_mult)), m->y[i] = (int8_t *)malloc(o * ho * wo);
  if (!m->w[i] || !m->bias[i] || !m->m[i] || !m->y[i]) {
    m->failed = 1;
    free(amax);
    return 0;
  }
  for (j = 0; j < nw; j++) /* a bell-shaped int8 weight: the sum of two uniforms */
    m->w[i][j] = ones ? 1 : (int8_t)((int)(vtam_rand(m) % 128) + (int)(vtam_rand(m) % 128) - 127);
  /* the accumulators on the calibration input: each channel's largest real output */
  for (oc = 0; oc < o; oc++)
    for (oy = 0; oy < ho; oy++)
      for (ox = 0; ox < wo; ox++) {
        int64_t acc = 0;
        for (ci = 0; ci < cg; ci++)
          for (ky = 0; ky < k; ky++)
            for (kx = 0; kx < k; kx++) {
              size_t iy = oy * stride + ky, ix = ox * stride + kx, cc = dw ? oc : ci, at;
              if (iy < pad || ix < pad || iy - pad >= h || ix - pad >= w) continue;
              at = (cc * h + iy - pad) * w + ix - pad;
              acc += (int64_t)((xu8 ? (int32_t)xu[at] : (int32_t)xs[at]) - zx) * m->w[i][((oc * cg + ci) * k + ky) * k + kx];
            }
        {
          double r = (double)acc * sx, a = relu ? r : (r < 0 ? -r : r);
          if (a > amax[oc]) amax[oc] = a;
        }
      }
  for (oc = 0; oc < o; oc++)
    if (amax[oc] > top) top = amax[oc];
  if (!(top > 0)) top = sx;
  /* output: [0, top] onto [-128, 127] after a ReLU, else [-top, top] onto [-127, 127] */
  m->scale[i + 1] = relu ? top / 255.0 : top / 127.0, m->zp[i + 1] = relu ? -128 : 0;
  for (oc = 0; oc < o; oc++) mrtq_mult_q15(sx / m->scale[i + 1], &m->m[i][oc]);
  memset(L, 0, sizeof *L);
  L->op = MRTQ_VTA_NET_CONV, L->in = in;
  L->s.n = 1, L->s.c = c, L->s.h = h, L->s.w = w, L->s.o = o, L->s.kh = L->s.kw = k;
  L->s.stride_h = L->s.stride_w = stride, L->s.pad_h = L->s.pad_w = pad, L->s.dil_h = L->s.dil_w = 1;
  L->s.groups = dw ? c : 1;
  L->q.x_type = xu8 ? MRTQ_U8 : MRTQ_S8, L->q.w_type = MRTQ_S8, L->q.x_zp = zx, L->q.w_zp = 0;
  L->q.bias = m->bias[i], L->q.m = m->m[i], L->q.nm = o;
  L->q.zp = m->zp[i + 1], L->q.qmin = relu ? m->zp[i + 1] : -128, L->q.qmax = 127;
  L->q.rounding = MRTQ_VTA_ROUND_NUDGE;
  L->w = m->w[i];
  m->name[i] = name, m->c[i + 1] = o, m->h[i + 1] = ho, m->wd[i + 1] = wo;
  free(amax);
  {
    mrtq_vta_config cfg = mrtq_vta_config_default();
    if (mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &L->s, &L->q, L->w, &plan) != MRTQ_OK ||
        mrtq_vta_conv_ref(&plan, &L->q, MRTQ_NCHW, vtam_tensor(m, in), L->w, m->y[i]) != MRTQ_OK) {
      m->failed = 1;
      return 0;
    }
  }
  m->nlayers++;
  return i + 1;
}

static inline size_t vtam_maxpool(vtam *m, const char *name, size_t in, size_t k, size_t stride, size_t pad) {
  size_t i = m->nlayers, c = m->c[in], h = m->h[in], w = m->wd[in];
  size_t ho = (h + 2 * pad - k) / stride + 1, wo = (w + 2 * pad - k) / stride + 1;
  mrtq_vta_net_layer *L = &m->layer[i];
  mrtq_pool2d pp;
  if (m->failed || i >= VTAM_MAX_LAYERS || !(m->y[i] = (int8_t *)malloc(c * ho * wo))) {
    m->failed = 1;
    return 0;
  }
  memset(L, 0, sizeof *L);
  L->op = MRTQ_VTA_NET_MAXPOOL, L->in = in;
  L->s.n = 1, L->s.c = c, L->s.h = h, L->s.w = w, L->s.o = c, L->s.kh = L->s.kw = k;
  L->s.stride_h = L->s.stride_w = stride, L->s.pad_h = L->s.pad_w = pad, L->s.dil_h = L->s.dil_w = 1;
  m->name[i] = name, m->c[i + 1] = c, m->h[i + 1] = ho, m->wd[i + 1] = wo;
  m->scale[i + 1] = m->scale[in], m->zp[i + 1] = m->zp[in];
  memset(&pp, 0, sizeof pp);
  pp.n = 1, pp.c = c, pp.h = h, pp.w = w, pp.kh = pp.kw = k, pp.stride_h = pp.stride_w = stride;
  pp.pad_top = pp.pad_bottom = pp.pad_left = pp.pad_right = pad, pp.layout = MRTQ_NCHW, pp.type = MRTQ_S8;
  if (mrtq_maxpool2d(&pp, vtam_tensor(m, in), -128, 127, m->y[i]) != MRTQ_OK) m->failed = 1;
  m->nlayers++;
  return i + 1;
}

/* out = relu(a + b), the output scale from the largest real sum. */
static inline size_t vtam_add(vtam *m, const char *name, size_t a, size_t b) {
  size_t i = m->nlayers, n = m->c[a] * m->h[a] * m->wd[a], j;
  mrtq_vta_net_layer *L = &m->layer[i];
  const int8_t *ya = (const int8_t *)vtam_tensor(m, a), *yb = (const int8_t *)vtam_tensor(m, b);
  double top = 0;
  if (m->failed || i >= VTAM_MAX_LAYERS || !(m->y[i] = (int8_t *)malloc(n))) {
    m->failed = 1;
    return 0;
  }
  for (j = 0; j < n; j++) {
    double r = m->scale[a] * (ya[j] - m->zp[a]) + m->scale[b] * (yb[j] - m->zp[b]);
    if (r > top) top = r;
  }
  if (!(top > 0)) top = m->scale[a];
  memset(L, 0, sizeof *L);
  L->op = MRTQ_VTA_NET_ADD, L->in = a, L->in2 = b, L->rounding = MRTQ_VTA_ROUND_NUDGE, L->relu = 1;
  m->scale[i + 1] = top / 255.0, m->zp[i + 1] = -128;
  if (mrtq_vta_add_params_init(m->scale[a], m->zp[a], m->scale[b], m->zp[b], m->scale[i + 1], -128, &L->add) !=
          MRTQ_OK ||
      mrtq_vta_add_ref(&L->add, L->rounding, ya, yb, n, m->y[i]) != MRTQ_OK) {
    m->failed = 1;
    return 0;
  }
  /* the ReLU, max(., zp_out = -128), changes no int8 value */
  m->name[i] = name, m->c[i + 1] = m->c[a], m->h[i + 1] = m->h[a], m->wd[i + 1] = m->wd[a];
  m->nlayers++;
  return i + 1;
}

static inline void vtam_free(vtam *m) {
  size_t i;
  for (i = 0; i < VTAM_MAX_LAYERS; i++) free(m->w[i]), free(m->bias[i]), free(m->m[i]), free(m->y[i]);
  free(m->x);
  memset(m, 0, sizeof *m);
}

/* The input: a deterministic 3-channel uint8 image (smooth gradients and
 * texture), scale 1/255, zero point 0. */
static inline void vtam_input(vtam *m, size_t hw, uint64_t seed) {
  size_t c, y, x;
  memset(m, 0, sizeof *m);
  m->rng = seed;
  m->x = (uint8_t *)malloc(3 * hw * hw);
  if (!m->x) {
    m->failed = 1;
    return;
  }
  for (c = 0; c < 3; c++)
    for (y = 0; y < hw; y++)
      for (x = 0; x < hw; x++)
        m->x[(c * hw + y) * hw + x] = (uint8_t)((x * (c + 1) * 255 / hw + y * 128 / hw + (vtam_rand(m) % 32)) % 256);
  m->c[0] = 3, m->h[0] = m->wd[0] = hw, m->scale[0] = 1.0 / 255.0, m->zp[0] = 0;
}

static inline void vtam_finish(vtam *m) {
  m->net.n = 1, m->net.c = 3, m->net.h = m->h[0], m->net.w = m->wd[0], m->net.x_type = MRTQ_U8;
  m->net.layer = m->layer, m->net.nlayers = m->nlayers;
}

/* ResNet-18 (He et al. 2016): 7x7/2 conv, 3x3/2 max pool, four stages of two
 * basic blocks (64, 128, 256, 512 channels; a 1x1/2 projection on the
 * shortcut where a stage starts), global average pooling (a depthwise CONV
 * with a ones kernel) and a 1000-way FC (a 1x1 CONV). 31 layers. */
static inline int vtam_resnet18(vtam *m, size_t hw, uint64_t seed) {
  static const char *names[4][7] = {
      {"l1.0.conv1", "l1.0.conv2", "l1.0.add", "l1.1.conv1", "l1.1.conv2", "l1.1.add", ""},
      {"l2.0.conv1", "l2.0.conv2", "l2.0.down", "l2.0.add", "l2.1.conv1", "l2.1.conv2", "l2.1.add"},
      {"l3.0.conv1", "l3.0.conv2", "l3.0.down", "l3.0.add", "l3.1.conv1", "l3.1.conv2", "l3.1.add"},
      {"l4.0.conv1", "l4.0.conv2", "l4.0.down", "l4.0.add", "l4.1.conv1", "l4.1.conv2", "l4.1.add"}};
  size_t t, st, ch = 64, k;
  vtam_input(m, hw, seed);
  t = vtam_conv(m, "conv1", 0, 64, 7, 2, 3, 0, 1, 0);
  t = vtam_maxpool(m, "maxpool", t, 3, 2, 1);
  for (st = 0; st < 4; st++, ch *= 2) {
    int n = 0;
    for (k = 0; k < 2; k++) {
      size_t a, b, sc = t, s = (st > 0 && k == 0) ? 2 : 1;
      a = vtam_conv(m, names[st][n++], t, ch, 3, s, 1, 0, 1, 0);
      b = vtam_conv(m, names[st][n++], a, ch, 3, 1, 1, 0, 0, 0);
      if (s == 2) sc = vtam_conv(m, names[st][n++], t, ch, 1, 2, 0, 0, 0, 0);
      t = vtam_add(m, names[st][n++], b, sc);
    }
  }
  t = vtam_conv(m, "avgpool", t, ch / 2, m->h[t], 1, 0, 1, 0, 1);
  vtam_conv(m, "fc", t, 1000, 1, 1, 0, 0, 0, 0);
  vtam_finish(m);
  return m->failed ? -1 : 0;
}

/* MobileNet V1 (Howard et al. 2017, width 1.0): 3x3/2 conv, 13 depthwise
 * 3x3 + pointwise 1x1 pairs, global average pooling, 1000-way FC. 29 layers. */
static inline int vtam_mobilenet(vtam *m, size_t hw, uint64_t seed) {
  static const size_t out[13] = {64, 128, 128, 256, 256, 512, 512, 512, 512, 512, 512, 1024, 1024};
  static const size_t str[13] = {1, 2, 1, 2, 1, 2, 1, 1, 1, 1, 1, 2, 1};
  static const char *dwn[13] = {"dw1", "dw2", "dw3", "dw4", "dw5", "dw6", "dw7", "dw8", "dw9", "dw10", "dw11", "dw12", "dw13"};
  static const char *pwn[13] = {"pw1", "pw2", "pw3", "pw4", "pw5", "pw6", "pw7", "pw8", "pw9", "pw10", "pw11", "pw12", "pw13"};
  size_t t, i;
  vtam_input(m, hw, seed);
  t = vtam_conv(m, "conv1", 0, 32, 3, 2, 1, 0, 1, 0);
  for (i = 0; i < 13; i++) {
    t = vtam_conv(m, dwn[i], t, m->c[t], 3, str[i], 1, 1, 1, 0);
    t = vtam_conv(m, pwn[i], t, out[i], 1, 1, 0, 0, 1, 0);
  }
  t = vtam_conv(m, "avgpool", t, 1024, m->h[t], 1, 0, 1, 0, 1);
  vtam_conv(m, "fc", t, 1000, 1, 1, 0, 0, 0, 0);
  vtam_finish(m);
  return m->failed ? -1 : 0;
}

#endif /* MRTQ_EXAMPLES_VTA_MODELS_H */
