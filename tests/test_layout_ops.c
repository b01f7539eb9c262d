/* TFLite's MAXIMUM / MINIMUM (mrtq/eltwise.h), TRANSPOSE (mrtq/shape.h) and
 * RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR (mrtq/resize.h) against oracles
 * written here, each in another form than the library's:
 *   max / min     per output coordinate, each input's coordinate taken
 *                 modulo its size (the library walks broadcast strides);
 *   transpose     a scatter from every input element to its output place
 *                 (the library gathers in output order);
 *   bilinear      (1) TFLite's ResizeBilinearInteger restated from its
 *                 rational meaning: the 10-bit scale as 1024 H / out rounded
 *                 to nearest (ties up), floor / ceil of the position, the
 *                 rounding as a remainder comparison; (2) where the 10-bit
 *                 scale is exact, the real bilinear interpolation in exact
 *                 rational arithmetic, rounded half away from zero;
 *   nearest       TFLite's GetNearestNeighbor restated with C float
 *                 arithmetic (volatile floats: each operation rounded to
 *                 binary32) and floorf / roundf, beside an exact rational
 *                 count of where float and exact indices differ. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "mrtq.h"

static const mrtq_dtype all_types[4] = {MRTQ_S8, MRTQ_U8, MRTQ_S16, MRTQ_S32};

static size_t tsize(mrtq_dtype t) { return t == MRTQ_S16 ? 2 : t == MRTQ_S32 ? 4 : 1; }

/* element i of an array of t, written out per type (no mrtq helper) */
static int64_t get_el(const void *p, size_t i, mrtq_dtype t) {
  switch (t) {
    case MRTQ_S8: return ((const int8_t *)p)[i];
    case MRTQ_U8: return ((const uint8_t *)p)[i];
    case MRTQ_S16: return ((const int16_t *)p)[i];
    case MRTQ_S32: return ((const int32_t *)p)[i];
    default: return 0;
  }
}

static void fill_rand(void *p, size_t n, mrtq_dtype t) {
  size_t i;
  for (i = 0; i < n; i++) {
    uint32_t r = th_rand32();
    if ((r & 15u) == 0) r = (r & 16u) ? 0x7FFFFFFFu : 0x80000000u; /* the extremes of every type */
    switch (t) {
      case MRTQ_S8: ((int8_t *)p)[i] = (int8_t)(r >> 24); break;
      case MRTQ_U8: ((uint8_t *)p)[i] = (uint8_t)(r >> 24); break;
      case MRTQ_S16: ((int16_t *)p)[i] = (int16_t)(r >> 16); break;
      case MRTQ_S32: ((int32_t *)p)[i] = (int32_t)r; break;
      default: break;
    }
  }
}

/* ---------------- MAXIMUM / MINIMUM ---------------- */

static void test_minmax(void) {
  static int32_t a[4096], b[4096], out[8192];
  long long n = 0, trials = 0, empty_calls = 0;
  int trial, pat_seen[6] = {0};
  for (trial = 0; trial < 3000; trial++) {
    mrtq_dtype t = all_types[trial % 4];
    int nd = (int)th_range(0, 5), nda, ndb, d, is_max = (int)(th_rand32() & 1u);
    size_t sa[5], sb[5], so[5], na = 1, nb = 1, no = 1, i, off_a, off_b, fa, fb;
    mrtq_status st;
    /* every dimension gets a pattern: equal, a 1, b 1, both 1, a shorter, b shorter */
    nda = nd, ndb = nd;
    {
      int cut = (int)th_range(0, nd);
      if (th_rand32() & 1u) nda = nd - cut; else ndb = nd - cut;
    }
    for (d = 0; d < nd; d++) {
      int pat = (int)th_range(0, 3);
      size_t s = (size_t)th_range(2, 5);
      int ia = d - (nd - nda), ib = d - (nd - ndb);
      size_t x = pat == 1 || pat == 3 ? 1 : s, y = pat == 2 || pat == 3 ? 1 : s;
      if (th_rand32() % 24u == 0) { /* an empty dimension: 0 against 0 or 1 (either side) */
        x = 0, y = th_rand32() & 1u;
        if (th_rand32() & 1u) y = x, x = 1 - (th_rand32() & 1u);
      }
      if (ia >= 0) sa[ia] = x; else pat = 4;
      if (ib >= 0) sb[ib] = y; else pat = 5;
      pat_seen[pat]++;
      so[d] = ia >= 0 && ib >= 0 ? (x == 0 || y == 0 ? 0 : x > y ? x : y) : ia >= 0 ? x : y;
    }
    for (d = 0; d < nda; d++) na *= sa[d];
    for (d = 0; d < ndb; d++) nb *= sb[d];
    for (d = 0; d < nd; d++) no *= so[d];
    if (na > 4096 || nb > 4096 || no * 4 > sizeof out) continue;
    fill_rand(a, na, t), fill_rand(b, nb, t);
    memset(out, 0x77, 16);
    if (th_rand32() % 4u == 0) memcpy(b, a, (na < nb ? na : nb) * tsize(t)); /* some equal pairs */
    st = is_max ? mrtq_tflite_maximum(sa, nda, sb, ndb, a, b, t, out) : mrtq_tflite_minimum(sa, nda, sb, ndb, a, b, t, out);
    CHECK_EQ(st, MRTQ_OK, "trial %d", trial);
    trials++;
    for (i = 0; i < no; i++) {
      size_t rest = i, c[5];
      int64_t x, y, want;
      for (d = nd - 1; d >= 0; d--) c[d] = rest % so[d], rest /= so[d];
      off_a = 0, off_b = 0, fa = 1, fb = 1;
      for (d = nda - 1; d >= 0; d--) off_a += (c[d + nd - nda] % sa[d]) * fa, fa *= sa[d];
      for (d = ndb - 1; d >= 0; d--) off_b += (c[d + nd - ndb] % sb[d]) * fb, fb *= sb[d];
      x = get_el(a, off_a, t), y = get_el(b, off_b, t);
      want = is_max ? (x >= y ? x : y) : (x <= y ? x : y);
      CHECK_EQ(get_el(out, i, t), want, "trial %d type %d element %zu", trial, (int)t, i);
      n++;
    }
    if (no == 0) {
      CHECK_EQ(((uint8_t *)out)[0], 0x77, "trial %d: an empty output writes nothing", trial);
      empty_calls++;
    }
  }
  CHECK(empty_calls > 0);
  for (trial = 0; trial < 6; trial++) CHECK(pat_seen[trial] > 0);
  printf("  MAXIMUM / MINIMUM: %lld outputs compared (%lld calls, all 4 types; %lld with an empty output)\n", n, trials,
         empty_calls);
}

static void test_minmax_empty_and_refusals(void) {
  int8_t a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[8] = {0}, out[8];
  size_t z0[2] = {0, 3}, one3[2] = {1, 3}, z1[2] = {2, 0}, s21[2] = {2, 1}, s3[1] = {3}, s4[1] = {4}, s2[2] = {2, 3};
  size_t big[2] = {(size_t)1 << 40, (size_t)1 << 40}, one11[2] = {1, 1};
  memset(out, 0x55, sizeof out);
  /* a zero dimension against 0 or 1: an empty output, nothing written, NULL data allowed */
  CHECK_EQ(mrtq_tflite_maximum(z0, 2, one3, 2, NULL, NULL, MRTQ_S8, NULL), MRTQ_OK, "0 x 1");
  CHECK_EQ(mrtq_tflite_minimum(z1, 2, s21, 2, a, b, MRTQ_S16, out), MRTQ_OK, "0 x 1 (last)");
  CHECK_EQ(mrtq_tflite_minimum(z1, 2, z1, 2, a, b, MRTQ_S32, out), MRTQ_OK, "0 x 0");
  CHECK_EQ(out[0], 0x55, "nothing written");
  CHECK_REFUSED(mrtq_tflite_maximum(z0, 2, s2, 2, a, b, MRTQ_S8, out), MRTQ_ESHAPE, "shape_a, shape_b: sizes differ and neither is 1");
  CHECK_REFUSED(mrtq_tflite_maximum(s3, 1, s4, 1, a, b, MRTQ_S8, out), MRTQ_ESHAPE, "shape_a, shape_b: sizes differ and neither is 1");
  CHECK_REFUSED(mrtq_tflite_maximum(big, 2, one11, 2, a, b, MRTQ_S8, out), MRTQ_ESHAPE, "shape_a, shape_b: element count overflows size_t");
  CHECK_REFUSED(mrtq_tflite_maximum(s2, 9, s2, 2, a, b, MRTQ_S8, out), MRTQ_EINVAL, "nda: must be in [0, MRTQ_MAX_DIMS]");
  CHECK_REFUSED(mrtq_tflite_maximum(s2, 2, s2, -1, a, b, MRTQ_S8, out), MRTQ_EINVAL, "ndb: must be in [0, MRTQ_MAX_DIMS]");
  CHECK_REFUSED(mrtq_tflite_maximum(NULL, 2, s2, 2, a, b, MRTQ_S8, out), MRTQ_EINVAL, "shape_a: NULL with nda > 0");
  CHECK_REFUSED(mrtq_tflite_minimum(s2, 2, NULL, 1, a, b, MRTQ_S8, out), MRTQ_EINVAL, "shape_b: NULL with ndb > 0");
  CHECK_REFUSED(mrtq_tflite_minimum(s2, 2, s2, 2, a, b, (mrtq_dtype)0, out), MRTQ_EINVAL,
                "type: not an mrtq_dtype (0: a zero-initialised operand)");
  CHECK_REFUSED(mrtq_tflite_minimum(s2, 2, s2, 2, a, b, MRTQ_S4, out), MRTQ_EUNSUPPORTED,
                "type: must be MRTQ_S8, MRTQ_U8, MRTQ_S16 or MRTQ_S32 (TFLite has no int4 MAXIMUM / MINIMUM)");
  CHECK_REFUSED(mrtq_tflite_minimum(s2, 2, s2, 2, NULL, b, MRTQ_S8, out), MRTQ_EINVAL, "a: NULL");
  CHECK_REFUSED(mrtq_tflite_minimum(s2, 2, s2, 2, a, NULL, MRTQ_S8, out), MRTQ_EINVAL, "b: NULL");
  CHECK_REFUSED(mrtq_tflite_maximum(s2, 2, s2, 2, a, b, MRTQ_S8, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_EQ(out[0], 0x55, "nothing written on refusal");
  /* rank 0 with rank 0: one element */
  CHECK_EQ(mrtq_tflite_maximum(NULL, 0, NULL, 0, a, b, MRTQ_S8, out), MRTQ_OK, "scalars");
  CHECK_EQ(out[0], 1, "max(1, 0)");
}

/* ---------------- TRANSPOSE ---------------- */

/* every permutation of 0..n-1 in lexicographic order: k-th (k < n!) */
static void kth_perm(int n, int k, int32_t *p) {
  int used[6] = {0}, i, j, f;
  for (i = 0; i < n; i++) {
    for (f = 1, j = 1; j < n - i; j++) f *= j;
    {
      int idx = k / f, c = -1;
      k %= f;
      for (j = 0; j < n; j++)
        if (!used[j] && c++ == idx - 1) break;
      used[j] = 1, p[i] = j;
    }
  }
}

static void transpose_check(const size_t *shape, int nd, const int32_t *perm, mrtq_dtype t, long long *n, const char *what) {
  static uint8_t x[4 * 4096], out[4 * 4096 + 8];
  size_t total = 1, i, osh[6];
  int d, p[6];
  for (d = 0; d < nd; d++) total *= shape[d];
  for (d = 0; d < nd; d++) p[d] = perm[d] < 0 ? perm[d] + nd : perm[d], osh[d] = shape[p[d]];
  if (t == MRTQ_S4) {
    for (i = 0; i < (total + 1) / 2; i++) x[i] = (uint8_t)th_rand32();
  } else {
    fill_rand(x, total, t);
  }
  memset(out, 0xA5, sizeof out);
  CHECK_EQ(mrtq_transpose(shape, nd, perm, x, t, out), MRTQ_OK, "%s", what);
  for (i = 0; i < total; i++) { /* scatter: input element i goes to its output place */
    size_t rest = i, c[6], o = 0;
    for (d = nd - 1; d >= 0; d--) c[d] = rest % shape[d], rest /= shape[d];
    for (d = 0; d < nd; d++) o = o * osh[d] + c[p[d]];
    if (t == MRTQ_S4) {
      int xv = (x[i / 2] >> (4 * (i % 2))) & 15, ov = (out[o / 2] >> (4 * (o % 2))) & 15;
      CHECK_EQ(ov, xv, "%s s4 element %zu", what, i);
    } else {
      CHECK_EQ(get_el(out, o, t), get_el(x, i, t), "%s type %d element %zu -> %zu", what, (int)t, i, o);
    }
    (*n)++;
  }
  if (t == MRTQ_S4 && (total & 1)) CHECK_EQ(out[total / 2] >> 4, 0, "%s: the unused nibble is 0", what);
  if (t != MRTQ_S4) CHECK_EQ(out[total * tsize(t)], 0xA5, "%s: nothing written past the end", what);
  else CHECK_EQ(out[(total + 1) / 2], 0xA5, "%s: nothing written past the end", what);
}

static void test_transpose(void) {
  static const mrtq_dtype types[5] = {MRTQ_S8, MRTQ_U8, MRTQ_S16, MRTQ_S32, MRTQ_S4};
  long long n = 0, perms = 0, empty = 0;
  int nd, k, rep, trial;
  char what[64];
  for (nd = 1; nd <= 4; nd++) { /* every permutation of rank <= 4, random shapes (1s included), every type */
    int f = nd == 1 ? 1 : nd == 2 ? 2 : nd == 3 ? 6 : 24;
    for (k = 0; k < f; k++)
      for (rep = 0; rep < 10; rep++) {
        size_t shape[6];
        int32_t perm[6];
        int d;
        kth_perm(nd, k, perm);
        for (d = 0; d < nd; d++) {
          shape[d] = (size_t)th_range(1, nd <= 2 ? 9 : 5);
          if (th_rand32() % 16u == 0) shape[d] = 0, empty++; /* an empty tensor: nothing written */
          if (th_rand32() % 3u == 0) perm[d] -= nd; /* TFLite's negative axes */
        }
        snprintf(what, sizeof what, "rank %d perm #%d rep %d", nd, k, rep);
        transpose_check(shape, nd, perm, types[rep % 5], &n, what);
        perms++;
      }
  }
  for (trial = 0; trial < 400; trial++) { /* random permutations of rank 5 and 6 */
    size_t shape[6], total = 1;
    int32_t perm[6];
    int d, r = (int)th_range(5, 6);
    kth_perm(r, (int)th_range(0, r == 5 ? 119 : 719), perm);
    for (d = 0; d < r; d++) {
      shape[d] = (size_t)th_range(1, 4), total *= shape[d];
      if (th_rand32() & 1u) perm[d] -= r;
    }
    if (total > 4096) continue;
    snprintf(what, sizeof what, "rank %d trial %d", r, trial);
    transpose_check(shape, r, perm, types[trial % 5], &n, what);
    perms++;
  }
  CHECK(empty > 0);
  printf("  TRANSPOSE: %lld outputs compared (%lld calls, %lld empty; all 33 permutations of rank 1-4, random ones of rank 5-6)\n",
         n, perms, empty);
}

static void test_transpose_edges(void) {
  uint8_t x[64] = {0}, out[64];
  size_t s3[3] = {2, 0, 3}, s2[2] = {2, 3}, huge[2] = {(size_t)1 << 40, (size_t)1 << 40}, wide[1] = {SIZE_MAX / 2};
  size_t s7[7] = {1, 1, 1, 1, 1, 1, 1};
  int32_t p3[3] = {2, 0, 1}, p2[2] = {1, 0}, pdup[2] = {0, -2}, pbig[2] = {2, 0}, plow[2] = {-3, 0}, p7[7] = {0};
  memset(out, 0x5A, sizeof out);
  CHECK_EQ(mrtq_transpose(s3, 3, p3, NULL, MRTQ_S16, NULL), MRTQ_OK, "empty: nothing read or written");
  CHECK_EQ(mrtq_transpose(s3, 3, p3, x, MRTQ_S8, out), MRTQ_OK, "empty");
  CHECK_EQ(out[0], 0x5A, "nothing written");
  CHECK_REFUSED(mrtq_transpose(NULL, 2, p2, x, MRTQ_S8, out), MRTQ_EINVAL, "shape: NULL");
  CHECK_REFUSED(mrtq_transpose(s2, 0, p2, x, MRTQ_S8, out), MRTQ_EINVAL,
                "ndim: must be in [1, MRTQ_TRANSPOSE_MAX_DIMS] (6, TFLite's limit)");
  CHECK_REFUSED(mrtq_transpose(s7, 7, p7, x, MRTQ_S8, out), MRTQ_EINVAL,
                "ndim: must be in [1, MRTQ_TRANSPOSE_MAX_DIMS] (6, TFLite's limit)");
  CHECK_REFUSED(mrtq_transpose(s2, 2, NULL, x, MRTQ_S8, out), MRTQ_EINVAL, "perm: NULL");
  CHECK_REFUSED(mrtq_transpose(s2, 2, p2, x, (mrtq_dtype)9, out), MRTQ_EINVAL,
                "type: not an mrtq_dtype (0: a zero-initialised operand)");
  CHECK_REFUSED(mrtq_transpose(s2, 2, pbig, x, MRTQ_S8, out), MRTQ_EINVAL, "perm[i]: must be in [-ndim, ndim)");
  CHECK_REFUSED(mrtq_transpose(s2, 2, plow, x, MRTQ_S8, out), MRTQ_EINVAL, "perm[i]: must be in [-ndim, ndim)");
  CHECK_REFUSED(mrtq_transpose(s2, 2, pdup, x, MRTQ_S8, out), MRTQ_EINVAL, "perm: not a permutation (an axis named twice)");
  CHECK_REFUSED(mrtq_transpose(huge, 2, p2, x, MRTQ_S8, out), MRTQ_ESHAPE, "shape: the element count overflows size_t");
  CHECK_REFUSED(mrtq_transpose(wide, 1, p2 + 1, x, MRTQ_S32, out), MRTQ_ESHAPE, "shape: the byte count overflows size_t");
  CHECK_REFUSED(mrtq_transpose(s2, 2, p2, NULL, MRTQ_S8, out), MRTQ_EINVAL, "x: NULL");
  CHECK_REFUSED(mrtq_transpose(s2, 2, p2, x, MRTQ_S8, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_EQ(out[0], 0x5A, "nothing written on refusal");
  /* a worked case: [[1 2 3] [4 5 6]] transposed is [[1 4] [2 5] [3 6]] */
  {
    int16_t m[6] = {1, 2, 3, 4, 5, 6}, r[6], want[6] = {1, 4, 2, 5, 3, 6};
    int i;
    CHECK_EQ(mrtq_transpose(s2, 2, p2, m, MRTQ_S16, r), MRTQ_OK, "2x3");
    for (i = 0; i < 6; i++) CHECK_EQ(r[i], want[i], "2x3 element %d", i);
  }
}

/* ---------------- RESIZE_BILINEAR ---------------- */

/* TFLite's 10-bit scale restated: 1024 num / den rounded to nearest, a tie
 * (possible only for an even den) rounded up. */
static int64_t scale10(int64_t num, int64_t den) {
  int64_t q = 1024 * num / den, r = 1024 * num % den;
  return 2 * r >= den ? q + 1 : q;
}

struct axis { int64_t lo, hi, w_lo, w_hi; }; /* weights in 1/1024 */

static struct axis axis10(int64_t v, int64_t in, int64_t outn, int align, int hpc) {
  struct axis a;
  int64_t s = align && outn > 1 ? scale10(in - 1, outn - 1) : scale10(in, outn);
  int64_t t = v * s + (hpc ? s / 2 - 512 : 0), frac;
  a.lo = t <= 0 ? 0 : t / 1024;                            /* floor, clamped below at 0 */
  a.hi = t <= 0 ? 0 : (t % 1024 ? t / 1024 + 1 : t / 1024); /* ceil */
  if (a.hi > in - 1) a.hi = in - 1;
  frac = t - 1024 * a.lo;
  a.w_lo = 1024 - frac, a.w_hi = frac;
  return a;
}

/* round num / 2^20 half away from zero (or half up), by the remainder */
static int64_t round20(int64_t num, int up) {
  int64_t m = num < 0 ? -num : num, q = m >> 20, r = m & ((1 << 20) - 1);
  if (up) return num >= 0 ? (r >= (1 << 19) ? q + 1 : q) : (r > (1 << 19) ? -q - 1 : -q);
  if (r >= (1 << 19)) q++;
  return num < 0 ? -q : q;
}

static long long bl_ties, bl_exact;

static void bilinear_check(int64_t N, int64_t H, int64_t W, int64_t C, int64_t OH, int64_t OW, int align, int hpc,
                           mrtq_dtype t, long long *n) {
  static int16_t x[8192], out[16384], out_up[16384];
  mrtq_tflite_resize_params p;
  size_t shape[4];
  int64_t b, y, xx, c;
  int exact;
  shape[0] = (size_t)N, shape[1] = (size_t)H, shape[2] = (size_t)W, shape[3] = (size_t)C;
  fill_rand(x, (size_t)(N * H * W * C), t);
  CHECK_EQ(mrtq_tflite_resize_init(align, hpc, &p), MRTQ_OK, "init");
  CHECK_EQ(mrtq_tflite_resize_bilinear(&p, shape, (size_t)OH, (size_t)OW, x, t, out), MRTQ_OK,
           "%lldx%lld -> %lldx%lld ac %d hpc %d", (long long)H, (long long)W, (long long)OH, (long long)OW, align, hpc);
  CHECK_EQ(mrtq_tflite_resize_bilinear_rndnu(&p, shape, (size_t)OH, (size_t)OW, x, t, out_up), MRTQ_OK, "rndnu");
  /* the 10-bit scale is the real one: the real positions, exact rationals */
  exact = align ? (OH == 1 || (1024 * (H - 1)) % (OH - 1) == 0) && (OW == 1 || (1024 * (W - 1)) % (OW - 1) == 0)
                : (1024 * H) % OH == 0 && (1024 * W) % OW == 0 && (!hpc || ((1024 * H / OH) % 2 == 0 && (1024 * W / OW) % 2 == 0));
  for (b = 0; b < N; b++)
    for (y = 0; y < OH; y++) {
      struct axis ay = axis10(y, H, OH, align, hpc);
      for (xx = 0; xx < OW; xx++) {
        struct axis ax = axis10(xx, W, OW, align, hpc);
        for (c = 0; c < C; c++) {
          size_t o = (size_t)(((b * OH + y) * OW + xx) * C + c);
#define PX(yy_, xx_) get_el(x, (size_t)(((b * H + (yy_)) * W + (xx_)) * C + c), t)
          int64_t num = ay.w_lo * (ax.w_lo * PX(ay.lo, ax.lo) + ax.w_hi * PX(ay.lo, ax.hi)) +
                        ay.w_hi * (ax.w_lo * PX(ay.hi, ax.lo) + ax.w_hi * PX(ay.hi, ax.hi));
          int64_t want = round20(num, 0);
          CHECK_EQ(get_el(out, o, t), want, "%lldx%lld->%lldx%lld ac %d hpc %d (%lld,%lld,%lld)", (long long)H,
                   (long long)W, (long long)OH, (long long)OW, align, hpc, (long long)y, (long long)xx, (long long)c);
          CHECK_EQ(get_el(out_up, o, t), round20(num, 1), "rndnu (%lld,%lld,%lld)", (long long)y, (long long)xx, (long long)c);
          if ((num < 0 ? -num : num) % (1 << 20) == (1 << 19)) bl_ties++;
          if (exact) { /* real positions: p = num_p / den_p per axis */
            int64_t py_n, py_d, px_n, px_d, ylo, yhi, xlo, xhi, fy, fx, tot, den, m, q;
            py_d = align ? (OH > 1 ? OH - 1 : 1) : hpc ? 2 * OH : OH;
            py_n = align ? (OH > 1 ? y * (H - 1) : 0) : hpc ? (2 * y + 1) * H - OH : y * H;
            px_d = align ? (OW > 1 ? OW - 1 : 1) : hpc ? 2 * OW : OW;
            px_n = align ? (OW > 1 ? xx * (W - 1) : 0) : hpc ? (2 * xx + 1) * W - OW : xx * W;
            ylo = py_n <= 0 ? 0 : py_n / py_d, yhi = py_n <= 0 ? 0 : (py_n + py_d - 1) / py_d;
            xlo = px_n <= 0 ? 0 : px_n / px_d, xhi = px_n <= 0 ? 0 : (px_n + px_d - 1) / px_d;
            if (yhi > H - 1) yhi = H - 1;
            if (xhi > W - 1) xhi = W - 1;
            fy = py_n - ylo * py_d, fx = px_n - xlo * px_d; /* fractions fy / py_d, fx / px_d */
            tot = (py_d - fy) * ((px_d - fx) * PX(ylo, xlo) + fx * PX(ylo, xhi)) +
                  fy * ((px_d - fx) * PX(yhi, xlo) + fx * PX(yhi, xhi));
            den = py_d * px_d;
            m = tot < 0 ? -tot : tot, q = m / den;
            if (2 * (m % den) >= den) q++;
            CHECK_EQ(get_el(out, o, t), tot < 0 ? -q : q, "exact %lldx%lld->%lldx%lld ac %d hpc %d", (long long)H,
                     (long long)W, (long long)OH, (long long)OW, align, hpc);
            bl_exact++;
          }
#undef PX
          (*n)++;
        }
      }
    }
}

/* reference_ops::ResizeBilinear<uint8_t> restated in C float arithmetic, each
 * operation stored to a volatile float (rounded to binary32) */
static void bilinear_u8_check(int64_t N, int64_t H, int64_t W, int64_t C, int64_t OH, int64_t OW, int align, int hpc,
                              long long *n) {
  static uint8_t x[8192], out[16384];
  mrtq_tflite_resize_params p;
  size_t shape[4];
  int64_t b, y, xx, c;
  volatile float sh, sw;
  shape[0] = (size_t)N, shape[1] = (size_t)H, shape[2] = (size_t)W, shape[3] = (size_t)C;
  fill_rand(x, (size_t)(N * H * W * C), MRTQ_U8);
  CHECK_EQ(mrtq_tflite_resize_init(align, hpc, &p), MRTQ_OK, "init");
  CHECK_EQ(mrtq_tflite_resize_bilinear(&p, shape, (size_t)OH, (size_t)OW, x, MRTQ_U8, out), MRTQ_OK, "u8");
  sh = align && OH > 1 ? (float)(H - 1) / (float)(OH - 1) : (float)H / (float)OH;
  sw = align && OW > 1 ? (float)(W - 1) / (float)(OW - 1) : (float)W / (float)OW;
  for (b = 0; b < N; b++)
    for (y = 0; y < OH; y++) {
      volatile float ty = hpc ? ((float)y + 0.5f) * sh : (float)y * sh, dy, ey;
      int64_t y0, y1;
      if (hpc) ty = ty - 0.5f;
      y0 = (int64_t)floorf(ty), y1 = (int64_t)ceilf(ty);
      if (y0 < 0) y0 = 0;
      if (y1 > H - 1) y1 = H - 1;
      dy = ty - (float)y0, ey = 1.0f - dy;
      for (xx = 0; xx < OW; xx++) {
        volatile float tx = hpc ? ((float)xx + 0.5f) * sw : (float)xx * sw, dx, ex;
        int64_t x0, x1;
        if (hpc) tx = tx - 0.5f;
        x0 = (int64_t)floorf(tx), x1 = (int64_t)ceilf(tx);
        if (x0 < 0) x0 = 0;
        if (x1 > W - 1) x1 = W - 1;
        dx = tx - (float)x0, ex = 1.0f - dx;
        for (c = 0; c < C; c++) {
          volatile float v, w;
#define PXU(yy_, xx_) (float)x[(size_t)(((b * H + (yy_)) * W + (xx_)) * C + c)]
          v = PXU(y0, x0) * ey, v = v * ex;
          w = PXU(y1, x0) * dy, w = w * ex, v = v + w;
          w = PXU(y0, x1) * ey, w = w * dx, v = v + w;
          w = PXU(y1, x1) * dy, w = w * dx, v = v + w;
          v = v + 0.5f;
#undef PXU
          CHECK_EQ(out[(size_t)(((b * OH + y) * OW + xx) * C + c)], (int)v, "u8 %lldx%lld->%lldx%lld ac %d hpc %d",
                   (long long)H, (long long)W, (long long)OH, (long long)OW, align, hpc);
          (*n)++;
        }
      }
    }
}

static void test_resize_bilinear_u8(void) {
  long long n = 0, calls = 0;
  int trial;
  for (trial = 0; trial < 1500; trial++) {
    int mode = trial % 3;
    int64_t N = th_range(1, 2), H = th_range(1, 12), W = th_range(1, 12), C = th_range(1, 4); /* drawn in order */
    int64_t OH = th_range(1, 24), OW = th_range(1, 24);
    bilinear_u8_check(N, H, W, C, OH, OW, mode == 1, mode == 2, &n);
    calls++;
  }
  printf("  RESIZE_BILINEAR uint8 (float reference): %lld outputs compared (%lld calls)\n", n, calls);
}

/* The TF interpreter's default (optimized) kernel: int8 / int16 the same bytes
 * as the reference; uint8 (1) ResizeBilinearGenericSmallChannel restated with
 * volatile floats (weights first, corners (y0,x0), (y0,x1), (y1,x0), (y1,x1)),
 * (2) on exact x8 upscales with half-pixel centres and C % 8 == 0, the real
 * interpolation rounded half up, in exact rationals. */
static long long opt_vs_ref_u8, opt_u8_n;
static int opt_vs_ref_max;

static void bilinear_opt_check(int64_t N, int64_t H, int64_t W, int64_t C, int64_t OH, int64_t OW, int align, int hpc,
                               mrtq_dtype t, long long *n) {
  static uint8_t x[2 * 12 * 12 * 16 * 2], ref[2 * 96 * 96 * 16 * 2], opt[2 * 96 * 96 * 16 * 2];
  mrtq_tflite_resize_params p;
  size_t shape[4], i, cnt = (size_t)(N * OH * OW * C);
  int64_t b, y, xx, c;
  int is888 = t == MRTQ_U8 && hpc && !align && OH == 8 * H && OW == 8 * W && C % 8 == 0;
  volatile float sh, sw;
  shape[0] = (size_t)N, shape[1] = (size_t)H, shape[2] = (size_t)W, shape[3] = (size_t)C;
  fill_rand(x, (size_t)(N * H * W * C), t);
  CHECK_EQ(mrtq_tflite_resize_init(align, hpc, &p), MRTQ_OK, "init");
  CHECK_EQ(mrtq_tflite_resize_bilinear(&p, shape, (size_t)OH, (size_t)OW, x, t, ref), MRTQ_OK, "ref");
  CHECK_EQ(mrtq_tflite_resize_bilinear_opt(&p, shape, (size_t)OH, (size_t)OW, x, t, opt), MRTQ_OK, "opt");
  if (t != MRTQ_U8) {
    for (i = 0; i < cnt * tsize(t); i++) CHECK_EQ(opt[i], ref[i], "opt int type %d byte %zu", (int)t, i);
    *n += (long long)cnt;
    return;
  }
  for (i = 0; i < cnt; i++) {
    int d = opt[i] > ref[i] ? opt[i] - ref[i] : ref[i] - opt[i];
    opt_vs_ref_u8 += d != 0;
    if (d > opt_vs_ref_max) opt_vs_ref_max = d;
  }
  opt_u8_n += (long long)cnt;
  sh = align && OH > 1 ? (float)(H - 1) / (float)(OH - 1) : (float)H / (float)OH;
  sw = align && OW > 1 ? (float)(W - 1) / (float)(OW - 1) : (float)W / (float)OW;
  for (b = 0; b < N; b++)
    for (y = 0; y < OH; y++)
      for (xx = 0; xx < OW; xx++)
        for (c = 0; c < C; c++) {
          int64_t want;
#define PXO(yy_, xx_) x[(size_t)(((b * H + (yy_)) * W + (xx_)) * C + c)]
          if (is888) { /* position (2o + 1 - 8) / 16 per axis, clamped to the edge */
            int64_t ty = 2 * y + 1 - 8, tx = 2 * xx + 1 - 8, y0, y1, x0, x1, fy, fx, num;
            if (ty < 0) ty = 0;
            if (ty > 16 * (H - 1)) ty = 16 * (H - 1);
            if (tx < 0) tx = 0;
            if (tx > 16 * (W - 1)) tx = 16 * (W - 1);
            y0 = ty / 16, fy = ty % 16, y1 = fy ? y0 + 1 : y0;
            x0 = tx / 16, fx = tx % 16, x1 = fx ? x0 + 1 : x0;
            num = (16 - fy) * ((16 - fx) * PXO(y0, x0) + fx * PXO(y0, x1)) + fy * ((16 - fx) * PXO(y1, x0) + fx * PXO(y1, x1));
            want = (2 * num + 256) / 512; /* floor(num / 256 + 1/2) */
          } else {
            volatile float ty = hpc ? ((float)y + 0.5f) * sh : (float)y * sh, tx, dy, ey, dx, ex, w00, w01, w10, w11, v, u;
            int64_t y0, y1, x0, x1;
            if (hpc) ty = ty - 0.5f;
            tx = hpc ? ((float)xx + 0.5f) * sw : (float)xx * sw;
            if (hpc) tx = tx - 0.5f;
            y0 = (int64_t)floorf(ty), y1 = (int64_t)ceilf(ty), x0 = (int64_t)floorf(tx), x1 = (int64_t)ceilf(tx);
            if (y0 < 0) y0 = 0;
            if (x0 < 0) x0 = 0;
            if (y1 > H - 1) y1 = H - 1;
            if (x1 > W - 1) x1 = W - 1;
            dy = ty - (float)y0, ey = 1.0f - dy, dx = tx - (float)x0, ex = 1.0f - dx;
            w00 = ey * ex, w01 = ey * dx, w10 = dy * ex, w11 = dy * dx;
            v = (float)PXO(y0, x0) * w00, u = (float)PXO(y0, x1) * w01, v = v + u;
            u = (float)PXO(y1, x0) * w10, v = v + u;
            u = (float)PXO(y1, x1) * w11, v = v + u;
            v = v + 0.5f;
            want = (int64_t)v;
          }
#undef PXO
          CHECK_EQ(opt[(size_t)(((b * OH + y) * OW + xx) * C + c)], want, "opt u8%s %lldx%lld->%lldx%lld ac %d hpc %d",
                   is888 ? " (x8)" : "", (long long)H, (long long)W, (long long)OH, (long long)OW, align, hpc);
          (*n)++;
        }
}

static void test_resize_bilinear_opt(void) {
  long long n = 0, n888 = 0, calls = 0;
  int trial;
  for (trial = 0; trial < 1200; trial++) {
    int mode = trial % 3, align = mode == 1, hpc = mode == 2;
    mrtq_dtype t = trial % 4 == 3 ? (trial % 8 == 3 ? MRTQ_S8 : MRTQ_S16) : MRTQ_U8;
    int64_t N = th_range(1, 2), H = th_range(1, 12), W = th_range(1, 12), C = th_range(1, 4);
    int64_t OH = th_range(1, 24), OW = th_range(1, 24);
    bilinear_opt_check(N, H, W, C, OH, OW, align, hpc, t, &n);
    calls++;
  }
  for (trial = 0; trial < 200; trial++) { /* the x8 fixed-point kernel, and its near misses (C not a multiple of 8) */
    int64_t N = th_range(1, 2), H = th_range(1, 6), W = th_range(1, 6), C = 8 * th_range(1, 2) - (trial % 4 == 3);
    long long before = n;
    bilinear_opt_check(N, H, W, C, 8 * H, 8 * W, 0, 1, MRTQ_U8, &n);
    if (C % 8 == 0) n888 += n - before;
    calls++;
  }
  CHECK(opt_vs_ref_u8 > 0);
  printf("  RESIZE_BILINEAR optimized kernel: %lld outputs compared (%lld calls, %lld on the x8 fixed-point path); "
         "uint8: %lld of %lld bytes differ from the reference kernel, by at most %d\n",
         n, calls, n888, opt_vs_ref_u8, opt_u8_n, opt_vs_ref_max);
}

static void test_resize_bilinear(void) {
  long long n = 0, calls = 0;
  int trial;
  static const int64_t sizes[][2] = {{1, 1}, {1, 5}, {5, 1}, {2, 4}, {4, 2}, {3, 6}, {6, 3}, {3, 9}, {9, 3}, {4, 8},
                                     {8, 4}, {2, 3}, {3, 2}, {3, 5}, {5, 3}, {7, 4}, {4, 7}, {5, 8}, {8, 5}, {1, 2},
                                     {2, 1}, {6, 6}, {5, 10}, {10, 5}, {16, 4}, {4, 16}, {13, 7}, {7, 13}};
  size_t ns = sizeof sizes / sizeof sizes[0];
  for (trial = 0; trial < 1500; trial++) {
    int mode = trial % 3, align = mode == 1, hpc = mode == 2;
    const int64_t *sh = sizes[th_range(0, (int64_t)ns - 1)], *sw = sizes[th_range(0, (int64_t)ns - 1)];
    int64_t N = th_range(1, 2), C = th_range(1, 4);
    mrtq_dtype t = (trial / 3) % 2 ? MRTQ_S16 : MRTQ_S8;
    if (trial % 5 == 4) { /* random sizes as well */
      int64_t H = th_range(1, 12), W = th_range(1, 12), OH = th_range(1, 20), OW = th_range(1, 20);
      bilinear_check(N, H, W, C, OH, OW, align, hpc, t, &n);
    } else {
      bilinear_check(N, sh[0], sw[0], C, sh[1], sw[1], align, hpc, t, &n);
    }
    calls++;
  }
  CHECK(bl_ties > 1000);
  CHECK(bl_exact > 10000);
  printf("  RESIZE_BILINEAR: %lld outputs compared (%lld calls; %lld exact ties; %lld also against exact rationals)\n", n,
         calls, bl_ties, bl_exact);
}

static void test_resize_bilinear_edges(void) {
  mrtq_tflite_resize_params p, both = {1, 1}, bad = {2, 0}, bad2 = {0, -1};
  int8_t x[16] = {0}, out[64];
  int16_t xs[2] = {-3, 0}, os[4];
  size_t s[4] = {1, 2, 2, 1}, e0[4] = {0, 2, 2, 1}, ec[4] = {1, 2, 2, 0}, h0[4] = {1, 0, 2, 1}, w0[4] = {1, 2, 0, 1};
  size_t big[4] = {1, (size_t)1 << 21, 1, 1}, bigw[4] = {1, 1, (size_t)1 << 21, 1}, tall[4] = {1, (size_t)1 << 20, 1, 1};
  size_t one[4] = {1, 1, 1, 1}, huge[4] = {INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX};
  size_t bytes[4] = {(size_t)1 << 30, (size_t)1 << 30, 8, 1}, over[4] = {1, (size_t)INT32_MAX + 1, 1, 1};
  size_t row2[4] = {1, 1, 2, 1};
  CHECK_EQ(mrtq_tflite_resize_init(0, 0, &p), MRTQ_OK, "init");
  memset(out, 0x33, sizeof out);
  CHECK_EQ(mrtq_tflite_resize_bilinear(&p, e0, 3, 3, NULL, MRTQ_S8, NULL), MRTQ_OK, "N = 0");
  CHECK_EQ(mrtq_tflite_resize_bilinear(&p, ec, 3, 3, x, MRTQ_S8, out), MRTQ_OK, "C = 0");
  CHECK_EQ(out[0], 0x33, "nothing written");
  /* a negative tie: -3 and 0 halfway is -1.5: -2 by default (away from zero), -1 in the single-rounding build */
  CHECK_EQ(mrtq_tflite_resize_bilinear(&p, row2, 1, 4, xs, MRTQ_S16, os), MRTQ_OK, "tie");
  CHECK_EQ(os[1], -2, "default: ties away from zero");
  CHECK_EQ(mrtq_tflite_resize_bilinear_rndnu(&p, row2, 1, 4, xs, MRTQ_S16, os), MRTQ_OK, "tie");
  CHECK_EQ(os[1], -1, "single rounding: ties up");
  CHECK_REFUSED(mrtq_tflite_resize_init(2, 0, &p), MRTQ_EINVAL, "align_corners: must be 0 or 1");
  CHECK_REFUSED(mrtq_tflite_resize_init(0, 3, &p), MRTQ_EINVAL, "half_pixel_centers: must be 0 or 1");
  CHECK_REFUSED(mrtq_tflite_resize_init(0, 0, NULL), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(NULL, s, 3, 3, x, MRTQ_S8, out), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&bad, s, 3, 3, x, MRTQ_S8, out), MRTQ_EINVAL, "p->align_corners: must be 0 or 1");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&bad2, s, 3, 3, x, MRTQ_S8, out), MRTQ_EINVAL,
                "p->half_pixel_centers: must be 0 or 1");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&both, s, 3, 3, x, MRTQ_S8, out), MRTQ_EINVAL,
                "p->half_pixel_centers: must be 0 with p->align_corners (TFLite's RESIZE_BILINEAR refuses both)");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, NULL, 3, 3, x, MRTQ_S8, out), MRTQ_EINVAL, "in_shape: NULL");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, over, 3, 3, x, MRTQ_S8, out), MRTQ_EINVAL,
                "in_shape[i]: above INT32_MAX (TFLite's dims are int32)");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, s, (size_t)INT32_MAX + 1, 3, x, MRTQ_S8, out), MRTQ_EINVAL,
                "out_h: above INT32_MAX (TFLite's sizes are int32)");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, s, 3, (size_t)INT32_MAX + 1, x, MRTQ_S8, out), MRTQ_EINVAL,
                "out_w: above INT32_MAX (TFLite's sizes are int32)");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, s, 0, 3, x, MRTQ_S8, out), MRTQ_EINVAL,
                "out_h: must be >= 1 (TFLite's RESIZE_BILINEAR refuses a size <= 0)");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, s, 3, 0, x, MRTQ_S8, out), MRTQ_EINVAL,
                "out_w: must be >= 1 (TFLite's RESIZE_BILINEAR refuses a size <= 0)");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, s, 3, 3, x, (mrtq_dtype)0, out), MRTQ_EINVAL,
                "type: not an mrtq_dtype (0: a zero-initialised operand)");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, s, 3, 3, x, MRTQ_S32, out), MRTQ_EUNSUPPORTED,
                "type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S16 (TFLite's RESIZE_BILINEAR types)");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear_rndnu(&p, s, 3, 3, x, MRTQ_S4, out), MRTQ_EUNSUPPORTED,
                "type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S16 (TFLite's RESIZE_BILINEAR types)");
  /* uint8 (float): 1 row to 16777211, fl(1 / 16777211) * 16777210 rounds to 1.0: TFLite would read row 1 */
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, one, 16777211, 1, x, MRTQ_U8, out), MRTQ_ERANGE,
                "out_h: TFLite's float position of the last row is past the input (it would read outside x)");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, one, 1, 16777211, x, MRTQ_U8, out), MRTQ_ERANGE,
                "out_w: TFLite's float position of the last column is past the input (it would read outside x)");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, huge, 3, 3, x, MRTQ_S8, out), MRTQ_ESHAPE,
                "in_shape, out_h, out_w: an element count overflows size_t");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, bytes, 1, 1, x, MRTQ_S16, out), MRTQ_ESHAPE,
                "in_shape, out_h, out_w: a byte count overflows size_t");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, h0, 3, 3, x, MRTQ_S8, out), MRTQ_ESHAPE,
                "in_shape: H or W is 0 with a non-empty output (TFLite would read outside x)");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, w0, 3, 3, x, MRTQ_S8, out), MRTQ_ESHAPE,
                "in_shape: H or W is 0 with a non-empty output (TFLite would read outside x)");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, s, 3, 3, NULL, MRTQ_S8, out), MRTQ_EINVAL, "x: NULL");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, s, 3, 3, x, MRTQ_S8, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, big, 1, 1, x, MRTQ_S8, out), MRTQ_ERANGE,
                "in_shape: 1024 * H (or W) overflows TFLite's int32 scale");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, bigw, 1, 1, x, MRTQ_S8, out), MRTQ_ERANGE,
                "in_shape: 1024 * H (or W) overflows TFLite's int32 scale");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, tall, INT32_MAX, 1, x, MRTQ_S8, out), MRTQ_ERANGE,
                "out_h, out_w: the 10-bit position overflows TFLite's int32");
  /* H = 1 to 1500 rows: s = (1024 + 750) / 1500 = 1, the last row's floor is 1 > H - 1 */
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, one, 1500, 1, x, MRTQ_S8, out), MRTQ_ERANGE,
                "out_h: TFLite's rounded 10-bit scale puts the last row past the input (it would read outside x)");
  CHECK_REFUSED(mrtq_tflite_resize_bilinear(&p, one, 1, 1500, x, MRTQ_S8, out), MRTQ_ERANGE,
                "out_w: TFLite's rounded 10-bit scale puts the last column past the input (it would read outside x)");
  /* ... and 1 to 1024 is fine: s = 1, the last position 1023 < 1024 */
  CHECK_EQ(mrtq_tflite_resize_bilinear(&p, one, 1, 16, x, MRTQ_S8, out), MRTQ_OK, "1 -> 16");
}

/* ---------------- RESIZE_NEAREST_NEIGHBOR ---------------- */

/* GetNearestNeighbor in binary32, every operation rounded through a volatile */
static int64_t nn_index(int64_t v, int64_t in, int64_t outn, int align, int hpc, int64_t *exact) {
  volatile float scale, t, fin, fout, off;
  int64_t r;
  fin = (float)(align && outn > 1 ? in - 1 : in);
  fout = (float)(align && outn > 1 ? outn - 1 : outn);
  scale = fin / fout;
  off = hpc ? 0.5f : 0.0f;
  t = (float)v + off;
  t = t * scale;
  r = align ? (int64_t)roundf(t) : (int64_t)floorf(t);
  if (r > in - 1) r = in - 1;
  if (hpc && r < 0) r = 0;
  { /* the same index in exact rationals: (2v + h) (in') / (2 out') */
    int64_t num = (2 * v + (hpc ? 1 : 0)) * (align && outn > 1 ? in - 1 : in), den = 2 * (align && outn > 1 ? outn - 1 : outn);
    int64_t e = align ? (2 * num + den) / (2 * den) : num / den;
    if (e > in - 1) e = in - 1;
    *exact = e;
  }
  return r;
}

static long long nn_float_vs_exact;

static void nearest_check(int64_t N, int64_t H, int64_t W, int64_t C, int64_t OH, int64_t OW, int align, int hpc,
                          mrtq_dtype t, long long *n) {
  static int32_t x[8192], out[16384];
  mrtq_tflite_resize_params p;
  size_t shape[4];
  int64_t b, y, xx, c, ey, ex;
  shape[0] = (size_t)N, shape[1] = (size_t)H, shape[2] = (size_t)W, shape[3] = (size_t)C;
  fill_rand(x, (size_t)(N * H * W * C), t);
  CHECK_EQ(mrtq_tflite_resize_init(align, hpc, &p), MRTQ_OK, "init");
  CHECK_EQ(mrtq_tflite_resize_nearest(&p, shape, (size_t)OH, (size_t)OW, x, t, out), MRTQ_OK, "nearest");
  for (b = 0; b < N; b++)
    for (y = 0; y < OH; y++) {
      int64_t iy = nn_index(y, H, OH, align, hpc, &ey);
      if (iy != ey) nn_float_vs_exact++;
      for (xx = 0; xx < OW; xx++) {
        int64_t ix = nn_index(xx, W, OW, align, hpc, &ex);
        for (c = 0; c < C; c++) {
          CHECK_EQ(get_el(out, (size_t)(((b * OH + y) * OW + xx) * C + c), t),
                   get_el(x, (size_t)(((b * H + iy) * W + ix) * C + c), t), "%lldx%lld->%lldx%lld ac %d hpc %d",
                   (long long)H, (long long)W, (long long)OH, (long long)OW, align, hpc);
          (*n)++;
        }
      }
    }
}

static void test_resize_nearest(void) {
  long long n = 0, calls = 0;
  int trial;
  for (trial = 0; trial < 2000; trial++) {
    int mode = trial % 4, align = mode & 1, hpc = mode >> 1; /* all four, both flags together included */
    int64_t H = th_range(1, 12), W = th_range(1, 12), OH = th_range(1, 25), OW = th_range(1, 25);
    if (trial % 7 == 0) OH = 1;
    if (trial % 11 == 0) H = 1;
    int64_t N = th_range(1, 2), C = th_range(1, 3); /* drawn in order: the same shapes on every compiler */
    nearest_check(N, H, W, C, OH, OW, align, hpc, all_types[trial % 4], &n);
    calls++;
  }
  {
    /* float vs exact: the index TFLite's float steps give can differ from the exact one, e.g. 3 -> 49 rows
       without flags (scale fl(3/49)); the float one is what TFLite and mrtq compute */
    long long before = nn_float_vs_exact;
    int64_t in, o, v, e;
    for (in = 1; in <= 64; in++)
      for (o = 1; o <= 200; o++)
        for (v = 0; v < o; v++) (void)(nn_index(v, in, o, 0, 0, &e) != e ? nn_float_vs_exact++ : 0);
    printf("  RESIZE_NEAREST_NEIGHBOR: float index != exact index for %lld of the (in <= 64, out <= 200) rows\n",
           nn_float_vs_exact - before);
    for (in = 1; in <= 64; in += 7) /* the full kernel on some of those shapes */
      for (o = 1; o <= 200; o += 13) nearest_check(1, in, 1, 1, o, 1, 0, 0, MRTQ_U8, &n), calls++;
  }
  printf("  RESIZE_NEAREST_NEIGHBOR: %lld outputs compared (%lld calls, all 4 flag pairs, all 4 types)\n", n, calls);
}

static void test_resize_nearest_edges(void) {
  mrtq_tflite_resize_params p, bad = {0, 5};
  uint8_t x[16] = {0}, out[64];
  size_t s[4] = {1, 2, 2, 1}, e0[4] = {0, 0, 0, 1}, h0[4] = {1, 0, 2, 1};
  size_t over[4] = {1, 1, (size_t)INT32_MAX + 1, 1};
  CHECK_EQ(mrtq_tflite_resize_init(1, 1, &p), MRTQ_OK, "both flags: allowed for nearest");
  memset(out, 0x44, sizeof out);
  CHECK_EQ(mrtq_tflite_resize_nearest(&p, s, 0, 3, NULL, MRTQ_S8, NULL), MRTQ_OK, "out_h 0: empty");
  CHECK_EQ(mrtq_tflite_resize_nearest(&p, e0, 3, 3, x, MRTQ_S8, out), MRTQ_OK, "N 0, H 0: empty");
  CHECK_EQ(out[0], 0x44, "nothing written");
  CHECK_REFUSED(mrtq_tflite_resize_nearest(NULL, s, 3, 3, x, MRTQ_S8, out), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_tflite_resize_nearest(&bad, s, 3, 3, x, MRTQ_S8, out), MRTQ_EINVAL,
                "p->half_pixel_centers: must be 0 or 1");
  CHECK_REFUSED(mrtq_tflite_resize_nearest(&p, over, 3, 3, x, MRTQ_S8, out), MRTQ_EINVAL,
                "in_shape[i]: above INT32_MAX (TFLite's dims are int32)");
  CHECK_REFUSED(mrtq_tflite_resize_nearest(&p, s, 3, 3, x, MRTQ_S4, out), MRTQ_EUNSUPPORTED,
                "type: must be MRTQ_S8, MRTQ_U8, MRTQ_S16 or MRTQ_S32 (TFLite has no int4 resize)");
  CHECK_REFUSED(mrtq_tflite_resize_nearest(&p, h0, 3, 3, x, MRTQ_S8, out), MRTQ_ESHAPE,
                "in_shape: H or W is 0 with a non-empty output (TFLite would read outside x)");
  CHECK_REFUSED(mrtq_tflite_resize_nearest(&p, s, 3, 3, NULL, MRTQ_S8, out), MRTQ_EINVAL, "x: NULL");
  CHECK_REFUSED(mrtq_tflite_resize_nearest(&p, s, 3, 3, x, MRTQ_S8, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_EQ(out[0], 0x44, "nothing written on refusal");
}

int main(void) {
  TH_RUN(test_minmax);
  TH_RUN(test_minmax_empty_and_refusals);
  TH_RUN(test_transpose);
  TH_RUN(test_transpose_edges);
  TH_RUN(test_resize_bilinear);
  TH_RUN(test_resize_bilinear_u8);
  TH_RUN(test_resize_bilinear_opt);
  TH_RUN(test_resize_bilinear_edges);
  TH_RUN(test_resize_nearest);
  TH_RUN(test_resize_nearest_edges);
  return th_finish("test_layout_ops");
}
