/* mrtq/vta.h -- the VTA accelerator backend (optional: mrtq.h does not
 * include it; it adds no dependency beyond mrtq/requant.h and mrtq/pool.h).
 *
 * This header is the umbrella of a family under mrtq/vta/, one header per
 * layer, each including only the layers below it (declarations with their
 * contracts first, bodies after; docs/vta.md states the semantics in full):
 *   1. vta/isa.h   configuration and instruction set: encode / decode of the
 *                  128-bit instructions and 32-bit micro-ops, bit-exact with
 *                  apache/tvm-vta's layout (include/vta/hw_spec.h), and a
 *                  disassembler;
 *   2. vta/sim.h   a functional simulator (tvm-vta's src/sim/sim_driver.cc
 *                  semantics, made total) with target profiles;
 *   3. vta/rq.h    requant plans: the ALU steps that requantize an int32
 *                  accumulator;
 *   4. vta/prog.h  a program builder;
 *   5. vta/add.h, vta/conv.h  drivers: the VTA TFLite delegate's quantized
 *                  ADD, and CONV2D;
 *   6. vta/net.h   whole networks: the DRAM planner (buffer offsets,
 *                  alignment, reuse of dead buffers), networks of CONV,
 *                  ADD and MAXPOOL compiled into one program (activations
 *                  stay in DRAM between layers), the CPU reference network
 *                  and a cost model.
 * Include this file (a part alone works too, with the parts below it).
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

#include "vta/isa.h"  /* 1. configuration and instruction set */
#include "vta/sim.h"  /* 2. functional simulator */
#include "vta/rq.h"   /* 3. requant plans */
#include "vta/prog.h" /* 4. program builder */
#include "vta/add.h"  /* 5a. the ADD driver */
#include "vta/conv.h" /* 5b. the CONV2D driver */
#include "vta/net.h"  /* 6. whole networks */

#endif /* MRTQ_VTA_H */
