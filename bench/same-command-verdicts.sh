#!/usr/bin/env bash
# Repeated tries of "compare a command with itself": a correct verdict engine must answer
# equivalent or inconclusive every time, never faster or slower.
#  A. two separate `plumb run` of the same command, then `plumb compare` (SESOI 2 %);
#  B. the same command twice in one interleaved `plumb run`.
# Prints the count of each verdict and writes bench/results/same-command-verdicts.md.
set -euo pipefail
cd "$(dirname "$0")/.."
TRIES=${TRIES:-10}
CMD=${CMD:-sleep 0.01}
RUNS=${RUNS:-30}
cargo build --release --quiet -p plumb-cli
PLUMB=target/release/plumb
out=target/bench/same-command; rm -rf "$out"; mkdir -p "$out" bench/results
declare -A a b
for t in $(seq 1 "$TRIES"); do
  "$PLUMB" run "$CMD" --runs "$RUNS" --no-progress --export-json "$out/a-$t.json" >/dev/null
  "$PLUMB" run "$CMD" --runs "$RUNS" --no-progress --export-json "$out/b-$t.json" >/dev/null
  v=$("$PLUMB" compare "$out/a-$t.json" "$out/b-$t.json" --sesoi 2% | grep -oE 'faster|slower|equivalent|inconclusive' | head -1)
  a[$v]=$(( ${a[$v]:-0} + 1 ))
  "$PLUMB" run "$CMD" "$CMD" --runs "$RUNS" --no-progress --export-json "$out/c-$t.json" >/dev/null
  v=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['comparisons'][0]['verdict'])" "$out/c-$t.json")
  b[$v]=$(( ${b[$v]:-0} + 1 ))
  echo "try $t of $TRIES done" >&2
done
{
  echo "# Same command against itself: $TRIES tries of \`$CMD\`, $RUNS runs each, SESOI 2 %"
  echo
  echo "| design | faster | slower | equivalent | inconclusive |"
  echo "|---|---:|---:|---:|---:|"
  echo "| A. two runs, plumb compare | ${a[faster]:-0} | ${a[slower]:-0} | ${a[equivalent]:-0} | ${a[inconclusive]:-0} |"
  echo "| B. one interleaved run | ${b[faster]:-0} | ${b[slower]:-0} | ${b[equivalent]:-0} | ${b[inconclusive]:-0} |"
} | tee bench/results/same-command-verdicts.md
