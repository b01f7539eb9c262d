/* mrtq/vta/net.h -- whole networks: the DRAM planner, and networks compiled to one program.
 * Part of the VTA backend: include "mrtq/vta.h" (the umbrella, which says what
 * the family holds and the rules every part follows); this header includes
 * only the parts below it. */
#ifndef MRTQ_VTA_NET_H
#define MRTQ_VTA_NET_H

#include "../pool.h"
#include "add.h"
#include "conv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* ---- 6. the DRAM planner ----
 * A network's buffers (per layer: micro-op table, packed input, weights,
 * parameter rows, output; the network's input and output), each with its
 * size, alignment and the steps it is live in: from `first` (the step that
 * writes it, or 0 for what the host writes before the run) to `last` (the
 * last step that reads it), both inclusive. Two buffers whose live ranges
 * share a step must not overlap; a buffer dead before another is born may
 * reuse its bytes (an activation freed once the next layer has read it).
 * mrtq_vta_dram_plan places them all at or above `base` (tvm-vta's runtime
 * never hands out physical address 0: a base of one page is typical) and
 * writes each buffer's offset into off[] and the end of the highest into
 * *end.
 *
 * The placement is greedy and deterministic: buffers in order of decreasing
 * size (ties: by index), each at the lowest aligned offset among base and the
 * ends of the placed buffers it shares a step with, where it overlaps none of
 * them (first fit). Its end never exceeds base + sum(bytes + align - 1) (no
 * reuse at all) and never falls below base plus the peak over steps of the
 * live bytes (a bound every placement has); tests/test_vta_net.c measures
 * where it lands between the two. */
typedef struct mrtq_vta_dram_buf {
  size_t bytes;       /* 0: not placed (off[] gets base) */
  size_t align;       /* a power of two >= 1 (bytes) */
  size_t first, last; /* live steps, inclusive */
} mrtq_vta_dram_buf;

/* scratch: n size_t of caller memory (the order). The work is O(n^2) per
 * buffer at most (n^3 in all): a network's few hundred buffers take
 * milliseconds.
 * Errors: end NULL; b, scratch or off NULL while n > 0; b[i].align 0 or not
 * a power of two; b[i].first > b[i].last -> MRTQ_EINVAL (nothing written);
 * an offset or the end beyond SIZE_MAX -> MRTQ_EOVERFLOW (*end not written;
 * off[] and scratch may be). */
MRTQ_API mrtq_status mrtq_vta_dram_plan(const mrtq_vta_dram_buf *b, size_t n, size_t base, size_t *scratch,
                                        size_t *off, size_t *end);


/* ---- 7. whole networks ----
 * A network described in C (layers reading earlier layers' outputs) compiled
 * into ONE VTA program: every layer's instructions in order (each layer
 * first LOADs its own micro-op table into UOP SRAM), one FINISH. Activations never leave the device
 * between layers: each layer STOREs its output rows straight into the
 * blocked layout its readers LOAD, [nb][cb][h + 2 pad][w + 2 pad][batch]
 * [block] int8 (BLOCK_IN == BLOCK_OUT), with a border of `pad` rows and
 * columns around every plane (the largest padding of the tensor's readers)
 * holding the value a reader pads with: a CONV reader's input zero point, -128
 * for MAXPOOL. The producing layer writes that border itself (a constant ACC
 * region STOREd around each plane) before its rows, so a DRAM region reused
 * from a dead tensor needs no host pass. Between two layers the compute
 * module, once every STORE of the first is done (store -> compute tokens),
 * hands a token to the load module, which takes it before the second layer's
 * first LOAD: a layer never reads what the previous one has not written, and
 * never overwrites what an earlier one may still be reading.
 *
 * Layers (all 8-bit):
 *  - CONV: mrtq_vta_conv_plan_build's layer (dense or depthwise, per-tensor or
 *    per-channel requant; a ReLU is the output bounds [zp, 127]); weights
 *    OIHW; FC is a 1x1 CONV over a 1x1 input; average pooling is a depthwise
 *    CONV with a ones kernel.
 *  - ADD: the on-device ADD (mrtq_vta_add_dev_build's arithmetic: equal to
 *    mrtq_vta_add_ref), then, if relu, max(., add.zp_out).
 *  - MAXPOOL: per output row, one GEMM against the identity block copies every
 *    window tap into its own ACC rows and one ALU MAX folds them; padding
 *    (-128) never wins as each window has a real element (pad < kernel);
 *    equal to mrtq_maxpool2d.
 * The host writes the model once (mrtq_vta_net_load: packed weights and
 * parameter rows, the identity block) and the input per run
 * (mrtq_vta_net_input), then runs the program (mrtq_vta_sim_run or the
 * device) and reads any live tensor back (mrtq_vta_net_output). */
typedef enum mrtq_vta_net_op { MRTQ_VTA_NET_CONV = 1, MRTQ_VTA_NET_ADD = 2, MRTQ_VTA_NET_MAXPOOL = 3 } mrtq_vta_net_op;

typedef struct mrtq_vta_net_layer {
  mrtq_vta_net_op op;
  size_t in, in2;           /* tensors read: 0 the network's input, i + 1 layer i's output (i before this layer);
                               in2: ADD's second operand */
  mrtq_vta_conv_shape s;    /* CONV and MAXPOOL: s.n, c, h, w the input's; MAXPOOL: o == c, dilation 1, pad < kernel */
  mrtq_vta_conv_quant q;    /* CONV: q.x_type MRTQ_S8 (MRTQ_U8 for the network's input if it is U8) */
  const void *w;            /* CONV: weights, OIHW ([o][c / groups][kh][kw]) of q.w_type */
  mrtq_vta_add_params add;  /* ADD */
  int rounding, relu;       /* ADD: its plan's rounding; relu: clamp below at add.zp_out */
} mrtq_vta_net_layer;

typedef struct mrtq_vta_net {
  size_t n, c, h, w;        /* the input tensor, NCHW */
  mrtq_dtype x_type;        /* MRTQ_S8, or MRTQ_U8 if only CONV layers read it */
  const mrtq_vta_net_layer *layer;
  size_t nlayers;
} mrtq_vta_net;

/* What a stretch of program does: instructions, LOAD bytes per memory type,
 * STORE bytes, GEMM and ALU micro-op executions (as the simulator counts
 * them) and GEMM resets. */
typedef struct mrtq_vta_cost {
  uint64_t insns, load_bytes[6], store_bytes, gemm_ops, alu_ops, reset_ops;
} mrtq_vta_cost;

typedef struct mrtq_vta_net_tensor {
  size_t n, c, h, w;        /* shape */
  size_t pad;               /* border rows and columns around each plane */
  int32_t border;           /* the border's value */
  size_t off, bytes;        /* DRAM bytes */
  size_t first, last;       /* live steps: written at step first (0: the host), read last at step last */
} mrtq_vta_net_tensor;

typedef struct mrtq_vta_net_lplan {
  mrtq_vta_conv_plan conv;  /* CONV; MAXPOOL: its geometry (ho, wo, hp, wp, blocks, buffers) */
  mrtq_vta_rq_plan rq;      /* ADD: mrtq_vta_add_plan's */
  size_t uop_off;           /* its micro-op table (bytes; LOADed by the layer's first compute instruction) */
  size_t w_off, p_off;      /* CONV: packed weights and parameter rows (bytes) */
  size_t insns, uops;       /* at most this many instructions and micro-ops */
  size_t first, end;        /* its instructions [first, end) (mrtq_vta_net_build) */
  mrtq_vta_cost cost;       /* mrtq_vta_net_cost's count of them */
  uint64_t compulsory;      /* bytes any schedule moves: weights and parameters, each input and the output once */
} mrtq_vta_net_lplan;

typedef struct mrtq_vta_net_plan {
  mrtq_vta_config cfg;
  mrtq_vta_profile target;
  size_t nlayers;
  mrtq_vta_net_lplan *layer; /* nlayers, in the caller's work memory */
  mrtq_vta_net_tensor *t;    /* nlayers + 1: t[0] the input, t[i + 1] layer i's output */
  size_t id_off;             /* the identity weight block (bytes) */
  size_t insns, uops, dram_bytes; /* program bounds (words; micro-ops of the largest layer); the DRAM image's end */
} mrtq_vta_net_plan;

/* Bytes of work memory mrtq_vta_net_plan_build needs for nlayers layers
 * (0 if that overflows). */
MRTQ_API size_t mrtq_vta_net_work_bytes(size_t nlayers);

/* Plan every layer, every tensor's border and the DRAM image (from `base`;
 * reuse: dead tensors' bytes reused through mrtq_vta_dram_plan, else every
 * tensor kept to the end so each can be read back). work: work_bytes >=
 * mrtq_vta_net_work_bytes(net->nlayers), 8-byte aligned; the plan points into it.
 * Errors: NULL, a layer op outside the enum, a tensor index not before the
 * layer, an input shape that is not the tensor's -> MRTQ_EINVAL / MRTQ_ESHAPE
 * (shapes); work too small or misaligned -> MRTQ_ERANGE / MRTQ_EINVAL;
 * BLOCK_IN != BLOCK_OUT, a CONV whose x_type is not its input's type, a
 * U8 network input read by an ADD or MAXPOOL, a tensor padded with two
 * different values by its readers, a MAXPOOL with dilation or pad >= kernel,
 * an ADD whose rows exceed its chunk -> MRTQ_EUNSUPPORTED; a plan the layer's
 * own planner refuses -> its status (a CONV's plan.why says what would fit);
 * a layer's micro-op table beyond the UOP SRAM, a bordered output row wider
 * than ACC (its border fill), a DRAM image beyond 2^32 bytes -> MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_vta_net_plan_build(const mrtq_vta_config *cfg, mrtq_vta_profile target, const mrtq_vta_net *net,
                                             size_t base, int reuse, void *work, size_t work_bytes,
                                             mrtq_vta_net_plan *plan);

/* The model into DRAM: each CONV's packed weights and parameter rows, the
 * identity block. Errors: NULL -> MRTQ_EINVAL; dram_bytes below
 * plan->dram_bytes -> MRTQ_ERANGE; as the CONV packers. */
MRTQ_API mrtq_status mrtq_vta_net_load(const mrtq_vta_net_plan *plan, const mrtq_vta_net *net, uint8_t *dram,
                                       size_t dram_bytes);

/* The input x (NCHW, net->x_type) into tensor 0's buffer, border included
 * (X - 128 for U8, as mrtq_vta_conv_pack_input). Errors as mrtq_vta_net_load. */
MRTQ_API mrtq_status mrtq_vta_net_input(const mrtq_vta_net_plan *plan, const mrtq_vta_net *net, const void *x,
                                        uint8_t *dram, size_t dram_bytes);

/* The whole program into p (initialized with plan->cfg and >= plan->insns
 * words and plan->uops micro-ops) and each layer's micro-op table into dram;
 * records each layer's instruction range in plan->layer[i].first / end.
 * Errors: NULL, p's configuration not the plan's -> MRTQ_EINVAL; dram_bytes
 * below plan->dram_bytes, p too small -> MRTQ_ERANGE; an earlier error in p
 * as it was. */
MRTQ_API mrtq_status mrtq_vta_net_build(mrtq_vta_net_plan *plan, const mrtq_vta_net *net, mrtq_vta_prog *p,
                                        uint8_t *dram, size_t dram_bytes);

/* Tensor `tensor` back from DRAM as NCHW int8 (its interior, as stored: for
 * tensor 0 of a U8 network, X - 128). Errors: NULL,
 * tensor > plan->nlayers -> MRTQ_EINVAL; dram_bytes below plan->dram_bytes ->
 * MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_vta_net_output(const mrtq_vta_net_plan *plan, size_t tensor, const uint8_t *dram,
                                         size_t dram_bytes, int8_t *y);

/* The network on the CPU, layer by layer, the statement every tensor of the
 * program must equal: CONV mrtq_vta_conv_ref, ADD mrtq_vta_add_ref (then
 * max(., zp_out) if relu), MAXPOOL mrtq_maxpool2d; y[i]: layer i's output
 * (NCHW, plan->t[i + 1]'s shape). Errors: NULL -> MRTQ_EINVAL; as those. */
MRTQ_API mrtq_status mrtq_vta_net_ref(const mrtq_vta_net_plan *plan, const mrtq_vta_net *net, const void *x,
                                      int8_t *const *y);

/* Count each layer's instructions of a program mrtq_vta_net_build wrote into
 * plan->layer[i].cost (decoded from words; a layer's range holds the barrier
 * before it and its own micro-op LOAD; the empty instruction 0 and the FINISH
 * are in no layer); *total (if not NULL) gets the whole program's, equal
 * to the simulator's counters after one run. Errors: NULL, a layer range
 * beyond n, an undecodable word -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_vta_net_cost(mrtq_vta_net_plan *plan, const mrtq_vta_word *words, size_t n,
                                       mrtq_vta_cost *total);

/* ---- 8. a cost model ----
 * Time of a stretch of program with the three modules fully overlapped:
 *   t = max(compute, memory) / clock, compute = gemm_ops / gemm_per_cycle +
 *   (alu_ops + reset_ops) / alu_per_cycle, memory = (all LOAD and STORE bytes)
 *   / dram_bytes_per_cycle
 * (a lower bound: no latency, no stall on a token). docs/vta.md states the
 * defaults and where they come from. */
typedef struct mrtq_vta_model {
  const char *name;
  double clock_hz, gemm_per_cycle, alu_per_cycle, dram_bytes_per_cycle;
} mrtq_vta_model;

/* 0: the Pynq-Z1 (Zynq-7020) configuration, 1: the Ultra96 (ZU3EG) one;
 * others: the Pynq-Z1's. */
MRTQ_API mrtq_vta_model mrtq_vta_model_preset(int which);

/* Seconds for c under m (0 for a model with a zero or negative rate). */
MRTQ_API double mrtq_vta_model_seconds(const mrtq_vta_model *m, const mrtq_vta_cost *c);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

MRTQ_API mrtq_status mrtq_vta_dram_plan(const mrtq_vta_dram_buf *b, size_t n, size_t base, size_t *scratch,
                                        size_t *off, size_t *end) {
  size_t i, j, k, top = base;
  if (!end) return MRTQ__ERR(MRTQ_EINVAL, "end: NULL");
  if (n && !b) return MRTQ__ERR(MRTQ_EINVAL, "b: NULL while n > 0");
  if (n && !off) return MRTQ__ERR(MRTQ_EINVAL, "off: NULL while n > 0");
  if (n && !scratch) return MRTQ__ERR(MRTQ_EINVAL, "scratch: NULL while n > 0");
  for (i = 0; i < n; i++) {
    if (b[i].align == 0 || (b[i].align & (b[i].align - 1)))
      return MRTQ__ERR(MRTQ_EINVAL, "b[i].align: must be a power of two");
    if (b[i].first > b[i].last) return MRTQ__ERR(MRTQ_EINVAL, "b[i].first: after b[i].last");
    if (b[i].bytes > SIZE_MAX - b[i].align || base > SIZE_MAX - b[i].bytes - b[i].align)
      return MRTQ__ERR(MRTQ_EOVERFLOW, "b[i].bytes: an offset beyond SIZE_MAX");
  }
  /* the order: decreasing size, ties by index (insertion sort; stable) */
  for (i = 0; i < n; i++) {
    for (j = i; j > 0 && b[scratch[j - 1]].bytes < b[i].bytes; j--) scratch[j] = scratch[j - 1];
    scratch[j] = i;
  }
  for (i = 0; i < n; i++) off[i] = base;
  /* placed[0..k) = scratch[0..k): each candidate offset is base or the end of
     a placed, live-overlapping buffer, aligned up; the lowest that fits wins */
  for (k = 0; k < n; k++) {
    const mrtq_vta_dram_buf *c = &b[scratch[k]];
    size_t best = SIZE_MAX, t;
    if (c->bytes == 0) continue;
    for (t = 0; t <= k; t++) {
      size_t cand, q;
      int ok = 1;
      if (t == k) {
        cand = base;
      } else {
        const mrtq_vta_dram_buf *p = &b[scratch[t]];
        if (p->bytes == 0 || p->last < c->first || c->last < p->first) continue;
        cand = off[scratch[t]] + p->bytes;
      }
      if (cand > SIZE_MAX - c->align) return MRTQ__ERR(MRTQ_EOVERFLOW, "b: the plan's end beyond SIZE_MAX");
      cand = (cand + c->align - 1) & ~(c->align - 1);
      if (cand >= best || cand > SIZE_MAX - c->bytes) continue;
      for (q = 0; q < k && ok; q++) {
        const mrtq_vta_dram_buf *p = &b[scratch[q]];
        if (p->bytes == 0 || p->last < c->first || c->last < p->first) continue;
        ok = cand + c->bytes <= off[scratch[q]] || off[scratch[q]] + p->bytes <= cand;
      }
      if (ok) best = cand;
    }
    if (best == SIZE_MAX) return MRTQ__ERR(MRTQ_EOVERFLOW, "b: the plan's end beyond SIZE_MAX");
    off[scratch[k]] = best;
    if (best + c->bytes > top) top = best + c->bytes;
  }
  *end = top;
  return MRTQ_OK;
}

/* ---- whole networks ---- */

MRTQ_API size_t mrtq_vta_net_work_bytes(size_t nlayers) {
  const size_t per = sizeof(mrtq_vta_net_lplan) + sizeof(mrtq_vta_net_tensor) +
                     4 * (sizeof(mrtq_vta_dram_buf) + 2 * sizeof(size_t));
  if (nlayers > SIZE_MAX / per - 4) return 0;
  return nlayers * sizeof(mrtq_vta_net_lplan) + (nlayers + 1) * sizeof(mrtq_vta_net_tensor) +
         (4 * nlayers + 2) * (sizeof(mrtq_vta_dram_buf) + 2 * sizeof(size_t));
}

/* A tensor's view (elements of batch * BLOCK bytes), read through a reader's
 * padding (pad_h, pad_w <= t->pad), or its interior (pad 0) or the whole
 * buffer. */
MRTQ__PRIV mrtq__vta_view mrtq__vta_tview(const mrtq_vta_net_plan *pl, const mrtq_vta_net_tensor *t, size_t pad_h,
                                          size_t pad_w) {
  mrtq__vta_view v;
  size_t bi = (size_t)1 << pl->cfg.log_block_in, eb = bi << pl->cfg.log_batch;
  v.base = t->off / eb, v.cb = (t->c + bi - 1) / bi, v.hb = t->h + 2 * t->pad, v.wb = t->w + 2 * t->pad;
  v.oy = t->pad - pad_h, v.ox = t->pad - pad_w;
  return v;
}

/* Bytes of a tensor's buffer (with its border) or of its interior. */
MRTQ__PRIV uint64_t mrtq__vta_tbytes(const mrtq_vta_config *cfg, const mrtq_vta_net_tensor *t, int border) {
  uint64_t batch = (uint64_t)1 << cfg->log_batch, bi = (uint64_t)1 << cfg->log_block_in, p = border ? 2 * t->pad : 0;
  return ((t->n + batch - 1) / batch) * ((t->c + bi - 1) / bi) * (t->h + p) * (t->w + p) * batch * bi;
}

/* Rows of constant ACC a border fill uses, and the fill: the border of
 * every plane of t (its producer's first instructions), STOREd in pieces of
 * at most F elements from ACC rows [0, F) set to t->border. p NULL: only
 * count the instructions. */
MRTQ__PRIV size_t mrtq__vta_fill_rows(const mrtq_vta_net_tensor *t, size_t acc_rows) {
  size_t wb = t->w + 2 * t->pad, need = t->pad * wb > t->h * t->pad ? t->pad * wb : t->h * t->pad;
  return need < acc_rows ? need : acc_rows;
}
MRTQ__PRIV size_t mrtq__vta_fill(const mrtq_vta_net_plan *pl, const mrtq_vta_net_tensor *t, mrtq_vta_prog *p) {
  mrtq_vta_depths d;
  size_t F, P = t->pad, wb = t->w + 2 * P, nb, cb, r, n = 3, stores = 0, total = 0;
  mrtq__vta_view v = mrtq__vta_tview(pl, t, P, P); /* the whole buffer */
  size_t batch = (size_t)1 << pl->cfg.log_batch;
  /* regions: top, bottom (P rows x wb), left, right (h rows x P) */
  size_t ry[4], rx[4], y0[4], x0[4];
  if (P == 0) return 0;
  if (mrtq_vta_depths_of(&pl->cfg, &d) != MRTQ_OK) return 0; /* valid: the plan was built */
  F = mrtq__vta_fill_rows(t, (size_t)1 << d.acc);
  ry[0] = ry[1] = P, rx[0] = rx[1] = wb, y0[0] = 0, y0[1] = P + t->h, x0[0] = x0[1] = 0;
  ry[2] = ry[3] = t->h, rx[2] = rx[3] = P, y0[2] = y0[3] = P, x0[2] = 0, x0[3] = P + t->w;
  for (r = 0; r < 4; r++) total += (ry[r] + F / rx[r] - 1) / (F / rx[r]);
  total *= ((t->n + batch - 1) / batch) * v.cb;
  if (!p) return n + total;
  mrtq__vta_reset_rows(p, 0, (uint32_t)F);
  mrtq_vta_prog_deps(mrtq__vta_alu_rows(p, MRTQ_VTA_ALU_ADD, 1, t->border, 0, 0, 0, (uint32_t)F), 0, 0, 0, 1, p);
  for (nb = 0; nb < (t->n + batch - 1) / batch; nb++)
    for (cb = 0; cb < v.cb; cb++)
      for (r = 0; r < 4; r++) {
        size_t per = F / rx[r], y;
        for (y = 0; y < ry[r]; y += per) {
          size_t rows = ry[r] - y < per ? ry[r] - y : per;
          stores++;
          mrtq__vta_store2d(p, 0, mrtq__vta_at(&v, nb, cb, y0[r] + y, x0[r]), (uint32_t)rows,
                            (uint32_t)rx[r], (uint32_t)wb, stores == 1, stores == total);
        }
      }
  mrtq__vta_drain(p, 0, 1); /* every border byte written */
  return n + total;
}

/* MAXPOOL's geometry and buffers in a conv plan's fields (dw, one input
 * block per output block); ACC sets of kh * kw * wo rows, one per tap. */
MRTQ__PRIV mrtq_status mrtq__vta_pool_plan(const mrtq_vta_config *cfg, const mrtq_vta_conv_shape *s, mrtq_vta_conv_plan *p) {
  mrtq_vta_depths d;
  size_t batch, bi, kk, set, blocks;
  mrtq_status st;
  if ((st = mrtq_vta_depths_of(cfg, &d)) != MRTQ_OK) return st;
  if (s->o != s->c) return MRTQ__ERR(MRTQ_ESHAPE, "net->layer[i].s.o: a MAXPOOL keeps the channels (o == c)");
  if (s->dil_h != 1 || s->dil_w != 1) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "net->layer[i].s: MAXPOOL takes no dilation (dil 1)");
  if (s->kh < 1 || s->kh > 255 || s->kw < 1 || s->kw > 255 || s->stride_h < 1 || s->stride_h > 255 || s->stride_w < 1 ||
      s->stride_w > 255)
    return MRTQ__ERR(MRTQ_ESHAPE, "net->layer[i].s: MAXPOOL kernel and stride must be in [1, 255]");
  if (s->pad_h >= s->kh || s->pad_w >= s->kw)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "net->layer[i].s: MAXPOOL padding must be below the kernel (a window of padding only)");
  memset(p, 0, sizeof *p);
  p->s = *s, p->hp = s->h + 2 * s->pad_h, p->wp = s->w + 2 * s->pad_w;
  if (s->kh > p->hp || s->kw > p->wp) return MRTQ__ERR(MRTQ_ESHAPE, "net->layer[i].s: the MAXPOOL window is larger than the padded input");
  p->ho = (p->hp - s->kh) / s->stride_h + 1, p->wo = (p->wp - s->kw) / s->stride_w + 1;
  batch = (size_t)1 << cfg->log_batch, bi = (size_t)1 << cfg->log_block_in;
  p->nb = (s->n + batch - 1) / batch, p->cb = p->ob = (s->c + bi - 1) / bi;
  p->dw = 1, p->cbr = 1, p->cg = 1, kk = s->kh * s->kw, p->k = kk;
  p->inp_half = s->kh * p->wp, set = kk * p->wo;
  p->inp_bufs = 2 * p->inp_half <= ((size_t)1 << d.inp) ? 2 : 1;
  p->acc_sets = 2 * set <= ((size_t)1 << d.acc) ? 2 : 1;
  p->uops = p->inp_bufs * p->acc_sets * kk + p->acc_sets * (kk - 1) + 1;
  if (p->inp_half > ((size_t)1 << d.inp) || set > ((size_t)1 << d.acc) || p->wo > 16383 ||
      p->uops > ((size_t)1 << d.uop))
    return MRTQ__ERR(MRTQ_ERANGE, "net->layer[i].s: a MAXPOOL row's taps do not fit the INP, ACC or UOP SRAM");
  blocks = p->nb * p->cb;
  p->insns = 1 + blocks * (p->ho * 5 + (p->ho < p->inp_bufs ? p->ho : p->inp_bufs) +
                           (p->ho < p->acc_sets ? p->ho : p->acc_sets));
  return MRTQ_OK;
}

MRTQ__PRIV void mrtq__vta_pool_emit(const mrtq_vta_conv_plan *cp, mrtq_vta_prog *p, const mrtq__vta_view *xv,
                                    uint32_t id_el, const mrtq__vta_view *yv) {
  size_t kk = cp->s.kh * cp->s.kw, set = kk * cp->wo, blk, y, a, t;
  uint32_t gemm_uop[2][2], max_uop[2], wo = (uint32_t)cp->wo;
  mrtq_vta_insn in;
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_LOAD, in.memory_type = MRTQ_VTA_MEM_WGT, in.dram_base = id_el;
  in.y_size = 1, in.x_size = 1, in.x_stride = 1;
  mrtq_vta_prog_push(&in, p);
  mrtq__vta_tap_uops(cp, p, (uint32_t)set, gemm_uop);
  for (a = 0; a < cp->acc_sets; a++) { /* MAX of taps 1.. into tap 0's rows */
    max_uop[a] = (uint32_t)p->nuop;
    for (t = 1; t < kk; t++) mrtq__vta_uop_append(p, (uint32_t)(a * set), (uint32_t)(a * set + t * cp->wo), 0);
  }
  for (blk = 0; blk < cp->nb * cp->cb; blk++) {
    size_t nbi = blk / cp->cb, cbi = blk % cp->cb, last;
    for (y = 0; y < cp->ho; y++) {
      size_t h = y % cp->inp_bufs;
      uint32_t ab;
      a = y % cp->acc_sets, ab = (uint32_t)(a * set);
      memset(&in, 0, sizeof in);
      in.opcode = MRTQ_VTA_LOAD, in.memory_type = MRTQ_VTA_MEM_INP, in.sram_base = (uint32_t)(h * cp->inp_half);
      in.dram_base = mrtq__vta_at(xv, nbi, cbi, y * cp->s.stride_h, 0);
      in.y_size = (uint32_t)cp->s.kh, in.x_size = (uint32_t)cp->wp, in.x_stride = (uint32_t)xv->wb;
      in.pop_next = y >= cp->inp_bufs, in.push_next = 1;
      mrtq_vta_prog_push(&in, p);
      last = mrtq__vta_reset_rows(p, ab, (uint32_t)set);
      if (y >= cp->acc_sets) mrtq_vta_prog_deps(last, 0, 1, 0, 0, p);
      memset(&in, 0, sizeof in); /* every tap into its own rows: INP x identity */
      in.opcode = MRTQ_VTA_GEMM, in.uop_bgn = gemm_uop[h][a], in.uop_end = in.uop_bgn + (uint32_t)kk;
      in.iter_out = wo, in.dst_factor_out = 1, in.src_factor_out = (uint32_t)cp->s.stride_w, in.iter_in = 1;
      in.pop_prev = 1, in.push_prev = 1;
      last = mrtq_vta_prog_push(&in, p);
      if (kk > 1) {
        memset(&in, 0, sizeof in);
        in.opcode = MRTQ_VTA_ALU, in.alu_opcode = MRTQ_VTA_ALU_MAX, in.uop_bgn = max_uop[a];
        in.uop_end = max_uop[a] + (uint32_t)(kk - 1);
        in.iter_out = wo, in.dst_factor_out = 1, in.src_factor_out = 1, in.iter_in = 1;
        last = mrtq_vta_prog_push(&in, p);
      }
      mrtq_vta_prog_deps(last, 0, 0, 0, 1, p);
      mrtq__vta_store_row(p, ab, mrtq__vta_at(yv, nbi, cbi, y, 0), wo);
    }
    mrtq__vta_drain(p, cp->ho < cp->inp_bufs ? cp->ho : cp->inp_bufs, cp->ho < cp->acc_sets ? cp->ho : cp->acc_sets);
  }
}

/* Rows per chunk of the on-device ADD (two operands and scratch in ACC, two in INP). */
MRTQ__PRIV size_t mrtq__vta_add_rows(const mrtq_vta_depths *d) {
  size_t L = ((size_t)1 << d->acc) / 4;
  return ((size_t)1 << d->inp) / 2 < L ? ((size_t)1 << d->inp) / 2 : L;
}

/* Mark tensor t read by a layer with padding (ph, pw) and pad value v. */
MRTQ__PRIV mrtq_status mrtq__vta_read(mrtq_vta_net_tensor *t, int *has_border, size_t step, size_t ph, size_t pw,
                                      int32_t v) {
  size_t p = ph > pw ? ph : pw;
  if (step > t->last) t->last = step;
  if (p == 0) return MRTQ_OK;
  if (*has_border && t->border != v)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "net->layer: a tensor read with padding by layers that pad with different values");
  *has_border = 1, t->border = v;
  if (p > t->pad) t->pad = p;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_net_plan_build(const mrtq_vta_config *cfg, mrtq_vta_profile target, const mrtq_vta_net *net,
                                             size_t base, int reuse, void *work, size_t work_bytes,
                                             mrtq_vta_net_plan *plan) {
  mrtq_vta_depths d;
  mrtq_vta_dram_buf *b;
  size_t *off, *scr, i, nl, nbuf, uops = 0, insns = 2, al, batch, bi, end;
  unsigned char *wp;
  int *hb; /* has_border per tensor: kept in the scratch array until the placement */
  mrtq_status st;
  if (!cfg) return MRTQ__ERR(MRTQ_EINVAL, "cfg: NULL");
  if (!net) return MRTQ__ERR(MRTQ_EINVAL, "net: NULL");
  if (!plan) return MRTQ__ERR(MRTQ_EINVAL, "plan: NULL");
  if (!work) return MRTQ__ERR(MRTQ_EINVAL, "work: NULL");
  if (net->nlayers < 1) return MRTQ__ERR(MRTQ_EINVAL, "net->nlayers: must be >= 1");
  if (!net->layer) return MRTQ__ERR(MRTQ_EINVAL, "net->layer: NULL");
  if ((int)target < 0 || (int)target > 3) return MRTQ__ERR(MRTQ_EINVAL, "target: not an mrtq_vta_profile");
  if ((uintptr_t)work % 8) return MRTQ__ERR(MRTQ_EINVAL, "work: must be 8-byte aligned");
  nl = net->nlayers;
  if (mrtq_vta_net_work_bytes(nl) == 0 || work_bytes < mrtq_vta_net_work_bytes(nl))
    return MRTQ__ERR(MRTQ_ERANGE, "work_bytes: below mrtq_vta_net_work_bytes(net->nlayers)");
  if ((st = mrtq_vta_depths_of(cfg, &d)) != MRTQ_OK) return st;
  if (cfg->log_block_in != cfg->log_block_out)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "cfg: a network needs BLOCK_IN == BLOCK_OUT (a layer's output blocks are "
                                        "its reader's input blocks)");
  if (!mrtq__dtype_q8(net->x_type)) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "net->x_type: must be MRTQ_S8 or MRTQ_U8");
  if (net->n < 1 || net->n > 65535 || net->c < 1 || net->c > 65535 || net->h < 1 || net->h > 65535 || net->w < 1 ||
      net->w > 65535)
    return MRTQ__ERR(MRTQ_ESHAPE, "net->n, c, h, w: each must be in [1, 65535]");
  memset(plan, 0, sizeof *plan);
  memset(work, 0, mrtq_vta_net_work_bytes(nl));
  plan->cfg = *cfg, plan->target = target, plan->nlayers = nl;
  wp = (unsigned char *)work;
  plan->layer = (mrtq_vta_net_lplan *)(void *)wp, wp += nl * sizeof(mrtq_vta_net_lplan);
  plan->t = (mrtq_vta_net_tensor *)(void *)wp, wp += (nl + 1) * sizeof(mrtq_vta_net_tensor);
  nbuf = 4 * nl + 2;
  b = (mrtq_vta_dram_buf *)(void *)wp, wp += nbuf * sizeof(mrtq_vta_dram_buf);
  off = (size_t *)(void *)wp, wp += nbuf * sizeof(size_t);
  scr = (size_t *)(void *)wp;
  hb = (int *)(void *)b; /* nl + 1 ints fit in the buffer array, filled only after the layers */
  plan->t[0].n = net->n, plan->t[0].c = net->c, plan->t[0].h = net->h, plan->t[0].w = net->w;
  for (i = 0; i < nl; i++) {
    const mrtq_vta_net_layer *L = &net->layer[i];
    mrtq_vta_net_lplan *lp = &plan->layer[i];
    mrtq_vta_net_tensor *x, *y = &plan->t[i + 1];
    if (L->in > i) return MRTQ__ERR(MRTQ_EINVAL, "net->layer[i].in: must be 0 (the input) or an earlier layer's + 1");
    x = &plan->t[L->in];
    if (L->op != MRTQ_VTA_NET_CONV && L->in == 0 && net->x_type != MRTQ_S8)
      return MRTQ__ERR(MRTQ_EUNSUPPORTED, "net->layer[i]: only CONV layers may read a U8 network input");
    if (L->op != MRTQ_VTA_NET_ADD && (L->s.n != x->n || L->s.c != x->c || L->s.h != x->h || L->s.w != x->w))
      return MRTQ__ERR(MRTQ_ESHAPE, "net->layer[i].s: n, c, h, w must be the input tensor's");
    y->n = x->n, y->first = y->last = i + 1;
    if (L->op == MRTQ_VTA_NET_CONV) {
      if (L->q.x_type != (L->in == 0 ? net->x_type : MRTQ_S8))
        return MRTQ__ERR(MRTQ_EUNSUPPORTED, "net->layer[i].q.x_type: must be the input tensor's type (MRTQ_S8, or "
                                            "net->x_type for the network's input)");
      if (!L->w) return MRTQ__ERR(MRTQ_EINVAL, "net->layer[i].w: NULL");
      if (L->q.qmin < -128 || L->q.qmax > 127)
        return MRTQ__ERR(MRTQ_EUNSUPPORTED, "net->layer[i].q: output bounds outside int8 (a network's tensors are int8)");
      if ((st = mrtq_vta_conv_plan_build(cfg, target, &L->s, &L->q, L->w, &lp->conv)) != MRTQ_OK) return st;
      st = mrtq__vta_read(x, &hb[L->in], i + 1, L->s.pad_h, L->s.pad_w,
                          L->q.x_zp - (L->q.x_type == MRTQ_U8 ? 128 : 0));
      if (st != MRTQ_OK) return st;
      y->c = L->s.o, y->h = lp->conv.ho, y->w = lp->conv.wo;
      lp->insns = lp->conv.insns - 2; /* its micro-op LOAD is counted below; no FINISH */
      lp->uops = lp->conv.uops;
    } else if (L->op == MRTQ_VTA_NET_MAXPOOL) {
      if ((st = mrtq__vta_pool_plan(cfg, &L->s, &lp->conv)) != MRTQ_OK) return st;
      if ((st = mrtq__vta_read(x, &hb[L->in], i + 1, L->s.pad_h, L->s.pad_w, -128)) != MRTQ_OK) return st;
      y->c = x->c, y->h = lp->conv.ho, y->w = lp->conv.wo;
      lp->insns = lp->conv.insns, lp->uops = lp->conv.uops;
    } else if (L->op == MRTQ_VTA_NET_ADD) {
      const mrtq_vta_net_tensor *x2;
      size_t rows = mrtq__vta_add_rows(&d), ry, chunks, per = 2 + 2 + 2 * 10 + 1 + 1 + 1;
      int k;
      if (L->in2 > i) return MRTQ__ERR(MRTQ_EINVAL, "net->layer[i].in2: must be 0 (the input) or an earlier layer's + 1");
      if (L->in2 == 0 && net->x_type != MRTQ_S8)
        return MRTQ__ERR(MRTQ_EUNSUPPORTED, "net->layer[i]: only CONV layers may read a U8 network input");
      x2 = &plan->t[L->in2];
      if (x2->n != x->n || x2->c != x->c || x2->h != x->h || x2->w != x->w)
        return MRTQ__ERR(MRTQ_ESHAPE, "net->layer[i].in, in2: the ADD's operands differ in shape");
      if ((st = mrtq_vta_add_plan(&L->add, L->rounding, target, &lp->rq)) != MRTQ_OK) return st;
      if ((st = mrtq__vta_add_dev_ok(&L->add, target)) != MRTQ_OK) return st;
      if (x->w > rows)
        return MRTQ__ERR(MRTQ_EUNSUPPORTED, "net->layer[i]: an ADD row longer than its chunk (min(ACC depth / 4, "
                                            "INP depth / 2) vectors)");
      mrtq__vta_read(x, &hb[L->in], i + 1, 0, 0, 0), mrtq__vta_read(&plan->t[L->in2], &hb[L->in2], i + 1, 0, 0, 0);
      y->c = x->c, y->h = x->h, y->w = x->w;
      ry = rows / x->w < x->h ? rows / x->w : x->h;
      chunks = ((x->n + ((size_t)1 << cfg->log_batch) - 1) >> cfg->log_batch) *
               ((x->c + ((size_t)1 << cfg->log_block_in) - 1) >> cfg->log_block_in) * ((x->h + ry - 1) / ry);
      for (k = 0; k < lp->rq.nsteps && k < MRTQ_VTA_MAX_STEPS; k++) per += lp->rq.step[k].kind == MRTQ_VTA_STEP_SAVE ? 2 : 1;
      lp->insns = 1 + chunks * per + 2, lp->uops = MRTQ_VTA_ADD_DEV_UOPS;
    } else {
      return MRTQ__ERR(MRTQ_EINVAL, "net->layer[i].op: not an mrtq_vta_net_op");
    }
  }
  /* borders are known: fills, program bounds, buffers */
  batch = (size_t)1 << cfg->log_batch, bi = (size_t)1 << cfg->log_block_in;
  for (i = 0; i < nl; i++) {
    mrtq_vta_net_tensor *y = &plan->t[i + 1];
    size_t acc_rows = (size_t)1 << d.acc;
    if (y->pad && y->w + 2 * y->pad > acc_rows)
      return MRTQ__ERR(MRTQ_ERANGE, "net->layer[i]: a padded output row wider than the ACC SRAM (its border fill)");
    plan->layer[i].insns += mrtq__vta_fill(plan, y, NULL) + 3; /* + the barrier before it, its micro-op LOAD */
    plan->layer[i].uops += 2; /* the fill's */
    if (plan->layer[i].uops > ((size_t)1 << d.uop))
      return MRTQ__ERR(MRTQ_ERANGE, "net->layer[i]: its micro-op table may exceed the UOP SRAM");
    insns += plan->layer[i].insns;
    if (plan->layer[i].uops > uops) uops = plan->layer[i].uops;
  }
  plan->insns = insns, plan->uops = uops;
  for (i = 0; i <= nl; i++) /* tensors no layer reads are the network's outputs: live to the end */
    if (plan->t[i].last == plan->t[i].first) plan->t[i].last = nl;
  al = 4 * batch * ((size_t)1 << cfg->log_block_out);
  if (al < bi * bi) al = bi * bi;
  /* buffers: 0 the identity block; 1 + 3i layer i's micro-ops, weights, parameter rows; 1 + 3 nl + t tensor t */
  memset(b, 0, nbuf * sizeof *b);
  b[0].bytes = bi * bi;
  for (i = 0; i < nl; i++) {
    const mrtq_vta_conv_plan *cp = &plan->layer[i].conv;
    b[1 + 3 * i].bytes = plan->layer[i].uops * 4;
    if (net->layer[i].op == MRTQ_VTA_NET_CONV) b[2 + 3 * i].bytes = cp->w_bytes, b[3 + 3 * i].bytes = cp->p_bytes;
  }
  for (i = 0; i < 1 + 3 * nl; i++) b[i].align = al, b[i].first = 0, b[i].last = nl;
  for (i = 0; i <= nl; i++) {
    mrtq_vta_net_tensor *t = &plan->t[i];
    mrtq_vta_dram_buf *bt = &b[1 + 3 * nl + i];
    uint64_t by = mrtq__vta_tbytes(cfg, t, 1);
    if (by > 0xffffffffu) return MRTQ__ERR(MRTQ_ERANGE, "net: the DRAM image exceeds 2^32 bytes");
    t->bytes = (size_t)by;
    bt->bytes = t->bytes, bt->align = al, bt->first = reuse ? t->first : 0, bt->last = reuse ? t->last : nl;
  }
  if ((st = mrtq_vta_dram_plan(b, nbuf, base, scr, off, &end)) != MRTQ_OK) return st;
  if ((uint64_t)end > 0xffffffffu) return MRTQ__ERR(MRTQ_ERANGE, "net: the DRAM image exceeds 2^32 bytes");
  plan->id_off = off[0], plan->dram_bytes = end;
  for (i = 0; i < nl; i++) {
    mrtq_vta_net_lplan *lp = &plan->layer[i];
    const mrtq_vta_net_layer *L = &net->layer[i];
    lp->uop_off = off[1 + 3 * i], lp->w_off = off[2 + 3 * i], lp->p_off = off[3 + 3 * i];
    lp->compulsory = (uint64_t)b[2 + 3 * i].bytes + b[3 + 3 * i].bytes + mrtq__vta_tbytes(cfg, &plan->t[L->in], 0) +
                     mrtq__vta_tbytes(cfg, &plan->t[i + 1], 0) +
                     (L->op == MRTQ_VTA_NET_ADD ? mrtq__vta_tbytes(cfg, &plan->t[L->in2], 0) : 0);
  }
  for (i = 0; i <= nl; i++) plan->t[i].off = off[1 + 3 * nl + i];
  return MRTQ_OK;
}

/* The checks of the calls that take a built plan and DRAM. */
MRTQ__PRIV mrtq_status mrtq__vta_net_args(const mrtq_vta_net_plan *plan, const mrtq_vta_net *net, const void *dram,
                                          size_t dram_bytes) {
  if (!plan) return MRTQ__ERR(MRTQ_EINVAL, "plan: NULL");
  if (!net) return MRTQ__ERR(MRTQ_EINVAL, "net: NULL");
  if (!dram) return MRTQ__ERR(MRTQ_EINVAL, "dram: NULL");
  if (!plan->layer || !plan->t || !net->layer || net->nlayers != plan->nlayers)
    return MRTQ__ERR(MRTQ_EINVAL, "plan: not mrtq_vta_net_plan_build's plan of net");
  if (dram_bytes < plan->dram_bytes) return MRTQ__ERR(MRTQ_ERANGE, "dram_bytes: below plan->dram_bytes");
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_net_load(const mrtq_vta_net_plan *plan, const mrtq_vta_net *net, uint8_t *dram,
                                       size_t dram_bytes) {
  size_t i, bi;
  mrtq_status st;
  if ((st = mrtq__vta_net_args(plan, net, dram, dram_bytes)) != MRTQ_OK) return st;
  bi = (size_t)1 << plan->cfg.log_block_in;
  for (i = 0; i < bi * bi; i++) dram[plan->id_off + i] = (uint8_t)(i / bi == i % bi); /* the identity block */
  for (i = 0; i < plan->nlayers; i++) {
    const mrtq_vta_net_layer *L = &net->layer[i];
    const mrtq_vta_net_lplan *lp = &plan->layer[i];
    if (L->op != MRTQ_VTA_NET_CONV) continue;
    st = mrtq_vta_conv_pack_weights(&plan->cfg, &lp->conv, &L->q, MRTQ_NCHW, L->w, (int8_t *)(void *)(dram + lp->w_off));
    if (st == MRTQ_OK) st = mrtq_vta_conv_pack_params(&plan->cfg, &lp->conv, &L->q, MRTQ_NCHW, L->w, dram + lp->p_off);
    if (st != MRTQ_OK) return st;
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_net_input(const mrtq_vta_net_plan *plan, const mrtq_vta_net *net, const void *x,
                                        uint8_t *dram, size_t dram_bytes) {
  const mrtq_vta_net_tensor *t;
  mrtq_status st;
  if ((st = mrtq__vta_net_args(plan, net, dram, dram_bytes)) != MRTQ_OK) return st;
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  t = &plan->t[0];
  mrtq__vta_pack_bordered(&plan->cfg, t->n, t->c, t->h, t->w, t->pad, t->pad, MRTQ_NCHW, net->x_type == MRTQ_U8,
                          t->border, (const uint8_t *)x, (int8_t *)(void *)(dram + t->off));
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_net_build(mrtq_vta_net_plan *plan, const mrtq_vta_net *net, mrtq_vta_prog *p,
                                        uint8_t *dram, size_t dram_bytes) {
  size_t i, batch, bi, eb, eb_acc;
  mrtq_vta_insn in;
  mrtq_status st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if ((st = mrtq__vta_net_args(plan, net, dram, dram_bytes)) != MRTQ_OK) return st;
  if (p->status != MRTQ_OK) return p->status;
  if (p->cap < plan->insns) return MRTQ__ERR(MRTQ_ERANGE, "p->cap: below plan->insns");
  if (p->uop_cap < plan->uops) return MRTQ__ERR(MRTQ_ERANGE, "p->uop_cap: below plan->uops");
  if (memcmp(&p->cfg, &plan->cfg, sizeof p->cfg))
    return MRTQ__ERR(MRTQ_EINVAL, "p->cfg: not the configuration the plan was built for");
  batch = (size_t)1 << plan->cfg.log_batch, bi = (size_t)1 << plan->cfg.log_block_in;
  eb = batch * bi, eb_acc = 4 * eb;
  for (i = 0; i < plan->nlayers; i++) {
    const mrtq_vta_net_layer *L = &net->layer[i];
    mrtq_vta_net_lplan *lp = &plan->layer[i];
    const mrtq_vta_net_tensor *x = &plan->t[L->in], *y = &plan->t[i + 1];
    mrtq__vta_view yv = mrtq__vta_tview(plan, y, 0, 0);
    size_t uop_load;
    lp->first = p->n;
    if (i > 0) { /* the barrier: every STORE of the layers before is done before this layer's first LOAD */
      memset(&in, 0, sizeof in);
      in.opcode = MRTQ_VTA_GEMM, in.push_prev = 1;
      mrtq_vta_prog_push(&in, p);
      mrtq__vta_drain(p, 1, 0);
    }
    memset(&in, 0, sizeof in); /* the layer's micro-op LOAD (compute module: after the layers before), filled below */
    in.opcode = MRTQ_VTA_LOAD, in.memory_type = MRTQ_VTA_MEM_UOP;
    uop_load = mrtq_vta_prog_push(&in, p);
    p->nuop = 0; /* the layer's own table, from UOP SRAM entry 0 */
    mrtq__vta_fill(plan, y, p);
    if (L->op == MRTQ_VTA_NET_CONV) {
      mrtq__vta_view xv = mrtq__vta_tview(plan, x, L->s.pad_h, L->s.pad_w);
      mrtq__vta_conv_emit(&lp->conv, p, &xv, lp->w_off / bi / bi, lp->p_off / eb_acc, &yv);
    } else if (L->op == MRTQ_VTA_NET_MAXPOOL) {
      mrtq__vta_view xv = mrtq__vta_tview(plan, x, L->s.pad_h, L->s.pad_w);
      mrtq__vta_pool_emit(&lp->conv, p, &xv, (uint32_t)(plan->id_off / bi / bi), &yv);
    } else {
      mrtq__vta_view av = mrtq__vta_tview(plan, x, 0, 0), bv = mrtq__vta_tview(plan, &plan->t[L->in2], 0, 0);
      mrtq_vta_depths d;
      size_t rows, ry, nb, cb, y0;
      uint32_t gemm_uop;
      int first = 1;
      mrtq_vta_depths_of(&plan->cfg, &d);
      rows = mrtq__vta_add_rows(&d), ry = rows / x->w < x->h ? rows / x->w : x->h;
      memset(&in, 0, sizeof in);
      in.opcode = MRTQ_VTA_LOAD, in.memory_type = MRTQ_VTA_MEM_WGT, in.dram_base = (uint32_t)(plan->id_off / bi / bi);
      in.y_size = 1, in.x_size = 1, in.x_stride = 1;
      mrtq_vta_prog_push(&in, p);
      gemm_uop = mrtq_vta_prog_uop(0, 0, 0, p);
      for (nb = 0; nb < (x->n + batch - 1) / batch; nb++)
        for (cb = 0; cb < av.cb; cb++)
          for (y0 = 0; y0 < x->h; y0 += ry) {
            size_t r = x->h - y0 < ry ? x->h - y0 : ry;
            mrtq__vta_add_dev_chunk(p, &L->add, &lp->rq, gemm_uop, (uint32_t)rows, first, mrtq__vta_at(&av, nb, cb, y0, 0),
                                    mrtq__vta_at(&bv, nb, cb, y0, 0), mrtq__vta_at(&yv, nb, cb, y0, 0), (uint32_t)r,
                                    (uint32_t)x->w, (uint32_t)av.wb, (uint32_t)bv.wb, (uint32_t)yv.wb, L->relu);
            first = 0;
          }
      mrtq__vta_drain(p, 1, 1);
    }
    lp->end = p->n;
    if (p->status != MRTQ_OK) return p->status;
    if (p->nuop > lp->uops) /* its DRAM buffer holds lp->uops entries: the plan's bound must hold */
      return p->status = MRTQ__ERR(MRTQ_ERANGE, "plan->layer[i].uops: below the micro-ops the layer emitted");
    memcpy(dram + lp->uop_off, p->uops, p->nuop * 4);
    memset(&in, 0, sizeof in);
    in.opcode = MRTQ_VTA_LOAD, in.memory_type = MRTQ_VTA_MEM_UOP;
    in.dram_base = (uint32_t)(lp->uop_off / 4), in.y_size = 1, in.x_size = in.x_stride = (uint32_t)p->nuop;
    if ((p->status = mrtq_vta_encode(&plan->cfg, &in, &p->words[uop_load])) != MRTQ_OK) return p->status;
  }
  memset(&in, 0, sizeof in); /* instruction 0 stays a LOAD of nothing; one FINISH ends the program */
  in.opcode = MRTQ_VTA_FINISH;
  mrtq_vta_prog_push(&in, p);
  return p->status;
}

MRTQ_API mrtq_status mrtq_vta_net_output(const mrtq_vta_net_plan *plan, size_t tensor, const uint8_t *dram,
                                         size_t dram_bytes, int8_t *y) {
  const mrtq_vta_net_tensor *t;
  mrtq__vta_view v;
  size_t batch, bi, n, c, yy, xx;
  if (!plan) return MRTQ__ERR(MRTQ_EINVAL, "plan: NULL");
  if (!dram) return MRTQ__ERR(MRTQ_EINVAL, "dram: NULL");
  if (!y) return MRTQ__ERR(MRTQ_EINVAL, "y: NULL");
  if (!plan->t || tensor > plan->nlayers) return MRTQ__ERR(MRTQ_EINVAL, "tensor: must be <= plan->nlayers");
  if (dram_bytes < plan->dram_bytes) return MRTQ__ERR(MRTQ_ERANGE, "dram_bytes: below plan->dram_bytes");
  t = &plan->t[tensor];
  v = mrtq__vta_tview(plan, t, 0, 0);
  batch = (size_t)1 << plan->cfg.log_batch, bi = (size_t)1 << plan->cfg.log_block_in;
  for (n = 0; n < t->n; n++)
    for (c = 0; c < t->c; c++)
      for (yy = 0; yy < t->h; yy++)
        for (xx = 0; xx < t->w; xx++)
          *y++ = (int8_t)dram[(size_t)mrtq__vta_at(&v, n / batch, c / bi, yy, xx) * batch * bi + (n % batch) * bi + c % bi];
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_net_ref(const mrtq_vta_net_plan *plan, const mrtq_vta_net *net, const void *x,
                                      int8_t *const *y) {
  size_t i, k;
  mrtq_status st;
  if (!plan) return MRTQ__ERR(MRTQ_EINVAL, "plan: NULL");
  if (!net) return MRTQ__ERR(MRTQ_EINVAL, "net: NULL");
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  if (!y) return MRTQ__ERR(MRTQ_EINVAL, "y: NULL");
  if (!plan->layer || !plan->t || !net->layer || net->nlayers != plan->nlayers)
    return MRTQ__ERR(MRTQ_EINVAL, "plan: not mrtq_vta_net_plan_build's plan of net");
  for (i = 0; i < net->nlayers; i++) {
    const mrtq_vta_net_layer *L = &net->layer[i];
    const mrtq_vta_net_tensor *t = &plan->t[i + 1];
    const void *a = L->in ? (const void *)y[L->in - 1] : x;
    if (!y[i]) return MRTQ__ERR(MRTQ_EINVAL, "y[i]: NULL");
    if (L->op == MRTQ_VTA_NET_CONV) {
      st = mrtq_vta_conv_ref(&plan->layer[i].conv, &L->q, MRTQ_NCHW, a, L->w, y[i]);
    } else if (L->op == MRTQ_VTA_NET_MAXPOOL) {
      mrtq_pool2d pp;
      memset(&pp, 0, sizeof pp);
      pp.n = L->s.n, pp.c = L->s.c, pp.h = L->s.h, pp.w = L->s.w, pp.kh = L->s.kh, pp.kw = L->s.kw;
      pp.stride_h = L->s.stride_h, pp.stride_w = L->s.stride_w, pp.pad_top = pp.pad_bottom = L->s.pad_h;
      pp.pad_left = pp.pad_right = L->s.pad_w, pp.layout = MRTQ_NCHW, pp.type = MRTQ_S8;
      st = mrtq_maxpool2d(&pp, a, -128, 127, y[i]);
    } else {
      size_t n = t->n * t->c * t->h * t->w;
      const int8_t *b2 = L->in2 ? y[L->in2 - 1] : (const int8_t *)x;
      st = mrtq_vta_add_ref(&L->add, L->rounding, (const int8_t *)a, b2, n, y[i]);
      if (st == MRTQ_OK && L->relu)
        for (k = 0; k < n; k++)
          if (y[i][k] < L->add.zp_out) y[i][k] = (int8_t)L->add.zp_out;
    }
    if (st != MRTQ_OK) return st;
  }
  return MRTQ_OK;
}

/* Add one decoded instruction to a cost. */
MRTQ__PRIV void mrtq__vta_cost_add(const mrtq_vta_config *cfg, const mrtq_vta_insn *in, mrtq_vta_cost *c) {
  uint64_t batch = (uint64_t)1 << cfg->log_batch, bi = (uint64_t)1 << cfg->log_block_in,
           bo = (uint64_t)1 << cfg->log_block_out, n;
  c->insns++;
  if (in->opcode == MRTQ_VTA_LOAD && in->memory_type < 6) {
    uint64_t eb = in->memory_type == MRTQ_VTA_MEM_UOP ? 4
                  : in->memory_type == MRTQ_VTA_MEM_WGT ? bo * bi
                  : in->memory_type == MRTQ_VTA_MEM_INP ? batch * bi
                  : in->memory_type == MRTQ_VTA_MEM_ACC ? 4 * batch * bo
                                                         : batch * bo;
    if (in->x_size) c->load_bytes[in->memory_type] += (uint64_t)in->x_size * in->y_size * eb;
  } else if (in->opcode == MRTQ_VTA_STORE) {
    if (in->x_size) c->store_bytes += (uint64_t)in->x_size * in->y_size * batch * bo;
  } else if (in->opcode == MRTQ_VTA_GEMM || in->opcode == MRTQ_VTA_ALU) {
    n = in->uop_end > in->uop_bgn ? (uint64_t)in->iter_out * in->iter_in * (in->uop_end - in->uop_bgn) : 0;
    if (in->opcode == MRTQ_VTA_ALU) c->alu_ops += n;
    else if (in->reset) c->reset_ops += n;
    else c->gemm_ops += n;
  }
}

MRTQ_API mrtq_status mrtq_vta_net_cost(mrtq_vta_net_plan *plan, const mrtq_vta_word *words, size_t n,
                                       mrtq_vta_cost *total) {
  size_t i, k;
  mrtq_vta_insn in;
  mrtq_vta_cost all;
  if (!plan) return MRTQ__ERR(MRTQ_EINVAL, "plan: NULL");
  if (!words) return MRTQ__ERR(MRTQ_EINVAL, "words: NULL");
  if (!plan->layer) return MRTQ__ERR(MRTQ_EINVAL, "plan: not mrtq_vta_net_plan_build's plan of net");
  for (i = 0; i < plan->nlayers; i++)
    if (plan->layer[i].first > plan->layer[i].end || plan->layer[i].end > n)
      return MRTQ__ERR(MRTQ_EINVAL, "plan->layer[i]: its instruction range lies beyond n (build the program first)");
  memset(&all, 0, sizeof all);
  for (k = 0; k < n; k++) {
    memset(&in, 0, sizeof in);
    mrtq_status st = mrtq_vta_decode(&plan->cfg, &words[k], &in);
    if (st != MRTQ_OK) return st; /* the decoder says why */
    mrtq__vta_cost_add(&plan->cfg, &in, &all);
  }
  for (i = 0; i < plan->nlayers; i++) {
    mrtq_vta_net_lplan *lp = &plan->layer[i];
    memset(&lp->cost, 0, sizeof lp->cost);
    for (k = lp->first; k < lp->end; k++) {
      memset(&in, 0, sizeof in);
      mrtq_vta_decode(&plan->cfg, &words[k], &in);
      mrtq__vta_cost_add(&plan->cfg, &in, &lp->cost);
    }
  }
  if (total) *total = all;
  return MRTQ_OK;
}

MRTQ_API mrtq_vta_model mrtq_vta_model_preset(int which) {
  mrtq_vta_model m;
  /* tvm-vta config/pkg_config.py: pynq 100 MHz with a 64-bit AXI data port,
   * ultra96 333 MHz with 128 bits; hardware/xilinx/src/vta.cc: the GEMM loop
   * pipelined at II = 1 (one micro-op per cycle), the ALU loop at II = 2 */
  if (which == 1) {
    m.name = "Ultra96 (ZU3EG)", m.clock_hz = 333e6, m.dram_bytes_per_cycle = 16.0;
  } else {
    m.name = "Pynq-Z1 (Zynq-7020)", m.clock_hz = 100e6, m.dram_bytes_per_cycle = 8.0;
  }
  m.gemm_per_cycle = 1.0, m.alu_per_cycle = 0.5;
  return m;
}

MRTQ_API double mrtq_vta_model_seconds(const mrtq_vta_model *m, const mrtq_vta_cost *c) {
  double compute, memory, bytes = 0;
  int k;
  if (!m || !c || !(m->clock_hz > 0) || !(m->gemm_per_cycle > 0) || !(m->alu_per_cycle > 0) ||
      !(m->dram_bytes_per_cycle > 0))
    return 0;
  for (k = 0; k < 6; k++) bytes += (double)c->load_bytes[k];
  bytes += (double)c->store_bytes;
  compute = (double)c->gemm_ops / m->gemm_per_cycle + (double)(c->alu_ops + c->reset_ops) / m->alu_per_cycle;
  memory = bytes / m->dram_bytes_per_cycle;
  return (compute > memory ? compute : memory) / m->clock_hz;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_VTA_NET_H */
