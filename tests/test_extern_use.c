/* The MRTQ_EXTERN link test (mrtq/common.h, "Linkage"): three translation
 * units, all with MRTQ_EXTERN; only test_extern_impl.c also defines
 * MRTQ_IMPLEMENTATION. This unit and test_extern_use2.c get declarations
 * only (tests/packaging.sh checks on the object file that no public body is
 * compiled into such a unit). The program must link with one definition of
 * each function -- the same address from every unit -- and the functions of
 * several modules must give the values stated in docs/semantics.md, which are
 * checked by hand there. A refusal must reach the hook the implementation
 * unit defined. */
#define MRTQ_EXTERN
#include "harness.h"
#include "mrtq.h"
#include "mrtq/vta.h"

typedef int32_t (*extern_srdhm_fn)(int32_t, int32_t);
typedef const char *(*extern_status_str_fn)(mrtq_status);
extern_srdhm_fn extern_impl_srdhm(void);
extern_status_str_fn extern_impl_status_str(void);
extern_srdhm_fn extern_use2_srdhm(void);
extern_status_str_fn extern_use2_status_str(void);
int32_t extern_use2_requant(int32_t x, double scale);
int extern_use2_acc_depth(void);
void extern_refused(int code, const char *why);

/* The implementation unit's MRTQ_ON_ERROR lands here: keep the reason the
 * way harness.h's own hook does, so CHECK_REFUSED works across units. */
void extern_refused(int code, const char *why) {
  th_why = why;
  th_why_code = code;
  th_why_count++;
}

static void test_one_definition(void) {
  extern_srdhm_fn here = mrtq_srdhm;
  extern_status_str_fn here_str = mrtq_status_str;
  /* static inline would give each unit its own copy at its own address */
  CHECK(here == extern_impl_srdhm());
  CHECK(here == extern_use2_srdhm());
  CHECK(here_str == extern_impl_status_str());
  CHECK(here_str == extern_use2_status_str());
}

static void test_common(void) {
  int32_t lo = 0, hi = 0;
  size_t bytes = 0;
  CHECK(strcmp(mrtq_status_str(MRTQ_OK), "ok") == 0);
  CHECK(strcmp(mrtq_status_str(MRTQ_EINVAL), "invalid argument") == 0);
  CHECK(strcmp(mrtq_status_str((mrtq_status)99), "unknown status") == 0);
  CHECK_EQ(mrtq_dtype_bits(MRTQ_S4), 4, "s4");
  CHECK_EQ(mrtq_dtype_bits(MRTQ_S16), 16, "s16");
  CHECK(strcmp(mrtq_dtype_str(MRTQ_U8), "u8") == 0);
  CHECK_EQ(mrtq_dtype_range(MRTQ_S16, &lo, &hi), MRTQ_OK, "s16");
  CHECK_EQ(lo, -32768, "s16");
  CHECK_EQ(hi, 32767, "s16");
  CHECK_EQ(mrtq_dtype_bytes(MRTQ_S4, 5, &bytes), MRTQ_OK, "5 x s4");
  CHECK_EQ(bytes, 3, "5 nibbles take 3 bytes");
  /* refusals report through the implementation unit's hook */
  CHECK_REFUSED(mrtq_dtype_range((mrtq_dtype)0, &lo, &hi), MRTQ_EINVAL, "t: not an mrtq_dtype");
  CHECK_REFUSED(mrtq_dtype_bytes(MRTQ_S32, SIZE_MAX / 2, &bytes), MRTQ_ERANGE, "n:");
  CHECK_EQ(lo, -32768, "a refusal writes nothing");
  CHECK_EQ(bytes, 3, "a refusal writes nothing");
}

static void test_fixedpoint_requant(void) {
  mrtq_mult m31 = {0, 0}, m15 = {0, 0}, m64 = {0, 0};
  /* semantics.md section 11: 0.375 -> Q31 {1610612736, -1}, Q15 {24576, -1} */
  CHECK_EQ(mrtq_mult_q31(0.375, &m31), MRTQ_OK, "0.375");
  CHECK_EQ(m31.mult, 1610612736, "0.375");
  CHECK_EQ(m31.shift, -1, "0.375");
  CHECK_EQ(mrtq_mult_q15(0.375, &m15), MRTQ_OK, "0.375");
  CHECK_EQ(m15.mult, 24576, "0.375");
  CHECK_EQ(m15.shift, -1, "0.375");
  CHECK_EQ(mrtq_mult_q15(1.0 / 64, &m64), MRTQ_OK, "1/64");
  CHECK_EQ(m64.mult, 16384, "1/64 (the VTA delegate's encoding)");
  CHECK_EQ(m64.shift, -5, "1/64");
  /* 6 x 0.375 = 2.25: double rounding 3 (4.5 up, then 2.5 away), single 2;
     -6 x 0.375: VTA floor -3, nudge -2 */
  CHECK_EQ(mrtq_mul_q31_dbl(6, m31), 3, "6 x 0.375");
  CHECK_EQ(mrtq_mul_q31_rndnu(6, m31), 2, "6 x 0.375");
  CHECK_EQ(mrtq_mul_q15_vta(-6, m15), -3, "-6 x 0.375");
  CHECK_EQ(mrtq_mul_q15_rndnu(-6, m15), -2, "-6 x 0.375");
  CHECK_EQ(mrtq_srdhm(INT32_MIN, INT32_MIN), INT32_MAX, "the one overflow");
  CHECK_EQ(mrtq_srdhm(3, 1 << 30), 2, "1.5 up");
  CHECK_EQ(mrtq_srdhm(-3, 1 << 30), -1, "-1.5 up");
  CHECK_EQ(mrtq_rdivpot(-3, 1), -2, "-1.5 away");
  CHECK_EQ(mrtq_rshift_rndnu(-3, 1), -1, "-1.5 up");
  CHECK_EQ(mrtq_rshift_clip(INT32_MAX, 1, 8), 127, "clip to 8 bits");
  /* fp32: 5 x 0.5 = 2.5 -> 2 (ties to even); quantize 2.5 / 1 -> 2 */
  CHECK_EQ(mrtq_requant_fp32(5, 0.5f, 0, -128, 127), 2, "2.5");
  CHECK_EQ(mrtq_quantize_f32(2.5f, 1.0f, 0, -128, 127), 2, "2.5");
  /* the same function through the second user unit */
  CHECK_EQ(extern_use2_requant(6, 0.25), 2, "1.5 up");
  CHECK_EQ(extern_use2_requant(-6, 0.25), -1, "-1.5 up");
}

static void test_precision(void) {
  CHECK_EQ(mrtq_bitlen(255), 8, "255");
  CHECK_EQ(mrtq_prec_conv(8, 8, 9), 20, "8 + 8 + bitlen(9)");
  CHECK_EQ(mrtq_prec_max_k32(8, 8), 65535, "2^16 - 1");
}

static void test_vta(void) {
  mrtq_vta_config c = mrtq_vta_config_default();
  mrtq_vta_depths d = {0, 0, 0, 0};
  mrtq_vta_insn in, back = {0};
  mrtq_vta_word w;
  /* tvm-vta's default: UOP 8192, INP 2048, WGT 1024, ACC 2048 entries */
  CHECK_EQ(mrtq_vta_depths_of(&c, &d), MRTQ_OK, "default");
  CHECK_EQ(d.uop, 13, "uop");
  CHECK_EQ(d.inp, 11, "inp");
  CHECK_EQ(d.wgt, 10, "wgt");
  CHECK_EQ(d.acc, 11, "acc");
  CHECK_EQ(extern_use2_acc_depth(), 11, "acc, second unit");
  /* ALU ADD imm -3: opcode in bits 0-2, alu_opcode 108-110, use_imm 111,
     imm 112-127 (tvm-vta hw_spec.h) */
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_ALU, in.alu_opcode = MRTQ_VTA_ALU_ADD, in.use_imm = 1, in.imm = -3;
  in.uop_end = 1, in.iter_out = 1, in.iter_in = 1;
  CHECK_EQ(mrtq_vta_encode(&c, &in, &w), MRTQ_OK, "encode");
  CHECK_EQ(w.w[0] & 7, 4, "opcode");
  CHECK_EQ((w.w[1] >> 44) & 7, 2, "alu_opcode");
  CHECK_EQ((w.w[1] >> 47) & 1, 1, "use_imm");
  CHECK_EQ(w.w[1] >> 48, 0xFFFD, "imm");
  CHECK_EQ(mrtq_vta_decode(&c, &w, &back), MRTQ_OK, "decode");
  CHECK_EQ(back.imm, -3, "imm");
  CHECK_EQ(back.alu_opcode, MRTQ_VTA_ALU_ADD, "alu_opcode");
}

int main(void) {
  TH_RUN(test_one_definition);
  TH_RUN(test_common);
  TH_RUN(test_fixedpoint_requant);
  TH_RUN(test_precision);
  TH_RUN(test_vta);
  return th_finish("test_extern");
}
