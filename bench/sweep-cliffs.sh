#!/usr/bin/env bash
# Which cache cliffs a real sweep finds on this machine: the sweep of tests/sweeps.rs
# (dependent random loads at 16K, 64K, 512K and 64M, 8 runs each) run ROUNDS times
# (default 10), counting the rounds whose result has a cache cliff into 64K and one
# into 64M (the end-to-end test checks that a cliff found names the caches it passes). With HOGS=2, two `yes > /dev/null` run meanwhile.
# The end-to-end test checks the sweep's shape and wording only: which cliffs show is
# the machine's, measured here. Writes bench/results/sweep-cliffs.md.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-10}
hogs=${HOGS:-0}
cargo build --release --quiet -p plumb-cli
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
cc -O2 -o "$work/cache" examples/cache.c
for ((h = 0; h < hogs; h++)); do yes > /dev/null & done  # ended by the trap
: > "$work/found.tsv"
for ((r = 1; r <= rounds; r++)); do
    ./target/release/plumb run -L size 16K,64K,512K,64M --operations 4194304 --runs 8 \
        --warmup 1 --export-json "$work/r$r.json" "$work/cache rand {size} 4194304" > /dev/null
    python3 - "$work/r$r.json" >> "$work/found.tsv" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
found = set()
for b in doc["benchmarks"]:
    for d in b.get("diagnostics", []):
        code = d.get("code") or d.get("finding", {}).get("code")
        if code == "cache-cliff":
            found.add(b["name"].split(" rand ")[1].split()[0])
print(f"{'64K' if '64K' in found else '-'}\t{'64M' if '64M' in found else '-'}")
EOF
    echo "round $r: $(tail -1 "$work/found.tsv")" >&2
done
python3 - "$work/found.tsv" "$rounds" "$hogs" "$(nproc)" <<'EOF' | tee bench/results/sweep-cliffs.md
import sys
rows = [l.split("\t") for l in open(sys.argv[1]).read().split("\n") if l]
n = len(rows)
into64k = sum(1 for r in rows if r[0] != "-")
into64m = sum(1 for r in rows if r[1] != "-")
print("# Cache cliffs a real sweep finds\n")
print(f"`bash bench/sweep-cliffs.sh` (ROUNDS={sys.argv[2]}, HOGS={sys.argv[3]}), {sys.argv[4]} cores: "
      "dependent random loads at 16K, 64K, 512K, 64M, 8 runs each.\n")
print("| cliff | rounds that found it |")
print("|---|---:|")
print(f"| into 64K | {into64k} of {n} |")
print(f"| into 64M | {into64m} of {n} |")
EOF
