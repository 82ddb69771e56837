#!/usr/bin/env bash
# The enemies a clock decides (plumb-bench/tests/enemies.rs, ignored as a test): a cold
# start, busy cores against a quiet pair of identical copies, sorted data far faster than
# shuffled, a loop the compiler deleted — each flagged by its check and its clean twin
# not. Run ROUNDS times (default 5) on this machine as it is, then as often with two
# `yes > /dev/null` hogs; counts the rounds that passed, keeps each failure's words.
# Writes bench/results/enemies.md. The test suite keeps the enemies no clock decides.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-5}
cargo test --release --locked -q -p plumb-bench --test enemies --no-run 2> /dev/null
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
check() {
    cargo test --release --locked -q -p plumb-bench --test enemies -- --ignored \
        the_enemies_a_clock_decides_show_on_this_machine > "$work/out" 2>&1
}
run_rounds() {
    local label=$1 passed=0 said=""
    for ((r = 1; r <= rounds; r++)); do
        if check; then
            passed=$((passed + 1))
        else
            said="$said; $(grep -m1 -A1 'panicked at' "$work/out" | tail -1)"
        fi
        echo "$label round $r: $passed passed so far" >&2
    done
    echo "| $label | $passed of $rounds | ${said#; } |"
}
{
    echo "# The enemies a clock decides, on this machine"
    echo
    echo "\`bash bench/enemies.sh\` (ROUNDS=$rounds), $(nproc) cores, $(date -u +%Y-%m-%d):"
    echo "plumb-bench's enemies measured in one process each round; a round passes when"
    echo "every timing enemy is flagged by its check and no clean twin is."
    echo
    echo "| machine | rounds passed | what failed |"
    echo "|---|---:|---|"
    run_rounds "as it is"
} > "$work/report"
# The hogs belong to this shell, so the trap above ends them whatever happens.
yes > /dev/null &
yes > /dev/null &
run_rounds "two CPU hogs" >> "$work/report"
kill $(jobs -p) 2>/dev/null || true
cat "$work/report"
cp "$work/report" bench/results/enemies.md
