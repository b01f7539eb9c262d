// Differential test of mrtq/activation.h's gemmlowp-based kernels against
// gemmlowp's own fixedpoint.h (Debian libgemmlowp-dev), with TFLite's kernels
// restated here around it in TFLite's own structure:
//   - int8 LOGISTIC / TANH (reference_integer_ops::Logistic / Tanh, their
//     Prepare in TFLite Micro's logistic_common.cc / tanh.cc): gemmlowp's
//     logistic / tanh on FixedPoint<int32_t, 4>, its RoundingDivideByPOT, and
//     MultiplyByQuantizedMultiplier built from gemmlowp's int32
//     SaturatingRoundingDoublingHighMul and RoundingDivideByPOT;
//   - HARD_SWISH (reference_ops::HardSwish, HardSwishPrepare): gemmlowp's
//     int16 SaturatingRoundingDoublingHighMul and RoundingDivideByPOT.
// Every stored input (256) for each parameter set: the Prepare from seeded
// random scales and zero points over the whole accepted range, and hand-made
// parameter structs over the kernels' whole field ranges.
#include "harness.h"
#include "mrtq.h"

#if defined(MRTQ_HAVE_GEMMLOWP)
#include <gemmlowp/fixedpoint/fixedpoint.h>

#include <cmath>
#include <cstring>

static long long compared;

// ---- TFLite's helpers, restated ----

// QuantizeMultiplier (quantization_util.cc), default build.
static void quantize_multiplier(double d, int32_t *m, int *shift) {
  if (d == 0.0) {
    *m = 0, *shift = 0;
    return;
  }
  double q = std::frexp(d, shift);
  int64_t q_fixed = static_cast<int64_t>(std::round(q * 2147483648.0));
  if (q_fixed == (int64_t{1} << 31)) q_fixed /= 2, ++*shift;
  if (*shift < -31) *shift = 0, q_fixed = 0;
  *m = static_cast<int32_t>(q_fixed);
}

// MultiplyByQuantizedMultiplier (int32 x, default double-rounding build).
static int32_t mbqm(int32_t x, int32_t m, int shift) {
  int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  return gemmlowp::RoundingDivideByPOT(gemmlowp::SaturatingRoundingDoublingHighMul(x * (1 << left), m), right);
}

// ---- int8 LOGISTIC / TANH ----

struct Fx8 {
  int32_t zp, radius, mult;
  int shift;
};

// TFLite Micro's Prepare (both operators compute the same four numbers).
static Fx8 fx8_prepare(float scale, int32_t zp) {
  Fx8 r;
  const double real = static_cast<double>(scale) * static_cast<double>(1 << (31 - 4));
  const double q = std::frexp(real, &r.shift);
  r.mult = static_cast<int32_t>(std::round(q * (1ll << 31)));
  r.zp = zp;
  const double max_input_rescaled = 1.0 * ((1 << 4) - 1) * (1ll << (31 - 4)) / (1ll << r.shift);
  r.radius = static_cast<int32_t>(std::floor(max_input_rescaled));
  return r;
}

// reference_integer_ops::Logistic / Tanh, one element.
static int8_t fx8_ref(const Fx8 &p, int8_t x, bool tanh) {
  using F4 = gemmlowp::FixedPoint<int32_t, 4>;
  const int32_t input = static_cast<int32_t>(x) - p.zp;
  if (input <= -p.radius) return -128;
  if (input >= p.radius) return 127;
  const int32_t q4 = mbqm(input, p.mult, p.shift);
  int32_t o;
  if (tanh) {
    o = gemmlowp::RoundingDivideByPOT(gemmlowp::tanh(F4::FromRaw(q4)).raw(), 31 - 7);
  } else {
    o = gemmlowp::RoundingDivideByPOT(gemmlowp::logistic(F4::FromRaw(q4)).raw(), 31 - 8) - 128;
  }
  return static_cast<int8_t>(std::min(std::max(o, -128), 127));
}

static void fx8_compare(const Fx8 &r, const mrtq_tflite_fx8_params &p, long *n) {
  int8_t in[256], lo[256], th[256];
  for (int i = 0; i < 256; i++) in[i] = static_cast<int8_t>(i - 128);
  CHECK_EQ(mrtq_tflite_logistic(&p, 256, in, lo), MRTQ_OK, "logistic");
  CHECK_EQ(mrtq_tflite_tanh(&p, 256, in, th), MRTQ_OK, "tanh");
  for (int i = 0; i < 256; i++) {
    CHECK_EQ(lo[i], fx8_ref(r, in[i], false), "logistic x=%d zp=%d radius=%d mult=%d shift=%d", in[i], r.zp, r.radius,
             r.mult, r.shift);
    CHECK_EQ(th[i], fx8_ref(r, in[i], true), "tanh x=%d zp=%d radius=%d mult=%d shift=%d", in[i], r.zp, r.radius,
             r.mult, r.shift);
  }
  *n += 512;
}

// A float scale: a random 24-bit mantissa times 2^k.
static float rnd_scale(int kmin, int kmax) {
  int k = static_cast<int>(th_range(kmin, kmax));
  uint32_t mant = (th_rand32() >> 8) | 0x800000u;
  return std::ldexp(static_cast<float>(mant), k - 24);
}

// The TF interpreter's float-table LOGISTIC / TANH beside the fixed-point
// kernels on the same quantization: how many bytes differ, and by how much.
static long lut_diff, lut_bytes, lut_maxdiff;
static void lut_vs_fx8(float s, int32_t zp, const mrtq_tflite_fx8_params &p) {
  int8_t in[256], fx[256], lt[256];
  mrtq_tflite_lut8_params l;
  for (int i = 0; i < 256; i++) in[i] = static_cast<int8_t>(i - 128);
  for (int op = 0; op < 2; op++) {
    std::memset(&l, 0, sizeof l);
    if (op == 0) {
      CHECK_EQ(mrtq_tflite_logistic_lut_init(MRTQ_S8, s, zp, 1.0f / 256, -128, expf, &l), MRTQ_OK, "lut");
      CHECK_EQ(mrtq_tflite_logistic(&p, 256, in, fx), MRTQ_OK, "fx");
    } else {
      CHECK_EQ(mrtq_tflite_tanh_lut_init(MRTQ_S8, s, zp, 1.0f / 128, 0, tanhf, &l), MRTQ_OK, "lut");
      CHECK_EQ(mrtq_tflite_tanh(&p, 256, in, fx), MRTQ_OK, "fx");
    }
    CHECK_EQ(mrtq_tflite_lut8(&l, 256, in, lt), MRTQ_OK, "lut8");
    for (int i = 0; i < 256; i++) {
      long d = std::labs(static_cast<long>(fx[i]) - lt[i]);
      lut_diff += d != 0;
      if (d > lut_maxdiff) lut_maxdiff = d;
    }
    lut_bytes += 256;
  }
}

static void test_fx8_prepare() {
  long n = 0, inits = 0, saturated = 0;
  for (int it = 0; it < 6000; it++) {
    // Mostly the scales real models use, then the whole accepted range.
    float s = it < 4000 ? rnd_scale(-12, 2) : rnd_scale(-27, 34);
    if (it == 0) s = 1.0f / 16;  // radius exactly 15 * 2^27 / 2^shift
    if (it == 1) s = std::ldexp(1.0f, -28);  // smallest accepted: shift 0
    if (it == 2) s = std::ldexp(16777215.0f, 35 - 24);  // largest accepted: shift 62
    int32_t zp = static_cast<int32_t>(th_range(-128, 127));
    Fx8 r = fx8_prepare(s, zp);
    mrtq_tflite_fx8_params p;
    std::memset(&p, 0, sizeof p);
    CHECK_EQ(mrtq_tflite_fx8_init(s, zp, &p), MRTQ_OK, "s=%a", static_cast<double>(s));
    CHECK_EQ(p.input_zp, r.zp, "s=%a", static_cast<double>(s));
    CHECK_EQ(p.input_range_radius, r.radius, "s=%a", static_cast<double>(s));
    CHECK_EQ(p.input_multiplier, r.mult, "s=%a", static_cast<double>(s));
    CHECK_EQ(p.input_left_shift, r.shift, "s=%a", static_cast<double>(s));
    inits++;
    fx8_compare(r, p, &n);
    saturated += r.radius < 128 + (zp < 0 ? -zp : zp);
    if (it >= 3 && it < 4000) lut_vs_fx8(s, zp, p);  // realistic scales (not the extremes above)
  }
  CHECK(lut_diff > 0 && lut_maxdiff <= 1);
  printf("  the TF interpreter's float tables beside the fixed-point kernels (3997 scales in [2^-13, 4)): %ld of %ld bytes "
         "differ, by at most %ld\n", lut_diff, lut_bytes, lut_maxdiff);
  CHECK(saturated > 0);
  printf("  int8 logistic / tanh from TFLite Micro's Prepare: %ld inits, %ld outputs (%ld sets reach the radius)\n",
         inits, n, saturated);
  compared += n;
}

// Hand-made structs: every field over the range where TFLite's int32
// arithmetic is defined (|v| < radius keeps |v| 2^shift below 2^31).
static void test_fx8_structs() {
  long n = 0;
  for (int it = 0; it < 6000; it++) {
    Fx8 r;
    r.shift = static_cast<int>(th_range(0, 30));
    r.mult = static_cast<int32_t>(th_range(0, INT32_MAX));
    if (it % 5 == 0) r.mult = static_cast<int32_t>(th_range(INT32_MAX - 4, INT32_MAX));
    int64_t rmax = (int64_t{1} << (31 - r.shift)) - 1;
    if (rmax > 256) rmax = 256;
    r.radius = static_cast<int32_t>(th_range(0, rmax));
    r.zp = static_cast<int32_t>(th_range(-128, 127));
    mrtq_tflite_fx8_params p;
    std::memset(&p, 0, sizeof p);
    p.input_zp = r.zp, p.input_range_radius = r.radius, p.input_multiplier = r.mult, p.input_left_shift = r.shift;
    fx8_compare(r, p, &n);
  }
  printf("  int8 logistic / tanh, hand-made structs: %ld outputs\n", n);
  compared += n;
}

// ---- HARD_SWISH ----

struct Hs {
  int32_t in_zp, out_zp;
  int16_t om, rm;
  int oe, re;
};

// DownScaleInt32ToInt16Multiplier.
static int16_t down16(int32_t m) {
  if (m >= std::numeric_limits<int32_t>::max() - (1 << 15)) return std::numeric_limits<int16_t>::max();
  return static_cast<int16_t>((m + (1 << 15)) >> 16);
}

// HardSwishPrepare, in float as TFLite writes it. Returns false where TFLite
// refuses (output exponent above 0).
static bool hs_prepare(float in_scale, int32_t in_zp, float out_scale, int32_t out_zp, Hs *h) {
  const float hires_input_scale = (1.0f / 128.0f) * in_scale;
  const float reluish_scale = 3.0f / 32768.0f;
  const float output_multiplier = hires_input_scale / out_scale;
  int32_t m32;
  quantize_multiplier(output_multiplier, &m32, &h->oe);
  h->om = down16(m32);
  if (h->oe > 0) return false;
  const float reluish_multiplier = hires_input_scale / reluish_scale;
  quantize_multiplier(reluish_multiplier, &m32, &h->re);
  h->rm = down16(m32);
  h->in_zp = in_zp, h->out_zp = out_zp;
  return true;
}

static int16_t sat_left_shift(int16_t value, int amount) {
  int64_t result = static_cast<int64_t>(value) * (1 << amount);
  result = std::min<int64_t>(result, std::numeric_limits<int16_t>::max());
  result = std::max<int64_t>(result, std::numeric_limits<int16_t>::min());
  return static_cast<int16_t>(result);
}

static int16_t sat_doubling_high_mul(int16_t a, int16_t b) {
  bool overflow = a == b && a == std::numeric_limits<int16_t>::min();
  int32_t ab = static_cast<int32_t>(a) * static_cast<int32_t>(b);
  int16_t hi = static_cast<int16_t>(ab / (1 << 15));
  return overflow ? std::numeric_limits<int16_t>::max() : hi;
}

// reference_ops::HardSwish, one element of type T.
template <typename T>
static T hs_ref(const Hs &p, T x) {
  const int16_t input_value = static_cast<int16_t>(x - p.in_zp);
  const int16_t hires = static_cast<int16_t>(input_value * (1 << 7));
  const int16_t preshift = gemmlowp::SaturatingRoundingDoublingHighMul(hires, p.om);
  int16_t reluish = hires;
  if (p.re > 0) reluish = sat_left_shift(reluish, p.re - 1);
  reluish = gemmlowp::SaturatingRoundingDoublingHighMul(reluish, p.rm);
  if (p.re > 0) reluish = sat_left_shift(reluish, 1);
  if (p.re < 0) reluish = gemmlowp::RoundingDivideByPOT(reluish, -p.re);
  reluish = static_cast<int16_t>((reluish + (1 << 15)) >> 1);
  const int16_t pre = sat_doubling_high_mul(reluish, preshift);
  int16_t out = gemmlowp::RoundingDivideByPOT(pre, -p.oe);
  out = static_cast<int16_t>(out + p.out_zp);
  out = std::min<int16_t>(out, std::numeric_limits<T>::max());
  out = std::max<int16_t>(out, std::numeric_limits<T>::min());
  return static_cast<T>(out);
}

template <typename T>
static void hs_compare(const Hs &h, const mrtq_tflite_hard_swish_params &p, long *n, long *low16) {
  T in[256], out[256];
  for (int i = 0; i < 256; i++) in[i] = static_cast<T>(i);
  CHECK_EQ(mrtq_tflite_hard_swish(&p, 256, in, out), MRTQ_OK, "hard_swish");
  for (int i = 0; i < 256; i++)
    CHECK_EQ(out[i], hs_ref<T>(h, in[i]), "hard_swish x=%d zp %d/%d om %d oe %d rm %d re %d", in[i], h.in_zp, h.out_zp,
             h.om, h.oe, h.rm, h.re);
  *n += 256;
  *low16 += h.oe <= -16 || h.re <= -16;
}

static void test_hard_swish() {
  long n = 0, inits = 0, refused = 0, low16 = 0, pos_re = 0;
  for (int it = 0; it < 8000; it++) {
    bool u8 = th_rand32() & 1u;
    mrtq_dtype t = u8 ? MRTQ_U8 : MRTQ_S8;
    float in_scale = it < 5000 ? rnd_scale(-10, 0) : rnd_scale(-40, 24);
    float out_scale = it < 5000 ? rnd_scale(-10, 0) : rnd_scale(-40, 24);
    int32_t in_zp = static_cast<int32_t>(u8 ? th_range(0, 255) : th_range(-128, 127));
    int32_t out_zp = static_cast<int32_t>(u8 ? th_range(0, 255) : th_range(-128, 127));
    Hs h;
    bool ok = hs_prepare(in_scale, in_zp, out_scale, out_zp, &h);
    mrtq_tflite_hard_swish_params p;
    std::memset(&p, 0, sizeof p);
    mrtq_status st = mrtq_tflite_hard_swish_init(t, in_scale, in_zp, out_scale, out_zp, &p);
    if (!ok) {
      CHECK_EQ(st, MRTQ_ERANGE, "in %a out %a", static_cast<double>(in_scale), static_cast<double>(out_scale));
      refused++;
      continue;
    }
    if (h.re > 31) {  // TFLite's SaturatingLeftShift would shift by 31 or more
      CHECK_EQ(st, MRTQ_ERANGE, "in %a", static_cast<double>(in_scale));
      refused++;
      continue;
    }
    CHECK_EQ(st, MRTQ_OK, "in %a out %a", static_cast<double>(in_scale), static_cast<double>(out_scale));
    CHECK_EQ(p.output_multiplier_fixedpoint_int16, h.om, "om");
    CHECK_EQ(p.output_multiplier_exponent, h.oe, "oe");
    CHECK_EQ(p.reluish_multiplier_fixedpoint_int16, h.rm, "rm");
    CHECK_EQ(p.reluish_multiplier_exponent, h.re, "re");
    inits++;
    pos_re += h.re > 0;
    if (u8)
      hs_compare<uint8_t>(h, p, &n, &low16);
    else
      hs_compare<int8_t>(h, p, &n, &low16);
  }
  // Hand-made structs over every field's whole range.
  for (int it = 0; it < 8000; it++) {
    bool u8 = th_rand32() & 1u;
    Hs h;
    h.in_zp = static_cast<int32_t>(u8 ? th_range(0, 255) : th_range(-128, 127));
    h.out_zp = static_cast<int32_t>(u8 ? th_range(0, 255) : th_range(-128, 127));
    h.om = static_cast<int16_t>(th_range(0, 32767));
    h.oe = static_cast<int>(th_range(-31, 0));
    h.rm = static_cast<int16_t>(th_range(0, 32767));
    h.re = static_cast<int>(th_range(-31, 31));
    mrtq_tflite_hard_swish_params p;
    std::memset(&p, 0, sizeof p);
    p.type = u8 ? MRTQ_U8 : MRTQ_S8, p.in_zp = h.in_zp, p.out_zp = h.out_zp;
    p.output_multiplier_fixedpoint_int16 = h.om, p.output_multiplier_exponent = h.oe;
    p.reluish_multiplier_fixedpoint_int16 = h.rm, p.reluish_multiplier_exponent = h.re;
    if (u8)
      hs_compare<uint8_t>(h, p, &n, &low16);
    else
      hs_compare<int8_t>(h, p, &n, &low16);
  }
  CHECK(refused > 0 && low16 > 0 && pos_re > 0);
  printf("  hard_swish: %ld inits (%ld refused as TFLite refuses), %ld outputs; %ld sets with an exponent <= -16 "
         "(gemmlowp's int16 mask wraps), %ld with reluish exponent > 0\n",
         inits, refused, n, low16, pos_re);
  compared += n;
}

int main() {
  TH_RUN(test_fx8_prepare);
  TH_RUN(test_fx8_structs);
  TH_RUN(test_hard_swish);
  printf("  %lld outputs compared with gemmlowp-based restatements\n", compared);
  return th_finish("test_activation_gemmlowp");
}

#else
int main() { return th_skip("test_activation_gemmlowp", "gemmlowp/fixedpoint/fixedpoint.h not found"); }
#endif
