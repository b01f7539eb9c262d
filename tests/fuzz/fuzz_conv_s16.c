/* conv_s16.h: mrtq_conv2d_s16x8_acc64 / _acc32, mrtq_fc_s16x8_acc64 / _acc32
 * and mrtq_matmul_s16_acc64 with fuzzer-chosen shapes (valid small ones, and
 * invalid or huge ones: groups, depthwise with a multiplier, both weight
 * layouts including MRTQ_W_TFLITE_DW, NCHW / NHWC, reduction lengths at the
 * int32 and 2^47 bounds), operand types and zero points (mostly what TFLite
 * 16x8 takes, sometimes what must be refused), requantization descriptors
 * (mrtq_rq_init of any scale and scheme, mrtq_rq_from_mult pairs including
 * (0, 0), hand-filled ones with any multiplier / shift / scheme, bounds
 * inside and outside int16, a zero point) and biases up to the int32 / 2^47
 * bounds (one off either side). Data are random or the extremes (x = -32768
 * with w = -128 or 127), so the accumulator reaches the bound itself.
 *
 * Acceptance is computed here from the header's rules, independently: the
 * set of status codes of the rules an input breaks. An input breaking none
 * must succeed; any other must be refused with a code from that set, exactly
 * one reason and nothing written. A success must equal the direct oracle:
 * the exact int64 sum; for _acc64 (inside [-2^47, 2^47)) TFLite's int64
 * MultiplyByQuantizedMultiplier restated in TFLite's own form, its result
 * taken modulo 2^32 as TFLite's static_cast<int32_t> takes it (cross-checked
 * against exact 128-bit arithmetic where no wrap happens); for _acc32 the sum
 * modulo 2^32 (TFLite's int32 accumulator), then gemmlowp's SRDHM + RDIVPOT
 * (tests/oracle.h) or the single rounding by division; clamped to [qmin,
 * qmax]. Every byte of the output extent is written (two runs with different
 * canaries agree) and nothing outside it. */
#include "fuzz.h"

#include "mrtq/conv_s16.h"
#include "mrtq/fastconv.h"
#include "../oracle.h"

#define WORK_MAX 200000u /* multiply-adds per call */
#define ELEM_MAX 262144u /* elements of one operand */
#define NCH 64           /* per-channel arrays (bias, rq) only up to this many channels */
#define BIT(c) (1u << (c))

/* ---- the oracle's arithmetic ---- */

/* Single rounding of x mult / 2^k, ties toward +infinity, k = base - shift
 * (k <= 0: exact product), saturated to int32. |x mult| < 2^95. */
static int32_t or_round_shift(i128 p, int64_t k) {
  if (p == 0) return 0;
  if (k <= 0) return -k > 40 ? (p > 0 ? INT32_MAX : INT32_MIN) : o_sat32(p * o_pow2((int)-k));
  if (k > 120) return 0; /* |p| < 2^95: |p| / 2^k < 1/2 */
  return o_sat32(o_round_half_up(p, o_pow2((int)k)));
}
/* mrtq_mul_q31_rndnu's definition: x mult 2^(shift - 31), one rounding. */
static int32_t or_rndnu(int32_t x, int32_t mult, int32_t shift) {
  return or_round_shift((i128)x * mult, 31 - (int64_t)shift);
}
/* gemmlowp / TFLite default: SRDHM of x 2^max(shift, 0) (saturated), then
 * RDIVPOT by -shift when negative. */
static int32_t or_dbl(int32_t x, int32_t mult, int32_t shift) {
  i128 v = x;
  int32_t h;
  if (shift > 0) v = shift > 40 ? (x > 0 ? INT32_MAX : x < 0 ? INT32_MIN : 0) : (i128)x * o_pow2(shift);
  h = o_srdhm(o_sat32(v), mult);
  if (shift >= 0) return h;
  if (shift < -40) return 0; /* |h| <= 2^31 */
  return o_rdivpot(h, -shift);
}
/* mrtq_mul_q31_x64's definition, exact: the multiplier rounded to 16 bits by
 * division (capped at 2^15 - 1), then one rounding by 2^(15 - shift). */
static int32_t or_x64_exact(int64_t x, int32_t mult, int32_t shift) {
  i128 rm = o_floor_div((i128)mult + 32768, 65536);
  if (rm > 32767) rm = 32767;
  return or_round_shift((i128)x * rm, 15 - (int64_t)shift);
}
/* TFLite's MultiplyByQuantizedMultiplier(int64_t x, ...) restated in its own
 * form (internal/common.cc), for its domain only: mult >= 0, shift in
 * [-31, 7], x in [-2^47, 2^47); the int64 result before its int32 cast. */
static int64_t tfl_x64(int64_t x, int32_t qm, int shift) {
  int32_t reduced = qm < 0x7FFF0000 ? (qm + (1 << 15)) >> 16 : 0x7FFF;
  int64_t total_shift = 15 - shift, round = (int64_t)1 << (total_shift - 1);
  int64_t result = x * (int64_t)reduced + round;
  return result >> total_shift;
}
/* One output of a 64-bit-accumulator kernel: an accepted call is inside
 * TFLite's domain (mult >= 0, shift in [-31, 7], |acc| < 2^47), where TFLite's
 * int64 result is exact and its static_cast<int32_t> keeps the low 32 bits. */
static int32_t or_y64(int64_t acc, const mrtq_rq *r) {
  int64_t t;
  int32_t y;
  FZ_CHECK(r->m.mult >= 0 && r->m.shift >= -31 && r->m.shift <= 7 && acc >= -((int64_t)1 << 47) &&
               acc < ((int64_t)1 << 47),
           "accepted outside TFLite's domain (acc %lld, mult %d, shift %d)", (long long)acc, (int)r->m.mult,
           (int)r->m.shift);
  t = tfl_x64(acc, r->m.mult, r->m.shift);
  if (t >= INT32_MIN && t <= INT32_MAX) /* the exact statement agrees where no wrap happens */
    FZ_EQ(or_x64_exact(acc, r->m.mult, r->m.shift), t, "oracle: exact x64 against TFLite's statement (acc %lld)",
          (long long)acc);
  y = (int32_t)(uint32_t)(uint64_t)t; /* modulo 2^32 (the conversion is gcc's and clang's documented wrap) */
  return y < r->qmin ? r->qmin : y > r->qmax ? r->qmax : y;
}
/* One output of an int32-accumulator kernel (zp 0, bounds within int16:
 * accepted): TFLite's int32 accumulator holds the exact sum modulo 2^32. */
static int32_t or_y32(int64_t acc, const mrtq_rq *r) {
  int32_t a = (int32_t)(uint32_t)(uint64_t)acc, y;
  y = r->scheme == MRTQ_Q31_DBL ? or_dbl(a, r->m.mult, r->m.shift) : or_rndnu(a, r->m.mult, r->m.shift);
  return y < r->qmin ? r->qmin : y > r->qmax ? r->qmax : y;
}

/* ---- operands ---- */

/* Mostly the type TFLite wants, rarely 0, another mrtq_dtype or none. */
static mrtq_dtype type_for(fz *f, mrtq_dtype good) {
  static const int odd[] = {0, MRTQ_S8, MRTQ_U8, MRTQ_S16, MRTQ_S32, MRTQ_S4, 6, -1};
  uint8_t b = fz_u8(f);
  return b >= 248 ? (mrtq_dtype)odd[b - 248] : good;
}
static unsigned type_viol(mrtq_dtype t, mrtq_dtype good) {
  if (t == good) return 0;
  return t >= MRTQ_S8 && t <= MRTQ_S4 ? BIT(MRTQ_EUNSUPPORTED) : BIT(MRTQ_EINVAL);
}
/* A 16x8 operand: data (may be NULL), type, zero point 0 mostly, rarely a
 * zp_ch. Returns the codes of the rules it breaks (none for NULL data if
 * the operand is never read: the caller decides). */
static int32_t zpch_dummy[NCH];
static unsigned make_operand(fz *f, mrtq_qoperand *q, const void *data, mrtq_dtype good) {
  unsigned v = 0;
  q->data = fz_rare(f, 3) ? NULL : data;
  q->type = type_for(f, good);
  q->zp = fz_rare(f, 4) ? fz_i32(f) : 0;
  q->zp_ch = fz_rare(f, 3) ? zpch_dummy : NULL;
  if (!q->data) v |= BIT(MRTQ_EINVAL);
  v |= type_viol(q->type, good);
  if (q->zp || q->zp_ch) v |= BIT(MRTQ_EINVAL);
  return v;
}

/* ---- requantizations ---- */

static int32_t q31_mult(fz *f) {
  switch (fz_range(f, 0, 3)) {
    case 0: return (int32_t)fz_range(f, (uint64_t)1 << 30, INT32_MAX);
    case 1: {
      static const int32_t e[] = {1 << 30, (1 << 30) + 1, (1 << 30) + 32767, (1 << 30) + 32768, 0x7FFEFFFF, 0x7FFF0000,
                                  0x7FFF7FFF, 0x7FFF8000, INT32_MAX - 1, INT32_MAX};
      return e[fz_range(f, 0, 9)];
    }
    default: return (int32_t)fz_range(f, (uint64_t)1 << 30, ((uint64_t)1 << 30) + 70000);
  }
}

/* The codes of the 16x8 rules a descriptor breaks: the array functions'
 * descriptor checks, the scheme, zp, int16 bounds and, with a 64-bit
 * accumulator, m.mult >= 0 and m.shift in [-31, 7]. */
static unsigned rq_viol(const mrtq_rq *r, int acc64) {
  unsigned v = 0;
  switch ((int)r->scheme) {
    case MRTQ_Q31_DBL:
    case MRTQ_Q31_RNDNU:
    case MRTQ_Q15_VTA:
    case MRTQ_Q15_RNDNU:
      if (r->scale != 0) v |= BIT(MRTQ_EINVAL);
      if (r->scheme != MRTQ_Q31_DBL && r->scheme != MRTQ_Q31_RNDNU) v |= BIT(MRTQ_EUNSUPPORTED);
      break;
    case MRTQ_FP32:
      if (r->m.mult || r->m.shift) v |= BIT(MRTQ_EINVAL);
      v |= BIT(MRTQ_EUNSUPPORTED);
      break;
    default: v |= BIT(MRTQ_EINVAL); break;
  }
  if (r->qmin > r->qmax) v |= BIT(MRTQ_EINVAL);
  if (r->zp != 0) v |= BIT(MRTQ_EINVAL);
  if (r->qmin < -32768 || r->qmax > 32767) v |= BIT(MRTQ_EINVAL);
  if (acc64 && (r->m.shift > 7 || r->m.shift < -31 || r->m.mult < 0)) v |= BIT(MRTQ_ERANGE);
  return v;
}

/* One descriptor into *r. */
static void make_rq(fz *f, mrtq_rq *r) {
  int32_t zp = fz_rare(f, 4) ? fz_i32(f) : 0, qmin, qmax;
  uint8_t bm = fz_u8(f);
  if (bm < 96) qmin = -32768, qmax = 32767;
  else if (bm < 200) {
    int32_t a = (int32_t)fz_irange(f, -32768, 32767), b = (int32_t)fz_irange(f, -32768, 32767);
    qmin = a < b ? a : b, qmax = a < b ? b : a;
  } else if (bm < 240) { /* near the int16 ends, sometimes one past */
    qmin = -32768 - (int32_t)fz_range(f, 0, 1), qmax = 32767 + (int32_t)fz_range(f, 0, 1);
    if (fz_bool(f)) qmin = (int32_t)fz_irange(f, -100, 100);
    else qmax = (int32_t)fz_irange(f, -100, 100);
  } else if (bm < 250) { /* far outside */
    qmin = fz_bool(f) ? INT32_MIN : -32768, qmax = fz_bool(f) ? INT32_MAX : 32767;
  } else { /* qmin > qmax */
    qmin = (int32_t)fz_irange(f, -10, 10), qmax = qmin - 1 - (int32_t)fz_range(f, 0, 5);
  }
  memset(r, 0x5c, sizeof *r);
  switch (fz_range(f, 0, 7)) {
    default: { /* mrtq_rq_init of a scale: mostly Q31 */
      uint8_t sm = fz_u8(f);
      mrtq_scheme s = sm < 100 ? MRTQ_Q31_DBL : sm < 200 ? MRTQ_Q31_RNDNU : (mrtq_scheme)fz_range(f, 0, 4);
      double scale = fz_bool(f) ? ldexp(1.0 + (double)fz_u32(f) / 4294967296.0, (int)fz_irange(f, -40, 10)) : fz_double(f);
      if (mrtq_rq_init(s, scale, zp, qmin, qmax, r) != MRTQ_OK) {
        int32_t lo = qmin <= qmax ? qmin : qmax, hi = qmin <= qmax ? qmax : qmin;
        FZ_EQ(mrtq_rq_init(MRTQ_Q31_DBL, 0.001, zp, lo, hi, r), MRTQ_OK, "mrtq_rq_init of 0.001");
        r->qmin = qmin, r->qmax = qmax;
      }
      break;
    }
    case 4:
    case 5: { /* mrtq_rq_from_mult: a TFLite pair, extreme shifts, or (0, 0) */
      mrtq_mult m;
      mrtq_scheme s = fz_bool(f) ? MRTQ_Q31_DBL : MRTQ_Q31_RNDNU;
      int32_t lo = qmin <= qmax ? qmin : qmax, hi = qmin <= qmax ? qmax : qmin;
      if (fz_u8(f) < 40) m.mult = 0, m.shift = 0;
      else {
        uint8_t k = fz_u8(f);
        m.mult = q31_mult(f);
        m.shift = k < 64 ? (int32_t)fz_irange(f, -31, 30) : k < 128 ? (k & 1 ? -31 : 30)
                  : k < 192 ? (int32_t)fz_irange(f, 6, 8) : (int32_t)fz_irange(f, -20, 0);
      }
      FZ_EQ(mrtq_rq_from_mult(s, m, zp, lo, hi, r), MRTQ_OK, "mrtq_rq_from_mult {%d, %d}", (int)m.mult, (int)m.shift);
      r->qmin = qmin, r->qmax = qmax;
      break;
    }
    case 6:
    case 7: { /* by hand: any scheme value, multiplier, shift, scale */
      static const int sch[] = {MRTQ_Q31_DBL, MRTQ_Q31_RNDNU, MRTQ_Q15_VTA, MRTQ_Q15_RNDNU, MRTQ_FP32, 5, -1};
      uint8_t sm = fz_u8(f);
      r->scheme = (mrtq_scheme)(sm < 160 ? sm & 1 : sch[fz_range(f, 0, 6)]);
      r->m.mult = fz_bool(f) ? q31_mult(f) : fz_i32(f);
      r->m.shift = fz_bool(f) ? (int32_t)fz_irange(f, -40, 40) : fz_i32(f);
      if (fz_rare(f, 6)) r->m.mult = 0, r->m.shift = 0;
      r->scale = 0.0f;
      if (fz_rare(f, 8)) r->scale = fz_bool(f) ? -0.0f : fz_float(f);
      if (r->scheme == MRTQ_FP32 && fz_bool(f)) r->m.mult = 0, r->m.shift = 0;
      r->zp = zp, r->qmin = qmin, r->qmax = qmax;
      break;
    }
  }
}

/* ---- biases ---- */

/* Bias values for o channels (o <= NCH): small, with one channel at an edge:
 * the overflow bound minus K 2^22 plus -1, 0 or 1, an int32 / int64 edge or
 * anything. lim: 2^31 - 1 (_acc32: sums that reach and cross int32, where
 * TFLite's accumulator wraps) or 2^47 - 1 (_acc64: the largest allowed K 2^22
 * + |bias|). */
static void make_bias(fz *f, int64_t *b, size_t o, i128 k, int acc64) {
  size_t i, at = (size_t)fz_range(f, 0, o - 1);
  i128 lim = acc64 ? ((i128)1 << 47) - 1 : (i128)INT32_MAX, e;
  for (i = 0; i < o; i++) b[i] = fz_irange(f, -70000, 70000);
  switch (fz_range(f, 0, 5)) {
    case 0: e = lim - k * ((i128)1 << 22) + fz_irange(f, -1, 1); break;
    case 1: e = fz_i32(f); break;
    case 2:
      e = acc64 ? (fz_bool(f) ? (i128)fz_u64(f) - ((i128)1 << 63) : fz_bool(f) ? INT64_MIN : INT64_MAX) : fz_i32(f);
      break;
    default: return;
  }
  if (fz_bool(f)) e = -e;
  if (!acc64) e = e > INT32_MAX ? INT32_MAX : e < INT32_MIN ? INT32_MIN : e;
  else e = e > INT64_MAX ? INT64_MAX : e < INT64_MIN ? INT64_MIN : e;
  b[at] = (int64_t)e;
}
static i128 abs_max(const int64_t *b, size_t o) {
  i128 m = 0;
  size_t i;
  for (i = 0; b && i < o; i++) {
    i128 v = b[i] < 0 ? -(i128)b[i] : (i128)b[i];
    if (v > m) m = v;
  }
  return m;
}

/* Data: random, or the extremes (x = -32768; w = -128 or 127, the sign of
 * the whole sum chosen) so that the sum reaches K 2^22 in magnitude. */
static void fill_data(fz *f, int16_t *x, size_t nx, int8_t *w, size_t nw) {
  size_t i;
  uint8_t mode = fz_u8(f);
  fz_fill(f, x, nx * 2), fz_fill(f, w, nw);
  if (mode >= 200) {
    int8_t wv = mode & 1 ? 127 : -128;
    for (i = 0; i < nx; i++) x[i] = -32768;
    for (i = 0; i < nw; i++) w[i] = wv;
  } else if (mode >= 170) {
    static const int16_t xe[] = {-32768, 32767, 0, 1, -1};
    for (i = 0; i < nx; i++) x[i] = xe[(uint16_t)x[i] % 5];
  }
}

/* ---- convolution and fully connected ---- */

/* a b (a, b >= 0), or lim + 1 when it would be more. */
static i128 mul_cap(i128 a, i128 b, i128 lim) { return a && b > lim / a ? lim + 1 : a * b; }
#define BIG ((i128)1 << 80)

static void check_conv(fz *f, int fc) {
  int acc64 = fz_bool(f), valid, small = 0, runnable;
  mrtq_conv2d_shape s;
  size_t ho = 0, wo = 0, cg = 1, og = 1, nx, nw, ny, nrq, nrq_alloc, i, n, o, oy, ox, c, ky, kx;
  i128 K = 0;
  unsigned viol = 0, vshape = 0;
  int16_t *xd;
  int8_t *wd;
  int64_t bias64[NCH];
  int32_t bias32[NCH];
  mrtq_rq *rq;
  mrtq_qoperand x, w;
  fz_buf ba, bb;
  mrtq_status st, st2;
  int with_bias, null_rq, null_out;

  memset(&s, 0, sizeof s);
  if (fc) { /* rows x k times o x k: the shape mrtq_fc_shape describes, restated */
    s.n = fz_dim(f, 1, 6), s.c = fz_dim(f, 1, 40), s.o = fz_dim(f, 1, 12);
    if (fz_rare(f, 24)) { /* k at the bounds: 511 / 512 (int32), 2^25 - 1 / 2^25 (2^47), 65536 (runs) */
      static const size_t ks[] = {510, 511, 512, 513, ((size_t)1 << 25) - 1, (size_t)1 << 25, 65536, 131072};
      s.c = ks[fz_range(f, 0, 7)];
    }
    s.h = s.w = s.kh = s.kw = s.stride_h = s.stride_w = s.dil_h = s.dil_w = s.groups = 1;
    s.layout = MRTQ_NCHW, s.w_layout = MRTQ_W_LIKE_X;
  } else {
    uint8_t g;
    s.n = fz_dim(f, 1, 2), s.c = fz_dim(f, 1, 8), s.h = fz_dim(f, 1, 9), s.w = fz_dim(f, 1, 9), s.o = fz_dim(f, 1, 8);
    s.kh = fz_dim(f, 1, 4), s.kw = fz_dim(f, 1, 4), s.stride_h = fz_dim(f, 1, 3), s.stride_w = fz_dim(f, 1, 3);
    s.dil_h = fz_dim(f, 1, 3), s.dil_w = fz_dim(f, 1, 3);
    s.pad_top = fz_range(f, 0, 3), s.pad_left = fz_range(f, 0, 3), s.pad_bottom = fz_range(f, 0, 3),
    s.pad_right = fz_range(f, 0, 3);
    if (fz_rare(f, 4)) s.pad_top = SIZE_MAX - fz_range(f, 0, 3);
    if (fz_rare(f, 8)) s.kh = s.kw = 16, s.h = s.w = 16, s.c = fz_bool(f) ? 2 : 1, s.o = 1; /* K 256 / 512 */
    g = fz_u8(f);
    if (g < 128) s.groups = 1;
    else if (g < 200) { /* depthwise, o = c * multiplier */
      s.groups = s.c;
      if (s.c && s.c <= 64 && fz_u8(f) < 200) s.o = s.c * (size_t)fz_range(f, 1, 3);
    } else s.groups = fz_dim(f, 1, 8);
    s.layout = fz_rare(f, 4) ? (mrtq_layout)fz_irange(f, -1, 3) : fz_bool(f) ? MRTQ_NHWC : MRTQ_NCHW;
    s.w_layout = fz_rare(f, 4) ? (mrtq_wlayout)fz_irange(f, -1, 3)
                               : fz_bool(f) && (s.groups == s.c || fz_rare(f, 3)) ? MRTQ_W_TFLITE_DW : MRTQ_W_LIKE_X;
  }

  /* the shape rules (mrtq_conv2d_out), 128-bit */
  {
    int enums = (s.layout == MRTQ_NCHW || s.layout == MRTQ_NHWC) &&
                (s.w_layout == MRTQ_W_LIKE_X || s.w_layout == MRTQ_W_TFLITE_DW);
    valid = enums && s.n && s.c && s.h && s.w && s.o && s.kh && s.kw && s.stride_h && s.stride_w && s.dil_h &&
            s.dil_w && s.groups && s.c % s.groups == 0 && s.o % s.groups == 0 &&
            (s.w_layout != MRTQ_W_TFLITE_DW || s.groups == s.c);
    if (!valid) vshape = BIT(enums ? MRTQ_ESHAPE : MRTQ_EINVAL);
    if (valid) {
      i128 hp = (i128)s.h + s.pad_top + s.pad_bottom, wp = (i128)s.w + s.pad_left + s.pad_right;
      i128 ekh = mul_cap((i128)s.kh - 1, s.dil_h, BIG) + 1, ekw = mul_cap((i128)s.kw - 1, s.dil_w, BIG) + 1;
      if (ekh > hp || ekw > wp) valid = 0, vshape = BIT(MRTQ_ESHAPE);
      else {
        i128 h2 = (hp - ekh) / s.stride_h + 1, w2 = (wp - ekw) / s.stride_w + 1;
        cg = s.c / s.groups, og = s.o / s.groups;
        K = mul_cap(mul_cap(cg, s.kh, BIG), s.kw, BIG); /* more than 2^80: refused either way */
        small = s.n <= 64 && s.c <= ELEM_MAX && s.h <= 64 && s.w <= 64 && s.o <= NCH && s.kh <= 64 && s.kw <= 64 &&
                h2 <= 64 && w2 <= 64 && s.pad_top <= 64 && s.dil_h <= 64 && s.dil_w <= 64 && s.stride_h <= 64 &&
                s.stride_w <= 64;
        small = small && (i128)s.n * s.c * s.h * s.w <= ELEM_MAX && (i128)s.n * s.o * h2 * w2 <= 4096 &&
                (i128)s.o * K <= ELEM_MAX && (i128)s.n * s.o * h2 * w2 * K <= WORK_MAX;
        if (small) ho = (size_t)h2, wo = (size_t)w2;
        else { /* sizes past SIZE_MAX / 8, element counts past size_t: ESHAPE (asked of the library) */
          size_t h3, w3;
          mrtq_status sh = mrtq_conv2d_out(&s, &h3, &w3);
          FZ_CHECK(sh == MRTQ_OK || sh == MRTQ_ESHAPE, "mrtq_conv2d_out status %d on a valid, huge shape", (int)sh);
          if (sh != MRTQ_OK) vshape = BIT(MRTQ_ESHAPE);
        }
      }
    }
  }
  viol = vshape;

  /* operands, descriptors, bias: decided before any buffer */
  nx = small ? s.n * s.c * s.h * s.w : 16, nw = small ? s.o * (size_t)K : 16, ny = small ? s.n * s.o * ho * wo : 16;
  xd = (int16_t *)malloc(nx * 2 + 2), wd = (int8_t *)malloc(nw + 1);
  fill_data(f, xd, nx, wd, nw);
  viol |= make_operand(f, &x, xd, MRTQ_S16);
  viol |= make_operand(f, &w, wd, MRTQ_S8);
  nrq_alloc = valid && s.o <= NCH ? s.o : 1;
  nrq = fz_bool(f) || nrq_alloc == 1 ? 1 : nrq_alloc;
  if (fz_rare(f, 6)) {
    static const size_t bad[] = {0, 2, 3, SIZE_MAX};
    nrq = fz_bool(f) ? bad[fz_range(f, 0, 3)] : s.o + 1;
  }
  if (nrq != 1 && nrq != s.o) viol |= BIT(MRTQ_EINVAL);
  rq = (mrtq_rq *)malloc(nrq_alloc * sizeof *rq);
  for (i = 0; i < nrq_alloc; i++) {
    if (i && fz_u8(f) < 160) rq[i] = rq[i - 1]; /* channels alike, often */
    else make_rq(f, &rq[i]);
    if (i < nrq) viol |= rq_viol(&rq[i], acc64);
  }
  with_bias = s.o >= 1 && s.o <= NCH && fz_u8(f) < 200;
  if (with_bias) {
    make_bias(f, bias64, s.o, K, acc64);
    for (i = 0; i < s.o; i++) bias32[i] = (int32_t)bias64[i]; /* within int32 when !acc64 */
  }
  null_rq = fz_rare(f, 2), null_out = fz_rare(f, 2);
  if (null_rq || null_out) viol |= BIT(MRTQ_EINVAL);
  if (valid && !vshape) { /* the accumulator bound */
    i128 bmax = with_bias ? abs_max(bias64, s.o) : 0;
    if (acc64 ? K * ((i128)1 << 22) + bmax >= ((i128)1 << 47) : K > ((i128)1 << 40))
      viol |= BIT(MRTQ_EOVERFLOW); /* _acc32: the exact int64 sum, taken modulo 2^32 */
  }
  runnable = small && !vshape;
  if (getenv("FZ_DEBUG"))
    fprintf(stderr, "%s acc%d n %zu c %zu h %zu w %zu o %zu k %zux%zu s %zu,%zu d %zu,%zu p %zu,%zu,%zu,%zu g %zu "
            "layout %d w_layout %d nrq %zu: viol 0x%x small %d\n", fc ? "fc" : "conv", acc64 ? 64 : 32, s.n, s.c, s.h,
            s.w, s.o, s.kh, s.kw, s.stride_h, s.stride_w, s.dil_h, s.dil_w, s.pad_top, s.pad_left, s.pad_bottom,
            s.pad_right, s.groups, (int)s.layout, (int)s.w_layout, nrq, viol, small);
  if (!viol && !runnable) goto done; /* accepted and too big to run */

  fz_buf_new(&ba, ny * 2, 0xa5), fz_buf_new(&bb, ny * 2, 0x5a);
  {
    int16_t *y1 = null_out ? NULL : (int16_t *)fz_buf_data(&ba), *y2 = null_out ? NULL : (int16_t *)fz_buf_data(&bb);
    const mrtq_rq *rp = null_rq ? NULL : rq;
    const char *what = fc ? (acc64 ? "mrtq_fc_s16x8_acc64" : "mrtq_fc_s16x8_acc32")
                          : (acc64 ? "mrtq_conv2d_s16x8_acc64" : "mrtq_conv2d_s16x8_acc32");
    const int64_t *b64 = with_bias ? bias64 : NULL;
    const int32_t *b32 = with_bias ? bias32 : NULL;
    if (fc && acc64) {
      FZ_CALL(st, mrtq_fc_s16x8_acc64(s.n, s.c, s.o, rp, nrq, &x, &w, b64, y1), what);
      st2 = mrtq_fc_s16x8_acc64(s.n, s.c, s.o, rp, nrq, &x, &w, b64, y2);
    } else if (fc) {
      FZ_CALL(st, mrtq_fc_s16x8_acc32(s.n, s.c, s.o, rp, nrq, &x, &w, b32, y1), what);
      st2 = mrtq_fc_s16x8_acc32(s.n, s.c, s.o, rp, nrq, &x, &w, b32, y2);
    } else if (acc64) {
      FZ_CALL(st, mrtq_conv2d_s16x8_acc64(&s, rp, nrq, &x, &w, b64, y1), what);
      st2 = mrtq_conv2d_s16x8_acc64(&s, rp, nrq, &x, &w, b64, y2);
    } else {
      FZ_CALL(st, mrtq_conv2d_s16x8_acc32(&s, rp, nrq, &x, &w, b32, y1), what);
      st2 = mrtq_conv2d_s16x8_acc32(&s, rp, nrq, &x, &w, b32, y2);
    }
    fz_after(&ba, st, what);
    fz_after(&bb, st2, what);
    FZ_EQ(st, st2, "%s: same call, same status", what);
    if (viol) FZ_CHECK(st != MRTQ_OK && (BIT(st) & viol), "%s status %d; the input breaks rules of codes 0x%x", what, (int)st, viol);
    else FZ_EQ(st, MRTQ_OK, "%s refused an input its contract accepts", what);
    if (st == MRTQ_OK) {
      int nchw = s.layout == MRTQ_NCHW;
      FZ_CHECK(fz_same_output(&ba, &bb), "%s left part of its output unwritten", what);
      for (n = 0; n < s.n; n++)
        for (o = 0; o < s.o; o++)
          for (oy = 0; oy < ho; oy++)
            for (ox = 0; ox < wo; ox++) {
              int64_t acc = with_bias ? (acc64 ? bias64[o] : bias32[o]) : 0;
              size_t g = o / og, at = nchw ? ((n * s.o + o) * ho + oy) * wo + ox : ((n * ho + oy) * wo + ox) * s.o + o;
              const mrtq_rq *r = &rq[nrq == 1 ? 0 : o];
              int16_t got;
              if (fc) { /* y[row][o] = sum_t x[row][t] w[o][t] */
                for (c = 0; c < s.c; c++) acc += (int64_t)xd[n * s.c + c] * wd[o * s.c + c];
              } else {
                for (c = 0; c < cg; c++)
                  for (ky = 0; ky < s.kh; ky++)
                    for (kx = 0; kx < s.kw; kx++) {
                      size_t iy = oy * s.stride_h + ky * s.dil_h, ix = ox * s.stride_w + kx * s.dil_w, ci = g * cg + c;
                      size_t wa = nchw ? ((o * cg + c) * s.kh + ky) * s.kw + kx : ((o * s.kh + ky) * s.kw + kx) * cg + c;
                      if (s.w_layout == MRTQ_W_TFLITE_DW) wa = (ky * s.kw + kx) * s.o + o; /* [1][kh][kw][o] */
                      if (iy < s.pad_top || iy >= s.pad_top + s.h || ix < s.pad_left || ix >= s.pad_left + s.w) continue;
                      iy -= s.pad_top, ix -= s.pad_left;
                      acc += (int64_t)wd[wa] *
                             xd[nchw ? ((n * s.c + ci) * s.h + iy) * s.w + ix : ((n * s.h + iy) * s.w + ix) * s.c + ci];
                    }
              }
              if (acc64)
                FZ_CHECK(acc >= -((int64_t)1 << 47) && acc < ((int64_t)1 << 47),
                         "accepted, but the exact sum %lld leaves [-2^47, 2^47)", (long long)acc);
              memcpy(&got, (const uint8_t *)fz_buf_data(&ba) + 2 * at, 2);
              FZ_EQ(got, acc64 ? or_y64(acc, r) : or_y32(acc, r),
                    "%s output %zu (n %zu o %zu y %zu x %zu; acc %lld, mult %d shift %d scheme %d, [%d, %d])", what, at,
                    n, o, oy, ox, (long long)acc, (int)r->m.mult, (int)r->m.shift, (int)r->scheme, (int)r->qmin,
                    (int)r->qmax);
            }
    }
    /* the fast core (fastconv.h, the C loops or AVX512-VNNI as built): refused where the reference refuses, and on
       success its bytes */
    if (!null_out) {
      mrtq_fastconv p;
      size_t wb = 0, sb = 0;
      mrtq_status sst = mrtq_fastconv_sizes_s16x8(&s, &wb, &sb), ist, stf;
      if (sst != MRTQ_OK) {
        FZ_CHECK(st != MRTQ_OK, "mrtq_fastconv_sizes_s16x8 refused (%d) a shape the reference accepted", (int)sst);
      } else if (runnable && wb <= ((size_t)64 << 20) && sb <= ((size_t)64 << 20)) { /* operands sized to the shape */
        void *wmem = malloc(wb);
        fz_buf sbuf, yb;
        fz_reason_begin();
        ist = fc ? mrtq_fastconv_init_fc_s16x8(s.n, s.c, s.o, &w, wmem, wb, &p) : mrtq_fastconv_init_s16x8(&s, &w, wmem, wb, &p);
        fz_reason_end(ist, "mrtq_fastconv_init_s16x8");
        if (ist != MRTQ_OK) {
          FZ_CHECK(st != MRTQ_OK, "mrtq_fastconv_init_s16x8 refused (%d) weights the reference accepted", (int)ist);
        } else {
          void *scr = fz_buf_new_at(&sbuf, sb, 0x3c, fz_range(f, 0, 63));
          int16_t *yf = (int16_t *)fz_buf_new(&yb, ny * 2, 0x77);
          fz_reason_begin();
          stf = acc64 ? mrtq_fastconv_s16x8_acc64(&p, rp, nrq, &x, b64, scr, sb, NULL, yf)
                      : mrtq_fastconv_s16x8_acc32(&p, rp, nrq, &x, b32, scr, sb, NULL, yf);
          fz_reason_end(stf, "mrtq_fastconv_s16x8");
          fz_after(&yb, stf, "mrtq_fastconv_s16x8");
          FZ_CHECK(fz_guards_intact(&sbuf), "mrtq_fastconv_s16x8 wrote outside its %zu bytes of scratch", sb);
          /* the weights were checked at packing, as the reference checks them: the rest in the reference's order */
          FZ_EQ(stf, st, "mrtq_fastconv_s16x8 (%s) against %s's status", acc64 ? "acc64" : "acc32", what);
          if (stf == MRTQ_OK && st == MRTQ_OK)
            FZ_CHECK(memcmp(yf, fz_buf_data(&ba), ny * 2) == 0, "mrtq_fastconv_s16x8 bytes differ from %s's", what);
          fz_buf_free(&sbuf), fz_buf_free(&yb);
        }
        free(wmem);
      }
    }
  }
  fz_buf_free(&ba), fz_buf_free(&bb);
done:
  free(rq), free(xd), free(wd);
}

/* ---- batch matmul, int16 x int16 ---- */

static void check_matmul(fz *f) {
  size_t batch = fz_dim(f, 1, 3), m = fz_dim(f, 1, 8), k = fz_dim(f, 1, 24), n = fz_dim(f, 1, 12), bb, na, nb, ny, bi, i, j, t;
  int shared = fz_bool(f), small, null_rq, null_out;
  unsigned viol = 0;
  i128 lim = (i128)SIZE_MAX;
  int16_t *ad, *bd;
  mrtq_qoperand a, b;
  mrtq_rq rq;
  fz_buf ba, bb2;
  mrtq_status st, st2;
  if (fz_rare(f, 24)) { /* k at the 2^47 bound (131071 / 131072) and past it */
    static const size_t ks[] = {131070, 131071, 131072, 131073, (size_t)1 << 32};
    k = ks[fz_range(f, 0, 4)];
  }
  bb = shared ? 1 : batch;
  if (!batch || !m || !k || !n) viol |= BIT(MRTQ_ESHAPE);
  else if (mul_cap(mul_cap(batch, m, lim), k, lim) > lim || mul_cap(mul_cap(batch, m, lim), n, lim) > lim ||
           mul_cap(mul_cap(bb, k, lim), n, lim) > lim)
    viol |= BIT(MRTQ_ESHAPE);
  if (k > 131071) viol |= BIT(MRTQ_EOVERFLOW); /* k 2^30 >= 2^47 */
  small = !(viol & BIT(MRTQ_ESHAPE)) && (i128)batch * m * k <= ELEM_MAX && (i128)bb * k * n <= ELEM_MAX &&
          (i128)batch * m * n <= 4096 && (i128)batch * m * n * k <= WORK_MAX;
  na = small ? batch * m * k : 16, nb = small ? bb * k * n : 16, ny = small ? batch * m * n : 16;
  ad = (int16_t *)malloc(na * 2 + 2), bd = (int16_t *)malloc(nb * 2 + 2);
  fz_fill(f, ad, na * 2), fz_fill(f, bd, nb * 2);
  if (fz_u8(f) >= 200) { /* every product 2^30: the sum at k 2^30 */
    for (i = 0; i < na; i++) ad[i] = -32768;
    for (i = 0; i < nb; i++) bd[i] = -32768;
  }
  viol |= make_operand(f, &a, ad, MRTQ_S16);
  viol |= make_operand(f, &b, bd, MRTQ_S16);
  make_rq(f, &rq);
  viol |= rq_viol(&rq, 1);
  null_rq = fz_rare(f, 2), null_out = fz_rare(f, 2);
  if (null_rq || null_out) viol |= BIT(MRTQ_EINVAL);
  if (getenv("FZ_DEBUG"))
    fprintf(stderr, "matmul batch %zu m %zu k %zu n %zu shared %d: viol 0x%x small %d\n", batch, m, k, n, shared, viol, small);
  if (!viol && !small) goto done;
  fz_buf_new(&ba, ny * 2, 0xa5), fz_buf_new(&bb2, ny * 2, 0x5a);
  FZ_CALL(st,
          mrtq_matmul_s16_acc64(batch, m, k, n, null_rq ? NULL : &rq, &a, &b, shared,
                                null_out ? NULL : (int16_t *)fz_buf_data(&ba)),
          "mrtq_matmul_s16_acc64");
  st2 = mrtq_matmul_s16_acc64(batch, m, k, n, null_rq ? NULL : &rq, &a, &b, shared,
                              null_out ? NULL : (int16_t *)fz_buf_data(&bb2));
  fz_after(&ba, st, "mrtq_matmul_s16_acc64");
  fz_after(&bb2, st2, "mrtq_matmul_s16_acc64");
  FZ_EQ(st, st2, "mrtq_matmul_s16_acc64: same call, same status");
  if (viol)
    FZ_CHECK(st != MRTQ_OK && (BIT(st) & viol), "mrtq_matmul_s16_acc64 status %d; the input breaks rules of codes 0x%x",
             (int)st, viol);
  else FZ_EQ(st, MRTQ_OK, "mrtq_matmul_s16_acc64 refused an input its contract accepts");
  if (st == MRTQ_OK) {
    FZ_CHECK(fz_same_output(&ba, &bb2), "mrtq_matmul_s16_acc64 left part of its output unwritten");
    for (bi = 0; bi < batch; bi++)
      for (i = 0; i < m; i++)
        for (j = 0; j < n; j++) {
          int64_t acc = 0;
          int16_t got;
          for (t = 0; t < k; t++) acc += (int64_t)ad[(bi * m + i) * k + t] * bd[((shared ? 0 : bi) * k + t) * n + j];
          FZ_CHECK(acc >= -((int64_t)1 << 47) && acc < ((int64_t)1 << 47), "accepted, but the sum %lld leaves [-2^47, 2^47)",
                   (long long)acc);
          memcpy(&got, (const uint8_t *)fz_buf_data(&ba) + 2 * ((bi * m + i) * n + j), 2);
          FZ_EQ(got, or_y64(acc, &rq), "mrtq_matmul_s16_acc64 output (%zu, %zu, %zu; acc %lld, mult %d shift %d, [%d, %d])",
                bi, i, j, (long long)acc, (int)rq.m.mult, (int)rq.m.shift, (int)rq.qmin, (int)rq.qmax);
        }
  }
  fz_buf_free(&ba), fz_buf_free(&bb2);
done:
  free(ad), free(bd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f = {data, size};
  switch (fz_u8(&f) % 3) {
    case 0: check_conv(&f, 0); break;
    case 1: check_conv(&f, 1); break;
    default: check_matmul(&f); break;
  }
  return 0;
}
