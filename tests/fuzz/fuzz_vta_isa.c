/* vta.h instruction set: mrtq_vta_depths_of over any configuration,
 * mrtq_vta_decode of any 128 bits (re-encoding gives the same instruction),
 * mrtq_vta_encode of fuzzed instructions (decoding gives them back), micro-op
 * encode / decode, and mrtq_vta_disasm's snprintf contract (at most cap
 * bytes, NUL-terminated, returns the full length). */
#include "fuzz_vta_common.h"

/* A field the opcode's form does not have is non-zero (the encoder refuses it). */
static int foreign_field(const mrtq_vta_insn *in) {
  int mem = in->reset || in->uop_bgn || in->uop_end || in->iter_out || in->iter_in || in->dst_factor_out ||
            in->dst_factor_in || in->src_factor_out || in->src_factor_in;
  int memf = in->memory_type || in->sram_base || in->dram_base || in->y_size || in->x_size || in->x_stride ||
             in->y_pad_0 || in->y_pad_1 || in->x_pad_0 || in->x_pad_1;
  int wgt = in->wgt_factor_out || in->wgt_factor_in, alu = in->alu_opcode || in->use_imm || in->imm;
  if (in->opcode <= MRTQ_VTA_STORE) return mem || wgt || alu;
  if (in->opcode == MRTQ_VTA_ALU) return memf || wgt;
  return memf || alu;
}

static int same_insn(const mrtq_vta_insn *a, const mrtq_vta_insn *b) { return memcmp(a, b, sizeof *a) == 0; }

static void check_disasm(fz *f, const mrtq_vta_insn *in) {
  char full[1024];
  size_t len = mrtq_vta_disasm(in, full, sizeof full), cap = (size_t)fz_range(f, 0, 300), r;
  fz_buf b;
  char *buf;
  FZ_CHECK(len < sizeof full && strlen(full) == len, "mrtq_vta_disasm length %zu, string %zu", len, strlen(full));
  FZ_EQ(mrtq_vta_disasm(in, NULL, 0), len, "mrtq_vta_disasm(NULL, 0)");
  buf = (char *)fz_buf_new_at(&b, cap, 0xa5, fz_range(f, 0, 63));
  r = mrtq_vta_disasm(in, buf, cap);
  FZ_EQ(r, len, "mrtq_vta_disasm with cap %zu", cap);
  FZ_CHECK(fz_guards_intact(&b), "mrtq_vta_disasm wrote past cap %zu", cap);
  if (cap) {
    size_t k = len < cap - 1 ? len : cap - 1;
    FZ_CHECK(memcmp(buf, full, k) == 0 && buf[k] == 0, "mrtq_vta_disasm with cap %zu: not the truncated text", cap);
  }
  fz_buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f = {data, size};
  mrtq_vta_config cfg;
  mrtq_vta_depths d;
  mrtq_vta_word w, w2;
  mrtq_vta_insn in, in2, zero;
  mrtq_status st, sd;
  cfg = vta_config(&f, 1);
  sd = mrtq_vta_depths_of(&cfg, &d);
  memset(&zero, 0, sizeof zero);
  /* decode any 128 bits */
  w.w[0] = fz_u64(&f), w.w[1] = fz_u64(&f);
  memset(&in, 0x5a, sizeof in);
  fz_reason_begin();
  st = mrtq_vta_decode(&cfg, &w, &in);
  fz_reason_end(st, "mrtq_vta_decode");
  if (sd != MRTQ_OK) FZ_EQ(st, MRTQ_EINVAL, "mrtq_vta_decode with an invalid configuration");
  if ((w.w[0] & 7) > 4) FZ_EQ(st, MRTQ_EINVAL, "mrtq_vta_decode of opcode %u", (unsigned)(w.w[0] & 7));
  if (st != MRTQ_OK) {
    FZ_CHECK(fz_span_is((const uint8_t *)&in, sizeof in, 0x5a), "mrtq_vta_decode refused (%d) but wrote", (int)st);
  } else {
    FZ_EQ(in.opcode, w.w[0] & 7, "decoded opcode");
    FZ_CHECK(!foreign_field(&in), "mrtq_vta_decode set a field outside the opcode's form");
    st = mrtq_vta_encode(&cfg, &in, &w2);
    FZ_EQ(st, MRTQ_OK, "re-encoding a decoded instruction");
    /* a decoded word has no bit outside its fields: re-encoding gives it back exactly */
    FZ_CHECK(w2.w[0] == w.w[0] && w2.w[1] == w.w[1], "encode(decode(w)) != w (%016llx %016llx -> %016llx %016llx)",
             (unsigned long long)w.w[1], (unsigned long long)w.w[0], (unsigned long long)w2.w[1],
             (unsigned long long)w2.w[0]);
    memset(&in2, 0, sizeof in2);
    FZ_EQ(mrtq_vta_decode(&cfg, &w2, &in2), MRTQ_OK, "decode of the re-encoding");
    FZ_CHECK(same_insn(&in, &in2), "decode(encode(decode(w))) != decode(w)");
    check_disasm(&f, &in);
  }
  /* encode fuzzed instructions */
  in = vta_insn(&f, fz_bool(&f));
  if (fz_rare(&f, 16)) { /* any field values */
    uint32_t *p = &in.pop_prev;
    size_t k;
    for (k = 0; k < 26; k++) p[k] = fz_rare(&f, 64) ? fz_u32(&f) : p[k];
    in.imm = fz_rare(&f, 64) ? (int32_t)fz_u32(&f) : in.imm;
  }
  w2.w[0] = w2.w[1] = 0x1234;
  fz_reason_begin();
  st = mrtq_vta_encode(&cfg, &in, &w2);
  fz_reason_end(st, "mrtq_vta_encode");
  if (sd != MRTQ_OK || in.opcode > 4) FZ_EQ(st, MRTQ_EINVAL, "mrtq_vta_encode");
  /* a field the opcode's form does not have must be 0: refused (EINVAL; checked before the widths) */
  if (in.opcode <= 4 && foreign_field(&in)) FZ_EQ(st, MRTQ_EINVAL, "mrtq_vta_encode with a field outside the form");
  if (st != MRTQ_OK) {
    FZ_CHECK(w2.w[0] == 0x1234 && w2.w[1] == 0x1234, "mrtq_vta_encode refused but wrote");
  } else {
    memset(&in2, 0x5a, sizeof in2);
    FZ_EQ(mrtq_vta_decode(&cfg, &w2, &in2), MRTQ_OK, "decode of an encoding");
    /* every field is the form's: decode gives the instruction back whole */
    FZ_CHECK(same_insn(&in, &in2), "decode(encode(in)) != in");
    if (in.opcode <= MRTQ_VTA_STORE) {
      FZ_CHECK(in2.memory_type == in.memory_type && in2.sram_base == in.sram_base && in2.dram_base == in.dram_base &&
                   in2.y_size == in.y_size && in2.x_size == in.x_size && in2.x_stride == in.x_stride &&
                   in2.y_pad_0 == in.y_pad_0 && in2.y_pad_1 == in.y_pad_1 && in2.x_pad_0 == in.x_pad_0 &&
                   in2.x_pad_1 == in.x_pad_1,
               "memory fields do not round-trip");
    } else {
      FZ_CHECK(in2.reset == in.reset && in2.uop_bgn == in.uop_bgn && in2.uop_end == in.uop_end &&
                   in2.iter_out == in.iter_out && in2.iter_in == in.iter_in && in2.dst_factor_out == in.dst_factor_out &&
                   in2.dst_factor_in == in.dst_factor_in && in2.src_factor_out == in.src_factor_out &&
                   in2.src_factor_in == in.src_factor_in,
               "loop fields do not round-trip");
      if (in.opcode == MRTQ_VTA_ALU)
        FZ_CHECK(in2.alu_opcode == in.alu_opcode && in2.use_imm == in.use_imm && in2.imm == in.imm, "ALU fields");
      else
        FZ_CHECK(in2.wgt_factor_out == in.wgt_factor_out && in2.wgt_factor_in == in.wgt_factor_in, "GEMM fields");
    }
    FZ_CHECK(in2.opcode == in.opcode && in2.pop_prev == in.pop_prev && in2.pop_next == in.pop_next &&
                 in2.push_prev == in.push_prev && in2.push_next == in.push_next,
             "head fields do not round-trip");
    check_disasm(&f, &in2);
  }
  check_disasm(&f, &in); /* any fields, even unencodable ones */
  /* micro-ops */
  {
    mrtq_vta_uop u, u2;
    uint32_t word = fz_u32(&f), enc = 0x77;
    u.dst = fz_rare(&f, 32) ? fz_u32(&f) : (uint32_t)fz_range(&f, 0, 4096);
    u.src = fz_rare(&f, 32) ? fz_u32(&f) : (uint32_t)fz_range(&f, 0, 4096);
    u.wgt = fz_rare(&f, 32) ? fz_u32(&f) : (uint32_t)fz_range(&f, 0, 2048);
    memset(&u2, 0x5a, sizeof u2);
    fz_reason_begin();
    st = mrtq_vta_uop_decode(&cfg, word, &u2);
    fz_reason_end(st, "mrtq_vta_uop_decode");
    if (sd == MRTQ_OK) {
      int sw = d.acc > d.inp ? d.acc : d.inp, bits = d.acc + sw + d.wgt;
      uint32_t mask = bits >= 32 ? 0xffffffffu : ((uint32_t)1 << bits) - 1;
      /* a word with bits above the fields (or fields over 32 bits) is refused */
      if (bits > 32 || (word & ~mask)) FZ_EQ(st, MRTQ_EINVAL, "mrtq_vta_uop_decode of %08x (%d bits)", word, bits);
      if (st == MRTQ_OK) {
        FZ_EQ(mrtq_vta_uop_encode(&cfg, &u2, &enc), MRTQ_OK, "re-encoding a decoded micro-op");
        FZ_EQ(enc, word, "micro-op round trip");
      }
    } else {
      FZ_EQ(st, MRTQ_EINVAL, "mrtq_vta_uop_decode with an invalid configuration");
    }
    if (st != MRTQ_OK) FZ_CHECK(fz_span_is((const uint8_t *)&u2, sizeof u2, 0x5a), "mrtq_vta_uop_decode refused but wrote");
    enc = 0x77;
    fz_reason_begin();
    st = mrtq_vta_uop_encode(&cfg, &u, &enc);
    fz_reason_end(st, "mrtq_vta_uop_encode");
    if (st == MRTQ_OK) {
      FZ_EQ(mrtq_vta_uop_decode(&cfg, enc, &u2), MRTQ_OK, "decode of an encoded micro-op");
      FZ_CHECK(u2.dst == u.dst && u2.src == u.src && u2.wgt == u.wgt, "micro-op fields do not round-trip");
    } else {
      FZ_EQ(enc, 0x77, "mrtq_vta_uop_encode refused but wrote");
    }
  }
  (void)zero;
  return 0;
}
