#!/usr/bin/env python3
"""The tables of BENCHMARKS.md's pacing section, from the JSON reports bench/pacing.sh
keeps in bench/results/ (so the tables always say what the reports say).

    bench/tables.py                         every table (Debian 12)
    bench/tables.py a stall                 only those configurations
    bench/tables.py --stack debian-13 ...   the same from bench/results/debian-13/
                                            (or debian-13-built/)
    bench/tables.py stacks                  the three stacks of bench/pacing.sh --stacks
                                            side by side, per configuration and output
"""
import json, os, sys

results = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
root = results

def load(name, folder=None):
    with open(os.path.join(folder or root, name + ".json")) as f:
        return json.load(f)

STACKS = [("", "glout built on Debian 12 (Mesa 22.3), sway 1.7"),
          ("debian-13", "the same glout, sway 1.10"),
          ("debian-13-built", "glout built on Debian 13 (Mesa 25), sway 1.10")]

def stacks_table(configs):
    print("| config | output | " + " | ".join(label for _, label in STACKS) + " |")
    print("| --- | --- |" + " --- |" * len(STACKS))
    for config in configs:
        reports = []
        for folder, _ in STACKS:
            try:
                reports.append(load(config, os.path.join(results, folder)))
            except FileNotFoundError:
                reports.append(None)
        names = [o["name"] for o in (reports[0] or reports[-1])["outputs"]]
        for index, name in enumerate(names):
            cells = []
            for report in reports:
                o = next((o for o in report["outputs"] if o["name"] == name), None) if report else None
                cells.append("-" if o is None else
                             f"{o['fps']:.1f} fps, {o['on_time_pct']:.1f}%, p99 {o['interval_periods']['p99']:.2f} T, "
                             f"render {o['render_ms']['p50']:.1f} ms")
            refresh = (reports[0] or reports[-1])["outputs"][index]["refresh_mhz"] / 1000
            print(f"| {config} | {name} {refresh:g} Hz | " + " | ".join(cells) + " |")
    print()
    print("Process CPU per frame (independent): " + "; ".join(
        f"{config}: " + " / ".join(
            f"{load(config, os.path.join(results, folder))['pacing']['process_cpu_ms_per_frame']:.2f}"
            if os.path.exists(os.path.join(results, folder, config + '.json')) else "-" for folder, _ in STACKS)
        for config in configs) + " ms (in the order of the columns)\n")

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

arguments = sys.argv[1:]
if arguments[:1] == ["--stack"]:
    root = os.path.join(results, arguments[1])
    arguments = arguments[2:]
wanted = arguments or ["a", "b", "c", "stall"]
for name in wanted:
    if name == "stacks":
        stacks_table(["a", "b", "c1", "c2", "c4", "c8", "stall"])
    elif name == "c":
        outputs_table(["c1", "c2", "c4", "c8"])
    else:
        per_output(name)
