/* vta.h requant plans and the ADD driver: mrtq_vta_rq_plan_build with fuzzed
 * multipliers (one or per channel), zero points, bounds and options; every
 * plan's steps (mrtq_vta_rq_steps_eval, with mrtq_vta_rq_param_rows per
 * channel) equal mrtq_vta_rq_ref on every accumulator of its width (and the
 * scalar Q15 families where the plan has no pre-shift); the plan emitted
 * into a program (mrtq_vta_prog_*, mrtq_vta_emit_rq) and run on the
 * simulator gives the steps' bytes; mrtq_vta_add_run equals mrtq_vta_add_ref. */
#include "fuzz_vta_common.h"

static uint8_t scratch[(size_t)1 << 20];

static mrtq_mult q15_mult(fz *f) {
  mrtq_mult m;
  if (fz_rare(f, 24)) {
    m.mult = (int32_t)fz_irange(f, 16000, 33000), m.shift = (int32_t)fz_irange(f, -17, 17);
    return m;
  }
  {
    double s = ldexp(1.0 + (double)fz_u16(f) / 65536.0, (int)fz_irange(f, -17, 15));
    mrtq_mult_q15(s, &m);
  }
  return m;
}

static int32_t acc_in(fz *f, int bits) {
  int64_t lo = -((int64_t)1 << (bits - 1)), hi = ((int64_t)1 << (bits - 1)) - 1;
  switch (fz_u8(f) % 4) {
    case 0: return (int32_t)(fz_bool(f) ? lo : hi);
    case 1: return (int32_t)fz_irange(f, lo > -300 ? lo : -300, hi < 300 ? hi : 300);
    default: return (int32_t)fz_irange(f, lo, hi);
  }
}

/* Run the plan on the simulator over rows x lanes accumulators; compare with
 * the steps. */
static void run_plan(fz *f, const mrtq_vta_rq_plan *plan, const mrtq_mult *m, size_t nch, const int32_t *prow,
                     int bits) {
  mrtq_vta_config cfg = mrtq_vta_config_default();
  size_t lanes = (size_t)1 << (cfg.log_batch + cfg.log_block_out), bo = (size_t)1 << cfg.log_block_out;
  uint32_t rows = (uint32_t)fz_range(f, 1, 3), np = (uint32_t)plan->nparams, r, l;
  size_t eb = 4 * lanes, a_off = 64 * 4, p_off = a_off + rows * eb, o_off = p_off + (np ? np : 1) * eb;
  size_t dram_n = o_off + rows * lanes, need = mrtq_vta_sim_scratch_bytes(&cfg);
  uint8_t *dram = (uint8_t *)calloc(1, dram_n);
  int32_t x[3 * 64];
  mrtq_vta_word words[160];
  uint32_t uops[64];
  mrtq_vta_prog p;
  mrtq_vta_insn in;
  mrtq_vta_sim sim;
  size_t last;
  mrtq_status st;
  (void)m, (void)nch;
  if (need > sizeof scratch || lanes > 64) FZ_FAIL("default VTA configuration larger than the harness expects");
  for (r = 0; r < rows; r++)
    for (l = 0; l < lanes; l++) x[r * lanes + l] = acc_in(f, bits);
  memcpy(dram + a_off, x, rows * eb);
  if (np) memcpy(dram + p_off, prow, np * eb); /* channel block 0 */
  FZ_EQ(mrtq_vta_prog_init(&cfg, words, 160, uops, 64, &p), MRTQ_OK, "mrtq_vta_prog_init");
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_LOAD, in.memory_type = MRTQ_VTA_MEM_ACC, in.dram_base = (uint32_t)(a_off / eb);
  in.y_size = 1, in.x_size = in.x_stride = rows;
  mrtq_vta_prog_push(&in, &p);
  if (np) {
    in.sram_base = 2 * rows, in.dram_base = (uint32_t)(p_off / eb), in.x_size = in.x_stride = np;
    mrtq_vta_prog_push(&in, &p);
  }
  last = mrtq_vta_emit_rq(plan, 0, rows, rows, 2 * rows, &p);
  FZ_CHECK(p.status == MRTQ_OK && last > 0, "mrtq_vta_emit_rq failed (status %d, %d steps)", (int)p.status, plan->nsteps);
  mrtq_vta_prog_deps(last, 0, 0, 0, 1, &p);
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_STORE, in.memory_type = MRTQ_VTA_MEM_OUT, in.dram_base = (uint32_t)(o_off / lanes);
  in.y_size = 1, in.x_size = in.x_stride = rows, in.pop_prev = 1;
  mrtq_vta_prog_push(&in, &p);
  memset(&in, 0, sizeof in);
  in.opcode = MRTQ_VTA_FINISH;
  mrtq_vta_prog_push(&in, &p);
  FZ_CHECK(p.status == MRTQ_OK, "building the plan's program: status %d", (int)p.status);
  FZ_EQ(mrtq_vta_prog_finish(0, &p, dram, dram_n), MRTQ_OK, "mrtq_vta_prog_finish");
  FZ_EQ(mrtq_vta_sim_init(&cfg, plan->opts.target, scratch, sizeof scratch, dram, dram_n, &sim), MRTQ_OK, "sim_init");
  st = mrtq_vta_sim_run(words, p.n, &sim);
  if (getenv("FZ_DEBUG")) fprintf(stderr, "run_plan status %d steps %d per_channel %d\n", (int)st, plan->nsteps, plan->per_channel);
  FZ_EQ(st, MRTQ_OK, "the plan's program on the simulator: %s (insn %zu)", sim.error, sim.error_insn);
  for (r = 0; r < rows; r++)
    for (l = 0; l < lanes; l++) {
      int32_t params[4] = {0, 0, 0, 0};
      uint32_t q;
      for (q = 0; q < np && q < 4; q++) params[q] = prow[q * lanes + l];
      FZ_EQ(dram[o_off + r * lanes + l], (uint8_t)mrtq_vta_rq_steps_eval(plan, x[r * lanes + l], np ? params : NULL),
            "simulated plan, row %u lane %u (x %d, channel %zu)", r, l, x[r * lanes + l], l % bo);
    }
  free(dram);
}

static void check_plan(fz *f) {
  size_t nch = fz_rare(f, 64) ? (size_t)fz_range(f, 2, 40) : 1, c, i;
  mrtq_mult m[40];
  int32_t zp, qmin, qmax;
  mrtq_vta_rq_opts o = mrtq_vta_rq_opts_default();
  mrtq_vta_rq_plan plan;
  mrtq_status st;
  int bits;
  for (c = 0; c < nch; c++) m[c] = c && fz_rare(f, 128) ? m[0] : q15_mult(f);
  zp = fz_rare(f, 16) ? fz_i32(f) : (int32_t)fz_irange(f, -300, 300);
  qmin = fz_rare(f, 16) ? fz_i32(f) : fz_bool(f) ? -128 : 0;
  qmax = fz_rare(f, 16) ? fz_i32(f) : qmin < 0 ? 127 : 255;
  if (fz_rare(f, 64)) qmin = (int32_t)fz_irange(f, -128, 0), qmax = (int32_t)fz_irange(f, qmin, 127);
  o.target = (mrtq_vta_profile)(fz_rare(f, 8) ? fz_irange(f, -1, 5) : fz_range(f, 0, 3));
  o.rounding = fz_rare(f, 8) ? (int)fz_irange(f, -1, 3) : fz_bool(f);
  o.in_bits = fz_rare(f, 8) ? (int)fz_irange(f, -1, 40) : (int)fz_range(f, 1, 32);
  o.allow_pow2 = fz_rare(f, 64);
  o.delegate = fz_rare(f, 64);
  memset(&plan, 0x5a, sizeof plan);
  fz_reason_begin();
  st = mrtq_vta_rq_plan_build(&o, m, nch, zp, qmin, qmax, &plan);
  fz_reason_end(st, "mrtq_vta_rq_plan_build");
  if (getenv("FZ_DEBUG")) fprintf(stderr, "plan status %d\n", (int)st);
  /* fields a mode does not read must be left at their defaults */
  if (o.allow_pow2 && (o.target == MRTQ_VTA_PROFILE_SIM || o.target == MRTQ_VTA_PROFILE_OPENCL))
    FZ_CHECK(st != MRTQ_OK, "allow_pow2 accepted on target %d (has MUL)", (int)o.target);
  if (o.delegate && o.in_bits != 32) FZ_CHECK(st != MRTQ_OK, "delegate accepted with in_bits %d", o.in_bits);
  if (st != MRTQ_OK) {
    FZ_CHECK(fz_span_is((const uint8_t *)&plan, sizeof plan, 0x5a), "mrtq_vta_rq_plan_build refused (%d) but wrote", (int)st);
    return;
  }
  FZ_CHECK(plan.nsteps >= 1 && plan.nsteps <= MRTQ_VTA_MAX_STEPS, "plan with %d steps", plan.nsteps);
  FZ_CHECK(o.in_bits >= 1 && o.in_bits <= 32 && qmin <= qmax, "a plan for in_bits %d, [%d, %d]", o.in_bits, qmin, qmax);
  bits = o.in_bits;
  {
    mrtq_vta_config cfg = mrtq_vta_config_default();
    size_t lanes = (size_t)1 << (cfg.log_batch + cfg.log_block_out), bo = (size_t)1 << cfg.log_block_out;
    size_t blocks = (nch + bo - 1) / bo, nrow = blocks * (size_t)plan.nparams * lanes;
    int32_t *rows = (int32_t *)calloc(nrow + 1, 4);
    if (plan.per_channel) {
      FZ_EQ(mrtq_vta_rq_param_rows(&cfg, &plan, m, nch, rows), MRTQ_OK, "mrtq_vta_rq_param_rows of an accepted plan");
    } else {
      FZ_EQ(plan.nparams, 0, "per-tensor plan with parameter rows");
      rows[0] = 0x5a5a5a5a;
      FZ_EQ(mrtq_vta_rq_param_rows(&cfg, &plan, m, nch, rows), MRTQ_EINVAL, "param rows of a per-tensor plan");
      FZ_EQ(rows[0], 0x5a5a5a5a, "mrtq_vta_rq_param_rows refused but wrote");
      rows[0] = 0;
    }
    for (i = 0; i < 12; i++) {
      int32_t x = acc_in(f, bits), params[4] = {0, 0, 0, 0}, got, want;
      size_t q;
      c = (size_t)fz_range(f, 0, nch - 1);
      for (q = 0; plan.per_channel && q < (size_t)plan.nparams && q < 4; q++)
        params[q] = rows[(c / bo) * (size_t)plan.nparams * lanes + q * lanes + c % bo];
      /* (was defect D7: plans whose nudge ADD 1 or ADD zp wrapped at the ends of int32 are now refused, so
       * the steps equal rq_ref on every x of the declared width, the extremes included) */
      got = mrtq_vta_rq_steps_eval(&plan, x, plan.per_channel ? params : NULL);
      want = mrtq_vta_rq_ref(&plan, m[c], x);
      FZ_EQ(got, want, "steps vs mrtq_vta_rq_ref: x %d channel %zu m {%d, %d} zp %d [%d, %d] target %d rounding %d bits %d "
            "method %d pre %d wide %d", x, c, m[c].mult, m[c].shift, zp, qmin, qmax, (int)o.target, o.rounding, bits,
            plan.method, plan.pre_shift, plan.wide);
      if (!o.delegate && plan.pre_shift == 0 && plan.method != MRTQ_VTA_BY_POW2) {
        int64_t y = o.rounding == MRTQ_VTA_ROUND_FLOOR ? mrtq_mul_q15_vta(x, m[c]) : mrtq_mul_q15_rndnu(x, m[c]);
        /* with r = 0 the plan is exact (wide plans, folded trailing zeros), also where x * mult leaves
         * int32 and mrtq_mul_q15_vta would wrap: there the floor of the exact product is the rule */
        int64_t pr = (int64_t)x * m[c].mult;
        if ((pr < INT32_MIN || pr > INT32_MAX) && o.rounding == MRTQ_VTA_ROUND_FLOOR) {
          int64_t k = 15 - (int64_t)m[c].shift;
          y = k >= 0 ? (pr >= 0 ? pr >> k : -((-pr + ((int64_t)1 << k) - 1) >> k)) : pr * ((int64_t)1 << -k);
        }
        y += zp;
        FZ_EQ(want, y < qmin ? qmin : y > qmax ? qmax : y, "mrtq_vta_rq_ref vs the scalar Q15 family (x %d, m {%d, %d})", x,
              m[c].mult, m[c].shift);
      }
    }
    if (fz_bool(f)) run_plan(f, &plan, m, nch, rows, bits);
    free(rows);
  }
}

static void check_add(fz *f) {
  mrtq_vta_add_params p;
  double s1 = fz_rare(f, 16) ? fz_double(f) : ldexp(1.0 + fz_u8(f) / 256.0, (int)fz_irange(f, -10, 2));
  double s2 = fz_rare(f, 16) ? fz_double(f) : ldexp(1.0 + fz_u8(f) / 256.0, (int)fz_irange(f, -10, 2));
  double so = fz_rare(f, 16) ? fz_double(f) : ldexp(1.0 + fz_u8(f) / 256.0, (int)fz_irange(f, -10, 2));
  int32_t z1 = (int32_t)fz_irange(f, -128, 127), z2 = (int32_t)fz_irange(f, -128, 127), zo = (int32_t)fz_irange(f, -128, 127);
  int rounding = fz_bool(f);
  size_t n = (size_t)fz_range(f, 0, 300), ninsn = 0, i;
  mrtq_vta_config cfg = mrtq_vta_config_default();
  mrtq_vta_profile prof = (mrtq_vta_profile)fz_range(f, 0, 3);
  int8_t *a, *b, *out, *ref;
  mrtq_vta_sim sim;
  mrtq_vta_word words[64];
  static uint8_t dram[8192];
  mrtq_status st, sr;
  if (fz_rare(f, 8)) z1 = fz_i32(f);
  st = mrtq_vta_add_params_init(s1, z1, s2, z2, so, zo, &p);
  if (st != MRTQ_OK) return;
  a = (int8_t *)malloc(n + 1), b = (int8_t *)malloc(n + 1), out = (int8_t *)malloc(n + 1), ref = (int8_t *)malloc(n + 1);
  fz_fill(f, a, n), fz_fill(f, b, n);
  memset(out, 0x5a, n + 1), memset(ref, 0x5b, n + 1);
  sr = mrtq_vta_add_ref(&p, rounding, a, b, n, ref);
  FZ_EQ(mrtq_vta_sim_init(&cfg, prof, scratch, sizeof scratch, dram, sizeof dram, &sim), MRTQ_OK, "sim_init");
  fz_reason_begin();
  st = mrtq_vta_add_run(&p, rounding, a, b, n, words, 64, &sim, out, &ninsn);
  fz_reason_end(st, "mrtq_vta_add_run");
  if (getenv("FZ_DEBUG")) fprintf(stderr, "add_run status %d ref %d\n", (int)st, (int)sr);
  if (sr != MRTQ_OK) {
    FZ_CHECK(st != MRTQ_OK, "mrtq_vta_add_run ran what mrtq_vta_add_ref refused (%d)", (int)sr);
  } else if (st == MRTQ_OK) {
    for (i = 0; i < n; i++)
      FZ_EQ(out[i], ref[i], "mrtq_vta_add_run vs mrtq_vta_add_ref element %zu of %zu (a %d b %d, rounding %d, profile %d)", i,
            n, a[i], b[i], rounding, (int)prof);
    FZ_CHECK(out[n] == 0x5a, "mrtq_vta_add_run wrote past n");
  } else {
    /* refused: the program or DRAM too small for n, or a plan the target cannot run */
    FZ_CHECK(st == MRTQ_ERANGE || st == MRTQ_EUNSUPPORTED || st == MRTQ_EINVAL, "mrtq_vta_add_run status %d (%s)", (int)st,
             sim.error);
    FZ_CHECK(fz_span_is((const uint8_t *)out, n + 1, 0x5a), "mrtq_vta_add_run refused (%d) but wrote out", (int)st);
  }
  /* the ADD entirely on the device: the same bytes, or a refusal it states */
  memset(out, 0x5a, n + 1);
  FZ_EQ(mrtq_vta_sim_init(&cfg, prof, scratch, sizeof scratch, dram, sizeof dram, &sim), MRTQ_OK, "sim_init");
  fz_reason_begin();
  st = mrtq_vta_add_dev_run(&p, rounding, a, b, n, words, 64, &sim, out, &ninsn);
  fz_reason_end(st, "mrtq_vta_add_dev_run");
  if (sr == MRTQ_OK && st == MRTQ_OK) {
    for (i = 0; i < n; i++)
      FZ_EQ(out[i], ref[i], "mrtq_vta_add_dev_run vs mrtq_vta_add_ref element %zu of %zu (a %d b %d, rounding %d, profile %d)",
            i, n, a[i], b[i], rounding, (int)prof);
    FZ_CHECK(out[n] == 0x5a, "mrtq_vta_add_dev_run wrote past n");
  } else if (st != MRTQ_OK) {
    FZ_CHECK(st == MRTQ_ERANGE || st == MRTQ_EUNSUPPORTED || st == MRTQ_EINVAL, "mrtq_vta_add_dev_run status %d (%s)",
             (int)st, sim.error);
    FZ_CHECK(prof == MRTQ_VTA_PROFILE_HLS || prof == MRTQ_VTA_PROFILE_CHISEL || sr != MRTQ_OK || st != MRTQ_EUNSUPPORTED ||
                 p.in1.shift > 0 || p.in2.shift > 0,
             "mrtq_vta_add_dev_run refused (unsupported) a target with MUL");
    FZ_CHECK(fz_span_is((const uint8_t *)out, n + 1, 0x5a), "mrtq_vta_add_dev_run refused (%d) but wrote out", (int)st);
  } else {
    FZ_CHECK(0, "mrtq_vta_add_dev_run ran what mrtq_vta_add_ref refused (%d)", (int)sr);
  }
  free(a), free(b), free(out), free(ref);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f = {data, size};
  if (fz_u8(&f) < 170) check_plan(&f);
  else check_add(&f);
  return 0;
}
