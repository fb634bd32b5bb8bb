#!/usr/bin/env bash
# A --content video on two outputs at once (BENCHMARKS.md, "Video"): a clip ffmpeg makes
# (testsrc2, H.264), played by one glout on a fresh headless sway with a 60 Hz and a
# 50 Hz output, then by mpv (--vo=gpu --gpu-sw: llvmpipe is a software renderer,
# --video-sync=display-resample, fullscreen) alone on
# the 60 Hz one, for comparison. Per output: the frames shown, the share held for the
# refreshes their cadence calls for, frames passed over, refreshes that showed a late
# frame, decode time; and each player's CPU (user + system of every thread, from /proc,
# over SECONDS after a 4 s start), in cores.
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
print(f"  CPU: {(end - start) / hz / seconds:.2f} cores for both outputs")
PY

if command -v mpv >/dev/null; then
  first=${modes%%,*}
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
