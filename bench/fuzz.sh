#!/usr/bin/env bash
# Runs every cargo fuzz target, or those named after SECONDS, for SECONDS each (default
# 600: issue 32 asks ten minutes a target without a crash) and writes their rows into
# bench/results/fuzz.md: runs, runs per second, the coverage each reached (libFuzzer's
# edges and features), the outcome and the day. Rows of targets not run are kept, so a
# target fixed after a crash is rerun alone. Nothing else may run beside it: the rates are
# the machine's. Exits 1 when a target crashed (its row says where the input is).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-600}
shift || true
out=bench/results/fuzz.md
status=0
rows=$(bash scripts/fuzz.sh "$secs" "$@") || status=$?
[ -n "$rows" ] || exit 1
day=$(date -u +%Y-%m-%d)
fresh=$(while IFS=$'\t' read -r _ target s runs rate cov ft outcome; do
  echo "| \`$target\` | $s | $runs | $rate | $cov | $ft | $outcome | $day |"
done <<<"$rows")
# Kept: earlier rows of targets not in this run.
kept=""
if [ -f "$out" ]; then
  kept=$(grep '^| `' "$out" | while IFS= read -r row; do
    target=$(cut -d'`' -f2 <<<"$row")
    grep -q "^| \`$target\` " <<<"$fresh" || echo "$row"
  done)
fi
{
  echo "# cargo fuzz: every target"
  echo
  echo "Written by \`bash bench/fuzz.sh SECONDS [TARGET…]\`; last on $day, $(nproc) CPUs"
  echo "($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), nightly"
  echo "$(rustc +nightly --version | cut -d' ' -f2-), cargo-fuzz $(cargo fuzz --version | cut -d' ' -f2)."
  echo "Each target starts from its committed seeds (\`fuzz/seeds/<target>\`) into a fresh corpus."
  echo "A crash's input becomes a seed and a unit test once fixed, and the target is run again."
  echo
  echo "| target | seconds | runs | runs/s | coverage (edges) | features | outcome | day |"
  echo "|---|---:|---:|---:|---:|---:|---|---|"
  printf '%s\n%s\n' "$kept" "$fresh" | grep '^| `' | sort
} >"$out"
echo "fuzz: wrote $out" >&2
exit "$status"
