"""Times plumb history on a store of 100 series × 500 points (made by
crates/plumb-history/examples/history_fixture.rs), beside Apache Otava 0.8.0 analysing the
same values in Python: the whole analysis from scratch, adding a result, the analysis
resumed after it, and the store's size per point. Prints Markdown. Run by bench/history.sh:

    python bench/history_timing.py PLUMB FIXTURE WORKDIR
"""
import os, sqlite3, statistics, subprocess, sys, time
from otava.analysis import compute_change_points

PLUMB, FIXTURE, WORK = sys.argv[1:4]
SERIES, POINTS, REPS = 100, 500, 5
store = os.path.join(WORK, "h.db")
subprocess.run([FIXTURE, store, str(SERIES), str(POINTS), os.path.join(WORK, "next")], check=True)


def timed(args):
    start = time.perf_counter()
    subprocess.run([PLUMB, *args, "--history", store], cwd=WORK, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def forget():
    c = sqlite3.connect(store)
    c.execute("DELETE FROM analysis")
    c.execute("DELETE FROM changes")
    c.commit()
    c.close()


scratch = []
for _ in range(REPS):
    forget()
    scratch.append(timed(["history", "changes"]))
adds, resumed = [], []
for k in range(1, REPS + 1):
    adds.append(timed(["history", "add", os.path.join(WORK, f"next-{k}.json"), "--commit", f"n{k}"]))
    resumed.append(timed(["history", "changes"]))
c = sqlite3.connect(store)
c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
points = c.execute("SELECT COUNT(*) FROM points").fetchone()[0]
runs = c.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
doc_bytes = c.execute("SELECT SUM(LENGTH(document)) FROM runs").fetchone()[0]
series = [
    [row[0] for row in c.execute(
        "SELECT p.mean FROM points p JOIN runs r ON r.id = p.run WHERE p.series = ? "
        "ORDER BY COALESCE(r.commit_time, r.recorded), r.id", (sid,))]
    for (sid,) in c.execute("SELECT id FROM series").fetchall()
]
c.close()
size = os.path.getsize(store)
otava = []
for _ in range(3):
    start = time.perf_counter()
    for xs in series:
        compute_change_points(list(xs))
    otava.append(time.perf_counter() - start)

med = statistics.median
print(f"{SERIES} series × {POINTS} points (each result: {SERIES} benchmarks of 20 runs), SQLite;")
print(f"median of {REPS} (Otava: of 3). `plumb` is the release binary, each figure a whole")
print("process (start, open the store, read every series, analyse, record).")
print()
print("| | time | goal |")
print("|---|---|---|")
print(f"| `plumb history changes`, from scratch | {med(scratch) * 1000:.0f} ms | < 1 s |")
print(f"| Otava 0.8.0 on the same {SERIES} series (Python, in one process, no store) | {med(otava) * 1000:.0f} ms | |")
print(f"| ratio plumb / Otava | {med(scratch) / med(otava):.3f} | |")
print(f"| `plumb history add` of one result ({SERIES} points) | {med(adds) * 1000:.1f} ms | < 20 ms |")
print(f"| `plumb history changes` after it, resumed | {med(resumed) * 1000:.0f} ms | |")
print()
print(f"Store: {size / 1e6:.1f} MB for {points} points of {runs} results: {size / points:.0f} bytes a point,")
print(f"of which the kept result documents (deflated, every raw sample) are {doc_bytes / points:.0f} bytes a point.")
