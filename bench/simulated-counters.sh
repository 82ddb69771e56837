#!/usr/bin/env bash
# plumb's simulated counters against cachegrind run directly, with the same cache
# geometry, on examples/branchy.c (sorted and shuffled): the counts must agree within
# 1 % (they should be equal: the same simulator on the same program), and how much
# slower a simulated run is than a timed one. Writes bench/results/simulated-counters.md.
# Needs valgrind and a C compiler (installed here if missing, as .ci/run does).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-1000000}
RUNS=${RUNS:-10}
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind; }
command -v cc >/dev/null || { apt-get update -qq && apt-get install -y -qq gcc; }
cargo build --release --quiet -p plumb-cli
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
print(" ".join("--%s=%d,%d,%d" % (n.upper(), c[n]["size_bytes"], c[n]["ways"], c[n]["line_bytes"]) for n in ("i1", "d1", "ll")))
' "$out/plumb-$order.json")
  start=$(date +%s%N)
  # shellcheck disable=SC2086
  valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes $geometry \
    --cachegrind-out-file="$out/direct-$order.out" "$out/branchy" "$order" "$N" \
    >/dev/null 2>"$out/direct-$order.log"
  echo $(( $(date +%s%N) - start )) > "$out/direct-$order.ns"
  echo "$geometry" > "$out/geometry.txt"
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
PY
cat "$report"
