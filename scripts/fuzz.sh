#!/usr/bin/env bash
# Runs every cargo fuzz target (fuzz/fuzz_targets), or those named after SECONDS, for
# SECONDS each (default 30), from its committed seeds (fuzz/seeds/<target>) into a fresh
# corpus. A crash leaves its input in fuzz/artifacts/<target> and prints the panic; the
# other targets still run, and the script exits 1 at the end. One line a target:
#   fuzz<TAB>target<TAB>seconds<TAB>runs<TAB>runs per second<TAB>coverage (edges)<TAB>features<TAB>outcome
# where the outcome is "no crash" or "crashed: <input>".
# Installs what it needs: the nightly toolchain and cargo-fuzz. Used by .ci/run (30 s a
# target) and bench/fuzz.sh (longer, written to bench/results/fuzz.md).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-30}
shift || true
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
command -v cargo-fuzz >/dev/null 2>&1 || cargo install --locked cargo-fuzz
cd fuzz
# cargo-fuzz finds its binaries under fuzz/target; a CARGO_TARGET_DIR elsewhere (CI's)
# would build them where it does not look.
unset CARGO_TARGET_DIR
cargo +nightly fuzz build -O >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cargo +nightly fuzz list)
crashed=0
for target in "${targets[@]}"; do
  if [ ! -d "seeds/$target" ]; then
    echo "fuzz: $target has no seeds in fuzz/seeds/$target" >&2
    exit 1
  fi
  corpus=$work/$target
  mkdir -p "$corpus"
  log=$work/$target.log
  outcome="no crash"
  if ! cargo +nightly fuzz run -O "$target" "$corpus" "seeds/$target" -- \
    -max_total_time="$secs" -print_final_stats=1 >"$log" 2>&1; then
    echo "fuzz: $target failed after at most $secs s:" >&2
    grep -E -A12 'panicked|ERROR|Test unit written' "$log" >&2 || tail -40 "$log" >&2
    input=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    outcome="crashed: fuzz/${input#"$(pwd -P)"/}"
    [ -n "$input" ] || outcome="failed, no input written (see the output above)"
    crashed=1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  # The last status line: DONE after a full run, the last pulse or NEW before a crash.
  status_line=$({ grep -E '^#[0-9]+[[:space:]].* cov: ' "$log" || true; } | tail -1)
  cov=$(sed -E 's/.*cov: ([0-9]+).*/\1/' <<<"$status_line")
  ft=$(sed -E 's/.* ft: ([0-9]+).*/\1/' <<<"$status_line")
  printf 'fuzz\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$target" "$secs" "${runs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$outcome"
done
exit "$crashed"
