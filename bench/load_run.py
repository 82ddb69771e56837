"""Runs the load generators (see bench/load-vs-peers.sh) and keeps what each wrote: every
plumb document and oha's JSON in OUT, wrk's text, and OUT/runs.json with what only the
moment of running knows (exit codes, CPU time used, memory sampled during a run).
bench/load_report.py reads them. RATES (comma-separated) and SWEEP_S shorten the sweep."""
import json
import os
import re
import resource
import subprocess
import time

PLUMB, OUT, URL = os.environ["PLUMB"], os.environ["OUT"], os.environ["URL"]
PIN = ["taskset", "-c", "1"]
RATES = [int(r) for r in os.environ.get(
    "RATES", "20000,40000,60000,80000,90000,100000,110000,120000,130000").split(",")]
SWEEP_S = int(os.environ.get("SWEEP_S", "5"))
SHORT_S = int(os.environ.get("SHORT_S", "10"))
MEMORY_S = int(os.environ.get("MEMORY_S", "60"))
# Requests in flight (plumb) and connections (oha) in the sweep. Their defaults (64, 50)
# fill at 100,000/s here: nginx's one worker at ~85 % of its closed-loop maximum queues
# deeper than that now and then, and the sweep then measures the server's concurrency
# rather than the generator. The same larger pool for both measures the generators.
POOL = 256


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def plumb(rate, secs, name, warmup=1, extra=()):
    """One plumb run, its document kept as NAME.json; its exit code and CPU seconds."""
    c0 = children_cpu()
    p = subprocess.run(PIN + [PLUMB, "load", URL, "--rate", str(rate), "--duration", f"{secs}s",
                              "--warmup", f"{warmup}s", "--export-json", f"{OUT}/{name}.json", *extra],
                       capture_output=True)
    if p.returncode not in (0, 1):
        raise SystemExit(f"plumb failed ({p.returncode}): {p.stderr.decode()}")
    return {"file": f"{name}.json", "code": p.returncode, "cpu_seconds": children_cpu() - c0}


def oha(rate, secs, name, extra=()):
    c0 = children_cpu()
    p = subprocess.run(PIN + ["oha", "-z", f"{secs}s", "-q", str(rate), "--latency-correction", "--no-tui",
                              "--output-format", "json", *extra, URL], check=True, capture_output=True, text=True)
    open(f"{OUT}/{name}.json", "w").write(p.stdout)
    return {"file": f"{name}.json", "cpu_seconds": children_cpu() - c0}


def memory(secs):
    """plumb's RSS at 1/6, 1/2 and the end of a run of SECS at 1,000/s."""
    proc = subprocess.Popen(PIN + [PLUMB, "load", URL, "--rate", "1000", "--duration", f"{secs}s", "--warmup", "0s"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rss, t0 = {}, time.time()
    for at in (secs / 6, secs / 2, secs):
        while time.time() - t0 < at - 0.5:
            time.sleep(0.2)
        status = open(f"/proc/{proc.pid}/status").read()
        rss[f"{at:g}"] = int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1))
    proc.wait()
    return rss


pool = ["--max-in-flight", str(POOL)]
sweep = []
for rate in RATES:
    sweep.append({"rate": rate,
                  "plumb": plumb(rate, SWEEP_S, f"sweep-{rate}", extra=pool),
                  "plumb2": plumb(rate, SWEEP_S, f"sweep2-{rate}", extra=pool + ["--threads", "2"]),
                  "oha": oha(rate, SWEEP_S, f"oha-{rate}", extra=["-c", str(POOL)]),
                  "plumb64": plumb(rate, SWEEP_S, f"sweep64-{rate}"),
                  "oha50": oha(rate, SWEEP_S, f"oha50-{rate}")})
wrk = subprocess.run(PIN + ["wrk", "-t1", "-c64", "-d10s", URL], check=True, capture_output=True, text=True).stdout
open(f"{OUT}/wrk.txt", "w").write(wrk)
late = [plumb(50000, 5, f"late50k-{i}") for i in range(3)]
p50 = [{"plumb": plumb(1000, SHORT_S, f"p50-{i}"),
        "spin": plumb(1000, SHORT_S, f"p50-spin-{i}", extra=["--spin", "2ms"]),
        "oha": oha(1000, SHORT_S, f"oha-p50-{i}")} for i in range(3)]
cpu = {"plumb": plumb(1000, SHORT_S, "cpu", warmup=0),
       "nospin": plumb(1000, SHORT_S, "cpu-nospin", warmup=0, extra=["--spin", "0s"]),
       "oha": oha(1000, SHORT_S, "oha-cpu")}
json.dump({"cpu_model": open("/proc/cpuinfo").read().split("model name")[1].split("\n")[0].strip(": \t"),
           "sweep_seconds": SWEEP_S, "short_seconds": SHORT_S, "memory_seconds": MEMORY_S, "pool": POOL,
           "sweep": sweep, "wrk": "wrk.txt", "late50k": late, "p50": p50, "cpu": cpu,
           "rss_kib": memory(MEMORY_S)}, open(f"{OUT}/runs.json", "w"), indent=1)
