#!/usr/bin/env bash
# Time to the first frame (BENCHMARKS.md), glout against weston-simple-egl, in one run on
# one fresh headless sway output of MODE, each program started ROUNDS times in turn:
#
#   start-up: from the program's first Wayland request to its first wl_surface.commit
#             with a buffer attached, read from WAYLAND_DEBUG=client's timestamps, for
#             weston-simple-egl -f, glout --scene triangle and glout's views.
#   hotplug:  with glout's views running, `swaymsg create_output` adds an output; from
#             the wl_registry.global that announces it to the first commit with a buffer
#             of the surface glout makes for it.
#
#   bench/first-frame.sh [MODE] [ROUNDS]      (default 1280x720@60 5)
#
# --cold: glout's views started with Mesa's shader cache empty (a fresh XDG_CACHE_HOME
# and MESA_SHADER_CACHE_DIR, as on a machine that never ran it) against started again
# with the cache that run filled, on one output of MODE and on eight (two of MODE, six
# of 800x600@60), each on a sway of its own: the time until every output has its first
# frame, from glout's own "first frame N ms after the output appeared" lines (the
# protocol log of WAYLAND_DEBUG slows eight outputs' start by more than the compile),
# and how often glout said "no frame callback".
#
#   bench/first-frame.sh --cold [MODE] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
cold=false
if [ "${1:-}" = --cold ]; then cold=true; shift; fi
mode=${1:-1280x720@60}
rounds=${2:-5}
glout=$(swift build -c release --show-bin-path)/glout
[ -x "$glout" ] || { echo "build first: swift build -c release" >&2; exit 1; }
command -v weston-simple-egl >/dev/null || { echo "weston-simple-egl is missing (apt-get install weston)" >&2; exit 1; }

eval "$(scripts/compositor sway --outputs "$mode")"
trap 'scripts/compositor stop "$GLOUT_COMPOSITOR_DIR"' EXIT
work=$GLOUT_COMPOSITOR_DIR

# Milliseconds from the first request to the first commit with a buffer, from a
# WAYLAND_DEBUG=client log; with --hotplug, from a wl_output global that comes after
# that first frame to the first commit with a buffer of a surface created after it.
parse() {
  python3 - "$@" <<'PY'
import re, sys
path, hotplug = sys.argv[1], len(sys.argv) > 2
line_re = re.compile(r'^\[\s*(\d+\.\d+)\]\s+(->)?\s*(\S+?)@(\d+)\.(\w+)\((.*)\)')
first = None; start = None; attached = set(); new_surfaces = set(); drawn = False
for line in open(path, errors='replace'):
    m = line_re.match(line)
    if not m: continue
    t, sent, iface, oid, msg, args = float(m[1]), m[2] is not None, m[3], m[4], m[5], m[6]
    if first is None and sent: first = t
    if hotplug:
        if drawn and start is None and not sent and iface == 'wl_registry' and msg == 'global' and '"wl_output"' in args:
            start = t
        if start is not None and sent and iface == 'wl_compositor' and msg == 'create_surface':
            new_surfaces.add(re.search(r'wl_surface@(\d+)', args)[1])
    if sent and iface == 'wl_surface' and msg == 'attach' and not args.startswith('nil'):
        attached.add(oid)
    if sent and iface == 'wl_surface' and msg == 'commit' and oid in attached:
        if not hotplug:
            print(f'{t - first:.1f}'); break
        drawn = True
        if oid in new_surfaces:
            print(f'{t - start:.1f}'); break
PY
}

startup() {
  local log=$work/debug.log
  WAYLAND_DEBUG=client timeout 3 "$@" >/dev/null 2>"$log" || true
  parse "$log"
}

# On a sway of its own: headless sway cannot unplug the output it adds.
hotplug() (
  eval "$(scripts/compositor sway --outputs "$mode")"
  trap 'scripts/compositor stop "$GLOUT_COMPOSITOR_DIR"' EXIT
  local log=$GLOUT_COMPOSITOR_DIR/debug.log
  WAYLAND_DEBUG=client "$glout" run --duration 20 >/dev/null 2>"$log" &
  local pid=$!
  sleep 2
  swaymsg -q create_output
  sleep 1.5
  kill -INT "$pid"; wait "$pid" || true
  parse "$log" --hotplug
)

# One cold and one warm start of glout's views on a fresh sway of the given modes: prints
# "cold-N MS" and "warm-N MS", the last of the N outputs' first frames, and "said-N K",
# the "no frame callback" lines of each run.
cold_and_warm() (
  local modes=$1 count
  count=$(tr ',' '\n' <<<"$modes" | wc -l)
  eval "$(scripts/compositor sway --outputs "$modes")"
  # Mesa writes no cache into a folder that does not exist.
  local cache log=$GLOUT_COMPOSITOR_DIR/glout.log
  cache=$(mktemp -d)
  trap 'scripts/compositor stop "$GLOUT_COMPOSITOR_DIR"; rm -rf "$cache"' EXIT
  for start in cold warm; do
    XDG_CACHE_HOME=$cache MESA_SHADER_CACHE_DIR=$cache/mesa timeout 10 "$glout" run --duration 2 >/dev/null 2>"$log" || true
    local firsts
    firsts=$(sed -n 's/.*: first frame \([0-9.]*\) ms after the output appeared$/\1/p' "$log")
    [ "$(wc -l <<<"$firsts")" -eq "$count" ] || { echo "first-frame.sh: not $count first frames:" >&2; cat "$log" >&2; exit 1; }
    echo "$start-$count $(sort -n <<<"$firsts" | tail -1)"
    echo "said-$count $(grep -c 'no frame callback' "$log" || true)"
  done
)

# A label, then the median and the runs of the numbers after it.
summary() { python3 -c 'import sys, statistics as s; v = [float(x) for x in sys.argv[2:]]; print(f"{sys.argv[1]:<52} median {s.median(v):6.1f} ms   runs: " + " ".join(f"{x:.0f}" for x in v))' "$@"; }

declare -A results
if $cold; then
  eight="$mode,$mode$(printf ',800x600@60%.0s' 1 2 3 4 5 6)"
  for round in $(seq 1 "$rounds"); do
    while read -r key value; do results[$key]+="$value "; done < <(cold_and_warm "$mode"; cold_and_warm "$eight")
  done
  echo "glout views, time to the first frame on every output, headless sway, $rounds rounds"
  for count in 1 8; do
    summary "$count output(s), cold (empty shader cache)" ${results[cold-$count]}
    summary "$count output(s), warm (the cache the cold run filled)" ${results[warm-$count]}
    echo "$count output(s): \"no frame callback\" said $(awk '{ for (i = 1; i <= NF; i++) s += $i } END { print s + 0 }' <<<"${results[said-$count]}") times in $((2 * rounds)) runs"
  done
  exit 0
fi
for round in $(seq 1 "$rounds"); do
  results[simple]+="$(startup weston-simple-egl -f) "
  results[triangle]+="$(startup "$glout" run --scene triangle --duration 1) "
  results[views]+="$(startup "$glout" run --duration 1) "
  results[hotplug]+="$(hotplug) "
done
echo "time to the first frame on headless sway, $mode, $rounds rounds"
summary "weston-simple-egl -f (start-up)" ${results[simple]}
summary "glout --scene triangle (start-up)" ${results[triangle]}
summary "glout views (start-up)" ${results[views]}
summary "glout views (an output plugged in)" ${results[hotplug]}
