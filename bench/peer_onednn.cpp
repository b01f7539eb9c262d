// oneDNN peer for fp32 requantization: a reorder s32 -> s8 with an output
// scale and a destination zero point (oneDNN 2.x API).
#include "peers.h"

#if defined(MRTQB_HAVE_ONEDNN)
#include <dnnl.hpp>

struct OnednnReorder {
  dnnl::engine eng{dnnl::engine::kind::cpu, 0};
  dnnl::stream strm{eng};
  dnnl::reorder prim;
  dnnl::memory src, dst;
};

OnednnReorder *peer_onednn_create(const int32_t *acc, size_t n, float scale, int32_t zp, int8_t *out) {
  try {
    auto *r = new OnednnReorder;
    dnnl::memory::dims dims = {static_cast<dnnl::memory::dim>(n)};
    dnnl::memory::desc sd(dims, dnnl::memory::data_type::s32, dnnl::memory::format_tag::a);
    dnnl::memory::desc dd(dims, dnnl::memory::data_type::s8, dnnl::memory::format_tag::a);
    dnnl::primitive_attr attr;
    attr.set_output_scales(0, {scale});
    attr.set_zero_points(DNNL_ARG_DST, 0, {zp});
    dnnl::reorder::primitive_desc pd(r->eng, sd, r->eng, dd, attr);
    r->prim = dnnl::reorder(pd);
    r->src = dnnl::memory(sd, r->eng, const_cast<int32_t *>(acc));
    r->dst = dnnl::memory(dd, r->eng, out);
    return r;
  } catch (const dnnl::error &) {
    return nullptr;
  }
}
void peer_onednn_run(OnednnReorder *r) {
  r->prim.execute(r->strm, r->src, r->dst);
  r->strm.wait();
}
void peer_onednn_destroy(OnednnReorder *r) { delete r; }
#else
OnednnReorder *peer_onednn_create(const int32_t *, size_t, float, int32_t, int8_t *) { return nullptr; }
void peer_onednn_run(OnednnReorder *) {}
void peer_onednn_destroy(OnednnReorder *) {}
#endif
