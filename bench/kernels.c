/* Kernel benchmarks, the measured side (C compiled as C): mrtq's oneDNN-style
 * int8 convolution and inner product (mrtq_conv2d_onednn / mrtq_fc_onednn,
 * NHWC, per-channel output scales, s32 bias, ReLU). */
#include <string.h>

#include "mrtq.h"
#include "shim.h"

mrtq_conv2d_shape mrtqb_layer_shape(const mrtqb_layer *l) {
  mrtq_conv2d_shape s;
  memset(&s, 0, sizeof s);
  s.n = l->n, s.c = l->c, s.h = l->h, s.w = l->w, s.o = l->o, s.kh = l->k, s.kw = l->k;
  s.stride_h = s.stride_w = l->stride, s.dil_h = s.dil_w = 1, s.groups = l->groups;
  s.pad_top = s.pad_left = s.pad_bottom = s.pad_right = l->pad, s.layout = MRTQ_NHWC;
  return s;
}

int mrtqb_layer_out(const mrtqb_layer *l, size_t *ho, size_t *wo) {
  mrtq_conv2d_shape s = mrtqb_layer_shape(l);
  return (int)mrtq_conv2d_out(&s, ho, wo);
}

int mrtqb_layer_mrtq(const mrtqb_layer *l, const uint8_t *x, const int8_t *w, const int32_t *bias, uint8_t *dst) {
  mrtq_conv2d_shape s = mrtqb_layer_shape(l);
  mrtq_qoperand qx, qw;
  mrtq_onednn_attr a;
  memset(&qx, 0, sizeof qx), memset(&qw, 0, sizeof qw), memset(&a, 0, sizeof a);
  a.oscale = l->oscale, a.oscale_mask = 2, a.src_zp = l->src_zp, a.dst_zp = l->dst_zp;
  a.n_po = 1, a.po[0].kind = MRTQ_ONEDNN_RELU, a.po[0].scale = 1.0f;
  qx.data = x, qx.type = MRTQ_U8, qx.zp = l->src_zp, qw.data = w, qw.type = MRTQ_S8;
  if (l->fc) return (int)mrtq_fc_onednn(l->n, l->c, l->o, &a, &qx, &qw, bias, MRTQ_U8, dst);
  return (int)mrtq_conv2d_onednn(&s, &a, &qx, &qw, bias, MRTQ_U8, dst);
}
