/* mrtq/fastconv.h -- the fast core of the int8 convolution and inner
 * product: the same bytes as mrtq_conv2d_onednn / mrtq_fc_onednn (attr.h;
 * mrtq_fastconv_onednn) or as mrtq_conv2d_q8 / mrtq_fc_q8 (conv.h; any
 * mrtq_rq family, TFLite's per-channel Q31 double rounding among them:
 * mrtq_fastconv_q8), computed as an int8 GEMM over packed weights with the
 * epilogue fused; and TFLite's 16x8 kernels (conv_s16.h) as an int16 GEMM
 * (mrtq_fastconv_s16x8_acc64 / _acc32, their declarations below).
 *
 * Shape of the computation. Weights are packed once (mrtq_fastconv_init, the
 * counterpart of oneDNN's weight reorder; int8, uint8 or int4 weights, each
 * stored as its int8 value less its zero point), per group into blocks of 16 output
 * channels, the reduction index k = (ky kw + kx) (c / groups) + c padded to a
 * multiple of 4, with each channel's weight sum kept beside them. At run time
 * a tile of output pixels is gathered (im2col) into caller scratch, padding
 * holding the src zero point (a real zero); an int8 s8 src is moved to u8 by
 * adding 128 (x ^ 0x80), its zero point with it. A 6-pixel x 64-channel
 * micro-kernel forms sum u w over k (u the unsigned src, w the s8 weight),
 * then acc = sum u w - zu * sum w, which is sum (x - zx) w exactly: every
 * partial sum is taken modulo 2^32 and the checked worst case (mrtq__dot_check)
 * keeps the true value inside int32. Depthwise layers (one channel per group,
 * NHWC) take a direct path over 16 channels at a time. The epilogue is
 * mrtq_onednn_epilogue's float sequence for every output, or acc + bias
 * through mrtq_rq_apply (mrtq_fastconv_q8).
 *
 * SIMD. With MRTQ_SIMD == MRTQ_SIMD_AVX512 and a compiler target with
 * AVX512-VNNI (-mavx512vnni, or -march= a CPU that has it) the micro-kernel
 * is vpdpbusd and the epilogue runs 16 outputs per vector
 * (fastconv_avx512vnni.h); otherwise the same loops run in plain C. Both give
 * the bytes of the scalar specification mrtq_conv2d_onednn (tests/
 * test_fastconv.c compares them over edge values and random layers). The
 * vector epilogue covers NHWC (and inner-product) dst with OLD scale masks
 * that are common or end at the output channel, JIT rounding (ref_rounding
 * 0); other cases run the scalar epilogue on the same integer sums. The
 * mrtq_rq epilogue's vector forms (NHWC or an inner product): Q31 double
 * rounding per lane (every descriptor in mrtq_rq_init's domain), in 32-bit
 * lanes from a per-call table of constants when no shift is positive and the
 * bounds less the zero point fit int32, else in 64-bit lanes; and MRTQ_FP32
 * (XNNPACK's qc8 convention: every descriptor FP32 with a finite scale and
 * bounds within 2^24 of its zero point); other families and mixes run
 * mrtq_rq_apply per output. */
#ifndef MRTQ_FASTCONV_H
#define MRTQ_FASTCONV_H

#include <stdint.h>

#include "attr.h"
#include "conv_s16.h"

#if MRTQ_SIMD == MRTQ_SIMD_AVX512 && defined(__AVX512VNNI__)
#define MRTQ__FAST_VNNI 1
#include <immintrin.h>
#else
#define MRTQ__FAST_VNNI 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* A packed convolution: the shape, derived sizes and where the packed weights
 * sit in the caller's memory (valid while that memory is). Filled by
 * mrtq_fastconv_init / _init_fc; the fields are private (read by
 * mrtq_fastconv_onednn only). */
typedef struct mrtq_fastconv {
  mrtq_conv2d_shape s;
  size_t ho, wo, cg, og, k, kp, ob, mt;
  int fc; /* an inner product: OLD scale masks over (n, oc) only */
  int dw; /* depthwise direct path */
  const int8_t *w;     /* GEMM: groups * ob blocks of kp / 4 x 16 x 4 bytes */
  const int32_t *wsum; /* GEMM: groups * ob * 16 weight sums; depthwise: NULL (summed per row at run time) */
  const int32_t *wdw;  /* depthwise: kh * kw taps x c weights, widened */
  mrtq_dtype wt;       /* the weights' type as given (packed as w - zw in int8) */
  int32_t wz;          /* their zero point of largest magnitude (0: none) */
  int x16;             /* packed for 16x8 (mrtq_fastconv_init_s16x8): GEMM weights in w16 */
  const int16_t *w16;  /* 16x8 GEMM: groups * ob blocks of kp / 2 x 16 x 2 int16 */
} mrtq_fastconv;

/* The bytes of packed-weight memory (*wbytes, for mrtq_fastconv_init) and of
 * run-time scratch per task (*sbytes, for mrtq_fastconv_onednn / _q8) shape s
 * needs; both
 * include 64 bytes of slack for alignment, so any pointer will do. For an
 * inner product pass s = mrtq_fc_shape(rows, k, o). Errors: as
 * mrtq_conv2d_out_onednn (oneDNN's output size, as mrtq_conv2d_onednn); NULL wbytes or sbytes -> MRTQ_EINVAL; sizes overflowing
 * size_t -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_fastconv_sizes(const mrtq_conv2d_shape *s, size_t *wbytes, size_t *sbytes);

/* Pack the weights w of shape s (OIHW for NCHW, OHWI for NHWC, as
 * mrtq_conv2d_onednn / mrtq_conv2d_q8) into mem (mem_bytes >= wbytes from
 * mrtq_fastconv_sizes) and describe them in *p, which stays valid while mem
 * does. w->type MRTQ_S8 (oneDNN's and TFLite's int8 weights), MRTQ_U8 (TFLite's
 * legacy uint8 models, ONNX's u8 weights) or MRTQ_S4 (packed as common.h
 * states), with a zero point w->zp or one per output channel (w->zp_ch, as
 * mrtq_conv2d_q8): each weight is stored as its int8 value w - zw, so the
 * same micro-kernel runs every type. mrtq_fastconv_q8 then gives the bytes of
 * mrtq_conv2d_q8 with the operand as given; mrtq_fastconv_onednn (oneDNN's s8
 * weights without a zero point) takes only S8 weights without zero points.
 * Errors: as mrtq_fastconv_sizes; NULL w, w->data, mem or p, mem_bytes
 * smaller than wbytes, w->zp beside w->zp_ch, a zero point outside w->type's
 * range -> MRTQ_EINVAL; w->type MRTQ_S16 / MRTQ_S32 -> MRTQ_EUNSUPPORTED (type
 * 0: MRTQ_EINVAL); a weight whose w - zw lies outside [-128, 127] (possible
 * with MRTQ_U8, or MRTQ_S8 with a zero point) -> MRTQ_EUNSUPPORTED (the
 * reference kernels take it). Nothing is written on error. */
MRTQ_API mrtq_status mrtq_fastconv_init(const mrtq_conv2d_shape *s, const mrtq_qoperand *w, void *mem, size_t mem_bytes,
                                        mrtq_fastconv *p);
/* The inner product's packing: rows x k src, o x k weights (as
 * mrtq_fc_onednn); sizes from mrtq_fastconv_sizes of mrtq_fc_shape(rows, k, o).
 * Errors as mrtq_fastconv_init. */
MRTQ_API mrtq_status mrtq_fastconv_init_fc(size_t rows, size_t k, size_t o, const mrtq_qoperand *w, void *mem,
                                           size_t mem_bytes, mrtq_fastconv *p);

/* Threads without a dependency: mrtq starts none. A caller that has a pool
 * passes its parallel-for, pthreadpool_parallelize_1d's contract: run
 * task(ctx, i) once for every i in [0, n), on any threads in any order, and
 * return when all have returned. The fast core then splits a call into
 * `slots` tasks (n = slots), each with its own scratch slot of sbytes bytes
 * (scratch holds slots * sbytes), over output rows (depthwise) or runs of
 * (group, pixel tile, 64-channel chunk) items (GEMM; with gcc / clang the tasks
 * take runs from a counter they share, so a slower thread takes fewer); the
 * bytes are the same for any slots and any schedule. par NULL, or slots 0 or 1: one
 * task on the calling thread; parallel_for NULL with slots > 1: the tasks in
 * turn on the calling thread (scratch still holds slots * sbytes). A task
 * built with AVX512-VNNI takes about 16 KiB of the running thread's stack
 * (the epilogue's constants of a 64-channel chunk, a depthwise row's sums). */
typedef struct mrtq_parallel {
  void (*parallel_for)(void *pool, void (*task)(void *ctx, size_t i), void *ctx, size_t n);
  void *pool;
  size_t slots;
} mrtq_parallel;

/* oneDNN's int8 convolution from packed weights: the bytes of
 * mrtq_conv2d_onednn(&p->s, attr, x, w, bias, dst_type, dst) for the weights w
 * p was packed from (or of mrtq_fc_onednn after mrtq_fastconv_init_fc), on
 * every SIMD path (p packed from other than MRTQ_S8 weights, or with a zero
 * point -> MRTQ_EUNSUPPORTED: oneDNN's weights are s8 without one). scratch: scratch_bytes >= sbytes from mrtq_fastconv_sizes
 * (times par->slots with a parallel-for, above).
 * Per-channel dst zero points are taken; per-channel src zero points are not
 * (oneDNN runs them on its reference implementation only; use
 * mrtq_conv2d_onednn). Errors: NULL p, x, x->data, scratch or dst, the
 * attribute and x as mrtq_conv2d_onednn checks them (an inner product's
 * scale mask over (n, oc) only), attr->src_zp_ch set, scratch_bytes smaller
 * than sbytes (times the slots) -> MRTQ_EINVAL; par->slots overflowing
 * size_t with sbytes -> MRTQ_ESHAPE; x->type or dst_type not MRTQ_S8 / MRTQ_U8 ->
 * MRTQ_EUNSUPPORTED; terms that could overflow int32 -> MRTQ_EOVERFLOW.
 * Nothing is written on error. */
MRTQ_API mrtq_status mrtq_fastconv_onednn(const mrtq_fastconv *p, const mrtq_onednn_attr *attr, const mrtq_qoperand *x,
                                          const int32_t *bias, mrtq_dtype dst_type, void *scratch, size_t scratch_bytes,
                                          const mrtq_parallel *par, void *dst);

/* The requantized convolution from packed weights: the bytes of
 * mrtq_conv2d_q8(&p->s, rq, nrq, x, w, bias, dst_type, dst) (conv.h) for the
 * weights w p was packed from (or of mrtq_fc_q8 after mrtq_fastconv_init_fc),
 * on every SIMD path: acc = sum (x - x->zp) (w - zw) + bias[o] exactly (the
 * weights as packed: their zero points already taken), then
 * mrtq_rq_apply(rq[o] (rq[0] when nrq == 1), acc, dst_type's range). Any
 * family; TFLite's int8 convention is per-channel MRTQ_Q31_DBL descriptions of
 * s_x s_w[o] / s_y with s8 weights of zero point 0, its legacy uint8 one
 * uint8 weights with a zero point (both packed by mrtq_fastconv_init). With
 * AVX512-VNNI, NHWC (or an inner product) and every rq MRTQ_Q31_DBL from
 * mrtq_rq_init's domain (mult >= 0, shift in [-31, 30]), or every rq
 * MRTQ_FP32 with a finite scale and bounds within 2^24 of its zero point, the
 * epilogue runs 16 outputs per vector; otherwise mrtq_rq_apply per output. The output size is
 * mrtq_conv2d_out's: a shape whose last window overruns the padding (which
 * mrtq_fastconv_init accepts, for oneDNN) is refused here, as by
 * mrtq_conv2d_q8. Threads: par as mrtq_fastconv_onednn's. Errors: p or
 * scratch NULL, scratch_bytes smaller than sbytes (times the slots) ->
 * MRTQ_EINVAL; par->slots overflowing size_t with sbytes -> MRTQ_ESHAPE;
 * otherwise as mrtq_conv2d_q8 (in its order). Nothing is written on error. */
MRTQ_API mrtq_status mrtq_fastconv_q8(const mrtq_fastconv *p, const mrtq_rq *rq, size_t nrq, const mrtq_qoperand *x,
                                      const int32_t *bias, mrtq_dtype dst_type, void *scratch, size_t scratch_bytes,
                                      const mrtq_parallel *par, void *dst);

/* mrtq_fastconv_q8 split as TFLite splits a kernel into Prepare and Eval:
 * mrtq_fastconv_q8plan_init does once what mrtq_fastconv_q8 does on every
 * call for the output side (checks rq, nrq, bias and dst_type, builds the
 * epilogue's per-channel lane table) and keeps, in mem (mem_bytes >= the
 * *bytes of mrtq_fastconv_q8plan_sizes(p, ...)), that table and copies of
 * rq[0 .. nrq) and bias[0 .. o) (so those may change or go afterwards);
 * *plan refers to mem and to p (both must stay valid and unchanged while
 * it is used). mrtq_fastconv_q8plan_run(plan, x, scratch, scratch_bytes,
 * par, dst) then checks only x, the scratch and dst and writes exactly the
 * bytes of mrtq_fastconv_q8(p, rq, nrq, x, bias, dst_type, scratch,
 * scratch_bytes, par, dst) with the rq and bias given to _init; its cost
 * per call no longer grows with the output channels (on the one-row
 * 1024 x 1024 FC mrtq_fastconv_q8 took 1.4x-1.7x the planned call's time
 * here: docs/PERFORMANCE.md). Scratch as mrtq_fastconv_q8's (sbytes from
 * mrtq_fastconv_sizes, times the slots). Errors: sizes: p or bytes NULL ->
 * MRTQ_EINVAL; p packed for 16x8 -> MRTQ_EUNSUPPORTED; the plan's size
 * overflowing size_t -> MRTQ_ESHAPE. Init: p as sizes checks it; a shape whose last
 * window overruns the padding -> as mrtq_conv2d_out; then rq, nrq and
 * dst_type as mrtq_conv2d_q8 checks them; mem or plan NULL, mem_bytes too
 * small -> MRTQ_EINVAL. Run: plan or plan->p NULL, or p's output channels,
 * layout or packing no longer the ones planned -> MRTQ_EINVAL; then x (and
 * the int32 bound of the sums with the planned bias) as mrtq_conv2d_q8
 * checks them, dst NULL -> MRTQ_EINVAL, scratch as mrtq_fastconv_q8's.
 * Nothing is written on error (init writes neither mem nor *plan). */
typedef struct mrtq_fastconv_q8plan {
  const mrtq_fastconv *p;
  const mrtq_rq *rq;     /* copies in mem */
  size_t nrq, o;         /* o: p->s.o when planned */
  const int32_t *bias;   /* a copy in mem, or NULL */
  uint64_t bias_max;     /* the largest |bias| (0 without) */
  mrtq_dtype dst_type;
  int form;              /* the epilogue's lane form (0: mrtq_rq_apply per output) */
  const int32_t *t;      /* its table in mem (forms 2, 3), rows n apart */
  size_t n;
} mrtq_fastconv_q8plan;
MRTQ_API mrtq_status mrtq_fastconv_q8plan_sizes(const mrtq_fastconv *p, size_t *bytes);
MRTQ_API mrtq_status mrtq_fastconv_q8plan_init(const mrtq_fastconv *p, const mrtq_rq *rq, size_t nrq, const int32_t *bias,
                                               mrtq_dtype dst_type, void *mem, size_t mem_bytes, mrtq_fastconv_q8plan *plan);
MRTQ_API mrtq_status mrtq_fastconv_q8plan_run(const mrtq_fastconv_q8plan *plan, const mrtq_qoperand *x, void *scratch,
                                              size_t scratch_bytes, const mrtq_parallel *par, void *dst);

/* TFLite's 16x8 convolution (conv_s16.h: int16 activations without a zero
 * point, int8 weights of zero point 0, int16 outputs) on the fast core:
 * weights packed once as int16 pairs (vpdpwssd's operand) by
 * mrtq_fastconv_init_s16x8 / _init_fc_s16x8 into mem of wbytes from
 * mrtq_fastconv_sizes_s16x8 (which also gives sbytes, the scratch per task),
 * then mrtq_fastconv_s16x8_acc64 / _acc32 give the bytes of
 * mrtq_conv2d_s16x8_acc64 / _acc32 (mrtq_fc_s16x8_* after _init_fc_s16x8)
 * for the weights packed, on every SIMD path. The sums are exact: with
 * AVX512-VNNI each output's products (|x w| <= 2^22) are summed in int32
 * lanes over at most 510 taps at a time (510 2^22 < 2^31), each such partial
 * sum then added into int64; the int64 total is what both conventions start
 * from (_acc32 takes it modulo 2^32, TFLite's int32 accumulator). Depthwise
 * layers (one channel per group, NHWC) take a direct path. Output size
 * mrtq_conv2d_out's (TFLite's). A 16x8 packing is refused by
 * mrtq_fastconv_q8 / _onednn, and an int8 one by these.
 * Errors: sizes and init as mrtq_fastconv_sizes / _init (the shape through
 * mrtq_conv2d_out) except the weights, which are checked as
 * mrtq_conv2d_s16x8_acc64 checks them: w->type not MRTQ_S8 ->
 * MRTQ_EUNSUPPORTED, w->zp non-zero or w->zp_ch set -> MRTQ_EINVAL. Run: p
 * NULL, scratch NULL, scratch_bytes smaller than sbytes (times the slots) ->
 * MRTQ_EINVAL; p not from _init_s16x8 -> MRTQ_EUNSUPPORTED; par->slots
 * overflowing size_t with sbytes -> MRTQ_ESHAPE; otherwise as
 * mrtq_conv2d_s16x8_acc64 / _acc32 (in their order). Threads: par as
 * mrtq_fastconv_onednn's. Nothing is written on error. */
MRTQ_API mrtq_status mrtq_fastconv_sizes_s16x8(const mrtq_conv2d_shape *s, size_t *wbytes, size_t *sbytes);
MRTQ_API mrtq_status mrtq_fastconv_init_s16x8(const mrtq_conv2d_shape *s, const mrtq_qoperand *w, void *mem,
                                              size_t mem_bytes, mrtq_fastconv *p);
MRTQ_API mrtq_status mrtq_fastconv_init_fc_s16x8(size_t rows, size_t k, size_t o, const mrtq_qoperand *w, void *mem,
                                                 size_t mem_bytes, mrtq_fastconv *p);
MRTQ_API mrtq_status mrtq_fastconv_s16x8_acc64(const mrtq_fastconv *p, const mrtq_rq *rq, size_t nrq,
                                               const mrtq_qoperand *x, const int64_t *bias, void *scratch,
                                               size_t scratch_bytes, const mrtq_parallel *par, int16_t *out);
MRTQ_API mrtq_status mrtq_fastconv_s16x8_acc32(const mrtq_fastconv *p, const mrtq_rq *rq, size_t nrq,
                                               const mrtq_qoperand *x, const int32_t *bias, void *scratch,
                                               size_t scratch_bytes, const mrtq_parallel *par, int16_t *out);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

#define MRTQ__FAST_MR 6  /* pixels per micro-tile */
#define MRTQ__FAST_NB 16 /* output channels per packed block */
#define MRTQ__FAST_NR 4  /* blocks per micro-tile */

MRTQ__PRIV size_t mrtq__fast_up(size_t v, size_t m) { return (v + m - 1) / m * m; }
MRTQ__PRIV void *mrtq__fast_align(void *p) {
  return (uint8_t *)p + ((64 - (uintptr_t)p % 64) % 64);
}

/* The derived sizes of a checked shape. */
MRTQ__PRIV void mrtq__fast_dims(mrtq_fastconv *p, const mrtq_conv2d_shape *s, size_t ho, size_t wo, int x16) {
  p->s = *s, p->ho = ho, p->wo = wo, p->x16 = x16;
  p->cg = s->c / s->groups, p->og = s->o / s->groups;
  p->k = p->cg * s->kh * s->kw, p->kp = mrtq__fast_up(p->k, x16 ? 2 : 4); /* taps per vpdpwssd / vpdpbusd lane */
  p->ob = mrtq__fast_up(p->og, MRTQ__FAST_NB) / MRTQ__FAST_NB;
  p->dw = p->cg == 1 && p->og == 1 && s->layout == MRTQ_NHWC;
  /* pixels per im2col tile: about 128 K taps of gathered src (128 KiB int8, 256 KiB 16x8), 6..96 pixels */
  p->mt = 131072 / p->kp / MRTQ__FAST_MR * MRTQ__FAST_MR; /* kp >= 2 (k fits: the caller's check) */
  if (p->mt < MRTQ__FAST_MR) p->mt = MRTQ__FAST_MR;
  if (p->mt > 96) p->mt = 96;
}

/* The scratch of the integer sums (im2col tile and micro-tile sums). */
MRTQ__PRIV size_t mrtq__fast_sbase(const mrtq_fastconv *p) {
  size_t ct = MRTQ__FAST_MR * MRTQ__FAST_NB * MRTQ__FAST_NR; /* sums per micro-tile */
  if (p->x16) /* int16 tile, int32 sums of one chunk of taps, their int64 totals */
    return p->dw ? 64 : p->mt * p->kp * 2 + ct * (sizeof(int32_t) + sizeof(int64_t)) + 192;
  return p->dw ? 64 : p->mt * p->kp + ct * sizeof(int32_t) + 128;
}
/* mrtq_fastconv_q8's per-channel table after it: MRTQ__FAST_RQT rows of
 * up(o, 16) int32: requant.h's lane table (rows 0-6: Q31 / FP32 constants,
 * the bounds less the zero point, the zero point), then the bias. */
#define MRTQ__FAST_RQT 8

/* Both packings' sizes: int8 (x16 0: oneDNN's output size) or 16x8 (x16 1:
 * mrtq_conv2d_out's). */
MRTQ__PRIV mrtq_status mrtq__fast_sizes(const mrtq_conv2d_shape *s, size_t *wbytes, size_t *sbytes, int x16) {
  size_t ho, wo, blocks, wel = x16 ? 2 : 1;
  mrtq_fastconv p;
  mrtq_status st = x16 ? mrtq_conv2d_out(s, &ho, &wo) : mrtq_conv2d_out_onednn(s, &ho, &wo);
  if (st != MRTQ_OK) return st;
  if (!wbytes || !sbytes) return MRTQ__ERR(MRTQ_EINVAL, "wbytes, sbytes: NULL");
  if (s->kh > SIZE_MAX / 256 / s->kw || s->c / s->groups > SIZE_MAX / 256 / (s->kh * s->kw)) /* k, kp fit */
    return MRTQ__ERR(MRTQ_ESHAPE, "s: the packed weights' size overflows size_t");
  mrtq__fast_dims(&p, s, ho, wo, x16);
  if (p.kp > SIZE_MAX / 256 || s->groups > SIZE_MAX / 256 / p.kp) /* kp * groups * 16 * 16 fits */
    return MRTQ__ERR(MRTQ_ESHAPE, "s: the packed weights' size overflows size_t");
  if (p.dw) {
    *wbytes = s->kh * s->kw * mrtq__fast_up(s->c, MRTQ__FAST_NB) * sizeof(int32_t) + 64;
  } else {
    blocks = s->groups * p.ob;
    if (blocks > SIZE_MAX / (p.kp * MRTQ__FAST_NB * wel + 256))
      return MRTQ__ERR(MRTQ_ESHAPE, "s: the packed weights' size overflows size_t");
    *wbytes = blocks * (p.kp * MRTQ__FAST_NB * wel + MRTQ__FAST_NB * sizeof(int32_t)) + 128;
  }
  /* + mrtq_fastconv_q8's per-channel table (o fits: the packed size did) */
  *sbytes = mrtq__fast_sbase(&p) + MRTQ__FAST_RQT * mrtq__fast_up(s->o, MRTQ__FAST_NB) * sizeof(int32_t) + 64;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_fastconv_sizes(const mrtq_conv2d_shape *s, size_t *wbytes, size_t *sbytes) {
  return mrtq__fast_sizes(s, wbytes, sbytes, 0);
}

/* The weight (o, c within the group, ky, kx) in s->w_layout, less its zero
 * point: the int8 value the fast core packs. */
MRTQ__PRIV int32_t mrtq__fast_wat(const mrtq_conv2d_shape *s, const mrtq_qoperand *w, size_t o, size_t c, size_t ky,
                                  size_t kx) {
  return mrtq__load(w->data, mrtq__conv_w_at(s, o, c, ky, kx), w->type) - (w->zp_ch ? w->zp_ch[o] : w->zp);
}

/* Both packings (x16 0: int8 for vpdpbusd; 1: TFLite's 16x8, int16 pairs
 * for vpdpwssd). */
MRTQ__PRIV mrtq_status mrtq__fast_init(const mrtq_conv2d_shape *s, const mrtq_qoperand *w, void *mem, size_t mem_bytes,
                                       mrtq_fastconv *p, int x16) {
  size_t wb, sb, ho, wo, g, o, c, ky, kx, t;
  const mrtq_qoperand *wd = w;
  int32_t wz = 0;
  mrtq_status st = mrtq__fast_sizes(s, &wb, &sb, x16);
  if (st != MRTQ_OK) return st;
  if (!w) return MRTQ__ERR(MRTQ_EINVAL, "w: NULL");
  if (!w->data) return MRTQ__ERR(MRTQ_EINVAL, "w->data: NULL");
  if (!mrtq__dtype_ok(w->type)) return MRTQ__ERR(MRTQ_EINVAL, "w->type: not an mrtq_dtype (0: a zero-initialised operand)");
  if (x16) { /* as mrtq_conv2d_s16x8_acc64 checks them */
    if (w->type != MRTQ_S8) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "w->type: must be MRTQ_S8 (TFLite 16x8 weights are int8)");
    if (w->zp_ch) return MRTQ__ERR(MRTQ_EINVAL, "w->zp_ch: must be NULL (TFLite 16x8 weights are symmetric: zero point 0)");
    if (w->zp) return MRTQ__ERR(MRTQ_EINVAL, "w->zp: must be 0 (TFLite 16x8 weights are symmetric)");
  } else {
    if (!mrtq__dtype_q8(w->type) && w->type != MRTQ_S4)
      return MRTQ__ERR(MRTQ_EUNSUPPORTED, "w->type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S4");
    if ((st = mrtq__w_zp_check(w, s->o, 0, &wz)) != MRTQ_OK) return st; /* as mrtq_conv2d_q8 checks them */
  }
  if (!mem) return MRTQ__ERR(MRTQ_EINVAL, "mem: NULL");
  if (mem_bytes < wb) return MRTQ__ERR(MRTQ_EINVAL, "mem_bytes: smaller than wbytes from mrtq_fastconv_sizes "
                                                   "(mrtq_fastconv_sizes_s16x8 for a 16x8 packing)");
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (w->type == MRTQ_U8 || wz) /* every w - zw must be an int8 value (S4 without a zero point always is) */
    for (o = 0; o < s->o; o++)
      for (c = 0; c < s->c / s->groups; c++)
        for (ky = 0; ky < s->kh; ky++)
          for (kx = 0; kx < s->kw; kx++) {
            int32_t v = mrtq__fast_wat(s, w, o, c, ky, kx);
            if (v < -128 || v > 127)
              return MRTQ__ERR(MRTQ_EUNSUPPORTED, "w: a weight less its zero point outside [-128, 127] (the fast core "
                                                  "packs int8; mrtq_conv2d_q8 takes it)");
          }
  if (x16) mrtq_conv2d_out(s, &ho, &wo);
  else mrtq_conv2d_out_onednn(s, &ho, &wo);
  mrtq__fast_dims(p, s, ho, wo, x16);
  p->fc = 0, p->wt = w->type, p->wz = wz, p->w16 = NULL;
  if (p->dw) {
    size_t cp = mrtq__fast_up(s->c, MRTQ__FAST_NB);
    int32_t *wdw = (int32_t *)mrtq__fast_align(mem);
    memset(wdw, 0, s->kh * s->kw * cp * sizeof(int32_t));
    for (c = 0; c < s->c; c++)
      for (ky = 0; ky < s->kh; ky++)
        for (kx = 0; kx < s->kw; kx++) wdw[(ky * s->kw + kx) * cp + c] = mrtq__fast_wat(s, wd, c, 0, ky, kx);
    p->wdw = wdw, p->wsum = NULL, p->w = NULL;
    return MRTQ_OK;
  }
  if (x16) { /* int16 pairs: block b, reduction index t, lane at (t / 2 16 + lane) 2 + t % 2 */
    int16_t *pw = (int16_t *)mrtq__fast_align(mem);
    memset(pw, 0, s->groups * p->ob * p->kp * MRTQ__FAST_NB * sizeof *pw);
    for (g = 0; g < s->groups; g++)
      for (o = 0; o < p->og; o++) {
        int16_t *blk = pw + (g * p->ob + o / MRTQ__FAST_NB) * p->kp * MRTQ__FAST_NB;
        for (ky = 0; ky < s->kh; ky++)
          for (kx = 0; kx < s->kw; kx++)
            for (c = 0; c < p->cg; c++) {
              t = (ky * s->kw + kx) * p->cg + c;
              blk[(t / 2 * MRTQ__FAST_NB + o % MRTQ__FAST_NB) * 2 + t % 2] =
                  (int16_t)mrtq__fast_wat(s, wd, g * p->og + o, c, ky, kx);
            }
      }
    p->w16 = pw, p->w = NULL, p->wsum = NULL, p->wdw = NULL;
    return MRTQ_OK;
  }
  {
    int8_t *pw = (int8_t *)mrtq__fast_align(mem);
    size_t blocks = s->groups * p->ob;
    int32_t *ws = (int32_t *)mrtq__fast_align(pw + blocks * p->kp * MRTQ__FAST_NB);
    memset(pw, 0, blocks * p->kp * MRTQ__FAST_NB);
    memset(ws, 0, blocks * MRTQ__FAST_NB * sizeof(int32_t));
    for (g = 0; g < s->groups; g++)
      for (o = 0; o < p->og; o++) {
        size_t b = g * p->ob + o / MRTQ__FAST_NB, lane = o % MRTQ__FAST_NB;
        int8_t *blk = pw + b * p->kp * MRTQ__FAST_NB;
        for (ky = 0; ky < s->kh; ky++)
          for (kx = 0; kx < s->kw; kx++)
            for (c = 0; c < p->cg; c++) {
              int32_t v = mrtq__fast_wat(s, wd, g * p->og + o, c, ky, kx);
              t = (ky * s->kw + kx) * p->cg + c; /* the reduction index */
              blk[(t / 4 * MRTQ__FAST_NB + lane) * 4 + t % 4] = (int8_t)v;
              ws[b * MRTQ__FAST_NB + lane] += v;
            }
      }
    p->w = pw, p->wsum = ws, p->wdw = NULL;
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_fastconv_init(const mrtq_conv2d_shape *s, const mrtq_qoperand *w, void *mem, size_t mem_bytes,
                                        mrtq_fastconv *p) {
  return mrtq__fast_init(s, w, mem, mem_bytes, p, 0);
}

MRTQ_API mrtq_status mrtq_fastconv_init_fc(size_t rows, size_t k, size_t o, const mrtq_qoperand *w, void *mem,
                                           size_t mem_bytes, mrtq_fastconv *p) {
  mrtq_conv2d_shape s = mrtq_fc_shape(rows, k, o);
  mrtq_status st = mrtq__fast_init(&s, w, mem, mem_bytes, p, 0);
  if (st == MRTQ_OK) p->fc = 1;
  return st;
}

MRTQ_API mrtq_status mrtq_fastconv_sizes_s16x8(const mrtq_conv2d_shape *s, size_t *wbytes, size_t *sbytes) {
  return mrtq__fast_sizes(s, wbytes, sbytes, 1);
}

MRTQ_API mrtq_status mrtq_fastconv_init_s16x8(const mrtq_conv2d_shape *s, const mrtq_qoperand *w, void *mem,
                                              size_t mem_bytes, mrtq_fastconv *p) {
  return mrtq__fast_init(s, w, mem, mem_bytes, p, 1);
}

MRTQ_API mrtq_status mrtq_fastconv_init_fc_s16x8(size_t rows, size_t k, size_t o, const mrtq_qoperand *w, void *mem,
                                                 size_t mem_bytes, mrtq_fastconv *p) {
  mrtq_conv2d_shape s = mrtq_fc_shape(rows, k, o);
  mrtq_status st = mrtq__fast_init(&s, w, mem, mem_bytes, p, 1);
  if (st == MRTQ_OK) p->fc = 1;
  return st;
}

/* ---- run time ---- */

/* What the store of one output needs. */
typedef struct mrtq__fast_ctx {
  const mrtq_fastconv *p;
  const mrtq_onednn_attr *a; /* oneDNN's epilogue, or NULL: the mrtq_rq one */
  const mrtq_rq *rq;         /* mrtq_fastconv_q8: rq[nrq == 1 ? 0 : oc] */
  size_t nrq;
  const int32_t *rqt;        /* its per-channel table (vec == 2), rows rqs apart */
  size_t rqs;
  const int32_t *bias;
  uint8_t *dst;
  int du, vec; /* du: a u8 dst; vec: the vector epilogue applies */
  int32_t lo, hi;
  size_t d[4];
  /* 16x8: int64 bias (_acc64) or the int32 one above (_acc32), int16 out */
  const int64_t *bias64;
  int acc64;
  int16_t *out16;
  int vec16; /* its vector epilogue (AVX512-VNNI, NHWC): 1 _acc64, 2 / 3 _acc32 with MRTQ_Q31_DBL / _RNDNU; 0 per output */
} mrtq__fast_ctx;

/* Output pixel m (in n, oy, ox order) as logical dst coordinates c[0] = n,
 * c[2] = oy, c[3] = ox (c[1], the channel, is left alone). */
MRTQ__PRIV void mrtq__fast_pixel(const mrtq_fastconv *p, size_t m, size_t c[4]) {
  c[3] = m % p->wo, c[2] = m / p->wo % p->ho, c[0] = m / p->wo / p->ho;
}

/* The kernel taps [*k0, *k1) of output o along one axis whose input index
 * o stride + k dil lies inside the input [pad, pad + in) (an empty range,
 * 0 0, when none does): they are consecutive. */
MRTQ__PRIV void mrtq__fast_krange(size_t o, size_t stride, size_t dil, size_t pad, size_t in, size_t k, size_t *k0,
                                  size_t *k1) {
  size_t a = 0, b = 0;
  while (k-- > 0) {
    size_t i = o * stride + k * dil;
    if (i >= pad && i < pad + in) a = k, b = b ? b : k + 1;
  }
  *k0 = a, *k1 = b;
}

/* The scalar epilogue of count outputs of pixel m (n, oy, ox), channels oc0.. */
MRTQ__PRIV void mrtq__fast_store_scalar(const mrtq__fast_ctx *x, const int32_t *acc, size_t count, size_t m, size_t oc0) {
  const mrtq_fastconv *p = x->p;
  size_t c[4], i;
  mrtq_onednn_pos at;
  mrtq__fast_pixel(p, m, c);
  for (i = 0; i < count; i++) {
    c[1] = oc0 + i;
    at.at = mrtq__conv_out_at(&p->s, p->ho, p->wo, c[0], c[1], c[2], c[3]);
    if (!x->a) { /* acc + bias is the true sum (the caller's worst-case check) */
      int32_t v = mrtq__wrap32((uint32_t)acc[i] + (uint32_t)(x->bias ? x->bias[c[1]] : 0));
      x->dst[at.at] = (uint8_t)mrtq_rq_apply(&x->rq[x->nrq == 1 ? 0 : c[1]], v, x->lo, x->hi);
      continue;
    }
    at.oc = c[1], at.si = mrtq__mask_index(x->a->oscale_mask, 4, x->d, c);
    x->dst[at.at] = (uint8_t)mrtq__onednn_epilogue(x->a, &at, acc[i], x->bias, mrtq__q8(x->dst, at.at, x->du), x->lo, x->hi);
  }
}

/* im2col's copies: len bytes of src, each ^ flip (0, or 0x80 for an s8 src),
 * to d; len bytes of v at d. With AVX512-VNNI 64 bytes a step, the last
 * masked: no library call for the short runs of a row of taps. */
#if MRTQ__FAST_VNNI
MRTQ__PRIV void mrtq__fast_copyx(uint8_t *d, const uint8_t *src, size_t len, uint8_t flip) {
  const __m512i f = _mm512_set1_epi8((char)flip);
  size_t i = 0;
  for (; i + 64 <= len; i += 64) _mm512_storeu_si512(d + i, _mm512_xor_si512(_mm512_loadu_si512(src + i), f));
  if (i < len) {
    __mmask64 m = (__mmask64)((1ull << (len - i)) - 1); /* len - i < 64 */
    _mm512_mask_storeu_epi8(d + i, m, _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, src + i), f));
  }
}
MRTQ__PRIV void mrtq__fast_setx(uint8_t *d, int v, size_t len) {
  const __m512i b = _mm512_set1_epi8((char)v);
  size_t i = 0;
  for (; i + 64 <= len; i += 64) _mm512_storeu_si512(d + i, b);
  if (i < len) _mm512_mask_storeu_epi8(d + i, (__mmask64)((1ull << (len - i)) - 1), b);
}
#else
MRTQ__PRIV void mrtq__fast_copyx(uint8_t *d, const uint8_t *src, size_t len, uint8_t flip) {
  size_t i;
  if (!flip) {
    memcpy(d, src, len);
    return;
  }
  for (i = 0; i + 8 <= len; i += 8) { /* s8 -> u8: x ^ 0x80, eight bytes at a time */
    uint64_t v;
    memcpy(&v, src + i, 8);
    v ^= 0x8080808080808080u;
    memcpy(d + i, &v, 8);
  }
  for (; i < len; i++) d[i] = (uint8_t)(src[i] ^ 0x80);
}
MRTQ__PRIV void mrtq__fast_setx(uint8_t *d, int v, size_t len) { memset(d, v, len); }
#endif

/* The A operand of a micro-tile: row r's kp taps are nseg segments of seglen
 * bytes, segment i at a[r] + i ss[r] (rows past the micro-tile's repeat its
 * last: the C kernel reads them; the AVX512-VNNI one has a kernel per pixel
 * count and does not). An im2col row is one segment of kp (nseg 1); a pixel read in
 * place (mrtq__fast_direct) has a segment per kernel row, each a run of
 * kw c src bytes, dil_h w c apart. */
typedef struct mrtq__fast_arows {
  const uint8_t *a[MRTQ__FAST_MR];
  size_t ss[MRTQ__FAST_MR], nseg, seglen;
  uint32_t flip; /* each byte of A is u = a ^ flip's byte: 0x80808080 for an s8 src read in place, else 0 */
} mrtq__fast_arows;

/* The outputs o in [*a, *b) of an axis (n_out of them) whose k taps (dil
 * apart, from o stride - pad) all lie inside the input [0, in). */
MRTQ__PRIV void mrtq__fast_inner(size_t n_out, size_t stride, size_t dil, size_t pad, size_t in, size_t k, size_t *a,
                                 size_t *b) {
  size_t span = (k - 1) * dil, lo = (pad + stride - 1) / stride, hi = 0;
  if (pad + in > span) hi = (pad + in - 1 - span) / stride + 1;
  if (hi > n_out) hi = n_out;
  *a = lo < hi ? lo : hi, *b = hi;
}

/* Whether the GEMM reads the pixels whose taps are all inside the image in
 * place (no im2col copy): an int8 packing, a u8 src (the vpdpbusd operand
 * as is) or s8 (moved by 128 in the micro-kernel, A's flip: the broadcast
 * of each four taps XORed with 0x80808080), one group, dil_w 1 and c a
 * multiple of 4 (a kernel row's taps one run of kw c bytes, kp = k), NHWC
 * or 1 x 1 pixels and kernel (an inner product). */
MRTQ__PRIV int mrtq__fast_direct(const mrtq_fastconv *p, const mrtq_qoperand *x) {
  const mrtq_conv2d_shape *s = &p->s;
  return !p->x16 && !p->dw && (x->type == MRTQ_U8 || x->type == MRTQ_S8) && s->groups == 1 && s->dil_w == 1 &&
         s->c % 4 == 0 && (s->layout == MRTQ_NHWC || (s->h == 1 && s->w == 1 && s->kh == 1 && s->kw == 1));
}

/* The im2col rows of pixels m0 .. m0 + mt - 1, group g: kp bytes each, u8
 * (s8 src moved by 128; with in4 copied as is, the padding zx's byte, for
 * the kernel to move as it moves the rows read in place), padding = zu,
 * k padding = 0; row r's A (a[r],
 * ss[r]: mrtq__fast_arows) to rows[r], rss[r]. With in4 (mrtq__fast_direct:
 * the interior outputs [in4[0], in4[1]) x [in4[2], in4[3])) an interior
 * pixel is not copied: its row is the src itself. */
MRTQ__PRIV void mrtq__fast_im2col(const mrtq_fastconv *p, const mrtq_qoperand *x, size_t g, size_t m0, size_t mt, int32_t zu,
                                  uint8_t *tile, const size_t *in4, const uint8_t **rows, size_t *rss) {
  const mrtq_conv2d_shape *s = &p->s;
  const uint8_t *xd = (const uint8_t *)x->data;
  /* s8 moved by 128 into u8 here, or (in4: rows read in place) copied as is
     and moved by the kernel, as the in-place rows are (A's flip) */
  uint8_t flip = x->type == MRTQ_U8 || in4 ? 0 : 0x80;
  size_t r, ky, kx, c, i, px[4], n, oy, ox, at0, swc = s->stride_w * s->c;
  if (in4 && x->type != MRTQ_U8) zu ^= 0x80; /* the padding byte before the kernel's move: zx */
  mrtq__fast_pixel(p, m0, px); /* then stepped pixel by pixel (no division per pixel) */
  n = px[0], oy = px[2], ox = px[3];
  /* an in-place pixel's src offset is at0 + ox swc, at0 that of the output
   * row's column 0 (modulo 2^N: its first tap may lie left of the image) */
  at0 = ((n * s->h + oy * s->stride_h - s->pad_top) * s->w - s->pad_left) * s->c;
  for (r = 0; r < mt; r++, ox++) {
    uint8_t *row = tile + r * p->kp;
    if (ox == p->wo) {
      ox = 0, oy++;
      if (oy == p->ho) oy = 0, n++;
      at0 = ((n * s->h + oy * s->stride_h - s->pad_top) * s->w - s->pad_left) * s->c;
    }
    rows[r] = row, rss[r] = in4 ? s->kw * s->c : p->kp;
    if (in4 && oy >= in4[0] && oy < in4[1] && ox >= in4[2] && ox < in4[3]) { /* in place */
      rows[r] = xd + (at0 + ox * swc);
      rss[r] = s->dil_h * s->w * s->c;
      continue;
    }
    if (s->layout == MRTQ_NHWC) { /* per kernel row: padding, then the in-bounds taps */
      const size_t cg = p->cg, run = s->dil_w == 1 && cg == s->c; /* the row's taps one run of src */
      size_t kx0, kx1;
      mrtq__fast_krange(ox, s->stride_w, s->dil_w, s->pad_left, s->w, s->kw, &kx0, &kx1);
      for (ky = 0; ky < s->kh; ky++) {
        size_t iy = oy * s->stride_h + ky * s->dil_h;
        uint8_t *d = row + ky * s->kw * cg;
        if (iy < s->pad_top || iy >= s->pad_top + s->h || kx1 <= kx0) {
          mrtq__fast_setx(d, (int)zu, s->kw * cg);
          continue;
        }
        if (kx0) mrtq__fast_setx(d, (int)zu, kx0 * cg);
        if (kx1 < s->kw) mrtq__fast_setx(d + kx1 * cg, (int)zu, (s->kw - kx1) * cg);
        for (kx = kx0; kx < kx1; kx += run ? kx1 - kx0 : 1) {
          size_t ix = ox * s->stride_w + kx * s->dil_w;
          mrtq__fast_copyx(d + kx * cg, xd + ((n * s->h + iy - s->pad_top) * s->w + ix - s->pad_left) * s->c + g * cg,
                           (run ? kx1 - kx0 : 1) * cg, flip);
        }
      }
      for (i = p->k; i < p->kp; i++) row[i] = 0;
      continue;
    }
    for (ky = 0; ky < s->kh; ky++)
      for (kx = 0; kx < s->kw; kx++) {
        size_t iy = oy * s->stride_h + ky * s->dil_h, ix = ox * s->stride_w + kx * s->dil_w;
        uint8_t *d = row + (ky * s->kw + kx) * p->cg;
        if (mrtq__conv_pad(s, iy, ix)) {
          memset(d, (int)zu, p->cg);
        } else {
          size_t hw = s->h * s->w;
          const uint8_t *src = xd + (n * s->c + g * p->cg) * hw + (iy - s->pad_top) * s->w + ix - s->pad_left;
          for (c = 0; c < p->cg; c++) d[c] = (uint8_t)(src[c * hw] ^ flip);
        }
      }
    for (i = p->k; i < p->kp; i++) row[i] = 0;
  }
}

/* The 16x8 epilogue of count outputs of each of rows pixels m.. (int64 sums
 * lda apart), channels oc0..: conv_s16.h's statements per output. */
MRTQ__PRIV void mrtq__fast_store16_scalar(const mrtq__fast_ctx *x, const int64_t *acc, size_t lda, size_t rows,
                                          size_t count, size_t m, size_t oc0) {
  const mrtq_fastconv *p = x->p;
  size_t c[4], r, i;
  for (r = 0; r < rows; r++) {
    mrtq__fast_pixel(p, m + r, c);
    for (i = 0; i < count; i++) {
      const mrtq_rq *q = &x->rq[x->nrq == 1 ? 0 : oc0 + i];
      int64_t v = acc[r * lda + i] + (x->bias64 ? x->bias64[oc0 + i] : x->bias ? x->bias[oc0 + i] : 0);
      int32_t y = x->acc64 ? mrtq__clamp64(mrtq__s16_x64_wrap(v, q->m), q->qmin, q->qmax)
                           : mrtq_rq_apply(q, mrtq__wrap32((uint32_t)((uint64_t)v & 0xffffffffu)), -32768, 32767);
      x->out16[mrtq__conv_out_at(&p->s, p->ho, p->wo, c[0], oc0 + i, c[2], c[3])] = (int16_t)y;
    }
  }
}

/* The 16x8 im2col rows: kp int16 each, padding and k padding 0 (TFLite's
 * int16 activations have no zero point). */
MRTQ__PRIV void mrtq__fast_im2col16(const mrtq_fastconv *p, const mrtq_qoperand *x, size_t g, size_t m0, size_t mt,
                                    int16_t *tile) {
  const mrtq_conv2d_shape *s = &p->s;
  const uint8_t *xd = (const uint8_t *)x->data; /* any alignment: bytes */
  size_t r, ky, kx, c, px[4];
  for (r = 0; r < mt; r++) {
    int16_t *row = tile + r * p->kp;
    mrtq__fast_pixel(p, m0 + r, px);
    for (ky = 0; ky < s->kh; ky++)
      for (kx = 0; kx < s->kw; kx++) {
        size_t iy = px[2] * s->stride_h + ky * s->dil_h, ix = px[3] * s->stride_w + kx * s->dil_w;
        int16_t *d = row + (ky * s->kw + kx) * p->cg;
        if (mrtq__conv_pad(s, iy, ix)) {
          memset(d, 0, p->cg * sizeof *d);
        } else if (s->layout == MRTQ_NHWC) {
          memcpy(d, xd + 2 * (((px[0] * s->h + iy - s->pad_top) * s->w + ix - s->pad_left) * s->c + g * p->cg),
                 p->cg * sizeof *d);
        } else {
          size_t hw = s->h * s->w, a = (px[0] * s->c + g * p->cg) * hw + (iy - s->pad_top) * s->w + ix - s->pad_left;
          for (c = 0; c < p->cg; c++) d[c] = (int16_t)mrtq__load(xd, a + c * hw, MRTQ_S16);
        }
      }
    if (p->k < p->kp) row[p->k] = 0; /* kp is k rounded up to 2 */
  }
}

#ifdef __cplusplus
}
#endif
#if MRTQ__FAST_VNNI
#include "fastconv_avx512vnni.h"
#endif
#ifdef __cplusplus
extern "C" {
#endif

/* Store count (<= 64) sums of each of rows pixels m.. (rows of acc lda
 * apart), channels oc0.. (consecutive). */
MRTQ__PRIV void mrtq__fast_store(const mrtq__fast_ctx *x, const int32_t *acc, size_t lda, size_t rows, size_t count, size_t m,
                             size_t oc0) {
  size_t r;
#if MRTQ__FAST_VNNI
  if (x->vec) { /* a scale per pixel (the kept constants go through mrtq__fast_store_ev) */
    size_t i, c[4];
    const mrtq_fastconv *p = x->p;
    const mrtq_onednn_attr *a = x->a;
    for (i = 0; i < count; i += 16) {
      size_t nn = count - i < 16 ? count - i : 16;
      __mmask16 mk = (__mmask16)((1u << nn) - 1);
      for (r = 0; r < rows; r++) {
        mrtq__fast_pixel(p, m + r, c);
        c[1] = oc0 + i;
        mrtq__fast_epi16(a, _mm512_maskz_loadu_epi32(mk, acc + r * lda + i), mk, oc0 + i,
                         mrtq__mask_index(a->oscale_mask, 4, x->d, c), (m + r) * p->s.o + oc0 + i, x->bias, x->du, x->dst);
      }
    }
    return;
  }
#endif
  for (r = 0; r < rows; r++) mrtq__fast_store_scalar(x, acc + r * lda, count, m + r, oc0);
}

#if !MRTQ__FAST_VNNI
#define mrtq__fast_store16 mrtq__fast_store16_scalar /* the AVX512-VNNI twin picks a vector form */

/* The micro-kernel in C: ct[r][j] = sum_k a[r][k] w[k][j] - zu wsum[j] for
 * r < mr and nr blocks of 16 channels (a[r][k]: A's row r, tap k =
 * i seglen + t at A->a[r] + i A->ss[r] + t), every sum modulo 2^32. */
MRTQ__PRIV void mrtq__fast_kernel(const mrtq__fast_arows *A, size_t mr, const int8_t *w, size_t nr, size_t kp,
                                  const int32_t *ws, int32_t zu, int32_t *ct) {
  size_t r, j, i, t;
  for (r = 0; r < mr; r++)
    for (j = 0; j < nr * MRTQ__FAST_NB; j++) {
      const int8_t *blk = w + j / MRTQ__FAST_NB * kp * MRTQ__FAST_NB;
      uint32_t sum = 0;
      for (i = 0; i < A->nseg; i++)
        for (t = 0; t < A->seglen; t++) {
          size_t k = i * A->seglen + t;
          sum += (uint32_t)((int32_t)(uint8_t)(A->a[r][i * A->ss[r] + t] ^ (uint8_t)A->flip) *
                            blk[(k / 4 * MRTQ__FAST_NB + j % MRTQ__FAST_NB) * 4 + k % 4]);
        }
      ct[r * MRTQ__FAST_NB * MRTQ__FAST_NR + j] = mrtq__wrap32(sum - (uint32_t)zu * (uint32_t)ws[j]);
    }
}

/* The 16x8 micro-kernel in C: ct[r][j] = sum_k a[r][k] w[k][j] exactly for
 * r < mr and nr blocks of 16 channels (|a w| <= 2^22: an int64 sum). */
MRTQ__PRIV void mrtq__fast_kernel16(const int16_t *a, size_t lda, size_t mr, const int16_t *w, size_t nr, size_t kp,
                                    int32_t *ct32, int64_t *ct) {
  size_t r, j, t;
  (void)ct32; /* the vector kernel's chunk sums */
  for (r = 0; r < mr; r++)
    for (j = 0; j < nr * MRTQ__FAST_NB; j++) {
      const int16_t *blk = w + j / MRTQ__FAST_NB * kp * MRTQ__FAST_NB;
      int64_t sum = 0;
      for (t = 0; t < kp; t++) sum += (int32_t)a[r * lda + t] * blk[(t / 2 * MRTQ__FAST_NB + j % MRTQ__FAST_NB) * 2 + t % 2];
      ct[r * MRTQ__FAST_NB * MRTQ__FAST_NR + j] = sum;
    }
}

/* 16x8 depthwise in C: the exact sum over the in-bounds taps of x w, one
 * channel at a time, into the 16x8 epilogue. */
MRTQ__PRIV void mrtq__fast_dw16(const mrtq__fast_ctx *x, const mrtq_qoperand *src, size_t first, size_t step) {
  const mrtq_fastconv *p = x->p;
  const mrtq_conv2d_shape *s = &p->s;
  size_t m, c, ky, kx, cp = mrtq__fast_up(s->c, MRTQ__FAST_NB), M = s->n * p->ho * p->wo, px[4];
  int64_t acc[64];
  for (m = 0; m < M; m++) {
    if ((m / p->wo) % step != first) continue; /* output rows first, first + step, ... */
    mrtq__fast_pixel(p, m, px);
    for (c = 0; c < s->c; c++) {
      int64_t sum = 0;
      for (ky = 0; ky < s->kh; ky++)
        for (kx = 0; kx < s->kw; kx++) {
          size_t iy = px[2] * s->stride_h + ky * s->dil_h, ix = px[3] * s->stride_w + kx * s->dil_w;
          if (mrtq__conv_pad(s, iy, ix)) continue;
          sum += (int64_t)mrtq__load(src->data, ((px[0] * s->h + iy - s->pad_top) * s->w + ix - s->pad_left) * s->c + c,
                                     MRTQ_S16) * p->wdw[(ky * s->kw + kx) * cp + c];
        }
      acc[c % 64] = sum;
      if (c % 64 == 63 || c + 1 == s->c) mrtq__fast_store16(x, acc, 0, 1, c % 64 + 1, m, c - c % 64);
    }
  }
}

/* Depthwise in C: sum over the in-bounds taps of (x - zx) w, one channel at a
 * time, into the scalar epilogue. */
MRTQ__PRIV void mrtq__fast_dw(const mrtq__fast_ctx *x, const mrtq_qoperand *src, size_t first, size_t step) {
  const mrtq_fastconv *p = x->p;
  const mrtq_conv2d_shape *s = &p->s;
  size_t m, c, ky, kx, cp = mrtq__fast_up(s->c, MRTQ__FAST_NB), M = s->n * p->ho * p->wo, px[4];
  int32_t acc[64];
  int su = src->type == MRTQ_U8;
  for (m = 0; m < M; m++) {
    size_t n, oy, ox;
    if ((m / p->wo) % step != first) continue; /* output rows first, first + step, ... */
    mrtq__fast_pixel(p, m, px);
    n = px[0], oy = px[2], ox = px[3];
    for (c = 0; c < s->c; c++) {
      int32_t sum = 0;
      for (ky = 0; ky < s->kh; ky++)
        for (kx = 0; kx < s->kw; kx++) {
          size_t iy = oy * s->stride_h + ky * s->dil_h, ix = ox * s->stride_w + kx * s->dil_w;
          if (mrtq__conv_pad(s, iy, ix)) continue;
          sum += (mrtq__q8(src->data, ((n * s->h + iy - s->pad_top) * s->w + ix - s->pad_left) * s->c + c, su) - src->zp) *
                 p->wdw[(ky * s->kw + kx) * cp + c];
        }
      acc[c % 64] = sum;
      if (c % 64 == 63 || c + 1 == s->c) mrtq__fast_store(x, acc, 0, 1, c % 64 + 1, m, c - c % 64);
    }
  }
}
#endif

/* One task of a call. Depthwise: output rows first, first + slots, ...
 * GEMM: items (group, tile of mt pixels, chunk of MRTQ__FAST_NR channel
 * blocks), chunk fastest, gathering a tile (im2col; with mrtq__fast_direct
 * only its pixels at the image's edges) once for a run of its chunks. With
 * gcc / clang and more than one slot the tasks take runs of `grain` items
 * (up to a tile's chunks; fewer where that would leave under 8 runs per
 * task) from a shared counter until none is left (a task on a core that
 * runs slower, or starts later, takes fewer); otherwise task t takes the
 * consecutive items [t N / slots, (t + 1) N / slots). Every output is
 * computed the same way whatever the split (exact integer sums, the epilogue
 * per output), so any number of tasks and any schedule give the same bytes. */
typedef struct mrtq__fast_job {
  const mrtq__fast_ctx *cx;
  const mrtq_qoperand *x;
  uint8_t *scratch;
  size_t slot_bytes, slots, mt, tiles, chunks, grain;
  size_t next; /* the shared counter (__atomic builtins only) */
} mrtq__fast_job;

#ifndef MRTQ__FAST_SHARED
#if defined(__GNUC__)
#define MRTQ__FAST_SHARED 1
#else
#define MRTQ__FAST_SHARED 0
#endif
#endif
/* The next run [*lo, *hi) of items for a task, 0 when none is left: from
 * the shared counter, or once the task's static range. */
MRTQ__PRIV int mrtq__fast_take(mrtq__fast_job *j, size_t first, size_t items, size_t *lo, size_t *hi) {
#if MRTQ__FAST_SHARED
  if (j->slots > 1) {
    *lo = __atomic_fetch_add(&j->next, j->grain, __ATOMIC_RELAXED);
    *hi = items - *lo < j->grain ? items : *lo + j->grain;
    return *lo < items;
  }
#endif
  if (*hi != 0 || *lo != 0) return 0; /* the static range is taken once */
  *lo = items / j->slots * first + (first < items % j->slots ? first : items % j->slots);
  *hi = *lo + items / j->slots + (first < items % j->slots);
  if (*hi == *lo) return 0;
  return 1;
}

MRTQ__PRIV void mrtq__fast_task(void *job, size_t first) {
  mrtq__fast_job *j = (mrtq__fast_job *)job;
  const mrtq__fast_ctx *cx = j->cx;
  const mrtq_qoperand *x = j->x;
  const mrtq_fastconv *p = cx->p;
  size_t M = p->s.n * p->ho * p->wo, items = p->s.groups * j->tiles * j->chunks, it, r0, r, last = (size_t)-1;
  size_t lo = 0, hi = 0, in4[4], *in = NULL, rss[96];
  const uint8_t *rows[96]; /* the tile's A rows (j->mt <= 96) */
  mrtq__fast_arows A;
  uint8_t *tile;
  int32_t *ct, zu;
  int64_t *ct64;
#if MRTQ__FAST_VNNI
  mrtq__fast_epv ev[MRTQ__FAST_NR]; /* the epilogue's constants of the item's channel blocks */
  const int kept = !p->x16 && mrtq__fast_kept(cx);
#endif
  if (first >= j->slots) return;
  if (p->dw) { /* the C loops, or their AVX512-VNNI twins */
    if (p->x16) mrtq__fast_dw16(cx, x, first, j->slots);
    else mrtq__fast_dw(cx, x, first, j->slots);
    return;
  }
  tile = (uint8_t *)mrtq__fast_align(j->scratch + first * j->slot_bytes);
  ct = (int32_t *)mrtq__fast_align(tile + p->mt * p->kp * (p->x16 ? 2 : 1));
  ct64 = (int64_t *)mrtq__fast_align(ct + MRTQ__FAST_MR * MRTQ__FAST_NB * MRTQ__FAST_NR); /* 16x8 only */
  zu = x->zp + (x->type == MRTQ_U8 ? 0 : 128);
  A.nseg = 1, A.seglen = p->kp, A.flip = 0;
  if (mrtq__fast_direct(p, x)) { /* interior pixels read in place, a segment per kernel row */
    mrtq__fast_inner(p->ho, p->s.stride_h, p->s.dil_h, p->s.pad_top, p->s.h, p->s.kh, &in4[0], &in4[1]);
    mrtq__fast_inner(p->wo, p->s.stride_w, 1, p->s.pad_left, p->s.w, p->s.kw, &in4[2], &in4[3]);
    in = in4, A.nseg = p->s.kh, A.seglen = p->s.kw * p->s.c, A.flip = x->type == MRTQ_U8 ? 0 : 0x80808080u;
  }
  while (mrtq__fast_take(j, first, items, &lo, &hi)) {
    for (it = lo; it < hi; it++) {
      size_t tg = it / j->chunks, g = tg / j->tiles, m0 = tg % j->tiles * j->mt, ob0 = it % j->chunks * MRTQ__FAST_NR;
      size_t mt = M - m0 < j->mt ? M - m0 : j->mt;
      size_t nr = p->ob - ob0 < MRTQ__FAST_NR ? p->ob - ob0 : MRTQ__FAST_NR, oc0 = ob0 * MRTQ__FAST_NB;
      size_t nc = p->og - oc0 < nr * MRTQ__FAST_NB ? p->og - oc0 : nr * MRTQ__FAST_NB, blk = g * p->ob + ob0;
#if MRTQ__FAST_VNNI
      if (kept) mrtq__fast_ev_init(cx, ev, nc, g * p->og + oc0);
#endif
      if (tg != last) {
        if (p->x16) mrtq__fast_im2col16(p, x, g, m0, mt, (int16_t *)tile);
        else mrtq__fast_im2col(p, x, g, m0, mt, zu, tile, in, rows, rss);
        last = tg;
      }
      for (r0 = 0; r0 < mt; r0 += MRTQ__FAST_MR) {
        size_t mr = mt - r0 < MRTQ__FAST_MR ? mt - r0 : MRTQ__FAST_MR;
        if (p->x16) {
          mrtq__fast_kernel16((const int16_t *)tile + r0 * p->kp, p->kp, mr, p->w16 + blk * p->kp * MRTQ__FAST_NB, nr, p->kp,
                              ct, ct64);
          mrtq__fast_store16(cx, ct64, MRTQ__FAST_NB * MRTQ__FAST_NR, mr, nc, m0 + r0, g * p->og + oc0);
          continue;
        }
        for (r = 0; r < MRTQ__FAST_MR; r++) /* rows past mr repeat the last */
          A.a[r] = rows[r0 + (r < mr ? r : mr - 1)], A.ss[r] = rss[r0 + (r < mr ? r : mr - 1)];
        mrtq__fast_kernel(&A, mr, p->w + blk * p->kp * MRTQ__FAST_NB, nr, p->kp, p->wsum + blk * MRTQ__FAST_NB, zu, ct);
#if MRTQ__FAST_VNNI
        if (kept) {
          mrtq__fast_store_ev(cx, ev, ct, MRTQ__FAST_NB * MRTQ__FAST_NR, mr, nc, m0 + r0, g * p->og + oc0);
          continue;
        }
#endif
        mrtq__fast_store(cx, ct, MRTQ__FAST_NB * MRTQ__FAST_NR, mr, nc, m0 + r0, g * p->og + oc0);
      }
    }
  }
}

/* The integer sums of every output, each handed to the context's epilogue
 * (checks done by the caller): one task per scratch slot, run by the
 * caller's parallel-for or in turn. */
MRTQ__PRIV void mrtq__fast_run(const mrtq__fast_ctx *cx, const mrtq_qoperand *x, void *scratch, size_t slot_bytes,
                               const mrtq_parallel *par) {
  const mrtq_fastconv *p = cx->p;
  size_t M = p->s.n * p->ho * p->wo, slots = par && par->slots > 1 ? par->slots : 1, t;
  mrtq__fast_job j;
  j.cx = cx, j.x = x, j.scratch = (uint8_t *)scratch, j.slot_bytes = slot_bytes, j.slots = slots, j.mt = p->mt;
  j.chunks = (p->ob + MRTQ__FAST_NR - 1) / MRTQ__FAST_NR;
  if (slots > 1 && !p->dw) { /* smaller tiles where there would be fewer than 8 tiles per task */
    size_t want = (8 * slots + p->s.groups - 1) / p->s.groups; /* tiles wanted */
    size_t mt = mrtq__fast_up((M + want - 1) / want, MRTQ__FAST_MR);
    j.mt = mt < p->mt ? mt : p->mt;
  }
  j.tiles = (M + j.mt - 1) / j.mt;
  j.next = 0; /* runs of up to a tile's chunks (one im2col each), at least 8 runs per task where there are items for them */
  j.grain = p->s.groups * j.tiles * j.chunks / (8 * slots);
  j.grain = j.grain > j.chunks ? j.chunks : j.grain < 1 ? 1 : j.grain;
  if (slots > 1 && par->parallel_for) {
    par->parallel_for(par->pool, mrtq__fast_task, &j, slots);
    return;
  }
  for (t = 0; t < slots; t++) mrtq__fast_task(&j, t);
}

/* The context's fields every epilogue shares. */
MRTQ__PRIV void mrtq__fast_ctx_init(mrtq__fast_ctx *cx, const mrtq_fastconv *p, const int32_t *bias, mrtq_dtype dst_type,
                                    void *dst) {
  cx->p = p, cx->a = NULL, cx->rq = NULL, cx->nrq = 0, cx->rqt = NULL, cx->rqs = 0, cx->bias = bias, cx->dst = (uint8_t *)dst;
  cx->du = dst_type == MRTQ_U8, cx->lo = cx->du ? 0 : -128, cx->hi = cx->du ? 255 : 127;
  cx->d[0] = p->s.n, cx->d[1] = p->s.o, cx->d[2] = p->ho, cx->d[3] = p->wo;
  cx->vec = 0, cx->bias64 = NULL, cx->acc64 = 0, cx->out16 = NULL, cx->vec16 = 0;
}

/* The scratch a call needs: sbytes per slot (*slot), slots of them. */
MRTQ__PRIV mrtq_status mrtq__fast_scratch(const mrtq_fastconv *p, const mrtq_parallel *par, size_t scratch_bytes,
                                          size_t *slot) {
  size_t wb, sb, slots = par && par->slots > 1 ? par->slots : 1;
  mrtq_status st = mrtq__fast_sizes(&p->s, &wb, &sb, p->x16);
  if (st != MRTQ_OK) return st;
  if (slots > SIZE_MAX / sb) return MRTQ__ERR(MRTQ_ESHAPE, "par->slots: slots * sbytes overflows size_t");
  if (scratch_bytes < slots * sb)
    return MRTQ__ERR(MRTQ_EINVAL, "scratch_bytes: smaller than sbytes from mrtq_fastconv_sizes (times par->slots)");
  *slot = sb;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_fastconv_onednn(const mrtq_fastconv *p, const mrtq_onednn_attr *attr, const mrtq_qoperand *x,
                                          const int32_t *bias, mrtq_dtype dst_type, void *scratch, size_t scratch_bytes,
                                          const mrtq_parallel *par, void *dst) {
  mrtq__fast_ctx cx;
  const mrtq_onednn_attr *a = attr;
  size_t wb, sb, slot;
  mrtq_status st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (p->x16)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "p: packed for 16x8 by mrtq_fastconv_init_s16x8 (mrtq_fastconv_s16x8_acc64 / "
                                        "_acc32 take it)");
  if (p->wt != MRTQ_S8 || p->wz)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "p: weights packed from other than MRTQ_S8 or with a zero point (oneDNN's are "
                                        "s8 without one; mrtq_fastconv_q8 takes them)");
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  if (!x->data) return MRTQ__ERR(MRTQ_EINVAL, "x->data: NULL");
  if ((st = MRTQ__Q8_TYPE(x->type, "x->type")) != MRTQ_OK) return st;
  if ((st = MRTQ__Q8_TYPE(dst_type, "dst_type")) != MRTQ_OK) return st;
  if (!scratch) return MRTQ__ERR(MRTQ_EINVAL, "scratch: NULL");
  if (!dst) return MRTQ__ERR(MRTQ_EINVAL, "dst: NULL");
  if ((st = mrtq_fastconv_sizes(&p->s, &wb, &sb)) != MRTQ_OK) return st;
  if ((st = mrtq__onednn_conv_ok(attr, p->fc ? 2 : 4, x, NULL, bias, 0, p->s.o, (uint64_t)p->k, dst_type)) != MRTQ_OK)
    return st;
  if ((st = mrtq__fast_scratch(p, par, scratch_bytes, &slot)) != MRTQ_OK) return st;
  (void)sb;
  mrtq__fast_ctx_init(&cx, p, bias, dst_type, dst);
  cx.a = a;
  /* vector epilogue: dst channels consecutive, and the scale index, if it
     follows the channel, moving by one per channel */
  cx.vec = (p->s.layout == MRTQ_NHWC || p->ho * p->wo == 1) && !a->ref_rounding &&
           (!(a->oscale_mask & 2) || ((!(a->oscale_mask & 4) || p->ho == 1) && (!(a->oscale_mask & 8) || p->wo == 1)));
  mrtq__fast_run(&cx, x, scratch, slot, par);
  return MRTQ_OK;
}

/* Whether mrtq_fastconv_q8's vector epilogue can apply: a pixel's outputs
 * consecutive in dst (NHWC, or one pixel). */
MRTQ__PRIV int mrtq__fast_q8_vec(const mrtq_fastconv *p) { return p->s.layout == MRTQ_NHWC || p->ho * p->wo == 1; }

/* mrtq_fastconv_q8's epilogue form for rq (requant.h's lane forms: 2 Q31 in
 * 32-bit lanes, 1 Q31 in 64-bit lanes, 3 FP32; 0 mrtq_rq_apply per output),
 * and for forms 2 and 3 their table at t (MRTQ__FAST_RQT rows of
 * up(o, 16), 64-byte aligned): rows 0-6 as mrtq__rq_lanes_table fills them
 * (found and filled in one pass), row 7 the bias (0 without), the padding
 * columns 0. */
MRTQ__PRIV int mrtq__fast_q8_table(const mrtq_fastconv *p, const mrtq_rq *rq, size_t nrq, const int32_t *bias, int32_t lo,
                                   int32_t hi, int32_t *t) {
  size_t n = mrtq__fast_up(p->s.o, MRTQ__FAST_NB), r, c;
  int f;
  if (!mrtq__fast_q8_vec(p)) return 0;
  f = mrtq__rq_lanes_table(rq, nrq, p->s.o, lo, hi, t, n);
  if (f >= 2) {
    for (r = 0; n > p->s.o && r < MRTQ__FAST_RQT; r++) memset(t + r * n + p->s.o, 0, (n - p->s.o) * sizeof *t); /* padding */
    for (c = 0; c < p->s.o; c++) t[7 * n + c] = bias ? bias[c] : 0;
  }
  return f;
}

MRTQ_API mrtq_status mrtq_fastconv_q8(const mrtq_fastconv *p, const mrtq_rq *rq, size_t nrq, const mrtq_qoperand *x,
                                      const int32_t *bias, mrtq_dtype dst_type, void *scratch, size_t scratch_bytes,
                                      const mrtq_parallel *par, void *dst) {
  mrtq__fast_ctx cx;
  mrtq_qoperand w;
  size_t ho, wo, slot;
  uint64_t k;
  int32_t *t;
  mrtq_status st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (p->x16)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "p: packed for 16x8 by mrtq_fastconv_init_s16x8 (mrtq_fastconv_s16x8_acc64 / "
                                        "_acc32 take it)");
  /* the packed weights as the operand mrtq_conv2d_q8 would check */
  /* the weights as given (type, largest zero point): the same worst-case check */
  w.data = p, w.type = p->wt, w.zp = p->wz, w.zp_ch = NULL;
  if ((st = mrtq__conv_check(&p->s, x, &w, bias, &ho, &wo, &k)) != MRTQ_OK) return st;
  if ((st = mrtq__q8_out_check(rq, nrq, p->s.o, 0, dst_type, dst)) != MRTQ_OK) return st;
  if (!scratch) return MRTQ__ERR(MRTQ_EINVAL, "scratch: NULL");
  if ((st = mrtq__fast_scratch(p, par, scratch_bytes, &slot)) != MRTQ_OK) return st;
  if (ho != p->ho || wo != p->wo) return MRTQ__ERR(MRTQ_EINVAL, "p->ho, p->wo: not the shape's output size (not filled by mrtq_fastconv_init)");
  mrtq__fast_ctx_init(&cx, p, bias, dst_type, dst);
  cx.rq = rq, cx.nrq = nrq;
  t = (int32_t *)mrtq__fast_align((uint8_t *)scratch + mrtq__fast_sbase(p));
  cx.vec = mrtq__fast_q8_table(p, rq, nrq, bias, cx.lo, cx.hi, t);
  if (cx.vec >= 2) cx.rqs = mrtq__fast_up(p->s.o, MRTQ__FAST_NB), cx.rqt = t;
  mrtq__fast_run(&cx, x, scratch, slot, par);
  return MRTQ_OK;
}

/* The planned descriptors and bias in mem: the table, rq's copies, bias's. */
MRTQ__PRIV size_t mrtq__fast_plan_tbytes(const mrtq_fastconv *p) {
  return MRTQ__FAST_RQT * mrtq__fast_up(p->s.o, MRTQ__FAST_NB) * sizeof(int32_t);
}

MRTQ_API mrtq_status mrtq_fastconv_q8plan_sizes(const mrtq_fastconv *p, size_t *bytes) {
  size_t o;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!bytes) return MRTQ__ERR(MRTQ_EINVAL, "bytes: NULL");
  if (p->x16)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "p: packed for 16x8 by mrtq_fastconv_init_s16x8 (mrtq_fastconv_s16x8_acc64 / "
                                        "_acc32 take it)");
  o = p->s.o;
  if (o > (SIZE_MAX - 128) / (MRTQ__FAST_RQT * sizeof(int32_t) + sizeof(mrtq_rq) + sizeof(int32_t)) - MRTQ__FAST_NB)
    return MRTQ__ERR(MRTQ_ESHAPE, "p->s.o: the plan's size overflows size_t");
  *bytes = mrtq__fast_plan_tbytes(p) + o * (sizeof(mrtq_rq) + sizeof(int32_t)) + 64;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_fastconv_q8plan_init(const mrtq_fastconv *p, const mrtq_rq *rq, size_t nrq, const int32_t *bias,
                                               mrtq_dtype dst_type, void *mem, size_t mem_bytes, mrtq_fastconv_q8plan *plan) {
  size_t ho, wo, bytes;
  mrtq_status st;
  int32_t *t, *bc, lo = dst_type == MRTQ_U8 ? 0 : -128, hi = dst_type == MRTQ_U8 ? 255 : 127;
  mrtq_rq *rc;
  mrtq_fastconv_q8plan r;
  if ((st = mrtq_fastconv_q8plan_sizes(p, &bytes)) != MRTQ_OK) return st;
  if ((st = mrtq_conv2d_out(&p->s, &ho, &wo)) != MRTQ_OK) return st;
  if (ho != p->ho || wo != p->wo)
    return MRTQ__ERR(MRTQ_EINVAL, "p->ho, p->wo: not the shape's output size (not filled by mrtq_fastconv_init)");
  if ((st = mrtq__q8_out_check(rq, nrq, p->s.o, 0, dst_type, p)) != MRTQ_OK) return st; /* no output here: p for it */
  if (!mem) return MRTQ__ERR(MRTQ_EINVAL, "mem: NULL");
  if (!plan) return MRTQ__ERR(MRTQ_EINVAL, "plan: NULL");
  if (mem_bytes < bytes) return MRTQ__ERR(MRTQ_EINVAL, "mem_bytes: smaller than bytes from mrtq_fastconv_q8plan_sizes");
  t = (int32_t *)mrtq__fast_align(mem);
  rc = (mrtq_rq *)((uint8_t *)t + mrtq__fast_plan_tbytes(p));
  bc = (int32_t *)(rc + p->s.o);
  memcpy(rc, rq, nrq * sizeof *rq);
  if (bias) memcpy(bc, bias, p->s.o * sizeof *bias);
  r.p = p, r.rq = rc, r.nrq = nrq, r.o = p->s.o, r.bias = bias ? bc : NULL, r.bias_max = mrtq__bias_max(bias, p->s.o);
  r.dst_type = dst_type, r.n = mrtq__fast_up(p->s.o, MRTQ__FAST_NB), r.t = t;
  r.form = mrtq__fast_q8_table(p, rc, nrq, r.bias, lo, hi, t);
  *plan = r;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_fastconv_q8plan_run(const mrtq_fastconv_q8plan *plan, const mrtq_qoperand *x, void *scratch,
                                              size_t scratch_bytes, const mrtq_parallel *par, void *dst) {
  mrtq__fast_ctx cx;
  mrtq_qoperand w;
  const mrtq_fastconv *p;
  size_t slot;
  mrtq_status st;
  if (!plan) return MRTQ__ERR(MRTQ_EINVAL, "plan: NULL");
  if (!(p = plan->p)) return MRTQ__ERR(MRTQ_EINVAL, "plan->p: NULL (not from mrtq_fastconv_q8plan_init)");
  if (p->x16 || p->s.o != plan->o || (plan->form && !mrtq__fast_q8_vec(p)))
    return MRTQ__ERR(MRTQ_EINVAL, "plan->p: its packing changed since mrtq_fastconv_q8plan_init (plan again)");
  w.data = p, w.type = p->wt, w.zp = p->wz, w.zp_ch = NULL; /* as mrtq_fastconv_q8 checks them */
  if ((st = mrtq__dot_check_b((uint64_t)p->k, x, &w, p->s.o, plan->bias_max, 0)) != MRTQ_OK) return st;
  if (!dst) return MRTQ__ERR(MRTQ_EINVAL, "dst: NULL");
  if (!scratch) return MRTQ__ERR(MRTQ_EINVAL, "scratch: NULL");
  if ((st = mrtq__fast_scratch(p, par, scratch_bytes, &slot)) != MRTQ_OK) return st;
  mrtq__fast_ctx_init(&cx, p, plan->bias, plan->dst_type, dst);
  cx.rq = plan->rq, cx.nrq = plan->nrq, cx.vec = plan->form;
  if (plan->form >= 2) cx.rqs = plan->n, cx.rqt = plan->t;
  mrtq__fast_run(&cx, x, scratch, slot, par);
  return MRTQ_OK;
}

/* Both 16x8 entry points: bias64 or bias32 (at most one non-NULL), acc64. */
MRTQ__PRIV mrtq_status mrtq__fast_s16x8(const mrtq_fastconv *p, const mrtq_rq *rq, size_t nrq, const mrtq_qoperand *x,
                                        const int64_t *bias64, const int32_t *bias32, int acc64, void *scratch,
                                        size_t scratch_bytes, const mrtq_parallel *par, int16_t *out) {
  mrtq__fast_ctx cx;
  mrtq_qoperand w;
  size_t ho, wo, slot;
  uint64_t k;
  mrtq_status st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!p->x16)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "p: not packed by mrtq_fastconv_init_s16x8 (the int8 packing of "
                                        "mrtq_fastconv_init feeds mrtq_fastconv_q8 / _onednn)");
  /* the packed weights as the operand mrtq_conv2d_s16x8_* would check (s8, zero point 0: the packing's rule) */
  w.data = p, w.type = MRTQ_S8, w.zp = 0, w.zp_ch = NULL;
  if ((st = mrtq__s16x8_check(&p->s, rq, nrq, x, &w, bias64, bias32, acc64, out, &ho, &wo, &k)) != MRTQ_OK) return st;
  if (!scratch) return MRTQ__ERR(MRTQ_EINVAL, "scratch: NULL");
  if ((st = mrtq__fast_scratch(p, par, scratch_bytes, &slot)) != MRTQ_OK) return st;
  if (ho != p->ho || wo != p->wo)
    return MRTQ__ERR(MRTQ_EINVAL, "p->ho, p->wo: not the shape's output size (not filled by mrtq_fastconv_init)");
  mrtq__fast_ctx_init(&cx, p, bias32, MRTQ_S8, NULL);
  cx.rq = rq, cx.nrq = nrq, cx.bias64 = bias64, cx.acc64 = acc64, cx.out16 = out;
  cx.lo = -32768, cx.hi = 32767;
  /* vector epilogue: outputs of a pixel consecutive; _acc64 always (the
     checks bound every term), _acc32 when every rq is MRTQ_Q31_DBL in
     mrtq_rq_init's domain (requant.h's lane forms 1, 2: run in 64-bit lanes)
     or every rq MRTQ_Q31_RNDNU in TFLite's */
  if (p->s.layout == MRTQ_NHWC || p->ho * p->wo == 1) {
    int f = acc64 ? 0 : mrtq__rq_lanes_form(rq, nrq, p->s.o, cx.lo, cx.hi);
    size_t c, rndnu = 0; /* descriptors MRTQ_Q31_RNDNU with a shift in [-31, 30] (TFLite's domain) */
    for (c = 0; !acc64 && c < nrq; c++)
      rndnu += rq[c].scheme == MRTQ_Q31_RNDNU && rq[c].m.shift >= -31 && rq[c].m.shift <= 30;
    cx.vec16 = acc64 ? 1 : f == 1 || f == 2 ? 2 : rndnu == nrq ? 3 : 0;
  }
  mrtq__fast_run(&cx, x, scratch, slot, par);
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_fastconv_s16x8_acc64(const mrtq_fastconv *p, const mrtq_rq *rq, size_t nrq,
                                               const mrtq_qoperand *x, const int64_t *bias, void *scratch,
                                               size_t scratch_bytes, const mrtq_parallel *par, int16_t *out) {
  return mrtq__fast_s16x8(p, rq, nrq, x, bias, NULL, 1, scratch, scratch_bytes, par, out);
}

MRTQ_API mrtq_status mrtq_fastconv_s16x8_acc32(const mrtq_fastconv *p, const mrtq_rq *rq, size_t nrq,
                                               const mrtq_qoperand *x, const int32_t *bias, void *scratch,
                                               size_t scratch_bytes, const mrtq_parallel *par, int16_t *out) {
  return mrtq__fast_s16x8(p, rq, nrq, x, NULL, bias, 0, scratch, scratch_bytes, par, out);
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_FASTCONV_H */
