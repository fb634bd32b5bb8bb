#!/usr/bin/env bash
# A show's ticker (a band along the bottom, as in the lobby show) on a 60 Hz and a 144 Hz
# output of one headless sway at once, for SECONDS
# (default 60): where each frame draws the ticker follows from its target time, so its
# advance from the frame before is the speed times the time between the two targets.
# From --landings-json, for each output: the refresh period (the median time between
# targets), the share of frames whose advance is the speed times one period within
# 0.5 px, the largest error of those, and the frames that came a refresh or more late
# (a jump of two periods or more: refreshes missed).
#
#   bench/ticker.sh [SECONDS] [SPEED]   (default 60, 120 points a second)
#
# GLOUT=PATH measures that glout binary instead of the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}; speed=${2:-120}
glout=${GLOUT:-$(swift build -c release --show-bin-path)/glout}
[ -x "$glout" ] || { echo "no glout at $glout: build first (swift build -c release)" >&2; exit 1; }
work=$(mktemp -d)
dir=
cleanup() { [ -n "$dir" ] && scripts/compositor stop "$dir"; rm -rf "$work"; }
trap cleanup EXIT
eval "$(scripts/compositor sway --outputs 1280x720@60,1280x720@144 --no-scanout)"
dir=$GLOUT_COMPOSITOR_DIR
cat >"$work/ticker.json" <<JSON
{"outputs": {"*": {"zones": [
  {"name": "ticker", "rect": {"y": "88%", "height": "12%"}, "items": [{"ticker": "Doors open at nine · The cafe serves lunch from noon", "speed": $speed,
                                "size": 48, "seconds": 3600}]}]}}}
JSON
"$glout" run --show "$work/ticker.json" --duration "$(( seconds + 5 ))" --landings-json "$work/landings.json" 2>"$work/err" \
  || { cat "$work/err" >&2; exit 1; }
python3 - "$work/landings.json" "$speed" "$seconds" <<'PY'
import json, statistics, sys
landings, speed, seconds = json.load(open(sys.argv[1])), float(sys.argv[2]), float(sys.argv[3])
for output in landings["outputs"]:
    targets = [f["target_ns"] for f in output["frames"]]
    # The last SECONDS of the run (the frame log holds the last 4096 frames).
    targets = [t for t in targets if t >= targets[-1] - seconds * 1e9]
    steps = [(b - a) / 1e9 for a, b in zip(targets, targets[1:])]
    period = statistics.median(steps)
    single = [s for s in steps if s < 1.5 * period]
    errors = [abs(speed * (s - period)) for s in single]
    within = sum(e <= 0.5 for e in errors)
    print(f"{output['name']}: {len(steps)} frames over {(targets[-1] - targets[0]) / 1e9:.1f} s, period {period * 1e3:.3f} ms "
          f"({1 / period:.1f} Hz): advance {speed * period:.3f} px a refresh; within 0.5 px {within} of {len(single)} "
          f"({100 * within / max(len(single), 1):.2f}%), largest error {max(errors, default=0):.3f} px; "
          f"late by a refresh or more {len(steps) - len(single)}")
PY
