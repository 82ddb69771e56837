"""Reads what bench/inprocess_run.py kept (the directory given, or OUT) and prints a
Markdown report of how repeatable each harness's number is across invocations.

The design: ROUNDS rounds, each one invocation of every tool, the order rotated, so the
invocations of two tools in one round are adjacent in time. The spread of a tool's
estimate is its coefficient of variation (CV) over the rounds. Two tools are compared by
the ratio of their CVs, with a 95 % interval from a bootstrap that resamples whole
rounds (keeping each round's invocations together, so a slow hour of the machine
weighs on both): an interval that excludes 1 is a difference. A CV from the successive
differences (√(mean((x[i+1] − x[i])²) / 2) / mean, von Neumann's) is shown beside it:
slow drift of the machine inflates the plain CV but not this one.

Also per body: the wall-time ratio; how often an invocation's estimate falls outside
another invocation's reported interval (plumb-bench reports 99.9 %, criterion 95 %): an
honest interval is missed by other invocations about as often as its level says; and
the same samples through other estimators (criterion's raw samples: its mean of
per-sample means, its slope, the ratio of sums, the median; plumb-bench's samples: its
mean, the median of per-sample means), which separates the estimator from the samples.
"""
import json
import os
import random
import re
import statistics
import sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.environ["OUT"]
RUNS = json.load(open(f"{OUT}/runs.json"))
ROUNDS = RUNS["rounds"]
BODIES = [b for b in RUNS["bodies"] if b != "empty"]
TOOLS = RUNS["tools"]
UNITS = {"ps": 1e-3, "ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
BOOT = 4000
rng = random.Random(1)


# Student's t at 0.9995 (a two-sided 99.9 % interval) by degrees of freedom (scipy's
# t.ppf(0.9995, df)): plumb-bench's interval is over its launch means (df = launches − 1)
# or, in one process, over 10 batch means (df 9) when there are 20 samples or more.
T_9995 = {1: 636.619, 2: 31.599, 3: 12.924, 4: 8.610, 5: 6.869, 6: 5.959, 7: 5.408,
          8: 5.041, 9: 4.781, 10: 4.587, 11: 4.437, 12: 4.318, 13: 4.221, 14: 4.140,
          19: 3.883, 29: 3.659}


def t_9995(df):
    if df in T_9995:
        return T_9995[df]
    from scipy.stats import t  # only for launch counts the table does not hold
    return float(t.ppf(0.9995, df))


def plumb_t(b, n):
    launches = len((b.get("function") or {}).get("launch_sample_counts") or [])
    if launches >= 2:
        return t_9995(launches - 1)
    return T_9995[9] if n >= 20 else 3.2905


def launch_means(per, counts):
    out, at = [], 0
    for n in counts:
        out.append(statistics.fmean(per[at:at + n]))
        at += n
    return out


def read_plumb(path):
    doc = json.load(open(f"{OUT}/{path}"))
    res = {}
    for b in doc["benchmarks"]:
        st = b["stats"]["wall-time"]
        times = b["samples"]["values"]["wall-time"]
        # Absent when every sample is one iteration.
        iters = b["samples"].get("iterations") or [1] * len(times)
        per = [t / n for t, n in zip(times, iters)]
        counts = (b.get("function") or {}).get("launch_sample_counts") or []
        res[b["name"]] = {"mean": st["summary"]["mean"], "median": st["summary"]["median"],
                          "launch_means": launch_means(per, counts),
                          # One process's samples cut in 10 consecutive runs: spread over the
                          # same span of time as launches, but in one process.
                          "segment_means": [] if counts else launch_means(per, [len(per) // 10] * 10),
                          "ci": (st["mean_ci"]["lo"], st["mean_ci"]["hi"]), "n": len(times),
                          "z": plumb_t(b, len(times)),
                          "alt": {"mean of per-sample means": statistics.fmean(per),
                                  "median of per-sample means": statistics.median(per)}}
    return res


def read_criterion(path):
    res = {}
    for b in RUNS["bodies"]:
        est = json.load(open(f"{OUT}/{path}/{b}/estimates.json"))
        raw = json.load(open(f"{OUT}/{path}/{b}/sample.json"))
        xs, ts = raw["iters"], raw["times"]
        per = [t / n for t, n in zip(ts, xs)]
        ci = est["mean"]["confidence_interval"]
        res[b] = {"mean": est["mean"]["point_estimate"], "median": est["median"]["point_estimate"],
                  "ci": (ci["lower_bound"], ci["upper_bound"]), "n": len(ts),
                  # criterion's bootstrap interval; its standard error is kept beside it.
                  "se": est["mean"]["standard_error"],
                  "alt": {"mean of per-sample means": statistics.fmean(per),
                          "slope through 0": sum(x * t for x, t in zip(xs, ts)) / sum(x * x for x in xs),
                          "ratio of sums": sum(ts) / sum(xs),
                          "median of per-sample means": statistics.median(per)}}
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
        res[m.group(1)] = {"median": ns(cells[2]), "mean": ns(cells[3])}
    return res


READ = {"plumb-bench": read_plumb, "criterion": read_criterion, "divan": read_divan}
# by[tool][round] = (estimates by body, wall seconds)
by = {t: {} for t in TOOLS}
for inv in RUNS["invocations"]:
    by[inv["tool"]][inv["round"]] = (READ[inv["reader"]](inv["path"]), inv["wall_seconds"])
rounds = sorted(set.intersection(*(set(v) for v in by.values())))


def series(tool, body, stat, rs=None):
    return [by[tool][r][0][body][stat] for r in (rs or rounds)]


def cv(xs):
    return statistics.pstdev(xs) / statistics.fmean(xs) if len(xs) > 1 else float("nan")


def cv_successive(xs):
    d = [(b - a) ** 2 for a, b in zip(xs, xs[1:])]
    return (statistics.fmean(d) / 2) ** 0.5 / statistics.fmean(xs) if d else float("nan")


def boot_rounds():
    for _ in range(BOOT):
        yield [rng.choice(rounds) for _ in rounds]


def interval(values):
    values = sorted(values)
    return values[int(0.025 * len(values))], values[int(0.975 * len(values)) - 1]


def ratio_ci(tool, base, body, stat):
    point = cv(series(tool, body, stat)) / cv(series(base, body, stat))
    rs = [cv(series(tool, body, stat, b)) / max(cv(series(base, body, stat, b)), 1e-12) for b in boot_rounds()]
    return point, interval(rs)


def fmt_ns(x):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3), ("ns", 1.0)):
        if x >= scale:
            return f"{x / scale:.3g} {unit}"
    return f"{x:.3g} ns"


def verdict(lo, hi):
    return "lower" if hi < 1 else "higher" if lo > 1 else "can't tell"


def main():
    print("# In-process harnesses side by side: repeatability")
    print()
    print(f"{RUNS['cpu']}; {len(rounds)} rounds, each one invocation of every tool ({', '.join(TOOLS)}), "
          "the order rotated round by round. Each tool's own defaults (criterion: 3 s warm-up + 5 s per "
          "benchmark, 100 samples; divan: 100 samples; plumb-bench: ten fresh processes (launches), each taking "
          "every benchmark with a warm-up to steady state and 50 ms of samples, the mean's interval over the "
          "launch means; --launches 1, the default before issue 30: one process, samples until the mean's "
          "batch-means interval is within ±2 % or 3 s; --quick: one process, 2 ms of samples). Re-run with "
          "`bash bench/inprocess.sh` (ROUNDS, TOOLS). Bodies: `bench/inprocess/src/lib.rs`; `empty` is left out "
          "(the compiler deletes it; plumb-bench says so).")
    print()
    spread_tables()
    wall_table()
    coverage_table()
    within_between_table()
    estimator_table()
    process_table()
    stopping_table()
    position_table()


def spread_tables():
    for stat in ("mean", "median"):
        print(f"## Spread of the {stat} across invocations")
        print()
        print("CV over the rounds (and from successive differences); the ratio to criterion's CV with its 95 % "
              "bootstrap interval over rounds: below 1 is steadier than criterion.")
        print()
        print("| body | tool | estimate | CV | CV (successive) | ÷ criterion's CV [95 %] | |")
        print("|---|---|---:|---:|---:|---:|---|")
        for body in BODIES:
            for tool in TOOLS:
                xs = series(tool, body, stat)
                row = f"| {body} | {tool} | {fmt_ns(statistics.median(xs))} | {100 * cv(xs):.2f} % | {100 * cv_successive(xs):.2f} % |"
                if tool == "criterion":
                    row += " 1 | |"
                else:
                    p, (lo, hi) = ratio_ci(tool, "criterion", body, stat)
                    row += f" {p:.2f} [{lo:.2f}, {hi:.2f}] | {verdict(lo, hi)} |"
                print(row)
        print()


def wall_table():
    print("## Wall time for all the bodies")
    print()
    print("| tool | median wall time | ÷ criterion's [95 %] |")
    print("|---|---:|---:|")
    base = [by["criterion"][r][1] for r in rounds]
    for tool in TOOLS:
        w = [by[tool][r][1] for r in rounds]
        point = statistics.median(w) / statistics.median(base)
        boot = [statistics.median([by[tool][r][1] for r in b]) / statistics.median([by["criterion"][r][1] for r in b])
                for b in boot_rounds()]
        lo, hi = interval(boot)
        print(f"| {tool} | {statistics.median(w):.2f} s | {point:.3f} [{lo:.3f}, {hi:.3f}] |")
    print()


def coverage_table():
    print("## Reported intervals against other invocations")
    print()
    print("For every ordered pair of invocations of one tool: is the first one's mean outside the second "
          "one's reported interval of the mean? An interval honest about the variation between invocations "
          "is missed about as often as 1 − its level (plus the other estimate's own noise).")
    print()
    heads = [t for t in TOOLS if t in ("criterion",) or t.startswith("plumb-bench")]
    print("| body | " + " | ".join(f"{t} (level {'99.9' if t.startswith('plumb') else '95'} %)" for t in heads) + " |")
    print("|---|" + "---:|" * len(heads))
    for body in BODIES:
        cells = []
        for tool in heads:
            inv = [by[tool][r][0][body] for r in rounds]
            miss = sum(1 for i, a in enumerate(inv) for j, b in enumerate(inv)
                       if i != j and not (b["ci"][0] <= a["mean"] <= b["ci"][1]))
            pairs = len(inv) * (len(inv) - 1)
            cells.append(f"{100 * miss / pairs:.1f} % of {pairs}")
        print(f"| {body} | " + " | ".join(cells) + " |")
    print()


def within_between_table():
    print("## Within an invocation and between invocations")
    print()
    print("The standard error each invocation reports for its mean (its interval's half-width over z), as "
          "the median over rounds, against the standard deviation of the means between rounds. A ratio near 1: "
          "one invocation's noise explains the spread between invocations. Well above 1: something fixed per "
          "invocation (code and data placement, the frequency or neighbours of that moment) moves each "
          "invocation's number, and no number of samples in one invocation removes it.")
    print()
    print("| body | tool | SE within (median) | SD between | between ÷ within |")
    print("|---|---|---:|---:|---:|")
    for body in BODIES:
        for tool in [t for t in TOOLS if t.startswith("plumb-bench") or t == "criterion"]:
            inv = [by[tool][r][0][body] for r in rounds]
            se = statistics.median(x.get("se") or (x["ci"][1] - x["ci"][0]) / 2 / x["z"] for x in inv)
            sd = statistics.pstdev(x["mean"] for x in inv)
            print(f"| {body} | {tool} | {fmt_ns(se)} | {fmt_ns(sd)} | {sd / se if se else float('nan'):.1f} |")
    print()


def spearman(a, b):
    def ranks(xs):
        order = sorted(range(len(xs)), key=lambda i: xs[i])
        r = [0.0] * len(xs)
        for k, i in enumerate(order):
            r[i] = float(k)
        return r
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    den = (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
    return num / den if den else float("nan")


def process_table():
    launched, single = "plumb-bench", "plumb-bench --launches 1"
    if launched not in by or single not in by:
        return
    print("## A fresh process against more time in one")
    print()
    print("Within each invocation: the CV of the means of its 10 launches (fresh processes, one after another), "
          "against the CV of the means of 10 consecutive runs of samples in one process (--launches 1, its "
          "samples cut in ten): the median over the rounds. Both spans are of the same order of time; where the "
          "launches spread more, the process itself (code and data placement, address-space randomisation, "
          "huge pages) moves the number, and only more processes average it.")
    print()
    print("| body | CV of 10 launch means | CV of 10 runs in one process | ratio |")
    print("|---|---:|---:|---:|")
    for body in BODIES:
        a = statistics.median(cv(by[launched][r][0][body]["launch_means"]) for r in rounds)
        b = statistics.median(cv(by[single][r][0][body]["segment_means"]) for r in rounds)
        print(f"| {body} | {100 * a:.2f} % | {100 * b:.2f} % | {a / b:.1f} |")
    print()


def stopping_table():
    tool = "plumb-bench --launches 1"
    if tool not in by:
        return
    print("## The stopping rule")
    print()
    print("plumb-bench in one process (--launches 1) stops sampling when the mean's interval is within ±2 % "
          "(or at its cap), so how many "
          "samples an invocation takes depends on its noise. If the estimate moved with the number of samples "
          "(a noisy invocation sampling longer and landing elsewhere), the rank correlation below would be far "
          "from 0 (|ρ| above about 0.36 is unlikely by chance at 30 rounds).")
    print()
    print("| body | samples (min … max) | CV of the sample count | Spearman ρ (samples, mean) |")
    print("|---|---|---:|---:|")
    for body in BODIES:
        inv = [by[tool][r][0][body] for r in rounds]
        ns_ = [x["n"] for x in inv]
        print(f"| {body} | {min(ns_)} … {max(ns_)} | {100 * cv(ns_):.1f} % | {spearman(ns_, [x['mean'] for x in inv]):+.2f} |")
    print()


def position_table():
    print("## Order within a round")
    print()
    print("The mean estimate by the invocation's place in its round (the order rotates, so every tool runs "
          "in every place), relative to that tool's median: an effect of what ran just before (criterion's "
          "minute of load, say) shows as a place that is always higher or lower.")
    print()
    places = len(TOOLS)
    print("| body | tool | " + " | ".join(f"place {k + 1}" for k in range(places)) + " |")
    print("|---|---|" + "---:|" * places)
    for body in BODIES:
        for tool in TOOLS:
            med = statistics.median(series(tool, body, "mean"))
            cells = []
            for k in range(places):
                xs = [by[tool][inv["round"]][0][body]["mean"] for inv in RUNS["invocations"]
                      if inv["tool"] == tool and inv["round"] in rounds
                      and RUNS["tools"][(inv["round"] + k) % places] == tool]
                cells.append(f"{100 * (statistics.fmean(xs) / med - 1):+.1f} %" if xs else "-")
            print(f"| {body} | {tool} | " + " | ".join(cells) + " |")
    print()


def estimator_table():
    print("## The same samples through other estimators")
    print()
    print("CV over the rounds of each estimator computed from the samples each tool kept: where the CVs of "
          "one tool's estimators differ, the estimator matters; where they agree, the spread is in the samples.")
    print()
    print("| body | tool | estimator | CV |")
    print("|---|---|---|---:|")
    for body in BODIES:
        for tool in ("plumb-bench", "criterion"):
            if tool not in by:
                continue
            alts = by[tool][rounds[0]][0][body]["alt"]
            for name in alts:
                xs = [by[tool][r][0][body]["alt"][name] for r in rounds]
                print(f"| {body} | {tool} | {name} | {100 * cv(xs):.2f} % |")
    print()


main()
