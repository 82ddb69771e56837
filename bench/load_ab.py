"""Two plumb binaries' generator cost on the same plain-HTTP load, alternated (A B A B …):
the share of the measured window the generator's loop worked (`generator_busy`: its CPU
time is no measure here, since the loop polls rather than sleeps when requests are due
every 25 µs) and its send lateness p99, so a change to the load engine can be checked for
what it adds on the path it did not mean to touch.
Usage: PLUMB_A=old/plumb PLUMB_B=new/plumb URL=http://127.0.0.1:18082/ python3 bench/load_ab.py
(nginx on CPU 0, the generator on CPU 1; RATE, SECS, PAIRS change the run)."""
import json
import os
import statistics
import subprocess
import tempfile

A, B, URL = os.environ["PLUMB_A"], os.environ["PLUMB_B"], os.environ["URL"]
RATE, SECS, PAIRS = int(os.environ.get("RATE", "40000")), int(os.environ.get("SECS", "5")), int(os.environ.get("PAIRS", "4"))


def one(binary):
    out = tempfile.mktemp(suffix=".json")
    subprocess.run(["taskset", "-c", "1", binary, "load", URL, "--rate", str(RATE), "--duration", f"{SECS}s",
                    "--warmup", "1s", "--max-in-flight", "256", "--export-json", out],
                   capture_output=True, check=False)
    l = json.load(open(out))["benchmarks"][0]["load"]
    os.unlink(out)
    return l["generator_busy"], l["send_lateness"]["percentiles"]["p99"] / 1e3


rows = {"A": [], "B": []}
for i in range(PAIRS):
    for name, binary in (("A", A), ("B", B)) if i % 2 == 0 else (("B", B), ("A", A)):
        rows[name].append(one(binary))
print(f"| run | A busy | A lateness p99 | B busy | B lateness p99 |")
print("|---:|---:|---:|---:|---:|")
for i, (a, b) in enumerate(zip(rows["A"], rows["B"])):
    print(f"| {i + 1} | {100 * a[0]:.1f} % | {a[1]:.0f} µs | {100 * b[0]:.1f} % | {b[1]:.0f} µs |")
ma, mb = statistics.median(x[0] for x in rows["A"]), statistics.median(x[0] for x in rows["B"])
print(f"\nMedian share of the window the loop worked at {RATE}/s: A {100 * ma:.1f} %, B {100 * mb:.1f} %: B/A = {mb / ma:.3f} "
      f"(each pair's B/A: {', '.join(f'{b[0] / a[0]:.3f}' for a, b in zip(rows['A'], rows['B']))}).")
