#!/usr/bin/env bash
# Packaging checks, run by scripts/test: the three ways README.md says to use
# mrtq from another project must work. Prints "test_packaging: N passed, N failed".
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
run_case() { # NAME COMMAND...
  local name=$1; shift
  if ( "$@" ) >"$work/$name.log" 2>&1; then
    pass=$((pass + 1)); echo "ok   $name"
  else
    fail=$((fail + 1)); echo "FAIL $name"; sed 's/^/    /' "$work/$name.log"
  fi
}
cat >"$work/app.c" <<'C'
#include "mrtq.h"
int main(void) {
  mrtq_mult m;
  /* 0.25 -> {2^30, -1}; 6 * 0.25 = 1.5 rounds to 2 */
  return mrtq_mult_q31(0.25, &m) == MRTQ_OK && m.mult == (1 << 30) && m.shift == -1 &&
                 mrtq_mul_q31_rndnu(6, m) == 2 ? 0 : 1;
}
C

# 1. meson install + pkg-config (header-only .pc: no libs)
pc_case() {
  meson setup "$work/b" "$src" --prefix "$work/prefix" -Dtests=false -Dexamples=false &&
  meson install -C "$work/b" &&
  export PKG_CONFIG_PATH=$(dirname "$(find "$work/prefix" -name mrtq.pc)") &&
  test -z "$(pkg-config --libs mrtq | tr -d ' ')" &&
  cc -std=c11 -Wall -Werror $(pkg-config --cflags mrtq) "$work/app.c" -o "$work/app_pc" && "$work/app_pc"
}
run_case pkg_config pc_case

# 2. meson subproject + dependency('mrtq')
sub_case() {
  mkdir -p "$work/proj/subprojects" && ln -s "$src" "$work/proj/subprojects/mrtq" && cp "$work/app.c" "$work/proj/" &&
  printf "project('app', 'c', default_options : ['c_std=c11'])\nsubproject('mrtq')\nexecutable('app', 'app.c', dependencies : dependency('mrtq'))\n" >"$work/proj/meson.build" &&
  meson setup "$work/proj/b" "$work/proj" && ninja -C "$work/proj/b" && "$work/proj/b/app" &&
  test ! -e "$work/proj/b/subprojects/mrtq/tests" # a subproject builds no tests
}
run_case meson_subproject sub_case

# 3. copy include/ and compile
copy_case() {
  cp -r "$src/include" "$work/copied" && cc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$work/copied" "$work/app.c" -o "$work/app_cp" && "$work/app_cp"
}
run_case copy_include copy_case

echo "test_packaging: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
