#!/usr/bin/env bash
# The presentation-target benchmark in BENCHMARKS.md: where each frame lands against the
# target its display link gave it, on every compositor that sends presentation times,
# with targets from the refresh grid learnt from them (--targets presented, the default)
# and with the frame-callback estimate (--targets estimated), both from the same glout.
# glout bench --duration SECONDS, one output of MODE (default 800x600@60) or the nearest
# each compositor allows, so that the machine is not short of CPU. JSON per run in
# bench/results/targets/STACK/, and the Markdown table on stdout. "Own grid" is a line fitted
# afterwards through the compositor's presented times (glout bench's own_grid): how far
# its presentations lie off a steady refresh, and how far glout's targets did.
#
#   bench/targets.sh [--stacks] [--mode WxH@HZ] [SECONDS] [COMPOSITOR...]   (default 15 s)
#
# Compositors: on Debian 12 weston and mutter (the ones there that answer presentation
# feedback for headless or virtual outputs); on Debian 13 sway labwc phoc cage kwin mutter
# weston. --stacks runs both (the
# Debian 13 root through scripts/debian13; as root), else Debian 12's only.
# labwc, phoc and cage start their outputs at 1280x720 whatever MODE says; kwin and weston run
# at 60 Hz.
set -euo pipefail
cd "$(dirname "$0")/.."
stacks=(debian-12)
if [ "${1:-}" = --stacks ]; then stacks=(debian-12 debian-13); shift; fi
mode=800x600@60
if [ "${1:-}" = --mode ]; then mode=$2; shift 2; fi
seconds=${1:-15}; shift || true
glout=$(swift build -c release --show-bin-path)/glout
[ -x "$glout" ] || { echo "build first: swift build -c release" >&2; exit 1; }
rows=()

for stack in "${stacks[@]}"; do
  compositors=("$@")
  if [ ${#compositors[@]} -eq 0 ]; then
    if [ "$stack" = debian-13 ]; then compositors=(sway labwc phoc cage kwin mutter weston); else compositors=(weston mutter); fi
  fi
  results=bench/results/targets/$stack
  mkdir -p "$results"
  for compositor in "${compositors[@]}"; do
    case $compositor in
      sway) start=(sway --no-scanout --outputs "$mode") ;;
      labwc) start=(labwc --outputs 1) ;;
      phoc) start=(phoc --outputs 1) ;;
      cage) start=(cage --outputs 1) ;;
      kwin) start=(kwin --outputs 1 --size "${mode%@*}") ;;
      mutter) start=(mutter --outputs "$mode") ;;
      weston) start=(weston --size "${mode%@*}") ;;
      *) echo "targets.sh: unknown compositor $compositor" >&2; exit 2 ;;
    esac
    for targets in estimated presented; do
      eval "$(GLOUT_STACK=$stack scripts/compositor "${start[@]}")"
      echo "== $stack $compositor ($COMPOSITOR_VERSION): glout bench --duration $seconds --targets $targets" >&2
      json=$results/$compositor-$targets.json
      "$glout" bench --duration "$seconds" --targets "$targets" --json "$json" >/dev/null 2>"${json%.json}.log" \
        || echo "targets.sh: glout bench failed on $compositor (see ${json%.json}.log)" >&2
      rows+=("$json|$COMPOSITOR_VERSION|$targets")
      scripts/compositor stop "$GLOUT_COMPOSITOR_DIR"
    done
  done
done

python3 - "${rows[@]}" <<'PY'
import json, os, sys
print("| compositor | output | targets | fps | next refresh | presented interval p99 | landing p50 | p99 | max "
      "| presented off own grid p99 | target off own grid p50 | p99 | target source | fifo |")
print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
for row in sys.argv[1:]:
    path, version, targets = row.split("|")
    if not os.path.exists(path):
        print(f"| {version} | (no result) | {targets} | | | | | | | | | | | |")
        continue
    for output in json.load(open(path))["outputs"]:
        compositor = output.get("compositor") or {}
        landing = compositor.get("landing") or {}
        interval = compositor.get("presented_interval_ms") or {}
        grid = compositor.get("own_grid") or {}
        off = grid.get("presented_off_ms") or {}
        aim = grid.get("target_off_ms") or {}
        def ms(value): return "-" if value is None else f"{value:.2f}"
        print(f'| {version} | {output["name"]} @ {output["refresh_mhz"] / 1000:g} Hz | {targets} | {output["fps"]:.1f} | '
              f'{compositor.get("next_refresh_pct", 0):.1f}% | {ms(interval.get("p99"))} ms | {ms(landing.get("p50_ms"))} ms | '
              f'{ms(landing.get("p99_ms"))} ms | {ms(landing.get("max_ms"))} ms | {ms(off.get("p99"))} ms | '
              f'{ms(aim.get("p50"))} ms | {ms(aim.get("p99"))} ms | {landing.get("target", "-")} | '
              f'{"yes" if output.get("fifo") else "no"} |')
PY
