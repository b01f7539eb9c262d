/* Batched matrix multiplication (mrtq_matmul_s32 / _q8 in mrtq/conv.h) against
 * the direct definition sum_t (A - za)(B - zb_j) + bias_j computed here in
 * 64-bit: random shapes (batch, shared or per-batch B, int8/uint8 on each side,
 * per-tensor or per-column zero points, bias), attention-style and FC-style
 * real shapes, requantized outputs against mrtq_rq_apply of the exact sum and
 * against float math, guard bytes, the exact int32 worst-case boundary, and
 * every bad input a status with nothing written. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "mrtq.h"

#define GUARD 64

static long long compared;

typedef struct {
  size_t batch, m, k, n;
  int b_shared, use_bias;
  mrtq_qoperand a, b;
  int32_t zb[256], bias[256];
} mm_t;

static int64_t oracle_at(const mm_t *t, size_t bi, size_t i, size_t j) {
  int64_t acc = 0;
  size_t u, bb = t->b_shared ? 0 : bi;
  int64_t za = t->a.zp, zb = t->b.zp_ch ? t->b.zp_ch[j] : t->b.zp;
  for (u = 0; u < t->k; u++) {
    size_t ia = (bi * t->m + i) * t->k + u, ib = (bb * t->k + u) * t->n + j;
    int64_t av = t->a.type == MRTQ_U8 ? ((const uint8_t *)t->a.data)[ia] : ((const int8_t *)t->a.data)[ia];
    int64_t bv = t->b.type == MRTQ_U8 ? ((const uint8_t *)t->b.data)[ib] : ((const int8_t *)t->b.data)[ib];
    acc += (av - za) * (bv - zb);
  }
  return acc + (t->use_bias ? t->bias[j] : 0);
}

static int guards_ok(const uint8_t *buf, size_t bytes) {
  size_t i;
  for (i = 0; i < GUARD; i++)
    if (buf[i] != 0xa5 || buf[GUARD + bytes + i] != 0xa5) return 0;
  return 1;
}

static void run(mm_t *t) {
  size_t ny = t->batch * t->m * t->n, i;
  uint8_t *a32 = (uint8_t *)malloc(ny * 4 + 2 * GUARD), *a8 = (uint8_t *)malloc(ny + 2 * GUARD);
  mrtq_rq rq[256];
  double scale[256];
  int out_u = (int)(th_rand32() & 1u), per_col = (int)(th_rand32() & 1u), fam = (int)(th_rand32() % 5u);
  const int32_t *bias = t->use_bias ? t->bias : NULL;
  if (!a32 || !a8) return;
  memset(a32, 0xa5, ny * 4 + 2 * GUARD), memset(a8, 0xa5, ny + 2 * GUARD);
  CHECK_EQ(mrtq_matmul_s32(t->batch, t->m, t->k, t->n, &t->a, &t->b, t->b_shared, bias, (int32_t *)(void *)(a32 + GUARD)),
           MRTQ_OK, "s32");
  CHECK(guards_ok(a32, ny * 4));
  for (i = 0; i < (per_col ? t->n : 1); i++) {
    scale[i] = ldexp(1.0 + (double)(th_rand32() % 1000u) / 1000.0, -(int)th_range(5, 14));
    CHECK_EQ(mrtq_rq_init((mrtq_scheme)fam, scale[i], (int32_t)th_range(out_u ? 100 : -20, out_u ? 150 : 20),
                          out_u ? 0 : -128, out_u ? 255 : 127, &rq[i]),
             MRTQ_OK, "rq");
  }
  CHECK_EQ(mrtq_matmul_q8(t->batch, t->m, t->k, t->n, rq, per_col ? t->n : 1, &t->a, &t->b, t->b_shared, bias,
                          out_u ? MRTQ_U8 : MRTQ_S8, a8 + GUARD),
           MRTQ_OK, "q8");
  CHECK(guards_ok(a8, ny));
  for (i = 0; i < ny; i++) {
    size_t j = i % t->n, row = i / t->n, bi = row / t->m, r = row % t->m;
    int64_t want = oracle_at(t, bi, r, j);
    int32_t got32, got8 = out_u ? a8[GUARD + i] : (int8_t)a8[GUARD + i];
    const mrtq_rq *q = &rq[per_col ? j : 0];
    memcpy(&got32, a32 + GUARD + 4 * i, 4);
    if (got32 != want) CHECK_EQ(got32, want, "acc %zu", i);
    if (got8 != mrtq_rq_apply(q, (int32_t)want, out_u ? 0 : -128, out_u ? 255 : 127))
      CHECK_EQ(got8, mrtq_rq_apply(q, (int32_t)want, out_u ? 0 : -128, out_u ? 255 : 127), "q8 %zu", i);
    if (fam == MRTQ_Q31_RNDNU) { /* one rounding: within half an LSB of the real value (plus the encoding error) */
      double lo = out_u ? 0 : -128, hi = out_u ? 255 : 127, real = (double)want * scale[per_col ? j : 0] + q->zp;
      real = real < lo ? lo : real > hi ? hi : real;
      CHECK(fabs(real - got8) <= 0.5 + 1e-6);
    }
  }
  compared += (long long)ny * 2;
  free(a32), free(a8);
}

static void fill(uint8_t *buf, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) buf[i] = (uint8_t)th_rand32();
}

static void random_zp(mrtq_qoperand *q) {
  q->zp = th_rand32() & 1u ? 0 : q->type == MRTQ_U8 ? (int32_t)th_range(0, 255) : (int32_t)th_range(-128, 127);
}

static void test_random(void) {
  static uint8_t ab[3 * 17 * 17], bb[3 * 17 * 17];
  int trial;
  for (trial = 0; trial < 500; trial++) {
    mm_t t;
    size_t j;
    memset(&t, 0, sizeof t);
    t.batch = (size_t)th_range(1, 3), t.m = (size_t)th_range(1, 17), t.k = (size_t)th_range(1, 17);
    t.n = (size_t)th_range(1, 17), t.b_shared = (int)(th_rand32() & 1u), t.use_bias = (int)(th_rand32() & 1u);
    t.a.type = th_rand32() & 1u ? MRTQ_U8 : MRTQ_S8, t.b.type = th_rand32() & 1u ? MRTQ_U8 : MRTQ_S8;
    random_zp(&t.a), random_zp(&t.b);
    fill(ab, sizeof ab), fill(bb, sizeof bb);
    t.a.data = ab, t.b.data = bb;
    if (th_rand32() % 3u == 0) {
      t.b.zp_ch = t.zb, t.b.zp = 0; /* zp_ch replaces zp */
      for (j = 0; j < t.n; j++) t.zb[j] = t.b.type == MRTQ_U8 ? (int32_t)th_range(0, 255) : (int32_t)th_range(-128, 127);
    }
    for (j = 0; j < t.n; j++) t.bias[j] = (int32_t)th_range(-100000, 100000);
    run(&t);
  }
  printf("  random: %lld outputs compared\n", compared);
}

/* hand-checked: A = [[1, 2], [3, 4]] (za 1), B = [[1, 0], [0, 1]] (zb 0):
 * (A - 1) I = [[0, 1], [2, 3]]; bias {10, 20} -> [[10, 21], [12, 23]]. */
static void test_hand(void) {
  int8_t a[4] = {1, 2, 3, 4}, b[4] = {1, 0, 0, 1};
  int32_t bias[2] = {10, 20}, y[4] = {0, 0, 0, 0};
  mrtq_qoperand qa, qb;
  memset(&qa, 0, sizeof qa), memset(&qb, 0, sizeof qb);
  qa.data = a, qa.zp = 1, qb.data = b, qa.type = qb.type = MRTQ_S8;
  CHECK_EQ(mrtq_matmul_s32(1, 2, 2, 2, &qa, &qb, 1, bias, y), MRTQ_OK, "hand");
  CHECK(y[0] == 10 && y[1] == 21 && y[2] == 12 && y[3] == 23);
}

/* real shapes: attention scores (12 heads, 32 tokens, head size 64: Q K^T per
 * head), the context product, and an FC-style 16 x 1024 x 256 with shared
 * weights and per-column zero points. */
static void test_real(void) {
  static uint8_t ab[12 * 64 * 64], bb[1024 * 256];
  static const size_t shapes[][5] = {{12, 32, 64, 32, 0}, {12, 32, 32, 64, 0}, {1, 16, 1024, 256, 1}};
  size_t i, j;
  long long before = compared;
  for (i = 0; i < 3; i++) {
    mm_t t;
    memset(&t, 0, sizeof t);
    t.batch = shapes[i][0], t.m = shapes[i][1], t.k = shapes[i][2], t.n = shapes[i][3], t.b_shared = (int)shapes[i][4];
    t.a.type = i == 2 ? MRTQ_U8 : MRTQ_S8, t.b.type = MRTQ_S8, t.a.zp = i == 2 ? 128 : 3, t.b.zp = i == 1 ? -5 : 0, t.use_bias = (int)(i == 2);
    if (i == 2) {
      t.b.zp_ch = t.zb;
      for (j = 0; j < t.n; j++) t.zb[j] = (int32_t)th_range(-3, 3);
    }
    for (j = 0; j < t.n; j++) t.bias[j] = (int32_t)th_range(-50000, 50000);
    fill(ab, sizeof ab), fill(bb, sizeof bb);
    t.a.data = ab, t.b.data = bb;
    run(&t);
  }
  printf("  real shapes: %lld outputs compared\n", compared - before);
}

/* The worst case is exact: int8 x int8 symmetric admits k = floor((2^31 - 1) /
 * 2^14) = 131071 and refuses 131072; with za = -128 and uint8 B (zb 0):
 * k (128 * 255 + 128 * 255) < 2^31 gives k <= 32896. */
static void test_overflow_boundary(void) {
  static int8_t a[131072], b[131072];
  static uint8_t bu[131072];
  int32_t y = 0;
  int64_t want = 0;
  size_t i;
  mrtq_qoperand qa, qb;
  memset(&qa, 0, sizeof qa), memset(&qb, 0, sizeof qb);
  for (i = 0; i < 131072; i++) a[i] = -128, b[i] = -128, bu[i] = 255;
  qa.data = a, qb.data = b, qa.type = qb.type = MRTQ_S8;
  CHECK_EQ(mrtq_matmul_s32(1, 1, 131071, 1, &qa, &qb, 1, NULL, &y), MRTQ_OK, "k max");
  CHECK_EQ(y, 131071LL * 16384, "k max value");
  y = 7;
  CHECK_REFUSED(mrtq_matmul_s32(1, 1, 131072, 1, &qa, &qb, 1, NULL, &y), MRTQ_EOVERFLOW, "k: k |A| |B|");
  CHECK_EQ(y, 7, "untouched");
  qa.zp = -128, qb.data = bu, qb.type = MRTQ_U8;
  for (i = 0; i < 32896; i++) want += (int64_t)(a[i] + 128) * bu[i];
  CHECK_EQ(mrtq_matmul_s32(1, 1, 32896, 1, &qa, &qb, 1, NULL, &y), MRTQ_OK, "zp k max");
  CHECK_EQ(y, want, "zp k max value");
  CHECK_EQ(mrtq_matmul_s32(1, 1, 32897, 1, &qa, &qb, 1, NULL, &y), MRTQ_EOVERFLOW, "zp k max + 1");
  /* a bias pushes the bound: at k = 131071 only |bias| <= 2^31 - 1 - 131071 * 2^14 = 16383 fits */
  {
    int32_t bias = 16383;
    qa.zp = 0, qb.data = b, qb.type = MRTQ_S8;
    CHECK_EQ(mrtq_matmul_s32(1, 1, 131071, 1, &qa, &qb, 1, &bias, &y), MRTQ_OK, "bias fits");
    bias = -16384;
    CHECK_EQ(mrtq_matmul_s32(1, 1, 131071, 1, &qa, &qb, 1, &bias, &y), MRTQ_EOVERFLOW, "bias too large");
  }
}

static void test_bad_input(void) {
  int8_t a[4] = {0}, b[4] = {0};
  uint8_t out[4 + 2 * GUARD];
  int32_t y[4], zb[2] = {0, 300};
  mrtq_qoperand qa, qb;
  mrtq_rq rq;
  memset(&qa, 0, sizeof qa), memset(&qb, 0, sizeof qb), memset(&rq, 0, sizeof rq);
  memset(out, 0xa5, sizeof out);
  qa.data = a, qb.data = b, qa.type = qb.type = MRTQ_S8;
  CHECK_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.5, 0, -128, 127, &rq), MRTQ_OK, "rq");
  CHECK_REFUSED(mrtq_matmul_s32(0, 2, 2, 2, &qa, &qb, 0, NULL, y), MRTQ_ESHAPE, "batch: must be >= 1");
  CHECK_REFUSED(mrtq_matmul_s32(1, 0, 2, 2, &qa, &qb, 0, NULL, y), MRTQ_ESHAPE, "m: must be >= 1");
  CHECK_REFUSED(mrtq_matmul_s32(1, 2, 0, 2, &qa, &qb, 0, NULL, y), MRTQ_ESHAPE, "k: must be >= 1");
  CHECK_REFUSED(mrtq_matmul_s32(1, 2, 2, 0, &qa, &qb, 0, NULL, y), MRTQ_ESHAPE, "n: must be >= 1");
  CHECK_REFUSED(mrtq_matmul_s32(SIZE_MAX / 2, 4, 2, 2, &qa, &qb, 0, NULL, y), MRTQ_ESHAPE, "A's or Y's element count");
  CHECK_REFUSED(mrtq_matmul_s32(1, 1, SIZE_MAX / 2, 4, &qa, &qb, 1, NULL, y), MRTQ_ESHAPE, "B's element count");
  CHECK_REFUSED(mrtq_matmul_s32(1, 2, 2, 2, NULL, &qb, 0, NULL, y), MRTQ_EINVAL, "a: NULL");
  CHECK_REFUSED(mrtq_matmul_s32(1, 2, 2, 2, &qa, NULL, 0, NULL, y), MRTQ_EINVAL, "b: NULL");
  CHECK_REFUSED(mrtq_matmul_s32(1, 2, 2, 2, &qa, &qb, 0, NULL, NULL), MRTQ_EINVAL, "acc: NULL");
  qa.data = NULL;
  CHECK_REFUSED(mrtq_matmul_s32(1, 2, 2, 2, &qa, &qb, 0, NULL, y), MRTQ_EINVAL, "a->data: NULL");
  qa.data = a, qb.data = NULL;
  CHECK_REFUSED(mrtq_matmul_s32(1, 2, 2, 2, &qa, &qb, 0, NULL, y), MRTQ_EINVAL, "b->data: NULL");
  qb.data = b, qa.type = MRTQ_S4;
  CHECK_REFUSED(mrtq_matmul_s32(1, 2, 2, 2, &qa, &qb, 0, NULL, y), MRTQ_EUNSUPPORTED, "a->type: must be MRTQ_S8 or MRTQ_U8");
  qa.type = (mrtq_dtype)0;
  CHECK_REFUSED(mrtq_matmul_s32(1, 2, 2, 2, &qa, &qb, 0, NULL, y), MRTQ_EINVAL, "a->type: not an mrtq_dtype");
  qa.type = MRTQ_S8, qb.type = MRTQ_S32;
  CHECK_REFUSED(mrtq_matmul_s32(1, 2, 2, 2, &qa, &qb, 0, NULL, y), MRTQ_EUNSUPPORTED, "b->type: must be MRTQ_S8 or MRTQ_U8");
  qb.type = (mrtq_dtype)9;
  CHECK_REFUSED(mrtq_matmul_s32(1, 2, 2, 2, &qa, &qb, 0, NULL, y), MRTQ_EINVAL, "b->type: not an mrtq_dtype");
  qb.type = MRTQ_S8, qa.zp = 128;
  CHECK_REFUSED(mrtq_matmul_s32(1, 2, 2, 2, &qa, &qb, 0, NULL, y), MRTQ_EINVAL, "a->zp: outside a->type's range");
  qa.zp = 0, qb.zp = -129;
  CHECK_REFUSED(mrtq_matmul_s32(1, 2, 2, 2, &qa, &qb, 0, NULL, y), MRTQ_EINVAL, "b->zp: outside b->type's range");
  qb.zp = 0, qa.zp_ch = zb;
  CHECK_REFUSED(mrtq_matmul_s32(1, 2, 2, 2, &qa, &qb, 0, NULL, y), MRTQ_EINVAL, "a->zp_ch: must be NULL");
  qa.zp_ch = NULL, qb.zp_ch = zb;
  CHECK_REFUSED(mrtq_matmul_s32(1, 2, 2, 2, &qa, &qb, 0, NULL, y), MRTQ_EINVAL, "b->zp_ch[j]: outside b->type's range");
  zb[1] = 0, qb.zp = 1; /* silently replaced by zp_ch before: now refused */
  CHECK_REFUSED(mrtq_matmul_s32(1, 2, 2, 2, &qa, &qb, 0, NULL, y), MRTQ_EINVAL, "b->zp: must be 0 beside b->zp_ch");
  qb.zp_ch = NULL, qb.zp = 0, zb[1] = 300;
  CHECK_REFUSED(mrtq_matmul_q8(1, 2, 2, 2, NULL, 1, &qa, &qb, 0, NULL, MRTQ_S8, out + GUARD), MRTQ_EINVAL, "rq: NULL");
  CHECK_REFUSED(mrtq_matmul_q8(1, 2, 2, 2, &rq, 3, &qa, &qb, 0, NULL, MRTQ_S8, out + GUARD), MRTQ_EINVAL, "nrq: must be 1 or n");
  CHECK_REFUSED(mrtq_matmul_q8(1, 2, 2, 2, &rq, 1, &qa, &qb, 0, NULL, MRTQ_S16, out + GUARD), MRTQ_EUNSUPPORTED, "dst_type: must be MRTQ_S8 or MRTQ_U8");
  CHECK_REFUSED(mrtq_matmul_q8(1, 2, 2, 2, &rq, 1, &qa, &qb, 0, NULL, MRTQ_S8, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK(guards_ok(out, 4));
  CHECK(out[GUARD] == 0xa5 && out[GUARD + 3] == 0xa5); /* nothing written */
}

int main(void) {
  TH_RUN(test_hand);
  TH_RUN(test_random);
  TH_RUN(test_real);
  TH_RUN(test_overflow_boundary);
  TH_RUN(test_bad_input);
  return th_finish("test_matmul");
}
