#!/usr/bin/env bash
# The seam between two machines of a wall on different compositors, in BENCHMARKS.md:
# two glouts, one on a virtual kwin 6.3 and one on a headless sway 1.10 (Debian 13's,
# through scripts/debian13; as root), each `glout run --layout span --clock realtime` on
# one output of SIZE (default 1280x720) at 60 Hz for SECONDS, with targets from
# presentation times and then with the frame-callback estimate. Each writes
# --landings-json; the seam offset is, at every frame that lands on either, the difference
# between its landing error and that of the other glout's frame on screen then (as the
# span's own report computes it between one glout's outputs), the first second of each
# left out.
#
# Two ways: "together", both glouts and both compositors at once on this machine's two
# cores; and "apart", one after the other, each with the machine to itself, as two
# machines of a wall are (their frames paired by the time since each run's first
# landing: the two errors are independent either way). Beside each landing, the
# compositor's own presented intervals (p50, p99): where they vary, no target made
# beforehand lands nearer than they do. One line per run, on stdout and in
# bench/results/wall-seam.txt; the landings files (large) in a temporary folder, kept only
# with KEEP=1.
#
#   bench/wall-seam.sh [--size WxH] [SECONDS]    (default 20 s)
set -euo pipefail
cd "$(dirname "$0")/.."
size=1280x720
if [ "${1:-}" = --size ]; then size=$2; shift 2; fi
seconds=${1:-20}
glout=$(swift build -c release --show-bin-path)/glout
[ -x "$glout" ] || { echo "build first: swift build -c release" >&2; exit 1; }
results=$(mktemp -d)
[ "${KEEP:-}" = 1 ] || trap 'rm -rf "$results"' EXIT
summary=bench/results/wall-seam.txt
: >"$summary"

# side SIDE TARGETS WAY: starts SIDE's compositor, then its glout in the background; the
# compositor's environment goes to $results/SIDE.env, the glout's pid to $results/SIDE.pid.
side() {
  local start=(kwin --outputs 1 --size "$size")
  [ "$1" = sway ] && start=(sway --no-scanout --outputs "$size@60")
  GLOUT_STACK=debian-13 scripts/compositor "${start[@]}" >"$results/$1.env"
  (eval "$(cat "$results/$1.env")"; exec "$glout" run --layout span --clock realtime --control none --targets "$2" \
    --duration "$seconds" --landings-json "$results/$1-$2-$3.json" 2>"$results/$1-$2-$3.log") &
  echo $! >"$results/$1.pid"
}
# finish SIDE TARGETS WAY: waits for SIDE's glout, stops its compositor; fails with the logs.
finish() {
  local status=0
  wait "$(cat "$results/$1.pid")" || status=$?
  (eval "$(cat "$results/$1.env")"; scripts/compositor stop "$GLOUT_COMPOSITOR_DIR")
  [ $status -eq 0 ] || { echo "wall-seam.sh: the glout on $1 failed ($status):" >&2; cat "$results/$1-$2-$3.log" >&2; exit 1; }
}

for way in together apart; do
for targets in presented estimated; do
  if [ $way = together ]; then
    side kwin "$targets" $way; side sway "$targets" $way
    finish kwin "$targets" $way; finish sway "$targets" $way
  else
    side kwin "$targets" $way; finish kwin "$targets" $way
    side sway "$targets" $way; finish sway "$targets" $way
  fi
  python3 - "$way" "$targets" "$results/kwin-$targets-$way.json" "$results/sway-$targets-$way.json" <<'PY'
import bisect, json, math, sys
way, targets, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
def frames(path):
    log = json.load(open(path))
    output = log["outputs"][0]
    shift = log["realtime_minus_monotonic_ns"]  # on CLOCK_REALTIME, as two machines would be
    rows = sorted((f["landed_ns"] + shift, f["landed_ns"] - f["target_ns"], f["target"]) for f in output["frames"])
    # The steady state: the first second's frames left out, as glout bench does.
    rows = [row for row in rows if row[0] >= rows[0][0] + 1_000_000_000]
    if way == "apart":  # each run's own time, from its first landing
        rows = [(row[0] - rows[0][0],) + row[1:] for row in rows]
    return output["name"], rows
def offsets(a, b):
    times = [row[0] for row in b]
    result = []
    for landed, error, _ in a:
        j = bisect.bisect_right(times, landed) - 1
        if j < 0 or landed - times[j] > 1_000_000_000:
            continue
        result.append(abs(error - b[j][1]) / 1e6)
    return result
(na, a), (nb, b) = frames(paths[0]), frames(paths[1])
seam = sorted(offsets(a, b) + offsets(b, a))
def pct(values, p): return values[max(0, math.ceil(p / 100 * len(values)) - 1)]  # nearest rank
def landing(rows):
    errors = sorted(row[1] / 1e6 for row in rows)
    intervals = sorted((y[0] - x[0]) / 1e6 for x, y in zip(rows, rows[1:]))
    return (f"landing p50 {pct(errors, 50):+.2f} p99 {pct(errors, 99):+.2f} ms "
            f"(presented intervals p50 {pct(intervals, 50):.2f} p99 {pct(intervals, 99):.2f} ms)")
sources = {row[2] for row in a + b}
print(f"{way}, targets {targets}: kwin {na} {landing(a)}; sway {nb} {landing(b)}; "
      f"seam offset p50 {pct(seam, 50):.2f} p99 {pct(seam, 99):.2f} max {seam[-1]:.2f} ms "
      f"({len(seam)} samples, target sources {'+'.join(sorted(sources))})")
PY
done
done | tee "$summary"
