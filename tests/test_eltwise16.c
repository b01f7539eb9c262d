/* TFLite's int16 ADD (general and power-of-two paths) and int16 MUL
 * (mrtq/eltwise.h), and the constructors from precomputed values, against an
 * oracle written here in TFLite's own structure: Prepare from the scales
 * (ADD in double; MUL as the TF interpreter's mul.cc, in float arithmetic on
 * float scales, and as TFLite Micro's mul_common.cc, the float scales
 * widened to double) with frexp / round (libm) as QuantizeMultiplier does, gemmlowp's
 * SaturatingRoundingDoublingHighMul with its nudge and truncating division,
 * RoundingDivideByPOT with its mask and threshold (also in int16 for the
 * power-of-two path), SaturatingAdd in int16, and broadcasting through
 * 4-D extended shapes and per-dimension strides (TFLite's NdArrayDesc walk).
 * None of it calls the library's arithmetic. The oracle counts the exact ties
 * it meets, and the tests require each kind of tie to have been decided. */
#include <math.h>

#include "harness.h"
#include "mrtq.h"

static long long ties_srdhm, ties_rdivpot, sat_hi, sat_lo;

/* ---- the oracle: TFLite / gemmlowp arithmetic ---- */
static int32_t g_srdhm(int32_t a, int32_t b) {
  int64_t ab, nudge, q;
  if (a == b && a == INT32_MIN) return INT32_MAX;
  ab = (int64_t)a * b;
  nudge = ab >= 0 ? ((int64_t)1 << 30) : 1 - ((int64_t)1 << 30);
  if ((ab & 0x7fffffff) == 0x40000000) ties_srdhm++;
  q = (ab + nudge) / ((int64_t)1 << 31); /* C division truncates toward zero */
  return (int32_t)q;
}
static int32_t g_rdivpot(int32_t x, int e) {
  int32_t mask = (int32_t)(((int64_t)1 << e) - 1), rem = x & mask, thr = (mask >> 1) + (x < 0 ? 1 : 0);
  if (e > 0 && 2 * (int64_t)rem == (int64_t)mask + 1) ties_rdivpot++;
  return (x >> e) + (rem > thr ? 1 : 0); /* x >> e: arithmetic on gcc / clang */
}
/* gemmlowp RoundingDivideByPOT on int16 values (F0 raw), exponent 0..15 */
static int16_t g_rdivpot16(int16_t x, int e) {
  int16_t mask = (int16_t)((1 << e) - 1), rem = (int16_t)(x & mask);
  int16_t thr = (int16_t)((mask >> 1) + (x < 0 ? 1 : 0));
  if (e > 0 && 2 * (int32_t)rem == (int32_t)mask + 1) ties_rdivpot++;
  return (int16_t)((x >> e) + (rem > thr ? 1 : 0));
}
static int16_t g_sat_add16(int16_t a, int16_t b) {
  int32_t s = (int32_t)a + b;
  return (int16_t)(s > 32767 ? 32767 : s < -32768 ? -32768 : s);
}
/* MultiplyByQuantizedMultiplier, double-rounding build */
static int32_t t_mbqm(int32_t x, int32_t m, int shift) {
  int ls = shift > 0 ? shift : 0, rs = shift > 0 ? 0 : -shift;
  return g_rdivpot(g_srdhm((int32_t)((int64_t)x * ((int64_t)1 << ls)), m), rs);
}
/* QuantizeMultiplier (default build) */
static void t_qm(double d, int32_t *m, int *shift) {
  double q;
  int64_t qf;
  if (d == 0.0) { *m = 0, *shift = 0; return; }
  q = frexp(d, shift);
  qf = (int64_t)round(q * 2147483648.0);
  if (qf == ((int64_t)1 << 31)) qf /= 2, ++*shift;
  if (*shift < -31) *shift = 0, qf = 0;
  *m = (int32_t)qf;
}
static int32_t t_clamp(int32_t v, int32_t lo, int32_t hi) {
  if (v >= hi) sat_hi += v > hi;
  if (v <= lo) sat_lo += v < lo;
  return v < lo ? lo : v > hi ? hi : v;
}

typedef struct t_add {
  int32_t off1, off2, out_off, m1, m2, mo, ls, qmin, qmax;
  int s1, s2, so;
} t_add;
static void t_add_prepare(double s1, double s2, double so, int left_shift, int32_t qmin, int32_t qmax, t_add *p) {
  double twice = 2 * (s1 > s2 ? s1 : s2);
  memset(p, 0, sizeof *p);
  p->ls = left_shift, p->qmin = qmin, p->qmax = qmax;
  t_qm(s1 / twice, &p->m1, &p->s1);
  t_qm(s2 / twice, &p->m2, &p->s2);
  t_qm(twice / ((1 << left_shift) * so), &p->mo, &p->so);
}
static int32_t t_add_elem(const t_add *p, int32_t a, int32_t b) { /* AddElementwise */
  int32_t v1 = (p->off1 + a) * (1 << p->ls), v2 = (p->off2 + b) * (1 << p->ls);
  int32_t raw = t_mbqm(v1, p->m1, p->s1) + t_mbqm(v2, p->m2, p->s2);
  return t_clamp(t_mbqm(raw, p->mo, p->so) + p->out_off, p->qmin, p->qmax);
}
static int32_t t_mul_elem(int32_t m, int shift, int32_t qmin, int32_t qmax, int32_t a, int32_t b) { /* MulElementwise */
  return t_clamp(t_mbqm(a * b, m, shift), qmin, qmax);
}
static int32_t t_pot_elem(int sh1, int sh2, int32_t qmin, int32_t qmax, int16_t a, int16_t b) { /* Add, pot_scale */
  const int16_t *not_shifted = sh1 == 0 ? &a : &b, *shifted = sh1 == 0 ? &b : &a;
  int rs = sh1 == 0 ? -sh2 : -sh1;
  int16_t r = g_sat_add16(g_rdivpot16(*shifted, rs), *not_shifted);
  return t_clamp(r, qmin, qmax);
}

/* ---- shapes: TFLite's extended 4-D broadcast walk ---- */
typedef struct t_shape {
  int nd;
  size_t d[4];
} t_shape;
static void t_desc(const t_shape *s, size_t ext[4], size_t stride[4]) {
  int i;
  size_t st = 1;
  for (i = 0; i < 4; i++) ext[i] = 1;
  for (i = 0; i < s->nd; i++) ext[4 - s->nd + i] = s->d[i];
  for (i = 3; i >= 0; i--) stride[i] = ext[i] == 1 ? 0 : st, st *= ext[i];
}
static size_t t_count(const t_shape *s) {
  size_t n = 1;
  int i;
  for (i = 0; i < s->nd; i++) n *= s->d[i];
  return n;
}
/* two random shapes that broadcast (size-1 dimensions, different ranks) */
static void rand_shapes(t_shape *a, t_shape *b) {
  int i, nd = (int)th_range(0, 4);
  a->nd = nd, b->nd = (int)th_range(0, nd);
  for (i = 0; i < nd; i++) a->d[i] = (size_t)th_range(1, 5);
  for (i = 0; i < b->nd; i++) { /* aligned at the last dimension: b's 1, a's 1, or equal */
    size_t *ad = &a->d[nd - b->nd + i];
    uint32_t r = th_rand32() % 4u;
    b->d[i] = r == 0 ? 1 : *ad;
    if (r == 1) *ad = 1;
  }
  if (th_rand32() & 1u) { t_shape t = *a; *a = *b, *b = t; }
}
static int16_t rand16(void) {
  static const int16_t edge[] = {-32768, -32767, -16385, -16384, -16383, -2, -1, 0, 1, 2, 16383, 16384, 32766, 32767};
  return th_rand32() % 4u == 0 ? edge[th_rand32() % 14u] : (int16_t)th_range(-32768, 32767);
}
/* 0: add (general) 1: mul 2: add (pot) */
static long long run_bcast(int op, const void *prm, const t_add *ta, int32_t tm, int tsh, int32_t qmin, int32_t qmax) {
  t_shape a, b, o;
  size_t ea[4], eb[4], sa[4], sb[4], eo[4], i0, i1, i2, i3, n = 0, na, nb;
  int16_t x[640], y[640], out[640];
  long long cmp = 0;
  int i;
  rand_shapes(&a, &b);
  na = t_count(&a), nb = t_count(&b);
  for (i = 0; i < (int)na; i++) x[i] = rand16();
  for (i = 0; i < (int)nb; i++) y[i] = rand16();
  t_desc(&a, ea, sa), t_desc(&b, eb, sb);
  o.nd = a.nd > b.nd ? a.nd : b.nd;
  for (i = 0; i < 4; i++) eo[i] = ea[i] > eb[i] ? ea[i] : eb[i];
  for (i = 0; i < o.nd; i++) o.d[i] = eo[4 - o.nd + i];
  memset(out, 0x5a, sizeof out);
  if (op == 1) CHECK_EQ(mrtq_tflite_mul(a.d, a.nd, b.d, b.nd, (const mrtq_tflite_mul_params *)prm, x, y, out), MRTQ_OK, "mul");
  else CHECK_EQ(mrtq_tflite_add(a.d, a.nd, b.d, b.nd, (const mrtq_tflite_add_params *)prm, x, y, out), MRTQ_OK, "add");
  for (i0 = 0; i0 < eo[0]; i0++)
    for (i1 = 0; i1 < eo[1]; i1++)
      for (i2 = 0; i2 < eo[2]; i2++)
        for (i3 = 0; i3 < eo[3]; i3++, n++) {
          int16_t va = x[i0 * sa[0] + i1 * sa[1] + i2 * sa[2] + i3 * sa[3]];
          int16_t vb = y[i0 * sb[0] + i1 * sb[1] + i2 * sb[2] + i3 * sb[3]];
          int32_t want = op == 0 ? t_add_elem(ta, va, vb)
                         : op == 1 ? t_mul_elem(tm, tsh, qmin, qmax, va, vb)
                                   : t_pot_elem(ta->s1, ta->s2, ta->qmin, ta->qmax, va, vb);
          if (out[n] != want) CHECK_EQ(out[n], want, "op %d a=%d b=%d at %zu", op, va, vb, n);
          cmp++;
        }
  CHECK_EQ(out[n], (int16_t)0x5a5a, "wrote past the broadcast extent (%zu)", n);
  return cmp;
}

static double rand_scale(void) { return (float)ldexp(1.0 + (double)(th_rand32() % 10000u) / 10000.0, -(int)th_range(8, 20)); }

/* general int16 ADD: random scales, bounds and broadcast shapes */
static void test_add16_random(void) {
  long long n = 0;
  int trial;
  for (trial = 0; trial < 3000; trial++) {
    double s1 = rand_scale(), s2 = trial % 7 == 0 ? s1 : rand_scale(), mx = s1 > s2 ? s1 : s2;
    double so = mx * (trial % 5 == 0 ? 0.05 + (double)(th_rand32() % 100u) / 1000.0 : 0.2 + (double)(th_rand32() % 1000u) / 200.0);
    int32_t qmin = trial % 3 == 0 ? 0 : trial % 3 == 1 ? -32768 : (int32_t)th_range(-32768, 0);
    int32_t qmax = trial % 4 == 0 ? (int32_t)th_range(0, 32767) : 32767;
    mrtq_tflite_add_params p;
    t_add ta;
    CHECK_EQ(mrtq_tflite_add_init(s1, 0, s2, 0, so, 0, qmin, qmax, MRTQ_S16, &p), MRTQ_OK, "init %g %g %g", s1, s2, so);
    CHECK(p.left_shift == 15 && p.pot == 0 && p.type == MRTQ_S16);
    t_add_prepare(s1, s2, so, 15, qmin, qmax, &ta);
    CHECK(p.m1.mult == ta.m1 && p.m1.shift == ta.s1 && p.m2.mult == ta.m2 && p.m2.shift == ta.s2 && p.mo.mult == ta.mo &&
          p.mo.shift == ta.so);
    n += run_bcast(0, &p, &ta, 0, 0, qmin, qmax);
  }
  CHECK(sat_hi > 0 && sat_lo > 0);
  printf("  int16 ADD (general): %lld outputs compared\n", n);
}

/* every pair of edge values with extreme multipliers and shifts (from
 * precomputed values), and with the ties the roundings decide */
static void test_add16_extremes(void) {
  static const int32_t mults[] = {1 << 30, (1 << 30) + 1, (1 << 30) + (1 << 15), 1518500250, INT32_MAX - 1, INT32_MAX};
  static const int shifts[] = {0, -1, -2, -13, -14, -15, -16, -30, -31};
  int16_t ev[64];
  int ne = 0, i, j, k, t;
  long long n = 0, t0 = ties_srdhm, r0 = ties_rdivpot;
  for (i = -32768; i <= 32767; i += 4099) ev[ne++] = (int16_t)i;
  {
    static const int16_t edge[] = {-32768, -32767, -16385, -16384, -16383, -3, -2, -1, 0, 1, 2, 3, 16383, 16384, 32766, 32767};
    for (i = 0; i < 16; i++) ev[ne++] = edge[i];
  }
  for (t = 0; t < 400; t++) {
    mrtq_mult m1 = {mults[th_rand32() % 6u], shifts[th_rand32() % 9u]}, m2 = {mults[th_rand32() % 6u], shifts[th_rand32() % 9u]};
    mrtq_mult mo = {mults[th_rand32() % 6u], shifts[th_rand32() % 9u]};
    int ls = t % 3 == 0 ? 15 : (int)th_range(0, 15);
    int32_t qmin = t % 2 ? -32768 : -100, qmax = t % 2 ? 32767 : 100;
    mrtq_tflite_add_params p;
    t_add ta;
    memset(&ta, 0, sizeof ta), memset(&p, 0, sizeof p);
    ta.m1 = m1.mult, ta.s1 = m1.shift, ta.m2 = m2.mult, ta.s2 = m2.shift, ta.mo = mo.mult, ta.so = mo.shift, ta.ls = ls;
    ta.qmin = qmin, ta.qmax = qmax;
    CHECK_EQ(mrtq_tflite_add_init_mult(m1, m2, mo, ls, 0, 0, 0, qmin, qmax, MRTQ_S16, &p), MRTQ_OK, "init_mult");
    for (j = 0; j < ne; j++)
      for (k = 0; k < ne; k++) {
        int32_t want = t_add_elem(&ta, ev[j], ev[k]), got = mrtq_tflite_add_one(&p, ev[j], ev[k]);
        if (got != want) CHECK_EQ(got, want, "m1 {%d,%d} m2 {%d,%d} mo {%d,%d} L %d a=%d b=%d", m1.mult, m1.shift,
                                  m2.mult, m2.shift, mo.mult, mo.shift, ls, ev[j], ev[k]);
        n++;
      }
  }
  /* 8-bit with the largest left shift the kernel can take (22) and extreme zero points */
  for (t = 0; t < 200; t++) {
    mrtq_mult m1 = {mults[th_rand32() % 6u], shifts[th_rand32() % 9u]}, m2 = {mults[th_rand32() % 6u], shifts[th_rand32() % 9u]};
    mrtq_mult mo = {mults[th_rand32() % 6u], shifts[th_rand32() % 9u]};
    int u = t & 1, lo = u ? 0 : -128, hi = u ? 255 : 127, ls = t % 4 ? 22 : (int)th_range(0, 22);
    int32_t z1 = t % 3 ? lo : hi, z2 = t % 5 ? hi : lo, zo = (int32_t)th_range(lo, hi);
    mrtq_tflite_add_params p;
    t_add ta;
    memset(&ta, 0, sizeof ta), memset(&p, 0, sizeof p);
    ta.m1 = m1.mult, ta.s1 = m1.shift, ta.m2 = m2.mult, ta.s2 = m2.shift, ta.mo = mo.mult, ta.so = mo.shift, ta.ls = ls;
    ta.off1 = -z1, ta.off2 = -z2, ta.out_off = zo, ta.qmin = lo, ta.qmax = hi;
    CHECK_EQ(mrtq_tflite_add_init_mult(m1, m2, mo, ls, z1, z2, zo, lo, hi, u ? MRTQ_U8 : MRTQ_S8, &p), MRTQ_OK, "8-bit");
    for (j = lo; j <= hi; j += 17)
      for (k = lo; k <= hi; k += 3) {
        int32_t want = t_add_elem(&ta, j, k), got = mrtq_tflite_add_one(&p, j, k);
        if (got != want) CHECK_EQ(got, want, "8-bit L %d a=%d b=%d", ls, j, k);
        n++;
      }
  }
  /* ties: s1 = s2 = 1, s_out = 2 halves a + b (RDIVPOT ties away from zero when a + b is odd) */
  {
    mrtq_tflite_add_params p;
    memset(&p, 0, sizeof p);
    CHECK_EQ(mrtq_tflite_add_init(1.0, 0, 1.0, 0, 2.0, 0, -32768, 32767, MRTQ_S16, &p), MRTQ_OK, "halves");
    CHECK_EQ(mrtq_tflite_add_one(&p, 1, 0), 1, "0.5 -> 1");
    CHECK_EQ(mrtq_tflite_add_one(&p, -1, 0), -1, "-0.5 -> -1");
    CHECK_EQ(mrtq_tflite_add_one(&p, 2, 1), 2, "1.5 -> 2");
    CHECK_EQ(mrtq_tflite_add_one(&p, -2, -1), -2, "-1.5 -> -2");
    CHECK_EQ(mrtq_tflite_add_one(&p, 32767, 32767), 32767, "max");
    CHECK_EQ(mrtq_tflite_add_one(&p, -32768, -32767), -32768, "-32767.5 -> -32768");
  }
  CHECK(ties_srdhm > t0 && ties_rdivpot > r0);
  printf("  int16 / 8-bit ADD extremes: %lld outputs compared (%lld SRDHM ties, %lld RDIVPOT ties)\n", n,
         ties_srdhm - t0, ties_rdivpot - r0);
}

/* TFLite's power-of-two int16 ADD */
static void test_add16_pot(void) {
  long long n = 0, r0 = ties_rdivpot;
  int trial, e, j, k;
  for (trial = 0; trial < 1500; trial++) {
    int ko = (int)th_range(-20, -5), e1 = trial % 2 ? 0 : -(int)th_range(0, 15), e2 = trial % 2 ? -(int)th_range(0, 15) : 0;
    double tweak = trial % 3 == 0 ? 1.0 + 9e-4 * 0.69 : trial % 3 == 1 ? 1.0 - 6e-4 : 1.0; /* within 2^(+-0.001) */
    int32_t qmin = trial % 4 == 0 ? 0 : -32768, qmax = trial % 5 == 0 ? 1000 : 32767;
    mrtq_tflite_add_params p;
    t_add ta;
    CHECK_EQ(mrtq_tflite_add16_pot_init(ldexp(tweak, ko + e1), ldexp(1.0, ko + e2), ldexp(1.0 / tweak, ko), qmin, qmax, &p),
             MRTQ_OK, "pot init e1 %d e2 %d", e1, e2);
    CHECK(p.pot == 1 && p.m1.shift == e1 && p.m2.shift == e2 && p.type == MRTQ_S16 && p.left_shift == 0 && p.m1.mult == 0);
    memset(&ta, 0, sizeof ta);
    ta.s1 = e1, ta.s2 = e2, ta.qmin = qmin, ta.qmax = qmax;
    n += run_bcast(2, &p, &ta, 0, 0, qmin, qmax);
  }
  /* every exponent, edge pairs */
  for (e = 0; e <= 15; e++) {
    mrtq_tflite_add_params p;
    memset(&p, 0, sizeof p);
    CHECK_EQ(mrtq_tflite_add16_pot_init(1.0 / 4096, ldexp(1.0 / 4096, -e), 1.0 / 4096, -32768, 32767, &p), MRTQ_OK, "e %d", e);
    for (j = -32768; j <= 32767; j += 257)
      for (k = -32768; k <= 32767; k += 1031) {
        int32_t want = t_pot_elem(0, -e, -32768, 32767, (int16_t)j, (int16_t)k), got = mrtq_tflite_add_one(&p, j, k);
        if (got != want) CHECK_EQ(got, want, "e %d a=%d b=%d", e, j, k);
        n++;
      }
    for (k = -(1 << e) - 2 < -32768 ? -32768 : -(1 << e) - 2; k <= (1 << e) + 2 && k <= 32767; k++) { /* the ties at +-2^(e-1) and neighbours */
      int32_t want = t_pot_elem(0, -e, -32768, 32767, 5, (int16_t)k);
      CHECK_EQ(mrtq_tflite_add_one(&p, 5, k), want, "e %d b=%d", e, k);
      n++;
    }
  }
  CHECK_EQ(mrtq_tflite_add_one(&(mrtq_tflite_add_params){{0, 0}, {0, 0}, {0, 0}, 0, 0, 0, -32768, 32767, 0, MRTQ_S16, 1},
                               32767, 1), 32767, "saturating add");
  CHECK(ties_rdivpot > r0);
  printf("  int16 ADD (power of two): %lld outputs compared\n", n);
}

/* TFLite MUL's real multiplier from the tensors' float scales: the TF
 * interpreter's mul.cc multiplies and divides the floats in float (x86-64 and
 * AArch64: FLT_EVAL_METHOD 0, so each operation rounds to float), TFLite
 * Micro's mul_common.cc widens each to double first. */
static double t_mul_real_tf(float s1, float s2, float so) {
  volatile float prod = s1 * s2, q = prod / so; /* volatile: each result stored as a float */
  return (double)q;
}
static double t_mul_real_micro(float s1, float s2, float so) { return (double)s1 * (double)s2 / (double)so; }

/* int16 MUL: random scales, bounds, shapes; edge products; both forms of the
 * multiplier */
static void test_mul16(void) {
  long long n = 0;
  int trial, j, k, differ = 0;
  for (trial = 0; trial < 3000; trial++) {
    double s1 = rand_scale(), s2 = rand_scale();
    double so = s1 * s2 * (trial % 4 == 0 ? 3.0 + th_range(0, 100) : 1000.0 + (double)(th_rand32() % 60000u));
    int32_t qmin = trial % 3 == 0 ? 0 : -32768, qmax = trial % 5 == 0 ? (int32_t)th_range(0, 32767) : 32767;
    mrtq_tflite_mul_params p, pu;
    int32_t m, mu;
    int sh, shu;
    memset(&p, 0, sizeof p), memset(&pu, 0, sizeof pu);
    t_qm(t_mul_real_tf((float)s1, (float)s2, (float)so), &m, &sh);
    t_qm(t_mul_real_micro((float)s1, (float)s2, (float)so), &mu, &shu);
    CHECK_EQ(mrtq_tflite_mul_init(s1, 0, s2, 0, so, 0, qmin, qmax, MRTQ_S16, &p), MRTQ_OK, "mul init");
    CHECK(p.m.mult == m && p.m.shift == sh);
    CHECK_EQ(mrtq_tflite_mul_init_micro(s1, 0, s2, 0, so, 0, qmin, qmax, MRTQ_S16, &pu), MRTQ_OK, "mul init micro");
    CHECK(pu.m.mult == mu && pu.m.shift == shu);
    differ += m != mu || sh != shu;
    n += run_bcast(1, &p, NULL, m, sh, qmin, qmax);
    n += run_bcast(1, &pu, NULL, mu, shu, qmin, qmax);
  }
  CHECK(differ > 1500); /* the two forms differ for most scale triples */
  printf("  int16 MUL: the TF and Micro multipliers differ for %d of 3000 scale triples\n", differ);
  {
    static const int32_t mults[] = {1 << 30, (1 << 30) + 1, 1518500250, INT32_MAX};
    static const int shifts[] = {0, -1, -14, -15, -16, -29, -30, -31};
    static const int16_t edge[] = {-32768, -32767, -181, -1, 0, 1, 181, 32767};
    int a, b;
    for (j = 0; j < 4; j++)
      for (k = 0; k < 8; k++) {
        mrtq_mult mm = {mults[j], shifts[k]};
        mrtq_tflite_mul_params p;
        memset(&p, 0, sizeof p);
        CHECK_EQ(mrtq_tflite_mul_init_mult(mm, 0, 0, 0, -32768, 32767, MRTQ_S16, &p), MRTQ_OK, "mul init_mult");
        for (a = 0; a < 8; a++)
          for (b = 0; b < 8; b++) {
            CHECK_EQ(mrtq_tflite_mul_one(&p, edge[a], edge[b]), t_mul_elem(mm.mult, mm.shift, -32768, 32767, edge[a], edge[b]),
                     "{%d,%d} %d * %d", mm.mult, mm.shift, edge[a], edge[b]);
            n++;
          }
      }
  }
  printf("  int16 MUL: %lld outputs compared\n", n);
}

/* The review's reproducers, fixed: the TF interpreter's multiplier and
 * outputs differ from TFLite Micro's (values from the oracle above, checked
 * against the reviewer's independent restatement). */
static void test_mul_forms_fixed(void) {
  mrtq_tflite_mul_params p, pu;
  long long n = 0;
  int32_t m;
  int sh;
  /* int16: s1 = 0x1.805e6p-4, s2 = 0x1.22a6f4p-7, s_out = 0x1.639582p+1 */
  CHECK_EQ(mrtq_tflite_mul_init(0x1.805e6p-4, 0, 0x1.22a6f4p-7, 0, 0x1.639582p+1, 0, -32768, 32767, MRTQ_S16, &p), MRTQ_OK, "tf");
  CHECK_EQ(mrtq_tflite_mul_init_micro(0x1.805e6p-4, 0, 0x1.22a6f4p-7, 0, 0x1.639582p+1, 0, -32768, 32767, MRTQ_S16, &pu),
           MRTQ_OK, "micro");
  CHECK(p.m.mult == 1317768704 && p.m.shift == -11);
  CHECK(pu.m.mult == 1317768713 && pu.m.shift == -11);
  t_qm(t_mul_real_tf(0x1.805e6p-4f, 0x1.22a6f4p-7f, 0x1.639582p+1f), &m, &sh);
  CHECK(m == 1317768704 && sh == -11);
  CHECK_EQ(mrtq_tflite_mul_one(&p, -2675, 32748), -26247, "TF interpreter");
  CHECK_EQ(mrtq_tflite_mul_one(&pu, -2675, 32748), -26248, "TFLite Micro");
  CHECK_EQ(mrtq_tflite_mul_one(&p, -2367, 32720), -23205, "TF interpreter");
  CHECK_EQ(mrtq_tflite_mul_one(&pu, -2367, 32720), -23206, "TFLite Micro");
  n += 4;
  /* int8, zero points -128: s1 = 0.00104f, s2 = 0.01254f, s_out = 0.001396f */
  CHECK_EQ(mrtq_tflite_mul_init(0.00104f, -128, 0.01254f, -128, 0.001396f, 0, -128, 127, MRTQ_S8, &p), MRTQ_OK, "tf 8");
  CHECK_EQ(mrtq_tflite_mul_init_micro(0.00104f, -128, 0.01254f, -128, 0.001396f, 0, -128, 127, MRTQ_S8, &pu), MRTQ_OK, "micro 8");
  CHECK(p.m.mult == 1283971072 && p.m.shift == -6);
  CHECK(pu.m.mult == 1283971169 && pu.m.shift == -6);
  CHECK_EQ(mrtq_tflite_mul_one(&p, -101, 92), 55, "TF interpreter");
  CHECK_EQ(mrtq_tflite_mul_one(&pu, -101, 92), 56, "TFLite Micro");
  n += 2;
  /* scales given as doubles are first rounded to float, as TFLite stores them */
  CHECK_EQ(mrtq_tflite_mul_init(0.1, 0, 0.2, 0, 0.3, 0, -32768, 32767, MRTQ_S16, &p), MRTQ_OK, "0.1");
  t_qm(t_mul_real_tf(0.1f, 0.2f, 0.3f), &m, &sh);
  CHECK(p.m.mult == m && p.m.shift == sh);
  CHECK_EQ(mrtq_tflite_mul_init_micro(0.1, 0, 0.2, 0, 0.3, 0, -32768, 32767, MRTQ_S16, &pu), MRTQ_OK, "0.1 micro");
  t_qm(t_mul_real_micro(0.1f, 0.2f, 0.3f), &m, &sh);
  CHECK(pu.m.mult == m && pu.m.shift == sh);
  printf("  fixed MUL examples: %lld outputs compared\n", n);
}

/* Values outside p->type and corrupted structs: the per-element functions
 * clamp the inputs into the type (the results compared with the oracle on the
 * clamped values) and stay free of UB on any struct (run under UBSan). */
static void test_one_total(void) {
  static const int32_t big[] = {INT32_MIN, INT32_MIN + 1, -65536, -32769, -32768, -129, -1, 0, 1, 127, 128, 255, 256,
                                32767, 32768, 65536, INT32_MAX - 1, INT32_MAX};
  mrtq_tflite_add_params pa, pp;
  mrtq_tflite_mul_params pm, p8;
  t_add ta;
  long long n = 0;
  int i, j, t;
  CHECK_EQ(mrtq_tflite_add16_pot_init(0.5, 0.5, 0.5, -32768, 32767, &pp), MRTQ_OK, "pot");
  CHECK_EQ(mrtq_tflite_add_one(&pp, INT32_MAX, 1), 32767, "pot add_one(INT32_MAX, 1)");
  CHECK_EQ(mrtq_tflite_add_init(0.5, 0, 0.5, 0, 0.5, 0, -32768, 32767, MRTQ_S16, &pa), MRTQ_OK, "add");
  CHECK_EQ(mrtq_tflite_mul_init(0.5, 0, 0.5, 0, 0.375, 0, -32768, 32767, MRTQ_S16, &pm), MRTQ_OK, "mul");
  CHECK_EQ(mrtq_tflite_mul_one(&pm, 65536, 65536), 32767, "mul_one(65536, 65536)");
  CHECK_EQ(mrtq_tflite_mul_init(0.5, 3, 0.25, -7, 0.5, 1, -128, 127, MRTQ_S8, &p8), MRTQ_OK, "mul 8");
  t_add_prepare(0.5, 0.5, 0.5, 15, -32768, 32767, &ta);
  for (i = 0; i < 18; i++)
    for (j = 0; j < 18; j++) {
      int32_t a16 = big[i] < -32768 ? -32768 : big[i] > 32767 ? 32767 : big[i];
      int32_t b16 = big[j] < -32768 ? -32768 : big[j] > 32767 ? 32767 : big[j];
      int32_t a8 = big[i] < -128 ? -128 : big[i] > 127 ? 127 : big[i], b8 = big[j] < -128 ? -128 : big[j] > 127 ? 127 : big[j];
      CHECK_EQ(mrtq_tflite_add_one(&pa, big[i], big[j]), t_add_elem(&ta, a16, b16), "add %d %d", big[i], big[j]);
      CHECK_EQ(mrtq_tflite_add_one(&pp, big[i], big[j]), t_pot_elem(0, 0, -32768, 32767, (int16_t)a16, (int16_t)b16),
               "pot %d %d", big[i], big[j]);
      CHECK_EQ(mrtq_tflite_mul_one(&pm, big[i], big[j]), t_mul_elem(pm.m.mult, pm.m.shift, -32768, 32767, a16, b16),
               "mul %d %d", big[i], big[j]);
      CHECK_EQ(mrtq_tflite_mul_one(&p8, big[i], big[j]),
               t_clamp(t_mbqm((a8 - 3) * (b8 + 7), p8.m.mult, p8.m.shift) + 1, -128, 127), "mul8 %d %d", big[i], big[j]);
      n += 4;
    }
  /* corrupted structs: any field value; the result is unspecified but defined */
  for (t = 0; t < 2000; t++) {
    mrtq_tflite_add_params q;
    mrtq_tflite_mul_params r;
    int32_t x = big[th_rand32() % 18u], y = big[th_rand32() % 18u];
    q.m1.mult = (int32_t)th_rand32(), q.m1.shift = (int32_t)th_rand32() % 80, q.m2.mult = (int32_t)th_rand32();
    q.m2.shift = (int32_t)th_rand32() % 80, q.mo.mult = (int32_t)th_rand32(), q.mo.shift = (int32_t)th_rand32() % 80;
    q.zp1 = (int32_t)th_rand32(), q.zp2 = big[th_rand32() % 18u], q.zp_out = (int32_t)th_rand32();
    q.qmin = (int32_t)th_rand32(), q.qmax = (int32_t)th_rand32(), q.left_shift = (int)(th_rand32() % 70u) - 5;
    q.type = (mrtq_dtype)(th_rand32() % 8u), q.pot = (int)(th_rand32() % 3u);
    r.m.mult = (int32_t)th_rand32(), r.m.shift = (int32_t)th_rand32() % 80, r.zp1 = (int32_t)th_rand32();
    r.zp2 = big[th_rand32() % 18u], r.zp_out = (int32_t)th_rand32(), r.qmin = (int32_t)th_rand32();
    r.qmax = (int32_t)th_rand32(), r.type = (mrtq_dtype)(th_rand32() % 8u);
    (void)mrtq_tflite_add_one(&q, x, y);
    (void)mrtq_tflite_mul_one(&r, x, y);
    n += 2;
  }
  printf("  per-element functions on any input: %lld outputs compared or run\n", n);
}

/* The array functions check the struct as the constructors do. */
static void test_struct_checks(void) {
  mrtq_tflite_add_params pa, bad;
  mrtq_tflite_mul_params pm, badm;
  int16_t x[2] = {3, 4}, y[2] = {5, 6}, o[2] = {7, 7};
  int8_t x8[2] = {100, 127}, o8[2] = {9, 9};
  size_t two[1] = {2};
  CHECK_EQ(mrtq_tflite_add_init(0.5, 0, 0.5, 0, 0.5, 0, -32768, 32767, MRTQ_S16, &pa), MRTQ_OK, "add");
  CHECK_EQ(mrtq_tflite_mul_init(0.5, 0, 0.5, 0, 0.5, 0, -32768, 32767, MRTQ_S16, &pm), MRTQ_OK, "mul");
  CHECK_EQ(mrtq_tflite_add(two, 1, two, 1, &pa, x, y, o), MRTQ_OK, "valid");
  CHECK(o[0] == 8 && o[1] == 10);
  bad = pa, bad.left_shift = 31;
  CHECK_REFUSED(mrtq_tflite_add(two, 1, two, 1, &bad, x, y, o), MRTQ_EINVAL, "p->left_shift: must be in [0, 15] for MRTQ_S16 (TFLite uses 15)");
  bad = pa, bad.type = MRTQ_S8, bad.left_shift = 23, bad.qmin = -128, bad.qmax = 127;
  CHECK_REFUSED(mrtq_tflite_add(two, 1, two, 1, &bad, x8, x8, o8), MRTQ_EINVAL, "p->left_shift: must be in [0, 22] for MRTQ_S8 / MRTQ_U8 (TFLite uses 20)");
  bad = pa, bad.m1.mult = 5;
  CHECK_REFUSED(mrtq_tflite_add(two, 1, two, 1, &bad, x, y, o), MRTQ_EINVAL, "p->m1: mult must be in [2^30, 2^31 - 1] (TFLite's QuantizeMultiplier)");
  bad = pa, bad.m2.shift = 1;
  CHECK_REFUSED(mrtq_tflite_add(two, 1, two, 1, &bad, x, y, o), MRTQ_EINVAL, "p->m2: shift must be in [-31, 0] (a multiplier below 1)");
  bad = pa, bad.mo.shift = -32;
  CHECK_REFUSED(mrtq_tflite_add(two, 1, two, 1, &bad, x, y, o), MRTQ_EINVAL, "p->mo: shift must be in [-31, 0] (a multiplier below 1)");
  bad = pa, bad.zp_out = 1;
  CHECK_REFUSED(mrtq_tflite_add(two, 1, two, 1, &bad, x, y, o), MRTQ_EINVAL,
                "p->zp_out: must be 0 for MRTQ_S16 (TFLite's int16 ADD / MUL are symmetric)");
  bad = pa, bad.qmin = 1, bad.qmax = 0;
  CHECK_REFUSED(mrtq_tflite_add(two, 1, two, 1, &bad, x, y, o), MRTQ_EINVAL, "p->qmin, qmax: qmin > qmax");
  bad = pa, bad.pot = 2;
  CHECK_REFUSED(mrtq_tflite_add(two, 1, two, 1, &bad, x, y, o), MRTQ_EINVAL, "p->pot: must be 0 or 1");
  /* the reviewer's case: pot = 1 on int8 data with int16 bounds wrapped on store */
  memset(&bad, 0, sizeof bad), bad.type = MRTQ_S8, bad.pot = 1, bad.qmin = -32768, bad.qmax = 32767;
  CHECK_REFUSED(mrtq_tflite_add(two, 1, two, 1, &bad, x8, x8, o8), MRTQ_EINVAL, "p->qmin: outside type");
  bad.qmin = -128, bad.qmax = 127;
  CHECK_REFUSED(mrtq_tflite_add(two, 1, two, 1, &bad, x8, x8, o8), MRTQ_EINVAL, "p->pot: 1 requires p->type MRTQ_S16");
  CHECK(o8[0] == 9 && o8[1] == 9);
  CHECK_EQ(mrtq_tflite_add16_pot_init(0.5, 0.25, 0.5, -32768, 32767, &pa), MRTQ_OK, "pot");
  bad = pa, bad.left_shift = 15;
  CHECK_REFUSED(mrtq_tflite_add(two, 1, two, 1, &bad, x, y, o), MRTQ_EINVAL,
                "p->pot: 1 requires m1.mult, m2.mult, mo and left_shift 0 (as mrtq_tflite_add16_pot_init)");
  bad = pa, bad.m1.shift = -16;
  CHECK_REFUSED(mrtq_tflite_add(two, 1, two, 1, &bad, x, y, o), MRTQ_EINVAL, "p->m1: shift must be in [-15, 0] when pot = 1");
  bad = pa, bad.m2.shift = 1;
  CHECK_REFUSED(mrtq_tflite_add(two, 1, two, 1, &bad, x, y, o), MRTQ_EINVAL, "p->m2: shift must be in [-15, 0] when pot = 1");
  bad = pa, bad.m1.shift = -1;
  CHECK_REFUSED(mrtq_tflite_add(two, 1, two, 1, &bad, x, y, o), MRTQ_EINVAL,
                "p->m1, p->m2: one shift must be 0 when pot = 1 (TFLite shifts one input)");
  CHECK_EQ(mrtq_tflite_add(two, 1, two, 1, &pa, x, y, o), MRTQ_OK, "valid pot");
  /* MUL */
  badm = pm, badm.m.shift = 1;
  CHECK_REFUSED(mrtq_tflite_mul(two, 1, two, 1, &badm, x, y, o), MRTQ_EINVAL,
                "p->m: shift must be in [-31, 0] for MRTQ_S16 (the left shift must not overflow int32)");
  memset(&badm, 0, sizeof badm), badm.type = MRTQ_S8, badm.m.mult = 1 << 30, badm.m.shift = 20, badm.qmin = -128, badm.qmax = 127;
  CHECK_REFUSED(mrtq_tflite_mul(two, 1, two, 1, &badm, x8, x8, o8), MRTQ_EINVAL,
                "p->m: shift must be in [-31, 15] for MRTQ_S8 / MRTQ_U8 (the left shift must not overflow int32)");
  badm.m.shift = 0, badm.m.mult = 0;
  CHECK_REFUSED(mrtq_tflite_mul(two, 1, two, 1, &badm, x8, x8, o8), MRTQ_EINVAL, "p->m: mult must be in [2^30, 2^31 - 1] (TFLite's QuantizeMultiplier)");
  badm = pm, badm.zp1 = 1;
  CHECK_REFUSED(mrtq_tflite_mul(two, 1, two, 1, &badm, x, y, o), MRTQ_EINVAL,
                "p->zp1: must be 0 for MRTQ_S16 (TFLite's int16 ADD / MUL are symmetric)");
  badm = pm, badm.zp2 = 40000;
  CHECK_REFUSED(mrtq_tflite_mul(two, 1, two, 1, &badm, x, y, o), MRTQ_EINVAL, "p->zp2: outside type");
  CHECK(o8[0] == 9 && o8[1] == 9);
  /* MUL refusals of scales that TFLite's float scales cannot hold */
  CHECK_REFUSED(mrtq_tflite_mul_init(1e200, 0, 1.0, 0, 1.0, 0, -128, 127, MRTQ_S8, &pm), MRTQ_ERANGE,
                "s1: must round to a positive finite float (TFLite stores float scales)");
  CHECK_REFUSED(mrtq_tflite_mul_init_micro(1.0, 0, 1e-60, 0, 1.0, 0, -128, 127, MRTQ_S8, &pm), MRTQ_ERANGE,
                "s2: must round to a positive finite float (TFLite stores float scales)");
  CHECK_REFUSED(mrtq_tflite_mul_init(1.0, 0, 1.0, 0, 1e39, 0, -128, 127, MRTQ_S8, &pm), MRTQ_ERANGE,
                "s_out: must round to a positive finite float (TFLite stores float scales)");
  CHECK_REFUSED(mrtq_tflite_mul_init(1e30, 0, 1e30, 0, 1e30, 0, -128, 127, MRTQ_S8, &pm), MRTQ_ERANGE,
                "s1, s2, s_out: s1 * s2 or s1 * s2 / s_out overflows float (TFLite's mul.cc computes in float)");
  CHECK_REFUSED(mrtq_tflite_mul_init(1e30, 0, 1e8, 0, 1e-10, 0, -128, 127, MRTQ_S8, &pm), MRTQ_ERANGE,
                "s1, s2, s_out: s1 * s2 or s1 * s2 / s_out overflows float (TFLite's mul.cc computes in float)");
  /* TFLite Micro computes 1e30^3 / 1e30 in double: 1e60 is still refused, as >= 2^15 */
  CHECK_REFUSED(mrtq_tflite_mul_init_micro(1e30, 0, 1e30, 0, 1e30, 0, -128, 127, MRTQ_S8, &pm), MRTQ_ERANGE,
                "s1, s2, s_out: s1 * s2 / s_out must be < 2^15");
}

/* the constructors from precomputed values give the bytes of the ones from scales */
static void test_same_bytes(void) {
  static const mrtq_dtype types[] = {MRTQ_S8, MRTQ_U8, MRTQ_S16};
  int trial, same = 0;
  for (trial = 0; trial < 3000; trial++) {
    mrtq_dtype ty = types[trial % 3];
    int32_t lo = ty == MRTQ_U8 ? 0 : ty == MRTQ_S8 ? -128 : -32768, hi = ty == MRTQ_U8 ? 255 : ty == MRTQ_S8 ? 127 : 32767;
    int32_t z1 = ty == MRTQ_S16 ? 0 : (int32_t)th_range(lo, hi), z2 = ty == MRTQ_S16 ? 0 : (int32_t)th_range(lo, hi);
    int32_t zo = ty == MRTQ_S16 ? 0 : (int32_t)th_range(lo, hi), qmin = (int32_t)th_range(lo, 0 > lo ? 0 : lo), qmax = hi;
    double s1 = ldexp(rand_scale(), (int)th_range(-8, 8)), s2 = ldexp(rand_scale(), (int)th_range(-8, 8));
    double so = (s1 > s2 ? s1 : s2) * ldexp(1.0 + (double)(th_rand32() % 1000u) / 1000.0, (int)th_range(-12, 4));
    mrtq_tflite_add_params a1, a2;
    mrtq_tflite_mul_params b1, b2;
    memset(&a2, 0x33, sizeof a2), memset(&b2, 0x33, sizeof b2);
    if (mrtq_tflite_add_init(s1, z1, s2, z2, so, zo, qmin, qmax, ty, &a1) == MRTQ_OK) {
      CHECK_EQ(mrtq_tflite_add_init_mult(a1.m1, a1.m2, a1.mo, a1.left_shift, z1, z2, zo, qmin, qmax, ty, &a2), MRTQ_OK, "add");
      CHECK(memcmp(&a1, &a2, sizeof a1) == 0);
      same++;
    }
    if (mrtq_tflite_mul_init(s1, z1, s2, z2, s1 * s2 / so * (ty == MRTQ_S16 ? 1e4 : 1.0), zo, qmin, qmax, ty, &b1) == MRTQ_OK) {
      CHECK_EQ(mrtq_tflite_mul_init_mult(b1.m, z1, z2, zo, qmin, qmax, ty, &b2), MRTQ_OK, "mul");
      CHECK(memcmp(&b1, &b2, sizeof b1) == 0);
      same++;
    }
  }
  CHECK(same > 3000);
  printf("  constructors: %d parameter sets compared byte for byte\n", same);
}

static void test_refusals(void) {
  mrtq_tflite_add_params pa, keep;
  mrtq_tflite_mul_params pm, keepm;
  mrtq_mult ok = {1 << 30, -1}, lowm = {(1 << 30) - 1, -1}, posm = {1 << 30, 1}, deep = {1 << 30, -32};
  memset(&pa, 0x41, sizeof pa), keep = pa, memset(&pm, 0x42, sizeof pm), keepm = pm;
  /* from scales, int16 */
  CHECK_REFUSED(mrtq_tflite_add_init(0.1, 1, 0.1, 0, 0.1, 0, -32768, 32767, MRTQ_S16, &pa), MRTQ_EINVAL, "zp1: must be 0 for MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_add_init(0.1, 0, 0.1, -1, 0.1, 0, -32768, 32767, MRTQ_S16, &pa), MRTQ_EINVAL, "zp2: must be 0 for MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_add_init(0.1, 0, 0.1, 0, 0.1, 5, -32768, 32767, MRTQ_S16, &pa), MRTQ_EINVAL, "zp_out: must be 0 for MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_add_init(0.1, 0, 0.1, 0, 0.1, 0, -32769, 32767, MRTQ_S16, &pa), MRTQ_EINVAL, "qmin: outside type");
  CHECK_REFUSED(mrtq_tflite_add_init(1.0, 0, 1.0, 0, 1.0 / 16384, 0, -32768, 32767, MRTQ_S16, &pa), MRTQ_ERANGE,
                "s_out: the output multiplier 2 max(s1, s2) / (2^15 s_out) must be < 1");
  CHECK_EQ(mrtq_tflite_add_init(1.0, 0, 1.0, 0, 1.0 / 16383, 0, -32768, 32767, MRTQ_S16, &pa), MRTQ_OK, "just below 1");
  pa = keep;
  CHECK_REFUSED(mrtq_tflite_mul_init(0.5, 0, 0.5, 2, 0.25, 0, -32768, 32767, MRTQ_S16, &pm), MRTQ_EINVAL, "zp2: must be 0 for MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_mul_init(0.5, 0, 0.5, 0, 0.25, 0, -32768, 32767, MRTQ_S16, &pm), MRTQ_ERANGE,
                "s1, s2, s_out: s1 * s2 / s_out must encode with shift <= 0 for MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_mul_init(0.5, 0, 0.5, 0, 0.25 * (1 + 1e-10), 0, -32768, 32767, MRTQ_S16, &pm), MRTQ_ERANGE,
                "s1, s2, s_out: s1 * s2 / s_out must encode with shift <= 0 for MRTQ_S16"); /* rounds to {2^30, 1} */
  /* 0.25 (1 + 1e-8) rounds to 0.25 in float: s1 s2 / s_out is 1 */
  CHECK_REFUSED(mrtq_tflite_mul_init(0.5, 0, 0.5, 0, 0.25 * (1 + 1e-8), 0, -32768, 32767, MRTQ_S16, &pm), MRTQ_ERANGE,
                "s1, s2, s_out: s1 * s2 / s_out must encode with shift <= 0 for MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_mul_init_micro(0.5, 0, 0.5, 0, 0.25 * (1 + 1e-8), 0, -32768, 32767, MRTQ_S16, &pm), MRTQ_ERANGE,
                "s1, s2, s_out: s1 * s2 / s_out must encode with shift <= 0 for MRTQ_S16");
  /* the next float above 0.25: the quotient 1 - 2^-23 in float encodes with shift 0 */
  CHECK_EQ(mrtq_tflite_mul_init(0.5, 0, 0.5, 0, 0.25 * (1 + ldexp(1.0, -23)), 0, -32768, 32767, MRTQ_S16, &pm), MRTQ_OK, "below 1");
  CHECK(pm.m.shift == 0);
  CHECK_EQ(mrtq_tflite_mul_init_micro(0.5, 0, 0.5, 0, 0.25 * (1 + ldexp(1.0, -23)), 0, -32768, 32767, MRTQ_S16, &pm), MRTQ_OK,
           "below 1 (micro)");
  CHECK(pm.m.shift == 0);
  pm = keepm;
  /* from precomputed values */
  CHECK_REFUSED(mrtq_tflite_add_init_mult(ok, ok, ok, 15, 0, 0, 0, -1, 1, MRTQ_S16, NULL), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_add_init_mult(lowm, ok, ok, 15, 0, 0, 0, -1, 1, MRTQ_S16, &pa), MRTQ_EINVAL, "m1: mult must be in [2^30, 2^31 - 1]");
  CHECK_REFUSED(mrtq_tflite_add_init_mult(ok, lowm, ok, 15, 0, 0, 0, -1, 1, MRTQ_S16, &pa), MRTQ_EINVAL, "m2: mult must be in [2^30, 2^31 - 1]");
  CHECK_REFUSED(mrtq_tflite_add_init_mult(ok, ok, lowm, 15, 0, 0, 0, -1, 1, MRTQ_S16, &pa), MRTQ_EINVAL, "mo: mult must be in [2^30, 2^31 - 1]");
  CHECK_REFUSED(mrtq_tflite_add_init_mult(posm, ok, ok, 15, 0, 0, 0, -1, 1, MRTQ_S16, &pa), MRTQ_EINVAL, "m1: shift must be in [-31, 0]");
  CHECK_REFUSED(mrtq_tflite_add_init_mult(ok, deep, ok, 15, 0, 0, 0, -1, 1, MRTQ_S16, &pa), MRTQ_EINVAL, "m2: shift must be in [-31, 0]");
  CHECK_REFUSED(mrtq_tflite_add_init_mult(ok, ok, posm, 15, 0, 0, 0, -1, 1, MRTQ_S16, &pa), MRTQ_EINVAL, "mo: shift must be in [-31, 0]");
  CHECK_REFUSED(mrtq_tflite_add_init_mult(ok, ok, ok, 16, 0, 0, 0, -1, 1, MRTQ_S16, &pa), MRTQ_EINVAL,
                "left_shift: must be in [0, 15] for MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_add_init_mult(ok, ok, ok, -1, 0, 0, 0, -1, 1, MRTQ_S16, &pa), MRTQ_EINVAL,
                "left_shift: must be in [0, 15] for MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_add_init_mult(ok, ok, ok, 23, 0, 0, 0, -1, 1, MRTQ_S8, &pa), MRTQ_EINVAL,
                "left_shift: must be in [0, 22] for MRTQ_S8 / MRTQ_U8");
  CHECK_REFUSED(mrtq_tflite_add_init_mult(ok, ok, ok, 20, 0, 3, 0, -1, 1, MRTQ_S16, &pa), MRTQ_EINVAL, "zp2: must be 0 for MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_add_init_mult(ok, ok, ok, 20, 0, 0, 0, -1, 1, MRTQ_S32, &pa), MRTQ_EUNSUPPORTED,
                "type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_add_init_mult(ok, ok, ok, 20, 0, 0, 0, -1, 1, (mrtq_dtype)9, &pa), MRTQ_EINVAL, "type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_tflite_add_init_mult(ok, ok, ok, 20, 128, 0, 0, -1, 1, MRTQ_S8, &pa), MRTQ_EINVAL, "zp1: outside type");
  CHECK_REFUSED(mrtq_tflite_add_init_mult(ok, ok, ok, 20, 0, 256, 0, 0, 1, MRTQ_U8, &pa), MRTQ_EINVAL, "zp2: outside type");
  CHECK_REFUSED(mrtq_tflite_add_init_mult(ok, ok, ok, 20, 0, 0, -1, 0, 1, MRTQ_U8, &pa), MRTQ_EINVAL, "zp_out: outside type");
  CHECK_REFUSED(mrtq_tflite_add_init_mult(ok, ok, ok, 20, 0, 0, 0, -129, 1, MRTQ_S8, &pa), MRTQ_EINVAL, "qmin: outside type");
  CHECK_REFUSED(mrtq_tflite_add_init_mult(ok, ok, ok, 20, 0, 0, 0, 0, 128, MRTQ_S8, &pa), MRTQ_EINVAL, "qmax: outside type");
  CHECK_REFUSED(mrtq_tflite_add_init_mult(ok, ok, ok, 20, 0, 0, 0, 2, 1, MRTQ_S8, &pa), MRTQ_EINVAL, "qmin, qmax: qmin > qmax");
  CHECK(memcmp(&pa, &keep, sizeof pa) == 0);
  CHECK_REFUSED(mrtq_tflite_mul_init_mult(ok, 0, 0, 0, -1, 1, MRTQ_S16, NULL), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_mul_init_mult(lowm, 0, 0, 0, -1, 1, MRTQ_S16, &pm), MRTQ_EINVAL, "m: mult must be in [2^30, 2^31 - 1]");
  CHECK_REFUSED(mrtq_tflite_mul_init_mult(posm, 0, 0, 0, -1, 1, MRTQ_S16, &pm), MRTQ_EINVAL, "m: shift must be in [-31, 0] for MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_mul_init_mult(deep, 0, 0, 0, -1, 1, MRTQ_S8, &pm), MRTQ_EINVAL, "m: shift must be in [-31, 15] for MRTQ_S8 / MRTQ_U8");
  {
    mrtq_mult m16 = {1 << 30, 16}, m15 = {INT32_MAX, 15};
    CHECK_REFUSED(mrtq_tflite_mul_init_mult(m16, 0, 0, 0, 0, 1, MRTQ_U8, &pm), MRTQ_EINVAL, "m: shift must be in [-31, 15] for MRTQ_S8 / MRTQ_U8");
    CHECK(memcmp(&pm, &keepm, sizeof pm) == 0);
    CHECK_EQ(mrtq_tflite_mul_init_mult(m15, 0, 0, 0, -128, 127, MRTQ_S8, &pm), MRTQ_OK, "shift 15");
    CHECK_EQ(mrtq_tflite_mul_one(&pm, -128, -128), 127, "saturates"); /* 2^14 * ~2^15: no int32 overflow */
  }
  CHECK_REFUSED(mrtq_tflite_mul_init_mult(ok, 0, 0, 1, -1, 1, MRTQ_S16, &pm), MRTQ_EINVAL, "zp_out: must be 0 for MRTQ_S16");
  /* power-of-two path */
  pa = keep;
  CHECK_REFUSED(mrtq_tflite_add16_pot_init(0.5, 0.5, 0.5, -1, 1, NULL), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_add16_pot_init(NAN, 0.5, 0.5, -1, 1, &pa), MRTQ_EINVAL, "s1: must be finite and > 0");
  CHECK_REFUSED(mrtq_tflite_add16_pot_init(0.5, 0.0, 0.5, -1, 1, &pa), MRTQ_EINVAL, "s2: must be finite and > 0");
  CHECK_REFUSED(mrtq_tflite_add16_pot_init(0.5, 0.5, INFINITY, -1, 1, &pa), MRTQ_EINVAL, "s_out: must be finite and > 0");
  CHECK_REFUSED(mrtq_tflite_add16_pot_init(0.5, 0.5, 0.5, -32769, 1, &pa), MRTQ_EINVAL, "qmin: outside int16");
  CHECK_REFUSED(mrtq_tflite_add16_pot_init(0.5, 0.5, 0.5, -1, 32768, &pa), MRTQ_EINVAL, "qmax: outside int16");
  CHECK_REFUSED(mrtq_tflite_add16_pot_init(0.5, 0.5, 0.5, 1, -1, &pa), MRTQ_EINVAL, "qmin, qmax: qmin > qmax");
  CHECK_REFUSED(mrtq_tflite_add16_pot_init(0.5 * 1.0014, 0.5, 0.5, -1, 1, &pa), MRTQ_ERANGE, "s1: not a power of two");
  CHECK_REFUSED(mrtq_tflite_add16_pot_init(0.5, 0.5 / 1.0014, 0.5, -1, 1, &pa), MRTQ_ERANGE, "s2: not a power of two");
  CHECK_REFUSED(mrtq_tflite_add16_pot_init(0.5, 0.5, 0.75, -1, 1, &pa), MRTQ_ERANGE, "s_out: not a power of two");
  CHECK_REFUSED(mrtq_tflite_add16_pot_init(0.25, 0.125, 0.5, -1, 1, &pa), MRTQ_ERANGE, "s1, s2: one of them must equal s_out");
  CHECK_REFUSED(mrtq_tflite_add16_pot_init(1.0, 0.5, 0.5, -1, 1, &pa), MRTQ_ERANGE, "s1, s2: an input scale above s_out");
  CHECK_REFUSED(mrtq_tflite_add16_pot_init(0.5, ldexp(0.5, -16), 0.5, -1, 1, &pa), MRTQ_ERANGE,
                "s1, s2: an input scale below s_out / 2^15");
  CHECK(memcmp(&pa, &keep, sizeof pa) == 0);
  CHECK_EQ(mrtq_tflite_add16_pot_init(0.5 * 1.00069, 0.5 / 1.00069, 0.5, -1, 1, &pa), MRTQ_OK, "within 2^0.001");
  CHECK_EQ(mrtq_tflite_add16_pot_init(ldexp(0.5, -15), 0.5, 0.5, -1, 1, &pa), MRTQ_OK, "shift -15");
  CHECK(pa.m1.shift == -15 && pa.m2.shift == 0);
}

int main(void) {
  TH_RUN(test_add16_random);
  TH_RUN(test_add16_extremes);
  TH_RUN(test_add16_pot);
  TH_RUN(test_mul16);
  TH_RUN(test_mul_forms_fixed);
  TH_RUN(test_one_total);
  TH_RUN(test_struct_checks);
  TH_RUN(test_same_bytes);
  TH_RUN(test_refusals);
  return th_finish("test_eltwise16");
}
