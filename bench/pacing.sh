#!/usr/bin/env bash
# The pacing benchmarks in BENCHMARKS.md: each configuration on a fresh headless sway,
# glout bench --compare (independent, then the coupled baseline), JSON and plot kept
# in bench/results/.
#
#   bench/pacing.sh [SECONDS] [CONFIG...]     (default 30 s, every config)
#
# Configs: a (1280x720@60 + 800x600@30), b (1920x1080@60 + 1280x720@144),
# c1 c2 c4 c8 (1, 2, 4, 8 outputs of 800x600@60), stall (a, with 30 ms added to
# every frame of HEADLESS-2, independent pacing only).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}; shift || true
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(a b c1 c2 c4 c8 stall)
glout=$(swift build -c release --show-bin-path)/glout
[ -x "$glout" ] || { echo "build first: swift build -c release" >&2; exit 1; }
mkdir -p bench/results

modes_of() {
  case $1 in
    a|stall) echo "1280x720@60,800x600@30" ;;
    b) echo "1920x1080@60,1280x720@144" ;;
    c*) local n=${1#c}; printf '800x600@60%.0s,' $(seq 1 "$n") | sed 's/,$//' ;;
    *) echo "pacing.sh: unknown config $1" >&2; exit 2 ;;
  esac
}

for config in "${configs[@]}"; do
  modes=$(modes_of "$config")
  eval "$(scripts/compositor sway --outputs "$modes")"
  if [ "$config" = stall ]; then
    arguments=(--stall HEADLESS-2=30)
  else
    arguments=(--compare)
  fi
  echo "== $config: $modes: glout bench --duration $seconds ${arguments[*]}"
  "$glout" bench --duration "$seconds" "${arguments[@]}" \
    --json "bench/results/$config.json" --plot "bench/results/$config.png" 2>/dev/null
  scripts/compositor stop "$GLOUT_COMPOSITOR_DIR"
done
