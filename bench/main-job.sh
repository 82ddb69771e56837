#!/usr/bin/env bash
# The README's main job from a fresh clone: this checkout's HEAD cloned into an empty
# directory, its crates fetched (downloads are not timed), then `cargo run --release --
# run 'sleep 0.01' 'sleep 0.02'` timed whole (the build and the run); beside it, the peer
# a new user would otherwise install, `cargo install --locked hyperfine@1.20.0` into an
# empty root and target, also fetched first. Alternated over ROUNDS rounds (default 2),
# the order rotated. Writes bench/results/main-job.md. Run nothing else meanwhile.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
rounds=${ROUNDS:-2}
work=$repo/target/bench/main-job
rm -rf "$work"
mkdir -p "$work"
git clone -q "$repo" "$work/plumb"
(cd "$work/plumb" && cargo fetch --locked --quiet)
# hyperfine's sources and lock file, fetched once (cargo install reads them offline after).
mkdir -p "$work/peer-home"
CARGO_TARGET_DIR="$work/peer-target" cargo install --locked --quiet hyperfine@1.20.0 --root "$work/peer-root" 2> /dev/null
timed() {
    local start=$EPOCHREALTIME
    "$@" > /dev/null 2>&1
    awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'
}
: > "$work/times.tsv"
for ((r = 0; r < rounds; r++)); do
    for k in 0 1; do
        case $(((k + r) % 2)) in
        0)
            rm -rf "$work/plumb/target"
            t=$(cd "$work/plumb" && timed cargo run --release --locked --offline -- run 'sleep 0.01' 'sleep 0.02')
            printf 'plumb\t%s\n' "$t" >> "$work/times.tsv"
            echo "round $((r + 1)): plumb's main job ${t} s" >&2
            ;;
        1)
            rm -rf "$work/peer-target" "$work/peer-root"
            t=$(CARGO_TARGET_DIR="$work/peer-target" timed cargo install --locked --offline hyperfine@1.20.0 --root "$work/peer-root")
            printf 'hyperfine\t%s\n' "$t" >> "$work/times.tsv"
            echo "round $((r + 1)): cargo install hyperfine ${t} s" >&2
            ;;
        esac
    done
done
python3 - "$work/times.tsv" "$(git -C "$repo" rev-parse --short HEAD)" "$(nproc)" <<'EOF' | tee "$here/results/main-job.md"
import statistics, sys
by = {}
for line in open(sys.argv[1]).read().split("\n"):
    if line:
        tool, secs = line.split("\t")
        by.setdefault(tool, []).append(float(secs))
p, h = statistics.median(by["plumb"]), statistics.median(by["hyperfine"])
print("# The README's main job from a fresh clone\n")
print(f"`bash bench/main-job.sh` at {sys.argv[2]}, {sys.argv[3]} cores: a fresh clone, crates "
      "fetched first, then timed whole (build and run), beside `cargo install hyperfine` "
      "from an empty root and target.\n")
print("| | median | each round | vs cargo install hyperfine |")
print("|---|---:|---|---:|")
print(f"| `cargo run --release -- run 'sleep 0.01' 'sleep 0.02'` | {p:.1f} s | "
      + ", ".join(f"{s:.1f}" for s in by["plumb"]) + f" | {p / h:.2f}× |")
print(f"| `cargo install --locked hyperfine@1.20.0` | {h:.1f} s | "
      + ", ".join(f"{s:.1f}" for s in by["hyperfine"]) + " | 1.00× |")
EOF
