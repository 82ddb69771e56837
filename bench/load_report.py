"""Reads what bench/load_run.py kept (the directory given, or OUT) and prints a Markdown
report: the highest rate each generator holds on schedule, plumb's own send lateness,
p50 at a low rate, the generator's CPU per request and plumb's memory over a run."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load_common import Kept, oha_holds  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else os.environ["OUT"]
RUNS = json.load(open(f"{OUT}/runs.json"))
POOL, SWEEP_S, SHORT_S = RUNS["pool"], RUNS["sweep_seconds"], RUNS["short_seconds"]


KEPT = Kept(OUT)
doc, load, plumb_holds, why_not = KEPT.doc, KEPT.load, KEPT.plumb_holds, KEPT.why_not


def sweep():
    print("## Highest rate held on schedule\n")
    print("plumb holds a rate when it exits 0 (no errors, its own send lateness p99 under 5 ms, not saturated "
          "while requests waited) and achieves ≥ 98 % of it; oha when it achieves ≥ 98 % with "
          f"`-q R --latency-correction` and no errors. Both with the same pool, {POOL} (plumb `--max-in-flight "
          f"{POOL}`, oha `-c {POOL}`): with their defaults (64 requests in flight, 50 connections) the pool "
          "fills at 100,000/s here, nginx's one worker queueing deeper than that now and then, and the sweep "
          "measures the server's concurrency instead of the generator. `--threads 2` shares CPU 1 here (nginx "
          "holds the other core), so it shows what threading costs, not how it scales.\n")
    print("| target rate | plumb achieved | lateness p99 | busy | holds | why not | plumb ×2 threads | holds "
          "| oha | holds | plumb, 64 in flight | holds | oha, 50 connections | holds |")
    print("|---:|---:|---:|---:|:---:|:---|---:|:---:|---:|:---:|---:|:---:|---:|:---:|")
    best = {"plumb": 0, "plumb2": 0, "oha": 0, "plumb64": 0, "oha50": 0}
    peak = {"plumb": 0.0, "oha": 0.0}
    yes = lambda b: "yes" if b else "no"
    for s in RUNS["sweep"]:
        rate = s["rate"]
        ok_p, late = plumb_holds(s["plumb"], rate)
        ok_p2, _ = plumb_holds(s["plumb2"], rate)
        ok_p64, _ = plumb_holds(s["plumb64"], rate)
        d, d50 = doc(s["oha"]), doc(s["oha50"])
        ok_o, ok_o50 = oha_holds(d, rate), oha_holds(d50, rate)
        for k, ok in (("plumb", ok_p), ("plumb2", ok_p2), ("oha", ok_o), ("plumb64", ok_p64), ("oha50", ok_o50)):
            best[k] = rate if ok else best[k]
        l, l2, l64 = load(s["plumb"]), load(s["plumb2"]), load(s["plumb64"])
        peak["plumb"] = max(peak["plumb"], l["achieved_rate"], l64["achieved_rate"])
        peak["oha"] = max(peak["oha"], d["summary"]["requestsPerSec"], d50["summary"]["requestsPerSec"])
        print(f"| {rate} | {l['achieved_rate']:.0f}/s | {late / 1e3:.3f} ms | {100 * l.get('generator_busy', 0):.0f} % "
              f"| {yes(ok_p)} | {'' if ok_p else why_not(s['plumb'])} | {l2['achieved_rate']:.0f}/s | {yes(ok_p2)} "
              f"| {d['summary']['requestsPerSec']:.0f}/s | {yes(ok_o)} "
              f"| {l64['achieved_rate']:.0f}/s | {yes(ok_p64)} "
              f"| {d50['summary']['requestsPerSec']:.0f}/s | {yes(ok_o50)} |")
    wrk_rps = float(re.search(r"Requests/sec:\s+([\d.]+)", open(f"{OUT}/{RUNS['wrk']}").read()).group(1))
    plumb_best, oha_best = max(best["plumb"], best["plumb64"]), max(best["oha"], best["oha50"])
    ratio = plumb_best / oha_best if oha_best else float("nan")
    print(f"\nHighest rate held, each generator with the better of its two pools: plumb {plumb_best}/s (1 thread; "
          f"{best['plumb']}/s with {POOL} in flight, {best['plumb64']}/s with 64), oha {oha_best}/s ({best['oha']}/s with "
          f"{POOL} connections, {best['oha50']}/s with 50): plumb/oha = {ratio:.2f} (of the rates tried). plumb with 2 "
          f"threads on one core: {best['plumb2']}/s. wrk's closed-loop maximum (1 thread, 64 connections, 10 s): "
          f"{wrk_rps:.0f}/s.\n")
    print(f"Highest rate achieved at any target (throughput, held or not): plumb {peak['plumb']:.0f}/s, oha "
          f"{peak['oha']:.0f}/s: plumb/oha = {peak['plumb'] / peak['oha']:.2f}. Where plumb does not hold a rate, its "
          "own findings say whose limit it met: with its send lateness far under 1 ms, a full in-flight bound is "
          "nginx (one worker, one core) not keeping up, which wrk's closed-loop maximum bounds.\n")


def lateness():
    print("## Send lateness at 50,000 req/s (three runs of 5 s)\n")
    lates = [load(r)["send_lateness"]["percentiles"]["p99"] / 1e3 for r in RUNS["late50k"]]
    print("plumb's own send lateness p99: " + ", ".join(f"{x:.0f} µs" for x in lates) +
          f" (goal: under 1 ms; worst {max(lates) / 1e3:.3f} ms).\n")


def p50():
    print(f"## p50 at 1,000 req/s ({SHORT_S} s each, rotating)\n")
    print("plumb by default sleeps on a timerfd to 100 µs before each due time; `--spin 2ms` keeps its thread "
          "polling between requests, so answers are read by a hot thread.\n")
    print("| run | plumb p50 | plumb --spin 2ms p50 | oha p50 |\n|---:|---:|---:|---:|")
    pp, ps, op = [], [], []
    for i, r in enumerate(RUNS["p50"]):
        pp.append(load(r["plumb"])["latency"]["percentiles"]["p50"] / 1e3)
        ps.append(load(r["spin"])["latency"]["percentiles"]["p50"] / 1e3)
        op.append(doc(r["oha"])["latencyPercentiles"]["p50"] * 1e6)
        print(f"| {i + 1} | {pp[-1]:.1f} µs | {ps[-1]:.1f} µs | {op[-1]:.1f} µs |")
    med = lambda xs: sorted(xs)[len(xs) // 2]
    print(f"\nMedian: plumb {med(pp):.1f} µs, plumb --spin {med(ps):.1f} µs, oha {med(op):.1f} µs "
          f"(ratios to oha {med(pp) / med(op):.3f} and {med(ps) / med(op):.3f}).\n")


def cpu():
    print(f"## Generator CPU time per 10,000 requests (1,000 req/s for {SHORT_S} s)\n")
    c = RUNS["cpu"]
    l, l0 = load(c["plumb"]), load(c["nospin"])
    per_10k = lambda run, ok: 1e4 * run["cpu_seconds"] / max(ok, 1) * 1e3
    p_cpu, p0_cpu = per_10k(c["plumb"], l["ok"]), per_10k(c["nospin"], l0["ok"])
    # oha sends on schedule: 1,000 requests a second.
    o_cpu = per_10k(c["oha"], 1000 * SHORT_S)
    late = lambda x: x["send_lateness"]["percentiles"]["p99"] / 1e3
    print(f"plumb {p_cpu:.0f} ms (send lateness p99 {late(l):.0f} µs); "
          f"plumb --spin 0s {p0_cpu:.0f} ms (lateness p99 {late(l0):.0f} µs); "
          f"oha {o_cpu:.0f} ms (user + system CPU of the generator process, per 10,000 requests; ratios to oha "
          f"{p_cpu / o_cpu:.2f} and {p0_cpu / o_cpu:.2f}). By default plumb polls for the last stretch before each "
          "due time (at most 100 µs, less when its timer wakes punctually): this machine's timer wakes 50–100 µs "
          "late, so punctuality costs about that much CPU per request at low rates.\n")


def memory():
    rss = RUNS["rss_kib"]
    at = sorted(rss, key=float)
    print(f"## plumb memory during a {RUNS['memory_seconds']} s run at 1,000 req/s\n")
    print("; ".join(f"RSS after {a} s: {rss[a] / 1024:.1f} MiB" for a in at) +
          f" ({100 * (rss[at[-1]] - rss[at[-2]]) / rss[at[-2]]:+.1f} % from {at[-2]} s to {at[-1]} s). The recorder "
          "holds open only the seconds that can still receive answers (timeout + 2 s); each finished second is kept "
          "as a compressed histogram (for the timeline, the interval log and block comparisons), so memory grows "
          "by that much a second and no more.")


print("# plumb load vs wrk and oha (nginx on loopback)\n")
print(f"{RUNS['cpu_model']}; nginx (1 worker) on CPU 0, every generator on CPU 1; {SWEEP_S} s per rate, "
      "plumb 1 thread, plumb 2 threads and oha one after the other at each rate.\n")
sweep()
lateness()
p50()
cpu()
memory()
