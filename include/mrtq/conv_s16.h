/* mrtq/conv_s16.h -- TFLite's 16x8 kernels: int16 activations, int8 weights,
 * int16 outputs (layer 6; includes mrtq/conv.h for the shape and its checks).
 * Bit-exact with TFLite's reference kernels (tensorflow/lite/kernels/internal/
 * reference/integer_ops/conv.h, depthwise_conv.h, fully_connected.h and
 * reference/batch_matmul.h), with the accumulator named in the function, not
 * switched by the bias type:
 *
 *   function                   accumulator, requantization        TFLite path it matches
 *   -------------------------  ---------------------------------  --------------------------------------------
 *   mrtq_conv2d_s16x8_acc64    int64; TFLite's 64-bit multiply,   CONV_2D / DEPTHWISE_CONV_2D int16 run with
 *                              its int64 result mod 2^32          ConvPerChannel<int64_t> / DepthwiseConv-
 *                                                                 PerChannel: an int64 bias; no bias in
 *                                                                 DEPTHWISE_CONV_2D, and in the CONV_2D of
 *                                                                 TFLite Micro 90b983c2 (micro/kernels/
 *                                                                 conv.cc) and of newer TFLite conv.cc unless
 *                                                                 the model's quantized_bias_type is int32
 *   mrtq_conv2d_s16x8_acc32    int32 (sum mod 2^32); rq->scheme's CONV_2D int16 run with ConvPerChannel<
 *                              Q31 multiply (MRTQ_Q31_DBL, or     int32_t>: an int32 bias (TF 2.9 and newer,
 *                              MRTQ_Q31_RNDNU for                 TFLite Micro); no bias in TF 2.9's conv.cc,
 *                              TFLITE_SINGLE_ROUNDING)            and in TFLite Micro 90b983c2 / newer TFLite
 *                                                                 when quantized_bias_type is int32
 *   mrtq_fc_s16x8_acc64        as _acc64 above                    FULLY_CONNECTED int16, int64 bias; no bias
 *                                                                 in TFLite Micro 90b983c2 unless
 *                                                                 quantized_bias_type is int32
 *   mrtq_fc_s16x8_acc32        as _acc32 above                    FULLY_CONNECTED int16, int32 bias (TF
 *                                                                 2.9-era fully_connected.cc, TFLite Micro);
 *                                                                 no bias with quantized_bias_type int32
 *                                                                 (TFLite Micro 90b983c2)
 *   mrtq_matmul_s16_acc64      as _acc64 above, no bias           BATCH_MATMUL int16 (int16 x int16)
 * The bias type alone does not tell the path when there is no bias: pick the
 * function by the path the model's TFLite version runs.
 *
 * Per output element (K the reduction length, taps outside the image skipped,
 * which is the same as reading zeros: TFLite's int16 activations have no
 * zero point):
 *   S = sum_K W X + bias[o]                     exact, in int64 (bounded below)
 *   _acc64: y = clamp(wrap32(floor((S rm + 2^(k-1)) / 2^k)), qmin, qmax)
 *     with rm = min(floor((mult + 2^15) / 2^16), 2^15 - 1), k = 15 - shift
 *     (mrtq_mul_q31_x64's formula: ties toward +infinity, the multiplier
 *     first rounded to 16 bits), and wrap32 the value modulo 2^32 as an int32
 *     -- TFLite's static_cast<int32_t> of its int64 result -- not saturated;
 *   _acc32: y = mrtq_rq_apply(rq[o], wrap32(S), -32768, 32767), i.e.
 *     clamp(mrtq_mul_q31_dbl(wrap32(S), m)) for MRTQ_Q31_DBL (TFLite's
 *     default build) or clamp(mrtq_mul_q31_rndnu(wrap32(S), m)) for
 *     MRTQ_Q31_RNDNU (TFLITE_SINGLE_ROUNDING), clamp to [qmin, qmax];
 * stored as int16. TFLite adds no output offset in 16x8: rq->zp must be 0.
 * wrap32(S) is what TFLite's int32 accumulator holds: equal to it whenever
 * TFLite's int32 arithmetic is defined (no partial sum leaves int32), and to
 * its compiled code (two's-complement wrap) otherwise, in any order of
 * summation. Beyond int32 the 32-bit multiply keeps requant.h's documented
 * saturation where TFLite's code wraps (only possible for shift > 0, when
 * x 2^shift leaves int32): MRTQ_Q31_DBL saturates x 2^shift (TFLite's default
 * build overflows it in int32), MRTQ_Q31_RNDNU is exact and saturates a
 * result beyond int32 (TFLite's single-rounding build takes it modulo 2^32).
 *
 * What TFLite allows, and so these functions take (everything else is refused
 * with a reason that says "TFLite 16x8" or names the BATCH_MATMUL rule):
 *   x (a, b for matmul): MRTQ_S16, zp 0, no zp_ch (TFLite's Prepare requires
 *     zero points 0 for int16 inputs and outputs);
 *   w: MRTQ_S8, zp 0, no zp_ch (TFLite's quantization spec makes int8 weights
 *     symmetric; its reference conv ignores a filter zero point, TFLite
 *     Micro's FC asserts it is 0);
 *   rq: from mrtq_rq_init(MRTQ_Q31_DBL or MRTQ_Q31_RNDNU, s_x s_w[o] / s_y,
 *     0, qmin, qmax) -- TFLite's QuantizeMultiplier of the same double; zp 0;
 *     -32768 <= qmin <= qmax <= 32767 (TFLite's activation range of an int16
 *     output); for _acc64 both schemes mean the same (TFLite's 64-bit
 *     multiply is one function in both builds), and m.mult >= 0 and
 *     -31 <= m.shift <= 7 (what that multiply asserts; mrtq_rq_init gives
 *     such values for every scale below 128).
 * Overflow, checked before anything is written (MRTQ_EOVERFLOW):
 *   _acc32: K <= 2^40, so that the exact int64 sum cannot overflow (|W X| <=
 *     2^7 2^15 = 2^22); no bound on the values: TFLite's int32 sum is taken
 *     modulo 2^32 as above;
 *   _acc64: K 2^22 + max|bias| < 2^47 (matmul: k 2^30 < 2^47, k <= 131071):
 *     the accumulator stays inside [-2^47, 2^47), the domain TFLite's 64-bit
 *     multiply asserts, where S rm + 2^(k-1) cannot leave int64 (TFLite's own
 *     int64 sum never overflows; beyond 2^47 its multiply may).
 * Bit-exact with TFLite's code for every accepted input of the _acc64
 * functions and mrtq_matmul_s16_acc64: where TFLite's 64-bit result leaves
 * int32 (its DCHECK, off in release builds) the result is its
 * static_cast<int32_t> (modulo 2^32, defined since C++20 and what every
 * compiler does), then clamped. The _acc32 functions: for every accepted
 * input except the 32-bit multiply's saturation above.
 * Every refusal names the argument through MRTQ_ON_ERROR and writes nothing. */
#ifndef MRTQ_CONV_S16_H
#define MRTQ_CONV_S16_H

#include "conv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* 16x8 convolution, int64 accumulator: any mrtq_conv2d_shape (groups, depthwise
 * with groups == c and o = c * multiplier, dilation, NHWC or NCHW, weights as
 * s->w_layout says, MRTQ_W_TFLITE_DW being TFLite's depthwise filter
 * [1][kh][kw][o]); out holds n * o * ho * wo int16 values in the input's
 * layout; bias (s->o values, any int64) may be NULL; rq holds nrq = 1 or s->o
 * descriptions (one, or one per output channel: TFLite's per-channel
 * multipliers). Per element, as the header comment states:
 *   out = clamp(wrap32(floor((S rm + 2^(k-1)) / 2^k)), rq[o].qmin, rq[o].qmax)
 * S = sum W X + bias[o], rm and k = 15 - shift as mrtq_mul_q31_x64 (ties
 * toward +infinity, the multiplier first rounded to 16 bits), wrap32 modulo
 * 2^32: equal to clamp(mrtq_mul_q31_x64(S, m)) whenever that result fits
 * int32, TFLite's static_cast<int32_t> (not a saturation) when it does not.
 * Bit-exact with TFLite's reference ConvPerChannel<int64_t> (NHWC, OHWI) and
 * DepthwiseConvPerChannel (int16) for every accepted input.
 * Errors (nothing written): as mrtq_conv2d_out (shape); x, w, rq or out NULL,
 * x->data or w->data NULL, a type 0, x->zp / w->zp non-zero, x->zp_ch /
 * w->zp_ch set, nrq neither 1 nor s->o, an rq[c] failing the array functions'
 * descriptor checks (mrtq_requant_s8), rq->zp non-zero, rq->qmin / qmax outside
 * int16 -> MRTQ_EINVAL; x->type not MRTQ_S16, w->type not MRTQ_S8, rq->scheme
 * not MRTQ_Q31_DBL / MRTQ_Q31_RNDNU -> MRTQ_EUNSUPPORTED; rq->m.mult < 0,
 * rq->m.shift outside [-31, 7] -> MRTQ_ERANGE; K 2^22 + max|bias| >= 2^47 ->
 * MRTQ_EOVERFLOW (the reason names "s, bias" when a bias is given, "s"
 * otherwise). */
MRTQ_API mrtq_status mrtq_conv2d_s16x8_acc64(const mrtq_conv2d_shape *s, const mrtq_rq *rq, size_t nrq,
                                             const mrtq_qoperand *x, const mrtq_qoperand *w, const int64_t *bias,
                                             int16_t *out);

/* 16x8 convolution, int32 accumulator: as mrtq_conv2d_s16x8_acc64 with an
 * int32 bias (may be NULL) and
 *   out = mrtq_rq_apply(rq[o], wrap32(sum W X + bias[o]), -32768, 32767)
 * the sum exact in int64, wrap32 taking it modulo 2^32 as an int32 (what
 * TFLite's int32 accumulator holds, in any order of summation: its value when
 * no partial sum leaves int32, its compiled code's two's-complement wrap
 * otherwise); then clamp(mrtq_mul_q31_dbl(., m)) (ties toward +infinity, then
 * away from zero) for MRTQ_Q31_DBL, clamp(mrtq_mul_q31_rndnu(., m)) (one
 * rounding, ties toward +infinity) for MRTQ_Q31_RNDNU. Bit-exact with TFLite's
 * reference ConvPerChannel<int32_t> (see the table above for when TFLite
 * takes it; DEPTHWISE_CONV_2D int16 has no int32 path, on a depthwise shape
 * this is TFLite's grouped CONV_2D) in the default and TFLITE_SINGLE_ROUNDING
 * builds respectively, within those functions' TFLite domains (requant.h;
 * m.shift up to 30 is taken; for shift > 0 a value beyond int32 saturates
 * where TFLite's code wraps, as the header comment states). Errors: those of _acc64 except the multiplier
 * rules (any m.mult / m.shift the descriptor checks pass) and the overflow
 * rule, which is K > 2^40 -> MRTQ_EOVERFLOW. */
MRTQ_API mrtq_status mrtq_conv2d_s16x8_acc32(const mrtq_conv2d_shape *s, const mrtq_rq *rq, size_t nrq,
                                             const mrtq_qoperand *x, const mrtq_qoperand *w, const int32_t *bias,
                                             int16_t *out);

/* 16x8 fully connected: rows x k int16 inputs (row-major) times o x k int8
 * weights -> rows x o int16 outputs, the convolution of mrtq_fc_shape(rows, k,
 * o) (so a refusal names s and its fields). nrq 1 (TFLite's per-tensor
 * FullyConnected) or o (FullyConnectedPerChannel, TFLite Micro and recent
 * TFLite). Semantics and errors as mrtq_conv2d_s16x8_acc64 / _acc32: bit-exact
 * with TFLite's reference int16 FullyConnected with an int64 bias (_acc64) or
 * an int32 bias (_acc32; the TF 2.9-era fully_connected.cc, TFLite Micro). */
MRTQ_API mrtq_status mrtq_fc_s16x8_acc64(size_t rows, size_t k, size_t o, const mrtq_rq *rq, size_t nrq,
                                         const mrtq_qoperand *x, const mrtq_qoperand *w, const int64_t *bias,
                                         int16_t *out);
MRTQ_API mrtq_status mrtq_fc_s16x8_acc32(size_t rows, size_t k, size_t o, const mrtq_rq *rq, size_t nrq,
                                         const mrtq_qoperand *x, const mrtq_qoperand *w, const int32_t *bias,
                                         int16_t *out);

/* TFLite's int16 BATCH_MATMUL: both operands int16 (TFLite requires the two
 * input types equal: this is 16x16, not 16x8), int64 accumulator, no bias, one
 * multiplier (s_a s_b / s_y), no zero points. For each bi < batch:
 *   out[bi][i][j] = clamp(R(sum_t A[bi][i][t] B[bi][t][j]), rq->qmin, rq->qmax)
 * R the 64-bit multiply of mrtq_conv2d_s16x8_acc64, its result taken modulo
 * 2^32 (= mrtq_mul_q31_x64 whenever that fits int32).
 * A[bi] m x k and B[bi] k x n row-major, out[bi] m x n; B is one matrix shared
 * by every batch when b_shared is non-zero (TFLite's broadcast of a right-hand
 * side with batch dimensions 1). TFLite transposes an adj_x / adj_y operand
 * before the same arithmetic: pass it transposed. TFLite clamps to the whole
 * int16 range (BATCH_MATMUL has no fused activation): [-32768, 32767] is its
 * result, a narrower [qmin, qmax] clamps further. Bit-exact with TFLite's
 * reference BatchMatMul<int16_t, int64_t> (kernels/batch_matmul.cc, TFLite
 * Micro) for every accepted input.
 * Errors (nothing written): a zero batch, m, k or n, element counts
 * overflowing size_t -> MRTQ_ESHAPE; a, b, rq or out NULL, a->data / b->data
 * NULL, a type 0, a zero point non-zero or zp_ch set, rq failing the
 * descriptor checks, rq->zp non-zero, qmin / qmax outside int16 ->
 * MRTQ_EINVAL; a type not MRTQ_S16, rq->scheme not a Q31 scheme ->
 * MRTQ_EUNSUPPORTED; rq->m.mult < 0, rq->m.shift outside [-31, 7] ->
 * MRTQ_ERANGE; k 2^30 >= 2^47 ->
 * MRTQ_EOVERFLOW. */
MRTQ_API mrtq_status mrtq_matmul_s16_acc64(size_t batch, size_t m, size_t k, size_t n, const mrtq_rq *rq,
                                           const mrtq_qoperand *a, const mrtq_qoperand *b, int b_shared,
                                           int16_t *out);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

/* One requantization of a 16x8 kernel (pc as MRTQ__RQ_ERR: 0 "rq->", 1
 * "rq[c]."): the array functions' checks, then TFLite's 16x8 rules. */
MRTQ__PRIV mrtq_status mrtq__s16_rq_check(const mrtq_rq *rq, int pc, int acc64) {
  mrtq_status st = mrtq__rq_check(rq, pc);
  if (st != MRTQ_OK) return st;
  if (rq->scheme != MRTQ_Q31_DBL && rq->scheme != MRTQ_Q31_RNDNU)
    return MRTQ__RQ_ERR(pc, MRTQ_EUNSUPPORTED,
                        "scheme: must be MRTQ_Q31_DBL or MRTQ_Q31_RNDNU (TFLite 16x8 requantizes with a Q31 multiplier)");
  if (rq->zp != 0) return MRTQ__RQ_ERR(pc, MRTQ_EINVAL, "zp: must be 0 (TFLite 16x8 outputs have no zero point)");
  if (rq->qmin < -32768) return MRTQ__RQ_ERR(pc, MRTQ_EINVAL, "qmin: must be >= -32768 (TFLite 16x8 clamps within int16)");
  if (rq->qmax > 32767) return MRTQ__RQ_ERR(pc, MRTQ_EINVAL, "qmax: must be <= 32767 (TFLite 16x8 clamps within int16)");
  if (acc64 && rq->m.mult < 0)
    return MRTQ__RQ_ERR(pc, MRTQ_ERANGE,
                        "m.mult: must be >= 0 with a 64-bit accumulator (TFLite's 64-bit multiply takes multipliers "
                        "0..2^31 - 1)");
  if (acc64 && rq->m.shift > 7)
    return MRTQ__RQ_ERR(pc, MRTQ_ERANGE,
                        "m.shift: must be <= 7 with a 64-bit accumulator (TFLite's 64-bit multiply takes shifts -31..7: "
                        "scales below 128)");
  if (acc64 && rq->m.shift < -31)
    return MRTQ__RQ_ERR(pc, MRTQ_ERANGE,
                        "m.shift: must be >= -31 with a 64-bit accumulator (TFLite's 64-bit multiply takes shifts "
                        "-31..7; mrtq_rq_init gives (0, 0) for scales below 2^-32)");
  return MRTQ_OK;
}

/* TFLite's 64-bit multiply as its code computes it, its int64 result taken
 * modulo 2^32 (the static_cast<int32_t> ending MultiplyByQuantizedMultiplier
 * for int64_t): exact for |x| < 2^47, mult in [0, 2^31 - 1], shift in
 * [-31, 7] (checked by the callers), where |x rm| < 2^62 and the rounding
 * term is at most 2^45, so nothing leaves int64. */
MRTQ__PRIV int32_t mrtq__s16_x64_wrap(int64_t x, mrtq_mult m) {
  int64_t rm = m.mult < 0x7FFF0000 ? ((int64_t)m.mult + 32768) / 65536 : 32767; /* mult >= 0: / is floor */
  int k = 15 - m.shift;                                                            /* 8..46 */
  int64_t r = mrtq__asr64(x * rm + ((int64_t)1 << (k - 1)), k);
  return mrtq__wrap32((uint32_t)((uint64_t)r & 0xffffffffu));
}

/* An int16 operand of a 16x8 kernel: x (mm 0) or a / b (mm 1, b when second). */
MRTQ__PRIV mrtq_status mrtq__s16_x_check(const mrtq_qoperand *x, int mm, int second) {
  (void)mm, (void)second; /* read by the reasons only */
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, !mm ? "x: NULL" : second ? "b: NULL" : "a: NULL");
  if (!x->data) return MRTQ__ERR(MRTQ_EINVAL, !mm ? "x->data: NULL" : second ? "b->data: NULL" : "a->data: NULL");
  if (!mrtq__dtype_ok(x->type))
    return MRTQ__ERR(MRTQ_EINVAL, !mm      ? "x->type: not an mrtq_dtype (0: a zero-initialised operand)"
                                  : second ? "b->type: not an mrtq_dtype (0: a zero-initialised operand)"
                                           : "a->type: not an mrtq_dtype (0: a zero-initialised operand)");
  if (x->type != MRTQ_S16)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, !mm ? "x->type: must be MRTQ_S16 (TFLite 16x8 activations are int16)"
                                        : second ? "b->type: must be MRTQ_S16 (TFLite's int16 BATCH_MATMUL is int16 x int16)"
                                                 : "a->type: must be MRTQ_S16 (TFLite's int16 BATCH_MATMUL is int16 x int16)");
  if (x->zp_ch)
    return MRTQ__ERR(MRTQ_EINVAL, !mm ? "x->zp_ch: must be NULL (TFLite 16x8 activations have no zero point)"
                                  : second ? "b->zp_ch: must be NULL (TFLite's int16 BATCH_MATMUL has no zero points)"
                                           : "a->zp_ch: must be NULL (TFLite's int16 BATCH_MATMUL has no zero points)");
  if (x->zp)
    return MRTQ__ERR(MRTQ_EINVAL, !mm ? "x->zp: must be 0 (TFLite 16x8 activations have no zero point)"
                                  : second ? "b->zp: must be 0 (TFLite's int16 BATCH_MATMUL has no zero points)"
                                           : "a->zp: must be 0 (TFLite's int16 BATCH_MATMUL has no zero points)");
  return MRTQ_OK;
}

/* Everything a 16x8 convolution checks; *k gets K, *ho / *wo the output size.
 * bias64 or bias32 (at most one non-NULL) bound the sum; acc64 picks the
 * bound. */
MRTQ__PRIV mrtq_status mrtq__s16x8_check(const mrtq_conv2d_shape *s, const mrtq_rq *rq, size_t nrq,
                                         const mrtq_qoperand *x, const mrtq_qoperand *w, const int64_t *bias64,
                                         const int32_t *bias32, int acc64, const int16_t *out, size_t *ho, size_t *wo,
                                         uint64_t *k) {
  size_t c;
  uint64_t bmax = 0;
  mrtq_status st = mrtq_conv2d_out(s, ho, wo);
  if (st != MRTQ_OK) return st;
  if ((st = mrtq__s16_x_check(x, 0, 0)) != MRTQ_OK) return st;
  if (!w) return MRTQ__ERR(MRTQ_EINVAL, "w: NULL");
  if (!w->data) return MRTQ__ERR(MRTQ_EINVAL, "w->data: NULL");
  if (!mrtq__dtype_ok(w->type)) return MRTQ__ERR(MRTQ_EINVAL, "w->type: not an mrtq_dtype (0: a zero-initialised operand)");
  if (w->type != MRTQ_S8) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "w->type: must be MRTQ_S8 (TFLite 16x8 weights are int8)");
  if (w->zp_ch) return MRTQ__ERR(MRTQ_EINVAL, "w->zp_ch: must be NULL (TFLite 16x8 weights are symmetric: zero point 0)");
  if (w->zp) return MRTQ__ERR(MRTQ_EINVAL, "w->zp: must be 0 (TFLite 16x8 weights are symmetric)");
  if (!rq) return MRTQ__ERR(MRTQ_EINVAL, "rq: NULL");
  if (nrq != 1 && nrq != s->o) return MRTQ__ERR(MRTQ_EINVAL, "nrq: must be 1 or s->o (o)");
  for (c = 0; c < nrq; c++)
    if ((st = mrtq__s16_rq_check(&rq[c], nrq > 1, acc64)) != MRTQ_OK) return st;
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  for (c = 0; (bias64 || bias32) && c < s->o; c++) {
    int64_t b = bias64 ? bias64[c] : bias32[c];
    uint64_t v = b < 0 ? (uint64_t)0 - (uint64_t)b : (uint64_t)b;
    if (v > bmax) bmax = v;
  }
  *k = (uint64_t)(s->c / s->groups) * s->kh * s->kw;
  if (acc64) {
    if (*k >= ((uint64_t)1 << 25) || (*k << 22) + bmax >= ((uint64_t)1 << 47))
      return bmax ? MRTQ__ERR(MRTQ_EOVERFLOW, "s, bias: K 2^22 + max|bias| must stay below 2^47, the domain of "
                                              "TFLite's 64-bit multiply (K = (c / groups) kh kw)")
                  : MRTQ__ERR(MRTQ_EOVERFLOW, "s: K 2^22 must stay below 2^47, the domain of TFLite's 64-bit "
                                              "multiply (K = (c / groups) kh kw <= 2^25 - 1)");
  } else if (*k > ((uint64_t)1 << 40)) {
    return MRTQ__ERR(MRTQ_EOVERFLOW, "s: K must be <= 2^40 (the exact int64 sum; K = (c / groups) kh kw)");
  }
  return MRTQ_OK;
}

/* sum W X over the taps of output (n, o, oy, ox) inside the image: exact,
 * |sum| <= K 2^22 (checked by the caller). */
MRTQ__PRIV int64_t mrtq__s16x8_dot(const mrtq_conv2d_shape *s, const void *xd, const int8_t *wd, size_t n, size_t o,
                                   size_t oy, size_t ox) {
  size_t cg = s->c / s->groups, g = o / (s->o / s->groups), c, ky, kx;
  size_t xst = s->layout == MRTQ_NCHW ? s->h * s->w : 1; /* step between channels */
  int64_t acc = 0;
  for (ky = 0; ky < s->kh; ky++)
    for (kx = 0; kx < s->kw; kx++) {
      size_t iy = oy * s->stride_h + ky * s->dil_h, ix = ox * s->stride_w + kx * s->dil_w, yy, xx, xa;
      if (mrtq__conv_pad(s, iy, ix)) continue; /* zero point 0: a padded tap adds nothing */
      yy = iy - s->pad_top, xx = ix - s->pad_left;
      xa = s->layout == MRTQ_NCHW ? ((n * s->c + g * cg) * s->h + yy) * s->w + xx
                                  : ((n * s->h + yy) * s->w + xx) * s->c + g * cg;
      for (c = 0; c < cg; c++)
        acc += (int64_t)wd[mrtq__conv_w_at(s, o, c, ky, kx)] * mrtq__load(xd, xa + c * xst, MRTQ_S16);
    }
  return acc;
}

/* The two convolutions: bias64 or bias32 (at most one non-NULL), acc64. */
MRTQ__PRIV mrtq_status mrtq__conv2d_s16x8(const mrtq_conv2d_shape *s, const mrtq_rq *rq, size_t nrq,
                                          const mrtq_qoperand *x, const mrtq_qoperand *w, const int64_t *bias64,
                                          const int32_t *bias32, int acc64, int16_t *out) {
  size_t ho, wo, n, o, oy, ox;
  uint64_t k;
  mrtq_status st = mrtq__s16x8_check(s, rq, nrq, x, w, bias64, bias32, acc64, out, &ho, &wo, &k);
  if (st != MRTQ_OK) return st;
  for (o = 0; o < s->o; o++) {
    const mrtq_rq *r = &rq[nrq == 1 ? 0 : o];
    int64_t b = bias64 ? bias64[o] : bias32 ? bias32[o] : 0;
    for (n = 0; n < s->n; n++)
      for (oy = 0; oy < ho; oy++)
        for (ox = 0; ox < wo; ox++) {
          int64_t acc = mrtq__s16x8_dot(s, x->data, (const int8_t *)w->data, n, o, oy, ox) + b;
          int32_t y = acc64 ? mrtq__clamp64(mrtq__s16_x64_wrap(acc, r->m), r->qmin, r->qmax)
                            : mrtq_rq_apply(r, mrtq__wrap32((uint32_t)((uint64_t)acc & 0xffffffffu)), -32768, 32767);
          out[mrtq__conv_out_at(s, ho, wo, n, o, oy, ox)] = (int16_t)y;
        }
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_conv2d_s16x8_acc64(const mrtq_conv2d_shape *s, const mrtq_rq *rq, size_t nrq,
                                             const mrtq_qoperand *x, const mrtq_qoperand *w, const int64_t *bias,
                                             int16_t *out) {
  return mrtq__conv2d_s16x8(s, rq, nrq, x, w, bias, NULL, 1, out);
}

MRTQ_API mrtq_status mrtq_conv2d_s16x8_acc32(const mrtq_conv2d_shape *s, const mrtq_rq *rq, size_t nrq,
                                             const mrtq_qoperand *x, const mrtq_qoperand *w, const int32_t *bias,
                                             int16_t *out) {
  return mrtq__conv2d_s16x8(s, rq, nrq, x, w, NULL, bias, 0, out);
}

MRTQ_API mrtq_status mrtq_fc_s16x8_acc64(size_t rows, size_t k, size_t o, const mrtq_rq *rq, size_t nrq,
                                         const mrtq_qoperand *x, const mrtq_qoperand *w, const int64_t *bias,
                                         int16_t *out) {
  mrtq_conv2d_shape s = mrtq_fc_shape(rows, k, o);
  return mrtq__conv2d_s16x8(&s, rq, nrq, x, w, bias, NULL, 1, out);
}

MRTQ_API mrtq_status mrtq_fc_s16x8_acc32(size_t rows, size_t k, size_t o, const mrtq_rq *rq, size_t nrq,
                                         const mrtq_qoperand *x, const mrtq_qoperand *w, const int32_t *bias,
                                         int16_t *out) {
  mrtq_conv2d_shape s = mrtq_fc_shape(rows, k, o);
  return mrtq__conv2d_s16x8(&s, rq, nrq, x, w, NULL, bias, 0, out);
}

/* One int16 matrix product (the core of mrtq_matmul_s16_acc64 and TFLite's
 * BATCH_MATMUL in mrtq/batch_matmul.h): a m x k and b k x n row-major int16
 * (any alignment), out m x n, per element clamp(wrap32(R(sum_t a b)), qmin,
 * qmax) with R TFLite's 64-bit multiply, stored at any alignment (the
 * caller checked rq and k). */
MRTQ__PRIV void mrtq__matmul_s16_one(size_t m, size_t k, size_t n, const mrtq_rq *rq, const void *a, const void *b,
                                     void *out) {
  size_t i, j, t;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      int64_t acc = 0;
      for (t = 0; t < k; t++)
        acc += (int64_t)mrtq__load(a, i * k + t, MRTQ_S16) * mrtq__load(b, t * n + j, MRTQ_S16);
      mrtq__store(out, i * n + j, MRTQ_S16, mrtq__clamp64(mrtq__s16_x64_wrap(acc, rq->m), rq->qmin, rq->qmax));
    }
}

MRTQ_API mrtq_status mrtq_matmul_s16_acc64(size_t batch, size_t m, size_t k, size_t n, const mrtq_rq *rq,
                                           const mrtq_qoperand *a, const mrtq_qoperand *b, int b_shared,
                                           int16_t *out) {
  size_t bi;
  mrtq_status st = mrtq__matmul_shape(batch, m, k, n, b_shared);
  if (st != MRTQ_OK) return st;
  if ((st = mrtq__s16_x_check(a, 1, 0)) != MRTQ_OK) return st;
  if ((st = mrtq__s16_x_check(b, 1, 1)) != MRTQ_OK) return st;
  if (!rq) return MRTQ__ERR(MRTQ_EINVAL, "rq: NULL");
  if ((st = mrtq__s16_rq_check(rq, 0, 1)) != MRTQ_OK) return st;
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (k > 131071) /* k 2^30 < 2^47 */
    return MRTQ__ERR(MRTQ_EOVERFLOW, "k: k 2^30 must stay below 2^47, the domain of TFLite's 64-bit multiply "
                                     "(k <= 131071)");
  for (bi = 0; bi < batch; bi++)
    mrtq__matmul_s16_one(m, k, n, rq, (const uint8_t *)a->data + 2 * (bi * m * k),
                         (const uint8_t *)b->data + 2 * (b_shared ? 0 : bi * k * n), out + bi * m * n);
  return MRTQ_OK;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_CONV_S16_H */
