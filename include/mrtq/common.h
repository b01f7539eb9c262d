/* mrtq/common.h -- status codes, version, linkage macro and the small exact
 * integer helpers every other mrtq header builds on.
 *
 * Layer 1 of mrtq: includes nothing of mrtq. See mrtq.h for the overview. */
#ifndef MRTQ_COMMON_H
#define MRTQ_COMMON_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MRTQ_VERSION_MAJOR 0
#define MRTQ_VERSION_MINOR 1
#define MRTQ_VERSION_PATCH 0
#define MRTQ_VERSION_STRING "0.1.0"
/* One integer that orders releases: major * 10000 + minor * 100 + patch. */
#define MRTQ_VERSION (MRTQ_VERSION_MAJOR * 10000 + MRTQ_VERSION_MINOR * 100 + MRTQ_VERSION_PATCH)

/* Linkage of every public function. Default `static inline`: each translation
 * unit gets its own copy and nothing needs to be linked. Override it (before the
 * first include, identically in every translation unit) for other linkage. */
#ifndef MRTQ_API
#define MRTQ_API static inline
#endif

#if !defined(__cplusplus) && (!defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L)
#error "mrtq needs C11 or later (or C++11)"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Every function that can fail returns one of these. MRTQ_OK is 0, every error
 * is non-zero. Values are stable across versions. */
typedef enum mrtq_status {
  MRTQ_OK = 0,
  MRTQ_EINVAL = 1,      /* bad argument: NULL, NaN, infinity, negative or zero where positive is required */
  MRTQ_ERANGE = 2,      /* a result or parameter falls outside the representable range */
  MRTQ_EOVERFLOW = 3,   /* an accumulator could overflow */
  MRTQ_ESHAPE = 4,      /* shapes, dims or strides that do not fit together */
  MRTQ_EUNSUPPORTED = 5 /* valid request that this build or target cannot carry out */
} mrtq_status;

/* A short English description of `s`; never NULL ("unknown status" for values
 * outside the enum). */
MRTQ_API const char *mrtq_status_str(mrtq_status s) {
  switch (s) {
    case MRTQ_OK: return "ok";
    case MRTQ_EINVAL: return "invalid argument";
    case MRTQ_ERANGE: return "value out of representable range";
    case MRTQ_EOVERFLOW: return "accumulator could overflow";
    case MRTQ_ESHAPE: return "shape mismatch";
    case MRTQ_EUNSUPPORTED: return "unsupported";
  }
  return "unknown status";
}

/* ---- private helpers (mrtq__ prefix: not part of the API, may change) ----
 * All of them are total: defined for every argument value, no undefined or
 * implementation-defined behaviour (right shifts of negative values and
 * out-of-range signed conversions are spelled out portably; compilers reduce
 * them to single instructions). */

/* uint32 -> int32 modulo 2^32. */
MRTQ_API int32_t mrtq__wrap32(uint32_t u) {
  return u <= (uint32_t)INT32_MAX ? (int32_t)u : (int32_t)(u - 2147483648u) - INT32_MAX - 1;
}

/* uint64 -> int64 modulo 2^64. */
MRTQ_API int64_t mrtq__wrap64(uint64_t u) {
  return u <= (uint64_t)INT64_MAX ? (int64_t)u : (int64_t)(u - 9223372036854775808u) - INT64_MAX - 1;
}

/* floor(x / 2^n) for n in [0, 63]; n > 63 acts as 63. */
MRTQ_API int64_t mrtq__asr64(int64_t x, int n) {
  if (n <= 0) return x;
  if (n > 63) n = 63;
  return x < 0 ? ~(~x >> n) : x >> n;
}

/* floor(x / 2^n) for n in [0, 31]; n > 31 acts as 31. */
MRTQ_API int32_t mrtq__asr32(int32_t x, int n) {
  if (n <= 0) return x;
  if (n > 31) n = 31;
  return x < 0 ? ~(~x >> n) : x >> n;
}

/* Saturate an int64 to int32. */
MRTQ_API int32_t mrtq__sat32(int64_t v) {
  return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

/* v is a value of the 8-bit type: [0, 255] unsigned, [-128, 127] signed. */
MRTQ_API int mrtq__in_q8(int32_t v, int is_unsigned) {
  return is_unsigned ? v >= 0 && v <= 255 : v >= -128 && v <= 127;
}

/* max(lo, min(v, hi)) applied as: raise to lo, then cut to hi (so hi wins if lo > hi). */
MRTQ_API int32_t mrtq__clamp64(int64_t v, int32_t lo, int32_t hi) {
  if (v < lo) v = lo;
  if (v > hi) v = hi;
  return (int32_t)v;
}

/* v * 2^k for k >= 0, saturated to int32 (exact: no wrap). */
MRTQ_API int32_t mrtq__shl_sat32(int64_t v, int64_t k) {
  if (v == 0) return 0;
  if (k <= 0) return mrtq__sat32(v);
  if (k >= 32 || v > INT32_MAX || v < INT32_MIN) return v > 0 ? INT32_MAX : INT32_MIN;
  return mrtq__sat32(v * ((int64_t)1 << k)); /* |v| <= 2^31, k <= 31: fits in int64 */
}

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_COMMON_H */
