/* Differential against oneDNN (Debian libdnnl-dev 2.6, a test-only peer),
 * byte for byte with mrtq/attr.h: int8 convolution and inner product with
 * output scales (common or per output channel; the inner product's also given
 * at run time), src and dst zero points, s32 bias and post-op chains (sum,
 * relu, linear, clip, binary add / mul with src1 common, per channel or per
 * element); the NEW scheme expressed in oneDNN 2.6's terms; the binary
 * primitive with src scales. Byte-exactness needs a CPU with VNNI (without it
 * oneDNN pre-scales weights by 1/2); elsewhere, or without oneDNN at build
 * time, the test reports itself skipped. */
#define _DEFAULT_SOURCE 1 /* mmap, fork */
#include "harness.h"
#include "mrtq.h"

#ifndef MRTQ_HAVE_DNNL
int main(void) { return th_skip("test_onednn", "oneDNN (libdnnl-dev) not found at build time"); }
#else
#include <math.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <oneapi/dnnl/dnnl.h>

static dnnl_engine_t eng;
static dnnl_stream_t strm;
static long long compared;
static int crashed; /* configurations where oneDNN's generated code crashed (run in a child process) */

#define DN(call)                                                              \
  do {                                                                        \
    dnnl_status_t s_ = (call);                                                \
    if (s_ != dnnl_success) {                                                 \
      fprintf(stderr, "  %s:%d: %s -> %d\n", __FILE__, __LINE__, #call, (int)s_); \
      return -1;                                                              \
    }                                                                         \
  } while (0)

static int mem(dnnl_memory_t *m, const dnnl_memory_desc_t *md, void *p) { return dnnl_memory_create(m, md, eng, p) == dnnl_success ? 0 : -1; }

/* What oneDNN is asked for: the OLD scheme's attributes, where binary
 * post-ops may also divide (OD_DIV) -- that is how the NEW scheme is put to
 * oneDNN 2.6, which predates it (od_from). Scales and zero points are given at
 * creation, or as DNNL_RUNTIME_*_VAL with the values passed at execution
 * (runtime). */
enum { OD_DIV = 6 };
typedef struct od_attr {
  const float *oscale;
  int mask, runtime, n_po;
  int32_t src_zp, dst_zp;
  const int32_t *zp_ch[2]; /* src, dst zero points per channel (mask 1 << 1, run time), zp_n[k] of them */
  size_t zp_n[2];
  mrtq_onednn_po po[8]; /* binary ones with scale 1 */
} od_attr;

/* od_run only creates the primitive descriptor and notes whether oneDNN
 * picked its reference implementation (od_last_ref) when od_query_only. */
static int od_query_only, od_last_ref;

/* The oneDNN 2.6 equivalent of an mrtq attribute: OLD as it is; NEW as
 * output scales fl(src_scale * wei_scale[oc]), a per-channel binary add of
 * the f32 bias, the post-ops, a binary division by the dst scale. */
static void od_from(const mrtq_onednn_attr *a, size_t o, float *osc, od_attr *d) {
  int i;
  memset(d, 0, sizeof *d);
  d->src_zp = a->src_zp, d->dst_zp = a->dst_zp;
  d->zp_ch[0] = a->src_zp_ch, d->zp_ch[1] = a->dst_zp_ch, d->zp_n[1] = o; /* zp_n[0]: the caller */
  if (a->scheme == MRTQ_ONEDNN_OLD) {
    d->oscale = a->oscale, d->mask = a->oscale_mask;
  } else {
    size_t k;
    for (k = 0; k < o; k++) osc[k] = (a->src_scale ? a->src_scale[0] : 1.0f) * (a->wei_scale ? a->wei_scale[a->wei_per_oc ? k : 0] : 1.0f);
    d->oscale = osc, d->mask = a->wei_per_oc ? 2 : 0;
    if (a->fbias) d->po[d->n_po].kind = MRTQ_ONEDNN_BIN_ADD, d->po[d->n_po].src1 = a->fbias, d->po[d->n_po++].src1_bcast = MRTQ_ONEDNN_PER_OC;
  }
  for (i = 0; i < a->n_po; i++) d->po[d->n_po++] = a->po[i];
  if (a->scheme == MRTQ_ONEDNN_NEW && a->dst_scale)
    d->po[d->n_po].kind = OD_DIV, d->po[d->n_po].src1 = a->dst_scale, d->po[d->n_po++].src1_bcast = MRTQ_ONEDNN_COMMON;
}

/* Primitive attributes and the execution arguments they need (run-time
 * scales and zero points, binary post-ops' src1) for a dst of logical dims
 * dd[nd] stored with tag dtag. */
typedef struct od_exec {
  dnnl_exec_arg_t args[16];
  int n;
  dnnl_memory_t owned[16];
  int n_owned;
} od_exec;

static int od_arg(od_exec *e, int arg, const dnnl_memory_desc_t *md, const void *p) {
  dnnl_memory_t m;
  if (dnnl_memory_create(&m, md, eng, (void *)(uintptr_t)p) != dnnl_success) return -1;
  e->owned[e->n_owned++] = m, e->args[e->n].arg = arg, e->args[e->n++].memory = m;
  return 0;
}

static int od_attr_make(const od_attr *a, int nd, const dnnl_dims_t dd, dnnl_format_tag_t dtag, size_t oscale_count,
                        dnnl_primitive_attr_t *out, od_exec *e) {
  dnnl_primitive_attr_t attr;
  dnnl_post_ops_t po;
  int i;
  float rt_f = DNNL_RUNTIME_F32_VAL;
  int32_t rt_i = DNNL_RUNTIME_S32_VAL;
  DN(dnnl_primitive_attr_create(&attr));
  if (a->oscale) {
    DN(dnnl_primitive_attr_set_output_scales(attr, a->runtime ? 1 : (dnnl_dim_t)oscale_count, a->mask, a->runtime ? &rt_f : a->oscale));
    if (a->runtime) {
      dnnl_memory_desc_t md;
      dnnl_dims_t c = {(dnnl_dim_t)oscale_count};
      DN(dnnl_memory_desc_init_by_tag(&md, 1, c, dnnl_f32, dnnl_x));
      if (od_arg(e, DNNL_ARG_ATTR_OUTPUT_SCALES, &md, a->oscale)) return -1;
    }
  }
  {
    int k, args[2] = {DNNL_ARG_SRC, DNNL_ARG_DST};
    const int32_t *zp[2] = {&a->src_zp, &a->dst_zp};
    for (k = 0; k < 2; k++) {
      dnnl_memory_desc_t md;
      dnnl_dims_t one = {1};
      if (a->zp_ch[k]) { /* per channel: only at run time in oneDNN 2.6 */
        dnnl_dims_t cnt = {(dnnl_dim_t)a->zp_n[k]};
        DN(dnnl_primitive_attr_set_zero_points(attr, args[k], 1, 1 << 1, &rt_i));
        DN(dnnl_memory_desc_init_by_tag(&md, 1, cnt, dnnl_s32, dnnl_x));
        if (od_arg(e, DNNL_ARG_ATTR_ZERO_POINTS | args[k], &md, a->zp_ch[k])) return -1;
        continue;
      }
      if (!*zp[k]) continue;
      DN(dnnl_primitive_attr_set_zero_points(attr, args[k], 1, 0, a->runtime ? &rt_i : zp[k]));
      if (!a->runtime) continue;
      DN(dnnl_memory_desc_init_by_tag(&md, 1, one, dnnl_s32, dnnl_x));
      if (od_arg(e, DNNL_ARG_ATTR_ZERO_POINTS | args[k], &md, zp[k])) return -1;
    }
  }
  DN(dnnl_post_ops_create(&po));
  for (i = 0; i < a->n_po; i++) {
    const mrtq_onednn_po *p = &a->po[i];
    if (p->kind == MRTQ_ONEDNN_SUM && p->zp) DN(dnnl_post_ops_append_sum_v3(po, p->scale, p->zp, dnnl_data_type_undef));
    else if (p->kind == MRTQ_ONEDNN_SUM) DN(dnnl_post_ops_append_sum(po, p->scale));
    else if (p->kind == MRTQ_ONEDNN_RELU) DN(dnnl_post_ops_append_eltwise(po, p->scale, dnnl_eltwise_relu, p->alpha, 0.0f));
    else if (p->kind == MRTQ_ONEDNN_LINEAR) DN(dnnl_post_ops_append_eltwise(po, p->scale, dnnl_eltwise_linear, p->alpha, p->beta));
    else if (p->kind == MRTQ_ONEDNN_CLIP) DN(dnnl_post_ops_append_eltwise(po, p->scale, dnnl_eltwise_clip, p->alpha, p->beta));
    else {
      dnnl_memory_desc_t md;
      dnnl_dims_t sd;
      int k;
      for (k = 0; k < nd; k++) sd[k] = p->src1_bcast == MRTQ_ONEDNN_PER_ELEM ? dd[k] : p->src1_bcast && k == 1 ? dd[1] : 1;
      DN(dnnl_memory_desc_init_by_tag(&md, nd, sd, dnnl_f32, p->src1_bcast == MRTQ_ONEDNN_PER_ELEM ? dtag : nd == 4 ? dnnl_nchw : dnnl_nc));
      DN(dnnl_post_ops_append_binary(po, p->kind == MRTQ_ONEDNN_BIN_ADD ? dnnl_binary_add : p->kind == MRTQ_ONEDNN_BIN_MUL ? dnnl_binary_mul : dnnl_binary_div, &md));
      if (od_arg(e, DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_1, &md, p->src1)) return -1;
    }
  }
  DN(dnnl_primitive_attr_set_post_ops(attr, po));
  dnnl_post_ops_destroy(po);
  *out = attr;
  return 0;
}

/* Runs a primitive descriptor made from (op desc, attr): the weights reordered
 * from wei_user_md into the format it chose, then executed with src, weights,
 * bias, dst and the attribute arguments. */
static int od_run(const void *op_desc, dnnl_primitive_attr_t attr, od_exec *e, const dnnl_memory_desc_t *src_md, const void *x,
                  const dnnl_memory_desc_t *wei_user_md, const void *w, const dnnl_memory_desc_t *bias_md, const int32_t *bias,
                  const dnnl_memory_desc_t *dst_md, void *dst) {
  dnnl_primitive_desc_t pd;
  dnnl_primitive_t prim;
  dnnl_memory_t m_wei_user, m_wei;
  const dnnl_memory_desc_t *chosen;
  int i;
  DN(dnnl_primitive_desc_create(&pd, op_desc, attr, eng, NULL));
  if (od_query_only) {
    const char *impl = "?";
    DN(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, (void *)&impl));
    od_last_ref = strncmp(impl, "ref", 3) == 0;
    dnnl_primitive_desc_destroy(pd), dnnl_primitive_attr_destroy(attr);
    for (i = 0; i < e->n_owned; i++) dnnl_memory_destroy(e->owned[i]);
    return 0;
  }
  chosen = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
  if (mem(&m_wei_user, wei_user_md, (void *)(uintptr_t)w) || mem(&m_wei, chosen, DNNL_MEMORY_ALLOCATE)) return -1;
  { /* weights to the primitive's format */
    dnnl_primitive_desc_t rpd;
    dnnl_primitive_t r;
    dnnl_exec_arg_t ra[2] = {{DNNL_ARG_FROM, m_wei_user}, {DNNL_ARG_TO, m_wei}};
    DN(dnnl_reorder_primitive_desc_create(&rpd, wei_user_md, eng, chosen, eng, NULL));
    DN(dnnl_primitive_create(&r, rpd));
    DN(dnnl_primitive_execute(r, strm, 2, ra));
    DN(dnnl_stream_wait(strm));
    dnnl_primitive_destroy(r), dnnl_primitive_desc_destroy(rpd);
  }
  e->args[e->n].arg = DNNL_ARG_WEIGHTS, e->args[e->n++].memory = m_wei;
  if (od_arg(e, DNNL_ARG_SRC, src_md, x) || od_arg(e, DNNL_ARG_DST, dst_md, dst) || (bias && od_arg(e, DNNL_ARG_BIAS, bias_md, bias)))
    return -1;
  DN(dnnl_primitive_create(&prim, pd));
  DN(dnnl_primitive_execute(prim, strm, e->n, e->args));
  DN(dnnl_stream_wait(strm));
  dnnl_primitive_destroy(prim), dnnl_primitive_desc_destroy(pd), dnnl_primitive_attr_destroy(attr);
  dnnl_memory_destroy(m_wei_user), dnnl_memory_destroy(m_wei);
  for (i = 0; i < e->n_owned; i++) dnnl_memory_destroy(e->owned[i]);
  return 0;
}

/* oneDNN's convolution: NHWC src/dst, weights as mrtq's OHWI ([g][o][kh][kw][i]),
 * s32 bias. dst is read (sum) and written. */
static int onednn_conv(const mrtq_conv2d_shape *s, size_t ho, size_t wo, int src_u, const void *x, const int8_t *w,
                       const int32_t *bias, const od_attr *a, int dst_u, void *dst) {
  dnnl_memory_desc_t src_md, wei_md, wei_user_md, bias_md, dst_md;
  dnnl_convolution_desc_t cd;
  dnnl_primitive_attr_t attr;
  od_exec e;
  dnnl_dims_t sd = {(dnnl_dim_t)s->n, (dnnl_dim_t)s->c, (dnnl_dim_t)s->h, (dnnl_dim_t)s->w};
  dnnl_dims_t dd = {(dnnl_dim_t)s->n, (dnnl_dim_t)s->o, (dnnl_dim_t)ho, (dnnl_dim_t)wo};
  dnnl_dims_t bd = {(dnnl_dim_t)s->o};
  dnnl_dims_t strides = {(dnnl_dim_t)s->stride_h, (dnnl_dim_t)s->stride_w};
  dnnl_dims_t dil = {(dnnl_dim_t)s->dil_h - 1, (dnnl_dim_t)s->dil_w - 1};
  dnnl_dims_t pl = {(dnnl_dim_t)s->pad_top, (dnnl_dim_t)s->pad_left}, pr = {(dnnl_dim_t)s->pad_bottom, (dnnl_dim_t)s->pad_right};
  int g = s->groups > 1;
  dnnl_dims_t wd;
  memset(&e, 0, sizeof e);
  if (g) {
    wd[0] = (dnnl_dim_t)s->groups, wd[1] = (dnnl_dim_t)(s->o / s->groups), wd[2] = (dnnl_dim_t)(s->c / s->groups);
    wd[3] = (dnnl_dim_t)s->kh, wd[4] = (dnnl_dim_t)s->kw;
  } else {
    wd[0] = (dnnl_dim_t)s->o, wd[1] = (dnnl_dim_t)s->c, wd[2] = (dnnl_dim_t)s->kh, wd[3] = (dnnl_dim_t)s->kw;
  }
  DN(dnnl_memory_desc_init_by_tag(&src_md, 4, sd, src_u ? dnnl_u8 : dnnl_s8, dnnl_nhwc));
  DN(dnnl_memory_desc_init_by_tag(&dst_md, 4, dd, dst_u ? dnnl_u8 : dnnl_s8, dnnl_nhwc));
  DN(dnnl_memory_desc_init_by_tag(&bias_md, 1, bd, dnnl_s32, dnnl_x));
  DN(dnnl_memory_desc_init_by_tag(&wei_user_md, g ? 5 : 4, wd, dnnl_s8, g ? dnnl_gohwi : dnnl_ohwi));
  DN(dnnl_memory_desc_init_by_tag(&wei_md, g ? 5 : 4, wd, dnnl_s8, dnnl_format_tag_any));
  DN(dnnl_dilated_convolution_forward_desc_init(&cd, dnnl_forward_inference, dnnl_convolution_direct, &src_md, &wei_md,
                                                bias ? &bias_md : NULL, &dst_md, strides, dil, pl, pr));
  if (od_attr_make(a, 4, dd, dnnl_nhwc, a->mask ? s->o : 1, &attr, &e)) return -1;
  return od_run(&cd, attr, &e, &src_md, x, &wei_user_md, w, &bias_md, bias, &dst_md, dst);
}

/* oneDNN's inner product: src rows x k (nc), weights o x k (oi), dst rows x o. */
static int onednn_ip(size_t rows, size_t k, size_t o, int src_u, const void *x, const int8_t *w, const int32_t *bias,
                     const od_attr *a, int dst_u, void *dst) {
  dnnl_memory_desc_t src_md, wei_md, wei_user_md, bias_md, dst_md;
  dnnl_inner_product_desc_t ipd;
  dnnl_primitive_attr_t attr;
  od_exec e;
  dnnl_dims_t sd = {(dnnl_dim_t)rows, (dnnl_dim_t)k}, wd = {(dnnl_dim_t)o, (dnnl_dim_t)k}, dd = {(dnnl_dim_t)rows, (dnnl_dim_t)o};
  dnnl_dims_t bd = {(dnnl_dim_t)o};
  memset(&e, 0, sizeof e);
  DN(dnnl_memory_desc_init_by_tag(&src_md, 2, sd, src_u ? dnnl_u8 : dnnl_s8, dnnl_nc));
  DN(dnnl_memory_desc_init_by_tag(&dst_md, 2, dd, dst_u ? dnnl_u8 : dnnl_s8, dnnl_nc));
  DN(dnnl_memory_desc_init_by_tag(&bias_md, 1, bd, dnnl_s32, dnnl_x));
  DN(dnnl_memory_desc_init_by_tag(&wei_user_md, 2, wd, dnnl_s8, dnnl_oi));
  DN(dnnl_memory_desc_init_by_tag(&wei_md, 2, wd, dnnl_s8, dnnl_format_tag_any));
  DN(dnnl_inner_product_forward_desc_init(&ipd, dnnl_forward_inference, &src_md, &wei_md, bias ? &bias_md : NULL, &dst_md));
  if (od_attr_make(a, 2, dd, dnnl_nc, a->mask == 2 ? o : a->mask == 3 ? rows * o : a->mask == 1 ? rows : 1, &attr, &e)) return -1;
  return od_run(&ipd, attr, &e, &src_md, x, &wei_user_md, w, &bias_md, bias, &dst_md, dst);
}

/* Runs fn in a child process writing n bytes of dst (some post-op chains
 * crash oneDNN's generated code, docs/kernels.md §8): 0 done, 1 crashed (and
 * counted), -1 refused. */
static int in_child(int (*fn)(void *), void *ctx, void *dst, size_t n) {
  uint8_t *shared = (uint8_t *)mmap(NULL, n + 64, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  pid_t pid;
  int status = 0;
  if (shared == MAP_FAILED) return -1;
  memcpy(shared, dst, n);
  fflush(stdout), fflush(stderr);
  pid = fork();
  if (pid == 0) _exit(fn(ctx) == 0 && (memcpy(shared, dst, n), 1) ? 0 : 2);
  waitpid(pid, &status, 0);
  memcpy(dst, shared, n);
  munmap(shared, n + 64);
  if (WIFSIGNALED(status)) return crashed++, 1;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static float rand_scale(int lo, int hi) { return ldexpf(1.0f + (float)(th_rand32() % 1000u) / 1000.0f, -(int)th_range(lo, hi)); }
/* An eltwise post-op's scale (it multiplies the result): 1 half the time, else in [2^-3, 4) with a full
   mantissa, a quarter of them negative. */
static float elt_scale(void) {
  float v;
  if (th_rand32() & 1u) return 1.0f;
  v = (float)((1.0 + (double)(th_rand32() % 8388607u + 1u) / 8388608.0) * ldexp(1.0, (int)th_range(-3, 1)));
  return th_rand32() % 4u == 0 ? -v : v;
}

/* Random attributes for a dst of n elements and o channels: scales (OLD:
 * output scales common or per channel; NEW: src, weight (common or per
 * channel), dst scales and an f32 bias), zero points, and with_po 1 to 4
 * post-ops of distinct kinds (oneDNN 2.6 gives a repeated kind the first one's
 * parameters, docs/kernels.md §8), binary ones with src1 common, per channel
 * or per element. */
typedef struct trial_bufs {
  float osc[64], ss, ds, ws[64], fbias[64], src1[4][2 * 12 * 12 * 64];
} trial_bufs;

static void rand_attr(mrtq_onednn_attr *a, trial_bufs *b, size_t o, size_t n, int *src_u, int dst_u, int with_po, int scheme) {
  size_t i;
  memset(a, 0, sizeof *a);
  a->scheme = scheme;
  if (scheme == MRTQ_ONEDNN_OLD) {
    a->oscale_mask = th_rand32() & 1u ? 2 : 0, a->oscale = b->osc;
    for (i = 0; i < o; i++) b->osc[i] = a->oscale_mask || i == 0 ? rand_scale(8, 13) : b->osc[0];
  } else {
    b->ss = rand_scale(4, 7), b->ds = rand_scale(0, 3) * 8.0f, a->wei_per_oc = (int)(th_rand32() & 1u);
    a->src_scale = th_rand32() % 4u ? &b->ss : NULL, a->dst_scale = th_rand32() % 4u ? &b->ds : NULL, a->wei_scale = b->ws;
    for (i = 0; i < o; i++) b->ws[i] = rand_scale(5, 8), b->fbias[i] = (float)th_range(-4000, 4000) / 64.0f;
    if (th_rand32() % 4u) a->fbias = b->fbias;
  }
  a->src_zp = th_rand32() & 1u ? 0 : (int32_t)(*src_u ? th_range(0, 255) : th_range(-128, 127));
  a->dst_zp = th_rand32() & 1u ? 0 : (int32_t)(dst_u ? th_range(0, 255) : th_range(-128, 127));
  if (with_po) {
    int k, np = (int)th_range(1, 4), kinds[6] = {0, 1, 2, 3, 4, 5};
    for (k = 5; k > 0; k--) { /* a random order of the six kinds */
      int j = (int)th_range(0, k), t = kinds[k];
      kinds[k] = kinds[j], kinds[j] = t;
    }
    for (k = 0; k < np; k++) {
      mrtq_onednn_po *p = &a->po[a->n_po++];
      switch (kinds[k]) {
        case 0:
          p->kind = MRTQ_ONEDNN_SUM, p->scale = th_rand32() & 1u ? 1.0f : rand_scale(0, 3);
          if (th_rand32() & 1u) p->zp = (int32_t)th_range(-300, 300); /* sum_v3's zero point */
          if (p->zp && th_range(0, 7) == 0) p->zp = (int32_t)th_range(-(1 << 26), 1 << 26);
          break;
        case 1: p->kind = MRTQ_ONEDNN_RELU, p->alpha = th_rand32() & 1u ? 0.0f : rand_scale(1, 4), p->scale = elt_scale(); break;
        case 2:
          p->kind = MRTQ_ONEDNN_LINEAR, p->alpha = rand_scale(0, 2), p->beta = (float)th_range(-20, 20) / 4.0f, p->scale = elt_scale();
          break;
        case 3: p->kind = MRTQ_ONEDNN_CLIP, p->alpha = (float)th_range(-100, 0), p->beta = (float)th_range(1, 100), p->scale = elt_scale(); break;
        default:
          p->kind = kinds[k] == 4 ? MRTQ_ONEDNN_BIN_ADD : MRTQ_ONEDNN_BIN_MUL, p->scale = 1.0f;
          p->src1_bcast = (int)th_range(0, 2), p->src1 = b->src1[k];
          for (i = 0; i < n; i++)
            b->src1[k][i] = p->kind == MRTQ_ONEDNN_BIN_ADD ? (float)th_range(-3000, 3000) / 32.0f : rand_scale(0, 2) * (th_rand32() & 1u ? 1 : -1);
          break;
      }
    }
  }
  for (i = 0; i < (size_t)a->n_po; i++) /* u8 src with a sum post-op: oneDNN 2.6's JIT crashes or differs (docs/kernels.md §8) */
    if (a->po[i].kind == MRTQ_ONEDNN_SUM && *src_u) *src_u = 0, a->src_zp = a->src_zp > 127 ? 127 : a->src_zp;
}

/* One layer for oneDNN, run in a child process. */
typedef struct layer_ctx {
  int ip, src_u, dst_u;
  mrtq_conv2d_shape s;
  size_t ho, wo;
  const void *x;
  const int8_t *w;
  const int32_t *bias;
  od_attr od;
  void *dst;
} layer_ctx;

static int layer_run(void *p) {
  layer_ctx *c = (layer_ctx *)p;
  if (c->ip) return onednn_ip(c->s.n, c->s.c, c->s.o, c->src_u, c->x, c->w, c->bias, &c->od, c->dst_u, c->dst);
  return onednn_conv(&c->s, c->ho, c->wo, c->src_u, c->x, c->w, c->bias, &c->od, c->dst_u, c->dst);
}

static const char *po_name(int k) {
  static const char *names[] = {"sum", "relu", "linear", "clip", "add", "mul"};
  return k >= 0 && k < 6 ? names[k] : "?";
}

static long long by_kind[4]; /* outputs compared: conv, inner product, binary, sum */
static long long elt_scaled; /* of those, outputs through an eltwise post-op whose scale is not 1 */
static long sum_zp_outputs;  /* conv / inner product outputs through a sum post-op with a zero point (sum_v3) */
static long overrun_outputs, overrun_layers; /* convolutions whose last window runs past the padding */
static int has_elt_scale(const mrtq_onednn_attr *a) {
  int k, r = 0;
  for (k = 0; k < a->n_po; k++) r |= a->po[k].kind >= MRTQ_ONEDNN_RELU && a->po[k].kind <= MRTQ_ONEDNN_CLIP && a->po[k].scale != 1.0f;
  return r;
}
static int trial_specials; /* OLD output scales: some NaN, +-inf, 1e30 or 0 */
static long long special_outputs; /* outputs whose scale was one of those */
static int specials_ref; /* of those layers, the ones oneDNN ran on its reference implementation */
static int zpc_ref; /* per-channel zero-point layers oneDNN ran on its reference implementation */

/* kind 0: convolution, 1: inner product. */
static void layer_trial(int trial, int ip, int with_po, int scheme, int runtime, int zpc) {
  static uint8_t x[2 * 10 * 10 * 64], ours[2 * 12 * 12 * 64], theirs[2 * 12 * 12 * 64], prev[2 * 12 * 12 * 64];
  static int8_t w[64 * 5 * 5 * 64];
  static int32_t bias[64];
  static trial_bufs bufs;
  static float osc_new[64];
  static int32_t zsrc[64], zdst[64];
  mrtq_onednn_attr a;
  mrtq_qoperand qx, qw;
  layer_ctx c;
  size_t i, n, cg, og;
  int use_bias = (int)(th_rand32() % 4u != 0), r, k, overrun = 0;
  mrtq_status st;
  memset(&c, 0, sizeof c), memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw);
  c.ip = ip, c.src_u = (int)(th_rand32() & 1u), c.dst_u = (int)(th_rand32() & 1u);
  if (ip) {
    c.s = mrtq_fc_shape((size_t)th_range(1, 24), (size_t)th_range(1, 300), (size_t)th_range(1, 64));
    c.ho = c.wo = 1, cg = c.s.c;
  } else {
    mrtq_conv2d_shape *s = &c.s;
    s->groups = th_rand32() % 4u == 0 ? (size_t)th_range(2, 3) : 1;
    cg = (size_t)th_range(1, 8), og = (size_t)th_range(1, 8);
    if (th_rand32() % 5u == 0) s->groups = (size_t)th_range(2, 24), cg = 1, og = 1; /* depthwise */
    s->c = s->groups * cg, s->o = s->groups * og;
    s->n = (size_t)th_range(1, 2), s->h = (size_t)th_range(1, 10), s->w = (size_t)th_range(1, 10);
    s->kh = (size_t)th_range(1, 5), s->kw = (size_t)th_range(1, 5), s->stride_h = (size_t)th_range(1, 2);
    s->stride_w = (size_t)th_range(1, 2), s->dil_h = (size_t)th_range(1, 2), s->dil_w = (size_t)th_range(1, 2);
    s->pad_top = (size_t)th_range(0, 2), s->pad_bottom = (size_t)th_range(0, 2), s->pad_left = (size_t)th_range(0, 2);
    s->pad_right = (size_t)th_range(0, 2), s->layout = MRTQ_NHWC;
    /* oneDNN's output size (truncating division): a last window may run past the bottom / right padding */
    if (mrtq_conv2d_out_onednn(s, &c.ho, &c.wo) != MRTQ_OK) return;
    {
      size_t h2, w2;
      overrun = mrtq_conv2d_out(s, &h2, &w2) != MRTQ_OK;
    }
  }
  n = c.s.n * c.ho * c.wo * c.s.o;
  for (i = 0; i < c.s.n * c.s.h * c.s.w * c.s.c; i++) x[i] = (uint8_t)th_rand32();
  for (i = 0; i < c.s.o * c.s.kh * c.s.kw * cg; i++) w[i] = (int8_t)th_range(-128, 127);
  for (i = 0; i < n; i++) prev[i] = (uint8_t)th_rand32();
  for (i = 0; i < c.s.o; i++) bias[i] = (int32_t)th_range(-40000, 40000);
  rand_attr(&a, &bufs, c.s.o, n, &c.src_u, c.dst_u, with_po, scheme);
  if (scheme == MRTQ_ONEDNN_NEW) use_bias = 0;
  if (ip) a.src_zp = a.dst_zp = 0; /* oneDNN 2.6's inner product refuses zero points */
  if (trial_specials && scheme == MRTQ_ONEDNN_OLD)
    for (i = 0; i < (a.oscale_mask ? c.s.o : 1); i++)
      if (th_rand32() % 3u == 0) bufs.osc[i] = (const float[]){NAN, INFINITY, -INFINITY, 1e30f, -1e30f, 0.0f}[th_range(0, 5)];
  if (ip && runtime) /* oneDNN 2.6's inner product refuses a sum zero point with run-time scales (unimplemented) */
    for (k = 0; k < a.n_po; k++) a.po[k].zp = 0;
  if (runtime) { /* oneDNN 2.6 refuses run-time scales with a sum and a per-element binary post-op together */
    int has_sum = 0;
    for (k = 0; k < a.n_po; k++) has_sum |= a.po[k].kind == MRTQ_ONEDNN_SUM;
    for (k = 0; k < a.n_po; k++)
      if (has_sum && a.po[k].src1_bcast == MRTQ_ONEDNN_PER_ELEM) a.po[k].src1_bcast = MRTQ_ONEDNN_PER_OC;
  }
  if (zpc) { /* zero points per channel: src, dst or both (some of them 0) */
    int which = (int)th_range(1, 3);
    a.src_zp = 0;
    for (i = 0; i < c.s.c && (which & 1); i++)
      zsrc[i] = th_rand32() % 4u ? (int32_t)(c.src_u ? th_range(0, 255) : th_range(-128, 127)) : 0;
    for (i = 0; i < c.s.o && (which & 2); i++)
      zdst[i] = th_rand32() % 4u ? (int32_t)(c.dst_u ? th_range(0, 255) : th_range(-128, 127)) : 0;
    a.src_zp_ch = which & 1 ? zsrc : NULL, a.dst_zp_ch = which & 2 ? zdst : NULL;
    if (which & 2) a.dst_zp = 0;
  }
  qx.data = x, qx.type = c.src_u ? MRTQ_U8 : MRTQ_S8, qx.zp = a.src_zp, qw.data = w, qw.type = MRTQ_S8;
  memcpy(ours, prev, n), memcpy(theirs, prev, n);
  c.x = x, c.w = w, c.bias = use_bias ? bias : NULL, c.dst = theirs;
  od_from(&a, c.s.o, osc_new, &c.od);
  c.od.runtime = runtime, c.od.zp_n[0] = c.s.c;
  if (zpc || trial_specials) { /* SUM / LINEAR rounding and ReLU(NaN) follow the implementation oneDNN picks */
    od_query_only = 1;
    r = layer_run(&c);
    od_query_only = 0;
    CHECK_EQ(r, 0, "oneDNN refused the layer");
    a.ref_rounding = od_last_ref;
    if (zpc) zpc_ref += od_last_ref;
    if (trial_specials) specials_ref += od_last_ref;
  }
  st = ip ? mrtq_fc_onednn(c.s.n, c.s.c, c.s.o, &a, &qx, &qw, use_bias ? bias : NULL, c.dst_u ? MRTQ_U8 : MRTQ_S8, ours)
          : mrtq_conv2d_onednn(&c.s, &a, &qx, &qw, use_bias ? bias : NULL, c.dst_u ? MRTQ_U8 : MRTQ_S8, ours);
  CHECK_EQ(st, MRTQ_OK, "ours");
  r = in_child(layer_run, &c, theirs, n);
  if (r == 1) {
    printf("  oneDNN crashed: %s n%zu c%zu h%zu w%zu o%zu groups %zu k%zux%zu stride %zu,%zu dil %zu,%zu pads %zu,%zu,%zu,%zu"
           " %s -> %s, zp %d/%d, bias %d, post-ops", ip ? "ip" : "conv", c.s.n, c.s.c, c.s.h, c.s.w, c.s.o, c.s.groups, c.s.kh,
           c.s.kw, c.s.stride_h, c.s.stride_w, c.s.dil_h, c.s.dil_w, c.s.pad_top, c.s.pad_left, c.s.pad_bottom, c.s.pad_right,
           c.src_u ? "u8" : "s8", c.dst_u ? "u8" : "s8", a.src_zp, a.dst_zp, use_bias);
    for (k = 0; k < c.od.n_po; k++) printf(" %s", c.od.po[k].kind == OD_DIV ? "div" : po_name(c.od.po[k].kind));
    printf("\n");
    return;
  }
  CHECK_EQ(r, 0, "oneDNN refused a configuration mrtq accepts (%s, scheme %d, runtime %d, zp %d/%d)", ip ? "ip" : "conv", scheme,
           runtime, a.src_zp, a.dst_zp);
  if (r != 0) return;
  for (k = 0; k < a.n_po; k++) sum_zp_outputs += a.po[k].kind == MRTQ_ONEDNN_SUM && a.po[k].zp ? (long)n : 0;
  overrun_outputs += overrun ? (long)n : 0, overrun_layers += overrun;
  for (i = 0; i < n; i++)
    if (ours[i] != theirs[i]) {
      CHECK_EQ(ours[i], theirs[i], "%s trial %d element %zu of %zu (scheme %d, %d po first %s, src_u %d dst_u %d zp %d/%d)",
               ip ? "ip" : "conv", trial, i, n, scheme, a.n_po, po_name(a.po[0].kind), c.src_u, c.dst_u, a.src_zp, a.dst_zp);
      break;
    }
  compared += (long long)n, by_kind[ip] += (long long)n, elt_scaled += has_elt_scale(&a) ? (long long)n : 0;
  if (trial_specials)
    for (i = 0; i < n; i++) {
      float f = a.oscale[a.oscale_mask ? i % c.s.o : 0];
      special_outputs += f != f || f == 0.0f || f > 1e29f || f < -1e29f;
    }
}

static void test_conv(void) {
  int trial;
  long long before = compared;
  for (trial = 0; trial < 200; trial++) layer_trial(trial, 0, 0, MRTQ_ONEDNN_OLD, 0, 0);
  printf("  conv, scales + zero points + bias: %lld outputs\n", compared - before);
}

static void test_conv_post_ops(void) {
  int trial;
  long long before = compared;
  for (trial = 0; trial < 300; trial++) layer_trial(trial, 0, 1, MRTQ_ONEDNN_OLD, 0, 0);
  printf("  conv with sum / relu / linear / clip / binary add / mul post-ops: %lld outputs\n", compared - before);
}

static void test_conv_new_scheme(void) {
  int trial;
  long long before = compared;
  for (trial = 0; trial < 200; trial++) layer_trial(trial, 0, trial & 1, MRTQ_ONEDNN_NEW, 0, 0);
  printf("  conv, the NEW scheme (as oneDNN 2.6 scales + binary add / div post-ops): %lld outputs\n", compared - before);
}

static void test_conv_zero_points_per_channel(void) {
  int trial;
  long long before = compared;
  for (trial = 0; trial < 200; trial++) layer_trial(trial, 0, trial % 3 != 0, trial % 4 == 3 ? MRTQ_ONEDNN_NEW : MRTQ_ONEDNN_OLD, 0, 1);
  printf("  conv, src and / or dst zero points per channel, both schemes, post-ops: %lld outputs (%d of 200 layers on oneDNN's"
         " reference implementation)\n", compared - before, zpc_ref);
}

/* OLD output scales NaN, +-inf, +-1e30 and 0 (common or per channel), with
 * and without post-ops: what oneDNN stores for a NaN or infinite product. */
static void test_special_scales(void) {
  int trial;
  long long before = compared;
  trial_specials = 1;
  for (trial = 0; trial < 200; trial++) layer_trial(trial, trial & 1, trial % 3 != 0, MRTQ_ONEDNN_OLD, 0, trial % 4 == 0);
  trial_specials = 0;
  CHECK(special_outputs > 1000);
  printf("  conv and inner product, output scales NaN / +-inf / +-1e30 / 0: %lld outputs, %lld of them under a special scale"
         " (%d of 200 layers on oneDNN's reference implementation)\n", compared - before, special_outputs, specials_ref);
}

static void test_inner_product(void) {
  int trial;
  long long before = compared;
  for (trial = 0; trial < 300; trial++)
    layer_trial(trial, 1, trial % 3 != 0, trial % 4 == 3 ? MRTQ_ONEDNN_NEW : MRTQ_ONEDNN_OLD, trial % 5 == 0, 0);
  printf("  inner product, both schemes, post-ops, a fifth with scales given at run time: %lld outputs\n", compared - before);
}

/* oneDNN's binary primitive (plain nchw tensors, b broadcast over a) with
 * common src scales s0, s1. */
typedef struct bin_ctx {
  int op, au, bu, du;
  dnnl_dims_t da, db;
  const void *a, *b;
  float s0, s1;
  od_attr od;
  void *dst;
} bin_ctx;

/* The binary's primitive descriptor (and its attribute) for c; md gets the
 * src0, src1 and dst memory descriptors, e the attribute's arguments. */
static int bin_pd(const bin_ctx *c, dnnl_memory_desc_t md[3], dnnl_primitive_desc_t *pd, dnnl_primitive_attr_t *attr, od_exec *e) {
  dnnl_binary_desc_t bd;
  memset(e, 0, sizeof *e);
  DN(dnnl_memory_desc_init_by_tag(&md[0], 4, c->da, c->au ? dnnl_u8 : dnnl_s8, dnnl_nchw));
  DN(dnnl_memory_desc_init_by_tag(&md[1], 4, c->db, c->bu ? dnnl_u8 : dnnl_s8, dnnl_nchw));
  DN(dnnl_memory_desc_init_by_tag(&md[2], 4, c->da, c->du ? dnnl_u8 : dnnl_s8, dnnl_nchw));
  DN(dnnl_binary_desc_init(&bd, c->op == MRTQ_ONEDNN_BIN_ADD ? dnnl_binary_add : dnnl_binary_mul, &md[0], &md[1], &md[2]));
  if (od_attr_make(&c->od, 4, c->da, dnnl_nchw, 1, attr, e)) return -1;
  DN(dnnl_primitive_attr_set_scales(*attr, DNNL_ARG_SRC_0, 1, 0, &c->s0));
  DN(dnnl_primitive_attr_set_scales(*attr, DNNL_ARG_SRC_1, 1, 0, &c->s1));
  DN(dnnl_primitive_desc_create(pd, &bd, *attr, eng, NULL));
  return 0;
}

static void bin_free(dnnl_primitive_desc_t pd, dnnl_primitive_attr_t attr, od_exec *e) {
  int i;
  dnnl_primitive_desc_destroy(pd), dnnl_primitive_attr_destroy(attr);
  for (i = 0; i < e->n_owned; i++) dnnl_memory_destroy(e->owned[i]);
}

static int bin_run(void *p) {
  bin_ctx *c = (bin_ctx *)p;
  dnnl_memory_desc_t md[3];
  dnnl_primitive_attr_t attr;
  dnnl_primitive_desc_t pd;
  dnnl_primitive_t prim;
  od_exec e;
  if (bin_pd(c, md, &pd, &attr, &e)) return -1;
  if (od_arg(&e, DNNL_ARG_SRC_0, &md[0], c->a) || od_arg(&e, DNNL_ARG_SRC_1, &md[1], c->b) || od_arg(&e, DNNL_ARG_DST, &md[2], c->dst))
    return -1;
  DN(dnnl_primitive_create(&prim, pd));
  DN(dnnl_primitive_execute(prim, strm, e.n, e.args));
  DN(dnnl_stream_wait(strm));
  dnnl_primitive_destroy(prim);
  bin_free(pd, attr, &e);
  return 0;
}

/* 1 when oneDNN picks its reference implementation for this binary (its
 * SUM and LINEAR post-ops then round twice), 0 for a JIT kernel, -1 refused. */
static int bin_is_ref(const bin_ctx *c) {
  dnnl_memory_desc_t md[3];
  dnnl_primitive_attr_t attr;
  dnnl_primitive_desc_t pd;
  od_exec e;
  const char *impl = "?";
  int ref;
  if (bin_pd(c, md, &pd, &attr, &e)) return -1;
  DN(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, (void *)&impl));
  ref = strncmp(impl, "ref", 3) == 0;
  bin_free(pd, attr, &e);
  return ref;
}

static void test_binary(void) {
  static uint8_t a[3 * 24 * 9 * 9], b[3 * 24 * 9 * 9], ours[3 * 24 * 9 * 9], theirs[3 * 24 * 9 * 9];
  static trial_bufs bufs;
  int trial, with_po, n_ref = 0;
  long long before = compared;
  for (trial = 0; trial < 400; trial++) {
    bin_ctx c;
    mrtq_onednn_attr at;
    mrtq_qoperand qa, qb;
    size_t sa[4], sb[4], n = 1, nb = 1, i;
    int d, r, su = 0;
    memset(&c, 0, sizeof c), memset(&qa, 0, sizeof qa), memset(&qb, 0, sizeof qb);
    c.op = trial & 1 ? MRTQ_ONEDNN_BIN_MUL : MRTQ_ONEDNN_BIN_ADD;
    c.au = (int)(th_rand32() & 1u), c.bu = (int)(th_rand32() & 1u), c.du = (int)(th_rand32() & 1u);
    sa[0] = (size_t)th_range(1, 3), sa[1] = (size_t)th_range(1, 24), sa[2] = (size_t)th_range(1, 9), sa[3] = (size_t)th_range(2, 9);
    /* (W >= 2: on N x C x 1 x 1 tensors oneDNN 2.6 applies a per-channel binary post-op's first value to every
       channel, docs/kernels.md §8) */
    for (d = 0; d < 4; d++) sb[d] = th_rand32() % 3u ? sa[d] : 1, n *= sa[d], nb *= sb[d], c.da[d] = (dnnl_dim_t)sa[d], c.db[d] = (dnnl_dim_t)sb[d];
    for (i = 0; i < n; i++) a[i] = (uint8_t)th_rand32(), ours[i] = theirs[i] = (uint8_t)th_rand32();
    for (i = 0; i < nb; i++) b[i] = (uint8_t)th_rand32();
    c.s0 = rand_scale(0, 4), c.s1 = rand_scale(0, 4);
    if (c.op == MRTQ_ONEDNN_BIN_MUL) c.s0 *= 0.03125f, c.s1 *= 0.0625f;
    with_po = trial % 3 != 0;
    rand_attr(&at, &bufs, sa[1], n, &su, c.du, with_po, MRTQ_ONEDNN_OLD);
    at.oscale = NULL, at.oscale_mask = 0, at.src_zp = 0, at.dst_zp = 0; /* oneDNN 2.6's binary: src scales only */
    qa.data = a, qa.type = c.au ? MRTQ_U8 : MRTQ_S8, qb.data = b, qb.type = c.bu ? MRTQ_U8 : MRTQ_S8;
    c.a = a, c.b = b, c.dst = theirs;
    od_from(&at, sa[1], NULL, &c.od);
    at.ref_rounding = bin_is_ref(&c) == 1, n_ref += at.ref_rounding;
    CHECK_EQ(mrtq_binary_onednn(c.op, &at, &qa, sa, 4, c.s0, &qb, sb, 4, c.s1, c.du ? MRTQ_U8 : MRTQ_S8, ours), MRTQ_OK, "ours");
    r = in_child(bin_run, &c, theirs, n);
    CHECK_EQ(r, 0, "oneDNN refused or crashed (binary trial %d)", trial);
    if (r != 0) continue;
    for (i = 0; i < n; i++)
      if (ours[i] != theirs[i]) {
        CHECK_EQ(ours[i], theirs[i], "binary %s trial %d element %zu (s0 %a s1 %a, %d po first %s, u %d%d%d)",
                 c.op == MRTQ_ONEDNN_BIN_ADD ? "add" : "mul", trial, i, c.s0, c.s1, at.n_po, po_name(at.po[0].kind), c.au, c.bu, c.du);
        break;
      }
    compared += (long long)n, by_kind[2] += (long long)n, elt_scaled += has_elt_scale(&at) ? (long long)n : 0;
  }
  printf("  binary add / mul with src scales, broadcasting, post-ops: %lld outputs (%d of 400 layers on oneDNN's reference"
         " implementation, sum / linear rounded twice there)\n", compared - before, n_ref);
}

/* oneDNN's sum primitive: n inputs (s8 or u8 each) with f32 scales, s8 or
 * u8 dst. Scales have full mantissas, so products round; sometimes a special
 * (NaN, +-inf, 1e30, 0, a negative scale). Beside the byte comparison, the
 * elements where other plausible orders of operation give other bytes are
 * counted (fused products, a double-precision sum, right-to-left), to show the
 * comparison tells them apart. */
typedef struct sum_ctx {
  int n, du, u[6];
  size_t count;
  const float *scales;
  const uint8_t *x[6];
  void *dst;
} sum_ctx;

static int sum_run(void *p) {
  sum_ctx *c = (sum_ctx *)p;
  dnnl_memory_desc_t md[7];
  dnnl_primitive_desc_t pd;
  dnnl_primitive_t prim;
  dnnl_exec_arg_t args[7];
  dnnl_dims_t d;
  int k;
  d[0] = (dnnl_dim_t)c->count;
  for (k = 0; k < c->n; k++) DN(dnnl_memory_desc_init_by_tag(&md[k], 1, d, c->u[k] ? dnnl_u8 : dnnl_s8, dnnl_a));
  DN(dnnl_memory_desc_init_by_tag(&md[c->n], 1, d, c->du ? dnnl_u8 : dnnl_s8, dnnl_a));
  DN(dnnl_sum_primitive_desc_create(&pd, &md[c->n], c->n, c->scales, md, NULL, eng));
  if (dnnl_memory_desc_get_size(dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0)) != 0) return -1;
  for (k = 0; k <= c->n; k++) {
    args[k].arg = k < c->n ? DNNL_ARG_MULTIPLE_SRC + k : DNNL_ARG_DST;
    if (mem(&args[k].memory, &md[k], k < c->n ? (void *)c->x[k] : c->dst)) return -1;
  }
  DN(dnnl_primitive_create(&prim, pd));
  DN(dnnl_primitive_execute(prim, strm, c->n + 1, args));
  DN(dnnl_stream_wait(strm));
  return 0;
}

static int sum_sat(double f, int du) { /* RNE and saturation of a float value (NaN: see mrtq_sum_onednn) */
  if (f != f) return du ? 0 : 127;
  if (f < (du ? 0 : -128)) return du ? 0 : -128;
  if (f > (du ? 255 : 127)) return du ? 255 : 127;
  return (int)lrint(f);
}

/* One sum: ours and oneDNN's compared byte for byte; alt[] counts the
 * elements where a fused product, a double-precision sum or the
 * right-to-left order would give other bytes. Returns ours[0] (as a value),
 * or -1000 when oneDNN did not run. */
static int sum_case(sum_ctx *c, const float *sc, uint8_t x[][5000], uint8_t *ours, uint8_t *theirs, long long alt[3]) {
  mrtq_qoperand q[6];
  size_t i;
  int k, r;
  memset(q, 0, sizeof q);
  for (k = 0; k < c->n; k++) c->x[k] = x[k], q[k].data = x[k], q[k].type = c->u[k] ? MRTQ_U8 : MRTQ_S8;
  for (i = 0; i < c->count; i++) ours[i] = theirs[i] = (uint8_t)th_rand32();
  c->scales = sc, c->dst = theirs;
  CHECK_EQ(mrtq_sum_onednn((size_t)c->n, q, sc, c->count, c->du ? MRTQ_U8 : MRTQ_S8, ours), MRTQ_OK, "ours");
  r = in_child(sum_run, c, theirs, c->count);
  CHECK_EQ(r, 0, "oneDNN refused or crashed (sum of %d)", c->n);
  if (r != 0) return -1000;
  for (i = 0; i < c->count; i++) {
    float fu = 0.0f, rl = 0.0f;
    double dd = 0.0;
    int got = c->du ? ours[i] : (int8_t)ours[i];
    if (ours[i] != theirs[i]) {
      CHECK_EQ(got, c->du ? theirs[i] : (int8_t)theirs[i], "sum of %d (du %d) element %zu", c->n, c->du, i);
      break;
    }
    for (k = 0; k < c->n; k++) {
      float v = c->u[k] ? (float)x[k][i] : (float)(int8_t)x[k][i];
      fu = k ? fmaf(sc[k], v, fu) : sc[k] * v, dd += (double)sc[k] * v;
    }
    for (k = c->n; k-- > 0;) {
      float v = c->u[k] ? (float)x[k][i] : (float)(int8_t)x[k][i];
      volatile float pr = sc[k] * v;
      rl = k == c->n - 1 ? pr : rl + pr;
    }
    alt[0] += sum_sat(fu, c->du) != got, alt[1] += sum_sat(dd, c->du) != got, alt[2] += sum_sat(rl, c->du) != got;
  }
  compared += (long long)c->count, by_kind[3] += (long long)c->count;
  return c->du ? ours[0] : (int8_t)ours[0];
}

/* Random sums, then two constructions (1 element each, s8 x = 1 unless
 * said) where the order of operations decides the byte:
 *  - fused: x1 in [20, 100], q = fl(s1 x1) with s1 x1 - q = e >= 2^-24 exactly;
 *    s0 = 0.5 - q (exact). Two roundings: s0 + q = 0.5 -> 0 (ties to even);
 *    a fused product or a double sum: 0.5 + e -> 1.
 *  - order: s0 = k + 0.5 (k even), s1 = s2 = half an ulp of s0. Left to right
 *    each addition ties back to s0 (even) -> k; right to left (or in double)
 *    s0 + one ulp -> k + 1. */
static void test_sum(void) {
  static uint8_t x[6][5000], ours[5000], theirs[5000];
  long long before = compared, alt[3] = {0, 0, 0}, alt_random;
  int trial, k, fused_cases = 0, order_cases = 0;
  for (trial = 0; trial < 300; trial++) {
    sum_ctx c;
    float sc[6];
    size_t i;
    memset(&c, 0, sizeof c);
    c.n = (int)th_range(1, 6), c.du = (int)(th_rand32() & 1u), c.count = (size_t)th_range(1, 5000);
    for (k = 0; k < c.n; k++) {
      c.u[k] = (int)(th_rand32() & 1u);
      sc[k] = (float)((1.0 + (double)(th_rand32() % 8388607u + 1u) / 8388608.0) * ldexp(1.0, -(int)th_range(0, 5)));
      if (th_range(0, 3) == 0) sc[k] = -sc[k];
      if (th_range(0, 40) == 0) sc[k] = (const float[]){NAN, INFINITY, -INFINITY, 1e30f, 0.0f}[th_range(0, 4)];
      for (i = 0; i < c.count; i++) x[k][i] = (uint8_t)th_rand32();
    }
    sum_case(&c, sc, x, ours, theirs, alt);
  }
  alt_random = alt[0] + alt[1] + alt[2];
  for (trial = 0; trial < 64; trial++) {
    sum_ctx c;
    float sc[6];
    double e = 0.0;
    float q = 0.0f;
    memset(&c, 0, sizeof c);
    c.count = 1;
    if (trial % 2 == 0) { /* fused */
      int x1 = 0;
      while (!(e > 0x1p-25)) { /* e a multiple of 2^-25; 0.5 + 2^-25 would tie back to 0.5 in a float */
        sc[1] = (float)((1.0 + (double)(th_rand32() % 8388607u + 1u) / 8388608.0) * 0.25);
        x1 = (int)th_range(20, 100), q = (float)((double)sc[1] * x1), e = (double)sc[1] * x1 - (double)q;
      }
      c.n = 2, sc[0] = (float)(0.5 - (double)q), x[0][0] = 1, x[1][0] = (uint8_t)x1;
      if (sum_case(&c, sc, x, ours, theirs, alt) != -1000) CHECK_EQ((int8_t)ours[0], 0, "fused construction: s1 %a x1 %d", sc[1], x1);
      fused_cases++;
    } else { /* order */
      int kk = 2 * (int)th_range(0, 50), ex;
      c.n = 3, sc[0] = (float)kk + 0.5f;
      (void)frexpf(sc[0], &ex);
      sc[1] = sc[2] = ldexpf(1.0f, ex - 25); /* s0 in [2^(ex-1), 2^ex): ulp 2^(ex-24) */
      x[0][0] = x[1][0] = x[2][0] = 1;
      if (sum_case(&c, sc, x, ours, theirs, alt) != -1000) CHECK_EQ((int8_t)ours[0], kk, "order construction: s0 %a", sc[0]);
      order_cases++;
    }
  }
  CHECK(alt[0] >= fused_cases && alt[1] >= fused_cases + order_cases && alt[2] >= order_cases); /* each case tells them apart */
  printf("  sum (1-6 inputs, s8/u8, per-input scales, specials): %lld outputs, incl. %d + %d constructed where a fused product /"
         " the order decides; elements where other orders would differ: %lld fused, %lld double, %lld right to left (%lld in"
         " the random ones)\n",
         compared - before, fused_cases, order_cases, alt[0], alt[1], alt[2], alt_random);
}

/* One tiny layer under attribute a, mrtq's bytes and oneDNN's: prim 0 a
 * 1x1 convolution, 1 an inner product (x = 1, w = 1, output scale f0),
 * 2 a binary add 1 * f0 + 0, 3 the same add with a broadcast (16 outputs)
 * that oneDNN 2.6 gives to its reference implementation, 4 the convolution
 * with per-channel src zero points (also reference). Both dsts start as
 * fill (the SUM post-op's prev). a->ref_rounding follows the implementation
 * oneDNN picks, which must be the reference one exactly for prim >= 3.
 * Returns 0 when both ran and the bytes (*n of them) are equal. */
static const char *tiny_name[5] = {"conv", "inner product", "binary", "binary on oneDNN's reference implementation",
                                   "conv with per-channel src zero points (reference implementation)"};
static int tiny_case(int prim, mrtq_onednn_attr *a, float f0, int du, uint8_t fill, uint8_t ours[16], uint8_t theirs[16], size_t *n) {
  static int8_t x[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, w[1] = {1}, zero[16];
  static const int32_t zsrc[1] = {0};
  static float scale;
  mrtq_conv2d_shape s = mrtq_fc_shape(1, 1, 1);
  mrtq_qoperand qx, qw, qz;
  layer_ctx lc;
  bin_ctx bc;
  size_t sa[4] = {1, 1, 1, 1}, sb[4] = {1, 1, 1, 1}, i;
  int r, ref;
  memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw), memset(&qz, 0, sizeof qz);
  memset(&lc, 0, sizeof lc), memset(&bc, 0, sizeof bc);
  s.layout = MRTQ_NHWC, qx.data = x, qw.data = w, qz.data = zero, *n = 1;
  qx.type = qw.type = qz.type = MRTQ_S8;
  if (prim == 3) sa[0] = sa[1] = sa[2] = sa[3] = 2, sb[1] = sb[3] = 2, *n = 16;
  for (i = 0; i < *n; i++) ours[i] = theirs[i] = fill;
  if (prim != 2 && prim != 3) {
    scale = f0, a->oscale = &scale, a->src_zp_ch = prim == 4 ? zsrc : NULL;
    lc.ip = prim == 1, lc.s = s, lc.ho = lc.wo = 1, lc.x = x, lc.w = w, lc.dst = theirs, lc.dst_u = du;
    od_from(a, 1, NULL, &lc.od);
    lc.od.zp_n[0] = 1;
    od_query_only = 1, r = layer_run(&lc), od_query_only = 0;
    ref = r == 0 ? od_last_ref : -1;
    a->ref_rounding = ref == 1;
    CHECK_EQ(prim == 1 ? mrtq_fc_onednn(1, 1, 1, a, &qx, &qw, NULL, du ? MRTQ_U8 : MRTQ_S8, ours)
                       : mrtq_conv2d_onednn(&s, a, &qx, &qw, NULL, du ? MRTQ_U8 : MRTQ_S8, ours),
             MRTQ_OK, "ours");
    r = in_child(layer_run, &lc, theirs, 1);
  } else {
    bc.op = MRTQ_ONEDNN_BIN_ADD, bc.a = x, bc.b = zero, bc.s0 = f0, bc.s1 = 1.0f, bc.dst = theirs, bc.du = du;
    for (r = 0; r < 4; r++) bc.da[r] = (dnnl_dim_t)sa[r], bc.db[r] = (dnnl_dim_t)sb[r];
    od_from(a, 1, NULL, &bc.od);
    ref = bin_is_ref(&bc);
    a->ref_rounding = ref == 1;
    CHECK_EQ(mrtq_binary_onednn(MRTQ_ONEDNN_BIN_ADD, a, &qx, sa, 4, f0, &qz, sb, 4, 1.0f, du ? MRTQ_U8 : MRTQ_S8, ours), MRTQ_OK, "ours");
    r = in_child(bin_run, &bc, theirs, *n);
  }
  CHECK_EQ(ref, prim >= 3, "%s: oneDNN's choice of implementation", tiny_name[prim]);
  CHECK_EQ(r, 0, "%s: oneDNN ran", tiny_name[prim]);
  if (r != 0 || ref != (prim >= 3)) return -1;
  compared += (long long)*n;
  return memcmp(ours, theirs, *n) != 0;
}

/* Whether the sum and linear post-ops are fused multiply-adds (one
 * rounding) differs by primitive. Constructed cases where one and two
 * roundings give different bytes: with q = fl(m * P) and e = m * P - q > 0
 * exactly, an addend of 0.5 - q makes the two-rounding sum exactly 0.5 (-> 0,
 * ties to even) and the fused one 0.5 + e (-> 1). SUM: f = 0.5 - q (a 1x1
 * convolution or inner product with x = 1, w = 1 and output scale f; binary:
 * 1 * f + 0), prev = P; LINEAR: f = F, alpha = m, beta = 0.5 - fl(m F).
 * oneDNN 2.6.3's JIT kernels fuse both (convolution, inner product, binary);
 * its reference implementation, which it picks for some binary layers, rounds
 * twice (mrtq's ref_rounding; docs/kernels.md §8). */
static void test_fused_rounding(void) {
  int prim;
  for (prim = 0; prim < 4; prim++) {
    int found[2] = {0, 0}, fused[2] = {0, 0}, k;
    for (k = 1; k < 4000 && (found[0] < 8 || found[1] < 8); k++) {
      int kind = k & 1;
      float m = 0.5f + (float)k * 0.000123f, big = kind ? 37.3f : -60.0f, q, f0;
      double e;
      uint8_t ours[16], theirs[16];
      size_t n;
      mrtq_onednn_attr a;
      q = m * big;
      e = (double)m * big - (double)q;
      if (!(e > 0) || found[kind] >= 8) continue;
      memset(&a, 0, sizeof a);
      a.n_po = 1;
      if (kind == 0) f0 = 0.5f - q, a.po[0].kind = MRTQ_ONEDNN_SUM, a.po[0].scale = m;
      else f0 = big, a.po[0].kind = MRTQ_ONEDNN_LINEAR, a.po[0].alpha = m, a.po[0].beta = 0.5f - q, a.po[0].scale = 1.0f;
      CHECK(q + (kind ? a.po[0].beta : f0) == 0.5f); /* two roundings land exactly on the tie */
      if (tiny_case(prim, &a, f0, 0, (uint8_t)(int8_t)(kind ? 0 : (int)big), ours, theirs, &n) < 0) continue;
      CHECK(memcmp(ours, theirs, n) == 0);
      CHECK_EQ((int8_t)ours[0], (int8_t)theirs[0], "%s %s: m %a", tiny_name[prim], kind ? "linear" : "sum", m);
      found[kind]++, fused[kind] += (int8_t)ours[0] == 1;
    }
    CHECK(found[0] == 8 && found[1] == 8);
    CHECK(fused[0] == (prim < 3 ? 8 : 0) && fused[1] == (prim < 3 ? 8 : 0)); /* every case tells one rounding from two */
    printf("  %s: sum %s, linear %s (%d + %d cases where one and two roundings differ)\n", tiny_name[prim],
           fused[0] ? "fused" : "two roundings", fused[1] ? "fused" : "two roundings", found[0], found[1]);
  }
}

/* The eltwise post-ops' scale (oneDNN 2.6: the function's result times
 * scale, rounded on its own). By hand on tiny_case's layers (40 through
 * ReLU with scale 0.5 stores 20, which mrtq before 0.2 stored as 40; LINEAR
 * 2x - 1 with scale 0.5: 39.5 -> 40, ties to even; CLIP [-1, 1] with scale
 * -3: -3), then constructed cases where that product's own rounding decides
 * the byte: LINEAR(1, 0) with scale m on f0, m = fl(t / f0) for t = n + 0.5,
 * so that q = fl(f0 m) = t exactly while f0 m != t; a binary-add post-op of
 * zp in {0, 1} after it: rounded separately t + zp ties to even, a product
 * fused with the addition would not (zp is chosen so that the two differ).
 * On oneDNN's JIT kernels and its reference implementations alike. */
static void test_eltwise_scale(void) {
  int prim;
  for (prim = 0; prim < 5; prim++) {
    static const float hand_f0[3] = {40.0f, 40.0f, 40.0f};
    static const int hand_want[3] = {20, 40, -3};
    uint8_t ours[16], theirs[16];
    size_t n, i;
    mrtq_onednn_attr a;
    int h, k, found = 0;
    for (h = 0; h < 3; h++) {
      memset(&a, 0, sizeof a);
      a.n_po = 1, a.po[0].kind = h == 0 ? MRTQ_ONEDNN_RELU : h == 1 ? MRTQ_ONEDNN_LINEAR : MRTQ_ONEDNN_CLIP;
      a.po[0].scale = h == 2 ? -3.0f : 0.5f;
      if (h == 1) a.po[0].alpha = 2.0f, a.po[0].beta = -1.0f;
      if (h == 2) a.po[0].alpha = -1.0f, a.po[0].beta = 1.0f;
      CHECK_EQ(tiny_case(prim, &a, hand_f0[h], 0, 0, ours, theirs, &n), 0, "%s, hand case %d", tiny_name[prim], h);
      for (i = 0; i < n; i++) CHECK_EQ((int8_t)theirs[i], hand_want[h], "%s, hand case %d: oneDNN", tiny_name[prim], h);
      CHECK_EQ((int8_t)ours[0], hand_want[h], "%s, hand case %d: mrtq", tiny_name[prim], h);
    }
    for (k = 0; k < 20000 && found < 8; k++) {
      static float zpf;
      int nn = (int)th_range(-20, 20), zp, want;
      float t = (float)nn + 0.5f, f0 = (float)th_range(3, 9999) / 64.0f, m = t / f0, q;
      double pr = (double)f0 * m;
      q = (float)pr;
      if (q != t || pr == (double)t || m == 0) continue;
      zp = ((nn % 2) + 2) % 2 == (pr > t ? 0 : 1) ? 0 : 1; /* nn + zp even above the tie, odd below */
      zpf = (float)zp;
      want = (int)lrint((double)t + zp);        /* two roundings: the tie, to even */
      CHECK(want != (int)lrint(pr + zp));       /* one rounding would give the other neighbour */
      memset(&a, 0, sizeof a);
      a.n_po = 2, a.po[0].kind = MRTQ_ONEDNN_LINEAR, a.po[0].alpha = 1.0f, a.po[0].scale = m;
      a.po[1].kind = MRTQ_ONEDNN_BIN_ADD, a.po[1].scale = 1.0f, a.po[1].src1 = &zpf, a.po[1].src1_bcast = MRTQ_ONEDNN_COMMON;
      if (tiny_case(prim, &a, f0, 0, 0, ours, theirs, &n) < 0) continue;
      for (i = 0; i < n; i++) CHECK_EQ((int8_t)theirs[i], (int8_t)ours[i], "%s: f0 %a m %a zp %d", tiny_name[prim], f0, m, zp);
      CHECK_EQ((int8_t)ours[0], want, "%s: f0 %a m %a zp %d: the scale's own rounding", tiny_name[prim], f0, m, zp);
      found++;
    }
    CHECK_EQ(found, 8, "%s: constructed cases", tiny_name[prim]);
    printf("  %s: eltwise scale by hand (3 cases) and %d constructed cases where its own rounding decides\n",
           tiny_name[prim], found);
  }
}

/* A NaN reaching the post-ops and the store: a NaN output scale (binary: a
 * NaN src scale) on tiny_case's layers, then each chain below and a
 * LINEAR(1, 5) last (5 tells a ReLU's 0 from a stored NaN), int8 and uint8
 * dst, on oneDNN's JIT kernels and its reference implementations. The bytes
 * must equal oneDNN's; the values seen are printed. */
static void test_nan(void) {
  static const char *chain_name[4] = {"none", "relu(0)", "relu(0.5)", "clip(-3, 9)"};
  int prim, chain, du;
  uint8_t seen[5][4][2];
  for (prim = 0; prim < 5; prim++)
    for (chain = 0; chain < 4; chain++)
      for (du = 0; du < 2; du++) {
        uint8_t ours[16], theirs[16];
        size_t n, i;
        mrtq_onednn_attr a;
        memset(&a, 0, sizeof a);
        a.po[0].scale = a.po[1].scale = 1.0f; /* eltwise results unscaled */
        if (chain == 1 || chain == 2) a.po[a.n_po].kind = MRTQ_ONEDNN_RELU, a.po[a.n_po++].alpha = chain == 1 ? 0.0f : 0.5f;
        if (chain == 3) a.po[a.n_po].kind = MRTQ_ONEDNN_CLIP, a.po[a.n_po].alpha = -3.0f, a.po[a.n_po++].beta = 9.0f;
        a.po[a.n_po].kind = MRTQ_ONEDNN_LINEAR, a.po[a.n_po].alpha = 1.0f, a.po[a.n_po++].beta = 5.0f;
        seen[prim][chain][du] = 0x55;
        if (tiny_case(prim, &a, NAN, du, 0x55, ours, theirs, &n) < 0) continue;
        for (i = 0; i < n; i++)
          CHECK_EQ(ours[i], theirs[i], "%s, %s, %s dst, element %zu", tiny_name[prim], chain_name[chain], du ? "u8" : "s8", i);
        seen[prim][chain][du] = theirs[0];
      }
  for (prim = 0; prim < 5; prim++) {
    printf("  NaN on %s: int8 / uint8 dst stores", tiny_name[prim]);
    for (chain = 0; chain < 4; chain++) printf(" %s %d/%d;", chain_name[chain], (int8_t)seen[prim][chain][0], seen[prim][chain][1]);
    printf("\n");
  }
}

/* The random chains above sent many outputs through scaled eltwise post-ops. */
static void test_eltwise_reach(void) { CHECK_EQ(elt_scaled > 100000, 1, "eltwise scales reached %lld outputs", elt_scaled); }

int main(void) {
  if (dnnl_engine_create(&eng, dnnl_cpu, 0) != dnnl_success || dnnl_stream_create(&strm, eng, dnnl_stream_default_flags) != dnnl_success)
    return th_skip("test_onednn", "no oneDNN CPU engine");
  if (!__builtin_cpu_supports("avx512vnni")) /* (AVX-VNNI-only CPUs are skipped too: clang 14 cannot test for it) */
    return th_skip("test_onednn", "the CPU has no VNNI: oneDNN pre-scales int8 weights, results are not comparable");
  TH_RUN(test_conv);
  TH_RUN(test_conv_post_ops);
  TH_RUN(test_conv_new_scheme);
  TH_RUN(test_conv_zero_points_per_channel);
  TH_RUN(test_inner_product);
  TH_RUN(test_special_scales);
  TH_RUN(test_binary);
  TH_RUN(test_sum);
  TH_RUN(test_fused_rounding);
  TH_RUN(test_eltwise_scale);
  TH_RUN(test_nan);
  TH_RUN(test_eltwise_reach);
  CHECK(sum_zp_outputs > 0 && overrun_layers > 0);
  printf("  %ld convolutions (%ld outputs) whose last window runs past the bottom / right padding (oneDNN's truncating"
         " output size)\n", overrun_layers, overrun_outputs);
  printf("  %ld conv / inner product outputs through a sum post-op with a zero point (dnnl_post_ops_append_sum_v3)\n",
         sum_zp_outputs);
  printf("  %lld outputs compared with oneDNN (conv %lld, inner product %lld, binary %lld, sum %lld; %lld through an eltwise"
         " post-op scaled by other than 1); %d configurations where oneDNN crashed\n",
         compared, by_kind[0], by_kind[1], by_kind[2], by_kind[3], elt_scaled, crashed);
  dnnl_stream_destroy(strm), dnnl_engine_destroy(eng);
  return th_finish("test_onednn");
}
#endif
