"""The report of bench/agents.sh, from the outputs it kept (runs.json, each run's plumb
documents and the server's arrivals): the rate achieved, the time between requests at
the server for 8 coordinated agents, one generator and 8 agents started the old way,
the agents' start as the server saw it and as the coordinator measured the clocks, and
the merged percentiles against the agents' histograms added up by an independent
HdrHistogram (the `hdrhistogram` package from PyPI). Usage: agents_report.py DIR."""
import json
import os
import statistics
import sys
from datetime import datetime, timezone

from hdrh.histogram import HdrHistogram

DIR = sys.argv[1]
META = json.load(open(os.path.join(DIR, "runs.json")))
WAYS = {
    "coordinated": f"{META['agents']} agents, coordinated (--agents {META['agents']} --coordinator)",
    "one": "one generator",
    "threads": f"one generator, --threads {META['agents']}",
    "naive": f"{META['agents']} agents at rate/{META['agents']}, --start-at, plumb merge",
}


def ns(stamp):
    """Nanoseconds since the epoch of an RFC 3339 time in UTC with up to 9 decimals."""
    whole, _, frac = stamp.rstrip("Z").partition(".")
    t = datetime.strptime(whole, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=timezone.utc)
    return int(t.timestamp()) * 1_000_000_000 + int((frac or "0").ljust(9, "0")[:9])


def doc(run, name=None):
    return json.load(open(os.path.join(DIR, name or run["file"])))


def arrivals(run):
    out = []
    for line in open(os.path.join(DIR, run["arrivals"])):
        t, peer = line.split()
        out.append((int(t), peer))
    return out


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def gaps(run):
    """The time between consecutive requests at the server (µs) inside the measured window."""
    load = doc(run)["benchmarks"][0]["load"]
    lo, hi = ns(load["window"]["start"]), ns(load["window"]["end"])
    times = sorted(t for t, _ in arrivals(run) if lo <= t <= hi)
    return [(b - a) / 1e3 for a, b in zip(times, times[1:])]


def start_ns(run):
    d = doc(run)
    coordination = d["settings"]["producer"].get("coordination")
    return ns(coordination["start_at"]) if coordination else run["start_at_unix"] * 1_000_000_000


def first_delays(run):
    """Each agent's first request at the server against its first due time (ms): agent I
    of a shared schedule is due I/R after the start; the old way, every agent at the start."""
    start, rate = start_ns(run), META["rate"]
    shared = run["way"] == "coordinated"
    first_from = {}
    for t, peer in arrivals(run):
        first_from[peer] = min(t, first_from.get(peer, t))
    delays = []
    for i in range(META["agents"] if run["way"] in ("coordinated", "naive") else 1):
        first = first_from[META["addresses"][f"a{i}"]]
        due = start + (i * 1e9 / rate if shared else 0)
        delays.append((first - due) / 1e6)
    return delays


def merged_check(run):
    """plumb's merged latency histogram against the parts added up here."""
    d = doc(run)
    merged = HdrHistogram.decode(d["benchmarks"][0]["load"]["latency"]["hdr_base64"])
    stem = run["file"][: -len(".json")]
    total = None
    for i in range(META["agents"]):
        h = HdrHistogram.decode(doc(run, f"{stem}.agent-{i}.json")["benchmarks"][0]["load"]["latency"]["hdr_base64"])
        if total is None:
            total = h
        else:
            total.add(h)
    ps = [50, 99, 99.9, 100]
    return [merged.get_total_count()] + [merged.get_value_at_percentile(p) for p in ps], \
        [total.get_total_count()] + [total.get_value_at_percentile(p) for p in ps]


def main():
    runs = META["runs"]
    by = {w: [r for r in runs if r["way"] == w] for w in WAYS}
    print("# Many agents as one load test")
    print()
    print(f"`bash bench/agents.sh`: {META['rate']} req/s in total for {META['duration']} after a "
          f"{META['warmup']} warm-up, {len(runs) // len(WAYS)} rounds of each way in rotating order, against "
          "a server (bench/agents_server.py, asyncio) that records each request's arrival. Every host is a "
          "network namespace with its own address on one bridge; the server on CPU 0, the coordinator and "
          "agents on CPU 1 of this 2-core VM. Raw outputs: target/bench/agents.")
    print()
    summary(by)
    rate_table(by)
    gaps_table(by)
    start_table(by)
    merge_table(by)


def summary(by):
    """The issue's goals against what the runs measured."""
    co = by.get("coordinated", [])
    offs = []
    for r in co:
        load = doc(r)["benchmarks"][0]["load"]
        offs.append(100 * (load["achieved_rate"] / load["target_rate"] - 1))
    skews = [max(d) - min(d) for d in (first_delays(r) for r in co)]
    equal = sum(1 for a, b in (merged_check(r) for r in co + by.get("naive", [])) if a == b)
    checked = len(co) + len(by.get("naive", []))
    cv = {w: [statistics.pstdev(g) / statistics.fmean(g) for g in (gaps(r) for r in rs)] for w, rs in by.items()}
    print("## Summary")
    print()
    print("| goal (issue 29) | measured | met |")
    print("|---|---|---|")
    worst = max(offs, key=abs)
    print(f"| achieved rate within ±0.5 % of the target, coordinated | worst {worst:+.3f} % over {len(co)} runs "
          f"| {'yes' if abs(worst) <= 0.5 else 'no'} |")
    print(f"| start skew ≤ 20 ms | at the server at most {max(skews):.3f} ms | {'yes' if max(skews) <= 20 else 'no'} |")
    print(f"| merged p50/p99/p99.9/max equal to one histogram of all values | {equal} of {checked} merges "
          f"| {'yes' if equal == checked else 'no'} |")
    ratio = statistics.median(a / b for a, b in zip(cv["coordinated"], cv["one"]))
    old = statistics.median(a / b for a, b in zip(cv["naive"], cv["one"]))
    line = f"CV of the gaps ÷ one generator's: median {ratio:.2f} (the old way: {old:.2f})"
    if "threads" in cv:
        threads = statistics.median(a / b for a, b in zip(cv["coordinated"], cv["threads"]))
        line += f"; ÷ one generator with {META['agents']} threads on the same core: median {threads:.2f}"
    print(f"| time between requests at the server as even as one generator's | {line} | {'yes' if ratio <= 1.1 else 'no'} |")
    print()


def rate_table(by):
    print("## Rate")
    print()
    print("plumb's achieved rate (answers over the measured window) and, at the server, the requests that "
          "arrived inside that window over its length.")
    print()
    print("| way | round | target | achieved | off by | at the server | exit codes |")
    print("|---|---|---|---|---|---|---|")
    for way, rs in by.items():
        for r in rs:
            load = doc(r)["benchmarks"][0]["load"]
            off = 100 * (load["achieved_rate"] / load["target_rate"] - 1)
            lo, hi = ns(load["window"]["start"]), ns(load["window"]["end"])
            served = sum(1 for t, _ in arrivals(r) if lo <= t < hi) / ((hi - lo) / 1e9)
            print(f"| {WAYS[way]} | {r['round']} | {load['target_rate']:.1f}/s | {load['achieved_rate']:.2f}/s "
                  f"| {off:+.3f} % | {served:.2f}/s | {' '.join(map(str, r['codes']))} |")
    print()


def gaps_table(by):
    print("## Time between requests at the server")
    print()
    print(f"One schedule at {META['rate']}/s has a request every {1e6 / META['rate']:.0f} µs. The spread of "
          "the gaps is what the server feels: bursts show as many gaps near 0 and the rest long.")
    print()
    print("| way | round | gaps | mean | CV | p1 | p50 | p99 | gaps < 50 µs |")
    print("|---|---|---|---|---|---|---|---|---|")
    cv = {}
    for way, rs in by.items():
        for r in rs:
            g = gaps(r)
            mean = statistics.fmean(g)
            c = statistics.pstdev(g) / mean
            cv.setdefault(way, []).append(c)
            near = 100 * sum(1 for x in g if x < 50) / len(g)
            print(f"| {WAYS[way]} | {r['round']} | {len(g)} | {mean:.1f} µs | {c:.3f} | {quantile(g, 0.01):.1f} µs "
                  f"| {quantile(g, 0.5):.1f} µs | {quantile(g, 0.99):.1f} µs | {near:.1f} % |")
    print()
    if "coordinated" in cv and "one" in cv:
        for way in ("coordinated", "threads", "naive"):
            if way not in cv:
                continue
            ratios = [a / b for a, b in zip(cv[way], cv["one"])]
            print(f"- CV of the gaps, {WAYS[way]} ÷ one generator, round by round: "
                  f"{', '.join(f'{x:.2f}' for x in ratios)} (median {statistics.median(ratios):.2f})")
        print()


def start_table(by):
    print("## The start")
    print()
    print("At the server: each agent's first request against its first due time; the skew is the spread "
          "of those delays across agents. The coordinator's side: each agent's clock offset and half its "
          "best round trip (the most the offset can be off by).")
    print()
    print("| way | round | first requests after their due times (ms) | skew at the server | offsets measured | their uncertainty |")
    print("|---|---|---|---|---|---|")
    for way in ("coordinated", "naive"):
        for r in by.get(way, []):
            d = first_delays(r)
            skew = max(d) - min(d)
            offsets = uncertainty = "-"
            c = doc(r)["settings"]["producer"].get("coordination")
            if c:
                start = ns(c["start_at"])
                off = [(start - ns(a["start_on_own_clock"])) / 1e3 for a in c["agents"]]
                # Durations are nanoseconds in plumb's JSON.
                unc = [a["round_trip"] / 2e3 for a in c["agents"]]
                offsets = f"{min(off):+.1f} … {max(off):+.1f} µs"
                uncertainty = f"≤ {max(unc):.1f} µs"
            print(f"| {WAYS[way]} | {r['round']} | {min(d):.3f} … {max(d):.3f} | {skew:.3f} ms | {offsets} | {uncertainty} |")
    print()


def merge_table(by):
    print("## Merged percentiles")
    print()
    print("plumb's merged latency histogram (count, p50, p99, p99.9, max in µs) against the agents' "
          "histograms added up by the `hdrhistogram` package.")
    print()
    print("| way | round | plumb merged | added up here | equal |")
    print("|---|---|---|---|---|")
    for way in ("coordinated", "naive"):
        for r in by.get(way, []):
            a, b = merged_check(r)
            print(f"| {WAYS[way]} | {r['round']} | {a} | {b} | {'yes' if a == b else 'NO'} |")
    print()


main()
