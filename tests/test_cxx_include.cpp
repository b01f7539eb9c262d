// The headers used from C++11: they must compile warning-free under
// -Wall -Wextra -Wpedantic -Werror and give the same results as in C.
#include <cstring>

#include "harness.h"
#include "mrtq.h"
#include "mrtq/vta.h"

static void test_cxx_calls(void) {
  mrtq_mult m = {0, 0};
  mrtq_qparams p;
  CHECK_EQ(mrtq_mult_q15(1.0 / 64, &m), MRTQ_OK, "q15");
  CHECK(m.mult == 16384 && m.shift == -5);  // the VTA delegate's own example (docs/anchors.md)
  // 100 * (1/64) = 1.5625: floor 1 (VTA), nearest 2
  CHECK_EQ(mrtq_mul_q15_vta(100, m), 1, "vta");
  CHECK_EQ(mrtq_mul_q15_rndnu(100, m), 2, "rndnu");
  CHECK_EQ(mrtq_requant_fp32(5, 0.5f, 0, -128, 127), 2, "2.5 to even");
  CHECK_EQ(mrtq_qparams_from_range(MRTQ_QS_SYMMETRIC, -1.0f, 1.0f, MRTQ_S8, 0, &p), MRTQ_OK, "qparams");
  CHECK(p.zp == 0 && p.qmin == -127 && p.qmax == 127);
  CHECK(std::strcmp(mrtq_status_str(MRTQ_OK), "ok") == 0);
  // mrtq/tflite.h from C++: ReLU6 at scale 0.48, zp -128 -> qmax -115 (6 / 0.48 = 12.5, away from zero)
  int32_t qlo = 0, qhi = 0;
  CHECK_EQ(mrtq_tflite_act_range(MRTQ_TFLITE_ACT_RELU6, 0.48f, -128, MRTQ_S8, &qlo, &qhi), MRTQ_OK, "act");
  CHECK(qlo == -128 && qhi == -115);
  // the optional VTA header compiles as C++ too: an ALU SHR with imm -3 puts 0xFFFD in bits 112..127
  mrtq_vta_config cfg = mrtq_vta_config_default();
  mrtq_vta_insn in;
  mrtq_vta_word w = {{0, 0}};
  std::memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_ALU;
  in.alu_opcode = MRTQ_VTA_ALU_SHR;
  in.use_imm = 1;
  in.imm = -3;
  CHECK_EQ(mrtq_vta_encode(&cfg, &in, &w), MRTQ_OK, "vta");
  CHECK((w.w[1] >> 48) == 0xFFFDu);
}

int main() {
  TH_RUN(test_cxx_calls);
  return th_finish("test_cxx_include");
}
