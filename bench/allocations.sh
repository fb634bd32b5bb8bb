#!/usr/bin/env bash
# Counts malloc calls per frame on each of glout's render threads, and how many of them
# come from glout's own code (a Swift frame of glout in the call chain), with a uprobe on
# libc's malloc. Needs root and perf (linux-perf). Runs configuration (a) of BENCHMARKS.md
# on the release build.
#
#   bench/allocations.sh [SECONDS]           (default 5, after a 3 s warm-up)
#   bench/allocations.sh --check [SECONDS]   the same, and fails (status 1) when any thread
#                                            makes more than one malloc a second from glout
#                                            code; says so and passes where perf cannot
#                                            probe malloc (not root, no uprobes).
set -euo pipefail
cd "$(dirname "$0")/.."
check="" status=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
seconds=${1:-5}
glout=$(swift build -c release --show-bin-path)/glout
[ -x "$glout" ] || { echo "build first: swift build -c release" >&2; exit 1; }
libc=$(ldd "$glout" | awk '/libc.so.6/ { print $3 }')
# The probe is removed on exit only if this script added it.
added=""
work=$(mktemp -d)
GLOUT_COMPOSITOR_DIR=""
cleanup() {
  [ -n "$GLOUT_COMPOSITOR_DIR" ] && scripts/compositor stop "$GLOUT_COMPOSITOR_DIR"
  [ -n "$added" ] && { perf probe -q --del probe_libc:malloc || true; }
  rm -rf "$work"
}
trap cleanup EXIT
if ! perf probe -q --list 2>/dev/null | grep -q "probe_libc:malloc"; then
  perf probe -q -x "$libc" --add malloc 2>/dev/null && added=1
fi
if ! perf probe -q --list 2>/dev/null | grep -q "probe_libc:malloc"; then
  why="perf cannot put a uprobe on malloc here (root, linux-perf and uprobes are needed)"
  [ -n "$check" ] && { echo "allocations: not checked: $why" >&2; exit 0; }
  echo "allocations: $why" >&2; exit 1
fi
eval "$(scripts/compositor sway --outputs 1280x720@60,800x600@30)"
"$glout" run --duration $((seconds + 6)) --stats-json "$work/stats.json" 2>/dev/null &
glout_pid=$!
sleep 3
perf record -q -e probe_libc:malloc -g -p "$glout_pid" -o "$work/perf.data" -- sleep "$seconds" 2>/dev/null \
  || echo "allocations: perf record failed" >&2
wait
# Per render thread (named after its output, cut to 15 characters by the kernel): malloc
# calls a second, and those with glout code in the call chain, by the innermost glout
# function. Divide by the output's frame rate for calls per frame.
perf script -i "$work/perf.data" -F comm,tid,ip,sym,dso 2>/dev/null | SECONDS_RECORDED=$seconds CHECK=$check python3 -c '
import collections, os, sys
seconds = float(os.environ["SECONDS_RECORDED"])
calls = collections.Counter(); ours = collections.Counter(); names = {}; where = collections.Counter()
tid = None; chain = []
def done():
    if tid is None: return
    calls[tid] += 1
    own = [line.split()[1] for line in chain if line.endswith("/glout)")]
    if own:
        ours[tid] += 1
        where[(tid, own[0][:100])] += 1
for line in sys.stdin:
    if not line.strip(): continue
    if line[0] not in " \t":
        done(); fields = line.split(); tid = fields[-1]; names[tid] = " ".join(fields[:-1]); chain = []
    else:
        chain.append(line.strip())
done()
for tid in sorted(calls):
    print(f"thread {tid} ({names[tid]}): {calls[tid] / seconds:.1f} mallocs a second, "
          f"{ours[tid] / seconds:.1f} of them from glout code")
    for (t, symbol), count in where.most_common():
        if t == tid: print(f"    {count / seconds:6.1f}/s  {symbol}")
if not calls:
    # Mesa alone mallocs every frame: no call at all means perf could not record here.
    print(("allocations: not checked: " if os.environ["CHECK"] else "allocations: ")
          + "perf recorded no malloc call at all; the probe did not work", file=sys.stderr)
    sys.exit(0 if os.environ["CHECK"] else 1)
if os.environ["CHECK"] and any(count / seconds > 1 for count in ours.values()):
    sys.exit("allocations: glout code allocates while it renders (more than one malloc a second on a thread)")
' || status=$?
echo "frames per output over the whole run (glout run --stats-json):"
python3 -c 'import json,sys; [print("   ", o["name"], o["frames"], "frames,", round(o["fps"], 2), "fps") for o in json.load(open(sys.argv[1]))["outputs"]]' "$work/stats.json"
exit $status
