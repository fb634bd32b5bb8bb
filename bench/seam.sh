#!/usr/bin/env bash
# The span layout's seam offsets in BENCHMARKS.md: glout run --layout span --control none
# for SECONDS on a fresh headless sway per configuration, the stats JSON kept in
# bench/results/seam-CONFIG.json, one line per configuration printed.
#
#   bench/seam.sh [SECONDS] [CONFIG...]     (default 30 s, every config)
#
# Configs: a (1280x720@60 + 800x600@30), b (1920x1080@60 + 1280x720@144),
# c4 (4 outputs of 800x600@60), a-busy (a, with one core kept busy by a spinning shell).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}; shift || true
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(a b c4 a-busy)
glout=$(swift build -c release --show-bin-path)/glout
[ -x "$glout" ] || { echo "build first: swift build -c release" >&2; exit 1; }
mkdir -p bench/results

modes_of() {
  case $1 in
    a|a-busy) echo "1280x720@60,800x600@30" ;;
    b) echo "1920x1080@60,1280x720@144" ;;
    c4) echo "800x600@60,800x600@60,800x600@60,800x600@60" ;;
    *) echo "seam.sh: unknown config $1" >&2; exit 2 ;;
  esac
}

for config in "${configs[@]}"; do
  eval "$(scripts/compositor sway --outputs "$(modes_of "$config")")"
  spinner=""
  if [ "$config" = a-busy ]; then
    bash -c 'while :; do :; done' & spinner=$!
  fi
  json=bench/results/seam-$config.json
  "$glout" run --layout span --control none --duration "$seconds" --stats-json "$json" 2>/dev/null
  [ -z "$spinner" ] || kill "$spinner"
  scripts/compositor stop "$GLOUT_COMPOSITOR_DIR"
  python3 - "$config" "$json" <<'PY'
import json, sys
config, path = sys.argv[1], sys.argv[2]
report = json.load(open(path))
outputs = {o["name"]: o for o in report["outputs"]}
def rate(name):
    o = outputs[name]
    return f"{name} {o['refresh_mhz'] / 1000:g} Hz {o['fps']:.1f} fps, lands p99 {o['landing']['p99_ms']:+.2f} max {o['landing']['max_ms']:+.2f} ms"
print(f"{config}: " + "; ".join(rate(n) for n in sorted(outputs)))
for seam in report["span"]["seams"]:
    a, b = seam["outputs"]
    print(f"  seam {a} / {b}: {seam['samples']} samples, p50 {seam['p50_ms']:.2f} ms, p99 {seam['p99_ms']:.2f} ms, max {seam['max_ms']:.2f} ms")
PY
done
