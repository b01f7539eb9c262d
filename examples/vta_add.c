/* The VTA TFLite delegate's quantized ADD, end to end on built-in data:
 * derive the parameters from the tensors' scales and zero points, print the
 * program (micro-op load, loads, ALU ADD, requant, store), run it on mrtq's
 * VTA simulator for the functional simulator's profile and for the Xilinx HLS
 * core (no MUL: the multiply becomes shifts and adds), and compare every output
 * byte with the CPU reference and with exact real arithmetic. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mrtq.h"
#include "mrtq/vta.h"

#define N 1000 /* not a multiple of 16: the last vector is partial */

static unsigned char scratch[512 * 1024];
static unsigned char dram[64 * 1024];
static mrtq_vta_word words[512];

int main(void) {
  const float s1 = 0.05f, s2 = 0.02f, s_out = 0.06f;
  const int32_t z1 = 3, z2 = -7, z_out = -2;
  static const char *const prof_name[] = {"SIM", "HLS"};
  static const mrtq_vta_profile profs[] = {MRTQ_VTA_PROFILE_SIM, MRTQ_VTA_PROFILE_HLS};
  mrtq_vta_config cfg = mrtq_vta_config_default();
  mrtq_vta_add_params p;
  int8_t a[N], b[N], got[N], want[N];
  int i, pi, rnd, failures = 0;
  uint32_t lcg = 12345u;
  for (i = 0; i < N; i++) { /* a smooth ramp plus noise, full int8 range */
    lcg = lcg * 1664525u + 1013904223u;
    a[i] = (int8_t)(i % 256 - 128);
    b[i] = (int8_t)((int32_t)(lcg >> 24) - 128);
  }
  if (mrtq_vta_add_params_init(s1, z1, s2, z2, s_out, z_out, &p) != MRTQ_OK) return 1;
  printf("quantized ADD of %d int8 elements: s1 = %g (zp %d), s2 = %g (zp %d), out %g (zp %d)\n", N, (double)s1, z1,
         (double)s2, z2, (double)s_out, z_out);
  printf("host dequantization multipliers (Q15): in1 {%d, %d}, in2 {%d, %d}; device output multiplier {%d, %d}\n\n",
         p.in1.mult, p.in1.shift, p.in2.mult, p.in2.shift, p.out.mult, p.out.shift);
  for (rnd = 0; rnd < 2; rnd++)
    for (pi = 0; pi < 2; pi++) {
      mrtq_vta_sim sim;
      mrtq_vta_rq_plan plan;
      size_t ninsn = 0, k;
      int mism = 0, maxerr = 0;
      mrtq_status st;
      mrtq_vta_add_plan(&p, rnd, profs[pi], &plan);
      mrtq_vta_sim_init(&cfg, profs[pi], scratch, sizeof scratch, dram, sizeof dram, &sim);
      st = mrtq_vta_add_run(&p, rnd, a, b, N, words, 512, &sim, got, &ninsn);
      if (st != MRTQ_OK) {
        printf("run failed: %s (%s)\n", mrtq_status_str(st), sim.error);
        return 1;
      }
      mrtq_vta_add_ref(&p, rnd, a, b, N, want);
      for (i = 0; i < N; i++) {
        double real = ((double)s1 * (a[i] - z1) + (double)s2 * (b[i] - z2)) / (double)s_out + z_out;
        int e;
        real = real < -128 ? -128 : real > 127 ? 127 : real;
        e = (int)fabs(floor(real + 0.5) - got[i]);
        if (e > maxerr) maxerr = e;
        mism += got[i] != want[i];
      }
      printf("== %s rounding on the %s profile (%s): %zu instructions, %llu ALU micro-op executions\n",
             rnd ? "nudge" : "floor", prof_name[pi],
             plan.method == MRTQ_VTA_BY_MUL ? "MUL" : plan.method == MRTQ_VTA_BY_SHIFT_ADD ? "shift-add" : "power of two",
             ninsn, (unsigned long long)sim.alu_ops);
      if (rnd == 0) {
        for (k = 0; k < ninsn; k++) {
          mrtq_vta_insn in;
          char line[160];
          memset(&in, 0, sizeof in);
          mrtq_vta_decode(&cfg, &words[k], &in);
          mrtq_vta_disasm(&in, line, sizeof line);
          printf("  %3zu  %s\n", k, line);
        }
      }
      printf("  %d of %d bytes differ from the CPU reference; max |out - round(exact)| = %d LSB\n\n", mism, N, maxerr);
      failures += mism != 0;
    }
  printf("first outputs (a, b -> out):");
  for (i = 0; i < 6; i++) printf(" (%d, %d -> %d)", a[i], b[i], got[i]);
  printf("\n");
  return failures ? 1 : 0;
}
