#!/usr/bin/env bash
# Build the libFuzzer harnesses of tests/fuzz with clang
# (-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all) and run each
# over its saved corpus (tests/fuzz/corpus/<corpus>/) plus a time-boxed run.
# A harness is one test case: it passes when it builds and its run finds
# nothing. Last line: "test_fuzz: N passed, N failed".
#
#   tests/fuzz/run.sh [-t SECONDS] [-j JOBS] [-o DIR] [-s] [HARNESS ...]
#     -t  seconds of fuzzing per harness after the corpus (default 5)
#     -j  harnesses run at once (default 2)
#     -o  build and output directory (default build/fuzz): binaries, logs,
#         new corpus units (DIR/corpus-<harness>), crash artifacts
#     -s  reproduce the saved defects instead: build with -DFZ_STRICT (the
#         known-defect guards off) and run every input of
#         tests/fuzz/crashes/<harness>/; a case passes when the input still
#         fails (the defect is still there) -- informational, not part of the
#         test step
# Harness names: see HARNESSES below (e.g. scalar, array_avx2, vta_sim).
set -uo pipefail
cd "$(dirname "$0")/../.."
secs=5 jobs=2 out=build/fuzz strict=0
while getopts "t:j:o:s" opt; do
  case $opt in
    t) secs=$OPTARG ;;
    j) jobs=$OPTARG ;;
    o) out=$OPTARG ;;
    s) strict=1 ;;
    *) echo "usage: $0 [-t SECONDS] [-j JOBS] [-o DIR] [-s] [HARNESS ...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
CC=${CC_FUZZ:-clang}
command -v "$CC" >/dev/null || { echo "fuzz: $CC not found"; echo "test_fuzz: 0 passed, 1 failed"; exit 1; }
cpu=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)
has() { [[ " $cpu " == *" $1 "* ]]; }
AVX512="-mavx512f -mavx512bw -mavx512dq -mavx2 -mfma -msse4.1"

# name|source|corpus|extra flags
HARNESSES=(
  "scalar|fuzz_scalar.c|scalar|"
  "array_scalar|fuzz_array.c|array|-DMRTQ_NO_SIMD"
  "scale|fuzz_scale.c|scale|"
  "conv|fuzz_conv.c|conv|"
  "conv_s16|fuzz_conv_s16.c|conv_s16|"
  "pool|fuzz_pool.c|pool|"
  "eltwise|fuzz_eltwise.c|eltwise|"
  "shape|fuzz_shape.c|shape|"
  "tflite|fuzz_tflite.c|tflite|"
  "activation|fuzz_activation.c|activation|"
  "ort|fuzz_ort.c|ort|"
  "onednn|fuzz_onednn.c|onednn|"
  "vta_isa|fuzz_vta_isa.c|vta_isa|"
  "vta_sim|fuzz_vta_sim.c|vta_sim|"
  "vta_plan|fuzz_vta_plan.c|vta_plan|"
  "vta_conv|fuzz_vta_conv.c|vta_conv|"
)
# SIMD paths this CPU can run
has sse4_1 && HARNESSES+=("array_sse41|fuzz_array.c|array|-msse4.1 -DMRTQ_NO_DISPATCH")
has avx2 && has fma && HARNESSES+=("array_avx2|fuzz_array.c|array|-mavx2 -mfma -msse4.1 -DMRTQ_NO_DISPATCH")
if has avx512f && has avx512bw && has avx512dq; then
  HARNESSES+=("array_avx512|fuzz_array.c|array|$AVX512")
  has avx512_vnni && HARNESSES+=("onednn_vnni|fuzz_onednn.c|onednn|$AVX512 -mavx512vnni")
  has avx512_vnni && HARNESSES+=("conv_vnni|fuzz_conv.c|conv|$AVX512 -mavx512vnni")
  has avx512_vnni && HARNESSES+=("conv_s16_vnni|fuzz_conv_s16.c|conv_s16|$AVX512 -mavx512vnni")
  # the depthwise 3x3 path that packs three kernel rows per lane (AVX512-VBMI)
  has avx512_vnni && has avx512vbmi && HARNESSES+=("onednn_vbmi|fuzz_onednn.c|onednn|$AVX512 -mavx512vnni -mavx512vbmi")
  has avx512_vnni && has avx512vbmi && HARNESSES+=("conv_vbmi|fuzz_conv.c|conv|$AVX512 -mavx512vnni -mavx512vbmi")
fi

want=("$@")
selected=()
for h in "${HARNESSES[@]}"; do
  name=${h%%|*}
  if [ ${#want[@]} -eq 0 ] || [[ " ${want[*]} " == *" $name "* ]]; then selected+=("$h"); fi
done
[ ${#selected[@]} -gt 0 ] || { echo "fuzz: no harness matches: ${want[*]}"; exit 2; }

mkdir -p "$out"
flags=(-g -O1 -std=c11 -Wall -Wextra -Werror -Iinclude -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all)
[ $strict = 1 ] && flags+=(-DFZ_STRICT=0)

one() { # the spec of one harness; prints "PASS name ..." or "FAIL name ..."
  local name src corpus extra bin log new res
  IFS='|' read -r name src corpus extra <<<"$1"
  bin=$out/fuzz_$name$([ $strict = 1 ] && echo _strict)
  log=$out/$name$([ $strict = 1 ] && echo .strict).log
  # shellcheck disable=SC2086
  if ! $CC "${flags[@]}" $extra "tests/fuzz/$src" -o "$bin" -lm >"$log" 2>&1; then
    echo "FAIL $name (build; $log)"
    return
  fi
  if [ $strict = 1 ]; then
    local n=0 still=0 f
    for f in tests/fuzz/crashes/"$name"/*; do
      [ -f "$f" ] || continue
      n=$((n + 1))
      if ! timeout 60 "$bin" -timeout=20 "$f" >>"$log" 2>&1; then still=$((still + 1)); fi
    done
    if [ $n = 0 ]; then echo "SKIP $name (no saved defects)"; else echo "PASS $name ($still of $n saved defects still reproduce; $log)"; fi
    return
  fi
  new=$out/corpus-$name
  mkdir -p "$new" "tests/fuzz/corpus/$corpus"
  if timeout $((secs + 120)) "$bin" -max_total_time="$secs" -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
    -artifact_prefix="$out/$name-" "$new" "tests/fuzz/corpus/$corpus" >"$log" 2>&1; then
    res=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')
    echo "PASS $name ($res execs in ${secs}s plus the corpus)"
  else
    echo "FAIL $name (see $log; $(grep -m1 -E '^fuzz: |ERROR: |runtime error' "$log" || echo 'no message'))"
  fi
}
export -f one
export out secs strict CC

results=$(printf '%s\n' "${selected[@]}" | xargs -d '\n' -P "$jobs" -I{} bash -c "$(declare -p flags); one \"\$1\"" _ {})
echo "$results" | sort
pass=$(grep -c '^PASS' <<<"$results" || true)
fail=$((${#selected[@]} - pass)) # a harness that printed no line (its shell died) failed too
if [ $strict = 1 ]; then
  echo "fuzz reproducers: $pass harnesses checked"
  exit 0
fi
echo "test_fuzz: $pass passed, $fail failed"
[ "$fail" = 0 ]
