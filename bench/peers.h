// Peer implementations measured beside mrtq (C++; test/bench-only deps).
#ifndef MRTQ_BENCH_PEERS_H
#define MRTQ_BENCH_PEERS_H

#include <cstddef>
#include <cstdint>

// gemmlowp's AVX2 fixedpoint: SaturatingRoundingDoublingHighMul +
// RoundingDivideByPOT on __m256i, then + zp, clamp [-128, 127], pack (Q31
// double rounding, shift <= 0). Returns false if gemmlowp is not built in.
bool peer_gemmlowp_q31_dbl(const int32_t *acc, size_t n, int32_t mult, int32_t shift, int32_t zp, int8_t *out);

// oneDNN reorder s32 -> s8 with an output scale and a dst zero point
// (fp32 requantization). Returns false if oneDNN is not built in or fails.
struct OnednnReorder;
OnednnReorder *peer_onednn_create(const int32_t *acc, size_t n, float scale, int32_t zp, int8_t *out);
void peer_onednn_run(OnednnReorder *r);
void peer_onednn_destroy(OnednnReorder *r);

// oneDNN's int8 convolution / inner product for a kernel-benchmark layer
// (same attributes as mrtqb_layer_mrtq; weights reordered once at creation).
struct mrtqb_layer;
struct OnednnLayer;
OnednnLayer *peer_onednn_layer_create(const mrtqb_layer *l, const uint8_t *x, const int8_t *w, const int32_t *bias, uint8_t *dst);
void peer_onednn_layer_run(OnednnLayer *r);
void peer_onednn_layer_destroy(OnednnLayer *r);

#endif
