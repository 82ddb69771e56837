"""Reference change points from Apache Otava 0.8.0 on series generated here (issue 25):
what plumb's port must reproduce in --otava-parity mode. Each series is generated from
its seed and description (so the fixture carries no one else's data), given to Otava as
a list (its windowing is wrong on numpy arrays), with its defaults and a few parameter
sets; the change points' indices, p-values and means are written to
crates/plumb-stats/tests/fixtures/otava-0.8.0.json.

    python3 -m venv /tmp/otava && /tmp/otava/bin/pip install apache-otava==0.8.0
    /tmp/otava/bin/python bench/otava_reference.py
"""
import json, random, sys
from otava.analysis import compute_change_points

def series(kind, seed, n=120):
    r = random.Random(seed)
    if kind == "stationary":
        return [100.0 * (1 + 0.05 * r.gauss(0, 1)) for _ in range(n)]
    if kind == "step":
        return [100.0 * (1.05 if i >= n // 2 else 1.0) * (1 + 0.02 * r.gauss(0, 1)) for i in range(n)]
    if kind == "two-steps":
        return [100.0 * (1.0, 1.2, 0.9)[min(i * 3 // n, 2)] * (1 + 0.02 * r.gauss(0, 1)) for i in range(n)]
    if kind == "spike":
        xs = [100.0 * (1 + 0.02 * r.gauss(0, 1)) for _ in range(n)]
        xs[-1] *= 3
        return xs
    raise ValueError(kind)

PARAMS = [
    {"window_len": 50, "max_pvalue": 0.001, "min_magnitude": 0.0},
    {"window_len": 30, "max_pvalue": 0.01, "min_magnitude": 0.0},
    {"window_len": 200, "max_pvalue": 0.001, "min_magnitude": 0.03},
]

cases = []
for kind in ["stationary", "step", "two-steps", "spike"]:
    for seed in range(5):
        xs = series(kind, seed)
        for p in PARAMS:
            cps, _ = compute_change_points(list(xs), **p)
            cases.append({
                "kind": kind, "seed": seed, "params": p, "series": xs,
                "change_points": [{"index": int(cp.index), "pvalue": float(cp.stats.pvalue),
                                   "mean_before": float(cp.stats.mean_1),
                                   "mean_after": float(cp.stats.mean_2)} for cp in cps],
            })
out = "crates/plumb-stats/tests/fixtures/otava-0.8.0.json"
json.dump({"otava": "0.8.0", "cases": cases}, open(out, "w"), indent=1)
print(f"{len(cases)} cases written to {out}", file=sys.stderr)
