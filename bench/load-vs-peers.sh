#!/usr/bin/env bash
# plumb load vs wrk and oha against nginx on loopback, in one run. Installs what it needs
# (nginx and wrk from apt, oha from crates.io: ~6 minutes to compile the first time).
# nginx runs on CPU 0, the load generators on CPU 1. Reports, in bench/results/load.md:
#  - the highest rate plumb holds on schedule, the closed-loop maximum of wrk, and the
#    highest rate oha holds with -q R --latency-correction;
#  - plumb's p50 at 1,000 req/s next to oha's;
#  - the generator CPU time per 10,000 requests (plumb and oha);
#  - plumb's memory (RSS) after 10 s and after 60 s of a 60 s run.
# RATES, SWEEP_S, SHORT_S and MEMORY_S shorten it (bench/load_run.py). Every output is kept
# in target/bench/load.
set -euo pipefail
cd "$(dirname "$0")/.."
need_apt=()
command -v nginx >/dev/null || need_apt+=(nginx)
command -v wrk >/dev/null || need_apt+=(wrk)
if [ ${#need_apt[@]} -gt 0 ]; then
  apt-get install -y -qq "${need_apt[@]}" >/dev/null || { apt-get update -qq && apt-get install -y -qq "${need_apt[@]}" >/dev/null; }
fi
command -v oha >/dev/null || cargo install --locked oha
export PATH="$HOME/.cargo/bin:$PATH"
cargo build --release --quiet -p plumb-cli
out=target/bench/load; rm -rf "$out"; mkdir -p "$out" bench/results
cat > "$out/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $PWD/$out/nginx.pid;
error_log $PWD/$out/error.log;
events { worker_connections 8192; }
http {
  access_log off;
  keepalive_requests 100000000;
  server { listen 127.0.0.1:18082; location / { return 200 "ok"; } }
}
CONF
taskset -c 0 nginx -c "$PWD/$out/nginx.conf" &
NGINX=$!
trap 'kill $NGINX 2>/dev/null || true' EXIT
sleep 1
PLUMB=$PWD/target/release/plumb OUT=$out URL=http://127.0.0.1:18082/ python3 bench/load_run.py
# Measuring and reporting are apart: the report reads only what the run kept in $out.
python3 bench/load_report.py "$out" | tee bench/results/load.md
