#!/usr/bin/env bash
# The producers whose errors reach users (the load generator and the in-process harness)
# return error enums whose variants say the cause and the fix, never a bare String: a
# `Result<_, String>` in their sources (tests included) fails this check.
set -euo pipefail
cd "$(dirname "$0")/.."
found=$(grep -rn --include='*.rs' -E 'Result<[^;{]*, *String>' crates/plumb-load/src crates/plumb-bench/src || true)
if [ -n "$found" ]; then
  echo "error types: a Result<_, String> in plumb-load or plumb-bench (use LoadError / BenchError):"
  echo "$found"
  exit 1
fi
echo "error types: plumb-load and plumb-bench return typed errors"
