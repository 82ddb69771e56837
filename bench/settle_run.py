"""Runs bench/settle.sh's experiments and prints the Markdown report (see settle.sh).

The program is bench/revs_common.py's: a CPU loop (spin), 64 MiB walked at random
(memory), or a sleep, of about 12 ms here. Every figure printed is measured by this run.
"""
import json
import math
import os
import statistics
import sys

from revs_common import (binomial_interval, configure, make_repo, own_cv, revs, units_for)

PLUMB, WORK_DIR, RAW = sys.argv[1], sys.argv[2], sys.argv[3]
configure(PLUMB, WORK_DIR)
ENVN = lambda name, default: int(os.environ.get(name, default))
TRIALS_DESIGN, TRIALS, AA, AA_CYCLES = (ENVN("TRIALS_DESIGN", 6), ENVN("TRIALS", 10),
                                        ENVN("AA", 40), ENVN("AA_CYCLES", 20))
raw = {}


def half_width(look):
    """The last look's repeated interval as ± (geometric half-width), in %."""
    return 100 * (math.sqrt(look["interval"]["hi"] / look["interval"]["lo"]) - 1)


def last_look(doc):
    looks = doc["revisions"]["looks"]
    return looks[-1] if looks else None


def designs():
    print("## Which pairing: the same time, the narrowest interval\n")
    print(f"A/A pairs (the same program at two commits, no spread of its own: what varies is the host), {TRIALS_DESIGN} invocations of `plumb revs HEAD~1 HEAD --pairing P --sesoi 0.1% --max-time 15s` per program and pairing, so that none settles early and each gets the same 15 s of rounds. The width is the last look's repeated interval (99.9 %, spending over the looks); *ratios apart* is the spread (sd) of the invocations' ratios, which an interval narrower than it cannot be trusted to hold: two invocations of the same pair land that far apart.\n")
    print("| program | pairing | rounds | median width | ratios apart (sd) | intervals holding 1 | median own spread |\n|---|---|---:|---:|---:|---:|---:|")
    raw["designs"] = []
    for kind in ("spin", "memory", "sleep"):
        work = units_for(12, kind)
        d, _ = make_repo(f"design-{kind}", [work, work], noise=0.0, kind=kind)
        revs(d, "HEAD~1", "HEAD", ["--max-rounds", "10"])  # builds both; not counted
        for pairing in ("interleaved", "duet"):
            rows = []
            for _ in range(TRIALS_DESIGN):
                v, rounds, ended, secs, doc = revs(d, "HEAD~1", "HEAD", ["--pairing", pairing, "--sesoi", "0.1%", "--max-time", "15s", "--max-rounds", "300"])
                look = last_look(doc)
                rows.append({"rounds": rounds, "ratio": look["ratio"], "lo": look["interval"]["lo"], "hi": look["interval"]["hi"], "width": half_width(look), "cv": own_cv(doc), "seconds": secs, "pairing": doc["revisions"]["design"]["pairing"]})
            raw["designs"].append({"kind": kind, "pairing": pairing, "trials": rows})
            holding = sum(r["lo"] <= 1 <= r["hi"] for r in rows)
            apart = 100 * statistics.stdev(math.log(r["ratio"]) for r in rows)
            print(f"| {kind} | {pairing} | {statistics.median(r['rounds'] for r in rows):g} | ±{statistics.median(r['width'] for r in rows):.2f} % | {apart:.2f} % | {holding} of {len(rows)} | {100 * statistics.median(r['cv'] for r in rows):.1f} % |")
    print()


def verdict_table(title, rows, extra_cols=()):
    print(f"{title}\n")
    print("| trial | verdict | rounds | ratio | interval | wall time |" + "".join(f" {c} |" for c, _ in extra_cols))
    print("|---:|---|---:|---:|---|---:|" + "---:|" * len(extra_cols))
    for i, r in enumerate(rows, 1):
        extra = "".join(f" {f(r)} |" for _, f in extra_cols)
        print(f"| {i} | {r['verdict']} | {r['rounds']} | {r['ratio']:.4f} | [{r['lo']:.4f}, {r['hi']:.4f}] | {r['seconds']:.1f} s |{extra}")
    print()


def trial(d, extra, cycles=False):
    v, rounds, ended, secs, doc = revs(d, "HEAD~1", "HEAD", extra)
    look = last_look(doc) or {"ratio": float("nan"), "interval": {"lo": float("nan"), "hi": float("nan")}}
    row = {"verdict": v if ended == "settled" else f"unknown ({ended})", "rounds": rounds, "ratio": look["ratio"], "lo": look["interval"]["lo"], "hi": look["interval"]["hi"], "seconds": secs, "pairing": doc["revisions"]["design"]["pairing"]}
    if cycles:
        c = doc["comparisons"][0]
        k = next(k for k in c["counters"] if k["counter"] == "estimated-cycles")
        sim = doc["benchmarks"][1]["simulated"]
        row["cycles"] = {"verdict": k["verdict"], "ratio": k["ratio"], "interval": k.get("ratio_ci"), "runs": len(sim["samples"]["values"]["estimated-cycles"])}
    return row


def time_goal():
    work = units_for(12, "spin")
    print(f"## +5 % of a CPU-bound program, by wall time\n")
    print(f"The spin program, {work} iterations (about 12 ms here) with a 2 % spread of its own, B 5 % more; `plumb revs HEAD~1 HEAD --pairing duet` with the defaults (SESOI 2 %, 99.9 %, looks at 10, 15, …, 60 rounds). Goal: slower in at least 9 of 10 within 2 minutes; A/A: none of {AA} called different.\n")
    d, _ = make_repo("time-5", [work, int(work * 1.05)], kind="spin")
    revs(d, "HEAD~1", "HEAD", ["--max-rounds", "10"])
    rows = [trial(d, ["--pairing", "duet"]) for _ in range(TRIALS)]
    raw["time_5"] = rows
    verdict_table("### +5 %", rows)
    slower = sum(r["verdict"] == "slower" and r["seconds"] <= 120 for r in rows)
    print(f"Slower within 2 minutes: **{slower} of {len(rows)}**; median {statistics.median(r['seconds'] for r in rows):.1f} s.\n")
    d, _ = make_repo("time-aa", [work, work], kind="spin")
    revs(d, "HEAD~1", "HEAD", ["--max-rounds", "10"])
    rows = [trial(d, ["--pairing", "duet"]) for _ in range(AA)]
    raw["time_aa"] = rows
    verdict_table("### A/A", rows)
    different = sum(r["verdict"] in ("slower", "faster") for r in rows)
    lo, hi = binomial_interval(different, len(rows))
    print(f"Called different: **{different} of {len(rows)}** (95 % interval {100 * lo:.1f}–{100 * hi:.1f} %); equivalent {sum(r['verdict'] == 'equivalent' for r in rows)}, unknown {sum(r['verdict'].startswith('unknown') for r in rows)}.\n")


def cycles_goal():
    work = units_for(12, "spin")
    print("## +1 % of a CPU-bound program, by simulated cycles\n")
    print(f"The spin program, {work} iterations, no spread of its own (its work is deterministic; the host's speed is what varies), B 1 % more; `plumb revs HEAD~1 HEAD --gate cycles --sesoi 0.5% --max-time 20s` (3 simulated runs of each side after the rounds, the cycles judged over them). Goal: the cycles slower in 10 of 10 in under 60 s; A/A: none of {AA_CYCLES} called different by the cycles. The time's own verdict at SESOI 0.5 % is listed beside; the gate does not read it.\n")
    cols = (("cycles", lambda r: f"{r['cycles']['verdict']} ×{r['cycles']['ratio']:.5f}"),
            ("cycles interval", lambda r: "[{:.5f}, {:.5f}]".format(r["cycles"]["interval"]["lo"], r["cycles"]["interval"]["hi"]) if r["cycles"]["interval"] else "exact"))
    extra = ["--gate", "cycles", "--sesoi", "0.5%", "--max-time", "20s", "--pairing", "duet"]
    d, _ = make_repo("cycles-1", [work, int(work * 1.01)], noise=0.0, kind="spin")
    revs(d, "HEAD~1", "HEAD", ["--max-rounds", "10"])
    rows = [trial(d, extra, cycles=True) for _ in range(TRIALS)]
    raw["cycles_1"] = rows
    verdict_table("### +1 %", rows, cols)
    ok = sum(r["cycles"]["verdict"] == "slower" and r["seconds"] < 60 for r in rows)
    print(f"Cycles slower in under 60 s: **{ok} of {len(rows)}**; median {statistics.median(r['seconds'] for r in rows):.1f} s (rounds and simulations).\n")
    d, _ = make_repo("cycles-aa", [work, work], noise=0.0, kind="spin")
    revs(d, "HEAD~1", "HEAD", ["--max-rounds", "10"])
    rows = [trial(d, extra, cycles=True) for _ in range(AA_CYCLES)]
    raw["cycles_aa"] = rows
    verdict_table("### A/A", rows, cols)
    different = sum(r["cycles"]["verdict"] in ("slower", "faster") for r in rows)
    spread = [r["cycles"]["ratio"] for r in rows]
    print(f"Called different by the cycles: **{different} of {len(rows)}**; the A/A cycle ratios lay within ×{min(spread):.7f}–×{max(spread):.7f} (the simulation's own noise between invocations).\n")


if __name__ == "__main__":
    parts = os.environ.get("PARTS", "designs,time,cycles").split(",")
    for part, run in (("designs", designs), ("time", time_goal), ("cycles", cycles_goal)):
        if part in parts:
            run()
            # Kept after each part: a later part's failure loses nothing measured.
            with open(RAW, "w") as f:
                json.dump(raw, f, indent=1)
