#!/usr/bin/env bash
# A peer in the same run, in BENCHMARKS.md: on each compositor that sends presentation
# times, glout bench for SECONDS on one output, then, on the same compositor,
# weston-presentation-shm (the weston project's presentation-time client, from the
# compositor's own distribution) in its feedback mode for as long. Both are judged by the
# compositor's own presented times: the intervals between them and the share within half
# a period of one refresh. glout's JSON in bench/results/peer/STACK/ (the client's own
# output and the logs beside it only with KEEP=1), the Markdown table on stdout.
#
#   bench/peer.sh [--stacks] [SECONDS] [COMPOSITOR...]    (default 15 s)
#
# Compositors as in bench/targets.sh: weston on Debian 12; sway labwc phoc kwin mutter
# weston on Debian 13 (--stacks runs both; as root).
set -euo pipefail
cd "$(dirname "$0")/.."
stacks=(debian-12)
if [ "${1:-}" = --stacks ]; then stacks=(debian-12 debian-13); shift; fi
seconds=${1:-15}; shift || true
glout=$(swift build -c release --show-bin-path)/glout
[ -x "$glout" ] || { echo "build first: swift build -c release" >&2; exit 1; }
rows=()

for stack in "${stacks[@]}"; do
  compositors=("$@")
  if [ ${#compositors[@]} -eq 0 ]; then
    if [ "$stack" = debian-13 ]; then compositors=(sway labwc phoc kwin mutter weston); else compositors=(weston); fi
  fi
  results=bench/results/peer/$stack
  mkdir -p "$results"
  for compositor in "${compositors[@]}"; do
    case $compositor in
      sway) start=(sway --no-scanout --outputs 800x600@60) ;;
      labwc) start=(labwc --outputs 1) ;;
      phoc) start=(phoc --outputs 1) ;;
      kwin) start=(kwin --outputs 1 --size 800x600) ;;
      mutter) start=(mutter --outputs 800x600@60) ;;
      weston) start=(weston --size 800x600) ;;
      *) echo "peer.sh: unknown compositor $compositor" >&2; exit 2 ;;
    esac
    eval "$(GLOUT_STACK=$stack scripts/compositor "${start[@]}")"
    echo "== $stack $compositor ($COMPOSITOR_VERSION): glout bench, then weston-presentation-shm, $seconds s each" >&2
    "$glout" bench --duration "$seconds" --json "$results/$compositor-glout.json" >/dev/null 2>"$results/$compositor-glout.log" \
      || echo "peer.sh: glout bench failed on $compositor" >&2
    peer=(timeout -s INT "$seconds" weston-presentation-shm -f)
    if [ -n "${GLOUT_COMPOSITOR_ROOT:-}" ]; then
      runtime=${XDG_RUNTIME_DIR#"$GLOUT_COMPOSITOR_ROOT"}
      peer=(chroot "$GLOUT_COMPOSITOR_ROOT" /usr/bin/env -i PATH=/usr/bin:/bin XDG_RUNTIME_DIR="$runtime"
            WAYLAND_DISPLAY="$WAYLAND_DISPLAY" "${peer[@]}")
    fi
    "${peer[@]}" >"$results/$compositor-weston-presentation-shm.txt" 2>&1 || true
    rows+=("$results/$compositor|$COMPOSITOR_VERSION")
    scripts/compositor stop "$GLOUT_COMPOSITOR_DIR"
  done
done
cleanup() { [ "${KEEP:-}" = 1 ] || rm -f bench/results/peer/*/*-weston-presentation-shm.txt bench/results/peer/*/*.log; }
trap cleanup EXIT

python3 - "${rows[@]}" <<'PY'
import json, math, os, re, sys
def pct(values, p): return values[max(0, math.ceil(p / 100 * len(values)) - 1)]  # nearest rank
print("| compositor | client | presented | interval p50 | p99 | max | within half a period of one refresh |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
for row in sys.argv[1:]:
    base, version = row.split("|")
    period = None
    try:
        output = json.load(open(base + "-glout.json"))["outputs"][0]
        period = output["period_ms"]
        compositor = output.get("compositor") or {}
        interval = compositor.get("presented_interval_ms") or {}
        print(f'| {version} | glout | {compositor.get("frames", 0)} | {interval.get("p50", 0):.2f} ms | '
              f'{interval.get("p99", 0):.2f} ms | {interval.get("max", 0):.2f} ms | {compositor.get("next_refresh_pct", 0):.1f}% |')
    except (OSError, ValueError, IndexError, KeyError):
        print(f"| {version} | glout | (no result) | | | | |")
    text = open(base + "-weston-presentation-shm.txt", errors="replace").read()
    intervals = sorted(int(us) / 1e3 for us in re.findall(r"p2p\s+(\d+) us", text))[1:]  # the first is 0
    if not intervals or period is None:
        print(f"| {version} | weston-presentation-shm | (no result) | | | | |")
        continue
    near = sum(1 for value in intervals if abs(value - period) * 2 < period) * 100 / len(intervals)
    print(f"| {version} | weston-presentation-shm | {len(intervals) + 1} | {pct(intervals, 50):.2f} ms | "
          f"{pct(intervals, 99):.2f} ms | {intervals[-1]:.2f} ms | {near:.1f}% |")
PY
