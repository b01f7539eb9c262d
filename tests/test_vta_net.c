/* The DRAM planner (mrtq/vta/net.h): every placement checked against its
 * contract by brute force -- each buffer aligned and at or above the base,
 * no two buffers that share a live step overlapping, the end the highest
 * buffer's end -- and its end between the two bounds any placement has:
 * the peak over steps of the live bytes (below) and the sum with no reuse
 * (above). On ResNet-18's convolutions as VTA plans (mrtq_vta_conv_plan_build)
 * it reports where it lands. */
#include <stdlib.h>

#include "harness.h"
#include "mrtq/vta.h"

/* The contract, pairwise; returns the number of violations. */
static long check_plan(const mrtq_vta_dram_buf *b, size_t n, size_t base, const size_t *off, size_t end) {
  size_t i, j, top = base;
  long bad = 0;
  for (i = 0; i < n; i++) {
    if (b[i].bytes == 0) continue;
    if (off[i] % b[i].align || off[i] < base) bad++;
    if (off[i] + b[i].bytes > top) top = off[i] + b[i].bytes;
    for (j = 0; j < i; j++) {
      int live = b[j].bytes && !(b[j].last < b[i].first || b[i].last < b[j].first);
      if (live && off[i] < off[j] + b[j].bytes && off[j] < off[i] + b[i].bytes) bad++;
    }
  }
  return bad + (top != end);
}

/* The two bounds: peak of live bytes over steps, and no reuse. */
static void bounds(const mrtq_vta_dram_buf *b, size_t n, size_t *peak, size_t *sum) {
  size_t i, s, steps = 0;
  *peak = 0, *sum = 0;
  for (i = 0; i < n; i++) {
    if (b[i].last + 1 > steps) steps = b[i].last + 1;
    if (b[i].bytes) *sum += b[i].bytes + b[i].align - 1;
  }
  for (s = 0; s < steps; s++) {
    size_t live = 0;
    for (i = 0; i < n; i++)
      if (b[i].first <= s && s <= b[i].last) live += b[i].bytes;
    if (live > *peak) *peak = live;
  }
}

static void test_random_sets(void) {
  static mrtq_vta_dram_buf b[300];
  static size_t off[300], scr[300];
  long bad = 0, sets = 0;
  double worst = 1.0, total_ratio = 0;
  int t;
  for (t = 0; t < 400; t++) {
    size_t n = (size_t)th_range(0, t % 10 == 0 ? 300 : 40), steps = (size_t)th_range(1, 60), i, end = 0, peak, sum;
    size_t base = th_range(0, 1) ? 0 : (size_t)th_range(1, 1 << 20);
    for (i = 0; i < n; i++) {
      b[i].bytes = th_range(0, 9) == 0 ? 0 : (size_t)th_range(1, th_range(0, 1) ? 100 : 1 << 20);
      b[i].align = (size_t)1 << th_range(0, 12);
      b[i].first = (size_t)th_range(0, (int64_t)steps - 1);
      b[i].last = b[i].first + (size_t)th_range(0, th_range(0, 3) ? 2 : (int64_t)steps);
    }
    CHECK_EQ(mrtq_vta_dram_plan(b, n, base, scr, off, &end), MRTQ_OK, "plan");
    bad += check_plan(b, n, base, off, end);
    bounds(b, n, &peak, &sum);
    CHECK(end >= base + peak && end <= base + sum);
    if (peak) {
      double r = (double)(end - base) / (double)peak;
      total_ratio += r, sets++;
      if (r > worst) worst = r;
    }
  }
  CHECK_EQ(bad, 0, "placements breaking the contract");
  printf("  400 random sets (up to 300 buffers): end / peak live bytes %.3f on average, %.3f at worst\n",
         total_ratio / (double)sets, worst);
}

/* Small hand cases with their exact placement (derived by hand from the rule). */
static void test_exact(void) {
  mrtq_vta_dram_buf b[4];
  size_t off[4], scr[4], end = 0;
  /* A (100 B, steps 0-1), B (100 B, steps 2-3): B reuses A's bytes; C (50 B, steps 1-2) overlaps both in time */
  b[0].bytes = 100, b[0].align = 1, b[0].first = 0, b[0].last = 1;
  b[1].bytes = 100, b[1].align = 1, b[1].first = 2, b[1].last = 3;
  b[2].bytes = 50, b[2].align = 64, b[2].first = 1, b[2].last = 2;
  CHECK_EQ(mrtq_vta_dram_plan(b, 3, 4096, scr, off, &end), MRTQ_OK, "plan");
  CHECK_EQ(off[0], 4096, "A at the base");
  CHECK_EQ(off[1], 4096, "B reuses A (dead by step 2)");
  CHECK_EQ(off[2], 4096 + 128, "C after both, aligned to 64: 4196 -> 4224");
  CHECK_EQ(end, 4096 + 128 + 50, "end");
  /* a zero-size buffer is not placed: off = base */
  b[3].bytes = 0, b[3].align = 8, b[3].first = 0, b[3].last = 9;
  CHECK_EQ(mrtq_vta_dram_plan(b, 4, 0, scr, off, &end), MRTQ_OK, "plan");
  CHECK_EQ(off[3], 0, "zero-size");
  CHECK_EQ(end, 128 + 50, "end from 0");
}

static void test_refusals(void) {
  mrtq_vta_dram_buf b[2];
  size_t off[2] = {7, 7}, scr[2], end = 99;
  b[0].bytes = 10, b[0].align = 4, b[0].first = 0, b[0].last = 0;
  b[1] = b[0];
  CHECK_REFUSED(mrtq_vta_dram_plan(b, 2, 0, scr, off, NULL), MRTQ_EINVAL, "end: NULL");
  CHECK_REFUSED(mrtq_vta_dram_plan(NULL, 2, 0, scr, off, &end), MRTQ_EINVAL, "b: NULL");
  CHECK_REFUSED(mrtq_vta_dram_plan(b, 2, 0, scr, NULL, &end), MRTQ_EINVAL, "off: NULL");
  CHECK_REFUSED(mrtq_vta_dram_plan(b, 2, 0, NULL, off, &end), MRTQ_EINVAL, "scratch: NULL");
  b[1].align = 12;
  CHECK_REFUSED(mrtq_vta_dram_plan(b, 2, 0, scr, off, &end), MRTQ_EINVAL, "b[i].align: must be a power of two");
  b[1].align = 0;
  CHECK_REFUSED(mrtq_vta_dram_plan(b, 2, 0, scr, off, &end), MRTQ_EINVAL, "b[i].align: must be a power of two");
  b[1].align = 4, b[1].first = 3, b[1].last = 2;
  CHECK_REFUSED(mrtq_vta_dram_plan(b, 2, 0, scr, off, &end), MRTQ_EINVAL, "b[i].first: after b[i].last");
  b[1].first = 0, b[1].last = 0;
  CHECK_REFUSED(mrtq_vta_dram_plan(b, 2, SIZE_MAX - 8, scr, off, &end), MRTQ_EOVERFLOW, "b[i].bytes: an offset beyond");
  /* each fits alone, but the second lands past SIZE_MAX */
  b[0].bytes = b[1].bytes = SIZE_MAX / 2;
  CHECK_REFUSED(mrtq_vta_dram_plan(b, 2, 64, scr, off, &end), MRTQ_EOVERFLOW, "b: the plan's end beyond SIZE_MAX");
  CHECK_EQ(end, 99, "end not written");
  CHECK_EQ(mrtq_vta_dram_plan(NULL, 0, 5, NULL, NULL, &end), MRTQ_OK, "no buffers");
  CHECK_EQ(end, 5, "the base");
}

/* ResNet-18's convolutions on the default configuration, as one stream of
 * steps: step 2i runs layer i, step 2i + 1 is the host's repack of its output
 * into the next layer's padded input. Weights, parameter rows and micro-op
 * tables are written before the run (live from step 0 to their layer's);
 * layer i's input is live [2i - 1, 2i], its output [2i, 2i + 1]; the last
 * output until the end. */
static void test_resnet18(void) {
  static const size_t L[][7] = {/* c, h (= w), o, k, stride, pad, repeat */
                                {3, 224, 64, 7, 2, 3, 1},    {64, 56, 64, 3, 1, 1, 4},   {64, 56, 128, 3, 2, 1, 1},
                                {128, 28, 128, 3, 1, 1, 3},  {64, 56, 128, 1, 2, 0, 1},  {128, 28, 256, 3, 2, 1, 1},
                                {256, 14, 256, 3, 1, 1, 3},  {128, 28, 256, 1, 2, 0, 1}, {256, 14, 512, 3, 2, 1, 1},
                                {512, 7, 512, 3, 1, 1, 3},   {256, 14, 512, 1, 2, 0, 1}};
  static mrtq_vta_dram_buf b[200];
  static size_t off[200], scr[200];
  static mrtq_mult m[512];
  mrtq_vta_config cfg = mrtq_vta_config_default();
  size_t nl = 0, nb = 0, i, r, end = 0, peak, sum, weights = 0;
  double traffic = 0, compulsory = 0, worst = 0;
  for (i = 0; i < 512; i++) mrtq_mult_q15(1.0 / 4096, &m[i]);
  for (i = 0; i < sizeof L / sizeof L[0]; i++)
    for (r = 0; r < L[i][6]; r++, nl++) {
      mrtq_vta_conv_shape s;
      mrtq_vta_conv_quant q;
      mrtq_vta_conv_plan p;
      size_t st = 2 * nl;
      memset(&s, 0, sizeof s), memset(&q, 0, sizeof q), memset(&p, 0, sizeof p);
      s.n = 1, s.c = L[i][0], s.h = s.w = L[i][1], s.o = L[i][2], s.kh = s.kw = L[i][3];
      s.stride_h = s.stride_w = L[i][4], s.pad_h = s.pad_w = L[i][5], s.dil_h = s.dil_w = 1;
      q.x_type = q.w_type = MRTQ_S8, q.m = m, q.nm = s.o, q.qmin = -128, q.qmax = 127;
      q.rounding = MRTQ_VTA_ROUND_NUDGE;
      CHECK_EQ(mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &s, &q, NULL, &p), MRTQ_OK, "plan %zu", nl);
      b[nb].bytes = p.uops * 4, b[nb].align = 64, b[nb].first = 0, b[nb++].last = st;
      b[nb].bytes = p.w_bytes, b[nb].align = 64, b[nb].first = 0, b[nb++].last = st;
      b[nb].bytes = p.p_bytes, b[nb].align = 64, b[nb].first = 0, b[nb++].last = st;
      b[nb].bytes = p.x_bytes, b[nb].align = 64, b[nb].first = st ? st - 1 : 0, b[nb++].last = st;
      b[nb].bytes = p.y_bytes, b[nb].align = 64, b[nb].first = st, b[nb++].last = st + 1;
      weights += p.uops * 4 + p.w_bytes + p.p_bytes;
      { /* DRAM traffic of the plan (its cost estimate, equal to the simulator's counters: test_vta_conv) against
           the layer's compulsory traffic: every packed buffer once */
        double t = (double)p.store_bytes, c = (double)(p.uops * 4 + p.w_bytes + p.p_bytes + p.x_bytes + p.y_bytes);
        int k;
        for (k = 0; k < 6; k++) t += (double)p.load_bytes[k];
        traffic += t, compulsory += c;
        if (t / c > worst) worst = t / c;
        if (r == 0)
          printf("  layer %2zu %3zux%-3zu -> %3zu k%zu s%zu: DRAM traffic %7.2f MiB, compulsory %6.2f MiB (%.2fx)\n", nl,
                 s.c, s.h, s.o, s.kh, s.stride_h, t / 1048576.0, c / 1048576.0, t / c);
      }
    }
  b[nb - 1].last = 2 * nl + 5; /* the network's output, read by the host at the end */
  CHECK_EQ(mrtq_vta_dram_plan(b, nb, 4096, scr, off, &end), MRTQ_OK, "plan");
  CHECK_EQ(check_plan(b, nb, 4096, off, end), 0, "contract");
  bounds(b, nb, &peak, &sum);
  CHECK(end - 4096 >= peak && end - 4096 <= sum);
  printf("  ResNet-18, %zu conv layers, %zu buffers: planned %.2f MiB from 4 KiB (weights, parameters and micro-ops "
         "%.2f MiB), peak live %.2f MiB, no reuse %.2f MiB\n",
         nl, nb, (double)(end - 4096) / 1048576.0, (double)weights / 1048576.0, (double)peak / 1048576.0,
         (double)sum / 1048576.0);
  CHECK_EQ(nl, 20, "layers");
  printf("  ResNet-18 convolutions: DRAM traffic %.1f MiB against %.1f MiB compulsory (%.2fx; worst layer %.2fx)\n",
         traffic / 1048576.0, compulsory / 1048576.0, traffic / compulsory, worst);
}

int main(void) {
  TH_RUN(test_exact);
  TH_RUN(test_random_sets);
  TH_RUN(test_refusals);
  TH_RUN(test_resnet18);
  return th_finish("test_vta_net");
}
