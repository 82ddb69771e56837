#!/usr/bin/env bash
# Writes docs/report-run.png: the page `plumb report` makes of a two-command run (the
# README shows it). Needs chromium (.ci/run installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet -p plumb-cli
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
target/release/plumb run 'sleep 0.01' 'sleep 0.012' --runs 40 --warmup 3 \
  --export-json "$out/run.json" >/dev/null
target/release/plumb report "$out/run.json" -o "$out/report.html"
chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size=1000,1700 \
  --screenshot="$PWD/docs/report-run.png" "file://$out/report.html" 2>/dev/null
echo "wrote docs/report-run.png"
