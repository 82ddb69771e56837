"""Runs the three harnesses (see bench/inprocess.sh) and prints a Markdown report."""
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time

N = int(os.environ["INVOCATIONS"])
EXE = {"plumb-bench": os.environ["PLUMB"], "plumb-bench --quick": os.environ["PLUMB"],
       "criterion": os.environ["CRITERION"], "divan": os.environ["DIVAN"]}
BODIES = ["empty", "add_one", "sum128", "spin_10us"]
UNITS = {"ps": 1e-3, "ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}


def run_plumb(tmp, extra=()):
    out = os.path.join(tmp, "plumb.json")
    subprocess.run([EXE["plumb-bench"], "--bench", "--quiet", "--export-json", out, *extra],
                   check=True, capture_output=True)
    doc = json.load(open(out))
    return {b["name"]: b["time"]["summary"]["mean"] for b in doc["benchmarks"]}


def run_criterion(tmp):
    shutil.rmtree("target/criterion", ignore_errors=True)
    subprocess.run([EXE["criterion"], "--bench"], check=True, capture_output=True)
    res = {}
    for b in BODIES:
        est = json.load(open(f"target/criterion/{b}/new/estimates.json"))
        res[b] = est["mean"]["point_estimate"]
    return res


def run_divan(tmp):
    p = subprocess.run([EXE["divan"], "--bench"], check=True, capture_output=True, text=True)
    res = {}
    for line in p.stdout.splitlines():
        m = re.match(r"^[├╰]─ (\w+?)_?\s+(.*)$", line)
        if not m:
            continue
        cells = [c.strip() for c in m.group(2).split("│")]
        value, unit = cells[3].split()
        res[m.group(1)] = float(value) * UNITS[unit]
    return res


RUN = {"plumb-bench": run_plumb, "plumb-bench --quick": lambda tmp: run_plumb(tmp, ["--quick"]),
       "criterion": run_criterion, "divan": run_divan}
tools = list(RUN)
est = {t: {b: [] for b in BODIES} for t in tools}
wall = {t: [] for t in tools}
with tempfile.TemporaryDirectory() as tmp:
    for i in range(N):
        for k in range(len(tools)):
            t = tools[(i + k) % len(tools)]
            t0 = time.perf_counter()
            r = RUN[t](tmp)
            wall[t].append(time.perf_counter() - t0)
            for b in BODIES:
                est[t][b].append(r[b])

def fmt(ns):
    if ns == 0:
        return "0 ns"
    for u, f in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if abs(ns) >= f:
            return f"{ns / f:.3g} {u}"
    return f"{ns:.3g} ns"

cpu = open("/proc/cpuinfo").read().split("model name")[1].split("\n")[0].strip(": \t")
print(f"# In-process harnesses side by side\n\n{cpu}; {N} invocations of each, rotating order. "
      "Each tool's own defaults (criterion: 3 s warm-up + 5 s per benchmark; divan: 100 samples; "
      "plumb-bench: warm-up to steady state, 0.5 s of samples; --quick: 5 ms of samples, warm-up windows of 5 capped at 0.05 s).\n")
print("## Empty body: reported per-iteration cost (median over invocations)\n")
print("| | " + " | ".join(tools) + " |\n|---|" + "---:|" * len(tools))
print("| empty | " + " | ".join(fmt(statistics.median(est[t]['empty'])) for t in tools) + " |")
print("\n## Wall time to finish all four benchmarks (median over invocations)\n")
print("| | " + " | ".join(tools) + " |\n|---|" + "---:|" * len(tools))
print("| wall | " + " | ".join(f"{statistics.median(wall[t]):.2f} s" for t in tools) + " |")
print("\n## Estimates and their spread across invocations\n")
print("Mean estimate (median over invocations), then coefficient of variation and max/min of the "
      "estimate across invocations: lower spread is a more repeatable number.\n")
print("| body | " + " | ".join(f"{t} mean | {t} CV | {t} max/min" for t in tools) + " |")
print("|---|" + "---:|---:|---:|" * len(tools))
for b in BODIES:
    cells = []
    for t in tools:
        xs = est[t][b]
        m = statistics.median(xs)
        mean = statistics.fmean(xs)
        cv = statistics.stdev(xs) / mean if mean > 0 and len(xs) > 1 else float("nan")
        mm = max(xs) / min(xs) if min(xs) > 0 else float("inf")
        cells += [fmt(m), f"{100 * cv:.2f}%", f"{mm:.3f}"]
    print(f"| {b} | " + " | ".join(cells) + " |")
