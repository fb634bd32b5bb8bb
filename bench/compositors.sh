#!/usr/bin/env bash
# The cross-compositor benchmark in BENCHMARKS.md: configuration (a), 1280x720@60 and
# 800x600@30, or the nearest each compositor allows, for SECONDS on every compositor of
# the test matrix, with glout bench (independent pacing, the release build). JSON per
# compositor in bench/results/compositors/, and the Markdown table on stdout.
#
#   bench/compositors.sh [--stacks] [SECONDS] [COMPOSITOR...]   (default 20 s, every compositor)
#
# Compositors: sway phoc cage weston weston-kiosk mutter kwin, and on Debian 13 labwc.
# What each allows:
#   sway, mutter: both modes as asked;
#   phoc: outputs start at 1280x720@60; --set-mode switches HEADLESS-1 to 800x600@30;
#   cage, kwin, labwc: two outputs of 1280x720@60 (labwc's with no refresh given; no way
#   to choose modes at start; cage 0.2 and labwc switch them through --set-mode, which
#   this script does not ask for);
#   weston, weston-kiosk: one output, 1280x720@60.
# --stacks runs Debian 12's compositors, then Debian 13's (scripts/debian13; as root),
# with the same glout; Debian 13's JSON goes to bench/results/compositors/debian-13/.
set -euo pipefail
cd "$(dirname "$0")/.."
stacks=(debian-12)
if [ "${1:-}" = --stacks ]; then stacks=(debian-12 debian-13); shift; fi
seconds=${1:-20}; shift || true
glout=$(swift build -c release --show-bin-path)/glout
[ -x "$glout" ] || { echo "build first: swift build -c release" >&2; exit 1; }
rows=()

for stack in "${stacks[@]}"; do
compositors=("$@")
if [ ${#compositors[@]} -eq 0 ]; then
  compositors=(sway phoc cage weston weston-kiosk mutter kwin)
  [ "$stack" = debian-13 ] && compositors+=(labwc)
fi
results=bench/results/compositors
[ "$stack" = debian-12 ] || results=$results/$stack
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
    labwc) start=(labwc --outputs 2) ;;
    *) echo "compositors.sh: unknown compositor $compositor" >&2; exit 2 ;;
  esac
  eval "$(GLOUT_STACK=$stack scripts/compositor "${start[@]}")"
  echo "== $compositor ($COMPOSITOR_VERSION): glout bench --duration $seconds ${arguments[*]}" >&2
  "$glout" bench --duration "$seconds" "${arguments[@]}" --json "$results/$compositor.json" >/dev/null 2>"$results/$compositor.log" \
    || echo "compositors.sh: glout bench failed on $compositor (see $results/$compositor.log)" >&2
  rows+=("$results/$compositor.json|$COMPOSITOR_VERSION")
  scripts/compositor stop "$GLOUT_COMPOSITOR_DIR"
done
done

python3 - "${rows[@]}" <<'PY'
import json, os, sys
clocks = {1: "1 (MONOTONIC)", 4: "4 (MONOTONIC_RAW)"}
print("| compositor | output | mode | fps | on time | p99 / T | missed | timing | clock | commit to present p50 / p99 |")
print("| --- | --- | --- | ---: | ---: | ---: | ---: | --- | --- | --- |")
for row in sys.argv[1:]:
    path, version = row.split("|", 1)
    name = os.path.basename(path)[:-5]
    label = version + (" (kiosk-shell)" if name == "weston-kiosk" else "")
    if not os.path.exists(path):
        print(f"| {label} | (no result) | | | | | | | | |")
        continue
    report = json.load(open(path))
    clock = report["pacing"].get("presentation_clock")
    for output in report["outputs"]:
        present = output.get("commit_to_present_ms")
        shown = f'{present["p50"]:.1f} / {present["p99"]:.1f} ms' if present else "-"
        mode = f'{output["refresh_mhz"] / 1000:g} Hz' if output["refresh_mhz"] else "none given"
        print(f'| {label} | {output["name"]} | {mode} | {output["fps"]:.1f} | '
              f'{output["on_time_pct"]:.1f}% | {output["interval_periods"]["p99"]:.2f} | {output["missed"]} | '
              f'{output["timing_source"]} | {clocks.get(clock, "-" if clock is None else str(clock))} | {shown} |')
PY
