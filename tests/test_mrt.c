/* MRT's operators on int32 expansion tensors (mrtq/eltwise.h, mrtq/shape.h):
 * broadcast_add / sub / mul with per-input rescaling, the lazy channel split
 * (mrtq_slice) and both lazy merges (by broadcast_add: mrtq_mrt_merge_add, by
 * concat: mrtq_mrt_concat) with both merge-scale choices, and flatten.
 * Oracles: explicit index loops written here, the rescale computed exactly in
 * 128-bit arithmetic from the encoded multiplier (tests/oracle.h), a
 * per-channel convolution in 64-bit, and float64 for the error bounds. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "mrtq.h"
#include "oracle.h"

static long long compared;

/* The rescale of d through rq, exactly: the families' definitions
 * (docs/semantics.md §5) then + zp and the clamp. */
static int64_t o_rescale(const mrtq_rq *rq, int64_t d) {
  i128 v;
  int s = rq->m.shift;
  switch (rq->scheme) {
    case MRTQ_Q31_RNDNU: v = o_round_half_up((i128)d * rq->m.mult, o_pow2(31 - s)); break;
    case MRTQ_Q15_RNDNU: v = o_round_half_up((i128)d * rq->m.mult, o_pow2(15 - s)); break;
    default: { /* MRTQ_Q31_DBL */
      i128 pre = s > 0 ? (i128)d * o_pow2(s) : (i128)d;
      v = o_rdivpot(o_srdhm(o_sat32(pre), rq->m.mult), s < 0 ? -s : 0);
    }
  }
  v = o_sat32(v) + rq->zp;
  return v < rq->qmin ? rq->qmin : v > rq->qmax ? rq->qmax : (int64_t)v;
}

static int64_t o_value(const mrtq_etensor *t, size_t at) {
  int64_t d = (int64_t)t->data[at] - t->zp;
  return t->rq ? o_rescale(t->rq, d) : d;
}

static const mrtq_scheme schemes[3] = {MRTQ_Q31_RNDNU, MRTQ_Q31_DBL, MRTQ_Q15_RNDNU};

/* ---- broadcast_add / sub / mul ---- */

/* offset of output multi-index idx (rank nd) in an input of rank ndx aligned at the last dimension */
static size_t bc_offset(const size_t *idx, int nd, const size_t *shape, int ndx) {
  size_t off = 0;
  int d;
  for (d = 0; d < ndx; d++) off = off * shape[d] + (shape[d] == 1 ? 0 : idx[nd - ndx + d]);
  return off;
}

static void random_input(mrtq_etensor *t, int32_t *data, size_t *shape, const size_t *oshape, int nd, mrtq_rq *rq,
                         double s_in, double s_common) {
  int d, nx = (int)th_range(0, nd);
  size_t n = 1, i;
  for (d = 0; d < nx; d++) {
    shape[d] = th_rand32() % 3u == 0 ? 1 : oshape[nd - nx + d];
    n *= shape[d];
  }
  for (i = 0; i < n; i++) data[i] = (int32_t)th_range(-(1 << 20), 1 << 20);
  t->data = data, t->shape = shape, t->ndim = nx, t->zp = (int32_t)th_range(-50, 50), t->rq = NULL;
  if (th_rand32() % 4u) {
    CHECK_EQ(mrtq_mrt_realize_init(schemes[th_rand32() % 3u], s_in / s_common, (int)th_range(8, 16), rq), MRTQ_OK,
             "realize");
    t->rq = rq;
  }
}

static void test_binary_random(void) {
  static int32_t da[256], db[256], out[256], want[256];
  int trial;
  long long before = compared;
  for (trial = 0; trial < 4000; trial++) {
    size_t oshape[4], sa[4], sb[4], idx[4], n = 1, i;
    int nd = (int)th_range(0, 4), d, op = (int)th_range(0, 2), choice = (int)(th_rand32() & 1u);
    double s[2], sc = 1;
    mrtq_etensor a, b;
    mrtq_rq ra, rb;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    mrtq_status st;
    for (d = 0; d < nd; d++) oshape[d] = (size_t)th_range(1, 4), n *= oshape[d];
    s[0] = ldexp(1.0 + (double)(th_rand32() % 1000u) / 1000.0, -(int)th_range(4, 12));
    s[1] = ldexp(1.0 + (double)(th_rand32() % 1000u) / 1000.0, -(int)th_range(4, 12));
    CHECK_EQ(mrtq_merge_scale((mrtq_merge)choice, s, 2, &sc), MRTQ_OK, "merge scale");
    random_input(&a, da, sa, oshape, nd, &ra, s[0], op == MRTQ_MRT_MUL ? s[0] * 64 : sc);
    random_input(&b, db, sb, oshape, nd, &rb, s[1], op == MRTQ_MRT_MUL ? s[1] * 64 : sc);
    /* the broadcast shape: rank max(ranks), each dimension the larger of the aligned pair */
    nd = a.ndim > b.ndim ? a.ndim : b.ndim, n = 1;
    for (d = 0; d < nd; d++) {
      size_t da_ = d - (nd - a.ndim) < 0 ? 1 : sa[d - (nd - a.ndim)], db_ = d - (nd - b.ndim) < 0 ? 1 : sb[d - (nd - b.ndim)];
      oshape[d] = da_ > db_ ? da_ : db_, n *= oshape[d];
    }
    for (i = 0; i < n; i++) {
      size_t at = i;
      int64_t x, y, r;
      for (d = nd - 1; d >= 0; d--) idx[d] = at % oshape[d], at /= oshape[d];
      x = o_value(&a, bc_offset(idx, nd, sa, a.ndim)), y = o_value(&b, bc_offset(idx, nd, sb, b.ndim));
      r = op == MRTQ_MRT_ADD ? x + y : op == MRTQ_MRT_SUB ? x - y : x * y;
      want[i] = (int32_t)r;
      if (r < lo) lo = r;
      if (r > hi) hi = r;
    }
    st = mrtq_mrt_binary((mrtq_mrt_op)op, &a, &b, out);
    if (st == MRTQ_EOVERFLOW) { /* only when the declared ranges can overflow (raw x raw products here) */
      CHECK(op == MRTQ_MRT_MUL && (!a.rq || !b.rq));
      continue;
    }
    CHECK_EQ(st, MRTQ_OK, "binary op %d", op);
    for (i = 0; i < n; i++)
      if (out[i] != want[i]) CHECK_EQ(out[i], want[i], "op %d element %zu", op, i);
    compared += (long long)n;
  }
  printf("  broadcast add/sub/mul: %lld outputs compared\n", compared - before);
}

/* hand-checked: a = {10, 20} (zp 0, no rescale), b = {3} rescaled by 1/2
 * (Q31_RNDNU, 8 bits): 3/2 = 1.5 rounds (ties up) to 2; add {12, 22}, sub
 * {8, 18}, mul {20, 40}. */
static void test_binary_hand(void) {
  int32_t a[2] = {10, 20}, b[1] = {3}, out[2];
  size_t sa[1] = {2}, sb[1] = {1};
  mrtq_rq rb;
  mrtq_etensor ta, tb;
  ta.data = a, ta.shape = sa, ta.ndim = 1, ta.zp = 0, ta.rq = NULL;
  tb.data = b, tb.shape = sb, tb.ndim = 1, tb.zp = 0, tb.rq = &rb;
  CHECK_EQ(mrtq_mrt_realize_init(MRTQ_Q31_RNDNU, 0.5, 8, &rb), MRTQ_OK, "realize");
  CHECK_EQ(mrtq_mrt_binary(MRTQ_MRT_ADD, &ta, &tb, out), MRTQ_OK, "add");
  CHECK(out[0] == 12 && out[1] == 22);
  CHECK_EQ(mrtq_mrt_binary(MRTQ_MRT_SUB, &ta, &tb, out), MRTQ_OK, "sub");
  CHECK(out[0] == 8 && out[1] == 18);
  CHECK_EQ(mrtq_mrt_binary(MRTQ_MRT_MUL, &ta, &tb, out), MRTQ_OK, "mul");
  CHECK(out[0] == 20 && out[1] == 40);
  /* the clip: 1000 rescaled by 1 into 8 bits is 127 */
  b[0] = 1000;
  CHECK_EQ(mrtq_mrt_realize_init(MRTQ_Q31_RNDNU, 1.0, 8, &rb), MRTQ_OK, "realize 1");
  CHECK_EQ(mrtq_mrt_binary(MRTQ_MRT_SUB, &ta, &tb, out), MRTQ_OK, "sub clip");
  CHECK(out[0] == 10 - 127 && out[1] == 20 - 127);
}

/* The worst case is checked before anything is written, exactly at the
 * precision rule's boundary: add of two 31-bit values fits, of 32 + 2 bits
 * does not; mul of 17 x 16 bits fits (65535 * 32767 < 2^31), 17 x 17 does not. */
static void test_binary_overflow(void) {
  int32_t a[1] = {5}, b[1] = {7}, out[1] = {-1};
  size_t one[1] = {1};
  mrtq_rq ra, rb;
  mrtq_etensor ta, tb;
  ta.data = a, ta.shape = one, ta.ndim = 1, ta.zp = 0, ta.rq = &ra;
  tb = ta, tb.data = b, tb.rq = &rb;
  CHECK_EQ(mrtq_mrt_realize_init(MRTQ_Q31_RNDNU, 1.0, 31, &ra), MRTQ_OK, "31");
  CHECK_EQ(mrtq_mrt_realize_init(MRTQ_Q31_RNDNU, 1.0, 31, &rb), MRTQ_OK, "31");
  CHECK_EQ(mrtq_mrt_binary(MRTQ_MRT_ADD, &ta, &tb, out), MRTQ_OK, "31 + 31");
  CHECK_EQ(out[0], 12, "value");
  { /* an expansion's rescale is checked like every requantization descriptor */
    mrtq_rq keep = rb;
    rb.scheme = (mrtq_scheme)11;
    CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_ADD, &ta, &tb, out), MRTQ_EINVAL, "b->rq->scheme: not an mrtq_scheme");
    rb = keep, ra.qmin = 1, ra.qmax = 0;
    CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_ADD, &ta, &tb, out), MRTQ_EINVAL, "a->rq->qmin: must be <= qmax");
    CHECK_EQ(out[0], 12, "untouched");
  }
  CHECK_EQ(mrtq_mrt_realize_init(MRTQ_Q31_RNDNU, 1.0, 32, &ra), MRTQ_OK, "32");
  CHECK_EQ(mrtq_mrt_realize_init(MRTQ_Q31_RNDNU, 1.0, 2, &rb), MRTQ_OK, "2");
  out[0] = -1;
  CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_ADD, &ta, &tb, out), MRTQ_EOVERFLOW, "a, b: the result's range exceeds int32");
  CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_SUB, &ta, &tb, out), MRTQ_EOVERFLOW, "a, b: the result's range exceeds int32");
  CHECK_EQ(out[0], -1, "untouched");
  CHECK_EQ(mrtq_mrt_realize_init(MRTQ_Q31_RNDNU, 1.0, 17, &ra), MRTQ_OK, "17");
  CHECK_EQ(mrtq_mrt_realize_init(MRTQ_Q31_RNDNU, 1.0, 16, &rb), MRTQ_OK, "16");
  CHECK_EQ(mrtq_mrt_binary(MRTQ_MRT_MUL, &ta, &tb, out), MRTQ_OK, "17 x 16");
  CHECK_EQ(out[0], 35, "value");
  CHECK_EQ(mrtq_mrt_realize_init(MRTQ_Q31_RNDNU, 1.0, 17, &rb), MRTQ_OK, "17");
  CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_MUL, &ta, &tb, out), MRTQ_EOVERFLOW, "a, b: the result's range exceeds int32");
  /* raw inputs: their own range counts; X - zp outside int32 is refused */
  ta.rq = tb.rq = NULL, a[0] = INT32_MAX, b[0] = 0;
  CHECK_EQ(mrtq_mrt_binary(MRTQ_MRT_ADD, &ta, &tb, out), MRTQ_OK, "max + 0");
  b[0] = 1;
  CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_ADD, &ta, &tb, out), MRTQ_EOVERFLOW, "a, b: the result's range exceeds int32");
  a[0] = INT32_MIN, ta.zp = 1, b[0] = 0;
  CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_ADD, &ta, &tb, out), MRTQ_EOVERFLOW, "a->data: an element X - zp outside int32");
  ta.zp = 0, b[0] = INT32_MAX, tb.zp = -1;
  CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_ADD, &ta, &tb, out), MRTQ_EOVERFLOW, "b->data: an element X - zp outside int32");
}

static void test_binary_bad(void) {
  int32_t a[4] = {0}, out[4] = {0};
  size_t s3[1] = {3}, s2[1] = {2}, s0[1] = {0}, big[2] = {(size_t)1 << 40, (size_t)1 << 40};
  mrtq_etensor ta, tb;
  ta.data = a, ta.shape = s3, ta.ndim = 1, ta.zp = 0, ta.rq = NULL;
  tb = ta, tb.shape = s2;
  CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_ADD, &ta, &tb, out), MRTQ_ESHAPE, "a->shape, b->shape: sizes differ and neither is 1");
  tb.shape = s0;
  CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_ADD, &ta, &tb, out), MRTQ_ESHAPE, "b->shape: a zero dimension");
  CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_ADD, &tb, &ta, out), MRTQ_ESHAPE, "a->shape: a zero dimension");
  tb.shape = big, tb.ndim = 2, ta.shape = big, ta.ndim = 2;
  CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_ADD, &ta, &tb, out), MRTQ_ESHAPE, "a->shape, b->shape: element count overflows size_t");
  ta.shape = s3, ta.ndim = 1;
  tb.shape = s3, tb.ndim = 1;
  CHECK_REFUSED(mrtq_mrt_binary((mrtq_mrt_op)3, &ta, &tb, out), MRTQ_EINVAL, "op: must be MRTQ_MRT_ADD, MRTQ_MRT_SUB or MRTQ_MRT_MUL");
  CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_ADD, &ta, &tb, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_ADD, NULL, &tb, out), MRTQ_EINVAL, "a: NULL");
  CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_ADD, &ta, NULL, out), MRTQ_EINVAL, "b: NULL");
  tb.data = NULL;
  CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_ADD, &ta, &tb, out), MRTQ_EINVAL, "b->data: NULL");
  CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_ADD, &tb, &ta, out), MRTQ_EINVAL, "a->data: NULL");
  tb.data = a, tb.ndim = 9;
  CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_ADD, &ta, &tb, out), MRTQ_EINVAL, "b->ndim: must be in [0, MRTQ_MAX_DIMS]");
  CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_ADD, &tb, &ta, out), MRTQ_EINVAL, "a->ndim: must be in [0, MRTQ_MAX_DIMS]");
  tb.ndim = 1, tb.shape = NULL;
  CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_ADD, &ta, &tb, out), MRTQ_EINVAL, "b->shape: NULL with b->ndim > 0");
  CHECK_REFUSED(mrtq_mrt_binary(MRTQ_MRT_ADD, &tb, &ta, out), MRTQ_EINVAL, "a->shape: NULL with a->ndim > 0");
  tb.ndim = 0; /* a scalar needs no shape */
  CHECK_EQ(mrtq_mrt_binary(MRTQ_MRT_ADD, &ta, &tb, out), MRTQ_OK, "tensor + scalar");
  CHECK_REFUSED(mrtq_mrt_realize_init(MRTQ_Q31_RNDNU, 1.0, 8, NULL), MRTQ_EINVAL, "rq: NULL");
  {
    mrtq_rq r;
    CHECK_REFUSED(mrtq_mrt_realize_init(MRTQ_Q31_RNDNU, 1.0, 1, &r), MRTQ_EINVAL, "prec: must be in [2, 32]");
    CHECK_REFUSED(mrtq_mrt_realize_init(MRTQ_Q31_RNDNU, 1.0, 33, &r), MRTQ_EINVAL, "prec: must be in [2, 32]");
    CHECK_EQ(mrtq_mrt_realize_init(MRTQ_Q31_RNDNU, 0.0, 8, &r), MRTQ_EINVAL, "scale 0"); /* mrtq_rq_init's refusal */
    CHECK_EQ(mrtq_mrt_realize_init(MRTQ_Q31_RNDNU, 8.0, 32, &r), MRTQ_OK, "prec 32");
    CHECK(r.qmin == -INT32_MAX && r.qmax == INT32_MAX && r.zp == 0);
  }
}

/* ---- slice (lazy split) and flatten ---- */

static void test_slice(void) {
  static int16_t x[4 * 5 * 3 * 2], out[4 * 5 * 3 * 2];
  int trial;
  for (trial = 0; trial < 300; trial++) {
    size_t shape[4], n = 1, i, begin, end;
    int nd = (int)th_range(1, 4), axis = (int)th_range(0, nd - 1), d;
    for (d = 0; d < nd; d++) shape[d] = (size_t)th_range(1, 5 - d), n *= shape[d];
    for (i = 0; i < n; i++) x[i] = (int16_t)i;
    begin = (size_t)th_range(0, (int64_t)shape[axis] - 1), end = (size_t)th_range((int64_t)begin + 1, (int64_t)shape[axis]);
    memset(out, 0xee, sizeof out);
    CHECK_EQ(mrtq_slice(shape, nd, axis, begin, end, sizeof x[0], x, out), MRTQ_OK, "slice");
    { /* every output element, by its multi-index */
      size_t m = n / shape[axis] * (end - begin), k;
      for (k = 0; k < m; k++) {
        size_t at = k, src = 0, mul = 1, idx[4];
        for (d = nd - 1; d >= 0; d--) {
          size_t dim = d == axis ? end - begin : shape[d];
          idx[d] = at % dim, at /= dim;
        }
        idx[axis] += begin;
        for (d = nd - 1; d >= 0; d--) src += idx[d] * mul, mul *= shape[d];
        if (out[k] != x[src]) CHECK_EQ(out[k], x[src], "slice element %zu", k);
      }
      CHECK_EQ((uint16_t)out[m], 0xeeee, "nothing past the output");
    }
  }
  {
    size_t shape[2] = {2, 3}, zero[2] = {2, 0}, big[2] = {SIZE_MAX / 2, 4}, big3[3] = {2, SIZE_MAX / 2, 4};
    out[0] = 7;
    CHECK_REFUSED(mrtq_slice(shape, 2, 1, 2, 2, 2, x, out), MRTQ_EINVAL, "begin, end: begin >= end");
    CHECK_REFUSED(mrtq_slice(shape, 2, 1, 1, 4, 2, x, out), MRTQ_EINVAL, "end: beyond shape[axis]");
    CHECK_REFUSED(mrtq_slice(shape, 2, 2, 0, 1, 2, x, out), MRTQ_EINVAL, "axis: must be in [0, ndim)");
    CHECK_REFUSED(mrtq_slice(shape, 2, 1, 0, 1, 0, x, out), MRTQ_EINVAL, "elem_size: must be >= 1");
    CHECK_REFUSED(mrtq_slice(shape, 2, 1, 0, 1, 2, NULL, out), MRTQ_EINVAL, "x: NULL");
    CHECK_REFUSED(mrtq_slice(shape, 2, 1, 0, 1, 2, x, NULL), MRTQ_EINVAL, "out: NULL");
    CHECK_REFUSED(mrtq_slice(NULL, 2, 1, 0, 1, 2, x, out), MRTQ_EINVAL, "shape: NULL");
    CHECK_REFUSED(mrtq_slice(shape, 9, 1, 0, 1, 2, x, out), MRTQ_EINVAL, "ndim: must be in [1, MRTQ_MAX_DIMS]");
    CHECK_REFUSED(mrtq_slice(shape, 0, 0, 0, 1, 2, x, out), MRTQ_EINVAL, "ndim: must be in [1, MRTQ_MAX_DIMS]");
    CHECK_REFUSED(mrtq_slice(zero, 2, 0, 0, 1, 2, x, out), MRTQ_ESHAPE, "shape[d]: a zero dimension");
    CHECK_REFUSED(mrtq_slice(big, 2, 0, 0, 1, 2, x, out), MRTQ_ESHAPE, "shape: the byte count overflows size_t");
    CHECK_REFUSED(mrtq_slice(big3, 3, 0, 0, 1, 2, x, out), MRTQ_ESHAPE, "shape: the byte count overflows size_t");
    CHECK_REFUSED(mrtq_slice(big3, 3, 2, 0, 1, 2, x, out), MRTQ_ESHAPE, "shape: the byte count overflows size_t");
    CHECK_EQ(out[0], 7, "untouched");
  }
}

static void test_flatten(void) {
  size_t s[4] = {2, 3, 4, 5}, r = 0, c = 0, zero[2] = {3, 0}, big[3] = {SIZE_MAX / 2, 2, 2};
  CHECK_EQ(mrtq_flatten_shape(s, 4, 1, &r, &c), MRTQ_OK, "axis 1");
  CHECK(r == 2 && c == 60);
  CHECK_EQ(mrtq_flatten_shape(s, 4, 0, &r, &c), MRTQ_OK, "axis 0");
  CHECK(r == 1 && c == 120);
  CHECK_EQ(mrtq_flatten_shape(s, 4, 4, &r, &c), MRTQ_OK, "axis 4");
  CHECK(r == 120 && c == 1);
  CHECK_REFUSED(mrtq_flatten_shape(s, 4, 5, &r, &c), MRTQ_EINVAL, "axis: must be in [0, ndim]");
  CHECK_REFUSED(mrtq_flatten_shape(s, 4, -1, &r, &c), MRTQ_EINVAL, "axis: must be in [0, ndim]");
  CHECK_REFUSED(mrtq_flatten_shape(s, 9, 1, &r, &c), MRTQ_EINVAL, "ndim: must be in [1, MRTQ_MAX_DIMS]");
  CHECK_REFUSED(mrtq_flatten_shape(NULL, 4, 1, &r, &c), MRTQ_EINVAL, "shape: NULL");
  CHECK_REFUSED(mrtq_flatten_shape(s, 4, 1, NULL, &c), MRTQ_EINVAL, "rows, cols: NULL");
  CHECK_REFUSED(mrtq_flatten_shape(zero, 2, 1, &r, &c), MRTQ_ESHAPE, "shape[d]: a zero dimension");
  CHECK_REFUSED(mrtq_flatten_shape(big, 3, 1, &r, &c), MRTQ_ESHAPE, "shape: the element count overflows size_t");
  CHECK_REFUSED(mrtq_flatten_shape(big, 3, 3, &r, &c), MRTQ_ESHAPE, "shape: a product overflows size_t");
  CHECK(r == 120 && c == 1); /* unchanged by the refusals */
}

/* ---- lazy split and merge around a convolution with per-input-channel X ----
 * X (1 x C x H x W) has one real scale per input channel (int8 symmetric, or
 * uint8 with one zero point per channel); W (O x C x 3 x 3) one per tensor. Split X and W along C, convolve each pair (expansion scale
 * s_xi s_w), merge by broadcast_add at the common scale (both choices) through
 * MRT's realize (Q31_RNDNU, prec bits). Oracle: each part's convolution in
 * 64-bit here, the exact rescale, the sum; the merged value times s_common
 * is within C (1/2 + 2^-30) LSB of the exact real sum of the parts. */
#define C_ 6
#define H_ 7
#define O_ 4
static void test_split_merge_conv(void) {
  static uint8_t xq[C_ * H_ * H_], xi[C_][H_ * H_]; /* int8 or uint8 (per trial) */
  static int8_t wq[O_ * C_ * 9], wi[C_][O_ * 9];
  int32_t zx[C_];
  static int32_t ye[C_][O_ * H_ * H_], merged[O_ * H_ * H_];
  double sx[C_], sw = 0.01, se[C_], sc = 1;
  size_t xs[4] = {1, C_, H_, H_}, ws[4] = {O_, C_, 3, 3}, ys[4] = {1, O_, H_, H_}, i, c;
  int choice, trial;
  long long before = compared;
  for (trial = 0; trial < 20; trial++) {
    for (c = 0; c < C_; c++) sx[c] = ldexp(1.0 + (double)(th_rand32() % 1000u) / 1000.0, -(int)th_range(2, 8));
    int xu = trial % 2; /* odd trials: uint8 X with a zero point per input channel */
    for (c = 0; c < C_; c++) zx[c] = xu ? (int32_t)th_range(0, 255) : 0;
    for (i = 0; i < sizeof xq; i++) xq[i] = (uint8_t)(xu ? th_range(0, 255) : th_range(-127, 127));
    for (i = 0; i < sizeof wq; i++) wq[i] = (int8_t)th_range(-127, 127);
    for (c = 0; c < C_; c++) {
      mrtq_conv2d_shape s;
      mrtq_qoperand qx, qw;
      memset(&s, 0, sizeof s), memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
      CHECK_EQ(mrtq_slice(xs, 4, 1, c, c + 1, 1, xq, xi[c]), MRTQ_OK, "split x");
      CHECK_EQ(mrtq_slice(ws, 4, 1, c, c + 1, 1, wq, wi[c]), MRTQ_OK, "split w");
      s.n = 1, s.c = 1, s.h = s.w = H_, s.o = O_, s.kh = s.kw = 3, s.stride_h = s.stride_w = 1;
      s.dil_h = s.dil_w = 1, s.groups = 1, s.pad_top = s.pad_bottom = s.pad_left = s.pad_right = 1;
      qx.data = xi[c], qx.type = xu ? MRTQ_U8 : MRTQ_S8, qx.zp = zx[c], qw.data = wi[c], qw.type = MRTQ_S8;
      CHECK_EQ(mrtq_conv2d_s32(&s, &qx, &qw, NULL, ye[c]), MRTQ_OK, "part conv");
      se[c] = sx[c] * sw;
    }
    for (choice = 0; choice < 2; choice++) {
      mrtq_rq rq[C_];
      mrtq_etensor parts[C_];
      int prec = 28; /* parts below 2^17.2 * 2^7 * 2 (no clip), their sum below 2^31 */
      CHECK_EQ(mrtq_merge_scale((mrtq_merge)choice, se, C_, &sc), MRTQ_OK, "merge scale");
      for (c = 0; c < C_; c++) {
        CHECK_EQ(mrtq_mrt_realize_init(MRTQ_Q31_RNDNU, se[c] / sc, prec, &rq[c]), MRTQ_OK, "realize");
        parts[c].data = ye[c], parts[c].shape = ys, parts[c].ndim = 4, parts[c].zp = 0, parts[c].rq = &rq[c];
      }
      CHECK_EQ(mrtq_mrt_merge_add(parts, C_, merged), MRTQ_OK, "merge add");
      for (i = 0; i < (size_t)O_ * H_ * H_; i++) {
        size_t o = i / (H_ * H_), y = i / H_ % H_, x = i % H_;
        int64_t want = 0;
        double real = 0;
        for (c = 0; c < C_; c++) { /* part c's convolution, directly */
          int64_t acc = 0;
          int ky, kx, xv;
          for (ky = 0; ky < 3; ky++)
            for (kx = 0; kx < 3; kx++) {
              int iy = (int)y + ky - 1, ix = (int)x + kx - 1;
              if (iy < 0 || ix < 0 || iy >= H_ || ix >= H_) continue;
              xv = xq[(c * H_ + (size_t)iy) * H_ + (size_t)ix];
              acc += ((xu ? xv : (int8_t)xv) - zx[c]) * (int64_t)wq[((o * C_ + c) * 3 + (size_t)ky) * 3 + (size_t)kx];
            }
          want += o_rescale(&rq[c], acc);
          real += (double)acc * se[c];
        }
        if (merged[i] != want) CHECK_EQ(merged[i], want, "merged %zu choice %d", i, choice);
        CHECK(fabs((double)merged[i] * sc - real) <= C_ * (0.5 + ldexp(1.0, -30) * fabs(real / sc) + 1e-9) * sc);
        compared++;
      }
    }
  }
  printf("  split -> conv -> merge by add: %lld outputs compared\n", compared - before);
}

/* merge by concat (the form for pad / relu / pooling): int32 parts with their
 * own scales and zero points, rescaled to the common scale, along any axis */
static void test_merge_concat(void) {
  static int32_t data[4][5 * 5 * 3], out[20 * 5 * 3]; /* largest: 5 along the axis, 5 and 3 off it; 4 parts */
  int trial;
  long long before = compared;
  for (trial = 0; trial < 300; trial++) {
    size_t shapes[4][3], n = (size_t)th_range(1, 4), k, i;
    int nd = (int)th_range(1, 3), axis = (int)th_range(0, nd - 1), d, choice = (int)(th_rand32() & 1u);
    double s[4], sc = 1;
    mrtq_rq rq[4];
    mrtq_etensor parts[4];
    size_t outer = 1, inner = 1, total = 0, at = 0, o;
    for (d = 0; d < nd; d++) shapes[0][d] = (size_t)th_range(1, d == 1 ? 5 : 3);
    for (k = 0; k < n; k++) {
      size_t cnt = 1;
      for (d = 0; d < nd; d++) shapes[k][d] = d == axis ? (size_t)th_range(1, 5) : shapes[0][d], cnt *= shapes[k][d];
      for (i = 0; i < cnt; i++) data[k][i] = (int32_t)th_range(-(1 << 18), 1 << 18);
      s[k] = ldexp(1.0 + (double)(th_rand32() % 1000u) / 1000.0, -(int)th_range(4, 12));
    }
    CHECK_EQ(mrtq_merge_scale((mrtq_merge)choice, s, n, &sc), MRTQ_OK, "merge scale");
    for (k = 0; k < n; k++) {
      CHECK_EQ(mrtq_mrt_realize_init(schemes[th_rand32() % 3u], s[k] / sc, (int)th_range(8, 24), &rq[k]), MRTQ_OK,
               "realize");
      parts[k].data = data[k], parts[k].shape = shapes[k], parts[k].ndim = nd;
      parts[k].zp = (int32_t)th_range(-100, 100), parts[k].rq = th_rand32() % 5u ? &rq[k] : NULL;
      total += shapes[k][axis];
    }
    for (d = 0; d < axis; d++) outer *= shapes[0][d];
    for (d = axis + 1; d < nd; d++) inner *= shapes[0][d];
    CHECK_EQ(mrtq_mrt_concat(parts, n, axis, out), MRTQ_OK, "concat");
    for (o = 0; o < outer; o++) /* walk the output by (outer, part, position along axis, inner) */
      for (k = 0; k < n; k++)
        for (i = 0; i < shapes[k][axis] * inner; i++, at++) {
          int64_t want = o_value(&parts[k], o * shapes[k][axis] * inner + i);
          if (out[at] != want) CHECK_EQ(out[at], want, "concat element %zu", at);
        }
    CHECK_EQ(at, outer * inner * total, "count");
    compared += (long long)at;
  }
  {
    int32_t a[2] = {1, 2}, b[4] = {3, 4, 5, 6}, o2[4] = {9, 9, 9, 9};
    size_t s1[2] = {1, 2}, s2[2] = {2, 2};
    mrtq_etensor p[2];
    p[0].data = a, p[0].shape = s1, p[0].ndim = 2, p[0].zp = 0, p[0].rq = NULL;
    p[1] = p[0], p[1].data = b, p[1].shape = s2;
    size_t z2[2] = {1, 0}, big[2] = {(size_t)1 << 40, (size_t)1 << 40}, s3[3] = {1, 2, 1};
    CHECK_REFUSED(mrtq_mrt_concat(p, 2, 1, o2), MRTQ_ESHAPE, "parts[k].shape: differs from parts[0].shape off the axis");
    CHECK_REFUSED(mrtq_mrt_concat(p, 2, 2, o2), MRTQ_EINVAL, "axis: must be in [0, parts[0].ndim)");
    CHECK_REFUSED(mrtq_mrt_concat(p, 0, 0, o2), MRTQ_EINVAL, "n: must be >= 1");
    CHECK_REFUSED(mrtq_mrt_concat(NULL, 2, 0, o2), MRTQ_EINVAL, "parts: NULL");
    CHECK_REFUSED(mrtq_mrt_concat(p, 2, 0, NULL), MRTQ_EINVAL, "out: NULL");
    {
      mrtq_rq r;
      CHECK_EQ(mrtq_rq_init(MRTQ_FP32, 0.5, 0, -100, 100, &r), MRTQ_OK, "rq");
      r.m.mult = 3, p[1].rq = &r; /* a field MRTQ_FP32 never reads */
      CHECK_REFUSED(mrtq_mrt_concat(p, 2, 0, o2), MRTQ_EINVAL, "parts[k].rq->m.mult: must be 0 with MRTQ_FP32");
      p[1].rq = NULL;
    }
    p[1].ndim = 3, p[1].shape = s3;
    CHECK_REFUSED(mrtq_mrt_concat(p, 2, 0, o2), MRTQ_ESHAPE, "parts[k].ndim: differs from parts[0].ndim");
    CHECK_REFUSED(mrtq_mrt_merge_add(p, 2, o2), MRTQ_ESHAPE, "parts[k].ndim: differs from parts[0].ndim");
    p[1].ndim = 9;
    CHECK_REFUSED(mrtq_mrt_concat(p, 2, 0, o2), MRTQ_EINVAL, "parts[k].ndim: must be in [0, MRTQ_MAX_DIMS]");
    CHECK_REFUSED(mrtq_mrt_concat(p + 1, 1, 0, o2), MRTQ_EINVAL, "parts[0].ndim: must be in [1, MRTQ_MAX_DIMS]");
    p[1].ndim = 2, p[1].shape = NULL;
    CHECK_REFUSED(mrtq_mrt_concat(p, 2, 0, o2), MRTQ_EINVAL, "parts[k].shape: NULL with ndim > 0");
    p[1].shape = z2;
    CHECK_REFUSED(mrtq_mrt_concat(p, 2, 0, o2), MRTQ_ESHAPE, "parts[k].shape: a zero dimension");
    p[1].shape = big;
    CHECK_REFUSED(mrtq_mrt_merge_add(p, 2, o2), MRTQ_ESHAPE, "parts[k].shape: element count overflows size_t");
    p[1].shape = s1, p[1].data = NULL;
    CHECK_REFUSED(mrtq_mrt_merge_add(p, 2, o2), MRTQ_EINVAL, "parts[k].data: NULL");
    p[1].data = b, b[1] = INT32_MIN, p[1].zp = 5;
    CHECK_REFUSED(mrtq_mrt_concat(p, 2, 0, o2), MRTQ_EOVERFLOW, "parts[k].data: an element X - zp outside int32");
    CHECK(o2[0] == 9 && o2[3] == 9);
    CHECK_REFUSED(mrtq_mrt_merge_add(p, 2, o2), MRTQ_EOVERFLOW, "parts[k].data: an element X - zp outside int32");
    p[1].zp = 0, p[1].shape = s2;
    CHECK_REFUSED(mrtq_mrt_merge_add(p, 2, o2), MRTQ_ESHAPE, "parts[k].shape: differs from parts[0].shape");
    CHECK_REFUSED(mrtq_mrt_merge_add(NULL, 2, o2), MRTQ_EINVAL, "parts: NULL");
    CHECK_REFUSED(mrtq_mrt_merge_add(p, 2, NULL), MRTQ_EINVAL, "out: NULL");
    CHECK_REFUSED(mrtq_mrt_merge_add(p, 0, o2), MRTQ_EINVAL, "n: must be in [1, 2^31]");
    CHECK(o2[0] == 9 && o2[3] == 9);
  }
  printf("  merge by concat: %lld outputs compared\n", compared - before);
}

/* merge by add: the interval sum bounds the result exactly: two 31-bit parts
 * fit, three do not */
static void test_merge_add_overflow(void) {
  int32_t a[1] = {1}, out[1] = {0};
  size_t one[1] = {1};
  mrtq_rq r;
  mrtq_etensor p[3];
  CHECK_EQ(mrtq_mrt_realize_init(MRTQ_Q31_RNDNU, 1.0, 31, &r), MRTQ_OK, "31");
  p[0].data = a, p[0].shape = one, p[0].ndim = 1, p[0].zp = 0, p[0].rq = &r;
  p[1] = p[0], p[2] = p[0];
  CHECK_EQ(mrtq_mrt_merge_add(p, 2, out), MRTQ_OK, "2 x 31 bits");
  CHECK_EQ(out[0], 2, "value");
  out[0] = -5;
  CHECK_REFUSED(mrtq_mrt_merge_add(p, 3, out), MRTQ_EOVERFLOW, "parts: the sum's range exceeds int32");
  CHECK_EQ(out[0], -5, "untouched");
}

int main(void) {
  TH_RUN(test_binary_hand);
  TH_RUN(test_binary_random);
  TH_RUN(test_binary_overflow);
  TH_RUN(test_binary_bad);
  TH_RUN(test_slice);
  TH_RUN(test_flatten);
  TH_RUN(test_split_merge_conv);
  TH_RUN(test_merge_concat);
  TH_RUN(test_merge_add_overflow);
  return th_finish("test_mrt");
}
