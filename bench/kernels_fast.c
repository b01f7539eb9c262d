/* Kernel benchmarks, the fast side (C compiled as C): mrtq_fastconv_onednn and
 * TFLite's requantization (mrtq_fastconv_q8plan_run, planned once as the weights are packed; and mrtq_fastconv_q8, which
 * does that work every call) on the layers of kernels.c, weights packed once outside the timed loop (as
 * oneDNN's weights are reordered once). Built with AVX512-VNNI: the
 * vpdpbusd core (mrtq/fastconv_avx512vnni.h); and TFLite's 16x8 on the same
 * layers (mrtq_fastconv_s16x8_*, the vpdpwssd core). */
#include <stdlib.h>
#include <string.h>

#include "mrtq.h"
#include "shim.h"
#include "../examples/pool.h"

#if !MRTQ__FAST_VNNI
#error "bench/kernels_fast.c is built with -mavx512vnni and MRTQ_SIMD_AVX512"
#endif

mrtq_conv2d_shape mrtqb_layer_shape(const mrtqb_layer *l); /* kernels.c */

struct mrtqb_fast {
  mrtq_fastconv p;
  mrtqb_layer l;
  void *mem, *scratch;
  size_t sbytes;
  mrtq_rq *rq; /* TFLite's requantization of l's scales */
  mrtq_fastconv_q8plan plan; /* rq and the bias planned (mrtq_fastconv_q8plan_init) */
  void *pmem;
  ex_pool pool;
  int threads;  /* pool started with this many (0: none) */
  void *tscratch; /* threads slots */
};

/* Pack the layer's weights (x16 0: int8, mrtq_fastconv_init*; 1: 16x8,
 * mrtq_fastconv_init*_s16x8) into *mem, with a scratch of *sbytes: 0 on
 * success (what it allocated is freed by the caller's destroy). */
static int fast_pack(const mrtqb_layer *l, const mrtq_conv2d_shape *s, const mrtq_qoperand *qw, int x16, mrtq_fastconv *p,
                     void **mem, void **scratch, size_t *sbytes) {
  size_t wb;
  if ((x16 ? mrtq_fastconv_sizes_s16x8(s, &wb, sbytes) : mrtq_fastconv_sizes(s, &wb, sbytes)) != MRTQ_OK ||
      !(*mem = malloc(wb)) || !(*scratch = malloc(*sbytes)))
    return -1;
  if (x16)
    return (l->fc ? mrtq_fastconv_init_fc_s16x8(l->n, l->c, l->o, qw, *mem, wb, p) : mrtq_fastconv_init_s16x8(s, qw, *mem, wb, p)) != MRTQ_OK;
  return (l->fc ? mrtq_fastconv_init_fc(l->n, l->c, l->o, qw, *mem, wb, p) : mrtq_fastconv_init(s, qw, *mem, wb, p)) != MRTQ_OK;
}

mrtqb_fast *mrtqb_fast_create(const mrtqb_layer *l, const int8_t *w, const int32_t *bias) {
  mrtqb_fast *f = (mrtqb_fast *)calloc(1, sizeof *f);
  mrtq_conv2d_shape s;
  mrtq_qoperand qw;
  if (!f) return NULL;
  memset(&qw, 0, sizeof qw);
  qw.data = w, qw.type = MRTQ_S8;
  s = l->fc ? mrtq_fc_shape(l->n, l->c, l->o) : mrtqb_layer_shape(l);
  f->l = *l;
  if (!(f->rq = (mrtq_rq *)malloc(l->o * sizeof *f->rq))) {
    mrtqb_fast_destroy(f);
    return NULL;
  }
  for (size_t o = 0; o < l->o; o++)
    if (mrtq_rq_init(MRTQ_Q31_DBL, l->oscale[o], l->dst_zp, l->dst_zp, 255, &f->rq[o]) != MRTQ_OK) {
      mrtqb_fast_destroy(f);
      return NULL;
    }
  if (fast_pack(l, &s, &qw, 0, &f->p, &f->mem, &f->scratch, &f->sbytes) != 0) {
    mrtqb_fast_destroy(f);
    return NULL;
  }
  size_t pb;
  if (mrtq_fastconv_q8plan_sizes(&f->p, &pb) != MRTQ_OK || !(f->pmem = malloc(pb)) ||
      mrtq_fastconv_q8plan_init(&f->p, f->rq, l->o, bias, MRTQ_U8, f->pmem, pb, &f->plan) != MRTQ_OK) {
    mrtqb_fast_destroy(f);
    return NULL;
  }
  return f;
}

/* The layer in either convention (tflite 0: oneDNN's; 1: TFLite's, planned;
 * 2: TFLite's, mrtq_fastconv_q8 per call with bias), scratch scr of bytes,
 * par. */
static int fast_call(mrtqb_fast *f, const uint8_t *x, const int32_t *bias, uint8_t *dst, int tflite, void *scr, size_t bytes,
                     const mrtq_parallel *par) {
  mrtq_qoperand qx;
  mrtq_onednn_attr a;
  memset(&qx, 0, sizeof qx), memset(&a, 0, sizeof a);
  qx.data = x, qx.type = MRTQ_U8, qx.zp = f->l.src_zp;
  if (tflite == 1) return (int)mrtq_fastconv_q8plan_run(&f->plan, &qx, scr, bytes, par, dst);
  if (tflite) return (int)mrtq_fastconv_q8(&f->p, f->rq, f->l.o, &qx, bias, MRTQ_U8, scr, bytes, par, dst);
  a.oscale = f->l.oscale, a.oscale_mask = 2, a.src_zp = f->l.src_zp, a.dst_zp = f->l.dst_zp;
  a.n_po = 1, a.po[0].kind = MRTQ_ONEDNN_RELU, a.po[0].scale = 1.0f;
  return (int)mrtq_fastconv_onednn(&f->p, &a, &qx, bias, MRTQ_U8, scr, bytes, par, dst);
}

int mrtqb_fast_run(mrtqb_fast *f, const uint8_t *x, const int32_t *bias, uint8_t *dst) {
  return fast_call(f, x, bias, dst, 0, f->scratch, f->sbytes, NULL);
}

int mrtqb_fast_run_tflite(mrtqb_fast *f, const uint8_t *x, const int32_t *bias, uint8_t *dst, int percall) {
  return fast_call(f, x, bias, dst, percall ? 2 : 1, f->scratch, f->sbytes, NULL);
}

int mrtqb_fast_run_threads(mrtqb_fast *f, const uint8_t *x, const int32_t *bias, uint8_t *dst, int tflite, int threads) {
  mrtq_parallel par;
  if (f->threads != threads) {
    if (f->threads) ex_pool_stop(&f->pool), free(f->tscratch), f->threads = 0;
    if (!(f->tscratch = malloc(f->sbytes * (size_t)threads)) || ex_pool_start(&f->pool, threads) != 0) return -1;
    f->threads = threads;
  }
  par.parallel_for = ex_pool_parallel_for, par.pool = &f->pool, par.slots = (size_t)threads;
  return fast_call(f, x, bias, dst, tflite, f->tscratch, f->sbytes * (size_t)threads, &par);
}

int mrtqb_fast_ref_tflite(mrtqb_fast *f, const uint8_t *x, const int8_t *w, const int32_t *bias, uint8_t *dst) {
  mrtq_qoperand qx, qw;
  const mrtqb_layer *l = &f->l;
  memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
  qx.data = x, qx.type = MRTQ_U8, qx.zp = l->src_zp, qw.data = w, qw.type = MRTQ_S8;
  if (l->fc) return (int)mrtq_fc_q8(l->n, l->c, l->o, f->rq, l->o, &qx, &qw, bias, MRTQ_U8, dst);
  mrtq_conv2d_shape s = mrtqb_layer_shape(l);
  return (int)mrtq_conv2d_q8(&s, f->rq, l->o, &qx, &qw, bias, MRTQ_U8, dst);
}

void mrtqb_fast_destroy(mrtqb_fast *f) {
  if (!f) return;
  if (f->threads) ex_pool_stop(&f->pool), free(f->tscratch);
  free(f->mem), free(f->scratch), free(f->rq), free(f->pmem), free(f);
}

struct mrtqb_fast16 {
  mrtq_fastconv p;
  mrtqb_layer l;
  void *mem, *scratch;
  size_t sbytes;
  mrtq_rq *rq;
  int64_t *bias64;
};

mrtqb_fast16 *mrtqb_fast16_create(const mrtqb_layer *l, const int8_t *w, double scale16) {
  mrtqb_fast16 *f = (mrtqb_fast16 *)calloc(1, sizeof *f);
  mrtq_conv2d_shape s;
  mrtq_qoperand qw;
  if (!f) return NULL;
  memset(&qw, 0, sizeof qw);
  qw.data = w, qw.type = MRTQ_S8;
  s = l->fc ? mrtq_fc_shape(l->n, l->c, l->o) : mrtqb_layer_shape(l);
  f->l = *l;
  if (!(f->rq = (mrtq_rq *)malloc(l->o * sizeof *f->rq)) || !(f->bias64 = (int64_t *)malloc(l->o * sizeof *f->bias64))) {
    mrtqb_fast16_destroy(f);
    return NULL;
  }
  for (size_t o = 0; o < l->o; o++)
    if (mrtq_rq_init(MRTQ_Q31_DBL, l->oscale[o] * scale16, 0, -32768, 32767, &f->rq[o]) != MRTQ_OK) {
      mrtqb_fast16_destroy(f);
      return NULL;
    }
  if (fast_pack(l, &s, &qw, 1, &f->p, &f->mem, &f->scratch, &f->sbytes) != 0) {
    mrtqb_fast16_destroy(f);
    return NULL;
  }
  return f;
}

/* the int32 bias widened once per call (what a caller holding TFLite's int64 bias passes) */
static const int64_t *fast16_bias64(mrtqb_fast16 *f, const int32_t *bias) {
  for (size_t o = 0; o < f->l.o; o++) f->bias64[o] = bias[o];
  return f->bias64;
}

int mrtqb_fast16_run(mrtqb_fast16 *f, const int16_t *x16, const int32_t *bias, int acc64, int16_t *dst) {
  mrtq_qoperand qx;
  memset(&qx, 0, sizeof qx);
  qx.data = x16, qx.type = MRTQ_S16;
  if (acc64) return (int)mrtq_fastconv_s16x8_acc64(&f->p, f->rq, f->l.o, &qx, fast16_bias64(f, bias), f->scratch, f->sbytes, NULL, dst);
  return (int)mrtq_fastconv_s16x8_acc32(&f->p, f->rq, f->l.o, &qx, bias, f->scratch, f->sbytes, NULL, dst);
}

int mrtqb_fast16_ref(mrtqb_fast16 *f, const int16_t *x16, const int8_t *w, const int32_t *bias, int acc64, int16_t *dst) {
  mrtq_qoperand qx, qw;
  const mrtqb_layer *l = &f->l;
  const int64_t *b64 = fast16_bias64(f, bias);
  memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
  qx.data = x16, qx.type = MRTQ_S16, qw.data = w, qw.type = MRTQ_S8;
  if (l->fc)
    return (int)(acc64 ? mrtq_fc_s16x8_acc64(l->n, l->c, l->o, f->rq, l->o, &qx, &qw, b64, dst)
                       : mrtq_fc_s16x8_acc32(l->n, l->c, l->o, f->rq, l->o, &qx, &qw, bias, dst));
  mrtq_conv2d_shape s = mrtqb_layer_shape(l);
  return (int)(acc64 ? mrtq_conv2d_s16x8_acc64(&s, f->rq, l->o, &qx, &qw, b64, dst)
                     : mrtq_conv2d_s16x8_acc32(&s, f->rq, l->o, &qx, &qw, bias, dst));
}

void mrtqb_fast16_destroy(mrtqb_fast16 *f) {
  if (!f) return;
  free(f->mem), free(f->scratch), free(f->rq), free(f->bias64), free(f);
}

/* The ceiling of the kernel table: `units` steps of 24 independent
 * vpdpbusd chains on registers (as many accumulators as the six-pixel, four-
 * block micro-kernel keeps), no memory traffic: the rate at which this core
 * retires the fast core's inner instruction. In assembly: written in C, gcc
 * 12 copies the 24 accumulators through the stack inside the loop (the
 * micro-kernel's own comment in fastconv_avx512vnni.h). Returns units. */
size_t mrtqb_vnni_peak(size_t units) {
  size_t n = units;
  if (!n) return 0;
  __asm__ volatile(
      "vpternlogd $0xff, %%zmm24, %%zmm24, %%zmm24\n\t" /* x, w: all ones (any bytes do) */
      "vpabsb %%zmm24, %%zmm25\n\t"
      ".irp r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23\n\t"
      "vpxord %%zmm\\r, %%zmm\\r, %%zmm\\r\n\t"
      ".endr\n\t"
      "1:\n\t"
      ".irp r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23\n\t"
      "vpdpbusd %%zmm25, %%zmm24, %%zmm\\r\n\t"
      ".endr\n\t"
      "dec %0\n\t"
      "jnz 1b\n\t"
      : "+r"(n)
      :
      : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",
        "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24",
        "xmm25", "cc");
  return units - n;
}

/* The machine's own 2-thread scaling: `units` steps of 12 independent
 * vpdpbusd chains (the fast core's inner instruction, on registers: no memory
 * traffic), split into `threads` equal tasks on the same kind of pool as the
 * kernel rows (examples/pool.h). Its 1 / 2-thread time ratio shows what the
 * shared host gave a second thread at the time it ran (pool hand-off
 * included); it is not a bound on rows measured at other times. */
struct mrtqb_alu {
  ex_pool pool;
  int threads;
  size_t units;
  int32_t sink[64];
};

static void alu_task(void *ctx, size_t t) {
  mrtqb_alu *a = (mrtqb_alu *)ctx;
  __m512i c[12], x = _mm512_set1_epi32((int)(0x01020304 + t)), w = _mm512_set1_epi32(0x05060708);
  size_t i, k, n = a->units / (size_t)a->threads;
  for (k = 0; k < 12; k++) c[k] = _mm512_set1_epi32((int)k);
  for (i = 0; i < n; i++)
    for (k = 0; k < 12; k++) c[k] = _mm512_dpbusd_epi32(c[k], x, w);
  for (k = 1; k < 12; k++) c[0] = _mm512_add_epi32(c[0], c[k]);
  a->sink[t % 64] = _mm512_reduce_add_epi32(c[0]);
}

mrtqb_alu *mrtqb_alu_create(int threads, size_t units) {
  mrtqb_alu *a = (mrtqb_alu *)calloc(1, sizeof *a);
  if (!a) return NULL;
  a->threads = threads, a->units = units;
  if (threads > 1 && ex_pool_start(&a->pool, threads) != 0) {
    free(a);
    return NULL;
  }
  return a;
}

int32_t mrtqb_alu_run(mrtqb_alu *a) {
  if (a->threads > 1) ex_pool_parallel_for(&a->pool, alu_task, a, (size_t)a->threads);
  else alu_task(a, 0);
  return a->sink[0];
}

void mrtqb_alu_destroy(mrtqb_alu *a) {
  if (!a) return;
  if (a->threads > 1) ex_pool_stop(&a->pool);
  free(a);
}
