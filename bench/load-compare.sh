#!/usr/bin/env bash
# Do load comparisons hold between runs? Against a server whose every answer costs a set
# CPU time (bench/spin-server.c, on CPU 1; plumb on CPU 0), in one run:
#  - false verdicts: PAIRS pairs of `plumb load --repeat REPEAT` results of the SAME
#    server, taken one after the other, compared (goal: at most 1 % faster/slower);
#  - power: PAIRS runs of `plumb load --repeat REPEAT A B` (in turn, A B B A …) where B
#    is A made 20 % slower at p50 (its work per request raised by 20 % of A's measured
#    p50), compared; the share called slower at p50 and p99;
#  - what the per-request intervals of one run per side (how plumb compared before
#    0.13) would have called the same-server pairs.
# Each comparison at the default 99.9 % and at 99 %, SESOI 2 %. Writes
# bench/results/load-compare.md. Takes about 20 minutes with the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS=${PAIRS:-20} REPEAT=${REPEAT:-5} RATE=${RATE:-1000} DURATION=${DURATION:-2s}
WORK_US=${WORK_US:-200}
cargo build --release --quiet -p plumb-cli
out=target/bench/load-compare; rm -rf "$out"; mkdir -p "$out" bench/results
cc -O2 -o "$out/spin-server" bench/spin-server.c
PLUMB=$PWD/target/release/plumb
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
serve() { taskset -c 1 "$out/spin-server" "$1" "$2" & pids+=($!); sleep 0.3; }
load() { taskset -c 0 "$PLUMB" load --rate "$RATE" --duration "$DURATION" --warmup 0.5s \
  --allow-late --repeat "$REPEAT" "$@" >/dev/null 2>>"$out/stderr.log" || true; }

A=http://127.0.0.1:18091/ B=http://127.0.0.1:18092/
serve 18091 "$WORK_US"
# Calibrate B: A's p50 over one run, and B's work raised by 20 % of it.
taskset -c 0 "$PLUMB" load --rate "$RATE" --duration 5s --warmup 1s --allow-late "$A" \
  --export-json "$out/calibrate.json" >/dev/null
p50=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['benchmarks'][0]['load']['latency']['percentiles']['p50'] / 1e3)" "$out/calibrate.json")
WORK_B=$(python3 -c "print(round($WORK_US + 0.2 * $p50))")
serve 18092 "$WORK_B"
echo "A: ${WORK_US} µs of work, p50 ${p50} µs; B: ${WORK_B} µs of work" | tee "$out/setup.txt"

for i in $(seq "$PAIRS"); do
  echo "pair $i of $PAIRS" >&2
  load "$A" --export-json "$out/same-$i-base.json"
  load "$A" --export-json "$out/same-$i-new.json"
  load "$A" "$B" --export-json "$out/ab-$i.json"
done
# The run's settings beside its results: the report reads only what is in $out.
echo "PAIRS=$PAIRS REPEAT=$REPEAT RATE=$RATE DURATION=$DURATION WORK_A=$WORK_US WORK_B=$WORK_B P50_A=$p50 A=$A B=$B" \
  > "$out/env"
env PLUMB="$PLUMB" OUT="$out" $(cat "$out/env") python3 bench/load_compare_report.py | tee bench/results/load-compare.md
