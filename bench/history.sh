#!/usr/bin/env bash
# Change points, plumb beside Apache Otava 0.8.0 on the same generated series (issue 25):
# false alarms on stationary series, detection and location of a +5 % step with 5 points
# after it, spikes, busy runs, the points needed after a step; and plumb history's own time
# on a store of 100 series × 500 points (from scratch, adding a result, resumed) beside
# Otava's, and the store's size per point. Otava is installed from PyPI into a venv under target/bench.
# Writes bench/results/history.md. SERIES=1000 series per row by default.
set -euo pipefail
cd "$(dirname "$0")/.."
SERIES=${SERIES:-1000}
venv=target/bench/otava-venv
if ! "$venv/bin/python" -c 'import otava.analysis' 2>/dev/null; then
  python3 -m venv "$venv" 2>/dev/null || { apt-get install -y -qq python3-venv >/dev/null && python3 -m venv "$venv"; }
  "$venv/bin/pip" install --quiet apache-otava==0.8.0
fi
cargo build --release --quiet -p plumb-stats --example change_points_of
cargo build --release --quiet -p plumb-cli
cargo build --release --quiet -p plumb-history --example history_fixture
# Outside any git repository: the fixture's results carry commits git does not know.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
report=bench/results/history.md
mkdir -p bench/results
{
  echo "# Change points: plumb beside Apache Otava 0.8.0"
  echo
  echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -r); $(date -u +%Y-%m-%d)."
  echo "Re-run: \`bash bench/history.sh\` (SERIES=$SERIES). Otava $("$venv/bin/pip" show apache-otava | awk '/^Version/ {print $2}') from PyPI, run in Python on the same series."
  echo
  "$venv/bin/python" bench/history_rates.py target/release/examples/change_points_of "$SERIES"
  echo
  echo "## Time and size"
  echo
  "$venv/bin/python" bench/history_timing.py "$PWD/target/release/plumb" "$PWD/target/release/examples/history_fixture" "$work"
} > "$report.tmp"
mv "$report.tmp" "$report"
cat "$report"
