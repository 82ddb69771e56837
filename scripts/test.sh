#!/usr/bin/env bash
# Runs every test of the workspace: unit tests beside the code, end-to-end tests of the
# real binary in crates/plumb-cli/tests.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --locked "$@"
# The enemy examples only exist in optimised code (dead-code elimination, branch layout).
cargo test --release --locked -p plumb-bench --test enemies --test simulated "$@"
