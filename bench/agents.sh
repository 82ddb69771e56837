#!/usr/bin/env bash
# Many agents as one load test (issue 29): 8 agents on 8 hosts coordinated by plumb
# coordinate, against one generator and against 8 agents started the old way
# (--start-at, rate/8 each, plumb merge), at 2,000 req/s in total. Hosts are network
# namespaces (root and iproute2; addresses only inside them, removed at the end); the
# server records every arrival. Installs what it needs (iproute2 from apt, hdrhistogram
# from PyPI for the independent merge check). RATE, DURATION, WARMUP and ROUNDS shorten
# it. Writes bench/results/agents.md; every output is kept in target/bench/agents.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v ip >/dev/null || { apt-get install -y -qq iproute2 >/dev/null || { apt-get update -qq && apt-get install -y -qq iproute2 >/dev/null; }; }
python3 -c 'import hdrh' 2>/dev/null || python3 -m pip install --quiet hdrhistogram==0.10.8 2>/dev/null ||
  python3 -m pip install --quiet --break-system-packages hdrhistogram==0.10.8
cargo build --release --quiet -p plumb-cli
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
out=target/bench/agents
rm -rf "$out"; mkdir -p "$out" bench/results
python3 bench/agents_run.py "$out" "$target/release/plumb"
python3 bench/agents_report.py "$out" > bench/results/agents.md
cat bench/results/agents.md
