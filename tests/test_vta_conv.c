/* CONV2D on VTA (mrtq/vta.h): random layers (odd channel counts, padding,
 * stride 1 and 2, dilation, batch, every signedness and zero point, per tensor
 * and per channel, floor and nudge, NCHW and NHWC, three targets, two
 * configurations) and ResNet-18 layer shapes run on the simulator and compared
 * byte for byte with
 *   - an oracle written here: the convolution summed directly over an
 *     explicitly padded copy of the input in 64-bit, then the requant plan's
 *     formula (mrtq_vta_rq_ref, itself proven against the simulator in
 *     test_vta_rq.c) and, where the plan needs no pre-shift, the scalar core;
 *   - mrtq_vta_conv_ref (the library's statement of the layer);
 * plus the plan's cost estimate against the simulator's counters, and layers
 * that do not fit refused with sizes that do fit. */
#include <stdlib.h>

#include "harness.h"
#include "mrtq.h"
#include "mrtq/conv.h"
#include "mrtq/vta.h"

static unsigned char scratch[600 * 1024];
static unsigned char dram_buf[4 << 20];
static mrtq_vta_word words[1 << 16];
static uint32_t uops[4096];
static unsigned long g_layers_run;
static long long compared, layers, cpu_compared;

typedef struct {
  mrtq_vta_conv_shape s;
  mrtq_vta_conv_quant q;
  mrtq_mult m[1024];
  double scale[1024]; /* the real scales m was encoded from */
  int32_t bias[1024];
  mrtq_layout layout;
} layer_t;

static void run_moved(const mrtq_vta_config *cfg, mrtq_vta_profile prof, const layer_t *L, mrtq_vta_conv_plan p,
                      const uint8_t *x, const uint8_t *w, const uint8_t *y0, size_t ny);

/* The oracle: pad the input explicitly with its zero point, then sum. */
static void oracle(const mrtq_vta_conv_plan *p, const layer_t *L, const uint8_t *x, const uint8_t *w, uint8_t *y) {
  const mrtq_vta_conv_shape *s = &L->s;
  size_t hp = s->h + 2 * s->pad_h, wp = s->w + 2 * s->pad_w, n, c, i, j, o, oy, ox, ky, kx;
  const int dw = s->groups > 1;
  const size_t cg = dw ? 1 : s->c;
  int32_t *xp = (int32_t *)malloc(s->n * s->c * hp * wp * sizeof(int32_t));
  if (!xp) return;
  for (n = 0; n < s->n; n++)
    for (c = 0; c < s->c; c++)
      for (i = 0; i < hp; i++)
        for (j = 0; j < wp; j++) {
          int32_t v = L->q.x_zp; /* padding = the zero point: real 0 */
          if (i >= s->pad_h && i < s->pad_h + s->h && j >= s->pad_w && j < s->pad_w + s->w) {
            size_t yy = i - s->pad_h, xx = j - s->pad_w;
            size_t at = L->layout == MRTQ_NCHW ? ((n * s->c + c) * s->h + yy) * s->w + xx
                                                  : ((n * s->h + yy) * s->w + xx) * s->c + c;
            v = L->q.x_type == MRTQ_U8 ? (int32_t)x[at] : (int32_t)(int8_t)x[at];
          }
          xp[((n * s->c + c) * hp + i) * wp + j] = v;
        }
  for (n = 0; n < s->n; n++)
    for (o = 0; o < s->o; o++)
      for (oy = 0; oy < p->ho; oy++)
        for (ox = 0; ox < p->wo; ox++) {
          int64_t acc = L->q.bias ? L->q.bias[o] : 0;
          mrtq_mult m = L->m[L->q.nm == 1 ? 0 : o];
          int32_t got;
          size_t to;
          for (ky = 0; ky < s->kh; ky++)
            for (kx = 0; kx < s->kw; kx++)
              for (c = 0; c < cg; c++) { /* depthwise: one input channel, o's own */
                size_t wa = L->layout == MRTQ_NCHW ? ((o * cg + c) * s->kh + ky) * s->kw + kx
                                                      : ((o * s->kh + ky) * s->kw + kx) * cg + c;
                size_t ci = dw ? o : c;
                int32_t wv = (L->q.w_type == MRTQ_U8 ? (int32_t)w[wa] : (int32_t)(int8_t)w[wa]) - L->q.w_zp;
                int32_t xv = xp[((n * s->c + ci) * hp + oy * s->stride_h + ky * s->dil_h) * wp + ox * s->stride_w +
                                kx * s->dil_w] - L->q.x_zp;
                acc += (int64_t)xv * wv;
              }
          CHECK(acc >= INT32_MIN && acc <= INT32_MAX);
          got = mrtq_vta_rq_ref(&p->rq, m, (int32_t)acc);
          if (p->rq.pre_shift == 0 && L->q.rounding == MRTQ_VTA_ROUND_NUDGE) { /* the scalar core */
            int64_t v = (int64_t)mrtq_mul_q15_rndnu((int32_t)acc, m) + L->q.zp;
            CHECK_EQ(got, v < L->q.qmin ? L->q.qmin : v > L->q.qmax ? L->q.qmax : v, "core");
          }
          to = L->layout == MRTQ_NCHW ? ((n * s->o + o) * p->ho + oy) * p->wo + ox
                                          : ((n * p->ho + oy) * p->wo + ox) * s->o + o;
          y[to] = (uint8_t)got;
        }
  free(xp);
}

/* Plan, run on the simulator, compare with the oracle and the library's
 * reference; cost estimate against the counters. Returns the plan status. */
static mrtq_status run_layer(const mrtq_vta_config *cfg, mrtq_vta_profile prof, layer_t *L, const uint8_t *x,
                             const uint8_t *w, int print) {
  mrtq_vta_conv_plan p;
  mrtq_vta_sim sim;
  mrtq_status st;
  size_t ny, i, bad = 0;
  uint8_t *y_sim, *y_ref, *y_or;
  memset(&p, 0, sizeof p);
  memset(&sim, 0, sizeof sim);
  st = mrtq_vta_conv_plan_build(cfg, prof, &L->s, &L->q, w, &p);
  if (st != MRTQ_OK) return st;
  ny = L->s.n * L->s.o * p.ho * p.wo;
  y_sim = (uint8_t *)malloc(ny), y_ref = (uint8_t *)malloc(ny), y_or = (uint8_t *)malloc(ny);
  CHECK(y_sim && y_ref && y_or && p.dram_bytes <= sizeof dram_buf && p.insns <= sizeof words / sizeof words[0]);
  if (!y_sim || !y_ref || !y_or || p.dram_bytes > sizeof dram_buf) {
    free(y_sim), free(y_ref), free(y_or);
    return MRTQ_ERANGE;
  }
  CHECK_EQ(mrtq_vta_sim_init(cfg, prof, scratch, sizeof scratch, dram_buf, p.dram_bytes, &sim), MRTQ_OK, "init");
  sim.schedule = (int)(g_layers_run++ % 3); /* round robin, loads first, stores first: same bytes if tokens order all */
  CHECK_EQ(mrtq_vta_conv_run(&p, &L->q, L->layout, x, w, words, sizeof words / sizeof words[0], uops,
                             sizeof uops / sizeof uops[0], &sim, y_sim),
           MRTQ_OK, "run: %s (insn %zu)", sim.error, sim.error_insn);
  CHECK_EQ(mrtq_vta_conv_ref(&p, &L->q, L->layout, x, w, y_ref), MRTQ_OK, "ref");
  oracle(&p, L, x, w, y_or);
  for (i = 0; i < ny; i++) {
    bad += y_sim[i] != y_or[i];
    if (y_sim[i] != y_or[i] && bad < 4) CHECK_EQ(y_sim[i], y_or[i], "output %zu", i);
    if (y_ref[i] != y_or[i]) CHECK_EQ(y_ref[i], y_or[i], "reference %zu", i);
  }
  CHECK_EQ(bad, 0, "mismatching outputs");
  if (!print) run_moved(cfg, prof, L, p, x, w, y_sim, ny);
  if (L->q.rounding == MRTQ_VTA_ROUND_NUDGE && p.rq.pre_shift == 0) { /* exact requant on the device */
    /* the CPU kernel (mrtq/conv.h) with MRTQ_Q15_RNDNU of the same scales gives the same bytes */
    static mrtq_rq rq[1024];
    mrtq_conv2d_shape cs;
    mrtq_qoperand qx, qw;
    size_t o, cpu_bad = 0;
    memset(&cs, 0, sizeof cs), memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
    cs.n = L->s.n, cs.c = L->s.c, cs.h = L->s.h, cs.w = L->s.w, cs.o = L->s.o, cs.kh = L->s.kh, cs.kw = L->s.kw;
    cs.stride_h = L->s.stride_h, cs.stride_w = L->s.stride_w, cs.pad_top = cs.pad_bottom = L->s.pad_h, cs.pad_left = cs.pad_right = L->s.pad_w;
    cs.dil_h = L->s.dil_h, cs.dil_w = L->s.dil_w, cs.groups = L->s.groups > 1 ? L->s.groups : 1;
    cs.layout = L->layout; /* one mrtq_layout for both */
    qx.data = x, qx.type = L->q.x_type, qx.zp = L->q.x_zp;
    qw.data = w, qw.type = L->q.w_type, qw.zp = L->q.w_zp;
    for (o = 0; o < L->q.nm; o++)
      CHECK_EQ(mrtq_rq_init(MRTQ_Q15_RNDNU, L->scale[o], L->q.zp, L->q.qmin, L->q.qmax, &rq[o]), MRTQ_OK, "rq");
    CHECK_EQ(mrtq_conv2d_q8(&cs, rq, L->q.nm, &qx, &qw, L->q.bias, MRTQ_S8, y_ref), MRTQ_OK, "CPU kernel");
    for (i = 0; i < ny; i++) cpu_bad += y_sim[i] != y_ref[i];
    CHECK_EQ(cpu_bad, 0, "VTA against the CPU conv kernel");
    cpu_compared += (long long)ny;
  }
  /* the plan's cost estimate is what the simulator counted */
  CHECK_EQ(sim.gemm_ops, p.gemm_ops, "GEMM micro-op executions");
  CHECK_EQ(sim.alu_ops, p.alu_ops, "ALU micro-op executions");
  CHECK_EQ(sim.load_bytes[MRTQ_VTA_MEM_INP], p.load_bytes[MRTQ_VTA_MEM_INP], "INP bytes");
  CHECK_EQ(sim.load_bytes[MRTQ_VTA_MEM_WGT], p.load_bytes[MRTQ_VTA_MEM_WGT], "WGT bytes");
  CHECK_EQ(sim.load_bytes[MRTQ_VTA_MEM_ACC], p.load_bytes[MRTQ_VTA_MEM_ACC], "ACC bytes");
  CHECK(sim.load_bytes[MRTQ_VTA_MEM_UOP] <= p.load_bytes[MRTQ_VTA_MEM_UOP]);
  CHECK_EQ(sim.store_bytes, p.store_bytes, "OUT bytes");
  CHECK_EQ(sim.finish_count, 1, "one FINISH");
  compared += (long long)ny;
  layers++;
  if (print)
    printf("  %zux%zux%zux%zu -> %zu, %zux%zu s%zu p%zu: %zu instructions, %llu uop bytes, %llu GEMM + %llu ALU "
           "micro-ops, %llu B in / %llu B wgt / %llu B acc / %llu B out, pre-shift %d, %zu outputs equal\n",
           L->s.n, L->s.c, L->s.h, L->s.w, L->s.o, L->s.kh, L->s.kw, L->s.stride_h, L->s.pad_h, p.insns,
           (unsigned long long)sim.load_bytes[MRTQ_VTA_MEM_UOP], (unsigned long long)p.gemm_ops,
           (unsigned long long)p.alu_ops, (unsigned long long)p.load_bytes[MRTQ_VTA_MEM_INP],
           (unsigned long long)p.load_bytes[MRTQ_VTA_MEM_WGT], (unsigned long long)p.load_bytes[MRTQ_VTA_MEM_ACC],
           (unsigned long long)p.store_bytes, p.rq.pre_shift, ny);
  free(y_sim), free(y_ref), free(y_or);
  return MRTQ_OK;
}

/* The same layer with its buffers moved (as tvm-vta's runtime places them):
 * a random order from a base above 0, random gaps of whole elements, DRAM
 * outside the buffers filled with a canary that must survive; the output
 * must equal the default layout's y0. */
static long long moved_layers;
static void run_moved(const mrtq_vta_config *cfg, mrtq_vta_profile prof, const layer_t *L, mrtq_vta_conv_plan p,
                      const uint8_t *x, const uint8_t *w, const uint8_t *y0, size_t ny) {
  const size_t batch = (size_t)1 << cfg->log_batch, bi = (size_t)1 << cfg->log_block_in, bo = (size_t)1 << cfg->log_block_out;
  size_t *off[5] = {&p.uop_off, &p.x_off, &p.w_off, &p.p_off, &p.y_off};
  size_t bytes[5], al = 4 * batch * bo * bi, at, i, j, k, end, order[5] = {0, 1, 2, 3, 4};
  uint8_t *y = (uint8_t *)malloc(ny);
  mrtq_vta_sim sim;
  bytes[0] = p.uops * 4, bytes[1] = p.x_bytes, bytes[2] = p.w_bytes, bytes[3] = p.p_bytes, bytes[4] = p.y_bytes;
  for (i = 5; i > 1; i--) j = (size_t)th_range(0, (int64_t)i - 1), k = order[i - 1], order[i - 1] = order[j], order[j] = k;
  at = al * (size_t)th_range(1, 64); /* never address 0 */
  for (i = 0; i < 5; i++) {
    *off[order[i]] = at;
    at += (bytes[order[i]] + al - 1) / al * al + al * (size_t)th_range(0, 3);
  }
  end = at;
  if (!y || end > sizeof dram_buf) {
    free(y);
    return;
  }
  memset(dram_buf, 0xA5, end);
  CHECK_EQ(mrtq_vta_sim_init(cfg, prof, scratch, sizeof scratch, dram_buf, end, &sim), MRTQ_OK, "init");
  CHECK_EQ(mrtq_vta_conv_run(&p, &L->q, L->layout, x, w, words, sizeof words / sizeof words[0], uops,
                             sizeof uops / sizeof uops[0], &sim, y),
           MRTQ_OK, "moved run: %s", sim.error);
  CHECK_EQ(memcmp(y, y0, ny), 0, "moved buffers, same output");
  { /* every byte outside the buffers kept its canary */
    size_t bad = 0, b;
    for (b = 0; b < end; b++) {
      int in = 0;
      for (i = 0; i < 5; i++) in |= b >= *off[i] && b < *off[i] + bytes[i];
      bad += !in && dram_buf[b] != 0xA5;
    }
    CHECK_EQ(bad, 0, "DRAM bytes written outside the buffers");
  }
  moved_layers++;
  free(y);
}

/* Random data: weights generated as W' = W - zw in int8, so they fit. */
static void fill(layer_t *L, uint8_t *x, uint8_t *w, int small_acc) {
  size_t nx = L->s.n * L->s.c * L->s.h * L->s.w, nw = L->s.o * (L->s.groups > 1 ? 1 : L->s.c) * L->s.kh * L->s.kw, i;
  for (i = 0; i < nx; i++) x[i] = (uint8_t)th_rand32();
  for (i = 0; i < nw; i++) {
    int32_t v = (int32_t)th_range(small_acc ? -8 : -128, small_acc ? 8 : 127) + L->q.w_zp;
    if (L->q.w_type == MRTQ_U8 ? v < 0 || v > 255 : v < -128 || v > 127) v = L->q.w_zp;
    w[i] = (uint8_t)v;
  }
}

static void set_quant(layer_t *L, int per_channel, int rounding, double scale) {
  size_t o;
  L->q.m = L->m, L->q.nm = per_channel ? L->s.o : 1, L->q.bias = L->bias, L->q.rounding = rounding;
  for (o = 0; o < L->s.o && o < 1024; o++) {
    L->scale[o] = scale * (0.6 + 0.8 * (double)(th_rand32() % 1000u) / 1000.0);
    mrtq_mult_q15(L->scale[o], &L->m[o]);
    L->bias[o] = (int32_t)th_range(-3000, 3000);
  }
  L->q.zp = (int32_t)th_range(-10, 10);
  L->q.qmin = -128, L->q.qmax = 127;
}

static void test_random_layers(void) {
  static uint8_t x[200000], w[200000];
  int dw_layers = 0;
  mrtq_vta_config cfgs[2];
  int trial, refused_hls = 0, ran = 0;
  cfgs[0] = mrtq_vta_config_default();
  cfgs[1] = mrtq_vta_config_default();
  cfgs[1].log_batch = 1;
  for (trial = 0; trial < 90; trial++) {
    layer_t L;
    int ci = trial % 5 == 4, per_channel = (int)(th_rand32() & 1u), small = (int)(th_rand32() % 3u == 0);
    mrtq_vta_profile prof = trial % 3 == 0 ? MRTQ_VTA_PROFILE_HLS : trial % 3 == 1 ? MRTQ_VTA_PROFILE_SIM
                                                                                   : MRTQ_VTA_PROFILE_OPENCL;
    mrtq_status st;
    memset(&L, 0, sizeof L);
    L.s.n = (size_t)th_range(1, 3), L.s.c = (size_t)th_range(1, 40), L.s.o = (size_t)th_range(1, 40);
    L.s.h = (size_t)th_range(1, 12), L.s.w = (size_t)th_range(1, 12);
    L.s.kh = (size_t)th_range(1, 3), L.s.kw = (size_t)th_range(1, 3);
    if (trial % 7 == 0) L.s.kh = L.s.kw = 5;
    L.s.stride_h = (size_t)th_range(1, 2), L.s.stride_w = (size_t)th_range(1, 2);
    L.s.pad_h = (size_t)th_range(0, 2), L.s.pad_w = (size_t)th_range(0, 2);
    L.s.dil_h = trial % 6 == 5 ? 2 : 1, L.s.dil_w = trial % 6 == 5 ? 2 : 1;
    while ((L.s.kh - 1) * L.s.dil_h + 1 > L.s.h + 2 * L.s.pad_h) L.s.pad_h++;
    while ((L.s.kw - 1) * L.s.dil_w + 1 > L.s.w + 2 * L.s.pad_w) L.s.pad_w++;
    if (trial % 4 == 1) L.s.o = L.s.c, L.s.groups = L.s.c, dw_layers++; /* depthwise */
    L.layout = (th_rand32() & 1u) ? MRTQ_NHWC : MRTQ_NCHW;
    L.q.x_type = (th_rand32() & 1u) ? MRTQ_U8 : MRTQ_S8, L.q.w_type = (th_rand32() & 1u) ? MRTQ_U8 : MRTQ_S8;
    L.q.x_zp = L.q.x_type == MRTQ_U8 ? (int32_t)th_range(0, 255) : (int32_t)th_range(-128, 127);
    L.q.w_zp = L.q.w_type == MRTQ_U8 ? (int32_t)th_range(100, 155) : (th_rand32() & 1u) ? 0 : (int32_t)th_range(-5, 5);
    /* small weights keep the accumulator within 17 bits: no pre-shift, the scalar core applies */
    set_quant(&L, per_channel, (int)(th_rand32() & 1u), small ? 1.0 / 64 : 1.0 / 2048);
    fill(&L, x, w, small);
    st = run_layer(&cfgs[ci], prof, &L, x, w, 0);
    if (prof == MRTQ_VTA_PROFILE_HLS && per_channel && L.s.o > 1) { /* no MUL: per-channel requant needs a power-of-two scale */
      CHECK_EQ(st, MRTQ_EUNSUPPORTED, "HLS per channel");
      refused_hls++;
      continue;
    }
    CHECK_EQ(st, MRTQ_OK, "trial %d: %zux%zux%zux%zu o=%zu k=%zux%zu", trial, L.s.n, L.s.c, L.s.h, L.s.w, L.s.o,
             L.s.kh, L.s.kw);
    ran += st == MRTQ_OK;
  }
  CHECK(ran > 60 && refused_hls > 0 && moved_layers > 50 && dw_layers > 15);
  printf("  random layers: %d run (%d depthwise), %d refused (per channel on HLS), %lld outputs compared; %lld layers "
         "again with their buffers moved\n", ran, dw_layers, refused_hls, compared, moved_layers);
}

/* ResNet-18's convolution shapes (ImageNet, batch 1), per-channel nudge. The
 * 56x56 and 28x28 stages run at their real size; conv1 (7x7/2 on 224x224) is
 * cut to 58 input rows to keep the test short (same width, channels, kernel). */
static void test_resnet18(void) {
  static uint8_t x[224 * 224 * 64], w[512 * 512 * 9];
  static const size_t shapes[][7] = {
      /* c, h, w, o, k, stride, pad */
      {3, 58, 224, 64, 7, 2, 3},  {64, 56, 56, 64, 3, 1, 1},  {64, 56, 56, 128, 3, 2, 1}, {64, 56, 56, 128, 1, 2, 0},
      {128, 28, 28, 128, 3, 1, 1}, {128, 28, 28, 256, 3, 2, 1}, {256, 14, 14, 256, 3, 1, 1},
      {256, 14, 14, 512, 3, 2, 1}, {512, 7, 7, 512, 3, 1, 1},
  };
  mrtq_vta_config cfg = mrtq_vta_config_default();
  size_t i;
  for (i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    layer_t L;
    mrtq_status st;
    memset(&L, 0, sizeof L);
    L.s.n = 1, L.s.c = shapes[i][0], L.s.h = shapes[i][1], L.s.w = shapes[i][2], L.s.o = shapes[i][3];
    L.s.kh = L.s.kw = shapes[i][4], L.s.stride_h = L.s.stride_w = shapes[i][5];
    L.s.pad_h = L.s.pad_w = shapes[i][6], L.s.dil_h = L.s.dil_w = 1;
    L.layout = i % 2 ? MRTQ_NHWC : MRTQ_NCHW;
    L.q.x_type = L.q.w_type = MRTQ_S8;
    L.q.x_zp = (int32_t)th_range(-20, 20);
    set_quant(&L, 1, MRTQ_VTA_ROUND_NUDGE, 1.0 / 4096);
    fill(&L, x, w, 0);
    st = run_layer(&cfg, MRTQ_VTA_PROFILE_SIM, &L, x, w, 1);
    CHECK_EQ(st, MRTQ_OK, "ResNet-18 layer %zu", i);
  }
}

/* MobileNet V1's depthwise layers (ImageNet, batch 1), per-channel nudge:
 * the 112x112 and 56x56 ones cut to 20 input rows (same width, channels,
 * kernel, stride) to keep the test short; the rest at their real size. */
static void test_mobilenet_dw(void) {
  static uint8_t x[112 * 112 * 64], w[1024 * 9];
  static const size_t shapes[][4] = {/* c, h, w, stride */
                                     {32, 20, 112, 1}, {64, 20, 112, 2}, {128, 20, 56, 1}, {128, 20, 56, 2},
                                     {256, 28, 28, 1}, {256, 28, 28, 2}, {512, 14, 14, 1}, {512, 14, 14, 2},
                                     {1024, 7, 7, 1}};
  mrtq_vta_config cfg = mrtq_vta_config_default();
  size_t i;
  for (i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    layer_t L;
    mrtq_status st;
    memset(&L, 0, sizeof L);
    L.s.n = 1, L.s.c = L.s.o = L.s.groups = shapes[i][0], L.s.h = shapes[i][1], L.s.w = shapes[i][2];
    L.s.kh = L.s.kw = 3, L.s.stride_h = L.s.stride_w = shapes[i][3], L.s.pad_h = L.s.pad_w = 1;
    L.s.dil_h = L.s.dil_w = 1;
    L.layout = i % 2 ? MRTQ_NHWC : MRTQ_NCHW;
    L.q.x_type = MRTQ_U8, L.q.w_type = MRTQ_S8;
    L.q.x_zp = (int32_t)th_range(0, 255);
    set_quant(&L, 1, MRTQ_VTA_ROUND_NUDGE, 1.0 / 256);
    fill(&L, x, w, 0);
    st = run_layer(&cfg, MRTQ_VTA_PROFILE_SIM, &L, x, w, 1);
    CHECK_EQ(st, MRTQ_OK, "MobileNet depthwise layer %zu", i);
  }
}

static void base_layer(layer_t *L) {
  memset(L, 0, sizeof *L);
  L->s.n = 1, L->s.c = 64, L->s.h = 8, L->s.w = 600, L->s.o = 16, L->s.kh = L->s.kw = 3;
  L->s.stride_h = L->s.stride_w = 1, L->s.pad_h = L->s.pad_w = 1, L->s.dil_h = L->s.dil_w = 1;
  L->q.x_type = L->q.w_type = MRTQ_S8;
  set_quant(L, 0, MRTQ_VTA_ROUND_FLOOR, 1.0 / 4096);
}

static void test_refusals(void) {
  mrtq_vta_config cfg = mrtq_vta_config_default(), fit;
  layer_t L;
  mrtq_vta_conv_plan p;
  static int8_t w[64 * 64 * 9];
  memset(&p, 0, sizeof p);
  base_layer(&L);
  { /* groups: dense or depthwise only; a depthwise layer needs square blocks */
    mrtq_vta_config odd = cfg;
    L.s.groups = 2;
    CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p), MRTQ_EUNSUPPORTED,
                  "s->groups: 0 or 1 (dense) or s->c == s->o (depthwise) only");
    L.s.groups = L.s.c; /* c 64, o 16 */
    CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p), MRTQ_EUNSUPPORTED,
                  "s->groups");
    L.s.o = L.s.c, odd.log_block_in = 3, odd.log_inp_buff_size = 14, odd.log_wgt_buff_size = 17; /* same depths */
    CHECK_REFUSED(mrtq_vta_conv_plan_build(&odd, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p), MRTQ_EUNSUPPORTED,
                  "cfg: a depthwise layer needs BLOCK_IN == BLOCK_OUT");
    base_layer(&L);
  }
  /* 4 channel blocks x 3 rows x 602 columns = 7224 INP entries > 2048 */
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p),
                MRTQ_ERANGE, "tiles do not fit");
  CHECK(strstr(p.why, "log_inp_buff_size 17") != NULL);
  fit = cfg;
  fit.log_inp_buff_size = 17; /* the size the message names is enough for the tiles */
  /* but with 8192 INP entries the GEMM instruction needs 2 (11 + 13 + 10) = 68 bits in its upper word and the
   * micro-op 34 bits (issue 22 a): refused as such, where the plan used to be built */
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&fit, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p), MRTQ_EUNSUPPORTED,
                "exceed 128 bits");
  fit.log_wgt_buff_size = 14; /* 64 WGT entries (36 needed): 2 (11 + 13 + 6) = 60 bits, micro-op 30 */
  CHECK_EQ(mrtq_vta_conv_plan_build(&fit, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p), MRTQ_OK, "fits");
  fit.log_inp_buff_size = 16; /* and one less is not */
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&fit, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p),
                MRTQ_ERANGE, "tiles do not fit");
  /* weights of a 16-channel block: 2000 channels x 9 > 1024 WGT entries */
  L.s.w = 8, L.s.c = 2000; /* 125 blocks x 9 = 1125 entries */
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p),
                MRTQ_ERANGE, "tiles do not fit");
  CHECK(strstr(p.why, "log_wgt_buff_size 19") != NULL);
  { /* a kernel whose smallest tiling alone needs more than MRTQ_VTA_CONV_UOPS micro-ops still plans (a 32x32
       global average pooling as a depthwise CONV): the cap never refuses what the UOP SRAM holds */
    mrtq_vta_config big = cfg;
    static layer_t G;
    mrtq_vta_conv_plan gp;
    G = L;
    big.log_acc_buff_size = 16, big.log_wgt_buff_size = 19;
    G.s.n = 1, G.s.c = G.s.o = G.s.groups = 16, G.s.h = G.s.w = 32, G.s.kh = G.s.kw = 32;
    G.s.stride_h = G.s.stride_w = 1, G.s.pad_h = G.s.pad_w = 0, G.s.dil_h = G.s.dil_w = 1, G.q.m = G.m, G.q.nm = 1;
    CHECK_EQ(mrtq_vta_conv_plan_build(&big, MRTQ_VTA_PROFILE_SIM, &G.s, &G.q, NULL, &gp), MRTQ_OK, "32x32 kernel");
    CHECK(gp.uops > MRTQ_VTA_CONV_UOPS && gp.strip == 1 && gp.grp == 1);
  }
  { /* the plan written on that refusal (for its why) has no tiling: the builder and the runner refuse it */
    mrtq_vta_prog prog;
    static uint8_t d[4096];
    CHECK_EQ(mrtq_vta_prog_init(&cfg, words, 64, uops, 64, &prog), MRTQ_OK, "prog");
    p.uop_off = p.x_off = p.w_off = p.p_off = p.y_off = 0, p.x_bytes = p.w_bytes = p.p_bytes = p.y_bytes = 0;
    CHECK_REFUSED(mrtq_vta_conv_build(&p, &prog, d, sizeof d), MRTQ_EINVAL, "cp: not a plan mrtq_vta_conv_plan_build");
  }
  /* the accumulator could overflow */
  L.s.c = 40000, L.s.kh = L.s.kw = 1, L.s.pad_h = L.s.pad_w = 0;
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p),
                MRTQ_EOVERFLOW, "overflow int32");
  /* shapes: every field's own reason */
  {
    static const struct {
      int field;
      size_t value;
      const char *why;
    } cases[] = {{0, 0, "s->n:"},        {1, 0, "s->c:"},        {2, 70000, "s->h:"},       {3, 0, "s->w:"},
                 {4, 65536, "s->o:"},    {5, 0, "s->kh:"},       {6, 256, "s->kw:"},        {7, 0, "s->stride_h:"},
                 {8, 256, "s->stride_w:"}, {9, 0, "s->dil_h:"},  {10, 0, "s->dil_w:"},      {11, 256, "s->pad_h:"},
                 {12, 300, "s->pad_w:"},   {2, 1, "s->kh, s->dil_h: the dilated kernel is taller"},
                 {3, 1, "s->kw, s->dil_w: the dilated kernel is wider"}};
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      mrtq_vta_conv_shape sh;
      size_t *f[13];
      base_layer(&L);
      L.s.w = 8, L.s.pad_h = L.s.pad_w = 0;
      sh = L.s;
      f[0] = &sh.n, f[1] = &sh.c, f[2] = &sh.h, f[3] = &sh.w, f[4] = &sh.o, f[5] = &sh.kh, f[6] = &sh.kw;
      f[7] = &sh.stride_h, f[8] = &sh.stride_w, f[9] = &sh.dil_h, f[10] = &sh.dil_w, f[11] = &sh.pad_h;
      f[12] = &sh.pad_w;
      *f[cases[i].field] = cases[i].value;
      CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &sh, &L.q, NULL, &p), MRTQ_ESHAPE,
                    cases[i].why);
    }
  }
  base_layer(&L);
  L.s.w = 8;
  CHECK_REFUSED(mrtq_vta_conv_plan_build(NULL, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p), MRTQ_EINVAL, "cfg: NULL");
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, NULL, &L.q, NULL, &p), MRTQ_EINVAL, "s: NULL");
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &L.s, NULL, NULL, &p), MRTQ_EINVAL, "q: NULL");
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, NULL),
                MRTQ_EINVAL, "plan: NULL");
  L.q.nm = 3;
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p), MRTQ_EINVAL, "q->nm");
  L.q.nm = 1, L.q.m = NULL;
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p), MRTQ_EINVAL, "q->m: NULL");
  L.q.m = L.m;
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, (mrtq_vta_profile)4, &L.s, &L.q, NULL, &p), MRTQ_EINVAL, "target");
  L.q.rounding = 2;
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p), MRTQ_EINVAL, "q->rounding");
  L.q.rounding = MRTQ_VTA_ROUND_FLOOR, L.q.x_type = MRTQ_S16;
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p),
                MRTQ_EUNSUPPORTED, "q->x_type");
  L.q.x_type = (mrtq_dtype)0; /* a zero-initialised operand is no type */
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p),
                MRTQ_EUNSUPPORTED, "q->x_type");
  L.q.x_type = MRTQ_U8, L.q.w_type = MRTQ_S4;
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p),
                MRTQ_EUNSUPPORTED, "q->w_type");
  L.q.w_type = MRTQ_S8, L.q.x_zp = 256;
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p), MRTQ_EINVAL, "q->x_zp");
  L.q.x_type = MRTQ_S8, L.q.x_zp = 200; /* a U8 zero point with S8 data */
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p), MRTQ_EINVAL, "q->x_zp");
  L.q.x_zp = 0, L.q.w_zp = -1, L.q.w_type = MRTQ_U8;
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p), MRTQ_EINVAL, "q->w_zp");
  L.q.w_type = MRTQ_S8, L.q.w_zp = 127;
  memset(w, 0xf0, sizeof w); /* -16 - 127 does not fit int8 */
  L.s.c = 64, L.s.o = 64;
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, w, &p), MRTQ_ERANGE, "w_any");
  L.q.w_zp = 0;
  /* the requant plan's refusals pass through, reported once */
  L.q.qmin = -300;
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p), MRTQ_ERANGE, "qmin, qmax");
  L.q.qmin = -128;
  { /* configurations the simulator and drivers do not model */
    mrtq_vta_config c = cfg;
    c.log_acc_width = 4;
    CHECK_REFUSED(mrtq_vta_conv_plan_build(&c, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p),
                  MRTQ_EUNSUPPORTED, "cfg: VTA CONV2D takes 8-bit");
    c = cfg, c.log_batch = 1, c.log_block_out = 8;
    CHECK_REFUSED(mrtq_vta_conv_plan_build(&c, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p),
                  MRTQ_EUNSUPPORTED, "batch * BLOCK_OUT");
    c = cfg, c.log_block_in = 9;
    CHECK_REFUSED(mrtq_vta_conv_plan_build(&c, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p),
                  MRTQ_EINVAL, "cfg->log_block_in");
  }
  { /* a DRAM image beyond 32-bit addresses */
    mrtq_vta_conv_shape big = L.s;
    big.n = 65535, big.c = 16, big.h = 100, big.w = 1000, big.o = 16, big.kh = big.kw = 1, big.pad_h = big.pad_w = 0;
    CHECK_REFUSED(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &big, &L.q, NULL, &p),
                  MRTQ_ERANGE, "exceeds 2^32 bytes");
  }
}

/* Issue 22 (a): configurations whose instructions or micro-ops the program
 * builder cannot encode are refused by the plan with a reason (the run used
 * to fail later with an empty sim->error). */
static void test_unencodable_configs(void) {
  mrtq_vta_config c = mrtq_vta_config_default();
  layer_t L;
  mrtq_vta_conv_plan p;
  base_layer(&L);
  L.s.w = 8;
  memset(&p, 0, sizeof p);
  CHECK_EQ(mrtq_vta_conv_plan_build(&c, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p), MRTQ_OK, "default");
  c.log_wgt_buff_size = 19; /* micro-op: 11 + 11 + 11 = 33 bits */
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&c, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p), MRTQ_EUNSUPPORTED, "cfg:");
  {
    mrtq_vta_uop u = {0, 0, 0};
    uint32_t word;
    CHECK_REFUSED(mrtq_vta_uop_encode(&c, &u, &word), MRTQ_EINVAL, "more than 32 bits"); /* what the builder met */
  }
  c = mrtq_vta_config_default();
  c.log_acc_buff_size = 18; /* the ALU instruction exceeds 128 bits */
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&c, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p),
                MRTQ_EUNSUPPORTED, "exceed 128 bits");
  /* the instructions fit 128 bits but the micro-op does not: ACC 11, INP 10, WGT 11 bits -> 11 + 11 + 11 */
  c = mrtq_vta_config_default();
  c.log_inp_buff_size = 14, c.log_wgt_buff_size = 19;
  CHECK_REFUSED(mrtq_vta_conv_plan_build(&c, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p), MRTQ_EUNSUPPORTED,
                "micro-op needs more than 32 bits");
  c.log_wgt_buff_size = 18; /* 11 + 11 + 10 = 32: fits */
  CHECK_EQ(mrtq_vta_conv_plan_build(&c, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, NULL, &p), MRTQ_OK, "32-bit micro-ops");
}

/* The packers, the builder, the runner and the reference: each refusal names
 * its argument, and writes nothing. */
static void test_driver_refusals(void) {
  static uint8_t x[8 * 8 * 8], w[16 * 8 * 9], y[16 * 8 * 8];
  static uint32_t small_uops[4];
  mrtq_vta_config cfg = mrtq_vta_config_default();
  layer_t L;
  mrtq_vta_conv_plan p;
  mrtq_vta_sim sim;
  mrtq_vta_prog prog;
  int8_t *dst = (int8_t *)(void *)(dram_buf + 4096);
  base_layer(&L);
  L.s.c = 8, L.s.h = 8, L.s.w = 8;
  memset(&p, 0, sizeof p), memset(&sim, 0, sizeof sim), memset(&prog, 0, sizeof prog);
  fill(&L, x, w, 1);
  CHECK_EQ(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &L.s, &L.q, w, &p), MRTQ_OK, "plan");
  CHECK_REFUSED(mrtq_vta_conv_pack_input(&cfg, &p, &L.q, (mrtq_layout)2, x, dst), MRTQ_EINVAL, "layout");
  CHECK_REFUSED(mrtq_vta_conv_pack_input(NULL, &p, &L.q, MRTQ_NCHW, x, dst), MRTQ_EINVAL, "cfg: NULL");
  CHECK_REFUSED(mrtq_vta_conv_pack_input(&cfg, NULL, &L.q, MRTQ_NCHW, x, dst), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_vta_conv_pack_input(&cfg, &p, NULL, MRTQ_NCHW, x, dst), MRTQ_EINVAL, "q: NULL");
  CHECK_REFUSED(mrtq_vta_conv_pack_input(&cfg, &p, &L.q, MRTQ_NCHW, NULL, dst), MRTQ_EINVAL, "x: NULL");
  CHECK_REFUSED(mrtq_vta_conv_pack_input(&cfg, &p, &L.q, MRTQ_NCHW, x, NULL), MRTQ_EINVAL, "dst: NULL");
  L.q.w_type = MRTQ_S16;
  CHECK_REFUSED(mrtq_vta_conv_pack_weights(&cfg, &p, &L.q, MRTQ_NCHW, w, dst), MRTQ_EUNSUPPORTED, "q->w_type");
  L.q.w_type = MRTQ_S8;
  CHECK_REFUSED(mrtq_vta_conv_pack_weights(&cfg, &p, &L.q, MRTQ_NCHW, NULL, dst), MRTQ_EINVAL, "w: NULL");
  L.q.w_zp = 127; /* the data has W - 127 below -128 somewhere */
  memset(dst, 0x77, 64);
  CHECK_REFUSED(mrtq_vta_conv_pack_weights(&cfg, &p, &L.q, MRTQ_NCHW, w, dst), MRTQ_ERANGE, "w: some W - q->w_zp");
  CHECK(dst[0] == 0x77 && dst[63] == 0x77); /* nothing written */
  L.q.w_zp = 0;
  L.q.m = NULL;
  CHECK_REFUSED(mrtq_vta_conv_pack_params(&cfg, &p, &L.q, MRTQ_NCHW, w, dram_buf), MRTQ_EINVAL, "q->m: NULL");
  L.q.m = L.m;
  {
    mrtq_vta_config c2 = cfg;
    mrtq_vta_conv_plan p4 = p;
    c2.log_batch = 5; /* 512 lanes: not the plan's configuration */
    CHECK_REFUSED(mrtq_vta_conv_pack_params(&c2, &p, &L.q, MRTQ_NCHW, w, dram_buf),
                  MRTQ_EUNSUPPORTED, "batch * BLOCK_OUT");
    p4.param_rows = 4;
    CHECK_REFUSED(mrtq_vta_conv_pack_params(&cfg, &p4, &L.q, MRTQ_NCHW, w, dram_buf),
                  MRTQ_EUNSUPPORTED, "p->param_rows");
  }
  { /* a per-channel plan handed multipliers it cannot carry */
    layer_t P = L;
    mrtq_vta_conv_plan pp;
    memset(&pp, 0, sizeof pp);
    set_quant(&P, 1, MRTQ_VTA_ROUND_NUDGE, 1.0 / 4096);
    CHECK_EQ(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &P.s, &P.q, w, &pp), MRTQ_OK, "per-channel plan");
    P.m[3].mult = 5;
    CHECK_REFUSED(mrtq_vta_conv_pack_params(&cfg, &pp, &P.q, MRTQ_NCHW, w, dram_buf), MRTQ_ERANGE, "q->m: a channel");
  }
  CHECK_REFUSED(mrtq_vta_conv_unpack_output(&cfg, &p, MRTQ_NCHW, NULL, y), MRTQ_EINVAL, "src: NULL");
  CHECK_REFUSED(mrtq_vta_conv_unpack_output(&cfg, &p, MRTQ_NCHW, dram_buf, NULL), MRTQ_EINVAL, "y: NULL");
  CHECK_REFUSED(mrtq_vta_conv_unpack_output(&cfg, &p, (mrtq_layout)7, dram_buf, y), MRTQ_EINVAL, "layout");
  CHECK_REFUSED(mrtq_vta_conv_unpack_output(&cfg, NULL, MRTQ_NCHW, dram_buf, y), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_vta_conv_unpack_output(NULL, &p, MRTQ_NCHW, dram_buf, y), MRTQ_EINVAL, "cfg: NULL");
  CHECK_REFUSED(mrtq_vta_conv_ref(&p, &L.q, MRTQ_NHWC, x, w, NULL), MRTQ_EINVAL, "y: NULL");
  CHECK_REFUSED(mrtq_vta_conv_ref(NULL, &L.q, MRTQ_NHWC, x, w, y), MRTQ_EINVAL, "cp: NULL");
  CHECK_REFUSED(mrtq_vta_conv_run(NULL, &L.q, MRTQ_NCHW, x, w, words, 1, uops, 1, &sim, y), MRTQ_EINVAL, "cp: NULL");
  CHECK_REFUSED(mrtq_vta_conv_ref(&p, NULL, MRTQ_NHWC, x, w, y), MRTQ_EINVAL, "q: NULL");
  CHECK_REFUSED(mrtq_vta_conv_ref(&p, &L.q, MRTQ_NHWC, x, NULL, y), MRTQ_EINVAL, "w: NULL");
  L.q.m = NULL;
  CHECK_REFUSED(mrtq_vta_conv_ref(&p, &L.q, MRTQ_NHWC, x, w, y), MRTQ_EINVAL, "q->m: NULL");
  L.q.m = L.m, L.q.x_type = MRTQ_S32;
  CHECK_REFUSED(mrtq_vta_conv_ref(&p, &L.q, MRTQ_NHWC, x, w, y), MRTQ_EUNSUPPORTED, "q->x_type");
  L.q.x_type = MRTQ_S8;
  CHECK_EQ(mrtq_vta_sim_init(&cfg, MRTQ_VTA_PROFILE_SIM, scratch, sizeof scratch, dram_buf, p.dram_bytes - 1, &sim),
           MRTQ_OK, "init");
  CHECK_REFUSED(mrtq_vta_conv_run(&p, &L.q, MRTQ_NCHW, x, w, words, p.insns, uops, p.uops, &sim, y), MRTQ_ERANGE,
                "dram_bytes: a buffer (offset + size) ends beyond it");
  CHECK_EQ(mrtq_vta_sim_init(&cfg, MRTQ_VTA_PROFILE_SIM, scratch, sizeof scratch, dram_buf, p.dram_bytes, &sim),
           MRTQ_OK, "init");
  CHECK_REFUSED(mrtq_vta_conv_run(&p, &L.q, MRTQ_NCHW, x, w, words, p.insns - 1, uops, p.uops, &sim, y), MRTQ_ERANGE,
                "cap: below cp->insns");
  CHECK_REFUSED(mrtq_vta_conv_run(&p, &L.q, MRTQ_NCHW, x, w, words, p.insns, small_uops, p.uops - 1, &sim, y),
                MRTQ_ERANGE, "uop_cap");
  CHECK_REFUSED(mrtq_vta_conv_run(&p, &L.q, MRTQ_NCHW, x, w, NULL, p.insns, uops, p.uops, &sim, y), MRTQ_EINVAL,
                "words: NULL");
  CHECK_REFUSED(mrtq_vta_conv_run(&p, &L.q, MRTQ_NCHW, x, w, words, p.insns, NULL, p.uops, &sim, y), MRTQ_EINVAL,
                "uops: NULL");
  CHECK_REFUSED(mrtq_vta_conv_run(&p, &L.q, MRTQ_NCHW, x, w, words, p.insns, uops, p.uops, NULL, y), MRTQ_EINVAL,
                "sim: NULL");
  CHECK_REFUSED(mrtq_vta_conv_run(&p, &L.q, MRTQ_NCHW, NULL, w, words, p.insns, uops, p.uops, &sim, y), MRTQ_EINVAL,
                "x: NULL");
  CHECK_REFUSED(mrtq_vta_conv_run(&p, &L.q, MRTQ_NCHW, x, w, words, p.insns, uops, p.uops, &sim, NULL), MRTQ_EINVAL,
                "y: NULL");
  CHECK_EQ(mrtq_vta_conv_run(&p, &L.q, MRTQ_NCHW, x, w, words, p.insns, uops, p.uops, &sim, y), MRTQ_OK, "fits");
  CHECK_EQ(mrtq_vta_prog_init(&cfg, words, p.insns, uops, p.uops, &prog), MRTQ_OK, "prog");
  CHECK_REFUSED(mrtq_vta_conv_build(&p, &prog, dram_buf, p.dram_bytes - 1),
                MRTQ_ERANGE, "dram_bytes: a buffer (offset + size) ends beyond it");
  { /* the placement: alignment, overlap, 32-bit element indices */
    mrtq_vta_conv_plan q = p;
    q.x_off += 1;
    CHECK_REFUSED(mrtq_vta_conv_build(&q, &prog, dram_buf, sizeof dram_buf), MRTQ_EINVAL,
                  "offsets: a buffer does not start on its DRAM element");
    q = p, q.uop_off = 2;
    CHECK_REFUSED(mrtq_vta_conv_build(&q, &prog, dram_buf, sizeof dram_buf), MRTQ_EINVAL, "offsets: a buffer does not start");
    q = p, q.y_off = q.p_off;
    CHECK_REFUSED(mrtq_vta_conv_build(&q, &prog, dram_buf, sizeof dram_buf), MRTQ_EINVAL, "offsets: two buffers overlap");
    q = p, q.uop_off = q.x_off + 4;
    CHECK_REFUSED(mrtq_vta_conv_build(&q, &prog, dram_buf, sizeof dram_buf), MRTQ_EINVAL, "offsets: two buffers overlap");
    q = p, q.y_off = (size_t)1 << 40; /* 2^40 / 16-byte OUT elements: indices beyond 32 bits */
    CHECK_REFUSED(mrtq_vta_conv_build(&q, &prog, dram_buf, (size_t)1 << 41), MRTQ_ERANGE,
                  "offsets: a buffer's last element index beyond 32 bits");
    CHECK_EQ(prog.status, MRTQ_OK, "refused placements leave the program as it was");
  }
  CHECK_REFUSED(mrtq_vta_conv_build(NULL, &prog, dram_buf, p.dram_bytes), MRTQ_EINVAL, "cp: NULL");
  CHECK_REFUSED(mrtq_vta_conv_build(&p, NULL, dram_buf, p.dram_bytes), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_vta_conv_build(&p, &prog, NULL, p.dram_bytes), MRTQ_EINVAL, "dram: NULL");
  CHECK_EQ(mrtq_vta_prog_init(&cfg, words, p.insns - 1, uops, p.uops, &prog), MRTQ_OK, "prog");
  CHECK_REFUSED(mrtq_vta_conv_build(&p, &prog, dram_buf, p.dram_bytes), MRTQ_ERANGE, "p->cap: below cp->insns");
}

int main(void) {
  TH_RUN(test_random_layers);
  TH_RUN(test_resnet18);
  TH_RUN(test_mobilenet_dw);
  TH_RUN(test_refusals);
  TH_RUN(test_unencodable_configs);
  TH_RUN(test_driver_refusals);
  printf("  total: %lld layers, %lld outputs compared, 0 mismatches allowed; %lld of them also against the CPU conv "
         "kernel (nudge rounding, Q15_RNDNU)\n", layers, compared, cpu_compared);
  return th_finish("test_vta_conv");
}
