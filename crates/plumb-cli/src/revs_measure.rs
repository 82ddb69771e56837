//! The CLI's side of measuring two revisions (plumb-revs' `measure` and `measure_harness`),
//! shared by `plumb revs` and history confirmation: the request from the options, the
//! sequential verdict they settle by (plumb-analysis' `Settling`), the progress bar, and
//! the result analysed.
use crate::args::CountersArg;
use crate::exit::CliError;
use crate::progress::Bar;
use crate::revs_args::RoundsArgs;
use crate::session::Session;
use plumb_analysis::{analyse_document, AnalysisConfig, LookPlan, Settling};
use plumb_command::{FakeSpawner, ProcessSpawner, Spawner};
use plumb_counters::plan::Counting;
use plumb_model::quantity::{Confidence, Fraction};
use plumb_model::{Environment, Question, ResultDocument, Settle};
use plumb_revs::{HarnessRun, Measure, Side};

/// What to measure and how to judge it.
#[derive(Clone)]
pub struct Request<'a> {
    pub measure: Measure,
    pub looks: LookPlan,
    /// The question each round's statistic answers (typical unless asked).
    pub question: Question,
    /// In-process harnesses: the harness command (each round runs it once a side).
    pub harness: Option<&'a [String]>,
    pub progress: bool,
    /// `--counters`: counted as this mode asks, planned against the machine read just
    /// before measuring.
    pub counters: Option<CountersArg>,
    /// Plumb's own tests: plumb-command's `FakeSpawner` instead of real processes.
    pub fake_runs: bool,
}

impl Request<'_> {
    /// The rounds asked for, the command, and the verdict's terms; no prepare, no counters,
    /// no progress bar, a fixed seed (`plumb revs` sets its own).
    pub fn new(
        rounds: &RoundsArgs,
        command: String,
        (confidence, sesoi): (Confidence, Fraction),
        build: Option<String>,
    ) -> Request<'static> {
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
                build,
            },
            looks: LookPlan {
                max_rounds: rounds.max_rounds as usize,
                ..LookPlan::default()
            },
            question: Question::Typical,
            harness: None,
            progress: false,
            counters: None,
            fake_runs: rounds.debug_fake_runs,
        }
    }
}

/// With --counters: the counting plan against `environment` (a minute's simulation
/// budget, or the time cap), its notices said.
fn counting(
    m: &Measure,
    mode: Option<CountersArg>,
    environment: &Environment,
) -> Result<Option<Counting>, CliError> {
    let Some(mode) = mode else { return Ok(None) };
    let budget = m
        .max_time
        .map_or(std::time::Duration::from_secs(60), |t| t.to_std());
    let how = crate::counting::plan(mode, environment, budget)?;
    for line in &how.notices {
        eprintln!("plumb: {line}");
    }
    Ok(Some(how))
}

/// Measures the two sides, analysed; `None` when stopped before the first round.
pub fn measure(
    sides: &[Side; 2],
    r: &Request,
    session: &Session,
) -> Result<Option<ResultDocument>, CliError> {
    // The machine read once, just before measuring: the record and the counting plan.
    let environment = plumb_env::collect();
    let m = &Measure {
        counting: counting(&r.measure, r.counters, &environment)?,
        ..r.measure.clone()
    };
    let (looks, sesoi, question) = (r.looks, m.sesoi.get(), r.question);
    let settle_with = move |alpha: f64, per_round: usize| -> Box<dyn Settle> {
        Box::new(Settling::new(looks, alpha, sesoi, per_round).with_question(question))
    };
    let (mut fake, mut real) = (FakeSpawner::new(), ProcessSpawner);
    let spawner: &mut dyn Spawner = if r.fake_runs { &mut fake } else { &mut real };
    let measured = match r.harness {
        Some(command) => {
            eprintln!("plumb: in-process benchmarks: each round runs both sides' harness once, and judges each benchmark's mean per operation");
            let mut run = HarnessRun {
                command,
                spawner,
                stop: &session.stop,
            };
            plumb_revs::measure_harness(sides, m, environment, &settle_with, &mut run)?
        }
        None => {
            let mut bar = Bar::new(2, r.progress);
            let measured = plumb_revs::measure(
                sides,
                m,
                environment,
                &settle_with,
                (spawner, &mut bar),
                &session.stop,
            );
            bar.finish();
            measured?
        }
    };
    Ok(measured.map(|mut doc| {
        analyse_document(&mut doc, &AnalysisConfig::new(m.confidence, m.sesoi));
        doc
    }))
}

/// Says what became of a build, as `plumb: …` on stderr.
pub fn say(line: String) {
    eprintln!("plumb: {line}");
}
