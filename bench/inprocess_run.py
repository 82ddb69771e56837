"""Runs the three harnesses (see bench/inprocess.sh) and keeps what each wrote: BLOCKS
blocks of INVOCATIONS invocations of each harness, rotating order within a block. Every
output is saved in OUT (plumb-bench's documents, criterion's estimates and raw samples,
divan's text), and OUT/runs.json lists the invocations with their wall times.
bench/inprocess_report.py reads them."""
import json
import os
import shutil
import subprocess
import time

N = int(os.environ.get("INVOCATIONS", "5"))
BLOCKS = int(os.environ.get("BLOCKS", "3"))
OUT = os.environ["OUT"]
BODIES = ["empty", "add_one", "sum128", "spin_10us"]


def run_plumb(name, extra=()):
    subprocess.run([os.environ["PLUMB"], "--bench", "--quiet", "--export-json", f"{OUT}/{name}.json",
                    *extra], check=True, capture_output=True)
    return f"{name}.json"


def run_criterion(name):
    shutil.rmtree("target/criterion", ignore_errors=True)
    subprocess.run([os.environ["CRITERION"], "--bench"], check=True, capture_output=True)
    for b in BODIES:
        os.makedirs(f"{OUT}/{name}/{b}", exist_ok=True)
        for f in ("estimates.json", "sample.json"):
            shutil.copy(f"target/criterion/{b}/new/{f}", f"{OUT}/{name}/{b}/{f}")
    return name


def run_divan(name):
    p = subprocess.run([os.environ["DIVAN"], "--bench"], check=True, capture_output=True, text=True)
    open(f"{OUT}/{name}.txt", "w").write(p.stdout)
    return f"{name}.txt"


# plumb-bench at criterion's budget too: the same 3 s warm-up cap and a fixed 5 s of
# samples, to separate the estimator from the time spent.
CRITERION_BUDGET = ["--measure-time", "5s", "--warmup-cap", "3s", "--target-error", "off"]
RUN = {"plumb-bench": ("plumb-bench", lambda n: run_plumb(n)),
       "plumb-bench --quick": ("plumb-bench", lambda n: run_plumb(n, ["--quick"])),
       "plumb-bench (criterion's budget)": ("plumb-bench", lambda n: run_plumb(n, CRITERION_BUDGET)),
       "criterion": ("criterion", run_criterion), "divan": ("divan", run_divan)}
tools = list(RUN)
invocations = []
for blk in range(BLOCKS):
    for i in range(N):
        for k in range(len(tools)):
            t = tools[(i + k) % len(tools)]
            reader, run = RUN[t]
            t0 = time.perf_counter()
            path = run(f"{reader}-{len(invocations)}")
            invocations.append({"tool": t, "reader": reader, "block": blk, "path": path,
                                "wall_seconds": time.perf_counter() - t0})
cpu = open("/proc/cpuinfo").read().split("model name")[1].split("\n")[0].strip(": \t")
json.dump({"blocks": BLOCKS, "invocations_per_block": N, "tools": tools, "bodies": BODIES, "cpu": cpu,
           "invocations": invocations}, open(f"{OUT}/runs.json", "w"), indent=1)
