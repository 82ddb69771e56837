#!/usr/bin/env bash
# Runs every test of the workspace: unit tests beside the code, end-to-end tests of the
# real binary in crates/plumb-cli/tests.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --locked "$@"
