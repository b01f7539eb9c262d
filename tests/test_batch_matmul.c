/* TFLite's BATCH_MATMUL (mrtq/batch_matmul.h) against a restatement of
 * TFLite's own data flow and reference kernel, written here in TFLite's form
 * (different from the library, which transposes to k x n and sums in the
 * expansion form):
 *  - Eval restated: the RHS transposed (last two dims) when adj_y is 0, the
 *    LHS when adj_x is 1, each shape's last two dims swapped when its flag is
 *    0; then the reference BatchMatMul called with the RHS first: both
 *    shapes extended to rank 5, broadcast_dim / extent() per batch dim, the
 *    (j over rhs_cols, i over lhs_rows) loop writing out[lhs_rows j + i],
 *    total = sum (lhs + filter_offset)(rhs + input_offset) exactly in int64;
 *  - requantization restated from tests/oracle.h: MultiplyByQuantizedMultiplier
 *    (int32) as SRDHM then RDIVPOT (default build) or one rounding
 *    (TFLITE_SINGLE_ROUNDING), the int64 form with the multiplier rounded to
 *    16 bits and the result taken modulo 2^32, + zero point, clamp;
 *  - Prepare restated: (double)fl(s_a s_b) / (double)s_y (the four-argument
 *    GetQuantizedConvolutionMultipler) and QuantizeMultiplier by frexp /
 *    round half away; the random scales also count how often the float
 *    product gives another multiplier than the double one;
 *  - seeded random shapes: ranks 2 to 5 on either side, batch dims of 1 on
 *    either side (broadcast), size-1 and empty dims, k = 0, all four adj_x /
 *    adj_y combinations; edges: the int32 bound (za = zb = 0 and -128) and the
 *    int16 bound met exactly, extreme multipliers, saturation at both ends,
 *    every refusal. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "mrtq.h"
#include "oracle.h"

static long long compared_s8, compared_s16, hit_lo, hit_hi, float_differs, outside;

static void o_quantize_multiplier(double d, int32_t *qm, int32_t *shift) {
  int e = 0;
  double q;
  long long f;
  if (d == 0.0) {
    *qm = 0, *shift = 0;
    return;
  }
  q = frexp(d, &e);
  f = (long long)round(q * 2147483648.0);
  if (f == 2147483648LL) f /= 2, e++;
  if (e < -31) e = 0, f = 0;
  *qm = (int32_t)f, *shift = e;
}

static int o_dom;
static int32_t o_mbqm32(int64_t x, int32_t m, int32_t shift, int single) {
  if (single) return o_sat32(o_round_half_up((i128)x * m, o_pow2(31 - shift)));
  {
    int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
    i128 xl = (i128)x * o_pow2(left);
    if (xl > INT32_MAX || xl < INT32_MIN) o_dom = 1;
    return o_rdivpot(o_srdhm(o_sat32(xl), m), right);
  }
}
static int32_t o_mbqm64(int64_t x, int32_t m, int32_t shift) {
  i128 rm = m < 0x7FFF0000 ? o_floor_div((i128)m + 32768, 65536) : 32767;
  i128 r = o_round_half_up((i128)x * rm, o_pow2(15 - shift));
  uint32_t u = (uint32_t)(uint64_t)(int64_t)r;
  return u >= 2147483648u ? (int32_t)((int64_t)u - 4294967296LL) : (int32_t)u;
}
static int32_t o_clamp(int64_t v, int32_t lo, int32_t hi) { return v < lo ? lo : v > hi ? hi : (int32_t)v; }

/* ---- TFLite's flow, restated ---- */

typedef struct o_shape {
  int nd;
  long d[5];
} o_shape;

static long o_flat(const o_shape *s) {
  long v = 1;
  int i;
  for (i = 0; i < s->nd; i++) v *= s->d[i];
  return v;
}

/* TransposeRowsColumns: the last two dimensions of every matrix. */
static int64_t *o_transpose(const o_shape *s, const int64_t *in) {
  long r = s->d[s->nd - 2], c = s->d[s->nd - 1], mats = r != 0 && c != 0 ? o_flat(s) / (r * c) : 0, q, i, j;
  int64_t *out = (int64_t *)malloc(sizeof(int64_t) * (size_t)(o_flat(s) + 1));
  for (q = 0; q < mats; q++)
    for (i = 0; i < r; i++)
      for (j = 0; j < c; j++) out[q * r * c + j * r + i] = in[q * r * c + i * c + j];
  return out;
}
static o_shape o_swap(o_shape s) {
  long t = s.d[s.nd - 1];
  s.d[s.nd - 1] = s.d[s.nd - 2], s.d[s.nd - 2] = t;
  return s;
}
static o_shape o_ext5(const o_shape *s) {
  o_shape e;
  int i;
  e.nd = 5;
  for (i = 0; i < 5; i++) e.d[i] = i < 5 - s->nd ? 1 : s->d[i - (5 - s->nd)];
  return e;
}
static long o_bdim(long l, long r) { return l == r ? l : l == 1 ? r : l; }
static long o_extent(const o_shape *e, int x) {
  long p = 1;
  int i;
  if (e->d[x] == 1) return 0;
  for (i = x + 1; i < 5; i++) p *= e->d[i];
  return p;
}

typedef struct o_req {
  int s16, single;
  int32_t mult, shift, zp, lo, hi;
} o_req;

/* reference_ops::BatchMatMul(params, lhs_shape, lhs, rhs_shape, rhs, out),
 * called by TFLite with its RHS as lhs and its LHS as rhs. */
static void o_ref_bmm(const o_shape *ls, const int64_t *lhs, const o_shape *rs, const int64_t *rhs,
                      int32_t filter_offset, int32_t input_offset, const o_req *q, int32_t *out) {
  o_shape el = o_ext5(ls), er = o_ext5(rs);
  long bd0 = o_bdim(el.d[0], er.d[0]), bd1 = o_bdim(el.d[1], er.d[1]), bd2 = o_bdim(el.d[2], er.d[2]);
  long le0 = o_extent(&el, 0), le1 = o_extent(&el, 1), le2 = o_extent(&el, 2);
  long re0 = o_extent(&er, 0), re1 = o_extent(&er, 1), re2 = o_extent(&er, 2);
  long lhs_rows = el.d[3], rhs_cols = er.d[4], depth = el.d[4], b0, b1, b2, i, j, t;
  for (b0 = 0; b0 < bd0; b0++)
    for (b1 = 0; b1 < bd1; b1++)
      for (b2 = 0; b2 < bd2; b2++) {
        const int64_t *lp = lhs + b0 * le0 + b1 * le1 + b2 * le2, *rp = rhs + b0 * re0 + b1 * re1 + b2 * re2;
        int32_t *op = out + ((b0 * bd1 * bd2) + b1 * bd2 + b2) * lhs_rows * rhs_cols;
        for (j = 0; j < rhs_cols; j++)
          for (i = 0; i < lhs_rows; i++) {
            int64_t total = 0;
            int32_t y;
            for (t = 0; t < depth; t++) total += (lp[depth * i + t] + filter_offset) * (rp[depth * j + t] + input_offset);
            if (q->s16) {
              y = o_clamp(o_mbqm64(total, q->mult, q->shift), q->lo, q->hi);
            } else {
              o_dom = 0;
              y = o_clamp((int64_t)o_mbqm32(total, q->mult, q->shift, q->single) + q->zp, q->lo, q->hi);
              if (o_dom) outside++;
            }
            op[lhs_rows * j + i] = y;
          }
      }
}

/* TFLite's Eval on LHS a (shape sa) and RHS b (shape sb). */
static void o_tflite_bmm(const o_shape *sa, const int64_t *a, const o_shape *sb, const int64_t *b, int adj_x,
                         int adj_y, int32_t za, int32_t zb, const o_req *q, int32_t *out) {
  int64_t *rt = adj_y ? NULL : o_transpose(sb, b), *lt = adj_x ? o_transpose(sa, a) : NULL;
  o_shape rs = adj_y ? *sb : o_swap(*sb), ls = adj_x ? *sa : o_swap(*sa);
  o_ref_bmm(&rs, adj_y ? b : rt, &ls, adj_x ? lt : a, -zb, -za, q, out);
  free(rt), free(lt);
}

/* ---- one case ---- */

static void run_case(mrtq_dtype t, const o_shape *sa, const o_shape *sb, int adj_x, int adj_y,
                     const mrtq_tflite_batch_matmul_params *p, int fill) {
  size_t ea[5], eb[5], sy[5], na = (size_t)o_flat(sa), nb = (size_t)o_flat(sb), ny, i, bytes = 0;
  int ndy = 0, k;
  int64_t *a64 = (int64_t *)malloc(8 * (na + 1)), *b64 = (int64_t *)malloc(8 * (nb + 1));
  void *a = malloc(2 * na + 2), *b = malloc(2 * nb + 2), *out, *scratch;
  int32_t *want;
  o_req q;
  int64_t lo = t == MRTQ_S8 ? -128 : -32768, hi = t == MRTQ_S8 ? 127 : 32767;
  for (k = 0; k < sa->nd; k++) ea[k] = (size_t)sa->d[k];
  for (k = 0; k < sb->nd; k++) eb[k] = (size_t)sb->d[k];
  for (i = 0; i < na + nb; i++) {
    int64_t v = fill == 0 ? th_range(lo, hi) : fill == 1 ? (th_rand32() & 1 ? lo : hi) : th_range(-4, 4);
    if (i < na) a64[i] = v;
    else b64[i - na] = v;
  }
  for (i = 0; i < na; i++) mrtq__store(a, i, t, (int32_t)a64[i]);
  for (i = 0; i < nb; i++) mrtq__store(b, i, t, (int32_t)b64[i]);
  CHECK_EQ(mrtq_tflite_batch_matmul_shape(ea, sa->nd, eb, sb->nd, adj_x, adj_y, sy, &ndy), MRTQ_OK, "shape");
  ny = 1;
  for (k = 0; k < ndy; k++) ny *= sy[k];
  CHECK_EQ(mrtq_tflite_batch_matmul_scratch_size(ea, sa->nd, eb, sb->nd, adj_x, adj_y, t, &bytes), MRTQ_OK, "scratch");
  CHECK_EQ(bytes, ((adj_x ? na : 0) + (adj_y ? nb : 0)) * (t == MRTQ_S16 ? 2 : 1), "scratch bytes");
  out = malloc(2 * ny + 3), scratch = malloc(bytes + 1), want = (int32_t *)malloc(4 * ny + 4);
  q.s16 = t == MRTQ_S16, q.single = p->rq.scheme == MRTQ_Q31_RNDNU, q.mult = p->rq.m.mult, q.shift = p->rq.m.shift;
  q.zp = p->rq.zp, q.lo = p->rq.qmin, q.hi = p->rq.qmax;
  o_tflite_bmm(sa, a64, sb, b64, adj_x, adj_y, p->zp_a, p->zp_b, &q, want);
  /* out one byte past an aligned address for int16: any alignment */
  CHECK_EQ(mrtq_tflite_batch_matmul(ea, sa->nd, eb, sb->nd, adj_x, adj_y, p, a, b, scratch,
                                    t == MRTQ_S16 ? (char *)out + 1 : out),
           MRTQ_OK, "bmm");
  for (i = 0; i < ny; i++) {
    int32_t got = mrtq__load(t == MRTQ_S16 ? (char *)out + 1 : out, i, t);
    CHECK_EQ(got, want[i], "type %d ranks %d,%d adj %d%d at %zu", (int)t, sa->nd, sb->nd, adj_x, adj_y, i);
    if (want[i] == q.lo) hit_lo++;
    if (want[i] == q.hi) hit_hi++;
  }
  if (t == MRTQ_S8) compared_s8 += (long long)ny;
  else compared_s16 += (long long)ny;
  free(a64), free(b64), free(a), free(b), free(out), free(scratch), free(want);
}

/* A float scale (1 + f / den) 2^e, the two random draws sequenced (the
 * order of a call's arguments is unspecified: same values on every compiler). */
static float rand_scale(int64_t den, int elo, int ehi) {
  double f = 1.0 + (double)th_range(0, den - 1) / (double)den;
  int e = (int)th_range(elo, ehi);
  return (float)ldexp(f, e);
}

static void random_cases(mrtq_dtype t, int count) {
  int it;
  for (it = 0; it < count; it++) {
    o_shape sa, sb;
    long bat[3], m = th_range(0, 5), k = th_range(0, 6), n = th_range(0, 5);
    int adj_x = (int)(th_rand32() & 1), adj_y = (int)(th_rand32() & 1), i;
    mrtq_tflite_batch_matmul_params p;
    float s_a = rand_scale(100000, -10, -3);
    float s_b = rand_scale(100000, -10, -3);
    float s_y = rand_scale(100000, t == MRTQ_S16 ? -10 : -14, t == MRTQ_S16 ? 4 : -3);
    int32_t za = t == MRTQ_S8 ? (int32_t)th_range(-128, 127) : 0, zb = t == MRTQ_S8 ? (int32_t)th_range(-128, 127) : 0;
    int32_t zy = t == MRTQ_S8 ? (int32_t)th_range(-128, 127) : 0, qm, qs;
    if (th_range(0, 7) == 0) m = 1;
    if (th_range(0, 7) == 0) n = 1;
    if (th_range(0, 15) == 0) k = 0;
    if (th_range(0, 3)) m = m ? m : 1, k = k ? k : 1, n = n ? n : 1; /* mostly non-empty */
    sa.nd = (int)th_range(2, 5), sb.nd = (int)th_range(2, 5);
    for (i = 0; i < 3; i++) bat[i] = th_range(1, 3);
    if (th_range(0, 19) == 0) bat[(int)th_range(0, 2)] = 0;
    for (i = 0; i < sa.nd - 2; i++) {
      long d = bat[3 - (sa.nd - 2) + i];
      sa.d[i] = th_range(0, 2) == 0 ? 1 : d; /* broadcast from this side */
    }
    for (i = 0; i < sb.nd - 2; i++) {
      long d = bat[3 - (sb.nd - 2) + i];
      sb.d[i] = th_range(0, 2) == 0 ? 1 : d;
    }
    sa.d[sa.nd - 2] = adj_x ? k : m, sa.d[sa.nd - 1] = adj_x ? m : k;
    sb.d[sb.nd - 2] = adj_y ? n : k, sb.d[sb.nd - 1] = adj_y ? k : n;
    CHECK_EQ(mrtq_tflite_batch_matmul_init(s_a, za, s_b, zb, s_y, zy, t, &p), MRTQ_OK, "init");
    o_quantize_multiplier((double)(float)(s_a * s_b) / (double)s_y, &qm, &qs);
    CHECK_EQ(p.rq.m.mult, qm, "mult");
    CHECK_EQ(p.rq.m.shift, qs, "shift");
    CHECK_EQ(p.rq.qmin, t == MRTQ_S8 ? -128 : -32768, "qmin");
    CHECK_EQ(p.rq.qmax, t == MRTQ_S8 ? 127 : 32767, "qmax");
    {
      int32_t qm2, qs2;
      o_quantize_multiplier((double)s_a * (double)s_b / (double)s_y, &qm2, &qs2);
      if (qm2 != qm || qs2 != qs) float_differs++;
    }
    if (t == MRTQ_S8 && th_range(0, 3) == 0) p.rq.scheme = MRTQ_Q31_RNDNU;
    run_case(t, &sa, &sb, adj_x, adj_y, &p, (int)th_range(0, 2));
  }
}

static void test_random_s8(void) { random_cases(MRTQ_S8, 40000); }
static void test_random_s16(void) { random_cases(MRTQ_S16, 30000); }

/* Extreme multipliers and shifts over fixed shapes with broadcasting. */
static void test_extreme_multipliers(void) {
  static const int32_t mults[] = {0, 1073741824, 1073741825, 1518500250, 2147418112, 2147450880, 2147483647};
  o_shape sa = {4, {2, 1, 3, 4}}, sb = {3, {3, 4, 2}};
  size_t mi;
  int sh, adj;
  for (mi = 0; mi < sizeof mults / sizeof mults[0]; mi++)
    for (sh = -31; sh <= 30; sh++)
      for (adj = 0; adj < 4; adj++) {
        mrtq_tflite_batch_matmul_params p;
        mrtq_mult m;
        o_shape a = sa, b = sb;
        m.mult = mults[mi], m.shift = mults[mi] ? sh : 0;
        if (adj & 1) a = o_swap(a);
        if (adj & 2) b = o_swap(b);
        CHECK_EQ(mrtq_tflite_batch_matmul_init_mult(m, -3, 5, 7, MRTQ_S8, &p), MRTQ_OK, "init_mult s8");
        if (sh & 1) p.rq.scheme = MRTQ_Q31_RNDNU;
        run_case(MRTQ_S8, &a, &b, adj & 1, adj >> 1, &p, 1);
        if (m.shift <= 7) {
          CHECK_EQ(mrtq_tflite_batch_matmul_init_mult(m, 0, 0, 0, MRTQ_S16, &p), MRTQ_OK, "init_mult s16");
          run_case(MRTQ_S16, &a, &b, adj & 1, adj >> 1, &p, 1);
        }
      }
}

/* The overflow bounds, met exactly. */
static void test_overflow_bounds(void) {
  size_t k = 131071, i, sa[2] = {1, 0}, sb[2] = {0, 1};
  int8_t *a = (int8_t *)malloc(k + 1), *b = (int8_t *)malloc(k + 1), y;
  int16_t *a16 = (int16_t *)malloc(2 * (k + 1)), *b16 = (int16_t *)malloc(2 * (k + 1)), y16;
  mrtq_tflite_batch_matmul_params p;
  mrtq_mult half = {1073741824, 0}, m16 = {1073741824, -31};
  for (i = 0; i <= k; i++) a[i] = -128, b[i] = -128, a16[i] = -32768, b16[i] = -32768;
  /* int8, zero points 0: k 2^14 <= 2^31 - 1 -> k <= 131071 */
  CHECK_EQ(mrtq_tflite_batch_matmul_init_mult(half, 0, 0, 0, MRTQ_S8, &p), MRTQ_OK, "init");
  sa[1] = sb[0] = k;
  CHECK_EQ(mrtq_tflite_batch_matmul(sa, 2, sb, 2, 0, 0, &p, a, b, NULL, &y), MRTQ_OK, "k = 131071");
  CHECK_EQ(y, 127, "saturated");
  sa[1] = sb[0] = k + 1;
  CHECK_REFUSED(mrtq_tflite_batch_matmul(sa, 2, sb, 2, 0, 0, &p, a, b, NULL, &y), MRTQ_EOVERFLOW,
                "k: k |A| |B| + |za| k |B| + |zb| k |A| + k |za zb| + |bias| could overflow int32");
  /* zero points -128: the expansion's bound 4 2^14 k: k <= 32767 */
  CHECK_EQ(mrtq_tflite_batch_matmul_init_mult(half, -128, -128, 0, MRTQ_S8, &p), MRTQ_OK, "init");
  sa[1] = sb[0] = 32767;
  for (i = 0; i < 32767; i++) a[i] = 127, b[i] = 127; /* (127 + 128)^2 k: TFLite's own worst case */
  CHECK_EQ(mrtq_tflite_batch_matmul(sa, 2, sb, 2, 0, 0, &p, a, b, NULL, &y), MRTQ_OK, "k = 32767");
  {
    o_shape oa = {2, {1, 32767}}, ob = {2, {32767, 1}};
    run_case(MRTQ_S8, &oa, &ob, 0, 0, &p, 1);
  }
  sa[1] = sb[0] = 32768;
  CHECK_REFUSED(mrtq_tflite_batch_matmul(sa, 2, sb, 2, 0, 0, &p, a, b, NULL, &y), MRTQ_EOVERFLOW, "k: k |A| |B|");
  /* int16: k <= 131071 */
  CHECK_EQ(mrtq_tflite_batch_matmul_init_mult(m16, 0, 0, 0, MRTQ_S16, &p), MRTQ_OK, "init16");
  sa[1] = sb[0] = k;
  CHECK_EQ(mrtq_tflite_batch_matmul(sa, 2, sb, 2, 0, 0, &p, a16, b16, NULL, &y16), MRTQ_OK, "k = 131071");
  /* sum 131071 2^30 = 2^47 - 2^30; rm 2^14, k = 46: (2^47 - 2^30) 2^14 / 2^46 = 2^15 - 2^-2 -> 32768 -> wraps? no: 32768 fits int32, clamps to 32767 */
  CHECK_EQ(y16, 32767, "clamped");
  sa[1] = sb[0] = k + 1;
  CHECK_REFUSED(mrtq_tflite_batch_matmul(sa, 2, sb, 2, 0, 0, &p, a16, b16, NULL, &y16), MRTQ_EOVERFLOW,
                "k: k 2^30 must stay below 2^47");
  free(a), free(b), free(a16), free(b16);
}

/* Refusals: every reason the header gives. */
static void test_refusals(void) {
  int8_t a[16] = {0}, b[16] = {0}, y[16];
  size_t sa[3] = {2, 2, 3}, sb[3] = {1, 3, 2}, sy[5] = {0}, bytes = 0, big[2] = {(size_t)INT32_MAX + 1, 1};
  int ndy = 0;
  mrtq_tflite_batch_matmul_params p, q;
  mrtq_mult m = {1073741824, -3};
  CHECK_EQ(mrtq_tflite_batch_matmul_init(0.5f, 1, 0.25f, -2, 0.125f, 3, MRTQ_S8, &p), MRTQ_OK, "init");
  /* init */
  CHECK_REFUSED(mrtq_tflite_batch_matmul_init(0.5f, 0, 0.5f, 0, 0.5f, 0, MRTQ_S8, NULL), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_batch_matmul_init(0.5f, 0, 0.5f, 0, 0.5f, 0, MRTQ_U8, &q), MRTQ_EUNSUPPORTED,
                "type: must be MRTQ_S8 or MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_batch_matmul_init(0.5f, 0, 0.5f, 0, 0.5f, 0, (mrtq_dtype)0, &q), MRTQ_EINVAL,
                "type: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_tflite_batch_matmul_init(-0.5f, 0, 0.5f, 0, 0.5f, 0, MRTQ_S8, &q), MRTQ_EINVAL,
                "s_a: must be finite and > 0");
  CHECK_REFUSED(mrtq_tflite_batch_matmul_init(0.5f, 0, (float)NAN, 0, 0.5f, 0, MRTQ_S8, &q), MRTQ_EINVAL,
                "s_b: must be finite and > 0");
  CHECK_REFUSED(mrtq_tflite_batch_matmul_init(0.5f, 0, 0.5f, 0, 0.0f, 0, MRTQ_S8, &q), MRTQ_EINVAL,
                "s_y: must be finite and > 0");
  CHECK_REFUSED(mrtq_tflite_batch_matmul_init(0.5f, 200, 0.5f, 0, 0.5f, 0, MRTQ_S8, &q), MRTQ_EINVAL, "zp_a: outside type");
  CHECK_REFUSED(mrtq_tflite_batch_matmul_init(0.5f, 0, 0.5f, -200, 0.5f, 0, MRTQ_S8, &q), MRTQ_EINVAL, "zp_b: outside type");
  CHECK_REFUSED(mrtq_tflite_batch_matmul_init(0.5f, 0, 0.5f, 0, 0.5f, 128, MRTQ_S8, &q), MRTQ_EINVAL, "zp_y: outside type");
  CHECK_REFUSED(mrtq_tflite_batch_matmul_init(0.5f, 1, 0.5f, 0, 0.5f, 0, MRTQ_S16, &q), MRTQ_EINVAL,
                "zp_a, zp_b, zp_y: must be 0 with MRTQ_S16");
  CHECK_REFUSED(mrtq_tflite_batch_matmul_init(3e38f, 0, 3e38f, 0, 0.5f, 0, MRTQ_S8, &q), MRTQ_ERANGE,
                "s_a, s_b: s_a s_b overflows float");
  CHECK_REFUSED(mrtq_tflite_batch_matmul_init(1e10f, 0, 1e10f, 0, 1e-10f, 0, MRTQ_S8, &q), MRTQ_ERANGE,
                "s_y: s_a s_b / s_y must be below 2^30");
  CHECK_REFUSED(mrtq_tflite_batch_matmul_init(16.0f, 0, 16.0f, 0, 1.0f, 0, MRTQ_S16, &q), MRTQ_ERANGE,
                "s_y: s_a s_b / s_y must be below 128 with MRTQ_S16");
  CHECK_EQ(mrtq_tflite_batch_matmul_init(1e-20f, 0, 1e-20f, 0, 1.0f, 5, MRTQ_S8, &q), MRTQ_OK, "flushes to (0, 0)");
  CHECK_EQ(q.rq.m.mult, 0, "flushed");
  {
    size_t s1[2] = {1, 1}, s2[2] = {1, 1};
    int8_t one = 100, yy = 0;
    CHECK_EQ(mrtq_tflite_batch_matmul(s1, 2, s2, 2, 0, 0, &q, &one, &one, NULL, &yy), MRTQ_OK, "flushed run");
    CHECK_EQ(yy, 5, "clamp(zp)");
  }
  /* init_mult */
  CHECK_REFUSED(mrtq_tflite_batch_matmul_init_mult(m, 0, 0, 0, MRTQ_S8, NULL), MRTQ_EINVAL, "p: NULL");
  m.shift = 8;
  CHECK_REFUSED(mrtq_tflite_batch_matmul_init_mult(m, 0, 0, 0, MRTQ_S16, &q), MRTQ_ERANGE,
                "m.shift: must be <= 7 with MRTQ_S16");
  m.shift = -3;
  /* shape */
  CHECK_REFUSED(mrtq_tflite_batch_matmul_shape(sa, 3, sb, 3, 0, 0, NULL, &ndy), MRTQ_EINVAL, "shape_y, ndy: NULL");
  CHECK_REFUSED(mrtq_tflite_batch_matmul_shape(NULL, 3, sb, 3, 0, 0, sy, &ndy), MRTQ_EINVAL, "shape_a: NULL");
  CHECK_REFUSED(mrtq_tflite_batch_matmul_shape(sa, 3, NULL, 3, 0, 0, sy, &ndy), MRTQ_EINVAL, "shape_b: NULL");
  CHECK_REFUSED(mrtq_tflite_batch_matmul_shape(sa, 1, sb, 3, 0, 0, sy, &ndy), MRTQ_EINVAL, "nda: must be 2..5");
  CHECK_REFUSED(mrtq_tflite_batch_matmul_shape(sa, 3, sb, 6, 0, 0, sy, &ndy), MRTQ_EINVAL, "ndb: must be 2..5");
  CHECK_REFUSED(mrtq_tflite_batch_matmul_shape(big, 2, sb, 3, 0, 0, sy, &ndy), MRTQ_ESHAPE, "shape_a[i]: above 2^31 - 1");
  CHECK_REFUSED(mrtq_tflite_batch_matmul_shape(sa, 3, big, 2, 0, 0, sy, &ndy), MRTQ_ESHAPE, "shape_b[i]: above 2^31 - 1");
  {
    size_t s3[3] = {3, 3, 2};
    CHECK_REFUSED(mrtq_tflite_batch_matmul_shape(sa, 3, s3, 3, 0, 0, sy, &ndy), MRTQ_ESHAPE,
                  "shape_a, shape_b: batch dimensions must be equal or 1 on one side");
  }
  CHECK_REFUSED(mrtq_tflite_batch_matmul_shape(sa, 3, sb, 3, 1, 0, sy, &ndy), MRTQ_ESHAPE,
                "shape_a, shape_b: op(a)'s columns must equal op(b)'s rows (k)");
  CHECK_EQ(mrtq_tflite_batch_matmul_shape(sa, 3, sb, 3, 0, 0, sy, &ndy), MRTQ_OK, "shape");
  CHECK_EQ(ndy, 3, "rank");
  CHECK_EQ(sy[0], 2, "b");
  CHECK_EQ(sy[1], 2, "m");
  CHECK_EQ(sy[2], 2, "n");
  if (sizeof(size_t) == 8) {
    size_t h1[5] = {(size_t)INT32_MAX, (size_t)INT32_MAX, (size_t)INT32_MAX, 1, 1}, h2[2] = {1, 1};
    CHECK_REFUSED(mrtq_tflite_batch_matmul_shape(h1, 5, h2, 2, 0, 0, sy, &ndy), MRTQ_ESHAPE,
                  "shape_a: the element count overflows size_t");
    CHECK_REFUSED(mrtq_tflite_batch_matmul_shape(h2, 2, h1, 5, 0, 0, sy, &ndy), MRTQ_ESHAPE,
                  "shape_b: the element count overflows size_t");
    {
      size_t g1[5] = {(size_t)INT32_MAX, 1, (size_t)INT32_MAX, 1, 1}, g2[5] = {1, (size_t)INT32_MAX, 1, 1, 1};
      CHECK_REFUSED(mrtq_tflite_batch_matmul_shape(g1, 5, g2, 5, 0, 0, sy, &ndy), MRTQ_ESHAPE,
                    "shape_a, shape_b: the output's element count overflows size_t");
    }
  }
  if (sizeof(size_t) == 8) { /* a's copy alone: (2^31 - 1)^2 3 int16 elements are past 2^64 bytes */
    size_t h1[3] = {(size_t)INT32_MAX, (size_t)INT32_MAX, 3}, h2[2] = {(size_t)INT32_MAX, 1};
    CHECK_REFUSED(mrtq_tflite_batch_matmul_scratch_size(h1, 3, h2, 2, 1, 0, MRTQ_S16, &bytes), MRTQ_ESHAPE,
                  "shape_a, shape_b: the scratch's byte count overflows size_t");
  }
  /* scratch size */
  CHECK_REFUSED(mrtq_tflite_batch_matmul_scratch_size(sa, 3, sb, 3, 0, 0, MRTQ_S8, NULL), MRTQ_EINVAL, "bytes: NULL");
  CHECK_REFUSED(mrtq_tflite_batch_matmul_scratch_size(sa, 3, sb, 3, 0, 0, MRTQ_S32, &bytes), MRTQ_EUNSUPPORTED,
                "type: must be MRTQ_S8 or MRTQ_S16");
  /* kernel */
  CHECK_REFUSED(mrtq_tflite_batch_matmul(sa, 3, sb, 3, 0, 0, NULL, a, b, NULL, y), MRTQ_EINVAL, "p: NULL");
  q = p, q.type = MRTQ_U8;
  CHECK_REFUSED(mrtq_tflite_batch_matmul(sa, 3, sb, 3, 0, 0, &q, a, b, NULL, y), MRTQ_EUNSUPPORTED,
                "p->type: must be MRTQ_S8 or MRTQ_S16");
  q = p, q.zp_a = 300;
  CHECK_REFUSED(mrtq_tflite_batch_matmul(sa, 3, sb, 3, 0, 0, &q, a, b, NULL, y), MRTQ_EINVAL, "p->zp_a: outside p->type");
  q = p, q.zp_b = 300;
  CHECK_REFUSED(mrtq_tflite_batch_matmul(sa, 3, sb, 3, 0, 0, &q, a, b, NULL, y), MRTQ_EINVAL, "p->zp_b: outside p->type");
  q = p, q.rq.zp = 300;
  CHECK_REFUSED(mrtq_tflite_batch_matmul(sa, 3, sb, 3, 0, 0, &q, a, b, NULL, y), MRTQ_EINVAL, "p->rq.zp: outside p->type");
  q = p, q.type = MRTQ_S16;
  CHECK_REFUSED(mrtq_tflite_batch_matmul(sa, 3, sb, 3, 0, 0, &q, a, b, NULL, y), MRTQ_EINVAL,
                "p->zp_a, p->zp_b, p->rq.zp: must be 0 with MRTQ_S16");
  q = p, q.rq.scheme = MRTQ_Q15_VTA;
  CHECK_REFUSED(mrtq_tflite_batch_matmul(sa, 3, sb, 3, 0, 0, &q, a, b, NULL, y), MRTQ_EUNSUPPORTED,
                "p->rq.scheme: must be MRTQ_Q31_DBL or MRTQ_Q31_RNDNU");
  q = p, q.rq.qmin = -129;
  CHECK_REFUSED(mrtq_tflite_batch_matmul(sa, 3, sb, 3, 0, 0, &q, a, b, NULL, y), MRTQ_EINVAL,
                "p->rq.qmin, p->rq.qmax: outside p->type");
  q = p, q.rq.scale = 1.0f;
  CHECK_REFUSED(mrtq_tflite_batch_matmul(sa, 3, sb, 3, 0, 0, &q, a, b, NULL, y), MRTQ_EINVAL, "rq->scale: must be 0");
  CHECK_REFUSED(mrtq_tflite_batch_matmul(sa, 3, sb, 3, 0, 0, &p, NULL, b, NULL, y), MRTQ_EINVAL, "a: NULL");
  CHECK_REFUSED(mrtq_tflite_batch_matmul(sa, 3, sb, 3, 0, 0, &p, a, NULL, NULL, y), MRTQ_EINVAL, "b: NULL");
  CHECK_REFUSED(mrtq_tflite_batch_matmul(sa, 3, sb, 3, 0, 0, &p, a, b, NULL, NULL), MRTQ_EINVAL, "out: NULL");
  {
    size_t sbt[3] = {1, 2, 3};
    CHECK_REFUSED(mrtq_tflite_batch_matmul(sa, 3, sbt, 3, 0, 1, &p, a, b, NULL, y), MRTQ_EINVAL, "scratch: NULL");
  }
  {
    mrtq_tflite_batch_matmul_params r;
    CHECK_EQ(mrtq_tflite_batch_matmul_init_mult(m, 0, 0, 0, MRTQ_S16, &r), MRTQ_OK, "init16");
    r.rq.m.mult = -5;
    CHECK_REFUSED(mrtq_tflite_batch_matmul(sa, 3, sb, 3, 0, 0, &r, a, b, NULL, y), MRTQ_ERANGE, "rq->m.mult: must be >= 0");
  }
  /* empty tensors: NULL data allowed, nothing written */
  {
    size_t e1[3] = {0, 2, 3}, e2[2] = {3, 2};
    CHECK_EQ(mrtq_tflite_batch_matmul(e1, 3, e2, 2, 0, 0, &p, NULL, b, NULL, NULL), MRTQ_OK, "empty");
  }
}

int main(void) {
  TH_RUN(test_random_s8);
  TH_RUN(test_random_s16);
  TH_RUN(test_extreme_multipliers);
  TH_RUN(test_overflow_bounds);
  TH_RUN(test_refusals);
  printf("  batch_matmul int8: %lld outputs compared\n", compared_s8);
  printf("  batch_matmul int16: %lld outputs compared\n", compared_s16);
  printf("  (%lld at qmin, %lld at qmax; %lld with x 2^shift beyond int32, where mrtq saturates and TFLite overflows;\n"
         "   %lld of 70000 random scale triples give another multiplier from the float product than from the double)\n",
         hit_lo, hit_hi, outside, float_differs);
  return th_finish("test_batch_matmul");
}
