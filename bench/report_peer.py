"""The peer of bench/report-size.sh: what hyperfine's plot scripts do (matplotlib, as in
its scripts/plot_histogram.py), a histogram and a CDF of every sample saved as SVG.
Prints the seconds it took (after imports) and the bytes written."""
import json
import sys
import time

import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

src, dst = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
doc = json.load(open(src))
values = np.array(doc["benchmarks"][0]["samples"]["values"]["wall-time"], dtype=float)
fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
a.hist(values, bins="auto")
s = np.sort(values)
b.step(s, np.arange(1, len(s) + 1) / len(s))
fig.savefig(dst)
print(f"{time.perf_counter() - t0:.3f}")
