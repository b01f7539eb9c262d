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
#define MRTQ_VERSION_MINOR 3
#define MRTQ_VERSION_PATCH 0
#define MRTQ_VERSION_STRING "0.3.0"
/* One integer that orders releases: major * 10000 + minor * 100 + patch. */
#define MRTQ_VERSION (MRTQ_VERSION_MAJOR * 10000 + MRTQ_VERSION_MINOR * 100 + MRTQ_VERSION_PATCH)

/* Linkage. Two modes, chosen before the first include of any mrtq header and
 * the same in every translation unit of a program:
 *
 *   default      every public function is `static inline` (MRTQ_API): each
 *                translation unit gets its own copy; nothing to link. MRTQ_API
 *                may be overridden with another internal linkage (`static`,
 *                `static inline __attribute__((always_inline))`, ...).
 *   MRTQ_EXTERN  define it in every translation unit: the headers declare the
 *                public functions with external linkage (MRTQ_API, default
 *                empty; e.g. a visibility attribute) and give no bodies,
 *                except in the one translation unit that also defines
 *                MRTQ_IMPLEMENTATION, which compiles every body once
 *                (xxHash's XXH_IMPLEMENTATION pattern).
 *
 * Any other MRTQ_API without MRTQ_EXTERN (empty, `inline`, `extern`) is not
 * supported: the bodies would be defined in every translation unit.
 * Private helpers (mrtq__ names) are always `static inline`. */
#if defined(MRTQ_EXTERN)
#ifndef MRTQ_API
#define MRTQ_API
#endif
#if defined(MRTQ_IMPLEMENTATION)
#define MRTQ__BODIES 1
#else
#define MRTQ__BODIES 0
#endif
#else
#ifndef MRTQ_API
#define MRTQ_API static inline
#endif
#define MRTQ__BODIES 1
#endif
/* Linkage of the private helpers. */
#define MRTQ__PRIV static inline

/* Refusal reasons. Every mrtq function that refuses its arguments evaluates
 * MRTQ_ON_ERROR(code, why) once, at the refusal, before returning `code`:
 * `code` is the mrtq_status returned, `why` a string literal naming the
 * argument (the parameter or struct field, as the header spells it) and the
 * rule it broke, e.g. "w->zp: must be 0 (oneDNN int8 weights have no zero
 * point)". A status passed on from an inner call is reported once, where it
 * arose. Default: nothing (the strings are not even compiled in). Define it
 * before the first include to log, count or keep the last reason, e.g.
 *   #define MRTQ_ON_ERROR(code, why) my_log_refusal((int)(code), (why))
 * In MRTQ_EXTERN mode the definition seen by the MRTQ_IMPLEMENTATION unit is
 * the one that counts. mrtq itself keeps no state. */
#ifndef MRTQ_ON_ERROR
#define MRTQ_ON_ERROR(code, why) ((void)0)
#endif
/* return MRTQ__ERR(MRTQ_EINVAL, "arg: why"); -- report, then yield the code. */
#define MRTQ__ERR(code, why) (MRTQ_ON_ERROR((code), (why)), (code))

#if !defined(__cplusplus) && (!defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L)
#error "mrtq needs C11 or later (or C++11)"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* Every function that can fail returns one of these. MRTQ_OK is 0, every error
 * is non-zero. Values are stable across versions. Which argument was refused,
 * and why, reaches MRTQ_ON_ERROR (above). */
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
MRTQ_API const char *mrtq_status_str(mrtq_status s);

/* The element type of a quantized operand: one enum wherever an operand's
 * type is chosen. 0 is no type (a zero-initialised operand is refused).
 *   MRTQ_S8   int8_t,   [-128, 127]
 *   MRTQ_U8   uint8_t,  [0, 255]
 *   MRTQ_S16  int16_t,  [-32768, 32767]
 *   MRTQ_S32  int32_t,  [INT32_MIN, INT32_MAX]
 *   MRTQ_S4   signed 4-bit, [-8, 7], packed two per byte in logical order:
 *             element 2i is the LOW nibble (bits 0-3) of byte i, element
 *             2i + 1 the HIGH nibble (bits 4-7); each nibble is sign-extended
 *             (two's complement). An odd count leaves the last high nibble
 *             unused. This is TFLite's int4 packing.
 * Kernels that take only some types say which, and refuse the others. */
typedef enum mrtq_dtype {
  MRTQ_S8 = 1,
  MRTQ_U8 = 2,
  MRTQ_S16 = 3,
  MRTQ_S32 = 4,
  MRTQ_S4 = 5
} mrtq_dtype;

/* Bits per element: 8, 8, 16, 32, 4; 0 for a value outside the enum. */
MRTQ_API int mrtq_dtype_bits(mrtq_dtype t);
/* "s8", "u8", "s16", "s32", "s4"; "unknown" outside the enum. Never NULL. */
MRTQ_API const char *mrtq_dtype_str(mrtq_dtype t);
/* The type's smallest and largest value into *qmin / *qmax.
 * Errors: t outside the enum or a NULL pointer -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_dtype_range(mrtq_dtype t, int32_t *qmin, int32_t *qmax);
/* Bytes that n elements of t occupy: n * bits / 8, rounded up for MRTQ_S4
 * ((n + 1) / 2). Errors: t outside the enum or NULL -> MRTQ_EINVAL; a size
 * that overflows size_t -> MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_dtype_bytes(mrtq_dtype t, size_t n, size_t *bytes);

/* MRTQ_S4 packing (the layout above, TFLite's PackInt8IntoDenseInt /
 * UnpackDenseInt4IntoInt8 with bit width 4).
 *
 * mrtq_s4_pack: src holds n int8 values, each in [-8, 7]; writes (n + 1) / 2
 * bytes to dst: byte i = (src[2i] & 15) | (src[2i + 1] & 15) << 4, and for an
 * odd n the last byte = src[n - 1] & 15 (its unused high nibble written as
 * 0). dst may equal src (packing in place); any other overlap is not allowed.
 * n == 0 writes nothing (src and dst may then be NULL).
 * Errors (nothing written): src or dst NULL with n > 0 -> MRTQ_EINVAL; any
 * src[i] outside [-8, 7] -> MRTQ_ERANGE (TFLite's packer has no check: it
 * keeps the low 4 bits, so 8 would come back as -8).
 *
 * mrtq_s4_unpack: src holds n MRTQ_S4 elements ((n + 1) / 2 bytes); writes n
 * int8 values to dst: dst[j] = nibble j % 2 (0: low, 1: high) of byte j / 2,
 * sign-extended from 4 bits (a nibble v >= 8 is v - 16), so every result is in
 * [-8, 7]. The unused high nibble of an odd n is never read into dst. dst may
 * equal src (unpacking in place, dst then needs n bytes); any other overlap
 * is not allowed. n == 0 writes nothing (NULL allowed). Errors: src or dst
 * NULL with n > 0 -> MRTQ_EINVAL. Bit-exact with TFLite's
 * UnpackDenseInt4IntoInt8. */
MRTQ_API mrtq_status mrtq_s4_pack(const int8_t *src, size_t n, void *dst);
MRTQ_API mrtq_status mrtq_s4_unpack(const void *src, size_t n, int8_t *dst);

/* Memory layout of 4-D activations, shared by conv, pooling and the VTA
 * drivers: NCHW activations go with OIHW weights ([o][c/groups][kh][kw]),
 * NHWC activations with OHWI weights ([o][kh][kw][c/groups]); an output
 * follows its input. */
typedef enum mrtq_layout { MRTQ_NCHW = 0, MRTQ_NHWC = 1 } mrtq_layout;

/* A quantized operand of a kernel: its data, the type of its elements and
 * its zero point(s). zp_ch (weights only, or NULL) gives one zero point per
 * output channel, in place of zp (which must then be 0); an activation with
 * zp_ch set is refused. Each kernel states which element types it takes and
 * refuses the others (MRTQ_EUNSUPPORTED; type 0, a zero-initialised operand,
 * is not a type: MRTQ_EINVAL). Every zero point must be a value of `type`. */
typedef struct mrtq_qoperand {
  const void *data;
  mrtq_dtype type;
  int32_t zp;
  const int32_t *zp_ch;
} mrtq_qoperand;

/* ======================= bodies ======================= */
#if MRTQ__BODIES

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

MRTQ_API int mrtq_dtype_bits(mrtq_dtype t) {
  switch (t) {
    case MRTQ_S8: case MRTQ_U8: return 8;
    case MRTQ_S16: return 16;
    case MRTQ_S32: return 32;
    case MRTQ_S4: return 4;
  }
  return 0;
}

MRTQ_API const char *mrtq_dtype_str(mrtq_dtype t) {
  switch (t) {
    case MRTQ_S8: return "s8";
    case MRTQ_U8: return "u8";
    case MRTQ_S16: return "s16";
    case MRTQ_S32: return "s32";
    case MRTQ_S4: return "s4";
  }
  return "unknown";
}

MRTQ_API mrtq_status mrtq_dtype_range(mrtq_dtype t, int32_t *qmin, int32_t *qmax) {
  int32_t lo, hi;
  switch (t) {
    case MRTQ_S8: lo = -128, hi = 127; break;
    case MRTQ_U8: lo = 0, hi = 255; break;
    case MRTQ_S16: lo = -32768, hi = 32767; break;
    case MRTQ_S32: lo = INT32_MIN, hi = INT32_MAX; break;
    case MRTQ_S4: lo = -8, hi = 7; break;
    default: return MRTQ__ERR(MRTQ_EINVAL, "t: not an mrtq_dtype");
  }
  if (!qmin || !qmax) return MRTQ__ERR(MRTQ_EINVAL, "qmin, qmax: NULL");
  *qmin = lo, *qmax = hi;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_dtype_bytes(mrtq_dtype t, size_t n, size_t *bytes) {
  int bits = mrtq_dtype_bits(t);
  if (!bits) return MRTQ__ERR(MRTQ_EINVAL, "t: not an mrtq_dtype");
  if (!bytes) return MRTQ__ERR(MRTQ_EINVAL, "bytes: NULL");
  if (bits == 4) {
    *bytes = n / 2 + (n & 1);
    return MRTQ_OK;
  }
  if (n > SIZE_MAX / (size_t)(bits / 8)) return MRTQ__ERR(MRTQ_ERANGE, "n: n elements overflow size_t bytes");
  *bytes = n * (size_t)(bits / 8);
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_s4_pack(const int8_t *src, size_t n, void *dst) {
  size_t i;
  uint8_t *d = (uint8_t *)dst;
  if (!n) return MRTQ_OK;
  if (!src) return MRTQ__ERR(MRTQ_EINVAL, "src: NULL");
  if (!dst) return MRTQ__ERR(MRTQ_EINVAL, "dst: NULL");
  for (i = 0; i < n; i++)
    if (src[i] < -8 || src[i] > 7) return MRTQ__ERR(MRTQ_ERANGE, "src[i]: outside [-8, 7] (MRTQ_S4's range), for every i < n");
  /* forward: byte i is written after src[2i], src[2i + 1] (and src[i], i <= 2i) were read */
  for (i = 0; i + 1 < n; i += 2) {
    uint8_t lo = (uint8_t)((uint8_t)src[i] & 15u), hi = (uint8_t)((uint8_t)src[i + 1] & 15u);
    d[i / 2] = (uint8_t)(lo | hi << 4);
  }
  if (n & 1) d[n / 2] = (uint8_t)((uint8_t)src[n - 1] & 15u);
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_s4_unpack(const void *src, size_t n, int8_t *dst) {
  const uint8_t *s = (const uint8_t *)src;
  size_t i;
  if (!n) return MRTQ_OK;
  if (!src) return MRTQ__ERR(MRTQ_EINVAL, "src: NULL");
  if (!dst) return MRTQ__ERR(MRTQ_EINVAL, "dst: NULL");
  /* backward: dst[2i], dst[2i + 1] are written after byte i (and every later
     byte) was read, so dst == src works */
  if (n & 1) {
    uint8_t b = s[n / 2];
    dst[n - 1] = (int8_t)((int)(b & 15u) - (b & 8u ? 16 : 0));
  }
  for (i = n / 2; i-- > 0;) {
    uint8_t b = s[i];
    int lo = (int)(b & 15u), hi = (int)(b >> 4);
    dst[2 * i + 1] = (int8_t)(hi >= 8 ? hi - 16 : hi);
    dst[2 * i] = (int8_t)(lo >= 8 ? lo - 16 : lo);
  }
  return MRTQ_OK;
}

#endif /* MRTQ__BODIES */

/* ---- private helpers (mrtq__ prefix: not part of the API, may change) ----
 * All of them are total: defined for every argument value, no undefined or
 * implementation-defined behaviour (right shifts of negative values and
 * out-of-range signed conversions are spelled out portably; compilers reduce
 * them to single instructions). */

/* uint32 -> int32 modulo 2^32. */
MRTQ__PRIV int32_t mrtq__wrap32(uint32_t u) {
  return u <= (uint32_t)INT32_MAX ? (int32_t)u : (int32_t)(u - 2147483648u) - INT32_MAX - 1;
}

/* uint64 -> int64 modulo 2^64. */
MRTQ__PRIV int64_t mrtq__wrap64(uint64_t u) {
  return u <= (uint64_t)INT64_MAX ? (int64_t)u : (int64_t)(u - 9223372036854775808u) - INT64_MAX - 1;
}

/* floor(x / 2^n) for n in [0, 63]; n > 63 acts as 63. */
MRTQ__PRIV int64_t mrtq__asr64(int64_t x, int n) {
  if (n <= 0) return x;
  if (n > 63) n = 63;
  return x < 0 ? ~(~x >> n) : x >> n;
}

/* floor(x / 2^n) for n in [0, 31]; n > 31 acts as 31. */
MRTQ__PRIV int32_t mrtq__asr32(int32_t x, int n) {
  if (n <= 0) return x;
  if (n > 31) n = 31;
  return x < 0 ? ~(~x >> n) : x >> n;
}

/* Saturate an int64 to int32. */
MRTQ__PRIV int32_t mrtq__sat32(int64_t v) {
  return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

/* t is one of mrtq_dtype's values. */
MRTQ__PRIV int mrtq__dtype_ok(mrtq_dtype t) {
  return t == MRTQ_S8 || t == MRTQ_U8 || t == MRTQ_S16 || t == MRTQ_S32 || t == MRTQ_S4;
}

/* t is MRTQ_S8 or MRTQ_U8. */
MRTQ__PRIV int mrtq__dtype_q8(mrtq_dtype t) { return t == MRTQ_S8 || t == MRTQ_U8; }

/* v is a value of type t (false for a t outside the enum). */
MRTQ__PRIV int mrtq__in_type(int64_t v, mrtq_dtype t) {
  switch (t) {
    case MRTQ_S8: return v >= -128 && v <= 127;
    case MRTQ_U8: return v >= 0 && v <= 255;
    case MRTQ_S16: return v >= -32768 && v <= 32767;
    case MRTQ_S32: return v >= INT32_MIN && v <= INT32_MAX;
    case MRTQ_S4: return v >= -8 && v <= 7;
  }
  return 0;
}

/* t is MRTQ_S8 or MRTQ_U8 (what the 8-bit kernels take): MRTQ_OK, or the
 * refusal naming the argument `name` (a string literal): MRTQ_EINVAL for a
 * value outside mrtq_dtype (0 included: a zero-initialised struct),
 * MRTQ_EUNSUPPORTED for another type. One rule for every 8-bit kernel. */
#define MRTQ__Q8_TYPE(t, name)                                                                          \
  (mrtq__dtype_q8(t) ? MRTQ_OK                                                                          \
   : !mrtq__dtype_ok(t) ? MRTQ__ERR(MRTQ_EINVAL, name ": not an mrtq_dtype (0: a zero-initialised operand)") \
                        : MRTQ__ERR(MRTQ_EUNSUPPORTED, name ": must be MRTQ_S8 or MRTQ_U8"))

/* t is MRTQ_S8, MRTQ_U8 or MRTQ_S16 (the TFLite kernels that also have an
 * int16 form): MRTQ_OK, or the refusal naming `name` as MRTQ__Q8_TYPE does. */
#define MRTQ__Q816_TYPE(t, name)                                                                         \
  (mrtq__dtype_q8(t) || (t) == MRTQ_S16 ? MRTQ_OK                                                       \
   : !mrtq__dtype_ok(t) ? MRTQ__ERR(MRTQ_EINVAL, name ": not an mrtq_dtype (0: a zero-initialised operand)") \
                        : MRTQ__ERR(MRTQ_EUNSUPPORTED, name ": must be MRTQ_S8, MRTQ_U8 or MRTQ_S16"))

/* Element i of an array of type t (t in the enum; s4 in the packing above).
 * p may have any alignment: wider types are read by byte copies. */
MRTQ__PRIV int32_t mrtq__load(const void *p, size_t i, mrtq_dtype t) {
  switch (t) {
    case MRTQ_S8: return ((const int8_t *)p)[i];
    case MRTQ_U8: return ((const uint8_t *)p)[i];
    case MRTQ_S16: {
      int16_t v;
      memcpy(&v, (const uint8_t *)p + 2 * i, 2);
      return v;
    }
    case MRTQ_S32: {
      int32_t v;
      memcpy(&v, (const uint8_t *)p + 4 * i, 4);
      return v;
    }
    case MRTQ_S4: {
      uint8_t b = ((const uint8_t *)p)[i >> 1];
      int32_t v = (int32_t)((i & 1) ? b >> 4 : b & 15);
      return v >= 8 ? v - 16 : v;
    }
  }
  return 0;
}

/* Store v (already a value of t) as element i of an array of type t; an s4
 * store changes only its own nibble. p may have any alignment. */
MRTQ__PRIV void mrtq__store(void *p, size_t i, mrtq_dtype t, int32_t v) {
  switch (t) {
    case MRTQ_S8: ((int8_t *)p)[i] = (int8_t)v; return;
    case MRTQ_U8: ((uint8_t *)p)[i] = (uint8_t)v; return;
    case MRTQ_S16: {
      int16_t h = (int16_t)v;
      memcpy((uint8_t *)p + 2 * i, &h, 2);
      return;
    }
    case MRTQ_S32: memcpy((uint8_t *)p + 4 * i, &v, 4); return;
    case MRTQ_S4: {
      uint8_t *b = (uint8_t *)p + (i >> 1), nib = (uint8_t)((uint32_t)v & 15u);
      *b = (i & 1) ? (uint8_t)((*b & 0x0F) | (nib << 4)) : (uint8_t)((*b & 0xF0) | nib);
      return;
    }
  }
}

/* max(lo, min(v, hi)) applied as: raise to lo, then cut to hi (so hi wins if lo > hi). */
MRTQ__PRIV int32_t mrtq__clamp64(int64_t v, int32_t lo, int32_t hi) {
  if (v < lo) v = lo;
  if (v > hi) v = hi;
  return (int32_t)v;
}

/* v * 2^k for k >= 0, saturated to int32 (exact: no wrap). */
MRTQ__PRIV int32_t mrtq__shl_sat32(int64_t v, int64_t k) {
  if (v == 0) return 0;
  if (k <= 0) return mrtq__sat32(v);
  if (k >= 32 || v > INT32_MAX || v < INT32_MIN) return v > 0 ? INT32_MAX : INT32_MIN;
  return mrtq__sat32(v * ((int64_t)1 << k)); /* |v| <= 2^31, k <= 31: fits in int64 */
}

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_COMMON_H */
