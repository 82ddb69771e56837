"""Runs the load generators (see bench/load-vs-peers.sh) and prints a Markdown report."""
import json
import os
import re
import resource
import subprocess
import time

PLUMB, OUT, URL = os.environ["PLUMB"], os.environ["OUT"], os.environ["URL"]
PIN = ["taskset", "-c", "1"]
RATES = [20000, 40000, 60000, 80000, 90000, 100000, 110000, 120000, 130000]
SWEEP_S = 5
# Requests in flight (plumb) and connections (oha) in the sweep. Their defaults (64, 50)
# fill at 100,000/s here: nginx's one worker at ~85 % of its closed-loop maximum queues
# deeper than that now and then, and the sweep then measures the server's concurrency
# rather than the generator. The same larger pool for both measures the generators.
POOL = 256


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def plumb(rate, secs, name, warmup=1, extra=()):
    """One plumb run; its load result and exit code (0: every gate passed)."""
    path = f"{OUT}/{name}.json"
    p = subprocess.run(PIN + [PLUMB, "load", URL, "--rate", str(rate), "--duration", f"{secs}s",
                              "--warmup", f"{warmup}s", "--export-json", path, *extra],
                       capture_output=True)
    if p.returncode not in (0, 1):
        raise SystemExit(f"plumb failed ({p.returncode}): {p.stderr.decode()}")
    return json.load(open(path))["benchmarks"][0]["load"], p.returncode


def oha(rate, secs, extra=()):
    p = subprocess.run(PIN + ["oha", "-z", f"{secs}s", "-q", str(rate), "--latency-correction", "--no-tui",
                              "--output-format", "json", *extra, URL], check=True, capture_output=True, text=True)
    return json.loads(p.stdout)


def plumb_holds(l, code, rate):
    late = l["send_lateness"]["percentiles"]["p99"] / 1e3
    errors = sum(l["errors"].values())
    return code == 0 and l["achieved_rate"] >= 0.98 * rate and late < 5000 and errors == 0, late


def oha_holds(d, rate):
    s = d["summary"]
    return s["requestsPerSec"] >= 0.98 * rate and s["successRate"] == 1.0


print("# plumb load vs wrk and oha (nginx on loopback)\n")
cpu = open("/proc/cpuinfo").read().split("model name")[1].split("\n")[0].strip(": \t")
print(f"{cpu}; nginx (1 worker) on CPU 0, every generator on CPU 1; {SWEEP_S} s per rate, "
      "plumb 1 thread, plumb 2 threads and oha one after the other at each rate.\n")

print("## Highest rate held on schedule\n")
print("plumb holds a rate when it exits 0 (no errors, its own send lateness p99 under 5 ms, not saturated "
      "while requests waited) and achieves ≥ 98 % of it; oha when it achieves ≥ 98 % with "
      f"`-q R --latency-correction` and no errors. Both with the same pool, {POOL} (plumb `--max-in-flight "
      f"{POOL}`, oha `-c {POOL}`): with their defaults (64 requests in flight, 50 connections) the pool "
      "fills at 100,000/s here, nginx's one worker queueing deeper than that now and then, and the sweep "
      "measures the server's concurrency instead of the generator. `--threads 2` shares CPU 1 here (nginx "
      "holds the other core), so it shows what threading costs, not how it scales.\n")
print("| target rate | plumb achieved | lateness p99 | busy | holds | why not | plumb ×2 threads | holds "
      f"| oha | holds | plumb, 64 in flight | holds | oha, 50 connections | holds |")
print("|---:|---:|---:|---:|:---:|:---|---:|:---:|---:|:---:|---:|:---:|---:|:---:|")
best = {"plumb": 0, "plumb2": 0, "oha": 0, "plumb64": 0, "oha50": 0}
peak = {"plumb": 0.0, "oha": 0.0}


def why_not(name):
    """What plumb's own findings blame when it does not hold a rate."""
    d = json.load(open(f"{OUT}/{name}.json"))["benchmarks"][0]["diagnostics"]
    codes = [x["code"] for x in d if x["severity"] != "info"]
    if "generator-behind" in codes:
        return "generator behind"
    if "in-flight-bound-full" in codes:
        return "server: in-flight bound full"
    return ", ".join(codes)
yes = lambda b: "yes" if b else "no"
for rate in RATES:
    pool = ["--max-in-flight", str(POOL)]
    l, code = plumb(rate, SWEEP_S, f"sweep-{rate}", extra=pool)
    ok_p, late = plumb_holds(l, code, rate)
    l2, code2 = plumb(rate, SWEEP_S, f"sweep2-{rate}", extra=pool + ["--threads", "2"])
    ok_p2, _ = plumb_holds(l2, code2, rate)
    d = oha(rate, SWEEP_S, extra=["-c", str(POOL)])
    ok_o = oha_holds(d, rate)
    l64, code64 = plumb(rate, SWEEP_S, f"sweep64-{rate}")
    ok_p64, _ = plumb_holds(l64, code64, rate)
    d50 = oha(rate, SWEEP_S)
    ok_o50 = oha_holds(d50, rate)
    for k, ok in (("plumb", ok_p), ("plumb2", ok_p2), ("oha", ok_o), ("plumb64", ok_p64), ("oha50", ok_o50)):
        best[k] = rate if ok else best[k]
    peak["plumb"] = max(peak["plumb"], l["achieved_rate"], l64["achieved_rate"])
    peak["oha"] = max(peak["oha"], d["summary"]["requestsPerSec"], d50["summary"]["requestsPerSec"])
    print(f"| {rate} | {l['achieved_rate']:.0f}/s | {late / 1e3:.3f} ms | {100 * l.get('generator_busy', 0):.0f} % "
          f"| {yes(ok_p)} | {'' if ok_p else why_not(f'sweep-{rate}')} | {l2['achieved_rate']:.0f}/s | {yes(ok_p2)} "
          f"| {d['summary']['requestsPerSec']:.0f}/s | {yes(ok_o)} "
          f"| {l64['achieved_rate']:.0f}/s | {yes(ok_p64)} "
          f"| {d50['summary']['requestsPerSec']:.0f}/s | {yes(ok_o50)} |")
w = subprocess.run(PIN + ["wrk", "-t1", "-c64", "-d10s", URL], check=True, capture_output=True, text=True).stdout
wrk_rps = float(re.search(r"Requests/sec:\s+([\d.]+)", w).group(1))
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

print("## Send lateness at 50,000 req/s (three runs of 5 s)\n")
lates = []
for i in range(3):
    l, _ = plumb(50000, 5, f"late50k-{i}")
    lates.append(l["send_lateness"]["percentiles"]["p99"] / 1e3)
print("plumb's own send lateness p99: " + ", ".join(f"{x:.0f} µs" for x in lates) +
      f" (goal: under 1 ms; worst {max(lates) / 1e3:.3f} ms).\n")

print("## p50 at 1,000 req/s (10 s each, rotating)\n")
print("plumb by default sleeps on a timerfd to 100 µs before each due time; `--spin 2ms` keeps its thread "
      "polling between requests, so answers are read by a hot thread.\n")
print("| run | plumb p50 | plumb --spin 2ms p50 | oha p50 |\n|---:|---:|---:|---:|")
pp, ps, op = [], [], []
for i in range(3):
    pp.append(plumb(1000, 10, f"p50-{i}")[0]["latency"]["percentiles"]["p50"] / 1e3)
    ps.append(plumb(1000, 10, f"p50-spin-{i}", extra=["--spin", "2ms"])[0]["latency"]["percentiles"]["p50"] / 1e3)
    op.append(oha(1000, 10)["latencyPercentiles"]["p50"] * 1e6)
    print(f"| {i + 1} | {pp[-1]:.1f} µs | {ps[-1]:.1f} µs | {op[-1]:.1f} µs |")
med = lambda xs: sorted(xs)[len(xs) // 2]
print(f"\nMedian: plumb {med(pp):.1f} µs, plumb --spin {med(ps):.1f} µs, oha {med(op):.1f} µs "
      f"(ratios to oha {med(pp) / med(op):.3f} and {med(ps) / med(op):.3f}).\n")

print("## Generator CPU time per 10,000 requests (1,000 req/s for 10 s)\n")
c0 = children_cpu()
l, _ = plumb(1000, 10, "cpu", warmup=0)
c1 = children_cpu()
l0, _ = plumb(1000, 10, "cpu-nospin", warmup=0, extra=["--spin", "0s"])
c2 = children_cpu()
oha(1000, 10)
c3 = children_cpu()
p_cpu, p0_cpu, o_cpu = (1e4 * (c1 - c0) / max(l['ok'], 1) * 1e3, 1e4 * (c2 - c1) / max(l0['ok'], 1) * 1e3,
                        (c3 - c2) * 1e3)
print(f"plumb {p_cpu:.0f} ms (send lateness p99 {l['send_lateness']['percentiles']['p99'] / 1e3:.0f} µs); "
      f"plumb --spin 0s {p0_cpu:.0f} ms (lateness p99 {l0['send_lateness']['percentiles']['p99'] / 1e3:.0f} µs); "
      f"oha {o_cpu:.0f} ms (user + system CPU of the generator process, per 10,000 requests; ratios to oha "
      f"{p_cpu / o_cpu:.2f} and {p0_cpu / o_cpu:.2f}). By default plumb polls for the last stretch before each "
      "due time (at most 100 µs, less when its timer wakes punctually): this machine's timer wakes 50–100 µs "
      "late, so punctuality costs about that much CPU per request at low rates.\n")

print("## plumb memory during a 60 s run at 1,000 req/s\n")
proc = subprocess.Popen(PIN + [PLUMB, "load", URL, "--rate", "1000", "--duration", "60s", "--warmup", "0s"],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
rss = {}
t0 = time.time()
for at in (10, 30, 60):
    while time.time() - t0 < at - 0.5:
        time.sleep(0.2)
    status = open(f"/proc/{proc.pid}/status").read()
    rss[at] = int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1))
proc.wait()
print(f"RSS after 10 s: {rss[10] / 1024:.1f} MiB; after 30 s: {rss[30] / 1024:.1f} MiB; after 60 s: "
      f"{rss[60] / 1024:.1f} MiB ({100 * (rss[60] - rss[30]) / rss[30]:+.1f} % from 30 s to 60 s). The recorder "
      "holds open only the seconds that can still receive answers (timeout + 2 s); each finished second is kept "
      "as a compressed histogram (for the timeline, the interval log and block comparisons), so memory grows "
      "by that much a second and no more.")
