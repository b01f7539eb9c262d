/* Shared code of the mrtq libFuzzer harnesses (tests/fuzz/fuzz_*.c).
 *
 * Include this before any mrtq header: it installs the MRTQ_ON_ERROR hook
 * (counts refusal reasons). Every harness defines LLVMFuzzerTestOneInput and
 * reads its arguments from the input with the fz_* readers below (past the
 * end of the input they read zeros). A broken contract prints ONE line
 *   fuzz: <file>:<line>: <what>
 * to stderr and aborts (libFuzzer then saves the input as a crash).
 *
 * Known defects: a harness steps around a defect already reported (so the
 * test step stays green) with FZ_KNOWN(n, cond): the input is skipped or
 * adjusted when cond holds; n is the defect's number in the fuzzing report
 * (tests/fuzz/README.md). -DFZ_STRICT=0 turns every guard off, -DFZ_STRICT=n
 * only defect n's, so the inputs saved under tests/fuzz/crashes/<harness>/
 * reproduce (tests/fuzz/run.sh -s). */
#ifndef MRTQ_FUZZ_H
#define MRTQ_FUZZ_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef MRTQ_COMMON_H
#error "include fuzz.h before any mrtq header: it defines MRTQ_ON_ERROR"
#endif

/* ---- refusal reasons ----
 * The last reason reported and how many were: every refusal of every header
 * must report exactly one non-empty reason (fz_reason_end, FZ_CALL). */
static const char *fz_why;
static long fz_why_count;
#define MRTQ_ON_ERROR(code, why) ((void)(code), fz_why = (why), fz_why_count++)

/* ---- contract violations ---- */
#define FZ_FAIL(...)                                         \
  do {                                                       \
    fprintf(stderr, "fuzz: %s:%d: ", __FILE__, __LINE__);    \
    fprintf(stderr, __VA_ARGS__);                            \
    fputc('\n', stderr);                                     \
    fflush(stderr);                                          \
    abort();                                                 \
  } while (0)
#define FZ_CHECK(cond, ...)                                                          \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      fprintf(stderr, "fuzz: %s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                                  \
      fputc('\n', stderr);                                                           \
      fflush(stderr);                                                                \
      abort();                                                                       \
    }                                                                                \
  } while (0)
/* Integers equal; the message gives both values and the context. */
#define FZ_EQ(got, want, ...)                                                                        \
  do {                                                                                               \
    long long fz_g_ = (long long)(got), fz_w_ = (long long)(want);                                   \
    if (fz_g_ != fz_w_) {                                                                            \
      fprintf(stderr, "fuzz: %s:%d: %s = %lld, want %lld: ", __FILE__, __LINE__, #got, fz_g_, fz_w_); \
      fprintf(stderr, __VA_ARGS__);                                                                  \
      fputc('\n', stderr);                                                                           \
      fflush(stderr);                                                                                \
      abort();                                                                                       \
    }                                                                                                \
  } while (0)

#ifdef FZ_STRICT
#define FZ_KNOWN(n, cond) ((FZ_STRICT) != 0 && (FZ_STRICT) != (n) && (cond))
#else
#define FZ_KNOWN(n, cond) (cond)
#endif

/* ---- reading the input ---- */
typedef struct fz {
  const uint8_t *p;
  size_t n;
} fz;

static inline uint64_t fz_bytes(fz *f, int k) { /* k <= 8 bytes, little-endian */
  uint64_t v = 0;
  int i;
  for (i = 0; i < k; i++) {
    uint64_t b = 0;
    if (f->n) b = *f->p++, f->n--;
    v |= b << (8 * i);
  }
  return v;
}
static inline uint8_t fz_u8(fz *f) { return (uint8_t)fz_bytes(f, 1); }
static inline uint16_t fz_u16(fz *f) { return (uint16_t)fz_bytes(f, 2); }
static inline uint32_t fz_u32(fz *f) { return (uint32_t)fz_bytes(f, 4); }
static inline uint64_t fz_u64(fz *f) { return fz_bytes(f, 8); }
static inline int fz_bool(fz *f) { return fz_u8(f) & 1; }
/* A rare branch (about k in 256), never taken on the zeros past the end of
 * the input: short inputs take the ordinary, valid choices. */
static inline int fz_rare(fz *f, int k) { return fz_u8(f) >= 256 - k; }

/* Uniform-ish in [lo, hi] (inclusive), reading only as many bytes as needed. */
static inline uint64_t fz_range(fz *f, uint64_t lo, uint64_t hi) {
  uint64_t span = hi - lo, v;
  int k = 0;
  if (hi <= lo) return lo;
  while (k < 8 && (span >> (8 * k))) k++;
  v = fz_bytes(f, k);
  return span == UINT64_MAX ? v : lo + v % (span + 1);
}
static inline int64_t fz_irange(fz *f, int64_t lo, int64_t hi) {
  return (int64_t)((uint64_t)lo + fz_range(f, 0, (uint64_t)hi - (uint64_t)lo));
}

/* An int32: often an edge (0, +-1, powers of two and their neighbours,
 * INT32_MIN / MAX), else arbitrary. */
static inline int32_t fz_i32(fz *f) {
  uint8_t mode = fz_u8(f);
  if (mode < 96) {
    int k = (int)(mode % 32), d = (int)(mode / 32) - 1; /* 2^k - 1, 2^k, 2^k + 1 */
    int64_t v = ((int64_t)1 << k) + d;
    if (fz_bool(f)) v = -v;
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
  }
  if (mode < 104) return mode & 1 ? INT32_MIN : INT32_MAX;
  if (mode < 136) return (int32_t)fz_irange(f, -300, 300);
  return (int32_t)fz_u32(f);
}
/* An int: small values mostly, sometimes any int. */
static inline int fz_int(fz *f, int lo, int hi) {
  if (fz_rare(f, 16)) return (int)(int32_t)fz_u32(f);
  return (int)fz_irange(f, lo, hi);
}

/* A double: raw bits, a special value, a power of two (times 1 +- ulps), or
 * a value in [2^-40, 2^40]. */
static inline double fz_double(fz *f) {
  uint8_t mode = fz_u8(f);
  uint64_t u;
  double d;
  switch (mode % 8) {
    case 0: u = fz_u64(f); memcpy(&d, &u, sizeof d); return d;
    case 1: {
      static const double sp[] = {0.0, -0.0, 1.0, -1.0, 0.5, 1e-6, 1.5e-5, 2e-5, 1.0 / 64, 1e300, 1e-300, 4.9e-324,
                                  2.2250738585072014e-308, 1.7976931348623157e308, 3.4028234663852886e38,
                                  1.17549435e-38, 1.401298464324817e-45};
      d = sp[fz_u8(f) % (sizeof sp / sizeof sp[0])];
      if (fz_u8(f) == 0) { u = 0x7ff0000000000000ull | (fz_bool(f) ? 1 : 0); memcpy(&d, &u, sizeof d); }
      return d;
    }
    case 2:
    case 3: { /* 2^e * (1 + k ulp) */
      d = ldexp(1.0, (int)fz_irange(f, -1074, 1023));
      memcpy(&u, &d, sizeof u);
      u += (uint64_t)fz_irange(f, d < 1e-307 ? 0 : -4, 4);
      memcpy(&d, &u, sizeof d);
      return d;
    }
    case 4: { /* near a rounding tie of the Q31 / Q15 encoders: (m + 1/2 + eps) 2^-F */
      int F = fz_bool(f) ? 31 : 15;
      double m = (double)fz_range(f, (uint64_t)1 << (F - 1), ((uint64_t)1 << F) - 1);
      int e = (int)fz_irange(f, -40, 40);
      double t = (m + 0.5) / (double)((uint64_t)1 << F);
      memcpy(&u, &t, sizeof u);
      u += (uint64_t)fz_irange(f, -2, 2);
      memcpy(&t, &u, sizeof t);
      return ldexp(t, e);
    }
    default: {
      double m = 1.0 + (double)fz_u32(f) / 4294967296.0;
      int e = (int)fz_irange(f, -40, 40);
      m = ldexp(m, e);
      return (mode & 8) ? -m : m;
    }
  }
}
static inline float fz_float(fz *f) {
  uint8_t mode = fz_u8(f);
  if (mode < 64) {
    uint32_t u = fz_u32(f);
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
  }
  if (mode < 128) return (float)fz_irange(f, -300, 300) + (float)fz_irange(f, -2, 2) * 0.5f;
  return (float)fz_double(f);
}

/* Fill n bytes: the input's bytes while they last, then a generator seeded
 * from what was read (so short inputs still give varied data). */
static inline void fz_fill(fz *f, void *dst, size_t n) {
  uint8_t *d = (uint8_t *)dst;
  size_t k = n < f->n ? n : f->n, i;
  uint32_t s = 0x9e3779b9u ^ (uint32_t)n;
  memcpy(d, f->p, k);
  f->p += k, f->n -= k;
  for (i = 0; i < k; i++) s = s * 31u + d[i];
  for (i = k; i < n; i++) {
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    d[i] = (uint8_t)(s >> 8);
  }
}

/* ---- guarded output buffers ----
 * fz_buf_new gives n usable bytes with FZ_GUARD canary bytes either side and
 * the n bytes filled with the canary too. After a refusal nothing may have
 * changed (fz_buf_intact); after a success the guards must be intact
 * (fz_guards_intact). fz_written compares two runs with different canaries:
 * equal outputs mean every byte of the extent was written. */
#define FZ_GUARD 64
typedef struct fz_buf {
  uint8_t *base;
  size_t n, off; /* off: FZ_GUARD plus a misalignment in [0, 63] */
  uint8_t canary;
} fz_buf;

static inline void *fz_buf_new_at(fz_buf *b, size_t n, uint8_t canary, size_t misalign) {
  b->off = FZ_GUARD + misalign % 64;
  b->base = (uint8_t *)malloc(n + b->off + FZ_GUARD);
  if (!b->base) FZ_FAIL("out of memory (%zu bytes)", n);
  memset(b->base, canary, n + b->off + FZ_GUARD);
  b->n = n, b->canary = canary;
  return b->base + b->off;
}
static inline void *fz_buf_new(fz_buf *b, size_t n, uint8_t canary) { return fz_buf_new_at(b, n, canary, 0); }
static inline void *fz_buf_data(const fz_buf *b) { return b->base + b->off; }
static inline void fz_buf_free(fz_buf *b) { free(b->base), b->base = NULL; }
static inline int fz_span_is(const uint8_t *p, size_t n, uint8_t c) {
  size_t i;
  for (i = 0; i < n; i++)
    if (p[i] != c) return 0;
  return 1;
}
static inline int fz_guards_intact(const fz_buf *b) {
  return fz_span_is(b->base, b->off, b->canary) && fz_span_is(b->base + b->off + b->n, FZ_GUARD, b->canary);
}
static inline int fz_buf_intact(const fz_buf *b) { return fz_span_is(b->base, b->n + b->off + FZ_GUARD, b->canary); }
/* Two runs into a and b (different canaries) wrote every byte of the extent:
 * their outputs are equal. */
static inline int fz_same_output(const fz_buf *a, const fz_buf *b) {
  return a->n == b->n && memcmp(fz_buf_data(a), fz_buf_data(b), a->n) == 0;
}

/* After a call that returned st with output buffer b: a refusal wrote
 * nothing (and, reported one reason); success stayed
 * within the extent. `what` names the call. */
#define fz_after(b, st, what)                                                                          \
  do {                                                                                                 \
    if ((st) != 0) {                                                                                   \
      if (!fz_buf_intact(b)) FZ_FAIL("%s refused (status %d) but wrote to its output", what, (int)(st)); \
    } else if (!fz_guards_intact(b)) {                                                                 \
      FZ_FAIL("%s wrote outside its output extent (%zu bytes)", what, (b)->n);                         \
    }                                                                                                  \
  } while (0)

/* Call-site bookkeeping of refusal reasons: fz_reason_begin() before the call,
 * fz_reason_end(st, what) after it. */
static long fz_why_before;
static inline void fz_reason_begin(void) { fz_why = NULL, fz_why_before = fz_why_count; }
#define fz_reason_end(st, what)                                                                         \
  do {                                                                                                  \
    if ((st) != 0 &&                                                                                    \
        (fz_why_count - fz_why_before != 1 || !fz_why || !*fz_why))                                    \
      FZ_FAIL("%s refused (status %d) with %ld reasons reported (want 1)", what, (int)(st),             \
              fz_why_count - fz_why_before);                                                            \
  } while (0)

/* A status-returning call: exactly one reason on a refusal, none on success. */
#define FZ_CALL(st, call, what)                                                                         \
  do {                                                                                                  \
    fz_reason_begin();                                                                                  \
    (st) = (call);                                                                                      \
    fz_reason_end(st, what);                                                                            \
    if ((st) == MRTQ_OK && fz_why_count != fz_why_before) FZ_FAIL("%s succeeded but reported a reason", what); \
  } while (0)

/* A size in [lo, hi], sometimes 0 or huge (SIZE_MAX, SIZE_MAX / 2, 2^32, 2^62,
 * 65536): shapes that must be refused or skipped as too big to run. */
static inline size_t fz_dim(fz *f, size_t lo, size_t hi) {
  uint8_t m = fz_u8(f);
  if (m >= 250) return 0;
  if (m >= 247) {
    static const size_t big[] = {SIZE_MAX, SIZE_MAX / 2, (size_t)1 << 32, (size_t)1 << 62, 65536};
    return big[fz_range(f, 0, 4)];
  }
  return (size_t)fz_range(f, lo, hi);
}
/* Product of sizes, or 0 when it would exceed lim. */
static inline size_t fz_prod(const size_t *d, int nd, size_t lim) {
  size_t p = 1;
  int i;
  for (i = 0; i < nd; i++) {
    if (d[i] && p > lim / d[i]) return 0;
    p *= d[i];
  }
  return p <= lim ? p : 0;
}

#endif /* MRTQ_FUZZ_H */
