#!/usr/bin/env bash
# The pacing benchmarks in BENCHMARKS.md: each configuration on a fresh headless sway,
# glout bench --compare (independent, then the coupled baseline), JSON and plot kept
# in bench/results/.
#
#   bench/pacing.sh [--stacks] [SECONDS] [CONFIG...]     (default 30 s, every config)
#
# Configs: a (1280x720@60 + 800x600@30), b (1920x1080@60 + 1280x720@144),
# c1 c2 c4 c8 (1, 2, 4, 8 outputs of 800x600@60), stall (a, with 30 ms added to
# every frame of HEADLESS-2, independent pacing only).
#
# --stacks runs each configuration three times in a row: glout built here on Debian 12's
# sway 1.7 (bench/results/CONFIG.json), the same glout on Debian 13's sway 1.10
# (bench/results/debian-13/), and glout built in the Debian 13 root (Mesa 25,
# libwayland 1.23) there on sway 1.10 (bench/results/debian-13-built/). It builds that
# glout first (scripts/debian13; as root).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
stacks=(debian-12)
if [ "${1:-}" = --stacks ]; then
  stacks=(debian-12 debian-13 debian-13-built)
  shift
fi
seconds=${1:-30}; shift || true
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(a b c1 c2 c4 c8 stall)
glout=$(swift build -c release --show-bin-path)/glout
[ -x "$glout" ] || { echo "build first: swift build -c release" >&2; exit 1; }
if [ ${#stacks[@]} -gt 1 ]; then
  root=$(scripts/debian13 prepare)
  echo "== building glout in the Debian 13 root (release)" >&2
  scripts/debian13 run swift build -c release --product glout --scratch-path /var/tmp/glout-build >/dev/null
fi

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
  if [ "$config" = stall ]; then
    arguments=(--stall HEADLESS-2=30)
  else
    arguments=(--compare)
  fi
  for stack in "${stacks[@]}"; do
    results=bench/results
    [ "$stack" = debian-12 ] || results=bench/results/$stack
    mkdir -p "$results"
    compositor_stack=debian-12
    [ "$stack" = debian-12 ] || compositor_stack=debian-13
    eval "$(GLOUT_STACK=$compositor_stack scripts/compositor sway --outputs "$modes")"
    echo "== $config ($stack): $modes: glout bench --duration $seconds ${arguments[*]}"
    bench=(bench --duration "$seconds" "${arguments[@]}" --json "$results/$config.json" --plot "$results/$config.png")
    if [ "$stack" = debian-13-built ]; then
      # Inside the root: the runtime dir as the root sees it, the results through /glout.
      scripts/debian13 run env XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR#"$root"}" WAYLAND_DISPLAY="$WAYLAND_DISPLAY" \
        /var/tmp/glout-build/release/glout "${bench[@]}" 2>/dev/null
    else
      "$glout" "${bench[@]}" 2>/dev/null
    fi
    scripts/compositor stop "$GLOUT_COMPOSITOR_DIR"
  done
done
