#!/usr/bin/env bash
# The cost of one in-situ region (plumb_bench::insitu::Region: two fenced TSC reads and
# two relaxed additions) against a pair of Instant::now() reads with the same additions,
# measured by plumb's own harness in one run.
# Writes bench/results/insitu-cost.md.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/results
out=$PWD/bench/results/insitu-cost.md
cargo bench --quiet -p plumb-bench --bench insitu -- --export-markdown "$out.tmp" | tee /dev/stderr >/dev/null
{
  echo "# In-situ region cost"
  echo
  echo "Re-run: \`bash bench/insitu-cost.sh\`. Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores."
  echo "\`timer/insitu_region\` is one timed region (plumb_bench::insitu); \`timer/instant_pair\` the same with two"
  echo "\`Instant::now()\` reads (clock_gettime through the vDSO)."
  echo
  cat "$out.tmp"
} > "$out"
rm -f "$out.tmp"
echo "wrote bench/results/insitu-cost.md"
