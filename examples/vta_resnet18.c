/* A whole network on mrtq's VTA simulator, on built-in data: ResNet-18 (or
 * MobileNet V1) int8 with deterministic weights and calibrated scales
 * (examples/vta_models.h), compiled by mrtq/vta/net.h into one VTA program
 * (each layer loads its own micro-op table; one FINISH; activations stay in
 * DRAM in the blocked layout between layers), run on the simulator and
 * compared with the CPU
 * reference network (mrtq_vta_net_ref). Prints the per-layer cost table:
 * instructions, GEMM and ALU micro-ops, DRAM traffic against each layer's
 * compulsory traffic, and the modelled time on the Pynq-Z1 and Ultra96 VTA
 * configurations.
 *
 *   mrtq_vta_resnet18 [--net resnet18|mobilenet] [--size N] [--every-layer] [--check] [--csv FILE]
 *
 * --size: the input's height and width (a multiple of 32; 224 is the
 * published size, the default 64 keeps the run short). --every-layer: keep
 * every tensor (no DRAM reuse) and compare each layer's output, not only the
 * network's. --check: as --every-layer, and a last line "test_example_vta_NET:
 * N passed, N failed" (each layer a case; tests/meson.build runs it). --csv:
 * the table as CSV (scripts/vta_cost.py plots it). Exits
 * non-zero if any compared byte differs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_models.h"

static double mib(uint64_t b) { return (double)b / (1024.0 * 1024.0); }

static uint64_t traffic(const mrtq_vta_cost *c) {
  uint64_t t = c->store_bytes;
  int k;
  for (k = 0; k < 6; k++) t += c->load_bytes[k];
  return t;
}

int main(int argc, char **argv) {
  const char *netname = "resnet18", *csv = NULL;
  size_t size = 64, i, k, bad_layers = 0, compared = 0, sb;
  int every = 0, check = 0, a;
  size_t layers_equal = 0, layers_checked = 0;
  vtam m;
  mrtq_vta_config cfg = mrtq_vta_config_default();
  mrtq_vta_net_plan plan;
  mrtq_vta_sim sim;
  mrtq_vta_prog prog;
  mrtq_vta_cost tot;
  mrtq_vta_model pynq = mrtq_vta_model_preset(0), u96 = mrtq_vta_model_preset(1);
  void *work = NULL, *scratch = NULL;
  uint8_t *dram = NULL;
  mrtq_vta_word *words = NULL;
  uint32_t *uops = NULL;
  int8_t **ref = NULL, *got = NULL;
  uint64_t comp_total = 0;
  double t_pynq = 0, t_u96 = 0;
  FILE *f = NULL;
  mrtq_status st;
  for (a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--net") && a + 1 < argc) netname = argv[++a];
    else if (!strcmp(argv[a], "--size") && a + 1 < argc) size = (size_t)strtoul(argv[++a], NULL, 10);
    else if (!strcmp(argv[a], "--every-layer")) every = 1;
    else if (!strcmp(argv[a], "--check")) check = every = 1; /* as a test: every layer a case */
    else if (!strcmp(argv[a], "--csv") && a + 1 < argc) csv = argv[++a];
    else {
      fprintf(stderr, "usage: %s [--net resnet18|mobilenet] [--size N] [--every-layer] [--check] [--csv FILE]\n",
              argv[0]);
      return 2;
    }
  }
  /* up to 992: the average pooling's kernel (size / 32 square) must stay below the 1024 WGT entries */
  if (size < 32 || size % 32 || size > 992 || (strcmp(netname, "resnet18") && strcmp(netname, "mobilenet"))) {
    fprintf(stderr, "--size must be a multiple of 32 in [32, 992]; --net resnet18 or mobilenet\n");
    return 2;
  }
  if ((!strcmp(netname, "resnet18") ? vtam_resnet18(&m, size, 2024) : vtam_mobilenet(&m, size, 2024)) != 0) {
    fprintf(stderr, "building the network failed\n");
    return 1;
  }
  work = malloc(mrtq_vta_net_work_bytes(m.nlayers));
  st = mrtq_vta_net_plan_build(&cfg, MRTQ_VTA_PROFILE_SIM, &m.net, 4096, !every, work,
                               mrtq_vta_net_work_bytes(m.nlayers), &plan);
  if (st != MRTQ_OK) {
    fprintf(stderr, "mrtq_vta_net_plan_build: %s\n", mrtq_status_str(st));
    return 1;
  }
  sb = mrtq_vta_sim_scratch_bytes(&cfg);
  scratch = malloc(sb), dram = (uint8_t *)calloc(plan.dram_bytes, 1);
  words = (mrtq_vta_word *)malloc(plan.insns * sizeof *words), uops = (uint32_t *)malloc(plan.uops * 4);
  ref = (int8_t **)calloc(m.nlayers, sizeof *ref);
  if (!work || !scratch || !dram || !words || !uops || !ref) return 1;
  for (i = 0; i < m.nlayers; i++)
    if (!(ref[i] = (int8_t *)malloc(plan.t[i + 1].n * plan.t[i + 1].c * plan.t[i + 1].h * plan.t[i + 1].w))) return 1;
  st = mrtq_vta_sim_init(&cfg, MRTQ_VTA_PROFILE_SIM, scratch, sb, dram, plan.dram_bytes, &sim);
  if (st == MRTQ_OK) st = mrtq_vta_prog_init(&cfg, words, plan.insns, uops, plan.uops, &prog);
  if (st == MRTQ_OK) st = mrtq_vta_net_load(&plan, &m.net, dram, plan.dram_bytes);      /* the model, once */
  if (st == MRTQ_OK) st = mrtq_vta_net_input(&plan, &m.net, m.x, dram, plan.dram_bytes); /* the input */
  if (st == MRTQ_OK) st = mrtq_vta_net_build(&plan, &m.net, &prog, dram, plan.dram_bytes);
  if (st == MRTQ_OK) st = mrtq_vta_sim_run(words, prog.n, &sim);
  if (st == MRTQ_OK) st = mrtq_vta_net_cost(&plan, words, prog.n, &tot);
  if (st == MRTQ_OK) st = mrtq_vta_net_ref(&plan, &m.net, m.x, ref);
  if (st != MRTQ_OK) {
    fprintf(stderr, "failed: %s %s\n", mrtq_status_str(st), sim.error ? sim.error : "");
    return 1;
  }
  printf("%s, int8, input 3x%zux%zu: %zu layers as one VTA program: %zu instructions (%u FINISH), micro-op tables of "
         "up to %zu entries (one per layer)\n",
         netname, size, size, m.nlayers, prog.n, (unsigned)sim.finish_count, plan.uops);
  printf("DRAM image %.2f MiB (%s); config: BATCH 1, BLOCK 16, tvm-vta's default SRAM sizes\n", mib(plan.dram_bytes),
         every ? "every tensor kept" : "dead activations' bytes reused");
  printf("model: %s %.0f MHz, %.0f B/cycle, GEMM %.0f, ALU %.1f micro-op/cycle; %s %.0f MHz, %.0f B/cycle\n\n",
         pynq.name, pynq.clock_hz / 1e6, pynq.dram_bytes_per_cycle, pynq.gemm_per_cycle, pynq.alu_per_cycle, u96.name,
         u96.clock_hz / 1e6, u96.dram_bytes_per_cycle);
  if (csv && !(f = fopen(csv, "w"))) {
    fprintf(stderr, "cannot write %s\n", csv);
    return 1;
  }
  if (f) fprintf(f, "layer,insns,gemm_ops,alu_ops,reset_ops,inp,wgt,acc,uop,out,compulsory,ms_pynq,ms_ultra96,bound\n");
  printf("%-11s %14s %6s %9s %8s %8s %8s %8s %7s %6s %8s %8s %5s %s\n", "layer", "output", "insns", "GEMM", "ALU",
         "in MiB", "out MiB", "min MiB", "ratio", "equal", "Pynq ms", "U96 ms", "bound", "");
  for (i = 0; i < m.nlayers; i++) {
    const mrtq_vta_net_lplan *lp = &plan.layer[i];
    const mrtq_vta_net_tensor *t = &plan.t[i + 1];
    size_t n = t->n * t->c * t->h * t->w, diff = 0;
    uint64_t in = traffic(&lp->cost) - lp->cost.store_bytes;
    double tp = mrtq_vta_model_seconds(&pynq, &lp->cost), tu = mrtq_vta_model_seconds(&u96, &lp->cost);
    double comp = (double)lp->cost.gemm_ops / pynq.gemm_per_cycle +
                  (double)(lp->cost.alu_ops + lp->cost.reset_ops) / pynq.alu_per_cycle;
    const char *bound = comp * pynq.dram_bytes_per_cycle >= (double)traffic(&lp->cost) ? "comp" : "mem";
    int checked = every || t->last == m.nlayers; /* with reuse, only the live outputs are still in DRAM */
    if (checked) {
      free(got);
      got = (int8_t *)malloc(n);
      if (!got || mrtq_vta_net_output(&plan, i + 1, dram, plan.dram_bytes, got) != MRTQ_OK) return 1;
      for (k = 0; k < n; k++) diff += got[k] != ref[i][k];
      compared += n;
      bad_layers += diff != 0;
      layers_checked++, layers_equal += diff == 0;
    }
    comp_total += lp->compulsory, t_pynq += tp, t_u96 += tu;
    printf("%-11s %5zux%3zux%3zu %6llu %9llu %8llu %8.2f %8.2f %8.2f %7.2f %6s %8.3f %8.3f %5s\n", m.name[i], t->c, t->h,
           t->w, (unsigned long long)lp->cost.insns, (unsigned long long)lp->cost.gemm_ops,
           (unsigned long long)lp->cost.alu_ops, mib(in), mib(lp->cost.store_bytes), mib(lp->compulsory),
           (double)traffic(&lp->cost) / (double)lp->compulsory, checked ? (diff ? "NO" : "yes") : "-", tp * 1e3,
           tu * 1e3, bound);
    if (f)
      fprintf(f, "%s,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.6f,%.6f,%s\n", m.name[i],
              (unsigned long long)lp->cost.insns, (unsigned long long)lp->cost.gemm_ops,
              (unsigned long long)lp->cost.alu_ops, (unsigned long long)lp->cost.reset_ops,
              (unsigned long long)lp->cost.load_bytes[MRTQ_VTA_MEM_INP],
              (unsigned long long)lp->cost.load_bytes[MRTQ_VTA_MEM_WGT],
              (unsigned long long)lp->cost.load_bytes[MRTQ_VTA_MEM_ACC],
              (unsigned long long)lp->cost.load_bytes[MRTQ_VTA_MEM_UOP], (unsigned long long)lp->cost.store_bytes,
              (unsigned long long)lp->compulsory, tp * 1e3, tu * 1e3, bound);
  }
  printf("%-11s %14s %6zu %9llu %8llu %8.2f %8.2f %8.2f %7.2f %6s %8.3f %8.3f\n", "total", "", prog.n,
         (unsigned long long)tot.gemm_ops, (unsigned long long)tot.alu_ops, mib(traffic(&tot) - tot.store_bytes),
         mib(tot.store_bytes), mib(comp_total), (double)traffic(&tot) / (double)comp_total,
         bad_layers ? "NO" : "yes", t_pynq * 1e3, t_u96 * 1e3);
  printf("\nsimulator counters: GEMM %llu, ALU %llu, stored %llu bytes (the table's totals: %s)\n",
         (unsigned long long)sim.gemm_ops, (unsigned long long)sim.alu_ops, (unsigned long long)sim.store_bytes,
         sim.gemm_ops == tot.gemm_ops && sim.alu_ops == tot.alu_ops && sim.store_bytes == tot.store_bytes ? "equal"
                                                                                                         : "DIFFER");
  printf("%zu output bytes compared with the CPU reference network: %s\n", compared,
         bad_layers ? "MISMATCH" : "all equal");
  if (check) /* cases: each layer's bytes, and the counted cost against the simulator's counters */
    printf("test_example_vta_%s: %zu passed, %zu failed\n", netname,
           layers_equal + (sim.gemm_ops == tot.gemm_ops && sim.alu_ops == tot.alu_ops && sim.store_bytes == tot.store_bytes),
           layers_checked - layers_equal +
               !(sim.gemm_ops == tot.gemm_ops && sim.alu_ops == tot.alu_ops && sim.store_bytes == tot.store_bytes));
  if (f) fclose(f);
  for (i = 0; i < m.nlayers; i++) free(ref[i]);
  free(ref), free(got), free(work), free(scratch), free(dram), free(words), free(uops);
  vtam_free(&m);
  return bad_layers || sim.gemm_ops != tot.gemm_ops ? 1 : 0;
}
