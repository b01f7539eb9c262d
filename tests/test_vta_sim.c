/* The VTA functional simulator (mrtq/vta.h): every instruction kind against
 * an oracle written here from the semantics (plain loops, 64-bit arithmetic
 * reduced mod 2^32), the dependency queues (out-of-order issue, deadlock),
 * bounds and profile errors, and a requantization program checked against
 * mrtq_mul_q15_vta on the CPU. */
#include <math.h>
#include <stdlib.h>

#include <limits.h>

#include "harness.h"
#include "mrtq.h"
#include "mrtq/vta.h"

static unsigned char scratch[600 * 1024];
static unsigned char dram[1 << 20];
static mrtq_vta_config cfg;

static void setup(mrtq_vta_sim *s, mrtq_vta_profile prof) {
  cfg = mrtq_vta_config_default();
  CHECK(mrtq_vta_sim_scratch_bytes(&cfg) <= sizeof scratch);
  CHECK_EQ(mrtq_vta_sim_init(&cfg, prof, scratch, sizeof scratch, dram, sizeof dram, s), MRTQ_OK, "init");
}

static mrtq_vta_insn mem_insn(uint32_t op, uint32_t mem, uint32_t sram, uint32_t dram_base, uint32_t y, uint32_t x,
                              uint32_t stride) {
  mrtq_vta_insn in;
  memset(&in, 0, sizeof in);
  in.opcode = op, in.memory_type = mem, in.sram_base = sram, in.dram_base = dram_base;
  in.y_size = y, in.x_size = x, in.x_stride = stride;
  return in;
}

static mrtq_vta_insn loop_insn(uint32_t op, uint32_t bgn, uint32_t end, uint32_t iout, uint32_t iin) {
  mrtq_vta_insn in;
  memset(&in, 0, sizeof in);
  in.opcode = op, in.uop_bgn = bgn, in.uop_end = end, in.iter_out = iout, in.iter_in = iin;
  return in;
}

static mrtq_status run(mrtq_vta_sim *s, const mrtq_vta_insn *ins, size_t n) {
  mrtq_vta_word w[64];
  size_t i;
  for (i = 0; i < n; i++)
    if (mrtq_vta_encode(&cfg, &ins[i], &w[i]) != MRTQ_OK) return MRTQ_ERANGE;
  return mrtq_vta_sim_run(w, n, s);
}

/* write micro-ops to DRAM at word offset `at` */
static void put_uops(size_t at, const mrtq_vta_uop *u, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) {
    uint32_t w = 0;
    CHECK_EQ(mrtq_vta_uop_encode(&cfg, &u[i], &w), MRTQ_OK, "uop");
    memcpy(dram + (at + i) * 4, &w, 4);
  }
}

static void test_load_padding(void) {
  mrtq_vta_sim s;
  mrtq_vta_insn in;
  size_t i, y, x, k;
  setup(&s, MRTQ_VTA_PROFILE_SIM);
  for (i = 0; i < 4096; i++) dram[i] = (unsigned char)(i * 7 + 3);
  /* 3 rows of 5 INP elements (16 bytes each), stride 9, padding 1 above, 2 below, 1 left, 3 right, at sram 4 */
  in = mem_insn(MRTQ_VTA_LOAD, MRTQ_VTA_MEM_INP, 4, 2, 3, 5, 9);
  in.y_pad_0 = 1, in.y_pad_1 = 2, in.x_pad_0 = 1, in.x_pad_1 = 3;
  CHECK_EQ(run(&s, &in, 1), MRTQ_OK, "load");
  for (y = 0; y < 6; y++)
    for (x = 0; x < 9; x++)
      for (k = 0; k < 16; k++) {
        int inside = y >= 1 && y < 4 && x >= 1 && x < 6;
        size_t e = 4 + y * 9 + x;
        int want = inside ? (int8_t)dram[(2 + (y - 1) * 9 + (x - 1)) * 16 + k] : 0;
        CHECK_EQ(s.inp[e * 16 + k], want, "y=%zu x=%zu k=%zu", y, x, k);
      }
  CHECK(s.load_bytes[MRTQ_VTA_MEM_INP] == 3 * 5 * 16);
  /* ACC_8BIT: bytes sign-extended into int32 lanes */
  in = mem_insn(MRTQ_VTA_LOAD, MRTQ_VTA_MEM_ACC_8BIT, 10, 1, 1, 2, 2);
  CHECK_EQ(run(&s, &in, 1), MRTQ_OK, "load acc8");
  for (k = 0; k < 32; k++) CHECK_EQ(s.acc[10 * 16 + k], (int8_t)dram[16 + k], "acc8 %zu", k);
}

static void test_gemm_and_reset(void) {
  mrtq_vta_sim s;
  mrtq_vta_insn prog[6];
  mrtq_vta_uop u[2] = {{0, 0, 0}, {1, 1, 1}};
  size_t i, o, k;
  setup(&s, MRTQ_VTA_PROFILE_SIM);
  for (i = 0; i < sizeof dram; i++) dram[i] = (unsigned char)(th_rand32() & 0xff);
  put_uops(0, u, 2);
  prog[0] = mem_insn(MRTQ_VTA_LOAD, MRTQ_VTA_MEM_UOP, 0, 0, 1, 2, 2);
  prog[1] = mem_insn(MRTQ_VTA_LOAD, MRTQ_VTA_MEM_INP, 0, 100, 1, 2, 2); /* inp entries 0,1 from DRAM element 100.. */
  prog[2] = mem_insn(MRTQ_VTA_LOAD, MRTQ_VTA_MEM_WGT, 0, 20, 1, 2, 2);  /* wgt entries 0,1 from element 20.. */
  prog[3] = mem_insn(MRTQ_VTA_LOAD, MRTQ_VTA_MEM_ACC, 0, 300, 1, 2, 2); /* acc entries 0,1 from element 300.. */
  prog[2].push_next = 1;                                                 /* load -> compute */
  prog[4] = loop_insn(MRTQ_VTA_GEMM, 0, 2, 1, 3);                         /* 3 accumulating passes */
  prog[4].pop_prev = 1;
  prog[5] = loop_insn(MRTQ_VTA_FINISH, 0, 0, 0, 0);
  CHECK_EQ(run(&s, prog, 6), MRTQ_OK, "gemm");
  for (i = 0; i < 2; i++)
    for (o = 0; o < 16; o++) {
      int64_t want;
      int32_t a0;
      memcpy(&a0, dram + (300 + i) * 64 + o * 4, 4);
      want = a0;
      for (k = 0; k < 16; k++)
        want += 3 * (int64_t)(int8_t)dram[(100 + i) * 16 + k] * (int8_t)dram[(20 + i) * 256 + o * 16 + k];
      CHECK_EQ(s.acc[i * 16 + o], (int32_t)(uint32_t)(uint64_t)want, "acc[%zu][%zu]", i, o);
    }
  CHECK(s.gemm_ops == 6 && s.finish_count == 1);
  prog[0] = loop_insn(MRTQ_VTA_GEMM, 0, 2, 1, 1);
  prog[0].reset = 1;
  CHECK_EQ(run(&s, prog, 1), MRTQ_OK, "reset");
  for (i = 0; i < 32; i++) CHECK_EQ(s.acc[i], 0, "reset %zu", i);
}

static int32_t o_alu(uint32_t op, int32_t a, int32_t b) {
  int64_t r;
  switch (op) {
    case MRTQ_VTA_ALU_MIN: return a < b ? a : b;
    case MRTQ_VTA_ALU_MAX: return a > b ? a : b;
    case MRTQ_VTA_ALU_ADD: r = (int64_t)a + b; break;
    case MRTQ_VTA_ALU_MUL: r = (int64_t)a * b; break;
    default: /* SHR */
      if (b >= 0) {
        int64_t d = (int64_t)1 << (b > 40 ? 40 : b), q = a / d;
        return (int32_t)((a % d != 0 && a < 0) ? q - 1 : q); /* floor */
      }
      r = b <= -32 ? 0 : (int64_t)a * ((int64_t)1 << -b);
      break;
  }
  r &= 0xffffffffLL; /* mod 2^32 */
  return (int32_t)(r >= 0x80000000LL ? r - 0x100000000LL : r);
}

/* Scratch at any address: the 32-bit SRAMs are aligned inside it (the old
 * code used them in place: misaligned int32 accesses, found by fuzz_vta_sim) */
static void test_misaligned_scratch(void) {
  static unsigned char buf[600 * 1024 + 8];
  size_t need, off;
  cfg = mrtq_vta_config_default();
  { /* the ends of int in a buffer size: 0 (no simulator), no int overflow on the way (found by review) */
    mrtq_vta_config c = cfg;
    c.log_uop_buff_size = INT_MIN;
    CHECK_EQ(mrtq_vta_sim_scratch_bytes(&c), 0, "INT_MIN");
    c = cfg, c.log_acc_buff_size = INT_MAX;
    CHECK_EQ(mrtq_vta_sim_scratch_bytes(&c), 0, "INT_MAX");
  }
  need = mrtq_vta_sim_scratch_bytes(&cfg);
  CHECK(need + 3 <= sizeof buf);
  for (off = 0; off < 4; off++) {
    mrtq_vta_sim s;
    mrtq_vta_uop u = {3, 0, 0};
    mrtq_vta_insn l = mem_insn(MRTQ_VTA_LOAD, MRTQ_VTA_MEM_UOP, 0, 0, 1, 1, 1), a = loop_insn(MRTQ_VTA_ALU, 0, 1, 1, 1);
    int k;
    memset(buf, 0xee, sizeof buf);
    CHECK_EQ(mrtq_vta_sim_init(&cfg, MRTQ_VTA_PROFILE_SIM, buf + off, need, dram, sizeof dram, &s), MRTQ_OK, "off %zu", off);
    CHECK(((uintptr_t)s.acc & 3u) == 0 && ((uintptr_t)s.uop & 3u) == 0);
    CHECK((unsigned char *)s.acc >= buf + off && (unsigned char *)s.wgt < buf + off + need);
    CHECK(buf[off + need] == 0xee); /* nothing past the scratch it was given */
    put_uops(0, &u, 1);
    CHECK_EQ(run(&s, &l, 1), MRTQ_OK, "uop load, off %zu", off);
    for (k = 0; k < 16; k++) s.acc[3 * 16 + k] = k - 8;
    a.alu_opcode = MRTQ_VTA_ALU_ADD, a.use_imm = 1, a.imm = -7;
    CHECK_EQ(run(&s, &a, 1), MRTQ_OK, "alu, off %zu", off);
    for (k = 0; k < 16; k++) CHECK_EQ(s.acc[3 * 16 + k], k - 8 - 7, "lane %d, off %zu", k, off);
  }
}

/* The work budget: exact at its boundary (work = iter_out * iter_in * uops
 * for compute, elements moved for LOAD / STORE), and a GEMM asking for 2^42
 * micro-op executions is refused before it runs instead of running for days. */
static void test_budget(void) {
  mrtq_vta_sim s;
  mrtq_vta_uop u[3] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
  mrtq_vta_insn l = mem_insn(MRTQ_VTA_LOAD, MRTQ_VTA_MEM_UOP, 0, 0, 1, 3, 3), a = loop_insn(MRTQ_VTA_ALU, 0, 3, 5, 7);
  mrtq_vta_insn g = loop_insn(MRTQ_VTA_GEMM, 0, 3, 5, 7), big = loop_insn(MRTQ_VTA_GEMM, 0, 8192, 8192, 8192);
  mrtq_vta_insn prog[2];
  setup(&s, MRTQ_VTA_PROFILE_SIM);
  put_uops(0, u, 3);
  a.alu_opcode = MRTQ_VTA_ALU_ADD, a.use_imm = 1, a.imm = 1;
  g.reset = 1, big.reset = 1;
  prog[0] = l, prog[1] = a; /* 3 elements loaded, then 5 * 7 * 3 = 105 micro-op executions */
  s.budget = 3 + 105;
  CHECK_EQ(run(&s, prog, 2), MRTQ_OK, "exactly the budget");
  CHECK_EQ(s.alu_ops, 105, "all of it ran");
  s.budget = 3 + 104, s.alu_ops = 0;
  CHECK_REFUSED(run(&s, prog, 2), MRTQ_ERANGE, "prog: the run would exceed sim->budget");
  CHECK_EQ(s.alu_ops, 0, "the ALU instruction did not start");
  CHECK_EQ(s.error_insn, 1, "the failing instruction");
  { /* a LOAD of nothing (x_size 0) costs nothing, padding or not */
    mrtq_vta_insn z = mem_insn(MRTQ_VTA_LOAD, MRTQ_VTA_MEM_UOP, 0, 0, 5, 0, 1);
    z.y_pad_0 = z.y_pad_1 = 3;
    prog[0] = z, prog[1] = a;
    s.budget = 105, s.alu_ops = 0;
    CHECK_EQ(run(&s, prog, 2), MRTQ_OK, "empty LOAD then 105 units");
    CHECK_EQ(s.alu_ops, 105, "ran");
  }
  s.budget = 105; /* budgets count per run: the GEMM alone fits */
  CHECK_EQ(run(&s, &g, 1), MRTQ_OK, "gemm");
  s.budget = (uint64_t)1 << 38;
  CHECK_REFUSED(run(&s, &big, 1), MRTQ_ERANGE, "sim->budget");
  CHECK_EQ(s.gemm_ops, 0, "nothing of the 2^39-unit GEMM ran");
}

static void test_alu_ops(void) {
  mrtq_vta_sim s;
  mrtq_vta_uop u = {5, 9, 0};
  int trial;
  setup(&s, MRTQ_VTA_PROFILE_SIM);
  put_uops(0, &u, 1);
  {
    mrtq_vta_insn l = mem_insn(MRTQ_VTA_LOAD, MRTQ_VTA_MEM_UOP, 0, 0, 1, 1, 1);
    CHECK_EQ(run(&s, &l, 1), MRTQ_OK, "uop");
  }
  for (trial = 0; trial < 3000; trial++) {
    mrtq_vta_insn in = loop_insn(MRTQ_VTA_ALU, 0, 1, 1, 1);
    int32_t before[16], src[16];
    int k;
    in.alu_opcode = (uint32_t)th_range(0, 4);
    in.use_imm = th_rand32() & 1;
    in.imm = (int32_t)(in.alu_opcode == MRTQ_VTA_ALU_SHR && th_rand32() % 2 ? th_range(-40, 40) : th_range(-32768, 32767));
    for (k = 0; k < 16; k++) {
      s.acc[5 * 16 + k] = before[k] = th_i32();
      s.acc[9 * 16 + k] = src[k] = in.alu_opcode == MRTQ_VTA_ALU_SHR ? (int32_t)th_range(-40, 40) : th_i32();
    }
    CHECK_EQ(run(&s, &in, 1), MRTQ_OK, "alu");
    for (k = 0; k < 16; k++)
      CHECK_EQ(s.acc[5 * 16 + k], o_alu(in.alu_opcode, before[k], in.use_imm ? in.imm : src[k]), "op %u a=%d b=%d",
               in.alu_opcode, before[k], in.use_imm ? in.imm : src[k]);
  }
}

static void test_store_truncates(void) {
  mrtq_vta_sim s;
  mrtq_vta_insn in;
  int k;
  setup(&s, MRTQ_VTA_PROFILE_SIM);
  for (k = 0; k < 32; k++) s.acc[7 * 16 + k] = th_i32();
  in = mem_insn(MRTQ_VTA_STORE, MRTQ_VTA_MEM_OUT, 7, 3, 2, 1, 5); /* two rows of one element, DRAM stride 5 */
  CHECK_EQ(run(&s, &in, 1), MRTQ_OK, "store");
  for (k = 0; k < 16; k++) {
    CHECK_EQ(dram[3 * 16 + k], (uint32_t)s.acc[7 * 16 + k] & 0xffu, "row0 %d", k);
    CHECK_EQ(dram[8 * 16 + k], (uint32_t)s.acc[8 * 16 + k] & 0xffu, "row1 %d", k);
  }
  in.y_pad_0 = 1;
  CHECK_REFUSED(run(&s, &in, 1), MRTQ_EINVAL, "STORE padding");
  CHECK(strstr(s.error, "STORE padding") != NULL && s.error_insn == 0);
  in = mem_insn(MRTQ_VTA_STORE, MRTQ_VTA_MEM_ACC, 0, 0, 1, 1, 1);
  CHECK_REFUSED(run(&s, &in, 1), MRTQ_EINVAL, "STORE memory_type");
}

static void test_dependencies(void) {
  mrtq_vta_sim s;
  mrtq_vta_insn p[3];
  setup(&s, MRTQ_VTA_PROFILE_SIM);
  /* compute issued first in the stream but waits for the load's token */
  p[0] = loop_insn(MRTQ_VTA_FINISH, 0, 0, 0, 0);
  p[0].pop_prev = 1;
  p[1] = mem_insn(MRTQ_VTA_LOAD, MRTQ_VTA_MEM_INP, 0, 0, 1, 1, 1);
  p[1].push_next = 1;
  CHECK_EQ(run(&s, p, 2), MRTQ_OK, "out of order");
  CHECK(s.finish_count == 1);
  /* nobody pushes: deadlock, reported with the waiting instruction */
  p[0] = loop_insn(MRTQ_VTA_FINISH, 0, 0, 0, 0);
  p[0].pop_next = 1;
  CHECK_REFUSED(run(&s, p, 1), MRTQ_EINVAL, "deadlock");
  CHECK(strstr(s.error, "deadlock") != NULL && s.error_insn == 0);
  /* store waits for compute, compute waits for store: deadlock */
  p[0] = loop_insn(MRTQ_VTA_FINISH, 0, 0, 0, 0);
  p[0].pop_next = 1, p[0].push_next = 1;
  p[1] = mem_insn(MRTQ_VTA_STORE, MRTQ_VTA_MEM_OUT, 0, 0, 1, 1, 1);
  p[1].pop_prev = 1, p[1].push_prev = 1;
  CHECK_REFUSED(run(&s, p, 2), MRTQ_EINVAL, "deadlock");
  /* a load module instruction cannot pop from a previous stage */
  p[0] = mem_insn(MRTQ_VTA_LOAD, MRTQ_VTA_MEM_INP, 0, 0, 1, 1, 1);
  p[0].pop_prev = 1;
  CHECK_REFUSED(run(&s, p, 1), MRTQ_EINVAL, "no previous stage");
  /* nor a store module instruction push to a next one */
  p[0] = mem_insn(MRTQ_VTA_STORE, MRTQ_VTA_MEM_OUT, 0, 0, 1, 1, 1);
  p[0].push_next = 1;
  CHECK_REFUSED(run(&s, p, 1), MRTQ_EINVAL, "no next stage");
}

static void test_bounds_and_profiles(void) {
  mrtq_vta_sim s;
  mrtq_vta_insn in;
  setup(&s, MRTQ_VTA_PROFILE_SIM);
  in = mem_insn(MRTQ_VTA_LOAD, MRTQ_VTA_MEM_INP, 0, (uint32_t)(sizeof dram / 16), 1, 1, 1); /* just past DRAM */
  CHECK_REFUSED(run(&s, &in, 1), MRTQ_ERANGE, "LOAD reads past sim->dram_bytes");
  in = mem_insn(MRTQ_VTA_LOAD, MRTQ_VTA_MEM_INP, 2047, 0, 1, 2, 2); /* INP has 2048 entries */
  CHECK_REFUSED(run(&s, &in, 1), MRTQ_ERANGE, "LOAD writes past the end of its SRAM");
  in = mem_insn(MRTQ_VTA_LOAD, MRTQ_VTA_MEM_OUT, 0, 0, 1, 1, 1); /* OUT cannot be loaded */
  CHECK_REFUSED(run(&s, &in, 1), MRTQ_EINVAL, "LOAD memory_type");
  in = mem_insn(MRTQ_VTA_STORE, MRTQ_VTA_MEM_OUT, 0, (uint32_t)(sizeof dram / 16), 1, 1, 1);
  CHECK_REFUSED(run(&s, &in, 1), MRTQ_ERANGE, "STORE writes past sim->dram_bytes");
  in = mem_insn(MRTQ_VTA_STORE, MRTQ_VTA_MEM_OUT, 2047, 0, 1, 2, 2); /* ACC has 2048 entries */
  CHECK_REFUSED(run(&s, &in, 1), MRTQ_ERANGE, "STORE reads past the end of ACC");
  in = loop_insn(MRTQ_VTA_ALU, 0, 1, 1, 2049); /* dst index 0..2048 runs past ACC (2048 entries) */
  in.dst_factor_in = 1, in.alu_opcode = MRTQ_VTA_ALU_ADD, in.use_imm = 1;
  CHECK_REFUSED(run(&s, &in, 1), MRTQ_ERANGE, "ACC destination index");
  in = loop_insn(MRTQ_VTA_ALU, 0, 1, 1, 2); /* source index 2047, 2048 */
  in.src_factor_in = 1, in.alu_opcode = MRTQ_VTA_ALU_ADD;
  {
    mrtq_vta_uop u = {0, 2047, 0};
    mrtq_vta_insn l = mem_insn(MRTQ_VTA_LOAD, MRTQ_VTA_MEM_UOP, 0, 0, 1, 1, 1);
    put_uops(0, &u, 1);
    CHECK_EQ(run(&s, &l, 1), MRTQ_OK, "uop");
    CHECK_REFUSED(run(&s, &in, 1), MRTQ_ERANGE, "ALU ACC source index");
    in = loop_insn(MRTQ_VTA_GEMM, 0, 1, 1, 2); /* INP index 2047, 2048 */
    in.src_factor_in = 1;
    CHECK_REFUSED(run(&s, &in, 1), MRTQ_ERANGE, "GEMM INP index");
    in = loop_insn(MRTQ_VTA_GEMM, 0, 1, 1, 2); /* WGT index 0, 1024 */
    in.wgt_factor_in = 1024 - 1, in.wgt_factor_out = 0;
    u.src = 0, u.wgt = 1;
    put_uops(0, &u, 1);
    CHECK_EQ(run(&s, &l, 1), MRTQ_OK, "uop");
    CHECK_REFUSED(run(&s, &in, 1), MRTQ_ERANGE, "GEMM WGT index");
  }
  in = loop_insn(MRTQ_VTA_GEMM, 8000, 8200, 1, 1); /* UOP has 8192 entries */
  CHECK_REFUSED(run(&s, &in, 1), MRTQ_ERANGE, "micro-op range");
  in = loop_insn(MRTQ_VTA_ALU, 0, 1, 1, 1);
  in.alu_opcode = 5;
  CHECK_REFUSED(run(&s, &in, 1), MRTQ_EINVAL, "ALU alu_opcode");
  {
    mrtq_vta_word w = {{7, 0}};
    CHECK_REFUSED(mrtq_vta_sim_run(&w, 1, &s), MRTQ_EINVAL, "undecodable instruction");
    CHECK(s.error_insn == 0 && strstr(s.error, "undecodable") != NULL);
    CHECK_REFUSED(mrtq_vta_sim_run(NULL, 1, &s), MRTQ_EINVAL, "prog: NULL");
    CHECK_REFUSED(mrtq_vta_sim_run(&w, 1, NULL), MRTQ_EINVAL, "sim: NULL");
    CHECK_EQ(mrtq_vta_sim_run(NULL, 0, &s), MRTQ_OK, "empty program");
  }
  in = loop_insn(MRTQ_VTA_ALU, 0, 1, 1, 1);
  in.alu_opcode = MRTQ_VTA_ALU_MUL, in.use_imm = 1, in.imm = 3;
  CHECK_EQ(run(&s, &in, 1), MRTQ_OK, "MUL on the simulator");
  setup(&s, MRTQ_VTA_PROFILE_HLS);
  CHECK_REFUSED(run(&s, &in, 1), MRTQ_EUNSUPPORTED, "ALU MUL on a target without a multiplier");
  /* HLS shift: amount 17 (low 5 bits signed = -15) shifts left by 15 */
  s.acc[0] = 3;
  in.alu_opcode = MRTQ_VTA_ALU_SHR, in.imm = 17;
  CHECK_EQ(run(&s, &in, 1), MRTQ_OK, "HLS SHR");
  CHECK_EQ(s.acc[0], 3 << 15, "HLS left");
  CHECK_REFUSED(mrtq_vta_sim_init(&cfg, MRTQ_VTA_PROFILE_SIM, scratch, 1000, dram, sizeof dram, &s), MRTQ_EINVAL,
                "scratch_bytes");
  CHECK_REFUSED(mrtq_vta_sim_init(&cfg, MRTQ_VTA_PROFILE_SIM, scratch, sizeof scratch, dram, sizeof dram, NULL),
                MRTQ_EINVAL, "sim: NULL");
  CHECK_REFUSED(mrtq_vta_sim_init(&cfg, MRTQ_VTA_PROFILE_SIM, NULL, sizeof scratch, dram, sizeof dram, &s), MRTQ_EINVAL,
                "scratch: NULL");
  CHECK_REFUSED(mrtq_vta_sim_init(&cfg, MRTQ_VTA_PROFILE_SIM, scratch, sizeof scratch, NULL, 16, &s), MRTQ_EINVAL,
                "dram: NULL");
  CHECK_REFUSED(mrtq_vta_sim_init(&cfg, (mrtq_vta_profile)4, scratch, sizeof scratch, dram, sizeof dram, &s),
                MRTQ_EINVAL, "profile");
  CHECK_REFUSED(mrtq_vta_sim_init(NULL, MRTQ_VTA_PROFILE_SIM, scratch, sizeof scratch, dram, sizeof dram, &s),
                MRTQ_EINVAL, "cfg: NULL");
  {
    mrtq_vta_config c16 = cfg;
    c16.log_out_width = 4;
    CHECK_EQ(mrtq_vta_sim_scratch_bytes(&c16), 0, "16-bit outputs");
    CHECK_EQ(mrtq_vta_sim_scratch_bytes(NULL), 0, "NULL");
    CHECK_REFUSED(mrtq_vta_sim_init(&c16, MRTQ_VTA_PROFILE_SIM, scratch, sizeof scratch, dram, sizeof dram, &s),
                  MRTQ_EUNSUPPORTED, "cfg: the simulator models 8-bit");
  }
  {
    /* a micro-op word with bits above its fields (ACC of 128 rows: 28 of 32 bits) */
    mrtq_vta_config small = mrtq_vta_config_default();
    mrtq_vta_insn l = mem_insn(MRTQ_VTA_LOAD, MRTQ_VTA_MEM_UOP, 0, 0, 1, 1, 1);
    mrtq_vta_word w[2];
    uint32_t bad = 0x80000000u;
    small.log_acc_buff_size = 13;
    CHECK_EQ(mrtq_vta_sim_init(&small, MRTQ_VTA_PROFILE_SIM, scratch, sizeof scratch, dram, sizeof dram, &s), MRTQ_OK,
             "small init");
    memcpy(dram, &bad, 4);
    in = loop_insn(MRTQ_VTA_ALU, 0, 1, 1, 1);
    CHECK_EQ(mrtq_vta_encode(&small, &l, &w[0]), MRTQ_OK, "encode");
    CHECK_EQ(mrtq_vta_encode(&small, &in, &w[1]), MRTQ_OK, "encode");
    CHECK_REFUSED(mrtq_vta_sim_run(w, 2, &s), MRTQ_EINVAL, "micro-op has bits set above");
    CHECK(s.error_insn == 1);
  }
}

/* Random instruction streams (every field random, then loop counts and sizes
 * cut small so a run stays short) over a DRAM buffer of exactly 64 KiB on the
 * heap: every run ends with a status, never a crash or an access outside the
 * buffers (the sanitizer build checks), and a failure names its reason. */
static void test_random_programs(void) {
  mrtq_vta_sim s;
  const size_t dram_bytes = 64 * 1024;
  unsigned char *d = (unsigned char *)malloc(dram_bytes);
  int trial, ok = 0, failed = 0, op, bit;
  uint64_t used[5][2]; /* per opcode: the bits of its fields (the decoder refuses any other) */
  if (!d) return;
  cfg = mrtq_vta_config_default();
  for (op = 0; op < 5; op++) {
    used[op][0] = 7u, used[op][1] = 0;
    for (bit = 3; bit < 128; bit++) {
      mrtq_vta_word w;
      mrtq_vta_insn in;
      w.w[0] = (uint64_t)op, w.w[1] = 0;
      w.w[bit / 64] |= (uint64_t)1 << (bit % 64);
      if (mrtq_vta_decode(&cfg, &w, &in) == MRTQ_OK) used[op][bit / 64] |= (uint64_t)1 << (bit % 64);
    }
  }
  CHECK(used[MRTQ_VTA_LOAD][0] >> 58 == 0 && (used[MRTQ_VTA_GEMM][0] >> 63) == 0); /* the documented gaps */
  for (trial = 0; trial < 20000; trial++) {
    mrtq_vta_word w[8];
    size_t n = (size_t)th_range(1, 8), i;
    mrtq_status st;
    if (trial % 500 == 0) {
      size_t k;
      for (k = 0; k < dram_bytes; k++) d[k] = (unsigned char)th_rand32();
    }
    CHECK_EQ(mrtq_vta_sim_init(&cfg, (mrtq_vta_profile)(trial % 4), scratch, sizeof scratch, d, dram_bytes, &s),
             MRTQ_OK, "init");
    for (i = 0; i < n; i++) {
      mrtq_vta_insn in;
      w[i].w[0] = th_rand64(), w[i].w[1] = th_rand64();
      op = (int)th_range(0, 4); /* valid opcodes, only their fields' bits (the other bits are tested above) */
      w[i].w[0] = ((w[i].w[0] & used[op][0]) & ~(uint64_t)7) | (uint64_t)op, w[i].w[1] &= used[op][1];
      if (th_rand32() % 16u == 0) w[i].w[0] |= 7u; /* now and then an undecodable word */
      memset(&in, 0, sizeof in);
      if (mrtq_vta_decode(&cfg, &w[i], &in) == MRTQ_OK) {
        in.iter_out &= 7u, in.iter_in &= 7u, in.uop_end = in.uop_bgn + (in.uop_end & 7u);
        in.x_size &= 31u, in.y_size &= 7u;
        if (th_rand32() % 4u) { /* often in range and without tokens */
          in.dram_base &= 0xffu, in.sram_base &= 0x7ffu, in.memory_type %= 6u;
          in.pop_prev = in.pop_next = in.push_prev = in.push_next = 0;
          in.dst_factor_out &= 3u, in.dst_factor_in &= 3u, in.src_factor_out &= 3u, in.src_factor_in &= 3u;
          in.x_stride = in.x_size;
        }
        if (mrtq_vta_encode(&cfg, &in, &w[i]) != MRTQ_OK) w[i].w[0] = 3; /* FINISH */
      }
    }
    st = mrtq_vta_sim_run(w, n, &s);
    CHECK(st == MRTQ_OK || st == MRTQ_EINVAL || st == MRTQ_ERANGE || st == MRTQ_EUNSUPPORTED);
    if (st != MRTQ_OK) CHECK(s.error[0] != 0 && s.error_insn < n);
    ok += st == MRTQ_OK, failed += st != MRTQ_OK;
  }
  CHECK(ok > 1000 && failed > 1000);
  printf("  random programs: %d ran, %d refused with a reason\n", ok, failed);
  free(d);
}

/* The delegate's requant sequence on 16 lanes -- MUL imm, SHR imm (15 - shift),
 * ADD imm zp, MIN 127, MAX -128, STORE -- equals mrtq_mul_q15_vta + zp + clamp
 * computed on the CPU. */
static void test_requant_program(void) {
  mrtq_vta_sim s;
  int trial;
  for (trial = 0; trial < 300; trial++) {
    mrtq_vta_insn p[8];
    mrtq_vta_uop u = {0, 0, 0};
    mrtq_mult m = {0, 0};
    int32_t x[16], zp = (int32_t)th_range(-128, 127);
    int k, n = 0;
    setup(&s, MRTQ_VTA_PROFILE_SIM);
    while (m.mult == 0) mrtq_mult_q15(ldexp(0.5 + (double)(th_rand32() >> 1) / 4294967296.0, (int)th_range(-14, 0)), &m);
    for (k = 0; k < 16; k++) x[k] = (trial & 1) ? th_i32() : (int32_t)th_range(-70000, 70000);
    memcpy(dram + 64, x, sizeof x); /* ACC element 1 */
    put_uops(0, &u, 1);
    p[n++] = mem_insn(MRTQ_VTA_LOAD, MRTQ_VTA_MEM_UOP, 0, 0, 1, 1, 1);
    p[n++] = mem_insn(MRTQ_VTA_LOAD, MRTQ_VTA_MEM_ACC, 0, 1, 1, 1, 1);
    p[n] = loop_insn(MRTQ_VTA_ALU, 0, 1, 1, 1), p[n].alu_opcode = MRTQ_VTA_ALU_MUL, p[n].use_imm = 1, p[n++].imm = m.mult;
    p[n] = loop_insn(MRTQ_VTA_ALU, 0, 1, 1, 1), p[n].alu_opcode = MRTQ_VTA_ALU_SHR, p[n].use_imm = 1, p[n++].imm = 15 - m.shift;
    p[n] = loop_insn(MRTQ_VTA_ALU, 0, 1, 1, 1), p[n].alu_opcode = MRTQ_VTA_ALU_ADD, p[n].use_imm = 1, p[n++].imm = zp;
    p[n] = loop_insn(MRTQ_VTA_ALU, 0, 1, 1, 1), p[n].alu_opcode = MRTQ_VTA_ALU_MIN, p[n].use_imm = 1, p[n++].imm = 127;
    p[n] = loop_insn(MRTQ_VTA_ALU, 0, 1, 1, 1), p[n].alu_opcode = MRTQ_VTA_ALU_MAX, p[n].use_imm = 1, p[n].imm = -128;
    p[n++].push_next = 1;
    p[n] = mem_insn(MRTQ_VTA_STORE, MRTQ_VTA_MEM_OUT, 0, 2000, 1, 1, 1), p[n++].pop_prev = 1;
    CHECK_EQ(run(&s, p, (size_t)n), MRTQ_OK, "program");
    for (k = 0; k < 16; k++) {
      int64_t v = (int64_t)mrtq__wrap32((uint32_t)mrtq_mul_q15_vta(x[k], m) + (uint32_t)zp);
      int32_t want = (int32_t)(v < -128 ? -128 : v > 127 ? 127 : v);
      CHECK_EQ((int8_t)dram[2000 * 16 + k], want, "x=%d mult=%d shift=%d zp=%d", x[k], m.mult, m.shift, zp);
    }
  }
}

int main(void) {
  TH_RUN(test_load_padding);
  TH_RUN(test_gemm_and_reset);
  TH_RUN(test_misaligned_scratch);
  TH_RUN(test_budget);
  TH_RUN(test_alu_ops);
  TH_RUN(test_store_truncates);
  TH_RUN(test_dependencies);
  TH_RUN(test_bounds_and_profiles);
  TH_RUN(test_requant_program);
  TH_RUN(test_random_programs);
  return th_finish("test_vta_sim");
}
