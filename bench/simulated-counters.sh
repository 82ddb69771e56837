#!/usr/bin/env bash
# plumb's simulated counters against cachegrind run directly, with the same cache
# geometry: the counts must agree within 1 %, and how much slower a simulated run is
# than a timed one. Two programs:
# - a command, examples/branchy.c (sorted and shuffled), under `plumb run`: they
#   should be equal, the same simulator on the same program;
# - the in-process harness's branch enemy (e5_branch), whose measured region plumb
#   counts with callgrind (--toggle-collect, N against 2N calls): against the whole
#   bench binary under cachegrind run directly with N and with 2N calls, subtracted.
# Writes bench/results/simulated-counters.md.
# Needs valgrind and a C compiler (installed here if missing, as .ci/run does).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-1000000}
RUNS=${RUNS:-10}
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind; }
command -v cc >/dev/null || { apt-get update -qq && apt-get install -y -qq gcc; }
cargo build --release --quiet -p plumb-cli
bench_exe=$(cargo bench --no-run --quiet -p plumb-bench --bench enemies --message-format=json |
  python3 -c 'import json, sys
for line in sys.stdin:
    j = json.loads(line)
    if j.get("executable"): print(j["executable"])' | tail -1)
out=target/bench/simulated-counters; rm -rf "$out"; mkdir -p "$out" bench/results
cc -O2 -o "$out/branchy" examples/branchy.c
report=bench/results/simulated-counters.md
for order in sorted shuffled; do
  target/release/plumb run --counters=simulated --operations "$N" --runs "$RUNS" \
    --no-progress --export-json "$out/plumb-$order.json" "$out/branchy $order $N" >/dev/null 2>&1
  # The geometry plumb gave cachegrind, from its own record, for the direct run.
  geometry=$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["benchmarks"][0]["simulated"]["caches"]
print(" ".join("--%s=%d,%d,%d" % (n.upper(), c[n]["size"], c[n]["ways"], c[n]["line_size"]) for n in ("i1", "d1", "ll")))
' "$out/plumb-$order.json")
  start=$(date +%s%N)
  # shellcheck disable=SC2086
  valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes $geometry \
    --cachegrind-out-file="$out/direct-$order.out" "$out/branchy" "$order" "$N" \
    >/dev/null 2>"$out/direct-$order.log"
  echo $(( $(date +%s%N) - start )) > "$out/direct-$order.ns"
  echo "$geometry" > "$out/geometry.txt"
done
# In process: plumb's figures, then the bench binary's child (the routine called N or 2N
# times, nothing timed) under cachegrind directly, whole program.
# Exact names: the bench binary is built without plumb-bench's `regex` feature.
"$bench_exe" --bench --counters=simulated --quiet --export-json "$out/inproc.json" \
  e5_branch/scan_sorted e5_branch/scan_shuffled >/dev/null 2>&1
for name in e5_branch/scan_sorted e5_branch/scan_shuffled; do
  calls=$(python3 -c '
import json, sys
b = next(b for b in json.load(open(sys.argv[1]))["benchmarks"] if b["name"] == sys.argv[2])
print(b["simulated"]["samples"]["iterations"][0] // b["function"]["ops_per_iter"])
' "$out/inproc.json" "$name")
  for n in "$calls" $((2 * calls)); do
    # shellcheck disable=SC2046
    valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes $(cat "$out/geometry.txt") \
      --cachegrind-out-file="$out/direct-${name#*/}-$n.out" \
      "$bench_exe" --simulate-child "$n" --exact "$name" >/dev/null 2>&1
  done
  echo "$calls" > "$out/calls-${name#*/}.txt"
done
python3 - "$out" "$N" "$RUNS" > "$report" <<'PY'
import json, sys, platform, datetime
out, n, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
events = {"instructions": ["Ir"], "data-reads": ["Dr"], "data-writes": ["Dw"],
          "d1-misses": ["D1mr", "D1mw"], "ll-misses": ["DLmr", "DLmw"],
          "conditional-branches": ["Bc"], "conditional-mispredictions": ["Bcm"]}
print("# Simulated counters: plumb against cachegrind run directly\n")
print(f"`examples/branchy.c` over {n:,} values; plumb: `plumb run --counters=simulated "
      f"--operations {n} --runs {runs}`; direct: `valgrind --tool=cachegrind "
      f"--cache-sim=yes --branch-sim=yes {open(out + '/geometry.txt').read().strip()}`. "
      f"{datetime.date.today()}, {platform.machine()}, kernel {platform.release()}. "
      "Re-run: `bash bench/simulated-counters.sh`.\n")
print("| order | event | plumb (per run) | direct | difference |")
print("|---|---|---:|---:|---:|")
worst = 0.0
for order in ("sorted", "shuffled"):
    b = json.load(open(f"{out}/plumb-{order}.json"))["benchmarks"][0]
    sim = b["simulated"]["samples"]["values"]
    text = open(f"{out}/direct-{order}.out").read()
    names = next(l for l in text.splitlines() if l.startswith("events:")).split()[1:]
    totals = dict(zip(names, map(int, next(l for l in text.splitlines()
                                          if l.startswith("summary:")).split()[1:])))
    for metric, parts in events.items():
        direct = sum(totals[p] for p in parts)
        ours = sim[metric][0]
        diff = abs(ours - direct) / max(direct, 1)
        worst = max(worst, diff)
        print(f"| {order} | {metric} | {ours:,} | {direct:,} | {100 * diff:.3f} % |")
print(f"\nLargest difference: {100 * worst:.3f} % (the goal: within 1 %).\n")
print("## How much slower a simulated run is\n")
print("| order | timed run (mean of plumb's runs) | simulated run (plumb) | cachegrind direct | slowdown |")
print("|---|---:|---:|---:|---:|")
for order in ("sorted", "shuffled"):
    b = json.load(open(f"{out}/plumb-{order}.json"))["benchmarks"][0]
    timed = b["samples"]["values"]["wall-time"]
    timed = sum(timed) / len(timed)
    simulated = b["simulated"]["samples"]["values"]["wall-time"][0]
    direct = int(open(f"{out}/direct-{order}.ns").read())
    print(f"| {order} | {timed / 1e6:.1f} ms | {simulated / 1e6:.0f} ms | {direct / 1e6:.0f} ms | ×{simulated / timed:.0f} |")
mis = {o: json.load(open(f"{out}/plumb-{o}.json"))["benchmarks"][0]["simulated"]["samples"]["values"]["conditional-mispredictions"][0] / n
       for o in ("sorted", "shuffled")}
print(f"\nMispredictions per element: sorted {mis['sorted']:.4f}, shuffled {mis['shuffled']:.4f}.")

print("\n## In process: the measured region only\n")
print("The harness's branch enemy (`e5_branch`, 2^20 values per call). plumb: "
      "`enemies --bench --counters=simulated`, callgrind counting inside the measured "
      "region only, N against 2N calls. Direct: the same bench binary run as the child "
      "plumb starts (`--simulate-child N --exact NAME`) under cachegrind, whole program, "
      "with N and with 2N calls; the difference divided by N calls. Setup (building and "
      "shuffling the values, the program's start) is in both direct runs and cancels.\n")
print("| benchmark | N | event | plumb (per element) | direct (per element) | difference |")
print("|---|---:|---|---:|---:|---:|")
docs = json.load(open(f"{out}/inproc.json"))["benchmarks"]
worst_inproc = 0.0
def summary(path):
    text = open(path).read()
    names = next(l for l in text.splitlines() if l.startswith("events:")).split()[1:]
    return dict(zip(names, map(int, next(l for l in text.splitlines()
                                         if l.startswith("summary:")).split()[1:])))
for name in ("e5_branch/scan_sorted", "e5_branch/scan_shuffled"):
    short = name.split("/")[1]
    calls = int(open(f"{out}/calls-{short}.txt").read())
    b = next(b for b in docs if b["name"] == name)
    ops = b["simulated"]["samples"]["iterations"][0]
    one, two = summary(f"{out}/direct-{short}-{calls}.out"), summary(f"{out}/direct-{short}-{2 * calls}.out")
    ours_all = b["simulated"]["samples"]["values"]
    compared = dict(events)
    # callgrind counts a read-modify-write of one location as a write, cachegrind as a
    # read: the split differs, the accesses do not. Compared as their sum; the split shown.
    del compared["data-reads"], compared["data-writes"]
    compared["data accesses (reads + writes)"] = ["Dr", "Dw"]
    for metric, parts in compared.items():
        direct = sum(two[p] - one[p] for p in parts) / ops
        names = ["data-reads", "data-writes"] if metric.startswith("data accesses") else [metric]
        ours = sum(ours_all[m][0] for m in names) / ops
        diff = abs(ours - direct) / max(abs(direct), 1e-9) if direct or ours else 0.0
        if direct * ops >= 100:
            worst_inproc = max(worst_inproc, diff)
        print(f"| {short} | {calls} | {metric} | {ours:.6g} | {direct:.6g} | {100 * diff:.3f} % |")
    for metric, event in (("data-reads", "Dr"), ("data-writes", "Dw")):
        print(f"| {short} | {calls} | {metric} (split differs) | {ours_all[metric][0] / ops:.6g} "
              f"| {(two[event] - one[event]) / ops:.6g} | not compared |")
print(f"\nLargest difference: {100 * worst_inproc:.3f} % (the goal: within 1 %; "
      "counts below 100 in the region (a handful of misses or mispredictions, which one "
      "event more or less moves by percents) are shown and left out of the largest). callgrind counts an instruction that "
      "reads and writes one location as a data write, cachegrind as a data read: their "
      "reads and writes split differently, their sum agrees.\n")
print("| benchmark | timed (per element) | simulated region (per element) | slowdown |")
print("|---|---:|---:|---:|")
for name in ("e5_branch/scan_sorted", "e5_branch/scan_shuffled"):
    b = next(b for b in docs if b["name"] == name)
    timed = sum(b["samples"]["values"]["wall-time"]) / sum(b["samples"]["iterations"])
    sim = b["simulated"]["samples"]
    region = sim["values"]["wall-time"][0] / sim["iterations"][0] if "wall-time" in sim["values"] else float("nan")
    print(f"| {name} | {timed:.3f} ns | {region:.1f} ns | ×{region / timed:.0f} |")

print("\n## Estimated cycles against time: plumb's estimate and gungraun's\n")
print("gungraun's (iai's) estimate is L1 hits + 5 × LL hits + 35 × memory accesses; plumb's "
      "adds 15 cycles a mispredicted branch (conditional and indirect). Sorted against "
      "shuffled input, per element: the timed mean (plumb's runs), each estimate (the "
      "simulated runs' mean), and shuffled's ratio to sorted of each. The estimate that "
      "moves as the time moves is the one a gate on cycles can stand in for time with.\n")
print("| program | input | timed | plumb's estimate | gungraun's estimate |")
print("|---|---|---:|---:|---:|")
def estimates(sim, per):
    v = sim["values"]
    k = len(v["estimated-cycles"])
    ours = sum(v["estimated-cycles"]) / k / per
    mis = (sum(v["conditional-mispredictions"]) + sum(v.get("indirect-mispredictions", [0] * k))) / k / per
    return ours, ours - 15 * mis
rows = {}
for order in ("sorted", "shuffled"):
    b = json.load(open(f"{out}/plumb-{order}.json"))["benchmarks"][0]
    t = b["samples"]["values"]["wall-time"]
    rows[("branchy (command)", order)] = (sum(t) / len(t) / n, *estimates(b["simulated"]["samples"], n))
for name in ("e5_branch/scan_sorted", "e5_branch/scan_shuffled"):
    b = next(b for b in docs if b["name"] == name)
    timed = sum(b["samples"]["values"]["wall-time"]) / sum(b["samples"]["iterations"])
    sim = b["simulated"]["samples"]
    rows[("e5_branch (in process)", name.split("_")[-1])] = (timed, *estimates(sim, sim["iterations"][0]))
for (prog, order), (t, ours, theirs) in rows.items():
    print(f"| {prog} | {order} | {t:.4g} ns | {ours:.4g} | {theirs:.4g} |")
print("\n| program | shuffled / sorted: time | plumb's estimate | gungraun's estimate |")
print("|---|---:|---:|---:|")
for prog in ("branchy (command)", "e5_branch (in process)"):
    a, b = rows[(prog, "sorted")], rows[(prog, "shuffled")]
    print(f"| {prog} | ×{b[0] / a[0]:.2f} | ×{b[1] / a[1]:.2f} | ×{b[2] / a[2]:.2f} |")
PY
cat "$report"
