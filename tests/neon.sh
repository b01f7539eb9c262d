#!/usr/bin/env bash
# The AArch64 build of the C tests (NEON path for the array API, the scalar
# core everywhere else), cross-compiled with -Werror and run under
# qemu-aarch64; run by scripts/test. Each binary prints its own summary line.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$src/build/neon}
mkdir -p "$out"
status=0
for t in test_common test_array test_fixedpoint test_requant test_scale test_vta_isa test_vta_sim test_vta_rq test_vta_conv test_vta_net test_vta_netprog test_eltwise test_pool test_shape test_precision test_conv test_matmul test_mrt test_conv_tflite test_attr test_fastconv test_fastconv_s16 test_tflite test_conv_s16 test_int4 test_eltwise16 test_dispatch test_fxmath test_lstm test_transpose_conv test_batch_matmul test_svdf test_quantize test_reduce test_softmax test_example_kws test_layout_ops test_activation test_ort_api; do
  src_c=$src/tests/$t.c args=
  # the keyword-spotting example checks itself
  [ "$t" = test_example_kws ] && src_c=$src/examples/kws.c args=--check
  if ! aarch64-linux-gnu-gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -O2 -static -DMRTQ_TEST_PATH='"neon"' \
      -I"$src/include" "$src_c" -lm -pthread -o "$out/$t"; then
    echo "$t-aarch64: 0 passed, 1 failed"
    status=1
    continue
  fi
  qemu-aarch64 "$out/$t" $args | sed "s/^\(test_[a-z0-9_]*\): /\1-aarch64: /" || status=1
done
exit $status
