/* The MRTQ_EXTERN link test, a second user unit: MRTQ_EXTERN only, so mrtq
 * gives it declarations and no bodies (see test_extern_use.c). */
#define MRTQ_EXTERN
#include "mrtq.h"
#include "mrtq/vta.h"

typedef int32_t (*extern_srdhm_fn)(int32_t, int32_t);
typedef const char *(*extern_status_str_fn)(mrtq_status);
extern_srdhm_fn extern_use2_srdhm(void);
extern_status_str_fn extern_use2_status_str(void);
int32_t extern_use2_requant(int32_t x, double scale);
int extern_use2_acc_depth(void);

extern_srdhm_fn extern_use2_srdhm(void) { return mrtq_srdhm; }
extern_status_str_fn extern_use2_status_str(void) { return mrtq_status_str; }

/* x * scale, Q31 single rounding (INT32_MIN when the scale is refused). */
int32_t extern_use2_requant(int32_t x, double scale) {
  mrtq_mult m = {0, 0};
  if (mrtq_mult_q31(scale, &m) != MRTQ_OK) return INT32_MIN;
  return mrtq_mul_q31_rndnu(x, m);
}

/* log2 of the default VTA configuration's ACC depth (-1 on error). */
int extern_use2_acc_depth(void) {
  mrtq_vta_config c = mrtq_vta_config_default();
  mrtq_vta_depths d = {0, 0, 0, 0};
  return mrtq_vta_depths_of(&c, &d) == MRTQ_OK ? d.acc : -1;
}
