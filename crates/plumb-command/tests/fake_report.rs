//! The exact text of `plumb run`'s report for runs whose times are known exactly (the fake
//! spawner): table, correction line and verdict, with nothing timed.

use plumb_analysis::{analyse_document, AnalysisConfig};
use plumb_command::{produce, FakeSpawner, RunContext, RunCount, RunPlan};
use plumb_model::quantity::{Confidence, Fraction};
use plumb_model::{Invocation, ProducerSettings, Settings};
use std::sync::atomic::AtomicBool;

fn report(plan: &RunPlan) -> String {
    let how = RunContext {
        settings: Settings {
            confidence: Confidence::DEFAULT,
            sesoi: Fraction::DEFAULT_SESOI,
            question: Default::default(),
            producer: ProducerSettings::None,
        },
        // No machine record: no machine diagnostics, whatever runs the test.
        environment: Default::default(),
        invocation: Invocation {
            argv: vec![],
            cwd: None,
        },
        baseline: 0,
    };
    let mut doc = produce(
        plan,
        how,
        &mut FakeSpawner::new(),
        &mut (),
        &AtomicBool::new(false),
    )
    .unwrap();
    analyse_document(
        &mut doc,
        &AnalysisConfig::new(Confidence::DEFAULT, Fraction::DEFAULT_SESOI),
    );
    console::set_colors_enabled(false);
    plumb_report::render_terminal(&doc)
}

#[test]
fn the_table_of_two_exactly_known_commands() {
    let plan = RunPlan::of(&["fast 10ms", "slow 25ms"], RunCount::Fixed(12));
    let text = report(&plan);
    assert_eq!(text, EXPECTED, "\n{text}");
}

/// Every run takes exactly its time, so the spread is zero and the verdict says that the
/// clock's resolution, not the code, may set a difference between constant samples. User
/// and system time are the fake's half and tenth of the wall time.
const EXPECTED: &str = " Benchmark            │     Mean │ Error │ StdDev │   Median │      Min │      Max │ Ratio │ RatioSD │     User │      Sys │  MaxRSS │  N
──────────────────────┼──────────┼───────┼────────┼──────────┼──────────┼──────────┼───────┼─────────┼──────────┼──────────┼─────────┼────
 fast 10ms (baseline) │ 10.00 ms │  0 ms │   0 ms │ 10.00 ms │ 10.00 ms │ 10.00 ms │  1.00 │    0.00 │ 5.000 ms │ 1.000 ms │ 1.0 MiB │ 12
 slow 25ms            │ 25.00 ms │  0 ms │   0 ms │ 25.00 ms │ 25.00 ms │ 25.00 ms │  2.50 │    0.00 │ 12.50 ms │ 2.500 ms │ 1.0 MiB │ 12
  Error: this run's 99.9% interval; the next run may land outside it (5 runs kept with --save measure the drift)

Verdicts on the mean (SESOI ±2%, 99.9% confidence):
  slow 25ms  2.50× slower [2.50, 2.50]
      +150.0%: the whole ratio CI [2.500, 2.500] lies beyond the SESOI of ±2%; Welch p<1e-15, Mann-Whitney p=1.91e-6; both samples are constant: the clock's resolution, not the code, may set this difference
";

/// One command: nothing to compare with, so no ratio columns; user and system time each
/// in their own column's unit.
#[test]
fn a_single_command_has_no_ratio_columns() {
    let text = report(&RunPlan::of(&["work 250us"], RunCount::Fixed(12)));
    let header = text.lines().next().unwrap();
    assert!(!header.contains("Ratio"), "{text}");
    let row = text.lines().nth(2).unwrap();
    assert!(row.contains("│ 250.0 µs │  0 µs │"), "{row}");
    assert!(row.contains("│ 125.0 µs │ 25.00 µs │"), "{row}");
}
