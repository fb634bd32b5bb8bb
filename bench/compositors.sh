#!/usr/bin/env bash
# The cross-compositor benchmark in BENCHMARKS.md: configuration (a), 1280x720@60 and
# 800x600@30, or the nearest each compositor allows, for SECONDS on every compositor of
# the test matrix, with glout bench (independent pacing, the release build). JSON per
# compositor in bench/results/compositors/, and the Markdown table on stdout.
#
#   bench/compositors.sh [SECONDS] [COMPOSITOR...]   (default 20 s, every compositor)
#
# Compositors: sway phoc cage weston weston-kiosk mutter kwin. What each allows:
#   sway, mutter: both modes as asked;
#   phoc: outputs start at 1280x720@60; --set-mode switches HEADLESS-1 to 800x600@30;
#   cage, kwin: two outputs of 1280x720@60 (no way to choose modes);
#   weston, weston-kiosk: one output, 1280x720@60.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}; shift || true
compositors=("$@")
[ ${#compositors[@]} -gt 0 ] || compositors=(sway phoc cage weston weston-kiosk mutter kwin)
glout=$(swift build -c release --show-bin-path)/glout
[ -x "$glout" ] || { echo "build first: swift build -c release" >&2; exit 1; }
results=bench/results/compositors
mkdir -p "$results"

for compositor in "${compositors[@]}"; do
  arguments=()
  case $compositor in
    sway) start=(sway --outputs 1280x720@60,800x600@30) ;;
    phoc) start=(phoc --outputs 2); arguments=(--set-mode HEADLESS-1=800x600@30) ;;
    cage) start=(cage --outputs 2) ;;
    weston) start=(weston --size 1280x720) ;;
    weston-kiosk) start=(weston --size 1280x720 --kiosk) ;;
    mutter) start=(mutter --outputs 1280x720@60,800x600@30) ;;
    kwin) start=(kwin --outputs 2 --size 1280x720) ;;
    *) echo "compositors.sh: unknown compositor $compositor" >&2; exit 2 ;;
  esac
  eval "$(scripts/compositor "${start[@]}")"
  echo "== $compositor: glout bench --duration $seconds ${arguments[*]}" >&2
  "$glout" bench --duration "$seconds" "${arguments[@]}" --json "$results/$compositor.json" >/dev/null 2>"$results/$compositor.log" \
    || echo "compositors.sh: glout bench failed on $compositor (see $results/$compositor.log)" >&2
  scripts/compositor stop "$GLOUT_COMPOSITOR_DIR"
done

python3 - "$results" "${compositors[@]}" <<'PY'
import json, os, sys
folder, names = sys.argv[1], sys.argv[2:]
clocks = {1: "1 (MONOTONIC)", 4: "4 (MONOTONIC_RAW)"}
print("| compositor | output | mode | fps | on time | p99 / T | missed | timing | clock | commit to present p50 / p99 |")
print("| --- | --- | --- | ---: | ---: | ---: | ---: | --- | --- | --- |")
for name in names:
    path = os.path.join(folder, name + ".json")
    if not os.path.exists(path):
        print(f"| {name} | (no result) | | | | | | | | |")
        continue
    report = json.load(open(path))
    clock = report["pacing"].get("presentation_clock")
    for output in report["outputs"]:
        present = output.get("commit_to_present_ms")
        shown = f'{present["p50"]:.1f} / {present["p99"]:.1f} ms' if present else "-"
        print(f'| {name} | {output["name"]} | {output["refresh_mhz"] / 1000:g} Hz | {output["fps"]:.1f} | '
              f'{output["on_time_pct"]:.1f}% | {output["interval_periods"]["p99"]:.2f} | {output["missed"]} | '
              f'{output["timing_source"]} | {clocks.get(clock, "-" if clock is None else str(clock))} | {shown} |')
PY
