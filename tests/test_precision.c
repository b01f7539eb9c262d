/* Precision inference (mrtq/precision.h): every rule is sound (the exact
 * worst-case magnitude, computed here in 128-bit arithmetic, fits the
 * inferred precision) over all small precisions, and loose by at most a bit
 * or two (three for conv) from 3 bits up;
 * max_k32, max_k64 and max_k48 are the exact boundaries; max_k_range is
 * exact against 128-bit evaluation of its conditions at K and K + 1 over
 * random and extreme ranges, biases and limits; the type precisions. */
#include "harness.h"
#include "mrtq.h"
#include "oracle.h"

/* the smallest p with |v| <= 2^(p-1) - 1, by search */
static int o_prec(i128 v) {
  int p = 1;
  if (v < 0) v = -v;
  while (((i128)1 << (p - 1)) - 1 < v) p++;
  return p;
}
static i128 o_max(int p) { return ((i128)1 << (p - 1)) - 1; }

static void test_rules(void) {
  int a, b;
  uint64_t k;
  for (a = 1; a <= 33; a++)
    for (b = 1; b <= 33; b++) {
      int need, tight = a >= 3 && b >= 3;
      need = o_prec(o_max(a) + o_max(b));
      CHECK(mrtq_prec_add(a, b) >= need && (!tight || mrtq_prec_add(a, b) <= need + 1));
      need = o_prec(o_max(a) * o_max(b));
      CHECK(mrtq_prec_mul(a, b) >= need && (!tight || mrtq_prec_mul(a, b) <= need + 1));
      need = o_prec(o_max(a > b ? a : b));
      CHECK_EQ(mrtq_prec_max2(a, b), need, "max");
      need = o_prec(o_max(a) + o_max(b));
      CHECK(mrtq_prec_bias(a, b) >= need && (!tight || mrtq_prec_bias(a, b) <= need + 1));
      for (k = 1; k < 5000; k = k * 3 + 1) {
        i128 bound = (i128)k * o_max(a) * o_max(b);
        int r = mrtq_prec_conv(a, b, k);
        CHECK(r == 65 || r >= o_prec(bound)); /* sound (65: beyond every int type) */
        CHECK(!tight || r <= o_prec(bound) + 3); /* close: bitlen(K) against log2(K), and 2^(p-1) - 1 squared */
      }
    }
  for (a = 1; a <= 40; a++)
    for (k = 1; k < 100000; k = k * 2 + 1) {
      int need = o_prec((i128)k * o_max(a));
      CHECK(mrtq_prec_sum(a, k) >= need && (a < 3 || mrtq_prec_sum(a, k) <= need + 1));
    }
  /* the types: int8 data 8 bits (127; -128 needs 9), uint8 9, int32 32 */
  CHECK_EQ(mrtq_prec_of(127), 8, "int8 magnitude");
  CHECK_EQ(mrtq_prec_of(128), 9, "-128");
  CHECK_EQ(mrtq_prec_of(255), 9, "uint8");
  CHECK_EQ(mrtq_prec_of(2147483647u), 32, "int32");
  CHECK_EQ(mrtq_prec_max(8), 127, "2^7 - 1");
  CHECK_EQ(mrtq_bitlen(0), 0, "bitlen 0");
  CHECK_EQ(mrtq_bitlen(1), 1, "bitlen 1");
  CHECK_EQ(mrtq_bitlen(4), 3, "bitlen 4");
  /* invalid arguments */
  CHECK_EQ(mrtq_prec_add(0, 8), 0, "p 0");
  CHECK_EQ(mrtq_prec_conv(8, 8, 0), 0, "K 0");
  CHECK_EQ(mrtq_prec_mul(64, 64), 65, "saturates");
}

/* max_k32: the largest K whose conv precision is <= 32, exactly */
static void test_max_k(void) {
  int a, b;
  for (a = 1; a <= 31; a++)
    for (b = 1; b <= 31; b++) {
      uint64_t k = mrtq_prec_max_k32(a, b);
      if (a + b >= 32) {
        CHECK_EQ(k, 0, "no room");
        continue;
      }
      CHECK(mrtq_prec_conv(a, b, k) <= 32);
      CHECK(mrtq_prec_conv(a, b, k + 1) > 32);
      /* and the real worst case of K products fits int32 */
      CHECK((i128)k * o_max(a) * o_max(b) <= (i128)INT32_MAX);
    }
  CHECK_EQ(mrtq_prec_max_k32(8, 8), 65535, "int8 x int8: 2^16 - 1 products");
  /* huge or invalid precisions: 0, and no int overflow in px + pw */
  CHECK_EQ(mrtq_prec_max_k32(INT32_MAX, INT32_MAX), 0, "no room");
  CHECK_EQ(mrtq_prec_max_k32(1, INT32_MAX), 0, "no room");
  CHECK_EQ(mrtq_prec_max_k32(0, 8), 0, "p 0");
}

/* max_k64 and max_k48: the largest K whose conv precision is <= 64 / 48,
 * exactly, and the real worst case fits int64 / TFLite's -2^47 <= x < 2^47 */
static void test_max_k64(void) {
  int a, b;
  long long n = 0;
  for (a = 0; a <= 66; a++)
    for (b = 0; b <= 66; b++) {
      uint64_t k64 = mrtq_prec_max_k64(a, b), k48 = mrtq_prec_max_k48(a, b);
      n += 2;
      if (a < 1 || b < 1 || a + b >= 64) CHECK_EQ(k64, 0, "k64 no room (%d, %d)", a, b);
      else {
        CHECK(mrtq_prec_conv(a, b, k64) <= 64 && mrtq_prec_conv(a, b, k64 + 1) > 64);
        CHECK((i128)k64 * o_max(a) * o_max(b) <= (i128)INT64_MAX);
      }
      if (a < 1 || b < 1 || a + b >= 48) CHECK_EQ(k48, 0, "k48 no room (%d, %d)", a, b);
      else {
        CHECK(mrtq_prec_conv(a, b, k48) <= 48 && mrtq_prec_conv(a, b, k48 + 1) > 48);
        CHECK((i128)k48 * o_max(a) * o_max(b) < o_pow2(47));
      }
    }
  CHECK_EQ(mrtq_prec_max_k48(17, 9), 4194303, "int16 x int8 into 2^47: 2^22 - 1");
  CHECK_EQ(mrtq_prec_max_k64(17, 9), ((uint64_t)1 << 38) - 1, "int16 x int8 into int64: 2^38 - 1");
  CHECK_EQ(mrtq_prec_max_k64(32, 32), 0, "int32 x int32: none");
  CHECK_EQ(mrtq_prec_max_k64(32, 31), 1, "int32 x int31: one");
  CHECK_EQ(mrtq_prec_max_k64(INT32_MAX, 1), 0, "no room");
  CHECK_EQ(mrtq_prec_max_k48(INT32_MAX, INT32_MAX), 0, "no room");
  printf("  max_k64 / max_k48: %lld outputs compared\n", n);
}

/* the exact conditions at K, in 128-bit arithmetic */
static int o_fits(i128 k, i128 pmin, i128 pmax, i128 bmin, i128 bmax, i128 lo, i128 hi) {
  i128 mn = k * pmin, mx = k * pmax;
  i128 low = mn < 0 ? mn : 0, high = mx > 0 ? mx : 0;
  if (mn + bmin < low) low = mn + bmin;
  if (mx + bmax > high) high = mx + bmax;
  return lo <= low && high <= hi;
}
static int64_t pick64(void) {
  static const int64_t e[] = {INT64_MIN, INT64_MIN + 1, -((int64_t)1 << 47), -((int64_t)1 << 47) + 1, -1, 0, 1,
                              ((int64_t)1 << 47) - 1, (int64_t)1 << 47, INT64_MAX - 1, INT64_MAX};
  uint32_t k = th_rand32() % 4u;
  return k == 0 ? e[th_rand32() % 11u] : k == 1 ? (int64_t)th_range(-100000, 100000) : (int64_t)th_rand64() >> th_range(0, 40);
}
static int32_t pick32(void) {
  static const int32_t e[] = {INT32_MIN, INT32_MIN + 1, -32768, -128, -127, -1, 0, 1, 127, 32767, INT32_MAX};
  return th_rand32() % 3u ? e[th_rand32() % 11u] : th_i32();
}
static void test_max_k_range(void) {
  long long n = 0, n_k = 0;
  int t;
  for (t = 0; t < 200000; t++) {
    int32_t x0 = pick32(), x1 = pick32(), w0 = pick32(), w1 = pick32();
    int64_t b0 = t % 3 ? 0 : pick64(), b1 = t % 3 ? 0 : pick64(), lo, hi;
    i128 c[4], pmin, pmax;
    uint64_t k;
    int i;
    switch (t % 4) {
      case 0: lo = INT64_MIN, hi = INT64_MAX; break;
      case 1: lo = -((int64_t)1 << 47), hi = ((int64_t)1 << 47) - 1; break;
      case 2: lo = INT32_MIN, hi = INT32_MAX; break;
      default: lo = pick64(), hi = pick64(); break;
    }
    if (x0 > x1) { int32_t s = x0; x0 = x1, x1 = s; }
    if (w0 > w1) { int32_t s = w0; w0 = w1, w1 = s; }
    if (b0 > b1) { int64_t s = b0; b0 = b1, b1 = s; }
    k = mrtq_prec_max_k_range(x0, x1, w0, w1, b0, b1, lo, hi);
    n++;
    if (lo > 0 || hi < 0 || b0 < lo || b1 > hi) {
      CHECK_EQ(k, 0, "limits without 0, or a bias outside them");
      continue;
    }
    c[0] = (i128)x0 * w0, c[1] = (i128)x0 * w1, c[2] = (i128)x1 * w0, c[3] = (i128)x1 * w1;
    pmin = pmax = c[0];
    for (i = 1; i < 4; i++) pmin = c[i] < pmin ? c[i] : pmin, pmax = c[i] > pmax ? c[i] : pmax;
    if (k == UINT64_MAX) {
      CHECK(pmin == 0 && pmax == 0 && o_fits(0, 0, 0, b0, b1, lo, hi));
      continue;
    }
    if (k == 0) { /* not even one product (or the bias alone) fits */
      if (o_fits(1, pmin, pmax, b0, b1, lo, hi))
        CHECK_EQ(k, 1, "x [%d, %d] w [%d, %d] b [%lld, %lld] limits [%lld, %lld]", x0, x1, w0, w1, (long long)b0,
                 (long long)b1, (long long)lo, (long long)hi);
      continue;
    }
    n_k++;
    if (!o_fits((i128)k, pmin, pmax, b0, b1, lo, hi) || o_fits((i128)k + 1, pmin, pmax, b0, b1, lo, hi))
      CHECK_EQ(k, -1, "x [%d, %d] w [%d, %d] b [%lld, %lld] limits [%lld, %lld]", x0, x1, w0, w1, (long long)b0,
               (long long)b1, (long long)lo, (long long)hi);
  }
  /* TFLite's 16x8 kernels: int16 x int8 into [-2^47, 2^47 - 1] */
  CHECK_EQ(mrtq_prec_max_k_range(-32768, 32767, -127, 127, 0, 0, -((int64_t)1 << 47), ((int64_t)1 << 47) - 1), 33818640,
           "int16 x int8 (weights -127..127)");
  CHECK_EQ(mrtq_prec_max_k_range(-32768, 32767, -128, 127, 0, 0, -((int64_t)1 << 47), ((int64_t)1 << 47) - 1), 33554431,
           "int16 x int8 (weights -128..127): 2^47 / 2^22 - 1 on the positive side");
  CHECK_EQ(mrtq_prec_max_k_range(-32768, 32767, -128, 127, -((int64_t)1 << 40), (int64_t)1 << 40, -((int64_t)1 << 47),
                                 ((int64_t)1 << 47) - 1), 33292287, "with a bias of +-2^40");
  CHECK_EQ(mrtq_prec_max_k_range(-128, 127, -128, 127, 0, 0, INT32_MIN, INT32_MAX), 131071, "int8 x int8 into int32");
  CHECK_EQ(mrtq_prec_max_k_range(0, 0, -5, 5, 7, 7, 0, 7), UINT64_MAX, "zero products");
  CHECK_EQ(mrtq_prec_max_k_range(0, 0, -5, 5, 7, 8, 0, 7), 0, "a bias outside the limits");
  CHECK_EQ(mrtq_prec_max_k_range(-5, -1, 1, 1, 9, 9, -100, 7), 0, "a bias outside the limits, products negative");
  CHECK_EQ(mrtq_prec_max_k_range(1, 0, 0, 0, 0, 0, -1, 1), 0, "xmin > xmax");
  CHECK_EQ(mrtq_prec_max_k_range(INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, 0, 0, INT64_MIN, INT64_MAX), 1,
           "2^62 once");
  CHECK(n_k > 50000);
  printf("  max_k_range: %lld outputs compared (%lld with a finite K >= 1, checked at K and K + 1)\n", n, n_k);
}

int main(void) {
  TH_RUN(test_rules);
  TH_RUN(test_max_k);
  TH_RUN(test_max_k64);
  TH_RUN(test_max_k_range);
  return th_finish("test_precision");
}
