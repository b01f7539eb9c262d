/* mrtq/lstm.h -- TFLite's integer LSTM (UNIDIRECTIONAL_SEQUENCE_LSTM) as
 * TFLite Micro's reference kernel computes it, with int8 or int16
 * activations, int8 weights and an int16 cell state (a kernel header of layer
 * 6; includes mrtq/activation.h, whose int16 LOGISTIC / TANH kernels are its
 * gates, and mrtq/requant.h). Normative math: docs/kernels.md section 4.22;
 * upstream files and versions: docs/anchors.md section 2.18.
 *
 * WHICH TFLITE. Two TFLite runtimes run integer LSTMs, and they compute
 * different bytes for the same model:
 *   - TFLite Micro (tensorflow/tflite-micro, micro/kernels/lstm_eval.{h,cc},
 *     lstm_eval_common.cc, unidirectional_sequence_lstm.cc, read at commit
 *     90b983c2b3f1, 2026-08-20): one code path for int8 and int16
 *     activations; every gate is two fully connected layers (input, and
 *     recurrent on the hidden state) requantized to int16 at scale 2^-12,
 *     summed with int16 saturation, then TFLite's int16 LOGISTIC / TANH
 *     reference kernels (a 256-entry sigmoid table with linear
 *     interpolation); the inter-gate products are TFLite's MUL. It has no
 *     CIFG, peephole, projection or layer normalisation (it refuses models
 *     that have them).
 *   - the TF interpreter (tensorflow/lite/kernels/lstm_eval.cc,
 *     EvalInteger8x8_16 / 16x8_16): per-gate effective scales of its own,
 *     gemmlowp's fixed-point logistic / tanh on Q3.12, optional CIFG,
 *     peephole, projection and layer normalisation. NOT implemented here.
 * mrtq_tflite_lstm follows TFLite Micro, the shared reference for
 * microcontrollers and CMSIS-NN; the TF interpreter's 8x8_16 form is not
 * provided (see docs/kernels.md 4.22 for how the two differ).
 *
 * THE STEP. Gates in TFLite's tensor order: MRTQ_LSTM_GATE_I (input gate),
 * _F (forget), _C (cell gate), _O (output). For each batch row b and time
 * step t, with x the input row (n_input values, zero point zp_x), h the
 * hidden state row (n_cell values, zero point zp_h) and c the cell state row:
 *   acc_g[j] = bias_g[j] + sum_k w_in_g[j][k] (x[k] - zp_x)        (fc_in)
 *   rec_g[j] = sum_k w_rec_g[j][k] (h[k] - zp_h)                   (fc_rec, no bias)
 *   z_g[j]   = sat16(fc16(acc_g[j], gate_in[g]) + fc16(rec_g[j], gate_rec[g]))
 *   g_g[j]   = sigmoid16(z_g[j]) for I, F, O;  for C: tanh16(z_C[j], -12)
 *              (or sigmoid16 when cell_act is MRTQ_LSTM_SIGMOID)
 *   c[j]     = sat16(mul(g_F[j] c[j], forget_cell, 0, int16)
 *                    + mul(g_I[j] g_C[j], input_cell, 0, int16))
 *   c[j]     = max(min(c[j], cell_clip), -cell_clip)   when cell_clip >= 0
 *   h[j]     = mul(tanh16(c[j], cell_power) g_O[j], hidden, zp_h, type)
 *   out row  = h
 * where
 *   fc16(a, m)          = clamp(Q31(a, m), -32768, 32767); Q31 is
 *                         mrtq_mul_q31_dbl on the int32 accumulator (int8
 *                         activations; the accumulator wraps modulo 2^32 as
 *                         two's-complement hardware does, where TFLite's C++
 *                         overflow is undefined) and mrtq_mul_q31_x64 on the
 *                         int64 accumulator (int16 activations; bias int64,
 *                         the sum wraps modulo 2^64)
 *   mul(v, m, zp, type) = clamp(zp + mrtq_mul_q31_dbl(v, m), type's range),
 *                         v the exact int32 product of two int16 values
 *   sigmoid16(z)        = TFLite reference_integer_ops::Logistic (int16, its
 *                         multiplier 0 and shift 0, i.e. input 3z): a = |3z|,
 *                         i = floor(a / 512), f = a mod 512, T the table
 *                         below; r = 512 T[i] + f (T[i+1] - T[i]) (i >= 255:
 *                         r = 32767 * 1024); z >= 0: floor((r + 512) / 1024),
 *                         z < 0: floor((2^25 - r + 511) / 1024); in [0, 32767]
 *   tanh16(z, p)        = TFLite reference_integer_ops::Tanh (int16) with the
 *                         input shift s = 12 + p the kernel derives from the
 *                         cell scale 2^p: v = 3 z 2^s for s >= 0, v =
 *                         floor((3z + 2^(-s-1)) / 2^-s) for s < 0 (the
 *                         rounding shift: ties toward +infinity); a = |v|,
 *                         i = floor(a / 256), f = a mod 256; r = 256 T[i] +
 *                         f (T[i+1] - T[i]) (i >= 255: r = 65535 * 256);
 *                         v >= 0: floor((r - 2^23 + 128) / 256), v < 0:
 *                         floor((2^23 - r + 127) / 256); in [-32767, 32767]
 *   T                   TFLite's 256-entry sigmoid_table_uint16
 *                         (internal/common.h; mrtq/activation.h): T[k] is within 1.11
 *                         of 65536 / (1 + e^(-k/24)) (not its rounding: the
 *                         entries are tuned for the interpolation),
 *                         T[0] = 32768, T[255] = 65535
 * Batch rows never interact, so time-major ([steps][batch][n]) and
 * batch-major ([batch][steps][n]) inputs give the same rows; TFLite Micro
 * runs batch-major inputs one batch at a time, with the same bytes.
 *
 * Bit-exact with TFLite Micro's reference UNIDIRECTIONAL_SEQUENCE_LSTM
 * (integer_ops FullyConnected, Logistic, Tanh, MulElementwise as its
 * lstm_eval.cc calls them; MultiplyByQuantizedMultiplier of its default,
 * double-rounding build) wherever TFLite's C++ is defined: int32 fc
 * accumulators that do not overflow, acc * 2^shift within int32 for a
 * multiplier with shift > 0, x64 multipliers with shift <= 7 and results
 * within int32 (int16 activations). Outside, mrtq keeps the total
 * definitions above (the accumulators wrap; mrtq_mul_q31_dbl and
 * mrtq_mul_q31_x64 saturate where TFLite's products wrap or truncate). */
#ifndef MRTQ_LSTM_H
#define MRTQ_LSTM_H

#include "activation.h"
#include "requant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* Gate indices, TFLite's tensor order (input_to_input_weights is tensor 1,
 * input_to_forget 2, input_to_cell 3, input_to_output 4; recurrent 5..8;
 * biases 12..15). */
enum { MRTQ_LSTM_GATE_I = 0, MRTQ_LSTM_GATE_F = 1, MRTQ_LSTM_GATE_C = 2, MRTQ_LSTM_GATE_O = 3 };

/* The cell gate's nonlinearity (the LSTM options' fused activation; TFLite
 * Micro runs only these two). 0 is no value (a zero-initialised struct is
 * refused). */
typedef enum mrtq_lstm_act { MRTQ_LSTM_TANH = 1, MRTQ_LSTM_SIGMOID = 2 } mrtq_lstm_act;

/* The quantization of an LSTM's tensors, as a .tflite file stores them (float
 * scales, int32 zero points) plus the LSTM options' cell clip. */
typedef struct mrtq_tflite_lstm_scales {
  float input;     /* input tensor (0) scale, finite and > 0 */
  int32_t input_zp; /* its zero point, a value of the activation type */
  float w_in[4];   /* input-to-gate weight scales (tensors 1..4, gate order above), finite and > 0 */
  float w_rec[4];  /* recurrent-to-gate weight scales (tensors 5..8), finite and > 0 */
  float hidden;    /* hidden (output) state tensor (18) scale; the output tensor has the same */
  int32_t hidden_zp; /* its zero point */
  float cell;      /* cell state tensor (19) scale, finite and > 0 */
  float cell_clip; /* the options' cell_clip: 0 none, > 0 clip (finite) */
} mrtq_tflite_lstm_scales;

/* Everything the kernel needs besides the tensors: what TFLite Micro's
 * Prepare stores. Each field's valid range is what mrtq_tflite_lstm checks
 * (a hand-filled struct is validated, never trusted). */
typedef struct mrtq_tflite_lstm_params {
  mrtq_dtype type;       /* activations (input, hidden state, output): MRTQ_S8 or MRTQ_S16 */
  int32_t input_zp;      /* a value of type */
  int32_t hidden_zp;     /* a value of type */
  mrtq_mult gate_in[4];  /* fc_in requantization per gate: mult >= 0, shift in [-31, 30] */
  mrtq_mult gate_rec[4]; /* fc_rec requantization per gate: same ranges */
  mrtq_mult forget_cell; /* forget gate x cell state -> cell state: same ranges */
  mrtq_mult input_cell;  /* input gate x cell gate -> cell state: same ranges */
  mrtq_mult hidden;      /* tanh(cell) x output gate -> hidden state: same ranges */
  int32_t cell_power;    /* the cell scale is 2^cell_power: [-43, 2] (TFLite's Tanh shifts stay defined) */
  int32_t cell_clip;     /* quantized cell clip in [0, 32767], or -1: no clip */
  mrtq_lstm_act cell_act;
} mrtq_tflite_lstm_params;

/* Sizes. The input is [steps][batch][n_input] when time_major is 1 and
 * [batch][steps][n_input] when it is 0; the output follows it with n_cell in
 * place of n_input; the states are [batch][n_cell]. */
typedef struct mrtq_tflite_lstm_shape {
  size_t n_input; /* >= 1 */
  size_t n_cell;  /* >= 1: state size (TFLite Micro has no projection, so also the output size) */
  size_t batch;   /* >= 1 */
  size_t steps;   /* >= 0 (0: nothing is read or written) */
  int time_major; /* 1 or 0 */
} mrtq_tflite_lstm_shape;

/* The constant tensors: weights int8 with zero point 0 (TFLite's weights are
 * symmetric), row-major [n_cell][n_input] (w_in) and [n_cell][n_cell]
 * (w_rec), gate order above; biases n_cell values, int32_t for MRTQ_S8 and
 * int64_t for MRTQ_S16 activations, or NULL (no bias: zeros). The recurrent
 * layers have no bias (TFLite Micro passes none). */
typedef struct mrtq_tflite_lstm_weights {
  const int8_t *w_in[4];
  const int8_t *w_rec[4];
  const void *bias[4];
} mrtq_tflite_lstm_weights;

/* The parameters TFLite Micro's Prepare (unidirectional_sequence_lstm.cc,
 * lstm_eval_common.cc PrepareGateParametersInteger, CreateGateParams,
 * CreateInterGateMulParams, CreateLstmCellStateInfo) computes from the
 * tensors' scales, bit for bit:
 *   gate_in[g]  = Q(fl(s->input * s->w_in[g]) / 2^-12)    the product in
 *   gate_rec[g] = Q(fl(s->hidden * s->w_rec[g]) / 2^-12)  float (TFLite's
 *                 GetQuantizedConvolutionMultipler), widened, divided in double
 *   forget_cell = Q(2^-15 * cell / cell)  = Q(2^-15)       in double
 *   input_cell  = Q(2^-15 * 2^-15 / cell)                  in double
 *   hidden      = Q(2^-15 * 2^-15 / hidden)                in double
 *   cell_power  = log2(cell) rounded to the nearest integer
 *   cell_clip   = cell_clip > 0 ? trunc(min(cell_clip / cell, 32767)) : -1
 *                 (the quotient in double, toward zero as TFLite's cast)
 * with Q = mrtq_mult_q31 (TFLite's QuantizeMultiplier). TFLite computes
 * cell_power as round(fl(logf(cell) * fl(1 / logf(2)))); mrtq rounds the
 * exact log2, which can differ only for a scale within a few float ulps of
 * 2^(k + 1/2) (a cell scale is a power of two in every converted model, and
 * the TF interpreter refuses any other).
 * type: MRTQ_S8 or MRTQ_S16; zero points within it.
 * Errors (nothing written): out or s NULL, a scale NaN, infinite or <= 0,
 * cell_clip NaN, infinite or negative, cell_act outside the enum, type not an
 * mrtq_dtype -> MRTQ_EINVAL; type another mrtq_dtype -> MRTQ_EUNSUPPORTED;
 * a zero point outside type, a multiplier whose shift exceeds 30 (a scale
 * ratio >= 2^30), cell_power outside [-43, 2] -> MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_tflite_lstm_init(mrtq_dtype type, const mrtq_tflite_lstm_scales *s, mrtq_lstm_act cell_act,
                                           mrtq_tflite_lstm_params *out);

/* Bytes of scratch mrtq_tflite_lstm needs for state size n_cell: 8 * n_cell
 * (four int16 gate vectors); 0 if that overflows size_t. */
MRTQ_API size_t mrtq_tflite_lstm_scratch_size(size_t n_cell);

/* Run sh->steps LSTM steps (THE STEP above) over the whole input, updating
 * the states in place and writing every step's hidden state to out.
 * in:     the input, type p->type, layout per sh->time_major.
 * scratch: scratch_bytes >= mrtq_tflite_lstm_scratch_size(sh->n_cell),
 *         2-byte aligned; its contents on return are unspecified.
 * hidden: [batch][n_cell] of p->type: the hidden state, read and written.
 * cell:   [batch][n_cell] int16: the cell state, read and written.
 * out:    [steps][batch][n_cell] or [batch][steps][n_cell] of p->type.
 * in, out, hidden and cell must not overlap; MRTQ_S16 data may have any
 * alignment (read and written by byte copies).
 * Errors (nothing written): p, sh, w or scratch NULL; in, hidden, cell, out
 * or any weight pointer NULL with steps > 0; p->type not an mrtq_dtype;
 * p->cell_act outside the enum; sh->time_major not 0 or 1; n_input, n_cell
 * or batch 0; scratch misaligned or smaller than needed -> MRTQ_EINVAL;
 * p->type another mrtq_dtype -> MRTQ_EUNSUPPORTED; a zero point outside
 * p->type, a multiplier with mult < 0 or shift outside [-31, 30],
 * cell_power outside [-43, 2], cell_clip outside [-1, 32767] -> MRTQ_ERANGE;
 * sizes whose element counts overflow size_t -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_tflite_lstm(const mrtq_tflite_lstm_params *p, const mrtq_tflite_lstm_shape *sh,
                                      const mrtq_tflite_lstm_weights *w, const void *in, void *scratch,
                                      size_t scratch_bytes, void *hidden, int16_t *cell, void *out);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

/* sigmoid16(z) of the header comment: TFLite's int16 Logistic with input
 * multiplier 0 and shift 0 (so the input is 3z). */
MRTQ__PRIV int16_t mrtq__lstm_sigmoid16(int32_t z) { return mrtq__act_logistic16(3 * (int64_t)z); }

/* tanh16(z, power) of the header comment: TFLite's int16 Tanh with the input
 * shift 12 + power that lstm_eval.cc's Tanh wrapper derives, power in
 * [-43, 2] (s = 12 + power in [-31, 14], where TFLite's int32 arithmetic is
 * defined; computed here in int64). */
MRTQ__PRIV int16_t mrtq__lstm_tanh16(int32_t z, int32_t power) {
  int32_t s = 12 + power;
  int64_t v = s >= 0 ? (int64_t)z * 3 * ((int64_t)1 << s) : mrtq__asr64((int64_t)z * 3 + ((int64_t)1 << (-s - 1)), -s);
  return mrtq__act_tanh16(v);
}

/* mul(a b, m, zp, [lo, hi]) of the header comment. */
MRTQ__PRIV int32_t mrtq__lstm_mul(int32_t a, int32_t b, mrtq_mult m, int32_t zp, int32_t lo, int32_t hi) {
  return mrtq__clamp64((int64_t)zp + mrtq_mul_q31_dbl(a * b, m), lo, hi); /* |a b| <= 2^30 */
}

MRTQ__PRIV int32_t mrtq__sat16(int32_t v) { return v > 32767 ? 32767 : v < -32768 ? -32768 : v; }

/* One fully connected layer for one row, requantized to int16 (fc16):
 * rows[j] = fc16(bias[j] + sum_k w[j][k] (x[k] - zp), m). */
MRTQ__PRIV int32_t mrtq__lstm_fc16(const int8_t *wrow, const void *x, size_t n, int32_t zp, mrtq_dtype t,
                                   const void *bias, size_t j, mrtq_mult m) {
  size_t k;
  if (t == MRTQ_S8) { /* int32 accumulator, wrapping */
    const int8_t *xs = (const int8_t *)x;
    uint32_t acc = bias ? (uint32_t)mrtq__load(bias, j, MRTQ_S32) : 0u;
    for (k = 0; k < n; k++) acc += (uint32_t)((int32_t)wrow[k] * ((int32_t)xs[k] - zp));
    return mrtq__clamp64(mrtq_mul_q31_dbl(mrtq__wrap32(acc), m), -32768, 32767);
  } else { /* int64 accumulator, wrapping */
    uint64_t acc = 0;
    if (bias) {
      int64_t b;
      memcpy(&b, (const uint8_t *)bias + 8 * j, 8);
      acc = (uint64_t)b;
    }
    for (k = 0; k < n; k++) acc += (uint64_t)(int64_t)((int32_t)wrow[k] * (mrtq__load(x, k, MRTQ_S16) - zp));
    return mrtq__clamp64(mrtq_mul_q31_x64(mrtq__wrap64(acc), m), -32768, 32767);
  }
}

/* Every field of a (possibly hand-filled) params struct. */
MRTQ__PRIV mrtq_status mrtq__lstm_check(const mrtq_tflite_lstm_params *p) {
  int g;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!mrtq__dtype_ok(p->type)) return MRTQ__ERR(MRTQ_EINVAL, "p->type: not an mrtq_dtype (0: a zero-initialised struct)");
  if (p->type != MRTQ_S8 && p->type != MRTQ_S16) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "p->type: must be MRTQ_S8 or MRTQ_S16");
  if (p->cell_act != MRTQ_LSTM_TANH && p->cell_act != MRTQ_LSTM_SIGMOID)
    return MRTQ__ERR(MRTQ_EINVAL, "p->cell_act: not an mrtq_lstm_act");
  if (!mrtq__in_type(p->input_zp, p->type)) return MRTQ__ERR(MRTQ_ERANGE, "p->input_zp: outside p->type");
  if (!mrtq__in_type(p->hidden_zp, p->type)) return MRTQ__ERR(MRTQ_ERANGE, "p->hidden_zp: outside p->type");
  for (g = 0; g < 4; g++) {
    if (!mrtq__act_mult_ok(p->gate_in[g]))
      return MRTQ__ERR(MRTQ_ERANGE, "p->gate_in[g]: mult < 0 or shift outside [-31, 30]");
    if (!mrtq__act_mult_ok(p->gate_rec[g]))
      return MRTQ__ERR(MRTQ_ERANGE, "p->gate_rec[g]: mult < 0 or shift outside [-31, 30]");
  }
  if (!mrtq__act_mult_ok(p->forget_cell))
    return MRTQ__ERR(MRTQ_ERANGE, "p->forget_cell: mult < 0 or shift outside [-31, 30]");
  if (!mrtq__act_mult_ok(p->input_cell))
    return MRTQ__ERR(MRTQ_ERANGE, "p->input_cell: mult < 0 or shift outside [-31, 30]");
  if (!mrtq__act_mult_ok(p->hidden)) return MRTQ__ERR(MRTQ_ERANGE, "p->hidden: mult < 0 or shift outside [-31, 30]");
  if (p->cell_power < -43 || p->cell_power > 2) return MRTQ__ERR(MRTQ_ERANGE, "p->cell_power: outside [-43, 2]");
  if (p->cell_clip < -1 || p->cell_clip > 32767) return MRTQ__ERR(MRTQ_ERANGE, "p->cell_clip: outside [-1, 32767]");
  return MRTQ_OK;
}

/* x finite and > 0. */
MRTQ__PRIV int mrtq__lstm_scale_ok(float x) { return !mrtq__nonfinite_f32(x) && x > 0; }

MRTQ_API mrtq_status mrtq_tflite_lstm_init(mrtq_dtype type, const mrtq_tflite_lstm_scales *s, mrtq_lstm_act cell_act,
                                           mrtq_tflite_lstm_params *out) {
  mrtq_tflite_lstm_params p;
  int g, e = 0;
  double q, two15 = 1.0 / 32768.0;
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if (!s) return MRTQ__ERR(MRTQ_EINVAL, "s: NULL");
  if (!mrtq__dtype_ok(type)) return MRTQ__ERR(MRTQ_EINVAL, "type: not an mrtq_dtype");
  if (type != MRTQ_S8 && type != MRTQ_S16) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "type: must be MRTQ_S8 or MRTQ_S16");
  if (cell_act != MRTQ_LSTM_TANH && cell_act != MRTQ_LSTM_SIGMOID)
    return MRTQ__ERR(MRTQ_EINVAL, "cell_act: not an mrtq_lstm_act");
  if (!mrtq__lstm_scale_ok(s->input)) return MRTQ__ERR(MRTQ_EINVAL, "s->input: NaN, infinite or <= 0");
  if (!mrtq__lstm_scale_ok(s->hidden)) return MRTQ__ERR(MRTQ_EINVAL, "s->hidden: NaN, infinite or <= 0");
  if (!mrtq__lstm_scale_ok(s->cell)) return MRTQ__ERR(MRTQ_EINVAL, "s->cell: NaN, infinite or <= 0");
  for (g = 0; g < 4; g++) {
    if (!mrtq__lstm_scale_ok(s->w_in[g])) return MRTQ__ERR(MRTQ_EINVAL, "s->w_in[g]: NaN, infinite or <= 0");
    if (!mrtq__lstm_scale_ok(s->w_rec[g])) return MRTQ__ERR(MRTQ_EINVAL, "s->w_rec[g]: NaN, infinite or <= 0");
  }
  if (mrtq__nonfinite_f32(s->cell_clip) || s->cell_clip < 0)
    return MRTQ__ERR(MRTQ_EINVAL, "s->cell_clip: NaN, infinite or negative");
  if (!mrtq__in_type(s->input_zp, type)) return MRTQ__ERR(MRTQ_ERANGE, "s->input_zp: outside type");
  if (!mrtq__in_type(s->hidden_zp, type)) return MRTQ__ERR(MRTQ_ERANGE, "s->hidden_zp: outside type");
  memset(&p, 0, sizeof p);
  p.type = type, p.input_zp = s->input_zp, p.hidden_zp = s->hidden_zp, p.cell_act = cell_act;
  for (g = 0; g < 4; g++) {
    float fi = s->input * s->w_in[g], fr = s->hidden * s->w_rec[g]; /* float products, as TFLite */
    /* a float product that underflows to 0 is a zero scale: QuantizeMultiplier's {0, 0} */
    mrtq__mult_encode((double)fi / (1.0 / 4096.0), 31, &p.gate_in[g]);
    mrtq__mult_encode((double)fr / (1.0 / 4096.0), 31, &p.gate_rec[g]);
    if (p.gate_in[g].shift > 30) return MRTQ__ERR(MRTQ_ERANGE, "s->w_in[g]: input * w_in[g] / 2^-12 >= 2^30");
    if (p.gate_rec[g].shift > 30) return MRTQ__ERR(MRTQ_ERANGE, "s->w_rec[g]: hidden * w_rec[g] / 2^-12 >= 2^30");
  }
  mrtq__mult_encode(two15 * (double)s->cell / (double)s->cell, 31, &p.forget_cell);
  mrtq__mult_encode(two15 * two15 / (double)s->cell, 31, &p.input_cell);
  mrtq__mult_encode(two15 * two15 / (double)s->hidden, 31, &p.hidden);
  /* 2^-30 / s with s >= 2^-149: at most 2^119; shift > 30 needs s < 2^-60 */
  if (p.input_cell.shift > 30) return MRTQ__ERR(MRTQ_ERANGE, "s->cell: 2^-30 / cell >= 2^30");
  if (p.hidden.shift > 30) return MRTQ__ERR(MRTQ_ERANGE, "s->hidden: 2^-30 / hidden >= 2^30");
  /* nearest integer to log2(cell): cell = q 2^e, q in [0.5, 1) with 24
     significant bits, so q^2 is exact and q < 2^-1/2 iff q^2 < 1/2 */
  q = mrtq__frexp((double)s->cell, &e);
  p.cell_power = q * q < 0.5 ? e - 1 : e;
  if (p.cell_power < -43 || p.cell_power > 2) return MRTQ__ERR(MRTQ_ERANGE, "s->cell: log2 rounds outside [-43, 2]");
  if (s->cell_clip > 0) {
    double c = (double)s->cell_clip / (double)s->cell;
    p.cell_clip = c >= 32767.0 ? 32767 : (int32_t)c; /* c > 0: truncation toward zero */
  } else {
    p.cell_clip = -1;
  }
  *out = p;
  return MRTQ_OK;
}

MRTQ_API size_t mrtq_tflite_lstm_scratch_size(size_t n_cell) { return n_cell > SIZE_MAX / 8 ? 0 : 8 * n_cell; }

MRTQ_API mrtq_status mrtq_tflite_lstm(const mrtq_tflite_lstm_params *p, const mrtq_tflite_lstm_shape *sh,
                                      const mrtq_tflite_lstm_weights *w, const void *in, void *scratch,
                                      size_t scratch_bytes, void *hidden, int16_t *cell, void *out) {
  mrtq_status st = mrtq__lstm_check(p);
  size_t t, b, j, nc, ni, es;
  int g;
  int16_t *gate[4];
  int32_t lo, hi;
  if (st != MRTQ_OK) return st;
  if (!sh) return MRTQ__ERR(MRTQ_EINVAL, "sh: NULL");
  if (!w) return MRTQ__ERR(MRTQ_EINVAL, "w: NULL");
  if (!scratch) return MRTQ__ERR(MRTQ_EINVAL, "scratch: NULL");
  if (sh->time_major != 0 && sh->time_major != 1) return MRTQ__ERR(MRTQ_EINVAL, "sh->time_major: must be 0 or 1");
  if (!sh->n_input || !sh->n_cell || !sh->batch) return MRTQ__ERR(MRTQ_EINVAL, "sh->n_input, n_cell, batch: 0");
  nc = sh->n_cell, ni = sh->n_input;
  if (sh->batch > SIZE_MAX / 8 / nc) return MRTQ__ERR(MRTQ_ESHAPE, "sh->batch, n_cell: state bytes overflow size_t");
  if (sh->steps && (sh->steps > SIZE_MAX / 8 / sh->batch || sh->steps * sh->batch > SIZE_MAX / 8 / (ni > nc ? ni : nc)))
    return MRTQ__ERR(MRTQ_ESHAPE, "sh->steps, batch, n_input, n_cell: tensor bytes overflow size_t");
  if (nc > SIZE_MAX / 8 / nc || nc > SIZE_MAX / 8 / ni) /* weight sizes, SIZE_MAX / 8 leaves room */
    return MRTQ__ERR(MRTQ_ESHAPE, "sh->n_cell, n_input: weight bytes overflow size_t");
  if (((uintptr_t)scratch & 1u) != 0) return MRTQ__ERR(MRTQ_EINVAL, "scratch: not 2-byte aligned");
  if (scratch_bytes < 8 * nc) return MRTQ__ERR(MRTQ_EINVAL, "scratch_bytes: smaller than mrtq_tflite_lstm_scratch_size");
  if (!sh->steps) return MRTQ_OK;
  if (!in) return MRTQ__ERR(MRTQ_EINVAL, "in: NULL");
  if (!hidden) return MRTQ__ERR(MRTQ_EINVAL, "hidden: NULL");
  if (!cell) return MRTQ__ERR(MRTQ_EINVAL, "cell: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  for (g = 0; g < 4; g++)
    if (!w->w_in[g] || !w->w_rec[g]) return MRTQ__ERR(MRTQ_EINVAL, "w->w_in[g], w->w_rec[g]: NULL");

  es = p->type == MRTQ_S8 ? 1 : 2;
  lo = p->type == MRTQ_S8 ? -128 : -32768, hi = p->type == MRTQ_S8 ? 127 : 32767;
  for (g = 0; g < 4; g++) gate[g] = (int16_t *)scratch + (size_t)g * nc;
  for (t = 0; t < sh->steps; t++)
    for (b = 0; b < sh->batch; b++) {
      size_t row = sh->time_major ? t * sh->batch + b : b * sh->steps + t;
      const uint8_t *x = (const uint8_t *)in + row * ni * es;
      uint8_t *h = (uint8_t *)hidden + b * nc * es, *o = (uint8_t *)out + row * nc * es;
      int16_t *c = cell + b * nc;
      /* 1. the four gates, all from the old hidden state */
      for (g = 0; g < 4; g++)
        for (j = 0; j < nc; j++) {
          int32_t z = mrtq__lstm_fc16(w->w_in[g] + j * ni, x, ni, p->input_zp, p->type, w->bias[g], j, p->gate_in[g]) +
                      mrtq__lstm_fc16(w->w_rec[g] + j * nc, h, nc, p->hidden_zp, p->type, NULL, j, p->gate_rec[g]);
          z = mrtq__sat16(z);
          gate[g][j] = g == MRTQ_LSTM_GATE_C && p->cell_act == MRTQ_LSTM_TANH ? mrtq__lstm_tanh16(z, -12)
                                                                                : mrtq__lstm_sigmoid16(z);
        }
      /* 2. the cell state; 3. the hidden state and the output row */
      for (j = 0; j < nc; j++) {
        int32_t cf = mrtq__lstm_mul(gate[MRTQ_LSTM_GATE_F][j], c[j], p->forget_cell, 0, -32768, 32767);
        int32_t ci = mrtq__lstm_mul(gate[MRTQ_LSTM_GATE_I][j], gate[MRTQ_LSTM_GATE_C][j], p->input_cell, 0, -32768, 32767);
        int32_t cv = mrtq__sat16(cf + ci), hv;
        if (p->cell_clip >= 0) cv = cv > p->cell_clip ? p->cell_clip : cv < -p->cell_clip ? -p->cell_clip : cv;
        c[j] = (int16_t)cv;
        hv = mrtq__lstm_mul(mrtq__lstm_tanh16(cv, p->cell_power), gate[MRTQ_LSTM_GATE_O][j], p->hidden, p->hidden_zp, lo,
                            hi);
        mrtq__store(h, j, p->type, hv);
        mrtq__store(o, j, p->type, hv);
      }
    }
  return MRTQ_OK;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_LSTM_H */
