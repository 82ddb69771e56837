#!/usr/bin/env bash
# How well the `multimodal` check finds modes, and how often it cries wolf.
#  1. Simulated: alarm rates of each mode detector on unimodal samples (normal, lognormal,
#     gamma at n = 30, 100, 1000) and on two-mode mixtures at n = 100
#     (crates/plumb-stats/examples/mode_detection_rates.rs; REPS samples per row).
#  2. Real: a command that takes a path twice as slow in 30 % of its runs, run TRIES times
#     × RUNS runs by `plumb run`: is the diagnostic there, and what does it say?
# Writes bench/results/modality.md. No peer here: the figures are rates against known
# truth, not speeds.
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=${REPS:-2000}
TRIES=${TRIES:-3}
RUNS=${RUNS:-100}
cargo build --release --quiet -p plumb-cli
cargo build --release --quiet -p plumb-stats --example mode_detection_rates
out=target/bench/modality; rm -rf "$out"; mkdir -p "$out" bench/results
report=bench/results/modality.md
SLOW_PATH='r=$(od -An -N1 -tu1 /dev/urandom); if [ $((r % 10)) -lt 3 ]; then sleep 0.02; else sleep 0.01; fi'
{
  echo "# Mode detection: false alarms and detections"
  echo
  echo "Machine: $(nproc) cores, $(uname -r); $(date -u +%Y-%m-%d). Re-run: \`bash bench/modality.sh\`."
  echo
  echo "## Simulated samples"
  echo
  target/release/examples/mode_detection_rates "$REPS"
  echo
  echo "## A real command with a slow path in 30 % of its runs"
  echo
  echo "\`plumb run --shell --runs $RUNS\` of \`$SLOW_PATH\` (about 30.5 % of runs sleep 20 ms, the rest 10 ms), $TRIES times:"
  echo
  echo '```'
  for t in $(seq 1 "$TRIES"); do
    target/release/plumb run --shell --runs "$RUNS" --no-progress -n slow-path \
      --export-json "$out/run-$t.json" "$SLOW_PATH" >/dev/null
    python3 - "$out/run-$t.json" "$t" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
b = doc["benchmarks"][0]
found = [d for d in b["diagnostics"] if d["code"] == "multimodal"]
def modes(d):
    ms = ", ".join(f"{100 * m['share']:.0f}% near {m['location']['value'] / 1e6:.2f} ms" for m in d["modes"])
    return f"{len(d['modes'])} modes ({ms}); dip test p {d['dip_p']:.2g}, mValue {d['mvalue']:.2f}"
print(f"try {sys.argv[2]}: " + (modes(found[0]) if found else "NO multimodal diagnostic"))
PY
  done
  echo '```'
} | tee "$report"
