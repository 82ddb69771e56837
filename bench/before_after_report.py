"""Reads what bench/before_after_run.py recorded (the directory given, or OUT) and prints a
Markdown report: each figure of the previous plumb and of this one, with the ratio
this / previous and its spread. Reads plumb documents of format 2 and later."""
import json, os, statistics, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.environ["OUT"]
BODIES = ["empty", "add_one", "sum128", "spin_10us"]
RUNS = json.load(open(f"{OUT}/runs.json"))


def harness(run):
    doc = json.load(open(f"{OUT}/{run['file']}"))
    means = {b["name"]: b["stats"]["wall-time"]["summary"]["mean"] for b in doc["benchmarks"]}
    return {"wall": run["wall_seconds"], **means}


def lateness_p99_us(load):
    late = load["send_lateness"]
    if "percentiles" in late:  # format 3 and later: ns
        return late["percentiles"]["p99"] / 1e3
    return late["percentiles_us"]["p99"]  # format 2: µs


def load(run):
    l = json.load(open(f"{OUT}/{run['file']}"))["benchmarks"][0]["load"]
    requests = l["ok"] + sum(l.get("errors", {}).values())
    return {"achieved": l["achieved_rate"], "late_p99_us": lateness_p99_us(l),
            "cpu_ms_per_10k": 1e3 * run["cpu_seconds"] / max(requests, 1) * 1e4}


def row(name, got, key, fmt):
    old = [g[key] for g in got["previous"]]
    new = [g[key] for g in got["this"]]
    ratios = [n / o for n, o in zip(new, old) if o > 0]
    med = statistics.median(ratios) if ratios else float("nan")
    lo, hi = (min(ratios), max(ratios)) if ratios else (float("nan"), float("nan"))
    return (f"| {name} | {fmt(statistics.median(old))} | {fmt(statistics.median(new))} "
            f"| ×{med:.3f} | ×{lo:.3f} … ×{hi:.3f} |")


h = {side: [harness(r) for r in rs] for side, rs in RUNS["harness"].items()}
l = {side: [load(r) for r in rs] for side, rs in RUNS["load"].items()}
print(f"# Before and after: plumb at {RUNS['rev']} against this plumb\n")
print(f"`bash bench/before-after.sh` on {RUNS['cpu']}, {RUNS['pairs']} pairs of each, alternating "
      "(previous, this), (this, previous), …; medians over the pairs, and the ratio "
      "this / previous of each pair (median, lowest … highest). Below 1 is faster.\n")
print("## In-process harness (bench/inprocess, plumb-bench's default settings)\n")
print("| figure | previous | this | ratio (median) | ratio (range) |\n|---|---|---|---|---|")
ns = lambda v: (f"{v:.2e} ns" if v < 0.01 else f"{v:.3f} ns") if v < 1000 else f"{v / 1e3:.3f} µs"
for b in BODIES:
    print(row(f"{b}: mean per iteration", h, b, ns))
print(row("one invocation, wall time", h, "wall", lambda v: f"{v:.2f} s"))
print(f"\n## Load generator (`plumb load` at {RUNS['rate']}/s for {RUNS['duration']}, spin-server with no work)\n")
print("| figure | previous | this | ratio (median) | ratio (range) |\n|---|---|---|---|---|")
print(row("achieved rate", l, "achieved", lambda v: f"{v:.0f}/s"))
print(row("send lateness p99", l, "late_p99_us", lambda v: f"{v:.1f} µs"))
print(row("CPU per 10,000 requests", l, "cpu_ms_per_10k", lambda v: f"{v:.0f} ms"))
