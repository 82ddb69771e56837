#!/usr/bin/env bash
# Calibration (issue 46): do the intervals plumb prints hold on the next invocation?
# N invocations (12 by default) each of `plumb run` and hyperfine on a CPU-bound command
# (~6 ms), a 5 ms sleep and a memory walk (~0.3 s), and of plumb-bench and criterion on
# in-process bodies of the same three kinds, adjacent in time, order rotated, on
# the machine as it is and again beside two CPU hogs; then interleaved `plumb run A B`
# pairs of the CPU-bound command against itself (A/A) and against +2, +5 and +10 % of it.
# Per tool and workload: the CV of the invocations' means, the median stated half-width,
# the share of other invocations' means inside each stated 99.9 % interval (an honest one
# holds about 98 %: the other mean is as noisy as this one), A/A false verdicts and power.
# Writes bench/results/calibration.md. Never run beside another measurement or a build.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-12}
cargo build --release --quiet -p plumb-cli
if ! command -v hyperfine >/dev/null; then
  apt-get install -y -qq hyperfine >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine >/dev/null; }
fi
python3 -c 'import scipy' 2>/dev/null || pip install --quiet scipy
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/work" bench/calibration/work.c
cp "$work/work" "$work/work-a"
# The in-process harnesses on bench/inprocess's bodies (plumb-bench with its history).
exe() { (cd bench/inprocess && cargo bench --no-run --message-format=json 2>/dev/null) | python3 -c "
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get('reason') == 'compiler-artifact' and m['target']['name'] == sys.argv[1] and m.get('executable'):
        print(m['executable'])" "$1"; }
(cd bench/inprocess && cargo bench --no-run --quiet 2>/dev/null)
harness=$(exe with_plumb) criterion=$(exe with_criterion)
python3 bench/calibration_run.py "$PWD/target/release/plumb" "$work/work" "$work" "$N" "$harness" "$criterion" > bench/results/calibration.md.tmp
mv bench/results/calibration.md.tmp bench/results/calibration.md
cp "$work/raw.json" bench/results/calibration-raw.json
cat bench/results/calibration.md
