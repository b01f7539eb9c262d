/* Two-translation-unit link test, unit A: both units include mrtq.h and use
 * the same functions; the program must link (no duplicate or missing symbols)
 * and both copies must agree with each other and with hand-checkable values. */
#include "harness.h"
#include "mrtq.h"

int32_t link_b_requant(int32_t x, double scale);
int32_t link_b_srdhm(int32_t a, int32_t b);
const char *link_b_status(mrtq_status s);

static void test_two_units_agree(void) {
  mrtq_mult m = {0, 0};
  int32_t x;
  CHECK_EQ(mrtq_mult_q31(0.25, &m), MRTQ_OK, "encode");
  for (x = -1000; x <= 1000; x += 7) {
    CHECK_EQ(link_b_requant(x, 0.25), mrtq_mul_q31_rndnu(x, m), "x=%d", x);
    CHECK_EQ(link_b_srdhm(x, INT32_MAX), mrtq_srdhm(x, INT32_MAX), "x=%d", x);
  }
  /* 0.25 * 6 = 1.5 rounds up to 2 (single rounding, ties toward +inf) */
  CHECK_EQ(link_b_requant(6, 0.25), 2, "1.5");
  CHECK(strcmp(link_b_status(MRTQ_EINVAL), mrtq_status_str(MRTQ_EINVAL)) == 0);
}

int main(void) {
  TH_RUN(test_two_units_agree);
  return th_finish("test_link");
}
