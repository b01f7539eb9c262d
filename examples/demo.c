/* mrtq demo: the end-to-end path on built-in data.
 *
 * 1. Calibrate a built-in float tensor (a 4x64 activation map, per tensor and
 *    per channel), derive qparams under each scheme, quantize, and report the
 *    round-trip error in units of the scale.
 * 2. Requantize a built-in int32 accumulator tensor under every family and
 *    compare with exact math (the real product acc * scale + zp, rounded to
 *    nearest and clamped): max and mean |error| in output LSBs and the share of
 *    outputs that differ from the correctly rounded result. */
#include <math.h>
#include <stdio.h>

#include "mrtq.h"

#define C 4
#define HW 64
#define NACC 4096

static float act[C * HW];
static int32_t acc[NACC];

/* Deterministic built-in data: a smooth signal per channel plus a small
 * pseudo-random part (a fixed LCG), so every run prints the same table. */
static uint32_t lcg = 12345u;
static uint32_t next_u32(void) { return lcg = lcg * 1664525u + 1013904223u; }

static void make_data(void) {
  int c, i;
  for (c = 0; c < C; c++)
    for (i = 0; i < HW; i++)
      act[c * HW + i] = (float)((c + 1) * 0.75 * sin(0.1 * i + c) + 0.25 * c + ((int)(next_u32() >> 24) - 128) / 512.0);
  for (i = 0; i < NACC; i++) acc[i] = (int32_t)(next_u32() >> 14) - (1 << 17); /* conv-like spread, +-2^17 */
  acc[0] = INT32_MAX;
  acc[1] = INT32_MIN;
  acc[2] = 0;
}

static const char *scheme_name[] = {"MRT symmetric", "MRT zero point", "ONNX dynamic", "TFLite nudged"};

static void calibrate_and_quantize(void) {
  float lo, hi, cmin[C], cmax[C];
  size_t shape[2] = {C, HW};
  int s, c, i;
  printf("1. calibration of a %dx%d float tensor (range per tensor and per channel), int8 / uint8\n\n", C, HW);
  mrtq_minmax_f32(act, C * HW, &lo, &hi);
  mrtq_minmax_f32_axis(shape, 2, 0, act, cmin, cmax);
  printf("   tensor range [%.4f, %.4f]; channel ranges:", lo, hi);
  for (c = 0; c < C; c++) printf(" [%.3f, %.3f]", cmin[c], cmax[c]);
  printf("\n\n   %-15s %-6s %12s %6s   %-22s %-22s\n", "scheme", "type", "scale", "zp", "max|err| tensor (LSB)",
         "max|err| per-chan (LSB)");
  for (s = 0; s < 4; s++) {
    int sg;
    for (sg = 1; sg >= 0; sg--) {
      mrtq_qparams p, pc[C];
      double e_t = 0, e_c = 0;
      if (mrtq_qparams_from_range((mrtq_qscheme)s, lo, hi, sg ? MRTQ_S8 : MRTQ_U8, 0, &p) != MRTQ_OK ||
          mrtq_qparams_per_channel((mrtq_qscheme)s, cmin, cmax, C, sg ? MRTQ_S8 : MRTQ_U8, 0, pc) != MRTQ_OK) {
        printf("   %-15s %-6s %12s (range has negatives: unsigned symmetric cannot hold it)\n", scheme_name[s],
               sg ? "int8" : "uint8", "-");
        continue;
      }
      for (c = 0; c < C; c++)
        for (i = 0; i < HW; i++) {
          float x = act[c * HW + i];
          int32_t q = mrtq_quantize_f32(x, p.scale, p.zp, p.qmin, p.qmax);
          int32_t qc = mrtq_quantize_f32(x, pc[c].scale, pc[c].zp, pc[c].qmin, pc[c].qmax);
          double et = fabs((double)mrtq_dequantize_f32(q, p.scale, p.zp) - x) / p.scale;
          double ec = fabs((double)mrtq_dequantize_f32(qc, pc[c].scale, pc[c].zp) - x) / pc[c].scale;
          if (et > e_t) e_t = et;
          if (ec > e_c) e_c = ec;
        }
      printf("   %-15s %-6s %12.8f %6d   %-22.4f %-22.4f\n", scheme_name[s], sg ? "int8" : "uint8", p.scale,
             p.zp, e_t, e_c);
    }
  }
  printf("   (MRT's zp = ceil(-sc * min) can push the top of the range one step past qmax: those values clamp)\n");
}

typedef struct family {
  const char *name;
  int kind; /* 0 q31_dbl, 1 q31_rndnu, 2 q15_vta, 3 q15_rndnu, 4 fp32 */
} family;

static void requantize(void) {
  static const family fam[] = {{"Q31 double rounding (TFLite)", 0}, {"Q31 single rounding", 1},
                               {"Q15 VTA (floor)", 2},            {"Q15 nudge rounding", 3},
                               {"fp32 (XNNPACK/oneDNN)", 4}};
  const double scales[] = {0.0123456789 / 64, 3.0517578125e-05 /* 2^-15, exact in every family */, 0.75 / 256};
  const int32_t zp = -3, qmin = -128, qmax = 127;
  size_t si, f;
  int i;
  printf("\n2. requantization of %d built-in int32 accumulators to int8 (zp %d, clamp [%d, %d])\n", NACC, zp, qmin,
         qmax);
  printf("   error against exact math: round(acc * scale) + zp, clamped (ties to +inf)\n");
  for (si = 0; si < sizeof scales / sizeof scales[0]; si++) {
    mrtq_mult m31 = {0, 0}, m15 = {0, 0};
    if (mrtq_mult_q31(scales[si], &m31) != MRTQ_OK || mrtq_mult_q15(scales[si], &m15) != MRTQ_OK) return;
    printf("\n   scale %.10g: Q31 {%d, %d}, Q15 {%d, %d}\n", scales[si], m31.mult, m31.shift, m15.mult, m15.shift);
    printf("   %-30s %14s %14s %16s\n", "family", "max|err| LSB", "mean|err| LSB", "off by >=1 (share)");
    for (f = 0; f < sizeof fam / sizeof fam[0]; f++) {
      double max_e = 0, sum_e = 0;
      int off = 0;
      for (i = 0; i < NACC; i++) {
        long double exact = (long double)acc[i] * (long double)scales[si] + zp;
        long double ideal = floorl(exact + 0.5L), e;
        int32_t y;
        if (ideal < qmin) ideal = qmin;
        if (ideal > qmax) ideal = qmax;
        if (exact < qmin) exact = qmin;
        if (exact > qmax) exact = qmax;
        switch (fam[f].kind) {
          case 0: y = mrtq_mul_q31_dbl(acc[i], m31); break;
          case 1: y = mrtq_mul_q31_rndnu(acc[i], m31); break;
          case 2: y = mrtq_mul_q15_vta(acc[i], m15); break;
          case 3: y = mrtq_mul_q15_rndnu(acc[i], m15); break;
          default: y = mrtq_requant_fp32(acc[i], (float)scales[si], 0, INT32_MIN, INT32_MAX); break;
        }
        {
          int64_t v = (int64_t)y + zp; /* exact, then clamp */
          y = (int32_t)(v < qmin ? qmin : v > qmax ? qmax : v);
        }
        e = fabsl((long double)y - exact);
        if (e > max_e) max_e = (double)e;
        sum_e += (double)e;
        off += (long double)y != ideal;
      }
      printf("   %-30s %14.4f %14.4f %15.2f%%\n", fam[f].name, max_e, sum_e / NACC, 100.0 * off / NACC);
    }
    {
      int wraps = 0;
      for (i = 0; i < NACC; i++) {
        int64_t p = (int64_t)acc[i] * m15.mult;
        wraps += p > INT32_MAX || p < INT32_MIN;
      }
      printf("   (Q15 VTA multiplies in 32 bits and wraps, as the hardware does: %d of %d products here exceed\n"
             "    int32 and come out as garbage; the VTA delegate only feeds it small values: int8 inputs shifted left by 7)\n", wraps, NACC);
    }
  }
}

int main(void) {
  printf("mrtq %s demo (built-in data)\n\n", MRTQ_VERSION_STRING);
  make_data();
  calibrate_and_quantize();
  requantize();
  return 0;
}
