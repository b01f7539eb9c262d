/* Shared by the VTA harnesses: fuzzed configurations and instructions. */
#ifndef MRTQ_FUZZ_VTA_COMMON_H
#define MRTQ_FUZZ_VTA_COMMON_H

#include "fuzz.h"

#include "mrtq/vta.h"

/* The default configuration, a small one (so the SRAMs are small and the
 * bounds are reached), or (rarely, any_ok) arbitrary ints. */
static inline mrtq_vta_config vta_config(fz *f, int any_ok) {
  mrtq_vta_config c = mrtq_vta_config_default();
  uint8_t m = fz_u8(f);
  if (any_ok && m >= 250) {
    int *p = &c.log_inp_width, i;
    for (i = 0; i < 11; i++) p[i] = fz_bool(f) ? (int)fz_irange(f, -2, 20) : (int)(int32_t)fz_u32(f);
    return c;
  }
  if (m >= 128) {
    c.log_batch = (int)fz_range(f, 0, 1);
    c.log_block_in = (int)fz_range(f, 1, 4);
    c.log_block_out = (int)fz_range(f, 1, 4);
    c.log_uop_buff_size = (int)fz_range(f, 5, 12);
    c.log_inp_buff_size = c.log_batch + c.log_block_in + 3 + (int)fz_range(f, 0, 7) - 3 + 3;
    c.log_wgt_buff_size = c.log_block_out + c.log_block_in + 3 + (int)fz_range(f, 0, 7) - 3 + 3;
    c.log_acc_buff_size = c.log_batch + c.log_block_out + 5 + (int)fz_range(f, 0, 7) - 3 + 3;
  }
  return c;
}

/* An instruction: raw bits, or an encodable one with small fields. */
static inline mrtq_vta_insn vta_insn(fz *f, int small) {
  mrtq_vta_insn in;
  uint32_t lim = small ? 8 : 0xffff;
  memset(&in, 0, sizeof in);
  in.opcode = fz_rare(f, 8) ? (uint32_t)fz_range(f, 0, 7) : (uint32_t)fz_range(f, 0, 4);
  in.pop_prev = fz_rare(f, 64), in.pop_next = fz_rare(f, 64), in.push_prev = fz_rare(f, 64), in.push_next = fz_rare(f, 64);
  if (in.opcode <= MRTQ_VTA_STORE) {
    in.memory_type = (uint32_t)fz_range(f, 0, 5);
    in.sram_base = (uint32_t)fz_range(f, 0, small ? 64 : 0xffff);
    in.dram_base = (uint32_t)(fz_rare(f, 8) ? fz_u32(f) : fz_range(f, 0, small ? 64 : 0xffff));
    in.y_size = (uint32_t)fz_range(f, 0, lim), in.x_size = (uint32_t)fz_range(f, 0, lim);
    in.x_stride = (uint32_t)fz_range(f, 0, lim);
    in.y_pad_0 = (uint32_t)(fz_rare(f, 32) ? fz_range(f, 0, 15) : 0), in.y_pad_1 = (uint32_t)(fz_rare(f, 32) ? fz_range(f, 0, 15) : 0);
    in.x_pad_0 = (uint32_t)(fz_rare(f, 32) ? fz_range(f, 0, 15) : 0), in.x_pad_1 = (uint32_t)(fz_rare(f, 32) ? fz_range(f, 0, 15) : 0);
  } else {
    in.reset = fz_rare(f, 32);
    in.uop_bgn = (uint32_t)fz_range(f, 0, small ? 8 : 0x1fff);
    in.uop_end = in.uop_bgn + (uint32_t)fz_range(f, 0, small ? 4 : 0x1fff);
    in.iter_out = (uint32_t)fz_range(f, 0, small ? 8 : 0x3fff), in.iter_in = (uint32_t)fz_range(f, 0, small ? 8 : 0x3fff);
    in.dst_factor_out = (uint32_t)fz_range(f, 0, lim), in.dst_factor_in = (uint32_t)fz_range(f, 0, lim);
    in.src_factor_out = (uint32_t)fz_range(f, 0, lim), in.src_factor_in = (uint32_t)fz_range(f, 0, lim);
    in.wgt_factor_out = (uint32_t)fz_range(f, 0, lim), in.wgt_factor_in = (uint32_t)fz_range(f, 0, lim);
    if (in.opcode == MRTQ_VTA_ALU) {
      in.alu_opcode = (uint32_t)(fz_rare(f, 8) ? fz_range(f, 0, 7) : fz_range(f, 0, 4));
      in.use_imm = fz_bool(f);
      in.imm = (int32_t)fz_irange(f, -40, 40);
      if (fz_rare(f, 16)) in.imm = (int32_t)(int16_t)fz_u16(f);
      in.wgt_factor_out = in.wgt_factor_in = 0;
    } else {
      in.alu_opcode = in.use_imm = 0, in.imm = 0;
    }
  }
  return in;
}

#endif
