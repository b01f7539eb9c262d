/* mrtq/vta/net.h -- whole networks: the DRAM planner.
 * Part of the VTA backend: include "mrtq/vta.h" (the umbrella, which says what
 * the family holds and the rules every part follows); this header includes
 * only the parts below it. */
#ifndef MRTQ_VTA_NET_H
#define MRTQ_VTA_NET_H

#include "conv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

/* ---- 6. the DRAM planner ----
 * A network's buffers (per layer: micro-op table, packed input, weights,
 * parameter rows, output; the network's input and output), each with its
 * size, alignment and the steps it is live in: from `first` (the step that
 * writes it, or 0 for what the host writes before the run) to `last` (the
 * last step that reads it), both inclusive. Two buffers whose live ranges
 * share a step must not overlap; a buffer dead before another is born may
 * reuse its bytes (an activation freed once the next layer has read it).
 * mrtq_vta_dram_plan places them all at or above `base` (tvm-vta's runtime
 * never hands out physical address 0: a base of one page is typical) and
 * writes each buffer's offset into off[] and the end of the highest into
 * *end.
 *
 * The placement is greedy and deterministic: buffers in order of decreasing
 * size (ties: by index), each at the lowest aligned offset among base and the
 * ends of the placed buffers it shares a step with, where it overlaps none of
 * them (first fit). Its end never exceeds base + sum(bytes + align - 1) (no
 * reuse at all) and never falls below base plus the peak over steps of the
 * live bytes (a bound every placement has); tests/test_vta_net.c measures
 * where it lands between the two. */
typedef struct mrtq_vta_dram_buf {
  size_t bytes;       /* 0: not placed (off[] gets base) */
  size_t align;       /* a power of two >= 1 (bytes) */
  size_t first, last; /* live steps, inclusive */
} mrtq_vta_dram_buf;

/* scratch: n size_t of caller memory (the order). The work is O(n^2) per
 * buffer at most (n^3 in all): a network's few hundred buffers take
 * milliseconds.
 * Errors: end NULL; b, scratch or off NULL while n > 0; b[i].align 0 or not
 * a power of two; b[i].first > b[i].last -> MRTQ_EINVAL (nothing written);
 * an offset or the end beyond SIZE_MAX -> MRTQ_EOVERFLOW (*end not written;
 * off[] and scratch may be). */
MRTQ_API mrtq_status mrtq_vta_dram_plan(const mrtq_vta_dram_buf *b, size_t n, size_t base, size_t *scratch,
                                        size_t *off, size_t *end);

/* ======================= bodies ======================= */
#if MRTQ__BODIES

MRTQ_API mrtq_status mrtq_vta_dram_plan(const mrtq_vta_dram_buf *b, size_t n, size_t base, size_t *scratch,
                                        size_t *off, size_t *end) {
  size_t i, j, k, top = base;
  if (!end) return MRTQ__ERR(MRTQ_EINVAL, "end: NULL");
  if (n && !b) return MRTQ__ERR(MRTQ_EINVAL, "b: NULL while n > 0");
  if (n && !off) return MRTQ__ERR(MRTQ_EINVAL, "off: NULL while n > 0");
  if (n && !scratch) return MRTQ__ERR(MRTQ_EINVAL, "scratch: NULL while n > 0");
  for (i = 0; i < n; i++) {
    if (b[i].align == 0 || (b[i].align & (b[i].align - 1)))
      return MRTQ__ERR(MRTQ_EINVAL, "b[i].align: must be a power of two");
    if (b[i].first > b[i].last) return MRTQ__ERR(MRTQ_EINVAL, "b[i].first: after b[i].last");
    if (b[i].bytes > SIZE_MAX - b[i].align || base > SIZE_MAX - b[i].bytes - b[i].align)
      return MRTQ__ERR(MRTQ_EOVERFLOW, "b[i].bytes: an offset beyond SIZE_MAX");
  }
  /* the order: decreasing size, ties by index (insertion sort; stable) */
  for (i = 0; i < n; i++) {
    for (j = i; j > 0 && b[scratch[j - 1]].bytes < b[i].bytes; j--) scratch[j] = scratch[j - 1];
    scratch[j] = i;
  }
  for (i = 0; i < n; i++) off[i] = base;
  /* placed[0..k) = scratch[0..k): each candidate offset is base or the end of
     a placed, live-overlapping buffer, aligned up; the lowest that fits wins */
  for (k = 0; k < n; k++) {
    const mrtq_vta_dram_buf *c = &b[scratch[k]];
    size_t best = SIZE_MAX, t;
    if (c->bytes == 0) continue;
    for (t = 0; t <= k; t++) {
      size_t cand, q;
      int ok = 1;
      if (t == k) {
        cand = base;
      } else {
        const mrtq_vta_dram_buf *p = &b[scratch[t]];
        if (p->bytes == 0 || p->last < c->first || c->last < p->first) continue;
        cand = off[scratch[t]] + p->bytes;
      }
      if (cand > SIZE_MAX - c->align) return MRTQ__ERR(MRTQ_EOVERFLOW, "b: the plan's end beyond SIZE_MAX");
      cand = (cand + c->align - 1) & ~(c->align - 1);
      if (cand >= best || cand > SIZE_MAX - c->bytes) continue;
      for (q = 0; q < k && ok; q++) {
        const mrtq_vta_dram_buf *p = &b[scratch[q]];
        if (p->bytes == 0 || p->last < c->first || c->last < p->first) continue;
        ok = cand + c->bytes <= off[scratch[q]] || off[scratch[q]] + p->bytes <= cand;
      }
      if (ok) best = cand;
    }
    if (best == SIZE_MAX) return MRTQ__ERR(MRTQ_EOVERFLOW, "b: the plan's end beyond SIZE_MAX");
    off[scratch[k]] = best;
    if (best + c->bytes > top) top = best + c->bytes;
  }
  *end = top;
  return MRTQ_OK;
}

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_VTA_NET_H */
