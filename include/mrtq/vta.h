/* mrtq/vta.h -- the VTA accelerator backend (optional: mrtq.h does not
 * include it; it adds no dependency). This part: the hardware configuration
 * and the instruction set -- encoding and decoding of the 128-bit
 * instructions and 32-bit micro-ops, bit-exact with apache/tvm-vta's layout
 * (include/vta/hw_spec.h), and a disassembler. The requant programs, the
 * functional simulator and the drivers build on it (docs/vta.md).
 *
 * Layout rule (tvm-vta declares the instructions as C bitfields on two
 * uint64_t words): fields are packed from bit 0 upward in declaration order,
 * and a field that would cross a 64-bit boundary starts at the next word
 * instead. So LOAD/STORE leave bits 58..63 unused and GEMM/ALU bit 63 (with
 * the default configuration). Field widths follow the configuration. */
#ifndef MRTQ_VTA_H
#define MRTQ_VTA_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The hardware parameters that shape the ISA (tvm-vta's vta_config.json). */
typedef struct mrtq_vta_config {
  int log_inp_width, log_wgt_width, log_acc_width, log_out_width; /* data widths: 2^k bits */
  int log_batch, log_block_in, log_block_out;                     /* GEMM shape */
  int log_uop_buff_size, log_inp_buff_size, log_wgt_buff_size, log_acc_buff_size; /* SRAM sizes, bytes */
} mrtq_vta_config;

/* tvm-vta's default: int8 inputs/weights/outputs, int32 accumulators, BATCH 1,
 * BLOCK_IN = BLOCK_OUT = 16, SRAM depths UOP 8192, INP 2048, WGT 1024, ACC 2048. */
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

/* log2 of the SRAM depths (entries), as tvm-vta derives them. */
typedef struct mrtq_vta_depths {
  int uop, inp, wgt, acc;
} mrtq_vta_depths;

/* Depths of a configuration; MRTQ_EINVAL for NULL or a configuration whose
 * parameters are negative, give a depth below 1 entry or above 2^16. */
MRTQ_API mrtq_status mrtq_vta_depths_of(const mrtq_vta_config *c, mrtq_vta_depths *d) {
  if (!c || !d) return MRTQ_EINVAL;
  if (c->log_inp_width < 0 || c->log_wgt_width < 0 || c->log_acc_width < 0 || c->log_out_width < 0 ||
      c->log_batch < 0 || c->log_block_in < 0 || c->log_block_out < 0 || c->log_inp_width > 5 ||
      c->log_wgt_width > 5 || c->log_acc_width > 5 || c->log_out_width > 5 || c->log_batch > 8 ||
      c->log_block_in > 8 || c->log_block_out > 8)
    return MRTQ_EINVAL;
  d->uop = c->log_uop_buff_size - 5 + 3; /* 32-bit micro-ops */
  d->inp = c->log_inp_buff_size - c->log_batch - c->log_block_in - c->log_inp_width + 3;
  d->wgt = c->log_wgt_buff_size - c->log_block_out - c->log_block_in - c->log_wgt_width + 3;
  d->acc = c->log_acc_buff_size - c->log_batch - c->log_block_out - c->log_acc_width + 3;
  if (d->uop < 0 || d->inp < 0 || d->wgt < 0 || d->acc < 0 || d->uop > 16 || d->inp > 16 || d->wgt > 16 ||
      d->acc > 16)
    return MRTQ_EINVAL;
  return MRTQ_OK;
}

enum { MRTQ_VTA_LOAD = 0, MRTQ_VTA_STORE = 1, MRTQ_VTA_GEMM = 2, MRTQ_VTA_FINISH = 3, MRTQ_VTA_ALU = 4 };
enum { MRTQ_VTA_ALU_MIN = 0, MRTQ_VTA_ALU_MAX = 1, MRTQ_VTA_ALU_ADD = 2, MRTQ_VTA_ALU_SHR = 3, MRTQ_VTA_ALU_MUL = 4 };
enum { MRTQ_VTA_MEM_UOP = 0, MRTQ_VTA_MEM_WGT = 1, MRTQ_VTA_MEM_INP = 2, MRTQ_VTA_MEM_ACC = 3, MRTQ_VTA_MEM_OUT = 4,
       MRTQ_VTA_MEM_ACC_8BIT = 5 };

/* One instruction, decoded. LOAD/STORE use the memory fields; GEMM, ALU and
 * FINISH (encoded in the GEMM form) the micro-op loop fields; ALU also
 * alu_opcode, use_imm and imm (signed 16 bits). Unused fields are ignored by
 * the encoder and set to 0 by the decoder. */
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

/* The field list of an instruction form: widths in declaration order and the
 * offsets of the insn members they map to (imm last, sign-extended). */
typedef struct mrtq__vta_field {
  int width;
  size_t member;
} mrtq__vta_field;

#define MRTQ__VTA_F(w, m) { (w), offsetof(mrtq_vta_insn, m) }

/* Fill the field list of `opcode` for this configuration; returns the count,
 * or 0 for an unknown opcode. */
MRTQ_API int mrtq__vta_fields(uint32_t opcode, const mrtq_vta_depths *d, mrtq__vta_field *f) {
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

/* Encode an instruction. Errors: NULL or invalid configuration, opcode > 4
 * -> MRTQ_EINVAL; a field value that does not fit its width (imm outside
 * [-32768, 32767]) or a configuration whose fields exceed 128 bits ->
 * MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_vta_encode(const mrtq_vta_config *cfg, const mrtq_vta_insn *in, mrtq_vta_word *out) {
  mrtq_vta_depths d;
  mrtq__vta_field f[24];
  int n, i, pos = 0;
  mrtq_vta_word w;
  if (!in || !out || mrtq_vta_depths_of(cfg, &d) != MRTQ_OK) return MRTQ_EINVAL;
  n = mrtq__vta_fields(in->opcode, &d, f);
  if (n == 0) return MRTQ_EINVAL;
  w.w[0] = w.w[1] = 0;
  for (i = 0; i < n; i++) {
    uint64_t v, mask = ((uint64_t)1 << f[i].width) - 1u;
    if ((pos % 64) + f[i].width > 64) pos = (pos / 64 + 1) * 64; /* no field crosses a word */
    if (pos + f[i].width > 128) return MRTQ_ERANGE;
    if (f[i].member == offsetof(mrtq_vta_insn, imm)) {
      if (in->imm < -32768 || in->imm > 32767) return MRTQ_ERANGE;
      v = (uint64_t)(uint32_t)in->imm & mask;
    } else {
      uint32_t u;
      memcpy(&u, (const char *)in + f[i].member, sizeof u);
      if ((uint64_t)u > mask) return MRTQ_ERANGE;
      v = u;
    }
    w.w[pos / 64] |= v << (pos % 64);
    pos += f[i].width;
  }
  *out = w;
  return MRTQ_OK;
}

/* Decode 128 bits. Errors: NULL or invalid configuration, an opcode field of
 * 5..7 -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_vta_decode(const mrtq_vta_config *cfg, const mrtq_vta_word *in, mrtq_vta_insn *out) {
  mrtq_vta_depths d;
  mrtq__vta_field f[24];
  int n, i, pos = 0;
  mrtq_vta_insn r;
  if (!in || !out || mrtq_vta_depths_of(cfg, &d) != MRTQ_OK) return MRTQ_EINVAL;
  n = mrtq__vta_fields((uint32_t)(in->w[0] & 7u), &d, f);
  if (n == 0) return MRTQ_EINVAL;
  memset(&r, 0, sizeof r);
  for (i = 0; i < n; i++) {
    uint64_t v, mask = ((uint64_t)1 << f[i].width) - 1u;
    if ((pos % 64) + f[i].width > 64) pos = (pos / 64 + 1) * 64;
    if (pos + f[i].width > 128) return MRTQ_EINVAL;
    v = (in->w[pos / 64] >> (pos % 64)) & mask;
    if (f[i].member == offsetof(mrtq_vta_insn, imm)) {
      r.imm = v >= 0x8000u ? (int32_t)v - 0x10000 : (int32_t)v; /* sign-extend 16 bits */
    } else {
      uint32_t u = (uint32_t)v;
      memcpy((char *)&r + f[i].member, &u, sizeof u);
    }
    pos += f[i].width;
  }
  *out = r;
  return MRTQ_OK;
}

/* A micro-op: dst (ACC index), src (INP index for GEMM, ACC index for ALU), wgt. */
typedef struct mrtq_vta_uop {
  uint32_t dst, src, wgt;
} mrtq_vta_uop;

/* 32-bit micro-op: dst in bits [0, A), src in [A, 2A), wgt in [2A, 2A + W),
 * A = log2 ACC depth, W = log2 WGT depth (11, 11, 10 by default). Errors:
 * NULL/invalid configuration or 2A + W > 32 -> MRTQ_EINVAL; an index that does
 * not fit -> MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_vta_uop_encode(const mrtq_vta_config *cfg, const mrtq_vta_uop *u, uint32_t *out) {
  mrtq_vta_depths d;
  if (!u || !out || mrtq_vta_depths_of(cfg, &d) != MRTQ_OK || 2 * d.acc + d.wgt > 32) return MRTQ_EINVAL;
  if ((uint64_t)u->dst >> d.acc || (uint64_t)u->src >> d.acc || (uint64_t)u->wgt >> d.wgt) return MRTQ_ERANGE;
  *out = (uint32_t)((uint64_t)u->dst | ((uint64_t)u->src << d.acc) | ((uint64_t)u->wgt << (2 * d.acc)));
  return MRTQ_OK;
}
MRTQ_API mrtq_status mrtq_vta_uop_decode(const mrtq_vta_config *cfg, uint32_t in, mrtq_vta_uop *u) {
  mrtq_vta_depths d;
  if (!u || mrtq_vta_depths_of(cfg, &d) != MRTQ_OK || 2 * d.acc + d.wgt > 32) return MRTQ_EINVAL;
  u->dst = in & (uint32_t)(((uint64_t)1 << d.acc) - 1u);
  u->src = (in >> d.acc) & (uint32_t)(((uint64_t)1 << d.acc) - 1u);
  u->wgt = (uint32_t)(((uint64_t)in >> (2 * d.acc)) & (((uint64_t)1 << d.wgt) - 1u));
  return MRTQ_OK;
}

/* ---- disassembler (no stdio: a tiny appender) ---- */
typedef struct mrtq__buf {
  char *p;
  size_t cap, len;
} mrtq__buf;
MRTQ_API void mrtq__put(mrtq__buf *b, const char *s) {
  for (; *s; s++, b->len++)
    if (b->len + 1 < b->cap) b->p[b->len] = *s;
}
MRTQ_API void mrtq__put_int(mrtq__buf *b, int64_t v) {
  char t[24];
  int i = 23;
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  t[i] = 0;
  do {
    t[--i] = (char)('0' + (int)(u % 10u));
    u /= 10u;
  } while (u);
  if (v < 0) t[--i] = '-';
  mrtq__put(b, t + i);
}
MRTQ_API void mrtq__put_kv(mrtq__buf *b, const char *k, int64_t v) {
  mrtq__put(b, " ");
  mrtq__put(b, k);
  mrtq__put(b, "=");
  mrtq__put_int(b, v);
}

/* One line of text for an instruction, e.g.
 *   "ALU ADD imm=-3 uop=[0,1) iter=4x8 dst=16,1 src=0,0 deps=pop_prev"
 * Writes at most cap bytes (NUL-terminated when cap > 0) and returns the full
 * length, like snprintf. */
MRTQ_API size_t mrtq_vta_disasm(const mrtq_vta_insn *in, char *buf, size_t cap) {
  static const char *const ops[] = {"LOAD", "STORE", "GEMM", "FINISH", "ALU"};
  static const char *const alus[] = {"MIN", "MAX", "ADD", "SHR", "MUL", "ALU5", "ALU6", "ALU7"};
  static const char *const mems[] = {"UOP", "WGT", "INP", "ACC", "OUT", "ACC8", "MEM6", "MEM7"};
  mrtq__buf b;
  b.p = buf;
  b.cap = buf ? cap : 0;
  b.len = 0;
  if (!in || in->opcode > 4) {
    mrtq__put(&b, "INVALID");
  } else {
    mrtq__put(&b, ops[in->opcode]);
    if (in->opcode <= MRTQ_VTA_STORE) {
      mrtq__put(&b, " ");
      mrtq__put(&b, mems[in->memory_type & 7u]);
      mrtq__put_kv(&b, "sram", in->sram_base);
      mrtq__put_kv(&b, "dram", in->dram_base);
      mrtq__put_kv(&b, "y", in->y_size);
      mrtq__put_kv(&b, "x", in->x_size);
      mrtq__put_kv(&b, "stride", in->x_stride);
      mrtq__put(&b, " pad=");
      mrtq__put_int(&b, in->y_pad_0);
      mrtq__put(&b, ",");
      mrtq__put_int(&b, in->y_pad_1);
      mrtq__put(&b, ",");
      mrtq__put_int(&b, in->x_pad_0);
      mrtq__put(&b, ",");
      mrtq__put_int(&b, in->x_pad_1);
    } else {
      if (in->opcode == MRTQ_VTA_ALU) {
        mrtq__put(&b, " ");
        mrtq__put(&b, alus[in->alu_opcode & 7u]);
        if (in->use_imm) mrtq__put_kv(&b, "imm", in->imm);
      }
      if (in->reset) mrtq__put(&b, " reset");
      mrtq__put(&b, " uop=[");
      mrtq__put_int(&b, in->uop_bgn);
      mrtq__put(&b, ",");
      mrtq__put_int(&b, in->uop_end);
      mrtq__put(&b, ") iter=");
      mrtq__put_int(&b, in->iter_out);
      mrtq__put(&b, "x");
      mrtq__put_int(&b, in->iter_in);
      mrtq__put(&b, " dst=");
      mrtq__put_int(&b, in->dst_factor_out);
      mrtq__put(&b, ",");
      mrtq__put_int(&b, in->dst_factor_in);
      mrtq__put(&b, " src=");
      mrtq__put_int(&b, in->src_factor_out);
      mrtq__put(&b, ",");
      mrtq__put_int(&b, in->src_factor_in);
      if (in->opcode != MRTQ_VTA_ALU) {
        mrtq__put(&b, " wgt=");
        mrtq__put_int(&b, in->wgt_factor_out);
        mrtq__put(&b, ",");
        mrtq__put_int(&b, in->wgt_factor_in);
      }
    }
    if (in->pop_prev || in->pop_next || in->push_prev || in->push_next) {
      int first = 1;
      mrtq__put(&b, " deps=");
      if (in->pop_prev) mrtq__put(&b, "pop_prev"), first = 0;
      if (in->pop_next) mrtq__put(&b, first ? "pop_next" : "|pop_next"), first = 0;
      if (in->push_prev) mrtq__put(&b, first ? "push_prev" : "|push_prev"), first = 0;
      if (in->push_next) mrtq__put(&b, first ? "push_next" : "|push_next");
    }
  }
  if (b.cap) b.p[b.len < b.cap ? b.len : b.cap - 1] = 0;
  return b.len;
}

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_VTA_H */
