// Differential test of mrtq/fxmath.h against gemmlowp's own fixedpoint.h
// (Debian libgemmlowp-dev), built with -fwrapv so that gemmlowp's overflowing
// int32 additions / negations (outside each function's intended interval)
// have the wrapping meaning mrtq documents. gemmlowp takes the integer bits as
// a template argument: every value mrtq accepts is instantiated.
//   int16: every input (all 65536) for every integer-bits value / exponent
//          accepted, every function;
//   int32: the edge values (INT32_MIN/MAX, +-2^k + {-1, 0, 1}, 0) for every
//          accepted value, plus seeded random inputs: 10^6 per function for
//          the integer-bits values TFLite uses (exp_neg 5; logistic / tanh 0,
//          3, 4; the Q0 helpers), 10^5 for every other value.
#include "harness.h"
#include "mrtq.h"

#if defined(MRTQ_HAVE_GEMMLOWP)
#include <gemmlowp/fixedpoint/fixedpoint.h>

#include <utility>

static long long compared;

template <typename R, int N>
using FP = gemmlowp::FixedPoint<R, N>;

// A random int32 for the fixed-point functions: the harness mix (edges,
// small, uniform) and, half the time, a value in [-2^k, 2^k] for a random k,
// so that every magnitude (and the exp / logistic domains) is well covered.
static int32_t rnd32() {
  if (th_rand32() & 1u) return th_i32();
  int k = static_cast<int>(th_range(0, 31));
  return static_cast<int32_t>(th_range(-(int64_t{1} << k), (int64_t{1} << k) - (k == 31)));
}

static long n_random(bool in_use) { return in_use ? 1000000 : 100000; }

// ---- functions with an integer-bits template argument ----

template <int N>
struct PerBits {
  static void exp_neg32(bool in_use) {
    int32_t ed[TH_EDGES_MAX];
    int ne = th_edges(ed);
    long nr = n_random(in_use);
    for (long i = 0; i < ne + nr; i++) {
      int32_t a = i < ne ? ed[i] : rnd32();
      int32_t got = 0;
      CHECK_EQ(mrtq_fx_exp_neg_s32(a, N, &got), MRTQ_OK, "N=%d", N);
      CHECK_EQ(got, gemmlowp::exp_on_negative_values(FP<int32_t, N>::FromRaw(a)).raw(), "exp_neg_s32 a=%d N=%d", a, N);
      compared++;
    }
  }
  static void exp_neg16() {
    for (int32_t a = -32768; a <= 32767; a++) {
      int16_t got = 0;
      CHECK_EQ(mrtq_fx_exp_neg_s16(static_cast<int16_t>(a), N, &got), MRTQ_OK, "N=%d", N);
      CHECK_EQ(got, gemmlowp::exp_on_negative_values(FP<int16_t, N>::FromRaw(static_cast<int16_t>(a))).raw(),
               "exp_neg_s16 a=%d N=%d", a, N);
      compared++;
    }
  }
  static void logistic32(bool in_use) {
    int32_t ed[TH_EDGES_MAX];
    int ne = th_edges(ed);
    long nr = n_random(in_use);
    for (long i = 0; i < ne + nr; i++) {
      int32_t a = i < ne ? ed[i] : rnd32();
      int32_t got = 0;
      CHECK_EQ(mrtq_fx_logistic_s32(a, N, &got), MRTQ_OK, "N=%d", N);
      CHECK_EQ(got, gemmlowp::logistic(FP<int32_t, N>::FromRaw(a)).raw(), "logistic_s32 a=%d N=%d", a, N);
      compared++;
    }
  }
  static void logistic16() {
    for (int32_t a = -32768; a <= 32767; a++) {
      int16_t got = 0;
      CHECK_EQ(mrtq_fx_logistic_s16(static_cast<int16_t>(a), N, &got), MRTQ_OK, "N=%d", N);
      CHECK_EQ(got, gemmlowp::logistic(FP<int16_t, N>::FromRaw(static_cast<int16_t>(a))).raw(),
               "logistic_s16 a=%d N=%d", a, N);
      compared++;
    }
  }
  static void tanh32(bool in_use) {
    int32_t ed[TH_EDGES_MAX];
    int ne = th_edges(ed);
    long nr = n_random(in_use);
    for (long i = 0; i < ne + nr; i++) {
      int32_t a = i < ne ? ed[i] : rnd32();
      int32_t got = 0;
      CHECK_EQ(mrtq_fx_tanh_s32(a, N, &got), MRTQ_OK, "N=%d", N);
      CHECK_EQ(got, gemmlowp::tanh(FP<int32_t, N>::FromRaw(a)).raw(), "tanh_s32 a=%d N=%d", a, N);
      compared++;
    }
  }
  static void tanh16() {
    for (int32_t a = -32768; a <= 32767; a++) {
      int16_t got = 0;
      CHECK_EQ(mrtq_fx_tanh_s16(static_cast<int16_t>(a), N, &got), MRTQ_OK, "N=%d", N);
      CHECK_EQ(got, gemmlowp::tanh(FP<int16_t, N>::FromRaw(static_cast<int16_t>(a))).raw(), "tanh_s16 a=%d N=%d", a,
               N);
      compared++;
    }
  }
};

// ---- SaturatingRoundingMultiplyByPOT<E> and Rescale<D>(FixedPoint<S>) ----

template <int E>
static void mul_pot32() {
  int32_t ed[TH_EDGES_MAX];
  int ne = th_edges(ed);
  for (long i = 0; i < ne + 100000; i++) {
    int32_t x = i < ne ? ed[i] : rnd32();
    int32_t got = 0;
    CHECK_EQ(mrtq_fx_mul_pot_s32(x, E, &got), MRTQ_OK, "E=%d", E);
    CHECK_EQ(got, gemmlowp::SaturatingRoundingMultiplyByPOT<E>(x), "mul_pot_s32 x=%d E=%d", x, E);
    compared++;
  }
}
template <int E>
static void mul_pot16() {
  for (int32_t x = -32768; x <= 32767; x++) {
    int16_t got = 0;
    CHECK_EQ(mrtq_fx_mul_pot_s16(static_cast<int16_t>(x), E, &got), MRTQ_OK, "E=%d", E);
    CHECK_EQ(got, gemmlowp::SaturatingRoundingMultiplyByPOT<E>(static_cast<int16_t>(x)), "mul_pot_s16 x=%d E=%d", x,
             E);
    compared++;
  }
}
template <int S, int D>
static void rescale16() {
  for (int32_t x = -32768; x <= 32767; x++) {
    int16_t got = 0;
    CHECK_EQ(mrtq_fx_rescale_s16(static_cast<int16_t>(x), S, D, &got), MRTQ_OK, "S=%d D=%d", S, D);
    CHECK_EQ(got, gemmlowp::Rescale<D>(FP<int16_t, S>::FromRaw(static_cast<int16_t>(x))).raw(),
             "rescale_s16 x=%d S=%d D=%d", x, S, D);
    compared++;
  }
}
template <int S, int D>
static void rescale32(long nr) {
  int32_t ed[TH_EDGES_MAX];
  int ne = th_edges(ed);
  for (long i = 0; i < ne + nr; i++) {
    int32_t x = i < ne ? ed[i] : rnd32();
    int32_t got = 0;
    CHECK_EQ(mrtq_fx_rescale_s32(x, S, D, &got), MRTQ_OK, "S=%d D=%d", S, D);
    CHECK_EQ(got, gemmlowp::Rescale<D>(FP<int32_t, S>::FromRaw(x)).raw(), "rescale_s32 x=%d S=%d D=%d", x, S, D);
    compared++;
  }
}

// Compile-time loops.
template <int... I, typename F>
static void for_each(std::integer_sequence<int, I...>, F f) {
  int dummy[] = {0, (f(std::integral_constant<int, I>()), 0)...};
  (void)dummy;
}
template <int Lo, int... I>
static constexpr std::integer_sequence<int, (Lo + I)...> shifted(std::integer_sequence<int, I...>) {
  return {};
}
template <int Lo, int Hi>
static constexpr auto range() -> decltype(shifted<Lo>(std::make_integer_sequence<int, Hi - Lo + 1>())) {
  return {};
}

static bool uses(int n, std::initializer_list<int> set) {
  for (int v : set)
    if (v == n) return true;
  return false;
}

static void test_exp_neg() {
  long long c0 = compared;
  for_each(range<0, 29>(), [](auto n) { PerBits<decltype(n)::value>::exp_neg32(uses(n, {5})); });
  for_each(range<0, 13>(), [](auto n) { PerBits<decltype(n)::value>::exp_neg16(); });
  printf("  exp_neg: %lld outputs compared with gemmlowp\n", compared - c0);
}
static void test_logistic() {
  long long c0 = compared;
  for_each(range<0, 29>(), [](auto n) { PerBits<decltype(n)::value>::logistic32(uses(n, {0, 3, 4})); });
  for_each(range<0, 13>(), [](auto n) { PerBits<decltype(n)::value>::logistic16(); });
  printf("  logistic: %lld outputs compared with gemmlowp\n", compared - c0);
}
static void test_tanh() {
  long long c0 = compared;
  for_each(range<0, 28>(), [](auto n) { PerBits<decltype(n)::value>::tanh32(uses(n, {0, 3, 4})); });
  for_each(range<0, 12>(), [](auto n) { PerBits<decltype(n)::value>::tanh16(); });
  printf("  tanh: %lld outputs compared with gemmlowp\n", compared - c0);
}
static void test_mul_pot_rescale() {
  long long c0 = compared;
  for_each(range<-31, 31>(), [](auto e) { mul_pot32<decltype(e)::value>(); });
  for_each(range<-15, 15>(), [](auto e) { mul_pot16<decltype(e)::value>(); });
  for_each(range<0, 15>(), [](auto s) {
    for_each(range<0, 15>(), [](auto d) { rescale16<decltype(s)::value, decltype(d)::value>(); });
  });
  // int32: every source with the destinations TFLite uses (0, 2, 12) and the
  // extremes; 10^6 inputs for Q0 -> Q12 (the softmax sum of exps).
  for_each(range<0, 31>(), [](auto s) {
    constexpr int S = decltype(s)::value;
    rescale32<S, 0>(20000);
    rescale32<S, 2>(20000);
    rescale32<S, 12>(S == 0 ? 1000000 : 20000);
    rescale32<S, 31>(20000);
  });
  printf("  mul_pot / rescale: %lld outputs compared with gemmlowp\n", compared - c0);
}

// ---- Q0 -> Q0 helpers ----

static void test_q0_helpers() {
  long long c0 = compared;
  using F32 = FP<int32_t, 0>;
  using F16 = FP<int16_t, 0>;
  int32_t ed[TH_EDGES_MAX];
  int ne = th_edges(ed);
  for (long i = 0; i < ne + 1000000; i++) {
    int32_t a = i < ne ? ed[i] : rnd32();
    CHECK_EQ(mrtq_fx_exp_quarter_s32(a), gemmlowp::exp_on_interval_between_negative_one_quarter_and_0_excl(F32::FromRaw(a)).raw(),
             "exp_quarter_s32 a=%d", a);
    CHECK_EQ(mrtq_fx_one_over_one_plus_x_s32(a), gemmlowp::one_over_one_plus_x_for_x_in_0_1(F32::FromRaw(a)).raw(),
             "one_over_one_plus_x_s32 a=%d", a);
    CHECK_EQ(mrtq_fx_one_minus_x_over_one_plus_x_s32(a),
             gemmlowp::one_minus_x_over_one_plus_x_for_x_in_0_1(F32::FromRaw(a)).raw(), "one_minus_x_s32 a=%d", a);
    compared += 3;
  }
  for (int32_t a = -32768; a <= 32767; a++) {
    int16_t x = static_cast<int16_t>(a);
    CHECK_EQ(mrtq_fx_exp_quarter_s16(x), gemmlowp::exp_on_interval_between_negative_one_quarter_and_0_excl(F16::FromRaw(x)).raw(),
             "exp_quarter_s16 a=%d", a);
    CHECK_EQ(mrtq_fx_one_over_one_plus_x_s16(x), gemmlowp::one_over_one_plus_x_for_x_in_0_1(F16::FromRaw(x)).raw(),
             "one_over_one_plus_x_s16 a=%d", a);
    CHECK_EQ(mrtq_fx_one_minus_x_over_one_plus_x_s16(x),
             gemmlowp::one_minus_x_over_one_plus_x_for_x_in_0_1(F16::FromRaw(x)).raw(), "one_minus_x_s16 a=%d", a);
    compared += 3;
  }
  // int16 SRDHM: every a against 64 b (edges and random), then random pairs.
  static const int32_t bed[8] = {-32768, -32767, -1, 0, 1, 16384, 32766, 32767};
  for (int32_t a = -32768; a <= 32767; a++)
    for (int j = 0; j < 64; j++) {
      int16_t b = static_cast<int16_t>(j < 8 ? bed[j] : static_cast<int32_t>(th_range(-32768, 32767)));
      CHECK_EQ(mrtq_fx_srdhm_s16(static_cast<int16_t>(a), b),
               gemmlowp::SaturatingRoundingDoublingHighMul(static_cast<int16_t>(a), b), "srdhm_s16 %d %d", a, b);
      compared++;
    }
  printf("  Q0 helpers and srdhm_s16: %lld outputs compared with gemmlowp\n", compared - c0);
}

int main() {
  TH_RUN(test_exp_neg);
  TH_RUN(test_logistic);
  TH_RUN(test_tanh);
  TH_RUN(test_mul_pot_rescale);
  TH_RUN(test_q0_helpers);
  printf("  total: %lld outputs compared with gemmlowp\n", compared);
  return th_finish("test_fxmath_gemmlowp");
}

#else
int main() { return th_skip("test_fxmath_gemmlowp", "gemmlowp/fixedpoint/fixedpoint.h not found"); }
#endif
