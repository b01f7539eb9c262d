/* Whole networks as one VTA program (mrtq/vta/net.h): ResNet-18 and
 * MobileNet V1 (examples/vta_models.h, reduced input sizes) and random small
 * networks (CONV dense and depthwise, MAXPOOL, ADD; any zero points, paddings,
 * strides, a uint8 or int8 input, tensors read by several layers) compiled,
 * run on the simulator and compared byte for byte with the CPU reference
 * network (mrtq_vta_net_ref: mrtq_vta_conv_ref, mrtq_vta_add_ref,
 * mrtq_maxpool2d), every layer when every tensor is kept and the network's
 * outputs when dead tensors' bytes are reused. The per-layer cost counted
 * from the program must add up to the simulator's counters, and the program
 * must hold exactly one FINISH, its last instruction. The runs use the
 * simulator's schedules that run loads (or stores) as early as the tokens
 * allow, so a dependency between layers that no token orders shows up as
 * wrong bytes. */
#include <stdlib.h>

#include "harness.h"
#include "../examples/vta_models.h"

static long g_layers, g_bytes;

/* Compile, run and compare; returns the number of differing bytes (or -1 if
 * something was refused: reported through the checks). */
static long run_net(const mrtq_vta_config *cfg, const mrtq_vta_net *net, const void *x, int reuse, int schedule) {
  size_t wb = mrtq_vta_net_work_bytes(net->nlayers), sb = mrtq_vta_sim_scratch_bytes(cfg), i, k;
  void *work = malloc(wb), *scratch = malloc(sb);
  mrtq_vta_net_plan plan;
  mrtq_vta_sim sim;
  mrtq_vta_prog prog;
  mrtq_vta_cost tot, sum;
  mrtq_vta_insn in;
  uint8_t *dram = NULL;
  mrtq_vta_word *words = NULL;
  uint32_t *uops = NULL;
  int8_t **ref = (int8_t **)calloc(net->nlayers, sizeof *ref), *got = NULL;
  long diff = 0;
  int finishes = 0;
  mrtq_status st = MRTQ_OK;
  int oom = 1;
  if (!work || !scratch || !ref) goto out;
  oom = 0;
  st = mrtq_vta_net_plan_build(cfg, MRTQ_VTA_PROFILE_SIM, net, 4096, reuse, work, wb, &plan);
  CHECK_EQ(st, MRTQ_OK, "plan");
  if (st != MRTQ_OK) goto out;
  dram = (uint8_t *)malloc(plan.dram_bytes);
  words = (mrtq_vta_word *)malloc(plan.insns * sizeof *words), uops = (uint32_t *)malloc(plan.uops * 4);
  if (!dram || !words || !uops) {
    oom = 1;
    goto out;
  }
  for (i = 0; i < plan.dram_bytes; i++) dram[i] = (uint8_t)(i * 131 + 7); /* stale bytes everywhere: no zeroed DRAM relied on */
  for (i = 0; i < net->nlayers; i++)
    if (!(ref[i] = (int8_t *)malloc(plan.t[i + 1].n * plan.t[i + 1].c * plan.t[i + 1].h * plan.t[i + 1].w))) {
      oom = 1;
      goto out;
    }
  st = mrtq_vta_sim_init(cfg, MRTQ_VTA_PROFILE_SIM, scratch, sb, dram, plan.dram_bytes, &sim);
  sim.schedule = schedule; /* 1, 2: loads or stores as early as the tokens allow */
  if (st == MRTQ_OK) st = mrtq_vta_prog_init(cfg, words, plan.insns, uops, plan.uops, &prog);
  if (st == MRTQ_OK) st = mrtq_vta_net_load(&plan, net, dram, plan.dram_bytes);
  if (st == MRTQ_OK) st = mrtq_vta_net_input(&plan, net, x, dram, plan.dram_bytes);
  if (st == MRTQ_OK) st = mrtq_vta_net_build(&plan, net, &prog, dram, plan.dram_bytes);
  if (st == MRTQ_OK) st = mrtq_vta_sim_run(words, prog.n, &sim);
  if (st == MRTQ_OK) st = mrtq_vta_net_ref(&plan, net, x, ref);
  if (st == MRTQ_OK) st = mrtq_vta_net_cost(&plan, words, prog.n, &tot);
  CHECK_EQ(st, MRTQ_OK, "run (%s)", sim.error ? sim.error : "");
  if (st != MRTQ_OK) goto out;
  CHECK(prog.n <= plan.insns && prog.nuop <= plan.uops);
  /* exactly one FINISH, the last instruction */
  memset(&in, 0, sizeof in);
  for (k = 0; k < prog.n; k++) {
    memset(&in, 0, sizeof in);
    mrtq_vta_decode(cfg, &words[k], &in);
    finishes += in.opcode == MRTQ_VTA_FINISH;
  }
  CHECK_EQ(finishes, 1, "FINISH instructions");
  CHECK_EQ(in.opcode, MRTQ_VTA_FINISH, "the last instruction");
  CHECK_EQ(sim.finish_count, 1, "FINISH executed");
  /* the counted cost equals the simulator's; the layers' add up to it less the micro-op LOAD and the FINISH */
  CHECK_EQ(tot.gemm_ops, sim.gemm_ops, "GEMM");
  CHECK_EQ(tot.alu_ops, sim.alu_ops, "ALU");
  CHECK_EQ(tot.store_bytes, sim.store_bytes, "stored");
  for (k = 0; k < 6; k++) CHECK_EQ(tot.load_bytes[k], sim.load_bytes[k], "loaded, type %zu", k);
  memset(&sum, 0, sizeof sum);
  for (i = 0; i < net->nlayers; i++) {
    const mrtq_vta_cost *c = &plan.layer[i].cost;
    CHECK(c->load_bytes[MRTQ_VTA_MEM_UOP] <= plan.layer[i].uops * 4); /* each layer's table within its bound */
    sum.insns += c->insns, sum.gemm_ops += c->gemm_ops, sum.alu_ops += c->alu_ops, sum.store_bytes += c->store_bytes;
    for (k = 0; k < 6; k++) sum.load_bytes[k] += c->load_bytes[k];
    CHECK(plan.layer[i].compulsory > 0);
  }
  CHECK_EQ(sum.insns + 2, prog.n, "instructions: layers + the empty instruction 0 + FINISH");
  CHECK_EQ(sum.gemm_ops, tot.gemm_ops, "GEMM by layer");
  CHECK_EQ(sum.alu_ops, tot.alu_ops, "ALU by layer");
  CHECK_EQ(sum.store_bytes, tot.store_bytes, "stored by layer");
  for (k = 0; k < 6; k++) CHECK_EQ(sum.load_bytes[k], tot.load_bytes[k], "loaded by layer, type %zu", k);
  /* every kept tensor against the reference */
  for (i = 0; i < net->nlayers; i++) {
    const mrtq_vta_net_tensor *t = &plan.t[i + 1];
    size_t n = t->n * t->c * t->h * t->w;
    if (reuse && t->last != net->nlayers) continue; /* its bytes may be another tensor's now */
    free(got);
    if (!(got = (int8_t *)malloc(n))) {
      oom = 1;
      goto out;
    }
    CHECK_EQ(mrtq_vta_net_output(&plan, i + 1, dram, plan.dram_bytes, got), MRTQ_OK, "output");
    for (k = 0; k < n; k++) diff += got[k] != ref[i][k];
    g_layers++, g_bytes += (long)n;
  }
out:
  CHECK(!oom);
  if (ref)
    for (i = 0; i < net->nlayers; i++) free(ref[i]);
  free(ref), free(got), free(work), free(scratch), free(dram), free(words), free(uops);
  return st == MRTQ_OK && !oom ? diff : -1;
}

static void test_models(void) {
  mrtq_vta_config cfg = mrtq_vta_config_default();
  vtam m;
  int reuse;
  long before = g_bytes;
  CHECK_EQ(vtam_resnet18(&m, 64, 11), 0, "ResNet-18");
  CHECK_EQ(m.nlayers, 31, "ResNet-18 layers");
  for (reuse = 0; reuse < 2; reuse++) CHECK_EQ(run_net(&cfg, &m.net, m.x, reuse, 1 + reuse), 0, "ResNet-18, reuse %d", reuse);
  vtam_free(&m);
  CHECK_EQ(vtam_mobilenet(&m, 96, 12), 0, "MobileNet");
  CHECK_EQ(m.nlayers, 29, "MobileNet layers");
  for (reuse = 0; reuse < 2; reuse++) CHECK_EQ(run_net(&cfg, &m.net, m.x, reuse, 2 - reuse), 0, "MobileNet, reuse %d", reuse);
  vtam_free(&m);
  printf("  ResNet-18 at 64x64, MobileNet V1 at 96x96: %ld output bytes equal to the CPU reference\n", g_bytes - before);
}

/* A random network over small tensors. */
typedef struct rnet {
  mrtq_vta_net net;
  mrtq_vta_net_layer L[10];
  int8_t w[10][4096];
  int32_t bias[10][64];
  mrtq_mult m[10][64];
  size_t c[11], h[11], wd[11];
  int32_t zp[11];
  uint8_t x[2 * 24 * 14 * 14];
} rnet;

static void random_net(rnet *r) {
  size_t i, j, nl = (size_t)th_range(1, 9);
  memset(r, 0, sizeof *r);
  r->net.n = (size_t)th_range(1, 2), r->net.c = (size_t)th_range(1, 24), r->net.h = (size_t)th_range(3, 14);
  r->net.w = (size_t)th_range(3, 14), r->net.x_type = th_range(0, 1) ? MRTQ_U8 : MRTQ_S8;
  r->c[0] = r->net.c, r->h[0] = r->net.h, r->wd[0] = r->net.w;
  r->zp[0] = r->net.x_type == MRTQ_U8 ? (int32_t)th_range(0, 255) : (int32_t)th_range(-128, 127);
  for (j = 0; j < r->net.n * r->net.c * r->net.h * r->net.w; j++) r->x[j] = (uint8_t)th_range(0, 255);
  for (i = 0; i < nl; i++) {
    mrtq_vta_net_layer *L = &r->L[i];
    size_t in = (size_t)th_range(0, (int64_t)i), op = (size_t)th_range(0, 9), b2 = in;
    int u8in = in == 0 && r->net.x_type == MRTQ_U8;
    for (j = 0; j <= i; j++) /* an ADD's second operand: any tensor of the same shape */
      if (j != in && r->c[j] == r->c[in] && r->h[j] == r->h[in] && r->wd[j] == r->wd[in] && th_range(0, 1)) b2 = j;
    if (b2 == 0 && r->net.x_type == MRTQ_U8) b2 = in;
    L->in = in;
    L->s.n = r->net.n, L->s.c = r->c[in], L->s.h = r->h[in], L->s.w = r->wd[in], L->s.dil_h = L->s.dil_w = 1;
    if (op >= 8 && !u8in && !(b2 == 0 && r->net.x_type == MRTQ_U8)) { /* ADD */
      double s1 = 0.01 + 0.05 * th_range(0, 20), s2 = 0.01 + 0.05 * th_range(0, 20), so = 0.01 + 0.05 * th_range(1, 20);
      L->op = MRTQ_VTA_NET_ADD, L->in2 = b2, L->rounding = (int)th_range(0, 1) ? MRTQ_VTA_ROUND_NUDGE : MRTQ_VTA_ROUND_FLOOR;
      L->relu = (int)th_range(0, 1);
      r->zp[i + 1] = (int32_t)th_range(-128, 100);
      mrtq_vta_add_params_init(s1, r->zp[in], s2, r->zp[b2], so, r->zp[i + 1], &L->add);
      r->c[i + 1] = r->c[in], r->h[i + 1] = r->h[in], r->wd[i + 1] = r->wd[in];
      continue;
    }
    if (op >= 6 && !u8in) { /* MAXPOOL */
      size_t k = (size_t)th_range(1, 3);
      L->op = MRTQ_VTA_NET_MAXPOOL, L->s.o = L->s.c, L->s.kh = k, L->s.kw = (size_t)th_range(1, 3);
      L->s.stride_h = (size_t)th_range(1, 2), L->s.stride_w = (size_t)th_range(1, 2);
      L->s.pad_h = (size_t)th_range(0, (int64_t)L->s.kh - 1), L->s.pad_w = (size_t)th_range(0, (int64_t)L->s.kw - 1);
      if (L->s.kh > L->s.h + 2 * L->s.pad_h) L->s.kh = 1, L->s.pad_h = 0;
      if (L->s.kw > L->s.w + 2 * L->s.pad_w) L->s.kw = 1, L->s.pad_w = 0;
      r->zp[i + 1] = r->zp[in], r->c[i + 1] = r->c[in];
      r->h[i + 1] = (L->s.h + 2 * L->s.pad_h - L->s.kh) / L->s.stride_h + 1;
      r->wd[i + 1] = (L->s.w + 2 * L->s.pad_w - L->s.kw) / L->s.stride_w + 1;
      continue;
    }
    { /* CONV, dense or depthwise */
      int dw = th_range(0, 3) == 0;
      size_t o = dw ? L->s.c : (size_t)th_range(1, 40), kh = (size_t)th_range(1, 3), kw = (size_t)th_range(1, 3), nw;
      L->op = MRTQ_VTA_NET_CONV, L->s.o = o, L->s.groups = dw ? L->s.c : 1, L->s.kh = kh, L->s.kw = kw;
      L->s.stride_h = (size_t)th_range(1, 2), L->s.stride_w = (size_t)th_range(1, 2);
      L->s.pad_h = (size_t)th_range(0, 2), L->s.pad_w = (size_t)th_range(0, 2);
      L->s.dil_h = (size_t)th_range(1, 2);
      if ((kh - 1) * L->s.dil_h + 1 > L->s.h + 2 * L->s.pad_h) L->s.dil_h = 1, L->s.kh = kh = 1;
      if (kw > L->s.w + 2 * L->s.pad_w) L->s.kw = kw = 1;
      nw = o * (dw ? 1 : L->s.c) * kh * kw;
      if (nw > sizeof r->w[0] || o > 64) { /* too big for the buffers: a 1x1 with few channels */
        L->s.o = o = dw ? L->s.c : 8, L->s.kh = L->s.kw = kh = kw = 1, L->s.dil_h = 1;
        nw = o * (dw ? 1 : L->s.c);
      }
      for (j = 0; j < nw; j++) r->w[i][j] = (int8_t)th_range(-127, 126); /* W - w_zp in int8 for w_zp -1, 0 */
      for (j = 0; j < o; j++) {
        r->bias[i][j] = (int32_t)th_range(-5000, 5000);
        mrtq_mult_q15(1.0 / (double)th_range(16, 30000), &r->m[i][j]);
      }
      L->w = r->w[i];
      L->q.x_type = u8in ? MRTQ_U8 : MRTQ_S8, L->q.w_type = MRTQ_S8, L->q.x_zp = r->zp[in];
      L->q.w_zp = (int32_t)th_range(-1, 0), L->q.bias = th_range(0, 3) ? r->bias[i] : NULL;
      L->q.m = r->m[i], L->q.nm = th_range(0, 1) ? o : 1;
      r->zp[i + 1] = (int32_t)th_range(-128, 127);
      L->q.zp = r->zp[i + 1], L->q.qmin = th_range(0, 1) ? r->zp[i + 1] : -128, L->q.qmax = 127;
      L->q.rounding = th_range(0, 1) ? MRTQ_VTA_ROUND_NUDGE : MRTQ_VTA_ROUND_FLOOR;
      r->c[i + 1] = o;
      r->h[i + 1] = (L->s.h + 2 * L->s.pad_h - (L->s.kh - 1) * L->s.dil_h - 1) / L->s.stride_h + 1;
      r->wd[i + 1] = (L->s.w + 2 * L->s.pad_w - L->s.kw) / L->s.stride_w + 1;
    }
  }
  r->net.layer = r->L, r->net.nlayers = nl;
}

static void test_random(void) {
  mrtq_vta_config cfg = mrtq_vta_config_default();
  static rnet r;
  long nets = 0, refused = 0, bad = 0, before = g_bytes, ops[4] = {0, 0, 0, 0}, bordered = 0;
  int t;
  for (t = 0; t < 300; t++) {
    size_t wb, i;
    void *work;
    mrtq_vta_net_plan plan;
    random_net(&r);
    wb = mrtq_vta_net_work_bytes(r.net.nlayers), work = malloc(wb);
    if (!work) continue;
    /* a plan the layers' own planners refuse (two readers padding differently, a requant with no plan) is skipped */
    if (mrtq_vta_net_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &r.net, 64, 1, work, wb, &plan) != MRTQ_OK) {
      refused++;
      if (getenv("MRTQ_TEST_VERBOSE")) printf("    refused: %s\n", th_why ? th_why : "?");
      free(work);
      continue;
    }
    for (i = 0; i < r.net.nlayers; i++) ops[r.L[i].op]++, bordered += plan.t[i + 1].pad > 0;
    free(work);
    nets++;
    bad += run_net(&cfg, &r.net, r.x, t % 2, t % 3) != 0;
  }
  CHECK_EQ(bad, 0, "random networks differing from the reference");
  CHECK(nets >= 200 && ops[MRTQ_VTA_NET_CONV] > 300 && ops[MRTQ_VTA_NET_ADD] > 50 && ops[MRTQ_VTA_NET_MAXPOOL] > 100);
  CHECK(bordered > 100);
  printf("  %ld random networks (%ld CONV, %ld ADD, %ld MAXPOOL layers; %ld outputs with a border) equal to the "
         "reference, %ld output bytes; %ld refused by a layer's planner\n",
         nets, ops[1], ops[2], ops[3], bordered, g_bytes - before, refused);
}

/* A valid two-layer network to break one field at a time. */
static int8_t g_w[16 * 16 * 21];
static mrtq_mult g_m;
static void base_net(mrtq_vta_net *net, mrtq_vta_net_layer *L) {
  size_t i;
  memset(L, 0, 3 * sizeof *L);
  for (i = 0; i < sizeof g_w; i++) g_w[i] = (int8_t)(i % 7) - 3;
  mrtq_mult_q15(1.0 / 512, &g_m);
  L[0].op = MRTQ_VTA_NET_CONV, L[0].in = 0;
  L[0].s.n = 1, L[0].s.c = 16, L[0].s.h = L[0].s.w = 8, L[0].s.o = 16, L[0].s.kh = L[0].s.kw = 3;
  L[0].s.stride_h = L[0].s.stride_w = 1, L[0].s.pad_h = L[0].s.pad_w = 1, L[0].s.dil_h = L[0].s.dil_w = 1;
  L[0].q.x_type = L[0].q.w_type = MRTQ_S8, L[0].q.m = &g_m, L[0].q.nm = 1, L[0].q.qmin = -128, L[0].q.qmax = 127;
  L[0].q.rounding = MRTQ_VTA_ROUND_NUDGE, L[0].w = g_w;
  L[1] = L[0], L[1].op = MRTQ_VTA_NET_MAXPOOL, L[1].in = 1, L[1].w = NULL, L[1].s.stride_h = L[1].s.stride_w = 2;
  L[2].op = MRTQ_VTA_NET_ADD, L[2].in = 1, L[2].in2 = 0, L[2].rounding = MRTQ_VTA_ROUND_NUDGE;
  mrtq_vta_add_params_init(0.1, 0, 0.1, 0, 0.2, 0, &L[2].add);
  net->n = 1, net->c = 16, net->h = net->w = 8, net->x_type = MRTQ_S8, net->layer = L, net->nlayers = 3;
}

static void test_refusals(void) {
  mrtq_vta_config cfg = mrtq_vta_config_default(), c2;
  mrtq_vta_net net, n2;
  mrtq_vta_net_layer L[3], K[3];
  mrtq_vta_net_plan plan, p2;
  static uint64_t work[1 << 16];
  static uint8_t dram[1 << 20];
  static mrtq_vta_word words[8192];
  static uint32_t uops[2048];
  static int8_t y0[16 * 64], y1[16 * 64], y2[16 * 64];
  int8_t *ys[3] = {y0, y1, y2}, *ybad[3] = {y0, NULL, y2};
  const size_t wb = sizeof work;
  mrtq_vta_prog prog;
  mrtq_vta_cost tot;
  mrtq_vta_sim sim;
  static unsigned char scratch[1 << 20];
  base_net(&net, L);
  CHECK(mrtq_vta_net_work_bytes(3) <= wb);
  CHECK_EQ(mrtq_vta_net_work_bytes(SIZE_MAX), 0, "overflowing work size");
#define PB(n_, cfg_) mrtq_vta_net_plan_build((cfg_), MRTQ_VTA_PROFILE_SIM, (n_), 64, 1, work, wb, &p2)
  CHECK_EQ(PB(&net, &cfg), MRTQ_OK, "the base network");
  CHECK_REFUSED(mrtq_vta_net_plan_build(NULL, MRTQ_VTA_PROFILE_SIM, &net, 64, 1, work, wb, &p2), MRTQ_EINVAL, "cfg: NULL");
  CHECK_REFUSED(PB(NULL, &cfg), MRTQ_EINVAL, "net: NULL");
  CHECK_REFUSED(mrtq_vta_net_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &net, 64, 1, work, wb, NULL), MRTQ_EINVAL, "plan: NULL");
  CHECK_REFUSED(mrtq_vta_net_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &net, 64, 1, NULL, wb, &p2), MRTQ_EINVAL, "work: NULL");
  CHECK_REFUSED(mrtq_vta_net_plan_build(&cfg, (mrtq_vta_profile)9, &net, 64, 1, work, wb, &p2), MRTQ_EINVAL,
                "target: not an mrtq_vta_profile");
  CHECK_REFUSED(mrtq_vta_net_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &net, 64, 1, (char *)work + 4, wb - 8, &p2),
                MRTQ_EINVAL, "work: must be 8-byte aligned");
  CHECK_REFUSED(mrtq_vta_net_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &net, 64, 1, work, 100, &p2), MRTQ_ERANGE,
                "work_bytes: below");
  n2 = net, n2.nlayers = 0;
  CHECK_REFUSED(PB(&n2, &cfg), MRTQ_EINVAL, "net->nlayers: must be >= 1");
  n2 = net, n2.layer = NULL;
  CHECK_REFUSED(PB(&n2, &cfg), MRTQ_EINVAL, "net->layer: NULL");
  c2 = cfg, c2.log_block_out = 3;
  CHECK_REFUSED(PB(&net, &c2), MRTQ_EUNSUPPORTED, "cfg: a network needs BLOCK_IN == BLOCK_OUT");
  n2 = net, n2.x_type = MRTQ_S16;
  CHECK_REFUSED(PB(&n2, &cfg), MRTQ_EUNSUPPORTED, "net->x_type: must be MRTQ_S8 or MRTQ_U8");
  n2 = net, n2.h = 0;
  CHECK_REFUSED(PB(&n2, &cfg), MRTQ_ESHAPE, "net->n, c, h, w: each must be in [1, 65535]");
  n2 = net, n2.layer = K;
#define BREAK(stmt, code, why)     \
  do {                             \
    memcpy(K, L, sizeof K), stmt; \
    CHECK_REFUSED(PB(&n2, &cfg), code, why); \
  } while (0)
  BREAK(K[0].in = 1, MRTQ_EINVAL, "net->layer[i].in: must be 0");
  BREAK(K[2].in2 = 3, MRTQ_EINVAL, "net->layer[i].in2: must be 0");
  BREAK(K[1].op = (mrtq_vta_net_op)7, MRTQ_EINVAL, "net->layer[i].op: not an mrtq_vta_net_op");
  BREAK(K[0].w = NULL, MRTQ_EINVAL, "net->layer[i].w: NULL");
  BREAK(K[0].s.h = 9, MRTQ_ESHAPE, "net->layer[i].s: n, c, h, w must be the input tensor's");
  BREAK(K[0].q.x_type = MRTQ_U8, MRTQ_EUNSUPPORTED, "net->layer[i].q.x_type: must be the input tensor's type");
  BREAK(K[0].q.qmax = 255, MRTQ_EUNSUPPORTED, "net->layer[i].q: output bounds outside int8");
  BREAK(K[2].in2 = 2, MRTQ_ESHAPE, "net->layer[i].in, in2: the ADD's operands differ in shape");
  BREAK((K[1].s.o = 8), MRTQ_ESHAPE, "net->layer[i].s.o: a MAXPOOL keeps the channels");
  BREAK(K[1].s.dil_w = 2, MRTQ_EUNSUPPORTED, "net->layer[i].s: MAXPOOL takes no dilation");
  BREAK(K[1].s.stride_h = 0, MRTQ_ESHAPE, "net->layer[i].s: MAXPOOL kernel and stride must be in [1, 255]");
  BREAK(K[1].s.pad_w = 3, MRTQ_EUNSUPPORTED, "net->layer[i].s: MAXPOOL padding must be below the kernel");
  BREAK((K[1].s.kh = 11, K[1].s.pad_h = 0), MRTQ_ESHAPE, "net->layer[i].s: the MAXPOOL window is larger than the padded input");
  /* a second reader padding tensor 0 with another value than the CONV's zero point 0 */
  BREAK((K[1].in = 0, K[1].s.h = K[1].s.w = 8), MRTQ_EUNSUPPORTED,
        "net->layer: a tensor read with padding by layers that pad with different values");
  /* a U8 input read by MAXPOOL or ADD */
  n2.x_type = MRTQ_U8;
  BREAK((K[0].q.x_type = MRTQ_U8, K[1].in = 0), MRTQ_EUNSUPPORTED, "only CONV layers may read a U8 network input");
  BREAK((K[0].q.x_type = MRTQ_U8, K[2].in2 = 1, K[2].in = 0), MRTQ_EUNSUPPORTED,
        "only CONV layers may read a U8 network input");
  BREAK((K[0].q.x_type = MRTQ_U8, K[2].in = 1, K[2].in2 = 0), MRTQ_EUNSUPPORTED,
        "only CONV layers may read a U8 network input");
  n2.x_type = MRTQ_S8;
  { /* an ADD row longer than its chunk (512 vectors by default); a MAXPOOL row's taps beyond ACC */
    mrtq_vta_net n3 = net;
    mrtq_vta_net_layer A[2];
    memset(A, 0, sizeof A);
    n3.w = 600, n3.h = 1, n3.layer = A, n3.nlayers = 1;
    A[0] = L[2], A[0].in = A[0].in2 = 0;
    CHECK_REFUSED(PB(&n3, &cfg), MRTQ_EUNSUPPORTED, "net->layer[i]: an ADD row longer than its chunk");
    A[0] = L[1], A[0].in = 0, A[0].s.h = 1, A[0].s.w = 600, A[0].s.kh = 1, A[0].s.pad_h = 0, A[0].s.kw = 5;
    A[0].s.pad_w = 2, A[0].s.stride_w = 1;
    CHECK_REFUSED(PB(&n3, &cfg), MRTQ_ERANGE, "net->layer[i].s: a MAXPOOL row's taps do not fit");
    /* a padded output row wider than ACC: ACC of 512 rows, a 1x1 CONV output 500 wide read with padding 10 */
    c2 = cfg, c2.log_acc_buff_size = 15;
    n3.w = 500, n3.nlayers = 2;
    A[0] = L[0], A[0].s.h = 1, A[0].s.w = 500, A[0].s.kh = A[0].s.kw = 1, A[0].s.pad_h = A[0].s.pad_w = 0;
    A[0].q.rounding = MRTQ_VTA_ROUND_FLOOR; /* no scratch rows */
    A[1] = A[0], A[1].in = 1, A[1].s.kw = 21, A[1].s.pad_w = 10; /* output 500 wide, input read 520 wide */
    CHECK_REFUSED(PB(&n3, &c2), MRTQ_ERANGE, "net->layer[i]: a padded output row wider than the ACC SRAM");
    /* one micro-op table for all layers: 40 3x3 layers on a 1 KiB UOP SRAM (256 micro-ops) */
  }
  {
    static mrtq_vta_net_layer M[2];
    mrtq_vta_net n4 = net;
    /* a layer's own micro-op table: the ADD's 64 and the border fill's 2 on a UOP SRAM of 64 */
    M[0] = L[2], M[0].in = M[0].in2 = 0, M[1] = L[0], M[1].in = 1;
    n4.layer = M, n4.nlayers = 2;
    c2 = cfg, c2.log_uop_buff_size = 8;
    CHECK_REFUSED(PB(&n4, &c2), MRTQ_ERANGE, "net->layer[i]: its micro-op table may exceed the UOP SRAM");
    /* a DRAM image past 2^32 bytes: an input of 65535 x 500 x 65535 channels */
    n4 = net, n4.c = 65535, n4.h = 65535, n4.w = 500, n4.layer = M, n4.nlayers = 1;
    M[0] = L[2], M[0].in = M[0].in2 = 0;
    CHECK_REFUSED(PB(&n4, &cfg), MRTQ_ERANGE, "net: the DRAM image exceeds 2^32 bytes");
  }
  /* the calls after the plan */
  CHECK_EQ(mrtq_vta_net_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &net, 64, 1, work, wb, &plan), MRTQ_OK, "plan");
  CHECK(plan.dram_bytes <= sizeof dram);
  CHECK_REFUSED(mrtq_vta_net_load(NULL, &net, dram, sizeof dram), MRTQ_EINVAL, "plan: NULL");
  CHECK_REFUSED(mrtq_vta_net_load(&plan, NULL, dram, sizeof dram), MRTQ_EINVAL, "net: NULL");
  CHECK_REFUSED(mrtq_vta_net_load(&plan, &net, NULL, sizeof dram), MRTQ_EINVAL, "dram: NULL");
  CHECK_REFUSED(mrtq_vta_net_load(&plan, &net, dram, plan.dram_bytes - 1), MRTQ_ERANGE,
                "dram_bytes: below plan->dram_bytes");
  n2 = net, n2.nlayers = 2;
  CHECK_REFUSED(mrtq_vta_net_load(&plan, &n2, dram, sizeof dram), MRTQ_EINVAL,
                "plan: not mrtq_vta_net_plan_build's plan of net");
  CHECK_REFUSED(mrtq_vta_net_input(&plan, &net, NULL, dram, sizeof dram), MRTQ_EINVAL, "x: NULL");
  CHECK_EQ(mrtq_vta_prog_init(&cfg, words, 8192, uops, 2048, &prog), MRTQ_OK, "prog");
  CHECK_REFUSED(mrtq_vta_net_build(&plan, &net, NULL, dram, sizeof dram), MRTQ_EINVAL, "p: NULL");
  prog.cap = plan.insns - 1;
  CHECK_REFUSED(mrtq_vta_net_build(&plan, &net, &prog, dram, sizeof dram), MRTQ_ERANGE, "p->cap: below plan->insns");
  prog.cap = 8192, prog.uop_cap = plan.uops - 1;
  CHECK_REFUSED(mrtq_vta_net_build(&plan, &net, &prog, dram, sizeof dram), MRTQ_ERANGE, "p->uop_cap: below plan->uops");
  prog.uop_cap = 2048;
  { /* a program started with another configuration */
    mrtq_vta_prog other;
    mrtq_vta_config c3 = cfg;
    c3.log_acc_buff_size = 16;
    CHECK_EQ(mrtq_vta_prog_init(&c3, words, 8192, uops, 2048, &other), MRTQ_OK, "prog");
    CHECK_REFUSED(mrtq_vta_net_build(&plan, &net, &other, dram, sizeof dram), MRTQ_EINVAL,
                  "p->cfg: not the configuration the plan was built for");
  }
  CHECK_REFUSED(mrtq_vta_net_output(NULL, 1, dram, sizeof dram, y0), MRTQ_EINVAL, "plan: NULL");
  CHECK_REFUSED(mrtq_vta_net_output(&plan, 1, NULL, sizeof dram, y0), MRTQ_EINVAL, "dram: NULL");
  CHECK_REFUSED(mrtq_vta_net_output(&plan, 1, dram, sizeof dram, NULL), MRTQ_EINVAL, "y: NULL");
  CHECK_REFUSED(mrtq_vta_net_output(&plan, 4, dram, sizeof dram, y0), MRTQ_EINVAL, "tensor: must be <= plan->nlayers");
  CHECK_REFUSED(mrtq_vta_net_output(&plan, 1, dram, 10, y0), MRTQ_ERANGE, "dram_bytes: below plan->dram_bytes");
  CHECK_REFUSED(mrtq_vta_net_ref(NULL, &net, g_w, ys), MRTQ_EINVAL, "plan: NULL");
  CHECK_REFUSED(mrtq_vta_net_ref(&plan, NULL, g_w, ys), MRTQ_EINVAL, "net: NULL");
  CHECK_REFUSED(mrtq_vta_net_ref(&plan, &net, NULL, ys), MRTQ_EINVAL, "x: NULL");
  CHECK_REFUSED(mrtq_vta_net_ref(&plan, &net, g_w, NULL), MRTQ_EINVAL, "y: NULL");
  CHECK_REFUSED(mrtq_vta_net_ref(&plan, &n2, g_w, ys), MRTQ_EINVAL, "plan: not mrtq_vta_net_plan_build's plan of net");
  CHECK_REFUSED(mrtq_vta_net_ref(&plan, &net, g_w, ybad), MRTQ_EINVAL, "y[i]: NULL");
  CHECK_REFUSED(mrtq_vta_net_cost(NULL, words, 1, &tot), MRTQ_EINVAL, "plan: NULL");
  CHECK_REFUSED(mrtq_vta_net_cost(&plan, NULL, 1, &tot), MRTQ_EINVAL, "words: NULL");
  { /* a plan whose struct was not built */
    mrtq_vta_net_plan z;
    memset(&z, 0, sizeof z);
    CHECK_REFUSED(mrtq_vta_net_cost(&z, words, 1, &tot), MRTQ_EINVAL, "plan: not mrtq_vta_net_plan_build's plan");
  }
  /* a whole run, then the cost of a program cut short, and of an undecodable word */
  CHECK_EQ(mrtq_vta_sim_init(&cfg, MRTQ_VTA_PROFILE_SIM, scratch, sizeof scratch, dram, sizeof dram, &sim), MRTQ_OK, "sim");
  CHECK_EQ(mrtq_vta_net_load(&plan, &net, dram, sizeof dram), MRTQ_OK, "load");
  CHECK_EQ(mrtq_vta_net_input(&plan, &net, g_w, dram, sizeof dram), MRTQ_OK, "input");
  CHECK_EQ(mrtq_vta_net_build(&plan, &net, &prog, dram, sizeof dram), MRTQ_OK, "build");
  CHECK_EQ(mrtq_vta_sim_run(words, prog.n, &sim), MRTQ_OK, "run");
  CHECK_EQ(mrtq_vta_net_ref(&plan, &net, g_w, ys), MRTQ_OK, "ref");
  {
    static int8_t got[16 * 64];
    size_t k, d = 0;
    CHECK_EQ(mrtq_vta_net_output(&plan, 3, dram, sizeof dram, got), MRTQ_OK, "output");
    for (k = 0; k < 16 * 64; k++) d += got[k] != y2[k];
    CHECK_EQ(d, 0, "the ADD of a MAXPOOL and the input");
  }
  CHECK_REFUSED(mrtq_vta_net_cost(&plan, words, prog.n - 2, &tot), MRTQ_EINVAL,
                "plan->layer[i]: its instruction range lies beyond n");
  words[1].w[0] = 7, words[1].w[1] = 0; /* opcode 7 */
  CHECK_REFUSED(mrtq_vta_net_cost(&plan, words, prog.n, &tot), MRTQ_EINVAL, "in: opcode");
  /* the model */
  {
    mrtq_vta_model m = mrtq_vta_model_preset(0), u = mrtq_vta_model_preset(1), z = m;
    mrtq_vta_cost c;
    memset(&c, 0, sizeof c);
    c.gemm_ops = 1000, c.alu_ops = 100, c.load_bytes[MRTQ_VTA_MEM_INP] = 8000;
    /* Pynq: compute 1000 + 100 / 0.5 = 1200 cycles, memory 8000 / 8 = 1000: 1200 cycles at 100 MHz */
    CHECK(mrtq_vta_model_seconds(&m, &c) == 1200 / 100e6);
    c.store_bytes = 4000; /* memory now 12000 / 8 = 1500 cycles */
    CHECK(mrtq_vta_model_seconds(&m, &c) == 1500 / 100e6);
    CHECK(mrtq_vta_model_seconds(&u, &c) == 1200 / 333e6); /* 12000 / 16 = 750 < 1200 */
    z.alu_per_cycle = 0;
    CHECK(mrtq_vta_model_seconds(&z, &c) == 0);
    CHECK(mrtq_vta_model_seconds(NULL, &c) == 0);
  }
#undef BREAK
#undef PB
}

int main(void) {
  TH_RUN(test_models);
  TH_RUN(test_random);
  TH_RUN(test_refusals);
  printf("  %ld tensors compared\n", g_layers);
  return th_finish("test_vta_netprog");
}
