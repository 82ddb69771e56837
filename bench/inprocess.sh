#!/usr/bin/env bash
# plumb-bench vs criterion vs divan on the same bodies (bench/inprocess/src/lib.rs):
# empty; black_box(x)+1; a sum of 128 integers; a ~10 µs loop; a walk of dependent loads
# over 64 MiB (memory-bound); a body of two costs (bimodal). ROUNDS rounds (default 30),
# each one invocation of every tool in TOOLS, the order rotated round by round, so each
# comparison is between invocations adjacent in time. Reports, per body: each tool's CV
# of the mean and the median over the rounds and its ratio to criterion's with a 95 %
# bootstrap interval over rounds; the wall-time ratio; how often an invocation's mean
# falls outside another's reported interval; the same samples through other estimators.
# About a minute a round with the default tools (criterion takes ~50 s of it).
# Keeps every output in target/bench/inprocess; writes bench/results/inprocess.md.
set -euo pipefail
cd "$(dirname "$0")/inprocess"
cargo bench --no-run --quiet 2>/dev/null
exe() { cargo bench --no-run --message-format=json 2>/dev/null | python3 -c "
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get('reason') == 'compiler-artifact' and m['target']['name'] == sys.argv[1] and m.get('executable'):
        print(m['executable'])" "$1"; }
out=$PWD/../../target/bench/inprocess; rm -rf "$out"; mkdir -p "$out"
PLUMB=$(exe with_plumb) CRITERION=$(exe with_criterion) DIVAN=$(exe with_divan) OUT=$out \
  ROUNDS=${ROUNDS:-30} python3 ../inprocess_run.py
# Measuring and reporting are apart: the report reads only what the run kept in $out.
python3 ../inprocess_report.py "$out" | tee ../results/inprocess.md
