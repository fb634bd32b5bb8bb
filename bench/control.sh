#!/usr/bin/env bash
# The control API's costs, on a headless sway with two 1280x720@60 outputs, glout with the
# control view on HEADLESS-1 and a moving shader on HEADLESS-2:
#
#   bench/control.sh switch [ROUNDS]   content switches on HEADLESS-2 over HTTP, in turn a
#       1920x1080 PNG, a 4032x3024 JPEG (a phone's photo), a 1920x1080 H.264 video and a
#       shader (default 10 rounds):
#       per kind, the load time (request to decoded and uploaded) and request to the target
#       of the first frame showing it (status' load_ms and shown_after_ms), and on each
#       output the refreshes without a frame from each request to 100 ms after it showed
#       (--landings-json);
#   bench/control.sh load [SECONDS]    glout's CPU and each output's on-time share while a
#       client asks 100 times a second (status over one kept-alive connection), and so
#       with one request in ten a screenshot of HEADLESS-2, each against the idle phases
#       before and after it, SECONDS each (default 20).
#
# GLOUT=PATH measures that glout binary instead of the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-switch}
glout=${GLOUT:-$(swift build -c release --show-bin-path)/glout}
[ -x "$glout" ] || { echo "no glout at $glout: build first (swift build -c release)" >&2; exit 1; }
work=$(mktemp -d)
dir=
cleanup() {
  [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  [ -n "$dir" ] && scripts/compositor stop "$dir"
  rm -rf "$work"
}
trap cleanup EXIT
eval "$(scripts/compositor sway --outputs 1280x720@60,1280x720@60 --no-scanout)"
dir=$GLOUT_COMPOSITOR_DIR
cat >"$work/moving.frag" <<'EOF'
#version 300 es
precision highp float;
#include "frame.glsl"
#include "canvas.glsl"
out vec4 fragColor;
void main() { fragColor = vec4(fract(canvasPixel().x / u_canvas.z + u_timing.x), 0.3, 0.6, 1.0); }
EOF
/usr/bin/python3 - "$work" <<'EOF'
import sys
from PIL import Image
w = sys.argv[1]
noise = Image.effect_noise((1920, 1080), 50)
Image.merge('RGB', (noise, Image.linear_gradient('L').resize((1920, 1080)), noise.rotate(180))).save(w + '/full-hd.png')
noise = Image.effect_noise((4032, 3024), 50)
Image.merge('RGB', (noise, Image.radial_gradient('L').resize((4032, 3024)), noise.rotate(180))).save(w + '/photo.jpg', quality=92)
EOF
ffmpeg -v error -f lavfi -i testsrc2=s=1920x1080:r=30:d=10 -c:v libx264 -g 30 -bf 2 -pix_fmt yuv420p "$work/full-hd.mp4"
"$glout" run --http 0 --layout independent --content "HEADLESS-2=$work/moving.frag" --landings-json "$work/landings.json" \
  2>"$work/err" &
pid=$!
until grep -q "control API on" "$work/err"; do
  kill -0 "$pid" 2>/dev/null || { cat "$work/err" >&2; exit 1; }
  sleep 0.1
done
base=$(grep -o 'http://[^ ]*/api/v1' "$work/err" | head -1)
until curl -sf "$base/status" | grep -q '"fps"'; do sleep 0.2; done

case $what in
switch)
  rounds=${2:-10}
  /usr/bin/python3 - "$base" "$work" "$rounds" <<'EOF'
import json, sys, time, urllib.request
base, work, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
def call(method, path, body=None):
    request = urllib.request.Request(base + path, method=method, data=body and json.dumps(body).encode())
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)
def shown():
    return next(o for o in call('GET', '/status')['outputs'] if o['name'] == 'HEADLESS-2')['content']
switches = []
for _ in range(rounds):
    for kind, file in [('png 1920x1080', 'full-hd.png'), ('jpeg 4032x3024', 'photo.jpg'), ('h264 1920x1080', 'full-hd.mp4'),
                       ('shader', 'moving.frag')]:
        before = shown()
        call('PUT', '/outputs/HEADLESS-2/content', {'file': work + '/' + file})
        while True:
            now = shown()
            if now and now != before and now['file'].endswith(file): break
            time.sleep(0.02)
        switches.append((kind, now))
        time.sleep(0.3)
json.dump(switches, open(work + '/switches.json', 'w'))
EOF
  kill -INT "$pid"; wait "$pid" || true; pid=
  /usr/bin/python3 - "$work" <<'EOF'
import json, statistics, sys
work = sys.argv[1]
switches = json.load(open(work + '/switches.json'))
log = json.load(open(work + '/landings.json'))
frames = {o['name']: sorted((f['index'], f['target_ns']) for f in o['frames']) for o in log['outputs']}
period = 1e9 / 60
print(f"{'content':16} {'n':>3} {'load ms p50/max':>18} {'to screen ms p50/max':>22}")
for kind in dict.fromkeys(k for k, _ in switches):
    rows = [s for k, s in switches if k == kind]
    load = [r['load_ms'] for r in rows]; shown = [r['shown_after_ms'] for r in rows]
    print(f"{kind:16} {len(rows):3} {statistics.median(load):8.1f} /{max(load):7.1f} {statistics.median(shown):10.1f} /{max(shown):8.1f}")
# Refreshes without a frame on each output, over the whole run and around the switches
# (a still image rests by design: HEADLESS-2's gaps after an image are not counted).
def missed(series, start=0, end=float('inf')):
    return sum(max(0, round((b[1] - a[1]) / period) - 1) for a, b in zip(series, series[1:])
               if b[0] == a[0] + 1 and start < b[1] <= end)
for name, series in frames.items():
    print(f"{name}: {len(series)} frames, {missed(series)} refreshes missed between consecutive frames")
# Around each switch: while it loaded (from the request), and from its first frame to
# 100 ms after.
targets = dict(frames['HEADLESS-2'])
for kind in dict.fromkeys(k for k, _ in switches):
    loading = {name: 0 for name in frames}; after = dict(loading)
    for k, s in switches:
        target = targets.get(s['since_frame'])
        if k != kind or target is None: continue
        for name, series in frames.items():
            loading[name] += missed(series, target - s['shown_after_ms'] * 1e6, target - period / 2)
            after[name] += missed(series, target - period / 2, target + 100e6)
    print(f"{kind}: refreshes missed while it loaded: " + ", ".join(f"{n} {c}" for n, c in loading.items())
          + "; from its first frame to 100 ms after: " + ", ".join(f"{n} {c}" for n, c in after.items()))
EOF
  ;;
load)
  seconds=${2:-20}
  hz=$(getconf CLK_TCK)
  ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
  on_time() { curl -sf "$base/status" | /usr/bin/python3 -c 'import json,sys; print(" ".join("%s %.2f%%" % (o["name"], o.get("on_time_pct", 0)) for o in json.load(sys.stdin)["outputs"]))'; }
  # Idle between the loaded phases: each loaded phase is set against the mean of the
  # idle ones beside it (glout's idle CPU drifts by a few points over a minute).
  idle=()
  for phase in idle "100 requests/s" idle "100 requests/s, 1 in 10 a screenshot" idle; do
    client=
    if [ "$phase" != idle ]; then
      /usr/bin/python3 - "$base" "$seconds" "$phase" <<'EOF' &
import http.client, sys, time, urllib.parse
url = urllib.parse.urlparse(sys.argv[1]); end = time.monotonic() + float(sys.argv[2]) + 2
screenshots = 'screenshot' in sys.argv[3]
connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
next_at = time.monotonic()
n = 0
while time.monotonic() < end:
    n += 1
    path = '/outputs/HEADLESS-2/screenshot' if screenshots and n % 10 == 0 else '/status'
    connection.request('GET', url.path + path); connection.getresponse().read()
    next_at += 0.01
    time.sleep(max(0, next_at - time.monotonic()))
EOF
      client=$!
      sleep 1
    fi
    start=$(ticks); sleep "$seconds"; end=$(ticks)
    share=$(awk -v t=$((end - start)) -v hz="$hz" -v s="$seconds" 'BEGIN {printf "%.1f", t / hz / s * 100}')
    echo "$phase: glout $share% of a core; on time (last 10 s): $(on_time)"
    if [ "$phase" = idle ]; then idle+=("$share"); else loaded+=("$phase=$share"); fi
    [ -n "$client" ] && wait "$client"
  done
  for i in 0 1; do
    entry=${loaded[$i]}
    awk -v name="${entry%=*}" -v load="${entry##*=}" -v a="${idle[$i]}" -v b="${idle[$((i + 1))]}" \
      'BEGIN {printf "%s: +%.1f points of a core over the idle beside it\n", name, load - (a + b) / 2}'
  done
  ;;
*)
  echo "usage: bench/control.sh switch [ROUNDS] | load [SECONDS]" >&2; exit 2 ;;
esac
