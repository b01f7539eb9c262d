/* mrtq/batch_matmul.h -- TFLite's BATCH_MATMUL in its integer forms (layer
 * 6; includes mrtq/conv_s16.h, which includes mrtq/conv.h: the matrix
 * products are those of mrtq_matmul_q8 and mrtq_matmul_s16_acc64).
 * Bit-exact with TFLite's reference kernel (kernels/internal/reference/
 * batch_matmul.h, the FullyConnectedParams form, as tensorflow/lite/kernels/
 * batch_matmul.cc and TFLite Micro's micro/kernels/batch_matmul.cc call it;
 * tflite-micro 90b983c2).
 *
 * WHAT IT COMPUTES. a (TFLite's LHS, "x") has shape [..., r_a, c_a], b (RHS,
 * "y") [..., r_b, c_b], ranks 2 to 5, row-major. adj_x / adj_y transpose the
 * last two dimensions of a / b: op(a) = adj_x ? a^T : a is m x k, op(b) =
 * adj_y ? b^T : b is k x n, so
 *   adj_x 0: m = r_a, k = c_a      adj_y 0: k = r_b, n = c_b   (b stored [k][n])
 *   adj_x 1: m = c_a, k = r_a      adj_y 1: k = c_b, n = r_b   (b stored [n][k])
 * and the output is y = op(a) op(b), shape [batch..., m, n], row-major.
 * (TFLite's own data flow, restated from its Eval: it transposes b when adj_y
 * is 0 -- the default, so that its GEMM reads b as [n][k] -- and a when adj_x
 * is 1, then calls the reference kernel with the operands swapped, b^T's
 * rows as the kernel's "lhs"; the result is the product above, written as n
 * columns of m, i.e. [m][n] row-major.)
 * Batch dimensions: both shapes are extended to rank 5 with leading 1s (as
 * the reference kernel does); each of the three batch dimensions must be
 * equal, or 1 on one side (broadcast: that side's matrix is reused); the
 * output's is the larger, and its rank is max(nda, ndb).
 * Per output element, with za = p->zp_a, zb = p->zp_b:
 *   S = sum_t (op(a)[i][t] - za) (op(b)[t][j] - zb)      exact
 *   int8:  y = clamp(F(S) + rq.zp, rq.qmin, rq.qmax), F = mrtq_mul_q31_dbl
 *          (MRTQ_Q31_DBL, TFLite's default build: ties toward +infinity, then
 *          away from zero) or mrtq_mul_q31_rndnu (MRTQ_Q31_RNDNU,
 *          TFLITE_SINGLE_ROUNDING: one rounding, ties toward +infinity);
 *   int16: y = clamp(wrap32(R(S)), rq.qmin, rq.qmax), zero points 0, R TFLite's
 *          64-bit MultiplyByQuantizedMultiplier (mrtq_mul_q31_x64's formula:
 *          the multiplier rounded to 16 bits, one rounding, ties toward
 *          +infinity), wrap32 its int64 result modulo 2^32.
 * TFLite's BATCH_MATMUL has no fused activation: qmin / qmax are the type's
 * range (mrtq_tflite_batch_matmul_init sets them; a narrower pair clamps
 * further).
 *
 * OVERFLOW. TFLite sums int8 products in int32 without a guard (beyond it,
 * undefined behaviour). mrtq computes in the expansion form of mrtq_matmul_q8
 * and refuses, before anything is written, every k for which
 *   k |A| |B| + |za| k |B| + |zb| k |A| + k |za zb| > 2^31 - 1
 * (|A| = |B| = 128 for int8): with za = zb = 0 that is exactly where TFLite's
 * sum could leave int32 (k > 131071); with zero points it refuses up to 4%
 * earlier (za = zb = -128: k > 32767, where TFLite's worst case 255^2 k leaves
 * int32 only from k = 33026). int16: the int64 sum is exact; k 2^30 must
 * stay below 2^47, the domain of TFLite's 64-bit multiply (k <= 131071).
 *
 * NOT HERE: TFLite's int8 x int8 -> int32 output form (TF interpreter only;
 * it applies no zero points), the hybrid float x int8 form, and uint8
 * (TFLite has no uint8 BATCH_MATMUL). The TF interpreter's default
 * (optimized) int8 kernel multiplies through ruy with the same zero points and
 * multiplier; its bytes were not compared here: mrtq claims the reference
 * kernel (TFLite Micro always; the TF interpreter with the reference op
 * resolver, and for int16 always -- it has no optimized int16 kernel).
 *
 * Every refusal names the argument through MRTQ_ON_ERROR and writes nothing. */
#ifndef MRTQ_BATCH_MATMUL_H
#define MRTQ_BATCH_MATMUL_H

#include "conv_s16.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* The parameters of one BATCH_MATMUL (filled by the two _init functions). */
typedef struct mrtq_tflite_batch_matmul_params {
  mrtq_rq rq;          /* Q31 multiplier of s_a s_b / s_y, output zero point, clamp */
  int32_t zp_a, zp_b;  /* input zero points (TFLite stores them negated as offsets) */
  mrtq_dtype type;     /* MRTQ_S8 or MRTQ_S16: a, b and the output */
} mrtq_tflite_batch_matmul_params;

/* From the float scales and zero points a model stores, as TFLite's Prepare
 * computes it (both the TF interpreter's batch_matmul.cc and TFLite Micro's:
 * kernel_util.cc GetQuantizedConvolutionMultipler, the four-argument form):
 *   r = (double)fl(s_a * s_b) / (double)s_y      (the product in float)
 *   rq = {MRTQ_Q31_DBL, QuantizeMultiplier(r) (mrtq_mult_q31), scale 0, zp_y,
 *         the type's range}
 * zp_a, zp_b, zp_y in the type; MRTQ_S16: all three 0 (TFLite requires it).
 * For TFLITE_SINGLE_ROUNDING builds set p->rq.scheme = MRTQ_Q31_RNDNU after.
 * Errors (nothing written): p NULL, a scale NaN, infinite or <= 0, a zero
 * point outside the type or non-zero with MRTQ_S16 -> MRTQ_EINVAL; type
 * another mrtq_dtype -> MRTQ_EUNSUPPORTED (outside the enum: MRTQ_EINVAL);
 * s_a s_b beyond FLT_MAX in float, r whose shift exceeds 30 (MRTQ_S8) or 7
 * (MRTQ_S16: TFLite's 64-bit multiply takes shifts up to 7) -> MRTQ_ERANGE.
 * An r below 2^-32 (or a float product that underflows to 0) flushes to the
 * pair (0, 0), as TFLite: every output is then clamp(zp_y). */
MRTQ_API mrtq_status mrtq_tflite_batch_matmul_init(float s_a, int32_t zp_a, float s_b, int32_t zp_b, float s_y,
                                                   int32_t zp_y, mrtq_dtype type, mrtq_tflite_batch_matmul_params *p);

/* From TFLite's stored output_multiplier / output_shift (its OpData) and the
 * zero points: p->rq = mrtq_rq_from_mult(MRTQ_Q31_DBL, m, zp_y, type range).
 * Errors: p NULL, a zero point outside the type or non-zero with MRTQ_S16 ->
 * MRTQ_EINVAL; type as mrtq_tflite_batch_matmul_init; m outside
 * mrtq_rq_from_mult's ranges, or m.shift > 7 with MRTQ_S16 -> MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_tflite_batch_matmul_init_mult(mrtq_mult m, int32_t zp_a, int32_t zp_b, int32_t zp_y,
                                                        mrtq_dtype type, mrtq_tflite_batch_matmul_params *p);

/* The output shape: *ndy = max(nda, ndb) dimensions into shape_y (room for
 * 5): the broadcast batch dimensions, then m, n (see the header comment).
 * Any size may be 0 (an empty tensor).
 * Errors (nothing written): shape_a, shape_b, shape_y or ndy NULL, nda or ndb
 * outside [2, 5] (TFLite's ranks) -> MRTQ_EINVAL; batch dimensions that are
 * neither equal nor 1 on one side, op(a)'s columns not op(b)'s rows (k), a
 * size above 2^31 - 1 (TFLite's dimensions are int), an element count
 * overflowing size_t -> MRTQ_ESHAPE. */
MRTQ_API mrtq_status mrtq_tflite_batch_matmul_shape(const size_t *shape_a, int nda, const size_t *shape_b, int ndb,
                                                    int adj_x, int adj_y, size_t *shape_y, int *ndy);

/* Bytes of scratch the kernel needs: the transposed copies it makes (a's
 * elements when adj_x, b's when adj_y; 1 byte each for MRTQ_S8, 2 for
 * MRTQ_S16; 0 when neither flag is set). Any alignment.
 * Errors: bytes NULL -> MRTQ_EINVAL; type as mrtq_tflite_batch_matmul_init;
 * the shapes as mrtq_tflite_batch_matmul_shape. */
MRTQ_API mrtq_status mrtq_tflite_batch_matmul_scratch_size(const size_t *shape_a, int nda, const size_t *shape_b,
                                                           int ndb, int adj_x, int adj_y, mrtq_dtype type,
                                                           size_t *bytes);

/* y = op(a) op(b) (the header comment): a, b and out are arrays of p->type
 * (int16 at any alignment), out holds the output shape's elements; scratch
 * holds mrtq_tflite_batch_matmul_scratch_size bytes (may be NULL when that
 * is 0). Bit-exact with TFLite's reference BatchMatMul (int8: <int8_t,
 * int32_t>, int16: <int16_t, int64_t>) for every accepted input, in the
 * default (MRTQ_Q31_DBL) and TFLITE_SINGLE_ROUNDING (MRTQ_Q31_RNDNU, int8)
 * builds. k = 0 gives clamp(F(0) + zp) everywhere, as TFLite's loop.
 * Errors (nothing written): shapes as mrtq_tflite_batch_matmul_shape; p NULL,
 * p->type outside the enum, p->zp_a / p->zp_b outside the type (non-zero
 * for MRTQ_S16), p->rq failing the array functions' descriptor checks (the
 * reason names it "rq->", as every descriptor check does),
 * p->rq.zp, qmin or qmax outside the type, a, b, scratch or out NULL while
 * it has elements -> MRTQ_EINVAL; p->type not MRTQ_S8 / MRTQ_S16,
 * p->rq.scheme not a Q31 scheme -> MRTQ_EUNSUPPORTED; MRTQ_S16:
 * p->rq.m.mult < 0 or p->rq.m.shift outside [-31, 7] -> MRTQ_ERANGE; the
 * overflow rules above -> MRTQ_EOVERFLOW (the reason names k, the shared
 * dimension). */
MRTQ_API mrtq_status mrtq_tflite_batch_matmul(const size_t *shape_a, int nda, const size_t *shape_b, int ndb,
                                              int adj_x, int adj_y, const mrtq_tflite_batch_matmul_params *p,
                                              const void *a, const void *b, void *scratch, void *out);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

/* The geometry of one call: rank-5 extended shapes, sizes, counts. */
typedef struct mrtq__bmm_geom {
  size_t ea[5], eb[5];   /* extended shapes */
  size_t bat[3];         /* output batch dimensions */
  size_t m, k, n;
  size_t na, nb, ny;     /* element counts of a, b, y */
  int ndy;
} mrtq__bmm_geom;

/* an overflowing product of sizes: 1 */
MRTQ__PRIV int mrtq__bmm_prod(const size_t *d, int nd, size_t *out) {
  size_t v = 1;
  int i;
  for (i = 0; i < nd; i++)
    if (!d[i]) v = 0;
  for (i = 0; v && i < nd; i++) {
    if (v > SIZE_MAX / d[i]) return 1;
    v *= d[i];
  }
  *out = v;
  return 0;
}

MRTQ__PRIV mrtq_status mrtq__bmm_geometry(const size_t *shape_a, int nda, const size_t *shape_b, int ndb, int adj_x,
                                          int adj_y, mrtq__bmm_geom *g) {
  int i;
  size_t ka, kb, dy[5];
  if (!shape_a) return MRTQ__ERR(MRTQ_EINVAL, "shape_a: NULL");
  if (!shape_b) return MRTQ__ERR(MRTQ_EINVAL, "shape_b: NULL");
  if (nda < 2 || nda > 5) return MRTQ__ERR(MRTQ_EINVAL, "nda: must be 2..5 (TFLite's BATCH_MATMUL ranks)");
  if (ndb < 2 || ndb > 5) return MRTQ__ERR(MRTQ_EINVAL, "ndb: must be 2..5 (TFLite's BATCH_MATMUL ranks)");
  for (i = 0; i < nda; i++)
    if (shape_a[i] > (size_t)INT32_MAX) return MRTQ__ERR(MRTQ_ESHAPE, "shape_a[i]: above 2^31 - 1 (TFLite's dimensions are int)");
  for (i = 0; i < ndb; i++)
    if (shape_b[i] > (size_t)INT32_MAX) return MRTQ__ERR(MRTQ_ESHAPE, "shape_b[i]: above 2^31 - 1 (TFLite's dimensions are int)");
  for (i = 0; i < 5; i++) {
    g->ea[i] = i < 5 - nda ? 1 : shape_a[i - (5 - nda)];
    g->eb[i] = i < 5 - ndb ? 1 : shape_b[i - (5 - ndb)];
  }
  for (i = 0; i < 3; i++) {
    if (g->ea[i] != g->eb[i] && g->ea[i] != 1 && g->eb[i] != 1)
      return MRTQ__ERR(MRTQ_ESHAPE, "shape_a, shape_b: batch dimensions must be equal or 1 on one side");
    g->bat[i] = g->ea[i] == 1 ? g->eb[i] : g->ea[i];
  }
  g->m = adj_x ? g->ea[4] : g->ea[3], ka = adj_x ? g->ea[3] : g->ea[4];
  kb = adj_y ? g->eb[4] : g->eb[3], g->n = adj_y ? g->eb[3] : g->eb[4];
  if (ka != kb) return MRTQ__ERR(MRTQ_ESHAPE, "shape_a, shape_b: op(a)'s columns must equal op(b)'s rows (k)");
  g->k = ka;
  dy[0] = g->bat[0], dy[1] = g->bat[1], dy[2] = g->bat[2], dy[3] = g->m, dy[4] = g->n;
  if (mrtq__bmm_prod(g->ea, 5, &g->na)) return MRTQ__ERR(MRTQ_ESHAPE, "shape_a: the element count overflows size_t");
  if (mrtq__bmm_prod(g->eb, 5, &g->nb)) return MRTQ__ERR(MRTQ_ESHAPE, "shape_b: the element count overflows size_t");
  if (mrtq__bmm_prod(dy, 5, &g->ny) || g->ny > SIZE_MAX / 2)
    return MRTQ__ERR(MRTQ_ESHAPE, "shape_a, shape_b: the output's element count overflows size_t");
  g->ndy = nda > ndb ? nda : ndb;
  return MRTQ_OK;
}

/* The parameter rules shared by the constructors and the kernel (pc: name
 * the struct's fields "p->" (1) or the arguments (0)). */
MRTQ__PRIV mrtq_status mrtq__bmm_zp_check(int32_t zp_a, int32_t zp_b, int32_t zp_y, mrtq_dtype type, int pc) {
  (void)pc; /* read by the reasons only */
  if (!mrtq__in_type(zp_a, type)) return MRTQ__ERR(MRTQ_EINVAL, pc ? "p->zp_a: outside p->type" : "zp_a: outside type");
  if (!mrtq__in_type(zp_b, type)) return MRTQ__ERR(MRTQ_EINVAL, pc ? "p->zp_b: outside p->type" : "zp_b: outside type");
  if (!mrtq__in_type(zp_y, type)) return MRTQ__ERR(MRTQ_EINVAL, pc ? "p->rq.zp: outside p->type" : "zp_y: outside type");
  if (type == MRTQ_S16 && (zp_a || zp_b || zp_y))
    return MRTQ__ERR(MRTQ_EINVAL, pc ? "p->zp_a, p->zp_b, p->rq.zp: must be 0 with MRTQ_S16 (TFLite's int16 BATCH_MATMUL)"
                                     : "zp_a, zp_b, zp_y: must be 0 with MRTQ_S16 (TFLite's int16 BATCH_MATMUL)");
  return MRTQ_OK;
}

/* t is MRTQ_S8 or MRTQ_S16 (name: the argument). */
#define MRTQ__BMM_TYPE(t, name)                                                                              \
  ((t) == MRTQ_S8 || (t) == MRTQ_S16 ? MRTQ_OK                                                              \
   : !mrtq__dtype_ok(t) ? MRTQ__ERR(MRTQ_EINVAL, name ": not an mrtq_dtype (0: a zero-initialised struct)") \
                        : MRTQ__ERR(MRTQ_EUNSUPPORTED, name ": must be MRTQ_S8 or MRTQ_S16 (TFLite's integer BATCH_MATMUL)"))

MRTQ_API mrtq_status mrtq_tflite_batch_matmul_init_mult(mrtq_mult m, int32_t zp_a, int32_t zp_b, int32_t zp_y,
                                                        mrtq_dtype type, mrtq_tflite_batch_matmul_params *p) {
  mrtq_status st;
  int32_t lo = 0, hi = 0;
  mrtq_rq rq;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if ((st = MRTQ__BMM_TYPE(type, "type")) != MRTQ_OK) return st;
  if ((st = mrtq__bmm_zp_check(zp_a, zp_b, zp_y, type, 0)) != MRTQ_OK) return st;
  (void)mrtq_dtype_range(type, &lo, &hi);
  if ((st = mrtq_rq_from_mult(MRTQ_Q31_DBL, m, zp_y, lo, hi, &rq)) != MRTQ_OK) return st;
  if (type == MRTQ_S16 && m.shift > 7)
    return MRTQ__ERR(MRTQ_ERANGE, "m.shift: must be <= 7 with MRTQ_S16 (TFLite's 64-bit multiply takes shifts -31..7)");
  p->rq = rq, p->zp_a = zp_a, p->zp_b = zp_b, p->type = type;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_batch_matmul_init(float s_a, int32_t zp_a, float s_b, int32_t zp_b, float s_y,
                                                   int32_t zp_y, mrtq_dtype type, mrtq_tflite_batch_matmul_params *p) {
  mrtq_status st;
  mrtq_mult m = {0, 0};
  float prod;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if ((st = MRTQ__BMM_TYPE(type, "type")) != MRTQ_OK) return st;
  if (mrtq__nonfinite_f32(s_a) || !(s_a > 0)) return MRTQ__ERR(MRTQ_EINVAL, "s_a: must be finite and > 0");
  if (mrtq__nonfinite_f32(s_b) || !(s_b > 0)) return MRTQ__ERR(MRTQ_EINVAL, "s_b: must be finite and > 0");
  if (mrtq__nonfinite_f32(s_y) || !(s_y > 0)) return MRTQ__ERR(MRTQ_EINVAL, "s_y: must be finite and > 0");
  if ((st = mrtq__bmm_zp_check(zp_a, zp_b, zp_y, type, 0)) != MRTQ_OK) return st;
  prod = s_a * s_b; /* float, as TFLite (FLT_EVAL_METHOD 0, see requant.h); may round to 0 or +inf */
  if (mrtq__nonfinite_f32(prod)) return MRTQ__ERR(MRTQ_ERANGE, "s_a, s_b: s_a s_b overflows float");
  (void)mrtq_mult_q31((double)prod / (double)s_y, &m); /* finite, >= 0: cannot fail */
  if (m.shift > (type == MRTQ_S16 ? 7 : 30))
    return type == MRTQ_S16 ? MRTQ__ERR(MRTQ_ERANGE, "s_y: s_a s_b / s_y must be below 128 with MRTQ_S16 (a shift above 7)")
                            : MRTQ__ERR(MRTQ_ERANGE, "s_y: s_a s_b / s_y must be below 2^30 (a Q31 shift above 30)");
  return mrtq_tflite_batch_matmul_init_mult(m, zp_a, zp_b, zp_y, type, p);
}

MRTQ_API mrtq_status mrtq_tflite_batch_matmul_shape(const size_t *shape_a, int nda, const size_t *shape_b, int ndb,
                                                    int adj_x, int adj_y, size_t *shape_y, int *ndy) {
  mrtq__bmm_geom g;
  int i;
  mrtq_status st;
  if (!shape_y || !ndy) return MRTQ__ERR(MRTQ_EINVAL, "shape_y, ndy: NULL");
  if ((st = mrtq__bmm_geometry(shape_a, nda, shape_b, ndb, adj_x, adj_y, &g)) != MRTQ_OK) return st;
  for (i = 0; i < g.ndy - 2; i++) shape_y[i] = g.bat[3 - (g.ndy - 2) + i];
  shape_y[g.ndy - 2] = g.m, shape_y[g.ndy - 1] = g.n;
  *ndy = g.ndy;
  return MRTQ_OK;
}

/* Scratch bytes for the geometry (each count <= SIZE_MAX / 2 is not
 * guaranteed for a and b: checked here). */
MRTQ__PRIV int mrtq__bmm_scratch(const mrtq__bmm_geom *g, int adj_x, int adj_y, size_t esz, size_t *bytes) {
  size_t a = adj_x ? g->na : 0, b = adj_y ? g->nb : 0;
  if (a > SIZE_MAX / esz || b > SIZE_MAX / esz || a * esz > SIZE_MAX - b * esz) return 1;
  *bytes = a * esz + b * esz;
  return 0;
}

MRTQ_API mrtq_status mrtq_tflite_batch_matmul_scratch_size(const size_t *shape_a, int nda, const size_t *shape_b,
                                                           int ndb, int adj_x, int adj_y, mrtq_dtype type,
                                                           size_t *bytes) {
  mrtq__bmm_geom g;
  size_t v;
  mrtq_status st;
  if (!bytes) return MRTQ__ERR(MRTQ_EINVAL, "bytes: NULL");
  if ((st = MRTQ__BMM_TYPE(type, "type")) != MRTQ_OK) return st;
  if ((st = mrtq__bmm_geometry(shape_a, nda, shape_b, ndb, adj_x, adj_y, &g)) != MRTQ_OK) return st;
  if (mrtq__bmm_scratch(&g, adj_x, adj_y, type == MRTQ_S16 ? 2 : 1, &v))
    return MRTQ__ERR(MRTQ_ESHAPE, "shape_a, shape_b: the scratch's byte count overflows size_t");
  *bytes = v;
  return MRTQ_OK;
}

/* Transpose the last two dimensions of cnt / (r c) matrices r x c of esz-byte
 * elements from src into dst (c x r each). */
MRTQ__PRIV void mrtq__bmm_transpose(const void *src, size_t cnt, size_t r, size_t c, size_t esz, void *dst) {
  const uint8_t *s = (const uint8_t *)src;
  uint8_t *d = (uint8_t *)dst;
  size_t mats = cnt / (r * c), q, i, j;
  for (q = 0; q < mats; q++)
    for (i = 0; i < r; i++)
      for (j = 0; j < c; j++) memcpy(d + (q * r * c + j * r + i) * esz, s + (q * r * c + i * c + j) * esz, esz);
}

MRTQ_API mrtq_status mrtq_tflite_batch_matmul(const size_t *shape_a, int nda, const size_t *shape_b, int ndb,
                                              int adj_x, int adj_y, const mrtq_tflite_batch_matmul_params *p,
                                              const void *a, const void *b, void *scratch, void *out) {
  mrtq__bmm_geom g;
  mrtq_status st;
  size_t esz, sbytes, b0, b1, b2, i, sa[3], sb[3];
  int32_t lo = 0, hi = 0;
  const uint8_t *ad = (const uint8_t *)a, *bd = (const uint8_t *)b;
  if ((st = mrtq__bmm_geometry(shape_a, nda, shape_b, ndb, adj_x, adj_y, &g)) != MRTQ_OK) return st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if ((st = MRTQ__BMM_TYPE(p->type, "p->type")) != MRTQ_OK) return st;
  if ((st = mrtq__bmm_zp_check(p->zp_a, p->zp_b, p->rq.zp, p->type, 1)) != MRTQ_OK) return st;
  (void)mrtq_dtype_range(p->type, &lo, &hi);
  if (p->type == MRTQ_S16) {
    if ((st = mrtq__s16_rq_check(&p->rq, 0, 1)) != MRTQ_OK) return st;
  } else {
    if ((st = mrtq__rq_check(&p->rq, 0)) != MRTQ_OK) return st;
    if (p->rq.scheme != MRTQ_Q31_DBL && p->rq.scheme != MRTQ_Q31_RNDNU)
      return MRTQ__ERR(MRTQ_EUNSUPPORTED, "p->rq.scheme: must be MRTQ_Q31_DBL or MRTQ_Q31_RNDNU (TFLite's Q31 multiplier)");
    if (p->rq.qmin < lo || p->rq.qmax > hi) return MRTQ__ERR(MRTQ_EINVAL, "p->rq.qmin, p->rq.qmax: outside p->type");
  }
  esz = p->type == MRTQ_S16 ? 2 : 1;
  if (mrtq__bmm_scratch(&g, adj_x, adj_y, esz, &sbytes))
    return MRTQ__ERR(MRTQ_ESHAPE, "shape_a, shape_b: the scratch's byte count overflows size_t");
  if (g.na && !a) return MRTQ__ERR(MRTQ_EINVAL, "a: NULL (allowed only for an empty tensor)");
  if (g.nb && !b) return MRTQ__ERR(MRTQ_EINVAL, "b: NULL (allowed only for an empty tensor)");
  if (g.ny && !out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL (allowed only for an empty output)");
  if (sbytes && !scratch) return MRTQ__ERR(MRTQ_EINVAL, "scratch: NULL (mrtq_tflite_batch_matmul_scratch_size gives > 0)");
  if (g.k && g.ny) { /* the sums' bound (nothing is summed otherwise) */
    if (p->type == MRTQ_S8) {
      mrtq_qoperand qa = {a, MRTQ_S8, p->zp_a, NULL}, qb = {b, MRTQ_S8, p->zp_b, NULL};
      if ((st = mrtq__dot_check((uint64_t)g.k, &qa, &qb, 1, NULL, 0, 1)) != MRTQ_OK) return st;
    } else if (g.k > 131071) {
      return MRTQ__ERR(MRTQ_EOVERFLOW, "k: k 2^30 must stay below 2^47, the domain of TFLite's 64-bit multiply "
                                       "(k <= 131071)");
    }
  }
  if (!g.ny) return MRTQ_OK;
  if (!g.k) { /* every sum is 0 */
    int32_t y = p->type == MRTQ_S16 ? mrtq__clamp64(mrtq__s16_x64_wrap(0, p->rq.m), p->rq.qmin, p->rq.qmax)
                                    : mrtq_rq_apply(&p->rq, 0, lo, hi);
    for (i = 0; i < g.ny; i++) mrtq__store(out, i, p->type, y);
    return MRTQ_OK;
  }
  /* op(a) as m x k and op(b) as k x n matrices, row-major */
  if (adj_x) {
    mrtq__bmm_transpose(a, g.na, g.k, g.m, esz, scratch);
    ad = (const uint8_t *)scratch;
  }
  if (adj_y) {
    mrtq__bmm_transpose(b, g.nb, g.n, g.k, esz, (uint8_t *)scratch + (adj_x ? g.na * esz : 0));
    bd = (const uint8_t *)scratch + (adj_x ? g.na * esz : 0);
  }
  /* element strides of the three batch dimensions (0: broadcast), as the
     reference kernel's extent() */
  for (i = 0; i < 3; i++) {
    size_t j, pa = 1, pb = 1;
    for (j = i + 1; j < 5; j++) pa *= g.ea[j], pb *= g.eb[j];
    sa[i] = g.ea[i] == 1 ? 0 : pa, sb[i] = g.eb[i] == 1 ? 0 : pb;
  }
  for (b0 = 0; b0 < g.bat[0]; b0++)
    for (b1 = 0; b1 < g.bat[1]; b1++)
      for (b2 = 0; b2 < g.bat[2]; b2++) {
        size_t ao = b0 * sa[0] + b1 * sa[1] + b2 * sa[2], bo = b0 * sb[0] + b1 * sb[1] + b2 * sb[2];
        size_t yo = ((b0 * g.bat[1] + b1) * g.bat[2] + b2) * g.m * g.n;
        if (p->type == MRTQ_S16) {
          mrtq__matmul_s16_one(g.m, g.k, g.n, &p->rq, ad + 2 * ao, bd + 2 * bo, (uint8_t *)out + 2 * yo);
        } else {
          mrtq_qoperand qa = {ad + ao, MRTQ_S8, p->zp_a, NULL}, qb = {bd + bo, MRTQ_S8, p->zp_b, NULL};
          mrtq__matmul_batch(0, g.m, g.k, g.n, &qa, &qb, 1, NULL, &p->rq, 1, MRTQ_S8, (int8_t *)out + yo);
        }
      }
  return MRTQ_OK;
}
#undef MRTQ__BMM_TYPE

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_BATCH_MATMUL_H */
