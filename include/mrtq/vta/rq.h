/* mrtq/vta/rq.h -- requant plans: the ALU steps that requantize an int32 accumulator on VTA.
 * Part of the VTA backend: include "mrtq/vta.h" (the umbrella, which says what
 * the family holds and the rules every part follows); this header includes
 * only the parts below it. */
#ifndef MRTQ_VTA_RQ_H
#define MRTQ_VTA_RQ_H

#include "sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================= declarations ======================= */

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

/* ======================= bodies ======================= */
#if MRTQ__BODIES

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

#endif /* MRTQ__BODIES */

#ifdef __cplusplus
}
#endif

#endif /* MRTQ_VTA_RQ_H */
