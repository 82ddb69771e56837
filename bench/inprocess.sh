#!/usr/bin/env bash
# plumb-bench vs criterion vs divan on the same bodies (bench/inprocess/src/lib.rs):
# empty; black_box(x)+1; a sum of 128 integers; a ~10 µs loop. In one run, BLOCKS blocks
# (default 3) of INVOCATIONS invocations (default 5) of each harness in rotating order,
# reporting:
#  - the per-iteration cost each reports for the empty body,
#  - the wall time each needs to finish its four benchmarks,
#  - the spread (coefficient of variation) of each one's mean, median and minimum over
#    the invocations of a block, per block, as the median over blocks, and pooled.
# About 16 minutes with the defaults (criterion, and plumb-bench at its budget, take ~40 s
# and ~20 s an invocation).
# Keeps every output in target/bench/inprocess; writes bench/results/inprocess.md.
set -euo pipefail
cd "$(dirname "$0")/inprocess"
INVOCATIONS=${INVOCATIONS:-5}
cargo bench --no-run --quiet 2>/dev/null
exe() { cargo bench --no-run --message-format=json 2>/dev/null | python3 -c "
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get('reason') == 'compiler-artifact' and m['target']['name'] == sys.argv[1] and m.get('executable'):
        print(m['executable'])" "$1"; }
out=$PWD/../../target/bench/inprocess; rm -rf "$out"; mkdir -p "$out"
PLUMB=$(exe with_plumb) CRITERION=$(exe with_criterion) DIVAN=$(exe with_divan) OUT=$out \
  INVOCATIONS=$INVOCATIONS BLOCKS=${BLOCKS:-3} python3 ../inprocess_run.py
# Measuring and reporting are apart: the report reads only what the run kept in $out.
python3 ../inprocess_report.py "$out" | tee ../results/inprocess.md
