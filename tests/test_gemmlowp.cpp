// Differential test against gemmlowp's own fixedpoint.h (Debian
// libgemmlowp-dev): mrtq_srdhm, mrtq_rdivpot and mrtq_mul_q31_dbl equal the
// peer bit for bit on edge values and >= 10^6 random cases each. The peer for
// mrtq_mul_q31_dbl is TFLite's MultiplyByQuantizedMultiplier composed, as
// TFLite composes it, from the two gemmlowp primitives.
#include "harness.h"
#include "mrtq.h"

#if defined(MRTQ_HAVE_GEMMLOWP)
#include <gemmlowp/fixedpoint/fixedpoint.h>

// TFLite's default-build MultiplyByQuantizedMultiplier over its domain
// (shift in [-31, 30], x * 2^max(shift, 0) representable).
static int32_t peer_mbqm(int32_t x, int32_t mult, int shift) {
  int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  return gemmlowp::RoundingDivideByPOT(
      gemmlowp::SaturatingRoundingDoublingHighMul(static_cast<int32_t>(static_cast<int64_t>(x) * (int64_t{1} << left)), mult),
      right);
}

static void test_srdhm_vs_gemmlowp() {
  int32_t ed[TH_EDGES_MAX];
  int n = th_edges(ed);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      CHECK_EQ(mrtq_srdhm(ed[i], ed[j]), gemmlowp::SaturatingRoundingDoublingHighMul(ed[i], ed[j]), "%d %d", ed[i], ed[j]);
  for (long r = 0; r < 1000000; r++) {
    int32_t a = th_i32(), b = th_i32();
    CHECK_EQ(mrtq_srdhm(a, b), gemmlowp::SaturatingRoundingDoublingHighMul(a, b), "%d %d", a, b);
  }
}

static void test_rdivpot_vs_gemmlowp() {
  int32_t ed[TH_EDGES_MAX];
  int n = th_edges(ed);
  for (int e = 0; e <= 31; e++)
    for (int i = 0; i < n; i++)
      CHECK_EQ(mrtq_rdivpot(ed[i], e), gemmlowp::RoundingDivideByPOT(ed[i], e), "x=%d e=%d", ed[i], e);
  for (long r = 0; r < 1000000; r++) {
    int32_t x = th_i32();
    int e = static_cast<int>(th_range(0, 31));
    CHECK_EQ(mrtq_rdivpot(x, e), gemmlowp::RoundingDivideByPOT(x, e), "x=%d e=%d", x, e);
  }
}

static void test_mul_q31_dbl_vs_gemmlowp() {
  int32_t ed[TH_EDGES_MAX];
  int n = th_edges(ed);
  long compared = 0;
  for (int s = -31; s <= 30; s++)
    for (int i = 0; i < n; i++) {
      int32_t mults[] = {1 << 30, INT32_MAX, 0, static_cast<int32_t>(th_range(1LL << 30, INT32_MAX))};
      int64_t xs = static_cast<int64_t>(ed[i]) * (int64_t{1} << (s > 0 ? s : 0));
      if (xs < INT32_MIN || xs > INT32_MAX) continue;  // outside TFLite's domain
      for (int32_t mm : mults) {
        mrtq_mult m = {0, 0};
        m.mult = mm;
        m.shift = s;
        CHECK_EQ(mrtq_mul_q31_dbl(ed[i], m), peer_mbqm(ed[i], mm, s), "x=%d mult=%d shift=%d", ed[i], mm, s);
        compared++;
      }
    }
  for (long r = 0; r < 1000000; r++) {
    mrtq_mult m = {0, 0};
    m.mult = static_cast<int32_t>(th_range(1LL << 30, INT32_MAX));
    m.shift = static_cast<int32_t>(th_range(-31, 30));
    int left = m.shift > 0 ? m.shift : 0;
    int32_t x = th_i32();
    if (left) x = static_cast<int32_t>(th_range(INT32_MIN >> left, INT32_MAX >> left));
    CHECK_EQ(mrtq_mul_q31_dbl(x, m), peer_mbqm(x, m.mult, m.shift), "x=%d mult=%d shift=%d", x, m.mult, m.shift);
    compared++;
  }
  printf("     %ld inputs compared with gemmlowp\n", compared);
}

int main() {
  TH_RUN(test_srdhm_vs_gemmlowp);
  TH_RUN(test_rdivpot_vs_gemmlowp);
  TH_RUN(test_mul_q31_dbl_vs_gemmlowp);
  return th_finish("test_gemmlowp");
}
#else
int main() { return th_skip("test_gemmlowp", "gemmlowp headers not found (Debian: libgemmlowp-dev)"); }
#endif
