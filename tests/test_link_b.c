/* Two-translation-unit link test, unit B (see test_link_a.c). */
#include "mrtq.h"

int32_t link_b_requant(int32_t x, double scale);
int32_t link_b_srdhm(int32_t a, int32_t b);
const char *link_b_status(mrtq_status s);

int32_t link_b_requant(int32_t x, double scale) {
  mrtq_mult m = {0, 0};
  if (mrtq_mult_q31(scale, &m) != MRTQ_OK) return INT32_MIN;
  return mrtq_mul_q31_rndnu(x, m);
}
int32_t link_b_srdhm(int32_t a, int32_t b) { return mrtq_srdhm(a, b); }
const char *link_b_status(mrtq_status s) { return mrtq_status_str(s); }
