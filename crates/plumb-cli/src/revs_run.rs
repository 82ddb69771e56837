//! Two built revisions measured against each other, shared by `plumb revs` and `plumb
//! history confirm`: each side's worktree made and built, one trial run of each (which
//! side fails, and how many runs make a round), then rounds of both interleaved until
//! the sequential verdict settles or a cap is reached.
use crate::args::CountersArg;
use crate::exit::CliError;
use crate::progress::Bar;
use crate::revs_args::RoundsArgs;
use crate::session::Session;
use plumb_analysis::{analyse_document, AnalysisConfig, LookPlan, Settling};
use plumb_command::{
    command_settings, produce_until, run, CommandSpec, Order, OutputPolicy, ProcessSpawner,
    RunContext, RunCount, RunPlan, RunRecord, Status, Until,
};
use plumb_model::quantity::{Confidence, Duration, Fraction};
use plumb_model::Question;
use plumb_model::{Ending, ProducerSettings, ResultDocument, Revision, Revisions, Settings};
use plumb_revs::{build, checkout, Built, Checkout, Repo, Resolved};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A revision checked out and built.
pub struct Side {
    pub rev: Resolved,
    pub checkout: Checkout,
    pub built: Built,
}

/// Why a side could not be built.
pub enum NotBuilt {
    Failed(String),
    Interrupted,
}

/// Checks `rev` out and builds it, saying so on stderr.
pub fn build_side(
    repo: &Repo,
    rev: &Resolved,
    command: Option<&str>,
    stop: &AtomicBool,
) -> Result<Result<Side, NotBuilt>, CliError> {
    let c = checkout(repo, rev, command)?;
    let label = rev.label();
    if command.is_some() && !c.built {
        eprintln!("plumb: building {label} in {}", c.dir.display());
    }
    let built = build(&c, command, stop)?;
    match &built {
        Built::Failed { how, tail } => {
            return Ok(Err(NotBuilt::Failed(format!(
                "the build of {label} {how}; the end of its log ({}):\n{tail}",
                c.build_log().display()
            ))))
        }
        Built::Interrupted => return Ok(Err(NotBuilt::Interrupted)),
        Built::Done { time } => eprintln!(
            "plumb: built {label} in {}",
            plumb_model::format::time(*time)
        ),
        Built::Reused => eprintln!("plumb: reusing the build of {label}"),
        Built::NotAsked => {}
    }
    Ok(Ok(Side {
        rev: rev.clone(),
        checkout: c,
        built,
    }))
}

/// How the two sides are measured.
#[derive(Clone)]
pub struct Measure {
    pub command: String,
    pub prepare: Option<String>,
    pub warmup: u64,
    pub runs_per_round: Option<u64>,
    pub looks: LookPlan,
    pub max_time: Option<Duration>,
    pub confidence: Confidence,
    pub sesoi: Fraction,
    /// The question each round's statistic answers (typical unless asked).
    pub question: Question,
    pub seed: u64,
    pub counters: Option<CountersArg>,
    pub progress: bool,
    pub build: Option<String>,
}

impl Measure {
    /// The rounds asked for, the command, and the verdict's terms; no prepare, no
    /// counters, no progress bar, a fixed seed (`plumb revs` sets its own).
    pub fn new(
        rounds: &RoundsArgs,
        command: String,
        (confidence, sesoi): (Confidence, Fraction),
        build: Option<String>,
    ) -> Measure {
        Measure {
            command,
            prepare: None,
            warmup: rounds.warmup,
            runs_per_round: rounds.runs_per_round,
            looks: LookPlan {
                max_rounds: rounds.max_rounds as usize,
                ..LookPlan::default()
            },
            max_time: rounds.max_time,
            confidence,
            sesoi,
            question: Question::Typical,
            seed: 26,
            counters: None,
            progress: false,
            build,
        }
    }
}

/// A round of one side takes about this long when the runs per round are not given, and
/// has at least `MIN_RUNS_PER_ROUND` runs: a round's median of pairs must outvote the pairs
/// a slow spell of the host splits (here about one run in seven ran 1.8× slower; with 10
/// pairs a round the rounds' spread fell to 1.2–1.8 %, from 6–16 % with 3 to 6).
const ROUND_TARGET: std::time::Duration = std::time::Duration::from_millis(300);
const MIN_RUNS_PER_ROUND: u64 = 5;
const MAX_RUNS_PER_ROUND: u64 = 50;

fn spec(side: &Side, m: &Measure) -> CommandSpec {
    CommandSpec {
        name: side.rev.label(),
        prepare: m.prepare.clone(),
        dir: Some(side.checkout.dir.clone()),
        ..CommandSpec::new(&m.command)
    }
}

/// One run of each side alone: a command failing on one side is said as such, and the
/// slower side's time sets the runs per round.
fn trial(sides: &[Side; 2], m: &Measure, stop: &AtomicBool) -> Result<u64, CliError> {
    let mut times = Vec::new();
    let mut failures = Vec::new();
    for (role, side) in ["A", "B"].iter().zip(sides) {
        let plan = RunPlan {
            commands: vec![spec(side, m)],
            ..RunPlan::of(&[], RunCount::Fixed(1))
        };
        let out = run(&plan, &mut ProcessSpawner, &mut (), stop)?;
        match out.status {
            Status::Failed { message, .. } => failures.push(format!(
                "in {role}'s worktree ({}): {}",
                side.rev.label(),
                // plumb run's advice; plumb revs has no such option.
                message.replace(" (use --ignore-failure to benchmark it anyway)", "")
            )),
            Status::Interrupted => return Ok(0),
            Status::Complete => times.push(out.measured[0].samples[0].wall.to_std()),
        }
    }
    match failures.len() {
        0 => {}
        1 => return Err(CliError(format!("the command fails {} only", failures[0]))),
        _ => {
            return Err(CliError(format!(
                "the command fails {}",
                failures.join("; and ")
            )))
        }
    }
    if let Some(n) = m.runs_per_round {
        return Ok(n);
    }
    let slowest = times
        .into_iter()
        .max()
        .unwrap_or_default()
        .max(std::time::Duration::from_micros(1));
    let n = ROUND_TARGET.as_nanos().div_ceil(slowest.as_nanos()) as u64;
    Ok(n.clamp(MIN_RUNS_PER_ROUND, MAX_RUNS_PER_ROUND))
}

/// Asked after every round: settled, or past --max-time.
struct Judge {
    settling: Settling,
    deadline: Option<Instant>,
    ended: Option<Ending>,
}

impl Until for Judge {
    fn settled(&mut self, samples: &[&[RunRecord]]) -> bool {
        let wall = |s: &[RunRecord]| s.iter().map(|r| r.wall.as_nanos_f64()).collect::<Vec<_>>();
        if self.settling.after(&wall(samples[0]), &wall(samples[1])) {
            self.ended = Some(Ending::Settled);
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.ended = Some(Ending::MaxTime);
        }
        self.ended.is_some()
    }
}

pub fn revision(side: &Side) -> Revision {
    Revision {
        name: side.rev.name.clone(),
        commit: side.rev.commit.clone(),
        tree: side.rev.tree.clone(),
        working_tree: side.rev.commit.is_none(),
        dir: side.checkout.dir.display().to_string(),
        build_time: match side.built {
            Built::Done { time } => Some(time),
            _ => None,
        },
        build_reused: side.built == Built::Reused,
    }
}

/// The run's settings and machine record; with --counters, the counting plan set in `plan`.
fn context(plan: &mut RunPlan, m: &Measure) -> Result<RunContext, CliError> {
    let environment = plumb_env::collect();
    if let Some(mode) = m.counters {
        // The simulation's budget: a minute, or the time cap when one is given.
        let budget = m
            .max_time
            .map_or(std::time::Duration::from_secs(60), |t| t.to_std());
        let how = crate::counting::plan(mode, &environment, budget)?;
        for line in &how.notices {
            eprintln!("plumb: {line}");
        }
        plan.counters = true;
        plan.simulation = how.simulation;
    }
    Ok(RunContext {
        settings: Settings {
            confidence: m.confidence,
            sesoi: m.sesoi,
            question: Default::default(),
            producer: ProducerSettings::Commands(command_settings(plan, false)),
        },
        environment,
        invocation: plumb_model::Invocation::current(),
        baseline: 0,
    })
}

/// Measures the two sides; the document holds both benchmarks, the revisions record
/// and, analysed, the sequential verdict. `None` when stopped before the first round.
pub fn measure(
    sides: &[Side; 2],
    m: &Measure,
    session: &Session,
) -> Result<Option<ResultDocument>, CliError> {
    let per_round = trial(sides, m, &session.stop)?;
    if per_round == 0 {
        return Ok(None);
    }
    let settling = Settling::new(
        m.looks,
        m.confidence.alpha(),
        m.sesoi.get(),
        per_round as usize,
    )
    .with_question(m.question);
    let mut plan = RunPlan {
        commands: vec![spec(&sides[0], m), spec(&sides[1], m)],
        warmup: m.warmup,
        order: Order::Shuffle { seed: m.seed },
        output: OutputPolicy::Discard,
        ..RunPlan::of(
            &[],
            RunCount::Fixed(settling.max_rounds() as u64 * per_round),
        )
    };
    let how = context(&mut plan, m)?;
    let mut judge = Judge {
        deadline: m.max_time.map(|t| Instant::now() + t.to_std()),
        settling,
        ended: None,
    };
    let mut bar = Bar::new(2, m.progress);
    let produced = produce_until(
        &plan,
        how,
        &mut ProcessSpawner,
        (&mut bar, Some(&mut judge)),
        &session.stop,
    );
    bar.finish();
    let mut doc = produced?;
    let ended = match (&doc.status, judge.ended) {
        (plumb_model::RunStatus::Complete, Some(e)) => e,
        (plumb_model::RunStatus::Complete, None) => Ending::MaxRounds,
        _ => Ending::Stopped,
    };
    let mut design = judge.settling.record();
    design.max_time = m.max_time;
    doc.revisions = Some(Revisions {
        base: revision(&sides[0]),
        new: revision(&sides[1]),
        build: m.build.clone(),
        design,
        looks: judge.settling.looks,
        benchmarks: Vec::new(),
        ended,
    });
    analyse_document(&mut doc, &AnalysisConfig::new(m.confidence, m.sesoi));
    Ok(Some(doc))
}
