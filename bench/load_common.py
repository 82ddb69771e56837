"""What bench/load_report.py and bench/load_report_tls.py both read from a load run's kept
outputs: plumb's documents, the rule by which each generator holds a rate, and what
plumb's own findings blame when it does not."""
import json
import os


class Kept:
    """The outputs a run kept in directory `out`."""

    def __init__(self, out):
        self.out = out

    def doc(self, run):
        return json.load(open(os.path.join(self.out, run["file"])))

    def load(self, run):
        return self.doc(run)["benchmarks"][0]["load"]

    def plumb_holds(self, run, rate):
        """plumb holds `rate`: exit 0, ≥ 98 % achieved, send lateness p99 under 5 ms, no
        errors. Returns it with the lateness p99 (µs)."""
        l = self.load(run)
        late = l["send_lateness"]["percentiles"]["p99"] / 1e3
        errors = sum(l["errors"].values())
        return run["code"] == 0 and l["achieved_rate"] >= 0.98 * rate and late < 5000 and errors == 0, late

    def why_not(self, run):
        """What plumb's own findings blame when it does not hold a rate."""
        codes = [x["code"] for x in self.doc(run)["benchmarks"][0]["diagnostics"] if x["severity"] != "info"]
        if "generator-behind" in codes:
            return "generator behind"
        if "in-flight-bound-full" in codes:
            return "server: in-flight bound full"
        return ", ".join(codes) or "below 98 %"


def oha_holds(d, rate):
    """oha holds `rate`: ≥ 98 % achieved with -q R --latency-correction, no errors."""
    s = d["summary"]
    return s["requestsPerSec"] >= 0.98 * rate and s["successRate"] == 1.0
