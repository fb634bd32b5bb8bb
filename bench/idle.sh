#!/usr/bin/env bash
# What an idle screen costs (BENCHMARKS.md): glout's process CPU over SECONDS on a fresh
# headless sway with two outputs (1280x720@60 + 800x600@30), animated against still.
#
#   bench/idle.sh [SECONDS]     (default 30)
#
# animated: glout run (the control view with its live dashboard, the content view).
# still:    glout run --frozen 1 --no-live (nothing changes: no frame is drawn).
# CPU is user + system time of every thread of glout, from /proc/PID/stat, over the
# SECONDS that follow a 3 s start.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
glout=$(swift build -c release --show-bin-path)/glout
[ -x "$glout" ] || { echo "build first: swift build -c release" >&2; exit 1; }
ticks=$(getconf CLK_TCK)

measure() {
  local label=$1; shift
  eval "$(scripts/compositor sway --outputs 1280x720@60,800x600@30)"
  "$glout" run --duration $((seconds + 5)) --stats-json "$GLOUT_COMPOSITOR_DIR/stats.json" "$@" 2>/dev/null &
  local pid=$!
  sleep 3
  local before; before=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  sleep "$seconds"
  local after; after=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  wait "$pid"
  local frames; frames=$(python3 -c "import json,sys; print(' + '.join(str(o['frames']) for o in json.load(open(sys.argv[1]))['outputs']))" "$GLOUT_COMPOSITOR_DIR/stats.json")
  scripts/compositor stop "$GLOUT_COMPOSITOR_DIR"
  python3 -c "import sys; t, s = int(sys.argv[1]), float(sys.argv[2]); print(f'{sys.argv[3]}: {t / float(sys.argv[4]):.2f} s of CPU in {s:g} s, {100 * t / float(sys.argv[4]) / s:.2f}% of one core; frames drawn in the whole run: {sys.argv[5]}')" \
    "$((after - before))" "$seconds" "$label" "$ticks" "$frames"
}

measure "animated (glout run)"
measure "still (--frozen 1 --no-live)" --frozen 1 --no-live
