//! The rounds of a command through the spawner seam: verdicts, rounds, caps, failures and
//! stops with runs that take a set time per worktree (seeded), never the clock's.
use super::*;
use crate::test_sides::{record, sides, BySide};
use plumb_analysis::{LookPlan, Settling};
use plumb_model::{Ending, Exit, Question, Settle, Verdict};
use std::rc::Rc;

fn ms(ms: f64) -> Duration {
    Duration::from_nanos_f64(ms * 1e6)
}

fn request(runs_per_round: Option<u64>) -> Measure {
    Measure {
        command: "./prog".into(),
        prepare: None,
        warmup: 1,
        runs_per_round,
        max_time: None,
        confidence: Confidence::DEFAULT,
        sesoi: Fraction::DEFAULT_SESOI,
        seed: 26,
        counting: None,
        pairing: plumb_command::PairingAsked::Interleaved,
        build: None,
    }
}

/// plumb revs' design: looks at 10, 15, … 60 rounds, the question asked.
fn settling(looks: LookPlan, question: Question) -> impl Fn(f64, usize) -> Box<dyn Settle> {
    move |alpha, per_round| {
        Box::new(
            Settling::new(looks, alpha, Fraction::DEFAULT_SESOI.get(), per_round)
                .with_question(question),
        )
    }
}

/// Measures the sides with `spawner`: the document, and the worktree of every run.
fn measured(
    m: &Measure,
    question: Question,
    mut spawner: BySide,
    stop: bool,
) -> Result<Option<ResultDocument>, RevsError> {
    let dir = tempfile::tempdir().unwrap();
    let sides = sides(dir.path());
    let settle = settling(LookPlan::default(), question);
    let stop = AtomicBool::new(stop);
    measure(
        &sides,
        m,
        Environment::default(),
        &settle,
        (&mut spawner, &mut ()),
        &stop,
    )
}

/// Measured to the end, runs taking `a` in A and `b` in B times 1 ± `spread`.
fn timed(
    runs_per_round: Option<u64>,
    question: Question,
    (a, b, spread): (Duration, Duration, f64),
    seed: u64,
) -> ResultDocument {
    let spawner = BySide::timed(a, b, spread, seed);
    measured(&request(runs_per_round), question, spawner, false)
        .unwrap()
        .expect("not stopped")
}

fn revisions(doc: &ResultDocument) -> &Revisions {
    doc.revisions.as_ref().expect("a revisions record")
}

#[test]
fn a_side_five_percent_slower_settles_slower_in_whole_rounds() {
    let spawner = BySide::timed(ms(10.0), ms(10.5), 0.02, 1);
    let log = spawner.log.clone();
    let doc = measured(&request(Some(4)), Question::Typical, spawner, false)
        .unwrap()
        .unwrap();
    let r = revisions(&doc);
    assert_eq!(r.rounds.ended, Ending::Settled);
    let last = r.rounds.looks.last().unwrap();
    assert_eq!(last.verdict, Verdict::Slower, "{:?}", r.rounds.looks);
    assert!(
        last.interval.lo > 1.02 && last.interval.hi < 1.10,
        "{last:?}"
    );
    assert_eq!(doc.benchmarks[0].samples.len() % 4, 0, "whole rounds of 4");
    assert_eq!(r.rounds.design.runs_per_round, 4);
    assert_eq!(r.base.commit.as_deref().map(|c| &c[..1]), Some("a"));
    // The trial (one run a side), one warm-up run a side, then the rounds: both sides
    // in every round.
    let log = log.borrow();
    let in_b = log.iter().filter(|d| d.ends_with("b")).count();
    assert_eq!(in_b * 2, log.len(), "as many runs in each worktree");
}

#[test]
fn the_same_program_on_both_sides_settles_equivalent() {
    let doc = timed(Some(4), Question::Typical, (ms(10.0), ms(10.0), 0.02), 2);
    let r = revisions(&doc);
    assert_eq!(r.rounds.looks.last().unwrap().verdict, Verdict::Equivalent);
    assert_eq!(r.rounds.ended, Ending::Settled);
}

#[test]
fn the_rounds_answer_the_question_asked() {
    let doc = timed(Some(4), Question::Best, (ms(10.0), ms(10.5), 0.02), 3);
    let r = revisions(&doc);
    assert_eq!(r.rounds.design.question, Question::Best);
    assert_eq!(r.rounds.looks.last().unwrap().verdict, Verdict::Slower);
}

/// Without --runs-per-round, a round of the slower side takes about 300 ms: 20 ms runs
/// make rounds of 15.
#[test]
fn the_trial_run_sets_the_runs_per_round() {
    let doc = timed(None, Question::Typical, (ms(10.0), ms(20.0), 0.0), 4);
    assert_eq!(revisions(&doc).rounds.design.runs_per_round, 15);
}

/// Noise ten times the difference: not settled at the cap, and said so.
#[test]
fn unsettled_at_the_cap_is_unknown() {
    let doc = timed(Some(2), Question::Typical, (ms(10.0), ms(10.1), 0.3), 5);
    let r = revisions(&doc);
    assert_eq!(r.rounds.ended, Ending::MaxRounds, "{:?}", r.rounds.looks);
    assert_eq!(r.rounds.looks.len(), 11, "every look, 10 to 60");
    assert_eq!(
        r.rounds.looks.last().unwrap().verdict,
        Verdict::Inconclusive
    );
    assert_eq!(doc.benchmarks[0].samples.len(), 60 * 2);
}

#[test]
fn a_command_that_fails_in_one_worktree_only_is_said() {
    let fails_in_b = BySide::with(
        Rc::new(|_, dir, _| {
            let mut r = record(ms(1.0));
            if dir.ends_with("b") {
                r.exit = Exit::Code(3);
            }
            r
        }),
        6,
    );
    let e = measured(&request(Some(4)), Question::Typical, fails_in_b, false).unwrap_err();
    assert!(
        matches!(&e, RevsError::CommandFails { only_one: true, failures } if failures.len() == 1),
        "{e:?}"
    );
    let said = e.to_string();
    assert!(
        said.starts_with("the command fails in B's worktree (")
            && said.contains("exited with status 3")
            && said.ends_with(" only"),
        "{said}"
    );
}

#[test]
fn a_stop_before_the_first_round_measures_nothing() {
    let spawner = BySide::timed(ms(1.0), ms(1.0), 0.0, 7);
    let log = spawner.log.clone();
    let none = measured(&request(Some(4)), Question::Typical, spawner, true).unwrap();
    assert!(none.is_none());
    assert!(
        log.borrow().len() <= 2,
        "at most the trial: {:?}",
        log.borrow()
    );
}
