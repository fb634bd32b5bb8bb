#!/usr/bin/env python3
"""The tables of BENCHMARKS.md's pacing section, from the JSON reports bench/pacing.sh
keeps in bench/results/ (so the tables always say what the reports say).

    bench/tables.py            every table
    bench/tables.py a stall    only those configurations
"""
import json, os, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")

def load(name):
    with open(os.path.join(root, name + ".json")) as f:
        return json.load(f)

def runs(report):
    yield "independent", report
    if "coupled" in report:
        yield "coupled", report["coupled"]

def per_output(config):
    report = load(config)
    print(f"### ({config})\n")
    print("| output | pacing | fps | on-time % | p50 ms | p99 ms | max ms | missed | jank % | render p50/p99 ms |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for mode, run in runs(report):
        for o in run["outputs"]:
            i, t = o["interval_ms"], o["interval_periods"]
            stall = f" (+{o['stall_ms']:g} ms)" if o.get("stall_ms") else ""
            print(f"| {o['name']} {o['refresh_mhz'] / 1000:g} Hz{stall} | {mode} | {o['fps']:.2f} | {o['on_time_pct']:.2f} | "
                  f"{i['p50']:.2f} | {i['p99']:.2f} ({t['p99']:.2f} T) | {i['max']:.2f} ({t['max']:.2f} T) | "
                  f"{o['missed']} | {o['jank_pct']:.2f} | {o['render_ms']['p50']:.1f} / {o['render_ms']['p99']:.1f} |")
    for mode, run in runs(report):
        p = run["pacing"]
        print(f"\n{mode}: process CPU {p['process_cpu_ms_per_frame']:.2f} ms per frame, peak RSS {p['peak_rss_kb'] // 1024} MiB", end="")
    print("\n")

def outputs_table(configs):
    print("| outputs | pacing | fps per output (min..max) | on-time % (min) | p99 (worst) | max (worst) | jank % (worst) | CPU ms/frame | peak RSS MiB |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for config in configs:
        report = load(config)
        for mode, run in runs(report):
            outs = run["outputs"]
            fps = [o["fps"] for o in outs]
            rate = f"{min(fps):.2f}" if len(outs) == 1 or abs(max(fps) - min(fps)) < 0.005 else f"{min(fps):.2f}..{max(fps):.2f}"
            worst_p99 = max(outs, key=lambda o: o["interval_ms"]["p99"])
            worst_max = max(outs, key=lambda o: o["interval_ms"]["max"])
            p = run["pacing"]
            print(f"| {len(outs)} | {mode} | {rate} | {min(o['on_time_pct'] for o in outs):.2f} | "
                  f"{worst_p99['interval_ms']['p99']:.2f} ({worst_p99['interval_periods']['p99']:.2f} T) | "
                  f"{worst_max['interval_ms']['max']:.2f} ({worst_max['interval_periods']['max']:.2f} T) | "
                  f"{max(o['jank_pct'] for o in outs):.2f} | {p['process_cpu_ms_per_frame']:.2f} | {p['peak_rss_kb'] // 1024} |")
    print()

wanted = sys.argv[1:] or ["a", "b", "c", "stall"]
for name in wanted:
    if name == "c":
        outputs_table(["c1", "c2", "c4", "c8"])
    else:
        per_output(name)
