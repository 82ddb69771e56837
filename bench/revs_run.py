"""Runs bench/revs.sh's experiments and prints the Markdown report (see revs.sh).

Every figure is measured here, on this machine, by running plumb (and hyperfine) on git
repositories this script makes, with two programs of about 30 ms whose own spread is 2 %
(a factor 1 + 0.02·z, z standard normal drawn per run from /dev/urandom):
- spin: a CPU-bound loop of WORK iterations — it sees the host's changes of speed too,
  whatever they are on the day (the report gives the spread measured);
- sleep: nanosleep for WORK microseconds — the spread is the 2 % asked, so the design is
  measured at the CV the issue names, whatever the host's CPU does.
"""
import json
import math
import os
import statistics
import subprocess
import sys
import time

from scipy import stats

from revs_common import (BUILD, binomial_interval, configure, iterations_for, make_repo,
                         own_cv, revs, sh, timed)

PLUMB, WORK_DIR, PAIRS, REPS = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
configure(PLUMB, WORK_DIR)


def naive_different(doc, alpha=0.05):
    """The rule without spending: at each of the design's looks, Welch's t on every run of
    both sides so far at `alpha`; different as soon as one look says so."""
    a = doc["benchmarks"][0]["samples"]["values"]["wall-time"]
    b = doc["benchmarks"][1]["samples"]["values"]["wall-time"]
    m = doc["revisions"]["design"]["runs_per_round"]
    rounds = len(a) // m
    for k in doc["revisions"]["design"]["looks"]:
        if k > rounds:
            break
        if stats.ttest_ind(a[: k * m], b[: k * m], equal_var=False).pvalue < alpha:
            return True
    return False


def a_a(work, kind):
    d, _ = make_repo(f"aa-{kind}", [work, work], kind=kind)
    revs(d, "HEAD~1", "HEAD")  # builds both once; not counted
    rows = [revs(d, "HEAD~1", "HEAD") for _ in range(PAIRS)]
    verdicts = [r[0] for r in rows]
    different = sum(v in ("slower", "faster") for v in verdicts)
    naive = sum(naive_different(r[4]) for r in rows)
    lo, hi = binomial_interval(different, PAIRS)
    print(f"## A/A: the same program at two commits ({kind})\n")
    print(f"{PAIRS} pairs, each a fresh `plumb revs HEAD~1 HEAD` (α = 0.001, SESOI 2 %); the program's own spread 2 %, measured spread {100 * statistics.median(own_cv(r[4]) for r in rows):.1f} % (median).\n")
    print("| verdict | pairs |\n|---|---:|")
    for v in ("equivalent", "inconclusive", "slower", "faster"):
        print(f"| {v if v != 'inconclusive' else 'unknown at the cap'} | {verdicts.count(v)} |")
    print(f"\nCalled different: **{different} of {PAIRS}** ({100 * different / PAIRS:.1f} %, 95 % interval {100 * lo:.1f}–{100 * hi:.1f} %; goal ≤ 1 %).")
    print(f"Median rounds {statistics.median(r[1] for r in rows):g}, median wall time {statistics.median(r[3] for r in rows):.1f} s per pair.")
    print(f"\nThe naive rule on the same runs (Welch's t at α = 0.05 at every look, no spending, no SESOI) calls **{naive} of {PAIRS}** different.\n")


def effects(work, kind, reps):
    print(f"## Rounds and time to settle a change ({kind})\n")
    print(f"{reps} runs of `plumb revs HEAD~1 HEAD` per effect; a round is each side's runs for about 300 ms (5 to 50 runs) (the design's looks at 10, 15, …, 60 rounds). Time is the whole command: builds reused, warm-up, trial runs and rounds.\n")
    print("| B slower by | slower | equivalent | unknown | median rounds | median wall time | slowest |\n|---:|---:|---:|---:|---:|---:|---:|")
    five = None
    for pct in (2, 5, 10):
        d, _ = make_repo(f"e{pct}-{kind}", [work, int(work * (1 + pct / 100))], kind=kind)
        revs(d, "HEAD~1", "HEAD")
        rows = [revs(d, "HEAD~1", "HEAD") for _ in range(reps)]
        v = [r[0] for r in rows]
        print(f"| +{pct} % | {v.count('slower')} | {v.count('equivalent')} | {v.count('inconclusive')} | {statistics.median(r[1] for r in rows):g} | {statistics.median(r[3] for r in rows):.1f} s | {max(r[3] for r in rows):.1f} s |")
        if pct == 5:
            five = (d, rows)
    d, rows = five
    settled = sum(r[0] == "slower" for r in rows)
    print(f"\n+5 % ({kind}, measured spread {100 * statistics.median(own_cv(r[4]) for r in rows):.1f} %) on a {statistics.median(statistics.mean(r[4]['benchmarks'][0]['samples']['values']['wall-time']) for r in rows) / 1e6:.1f} ms command: called slower in {settled} of {len(rows)}, each run taking a median {statistics.median(r[3] for r in rows):.1f} s, at most {max(r[3] for r in rows):.1f} s (goal: settled in under 60 s at a 2 % spread).")
    print("+2 % sits on the SESOI itself: unknown (or either verdict, each side of the margin) is the right answer there, not a failure.\n")
    hyperfine_peer(d)


def hyperfine_peer(d):
    """hyperfine on the same two builds, as its users run it."""
    dirs = sorted(os.path.join(d, ".plumb/revs", e, "wt") for e in os.listdir(os.path.join(d, ".plumb/revs")) if len(e) == 16)
    out = os.path.join(WORK_DIR, "hf.json")
    seconds = timed(lambda: sh(["hyperfine", "-N", "--export-json", out, *(os.path.join(x, "prog") for x in dirs)], d))
    res = json.load(open(out))["results"]
    ms = [(r["mean"] * 1e3, r["stddev"] * 1e3) for r in res]
    print(f"hyperfine {sh(['hyperfine', '--version'], d).stdout.split()[1]} on the same two builds with its defaults took {seconds:.1f} s: {ms[0][0]:.2f} ± {ms[0][1]:.2f} ms against {ms[1][0]:.2f} ± {ms[1][1]:.2f} ms (mean ± σ; which build is which is not said here, hyperfine's order) — a ratio and no verdict: whether 5 % is beyond noise is left to the reader.\n")


def bisects(work, kind):
    print("## Bisection over 20 commits\n")
    print("A history with results at commits 0–9 (old level) and 30–39 (new, 5 % slower), none for the 20 between (as when CI skipped them); the program 5 % slower from commit k. The history's points are written by the script (this host's speed changes between runs would hide a 5 % step from any history); `plumb history changes --confirm` then re-runs the two ends for real and bisects the 20 commits.\n")
    print(f"The program: {kind}.\n")
    print("| first slower commit | found | comparisons | builds |\n|---:|---|---:|---:|")
    worst = 0
    for k in (11, 17, 24, 30):
        works = [work if i < k else int(work * 1.05) for i in range(40)]
        d, commits = make_repo(f"b{k}", works, kind=kind)
        for i in list(range(10)) + list(range(30, 40)):
            # The history's points are written, not measured: this host's speed changes
            # between runs (±30 % here) would hide a 5 % step from any history; the
            # confirmation and the bisection below are real runs.
            level = 0.030 * (1.05 if i >= k else 1.0) * (1 + 0.004 * math.sin(7 * i))
            out = os.path.join(WORK_DIR, f"h{k}_{i}.json")
            sh([PLUMB, "run", "--debug-fake-runs", "--runs", "10", "-n", "prog", f"sleep {level:.6f}", "--export-json", out], WORK_DIR)
            sh([PLUMB, "history", "add", out, "--commit", commits[i]], d)
        p = sh([PLUMB, "history", "changes", "--confirm", "--build", BUILD, "--", "./prog"], d, check=False)
        if os.environ.get("DEBUG"):
            print(p.stdout, p.stderr, file=sys.stderr)
        note = next((l for l in p.stderr.splitlines() if "bisected to" in l or "unresolved" in l), "")
        found = commits[k][:10] in note and "bisected to" in note
        comparisons = int(note.split(" comparisons")[0].split()[-1]) if "comparisons" in note else 0
        builds = int(note.split(" builds")[0].split()[-1]) if " builds" in note else 0
        worst = max(worst, builds)
        print(f"| {k} | {'yes' if found else 'no: ' + note} | {comparisons} | {builds} |")
    goal = math.ceil(math.log2(20)) + 2
    print(f"\nBuilds (each a distinct commit built once; both ends included): at most **{worst}** (goal ≤ ⌈log2 20⌉ + 2 = {goal}).\n")


if __name__ == "__main__":
    parts = os.environ.get("PARTS", "aa,effects,bisect").split(",")
    spin = iterations_for(30)
    sleep = 30_000
    print(f"The programs: spin, {spin} iterations (about 30 ms here); sleep, {sleep} µs.\n")
    if "aa" in parts:
        a_a(sleep, "sleep")
        a_a(spin, "spin")
    if "effects" in parts:
        effects(sleep, "sleep", REPS)
        effects(spin, "spin", max(3, REPS // 2))
    if "bisect" in parts:
        bisects(sleep, "sleep")
