"""Runs bench/calibration.sh's invocations and writes its report (Markdown) to stdout.

argv: plumb, work (bench/calibration/work.c built), a scratch directory, N, and the
in-process harnesses built from bench/inprocess: plumb-bench's and criterion's.
"""
import itertools
import json
import signal
import statistics
import subprocess
import sys
import time

from scipy import stats

# A stop unwinds (the hogs' `with` ends and kills them) instead of leaving them spinning.
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
PLUMB, WORK, DIR, N = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
HARNESS, CRITERION = sys.argv[5], sys.argv[6]
SPIN = 3_300_000  # about 6 ms here
WORKLOADS = {
    "spin (CPU, ~6 ms)": f"{WORK} spin {SPIN}",
    "sleep 5 ms": "sleep 0.005",
    "walk (memory, ~0.3 s)": f"{WORK} walk 24",
}
# The bodies of bench/inprocess/src/lib.rs each in-process harness measures, in one
# invocation of it.
BODIES = {
    "spin_10us": "spin_10us (CPU, ~10 µs)",
    "nap": "nap (sleep 200 µs)",
    "walk_64mib": "walk_64mib (memory, 256 loads)",
}
LEVEL = 0.999
FEWEST = 6  # plumb states the interval between runs once 5 earlier runs are kept


def run(args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def unlike(benchmark):
    """Whether plumb said this run's mean is unlike its recent runs (the interval between
    runs does not hold for it)."""
    return any(d.get("code") == "unlike-recent-runs" for d in benchmark.get("diagnostics", []))


def plumb_once(cmd, out, store):
    """(mean, lo, hi) of this run's interval, and (lo, hi) of the interval between runs
    plumb states once the store holds enough earlier runs (else None)."""
    run([PLUMB, "run", "--history", store, "--export-json", out, cmd])
    b = json.load(open(out))["benchmarks"][0]
    s = b["stats"]["wall-time"]
    between = s.get("between_runs")
    across = (between["mean_ci"]["lo"], between["mean_ci"]["hi"]) if between else None
    return s["summary"]["mean"], s["mean_ci"]["lo"], s["mean_ci"]["hi"], across, unlike(b)


def hyperfine_once(cmd, out, _store):
    run(["hyperfine", "-N", "--export-json", out, cmd])
    times = json.load(open(out))["results"][0]["times"]
    n, mean = len(times), statistics.fmean(times)
    half = stats.t.ppf(1 - (1 - LEVEL) / 2, n - 1) * statistics.stdev(times) / n**0.5
    return mean * 1e9, (mean - half) * 1e9, (mean + half) * 1e9, None, False


TOOLS = {"plumb run": plumb_once, "hyperfine": hyperfine_once}


def harness_once(store):
    """plumb-bench (its default: ten launches) on the bodies: {body's label: row}."""
    out = f"{DIR}/harness.json"
    run([HARNESS, "--bench", "--quiet", "--history", store, "--export-json", out, *BODIES])
    rows = {}
    for b in json.load(open(out))["benchmarks"]:
        s = b["stats"]["wall-time"]
        between = s.get("between_runs")
        across = (between["mean_ci"]["lo"], between["mean_ci"]["hi"]) if between else None
        rows[BODIES[b["name"]]] = (s["summary"]["mean"], s["mean_ci"]["lo"], s["mean_ci"]["hi"], across, unlike(b))
    return rows


def criterion_once(_store):
    """criterion 0.5 on the bodies, its bootstrap interval of the mean at 99.9 %."""
    crit = f"{DIR}/criterion"
    subprocess.run(["rm", "-rf", f"{crit}/target"], check=True)
    subprocess.run(["mkdir", "-p", crit], check=True)
    subprocess.run([CRITERION, "--bench", "--confidence-level", str(LEVEL), "|".join(BODIES)],
                   check=True, cwd=crit, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rows = {}
    for body, label in BODIES.items():
        m = json.load(open(f"{crit}/target/criterion/{body}/new/estimates.json"))["mean"]
        ci = m["confidence_interval"]
        rows[label] = (m["point_estimate"], ci["lower_bound"], ci["upper_bound"], None, False)
    return rows


HARNESSES = {"plumb-bench": harness_once, "criterion": criterion_once}


class Hogs:
    """Two CPU hogs for the busy machine (nothing when quiet)."""

    def __init__(self, busy):
        self.busy, self.procs = busy, []

    def __enter__(self):
        if self.busy:
            self.procs = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(2)]
            time.sleep(0.5)

    def __exit__(self, *_):
        for p in self.procs:
            p.kill()
            p.wait()


def invocations(busy):
    """{(tool, workload): [(mean, lo, hi, between)]}, N each, the order rotated every
    round; plumb keeps each workload's runs in a history store of its own (one per
    machine state), from which it measures the drift between runs."""
    state = "busy" if busy else "quiet"
    cells = list(itertools.product(TOOLS, WORKLOADS)) + [(h, None) for h in HARNESSES]
    got = {c: [] for c in itertools.product(TOOLS, WORKLOADS)}
    got.update({(h, label): [] for h in HARNESSES for label in BODIES.values()})
    with Hogs(busy):
        for i in range(N):
            k = i % len(cells)
            for tool, wl in cells[k:] + cells[:k]:
                if wl is None:
                    for label, row in HARNESSES[tool](f"{DIR}/{state}-inprocess.db").items():
                        got[(tool, label)].append(row)
                    continue
                store = f"{DIR}/{state}-{list(WORKLOADS).index(wl)}.db"
                got[(tool, wl)].append(TOOLS[tool](WORKLOADS[wl], f"{DIR}/out.json", store))
    return got


def coverage(rows, interval, said=False):
    """The share of other invocations' means inside each invocation's interval (those
    invocations that state one), and how many stated one; with `said`, leaving out the
    invocations plumb said were unlike their recent runs."""
    inside = total = stated = 0
    for i, row in enumerate(rows):
        ci = interval(row)
        if ci is None:
            continue
        stated += 1
        for j, other in enumerate(rows):
            if i != j and not (said and other[4]):
                total += 1
                inside += ci[0] <= other[0] <= ci[1]
    return (inside / total if total else float("nan")), stated


def verdicts(busy):
    """{delta: [verdict]} of interleaved `plumb run A B`, A the spin, B it times 1 + delta."""
    out = {}
    with Hogs(busy):
        for d in (0.0, 0.02, 0.05, 0.10):
            got = []
            for i in range(N):
                b = f"{WORK} spin {round(SPIN * (1 + d))}"
                path = f"{DIR}/pair.json"
                # A/A: the same binary under a second name (plumb refuses one command
                # twice; a wrapper such as env would add its own exec).
                a = f"{WORK}-a spin {SPIN}"
                run([PLUMB, "run", "--export-json", path, a, b])
                got.append(json.load(open(path))["comparisons"][0]["verdict"])
            out[d] = got
    return out


# Every invocation's (mean, this run's lo and hi, the interval between runs or null,
# said unlike its recent runs), kept beside the report.
RAW = {}


def main():
    print("# Calibration: do the intervals hold on the next invocation?")
    print()
    print(f"Written by `bash bench/calibration.sh` (N={N} invocations per cell, adjacent in time, order rotated).")
    cpu = subprocess.getoutput("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2").strip()
    day = time.strftime("%Y-%m-%d", time.gmtime())
    print(f"Machine: {subprocess.getoutput('nproc')} cores, {cpu}; {day}.")
    print("An honest 99.9 % interval of one invocation's mean holds about 98 % of other invocations' means (the other mean is as noisy as this one).")
    print(f"plumb run and plumb-bench keep each workload's runs (`--history`): from the {FEWEST}th on, a run states the interval between runs (this run's error and the drift its earlier runs measured, Student's t over them) beside its own; hyperfine and criterion (its bootstrap interval of the mean, `--confidence-level 0.999`) state only their own.")
    print()
    for busy in (False, True):
        state = "beside two CPU hogs" if busy else "as it is (quiet)"
        got = invocations(busy)
        RAW["busy" if busy else "quiet"] = {f"{t} | {w}": rows for (t, w), rows in got.items()}
        print(f"## The machine {state}")
        print()
        print("| tool | workload | CV of the means | this run's ± (median) | other means inside this run's interval | between runs ± (median) | other means inside the interval between runs (invocations stating one) |")
        print("|---|---|---|---|---|---|---|")
        for (tool, wl), rows in got.items():
            means = [r[0] for r in rows]
            cv = statistics.stdev(means) / statistics.fmean(means)
            half = statistics.median((r[2] - r[1]) / 2 / r[0] for r in rows)
            own, _ = coverage(rows, lambda r: (r[1], r[2]))
            across, stated = coverage(rows, lambda r: r[3])
            halves = [(r[3][1] - r[3][0]) / 2 / r[0] for r in rows if r[3]]
            if halves:
                flagged = sum(r[4] for r in rows)
                kept, _ = coverage(rows, lambda r: r[3], said=True)
                also = f"; {kept:.0%} without the {flagged} plumb said were unlike their recent runs" if flagged else ""
                between = f"±{statistics.median(halves):.2%} | {across:.0%} ({stated} of {len(rows)}){also}"
            else:
                between = "- | - (not stated)"
            print(f"| {tool} | {wl} | {cv:.2%} | ±{half:.2%} | {own:.0%} | {between} |")
        print()
        v = verdicts(busy)
        print("Interleaved `plumb run A B` of the spin against itself and a slower spin (verdict counts):")
        print()
        print("| B | faster | slower | equivalent | inconclusive |")
        print("|---|---|---|---|---|")
        for d, got_v in v.items():
            c = {k: got_v.count(k) for k in ("faster", "slower", "equivalent", "inconclusive")}
            label = "A itself (A/A)" if d == 0 else f"+{d:.0%}"
            print(f"| {label} | {c['faster']} | {c['slower']} | {c['equivalent']} | {c['inconclusive']} |")
        print()


main()
json.dump(RAW, open(f"{DIR}/raw.json", "w"), indent=1)
