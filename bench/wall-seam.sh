#!/usr/bin/env bash
# The seam between two machines of a wall on different compositors, in BENCHMARKS.md:
# two glouts on this machine, one on a virtual kwin 6.3 and one on a headless sway 1.10
# (Debian 13's, through scripts/debian13; as root), each `glout run --layout span --clock
# realtime` on one 1280x720@60 output for SECONDS, with targets from presentation times
# and then with the frame-callback estimate. Each writes --landings-json; the seam offset
# is, at every frame that lands on either, the difference between its landing error and
# that of the other glout's frame on screen then (as the span's own report computes it
# between one glout's outputs), the first second of each left out. One line per run, on
# stdout and in bench/results/wall-seam.txt; the landings files (large) in a temporary
# folder, kept only with KEEP=1.
#
#   bench/wall-seam.sh [SECONDS]    (default 20 s)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
glout=$(swift build -c release --show-bin-path)/glout
[ -x "$glout" ] || { echo "build first: swift build -c release" >&2; exit 1; }
results=$(mktemp -d)
[ "${KEEP:-}" = 1 ] || trap 'rm -rf "$results"' EXIT
summary=bench/results/wall-seam.txt
: >"$summary"

for targets in presented estimated; do
  kwin_env=$(GLOUT_STACK=debian-13 scripts/compositor kwin --outputs 1 --size 1280x720)
  sway_env=$(GLOUT_STACK=debian-13 scripts/compositor sway --no-scanout --outputs 1280x720@60)
  pids=()
  for side in kwin sway; do
    environment=$kwin_env; [ $side = sway ] && environment=$sway_env
    (eval "$environment"; exec "$glout" run --layout span --clock realtime --control none --targets "$targets" \
      --duration "$seconds" --landings-json "$results/$side-$targets.json" 2>"$results/$side-$targets.log") &
    pids+=($!)
  done
  status=0
  for pid in "${pids[@]}"; do wait "$pid" || status=$?; done
  for environment in "$kwin_env" "$sway_env"; do
    (eval "$environment"; scripts/compositor stop "$GLOUT_COMPOSITOR_DIR")
  done
  [ $status -eq 0 ] || { echo "wall-seam.sh: a glout failed:" >&2; cat "$results"/*-"$targets".log >&2; exit 1; }
  python3 - "$targets" "$results/kwin-$targets.json" "$results/sway-$targets.json" <<'PY'
import bisect, json, math, sys
targets, paths = sys.argv[1], sys.argv[2:]
def frames(path):
    log = json.load(open(path))
    output = log["outputs"][0]
    shift = log["realtime_minus_monotonic_ns"]  # on CLOCK_REALTIME, as two machines would be
    rows = sorted((f["landed_ns"] + shift, f["landed_ns"] - f["target_ns"], f["target"]) for f in output["frames"])
    # The steady state: the first second's frames left out, as glout bench does.
    rows = [row for row in rows if row[0] >= rows[0][0] + 1_000_000_000]
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
    return f"p50 {pct(errors, 50):+.2f} p99 {pct(errors, 99):+.2f} ms"
sources = {row[2] for row in a + b}
print(f"targets {targets}: kwin {na} landing {landing(a)}; sway {nb} landing {landing(b)}; "
      f"seam offset p50 {pct(seam, 50):.2f} p99 {pct(seam, 99):.2f} max {seam[-1]:.2f} ms "
      f"({len(seam)} samples, target sources {'+'.join(sorted(sources))})")
PY
done | tee "$summary"
