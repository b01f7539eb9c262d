/* mrtq/vta/sim.h -- the functional simulator (tvm-vta's src/sim/sim_driver.cc semantics, made total) with
 * target profiles and an optional work budget.
 * Part of the VTA backend: include "mrtq/vta.h" (the umbrella, which says what
 * the family holds and the rules every part follows); this header includes
 * only the parts below it. */
#ifndef MRTQ_VTA_SIM_H
#define MRTQ_VTA_SIM_H

#include "isa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* ---- 2. functional simulator ----
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
 *  - FINISH counts (sim->finish_count); the run goes on to the end of the
 *    stream either way. On the device only a FINISH executed by the compute
 *    module ends a run (tvm-vta's runtime polls for it, then times out), so a
 *    program for hardware ends with exactly one (docs/vta.md, Termination).
 * Three modules (load, compute, store) run their instructions in order;
 * pop/push flags move tokens between neighbours (load <-> compute <->
 * store). A module waits while a token it pops is missing; if no module can
 * advance, the program would deadlock and the run stops with MRTQ_EINVAL.
 * Which module moves when several can is sim->schedule: 0, each module as
 * far as its tokens allow, in turn (load, compute, store); 1, one
 * instruction at a time, always the load module first if it can (loads run
 * as early as the tokens allow: a LOAD that reads DRAM before the STORE that
 * writes it is not ordered by a token shows up as wrong data); 2, likewise
 * the store module first (STOREs run as early as allowed). A program whose
 * tokens order every DRAM and SRAM dependency gives the same bytes under
 * all three.
 * Every SRAM and DRAM access is bounds-checked (MRTQ_ERANGE). The profile
 * restricts what executes: the Xilinx HLS and Chisel cores have no MUL
 * (MRTQ_EUNSUPPORTED). */

typedef enum mrtq_vta_profile {
  MRTQ_VTA_PROFILE_SIM = 0,    /* tvm-vta functional simulator: every ALU op */
  MRTQ_VTA_PROFILE_HLS = 1,    /* Xilinx HLS core: no MUL */
  MRTQ_VTA_PROFILE_CHISEL = 2, /* Chisel core: no MUL */
  MRTQ_VTA_PROFILE_OPENCL = 3  /* Intel OpenCL core: MUL */
} mrtq_vta_profile;

/* A simulator. mrtq_vta_sim_init sets every field; the caller reads the
 * counters and the error fields and may read and write dram[0, dram_bytes). */
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
  const char *error;                                  /* the reason of the last failed run, or "" */
  uint64_t budget; /* 0 (mrtq_vta_sim_init's): no limit; else the most work one run may do (see sim_run) */
  int schedule;    /* 0 (mrtq_vta_sim_init's): round robin; 1: loads first, 2: stores first (see sim_run) */
} mrtq_vta_sim;

/* Bytes of scratch a simulator of this configuration needs (3 of them to
 * align its 32-bit SRAMs, so any scratch address works); 0 if cfg is NULL
 * or invalid, or not 8-bit inputs/weights/outputs with 32-bit accumulators
 * (the only widths the simulator models). */
MRTQ_API size_t mrtq_vta_sim_scratch_bytes(const mrtq_vta_config *cfg);

/* Set up *sim over caller memory: scratch of mrtq_vta_sim_scratch_bytes(cfg)
 * bytes (any alignment; zeroed here) and a DRAM of dram_bytes bytes (kept as
 * is; NULL only with dram_bytes 0). Errors: sim, cfg or scratch NULL, dram
 * NULL with dram_bytes > 0, an invalid configuration, profile outside the
 * enum, scratch too small -> MRTQ_EINVAL; data widths the simulator does not
 * model -> MRTQ_EUNSUPPORTED. */
MRTQ_API mrtq_status mrtq_vta_sim_init(const mrtq_vta_config *cfg, mrtq_vta_profile profile, void *scratch,
                                       size_t scratch_bytes, void *dram, size_t dram_bytes, mrtq_vta_sim *sim);

/* Run n encoded instructions to completion (the semantics above). Every word
 * is decoded first: a malformed stream runs nothing. On error the state is
 * left as the failing instruction found it, sim->error holds the reason
 * (also reported) and sim->error_insn the instruction's index.
 * Errors: sim NULL, prog NULL with n > 0 -> MRTQ_EINVAL; an undecodable word,
 * a dependency flag naming a stage the module does not have, a deadlock, a
 * memory type the instruction cannot use, STORE padding, an ALU opcode above
 * MUL, an undecodable micro-op -> MRTQ_EINVAL; an SRAM or DRAM access out of
 * bounds -> MRTQ_ERANGE; MUL on HLS / CHISEL -> MRTQ_EUNSUPPORTED; an
 * instruction that would take the run's work past sim->budget ->
 * MRTQ_ERANGE, before it runs. Work: one unit per micro-op execution of a
 * GEMM or ALU instruction (iter_out * iter_in * (uop_end - uop_bgn)) and per
 * element a LOAD or STORE moves (padding included); one valid GEMM can ask
 * for 2^14 * 2^14 * (the UOP depth) units (2^41 by default), so a caller
 * running untrusted programs sets a budget. */
MRTQ_API mrtq_status mrtq_vta_sim_run(const mrtq_vta_word *prog, size_t n, mrtq_vta_sim *sim);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

/* The configuration's depths, where the simulator models it (no report). */
MRTQ__PRIV int mrtq__vta_sim_cfg_ok(const mrtq_vta_config *cfg, mrtq_vta_depths *d) {
  if (!cfg || cfg->log_inp_width != 3 || cfg->log_wgt_width != 3 || cfg->log_out_width != 3 ||
      cfg->log_acc_width != 5 ||
      cfg->log_batch < 0 || cfg->log_batch > 8 || cfg->log_block_in < 0 || cfg->log_block_in > 8 ||
      cfg->log_block_out < 0 || cfg->log_block_out > 8)
    return 0;
  return mrtq__vta_depths(cfg, d) == 0;
}

MRTQ_API size_t mrtq_vta_sim_scratch_bytes(const mrtq_vta_config *cfg) {
  mrtq_vta_depths d;
  size_t b, bi, bo;
  if (!mrtq__vta_sim_cfg_ok(cfg, &d)) return 0;
  b = (size_t)1 << cfg->log_batch, bi = (size_t)1 << cfg->log_block_in, bo = (size_t)1 << cfg->log_block_out;
  /* + 3: room to align the int32 / uint32 SRAMs in scratch of any alignment */
  return ((size_t)4 << d.uop) + (b * bi << d.inp) + (bo * bi << d.wgt) + (4 * b * bo << d.acc) + 3;
}

MRTQ_API mrtq_status mrtq_vta_sim_init(const mrtq_vta_config *cfg, mrtq_vta_profile profile, void *scratch,
                                       size_t scratch_bytes, void *dram, size_t dram_bytes, mrtq_vta_sim *sim) {
  size_t need;
  uint8_t *p = (uint8_t *)scratch;
  mrtq_vta_depths d;
  mrtq_status st;
  if (!sim) return MRTQ__ERR(MRTQ_EINVAL, "sim: NULL");
  if (!scratch) return MRTQ__ERR(MRTQ_EINVAL, "scratch: NULL");
  if (!dram && dram_bytes) return MRTQ__ERR(MRTQ_EINVAL, "dram: NULL with dram_bytes > 0");
  if ((int)profile < 0 || (int)profile > 3) return MRTQ__ERR(MRTQ_EINVAL, "profile: not an mrtq_vta_profile");
  if ((st = mrtq_vta_depths_of(cfg, &d)) != MRTQ_OK) return st;
  need = mrtq_vta_sim_scratch_bytes(cfg);
  if (need == 0)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED,
          "cfg: the simulator models 8-bit inputs, weights and outputs with 32-bit accumulators only");
  if (scratch_bytes < need) return MRTQ__ERR(MRTQ_EINVAL, "scratch_bytes: below mrtq_vta_sim_scratch_bytes(cfg)");
  memset(sim, 0, sizeof *sim);
  memset(scratch, 0, need);
  sim->cfg = *cfg;
  mrtq_vta_depths_of(cfg, &sim->d);
  sim->profile = profile;
  sim->batch = 1 << cfg->log_batch, sim->block_in = 1 << cfg->log_block_in, sim->block_out = 1 << cfg->log_block_out;
  /* int32 and uint32 arrays first, at the first 4-aligned byte of scratch
   * (scratch_bytes holds 3 bytes for it), then the int8 ones */
  p += (4u - (unsigned)((uintptr_t)p & 3u)) & 3u;
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
MRTQ__PRIV size_t mrtq__vta_elem_bytes(const mrtq_vta_sim *s, uint32_t mem) {
  switch (mem) {
    case MRTQ_VTA_MEM_UOP: return 4;
    case MRTQ_VTA_MEM_WGT: return (size_t)s->block_out * (size_t)s->block_in;
    case MRTQ_VTA_MEM_INP: return (size_t)s->batch * (size_t)s->block_in;
    case MRTQ_VTA_MEM_ACC: return (size_t)4 * (size_t)s->batch * (size_t)s->block_out;
    default: return (size_t)s->batch * (size_t)s->block_out; /* OUT and ACC_8BIT: one byte per lane */
  }
}

MRTQ__PRIV void mrtq__vta_fail_at(mrtq_vta_sim *s, size_t at, const char *msg) {
  s->error_insn = at;
  s->error = msg;
}
/* Record and report a refusal of the program: msg is a string literal. */
#define MRTQ__VTA_FAIL(s, at, st, msg) (mrtq__vta_fail_at((s), (at), (msg)), MRTQ__ERR((st), (msg)))

/* x >> y (y >= 0, floor) or x << -y (mod 2^32), total. The Xilinx HLS core
 * reads only the low 5 bits of the amount, as a signed number (0..15 right,
 * 16..31 left by 32 - n): hls != 0 models that. */
MRTQ__PRIV int32_t mrtq__vta_shr(int32_t x, int32_t y, int hls) {
  if (hls) {
    int32_t n = (int32_t)((uint32_t)y & 31u);
    y = n < 16 ? n : n - 32;
  }
  if (y >= 0) return mrtq__asr32(x, y > 31 ? 31 : y);
  if (y <= -32) return 0;
  return mrtq__wrap32((uint32_t)x << -y);
}

MRTQ__PRIV mrtq_status mrtq__vta_load(mrtq_vta_sim *s, const mrtq_vta_insn *op, size_t at) {
  size_t eb = mrtq__vta_elem_bytes(s, op->memory_type), lanes, depth, y, x, k;
  uint64_t xt = (uint64_t)op->x_size + op->x_pad_0 + op->x_pad_1, yt = (uint64_t)op->y_size + op->y_pad_0 + op->y_pad_1;
  uint64_t sram = op->sram_base, last;
  if (op->x_size == 0) return MRTQ_OK;
  switch (op->memory_type) {
    case MRTQ_VTA_MEM_UOP: depth = (size_t)1 << s->d.uop, lanes = 1; break;
    case MRTQ_VTA_MEM_INP: depth = (size_t)1 << s->d.inp, lanes = eb; break;
    case MRTQ_VTA_MEM_WGT: depth = (size_t)1 << s->d.wgt, lanes = eb; break;
    case MRTQ_VTA_MEM_ACC: case MRTQ_VTA_MEM_ACC_8BIT: depth = (size_t)1 << s->d.acc, lanes = (size_t)s->batch * (size_t)s->block_out; break;
    default: return MRTQ__VTA_FAIL(s, at, MRTQ_EINVAL, "prog: LOAD memory_type must be UOP, WGT, INP, ACC or ACC_8BIT");
  }
  if (sram + xt * yt > depth)
    return MRTQ__VTA_FAIL(s, at, MRTQ_ERANGE, "prog: LOAD writes past the end of its SRAM (sram_base + padded rows)");
  if (op->y_size) {
    last = ((uint64_t)op->dram_base + (uint64_t)(op->y_size - 1) * op->x_stride + op->x_size) * eb;
    if (last > s->dram_bytes) return MRTQ__VTA_FAIL(s, at, MRTQ_ERANGE, "prog: LOAD reads past sim->dram_bytes");
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

MRTQ__PRIV mrtq_status mrtq__vta_store(mrtq_vta_sim *s, const mrtq_vta_insn *op, size_t at) {
  size_t lanes = (size_t)s->batch * (size_t)s->block_out, y, x, k;
  uint64_t last;
  if (op->x_size == 0) return MRTQ_OK;
  if (op->memory_type != MRTQ_VTA_MEM_OUT)
    return MRTQ__VTA_FAIL(s, at, MRTQ_EINVAL, "prog: STORE memory_type must be OUT");
  if (op->x_pad_0 || op->x_pad_1 || op->y_pad_0 || op->y_pad_1)
    return MRTQ__VTA_FAIL(s, at, MRTQ_EINVAL, "prog: STORE padding must be 0");
  if ((uint64_t)op->sram_base + (uint64_t)op->x_size * op->y_size > ((uint64_t)1 << s->d.acc))
    return MRTQ__VTA_FAIL(s, at, MRTQ_ERANGE, "prog: STORE reads past the end of ACC");
  if (op->y_size) {
    last = ((uint64_t)op->dram_base + (uint64_t)(op->y_size - 1) * op->x_stride + op->x_size) * lanes;
    if (last > s->dram_bytes) return MRTQ__VTA_FAIL(s, at, MRTQ_ERANGE, "prog: STORE writes past sim->dram_bytes");
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
/* Decode a micro-op of the simulator's (valid) configuration; MRTQ_EINVAL
 * for bits above the fields, unreported (the caller reports). */
MRTQ__PRIV mrtq_status mrtq__vta_uop_unpack(const mrtq_vta_sim *s, uint32_t in, mrtq_vta_uop *u) {
  int sw = s->d.acc > s->d.inp ? s->d.acc : s->d.inp, tot = s->d.acc + sw + s->d.wgt;
  if (tot > 32 || (tot < 32 && (in >> tot))) return MRTQ_EINVAL;
  u->dst = in & (uint32_t)(((uint64_t)1 << s->d.acc) - 1u);
  u->src = (uint32_t)(((uint64_t)in >> s->d.acc) & (((uint64_t)1 << sw) - 1u));
  u->wgt = (uint32_t)(((uint64_t)in >> (s->d.acc + sw)) & (((uint64_t)1 << s->d.wgt) - 1u));
  return MRTQ_OK;
}

MRTQ__PRIV mrtq_status mrtq__vta_compute(mrtq_vta_sim *s, const mrtq_vta_insn *op, size_t at) {
  const uint64_t acc_depth = (uint64_t)1 << s->d.acc, inp_depth = (uint64_t)1 << s->d.inp,
                 wgt_depth = (uint64_t)1 << s->d.wgt, uop_depth = (uint64_t)1 << s->d.uop;
  const size_t lanes = (size_t)s->batch * (size_t)s->block_out;
  int alu = op->opcode == MRTQ_VTA_ALU;
  uint32_t yo, xi, k;
  if (op->uop_end > uop_depth || op->uop_bgn > op->uop_end)
    return MRTQ__VTA_FAIL(s, at, MRTQ_ERANGE, "prog: micro-op range [uop_bgn, uop_end) outside the UOP SRAM");
  if (alu && op->alu_opcode > MRTQ_VTA_ALU_MUL)
    return MRTQ__VTA_FAIL(s, at, MRTQ_EINVAL, "prog: ALU alu_opcode must be MIN, MAX, ADD, SHR or MUL");
  if (alu && op->alu_opcode == MRTQ_VTA_ALU_MUL &&
      (s->profile == MRTQ_VTA_PROFILE_HLS || s->profile == MRTQ_VTA_PROFILE_CHISEL))
    return MRTQ__VTA_FAIL(s, at, MRTQ_EUNSUPPORTED, "prog: ALU MUL on a target without a multiplier (HLS, CHISEL)");
  for (yo = 0; yo < op->iter_out; yo++)
    for (xi = 0; xi < op->iter_in; xi++)
      for (k = op->uop_bgn; k < op->uop_end; k++) {
        mrtq_vta_uop u = {0, 0, 0};
        uint64_t dst, src, wgt;
        if (mrtq__vta_uop_unpack(s, s->uop[k], &u) != MRTQ_OK)
          return MRTQ__VTA_FAIL(s, at, MRTQ_EINVAL, "prog: a micro-op has bits set above its fields");
        dst = u.dst + (uint64_t)yo * op->dst_factor_out + (uint64_t)xi * op->dst_factor_in;
        src = u.src + (uint64_t)yo * op->src_factor_out + (uint64_t)xi * op->src_factor_in;
        wgt = u.wgt + (uint64_t)yo * op->wgt_factor_out + (uint64_t)xi * op->wgt_factor_in;
        if (dst >= acc_depth) return MRTQ__VTA_FAIL(s, at, MRTQ_ERANGE, "prog: ACC destination index out of bounds");
        if (alu) {
          int32_t *a = s->acc + dst * lanes;
          const int32_t *b = s->acc + src * lanes;
          size_t l;
          if (!op->use_imm && src >= acc_depth)
            return MRTQ__VTA_FAIL(s, at, MRTQ_ERANGE, "prog: ALU ACC source index out of bounds");
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
          if (src >= inp_depth) return MRTQ__VTA_FAIL(s, at, MRTQ_ERANGE, "prog: GEMM INP index out of bounds");
          if (wgt >= wgt_depth) return MRTQ__VTA_FAIL(s, at, MRTQ_ERANGE, "prog: GEMM WGT index out of bounds");
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
MRTQ__PRIV int mrtq__vta_module(const mrtq_vta_insn *in) {
  if (in->opcode == MRTQ_VTA_STORE) return 2;
  if (in->opcode == MRTQ_VTA_LOAD && (in->memory_type == MRTQ_VTA_MEM_INP || in->memory_type == MRTQ_VTA_MEM_WGT))
    return 0;
  return 1;
}

MRTQ_API mrtq_status mrtq_vta_sim_run(const mrtq_vta_word *prog, size_t n, mrtq_vta_sim *s) {
  size_t next[3] = {0, 0, 0}, done = 0, i;
  uint64_t tok[4] = {0, 0, 0, 0}, work = 0; /* tokens l2c, c2l, c2s, s2c; work units of this run */
  if (!s) return MRTQ__ERR(MRTQ_EINVAL, "sim: NULL");
  if (!prog && n) return MRTQ__ERR(MRTQ_EINVAL, "prog: NULL with n > 0");
  s->error = "";
  for (i = 0; i < n; i++) { /* decode everything first: a malformed stream runs nothing */
    mrtq_vta_insn in;
    memset(&in, 0, sizeof in);
    if (mrtq__vta_unpack(&s->d, &prog[i], &in) != 0)
      return MRTQ__VTA_FAIL(s, i, MRTQ_EINVAL, "prog: undecodable instruction");
    if (mrtq__vta_module(&in) == 0 && (in.pop_prev || in.push_prev))
      return MRTQ__VTA_FAIL(s, i, MRTQ_EINVAL,
            "prog: a load-module instruction pops or pushes prev (no previous stage)");
    if (mrtq__vta_module(&in) == 2 && (in.pop_next || in.push_next))
      return MRTQ__VTA_FAIL(s, i, MRTQ_EINVAL, "prog: a store-module instruction pops or pushes next (no next stage)");
  }
  while (done < n) {
    static const int order[3][3] = {{0, 1, 2}, {0, 1, 2}, {2, 1, 0}};
    int mi, m, progressed = 0, sched = s->schedule == 1 || s->schedule == 2 ? s->schedule : 0;
    for (mi = 0; mi < 3 && !(progressed && sched); mi++) {
      m = order[sched][mi];
      for (; next[m] < n; next[m]++) { /* advance this module as far as its tokens allow */
        mrtq_vta_insn in;
        uint64_t *pp, *pn;
        mrtq_status st;
        memset(&in, 0, sizeof in);
        mrtq__vta_unpack(&s->d, &prog[next[m]], &in);
        if (mrtq__vta_module(&in) != m) continue;
        pp = m == 1 ? &tok[0] : m == 2 ? &tok[2] : NULL; /* tokens this module pops from prev */
        pn = m == 0 ? &tok[1] : m == 1 ? &tok[3] : NULL; /* ... and from next */
        if ((in.pop_prev && !*pp) || (in.pop_next && !*pn)) break;
        if (s->budget) { /* under 2^14 * 2^14 * 2^16 (compute) or 2^40 (LOAD) units: no wrap in 64 bits */
          uint64_t w = in.opcode == MRTQ_VTA_LOAD
                           ? (in.x_size == 0 ? 0 /* a LOAD of nothing writes nothing */
                                             : ((uint64_t)in.y_size + in.y_pad_0 + in.y_pad_1) *
                                                   ((uint64_t)in.x_size + in.x_pad_0 + in.x_pad_1))
                       : in.opcode == MRTQ_VTA_STORE ? (uint64_t)in.y_size * in.x_size
                       : in.opcode == MRTQ_VTA_FINISH || in.uop_end <= in.uop_bgn
                           ? 0
                           : (uint64_t)in.iter_out * in.iter_in * (in.uop_end - in.uop_bgn);
          if (w > s->budget - work)
            return MRTQ__VTA_FAIL(s, next[m], MRTQ_ERANGE, "prog: the run would exceed sim->budget work units");
          work += w;
        }
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
        if (sched) { /* one instruction, then the preferred module again */
          next[m]++;
          break;
        }
      }
    }
    if (!progressed) {
      size_t first = n;
      for (m = 0; m < 3; m++)
        if (next[m] < first) first = next[m];
      return MRTQ__VTA_FAIL(s, first, MRTQ_EINVAL, "prog: deadlock: a module waits for a token that is never pushed");
    }
  }
  return MRTQ_OK;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_VTA_SIM_H */
