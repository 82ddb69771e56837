"""What bench/revs_run.py and bench/settle_run.py share: the test program (a CPU loop, a
walk through memory beyond the last-level cache, or a sleep, of WORK units with an own
spread of NOISE), git repositories of its versions, and `plumb revs` run on them.

`configure(plumb, work_dir)` first; every figure these helpers give is measured on this
machine when called.
"""
import json
import os
import statistics
import subprocess
import sys
import time

from scipy import stats

PLUMB = WORK_DIR = None
BUILD = "cc -O2 -o prog prog.c -lm"
PROGRAM = r"""#include <math.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include "work.h"
int main(void) {
    unsigned seed = 1;
    FILE *f = fopen("/dev/urandom", "rb");
    if (f) { if (fread(&seed, sizeof seed, 1, f) != 1) seed = 1; fclose(f); }
    double u1 = (rand_r(&seed) + 1.0) / (RAND_MAX + 2.0);
    double u2 = (rand_r(&seed) + 1.0) / (RAND_MAX + 2.0);
    double z = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
    unsigned long n = (unsigned long)(WORK * (1.0 + NOISE * z));
#if defined(SLEEP)
    struct timespec t = { n / 1000000, (n % 1000000) * 1000L };
    nanosleep(&t, 0);
#elif defined(MEMORY)
    /* n dependent reads at random places of 64 MiB, twice the last level here. */
    unsigned long size = 64UL << 20, words = size / sizeof(unsigned), i, k = 1;
    unsigned *a = malloc(size);
    for (i = 0; i < words; i += 1024) a[i] = (unsigned)i;
    volatile unsigned x = 0;
    for (i = 0; i < n; i++) { k = (k * 6364136223846793005UL + 1442695040888963407UL); x += a[(k >> 20) % words]; }
    free(a);
#else
    volatile unsigned long x = 0;
    for (unsigned long i = 0; i < n; i++) x += i;
#endif
    return 0;
}
"""
ENV = dict(os.environ, GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="b@plumb.invalid",
           GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="b@plumb.invalid", NO_COLOR="1")
KIND_DEFINE = {"spin": "", "sleep": "#define SLEEP\n", "memory": "#define MEMORY\n"}


def configure(plumb, work_dir):
    global PLUMB, WORK_DIR
    PLUMB, WORK_DIR = plumb, work_dir


def sh(args, cwd, check=True):
    return subprocess.run(args, cwd=cwd, env=ENV, check=check, capture_output=True, text=True)


def make_repo(name, works, noise=0.02, kind="spin"):
    """A repository with one commit per WORK value, oldest first; its commits."""
    d = os.path.join(WORK_DIR, name)
    os.makedirs(d)
    sh(["git", "init", "-q", "-b", "main", "."], d)
    with open(os.path.join(d, "prog.c"), "w") as f:
        f.write(PROGRAM)
    commits = []
    for i, w in enumerate(works):
        with open(os.path.join(d, "work.h"), "w") as f:
            f.write(f"#define WORK {w}UL\n#define NOISE {noise}\n{KIND_DEFINE[kind]}")
        with open(os.path.join(d, "NOTE"), "w") as f:
            f.write(f"commit {i}\n")
        sh(["git", "add", "."], d)
        sh(["git", "commit", "-q", "-m", f"commit {i}"], d)
        commits.append(sh(["git", "rev-parse", "HEAD"], d).stdout.strip())
    return d, commits


def timed(f):
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


_calibrated = {}


def units_for(ms, kind="spin"):
    """The WORK that takes about `ms` here (the same program without noise), measured once
    per kind."""
    if kind == "sleep":
        return ms * 1000
    if kind not in _calibrated:
        probe = {"spin": 200_000_000, "memory": 2_000_000}[kind]
        d, _ = make_repo(f"calibrate-{kind}", [probe], noise=0.0, kind=kind)
        sh(["sh", "-c", BUILD], d)
        best = min(timed(lambda: sh(["./prog"], d)) for _ in range(5))
        _calibrated[kind] = probe / best
    return int(_calibrated[kind] * ms / 1000)


def iterations_for(ms):
    return units_for(ms, "spin")


def revs(repo, a, b, extra=(), command=("./prog",)):
    """plumb revs a b in `repo`: (verdict, rounds, ended, seconds, document)."""
    out = os.path.join(WORK_DIR, "last.json")
    args = [PLUMB, "revs", a, b, "--build", BUILD, "--no-progress", "--export-json", out, *extra, "--", *command]
    t = time.perf_counter()
    p = sh(args, repo, check=False)
    seconds = time.perf_counter() - t
    if p.returncode not in (0, 1):
        sys.exit(f"plumb revs failed ({p.returncode}):\n{p.stderr}")
    doc = json.load(open(out))
    r = doc["revisions"]
    last = r["looks"][-1] if r["looks"] else {"verdict": "inconclusive", "rounds": 0}
    return last["verdict"], last["rounds"], r["ended"]["kind"], seconds, doc


def own_cv(doc):
    """The spread of the base side's runs (sd / mean)."""
    a = doc["benchmarks"][0]["samples"]["values"]["wall-time"]
    return statistics.stdev(a) / statistics.mean(a)


def binomial_interval(k, n):
    """Clopper–Pearson 95 %."""
    lo = 0.0 if k == 0 else stats.beta.ppf(0.025, k, n - k + 1)
    hi = 1.0 if k == n else stats.beta.ppf(0.975, k + 1, n - k)
    return lo, hi
