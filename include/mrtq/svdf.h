/* mrtq/svdf.h -- TFLite's integer SVDF (layer 6; includes mrtq/tflite.h for
 * mrtq_tflite_act and mrtq/requant.h for the Q31 multiply).
 *
 * SVDF is a fully connected layer factored into a feature filter and a time
 * filter over the last memory_size steps, with a state the operator keeps
 * between calls (caller memory here, updated in place). Bit-exact with
 * TFLite's integer reference SVDF:
 *   TF interpreter  tensorflow/lite/kernels/svdf.cc (Prepare: the two effective
 *                   scales; Eval: int8 input, int8 weights_feature, int16
 *                   weights_time and state) and reference_ops::EvalIntegerSVDF
 *                   (kernels/internal/reference/svdf.h)  -> mrtq_tflite_svdf_init
 *   TFLite Micro    micro/kernels/svdf_common.cc, tflite-micro 90b983c2
 *                   (PrepareSvdf, EvalIntegerSvdfReference<int16_t / int8_t>:
 *                   weights_time and state int16 or int8, the state's zero
 *                   point applied)                       -> mrtq_tflite_svdf_init_micro
 * Both run the same kernel, mrtq_tflite_svdf; they differ in what Prepare
 * accepts, recorded in the parameters. Normative math: docs/kernels.md 4.19.
 *
 * One step, with B batches, I inputs, F filters (F = units * rank), M the
 * memory size, T the state type, all sums modulo 2^32 (TFLite's int32
 * accumulators; in TFLite's own domain they do not wrap):
 *   1. shift: the state [B][F][M] moves one slot toward index 0 as one flat
 *      array (element k takes element k + 1); the last slot of every row is
 *      then overwritten by step 2, so each row [b][f] loses its oldest value.
 *   2. feature: d = sum_i wf[f][i] (x[b][i] - zp_in);
 *      state[b][f][M-1] = wrap_T(clamp_T(mul_q31_dbl(d, m1)) + zp_state)
 *      (the clamp to T's range first, then the state zero point added and the
 *      sum stored modulo 2^bits(T), as TFLite Micro's store into T does; the TF
 *      interpreter has no state zero point: 0).
 *   3. time: a[b][u] = bias[u] + sum_{r < rank} sum_{j < M}
 *                       wt[u rank + r][j] (state[b][u rank + r][j] - zp_state)
 *      (bias NULL: 0).
 *   4. out[b][u] = clamp(mul_q31_dbl(a[b][u], m2) + zp_out, -128, 127).
 * mul_q31_dbl is TFLite's MultiplyByQuantizedMultiplier (mrtq/requant.h):
 * rounding to nearest, ties toward +infinity (SRDHM), then ties away from
 * zero (the rounding right shift). No fused activation is applied: the TF
 * interpreter accepts only RELU for its integer SVDF and then does not apply
 * it; TFLite Micro accepts any and applies none. */
#ifndef MRTQ_SVDF_H
#define MRTQ_SVDF_H

#include "requant.h"
#include "tflite.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* What TFLite's Prepare computes for an integer SVDF. */
typedef struct mrtq_tflite_svdf_params {
  mrtq_mult m1;          /* Q31(s_in * s_wf / s_state): mult 0 or in [2^30, 2^31 - 1], shift in [-31, 30] ({0, 0}: flushed) */
  mrtq_mult m2;          /* Q31(s_state * s_wt / s_out), same ranges */
  int32_t zp_in;         /* input zero point, [-128, 127] */
  int32_t zp_state;      /* state zero point, a value of state_type (0 from mrtq_tflite_svdf_init) */
  int32_t zp_out;        /* output zero point, [-128, 127] */
  int32_t rank;          /* >= 1 */
  mrtq_dtype state_type; /* weights_time and state: MRTQ_S16, or MRTQ_S8 (TFLite Micro only) */
} mrtq_tflite_svdf_params;

/* The TF interpreter's integer SVDF (tensorflow/lite/kernels/svdf.cc):
 * int8 input and output, int8 weights_feature, int16 weights_time and state,
 * the state's zero point not read (taken as 0). The scales are TFLite's
 * float tensor scales; the two effective scales are computed in float as
 * Prepare does, fl(fl(s_in * s_wf) / s_state) and fl(fl(s_state * s_wt) /
 * s_out) (IEEE single operations whatever the compiler's FLT_EVAL_METHOD),
 * then widened to double and encoded by QuantizeMultiplier (mrtq_mult_q31).
 * act: the node's fused activation; the interpreter's integer path refuses
 * everything but RELU and then does not apply it (so MRTQ_TFLITE_ACT_RELU is
 * the only value accepted, and the output is not clamped at the zero point).
 * Errors (nothing written): p NULL, a scale NaN, infinite or <= 0, zp_in or
 * zp_out outside [-128, 127], rank < 1, act outside the enum -> MRTQ_EINVAL;
 * act other than RELU -> MRTQ_EUNSUPPORTED; a product or quotient beyond
 * FLT_MAX in float, or an effective scale that encodes with shift > 30
 * (>= 2^30 - 2^-2: TFLite's 1 << shift overflows) -> MRTQ_ERANGE. An effective
 * scale below 2^-32 flushes to {0, 0} as in TFLite (that stage then gives 0). */
MRTQ_API mrtq_status mrtq_tflite_svdf_init(float s_in, int32_t zp_in, float s_wf, float s_wt, float s_state, float s_out,
                                           int32_t zp_out, int32_t rank, mrtq_tflite_act act,
                                           mrtq_tflite_svdf_params *p);

/* TFLite Micro's integer SVDF (micro/kernels/svdf_common.cc, 90b983c2):
 * weights_time and state of state_type, MRTQ_S16 or MRTQ_S8 (Micro's Eval
 * reads both as the type of weights_time: pass the models where they agree),
 * the state zero point zp_state (a value of state_type) applied in steps 2
 * and 3. The effective scales as mrtq_tflite_svdf_init (Micro computes the
 * same float expression and widens it). Any fused activation is accepted by
 * Micro and none is applied, so none is taken here. Micro's Prepare also
 * requires |s_bias - s_state * s_wt| < 1e-5 and reads the bias tensor's scale
 * even when the model has no bias; mrtq does not see the bias scale.
 * Errors as mrtq_tflite_svdf_init (without act), plus: state_type another
 * mrtq_dtype -> MRTQ_EUNSUPPORTED, outside the enum -> MRTQ_EINVAL; zp_state
 * outside state_type -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_tflite_svdf_init_micro(float s_in, int32_t zp_in, float s_wf, float s_wt, float s_state,
                                                 int32_t zp_state, float s_out, int32_t zp_out, int32_t rank,
                                                 mrtq_dtype state_type, mrtq_tflite_svdf_params *p);

/* The parameters from the numbers TFLite's OpData holds (effective_scale_1_a
 * / _b as m1, effective_scale_2_a / _b as m2, the zero points), for either
 * TFLite. Valid ranges: each mult 0 or in [2^30, 2^31 - 1] with shift in
 * [-31, 30] ({0, 0} when mult is 0); zp_in, zp_out in [-128, 127]; rank >= 1;
 * state_type MRTQ_S16 or MRTQ_S8; zp_state a value of state_type (0 for the
 * TF interpreter). With the values mrtq_tflite_svdf_init(_micro) computes it
 * gives the same struct.
 * Errors (nothing written): p NULL, a value outside its range -> MRTQ_EINVAL;
 * state_type another mrtq_dtype -> MRTQ_EUNSUPPORTED. */
MRTQ_API mrtq_status mrtq_tflite_svdf_init_mult(mrtq_mult m1, mrtq_mult m2, int32_t zp_in, int32_t zp_state,
                                                int32_t zp_out, int32_t rank, mrtq_dtype state_type,
                                                mrtq_tflite_svdf_params *p);

/* One SVDF step (the header's steps 1-4), bit-exact with TFLite's integer
 * reference SVDF (both TFLites; see the top of this header):
 *   in         [batch][input_size]                  int8
 *   w_feature  [num_filters][input_size]            int8
 *   w_time     [num_filters][memory_size]           p->state_type
 *   bias       [num_filters / p->rank]              int32, or NULL (none)
 *   state      [batch][num_filters][memory_size]    p->state_type, read and
 *              updated in place (the step's activation in the last slot of
 *              each row, as TFLite's current reference leaves it)
 *   out        [batch][num_filters / p->rank]       int8
 * int16 arrays may have any alignment. state must not overlap the inputs or
 * out. Sums wrap modulo 2^32 (TFLite's int32 overflow, undefined there, does
 * not happen for its real models: |wt (s - zp)| < 2^31 per term); the
 * multiplies follow mrtq_mul_q31_dbl. Versions: the older TF reference
 * (EvalIntegerSVDF on TfLiteTensor, e.g. tensorflow/tensorflow 0ec21aa5)
 * shifts the state after computing the output and zeroes the last slot, so
 * its state after a call differs from this one by that shift; the outputs of
 * every step are the same.
 * Errors (nothing written, the state untouched): p, in, w_feature, w_time,
 * state or out NULL -> MRTQ_EINVAL; a struct outside
 * mrtq_tflite_svdf_init_mult's ranges -> MRTQ_EINVAL naming the field
 * (p->state_type another mrtq_dtype -> MRTQ_EUNSUPPORTED); memory_size 0 (TFLite
 * writes slot memory_size - 1) or num_filters not a multiple of p->rank
 * (TFLite's Prepare) -> MRTQ_ESHAPE; batch * num_filters * memory_size,
 * batch * input_size or num_filters * input_size beyond SIZE_MAX elements ->
 * MRTQ_ERANGE. batch, input_size or num_filters 0 are allowed (nothing to
 * sum; with batch or num_filters 0 nothing is written). */
MRTQ_API mrtq_status mrtq_tflite_svdf(const mrtq_tflite_svdf_params *p, size_t batch, size_t input_size,
                                      size_t num_filters, size_t memory_size, const int8_t *in,
                                      const int8_t *w_feature, const void *w_time, const int32_t *bias, void *state,
                                      int8_t *out);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

/* fl(fl(a b) / c) in IEEE single for finite a, b, c > 0, without relying on
 * FLT_EVAL_METHOD: a b is exact in double, so one conversion rounds it once;
 * the double quotient of two floats rounded to float is the correctly rounded
 * float quotient (53 >= 2 * 24 + 2). Returns 0 (nothing written) when either
 * step exceeds FLT_MAX. */
MRTQ__PRIV int mrtq__svdf_fmuldiv(float a, float b, float c, double *r) {
  double prod = (double)a * (double)b, quot;
  float fp;
  if (prod > 3.4028234663852886e+38) return 0; /* FLT_MAX */
  fp = (float)prod;
  quot = (double)fp / (double)c;
  if (quot > 3.4028234663852886e+38) return 0;
  *r = (double)(float)quot;
  return 1;
}

/* m is a valid Q31 pair: {0, 0}, or mult in [2^30, 2^31 - 1] with shift in [-31, 30]. */
MRTQ__PRIV int mrtq__svdf_mult_ok(mrtq_mult m) {
  if (m.mult == 0) return m.shift == 0;
  return m.mult >= (1 << 30) && m.shift >= -31 && m.shift <= 30;
}

/* The struct's rules (shared by init_mult and the kernel); `kernel` selects
 * the field names of the refusal reasons. */
MRTQ__PRIV mrtq_status mrtq__svdf_check(mrtq_mult m1, mrtq_mult m2, int32_t zp_in, int32_t zp_state, int32_t zp_out,
                                        int32_t rank, mrtq_dtype st, int kernel) {
  if (st != MRTQ_S16 && st != MRTQ_S8) {
    if (!mrtq__dtype_ok(st))
      return kernel ? MRTQ__ERR(MRTQ_EINVAL, "p->state_type: not an mrtq_dtype (0: a zero-initialised struct)")
                    : MRTQ__ERR(MRTQ_EINVAL, "state_type: not an mrtq_dtype");
    return kernel ? MRTQ__ERR(MRTQ_EUNSUPPORTED, "p->state_type: must be MRTQ_S16 or MRTQ_S8")
                  : MRTQ__ERR(MRTQ_EUNSUPPORTED, "state_type: must be MRTQ_S16 or MRTQ_S8 (TFLite's int16 or int8 state)");
  }
  if (!mrtq__svdf_mult_ok(m1))
    return kernel ? MRTQ__ERR(MRTQ_EINVAL, "p->m1: mult 0 with shift 0, or mult in [2^30, 2^31 - 1] with shift in [-31, 30]")
                  : MRTQ__ERR(MRTQ_EINVAL, "m1: mult 0 with shift 0, or mult in [2^30, 2^31 - 1] with shift in [-31, 30]");
  if (!mrtq__svdf_mult_ok(m2))
    return kernel ? MRTQ__ERR(MRTQ_EINVAL, "p->m2: mult 0 with shift 0, or mult in [2^30, 2^31 - 1] with shift in [-31, 30]")
                  : MRTQ__ERR(MRTQ_EINVAL, "m2: mult 0 with shift 0, or mult in [2^30, 2^31 - 1] with shift in [-31, 30]");
  if (zp_in < -128 || zp_in > 127)
    return kernel ? MRTQ__ERR(MRTQ_EINVAL, "p->zp_in: outside [-128, 127]")
                  : MRTQ__ERR(MRTQ_EINVAL, "zp_in: outside [-128, 127]");
  if (!mrtq__in_type(zp_state, st))
    return kernel ? MRTQ__ERR(MRTQ_EINVAL, "p->zp_state: outside p->state_type")
                  : MRTQ__ERR(MRTQ_EINVAL, "zp_state: outside state_type");
  if (zp_out < -128 || zp_out > 127)
    return kernel ? MRTQ__ERR(MRTQ_EINVAL, "p->zp_out: outside [-128, 127]")
                  : MRTQ__ERR(MRTQ_EINVAL, "zp_out: outside [-128, 127]");
  if (rank < 1) return kernel ? MRTQ__ERR(MRTQ_EINVAL, "p->rank: must be >= 1") : MRTQ__ERR(MRTQ_EINVAL, "rank: must be >= 1");
  return MRTQ_OK;
}

/* Both constructors from scales; micro 0: the TF interpreter (int16 state,
 * zero point 0). */
MRTQ__PRIV mrtq_status mrtq__svdf_init(float s_in, int32_t zp_in, float s_wf, float s_wt, float s_state,
                                       int32_t zp_state, float s_out, int32_t zp_out, int32_t rank,
                                       mrtq_dtype state_type, mrtq_tflite_svdf_params *p) {
  mrtq_tflite_svdf_params r;
  double e1 = 0, e2 = 0;
  mrtq_status st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (mrtq__nonfinite_f32(s_in) || !(s_in > 0)) return MRTQ__ERR(MRTQ_EINVAL, "s_in: NaN, infinite or <= 0");
  if (mrtq__nonfinite_f32(s_wf) || !(s_wf > 0)) return MRTQ__ERR(MRTQ_EINVAL, "s_wf: NaN, infinite or <= 0");
  if (mrtq__nonfinite_f32(s_wt) || !(s_wt > 0)) return MRTQ__ERR(MRTQ_EINVAL, "s_wt: NaN, infinite or <= 0");
  if (mrtq__nonfinite_f32(s_state) || !(s_state > 0)) return MRTQ__ERR(MRTQ_EINVAL, "s_state: NaN, infinite or <= 0");
  if (mrtq__nonfinite_f32(s_out) || !(s_out > 0)) return MRTQ__ERR(MRTQ_EINVAL, "s_out: NaN, infinite or <= 0");
  memset(&r, 0, sizeof r);
  if ((st = mrtq__svdf_check(r.m1, r.m2, zp_in, zp_state, zp_out, rank, state_type, 0)) != MRTQ_OK) return st;
  if (!mrtq__svdf_fmuldiv(s_in, s_wf, s_state, &e1))
    return MRTQ__ERR(MRTQ_ERANGE, "s_in, s_wf, s_state: s_in * s_wf or s_in * s_wf / s_state overflows float (TFLite computes in float)");
  if (!mrtq__svdf_fmuldiv(s_state, s_wt, s_out, &e2))
    return MRTQ__ERR(MRTQ_ERANGE, "s_state, s_wt, s_out: s_state * s_wt or s_state * s_wt / s_out overflows float (TFLite computes in float)");
  (void)mrtq_mult_q31(e1, &r.m1); /* finite, > 0: cannot fail */
  (void)mrtq_mult_q31(e2, &r.m2);
  if (r.m1.shift > 30)
    return MRTQ__ERR(MRTQ_ERANGE, "s_in, s_wf, s_state: s_in * s_wf / s_state must be < 2^30 (TFLite's 1 << shift)");
  if (r.m2.shift > 30)
    return MRTQ__ERR(MRTQ_ERANGE, "s_state, s_wt, s_out: s_state * s_wt / s_out must be < 2^30 (TFLite's 1 << shift)");
  r.zp_in = zp_in, r.zp_state = zp_state, r.zp_out = zp_out, r.rank = rank, r.state_type = state_type;
  *p = r;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_svdf_init(float s_in, int32_t zp_in, float s_wf, float s_wt, float s_state, float s_out,
                                           int32_t zp_out, int32_t rank, mrtq_tflite_act act,
                                           mrtq_tflite_svdf_params *p) {
  if ((int)act < (int)MRTQ_TFLITE_ACT_NONE || (int)act > (int)MRTQ_TFLITE_ACT_SIGMOID)
    return MRTQ__ERR(MRTQ_EINVAL, "act: not an mrtq_tflite_act");
  if (act != MRTQ_TFLITE_ACT_RELU)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "act: the TF interpreter's integer SVDF takes only RELU (and does not apply it)");
  return mrtq__svdf_init(s_in, zp_in, s_wf, s_wt, s_state, 0, s_out, zp_out, rank, MRTQ_S16, p);
}

MRTQ_API mrtq_status mrtq_tflite_svdf_init_micro(float s_in, int32_t zp_in, float s_wf, float s_wt, float s_state,
                                                 int32_t zp_state, float s_out, int32_t zp_out, int32_t rank,
                                                 mrtq_dtype state_type, mrtq_tflite_svdf_params *p) {
  return mrtq__svdf_init(s_in, zp_in, s_wf, s_wt, s_state, zp_state, s_out, zp_out, rank, state_type, p);
}

MRTQ_API mrtq_status mrtq_tflite_svdf_init_mult(mrtq_mult m1, mrtq_mult m2, int32_t zp_in, int32_t zp_state,
                                                int32_t zp_out, int32_t rank, mrtq_dtype state_type,
                                                mrtq_tflite_svdf_params *p) {
  mrtq_status st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if ((st = mrtq__svdf_check(m1, m2, zp_in, zp_state, zp_out, rank, state_type, 0)) != MRTQ_OK) return st;
  p->m1 = m1, p->m2 = m2, p->zp_in = zp_in, p->zp_state = zp_state, p->zp_out = zp_out, p->rank = rank;
  p->state_type = state_type;
  return MRTQ_OK;
}

/* v modulo 2^bits(t) as a value of t (t MRTQ_S8 or MRTQ_S16). */
MRTQ__PRIV int32_t mrtq__svdf_wrap(int64_t v, mrtq_dtype t) {
  uint32_t u = (uint32_t)((uint64_t)v & (t == MRTQ_S8 ? 0xffu : 0xffffu));
  uint32_t half = t == MRTQ_S8 ? 0x80u : 0x8000u;
  return u >= half ? (int32_t)u - (int32_t)(2 * half) : (int32_t)u;
}

MRTQ_API mrtq_status mrtq_tflite_svdf(const mrtq_tflite_svdf_params *p, size_t batch, size_t input_size,
                                      size_t num_filters, size_t memory_size, const int8_t *in,
                                      const int8_t *w_feature, const void *w_time, const int32_t *bias, void *state,
                                      int8_t *out) {
  mrtq_status st;
  mrtq_dtype t;
  size_t units, b, f, u, i, j, r, rank, cells, esz;
  int32_t tmin, tmax;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if ((st = mrtq__svdf_check(p->m1, p->m2, p->zp_in, p->zp_state, p->zp_out, p->rank, p->state_type, 1)) != MRTQ_OK)
    return st;
  if (!in) return MRTQ__ERR(MRTQ_EINVAL, "in: NULL");
  if (!w_feature) return MRTQ__ERR(MRTQ_EINVAL, "w_feature: NULL");
  if (!w_time) return MRTQ__ERR(MRTQ_EINVAL, "w_time: NULL");
  if (!state) return MRTQ__ERR(MRTQ_EINVAL, "state: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (memory_size == 0) return MRTQ__ERR(MRTQ_ESHAPE, "memory_size: must be >= 1 (TFLite writes slot memory_size - 1)");
  rank = (size_t)p->rank;
  if (num_filters % rank != 0) return MRTQ__ERR(MRTQ_ESHAPE, "num_filters: must be a multiple of p->rank");
  if ((num_filters && (batch > SIZE_MAX / num_filters || batch * num_filters > SIZE_MAX / memory_size / 2)) ||
      (input_size && (batch > SIZE_MAX / input_size || num_filters > SIZE_MAX / input_size)))
    return MRTQ__ERR(MRTQ_ERANGE, "batch, input_size, num_filters, memory_size: an array's size overflows size_t");
  units = num_filters / rank;
  cells = batch * num_filters * memory_size;
  if (cells == 0) return MRTQ_OK; /* batch or num_filters 0: no state, no output */
  t = p->state_type;
  esz = t == MRTQ_S16 ? 2 : 1;
  tmin = t == MRTQ_S16 ? -32768 : -128;
  tmax = t == MRTQ_S16 ? 32767 : 127;
  /* 1. shift the whole state one element toward the start */
  memmove(state, (const uint8_t *)state + esz, (cells - 1) * esz);
  /* 2. feature: the newest slot of every row */
  for (b = 0; b < batch; b++)
    for (f = 0; f < num_filters; f++) {
      uint32_t d = 0; /* sum modulo 2^32 */
      int32_t v;
      for (i = 0; i < input_size; i++)
        d += (uint32_t)((int32_t)w_feature[f * input_size + i] * ((int32_t)in[b * input_size + i] - p->zp_in));
      v = mrtq__clamp64(mrtq_mul_q31_dbl(mrtq__wrap32(d), p->m1), tmin, tmax);
      mrtq__store(state, (b * num_filters + f) * memory_size + memory_size - 1, t,
                  mrtq__svdf_wrap((int64_t)v + p->zp_state, t));
    }
  /* 3, 4. time filter, rank reduction, bias, output */
  for (b = 0; b < batch; b++)
    for (u = 0; u < units; u++) {
      uint32_t a = bias ? (uint32_t)bias[u] : 0u;
      for (r = 0; r < rank; r++) {
        size_t row = u * rank + r, base = (b * num_filters + row) * memory_size;
        for (j = 0; j < memory_size; j++)
          a += (uint32_t)(mrtq__load(w_time, row * memory_size + j, t) * (mrtq__load(state, base + j, t) - p->zp_state));
      }
      out[b * units + u] = (int8_t)mrtq__clamp64((int64_t)mrtq_mul_q31_dbl(mrtq__wrap32(a), p->m2) + p->zp_out, -128, 127);
    }
  return MRTQ_OK;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_SVDF_H */
