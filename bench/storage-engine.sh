#!/usr/bin/env bash
# The storage-engine demo (issue 27), measured: `cargo bench -p storage-engine` RUNS times
# (3 by default) asking the mean and as many asking the median — one lock around a map against a striped map in the four designs of
# "Why Benchmarks Lie" — with each design's verdict per run, its red flags, and the wall
# time of a run (the README's "under 3 minutes"). Writes bench/results/storage-engine.md.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build_start=$(date +%s.%N)
cargo bench -q -p storage-engine --bench designs --no-run 2>/dev/null
build_s=$(python3 -c "import sys; print(float(sys.argv[1]) - float(sys.argv[2]))" "$(date +%s.%N)" "$build_start")
# Each run once asking the mean and once the typical case (the median), alternating.
for i in $(seq 1 "$runs"); do
  start=$(date +%s.%N)
  cargo bench -q -p storage-engine --bench designs -- --export-json "$work/run$i.json" \
    > "$work/run$i.txt" 2>&1
  python3 -c "import sys; print(float(sys.argv[1]) - float(sys.argv[2]))" "$(date +%s.%N)" "$start" > "$work/run$i.seconds"
  cargo bench -q -p storage-engine --bench designs -- --question typical \
    --export-json "$work/typical$i.json" > "$work/typical$i.txt" 2>&1
done
report=bench/results/storage-engine.md
mkdir -p bench/results
python3 bench/storage_engine_report.py "$work" "$runs" "$build_s" > "$report.tmp"
mv "$report.tmp" "$report"
cat "$report"
