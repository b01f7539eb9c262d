/* mrtq/requant.h -- the requantization families: an int32 accumulator becomes
 * a stored integer (layer 3; includes mrtq/fixedpoint.h). First the scalar
 * functions, each the specification of its family: total (a result for every
 * argument value, never undefined behaviour), named after its rounding, never
 * switched by a build macro. Then mrtq_rq, one requantization described once,
 * and the array functions; their SIMD twins (requant_sse41.h, requant_avx2.h,
 * requant_avx512.h, requant_neon.h, chosen by MRTQ_SIMD, or at run time on
 * x86-64 unless MRTQ_NO_DISPATCH: see mrtq.h) write the same bytes.
 * Normative math: docs/semantics.md sections 5-8.
 *
 * THE FAMILIES. x is the int32 accumulator, m = {M, s} the multiplier from
 * mrtq_mult_q31 (Q31 rows) or mrtq_mult_q15 (Q15 rows). Formulas are exact
 * integer or real arithmetic unless they say wrap32 (two's-complement wrap mod
 * 2^32); rnd_up(v) = floor(v + 1/2); fl() rounds to binary32; rne() rounds to
 * the nearest integer, ties to even. mrtq_rq_apply then adds zp (exactly) and
 * clamps to [qmin, qmax]; mrtq_requant_fp32 does both itself.
 *
 *   family (mrtq_scheme)  function            value
 *   -------------------   ------------------  --------------------------------------------------------------
 *   Q31 double rounding   mrtq_mul_q31_dbl    rdivpot(srdhm(sat32(x * 2^max(s,0)), M), max(-s,0))
 *     (MRTQ_Q31_DBL)
 *   Q31 single rounding   mrtq_mul_q31_rndnu  sat32(rnd_up(x * M * 2^(s-31)))
 *     (MRTQ_Q31_RNDNU)
 *   Q31 on int64          mrtq_mul_q31_x64    rm = min(floor((M + 2^15) / 2^16), 2^15 - 1);
 *     (no mrtq_scheme)                        sat32(rnd_up(x * rm * 2^(s-15))), x an int64
 *   Q15 VTA               mrtq_mul_q15_vta    p = wrap32(x * M), k = 15 - s;
 *     (MRTQ_Q15_VTA)                          k >= 0: floor(p / 2^k);  k < 0: wrap32(p * 2^-k)
 *   Q15 nudge             mrtq_mul_q15_rndnu  sat32(rnd_up(x * M * 2^(s-15)))
 *     (MRTQ_Q15_RNDNU)
 *   fp32 (MRTQ_FP32)      mrtq_requant_fp32   clamp(rne(fl(fl(x) * scale)) + zp, qmin, qmax)
 *   VTA dequantization    mrtq_dequant_vta    ~ 2^7 * (q - zp) * M * 2^(s-15) in the delegate's int16 steps
 *   MRT rounding shift    mrtq_rshift_clip    clip(rnd_up(x / 2^b), +-(2^(p-1) - 1))   (in fixedpoint.h)
 *
 *   family       bit-exact domain                        ties                          saturation / wrap
 *   -----------  --------------------------------------  ----------------------------  --------------------------
 *   Q31 double   M in [0, 2^31-1], s in [-31, 30],       toward +inf (srdhm), then     x * 2^s saturates (TFLite
 *                x * 2^max(s,0) within int32             away from zero (rdivpot)      overflows); srdhm at MIN*MIN
 *   Q31 single   M in [0, 2^31-1], s in [-31, 30]        toward +inf                   result saturates to int32
 *   Q31 x64      M in [0, 2^31-1], s in [-31, 7],        toward +inf (rm: also up)     result saturates to int32
 *                x in [-2^47, 2^47), result in int32
 *   Q15 VTA      M in [2^14, 2^15-1], s in [-15, 15]     none: floor, toward -inf      product and left shift wrap
 *   Q15 nudge    any M, s                                toward +inf                   result saturates to int32
 *   fp32         scale a finite float > 0                to even                       +-inf saturates, NaN -> 0
 *   dequant_vta  q in int8, zp and M in int16,           non-negative: up; negative:   every step wraps mod 2^16
 *                s in [-15, 0]                           one below rnd_up (floor)
 *   rshift_clip  b in [0, 62], p in [1, 32]              toward +inf                   symmetric clip
 *   x is any int32 (any int64 for Q31 x64) except where a row restricts it. Outside the
 *   domains the formulas above still hold (each function's comment gives the
 *   edge cases).
 *
 *   bit-exact with  gemmlowp  TFLite ref  CMSIS-NN  XNNPACK      oneDNN   VTA delegate  MRT
 *   Q31 double      yes       default     default   "gemmlowp"   -        -             -
 *   Q31 single      -         single (1)  single    rndnu        -        -             -
 *   Q31 x64         -         16x8 (7)    -         -            -        -             -
 *   Q15 VTA         -         -           -         -            -        yes (2)       -
 *   Q15 nudge       -         -           -         -            -        -             -      (mrtq's own)
 *   fp32            -         -           -         fp32 x86 (3) yes (4)  -             -
 *   dequant_vta     -         -           -         -            -        yes (5)       -
 *   rshift_clip     -         -           -         -            -        -             yes (6)
 *   (1) TFLITE_SINGLE_ROUNDING builds. (2) its ADD's requantizing ALU tail
 *   (MUL, SHR) on the tvm-vta functional simulator. (3) XNNPACK computes the
 *   float scale itself (in_scale * kernel_scale / out_scale): pass the same
 *   float; ONNX Runtime's QLinearConv / QLinearMatMul are this family too,
 *   with their own float scale. (4) int8 convolution / inner product; oneDNN
 *   adds the destination zero point in float before rounding, which differs
 *   when fl(x) * scale is a half-integer and zp is odd (mrtq/attr.h has
 *   oneDNN's exact epilogue). (5) the host-side step of its ADD. (6) the
 *   definition of cvm_right_shift (its CPU kernels diverge from it; see
 *   fixedpoint.h). (7) TFLite's MultiplyByQuantizedMultiplier for an int64
 *   accumulator (internal/common.cc), identical in its default and
 *   TFLITE_SINGLE_ROUNDING builds: its 16x8 conv / depthwise / FC with an
 *   int64 bias and its int16 BATCH_MATMUL (mrtq/conv_s16.h). The two Q31
 *   families differ by 1 on about 8% of random inputs with s < 0; test each
 *   against its own definition.
 *
 * Float functions assume the default floating-point environment (round to
 * nearest even, no trapping) and a compiler that rounds every float
 * assignment to float (FLT_EVAL_METHOD 0, as on every x86-64 / AArch64
 * compiler); they are written so that no multiply can be contracted into an
 * FMA.
 *
 * Array functions return mrtq_status: they check their descriptors (each
 * mrtq_rq's scheme, the fields it does not read, qmin <= qmax) and refuse
 * NULL data pointers when there are
 * elements; they cannot check that the buffers hold the elements, or that
 * input and output do not overlap -- those are the caller's to ensure. A
 * refusal writes nothing. */
#ifndef MRTQ_REQUANT_H
#define MRTQ_REQUANT_H

#include "fixedpoint.h"

/* ---- SIMD selection (compile time; see mrtq.h). In MRTQ_EXTERN mode the
 * unit that defines MRTQ_IMPLEMENTATION chooses. ---- */
#define MRTQ_SIMD_SCALAR 0
#define MRTQ_SIMD_SSE41 1
#define MRTQ_SIMD_AVX2 2
#define MRTQ_SIMD_AVX512 3
#define MRTQ_SIMD_NEON 4
#if defined(MRTQ_NO_SIMD)
#undef MRTQ_SIMD
#define MRTQ_SIMD MRTQ_SIMD_SCALAR
#elif !defined(MRTQ_SIMD)
#define MRTQ__SIMD_DEFAULT 1 /* chosen here, not by the user: run-time dispatch may raise it */
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__)
#define MRTQ_SIMD MRTQ_SIMD_AVX512
#elif defined(__AVX2__)
#define MRTQ_SIMD MRTQ_SIMD_AVX2
#elif defined(__SSE4_1__)
#define MRTQ_SIMD MRTQ_SIMD_SSE41
#elif defined(__aarch64__) && defined(__ARM_NEON)
#define MRTQ_SIMD MRTQ_SIMD_NEON
#else
#define MRTQ_SIMD MRTQ_SIMD_SCALAR
#endif
#endif
#if MRTQ_SIMD == MRTQ_SIMD_AVX512 && !(defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__))
#error "MRTQ_SIMD=MRTQ_SIMD_AVX512 needs a compiler target with AVX-512 F, BW and DQ (e.g. -mavx512f -mavx512bw -mavx512dq)"
#elif MRTQ_SIMD == MRTQ_SIMD_AVX2 && !defined(__AVX2__)
#error "MRTQ_SIMD=MRTQ_SIMD_AVX2 needs a compiler target with AVX2 (e.g. -mavx2)"
#elif MRTQ_SIMD == MRTQ_SIMD_NEON && !(defined(__aarch64__) && defined(__ARM_NEON))
#error "MRTQ_SIMD=MRTQ_SIMD_NEON needs an AArch64 target with NEON"
#elif MRTQ_SIMD == MRTQ_SIMD_SSE41 && !defined(__SSE4_1__)
#error "MRTQ_SIMD=MRTQ_SIMD_SSE41 needs a compiler target with SSE4.1 (e.g. -msse4.1)"
#elif MRTQ_SIMD < 0 || MRTQ_SIMD > 4
#error "MRTQ_SIMD must be one of MRTQ_SIMD_SCALAR, _SSE41, _AVX2, _AVX512, _NEON"
#endif

/* ---- run-time dispatch (see mrtq.h, MRTQ_NO_DISPATCH). On x86-64 with gcc
 * or clang, when the user chose no path (no MRTQ_SIMD, MRTQ_NO_SIMD or
 * MRTQ_NO_DISPATCH) and the compiler target is below AVX-512, the three x86
 * twins are compiled with target pragmas and the array functions run the best
 * one the CPU (cpuid) and the OS (xgetbv) allow, chosen on first use. The
 * compile-time MRTQ_SIMD stays what the target enables. gcc >= 8 and
 * clang >= 9 (#pragma clang attribute with target); other compilers
 * (classic icc included) keep the compile-time path. ---- */
#if defined(MRTQ__SIMD_DEFAULT) && !defined(MRTQ_NO_DISPATCH) && MRTQ_SIMD != MRTQ_SIMD_AVX512 && \
    defined(__x86_64__) &&                                                                                \
    ((defined(__clang__) && __clang_major__ >= 9) ||                                                      \
     (defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_COMPILER) && __GNUC__ >= 8))
#define MRTQ__DISPATCH 1
#else
#define MRTQ__DISPATCH 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* ---- the fixed-point families (scalar, total) ---- */

/* Q31 double rounding: TFLite MultiplyByQuantizedMultiplier (default build),
 * gemmlowp, CMSIS-NN default, XNNPACK "gemmlowp" requantization:
 *   rdivpot(srdhm(x * 2^max(shift, 0), mult), max(-shift, 0))
 * i.e. first x * mult / 2^31 rounded to nearest with ties toward +infinity,
 * then a division by 2^-shift rounded to nearest with ties away from zero (two
 * roundings; they differ from single rounding by 1 on ~8% of random inputs).
 * Bit-exact with TFLite for mult in [0, 2^31 - 1], shift in [-31, 30] and
 * x * 2^max(shift, 0) within int32 (where TFLite is defined). Total outside:
 * the left shift saturates x * 2^shift to int32 (as the saturating shift of
 * gemmlowp / TFLite's NEON paths does); shift < -31 keeps rdivpot's exact
 * definition (result 0: srdhm never yields -2^31, the one input that would
 * give -1); any mult, negative included, follows the formula. */
MRTQ_API int32_t mrtq_mul_q31_dbl(int32_t x, mrtq_mult m);

/* Q31 single rounding: TFLite MultiplyByQuantizedMultiplier under
 * TFLITE_SINGLE_ROUNDING, CMSIS-NN single rounding, XNNPACK "rndnu":
 *   floor(x * mult / 2^(31 - shift) + 1/2)   (one rounding, ties toward +inf)
 * computed exactly in 64 bits, then saturated to int32. Bit-exact with TFLite
 * over its domain (mult in [0, 2^31 - 1], shift in [-31, 30]). Total: any
 * shift and mult keep the exact formula (31 - shift >= 64 gives 0). */
MRTQ_API int32_t mrtq_mul_q31_rndnu(int32_t x, mrtq_mult m);

/* Q31 multiplier on a 64-bit accumulator: TFLite's MultiplyByQuantizedMultiplier
 * for an int64_t x (internal/common.cc; the same in its default and
 * TFLITE_SINGLE_ROUNDING builds), what its 16x8 kernels with an int64 bias and
 * its int16 BATCH_MATMUL use. The Q31 mult is first reduced to 16 bits,
 *   rm = mult < 0x7FFF0000 ? floor((mult + 2^15) / 2^16) : 2^15 - 1
 *      (= min(floor((mult + 2^15) / 2^16), 2^15 - 1): to nearest, ties up),
 * then rounded once:
 *   floor(x * rm / 2^(15 - shift) + 1/2)   (to nearest, ties toward +infinity)
 * computed exactly (the product is carried in more than 64 bits), saturated
 * to int32. Bit-exact with TFLite over its domain: mult in [0, 2^31 - 1],
 * shift in [-31, 7], x in [-2^47, 2^47) and a result within int32 (TFLite
 * asserts all four; outside them its release build overflows int64 or wraps
 * the int32 result, and shift >= 15 is an undefined shift there). Total
 * outside: any x; any mult (a negative one follows the formula, rm in
 * [-2^15, 2^15 - 1]); any shift: 15 - shift <= 0 multiplies exactly by
 * 2^(shift - 15) (no rounding), 15 - shift >= 80 gives 0; always saturated.
 * The reduction drops the low 16 bits of mult (relative error up to 2^-15):
 * mult 0x7FFF8000 .. 2^31 - 1 all give 2^15 - 1, mult < 2^15 gives rm = 0. */
MRTQ_API int32_t mrtq_mul_q31_x64(int64_t x, mrtq_mult m);

/* Q15 as the VTA functional simulator executes the TFLite delegate's sequence
 * (MUL imm, SHR imm):
 *   p = (x * mult) mod 2^32 as int32 (wrapping multiply);
 *   k = 15 - shift;  k >= 0: floor(p / 2^k)  (arithmetic shift: ties and all
 *   fractions toward -inf);  k < 0: (p * 2^-k) mod 2^32 (wrapping left shift).
 * No rounding, no saturation. Bit-exact with the simulator for mult in
 * [2^14, 2^15 - 1] and shift in [-15, 15] (what mrtq_mult_q15 and mrtq_rq_init
 * give), any x. Total: shift amounts the hardware cannot take keep the exact
 * definition: k >= 32 gives 0 or -1, k <= -32 gives 0. */
MRTQ_API int32_t mrtq_mul_q15_vta(int32_t x, mrtq_mult m);

/* Q15 with nudge rounding (the rounding form of the VTA sequence, mrtq's own):
 *   floor(x * mult / 2^(15 - shift) + 1/2)  (ties toward +inf), exact (no wrap
 * in the multiply), saturated to int32. Total: any mult, shift. */
MRTQ_API int32_t mrtq_mul_q15_rndnu(int32_t x, mrtq_mult m);

/* The VTA TFLite delegate's host-side dequantization of an int8 input
 * (alkali-csd-fw simulateRealValue), the step that feeds its ADD on VTA.
 * Every intermediate is int16 as upstream, so it wraps modulo 2^16:
 *   v = (q - zp) mod 2^16;  w = (v * 2^7) mod 2^16          (left shift 7)
 *   p = w * mult16  (exact, |p| <= 2^30; mult16 = mult mod 2^16)
 *   r = floor((p + n) / 2^15), n = 2^14 if p >= 0 else 1 - 2^14
 *       (a nudge then a floor shift: non-negative ties go up, and every
 *        negative p comes out one lower than TFLite's truncating SRDHM,
 *        e.g. p = -2^7 gives -1, the tie p = -2^14 gives -1; p is always a
 *        multiple of 2^7)
 *   r = INT16_MAX if w == mult16 == INT16_MIN (upstream's overflow guard);
 *   r = r mod 2^16, then y = floor(r / 2^-shift)            (for shift <= 0)
 * Bit-exact with the delegate over its domain: q in [-128, 127], zp and mult
 * in int16, shift in [-15, 0] (what mrtq_mult_q15 gives for the delegate's
 * input scales, which are <= 1/2). Total outside it: shift < -31 acts as -31;
 * shift > 0 (undefined upstream) gives (r * 2^shift) mod 2^16, 0 from 16 on. */
MRTQ_API int32_t mrtq_dequant_vta(int32_t q, int32_t zp, mrtq_mult m);

/* ---- float families (scalar, total) ---- */

/* fp32 requantization as XNNPACK's x86 qs8 kernels and oneDNN's int8
 * primitives compute it:
 *   f = (float)acc * scale          (two float roundings, no FMA)
 *   clamp(rne(f) + zp, qmin, qmax)  (round to nearest, ties to even; the sum
 *                                    exact)
 * (equal to XNNPACK's float clamp to [qmin - zp, qmax - zp] before rounding,
 * since the bounds are integers). Total: f = +-inf saturates; f NaN (scale
 * NaN) counts as 0; if qmin > qmax the result is qmax. */
MRTQ_API int32_t mrtq_requant_fp32(int32_t acc, float scale, int32_t zp, int32_t qmin, int32_t qmax);

/* ONNX QuantizeLinear: clamp(rne(x / scale) + zp, qmin, qmax) (x / scale is
 * one correctly rounded float division; ties to even). For the standard types
 * pass [-128, 127] or [0, 255]. Total: +-inf quotients saturate; NaN (x NaN,
 * or 0/0) counts as 0, giving clamp(zp) (ONNX Runtime stores the type's
 * minimum for NaN); qmin > qmax gives qmax. */
MRTQ_API int32_t mrtq_quantize_f32(float x, float scale, int32_t zp, int32_t qmin, int32_t qmax);

/* ONNX DequantizeLinear: (float)(q - zp) * scale, the difference exact in 64
 * bits and then rounded to float (exact whenever |q - zp| <= 2^24), one float
 * multiply. Total. */
MRTQ_API float mrtq_dequantize_f32(int32_t q, float scale, int32_t zp);

/* ---- one requantization, described once ---- */

typedef enum mrtq_scheme {
  MRTQ_Q31_DBL = 0,   /* mrtq_mul_q31_dbl   (TFLite default, gemmlowp) */
  MRTQ_Q31_RNDNU = 1, /* mrtq_mul_q31_rndnu (TFLite single rounding, XNNPACK rndnu) */
  MRTQ_Q15_VTA = 2,   /* mrtq_mul_q15_vta   (VTA functional simulator) */
  MRTQ_Q15_RNDNU = 3, /* mrtq_mul_q15_rndnu (VTA sequence with nudge rounding) */
  MRTQ_FP32 = 4       /* mrtq_requant_fp32  (XNNPACK x86, oneDNN) */
} mrtq_scheme;

/* Filled by mrtq_rq_init. A hand-filled one must leave the fields its scheme
 * does not read at zero (the array functions refuse it otherwise). */
typedef struct mrtq_rq {
  mrtq_scheme scheme;
  mrtq_mult m;            /* fixed-point schemes: the encoded scale; MRTQ_FP32: {0, 0} */
  float scale;            /* MRTQ_FP32: (float)scale; fixed-point schemes: 0 */
  int32_t zp, qmin, qmax; /* output zero point and clamp bounds, qmin <= qmax */
} mrtq_rq;

/* Describe a requantization: scheme, real scale (> 0), output zero point and
 * clamp bounds, into *rq. The multiplier comes from mrtq_mult_q31 (Q31
 * schemes) or mrtq_mult_q15 (Q15 schemes) and scale is left 0; MRTQ_FP32
 * keeps (float)scale and m = {0, 0}.
 * Errors (nothing written to *rq):
 *   MRTQ_EINVAL  rq NULL; scale NaN or +-inf; scale <= 0; qmin > qmax; scheme
 *                not an mrtq_scheme.
 *   MRTQ_ERANGE  a scale the family cannot carry: flushed to zero by the
 *                encoder (Q31 below 2^-32 * (1 - 2^-32), Q15 below
 *                2^-16 * (1 - 2^-16); the delegate's 1e-6 cut-off lies inside
 *                that); Q31 scales >= 2^30 * (1 - 2^-32) (shift > 30, outside
 *                TFLite's domain); Q15 scales >= 2^15 * (1 - 2^-16) (shift >
 *                15: the VTA shift would turn left); FP32 scales above FLT_MAX
 *                or that round to 0 in float. */
MRTQ_API mrtq_status mrtq_rq_init(mrtq_scheme scheme, double scale, int32_t zp, int32_t qmin, int32_t qmax,
                                  mrtq_rq *rq);

/* Describe a requantization from a precomputed (multiplier, shift) pair, as
 * TFLite keeps it after QuantizeMultiplier (its OpData's output_multiplier /
 * output_shift; the per-channel arrays CMSIS-NN takes), instead of a real
 * scale: *rq = {scheme, m, scale 0, zp, qmin, qmax}, then mrtq_rq_apply
 * computes the scheme's function of m exactly as for an mrtq_rq_init result.
 * The shift is the frexp exponent (left shift when positive), which is what
 * TFLite's per-channel arrays and its int8 kernels' params hold; TFLite's
 * legacy uint8 OpData keeps the negated value (output_shift = -exponent) and
 * must be negated back. The pair must lie where the scheme's scalar function
 * is bit-exact with its origin:
 *   MRTQ_Q31_DBL, MRTQ_Q31_RNDNU  mult in [2^30, 2^31 - 1], shift in [-31, 30]
 *   MRTQ_Q15_VTA, MRTQ_Q15_RNDNU  mult in [2^14, 2^15 - 1], shift in [-15, 15]
 * (within those, each function still has its own domain for x: MRTQ_Q31_DBL
 * with shift > 0 is TFLite's only while x * 2^shift fits int32, MRTQ_Q31_RNDNU
 * only while the result does -- beyond, mrtq saturates where TFLite's code
 * wraps; see the family table above)
 * or be the pair {0, 0}, which TFLite's QuantizeMultiplier gives for a zero
 * scale and for a scale below ~2^-32 (flushed; mrtq_mult_q15 likewise below
 * its cut-off): every scheme maps every accumulator to 0, so the output is
 * clamp(zp, qmin, qmax) (per-channel conv in TFLite accepts such a channel).
 * Errors (nothing written to *rq):
 *   MRTQ_EINVAL  rq NULL; qmin > qmax; scheme not an mrtq_scheme; scheme
 *                MRTQ_FP32 (a float scale, no pair: use mrtq_rq_init).
 *   MRTQ_ERANGE  m.mult or m.shift outside the scheme's ranges above; m.mult
 *                0 with m.shift != 0. */
MRTQ_API mrtq_status mrtq_rq_from_mult(mrtq_scheme scheme, mrtq_mult m, int32_t zp, int32_t qmin, int32_t qmax,
                                       mrtq_rq *rq);

/* Per channel, from CMSIS-NN's (and TFLite's per-channel OpData's) two int32
 * arrays: rq[c] = the mrtq_rq_from_mult description of {mult[c], shift[c]},
 * zp, qmin, qmax, for c < n (one output zero point and one clamp for all
 * channels, as in TFLite's per-channel conv). Ready for the kernels that
 * take nrq descriptions (mrtq_conv2d_q8, mrtq_fc_q8, ...) and the _outer /
 * _inner array functions.
 * Errors (nothing written to rq): as mrtq_rq_from_mult for every channel,
 * the reason naming mult[c] / shift[c]; rq, mult or shift NULL while n > 0
 * -> MRTQ_EINVAL. n == 0 writes nothing (scheme, qmin and qmax are still
 * checked). */
MRTQ_API mrtq_status mrtq_rq_from_mult_ch(mrtq_scheme scheme, const int32_t *mult, const int32_t *shift, size_t n,
                                          int32_t zp, int32_t qmin, int32_t qmax, mrtq_rq *rq);

/* One element, the scalar specification of every array path. [lo, hi] is
 * the output type's range; qmin' and qmax' are rq->qmin and rq->qmax each
 * saturated into it (clamp to [qmin, qmax], then saturate to the type):
 *   fixed-point schemes: clamp(F(acc) + zp, qmin', qmax'), F the scheme's
 *     function above (its int32 result), the sum exact;
 *   MRTQ_FP32: mrtq_requant_fp32(acc, scale, zp, qmin', qmax').
 * Total and unchecked (it runs per element): rq must point to an mrtq_rq; a
 * scheme outside the enum computes as MRTQ_FP32, fields the scheme does not
 * read are not looked at, qmin > qmax gives qmax'. The array functions check
 * all of that before they call it. */
MRTQ_API int32_t mrtq_rq_apply(const mrtq_rq *rq, int32_t acc, int32_t lo, int32_t hi);

/* ---- arrays ----
 * Per tensor: out[i] = mrtq_rq_apply(rq, acc[i], type range), i < n, with the
 * build's SIMD path (MRTQ_SIMD) where it applies: the same bytes either way.
 * Any n (0 included), any alignment; acc and out must hold n elements and not
 * overlap.
 * Errors (nothing written):
 *   MRTQ_EINVAL  rq NULL; rq->scheme not an mrtq_scheme; rq->scale non-zero
 *                with a fixed-point scheme; rq->m.mult or rq->m.shift
 *                non-zero with MRTQ_FP32; rq->qmin > rq->qmax; acc or out
 *                NULL while n > 0. */
MRTQ_API mrtq_status mrtq_requant_s8(const mrtq_rq *rq, const int32_t *acc, size_t n, int8_t *out);
MRTQ_API mrtq_status mrtq_requant_u8(const mrtq_rq *rq, const int32_t *acc, size_t n, uint8_t *out);

/* Any output type: out is an array of n elements of dst_type (MRTQ_S8,
 * MRTQ_U8, MRTQ_S16, MRTQ_S32, or MRTQ_S4 packed as common.h states, (n + 1)
 * / 2 bytes, an odd n leaving the last high nibble as it was), element i =
 * mrtq_rq_apply(rq, acc[i], range of dst_type). S8 and U8 are
 * mrtq_requant_s8 / _u8.
 * Errors: those of mrtq_requant_s8; dst_type not an mrtq_dtype ->
 * MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_requant(const mrtq_rq *rq, const int32_t *acc, size_t n, mrtq_dtype dst_type, void *out);

/* Per channel, channel-outer layout (NCHW and the like): acc holds `outer`
 * blocks of `channels` runs of `inner` contiguous elements; run c of every
 * block uses rq[c] (rq holds `channels` descriptions).
 * Errors: as mrtq_requant_s8, for every rq[c] (rq NULL while channels > 0),
 * and acc / out NULL while outer * channels * inner > 0. */
MRTQ_API mrtq_status mrtq_requant_s8_outer(const mrtq_rq *rq, const int32_t *acc, size_t outer, size_t channels,
                                           size_t inner, int8_t *out);
MRTQ_API mrtq_status mrtq_requant_u8_outer(const mrtq_rq *rq, const int32_t *acc, size_t outer, size_t channels,
                                           size_t inner, uint8_t *out);

/* Per channel, channel-inner layout (NHWC and the like): acc holds `rows`
 * rows of `channels` elements; element c of every row uses rq[c]. The same
 * bytes on every path (in the default rounding mode, which the FP32 paths
 * assume: mrtq.h's determinism contract); speed: channels are taken 128 at a time, and a group
 * whose descriptions are all MRTQ_Q31_DBL with shift <= 0 (TFLite's per-
 * channel convolution) or all MRTQ_FP32 with a finite scale (XNNPACK's qc8),
 * each as mrtq_rq_init makes them, runs per row as 16 (AVX-512) or 8 (AVX2)
 * channels a vector, or a branch-free scalar loop; other groups
 * mrtq_rq_apply per element.
 * Errors: as the _outer forms (rows * channels elements). */
MRTQ_API mrtq_status mrtq_requant_s8_inner(const mrtq_rq *rq, const int32_t *acc, size_t rows, size_t channels,
                                           int8_t *out);
MRTQ_API mrtq_status mrtq_requant_u8_inner(const mrtq_rq *rq, const int32_t *acc, size_t rows, size_t channels,
                                           uint8_t *out);

/* Array quantize (ONNX QuantizeLinear): out[i] = mrtq_quantize_f32(x[i],
 * scale, zp, type range), and dequantize (ONNX DequantizeLinear): out[i] =
 * mrtq_dequantize_f32(q[i], scale, zp), with the build's AVX2 / AVX-512 path
 * where it applies (same bytes, same floats). Any scale and zp (the scalar
 * functions are total); any n and alignment; no overlap.
 * Errors (nothing written): x / q or out NULL while n > 0 -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_quantize_f32_s8(float scale, int32_t zp, const float *x, size_t n, int8_t *out);
MRTQ_API mrtq_status mrtq_quantize_f32_u8(float scale, int32_t zp, const float *x, size_t n, uint8_t *out);
MRTQ_API mrtq_status mrtq_dequantize_s8_f32(float scale, int32_t zp, const int8_t *q, size_t n, float *out);
MRTQ_API mrtq_status mrtq_dequantize_u8_f32(float scale, int32_t zp, const uint8_t *q, size_t n, float *out);

/* Per channel: scale[c], zp[c] for channel c (`channels` of each), in the
 * channel-outer (`outer` blocks of `channels` runs of `inner`) or
 * channel-inner (`rows` rows of `channels`) layout.
 * Errors (nothing written): scale or zp NULL while channels > 0; x / q or out
 * NULL while there are elements -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_quantize_f32_s8_outer(const float *scale, const int32_t *zp, const float *x, size_t outer,
                                                size_t channels, size_t inner, int8_t *out);
MRTQ_API mrtq_status mrtq_quantize_f32_u8_outer(const float *scale, const int32_t *zp, const float *x, size_t outer,
                                                size_t channels, size_t inner, uint8_t *out);
MRTQ_API mrtq_status mrtq_dequantize_s8_f32_outer(const float *scale, const int32_t *zp, const int8_t *q,
                                                  size_t outer, size_t channels, size_t inner, float *out);
MRTQ_API mrtq_status mrtq_dequantize_u8_f32_outer(const float *scale, const int32_t *zp, const uint8_t *q,
                                                  size_t outer, size_t channels, size_t inner, float *out);
MRTQ_API mrtq_status mrtq_quantize_f32_s8_inner(const float *scale, const int32_t *zp, const float *x, size_t rows,
                                                size_t channels, int8_t *out);
MRTQ_API mrtq_status mrtq_quantize_f32_u8_inner(const float *scale, const int32_t *zp, const float *x, size_t rows,
                                                size_t channels, uint8_t *out);
MRTQ_API mrtq_status mrtq_dequantize_s8_f32_inner(const float *scale, const int32_t *zp, const int8_t *q,
                                                  size_t rows, size_t channels, float *out);
MRTQ_API mrtq_status mrtq_dequantize_u8_f32_inner(const float *scale, const int32_t *zp, const uint8_t *q,
                                                  size_t rows, size_t channels, float *out);

/* ---- TFLite QUANTIZE between integer types, DEQUANTIZE to float ----
 * TFLite's QUANTIZE with an integer input is a requantization
 * (reference_ops::Requantize, kernels/internal/reference/requantize.h):
 *   out = clamp(mul_q31_dbl(x - zp_in, m) + zp_out, out_type's range),
 *   m = Q31((double)s_in / (double)s_out)  (QuantizeMultiplier on the float
 *   scales widened to double: the same in the TF interpreter's quantize.cc
 *   and TFLite Micro's quantize_common.cc).
 * mul_q31_dbl rounds to nearest twice: ties toward +infinity (SRDHM), then
 * ties away from zero (the rounding right shift). TFLite's shortcut for equal
 * scales (m = {2^30, 1}) between int8 and uint8 with zero points 128 apart,
 * out = x XOR 0x80, gives the same bytes as the formula (with m = {2^30, 1}
 * the multiply is exact: out = x - zp_in + zp_out = x +- 128), so mrtq has no
 * separate path. Which type pairs each TFLite accepts (in -> out):
 *   both              S16 -> S8, S16 -> S16, S16 -> S32, S32 -> S8, S32 -> S16,
 *                     S8 -> S8, S8 -> U8, U8 -> S8
 *   TF interpreter    U8 -> U8; S16 -> S16 only with both zero points 0
 *   (quantize.cc, tensorflow/tensorflow f841af26)
 *   TFLite Micro      S8 -> S16, S8 -> S32; S16 -> S16 with any zero points
 *   (quantize_common.cc, tflite-micro 90b983c2) */
typedef struct mrtq_tflite_quantize_params {
  mrtq_mult m;                /* Q31(s_in / s_out): mult 0 or in [2^30, 2^31 - 1], shift in [-31, 30] */
  int32_t zp_in, zp_out;      /* values of in_type / out_type */
  mrtq_dtype in_type, out_type; /* a pair from the table above */
} mrtq_tflite_quantize_params;

/* The TF interpreter's QUANTIZE (quantize.cc Prepare) for an integer input:
 * the pair (in_type, out_type) one of the interpreter's (table above), zero
 * points within their types (MRTQ_S32: any int32), S16 -> S16 with both zero
 * points 0; s_in, s_out TFLite's float scales, finite and > 0.
 * Errors (nothing written): p NULL, a scale NaN, infinite or <= 0, a type
 * outside mrtq_dtype, a zero point outside its type, S16 -> S16 with a zero
 * point not 0 -> MRTQ_EINVAL; a pair the interpreter does not take ->
 * MRTQ_EUNSUPPORTED; s_in / s_out >= 2^30 - 2^-2 (shift > 30: TFLite's
 * 1 << shift overflows) -> MRTQ_ERANGE. A ratio below 2^-32 flushes to {0, 0}
 * (out = clamp(zp_out)) as in TFLite. */
MRTQ_API mrtq_status mrtq_tflite_quantize_init(float s_in, int32_t zp_in, mrtq_dtype in_type, float s_out,
                                               int32_t zp_out, mrtq_dtype out_type, mrtq_tflite_quantize_params *p);

/* TFLite Micro's QUANTIZE (quantize_common.cc PrepareQuantizeReference): the
 * same multiplier; the pairs Micro takes (table above; S16 -> S16 with any
 * zero points). Errors as mrtq_tflite_quantize_init. */
MRTQ_API mrtq_status mrtq_tflite_quantize_init_micro(float s_in, int32_t zp_in, mrtq_dtype in_type, float s_out,
                                                     int32_t zp_out, mrtq_dtype out_type,
                                                     mrtq_tflite_quantize_params *p);

/* The parameters from the numbers TFLite's OpData holds (output_multiplier
 * and output_shift as m, the tensors' zero points), for either TFLite: m
 * {0, 0} or mult in [2^30, 2^31 - 1] with shift in [-31, 30]; a pair one of
 * the TFLites takes; zero points within their types. With the values
 * mrtq_tflite_quantize_init(_micro) computes it gives the same struct.
 * Errors (nothing written): p NULL, m outside its ranges, a type outside
 * mrtq_dtype, a zero point outside its type -> MRTQ_EINVAL; a pair neither
 * TFLite takes -> MRTQ_EUNSUPPORTED. */
MRTQ_API mrtq_status mrtq_tflite_quantize_init_mult(mrtq_mult m, int32_t zp_in, mrtq_dtype in_type, int32_t zp_out,
                                                    mrtq_dtype out_type, mrtq_tflite_quantize_params *p);

/* out[i] = clamp(mul_q31_dbl(in[i] - p->zp_in, p->m) + p->zp_out, range of
 * p->out_type), in of p->in_type, out of p->out_type (int16 / int32 at any
 * alignment; in and out may be the same array when the types are the same
 * size). Bit-exact with TFLite's reference Requantize where TFLite is defined;
 * outside it (an int32 input whose difference x - zp_in leaves int32, a
 * left shift of the difference that overflows int32, a sum beyond int32 --
 * undefined behaviour in TFLite) mrtq saturates each step to int32.
 * Errors (nothing written): p NULL, in or out NULL while n > 0, a struct
 * outside the constructors' rules (types a pair of either table, zero points
 * in their types, the multiplier's ranges) -> MRTQ_EINVAL naming the field;
 * a pair neither TFLite takes -> MRTQ_EUNSUPPORTED. */
MRTQ_API mrtq_status mrtq_tflite_quantize(const mrtq_tflite_quantize_params *p, const void *in, size_t n, void *out);

/* TFLite's DEQUANTIZE of type MRTQ_S8, MRTQ_U8 or MRTQ_S16 to float
 * (reference_ops::Dequantize / reference_integer_ops::Dequantize: the scale
 * held as a double, the difference as an int32):
 *   out[i] = (float)((double)scale * (double)(q[i] - zp))
 * The product is exact in double (24 + 17 bits), so the result is the exact
 * product rounded once to float, ties to even (the same value as
 * mrtq_dequantize_f32 whenever |q - zp| <= 2^24). The same in the TF
 * interpreter (dequantize.h) and TFLite Micro (dequantize.cc, 90b983c2). zp
 * may be any int32: the difference is exact in 64 bits (TFLite's int32
 * difference overflows, undefined, for |q - zp| >= 2^31); a product beyond
 * float's range gives +-FLT_MAX or +-infinity as round to nearest does.
 * Errors (nothing written): q or out NULL while n > 0, scale NaN or infinite
 * -> MRTQ_EINVAL; type another mrtq_dtype -> MRTQ_EUNSUPPORTED (TFLite's
 * DEQUANTIZE takes int8, uint8, int16 and float16), outside the enum ->
 * MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_tflite_dequantize(float scale, int32_t zp, const void *q, mrtq_dtype type, size_t n,
                                            float *out);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

/* ---- fixed-point families ---- */

MRTQ_API int32_t mrtq_mul_q31_dbl(int32_t x, mrtq_mult m) {
  int64_t sh = m.shift;
  int32_t xs = sh > 0 ? mrtq__shl_sat32(x, sh) : x;
  return mrtq_rdivpot(mrtq_srdhm(xs, m.mult), sh < 0 ? (sh < -63 ? 63 : (int)-sh) : 0);
}

/* Exact floor(x * mult * 2^(shift - F) + 1/2), saturated to int32. */
MRTQ__PRIV int32_t mrtq__mul_rndnu(int32_t x, mrtq_mult m, int F) {
  int64_t p = (int64_t)x * m.mult;  /* exact: |p| <= 2^62 */
  int64_t k = (int64_t)F - m.shift; /* right-shift amount */
  if (k > 0) return mrtq__sat32(mrtq_rshift_rndnu(p, k > 64 ? 64 : (int)k));
  return mrtq__shl_sat32(p, -k);
}

MRTQ_API int32_t mrtq_mul_q31_rndnu(int32_t x, mrtq_mult m) { return mrtq__mul_rndnu(x, m, 31); }

MRTQ_API int32_t mrtq_mul_q31_x64(int64_t x, mrtq_mult m) {
  /* x = xh 2^16 + xl, xl in [0, 2^16): x rm = p1 2^16 + p0 with p1 = xh rm
   * (|p1| <= 2^62) and p0 = xl rm (|p0| < 2^31), both exact in int64. */
  int64_t rm = m.mult < 0x7FFF0000 ? mrtq__asr64((int64_t)m.mult + 32768, 16) : 32767;
  int64_t xh = mrtq__asr64(x, 16), xl = (int64_t)((uint64_t)x & 0xffffu);
  int64_t p1 = xh * rm, p0 = xl * rm, k = (int64_t)15 - m.shift; /* k: the right shift */
  if (k >= 17) /* floor((p1 2^16 + p0 + 2^(k-1)) / 2^k) = rnd_up((p1 + floor(p0 / 2^16)) / 2^(k-16)) */
    return mrtq__sat32(mrtq_rshift_rndnu(p1 + mrtq__asr64(p0, 16), k >= 80 ? 64 : (int)(k - 16)));
  if (p1 > ((int64_t)1 << 40) || p1 < -((int64_t)1 << 40)) /* |x rm| > 2^56 - 2^31, k <= 16: beyond int32 */
    return p1 > 0 ? INT32_MAX : INT32_MIN;
  if (k >= 1) /* p1 2^(16-k) + floor((p0 + 2^(k-1)) / 2^k), exact: |p1 2^(16-k)| <= 2^55 */
    return mrtq__sat32(p1 * ((int64_t)1 << (16 - k)) + mrtq_rshift_rndnu(p0, (int)k));
  return mrtq__shl_sat32(p1 * 65536 + p0, -k); /* x rm exactly (|x rm| <= 2^56 + 2^31), times 2^-k */
}

MRTQ_API int32_t mrtq_mul_q15_vta(int32_t x, mrtq_mult m) {
  int32_t p = mrtq__wrap32((uint32_t)x * (uint32_t)m.mult);
  int64_t k = (int64_t)15 - m.shift;
  if (k >= 0) return mrtq__asr32(p, k > 31 ? 31 : (int)k);
  if (k <= -32) return 0;
  return mrtq__wrap32((uint32_t)p << (int)-k);
}

MRTQ_API int32_t mrtq_mul_q15_rndnu(int32_t x, mrtq_mult m) { return mrtq__mul_rndnu(x, m, 15); }

/* v modulo 2^16 as an int16 value (as a conversion to int16_t does on every
 * two's-complement target), returned as int32. */
MRTQ__PRIV int32_t mrtq__wrap16(int64_t v) {
  uint32_t u = (uint32_t)((uint64_t)v & 0xffffu);
  return u >= 0x8000u ? (int32_t)u - 0x10000 : (int32_t)u;
}

MRTQ_API int32_t mrtq_dequant_vta(int32_t q, int32_t zp, mrtq_mult m) {
  int32_t w = mrtq__wrap16((int64_t)mrtq__wrap16((int64_t)q - zp) * 128);
  int32_t mult = mrtq__wrap16(m.mult);
  int32_t p = w * mult; /* |w|, |mult| <= 2^15: fits */
  int32_t r = mrtq__asr32(p + (p >= 0 ? (1 << 14) : 1 - (1 << 14)), 15);
  if (w == mult && w == -32768) r = 32767;
  r = mrtq__wrap16(r);
  if (m.shift <= 0) return mrtq__asr32(r, m.shift < -31 ? 31 : (int)-m.shift);
  if (m.shift >= 16) return 0;
  return mrtq__wrap16((int64_t)r * ((int64_t)1 << m.shift));
}

/* ---- float families ---- */

/* float f -> nearest integer, ties to even, as int64; saturates at +-2^40
 * (beyond any int32 result plus zero point); NaN -> 0. Pure integer work on the
 * bit pattern: independent of the rounding mode and of FMA contraction. Also
 * used by the headers above. */
MRTQ__PRIV int64_t mrtq__rne_f32(float f) {
  uint32_t u, ex, s;
  uint64_t m, q, r, half;
  const int64_t big = (int64_t)1 << 40;
  memcpy(&u, &f, sizeof u);
  ex = (u >> 23) & 0xffu;
  m = u & 0x7fffffu;
  if (ex == 0xffu) return m ? 0 : (u >> 31) ? -big : big;
  if (ex < 126u) return 0; /* |f| < 1/2 */
  m |= 0x800000u;          /* f = +-m * 2^(ex - 150) */
  if (ex >= 150u) {
    q = ex - 150u > 16u ? (uint64_t)big : m << (ex - 150u);
  } else {
    s = 150u - ex; /* 1..24 */
    q = m >> s;
    r = m & (((uint64_t)1 << s) - 1u);
    half = (uint64_t)1 << (s - 1u);
    q += (r > half || (r == half && (q & 1u)));
  }
  return (u >> 31) ? -(int64_t)q : (int64_t)q;
}

MRTQ_API int32_t mrtq_requant_fp32(int32_t acc, float scale, int32_t zp, int32_t qmin, int32_t qmax) {
  float f = (float)acc * scale;
  return mrtq__clamp64(mrtq__rne_f32(f) + zp, qmin, qmax);
}

MRTQ_API int32_t mrtq_quantize_f32(float x, float scale, int32_t zp, int32_t qmin, int32_t qmax) {
  float f = x / scale;
  return mrtq__clamp64(mrtq__rne_f32(f) + zp, qmin, qmax);
}

MRTQ_API float mrtq_dequantize_f32(int32_t q, float scale, int32_t zp) { return (float)((int64_t)q - zp) * scale; }

/* ---- mrtq_rq ---- */

MRTQ_API mrtq_status mrtq_rq_init(mrtq_scheme scheme, double scale, int32_t zp, int32_t qmin, int32_t qmax,
                                  mrtq_rq *rq) {
  mrtq_rq r;
  if (!rq) return MRTQ__ERR(MRTQ_EINVAL, "rq: NULL");
  if (mrtq__nonfinite(scale)) return MRTQ__ERR(MRTQ_EINVAL, "scale: NaN or infinite");
  if (!(scale > 0)) return MRTQ__ERR(MRTQ_EINVAL, "scale: must be > 0");
  if (qmin > qmax) return MRTQ__ERR(MRTQ_EINVAL, "qmin: must be <= qmax");
  r.scheme = scheme;
  r.m.mult = 0;
  r.m.shift = 0;
  r.scale = 0.0f;
  r.zp = zp;
  r.qmin = qmin;
  r.qmax = qmax;
  switch (scheme) {
    case MRTQ_Q31_DBL:
    case MRTQ_Q31_RNDNU:
      mrtq__mult_encode(scale, 31, &r.m); /* scale checked above: cannot fail */
      if (r.m.mult == 0) return MRTQ__ERR(MRTQ_ERANGE, "scale: below the Q31 range (flushes to 0 below ~2^-32)");
      if (r.m.shift > 30) return MRTQ__ERR(MRTQ_ERANGE, "scale: above the Q31 range (>= ~2^30: shift > 30)");
      break;
    case MRTQ_Q15_VTA:
    case MRTQ_Q15_RNDNU:
      if (scale >= 1e-6) mrtq__mult_encode(scale, 15, &r.m); /* mrtq_mult_q15, checked above */
      if (r.m.mult == 0) return MRTQ__ERR(MRTQ_ERANGE, "scale: below the Q15 range (flushes to 0 below ~2^-16)");
      if (r.m.shift > 15)
        return MRTQ__ERR(MRTQ_ERANGE, "scale: above the Q15 range (>= ~2^15: shift > 15 turns the VTA shift left)");
      break;
    case MRTQ_FP32:
      if (!(scale <= 3.4028234663852886e38)) return MRTQ__ERR(MRTQ_ERANGE, "scale: above FLT_MAX (MRTQ_FP32)");
      r.scale = (float)scale;
      if (!(r.scale > 0)) return MRTQ__ERR(MRTQ_ERANGE, "scale: rounds to 0 in float (MRTQ_FP32)");
      break;
    default: return MRTQ__ERR(MRTQ_EINVAL, "scheme: not an mrtq_scheme");
  }
  *rq = r;
  return MRTQ_OK;
}

/* The checks of one (multiplier, shift) pair for a fixed-point scheme (an
 * mrtq_scheme other than MRTQ_FP32, checked by the caller); ch names the
 * arguments: 0 "m.mult" / "m.shift", 1 "mult[c]" / "shift[c]". */
#define MRTQ__MULT_ERR(ch, code, scalar, array) ((ch) ? MRTQ__ERR((code), array) : MRTQ__ERR((code), scalar))
MRTQ__PRIV mrtq_status mrtq__mult_pair_check(mrtq_scheme scheme, mrtq_mult m, int ch) {
  int q31 = scheme == MRTQ_Q31_DBL || scheme == MRTQ_Q31_RNDNU;
  if (m.mult == 0) {
    if (m.shift != 0)
      return MRTQ__MULT_ERR(ch, MRTQ_ERANGE, "m.shift: must be 0 when m.mult is 0 (the pair (0, 0) is a zero scale)",
                            "shift[c]: must be 0 when mult[c] is 0 (the pair (0, 0) is a zero scale)");
    return MRTQ_OK;
  }
  if (q31) {
    if (m.mult < ((int32_t)1 << 30))
      return MRTQ__MULT_ERR(ch, MRTQ_ERANGE, "m.mult: must be in [2^30, 2^31 - 1] for a Q31 scheme (or the pair (0, 0))",
                            "mult[c]: must be in [2^30, 2^31 - 1] for a Q31 scheme (or the pair (0, 0))");
    if (m.shift < -31 || m.shift > 30)
      return MRTQ__MULT_ERR(ch, MRTQ_ERANGE, "m.shift: must be in [-31, 30] for a Q31 scheme",
                            "shift[c]: must be in [-31, 30] for a Q31 scheme");
  } else {
    if (m.mult < ((int32_t)1 << 14) || m.mult >= ((int32_t)1 << 15))
      return MRTQ__MULT_ERR(ch, MRTQ_ERANGE, "m.mult: must be in [2^14, 2^15 - 1] for a Q15 scheme (or the pair (0, 0))",
                            "mult[c]: must be in [2^14, 2^15 - 1] for a Q15 scheme (or the pair (0, 0))");
    if (m.shift < -15 || m.shift > 15)
      return MRTQ__MULT_ERR(ch, MRTQ_ERANGE, "m.shift: must be in [-15, 15] for a Q15 scheme",
                            "shift[c]: must be in [-15, 15] for a Q15 scheme");
  }
  return MRTQ_OK;
}

/* The scheme and bounds checks shared by the two forms. */
MRTQ__PRIV mrtq_status mrtq__from_mult_args(mrtq_scheme scheme, int32_t qmin, int32_t qmax) {
  if (qmin > qmax) return MRTQ__ERR(MRTQ_EINVAL, "qmin: must be <= qmax");
  switch (scheme) {
    case MRTQ_Q31_DBL:
    case MRTQ_Q31_RNDNU:
    case MRTQ_Q15_VTA:
    case MRTQ_Q15_RNDNU: return MRTQ_OK;
    case MRTQ_FP32: return MRTQ__ERR(MRTQ_EINVAL, "scheme: MRTQ_FP32 takes a float scale, not a (multiplier, shift) pair (use mrtq_rq_init)");
  }
  return MRTQ__ERR(MRTQ_EINVAL, "scheme: not an mrtq_scheme");
}

MRTQ__PRIV mrtq_rq mrtq__rq_of_mult(mrtq_scheme scheme, mrtq_mult m, int32_t zp, int32_t qmin, int32_t qmax) {
  mrtq_rq r;
  r.scheme = scheme;
  r.m = m;
  r.scale = 0.0f;
  r.zp = zp;
  r.qmin = qmin;
  r.qmax = qmax;
  return r;
}

MRTQ_API mrtq_status mrtq_rq_from_mult(mrtq_scheme scheme, mrtq_mult m, int32_t zp, int32_t qmin, int32_t qmax,
                                       mrtq_rq *rq) {
  mrtq_status st;
  if (!rq) return MRTQ__ERR(MRTQ_EINVAL, "rq: NULL");
  if ((st = mrtq__from_mult_args(scheme, qmin, qmax)) != MRTQ_OK) return st;
  if ((st = mrtq__mult_pair_check(scheme, m, 0)) != MRTQ_OK) return st;
  *rq = mrtq__rq_of_mult(scheme, m, zp, qmin, qmax);
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_rq_from_mult_ch(mrtq_scheme scheme, const int32_t *mult, const int32_t *shift, size_t n,
                                          int32_t zp, int32_t qmin, int32_t qmax, mrtq_rq *rq) {
  size_t c;
  mrtq_status st;
  if (n && !rq) return MRTQ__ERR(MRTQ_EINVAL, "rq: NULL while n > 0");
  if (n && (!mult || !shift)) return MRTQ__ERR(MRTQ_EINVAL, "mult, shift: NULL while n > 0");
  if ((st = mrtq__from_mult_args(scheme, qmin, qmax)) != MRTQ_OK) return st;
  for (c = 0; c < n; c++) {
    mrtq_mult m;
    m.mult = mult[c];
    m.shift = shift[c];
    if ((st = mrtq__mult_pair_check(scheme, m, 1)) != MRTQ_OK) return st;
  }
  for (c = 0; c < n; c++) {
    mrtq_mult m;
    m.mult = mult[c];
    m.shift = shift[c];
    rq[c] = mrtq__rq_of_mult(scheme, m, zp, qmin, qmax);
  }
  return MRTQ_OK;
}

/* The effective clamp bounds for an output type [lo, hi]: qmin and qmax each
 * saturated into the type's range (so the result is clamp to [qmin, qmax],
 * then saturation to the type; never empty, since qmin <= qmax). */
MRTQ__PRIV void mrtq__rq_bounds(const mrtq_rq *rq, int32_t *lo, int32_t *hi) {
  int32_t l = *lo, h = *hi;
  *lo = rq->qmin < l ? l : rq->qmin > h ? h : rq->qmin;
  *hi = rq->qmax < l ? l : rq->qmax > h ? h : rq->qmax;
}

MRTQ_API int32_t mrtq_rq_apply(const mrtq_rq *rq, int32_t acc, int32_t lo, int32_t hi) {
  int32_t y;
  mrtq__rq_bounds(rq, &lo, &hi);
  switch (rq->scheme) {
    case MRTQ_Q31_DBL: y = mrtq_mul_q31_dbl(acc, rq->m); break;
    case MRTQ_Q31_RNDNU: y = mrtq_mul_q31_rndnu(acc, rq->m); break;
    case MRTQ_Q15_VTA: y = mrtq_mul_q15_vta(acc, rq->m); break;
    case MRTQ_Q15_RNDNU: y = mrtq_mul_q15_rndnu(acc, rq->m); break;
    default: return mrtq_requant_fp32(acc, rq->scale, rq->zp, lo, hi);
  }
  return mrtq__clamp64((int64_t)y + rq->zp, lo, hi);
}

/* The checks of one mrtq_rq that the array functions make (rq non-NULL): the
 * reason names rq->field, or rq[c].field in a per-channel call (pc). Also for
 * the kernels above that take an mrtq_rq. */
/* pc names the descriptor in the reason: 0 "rq->", 1 "rq[c]." (an array of
 * them), 2 "rq[k]->" (an array of pointers), 3 "a->rq->", 4 "b->rq->",
 * 5 "parts[k].rq->" (an mrtq_etensor's). */
#define MRTQ__RQ_ERR(pc, code, rule)                                                                    \
  ((pc) == 1   ? MRTQ__ERR((code), "rq[c]." rule)                                                        \
   : (pc) == 2 ? MRTQ__ERR((code), "rq[k]->" rule)                                                       \
   : (pc) == 3 ? MRTQ__ERR((code), "a->rq->" rule)                                                       \
   : (pc) == 4 ? MRTQ__ERR((code), "b->rq->" rule)                                                       \
   : (pc) == 5 ? MRTQ__ERR((code), "parts[k].rq->" rule)                                                 \
               : MRTQ__ERR((code), "rq->" rule))
MRTQ__PRIV mrtq_status mrtq__rq_check(const mrtq_rq *rq, int pc) {
  switch (rq->scheme) {
    case MRTQ_Q31_DBL:
    case MRTQ_Q31_RNDNU:
    case MRTQ_Q15_VTA:
    case MRTQ_Q15_RNDNU:
      if (rq->scale != 0) return MRTQ__RQ_ERR(pc, MRTQ_EINVAL, "scale: must be 0 with a fixed-point scheme (only MRTQ_FP32 reads it)");
      break;
    case MRTQ_FP32:
      if (rq->m.mult != 0) return MRTQ__RQ_ERR(pc, MRTQ_EINVAL, "m.mult: must be 0 with MRTQ_FP32 (only the fixed-point schemes read it)");
      if (rq->m.shift != 0) return MRTQ__RQ_ERR(pc, MRTQ_EINVAL, "m.shift: must be 0 with MRTQ_FP32 (only the fixed-point schemes read it)");
      break;
    default: return MRTQ__RQ_ERR(pc, MRTQ_EINVAL, "scheme: not an mrtq_scheme");
  }
  if (rq->qmin > rq->qmax) return MRTQ__RQ_ERR(pc, MRTQ_EINVAL, "qmin: must be <= qmax");
  return MRTQ_OK;
}

/* The descriptors and pointers of an array call: rq[0..nrq) (nrq 1 for a
 * per-tensor call, pc = 0), then the data pointers when there are elements. */
MRTQ__PRIV mrtq_status mrtq__rq_args(const mrtq_rq *rq, size_t nrq, int pc, const void *acc, int any, const void *out) {
  size_t c;
  if (!rq && nrq) return MRTQ__ERR(MRTQ_EINVAL, "rq: NULL");
  for (c = 0; c < nrq; c++) {
    mrtq_status st = mrtq__rq_check(&rq[c], pc);
    if (st != MRTQ_OK) return st;
  }
  if (any && !acc) return MRTQ__ERR(MRTQ_EINVAL, "acc: NULL (allowed only when there are no elements)");
  if (any && !out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL (allowed only when there are no elements)");
  return MRTQ_OK;
}

/* Fast-path precondition: effective bounds lo <= hi and lo - zp, hi - zp in
 * [-2^24, 2^24] (true for every zero point within 2^24 - 256 of the output
 * range). Then the clamp can be applied before adding zp, in int32 or exactly
 * in float. Returns 1 and the shifted bounds, or 0 (use the scalar loop). */
MRTQ__PRIV int mrtq__rq_fast(const mrtq_rq *rq, int32_t lo, int32_t hi, int32_t *lo2, int32_t *hi2) {
  int64_t l, h;
  /* the SIMD code relies on what mrtq_rq_init guarantees; a hand-made rq
   * outside it goes to the (total) scalar code */
  switch (rq->scheme) {
    case MRTQ_Q31_DBL:
    case MRTQ_Q31_RNDNU:
      if (rq->m.mult < 0 || rq->m.shift < -31 || rq->m.shift > 30) return 0;
      break;
    case MRTQ_Q15_VTA:
    case MRTQ_Q15_RNDNU:
      if (rq->m.mult < 0 || rq->m.mult > 32767 || rq->m.shift < -15 || rq->m.shift > 15) return 0;
      break;
    case MRTQ_FP32:
      if (mrtq__nonfinite_f32(rq->scale)) return 0;
      break;
    default: return 0;
  }
  mrtq__rq_bounds(rq, &lo, &hi);
  l = (int64_t)lo - rq->zp;
  h = (int64_t)hi - rq->zp;
  if (lo > hi || l < -(1 << 24) || h > (1 << 24)) return 0;
  *lo2 = (int32_t)l;
  *hi2 = (int32_t)h;
  return 1;
}

/* ---- per-channel lane tables (the _inner functions and the fast conv
 * core's epilogue, mrtq/fastconv.h) ----
 * A channel's description in one of two vector forms, as int32 rows of a
 * table, one column per channel, rows `stride` apart:
 *   MRTQ__LANE_Q31 (2): MRTQ_Q31_DBL within mrtq_rq_init's domain with
 *     shift <= 0; row 0 the multiplier, 1 the right shift e = -shift, 2 its
 *     mask 2^e - 1, 3 half - 1 = (2^e - 1) >> 1;
 *   MRTQ__LANE_FP32 (3): MRTQ_FP32 with a finite scale; row 0 the scale's
 *     bits, rows 1 and 2 those of the bounds below as floats, row 3 zero;
 * and for both, rows 4 and 5 the effective bounds (mrtq__rq_bounds within the
 * output type's [lo, hi]) less the zero point, row 6 the zero point. The Q31
 * form needs those differences within int32, the FP32 form within 2^24 (exact
 * floats). MRTQ__LANE_Q31W (1) is MRTQ_Q31_DBL in the domain with a positive
 * shift or far zero point (64-bit lanes; the fast core only); 0 is none. */
#define MRTQ__LANE_Q31W 1
#define MRTQ__LANE_Q31 2
#define MRTQ__LANE_FP32 3
#define MRTQ__LANE_ROWS 7
MRTQ__PRIV int mrtq__rq_lane_form(const mrtq_rq *r, int32_t lo, int32_t hi) {
  int64_t l, h;
  mrtq__rq_bounds(r, &lo, &hi);
  l = (int64_t)lo - r->zp, h = (int64_t)hi - r->zp;
  if (r->scheme == MRTQ_FP32)
    return !mrtq__nonfinite_f32(r->scale) && l >= -(1 << 24) && h <= (1 << 24) ? MRTQ__LANE_FP32 : 0;
  if (r->scheme != MRTQ_Q31_DBL || r->m.mult < 0 || r->m.shift < -31 || r->m.shift > 30) return 0;
  return r->m.shift > 0 || l < INT32_MIN || h > INT32_MAX ? MRTQ__LANE_Q31W : MRTQ__LANE_Q31;
}
/* Column t[0], t[stride], ... of a description of form 2 or 3. */
MRTQ__PRIV void mrtq__rq_lane_fill(const mrtq_rq *r, int32_t lo, int32_t hi, int32_t *t, size_t stride) {
  const int e = -r->m.shift; /* Q31 form: [0, 31] */
  mrtq__rq_bounds(r, &lo, &hi);
  if (r->scheme == MRTQ_FP32) {
    const float flo = (float)(lo - r->zp), fhi = (float)(hi - r->zp); /* |.| <= 2^24: exact */
    memcpy(&t[0], &r->scale, sizeof r->scale);
    memcpy(&t[stride], &flo, sizeof flo), memcpy(&t[2 * stride], &fhi, sizeof fhi), t[3 * stride] = 0;
  } else {
    t[0] = r->m.mult, t[stride] = e, t[2 * stride] = (int32_t)(((uint32_t)1 << e) - 1u);
    t[3 * stride] = (int32_t)((((uint32_t)1 << e) - 1u) >> 1);
  }
  t[4 * stride] = lo - r->zp, t[5 * stride] = hi - r->zp, t[6 * stride] = r->zp;
}
/* The form n descriptions share (rq[0] for all when nrq is 1): the lowest
 * of their forms, 0 when FP32 meets a Q31 form; with t, in the same pass,
 * each description's column t[c], t[c + stride], ... while the form is 2 or
 * 3 (a form that ends 2 or 3 was so from the first column: the table is then
 * whole; otherwise the caller ignores it). */
MRTQ__PRIV int mrtq__rq_lanes_table(const mrtq_rq *rq, size_t nrq, size_t n, int32_t lo, int32_t hi, int32_t *t,
                                    size_t stride) {
  size_t c;
  int f = n ? mrtq__rq_lane_form(&rq[0], lo, hi) : 0;
  for (c = 0; c < n && f; c++) {
    if (c && nrq != 1) {
      int g = mrtq__rq_lane_form(&rq[c], lo, hi);
      f = g == f ? f : (g == MRTQ__LANE_FP32 || f == MRTQ__LANE_FP32) ? 0 : g < f ? g : f;
    }
    if (t && f >= MRTQ__LANE_Q31) mrtq__rq_lane_fill(&rq[nrq == 1 ? 0 : c], lo, hi, t + c, stride);
    else if (!t && nrq == 1) break; /* one description: its form is the form */
  }
  return f;
}
MRTQ__PRIV int mrtq__rq_lanes_form(const mrtq_rq *rq, size_t nrq, size_t n, int32_t lo, int32_t hi) {
  return mrtq__rq_lanes_table(rq, nrq, n, lo, hi, NULL, 0);
}

#ifdef __cplusplus
}
#endif
#if MRTQ__DISPATCH
/* Every x86 twin, each compiled for its own ISA (the intrinsics headers first,
 * outside the target regions); only the functions inside get the target, and
 * none of them runs unless mrtq__simd_path() chose it. */
#include <immintrin.h>
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("sse4.1"))), apply_to = function)
#include "requant_sse41.h"
#pragma clang attribute pop
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#include "requant_avx2.h"
#pragma clang attribute pop
#pragma clang attribute push(__attribute__((target("avx512f,avx512bw,avx512dq"))), apply_to = function)
#include "requant_avx512.h"
#pragma clang attribute pop
#else
#pragma GCC push_options
#pragma GCC target("sse4.1")
#include "requant_sse41.h"
#pragma GCC pop_options
#pragma GCC push_options
#pragma GCC target("avx2")
#include "requant_avx2.h"
#pragma GCC pop_options
/* g++ 12 reports its own AVX-512 intrinsics (their self-initialized
 * _mm512_undefined_* placeholders) as maybe-uninitialized once inlined, in
 * C++ (GCC bug 105593, fixed in 13): silenced for this twin only */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512dq")
#include "requant_avx512.h"
#pragma GCC pop_options
#pragma GCC diagnostic pop
#endif
#elif MRTQ_SIMD == MRTQ_SIMD_AVX512
#include "requant_avx512.h"
#elif MRTQ_SIMD == MRTQ_SIMD_AVX2
#include "requant_avx2.h"
#elif MRTQ_SIMD == MRTQ_SIMD_SSE41
#include "requant_sse41.h"
#elif MRTQ_SIMD == MRTQ_SIMD_NEON
#include "requant_neon.h"
#endif
#ifdef __cplusplus
extern "C" {
#endif

/* ---- the path of the array functions ----
 * mrtq__simd_path() is the MRTQ_SIMD_* value the array functions of this
 * build run: MRTQ_SIMD itself without dispatch; with dispatch, the best path
 * this CPU and OS can run, or the one a test forced. The choice is cached in
 * one int per translation unit (per implementation unit with MRTQ_EXTERN),
 * read and written with relaxed atomics: threads that race to fill it compute
 * and store the same value, so the race is benign, and no path changes a
 * byte of any result. */
#if MRTQ__DISPATCH
MRTQ__PRIV void mrtq__cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4]) {
  __asm__ __volatile__("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
}
/* The best x86 path this CPU has and the OS has enabled: SSE4.1 (cpuid 1,
 * ecx bit 19); AVX2 (cpuid 7 ebx bit 5, with AVX and OSXSAVE in cpuid 1 ecx
 * bits 28 and 27, and XCR0 saving the SSE and AVX state, bits 1-2); AVX-512
 * (cpuid 7 ebx bits 16 F, 17 DQ, 30 BW, and XCR0 saving the opmask and both
 * ZMM halves, bits 5-7). */
MRTQ__PRIV int mrtq__simd_cpu(void) {
  uint32_t r[4], top, lo, hi;
  const uint32_t avx512 = (1u << 16) | (1u << 17) | (1u << 30);
  mrtq__cpuid(0, 0, r);
  top = r[0];
  if (top < 1) return MRTQ_SIMD_SCALAR;
  mrtq__cpuid(1, 0, r);
  if (!(r[2] & (1u << 19))) return MRTQ_SIMD_SCALAR;
  if (top < 7 || (r[2] & (3u << 27)) != (3u << 27)) return MRTQ_SIMD_SSE41;
  __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0u));
  (void)hi;
  if ((lo & 0x6u) != 0x6u) return MRTQ_SIMD_SSE41;
  mrtq__cpuid(7, 0, r);
  if (!(r[1] & (1u << 5))) return MRTQ_SIMD_SSE41;
  if ((lo & 0xE6u) != 0xE6u || (r[1] & avx512) != avx512) return MRTQ_SIMD_AVX2;
  return MRTQ_SIMD_AVX512;
}
/* the cached path plus one; 0 = not chosen yet */
MRTQ__PRIV int *mrtq__simd_slot(void) {
  static int slot;
  return &slot;
}
#endif
MRTQ__PRIV int mrtq__simd_path(void) {
#if MRTQ__DISPATCH
  int v = __atomic_load_n(mrtq__simd_slot(), __ATOMIC_RELAXED);
  if (v == 0) {
    v = mrtq__simd_cpu() + 1;
    __atomic_store_n(mrtq__simd_slot(), v, __ATOMIC_RELAXED);
  }
  return v - 1;
#else
  return MRTQ_SIMD;
#endif
}
/* For tests (not part of the API): with dispatch, make the array functions
 * run path `level` (MRTQ_SIMD_SCALAR, _SSE41, _AVX2 or _AVX512), or the best
 * this CPU can run if it cannot run that one; any other value returns to the
 * automatic choice. Without dispatch it changes nothing. Returns
 * mrtq__simd_path(). */
MRTQ__PRIV int mrtq__simd_force(int level) {
#if MRTQ__DISPATCH
  int cpu = mrtq__simd_cpu();
  if (level < MRTQ_SIMD_SCALAR || level > MRTQ_SIMD_AVX512) level = cpu;
  __atomic_store_n(mrtq__simd_slot(), (level < cpu ? level : cpu) + 1, __ATOMIC_RELAXED);
#else
  (void)level;
#endif
  return mrtq__simd_path();
}

/* The MRTQ_FP32 loop of mrtq__requant_fast_scalar: f = fl(fl(x) scale)
 * clamped to [lo2, hi2] (exact floats, |.| <= 2^22), rounded to nearest even
 * by adding 1.5 2^23 (the sum's low mantissa bits). A function of its own,
 * not inlined: inlined beside the other families' loops, gcc 12 at -O3 kept
 * two of its constants on the stack and if-converted the clamp with three
 * more instructions per vector, 1.18-1.21x a plain loop's time in the
 * benchmark; alone, 1.02-1.03x (docs/PERFORMANCE.md). */
#if defined(__GNUC__)
#if !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes" /* noinline on a static inline function: the intent */
#endif
__attribute__((noinline, unused))
#endif
MRTQ__PRIV void mrtq__requant_fp32_scalar(float scale, const int32_t *acc, size_t n, uint8_t *out, int32_t lo2,
                                            int32_t hi2, int32_t zpb, uint8_t flip) {
  const float flo = (float)lo2, fhi = (float)hi2;
  size_t i;
  for (i = 0; i < n; i++) {
    float f = (float)acc[i] * scale;
    uint32_t u;
    f = f < flo ? flo : f > fhi ? fhi : f; /* never NaN: a finite scale times a finite value */
    f += 12582912.0f; /* the clamp stands between the product and this sum: nothing to contract */
    memcpy(&u, &f, sizeof u);
    out[i] = (uint8_t)((uint8_t)((u & 0xffu) + (uint32_t)zpb) ^ flip); /* the integer is u - 0x4B400000 */
  }
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* The branch-free scalar loop of each family, for an rq mrtq__rq_fast accepts
 * (the SIMD twins' precondition: its multiplier ranges, and the clamp bounds
 * lo2 = lo - zp, hi2 = hi - zp within 2^24; FP32 here within 2^22). Per
 * element it computes exactly mrtq_rq_apply's value (test_array checks it on
 * the scalar build), then stores v + zpb as a byte, xor `flip` (s8: zpb = zp,
 * flip 0; u8: zpb = zp - 128, flip 0x80, as the SIMD twins do). One scheme per
 * loop, no call and no data-dependent branch, so the compiler can vectorize it
 * where it may. floor(v / 2^k) is taken on v + 2^63 (or 2^31) as an unsigned
 * value -- a logical shift -- less 2^(63-k): defined in C for every v, with no
 * implementation-defined right shift of a negative value. FP32 rounds with the
 * 1.5 2^23 magic number, which assumes the default rounding mode, as the SIMD
 * twins' conversions do (mrtq.h, determinism contract). */
MRTQ__PRIV void mrtq__requant_fast_scalar(const mrtq_rq *rq, const int32_t *acc, size_t n, uint8_t *out, int32_t lo2,
                                          int32_t hi2, int32_t zpb, uint8_t flip) {
  const int64_t M = rq->m.mult;
  size_t i;
  switch (rq->scheme) {
    case MRTQ_Q31_DBL: { /* rdivpot(srdhm(sat32(x 2^left), M), right) */
      const int left = rq->m.shift > 0 ? rq->m.shift : 0, right = rq->m.shift < 0 ? -rq->m.shift : 0;
      const int64_t lmul = (int64_t)1 << left, mask = ((int64_t)1 << right) - 1, rbias = (int64_t)1 << (32 - right);
      for (i = 0; i < n; i++) {
        int64_t xs = (int64_t)acc[i] * lmul, h, q;
        xs = xs > INT32_MAX ? INT32_MAX : xs < INT32_MIN ? INT32_MIN : xs;
        /* srdhm: floor((xs M + 2^30) / 2^31), |xs M| < 2^62 (M >= 0: INT32_MIN * INT32_MIN cannot occur) */
        h = (int64_t)(((uint64_t)(xs * M + ((int64_t)1 << 30)) + ((uint64_t)1 << 63)) >> 31) - ((int64_t)1 << 32);
        /* rdivpot: q = floor(h / 2^right), then up when the remainder passes gemmlowp's threshold */
        q = (int64_t)((uint64_t)(h + ((int64_t)1 << 32)) >> right) - rbias;
        q += h - q * (mask + 1) > (mask >> 1) + (h < 0);
        q = q < lo2 ? lo2 : q > hi2 ? hi2 : q;
        out[i] = (uint8_t)((uint8_t)(q + zpb) ^ flip);
      }
      return;
    }
    case MRTQ_Q31_RNDNU:
    case MRTQ_Q15_RNDNU: { /* floor((x M + 2^(k-1)) / 2^k), k = F - shift in [0, 62] */
      const int k = (rq->scheme == MRTQ_Q31_RNDNU ? 31 : 15) - rq->m.shift;
      const int64_t rnd = k > 0 ? (int64_t)1 << (k - 1) : 0;
      if (k == 0) { /* Q15_RNDNU with shift 15: x M itself */
        for (i = 0; i < n; i++) {
          int64_t p = (int64_t)acc[i] * M;
          p = p < lo2 ? lo2 : p > hi2 ? hi2 : p;
          out[i] = (uint8_t)((uint8_t)(p + zpb) ^ flip);
        }
        return;
      }
      { /* with B = 2^(63-k): v = floor(p / 2^k) + B, clamped to [lo2 + B, hi2 + B], less B */
        const uint64_t c = (uint64_t)rnd + ((uint64_t)1 << 63);
        const int64_t B = (int64_t)1 << (63 - k), blo = lo2 + B, bhi = hi2 + B;
        const uint64_t zb = (uint64_t)((int64_t)zpb - B);
        for (i = 0; i < n; i++) {
          int64_t v = (int64_t)(((uint64_t)((int64_t)acc[i] * M) + c) >> k); /* |x M| <= 2^62; v < 2^63 */
          v = v < blo ? blo : v > bhi ? bhi : v;
          out[i] = (uint8_t)((uint8_t)((uint64_t)v + zb) ^ flip);
        }
      }
      return;
    }
    case MRTQ_Q15_VTA: { /* floor(wrap32(x M) / 2^k), k = 15 - shift in [0, 30] */
      const int k = 15 - rq->m.shift;
      const uint32_t um = (uint32_t)M;
      if (k == 0) {
        for (i = 0; i < n; i++) {
          int32_t p = mrtq__wrap32((uint32_t)acc[i] * um);
          p = p < lo2 ? lo2 : p > hi2 ? hi2 : p;
          out[i] = (uint8_t)((uint8_t)(p + zpb) ^ flip);
        }
        return;
      }
      for (i = 0; i < n; i++) {
        /* wrap32(x M) + 2^31 is ((x M) mod 2^32) xor 2^31; its logical shift is below 2^31 for k >= 1 */
        int32_t p = (int32_t)((((uint32_t)acc[i] * um) ^ 0x80000000u) >> k) - (int32_t)(1u << (31 - k));
        p = p < lo2 ? lo2 : p > hi2 ? hi2 : p;
        out[i] = (uint8_t)((uint8_t)(p + zpb) ^ flip);
      }
      return;
    }
    default: mrtq__requant_fp32_scalar(rq->scale, acc, n, out, lo2, hi2, zpb, flip); return;
  }
}

/* Whether n elements of output range [lo, hi] take the branch-free loop: a
 * few of them at least, an rq mrtq__rq_fast accepts (which sets lo2 / hi2),
 * and for FP32 bounds within the magic number's 2^22. */
MRTQ__PRIV int mrtq__rq_fast_scalar(const mrtq_rq *rq, size_t n, int32_t lo, int32_t hi, int32_t *lo2, int32_t *hi2) {
  return n >= 8 && mrtq__rq_fast(rq, lo, hi, lo2, hi2) &&
         (rq->scheme != MRTQ_FP32 || (*lo2 >= -(1 << 22) && *hi2 <= (1 << 22)));
}

/* Scalar loops: mrtq_rq_apply per element (the specification), or its
 * branch-free twin above where the rq allows; also the tail of every SIMD
 * path. */
MRTQ__PRIV void mrtq__requant_s8_scalar(const mrtq_rq *rq, const int32_t *acc, size_t n, int8_t *out) {
  size_t i;
  int32_t lo2, hi2;
  if (mrtq__rq_fast_scalar(rq, n, -128, 127, &lo2, &hi2)) {
    mrtq__requant_fast_scalar(rq, acc, n, (uint8_t *)out, lo2, hi2, rq->zp, 0);
    return;
  }
  for (i = 0; i < n; i++) out[i] = (int8_t)mrtq_rq_apply(rq, acc[i], -128, 127);
}
MRTQ__PRIV void mrtq__requant_u8_scalar(const mrtq_rq *rq, const int32_t *acc, size_t n, uint8_t *out) {
  size_t i;
  int32_t lo2, hi2;
  if (mrtq__rq_fast_scalar(rq, n, 0, 255, &lo2, &hi2)) {
    mrtq__requant_fast_scalar(rq, acc, n, out, lo2, hi2, rq->zp - 128, 0x80);
    return;
  }
  for (i = 0; i < n; i++) out[i] = (uint8_t)mrtq_rq_apply(rq, acc[i], 0, 255);
}

/* SIMD blocks (when the build has a SIMD path and the precondition holds) of
 * an s8 or u8 output (t); returns how many elements were written. */
MRTQ__PRIV size_t mrtq__requant_simd(const mrtq_rq *rq, const int32_t *acc, size_t n, mrtq_dtype t, uint8_t *out) {
#if MRTQ__DISPATCH
  int32_t lo2, hi2, zpb;
  const int u8 = t == MRTQ_U8, path = mrtq__simd_path();
  const int32_t lo = u8 ? 0 : -128, hi = u8 ? 255 : 127;
  const int full = rq->qmin <= lo && rq->qmax >= hi;
  if (path == MRTQ_SIMD_SCALAR || !mrtq__rq_fast(rq, lo, hi, &lo2, &hi2)) return 0;
  zpb = u8 ? rq->zp - 128 : rq->zp; /* no overflow: mrtq__rq_fast bounds zp within 2^24 + 255 of the range */
  if (path == MRTQ_SIMD_AVX512) return mrtq__requant_avx512(rq, acc, n, out, lo2, hi2, zpb, u8 ? 0x80 : 0, full);
  if (path == MRTQ_SIMD_AVX2) return mrtq__requant_avx2(rq, acc, n, out, lo2, hi2, zpb, u8 ? 0x80 : 0, full);
  return mrtq__requant_sse41(rq, acc, n, out, lo2, hi2, zpb, u8 ? 0x80 : 0, full);
#elif MRTQ_SIMD != MRTQ_SIMD_SCALAR
  int32_t lo2, hi2;
  const int u8 = t == MRTQ_U8; /* uint8 output: bias by -128 so lanes are signed bytes, flip the top bit back */
  const int32_t lo = u8 ? 0 : -128, hi = u8 ? 255 : 127;
  const int full = rq->qmin <= lo && rq->qmax >= hi; /* the clamp is the output type's own saturation */
  if (!mrtq__rq_fast(rq, lo, hi, &lo2, &hi2)) return 0;
#if MRTQ_SIMD == MRTQ_SIMD_AVX512
  return mrtq__requant_avx512(rq, acc, n, out, lo2, hi2, u8 ? rq->zp - 128 : rq->zp, u8 ? 0x80 : 0, full);
#elif MRTQ_SIMD == MRTQ_SIMD_AVX2
  return mrtq__requant_avx2(rq, acc, n, out, lo2, hi2, u8 ? rq->zp - 128 : rq->zp, u8 ? 0x80 : 0, full);
#elif MRTQ_SIMD == MRTQ_SIMD_SSE41
  return mrtq__requant_sse41(rq, acc, n, out, lo2, hi2, u8 ? rq->zp - 128 : rq->zp, u8 ? 0x80 : 0, full);
#else
  return mrtq__requant_neon(rq, acc, n, out, lo2, hi2, u8 ? rq->zp - 128 : rq->zp, u8 ? 0x80 : 0, full);
#endif
#else
  (void)rq, (void)acc, (void)n, (void)t, (void)out;
  return 0;
#endif
}

/* The unchecked array bodies (arguments already checked). */
MRTQ__PRIV void mrtq__requant_s8(const mrtq_rq *rq, const int32_t *acc, size_t n, int8_t *out) {
  size_t i = mrtq__requant_simd(rq, acc, n, MRTQ_S8, (uint8_t *)out);
  mrtq__requant_s8_scalar(rq, acc + i, n - i, out + i);
}
MRTQ__PRIV void mrtq__requant_u8(const mrtq_rq *rq, const int32_t *acc, size_t n, uint8_t *out) {
  size_t i = mrtq__requant_simd(rq, acc, n, MRTQ_U8, out);
  mrtq__requant_u8_scalar(rq, acc + i, n - i, out + i);
}

MRTQ_API mrtq_status mrtq_requant_s8(const mrtq_rq *rq, const int32_t *acc, size_t n, int8_t *out) {
  mrtq_status st = mrtq__rq_args(rq, 1, 0, acc, n > 0, out);
  if (st != MRTQ_OK) return st;
  if (n) mrtq__requant_s8(rq, acc, n, out);
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_requant_u8(const mrtq_rq *rq, const int32_t *acc, size_t n, uint8_t *out) {
  mrtq_status st = mrtq__rq_args(rq, 1, 0, acc, n > 0, out);
  if (st != MRTQ_OK) return st;
  if (n) mrtq__requant_u8(rq, acc, n, out);
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_requant(const mrtq_rq *rq, const int32_t *acc, size_t n, mrtq_dtype dst_type, void *out) {
  size_t i;
  mrtq_status st;
  if (!rq) return MRTQ__ERR(MRTQ_EINVAL, "rq: NULL");
  st = mrtq__rq_check(rq, 0);
  if (st != MRTQ_OK) return st;
  if (n && !acc) return MRTQ__ERR(MRTQ_EINVAL, "acc: NULL (allowed only when there are no elements)");
  if (!mrtq__dtype_ok(dst_type)) return MRTQ__ERR(MRTQ_EINVAL, "dst_type: not an mrtq_dtype");
  if (n && !out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL (allowed only when there are no elements)");
  if (n == 0) return MRTQ_OK;
  switch (dst_type) {
    case MRTQ_S8: mrtq__requant_s8(rq, acc, n, (int8_t *)out); break;
    case MRTQ_U8: mrtq__requant_u8(rq, acc, n, (uint8_t *)out); break;
    case MRTQ_S16: /* out may have any alignment: byte copies (one store each once compiled) */
      for (i = 0; i < n; i++) {
        int16_t v = (int16_t)mrtq_rq_apply(rq, acc[i], -32768, 32767);
        memcpy((uint8_t *)out + 2 * i, &v, 2);
      }
      break;
    case MRTQ_S32:
      for (i = 0; i < n; i++) {
        int32_t v = mrtq_rq_apply(rq, acc[i], INT32_MIN, INT32_MAX);
        memcpy((uint8_t *)out + 4 * i, &v, 4);
      }
      break;
    case MRTQ_S4: /* whole bytes, then the odd last element into its low nibble */
      for (i = 0; i + 2 <= n; i += 2) {
        uint32_t a = (uint32_t)mrtq_rq_apply(rq, acc[i], -8, 7), b = (uint32_t)mrtq_rq_apply(rq, acc[i + 1], -8, 7);
        ((uint8_t *)out)[i / 2] = (uint8_t)((a & 15u) | (b & 15u) << 4);
      }
      if (i < n) mrtq__store(out, i, MRTQ_S4, mrtq_rq_apply(rq, acc[i], -8, 7));
      break;
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_requant_s8_outer(const mrtq_rq *rq, const int32_t *acc, size_t outer, size_t channels,
                                           size_t inner, int8_t *out) {
  size_t o, c;
  mrtq_status st = mrtq__rq_args(rq, channels, 1, acc, outer && channels && inner, out);
  if (st != MRTQ_OK || !(outer && channels && inner)) return st;
  for (o = 0; o < outer; o++)
    for (c = 0; c < channels; c++, acc += inner, out += inner) mrtq__requant_s8(&rq[c], acc, inner, out);
  return MRTQ_OK;
}
MRTQ_API mrtq_status mrtq_requant_u8_outer(const mrtq_rq *rq, const int32_t *acc, size_t outer, size_t channels,
                                           size_t inner, uint8_t *out) {
  size_t o, c;
  mrtq_status st = mrtq__rq_args(rq, channels, 1, acc, outer && channels && inner, out);
  if (st != MRTQ_OK || !(outer && channels && inner)) return st;
  for (o = 0; o < outer; o++)
    for (c = 0; c < channels; c++, acc += inner, out += inner) mrtq__requant_u8(&rq[c], acc, inner, out);
  return MRTQ_OK;
}

/* The _inner body, chunks of MRTQ__LANES channels: a chunk whose
 * descriptions share a lane form (the lane tables above) builds its table
 * once and runs every row through the path's vector twin (AVX-512: all
 * lanes; AVX2: whole steps of 8), the rest of the row through the
 * branch-free scalar twin; any other chunk runs mrtq_rq_apply per element. */
#define MRTQ__LANES 128
/* The scalar twin of the lane vectors: `rows` rows (ld apart) of n
 * channels, per element exactly mrtq_rq_apply's value (the Q31 steps as
 * mrtq__requant_fast_scalar takes them; FP32 rounded to nearest even by the
 * 1.5 2^23 sum in float when every bound is within 2^22, else by 1.5 2^52 in
 * double, exact for the clamped |f| <= 2^24 under FLT_EVAL_METHOD 0). */
MRTQ__PRIV void mrtq__lanes_scalar(const int32_t *t, size_t stride, int form, const int32_t *acc, size_t rows,
                                   size_t ld, size_t n, uint8_t *out) {
  size_t r, i;
  if (form == MRTQ__LANE_FP32) {
    int small = 1;
    for (i = 0; i < n; i++) small &= t[4 * stride + i] >= -(1 << 22) && t[5 * stride + i] <= (1 << 22);
    /* f = fl(fl(x) scale) clamped (never NaN: a finite scale); the clamp
       stands between the product and the rounding sum: nothing to contract */
#define MRTQ__LANE_F(f)                                                                                     \
  float sc, f, flo, fhi;                                                                                    \
  memcpy(&sc, &t[i], sizeof sc), memcpy(&flo, &t[stride + i], sizeof flo);                                  \
  memcpy(&fhi, &t[2 * stride + i], sizeof fhi);                                                             \
  f = (float)acc[i] * sc;                                                                                   \
  f = f < flo ? flo : f;                                                                                    \
  f = f > fhi ? fhi : f
    for (r = 0; r < rows; r++, acc += ld, out += ld)
      if (small) {
        for (i = 0; i < n; i++) {
          uint32_t u;
          MRTQ__LANE_F(f);
          f += 12582912.0f;
          memcpy(&u, &f, sizeof u);
          out[i] = (uint8_t)((u & 0xffu) + (uint32_t)t[6 * stride + i]); /* the integer is u - 0x4B400000 */
        }
      } else {
        for (i = 0; i < n; i++) {
          double d;
          MRTQ__LANE_F(f);
          d = (double)f + 6755399441055744.0;
          d -= 6755399441055744.0;
          out[i] = (uint8_t)((int32_t)d + t[6 * stride + i]);
        }
      }
#undef MRTQ__LANE_F
    return;
  }
  for (r = 0; r < rows; r++, acc += ld, out += ld)
    for (i = 0; i < n; i++) {
      const int e = t[stride + i]; /* [0, 31] */
      const int64_t mask = t[2 * stride + i], lo2 = t[4 * stride + i], hi2 = t[5 * stride + i];
      int64_t h, q;
      /* srdhm: floor((x M + 2^30) / 2^31), |x M| < 2^62 (M >= 0) */
      h = (int64_t)(((uint64_t)((int64_t)acc[i] * t[i] + ((int64_t)1 << 30)) + ((uint64_t)1 << 63)) >> 31) -
          ((int64_t)1 << 32);
      q = (int64_t)((uint64_t)(h + ((int64_t)1 << 32)) >> e) - ((int64_t)1 << (32 - e)); /* floor(h / 2^e) */
      q += h - q * (mask + 1) > t[3 * stride + i] + (h < 0);
      q = q < lo2 ? lo2 : q;
      q = q > hi2 ? hi2 : q;
      out[i] = (uint8_t)(q + t[6 * stride + i]);
    }
}
MRTQ__PRIV void mrtq__requant_inner(const mrtq_rq *rq, const int32_t *acc, size_t rows, size_t channels, int u8,
                                    uint8_t *out) {
  int32_t t[MRTQ__LANE_ROWS * MRTQ__LANES];
  const int32_t lo = u8 ? 0 : -128, hi = u8 ? 255 : 127;
#if MRTQ__DISPATCH
  const int path = mrtq__simd_path();
#else
  const int path = MRTQ_SIMD;
#endif
  size_t c0, r, c, i;
  (void)path; /* unused without an x86 vector path */
  for (c0 = 0; c0 < channels; c0 += MRTQ__LANES) {
    const size_t nc = channels - c0 < MRTQ__LANES ? channels - c0 : MRTQ__LANES;
    const int form = mrtq__rq_lanes_table(rq + c0, nc, nc, lo, hi, t, MRTQ__LANES);
    if (form != MRTQ__LANE_Q31 && form != MRTQ__LANE_FP32) {
      for (r = 0; r < rows; r++)
        for (c = c0; c < c0 + nc; c++)
          out[r * channels + c] = (uint8_t)mrtq_rq_apply(&rq[c], acc[r * channels + c], lo, hi);
      continue;
    }
    i = 0;
#if MRTQ__DISPATCH || MRTQ_SIMD == MRTQ_SIMD_AVX512
    if (path == MRTQ_SIMD_AVX512) mrtq__lanes_avx512(t, MRTQ__LANES, form, acc + c0, rows, channels, nc, out + c0), i = nc;
#endif
#if MRTQ__DISPATCH || MRTQ_SIMD == MRTQ_SIMD_AVX2
    if (path == MRTQ_SIMD_AVX2) i = mrtq__lanes_avx2(t, MRTQ__LANES, form, acc + c0, rows, channels, nc, out + c0, u8);
#endif
    if (i < nc) mrtq__lanes_scalar(t + i, MRTQ__LANES, form, acc + c0 + i, rows, channels, nc - i, out + c0 + i);
  }
}

MRTQ_API mrtq_status mrtq_requant_s8_inner(const mrtq_rq *rq, const int32_t *acc, size_t rows, size_t channels,
                                           int8_t *out) {
  mrtq_status st = mrtq__rq_args(rq, channels, 1, acc, rows && channels, out);
  if (st != MRTQ_OK || !(rows && channels)) return st;
  mrtq__requant_inner(rq, acc, rows, channels, 0, (uint8_t *)out);
  return MRTQ_OK;
}
MRTQ_API mrtq_status mrtq_requant_u8_inner(const mrtq_rq *rq, const int32_t *acc, size_t rows, size_t channels,
                                           uint8_t *out) {
  mrtq_status st = mrtq__rq_args(rq, channels, 1, acc, rows && channels, out);
  if (st != MRTQ_OK || !(rows && channels)) return st;
  mrtq__requant_inner(rq, acc, rows, channels, 1, out);
  return MRTQ_OK;
}

/* ---- array quantize / dequantize ---- */

/* SIMD blocks of the array quantize (AVX2, AVX-512) to s8 or u8 (t), when
 * lo - zp >= -2^24 and hi - zp <= 2^24, so the float bounds are exact;
 * returns how many were written. */
MRTQ__PRIV size_t mrtq__quantize_simd(float scale, int32_t zp, const float *x, size_t n, mrtq_dtype t, uint8_t *out) {
#if MRTQ__DISPATCH
  const int u8 = t == MRTQ_U8, path = mrtq__simd_path();
  const int32_t lo = u8 ? 0 : -128, hi = u8 ? 255 : 127;
  if (path < MRTQ_SIMD_AVX2 || (int64_t)lo - zp < -(1 << 24) || (int64_t)hi - zp > (1 << 24)) return 0;
  if (path == MRTQ_SIMD_AVX512)
    return mrtq__quantize_avx512(x, n, scale, (float)(lo - zp), (float)(hi - zp), u8 ? zp - 128 : zp, u8 ? 0x80 : 0, out);
  return mrtq__quantize_avx2(x, n, scale, (float)(lo - zp), (float)(hi - zp), u8 ? zp - 128 : zp, u8 ? 0x80 : 0, out);
#elif MRTQ_SIMD == MRTQ_SIMD_AVX512 || MRTQ_SIMD == MRTQ_SIMD_AVX2
  const int u8 = t == MRTQ_U8;
  const int32_t lo = u8 ? 0 : -128, hi = u8 ? 255 : 127;
  /* the blocks clamp in float to lo - zp, hi - zp: both must be exact floats
   * (|.| <= 2^24), or a bound rounds and a saturated value lands one off
   * (found by fuzz_array: zp = 2^24 - 119 gave -127 for -128) */
  if ((int64_t)lo - zp < -(1 << 24) || (int64_t)hi - zp > (1 << 24)) return 0;
#if MRTQ_SIMD == MRTQ_SIMD_AVX512
  return mrtq__quantize_avx512(x, n, scale, (float)(lo - zp), (float)(hi - zp), u8 ? zp - 128 : zp, u8 ? 0x80 : 0, out);
#else
  return mrtq__quantize_avx2(x, n, scale, (float)(lo - zp), (float)(hi - zp), u8 ? zp - 128 : zp, u8 ? 0x80 : 0, out);
#endif
#else
  (void)scale, (void)zp, (void)x, (void)n, (void)t, (void)out;
  return 0;
#endif
}

/* The scalar array quantize / dequantize: the specification of the SIMD
 * blocks, and their tail. */
MRTQ__PRIV void mrtq__quantize_s8_scalar(float scale, int32_t zp, const float *x, size_t n, int8_t *out) {
  size_t i;
  for (i = 0; i < n; i++) out[i] = (int8_t)mrtq_quantize_f32(x[i], scale, zp, -128, 127);
}
MRTQ__PRIV void mrtq__quantize_u8_scalar(float scale, int32_t zp, const float *x, size_t n, uint8_t *out) {
  size_t i;
  for (i = 0; i < n; i++) out[i] = (uint8_t)mrtq_quantize_f32(x[i], scale, zp, 0, 255);
}
MRTQ__PRIV void mrtq__dequantize_s8_scalar(float scale, int32_t zp, const int8_t *q, size_t n, float *out) {
  size_t i;
  for (i = 0; i < n; i++) out[i] = mrtq_dequantize_f32(q[i], scale, zp);
}
MRTQ__PRIV void mrtq__dequantize_u8_scalar(float scale, int32_t zp, const uint8_t *q, size_t n, float *out) {
  size_t i;
  for (i = 0; i < n; i++) out[i] = mrtq_dequantize_f32(q[i], scale, zp);
}

/* The unchecked array bodies: SIMD blocks, then the scalar loop. */
MRTQ__PRIV void mrtq__quantize_s8(float scale, int32_t zp, const float *x, size_t n, int8_t *out) {
  size_t i = mrtq__quantize_simd(scale, zp, x, n, MRTQ_S8, (uint8_t *)out);
  mrtq__quantize_s8_scalar(scale, zp, x + i, n - i, out + i);
}
MRTQ__PRIV void mrtq__quantize_u8(float scale, int32_t zp, const float *x, size_t n, uint8_t *out) {
  size_t i = mrtq__quantize_simd(scale, zp, x, n, MRTQ_U8, out);
  mrtq__quantize_u8_scalar(scale, zp, x + i, n - i, out + i);
}

/* SIMD blocks of the array dequantize (AVX2, AVX-512) of s8 or u8 (t) when
 * |zp| <= 2^24. */
MRTQ__PRIV size_t mrtq__dequantize_simd(float scale, int32_t zp, const uint8_t *q, size_t n, mrtq_dtype t, float *out) {
#if MRTQ__DISPATCH
  const int path = mrtq__simd_path();
  if (path < MRTQ_SIMD_AVX2 || zp < -(1 << 24) || zp > (1 << 24)) return 0;
  if (path == MRTQ_SIMD_AVX512) return mrtq__dequantize_avx512(q, t, n, scale, zp, out);
  return mrtq__dequantize_avx2(q, t, n, scale, zp, out);
#elif MRTQ_SIMD == MRTQ_SIMD_AVX512 || MRTQ_SIMD == MRTQ_SIMD_AVX2
  if (zp < -(1 << 24) || zp > (1 << 24)) return 0;
#if MRTQ_SIMD == MRTQ_SIMD_AVX512
  return mrtq__dequantize_avx512(q, t, n, scale, zp, out);
#else
  return mrtq__dequantize_avx2(q, t, n, scale, zp, out);
#endif
#else
  (void)scale, (void)zp, (void)q, (void)n, (void)t, (void)out;
  return 0;
#endif
}
MRTQ__PRIV void mrtq__dequantize_s8(float scale, int32_t zp, const int8_t *q, size_t n, float *out) {
  size_t i = mrtq__dequantize_simd(scale, zp, (const uint8_t *)q, n, MRTQ_S8, out);
  mrtq__dequantize_s8_scalar(scale, zp, q + i, n - i, out + i);
}
MRTQ__PRIV void mrtq__dequantize_u8(float scale, int32_t zp, const uint8_t *q, size_t n, float *out) {
  size_t i = mrtq__dequantize_simd(scale, zp, q, n, MRTQ_U8, out);
  mrtq__dequantize_u8_scalar(scale, zp, q + i, n - i, out + i);
}

/* The pointer checks of the quantize / dequantize arrays: per-channel
 * parameters (pc: scale and zp arrays, whenever channels > 0), then the data
 * when there are elements. */
MRTQ__PRIV mrtq_status mrtq__q_args(int pc, const float *scale, const int32_t *zp, size_t channels, int dequant,
                                    const void *in, int any, const void *out) {
  if (pc && channels && !scale) return MRTQ__ERR(MRTQ_EINVAL, "scale: NULL while channels > 0");
  if (pc && channels && !zp) return MRTQ__ERR(MRTQ_EINVAL, "zp: NULL while channels > 0");
  if (any && !in)
    return dequant ? MRTQ__ERR(MRTQ_EINVAL, "q: NULL (allowed only when there are no elements)")
                   : MRTQ__ERR(MRTQ_EINVAL, "x: NULL (allowed only when there are no elements)");
  if (any && !out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL (allowed only when there are no elements)");
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_quantize_f32_s8(float scale, int32_t zp, const float *x, size_t n, int8_t *out) {
  mrtq_status st = mrtq__q_args(0, NULL, NULL, 0, 0, x, n > 0, out);
  if (st == MRTQ_OK && n) mrtq__quantize_s8(scale, zp, x, n, out);
  return st;
}
MRTQ_API mrtq_status mrtq_quantize_f32_u8(float scale, int32_t zp, const float *x, size_t n, uint8_t *out) {
  mrtq_status st = mrtq__q_args(0, NULL, NULL, 0, 0, x, n > 0, out);
  if (st == MRTQ_OK && n) mrtq__quantize_u8(scale, zp, x, n, out);
  return st;
}
MRTQ_API mrtq_status mrtq_dequantize_s8_f32(float scale, int32_t zp, const int8_t *q, size_t n, float *out) {
  mrtq_status st = mrtq__q_args(0, NULL, NULL, 0, 1, q, n > 0, out);
  if (st == MRTQ_OK && n) mrtq__dequantize_s8(scale, zp, q, n, out);
  return st;
}
MRTQ_API mrtq_status mrtq_dequantize_u8_f32(float scale, int32_t zp, const uint8_t *q, size_t n, float *out) {
  mrtq_status st = mrtq__q_args(0, NULL, NULL, 0, 1, q, n > 0, out);
  if (st == MRTQ_OK && n) mrtq__dequantize_u8(scale, zp, q, n, out);
  return st;
}

/* Per channel, channel-outer: run c of each block uses scale[c], zp[c]. */
#define MRTQ__Q_OUTER(CALL, IN, DEQ)                                                         \
  size_t o, c;                                                                                \
  mrtq_status st = mrtq__q_args(1, scale, zp, channels, DEQ, IN, outer && channels && inner, out); \
  if (st != MRTQ_OK || !(outer && channels && inner)) return st;                              \
  for (o = 0; o < outer; o++)                                                                 \
    for (c = 0; c < channels; c++, IN += inner, out += inner) CALL(scale[c], zp[c], IN, inner, out); \
  return MRTQ_OK;
MRTQ_API mrtq_status mrtq_quantize_f32_s8_outer(const float *scale, const int32_t *zp, const float *x, size_t outer,
                                                size_t channels, size_t inner, int8_t *out) {
  MRTQ__Q_OUTER(mrtq__quantize_s8, x, 0)
}
MRTQ_API mrtq_status mrtq_quantize_f32_u8_outer(const float *scale, const int32_t *zp, const float *x, size_t outer,
                                                size_t channels, size_t inner, uint8_t *out) {
  MRTQ__Q_OUTER(mrtq__quantize_u8, x, 0)
}
MRTQ_API mrtq_status mrtq_dequantize_s8_f32_outer(const float *scale, const int32_t *zp, const int8_t *q,
                                                  size_t outer, size_t channels, size_t inner, float *out) {
  MRTQ__Q_OUTER(mrtq__dequantize_s8, q, 1)
}
MRTQ_API mrtq_status mrtq_dequantize_u8_f32_outer(const float *scale, const int32_t *zp, const uint8_t *q,
                                                  size_t outer, size_t channels, size_t inner, float *out) {
  MRTQ__Q_OUTER(mrtq__dequantize_u8, q, 1)
}
#undef MRTQ__Q_OUTER

/* Per channel, channel-inner: element c of each row uses scale[c], zp[c]. */
#define MRTQ__Q_INNER(EXPR, IN, DEQ)                                                       \
  size_t r, c;                                                                              \
  mrtq_status st = mrtq__q_args(1, scale, zp, channels, DEQ, IN, rows && channels, out);    \
  if (st != MRTQ_OK || !(rows && channels)) return st;                                      \
  for (r = 0; r < rows; r++, IN += channels, out += channels)                               \
    for (c = 0; c < channels; c++) out[c] = EXPR;                                           \
  return MRTQ_OK;
MRTQ_API mrtq_status mrtq_quantize_f32_s8_inner(const float *scale, const int32_t *zp, const float *x, size_t rows,
                                                size_t channels, int8_t *out) {
  MRTQ__Q_INNER((int8_t)mrtq_quantize_f32(x[c], scale[c], zp[c], -128, 127), x, 0)
}
MRTQ_API mrtq_status mrtq_quantize_f32_u8_inner(const float *scale, const int32_t *zp, const float *x, size_t rows,
                                                size_t channels, uint8_t *out) {
  MRTQ__Q_INNER((uint8_t)mrtq_quantize_f32(x[c], scale[c], zp[c], 0, 255), x, 0)
}
MRTQ_API mrtq_status mrtq_dequantize_s8_f32_inner(const float *scale, const int32_t *zp, const int8_t *q,
                                                  size_t rows, size_t channels, float *out) {
  MRTQ__Q_INNER(mrtq_dequantize_f32(q[c], scale[c], zp[c]), q, 1)
}
MRTQ_API mrtq_status mrtq_dequantize_u8_f32_inner(const float *scale, const int32_t *zp, const uint8_t *q,
                                                  size_t rows, size_t channels, float *out) {
  MRTQ__Q_INNER(mrtq_dequantize_f32(q[c], scale[c], zp[c]), q, 1)
}
#undef MRTQ__Q_INNER

/* ---- TFLite QUANTIZE / DEQUANTIZE ---- */

/* Which TFLite takes the pair (in, out): bit 1 the TF interpreter, bit 2
 * TFLite Micro, 0 neither (S16 -> S16's zero-point rule is checked apart). */
MRTQ__PRIV int mrtq__tfl_q_pair(mrtq_dtype in, mrtq_dtype out) {
  switch (in) {
    case MRTQ_S16: return out == MRTQ_S8 || out == MRTQ_S16 || out == MRTQ_S32 ? 3 : 0;
    case MRTQ_S32: return out == MRTQ_S8 || out == MRTQ_S16 ? 3 : 0;
    case MRTQ_S8: return out == MRTQ_S8 || out == MRTQ_U8 ? 3 : out == MRTQ_S16 || out == MRTQ_S32 ? 2 : 0;
    case MRTQ_U8: return out == MRTQ_S8 ? 3 : out == MRTQ_U8 ? 1 : 0;
    default: return 0;
  }
}

/* Both constructors; micro selects the pair table. */
MRTQ__PRIV mrtq_status mrtq__tfl_q_init(float s_in, int32_t zp_in, mrtq_dtype in_type, float s_out, int32_t zp_out,
                                        mrtq_dtype out_type, int micro, mrtq_tflite_quantize_params *p) {
  mrtq_tflite_quantize_params r;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (mrtq__nonfinite_f32(s_in) || !(s_in > 0)) return MRTQ__ERR(MRTQ_EINVAL, "s_in: NaN, infinite or <= 0");
  if (mrtq__nonfinite_f32(s_out) || !(s_out > 0)) return MRTQ__ERR(MRTQ_EINVAL, "s_out: NaN, infinite or <= 0");
  if (!mrtq__dtype_ok(in_type)) return MRTQ__ERR(MRTQ_EINVAL, "in_type: not an mrtq_dtype");
  if (!mrtq__dtype_ok(out_type)) return MRTQ__ERR(MRTQ_EINVAL, "out_type: not an mrtq_dtype");
  if (!(mrtq__tfl_q_pair(in_type, out_type) & (micro ? 2 : 1)))
    return micro ? MRTQ__ERR(MRTQ_EUNSUPPORTED, "in_type, out_type: not a pair TFLite Micro's QUANTIZE takes")
                 : MRTQ__ERR(MRTQ_EUNSUPPORTED, "in_type, out_type: not a pair the TF interpreter's QUANTIZE takes");
  if (!mrtq__in_type(zp_in, in_type)) return MRTQ__ERR(MRTQ_EINVAL, "zp_in: outside in_type");
  if (!mrtq__in_type(zp_out, out_type)) return MRTQ__ERR(MRTQ_EINVAL, "zp_out: outside out_type");
  if (!micro && in_type == MRTQ_S16 && out_type == MRTQ_S16 && (zp_in != 0 || zp_out != 0))
    return MRTQ__ERR(MRTQ_EINVAL, "zp_in, zp_out: must be 0 for int16 -> int16 (the TF interpreter's quantize.cc)");
  memset(&r, 0, sizeof r);
  (void)mrtq_mult_q31((double)s_in / (double)s_out, &r.m); /* finite, > 0 */
  if (r.m.shift > 30) return MRTQ__ERR(MRTQ_ERANGE, "s_in, s_out: s_in / s_out must be < 2^30 (TFLite's 1 << shift)");
  r.zp_in = zp_in, r.zp_out = zp_out, r.in_type = in_type, r.out_type = out_type;
  *p = r;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_quantize_init(float s_in, int32_t zp_in, mrtq_dtype in_type, float s_out,
                                               int32_t zp_out, mrtq_dtype out_type, mrtq_tflite_quantize_params *p) {
  return mrtq__tfl_q_init(s_in, zp_in, in_type, s_out, zp_out, out_type, 0, p);
}

MRTQ_API mrtq_status mrtq_tflite_quantize_init_micro(float s_in, int32_t zp_in, mrtq_dtype in_type, float s_out,
                                                     int32_t zp_out, mrtq_dtype out_type,
                                                     mrtq_tflite_quantize_params *p) {
  return mrtq__tfl_q_init(s_in, zp_in, in_type, s_out, zp_out, out_type, 1, p);
}

MRTQ_API mrtq_status mrtq_tflite_quantize_init_mult(mrtq_mult m, int32_t zp_in, mrtq_dtype in_type, int32_t zp_out,
                                                    mrtq_dtype out_type, mrtq_tflite_quantize_params *p) {
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (m.mult == 0 ? m.shift != 0 : (m.mult < (1 << 30) || m.shift < -31 || m.shift > 30))
    return MRTQ__ERR(MRTQ_EINVAL, "m: mult 0 with shift 0, or mult in [2^30, 2^31 - 1] with shift in [-31, 30]");
  if (!mrtq__dtype_ok(in_type)) return MRTQ__ERR(MRTQ_EINVAL, "in_type: not an mrtq_dtype");
  if (!mrtq__dtype_ok(out_type)) return MRTQ__ERR(MRTQ_EINVAL, "out_type: not an mrtq_dtype");
  if (!mrtq__tfl_q_pair(in_type, out_type))
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "in_type, out_type: not a pair either TFLite's QUANTIZE takes");
  if (!mrtq__in_type(zp_in, in_type)) return MRTQ__ERR(MRTQ_EINVAL, "zp_in: outside in_type");
  if (!mrtq__in_type(zp_out, out_type)) return MRTQ__ERR(MRTQ_EINVAL, "zp_out: outside out_type");
  p->m = m, p->zp_in = zp_in, p->zp_out = zp_out, p->in_type = in_type, p->out_type = out_type;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_quantize(const mrtq_tflite_quantize_params *p, const void *in, size_t n, void *out) {
  size_t i;
  int32_t lo = 0, hi = 0;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!mrtq__dtype_ok(p->in_type) || !mrtq__dtype_ok(p->out_type))
    return MRTQ__ERR(MRTQ_EINVAL, "p->in_type, p->out_type: not an mrtq_dtype (0: a zero-initialised struct)");
  if (!mrtq__tfl_q_pair(p->in_type, p->out_type))
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "p->in_type, p->out_type: not a pair either TFLite's QUANTIZE takes");
  if (!mrtq__in_type(p->zp_in, p->in_type)) return MRTQ__ERR(MRTQ_EINVAL, "p->zp_in: outside p->in_type");
  if (!mrtq__in_type(p->zp_out, p->out_type)) return MRTQ__ERR(MRTQ_EINVAL, "p->zp_out: outside p->out_type");
  if (p->m.mult == 0 ? p->m.shift != 0 : (p->m.mult < (1 << 30) || p->m.shift < -31 || p->m.shift > 30))
    return MRTQ__ERR(MRTQ_EINVAL, "p->m: mult 0 with shift 0, or mult in [2^30, 2^31 - 1] with shift in [-31, 30]");
  if (n && !in) return MRTQ__ERR(MRTQ_EINVAL, "in: NULL (allowed only when n is 0)");
  if (n && !out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL (allowed only when n is 0)");
  (void)mrtq_dtype_range(p->out_type, &lo, &hi);
  for (i = 0; i < n; i++) {
    int32_t d = mrtq__sat32((int64_t)mrtq__load(in, i, p->in_type) - p->zp_in);
    mrtq__store(out, i, p->out_type, mrtq__clamp64((int64_t)mrtq_mul_q31_dbl(d, p->m) + p->zp_out, lo, hi));
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_tflite_dequantize(float scale, int32_t zp, const void *q, mrtq_dtype type, size_t n,
                                            float *out) {
  size_t i;
  if (type != MRTQ_S8 && type != MRTQ_U8 && type != MRTQ_S16)
    return mrtq__dtype_ok(type) ? MRTQ__ERR(MRTQ_EUNSUPPORTED, "type: must be MRTQ_S8, MRTQ_U8 or MRTQ_S16")
                                : MRTQ__ERR(MRTQ_EINVAL, "type: not an mrtq_dtype");
  if (mrtq__nonfinite_f32(scale)) return MRTQ__ERR(MRTQ_EINVAL, "scale: NaN or infinite");
  if (n && !q) return MRTQ__ERR(MRTQ_EINVAL, "q: NULL (allowed only when n is 0)");
  if (n && !out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL (allowed only when n is 0)");
  for (i = 0; i < n; i++) {
    double v = (double)scale * (double)((int64_t)mrtq__load(q, i, type) - zp); /* |v| < 2^162: finite */
    double a = v < 0 ? -v : v;
    float f;
    if (a >= 3.4028235677973366e+38) { /* FLT_MAX + half an ulp and up: to nearest is infinity */
      uint32_t inf = 0x7f800000u;
      memcpy(&f, &inf, sizeof f);
    } else if (a > 3.4028234663852886e+38) { /* above FLT_MAX, below the midpoint: FLT_MAX */
      f = 3.4028234663852886e+38f;
    } else {
      f = (float)a;
    }
    out[i] = v < 0 ? -f : f;
  }
  return MRTQ_OK;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_REQUANT_H */
