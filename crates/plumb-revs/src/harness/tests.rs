//! Harness rounds through the spawner seam: a fake harness writes the result file it is
//! given, its benchmarks' times set per worktree (seeded), so each benchmark's verdict,
//! the pooling and the failures are checked without a clock.
use super::*;
use crate::test_sides::{record, sides, BySide};
use plumb_analysis::{LookPlan, Settling};
use plumb_model::quantity::{Confidence, Duration, Fraction};
use plumb_model::{BenchmarkKind, ProducerSettings, Verdict};
use rand_pcg::Pcg64;
use std::path::Path;
use std::rc::Rc;

fn request() -> Measure {
    Measure {
        command: String::new(),
        prepare: None,
        warmup: 0,
        runs_per_round: None,
        max_time: None,
        confidence: Confidence::DEFAULT,
        sesoi: Fraction::DEFAULT_SESOI,
        seed: 30,
        counting: None,
        pairing: plumb_command::PairingAsked::Interleaved,
        build: None,
    }
}

/// A harness run: `parse` takes 1000 ns an operation in A and 1050 in B, `emit` 2000 in
/// both, each run's level ±1 % (five samples of two operations each); written where
/// `--export-json` says.
fn harness(argv: &[String], dir: &Path, rng: &mut Pcg64) -> plumb_command::RunRecord {
    let at = argv.iter().position(|a| a == "--export-json").unwrap();
    let slower = if dir.ends_with("b") { 1.05 } else { 1.0 };
    let mut doc = ResultDocument::new(
        "0",
        plumb_model::Invocation {
            argv: Vec::new(),
            cwd: None,
        },
        plumb_model::Environment::default(),
        Settings::default_levels(ProducerSettings::Imported { tool: "t".into() }),
    );
    for (name, ns) in [("parse", 1000.0 * slower), ("emit", 2000.0)] {
        let level = ns * (1.0 + rng.gen_range(-0.01..=0.01));
        let samples = (0..5).map(|_| (2, (2.0 * level) as u64));
        doc.benchmarks.push(Benchmark::of_wall_times_per(
            name,
            BenchmarkKind::Function,
            samples,
        ));
    }
    std::fs::write(&argv[at + 1], doc.to_json()).unwrap();
    record(Duration::from_millis(1))
}

fn measured(spawner: &mut BySide) -> Result<Option<ResultDocument>, RevsError> {
    let dir = tempfile::tempdir().unwrap();
    let sides = sides(dir.path());
    let settle = |alpha, per_round| -> Box<dyn Settle> {
        Box::new(Settling::new(
            LookPlan::default(),
            alpha,
            Fraction::DEFAULT_SESOI.get(),
            per_round,
        ))
    };
    let command = ["./bench".to_string()];
    let mut run = HarnessRun {
        command: &command,
        spawner,
        stop: &AtomicBool::new(false),
    };
    measure_harness(
        &sides,
        &request(),
        plumb_model::Environment::default(),
        &settle,
        &mut run,
    )
}

#[test]
fn each_benchmark_is_judged_per_round_and_its_samples_pooled() {
    let mut spawner = BySide::with(Rc::new(harness), 8);
    let doc = measured(&mut spawner).unwrap().unwrap();
    let r = doc.revisions.as_ref().unwrap();
    let verdict = |name: &str| {
        let b = r.rounds.benchmarks.iter().find(|b| b.name == name).unwrap();
        b.looks.last().unwrap().verdict
    };
    assert_eq!(
        verdict("parse"),
        Verdict::Slower,
        "{:?}",
        r.rounds.benchmarks
    );
    assert_eq!(
        verdict("emit"),
        Verdict::Equivalent,
        "{:?}",
        r.rounds.benchmarks
    );
    assert_eq!(r.rounds.ended, Ending::Settled);
    let names: Vec<&str> = doc.benchmarks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "emit · A (a000000000)",
            "emit · B (b000000000)",
            "parse · A (a000000000)",
            "parse · B (b000000000)"
        ]
    );
    // Ten rounds at least (the first look), five samples a run, the trial not pooled.
    let rounds = spawner.log.borrow().len() / 2 - 1;
    let parse_a = &doc.benchmarks[2];
    assert_eq!(parse_a.samples.len(), 5 * rounds);
    assert!(rounds >= 10, "{rounds}");
}

#[test]
fn a_harness_that_fails_or_writes_nothing_is_said_with_its_side() {
    let mut fails = BySide::with(
        Rc::new(|_, _, _| {
            let mut r = record(Duration::from_millis(1));
            r.exit = plumb_model::Exit::Code(101);
            r
        }),
        9,
    );
    let said = measured(&mut fails).unwrap_err().to_string();
    assert!(
        said.starts_with("the harness failed in A's worktree (")
            && said.contains("exited with status 101")
            && said.contains("stderr in "),
        "{said}"
    );
    let mut silent = BySide::with(Rc::new(|_, _, _| record(Duration::from_millis(1))), 10);
    let said = measured(&mut silent).unwrap_err().to_string();
    assert!(said.contains("wrote no result to"), "{said}");
}
