/* Fuzzer-chosen element types and requantization descriptors, shared by the
 * harnesses of the 8-bit kernels. Include after fuzz.h and the mrtq headers
 * (it needs mrtq_dtype and mrtq_rq). */
#ifndef MRTQ_FUZZ_Q8_H
#define MRTQ_FUZZ_Q8_H

/* S8 or U8 (the low bit of one byte, as the old is_unsigned flag, so saved
 * corpora keep their meaning); rarely 0 (a zeroed operand), a type the 8-bit
 * kernels refuse (S16, S32, S4) or a value outside mrtq_dtype. */
static inline mrtq_dtype type_for(fz *f) {
  uint8_t b = fz_u8(f);
  static const int odd[] = {0, MRTQ_S16, MRTQ_S32, MRTQ_S4, 6, -1};
  if (b >= 250) return (mrtq_dtype)odd[b - 250];
  return b & 1 ? MRTQ_U8 : MRTQ_S8;
}
static inline int is_q8(mrtq_dtype t) { return t == MRTQ_S8 || t == MRTQ_U8; }

/* Rarely break a well-formed rq so that the operators must refuse it (a
 * scheme outside the enum, a field the scheme never reads, qmin > qmax);
 * returns whether it did. */
static inline int spoil_rq(fz *f, mrtq_rq *rq) {
  if (!fz_rare(f, 6)) return 0;
  switch (fz_range(f, 0, 3)) {
    case 0: rq->scheme = (mrtq_scheme)(fz_bool(f) ? 5 : -1); break;
    case 1:
      if (rq->scheme == MRTQ_FP32) rq->m.mult = 1;
      else rq->scale = 1.0f;
      break;
    case 2:
      if (rq->scheme == MRTQ_FP32) rq->m.shift = -1;
      else rq->scale = -0.5f;
      break;
    default: rq->qmin = 1, rq->qmax = 0; break;
  }
  return 1;
}

#endif
