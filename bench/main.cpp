// Registers the measured loops (bench/loops.c, the C shim) and the peers with
// Google Benchmark. Every output is checked against the scalar path before it
// is timed; a mismatch is reported as an error, not timed.
//
// Names: FAMILY/IMPL/N/ALIGNMENT, FAMILY in Q31_DBL Q31_RNDNU Q15_VTA Q15_RNDNU FP32 or
// CEILING; IMPL in mrtq_avx512 mrtq_avx2 mrtq_sse41 scalar gemmlowp_avx2 onednn
// load_narrow_store_*. Items are accumulators; bytes are 4 read + 1 written.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <stdlib.h>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "peers.h"
#include "shim.h"

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
        benchmark::RegisterBenchmark((fam + "/scalar" + ns).c_str(), bm_mrtq, f, mrtqb_requant_scalar, n, off);
      }
      benchmark::RegisterBenchmark(("Q31_DBL/gemmlowp_avx2" + ns).c_str(), bm_gemmlowp, n, off);
      benchmark::RegisterBenchmark(("FP32/onednn" + ns).c_str(), bm_onednn, n, off);
      benchmark::RegisterBenchmark(("CEILING/load_narrow_store_avx512" + ns).c_str(), bm_ceiling, mrtqb_ceiling_avx512, n, off);
      benchmark::RegisterBenchmark(("CEILING/load_narrow_store_avx2" + ns).c_str(), bm_ceiling, mrtqb_ceiling_avx2, n, off);
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
