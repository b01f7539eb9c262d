/* The ONNX Runtime differential: every model tests/ort/make_models.py built,
 * run on real ONNX Runtime (onnxruntime-node, CPU execution provider, one
 * thread) by tests/ort/run_ort.js, recomputed here with mrtq and compared byte
 * for byte (floats bit for bit). One test case per model. tests/ort/run.sh
 * drives the three steps; without node, onnxruntime-node or python3-onnx the
 * test reports itself skipped.
 * Usage: test_ort ORT_OUTPUT_FILE */
#include "harness.h"

#include <math.h>

#include "mrtq.h"

/* ---------------- the file ---------------- */
#define MAXT 16
typedef struct tens {
  char name[32], type[8];
  int ndim;
  size_t dims[8], n;
  int64_t *v;
} tens;
typedef struct kase {
  int id;
  char op[40];
  int nattr, nin, nout;
  char attr_name[16][24];
  long long attr[16];
  tens in[MAXT], out[4];
} kase;

static int read_tensor(FILE *f, tens *t) {
  if (fscanf(f, "%31s %7s %d", t->name, t->type, &t->ndim) != 3 || t->ndim < 0 || t->ndim > 8) return 0;
  t->n = 1;
  for (int i = 0; i < t->ndim; i++) {
    if (fscanf(f, "%zu", &t->dims[i]) != 1) return 0;
    t->n *= t->dims[i];
  }
  char colon[4];
  if (fscanf(f, "%3s", colon) != 1 || strcmp(colon, ":")) return 0;
  t->v = malloc((t->n ? t->n : 1) * sizeof *t->v);
  if (!t->v) return 0;
  for (size_t i = 0; i < t->n; i++)
    if (fscanf(f, "%lld", (long long *)&t->v[i]) != 1) return 0;
  return 1;
}

/* One case; 0 at the end of the file, -1 on a malformed file. */
static int read_case(FILE *f, kase *c) {
  char word[16];
  memset(c, 0, sizeof *c);
  if (fscanf(f, "%15s", word) != 1) return 0;
  if (strcmp(word, "case") || fscanf(f, "%d %39s", &c->id, c->op) != 2) return -1;
  for (;;) {
    if (fscanf(f, "%15s", word) != 1) return -1;
    if (!strcmp(word, "end")) return 1;
    if (!strcmp(word, "attr")) {
      if (c->nattr == 16 || fscanf(f, "%23s %lld", c->attr_name[c->nattr], &c->attr[c->nattr]) != 2) return -1;
      c->nattr++;
    } else if (!strcmp(word, "in")) {
      if (c->nin == MAXT || !read_tensor(f, &c->in[c->nin++])) return -1;
    } else if (!strcmp(word, "out")) {
      if (c->nout == 4 || !read_tensor(f, &c->out[c->nout++])) return -1;
    } else {
      return -1;
    }
  }
}

static void free_case(kase *c) {
  for (int i = 0; i < c->nin; i++) free(c->in[i].v);
  for (int i = 0; i < c->nout; i++) free(c->out[i].v);
}

static kase *cur;
static long long outputs_compared[64];
static char op_names[64][40];
static int n_ops;

static const tens *in_(const char *name) {
  for (int i = 0; i < cur->nin; i++)
    if (!strcmp(cur->in[i].name, name)) return &cur->in[i];
  return NULL;
}
static long long attr(const char *name, long long dflt) {
  for (int i = 0; i < cur->nattr; i++)
    if (!strcmp(cur->attr_name[i], name)) return cur->attr[i];
  return dflt;
}
static float bits_f(int64_t b) {
  uint32_t u = (uint32_t)b;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static uint32_t f_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}
static float f0(const char *name) { return bits_f(in_(name)->v[0]); }
static int32_t i0(const char *name) { return (int32_t)in_(name)->v[0]; }
static mrtq_dtype dtype_of(const char *t) { return !strcmp(t, "u8") ? MRTQ_U8 : !strcmp(t, "s8") ? MRTQ_S8 : !strcmp(t, "s16") ? MRTQ_S16 : !strcmp(t, "s32") ? MRTQ_S32 : (mrtq_dtype)0; }

/* The tensor's values as float / int8 / uint8 / int32 arrays (malloc'd). */
static float *as_f32(const tens *t) {
  float *p = malloc((t->n ? t->n : 1) * sizeof *p);
  for (size_t i = 0; i < t->n; i++) p[i] = bits_f(t->v[i]);
  return p;
}
static void *as_bytes(const tens *t) {
  uint8_t *p = malloc(t->n ? t->n : 1);
  for (size_t i = 0; i < t->n; i++) p[i] = (uint8_t)t->v[i];
  return p;
}
static int32_t *as_i32(const tens *t) {
  int32_t *p = malloc((t->n ? t->n : 1) * sizeof *p);
  for (size_t i = 0; i < t->n; i++) p[i] = (int32_t)t->v[i];
  return p;
}

static void count(size_t n) {
  int k = 0;
  while (k < n_ops && strcmp(op_names[k], cur->op)) k++;
  if (k == n_ops && n_ops < 64) snprintf(op_names[n_ops++], sizeof op_names[0], "%s", cur->op);
  if (k == 64) return;
  outputs_compared[k] += (long long)n;
}

/* Compare mrtq's bytes (type u8 / s8) with ONNX Runtime's output k. */
static void expect_q(int k, const void *got, mrtq_dtype type) {
  const tens *o = &cur->out[k];
  for (size_t i = 0; i < o->n; i++) {
    int32_t g = type == MRTQ_S8 ? ((const int8_t *)got)[i] : ((const uint8_t *)got)[i];
    CHECK_EQ(g, o->v[i], "case %d %s output %s[%zu]", cur->id, cur->op, o->name, i);
  }
  count(o->n);
}
static void expect_f(int k, const float *got) {
  const tens *o = &cur->out[k];
  for (size_t i = 0; i < o->n; i++)
    CHECK_EQ(f_bits(got[i]), (uint32_t)o->v[i], "case %d %s output %s[%zu] bits", cur->id, cur->op, o->name, i);
  count(o->n);
}

/* ---------------- the operators ---------------- */

static void op_quantize(void) {
  const tens *x = in_("x");
  mrtq_dtype type = dtype_of(in_("zp")->type);
  float *xf = as_f32(x);
  void *got = malloc(x->n);
  CHECK_EQ(mrtq_ort_quantize_linear(xf, x->n, f0("s"), i0("zp"), type, got), MRTQ_OK, "case %d", cur->id);
  expect_q(0, got, type);
  free(xf);
  free(got);
}

static void op_dequantize(void) {
  const tens *x = in_("x");
  mrtq_dtype type = dtype_of(x->type);
  void *q = as_bytes(x);
  float *got = malloc(x->n * sizeof *got);
  CHECK_EQ(mrtq_ort_dequantize_linear(q, x->n, f0("s"), i0("zp"), type, got), MRTQ_OK, "case %d", cur->id);
  expect_f(0, got);
  free(q);
  free(got);
}

static void op_quantize_axis(void) {
  const tens *x = in_("x"), *s = in_("s"), *zp = in_("zp");
  mrtq_dtype type = dtype_of(zp->type);
  float *xf = as_f32(x), *sf = as_f32(s);
  int32_t *zpi = as_i32(zp);
  void *got = malloc(x->n);
  CHECK_EQ(mrtq_ort_quantize_linear_axis(xf, x->dims, x->ndim, (int)attr("axis", 1), sf, zpi, type, got), MRTQ_OK,
           "case %d", cur->id);
  expect_q(0, got, type);
  free(xf), free(sf), free(zpi), free(got);
}

static void op_dequantize_axis(void) {
  const tens *x = in_("x"), *s = in_("s"), *zp = in_("zp");
  mrtq_dtype type = dtype_of(x->type);
  float *sf = as_f32(s), *got = malloc(x->n * sizeof *got);
  int32_t *zpi = as_i32(zp);
  void *q = as_bytes(x);
  CHECK_EQ(mrtq_ort_dequantize_linear_axis(q, x->dims, x->ndim, (int)attr("axis", 1), sf, zpi, type, got), MRTQ_OK,
           "case %d", cur->id);
  expect_f(0, got);
  free(sf), free(zpi), free(got), free(q);
}

static void op_dynamic_quantize(void) {
  const tens *x = in_("x");
  float *xf = as_f32(x), scale = 0;
  int32_t zp = -1;
  uint8_t *got = malloc(x->n ? x->n : 1);
  CHECK_EQ(mrtq_ort_dynamic_quantize_linear(xf, x->n, got, &scale, &zp), MRTQ_OK, "case %d", cur->id);
  expect_q(0, got, MRTQ_U8);
  expect_f(1, &scale);
  uint8_t zb = (uint8_t)zp;
  expect_q(2, &zb, MRTQ_U8);
  free(xf), free(got);
}

/* QLinearMatMul: a (m x k) times b (k x n), the requantization scale per
 * output column from mrtq_ort_qlinear_scale. */
static void op_qlinear_matmul(void) {
  const tens *a = in_("a"), *b = in_("b"), *bs = in_("b_s");
  mrtq_dtype ta = dtype_of(a->type), tb = dtype_of(b->type), ty = dtype_of(in_("y_zp")->type);
  size_t m = a->dims[0], k = a->dims[1], n = b->dims[1], nrq = bs->n;
  float *ws = as_f32(bs), *sc = malloc(nrq * sizeof *sc);
  int32_t *bzp = as_i32(in_("b_zp"));
  mrtq_rq *rq = malloc(nrq * sizeof *rq);
  int32_t lo = 0, hi = 0;
  mrtq_dtype_range(ty, &lo, &hi);
  CHECK_EQ(mrtq_ort_qlinear_scale(f0("a_s"), ws, nrq, f0("y_s"), sc), MRTQ_OK, "case %d", cur->id);
  for (size_t j = 0; j < nrq; j++) CHECK_EQ(mrtq_rq_init(MRTQ_FP32, sc[j], i0("y_zp"), lo, hi, &rq[j]), MRTQ_OK, "scale");
  void *pa = as_bytes(a), *pb = as_bytes(b), *got = malloc(m * n);
  mrtq_qoperand qa = {pa, ta, i0("a_zp"), NULL}, qb = {pb, tb, in_("b_zp")->n > 1 ? 0 : bzp[0], NULL};
  if (in_("b_zp")->n > 1) qb.zp_ch = bzp;
  CHECK_EQ(mrtq_matmul_q8(1, m, k, n, rq, nrq, &qa, &qb, 1, NULL, ty, got), MRTQ_OK, "case %d", cur->id);
  expect_q(0, got, ty);
  free(ws), free(sc), free(bzp), free(rq), free(pa), free(pb), free(got);
}

static void op_qlinear_conv(void) {
  const tens *x = in_("x"), *w = in_("w"), *ws_t = in_("w_s"), *b = in_("b");
  mrtq_dtype tx = dtype_of(x->type), tw = dtype_of(w->type);
  mrtq_conv2d_shape s = {0};
  s.n = x->dims[0], s.c = x->dims[1], s.h = x->dims[2], s.w = x->dims[3];
  s.o = w->dims[0], s.kh = (size_t)attr("kh", 1), s.kw = (size_t)attr("kw", 1);
  s.stride_h = (size_t)attr("sh", 1), s.stride_w = (size_t)attr("sw", 1);
  s.dil_h = (size_t)attr("dh", 1), s.dil_w = (size_t)attr("dw", 1);
  s.pad_top = (size_t)attr("pt", 0), s.pad_left = (size_t)attr("pl", 0);
  s.pad_bottom = (size_t)attr("pb", 0), s.pad_right = (size_t)attr("pr", 0);
  s.groups = (size_t)attr("group", 1), s.layout = MRTQ_NCHW;
  size_t nrq = ws_t->n, ho, wo;
  CHECK_EQ(mrtq_conv2d_out(&s, &ho, &wo), MRTQ_OK, "case %d shape", cur->id);
  float *ws = as_f32(ws_t), *sc = malloc(nrq * sizeof *sc);
  mrtq_rq *rq = malloc(nrq * sizeof *rq);
  int32_t lo = 0, hi = 0, *bias = b ? as_i32(b) : NULL;
  mrtq_dtype_range(tx, &lo, &hi);
  CHECK_EQ(mrtq_ort_qlinear_scale(f0("x_s"), ws, nrq, f0("y_s"), sc), MRTQ_OK, "case %d", cur->id);
  for (size_t j = 0; j < nrq; j++) CHECK_EQ(mrtq_rq_init(MRTQ_FP32, sc[j], i0("y_zp"), lo, hi, &rq[j]), MRTQ_OK, "scale");
  size_t nout = s.n * s.o * ho * wo;
  void *px = as_bytes(x), *pw = as_bytes(w), *got = malloc(nout);
  int32_t *wzp = as_i32(in_("w_zp"));
  mrtq_qoperand qx = {px, tx, i0("x_zp"), NULL}, qw = {pw, tw, in_("w_zp")->n > 1 ? 0 : wzp[0], NULL};
  if (in_("w_zp")->n > 1) qw.zp_ch = wzp; /* per output channel */
  CHECK_EQ(mrtq_conv2d_q8(&s, rq, nrq, &qx, &qw, bias, tx, got), MRTQ_OK, "case %d", cur->id);
  CHECK_EQ(cur->out[0].n, nout, "case %d output size", cur->id);
  if (cur->out[0].n == nout) expect_q(0, got, tx);
  free(ws), free(sc), free(rq), free(bias), free(px), free(pw), free(got), free(wzp);
}

/* The constructed order cases: ORT's bytes equal mrtq's (the order
 * mrtq_ort_qlinear_scale uses), and row r's byte differs under the r-th other
 * order of the same three floats -- so each other order is refuted by ORT. */
static void op_qlinear_matmul_order(void) {
  op_qlinear_matmul();
  volatile float xs = f0("a_s"), ws = f0("b_s"), ys = f0("y_s");
  float alt[3];
  alt[0] = xs * (float)(ws / ys);
  alt[1] = (float)(xs / ys) * ws;
  alt[2] = (float)((double)xs * (double)ws / (double)ys);
  const tens *a = in_("a");
  int32_t za = i0("a_zp"), zy = i0("y_zp");
  CHECK_EQ(a->dims[0], 3, "case %d: one row per other order", cur->id);
  for (size_t r = 0; r < 3 && r < a->dims[0]; r++) {
    int32_t acc = (int32_t)(a->v[2 * r] - za) * 127 + (int32_t)(a->v[2 * r + 1] - za);
    int32_t other = mrtq_requant_fp32(acc, alt[r], zy, 0, 255);
    CHECK(other != cur->out[0].v[r]);
  }
}

static void op_qlinear_binary(int mul) {
  const tens *a = in_("a"), *b = in_("b");
  mrtq_dtype t = dtype_of(a->type);
  mrtq_ort_qlinear_params p;
  CHECK_EQ(mrtq_ort_qlinear_init(f0("a_s"), i0("a_zp"), f0("b_s"), i0("b_zp"), f0("c_s"), i0("c_zp"), t, &p), MRTQ_OK,
           "case %d", cur->id);
  void *pa = as_bytes(a), *pb = as_bytes(b), *got = malloc(cur->out[0].n);
  mrtq_status st = (mul ? mrtq_ort_qlinear_mul : mrtq_ort_qlinear_add)(a->dims, a->ndim, b->dims, b->ndim, &p, pa,
                                                                        pb, got);
  CHECK_EQ(st, MRTQ_OK, "case %d", cur->id);
  if (st == MRTQ_OK) expect_q(0, got, t);
  free(pa), free(pb), free(got);
}
static void op_qlinear_add(void) { op_qlinear_binary(0); }
static void op_qlinear_mul(void) { op_qlinear_binary(1); }

/* The constructed bias cases: element 0's byte differs under an unfused
 * bias fl(zc - fl(fl(rA za) + fl(rB zb))), element 1's under the other
 * product fused, fl(zc - fma(rB, zb, fl(rA za))) (libm's fmaf here), so ORT's
 * bytes refute both. */
static void op_qlinear_add_bias(void) {
  op_qlinear_add();
  volatile float sa = f0("a_s"), sb = f0("b_s"), sc = f0("c_s");
  volatile float ra = sa / sc, rb = sb / sc, pa = ra * (float)i0("a_zp"), pb = rb * (float)i0("b_zp");
  volatile float sum = pa + pb;
  float zc = (float)i0("c_zp"), f[2];
  f[0] = zc - sum;
  f[1] = zc - fmaf(rb, (float)i0("b_zp"), pa);
  const tens *a = in_("a"), *b = in_("b");
  int32_t lo = 0, hi = 0;
  mrtq_dtype_range(dtype_of(a->type), &lo, &hi);
  CHECK_EQ(a->n, 2, "case %d: one pair per other bias", cur->id);
  for (size_t r = 0; r < 2 && r < a->n; r++) {
    float v = fmaf((float)a->v[r], ra, fmaf((float)b->v[r], rb, f[r]));
    long q = lrintf(v);
    q = q < lo ? lo : q > hi ? hi : q;
    CHECK(q != cur->out[0].v[r]);
  }
}

static void op_lut(int sigmoid) {
  const tens *x = in_("x");
  mrtq_dtype t = dtype_of(x->type);
  mrtq_ort_lut_params p;
  memset(&p, 0, sizeof p);
  mrtq_status st = sigmoid ? mrtq_ort_qlinear_sigmoid_init(f0("x_s"), i0("x_zp"), f0("y_s"), i0("y_zp"), t, &p)
                           : mrtq_ort_qlinear_leaky_relu_init(f0("x_s"), i0("x_zp"), f0("y_s"), i0("y_zp"),
                                                              bits_f(attr("alpha", 0)), t, &p);
  CHECK_EQ(st, MRTQ_OK, "case %d", cur->id);
  void *px = as_bytes(x), *got = malloc(x->n);
  CHECK_EQ(mrtq_ort_lut(&p, px, x->n, got), MRTQ_OK, "case %d", cur->id);
  expect_q(0, got, t);
  free(px), free(got);
}
static void op_qlinear_sigmoid(void) { op_lut(1); }
static void op_qlinear_leaky_relu(void) { op_lut(0); }

static mrtq_pool2d pool_of(const tens *x, int cl, mrtq_dtype t) {
  mrtq_pool2d p;
  memset(&p, 0, sizeof p);
  p.n = x->dims[0], p.c = x->dims[cl ? 3 : 1], p.h = x->dims[cl ? 1 : 2], p.w = x->dims[cl ? 2 : 3];
  p.kh = (size_t)attr("kh", (long long)p.h), p.kw = (size_t)attr("kw", (long long)p.w);
  p.stride_h = (size_t)attr("sh", 1), p.stride_w = (size_t)attr("sw", 1);
  p.pad_top = (size_t)attr("pt", 0), p.pad_left = (size_t)attr("pl", 0);
  p.pad_bottom = (size_t)attr("pb", 0), p.pad_right = (size_t)attr("pr", 0);
  p.layout = cl ? MRTQ_NHWC : MRTQ_NCHW, p.type = t;
  return p;
}

static void op_qlinear_avgpool(void) {
  const tens *x = in_("x");
  mrtq_dtype t = dtype_of(x->type);
  mrtq_pool2d p = pool_of(x, (int)attr("cl", 0), t);
  void *px = as_bytes(x), *got = malloc(cur->out[0].n);
  CHECK_EQ(mrtq_ort_qlinear_avgpool(&p, (int)attr("cip", 0), f0("x_s"), i0("x_zp"), f0("y_s"), i0("y_zp"), px, got),
           MRTQ_OK, "case %d", cur->id);
  expect_q(0, got, t);
  free(px), free(got);
}

static void op_qlinear_global_avgpool(void) {
  const tens *x = in_("x");
  mrtq_dtype t = dtype_of(x->type);
  mrtq_pool2d p = pool_of(x, (int)attr("cl", 0), t);
  float s = 0;
  mrtq_rq rq;
  int32_t lo = 0, hi = 0;
  mrtq_dtype_range(t, &lo, &hi);
  CHECK_EQ(mrtq_ort_avgpool_scale(f0("x_s"), f0("y_s"), p.h * p.w, &s), MRTQ_OK, "case %d", cur->id);
  CHECK_EQ(mrtq_rq_init(MRTQ_FP32, s, i0("y_zp"), lo, hi, &rq), MRTQ_OK, "case %d", cur->id);
  void *px = as_bytes(x), *got = malloc(cur->out[0].n);
  CHECK_EQ(mrtq_avgpool2d_rq(&p, &rq, px, i0("x_zp"), got), MRTQ_OK, "case %d", cur->id);
  expect_q(0, got, t);
  free(px), free(got);
}

static void op_qlinear_softmax(void) {
  const tens *x = in_("x");
  mrtq_dtype t = dtype_of(x->type);
  int axis = (int)attr("axis", -1);
  axis = axis < 0 ? axis + x->ndim : axis;
  size_t outer = 1, inner = 1;
  for (int d = 0; d < axis; d++) outer *= x->dims[d];
  for (int d = axis + 1; d < x->ndim; d++) inner *= x->dims[d];
  mrtq_ort_softmax_params p;
  memset(&p, 0, sizeof p);
  CHECK_EQ(mrtq_ort_qlinear_softmax_init(f0("x_s"), f0("y_s"), i0("y_zp"), x->dims[axis], t, exp, log, &p), MRTQ_OK,
           "case %d", cur->id);
  void *px = as_bytes(x), *got = malloc(x->n);
  CHECK_EQ(mrtq_ort_qlinear_softmax(&p, px, outer, inner, got), MRTQ_OK, "case %d", cur->id);
  expect_q(0, got, t);
  free(px), free(got);
}

static void expect_i32(int k, const int32_t *got) {
  const tens *o = &cur->out[k];
  for (size_t i = 0; i < o->n; i++) CHECK_EQ(got[i], o->v[i], "case %d %s output %s[%zu]", cur->id, cur->op, o->name, i);
  count(o->n);
}

static void op_matmul_integer(void) {
  const tens *a = in_("a"), *b = in_("b");
  size_t m = a->dims[0], k = a->dims[1], n = b->dims[1];
  void *pa = as_bytes(a), *pb = as_bytes(b);
  int32_t *got = malloc(m * n * sizeof *got);
  mrtq_qoperand qa = {pa, dtype_of(a->type), i0("a_zp"), NULL}, qb = {pb, dtype_of(b->type), i0("b_zp"), NULL};
  CHECK_EQ(mrtq_matmul_s32(1, m, k, n, &qa, &qb, 1, NULL, got), MRTQ_OK, "case %d", cur->id);
  expect_i32(0, got);
  free(pa), free(pb), free(got);
}

static void op_conv_integer(void) {
  const tens *x = in_("x"), *w = in_("w");
  mrtq_conv2d_shape s;
  memset(&s, 0, sizeof s);
  s.n = x->dims[0], s.c = x->dims[1], s.h = x->dims[2], s.w = x->dims[3], s.o = w->dims[0];
  s.kh = (size_t)attr("kh", 1), s.kw = (size_t)attr("kw", 1), s.stride_h = s.stride_w = s.dil_h = s.dil_w = 1;
  s.pad_top = (size_t)attr("pt", 0), s.pad_left = (size_t)attr("pl", 0);
  s.pad_bottom = (size_t)attr("pb", 0), s.pad_right = (size_t)attr("pr", 0), s.groups = 1, s.layout = MRTQ_NCHW;
  void *px = as_bytes(x), *pw = as_bytes(w);
  int32_t *got = malloc(cur->out[0].n * sizeof *got);
  mrtq_qoperand qx = {px, dtype_of(x->type), i0("x_zp"), NULL}, qw = {pw, dtype_of(w->type), i0("w_zp"), NULL};
  CHECK_EQ(mrtq_conv2d_s32(&s, &qx, &qw, NULL, got), MRTQ_OK, "case %d", cur->id);
  expect_i32(0, got);
  free(px), free(pw), free(got);
}

/* QLinearConcat: each input through mrtq_ort_qlinear_concat's per-input
 * table (dequantize, then ORT's QuantizeLinear), copied along the axis. */
static void op_qlinear_concat(void) {
  const tens *xs[3];
  size_t n = 0;
  char nm[8];
  for (; n < 3; n++) {
    snprintf(nm, sizeof nm, "x%zu", n);
    if (!(xs[n] = in_(nm))) break;
  }
  mrtq_dtype t = dtype_of(xs[0]->type);
  int axis = (int)attr("axis", 1), nd = xs[0]->ndim;
  axis = axis < 0 ? axis + nd : axis;
  const size_t *shapes[3];
  const void *data[3];
  float sc[3];
  int32_t zp[3];
  for (size_t j = 0; j < n; j++) {
    shapes[j] = xs[j]->dims, data[j] = as_bytes(xs[j]);
    snprintf(nm, sizeof nm, "s%zu", j), sc[j] = f0(nm);
    snprintf(nm, sizeof nm, "z%zu", j), zp[j] = i0(nm);
  }
  void *got = calloc(1, cur->out[0].n);
  CHECK_EQ(mrtq_ort_qlinear_concat(shapes, n, nd, axis, data, sc, zp, f0("y_s"), i0("y_zp"), t, got), MRTQ_OK,
           "case %d", cur->id);
  expect_q(0, got, t);
  for (size_t j = 0; j < n; j++) free((void *)data[j]);
  free(got);
}

/* QGemm: A (m x k) times B (k x n, or n x k with transB) plus the int32 C,
 * requantized per column with mrtq_ort_qgemm_scale. */
static void op_qgemm(void) {
  const tens *a = in_("a"), *b = in_("b"), *bs = in_("b_s");
  int tb_ = (int)attr("trans_b", 0);
  mrtq_dtype ta = dtype_of(a->type), tb = dtype_of(b->type);
  size_t m = a->dims[0], k = a->dims[1], n = tb_ ? b->dims[0] : b->dims[1], nrq = bs->n;
  float *ws = as_f32(bs), *sc = malloc(nrq * sizeof *sc);
  int32_t *bzp = as_i32(in_("b_zp")), *bias = as_i32(in_("c")), lo = 0, hi = 0;
  mrtq_rq *rq = malloc(nrq * sizeof *rq);
  mrtq_dtype_range(ta, &lo, &hi);
  CHECK_EQ(mrtq_ort_qgemm_scale(bits_f(attr("alpha", 0)), f0("a_s"), ws, nrq, f0("y_s"), sc), MRTQ_OK, "case %d", cur->id);
  for (size_t j = 0; j < nrq; j++) CHECK_EQ(mrtq_rq_init(MRTQ_FP32, sc[j], i0("y_zp"), lo, hi, &rq[j]), MRTQ_OK, "scale");
  uint8_t *pa = as_bytes(a), *pb = as_bytes(b), *bt = malloc(k * n);
  for (size_t t = 0; t < k; t++)
    for (size_t j = 0; j < n; j++) bt[t * n + j] = tb_ ? pb[j * k + t] : pb[t * n + j];
  void *got = malloc(m * n);
  mrtq_qoperand qa = {pa, ta, i0("a_zp"), NULL}, qb = {bt, tb, in_("b_zp")->n > 1 ? 0 : bzp[0], NULL};
  if (in_("b_zp")->n > 1) qb.zp_ch = bzp;
  CHECK_EQ(mrtq_matmul_q8(1, m, k, n, rq, nrq, &qa, &qb, 1, bias, ta, got), MRTQ_OK, "case %d", cur->id);
  expect_q(0, got, ta);
  free(ws), free(sc), free(bzp), free(bias), free(rq), free(pa), free(pb), free(bt), free(got);
}

static const struct {
  const char *op;
  void (*fn)(void);
} ops[] = {
    {"quantize", op_quantize},
    {"dequantize", op_dequantize},
    {"quantize_axis", op_quantize_axis},
    {"dequantize_axis", op_dequantize_axis},
    {"dynamic_quantize", op_dynamic_quantize},
    {"qlinear_matmul", op_qlinear_matmul},
    {"qlinear_conv", op_qlinear_conv},
    {"qlinear_matmul_order", op_qlinear_matmul_order},
    {"qlinear_add", op_qlinear_add},
    {"qlinear_mul", op_qlinear_mul},
    {"qlinear_add_bias", op_qlinear_add_bias},
    {"qlinear_sigmoid", op_qlinear_sigmoid},
    {"qlinear_leaky_relu", op_qlinear_leaky_relu},
    {"qlinear_avgpool", op_qlinear_avgpool},
    {"qlinear_global_avgpool", op_qlinear_global_avgpool},
    {"qlinear_softmax", op_qlinear_softmax},
    {"matmul_integer", op_matmul_integer},
    {"conv_integer", op_conv_integer},
    {"qlinear_concat", op_qlinear_concat},
    {"qgemm", op_qgemm},
};

int main(int argc, char **argv) {
  if (argc < 2) return th_skip("test_ort", "no ONNX Runtime output file (tests/ort/run.sh makes it)");
  FILE *f = fopen(argv[1], "r");
  if (!f) return th_skip("test_ort", "the ONNX Runtime output file cannot be opened");
  char header[256];
  if (!fgets(header, sizeof header, f)) header[0] = 0;
  printf("%s", header);
  static kase c;
  int r, n = 0;
  while ((r = read_case(f, &c)) == 1) {
    size_t k = 0;
    while (k < sizeof ops / sizeof ops[0] && strcmp(ops[k].op, c.op)) k++;
    char name[80];
    snprintf(name, sizeof name, "ort_%s_%d", c.op, c.id);
    cur = &c;
    if (k == sizeof ops / sizeof ops[0]) {
      fprintf(stderr, "case %d: no comparison for %s\n", c.id, c.op);
      th_failed++;
    } else {
      th_run(name, ops[k].fn);
    }
    free_case(&c);
    n++;
  }
  fclose(f);
  if (r < 0 || n == 0) {
    printf("FAIL the ONNX Runtime output file is malformed after %d cases\n", n);
    th_failed++;
  }
  for (int k = 0; k < n_ops; k++) printf("  %-22s %lld outputs compared\n", op_names[k], outputs_compared[k]);
  return th_finish("test_ort");
}
