/* mrtq.h -- exact integer quantization math, header-only C11.
 *
 * WHAT IT IS
 *   The reference arithmetic of integer quantization: scale/zero-point choice,
 *   fixed-point multiplier encoding, dequantization and requantization with the
 *   exact rounding of each upstream scheme (TFLite/gemmlowp Q31 double and
 *   single rounding, the VTA TFLite delegate's Q15, MRT/CVM's rounding shift,
 *   XNNPACK/oneDNN fp32, ONNX QuantizeLinear), bit-exact with its origin. Use it
 *   to verify accelerator output bit for bit, or as the scalar truth beside a
 *   fast path.
 *
 * HOW TO USE
 *   #include "mrtq.h"   (add include/ to the include path; nothing to link)
 *   By default every function is `static inline` (see MRTQ_API, or compile the
 *   bodies once with MRTQ_EXTERN + MRTQ_IMPLEMENTATION); no malloc, no I/O, no
 *   libm, and no global state but one cached int: the SIMD path run-time
 *   dispatch chose (see MRTQ_NO_DISPATCH). Each header opens with its whole public API
 *   (types and prototypes with their contracts); the bodies follow. mrtq.h
 *   includes the core layers below; the optional VTA backend (mrtq/vta.h) is
 *   never included by this file. The API's rules (element types, layouts,
 *   argument order, float or double, errors) are in docs/api.md.
 *     mrtq/common.h      status codes, mrtq_dtype, mrtq_layout, mrtq_qoperand,
 *                        version, linkage and error-hook macros
 *     mrtq/fixedpoint.h  mrtq_mult_q31/_q15 encoders, SRDHM, RDIVPOT, rounding shifts
 *     mrtq/requant.h     the requantization families, quantize/dequantize,
 *                        and their array forms (mrtq_rq, SIMD twins)
 *     mrtq/scale.h       qparams from ranges (MRT, ONNX, TFLite), calibration
 *     mrtq/eltwise.h     NumPy broadcasting; TFLite ADD/MUL/MAXIMUM/MINIMUM, XNNPACK ADD; MRT add/sub/mul, merge
 *     mrtq/pool.h        max pooling (XNNPACK's dilated form too), TFLite and MRT average pooling
 *     mrtq/shape.h       padding, slicing (lazy split), concatenation with rescaling, flatten,
 *                        TFLite's TRANSPOSE (up to 6 dims)
 *     mrtq/precision.h   precision inference: output bit-widths, overflow-free K
 *     mrtq/conv.h        reference conv2d (groups, depthwise, NCHW/NHWC), FC and batched matmul, expansion form
 *     mrtq/conv_s16.h    TFLite's 16x8 conv / depthwise / FC (int16 x int8) and int16 batch matmul, int64 or int32 accumulator
 *     mrtq/attr.h        oneDNN-style attributes: output scales, zero points, bias, post-ops
 *     mrtq/fastconv.h    the fast core of attr.h's convolution / inner product: packed
 *                        weights, im2col, an int8 GEMM (AVX512-VNNI when enabled), same bytes
 *     mrtq/tflite.h      porting helpers: a .tflite file's numbers as mrtq descriptors (fused
 *                        activation bounds, SAME / VALID pads, bias and per-channel weight quantization)
 *     mrtq/fxmath.h      gemmlowp's fixed-point exp / logistic / tanh, integer bits at run time
 *     mrtq/activation.h  TFLite's RELU / RELU6 / RELU_N1_TO_1 operators, LEAKY_RELU, PRELU,
 *                        HARD_SWISH, LOGISTIC and TANH (fixed point, float table, int16)
 *     mrtq/lstm.h        TFLite Micro's integer LSTM (UNIDIRECTIONAL_SEQUENCE_LSTM): int8 or int16
 *                        activations, int8 weights, int16 cell state
 *     mrtq/transpose_conv.h  TFLite's TRANSPOSE_CONV (int8, uint8, 16x8)
 *     mrtq/batch_matmul.h    TFLite's BATCH_MATMUL (adj_x / adj_y, batch broadcasting)
 *     mrtq/svdf.h        TFLite's integer SVDF (both TFLites' state types)
 *     mrtq/reduce.h      TFLite's quantized MEAN and SUM
 *     mrtq/softmax.h     TFLite's SOFTMAX: gemmlowp reference, int16 tables, the interpreter's float table
 *     mrtq/resize.h      TFLite's RESIZE_BILINEAR (10-bit fixed point) and RESIZE_NEAREST_NEIGHBOR
 *     mrtq/ort.h         ONNX Runtime's Quantize / DequantizeLinear, QLinearAdd / Mul, QLinear* scales
 *
 * CONFIGURATION MACROS (define before the first include)
 *   MRTQ_API   linkage of every public function. Default `static inline`
 *              (any internal linkage may replace it); with MRTQ_EXTERN,
 *              default empty (external linkage; e.g. a visibility attribute).
 *              Must be the same in every translation unit that includes mrtq.
 *   MRTQ_EXTERN  in every translation unit: the headers declare, and do not
 *              define, the public functions. Define MRTQ_IMPLEMENTATION as
 *              well in exactly one translation unit: it compiles every body
 *              once. Must agree across translation units.
 *   MRTQ_ON_ERROR(code, why)  evaluated once at every refusal, before the
 *              function returns `code`; `why` is a string literal naming the
 *              argument and the rule it broke ("w->zp: must be 0 ...").
 *              Default: nothing. Need not agree across translation units
 *              (with MRTQ_EXTERN, the implementation unit's counts).
 *   MRTQ_SIMD  the SIMD path of the array functions (mrtq_requant_s8/_u8,
 *              mrtq_requant's 8-bit outputs, the _outer forms, the array
 *              quantize / dequantize): MRTQ_SIMD_SCALAR, MRTQ_SIMD_SSE41,
 *              MRTQ_SIMD_AVX2, MRTQ_SIMD_AVX512 (needs AVX-512 F, BW and DQ)
 *              or MRTQ_SIMD_NEON (AArch64). Default: the best the compiler
 *              target enables (-mavx512f -mavx512bw -mavx512dq, -mavx2,
 *              -msse4.1, or AArch64 NEON), else scalar; on x86-64 with gcc
 *              or clang, raised at run time by dispatch (MRTQ_NO_DISPATCH).
 *              Asking for a path the target lacks is an #error. Setting
 *              MRTQ_SIMD fixes the path at compile time (no dispatch). Every
 *              path gives the same bytes as the scalar code, so it need not
 *              agree across translation units.
 *   MRTQ_NO_SIMD  same as MRTQ_SIMD=MRTQ_SIMD_SCALAR.
 *   MRTQ_NO_DISPATCH  turns run-time dispatch off: the path is the
 *              compile-time default above. Without it, an x86-64 build with
 *              gcc >= 8 or clang >= 9 that sets neither MRTQ_SIMD nor
 *              MRTQ_NO_SIMD and whose target is below AVX-512 F/BW/DQ -- a
 *              plain `cc -O2 app.c` among them, which before 0.3.0 got the
 *              scalar loop -- compiles the SSE4.1, AVX2 and AVX-512 twins with
 *              target pragmas and runs the best one the CPU and the OS support
 *              (cpuid + xgetbv, read with inline asm: no extra header), chosen
 *              at the first array call and cached in one int per translation
 *              unit (per implementation unit with MRTQ_EXTERN). That int is
 *              read and written with relaxed atomics (__atomic builtins);
 *              threads that race to fill it store the same value, so the race
 *              is benign and needs no lock. With -mavx512f -mavx512bw
 *              -mavx512dq (or -march=native on such a CPU) the AVX-512 twin is
 *              called directly. Other compilers and targets: no dispatch.
 *              Need not agree across translation units.
 *
 * ERRORS
 *   Functions that can fail return mrtq_status (MRTQ_OK == 0; mrtq_status_str()
 *   names it) and report which argument and why through MRTQ_ON_ERROR. A
 *   refusal writes nothing to the outputs; a field that does not apply to
 *   the chosen mode must be zero, or it is refused (nothing set is silently
 *   ignored). Pure arithmetic functions cannot fail: each is total, with a
 *   documented result for every argument value, and never executes undefined
 *   behaviour.
 *
 * DETERMINISM CONTRACT
 *   - Integer functions give the same bits on every conforming C11/C++11
 *     compiler and target: no implementation-defined shifts or conversions.
 *   - Float functions (mrtq_requant_fp32, mrtq_quantize_f32,
 *     mrtq_dequantize_f32, the ONNX qparams scheme) use plain IEEE float ops
 *     in the default environment (round to nearest even) and are written so
 *     that no FMA contraction can apply; do not build them with -ffast-math or
 *     a non-default rounding mode. Rounding to integer is done on the bit
 *     pattern, independent of the rounding mode.
 *   - The oneDNN-style epilogues (mrtq/attr.h, mrtq/fastconv.h) round every
 *     float operation on its own except where the scheme itself is a fused
 *     multiply-add (mrtq__fmaf, exact without libm); products are passed
 *     through a volatile float so that no contraction setting (gcc's
 *     -ffp-contract=fast in GNU modes, clang's default "on") can fuse them.
 *     The tests build them with -std=gnu11 -ffp-contract=fast -mfma as well.
 *   - The array functions give the same bytes on every SIMD path (tests
 *     compare each path with the scalar specification mrtq_rq_apply); their
 *     fp32 forms -- the SIMD paths and the scalar array loop, which rounds
 *     with the 1.5 * 2^23 magic number -- assume the default rounding mode
 *     (the per-element mrtq_rq_apply and mrtq_requant_fp32 do not). So the bytes
 *     never depend on which path run-time dispatch chose, on the CPU, or on
 *     MRTQ_SIMD / MRTQ_NO_DISPATCH: only the speed does.
 *   - Bit-exact with upstream: see each function's comment and docs/semantics.md.
 *
 * VERSION
 *   MRTQ_VERSION_MAJOR, MRTQ_VERSION_MINOR, MRTQ_VERSION_PATCH,
 *   MRTQ_VERSION (major*10000 + minor*100 + patch), MRTQ_VERSION_STRING.
 */
#ifndef MRTQ_H
#define MRTQ_H

#include "mrtq/common.h"
#include "mrtq/fixedpoint.h"
#include "mrtq/requant.h"
#include "mrtq/scale.h"
#include "mrtq/eltwise.h"
#include "mrtq/pool.h"
#include "mrtq/shape.h"
#include "mrtq/precision.h"
#include "mrtq/conv.h"
#include "mrtq/conv_s16.h"
#include "mrtq/attr.h"
#include "mrtq/fastconv.h"
#include "mrtq/tflite.h"
#include "mrtq/fxmath.h"
#include "mrtq/activation.h"
#include "mrtq/lstm.h"
#include "mrtq/transpose_conv.h"
#include "mrtq/batch_matmul.h"
#include "mrtq/svdf.h"
#include "mrtq/reduce.h"
#include "mrtq/softmax.h"
#include "mrtq/resize.h"
#include "mrtq/ort.h"

#endif /* MRTQ_H */
