/* TFLite's 16x8 convolution on the fast core (mrtq_fastconv_init_s16x8,
 * mrtq_fastconv_s16x8_acc64 / _acc32; mrtq/fastconv.h) against the scalar
 * specification mrtq_conv2d_s16x8_acc64 / _acc32 and mrtq_fc_s16x8_* (conv_s16.h,
 * itself checked against TFLite's reference kernels restated in
 * tests/test_conv_s16.c): the same status, and on success the same bytes.
 * Built once with the C loops and once with AVX512-VNNI (tests/meson.build),
 * where the products are summed in int32 over chunks of at most 510 taps: the
 * cases at and past that bound use the largest products (-32768 x -128 = 2^22),
 * whose sums leave int32 exactly there, so a chunk one pair longer, or a lost
 * chunk, changes the bytes. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "harness.h"
#include "mrtq.h"

#ifndef MRTQ_TEST_PATH
#define MRTQ_TEST_PATH "scalar"
#endif

static long outputs, layers_wide; /* outputs compared; layers whose sums leave int32 */

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) abort();
  return p;
}

/* The data of one layer: edge 0 random, 1 the extremes only, 2 the largest
 * products only (x -32768, w -128: every sum K 2^22). */
static int16_t rx(int edge) {
  if (edge == 2) return -32768;
  if (edge == 1 || th_range(0, 7) == 0) return th_range(0, 1) ? 32767 : -32768;
  return (int16_t)th_range(-32768, 32767);
}
static int8_t rw(int edge) {
  if (edge == 2) return -128;
  if (edge == 1 || th_range(0, 7) == 0) return th_range(0, 1) ? 127 : -128;
  return (int8_t)th_range(-128, 127);
}

/* Requantizations of a layer: nrq descriptors of scheme (Q31_DBL or RNDNU),
 * scales around 2^15 / 2^bits (outputs spread over int16), acc64 keeping the
 * shift within TFLite's 64-bit multiply (scales below 128). */
static void make_rq(mrtq_rq *rq, size_t nrq, int single, int acc64, int bits) {
  size_t o;
  int32_t lo = th_range(0, 1) ? -32768 : (int32_t)th_range(-32768, 0);
  int32_t hi = th_range(0, 1) ? 32767 : (int32_t)th_range(lo, 32767);
  for (o = 0; o < nrq; o++) {
    int e = (int)th_range(bits - 18, bits - 12);
    double sc;
    if (e < -6) e = -6; /* scale <= 64: shift <= 7 */
    sc = ldexp(1.0 + (double)th_range(0, 999) / 1000.0, -e);
    if (th_range(0, 15) == 0) sc = acc64 ? 100.0 : ldexp(1.0, (int)th_range(0, 20)); /* shift > 0 */
    CHECK_EQ(mrtq_rq_init(single ? MRTQ_Q31_RNDNU : MRTQ_Q31_DBL, sc, 0, lo, hi, &rq[o]), MRTQ_OK, "rq");
  }
}

/* One layer: the fast core against the reference, both conventions (acc32
 * in both rounding builds), nrq 1 or o, with and without a bias, 1 or slots
 * tasks. Returns mismatches. */
static void pt_parallel_for(void *pool, void (*task)(void *, size_t), void *ctx, size_t n);
static long layer(const mrtq_conv2d_shape *s, int fc, int edge, size_t slots) {
  size_t ho, wo, wb, sb, nx, nw, ny, i, o;
  int16_t *x, *y, *want;
  int8_t *w;
  int64_t *b64 = (int64_t *)xmalloc(s->o * 8);
  int32_t *b32 = (int32_t *)xmalloc(s->o * 4);
  mrtq_rq *rq = (mrtq_rq *)xmalloc(s->o * sizeof *rq);
  void *mem, *scr;
  mrtq_fastconv p;
  mrtq_qoperand qx, qw;
  mrtq_parallel par;
  long bad = 0;
  int conv, off = (int)th_range(0, 1); /* x at an odd address half the time */
  uint64_t K = (uint64_t)(s->c / s->groups) * s->kh * s->kw;
  int bits = (int)ceil(log2((double)K + 1)) + 22;
  if (mrtq_conv2d_out(s, &ho, &wo) != MRTQ_OK) abort();
  nx = s->n * s->c * s->h * s->w, nw = s->o * (s->c / s->groups) * s->kh * s->kw, ny = s->n * s->o * ho * wo;
  x = (int16_t *)xmalloc(nx * 2 + 2), w = (int8_t *)xmalloc(nw), y = (int16_t *)xmalloc(ny * 2);
  want = (int16_t *)xmalloc(ny * 2);
  {
    uint8_t *xb = (uint8_t *)x + off;
    for (i = 0; i < nx; i++) {
      int16_t v = rx(edge);
      memcpy(xb + 2 * i, &v, 2);
    }
  }
  for (i = 0; i < nw; i++) w[i] = rw(edge);
  memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
  qx.data = (uint8_t *)x + off, qx.type = MRTQ_S16, qw.data = w, qw.type = MRTQ_S8;
  CHECK_EQ(mrtq_fastconv_sizes_s16x8(s, &wb, &sb), MRTQ_OK, "sizes");
  mem = xmalloc(wb), scr = xmalloc(sb * slots);
  CHECK_EQ(fc ? mrtq_fastconv_init_fc_s16x8(s->n, s->c, s->o, &qw, mem, wb, &p) : mrtq_fastconv_init_s16x8(s, &qw, mem, wb, &p),
           MRTQ_OK, "init");
  par.parallel_for = slots > 2 ? pt_parallel_for : NULL, par.pool = NULL, par.slots = slots;
  for (conv = 0; conv < 3; conv++) { /* 0: acc64; 1: acc32 Q31_DBL; 2: acc32 Q31_RNDNU */
    int acc64 = conv == 0, with_bias = (int)th_range(0, 3) != 0;
    size_t nrq = th_range(0, 1) ? s->o : 1;
    mrtq_status st, want_st;
    for (o = 0; o < s->o; o++) {
      int64_t lim = ((int64_t)1 << 47) - 1 - (int64_t)(K << 22), mag = (int64_t)1 << th_range(0, bits);
      b64[o] = th_range(-(mag < lim ? mag : lim), mag < lim ? mag : lim);
      b32[o] = th_range(0, 7) ? (int32_t)th_range(-(1 << 24), 1 << 24) : (int32_t)th_rand32(); /* any: wraps */
    }
    make_rq(rq, nrq, conv == 2, acc64, bits);
    memset(want, 0x55, ny * 2), memset(y, 0x33, ny * 2);
    if (fc)
      want_st = acc64 ? mrtq_fc_s16x8_acc64(s->n, s->c, s->o, rq, nrq, &qx, &qw, with_bias ? b64 : NULL, want)
                      : mrtq_fc_s16x8_acc32(s->n, s->c, s->o, rq, nrq, &qx, &qw, with_bias ? b32 : NULL, want);
    else
      want_st = acc64 ? mrtq_conv2d_s16x8_acc64(s, rq, nrq, &qx, &qw, with_bias ? b64 : NULL, want)
                      : mrtq_conv2d_s16x8_acc32(s, rq, nrq, &qx, &qw, with_bias ? b32 : NULL, want);
    st = acc64 ? mrtq_fastconv_s16x8_acc64(&p, rq, nrq, &qx, with_bias ? b64 : NULL, scr, sb * slots, &par, y)
               : mrtq_fastconv_s16x8_acc32(&p, rq, nrq, &qx, with_bias ? b32 : NULL, scr, sb * slots, &par, y);
    CHECK_EQ(st, want_st, "status (conv %d)", conv);
    CHECK_EQ(want_st, MRTQ_OK, "the reference takes the layer (conv %d)", conv);
    for (i = 0; i < ny && st == MRTQ_OK; i++)
      if (y[i] != want[i]) {
        if (bad++ < 4)
          fprintf(stderr, "  output %zu: fast %d, reference %d (conv %d, K %llu, edge %d, layout %d, groups %zu)\n", i, y[i],
                  want[i], conv, (unsigned long long)K, edge, (int)s->layout, s->groups);
      }
    outputs += (long)ny;
  }
  if (K << 22 > 2147483647u && edge == 2) layers_wide++;
  free(x), free(w), free(y), free(want), free(b64), free(b32), free(rq), free(mem), free(scr);
  return bad;
}

/* Random shapes, as tests/test_fastconv.c draws them (the shapes TFLite's
 * output size takes). */
static mrtq_conv2d_shape rand_shape(int depthwise) {
  mrtq_conv2d_shape s;
  size_t cg, og;
  int wide = depthwise && th_range(0, 1);
  memset(&s, 0, sizeof s);
  s.groups = depthwise ? (size_t)th_range(1, 70) : (size_t)(th_range(0, 3) ? 1 : th_range(2, 4));
  cg = depthwise ? 1 : (size_t)th_range(1, th_range(0, 1) ? 9 : 80);
  og = depthwise ? (size_t)(th_range(0, 4) ? 1 : th_range(2, 3)) : (size_t)th_range(1, th_range(0, 1) ? 20 : 140);
  s.n = (size_t)th_range(1, 2), s.c = cg * s.groups, s.o = og * s.groups;
  s.h = (size_t)th_range(1, 12), s.w = (size_t)th_range(1, 12);
  s.kh = (size_t)th_range(1, wide ? 7 : 3), s.kw = (size_t)th_range(1, wide ? 7 : 3);
  s.stride_h = (size_t)th_range(1, wide ? 4 : 2), s.stride_w = (size_t)th_range(1, wide ? 4 : 2);
  s.dil_h = (size_t)th_range(1, 2), s.dil_w = (size_t)th_range(1, 2);
  s.pad_top = (size_t)th_range(0, wide ? 8 : 2), s.pad_bottom = (size_t)th_range(0, wide ? 8 : 2);
  s.pad_left = (size_t)th_range(0, wide ? 8 : 2), s.pad_right = (size_t)th_range(0, wide ? 8 : 2);
  s.layout = th_range(0, depthwise ? 5 : 2) ? MRTQ_NHWC : MRTQ_NCHW;
  if (s.groups == s.c && th_range(0, 1)) s.w_layout = MRTQ_W_TFLITE_DW;
  while ((s.kh - 1) * s.dil_h + 1 > s.h + s.pad_top + s.pad_bottom) s.h++;
  while ((s.kw - 1) * s.dil_w + 1 > s.w + s.pad_left + s.pad_right) s.w++;
  return s;
}

/* 250 random layers (rand_shape), dense or depthwise. */
static void random_layers(int depthwise) {
  long bad = 0, before = outputs;
  int t;
  for (t = 0; t < 250; t++) {
    mrtq_conv2d_shape s = rand_shape(depthwise);
    bad += layer(&s, 0, th_range(0, 9) == 0, 1);
  }
  CHECK_EQ(bad, 0, "mismatches");
  printf("  %s: %ld outputs\n", depthwise ? "depthwise" : "conv", outputs - before);
}
static void test_conv_random(void) { random_layers(0); }
static void test_depthwise_random(void) { random_layers(1); }

static void test_fc_random(void) {
  long bad = 0, before = outputs;
  int t;
  for (t = 0; t < 150; t++) {
    mrtq_conv2d_shape s = mrtq_fc_shape((size_t)th_range(1, 30), (size_t)th_range(1, th_range(0, 1) ? 40 : 1500),
                                        (size_t)th_range(1, 100));
    bad += layer(&s, 1, (int)th_range(0, 4) == 0 ? (int)th_range(1, 2) : 0, 1);
  }
  CHECK_EQ(bad, 0, "mismatches");
  printf("  inner product: %ld outputs\n", outputs - before);
}

/* The int32 chunk bound: K around 510, 1020, 1530 taps (the inner product,
 * a dense conv, a depthwise kernel of 23 x 23 = 529 taps) with every product
 * 2^22, where the exact sums leave int32 (from 512 taps) and _acc32's wrap
 * and _acc64's int64 value both depend on every chunk being summed right. */
static void test_chunk_bound(void) {
  static const size_t ks[] = {2, 508, 509, 510, 511, 512, 513, 1019, 1020, 1021, 1022, 1531, 2047, 4099};
  long bad = 0, before = outputs;
  size_t i;
  for (i = 0; i < sizeof ks / sizeof ks[0]; i++) {
    mrtq_conv2d_shape s = mrtq_fc_shape(7, ks[i], 70);
    int edge;
    for (edge = 1; edge <= 2; edge++) bad += layer(&s, 1, edge, 1);
  }
  { /* dense 3x3 over c channels: K = 9c (513, 1026, 2304) */
    static const size_t cs[] = {57, 114, 256};
    for (i = 0; i < 3; i++) {
      mrtq_conv2d_shape s;
      memset(&s, 0, sizeof s);
      s.n = 1, s.c = cs[i], s.h = 5, s.w = 6, s.o = 33, s.kh = 3, s.kw = 3, s.stride_h = s.stride_w = 1;
      s.dil_h = s.dil_w = 1, s.pad_top = s.pad_bottom = s.pad_left = s.pad_right = 1, s.groups = 1, s.layout = MRTQ_NHWC;
      bad += layer(&s, 0, 2, 1);
    }
  }
  { /* depthwise kernels of 22 x 23 = 506, 23 x 23 = 529, 33 x 33 = 1089 and 1 x 600 taps (a row past the chunk), 19
       channels */
    static const size_t kk[][2] = {{22, 23}, {23, 23}, {33, 33}, {1, 600}};
    for (i = 0; i < 4; i++) {
      mrtq_conv2d_shape s;
      memset(&s, 0, sizeof s);
      s.n = 1, s.c = s.o = s.groups = 19, s.h = kk[i][0] + 2, s.w = kk[i][1] + 1, s.kh = kk[i][0], s.kw = kk[i][1];
      s.stride_h = s.stride_w = s.dil_h = s.dil_w = 1, s.pad_top = s.pad_left = 1, s.layout = MRTQ_NHWC;
      bad += layer(&s, 0, 2, 1);
      bad += layer(&s, 0, 1, 1);
    }
  }
  CHECK_EQ(bad, 0, "mismatches");
  /* the layers whose sums leave int32: 9 inner products (K >= 512), 3 convs, 3 depthwise (529, 1089, 600 taps) */
  CHECK_EQ(layers_wide, 15, "layers with every product 2^22 and K 2^22 beyond int32");
  printf("  chunk bound: %ld outputs (%ld layers with sums beyond int32)\n", outputs - before, layers_wide);
}

/* Threads: the bytes for 1 task equal those of 2-7 tasks, in turn or on
 * pthreads. */
typedef struct pt_arg {
  void (*task)(void *, size_t);
  void *ctx;
  size_t i;
} pt_arg;
static void *pt_main(void *v) {
  pt_arg *a = (pt_arg *)v;
  a->task(a->ctx, a->i);
  return NULL;
}
static long pt_calls;
static void pt_parallel_for(void *pool, void (*task)(void *, size_t), void *ctx, size_t n) {
  pthread_t th[16];
  pt_arg arg[16];
  size_t i, started = 0;
  (void)pool;
  for (i = 1; i < n && i < 16; i++) {
    arg[i].task = task, arg[i].ctx = ctx, arg[i].i = i;
    if (pthread_create(&th[i], NULL, pt_main, &arg[i]) != 0) break;
    started = i;
  }
  for (i = started + 1; i < n; i++) task(ctx, i);
  task(ctx, 0);
  for (i = 1; i <= started; i++) pthread_join(th[i], NULL);
  pt_calls++;
}
static void test_threads(void) {
  long bad = 0;
  int t;
  for (t = 0; t < 60; t++) {
    mrtq_conv2d_shape s = rand_shape(t % 3 == 0);
    bad += layer(&s, 0, 0, (size_t)th_range(2, 7));
  }
  CHECK_EQ(bad, 0, "mismatches");
  CHECK(pt_calls > 0);
}

/* A hand-made case: 1x1 inner product of k = 2, x (3, -4), w (5, 6), bias
 * 100: S = 15 - 24 + 100 = 91; scale 0.5: _acc32 Q31_DBL 45.5 -> 46 (ties
 * away from zero), _acc64 (ties toward +infinity) 46 too; scale 0.25 on
 * x negated and bias -98: S = -15 + 24 - 98 = -89, -22.25 -> -22. */
static void test_small(void) {
  int16_t x[2] = {3, -4}, xn[2] = {-3, 4}, y = 0;
  int8_t w[2] = {5, 6};
  int64_t b64 = 100;
  int32_t b32 = 100, bn = -98;
  uint8_t mem[4096], scr[16384];
  mrtq_fastconv p;
  mrtq_qoperand qx, qw;
  mrtq_rq rq;
  memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
  qx.data = x, qx.type = MRTQ_S16, qw.data = w, qw.type = MRTQ_S8;
  CHECK_EQ(mrtq_fastconv_init_fc_s16x8(1, 2, 1, &qw, mem, sizeof mem, &p), MRTQ_OK, "init");
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.5, 0, -32768, 32767, &rq), MRTQ_OK, "rq");
  CHECK_EQ(mrtq_fastconv_s16x8_acc32(&p, &rq, 1, &qx, &b32, scr, sizeof scr, NULL, &y), MRTQ_OK, "acc32");
  CHECK_EQ(y, 46, "91 / 2 = 45.5 -> 46");
  CHECK_EQ(mrtq_fastconv_s16x8_acc64(&p, &rq, 1, &qx, &b64, scr, sizeof scr, NULL, &y), MRTQ_OK, "acc64");
  CHECK_EQ(y, 46, "91 / 2 = 45.5 -> 46");
  qx.data = xn;
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.25, 0, -32768, 32767, &rq), MRTQ_OK, "rq");
  CHECK_EQ(mrtq_fastconv_s16x8_acc32(&p, &rq, 1, &qx, &bn, scr, sizeof scr, NULL, &y), MRTQ_OK, "acc32");
  CHECK_EQ(y, -22, "-89 / 4 = -22.25 -> -22");
}

static void test_refusals(void) {
  int16_t x[64] = {0}, y[64];
  int8_t w[256] = {0}; /* 4 x 3 x 3 x 4 */
  int32_t zch[4] = {0};
  uint8_t mem[8192], scr[65536];
  mrtq_conv2d_shape s;
  mrtq_fastconv p, p8;
  mrtq_qoperand qx, qw, q8;
  mrtq_rq rq;
  size_t wb, sb;
  mrtq_parallel par = {NULL, NULL, (size_t)-1};
  memset(&s, 0, sizeof s);
  s.n = 1, s.c = 4, s.h = 3, s.w = 3, s.o = 4, s.kh = 3, s.kw = 3, s.stride_h = s.stride_w = s.dil_h = s.dil_w = 1;
  s.groups = 1, s.layout = MRTQ_NHWC;
  memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
  qx.data = x, qx.type = MRTQ_S16, qw.data = w, qw.type = MRTQ_S8, q8 = qx, q8.type = MRTQ_S8;
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.001, 0, -32768, 32767, &rq), MRTQ_OK, "rq");
  CHECK_REFUSED(mrtq_fastconv_sizes_s16x8(&s, NULL, &sb), MRTQ_EINVAL, "wbytes, sbytes: NULL");
  CHECK_EQ(mrtq_fastconv_sizes_s16x8(&s, &wb, &sb), MRTQ_OK, "sizes");
  CHECK(wb <= sizeof mem && sb <= sizeof scr);
  qw.type = MRTQ_U8;
  CHECK_REFUSED(mrtq_fastconv_init_s16x8(&s, &qw, mem, wb, &p), MRTQ_EUNSUPPORTED, "w->type: must be MRTQ_S8 (TFLite 16x8");
  qw.type = MRTQ_S8, qw.zp = 1;
  CHECK_REFUSED(mrtq_fastconv_init_s16x8(&s, &qw, mem, wb, &p), MRTQ_EINVAL, "w->zp: must be 0 (TFLite 16x8");
  qw.zp = 0, qw.zp_ch = zch;
  CHECK_REFUSED(mrtq_fastconv_init_s16x8(&s, &qw, mem, wb, &p), MRTQ_EINVAL, "w->zp_ch: must be NULL (TFLite 16x8");
  qw.zp_ch = NULL;
  CHECK_REFUSED(mrtq_fastconv_init_s16x8(&s, &qw, mem, wb - 1, &p), MRTQ_EINVAL, "mem_bytes: smaller than wbytes");
  s.stride_h = 2, s.h = 2; /* a window past the input by less than the stride: oneDNN's size takes it, TFLite's not */
  CHECK_EQ(mrtq_fastconv_sizes(&s, &wb, &sb), MRTQ_OK, "oneDNN's output size");
  CHECK_REFUSED(mrtq_fastconv_sizes_s16x8(&s, &wb, &sb), MRTQ_ESHAPE, "s->kh: the dilated kernel is taller than the padded input");
  s.stride_h = 1, s.h = 3;
  CHECK_EQ(mrtq_fastconv_sizes_s16x8(&s, &wb, &sb), MRTQ_OK, "sizes");
  CHECK_EQ(mrtq_fastconv_init_s16x8(&s, &qw, mem, sizeof mem, &p), MRTQ_OK, "init");
  CHECK_EQ(mrtq_fastconv_init(&s, &qw, mem + 4096, 4096, &p8), MRTQ_OK, "init int8");
  /* one packing for its own entry points */
  CHECK_REFUSED(mrtq_fastconv_q8(&p, &rq, 1, &q8, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EUNSUPPORTED,
                "p: packed for 16x8 by mrtq_fastconv_init_s16x8");
  {
    mrtq_onednn_attr a;
    memset(&a, 0, sizeof a); /* refused before the attribute is read */
    CHECK_REFUSED(mrtq_fastconv_onednn(&p, &a, &q8, NULL, MRTQ_S8, scr, sizeof scr, NULL, y), MRTQ_EUNSUPPORTED,
                  "p: packed for 16x8 by mrtq_fastconv_init_s16x8");
  }
  CHECK_REFUSED(mrtq_fastconv_s16x8_acc64(&p8, &rq, 1, &qx, NULL, scr, sizeof scr, NULL, y), MRTQ_EUNSUPPORTED,
                "p: not packed by mrtq_fastconv_init_s16x8");
  CHECK_REFUSED(mrtq_fastconv_s16x8_acc32(NULL, &rq, 1, &qx, NULL, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "p: NULL");
  /* the reference's checks, in its order */
  CHECK_REFUSED(mrtq_fastconv_s16x8_acc64(&p, &rq, 1, &q8, NULL, scr, sizeof scr, NULL, y), MRTQ_EUNSUPPORTED,
                "x->type: must be MRTQ_S16");
  CHECK_REFUSED(mrtq_fastconv_s16x8_acc64(&p, &rq, 2, &qx, NULL, scr, sizeof scr, NULL, y), MRTQ_EINVAL, "nrq: must be 1 or s->o");
  CHECK_REFUSED(mrtq_fastconv_s16x8_acc64(&p, &rq, 1, &qx, NULL, scr, sizeof scr, NULL, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_fastconv_s16x8_acc64(&p, &rq, 1, &qx, NULL, NULL, sizeof scr, NULL, y), MRTQ_EINVAL, "scratch: NULL");
  CHECK_REFUSED(mrtq_fastconv_s16x8_acc64(&p, &rq, 1, &qx, NULL, scr, sb - 1, NULL, y), MRTQ_EINVAL,
                "scratch_bytes: smaller than sbytes");
  CHECK_REFUSED(mrtq_fastconv_s16x8_acc32(&p, &rq, 1, &qx, NULL, scr, sizeof scr, &par, y), MRTQ_ESHAPE,
                "par->slots: slots * sbytes overflows size_t");
  {
    mrtq_rq r2 = rq;
    r2.m.shift = 8; /* beyond TFLite's 64-bit multiply; the 32-bit one takes it */
    CHECK_REFUSED(mrtq_fastconv_s16x8_acc64(&p, &r2, 1, &qx, NULL, scr, sizeof scr, NULL, y), MRTQ_ERANGE,
                  "m.shift: must be <= 7");
    CHECK_EQ(mrtq_fastconv_s16x8_acc32(&p, &r2, 1, &qx, NULL, scr, sizeof scr, NULL, y), MRTQ_OK, "acc32 shift 8");
  }
  {
    int64_t big[4] = {(int64_t)1 << 47, 0, 0, 0};
    CHECK_REFUSED(mrtq_fastconv_s16x8_acc64(&p, &rq, 1, &qx, big, scr, sizeof scr, NULL, y), MRTQ_EOVERFLOW, "s, bias: K 2^22");
  }
  {
    mrtq_fastconv bad = p;
    bad.ho = 7;
    CHECK_REFUSED(mrtq_fastconv_s16x8_acc32(&bad, &rq, 1, &qx, NULL, scr, sizeof scr, NULL, y), MRTQ_EINVAL,
                  "p->ho, p->wo: not the shape's output size");
  }
}

int main(void) {
#if MRTQ__FAST_VNNI
  if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") ||
      !__builtin_cpu_supports("avx512dq") || !__builtin_cpu_supports("avx512vnni"))
    return th_skip("test_fastconv_s16_" MRTQ_TEST_PATH, "CPU lacks AVX-512 F/BW/DQ/VNNI");
#endif
#if defined(__AVX512VBMI__)
  if (!__builtin_cpu_supports("avx512vbmi")) return th_skip("test_fastconv_s16_" MRTQ_TEST_PATH, "CPU lacks AVX512-VBMI");
#endif
  printf("path %s (VNNI %d)\n", MRTQ_TEST_PATH, MRTQ__FAST_VNNI);
  TH_RUN(test_small);
  TH_RUN(test_refusals);
  TH_RUN(test_chunk_bound);
  TH_RUN(test_conv_random);
  TH_RUN(test_depthwise_random);
  TH_RUN(test_fc_random);
  TH_RUN(test_threads);
  printf("  %ld outputs compared\n", outputs);
  return th_finish("test_fastconv_s16_" MRTQ_TEST_PATH);
}
