#!/usr/bin/env bash
# Packaging checks, run by scripts/test: the ways README.md says to use mrtq
# from another project must work, and the build must not do more than it says.
#   pkg_config        meson install + pkg-config (header-only .pc, project version)
#   meson_subproject  dependency('mrtq') from a parent project
#   copy_include      copy include/ and compile
#   subproject_install  a parent's `meson install` installs no mrtq header and no mrtq.pc
#   dependency_version  dependency('mrtq').version() is the project version (= MRTQ_VERSION_STRING)
#   plain_install     `meson setup build && meson install -C build` compiles nothing and installs every header
#   extern_mode       MRTQ_EXTERN: a declarations-only unit holds no public body; the MRTQ_IMPLEMENTATION
#                     unit defines every declared public function once, with external linkage
#   extern_subproject README's MRTQ_EXTERN recipe in a parent project links, one copy of each function
# Usage: tests/packaging.sh [CASE...] (default: all). Prints "test_packaging: N passed, N failed".
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
want=" $* "
run_case() { # NAME FUNCTION
  local name=$1; shift
  [ "$want" = "  " ] || [[ "$want" == *" $name "* ]] || return 0
  ( set -e; "$@" ) >"$work/$name.log" 2>&1 # not inside an if: set -e must act in the case
  if [ $? -eq 0 ]; then
    pass=$((pass + 1)); echo "ok   $name"
  else
    fail=$((fail + 1)); echo "FAIL $name"; sed 's/^/    /' "$work/$name.log"
  fi
}
# The version as the code states it (common.h) and as meson states it.
code_version=$(sed -n 's/^#define MRTQ_VERSION_STRING "\(.*\)"$/\1/p' "$src/include/mrtq/common.h")
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
  test -n "$code_version" && test "$(pkg-config --modversion mrtq)" = "$code_version" &&
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

# A parent project that installs its own program and uses mrtq through
# README's fallback line. Asks for mrtq at the version common.h states.
parent_project() { # DIR
  mkdir -p "$1/subprojects" && ln -s "$src" "$1/subprojects/mrtq" && cp "$work/app.c" "$1/"
  cat >"$1/meson.build" <<M
project('parent', 'c', default_options : ['c_std=c11'])
mrtq_dep = dependency('mrtq', fallback : ['mrtq', 'mrtq_dep'], version : '>= $code_version')
message('mrtq dependency version: ' + mrtq_dep.version())
assert(mrtq_dep.version() == '$code_version', 'mrtq_dep.version() is ' + mrtq_dep.version())
assert(not dependency('mrtq', version : '> $code_version', required : false).found(),
  'a newer mrtq than $code_version was found')
executable('app', 'app.c', dependencies : mrtq_dep, install : true)
M
}

# 4. a parent project's `meson install` ships its own files only
sub_install_case() {
  local p=$work/parent1
  parent_project "$p"
  meson setup "$p/b" "$p" --prefix "$work/pprefix" >"$work/parent1.setup.log" 2>&1 ||
    { cat "$work/parent1.setup.log"; return 1; }
  meson install -C "$p/b"
  test -x "$(find "$work/pprefix" -name app -type f)" # the parent's own install happened
  local shipped
  shipped=$(cd "$work/pprefix" && find . -name 'mrtq*')
  if [ -n "$shipped" ]; then echo "a parent install shipped mrtq files:"; echo "$shipped"; return 1; fi
}
run_case subproject_install sub_install_case

# 5. dependency('mrtq').version() is the project version, which is common.h's
dep_version_case() {
  local p=$work/parent2 meson_version
  test -n "$code_version"
  meson_version=$(meson introspect --projectinfo "$src/meson.build" | python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')
  echo "meson.build: $meson_version, common.h: $code_version"
  test "$meson_version" = "$code_version"
  parent_project "$p"
  meson setup "$p/b" "$p" # fails on the asserts above
  grep -q "mrtq dependency version: $code_version\$" "$p/b/meson-logs/meson-log.txt"
}
run_case dependency_version dep_version_case

# 6. plain setup + install (no options): no test, example or benchmark is
#    configured or compiled; every header of include/ is installed
plain_case() {
  local b=$work/plain
  meson setup "$b" "$src" --prefix "$work/plainprefix"
  meson install -C "$b"
  meson introspect --targets "$b" | python3 -c '
import json, sys
t = json.load(sys.stdin)
for x in t:
    print("configured target:", x["name"], x["defined_in"])
sys.exit(1 if t else 0)'
  local built
  built=$(find "$b" -type f \( -name '*.o' -o -name '*.a' -o -name 'test_*' -o -name 'mrtq_*' \))
  if [ -n "$built" ]; then echo "compiled:"; echo "$built"; return 1; fi
  local inc
  inc=$(dirname "$(find "$work/plainprefix" -name mrtq.h -type f)")
  diff -r "$src/include" "$inc" # every header, byte for byte, and nothing else
}
run_case plain_install plain_case

# 7. MRTQ_EXTERN: checked on the object files (gcc: -aux-info lists every
#    declaration, -fkeep-inline-functions emits every inline body present).
extern_case() {
  local d=$work/extern flags
  mkdir -p "$d"
  flags="-std=c11 -Wall -Wextra -Wpedantic -Werror -O1 -fkeep-inline-functions -I$src/include"
  printf '#define MRTQ_EXTERN\n#include "mrtq.h"\n#include "mrtq/vta.h"\n' >"$d/decl.c"
  printf '#define MRTQ_EXTERN\n#define MRTQ_IMPLEMENTATION\n#include "mrtq.h"\n#include "mrtq/vta.h"\n' >"$d/impl.c"
  # the declarations-only unit: public functions declared, none defined
  gcc $flags -aux-info "$d/decl.aux" -c "$d/decl.c" -o "$d/decl.o"
  sed -n 's/.*[ *]\(mrtq_[a-z0-9][a-z0-9_]*\) (.*/\1/p' "$d/decl.aux" | sort -u >"$d/declared"
  echo "$(wc -l <"$d/declared") public functions declared"
  test -s "$d/declared"
  nm "$d/decl.o" | awk '$NF ~ /^mrtq_[a-z0-9]/ && $(NF-1) != "U" { print "  " $0 }' >"$d/bodies"
  local bad=0
  if [ -s "$d/bodies" ]; then echo "public bodies in the declarations-only unit:"; cat "$d/bodies"; bad=1; fi
  # the implementation unit, once per SIMD path the compiler has
  local paths=("scalar:-DMRTQ_SIMD=MRTQ_SIMD_SCALAR") p
  if [ "$(uname -m)" = x86_64 ]; then
    paths+=("dispatch:" "sse41:-msse4.1" "avx2:-mavx2" "avx512:-mavx512f -mavx512bw -mavx512dq"
            "avx512vnni:-mavx512f -mavx512bw -mavx512dq -mavx512vnni")
  fi
  for p in "${paths[@]}"; do
    gcc $flags ${p#*:} -c "$d/impl.c" -o "$d/impl_${p%%:*}.o"
    nm "$d/impl_${p%%:*}.o" >"$d/impl.nm"
    awk '$NF ~ /^mrtq_[a-z0-9]/ && $(NF-1) == "T" { print $NF }' "$d/impl.nm" | sort -u >"$d/defined"
    # a public function with internal linkage (MRTQ_API missing, or a hard-coded static)
    awk -v p="${p%%:*}" '$NF ~ /^mrtq_[a-z0-9]/ && $(NF-1) == "t" { print p ": public function not external: " $NF }' "$d/impl.nm" >"$d/errs"
    # a private helper with external linkage (MRTQ_API instead of MRTQ__PRIV)
    awk -v p="${p%%:*}" '$NF ~ /^mrtq__/ && $(NF-1) ~ /^[A-Z]$/ && $(NF-1) != "U" { print p ": private helper exported: " $NF }' "$d/impl.nm" >>"$d/errs"
    comm -23 "$d/declared" "$d/defined" | sed "s/^/${p%%:*}: declared, no body in the implementation unit: /" >>"$d/errs"
    comm -13 "$d/declared" "$d/defined" | sed "s/^/${p%%:*}: defined, not declared before the bodies: /" >>"$d/errs"
    echo "${p%%:*}: $(wc -l <"$d/defined") public functions defined"
    if [ -s "$d/errs" ]; then head -n 40 "$d/errs"; [ "$(wc -l <"$d/errs")" -le 40 ] || echo "  ... $(wc -l <"$d/errs") in all"; bad=1; fi
  done
  return $bad
}
run_case extern_mode extern_case

# 8. README's MRTQ_EXTERN recipe in a parent project: -DMRTQ_EXTERN for the
#    whole project, one mrtq_impl.c with MRTQ_IMPLEMENTATION
extern_sub_case() {
  local p=$work/parent3
  mkdir -p "$p/subprojects" && ln -s "$src" "$p/subprojects/mrtq" && cp "$work/app.c" "$p/"
  printf '#ifndef MRTQ_EXTERN\n#define MRTQ_EXTERN\n#endif\n#define MRTQ_IMPLEMENTATION\n#include "mrtq.h"\n#include "mrtq/vta.h"\n' >"$p/mrtq_impl.c"
  cat >"$p/meson.build" <<'M'
project('parent', 'c', default_options : ['c_std=c11', 'warning_level=3', 'werror=true'])
add_project_arguments('-DMRTQ_EXTERN', language : 'c')
mrtq_dep = dependency('mrtq', fallback : ['mrtq', 'mrtq_dep'])
executable('app', 'app.c', 'mrtq_impl.c', dependencies : mrtq_dep)
M
  meson setup "$p/b" "$p" >"$work/parent3.setup.log" 2>&1 || { cat "$work/parent3.setup.log"; return 1; }
  ninja -C "$p/b"
  "$p/b/app"
  # the program's one copy of mrtq_mult_q31 is the one in mrtq_impl.c
  nm "$p/b/app.p/app.c.o" | grep -q ' U mrtq_mult_q31$'
  nm "$p/b/app.p/mrtq_impl.c.o" | grep -q ' T mrtq_mult_q31$'
}
run_case extern_subproject extern_sub_case

echo "test_packaging: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
