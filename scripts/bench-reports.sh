#!/usr/bin/env bash
# Every report script under bench/ reads saved results, apart from the runs that make
# them; here each is run on the results of a small real run kept in bench/fixtures/,
# after every plumb document in them is converted to the current format by this plumb
# (`plumb show --export-json`). A format change that breaks a report fails here, not in a
# benchmark run months later. (bench/report_peer.py is the peer of report-size.sh — the
# plotting hyperfine's scripts do — not a report of plumb's results.)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q -p plumb-cli
target=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
PLUMB=$target/debug/plumb
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A copy of bench/fixtures/$1 whose plumb documents are in the current format, in $dir
# (all but before-after's previous side: the older plumb's own documents, which its report
# reads as they are).
# (Run in this shell, not in a command substitution, so that a failure stops the script.)
current() {
  dir=$tmp/$1
  cp -r "bench/fixtures/$1" "$dir"
  local f
  while read -r f; do
    if ! "$PLUMB" show "$f" --export-json "$f.current" >/dev/null 2>"$tmp/show.err"; then
      echo "bench reports: this plumb does not read $f:" >&2
      cat "$tmp/show.err" >&2
      exit 1
    fi
    mv "$f.current" "$f"
  done < <(grep -rlE --include='*.json' '"format": *"plumb-result"' "$dir" | grep -v -- '-previous-')
}

# Runs a report (the rest of the arguments) and checks that it printed its title.
report() {
  local title=$1; shift
  local out
  out=$("$@")
  if ! grep -qF -- "$title" <<<"$out"; then
    echo "bench reports: $* did not print \"$title\":" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "bench reports: $(basename "$(printf '%s\n' "$@" | grep -m1 '\.py$')"): $(wc -l <<<"$out") lines"
}

current agents
report "# Many agents as one load test" python3 bench/agents_report.py "$dir"
current before-after
report "# Before and after" python3 bench/before_after_report.py "$dir"
current inprocess
report "# In-process harnesses side by side" python3 bench/inprocess_report.py "$dir"
current load
report "# plumb load vs wrk and oha" python3 bench/load_report.py "$dir"
current load-tls
report "# plumb load vs oha over HTTPS and HTTP/2" python3 bench/load_report_tls.py "$dir"
current storage-engine
report "# The storage-engine story, measured" python3 bench/storage_engine_report.py "$dir" 1 0
current vs-hyperfine
report "# plumb vs hyperfine" python3 bench/report_vs_hyperfine.py "$dir" 2
# report-size.sh's generator: a result of many samples made from a saved one, which this
# plumb must read.
python3 bench/report_size.py "$dir/plumb-sleep-1.json" "$tmp/big.json" 10000
"$PLUMB" show "$tmp/big.json" >/dev/null
echo "bench reports: report_size.py: a result of 10000 samples this plumb reads"
current load-compare
# shellcheck disable=SC2046 # the run's settings, one word each
report "# Load comparisons between runs" env PLUMB="$PLUMB" OUT="$dir" $(cat "$dir/env") \
  python3 bench/load_compare_report.py
