"""Reads bench/load-compare.sh's results and writes its Markdown report on stdout.

Every verdict here is plumb compare's own, read from its --export-json document."""
import json
import os
import subprocess
import sys
from collections import Counter

PLUMB, OUT = os.environ["PLUMB"], os.environ["OUT"]
PAIRS, A, B = int(os.environ["PAIRS"]), os.environ["A"], os.environ["B"]
LEVELS = ["99.9%", "99%"]
SESOI = 0.02
SHOWN = ["p50", "p90", "p99"]


def compare(base, new, level, pair=None):
    """plumb compare's percentiles of the one load benchmark, by label."""
    cmp = os.path.join(OUT, "cmp.json")
    args = [PLUMB, "compare", base, new, "--confidence", level, "--export-json", cmp]
    if pair:
        args += ["--pair", pair]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        sys.exit(f"plumb compare {base} {new} failed: {r.stderr}")
    doc = json.load(open(cmp))
    (load,) = doc["load"]
    return {p["percentile"]: p for p in load["percentiles"]}


def single_run_copy(path):
    """The result as if it were one run: its runs dropped, all requests in one histogram."""
    doc = json.load(open(path))
    for b in doc["benchmarks"]:
        b["load"].pop("runs", None)
    single = path.replace(".json", "-single.json")
    json.dump(doc, open(single, "w"))
    return single


def pct(k, n):
    return f"{k} of {n} ({100 * k / n:.1f} %)"


def main():
    env = os.environ
    print("# Load comparisons between runs (bench/load-compare.sh)\n")
    print(
        f"A spin server (bench/spin-server.c, CPU 1) answers each request after "
        f"{env['WORK_A']} µs of work; plumb on CPU 0 loads it open-loop at {env['RATE']} req/s, "
        f"{env['DURATION']} a run after 0.5 s of warm-up, `--repeat {env['REPEAT']}`. "
        f"B is A with {env['WORK_B']} µs of work: 20 % of A's measured p50 "
        f"({float(env['P50_A']):.0f} µs) more. SESOI 2 %. {PAIRS} pairs of each kind, "
        f"taken in turn (same-server base, same-server new, A-B) so that drift falls on all.\n"
    )
    same = [(f"{OUT}/same-{i}-base.json", f"{OUT}/same-{i}-new.json") for i in range(1, PAIRS + 1)]
    ab = [f"{OUT}/ab-{i}.json" for i in range(1, PAIRS + 1)]
    ab = [p for p in ab if os.path.exists(p)]
    same = [s for s in same if os.path.exists(s[0]) and os.path.exists(s[1])]

    print("## The same server, compared with itself\n")
    print("| confidence | judgements faster/slower | pairs with any faster/slower | equivalent | inconclusive |")
    print("|---|---|---|---|---|")
    for level in LEVELS:
        verdicts, bad_pairs = Counter(), 0
        for base, new in same:
            ps = compare(base, new, level)
            v = [ps[k]["verdict"] for k in ps]
            verdicts.update(v)
            bad_pairs += any(x in ("faster", "slower") for x in v)
        n = sum(verdicts.values())
        wrong = verdicts["faster"] + verdicts["slower"]
        print(
            f"| {level} | {pct(wrong, n)} | {pct(bad_pairs, len(same))} | "
            f"{verdicts['equivalent']} | {verdicts['inconclusive']} |"
        )
    print(
        "\nJudgements: every percentile of every pair (p50 … p99.99; those with fewer than ten "
        "requests beyond them in a run are inconclusive by rule).\n"
    )

    print("## Before: one run per side, per-request intervals\n")
    print(
        "The same pairs, each side's runs pooled as if they were one run, judged by the "
        "interval that assumes independent requests (plumb before 0.13 gave this verdict; "
        "now it is shown, not judged by):\n"
    )
    print("| confidence | | " + " | ".join(SHOWN) + " |")
    print("|---|---|" + "---|" * len(SHOWN))
    for level in LEVELS:
        called = Counter()
        for base, new in same:
            ps = compare(single_run_copy(base), single_run_copy(new), level)
            for k in SHOWN:
                ci = ps[k]["ratio_ci"]
                if ci and (ci["lo"] > 1 + SESOI or ci["hi"] < 1 - SESOI):
                    called[k] += 1
        cells = " | ".join(pct(called[k], len(same)) for k in SHOWN)
        print(f"| {level} | would have called faster/slower | {cells} |")

    print("\n## Power: B is 20 % slower at p50\n")
    pair = f"GET {A}=GET {B}"
    print("| confidence | " + " | ".join(f"{k} called slower" for k in SHOWN) + " |")
    print("|---|" + "---|" * len(SHOWN))
    ratios = {k: [] for k in SHOWN}
    for level in LEVELS:
        slower = Counter()
        for path in ab:
            ps = compare(path, path, level, pair)
            for k in SHOWN:
                slower[k] += ps[k]["verdict"] == "slower"
                if level == LEVELS[0]:
                    ratios[k].append(ps[k]["ratio"])
        print(f"| {level} | " + " | ".join(pct(slower[k], len(ab)) for k in SHOWN) + " |")
    print("\nThe measured ratio B / A (geometric mean of the runs' percentiles), over the pairs:\n")
    print("| | " + " | ".join(SHOWN) + " |")
    print("|---|" + "---|" * len(SHOWN))
    for name, f in [("lowest", min), ("median", lambda xs: sorted(xs)[len(xs) // 2]), ("highest", max)]:
        print(f"| {name} | " + " | ".join(f"{f(ratios[k]):.3f}" for k in SHOWN) + " |")


main()
