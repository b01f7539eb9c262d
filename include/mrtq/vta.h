/* mrtq/vta.h -- the VTA accelerator backend (optional: mrtq.h does not
 * include it; it adds no dependency beyond mrtq/requant.h).
 *
 * Contents, in this order (declarations with their contracts first, bodies
 * after; docs/vta.md states the semantics in full):
 *   1. configuration and instruction set: encode / decode of the 128-bit
 *      instructions and 32-bit micro-ops, bit-exact with apache/tvm-vta's
 *      layout (include/vta/hw_spec.h), and a disassembler;
 *   2. a functional simulator (tvm-vta's src/sim/sim_driver.cc semantics,
 *      made total) with target profiles;
 *   3. requant plans: the ALU steps that requantize an int32 accumulator;
 *   4. a program builder;
 *   5. drivers: the VTA TFLite delegate's quantized ADD, and CONV2D.
 *
 * Instruction layout rule (tvm-vta declares the instructions as C bitfields
 * on two uint64_t words): fields are packed from bit 0 upward in declaration
 * order, and a field that would cross a 64-bit boundary starts at the next
 * word instead. So LOAD/STORE leave bits 58..63 unused and GEMM/ALU bit 63
 * (with the default configuration). Field widths follow the configuration.
 *
 * Argument order (docs/api.md): descriptors (configuration, plan, options)
 * first, then inputs, then what the call writes: scratch buffers, the
 * simulator or program it updates, and result buffers last. A function that
 * fills a struct (*_init, *_build, *_of) takes it last.
 *
 * Errors: every refusal returns its mrtq_status and reports the argument and
 * the rule through MRTQ_ON_ERROR (mrtq/common.h). The simulator also keeps
 * the failing instruction's index and the same reason in sim->error; a
 * program under construction keeps its first error in prog->status; a conv
 * plan that does not fit the SRAMs also writes plan->why. */
#ifndef MRTQ_VTA_H
#define MRTQ_VTA_H

#include "requant.h"

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
 *  - FINISH counts.
 * Three modules (load, compute, store) run their instructions in order;
 * pop/push flags move tokens between neighbours (load <-> compute <->
 * store). A module waits while a token it pops is missing; if no module can
 * advance, the program would deadlock and the run stops with MRTQ_EINVAL.
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

/* ---- 3. requant plans ----
 * A plan is the list of ALU steps that requantizes one int32 accumulator per
 * lane into an 8-bit value held in the low byte of the lane (STORE truncates),
 * built from a Q15 multiplier {mult, shift} (scale = mult * 2^(shift - 15),
 * as mrtq_mult_q15 gives it), a zero point and clamp bounds. docs/vta.md
 * gives the exact value of every plan; mrtq_vta_rq_ref states it in C. */

enum { MRTQ_VTA_ROUND_FLOOR = 0, MRTQ_VTA_ROUND_NUDGE = 1 };
/* How the constant multiply is realized. */
enum { MRTQ_VTA_BY_MUL = 0, MRTQ_VTA_BY_SHIFT_ADD = 1, MRTQ_VTA_BY_POW2 = 2 };
/* A step is one ALU instruction over the data rows, or SAVE: copy the data
 * rows into the scratch rows (a GEMM reset of the scratch, then ALU ADD). */
enum { MRTQ_VTA_STEP_ALU = 0, MRTQ_VTA_STEP_SAVE = 1 };
/* The second operand of an ALU step: the immediate, the scratch rows (the
 * saved copy), or parameter row `imm` of the lane's channel block. */
enum { MRTQ_VTA_OPND_IMM = 0, MRTQ_VTA_OPND_COPY = 1, MRTQ_VTA_OPND_PARAM = 2 };

/* One step of a plan (written by mrtq_vta_rq_plan_build; a SAVE step has
 * every other field 0). */
typedef struct mrtq_vta_step {
  int kind, alu_opcode, operand;
  int32_t imm; /* immediate (16-bit signed), or parameter row index */
  int on_copy; /* the destination is the scratch rows (and OPND_COPY then names the data rows) */
} mrtq_vta_step;

#define MRTQ_VTA_MAX_STEPS 64

/* Options of a plan. Every field is read in every mode, or must be left at
 * its default where it does not apply (allow_pow2 on a target with MUL,
 * in_bits other than 32 in delegate mode are refused). */
typedef struct mrtq_vta_rq_opts {
  mrtq_vta_profile target; /* what the program must run on */
  int rounding;            /* MRTQ_VTA_ROUND_FLOOR or MRTQ_VTA_ROUND_NUDGE */
  int in_bits;             /* accumulator precision: x in [-2^(b-1), 2^(b-1) - 1], b in [1, 32] */
  int allow_pow2;          /* targets without MUL: may replace the scale by its nearest power of two */
  int delegate;            /* emit exactly the VTA delegate's MUL, SHR 15 - shift, ADD zp, MIN, MAX */
} mrtq_vta_rq_opts;

/* A plan (written by mrtq_vta_rq_plan_build; read by the emitters, the
 * evaluators and the drivers). */
typedef struct mrtq_vta_rq_plan {
  mrtq_vta_rq_opts opts;
  int method;          /* MRTQ_VTA_BY_* actually used */
  int per_channel;     /* 1: multipliers and shifts come from parameter rows */
  int nparams;         /* parameter rows per channel block */
  int pre_shift;       /* r: floor shift before the multiply, so the product fits 32 bits */
  int wide;            /* 1: the exact product in two halves instead of a pre-shift (see below) */
  int32_t mult;        /* per tensor: the multiplier applied (M'), 1 for POW2 */
  int shift;           /* per tensor: the shift after the multiply (k'), negative = left */
  int32_t zp, qmin, qmax;
  int nsteps;
  mrtq_vta_step step[MRTQ_VTA_MAX_STEPS];
} mrtq_vta_rq_plan;

/* Defaults: functional simulator, floor rounding, 32-bit accumulator, no
 * power of two, not delegate mode. */
MRTQ_API mrtq_vta_rq_opts mrtq_vta_rq_opts_default(void);

/* Build a requant plan for nch channels (nch == 1: per tensor, everything in
 * immediates; nch > 1: per channel, multipliers and shifts in parameter rows,
 * see mrtq_vta_rq_param_rows) with multipliers m[0..nch) from mrtq_mult_q15,
 * output zero point zp and bounds [qmin, qmax].
 *
 * The program per lane: SHR r (pre-shift, only if the product x * M could
 * leave int32 for a b-bit accumulator: r = smallest with 2^(b-1-r) * M < 2^31),
 * the multiply (MUL M', or SAVE + SHR/ADD steps for the binary digits of M',
 * or nothing for POW2), the shift (floor: SHR k'; nudge: SHR k'-1, ADD 1,
 * SHR 1), then ADD zp, MIN qmax, MAX qmin. Per tensor, trailing zero bits of M
 * are folded into the shift (exact). On a target with MUL, when a pre-shift
 * would be needed but every k' >= 16 (17 for nudge), the plan instead forms
 * the exact floor(x M / 2^16) from two halves of x (plan->wide: 11 more ALU
 * steps and the scratch rows), losing nothing for any 32-bit x. `delegate`
 * reproduces the VTA TFLite delegate's five instructions for any
 * {mult, shift} with mult in int16 (MUL's immediate) and 15 - shift in
 * [-31, 31] (wrapping as it does).
 *
 * No step wraps for any b-bit x outside delegate mode: a plan whose nudge
 * `ADD 1` or whose `ADD zp` could leave int32 for some x in the declared
 * range is refused (MRTQ_ERANGE, naming o->in_bits or zp); a smaller in_bits
 * or zp then builds.
 *
 * Targets without MUL (HLS, Chisel) use the binary shift-add form per tensor,
 * or, when allow_pow2 is set, the nearest power of two (the method is reported
 * in plan->method); per channel they need allow_pow2.
 * Errors: o, m or plan NULL, nch == 0, o->target / o->rounding outside their
 * enums, o->in_bits outside [1, 32], qmin > qmax, allow_pow2 on a target with
 * MUL, delegate with in_bits != 32 -> MRTQ_EINVAL; [qmin, qmax] not within
 * [-128, 127] or [0, 255], zp outside 16 bits, a multiplier outside
 * [16384, 32767] or shift outside [-15, 15] (mrtq_mult_q15 of scales in
 * [2^-16, 2^15)), a scale the plan cannot carry (a shift that would have to
 * turn left after the pre-shift; a left POW2 shift that could wrap), a step
 * that could wrap (above), more than
 * MRTQ_VTA_MAX_STEPS steps -> MRTQ_ERANGE; `delegate` on a target without MUL,
 * per channel or with nudge, per channel without MUL or allow_pow2 ->
 * MRTQ_EUNSUPPORTED. */
MRTQ_API mrtq_status mrtq_vta_rq_plan_build(const mrtq_vta_rq_opts *o, const mrtq_mult *m, size_t nch, int32_t zp,
                                            int32_t qmin, int32_t qmax, mrtq_vta_rq_plan *plan);

/* The parameter rows of a per-channel plan: for each channel block j (channels
 * j*BLOCK_OUT .. +BLOCK_OUT), plan->nparams rows of batch*BLOCK_OUT int32 lanes,
 * lane l holding the value for channel j*BLOCK_OUT + l % BLOCK_OUT: M_c (MUL),
 * the shift (k'_c, or k'_c - 1 for nudge; on HLS split over two rows of at most
 * 15). Channels past nch get multiplier 0. rows must hold
 * ceil(nch / BLOCK_OUT) * nparams * batch * BLOCK_OUT values.
 * Errors: NULL, an invalid configuration, a per-tensor plan -> MRTQ_EINVAL; a
 * channel the plan cannot carry -> MRTQ_ERANGE. */
MRTQ_API mrtq_status mrtq_vta_rq_param_rows(const mrtq_vta_config *cfg, const mrtq_vta_rq_plan *plan,
                                            const mrtq_mult *m, size_t nch, int32_t *rows);

/* What a plan's steps compute for one lane, instruction by instruction, with
 * the ALU semantics of the plan's target (the CPU statement of a program):
 * x the accumulator, params the lane's parameter values (per channel) or
 * NULL (a parameter then reads as 0). Equal to the simulator's result on
 * every input; tests also prove it equal to mrtq_vta_rq_ref (the formula).
 * plan must come from mrtq_vta_rq_plan_build. */
MRTQ_API int32_t mrtq_vta_rq_steps_eval(const mrtq_vta_rq_plan *plan, int32_t x, const int32_t *params);

/* The value a plan gives for accumulator x of a channel with multiplier m, as
 * a formula (exact integer math, no instructions):
 *   delegate: t = mrtq_mul_q15_vta(x, m) + zp (mod 2^32), min(t, qmax) then
 *             max(., qmin);
 *   otherwise with r, M', k' of the channel: x' = floor(x / 2^r),
 *     y = floor(x' M' / 2^k') (floor) or floor(x' M' / 2^k' + 1/2) (nudge,
 *     k' >= 1; ties toward +infinity), x' M' 2^-k' for k' <= 0; result
 *     clamp(y + zp, qmin, qmax).
 * When r = 0 and the method is MUL or SHIFT_ADD this is
 * clamp(mrtq_mul_q15_vta(x, m) + zp) (floor, where x M fits int32) and
 * clamp(mrtq_mul_q15_rndnu(x, m) + zp) (nudge): the scalar core exactly.
 * x outside the plan's in_bits has no meaning (the program may wrap); a
 * per-channel m the plan cannot carry gives 0. */
MRTQ_API int32_t mrtq_vta_rq_ref(const mrtq_vta_rq_plan *plan, mrtq_mult m, int32_t x);

/* ---- 4. programs ----
 * A program under construction: encoded instructions and a micro-op table
 * (encoded, deduplicated) in caller buffers. Instruction 0 is kept for the
 * LOAD of the micro-op table (mrtq_vta_prog_finish fills it in). Errors are
 * sticky: the first one is kept in prog->status (and reported where it
 * arose) and later calls do nothing. Set up by mrtq_vta_prog_init only. */
typedef struct mrtq_vta_prog {
  mrtq_vta_config cfg;
  mrtq_vta_word *words;
  size_t cap, n;
  uint32_t *uops;
  size_t uop_cap, nuop;
  mrtq_status status;
} mrtq_vta_prog;

/* Start a program into words[0, cap) and uops[0, uop_cap). Errors
 * (MRTQ_EINVAL): cfg, words, uops or p NULL, cap 0, an invalid configuration. */
MRTQ_API mrtq_status mrtq_vta_prog_init(const mrtq_vta_config *cfg, mrtq_vta_word *words, size_t cap,
                                        uint32_t *uops, size_t uop_cap, mrtq_vta_prog *p);

/* Append an instruction; returns its index (0 after an error: the
 * instruction buffer full -> MRTQ_ERANGE, or the encoder's status). */
MRTQ_API size_t mrtq_vta_prog_push(const mrtq_vta_insn *in, mrtq_vta_prog *p);

/* Index of a micro-op in the table (added if new; 0 after an error: the
 * encoder's status, or the table full -> MRTQ_ERANGE). */
MRTQ_API uint32_t mrtq_vta_prog_uop(uint32_t dst, uint32_t src, uint32_t wgt, mrtq_vta_prog *p);

/* OR dependency flags into instruction i (1 <= i < p->n; others:
 * MRTQ_EINVAL in p->status). */
MRTQ_API void mrtq_vta_prog_deps(size_t i, int pop_prev, int pop_next, int push_prev, int push_next,
                                 mrtq_vta_prog *p);

/* Emit a plan over ACC rows [dst, dst + rows): scratch rows [copy, copy + rows)
 * (used by SAVE), parameter rows from `param` (per channel: all rows use the
 * same channel block; emit once per block). Returns the index of the last
 * instruction emitted (0 on error, see prog->status; plan or p NULL ->
 * MRTQ_EINVAL). */
MRTQ_API size_t mrtq_vta_emit_rq(const mrtq_vta_rq_plan *plan, uint32_t dst, uint32_t rows, uint32_t copy,
                                 uint32_t param, mrtq_vta_prog *p);

/* Complete a program: instruction 0 becomes the LOAD of the micro-op table
 * from DRAM element uop_dram (4-byte units) into UOP SRAM 0, and the table is
 * copied to dram + 4 * uop_dram. Returns p->status: p NULL -> MRTQ_EINVAL;
 * dram NULL or too small -> MRTQ_ERANGE; an earlier error as it was. */
MRTQ_API mrtq_status mrtq_vta_prog_finish(uint32_t uop_dram, mrtq_vta_prog *p, uint8_t *dram, size_t dram_bytes);

/* ---- 5a. the ADD driver ----
 * The VTA TFLite delegate's quantized ADD (alkali-csd-fw): with
 * T = 2 max(s1, s2), the host dequantizes each int8 input into the L = 7
 * fixed-point domain with mrtq_dequant_vta (multipliers s1/T, s2/T), VTA adds
 * the two int32 vectors and requantizes with the output multiplier
 * T / (2^7 s_out): ADD, MUL, SHR 15 - shift, ADD zp, MIN 127, MAX -128, STORE
 * (floor form, bit for bit the delegate's), or the nudge-rounding plan. */
typedef struct mrtq_vta_add_params {
  mrtq_mult in1, in2, out; /* Q15 multipliers (mrtq_mult_q15) */
  int32_t zp1, zp2, zp_out; /* zero points, [-128, 127] */
} mrtq_vta_add_params;

/* Where the ADD driver puts things in DRAM (byte offsets) and how big the
 * program is, for n elements (written by mrtq_vta_add_layout_of). */
typedef struct mrtq_vta_add_layout {
  size_t lanes, vecs, rows_per_chunk, chunks;
  size_t uop_off, a_off, b_off, out_off, dram_bytes; /* bytes */
  size_t insns;                                      /* instruction words needed */
} mrtq_vta_add_layout;

#define MRTQ_VTA_ADD_UOPS 32

/* The delegate's parameters from TFLite's float scales and int8 zero points
 * (arithmetic in double as the delegate's; passing float values reproduces it
 * exactly). Errors (MRTQ_EINVAL): p NULL, a scale NaN, infinite or <= 0, a zero
 * point outside [-128, 127]. */
MRTQ_API mrtq_status mrtq_vta_add_params_init(double s1, int32_t zp1, double s2, int32_t zp2, double s_out,
                                              int32_t zp_out, mrtq_vta_add_params *p);

/* The requant plan the ADD driver uses for `rounding` on `target`: floor on a
 * target with MUL is the delegate's sequence; otherwise the plan for a 17-bit
 * sum (|A'|, |B'| <= 2^15), whose floor form gives the delegate's values
 * without MUL (no wrap can occur at that width). Errors: p NULL, p's zero
 * points outside [-128, 127], rounding or target outside their enums ->
 * MRTQ_EINVAL; otherwise mrtq_vta_rq_plan_build's. */
MRTQ_API mrtq_status mrtq_vta_add_plan(const mrtq_vta_add_params *p, int rounding, mrtq_vta_profile target,
                                       mrtq_vta_rq_plan *plan);

/* The ADD on the CPU, the reference the program must equal: per element
 * y = A' + B' (mod 2^32) with A' = mrtq_dequant_vta(a, zp1, in1) etc., then
 * mrtq_vta_rq_ref of the driver's plan, as int8. Errors: as mrtq_vta_add_plan;
 * a, b or out NULL with n > 0 -> MRTQ_EINVAL. */
MRTQ_API mrtq_status mrtq_vta_add_ref(const mrtq_vta_add_params *p, int rounding, const int8_t *a, const int8_t *b,
                                      size_t n, int8_t *out);

/* The DRAM layout and program size of the ADD for n elements. Errors
 * (MRTQ_EINVAL): NULL, an invalid configuration; data widths the simulator
 * does not model, an ACC of fewer than 4 rows -> MRTQ_EUNSUPPORTED. */
MRTQ_API mrtq_status mrtq_vta_add_layout_of(const mrtq_vta_config *cfg, const mrtq_vta_rq_plan *plan, size_t n,
                                            mrtq_vta_add_layout *l);

/* Build the ADD program for n elements into p (initialized with at least
 * layout.insns words and MRTQ_VTA_ADD_UOPS micro-ops) and the DRAM image's
 * micro-op table. The inputs A', B' (int32, zero-padded to whole vectors) are
 * expected at layout.a_off / b_off, the output lands at out_off.
 * Chunks of rows_per_chunk = ACC depth / 4 vectors alternate between two ACC
 * halves (virtual threads): A at base, B at base + rows_per_chunk; a chunk
 * waits (store -> compute token) for the store that last used its half.
 * Errors: NULL -> MRTQ_EINVAL; as mrtq_vta_add_layout_of; the program or DRAM
 * too small, or counts beyond the instruction fields -> MRTQ_ERANGE; an
 * earlier error in p as it was. */
MRTQ_API mrtq_status mrtq_vta_add_build(const mrtq_vta_rq_plan *plan, size_t n, mrtq_vta_prog *p, uint8_t *dram,
                                        size_t dram_bytes);

/* Run the quantized ADD out = a + b (n int8 elements) on a simulator: writes
 * A', B' into its DRAM (sim->dram_bytes >= layout.dram_bytes), builds the
 * program into words (cap >= layout.insns), runs it and copies the n output
 * bytes; *ninsn (if not NULL) gets the program's length. Errors: sim, p or
 * words NULL, a, b or out NULL with n > 0 -> MRTQ_EINVAL; DRAM or words too
 * small -> MRTQ_ERANGE; as mrtq_vta_add_plan, _build and mrtq_vta_sim_run
 * (sim->error says what the simulator refused). */
MRTQ_API mrtq_status mrtq_vta_add_run(const mrtq_vta_add_params *p, int rounding, const int8_t *a, const int8_t *b,
                                      size_t n, mrtq_vta_word *words, size_t cap, mrtq_vta_sim *sim, int8_t *out,
                                      size_t *ninsn);

/* ---- 5b. CONV2D on VTA ----
 * A quantized 2-D convolution (groups 1) mapped onto GEMM + ALU: per batch
 * block and output-channel block, the block's weights go to WGT SRAM and its
 * bias and requant parameters to ACC; per output row, the ACC row set is
 * reset, the input rows it needs (every input-channel block, kernel rows only)
 * are loaded into INP, one GEMM instruction runs the micro-op loops (kernel
 * rows x columns, over output columns and input-channel blocks), then the ALU
 * epilogue (bias, requant plan) and a STORE.
 *
 * Zero points: the host packs X' = X (S8) or X - 128 (U8) with the spatial
 * padding filled by the zero point zx' = x_zp (- 128), so padded positions
 * are real zeros, and W' = W - w_zp (which must fit int8). Then
 *   sum (X - x_zp)(W - w_zp) = sum X' W' - zx' sum W'_o,
 * and the last term is a per-channel constant folded into the bias row.
 * Layouts: mrtq_layout; MRTQ_NCHW activations go with OIHW weights,
 * MRTQ_NHWC with OHWI. */

typedef struct mrtq_vta_conv_shape {
  size_t n, c, h, w;        /* input */
  size_t o, kh, kw;         /* output channels, kernel */
  size_t stride_h, stride_w, pad_h, pad_w, dil_h, dil_w;
} mrtq_vta_conv_shape;

typedef struct mrtq_vta_conv_quant {
  mrtq_dtype x_type, w_type;  /* MRTQ_S8 or MRTQ_U8 */
  int32_t x_zp, w_zp;         /* zero points (per tensor), values of x_type / w_type */
  const int32_t *bias;        /* o int32 values, or NULL */
  const mrtq_mult *m;         /* Q15 multipliers: 1 (per tensor) or o (per channel) */
  size_t nm;                  /* 1 or o */
  int32_t zp, qmin, qmax;     /* output zero point and bounds (8-bit) */
  int rounding;               /* MRTQ_VTA_ROUND_FLOOR / _NUDGE */
} mrtq_vta_conv_quant;

/* Everything the driver decided for a layer, and what it will cost (written
 * by mrtq_vta_conv_plan_build). */
typedef struct mrtq_vta_conv_plan {
  mrtq_vta_conv_shape s;
  size_t ho, wo, hp, wp;              /* output size; padded input size */
  size_t nb, cb, ob;                  /* batch, input-channel, output-channel blocks */
  size_t k;                           /* reduction length c * kh * kw */
  size_t inp_half, inp_bufs, acc_sets; /* INP entries per buffer; buffers (1 or 2); ACC row sets (1 or 2) */
  size_t wgt_entries, param_rows;     /* WGT entries per output block; ACC rows of bias + plan parameters */
  size_t x_bytes, w_bytes, p_bytes, y_bytes; /* packed DRAM sizes */
  size_t x_off, w_off, p_off, y_off, dram_bytes; /* DRAM layout (bytes; micro-ops at 0) */
  size_t insns, uops;                 /* program size */
  uint64_t load_bytes[6], store_bytes, gemm_ops, alu_ops; /* cost estimate (equal to the simulator's counters) */
  int in_bits;                        /* precision of the value requantized */
  mrtq_vta_rq_plan rq;
  char why[160];                      /* why a layer does not fit, with the smallest SRAM sizes that would */
} mrtq_vta_conv_plan;

/* Plan a layer (groups 1: depthwise layers are not mapped). w_any: the raw
 * weights (o*c*kh*kw elements of q->w_type, either layout) to check W - w_zp
 * and bound the sum with the real weights, or NULL for the worst case
 * |W'| = 128.
 * Errors: cfg, s, q, q->m or plan NULL, q->nm not 1 or s->o, target or
 * q->rounding outside their enums, a zero point outside its operand's type,
 * an invalid configuration -> MRTQ_EINVAL;
 * q->x_type / q->w_type not S8 or U8, data widths other than 8-bit with 32-bit
 * accumulators, batch * BLOCK_OUT > 256, a configuration whose instructions
 * exceed 128 bits or whose micro-ops exceed 32 bits -> MRTQ_EUNSUPPORTED; a
 * zero dimension, stride or dilation 0, a dimension beyond the ISA's fields
 * (65535 pixels or channels, 255 kernel, stride, padding, dilation), a dilated
 * kernel larger than the padded input -> MRTQ_ESHAPE; a weight with W - w_zp
 * outside int8 -> MRTQ_ERANGE; a sum that could overflow int32 ->
 * MRTQ_EOVERFLOW; a requant the plan builder refuses -> its status; tiles
 * that do not fit the configured SRAMs or the instruction fields, a DRAM
 * image beyond 4 GiB -> MRTQ_ERANGE (tiles: plan->why names the smallest
 * log2 SRAM sizes that would fit, and *plan is written). */
MRTQ_API mrtq_status mrtq_vta_conv_plan_build(const mrtq_vta_config *cfg, mrtq_vta_profile target,
                                              const mrtq_vta_conv_shape *s, const mrtq_vta_conv_quant *q,
                                              const void *w_any, mrtq_vta_conv_plan *plan);

/* Packing (cfg and q must be the ones the plan was built with):
 *  pack_input:  x (n*c*h*w elements of q->x_type in `layout`) into
 *               [nb][cb][hp][wp][batch][block_in] int8 (plan->x_bytes), X' = X
 *               - 128 for U8, the spatial padding filled with zx' = x_zp (-
 *               128), missing channels and batch entries 0.
 *  pack_weights: w (o*c*kh*kw elements of q->w_type, OIHW for NCHW, OHWI for
 *               NHWC) into [ob][cb][kh][kw][block_out][block_in] int8
 *               (plan->w_bytes) as W' = W - w_zp, missing channels 0;
 *               MRTQ_ERANGE if some W - w_zp leaves int8.
 *  pack_params: the ACC parameter rows: per output block, the bias row
 *               (bias_o - zx' sum W'_o per lane) and the requant plan's rows,
 *               int32 [ob][param_rows][batch][block_out] (plan->p_bytes bytes,
 *               any alignment); MRTQ_EUNSUPPORTED for more than 256 lanes or
 *               3 rows.
 *  unpack_output: the output [nb][ob][ho][wo][batch][block_out] bytes back to
 *               n*o*ho*wo values in `layout`, as the 8-bit bytes they are.
 * Errors: NULL, layout not MRTQ_NCHW / MRTQ_NHWC, x_type / w_type not S8 or
 * U8 -> MRTQ_EINVAL / MRTQ_EUNSUPPORTED as in mrtq_vta_conv_plan_build. */
MRTQ_API mrtq_status mrtq_vta_conv_pack_input(const mrtq_vta_config *cfg, const mrtq_vta_conv_plan *p,
                                              const mrtq_vta_conv_quant *q, mrtq_layout layout, const void *x,
                                              int8_t *dst);
MRTQ_API mrtq_status mrtq_vta_conv_pack_weights(const mrtq_vta_config *cfg, const mrtq_vta_conv_plan *p,
                                                const mrtq_vta_conv_quant *q, mrtq_layout layout, const void *w,
                                                int8_t *dst);
MRTQ_API mrtq_status mrtq_vta_conv_pack_params(const mrtq_vta_config *cfg, const mrtq_vta_conv_plan *p,
                                               const mrtq_vta_conv_quant *q, mrtq_layout layout, const void *w,
                                               uint8_t *dst);
MRTQ_API mrtq_status mrtq_vta_conv_unpack_output(const mrtq_vta_config *cfg, const mrtq_vta_conv_plan *p,
                                                 mrtq_layout layout, const uint8_t *src, void *y);

/* Build a layer's program into p (initialized with plan->insns words and
 * plan->uops micro-ops) and write its micro-op table into dram; the packed
 * input, weights and parameters must be at plan->x_off, w_off, p_off.
 * Errors: NULL -> MRTQ_EINVAL; DRAM or program too small -> MRTQ_ERANGE; an
 * earlier error in p as it was. */
MRTQ_API mrtq_status mrtq_vta_conv_build(const mrtq_vta_conv_plan *cp, mrtq_vta_prog *p, uint8_t *dram,
                                         size_t dram_bytes);

/* Pack, build, run on the simulator and unpack: y gets n*o*ho*wo bytes in
 * `layout` (weights OIHW for NCHW, OHWI for NHWC). words: plan->insns
 * instructions, uops: plan->uops micro-ops of scratch. Errors: NULL ->
 * MRTQ_EINVAL; sim's DRAM, words or uops too small -> MRTQ_ERANGE; as the
 * packers, mrtq_vta_conv_build and mrtq_vta_sim_run. */
MRTQ_API mrtq_status mrtq_vta_conv_run(const mrtq_vta_conv_plan *cp, const mrtq_vta_conv_quant *q, mrtq_layout layout,
                                       const void *x, const void *w, mrtq_vta_word *words, size_t cap, uint32_t *uops,
                                       size_t uop_cap, mrtq_vta_sim *sim, void *y);

/* The layer on the CPU, the statement the program must equal:
 *   acc = sum over c, ky, kx of (X - x_zp)(W - w_zp) (padded positions: X =
 *         x_zp) + bias_o, exact;  out = mrtq_vta_rq_ref(plan->rq, m_o, acc).
 * Errors: NULL, layout not in the enum -> MRTQ_EINVAL; types as the packers. */
MRTQ_API mrtq_status mrtq_vta_conv_ref(const mrtq_vta_conv_plan *cp, const mrtq_vta_conv_quant *q, mrtq_layout layout,
                                       const void *x, const void *w, void *y);

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
    int m, progressed = 0;
    for (m = 0; m < 3; m++) {
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

MRTQ_API mrtq_vta_rq_opts mrtq_vta_rq_opts_default(void) {
  mrtq_vta_rq_opts o;
  o.target = MRTQ_VTA_PROFILE_SIM;
  o.rounding = MRTQ_VTA_ROUND_FLOOR;
  o.in_bits = 32;
  o.allow_pow2 = 0;
  o.delegate = 0;
  return o;
}

MRTQ__PRIV int mrtq__vta_has_mul(mrtq_vta_profile t) { return t == MRTQ_VTA_PROFILE_SIM || t == MRTQ_VTA_PROFILE_OPENCL; }

/* The per-channel quantities of a plan for multiplier m: pre-shift r, applied
 * multiplier M' and shift k' (k' < 0: left). Non-zero (unreported) when the
 * plan cannot carry m exactly as documented: 1 delegate shift beyond 31, 2 m
 * not from mrtq_mult_q15, 3 a left POW2 shift that could wrap, 4 a shift that
 * turns left after the pre-shift (or below 16 / 17 for the wide form), 5 a
 * per-channel shift below 1 (nudge) or 0, 6 a delegate multiplier outside
 * the ALU's signed 16-bit immediate. */
MRTQ__PRIV int mrtq__vta_rq_chan(const mrtq_vta_rq_opts *o, int method, int per_channel, int wide, mrtq_mult m,
                                       int *r, int32_t *mp, int *kp) {
  int64_t k = (int64_t)15 - m.shift;
  int b = o->in_bits;
  if (o->delegate) { /* as the delegate: no pre-shift, shift as given (any sign) */
    if (k < -31 || k > 31) return 1;
    if (m.mult < -32768 || m.mult > 32767) return 6; /* MUL's immediate is a signed 16-bit field */
    *r = 0, *mp = m.mult, *kp = (int)k;
    return 0;
  }
  if (m.mult < 16384 || m.mult > 32767 || k < 0 || k > 30) return 2; /* mrtq_mult_q15, shift in [-15, 15] */
  if (method == MRTQ_VTA_BY_POW2) {
    int e = m.mult > 23170 ? m.shift : m.shift - 1; /* nearest power of two: M >= 2^14.5 rounds up */
    *r = 0, *mp = 1, *kp = -e;
    if (e > 0 && (per_channel || b - 1 + e > 30)) return 3; /* a left shift must not wrap */
  } else {
    int32_t mm = m.mult;
    int u = 0, rr = 0;
    if (!per_channel)
      while (!(mm & 1) && u < k) mm >>= 1, u++; /* fold trailing zeros into the shift: exact */
    while (!wide && b - 1 - rr > 0 && ((int64_t)mm << (b - 1 - rr)) >= ((int64_t)1 << 31)) rr++;
    *r = rr, *mp = mm, *kp = (int)(k - u - rr);
    if (*kp < (wide ? 16 + (o->rounding == MRTQ_VTA_ROUND_NUDGE) : 0)) return 4;
  }
  if (per_channel && *kp < (o->rounding == MRTQ_VTA_ROUND_NUDGE ? 1 : 0)) return 5;
  return 0;
}

/* Report why channel multiplier m[c] cannot be carried (code from rq_chan). */
MRTQ__PRIV mrtq_status mrtq__vta_rq_chan_err(int e) {
  switch (e) {
    case 1: return MRTQ__ERR(MRTQ_ERANGE, "m: delegate mode needs 15 - m->shift in [-31, 31]");
    case 6: return MRTQ__ERR(MRTQ_ERANGE, "m: delegate mode needs m->mult in [-32768, 32767] (MUL's 16-bit immediate)");
    case 2: return MRTQ__ERR(MRTQ_ERANGE, "m: mult must be in [16384, 32767] and shift in [-15, 15] (mrtq_mult_q15)");
    case 3: return MRTQ__ERR(MRTQ_ERANGE,
          "m: the nearest power of two 2^e, e > 0, would wrap (per channel, or o->in_bits - 1 + e > 30)");
    case 4: return MRTQ__ERR(MRTQ_ERANGE,
          "m: the shift would have to turn left after the pre-shift (scale too large for o->in_bits)");
    default: return MRTQ__ERR(MRTQ_ERANGE, "m: per channel the shift k' must be >= 1 (nudge) or >= 0 (floor)");
  }
}

/* 0 if no step of the (non-delegate, non-wide) plan can wrap for channel
 * quantities r, M', k' over b-bit x; 1 if the nudge ADD 1 can, 2 if ADD zp
 * can. The value only grows with x (M' > 0), so the ends of the range decide. */
MRTQ__PRIV int mrtq__vta_rq_wraps(const mrtq_vta_rq_plan *p, int r, int32_t mm, int k, int32_t zp) {
  int b = p->opts.in_bits, nudge = p->opts.rounding == MRTQ_VTA_ROUND_NUDGE && (p->per_channel || k >= 1);
  int64_t xs[2], y[2];
  int i;
  xs[0] = mrtq__asr64(-((int64_t)1 << (b - 1)), r);
  xs[1] = mrtq__asr64(((int64_t)1 << (b - 1)) - 1, r);
  for (i = 0; i < 2; i++) {
    int64_t v = xs[i] * mm;
    if (nudge) {
      v = mrtq__asr64(v, k - 1);
      if (v + 1 > INT32_MAX) return 1;
      y[i] = mrtq__asr64(v + 1, 1);
    } else {
      y[i] = k >= 0 ? mrtq__asr64(v, k) : v * ((int64_t)1 << -k);
    }
  }
  if (zp && (y[1] + zp > INT32_MAX || y[0] + zp < INT32_MIN)) return 2;
  return 0;
}

MRTQ__PRIV void mrtq__vta_step_on(mrtq_vta_rq_plan *p, int on_copy, int kind, int op, int operand, int32_t imm) {
  if (p->nsteps < MRTQ_VTA_MAX_STEPS) {
    mrtq_vta_step *s = &p->step[p->nsteps];
    s->kind = kind, s->alu_opcode = op, s->operand = operand, s->imm = imm, s->on_copy = on_copy;
  }
  p->nsteps++;
}
MRTQ__PRIV void mrtq__vta_step(mrtq_vta_rq_plan *p, int kind, int op, int operand, int32_t imm) {
  mrtq__vta_step_on(p, 0, kind, op, operand, imm);
}

/* SHR by an immediate amount, split so that the HLS core reads every piece
 * right (it takes 0..15 as right shifts and 16..31 as left by 32 - n). */
MRTQ__PRIV void mrtq__vta_shr_imm(mrtq_vta_rq_plan *p, int amount) {
  int lim = p->opts.target == MRTQ_VTA_PROFILE_HLS ? 15 : 31;
  while (amount > 0) {
    int a = amount < lim ? amount : lim;
    mrtq__vta_step(p, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_SHR, MRTQ_VTA_OPND_IMM, a);
    amount -= a;
  }
  while (amount < 0) {
    int a = -amount < 16 ? -amount : 16;
    mrtq__vta_step(p, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_SHR, MRTQ_VTA_OPND_IMM, -a);
    amount += a;
  }
}

MRTQ_API mrtq_status mrtq_vta_rq_plan_build(const mrtq_vta_rq_opts *o, const mrtq_mult *m, size_t nch, int32_t zp,
                                            int32_t qmin, int32_t qmax, mrtq_vta_rq_plan *plan) {
  mrtq_vta_rq_plan p;
  size_t c;
  int has_mul, i;
  if (!o) return MRTQ__ERR(MRTQ_EINVAL, "o: NULL");
  if (!m) return MRTQ__ERR(MRTQ_EINVAL, "m: NULL");
  if (!plan) return MRTQ__ERR(MRTQ_EINVAL, "plan: NULL");
  if (nch == 0) return MRTQ__ERR(MRTQ_EINVAL, "nch: must be >= 1");
  if ((int)o->target < 0 || (int)o->target > 3) return MRTQ__ERR(MRTQ_EINVAL, "o->target: not an mrtq_vta_profile");
  if (o->rounding != MRTQ_VTA_ROUND_FLOOR && o->rounding != MRTQ_VTA_ROUND_NUDGE)
    return MRTQ__ERR(MRTQ_EINVAL, "o->rounding: must be MRTQ_VTA_ROUND_FLOOR or MRTQ_VTA_ROUND_NUDGE");
  if (o->in_bits < 1 || o->in_bits > 32) return MRTQ__ERR(MRTQ_EINVAL, "o->in_bits: must be in [1, 32]");
  if (qmin > qmax) return MRTQ__ERR(MRTQ_EINVAL, "qmin, qmax: qmin > qmax");
  has_mul = mrtq__vta_has_mul(o->target);
  if (o->allow_pow2 && has_mul)
    return MRTQ__ERR(MRTQ_EINVAL,
          "o->allow_pow2: must be 0 on a target with MUL (SIM, OPENCL), where it has no effect");
  if (o->delegate && o->in_bits != 32)
    return MRTQ__ERR(MRTQ_EINVAL,
          "o->in_bits: must be 32 in delegate mode (the delegate's sequence takes every int32)");
  if (!((qmin >= -128 && qmax <= 127) || (qmin >= 0 && qmax <= 255)))
    return MRTQ__ERR(MRTQ_ERANGE, "qmin, qmax: must lie within [-128, 127] or [0, 255] (STORE keeps the low byte)");
  if (zp < -32768 || zp > 32767) return MRTQ__ERR(MRTQ_ERANGE, "zp: must be in [-32768, 32767] (ALU immediate)");
  if (o->delegate && !has_mul)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "o->delegate: needs a target with MUL (SIM, OPENCL)");
  if (o->delegate && nch != 1) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "o->delegate: per tensor only (nch == 1)");
  if (o->delegate && o->rounding != MRTQ_VTA_ROUND_FLOOR)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "o->delegate: floor rounding only");
  memset(&p, 0, sizeof p);
  p.opts = *o;
  p.per_channel = nch > 1;
  p.method = has_mul ? MRTQ_VTA_BY_MUL : o->allow_pow2 ? MRTQ_VTA_BY_POW2 : MRTQ_VTA_BY_SHIFT_ADD;
  if (p.per_channel && p.method == MRTQ_VTA_BY_SHIFT_ADD)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "nch: per channel on a target without MUL needs o->allow_pow2");
  p.zp = zp, p.qmin = qmin, p.qmax = qmax;
  for (c = 0; c < nch; c++) { /* every channel must be carried */
    int r, k, e;
    int32_t mm;
    e = mrtq__vta_rq_chan(o, p.method, p.per_channel, 0, m[c], &r, &mm, &k);
    if (e) return mrtq__vta_rq_chan_err(e);
    if (c == 0) p.pre_shift = r, p.mult = mm, p.shift = k;
    /* per channel r is the same for every channel: it depends only on in_bits
     * and bitlen(M) = 15 (no folding per channel; POW2: r = 0) */
  }
  if (!o->delegate && p.method == MRTQ_VTA_BY_MUL && p.pre_shift > 0) { /* exact instead, where the shift allows */
    int ok = 1;
    for (c = 0; c < nch && ok; c++) {
      int r, k;
      int32_t mm;
      ok = mrtq__vta_rq_chan(o, p.method, p.per_channel, 1, m[c], &r, &mm, &k) == 0;
      if (ok && c == 0) p.pre_shift = 0, p.mult = mm, p.shift = k;
    }
    p.wide = ok;
    if (!ok) mrtq__vta_rq_chan(o, p.method, p.per_channel, 0, m[0], &p.pre_shift, &p.mult, &p.shift);
  }
  if (o->delegate) {
    mrtq__vta_step(&p, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_MUL, MRTQ_VTA_OPND_IMM, p.mult);
    mrtq__vta_step(&p, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_SHR, MRTQ_VTA_OPND_IMM, p.shift);
  } else if (p.wide) {
    /* x = xh 2^16 + xl with xh = floor((x + 2^15) / 2^16), xl in [-2^15, 2^15)
     * (the sign-extended low half); then floor(x M / 2^16) = xh M +
     * floor(xl M / 2^16) exactly, every partial within int32. */
    int opnd = p.per_channel ? MRTQ_VTA_OPND_PARAM : MRTQ_VTA_OPND_IMM;
    int32_t mv = p.per_channel ? p.nparams++ : p.mult;
    mrtq__vta_step(&p, MRTQ_VTA_STEP_SAVE, 0, MRTQ_VTA_OPND_IMM, 0);
    mrtq__vta_shr_imm(&p, 1);
    mrtq__vta_step(&p, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_ADD, MRTQ_VTA_OPND_IMM, 16384);
    mrtq__vta_shr_imm(&p, 15);
    mrtq__vta_step(&p, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_MUL, opnd, mv);
    mrtq__vta_step_on(&p, 1, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_SHR, MRTQ_VTA_OPND_IMM, -16);
    mrtq__vta_step_on(&p, 1, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_SHR, MRTQ_VTA_OPND_IMM, 16);
    mrtq__vta_step_on(&p, 1, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_MUL, opnd, mv);
    mrtq__vta_step_on(&p, 1, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_SHR, MRTQ_VTA_OPND_IMM, 16);
    mrtq__vta_step(&p, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_ADD, MRTQ_VTA_OPND_COPY, 0);
    if (p.per_channel) {
      mrtq__vta_step(&p, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_SHR, MRTQ_VTA_OPND_PARAM, p.nparams++);
    } else {
      mrtq__vta_shr_imm(&p, p.shift - 16 - (o->rounding == MRTQ_VTA_ROUND_NUDGE));
    }
    if (o->rounding == MRTQ_VTA_ROUND_NUDGE) {
      mrtq__vta_step(&p, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_ADD, MRTQ_VTA_OPND_IMM, 1);
      mrtq__vta_shr_imm(&p, 1);
    }
  } else {
    mrtq__vta_shr_imm(&p, p.pre_shift);
    if (p.per_channel) {
      int split = o->target == MRTQ_VTA_PROFILE_HLS; /* shift amounts up to 30 as two rows of <= 15 */
      if (p.method == MRTQ_VTA_BY_MUL) mrtq__vta_step(&p, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_MUL, MRTQ_VTA_OPND_PARAM, p.nparams++);
      mrtq__vta_step(&p, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_SHR, MRTQ_VTA_OPND_PARAM, p.nparams++);
      if (split) mrtq__vta_step(&p, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_SHR, MRTQ_VTA_OPND_PARAM, p.nparams++);
    } else {
      if (p.method == MRTQ_VTA_BY_MUL && p.mult != 1) {
        mrtq__vta_step(&p, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_MUL, MRTQ_VTA_OPND_IMM, p.mult);
      } else if (p.method == MRTQ_VTA_BY_SHIFT_ADD && p.mult != 1) {
        /* Horner over the binary digits of M', top bit first: acc = x, then for
         * each lower set bit acc = acc * 2^gap + x. No SUB on VTA and no way to
         * negate without MUL, so the digits are 0 and 1. */
        int top = 14, gap = 0;
        while (!((p.mult >> top) & 1)) top--;
        mrtq__vta_step(&p, MRTQ_VTA_STEP_SAVE, 0, MRTQ_VTA_OPND_IMM, 0);
        for (i = top - 1; i >= 0; i--) {
          gap++;
          if ((p.mult >> i) & 1) {
            mrtq__vta_shr_imm(&p, -gap);
            mrtq__vta_step(&p, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_ADD, MRTQ_VTA_OPND_COPY, 0);
            gap = 0;
          }
        }
        mrtq__vta_shr_imm(&p, -gap);
      }
      if (o->rounding == MRTQ_VTA_ROUND_NUDGE && p.shift >= 1) {
        mrtq__vta_shr_imm(&p, p.shift - 1);
        mrtq__vta_step(&p, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_ADD, MRTQ_VTA_OPND_IMM, 1);
        mrtq__vta_shr_imm(&p, 1);
      } else {
        mrtq__vta_shr_imm(&p, p.shift);
      }
    }
    if (p.per_channel && o->rounding == MRTQ_VTA_ROUND_NUDGE) {
      mrtq__vta_step(&p, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_ADD, MRTQ_VTA_OPND_IMM, 1);
      mrtq__vta_shr_imm(&p, 1);
    }
  }
  /* Outside delegate mode no step may wrap. The product x' M' fits int32 (r),
   * the shift-add partials are bounded by it, the wide form's by 2^30; the
   * nudge ADD 1 and ADD zp can reach past int32 at the ends of the range
   * (POW2 plans, which have no pre-shift), so those are checked at both ends. */
  if (!o->delegate && !p.wide)
    for (c = 0; c < nch; c++) {
      int r = p.pre_shift, k = p.shift, e;
      int32_t mm = p.mult;
      if (p.per_channel) mrtq__vta_rq_chan(o, p.method, 1, 0, m[c], &r, &mm, &k);
      e = mrtq__vta_rq_wraps(&p, r, mm, k, zp);
      if (e == 1)
        return MRTQ__ERR(MRTQ_ERANGE,
                         "o->in_bits: the nudge step ADD 1 could wrap at the top of int32 (use fewer bits)");
      if (e == 2)
        return MRTQ__ERR(MRTQ_ERANGE, "zp: y + zp could wrap at an end of int32 (use a smaller o->in_bits)");
    }
  if (zp || o->delegate) mrtq__vta_step(&p, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_ADD, MRTQ_VTA_OPND_IMM, zp);
  mrtq__vta_step(&p, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_MIN, MRTQ_VTA_OPND_IMM, qmax);
  mrtq__vta_step(&p, MRTQ_VTA_STEP_ALU, MRTQ_VTA_ALU_MAX, MRTQ_VTA_OPND_IMM, qmin);
  if (p.nsteps > MRTQ_VTA_MAX_STEPS)
    return MRTQ__ERR(MRTQ_ERANGE, "m: the plan needs more than MRTQ_VTA_MAX_STEPS steps");
  *plan = p;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_rq_param_rows(const mrtq_vta_config *cfg, const mrtq_vta_rq_plan *plan,
                                            const mrtq_mult *m, size_t nch, int32_t *rows) {
  size_t bo, lanes, blocks, j, l;
  mrtq_vta_depths d;
  mrtq_status st;
  if (!plan) return MRTQ__ERR(MRTQ_EINVAL, "plan: NULL");
  if (!m) return MRTQ__ERR(MRTQ_EINVAL, "m: NULL");
  if (!rows) return MRTQ__ERR(MRTQ_EINVAL, "rows: NULL");
  if (!plan->per_channel) return MRTQ__ERR(MRTQ_EINVAL, "plan: a per-tensor plan has no parameter rows");
  if ((st = mrtq_vta_depths_of(cfg, &d)) != MRTQ_OK) return st;
  for (j = 0; j < nch; j++) { /* every channel first: a refusal writes nothing */
    int r = 0, k = 0;
    int32_t mm = 0;
    if (mrtq__vta_rq_chan(&plan->opts, plan->method, 1, plan->wide, m[j], &r, &mm, &k) != 0)
      return MRTQ__ERR(MRTQ_ERANGE, "m: a channel's multiplier cannot be carried by this plan");
  }
  bo = (size_t)1 << cfg->log_block_out, lanes = bo << cfg->log_batch, blocks = (nch + bo - 1) / bo;
  for (j = 0; j < blocks; j++)
    for (l = 0; l < lanes; l++) {
      size_t c = j * bo + l % bo;
      int32_t *row = rows + j * (size_t)plan->nparams * lanes + l;
      int r = 0, k = 0, q = 0;
      int32_t mm = 0;
      if (c < nch) mrtq__vta_rq_chan(&plan->opts, plan->method, 1, plan->wide, m[c], &r, &mm, &k);
      if (c < nch && plan->opts.rounding == MRTQ_VTA_ROUND_NUDGE) k -= 1;
      if (c < nch && plan->wide) k -= 16;
      if (plan->method == MRTQ_VTA_BY_MUL) row[(size_t)q++ * lanes] = mm;
      if (plan->opts.target == MRTQ_VTA_PROFILE_HLS) {
        row[(size_t)q++ * lanes] = k < 15 ? k : 15;
        row[(size_t)q++ * lanes] = k < 15 ? 0 : k - 15;
      } else {
        row[(size_t)q++ * lanes] = k;
      }
    }
  return MRTQ_OK;
}

MRTQ_API int32_t mrtq_vta_rq_steps_eval(const mrtq_vta_rq_plan *plan, int32_t x, const int32_t *params) {
  int32_t a = x, copy = 0;
  int i, hls = plan->opts.target == MRTQ_VTA_PROFILE_HLS;
  for (i = 0; i < plan->nsteps && i < MRTQ_VTA_MAX_STEPS; i++) {
    const mrtq_vta_step *s = &plan->step[i];
    int32_t b = s->operand == MRTQ_VTA_OPND_IMM ? s->imm : s->operand == MRTQ_VTA_OPND_COPY ? copy
                                                                                            : (params ? params[s->imm] : 0);
    int32_t *d = s->on_copy ? &copy : &a;
    if (s->kind == MRTQ_VTA_STEP_SAVE) {
      copy = a;
      continue;
    }
    if (s->on_copy && s->operand == MRTQ_VTA_OPND_COPY) b = a;
    switch (s->alu_opcode) {
      case MRTQ_VTA_ALU_MIN: *d = *d < b ? *d : b; break;
      case MRTQ_VTA_ALU_MAX: *d = *d > b ? *d : b; break;
      case MRTQ_VTA_ALU_ADD: *d = mrtq__wrap32((uint32_t)*d + (uint32_t)b); break;
      case MRTQ_VTA_ALU_SHR: *d = mrtq__vta_shr(*d, b, hls); break;
      default: *d = mrtq__wrap32((uint32_t)*d * (uint32_t)b); break;
    }
  }
  return a;
}

MRTQ_API int32_t mrtq_vta_rq_ref(const mrtq_vta_rq_plan *plan, mrtq_mult m, int32_t x) {
  int r = 0, k = 0;
  int32_t mm = 0;
  int64_t y;
  if (plan->opts.delegate) {
    int32_t t = mrtq__wrap32((uint32_t)mrtq_mul_q15_vta(x, m) + (uint32_t)plan->zp);
    t = t < plan->qmax ? t : plan->qmax;
    return t > plan->qmin ? t : plan->qmin;
  }
  if (plan->per_channel) {
    if (mrtq__vta_rq_chan(&plan->opts, plan->method, 1, plan->wide, m, &r, &mm, &k) != 0) return 0;
  } else {
    r = plan->pre_shift, mm = plan->mult, k = plan->shift;
  }
  y = (int64_t)mrtq__asr32(x, r) * mm;
  if (k > 0) y = mrtq__asr64(y + (plan->opts.rounding == MRTQ_VTA_ROUND_NUDGE ? (int64_t)1 << (k - 1) : 0), k);
  else y = y * ((int64_t)1 << -k);
  return mrtq__clamp64(y + plan->zp, plan->qmin, plan->qmax);
}

MRTQ_API mrtq_status mrtq_vta_prog_init(const mrtq_vta_config *cfg, mrtq_vta_word *words, size_t cap,
                                        uint32_t *uops, size_t uop_cap, mrtq_vta_prog *p) {
  mrtq_vta_depths d;
  mrtq_status st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!words) return MRTQ__ERR(MRTQ_EINVAL, "words: NULL");
  if (!uops) return MRTQ__ERR(MRTQ_EINVAL, "uops: NULL");
  if (cap < 1) return MRTQ__ERR(MRTQ_EINVAL, "cap: must be >= 1 (instruction 0 is the micro-op LOAD)");
  if ((st = mrtq_vta_depths_of(cfg, &d)) != MRTQ_OK) return st;
  p->cfg = *cfg;
  p->words = words, p->cap = cap, p->n = 1;
  p->uops = uops, p->uop_cap = uop_cap, p->nuop = 0;
  p->status = MRTQ_OK;
  words[0].w[0] = words[0].w[1] = 0;
  return MRTQ_OK;
}

MRTQ_API size_t mrtq_vta_prog_push(const mrtq_vta_insn *in, mrtq_vta_prog *p) {
  mrtq_status st;
  if (!p) return (void)MRTQ__ERR(MRTQ_EINVAL, "p: NULL"), 0;
  if (p->status != MRTQ_OK) return 0;
  if (p->n >= p->cap) {
    p->status = MRTQ__ERR(MRTQ_ERANGE, "p->cap: the instruction buffer is full");
    return 0;
  }
  st = mrtq_vta_encode(&p->cfg, in, &p->words[p->n]);
  if (st != MRTQ_OK) {
    p->status = st;
    return 0;
  }
  return p->n++;
}

MRTQ_API uint32_t mrtq_vta_prog_uop(uint32_t dst, uint32_t src, uint32_t wgt, mrtq_vta_prog *p) {
  mrtq_vta_uop u;
  uint32_t w = 0;
  size_t i;
  mrtq_status st;
  if (!p) return (void)MRTQ__ERR(MRTQ_EINVAL, "p: NULL"), 0;
  if (p->status != MRTQ_OK) return 0;
  u.dst = dst, u.src = src, u.wgt = wgt;
  st = mrtq_vta_uop_encode(&p->cfg, &u, &w);
  if (st != MRTQ_OK) {
    p->status = st;
    return 0;
  }
  for (i = 0; i < p->nuop; i++)
    if (p->uops[i] == w) return (uint32_t)i;
  if (p->nuop >= p->uop_cap) {
    p->status = MRTQ__ERR(MRTQ_ERANGE, "p->uop_cap: the micro-op table is full");
    return 0;
  }
  if (p->nuop >= ((size_t)1 << (p->cfg.log_uop_buff_size - 2))) {
    p->status = MRTQ__ERR(MRTQ_ERANGE, "p->cfg.log_uop_buff_size: the micro-op table exceeds the UOP SRAM");
    return 0;
  }
  p->uops[p->nuop] = w;
  return (uint32_t)p->nuop++;
}

MRTQ_API void mrtq_vta_prog_deps(size_t i, int pop_prev, int pop_next, int push_prev, int push_next,
                                 mrtq_vta_prog *p) {
  mrtq_vta_insn in;
  mrtq_vta_depths d;
  if (!p) {
    (void)MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
    return;
  }
  if (p->status != MRTQ_OK) return;
  if (i == 0 || i >= p->n) {
    p->status = MRTQ__ERR(MRTQ_EINVAL, "i: must name a pushed instruction (1 <= i < p->n)");
    return;
  }
  memset(&in, 0, sizeof in);
  mrtq_vta_depths_of(&p->cfg, &d); /* valid: checked by mrtq_vta_prog_init */
  mrtq__vta_unpack(&d, &p->words[i], &in);
  in.pop_prev |= (uint32_t)(pop_prev != 0), in.pop_next |= (uint32_t)(pop_next != 0);
  in.push_prev |= (uint32_t)(push_prev != 0), in.push_next |= (uint32_t)(push_next != 0);
  mrtq_vta_encode(&p->cfg, &in, &p->words[i]);
}

/* ALU op over `rows` ACC rows from dst, one loop: dst advances by 1 and src
 * by src_f per row; the operand is imm (use_imm) or ACC[src]. Returns the
 * instruction's index. */
MRTQ__PRIV size_t mrtq__vta_alu_rows(mrtq_vta_prog *p, uint32_t op, int use_imm, int32_t imm, uint32_t dst, uint32_t src,
                                   uint32_t src_f, uint32_t rows) {
  mrtq_vta_insn in;
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_ALU, in.alu_opcode = op, in.use_imm = use_imm != 0, in.imm = use_imm ? imm : 0;
  in.uop_bgn = mrtq_vta_prog_uop(dst, use_imm ? 0 : src, 0, p), in.uop_end = in.uop_bgn + 1;
  in.iter_out = rows, in.iter_in = 1, in.dst_factor_out = 1, in.src_factor_out = use_imm ? 0 : src_f;
  return mrtq_vta_prog_push(&in, p);
}

/* GEMM reset (zero) of `rows` ACC rows from dst. */
MRTQ__PRIV size_t mrtq__vta_reset_rows(mrtq_vta_prog *p, uint32_t dst, uint32_t rows) {
  mrtq_vta_insn in;
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_GEMM, in.reset = 1, in.iter_out = rows, in.iter_in = 1, in.dst_factor_out = 1;
  in.uop_bgn = mrtq_vta_prog_uop(dst, 0, 0, p), in.uop_end = in.uop_bgn + 1;
  return mrtq_vta_prog_push(&in, p);
}

MRTQ_API size_t mrtq_vta_emit_rq(const mrtq_vta_rq_plan *plan, uint32_t dst, uint32_t rows, uint32_t copy,
                                 uint32_t param, mrtq_vta_prog *p) {
  size_t last = 0;
  int i;
  if (!p) return (void)MRTQ__ERR(MRTQ_EINVAL, "p: NULL"), 0;
  if (p->status != MRTQ_OK) return 0;
  if (!plan) {
    p->status = MRTQ__ERR(MRTQ_EINVAL, "plan: NULL");
    return 0;
  }
  for (i = 0; i < plan->nsteps && i < MRTQ_VTA_MAX_STEPS; i++) {
    const mrtq_vta_step *s = &plan->step[i];
    if (s->kind == MRTQ_VTA_STEP_SAVE) { /* copy = 0, then copy += data */
      mrtq__vta_reset_rows(p, copy, rows);
      last = mrtq__vta_alu_rows(p, MRTQ_VTA_ALU_ADD, 0, 0, copy, dst, 1, rows);
    } else {
      uint32_t to = s->on_copy ? copy : dst, other = s->on_copy ? dst : copy;
      uint32_t src = s->operand == MRTQ_VTA_OPND_COPY ? other : s->operand == MRTQ_VTA_OPND_PARAM ? param + (uint32_t)s->imm : 0;
      last = mrtq__vta_alu_rows(p, (uint32_t)s->alu_opcode, s->operand == MRTQ_VTA_OPND_IMM, s->imm, to, src,
                                s->operand == MRTQ_VTA_OPND_COPY ? 1 : 0, rows);
    }
  }
  return p->status == MRTQ_OK ? last : 0;
}

MRTQ_API mrtq_status mrtq_vta_prog_finish(uint32_t uop_dram, mrtq_vta_prog *p, uint8_t *dram, size_t dram_bytes) {
  mrtq_vta_insn in;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (p->status != MRTQ_OK) return p->status;
  if (!dram) return p->status = MRTQ__ERR(MRTQ_ERANGE, "dram: NULL");
  if (((uint64_t)uop_dram + p->nuop) * 4u > dram_bytes)
    return p->status = MRTQ__ERR(MRTQ_ERANGE, "dram_bytes: the micro-op table at uop_dram does not fit");
  memcpy(dram + (size_t)uop_dram * 4u, p->uops, p->nuop * 4u);
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_LOAD, in.memory_type = MRTQ_VTA_MEM_UOP, in.dram_base = uop_dram;
  in.y_size = 1, in.x_size = (uint32_t)p->nuop, in.x_stride = (uint32_t)p->nuop;
  return p->status = mrtq_vta_encode(&p->cfg, &in, &p->words[0]);
}

/* x is finite and > 0 (NaN and infinities fail). */
MRTQ__PRIV int mrtq__vta_pos_finite(double x) { return x > 0 && x - x == 0; }

/* The checks every ADD entry point makes on its parameters. */
MRTQ__PRIV mrtq_status mrtq__vta_add_params_ok(const mrtq_vta_add_params *p) {
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (p->zp1 < -128 || p->zp1 > 127) return MRTQ__ERR(MRTQ_EINVAL, "p->zp1: must be in [-128, 127]");
  if (p->zp2 < -128 || p->zp2 > 127) return MRTQ__ERR(MRTQ_EINVAL, "p->zp2: must be in [-128, 127]");
  if (p->zp_out < -128 || p->zp_out > 127) return MRTQ__ERR(MRTQ_EINVAL, "p->zp_out: must be in [-128, 127]");
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_add_params_init(double s1, int32_t zp1, double s2, int32_t zp2, double s_out,
                                              int32_t zp_out, mrtq_vta_add_params *p) {
  double t;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!mrtq__vta_pos_finite(s1)) return MRTQ__ERR(MRTQ_EINVAL, "s1: must be finite and > 0");
  if (!mrtq__vta_pos_finite(s2)) return MRTQ__ERR(MRTQ_EINVAL, "s2: must be finite and > 0");
  if (!mrtq__vta_pos_finite(s_out)) return MRTQ__ERR(MRTQ_EINVAL, "s_out: must be finite and > 0");
  if (zp1 < -128 || zp1 > 127) return MRTQ__ERR(MRTQ_EINVAL, "zp1: must be in [-128, 127]");
  if (zp2 < -128 || zp2 > 127) return MRTQ__ERR(MRTQ_EINVAL, "zp2: must be in [-128, 127]");
  if (zp_out < -128 || zp_out > 127) return MRTQ__ERR(MRTQ_EINVAL, "zp_out: must be in [-128, 127]");
  t = 2 * (s1 > s2 ? s1 : s2);
  mrtq_mult_q15(s1 / t, &p->in1);
  mrtq_mult_q15(s2 / t, &p->in2);
  mrtq_mult_q15(t / (128.0 * s_out), &p->out);
  p->zp1 = zp1, p->zp2 = zp2, p->zp_out = zp_out;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_add_plan(const mrtq_vta_add_params *p, int rounding, mrtq_vta_profile target,
                                       mrtq_vta_rq_plan *plan) {
  mrtq_vta_rq_opts o = mrtq_vta_rq_opts_default();
  mrtq_status st = mrtq__vta_add_params_ok(p);
  if (st != MRTQ_OK) return st;
  if (rounding != MRTQ_VTA_ROUND_FLOOR && rounding != MRTQ_VTA_ROUND_NUDGE)
    return MRTQ__ERR(MRTQ_EINVAL, "rounding: must be MRTQ_VTA_ROUND_FLOOR or _NUDGE");
  if ((int)target < 0 || (int)target > 3) return MRTQ__ERR(MRTQ_EINVAL, "target: not an mrtq_vta_profile");
  o.target = target;
  o.rounding = rounding;
  o.delegate = rounding == MRTQ_VTA_ROUND_FLOOR && mrtq__vta_has_mul(target); /* else shift-add, same values */
  o.in_bits = o.delegate ? 32 : 17; /* |A'|, |B'| <= 2^15; the delegate's sequence takes any int32 */
  return mrtq_vta_rq_plan_build(&o, &p->out, 1, p->zp_out, -128, 127, plan);
}

MRTQ_API mrtq_status mrtq_vta_add_ref(const mrtq_vta_add_params *p, int rounding, const int8_t *a, const int8_t *b,
                                      size_t n, int8_t *out) {
  mrtq_vta_rq_plan plan;
  mrtq_status st;
  size_t i;
  if ((st = mrtq__vta_add_params_ok(p)) != MRTQ_OK) return st;
  if (!a && n) return MRTQ__ERR(MRTQ_EINVAL, "a: NULL with n > 0");
  if (!b && n) return MRTQ__ERR(MRTQ_EINVAL, "b: NULL with n > 0");
  if (!out && n) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL with n > 0");
  st = mrtq_vta_add_plan(p, rounding, MRTQ_VTA_PROFILE_SIM, &plan);
  if (st != MRTQ_OK) return st;
  for (i = 0; i < n; i++) {
    int32_t y = mrtq__wrap32((uint32_t)mrtq_dequant_vta(a[i], p->zp1, p->in1) +
                             (uint32_t)mrtq_dequant_vta(b[i], p->zp2, p->in2));
    out[i] = (int8_t)mrtq_vta_rq_ref(&plan, p->out, y);
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_add_layout_of(const mrtq_vta_config *cfg, const mrtq_vta_rq_plan *plan, size_t n,
                                            mrtq_vta_add_layout *l) {
  mrtq_vta_depths d;
  size_t per_chunk, eb;
  int i;
  mrtq_status st;
  if (!l) return MRTQ__ERR(MRTQ_EINVAL, "l: NULL");
  if (!plan) return MRTQ__ERR(MRTQ_EINVAL, "plan: NULL");
  if ((st = mrtq_vta_depths_of(cfg, &d)) != MRTQ_OK) return st;
  if (mrtq_vta_sim_scratch_bytes(cfg) == 0)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED,
          "cfg: the ADD driver takes 8-bit inputs, weights and outputs with 32-bit accumulators only");
  if (d.acc < 2)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "cfg->log_acc_buff_size: the ADD driver needs at least 4 ACC rows");
  l->lanes = (size_t)1 << (cfg->log_batch + cfg->log_block_out);
  l->vecs = n / l->lanes + (n % l->lanes != 0);
  l->rows_per_chunk = ((size_t)1 << d.acc) / 4; /* two virtual threads, two operands each */
  l->chunks = l->vecs / l->rows_per_chunk + (l->vecs % l->rows_per_chunk != 0);
  eb = 4 * l->lanes; /* ACC element bytes, a multiple of the OUT element's */
  l->uop_off = 0;
  l->a_off = (MRTQ_VTA_ADD_UOPS * 4 + eb - 1) / eb * eb;
  l->b_off = l->a_off + l->vecs * eb;
  l->out_off = l->b_off + l->vecs * eb;
  l->dram_bytes = l->out_off + l->vecs * l->lanes;
  per_chunk = 4; /* LOAD A, LOAD B, ALU ADD, STORE */
  for (i = 0; i < plan->nsteps && i < MRTQ_VTA_MAX_STEPS; i++) per_chunk += plan->step[i].kind == MRTQ_VTA_STEP_SAVE ? 2 : 1;
  l->insns = 1 + l->chunks * per_chunk + (l->chunks < 2 ? l->chunks : 2) + 1; /* uop load, chunks, drains, FINISH */
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_add_build(const mrtq_vta_rq_plan *plan, size_t n, mrtq_vta_prog *p, uint8_t *dram,
                                        size_t dram_bytes) {
  mrtq_vta_add_layout l;
  size_t c, first, last;
  mrtq_vta_insn in;
  mrtq_status st;
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!plan) return MRTQ__ERR(MRTQ_EINVAL, "plan: NULL");
  if (!dram) return MRTQ__ERR(MRTQ_EINVAL, "dram: NULL");
  if (p->status != MRTQ_OK) return p->status;
  if ((st = mrtq_vta_add_layout_of(&p->cfg, plan, n, &l)) != MRTQ_OK) return st;
  if (l.b_off / (4 * l.lanes) + l.vecs > 0xffffffffu)
    return MRTQ__ERR(MRTQ_ERANGE, "n: DRAM element indices beyond 32 bits");
  if (l.dram_bytes > dram_bytes) return MRTQ__ERR(MRTQ_ERANGE, "dram_bytes: below the layout's dram_bytes");
  if (l.insns > p->cap) return MRTQ__ERR(MRTQ_ERANGE, "p->cap: below the layout's insns");
  for (c = 0; c < l.chunks; c++) {
    uint32_t L = (uint32_t)l.rows_per_chunk, base = (uint32_t)((c % 2) * 2 * L);
    uint32_t rows = (uint32_t)(c + 1 < l.chunks ? L : l.vecs - c * L);
    uint32_t v0 = (uint32_t)(c * L);
    memset(&in, 0, sizeof in);
    in.opcode = MRTQ_VTA_LOAD, in.memory_type = MRTQ_VTA_MEM_ACC, in.sram_base = base;
    in.dram_base = (uint32_t)(l.a_off / (4 * l.lanes)) + v0, in.y_size = 1, in.x_size = rows, in.x_stride = rows;
    first = mrtq_vta_prog_push(&in, p);
    if (c >= 2) mrtq_vta_prog_deps(first, 0, 1, 0, 0, p); /* wait for the store of chunk c - 2 */
    in.sram_base = base + L, in.dram_base = (uint32_t)(l.b_off / (4 * l.lanes)) + v0;
    mrtq_vta_prog_push(&in, p);
    mrtq__vta_alu_rows(p, MRTQ_VTA_ALU_ADD, 0, 0, base, base + L, 1, rows); /* A += B */
    last = mrtq_vta_emit_rq(plan, base, rows, base + L, 0, p);
    mrtq_vta_prog_deps(last, 0, 0, 0, 1, p); /* results ready: compute -> store */
    memset(&in, 0, sizeof in);
    in.opcode = MRTQ_VTA_STORE, in.memory_type = MRTQ_VTA_MEM_OUT, in.sram_base = base;
    in.dram_base = (uint32_t)(l.out_off / l.lanes) + v0, in.y_size = 1, in.x_size = rows, in.x_stride = rows;
    last = mrtq_vta_prog_push(&in, p);
    mrtq_vta_prog_deps(last, 1, 0, 1, 0, p); /* wait for compute, then free the half */
  }
  /* drain the store -> compute tokens not yet taken (one per half in use) */
  for (c = 0; c < (l.chunks < 2 ? l.chunks : 2); c++) {
    memset(&in, 0, sizeof in);
    in.opcode = MRTQ_VTA_GEMM, in.iter_out = 0, in.iter_in = 0; /* no work: only the token */
    last = mrtq_vta_prog_push(&in, p);
    mrtq_vta_prog_deps(last, 0, 1, 0, 0, p);
  }
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_FINISH;
  mrtq_vta_prog_push(&in, p);
  return mrtq_vta_prog_finish((uint32_t)(l.uop_off / 4), p, dram, dram_bytes);
}

MRTQ_API mrtq_status mrtq_vta_add_run(const mrtq_vta_add_params *p, int rounding, const int8_t *a, const int8_t *b,
                                      size_t n, mrtq_vta_word *words, size_t cap, mrtq_vta_sim *sim, int8_t *out,
                                      size_t *ninsn) {
  mrtq_vta_rq_plan plan;
  mrtq_vta_add_layout l;
  mrtq_vta_prog prog;
  uint32_t uops[MRTQ_VTA_ADD_UOPS];
  mrtq_status st;
  size_t i;
  if ((st = mrtq__vta_add_params_ok(p)) != MRTQ_OK) return st;
  if (!sim) return MRTQ__ERR(MRTQ_EINVAL, "sim: NULL");
  if (!words) return MRTQ__ERR(MRTQ_EINVAL, "words: NULL");
  if (!a && n) return MRTQ__ERR(MRTQ_EINVAL, "a: NULL with n > 0");
  if (!b && n) return MRTQ__ERR(MRTQ_EINVAL, "b: NULL with n > 0");
  if (!out && n) return MRTQ__ERR(MRTQ_EINVAL, "out: NULL with n > 0");
  memset(&l, 0, sizeof l);
  memset(&prog, 0, sizeof prog);
  st = mrtq_vta_add_plan(p, rounding, sim->profile, &plan);
  if (st == MRTQ_OK) st = mrtq_vta_add_layout_of(&sim->cfg, &plan, n, &l);
  if (st != MRTQ_OK) return st;
  if (l.dram_bytes > sim->dram_bytes)
    return MRTQ__ERR(MRTQ_ERANGE, "sim->dram_bytes: below the ADD layout's dram_bytes");
  if (l.insns > cap) return MRTQ__ERR(MRTQ_ERANGE, "cap: below the ADD layout's insns");
  st = mrtq_vta_prog_init(&sim->cfg, words, cap, uops, MRTQ_VTA_ADD_UOPS, &prog);
  if (st != MRTQ_OK) return st;
  memset(sim->dram, 0, l.dram_bytes);
  for (i = 0; i < n; i++) {
    int32_t va = mrtq_dequant_vta(a[i], p->zp1, p->in1), vb = mrtq_dequant_vta(b[i], p->zp2, p->in2);
    memcpy(sim->dram + l.a_off + 4 * i, &va, 4);
    memcpy(sim->dram + l.b_off + 4 * i, &vb, 4);
  }
  st = mrtq_vta_add_build(&plan, n, &prog, sim->dram, sim->dram_bytes);
  if (st == MRTQ_OK) st = mrtq_vta_sim_run(words, prog.n, sim);
  if (st != MRTQ_OK) return st;
  if (ninsn) *ninsn = prog.n;
  for (i = 0; i < n; i++) out[i] = (int8_t)sim->dram[l.out_off + i];
  return MRTQ_OK;
}

/* Bits the instruction form of `opcode` needs with depths d (a field that
 * would cross bit 64 starts there), as the encoder lays it out. */
MRTQ__PRIV int mrtq__vta_form_bits(uint32_t opcode, const mrtq_vta_depths *d) {
  mrtq__vta_field f[24];
  int n = mrtq__vta_fields(opcode, d, f), i, pos = 0;
  for (i = 0; i < n; i++) {
    if ((pos % 64) + f[i].width > 64) pos = (pos / 64 + 1) * 64;
    pos += f[i].width;
  }
  return pos;
}

/* The checks the conv packers and the reference share. */
MRTQ__PRIV mrtq_status mrtq__vta_conv_args(const mrtq_vta_conv_plan *p, const mrtq_vta_conv_quant *q,
                                           mrtq_layout layout) {
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!q) return MRTQ__ERR(MRTQ_EINVAL, "q: NULL");
  if (layout != MRTQ_NCHW && layout != MRTQ_NHWC)
    return MRTQ__ERR(MRTQ_EINVAL, "layout: must be MRTQ_NCHW or MRTQ_NHWC");
  if (!mrtq__dtype_q8(q->x_type)) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "q->x_type: must be MRTQ_S8 or MRTQ_U8");
  if (!mrtq__dtype_q8(q->w_type)) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "q->w_type: must be MRTQ_S8 or MRTQ_U8");
  return MRTQ_OK;
}

MRTQ__PRIV int mrtq__vta_log2_ceil(uint64_t v) {
  int k = 0;
  while (((uint64_t)1 << k) < v && k < 63) k++;
  return k;
}

MRTQ_API mrtq_status mrtq_vta_conv_plan_build(const mrtq_vta_config *cfg, mrtq_vta_profile target,
                                              const mrtq_vta_conv_shape *s, const mrtq_vta_conv_quant *q,
                                              const void *w_any, mrtq_vta_conv_plan *plan) {
  mrtq_vta_conv_plan p;
  mrtq_vta_depths d;
  mrtq_vta_rq_opts o = mrtq_vta_rq_opts_default();
  size_t bo, bi, batch, rows, i, nsave = 0, extra;
  uint64_t bound, wmax;
  mrtq__vta_buf b;
  mrtq_status st;
  const uint8_t *wb = (const uint8_t *)w_any;
  int sw;
  if (!cfg) return MRTQ__ERR(MRTQ_EINVAL, "cfg: NULL");
  if (!s) return MRTQ__ERR(MRTQ_EINVAL, "s: NULL");
  if (!q) return MRTQ__ERR(MRTQ_EINVAL, "q: NULL");
  if (!plan) return MRTQ__ERR(MRTQ_EINVAL, "plan: NULL");
  if (!q->m) return MRTQ__ERR(MRTQ_EINVAL, "q->m: NULL");
  if (q->nm != 1 && q->nm != s->o) return MRTQ__ERR(MRTQ_EINVAL, "q->nm: must be 1 or s->o");
  if ((int)target < 0 || (int)target > 3) return MRTQ__ERR(MRTQ_EINVAL, "target: not an mrtq_vta_profile");
  if (q->rounding != MRTQ_VTA_ROUND_FLOOR && q->rounding != MRTQ_VTA_ROUND_NUDGE)
    return MRTQ__ERR(MRTQ_EINVAL, "q->rounding: must be MRTQ_VTA_ROUND_FLOOR or MRTQ_VTA_ROUND_NUDGE");
  if (!mrtq__dtype_q8(q->x_type)) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "q->x_type: must be MRTQ_S8 or MRTQ_U8");
  if (!mrtq__dtype_q8(q->w_type)) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "q->w_type: must be MRTQ_S8 or MRTQ_U8");
  if ((st = mrtq_vta_depths_of(cfg, &d)) != MRTQ_OK) return st;
  if (mrtq_vta_sim_scratch_bytes(cfg) == 0)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED,
          "cfg: VTA CONV2D takes 8-bit inputs, weights and outputs with 32-bit accumulators only");
  if (mrtq__vta_form_bits(MRTQ_VTA_GEMM, &d) > 128 || mrtq__vta_form_bits(MRTQ_VTA_ALU, &d) > 128)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED,
          "cfg: the GEMM or ALU instruction's fields exceed 128 bits in this configuration");
  sw = d.acc > d.inp ? d.acc : d.inp;
  if (d.acc + sw + d.wgt > 32)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED,
          "cfg: a micro-op needs more than 32 bits (log2 ACC + max(ACC, INP) + WGT depths)");
  if (s->n < 1 || s->n > 65535) return MRTQ__ERR(MRTQ_ESHAPE, "s->n: must be in [1, 65535]");
  if (s->c < 1 || s->c > 65535) return MRTQ__ERR(MRTQ_ESHAPE, "s->c: must be in [1, 65535]");
  if (s->h < 1 || s->h > 65535) return MRTQ__ERR(MRTQ_ESHAPE, "s->h: must be in [1, 65535]");
  if (s->w < 1 || s->w > 65535) return MRTQ__ERR(MRTQ_ESHAPE, "s->w: must be in [1, 65535]");
  if (s->o < 1 || s->o > 65535) return MRTQ__ERR(MRTQ_ESHAPE, "s->o: must be in [1, 65535]");
  if (s->kh < 1 || s->kh > 255) return MRTQ__ERR(MRTQ_ESHAPE, "s->kh: must be in [1, 255]");
  if (s->kw < 1 || s->kw > 255) return MRTQ__ERR(MRTQ_ESHAPE, "s->kw: must be in [1, 255]");
  if (s->stride_h < 1 || s->stride_h > 255) return MRTQ__ERR(MRTQ_ESHAPE, "s->stride_h: must be in [1, 255]");
  if (s->stride_w < 1 || s->stride_w > 255) return MRTQ__ERR(MRTQ_ESHAPE, "s->stride_w: must be in [1, 255]");
  if (s->dil_h < 1 || s->dil_h > 255) return MRTQ__ERR(MRTQ_ESHAPE, "s->dil_h: must be in [1, 255]");
  if (s->dil_w < 1 || s->dil_w > 255) return MRTQ__ERR(MRTQ_ESHAPE, "s->dil_w: must be in [1, 255]");
  if (s->pad_h > 255) return MRTQ__ERR(MRTQ_ESHAPE, "s->pad_h: must be in [0, 255]");
  if (s->pad_w > 255) return MRTQ__ERR(MRTQ_ESHAPE, "s->pad_w: must be in [0, 255]");
  memset(&p, 0, sizeof p);
  p.s = *s;
  p.hp = s->h + 2 * s->pad_h, p.wp = s->w + 2 * s->pad_w;
  if ((s->kh - 1) * s->dil_h + 1 > p.hp)
    return MRTQ__ERR(MRTQ_ESHAPE, "s->kh, s->dil_h: the dilated kernel is taller than the padded input");
  if ((s->kw - 1) * s->dil_w + 1 > p.wp)
    return MRTQ__ERR(MRTQ_ESHAPE, "s->kw, s->dil_w: the dilated kernel is wider than the padded input");
  p.ho = (p.hp - (s->kh - 1) * s->dil_h - 1) / s->stride_h + 1;
  p.wo = (p.wp - (s->kw - 1) * s->dil_w - 1) / s->stride_w + 1;
  if (!mrtq__in_type(q->x_zp, q->x_type)) return MRTQ__ERR(MRTQ_EINVAL, "q->x_zp: must be a value of q->x_type");
  if (!mrtq__in_type(q->w_zp, q->w_type)) return MRTQ__ERR(MRTQ_EINVAL, "q->w_zp: must be a value of q->w_type");
  batch = (size_t)1 << cfg->log_batch, bi = (size_t)1 << cfg->log_block_in, bo = (size_t)1 << cfg->log_block_out;
  if (batch * bo > 256) /* the parameter rows are packed through a 256-lane buffer */
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "cfg->log_batch, cfg->log_block_out: batch * BLOCK_OUT must be <= 256");
  p.nb = (s->n + batch - 1) / batch, p.cb = (s->c + bi - 1) / bi, p.ob = (s->o + bo - 1) / bo;
  p.k = s->c * s->kh * s->kw;
  /* the weights must be representable as W - zw in int8 (checked on the data when given) */
  wmax = 0;
  if (wb) {
    size_t nw = s->o * s->c * s->kh * s->kw;
    for (i = 0; i < nw; i++) {
      int32_t v = (q->w_type == MRTQ_U8 ? (int32_t)wb[i] : (int32_t)(int8_t)wb[i]) - q->w_zp;
      if (v < -128 || v > 127) return MRTQ__ERR(MRTQ_ERANGE, "w_any: some W - q->w_zp is outside int8");
      if ((uint64_t)(v < 0 ? -v : v) > wmax) wmax = (uint64_t)(v < 0 ? -v : v);
    }
  } else {
    wmax = 128;
  }
  /* |y| <= K * 255 * max|W'| + |bias| (the folded bias term included) */
  bound = (uint64_t)p.k * 255u * wmax;
  {
    uint64_t bmax = 0;
    if (q->bias)
      for (i = 0; i < s->o; i++) {
        uint64_t v = q->bias[i] < 0 ? (uint64_t)0 - (uint64_t)(int64_t)q->bias[i] : (uint64_t)q->bias[i];
        if (v > bmax) bmax = v;
      }
    bound += bmax + (uint64_t)p.k * 128u * 256u; /* + |zx' sum W'| <= K * 256 * 128 */
  }
  if (bound >= ((uint64_t)1 << 31))
    return MRTQ__ERR(MRTQ_EOVERFLOW,
          "s, q->bias: the accumulator could overflow int32 (K * 255 * max|W'| + |bias| + K * 32768 >= 2^31)");
  p.in_bits = mrtq__vta_log2_ceil(bound + 1) + 1;
  /* the requant plan (per tensor or per channel) */
  o.target = target;
  o.rounding = q->rounding;
  o.in_bits = p.in_bits;
  o.allow_pow2 = 0;
  st = mrtq_vta_rq_plan_build(&o, q->m, q->nm, q->zp, q->qmin, q->qmax, &p.rq);
  if (st != MRTQ_OK) return st;
  /* tiles */
  p.inp_half = p.cb * s->kh * p.wp;
  p.wgt_entries = p.cb * s->kh * s->kw;
  p.param_rows = 1 + (size_t)p.rq.nparams;
  for (i = 0; i < (size_t)p.rq.nsteps; i++) nsave += p.rq.step[i].kind == MRTQ_VTA_STEP_SAVE;
  rows = (size_t)1 << d.acc;
  extra = p.param_rows + (nsave ? p.wo : 0); /* parameters, and scratch rows for a shift-add multiply */
  p.inp_bufs = 2 * p.inp_half <= ((size_t)1 << d.inp) ? 2 : 1;
  p.acc_sets = 2 * p.wo + extra <= rows ? 2 : 1;
  p.uops = p.inp_bufs * p.acc_sets * s->kh * s->kw + p.acc_sets * (6 + 2 * (size_t)p.rq.nparams);
  b.p = p.why, b.cap = sizeof p.why, b.len = 0;
  if (p.inp_half > ((size_t)1 << d.inp) || p.wgt_entries > ((size_t)1 << d.wgt) || p.wo + extra > rows ||
      p.uops > ((size_t)1 << d.uop) || p.wo > 16383 || p.cb > 16383 || s->kh * p.wp >= ((size_t)1 << d.inp) ||
      s->stride_w >= ((size_t)1 << d.inp) || s->kh * s->kw >= ((size_t)1 << d.wgt) || s->dil_h * p.wp > 65535) {
    /* smallest log2 byte sizes: INP and WGT entries of batch * block_in (block_out * block_in) bytes,
     * ACC rows of 4 * batch * block_out bytes, micro-ops of 4 bytes */
    int li = mrtq__vta_log2_ceil((uint64_t)p.inp_half * batch * bi);
    int lw = mrtq__vta_log2_ceil((uint64_t)p.wgt_entries * bo * bi);
    int la = mrtq__vta_log2_ceil((uint64_t)(p.wo + extra) * 4u * batch * bo);
    int lu = mrtq__vta_log2_ceil((uint64_t)(s->kh * s->kw + 6 + 2 * (size_t)p.rq.nparams) * 4u);
    mrtq__vta_put(&b, "layer does not fit: needs at least log_inp_buff_size ");
    mrtq__vta_put_int(&b, li > cfg->log_inp_buff_size ? li : cfg->log_inp_buff_size);
    mrtq__vta_put(&b, ", log_wgt_buff_size ");
    mrtq__vta_put_int(&b, lw > cfg->log_wgt_buff_size ? lw : cfg->log_wgt_buff_size);
    mrtq__vta_put(&b, ", log_acc_buff_size ");
    mrtq__vta_put_int(&b, la > cfg->log_acc_buff_size ? la : cfg->log_acc_buff_size);
    mrtq__vta_put(&b, ", log_uop_buff_size ");
    mrtq__vta_put_int(&b, lu > cfg->log_uop_buff_size ? lu : cfg->log_uop_buff_size);
    p.why[b.len < sizeof p.why ? b.len : sizeof p.why - 1] = 0;
    *plan = p;
    return MRTQ__ERR(MRTQ_ERANGE,
                     "cfg: the layer's tiles do not fit the SRAMs or the instruction fields (see plan->why)");
  }
  /* DRAM layout: micro-ops, input [nb][cb][hp][wp][batch][bi], weights [ob][cb][kh][kw][bo][bi],
   * parameter rows [ob][param_rows][batch][bo] int32, output [nb][ob][ho][wo][batch][bo] */
  {
    size_t eb_acc = 4 * batch * bo, al = eb_acc > bo * bi ? eb_acc : bo * bi, u = (p.uops * 4 + al - 1) / al * al;
    while (u % (batch * bi) || u % (bo * bi) || u % eb_acc || u % (batch * bo)) u += al; /* element-aligned */
    p.x_bytes = p.nb * p.cb * p.hp * p.wp * batch * bi;
    p.w_bytes = p.ob * p.wgt_entries * bo * bi;
    p.p_bytes = p.ob * p.param_rows * eb_acc;
    p.y_bytes = p.nb * p.ob * p.ho * p.wo * batch * bo;
    p.x_off = u;
    p.w_off = (p.x_off + p.x_bytes + al - 1) / al * al;
    p.p_off = (p.w_off + p.w_bytes + al - 1) / al * al;
    p.y_off = (p.p_off + p.p_bytes + al - 1) / al * al;
    p.dram_bytes = p.y_off + p.y_bytes;
    if ((uint64_t)p.dram_bytes > 0xffffffffu) /* DRAM addresses are 32-bit element indices */
      return MRTQ__ERR(MRTQ_ERANGE, "s: the packed DRAM image exceeds 2^32 bytes");
  }
  /* program size and cost */
  {
    size_t blocks = p.nb * p.ob, per_row = 1 + 1 + p.cb + 1 + (size_t)p.rq.nsteps + nsave + 1; /* reset, GEMM, loads, bias, plan, store */
    size_t drains = (p.ho < p.inp_bufs ? p.ho : p.inp_bufs) + (p.ho < p.acc_sets ? p.ho : p.acc_sets);
    p.insns = 1 + blocks * (2 + p.ho * per_row + drains) + 1;
    p.load_bytes[MRTQ_VTA_MEM_UOP] = (uint64_t)p.uops * 4u; /* at most: the table after deduplication */
    p.load_bytes[MRTQ_VTA_MEM_WGT] = (uint64_t)blocks * p.wgt_entries * bo * bi;
    p.load_bytes[MRTQ_VTA_MEM_ACC] = (uint64_t)blocks * p.param_rows * 4u * batch * bo;
    p.load_bytes[MRTQ_VTA_MEM_INP] = (uint64_t)blocks * p.ho * p.cb * s->kh * p.wp * batch * bi;
    p.store_bytes = (uint64_t)blocks * p.ho * p.wo * batch * bo;
    p.gemm_ops = (uint64_t)blocks * p.ho * p.wo * p.cb * s->kh * s->kw;
    p.alu_ops = (uint64_t)blocks * p.ho * p.wo * (1u + (uint64_t)p.rq.nsteps);
  }
  *plan = p;
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_conv_pack_input(const mrtq_vta_config *cfg, const mrtq_vta_conv_plan *p,
                                              const mrtq_vta_conv_quant *q, mrtq_layout layout, const void *x,
                                              int8_t *dst) {
  const uint8_t *xb = (const uint8_t *)x;
  size_t batch, bi, nb, cb, yy, xx, bb, ii;
  int off, xu;
  mrtq_status st;
  if (!cfg) return MRTQ__ERR(MRTQ_EINVAL, "cfg: NULL");
  if ((st = mrtq__vta_conv_args(p, q, layout)) != MRTQ_OK) return st;
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  if (!dst) return MRTQ__ERR(MRTQ_EINVAL, "dst: NULL");
  batch = (size_t)1 << cfg->log_batch, bi = (size_t)1 << cfg->log_block_in;
  xu = q->x_type == MRTQ_U8;
  off = xu ? 128 : 0;
  for (nb = 0; nb < p->nb; nb++)
    for (cb = 0; cb < p->cb; cb++)
      for (yy = 0; yy < p->hp; yy++)
        for (xx = 0; xx < p->wp; xx++)
          for (bb = 0; bb < batch; bb++)
            for (ii = 0; ii < bi; ii++) {
              size_t n = nb * batch + bb, c = cb * bi + ii;
              int32_t v = 0;
              if (n < p->s.n && c < p->s.c) {
                if (yy < p->s.pad_h || yy >= p->s.pad_h + p->s.h || xx < p->s.pad_w || xx >= p->s.pad_w + p->s.w) {
                  v = q->x_zp - off;
                } else {
                  size_t y0 = yy - p->s.pad_h, x0 = xx - p->s.pad_w;
                  size_t at = layout == MRTQ_NCHW ? ((n * p->s.c + c) * p->s.h + y0) * p->s.w + x0
                                                  : ((n * p->s.h + y0) * p->s.w + x0) * p->s.c + c;
                  v = (xu ? (int32_t)xb[at] : (int32_t)(int8_t)xb[at]) - off;
                }
              }
              *dst++ = (int8_t)v;
            }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_conv_pack_weights(const mrtq_vta_config *cfg, const mrtq_vta_conv_plan *p,
                                                const mrtq_vta_conv_quant *q, mrtq_layout layout, const void *w,
                                                int8_t *dst) {
  const uint8_t *wb = (const uint8_t *)w;
  size_t bi, bo, ob, cb, ky, kx, oo, ii, nw;
  int wu;
  mrtq_status st;
  if (!cfg) return MRTQ__ERR(MRTQ_EINVAL, "cfg: NULL");
  if ((st = mrtq__vta_conv_args(p, q, layout)) != MRTQ_OK) return st;
  if (!w) return MRTQ__ERR(MRTQ_EINVAL, "w: NULL");
  if (!dst) return MRTQ__ERR(MRTQ_EINVAL, "dst: NULL");
  wu = q->w_type == MRTQ_U8;
  nw = p->s.o * p->s.c * p->s.kh * p->s.kw;
  for (oo = 0; oo < nw; oo++) { /* every weight first: a refusal writes nothing */
    int32_t v = (wu ? (int32_t)wb[oo] : (int32_t)(int8_t)wb[oo]) - q->w_zp;
    if (v < -128 || v > 127) return MRTQ__ERR(MRTQ_ERANGE, "w: some W - q->w_zp is outside int8");
  }
  bi = (size_t)1 << cfg->log_block_in, bo = (size_t)1 << cfg->log_block_out;
  for (ob = 0; ob < p->ob; ob++)
    for (cb = 0; cb < p->cb; cb++)
      for (ky = 0; ky < p->s.kh; ky++)
        for (kx = 0; kx < p->s.kw; kx++)
          for (oo = 0; oo < bo; oo++)
            for (ii = 0; ii < bi; ii++) {
              size_t o = ob * bo + oo, c = cb * bi + ii;
              int32_t v = 0;
              if (o < p->s.o && c < p->s.c) {
                size_t at = layout == MRTQ_NCHW ? ((o * p->s.c + c) * p->s.kh + ky) * p->s.kw + kx
                                                : ((o * p->s.kh + ky) * p->s.kw + kx) * p->s.c + c;
                v = (wu ? (int32_t)wb[at] : (int32_t)(int8_t)wb[at]) - q->w_zp;
              }
              *dst++ = (int8_t)v;
            }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_conv_pack_params(const mrtq_vta_config *cfg, const mrtq_vta_conv_plan *p,
                                               const mrtq_vta_conv_quant *q, mrtq_layout layout, const void *w,
                                               uint8_t *dst) {
  const uint8_t *wb = (const uint8_t *)w;
  size_t bo, lanes, ob, l, c, t, kk;
  int32_t rows[3 * 256];
  int wu;
  mrtq_status st;
  if (!cfg) return MRTQ__ERR(MRTQ_EINVAL, "cfg: NULL");
  if ((st = mrtq__vta_conv_args(p, q, layout)) != MRTQ_OK) return st;
  if (!w) return MRTQ__ERR(MRTQ_EINVAL, "w: NULL");
  if (!dst) return MRTQ__ERR(MRTQ_EINVAL, "dst: NULL");
  if (!q->m) return MRTQ__ERR(MRTQ_EINVAL, "q->m: NULL");
  kk = p->s.kh * p->s.kw, wu = q->w_type == MRTQ_U8;
  bo = (size_t)1 << cfg->log_block_out, lanes = bo << cfg->log_batch;
  if (lanes > 256)
    return MRTQ__ERR(MRTQ_EUNSUPPORTED, "cfg->log_batch, cfg->log_block_out: batch * BLOCK_OUT must be <= 256");
  if (p->param_rows > 3) return MRTQ__ERR(MRTQ_EUNSUPPORTED, "p->param_rows: at most 3 (bias + 2 plan rows)");
  if (p->rq.per_channel) { /* every channel first: a refusal writes nothing */
    for (ob = 0; ob < p->ob; ob++) {
      size_t first = ob * bo, nch = p->s.o - first < bo ? p->s.o - first : bo;
      for (l = 0; l < nch; l++) {
        int r = 0, k = 0;
        int32_t mm = 0;
        if (mrtq__vta_rq_chan(&p->rq.opts, p->rq.method, 1, p->rq.wide, q->m[first + l], &r, &mm, &k) != 0)
          return MRTQ__ERR(MRTQ_ERANGE, "q->m: a channel's multiplier cannot be carried by p->rq");
      }
    }
  }
  for (ob = 0; ob < p->ob; ob++) {
    for (l = 0; l < lanes; l++) {
      size_t o = ob * bo + l % bo;
      int64_t v = 0, sw = 0;
      if (o < p->s.o) {
        for (c = 0; c < p->s.c; c++)
          for (t = 0; t < kk; t++) {
            size_t at = layout == MRTQ_NCHW ? (o * p->s.c + c) * kk + t : (o * kk + t) * p->s.c + c;
            sw += (wu ? (int32_t)wb[at] : (int32_t)(int8_t)wb[at]) - q->w_zp;
          }
        v = (q->bias ? q->bias[o] : 0) - (int64_t)(q->x_zp - (q->x_type == MRTQ_U8 ? 128 : 0)) * sw;
      }
      rows[l] = (int32_t)v; /* within int32: the plan's overflow bound covers it */
    }
    if (p->rq.per_channel) {
      size_t first = ob * bo, nch = p->s.o - first < bo ? p->s.o - first : bo;
      st = mrtq_vta_rq_param_rows(cfg, &p->rq, q->m + first, nch, rows + lanes);
      if (st != MRTQ_OK) return st;
    }
    memcpy(dst + ob * p->param_rows * lanes * 4, rows, p->param_rows * lanes * 4);
  }
  return MRTQ_OK;
}

MRTQ_API mrtq_status mrtq_vta_conv_unpack_output(const mrtq_vta_config *cfg, const mrtq_vta_conv_plan *p,
                                                 mrtq_layout layout, const uint8_t *src, void *y) {
  uint8_t *yb = (uint8_t *)y;
  size_t batch, bo, n, o, yy, xx;
  if (!cfg) return MRTQ__ERR(MRTQ_EINVAL, "cfg: NULL");
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (layout != MRTQ_NCHW && layout != MRTQ_NHWC)
    return MRTQ__ERR(MRTQ_EINVAL, "layout: must be MRTQ_NCHW or MRTQ_NHWC");
  if (!src) return MRTQ__ERR(MRTQ_EINVAL, "src: NULL");
  if (!y) return MRTQ__ERR(MRTQ_EINVAL, "y: NULL");
  batch = (size_t)1 << cfg->log_batch, bo = (size_t)1 << cfg->log_block_out;
  for (n = 0; n < p->s.n; n++)
    for (o = 0; o < p->s.o; o++)
      for (yy = 0; yy < p->ho; yy++)
        for (xx = 0; xx < p->wo; xx++) {
          size_t from = ((((n / batch) * p->ob + o / bo) * p->ho + yy) * p->wo + xx) * batch * bo + (n % batch) * bo + o % bo;
          size_t to = layout == MRTQ_NCHW ? ((n * p->s.o + o) * p->ho + yy) * p->wo + xx
                                              : ((n * p->ho + yy) * p->wo + xx) * p->s.o + o;
          yb[to] = src[from];
        }
  return MRTQ_OK;
}

/* Append micro-ops without deduplication (a GEMM range must be contiguous). */
MRTQ__PRIV uint32_t mrtq__vta_uop_append(mrtq_vta_prog *p, uint32_t dst, uint32_t src, uint32_t wgt) {
  mrtq_vta_uop u;
  uint32_t w = 0;
  if (p->status != MRTQ_OK) return 0;
  u.dst = dst, u.src = src, u.wgt = wgt;
  if (p->nuop >= p->uop_cap) {
    p->status = MRTQ__ERR(MRTQ_ERANGE, "p->uop_cap: the micro-op table is full");
    return 0;
  }
  if (p->nuop >= ((size_t)1 << (p->cfg.log_uop_buff_size - 2))) {
    p->status = MRTQ__ERR(MRTQ_ERANGE, "p->cfg.log_uop_buff_size: the micro-op table exceeds the UOP SRAM");
    return 0;
  }
  p->status = mrtq_vta_uop_encode(&p->cfg, &u, &w);
  p->uops[p->nuop] = w;
  return (uint32_t)p->nuop++;
}

MRTQ_API mrtq_status mrtq_vta_conv_build(const mrtq_vta_conv_plan *cp, mrtq_vta_prog *p, uint8_t *dram,
                                         size_t dram_bytes) {
  const mrtq_vta_conv_shape *s;
  size_t batch, bi, bo, eb_inp, eb_wgt, eb_acc, eb_out, blk, y, c, h, a;
  uint32_t gemm_uop[2][2], wo, pb, cbase;
  mrtq_vta_insn in;
  if (!cp) return MRTQ__ERR(MRTQ_EINVAL, "cp: NULL");
  if (!p) return MRTQ__ERR(MRTQ_EINVAL, "p: NULL");
  if (!dram) return MRTQ__ERR(MRTQ_EINVAL, "dram: NULL");
  if (p->status != MRTQ_OK) return p->status;
  if (cp->dram_bytes > dram_bytes) return MRTQ__ERR(MRTQ_ERANGE, "dram_bytes: below cp->dram_bytes");
  if (p->cap < cp->insns) return MRTQ__ERR(MRTQ_ERANGE, "p->cap: below cp->insns");
  s = &cp->s;
  batch = (size_t)1 << p->cfg.log_batch, bi = (size_t)1 << p->cfg.log_block_in, bo = (size_t)1 << p->cfg.log_block_out;
  eb_inp = batch * bi, eb_wgt = bo * bi, eb_acc = 4 * batch * bo, eb_out = batch * bo;
  wo = (uint32_t)cp->wo;
  pb = (uint32_t)(cp->acc_sets * cp->wo);
  cbase = pb + (uint32_t)cp->param_rows;
  /* the GEMM micro-op ranges first: one per (INP buffer, ACC set) */
  for (h = 0; h < cp->inp_bufs; h++)
    for (a = 0; a < cp->acc_sets; a++) {
      size_t ky, kx;
      gemm_uop[h][a] = (uint32_t)p->nuop;
      for (ky = 0; ky < s->kh; ky++)
        for (kx = 0; kx < s->kw; kx++)
          mrtq__vta_uop_append(p, (uint32_t)(a * cp->wo), (uint32_t)(h * cp->inp_half + ky * cp->wp + kx * s->dil_w),
                               (uint32_t)(ky * s->kw + kx));
    }
  for (blk = 0; blk < cp->nb * cp->ob; blk++) {
    size_t nbi = blk / cp->ob, obi = blk % cp->ob, last = 0;
    memset(&in, 0, sizeof in);
    in.opcode = MRTQ_VTA_LOAD, in.memory_type = MRTQ_VTA_MEM_WGT, in.sram_base = 0;
    in.dram_base = (uint32_t)(cp->w_off / eb_wgt + obi * cp->wgt_entries);
    in.y_size = 1, in.x_size = in.x_stride = (uint32_t)cp->wgt_entries;
    mrtq_vta_prog_push(&in, p);
    in.memory_type = MRTQ_VTA_MEM_ACC, in.sram_base = pb;
    in.dram_base = (uint32_t)(cp->p_off / eb_acc + obi * cp->param_rows);
    in.x_size = in.x_stride = (uint32_t)cp->param_rows;
    mrtq_vta_prog_push(&in, p);
    for (y = 0; y < cp->ho; y++) {
      uint32_t ib, ab;
      h = y % cp->inp_bufs, a = y % cp->acc_sets;
      ib = (uint32_t)(h * cp->inp_half), ab = (uint32_t)(a * cp->wo);
      for (c = 0; c < cp->cb; c++) { /* the kernel rows of every input-channel block */
        memset(&in, 0, sizeof in);
        in.opcode = MRTQ_VTA_LOAD, in.memory_type = MRTQ_VTA_MEM_INP;
        in.sram_base = ib + (uint32_t)(c * s->kh * cp->wp);
        in.dram_base = (uint32_t)(cp->x_off / eb_inp + ((nbi * cp->cb + c) * cp->hp + y * s->stride_h) * cp->wp);
        in.y_size = (uint32_t)s->kh, in.x_size = (uint32_t)cp->wp, in.x_stride = (uint32_t)(s->dil_h * cp->wp);
        in.pop_next = c == 0 && y >= cp->inp_bufs; /* the buffer's previous GEMM is done */
        in.push_next = c + 1 == cp->cb;
        mrtq_vta_prog_push(&in, p);
      }
      last = mrtq__vta_reset_rows(p, ab, wo); /* the row set, after its previous store */
      if (y >= cp->acc_sets) mrtq_vta_prog_deps(last, 0, 1, 0, 0, p);
      memset(&in, 0, sizeof in);
      in.opcode = MRTQ_VTA_GEMM, in.uop_bgn = gemm_uop[h][a], in.uop_end = in.uop_bgn + (uint32_t)(s->kh * s->kw);
      in.iter_out = wo, in.dst_factor_out = 1, in.src_factor_out = (uint32_t)s->stride_w;
      in.iter_in = (uint32_t)cp->cb, in.src_factor_in = (uint32_t)(s->kh * cp->wp);
      in.wgt_factor_in = (uint32_t)(s->kh * s->kw);
      in.pop_prev = 1, in.push_prev = 1; /* wait for the loads, then free the INP buffer */
      mrtq_vta_prog_push(&in, p);
      last = mrtq__vta_alu_rows(p, MRTQ_VTA_ALU_ADD, 0, 0, ab, pb, 0, wo); /* + the bias row */
      if (cp->rq.nsteps) last = mrtq_vta_emit_rq(&cp->rq, ab, wo, cbase, pb + 1, p);
      mrtq_vta_prog_deps(last, 0, 0, 0, 1, p);
      memset(&in, 0, sizeof in);
      in.opcode = MRTQ_VTA_STORE, in.memory_type = MRTQ_VTA_MEM_OUT, in.sram_base = ab;
      in.dram_base = (uint32_t)(cp->y_off / eb_out + ((nbi * cp->ob + obi) * cp->ho + y) * cp->wo);
      in.y_size = 1, in.x_size = in.x_stride = wo, in.pop_prev = 1, in.push_prev = 1;
      mrtq_vta_prog_push(&in, p);
    }
    for (y = 0; y < (cp->ho < cp->inp_bufs ? cp->ho : cp->inp_bufs); y++) { /* drain: all GEMMs done */
      memset(&in, 0, sizeof in);
      in.opcode = MRTQ_VTA_LOAD, in.memory_type = MRTQ_VTA_MEM_INP, in.pop_next = 1; /* x_size 0: no data */
      mrtq_vta_prog_push(&in, p);
    }
    for (y = 0; y < (cp->ho < cp->acc_sets ? cp->ho : cp->acc_sets); y++) { /* drain: all stores done */
      memset(&in, 0, sizeof in);
      in.opcode = MRTQ_VTA_GEMM, in.pop_next = 1;
      mrtq_vta_prog_push(&in, p);
    }
  }
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_FINISH;
  mrtq_vta_prog_push(&in, p);
  return mrtq_vta_prog_finish(0, p, dram, dram_bytes);
}

MRTQ_API mrtq_status mrtq_vta_conv_run(const mrtq_vta_conv_plan *cp, const mrtq_vta_conv_quant *q, mrtq_layout layout,
                                       const void *x, const void *w, mrtq_vta_word *words, size_t cap, uint32_t *uops,
                                       size_t uop_cap, mrtq_vta_sim *sim, void *y) {
  mrtq_vta_prog prog;
  mrtq_status st;
  if (!cp) return MRTQ__ERR(MRTQ_EINVAL, "cp: NULL");
  if ((st = mrtq__vta_conv_args(cp, q, layout)) != MRTQ_OK) return st;
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  if (!w) return MRTQ__ERR(MRTQ_EINVAL, "w: NULL");
  if (!words) return MRTQ__ERR(MRTQ_EINVAL, "words: NULL");
  if (!uops) return MRTQ__ERR(MRTQ_EINVAL, "uops: NULL");
  if (!sim) return MRTQ__ERR(MRTQ_EINVAL, "sim: NULL");
  if (!y) return MRTQ__ERR(MRTQ_EINVAL, "y: NULL");
  if (cp->dram_bytes > sim->dram_bytes) return MRTQ__ERR(MRTQ_ERANGE, "sim->dram_bytes: below cp->dram_bytes");
  if (cap < cp->insns) return MRTQ__ERR(MRTQ_ERANGE, "cap: below cp->insns");
  if (uop_cap < cp->uops) return MRTQ__ERR(MRTQ_ERANGE, "uop_cap: below cp->uops");
  memset(&prog, 0, sizeof prog);
  memset(sim->dram, 0, cp->dram_bytes);
  st = mrtq_vta_conv_pack_input(&sim->cfg, cp, q, layout, x, (int8_t *)(void *)(sim->dram + cp->x_off));
  if (st == MRTQ_OK) st = mrtq_vta_conv_pack_weights(&sim->cfg, cp, q, layout, w, (int8_t *)(void *)(sim->dram + cp->w_off));
  if (st == MRTQ_OK) st = mrtq_vta_conv_pack_params(&sim->cfg, cp, q, layout, w, sim->dram + cp->p_off);
  if (st == MRTQ_OK) st = mrtq_vta_prog_init(&sim->cfg, words, cap, uops, uop_cap, &prog);
  if (st == MRTQ_OK) st = mrtq_vta_conv_build(cp, &prog, sim->dram, sim->dram_bytes);
  if (st == MRTQ_OK) st = mrtq_vta_sim_run(words, prog.n, sim);
  if (st == MRTQ_OK) st = mrtq_vta_conv_unpack_output(&sim->cfg, cp, layout, sim->dram + cp->y_off, y);
  return st;
}

MRTQ_API mrtq_status mrtq_vta_conv_ref(const mrtq_vta_conv_plan *cp, const mrtq_vta_conv_quant *q, mrtq_layout layout,
                                       const void *x, const void *w, void *y) {
  const uint8_t *xb = (const uint8_t *)x, *wb = (const uint8_t *)w;
  uint8_t *yb = (uint8_t *)y;
  const mrtq_vta_conv_shape *s;
  size_t n, o, oy, ox, c, ky, kx;
  int xu, wu;
  mrtq_status st;
  if (!cp) return MRTQ__ERR(MRTQ_EINVAL, "cp: NULL");
  if ((st = mrtq__vta_conv_args(cp, q, layout)) != MRTQ_OK) return st;
  if (!x) return MRTQ__ERR(MRTQ_EINVAL, "x: NULL");
  if (!w) return MRTQ__ERR(MRTQ_EINVAL, "w: NULL");
  if (!y) return MRTQ__ERR(MRTQ_EINVAL, "y: NULL");
  if (!q->m) return MRTQ__ERR(MRTQ_EINVAL, "q->m: NULL");
  xu = q->x_type == MRTQ_U8, wu = q->w_type == MRTQ_U8;
  s = &cp->s;
  for (n = 0; n < s->n; n++)
    for (o = 0; o < s->o; o++)
      for (oy = 0; oy < cp->ho; oy++)
        for (ox = 0; ox < cp->wo; ox++) {
          int64_t acc = q->bias ? q->bias[o] : 0;
          size_t to;
          for (c = 0; c < s->c; c++)
            for (ky = 0; ky < s->kh; ky++)
              for (kx = 0; kx < s->kw; kx++) {
                size_t iy = oy * s->stride_h + ky * s->dil_h, ix = ox * s->stride_w + kx * s->dil_w, xa, wa;
                int32_t xv, wv;
                if (iy < s->pad_h || iy >= s->pad_h + s->h || ix < s->pad_w || ix >= s->pad_w + s->w) continue;
                iy -= s->pad_h, ix -= s->pad_w;
                xa = layout == MRTQ_NCHW ? ((n * s->c + c) * s->h + iy) * s->w + ix : ((n * s->h + iy) * s->w + ix) * s->c + c;
                wa = layout == MRTQ_NCHW ? ((o * s->c + c) * s->kh + ky) * s->kw + kx : ((o * s->kh + ky) * s->kw + kx) * s->c + c;
                xv = xu ? (int32_t)xb[xa] : (int32_t)(int8_t)xb[xa];
                wv = wu ? (int32_t)wb[wa] : (int32_t)(int8_t)wb[wa];
                acc += (int64_t)(xv - q->x_zp) * (wv - q->w_zp);
              }
          to = layout == MRTQ_NCHW ? ((n * s->o + o) * cp->ho + oy) * cp->wo + ox : ((n * cp->ho + oy) * cp->wo + ox) * s->o + o;
          yb[to] = (uint8_t)mrtq_vta_rq_ref(&cp->rq, q->m[q->nm == 1 ? 0 : o], (int32_t)acc);
        }
  return MRTQ_OK;
}


#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_VTA_H */
