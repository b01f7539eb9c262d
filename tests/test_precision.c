/* Precision inference (mrtq/precision.h): every rule is sound (the exact
 * worst-case magnitude, computed here in 128-bit arithmetic, fits the
 * inferred precision) over all small precisions, and loose by at most a bit
 * or two (three for conv) from 3 bits up;
 * max_k32 is the exact boundary; the type precisions. */
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

int main(void) {
  TH_RUN(test_rules);
  TH_RUN(test_max_k);
  return th_finish("test_precision");
}
