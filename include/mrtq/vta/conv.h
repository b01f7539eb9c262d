/* mrtq/vta/conv.h -- CONV2D on VTA: plan, packing, program, run, reference.
 * Part of the VTA backend: include "mrtq/vta.h" (the umbrella, which says what
 * the family holds and the rules every part follows); this header includes
 * only the parts below it. */
#ifndef MRTQ_VTA_CONV_H
#define MRTQ_VTA_CONV_H

#include "prog.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* ---- 5b. CONV2D on VTA ----
 * A quantized 2-D convolution (dense, or depthwise as a block-diagonal GEMM)
 * mapped onto GEMM + ALU: per batch
 * block and group of output-channel blocks (plan->grp), the group's weights
 * go to WGT SRAM and its bias and requant parameters to ACC, once; per strip
 * of plan->strip output rows, the strip's input window (every input-channel
 * block it reads) is loaded into INP once, then per output block of the group
 * its ACC rows are reset, one GEMM instruction runs the micro-op loops
 * (strip rows x kernel taps, over output columns and input-channel blocks),
 * then the ALU epilogue (bias, requant plan) and a STORE of the strip. The
 * plan picks strip, group and buffering by the least modelled time that fits
 * (docs/vta.md, CONV2D).
 *
 * Zero points: the host packs X' = X (S8) or X - 128 (U8) with the spatial
 * padding filled by the zero point zx' = x_zp (- 128), so padded positions
 * are real zeros, and W' = W - w_zp (which must fit int8). Then
 *   sum (X - x_zp)(W - w_zp) = sum X' W' - zx' sum W'_o,
 * and the last term is a per-channel constant folded into the bias row.
 * Layouts: mrtq_layout; MRTQ_NCHW activations go with OIHW weights,
 * MRTQ_NHWC with OHWI. */

typedef struct mrtq_vta_conv_shape {
  size_t n, c, h, w;        /* input */
  size_t o, kh, kw;         /* output channels, kernel */
  size_t stride_h, stride_w, pad_h, pad_w, dil_h, dil_w;
  size_t groups;            /* 0 or 1: dense; c (with o == c): depthwise, one channel per group */
} mrtq_vta_conv_shape;

typedef struct mrtq_vta_conv_quant {
  mrtq_dtype x_type, w_type;  /* MRTQ_S8 or MRTQ_U8 */
  int32_t x_zp, w_zp;         /* zero points (per tensor), values of x_type / w_type */
  const int32_t *bias;        /* o int32 values, or NULL */
  const mrtq_mult *m;         /* Q15 multipliers: 1 (per tensor) or o (per channel) */
  size_t nm;                  /* 1 or o */
  int32_t zp, qmin, qmax;     /* output zero point and bounds (8-bit) */
  int rounding;               /* MRTQ_VTA_ROUND_FLOOR / _NUDGE */
} mrtq_vta_conv_quant;

/* Everything the driver decided for a layer, and what it will cost (written
 * by mrtq_vta_conv_plan_build). */
typedef struct mrtq_vta_conv_plan {
  mrtq_vta_conv_shape s;
  size_t ho, wo, hp, wp;              /* output size; padded input size */
  size_t nb, cb, ob;                  /* batch, input-channel, output-channel blocks */
  int dw;                             /* depthwise: output block j reads input block j only */
  size_t cbr, cg;                     /* input blocks read per output block (cb, or 1); channels per group (c, or 1) */
  size_t k;                           /* reduction length c * kh * kw */
  size_t strip, grp;                  /* tiling: output rows per strip, output-channel blocks per group */
  size_t strip_rows;                  /* input rows a full strip loads (its window; kh rows if strip is 1) */
  size_t inp_half, inp_bufs, acc_sets; /* INP entries per buffer; buffers (1 or 2); ACC row sets (1 or 2) */
  size_t wgt_entries, param_rows;     /* WGT entries per output block; ACC rows of bias + plan parameters */
  size_t x_bytes, w_bytes, p_bytes, y_bytes; /* packed DRAM sizes */
  /* DRAM layout (bytes): the micro-op table (plan->uops 4-byte entries at most), the packed input, weights,
   * parameter rows and output. mrtq_vta_conv_plan_build places them from address 0 in that order (dram_bytes:
   * the end of the last); a caller may move any of them (tvm-vta's runtime puts buffers where it allocates
   * them) before mrtq_vta_conv_build / _run, which check the placement. */
  size_t uop_off, x_off, w_off, p_off, y_off, dram_bytes;
  size_t insns, uops;                 /* program size */
  uint64_t load_bytes[6], store_bytes, gemm_ops, alu_ops; /* cost estimate (equal to the simulator's counters) */
  int in_bits;                        /* precision of the value requantized */
  mrtq_vta_rq_plan rq;
  char why[160];                      /* why a layer does not fit, with the smallest SRAM sizes that would */
} mrtq_vta_conv_plan;

/* Plan a layer: dense (s->groups 0 or 1) or depthwise (s->groups == s->c
 * == s->o: a block-diagonal GEMM, each output block against its own input
 * block with a diagonal weight block per tap; weights [o][1][kh][kw] for
 * NCHW, [o][kh][kw][1] for NHWC). w_any: the raw weights (o*(c/groups)*kh*kw
 * elements of q->w_type, either layout) to check W - w_zp and bound the sum
 * with the real weights, or NULL for the worst case |W'| = 128.
 * Errors: cfg, s, q, q->m or plan NULL, q->nm not 1 or s->o, target or
 * q->rounding outside their enums, a zero point outside its operand's type,
 * an invalid configuration -> MRTQ_EINVAL;
 * q->x_type / q->w_type not S8 or U8, s->groups other than 0, 1 or (s->c
 * == s->o) -> MRTQ_EUNSUPPORTED; data widths other than 8-bit with 32-bit
 * accumulators, batch * BLOCK_OUT > 256, a configuration whose instructions
 * exceed 128 bits or whose micro-ops exceed 32 bits -> MRTQ_EUNSUPPORTED; a
 * zero dimension, stride or dilation 0, a dimension beyond the ISA's fields
 * (65535 pixels or channels, 255 kernel, stride, padding, dilation), a dilated
 * kernel larger than the padded input -> MRTQ_ESHAPE; a weight with W - w_zp
 * outside int8 -> MRTQ_ERANGE; a sum that could overflow int32 ->
 * MRTQ_EOVERFLOW; a requant the plan builder refuses -> its status; tiles
 * that do not fit the configured SRAMs or the instruction fields, a DRAM
 * image beyond 4 GiB -> MRTQ_ERANGE (tiles: plan->why names the smallest
 * log2 SRAM sizes that would fit, and *plan is written). */
MRTQ_API mrtq_status mrtq_vta_conv_plan_build(const mrtq_vta_config *cfg, mrtq_vta_profile target,
                                              const mrtq_vta_conv_shape *s, const mrtq_vta_conv_quant *q,
                                              const void *w_any, mrtq_vta_conv_plan *plan);

/* Packing (cfg and q must be the ones the plan was built with):
 *  pack_input:  x (n*c*h*w elements of q->x_type in `layout`) into
 *               [nb][cb][hp][wp][batch][block_in] int8 (plan->x_bytes), X' = X
 *               - 128 for U8, the spatial padding filled with zx' = x_zp (-
 *               128), missing channels and batch entries 0.
 *  pack_weights: w (o*c*kh*kw elements of q->w_type, OIHW for NCHW, OHWI for
 *               NHWC) into [ob][cb][kh][kw][block_out][block_in] int8
 *               (plan->w_bytes) as W' = W - w_zp, missing channels 0;
 *               MRTQ_ERANGE if some W - w_zp leaves int8.
 *  pack_params: the ACC parameter rows: per output block, the bias row
 *               (bias_o - zx' sum W'_o per lane) and the requant plan's rows,
 *               int32 [ob][param_rows][batch][block_out] (plan->p_bytes bytes,
 *               any alignment); MRTQ_EUNSUPPORTED for more than 256 lanes or
 *               3 rows.
 *  unpack_output: the output [nb][ob][ho][wo][batch][block_out] bytes back to
 *               n*o*ho*wo values in `layout`, as the 8-bit bytes they are.
 * Errors: NULL, layout not MRTQ_NCHW / MRTQ_NHWC, x_type / w_type not S8 or
 * U8 -> MRTQ_EINVAL / MRTQ_EUNSUPPORTED as in mrtq_vta_conv_plan_build. */
MRTQ_API mrtq_status mrtq_vta_conv_pack_input(const mrtq_vta_config *cfg, const mrtq_vta_conv_plan *p,
                                              const mrtq_vta_conv_quant *q, mrtq_layout layout, const void *x,
                                              int8_t *dst);
MRTQ_API mrtq_status mrtq_vta_conv_pack_weights(const mrtq_vta_config *cfg, const mrtq_vta_conv_plan *p,
                                                const mrtq_vta_conv_quant *q, mrtq_layout layout, const void *w,
                                                int8_t *dst);
MRTQ_API mrtq_status mrtq_vta_conv_pack_params(const mrtq_vta_config *cfg, const mrtq_vta_conv_plan *p,
                                               const mrtq_vta_conv_quant *q, mrtq_layout layout, const void *w,
                                               uint8_t *dst);
MRTQ_API mrtq_status mrtq_vta_conv_unpack_output(const mrtq_vta_config *cfg, const mrtq_vta_conv_plan *p,
                                                 mrtq_layout layout, const uint8_t *src, void *y);

/* Build a layer's program into p (initialized with plan->insns words and
 * plan->uops micro-ops) and write its micro-op table into dram at
 * plan->uop_off; the packed input, weights and parameters must be at
 * plan->x_off, w_off, p_off, the output goes to y_off (the plan's layout, or
 * where the caller moved the buffers).
 * Errors: NULL, a plan without a tiling (the one a refused
 * mrtq_vta_conv_plan_build writes for its why) -> MRTQ_EINVAL; an offset not on its DRAM element (uop_off a
 * multiple of 4, x_off of batch * BLOCK_IN, w_off of BLOCK_OUT * BLOCK_IN,
 * p_off of 4 * batch * BLOCK_OUT, y_off of batch * BLOCK_OUT bytes), two
 * buffers overlapping -> MRTQ_EINVAL; a buffer ending beyond dram_bytes, an
 * element index beyond 32 bits, the program too small -> MRTQ_ERANGE; an
 * earlier error in p as it was. */
MRTQ_API mrtq_status mrtq_vta_conv_build(const mrtq_vta_conv_plan *cp, mrtq_vta_prog *p, uint8_t *dram,
                                         size_t dram_bytes);

/* Pack, build, run on the simulator and unpack: y gets n*o*ho*wo bytes in
 * `layout` (weights OIHW for NCHW, OHWI for NHWC), the buffers where the plan
 * places them (each zeroed first; no other DRAM byte is written). words: plan->insns
 * instructions, uops: plan->uops micro-ops of scratch. Errors: NULL ->
 * MRTQ_EINVAL; words or uops too small -> MRTQ_ERANGE; the placement as
 * mrtq_vta_conv_build checks it against sim->dram_bytes; as the packers,
 * mrtq_vta_conv_build and mrtq_vta_sim_run. */
MRTQ_API mrtq_status mrtq_vta_conv_run(const mrtq_vta_conv_plan *cp, const mrtq_vta_conv_quant *q, mrtq_layout layout,
                                       const void *x, const void *w, mrtq_vta_word *words, size_t cap, uint32_t *uops,
                                       size_t uop_cap, mrtq_vta_sim *sim, void *y);

/* The layer on the CPU, the statement the program must equal:
 *   acc = sum over c, ky, kx of (X - x_zp)(W - w_zp) (padded positions: X =
 *         x_zp) + bias_o, exact;  out = mrtq_vta_rq_ref(plan->rq, m_o, acc).
 * Errors: NULL, layout not in the enum -> MRTQ_EINVAL; types as the packers. */
MRTQ_API mrtq_status mrtq_vta_conv_ref(const mrtq_vta_conv_plan *cp, const mrtq_vta_conv_quant *q, mrtq_layout layout,
                                       const void *x, const void *w, void *y);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

/* Bits the instruction form of `opcode` needs with depths d (a field that
 * would cross bit 64 starts there), as the encoder lays it out. */
MRTQ__PRIV int mrtq__vta_form_bits(uint32_t opcode, const mrtq_vta_depths *d) {
  mrtq__vta_field f[24];
  int n = mrtq__vta_fields(opcode, d, f), i, pos = 0;
  for (i = 0; i < n; i++) {
    if ((pos % 64) + f[i].width > 64) pos = (pos / 64 + 1) * 64;
    pos += f[i].width;
  }
  return pos;
}

/* The checks the conv packers and the reference share. */
MRTQ__PRIV mrtq_status mrtq__vta_conv_args(const mrtq_vta_conv_plan *p, const mrtq_vta_conv_quant *q,
                                           mrtq_layout layout) {
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!q) return MRTQ__ERR(MRTQ_EINVAL, "q: NULL");
  if (layout != MRTQ_NCHW && layout != MRTQ_NHWC)
    return MRTQ__ERR(MRTQ_EINVAL, "layout: must be MRTQ_NCHW or MRTQ_NHWC");
  if (!mrtq__dtype_q8(q->x_type)) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "q->x_type: must be MRTQ_S8 or MRTQ_U8");
  if (!mrtq__dtype_q8(q->w_type)) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "q->w_type: must be MRTQ_S8 or MRTQ_U8");
  return MRTQ_OK;
}

MRTQ__PRIV int mrtq__vta_log2_ceil(uint64_t v) {
  int k = 0;
  while (((uint64_t)1 << k) < v && k < 63) k++;
  return k;
}

/* A layer's micro-op table is kept within this many entries (4 KiB), or
 * within the smallest tiling's if that needs more (a large kernel): the
 * tiling's micro-op sets grow with strip x group. */
#define MRTQ_VTA_CONV_UOPS 1024

/* Input rows a strip of t output rows loads: its window (kh rows, x_stride
 * dil_h rows apart, when strips are single rows). */
MRTQ__PRIV size_t mrtq__vta_strip_in(const mrtq_vta_conv_plan *p, size_t t) {
  return p->strip == 1 ? p->s.kh : (t - 1) * p->s.stride_h + (p->s.kh - 1) * p->s.dil_h + 1;
}

/* The emitter's instructions (without the micro-op LOAD and FINISH) and its
 * WGT, ACC and INP bytes, in closed form over strips and groups. */
MRTQ__PRIV void mrtq__vta_conv_count(const mrtq_vta_conv_plan *p, size_t nsave, size_t *insns, uint64_t *lb) {
  size_t S = (p->ho + p->strip - 1) / p->strip, ng = (p->ob + p->grp - 1) / p->grp;
  size_t last = p->ho - (S - 1) * p->strip, nin = p->dw ? p->ob : ng * p->cbr;
  size_t per = 1 + 1 + 1 + (size_t)p->rq.nsteps + nsave + 1; /* reset, GEMM, bias, plan, STORE */
  uint64_t rows = (uint64_t)(S - 1) * mrtq__vta_strip_in(p, p->strip) + mrtq__vta_strip_in(p, last);
  *insns = p->nb * (ng * 2 + S * nin + S * p->ob * per + ng * (S < p->inp_bufs ? S : p->inp_bufs) +
                    p->ob * (S < p->acc_sets ? S : p->acc_sets));
  lb[MRTQ_VTA_MEM_INP] = (uint64_t)p->nb * nin * rows * p->wp; /* entries: the caller scales by the element */
  lb[MRTQ_VTA_MEM_WGT] = (uint64_t)p->nb * p->ob * p->wgt_entries;
  lb[MRTQ_VTA_MEM_ACC] = (uint64_t)p->nb * p->ob * p->param_rows;
}

/* Choose strip, grp, inp_bufs and acc_sets (and set strip_rows, inp_half,
 * uops): among the tilings that fit INP, ACC, WGT and the micro-op budget,
 * the least modelled time on the Pynq-Z1 preset's rates (GEMM 1, ALU 0.5
 * micro-ops and 8 DRAM bytes per cycle; compute and memory overlapped only
 * when both INP and ACC are double-buffered, else added), then the fewest
 * DRAM bytes, then the fewest instructions. Returns 0 if none fits. */
MRTQ__PRIV int mrtq__vta_conv_tile(mrtq_vta_conv_plan *p, const mrtq_vta_depths *d, size_t nsave, size_t eb_inp,
                                   size_t eb_wgt, size_t eb_acc, size_t eb_out) {
  const size_t inp_d = (size_t)1 << d->inp, acc_d = (size_t)1 << d->acc, wgt_d = (size_t)1 << d->wgt;
  const size_t kk = p->s.kh * p->s.kw, small = kk + 6 + 2 * (size_t)p->rq.nparams; /* the smallest tiling's */
  const size_t cap = small > MRTQ_VTA_CONV_UOPS ? small : MRTQ_VTA_CONV_UOPS;
  const size_t uop_d = ((size_t)1 << d->uop) < cap ? ((size_t)1 << d->uop) : cap;
  const size_t tmax = p->s.dil_h > 1 ? 1 : (p->ho < 64 ? p->ho : 64);
  const size_t gmax = p->ob < 64 ? p->ob : 64;
  mrtq_vta_conv_plan t = *p, best = *p;
  double best_cost = -1, compute;
  uint64_t best_bytes = 0;
  size_t best_insns = 0, ib, as, g, st;
  compute = (double)p->nb * (double)p->ob * (double)p->ho * (double)p->wo *
            ((double)p->cbr * (double)kk + (2.0 + (double)p->rq.nsteps) / 0.5);
  for (ib = 2; ib >= 1; ib--)
    for (as = 2; as >= 1; as--)
      for (g = 1; g <= gmax; g++)
        for (st = 1; st <= tmax; st++) {
          size_t nin = p->dw ? g : p->cbr, ins;
          uint64_t lb[6] = {0, 0, 0, 0, 0, 0}, bytes;
          double mem, cost;
          t.strip = st, t.grp = g, t.inp_bufs = ib, t.acc_sets = as;
          t.strip_rows = mrtq__vta_strip_in(&t, st);
          t.inp_half = nin * t.strip_rows * p->wp;
          t.uops = ib * as * g * st * kk + as * g * (6 + 2 * (size_t)p->rq.nparams);
          if (ib * t.inp_half > inp_d || as * g * st * p->wo + g * p->param_rows + (nsave ? st * p->wo : 0) > acc_d ||
              g * p->wgt_entries > wgt_d || t.uops > uop_d || t.strip_rows * p->wp >= inp_d || t.strip_rows > 65535)
            continue;
          mrtq__vta_conv_count(&t, nsave, &ins, lb);
          bytes = lb[MRTQ_VTA_MEM_INP] * eb_inp + lb[MRTQ_VTA_MEM_WGT] * eb_wgt + lb[MRTQ_VTA_MEM_ACC] * eb_acc +
                  (uint64_t)p->nb * p->ob * p->ho * p->wo * eb_out + (uint64_t)t.uops * 4u;
          mem = (double)bytes / 8.0;
          cost = ib == 2 && as == 2 ? (compute > mem ? compute : mem) : compute + mem;
          if (best_cost < 0 || cost < best_cost || (cost == best_cost && (bytes < best_bytes ||
                                                                          (bytes == best_bytes && ins < best_insns)))) {
            best = t, best_cost = cost, best_bytes = bytes, best_insns = ins;
          }
        }
  if (best_cost < 0) return 0;
  *p = best;
  return 1;
}

MRTQ_API mrtq_status mrtq_vta_conv_plan_build(const mrtq_vta_config *cfg, mrtq_vta_profile target,
                                              const mrtq_vta_conv_shape *s, const mrtq_vta_conv_quant *q,
                                              const void *w_any, mrtq_vta_conv_plan *plan) {
  mrtq_vta_conv_plan p;
  mrtq_vta_depths d;
  mrtq_vta_rq_opts o = mrtq_vta_rq_opts_default();
  size_t bo, bi, batch, i, nsave = 0;
  uint64_t bound, wmax;
  mrtq__vta_buf b;
  mrtq_status st;
  const uint8_t *wb = (const uint8_t *)w_any;
  int sw;
  if (!cfg) return MRTQ__ERR(MRTQ_EINVAL, "cfg: NULL");
  if (!s) return MRTQ__ERR(MRTQ_EINVAL, "s: NULL");
  if (!q) return MRTQ__ERR(MRTQ_EINVAL, "q: NULL");
  if (!plan) return MRTQ__ERR(MRTQ_EINVAL, "plan: NULL");
  if (!q->m) return MRTQ__ERR(MRTQ_EINVAL, "q->m: NULL");
  if (q->nm != 1 && q->nm != s->o) return MRTQ__ERR(MRTQ_EINVAL, "q->nm: must be 1 or s->o");
  if ((int)target < 0 || (int)target > 3) return MRTQ__ERR(MRTQ_EINVAL, "target: not an mrtq_vta_profile");
  if (q->rounding != MRTQ_VTA_ROUND_FLOOR && q->rounding != MRTQ_VTA_ROUND_NUDGE)
    return MRTQ__ERR(MRTQ_EINVAL, "q->rounding: must be MRTQ_VTA_ROUND_FLOOR or MRTQ_VTA_ROUND_NUDGE");
  if (!mrtq__dtype_q8(q->x_type)) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "q->x_type: must be MRTQ_S8 or MRTQ_U8");
  if (!mrtq__dtype_q8(q->w_type)) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "q->w_type: must be MRTQ_S8 or MRTQ_U8");
  if ((st = mrtq_vta_depths_of(cfg, &d)) != MRTQ_OK) return st;
  if (mrtq_vta_sim_scratch_bytes(cfg) == 0)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED,
          "cfg: VTA CONV2D takes 8-bit inputs, weights and outputs with 32-bit accumulators only");
  if (mrtq__vta_form_bits(MRTQ_VTA_GEMM, &d) > 128 || mrtq__vta_form_bits(MRTQ_VTA_ALU, &d) > 128)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED,
          "cfg: the GEMM or ALU instruction's fields exceed 128 bits in this configuration");
  sw = d.acc > d.inp ? d.acc : d.inp;
  if (d.acc + sw + d.wgt > 32)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED,
          "cfg: a micro-op needs more than 32 bits (log2 ACC + max(ACC, INP) + WGT depths)");
  if (s->n < 1 || s->n > 65535) return MRTQ__ERR(MRTQ_ESHAPE, "s->n: must be in [1, 65535]");
  if (s->c < 1 || s->c > 65535) return MRTQ__ERR(MRTQ_ESHAPE, "s->c: must be in [1, 65535]");
  if (s->h < 1 || s->h > 65535) return MRTQ__ERR(MRTQ_ESHAPE, "s->h: must be in [1, 65535]");
  if (s->w < 1 || s->w > 65535) return MRTQ__ERR(MRTQ_ESHAPE, "s->w: must be in [1, 65535]");
  if (s->o < 1 || s->o > 65535) return MRTQ__ERR(MRTQ_ESHAPE, "s->o: must be in [1, 65535]");
  if (s->kh < 1 || s->kh > 255) return MRTQ__ERR(MRTQ_ESHAPE, "s->kh: must be in [1, 255]");
  if (s->kw < 1 || s->kw > 255) return MRTQ__ERR(MRTQ_ESHAPE, "s->kw: must be in [1, 255]");
  if (s->stride_h < 1 || s->stride_h > 255) return MRTQ__ERR(MRTQ_ESHAPE, "s->stride_h: must be in [1, 255]");
  if (s->stride_w < 1 || s->stride_w > 255) return MRTQ__ERR(MRTQ_ESHAPE, "s->stride_w: must be in [1, 255]");
  if (s->dil_h < 1 || s->dil_h > 255) return MRTQ__ERR(MRTQ_ESHAPE, "s->dil_h: must be in [1, 255]");
  if (s->dil_w < 1 || s->dil_w > 255) return MRTQ__ERR(MRTQ_ESHAPE, "s->dil_w: must be in [1, 255]");
  if (s->pad_h > 255) return MRTQ__ERR(MRTQ_ESHAPE, "s->pad_h: must be in [0, 255]");
  if (s->pad_w > 255) return MRTQ__ERR(MRTQ_ESHAPE, "s->pad_w: must be in [0, 255]");
  if (s->groups > 1 && (s->groups != s->c || s->o != s->c))
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "s->groups: 0 or 1 (dense) or s->c == s->o (depthwise) only");
  memset(&p, 0, sizeof p);
  p.s = *s;
  p.hp = s->h + 2 * s->pad_h, p.wp = s->w + 2 * s->pad_w;
  if ((s->kh - 1) * s->dil_h + 1 > p.hp)
    return MRTQ__ERR(MRTQ_ESHAPE, "s->kh, s->dil_h: the dilated kernel is taller than the padded input");
  if ((s->kw - 1) * s->dil_w + 1 > p.wp)
    return MRTQ__ERR(MRTQ_ESHAPE, "s->kw, s->dil_w: the dilated kernel is wider than the padded input");
  p.ho = (p.hp - (s->kh - 1) * s->dil_h - 1) / s->stride_h + 1;
  p.wo = (p.wp - (s->kw - 1) * s->dil_w - 1) / s->stride_w + 1;
  if (!mrtq__in_type(q->x_zp, q->x_type)) return MRTQ__ERR(MRTQ_EINVAL, "q->x_zp: must be a value of q->x_type");
  if (!mrtq__in_type(q->w_zp, q->w_type)) return MRTQ__ERR(MRTQ_EINVAL, "q->w_zp: must be a value of q->w_type");
  batch = (size_t)1 << cfg->log_batch, bi = (size_t)1 << cfg->log_block_in, bo = (size_t)1 << cfg->log_block_out;
  if (batch * bo > 256) /* the parameter rows are packed through a 256-lane buffer */
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "cfg->log_batch, cfg->log_block_out: batch * BLOCK_OUT must be <= 256");
  if (s->groups > 1 && bi != bo)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "cfg: a depthwise layer needs BLOCK_IN == BLOCK_OUT (diagonal weight blocks)");
  p.nb = (s->n + batch - 1) / batch, p.cb = (s->c + bi - 1) / bi, p.ob = (s->o + bo - 1) / bo;
  p.dw = s->groups > 1, p.cbr = p.dw ? 1 : p.cb, p.cg = p.dw ? 1 : s->c;
  p.k = p.cg * s->kh * s->kw;
  /* the weights must be representable as W - zw in int8 (checked on the data when given) */
  wmax = 0;
  if (wb) {
    size_t nw = s->o * p.cg * s->kh * s->kw;
    for (i = 0; i < nw; i++) {
      int32_t v = (q->w_type == MRTQ_U8 ? (int32_t)wb[i] : (int32_t)(int8_t)wb[i]) - q->w_zp;
      if (v < -128 || v > 127) return MRTQ__ERR(MRTQ_ERANGE, "w_any: some W - q->w_zp is outside int8");
      if ((uint64_t)(v < 0 ? -v : v) > wmax) wmax = (uint64_t)(v < 0 ? -v : v);
    }
  } else {
    wmax = 128;
  }
  /* |y| <= K * 255 * max|W'| + |bias| (the folded bias term included) */
  bound = (uint64_t)p.k * 255u * wmax;
  {
    uint64_t bmax = 0;
    if (q->bias)
      for (i = 0; i < s->o; i++) {
        uint64_t v = q->bias[i] < 0 ? (uint64_t)0 - (uint64_t)(int64_t)q->bias[i] : (uint64_t)q->bias[i];
        if (v > bmax) bmax = v;
      }
    bound += bmax + (uint64_t)p.k * 128u * 256u; /* + |zx' sum W'| <= K * 256 * 128 */
  }
  if (bound >= ((uint64_t)1 << 31))
    return MRTQ__ERR(MRTQ_EOVERFLOW,
          "s, q->bias: the accumulator could overflow int32 (K * 255 * max|W'| + |bias| + K * 32768 >= 2^31)");
  p.in_bits = mrtq__vta_log2_ceil(bound + 1) + 1;
  /* the requant plan (per tensor or per channel) */
  o.target = target;
  o.rounding = q->rounding;
  o.in_bits = p.in_bits;
  o.allow_pow2 = 0;
  st = mrtq_vta_rq_plan_build(&o, q->m, q->nm, q->zp, q->qmin, q->qmax, &p.rq);
  if (st != MRTQ_OK) return st;
  /* tiles: strips of `strip` output rows share one load of their input window, and `grp` output-channel blocks
     share each strip's input (their weights stay in WGT for the whole group); the choice is the one with the
     least modelled time (mrtq__vta_conv_tile) that fits the SRAMs and MRTQ_VTA_CONV_UOPS micro-ops */
  p.wgt_entries = p.cbr * s->kh * s->kw;
  p.param_rows = 1 + (size_t)p.rq.nparams;
  for (i = 0; i < (size_t)p.rq.nsteps; i++) nsave += p.rq.step[i].kind == MRTQ_VTA_STEP_SAVE;
  b.p = p.why, b.cap = sizeof p.why, b.len = 0;
  if (!mrtq__vta_conv_tile(&p, &d, nsave, batch * bi, bo * bi, 4 * batch * bo, batch * bo) || p.wo > 16383 || p.cb > 16383 || s->stride_w >= ((size_t)1 << d.inp) ||
      s->kh * s->kw >= ((size_t)1 << d.wgt) || s->dil_h * p.wp > 65535) {
    /* smallest log2 byte sizes (one output row, one block, single buffers): INP and WGT entries of batch *
     * block_in (block_out * block_in) bytes, ACC rows of 4 * batch * block_out bytes, micro-ops of 4 bytes */
    int li = mrtq__vta_log2_ceil((uint64_t)p.cbr * s->kh * p.wp * batch * bi + 1);
    int lw = mrtq__vta_log2_ceil((uint64_t)p.wgt_entries * bo * bi + 1);
    int la = mrtq__vta_log2_ceil((uint64_t)(p.wo + p.param_rows + (nsave ? p.wo : 0)) * 4u * batch * bo);
    int lu = mrtq__vta_log2_ceil((uint64_t)(s->kh * s->kw + 6 + 2 * (size_t)p.rq.nparams) * 4u);
    mrtq__vta_put(&b, "layer does not fit: needs at least log_inp_buff_size ");
    mrtq__vta_put_int(&b, li > cfg->log_inp_buff_size ? li : cfg->log_inp_buff_size);
    mrtq__vta_put(&b, ", log_wgt_buff_size ");
    mrtq__vta_put_int(&b, lw > cfg->log_wgt_buff_size ? lw : cfg->log_wgt_buff_size);
    mrtq__vta_put(&b, ", log_acc_buff_size ");
    mrtq__vta_put_int(&b, la > cfg->log_acc_buff_size ? la : cfg->log_acc_buff_size);
    mrtq__vta_put(&b, ", log_uop_buff_size ");
    mrtq__vta_put_int(&b, lu > cfg->log_uop_buff_size ? lu : cfg->log_uop_buff_size);
    p.why[b.len < sizeof p.why ? b.len : sizeof p.why - 1] = 0;
    *plan = p;
    return MRTQ__ERR(MRTQ_ERANGE,
                     "cfg: the layer's tiles do not fit the SRAMs or the instruction fields (see plan->why)");
  }
  /* DRAM layout: micro-ops, input [nb][cb][hp][wp][batch][bi], weights [ob][cb][kh][kw][bo][bi],
   * parameter rows [ob][param_rows][batch][bo] int32, output [nb][ob][ho][wo][batch][bo] */
  {
    size_t eb_acc = 4 * batch * bo, al = eb_acc > bo * bi ? eb_acc : bo * bi, u = (p.uops * 4 + al - 1) / al * al;
    while (u % (batch * bi) || u % (bo * bi) || u % eb_acc || u % (batch * bo)) u += al; /* element-aligned */
    p.x_bytes = p.nb * p.cb * p.hp * p.wp * batch * bi;
    p.w_bytes = p.ob * p.wgt_entries * bo * bi;
    p.p_bytes = p.ob * p.param_rows * eb_acc;
    p.y_bytes = p.nb * p.ob * p.ho * p.wo * batch * bo;
    p.uop_off = 0, p.x_off = u;
    p.w_off = (p.x_off + p.x_bytes + al - 1) / al * al;
    p.p_off = (p.w_off + p.w_bytes + al - 1) / al * al;
    p.y_off = (p.p_off + p.p_bytes + al - 1) / al * al;
    p.dram_bytes = p.y_off + p.y_bytes;
    if ((uint64_t)p.dram_bytes > 0xffffffffu) /* DRAM addresses are 32-bit element indices */
      return MRTQ__ERR(MRTQ_ERANGE, "s: the packed DRAM image exceeds 2^32 bytes");
  }
  /* program size and cost (mrtq__vta_conv_count: the emitter's loop nest, counted) */
  mrtq__vta_conv_count(&p, nsave, &p.insns, p.load_bytes);
  p.load_bytes[MRTQ_VTA_MEM_INP] *= batch * bi, p.load_bytes[MRTQ_VTA_MEM_WGT] *= bo * bi;
  p.load_bytes[MRTQ_VTA_MEM_ACC] *= 4 * batch * bo;
  p.load_bytes[MRTQ_VTA_MEM_UOP] = (uint64_t)p.uops * 4u; /* at most: the table after deduplication */
  p.store_bytes = (uint64_t)p.nb * p.ob * p.ho * p.wo * batch * bo;
  p.gemm_ops = (uint64_t)p.nb * p.ob * p.ho * p.wo * p.cbr * s->kh * s->kw;
  p.alu_ops = (uint64_t)p.nb * p.ob * p.ho * p.wo * (1u + (uint64_t)p.rq.nsteps);
  p.insns += 2; /* the micro-op LOAD and FINISH */
  *plan = p;
  return MRTQ_OK;
}

/* An activation tensor (n c h w in `layout`, uint8 if xu, else int8) into
 * [nb][cb][h + 2 ph][w + 2 pw][batch][block_in] int8: X - 128 for uint8, the
 * border `border`, lanes past n or c 0. Shared by the CONV packer and a
 * network's input (mrtq/vta/net.h). */
MRTQ__PRIV void mrtq__vta_pack_bordered(const mrtq_vta_config *cfg, size_t n, size_t c, size_t h, size_t w, size_t ph,
                                        size_t pw, mrtq_layout layout, int xu, int32_t border, const uint8_t *xb,
                                        int8_t *dst) {
  const size_t batch = (size_t)1 << cfg->log_batch, bi = (size_t)1 << cfg->log_block_in;
  const size_t hp = h + 2 * ph, wp = w + 2 * pw;
  const int off = xu ? 128 : 0;
  size_t nb, cb, yy, xx, bb, ii;
  for (nb = 0; nb < (n + batch - 1) / batch; nb++)
    for (cb = 0; cb < (c + bi - 1) / bi; cb++)
      for (yy = 0; yy < hp; yy++)
        for (xx = 0; xx < wp; xx++)
          for (bb = 0; bb < batch; bb++)
            for (ii = 0; ii < bi; ii++) {
              size_t ni = nb * batch + bb, ci = cb * bi + ii;
              int32_t v = 0;
              if (ni < n && ci < c) {
                if (yy < ph || yy >= ph + h || xx < pw || xx >= pw + w) {
                  v = border;
                } else {
                  size_t y0 = yy - ph, x0 = xx - pw;
                  size_t at = layout == MRTQ_NCHW ? ((ni * c + ci) * h + y0) * w + x0 : ((ni * h + y0) * w + x0) * c + ci;
                  v = (xu ? (int32_t)xb[at] : (int32_t)(int8_t)xb[at]) - off;
                }
              }
              *dst++ = (int8_t)v;
            }
}

MRTQ_API mrtq_status mrtq_vta_conv_pack_input(const mrtq_vta_config *cfg, const mrtq_vta_conv_plan *p,
                                              const mrtq_vta_conv_quant *q, mrtq_layout layout, const void *x,
                                              int8_t *dst) {
  mrtq_status st;
  int xu;
  if (!cfg) return MRTQ__ERR(MRTQ_EINVAL, "cfg: NULL");
  if ((st = mrtq__vta_conv_args(p, q, layout)) != MRTQ_OK) return st;
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  if (!dst) return MRTQ__ERR(MRTQ_EINVAL, "dst: NULL");
  xu = q->x_type == MRTQ_U8;
  mrtq__vta_pack_bordered(cfg, p->s.n, p->s.c, p->s.h, p->s.w, p->s.pad_h, p->s.pad_w, layout, xu,
                          q->x_zp - (xu ? 128 : 0), (const uint8_t *)x, dst);
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_conv_pack_weights(const mrtq_vta_config *cfg, const mrtq_vta_conv_plan *p,
                                                const mrtq_vta_conv_quant *q, mrtq_layout layout, const void *w,
                                                int8_t *dst) {
  const uint8_t *wb = (const uint8_t *)w;
  size_t bi, bo, ob, cb, ky, kx, oo, ii, nw;
  int wu;
  mrtq_status st;
  if (!cfg) return MRTQ__ERR(MRTQ_EINVAL, "cfg: NULL");
  if ((st = mrtq__vta_conv_args(p, q, layout)) != MRTQ_OK) return st;
  if (!w) return MRTQ__ERR(MRTQ_EINVAL, "w: NULL");
  if (!dst) return MRTQ__ERR(MRTQ_EINVAL, "dst: NULL");
  wu = q->w_type == MRTQ_U8;
  nw = p->s.o * p->cg * p->s.kh * p->s.kw;
  for (oo = 0; oo < nw; oo++) { /* every weight first: a refusal writes nothing */
    int32_t v = (wu ? (int32_t)wb[oo] : (int32_t)(int8_t)wb[oo]) - q->w_zp;
    if (v < -128 || v > 127) return MRTQ__ERR(MRTQ_ERANGE, "w: some W - q->w_zp is outside int8");
  }
  bi = (size_t)1 << cfg->log_block_in, bo = (size_t)1 << cfg->log_block_out;
  for (ob = 0; ob < p->ob; ob++)
    for (cb = 0; cb < p->cbr; cb++)
      for (ky = 0; ky < p->s.kh; ky++)
        for (kx = 0; kx < p->s.kw; kx++)
          for (oo = 0; oo < bo; oo++)
            for (ii = 0; ii < bi; ii++) {
              /* dense: input channel c of the group; depthwise: the diagonal (lane ii feeds lane oo == ii) */
              size_t o = ob * bo + oo, c = p->dw ? 0 : cb * bi + ii;
              int32_t v = 0;
              if (o < p->s.o && c < p->cg && (!p->dw || ii == oo)) {
                size_t at = layout == MRTQ_NCHW ? ((o * p->cg + c) * p->s.kh + ky) * p->s.kw + kx
                                                : ((o * p->s.kh + ky) * p->s.kw + kx) * p->cg + c;
                v = (wu ? (int32_t)wb[at] : (int32_t)(int8_t)wb[at]) - q->w_zp;
              }
              *dst++ = (int8_t)v;
            }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_conv_pack_params(const mrtq_vta_config *cfg, const mrtq_vta_conv_plan *p,
                                               const mrtq_vta_conv_quant *q, mrtq_layout layout, const void *w,
                                               uint8_t *dst) {
  const uint8_t *wb = (const uint8_t *)w;
  size_t bo, lanes, ob, l, c, t, kk;
  int32_t rows[3 * 256];
  int wu;
  mrtq_status st;
  if (!cfg) return MRTQ__ERR(MRTQ_EINVAL, "cfg: NULL");
  if ((st = mrtq__vta_conv_args(p, q, layout)) != MRTQ_OK) return st;
  if (!w) return MRTQ__ERR(MRTQ_EINVAL, "w: NULL");
  if (!dst) return MRTQ__ERR(MRTQ_EINVAL, "dst: NULL");
  if (!q->m) return MRTQ__ERR(MRTQ_EINVAL, "q->m: NULL");
  kk = p->s.kh * p->s.kw, wu = q->w_type == MRTQ_U8;
  bo = (size_t)1 << cfg->log_block_out, lanes = bo << cfg->log_batch;
  if (lanes > 256)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "cfg->log_batch, cfg->log_block_out: batch * BLOCK_OUT must be <= 256");
  if (p->param_rows > 3) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "p->param_rows: at most 3 (bias + 2 plan rows)");
  if (p->rq.per_channel) { /* every channel first: a refusal writes nothing */
    for (ob = 0; ob < p->ob; ob++) {
      size_t first = ob * bo, nch = p->s.o - first < bo ? p->s.o - first : bo;
      for (l = 0; l < nch; l++) {
        int r = 0, k = 0;
        int32_t mm = 0;
        if (mrtq__vta_rq_chan(&p->rq.opts, p->rq.method, 1, p->rq.wide, q->m[first + l], &r, &mm, &k) != 0)
          return MRTQ__ERR(MRTQ_ERANGE, "q->m: a channel's multiplier cannot be carried by p->rq");
      }
    }
  }
  for (ob = 0; ob < p->ob; ob++) {
    for (l = 0; l < lanes; l++) {
      size_t o = ob * bo + l % bo;
      int64_t v = 0, sw = 0;
      if (o < p->s.o) {
        for (c = 0; c < p->cg; c++)
          for (t = 0; t < kk; t++) {
            size_t at = layout == MRTQ_NCHW ? (o * p->cg + c) * kk + t : (o * kk + t) * p->cg + c;
            sw += (wu ? (int32_t)wb[at] : (int32_t)(int8_t)wb[at]) - q->w_zp;
          }
        v = (q->bias ? q->bias[o] : 0) - (int64_t)(q->x_zp - (q->x_type == MRTQ_U8 ? 128 : 0)) * sw;
      }
      rows[l] = (int32_t)v; /* within int32: the plan's overflow bound covers it */
    }
    if (p->rq.per_channel) {
      size_t first = ob * bo, nch = p->s.o - first < bo ? p->s.o - first : bo;
      st = mrtq_vta_rq_param_rows(cfg, &p->rq, q->m + first, nch, rows + lanes);
      if (st != MRTQ_OK) return st;
    }
    memcpy(dst + ob * p->param_rows * lanes * 4, rows, p->param_rows * lanes * 4);
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_conv_unpack_output(const mrtq_vta_config *cfg, const mrtq_vta_conv_plan *p,
                                                 mrtq_layout layout, const uint8_t *src, void *y) {
  uint8_t *yb = (uint8_t *)y;
  size_t batch, bo, n, o, yy, xx;
  if (!cfg) return MRTQ__ERR(MRTQ_EINVAL, "cfg: NULL");
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (layout != MRTQ_NCHW && layout != MRTQ_NHWC)
    return MRTQ__ERR(MRTQ_EINVAL, "layout: must be MRTQ_NCHW or MRTQ_NHWC");
  if (!src) return MRTQ__ERR(MRTQ_EINVAL, "src: NULL");
  if (!y) return MRTQ__ERR(MRTQ_EINVAL, "y: NULL");
  batch = (size_t)1 << cfg->log_batch, bo = (size_t)1 << cfg->log_block_out;
  for (n = 0; n < p->s.n; n++)
    for (o = 0; o < p->s.o; o++)
      for (yy = 0; yy < p->ho; yy++)
        for (xx = 0; xx < p->wo; xx++) {
          size_t from = ((((n / batch) * p->ob + o / bo) * p->ho + yy) * p->wo + xx) * batch * bo + (n % batch) * bo + o % bo;
          size_t to = layout == MRTQ_NCHW ? ((n * p->s.o + o) * p->ho + yy) * p->wo + xx
                                              : ((n * p->ho + yy) * p->wo + xx) * p->s.o + o;
          yb[to] = src[from];
        }
  return MRTQ_OK;
}

/* Append micro-ops without deduplication (a GEMM range must be contiguous). */
MRTQ__PRIV uint32_t mrtq__vta_uop_append(mrtq_vta_prog *p, uint32_t dst, uint32_t src, uint32_t wgt) {
  mrtq_vta_uop u;
  uint32_t w = 0;
  if (p->status != MRTQ_OK) return 0;
  u.dst = dst, u.src = src, u.wgt = wgt;
  if (p->nuop >= p->uop_cap) {
    p->status = MRTQ__ERR(MRTQ_ERANGE, "p->uop_cap: the micro-op table is full");
    return 0;
  }
  if (p->nuop >= ((size_t)1 << (p->cfg.log_uop_buff_size - 2))) {
    p->status = MRTQ__ERR(MRTQ_ERANGE, "p->cfg.log_uop_buff_size: the micro-op table exceeds the UOP SRAM");
    return 0;
  }
  p->status = mrtq_vta_uop_encode(&p->cfg, &u, &w);
  p->uops[p->nuop] = w;
  return (uint32_t)p->nuop++;
}

/* The plan's buffers as placed (mrtq__vta_regions_ok). */
MRTQ__PRIV mrtq_status mrtq__vta_conv_placed(const mrtq_vta_conv_plan *cp, const mrtq_vta_config *cfg, size_t dram_bytes) {
  if (cp->strip < 1 || cp->strip > 64 || cp->grp < 1 || cp->grp > 64 || cp->inp_bufs < 1 || cp->inp_bufs > 2 ||
      cp->acc_sets < 1 || cp->acc_sets > 2 || cp->insns < 2)
    return MRTQ__ERR(MRTQ_EINVAL, "cp: not a plan mrtq_vta_conv_plan_build returned MRTQ_OK for (its tiling is unset)");
  const uint64_t batch = (uint64_t)1 << cfg->log_batch, bi = (uint64_t)1 << cfg->log_block_in,
                 bo = (uint64_t)1 << cfg->log_block_out;
  mrtq__vta_region r[5];
  r[0].off = cp->uop_off, r[0].bytes = (uint64_t)cp->uops * 4u, r[0].elem = 4;
  r[1].off = cp->x_off, r[1].bytes = cp->x_bytes, r[1].elem = batch * bi;
  r[2].off = cp->w_off, r[2].bytes = cp->w_bytes, r[2].elem = bo * bi;
  r[3].off = cp->p_off, r[3].bytes = cp->p_bytes, r[3].elem = 4 * batch * bo;
  r[4].off = cp->y_off, r[4].bytes = cp->y_bytes, r[4].elem = batch * bo;
  return mrtq__vta_regions_ok(r, 5, dram_bytes);
}

/* A tensor as blocks in DRAM: element (batch block nb, channel block c, row y,
 * column x) at base + ((nb * cb + c) * hb + y + oy) * wb + x + ox (elements
 * of the memory type). A layer's own packed buffers are views with oy = ox =
 * 0; a network's activations keep a border around each plane (oy, ox > 0). */
typedef struct mrtq__vta_view {
  uint64_t base;
  size_t cb, hb, wb, oy, ox;
} mrtq__vta_view;
MRTQ__PRIV uint32_t mrtq__vta_at(const mrtq__vta_view *v, size_t nb, size_t c, size_t y, size_t x) {
  return (uint32_t)(v->base + ((nb * v->cb + c) * v->hb + y + v->oy) * v->wb + x + v->ox);
}

/* MAXPOOL's GEMM micro-op ranges (mrtq/vta/net.h; one per INP buffer and ACC
 * set, sets of `set` rows): each window tap into its own wo rows, against WGT
 * entry 0 (the identity block). */
MRTQ__PRIV void mrtq__vta_tap_uops(const mrtq_vta_conv_plan *cp, mrtq_vta_prog *p, uint32_t set, uint32_t uop[2][2]) {
  size_t h, a, ky, kx;
  for (h = 0; h < cp->inp_bufs; h++)
    for (a = 0; a < cp->acc_sets; a++) {
      uop[h][a] = (uint32_t)p->nuop;
      for (ky = 0; ky < cp->s.kh; ky++)
        for (kx = 0; kx < cp->s.kw; kx++)
          mrtq__vta_uop_append(p, (uint32_t)(a * set + (ky * cp->s.kw + kx) * cp->wo),
                               (uint32_t)(h * cp->inp_half + ky * cp->wp + kx * cp->s.dil_w), 0);
    }
}

/* Emit a CONV2D layer (no micro-op LOAD, no FINISH): input rows from the
 * view xv (cb blocks), weights and parameter rows at DRAM elements w_el,
 * p_el, output rows into the view yv (ob blocks). Per batch block and group
 * of cp->grp output blocks: the group's weights into WGT and its parameter
 * rows into ACC once; per strip of cp->strip output rows: the strip's input
 * window (every input block the group reads) into one INP buffer, then per
 * output block of the group: reset its rows of the strip's ACC set, one GEMM
 * (micro-ops over the strip's rows and the kernel taps, loops over output
 * columns and input blocks), bias, the requant plan, a STORE of the strip.
 * Every token it takes it gives back: on return all its loads, GEMMs and
 * stores are done as far as the next instruction of any module can tell. */
MRTQ__PRIV void mrtq__vta_conv_emit(const mrtq_vta_conv_plan *cp, mrtq_vta_prog *p, const mrtq__vta_view *xv,
                                    uint64_t w_el, uint64_t p_el, const mrtq__vta_view *yv) {
  const mrtq_vta_conv_shape *s = &cp->s;
  const size_t T = cp->strip, G = cp->grp, kk = s->kh * s->kw, S = (cp->ho + T - 1) / T, set = G * T * cp->wo;
  const size_t pb = cp->acc_sets * set, cbase = pb + G * cp->param_rows, rstep = T == 1 ? 1 : s->dil_h;
  size_t nbi, g0, k, j, c, h, a, t, ky, kx;
  uint32_t uop[2][2][64], wo = (uint32_t)cp->wo;
  mrtq_vta_insn in;
  for (h = 0; h < cp->inp_bufs; h++) /* the GEMM micro-op ranges: per INP buffer, ACC set and block of a group */
    for (a = 0; a < cp->acc_sets; a++)
      for (j = 0; j < G; j++) {
        uop[h][a][j] = (uint32_t)p->nuop;
        for (t = 0; t < T; t++)
          for (ky = 0; ky < s->kh; ky++)
            for (kx = 0; kx < s->kw; kx++)
              mrtq__vta_uop_append(p, (uint32_t)(a * set + (j * T + t) * cp->wo),
                                   (uint32_t)(h * cp->inp_half + (cp->dw ? j * cp->strip_rows * cp->wp : 0) +
                                              (t * s->stride_h + ky * rstep) * cp->wp + kx * s->dil_w),
                                   (uint32_t)(j * cp->wgt_entries + ky * s->kw + kx));
      }
  for (nbi = 0; nbi < cp->nb; nbi++)
    for (g0 = 0; g0 < cp->ob; g0 += G) {
      size_t Gg = cp->ob - g0 < G ? cp->ob - g0 : G, nin = cp->dw ? Gg : cp->cbr;
      memset(&in, 0, sizeof in); /* the group's weights and parameter rows, once */
      in.opcode = MRTQ_VTA_LOAD, in.memory_type = MRTQ_VTA_MEM_WGT, in.sram_base = 0;
      in.dram_base = (uint32_t)(w_el + g0 * cp->wgt_entries);
      in.y_size = 1, in.x_size = in.x_stride = (uint32_t)(Gg * cp->wgt_entries);
      mrtq_vta_prog_push(&in, p);
      in.memory_type = MRTQ_VTA_MEM_ACC, in.sram_base = (uint32_t)pb;
      in.dram_base = (uint32_t)(p_el + g0 * cp->param_rows);
      in.x_size = in.x_stride = (uint32_t)(Gg * cp->param_rows);
      mrtq_vta_prog_push(&in, p);
      for (k = 0; k < S; k++) {
        size_t y0 = k * T, Tk = cp->ho - y0 < T ? cp->ho - y0 : T, last = 0;
        uint32_t rows = (uint32_t)(Tk * cp->wo);
        h = k % cp->inp_bufs, a = k % cp->acc_sets;
        for (c = 0; c < nin; c++) { /* the strip's window of every input block the group reads */
          memset(&in, 0, sizeof in);
          in.opcode = MRTQ_VTA_LOAD, in.memory_type = MRTQ_VTA_MEM_INP;
          in.sram_base = (uint32_t)(h * cp->inp_half + c * cp->strip_rows * cp->wp);
          in.dram_base = mrtq__vta_at(xv, nbi, cp->dw ? g0 + c : c, y0 * s->stride_h, 0);
          in.y_size = (uint32_t)mrtq__vta_strip_in(cp, Tk), in.x_size = (uint32_t)cp->wp;
          in.x_stride = (uint32_t)((T == 1 ? s->dil_h : 1) * xv->wb);
          in.pop_next = c == 0 && k >= cp->inp_bufs; /* the buffer's previous GEMMs are done */
          in.push_next = c + 1 == nin;
          mrtq_vta_prog_push(&in, p);
        }
        for (j = 0; j < Gg; j++) {
          uint32_t ab = (uint32_t)(a * set + j * T * cp->wo), prow = (uint32_t)(pb + j * cp->param_rows);
          last = mrtq__vta_reset_rows(p, ab, rows); /* the block's rows of the set, after their previous store */
          if (k >= cp->acc_sets) mrtq_vta_prog_deps(last, 0, 1, 0, 0, p);
          memset(&in, 0, sizeof in);
          in.opcode = MRTQ_VTA_GEMM, in.uop_bgn = uop[h][a][j], in.uop_end = in.uop_bgn + (uint32_t)(Tk * kk);
          in.iter_out = wo, in.dst_factor_out = 1, in.src_factor_out = (uint32_t)s->stride_w;
          in.iter_in = (uint32_t)cp->cbr;
          in.src_factor_in = cp->cbr > 1 ? (uint32_t)(cp->strip_rows * cp->wp) : 0;
          in.wgt_factor_in = cp->cbr > 1 ? (uint32_t)kk : 0;
          in.pop_prev = j == 0, in.push_prev = j + 1 == Gg; /* the loads are in; the last block frees the buffer */
          mrtq_vta_prog_push(&in, p);
          last = mrtq__vta_alu_rows(p, MRTQ_VTA_ALU_ADD, 0, 0, ab, prow, 0, rows); /* + the bias row */
          if (cp->rq.nsteps) last = mrtq_vta_emit_rq(&cp->rq, ab, rows, (uint32_t)cbase, prow + 1, p);
          mrtq_vta_prog_deps(last, 0, 0, 0, 1, p);
          mrtq__vta_store2d(p, ab, mrtq__vta_at(yv, nbi, g0 + j, y0, 0), (uint32_t)Tk, wo, (uint32_t)yv->wb, 1, 1);
        }
      }
      mrtq__vta_drain(p, S < cp->inp_bufs ? S : cp->inp_bufs, Gg * (S < cp->acc_sets ? S : cp->acc_sets));
    }
}

MRTQ_API mrtq_status mrtq_vta_conv_build(const mrtq_vta_conv_plan *cp, mrtq_vta_prog *p, uint8_t *dram,
                                         size_t dram_bytes) {
  size_t batch, bi, bo;
  mrtq__vta_view xv, yv;
  mrtq_status st;
  if (!cp) return MRTQ__ERR(MRTQ_EINVAL, "cp: NULL");
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!dram) return MRTQ__ERR(MRTQ_EINVAL, "dram: NULL");
  if (p->status != MRTQ_OK) return p->status;
  if ((st = mrtq__vta_conv_placed(cp, &p->cfg, dram_bytes)) != MRTQ_OK) return st;
  if (p->cap < cp->insns) return MRTQ__ERR(MRTQ_ERANGE, "p->cap: below cp->insns");
  batch = (size_t)1 << p->cfg.log_batch, bi = (size_t)1 << p->cfg.log_block_in, bo = (size_t)1 << p->cfg.log_block_out;
  xv.base = cp->x_off / (batch * bi), xv.cb = cp->cb, xv.hb = cp->hp, xv.wb = cp->wp, xv.oy = xv.ox = 0;
  yv.base = cp->y_off / (batch * bo), yv.cb = cp->ob, yv.hb = cp->ho, yv.wb = cp->wo, yv.oy = yv.ox = 0;
  mrtq__vta_conv_emit(cp, p, &xv, cp->w_off / (bo * bi), cp->p_off / (4 * batch * bo), &yv);
  return mrtq__vta_end(p, cp->uop_off, dram, dram_bytes);
}

MRTQ_API mrtq_status mrtq_vta_conv_run(const mrtq_vta_conv_plan *cp, const mrtq_vta_conv_quant *q, mrtq_layout layout,
                                       const void *x, const void *w, mrtq_vta_word *words, size_t cap, uint32_t *uops,
                                       size_t uop_cap, mrtq_vta_sim *sim, void *y) {
  mrtq_vta_prog prog;
  mrtq_status st;
  if (!cp) return MRTQ__ERR(MRTQ_EINVAL, "cp: NULL");
  if ((st = mrtq__vta_conv_args(cp, q, layout)) != MRTQ_OK) return st;
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  if (!w) return MRTQ__ERR(MRTQ_EINVAL, "w: NULL");
  if (!words) return MRTQ__ERR(MRTQ_EINVAL, "words: NULL");
  if (!uops) return MRTQ__ERR(MRTQ_EINVAL, "uops: NULL");
  if (!sim) return MRTQ__ERR(MRTQ_EINVAL, "sim: NULL");
  if (!y) return MRTQ__ERR(MRTQ_EINVAL, "y: NULL");
  if ((st = mrtq__vta_conv_placed(cp, &sim->cfg, sim->dram_bytes)) != MRTQ_OK) return st;
  if (cap < cp->insns) return MRTQ__ERR(MRTQ_ERANGE, "cap: below cp->insns");
  if (uop_cap < cp->uops) return MRTQ__ERR(MRTQ_ERANGE, "uop_cap: below cp->uops");
  memset(&prog, 0, sizeof prog);
  memset(sim->dram + cp->x_off, 0, cp->x_bytes), memset(sim->dram + cp->w_off, 0, cp->w_bytes);
  memset(sim->dram + cp->p_off, 0, cp->p_bytes), memset(sim->dram + cp->y_off, 0, cp->y_bytes);
  st = mrtq_vta_conv_pack_input(&sim->cfg, cp, q, layout, x, (int8_t *)(void *)(sim->dram + cp->x_off));
  if (st == MRTQ_OK) st = mrtq_vta_conv_pack_weights(&sim->cfg, cp, q, layout, w, (int8_t *)(void *)(sim->dram + cp->w_off));
  if (st == MRTQ_OK) st = mrtq_vta_conv_pack_params(&sim->cfg, cp, q, layout, w, sim->dram + cp->p_off);
  if (st == MRTQ_OK) st = mrtq_vta_prog_init(&sim->cfg, words, cap, uops, uop_cap, &prog);
  if (st == MRTQ_OK) st = mrtq_vta_conv_build(cp, &prog, sim->dram, sim->dram_bytes);
  if (st == MRTQ_OK) st = mrtq_vta_sim_run(words, prog.n, sim);
  if (st == MRTQ_OK) st = mrtq_vta_conv_unpack_output(&sim->cfg, cp, layout, sim->dram + cp->y_off, y);
  return st;
}

MRTQ_API mrtq_status mrtq_vta_conv_ref(const mrtq_vta_conv_plan *cp, const mrtq_vta_conv_quant *q, mrtq_layout layout,
                                       const void *x, const void *w, void *y) {
  const uint8_t *xb = (const uint8_t *)x, *wb = (const uint8_t *)w;
  uint8_t *yb = (uint8_t *)y;
  const mrtq_vta_conv_shape *s;
  size_t n, o, oy, ox, c, ky, kx;
  int xu, wu;
  mrtq_status st;
  if (!cp) return MRTQ__ERR(MRTQ_EINVAL, "cp: NULL");
  if ((st = mrtq__vta_conv_args(cp, q, layout)) != MRTQ_OK) return st;
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  if (!w) return MRTQ__ERR(MRTQ_EINVAL, "w: NULL");
  if (!y) return MRTQ__ERR(MRTQ_EINVAL, "y: NULL");
  if (!q->m) return MRTQ__ERR(MRTQ_EINVAL, "q->m: NULL");
  xu = q->x_type == MRTQ_U8, wu = q->w_type == MRTQ_U8;
  s = &cp->s;
  for (n = 0; n < s->n; n++)
    for (o = 0; o < s->o; o++)
      for (oy = 0; oy < cp->ho; oy++)
        for (ox = 0; ox < cp->wo; ox++) {
          int64_t acc = q->bias ? q->bias[o] : 0;
          size_t to;
          for (c = 0; c < cp->cg; c++) /* the group's input channels: all (dense), or channel o (depthwise) */
            for (ky = 0; ky < s->kh; ky++)
              for (kx = 0; kx < s->kw; kx++) {
                size_t iy = oy * s->stride_h + ky * s->dil_h, ix = ox * s->stride_w + kx * s->dil_w, xa, wa;
                size_t ci = cp->dw ? o : c;
                int32_t xv, wv;
                if (iy < s->pad_h || iy >= s->pad_h + s->h || ix < s->pad_w || ix >= s->pad_w + s->w) continue;
                iy -= s->pad_h, ix -= s->pad_w;
                xa = layout == MRTQ_NCHW ? ((n * s->c + ci) * s->h + iy) * s->w + ix : ((n * s->h + iy) * s->w + ix) * s->c + ci;
                wa = layout == MRTQ_NCHW ? ((o * cp->cg + c) * s->kh + ky) * s->kw + kx
                                         : ((o * s->kh + ky) * s->kw + kx) * cp->cg + c;
                xv = xu ? (int32_t)xb[xa] : (int32_t)(int8_t)xb[xa];
                wv = wu ? (int32_t)wb[wa] : (int32_t)(int8_t)wb[wa];
                acc += (int64_t)(xv - q->x_zp) * (wv - q->w_zp);
              }
          to = layout == MRTQ_NCHW ? ((n * s->o + o) * cp->ho + oy) * cp->wo + ox : ((n * cp->ho + oy) * cp->wo + ox) * s->o + o;
          yb[to] = (uint8_t)mrtq_vta_rq_ref(&cp->rq, q->m[q->nm == 1 ? 0 : o], (int32_t)acc);
        }
  return MRTQ_OK;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_VTA_CONV_H */
