#!/usr/bin/env bash
# CPU per frame of glout's triangle (--scene triangle) and weston-simple-egl (-f -o) run
# at the same time, each alone on a headless sway of its own with one output, so that
# both see the same machine: the noise of a shared 2-core machine moves both alike, where
# bench/cpu-vs-simple-egl.sh's turns see it one at a time. The two swap sways every round.
# CPU is user + system of every thread from /proc over SECONDS of steady running (after
# 5.5 s of start-up), divided by the frames of that window. Prints a line a round, with
# glout's figure over simple-egl's.
#
#   bench/cpu-paired.sh [ROUNDS] [SECONDS] [MODE] [-- GLOUT-OPTIONS...]   (default 4 10 1280x720@60)
#
# PROFILE=DIR: in the first round, also `perf record -g` both over the window and print
# each thread's CPU as perf sampled it (perf.data for each is left in DIR).
# GLOUT=PATH measures that glout binary instead of the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-4}; seconds=${2:-10}; mode=${3:-1280x720@60}
shift "$(( $# < 3 ? $# : 3 ))"
[ "${1:-}" = "--" ] && shift
glout=${GLOUT:-$(swift build -c release --show-bin-path)/glout}
[ -x "$glout" ] || { echo "no glout at $glout: build first (swift build -c release)" >&2; exit 1; }
work=$(mktemp -d)
dirs=()
cleanup() { for d in "${dirs[@]}"; do scripts/compositor stop "$d"; done; rm -rf "$work"; }
trap cleanup EXIT
declare -A runtime display
for side in a b; do
  eval "$(scripts/compositor sway --outputs "$mode" --no-scanout)"
  dirs+=("$GLOUT_COMPOSITOR_DIR"); runtime[$side]=$XDG_RUNTIME_DIR; display[$side]=$WAYLAND_DISPLAY
done
hz=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# Prints each thread's share of `perf.data` in ms (cpu-clock samples, by thread name).
threads() {
  perf report -i "$1" --stdio --no-children -g none --sort comm 2>/dev/null | awk -v total="$(
    perf report -i "$1" --stdio 2>/dev/null | awk '/Event count/ {print $NF}')" \
    '$1 ~ /%$/ {sub(/%/, "", $1); name = $2; for (i = 3; i <= NF; i++) name = name " " $i
                printf "  %-20s %7.0f ms\n", name, $1 * total / 1e8}'
}
for round in $(seq 1 "$rounds"); do
  if (( round % 2 )); then egl=a ours=b; else egl=b ours=a; fi
  XDG_RUNTIME_DIR=${runtime[$egl]} WAYLAND_DISPLAY=${display[$egl]} \
    stdbuf -oL weston-simple-egl -f -o >"$work/egl.out" 2>&1 &
  egl_pid=$!
  XDG_RUNTIME_DIR=${runtime[$ours]} WAYLAND_DISPLAY=${display[$ours]} \
    "$glout" run --scene triangle "$@" --duration "$((seconds + 9))" --stats-json "$work/stats.json" \
    >/dev/null 2>"$work/glout.err" &
  glout_pid=$!
  sleep 5.5
  e0=$(ticks "$egl_pid"); g0=$(ticks "$glout_pid"); reports=$(grep -c "frames in" "$work/egl.out" || true)
  if [ -n "${PROFILE:-}" ] && (( round == 1 )); then
    mkdir -p "$PROFILE"
    perf record -F 4000 -g -p "$egl_pid" -o "$PROFILE/simple-egl.data" -- sleep "$seconds" 2>/dev/null &
    perf record -F 4000 -g -p "$glout_pid" -o "$PROFILE/glout.data" -- sleep "$seconds" 2>/dev/null
    wait %3 2>/dev/null || true
  else
    sleep "$seconds"
  fi
  e1=$(ticks "$egl_pid"); g1=$(ticks "$glout_pid")
  sleep 5
  kill "$egl_pid"; wait "$egl_pid" 2>/dev/null || true
  wait "$glout_pid" || { echo "glout failed:" >&2; cat "$work/glout.err" >&2; exit 1; }
  egl_fps=$(grep "frames in" "$work/egl.out" | tail -n +"$((reports + 1))" | awk '{f += $1; s += $4} END {print f / s}')
  glout_fps=$(python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['outputs'][0]['fps'])" "$work/stats.json")
  python3 - "$round" "$e0" "$e1" "$egl_fps" "$g0" "$g1" "$glout_fps" "$hz" "$seconds" <<'PY'
import sys
r = int(sys.argv[1]); e0, e1, ef, g0, g1, gf, hz, s = map(float, sys.argv[2:])
egl = (e1 - e0) * 1000 / hz / (ef * s)
ours = (g1 - g0) * 1000 / hz / (gf * s)
print(f"round {r}: weston-simple-egl {ef:6.2f} fps {egl:.3f} ms/frame | glout triangle {gf:6.2f} fps {ours:.3f} | {ours / egl:.3f}x")
PY
  if [ -n "${PROFILE:-}" ] && (( round == 1 )); then
    echo " weston-simple-egl, by thread:"; threads "$PROFILE/simple-egl.data"
    echo " glout, by thread:"; threads "$PROFILE/glout.data"
  fi
done
