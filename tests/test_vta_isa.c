/* mrtq/vta.h, ISA part: encodings against an independent oracle -- the
 * instruction layouts restated here as C bitfields on uint64_t words, the way
 * tvm-vta's hw_spec.h declares them (default configuration), laid out by the
 * compiler rather than by the encoder under test -- plus round trips, range
 * errors, the SRAM depths tvm-vta documents, and the disassembler. */
#include <limits.h>

#include "harness.h"
#include "mrtq/vta.h"

/* tvm-vta default field widths: opcode 3, memory id 3, SRAM address 16, DRAM
 * address 32, sizes/strides 16, pads 4, loop iterations 14, immediate 16;
 * log2 depths UOP 13, INP 11, WGT 10, ACC 11. */
__extension__ typedef struct {
  uint64_t opcode : 3, pop_prev : 1, pop_next : 1, push_prev : 1, push_next : 1;
  uint64_t memory_type : 3, sram_base : 16, dram_base : 32;
  uint64_t y_size : 16, x_size : 16, x_stride : 16, y_pad_0 : 4, y_pad_1 : 4, x_pad_0 : 4, x_pad_1 : 4;
} o_mem;
__extension__ typedef struct {
  uint64_t opcode : 3, pop_prev : 1, pop_next : 1, push_prev : 1, push_next : 1, reset : 1;
  uint64_t uop_bgn : 13, uop_end : 14, iter_out : 14, iter_in : 14;
  uint64_t dst_factor_out : 11, dst_factor_in : 11, src_factor_out : 11, src_factor_in : 11;
  uint64_t wgt_factor_out : 10, wgt_factor_in : 10;
} o_gemm;
__extension__ typedef struct {
  uint64_t opcode : 3, pop_prev : 1, pop_next : 1, push_prev : 1, push_next : 1, reset : 1;
  uint64_t uop_bgn : 13, uop_end : 14, iter_out : 14, iter_in : 14;
  uint64_t dst_factor_out : 11, dst_factor_in : 11, src_factor_out : 11, src_factor_in : 11;
  uint64_t alu_opcode : 3, use_imm : 1;
  int64_t imm : 16;
} o_alu;
__extension__ typedef struct {
  uint32_t dst : 11, src : 11, wgt : 10;
} o_uop;
/* a 128-row ACC (log_acc_buff_size 13): dst 7 bits, src max(7, 11) = 11 bits */
__extension__ typedef struct {
  uint32_t dst : 7, src : 11, wgt : 10;
} o_uop_small_acc;

static uint32_t rbits(int w) { return (uint32_t)(th_rand64() & (((uint64_t)1 << w) - 1u)); }

static void rand_insn(mrtq_vta_insn *in, uint32_t opcode) {
  memset(in, 0, sizeof *in);
  in->opcode = opcode;
  in->pop_prev = rbits(1), in->pop_next = rbits(1), in->push_prev = rbits(1), in->push_next = rbits(1);
  if (opcode <= MRTQ_VTA_STORE) {
    in->memory_type = (uint32_t)th_range(0, 5), in->sram_base = rbits(16), in->dram_base = rbits(32);
    in->y_size = rbits(16), in->x_size = rbits(16), in->x_stride = rbits(16);
    in->y_pad_0 = rbits(4), in->y_pad_1 = rbits(4), in->x_pad_0 = rbits(4), in->x_pad_1 = rbits(4);
  } else {
    in->reset = rbits(1), in->uop_bgn = rbits(13), in->uop_end = rbits(14), in->iter_out = rbits(14);
    in->iter_in = rbits(14), in->dst_factor_out = rbits(11), in->dst_factor_in = rbits(11);
    in->src_factor_out = rbits(11), in->src_factor_in = rbits(11);
    if (opcode == MRTQ_VTA_ALU) {
      in->alu_opcode = (uint32_t)th_range(0, 4), in->use_imm = rbits(1), in->imm = (int32_t)th_range(-32768, 32767);
    } else {
      in->wgt_factor_out = rbits(10), in->wgt_factor_in = rbits(10);
    }
  }
}

static void oracle_words(const mrtq_vta_insn *in, uint64_t w[2]) {
  memset(w, 0, 16);
  if (in->opcode <= MRTQ_VTA_STORE) {
    o_mem m;
    memset(&m, 0, sizeof m);
    m.opcode = in->opcode, m.pop_prev = in->pop_prev, m.pop_next = in->pop_next, m.push_prev = in->push_prev;
    m.push_next = in->push_next, m.memory_type = in->memory_type, m.sram_base = in->sram_base;
    m.dram_base = in->dram_base, m.y_size = in->y_size, m.x_size = in->x_size, m.x_stride = in->x_stride;
    m.y_pad_0 = in->y_pad_0, m.y_pad_1 = in->y_pad_1, m.x_pad_0 = in->x_pad_0, m.x_pad_1 = in->x_pad_1;
    memcpy(w, &m, 16);
  } else if (in->opcode == MRTQ_VTA_ALU) {
    o_alu a;
    memset(&a, 0, sizeof a);
    a.opcode = in->opcode, a.pop_prev = in->pop_prev, a.pop_next = in->pop_next, a.push_prev = in->push_prev;
    a.push_next = in->push_next, a.reset = in->reset, a.uop_bgn = in->uop_bgn, a.uop_end = in->uop_end;
    a.iter_out = in->iter_out, a.iter_in = in->iter_in, a.dst_factor_out = in->dst_factor_out;
    a.dst_factor_in = in->dst_factor_in, a.src_factor_out = in->src_factor_out, a.src_factor_in = in->src_factor_in;
    a.alu_opcode = in->alu_opcode, a.use_imm = in->use_imm, a.imm = in->imm;
    memcpy(w, &a, 16);
  } else {
    o_gemm g;
    memset(&g, 0, sizeof g);
    g.opcode = in->opcode, g.pop_prev = in->pop_prev, g.pop_next = in->pop_next, g.push_prev = in->push_prev;
    g.push_next = in->push_next, g.reset = in->reset, g.uop_bgn = in->uop_bgn, g.uop_end = in->uop_end;
    g.iter_out = in->iter_out, g.iter_in = in->iter_in, g.dst_factor_out = in->dst_factor_out;
    g.dst_factor_in = in->dst_factor_in, g.src_factor_out = in->src_factor_out, g.src_factor_in = in->src_factor_in;
    g.wgt_factor_out = in->wgt_factor_out, g.wgt_factor_in = in->wgt_factor_in;
    memcpy(w, &g, 16);
  }
}

static void test_layout_vs_bitfields(void) {
  mrtq_vta_config cfg = mrtq_vta_config_default();
  long r;
  CHECK(sizeof(o_mem) == 16 && sizeof(o_gemm) == 16 && sizeof(o_alu) == 16 && sizeof(o_uop) == 4);
  for (r = 0; r < 200000; r++) {
    mrtq_vta_insn in, back;
    memset(&back, 0, sizeof back);
    mrtq_vta_word w = {{0, 0}};
    uint64_t ow[2];
    rand_insn(&in, (uint32_t)th_range(0, 4));
    CHECK_EQ(mrtq_vta_encode(&cfg, &in, &w), MRTQ_OK, "encode op %u", in.opcode);
    oracle_words(&in, ow);
    CHECK(w.w[0] == ow[0] && w.w[1] == ow[1]);
    CHECK_EQ(mrtq_vta_decode(&cfg, &w, &back), MRTQ_OK, "decode");
    CHECK(memcmp(&in, &back, sizeof in) == 0);
  }
}

/* Field positions stated in docs/anchors.md (VTA ISA) (from tvm-vta hw_spec.h): ALU imm
 * at [127:112], use_imm 111, alu_opcode [110:108], dst_factor_out [74:64]. */
static void test_alu_positions(void) {
  mrtq_vta_config cfg = mrtq_vta_config_default();
  mrtq_vta_insn in;
  mrtq_vta_word w = {{0, 0}};
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_ALU, in.alu_opcode = MRTQ_VTA_ALU_SHR, in.use_imm = 1, in.imm = -3;
  in.dst_factor_out = 1, in.uop_end = 1, in.iter_in = 1, in.iter_out = 1;
  CHECK_EQ(mrtq_vta_encode(&cfg, &in, &w), MRTQ_OK, "encode");
  CHECK((w.w[1] >> 48) == 0xFFFDu);              /* imm -3, 16-bit two's complement */
  CHECK(((w.w[1] >> 47) & 1u) == 1u);            /* use_imm at 111 */
  CHECK(((w.w[1] >> 44) & 7u) == 3u);            /* SHR at [110:108] */
  CHECK((w.w[1] & 0x7ffu) == 1u);                /* dst_factor_out at [74:64] */
  CHECK((w.w[0] & 7u) == 4u);                    /* opcode ALU */
  CHECK(((w.w[0] >> 21) & 0x3fffu) == 1u);       /* uop_end at [34:21] */
  CHECK(((w.w[0] >> 35) & 0x3fffu) == 1u);       /* iter_out at [48:35] */
  CHECK(((w.w[0] >> 49) & 0x3fffu) == 1u);       /* iter_in at [62:49] */
  CHECK((w.w[0] >> 63) == 0u);                   /* bit 63 unused */
}

static void test_uops(void) {
  mrtq_vta_config cfg = mrtq_vta_config_default();
  long r;
  for (r = 0; r < 100000; r++) {
    mrtq_vta_uop u, back = {0, 0, 0};
    o_uop o;
    uint32_t word = 0, ow;
    u.dst = rbits(11), u.src = rbits(11), u.wgt = rbits(10);
    o.dst = u.dst, o.src = u.src, o.wgt = u.wgt;
    memcpy(&ow, &o, 4);
    CHECK_EQ(mrtq_vta_uop_encode(&cfg, &u, &word), MRTQ_OK, "uop");
    CHECK_EQ(word, ow, "uop word");
    CHECK_EQ(mrtq_vta_uop_decode(&cfg, word, &back), MRTQ_OK, "uop decode");
    CHECK(back.dst == u.dst && back.src == u.src && back.wgt == u.wgt);
  }
  cfg.log_acc_buff_size = 13;
  for (r = 0; r < 20000; r++) {
    mrtq_vta_uop u, back = {0, 0, 0};
    o_uop_small_acc o;
    uint32_t word = 0, ow;
    memset(&o, 0, sizeof o); /* 28 of 32 bits are fields */
    u.dst = rbits(7), u.src = rbits(11), u.wgt = rbits(10);
    o.dst = u.dst, o.src = u.src, o.wgt = u.wgt;
    memcpy(&ow, &o, 4);
    CHECK_EQ(mrtq_vta_uop_encode(&cfg, &u, &word), MRTQ_OK, "uop");
    CHECK_EQ(word, ow, "uop word, small ACC");
    CHECK_EQ(mrtq_vta_uop_decode(&cfg, word, &back), MRTQ_OK, "uop decode");
    CHECK(back.dst == u.dst && back.src == u.src && back.wgt == u.wgt);
  }
  cfg = mrtq_vta_config_default();
  {
    mrtq_vta_uop u = {2048, 0, 0};
    uint32_t word;
    CHECK_REFUSED(mrtq_vta_uop_encode(&cfg, &u, &word), MRTQ_ERANGE, "u->dst");
    u.dst = 0, u.wgt = 1024;
    CHECK_REFUSED(mrtq_vta_uop_encode(&cfg, &u, &word), MRTQ_ERANGE, "u->wgt");
    u.wgt = 0, u.src = 2048;
    CHECK_REFUSED(mrtq_vta_uop_encode(&cfg, &u, &word), MRTQ_ERANGE, "u->src");
    CHECK_REFUSED(mrtq_vta_uop_encode(NULL, &u, &word), MRTQ_EINVAL, "cfg: NULL");
    CHECK_REFUSED(mrtq_vta_uop_encode(&cfg, NULL, &word), MRTQ_EINVAL, "u: NULL");
    CHECK_REFUSED(mrtq_vta_uop_encode(&cfg, &u, NULL), MRTQ_EINVAL, "out: NULL");
    CHECK_REFUSED(mrtq_vta_uop_decode(&cfg, 0, NULL), MRTQ_EINVAL, "u: NULL");
    cfg.log_acc_buff_size = 13; /* 28 of 32 bits are fields */
    CHECK_REFUSED(mrtq_vta_uop_decode(&cfg, 0x80000000u, &u), MRTQ_EINVAL, "above the micro-op's");
  }
}

static void test_depths_and_errors(void) {
  mrtq_vta_config cfg = mrtq_vta_config_default(), big = cfg, bad = cfg;
  mrtq_vta_depths d;
  mrtq_vta_insn in;
  mrtq_vta_word w = {{0, 0}};
  /* tvm-vta's documented defaults: UOP 8192, INP 2048, WGT 1024, ACC 2048 entries */
  CHECK_EQ(mrtq_vta_depths_of(&cfg, &d), MRTQ_OK, "depths");
  CHECK(d.uop == 13 && d.inp == 11 && d.wgt == 10 && d.acc == 11);
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_GEMM;
  in.uop_bgn = 8192; /* 13 bits */
  CHECK_REFUSED(mrtq_vta_encode(&cfg, &in, &w), MRTQ_ERANGE, "exceeds its bit width");
  in.uop_bgn = 0, in.uop_end = 8192; /* 14 bits: fits */
  CHECK_EQ(mrtq_vta_encode(&cfg, &in, &w), MRTQ_OK, "uop_end");
  in.opcode = MRTQ_VTA_ALU, in.imm = 32768;
  CHECK_REFUSED(mrtq_vta_encode(&cfg, &in, &w), MRTQ_ERANGE, "in->imm");
  in.imm = -32769;
  CHECK_REFUSED(mrtq_vta_encode(&cfg, &in, &w), MRTQ_ERANGE, "in->imm");
  in.imm = 0, in.opcode = 5;
  CHECK_REFUSED(mrtq_vta_encode(&cfg, &in, &w), MRTQ_EINVAL, "in->opcode");
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_LOAD, in.memory_type = 8;
  CHECK_REFUSED(mrtq_vta_encode(&cfg, &in, &w), MRTQ_ERANGE, "exceeds its bit width");
  /* a field the opcode's form does not have is refused, not dropped */
  in.memory_type = MRTQ_VTA_MEM_INP, in.iter_out = 1;
  CHECK_REFUSED(mrtq_vta_encode(&cfg, &in, &w), MRTQ_EINVAL, "must be 0 for LOAD and STORE");
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_GEMM, in.x_size = 1;
  CHECK_REFUSED(mrtq_vta_encode(&cfg, &in, &w), MRTQ_EINVAL, "must be 0 for GEMM, FINISH and ALU");
  in.x_size = 0, in.imm = 5;
  CHECK_REFUSED(mrtq_vta_encode(&cfg, &in, &w), MRTQ_EINVAL, "in->alu_opcode, in->use_imm, in->imm");
  in.opcode = MRTQ_VTA_FINISH, in.imm = 0, in.use_imm = 1;
  CHECK_REFUSED(mrtq_vta_encode(&cfg, &in, &w), MRTQ_EINVAL, "in->alu_opcode, in->use_imm, in->imm");
  in.opcode = MRTQ_VTA_ALU, in.use_imm = 0, in.wgt_factor_in = 1;
  CHECK_REFUSED(mrtq_vta_encode(&cfg, &in, &w), MRTQ_EINVAL, "in->wgt_factor_out, in->wgt_factor_in");
  w.w[0] = 7, w.w[1] = 0;
  CHECK_REFUSED(mrtq_vta_decode(&cfg, &w, &in), MRTQ_EINVAL, "opcode field 5..7");
  w.w[0] = (uint64_t)MRTQ_VTA_LOAD | ((uint64_t)1 << 60); /* bit 60: unused in LOAD */
  CHECK_REFUSED(mrtq_vta_decode(&cfg, &w, &in), MRTQ_EINVAL, "outside the fields");
  w.w[0] = (uint64_t)MRTQ_VTA_FINISH | ((uint64_t)1 << 63), w.w[1] = 0; /* GEMM form: bit 63 unused */
  CHECK_REFUSED(mrtq_vta_decode(&cfg, &w, &in), MRTQ_EINVAL, "outside the fields");
  CHECK_REFUSED(mrtq_vta_decode(NULL, &w, &in), MRTQ_EINVAL, "cfg: NULL");
  CHECK_REFUSED(mrtq_vta_decode(&cfg, NULL, &in), MRTQ_EINVAL, "in: NULL");
  CHECK_REFUSED(mrtq_vta_decode(&cfg, &w, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_vta_encode(&cfg, NULL, &w), MRTQ_EINVAL, "in: NULL");
  CHECK_REFUSED(mrtq_vta_encode(&cfg, &in, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_vta_depths_of(&cfg, NULL), MRTQ_EINVAL, "d: NULL");
  bad.log_block_in = -1;
  CHECK_REFUSED(mrtq_vta_depths_of(&bad, &d), MRTQ_EINVAL, "cfg->log_block_in");
  {
    static const struct {
      int field, value;
      const char *why;
    } cases[] = {{0, 6, "cfg->log_inp_width"},     {1, -1, "cfg->log_wgt_width"},    {2, 6, "cfg->log_acc_width"},
                 {3, -1, "cfg->log_out_width"},    {4, 9, "cfg->log_batch"},         {5, 9, "cfg->log_block_in"},
                 {6, -1, "cfg->log_block_out"},    {7, 1, "cfg->log_uop_buff_size"}, {8, 40, "cfg->log_inp_buff_size"},
                 {9, 2, "cfg->log_wgt_buff_size"}, {10, 40, "cfg->log_acc_buff_size"},
                 /* the ends of int: the depth arithmetic must not wrap (found by fuzz_vta_isa) */
                 {7, INT_MIN, "cfg->log_uop_buff_size"}, {8, INT_MIN + 1, "cfg->log_inp_buff_size"},
                 {9, INT_MIN, "cfg->log_wgt_buff_size"}, {10, INT_MAX, "cfg->log_acc_buff_size"},
                 {7, INT_MAX, "cfg->log_uop_buff_size"}};
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      int *f[11];
      bad = cfg;
      f[0] = &bad.log_inp_width, f[1] = &bad.log_wgt_width, f[2] = &bad.log_acc_width, f[3] = &bad.log_out_width;
      f[4] = &bad.log_batch, f[5] = &bad.log_block_in, f[6] = &bad.log_block_out, f[7] = &bad.log_uop_buff_size;
      f[8] = &bad.log_inp_buff_size, f[9] = &bad.log_wgt_buff_size, f[10] = &bad.log_acc_buff_size;
      *f[cases[i].field] = cases[i].value;
      CHECK_REFUSED(mrtq_vta_depths_of(&bad, &d), MRTQ_EINVAL, cases[i].why);
      /* every function that takes a configuration passes the reason on, once */
      CHECK_REFUSED(mrtq_vta_encode(&bad, &in, &w), MRTQ_EINVAL, cases[i].why);
    }
  }
  /* SRAMs so deep that the GEMM fields no longer fit in 128 bits */
  big.log_uop_buff_size = 18, big.log_inp_buff_size = 20, big.log_wgt_buff_size = 24, big.log_acc_buff_size = 22;
  CHECK_EQ(mrtq_vta_depths_of(&big, &d), MRTQ_OK, "big depths");
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_GEMM;
  CHECK_REFUSED(mrtq_vta_encode(&big, &in, &w), MRTQ_ERANGE, "exceed 128 bits");
  w.w[0] = MRTQ_VTA_GEMM, w.w[1] = 0;
  CHECK_REFUSED(mrtq_vta_decode(&big, &w, &in), MRTQ_EINVAL, "exceed 128 bits");
  {
    mrtq_vta_uop u = {0, 0, 0};
    uint32_t word;
    CHECK_REFUSED(mrtq_vta_uop_encode(&big, &u, &word), MRTQ_EINVAL, "more than 32 bits");
    CHECK_REFUSED(mrtq_vta_uop_decode(&big, 0, &u), MRTQ_EINVAL, "more than 32 bits");
  }
}

static void test_disasm(void) {
  mrtq_vta_insn in;
  char buf[160], small[8];
  size_t n;
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_ALU, in.alu_opcode = MRTQ_VTA_ALU_ADD, in.use_imm = 1, in.imm = -3;
  in.uop_bgn = 0, in.uop_end = 1, in.iter_out = 4, in.iter_in = 8, in.dst_factor_out = 16, in.dst_factor_in = 1;
  in.pop_prev = 1, in.push_next = 1;
  n = mrtq_vta_disasm(&in, buf, sizeof buf);
  CHECK(strcmp(buf, "ALU ADD imm=-3 uop=[0,1) iter=4x8 dst=16,1 src=0,0 deps=pop_prev|push_next") == 0);
  CHECK(n == strlen(buf));
  CHECK(mrtq_vta_disasm(&in, small, sizeof small) == n && strlen(small) == 7 && memcmp(small, buf, 7) == 0);
  CHECK(mrtq_vta_disasm(&in, NULL, 0) == n);
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_LOAD, in.memory_type = MRTQ_VTA_MEM_INP, in.sram_base = 5, in.dram_base = 4096;
  in.y_size = 3, in.x_size = 14, in.x_stride = 14, in.y_pad_0 = 1, in.x_pad_1 = 1;
  mrtq_vta_disasm(&in, buf, sizeof buf);
  CHECK(strcmp(buf, "LOAD INP sram=5 dram=4096 y=3 x=14 stride=14 pad=1,0,0,1") == 0);
  in.opcode = 6;
  mrtq_vta_disasm(&in, buf, sizeof buf);
  CHECK(strcmp(buf, "INVALID") == 0);
}

int main(void) {
  TH_RUN(test_layout_vs_bitfields);
  TH_RUN(test_alu_positions);
  TH_RUN(test_uops);
  TH_RUN(test_depths_and_errors);
  TH_RUN(test_disasm);
  return th_finish("test_vta_isa");
}
