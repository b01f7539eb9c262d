/* TFLite's QUANTIZE between integer types and DEQUANTIZE (mrtq/requant.h)
 * against an oracle written here from TFLite's reference code
 * (reference/requantize.h with its same-scale int8 <-> uint8 XOR shortcut,
 * taken literally; quantize.cc / quantize_common.cc Prepare with frexp /
 * round for QuantizeMultiplier; reference dequantize.h), the Q31 multiply
 * from the 128-bit SRDHM / RDIVPOT of oracle.h. DEQUANTIZE's oracle is a
 * float multiply of the (exact) float difference where |q - zp| <= 2^24, and
 * the exact long double product rounded to double then float beyond. */
#include <float.h>
#include <math.h>

#include "harness.h"
#include "mrtq.h"
#include "oracle.h"

static long long n_q, n_dq, n_xor, n_sat_lo, n_sat_hi, n_flush;

typedef struct {
  int32_t mult, shift;
} om;
static om o_qm(double s) { /* TFLite QuantizeMultiplier */
  om r = {0, 0};
  int e = 0;
  int64_t qf;
  double q;
  if (s == 0) return r;
  q = frexp(s, &e);
  qf = (int64_t)round(q * 2147483648.0);
  if (qf == ((int64_t)1 << 31)) qf /= 2, e++;
  if (e < -31) return r;
  r.mult = (int32_t)qf, r.shift = e;
  return r;
}
static long long n_tie_srdhm, n_tie_rdivpot;
static int32_t o_mbqm(int32_t x, om m) { /* MultiplyByQuantizedMultiplier(int32), counting exact ties */
  int ls = m.shift > 0 ? m.shift : 0, rs = m.shift > 0 ? 0 : -m.shift;
  int32_t xs = o_sat32((i128)x * o_pow2(ls)), h;
  if ((((int64_t)xs * m.mult) & 0x7fffffff) == 0x40000000) n_tie_srdhm++;
  h = o_srdhm(xs, m.mult);
  if (rs > 0 && rs < 32 && ((int64_t)h & (((int64_t)1 << rs) - 1)) == ((int64_t)1 << (rs - 1))) n_tie_rdivpot++;
  return o_rdivpot(h, rs);
}
static void o_range(mrtq_dtype t, int64_t *lo, int64_t *hi) {
  switch (t) {
    case MRTQ_S8: *lo = -128, *hi = 127; break;
    case MRTQ_U8: *lo = 0, *hi = 255; break;
    case MRTQ_S16: *lo = -32768, *hi = 32767; break;
    default: *lo = INT32_MIN, *hi = INT32_MAX; break;
  }
}
/* reference_ops::Requantize on one element (the XOR shortcut as TFLite has it). */
static int32_t o_requant(int32_t x, om m, int32_t zi, int32_t zo, mrtq_dtype ti, mrtq_dtype to) {
  int64_t lo, hi, v;
  if (m.mult == (1 << 30) && m.shift == 1 &&
      ((ti == MRTQ_S8 && to == MRTQ_U8 && zi - zo == -128) || (ti == MRTQ_U8 && to == MRTQ_S8 && zi - zo == 128))) {
    n_xor++;
    return ti == MRTQ_S8 ? (int32_t)(uint8_t)((uint8_t)(int8_t)x ^ 0x80) : (int32_t)(int8_t)(uint8_t)((uint8_t)x ^ 0x80);
  }
  o_range(to, &lo, &hi);
  v = (int64_t)o_mbqm(o_sat32((i128)x - zi), m) + zo;
  if (v < lo) n_sat_lo++;
  if (v > hi) n_sat_hi++;
  return (int32_t)(v < lo ? lo : v > hi ? hi : v);
}

/* m * 2^e with m drawn first, then e (two statements: the same stream on every compiler) */
static float rnd_scale_m(uint32_t steps, int lo, int hi) {
  double m = 1.0 + (double)(th_rand32() % steps) / (double)steps;
  int e = (int)th_range(lo, hi);
  return (float)ldexp(m, e);
}

static int64_t rnd_in(mrtq_dtype t) {
  int64_t lo, hi;
  o_range(t, &lo, &hi);
  if (t == MRTQ_S32) return th_i32();
  if (th_rand32() % 8 == 0) return th_rand32() & 1 ? lo : hi;
  return th_range(lo, hi);
}

static const mrtq_dtype pairs[][2] = {{MRTQ_S16, MRTQ_S8}, {MRTQ_S16, MRTQ_S16}, {MRTQ_S16, MRTQ_S32}, {MRTQ_S32, MRTQ_S8},
                                      {MRTQ_S32, MRTQ_S16}, {MRTQ_S8, MRTQ_S8},   {MRTQ_S8, MRTQ_U8},   {MRTQ_U8, MRTQ_S8},
                                      {MRTQ_U8, MRTQ_U8},   {MRTQ_S8, MRTQ_S16},  {MRTQ_S8, MRTQ_S32}};
/* which TFLite takes pair k: 1 interpreter, 2 Micro */
static int who(int k) { return k <= 7 ? 3 : k == 8 ? 1 : 2; }

static void test_quantize_random(void) {
  int it;
  for (it = 0; it < 3000; it++) {
    int k = it % 11, micro = (who(k) & 2) && (!(who(k) & 1) || (it / 11) % 2);
    mrtq_dtype ti = pairs[k][0], to = pairs[k][1];
    mrtq_tflite_quantize_params p;
    memset(&p, 0, sizeof p);
    float s_in = rnd_scale_m(1000000u, -20, 0);
    float s_out = rnd_scale_m(1000000u, -20, 0);
    int64_t lo, hi;
    int32_t zi, zo, x[64], y[64];
    om m;
    size_t n = (size_t)th_range(0, 64), i;
    void *bin = malloc(64 * 4), *bout = malloc(64 * 4 + 1);
    switch (it % 9) {
      case 0: s_out = s_in; break;                           /* ratio exactly 1 */
      case 1: s_out = s_in * 0.5f; break;                    /* exact powers of two */
      case 2: s_in = 1.0f, s_out = 1e-9f * (float)th_range(1, 9); break; /* big ratios */
      case 3: s_in = 1e-12f, s_out = 1e3f; break;            /* flushed */
      default: break;
    }
    o_range(ti, &lo, &hi);
    zi = ti == MRTQ_S32 ? (int32_t)th_range(-1000, 1000) : (int32_t)th_range(lo, hi);
    o_range(to, &lo, &hi);
    zo = to == MRTQ_S32 ? (int32_t)th_range(-1000, 1000) : (int32_t)th_range(lo, hi);
    if (it % 9 == 0 && ((ti == MRTQ_S8 && to == MRTQ_U8) || (ti == MRTQ_U8 && to == MRTQ_S8))) {
      zi = ti == MRTQ_S8 ? (int32_t)th_range(-128, 127) : (int32_t)th_range(0, 255);
      zo = ti == MRTQ_S8 ? zi + 128 : zi - 128;
      if (zo < lo || zo > hi) zi = ti == MRTQ_S8 ? -3 : 125, zo = ti == MRTQ_S8 ? 125 : -3;
    }
    if (ti == MRTQ_S16 && to == MRTQ_S16 && !micro) zi = zo = 0;
    if (it % 13 == 5 && ti == MRTQ_S32) zi = th_rand32() & 1 ? INT32_MIN : INT32_MAX; /* x - zp leaves int32 */
    m = o_qm((double)s_in / (double)s_out);
    {
      mrtq_status st = micro ? mrtq_tflite_quantize_init_micro(s_in, zi, ti, s_out, zo, to, &p)
                             : mrtq_tflite_quantize_init(s_in, zi, ti, s_out, zo, to, &p);
      if (m.shift > 30) {
        CHECK_EQ(st, MRTQ_ERANGE, "it %d", it);
        free(bin), free(bout);
        continue;
      }
      CHECK_EQ(st, MRTQ_OK, "it %d pair %d micro %d", it, k, micro);
      if (st != MRTQ_OK) {
        free(bin), free(bout);
        continue;
      }
    }
    CHECK_EQ(p.m.mult, m.mult, "mult it %d", it);
    CHECK_EQ(p.m.shift, m.shift, "shift it %d", it);
    {
      mrtq_tflite_quantize_params q;
      mrtq_mult mm;
      mm.mult = m.mult, mm.shift = m.shift;
      memset(&q, 0x7f, sizeof q);
      CHECK_EQ(mrtq_tflite_quantize_init_mult(mm, zi, ti, zo, to, &q), MRTQ_OK, "init_mult it %d", it);
      CHECK(memcmp(&p, &q, sizeof p) == 0 || (p.m.mult == q.m.mult && p.m.shift == q.m.shift && p.zp_in == q.zp_in &&
                                               p.zp_out == q.zp_out && p.in_type == q.in_type && p.out_type == q.out_type));
    }
    if (m.mult == 0) n_flush++;
    for (i = 0; i < n; i++) {
      x[i] = (int32_t)rnd_in(ti);
      mrtq__store(bin, i, ti, x[i]);
      y[i] = o_requant(x[i], m, zi, zo, ti, to);
    }
    CHECK_EQ(mrtq_tflite_quantize(&p, bin, n, bout), MRTQ_OK, "it %d", it);
    for (i = 0; i < n; i++) {
      CHECK_EQ(mrtq__load(bout, i, to), y[i], "it %d pair %d x %d zi %d zo %d m {%d, %d}", it, k, x[i], zi, zo, m.mult, m.shift);
      n_q++;
    }
    free(bin), free(bout);
  }
  CHECK(n_xor > 100);
  CHECK(n_sat_lo > 0 && n_sat_hi > 0 && n_flush > 0);
}

/* Every int8 / uint8 / int16 input for fixed multipliers at the extremes. */
static void test_quantize_exhaustive(void) {
  long long t0 = n_tie_srdhm, t1 = n_tie_rdivpot;
  static const int32_t mults[] = {1 << 30, (1 << 30) + 1, 1518500250, INT32_MAX};
  static const int32_t shifts[] = {-31, -24, -15, -8, -1, 0, 1, 2, 8, 16, 30};
  int a, b, k;
  for (k = 0; k < 11; k++)
    for (a = 0; a < 4; a++)
      for (b = 0; b < 11; b++) {
        mrtq_tflite_quantize_params p;
        memset(&p, 0, sizeof p);
        om m;
        int32_t x;
        int64_t lo, hi;
        memset(&p, 0, sizeof p);
        p.in_type = pairs[k][0], p.out_type = pairs[k][1];
        p.m.mult = mults[a], p.m.shift = shifts[b];
        m.mult = mults[a], m.shift = shifts[b];
        o_range(p.in_type, &lo, &hi);
        if (p.in_type == MRTQ_S32) lo = -40000, hi = 40000;
        p.zp_in = (int32_t)(lo + (hi - lo) / 3), p.zp_out = p.out_type == MRTQ_U8 ? 17 : -5;
        for (x = (int32_t)lo; x <= (int32_t)hi; x++) {
          uint8_t bi[4] = {0}, bo[4] = {0};
          mrtq__store(bi, 0, p.in_type, x);
          CHECK_EQ(mrtq_tflite_quantize(&p, bi, 1, bo), MRTQ_OK, "k %d", k);
          CHECK_EQ(mrtq__load(bo, 0, p.out_type), o_requant(x, m, p.zp_in, p.zp_out, p.in_type, p.out_type),
                   "pair %d x %d m {%d, %d}", k, x, m.mult, m.shift);
          n_q++;
        }
      }
  CHECK(n_tie_srdhm > t0 && n_tie_rdivpot > t1);
}

/* TFLite's dequantize: the double product rounded to float. */
static float o_deq(float s, int32_t q, int32_t zp) {
  int64_t d = (int64_t)q - zp;
  if (d >= -(1 << 24) && d <= (1 << 24)) {
    volatile float fd = (float)d, r = fd * s; /* fd exact: one rounding of the exact product */
    return r;
  }
  return (float)(double)((long double)s * (long double)d); /* exact product (>= 64-bit mantissa), then as TFLite */
}
static int same_float(float a, float b) { return memcmp(&a, &b, sizeof a) == 0 || (a != a && b != b); }

static void test_dequantize(void) {
  static const mrtq_dtype ts[3] = {MRTQ_S8, MRTQ_U8, MRTQ_S16};
  int it;
  float out[300];
  for (it = 0; it < 3000; it++) {
    mrtq_dtype t = ts[it % 3];
    int64_t lo, hi;
    int32_t zp, qv[300];
    float s;
    size_t n = (size_t)th_range(0, 300), i;
    uint8_t buf[600];
    o_range(t, &lo, &hi);
    switch (it % 10) {
      case 0: s = FLT_MAX / (float)th_range(1, 70000); break;         /* products beyond FLT_MAX */
      case 1: s = FLT_MIN * (float)ldexp(1.0, -(int)th_range(1, 23)); break; /* subnormal results */
      case 2: s = -rnd_scale_m(1000u, -30, 30); break;
      case 3: s = 0.0f; break;
      default: s = rnd_scale_m(10000000u, -30, 10); break;
    }
    zp = (int32_t)th_range(lo, hi);
    if (it % 7 == 0) zp = th_i32(); /* any int32: TFLite's int32 difference may overflow there */
    for (i = 0; i < n; i++) {
      qv[i] = (int32_t)th_range(lo, hi);
      mrtq__store(buf, i, t, qv[i]);
    }
    CHECK_EQ(mrtq_tflite_dequantize(s, zp, buf, t, n, out), MRTQ_OK, "it %d", it);
    for (i = 0; i < n; i++) {
      float w = o_deq(s, qv[i], zp);
      CHECK(same_float(out[i], w));
      if (!same_float(out[i], w)) fprintf(stderr, "  dequantize s %a q %d zp %d: %a, want %a\n", s, qv[i], zp, out[i], w);
      n_dq++;
    }
  }
  /* the rounding at float's top, checked by hand: FLT_MAX * 1 = FLT_MAX,
   * 2^127 * 2 = 2^128 -> infinity, (FLT_MAX / 2) * 2 = FLT_MAX */
  {
    int8_t q[3] = {1, 2, 2};
    float r[3];
    CHECK_EQ(mrtq_tflite_dequantize(FLT_MAX, 0, q, MRTQ_S8, 1, r), MRTQ_OK, "max");
    CHECK(r[0] == FLT_MAX);
    CHECK_EQ(mrtq_tflite_dequantize(0x1p127f, 0, q + 1, MRTQ_S8, 1, r + 1), MRTQ_OK, "inf");
    CHECK(isinf(r[1]) && r[1] > 0);
    CHECK_EQ(mrtq_tflite_dequantize(-FLT_MAX / 2, 0, q + 2, MRTQ_S8, 1, r + 2), MRTQ_OK, "-max");
    CHECK(r[2] == -FLT_MAX);
    n_dq += 3;
  }
}

static void test_refusals(void) {
  mrtq_tflite_quantize_params p, q;
  memset(&p, 0, sizeof p);
  int8_t b[4] = {0};
  float f[4];
  CHECK_REFUSED(mrtq_tflite_quantize_init(1, 0, MRTQ_S8, 1, 0, MRTQ_S8, NULL), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_quantize_init(0, 0, MRTQ_S8, 1, 0, MRTQ_S8, &p), MRTQ_EINVAL, "s_in: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_quantize_init(1, 0, MRTQ_S8, NAN, 0, MRTQ_S8, &p), MRTQ_EINVAL, "s_out: NaN, infinite or <= 0");
  CHECK_REFUSED(mrtq_tflite_quantize_init(1, 0, (mrtq_dtype)0, 1, 0, MRTQ_S8, &p), MRTQ_EINVAL, "in_type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_tflite_quantize_init(1, 0, MRTQ_S8, 1, 0, (mrtq_dtype)9, &p), MRTQ_EINVAL, "out_type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_tflite_quantize_init(1, 0, MRTQ_S8, 1, 0, MRTQ_S16, &p), MRTQ_EUNSUPPORTED,
                "in_type, out_type: not a pair the TF interpreter's QUANTIZE takes");
  CHECK_REFUSED(mrtq_tflite_quantize_init_micro(1, 0, MRTQ_U8, 1, 0, MRTQ_U8, &p), MRTQ_EUNSUPPORTED,
                "in_type, out_type: not a pair TFLite Micro's QUANTIZE takes");
  CHECK_REFUSED(mrtq_tflite_quantize_init(1, 200, MRTQ_S8, 1, 0, MRTQ_S8, &p), MRTQ_EINVAL, "zp_in: outside in_type");
  CHECK_REFUSED(mrtq_tflite_quantize_init(1, 0, MRTQ_S8, 1, -1, MRTQ_U8, &p), MRTQ_EINVAL, "zp_out: outside out_type");
  CHECK_REFUSED(mrtq_tflite_quantize_init(1, 3, MRTQ_S16, 1, 0, MRTQ_S16, &p), MRTQ_EINVAL,
                "zp_in, zp_out: must be 0 for int16 -> int16 (the TF interpreter's quantize.cc)");
  CHECK_EQ(mrtq_tflite_quantize_init_micro(1, 3, MRTQ_S16, 1, 0, MRTQ_S16, &p), MRTQ_OK, "micro s16 zp");
  CHECK_REFUSED(mrtq_tflite_quantize_init(1, 0, MRTQ_S8, 1e-10f, 0, MRTQ_S8, &p), MRTQ_ERANGE,
                "s_in, s_out: s_in / s_out must be < 2^30 (TFLite's 1 << shift)");
  memset(&q, 0x33, sizeof q);
  p = q;
  CHECK_REFUSED(mrtq_tflite_quantize_init(1, 0, MRTQ_S8, 1, 0, MRTQ_S4, &p), MRTQ_EUNSUPPORTED,
                "in_type, out_type: not a pair the TF interpreter's QUANTIZE takes");
  CHECK(memcmp(&p, &q, sizeof p) == 0);
  {
    mrtq_mult one = {1 << 30, 1}, bad = {1 << 29, 0};
    CHECK_REFUSED(mrtq_tflite_quantize_init_mult(one, 0, MRTQ_S8, 0, MRTQ_S8, NULL), MRTQ_EINVAL, "p: NULL");
    CHECK_REFUSED(mrtq_tflite_quantize_init_mult(bad, 0, MRTQ_S8, 0, MRTQ_S8, &p), MRTQ_EINVAL,
                  "m: mult 0 with shift 0, or mult in [2^30, 2^31 - 1] with shift in [-31, 30]");
    CHECK_REFUSED(mrtq_tflite_quantize_init_mult(one, 0, (mrtq_dtype)7, 0, MRTQ_S8, &p), MRTQ_EINVAL, "in_type: not an mrtq_dtype");
    CHECK_REFUSED(mrtq_tflite_quantize_init_mult(one, 0, MRTQ_S8, 0, (mrtq_dtype)0, &p), MRTQ_EINVAL, "out_type: not an mrtq_dtype");
    CHECK_REFUSED(mrtq_tflite_quantize_init_mult(one, 0, MRTQ_U8, 0, MRTQ_S16, &p), MRTQ_EUNSUPPORTED,
                  "in_type, out_type: not a pair either TFLite's QUANTIZE takes");
    CHECK_REFUSED(mrtq_tflite_quantize_init_mult(one, 256, MRTQ_U8, 0, MRTQ_S8, &p), MRTQ_EINVAL, "zp_in: outside in_type");
    CHECK_REFUSED(mrtq_tflite_quantize_init_mult(one, 0, MRTQ_U8, 128, MRTQ_S8, &p), MRTQ_EINVAL, "zp_out: outside out_type");
  }
  CHECK_EQ(mrtq_tflite_quantize_init(0.5f, 0, MRTQ_S8, 1, 0, MRTQ_S8, &p), MRTQ_OK, "valid");
  CHECK_REFUSED(mrtq_tflite_quantize(NULL, b, 1, b), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_quantize(&p, NULL, 1, b), MRTQ_EINVAL, "in: NULL (allowed only when n is 0)");
  CHECK_REFUSED(mrtq_tflite_quantize(&p, b, 1, NULL), MRTQ_EINVAL, "out: NULL (allowed only when n is 0)");
  CHECK_EQ(mrtq_tflite_quantize(&p, NULL, 0, NULL), MRTQ_OK, "n 0");
  q = p, q.in_type = (mrtq_dtype)0;
  CHECK_REFUSED(mrtq_tflite_quantize(&q, b, 1, b), MRTQ_EINVAL,
                "p->in_type, p->out_type: not an mrtq_dtype (0: a zero-initialised struct)");
  q = p, q.out_type = MRTQ_S4;
  CHECK_REFUSED(mrtq_tflite_quantize(&q, b, 1, b), MRTQ_EUNSUPPORTED,
                "p->in_type, p->out_type: not a pair either TFLite's QUANTIZE takes");
  q = p, q.zp_in = 128;
  CHECK_REFUSED(mrtq_tflite_quantize(&q, b, 1, b), MRTQ_EINVAL, "p->zp_in: outside p->in_type");
  q = p, q.zp_out = -129;
  CHECK_REFUSED(mrtq_tflite_quantize(&q, b, 1, b), MRTQ_EINVAL, "p->zp_out: outside p->out_type");
  q = p, q.m.mult = 12345;
  CHECK_REFUSED(mrtq_tflite_quantize(&q, b, 1, b), MRTQ_EINVAL,
                "p->m: mult 0 with shift 0, or mult in [2^30, 2^31 - 1] with shift in [-31, 30]");
  CHECK_REFUSED(mrtq_tflite_dequantize(1, 0, b, MRTQ_S32, 1, f), MRTQ_EUNSUPPORTED, "type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_dequantize(1, 0, b, (mrtq_dtype)0, 1, f), MRTQ_EINVAL, "type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_tflite_dequantize(INFINITY, 0, b, MRTQ_S8, 1, f), MRTQ_EINVAL, "scale: NaN or infinite");
  CHECK_REFUSED(mrtq_tflite_dequantize(1, 0, NULL, MRTQ_S8, 1, f), MRTQ_EINVAL, "q: NULL (allowed only when n is 0)");
  CHECK_REFUSED(mrtq_tflite_dequantize(1, 0, b, MRTQ_S8, 1, NULL), MRTQ_EINVAL, "out: NULL (allowed only when n is 0)");
}

int main(void) {
  TH_RUN(test_quantize_random);
  TH_RUN(test_quantize_exhaustive);
  TH_RUN(test_dequantize);
  TH_RUN(test_refusals);
  printf("  quantize: %lld outputs compared (%lld by the XOR shortcut, %lld saturated low, %lld high); dequantize: %lld "
         "outputs compared; exact ties %lld SRDHM, %lld RDIVPOT\n",
         n_q, n_xor, n_sat_lo, n_sat_hi, n_dq, n_tie_srdhm, n_tie_rdivpot);
  return th_finish("test_quantize");
}
