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

/* ==== functional simulator ====
 * Executes encoded instruction streams over a caller-provided DRAM and
 * caller-provided SRAMs (no allocation), with tvm-vta's functional simulator
 * semantics (src/sim/sim_driver.cc), made total:
 *  - LOAD (x_size 0: no-op): INP and WGT on the load module; UOP, ACC and
 *    ACC_8BIT (int8 DRAM bytes sign-extended into int32 lanes) on the compute
 *    module. Rows of x_size elements, x_stride apart in DRAM, land contiguously
 *    in SRAM from sram_base, surrounded by zero padding (x_pad_0/1 elements per
 *    row, y_pad_0/1 rows). DRAM addresses count elements of the memory type.
 *  - STORE (x_size 0: no-op; OUT only, no padding): ACC lanes truncated to 8
 *    bits (no saturation); SRAM side y * x_size + x, DRAM side y * x_stride + x.
 *  - GEMM: reset zeroes the addressed ACC entries; otherwise
 *    acc[b][o] += sum_i inp[b][i] * wgt[o][i], 32-bit wrapping.
 *  - ALU, per lane a = acc[dst], b = imm (sign-extended 16 bits) or acc[src]:
 *    MIN, MAX, ADD (wrapping), MUL (wrapping), SHR: b >= 0 ? floor(a / 2^b)
 *    : (a * 2^-b) mod 2^32; amounts of 32 or more keep that definition
 *    (0 or -1 right, 0 left) where upstream is undefined. On the HLS profile
 *    the amount is its low 5 bits read as signed (16..31 shift left).
 *  - FINISH counts.
 * Three modules (load, compute, store) run their instructions in order;
 * pop/push flags move tokens between neighbours (load <-> compute <->
 * store). A module waits while a token it pops is missing; if no module can
 * advance, the program would deadlock and the run stops with MRTQ_EINVAL.
 * Every SRAM and DRAM access is bounds-checked (MRTQ_ERANGE). The profile
 * restricts what executes: the Xilinx HLS and Chisel cores have no MUL
 * (MRTQ_EUNSUPPORTED). The failing instruction's index and a message are kept
 * in the simulator state. */

typedef enum mrtq_vta_profile {
  MRTQ_VTA_PROFILE_SIM = 0,    /* tvm-vta functional simulator: every ALU op */
  MRTQ_VTA_PROFILE_HLS = 1,    /* Xilinx HLS core: no MUL */
  MRTQ_VTA_PROFILE_CHISEL = 2, /* Chisel core: no MUL */
  MRTQ_VTA_PROFILE_OPENCL = 3  /* Intel OpenCL core: MUL */
} mrtq_vta_profile;

typedef struct mrtq_vta_sim {
  mrtq_vta_config cfg;
  mrtq_vta_depths d;
  mrtq_vta_profile profile;
  int batch, block_in, block_out;
  uint32_t *uop;   /* [2^d.uop] */
  int8_t *inp;     /* [2^d.inp][batch * block_in] */
  int8_t *wgt;     /* [2^d.wgt][block_out * block_in] */
  int32_t *acc;    /* [2^d.acc][batch * block_out] */
  uint8_t *dram;
  size_t dram_bytes;
  uint64_t finish_count, gemm_ops, alu_ops;           /* counters (uop executions) */
  uint64_t load_bytes[6], store_bytes;                /* per memory type */
  size_t error_insn;                                  /* index of the failing instruction */
  const char *error;                                  /* what went wrong, or "" */
} mrtq_vta_sim;

/* Bytes of scratch a simulator of this configuration needs (0 if the
 * configuration is invalid or not 8-bit inputs/weights/outputs with 32-bit
 * accumulators, the only widths the simulator models). */
MRTQ_API size_t mrtq_vta_sim_scratch_bytes(const mrtq_vta_config *cfg) {
  mrtq_vta_depths d;
  size_t b, bi, bo;
  if (mrtq_vta_depths_of(cfg, &d) != MRTQ_OK || cfg->log_inp_width != 3 || cfg->log_wgt_width != 3 ||
      cfg->log_out_width != 3 || cfg->log_acc_width != 5)
    return 0;
  b = (size_t)1 << cfg->log_batch, bi = (size_t)1 << cfg->log_block_in, bo = (size_t)1 << cfg->log_block_out;
  return ((size_t)4 << d.uop) + (b * bi << d.inp) + (bo * bi << d.wgt) + (4 * b * bo << d.acc);
}

/* Set up a simulator over caller memory: scratch of mrtq_vta_sim_scratch_bytes
 * bytes (any alignment; zeroed here) and a DRAM of dram_bytes bytes (kept as
 * is). Errors: NULL pointers, invalid or unsupported configuration, scratch
 * too small -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_vta_sim_init(mrtq_vta_sim *sim, const mrtq_vta_config *cfg, mrtq_vta_profile profile,
                                       void *scratch, size_t scratch_bytes, void *dram, size_t dram_bytes) {
  size_t need = mrtq_vta_sim_scratch_bytes(cfg);
  uint8_t *p = (uint8_t *)scratch;
  if (!sim || !scratch || (!dram && dram_bytes) || need == 0 || scratch_bytes < need || (int)profile < 0 ||
      (int)profile > 3)
    return MRTQ_EINVAL;
  memset(sim, 0, sizeof *sim);
  memset(scratch, 0, need);
  sim->cfg = *cfg;
  mrtq_vta_depths_of(cfg, &sim->d);
  sim->profile = profile;
  sim->batch = 1 << cfg->log_batch, sim->block_in = 1 << cfg->log_block_in, sim->block_out = 1 << cfg->log_block_out;
  /* int32 and uint32 arrays first, so their alignment follows the scratch's */
  sim->acc = (int32_t *)(void *)p;
  p += ((size_t)4 * (size_t)sim->batch * (size_t)sim->block_out) << sim->d.acc;
  sim->uop = (uint32_t *)(void *)p;
  p += (size_t)4 << sim->d.uop;
  sim->inp = (int8_t *)p;
  p += ((size_t)sim->batch * (size_t)sim->block_in) << sim->d.inp;
  sim->wgt = (int8_t *)p;
  sim->dram = (uint8_t *)dram;
  sim->dram_bytes = dram_bytes;
  sim->error = "";
  return MRTQ_OK;
}

/* Bytes of one element of a memory type, in DRAM. */
MRTQ_API size_t mrtq__vta_elem_bytes(const mrtq_vta_sim *s, uint32_t mem) {
  switch (mem) {
    case MRTQ_VTA_MEM_UOP: return 4;
    case MRTQ_VTA_MEM_WGT: return (size_t)s->block_out * (size_t)s->block_in;
    case MRTQ_VTA_MEM_INP: return (size_t)s->batch * (size_t)s->block_in;
    case MRTQ_VTA_MEM_ACC: return (size_t)4 * (size_t)s->batch * (size_t)s->block_out;
    default: return (size_t)s->batch * (size_t)s->block_out; /* OUT and ACC_8BIT: one byte per lane */
  }
}

MRTQ_API mrtq_status mrtq__vta_fail(mrtq_vta_sim *s, size_t at, mrtq_status st, const char *msg) {
  s->error_insn = at;
  s->error = msg;
  return st;
}

/* x >> y (y >= 0, floor) or x << -y (mod 2^32), total. The Xilinx HLS core
 * reads only the low 5 bits of the amount, as a signed number (0..15 right,
 * 16..31 left by 32 - n): hls != 0 models that. */
MRTQ_API int32_t mrtq__vta_shr(int32_t x, int32_t y, int hls) {
  if (hls) {
    int32_t n = (int32_t)((uint32_t)y & 31u);
    y = n < 16 ? n : n - 32;
  }
  if (y >= 0) return mrtq__asr32(x, y > 31 ? 31 : y);
  if (y <= -32) return 0;
  return mrtq__wrap32((uint32_t)x << -y);
}

MRTQ_API mrtq_status mrtq__vta_load(mrtq_vta_sim *s, const mrtq_vta_insn *op, size_t at) {
  size_t eb = mrtq__vta_elem_bytes(s, op->memory_type), lanes, depth, y, x, k;
  uint64_t xt = (uint64_t)op->x_size + op->x_pad_0 + op->x_pad_1, yt = (uint64_t)op->y_size + op->y_pad_0 + op->y_pad_1;
  uint64_t sram = op->sram_base, last;
  if (op->x_size == 0) return MRTQ_OK;
  switch (op->memory_type) {
    case MRTQ_VTA_MEM_UOP: depth = (size_t)1 << s->d.uop, lanes = 1; break;
    case MRTQ_VTA_MEM_INP: depth = (size_t)1 << s->d.inp, lanes = eb; break;
    case MRTQ_VTA_MEM_WGT: depth = (size_t)1 << s->d.wgt, lanes = eb; break;
    case MRTQ_VTA_MEM_ACC: case MRTQ_VTA_MEM_ACC_8BIT: depth = (size_t)1 << s->d.acc, lanes = (size_t)s->batch * (size_t)s->block_out; break;
    default: return mrtq__vta_fail(s, at, MRTQ_EINVAL, "LOAD: memory type cannot be loaded");
  }
  if (sram + xt * yt > depth) return mrtq__vta_fail(s, at, MRTQ_ERANGE, "LOAD: SRAM overflow");
  if (op->y_size) {
    last = ((uint64_t)op->dram_base + (uint64_t)(op->y_size - 1) * op->x_stride + op->x_size) * eb;
    if (last > s->dram_bytes) return mrtq__vta_fail(s, at, MRTQ_ERANGE, "LOAD: DRAM read out of bounds");
  }
  s->load_bytes[op->memory_type] += (uint64_t)op->x_size * op->y_size * eb;
  for (y = 0; y < yt; y++)
    for (x = 0; x < xt; x++) {
      size_t e = (size_t)(sram + y * xt + x);
      int pad = y < op->y_pad_0 || y >= op->y_pad_0 + op->y_size || x < op->x_pad_0 || x >= op->x_pad_0 + op->x_size;
      const uint8_t *src = pad ? NULL
                               : s->dram + ((size_t)op->dram_base + (y - op->y_pad_0) * (size_t)op->x_stride +
                                            (x - op->x_pad_0)) * eb;
      switch (op->memory_type) {
        case MRTQ_VTA_MEM_UOP:
          if (pad) s->uop[e] = 0; else memcpy(&s->uop[e], src, 4);
          break;
        case MRTQ_VTA_MEM_INP:
          if (pad) memset(s->inp + e * lanes, 0, lanes); else memcpy(s->inp + e * lanes, src, lanes);
          break;
        case MRTQ_VTA_MEM_WGT:
          if (pad) memset(s->wgt + e * lanes, 0, lanes); else memcpy(s->wgt + e * lanes, src, lanes);
          break;
        case MRTQ_VTA_MEM_ACC:
          if (pad) memset(s->acc + e * lanes, 0, lanes * 4); else memcpy(s->acc + e * lanes, src, lanes * 4);
          break;
        default: /* ACC_8BIT */
          for (k = 0; k < lanes; k++) s->acc[e * lanes + k] = pad ? 0 : (int32_t)(int8_t)src[k];
          break;
      }
    }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq__vta_store(mrtq_vta_sim *s, const mrtq_vta_insn *op, size_t at) {
  size_t lanes = (size_t)s->batch * (size_t)s->block_out, y, x, k;
  uint64_t last;
  if (op->x_size == 0) return MRTQ_OK;
  if (op->memory_type != MRTQ_VTA_MEM_OUT) return mrtq__vta_fail(s, at, MRTQ_EINVAL, "STORE: memory type must be OUT");
  if (op->x_pad_0 || op->x_pad_1 || op->y_pad_0 || op->y_pad_1)
    return mrtq__vta_fail(s, at, MRTQ_EINVAL, "STORE: padding is not allowed");
  if ((uint64_t)op->sram_base + (uint64_t)op->x_size * op->y_size > ((uint64_t)1 << s->d.acc))
    return mrtq__vta_fail(s, at, MRTQ_ERANGE, "STORE: SRAM read out of bounds");
  if (op->y_size) {
    last = ((uint64_t)op->dram_base + (uint64_t)(op->y_size - 1) * op->x_stride + op->x_size) * lanes;
    if (last > s->dram_bytes) return mrtq__vta_fail(s, at, MRTQ_ERANGE, "STORE: DRAM write out of bounds");
  }
  s->store_bytes += (uint64_t)op->x_size * op->y_size * lanes;
  for (y = 0; y < op->y_size; y++)
    for (x = 0; x < op->x_size; x++) {
      const int32_t *src = s->acc + ((size_t)op->sram_base + y * (size_t)op->x_size + x) * lanes;
      uint8_t *dst = s->dram + ((size_t)op->dram_base + y * (size_t)op->x_stride + x) * lanes;
      for (k = 0; k < lanes; k++) dst[k] = (uint8_t)((uint32_t)src[k] & 0xffu); /* truncation */
    }
  return MRTQ_OK;
}

/* GEMM and ALU: the micro-op loop nest. */
MRTQ_API mrtq_status mrtq__vta_compute(mrtq_vta_sim *s, const mrtq_vta_insn *op, size_t at) {
  const uint64_t acc_depth = (uint64_t)1 << s->d.acc, inp_depth = (uint64_t)1 << s->d.inp,
                 wgt_depth = (uint64_t)1 << s->d.wgt, uop_depth = (uint64_t)1 << s->d.uop;
  const size_t lanes = (size_t)s->batch * (size_t)s->block_out;
  int alu = op->opcode == MRTQ_VTA_ALU;
  uint32_t yo, xi, k;
  if (op->uop_end > uop_depth || op->uop_bgn > op->uop_end)
    return mrtq__vta_fail(s, at, MRTQ_ERANGE, "micro-op range outside the UOP SRAM");
  if (alu && op->alu_opcode > MRTQ_VTA_ALU_MUL) return mrtq__vta_fail(s, at, MRTQ_EINVAL, "ALU: unknown opcode");
  if (alu && op->alu_opcode == MRTQ_VTA_ALU_MUL &&
      (s->profile == MRTQ_VTA_PROFILE_HLS || s->profile == MRTQ_VTA_PROFILE_CHISEL))
    return mrtq__vta_fail(s, at, MRTQ_EUNSUPPORTED, "ALU MUL: this target has no multiplier");
  for (yo = 0; yo < op->iter_out; yo++)
    for (xi = 0; xi < op->iter_in; xi++)
      for (k = op->uop_bgn; k < op->uop_end; k++) {
        mrtq_vta_uop u = {0, 0, 0};
        uint64_t dst, src, wgt;
        mrtq_vta_uop_decode(&s->cfg, s->uop[k], &u);
        dst = u.dst + (uint64_t)yo * op->dst_factor_out + (uint64_t)xi * op->dst_factor_in;
        src = u.src + (uint64_t)yo * op->src_factor_out + (uint64_t)xi * op->src_factor_in;
        wgt = u.wgt + (uint64_t)yo * op->wgt_factor_out + (uint64_t)xi * op->wgt_factor_in;
        if (dst >= acc_depth) return mrtq__vta_fail(s, at, MRTQ_ERANGE, "ACC index out of bounds");
        if (alu) {
          int32_t *a = s->acc + dst * lanes;
          const int32_t *b = s->acc + src * lanes;
          size_t l;
          if (!op->use_imm && src >= acc_depth) return mrtq__vta_fail(s, at, MRTQ_ERANGE, "ACC source out of bounds");
          s->alu_ops++;
          for (l = 0; l < lanes; l++) {
            int32_t x = a[l], y = op->use_imm ? op->imm : b[l];
            switch (op->alu_opcode) {
              case MRTQ_VTA_ALU_MIN: a[l] = x < y ? x : y; break;
              case MRTQ_VTA_ALU_MAX: a[l] = x > y ? x : y; break;
              case MRTQ_VTA_ALU_ADD: a[l] = mrtq__wrap32((uint32_t)x + (uint32_t)y); break;
              case MRTQ_VTA_ALU_SHR: a[l] = mrtq__vta_shr(x, y, s->profile == MRTQ_VTA_PROFILE_HLS); break;
              default: a[l] = mrtq__wrap32((uint32_t)x * (uint32_t)y); break;
            }
          }
        } else if (op->reset) {
          memset(s->acc + dst * lanes, 0, lanes * 4);
        } else {
          int bb, o, i;
          if (src >= inp_depth) return mrtq__vta_fail(s, at, MRTQ_ERANGE, "INP index out of bounds");
          if (wgt >= wgt_depth) return mrtq__vta_fail(s, at, MRTQ_ERANGE, "WGT index out of bounds");
          s->gemm_ops++;
          for (bb = 0; bb < s->batch; bb++)
            for (o = 0; o < s->block_out; o++) {
              int32_t *a = s->acc + dst * lanes + (size_t)bb * (size_t)s->block_out + (size_t)o;
              const int8_t *in = s->inp + (src * (uint64_t)s->batch + (uint64_t)bb) * (uint64_t)s->block_in;
              const int8_t *w = s->wgt + (wgt * (uint64_t)s->block_out + (uint64_t)o) * (uint64_t)s->block_in;
              uint32_t sum = (uint32_t)*a;
              for (i = 0; i < s->block_in; i++) sum += (uint32_t)((int32_t)in[i] * (int32_t)w[i]);
              *a = mrtq__wrap32(sum);
            }
        }
      }
  return MRTQ_OK;
}

/* Which module runs an instruction: 0 load, 1 compute, 2 store. */
MRTQ_API int mrtq__vta_module(const mrtq_vta_insn *in) {
  if (in->opcode == MRTQ_VTA_STORE) return 2;
  if (in->opcode == MRTQ_VTA_LOAD && (in->memory_type == MRTQ_VTA_MEM_INP || in->memory_type == MRTQ_VTA_MEM_WGT))
    return 0;
  return 1;
}

/* Run n encoded instructions to completion (see the semantics above). On
 * error the state is left as the failing instruction found it, sim->error
 * says why and sim->error_insn where. */
MRTQ_API mrtq_status mrtq_vta_sim_run(mrtq_vta_sim *s, const mrtq_vta_word *prog, size_t n) {
  size_t next[3] = {0, 0, 0}, done = 0, i;
  uint64_t tok[4] = {0, 0, 0, 0}; /* l2c, c2l, c2s, s2c */
  if (!s || (!prog && n)) return MRTQ_EINVAL;
  s->error = "";
  for (i = 0; i < n; i++) { /* decode everything first: a malformed stream runs nothing */
    mrtq_vta_insn in;
    memset(&in, 0, sizeof in);
    if (mrtq_vta_decode(&s->cfg, &prog[i], &in) != MRTQ_OK) return mrtq__vta_fail(s, i, MRTQ_EINVAL, "undecodable instruction");
    if (mrtq__vta_module(&in) == 0 && (in.pop_prev || in.push_prev))
      return mrtq__vta_fail(s, i, MRTQ_EINVAL, "load module has no previous stage");
    if (mrtq__vta_module(&in) == 2 && (in.pop_next || in.push_next))
      return mrtq__vta_fail(s, i, MRTQ_EINVAL, "store module has no next stage");
  }
  while (done < n) {
    int m, progressed = 0;
    for (m = 0; m < 3; m++) {
      for (; next[m] < n; next[m]++) { /* advance this module as far as its tokens allow */
        mrtq_vta_insn in;
        uint64_t *pp, *pn;
        mrtq_status st;
        memset(&in, 0, sizeof in);
        mrtq_vta_decode(&s->cfg, &prog[next[m]], &in);
        if (mrtq__vta_module(&in) != m) continue;
        pp = m == 1 ? &tok[0] : m == 2 ? &tok[2] : NULL; /* tokens this module pops from prev */
        pn = m == 0 ? &tok[1] : m == 1 ? &tok[3] : NULL; /* ... and from next */
        if ((in.pop_prev && !*pp) || (in.pop_next && !*pn)) break;
        if (in.pop_prev) --*pp;
        if (in.pop_next) --*pn;
        switch (in.opcode) {
          case MRTQ_VTA_LOAD: st = mrtq__vta_load(s, &in, next[m]); break;
          case MRTQ_VTA_STORE: st = mrtq__vta_store(s, &in, next[m]); break;
          case MRTQ_VTA_FINISH: s->finish_count++, st = MRTQ_OK; break;
          default: st = mrtq__vta_compute(s, &in, next[m]); break;
        }
        if (st != MRTQ_OK) return st;
        if (in.push_prev) tok[m == 1 ? 1 : 3]++; /* compute -> load, store -> compute */
        if (in.push_next) tok[m == 0 ? 0 : 2]++; /* load -> compute, compute -> store */
        done++;
        progressed = 1;
      }
    }
    if (!progressed) {
      size_t first = n;
      for (m = 0; m < 3; m++)
        if (next[m] < first) first = next[m];
      return mrtq__vta_fail(s, first, MRTQ_EINVAL, "deadlock: a module waits for a token that is never pushed");
    }
  }
  return MRTQ_OK;
}

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_VTA_H */
