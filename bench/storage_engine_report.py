"""bench/storage-engine.sh's report: each design's verdict in every run, the red flags
its declared design raised, the wall time of a run, and the first run's output."""
import json
import platform
import subprocess
import sys

work, runs, build_s = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
DESIGNS = ["lazy", "narrow", "realistic", "realistic-no-fsync"]
# What the article's reader would do with each verdict on "striped instead of one lock".
ACTION = {"faster": "ship", "slower": "revert", "equivalent": "irrelevant", "inconclusive": "irrelevant"}
DESIGN_CODES = {
    "working-set-in-cache", "working-set-in-memory", "hot-set-in-cache", "sequential-keys",
    "single-thread", "fixed-size-values", "no-durability", "clean-state",
    "too-short-to-steady", "closed-loop-percentile", "too-few-for-percentile",
    "concurrency-below-little", "generator-on-target", "one-launch", "design-mismatch",
}


def load(i):
    with open(f"{work}/run{i}.json") as f:
        return json.load(f)


def seconds(i):
    with open(f"{work}/run{i}.seconds") as f:
        return float(f.read())


docs = [load(i) for i in range(1, runs + 1)]
cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
print("# The storage-engine story, measured")
print()
print(f"Machine: {subprocess.check_output(['nproc']).decode().strip()} cores, {cpu}, "
      f"{platform.release()}. Re-run: `bash bench/storage-engine.sh` (RUNS={runs}).")
print()
print("One lock around a `HashMap` (baseline) against the map striped over 64 locked shards, in the "
      "four designs of \"Why Benchmarks Lie\" (`examples/storage-engine`, each design declared with "
      "`Bencher::design`). Verdicts per operation, SESOI ±2 %, 99.9 % confidence; "
      "ratio = striped / lock; each run a fresh `cargo bench` process.")
print()


def verdict_table(docs, statistic):
    print("| design | " + " | ".join(f"run {i}" for i in range(1, len(docs) + 1))
          + " | what a reader would do |")
    print("|---|" + "---|" * len(docs) + "---|")
    for name in DESIGNS:
        cells, verdicts = [], []
        for d in docs:
            c = next(c for c in d["comparisons"] if c["candidate"] == f"{name}/striped")
            ci = c.get("ratio_ci")
            ci_text = f" [{ci['lo']:.2f}, {ci['hi']:.2f}]" if ci else ""
            notes = [n for n in c.get("notes", []) if n["code"] == "question-matters"]
            mark = " (question-matters)" if notes else ""
            ratio = f" ×{c['ratio']:.3f}" if c["ratio"] is not None else " (no ratio: too few samples)"
            cells.append(f"{c['verdict']}{ratio}{ci_text}{mark}")
            verdicts.append(c["verdict"])
        counts = {}
        for v in verdicts:
            counts[ACTION[v]] = counts.get(ACTION[v], 0) + 1
        actions = ", ".join(f"{a} ({n} of {len(verdicts)})" for a, n in sorted(counts.items()))
        print(f"| {name} | " + " | ".join(cells) + f" | {actions} |")
    print()


typical = [json.load(open(f"{work}/typical{i}.json")) for i in range(1, runs + 1)]
print("**On the mean** (the default question; the interval over each run's ten launch means):")
print()
verdict_table(docs, "mean")
print("**On the typical case** (`--question typical`: each side's median, distribution-free "
      "order-statistic intervals over the pooled samples of the ten launches; each run right after the mean's):")
print()
verdict_table(typical, "median")
print("Time per operation (mean, first run):")
print()
print("| design | lock | striped |")
print("|---|---|---|")
for name in DESIGNS:
    def mean(side):
        b = next(b for b in docs[0]["benchmarks"] if b["name"] == f"{name}/{side}")
        return b["stats"]["wall-time"]["summary"]["mean"]
    print(f"| {name} | {mean('lock'):.1f} ns | {mean('striped'):.1f} ns |")
print()
print("Red flags each design's declaration raised (the same in every run; the design layer's "
      "codes only — the run's own findings are in the output below):")
print()
print("| design | red flags |")
print("|---|---|")
for name in DESIGNS:
    b = next(b for b in docs[0]["benchmarks"] if b["name"] == f"{name}/lock")
    codes = [x["code"] for x in b["diagnostics"] if x["code"] in DESIGN_CODES]
    print(f"| {name} | {', '.join(codes) if codes else 'none'} |")
print()
times = [seconds(i) for i in range(1, runs + 1)]
print(f"Wall time of one `cargo bench -p storage-engine` (built): "
      f"{', '.join(f'{t:.0f} s' for t in times)}; the release build before them took {build_s:.0f} s "
      f"(incremental: plumb-bench's dependencies were already built).")
print()
print("The first run's output:")
print()
print("```")
with open(f"{work}/run1.txt") as f:
    print(f.read().rstrip())
print("```")
