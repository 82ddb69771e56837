"""The README's table of bench/calibration.sh: both machine states side by side, from the
invocations it kept (bench/results/calibration-raw.json). Per tool and workload: the CV of
the means across invocations, and the share of other invocations' means inside each
invocation's stated 99.9 % intervals — this run's own, and (plumb) the interval between
runs, stated once five earlier runs were kept; in brackets, leaving out the runs plumb said
were unlike their recent ones."""
import json
import statistics
import sys


def coverage(rows, interval, said=False):
    inside = total = 0
    for i, row in enumerate(rows):
        ci = interval(row)
        if ci is None:
            continue
        for j, other in enumerate(rows):
            if i != j and not (said and other[4]):
                total += 1
                inside += ci[0] <= other[0] <= ci[1]
    return inside / total if total else None


def cells(rows):
    means = [r[0] for r in rows]
    cv = statistics.stdev(means) / statistics.fmean(means)
    own = coverage(rows, lambda r: (r[1], r[2]))
    across = coverage(rows, lambda r: r[3])
    if across is None:
        return [f"{cv:.1%}", f"{own:.0%}", "—"]
    said = coverage(rows, lambda r: r[3], said=True)
    flagged = sum(r[4] for r in rows)
    extra = f" ({said:.0%} without {flagged})" if flagged else ""
    return [f"{cv:.1%}", f"{own:.0%}", f"{across:.0%}{extra}"]


def main():
    raw = json.load(open(sys.argv[1] if len(sys.argv) > 1 else "bench/results/calibration-raw.json"))
    print("| tool | workload | quiet: CV of means | this run's interval holds | interval between runs holds | two hogs: CV | this run's | between runs |")
    print("|---|---|---|---|---|---|---|---|")
    for key, rows in raw["quiet"].items():
        tool, workload = key.split(" | ")
        busy = raw["busy"].get(key)
        right = cells(busy) if busy else ["—"] * 3
        print(f"| {tool} | {workload} | " + " | ".join(cells(rows) + right) + " |")


main()
