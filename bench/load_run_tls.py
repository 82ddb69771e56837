"""Runs the HTTPS part of bench/load-vs-peers.sh and keeps what each generator wrote: every
plumb document and oha's JSON in OUT, and OUT/runs.json with what only the moment of
running knows (exit codes, CPU seconds). bench/load_report_tls.py reads them.

Four modes against one nginx (TLS 1.3, one worker on CPU 0), each generator pinned to
CPU 1, one after the other at each rate:
  keep-alive  plumb `--max-in-flight 256`                 oha `-c 256`
  http2       plumb `--http2 --max-in-flight 256`         oha `--http2 -c 4 -p 64`
              (100 streams a connection: 3 connections)   (4 connections × 64 streams)
  new         plumb `--new-connection --tls-resume on`    oha `--disable-keepalive -c 256`
              `--max-in-flight 256`
  new-full    plumb `--new-connection --max-in-flight 256` (no peer)
oha resumes TLS sessions on its new connections (its rustls client keeps rustls's session
cache, and has no option to drop it: 390 of 400 handshakes resumed in nginx's
$ssl_session_reused here), so `new` compares like with like with plumb's resumption on;
`new-full` is plumb's default with a new connection per request, a full handshake each,
which no peer here can do. Both trust the CA with --cacert. TLS_RATES, H2_RATES,
NEW_RATES (comma-separated), SWEEP_S and SHORT_S shorten it."""
import json
import os
import resource
import subprocess

PLUMB, OUT, URL, CACERT = (os.environ[k] for k in ("PLUMB", "OUT", "URL", "CACERT"))
PIN = ["taskset", "-c", "1"]


def rates(name, default):
    return [int(r) for r in os.environ.get(name, default).split(",")]


TLS_RATES = rates("TLS_RATES", "10000,20000,30000,40000,50000,60000,70000,80000")
H2_RATES = rates("H2_RATES", "10000,20000,30000,40000,50000,60000,70000,80000,90000,100000")
NEW_RATES = rates("NEW_RATES", "500,1000,1500,2000,3000,4000,6000")
SWEEP_S = int(os.environ.get("SWEEP_S", "5"))
SHORT_S = int(os.environ.get("SHORT_S", "10"))
POOL = 256
MODES = {
    "keep-alive": (["--max-in-flight", str(POOL)], ["-c", str(POOL)]),
    "http2": (["--http2", "--max-in-flight", str(POOL)], ["--http2", "-c", "4", "-p", "64"]),
    "new": (["--new-connection", "--tls-resume", "on", "--max-in-flight", str(POOL)],
            ["--disable-keepalive", "-c", str(POOL)]),
    "new-full": (["--new-connection", "--max-in-flight", str(POOL)], None),
}


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def plumb(mode, rate, secs, name, warmup=1):
    c0 = children_cpu()
    p = subprocess.run(PIN + [PLUMB, "load", URL, "--rate", str(rate), "--duration", f"{secs}s",
                              "--warmup", f"{warmup}s", "--cacert", CACERT, "--export-json",
                              f"{OUT}/{name}.json", *MODES[mode][0]], capture_output=True)
    if p.returncode not in (0, 1):
        raise SystemExit(f"plumb failed ({p.returncode}): {p.stderr.decode()}")
    return {"file": f"{name}.json", "code": p.returncode, "cpu_seconds": children_cpu() - c0}


def oha(mode, rate, secs, name):
    c0 = children_cpu()
    p = subprocess.run(PIN + ["oha", "-z", f"{secs}s", "-q", str(rate), "--latency-correction", "--no-tui",
                              "--output-format", "json", "--cacert", CACERT, *MODES[mode][1], URL],
                       check=True, capture_output=True, text=True)
    open(f"{OUT}/{name}.json", "w").write(p.stdout)
    return {"file": f"{name}.json", "cpu_seconds": children_cpu() - c0}


def both(mode, rate, secs, name, warmup=1):
    """plumb, then oha where the mode has a peer."""
    out = {"rate": rate, "plumb": plumb(mode, rate, secs, f"{name}-plumb", warmup)}
    if MODES[mode][1] is not None:
        out["oha"] = oha(mode, rate, secs, f"{name}-oha")
    return out


sweeps = {}
for mode, mode_rates in (("keep-alive", TLS_RATES), ("http2", H2_RATES), ("new", NEW_RATES),
                         ("new-full", NEW_RATES)):
    sweeps[mode] = [both(mode, r, SWEEP_S, f"{mode}-{r}") for r in mode_rates]
# CPU per request at a rate every generator holds in every mode.
cpu = {mode: both(mode, 1000, SHORT_S, f"cpu-{mode}", warmup=0) for mode in MODES}
json.dump({"cpu_model": open("/proc/cpuinfo").read().split("model name")[1].split("\n")[0].strip(": \t"),
           "sweep_seconds": SWEEP_S, "short_seconds": SHORT_S, "pool": POOL,
           "modes": {m: {"plumb": MODES[m][0], "oha": MODES[m][1]} for m in MODES},
           "sweeps": sweeps, "cpu": cpu}, open(f"{OUT}/runs.json", "w"), indent=1)
