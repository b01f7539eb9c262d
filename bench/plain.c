/* The plain-loop baseline (C compiled as C, no -m flag): each family written
 * the way a user writes it without mrtq, one scheme per loop, its constants
 * hoisted, the code of its origin restated plainly:
 *   Q31_DBL    TFLite's MultiplyByQuantizedMultiplier with gemmlowp's scalar
 *              SaturatingRoundingDoublingHighMul (nudge, then a truncating
 *              division) and RoundingDivideByPOT (mask and threshold);
 *   Q31_RNDNU, Q15_RNDNU  (x M + 2^(k-1)) >> k in int64 (TFLITE_SINGLE_ROUNDING);
 *   Q15_VTA    the VTA delegate's ALU sequence: int32 multiply, shift right;
 *   FP32       XNNPACK's scalar "fmagic" requantization: clamp in float, add
 *              the 1.5 2^23 magic number, read the integer from the bits.
 * Each adds the zero point and clamps to int8. The benchmark checks its bytes
 * against mrtq's scalar path before timing it. */
#include <string.h>

#include "shim.h"

static int32_t plain_srdhm(int32_t a, int32_t b) {
  int overflow = a == b && a == INT32_MIN;
  int64_t ab = (int64_t)a * b;
  int32_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
  int32_t r = (int32_t)((ab + nudge) / ((int64_t)1 << 31));
  return overflow ? INT32_MAX : r;
}

static int32_t plain_rdivpot(int32_t x, int e) {
  int32_t mask = (int32_t)(((int64_t)1 << e) - 1), rem = x & mask, thr = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> e) + (rem > thr ? 1 : 0);
}

static int8_t plain_clamp8(int32_t v) { return (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v); }

void mrtqb_plain(const mrtqb_rq *rq, const int32_t *acc, size_t n, int8_t *out) {
  int scheme;
  int32_t mult, shift, zp;
  float scale;
  size_t i;
  mrtqb_rq_params(rq, &scheme, &mult, &shift, &scale, &zp);
  switch (scheme) {
    case 0: {
      const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
      for (i = 0; i < n; i++) out[i] = plain_clamp8(plain_rdivpot(plain_srdhm(acc[i] * (1 << left), mult), right) + zp);
      break;
    }
    case 1:
    case 3: {
      const int k = (scheme == 1 ? 31 : 15) - shift;
      const int64_t rnd = k > 0 ? (int64_t)1 << (k - 1) : 0;
      for (i = 0; i < n; i++) out[i] = plain_clamp8((int32_t)(((int64_t)acc[i] * mult + rnd) >> k) + zp);
      break;
    }
    case 2: {
      const int k = 15 - shift;
      for (i = 0; i < n; i++) out[i] = plain_clamp8(((int32_t)((uint32_t)acc[i] * (uint32_t)mult) >> k) + zp);
      break;
    }
    default: {
      const float lo = (float)(-128 - zp), hi = (float)(127 - zp), magic = 12582912.0f;
      const int32_t bias = 0x4B400000 - zp; /* the magic number's bits, less the zero point */
      for (i = 0; i < n; i++) {
        float f = (float)acc[i] * scale;
        uint32_t u;
        f = f < lo ? lo : f > hi ? hi : f;
        f += magic;
        memcpy(&u, &f, sizeof u);
        out[i] = (int8_t)((int32_t)u - bias);
      }
      break;
    }
  }
}

/* Per channel, channel-inner: TFLite's reference per-channel conv output
 * stage (reference_integer_ops::ConvPerChannel: MultiplyByQuantizedMultiplier
 * with the channel's multiplier and shift, + output offset, clamp), or
 * XNNPACK's scalar fmagic with the channel's scale. */
void mrtqb_plain_perch(int scheme, const int32_t *mult, const int32_t *shift, const float *scale, int32_t zp,
                       const int32_t *acc, size_t rows, size_t ch, int8_t *out) {
  size_t r, c;
  if (scheme == 0) {
    for (r = 0; r < rows; r++, acc += ch, out += ch)
      for (c = 0; c < ch; c++) {
        const int left = shift[c] > 0 ? shift[c] : 0, right = shift[c] > 0 ? 0 : -shift[c];
        out[c] = plain_clamp8(plain_rdivpot(plain_srdhm(acc[c] * (1 << left), mult[c]), right) + zp);
      }
    return;
  }
  {
    const float lo = (float)(-128 - zp), hi = (float)(127 - zp), magic = 12582912.0f;
    const int32_t bias = 0x4B400000 - zp;
    for (r = 0; r < rows; r++, acc += ch, out += ch)
      for (c = 0; c < ch; c++) {
        float f = (float)acc[c] * scale[c];
        uint32_t u;
        f = f < lo ? lo : f > hi ? hi : f;
        f += magic;
        memcpy(&u, &f, sizeof u);
        out[c] = (int8_t)((int32_t)u - bias);
      }
  }
}
