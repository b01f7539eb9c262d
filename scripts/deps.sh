# Sourced by scripts/test and scripts/demo: mrtq_need PKG... makes sure the
# Debian packages are installed. As root it installs what is missing
# (apt-get, no prompts); otherwise it prints the exact command and stops.
mrtq_need() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local cmd="apt-get install -y --no-install-recommends ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    echo "mrtq: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y --no-install-recommends "${missing[@]}" >&2
  else
    echo "mrtq: missing Debian packages. Run as root:" >&2
    echo "  apt-get update && $cmd" >&2
    exit 1
  fi
}

# npm's onnxruntime-node (the version docs/anchors.md names) into
# build/npm/node_modules, where tests/ort/run.sh looks; once. A failure (no
# registry) is reported and the ONNX Runtime test then reports itself skipped.
MRTQ_ORT_VERSION=1.30.0
mrtq_ort_npm() {
  local dir=build/npm
  [ -f "$dir/node_modules/onnxruntime-node/package.json" ] &&
    grep -q "\"version\": \"$MRTQ_ORT_VERSION\"" "$dir/node_modules/onnxruntime-node/package.json" && return 0
  mkdir -p "$dir"
  echo "mrtq: npm install onnxruntime-node@$MRTQ_ORT_VERSION into $dir" >&2
  npm install --ignore-scripts --no-audit --no-fund --prefix "$dir" "onnxruntime-node@$MRTQ_ORT_VERSION" >&2 ||
    echo "mrtq: npm install failed; the ONNX Runtime differential will be skipped" >&2
}
