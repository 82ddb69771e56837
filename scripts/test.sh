#!/usr/bin/env bash
# Runs every test of the workspace: unit tests beside the code, end-to-end tests of the
# real binary in crates/plumb-cli/tests. A test that cannot run here (a tool missing)
# fails under CI=true; elsewhere it is skipped, recorded, and counted at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
PLUMB_SKIP_LOG=$(mktemp)
export PLUMB_SKIP_LOG
trap 'rm -f "$PLUMB_SKIP_LOG"' EXIT
cargo test --workspace --locked --all-features "$@"
# The enemy examples only exist in optimised code (dead-code elimination, branch layout).
cargo test --release --locked -p plumb-bench --test enemies --test simulated "$@"
skipped=$(wc -l < "$PLUMB_SKIP_LOG")
if [ "$skipped" -gt 0 ]; then
  echo "== $skipped test(s) or part(s) skipped here (each fails under CI=true):"
  sort "$PLUMB_SKIP_LOG" | uniq -c
else
  echo "== no test skipped"
fi
