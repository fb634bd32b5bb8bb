#!/usr/bin/env bash
# The lobby show (Examples/Shows/lobby.json: four zones, a video and text crossfading in
# the main one, an image and text in the side one, a clock and a ticker) on a headless
# sway with two 1280x720@60 outputs: each output's on-time share, frame rate and refreshes
# missed over WINDOWS windows of 10 s in a row after 8 s of start-up (GET
# /api/v1/status at the end of each: it covers the last 10 s), and glout's CPU (user +
# system, every thread, /proc) per frame over the same time. ROUNDS runs in turn. The
# lobby's main zone loops every 20 s: 2 windows see every crossfade once.
#
#   bench/show.sh [ROUNDS] [SHOW] [WINDOWS]   (default 3, Examples/Shows/lobby.json, 1)
#
# GLOUT=PATH measures that glout binary instead of the release build; OUTPUTS=MODE,MODE...
# gives the sway's outputs (default two of 1280x720@60).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
show=${2:-Examples/Shows/lobby.json}
windows=${3:-1}
glout=${GLOUT:-$(swift build -c release --show-bin-path)/glout}
[ -x "$glout" ] || { echo "no glout at $glout: build first (swift build -c release)" >&2; exit 1; }
work=$(mktemp -d)
dir=
cleanup() {
  [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  [ -n "$dir" ] && scripts/compositor stop "$dir"
  rm -rf "$work"
}
trap cleanup EXIT
eval "$(scripts/compositor sway --outputs "${OUTPUTS:-1280x720@60,1280x720@60}" --no-scanout)"
dir=$GLOUT_COMPOSITOR_DIR
hz=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
for round in $(seq 1 "$rounds"); do
  "$glout" run --show "$show" --http 0 --duration $(( 8 + 10 * windows + 12 )) 2>"$work/err" &
  pid=$!
  base=
  for _ in $(seq 1 100); do
    base=$(grep -o 'http://[0-9.:]*/api/v1' "$work/err" | head -n 1 || true)
    [ -n "$base" ] && break
    sleep 0.1
  done
  [ -n "$base" ] || { cat "$work/err" >&2; exit 1; }
  # The steady windows: 10 s each after 8 s of start-up, which status' 10 s of frames
  # then covers, one after the other.
  sleep 8
  start=$(ticks "$pid")
  begun=$(date +%s.%N)
  for window in $(seq 1 "$windows"); do
    # Polled to the window's end, measured from the first (a status request takes a while).
    while python3 -c "import sys, time; sys.exit(0 if time.time() < $begun + 10 * $window else 1)"; do sleep 0.05; done
    curl -s "$base/status" >"$work/status-$window.json"
  done
  end=$(ticks "$pid")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  pid=
  python3 - "$work" "$windows" "$(( end - start ))" "$hz" "$round" <<'PY'
import json, sys
work, windows, ticks, hz, round_ = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
totals = {}
for window in range(1, windows + 1):
    for o in json.load(open(f"{work}/status-{window}.json"))["outputs"]:
        t = totals.setdefault(o["name"], {"fps": 0.0, "on": 0.0, "missed": 0})
        t["fps"] += o.get("fps", 0) / windows
        t["on"] += o.get("on_time_pct", 0) / windows
        t["missed"] += o.get("missed", 0)
frames = sum(t["fps"] for t in totals.values()) * 10 * windows
cpu_ms = ticks * 1000 / hz
parts = [f'{name} {t["fps"]:.2f} fps, {t["on"]:.1f}% on time, {t["missed"]} missed' for name, t in sorted(totals.items())]
print(f"round {round_}: " + " | ".join(parts)
      + f" | CPU {cpu_ms / (10 * windows) / 10:.1f}% of a core, {cpu_ms / max(frames, 1):.3f} ms a frame")
PY
done
