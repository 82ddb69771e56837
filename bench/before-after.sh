#!/usr/bin/env bash
# Did a refactor make plumb slower? The previous plumb (REV, default 2895d7d: the last
# commit before issue 23 typed every measured value) against this one, in one run, on the
# same machine, alternating A B B A so that the machine's drift cancels:
#  - the in-process harness: bench/inprocess's four bodies under plumb-bench (empty,
#    black_box(x)+1, a sum of 128 integers, a ~10 µs loop) — each body's mean, the empty
#    body's per-iteration cost, and the wall time of a whole invocation;
#  - the load generator: `plumb load` at RATE against bench/spin-server.c (no work; server
#    on CPU 1, plumb on CPU 0) — the rate achieved, the generator's send lateness p99 and
#    the CPU time plumb used per 10,000 requests.
# PAIRS pairs of each (default 5). Writes bench/results/before-after.md. About 15 minutes,
# most of it building the previous plumb.
set -euo pipefail
cd "$(dirname "$0")/.."
REV=${REV:-2895d7d} PAIRS=${PAIRS:-5} RATE=${RATE:-50000} DURATION=${DURATION:-5s}
out=$PWD/target/bench/before-after; mkdir -p "$out" bench/results
before=$out/tree
# A tree left by an earlier run of another REV is replaced, never measured as this one.
if [ -d "$before" ] && [ "$(git -C "$before" rev-parse HEAD)" != "$(git rev-parse "$REV^{commit}")" ]; then
  git worktree remove --force "$before"
fi
if [ ! -d "$before" ]; then
  git worktree add --detach "$before" "$REV" >/dev/null
fi
# Each tree builds into its own target directory; nothing of one is reused by the other.
cargo build --release --quiet -p plumb-cli
(cd "$before" && cargo build --release --quiet -p plumb-cli)
exe() { (cd "$1/bench/inprocess" && cargo bench --no-run --bench with_plumb --message-format=json 2>/dev/null) |
  python3 -c "
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get('reason') == 'compiler-artifact' and m['target']['name'] == 'with_plumb' and m.get('executable'):
        print(m['executable'])"; }
NEW_BENCH=$(exe "$PWD") OLD_BENCH=$(exe "$before")
cc -O2 -o "$out/spin-server" bench/spin-server.c
taskset -c 1 "$out/spin-server" 18095 0 & server=$!
trap 'kill $server 2>/dev/null || true' EXIT
sleep 0.3
NEW_PLUMB=$PWD/target/release/plumb OLD_PLUMB=$before/target/release/plumb \
  NEW_BENCH=$NEW_BENCH OLD_BENCH=$OLD_BENCH OUT=$out PAIRS=$PAIRS RATE=$RATE \
  DURATION=$DURATION REV=$REV URL=http://127.0.0.1:18095/ \
  python3 bench/before_after_run.py
# Measuring and reporting are apart: the report reads only what the run saved in $out.
python3 bench/before_after_report.py "$out" | tee bench/results/before-after.md
