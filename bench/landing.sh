#!/usr/bin/env bash
# The steady-state landing benchmark in BENCHMARKS.md: `glout run --stats-json` as users
# run it (the control view on the primary, the content view on the other), RUNS times on
# each compositor that answers presentation feedback, each run SECONDS long; per output,
# the steady state (`landing`: frames committed a second or more after the output's first)
# apart from start-up (`startup_landing`). Mutter gets a 1280x720@60 and an 800x600@30
# output, kwin two 1280x720@60, weston its one 1280x720@60. JSON per run in
# bench/results/landing/STACK/, the Markdown table on stdout: per output, the median over
# the runs of each figure, and the worst run's p99 of |error|.
#
#   bench/landing.sh [--stacks] [RUNS] [SECONDS] [COMPOSITOR...]   (default 5 runs of 10 s)
#
# Compositors: on Debian 12 weston and mutter; on Debian 13 kwin, mutter and weston.
# --stacks runs both (the Debian 13 root through scripts/debian13; as root), else Debian
# 12's only.
set -euo pipefail
cd "$(dirname "$0")/.."
stacks=(debian-12)
if [ "${1:-}" = --stacks ]; then stacks=(debian-12 debian-13); shift; fi
runs=${1:-5}; shift || true
seconds=${1:-10}; shift || true
glout=$(swift build -c release --show-bin-path)/glout
[ -x "$glout" ] || { echo "build first: swift build -c release" >&2; exit 1; }
files=()

for stack in "${stacks[@]}"; do
  compositors=("$@")
  if [ ${#compositors[@]} -eq 0 ]; then
    if [ "$stack" = debian-13 ]; then compositors=(kwin mutter weston); else compositors=(weston mutter); fi
  fi
  results=bench/results/landing/$stack
  mkdir -p "$results"
  for compositor in "${compositors[@]}"; do
    case $compositor in
      mutter) start=(mutter --outputs 1280x720@60,800x600@30) ;;
      kwin) start=(kwin --outputs 2 --size 1280x720) ;;
      weston) start=(weston --size 1280x720) ;;
      *) echo "landing: no plan for $compositor" >&2; exit 2 ;;
    esac
    exports=$(GLOUT_STACK=$stack scripts/compositor "${start[@]}")
    eval "$exports"
    trap 'scripts/compositor stop "$GLOUT_COMPOSITOR_DIR"' EXIT
    for run in $(seq 1 "$runs"); do
      file=$results/$compositor-$run.json
      "$glout" run --duration "$seconds" --stats-json "$file" 2>/dev/null || {
        echo "landing: glout failed on $stack $compositor (run $run)" >&2; exit 1; }
      files+=("$stack|$COMPOSITOR_VERSION|$file")
    done
    scripts/compositor stop "$GLOUT_COMPOSITOR_DIR"
    trap - EXIT
  done
done

/usr/bin/env python3 - "${files[@]}" <<'EOF'
import json, statistics, sys
rows = {}
for arg in sys.argv[1:]:
    stack, version, path = arg.split("|")
    for output in json.load(open(path))["outputs"]:
        key = (stack.replace("debian-", "Debian "), version, output["name"], output["refresh_mhz"] / 1000)
        rows.setdefault(key, []).append(output)
print("| Debian | compositor | output | steady p50 / p99 / p99 of abs ms | min / max ms | worst run's p99 of abs | start-up max ms | frames a run |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for (stack, version, name, hertz), outputs in rows.items():
    steady = [o["landing"] for o in outputs if o.get("landing")]
    startup = [o["startup_landing"] for o in outputs if o.get("startup_landing")]
    med = lambda values: statistics.median(values) if values else float("nan")
    figure = lambda field: med([s[field] for s in steady])
    print(f"| {stack.split()[1]} | {version} | {name} ({hertz:.0f} Hz) | {figure('p50_ms'):.2f} / {figure('p99_ms'):.2f} / "
          f"{figure('p99_abs_ms'):.2f} | {figure('min_ms'):.2f} / {figure('max_ms'):.2f} | "
          f"{max(s['p99_abs_ms'] for s in steady):.2f} | {med([s['max_ms'] for s in startup]):.1f} | {figure('frames'):.0f} |")
EOF
