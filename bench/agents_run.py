"""The runs of bench/agents.sh: one load test at RATE req/s in total against a server in
a network namespace of its own, sent three ways, in rotating order, ROUNDS times:
  coordinated  8 agents on 8 hosts, --agents 8 and a coordinator on a ninth;
  one          one generator (--agents 1, the reference for how even arrivals can be);
  threads      one generator with 8 threads (each sends every 8th arrival, as the agents
               do): the same 8 senders sharing CPU 1, without the network between them;
  naive        8 agents at RATE/8 each started together by --start-at, merged by plumb
               merge (the way before issue 29: the server sees bursts of 8).
Hosts are network namespaces on a bridge in a namespace of its own (addresses only
inside them, removed at the end). The server runs on CPU 0, everything else on CPU 1.
Kept in OUT: each run's plumb documents, the server's arrivals, runs.json."""
import json
import os
import subprocess
import sys
import time

OUT = sys.argv[1]
PLUMB = os.path.abspath(sys.argv[2])
RATE = int(os.environ.get("RATE", "2000"))
DURATION = os.environ.get("DURATION", "20s")
WARMUP = os.environ.get("WARMUP", "2s")
ROUNDS = int(os.environ.get("ROUNDS", "3"))
AGENTS = 8
TOKEN = os.urandom(24).hex()
PREFIX = f"plb{os.getpid()}"
SUBNET = "10.198.7"
HOSTS = ["srv", "co"] + [f"a{i}" for i in range(AGENTS)]
SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "agents_server.py")


def ip(*args):
    subprocess.run(["ip", *args], check=True, capture_output=True)


def ns(host):
    return f"{PREFIX}-{host}"


def addr(host):
    return f"{SUBNET}.{HOSTS.index(host) + 1}"


def make_hosts():
    sw = ns("sw")
    ip("netns", "add", sw)
    ip("-n", sw, "link", "add", "br0", "type", "bridge")
    ip("-n", sw, "link", "set", "br0", "up")
    for i, h in enumerate(HOSTS):
        ip("netns", "add", ns(h))
        ip("-n", ns(h), "link", "set", "lo", "up")
        ip("link", "add", "eth0", "netns", ns(h), "type", "veth", "peer", "name", f"b{i}", "netns", sw)
        ip("-n", sw, "link", "set", f"b{i}", "master", "br0")
        ip("-n", sw, "link", "set", f"b{i}", "up")
        ip("-n", ns(h), "addr", "add", f"{addr(h)}/24", "dev", "eth0")
        ip("-n", ns(h), "link", "set", "eth0", "up")


def remove_hosts():
    for h in HOSTS + ["sw"]:
        subprocess.run(["ip", "netns", "del", ns(h)], capture_output=True)


def in_host(host, cpu, *cmd):
    return ["taskset", "-c", str(cpu), "ip", "netns", "exec", ns(host), *cmd]


def start_server(name):
    arrivals = os.path.join(OUT, f"{name}.arrivals.tsv")
    p = subprocess.Popen(in_host("srv", 0, "python3", SERVER, arrivals, addr("srv"), "8080"),
                         stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "listening"
    return p, arrivals


def stop_server(p):
    p.terminate()
    p.wait(timeout=60)


def load_args(rate):
    return [PLUMB, "load", f"http://{addr('srv')}:8080/", "--rate", str(rate),
            "--duration", DURATION, "--warmup", WARMUP]


def wait_all(procs, what):
    codes = [p.wait() for p in procs]
    return codes


def coordinated(name):
    env = dict(os.environ, PLUMB_TOKEN=TOKEN)
    doc = os.path.join(OUT, f"{name}.json")
    co = subprocess.Popen(in_host("co", 1, PLUMB, "coordinate", "--agents", str(AGENTS),
                                  "--listen", f"{addr('co')}:7207", "-o", doc, "--start-in", "2s"),
                          env=env, stdout=open(doc + ".out", "w"), stderr=open(doc + ".err", "w"))
    agents = [subprocess.Popen(in_host(f"a{i}", 1, *load_args(RATE), "--agents", str(AGENTS),
                                       "--agent-index", str(i), "--coordinator", f"{addr('co')}:7207"),
                               env=env, stdout=subprocess.DEVNULL, stderr=open(f"{doc}.agent-{i}.err", "w"))
              for i in range(AGENTS)]
    codes = wait_all(agents, "agents") + [co.wait()]
    return {"file": os.path.basename(doc), "codes": codes}


def one(name):
    doc = os.path.join(OUT, f"{name}.json")
    start = int(time.time()) + 3
    code = subprocess.run(in_host("a0", 1, *load_args(RATE), "--start-at", str(start),
                                  "--export-json", doc),
                          stdout=open(doc + ".out", "w"), stderr=subprocess.STDOUT).returncode
    return {"file": os.path.basename(doc), "codes": [code], "start_at_unix": start}


def threads(name):
    doc = os.path.join(OUT, f"{name}.json")
    start = int(time.time()) + 3
    code = subprocess.run(in_host("a0", 1, *load_args(RATE), "--threads", str(AGENTS), "--start-at", str(start),
                                  "--export-json", doc),
                          stdout=open(doc + ".out", "w"), stderr=subprocess.STDOUT).returncode
    return {"file": os.path.basename(doc), "codes": [code], "start_at_unix": start}


def naive(name):
    start = int(time.time()) + 3
    parts = [os.path.join(OUT, f"{name}.agent-{i}.json") for i in range(AGENTS)]
    agents = [subprocess.Popen(in_host(f"a{i}", 1, *load_args(RATE // AGENTS), "--start-at", str(start),
                                       "--agent", f"agent-{i}", "--export-json", parts[i]),
                               stdout=subprocess.DEVNULL, stderr=open(parts[i] + ".err", "w"))
              for i in range(AGENTS)]
    codes = wait_all(agents, "agents")
    doc = os.path.join(OUT, f"{name}.json")
    merged = subprocess.run([PLUMB, "merge", *parts, "-o", doc], capture_output=True)
    return {"file": os.path.basename(doc), "codes": codes + [merged.returncode], "start_at_unix": start}


def main():
    os.makedirs(OUT, exist_ok=True)
    remove_hosts()
    make_hosts()
    runs = []
    ways = [("coordinated", coordinated), ("one", one), ("threads", threads), ("naive", naive)]
    try:
        for r in range(ROUNDS):
            for k in range(len(ways)):
                way, run = ways[(r + k) % len(ways)]
                name = f"{way}-{r}"
                print(f"agents bench: {name}", file=sys.stderr, flush=True)
                server, arrivals = start_server(name)
                try:
                    kept = run(name)
                finally:
                    stop_server(server)
                kept.update({"way": way, "round": r, "arrivals": os.path.basename(arrivals)})
                runs.append(kept)
    finally:
        remove_hosts()
    meta = {"rate": RATE, "duration": DURATION, "warmup": WARMUP, "agents": AGENTS,
            "addresses": {h: addr(h) for h in HOSTS}, "runs": runs}
    json.dump(meta, open(os.path.join(OUT, "runs.json"), "w"), indent=1)


main()
