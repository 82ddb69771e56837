"""Runs the harnesses (see bench/inprocess.sh) and keeps what each wrote: ROUNDS rounds,
each one invocation of every tool, the order rotated from round to round, so that the
invocations compared are adjacent in time and each tool runs first as often as the
others. Every output is saved in OUT (plumb-bench's documents with their samples,
criterion's estimates and raw samples, divan's text), and OUT/runs.json lists the
invocations with their rounds and wall times. bench/inprocess_report.py reads them.
TOOLS (comma-separated) chooses among: plumb-bench (its default: ten launches), plumb-bench
--launches 1 (one process, sampling to a precision target: the default before issue 30),
plumb-bench --quick, criterion, divan, plumb-bench (criterion's budget)."""
import json
import os
import shutil
import subprocess
import time

ROUNDS = int(os.environ.get("ROUNDS", "30"))
OUT = os.environ["OUT"]
BODIES = ["empty", "add_one", "sum128", "spin_10us", "walk_64mib", "bimodal"]


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


# plumb-bench at criterion's budget in one process: the same 3 s warm-up cap and a fixed
# 5 s of samples, to separate the estimator from the time spent.
CRITERION_BUDGET = ["--launches", "1", "--measure-time", "5s", "--warmup-cap", "3s",
                    "--target-error", "off"]
RUN = {"plumb-bench": ("plumb-bench", lambda n: run_plumb(n)),
       "plumb-bench --quick": ("plumb-bench", lambda n: run_plumb(n, ["--quick"])),
       "criterion": ("criterion", run_criterion), "divan": ("divan", run_divan),
       "plumb-bench (criterion's budget)": ("plumb-bench", lambda n: run_plumb(n, CRITERION_BUDGET)),
       "plumb-bench --launches 1": ("plumb-bench", lambda n: run_plumb(n, ["--launches", "1"]))}
tools = os.environ.get(
    "TOOLS", "plumb-bench,plumb-bench --launches 1,plumb-bench --quick,criterion,divan").split(",")
invocations = []
for r in range(ROUNDS):
    for k in range(len(tools)):
        t = tools[(r + k) % len(tools)]
        reader, run = RUN[t]
        t0 = time.perf_counter()
        path = run(f"{reader}-{len(invocations)}")
        invocations.append({"tool": t, "reader": reader, "round": r, "path": path,
                            "wall_seconds": time.perf_counter() - t0})
    # Kept after every round: a run cut short still reports what it has.
    cpu = open("/proc/cpuinfo").read().split("model name")[1].split("\n")[0].strip(": \t")
    json.dump({"rounds": r + 1, "tools": tools, "bodies": BODIES, "cpu": cpu, "invocations": invocations},
              open(f"{OUT}/runs.json", "w"), indent=1)
