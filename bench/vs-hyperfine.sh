#!/usr/bin/env bash
# plumb vs hyperfine, side by side in one run on this machine:
#  1. /bin/true: the mean each tool reports, next to the raw posix_spawn+waitpid cost
#     measured by bench/spawn_cost.c. What a tool adds above that floor is its overhead.
#     The three are run in rotating order, ROUNDS short blocks each, so drift falls on all
#     alike; the report gives the per-round paired difference plumb − hyperfine with its CI.
#  2. sleep 0.01: do the two tools agree within their errors? Also in alternating blocks:
#     sleep's own time drifts by ~1 % between blocks on a shared VM, which would otherwise
#     be read as a difference between the tools.
# Writes the report to stdout and to bench/results/vs-hyperfine.md.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-30}
RUNS=${RUNS:-100}
SLEEP_RUNS=${SLEEP_RUNS:-10}   # per block; ROUNDS blocks per tool

if ! command -v hyperfine >/dev/null; then
  apt-get install -y -qq hyperfine >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine >/dev/null; }
fi
python3 -c 'import scipy' 2>/dev/null || pip install --quiet scipy
cargo build --release --quiet -p plumb-cli
out=target/bench/vs-hyperfine
rm -rf "$out"; mkdir -p "$out" bench/results
gcc -O2 -o "$out/spawn_cost" bench/spawn_cost.c
PLUMB=target/release/plumb
echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(uname -r); $(hyperfine --version)" > "$out/machine.txt"

for r in $(seq 1 "$ROUNDS"); do
  steps=(raw hyperfine plumb)
  for k in 0 1 2; do
    step=${steps[$(( (k + r) % 3 ))]}
    case $step in
      raw) "$out/spawn_cost" "$RUNS" /bin/true > "$out/raw-$r.txt" ;;
      hyperfine) hyperfine -N --style none --warmup 3 --runs "$RUNS" /bin/true --export-json "$out/hyperfine-true-$r.json" >/dev/null ;;
      plumb) "$PLUMB" run /bin/true --warmup 3 --runs "$RUNS" --no-progress --export-json "$out/plumb-true-$r.json" >/dev/null ;;
    esac
  done
  if (( r % 2 )); then order="hyperfine plumb"; else order="plumb hyperfine"; fi
  for tool in $order; do
    case $tool in
      hyperfine) hyperfine -N --style none --warmup 3 --runs "$SLEEP_RUNS" 'sleep 0.01' --export-json "$out/hyperfine-sleep-$r.json" >/dev/null ;;
      plumb) "$PLUMB" run 'sleep 0.01' --warmup 3 --runs "$SLEEP_RUNS" --no-progress --export-json "$out/plumb-sleep-$r.json" >/dev/null ;;
    esac
  done
  echo "round $r of $ROUNDS done" >&2
done

python3 bench/report_vs_hyperfine.py "$out" "$ROUNDS" | tee bench/results/vs-hyperfine.md
