#!/usr/bin/env bash
# Writes bench/imports.md: each format plumb imports, what plumb reads from it and what it
# adds beyond the harness's own summary, with the real output of one comparison per format
# (this plumb, run on the real exports in crates/plumb-import/tests/fixtures, whose README
# gives the command that made each). Run again after a change to an importer or to what
# compare prints; nothing here is timed.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q -p plumb-cli
target=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
PLUMB=$target/debug/plumb
out=bench/imports.md
fixtures=crates/plumb-import/tests/fixtures

# One format's section: its heading and prose (stdin), then `plumb compare ARGS...` as
# run in the fixtures directory, its report and notes as printed (exit status said).
section() {
  local title=$1; shift
  {
    echo "### $title"
    echo
    cat
    echo
    echo '```console'
    echo "\$ plumb compare $*"
    local code=0
    (cd "$fixtures" && NO_COLOR=1 "$PLUMB" compare "$@" 2>&1) || code=$?
    echo "(exit status $code)"
    echo '```'
    echo
  } >>"$out"
}

cat >"$out" <<'MD'
# Other harnesses' results in plumb

`plumb show`, `compare`, `report` and `history add` read the results of eleven other
harnesses, found by their content (or named with `--format NAME`). Written by
`bench/imports.sh` from the real exports in `crates/plumb-import/tests/fixtures` (its
README gives the command that made each); every output below is this plumb's, as printed.

What every import gets that its harness does not give: one verdict per benchmark —
faster, slower, equivalent or inconclusive — against a smallest effect of interest
(SESOI, ±2 % by default), at a stated confidence, with the ratio's interval and the
reason; between-run comparison of any two files, of any two formats, paired by name (or
`--pair OLD=NEW`); and a note of what each file carried. What an import cannot give, it
says: a harness that kept only a summary is judged from what that summary holds — mean,
standard deviation and count (Welch, TOST and Fieller as for samples), or an interval of
one statistic at a stated level (the ratio bounded by the two intervals, at their levels
together) — and a summary of one value a side gets no verdict, with the reason.

| Format | What plumb reads | Carries | What plumb adds beyond the harness's own summary |
|---|---|---|---|
| hyperfine `--export-json` (1.x and 2.0) | each run's time, exit codes, parameters; 2.0: each run's CPU, user and system time, peak RSS, counters | samples | verdicts with an interval and a SESOI (hyperfine prints means ± σ); modes, outliers, run order |
| Google Benchmark JSON | each repetition over its iterations; real and CPU time | samples | the ratio's interval and equivalence (its `compare.py` gives a U-test p only) |
| criterion `target/criterion` | every sample of `new/` (iterations, times) | samples | batch means for the interval (criterion treats back-to-back samples as independent); comparison across runs and tools |
| Go `go test -bench` / `-json` | each `-count` line over its N; B/op, allocs/op, ReportMetric | samples | SESOI verdicts and equivalence (benchstat gives medians, a CI and a p) |
| pytest-benchmark JSON | each round (`data`); without `--benchmark-save-data`, its mean, σ, median, min, max and rounds | samples, or a summary | intervals and verdicts (`pytest-benchmark compare` prints numbers only); a summary judged from mean, σ and count |
| JMH `-rf json` | each iteration (each sampled call in sample mode), throughput inverted | samples by fork | the forks as replicates: the interval holds the between-JVM variance (JMH's error pools all iterations) |
| BenchmarkDotNet full JSON | the result phase, each iteration over its operations; a brief export's statistics | samples by launch, or a summary | the launches as replicates; a summary judged from mean, σ and N |
| asv results | each combination's samples (`--record-samples`), else its median with asv's 99 % interval; units from `benchmarks.json` | samples, or a summary | SESOI verdicts and equivalence (asv compare flags non-overlap beyond a factor); samples met with a summary by their own interval at its level |
| Catch2 `-r xml` | each benchmark's mean with its bootstrap interval, σ and sample count | a summary | a verdict at all (Catch2 compares nothing), from mean, σ and count |
| gungraun / iai-callgrind | callgrind's counts of one call: instructions, data reads and writes, L1 and LL misses, branches | exact counts | a verdict on instructions by their ratio against the SESOI, never read as time |
| Bencher Metric Format | one value (and bounds) per benchmark and measure | one value | nothing it cannot: no verdict from one value a side, said with what it would need |

MD

section "hyperfine" hyperfine.json hyperfine.json --pair 'sleep 0.01=sleep 0.02' <<'MD'
`sleep 0.01` against `sleep 0.02`, both from one export (15 runs each).
MD
section "Google Benchmark" gbench.json gbench.json --pair 'BM_sum/1024=BM_sum/4096' <<'MD'
A sum over 1 Ki ints against 4 Ki, five repetitions each (Debian's libbenchmark 1.7).
MD
section "criterion" criterion-before criterion-after <<'MD'
Two runs of criterion 0.5 over the same code: every sample of each, batch means for the
interval.
MD
section "Go testing" go/go-before.txt go/go-after.txt <<'MD'
`go test -bench Sum -count 5`, before and after the sum's `t += x` became `t += x % 7`.
MD
section "pytest-benchmark (a saved summary against rounds)" pytest/pytest-saved-summary.json pytest/pytest-after.json <<'MD'
A run saved without `--benchmark-save-data` (a summary) against one with every round.
MD
section "JMH" jmh/jmh-avgt.json jmh/jmh-avgt.json --pair 'bench.Sums.sum(size=64)=bench.Sums.sum(size=1024)' <<'MD'
JMH 1.37, average time, two forks of three iterations. The forks are the replicates, so
each side has two: at 99.9 % their ratio is unbounded, which is the truth about two
JVMs — JMH's own error, pooling the six iterations as if independent, would look tight.
MD
section "BenchmarkDotNet" bdn/memory-report-full.json bdn/memory-report-full.json --pair 'BenchmarkDotNet.Samples.Memory.AllocEmptyList=BenchmarkDotNet.Samples.Memory.AllocExactList' <<'MD'
BenchmarkDotNet 0.15.8's full JSON (from Bencher's test data: .NET does not run here).
MD
section "asv (samples against a summary)" asv/results/vm/asv-before.json asv/results/vm/asv-after.json --confidence 98% <<'MD'
asv 0.6.6: a run with `--record-samples` against one without, after the loop was made
slower; `benchmarks.json` beside them gives units and parameter names. asv keeps the
median's 99 % interval, so at the default 99.9 % plumb gives no verdict and says that
the intervals hold together at 98 % only; asked at 98 % (`--confidence 98%`), the samples'
side takes its own median interval at 99 % and the pair holds at 98 %.
MD
section "Catch2" catch2/catch2-before.xml catch2/catch2-after.xml <<'MD'
Catch2 2.13.10's XML reporter, 30 samples a benchmark, before and after `t += x % 7`.
MD
section "gungraun" gungraun/before gungraun/after.jsonl <<'MD'
gungraun 0.20: the `summary.json` files of one run (a directory) against the JSON lines
of the next, after the sum became `x % 7`.
MD
section "Bencher Metric Format" bmf/report_latency.json bmf/report_latency.json <<'MD'
One value per benchmark: plumb says why no verdict can come from it.
MD
echo "imports: wrote $out" >&2
