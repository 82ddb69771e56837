"""Runs bench/before-after.sh's pairs and prints a Markdown report: each figure of the
previous plumb and of this one, with the ratio this / previous and its spread."""
import json, os, resource, statistics, subprocess, time

E = os.environ
OUT, PAIRS, RATE, DURATION, URL = E["OUT"], int(E["PAIRS"]), E["RATE"], E["DURATION"], E["URL"]
SIDES = {"previous": (E["OLD_PLUMB"], E["OLD_BENCH"]), "this": (E["NEW_PLUMB"], E["NEW_BENCH"])}
BODIES = ["empty", "add_one", "sum128", "spin_10us"]


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def harness(side, i):
    path = f"{OUT}/harness-{side}-{i}.json"
    start = time.monotonic()
    subprocess.run(["taskset", "-c", "0", SIDES[side][1], "--bench", "--export-json", path],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.monotonic() - start
    doc = json.load(open(path))
    means = {b["name"]: b["stats"]["wall-time"]["summary"]["mean"] for b in doc["benchmarks"]}
    return {"wall": wall, **means}


def lateness_p99_us(load):
    late = load["send_lateness"]
    if "percentiles" in late:  # format 3: ns
        return late["percentiles"]["p99"] / 1e3
    return late["percentiles_us"]["p99"]  # format 2: µs


def load(side, i):
    path = f"{OUT}/load-{side}-{i}.json"
    before = children_cpu()
    subprocess.run(["taskset", "-c", "0", SIDES[side][0], "load", URL, "--rate", RATE,
                    "--duration", DURATION, "--warmup", "1s", "--allow-late",
                    "--export-json", path],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cpu = children_cpu() - before
    l = json.load(open(path))["benchmarks"][0]["load"]
    requests = l["ok"] + sum(l.get("errors", {}).values())
    return {"achieved": l["achieved_rate"], "late_p99_us": lateness_p99_us(l),
            "cpu_ms_per_10k": 1e3 * cpu / max(requests, 1) * 1e4}


def pairs(run):
    got = {"previous": [], "this": []}
    for i in range(PAIRS):
        order = ["previous", "this"] if i % 2 == 0 else ["this", "previous"]
        for side in order:
            got[side].append(run(side, i))
    return got


def row(name, got, key, fmt):
    old = [g[key] for g in got["previous"]]
    new = [g[key] for g in got["this"]]
    ratios = [n / o for n, o in zip(new, old) if o > 0]
    med = statistics.median(ratios) if ratios else float("nan")
    lo, hi = (min(ratios), max(ratios)) if ratios else (float("nan"), float("nan"))
    return (f"| {name} | {fmt(statistics.median(old))} | {fmt(statistics.median(new))} "
            f"| ×{med:.3f} | ×{lo:.3f} … ×{hi:.3f} |")


h = pairs(harness)
l = pairs(load)
cpu = open("/proc/cpuinfo").read().split("model name")[1].split("\n")[0].strip(": \t")
print(f"# Before and after: plumb at {E['REV']} against this plumb\n")
print(f"`bash bench/before-after.sh` on {cpu}, {PAIRS} pairs of each, alternating "
      "(previous, this), (this, previous), …; medians over the pairs, and the ratio "
      "this / previous of each pair (median, lowest … highest). Below 1 is faster.\n")
print("## In-process harness (bench/inprocess, plumb-bench's default settings)\n")
print("| figure | previous | this | ratio (median) | ratio (range) |\n|---|---|---|---|---|")
ns = lambda v: (f"{v:.2e} ns" if v < 0.01 else f"{v:.3f} ns") if v < 1000 else f"{v / 1e3:.3f} µs"
for b in BODIES:
    print(row(f"{b}: mean per iteration", h, b, ns))
print(row("one invocation, wall time", h, "wall", lambda v: f"{v:.2f} s"))
print(f"\n## Load generator (`plumb load` at {RATE}/s for {DURATION}, spin-server with no work)\n")
print("| figure | previous | this | ratio (median) | ratio (range) |\n|---|---|---|---|---|")
print(row("achieved rate", l, "achieved", lambda v: f"{v:.0f}/s"))
print(row("send lateness p99", l, "late_p99_us", lambda v: f"{v:.1f} µs"))
print(row("CPU per 10,000 requests", l, "cpu_ms_per_10k", lambda v: f"{v:.0f} ms"))
