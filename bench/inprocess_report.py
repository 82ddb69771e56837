"""Reads what bench/inprocess_run.py kept (the directory given, or OUT) and prints a
Markdown report: each harness's estimates of the four bodies, their spread across
invocations per block and pooled, and the wall time each harness took.

The spread of an estimate is its coefficient of variation over the invocations of one
block; a CV from 5 values is itself noisy (relative standard error ~35 %), so it is
reported per block, as the median over blocks, and pooled over all invocations with a
bootstrap 90 % interval.
"""
import json
import os
import random
import re
import statistics
import sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.environ["OUT"]
RUNS = json.load(open(f"{OUT}/runs.json"))
N, BLOCKS = RUNS["invocations_per_block"], RUNS["blocks"]
BODIES = RUNS["bodies"]
UNITS = {"ps": 1e-3, "ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
STATS = ["mean", "median", "min"]


def read_plumb(path):
    doc = json.load(open(f"{OUT}/{path}"))
    return {b["name"]: {s: b["stats"]["wall-time"]["summary"][s] for s in STATS} for b in doc["benchmarks"]}


def read_criterion(path):
    res = {}
    for b in BODIES:
        est = json.load(open(f"{OUT}/{path}/{b}/estimates.json"))
        res[b] = {s: est[s]["point_estimate"] for s in ("mean", "median")}
        raw = json.load(open(f"{OUT}/{path}/{b}/sample.json"))
        res[b]["min"] = min(t / n for t, n in zip(raw["times"], raw["iters"]))
    return res


def read_divan(path):
    res = {}
    for line in open(f"{OUT}/{path}").read().splitlines():
        m = re.match(r"^[├╰]─ (\w+?)_?\s+(.*)$", line)
        if not m:
            continue
        # fastest │ slowest │ median │ mean │ samples │ iters
        cells = [c.strip() for c in m.group(2).split("│")]

        def ns(cell):
            value, unit = cell.split()
            return float(value) * UNITS[unit]
        res[m.group(1)] = {"min": ns(cells[0]), "median": ns(cells[2]), "mean": ns(cells[3])}
    return res


READ = {"plumb-bench": read_plumb, "criterion": read_criterion, "divan": read_divan}
tools = RUNS["tools"]
# est[tool][body][stat] = list of blocks, each a list of N estimates
est = {t: {b: {s: [[] for _ in range(BLOCKS)] for s in STATS} for b in BODIES} for t in tools}
wall = {t: [] for t in tools}
for inv in RUNS["invocations"]:
    t, r = inv["tool"], READ[inv["reader"]](inv["path"])
    wall[t].append(inv["wall_seconds"])
    for b in BODIES:
        for s in STATS:
            est[t][b][s][inv["block"]].append(r[b][s])


def fmt(ns):
    if ns == 0:
        return "0 ns"
    for u, f in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if abs(ns) >= f:
            return f"{ns / f:.3g} {u}"
    return f"{ns:.3g} ns"


def cv(xs):
    m = statistics.fmean(xs)
    return statistics.stdev(xs) / m if m > 0 and len(xs) > 1 else float("nan")


def pooled_cv_ci(xs, reps=2000, seed=1):
    rng = random.Random(seed)
    cvs = sorted(cv([rng.choice(xs) for _ in xs]) for _ in range(reps))
    return cvs[int(0.05 * reps)], cvs[int(0.95 * reps) - 1]


cpu = RUNS["cpu"]
print(f"# In-process harnesses side by side\n\n{cpu}; {BLOCKS} blocks of {N} invocations of each "
      "harness, rotating order within a block. Each tool's own defaults (criterion: 3 s warm-up "
      "+ 5 s per benchmark; divan: 100 samples; plumb-bench: warm-up to steady state, 0.5 s of "
      "samples (500 of 1 ms), then more until the mean's batch-means interval is within ±2 % or 3 s of samples; "
      "--quick: 2 ms of samples, warm-up windows of 5 capped at 0.05 s; criterion's budget: "
      "`--measure-time 5s --warmup-cap 3s --target-error off`). The minimum is computed from criterion's raw samples "
      "(sample.json) and is divan's \"fastest\". "
      "Re-run with `bash bench/inprocess.sh` (BLOCKS, INVOCATIONS to change the design).\n")
print("## Empty body: reported per-iteration cost (median over all invocations)\n")
print("The body is deleted by the compiler, so the true cost is 0; plumb-bench also flags it "
      "\"nothing measured?\".\n")
print("| | " + " | ".join(tools) + " |\n|---|" + "---:|" * len(tools))
for s in STATS:
    print(f"| empty ({s}) | " + " | ".join(
        fmt(statistics.median(sum(est[t]['empty'][s], []))) for t in tools) + " |")
print("\n## Wall time to finish all four benchmarks (median over all invocations)\n")
print("| | " + " | ".join(tools) + " |\n|---|" + "---:|" * len(tools))
print("| wall | " + " | ".join(f"{statistics.median(wall[t]):.3f} s" for t in tools) + " |")
for s in STATS:
    print(f"\n## Spread of the {s} estimate across invocations\n")
    if s == "min":
        print("The minimum answers \"best case\" (noise only makes things slower); on a machine "
              "whose speed changes over time it should be the most repeatable estimate.\n")
    print(f"Per body and tool: the {s} estimate (median over all invocations); the CV over the "
          f"{N} invocations of each block; the median of those block CVs; the CV pooled over "
          f"all {N * BLOCKS} invocations with a bootstrap 90 % interval. Lower is a more "
          "repeatable number. The empty body's estimate is the clock's noise over ~10¹² "
          "deleted iterations for plumb-bench, so its CV says nothing; it is left out.\n")
    print("| body | tool | estimate | block CVs | median block CV | pooled CV [90 % CI] |")
    print("|---|---|---:|---|---:|---:|")
    for b in BODIES[1:]:
        best = min(tools, key=lambda t: statistics.median(cv(x) for x in est[t][b][s]))
        for t in tools:
            blocks = est[t][b][s]
            allx = sum(blocks, [])
            lo, hi = pooled_cv_ci(allx)
            med = statistics.median(cv(x) for x in blocks)
            mark = " **(lowest)**" if t == best else ""
            print(f"| {b} | {t} | {fmt(statistics.median(allx))} | "
                  + ", ".join(f"{100 * cv(x):.2f}%" for x in blocks)
                  + f" | {100 * med:.2f}%{mark} | {100 * cv(allx):.2f}% "
                  f"[{100 * lo:.2f}, {100 * hi:.2f}] |")
