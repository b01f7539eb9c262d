/* A small test harness for mrtq (C and C++).
 *
 * A test binary registers cases with TH_RUN(fn); each case makes any number of
 * checks. At the end th_finish() prints "SUITE: N passed, N failed" counting
 * cases and returns the exit status (0, or 1 on any failure). Exit 77 means
 * skipped (th_skip). The test command sums these lines. */
#ifndef MRTQ_TEST_HARNESS_H
#define MRTQ_TEST_HARNESS_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int th_passed, th_failed;
static long th_case_fail;
static long long th_checks;

static inline void th_failf(const char *file, int line, const char *fmt, ...) {
  th_case_fail++;
  if (th_case_fail <= 8) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "  %s:%d: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
  }
}

#define CHECK(cond) \
  do { th_checks++; if (!(cond)) th_failf(__FILE__, __LINE__, "check failed: %s", #cond); } while (0)
/* Integer equality with context printed on failure (ctx: a printf format + args). */
#define CHECK_EQ(got, want, ...)                                                                       \
  do {                                                                                                 \
    long long th_g_ = (long long)(got), th_w_ = (long long)(want);                                     \
    th_checks++;                                                                                       \
    if (th_g_ != th_w_) {                                                                              \
      char th_b_[256];                                                                                 \
      snprintf(th_b_, sizeof th_b_, __VA_ARGS__);                                                      \
      th_failf(__FILE__, __LINE__, "%s = %lld, want %lld [%s]", #got, th_g_, th_w_, th_b_);          \
    }                                                                                                  \
  } while (0)

/* ---- refusal reasons ----
 * Every mrtq refusal evaluates MRTQ_ON_ERROR(code, why) once; the tests keep
 * the last one, so a check can ask for the reason, not just the code. This
 * header must come before the first mrtq include (it defines the hook). */
#ifdef MRTQ_COMMON_H
#error "include harness.h before any mrtq header: it defines MRTQ_ON_ERROR"
#endif
static const char *th_why;
static int th_why_code = -1, th_why_count;
/* With MRTQ_WHY_LOG=file in the environment, every reason a CHECK_REFUSED
 * verified is appended to that file (tests/why_coverage.py reads it). */
static inline void th_log_why(const char *why) {
  const char *path = getenv("MRTQ_WHY_LOG");
  FILE *f;
  if (!path || !*path || !(f = fopen(path, "a"))) return;
  fprintf(f, "%s\n", why);
  fclose(f);
}
#define MRTQ_ON_ERROR(code, why) (th_why = (why), th_why_code = (int)(code), th_why_count++)
/* `call` returns `code`, and the reason it reported contains `substr` (the
 * argument's name and the rule, e.g. "w->zp"). Reported exactly once. */
#define CHECK_REFUSED(call, code, substr)                                                              \
  do {                                                                                                 \
    int th_st_, th_n_ = th_why_count;                                                                  \
    th_why = NULL;                                                                                     \
    th_st_ = (int)(call);                                                                              \
    th_checks++;                                                                                       \
    if (th_st_ != (int)(code))                                                                         \
      th_failf(__FILE__, __LINE__, "%s returned %d, want %d", #call, th_st_, (int)(code));            \
    else if (!th_why || th_why_code != (int)(code) || !strstr(th_why, (substr)))                      \
      th_failf(__FILE__, __LINE__, "%s: reason \"%s\" (code %d), want one naming \"%s\"", #call,       \
               th_why ? th_why : "(none reported)", th_why_code, (substr));                            \
    else if (th_why_count - th_n_ != 1)                                                                \
      th_failf(__FILE__, __LINE__, "%s: %d reasons reported, want 1", #call, th_why_count - th_n_);    \
    else                                                                                               \
      th_log_why(th_why);                                                                              \
  } while (0)

static inline void th_run(const char *name, void (*fn)(void)) {
  long long before = th_checks;
  th_case_fail = 0;
  fn();
  if (th_checks == before) th_failf(__FILE__, __LINE__, "%s made no checks", name);
  if (th_case_fail) {
    th_failed++;
    printf("FAIL %s (%ld of %lld checks failed)\n", name, th_case_fail, th_checks - before);
  } else {
    th_passed++;
    printf("ok   %s (%lld checks)\n", name, th_checks - before);
  }
  fflush(stdout);
}
#define TH_RUN(fn) th_run(#fn, fn)

static inline int th_finish(const char *suite) {
  printf("%s: %d passed, %d failed\n", suite, th_passed, th_failed);
  return th_failed ? 1 : 0;
}

static inline int th_skip(const char *suite, const char *why) {
  printf("%s: skipped: %s\n", suite, why);
  return 77;
}

/* ---- seeded random numbers (splitmix64) ---- */
static uint64_t th_state = 0x6d727471u; /* "mrtq" */
static inline uint64_t th_rand64(void) {
  uint64_t z = (th_state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}
static inline uint32_t th_rand32(void) { return (uint32_t)(th_rand64() >> 32); }
/* Uniform in [lo, hi] (inclusive), hi >= lo. */
static inline int64_t th_range(int64_t lo, int64_t hi) {
  uint64_t span = (uint64_t)hi - (uint64_t)lo + 1u;
  return span ? (int64_t)((uint64_t)lo + th_rand64() % span) : (int64_t)th_rand64();
}
/* An int32 drawn from a mix: uniform, small, near powers of two, extremes. */
static inline int32_t th_i32(void) {
  uint32_t kind = th_rand32() % 8u;
  int k = (int)(th_rand32() % 31u);
  int32_t sign = (th_rand32() & 1u) ? -1 : 1;
  switch (kind) {
    case 0: return (int32_t)th_range(-300, 300);
    case 1: return sign * ((int32_t)1 << k) + (int32_t)th_range(-2, 2);
    case 2: return (th_rand32() & 1u) ? INT32_MAX - (int32_t)th_range(0, 3) : INT32_MIN + (int32_t)th_range(0, 3);
    case 3: return (int32_t)th_range(-(1 << 16), 1 << 16);
    default: return (int32_t)th_rand32();
  }
}

/* The boundary values every table must hold: INT32_MIN/MAX and +-2^k + {-1, 0, 1}. */
static inline int th_edges(int32_t *out) {
  int n = 0, k;
  out[n++] = 0;
  out[n++] = INT32_MIN;
  out[n++] = INT32_MIN + 1;
  out[n++] = INT32_MAX;
  out[n++] = INT32_MAX - 1;
  for (k = 0; k < 31; k++) {
    int64_t p = (int64_t)1 << k, d;
    for (d = -1; d <= 1; d++) {
      if (p + d <= INT32_MAX) out[n++] = (int32_t)(p + d);
      out[n++] = (int32_t)(-p + d);
    }
  }
  return n; /* <= 5 + 31 * 6 = 191 */
}
#define TH_EDGES_MAX 192

#endif
