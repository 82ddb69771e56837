#!/usr/bin/env bash
# plumb load vs wrk and oha against nginx on loopback, in one run. Installs what it needs
# (nginx, wrk and openssl from apt, oha from crates.io: ~6 minutes to compile the first
# time). nginx runs on CPU 0, the load generators on CPU 1. Two parts (PARTS=plain,tls,
# the default, or either alone):
#  plain, in bench/results/load.md (bench/load_run.py, bench/load_report.py):
#  - the highest rate plumb holds on schedule, the closed-loop maximum of wrk, and the
#    highest rate oha holds with -q R --latency-correction;
#  - plumb's p50 at 1,000 req/s next to oha's;
#  - the generator CPU time per 10,000 requests (plumb and oha);
#  - plumb's memory (RSS) after 10 s and after 60 s of a 60 s run.
#  tls, in bench/results/load-https.md (bench/load_run_tls.py, bench/load_report_tls.py):
#  the same highest-rate rule against nginx with TLS (a CA and certificate made here by
#  openssl) over HTTPS with keep-alive, over HTTP/2, and with a new connection per request
#  (handshake-bound), plumb against oha; CPU per 10,000 requests in each mode.
# RATES, SWEEP_S, SHORT_S, MEMORY_S, TLS_RATES, H2_RATES and NEW_RATES shorten it. Every
# output is kept in target/bench/load and target/bench/load-tls.
set -euo pipefail
cd "$(dirname "$0")/.."
PARTS=${PARTS:-plain,tls}
need_apt=()
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || need_apt+=(nginx)
command -v wrk >/dev/null || need_apt+=(wrk)
command -v openssl >/dev/null || need_apt+=(openssl)
if [ ${#need_apt[@]} -gt 0 ]; then
  apt-get install -y -qq "${need_apt[@]}" >/dev/null || { apt-get update -qq && apt-get install -y -qq "${need_apt[@]}" >/dev/null; }
  (systemctl stop nginx || pkill -x nginx) >/dev/null 2>&1 || true
fi
export PATH="$HOME/.cargo/bin:/usr/sbin:$PATH"
command -v oha >/dev/null || cargo install --locked oha
cargo build --release --quiet -p plumb-cli
NGINX=""
trap '[ -n "$NGINX" ] && kill $NGINX 2>/dev/null || true' EXIT

# nginx on CPU 0 with the server block given; waits until it listens on PORT.
start_nginx() {
  local dir=$1 port=$2 server=$3
  cat > "$dir/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $PWD/$dir/nginx.pid;
error_log $PWD/$dir/error.log;
events { worker_connections 8192; }
http {
  access_log off;
  keepalive_requests 100000000;
  $server
}
CONF
  taskset -c 0 nginx -c "$PWD/$dir/nginx.conf" &
  NGINX=$!
  for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && return; sleep 0.1; done
  echo "nginx did not start: $(cat "$dir/error.log")" >&2; exit 1
}

stop_nginx() { kill "$NGINX" 2>/dev/null || true; wait "$NGINX" 2>/dev/null || true; NGINX=""; }

if [[ $PARTS == *plain* ]]; then
  out=target/bench/load; rm -rf "$out"; mkdir -p "$out" bench/results
  start_nginx "$out" 18082 'server { listen 127.0.0.1:18082; location / { return 200 "ok"; } }'
  PLUMB=$PWD/target/release/plumb OUT=$out URL=http://127.0.0.1:18082/ python3 bench/load_run.py
  stop_nginx
  # Measuring and reporting are apart: the report reads only what the run kept in $out.
  python3 bench/load_report.py "$out" | tee bench/results/load.md
fi

if [[ $PARTS == *tls* ]]; then
  out=target/bench/load-tls; rm -rf "$out"; mkdir -p "$out" bench/results
  # A CA and a server certificate for localhost signed by it (P-256, as a CDN would serve).
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$out/ca.key" \
    -out "$out/ca.pem" -days 2 -subj /CN=plumb-bench-CA 2>/dev/null
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$out/server.key" \
    -out "$out/server.csr" -subj /CN=localhost 2>/dev/null
  printf 'subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\n' > "$out/ext.cnf"
  openssl x509 -req -in "$out/server.csr" -CA "$out/ca.pem" -CAkey "$out/ca.key" -CAcreateserial \
    -out "$out/server.pem" -days 2 -extfile "$out/ext.cnf" 2>/dev/null
  start_nginx "$out" 18443 "server { listen 127.0.0.1:18443 ssl http2; ssl_certificate $PWD/$out/server.pem; ssl_certificate_key $PWD/$out/server.key; ssl_protocols TLSv1.2 TLSv1.3; location / { return 200 \"ok\"; } }"
  PLUMB=$PWD/target/release/plumb OUT=$out URL=https://localhost:18443/ CACERT=$PWD/$out/ca.pem \
    python3 bench/load_run_tls.py
  stop_nginx
  python3 bench/load_report_tls.py "$out" | tee bench/results/load-https.md
fi
