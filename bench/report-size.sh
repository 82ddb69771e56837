#!/usr/bin/env bash
# plumb report on results of 10^3 … 10^6 samples: the page's size and the time to write
# it (reading and completing the statistics included; `plumb show` of the same file, the
# reading alone, beside it), against the peer approach of hyperfine's plot scripts
# (matplotlib: a histogram and a CDF of every sample, as SVG). Goal: 10^6 samples, a page
# under 2 MB written in under 1 s. Writes bench/results/report-size.md.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import matplotlib, numpy" 2>/dev/null || python3 -m pip install -q matplotlib numpy
cargo build --release --quiet -p plumb-cli
out=target/bench/report-size; rm -rf "$out"; mkdir -p "$out" bench/results
P=target/release/plumb
$P run 'sleep 0.001' --runs 10 --warmup 0 --export-json "$out/seed.json" >/dev/null
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
secs() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N); echo "$t1 - $t0" | bc -l; }
{
  echo "# plumb report: size and write time (bench/report-size.sh)"
  echo
  echo "Synthetic results of n samples (lognormal around 11 ms, 1 % a 3 ms slower tail), one benchmark;"
  echo "each time the median of 3. \`plumb show\` reads the same file and completes its statistics"
  echo "(the report does too): the difference is the page itself. The peer draws what hyperfine's"
  echo "plot scripts draw (matplotlib, a histogram and a CDF of every sample, SVG)."
  echo
  echo "| samples | result JSON | plumb report | page size | plumb show | matplotlib | its SVG | time ratio matplotlib / report |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
  for n in 1000 10000 100000 1000000; do
    python3 bench/report_size.py "$out/seed.json" "$out/r$n.json" "$n"
    rep=$(for i in 1 2 3; do secs $P report "$out/r$n.json" -o "$out/r$n.html"; done | median)
    show=$(for i in 1 2 3; do secs $P show "$out/r$n.json"; done | median)
    peer=$(for i in 1 2 3; do python3 bench/report_peer.py "$out/r$n.json" "$out/r$n.svg"; done | median)
    kib() { echo "$(( $(stat -c %s "$1") / 1024 )) KiB"; }
    printf '| %s | %s | %.3f s | %s | %.3f s | %.3f s | %s | %.1f |\n' "$n" "$(kib "$out/r$n.json")" "$rep" \
      "$(kib "$out/r$n.html")" "$show" "$peer" "$(kib "$out/r$n.svg")" "$(echo "$peer / $rep" | bc -l)"
  done
} | tee bench/results/report-size.md
