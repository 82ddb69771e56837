"""Reads what bench/load_run_tls.py kept (the directory given, or OUT) and prints the HTTPS
part of the load report in Markdown: per mode (keep-alive, HTTP/2, a new connection per
request) the highest rate plumb and oha each hold on schedule, plumb's TLS handshake
times, and each generator's CPU time per 10,000 requests."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load_common import Kept, oha_holds  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else os.environ["OUT"]
RUNS = json.load(open(f"{OUT}/runs.json"))
TITLES = {
    "keep-alive": "HTTPS, kept-alive connections",
    "http2": "HTTP/2 over TLS",
    "new": "HTTPS, a new connection per request, TLS sessions resumed (as oha does)",
    "new-full": "HTTPS, a new connection and a full TLS handshake per request (plumb only)",
}


KEPT = Kept(OUT)
doc, load, plumb_holds, why_not = KEPT.doc, KEPT.load, KEPT.plumb_holds, KEPT.why_not


def oha_answered(d):
    return sum(d.get("statusCodeDistribution", {}).values())


def ms(us):
    return f"{us / 1e3:.3f} ms"


def sweep(mode, runs):
    print(f"## {TITLES[mode]}\n")
    flags = RUNS["modes"][mode]
    peer = flags["oha"] is not None
    print(f"plumb `{' '.join(flags['plumb'])}`" + (f", oha `{' '.join(flags['oha'])}`" if peer else "")
          + ", with `--cacert`.\n")
    print("| target rate | plumb achieved | lateness p99 | holds | why not |"
          + (" oha achieved | holds |" if peer else ""))
    print("|---:|---:|---:|:---:|:---|" + ("---:|:---:|" if peer else ""))
    best = {"plumb": 0, "oha": 0}
    peak = {"plumb": 0.0, "oha": 0.0}
    for s in runs:
        rate = s["rate"]
        ok_p, late = plumb_holds(s["plumb"], rate)
        best["plumb"] = rate if ok_p else best["plumb"]
        l = load(s["plumb"])
        peak["plumb"] = max(peak["plumb"], l["achieved_rate"])
        row = (f"| {rate} | {l['achieved_rate']:.0f}/s | {ms(late)} | {'yes' if ok_p else 'no'} "
               f"| {'' if ok_p else why_not(s['plumb'])} |")
        if peer:
            d = doc(s["oha"])
            ok_o = oha_holds(d, rate)
            best["oha"] = rate if ok_o else best["oha"]
            peak["oha"] = max(peak["oha"], d["summary"]["requestsPerSec"])
            row += f" {d['summary']['requestsPerSec']:.0f}/s | {'yes' if ok_o else 'no'} |"
        print(row)
    if peer:
        ratio = best["plumb"] / best["oha"] if best["oha"] else float("nan")
        print(f"\nHighest rate held: plumb {best['plumb']}/s, oha {best['oha']}/s: plumb/oha = {ratio:.2f} "
              f"(of the rates tried). Highest achieved at any target: plumb {peak['plumb']:.0f}/s, "
              f"oha {peak['oha']:.0f}/s.")
    else:
        print(f"\nHighest rate held: plumb {best['plumb']}/s; highest achieved at any target "
              f"{peak['plumb']:.0f}/s.")
    setup = load(runs[0]["plumb"]).get("setup") or {}
    if setup.get("handshake"):
        h = setup["handshake"]
        p = h["percentiles"]
        print(f"plumb's TLS handshakes at {runs[0]['rate']}/s: {h['count']} (resumed {setup.get('resumed', 0)}), "
              f"p50 {ms(p['p50'] / 1e3)}, p99 {ms(p['p99'] / 1e3)}.")
    print()
    return best


def cpu():
    print("## Generator CPU time per 10,000 requests (1,000 req/s for "
          f"{RUNS['short_seconds']} s, user + system of the generator process)\n")
    print("| mode | plumb | oha | plumb/oha |")
    print("|:---|---:|---:|---:|")
    for mode, c in RUNS["cpu"].items():
        p_ok = load(c["plumb"])["ok"]
        p = 1e4 * c["plumb"]["cpu_seconds"] / max(p_ok, 1)
        if "oha" not in c:
            print(f"| {TITLES[mode]} | {1e3 * p:.0f} ms | – | – |")
            continue
        o_ok = oha_answered(doc(c["oha"]))
        o = 1e4 * c["oha"]["cpu_seconds"] / max(o_ok, 1)
        print(f"| {TITLES[mode]} | {1e3 * p:.0f} ms | {1e3 * o:.0f} ms | {p / o:.2f} |")
    print()


print("# plumb load vs oha over HTTPS and HTTP/2 (nginx with TLS on loopback)\n")
print(f"{RUNS['cpu_model']}; nginx (1 worker, TLS 1.3, a P-256 certificate) on CPU 0, every generator on "
      f"CPU 1; {RUNS['sweep_seconds']} s per rate, plumb then oha at each rate. A generator holds a rate "
      "as in bench/results/load.md: plumb exits 0 (no errors, send lateness p99 under 5 ms) and achieves "
      "≥ 98 % of it; oha achieves ≥ 98 % with `-q R --latency-correction` and no errors.\n")
for mode, runs in RUNS["sweeps"].items():
    sweep(mode, runs)
cpu()
