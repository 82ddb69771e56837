"""False alarms and detections of change points, plumb beside Apache Otava 0.8.0 on the same
generated series (issue 25). Each scenario's series are generated here from a seed; Otava
runs in this Python (a list per series: its windowing is wrong on numpy arrays), plumb
through crates/plumb-stats/examples/change_points_of.rs (the functions plumb history
changes calls). Prints Markdown. Run by bench/history.sh:

    python bench/history_rates.py PATH/TO/change_points_of [SERIES]
"""
import json, random, subprocess, sys, time
from otava.analysis import compute_change_points

EXAMPLE = sys.argv[1]
N_SERIES = int(sys.argv[2]) if len(sys.argv) > 2 else 200


def gauss_series(r, n, cv, se_share=0.005):
    values = [100.0 * (1 + cv * r.gauss(0, 1)) for _ in range(n)]
    return values, [100.0 * se_share] * n


def stationary(seed):
    return gauss_series(random.Random(seed), 200, 0.05)


def stationary_outliers(seed):
    """CV 5 %, and one run in fifty 30 % slow (a busy neighbour) with a wide interval."""
    r = random.Random(seed)
    values, errors = gauss_series(r, 200, 0.05)
    for i in range(200):
        if r.random() < 0.02:
            values[i] *= 1.3
            errors[i] = 8.0
    return values, errors


def step_after(k):
    """A +5 % step at CV 2 %, with k points measured after it (195 before)."""
    def gen(seed):
        r = random.Random(seed)
        values, errors = gauss_series(r, 195 + k, 0.02)
        return [v * (1.05 if i >= 195 else 1.0) for i, v in enumerate(values)], errors
    return gen


def spike_at(where):
    def gen(seed):
        r = random.Random(seed)
        values, errors = gauss_series(r, 200, 0.02)
        values[where] *= 3.0
        return values, errors
    return gen


def busy_burst(seed):
    """CV 2 %; three runs in a row 10 % slow on a busy machine, each with a ±8 % interval."""
    r = random.Random(seed)
    values, errors = gauss_series(r, 200, 0.02)
    at = r.randrange(50, 190)
    for i in range(at, at + 3):
        values[i] *= 1.10
        errors[i] = 8.0
    return values, errors, at


def run_plumb(mode, series):
    data = json.dumps([{"values": v, "errors": e} for v, e in series])
    out = subprocess.run([EXAMPLE, mode], input=data, capture_output=True, text=True, check=True)
    return json.loads(out.stdout), out.stderr.strip()


def run_otava(series):
    start = time.perf_counter()
    found = [[cp.index for cp in compute_change_points(list(v))[0]] for v, _ in series]
    return found, time.perf_counter() - start


MODES = ["otava", "plumb-plain", "plumb", "plumb-across"]


def analyse(series):
    """Each mode's change points of every series."""
    out = {"otava": run_otava(series)[0]}
    for mode in MODES[1:]:
        out[mode] = run_plumb(mode, series)[0]
    return out


def pct(k, n):
    return f"{100.0 * k / n:.1f} % ({k}/{n})"


def row(name, found, judge):
    cells = [pct(sum(judge(i, f) for i, f in enumerate(found[m])), len(found[m])) for m in MODES]
    print(f"| {name} | " + " | ".join(cells) + " |")


def main():
    seeds = range(N_SERIES)
    print(f"{N_SERIES} series per row, each generated from its seed. Otava at its defaults (window 50,")
    print("p 0.001, magnitude 0); plumb at its defaults (window 50, α 0.005, minimum segment 3, a level")
    print("holding without its most extreme point, the newest 3–10 points tested apart at α/2; its α")
    print("is corrected for the search, Otava's p is not). `plumb-plain` ignores the points' own")
    print("errors; `plumb` weighs each point by its error; `plumb-across` also holds α across all")
    print(f"{N_SERIES} series of a row at once (Benjamini–Hochberg), as `plumb history changes` does.")
    print()
    print("| scenario: share of series that … | Otava 0.8.0 | plumb, unweighted | plumb | plumb, across series |")
    print("|---|---|---|---|---|")
    s = [stationary(i) for i in seeds]
    row("stationary (200 points, CV 5 %): any change point (false alarm; goal ≤ 1 %)", analyse(s), lambda i, f: len(f) > 0)
    s = [stationary_outliers(i) for i in seeds]
    row("stationary CV 5 %, 2 % of runs 30 % slow with ±8 % intervals: any change point", analyse(s), lambda i, f: len(f) > 0)
    s = [step_after(5)(i) for i in seeds]
    found = analyse(s)
    row("+5 % step at CV 2 %, 5 points after it: a change within ±5 (goal ≥ 95 %)", found, lambda i, f: any(abs(c - 195) <= 5 for c in f))
    row("… located within ±1 point (goal ≥ 90 %)", found, lambda i, f: any(abs(c - 195) <= 1 for c in f))
    row("… a change point elsewhere", found, lambda i, f: any(abs(c - 195) > 5 for c in f))
    s = [spike_at(199)(i) for i in seeds]
    row("×3 spike on the newest point (CV 2 %): a change point whose level holds it (goal 0)", analyse(s), lambda i, f: any(c >= 197 for c in f))
    s = [spike_at(100)(i) for i in seeds]
    row("×3 spike in the middle (CV 2 %): a change point whose level holds it or ends at it (goal 0)", analyse(s), lambda i, f: any(98 <= c <= 101 for c in f))
    bursts = [busy_burst(i) for i in seeds]
    at = [b[2] for b in bursts]
    row("three busy runs in a row, +10 % with ±8 % intervals (CV 2 %): a change point at them", analyse([(v, e) for v, e, _ in bursts]), lambda i, f: any(at[i] - 1 <= c <= at[i] + 4 for c in f))
    print()
    print("Points after the step before it is found (+5 % at CV 2 %, 195 points before): share of series with a change within ±5 of the step")
    print()
    print("| points after | " + " | ".join(MODES) + " |")
    print("|---|" + "---|" * len(MODES))
    for k in (1, 2, 3, 4, 5, 7, 10):
        found = analyse([step_after(k)(i) for i in seeds])
        cells = [pct(sum(any(abs(c - 195) <= 5 for c in f) for f in found[m]), N_SERIES) for m in MODES]
        print(f"| {k} | " + " | ".join(cells) + " |")
    print()
    print("Analysis time, 100 stationary series × 500 points (CV 5 %), one process each; the")
    print("library alone (plumb history changes adds reading the store: see its own figure):")
    print()
    s = [gauss_series(random.Random(10_000 + i), 500, 0.05) for i in range(100)]
    _, otava_s = run_otava(s)
    print("| | time | ratio to Otava |")
    print("|---|---|---|")
    print(f"| Otava 0.8.0 (Python, numpy) | {otava_s:.3f} s | 1 |")
    for mode in ["plumb", "plumb-across"]:
        _, said = run_plumb(mode, s)
        secs = parse_secs(said)
        print(f"| {mode} (Rust, release) | {secs:.3f} s | {secs / otava_s:.3f} |")


def parse_secs(said):
    """`plumb: 100 series in 12.3ms` → seconds."""
    amount = said.rsplit(" in ", 1)[1]
    for unit, scale in (("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9), ("s", 1.0)):
        if amount.endswith(unit):
            return float(amount[: -len(unit)]) * scale
    raise ValueError(said)


main()
