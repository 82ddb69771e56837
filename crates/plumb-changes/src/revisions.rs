//! Two built revisions measured (plumb-revs' `measure` and `measure_harness`) until the
//! sequential verdict they settle by (plumb-analysis' `Settling`) is reached, and the
//! result analysed: `plumb revs` and each comparison of a confirmation.
use crate::ChangesError;
use plumb_analysis::{analyse_document, AnalysisConfig, LookPlan, Settling};
use plumb_command::{FakeSpawner, PairingAsked, ProcessSpawner, Progress, Spawner};
#[cfg(feature = "cli")]
use plumb_model::quantity::parse_count;
use plumb_model::quantity::{Confidence, Duration, Fraction};
use plumb_model::{Environment, Question, ResultDocument};
use plumb_revs::{HarnessRun, Measure, Side};
use std::sync::atomic::AtomicBool;

/// How many rounds, and how long: `plumb revs`' and each comparison of a confirmation's
/// (with feature `cli`, their options as clap declares them).
#[derive(Debug, Clone, Copy)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct Rounds {
    /// The cap in rounds (of each comparison, when confirming): looks at round 10, then
    /// every 5, up to this; still unknown there is said as such. At least 2 (a round's
    /// spread needs two).
    #[cfg_attr(feature = "cli", arg(long, default_value = "60", value_name = "N", value_parser = |s: &str| parse_count(s, 2), allow_negative_numbers = true))]
    pub max_rounds: u64,
    /// Stop adding rounds after this long (e.g. 2m; of each comparison, when confirming);
    /// unknown if not settled by then.
    #[cfg_attr(feature = "cli", arg(long, value_name = "TIME"))]
    pub max_time: Option<Duration>,
    /// Runs of each side per round (default: enough that a side's round takes 300 ms,
    /// between 5 and 50, from one trial run of each).
    #[cfg_attr(feature = "cli", arg(long, value_name = "N", value_parser = |s: &str| parse_count(s, 1), allow_negative_numbers = true))]
    pub runs_per_round: Option<u64>,
    /// How each pair of A's and B's runs is made: duet (both at once, each on a CPU of
    /// its own: the host's changes hit both; where two CPUs are not free, or a side keeps
    /// more than one busy, said and interleaved), interleaved (one after the other, in
    /// random order), or auto, the default: a duet where it can be, which gave the
    /// narrowest intervals in the same time for CPU-bound, memory-bound and sleeping
    /// programs alike (bench/results/settle.md).
    #[cfg_attr(
        feature = "cli",
        arg(long, value_enum, default_value = "auto", value_name = "HOW")
    )]
    pub pairing: PairingAsked,
    /// Warm-up runs of each side before the first round.
    #[cfg_attr(feature = "cli", arg(short, long, default_value = "3", value_name = "N", value_parser = |s: &str| parse_count(s, 0), allow_negative_numbers = true))]
    pub warmup: u64,
    /// For plumb's own tests: run nothing; each command "takes" the time its text says,
    /// `cat FILE` the time FILE in its worktree holds (plumb-command's `FakeSpawner`,
    /// plumb run's --debug-fake-runs).
    #[cfg_attr(feature = "cli", arg(long = "debug-fake-runs", hide = true))]
    pub fake_runs: bool,
}

/// What to measure and how to judge it.
#[derive(Debug, Clone)]
pub struct Request {
    pub measure: Measure,
    pub looks: LookPlan,
    /// The question each round's statistic answers (typical unless asked).
    pub question: Question,
    /// In-process harnesses: the harness command (each round runs it once a side).
    pub harness: Option<Vec<String>>,
    pub fake_runs: bool,
}

impl Request {
    /// The rounds asked for, the command, and the verdict's terms; no prepare, no
    /// counters, a fixed seed (`plumb revs` sets its own).
    pub fn new(
        rounds: &Rounds,
        command: String,
        (confidence, sesoi): (Confidence, Fraction),
        build: Option<String>,
    ) -> Request {
        Request {
            measure: Measure {
                command,
                prepare: None,
                warmup: rounds.warmup,
                runs_per_round: rounds.runs_per_round,
                max_time: rounds.max_time,
                confidence,
                sesoi,
                seed: 26,
                counting: None,
                pairing: rounds.pairing,
                build,
            },
            looks: LookPlan {
                max_rounds: rounds.max_rounds as usize,
                ..LookPlan::default()
            },
            question: Question::Typical,
            harness: None,
            fake_runs: rounds.fake_runs,
        }
    }
}

impl Request {
    /// The questions a round can answer: typical (the median of its pairs), mean, best;
    /// a harness's rounds are one invocation a side, so only its typical pair.
    pub fn check_question(&self) -> Result<(), ChangesError> {
        match self.question {
            Question::Worst(_) => Err(ChangesError::Question {
                question: self.question,
                harness: false,
            }),
            Question::Best | Question::Mean if self.harness.is_some() => {
                Err(ChangesError::Question {
                    question: self.question,
                    harness: true,
                })
            }
            _ => Ok(()),
        }
    }
}

/// Measures the two sides on the machine `environment` records, analysed; `None` when
/// stopped before the first round. Notices go to `say`.
pub fn measure(
    sides: &[Side; 2],
    r: &Request,
    environment: Environment,
    (stop, progress): (&AtomicBool, &mut dyn Progress),
    say: &mut dyn FnMut(String),
) -> Result<Option<ResultDocument>, ChangesError> {
    let m = &r.measure;
    let (looks, sesoi, question) = (r.looks, m.sesoi.get(), r.question);
    let settle_with = Settling::maker(looks, sesoi, question);
    let (mut fake, mut real) = (FakeSpawner::new(), ProcessSpawner);
    let spawner: &mut dyn Spawner = if r.fake_runs { &mut fake } else { &mut real };
    let measured = match &r.harness {
        Some(command) => {
            say("in-process benchmarks: each round runs both sides' harness once, and judges each benchmark's mean per operation".into());
            let mut run = HarnessRun {
                command,
                spawner,
                stop,
            };
            plumb_revs::measure_harness(sides, m, environment, &settle_with, &mut run)?
        }
        None => plumb_revs::measure(
            sides,
            m,
            environment,
            &settle_with,
            (spawner, progress),
            stop,
        )?,
    };
    Ok(measured.map(|mut doc| {
        analyse_document(&mut doc, &AnalysisConfig::new(m.confidence, m.sesoi));
        doc
    }))
}
