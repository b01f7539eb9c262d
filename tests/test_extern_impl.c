/* The MRTQ_EXTERN link test, implementation unit: the one translation unit of
 * the program that defines MRTQ_IMPLEMENTATION, so every mrtq body is compiled
 * here, once, with external linkage (test_extern_use.c and
 * test_extern_use2.c see declarations only). Its MRTQ_ON_ERROR is therefore
 * the hook every refusal goes through: it forwards the reason to the test
 * unit's harness (extern_refused, test_extern_use.c). */
#define MRTQ_EXTERN
#define MRTQ_IMPLEMENTATION
void extern_refused(int code, const char *why);
#define MRTQ_ON_ERROR(code, why) extern_refused((int)(code), (why))
#include "mrtq.h"
#include "mrtq/vta.h"

typedef int32_t (*extern_srdhm_fn)(int32_t, int32_t);
typedef const char *(*extern_status_str_fn)(mrtq_status);
extern_srdhm_fn extern_impl_srdhm(void);
extern_status_str_fn extern_impl_status_str(void);

/* The addresses of two functions as the defining unit sees them. */
extern_srdhm_fn extern_impl_srdhm(void) { return mrtq_srdhm; }
extern_status_str_fn extern_impl_status_str(void) { return mrtq_status_str; }
