// Registers the measured loops (bench/loops.c, the C shim) and the peers with
// Google Benchmark. Every output is checked against the scalar path before it
// is timed; a mismatch is reported as an error, not timed.
//
// Names: FAMILY/IMPL/N/ALIGNMENT, FAMILY in Q31_DBL Q31_RNDNU Q15_VTA Q15_RNDNU FP32 or
// CEILING; IMPL in mrtq_avx512 mrtq_avx2 mrtq_sse41 mrtq_dispatch scalar plain_loop (bench/plain.c: the
// family as a user writes it without mrtq, no -m flag) gemmlowp_avx2 onednn
// load_narrow_store_*. Items are accumulators; bytes are 4 read + 1 written.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <stdlib.h>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "peers.h"
#include "shim.h"

// the fast core's library built with AVX512-VBMI too (bench/meson.build): its rows need a CPU with it
#ifndef MRTQB_FAST_VBMI
#define MRTQB_FAST_VBMI 0
#endif

namespace {

const char *kFamily[] = {"Q31_DBL", "Q31_RNDNU", "Q15_VTA", "Q15_RNDNU", "FP32"};
const double kScale = 0.0123456789 / 64;  // a typical conv output scale
// Even: oneDNN's reorder adds the zero point in float before rounding (RNE(f + zp)),
// which equals RNE(f) + zp only for even zp; with an even zp all peers compute the same bytes.
const int32_t kZp = -4;

// 64-byte aligned storage (the aligned case; cache-line splits would otherwise
// charge every 64-byte access twice).
template <typename T>
struct AlignedBuf {
  T *p;
  size_t n;
  explicit AlignedBuf(size_t count) : p(static_cast<T *>(::aligned_alloc(64, (count * sizeof(T) + 63) / 64 * 64))), n(count) {
    if (!p) std::abort();
  }
  ~AlignedBuf() { std::free(p); }
  AlignedBuf(const AlignedBuf &) = delete;
  AlignedBuf &operator=(const AlignedBuf &) = delete;
  T *data() { return p; }
  size_t size() const { return n; }
  T &operator[](size_t i) { return p[i]; }
};

struct Buffers {
  AlignedBuf<int32_t> acc;
  AlignedBuf<int8_t> out, ref;
  explicit Buffers(size_t n) : acc(n), out(n), ref(n) {
    uint64_t s = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < n; i++) {  // conv-like accumulators, +-2^20
      s ^= s << 13, s ^= s >> 7, s ^= s << 17;
      acc[i] = static_cast<int32_t>(s >> 43) - (1 << 20);
    }
  }
};

Buffers &buffers(size_t n) {
  static std::vector<std::unique_ptr<Buffers>> pool;
  for (auto &b : pool)
    if (b->acc.size() == n) return *b;
  pool.emplace_back(new Buffers(n));
  return *pool.back();
}

void count(benchmark::State &st, size_t n) {
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations()) * static_cast<int64_t>(n));
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * static_cast<int64_t>(n) * 5);
}

typedef void (*requant_fn)(const mrtqb_rq *, const int32_t *, size_t, int8_t *);

// off = 0: 64-byte aligned input and output; off = 1: both one element off
// (4-byte aligned input, unaligned output), as data inside a larger tensor is.
void bm_mrtq(benchmark::State &st, int family, requant_fn fn, size_t n, size_t off) {
  Buffers &b = buffers(n + off);
  mrtqb_rq rq;
  if (mrtqb_rq_init(&rq, family, kScale, kZp) != 0) return st.SkipWithError("rq_init failed");
  mrtqb_requant_scalar(&rq, b.acc.data() + off, n, b.ref.data() + off);
  fn(&rq, b.acc.data() + off, n, b.out.data() + off);
  if (std::memcmp(b.out.data() + off, b.ref.data() + off, n) != 0) return st.SkipWithError("output differs from scalar");
  for (auto _ : st) {
    fn(&rq, b.acc.data() + off, n, b.out.data() + off);
    benchmark::DoNotOptimize(b.out.data());
    benchmark::ClobberMemory();
  }
  count(st, n);
}

void bm_ceiling(benchmark::State &st, void (*fn)(const int32_t *, size_t, int8_t *), size_t n, size_t off) {
  Buffers &b = buffers(n + off);
  for (auto _ : st) {
    fn(b.acc.data() + off, n, b.out.data() + off);
    benchmark::DoNotOptimize(b.out.data());
    benchmark::ClobberMemory();
  }
  count(st, n);
}

void bm_gemmlowp(benchmark::State &st, size_t n, size_t off) {
  Buffers &b = buffers(n + off);
  mrtqb_rq rq;
  int32_t mult, shift;
  mrtqb_rq_init(&rq, 0, kScale, kZp);
  mrtqb_rq_mult(&rq, &mult, &shift);
  mrtqb_requant_scalar(&rq, b.acc.data() + off, n, b.ref.data() + off);
  if (!peer_gemmlowp_q31_dbl(b.acc.data() + off, n, mult, shift, kZp, b.out.data() + off))
    return st.SkipWithError("gemmlowp AVX2 not built in");
  if (std::memcmp(b.out.data() + off, b.ref.data() + off, n) != 0) return st.SkipWithError("gemmlowp output differs from mrtq");
  for (auto _ : st) {
    peer_gemmlowp_q31_dbl(b.acc.data() + off, n, mult, shift, kZp, b.out.data() + off);
    benchmark::DoNotOptimize(b.out.data());
    benchmark::ClobberMemory();
  }
  count(st, n);
}

void bm_onednn(benchmark::State &st, size_t n, size_t off) {
  Buffers &b = buffers(n + off);
  mrtqb_rq rq;
  mrtqb_rq_init(&rq, 4, kScale, kZp);
  mrtqb_requant_scalar(&rq, b.acc.data() + off, n, b.ref.data() + off);
  OnednnReorder *r = peer_onednn_create(b.acc.data() + off, n, static_cast<float>(kScale), kZp, b.out.data() + off);
  if (!r) return st.SkipWithError("oneDNN not built in or reorder not supported");
  peer_onednn_run(r);
  if (std::memcmp(b.out.data() + off, b.ref.data() + off, n) != 0) {
    peer_onednn_destroy(r);
    return st.SkipWithError("oneDNN output differs from mrtq");
  }
  for (auto _ : st) {
    peer_onednn_run(r);
    benchmark::ClobberMemory();
  }
  peer_onednn_destroy(r);
  count(st, n);
}

// Per-channel requantization, channel-inner (NHWC): rows x ch accumulators,
// one scale per channel (spread over a factor 2 around kScale), mrtq's
// mrtq_requant_s8_inner per path or the plain per-channel loop, each checked
// against the scalar path before timing. Items are accumulators.
typedef void (*inner_fn)(const void *, const int32_t *, size_t, size_t, int8_t *);
void bm_perch(benchmark::State &st, int family, inner_fn fn, size_t rows, size_t ch) {
  const size_t n = rows * ch;
  Buffers &b = buffers(n);
  std::vector<double> sc(ch);
  for (size_t c = 0; c < ch; c++) sc[c] = kScale * (0.75 + 0.5 * static_cast<double>((c * 37) % ch) / static_cast<double>(ch));
  void *rq = mrtqb_perch_create(family, ch, sc.data(), kZp);
  if (!rq) return st.SkipWithError("rq_init failed");
  std::vector<int32_t> mult(ch), shift(ch), zp(ch);
  std::vector<float> scale(ch);
  for (size_t c = 0; c < ch; c++) mrtqb_perch_params(rq, c, &mult[c], &shift[c], &scale[c], &zp[c]);
  auto run = [&]() {
    if (fn) return fn(rq, b.acc.data(), rows, ch, b.out.data());
    mrtqb_plain_perch(family, mult.data(), shift.data(), scale.data(), kZp, b.acc.data(), rows, ch, b.out.data());
  };
  mrtqb_inner_scalar(rq, b.acc.data(), rows, ch, b.ref.data());
  run();
  if (std::memcmp(b.out.data(), b.ref.data(), n) != 0) {
    mrtqb_perch_destroy(rq);
    return st.SkipWithError("output differs from scalar");
  }
  for (auto _ : st) {
    run();
    benchmark::DoNotOptimize(b.out.data());
    benchmark::ClobberMemory();
  }
  mrtqb_perch_destroy(rq);
  count(st, n);
}

// Kernel benchmarks: one int8 layer, mrtq's reference kernel or oneDNN's
// primitive, both checked equal byte for byte before timing. Items are
// multiply-accumulates.
struct LayerData {
  std::vector<uint8_t> x, ours, theirs;
  std::vector<int8_t> w;
  std::vector<int32_t> bias;
  std::vector<float> oscale;
  mrtqb_layer l;
  size_t macs = 0, out = 0;
  int checked = 0;  // 1 equal, -1 different or failed
};

LayerData &layer_data(const mrtqb_layer &proto) {
  static std::vector<std::unique_ptr<LayerData>> pool;
  for (auto &d : pool)
    if (d->l.name == proto.name) return *d;
  auto *d = new LayerData;
  pool.emplace_back(d);
  d->l = proto;
  size_t ho = 1, wo = 1;
  if (!proto.fc) mrtqb_layer_out(&proto, &ho, &wo);
  const size_t cg = proto.c / proto.groups;
  d->out = proto.n * ho * wo * proto.o;
  d->macs = d->out * proto.k * proto.k * cg;
  uint64_t s = 0x2545f4914f6cdd1du;
  auto next = [&s]() { s ^= s << 13, s ^= s >> 7, s ^= s << 17; return s; };
  d->x.resize(proto.n * proto.h * proto.w * proto.c);
  for (auto &v : d->x) v = static_cast<uint8_t>(next() >> 56);
  d->w.resize(proto.o * proto.k * proto.k * cg);
  for (auto &v : d->w) v = static_cast<int8_t>(next() >> 56);
  d->bias.resize(proto.o);
  for (auto &v : d->bias) v = static_cast<int32_t>(next() % 20001) - 10000;
  d->oscale.resize(proto.o);
  // scales that spread the sums over the u8 range (per channel, ~1 / (16 sqrt(k)))
  for (size_t i = 0; i < proto.o; i++) d->oscale[i] = static_cast<float>((0.5 + static_cast<double>(next() % 1000) / 1000.0) / (16.0 * std::sqrt(static_cast<double>(proto.k * proto.k * cg))));
  d->l.oscale = d->oscale.data();
  d->ours.assign(d->out, 0), d->theirs.assign(d->out, 0);
  return *d;
}

int layer_check(LayerData &d) {
  if (d.checked) return d.checked;
  d.checked = -1;
  if (mrtqb_layer_mrtq(&d.l, d.x.data(), d.w.data(), d.bias.data(), d.ours.data()) != 0) return -1;
  OnednnLayer *r = peer_onednn_layer_create(&d.l, d.x.data(), d.w.data(), d.bias.data(), d.theirs.data());
  if (!r) return -1;
  peer_onednn_layer_run(r);
  peer_onednn_layer_destroy(r);
  if (d.ours == d.theirs) d.checked = 1;
  return d.checked;
}

void layer_count(benchmark::State &st, const LayerData &d) {
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations()) * static_cast<int64_t>(d.macs));
  st.counters["outputs"] = static_cast<double>(d.out);
  // the fewest 512-bit vpdpbusd any int8 kernel needs: 16 output channels of a
  // pixel per instruction, four taps of the channel's group per lane
  const size_t cg = d.l.c / d.l.groups, taps = d.l.k * d.l.k * cg;
  st.counters["vpdpbusd"] = static_cast<double>(d.out / d.l.o * ((d.l.o + 15) / 16) * ((taps + 3) / 4));
}

void bm_layer_mrtq(benchmark::State &st, mrtqb_layer proto) {
  LayerData &d = layer_data(proto);
  if (layer_check(d) != 1) return st.SkipWithError("mrtq and oneDNN differ (or oneDNN is missing)");
  for (auto _ : st) {
    mrtqb_layer_mrtq(&d.l, d.x.data(), d.w.data(), d.bias.data(), d.ours.data());
    benchmark::ClobberMemory();
  }
  layer_count(st, d);
}

void bm_layer_onednn(benchmark::State &st, mrtqb_layer proto) {
  LayerData &d = layer_data(proto);
  if (layer_check(d) != 1) return st.SkipWithError("mrtq and oneDNN differ (or oneDNN is missing)");
  OnednnLayer *r = peer_onednn_layer_create(&d.l, d.x.data(), d.w.data(), d.bias.data(), d.theirs.data());
  if (!r) return st.SkipWithError("oneDNN primitive not created");
  for (auto _ : st) {
    peer_onednn_layer_run(r);
    benchmark::ClobberMemory();
  }
  peer_onednn_layer_destroy(r);
  layer_count(st, d);
}

#ifdef MRTQB_HAVE_FAST
// mrtq's fast core: weights packed once, then the layer per iteration, in
// oneDNN's convention (its bytes compared with the reference kernel's,
// themselves equal to oneDNN's) or in TFLite's requantization (per-channel Q31
// double rounding, planned once; tflite 2: mrtq_fastconv_q8 per call;
// compared with mrtq_conv2d_q8's), on one thread or on `threads`
// (examples/pool.h) -- compared before timing.
void bm_layer_fast(benchmark::State &st, mrtqb_layer proto, int tflite, int threads) {
  LayerData &d = layer_data(proto);
  if (!tflite && layer_check(d) != 1) return st.SkipWithError("mrtq and oneDNN differ (or oneDNN is missing)");
  mrtqb_fast *f = mrtqb_fast_create(&d.l, d.w.data(), d.bias.data());
  if (!f) return st.SkipWithError("mrtq_fastconv_init failed");
  std::vector<uint8_t> out(d.out, 0), ref = d.ours;
  auto run = [&]() {
    if (threads > 1) return mrtqb_fast_run_threads(f, d.x.data(), d.bias.data(), out.data(), tflite, threads);
    return tflite ? mrtqb_fast_run_tflite(f, d.x.data(), d.bias.data(), out.data(), tflite == 2)
                  : mrtqb_fast_run(f, d.x.data(), d.bias.data(), out.data());
  };
  if ((tflite && mrtqb_fast_ref_tflite(f, d.x.data(), d.w.data(), d.bias.data(), ref.data()) != 0) || run() != 0 ||
      out != ref) {
    mrtqb_fast_destroy(f);
    return st.SkipWithError("mrtq's fast core differs from its reference kernel");
  }
  for (auto _ : st) {
    run();
    benchmark::ClobberMemory();
  }
  mrtqb_fast_destroy(f);
  layer_count(st, d);
}

// The kernel table's ceiling (kernels_fast.c): vpdpbusd on registers, 24
// independent chains; items = instructions.
void bm_vnni_peak(benchmark::State &st) {
  const size_t units = 1 << 16;
  size_t s = 0;
  for (auto _ : st) {
    s += mrtqb_vnni_peak(units);
    benchmark::DoNotOptimize(s);
  }
  st.SetItemsProcessed(static_cast<int64_t>(st.iterations()) * static_cast<int64_t>(24 * units));
}

// The machine's own 2-thread scaling (kernels_fast.c): the same
// register-only vpdpbusd work on 1 thread or split over 2.
void bm_alu(benchmark::State &st, int threads) {
  mrtqb_alu *a = mrtqb_alu_create(threads, 1 << 16);
  if (!a) return st.SkipWithError("the pool did not start");
  int32_t s = 0;
  for (auto _ : st) {
    s += mrtqb_alu_run(a);
    benchmark::DoNotOptimize(s);
  }
  mrtqb_alu_destroy(a);
}

// TFLite's 16x8 on the fast core: the layer's int8 weights and scales, int16
// activations ((x - 128) 256 + a random low byte: the u8 data spread over
// int16) with the layer's scales (the sums and the int16 range both 256 times
// the u8 ones: outputs spread over int16 as those over u8); compared with the
// scalar reference mrtq_conv2d_s16x8_* / mrtq_fc_s16x8_* before timing.
void bm_layer_fast16(benchmark::State &st, mrtqb_layer proto, int acc64) {
  LayerData &d = layer_data(proto);
  mrtqb_fast16 *f = mrtqb_fast16_create(&d.l, d.w.data(), 1.0);
  if (!f) return st.SkipWithError("mrtq_fastconv_init_s16x8 failed");
  std::vector<int16_t> x16(d.x.size()), out(d.out, 0), ref(d.out, 1);
  uint64_t s = 0x9e3779b97f4a7c15u;
  for (size_t i = 0; i < x16.size(); i++) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    x16[i] = static_cast<int16_t>((static_cast<int>(d.x[i]) - 128) * 256 + static_cast<int>(s >> 56));
  }
  if (mrtqb_fast16_ref(f, x16.data(), d.w.data(), d.bias.data(), acc64, ref.data()) != 0 ||
      mrtqb_fast16_run(f, x16.data(), d.bias.data(), acc64, out.data()) != 0 || out != ref) {
    mrtqb_fast16_destroy(f);
    return st.SkipWithError("mrtq's fast 16x8 core differs from its reference kernel");
  }
  for (auto _ : st) {
    mrtqb_fast16_run(f, x16.data(), d.bias.data(), acc64, out.data());
    benchmark::ClobberMemory();
  }
  mrtqb_fast16_destroy(f);
  layer_count(st, d);
}
#endif

}  // namespace

int main(int argc, char **argv) {
  setenv("OMP_NUM_THREADS", "1", 1);  // single thread, peers included
  // L1-resident (~8K accumulators), L2-resident, DRAM (64 MiB of input)
  const size_t sizes[] = {8192, 131072, size_t{16} << 20};
  for (size_t off : {size_t{0}, size_t{1}}) {
    const std::string al = off ? "/misaligned" : "/aligned";
    for (size_t n : sizes) {
      std::string ns = "/" + std::to_string(n) + al;
      for (int f = 0; f < 5; f++) {
        std::string fam = kFamily[f];
        benchmark::RegisterBenchmark((fam + "/mrtq_avx512" + ns).c_str(), bm_mrtq, f, mrtqb_requant_avx512, n, off);
        benchmark::RegisterBenchmark((fam + "/mrtq_avx2" + ns).c_str(), bm_mrtq, f, mrtqb_requant_avx2, n, off);
        benchmark::RegisterBenchmark((fam + "/mrtq_sse41" + ns).c_str(), bm_mrtq, f, mrtqb_requant_sse41, n, off);
        benchmark::RegisterBenchmark((fam + "/mrtq_dispatch" + ns).c_str(), bm_mrtq, f, mrtqb_requant_dispatch, n, off);
        benchmark::RegisterBenchmark((fam + "/scalar" + ns).c_str(), bm_mrtq, f, mrtqb_requant_scalar, n, off);
        benchmark::RegisterBenchmark((fam + "/plain_loop" + ns).c_str(), bm_mrtq, f, mrtqb_plain, n, off);
      }
      benchmark::RegisterBenchmark(("Q31_DBL/gemmlowp_avx2" + ns).c_str(), bm_gemmlowp, n, off);
      benchmark::RegisterBenchmark(("FP32/onednn" + ns).c_str(), bm_onednn, n, off);
      benchmark::RegisterBenchmark(("CEILING/load_narrow_store_avx512" + ns).c_str(), bm_ceiling, mrtqb_ceiling_avx512, n, off);
      benchmark::RegisterBenchmark(("CEILING/load_narrow_store_avx2" + ns).c_str(), bm_ceiling, mrtqb_ceiling_avx2, n, off);
    }
  }
  // per channel, channel-inner: a ResNet-18 conv2 output (56x56x64) and a conv5 output (7x7x512)
  for (auto shape : {std::make_pair(size_t{3136}, size_t{64}), std::make_pair(size_t{49}, size_t{512})}) {
    const std::string sh = "/" + std::to_string(shape.first) + "x" + std::to_string(shape.second);
    for (int f : {0, 4}) {
      const std::string fam = std::string("PERCH/") + kFamily[f];
      const std::pair<const char *, inner_fn> impls[] = {{"mrtq_avx512", mrtqb_inner_avx512}, {"mrtq_avx2", mrtqb_inner_avx2},
          {"mrtq_dispatch", mrtqb_inner_dispatch}, {"scalar", mrtqb_inner_scalar}, {"plain_loop", nullptr}};
      for (const auto &im : impls)
        benchmark::RegisterBenchmark((fam + "/" + im.first + sh).c_str(), bm_perch, f, im.second, shape.first, shape.second);
    }
  }
  // name, n, c, h, w, o, k, stride, pad, groups, fc, src_zp, dst_zp (oneDNN 2.6 inner product: no zero points)
  static const mrtqb_layer layers[] = {
      {"resnet18_conv2_3x3_64", 1, 64, 56, 56, 64, 3, 1, 1, 1, 0, 3, 5, nullptr},
      {"resnet18_conv3_3x3_128", 1, 128, 28, 28, 128, 3, 1, 1, 1, 0, 3, 5, nullptr},
      {"resnet18_conv4_3x3_256", 1, 256, 14, 14, 256, 3, 1, 1, 1, 0, 3, 5, nullptr},
      {"resnet18_conv5_3x3_512", 1, 512, 7, 7, 512, 3, 1, 1, 1, 0, 3, 5, nullptr},
      {"resnet18_down_1x1s2_64_128", 1, 64, 56, 56, 128, 1, 2, 0, 1, 0, 3, 5, nullptr},
      {"mobilenet_dw_3x3s1_32_112", 1, 32, 112, 112, 32, 3, 1, 1, 32, 0, 3, 5, nullptr},
      {"mobilenet_dw_3x3s2_64_112", 1, 64, 112, 112, 64, 3, 2, 1, 64, 0, 3, 5, nullptr},
      {"mobilenet_dw_3x3s1_512_14", 1, 512, 14, 14, 512, 3, 1, 1, 512, 0, 3, 5, nullptr},
      {"fc_1024x1024_rows1", 1, 1024, 1, 1, 1024, 1, 1, 0, 1, 1, 0, 0, nullptr},
      {"fc_1024x1024_rows64", 64, 1024, 1, 1, 1024, 1, 1, 0, 1, 1, 0, 0, nullptr},
  };
#ifdef MRTQB_HAVE_FAST
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vnni"))
    benchmark::RegisterBenchmark("PEAK/vpdpbusd", bm_vnni_peak)->Unit(benchmark::kMillisecond);
#endif
  for (const auto &l : layers) {
    benchmark::RegisterBenchmark((std::string("KERNEL/") + l.name + "/mrtq_scalar").c_str(), bm_layer_mrtq, l)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("KERNEL/") + l.name + "/onednn").c_str(), bm_layer_onednn, l)->Unit(benchmark::kMillisecond);
#ifdef MRTQB_HAVE_FAST
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vnni") && (!MRTQB_FAST_VBMI || __builtin_cpu_supports("avx512vbmi")))
    {
      benchmark::RegisterBenchmark((std::string("KERNEL/") + l.name + "/mrtq_fast").c_str(), bm_layer_fast, l, 0, 1)
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark((std::string("KERNEL/") + l.name + "/mrtq_fast_tflite").c_str(), bm_layer_fast, l, 1, 1)
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark((std::string("KERNEL/") + l.name + "/mrtq_fast_tflite_percall").c_str(), bm_layer_fast, l, 2, 1)
          ->Unit(benchmark::kMillisecond);
      // 2 threads: real time (the worker's CPU time is not the caller's)
      benchmark::RegisterBenchmark((std::string("KERNEL/") + l.name + "/mrtq_fast_2t").c_str(), bm_layer_fast, l, 0, 2)
          ->Unit(benchmark::kMillisecond)->UseRealTime();
      benchmark::RegisterBenchmark((std::string("KERNEL/") + l.name + "/mrtq_fast_tflite_2t").c_str(), bm_layer_fast, l, 1, 2)
          ->Unit(benchmark::kMillisecond)->UseRealTime();
      benchmark::RegisterBenchmark((std::string("KERNEL/") + l.name + "/mrtq_fast_s16x8_acc64").c_str(), bm_layer_fast16, l, 1)
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark((std::string("KERNEL/") + l.name + "/mrtq_fast_s16x8_acc32").c_str(), bm_layer_fast16, l, 0)
          ->Unit(benchmark::kMillisecond);
    }
#endif
  }
#ifdef MRTQB_HAVE_FAST
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vnni")) {
    benchmark::RegisterBenchmark("THREADS/alu_vpdpbusd/1", bm_alu, 1)->Unit(benchmark::kMillisecond)->UseRealTime();
    benchmark::RegisterBenchmark("THREADS/alu_vpdpbusd/2", bm_alu, 2)->Unit(benchmark::kMillisecond)->UseRealTime();
  }
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
