#!/usr/bin/env bash
# What a harness costs a new user before the first benchmark runs: a one-function crate
# with the harness as its only dev-dependency, built for `cargo bench` (`--no-run`) from an
# empty target directory, for plumb-bench (path dependency on this checkout, default
# features), criterion 0.5 (as `cargo add --dev criterion@0.5` adds it: default features)
# and divan 0.1. The crates are fetched first (downloads are not timed), each lock file
# resolved once and kept, and the tools built one after the other, the order rotated round
# by round (ROUNDS, default 3) so a machine that slows down falls on all alike. Reports
# each tool's median wall time, its ratio to criterion's and the crates compiled; writes
# bench/results/build-cost.md. Run nothing else meanwhile: a build takes both cores.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
rounds=${ROUNDS:-3}
work=$repo/target/bench/build-cost
rm -rf "$work"
mkdir -p "$work"

# One crate per tool: the function, and a bench of it in the tool's own idiom.
make_crate() {
    local tool=$1 dep=$2 bench=$3 dir=$work/$1
    mkdir -p "$dir/src" "$dir/benches"
    cat > "$dir/Cargo.toml" <<EOF
[package]
name = "one-function-$tool"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dev-dependencies]
$dep

[[bench]]
name = "fib"
harness = false
EOF
    printf 'pub fn fib(n: u64) -> u64 {\n    if n < 2 { n } else { fib(n - 1) + fib(n - 2) }\n}\n' > "$dir/src/lib.rs"
    printf '%s\n' "$bench" > "$dir/benches/fib.rs"
    (cd "$dir" && cargo generate-lockfile --quiet && cargo fetch --quiet)
}

make_crate plumb-bench "plumb-bench = { path = \"$repo/crates/plumb-bench\" }" \
'use one_function_plumb_bench::fib;
use plumb_bench::{black_box, Harness};
fn main() {
    let mut h = Harness::from_env();
    h.bench("fib 20", |b| b.iter(|| fib(black_box(20))));
    h.run();
}'
make_crate criterion 'criterion = "0.5"' \
'use criterion::{black_box, criterion_group, criterion_main, Criterion};
use one_function_criterion::fib;
fn bench(c: &mut Criterion) {
    c.bench_function("fib 20", |b| b.iter(|| fib(black_box(20))));
}
criterion_group!(benches, bench);
criterion_main!(benches);'
make_crate divan 'divan = "0.1"' \
'use one_function_divan::fib;
fn main() {
    divan::main();
}
#[divan::bench]
fn fib_20() -> u64 {
    fib(divan::black_box(20))
}'

tools=(plumb-bench criterion divan)
: > "$work/times.tsv"
for ((r = 0; r < rounds; r++)); do
    for ((k = 0; k < ${#tools[@]}; k++)); do
        tool=${tools[$(((k + r) % ${#tools[@]}))]}
        dir=$work/$tool
        rm -rf "$dir/target"
        start=$EPOCHREALTIME
        (cd "$dir" && cargo bench --no-run --offline 2> "$work/$tool.log")
        end=$EPOCHREALTIME
        crates=$(grep -c '^ *Compiling ' "$work/$tool.log" || true)
        printf '%s\t%d\t%s\t%s\n' "$tool" "$r" "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')" "$crates" >> "$work/times.tsv"
        echo "round $((r + 1)): $tool $(tail -1 "$work/times.tsv" | cut -f3) s, $crates crates" >&2
    done
done

python3 - "$work/times.tsv" "$(rustc --version)" "$(nproc)" <<'EOF' | tee "$here/results/build-cost.md"
import statistics, sys
rows = [l.split("\t") for l in open(sys.argv[1]).read().split("\n") if l]
by = {}
for tool, _, secs, crates in rows:
    by.setdefault(tool, []).append((float(secs), int(crates)))
crit = statistics.median(s for s, _ in by["criterion"])
print("# First `cargo bench` build of a one-function crate, by harness\n")
print(f"`bash bench/build-cost.sh`: each tool's crate built from an empty target directory "
      f"with `cargo bench --no-run` (release, crates fetched before), {len(by['criterion'])} "
      f"rounds, order rotated; {sys.argv[2]}, {sys.argv[3]} cores.\n")
print("| harness | median wall time | each round | vs criterion 0.5 | crates compiled |")
print("|---|---:|---|---:|---:|")
for tool in ("plumb-bench", "criterion", "divan"):
    secs = [s for s, _ in by[tool]]
    med = statistics.median(secs)
    each = ", ".join(f"{s:.1f}" for s in secs)
    print(f"| {tool} | {med:.1f} s | {each} | {med / crit:.2f}× | {by[tool][0][1]} |")
EOF
