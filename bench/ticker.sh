#!/usr/bin/env bash
# A show's ticker (a band along the bottom, as in the lobby show) on a 60 Hz and a 144 Hz
# output of one headless sway at once, for SECONDS (default 60). From --landings-json,
# which gives for each refresh its target and how far it drew the ticker's line
# (ticker_px), for each output: the refresh period (the median time between targets);
# the share of refreshes whose advance is the speed times one period within 0.5 px, and
# the largest error (a frame N periods after the last is to advance N times as far; one
# 1.4 to 1.6 periods after it, once or twice); the frames that came a refresh or more
# late (refreshes missed), told apart by whose they were: glout's, where it committed
# the frame before more than a period had passed since the callback that started it
# (callback_ns to commit_ns), else the compositor's, whose refresh came late; glout's time
# from callback to commit (p99, largest); and how far the line was from where the content
# clock alone puts it (the same on every output and machine of a span), at most.
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
offset = landings["realtime_minus_monotonic_ns"]
for output in landings["outputs"]:
    frames = [f for f in output["frames"] if "ticker_px" in f]
    # The last SECONDS of the run (the frame log holds the last 16384 frames: 68 s at 240 Hz).
    frames = [f for f in frames if f["target_ns"] >= frames[-1]["target_ns"] - seconds * 1e9]
    # Consecutive frames of one showing (at a whole hour the item begins again).
    pairs = [(a, b) for a, b in zip(frames, frames[1:]) if b["index"] == a["index"] + 1 and b["ticker_px"] >= a["ticker_px"]]
    steps = [(b["target_ns"] - a["target_ns"]) / 1e9 for a, b in pairs]
    period = statistics.median(steps)
    refreshes = [max(1, round(s / period)) for s in steps]
    # A frame 1.4 to 1.6 periods after the last came as much a refresh late as early by
    # half of one: either count of refreshes is taken.
    def counts(step):
        n = step / period
        return {max(1, int(n)), max(1, int(n) + 1)} if 0.4 <= n % 1 <= 0.6 else {max(1, round(n))}
    errors = [min(abs(b["ticker_px"] - a["ticker_px"] - n * speed * period) for n in counts(s)) for (a, b), s in zip(pairs, steps)]
    halfway = sum(len(counts(s)) > 1 for s in steps)
    # A refresh missed is glout's where it answered the callback that started the frame
    # before the late one more than a period after it came.
    answers = [f["commit_ns"] - f["callback_ns"] for f in frames if f.get("callback_ns")]
    answers.sort()
    late = [(a, n) for (a, b), n in zip(pairs, refreshes) if n > 1]
    ours = sum(1 for a, _ in late if a.get("callback_ns") and a["commit_ns"] - a["callback_ns"] > period * 1e9)
    within = sum(e <= 0.5 for e in errors)
    # The item is an hour long and began at a whole hour: the content clock puts the line
    # its seconds into the hour times the speed along.
    lag = max(abs(f["ticker_px"] - ((f["target_ns"] + offset) / 1e9 % 3600) * speed) for f in frames)
    print(f"{output['name']}: {len(steps)} refreshes over {(frames[-1]['target_ns'] - frames[0]['target_ns']) / 1e9:.1f} s, "
          f"period {period * 1e3:.3f} ms ({1 / period:.1f} Hz): advance {speed * period:.3f} px a refresh; within 0.5 px "
          f"{within} of {len(errors)} ({100 * within / max(len(errors), 1):.2f}%), largest error {max(errors, default=0):.3f} px; "
          f"late by a refresh or more {len(late)} (glout's {ours}, the compositor's {len(late) - ours}); "
          f"1.4 to 1.6 periods after the last {halfway}; callback to commit p99 "
          f"{answers[int(0.99 * (len(answers) - 1))] / 1e6 if answers else 0:.2f} ms, largest {answers[-1] / 1e6 if answers else 0:.2f} ms; "
          f"off the content clock at most {lag:.2f} px")
PY
