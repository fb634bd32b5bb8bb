#!/usr/bin/env bash
# The lobby show (Examples/Shows/lobby.json: four zones, a shader, text and colours
# crossfading in the main one, text in the side one, a clock and a ticker) on a headless
# sway with two 1280x720@60 outputs: each output's on-time share, frame rate and refreshes
# missed over the last 10 s of the run (GET /api/v1/status), and glout's CPU (user +
# system, every thread, /proc) per frame over the same window. ROUNDS runs in turn.
#
#   bench/show.sh [ROUNDS] [SHOW]   (default 3, Examples/Shows/lobby.json)
#
# GLOUT=PATH measures that glout binary instead of the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
show=${2:-Examples/Shows/lobby.json}
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
eval "$(scripts/compositor sway --outputs 1280x720@60,1280x720@60 --no-scanout)"
dir=$GLOUT_COMPOSITOR_DIR
hz=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
for round in $(seq 1 "$rounds"); do
  "$glout" run --show "$show" --http 0 --duration 30 2>"$work/err" &
  pid=$!
  base=
  for _ in $(seq 1 100); do
    base=$(grep -o 'http://[0-9.:]*/api/v1' "$work/err" | head -n 1 || true)
    [ -n "$base" ] && break
    sleep 0.1
  done
  [ -n "$base" ] || { cat "$work/err" >&2; exit 1; }
  # The steady window: 10 s after 8 s of start-up, which status' 10 s of frames then covers.
  sleep 8
  start=$(ticks "$pid")
  sleep 10
  end=$(ticks "$pid")
  curl -s "$base/status" >"$work/status.json"
  kill "$pid"; wait "$pid" 2>/dev/null || true
  pid=
  python3 - "$work/status.json" "$(( end - start ))" "$hz" "$round" <<'PY'
import json, sys
status = json.load(open(sys.argv[1]))
ticks, hz, round_ = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
outputs = status["outputs"]
frames = sum(o.get("fps", 0) for o in outputs) * 10
cpu_ms = ticks * 1000 / hz
parts = [f'{o["name"]} {o.get("fps", 0):.2f} fps, {o.get("on_time_pct", 0):.1f}% on time, {o.get("missed", 0)} missed'
         for o in outputs]
print(f"round {round_}: " + " | ".join(parts) + f" | CPU {cpu_ms / 10 / 10:.1f}% of a core, {cpu_ms / max(frames, 1):.3f} ms a frame")
PY
done
