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
set -euo pipefail
cd "$(dirname "$0")/.."
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

declare -A results
for round in $(seq 1 "$rounds"); do
  results[simple]+="$(startup weston-simple-egl -f) "
  results[triangle]+="$(startup "$glout" run --scene triangle --duration 1) "
  results[views]+="$(startup "$glout" run --duration 1) "
  results[hotplug]+="$(hotplug) "
done
summary() { python3 -c 'import sys, statistics as s; v = [float(x) for x in sys.argv[2:]]; print(f"{sys.argv[1]:<34} median {s.median(v):6.1f} ms   runs: " + " ".join(f"{x:.0f}" for x in v))' "$@"; }
echo "time to the first frame on headless sway, $mode, $rounds rounds"
summary "weston-simple-egl -f (start-up)" ${results[simple]}
summary "glout --scene triangle (start-up)" ${results[triangle]}
summary "glout views (start-up)" ${results[views]}
summary "glout views (an output plugged in)" ${results[hotplug]}
