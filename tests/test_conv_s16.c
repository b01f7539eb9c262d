/* TFLite's 16x8 kernels (mrtq/conv_s16.h) and the 64-bit multiply
 * mrtq_mul_q31_x64 (mrtq/requant.h):
 *  - mrtq_mul_q31_x64 against exact 128-bit arithmetic written from its
 *    definition (the multiplier rounded to 16 bits by division, then one
 *    rounding by division), over edge tables (every x of the form +-2^k + d,
 *    INT64_MIN / MAX, the multipliers around 2^30, 0x7FFF0000 and 0x7FFF8000,
 *    negative ones, every shift from -40 to 20 and the int32 extremes) and
 *    random values; inside TFLite's domain also against TFLite's own int64
 *    statement (internal/common.cc, MultiplyByQuantizedMultiplier(int64_t)).
 *  - the kernels against restatements of TFLite's reference kernels written
 *    here in TFLite's own form: NHWC / OHWI index arithmetic, taps outside the
 *    image skipped, the depthwise loop over input channel and multiplier with
 *    the [1][KH][KW][O] filter, FullyConnected's row loop, BatchMatMul with the
 *    right-hand side transposed and the operands swapped as the kernel passes
 *    them; the int32-accumulator paths sum in int32 with an explicit uint32
 *    wrap (TFLite's compiled code) and the 64-bit paths take TFLite's int64
 *    result modulo 2^32 (its static_cast<int32_t>); the 32-bit multiply as
 *    gemmlowp SRDHM / RDIVPOT or single rounding (tests/oracle.h). Multipliers
 *    come from the oracle's own QuantizeMultiplier (frexp, round half away).
 *    Outputs where TFLite's arithmetic leaves its defined domain (an int32
 *    partial sum or 64-bit result beyond int32, a left shift beyond int32)
 *    are counted apart from the others.
 *  - edges: every tie the rounding decides, saturation at both ends, extreme
 *    multipliers and shifts, size-1 dimensions, accumulators at the 2^47 and
 *    int32 bounds, the (0, 0) multiplier, and every refusal. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "mrtq.h"
#include "oracle.h"

static long long compared;
static int aligned_data; /* conv_layer: products near +2^22, so that large-K int32 sums wrap */
/* outputs compared whose TFLite computation leaves its defined domain (an
 * int32 sum or the 64-bit multiply's result outside int32, x 2^shift outside
 * int32): TFLite's compiled code wraps there */
static long long outside;

/* TFLite's QuantizeMultiplier (quantization_util.cc), restated: frexp, the
 * fraction times 2^31 rounded half away from zero, 2^31 folded into the
 * exponent, shifts below -31 flushed to (0, 0), and with single rounding
 * shifts above 30 capped to (2^31 - 1, 30). */
static void tfl_quantize_multiplier(double d, int single, int32_t *qm, int *shift) {
  double q;
  long long q_fixed;
  if (d == 0.0) {
    *qm = 0, *shift = 0;
    return;
  }
  q = frexp(d, shift);
  q_fixed = (long long)round(q * 2147483648.0);
  if (q_fixed == 2147483648LL) q_fixed /= 2, ++*shift;
  if (*shift < -31) *shift = 0, q_fixed = 0;
  if (single && *shift > 30) *shift = 30, q_fixed = 2147483647LL;
  *qm = (int32_t)q_fixed;
}

/* A value modulo 2^32 as int32 (two's complement), written with a 2^32 offset. */
static int32_t o_mod32(int64_t v) {
  uint32_t u = (uint32_t)(uint64_t)v;
  return u >= 2147483648u ? (int32_t)((int64_t)u - 4294967296LL) : (int32_t)u;
}

/* ---- the 64-bit multiply ---- */

/* Exact: rm = min(round-half-up(M / 2^16), 2^15 - 1); then x rm 2^(s - 15)
 * rounded half up (or multiplied exactly when s >= 15), saturated. */
static int32_t o_x64(int64_t x, int32_t mult, int32_t shift) {
  i128 rm = o_round_half_up(mult, o_pow2(16)), p, k = (i128)15 - shift;
  if (rm > 32767) rm = 32767;
  p = (i128)x * rm; /* |p| <= 2^78 */
  if (p == 0) return 0;
  if (k <= 0) {
    if (-k > 40) return p > 0 ? INT32_MAX : INT32_MIN;
    return o_sat32(p * o_pow2((int)-k));
  }
  if (k > 100) return 0; /* |p| < 2^99 */
  return o_sat32(o_round_half_up(p, o_pow2((int)k)));
}

/* TFLite's statement (int64, valid for mult in [0, 2^31 - 1], shift in
 * [-31, 7], x in [-2^47, 2^47)); the result as TFLite computes it before the
 * int32 conversion. */
static int64_t tfl_x64(int64_t x, int32_t mult, int shift) {
  int32_t reduced = mult < 0x7FFF0000 ? (mult + (1 << 15)) >> 16 : 0x7FFF;
  int64_t total_shift = 15 - shift, round = (int64_t)1 << (total_shift - 1);
  int64_t result = x * (int64_t)reduced + round;
  return (int64_t)o_floor_div(result, o_pow2((int)total_shift)); /* an arithmetic >> */
}

static int x64_edges(int64_t *out) {
  int n = 0, k, d;
  out[n++] = 0, out[n++] = INT64_MIN, out[n++] = INT64_MIN + 1, out[n++] = INT64_MAX, out[n++] = INT64_MAX - 1;
  for (k = 0; k < 63; k++)
    for (d = -1; d <= 1; d++) {
      int64_t p = (int64_t)((uint64_t)1 << k);
      if (k < 62 || d < 1) out[n++] = p + d;
      out[n++] = -p + d;
    }
  return n;
}

static void test_x64_edges(void) {
  static const int32_t mults[] = {0, 1, 32767, 32768, 65535, 65536, 98304, 1 << 30, (1 << 30) + 32767,
                                  (1 << 30) + 32768, (1 << 30) + 98304, 0x7FFEFFFF, 0x7FFF0000 - 1, 0x7FFF0000,
                                  0x7FFF7FFF, 0x7FFF8000, INT32_MAX, -1, -32768, -32769, -65536, INT32_MIN};
  int64_t xs[400];
  int nx = x64_edges(xs), i, j, s;
  long long n = 0;
  for (i = 0; i < nx; i++)
    for (j = 0; j < (int)(sizeof mults / sizeof mults[0]); j++)
      for (s = -42; s <= 22; s++) {
        mrtq_mult m;
        m.mult = mults[j], m.shift = s;
        CHECK_EQ(mrtq_mul_q31_x64(xs[i], m), o_x64(xs[i], mults[j], s), "x %lld mult %d shift %d", (long long)xs[i],
                 mults[j], s);
        n++;
      }
  for (i = 0; i < nx; i++)
    for (j = 0; j < (int)(sizeof mults / sizeof mults[0]); j++) {
      static const int32_t far[] = {INT32_MIN, INT32_MIN + 1, -1000, -65, -64, 79, 80, 81, 1000, INT32_MAX};
      for (s = 0; s < 10; s++) {
        mrtq_mult m;
        m.mult = mults[j], m.shift = far[s];
        CHECK_EQ(mrtq_mul_q31_x64(xs[i], m), o_x64(xs[i], mults[j], far[s]), "x %lld mult %d shift %d",
                 (long long)xs[i], mults[j], far[s]);
        n++;
      }
    }
  printf("  mrtq_mul_q31_x64 edges: %lld outputs compared\n", n);
  compared += n;
}

static void test_x64_ties(void) {
  /* mult 2^30 reduces to rm = 2^14 exactly: x rm 2^(s - 15) = x 2^(s - 1) */
  static const struct { int64_t x; int shift; int32_t want; } t[] = {
      {1, 0, 1},   {-1, 0, 0},  {3, 0, 2},   {-3, 0, -1}, {2, -1, 1}, {-2, -1, 0}, {6, -1, 2},
      {-6, -1, -1}, {1, 1, 1},  {-5, 1, -5}, {((int64_t)1 << 47) - 1, -31, 32768}, /* 2^47 / 2^32 - 2^-32 */
      {(int64_t)1 << 31, -31, 1}, {-((int64_t)1 << 31), -31, 0}, /* +-1/2 */
      {(int64_t)3 << 31, -31, 2}, {-((int64_t)3 << 31), -31, -1}};
  size_t i;
  for (i = 0; i < sizeof t / sizeof t[0]; i++) {
    mrtq_mult m;
    m.mult = 1 << 30, m.shift = t[i].shift;
    CHECK_EQ(mrtq_mul_q31_x64(t[i].x, m), t[i].want, "tie %zu", i);
    CHECK_EQ(o_x64(t[i].x, m.mult, m.shift), t[i].want, "oracle tie %zu", i);
  }
  { /* the reduction's own tie: mult = 2^30 + 2^15 rounds up to 2^14 + 1; mult 0x7FFF8000 caps at 2^15 - 1 */
    mrtq_mult m;
    m.mult = (1 << 30) + 32768, m.shift = 0;
    CHECK_EQ(mrtq_mul_q31_x64(32768, m), 16385, "rm = 2^14 + 1");
    m.mult = (1 << 30) + 32767;
    CHECK_EQ(mrtq_mul_q31_x64(32768, m), 16384, "rm = 2^14");
    m.mult = 0x7FFF8000;
    CHECK_EQ(mrtq_mul_q31_x64(32768, m), 32767, "rm capped");
    m.mult = INT32_MAX, m.shift = 7; /* x 32767 2^-8 */
    CHECK_EQ(mrtq_mul_q31_x64(256, m), 32767, "largest TFLite multiplier");
    m.mult = 0, m.shift = 0;
    CHECK_EQ(mrtq_mul_q31_x64(INT64_MAX, m), 0, "zero multiplier");
  }
  compared += (long long)(sizeof t / sizeof t[0]) + 5;
}

static void test_x64_random(void) {
  long long n = 0, in_domain = 0;
  int i;
  for (i = 0; i < 400000; i++) {
    int bits = (int)th_range(1, 64);
    int64_t x = (int64_t)(th_rand64() >> (64 - bits));
    if (th_rand32() & 1u) x = -x;
    int32_t mult = (th_rand32() & 3u) ? (int32_t)th_range(1 << 30, INT32_MAX) : (int32_t)th_rand32();
    int32_t shift = (th_rand32() & 7u) ? (int32_t)th_range(-31, 7) : (int32_t)th_range(-70, 40);
    mrtq_mult m;
    m.mult = mult, m.shift = shift;
    CHECK_EQ(mrtq_mul_q31_x64(x, m), o_x64(x, mult, shift), "x %lld mult %d shift %d", (long long)x, mult, shift);
    n++;
    if (mult >= 0 && shift >= -31 && shift <= 7 && x >= -((int64_t)1 << 47) && x < ((int64_t)1 << 47)) {
      int64_t t = tfl_x64(x, mult, shift);
      if (t >= INT32_MIN && t <= INT32_MAX) { /* TFLite's domain: the result fits */
        CHECK_EQ(mrtq_mul_q31_x64(x, m), (int32_t)t, "TFLite x %lld mult %d shift %d", (long long)x, mult, shift);
        in_domain++;
      }
    }
  }
  printf("  mrtq_mul_q31_x64 random: %lld outputs compared (%lld also against TFLite's int64 statement)\n", n, in_domain);
  compared += n + in_domain;
}

/* ---- TFLite's reference kernels, restated ---- */

/* MultiplyByQuantizedMultiplier(int32): gemmlowp double rounding (default
 * build; a left shift beyond int32 saturates, mrtq's total extension of what
 * TFLite leaves undefined) or single rounding (TFLITE_SINGLE_ROUNDING). */
static int32_t tfl_mbqm32(int32_t x, int32_t mult, int shift, int single) {
  if (single) return o_sat32(o_round_half_up((i128)x * mult, o_pow2(31 - shift)));
  return o_rdivpot(o_srdhm(o_sat32((i128)x * o_pow2(shift > 0 ? shift : 0)), mult), shift > 0 ? 0 : -shift);
}

typedef struct {
  int batches, in_h, in_w, in_d, out_d, f_h, f_w, stride_h, stride_w, dil_h, dil_w, pad_h, pad_w, out_h, out_w;
  int depth_multiplier; /* > 0: DepthwiseConvPerChannel with a [1][f_h][f_w][out_d] filter */
} tfl_params;

/* The requantization after the accumulator: acc_kind 64 (TFLite's int64 bias
 * path: its int64 result, then static_cast<int32_t>, i.e. modulo 2^32) or 32
 * (acc is TFLite's int32 accumulator; `single`: TFLITE_SINGLE_ROUNDING), then
 * the activation clamp. `ovf`: the int32 sum already left int32. Counts the
 * output in `outside` when TFLite's arithmetic leaves its defined domain. */
static void tfl_requant(int64_t acc, int acc_kind, int single, int32_t mult, int shift, int act_min, int act_max,
                        int ovf, int16_t *out) {
  int32_t scaled;
  if (acc_kind == 32) {
    if (shift > 0 && ((i128)acc * o_pow2(shift) > INT32_MAX || (i128)acc * o_pow2(shift) < INT32_MIN)) ovf = 1;
    scaled = tfl_mbqm32((int32_t)acc, mult, shift, single);
  } else {
    int64_t t = tfl_x64(acc, mult, shift);
    if (t > INT32_MAX || t < INT32_MIN) ovf = 1;
    scaled = o_mod32(t);
  }
  outside += ovf;
  scaled = scaled < act_min ? act_min : scaled;
  scaled = scaled > act_max ? act_max : scaled;
  *out = (int16_t)scaled;
}

/* TFLite's int32 accumulator: acc32 += v with the compiled code's wrap
 * (uint32 arithmetic), the exact sum beside it to see it leave int32. */
static void acc_add(int64_t *exact, uint32_t *acc32, int *ovf, int64_t v) {
  *exact += v;
  *acc32 += (uint32_t)v;
  if (*exact > INT32_MAX || *exact < INT32_MIN) *ovf = 1;
}
static int64_t acc_value(int acc_kind, int64_t exact, uint32_t acc32) {
  return acc_kind == 32 ? (acc32 >= 2147483648u ? (int64_t)acc32 - 4294967296LL : (int64_t)acc32) : exact;
}

/* reference_integer_ops::ConvPerChannel (int16) and DepthwiseConvPerChannel
 * (int16), NHWC input and output, OHWI or [1][KH][KW][O] filter. */
static int tfl_conv(const tfl_params *p, const int32_t *mult, const int *shift, int single, int act_min, int act_max,
                    const int16_t *input, const int8_t *filter, const int64_t *bias, int acc_kind, int16_t *output) {
  int b, oy, ox, oc, fy, fx, ic, m;
  for (b = 0; b < p->batches; b++)
    for (oy = 0; oy < p->out_h; oy++)
      for (ox = 0; ox < p->out_w; ox++) {
        const int in_y0 = oy * p->stride_h - p->pad_h, in_x0 = ox * p->stride_w - p->pad_w;
        if (!p->depth_multiplier) {
          for (oc = 0; oc < p->out_d; oc++) {
            int64_t acc = 0;
            uint32_t a32 = 0;
            int ovf = 0;
            for (fy = 0; fy < p->f_h; fy++)
              for (fx = 0; fx < p->f_w; fx++) {
                const int in_y = in_y0 + p->dil_h * fy, in_x = in_x0 + p->dil_w * fx;
                if (!(in_x >= 0 && in_x < p->in_w && in_y >= 0 && in_y < p->in_h)) continue;
                for (ic = 0; ic < p->in_d; ic++) {
                  int32_t iv = input[((b * p->in_h + in_y) * p->in_w + in_x) * p->in_d + ic];
                  int32_t fv = filter[((oc * p->f_h + fy) * p->f_w + fx) * p->in_d + ic];
                  acc_add(&acc, &a32, &ovf, (int64_t)(fv * iv));
                }
              }
            if (bias) acc_add(&acc, &a32, &ovf, bias[oc]);
            tfl_requant(acc_value(acc_kind, acc, a32), acc_kind, single, mult[oc], shift[oc], act_min, act_max,
                        acc_kind == 32 && ovf, &output[((b * p->out_h + oy) * p->out_w + ox) * p->out_d + oc]);
          }
        } else {
          for (ic = 0; ic < p->in_d; ic++)
            for (m = 0; m < p->depth_multiplier; m++) {
              const int occ = m + ic * p->depth_multiplier;
              int64_t acc = 0;
              uint32_t a32 = 0;
              int ovf = 0;
              for (fy = 0; fy < p->f_h; fy++)
                for (fx = 0; fx < p->f_w; fx++) {
                  const int in_x = in_x0 + p->dil_w * fx, in_y = in_y0 + p->dil_h * fy;
                  if (in_x >= 0 && in_x < p->in_w && in_y >= 0 && in_y < p->in_h) {
                    int32_t iv = input[((b * p->in_h + in_y) * p->in_w + in_x) * p->in_d + ic];
                    int32_t fv = filter[(fy * p->f_w + fx) * p->out_d + occ];
                    acc_add(&acc, &a32, &ovf, (int64_t)(fv * iv));
                  }
                }
              if (bias) acc_add(&acc, &a32, &ovf, bias[occ]);
              tfl_requant(acc_value(acc_kind, acc, a32), acc_kind, single, mult[occ], shift[occ], act_min, act_max,
                          acc_kind == 32 && ovf, &output[((b * p->out_h + oy) * p->out_w + ox) * p->out_d + occ]);
            }
        }
      }
  return 1;
}

/* reference_integer_ops::FullyConnected (int16, weights_offset 0) and
 * FullyConnectedPerChannel: output[out_c + output_depth * b]. */
static int tfl_fc(int batches, int accum_depth, int output_depth, const int32_t *mult, const int *shift, int per_channel,
                  int single, int act_min, int act_max, const int16_t *input, const int8_t *filter,
                  const int64_t *bias, int acc_kind, int16_t *output) {
  int b, out_c, d;
  for (b = 0; b < batches; ++b)
    for (out_c = 0; out_c < output_depth; ++out_c) {
      int64_t acc = 0;
      uint32_t a32 = 0;
      int ovf = 0;
      for (d = 0; d < accum_depth; ++d) {
        int32_t input_val = input[b * accum_depth + d];
        int32_t filter_val = filter[out_c * accum_depth + d];
        acc_add(&acc, &a32, &ovf, (int64_t)(filter_val * input_val));
      }
      if (bias) acc_add(&acc, &a32, &ovf, bias[out_c]);
      tfl_requant(acc_value(acc_kind, acc, a32), acc_kind, single, mult[per_channel ? out_c : 0],
                  shift[per_channel ? out_c : 0], act_min, act_max, acc_kind == 32 && ovf,
                  &output[out_c + output_depth * b]);
    }
  return 1;
}

/* reference_ops::BatchMatMul<int16_t, int64_t> as kernels/batch_matmul.cc
 * calls it (adj_x = adj_y = false): the right-hand side transposed to
 * [.., n, k] and passed first, the left-hand side second; one batch dimension,
 * the rhs's extent 0 when its batch is 1 (broadcast). */
static void tfl_bmm(int batch, int rhs_batch, int m, int k, int n, const int16_t *lhs, const int16_t *rhs, int32_t mult,
                    int shift, int16_t *output) {
  int16_t *rhs_t = (int16_t *)malloc((size_t)rhs_batch * k * n * 2);
  size_t b, i, j, t, lhs_rows = (size_t)n, rhs_cols = (size_t)m, accum_depth = (size_t)k;
  size_t ext_first = rhs_batch == 1 ? 0 : (size_t)n * k, ext_second = (size_t)m * k;
  if (!rhs_t) return;
  for (b = 0; b < (size_t)rhs_batch; b++) /* TransposeRowsColumns */
    for (t = 0; t < (size_t)k; t++)
      for (j = 0; j < (size_t)n; j++) rhs_t[(b * n + j) * k + t] = rhs[(b * k + t) * n + j];
  for (b = 0; b < (size_t)batch; b++) {
    const int16_t *lhs_ptr = rhs_t + b * ext_first, *rhs_ptr = lhs + b * ext_second;
    int16_t *out_ptr = output + b * lhs_rows * rhs_cols;
    for (j = 0; j < rhs_cols; ++j)
      for (i = 0; i < lhs_rows; ++i) {
        int64_t total = 0;
        int64_t r;
        for (t = 0; t < accum_depth; ++t)
          total += (int64_t)lhs_ptr[accum_depth * i + t] * (int64_t)rhs_ptr[accum_depth * j + t];
        r = tfl_x64(total, mult, shift);
        if (r > INT32_MAX || r < INT32_MIN) outside++;
        r = o_mod32(r); /* static_cast<int32_t> */
        r = r < -32768 ? -32768 : r > 32767 ? 32767 : r;
        out_ptr[lhs_rows * j + i] = (int16_t)r;
      }
  }
  free(rhs_t);
}

static int16_t rnd_i16(void) {
  switch (th_rand32() % 4u) {
    case 0: return (th_rand32() & 1u) ? 32767 : -32768;
    case 1: return (int16_t)th_range(-50, 50);
    default: return (int16_t)th_range(-32768, 32767);
  }
}
static int8_t rnd_i8(void) { return (th_rand32() % 4u) ? (int8_t)th_range(-128, 127) : ((th_rand32() & 1u) ? 127 : -128); }

/* A scale that maps an accumulator of about 2^bits to int16, give or take 2^6. */
static double rnd_scale(int bits, int max_exp) {
  int e = 15 - bits + (int)th_range(-7, 5);
  if (e > max_exp) e = max_exp;
  return ldexp((double)th_range(1 << 20, (1 << 21) - 1) / (1 << 21), e);
}
static int bits_of(double v) { return v < 2 ? 1 : (int)ceil(log2(v)); }

/* The requantizations of a layer (rq from mrtq_rq_init, TFLite's multiplier /
 * shift from the oracle's QuantizeMultiplier of the same scale) and its
 * activation range. */
static void rnd_rqs(int nrq, int acc_kind, int single, int acc_bits, mrtq_rq *rq, int32_t *mult, int *shift,
                    int *act_min, int *act_max) {
  int o;
  *act_min = (th_rand32() & 1u) ? -32768 : (int)th_range(-32768, 0);
  *act_max = (th_rand32() & 1u) ? 32767 : (int)th_range(*act_min, 32767);
  for (o = 0; o < nrq; o++) {
    double sc = rnd_scale(acc_bits, acc_kind == 64 ? 6 : 20);
    CHECK_EQ(mrtq_rq_init(single ? MRTQ_Q31_RNDNU : MRTQ_Q31_DBL, sc, 0, *act_min, *act_max, &rq[o]), MRTQ_OK, "rq");
    tfl_quantize_multiplier(sc, single, &mult[o], &shift[o]); /* the oracle's own multiplier */
  }
}

/* One conv / depthwise layer p (out_h / out_w / pads set): random data, then
 * mrtq (NHWC, and NCHW with the tensors transposed) against tfl_conv. */
static long long conv_layer(const tfl_params *p, int pad_bottom, int pad_right, int acc_kind, int single,
                            int per_channel, int with_bias) {
  size_t nx = (size_t)p->batches * p->in_h * p->in_w * p->in_d, ny = (size_t)p->batches * p->out_h * p->out_w * p->out_d;
  size_t cg = p->depth_multiplier ? 1 : (size_t)p->in_d, nw = (size_t)p->out_d * p->f_h * p->f_w * cg, i;
  int16_t *x = (int16_t *)malloc(nx * 2), *xc = (int16_t *)malloc(nx * 2), *y = (int16_t *)malloc(ny * 2);
  int16_t *want = (int16_t *)malloc(ny * 2);
  int8_t *w = (int8_t *)malloc(nw), *wc = (int8_t *)malloc(nw);
  int64_t *b64 = (int64_t *)malloc((size_t)p->out_d * 8);
  int32_t *b32 = (int32_t *)malloc((size_t)p->out_d * 4), *mult = (int32_t *)malloc((size_t)p->out_d * 4);
  int *shift = (int *)malloc((size_t)p->out_d * sizeof(int));
  mrtq_rq *rq = (mrtq_rq *)malloc((size_t)p->out_d * sizeof(mrtq_rq));
  mrtq_conv2d_shape s;
  mrtq_qoperand qx, qw;
  long long n = 0;
  int act_min, act_max, o, lay, nrq = per_channel ? p->out_d : 1;
  uint64_t K = (uint64_t)p->f_h * p->f_w * cg;
  if (!x || !xc || !y || !want || !w || !wc || !b64 || !b32 || !mult || !shift || !rq) goto done;
  for (i = 0; i < nx; i++) x[i] = aligned_data && (th_rand32() % 8u) ? (int16_t)th_range(-32768, -30000) : rnd_i16();
  for (i = 0; i < nw; i++) w[i] = aligned_data && (th_rand32() % 8u) ? (int8_t)th_range(-128, -110) : rnd_i8();
  for (o = 0; o < p->out_d; o++) {
    if (acc_kind == 64) {
      int64_t lim = ((int64_t)1 << 47) - 1 - (int64_t)(K << 22), mag = (int64_t)1 << th_range(0, 46);
      b64[o] = th_range(-(mag < lim ? mag : lim), mag < lim ? mag : lim);
    } else {
      b32[o] = (th_rand32() % 8u) ? (int32_t)th_range(-(1 << 24), 1 << 24) : (int32_t)th_rand32(); /* any: wraps */
      b64[o] = b32[o];
    }
  }
  rnd_rqs(nrq, acc_kind, single, bits_of(sqrt((double)K) * 2e6 + (acc_kind == 64 ? 1e8 : 0)), rq, mult, shift,
          &act_min, &act_max);
  for (o = nrq; o < p->out_d; o++) mult[o] = mult[0], shift[o] = shift[0];
  tfl_conv(p, mult, shift, single, act_min, act_max, x, w, with_bias ? b64 : NULL, acc_kind, want);
  memset(&s, 0, sizeof s), memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
  s.n = (size_t)p->batches, s.c = (size_t)p->in_d, s.h = (size_t)p->in_h, s.w = (size_t)p->in_w, s.o = (size_t)p->out_d;
  s.kh = (size_t)p->f_h, s.kw = (size_t)p->f_w, s.stride_h = (size_t)p->stride_h, s.stride_w = (size_t)p->stride_w;
  s.dil_h = (size_t)p->dil_h, s.dil_w = (size_t)p->dil_w;
  s.pad_top = (size_t)p->pad_h, s.pad_left = (size_t)p->pad_w, s.pad_bottom = (size_t)pad_bottom;
  s.pad_right = (size_t)pad_right;
  s.groups = p->depth_multiplier ? (size_t)p->in_d : 1;
  qx.type = MRTQ_S16, qw.type = MRTQ_S8;
  for (lay = 0; lay < (p->depth_multiplier ? 3 : 2); lay++) {
    mrtq_status st;
    size_t ho, wo;
    if (lay == 0) { /* TFLite's own layouts */
      s.layout = MRTQ_NHWC, s.w_layout = p->depth_multiplier ? MRTQ_W_TFLITE_DW : MRTQ_W_LIKE_X;
      qx.data = x, qw.data = w;
    } else { /* NCHW / OIHW: the same tensors transposed (lay 2: NCHW with TFLite's depthwise filter) */
      int b, c, yy, xx, ky, kx;
      s.layout = MRTQ_NCHW, s.w_layout = MRTQ_W_LIKE_X;
      for (b = 0; b < p->batches; b++)
        for (c = 0; c < p->in_d; c++)
          for (yy = 0; yy < p->in_h; yy++)
            for (xx = 0; xx < p->in_w; xx++)
              xc[((b * p->in_d + c) * p->in_h + yy) * p->in_w + xx] = x[((b * p->in_h + yy) * p->in_w + xx) * p->in_d + c];
      for (o = 0; o < p->out_d; o++)
        for (c = 0; c < (int)cg; c++)
          for (ky = 0; ky < p->f_h; ky++)
            for (kx = 0; kx < p->f_w; kx++)
              wc[((o * (int)cg + c) * p->f_h + ky) * p->f_w + kx] =
                  p->depth_multiplier ? w[(ky * p->f_w + kx) * p->out_d + o] : w[((o * p->f_h + ky) * p->f_w + kx) * (int)cg + c];
      qx.data = xc, qw.data = wc;
      if (lay == 2) s.w_layout = MRTQ_W_TFLITE_DW, qw.data = w; /* NCHW input, TFLite's depthwise filter */
    }
    CHECK(mrtq_conv2d_out(&s, &ho, &wo) == MRTQ_OK && ho == (size_t)p->out_h && wo == (size_t)p->out_w);
    memset(y, 0x55, ny * 2);
    st = acc_kind == 64 ? mrtq_conv2d_s16x8_acc64(&s, rq, (size_t)nrq, &qx, &qw, with_bias ? b64 : NULL, y)
                        : mrtq_conv2d_s16x8_acc32(&s, rq, (size_t)nrq, &qx, &qw, with_bias ? b32 : NULL, y);
    CHECK_EQ(st, MRTQ_OK, "conv");
    if (st != MRTQ_OK) break;
    for (i = 0; i < ny; i++) {
      size_t at = i;
      if (lay >= 1) { /* NHWC index i -> NCHW */
        size_t c = i % (size_t)p->out_d, r = i / (size_t)p->out_d, xx = r % (size_t)p->out_w, yy = r / (size_t)p->out_w % (size_t)p->out_h;
        size_t b = r / (size_t)p->out_w / (size_t)p->out_h;
        at = ((b * (size_t)p->out_d + c) * (size_t)p->out_h + yy) * (size_t)p->out_w + xx;
      }
      CHECK_EQ(y[at], want[i], "conv output %zu (acc%d, %s, layout %d)", i, acc_kind, single ? "single" : "double", lay);
      n++;
    }
  }
done:
  free(x), free(xc), free(y), free(want), free(w), free(wc), free(b64), free(b32), free(mult), free(shift), free(rq);
  return n;
}

/* A random layer: TFLite's SAME padding (the odd row / column at the bottom /
 * right) or VALID, or any padding mrtq's shape can express. */
static long long conv_random(int depthwise, int acc_kind, int single) {
  tfl_params p;
  int pb, pr, ekh, ekw, per_channel, with_bias, mode = (int)th_range(0, 2);
  memset(&p, 0, sizeof p);
  p.batches = (int)th_range(1, 2), p.in_h = (int)th_range(1, 7), p.in_w = (int)th_range(1, 7);
  p.in_d = (int)th_range(1, 6), p.f_h = (int)th_range(1, 3), p.f_w = (int)th_range(1, 3);
  p.stride_h = (int)th_range(1, 3), p.stride_w = (int)th_range(1, 3), p.dil_h = (int)th_range(1, 2), p.dil_w = (int)th_range(1, 2);
  p.depth_multiplier = depthwise ? (int)th_range(1, 3) : 0;
  p.out_d = depthwise ? p.in_d * p.depth_multiplier : (int)th_range(1, 6);
  ekh = (p.f_h - 1) * p.dil_h + 1, ekw = (p.f_w - 1) * p.dil_w + 1;
  if (mode == 0) { /* SAME: out = ceil(in / stride), total padding split with the odd one at the end */
    int th, tw;
    p.out_h = (p.in_h + p.stride_h - 1) / p.stride_h, p.out_w = (p.in_w + p.stride_w - 1) / p.stride_w;
    th = (p.out_h - 1) * p.stride_h + ekh - p.in_h, tw = (p.out_w - 1) * p.stride_w + ekw - p.in_w;
    th = th < 0 ? 0 : th, tw = tw < 0 ? 0 : tw;
    p.pad_h = th / 2, p.pad_w = tw / 2, pb = th - p.pad_h, pr = tw - p.pad_w;
  } else {
    p.pad_h = mode == 1 ? 0 : (int)th_range(0, ekh), p.pad_w = mode == 1 ? 0 : (int)th_range(0, ekw);
    pb = mode == 1 ? 0 : (int)th_range(0, ekh), pr = mode == 1 ? 0 : (int)th_range(0, ekw);
    if (p.in_h + p.pad_h + pb < ekh) pb = ekh - p.in_h - p.pad_h;
    if (p.in_w + p.pad_w + pr < ekw) pr = ekw - p.in_w - p.pad_w;
    p.out_h = (p.in_h + p.pad_h + pb - ekh) / p.stride_h + 1, p.out_w = (p.in_w + p.pad_w + pr - ekw) / p.stride_w + 1;
  }
  per_channel = (int)(th_rand32() & 1u); /* drawn in a fixed order (not as two arguments) */
  with_bias = (th_rand32() % 4u) != 0;
  return conv_layer(&p, pb, pr, acc_kind, single, per_channel, with_bias);
}

static void test_conv_random(void) {
  long long n64 = 0, n32 = 0, ndw = 0, out0 = outside;
  int i;
  for (i = 0; i < 300; i++) n64 += conv_random(0, 64, (int)(th_rand32() & 1u));
  for (i = 0; i < 300; i++) n32 += conv_random(0, 32, (int)(th_rand32() & 1u));
  for (i = 0; i < 300; i++) ndw += conv_random(1, 64, 0);
  for (i = 0; i < 100; i++) ndw += conv_random(1, 32, (int)(th_rand32() & 1u)); /* TFLite's grouped CONV_2D */
  printf("  conv acc64: %lld, conv acc32: %lld, depthwise: %lld outputs compared (%lld outside TFLite's defined "
         "domain)\n", n64, n32, ndw, outside - out0);
  compared += n64 + n32 + ndw;
}

static void test_conv_size1(void) {
  tfl_params p;
  long long n = 0;
  int a;
  memset(&p, 0, sizeof p);
  p.batches = p.in_h = p.in_w = p.in_d = p.out_d = p.f_h = p.f_w = 1;
  p.stride_h = p.stride_w = p.dil_h = p.dil_w = p.out_h = p.out_w = 1;
  for (a = 0; a < 40; a++) n += conv_layer(&p, 0, 0, a & 1 ? 32 : 64, (a >> 1) & 1, (a >> 2) & 1, 1);
  p.depth_multiplier = 1;
  for (a = 0; a < 40; a++) n += conv_layer(&p, 0, 0, a & 1 ? 32 : 64, (a >> 1) & 1, 0, (a >> 2) & 1);
  printf("  size-1 conv / depthwise: %lld outputs compared\n", n);
  compared += n;
}

/* FC through mrtq_fc_s16x8_* against tfl_fc; the oracle's multipliers omult /
 * oshift (nrq of them), or rq's when NULL (hand-set descriptors). b64 holds
 * the bias values of either path (b32's for _acc32). */
static long long fc_case(int rows, int k, int o, const mrtq_rq *rq, int nrq, const int32_t *omult, const int *oshift,
                         const int16_t *x, const int8_t *w, const int64_t *b64, const int32_t *b32, int acc_kind,
                         int single, int act_min, int act_max) {
  int16_t *y = (int16_t *)malloc((size_t)rows * o * 2), *want = (int16_t *)malloc((size_t)rows * o * 2);
  int32_t *mult = (int32_t *)malloc((size_t)o * 4);
  int *shift = (int *)malloc((size_t)o * sizeof(int)), c;
  mrtq_qoperand qx, qw;
  long long n = 0;
  size_t i;
  if (!y || !want || !mult || !shift) goto done;
  for (c = 0; c < nrq; c++) mult[c] = omult ? omult[c] : rq[c].m.mult, shift[c] = oshift ? oshift[c] : rq[c].m.shift;
  memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
  qx.data = x, qx.type = MRTQ_S16, qw.data = w, qw.type = MRTQ_S8;
  tfl_fc(rows, k, o, mult, shift, nrq > 1, single, act_min, act_max, x, w, (acc_kind == 64 ? b64 != NULL : b32 != NULL) ? b64 : NULL,
         acc_kind, want);
  CHECK_EQ(acc_kind == 64 ? mrtq_fc_s16x8_acc64((size_t)rows, (size_t)k, (size_t)o, rq, (size_t)nrq, &qx, &qw, b64, y)
                          : mrtq_fc_s16x8_acc32((size_t)rows, (size_t)k, (size_t)o, rq, (size_t)nrq, &qx, &qw, b32, y),
           MRTQ_OK, "fc");
  for (i = 0; i < (size_t)rows * o; i++, n++) CHECK_EQ(y[i], want[i], "fc output %zu (acc%d)", i, acc_kind);
done:
  free(y), free(want), free(mult), free(shift);
  return n;
}

static void test_fc_random(void) {
  long long n = 0, out0 = outside;
  int it;
  for (it = 0; it < 600; it++) {
    int rows = (int)th_range(1, 4), k = (int)th_range(1, it % 3 ? 40 : 2000), o = (int)th_range(1, 6);
    int acc_kind = (it & 1) ? 32 : 64, single = (int)(th_rand32() & 1u), nrq = (th_rand32() & 1u) ? o : 1;
    int16_t *x = (int16_t *)malloc((size_t)rows * k * 2);
    int8_t *w = (int8_t *)malloc((size_t)o * k);
    int64_t b64[6];
    int32_t b32[6], mult[6];
    int shift[6], act_min, act_max, i;
    mrtq_rq rq[6];
    if (!x || !w) return;
    for (i = 0; i < rows * k; i++) x[i] = rnd_i16();
    for (i = 0; i < o * k; i++) w[i] = rnd_i8();
    for (i = 0; i < o; i++) {
      b32[i] = (th_rand32() % 8u) ? (int32_t)th_range(-(1 << 24), 1 << 24) : (int32_t)th_rand32(); /* any: wraps */
      b64[i] = acc_kind == 32 ? b32[i] : th_range(-((int64_t)1 << 44), (int64_t)1 << 44);
    }
    rnd_rqs(nrq, acc_kind, single, bits_of(sqrt((double)k) * 2e6), rq, mult, shift, &act_min, &act_max);
    n += fc_case(rows, k, o, rq, nrq, mult, shift, x, w, b64, b32, acc_kind, single, act_min, act_max);
    free(x), free(w);
  }
  printf("  fc: %lld outputs compared (%lld outside TFLite's defined domain)\n", n, outside - out0);
  compared += n;
}

/* mrtq_matmul_s16_acc64 against tfl_bmm. */
static long long bmm_case(int batch, int m, int k, int n, int b_shared, const mrtq_rq *rq, int32_t omult,
                          int oshift, const int16_t *a, const int16_t *b) {
  int16_t *y = (int16_t *)malloc((size_t)batch * m * n * 2), *want = (int16_t *)malloc((size_t)batch * m * n * 2);
  mrtq_qoperand qa, qb;
  long long cnt = 0;
  size_t i;
  if (!y || !want) goto done;
  memset(&qa, 0, sizeof qa), memset(&qb, 0, sizeof qb);
  qa.data = a, qa.type = MRTQ_S16, qb.data = b, qb.type = MRTQ_S16;
  tfl_bmm(batch, b_shared ? 1 : batch, m, k, n, a, b, omult, oshift, want);
  CHECK_EQ(mrtq_matmul_s16_acc64((size_t)batch, (size_t)m, (size_t)k, (size_t)n, rq, &qa, &qb, b_shared, y), MRTQ_OK,
           "matmul");
  for (i = 0; i < (size_t)batch * m * n; i++, cnt++) CHECK_EQ(y[i], want[i], "matmul output %zu", i);
done:
  free(y), free(want);
  return cnt;
}

static void test_bmm_random(void) {
  long long cnt = 0, out0 = outside;
  int it;
  for (it = 0; it < 500; it++) {
    int batch = (int)th_range(1, 3), m = (int)th_range(1, 7), k = (int)th_range(1, it % 10 ? 24 : 3000);
    int n = (int)th_range(1, 7), b_shared = (int)(th_rand32() & 1u), i;
    int16_t *a = (int16_t *)malloc((size_t)batch * m * k * 2), *b = (int16_t *)malloc((size_t)batch * k * n * 2);
    mrtq_rq rq;
    mrtq_scheme scheme;
    double sc;
    int32_t om;
    int os;
    if (!a || !b) return;
    for (i = 0; i < batch * m * k; i++) a[i] = rnd_i16();
    for (i = 0; i < batch * k * n; i++) b[i] = rnd_i16();
    scheme = (th_rand32() & 1u) ? MRTQ_Q31_DBL : MRTQ_Q31_RNDNU;
    sc = rnd_scale(bits_of(sqrt((double)k) * 6e8), 6);
    CHECK_EQ(mrtq_rq_init(scheme, sc, 0, -32768, 32767, &rq), MRTQ_OK, "rq");
    tfl_quantize_multiplier(sc, scheme == MRTQ_Q31_RNDNU, &om, &os);
    cnt += bmm_case(batch, m, k, n, b_shared, &rq, om, os, a, b);
    free(a), free(b);
  }
  printf("  batch matmul: %lld outputs compared (%lld outside TFLite's defined domain)\n", cnt, outside - out0);
  compared += cnt;
}
/* ---- edges ---- */

/* rows x 1 FC, weight 1, input = the accumulator wanted. */
static void fc1(int acc_kind, const mrtq_rq *rq, const int16_t *x, int rows, const int64_t *b64, const int32_t *b32,
                int16_t *y) {
  static const int8_t one = 1;
  mrtq_qoperand qx, qw;
  memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
  qx.data = x, qx.type = MRTQ_S16, qw.data = &one, qw.type = MRTQ_S8;
  CHECK_EQ(acc_kind == 64 ? mrtq_fc_s16x8_acc64((size_t)rows, 1, 1, rq, 1, &qx, &qw, b64, y)
                          : mrtq_fc_s16x8_acc32((size_t)rows, 1, 1, rq, 1, &qx, &qw, b32, y),
           MRTQ_OK, "fc1");
}

static void test_ties(void) {
  /* scale 1/4 (mult 2^30, shift -1): acc / 4. The 64-bit multiply and single
   * rounding take ties up; double rounding halves twice, the second time away
   * from zero. */
  static const int16_t acc[8] = {-10, -6, -2, 2, 6, 10, -1, 1};
  static const int16_t up[8] = {-2, -1, 0, 1, 2, 3, 0, 0}, dbl[8] = {-3, -2, -1, 1, 2, 3, 0, 1};
  int16_t y[8];
  mrtq_rq rq;
  int i, single;
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.25, 0, -32768, 32767, &rq), MRTQ_OK, "rq");
  CHECK(rq.m.mult == (1 << 30) && rq.m.shift == -1);
  fc1(64, &rq, acc, 8, NULL, NULL, y);
  for (i = 0; i < 8; i++) CHECK_EQ(y[i], up[i], "x64 tie %d", i);
  fc1(32, &rq, acc, 8, NULL, NULL, y);
  for (i = 0; i < 8; i++) CHECK_EQ(y[i], dbl[i], "double-rounding tie %d", i);
  rq.scheme = MRTQ_Q31_RNDNU;
  fc1(32, &rq, acc, 8, NULL, NULL, y);
  for (i = 0; i < 8; i++) CHECK_EQ(y[i], up[i], "single-rounding tie %d", i);
  fc1(64, &rq, acc, 8, NULL, NULL, y); /* the scheme does not change the 64-bit multiply */
  for (i = 0; i < 8; i++) CHECK_EQ(y[i], up[i], "x64 tie %d (MRTQ_Q31_RNDNU)", i);
  /* every tie of a random accumulator through the oracle, both paths */
  for (single = 0; single < 2; single++) {
    int16_t x[64];
    int64_t b64 = 0;
    int32_t b32 = 0;
    for (i = 0; i < 64; i++) x[i] = (int16_t)(th_range(-8000, 8000) * 2);
    CHECK_EQ(mrtq_rq_init(single ? MRTQ_Q31_RNDNU : MRTQ_Q31_DBL, 0.25, 0, -32768, 32767, &rq), MRTQ_OK, "rq");
    for (i = 0; i < 2; i++) {
      int16_t want[64], yy[64];
      int j;
      int8_t one = 1;
      int32_t m = rq.m.mult;
      int sh = rq.m.shift;
      CHECK(tfl_fc(64, 1, 1, &m, &sh, 0, single, -32768, 32767, x, &one, i ? &b64 : NULL, i ? 32 : 64, want));
      fc1(i ? 32 : 64, &rq, x, 64, &b64, &b32, yy);
      for (j = 0; j < 64; j++) CHECK_EQ(yy[j], want[j], "random tie %d", j);
    }
  }
  compared += 8 * 4 + 4 * 64;
}

static void test_saturation(void) {
  static const int16_t x[4] = {32767, -32768, 1, -1};
  int16_t y[4];
  mrtq_rq rq;
  /* scale ~127 (shift 7, the largest the 64-bit path takes): both ends saturate */
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 127.0, 0, -32768, 32767, &rq), MRTQ_OK, "rq");
  CHECK(rq.m.shift == 7);
  fc1(64, &rq, x, 4, NULL, NULL, y);
  CHECK(y[0] == 32767 && y[1] == -32768 && y[2] == 127 && y[3] == -127);
  fc1(32, &rq, x, 4, NULL, NULL, y);
  CHECK(y[0] == 32767 && y[1] == -32768 && y[2] == 127 && y[3] == -127);
  /* a scale far beyond: the int32 result saturates (TFLite's would overflow) before the clamp */
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 1e9, 0, -32768, 32767, &rq), MRTQ_OK, "rq");
  fc1(32, &rq, x, 4, NULL, NULL, y);
  CHECK(y[0] == 32767 && y[1] == -32768 && y[2] == 32767 && y[3] == -32768);
  /* a narrower activation range: both ends */
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.5, 0, -100, 50, &rq), MRTQ_OK, "rq");
  fc1(64, &rq, x, 4, NULL, NULL, y);
  CHECK(y[0] == 50 && y[1] == -100 && y[2] == 1 && y[3] == 0);
  fc1(32, &rq, x, 4, NULL, NULL, y);
  CHECK(y[0] == 50 && y[1] == -100 && y[2] == 1 && y[3] == 0);
  compared += 16;
}

/* Hand-set multipliers at the ends of both families, random FC inputs, against the oracle. */
static void test_extreme_multipliers(void) {
  static const int32_t mults[] = {1 << 30, (1 << 30) + 32767, (1 << 30) + 32768, 0x7FFEFFFF, 0x7FFF0000,
                                  0x7FFF7FFF, 0x7FFF8000, INT32_MAX};
  static const int shifts64[] = {-31, -30, -20, -8, 0, 1, 6, 7}, shifts32[] = {-31, -30, -8, 0, 1, 10, 29, 30};
  long long n = 0;
  size_t a, b;
  int acc_kind, single;
  for (a = 0; a < sizeof mults / sizeof mults[0]; a++)
    for (b = 0; b < 8; b++)
      for (acc_kind = 32; acc_kind <= 64; acc_kind += 32)
        for (single = 0; single < 2; single++) {
          int16_t x[3 * 20];
          int8_t w[2 * 20];
          int64_t b64[2];
          int32_t b32[2];
          mrtq_rq rq[2];
          int i;
          memset(rq, 0, sizeof rq);
          for (i = 0; i < 2; i++) {
            rq[i].scheme = single ? MRTQ_Q31_RNDNU : MRTQ_Q31_DBL;
            rq[i].m.mult = mults[(a + (size_t)i) % 8], rq[i].m.shift = acc_kind == 64 ? shifts64[b] : shifts32[b];
            rq[i].qmin = -32768, rq[i].qmax = 32767;
            b32[i] = (int32_t)th_range(-1000000, 1000000);
            b64[i] = acc_kind == 64 ? th_range(-((int64_t)1 << 46), (int64_t)1 << 46) : b32[i];
          }
          for (i = 0; i < 60; i++) x[i] = (int16_t)(th_rand32() % 3u ? th_range(-40, 40) : rnd_i16());
          for (i = 0; i < 40; i++) w[i] = rnd_i8();
          n += fc_case(3, 20, 2, rq, 2, NULL, NULL, x, w, b64, b32, acc_kind, single, -32768, 32767);
        }
  printf("  extreme multipliers: %lld outputs compared\n", n);
  compared += n;
}

static void test_bounds(void) {
  int16_t x[2] = {-32768, 32767}, y[2], *xs, ys[1];
  int8_t wmin[512];
  int64_t b64 = ((int64_t)1 << 47) - ((int64_t)1 << 22) - 1;
  int32_t b32 = INT32_MAX - 511 * (1 << 22), mult;
  mrtq_rq rq;
  mrtq_qoperand qx, qw;
  int sh, i;
  static const int8_t wneg = -128;
  memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
  /* 64-bit: the largest bias the check lets through puts the accumulator at 2^47 - 1 */
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, ldexp(1.0, -31), 0, -32768, 32767, &rq), MRTQ_OK, "rq");
  CHECK(rq.m.mult == (1 << 30) && rq.m.shift == -30);
  rq.m.shift = -31; /* scale 2^-32, the smallest Q31 shift: (2^47 - 1) 2^-32 = 2^15 - 2^-32 */
  qx.data = x, qx.type = MRTQ_S16, qw.data = &wneg, qw.type = MRTQ_S8;
  CHECK_EQ(mrtq_fc_s16x8_acc64(2, 1, 1, &rq, 1, &qx, &qw, &b64, y), MRTQ_OK, "at the bound");
  mult = rq.m.mult, sh = rq.m.shift;
  {
    int16_t want[2];
    CHECK(tfl_fc(2, 1, 1, &mult, &sh, 0, 0, -32768, 32767, x, &wneg, &b64, 64, want));
    CHECK(y[0] == want[0] && y[1] == want[1] && y[0] == 32767); /* 2^15 - 2^-32 rounds to 2^15, clamped */
  }
  b64 = -b64;
  CHECK_EQ(mrtq_fc_s16x8_acc64(2, 1, 1, &rq, 1, &qx, &qw, &b64, y), MRTQ_OK, "at the negative bound");
  {
    int16_t want[2];
    CHECK(tfl_fc(2, 1, 1, &mult, &sh, 0, 0, -32768, 32767, x, &wneg, &b64, 64, want));
    CHECK(y[0] == want[0] && y[1] == want[1]);
  }
  b64 = -b64 + 1;
  CHECK_REFUSED(mrtq_fc_s16x8_acc64(2, 1, 1, &rq, 1, &qx, &qw, &b64, y), MRTQ_EOVERFLOW,
                "s, bias: K 2^22 + max|bias| must stay below 2^47, the domain of TFLite's 64-bit multiply "
                "(K = (c / groups) kh kw)");
  b64 = -b64;
  CHECK_REFUSED(mrtq_fc_s16x8_acc64(2, 1, 1, &rq, 1, &qx, &qw, &b64, y), MRTQ_EOVERFLOW, "s, bias: K 2^22");
  /* 32-bit: K = 511 and the largest bias: the accumulator reaches INT32_MAX exactly */
  xs = (int16_t *)malloc(512 * 2);
  if (!xs) return;
  for (i = 0; i < 512; i++) xs[i] = -32768, wmin[i] = -128;
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, ldexp(1.0, -17), 0, -32768, 32767, &rq), MRTQ_OK, "rq");
  qx.data = xs, qw.data = wmin;
  CHECK_EQ(mrtq_fc_s16x8_acc32(1, 511, 1, &rq, 1, &qx, &qw, &b32, ys), MRTQ_OK, "at the int32 bound");
  mult = rq.m.mult, sh = rq.m.shift;
  {
    int64_t b = b32;
    int16_t want[1];
    long long out0 = outside;
    CHECK(tfl_fc(1, 511, 1, &mult, &sh, 0, 0, -32768, 32767, xs, wmin, &b, 32, want));
    CHECK(ys[0] == want[0] && ys[0] == 16384 && outside == out0); /* (2^31 - 1) 2^-17 = 2^14 - 2^-17 */
  }
  /* one more: TFLite's int32 sum leaves int32 (2^31): its code wraps to -2^31, so -2^31 2^-17 = -16384 */
  b32++;
  CHECK_EQ(mrtq_fc_s16x8_acc32(1, 511, 1, &rq, 1, &qx, &qw, &b32, ys), MRTQ_OK, "past the int32 bound");
  {
    int64_t b = b32;
    int16_t want[1];
    long long out0 = outside;
    CHECK(tfl_fc(1, 511, 1, &mult, &sh, 0, 0, -32768, 32767, xs, wmin, &b, 32, want));
    CHECK(ys[0] == want[0] && ys[0] == -16384 && outside == out0 + 1);
  }
  CHECK_EQ(mrtq_fc_s16x8_acc32(1, 512, 1, &rq, 1, &qx, &qw, NULL, ys), MRTQ_OK, "K = 512, no bias");
  CHECK_EQ(ys[0], -16384, "512 2^22 = 2^31 wraps to -2^31");
#if SIZE_MAX > 0xFFFFFFFFu
  /* refused before any element is read: the int64 sum's bound */
  CHECK_EQ(mrtq_fc_s16x8_acc32(1, 512, 1, &rq, 1, &qx, &qw, NULL, ys), MRTQ_OK, "K = 512");
  CHECK_REFUSED(mrtq_fc_s16x8_acc32(1, ((size_t)1 << 40) + 1, 1, &rq, 1, &qx, &qw, NULL, ys), MRTQ_EOVERFLOW,
                "s: K must be <= 2^40 (the exact int64 sum; K = (c / groups) kh kw)");
#endif
  CHECK_REFUSED(mrtq_fc_s16x8_acc64(1, (size_t)1 << 25, 1, &rq, 1, &qx, &qw, NULL, ys), MRTQ_EOVERFLOW,
                "s: K 2^22 must stay below 2^47, the domain of TFLite's 64-bit multiply (K = (c / groups) kh kw <= "
                "2^25 - 1)");
  CHECK_EQ(mrtq_fc_s16x8_acc64(1, 511, 1, &rq, 1, &qx, &qw, NULL, ys), MRTQ_OK, "no bias");
  /* the 64-bit multiply's multiplier rules */
  rq.m.mult = -1;
  CHECK_REFUSED(mrtq_fc_s16x8_acc64(1, 511, 1, &rq, 1, &qx, &qw, NULL, ys), MRTQ_ERANGE,
                "rq->m.mult: must be >= 0 with a 64-bit accumulator (TFLite's 64-bit multiply takes multipliers "
                "0..2^31 - 1)");
  CHECK_EQ(mrtq_fc_s16x8_acc32(1, 511, 1, &rq, 1, &qx, &qw, NULL, ys), MRTQ_OK, "the 32-bit path takes it");
  rq.m.mult = 1 << 30, rq.m.shift = -32;
  CHECK_REFUSED(mrtq_fc_s16x8_acc64(1, 511, 1, &rq, 1, &qx, &qw, NULL, ys), MRTQ_ERANGE,
                "rq->m.shift: must be >= -31 with a 64-bit accumulator (TFLite's 64-bit multiply takes shifts "
                "-31..7; mrtq_rq_init gives (0, 0) for scales below 2^-32)");
  {
    mrtq_rq two[2];
    two[0] = rq, two[0].m.shift = -31, two[1] = rq, two[1].m.mult = INT32_MIN, two[1].m.shift = 0;
    CHECK_REFUSED(mrtq_fc_s16x8_acc64(1, 511, 2, two, 2, &qx, &qw, NULL, ys), MRTQ_ERANGE, "rq[c].m.mult: must be >= 0");
    two[1] = rq;
    CHECK_REFUSED(mrtq_fc_s16x8_acc64(1, 511, 2, two, 2, &qx, &qw, NULL, ys), MRTQ_ERANGE, "rq[c].m.shift: must be >= -31");
  }
  free(xs);
  compared += 9;
}

/* The review's reproducers: the 64-bit result beyond int32 is TFLite's
 * static_cast<int32_t> of it (modulo 2^32), then clamped -- not saturated. */
static void test_wrap_repro(void) {
  static const int64_t bias[4] = {(int64_t)1 << 46, ((int64_t)1 << 40) + (1 << 20), 42949673, -((int64_t)1 << 46)};
  /* rm = 25600, k = 8: bias 100 mod 2^32; 2^46 100 = 25 2^48 -> 0; (2^40 + 2^20) 100 -> 104857600;
   * 4294967300 -> 4 */
  static const int16_t want[4] = {0, 32767, 4, 0};
  mrtq_conv2d_shape s;
  mrtq_qoperand qx, qw;
  mrtq_rq rq;
  int16_t x = 0, y, w16[1], a = -32768;
  int8_t w = 0;
  int i, sh;
  int32_t m;
  memset(&s, 0, sizeof s), memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
  s.n = s.c = s.h = s.w = s.o = s.kh = s.kw = s.stride_h = s.stride_w = s.dil_h = s.dil_w = s.groups = 1;
  s.layout = MRTQ_NHWC;
  qx.type = MRTQ_S16, qx.data = &x, qw.type = MRTQ_S8, qw.data = &w;
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 100.0, 0, -32768, 32767, &rq), MRTQ_OK, "rq");
  CHECK(rq.m.mult == 1677721600 && rq.m.shift == 7);
  tfl_quantize_multiplier(100.0, 0, &m, &sh);
  CHECK(m == 1677721600 && sh == 7);
  for (i = 0; i < 4; i++) {
    int16_t o;
    long long out0 = outside;
    y = 0x5555;
    CHECK_EQ(mrtq_conv2d_s16x8_acc64(&s, &rq, 1, &qx, &qw, &bias[i], &y), MRTQ_OK, "conv");
    CHECK_EQ(y, want[i], "bias %lld", (long long)bias[i]);
    tfl_requant(bias[i], 64, 0, m, sh, -32768, 32767, 0, &o);
    CHECK_EQ(o, want[i], "oracle, bias %lld", (long long)bias[i]);
    CHECK_EQ(outside - out0, 1LL, "outside TFLite's domain (every one of them)");
  }
  /* BATCH_MATMUL 1x1x1: (-2^15)^2 = 2^30 at scale 4 (rm 2^14, k 3): 2^32 -> 0 */
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 4.0, 0, -32768, 32767, &rq), MRTQ_OK, "rq");
  qx.data = &a;
  y = 0x5555;
  CHECK_EQ(mrtq_matmul_s16_acc64(1, 1, 1, 1, &rq, &qx, &qx, 0, &y), MRTQ_OK, "matmul");
  CHECK_EQ(y, 0, "matmul 2^32 wraps to 0");
  w16[0] = a;
  {
    int16_t t;
    tfl_quantize_multiplier(4.0, 0, &m, &sh);
    tfl_bmm(1, 1, 1, 1, 1, w16, w16, m, sh, &t);
    CHECK_EQ(t, 0, "oracle matmul");
  }
  compared += 10;
}

/* _acc32 layers with K >= 512 and full-range values (sums that leave int32
 * and wrap, as TFLite's int32 accumulator does in its compiled code), against
 * the oracle's int32 sum with an explicit uint32 wrap: 3x3x64 convolutions
 * (K = 576), dense and grouped, and FC rows up to K = 6000. */
static void test_large_k(void) {
  long long n = 0, out0 = outside;
  int it;
  for (it = 0; it < 24; it++) {
    tfl_params p;
    memset(&p, 0, sizeof p);
    p.batches = 1, p.in_h = (int)th_range(3, 5), p.in_w = (int)th_range(3, 5), p.in_d = it % 4 ? 64 : 128;
    p.f_h = p.f_w = 3, p.stride_h = p.stride_w = p.dil_h = p.dil_w = 1, p.out_d = (int)th_range(1, 3);
    p.out_h = p.in_h - 2, p.out_w = p.in_w - 2;
    aligned_data = it % 3 != 2;
    n += conv_layer(&p, 0, 0, 32, it & 1, (it >> 1) & 1, (it >> 2) & 1);
  }
  aligned_data = 0;
  for (it = 0; it < 60; it++) {
    int rows = (int)th_range(1, 3), k = (int)th_range(512, 6000), o = (int)th_range(1, 4), i;
    int single = it & 1, nrq = (it >> 1) & 1 ? o : 1, act_min, act_max, shift[4];
    int16_t *x = (int16_t *)malloc((size_t)rows * k * 2);
    int8_t *w = (int8_t *)malloc((size_t)o * k);
    int64_t b64[4];
    int32_t b32[4], mult[4];
    mrtq_rq rq[4];
    if (!x || !w) return;
    for (i = 0; i < rows * k; i++) /* 0: products near 2^22, all positive: sums that wrap, several times */
      x[i] = it % 3 == 0 ? (int16_t)th_range(-32768, -32000) : it % 3 == 1 ? rnd_i16() : (int16_t)th_range(-40, 40);
    for (i = 0; i < o * k; i++) w[i] = it % 3 == 0 ? (int8_t)th_range(-128, -120) : rnd_i8();
    for (i = 0; i < o; i++) b32[i] = (int32_t)th_rand32(), b64[i] = b32[i];
    rnd_rqs(nrq, 32, single, 31, rq, mult, shift, &act_min, &act_max);
    n += fc_case(rows, k, o, rq, nrq, mult, shift, x, w, b64, b32, 32, single, act_min, act_max);
    free(x), free(w);
  }
  printf("  acc32 with K >= 512: %lld outputs compared, %lld of them outside TFLite's defined domain\n", n,
         outside - out0);
  compared += n;
}

/* TFLite's (0, 0) multiplier (a zero or flushed scale): every output is
 * clamp(0) -- the zero point is 0. */
static void test_zero_multiplier(void) {
  static const int16_t x[4] = {32767, -32768, 5, -5};
  static const int32_t lo[3] = {-5, 3, -9}, hi[3] = {7, 9, -2}, want[3] = {0, 3, -2};
  int16_t y[4];
  int64_t b64 = (int64_t)1 << 40;
  int32_t b32 = 1 << 20;
  mrtq_rq rq;
  int i, j, acc_kind;
  memset(&rq, 0, sizeof rq);
  for (i = 0; i < 3; i++)
    for (acc_kind = 32; acc_kind <= 64; acc_kind += 32) {
      rq.qmin = lo[i], rq.qmax = hi[i];
      fc1(acc_kind, &rq, x, 4, &b64, &b32, y);
      for (j = 0; j < 4; j++) CHECK_EQ(y[j], want[i], "clamp(0) to [%d, %d]", lo[i], hi[i]);
    }
  compared += 24;
}

static void test_refusals(void) {
  int16_t xd[64] = {0}, y[64];
  int8_t wd[64] = {0};
  int32_t zp1[4] = {0, 0, 0, 0};
  int64_t b64[4] = {0, 0, 0, 0};
  int32_t b32[4] = {0, 0, 0, 0};
  mrtq_rq rq[4], bad;
  mrtq_conv2d_shape s;
  mrtq_qoperand qx, qw, q;
  int i;
  memset(&s, 0, sizeof s), memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
  for (i = 0; i < 4; i++) CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.01, 0, -32768, 32767, &rq[i]), MRTQ_OK, "rq");
  s.n = 1, s.c = 2, s.h = s.w = 3, s.o = 2, s.kh = s.kw = 2, s.stride_h = s.stride_w = s.dil_h = s.dil_w = 1, s.groups = 1;
  s.layout = MRTQ_NHWC;
  qx.data = xd, qx.type = MRTQ_S16, qw.data = wd, qw.type = MRTQ_S8;
  CHECK_EQ(mrtq_conv2d_s16x8_acc64(&s, rq, 2, &qx, &qw, b64, y), MRTQ_OK, "valid");
  CHECK_EQ(mrtq_conv2d_s16x8_acc32(&s, rq, 1, &qx, &qw, b32, y), MRTQ_OK, "valid");
  /* the shape: conv.h's checks, one reason */
  s.kh = 0;
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc64(&s, rq, 2, &qx, &qw, b64, y), MRTQ_ESHAPE, "s->kh: must be >= 1");
  s.kh = 2;
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc32(NULL, rq, 2, &qx, &qw, b32, y), MRTQ_EINVAL, "s: NULL");
  /* x */
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc64(&s, rq, 2, NULL, &qw, b64, y), MRTQ_EINVAL, "x: NULL");
  q = qx, q.data = NULL;
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc64(&s, rq, 2, &q, &qw, b64, y), MRTQ_EINVAL, "x->data: NULL");
  q = qx, q.type = (mrtq_dtype)0;
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc64(&s, rq, 2, &q, &qw, b64, y), MRTQ_EINVAL,
                "x->type: not an mrtq_dtype (0: a zero-initialised operand)");
  q = qx, q.type = MRTQ_S8;
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc64(&s, rq, 2, &q, &qw, b64, y), MRTQ_EUNSUPPORTED,
                "x->type: must be MRTQ_S16 (TFLite 16x8 activations are int16)");
  q = qx, q.zp_ch = zp1;
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc64(&s, rq, 2, &q, &qw, b64, y), MRTQ_EINVAL,
                "x->zp_ch: must be NULL (TFLite 16x8 activations have no zero point)");
  q = qx, q.zp = 1;
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc32(&s, rq, 2, &q, &qw, b32, y), MRTQ_EINVAL,
                "x->zp: must be 0 (TFLite 16x8 activations have no zero point)");
  /* w */
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc64(&s, rq, 2, &qx, NULL, b64, y), MRTQ_EINVAL, "w: NULL");
  q = qw, q.data = NULL;
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc64(&s, rq, 2, &qx, &q, b64, y), MRTQ_EINVAL, "w->data: NULL");
  q = qw, q.type = (mrtq_dtype)9;
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc64(&s, rq, 2, &qx, &q, b64, y), MRTQ_EINVAL,
                "w->type: not an mrtq_dtype (0: a zero-initialised operand)");
  q = qw, q.type = MRTQ_S4;
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc64(&s, rq, 2, &qx, &q, b64, y), MRTQ_EUNSUPPORTED,
                "w->type: must be MRTQ_S8 (TFLite 16x8 weights are int8)");
  q = qw, q.zp_ch = zp1;
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc64(&s, rq, 2, &qx, &q, b64, y), MRTQ_EINVAL,
                "w->zp_ch: must be NULL (TFLite 16x8 weights are symmetric: zero point 0)");
  q = qw, q.zp = -3;
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc32(&s, rq, 2, &qx, &q, b32, y), MRTQ_EINVAL,
                "w->zp: must be 0 (TFLite 16x8 weights are symmetric)");
  /* rq */
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc64(&s, NULL, 2, &qx, &qw, b64, y), MRTQ_EINVAL, "rq: NULL");
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc64(&s, rq, 3, &qx, &qw, b64, y), MRTQ_EINVAL, "nrq: must be 1 or s->o (o)");
  bad = rq[0], bad.qmin = 5, bad.qmax = 4;
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc64(&s, &bad, 1, &qx, &qw, b64, y), MRTQ_EINVAL, "rq->qmin: must be <= qmax");
  CHECK_EQ(mrtq_rq_init(MRTQ_Q15_RNDNU, 0.01, 0, -32768, 32767, &bad), MRTQ_OK, "q15");
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc64(&s, &bad, 1, &qx, &qw, b64, y), MRTQ_EUNSUPPORTED,
                "rq->scheme: must be MRTQ_Q31_DBL or MRTQ_Q31_RNDNU (TFLite 16x8 requantizes with a Q31 multiplier)");
  CHECK_EQ(mrtq_rq_init(MRTQ_FP32, 0.01, 0, -32768, 32767, &bad), MRTQ_OK, "fp32");
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc32(&s, &bad, 1, &qx, &qw, b32, y), MRTQ_EUNSUPPORTED, "rq->scheme: must be MRTQ_Q31");
  bad = rq[1], bad.zp = 1;
  { mrtq_rq two[2]; two[0] = rq[0], two[1] = bad;
    CHECK_REFUSED(mrtq_conv2d_s16x8_acc64(&s, two, 2, &qx, &qw, b64, y), MRTQ_EINVAL,
                  "rq[c].zp: must be 0 (TFLite 16x8 outputs have no zero point)"); }
  bad = rq[0], bad.qmin = -32769;
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc32(&s, &bad, 1, &qx, &qw, b32, y), MRTQ_EINVAL,
                "rq->qmin: must be >= -32768 (TFLite 16x8 clamps within int16)");
  bad = rq[0], bad.qmax = 32768;
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc64(&s, &bad, 1, &qx, &qw, b64, y), MRTQ_EINVAL,
                "rq->qmax: must be <= 32767 (TFLite 16x8 clamps within int16)");
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 128.0, 0, -32768, 32767, &bad), MRTQ_OK, "scale 128: shift 8");
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc64(&s, &bad, 1, &qx, &qw, b64, y), MRTQ_ERANGE,
                "rq->m.shift: must be <= 7 with a 64-bit accumulator (TFLite's 64-bit multiply takes shifts -31..7: "
                "scales below 128)");
  CHECK_EQ(mrtq_conv2d_s16x8_acc32(&s, &bad, 1, &qx, &qw, b32, y), MRTQ_OK, "the 32-bit path takes it");
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc64(&s, rq, 2, &qx, &qw, b64, NULL), MRTQ_EINVAL, "out: NULL");
  /* the FC names the shape it builds */
  CHECK_REFUSED(mrtq_fc_s16x8_acc64(0, 4, 2, rq, 1, &qx, &qw, NULL, y), MRTQ_ESHAPE, "s->n: must be >= 1");
  CHECK_REFUSED(mrtq_fc_s16x8_acc32(2, 4, 2, rq, 3, &qx, &qw, NULL, y), MRTQ_EINVAL, "nrq: must be 1 or s->o (o)");
  /* the depthwise filter layout needs groups == c */
  s.w_layout = MRTQ_W_TFLITE_DW;
  CHECK_REFUSED(mrtq_conv2d_s16x8_acc64(&s, rq, 2, &qx, &qw, b64, y), MRTQ_ESHAPE, "s->w_layout: MRTQ_W_TFLITE_DW");
  s.groups = 2;
  CHECK_EQ(mrtq_conv2d_s16x8_acc64(&s, rq, 2, &qx, &qw, b64, y), MRTQ_OK, "depthwise");
  /* batch matmul */
  {
    mrtq_qoperand qa = qx, qb = qx;
    CHECK_EQ(mrtq_matmul_s16_acc64(2, 2, 3, 2, rq, &qa, &qb, 0, y), MRTQ_OK, "valid");
    CHECK_REFUSED(mrtq_matmul_s16_acc64(0, 2, 3, 2, rq, &qa, &qb, 0, y), MRTQ_ESHAPE, "batch: must be >= 1");
    CHECK_REFUSED(mrtq_matmul_s16_acc64(2, 0, 3, 2, rq, &qa, &qb, 0, y), MRTQ_ESHAPE, "m: must be >= 1");
    CHECK_REFUSED(mrtq_matmul_s16_acc64(2, 2, 0, 2, rq, &qa, &qb, 0, y), MRTQ_ESHAPE, "k: must be >= 1");
    CHECK_REFUSED(mrtq_matmul_s16_acc64(2, 2, 3, 0, rq, &qa, &qb, 0, y), MRTQ_ESHAPE, "n: must be >= 1");
    CHECK_REFUSED(mrtq_matmul_s16_acc64(SIZE_MAX / 2, 2, 3, 2, rq, &qa, &qb, 0, y), MRTQ_ESHAPE,
                  "batch, m, k, n: A's or Y's element count overflows size_t");
    CHECK_REFUSED(mrtq_matmul_s16_acc64(4, 1, SIZE_MAX / 8, 3, rq, &qa, &qb, 0, y), MRTQ_ESHAPE,
                  "batch, k, n: B's element count overflows size_t");
    CHECK_REFUSED(mrtq_matmul_s16_acc64(2, 2, 3, 2, rq, NULL, &qb, 0, y), MRTQ_EINVAL, "a: NULL");
    CHECK_REFUSED(mrtq_matmul_s16_acc64(2, 2, 3, 2, rq, &qa, NULL, 0, y), MRTQ_EINVAL, "b: NULL");
    q = qa, q.data = NULL;
    CHECK_REFUSED(mrtq_matmul_s16_acc64(2, 2, 3, 2, rq, &q, &qb, 0, y), MRTQ_EINVAL, "a->data: NULL");
    CHECK_REFUSED(mrtq_matmul_s16_acc64(2, 2, 3, 2, rq, &qa, &q, 0, y), MRTQ_EINVAL, "b->data: NULL");
    q = qa, q.type = (mrtq_dtype)0;
    CHECK_REFUSED(mrtq_matmul_s16_acc64(2, 2, 3, 2, rq, &q, &qb, 0, y), MRTQ_EINVAL,
                  "a->type: not an mrtq_dtype (0: a zero-initialised operand)");
    CHECK_REFUSED(mrtq_matmul_s16_acc64(2, 2, 3, 2, rq, &qa, &q, 0, y), MRTQ_EINVAL,
                  "b->type: not an mrtq_dtype (0: a zero-initialised operand)");
    q = qa, q.type = MRTQ_S8;
    CHECK_REFUSED(mrtq_matmul_s16_acc64(2, 2, 3, 2, rq, &q, &qb, 0, y), MRTQ_EUNSUPPORTED,
                  "a->type: must be MRTQ_S16 (TFLite's int16 BATCH_MATMUL is int16 x int16)");
    CHECK_REFUSED(mrtq_matmul_s16_acc64(2, 2, 3, 2, rq, &qa, &q, 0, y), MRTQ_EUNSUPPORTED,
                  "b->type: must be MRTQ_S16 (TFLite's int16 BATCH_MATMUL is int16 x int16)");
    q = qa, q.zp_ch = zp1;
    CHECK_REFUSED(mrtq_matmul_s16_acc64(2, 2, 3, 2, rq, &q, &qb, 0, y), MRTQ_EINVAL,
                  "a->zp_ch: must be NULL (TFLite's int16 BATCH_MATMUL has no zero points)");
    CHECK_REFUSED(mrtq_matmul_s16_acc64(2, 2, 3, 2, rq, &qa, &q, 0, y), MRTQ_EINVAL,
                  "b->zp_ch: must be NULL (TFLite's int16 BATCH_MATMUL has no zero points)");
    q = qa, q.zp = 2;
    CHECK_REFUSED(mrtq_matmul_s16_acc64(2, 2, 3, 2, rq, &q, &qb, 0, y), MRTQ_EINVAL,
                  "a->zp: must be 0 (TFLite's int16 BATCH_MATMUL has no zero points)");
    CHECK_REFUSED(mrtq_matmul_s16_acc64(2, 2, 3, 2, rq, &qa, &q, 0, y), MRTQ_EINVAL,
                  "b->zp: must be 0 (TFLite's int16 BATCH_MATMUL has no zero points)");
    CHECK_REFUSED(mrtq_matmul_s16_acc64(2, 2, 3, 2, NULL, &qa, &qb, 0, y), MRTQ_EINVAL, "rq: NULL");
    bad = rq[0], bad.zp = -1;
    CHECK_REFUSED(mrtq_matmul_s16_acc64(2, 2, 3, 2, &bad, &qa, &qb, 0, y), MRTQ_EINVAL, "rq->zp: must be 0");
    CHECK_EQ(mrtq_rq_init(MRTQ_Q31_RNDNU, 200.0, 0, -32768, 32767, &bad), MRTQ_OK, "scale 200");
    CHECK_REFUSED(mrtq_matmul_s16_acc64(2, 2, 3, 2, &bad, &qa, &qb, 0, y), MRTQ_ERANGE, "rq->m.shift: must be <= 7");
    CHECK_REFUSED(mrtq_matmul_s16_acc64(2, 2, 3, 2, rq, &qa, &qb, 0, NULL), MRTQ_EINVAL, "out: NULL");
    CHECK_REFUSED(mrtq_matmul_s16_acc64(1, 1, 131072, 1, rq, &qa, &qb, 1, y), MRTQ_EOVERFLOW,
                  "k: k 2^30 must stay below 2^47, the domain of TFLite's 64-bit multiply (k <= 131071)");
  }
  (void)b32;
}

/* k = 131071, every product 2^30: the accumulator 2^47 - 2^30, the largest the check lets through */
static void test_bmm_bound(void) {
  int16_t *a = (int16_t *)malloc(131071 * 2), y[1] = {0}, want[1] = {0};
  mrtq_qoperand qa;
  mrtq_rq rq;
  int i;
  if (!a) return;
  for (i = 0; i < 131071; i++) a[i] = -32768;
  memset(&qa, 0, sizeof qa);
  qa.data = a, qa.type = MRTQ_S16;
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, ldexp(1.0, -32) * 1.5, 0, -32768, 32767, &rq), MRTQ_OK, "rq");
  CHECK_EQ(mrtq_matmul_s16_acc64(1, 1, 131071, 1, &rq, &qa, &qa, 1, y), MRTQ_OK, "k at the bound");
  tfl_bmm(1, 1, 1, 131071, 1, a, a, rq.m.mult, rq.m.shift, want);
  CHECK_EQ(y[0], want[0], "2^47 - 2^30 at scale 1.5 2^-32");
  free(a);
  compared += 1;
}

int main(void) {
  TH_RUN(test_x64_edges);
  TH_RUN(test_x64_ties);
  TH_RUN(test_x64_random);
  TH_RUN(test_conv_random);
  TH_RUN(test_conv_size1);
  TH_RUN(test_fc_random);
  TH_RUN(test_bmm_random);
  TH_RUN(test_ties);
  TH_RUN(test_saturation);
  TH_RUN(test_extreme_multipliers);
  TH_RUN(test_bounds);
  TH_RUN(test_zero_multiplier);
  TH_RUN(test_refusals);
  TH_RUN(test_bmm_bound);
  TH_RUN(test_wrap_repro);
  TH_RUN(test_large_k);
  printf("  total: %lld outputs compared, %lld of them outside TFLite's defined domain (its code wraps there)\n",
         compared, outside);
  return th_finish("test_conv_s16");
}
