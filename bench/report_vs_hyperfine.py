"""Reads the files bench/vs-hyperfine.sh wrote (the directory given) and prints a Markdown
report; measuring is the shell script's, this reads only what it saved."""
import json
import statistics
import sys

from scipy import stats

out, rounds = sys.argv[1], int(sys.argv[2])


def plumb_times(path):
    doc = json.load(open(path))
    b = doc["benchmarks"][0]
    return b["samples"]["values"]["wall-time"], b["stats"]["wall-time"]


def hyperfine_times(path):
    r = json.load(open(path))["results"][0]
    return [t * 1e9 for t in r["times"]]


def ci999(xs):
    n = len(xs)
    m = statistics.fmean(xs)
    h = stats.t.ppf(0.9995, n - 1) * statistics.stdev(xs) / n**0.5
    return m, h


def us(ns):
    return f"{ns / 1e3:.1f} µs"


raw, hf, pl = [], [], []
for r in range(1, rounds + 1):
    raw.append(float(open(f"{out}/raw-{r}.txt").read().split()[0]))
    hf.append(statistics.fmean(hyperfine_times(f"{out}/hyperfine-true-{r}.json")))
    pl.append(statistics.fmean(plumb_times(f"{out}/plumb-true-{r}.json")[0]))

# The machine and hyperfine's version, as the run recorded them (bench/vs-hyperfine.sh).
machine = open(f"{out}/machine.txt").read().strip()
print(f"# plumb vs hyperfine\n\nMachine: {machine}; {rounds} rounds.\n")
print("## /bin/true: reported mean vs the raw posix_spawn + waitpid floor\n")
med = statistics.median
print("| | raw spawn | hyperfine -N | plumb |")
print("|---|---:|---:|---:|")
print(f"| mean of round means | {us(statistics.fmean(raw))} | {us(statistics.fmean(hf))} | {us(statistics.fmean(pl))} |")
print(f"| median of round means | {us(med(raw))} | {us(med(hf))} | {us(med(pl))} |")
print(f"| ratio to raw (means) | 1 | {statistics.fmean(hf) / statistics.fmean(raw):.3f} | {statistics.fmean(pl) / statistics.fmean(raw):.3f} |")


def paired(a, b):
    d = [x - y for x, y in zip(a, b)]
    m = statistics.fmean(d)
    h = stats.t.ppf(0.975, len(d) - 1) * statistics.stdev(d) / len(d) ** 0.5
    return m, h


hm_, hh_ = paired(hf, raw)
pm_, ph_ = paired(pl, raw)
dm, dh = paired(pl, hf)
print(f"\nAbove the floor (paired by round, mean ± 95% CI): hyperfine {us(hm_)} ± {us(hh_)}, plumb {us(pm_)} ± {us(ph_)}.")
print(f"plumb − hyperfine, paired by round: {us(dm)} ± {us(dh)} (95% CI [{us(dm - dh)}, {us(dm + dh)}]).")
if dm + dh < 0:
    verdict = "plumb adds less than hyperfine does (the whole CI is below 0)"
elif dm - dh > 0:
    verdict = "plumb adds MORE than hyperfine does (the whole CI is above 0)"
else:
    verdict = "plumb adds no measurably different overhead from hyperfine (the CI straddles 0)"
print(f"**{verdict}**; plumb/hyperfine ratio of means {statistics.fmean(pl) / statistics.fmean(hf):.4f}.\n")

print("## sleep 0.01: do both agree within their errors?\n")
print(f"{rounds} alternating blocks per tool, pooled.\n")
ht, pt, block_ratios = [], [], []
for r in range(1, rounds + 1):
    h = hyperfine_times(f"{out}/hyperfine-sleep-{r}.json")
    p = plumb_times(f"{out}/plumb-sleep-{r}.json")[0]
    ht += h
    pt += p
    block_ratios.append(statistics.fmean(p) / statistics.fmean(h))
hm, hh = ci999(ht)
pm, ph = ci999(pt)
w = stats.ttest_ind(pt, ht, equal_var=False)
overlap = (pm - ph) <= (hm + hh) and (hm - hh) <= (pm + ph)
print("| tool | n | mean | 99.9% CI half-width |")
print("|---|---:|---:|---:|")
print(f"| hyperfine -N | {len(ht)} | {hm / 1e6:.4f} ms | {hh / 1e6:.4f} ms |")
print(f"| plumb | {len(pt)} | {pm / 1e6:.4f} ms | {ph / 1e6:.4f} ms |")
print(f"\nRatio plumb/hyperfine {pm / hm:.4f} (per block: {', '.join(f'{x:.3f}' for x in block_ratios)}); "
      f"the 99.9% intervals {'overlap' if overlap else 'DO NOT overlap'}; Welch t-test on the pooled raw times p = {w.pvalue:.3g}.")

diff_sleep = pm - hm
se = (statistics.variance(pt) / len(pt) + statistics.variance(ht) / len(ht)) ** 0.5
h95 = stats.t.ppf(0.975, min(len(pt), len(ht)) - 1) * se
overlap95 = (diff_sleep - h95) <= (dm + dh) and (dm - dh) <= (diff_sleep + h95)
print(f"\nplumb − hyperfine on sleep 0.01: {us(diff_sleep)} ± {us(h95)} (95%); on /bin/true (paired by round): "
      f"{us(dm)} ± {us(dh)}. "
      + ("The two intervals overlap: the tools differ on sleep by no more than the per-run cost one of them "
         "adds on /bin/true."
         if overlap95 else
         "The intervals do not overlap: the sleep difference is not explained by the per-run overhead difference."))
