/* Differential against oneDNN (Debian libdnnl-dev 2.6, a test-only peer):
 * int8 convolution with output scales (common or per output channel), src
 * and dst zero points, s32 bias and sum / eltwise post-ops, byte for byte with
 * mrtq_conv2d_onednn. Byte-exactness needs a CPU with VNNI (without it oneDNN
 * pre-scales weights by 1/2); elsewhere, or without oneDNN at build time, the
 * test reports itself skipped. */
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

/* oneDNN's convolution: NHWC src/dst, weights as mrtq's OHWI ([g][o][kh][kw][i]),
 * s32 bias; attributes from the mrtq description. dst is read (sum) and written. */
static int onednn_conv(const mrtq_conv2d_shape *s, size_t ho, size_t wo, int src_u, const void *x, const int8_t *w,
                       const int32_t *bias, const mrtq_onednn_attr *a, int dst_u, void *dst, const char **impl) {
  dnnl_memory_desc_t src_md, wei_md, wei_user_md, bias_md, dst_md;
  dnnl_convolution_desc_t cd;
  dnnl_primitive_attr_t attr;
  dnnl_post_ops_t po;
  dnnl_primitive_desc_t pd;
  dnnl_primitive_t prim;
  dnnl_memory_t m_src, m_wei, m_wei_user, m_bias, m_dst;
  dnnl_dims_t sd = {(dnnl_dim_t)s->n, (dnnl_dim_t)s->c, (dnnl_dim_t)s->h, (dnnl_dim_t)s->w};
  dnnl_dims_t dd = {(dnnl_dim_t)s->n, (dnnl_dim_t)s->o, (dnnl_dim_t)ho, (dnnl_dim_t)wo};
  dnnl_dims_t bd = {(dnnl_dim_t)s->o};
  dnnl_dims_t strides = {(dnnl_dim_t)s->stride_h, (dnnl_dim_t)s->stride_w};
  dnnl_dims_t dil = {(dnnl_dim_t)s->dil_h - 1, (dnnl_dim_t)s->dil_w - 1};
  dnnl_dims_t pl = {(dnnl_dim_t)s->pad_top, (dnnl_dim_t)s->pad_left}, pr = {(dnnl_dim_t)s->pad_bottom, (dnnl_dim_t)s->pad_right};
  int g = s->groups > 1, i;
  dnnl_dims_t wd;
  const dnnl_memory_desc_t *chosen;
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
  DN(dnnl_primitive_attr_create(&attr));
  DN(dnnl_primitive_attr_set_output_scales(attr, a->per_oc ? (dnnl_dim_t)s->o : 1, a->per_oc ? 1 << 1 : 0, a->oscale));
  if (a->src_zp) DN(dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_SRC, 1, 0, &a->src_zp));
  if (a->dst_zp) DN(dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_DST, 1, 0, &a->dst_zp));
  DN(dnnl_post_ops_create(&po));
  for (i = 0; i < a->n_po; i++) {
    const mrtq_onednn_po *p = &a->po[i];
    if (p->kind == MRTQ_ONEDNN_SUM) DN(dnnl_post_ops_append_sum(po, p->scale));
    else if (p->kind == MRTQ_ONEDNN_RELU) DN(dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_relu, p->alpha, 0.0f));
    else if (p->kind == MRTQ_ONEDNN_LINEAR) DN(dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_linear, p->alpha, p->beta));
    else DN(dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_clip, p->alpha, p->beta));
  }
  DN(dnnl_primitive_attr_set_post_ops(attr, po));
  DN(dnnl_primitive_desc_create(&pd, &cd, attr, eng, NULL));
  DN(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, (void *)impl));
  chosen = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
  if (mem(&m_src, &src_md, (void *)(uintptr_t)x) || mem(&m_dst, &dst_md, dst) || mem(&m_bias, &bias_md, (void *)(uintptr_t)bias) ||
      mem(&m_wei_user, &wei_user_md, (void *)(uintptr_t)w) || mem(&m_wei, chosen, DNNL_MEMORY_ALLOCATE))
    return -1;
  { /* weights to the primitive's format */
    dnnl_primitive_desc_t rpd;
    dnnl_primitive_t r;
    dnnl_exec_arg_t ra[2] = {{DNNL_ARG_FROM, m_wei_user}, {DNNL_ARG_TO, m_wei}};
    DN(dnnl_reorder_primitive_desc_create(&rpd, &wei_user_md, eng, chosen, eng, NULL));
    DN(dnnl_primitive_create(&r, rpd));
    DN(dnnl_primitive_execute(r, strm, 2, ra));
    DN(dnnl_stream_wait(strm));
    dnnl_primitive_destroy(r), dnnl_primitive_desc_destroy(rpd);
  }
  DN(dnnl_primitive_create(&prim, pd));
  {
    dnnl_exec_arg_t args[4] = {{DNNL_ARG_SRC, m_src}, {DNNL_ARG_WEIGHTS, m_wei}, {DNNL_ARG_DST, m_dst}, {DNNL_ARG_BIAS, m_bias}};
    DN(dnnl_primitive_execute(prim, strm, bias ? 4 : 3, args));
    DN(dnnl_stream_wait(strm));
  }
  dnnl_primitive_destroy(prim), dnnl_primitive_desc_destroy(pd), dnnl_post_ops_destroy(po), dnnl_primitive_attr_destroy(attr);
  dnnl_memory_destroy(m_src), dnnl_memory_destroy(m_dst), dnnl_memory_destroy(m_bias), dnnl_memory_destroy(m_wei_user);
  dnnl_memory_destroy(m_wei);
  return 0;
}

static float rand_scale(int lo, int hi) { return ldexpf(1.0f + (float)(th_rand32() % 1000u) / 1000.0f, -(int)th_range(lo, hi)); }

static void conv_trial(int trial, int with_po) {
  static uint8_t x[2 * 10 * 10 * 24], ours[2 * 12 * 12 * 24], theirs[2 * 12 * 12 * 24], prev[2 * 12 * 12 * 24];
  static int8_t w[24 * 5 * 5 * 24];
  static int32_t bias[24];
  static float osc[24];
  mrtq_conv2d_shape s;
  mrtq_qoperand qx, qw;
  mrtq_onednn_attr a;
  size_t ho = 0, wo = 0, i, n, cg, og;
  int src_u = (int)(th_rand32() & 1u), dst_u = (int)(th_rand32() & 1u), use_bias = (int)(th_rand32() % 4u != 0);
  const char *impl = "?";
  memset(&s, 0, sizeof s), memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw), memset(&a, 0, sizeof a);
  s.groups = th_rand32() % 4u == 0 ? (size_t)th_range(2, 3) : 1;
  cg = (size_t)th_range(1, 8), og = (size_t)th_range(1, 8);
  if (th_rand32() % 5u == 0) s.groups = (size_t)th_range(2, 24), cg = 1, og = 1; /* depthwise */
  s.c = s.groups * cg, s.o = s.groups * og;
  s.n = (size_t)th_range(1, 2), s.h = (size_t)th_range(1, 10), s.w = (size_t)th_range(1, 10);
  s.kh = (size_t)th_range(1, 5), s.kw = (size_t)th_range(1, 5), s.stride_h = (size_t)th_range(1, 2);
  s.stride_w = (size_t)th_range(1, 2), s.dil_h = (size_t)th_range(1, 2), s.dil_w = (size_t)th_range(1, 2);
  s.pad_top = (size_t)th_range(0, 2), s.pad_bottom = (size_t)th_range(0, 2), s.pad_left = (size_t)th_range(0, 2);
  s.pad_right = (size_t)th_range(0, 2), s.layout = MRTQ_CONV_NHWC;
  if (mrtq_conv2d_out(&s, &ho, &wo) != MRTQ_OK) return;
  n = s.n * ho * wo * s.o;
  for (i = 0; i < s.n * s.h * s.w * s.c; i++) x[i] = (uint8_t)th_rand32();
  for (i = 0; i < s.o * s.kh * s.kw * cg; i++) w[i] = (int8_t)th_range(-128, 127);
  for (i = 0; i < n; i++) prev[i] = (uint8_t)th_rand32();
  a.per_oc = (int)(th_rand32() & 1u), a.oscale = osc;
  for (i = 0; i < s.o; i++) osc[i] = a.per_oc || i == 0 ? rand_scale(8, 13) : osc[0], bias[i] = (int32_t)th_range(-40000, 40000);
  a.src_zp = th_rand32() & 1u ? 0 : (int32_t)(src_u ? th_range(0, 255) : th_range(-128, 127));
  a.dst_zp = th_rand32() & 1u ? 0 : (int32_t)(dst_u ? th_range(0, 255) : th_range(-128, 127));
  if (with_po) { /* 1 to 4 post-ops, each kind at most once: oneDNN 2.6 gives a repeated kind the first one's
                   parameters (docs/kernels.md §8) */
    int k, np = (int)th_range(1, 4), kinds[4] = {0, 1, 2, 3};
    for (k = 3; k > 0; k--) { /* a random order of the four kinds */
      int j = (int)th_range(0, k), t = kinds[k];
      kinds[k] = kinds[j], kinds[j] = t;
    }
    for (k = 0; k < np; k++) {
      mrtq_onednn_po *p = &a.po[a.n_po++];
      switch (kinds[k]) {
        case 0: p->kind = MRTQ_ONEDNN_SUM, p->scale = th_rand32() & 1u ? 1.0f : rand_scale(0, 3); break;
        case 1: p->kind = MRTQ_ONEDNN_RELU, p->alpha = th_rand32() & 1u ? 0.0f : rand_scale(1, 4); break;
        case 2: p->kind = MRTQ_ONEDNN_LINEAR, p->alpha = rand_scale(0, 2), p->beta = (float)th_range(-20, 20) / 4.0f; break;
        default: p->kind = MRTQ_ONEDNN_CLIP, p->alpha = (float)th_range(-100, 0), p->beta = (float)th_range(1, 100); break;
      }
    }
  }
  for (i = 0; i < (size_t)a.n_po; i++) /* u8 src with a sum post-op: oneDNN 2.6's JIT crashes or differs (docs/kernels.md §8) */
    if (a.po[i].kind == MRTQ_ONEDNN_SUM && src_u) src_u = 0, a.src_zp = a.src_zp > 127 ? 127 : a.src_zp;
  qx.data = x, qx.is_unsigned = src_u, qx.zp = a.src_zp, qw.data = w;
  memcpy(ours, prev, n), memcpy(theirs, prev, n);
  CHECK_EQ(mrtq_conv2d_onednn(&s, &qx, &qw, use_bias ? bias : NULL, &a, dst_u, ours), MRTQ_OK, "ours");
  { /* oneDNN in a child process: some post-op chains crash its JIT code (docs/kernels.md §8) */
    uint8_t *shared = (uint8_t *)mmap(NULL, n + 64, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    pid_t pid;
    int status = 0;
    if (shared == MAP_FAILED) return;
    memcpy(shared, prev, n);
    fflush(stdout), fflush(stderr);
    pid = fork();
    if (pid == 0) _exit(onednn_conv(&s, ho, wo, src_u, x, w, use_bias ? bias : NULL, &a, dst_u, shared, &impl) ? 2 : 0);
    waitpid(pid, &status, 0);
    memcpy(theirs, shared, n);
    munmap(shared, n + 64);
    impl = "jit (child)";
    if (WIFSIGNALED(status)) {
      int k;
      crashed++;
      printf("  oneDNN crashed (signal %d): n%zu c%zu h%zu w%zu o%zu groups %zu k%zux%zu stride %zu,%zu dil %zu,%zu pads %zu,%zu,%zu,%zu"
             " %s -> %s, zp %d/%d, bias %d, post-ops", WTERMSIG(status), s.n, s.c, s.h, s.w, s.o, s.groups, s.kh, s.kw,
             s.stride_h, s.stride_w, s.dil_h, s.dil_w, s.pad_top, s.pad_left, s.pad_bottom, s.pad_right, src_u ? "u8" : "s8",
             dst_u ? "u8" : "s8", a.src_zp, a.dst_zp, use_bias);
      for (k = 0; k < a.n_po; k++) printf(" %s", a.po[k].kind == 0 ? "sum" : a.po[k].kind == 1 ? "relu" : a.po[k].kind == 2 ? "linear" : "clip");
      printf("\n");
      return;
    }
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0); /* oneDNN refused a configuration mrtq accepts */
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return;
  }
  for (i = 0; i < n; i++)
    if (ours[i] != theirs[i])
      CHECK_EQ(ours[i], theirs[i], "trial %d element %zu (po %d first %d %g %g %g, src_u %d dst_u %d zp %d/%d, k %zux%zu)", trial, i,
               a.n_po, a.po[0].kind, a.po[0].scale, a.po[0].alpha, a.po[0].beta, src_u, dst_u, a.src_zp, a.dst_zp, s.kh, s.kw);
  compared += (long long)n;
}

static void test_conv(void) {
  int trial;
  long long before = compared;
  for (trial = 0; trial < 200; trial++) conv_trial(trial, 0);
  printf("  conv, scales + zero points + bias: %lld outputs\n", compared - before);
}

static void test_conv_post_ops(void) {
  int trial;
  long long before = compared;
  for (trial = 0; trial < 300; trial++) conv_trial(trial, 1);
  printf("  conv with sum / relu / linear / clip post-ops: %lld outputs\n", compared - before);
}

/* The sum and linear post-ops are fused multiply-adds in oneDNN's JIT (one
 * rounding). Constructed cases where one and two roundings give different
 * bytes: with q = fl(m * P) and e = m * P - q > 0 exactly, an addend of
 * 0.5 - q makes the two-rounding sum exactly 0.5 (-> 0, ties to even) and the
 * fused one 0.5 + e (-> 1). SUM: f = 0.5 - q from a 1x1 convolution with x =
 * 1, w = 1 and output scale f, prev = P; LINEAR: f = F, alpha = m, beta = 0.5
 * - fl(m F). */
static void test_fused_rounding(void) {
  int found[2] = {0, 0}, k;
  for (k = 1; k < 4000 && (found[0] < 8 || found[1] < 8); k++) {
    int kind = k & 1;
    float m = 0.5f + (float)k * 0.000123f, big = kind ? 37.3f : -60.0f, q;
    double e;
    static int8_t x[1] = {1}, w[1] = {1};
    uint8_t ours[1], theirs[1];
    float osc[1];
    mrtq_conv2d_shape s;
    mrtq_qoperand qx, qw;
    mrtq_onednn_attr a;
    const char *impl = "?";
    q = m * big;
    e = (double)m * big - (double)q;
    if (!(e > 0) || found[kind] >= 8) continue;
    memset(&s, 0, sizeof s), memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw), memset(&a, 0, sizeof a);
    s.n = s.c = s.h = s.w = s.o = s.kh = s.kw = s.stride_h = s.stride_w = s.dil_h = s.dil_w = s.groups = 1;
    s.layout = MRTQ_CONV_NHWC;
    a.oscale = osc, a.n_po = 1;
    if (kind == 0) osc[0] = 0.5f - q, a.po[0].kind = MRTQ_ONEDNN_SUM, a.po[0].scale = m;
    else osc[0] = big, a.po[0].kind = MRTQ_ONEDNN_LINEAR, a.po[0].alpha = m, a.po[0].beta = 0.5f - q;
    CHECK(q + (kind ? a.po[0].beta : osc[0]) == 0.5f); /* two roundings land exactly on the tie */
    qx.data = x, qw.data = w;
    ours[0] = theirs[0] = (uint8_t)(int8_t)(kind ? 0 : (int)big);
    CHECK_EQ(mrtq_conv2d_onednn(&s, &qx, &qw, NULL, &a, 0, ours), MRTQ_OK, "ours");
    CHECK_EQ((int8_t)ours[0], 1, "one rounding (two would give 0)");
    if (onednn_conv(&s, 1, 1, 0, x, w, NULL, &a, 0, theirs, &impl) != 0) continue;
    CHECK_EQ((int8_t)ours[0], (int8_t)theirs[0], "%s: m %a (%s)", kind ? "linear" : "sum", m, impl);
    found[kind]++, compared++;
  }
  CHECK(found[0] == 8 && found[1] == 8);
  printf("  fused sum / linear: %d + %d cases where one and two roundings differ\n", found[0], found[1]);
}

int main(void) {
  if (dnnl_engine_create(&eng, dnnl_cpu, 0) != dnnl_success || dnnl_stream_create(&strm, eng, dnnl_stream_default_flags) != dnnl_success)
    return th_skip("test_onednn", "no oneDNN CPU engine");
  if (!__builtin_cpu_supports("avx512vnni")) /* (AVX-VNNI-only CPUs are skipped too: clang 14 cannot test for it) */
    return th_skip("test_onednn", "the CPU has no VNNI: oneDNN pre-scales int8 weights, results are not comparable");
  TH_RUN(test_conv);
  TH_RUN(test_conv_post_ops);
  TH_RUN(test_fused_rounding);
  printf("  %lld outputs compared with oneDNN; %d configurations where oneDNN crashed\n", compared, crashed);
  dnnl_stream_destroy(strm), dnnl_engine_destroy(eng);
  return th_finish("test_onednn");
}
#endif
