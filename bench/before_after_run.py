"""Runs bench/before-after.sh's pairs and records them: every plumb document is kept in
OUT, and OUT/runs.json lists each run with what only the moment of running knows (its
wall time, the CPU time plumb used). bench/before_after_report.py reads them."""
import json, os, resource, subprocess, time

E = os.environ
OUT, PAIRS, RATE, DURATION, URL = E["OUT"], int(E["PAIRS"]), E["RATE"], E["DURATION"], E["URL"]
SIDES = {"previous": (E["OLD_PLUMB"], E["OLD_BENCH"]), "this": (E["NEW_PLUMB"], E["NEW_BENCH"])}


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def harness(side, i):
    name = f"harness-{side}-{i}.json"
    start = time.monotonic()
    # One process on both sides (both know --launches 1): the refactor's cost in the
    # measuring code, not the launches plumb-bench has made its default since.
    subprocess.run(["taskset", "-c", "0", SIDES[side][1], "--bench", "--launches", "1",
                    "--export-json", f"{OUT}/{name}"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return {"file": name, "wall_seconds": time.monotonic() - start}


def load(side, i):
    name = f"load-{side}-{i}.json"
    before = children_cpu()
    subprocess.run(["taskset", "-c", "0", SIDES[side][0], "load", URL, "--rate", RATE,
                    "--duration", DURATION, "--warmup", "1s", "--allow-late",
                    "--export-json", f"{OUT}/{name}"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return {"file": name, "cpu_seconds": children_cpu() - before}


def pairs(run):
    got = {"previous": [], "this": []}
    for i in range(PAIRS):
        order = ["previous", "this"] if i % 2 == 0 else ["this", "previous"]
        for side in order:
            got[side].append(run(side, i))
    return got


runs = {"rev": E["REV"], "rate": RATE, "duration": DURATION, "pairs": PAIRS,
        "cpu": open("/proc/cpuinfo").read().split("model name")[1].split("\n")[0].strip(": \t"),
        "harness": pairs(harness), "load": pairs(load)}
json.dump(runs, open(f"{OUT}/runs.json", "w"), indent=1)
