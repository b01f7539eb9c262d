/* The C shim of the benchmark suite: the measured loops, compiled as C (one
 * object per SIMD path, see bench/meson.build), declared here for the C++
 * registration file and the peers. */
#ifndef MRTQ_BENCH_SHIM_H
#define MRTQ_BENCH_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A requantization described by scheme (0..4 = mrtq_scheme), scale, zero point. */
typedef struct mrtqb_rq {
  unsigned char opaque[64];
} mrtqb_rq;

int mrtqb_rq_init(mrtqb_rq *rq, int scheme, double scale, int32_t zp);
/* The encoded Q31 multiplier of rq (for the gemmlowp peer). */
void mrtqb_rq_mult(const mrtqb_rq *rq, int32_t *mult, int32_t *shift);

/* All of rq's parameters (for the plain-loop baseline). */
void mrtqb_rq_params(const mrtqb_rq *rq, int *scheme, int32_t *mult, int32_t *shift, float *scale, int32_t *zp);
/* The plain-loop baseline (bench/plain.c): each family as a user writes it. */
void mrtqb_plain(const mrtqb_rq *rq, const int32_t *acc, size_t n, int8_t *out);

/* mrtq_requant_s8 built for one SIMD path each. */
void mrtqb_requant_scalar(const mrtqb_rq *rq, const int32_t *acc, size_t n, int8_t *out);
void mrtqb_requant_sse41(const mrtqb_rq *rq, const int32_t *acc, size_t n, int8_t *out);
void mrtqb_requant_avx2(const mrtqb_rq *rq, const int32_t *acc, size_t n, int8_t *out);
void mrtqb_requant_avx512(const mrtqb_rq *rq, const int32_t *acc, size_t n, int8_t *out);
void mrtqb_requant_dispatch(const mrtqb_rq *rq, const int32_t *acc, size_t n, int8_t *out);

/* Per channel, channel-inner (mrtq_requant_s8_inner, one object per path):
 * rows x ch accumulators, rq[c] for channel c. The descriptions are made by
 * mrtqb_perch_create (scheme 0 Q31_DBL or 4 FP32, ch scales, one zero point;
 * NULL on failure) and read back by mrtqb_perch_params for the plain loop. */
void *mrtqb_perch_create(int scheme, size_t ch, const double *scale, int32_t zp);
void mrtqb_perch_destroy(void *rq);
void mrtqb_perch_params(const void *rq, size_t c, int32_t *mult, int32_t *shift, float *scale, int32_t *zp);
void mrtqb_inner_scalar(const void *rq, const int32_t *acc, size_t rows, size_t ch, int8_t *out);
void mrtqb_inner_avx2(const void *rq, const int32_t *acc, size_t rows, size_t ch, int8_t *out);
void mrtqb_inner_avx512(const void *rq, const int32_t *acc, size_t rows, size_t ch, int8_t *out);
void mrtqb_inner_dispatch(const void *rq, const int32_t *acc, size_t rows, size_t ch, int8_t *out);
/* The plain per-channel loop (bench/plain.c): TFLite's per-channel conv
 * output stage (scheme 0: MultiplyByQuantizedMultiplier with mult[c],
 * shift[c]) or XNNPACK's scalar fmagic with scale[c] (scheme 4), + zp, int8. */
void mrtqb_plain_perch(int scheme, const int32_t *mult, const int32_t *shift, const float *scale, int32_t zp,
                       const int32_t *acc, size_t rows, size_t ch, int8_t *out);

/* The ceiling: load the same int32 bytes, narrow to int8, store. */
void mrtqb_ceiling_avx2(const int32_t *acc, size_t n, int8_t *out);
void mrtqb_ceiling_avx512(const int32_t *acc, size_t n, int8_t *out);

/* An int8 layer for the kernel benchmarks: NHWC u8 src (zero point src_zp),
 * s8 weights OHWI, s32 bias, per-channel output scales, ReLU, u8 dst (zero
 * point dst_zp); fc: an inner product of n rows of c values (h = w = k = 1). */
typedef struct mrtqb_layer {
  const char *name;
  size_t n, c, h, w, o, k, stride, pad, groups;
  int fc;
  int32_t src_zp, dst_zp;
  const float *oscale; /* o values */
} mrtqb_layer;

int mrtqb_layer_out(const mrtqb_layer *l, size_t *ho, size_t *wo);
/* mrtq's scalar reference kernel (mrtq_conv2d_onednn / mrtq_fc_onednn): 0 on success. */
int mrtqb_layer_mrtq(const mrtqb_layer *l, const uint8_t *x, const int8_t *w, const int32_t *bias, uint8_t *dst);

/* mrtq's fast core (mrtq_fastconv_onednn, AVX512-VNNI; kernels_fast.c): the
 * weights packed at create, the layer run by run (0 on success). Only on a
 * CPU with AVX512-VNNI. */
typedef struct mrtqb_fast mrtqb_fast;
mrtqb_fast *mrtqb_fast_create(const mrtqb_layer *l, const int8_t *w, const int32_t *bias);
int mrtqb_fast_run(mrtqb_fast *f, const uint8_t *x, const int32_t *bias, uint8_t *dst);
void mrtqb_fast_destroy(mrtqb_fast *f);
/* The same layer in TFLite's requantization: per-channel MRTQ_Q31_DBL of the
 * layer's scales, output zero point dst_zp, ReLU as the clamp [dst_zp, 255]:
 * planned at create with create's bias (mrtq_fastconv_q8plan_run; bias
 * unused), or with percall mrtq_fastconv_q8 (the descriptors checked and
 * their table built every call); and its reference, mrtq_conv2d_q8 /
 * mrtq_fc_q8 on the unpacked weights w with the same descriptors (0 on
 * success). */
int mrtqb_fast_run_tflite(mrtqb_fast *f, const uint8_t *x, const int32_t *bias, uint8_t *dst, int percall);
/* Either convention (tflite 0 / 1: planned) with threads tasks on a persistent pthread
 * pool (examples/pool.h; started on first use, stopped by destroy). */
int mrtqb_fast_run_threads(mrtqb_fast *f, const uint8_t *x, const int32_t *bias, uint8_t *dst, int tflite, int threads);
int mrtqb_fast_ref_tflite(mrtqb_fast *f, const uint8_t *x, const int8_t *w, const int32_t *bias, uint8_t *dst);

/* The same layer in TFLite's 16x8 (kernels_fast.c): int16 activations x16, the
 * layer's int8 weights packed by mrtq_fastconv_init_s16x8, per-channel
 * MRTQ_Q31_DBL of the layer's scales times scale16, int16 outputs.
 * mrtqb_fast16_run: mrtq_fastconv_s16x8_acc64 (acc64 1, the int64 bias) or
 * _acc32 (acc64 0, the int32 bias); mrtqb_fast16_ref: the reference
 * mrtq_conv2d_s16x8_* / mrtq_fc_s16x8_* on the unpacked weights (0 on
 * success). */
/* The machine's 2-thread scaling (kernels_fast.c): `units` steps of register-only
 * vpdpbusd chains split into `threads` tasks on an examples/pool.h pool. */
size_t mrtqb_vnni_peak(size_t units);
typedef struct mrtqb_alu mrtqb_alu;
mrtqb_alu *mrtqb_alu_create(int threads, size_t units);
int32_t mrtqb_alu_run(mrtqb_alu *a);
void mrtqb_alu_destroy(mrtqb_alu *a);

typedef struct mrtqb_fast16 mrtqb_fast16;
mrtqb_fast16 *mrtqb_fast16_create(const mrtqb_layer *l, const int8_t *w, double scale16);
int mrtqb_fast16_run(mrtqb_fast16 *f, const int16_t *x16, const int32_t *bias, int acc64, int16_t *dst);
int mrtqb_fast16_ref(mrtqb_fast16 *f, const int16_t *x16, const int8_t *w, const int32_t *bias, int acc64, int16_t *dst);
void mrtqb_fast16_destroy(mrtqb_fast16 *f);

#ifdef __cplusplus
}
#endif

#endif
