#!/usr/bin/env bash
# The ONNX Runtime differential, in three steps:
#   1. tests/ort/make_models.py builds seeded single-node ONNX models (python3-onnx);
#   2. tests/ort/run_ort.js runs them on ONNX Runtime (npm's onnxruntime-node,
#      CPU execution provider, one thread) and writes every input and output;
#   3. test_ort recomputes each output with mrtq and compares byte for byte.
# Usage: run.sh TEST_ORT_BINARY WORK_DIR
# onnxruntime-node is looked up in $MRTQ_ORT_NODE_MODULES, then in
# build/npm/node_modules of the source tree (scripts/test installs it there),
# then wherever node finds it. Without node, the package or python3-onnx the
# test reports itself skipped (exit 77).
set -euo pipefail
bin=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
skip() { echo "test_ort: skipped: $1"; exit 77; }

command -v node >/dev/null || skip "no node"
py=
for p in /usr/bin/python3 python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import onnx, numpy' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || skip "no python3 with onnx and numpy (Debian: python3-onnx)"
mods=${MRTQ_ORT_NODE_MODULES:-$root/build/npm/node_modules}
export NODE_PATH=$mods${NODE_PATH:+:$NODE_PATH}
node -e 'require("onnxruntime-node")' 2>/dev/null ||
  skip "no onnxruntime-node (npm install --ignore-scripts --prefix build/npm onnxruntime-node)"

rm -rf "$work"
mkdir -p "$work"
"$py" "$here/make_models.py" "$work/models"
node "$here/run_ort.js" "$work/models" "$work/ort.txt"
exec "$bin" "$work/ort.txt"
