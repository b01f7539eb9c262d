/* A small quantized convolution on mrtq's VTA simulator, on built-in data:
 * uint8 activations with a zero point, int8 weights, int32 bias, per-channel
 * requantization with nudge rounding. Prints the plan (tiles, buffering), the
 * start of the program, the cost estimate next to what the simulator counted,
 * and compares every output with the CPU statement of the layer and with the
 * real-valued convolution. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mrtq.h"
#include "mrtq/vta.h"

#define C 20
#define H 14
#define W 14
#define O 24

static unsigned char scratch[512 * 1024];
static unsigned char dram[256 * 1024];
static mrtq_vta_word words[4096];
static uint32_t uops[MRTQ_VTA_CONV_UOPS]; /* a layer's micro-op table is at most this long */

int main(int argc, char **argv) {
  int check = argc > 1 && !strcmp(argv[1], "--check"); /* as a test: one summary line of cases */
  mrtq_vta_config cfg = mrtq_vta_config_default();
  mrtq_vta_conv_shape s;
  mrtq_vta_conv_quant q;
  mrtq_vta_conv_plan p;
  mrtq_vta_sim sim;
  static uint8_t x[C * H * W], y[O * H * W], yref[O * H * W];
  static int8_t w[O * C * 9];
  int32_t bias[O];
  mrtq_mult m[O];
  const double sx = 0.02, sw = 0.005, sy = 0.05; /* real = s * (q - zp) */
  const int32_t zx = 120, zy = -5;
  double maxerr = 0;
  size_t i, k, mism = 0;
  mrtq_status st;
  uint32_t lcg = 7u;
  for (i = 0; i < C * H * W; i++) { /* a smooth image with some texture */
    lcg = lcg * 1664525u + 1013904223u;
    x[i] = (uint8_t)(128 + 100 * sin((double)i * 0.05) + (double)(lcg >> 28));
  }
  for (i = 0; i < O * C * 9; i++) {
    lcg = lcg * 1664525u + 1013904223u;
    w[i] = (int8_t)((int32_t)(lcg >> 25) - 64);
  }
  for (i = 0; i < O; i++) { /* per-channel scales: real weight scale sw * (1 + i/O) */
    double swc = sw * (1.0 + (double)i / O);
    bias[i] = (int32_t)(i * 37) - 400;
    mrtq_mult_q15(sx * swc / sy, &m[i]);
  }
  memset(&s, 0, sizeof s);
  s.n = 1, s.c = C, s.h = H, s.w = W, s.o = O, s.kh = s.kw = 3;
  s.stride_h = s.stride_w = 1, s.pad_h = s.pad_w = 1, s.dil_h = s.dil_w = 1;
  memset(&q, 0, sizeof q);
  q.x_type = MRTQ_U8, q.w_type = MRTQ_S8, q.x_zp = zx, q.w_zp = 0, q.bias = bias, q.m = m, q.nm = O;
  q.zp = zy, q.qmin = -128, q.qmax = 127, q.rounding = MRTQ_VTA_ROUND_NUDGE;
  st = mrtq_vta_conv_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &s, &q, w, &p);
  if (st != MRTQ_OK) {
    printf("plan: %s %s\n", mrtq_status_str(st), p.why);
    return 1;
  }
  printf("conv %dx%dx%d -> %d, 3x3, stride 1, pad 1; uint8 input (zp %d), int8 weights, per-channel nudge requant\n",
         C, H, W, O, zx);
  printf("plan: %zu input-channel and %zu output-channel blocks; strips of %zu output rows, groups of %zu output "
         "blocks; INP %zu entries x %zu buffer(s), WGT %zu entries per block, ACC %zu row set(s) of %zu + %zu "
         "parameter rows per block; accumulator bound %d bits, requant %s (%d ALU steps)\n",
         p.cb, p.ob, p.strip, p.grp, p.inp_half, p.inp_bufs, p.wgt_entries, p.acc_sets, p.grp * p.strip * p.wo,
         p.param_rows, p.in_bits,
         p.rq.wide ? "exact two-half product" : p.rq.pre_shift ? "with pre-shift" : "direct", p.rq.nsteps);
  mrtq_vta_sim_init(&cfg, MRTQ_VTA_PROFILE_SIM, scratch, sizeof scratch, dram, sizeof dram, &sim);
  st = mrtq_vta_conv_run(&p, &q, MRTQ_NCHW, x, w, words, sizeof words / sizeof words[0], uops,
                         sizeof uops / sizeof uops[0], &sim, y);
  if (st != MRTQ_OK) {
    printf("run: %s (%s)\n", mrtq_status_str(st), sim.error);
    return 1;
  }
  printf("program: %zu instructions; its first 30 (the group's weights and parameters, the first strip):\n", p.insns);
  for (k = 0; k < 30 && k < p.insns; k++) {
    mrtq_vta_insn in;
    char line[160];
    memset(&in, 0, sizeof in);
    mrtq_vta_decode(&cfg, &words[k], &in);
    mrtq_vta_disasm(&in, line, sizeof line);
    printf("  %3zu  %s\n", k, line);
  }
  printf("cost         estimate   simulator\n");
  printf("  GEMM ops   %9llu   %9llu\n", (unsigned long long)p.gemm_ops, (unsigned long long)sim.gemm_ops);
  printf("  ALU ops    %9llu   %9llu\n", (unsigned long long)p.alu_ops, (unsigned long long)sim.alu_ops);
  printf("  INP bytes  %9llu   %9llu\n", (unsigned long long)p.load_bytes[MRTQ_VTA_MEM_INP],
         (unsigned long long)sim.load_bytes[MRTQ_VTA_MEM_INP]);
  printf("  WGT bytes  %9llu   %9llu\n", (unsigned long long)p.load_bytes[MRTQ_VTA_MEM_WGT],
         (unsigned long long)sim.load_bytes[MRTQ_VTA_MEM_WGT]);
  printf("  ACC bytes  %9llu   %9llu\n", (unsigned long long)p.load_bytes[MRTQ_VTA_MEM_ACC],
         (unsigned long long)sim.load_bytes[MRTQ_VTA_MEM_ACC]);
  printf("  OUT bytes  %9llu   %9llu\n", (unsigned long long)p.store_bytes, (unsigned long long)sim.store_bytes);
  mrtq_vta_conv_ref(&p, &q, MRTQ_NCHW, x, w, yref);
  for (i = 0; i < O * H * W; i++) {
    size_t o = i / (H * W), oy = i / W % H, ox = i % W, c, ky, kx;
    double real, acc = bias[o]; /* the bias is in units of sx * sw_o, as the accumulator */
    for (c = 0; c < C; c++)
      for (ky = 0; ky < 3; ky++)
        for (kx = 0; kx < 3; kx++) {
          long iy = (long)(oy + ky) - 1, ix = (long)(ox + kx) - 1;
          if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
          acc += ((double)x[(c * H + (size_t)iy) * W + (size_t)ix] - zx) * w[((o * C + c) * 3 + ky) * 3 + kx];
        }
    real = acc * sx * sw * (1.0 + (double)o / O) / sy + zy;
    real = real < -128 ? -128 : real > 127 ? 127 : real;
    if (fabs(real - (int8_t)y[i]) > maxerr) maxerr = fabs(real - (int8_t)y[i]);
    mism += y[i] != yref[i];
  }
  printf("%zu of %d outputs differ from the CPU statement of the layer; max |out - real| = %.3f LSB\n", mism,
         O * H * W, maxerr);
  if (check) { /* cases: the bytes, the cost estimate against the simulator, the error against real math */
    int ok_bytes = mism == 0, ok_cost = p.gemm_ops == sim.gemm_ops && p.alu_ops == sim.alu_ops &&
                                        p.store_bytes == sim.store_bytes &&
                                        p.load_bytes[MRTQ_VTA_MEM_INP] == sim.load_bytes[MRTQ_VTA_MEM_INP] &&
                                        p.load_bytes[MRTQ_VTA_MEM_WGT] == sim.load_bytes[MRTQ_VTA_MEM_WGT];
    int ok_err = maxerr <= 1.0; /* one rounding of the output plus the Q15 multiplier's relative error */
    printf("test_example_vta_conv: %d passed, %d failed\n", ok_bytes + ok_cost + ok_err, 3 - ok_bytes - ok_cost - ok_err);
    return ok_bytes && ok_cost && ok_err ? 0 : 1;
  }
  return mism ? 1 : 0;
}
