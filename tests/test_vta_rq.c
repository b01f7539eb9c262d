/* VTA requant programs and the ADD driver (mrtq/vta.h):
 *  - plans against an oracle derived here from docs/vta.md (pre-shift r,
 *    folded multiplier, shift, rounding, clamp) in plain 64-bit math, against
 *    the scalar core (mrtq_mul_q15_vta / _rndnu) where the plan needs no
 *    pre-shift, and against the library's two statements (step interpreter,
 *    formula);
 *  - the same plans emitted as instructions and run on the simulator, for
 *    every target profile, per tensor (exhaustively for narrow accumulators)
 *    and per channel (parameter rows in ACC);
 *  - the ADD driver on random tensors, scales and odd lengths, equal to the
 *    CPU reference and, through it, to the scalar core.
 * The simulator itself is tested instruction by instruction in
 * test_vta_sim.c. */
#include <math.h>

#include "harness.h"
#include "mrtq.h"
#include "mrtq/vta.h"

static unsigned char scratch[600 * 1024];
static unsigned char dram[1 << 20];
static mrtq_vta_config cfg;
static long long lanes_compared, add_compared;

/* ---- the oracle: docs/vta.md "requant plans", written independently ---- */
static int64_t floor_div_pow2(int64_t v, int k) {
  int64_t d = (int64_t)1 << k, q = v / d;
  return (v % d != 0 && v < 0) ? q - 1 : q;
}
static int bitlen(int64_t v) {
  int n = 0;
  while (v) v >>= 1, n++;
  return n;
}
typedef struct {
  int ok, r, k, wide;
  int64_t m;
} chan_t;
/* r, M', k' per the doc; ok = 0 where the doc says MRTQ_ERANGE; `mul`: the
 * target multiplies, so a pre-shift is replaced by the exact two-half
 * product where k' >= 16 (+1 for nudge) for every channel (checked per
 * channel here; the per-channel test only uses shifts where all agree) */
static chan_t o_chan(int32_t M, int32_t s, int in_bits, int pow2, int per_channel, int nudge, int mul) {
  chan_t c;
  int k = 15 - s;
  c.ok = 1, c.wide = 0;
  if (pow2) {
    int e = (double)M >= 16384.0 * sqrt(2.0) ? s : s - 1; /* nearest power of two of M 2^(s-15) */
    c.r = 0, c.m = 1, c.k = -e;
    if (e > 0 && (per_channel || in_bits - 1 + e > 30)) c.ok = 0;
  } else {
    int u = 0;
    int64_t m = M;
    while (!per_channel && u < k && m % 2 == 0) m /= 2, u++;
    c.m = m;
    c.r = in_bits - 32 + bitlen(m) > 0 ? in_bits - 32 + bitlen(m) : 0;
    c.k = k - u - c.r;
    if (c.k < 0) c.ok = 0;
    if (mul && c.r > 0 && k - u >= 16 + nudge) c.r = 0, c.k = k - u, c.ok = 1, c.wide = 1; /* exact */
  }
  if (per_channel && c.k < (nudge ? 1 : 0)) c.ok = 0;
  return c;
}
/* The doc's no-wrap rule: outside the wide form, the nudge `ADD 1` (applied
 * to floor(x' M' / 2^(k'-1))) and `ADD zp` must stay within int32 for every
 * b-bit x; the value only grows with x, so the two ends of the range decide. */
static int o_wraps(chan_t c, int nudge, int per_channel, int in_bits, int32_t zp) {
  int64_t ends[2], y;
  int i;
  if (c.wide) return 0;
  ends[0] = -((int64_t)1 << (in_bits - 1)), ends[1] = ((int64_t)1 << (in_bits - 1)) - 1;
  for (i = 0; i < 2; i++) {
    int64_t prod = floor_div_pow2(ends[i], c.r) * c.m;
    if (nudge && (per_channel || c.k >= 1)) {
      int64_t t = floor_div_pow2(prod, c.k - 1);
      if (t + 1 > INT32_MAX) return 1;
      y = floor_div_pow2(t + 1, 1);
    } else {
      y = c.k >= 0 ? floor_div_pow2(prod, c.k) : prod * ((int64_t)1 << -c.k);
    }
    if (zp && (y + zp > INT32_MAX || y + zp < INT32_MIN)) return 2;
  }
  return 0;
}
static int32_t o_value(chan_t c, int nudge, int32_t zp, int32_t qmin, int32_t qmax, int32_t x) {
  int64_t y = floor_div_pow2(x, c.r) * c.m;
  if (c.k > 0) y = floor_div_pow2(y + (nudge ? (int64_t)1 << (c.k - 1) : 0), c.k);
  else y *= (int64_t)1 << -c.k;
  y += zp;
  return (int32_t)(y < qmin ? qmin : y > qmax ? qmax : y);
}

/* ---- running a plan on the simulator ---- */
#define ROWS_MAX 256
#define COPY_ROW 512
#define PARAM_ROW 1024
#define X_DRAM 1024        /* ACC elements (64 bytes): byte 65536 */
#define OUT_DRAM (X_DRAM * 4 + ROWS_MAX * 4 + 64) /* OUT elements (16 bytes) */
#define PARAM_DRAM (X_DRAM + ROWS_MAX)

/* x: rows * 16 lanes; per channel: params rows for `blocks` blocks, the data
 * rows split evenly over the blocks. Leaves the ACC in s. */
static mrtq_status sim_plan(mrtq_vta_sim *s, const mrtq_vta_rq_plan *plan, mrtq_vta_profile prof, const int32_t *x,
                            uint32_t rows, const int32_t *params, uint32_t blocks, size_t *ninsn) {
  mrtq_vta_word words[512];
  uint32_t uops[64];
  mrtq_vta_prog p;
  mrtq_vta_insn in;
  size_t last = 0, i;
  uint32_t j, per = blocks ? rows / blocks : rows;
  memset(&p, 0, sizeof p);
  CHECK_EQ(mrtq_vta_sim_init(&cfg, prof, scratch, sizeof scratch, dram, sizeof dram, s), MRTQ_OK, "init");
  CHECK_EQ(mrtq_vta_prog_init(&cfg, words, 512, uops, 64, &p), MRTQ_OK, "prog");
  memcpy(dram + (size_t)X_DRAM * 64, x, (size_t)rows * 64);
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_LOAD, in.memory_type = MRTQ_VTA_MEM_ACC, in.dram_base = X_DRAM;
  in.y_size = 1, in.x_size = rows, in.x_stride = rows;
  mrtq_vta_prog_push(&in, &p);
  if (plan->per_channel) {
    memcpy(dram + (size_t)PARAM_DRAM * 64, params, (size_t)blocks * (size_t)plan->nparams * 64);
    in.sram_base = PARAM_ROW, in.dram_base = PARAM_DRAM, in.x_size = in.x_stride = blocks * (uint32_t)plan->nparams;
    mrtq_vta_prog_push(&in, &p);
    for (j = 0; j < blocks; j++)
      last = mrtq_vta_emit_rq(plan, j * per, per, COPY_ROW + j * per, PARAM_ROW + j * (uint32_t)plan->nparams, &p);
  } else {
    last = mrtq_vta_emit_rq(plan, 0, rows, COPY_ROW, 0, &p);
  }
  mrtq_vta_prog_deps(last, 0, 0, 0, 1, &p);
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_STORE, in.memory_type = MRTQ_VTA_MEM_OUT, in.dram_base = OUT_DRAM;
  in.y_size = 1, in.x_size = rows, in.x_stride = rows, in.pop_prev = 1;
  mrtq_vta_prog_push(&in, &p);
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_FINISH;
  mrtq_vta_prog_push(&in, &p);
  CHECK_EQ(mrtq_vta_prog_finish(0, &p, dram, sizeof dram), MRTQ_OK, "finish");
  if (ninsn) *ninsn = p.n;
  for (i = 0; i < p.n; i++) {
    memset(&in, 0, sizeof in);
    mrtq_vta_decode(&cfg, &words[i], &in);
    if (in.opcode == MRTQ_VTA_ALU) { /* every immediate the builder emits fits; SHR amounts suit HLS */
      CHECK(in.imm >= -32768 && in.imm <= 32767);
      if (prof == MRTQ_VTA_PROFILE_HLS && in.alu_opcode == MRTQ_VTA_ALU_SHR && in.use_imm)
        CHECK(in.imm >= -16 && in.imm <= 15);
      if (prof == MRTQ_VTA_PROFILE_HLS || prof == MRTQ_VTA_PROFILE_CHISEL) CHECK(in.alu_opcode != MRTQ_VTA_ALU_MUL);
    }
  }
  return mrtq_vta_sim_run(words, p.n, s);
}

static const mrtq_vta_profile profiles[4] = {MRTQ_VTA_PROFILE_SIM, MRTQ_VTA_PROFILE_HLS, MRTQ_VTA_PROFILE_CHISEL,
                                             MRTQ_VTA_PROFILE_OPENCL};

static int32_t rand_mult(void) {
  switch (th_rand32() % 6u) {
    case 0: return 16384;                       /* a power of two: folds away */
    case 1: return 24576;                       /* trailing zeros */
    case 2: return 32767;                       /* every bit set */
    case 3: return (int32_t)th_range(23169, 23172); /* around 2^14.5 (POW2 rounding) */
    default: return (int32_t)th_range(16384, 32767);
  }
}

/* Per tensor: random plans, every target and rounding, exhaustive inputs for
 * accumulators up to 12 bits, edges plus random ones beyond. */
static void test_plans_per_tensor(void) {
  static int32_t x[ROWS_MAX * 16];
  static const int bits_choice[] = {4, 8, 12, 16, 17, 18, 24, 32};
  mrtq_vta_sim s;
  int trial, refused = 0, built = 0, core = 0, wrap_refused = 0;
  cfg = mrtq_vta_config_default();
  for (trial = 0; trial < 400; trial++) {
    mrtq_vta_rq_opts o = mrtq_vta_rq_opts_default();
    mrtq_vta_rq_plan plan;
    mrtq_mult m;
    int32_t zp, qmin, qmax;
    int pow2, nudge, nx, i, u8 = (int)(th_rand32() & 1u);
    chan_t c;
    mrtq_status st;
    o.target = profiles[trial % 4];
    o.rounding = nudge = (int)(th_rand32() & 1u);
    o.in_bits = bits_choice[th_rand32() % 8u];
    o.allow_pow2 = (int)(th_rand32() % 3u == 0);
    if (o.target == MRTQ_VTA_PROFILE_SIM || o.target == MRTQ_VTA_PROFILE_OPENCL) o.allow_pow2 = 0; /* refused there */
    m.mult = rand_mult();
    m.shift = (int32_t)th_range(-15, 15);
    if (th_rand32() & 1u) m.shift = (int32_t)th_range(-15, 0); /* requant scales are mostly < 1 */
    zp = th_rand32() % 4u ? (int32_t)th_range(-128, 127) : (int32_t)th_range(-32768, 32767);
    qmin = u8 ? (int32_t)th_range(0, 20) : (int32_t)th_range(-128, -100);
    qmax = u8 ? (int32_t)th_range(230, 255) : (int32_t)th_range(100, 127);
    pow2 = o.allow_pow2 && (o.target == MRTQ_VTA_PROFILE_HLS || o.target == MRTQ_VTA_PROFILE_CHISEL);
    c = o_chan(m.mult, m.shift, o.in_bits, pow2, 0, nudge,
               o.target == MRTQ_VTA_PROFILE_SIM || o.target == MRTQ_VTA_PROFILE_OPENCL);
    if (c.ok && o_wraps(c, nudge, 0, o.in_bits, zp)) c.ok = 0, wrap_refused++;
    st = mrtq_vta_rq_plan_build(&o, &m, 1, zp, qmin, qmax, &plan);
    CHECK_EQ(st, c.ok ? MRTQ_OK : MRTQ_ERANGE, "trial %d M=%d s=%d bits=%d pow2=%d", trial, m.mult, m.shift,
             o.in_bits, pow2);
    if (st != MRTQ_OK) {
      refused++;
      continue;
    }
    built++;
    CHECK_EQ(plan.method, pow2 ? MRTQ_VTA_BY_POW2 : (o.target == MRTQ_VTA_PROFILE_HLS || o.target == MRTQ_VTA_PROFILE_CHISEL) ? MRTQ_VTA_BY_SHIFT_ADD : MRTQ_VTA_BY_MUL, "method");
    CHECK(plan.pre_shift == c.r && plan.mult == c.m && plan.shift == c.k);
    /* inputs: all of them for narrow accumulators, else edges and random */
    if (o.in_bits <= 12) {
      nx = 1 << o.in_bits;
      for (i = 0; i < nx; i++) x[i] = i - (1 << (o.in_bits - 1));
    } else {
      int64_t lo = -((int64_t)1 << (o.in_bits - 1)), hi = ((int64_t)1 << (o.in_bits - 1)) - 1;
      nx = ROWS_MAX * 16;
      for (i = 0; i < nx; i++) x[i] = (int32_t)th_range(lo, hi);
      x[0] = (int32_t)lo, x[1] = (int32_t)hi, x[2] = 0, x[3] = -1, x[4] = 1;
      for (i = 5; i < 64; i++) { /* near multiples of 2^(r + k'): the rounding boundaries */
        int64_t step = (int64_t)1 << (c.r + (c.k > 0 ? c.k : 0) < 40 ? c.r + (c.k > 0 ? c.k : 0) : 40);
        int64_t v = (int64_t)th_range(-8, 8) * step + th_range(-2, 2);
        x[i] = (int32_t)(v < lo ? lo : v > hi ? hi : v);
      }
    }
    for (i = nx; i % 16; i++) x[i] = 0;
    CHECK_EQ(sim_plan(&s, &plan, o.target, x, (uint32_t)((nx + 15) / 16), NULL, 0, NULL), MRTQ_OK, "run: %s", s.error);
    for (i = 0; i < nx; i++) {
      int32_t want = o_value(c, nudge, zp, qmin, qmax, x[i]);
      CHECK_EQ(s.acc[i], want, "trial %d x=%d M=%d s=%d r=%d k=%d", trial, x[i], m.mult, m.shift, c.r, c.k);
      CHECK_EQ(dram[(size_t)OUT_DRAM * 16 + (size_t)i], (uint8_t)want, "stored byte");
      CHECK_EQ(mrtq_vta_rq_steps_eval(&plan, x[i], NULL), want, "interpreter x=%d", x[i]);
      CHECK_EQ(mrtq_vta_rq_ref(&plan, m, x[i]), want, "formula x=%d", x[i]);
      /* the scalar core: the same requantization on the CPU (its VTA form wraps
       * in the product x * M, the plan does not: compare where no wrap occurs) */
      if (c.r == 0 && !pow2 && (nudge || llabs((long long)x[i] * m.mult) <= INT32_MAX)) {
        int64_t y = (int64_t)(nudge ? mrtq_mul_q15_rndnu(x[i], m) : mrtq_mul_q15_vta(x[i], m)) + zp;
        CHECK_EQ(want, y < qmin ? qmin : y > qmax ? qmax : y, "core x=%d", x[i]);
        core++;
      }
      lanes_compared++;
    }
  }
  CHECK(built > 200 && refused > 0 && core > 100000);
  printf("  per tensor: %d plans built, %d refused as the doc says (%d where a step could wrap), %lld lanes compared\n",
         built, refused, wrap_refused, lanes_compared);
}

/* Per channel: multipliers and shifts in parameter rows, 17..48 channels. */
static void test_plans_per_channel(void) {
  static int32_t x[ROWS_MAX * 16], rows[64 * 16];
  mrtq_vta_sim s;
  int trial, wides = 0;
  long long n = 0;
  cfg = mrtq_vta_config_default();
  for (trial = 0; trial < 200; trial++) {
    mrtq_vta_rq_opts o = mrtq_vta_rq_opts_default();
    mrtq_vta_rq_plan plan;
    mrtq_mult m[48];
    size_t nch = (size_t)th_range(17, 48), ch, blocks = (nch + 15) / 16, per = 64 / ((nch + 15) / 16), j, l;
    int32_t zp = (int32_t)th_range(-20, 20);
    int pow2 = trial % 3 == 2, nudge = (int)(th_rand32() & 1u), i, wide;
    mrtq_status st;
    o.target = pow2 ? profiles[th_rand32() % 4u] : (th_rand32() & 1u) ? MRTQ_VTA_PROFILE_SIM : MRTQ_VTA_PROFILE_OPENCL;
    o.rounding = nudge;
    o.allow_pow2 = pow2;
    o.in_bits = (int)th_range(8, 32);
    for (ch = 0; ch < nch; ch++) m[ch].mult = rand_mult(), m[ch].shift = (int32_t)th_range(-15, -1);
    if (pow2 && (o.target == MRTQ_VTA_PROFILE_SIM || o.target == MRTQ_VTA_PROFILE_OPENCL)) o.allow_pow2 = 0, pow2 = 0;
    st = mrtq_vta_rq_plan_build(&o, m, nch, zp, -128, 127, &plan);
    wide = 0;
    if (o.in_bits > 17 && !pow2) { /* exact two-half product if every channel's shift allows, else pre-shift */
      int bad = 0;
      wide = 1;
      for (ch = 0; ch < nch; ch++) wide &= 15 - m[ch].shift >= 16 + nudge;
      for (ch = 0; ch < nch; ch++) {
        chan_t cc = o_chan(m[ch].mult, m[ch].shift, o.in_bits, 0, 1, nudge, wide);
        bad |= !cc.ok || o_wraps(cc, nudge, 1, o.in_bits, zp);
      }
      CHECK_EQ(st, bad ? MRTQ_ERANGE : MRTQ_OK, "per-channel status");
      if (bad) continue;
      if (st == MRTQ_OK) CHECK_EQ(plan.wide, wide, "wide");
      wides += wide;
    }
    CHECK_EQ(st, MRTQ_OK, "per-channel plan, trial %d", trial);
    if (st != MRTQ_OK) continue;
    CHECK(plan.per_channel && plan.method == (pow2 ? MRTQ_VTA_BY_POW2 : MRTQ_VTA_BY_MUL));
    CHECK_EQ(mrtq_vta_rq_param_rows(&cfg, &plan, m, nch, rows), MRTQ_OK, "rows");
    for (i = 0; i < (int)(blocks * per * 16); i++)
      x[i] = (int32_t)th_range(-((int64_t)1 << (o.in_bits - 1)), ((int64_t)1 << (o.in_bits - 1)) - 1);
    CHECK_EQ(sim_plan(&s, &plan, o.target, x, (uint32_t)(blocks * per), rows, (uint32_t)blocks, NULL), MRTQ_OK,
             "run: %s", s.error);
    for (j = 0; j < blocks; j++)
      for (i = 0; i < (int)per; i++)
        for (l = 0; l < 16; l++) {
          size_t e = (j * per + (size_t)i) * 16 + l, c = j * 16 + l;
          int32_t want;
          if (c >= nch) continue; /* padding channels: multiplier 0 */
          want = o_value(o_chan(m[c].mult, m[c].shift, o.in_bits, pow2, 1, nudge, wide), nudge, zp, -128, 127, x[e]);
          CHECK_EQ(s.acc[e], want, "trial %d channel %zu x=%d", trial, c, x[e]);
          CHECK_EQ(mrtq_vta_rq_ref(&plan, m[c], x[e]), want, "formula");
          {
            int32_t pv[3];
            int q;
            for (q = 0; q < plan.nparams; q++) pv[q] = rows[(j * (size_t)plan.nparams + (size_t)q) * 16 + l];
            CHECK_EQ(mrtq_vta_rq_steps_eval(&plan, x[e], pv), want, "interpreter");
          }
          if (!pow2 && (o.in_bits <= 17 || wide) && (nudge || llabs((long long)x[e] * m[c].mult) <= INT32_MAX)) {
            int64_t y = (int64_t)(nudge ? mrtq_mul_q15_rndnu(x[e], m[c]) : mrtq_mul_q15_vta(x[e], m[c])) + zp;
            CHECK_EQ(want, y < -128 ? -128 : y > 127 ? 127 : y, "core");
          }
          n++;
        }
  }
  lanes_compared += n;
  CHECK(n > 100000 && wides > 10);
  printf("  per channel: %lld lanes compared, %d plans with the exact two-half product\n", n, wides);
}

/* The delegate's exact sequence (alkali-csd-fw vta-delegate-ops.cpp, aluAdd):
 * MUL imm mult, SHR imm 15 - shift, ADD imm zp, MIN imm 127, MAX imm -128. */
static void test_delegate_sequence(void) {
  mrtq_vta_rq_opts o = mrtq_vta_rq_opts_default();
  mrtq_vta_rq_plan plan;
  mrtq_mult m;
  static const int want_op[5] = {MRTQ_VTA_ALU_MUL, MRTQ_VTA_ALU_SHR, MRTQ_VTA_ALU_ADD, MRTQ_VTA_ALU_MIN,
                                 MRTQ_VTA_ALU_MAX};
  int i;
  o.delegate = 1;
  m.mult = 21475, m.shift = -3;
  CHECK_EQ(mrtq_vta_rq_plan_build(&o, &m, 1, -5, -128, 127, &plan), MRTQ_OK, "delegate");
  CHECK_EQ(plan.nsteps, 5, "five instructions");
  for (i = 0; i < 5; i++) {
    CHECK_EQ(plan.step[i].alu_opcode, want_op[i], "op %d", i);
    CHECK_EQ(plan.step[i].operand, MRTQ_VTA_OPND_IMM, "imm %d", i);
  }
  CHECK_EQ(plan.step[0].imm, 21475, "mult");
  CHECK_EQ(plan.step[1].imm, 18, "15 - shift");
  CHECK_EQ(plan.step[2].imm, -5, "zp");
  CHECK_EQ(plan.step[3].imm, 127, "min");
  CHECK_EQ(plan.step[4].imm, -128, "max");
  /* its wraps are kept: x * mult overflows int32 for x = 2^17 */
  CHECK_EQ(mrtq_vta_rq_steps_eval(&plan, 1 << 17, NULL), mrtq_vta_rq_ref(&plan, m, 1 << 17), "wrap");
  CHECK_EQ(mrtq_vta_rq_ref(&plan, m, 1 << 17), -128, "2^17 * 21475 wraps negative");
}

static void test_plan_errors(void) {
  mrtq_vta_rq_opts o = mrtq_vta_rq_opts_default();
  mrtq_vta_rq_plan plan;
  mrtq_mult m = {20000, -4}, two[2] = {{20000, -4}, {30000, -6}};
  int32_t rows[64];
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, NULL, 1, 0, -128, 127, &plan), MRTQ_EINVAL, "m: NULL");
  CHECK_REFUSED(mrtq_vta_rq_plan_build(NULL, &m, 1, 0, -128, 127, &plan), MRTQ_EINVAL, "o: NULL");
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -128, 127, NULL), MRTQ_EINVAL, "plan: NULL");
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &m, 0, 0, -128, 127, &plan), MRTQ_EINVAL, "nch");
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &m, 1, 0, 5, 4, &plan), MRTQ_EINVAL, "qmin > qmax");
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -129, 127, &plan), MRTQ_ERANGE, "qmin, qmax: must lie within");
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -1, 200, &plan), MRTQ_ERANGE, "qmin, qmax: must lie within");
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &m, 1, 40000, 0, 255, &plan), MRTQ_ERANGE, "zp: must be in [-32768");
  o.in_bits = 0;
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -128, 127, &plan), MRTQ_EINVAL, "o->in_bits: must be in [1, 32]");
  o.in_bits = 32, o.rounding = 7;
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -128, 127, &plan), MRTQ_EINVAL, "o->rounding");
  o.rounding = MRTQ_VTA_ROUND_FLOOR, o.target = (mrtq_vta_profile)9;
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -128, 127, &plan), MRTQ_EINVAL, "o->target");
  o.target = MRTQ_VTA_PROFILE_SIM, o.allow_pow2 = 1; /* has MUL: allow_pow2 would be ignored */
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -128, 127, &plan), MRTQ_EINVAL, "o->allow_pow2");
  o.allow_pow2 = 0, o.delegate = 1, o.in_bits = 17; /* the delegate's sequence does not read in_bits */
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -128, 127, &plan),
                MRTQ_EINVAL, "o->in_bits: must be 32 in delegate");
  o.in_bits = 32;
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, two, 2, 0, -128, 127, &plan), MRTQ_EUNSUPPORTED, "o->delegate: per tensor");
  o.rounding = MRTQ_VTA_ROUND_NUDGE;
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -128, 127, &plan), MRTQ_EUNSUPPORTED, "o->delegate: floor");
  o.rounding = MRTQ_VTA_ROUND_FLOOR;
  m.shift = -20; /* 15 - shift = 35 */
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -128, 127, &plan),
                MRTQ_ERANGE, "delegate mode needs 15 - m->shift");
  /* a hand-made multiplier the MUL immediate cannot hold: the plan was built and its program could not be
   * encoded (found by fuzz_vta_plan); the ends of int16 still build */
  m.shift = -4, m.mult = 32768;
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -128, 127, &plan), MRTQ_ERANGE, "m: delegate mode needs m->mult in");
  m.mult = -32769;
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -128, 127, &plan), MRTQ_ERANGE, "m: delegate mode needs m->mult in");
  m.mult = 32767;
  CHECK_EQ(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -128, 127, &plan), MRTQ_OK, "32767");
  m.mult = -32768;
  CHECK_EQ(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -128, 127, &plan), MRTQ_OK, "-32768");
  m.mult = 20000;
  m.shift = -4, o.delegate = 0;
  m.mult = 0;
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -128, 127, &plan), MRTQ_ERANGE, "m: mult must be in");
  m.mult = 20000, m.shift = 16;
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -128, 127, &plan), MRTQ_ERANGE, "m: mult must be in");
  m.shift = 10; /* 32-bit accumulator: r = 32 - 32 + 15 = 15 > k = 5 */
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -128, 127, &plan), MRTQ_ERANGE, "turn left after the pre-shift");
  m.shift = -4;
  o.target = MRTQ_VTA_PROFILE_HLS, o.delegate = 1;
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -128, 127, &plan),
                MRTQ_EUNSUPPORTED, "o->delegate: needs a target with MUL");
  o.delegate = 0;
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, two, 2, 0, -128, 127, &plan), MRTQ_EUNSUPPORTED, "needs o->allow_pow2");
  o.allow_pow2 = 1;
  m.shift = 3; /* nearest power of two 2^2 or 2^3: a left shift of a 32-bit value */
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -128, 127, &plan), MRTQ_ERANGE, "nearest power of two");
  m.shift = -4;
  CHECK_EQ(mrtq_vta_rq_plan_build(&o, two, 2, 0, -128, 127, &plan), MRTQ_OK, "per channel POW2");
  cfg = mrtq_vta_config_default();
  CHECK_REFUSED(mrtq_vta_rq_param_rows(&cfg, &plan, two, 2, NULL), MRTQ_EINVAL, "rows: NULL");
  CHECK_REFUSED(mrtq_vta_rq_param_rows(&cfg, NULL, two, 2, rows), MRTQ_EINVAL, "plan: NULL");
  CHECK_REFUSED(mrtq_vta_rq_param_rows(&cfg, &plan, NULL, 2, rows), MRTQ_EINVAL, "m: NULL");
  CHECK_REFUSED(mrtq_vta_rq_param_rows(NULL, &plan, two, 2, rows), MRTQ_EINVAL, "cfg: NULL");
  {
    mrtq_mult bad[2] = {{20000, -4}, {1, -6}}; /* not from mrtq_mult_q15 */
    memset(rows, 0x5a, sizeof rows);
    CHECK_REFUSED(mrtq_vta_rq_param_rows(&cfg, &plan, bad, 2, rows), MRTQ_ERANGE, "cannot be carried");
    CHECK(rows[0] == 0x5a5a5a5a && rows[63] == 0x5a5a5a5a); /* nothing written */
  }
  CHECK_EQ(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -128, 127, &plan), MRTQ_OK, "per tensor POW2");
  CHECK_REFUSED(mrtq_vta_rq_param_rows(&cfg, &plan, &m, 1, rows), MRTQ_EINVAL, "per-tensor plan has no parameter rows");
  { /* per channel, nudge: every k'_c must be >= 1 */
    mrtq_mult s15[2] = {{20000, 15}, {20000, 15}};
    o = mrtq_vta_rq_opts_default();
    o.rounding = MRTQ_VTA_ROUND_NUDGE, o.in_bits = 8;
    CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, s15, 2, 0, -128, 127, &plan), MRTQ_ERANGE, "per channel the shift k'");
  }
}

/* Issue 22's wraps: a step of a plan must not wrap for any accumulator of the
 * declared width; the plan refuses where one could, and builds for one bit
 * less (the doc's rule). */
static void test_plan_no_wrap(void) {
  mrtq_vta_rq_opts o = mrtq_vta_rq_opts_default();
  mrtq_vta_rq_plan plan;
  mrtq_mult half, one;
  CHECK_EQ(mrtq_mult_q15(0.5, &half), MRTQ_OK, "0.5");
  CHECK_EQ(mrtq_mult_q15(1.0, &one), MRTQ_OK, "1.0");
  CHECK(half.mult == 16384 && half.shift == 0 && one.mult == 16384 && one.shift == 1);
  /* (b) nudge, x = 2^31 - 1: SHR 0, ADD 1, SHR 1 wrapped to -128 where the formula gives 127 */
  o.target = MRTQ_VTA_PROFILE_HLS, o.rounding = MRTQ_VTA_ROUND_NUDGE, o.in_bits = 32, o.allow_pow2 = 1;
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &half, 1, 0, -128, 127, &plan),
                MRTQ_ERANGE, "o->in_bits: the nudge step ADD 1");
  o.in_bits = 31;
  CHECK_EQ(mrtq_vta_rq_plan_build(&o, &half, 1, 0, -128, 127, &plan), MRTQ_OK, "31 bits");
  CHECK_EQ(mrtq_vta_rq_steps_eval(&plan, (1 << 30) - 1, NULL), 127, "top of 31 bits");
  CHECK_EQ(mrtq_vta_rq_steps_eval(&plan, -(1 << 30), NULL), -128, "bottom of 31 bits");
  /* (c) floor, scale 1: ADD zp wrapped at both ends */
  o.rounding = MRTQ_VTA_ROUND_FLOOR, o.in_bits = 32;
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &one, 1, -1, -128, 127, &plan), MRTQ_ERANGE, "zp: y + zp could wrap");
  CHECK_REFUSED(mrtq_vta_rq_plan_build(&o, &one, 1, 1, -128, 127, &plan), MRTQ_ERANGE, "zp: y + zp could wrap");
  CHECK_EQ(mrtq_vta_rq_plan_build(&o, &one, 1, 0, -128, 127, &plan), MRTQ_OK, "zp 0: no ADD");
  CHECK_EQ(mrtq_vta_rq_steps_eval(&plan, INT32_MIN, NULL), -128, "zp 0 at INT32_MIN");
  CHECK_EQ(mrtq_vta_rq_steps_eval(&plan, INT32_MAX, NULL), 127, "zp 0 at INT32_MAX");
  o.in_bits = 31;
  CHECK_EQ(mrtq_vta_rq_plan_build(&o, &one, 1, -1, -128, 127, &plan), MRTQ_OK, "31 bits, zp -1");
  CHECK_EQ(mrtq_vta_rq_steps_eval(&plan, -(1 << 30), NULL), -128, "zp -1 at the bottom");
  CHECK_EQ(mrtq_vta_rq_ref(&plan, one, -(1 << 30)), -128, "formula");
  CHECK_EQ(mrtq_vta_rq_plan_build(&o, &one, 1, 1, -128, 127, &plan), MRTQ_OK, "31 bits, zp 1");
  CHECK_EQ(mrtq_vta_rq_steps_eval(&plan, (1 << 30) - 1, NULL), 127, "zp 1 at the top");
  o.allow_pow2 = 0, o.in_bits = 32;
  /* on a target with MUL the folded product 2^31 needs a pre-shift (r = 1): nothing can wrap */
  o.target = MRTQ_VTA_PROFILE_SIM, o.rounding = MRTQ_VTA_ROUND_NUDGE;
  CHECK_EQ(mrtq_vta_rq_plan_build(&o, &half, 1, 0, -128, 127, &plan), MRTQ_OK, "SIM nudge 0.5");
  CHECK_EQ(mrtq_vta_rq_steps_eval(&plan, INT32_MAX, NULL), mrtq_vta_rq_ref(&plan, half, INT32_MAX), "top");
  CHECK_EQ(mrtq_vta_rq_steps_eval(&plan, INT32_MAX, NULL), 127, "top clamps");
}

/* ---- the ADD driver ---- */
static void test_add_driver(void) {
  static int8_t a[20001], b[20001], got[20001], want[20001];
  static mrtq_vta_word words[4096];
  static const size_t lens[] = {0, 1, 15, 16, 17, 1000, 8191, 8193, 16385, 20001};
  static unsigned char big[3 << 17];
  mrtq_vta_sim s;
  size_t li, i;
  int trial = 0, maxerr = 0;
  cfg = mrtq_vta_config_default();
  for (li = 0; li < sizeof lens / sizeof lens[0]; li++) {
    int pi;
    for (pi = 0; pi < 4; pi++, trial++) {
      mrtq_vta_add_params p;
      mrtq_vta_add_layout lay;
      mrtq_vta_rq_plan plan;
      size_t n = lens[li], ni = 0;
      int rnd = (int)(th_rand32() & 1u);
      double s1 = ldexp(1.0 + (double)(th_rand32() % 1000u) / 1000.0, -(int)th_range(3, 9));
      double s2 = s1 * (0.25 + (double)(th_rand32() % 1000u) / 500.0);
      double so = (s1 > s2 ? s1 : s2) * (0.5 + (double)(th_rand32() % 1000u) / 400.0);
      int32_t z1 = (int32_t)th_range(-128, 127), z2 = (int32_t)th_range(-128, 127), zo = (int32_t)th_range(-128, 127);
      memset(&lay, 0, sizeof lay);
      s1 = (float)s1, s2 = (float)s2, so = (float)so; /* TFLite scales are float */
      CHECK_EQ(mrtq_vta_add_params_init(s1, z1, s2, z2, so, zo, &p), MRTQ_OK, "params");
      for (i = 0; i < n; i++) a[i] = (int8_t)th_range(-128, 127), b[i] = (int8_t)th_range(-128, 127);
      if (n > 2) a[0] = -128, b[0] = -128, a[1] = 127, b[1] = 127;
      CHECK_EQ(mrtq_vta_add_plan(&p, rnd, profiles[pi], &plan), MRTQ_OK, "plan");
      CHECK_EQ(mrtq_vta_add_layout_of(&cfg, &plan, n, &lay), MRTQ_OK, "layout");
      CHECK(lay.dram_bytes <= sizeof big && lay.insns <= 4096);
      memset(big, 0xa5, sizeof big); /* sentinel: nothing may be written past the layout */
      CHECK_EQ(mrtq_vta_sim_init(&cfg, profiles[pi], scratch, sizeof scratch, big, lay.dram_bytes, &s), MRTQ_OK,
               "init");
      CHECK_EQ(mrtq_vta_add_run(&p, rnd, a, b, n, words, 4096, &s, got, &ni), MRTQ_OK, "run %zu: %s", n, s.error);
      CHECK_EQ(ni, lay.insns, "instruction count");
      for (i = lay.dram_bytes; i < sizeof big; i++)
        if (big[i] != 0xa5) break;
      CHECK_EQ(i, sizeof big, "DRAM past the layout untouched");
      CHECK_EQ(mrtq_vta_add_ref(&p, rnd, a, b, n, want), MRTQ_OK, "ref");
      for (i = 0; i < n; i++) {
        /* the scheme once more from the scalar core */
        int32_t y = mrtq_dequant_vta(a[i], z1, p.in1) + mrtq_dequant_vta(b[i], z2, p.in2);
        int64_t q = (int64_t)(rnd ? mrtq_mul_q15_rndnu(y, p.out) : mrtq_mul_q15_vta(y, p.out)) + zo;
        double real = (s1 * (a[i] - z1) + s2 * (b[i] - z2)) / so + zo;
        int e;
        q = q < -128 ? -128 : q > 127 ? 127 : q;
        real = real < -128 ? -128 : real > 127 ? 127 : real;
        CHECK_EQ(got[i], want[i], "n=%zu i=%zu a=%d b=%d", n, i, a[i], b[i]);
        CHECK_EQ(want[i], q, "core i=%zu", i);
        e = (int)fabs(floor(real + 0.5) - got[i]);
        if (e > maxerr) maxerr = e;
        add_compared++;
      }
    }
  }
  /* vs exact real arithmetic, on these scales: within 2 LSB (floor, host dequant roundings) */
  CHECK(maxerr <= 2);
  CHECK(add_compared > 150000);
  printf("  ADD: %lld elements compared, 0 allowed mismatches; max |out - round(real)| = %d LSB\n", add_compared,
         maxerr);
  { /* instruction counts for one set of scales: s1 = 0.05, s2 = 0.02, s_out = 0.06 */
    mrtq_vta_add_params p;
    int rnd, pi;
    CHECK_EQ(mrtq_vta_add_params_init(0.05f, 3, 0.02f, -7, 0.06f, -2, &p), MRTQ_OK, "params");
    for (rnd = 0; rnd < 2; rnd++)
      for (pi = 0; pi < 2; pi++) {
        mrtq_vta_rq_plan plan;
        mrtq_vta_add_layout l16, lbig;
        memset(&l16, 0, sizeof l16), memset(&lbig, 0, sizeof lbig);
        CHECK_EQ(mrtq_vta_add_plan(&p, rnd, profiles[pi], &plan), MRTQ_OK, "plan");
        CHECK_EQ(mrtq_vta_add_layout_of(&cfg, &plan, 16, &l16), MRTQ_OK, "layout");
        CHECK_EQ(mrtq_vta_add_layout_of(&cfg, &plan, 20001, &lbig), MRTQ_OK, "layout");
        printf("  ADD %s on %s: %d requant steps; %zu instructions for 16 elements, %zu for 20001 (%zu chunks)\n",
               rnd ? "nudge" : "floor", pi ? "HLS" : "SIM", plan.nsteps, l16.insns, lbig.insns, lbig.chunks);
      }
  }
}

/* Other configurations: a small ACC (128 rows: 40 chunks of 32 vectors, so
 * the two halves are reused 20 times each) and BATCH 2 (32 lanes per vector,
 * 3 chunks). */
/* The ADD program with its buffers moved (mrtq_vta_add_build with a layout
 * whose offsets the caller chose: a base above 0, a random order, gaps of
 * whole elements): the output equals mrtq_vta_add_ref and no DRAM byte
 * outside the four buffers is written. */
static void test_add_moved(void) {
  static int8_t a[5000], b[5000], got[5000], want[5000];
  static mrtq_vta_word words[4096];
  static const size_t lens[] = {1, 17, 300, 1024, 4999};
  mrtq_vta_config cfg = mrtq_vta_config_default();
  size_t li, i, moved = 0;
  for (li = 0; li < sizeof lens / sizeof lens[0]; li++) {
    mrtq_vta_add_params p;
    mrtq_vta_add_layout l;
    mrtq_vta_rq_plan plan;
    mrtq_vta_prog pr;
    mrtq_vta_sim s;
    uint32_t uops[MRTQ_VTA_ADD_UOPS];
    size_t n = lens[li], *off[4], bytes[4], order[4] = {0, 1, 2, 3}, at, j, k, al, bad = 0;
    int rnd = (int)(li & 1u);
    CHECK_EQ(mrtq_vta_add_params_init(0.05f, 3, 0.02f, -7, 0.06f, -2, &p), MRTQ_OK, "params");
    CHECK_EQ(mrtq_vta_add_plan(&p, rnd, MRTQ_VTA_PROFILE_SIM, &plan), MRTQ_OK, "plan");
    CHECK_EQ(mrtq_vta_add_layout_of(&cfg, &plan, n, &l), MRTQ_OK, "layout");
    for (i = 0; i < n; i++) a[i] = (int8_t)th_range(-128, 127), b[i] = (int8_t)th_range(-128, 127);
    off[0] = &l.uop_off, off[1] = &l.a_off, off[2] = &l.b_off, off[3] = &l.out_off;
    bytes[0] = MRTQ_VTA_ADD_UOPS * 4, bytes[1] = bytes[2] = l.vecs * 4 * l.lanes, bytes[3] = l.vecs * l.lanes;
    al = 4 * l.lanes;
    for (i = 4; i > 1; i--) j = (size_t)th_range(0, (int64_t)i - 1), k = order[i - 1], order[i - 1] = order[j], order[j] = k;
    at = al * (size_t)th_range(1, 50);
    for (i = 0; i < 4; i++) *off[order[i]] = at, at += (bytes[order[i]] + al - 1) / al * al + al * (size_t)th_range(0, 3);
    CHECK(at <= sizeof dram);
    memset(dram, 0xa5, at);
    for (i = 0; i < n; i++) {
      int32_t va = mrtq_dequant_vta(a[i], p.zp1, p.in1), vb = mrtq_dequant_vta(b[i], p.zp2, p.in2);
      memcpy(dram + l.a_off + 4 * i, &va, 4), memcpy(dram + l.b_off + 4 * i, &vb, 4);
    }
    for (i = n; i < l.vecs * l.lanes; i++) memset(dram + l.a_off + 4 * i, 0, 4), memset(dram + l.b_off + 4 * i, 0, 4);
    CHECK_EQ(mrtq_vta_sim_init(&cfg, MRTQ_VTA_PROFILE_SIM, scratch, sizeof scratch, dram, at, &s), MRTQ_OK, "init");
    CHECK_EQ(mrtq_vta_prog_init(&cfg, words, 4096, uops, MRTQ_VTA_ADD_UOPS, &pr), MRTQ_OK, "prog");
    CHECK_EQ(mrtq_vta_add_build(&plan, n, &l, &pr, dram, at), MRTQ_OK, "build moved");
    CHECK_EQ(mrtq_vta_sim_run(words, pr.n, &s), MRTQ_OK, "run: %s", s.error);
    for (i = 0; i < n; i++) got[i] = (int8_t)dram[l.out_off + i];
    CHECK_EQ(mrtq_vta_add_ref(&p, rnd, a, b, n, want), MRTQ_OK, "ref");
    CHECK_EQ(memcmp(got, want, n), 0, "moved ADD, n %zu", n);
    for (i = 0; i < at; i++) {
      int in = 0;
      for (j = 0; j < 4; j++) in |= i >= *off[j] && i < *off[j] + bytes[j];
      bad += !in && dram[i] != 0xa5;
    }
    CHECK_EQ(bad, 0, "DRAM written outside the buffers");
    moved += n;
    if (li == 0) { /* a misplaced layout is refused and leaves the program as it was */
      mrtq_vta_add_layout m = l;
      CHECK_EQ(mrtq_vta_prog_init(&cfg, words, 4096, uops, MRTQ_VTA_ADD_UOPS, &pr), MRTQ_OK, "prog");
      m.a_off += 4;
      CHECK_REFUSED(mrtq_vta_add_build(&plan, n, &m, &pr, dram, at), MRTQ_EINVAL, "offsets: a buffer does not start");
      m = l, m.b_off = m.a_off;
      CHECK_REFUSED(mrtq_vta_add_build(&plan, n, &m, &pr, dram, at), MRTQ_EINVAL, "offsets: two buffers overlap");
      m = l, m.out_off = at;
      CHECK_REFUSED(mrtq_vta_add_build(&plan, n, &m, &pr, dram, at), MRTQ_ERANGE, "dram_bytes: a buffer");
      CHECK_EQ(pr.n, 1, "nothing emitted");
    }
  }
  printf("  ADD with moved buffers: %zu elements equal to mrtq_vta_add_ref\n", moved);
}

/* The ADD entirely on the device (mrtq_vta_add_dev_run): every pair of int8
 * inputs (65 536 elements, 8 chunks) for random scales and zero points, both
 * roundings, the two targets with MUL, three configurations (default, BATCH
 * 2, a 64-row ACC: 16-vector chunks); the output must equal mrtq_vta_add_ref
 * (the delegate's host dequantization, then the same plan) and the host-form
 * driver's run. HLS and Chisel are refused (no MUL). */
static void test_add_device(void) {
  static int8_t a[65536], b[65536], got[65536], want[65536], host[65536];
  static mrtq_vta_word words[16384];
  static unsigned char big[1 << 20];
  static const mrtq_vta_profile prof[2] = {MRTQ_VTA_PROFILE_SIM, MRTQ_VTA_PROFILE_OPENCL};
  mrtq_vta_config cfgs[3];
  size_t i, compared = 0, ni = 0;
  int t;
  cfgs[0] = mrtq_vta_config_default();
  cfgs[1] = cfgs[0], cfgs[1].log_batch = 1;
  cfgs[2] = cfgs[0], cfgs[2].log_acc_buff_size = 12; /* 2^12 bytes / 64-byte rows: 64 rows */
  for (i = 0; i < 65536; i++) a[i] = (int8_t)(i & 255), b[i] = (int8_t)(i >> 8);
  for (t = 0; t < 12; t++) {
    mrtq_vta_add_params p;
    mrtq_vta_sim s;
    memset(&p, 0, sizeof p);
    const mrtq_vta_config *cfg = &cfgs[t % 3];
    int rnd = t / 3 % 2;
    double s1 = (float)ldexp(1.0 + (double)(th_rand32() % 1000u) / 1000.0, -(int)th_range(3, 9));
    double s2 = (float)(s1 * (0.25 + (double)(th_rand32() % 1000u) / 500.0));
    double so = (float)((s1 > s2 ? s1 : s2) * (0.5 + (double)(th_rand32() % 1000u) / 400.0));
    size_t n = t % 4 == 3 ? (size_t)th_range(1, 65535) : 65536;
    if (t == 4) s2 = s1 * 1e-7; /* a flushed input multiplier {0, 0}: that input contributes 0 (found by fuzz_vta_plan) */
    CHECK_EQ(mrtq_vta_add_params_init(s1, (int32_t)th_range(-128, 127), s2, (int32_t)th_range(-128, 127), so,
                                      (int32_t)th_range(-128, 127), &p), MRTQ_OK, "params");
    if (t == 4) CHECK_EQ(p.in2.mult, 0, "flushed");
    CHECK_EQ(mrtq_vta_sim_init(cfg, prof[t % 2], scratch, sizeof scratch, big, sizeof big, &s), MRTQ_OK, "init");
    CHECK_EQ(mrtq_vta_add_dev_run(&p, rnd, a, b, n, words, 16384, &s, got, &ni), MRTQ_OK, "device ADD: %s", s.error);
    CHECK_EQ(mrtq_vta_add_ref(&p, rnd, a, b, n, want), MRTQ_OK, "ref");
    CHECK_EQ(memcmp(got, want, n), 0, "device ADD = reference (trial %d)", t);
    CHECK_EQ(mrtq_vta_sim_init(cfg, prof[t % 2], scratch, sizeof scratch, big, sizeof big, &s), MRTQ_OK, "init");
    CHECK_EQ(mrtq_vta_add_run(&p, rnd, a, b, n, words, 16384, &s, host, NULL), MRTQ_OK, "host-form ADD");
    CHECK_EQ(memcmp(got, host, n), 0, "device ADD = host-form driver (trial %d)", t);
    compared += n;
    if (t == 0) printf("  device ADD of 65536 elements: %zu instructions\n", ni);
  }
  { /* refusals */
    mrtq_vta_add_params p;
    mrtq_vta_sim s;
    memset(&p, 0, sizeof p);
    mrtq_vta_config odd = cfgs[0];
    CHECK_EQ(mrtq_vta_add_params_init(0.05f, 3, 0.02f, -7, 0.06f, -2, &p), MRTQ_OK, "params");
    CHECK_EQ(mrtq_vta_sim_init(&cfgs[0], MRTQ_VTA_PROFILE_HLS, scratch, sizeof scratch, big, sizeof big, &s), MRTQ_OK, "init");
    CHECK_REFUSED(mrtq_vta_add_dev_run(&p, 0, a, b, 100, words, 16384, &s, got, NULL), MRTQ_EUNSUPPORTED,
                  "plan->opts.target: the on-device ADD multiplies");
    odd.log_block_in = 5;
    CHECK_EQ(mrtq_vta_sim_init(&odd, MRTQ_VTA_PROFILE_SIM, scratch, sizeof scratch, big, sizeof big, &s), MRTQ_OK, "init");
    CHECK_REFUSED(mrtq_vta_add_dev_run(&p, 0, a, b, 100, words, 16384, &s, got, NULL), MRTQ_EUNSUPPORTED,
                  "cfg: the on-device ADD needs BLOCK_IN == BLOCK_OUT");
    CHECK_EQ(mrtq_vta_sim_init(&cfgs[0], MRTQ_VTA_PROFILE_SIM, scratch, sizeof scratch, big, 1000, &s), MRTQ_OK, "init");
    CHECK_REFUSED(mrtq_vta_add_dev_run(&p, 0, a, b, 1000, words, 16384, &s, got, NULL), MRTQ_ERANGE, "sim->dram_bytes");
    CHECK_EQ(mrtq_vta_sim_init(&cfgs[0], MRTQ_VTA_PROFILE_SIM, scratch, sizeof scratch, big, sizeof big, &s), MRTQ_OK, "init");
    CHECK_REFUSED(mrtq_vta_add_dev_run(&p, 0, a, b, 100, words, 3, &s, got, NULL), MRTQ_ERANGE, "cap: below");
    CHECK_REFUSED(mrtq_vta_add_dev_run(&p, 0, NULL, b, 100, words, 16384, &s, got, NULL), MRTQ_EINVAL, "a: NULL");
    CHECK_REFUSED(mrtq_vta_add_dev_run(&p, 0, a, NULL, 100, words, 16384, &s, got, NULL), MRTQ_EINVAL, "b: NULL");
    CHECK_REFUSED(mrtq_vta_add_dev_run(&p, 0, a, b, 100, words, 16384, &s, NULL, NULL), MRTQ_EINVAL, "out: NULL");
    CHECK_REFUSED(mrtq_vta_add_dev_run(&p, 0, a, b, 100, NULL, 8192, &s, got, NULL), MRTQ_EINVAL, "words: NULL");
    CHECK_REFUSED(mrtq_vta_add_dev_run(&p, 0, a, b, 100, words, 16384, NULL, got, NULL), MRTQ_EINVAL, "sim: NULL");
    CHECK_EQ(mrtq_vta_add_dev_run(&p, 0, a, b, 0, words, 16384, &s, NULL, NULL), MRTQ_OK, "n = 0");
    { /* hand-filled input shifts far below -15 act as -31 there as in mrtq_dequant_vta (INT32_MIN included) */
      mrtq_vta_add_params far = p;
      far.in1.shift = INT32_MIN, far.in2.shift = -40;
      CHECK_EQ(mrtq_vta_add_dev_run(&far, 0, a, b, 65536, words, 16384, &s, got, NULL), MRTQ_OK, "far shifts");
      CHECK_EQ(mrtq_vta_add_ref(&far, 0, a, b, 65536, want), MRTQ_OK, "ref");
      CHECK_EQ(memcmp(got, want, 65536), 0, "far shifts, same bytes");
    }
    { /* a refusal of the parameters leaves the simulator's DRAM as it was */
      mrtq_vta_add_params bad = p;
      bad.in2.mult = -1;
      memset(big, 0x3c, 4096);
      CHECK_REFUSED(mrtq_vta_add_dev_run(&bad, 0, a, b, 100, words, 16384, &s, got, NULL), MRTQ_EUNSUPPORTED,
                    "a multiplier outside [0, 32767]");
      for (i = 0; i < 4096 && big[i] == 0x3c; i++) {
      }
      CHECK_EQ(i, 4096, "DRAM untouched");
    }
    { /* the builder alone: a moved layout, and its refusals */
      mrtq_vta_rq_plan plan;
      mrtq_vta_add_dev_layout l;
      mrtq_vta_prog pr;
      uint32_t uops[MRTQ_VTA_ADD_DEV_UOPS];
      mrtq_vta_add_params bad = p;
      CHECK_EQ(mrtq_vta_add_plan(&p, 0, MRTQ_VTA_PROFILE_SIM, &plan), MRTQ_OK, "plan");
      CHECK_REFUSED(mrtq_vta_add_dev_layout_of(&cfgs[0], &plan, 100, NULL), MRTQ_EINVAL, "l: NULL");
      CHECK_REFUSED(mrtq_vta_add_dev_layout_of(&cfgs[0], NULL, 100, &l), MRTQ_EINVAL, "plan: NULL");
      odd = cfgs[0], odd.log_acc_buff_size = 7; /* 2 rows */
      CHECK_REFUSED(mrtq_vta_add_dev_layout_of(&odd, &plan, 100, &l), MRTQ_EUNSUPPORTED, "at least 4 ACC rows");
      odd = cfgs[0], odd.log_inp_width = 2;
      CHECK_REFUSED(mrtq_vta_add_dev_layout_of(&odd, &plan, 100, &l), MRTQ_EUNSUPPORTED, "8-bit inputs");
      CHECK_EQ(mrtq_vta_add_dev_layout_of(&cfgs[0], &plan, 100, &l), MRTQ_OK, "layout");
      CHECK_EQ(mrtq_vta_prog_init(&cfgs[0], words, 16384, uops, MRTQ_VTA_ADD_DEV_UOPS, &pr), MRTQ_OK, "prog");
      bad.in1.shift = 1;
      CHECK_REFUSED(mrtq_vta_add_dev_build(&bad, &plan, 100, NULL, &pr, big, sizeof big), MRTQ_EUNSUPPORTED,
                    "an input shift > 0");
      bad = p, bad.in2.mult = 40000;
      CHECK_REFUSED(mrtq_vta_add_dev_build(&bad, &plan, 100, NULL, &pr, big, sizeof big), MRTQ_EUNSUPPORTED,
                    "a multiplier outside [0, 32767]");
      CHECK_REFUSED(mrtq_vta_add_dev_build(NULL, &plan, 100, NULL, &pr, big, sizeof big), MRTQ_EINVAL, "p: NULL");
      CHECK_REFUSED(mrtq_vta_add_dev_build(&p, NULL, 100, NULL, &pr, big, sizeof big), MRTQ_EINVAL, "plan: NULL");
      CHECK_REFUSED(mrtq_vta_add_dev_build(&p, &plan, 100, NULL, NULL, big, sizeof big), MRTQ_EINVAL, "p: NULL");
      CHECK_REFUSED(mrtq_vta_add_dev_build(&p, &plan, 100, NULL, &pr, NULL, sizeof big), MRTQ_EINVAL, "dram: NULL");
      l.a_off += 1;
      CHECK_REFUSED(mrtq_vta_add_dev_build(&p, &plan, 100, &l, &pr, big, sizeof big), MRTQ_EINVAL, "offsets: a buffer");
      CHECK_EQ(mrtq_vta_prog_init(&cfgs[0], words, 5, uops, MRTQ_VTA_ADD_DEV_UOPS, &pr), MRTQ_OK, "prog of 5");
      CHECK_REFUSED(mrtq_vta_add_dev_build(&p, &plan, 100, NULL, &pr, big, sizeof big), MRTQ_ERANGE, "p->cap: below");
    }
  }
  printf("  device ADD: %zu elements equal to the reference and to the host-form driver\n", compared);
}

static void test_add_configs(void) {
  static int8_t a[20001], b[20001], got[20001], want[20001];
  static mrtq_vta_word words[2048];
  mrtq_vta_config cfgs[2];
  int ci;
  cfgs[0] = mrtq_vta_config_default();
  cfgs[0].log_acc_buff_size = 13;
  cfgs[1] = mrtq_vta_config_default();
  cfgs[1].log_batch = 1;
  for (ci = 0; ci < 2; ci++) {
    int pi;
    for (pi = 0; pi < 4; pi++) {
      mrtq_vta_add_params p;
      mrtq_vta_add_layout lay;
      mrtq_vta_rq_plan plan;
      mrtq_vta_sim s;
      size_t n = ci ? 20001 - 16 * (size_t)pi : 20001 - (size_t)pi, i, ni = 0;
      int rnd = pi & 1;
      memset(&lay, 0, sizeof lay);
      memset(&s, 0, sizeof s);
      CHECK_EQ(mrtq_vta_add_params_init(0.031f, -3, 0.047f, 11, 0.05f, 4, &p), MRTQ_OK, "params");
      for (i = 0; i < n; i++) a[i] = (int8_t)th_range(-128, 127), b[i] = (int8_t)th_range(-128, 127);
      CHECK_EQ(mrtq_vta_add_plan(&p, rnd, profiles[pi], &plan), MRTQ_OK, "plan");
      CHECK_EQ(mrtq_vta_add_layout_of(&cfgs[ci], &plan, n, &lay), MRTQ_OK, "layout");
      CHECK_EQ(lay.chunks, ci ? 3 : 40, "chunks"); /* 626 vectors of 32 in 256-row chunks; 1251 of 16 in 32 */
      CHECK(mrtq_vta_sim_scratch_bytes(&cfgs[ci]) <= sizeof scratch && lay.dram_bytes <= sizeof dram);
      CHECK_EQ(mrtq_vta_sim_init(&cfgs[ci], profiles[pi], scratch, sizeof scratch, dram, sizeof dram, &s), MRTQ_OK,
               "init");
      CHECK_EQ(mrtq_vta_add_run(&p, rnd, a, b, n, words, 2048, &s, got, &ni), MRTQ_OK, "run: %s", s.error);
      CHECK_EQ(ni, lay.insns, "instruction count");
      CHECK_EQ(mrtq_vta_add_ref(&p, rnd, a, b, n, want), MRTQ_OK, "ref");
      for (i = 0; i < n; i++) CHECK_EQ(got[i], want[i], "config %d i=%zu", ci, i);
      add_compared += (long long)n;
    }
  }
  cfgs[0].log_acc_buff_size = 3; /* no room for an ACC entry */
  {
    mrtq_vta_add_layout lay;
    mrtq_vta_add_params p;
    mrtq_vta_rq_plan plan;
    CHECK_EQ(mrtq_vta_add_params_init(0.031f, -3, 0.047f, 11, 0.05f, 4, &p), MRTQ_OK, "params");
    CHECK_EQ(mrtq_vta_add_plan(&p, 0, MRTQ_VTA_PROFILE_SIM, &plan), MRTQ_OK, "plan");
    CHECK_REFUSED(mrtq_vta_add_layout_of(&cfgs[0], &plan, 100, &lay), MRTQ_EINVAL, "cfg->log_acc_buff_size: ACC depth");
    CHECK_REFUSED(mrtq_vta_add_layout_of(NULL, &plan, 100, &lay), MRTQ_EINVAL, "cfg: NULL");
    cfgs[0].log_acc_buff_size = 7; /* 2 ACC rows */
    CHECK_REFUSED(mrtq_vta_add_layout_of(&cfgs[0], &plan, 100, &lay), MRTQ_EUNSUPPORTED, "at least 4 ACC rows");
    cfgs[0] = mrtq_vta_config_default(), cfgs[0].log_out_width = 4;
    CHECK_REFUSED(mrtq_vta_add_layout_of(&cfgs[0], &plan, 100, &lay),
                  MRTQ_EUNSUPPORTED, "cfg: the ADD driver takes 8-bit");
    CHECK_REFUSED(mrtq_vta_add_layout_of(&cfgs[1], NULL, 100, &lay), MRTQ_EINVAL, "plan: NULL");
    CHECK_REFUSED(mrtq_vta_add_layout_of(&cfgs[1], &plan, 100, NULL), MRTQ_EINVAL, "l: NULL");
  }
}

static void test_add_errors(void) {
  mrtq_vta_add_params p, bad;
  mrtq_vta_rq_plan plan;
  mrtq_vta_sim s;
  int8_t a[40] = {0}, b[40] = {0}, o[40];
  mrtq_vta_word w[64];
  cfg = mrtq_vta_config_default();
  CHECK_REFUSED(mrtq_vta_add_params_init(0.0, 0, 0.1, 0, 0.1, 0, &p), MRTQ_EINVAL, "s1");
  CHECK_REFUSED(mrtq_vta_add_params_init(NAN, 0, 0.1, 0, 0.1, 0, &p), MRTQ_EINVAL, "s1");
  CHECK_REFUSED(mrtq_vta_add_params_init(0.1, 0, -1.0, 0, 0.1, 0, &p), MRTQ_EINVAL, "s2");
  CHECK_REFUSED(mrtq_vta_add_params_init(0.1, 0, 0.1, 0, INFINITY, 0, &p), MRTQ_EINVAL, "s_out");
  CHECK_REFUSED(mrtq_vta_add_params_init(0.1, 128, 0.1, 0, 0.1, 0, &p), MRTQ_EINVAL, "zp1");
  CHECK_REFUSED(mrtq_vta_add_params_init(0.1, 0, 0.1, -129, 0.1, 0, &p), MRTQ_EINVAL, "zp2");
  CHECK_REFUSED(mrtq_vta_add_params_init(0.1, 0, 0.1, 0, 0.1, 200, &p), MRTQ_EINVAL, "zp_out");
  CHECK_REFUSED(mrtq_vta_add_params_init(0.1, 0, 0.1, 0, 0.1, 0, NULL), MRTQ_EINVAL, "p: NULL");
  CHECK_EQ(mrtq_vta_add_params_init(0.1, 0, 0.05, 0, 0.1, 0, &p), MRTQ_OK, "ok");
  bad = p, bad.zp1 = 300;
  CHECK_REFUSED(mrtq_vta_add_plan(&bad, 0, MRTQ_VTA_PROFILE_SIM, &plan), MRTQ_EINVAL, "p->zp1");
  bad = p, bad.zp2 = -300;
  CHECK_REFUSED(mrtq_vta_add_ref(&bad, 0, a, b, 40, o), MRTQ_EINVAL, "p->zp2");
  bad = p, bad.zp_out = 128;
  CHECK_REFUSED(mrtq_vta_add_plan(&bad, 0, MRTQ_VTA_PROFILE_SIM, &plan), MRTQ_EINVAL, "p->zp_out");
  CHECK_REFUSED(mrtq_vta_add_plan(NULL, 0, MRTQ_VTA_PROFILE_SIM, &plan), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_vta_add_plan(&p, 3, MRTQ_VTA_PROFILE_SIM, &plan),
                MRTQ_EINVAL, "rounding: must be MRTQ_VTA_ROUND_FLOOR or _NUDGE");
  CHECK_REFUSED(mrtq_vta_add_plan(&p, 0, (mrtq_vta_profile)5, &plan), MRTQ_EINVAL, "target: not");
  CHECK_REFUSED(mrtq_vta_add_ref(&p, 0, NULL, b, 40, o), MRTQ_EINVAL, "a: NULL");
  CHECK_REFUSED(mrtq_vta_add_ref(&p, 0, a, NULL, 40, o), MRTQ_EINVAL, "b: NULL");
  CHECK_REFUSED(mrtq_vta_add_ref(&p, 0, a, b, 40, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_EQ(mrtq_vta_add_ref(&p, 0, NULL, NULL, 0, NULL), MRTQ_OK, "empty");
  CHECK_EQ(mrtq_vta_sim_init(&cfg, MRTQ_VTA_PROFILE_SIM, scratch, sizeof scratch, dram, 200, &s), MRTQ_OK, "init");
  CHECK_REFUSED(mrtq_vta_add_run(&p, 0, a, b, 40, w, 64, &s, o, NULL), MRTQ_ERANGE, "sim->dram_bytes");
  CHECK_EQ(mrtq_vta_sim_init(&cfg, MRTQ_VTA_PROFILE_SIM, scratch, sizeof scratch, dram, sizeof dram, &s), MRTQ_OK, "init");
  CHECK_REFUSED(mrtq_vta_add_run(&p, 0, a, b, 40, w, 5, &s, o, NULL), MRTQ_ERANGE, "cap: below");
  CHECK_REFUSED(mrtq_vta_add_run(&p, 0, NULL, b, 40, w, 64, &s, o, NULL), MRTQ_EINVAL, "a: NULL");
  CHECK_REFUSED(mrtq_vta_add_run(&p, 0, a, NULL, 40, w, 64, &s, o, NULL), MRTQ_EINVAL, "b: NULL");
  CHECK_REFUSED(mrtq_vta_add_run(&p, 0, a, b, 40, w, 64, &s, NULL, NULL), MRTQ_EINVAL, "out: NULL");
  CHECK_REFUSED(mrtq_vta_add_run(&p, 0, a, b, 40, NULL, 64, &s, o, NULL), MRTQ_EINVAL, "words: NULL");
  CHECK_REFUSED(mrtq_vta_add_run(&p, 0, a, b, 40, w, 64, NULL, o, NULL), MRTQ_EINVAL, "sim: NULL");
  CHECK_REFUSED(mrtq_vta_add_run(NULL, 0, a, b, 40, w, 64, &s, o, NULL), MRTQ_EINVAL, "p: NULL");
  CHECK_EQ(mrtq_vta_add_run(&p, 0, a, b, 40, w, 64, &s, o, NULL), MRTQ_OK, "fits");
  CHECK_EQ(mrtq_vta_sim_init(&cfg, MRTQ_VTA_PROFILE_HLS, scratch, sizeof scratch, dram, sizeof dram, &s), MRTQ_OK, "init");
  { /* the builder on its own */
    static mrtq_vta_word words[64];
    uint32_t uops[MRTQ_VTA_ADD_UOPS];
    mrtq_vta_prog pr;
    memset(&pr, 0, sizeof pr);
    CHECK_EQ(mrtq_vta_add_plan(&p, 0, MRTQ_VTA_PROFILE_SIM, &plan), MRTQ_OK, "plan");
    CHECK_EQ(mrtq_vta_prog_init(&cfg, words, 64, uops, MRTQ_VTA_ADD_UOPS, &pr), MRTQ_OK, "prog");
    CHECK_REFUSED(mrtq_vta_add_build(&plan, (size_t)1 << 40, NULL, &pr, dram, sizeof dram),
                  MRTQ_ERANGE, "n: DRAM element indices");
    CHECK_REFUSED(mrtq_vta_add_build(&plan, 40, NULL, &pr, dram, 100), MRTQ_ERANGE, "dram_bytes: a buffer");
    CHECK_EQ(mrtq_vta_prog_init(&cfg, words, 20, uops, MRTQ_VTA_ADD_UOPS, &pr), MRTQ_OK, "prog of 20");
    CHECK_REFUSED(mrtq_vta_add_build(&plan, 40000, NULL, &pr, dram, sizeof dram), MRTQ_ERANGE, "p->cap: below the layout");
    CHECK_EQ(mrtq_vta_prog_init(&cfg, words, 64, uops, MRTQ_VTA_ADD_UOPS, &pr), MRTQ_OK, "prog");
    CHECK_REFUSED(mrtq_vta_add_build(NULL, 40, NULL, &pr, dram, sizeof dram), MRTQ_EINVAL, "plan: NULL");
    CHECK_REFUSED(mrtq_vta_add_build(&plan, 40, NULL, NULL, dram, sizeof dram), MRTQ_EINVAL, "p: NULL");
    CHECK_REFUSED(mrtq_vta_add_build(&plan, 40, NULL, &pr, NULL, sizeof dram), MRTQ_EINVAL, "dram: NULL");
    CHECK_EQ(mrtq_vta_add_build(&plan, 40, NULL, &pr, dram, sizeof dram), MRTQ_OK, "build");
  }
}

/* The program builder's own refusals (sticky in prog->status, reported once
 * where they arise). */
static void test_prog_errors(void) {
  static mrtq_vta_word words[8];
  uint32_t uops[8];
  mrtq_vta_prog p;
  mrtq_vta_insn in;
  mrtq_vta_rq_plan plan;
  mrtq_vta_rq_opts o = mrtq_vta_rq_opts_default();
  mrtq_mult m = {20000, -4};
  mrtq_vta_config small;
  int i;
  cfg = mrtq_vta_config_default();
  memset(&p, 0, sizeof p);
  memset(&plan, 0, sizeof plan);
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_FINISH;
  CHECK_REFUSED(mrtq_vta_prog_init(&cfg, NULL, 8, uops, 8, &p), MRTQ_EINVAL, "words: NULL");
  CHECK_REFUSED(mrtq_vta_prog_init(&cfg, words, 8, NULL, 8, &p), MRTQ_EINVAL, "uops: NULL");
  CHECK_REFUSED(mrtq_vta_prog_init(&cfg, words, 0, uops, 8, &p), MRTQ_EINVAL, "cap: must be >= 1");
  CHECK_REFUSED(mrtq_vta_prog_init(&cfg, words, 8, uops, 8, NULL), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_vta_prog_init(NULL, words, 8, uops, 8, &p), MRTQ_EINVAL, "cfg: NULL");
  CHECK_EQ(mrtq_vta_prog_init(&cfg, words, 3, uops, 8, &p), MRTQ_OK, "init");
  CHECK_EQ(mrtq_vta_prog_push(&in, &p), 1, "first");
  CHECK_EQ(mrtq_vta_prog_push(&in, &p), 2, "second");
  CHECK_REFUSED((mrtq_vta_prog_push(&in, &p), p.status), MRTQ_ERANGE, "p->cap: the instruction buffer is full");
  CHECK_EQ(mrtq_vta_prog_push(&in, &p), 0, "sticky");
  CHECK_EQ(mrtq_vta_prog_finish(0, &p, dram, sizeof dram), MRTQ_ERANGE, "finish passes the status on");
  CHECK_REFUSED((mrtq_vta_prog_push(&in, NULL), MRTQ_EINVAL), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED((mrtq_vta_prog_uop(0, 0, 0, NULL), MRTQ_EINVAL), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED((mrtq_vta_prog_deps(1, 1, 0, 0, 0, NULL), MRTQ_EINVAL), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED((mrtq_vta_emit_rq(&plan, 0, 1, 2, 3, NULL), MRTQ_EINVAL), MRTQ_EINVAL, "p: NULL");
  CHECK_REFUSED(mrtq_vta_prog_finish(0, NULL, dram, sizeof dram), MRTQ_EINVAL, "p: NULL");
  CHECK_EQ(mrtq_vta_prog_init(&cfg, words, 8, uops, 2, &p), MRTQ_OK, "init");
  CHECK_EQ(mrtq_vta_prog_uop(1, 0, 0, &p), 0, "uop 0");
  CHECK_EQ(mrtq_vta_prog_uop(2, 0, 0, &p), 1, "uop 1");
  CHECK_EQ(mrtq_vta_prog_uop(1, 0, 0, &p), 0, "deduplicated");
  CHECK_REFUSED((mrtq_vta_prog_uop(3, 0, 0, &p), p.status), MRTQ_ERANGE, "p->uop_cap: the micro-op table is full");
  CHECK_EQ(mrtq_vta_prog_init(&cfg, words, 8, uops, 8, &p), MRTQ_OK, "init");
  CHECK_REFUSED((mrtq_vta_prog_uop(5000, 0, 0, &p), p.status), MRTQ_ERANGE, "u->dst");
  small = cfg, small.log_uop_buff_size = 3; /* 2 micro-ops */
  CHECK_EQ(mrtq_vta_prog_init(&small, words, 8, uops, 8, &p), MRTQ_OK, "init");
  for (i = 0; i < 2; i++) mrtq_vta_prog_uop((uint32_t)i, 0, 0, &p);
  CHECK_REFUSED((mrtq_vta_prog_uop(7, 0, 0, &p), p.status), MRTQ_ERANGE, "p->cfg.log_uop_buff_size");
  CHECK_EQ(mrtq_vta_prog_init(&cfg, words, 8, uops, 8, &p), MRTQ_OK, "init");
  mrtq_vta_prog_push(&in, &p);
  CHECK_REFUSED((mrtq_vta_prog_deps(2, 1, 0, 0, 0, &p), p.status), MRTQ_EINVAL, "i: must name a pushed instruction");
  CHECK_EQ(mrtq_vta_prog_init(&cfg, words, 8, uops, 8, &p), MRTQ_OK, "init");
  CHECK_REFUSED((mrtq_vta_emit_rq(NULL, 0, 1, 2, 3, &p), p.status), MRTQ_EINVAL, "plan: NULL");
  CHECK_EQ(mrtq_vta_rq_plan_build(&o, &m, 1, 0, -128, 127, &plan), MRTQ_OK, "plan");
  CHECK_EQ(mrtq_vta_prog_init(&cfg, words, 3, uops, 8, &p), MRTQ_OK, "init");
  CHECK_REFUSED((mrtq_vta_emit_rq(&plan, 0, 1, 2, 3, &p), p.status), MRTQ_ERANGE, "p->cap");
  CHECK_EQ(mrtq_vta_prog_init(&cfg, words, 8, uops, 8, &p), MRTQ_OK, "init");
  mrtq_vta_prog_uop(1, 0, 0, &p);
  CHECK_REFUSED(mrtq_vta_prog_finish(0, &p, NULL, 0), MRTQ_ERANGE, "dram: NULL");
  CHECK_EQ(mrtq_vta_prog_init(&cfg, words, 8, uops, 8, &p), MRTQ_OK, "init");
  mrtq_vta_prog_uop(1, 0, 0, &p);
  CHECK_REFUSED(mrtq_vta_prog_finish(10, &p, dram, 40), MRTQ_ERANGE, "dram_bytes: the micro-op table");
  CHECK_EQ(mrtq_vta_prog_finish(9, &p, dram, 40), MRTQ_ERANGE, "sticky");
  CHECK_EQ(mrtq_vta_prog_init(&cfg, words, 8, uops, 8, &p), MRTQ_OK, "init");
  mrtq_vta_prog_uop(1, 0, 0, &p);
  CHECK_EQ(mrtq_vta_prog_finish(9, &p, dram, 40), MRTQ_OK, "fits exactly");
}

int main(void) {
  TH_RUN(test_plans_per_tensor);
  TH_RUN(test_plans_per_channel);
  TH_RUN(test_delegate_sequence);
  TH_RUN(test_plan_errors);
  TH_RUN(test_plan_no_wrap);
  TH_RUN(test_add_driver);
  TH_RUN(test_add_configs);
  TH_RUN(test_add_moved);
  TH_RUN(test_add_device);
  TH_RUN(test_add_errors);
  TH_RUN(test_prog_errors);
  printf("  total: %lld plan lanes and %lld ADD elements compared\n", lanes_compared, add_compared);
  return th_finish("test_vta_rq");
}
