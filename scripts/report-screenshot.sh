#!/usr/bin/env bash
# Writes the screenshots of plumb report's pages the README shows, one per kind of
# result: docs/report-run.png (two commands and a verdict), docs/report-sweep.png (a
# cache sweep), docs/report-inprocess.png (plumb-bench's cache enemy, in-process),
# docs/report-load.png (a load test of bench/spin-server.c) and docs/report-profile.png
# (examples/shares.c). Needs cc, chromium and perf (.ci/run
# installs them). Takes about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet -p plumb-cli
P=$PWD/target/release/plumb
out=$(mktemp -d)
server=""
trap 'rm -rf "$out"; [ -n "$server" ] && kill "$server" 2>/dev/null || true' EXIT
shot() { # page.html docs/name.png height
  chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size=1000,"$3" \
    --screenshot="$PWD/$2" "file://$1" 2>/dev/null
  echo "wrote $2"
}

$P run 'sleep 0.01' 'sleep 0.012' --runs 40 --warmup 3 --report "$out/run.html" >/dev/null
shot "$out/run.html" docs/report-run.png 1700

cc -O2 -o "$out/cache" examples/cache.c
$P run -L size 16K,64K,512K,2M,8M,64M --operations 4194304 --runs 8 --warmup 1 \
  --report "$out/sweep.html" "$out/cache rand {size} 4194304" >/dev/null
shot "$out/sweep.html" docs/report-sweep.png 1400

cargo bench -q -p plumb-bench --bench enemies -- --regex '^e4_cache/' --report "$out/inproc.html" \
  --export-json "$out/inproc.json" >/dev/null 2>&1
shot "$out/inproc.html" docs/report-inprocess.png 1500

cc -O2 -o "$out/spin-server" bench/spin-server.c
"$out/spin-server" 18095 200 & server=$!
sleep 0.3
$P load http://127.0.0.1:18095/ --rate 1000 --duration 10s --warmup 1s --allow-late \
  --report "$out/load.html" >/dev/null
shot "$out/load.html" docs/report-load.png 1500

cc -O2 -g -o "$out/shares" examples/shares.c
$P profile -o "$out/prof" -- "$out/shares" >/dev/null
shot "$out/prof/report.html" docs/report-profile.png 1300
