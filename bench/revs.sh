#!/usr/bin/env bash
# plumb revs and plumb history confirm, measured (issue 26): A/A pairs (two commits whose
# program is the same) and how often they are called different; the rounds and wall time
# needed to settle +2, +5 and +10 % on 30 ms programs (CPU-bound, and a sleep) with a 2 % spread of their
# own; hyperfine run on the same +5 % pair for its time; a naive rule (Welch at every look,
# no spending) on the same A/A data; and the builds a bisection over 20 commits needs.
# Writes bench/results/revs.md. PAIRS=20 A/A pairs per program and REPS=6 per effect by default.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || apt-get install -y -qq hyperfine >/dev/null
command -v cc >/dev/null || apt-get install -y -qq gcc >/dev/null
python3 -c 'import scipy' 2>/dev/null || apt-get install -y -qq python3-scipy >/dev/null
cargo build --release --quiet -p plumb-cli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
report=bench/results/revs.md
mkdir -p bench/results
{
  echo "# plumb revs and history confirm: error rates and cost"
  echo
  echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -r); $(date -u +%Y-%m-%d)."
  echo "Re-run: \`bash bench/revs.sh\` (PAIRS=${PAIRS:-20} A/A pairs per program, REPS=${REPS:-6}); $(hyperfine --version)."
  echo
  python3 -u bench/revs_run.py "$PWD/target/release/plumb" "$work" "${PAIRS:-20}" "${REPS:-6}"
} > "$report.tmp"
mv "$report.tmp" "$report"
cat "$report"
