/* vta.h functional simulator: arbitrary instruction streams (raw 128-bit
 * words and encodable instructions with small or large fields) over an
 * arbitrary DRAM, configuration and profile. mrtq_vta_sim_run must return a
 * status (never crash, never touch memory outside its scratch and DRAM); a
 * refusal says which instruction and why; a stream with an undecodable word
 * runs nothing.
 *
 * Work bound: a valid stream can ask for up to 2^14 * 2^14 * 2^d.uop micro-op
 * executions per instruction (2^41 with the default configuration); the
 * harness gives every run a budget (sim.budget) of about WORK_MAX lane
 * operations, and a run that would exceed it must stop with MRTQ_ERANGE
 * before it does (this was defect D4: no budget, runs of days). */
#include "fuzz_vta_common.h"

#define WORK_MAX ((uint64_t)1 << 22) /* lane operations per run */
#define SCRATCH_MAX ((size_t)4 << 20)

/* Upper bound of the lane operations a stream can take. */
static uint64_t work_of(const mrtq_vta_config *cfg, const mrtq_vta_word *prog, size_t n) {
  uint64_t w = 0, lanes = (uint64_t)1 << (cfg->log_batch + cfg->log_block_out), bi = (uint64_t)1 << cfg->log_block_in;
  size_t i;
  for (i = 0; i < n; i++) {
    mrtq_vta_insn in;
    if (mrtq_vta_decode(cfg, &prog[i], &in) != MRTQ_OK) continue;
    if (in.opcode == MRTQ_VTA_LOAD || in.opcode == MRTQ_VTA_STORE) {
      uint64_t xt = (uint64_t)in.x_size + in.x_pad_0 + in.x_pad_1, yt = (uint64_t)in.y_size + in.y_pad_0 + in.y_pad_1;
      w += xt * yt * lanes * bi / 4 + 1;
    } else if (in.opcode != MRTQ_VTA_FINISH) {
      uint64_t u = in.uop_end > in.uop_bgn ? in.uop_end - in.uop_bgn : 0;
      w += (uint64_t)in.iter_out * in.iter_in * u * lanes * bi + 1;
    }
    if (w > WORK_MAX) return w;
  }
  return w;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f = {data, size};
  mrtq_vta_config cfg = vta_config(&f, 0);
  mrtq_vta_profile prof = (mrtq_vta_profile)(fz_rare(&f, 8) ? fz_irange(&f, -1, 5) : fz_range(&f, 0, 3));
  size_t need = mrtq_vta_sim_scratch_bytes(&cfg), dram_n = (size_t)fz_range(&f, 0, 8192), n = (size_t)fz_range(&f, 0, 24), i;
  size_t uop_n = (size_t)fz_range(&f, 0, 16);
  int bad_decode = 0;
  mrtq_vta_sim sim;
  mrtq_vta_word prog[24];
  fz_buf bs, bd;
  uint8_t *dram, *dram0;
  mrtq_status st;
  uint64_t work;
  if (need == 0 || need > SCRATCH_MAX) return 0;
  /* the program: structured instructions mostly, raw words sometimes */
  for (i = 0; i < n; i++) {
    if (fz_rare(&f, 24)) {
      prog[i].w[0] = fz_u64(&f), prog[i].w[1] = fz_u64(&f);
    } else {
      mrtq_vta_insn in = vta_insn(&f, !fz_rare(&f, 32));
      if (mrtq_vta_encode(&cfg, &in, &prog[i]) != MRTQ_OK) prog[i].w[0] = prog[i].w[1] = 0; /* a LOAD UOP of nothing */
    }
    {
      mrtq_vta_insn in;
      bad_decode |= mrtq_vta_decode(&cfg, &prog[i], &in) != MRTQ_OK;
    }
  }
  work = work_of(&cfg, prog, n);
  if (getenv("FZ_DEBUG")) fprintf(stderr, "%zu insns, work bound %llu, undecodable %d\n", n, (unsigned long long)work, bad_decode);
  /* scratch at any address: the simulator aligns its 32-bit SRAMs (was defect D5) */
  fz_buf_new_at(&bs, need, 0x3c, fz_range(&f, 0, 63));
  dram = (uint8_t *)fz_buf_new_at(&bd, dram_n, 0xc3, fz_range(&f, 0, 63));
  fz_fill(&f, dram, dram_n);
  /* a micro-op table at the start of DRAM helps streams that LOAD UOP from 0 */
  for (i = 0; i < uop_n && 4 * i + 4 <= dram_n; i++) {
    mrtq_vta_uop u;
    uint32_t wd;
    u.dst = (uint32_t)fz_range(&f, 0, 8), u.src = (uint32_t)fz_range(&f, 0, 8), u.wgt = (uint32_t)fz_range(&f, 0, 8);
    if (mrtq_vta_uop_encode(&cfg, &u, &wd) == MRTQ_OK) memcpy(dram + 4 * i, &wd, 4);
  }
  dram0 = (uint8_t *)malloc(dram_n + 1);
  memcpy(dram0, dram, dram_n);
  memset(&sim, 0x5a, sizeof sim);
  fz_reason_begin();
  st = mrtq_vta_sim_init(&cfg, prof, fz_buf_data(&bs), fz_rare(&f, 8) ? need - 1 : need, dram_n ? dram : NULL, dram_n, &sim);
  fz_reason_end(st, "mrtq_vta_sim_init");
  if (st != MRTQ_OK) {
    FZ_CHECK(fz_buf_intact(&bs) && fz_guards_intact(&bd) && (dram_n == 0 || memcmp(dram, dram0, dram_n) == 0),
             "mrtq_vta_sim_init refused (%d) but wrote", (int)st);
    FZ_CHECK(fz_span_is((const uint8_t *)&sim, sizeof sim, 0x5a), "mrtq_vta_sim_init refused (%d) but wrote *sim", (int)st);
    goto out;
  }
  FZ_CHECK(prof >= 0 && prof <= 3, "mrtq_vta_sim_init accepted profile %d", (int)prof);
  FZ_CHECK(sim.budget == 0, "mrtq_vta_sim_init left a budget of %llu", (unsigned long long)sim.budget);
  { /* a budget of about WORK_MAX lane operations: one unit is at most lanes * block_in of them */
    uint64_t per = (uint64_t)1 << (cfg.log_batch + cfg.log_block_out + cfg.log_block_in);
    sim.budget = WORK_MAX / per ? WORK_MAX / per : 1;
  }
  fz_reason_begin();
  st = mrtq_vta_sim_run(prog, n, &sim);
  fz_reason_end(st, "mrtq_vta_sim_run");
  FZ_CHECK(st >= MRTQ_OK && st <= MRTQ_EUNSUPPORTED, "mrtq_vta_sim_run returned %d", (int)st);
  FZ_CHECK(fz_guards_intact(&bs), "the simulator wrote outside its scratch");
  FZ_CHECK(fz_guards_intact(&bd), "the simulator wrote outside its DRAM");
  if (st != MRTQ_OK) {
    FZ_CHECK(sim.error && *sim.error, "refusal %d without a message", (int)st);
    FZ_CHECK(sim.error_insn < n, "error_insn %zu of %zu", sim.error_insn, n);
    /* sim->error is the reason the hook received, prefixed "prog: " */
    FZ_CHECK(fz_why && strcmp(sim.error, fz_why) == 0, "sim->error \"%s\" is not the reported reason \"%s\"", sim.error,
             fz_why ? fz_why : "(none)");
    FZ_CHECK(strncmp(sim.error, "prog: ", 6) == 0, "sim->error \"%s\" does not start with \"prog: \"", sim.error);
  } else {
    FZ_CHECK(sim.error && !*sim.error, "success with an error message \"%s\"", sim.error ? sim.error : "(null)");
    FZ_CHECK(sim.gemm_ops + sim.alu_ops <= sim.budget, "%llu micro-op executions ran on a budget of %llu",
             (unsigned long long)(sim.gemm_ops + sim.alu_ops), (unsigned long long)sim.budget);
  }
  if (bad_decode) {
    FZ_EQ(st, MRTQ_EINVAL, "a stream with an undecodable word");
    FZ_CHECK(dram_n == 0 || memcmp(dram, dram0, dram_n) == 0, "an undecodable stream changed DRAM");
    FZ_CHECK(sim.gemm_ops == 0 && sim.alu_ops == 0 && sim.finish_count == 0 && sim.store_bytes == 0,
             "an undecodable stream ran instructions");
  }
  {
    uint64_t ops = sim.gemm_ops + sim.alu_ops;
    FZ_CHECK(ops <= work, "the simulator counted %llu micro-ops, more than the %llu bound", (unsigned long long)ops,
             (unsigned long long)work);
  }
  /* run it again from the same state: same status (the simulator is deterministic) */
  {
    mrtq_vta_sim sim2;
    fz_buf bs2;
    uint8_t *d2 = (uint8_t *)malloc(dram_n + 1);
    mrtq_status st2;
    memcpy(d2, dram0, dram_n);
    fz_buf_new(&bs2, need, 0);
    FZ_EQ(mrtq_vta_sim_init(&cfg, prof, fz_buf_data(&bs2), need, dram_n ? d2 : NULL, dram_n, &sim2), MRTQ_OK,
          "second mrtq_vta_sim_init");
    sim2.budget = sim.budget;
    st2 = mrtq_vta_sim_run(prog, n, &sim2);
    FZ_EQ(st2, st, "second run");
    FZ_CHECK(dram_n == 0 || memcmp(d2, dram, dram_n) == 0, "second run: different DRAM");
    FZ_CHECK(sim2.error_insn == sim.error_insn && sim2.gemm_ops == sim.gemm_ops && sim2.alu_ops == sim.alu_ops,
             "second run: different counters");
    fz_buf_free(&bs2);
    free(d2);
  }
out:
  fz_buf_free(&bs), fz_buf_free(&bd);
  free(dram0);
  return 0;
}
