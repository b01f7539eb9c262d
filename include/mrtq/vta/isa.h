/* mrtq/vta/isa.h -- configuration and instruction set: encode / decode of the 128-bit instructions and 32-bit
 * micro-ops, bit-exact with apache/tvm-vta's layout (include/vta/hw_spec.h), and a disassembler.
 * Part of the VTA backend: include "mrtq/vta.h" (the umbrella, which says what
 * the family holds and the rules every part follows); this header includes
 * only the parts below it. */
#ifndef MRTQ_VTA_ISA_H
#define MRTQ_VTA_ISA_H

#include "../requant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* ---- 1. configuration and instruction set ---- */

/* The hardware parameters that shape the ISA (tvm-vta's vta_config.json). */
typedef struct mrtq_vta_config {
  int log_inp_width, log_wgt_width, log_acc_width, log_out_width; /* data widths: 2^k bits, k in [0, 5] */
  int log_batch, log_block_in, log_block_out;                     /* GEMM shape, each in [0, 8] */
  int log_uop_buff_size, log_inp_buff_size, log_wgt_buff_size, log_acc_buff_size; /* SRAM sizes, bytes */
} mrtq_vta_config;

/* log2 of the SRAM depths (entries), as tvm-vta derives them. */
typedef struct mrtq_vta_depths {
  int uop, inp, wgt, acc;
} mrtq_vta_depths;

/* Opcodes, ALU opcodes and memory types (hw_spec.h values). */
enum { MRTQ_VTA_LOAD = 0, MRTQ_VTA_STORE = 1, MRTQ_VTA_GEMM = 2, MRTQ_VTA_FINISH = 3, MRTQ_VTA_ALU = 4 };
enum { MRTQ_VTA_ALU_MIN = 0, MRTQ_VTA_ALU_MAX = 1, MRTQ_VTA_ALU_ADD = 2, MRTQ_VTA_ALU_SHR = 3, MRTQ_VTA_ALU_MUL = 4 };
enum { MRTQ_VTA_MEM_UOP = 0, MRTQ_VTA_MEM_WGT = 1, MRTQ_VTA_MEM_INP = 2, MRTQ_VTA_MEM_ACC = 3, MRTQ_VTA_MEM_OUT = 4,
       MRTQ_VTA_MEM_ACC_8BIT = 5 };

/* One instruction, decoded. Every form has opcode and the four dependency
 * flags. LOAD/STORE (memory form): memory_type .. x_pad_1. GEMM and FINISH
 * (loop form): reset .. wgt_factor_in. ALU: reset .. src_factor_in,
 * alu_opcode, use_imm and imm (signed 16 bits). A field the opcode's form
 * does not have must be 0 (the encoder refuses it); the decoder sets it to 0. */
typedef struct mrtq_vta_insn {
  uint32_t opcode, pop_prev, pop_next, push_prev, push_next;
  uint32_t memory_type, sram_base, dram_base, y_size, x_size, x_stride, y_pad_0, y_pad_1, x_pad_0, x_pad_1;
  uint32_t reset, uop_bgn, uop_end, iter_out, iter_in;
  uint32_t dst_factor_out, dst_factor_in, src_factor_out, src_factor_in, wgt_factor_out, wgt_factor_in;
  uint32_t alu_opcode, use_imm;
  int32_t imm;
} mrtq_vta_insn;

/* 128 bits: w[0] holds bits 0..63, w[1] bits 64..127. */
typedef struct mrtq_vta_word {
  uint64_t w[2];
} mrtq_vta_word;

/* A micro-op: dst (ACC index), src (INP index for GEMM, ACC index for ALU), wgt. */
typedef struct mrtq_vta_uop {
  uint32_t dst, src, wgt;
} mrtq_vta_uop;

/* tvm-vta's default: int8 inputs/weights/outputs, int32 accumulators, BATCH 1,
 * BLOCK_IN = BLOCK_OUT = 16, SRAM depths UOP 8192, INP 2048, WGT 1024, ACC 2048. */
MRTQ_API mrtq_vta_config mrtq_vta_config_default(void);

/* The SRAM depths of cfg into *d: uop = log_uop_buff_size - 2, inp =
 * log_inp_buff_size - log_batch - log_block_in - log_inp_width + 3, wgt and
 * acc likewise. Errors (MRTQ_EINVAL): cfg or d NULL; a width outside [0, 5]; a
 * log_batch / log_block_in / log_block_out outside [0, 8]; a depth below 1
 * entry or above 2^16. */
MRTQ_API mrtq_status mrtq_vta_depths_of(const mrtq_vta_config *cfg, mrtq_vta_depths *d);

/* Encode an instruction. Errors: cfg, in or out NULL, an invalid
 * configuration (as mrtq_vta_depths_of), opcode > 4, a field the opcode's
 * form does not have set non-zero -> MRTQ_EINVAL; a field value that does not
 * fit its width (imm outside [-32768, 32767]) or a configuration whose fields
 * exceed 128 bits -> MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_vta_encode(const mrtq_vta_config *cfg, const mrtq_vta_insn *in, mrtq_vta_word *out);

/* Decode 128 bits (imm sign-extended). Errors (MRTQ_EINVAL): NULL or invalid
 * configuration, an opcode field of 5..7, a configuration whose fields exceed
 * 128 bits, a bit set outside the fields of the opcode's form (tvm-vta's
 * compiler leaves them 0; the hardware would ignore them). */
MRTQ_API mrtq_status mrtq_vta_decode(const mrtq_vta_config *cfg, const mrtq_vta_word *in, mrtq_vta_insn *out);

/* 32-bit micro-op: dst in bits [0, A), src in [A, A + S), wgt in [A + S,
 * A + S + W), A = log2 ACC depth, S = max(A, log2 INP depth) (src indexes INP
 * for GEMM, ACC for ALU), W = log2 WGT depth (11, 11, 10 by default).
 * Errors: NULL / invalid configuration or A + S + W > 32 -> MRTQ_EINVAL; an
 * index that does not fit -> MRTQ_ERANGE. uop_decode also refuses a word with
 * bits set above A + S + W (MRTQ_EINVAL). */
MRTQ_API mrtq_status mrtq_vta_uop_encode(const mrtq_vta_config *cfg, const mrtq_vta_uop *u, uint32_t *out);
MRTQ_API mrtq_status mrtq_vta_uop_decode(const mrtq_vta_config *cfg, uint32_t in, mrtq_vta_uop *u);

/* One line of text for an instruction, e.g.
 *   "ALU ADD imm=-3 uop=[0,1) iter=4x8 dst=16,1 src=0,0 deps=pop_prev"
 * (the fields of the opcode's form; "INVALID" for NULL or opcode > 4).
 * Writes at most cap bytes (NUL-terminated when cap > 0; buf may be NULL when
 * cap is 0) and returns the full length, like snprintf. Never fails. */
MRTQ_API size_t mrtq_vta_disasm(const mrtq_vta_insn *in, char *buf, size_t cap);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

MRTQ_API mrtq_vta_config mrtq_vta_config_default(void) {
  mrtq_vta_config c;
  c.log_inp_width = 3;
  c.log_wgt_width = 3;
  c.log_acc_width = 5;
  c.log_out_width = 3;
  c.log_batch = 0;
  c.log_block_in = 4;
  c.log_block_out = 4;
  c.log_uop_buff_size = 15;
  c.log_inp_buff_size = 15;
  c.log_wgt_buff_size = 18;
  c.log_acc_buff_size = 17;
  return c;
}
/* log2 of each SRAM depth of cfg (its widths, batch and blocks already in
 * range), computed in int64 so that a log_*_buff_size near INT_MIN or
 * INT_MAX cannot wrap: 0 with *d filled, or which depth is outside [0, 16]
 * (1 UOP, 2 INP, 3 WGT, 4 ACC; *d unchanged). Reports nothing. */
MRTQ__PRIV int mrtq__vta_depths(const mrtq_vta_config *cfg, mrtq_vta_depths *d) {
  int64_t uop = (int64_t)cfg->log_uop_buff_size - 5 + 3; /* 32-bit micro-ops */
  int64_t inp = (int64_t)cfg->log_inp_buff_size - cfg->log_batch - cfg->log_block_in - cfg->log_inp_width + 3;
  int64_t wgt = (int64_t)cfg->log_wgt_buff_size - cfg->log_block_out - cfg->log_block_in - cfg->log_wgt_width + 3;
  int64_t acc = (int64_t)cfg->log_acc_buff_size - cfg->log_batch - cfg->log_block_out - cfg->log_acc_width + 3;
  if (uop < 0 || uop > 16) return 1;
  if (inp < 0 || inp > 16) return 2;
  if (wgt < 0 || wgt > 16) return 3;
  if (acc < 0 || acc > 16) return 4;
  d->uop = (int)uop, d->inp = (int)inp, d->wgt = (int)wgt, d->acc = (int)acc;
  return 0;
}

MRTQ_API mrtq_status mrtq_vta_depths_of(const mrtq_vta_config *cfg, mrtq_vta_depths *d) {
  mrtq_vta_depths r;
  if (!cfg) return MRTQ__ERR(MRTQ_EINVAL, "cfg: NULL");
  if (!d) return MRTQ__ERR(MRTQ_EINVAL, "d: NULL");
  if (cfg->log_inp_width < 0 || cfg->log_inp_width > 5)
    return MRTQ__ERR(MRTQ_EINVAL, "cfg->log_inp_width: must be in [0, 5]");
  if (cfg->log_wgt_width < 0 || cfg->log_wgt_width > 5)
    return MRTQ__ERR(MRTQ_EINVAL, "cfg->log_wgt_width: must be in [0, 5]");
  if (cfg->log_acc_width < 0 || cfg->log_acc_width > 5)
    return MRTQ__ERR(MRTQ_EINVAL, "cfg->log_acc_width: must be in [0, 5]");
  if (cfg->log_out_width < 0 || cfg->log_out_width > 5)
    return MRTQ__ERR(MRTQ_EINVAL, "cfg->log_out_width: must be in [0, 5]");
  if (cfg->log_batch < 0 || cfg->log_batch > 8) return MRTQ__ERR(MRTQ_EINVAL, "cfg->log_batch: must be in [0, 8]");
  if (cfg->log_block_in < 0 || cfg->log_block_in > 8)
    return MRTQ__ERR(MRTQ_EINVAL, "cfg->log_block_in: must be in [0, 8]");
  if (cfg->log_block_out < 0 || cfg->log_block_out > 8)
    return MRTQ__ERR(MRTQ_EINVAL, "cfg->log_block_out: must be in [0, 8]");
  switch (mrtq__vta_depths(cfg, &r)) {
    case 1: return MRTQ__ERR(MRTQ_EINVAL, "cfg->log_uop_buff_size: UOP depth must be 1 to 2^16 entries");
    case 2: return MRTQ__ERR(MRTQ_EINVAL, "cfg->log_inp_buff_size: INP depth must be 1 to 2^16 entries");
    case 3: return MRTQ__ERR(MRTQ_EINVAL, "cfg->log_wgt_buff_size: WGT depth must be 1 to 2^16 entries");
    case 4: return MRTQ__ERR(MRTQ_EINVAL, "cfg->log_acc_buff_size: ACC depth must be 1 to 2^16 entries");
    default: break;
  }
  *d = r;
  return MRTQ_OK;
}

typedef struct mrtq__vta_field {
  int width;
  size_t member;
} mrtq__vta_field;

#define MRTQ__VTA_F(w, m) { (w), offsetof(mrtq_vta_insn, m) }

/* Fill the field list of `opcode` for this configuration; returns the count,
 * or 0 for an unknown opcode. */
MRTQ__PRIV int mrtq__vta_fields(uint32_t opcode, const mrtq_vta_depths *d, mrtq__vta_field *f) {
  int n = 0;
  mrtq__vta_field head[5] = {MRTQ__VTA_F(3, opcode), MRTQ__VTA_F(1, pop_prev), MRTQ__VTA_F(1, pop_next),
                             MRTQ__VTA_F(1, push_prev), MRTQ__VTA_F(1, push_next)};
  for (n = 0; n < 5; n++) f[n] = head[n];
  if (opcode == MRTQ_VTA_LOAD || opcode == MRTQ_VTA_STORE) {
    mrtq__vta_field mem[11] = {MRTQ__VTA_F(3, memory_type), MRTQ__VTA_F(16, sram_base), MRTQ__VTA_F(32, dram_base),
                               MRTQ__VTA_F(16, y_size),     MRTQ__VTA_F(16, x_size),    MRTQ__VTA_F(16, x_stride),
                               MRTQ__VTA_F(4, y_pad_0),     MRTQ__VTA_F(4, y_pad_1),    MRTQ__VTA_F(4, x_pad_0),
                               MRTQ__VTA_F(4, x_pad_1),     MRTQ__VTA_F(0, opcode)};
    int i;
    for (i = 0; i < 10; i++) f[n++] = mem[i];
    return n;
  }
  if (opcode == MRTQ_VTA_GEMM || opcode == MRTQ_VTA_FINISH || opcode == MRTQ_VTA_ALU) {
    int alu = opcode == MRTQ_VTA_ALU, i;
    mrtq__vta_field loop[15] = {MRTQ__VTA_F(1, reset),
                                MRTQ__VTA_F(d->uop, uop_bgn),
                                MRTQ__VTA_F(d->uop + 1, uop_end),
                                MRTQ__VTA_F(14, iter_out),
                                MRTQ__VTA_F(14, iter_in),
                                MRTQ__VTA_F(d->acc, dst_factor_out),
                                MRTQ__VTA_F(d->acc, dst_factor_in),
                                MRTQ__VTA_F(alu ? d->acc : d->inp, src_factor_out),
                                MRTQ__VTA_F(alu ? d->acc : d->inp, src_factor_in),
                                MRTQ__VTA_F(d->wgt, wgt_factor_out),
                                MRTQ__VTA_F(d->wgt, wgt_factor_in),
                                MRTQ__VTA_F(3, alu_opcode),
                                MRTQ__VTA_F(1, use_imm),
                                MRTQ__VTA_F(16, imm),
                                MRTQ__VTA_F(0, opcode)};
    for (i = 0; i < 9; i++) f[n++] = loop[i];
    for (i = alu ? 11 : 9; i < (alu ? 14 : 11); i++) f[n++] = loop[i];
    return n;
  }
  return 0;
}

MRTQ_API mrtq_status mrtq_vta_encode(const mrtq_vta_config *cfg, const mrtq_vta_insn *in, mrtq_vta_word *out) {
  mrtq_vta_depths d;
  mrtq__vta_field f[24];
  int n, i, pos = 0;
  mrtq_vta_word w;
  mrtq_status st;
  if (!in) return MRTQ__ERR(MRTQ_EINVAL, "in: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if ((st = mrtq_vta_depths_of(cfg, &d)) != MRTQ_OK) return st;
  n = mrtq__vta_fields(in->opcode, &d, f);
  if (n == 0) return MRTQ__ERR(MRTQ_EINVAL, "in->opcode: must be 0 to 4 (LOAD, STORE, GEMM, FINISH, ALU)");
  if (in->opcode <= MRTQ_VTA_STORE) {
    if (in->reset || in->uop_bgn || in->uop_end || in->iter_out || in->iter_in || in->dst_factor_out ||
        in->dst_factor_in || in->src_factor_out || in->src_factor_in || in->wgt_factor_out || in->wgt_factor_in ||
        in->alu_opcode || in->use_imm || in->imm)
      return MRTQ__ERR(MRTQ_EINVAL, "in->reset .. in->imm: must be 0 for LOAD and STORE (memory form)");
  } else {
    if (in->memory_type || in->sram_base || in->dram_base || in->y_size || in->x_size || in->x_stride ||
        in->y_pad_0 || in->y_pad_1 || in->x_pad_0 || in->x_pad_1)
      return MRTQ__ERR(MRTQ_EINVAL, "in->memory_type .. in->x_pad_1: must be 0 for GEMM, FINISH and ALU (loop form)");
    if (in->opcode == MRTQ_VTA_ALU && (in->wgt_factor_out || in->wgt_factor_in))
      return MRTQ__ERR(MRTQ_EINVAL, "in->wgt_factor_out, in->wgt_factor_in: must be 0 for ALU");
    if (in->opcode != MRTQ_VTA_ALU && (in->alu_opcode || in->use_imm || in->imm))
      return MRTQ__ERR(MRTQ_EINVAL, "in->alu_opcode, in->use_imm, in->imm: must be 0 for GEMM and FINISH");
  }
  w.w[0] = w.w[1] = 0;
  for (i = 0; i < n; i++) {
    uint64_t v, mask = ((uint64_t)1 << f[i].width) - 1u;
    if ((pos % 64) + f[i].width > 64) pos = (pos / 64 + 1) * 64; /* no field crosses a word */
    if (pos + f[i].width > 128)
      return MRTQ__ERR(MRTQ_ERANGE, "cfg: the instruction's fields exceed 128 bits in this configuration");
    if (f[i].member == offsetof(mrtq_vta_insn, imm)) {
      if (in->imm < -32768 || in->imm > 32767) return MRTQ__ERR(MRTQ_ERANGE, "in->imm: must be in [-32768, 32767]");
      v = (uint64_t)(uint32_t)in->imm & mask;
    } else {
      uint32_t u;
      memcpy(&u, (const char *)in + f[i].member, sizeof u);
      if ((uint64_t)u > mask)
        return MRTQ__ERR(MRTQ_ERANGE, "in: a field value exceeds its bit width (hw_spec.h; loop fields per depths)");
      v = u;
    }
    w.w[pos / 64] |= v << (pos % 64);
    pos += f[i].width;
  }
  *out = w;
  return MRTQ_OK;
}

/* Decode with depths d, unreported: 0 ok, 1 opcode 5..7, 2 fields beyond
 * 128 bits, 3 a bit outside the form's fields. */
MRTQ__PRIV int mrtq__vta_unpack(const mrtq_vta_depths *d, const mrtq_vta_word *in, mrtq_vta_insn *out) {
  mrtq__vta_field f[24];
  int n, i, pos = 0;
  mrtq_vta_insn r;
  uint64_t used[2] = {0, 0};
  n = mrtq__vta_fields((uint32_t)(in->w[0] & 7u), d, f);
  if (n == 0) return 1;
  memset(&r, 0, sizeof r);
  for (i = 0; i < n; i++) {
    uint64_t v, mask = ((uint64_t)1 << f[i].width) - 1u;
    if ((pos % 64) + f[i].width > 64) pos = (pos / 64 + 1) * 64;
    if (pos + f[i].width > 128) return 2;
    v = (in->w[pos / 64] >> (pos % 64)) & mask;
    used[pos / 64] |= mask << (pos % 64);
    if (f[i].member == offsetof(mrtq_vta_insn, imm)) {
      r.imm = v >= 0x8000u ? (int32_t)v - 0x10000 : (int32_t)v; /* sign-extend 16 bits */
    } else {
      uint32_t u = (uint32_t)v;
      memcpy((char *)&r + f[i].member, &u, sizeof u);
    }
    pos += f[i].width;
  }
  if ((in->w[0] & ~used[0]) || (in->w[1] & ~used[1])) return 3;
  *out = r;
  return 0;
}

MRTQ_API mrtq_status mrtq_vta_decode(const mrtq_vta_config *cfg, const mrtq_vta_word *in, mrtq_vta_insn *out) {
  mrtq_vta_depths d;
  mrtq_vta_insn r;
  mrtq_status st;
  int e;
  if (!in) return MRTQ__ERR(MRTQ_EINVAL, "in: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if ((st = mrtq_vta_depths_of(cfg, &d)) != MRTQ_OK) return st;
  e = mrtq__vta_unpack(&d, in, &r);
  if (e == 1) return MRTQ__ERR(MRTQ_EINVAL, "in: opcode field 5..7 is no instruction");
  if (e == 2) return MRTQ__ERR(MRTQ_EINVAL, "cfg: the instruction's fields exceed 128 bits in this configuration");
  if (e == 3) return MRTQ__ERR(MRTQ_EINVAL, "in: a bit outside the fields of the opcode's form is set");
  *out = r;
  return MRTQ_OK;
}
MRTQ_API mrtq_status mrtq_vta_uop_encode(const mrtq_vta_config *cfg, const mrtq_vta_uop *u, uint32_t *out) {
  mrtq_vta_depths d;
  int sw;
  mrtq_status st;
  if (!u) return MRTQ__ERR(MRTQ_EINVAL, "u: NULL");
  if (!out) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL");
  if ((st = mrtq_vta_depths_of(cfg, &d)) != MRTQ_OK) return st;
  sw = d.acc > d.inp ? d.acc : d.inp;
  if (d.acc + sw + d.wgt > 32)
    return MRTQ__ERR(MRTQ_EINVAL, "cfg: a micro-op needs more than 32 bits (log2 ACC + max(ACC, INP) + WGT depths)");
  if ((uint64_t)u->dst >> d.acc) return MRTQ__ERR(MRTQ_ERANGE, "u->dst: must be below the ACC depth");
  if ((uint64_t)u->src >> sw)
    return MRTQ__ERR(MRTQ_ERANGE, "u->src: must be below the larger of the ACC and INP depths");
  if ((uint64_t)u->wgt >> d.wgt) return MRTQ__ERR(MRTQ_ERANGE, "u->wgt: must be below the WGT depth");
  *out = (uint32_t)((uint64_t)u->dst | ((uint64_t)u->src << d.acc) | ((uint64_t)u->wgt << (d.acc + sw)));
  return MRTQ_OK;
}
MRTQ_API mrtq_status mrtq_vta_uop_decode(const mrtq_vta_config *cfg, uint32_t in, mrtq_vta_uop *u) {
  mrtq_vta_depths d;
  int sw;
  mrtq_status st;
  if (!u) return MRTQ__ERR(MRTQ_EINVAL, "u: NULL");
  if ((st = mrtq_vta_depths_of(cfg, &d)) != MRTQ_OK) return st;
  sw = d.acc > d.inp ? d.acc : d.inp;
  if (d.acc + sw + d.wgt > 32)
    return MRTQ__ERR(MRTQ_EINVAL, "cfg: a micro-op needs more than 32 bits (log2 ACC + max(ACC, INP) + WGT depths)");
  if (d.acc + sw + d.wgt < 32 && (in >> (d.acc + sw + d.wgt)))
    return MRTQ__ERR(MRTQ_EINVAL, "in: a bit above the micro-op's dst, src and wgt fields is set");
  u->dst = in & (uint32_t)(((uint64_t)1 << d.acc) - 1u);
  u->src = (uint32_t)(((uint64_t)in >> d.acc) & (((uint64_t)1 << sw) - 1u));
  u->wgt = (uint32_t)(((uint64_t)in >> (d.acc + sw)) & (((uint64_t)1 << d.wgt) - 1u));
  return MRTQ_OK;
}

/* ---- disassembler (no stdio: a tiny appender) ---- */
typedef struct mrtq__vta_buf {
  char *p;
  size_t cap, len;
} mrtq__vta_buf;
MRTQ__PRIV void mrtq__vta_put(mrtq__vta_buf *b, const char *s) {
  for (; *s; s++) {
    size_t at = b->len++;
    if (at < b->cap && b->cap - at > 1) b->p[at] = *s; /* keep one byte for the NUL */
  }
}
MRTQ__PRIV void mrtq__vta_put_int(mrtq__vta_buf *b, int64_t v) {
  char t[24];
  int i = 23;
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  t[i] = 0;
  do {
    t[--i] = (char)('0' + (int)(u % 10u));
    u /= 10u;
  } while (u);
  if (v < 0) t[--i] = '-';
  mrtq__vta_put(b, t + i);
}
MRTQ__PRIV void mrtq__vta_put_kv(mrtq__vta_buf *b, const char *k, int64_t v) {
  mrtq__vta_put(b, " ");
  mrtq__vta_put(b, k);
  mrtq__vta_put(b, "=");
  mrtq__vta_put_int(b, v);
}

MRTQ_API size_t mrtq_vta_disasm(const mrtq_vta_insn *in, char *buf, size_t cap) {
  static const char *const ops[] = {"LOAD", "STORE", "GEMM", "FINISH", "ALU"};
  static const char *const alus[] = {"MIN", "MAX", "ADD", "SHR", "MUL", "ALU5", "ALU6", "ALU7"};
  static const char *const mems[] = {"UOP", "WGT", "INP", "ACC", "OUT", "ACC8", "MEM6", "MEM7"};
  mrtq__vta_buf b;
  b.p = buf;
  b.cap = buf ? cap : 0;
  b.len = 0;
  if (!in || in->opcode > 4) {
    mrtq__vta_put(&b, "INVALID");
  } else {
    mrtq__vta_put(&b, ops[in->opcode]);
    if (in->opcode <= MRTQ_VTA_STORE) {
      mrtq__vta_put(&b, " ");
      mrtq__vta_put(&b, mems[in->memory_type & 7u]);
      mrtq__vta_put_kv(&b, "sram", in->sram_base);
      mrtq__vta_put_kv(&b, "dram", in->dram_base);
      mrtq__vta_put_kv(&b, "y", in->y_size);
      mrtq__vta_put_kv(&b, "x", in->x_size);
      mrtq__vta_put_kv(&b, "stride", in->x_stride);
      mrtq__vta_put(&b, " pad=");
      mrtq__vta_put_int(&b, in->y_pad_0);
      mrtq__vta_put(&b, ",");
      mrtq__vta_put_int(&b, in->y_pad_1);
      mrtq__vta_put(&b, ",");
      mrtq__vta_put_int(&b, in->x_pad_0);
      mrtq__vta_put(&b, ",");
      mrtq__vta_put_int(&b, in->x_pad_1);
    } else {
      if (in->opcode == MRTQ_VTA_ALU) {
        mrtq__vta_put(&b, " ");
        mrtq__vta_put(&b, alus[in->alu_opcode & 7u]);
        if (in->use_imm) mrtq__vta_put_kv(&b, "imm", in->imm);
      }
      if (in->reset) mrtq__vta_put(&b, " reset");
      mrtq__vta_put(&b, " uop=[");
      mrtq__vta_put_int(&b, in->uop_bgn);
      mrtq__vta_put(&b, ",");
      mrtq__vta_put_int(&b, in->uop_end);
      mrtq__vta_put(&b, ") iter=");
      mrtq__vta_put_int(&b, in->iter_out);
      mrtq__vta_put(&b, "x");
      mrtq__vta_put_int(&b, in->iter_in);
      mrtq__vta_put(&b, " dst=");
      mrtq__vta_put_int(&b, in->dst_factor_out);
      mrtq__vta_put(&b, ",");
      mrtq__vta_put_int(&b, in->dst_factor_in);
      mrtq__vta_put(&b, " src=");
      mrtq__vta_put_int(&b, in->src_factor_out);
      mrtq__vta_put(&b, ",");
      mrtq__vta_put_int(&b, in->src_factor_in);
      if (in->opcode != MRTQ_VTA_ALU) {
        mrtq__vta_put(&b, " wgt=");
        mrtq__vta_put_int(&b, in->wgt_factor_out);
        mrtq__vta_put(&b, ",");
        mrtq__vta_put_int(&b, in->wgt_factor_in);
      }
    }
    if (in->pop_prev || in->pop_next || in->push_prev || in->push_next) {
      int first = 1;
      mrtq__vta_put(&b, " deps=");
      if (in->pop_prev) mrtq__vta_put(&b, "pop_prev"), first = 0;
      if (in->pop_next) mrtq__vta_put(&b, first ? "pop_next" : "|pop_next"), first = 0;
      if (in->push_prev) mrtq__vta_put(&b, first ? "push_prev" : "|push_prev"), first = 0;
      if (in->push_next) mrtq__vta_put(&b, first ? "push_next" : "|push_next");
    }
  }
  if (b.cap) b.p[b.len < b.cap ? b.len : b.cap - 1] = 0;
  return b.len;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_VTA_ISA_H */
