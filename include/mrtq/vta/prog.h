/* mrtq/vta/prog.h -- the program builder: instructions, micro-ops, dependency tokens, requant steps.
 * Part of the VTA backend: include "mrtq/vta.h" (the umbrella, which says what
 * the family holds and the rules every part follows); this header includes
 * only the parts below it. */
#ifndef MRTQ_VTA_PROG_H
#define MRTQ_VTA_PROG_H

#include "rq.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* ---- 4. programs ----
 * A program under construction: encoded instructions and a micro-op table
 * (encoded, deduplicated) in caller buffers. Instruction 0 is kept for the
 * LOAD of the micro-op table (mrtq_vta_prog_finish fills it in). Errors are
 * sticky: the first one is kept in prog->status (and reported where it
 * arose) and later calls do nothing. Set up by mrtq_vta_prog_init only. */
typedef struct mrtq_vta_prog {
  mrtq_vta_config cfg;
  mrtq_vta_word *words;
  size_t cap, n;
  uint32_t *uops;
  size_t uop_cap, nuop;
  mrtq_status status;
} mrtq_vta_prog;

/* Start a program into words[0, cap) and uops[0, uop_cap). Errors
 * (MRTQ_EINVAL): cfg, words, uops or p NULL, cap 0, an invalid configuration. */
MRTQ_API mrtq_status mrtq_vta_prog_init(const mrtq_vta_config *cfg, mrtq_vta_word *words, size_t cap,
                                        uint32_t *uops, size_t uop_cap, mrtq_vta_prog *p);

/* Append an instruction; returns its index (0 after an error: the
 * instruction buffer full -> MRTQ_ERANGE, or the encoder's status). */
MRTQ_API size_t mrtq_vta_prog_push(const mrtq_vta_insn *in, mrtq_vta_prog *p);

/* Index of a micro-op in the table (added if new; 0 after an error: the
 * encoder's status, or the table full -> MRTQ_ERANGE). */
MRTQ_API uint32_t mrtq_vta_prog_uop(uint32_t dst, uint32_t src, uint32_t wgt, mrtq_vta_prog *p);

/* OR dependency flags into instruction i (1 <= i < p->n; others:
 * MRTQ_EINVAL in p->status). */
MRTQ_API void mrtq_vta_prog_deps(size_t i, int pop_prev, int pop_next, int push_prev, int push_next,
                                 mrtq_vta_prog *p);

/* Emit a plan over ACC rows [dst, dst + rows): scratch rows [copy, copy + rows)
 * (used by SAVE), parameter rows from `param` (per channel: all rows use the
 * same channel block; emit once per block). Returns the index of the last
 * instruction emitted (0 on error, see prog->status; plan or p NULL ->
 * MRTQ_EINVAL). */
MRTQ_API size_t mrtq_vta_emit_rq(const mrtq_vta_rq_plan *plan, uint32_t dst, uint32_t rows, uint32_t copy,
                                 uint32_t param, mrtq_vta_prog *p);

/* Complete a program: instruction 0 becomes the LOAD of the micro-op table
 * from DRAM element uop_dram (4-byte units) into UOP SRAM 0, and the table is
 * copied to dram + 4 * uop_dram. Returns p->status: p NULL -> MRTQ_EINVAL;
 * dram NULL or too small -> MRTQ_ERANGE; an earlier error as it was. */
MRTQ_API mrtq_status mrtq_vta_prog_finish(uint32_t uop_dram, mrtq_vta_prog *p, uint8_t *dram, size_t dram_bytes);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

MRTQ_API mrtq_status mrtq_vta_prog_init(const mrtq_vta_config *cfg, mrtq_vta_word *words, size_t cap,
                                        uint32_t *uops, size_t uop_cap, mrtq_vta_prog *p) {
  mrtq_vta_depths d;
  mrtq_status st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!words) return MRTQ__ERR(MRTQ_EINVAL, "words: NULL");
  if (!uops) return MRTQ__ERR(MRTQ_EINVAL, "uops: NULL");
  if (cap < 1) return MRTQ__ERR(MRTQ_EINVAL, "cap: must be >= 1 (instruction 0 is the micro-op LOAD)");
  if ((st = mrtq_vta_depths_of(cfg, &d)) != MRTQ_OK) return st;
  p->cfg = *cfg;
  p->words = words, p->cap = cap, p->n = 1;
  p->uops = uops, p->uop_cap = uop_cap, p->nuop = 0;
  p->status = MRTQ_OK;
  words[0].w[0] = words[0].w[1] = 0;
  return MRTQ_OK;
}

MRTQ_API size_t mrtq_vta_prog_push(const mrtq_vta_insn *in, mrtq_vta_prog *p) {
  mrtq_status st;
  if (!p) return (void)MRTQ__ERR(MRTQ_EINVAL, "p: NULL"), 0;
  if (p->status != MRTQ_OK) return 0;
  if (p->n >= p->cap) {
    p->status = MRTQ__ERR(MRTQ_ERANGE, "p->cap: the instruction buffer is full");
    return 0;
  }
  st = mrtq_vta_encode(&p->cfg, in, &p->words[p->n]);
  if (st != MRTQ_OK) {
    p->status = st;
    return 0;
  }
  return p->n++;
}

MRTQ_API uint32_t mrtq_vta_prog_uop(uint32_t dst, uint32_t src, uint32_t wgt, mrtq_vta_prog *p) {
  mrtq_vta_uop u;
  uint32_t w = 0;
  size_t i;
  mrtq_status st;
  if (!p) return (void)MRTQ__ERR(MRTQ_EINVAL, "p: NULL"), 0;
  if (p->status != MRTQ_OK) return 0;
  u.dst = dst, u.src = src, u.wgt = wgt;
  st = mrtq_vta_uop_encode(&p->cfg, &u, &w);
  if (st != MRTQ_OK) {
    p->status = st;
    return 0;
  }
  for (i = 0; i < p->nuop; i++)
    if (p->uops[i] == w) return (uint32_t)i;
  if (p->nuop >= p->uop_cap) {
    p->status = MRTQ__ERR(MRTQ_ERANGE, "p->uop_cap: the micro-op table is full");
    return 0;
  }
  if (p->nuop >= ((size_t)1 << (p->cfg.log_uop_buff_size - 2))) {
    p->status = MRTQ__ERR(MRTQ_ERANGE, "p->cfg.log_uop_buff_size: the micro-op table exceeds the UOP SRAM");
    return 0;
  }
  p->uops[p->nuop] = w;
  return (uint32_t)p->nuop++;
}

MRTQ_API void mrtq_vta_prog_deps(size_t i, int pop_prev, int pop_next, int push_prev, int push_next,
                                 mrtq_vta_prog *p) {
  mrtq_vta_insn in;
  mrtq_vta_depths d;
  if (!p) {
    (void)MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
    return;
  }
  if (p->status != MRTQ_OK) return;
  if (i == 0 || i >= p->n) {
    p->status = MRTQ__ERR(MRTQ_EINVAL, "i: must name a pushed instruction (1 <= i < p->n)");
    return;
  }
  memset(&in, 0, sizeof in);
  if (mrtq_vta_depths_of(&p->cfg, &d) != MRTQ_OK) return; /* valid: checked by mrtq_vta_prog_init */
  mrtq__vta_unpack(&d, &p->words[i], &in);
  in.pop_prev |= (uint32_t)(pop_prev != 0), in.pop_next |= (uint32_t)(pop_next != 0);
  in.push_prev |= (uint32_t)(push_prev != 0), in.push_next |= (uint32_t)(push_next != 0);
  mrtq_vta_encode(&p->cfg, &in, &p->words[i]);
}

/* A program's buffers in DRAM: where each starts (bytes), its size and the
 * DRAM element it is addressed in (LOAD / STORE dram_base counts elements:
 * 4 bytes for micro-ops, the INP / WGT / ACC / OUT element sizes). Every
 * builder checks the buffers its program touches: each aligned to its
 * element, inside dram_bytes, its last element index within the 32-bit
 * dram_base field, and no two overlapping (the program reads some while it
 * writes others). Zero-size buffers are not checked. */
typedef struct mrtq__vta_region {
  uint64_t off, bytes, elem;
} mrtq__vta_region;
MRTQ__PRIV mrtq_status mrtq__vta_regions_ok(const mrtq__vta_region *r, int n, uint64_t dram_bytes) {
  int i, j;
  for (i = 0; i < n; i++) {
    if (r[i].bytes == 0) continue;
    if (r[i].off % r[i].elem)
      return MRTQ__ERR(MRTQ_EINVAL, "offsets: a buffer does not start on its DRAM element (micro-ops: 4 bytes; "
                                    "INP, WGT, ACC, OUT: their element sizes)");
    if (r[i].off > dram_bytes || r[i].bytes > dram_bytes - r[i].off)
      return MRTQ__ERR(MRTQ_ERANGE, "dram_bytes: a buffer (offset + size) ends beyond it");
    if ((r[i].off + r[i].bytes - 1) / r[i].elem > 0xffffffffu)
      return MRTQ__ERR(MRTQ_ERANGE, "offsets: a buffer's last element index beyond 32 bits (the dram_base field)");
    for (j = 0; j < i; j++)
      if (r[j].bytes && r[i].off < r[j].off + r[j].bytes && r[j].off < r[i].off + r[i].bytes)
        return MRTQ__ERR(MRTQ_EINVAL, "offsets: two buffers overlap");
  }
  return MRTQ_OK;
}

/* ALU op over `rows` ACC rows from dst, one loop: dst advances by 1 and src
 * by src_f per row; the operand is imm (use_imm) or ACC[src]. Returns the
 * instruction's index. */
MRTQ__PRIV size_t mrtq__vta_alu_rows(mrtq_vta_prog *p, uint32_t op, int use_imm, int32_t imm, uint32_t dst, uint32_t src,
                                   uint32_t src_f, uint32_t rows) {
  mrtq_vta_insn in;
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_ALU, in.alu_opcode = op, in.use_imm = use_imm != 0, in.imm = use_imm ? imm : 0;
  in.uop_bgn = mrtq_vta_prog_uop(dst, use_imm ? 0 : src, 0, p), in.uop_end = in.uop_bgn + 1;
  in.iter_out = rows, in.iter_in = 1, in.dst_factor_out = 1, in.src_factor_out = use_imm ? 0 : src_f;
  return mrtq_vta_prog_push(&in, p);
}

/* FINISH, then mrtq_vta_prog_finish with the micro-op table at byte uop_off. */
MRTQ__PRIV mrtq_status mrtq__vta_end(mrtq_vta_prog *p, size_t uop_off, uint8_t *dram, size_t dram_bytes) {
  mrtq_vta_insn in;
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_FINISH;
  mrtq_vta_prog_push(&in, p);
  return mrtq_vta_prog_finish((uint32_t)(uop_off / 4), p, dram, dram_bytes);
}

/* GEMM reset (zero) of `rows` ACC rows from dst. */
MRTQ__PRIV size_t mrtq__vta_reset_rows(mrtq_vta_prog *p, uint32_t dst, uint32_t rows) {
  mrtq_vta_insn in;
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_GEMM, in.reset = 1, in.iter_out = rows, in.iter_in = 1, in.dst_factor_out = 1;
  in.uop_bgn = mrtq_vta_prog_uop(dst, 0, 0, p), in.uop_end = in.uop_bgn + 1;
  return mrtq_vta_prog_push(&in, p);
}

/* STORE of y rows of x OUT elements from ACC row sram (contiguous) to DRAM
 * element dram, rows x_stride apart, with the given token flags. */
MRTQ__PRIV size_t mrtq__vta_store2d(mrtq_vta_prog *p, uint32_t sram, uint32_t dram, uint32_t y, uint32_t x,
                                    uint32_t x_stride, int pop_prev, int push_prev) {
  mrtq_vta_insn in;
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_STORE, in.memory_type = MRTQ_VTA_MEM_OUT, in.sram_base = sram, in.dram_base = dram;
  in.y_size = y, in.x_size = x, in.x_stride = x_stride;
  in.pop_prev = pop_prev != 0, in.push_prev = push_prev != 0;
  return mrtq_vta_prog_push(&in, p);
}

/* A row's STORE in the row pipeline: waits for compute, then frees the ACC set. */
MRTQ__PRIV size_t mrtq__vta_store_row(mrtq_vta_prog *p, uint32_t sram, uint32_t dram, uint32_t n) {
  return mrtq__vta_store2d(p, sram, dram, 1, n, n, 1, 1);
}

/* Take back the tokens a row pipeline left: `loads` compute -> load (LOADs of
 * nothing: every GEMM done) and `stores` store -> compute (empty GEMMs: every
 * STORE done). */
MRTQ__PRIV void mrtq__vta_drain(mrtq_vta_prog *p, size_t loads, size_t stores) {
  mrtq_vta_insn in;
  size_t i;
  for (i = 0; i < loads; i++) {
    memset(&in, 0, sizeof in);
    in.opcode = MRTQ_VTA_LOAD, in.memory_type = MRTQ_VTA_MEM_INP, in.pop_next = 1; /* x_size 0: no data */
    mrtq_vta_prog_push(&in, p);
  }
  for (i = 0; i < stores; i++) {
    memset(&in, 0, sizeof in);
    in.opcode = MRTQ_VTA_GEMM, in.pop_next = 1; /* no work: only the token */
    mrtq_vta_prog_push(&in, p);
  }
}

MRTQ_API size_t mrtq_vta_emit_rq(const mrtq_vta_rq_plan *plan, uint32_t dst, uint32_t rows, uint32_t copy,
                                 uint32_t param, mrtq_vta_prog *p) {
  size_t last = 0;
  int i;
  if (!p) return (void)MRTQ__ERR(MRTQ_EINVAL, "p: NULL"), 0;
  if (p->status != MRTQ_OK) return 0;
  if (!plan) {
    p->status = MRTQ__ERR(MRTQ_EINVAL, "plan: NULL");
    return 0;
  }
  for (i = 0; i < plan->nsteps && i < MRTQ_VTA_MAX_STEPS; i++) {
    const mrtq_vta_step *s = &plan->step[i];
    if (s->kind == MRTQ_VTA_STEP_SAVE) { /* copy = 0, then copy += data */
      mrtq__vta_reset_rows(p, copy, rows);
      last = mrtq__vta_alu_rows(p, MRTQ_VTA_ALU_ADD, 0, 0, copy, dst, 1, rows);
    } else {
      uint32_t to = s->on_copy ? copy : dst, other = s->on_copy ? dst : copy;
      uint32_t src = s->operand == MRTQ_VTA_OPND_COPY ? other : s->operand == MRTQ_VTA_OPND_PARAM ? param + (uint32_t)s->imm : 0;
      last = mrtq__vta_alu_rows(p, (uint32_t)s->alu_opcode, s->operand == MRTQ_VTA_OPND_IMM, s->imm, to, src,
                                s->operand == MRTQ_VTA_OPND_COPY ? 1 : 0, rows);
    }
  }
  return p->status == MRTQ_OK ? last : 0;
}

MRTQ_API mrtq_status mrtq_vta_prog_finish(uint32_t uop_dram, mrtq_vta_prog *p, uint8_t *dram, size_t dram_bytes) {
  mrtq_vta_insn in;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (p->status != MRTQ_OK) return p->status;
  if (!dram) return p->status = MRTQ__ERR(MRTQ_ERANGE, "dram: NULL");
  if (((uint64_t)uop_dram + p->nuop) * 4u > dram_bytes)
    return p->status = MRTQ__ERR(MRTQ_ERANGE, "dram_bytes: the micro-op table at uop_dram does not fit");
  memcpy(dram + (size_t)uop_dram * 4u, p->uops, p->nuop * 4u);
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_LOAD, in.memory_type = MRTQ_VTA_MEM_UOP, in.dram_base = uop_dram;
  in.y_size = 1, in.x_size = (uint32_t)p->nuop, in.x_stride = (uint32_t)p->nuop;
  return p->status = mrtq_vta_encode(&p->cfg, &in, &p->words[0]);
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_VTA_PROG_H */
