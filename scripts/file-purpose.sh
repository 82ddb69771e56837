#!/usr/bin/env bash
# Fails on a Rust file under crates/ whose first line is not a `//!` line saying what the
# file is for: someone new reads that line first, and a file without one has no stated job.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=$(find crates -name '*.rs' -not -path '*/target/*' -print0 | sort -z |
  xargs -0 awk 'FNR == 1 && !/^\/\/!/ { print FILENAME } { nextfile }')
if [ -n "$missing" ]; then
  echo "files that do not open with a //! line saying what they are for:"
  echo "$missing"
  exit 1
fi
echo "file purpose: every file opens with a //! line"
