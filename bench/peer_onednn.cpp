// oneDNN peer for fp32 requantization: a reorder s32 -> s8 with an output
// scale and a destination zero point (oneDNN 2.x API).
#include "peers.h"
#include "shim.h"

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

// oneDNN peer for the kernel benchmarks: int8 convolution / inner product.
#if defined(MRTQB_HAVE_ONEDNN)
struct OnednnLayer {
  dnnl::engine eng{dnnl::engine::kind::cpu, 0};
  dnnl::stream strm{eng};
  dnnl::primitive prim;
  dnnl::memory src, wei, bias, dst;
};

OnednnLayer *peer_onednn_layer_create(const mrtqb_layer *l, const uint8_t *x, const int8_t *w, const int32_t *bias, uint8_t *dst) {
  using dt = dnnl::memory::data_type;
  using tag = dnnl::memory::format_tag;
  using dim = dnnl::memory::dim;
  try {
    auto *r = new OnednnLayer;
    size_t ho = 1, wo = 1;
    if (!l->fc && mrtqb_layer_out(l, &ho, &wo) != 0) return delete r, nullptr;
    dnnl::primitive_attr attr;
    attr.set_output_scales(2, std::vector<float>(l->oscale, l->oscale + l->o));
    if (l->src_zp) attr.set_zero_points(DNNL_ARG_SRC, 0, {l->src_zp});
    if (l->dst_zp) attr.set_zero_points(DNNL_ARG_DST, 0, {l->dst_zp});
    dnnl::post_ops po;
    po.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
    attr.set_post_ops(po);
    dnnl::memory::desc bd({static_cast<dim>(l->o)}, dt::s32, tag::x);
    dnnl::memory::desc wuser;
    dnnl::memory::desc chosen_w;
    if (l->fc) {
      dnnl::memory::desc sd({dim(l->n), dim(l->c)}, dt::u8, tag::nc), dd({dim(l->n), dim(l->o)}, dt::u8, tag::nc);
      wuser = dnnl::memory::desc({dim(l->o), dim(l->c)}, dt::s8, tag::oi);
      dnnl::memory::desc wany({dim(l->o), dim(l->c)}, dt::s8, tag::any);
      dnnl::inner_product_forward::desc d(dnnl::prop_kind::forward_inference, sd, wany, bd, dd);
      dnnl::inner_product_forward::primitive_desc pd(d, attr, r->eng);
      r->prim = dnnl::inner_product_forward(pd);
      chosen_w = pd.weights_desc();
      r->src = dnnl::memory(sd, r->eng, const_cast<uint8_t *>(x));
      r->dst = dnnl::memory(dd, r->eng, dst);
    } else {
      dim g = dim(l->groups), k = dim(l->k);
      dnnl::memory::desc sd({dim(l->n), dim(l->c), dim(l->h), dim(l->w)}, dt::u8, tag::nhwc);
      dnnl::memory::desc dd({dim(l->n), dim(l->o), dim(ho), dim(wo)}, dt::u8, tag::nhwc);
      dnnl::memory::dims wd = g > 1 ? dnnl::memory::dims{g, dim(l->o) / g, dim(l->c) / g, k, k} : dnnl::memory::dims{dim(l->o), dim(l->c), k, k};
      wuser = dnnl::memory::desc(wd, dt::s8, g > 1 ? tag::gohwi : tag::ohwi);
      dnnl::memory::desc wany(wd, dt::s8, tag::any);
      dnnl::memory::dims st = {dim(l->stride), dim(l->stride)}, pad = {dim(l->pad), dim(l->pad)};
      dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, sd, wany, bd, dd, st, pad, pad);
      dnnl::convolution_forward::primitive_desc pd(d, attr, r->eng);
      r->prim = dnnl::convolution_forward(pd);
      chosen_w = pd.weights_desc();
      r->src = dnnl::memory(sd, r->eng, const_cast<uint8_t *>(x));
      r->dst = dnnl::memory(dd, r->eng, dst);
    }
    dnnl::memory wu(wuser, r->eng, const_cast<int8_t *>(w));
    r->wei = dnnl::memory(chosen_w, r->eng);
    dnnl::reorder(wu, r->wei).execute(r->strm, wu, r->wei);
    r->bias = dnnl::memory(bd, r->eng, const_cast<int32_t *>(bias));
    r->strm.wait();
    return r;
  } catch (const dnnl::error &) {
    return nullptr;
  }
}
void peer_onednn_layer_run(OnednnLayer *r) {
  r->prim.execute(r->strm, {{DNNL_ARG_SRC, r->src}, {DNNL_ARG_WEIGHTS, r->wei}, {DNNL_ARG_BIAS, r->bias}, {DNNL_ARG_DST, r->dst}});
  r->strm.wait();
}
void peer_onednn_layer_destroy(OnednnLayer *r) { delete r; }
#else
OnednnLayer *peer_onednn_layer_create(const mrtqb_layer *, const uint8_t *, const int8_t *, const int32_t *, uint8_t *) { return nullptr; }
void peer_onednn_layer_run(OnednnLayer *) {}
void peer_onednn_layer_destroy(OnednnLayer *) {}
#endif
