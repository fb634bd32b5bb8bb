#!/usr/bin/env bash
# CPU time per frame: glout's trivial scene (--scene triangle) and its two views (the
# control view with its dashboard; the content view, --control none) against
# weston-simple-egl (-f -o: fullscreen, opaque), each alone on the same headless sway
# output. Both are
# measured the same way: user + system CPU of every thread from /proc over a steady
# window (after 5.5 s of start-up), divided by the frames of that window. They run in
# turn ROUNDS times, since one run on a shared 2-core machine is noisy.
#
#   bench/cpu-vs-simple-egl.sh [MODE] [SECONDS] [ROUNDS]   (default 1280x720@60 15 3)
#
# GLOUT=PATH measures that glout binary instead of the release build (an older build, to
# put its figures beside the new ones in the same session).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-1280x720@60}
seconds=${2:-15}
rounds=${3:-3}
glout=${GLOUT:-$(swift build -c release --show-bin-path)/glout}
[ -x "$glout" ] || { echo "no glout at $glout: build first (swift build -c release)" >&2; exit 1; }

eval "$(scripts/compositor sway --outputs "$mode")"
trap 'scripts/compositor stop "$GLOUT_COMPOSITOR_DIR"' EXIT
hz=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# Prints "FPS MS_PER_FRAME" for weston-simple-egl (it reports its frames every 5 s).
simple_egl() {
  local out pid start end reports frames window
  out=$(mktemp)
  stdbuf -oL weston-simple-egl -f -o >"$out" 2>&1 &
  pid=$!
  sleep 5.5
  start=$(ticks "$pid"); reports=$(grep -c "frames in" "$out" || true)
  sleep "$seconds"
  end=$(ticks "$pid")
  sleep 5
  kill "$pid"; wait "$pid" 2>/dev/null || true
  frames=$(grep "frames in" "$out" | tail -n +"$((reports + 1))" | awk '{s += $1} END {print s}')
  window=$(grep "frames in" "$out" | tail -n +"$((reports + 1))" | awk '{s += $4} END {print s}')
  rm -f "$out"
  printf '%s\n%s\n' "$frames / $window" "($end - $start) * 1000 / $hz / ($frames / $window * $seconds)" | bc -l | paste -sd' '
}

# Prints "FPS MS_PER_FRAME" for glout run with the given options.
glout_run() {
  local stats pid start end fps
  stats=$(mktemp)
  "$glout" run "$@" --duration "$((seconds + 8))" --stats-json "$stats" >/dev/null 2>&1 &
  pid=$!
  sleep 5.5
  start=$(ticks "$pid")
  sleep "$seconds"
  end=$(ticks "$pid")
  wait "$pid"
  fps=$(python3 -c "import json; print(json.load(open('$stats'))['outputs'][0]['fps'])")
  rm -f "$stats"
  printf '%s\n%s\n' "$fps" "($end - $start) * 1000 / $hz / ($fps * $seconds)" | bc -l | paste -sd' '
}

egl=(); ours=(); control=(); content=()
for round in $(seq 1 "$rounds"); do
  read -r fps cpu < <(simple_egl); egl+=("$cpu")
  printf 'round %d: weston-simple-egl %6.2f fps %6.3f ms/frame' "$round" "$fps" "$cpu"
  read -r fps cpu < <(glout_run --scene triangle); ours+=("$cpu")
  printf ' | glout triangle %6.2f fps %6.3f' "$fps" "$cpu"
  read -r fps cpu < <(glout_run); control+=("$cpu")
  printf ' | control view %6.2f fps %6.3f' "$fps" "$cpu"
  read -r fps cpu < <(glout_run --control none); content+=("$cpu")
  printf ' | content view %6.2f fps %6.3f\n' "$fps" "$cpu"
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
m_egl=$(median "${egl[@]}"); m_ours=$(median "${ours[@]}")
m_control=$(median "${control[@]}"); m_content=$(median "${content[@]}")
printf 'median over %d rounds on %s: weston-simple-egl %.3f ms, glout triangle %.3f ms CPU per frame (%+.1f%%)\n' \
  "$rounds" "$mode" "$m_egl" "$m_ours" "$(echo "($m_ours / $m_egl - 1) * 100" | bc -l)"
printf 'glout views: control %.3f ms (%.2fx the triangle), content %.3f ms (%.2fx)\n' \
  "$m_control" "$(echo "$m_control / $m_ours" | bc -l)" "$m_content" "$(echo "$m_content / $m_ours" | bc -l)"
