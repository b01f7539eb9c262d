/* mrtq/vta/add.h -- the VTA TFLite delegate's quantized ADD: plan, reference, program, run.
 * Part of the VTA backend: include "mrtq/vta.h" (the umbrella, which says what
 * the family holds and the rules every part follows); this header includes
 * only the parts below it. */
#ifndef MRTQ_VTA_ADD_H
#define MRTQ_VTA_ADD_H

#include "prog.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* ---- 5a. the ADD driver ----
 * The VTA TFLite delegate's quantized ADD (alkali-csd-fw): with
 * T = 2 max(s1, s2), the host dequantizes each int8 input into the L = 7
 * fixed-point domain with mrtq_dequant_vta (multipliers s1/T, s2/T), VTA adds
 * the two int32 vectors and requantizes with the output multiplier
 * T / (2^7 s_out): ADD, MUL, SHR 15 - shift, ADD zp, MIN 127, MAX -128, STORE
 * (floor form, bit for bit the delegate's), or the nudge-rounding plan. */
typedef struct mrtq_vta_add_params {
  mrtq_mult in1, in2, out; /* Q15 multipliers (mrtq_mult_q15) */
  int32_t zp1, zp2, zp_out; /* zero points, [-128, 127] */
} mrtq_vta_add_params;

/* Where the ADD driver puts things in DRAM (byte offsets) and how big the
 * program is, for n elements (written by mrtq_vta_add_layout_of, which
 * places the micro-op table, A', B' and the output from address 0, dram_bytes
 * the end of the last). A caller may move the four buffers (change uop_off,
 * a_off, b_off, out_off) and pass the layout to mrtq_vta_add_build. */
typedef struct mrtq_vta_add_layout {
  size_t lanes, vecs, rows_per_chunk, chunks;
  size_t uop_off, a_off, b_off, out_off, dram_bytes; /* bytes */
  size_t insns;                                      /* instruction words needed */
} mrtq_vta_add_layout;

#define MRTQ_VTA_ADD_UOPS 32

/* The delegate's parameters from TFLite's float scales and int8 zero points
 * (arithmetic in double as the delegate's; passing float values reproduces it
 * exactly). Errors (MRTQ_EINVAL): p NULL, a scale NaN, infinite or <= 0, a zero
 * point outside [-128, 127]. */
MRTQ_API mrtq_status mrtq_vta_add_params_init(double s1, int32_t zp1, double s2, int32_t zp2, double s_out,
                                              int32_t zp_out, mrtq_vta_add_params *p);

/* The requant plan the ADD driver uses for `rounding` on `target`: floor on a
 * target with MUL is the delegate's sequence; otherwise the plan for a 17-bit
 * sum (|A'|, |B'| <= 2^15), whose floor form gives the delegate's values
 * without MUL (no wrap can occur at that width). Errors: p NULL, p's zero
 * points outside [-128, 127], rounding or target outside their enums ->
 * MRTQ_EINVAL; otherwise mrtq_vta_rq_plan_build's. */
MRTQ_API mrtq_status mrtq_vta_add_plan(const mrtq_vta_add_params *p, int rounding, mrtq_vta_profile target,
                                       mrtq_vta_rq_plan *plan);

/* The ADD on the CPU, the reference the program must equal: per element
 * y = A' + B' (mod 2^32) with A' = mrtq_dequant_vta(a, zp1, in1) etc., then
 * mrtq_vta_rq_ref of the driver's plan, as int8. Errors: as mrtq_vta_add_plan;
 * a, b or out NULL with n > 0 -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_vta_add_ref(const mrtq_vta_add_params *p, int rounding, const int8_t *a, const int8_t *b,
                                      size_t n, int8_t *out);

/* The DRAM layout and program size of the ADD for n elements. Errors
 * (MRTQ_EINVAL): NULL, an invalid configuration; data widths the simulator
 * does not model, an ACC of fewer than 4 rows -> MRTQ_EUNSUPPORTED. */
MRTQ_API mrtq_status mrtq_vta_add_layout_of(const mrtq_vta_config *cfg, const mrtq_vta_rq_plan *plan, size_t n,
                                            mrtq_vta_add_layout *l);

/* Build the ADD program for n elements into p (initialized with at least
 * layout.insns words and MRTQ_VTA_ADD_UOPS micro-ops) and the DRAM image's
 * micro-op table (at layout.uop_off). The inputs A', B' (int32, zero-padded to
 * whole vectors) are expected at layout.a_off / b_off, the output lands at
 * out_off: l is mrtq_vta_add_layout_of's layout for (p->cfg, plan, n) with
 * those four offsets as the caller placed them, or NULL for that layout as
 * it is. Only the offsets of l are read.
 * Chunks of rows_per_chunk = ACC depth / 4 vectors alternate between two ACC
 * halves (virtual threads): A at base, B at base + rows_per_chunk; a chunk
 * waits (store -> compute token) for the store that last used its half.
 * Errors: NULL (but l) -> MRTQ_EINVAL; as mrtq_vta_add_layout_of; an offset
 * not on its DRAM element (uop_off a multiple of 4, a_off and b_off of the
 * ACC element, 4 * batch * BLOCK_OUT bytes, out_off of the OUT element, batch
 * * BLOCK_OUT), two buffers overlapping -> MRTQ_EINVAL; a buffer ending beyond
 * dram_bytes, the program too small, or counts beyond the instruction fields
 * -> MRTQ_ERANGE; an earlier error in p as it was. */
MRTQ_API mrtq_status mrtq_vta_add_build(const mrtq_vta_rq_plan *plan, size_t n, const mrtq_vta_add_layout *l,
                                        mrtq_vta_prog *p, uint8_t *dram, size_t dram_bytes);

/* Run the quantized ADD out = a + b (n int8 elements) on a simulator: writes
 * A', B' into its DRAM (sim->dram_bytes >= layout.dram_bytes), builds the
 * program into words (cap >= layout.insns), runs it and copies the n output
 * bytes; *ninsn (if not NULL) gets the program's length. Errors: sim, p or
 * words NULL, a, b or out NULL with n > 0 -> MRTQ_EINVAL; DRAM or words too
 * small -> MRTQ_ERANGE; as mrtq_vta_add_plan, _build and mrtq_vta_sim_run
 * (sim->error says what the simulator refused). */
MRTQ_API mrtq_status mrtq_vta_add_run(const mrtq_vta_add_params *p, int rounding, const int8_t *a, const int8_t *b,
                                      size_t n, mrtq_vta_word *words, size_t cap, mrtq_vta_sim *sim, int8_t *out,
                                      size_t *ninsn);

/* ---- the ADD entirely on the device ----
 * The same ADD with int8 inputs in DRAM as VTA stores them (a VTA layer's
 * output, or the host's bytes): each chunk is loaded into INP, moved into
 * ACC by one GEMM against an identity weight block, and dequantized there by
 * ALU steps that give exactly the delegate's host form mrtq_dequant_vta:
 *   t = q - zp;  r = floor((t M + 2^7) / 2^8) - [t < 0];  A' = floor(r / 2^-s)
 * (the host form's int16 steps never wrap for int8 q and zp with M in
 * [2^14, 2^15) and shift s <= 0: |t 2^7| < 2^15, |r| < 2^15; its sign-
 * dependent nudge is the `- [t < 0]`, as min(max(t, -1), 0) from a saved copy
 * of t; a flushed multiplier M = 0 gives A' = 0 for every q, as the host form
 * does), then A' + B' and the driver's plan as in mrtq_vta_add_build. So the
 * output equals mrtq_vta_add_ref byte for byte, and no data crosses to the
 * host between a VTA layer and the ADD. Per chunk: LOAD INP A, LOAD INP B,
 * GEMM reset, one GEMM over both, 2 x 7-8 ALU steps, ADD, the plan, STORE;
 * the identity block is loaded once. Chunks of min(ACC depth / 4, INP depth /
 * 2) vectors (A, B, and two scratch halves in ACC), one at a time.
 * Needs a target with MUL (the functional simulator, Intel OpenCL: HLS and
 * Chisel have none), BLOCK_IN == BLOCK_OUT (the identity maps INP lanes to
 * ACC lanes), input multipliers with shift <= 0 (mrtq_vta_add_params_init
 * gives them for every pair of scales).
 *
 * The layout (bytes; mrtq_vta_add_dev_layout_of places the micro-op table, the
 * identity block, A, B and the output from address 0; the caller may move
 * them): A and B are n int8 values padded to whole vectors, the output n
 * int8 values likewise. */
typedef struct mrtq_vta_add_dev_layout {
  size_t lanes, vecs, rows_per_chunk, chunks;
  size_t uop_off, w_off, a_off, b_off, out_off, dram_bytes;
  size_t insns;
} mrtq_vta_add_dev_layout;

#define MRTQ_VTA_ADD_DEV_UOPS 64

/* Errors: l, plan or cfg NULL, an invalid configuration -> MRTQ_EINVAL;
 * data widths other than 8-bit with 32-bit accumulators, BLOCK_IN !=
 * BLOCK_OUT, fewer than 4 ACC rows or 2 INP entries -> MRTQ_EUNSUPPORTED. */
MRTQ_API mrtq_status mrtq_vta_add_dev_layout_of(const mrtq_vta_config *cfg, const mrtq_vta_rq_plan *plan, size_t n,
                                                mrtq_vta_add_dev_layout *l);

/* Build the program into p (at least layout.insns words and
 * MRTQ_VTA_ADD_DEV_UOPS micro-ops) and write the micro-op table and the
 * identity block into dram; A and B must be at l->a_off / b_off (l: the
 * layout of (p->cfg, plan, n) with the caller's offsets, or NULL for the
 * default placement). plan: mrtq_vta_add_plan's for the same parameters.
 * Errors: NULL (but l) -> MRTQ_EINVAL; a target without MUL (plan's), an
 * input shift > 0, an input multiplier outside [0, 32767] -> MRTQ_EUNSUPPORTED; as mrtq_vta_add_dev_layout_of; the
 * placement as mrtq_vta_add_build checks it; the program too small ->
 * MRTQ_ERANGE; an earlier error in p as it was. */
MRTQ_API mrtq_status mrtq_vta_add_dev_build(const mrtq_vta_add_params *ap, const mrtq_vta_rq_plan *plan, size_t n,
                                            const mrtq_vta_add_dev_layout *l, mrtq_vta_prog *p, uint8_t *dram,
                                            size_t dram_bytes);

/* Write a and b into the simulator's DRAM as the layout says, build, run and
 * copy the n output bytes (the sim's profile is the target). Errors: as
 * mrtq_vta_add_run; as mrtq_vta_add_dev_build. */
MRTQ_API mrtq_status mrtq_vta_add_dev_run(const mrtq_vta_add_params *p, int rounding, const int8_t *a, const int8_t *b,
                                          size_t n, mrtq_vta_word *words, size_t cap, mrtq_vta_sim *sim, int8_t *out,
                                          size_t *ninsn);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

/* x is finite and > 0 (NaN and infinities fail). */
MRTQ__PRIV int mrtq__vta_pos_finite(double x) { return x > 0 && x - x == 0; }

/* The checks every ADD entry point makes on its parameters. */
MRTQ__PRIV mrtq_status mrtq__vta_add_params_ok(const mrtq_vta_add_params *p) {
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (p->zp1 < -128 || p->zp1 > 127) return MRTQ__ERR(MRTQ_EINVAL, "p->zp1: must be in [-128, 127]");
  if (p->zp2 < -128 || p->zp2 > 127) return MRTQ__ERR(MRTQ_EINVAL, "p->zp2: must be in [-128, 127]");
  if (p->zp_out < -128 || p->zp_out > 127) return MRTQ__ERR(MRTQ_EINVAL, "p->zp_out: must be in [-128, 127]");
  return MRTQ_OK;
}

/* The checks both ADD runners make on their arguments. */
MRTQ__PRIV mrtq_status mrtq__vta_add_run_args(const mrtq_vta_add_params *p, const int8_t *a, const int8_t *b, size_t n,
                                              const mrtq_vta_word *words, const mrtq_vta_sim *sim, const int8_t *out) {
  mrtq_status st;
  if ((st = mrtq__vta_add_params_ok(p)) != MRTQ_OK) return st;
  if (!sim) return MRTQ__ERR(MRTQ_EINVAL, "sim: NULL");
  if (!words) return MRTQ__ERR(MRTQ_EINVAL, "words: NULL");
  if (!a && n) return MRTQ__ERR(MRTQ_EINVAL, "a: NULL with n > 0");
  if (!b && n) return MRTQ__ERR(MRTQ_EINVAL, "b: NULL with n > 0");
  if (!out && n) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL with n > 0");
  return MRTQ_OK;
}

/* Whether a layout of dram_bytes and insns fits the simulator and the caller's words. */
MRTQ__PRIV mrtq_status mrtq__vta_add_fits(size_t dram_bytes, size_t insns, const mrtq_vta_sim *sim, size_t cap) {
  if (dram_bytes > sim->dram_bytes) return MRTQ__ERR(MRTQ_ERANGE, "sim->dram_bytes: below the ADD layout's dram_bytes");
  if (insns > cap) return MRTQ__ERR(MRTQ_ERANGE, "cap: below the ADD layout's insns");
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_add_params_init(double s1, int32_t zp1, double s2, int32_t zp2, double s_out,
                                              int32_t zp_out, mrtq_vta_add_params *p) {
  double t;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!mrtq__vta_pos_finite(s1)) return MRTQ__ERR(MRTQ_EINVAL, "s1: must be finite and > 0");
  if (!mrtq__vta_pos_finite(s2)) return MRTQ__ERR(MRTQ_EINVAL, "s2: must be finite and > 0");
  if (!mrtq__vta_pos_finite(s_out)) return MRTQ__ERR(MRTQ_EINVAL, "s_out: must be finite and > 0");
  if (zp1 < -128 || zp1 > 127) return MRTQ__ERR(MRTQ_EINVAL, "zp1: must be in [-128, 127]");
  if (zp2 < -128 || zp2 > 127) return MRTQ__ERR(MRTQ_EINVAL, "zp2: must be in [-128, 127]");
  if (zp_out < -128 || zp_out > 127) return MRTQ__ERR(MRTQ_EINVAL, "zp_out: must be in [-128, 127]");
  t = 2 * (s1 > s2 ? s1 : s2);
  mrtq_mult_q15(s1 / t, &p->in1);
  mrtq_mult_q15(s2 / t, &p->in2);
  mrtq_mult_q15(t / (128.0 * s_out), &p->out);
  p->zp1 = zp1, p->zp2 = zp2, p->zp_out = zp_out;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_add_plan(const mrtq_vta_add_params *p, int rounding, mrtq_vta_profile target,
                                       mrtq_vta_rq_plan *plan) {
  mrtq_vta_rq_opts o = mrtq_vta_rq_opts_default();
  mrtq_status st = mrtq__vta_add_params_ok(p);
  if (st != MRTQ_OK) return st;
  if (rounding != MRTQ_VTA_ROUND_FLOOR && rounding != MRTQ_VTA_ROUND_NUDGE)
    return MRTQ__ERR(MRTQ_EINVAL, "rounding: must be MRTQ_VTA_ROUND_FLOOR or _NUDGE");
  if ((int)target < 0 || (int)target > 3) return MRTQ__ERR(MRTQ_EINVAL, "target: not an mrtq_vta_profile");
  o.target = target;
  o.rounding = rounding;
  o.delegate = rounding == MRTQ_VTA_ROUND_FLOOR && mrtq__vta_has_mul(target); /* else shift-add, same values */
  o.in_bits = o.delegate ? 32 : 17; /* |A'|, |B'| <= 2^15; the delegate's sequence takes any int32 */
  return mrtq_vta_rq_plan_build(&o, &p->out, 1, p->zp_out, -128, 127, plan);
}

MRTQ_API mrtq_status mrtq_vta_add_ref(const mrtq_vta_add_params *p, int rounding, const int8_t *a, const int8_t *b,
                                      size_t n, int8_t *out) {
  mrtq_vta_rq_plan plan;
  mrtq_status st;
  size_t i;
  if ((st = mrtq__vta_add_params_ok(p)) != MRTQ_OK) return st;
  if (!a && n) return MRTQ__ERR(MRTQ_EINVAL, "a: NULL with n > 0");
  if (!b && n) return MRTQ__ERR(MRTQ_EINVAL, "b: NULL with n > 0");
  if (!out && n) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL with n > 0");
  st = mrtq_vta_add_plan(p, rounding, MRTQ_VTA_PROFILE_SIM, &plan);
  if (st != MRTQ_OK) return st;
  for (i = 0; i < n; i++) {
    int32_t y = mrtq__wrap32((uint32_t)mrtq_dequant_vta(a[i], p->zp1, p->in1) +
                             (uint32_t)mrtq_dequant_vta(b[i], p->zp2, p->in2));
    out[i] = (int8_t)mrtq_vta_rq_ref(&plan, p->out, y);
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_add_layout_of(const mrtq_vta_config *cfg, const mrtq_vta_rq_plan *plan, size_t n,
                                            mrtq_vta_add_layout *l) {
  mrtq_vta_depths d;
  size_t per_chunk, eb;
  int i;
  mrtq_status st;
  if (!l) return MRTQ__ERR(MRTQ_EINVAL, "l: NULL");
  if (!plan) return MRTQ__ERR(MRTQ_EINVAL, "plan: NULL");
  if ((st = mrtq_vta_depths_of(cfg, &d)) != MRTQ_OK) return st;
  if (mrtq_vta_sim_scratch_bytes(cfg) == 0)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED,
          "cfg: the ADD driver takes 8-bit inputs, weights and outputs with 32-bit accumulators only");
  if (d.acc < 2)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "cfg->log_acc_buff_size: the ADD driver needs at least 4 ACC rows");
  l->lanes = (size_t)1 << (cfg->log_batch + cfg->log_block_out);
  l->vecs = n / l->lanes + (n % l->lanes != 0);
  l->rows_per_chunk = ((size_t)1 << d.acc) / 4; /* two virtual threads, two operands each */
  l->chunks = l->vecs / l->rows_per_chunk + (l->vecs % l->rows_per_chunk != 0);
  eb = 4 * l->lanes; /* ACC element bytes, a multiple of the OUT element's */
  l->uop_off = 0;
  l->a_off = (MRTQ_VTA_ADD_UOPS * 4 + eb - 1) / eb * eb;
  l->b_off = l->a_off + l->vecs * eb;
  l->out_off = l->b_off + l->vecs * eb;
  l->dram_bytes = l->out_off + l->vecs * l->lanes;
  per_chunk = 4; /* LOAD A, LOAD B, ALU ADD, STORE */
  for (i = 0; i < plan->nsteps && i < MRTQ_VTA_MAX_STEPS; i++) per_chunk += plan->step[i].kind == MRTQ_VTA_STEP_SAVE ? 2 : 1;
  l->insns = 1 + l->chunks * per_chunk + (l->chunks < 2 ? l->chunks : 2) + 1; /* uop load, chunks, drains, FINISH */
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_add_build(const mrtq_vta_rq_plan *plan, size_t n, const mrtq_vta_add_layout *lp,
                                        mrtq_vta_prog *p, uint8_t *dram, size_t dram_bytes) {
  mrtq_vta_add_layout l;
  mrtq__vta_region r[4];
  size_t c, first, last;
  mrtq_vta_insn in;
  mrtq_status st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!plan) return MRTQ__ERR(MRTQ_EINVAL, "plan: NULL");
  if (!dram) return MRTQ__ERR(MRTQ_EINVAL, "dram: NULL");
  if (p->status != MRTQ_OK) return p->status;
  if ((st = mrtq_vta_add_layout_of(&p->cfg, plan, n, &l)) != MRTQ_OK) return st;
  if (l.b_off / (4 * l.lanes) + l.vecs > 0xffffffffu)
    return MRTQ__ERR(MRTQ_ERANGE, "n: DRAM element indices beyond 32 bits");
  if (lp) l.uop_off = lp->uop_off, l.a_off = lp->a_off, l.b_off = lp->b_off, l.out_off = lp->out_off;
  r[0].off = l.uop_off, r[0].bytes = MRTQ_VTA_ADD_UOPS * 4u, r[0].elem = 4;
  r[1].off = l.a_off, r[1].bytes = (uint64_t)l.vecs * 4u * l.lanes, r[1].elem = 4u * l.lanes;
  r[2].off = l.b_off, r[2].bytes = r[1].bytes, r[2].elem = r[1].elem;
  r[3].off = l.out_off, r[3].bytes = (uint64_t)l.vecs * l.lanes, r[3].elem = l.lanes;
  if ((st = mrtq__vta_regions_ok(r, 4, dram_bytes)) != MRTQ_OK) return st;
  if (l.insns > p->cap) return MRTQ__ERR(MRTQ_ERANGE, "p->cap: below the layout's insns");
  for (c = 0; c < l.chunks; c++) {
    uint32_t L = (uint32_t)l.rows_per_chunk, base = (uint32_t)((c % 2) * 2 * L);
    uint32_t rows = (uint32_t)(c + 1 < l.chunks ? L : l.vecs - c * L);
    uint32_t v0 = (uint32_t)(c * L);
    memset(&in, 0, sizeof in);
    in.opcode = MRTQ_VTA_LOAD, in.memory_type = MRTQ_VTA_MEM_ACC, in.sram_base = base;
    in.dram_base = (uint32_t)(l.a_off / (4 * l.lanes)) + v0, in.y_size = 1, in.x_size = rows, in.x_stride = rows;
    first = mrtq_vta_prog_push(&in, p);
    if (c >= 2) mrtq_vta_prog_deps(first, 0, 1, 0, 0, p); /* wait for the store of chunk c - 2 */
    in.sram_base = base + L, in.dram_base = (uint32_t)(l.b_off / (4 * l.lanes)) + v0;
    mrtq_vta_prog_push(&in, p);
    mrtq__vta_alu_rows(p, MRTQ_VTA_ALU_ADD, 0, 0, base, base + L, 1, rows); /* A += B */
    last = mrtq_vta_emit_rq(plan, base, rows, base + L, 0, p);
    mrtq_vta_prog_deps(last, 0, 0, 0, 1, p); /* results ready: compute -> store */
    memset(&in, 0, sizeof in);
    in.opcode = MRTQ_VTA_STORE, in.memory_type = MRTQ_VTA_MEM_OUT, in.sram_base = base;
    in.dram_base = (uint32_t)(l.out_off / l.lanes) + v0, in.y_size = 1, in.x_size = rows, in.x_stride = rows;
    last = mrtq_vta_prog_push(&in, p);
    mrtq_vta_prog_deps(last, 1, 0, 1, 0, p); /* wait for compute, then free the half */
  }
  mrtq__vta_drain(p, 0, l.chunks < 2 ? l.chunks : 2); /* the store -> compute tokens not yet taken: one per half */
  return mrtq__vta_end(p, l.uop_off, dram, dram_bytes);
}

MRTQ_API mrtq_status mrtq_vta_add_run(const mrtq_vta_add_params *p, int rounding, const int8_t *a, const int8_t *b,
                                      size_t n, mrtq_vta_word *words, size_t cap, mrtq_vta_sim *sim, int8_t *out,
                                      size_t *ninsn) {
  mrtq_vta_rq_plan plan;
  mrtq_vta_add_layout l;
  mrtq_vta_prog prog;
  uint32_t uops[MRTQ_VTA_ADD_UOPS];
  mrtq_status st;
  size_t i;
  if ((st = mrtq__vta_add_run_args(p, a, b, n, words, sim, out)) != MRTQ_OK) return st;
  memset(&l, 0, sizeof l);
  memset(&prog, 0, sizeof prog);
  st = mrtq_vta_add_plan(p, rounding, sim->profile, &plan);
  if (st == MRTQ_OK) st = mrtq_vta_add_layout_of(&sim->cfg, &plan, n, &l);
  if (st != MRTQ_OK) return st;
  if ((st = mrtq__vta_add_fits(l.dram_bytes, l.insns, sim, cap)) != MRTQ_OK) return st;
  st = mrtq_vta_prog_init(&sim->cfg, words, cap, uops, MRTQ_VTA_ADD_UOPS, &prog);
  if (st != MRTQ_OK) return st;
  memset(sim->dram, 0, l.dram_bytes);
  for (i = 0; i < n; i++) {
    int32_t va = mrtq_dequant_vta(a[i], p->zp1, p->in1), vb = mrtq_dequant_vta(b[i], p->zp2, p->in2);
    memcpy(sim->dram + l.a_off + 4 * i, &va, 4);
    memcpy(sim->dram + l.b_off + 4 * i, &vb, 4);
  }
  st = mrtq_vta_add_build(&plan, n, &l, &prog, sim->dram, sim->dram_bytes);
  if (st == MRTQ_OK) st = mrtq_vta_sim_run(words, prog.n, sim);
  if (st != MRTQ_OK) return st;
  if (ninsn) *ninsn = prog.n;
  for (i = 0; i < n; i++) out[i] = (int8_t)sim->dram[l.out_off + i];
  return MRTQ_OK;
}

/* ---- the ADD entirely on the device ---- */

MRTQ_API mrtq_status mrtq_vta_add_dev_layout_of(const mrtq_vta_config *cfg, const mrtq_vta_rq_plan *plan, size_t n,
                                                mrtq_vta_add_dev_layout *l) {
  mrtq_vta_depths d;
  size_t per_chunk, eb_acc, eb_w, L;
  int i;
  mrtq_status st;
  if (!l) return MRTQ__ERR(MRTQ_EINVAL, "l: NULL");
  if (!plan) return MRTQ__ERR(MRTQ_EINVAL, "plan: NULL");
  if ((st = mrtq_vta_depths_of(cfg, &d)) != MRTQ_OK) return st;
  if (mrtq_vta_sim_scratch_bytes(cfg) == 0)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED,
                     "cfg: the ADD driver takes 8-bit inputs, weights and outputs with 32-bit accumulators only");
  if (cfg->log_block_in != cfg->log_block_out)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "cfg: the on-device ADD needs BLOCK_IN == BLOCK_OUT (an identity weight block)");
  if (d.acc < 2 || d.inp < 1)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "cfg: the on-device ADD needs at least 4 ACC rows and 2 INP entries");
  l->lanes = (size_t)1 << (cfg->log_batch + cfg->log_block_out);
  l->vecs = n / l->lanes + (n % l->lanes != 0);
  L = ((size_t)1 << d.acc) / 4;
  if (((size_t)1 << d.inp) / 2 < L) L = ((size_t)1 << d.inp) / 2;
  l->rows_per_chunk = L;
  l->chunks = l->vecs / L + (l->vecs % L != 0);
  eb_acc = 4 * l->lanes, eb_w = ((size_t)1 << cfg->log_block_out) << cfg->log_block_in;
  l->uop_off = 0;
  l->w_off = (MRTQ_VTA_ADD_DEV_UOPS * 4 + eb_acc - 1) / eb_acc * eb_acc; /* eb_acc: a multiple of every element */
  l->a_off = l->w_off + (eb_w + eb_acc - 1) / eb_acc * eb_acc;
  l->b_off = l->a_off + (l->vecs * l->lanes + eb_acc - 1) / eb_acc * eb_acc;
  l->out_off = l->b_off + (l->vecs * l->lanes + eb_acc - 1) / eb_acc * eb_acc;
  l->dram_bytes = l->out_off + l->vecs * l->lanes;
  per_chunk = 2 + 2 + 2 * 10 + 1 + 1; /* loads, reset + GEMM, two dequantizations (at most 10 each), ADD, STORE */
  for (i = 0; i < plan->nsteps && i < MRTQ_VTA_MAX_STEPS; i++) per_chunk += plan->step[i].kind == MRTQ_VTA_STEP_SAVE ? 2 : 1;
  l->insns = 1 + 1 + l->chunks * per_chunk + 2 + 1; /* uop load, identity load, chunks, two drains, FINISH */
  return MRTQ_OK;
}

/* The on-device dequantization of ACC rows [x, x + rows) (int8 values as
 * int32) with scratch rows s: mrtq_dequant_vta's value (see the contract). */
MRTQ__PRIV void mrtq__vta_dequant_rows(mrtq_vta_prog *p, int32_t zp, mrtq_mult m, uint32_t x, uint32_t s, uint32_t rows) {
  if (m.mult == 0) { /* a flushed scale: every product is 0, r = 0 (the sign step applies to negative products only) */
    mrtq__vta_alu_rows(p, MRTQ_VTA_ALU_MUL, 1, 0, x, 0, 0, rows);
    return;
  }
  if (zp) mrtq__vta_alu_rows(p, MRTQ_VTA_ALU_ADD, 1, -zp, x, 0, 0, rows); /* t = q - zp */
  mrtq__vta_reset_rows(p, s, rows);
  mrtq__vta_alu_rows(p, MRTQ_VTA_ALU_ADD, 0, 0, s, x, 1, rows);  /* a copy of t */
  mrtq__vta_alu_rows(p, MRTQ_VTA_ALU_MIN, 1, 0, s, 0, 0, rows);  /* min(t, 0) */
  mrtq__vta_alu_rows(p, MRTQ_VTA_ALU_MAX, 1, -1, s, 0, 0, rows); /* -[t < 0] */
  mrtq__vta_alu_rows(p, MRTQ_VTA_ALU_MUL, 1, m.mult, x, 0, 0, rows);
  mrtq__vta_alu_rows(p, MRTQ_VTA_ALU_ADD, 1, 128, x, 0, 0, rows);
  mrtq__vta_alu_rows(p, MRTQ_VTA_ALU_SHR, 1, 8, x, 0, 0, rows); /* floor((t M + 2^7) / 2^8) */
  mrtq__vta_alu_rows(p, MRTQ_VTA_ALU_ADD, 0, 0, x, s, 1, rows); /* r */
  if (m.shift < 0) /* a shift below -31 acts as -31, as in mrtq_dequant_vta (and no negation can overflow) */
    mrtq__vta_alu_rows(p, MRTQ_VTA_ALU_SHR, 1, m.shift < -31 ? 31 : -m.shift, x, 0, 0, rows);
}

/* What the on-device ADD needs of its target and parameters. */
MRTQ__PRIV mrtq_status mrtq__vta_add_dev_ok(const mrtq_vta_add_params *ap, mrtq_vta_profile target) {
  if (target == MRTQ_VTA_PROFILE_HLS || target == MRTQ_VTA_PROFILE_CHISEL)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "plan->opts.target: the on-device ADD multiplies (MUL); HLS and Chisel have none");
  if (ap->in1.shift > 0 || ap->in2.shift > 0)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "ap->in1, ap->in2: an input shift > 0 (a scale above 1/2 of the larger)");
  if (ap->in1.mult < 0 || ap->in1.mult > 32767 || ap->in2.mult < 0 || ap->in2.mult > 32767)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "ap->in1, ap->in2: a multiplier outside [0, 32767] (MUL's 16-bit immediate; "
                                        "mrtq_mult_q15 gives none)");
  return MRTQ_OK;
}

/* One chunk of the on-device ADD: ry rows of rx vectors of A from DRAM element
 * a (rows as apart) into INP [0, ry rx), B from b into [L, L + ry rx), both
 * moved to ACC [0, ..) and [L, ..) by the identity GEMM (micro-op gemm_uop),
 * dequantized, added, requantized by plan (then max(., zp_out) if relu) and
 * stored to o (rows os apart). first: no earlier chunk in this pipeline (it
 * takes no token; a later chunk waits for its GEMM and its STORE). */
MRTQ__PRIV void mrtq__vta_add_dev_chunk(mrtq_vta_prog *p, const mrtq_vta_add_params *ap, const mrtq_vta_rq_plan *plan,
                                        uint32_t gemm_uop, uint32_t L, int first, uint32_t a, uint32_t b, uint32_t o,
                                        uint32_t ry, uint32_t rx, uint32_t as, uint32_t bs, uint32_t os, int relu) {
  uint32_t rows = ry * rx;
  size_t last;
  mrtq_vta_insn in;
  memset(&in, 0, sizeof in); /* load: A into INP [0, rows), B into [L, L + rows) */
  in.opcode = MRTQ_VTA_LOAD, in.memory_type = MRTQ_VTA_MEM_INP, in.sram_base = 0;
  in.dram_base = a, in.y_size = ry, in.x_size = rx, in.x_stride = as;
  in.pop_next = !first; /* INP free: the previous chunk's GEMM is done */
  mrtq_vta_prog_push(&in, p);
  in.sram_base = L, in.dram_base = b, in.x_stride = bs, in.pop_next = 0, in.push_next = 1;
  mrtq_vta_prog_push(&in, p);
  last = mrtq__vta_reset_rows(p, 0, 2 * L); /* ACC A and B rows, after the previous store */
  if (!first) mrtq_vta_prog_deps(last, 0, 1, 0, 0, p);
  memset(&in, 0, sizeof in); /* A and B into ACC [0, L) and [L, 2L): INP row i x identity */
  in.opcode = MRTQ_VTA_GEMM, in.uop_bgn = gemm_uop, in.uop_end = gemm_uop + 1;
  in.iter_out = 2, in.dst_factor_out = L, in.src_factor_out = L;
  in.iter_in = rows, in.dst_factor_in = 1, in.src_factor_in = 1;
  in.pop_prev = 1, in.push_prev = 1; /* wait for the loads, then free INP */
  mrtq_vta_prog_push(&in, p);
  mrtq__vta_dequant_rows(p, ap->zp1, ap->in1, 0, 2 * L, rows);
  mrtq__vta_dequant_rows(p, ap->zp2, ap->in2, L, 2 * L, rows);
  mrtq__vta_alu_rows(p, MRTQ_VTA_ALU_ADD, 0, 0, 0, L, 1, rows); /* A' += B' */
  last = mrtq_vta_emit_rq(plan, 0, rows, 2 * L, 0, p);
  if (relu) last = mrtq__vta_alu_rows(p, MRTQ_VTA_ALU_MAX, 1, ap->zp_out, 0, 0, 0, rows);
  mrtq_vta_prog_deps(last, 0, 0, 0, 1, p);
  mrtq__vta_store2d(p, 0, o, ry, rx, os, 1, 1);
}

MRTQ_API mrtq_status mrtq_vta_add_dev_build(const mrtq_vta_add_params *ap, const mrtq_vta_rq_plan *plan, size_t n,
                                            const mrtq_vta_add_dev_layout *lp, mrtq_vta_prog *p, uint8_t *dram,
                                            size_t dram_bytes) {
  mrtq_vta_add_dev_layout l;
  mrtq__vta_region r[5];
  size_t c, i, bo;
  uint32_t L, gemm_uop;
  mrtq_vta_insn in;
  mrtq_status st;
  if ((st = mrtq__vta_add_params_ok(ap)) != MRTQ_OK) return st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!plan) return MRTQ__ERR(MRTQ_EINVAL, "plan: NULL");
  if (!dram) return MRTQ__ERR(MRTQ_EINVAL, "dram: NULL");
  if (p->status != MRTQ_OK) return p->status;
  if ((st = mrtq__vta_add_dev_ok(ap, plan->opts.target)) != MRTQ_OK) return st;
  if ((st = mrtq_vta_add_dev_layout_of(&p->cfg, plan, n, &l)) != MRTQ_OK) return st;
  if (lp) l.uop_off = lp->uop_off, l.w_off = lp->w_off, l.a_off = lp->a_off, l.b_off = lp->b_off, l.out_off = lp->out_off;
  bo = (size_t)1 << p->cfg.log_block_out;
  r[0].off = l.uop_off, r[0].bytes = MRTQ_VTA_ADD_DEV_UOPS * 4u, r[0].elem = 4;
  r[1].off = l.w_off, r[1].bytes = (uint64_t)bo * bo, r[1].elem = r[1].bytes;
  r[2].off = l.a_off, r[2].bytes = (uint64_t)l.vecs * l.lanes, r[2].elem = l.lanes;
  r[3].off = l.b_off, r[3].bytes = r[2].bytes, r[3].elem = l.lanes;
  r[4].off = l.out_off, r[4].bytes = r[2].bytes, r[4].elem = l.lanes;
  if ((st = mrtq__vta_regions_ok(r, 5, dram_bytes)) != MRTQ_OK) return st;
  if (l.insns > p->cap) return MRTQ__ERR(MRTQ_ERANGE, "p->cap: below the layout's insns");
  for (i = 0; i < bo * bo; i++) dram[l.w_off + i] = (uint8_t)(i / bo == i % bo); /* the identity block */
  L = (uint32_t)l.rows_per_chunk;
  gemm_uop = mrtq_vta_prog_uop(0, 0, 0, p); /* ACC row i += INP row i x identity */
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_LOAD, in.memory_type = MRTQ_VTA_MEM_WGT, in.dram_base = (uint32_t)(l.w_off / r[1].elem);
  in.y_size = 1, in.x_size = 1, in.x_stride = 1;
  mrtq_vta_prog_push(&in, p);
  for (c = 0; c < l.chunks; c++) {
    uint32_t rows = (uint32_t)(c + 1 < l.chunks ? L : l.vecs - c * L), v0 = (uint32_t)(c * L);
    mrtq__vta_add_dev_chunk(p, ap, plan, gemm_uop, L, c == 0, (uint32_t)(l.a_off / l.lanes) + v0,
                            (uint32_t)(l.b_off / l.lanes) + v0, (uint32_t)(l.out_off / l.lanes) + v0, 1, rows, rows,
                            rows, rows, 0);
  }
  if (l.chunks) mrtq__vta_drain(p, 1, 1); /* the last GEMM's and the last store's tokens */
  return mrtq__vta_end(p, l.uop_off, dram, dram_bytes);
}

MRTQ_API mrtq_status mrtq_vta_add_dev_run(const mrtq_vta_add_params *p, int rounding, const int8_t *a, const int8_t *b,
                                          size_t n, mrtq_vta_word *words, size_t cap, mrtq_vta_sim *sim, int8_t *out,
                                          size_t *ninsn) {
  mrtq_vta_rq_plan plan;
  mrtq_vta_add_dev_layout l;
  mrtq_vta_prog prog;
  uint32_t uops[MRTQ_VTA_ADD_DEV_UOPS];
  mrtq_status st;
  if ((st = mrtq__vta_add_run_args(p, a, b, n, words, sim, out)) != MRTQ_OK) return st;
  memset(&l, 0, sizeof l), memset(&prog, 0, sizeof prog);
  st = mrtq_vta_add_plan(p, rounding, sim->profile, &plan);
  if (st == MRTQ_OK) st = mrtq__vta_add_dev_ok(p, sim->profile); /* before the inputs are written */
  if (st == MRTQ_OK) st = mrtq_vta_add_dev_layout_of(&sim->cfg, &plan, n, &l);
  if (st != MRTQ_OK) return st;
  if ((st = mrtq__vta_add_fits(l.dram_bytes, l.insns, sim, cap)) != MRTQ_OK) return st;
  if ((st = mrtq_vta_prog_init(&sim->cfg, words, cap, uops, MRTQ_VTA_ADD_DEV_UOPS, &prog)) != MRTQ_OK) return st;
  memset(sim->dram + l.a_off, 0, l.vecs * l.lanes), memset(sim->dram + l.b_off, 0, l.vecs * l.lanes);
  if (n) memcpy(sim->dram + l.a_off, a, n), memcpy(sim->dram + l.b_off, b, n);
  st = mrtq_vta_add_dev_build(p, &plan, n, &l, &prog, sim->dram, sim->dram_bytes);
  if (st == MRTQ_OK) st = mrtq_vta_sim_run(words, prog.n, sim);
  if (st != MRTQ_OK) return st;
  if (ninsn) *ninsn = prog.n;
  if (n) memcpy(out, sim->dram + l.out_off, n);
  return MRTQ_OK;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_VTA_ADD_H */
