#!/usr/bin/env bash
# A --content video on two outputs at once (BENCHMARKS.md, "Video"): a clip ffmpeg makes
# (testsrc2, H.264), played by one glout on a fresh headless sway with a 60 Hz and a
# 50 Hz output, then by mpv (--vo=gpu --gpu-sw: llvmpipe is a software renderer,
# --video-sync=display-resample, fullscreen) alone on
# the 60 Hz one, for comparison. Per output: the frames shown, the share held for the
# refreshes their cadence calls for, frames passed over, refreshes that showed a late
# frame, decode time; and each player's CPU (user + system of every thread, from /proc,
# over SECONDS after a 4 s start), in cores. Then a wall of two machines, each a headless
# sway with the first of MODES and its own glout (--layout span --wall, the realtime
# clock): at every refresh either presents (--landings-json, after the first 2 s), how
# many frames apart the two screens are.
#
#   bench/video.sh [SECONDS] [WxH] [FPS] [MODES]
#   (default 60 1280x720 24 1280x720@60,1280x720@50)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
size=${2:-1280x720}
fps=${3:-24}
modes=${4:-1280x720@60,1280x720@50}
glout=$(swift build -c release --show-bin-path)/glout
[ -x "$glout" ] || { echo "build first: swift build -c release" >&2; exit 1; }
command -v ffmpeg >/dev/null || { echo "needs ffmpeg (scripts/install-deps --tests)" >&2; exit 1; }
hz=$(getconf CLK_TCK)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
clip=$work/clip.mp4
ffmpeg -v error -y -f lavfi -i "testsrc2=s=$size:r=$fps:d=20" -c:v libx264 -pix_fmt yuv420p "$clip"
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

eval "$(scripts/compositor sway --outputs "$modes")"
"$glout" run --control none --content "$clip" --duration $((seconds + 6)) --stats-json "$work/stats.json" 2>"$work/glout.err" &
pid=$!
sleep 4
start=$(ticks "$pid")
sleep "$seconds"
end=$(ticks "$pid")
wait "$pid" || { cat "$work/glout.err" >&2; exit 1; }
scripts/compositor stop "$GLOUT_COMPOSITOR_DIR"
echo "glout, $size $fps fps H.264 on $modes, $seconds s (after 4 s):"
python3 - "$work/stats.json" "$start" "$end" "$hz" "$seconds" <<'PY'
import json, sys
stats, start, end, hz, seconds = json.load(open(sys.argv[1])), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
for o in stats["outputs"]:
    v = o["video"]
    held = sum(v["refreshes_per_frame"].values())
    kept = 100 * (held - v["cadence_errors"]) / held if held else 0
    hist = ", ".join(f"{k}: {n}" for k, n in sorted(v["refreshes_per_frame"].items(), key=lambda kv: int(kv[0])))
    print(f"  {o['name']} {o['refresh_mhz'] / 1000:g} Hz: {o['fps']:.2f} fps, {v['frames_shown']} frames shown, "
          f"{kept:.2f}% held as their cadence calls for (refreshes per frame {hist}), "
          f"{v['frames_passed_over']} passed over, {v['late_refreshes']} late refreshes, "
          f"decode p50 {v['decode_ms_p50']:.2f} ms p99 {v['decode_ms_p99']:.2f} ms")
print(f"  CPU: {(end - start) / hz / seconds:.2f} cores for all outputs")
PY

first=${modes%%,*}
for machine in left right; do
  scripts/compositor sway --outputs "$first" >"$work/$machine.env"
  (eval "$(cat "$work/$machine.env")"; "$glout" outputs --wall-json --machine "$machine") >"$work/$machine.json"
done
python3 - "$work" <<'PY'
import json, sys
left, right = (json.load(open(f"{sys.argv[1]}/{m}.json"))["outputs"] for m in ("left", "right"))
shift = max(o["x"] + o["width"] for o in left)
json.dump({"outputs": left + [dict(o, x=o["x"] + shift) for o in right]}, open(f"{sys.argv[1]}/wall.json", "w"))
PY
pids=()
for machine in left right; do
  (eval "$(cat "$work/$machine.env")"; exec "$glout" run --layout span --wall "$work/wall.json" --machine "$machine" \
    --content "$clip" --duration $((seconds + 2)) --landings-json "$work/$machine.landings.json" 2>"$work/$machine.err") &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || { cat "$work"/*.err >&2; exit 1; }; done
for machine in left right; do (eval "$(cat "$work/$machine.env")"; scripts/compositor stop "$GLOUT_COMPOSITOR_DIR"); done
echo "a wall of two glouts on two headless sways ($first each, --clock realtime), $seconds s:"
python3 - "$work" <<'PY'
import json, sys
def shown(machine):
    log = json.load(open(f"{sys.argv[1]}/{machine}.landings.json"))
    offset = log["realtime_minus_monotonic_ns"]
    return sorted(((f["landed_ns"] + offset) / 1e9, f["video_frame"]) for f in log["outputs"][0]["frames"] if "video_frame" in f)
a, b = shown("left"), shown("right")
start = max(a[0][0], b[0][0]) + 2
apart = {}
for x, y in ((a, b), (b, a)):
    j = -1
    for landed, frame in x:
        while j + 1 < len(y) and y[j + 1][0] <= landed: j += 1
        if landed < start or j < 0: continue
        d = min(abs(frame - y[j][1]), 10)
        apart[d] = apart.get(d, 0) + 1
total = sum(apart.values())
hist = ", ".join(f"{k}: {n}" for k, n in sorted(apart.items()))
print(f"  frames apart at each presented refresh of either screen ({total}): {hist}; "
      f"{100 * sum(n for k, n in apart.items() if k <= 1) / max(1, total):.2f}% at most one apart")
PY

if command -v mpv >/dev/null; then
  eval "$(scripts/compositor sway --outputs "$first")"
  mpv --fs --vo=gpu --gpu-context=wayland --gpu-sw --video-sync=display-resample --loop-file=inf --no-audio \
    --really-quiet "$clip" &
  pid=$!
  sleep 4
  start=$(ticks "$pid")
  sleep "$seconds"
  end=$(ticks "$pid")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  scripts/compositor stop "$GLOUT_COMPOSITOR_DIR"
  printf 'mpv %s (--vo=gpu --gpu-sw --video-sync=display-resample) on %s alone: %.2f cores\n' \
    "$(mpv --version | head -1 | awk '{print $2}')" "$first" "$(echo "($end - $start) / $hz / $seconds" | bc -l)"
else
  echo "mpv: not installed (apt-get install mpv), no comparison"
fi
