#!/usr/bin/env bash
# How long the storage-engine demo takes from the README on a fresh clone (issue 27: "under
# 3 minutes"): in an empty target directory, the README's main job first (`cargo run
# --release`, which builds the release profile the bench profile shares), then
# `cargo bench -p storage-engine` timed whole (its build and its run); and the same bench
# from nothing, without the main job. Writes bench/results/storage-engine-cold.md.
set -euo pipefail
cd "$(dirname "$0")/.."
target=$(mktemp -d)
trap 'rm -rf "$target"' EXIT
seconds() { python3 -c "import sys; print(round(float(sys.argv[1]) - float(sys.argv[2])))" "$(date +%s.%N)" "$1"; }
start=$(date +%s.%N)
CARGO_TARGET_DIR="$target/a" cargo run -q --release -- run 'sleep 0.01' 'sleep 0.02' > /dev/null 2>&1
main_job=$(seconds "$start")
start=$(date +%s.%N)
CARGO_TARGET_DIR="$target/a" cargo bench -q -p storage-engine > /dev/null 2>&1
after_main=$(seconds "$start")
rm -rf "$target/a"
start=$(date +%s.%N)
CARGO_TARGET_DIR="$target/b" cargo bench -q -p storage-engine > /dev/null 2>&1
from_nothing=$(seconds "$start")
report=bench/results/storage-engine-cold.md
{
  echo "# The storage-engine demo from a fresh clone"
  echo
  echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%Y-%m-%d). Re-run: \`bash bench/storage-engine-cold.sh\`."
  echo
  echo "| step (empty target directory, dependencies already downloaded) | wall time |"
  echo "|---|---|"
  echo "| the README's main job, \`cargo run --release -- run …\` (builds plumb) | ${main_job} s |"
  echo "| then \`cargo bench -p storage-engine\` (builds plumb-bench and the demo, runs it) | ${after_main} s |"
  echo "| \`cargo bench -p storage-engine\` alone from nothing | ${from_nothing} s |"
} > "$report"
cat "$report"
