"""Runs the load generators (see bench/load-vs-peers.sh) and prints a Markdown report."""
import json
import os
import re
import resource
import subprocess
import time

PLUMB, OUT, URL = os.environ["PLUMB"], os.environ["OUT"], os.environ["URL"]
PIN = ["taskset", "-c", "1"]
RATES = [10000, 20000, 40000, 60000, 80000, 100000]
SWEEP_S = 5


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def plumb(rate, secs, name, warmup=1, extra=()):
    path = f"{OUT}/{name}.json"
    subprocess.run(PIN + [PLUMB, "load", URL, "--rate", str(rate), "--duration", f"{secs}s",
                          "--warmup", f"{warmup}s", "--export-json", path, *extra],
                   check=True, capture_output=True)
    return json.load(open(path))["benchmarks"][0]["load"]


def oha(rate, secs):
    p = subprocess.run(PIN + ["oha", "-z", f"{secs}s", "-q", str(rate), "--latency-correction", "--no-tui",
                              "--output-format", "json", URL], check=True, capture_output=True, text=True)
    return json.loads(p.stdout)


def plumb_holds(l, rate):
    late = l["send_lateness"]["percentiles_us"]["p99"]
    errors = sum(l["errors"].values())
    return l["achieved_rate"] >= 0.98 * rate and late < 5000 and errors == 0, late


def oha_holds(d, rate):
    s = d["summary"]
    return s["requestsPerSec"] >= 0.98 * rate and s["successRate"] == 1.0


print("# plumb load vs wrk and oha (nginx on loopback)\n")
cpu = open("/proc/cpuinfo").read().split("model name")[1].split("\n")[0].strip(": \t")
print(f"{cpu}; nginx (1 worker) on CPU 0, generators on CPU 1; {SWEEP_S} s per rate.\n")

print("## Highest rate held on schedule\n")
print("plumb holds a rate when it achieves ≥ 98 % of it with its own send-lateness p99 under 5 ms and no "
      "errors; oha when it achieves ≥ 98 % with `-q R --latency-correction` and no errors.\n")
print("| target rate | plumb achieved | plumb lateness p99 | plumb holds | oha achieved | oha holds |")
print("|---:|---:|---:|:---:|---:|:---:|")
best_plumb = best_oha = 0
for rate in RATES:
    l = plumb(rate, SWEEP_S, f"sweep-{rate}")
    ok_p, late = plumb_holds(l, rate)
    d = oha(rate, SWEEP_S)
    ok_o = oha_holds(d, rate)
    best_plumb = rate if ok_p else best_plumb
    best_oha = rate if ok_o else best_oha
    print(f"| {rate} | {l['achieved_rate']:.0f}/s | {late / 1e3:.3f} ms | {'yes' if ok_p else 'no'} | "
          f"{d['summary']['requestsPerSec']:.0f}/s | {'yes' if ok_o else 'no'} |")
w = subprocess.run(PIN + ["wrk", "-t1", "-c64", "-d10s", URL], check=True, capture_output=True, text=True).stdout
wrk_rps = float(re.search(r"Requests/sec:\s+([\d.]+)", w).group(1))
print(f"\nHighest rate held: plumb {best_plumb}/s, oha {best_oha}/s (of the rates tried). "
      f"wrk closed-loop maximum (1 thread, 64 connections, 10 s): {wrk_rps:.0f}/s.\n")

print("## p50 at 1,000 req/s (10 s each, rotating)\n")
print("plumb by default sleeps on a timerfd to 100 µs before each due time; `--spin 2ms` keeps its thread "
      "polling between requests, so answers are read by a hot thread.\n")
print("| run | plumb p50 | plumb --spin 2ms p50 | oha p50 |\n|---:|---:|---:|---:|")
pp, ps, op = [], [], []
for i in range(3):
    pp.append(plumb(1000, 10, f"p50-{i}")["latency"]["percentiles_us"]["p50"])
    ps.append(plumb(1000, 10, f"p50-spin-{i}", extra=["--spin", "2ms"])["latency"]["percentiles_us"]["p50"])
    op.append(oha(1000, 10)["latencyPercentiles"]["p50"] * 1e6)
    print(f"| {i + 1} | {pp[-1]:.1f} µs | {ps[-1]:.1f} µs | {op[-1]:.1f} µs |")
med = lambda xs: sorted(xs)[len(xs) // 2]
print(f"\nMedian: plumb {med(pp):.1f} µs, plumb --spin {med(ps):.1f} µs, oha {med(op):.1f} µs "
      f"(ratios to oha {med(pp) / med(op):.3f} and {med(ps) / med(op):.3f}).\n")

print("## Generator CPU time per 10,000 requests (1,000 req/s for 10 s)\n")
c0 = children_cpu()
l = plumb(1000, 10, "cpu", warmup=0)
c1 = children_cpu()
ls = plumb(1000, 10, "cpu-spin", warmup=0, extra=["--spin", "2ms"])
c2 = children_cpu()
oha(1000, 10)
c3 = children_cpu()
print(f"plumb {1e4 * (c1 - c0) / max(l['ok'], 1) * 1e3:.0f} ms; plumb --spin 2ms "
      f"{1e4 * (c2 - c1) / max(ls['ok'], 1) * 1e3:.0f} ms; oha {(c3 - c2) * 1e3:.0f} ms "
      "(user + system CPU of the generator process, per 10,000 requests).\n")

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
      "keeps the per-second histograms of the last timeout + 2 s (a bounded window), so memory levels off "
      "once that window is full.")
