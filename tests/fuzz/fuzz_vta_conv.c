/* vta.h convolution driver: mrtq_vta_conv_plan_build with fuzzed small
 * shapes, zero points, biases, per-tensor / per-channel multipliers,
 * roundings, targets and configurations (including SRAMs too small: a
 * refusal with plan->why); accepted layers run on the simulator
 * (mrtq_vta_conv_run) give exactly mrtq_vta_conv_ref's bytes, write only their
 * n*o*ho*wo outputs, and the plan's cost estimate equals the simulator's
 * counters. */
#include "fuzz_vta_common.h"

static uint8_t scratch[(size_t)1 << 20];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f = {data, size};
  mrtq_vta_config cfg = mrtq_vta_config_default();
  mrtq_vta_profile target = (mrtq_vta_profile)fz_range(&f, 0, 3);
  mrtq_vta_conv_shape s;
  mrtq_vta_conv_quant q;
  mrtq_vta_conv_plan *plan = (mrtq_vta_conv_plan *)malloc(sizeof *plan);
  mrtq_mult m[24];
  int32_t bias[24];
  size_t nx, nw, ny, i, need;
  mrtq_layout layout = fz_bool(&f) ? MRTQ_NHWC : MRTQ_NCHW;
  int use_w = fz_bool(&f), types_ok, zp_ok;
  uint8_t *x = NULL, *w = NULL, *dram = NULL;
  mrtq_vta_word *words = NULL;
  uint32_t *uops = NULL;
  fz_buf by, br;
  mrtq_status st;
  if (fz_rare(&f, 64)) { /* smaller SRAMs and blocks */
    cfg.log_block_in = (int)fz_range(&f, 1, 4), cfg.log_block_out = (int)fz_range(&f, 1, 4);
    cfg.log_batch = (int)fz_range(&f, 0, 1);
    cfg.log_uop_buff_size = (int)fz_range(&f, 6, 15);
    cfg.log_inp_buff_size = cfg.log_batch + cfg.log_block_in + 3 + (int)fz_range(&f, 0, 8);
    cfg.log_wgt_buff_size = cfg.log_block_out + cfg.log_block_in + 3 + (int)fz_range(&f, 0, 8);
    cfg.log_acc_buff_size = cfg.log_batch + cfg.log_block_out + 5 + (int)fz_range(&f, 0, 8);
  }
  need = mrtq_vta_sim_scratch_bytes(&cfg);
  if (need == 0 || need > sizeof scratch) goto out;
  memset(&s, 0, sizeof s);
  s.n = fz_range(&f, 1, 2), s.c = fz_range(&f, 1, 20), s.h = fz_range(&f, 1, 7), s.w = fz_range(&f, 1, 7);
  s.o = fz_range(&f, 1, 20), s.kh = fz_range(&f, 1, 3), s.kw = fz_range(&f, 1, 3);
  s.stride_h = fz_range(&f, 1, 2), s.stride_w = fz_range(&f, 1, 2), s.pad_h = fz_range(&f, 0, 2), s.pad_w = fz_range(&f, 0, 2);
  s.dil_h = fz_range(&f, 1, 2), s.dil_w = fz_range(&f, 1, 2);
  if (fz_rare(&f, 16)) s.kh = fz_range(&f, 0, 300); /* zero or beyond the fields */
  if (fz_rare(&f, 16)) s.c = 0;
  if (fz_rare(&f, 4)) s.groups = s.c, s.o = s.c; /* depthwise */
  else if (fz_rare(&f, 32)) s.groups = fz_range(&f, 0, 5); /* other group counts: refused unless 0, 1 or c == o */
  memset(&q, 0, sizeof q);
  q.x_type = fz_bool(&f) ? MRTQ_U8 : MRTQ_S8, q.w_type = fz_rare(&f, 64) ? MRTQ_U8 : MRTQ_S8;
  q.x_zp = q.x_type == MRTQ_U8 ? (int32_t)fz_range(&f, 0, 255) : (int32_t)fz_irange(&f, -128, 127);
  q.w_zp = q.w_type == MRTQ_U8 ? (int32_t)fz_range(&f, 100, 160) : fz_rare(&f, 64) ? (int32_t)fz_irange(&f, -4, 4) : 0;
  if (fz_rare(&f, 8)) {
    uint8_t t = fz_u8(&f);
    q.x_zp = fz_i32(&f);
    if (t >= 224) q.x_type = (mrtq_dtype)fz_irange(&f, -1, 6); /* 0 (a zeroed struct), S16, S32, S4: unsupported */
    if (t >= 240) q.w_type = (mrtq_dtype)fz_irange(&f, -1, 6);
  }
  types_ok = (q.x_type == MRTQ_S8 || q.x_type == MRTQ_U8) && (q.w_type == MRTQ_S8 || q.w_type == MRTQ_U8);
  zp_ok = q.x_zp >= (q.x_type == MRTQ_U8 ? 0 : -128) && q.x_zp <= (q.x_type == MRTQ_U8 ? 255 : 127) &&
          q.w_zp >= (q.w_type == MRTQ_U8 ? 0 : -128) && q.w_zp <= (q.w_type == MRTQ_U8 ? 255 : 127);
  for (i = 0; i < 24; i++) {
    double sc = ldexp(1.0 + (double)fz_u16(&f) / 65536.0, (int)fz_irange(&f, -16, -4));
    mrtq_mult_q15(sc, &m[i]);
    bias[i] = (int32_t)fz_irange(&f, -5000, 5000);
  }
  q.bias = fz_bool(&f) ? bias : NULL;
  q.m = m, q.nm = fz_rare(&f, 80) && s.o <= 24 ? s.o : 1;
  q.zp = (int32_t)fz_irange(&f, -20, 20);
  q.qmin = fz_bool(&f) ? -128 : (int32_t)fz_irange(&f, -128, 0);
  q.qmax = fz_bool(&f) ? 127 : (int32_t)fz_irange(&f, q.qmin, 127);
  q.rounding = fz_bool(&f);
  nx = s.n * s.c * s.h * s.w, nw = s.o * s.c * s.kh * s.kw;
  if (nw > 200000) goto out;
  x = (uint8_t *)malloc(nx + 1), w = (uint8_t *)malloc(nw + 1);
  fz_fill(&f, x, nx), fz_fill(&f, w, nw);
  if (q.w_type == MRTQ_U8 || q.w_zp) /* keep most weights representable as W - w_zp */
    for (i = 0; i < nw; i++)
      if (!fz_rare(&f, 2)) w[i] = (uint8_t)(q.w_zp + (int8_t)(w[i] % 200 - 100));
  memset(plan, 0x5a, sizeof *plan);
  fz_reason_begin();
  st = mrtq_vta_conv_plan_build(&cfg, target, &s, &q, use_w ? (const void *)w : NULL, plan);
  fz_reason_end(st, "mrtq_vta_conv_plan_build");
  if (!types_ok) FZ_EQ(st, MRTQ_EUNSUPPORTED, "mrtq_vta_conv_plan_build with x_type %d, w_type %d", (int)q.x_type, (int)q.w_type);
  if (!zp_ok) FZ_CHECK(st != MRTQ_OK, "mrtq_vta_conv_plan_build accepted x_zp %d (type %d), w_zp %d (type %d)", q.x_zp,
                       (int)q.x_type, q.w_zp, (int)q.w_type);
  { /* (was defect D8) a configuration whose micro-ops exceed 32 bits cannot be encoded: refused at plan time */
    mrtq_vta_depths d;
    if (types_ok && mrtq_vta_depths_of(&cfg, &d) == MRTQ_OK && d.acc + (d.acc > d.inp ? d.acc : d.inp) + d.wgt > 32)
      FZ_EQ(st, MRTQ_EUNSUPPORTED, "mrtq_vta_conv_plan_build with %d-bit micro-ops",
            d.acc + (d.acc > d.inp ? d.acc : d.inp) + d.wgt);
  }
  if (st != MRTQ_OK && !fz_span_is((const uint8_t *)plan, sizeof *plan, 0x5a)) {
    /* a refusal writes nothing, except the tiles that do not fit: *plan and plan->why are written */
    FZ_CHECK(st == MRTQ_ERANGE && memchr(plan->why, 0, sizeof plan->why) != NULL &&
                 strncmp(plan->why, "layer does not fit", 18) == 0,
             "mrtq_vta_conv_plan_build refused (%d) but wrote the plan", (int)st);
  }
  if (st != MRTQ_OK) goto out;
  FZ_CHECK(s.n && s.c && s.h && s.w && s.o && s.kh && s.kh <= 255, "mrtq_vta_conv_plan_build accepted a bad shape");
  ny = s.n * s.o * plan->ho * plan->wo;
  if (plan->dram_bytes > ((size_t)8 << 20) || plan->insns > 200000 || plan->uops > 100000 ||
      plan->gemm_ops > ((uint64_t)1 << 20) || plan->alu_ops > ((uint64_t)1 << 20))
    goto out;
  dram = (uint8_t *)malloc(plan->dram_bytes);
  words = (mrtq_vta_word *)malloc(plan->insns * sizeof *words);
  uops = (uint32_t *)malloc(plan->uops * sizeof *uops + 4);
  {
    mrtq_vta_sim sim;
    uint8_t *y = (uint8_t *)fz_buf_new_at(&by, ny, 0xa5, fz_range(&f, 0, 63));
    uint8_t *r = (uint8_t *)fz_buf_new(&br, ny, 0x5a);
    mrtq_status sr;
    FZ_EQ(mrtq_vta_sim_init(&cfg, target, scratch, need, dram, plan->dram_bytes, &sim), MRTQ_OK, "sim_init");
    sim.schedule = (int)fz_range(&f, 0, 2); /* loads or stores as early as the tokens allow: same bytes */
    fz_reason_begin();
    st = mrtq_vta_conv_run(plan, &q, layout, x, w, words, plan->insns, uops, plan->uops, &sim, y);
    fz_reason_end(st, "mrtq_vta_conv_run");
    sr = mrtq_vta_conv_ref(plan, &q, layout, x, w, r);
    if (getenv("FZ_DEBUG")) {
      mrtq_vta_depths d;
      mrtq_vta_depths_of(&cfg, &d);
      fprintf(stderr, "cfg batch %d bi %d bo %d uop %d inp %d wgt %d acc %d (depths %d %d %d %d) shape n %zu c %zu h %zu w %zu o %zu k %zux%zu: run %d\n",
              cfg.log_batch, cfg.log_block_in, cfg.log_block_out, cfg.log_uop_buff_size, cfg.log_inp_buff_size,
              cfg.log_wgt_buff_size, cfg.log_acc_buff_size, d.uop, d.inp, d.wgt, d.acc, s.n, s.c, s.h, s.w, s.o, s.kh, s.kw, (int)st);
    }
    FZ_EQ(sr, MRTQ_OK, "mrtq_vta_conv_ref of an accepted plan");
    FZ_CHECK(fz_guards_intact(&br) && fz_same_output(&br, &br), "mrtq_vta_conv_ref wrote outside");
    if (st != MRTQ_OK) {
      /* only the weights (W - zw outside int8, unchecked without w_any) may still be refused */
      FZ_CHECK(st == MRTQ_ERANGE && !use_w && fz_buf_intact(&by), "mrtq_vta_conv_run of an accepted plan: status %d (%s, insn %zu)", (int)st,
               sim.error, sim.error_insn);
    } else {
      FZ_CHECK(fz_guards_intact(&by), "mrtq_vta_conv_run wrote outside its %zu outputs", ny);
      for (i = 0; i < ny; i++)
        FZ_EQ(y[i], r[i], "mrtq_vta_conv_run vs mrtq_vta_conv_ref output %zu of %zu (target %d rounding %d nm %zu layout %d)",
              i, ny, (int)target, q.rounding, q.nm, (int)layout);
      FZ_EQ(sim.gemm_ops, plan->gemm_ops, "gemm_ops estimate");
      FZ_EQ(sim.alu_ops, plan->alu_ops, "alu_ops estimate");
      FZ_EQ(sim.store_bytes, plan->store_bytes, "store_bytes estimate");
      FZ_EQ(sim.load_bytes[MRTQ_VTA_MEM_INP], plan->load_bytes[MRTQ_VTA_MEM_INP], "INP load estimate");
      FZ_EQ(sim.load_bytes[MRTQ_VTA_MEM_WGT], plan->load_bytes[MRTQ_VTA_MEM_WGT], "WGT load estimate");
      FZ_EQ(sim.load_bytes[MRTQ_VTA_MEM_ACC], plan->load_bytes[MRTQ_VTA_MEM_ACC], "ACC load estimate");
      FZ_CHECK(sim.load_bytes[MRTQ_VTA_MEM_UOP] <= plan->load_bytes[MRTQ_VTA_MEM_UOP], "UOP load above the estimate");
    }
    fz_buf_free(&by), fz_buf_free(&br);
  }
out:
  free(plan), free(x), free(w), free(dram), free(words), free(uops);
  return 0;
}
