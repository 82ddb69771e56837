//! Simulated cycles as a verdict and a gate (issue 47): `--gate cycles` reads the verdict
//! on the simulated estimated cycles, judged over each side's simulated runs, not the
//! time's; a gate on cycles nobody measured is an error, never a pass. The work each side
//! does is a shell loop of a known length, so every verdict asserted here comes from
//! counts, never from the clock (`plumb revs` times its rounds with fake runs). Needs
//! valgrind and a C compiler (.ci/run installs both).
mod common;

use common::git_fixture::{have_cc, repo, Version, BUILD};
use common::{read_doc, Env};
use plumb_model::finding::Believe;
use plumb_model::{Finding, Metric, Verdict};

fn valgrind_here() -> bool {
    if plumb_counters::cachegrind::valgrind_version().is_ok() {
        return true;
    }
    plumb_testkit::skip("valgrind is not installed");
    false
}

/// A loop of `n` turns in sh: its instructions grow with `n`, its time is not asserted.
fn looping(n: u64) -> String {
    format!("sh -c 'i=0; while [ $i -lt {n} ]; do i=$((i+1)); done'")
}

/// Each commit's loop as long as its `speed` file's number (10000 and 10500 turns).
const LOOP_OF_SPEED: &str =
    "n=$(tr -dc 0-9 < speed); i=0; while [ $i -lt $n ]; do i=$((i+1)); done";

/// `plumb revs` on two commits whose loops differ by 5 %: the rounds' time is fake and
/// equal (1 ms a run), so time says equivalent; the simulated cycles of each worktree's
/// own loop (simulated in that worktree) say slower. `--gate cycles` exits 1 on them,
/// `--gate time` 0, and the finding says to go by the time, which hides the work.
#[test]
fn revs_gates_on_the_simulated_cycles_of_each_worktree() {
    if !have_cc() || !valgrind_here() {
        return;
    }
    let env = Env::new();
    let (dir, _) = repo(
        &env,
        "r",
        &[Version::Sleeps(10_000), Version::Sleeps(10_500)],
    );
    let json = env.path("r.json");
    let revs = |gate: &str| {
        let args = [
            "revs",
            "HEAD~1",
            "--debug-fake-runs",
            "--build",
            BUILD,
            "--runs-per-round",
            "2",
            "--max-rounds",
            "10",
            "--sim-runs",
            "2",
            "--gate",
            gate,
            "--export-json",
            json.to_str().unwrap(),
            "--",
            "sh",
            "-c",
            LOOP_OF_SPEED,
        ];
        env.plumb_in(&dir, &args)
    };
    let run = revs("cycles");
    run.assert_code(1);
    assert!(
        run.stderr.contains("2 times per command, interleaved"),
        "{}",
        run.stderr
    );
    let doc = read_doc(&json);
    let c = &doc.comparisons[0];
    assert_eq!(doc.sequential().unwrap().verdict().0, Verdict::Equivalent);
    let cycles = (c.counters.iter())
        .find(|k| k.counter == "estimated-cycles")
        .expect("estimated cycles judged beside the time");
    assert_eq!(cycles.verdict, Verdict::Slower, "{cycles:?}");
    assert!(cycles.ratio > 1.03 && cycles.ratio < 1.06, "{cycles:?}");
    assert!(
        cycles.ratio_ci.is_some(),
        "two runs a side give an interval"
    );
    let sim = doc.benchmarks[1].simulated.as_ref().unwrap();
    assert_eq!(sim.samples.len(), 2);
    assert!(
        c.notes.iter().any(|n| matches!(&n.finding,
            Finding::WorkNotTime(f) if f.work == Metric::EstimatedCycles
                && f.believe == Some(Believe::TimeHidesWork))),
        "{:?}",
        c.notes
    );
    assert!(
        run.stdout.contains("estimated-cycles ×1.0"),
        "{}",
        run.stdout
    );
    revs("time").assert_code(0);
    revs("time,cycles").assert_code(1);
}

/// `plumb compare --gate cycles` on two saved results: the loop 5 % longer is slower in
/// simulated cycles whatever the clock said (exit 1), and `--metric estimated-cycles`
/// judges them as the comparison's own metric; results without a simulation cannot be
/// gated on cycles (exit 2, said), and nothing is written over an input.
#[test]
fn compare_gates_on_cycles_and_refuses_results_without_them() {
    if !valgrind_here() {
        return;
    }
    let env = Env::new();
    let saved = |name: &str, n: u64, counters: bool| {
        let json = env.path(name);
        let mut args = vec!["run", "-n", "loop", "--runs", "3", "--warmup", "0"];
        if counters {
            args.extend(["--counters=simulated", "--sim-runs", "2"]);
        }
        let command = looping(n);
        args.extend(["--export-json", json.to_str().unwrap(), &command]);
        env.plumb(&args).assert_code(0);
        json
    };
    let (a, b) = (saved("a.json", 10_000, true), saved("b.json", 10_500, true));
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let gated = env.plumb(&["compare", a, b, "--gate", "cycles"]);
    gated.assert_code(1);
    assert!(
        gated.stdout.contains("estimated-cycles ×1.0"),
        "{}",
        gated.stdout
    );
    let by_cycles = env.plumb(&["compare", a, b, "--metric", "estimated-cycles"]);
    by_cycles.assert_code(1);
    assert!(by_cycles.stdout.contains("slower"), "{}", by_cycles.stdout);
    env.plumb(&["compare", a, a, "--gate", "cycles"])
        .assert_code(0);

    let plain = saved("plain.json", 10_000, false);
    let refused = env.plumb(&["compare", plain.to_str().unwrap(), b, "--gate", "cycles"]);
    refused.assert_code(2);
    assert!(
        refused
            .stderr
            .contains("--gate cycles: \"loop\" has no cycles to judge"),
        "{}",
        refused.stderr
    );
    let wrong = env.plumb(&["compare", a, b, "--gate", "cycle"]);
    wrong.assert_code(2);
    assert!(wrong.stderr.contains("time or cycles"), "{}", wrong.stderr);
}
