//! The runner: warm-up and measured rounds of every command until the count, a stop or a failure.
use crate::plan::PlanError;
use crate::schedule::{another_round, planned_rounds, RoundSequence};
use crate::spawner::{Launch, RunRecord, SpawnError, Spawner};
use crate::{CommandSpec, OutputPolicy, RunPlan};
use plumb_counters::{ChildCounters, CounterEvent, Reading};
use plumb_model::{Exit, Metric};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Told about progress between runs (never inside the timed region).
pub trait Progress {
    fn warmup_started(&mut self, _runs: u64) {}
    fn warmup_run(&mut self) {}
    fn measuring_started(&mut self, _planned_rounds: u64) {}
    fn round_done(&mut self, _done: u64, _planned: u64) {}
    /// A command's simulation starts, expected to take about `estimate`.
    fn simulating(&mut self, _name: &str, _estimate: Duration) {}
}

impl Progress for () {}

/// Asked after every measured round whether the runs so far settle the question, so a
/// sequential design stops as soon as it may (`plumb revs`); between rounds, never
/// inside one. The run count stays the cap.
pub trait Until {
    /// `samples[i]` are the measured runs of command i so far, in order.
    fn settled(&mut self, samples: &[&[RunRecord]]) -> bool;
}

/// What one command produced.
#[derive(Debug, Clone)]
pub struct Measured {
    pub spec: CommandSpec,
    pub warmup: Vec<RunRecord>,
    pub samples: Vec<RunRecord>,
    /// Per measured run, the counters that counted it (empty without `plan.counters`).
    pub counted: Vec<Counts>,
}

/// One run's counter values, scaled for multiplexing; a counter that never ran is absent.
pub type Counts = Vec<(Metric, u64)>;

#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    Complete,
    Interrupted,
    Failed { command: String, message: String },
}

#[derive(Debug)]
pub struct Measurements {
    pub measured: Vec<Measured>,
    /// Runs of `SHELL -c ''`, measured in the same rounds, when a shell is used.
    pub shell_samples: Vec<RunRecord>,
    pub status: Status,
}

#[derive(Debug)]
pub enum RunError {
    Plan(PlanError),
    Setup(std::io::Error),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Plan(e) => e.fmt(f),
            RunError::Setup(e) => write!(f, "cannot prepare the benchmark: {e}"),
        }
    }
}

impl std::error::Error for RunError {}

/// Why a run stopped early, internally.
enum Stop {
    Interrupted,
    Failed { command: String, message: String },
}

/// A command (or the empty shell, `spec: None`) with what it measured so far.
struct Slot {
    launch: Box<dyn Launch>,
    prepare: Option<Box<dyn Launch>>,
    spec: Option<CommandSpec>,
    warmup: Vec<RunRecord>,
    samples: Vec<RunRecord>,
    counted: Vec<Counts>,
}

impl Slot {
    fn name(&self) -> String {
        self.spec.as_ref().map_or_else(
            || "shell start-up calibration".to_string(),
            |s| s.name.clone(),
        )
    }
}

const STDERR_TAIL_BYTES: u64 = 2048;

/// Runs the plan: warm-up rounds, then measured rounds until the run count is met, the
/// stop flag is raised (Ctrl-C) or a command fails. What was measured is always returned.
pub fn run(
    plan: &RunPlan,
    spawner: &mut dyn Spawner,
    progress: &mut dyn Progress,
    stop: &AtomicBool,
) -> Result<Measurements, RunError> {
    run_until(plan, spawner, progress, None, stop)
}

/// `run`, asking `until` (when given) after each measured round whether to stop there.
pub fn run_until(
    plan: &RunPlan,
    spawner: &mut dyn Spawner,
    progress: &mut dyn Progress,
    until: Option<&mut dyn Until>,
    stop: &AtomicBool,
) -> Result<Measurements, RunError> {
    plan.validate().map_err(RunError::Plan)?;
    crate::process::reset_sigchld();
    let mut slots = prepare_slots(plan, spawner)?;
    let mut counters = plan
        .counters
        .then(|| ChildCounters::open(&CounterEvent::ALL));
    let forwarding = crate::stop_children::StopChildren::start();
    let stopped = measure(plan, &mut slots, counters.as_mut(), (progress, until), stop);
    drop(forwarding);
    let cleanup_failure = cleanup(plan, spawner);
    let status = match (stopped, cleanup_failure) {
        (Some(Stop::Interrupted), _) => Status::Interrupted,
        (Some(Stop::Failed { command, message }), _) | (None, Some((command, message))) => {
            Status::Failed { command, message }
        }
        (None, None) => Status::Complete,
    };
    let mut shell_samples = Vec::new();
    let mut measured = Vec::new();
    for slot in slots {
        match slot.spec {
            Some(spec) => measured.push(Measured {
                spec,
                warmup: slot.warmup,
                samples: slot.samples,
                counted: slot.counted,
            }),
            None => shell_samples = slot.samples,
        }
    }
    Ok(Measurements {
        measured,
        shell_samples,
        status,
    })
}

/// Everything spawned is prepared before the first run: each command, its prepare
/// script, and the empty shell when one is used.
fn prepare_slots(plan: &RunPlan, spawner: &mut dyn Spawner) -> Result<Vec<Slot>, RunError> {
    let scripts = plan.commands.iter().filter(|c| c.prepare.is_some()).count();
    let launches = plan.commands.len() + scripts + usize::from(plan.shell.is_some());
    spawner.reserve(launches).map_err(RunError::Setup)?;
    let mut slots = Vec::new();
    for spec in &plan.commands {
        let argv = plan.argv(spec).map_err(RunError::Plan)?;
        let prepare = match &spec.prepare {
            Some(p) => {
                Some(shell_script(spawner, p, spec.dir.as_deref()).map_err(RunError::Setup)?)
            }
            None => None,
        };
        slots.push(Slot {
            launch: spawner
                .prepare(&argv, spec.dir.as_deref(), &plan.output)
                .map_err(RunError::Setup)?,
            prepare,
            spec: Some(spec.clone()),
            warmup: Vec::new(),
            samples: Vec::new(),
            counted: Vec::new(),
        });
    }
    if let Some(shell) = &plan.shell {
        let argv = vec![shell.clone(), "-c".to_string(), String::new()];
        slots.push(Slot {
            launch: spawner
                .prepare(&argv, None, &OutputPolicy::Discard)
                .map_err(RunError::Setup)?,
            prepare: None,
            spec: None,
            warmup: Vec::new(),
            samples: Vec::new(),
            counted: Vec::new(),
        });
    }
    Ok(slots)
}

fn measure(
    plan: &RunPlan,
    slots: &mut [Slot],
    mut counters: Option<&mut ChildCounters>,
    (progress, mut until): (&mut dyn Progress, Option<&mut dyn Until>),
    stop: &AtomicBool,
) -> Option<Stop> {
    let mut order = RoundSequence::new(plan.order, slots.len());
    progress.warmup_started(plan.warmup);
    for r in 0..plan.warmup {
        let mut warm = |slot: &mut Slot, s: RunRecord, _: Option<Counts>| {
            slot.warmup.push(s);
            progress.warmup_run();
        };
        if let Err(stop) = run_round(plan, slots, (&mut order, r), None, stop, &mut warm) {
            return Some(stop);
        }
    }
    let commands = plan.commands.len() as u32;
    let mut measured = Duration::ZERO;
    let mut rounds = 0;
    progress.measuring_started(planned_rounds(&plan.runs, 0, Duration::ZERO));
    while another_round(&plan.runs, rounds, measured / commands) {
        let mut keep = |slot: &mut Slot, sample: RunRecord, counted: Option<Counts>| {
            if slot.spec.is_some() {
                measured += sample.wall.to_std();
            }
            slot.samples.push(sample);
            slot.counted.extend(counted);
        };
        let r = (&mut order, plan.warmup + rounds);
        if let Err(stop) = run_round(plan, slots, r, counters.as_deref_mut(), stop, &mut keep) {
            return Some(stop);
        }
        rounds += 1;
        progress.round_done(
            rounds,
            planned_rounds(&plan.runs, rounds, measured / commands),
        );
        // Only a run with a judge gathers what it asks about (plumb run has none).
        if let Some(judge) = until.as_deref_mut() {
            let so_far: Vec<&[RunRecord]> = slots
                .iter()
                .filter(|s| s.spec.is_some())
                .map(|s| s.samples.as_slice())
                .collect();
            if judge.settled(&so_far) {
                break;
            }
        }
    }
    None
}

/// What a round hands each run to as it ends: the slot, the run, its counters.
type Keep<'a> = dyn FnMut(&mut Slot, RunRecord, Option<Counts>) + 'a;

/// Round `r`: each command once in the round's order, or, a duet, both at once, arranged
/// by `duet::arrangement` counted from the first measured pair (whichever side the order
/// or the CPU favours, each is favoured as often in every cycle). Each run goes to `keep`
/// as it ends, so a stop keeps the runs before it.
fn run_round(
    plan: &RunPlan,
    slots: &mut [Slot],
    (order, r): (&mut RoundSequence, u64),
    mut counters: Option<&mut ChildCounters>,
    stop: &AtomicBool,
    keep: &mut Keep<'_>,
) -> Result<(), Stop> {
    if let crate::Order::Duet { cpus } = plan.order {
        // Warm-up pairs wrap below zero: their place in the cycle does not matter.
        let arranged = crate::duet::arrangement(r.wrapping_sub(plan.warmup), cpus);
        let pair = run_pair(plan, slots, arranged, stop)?;
        for (slot, sample) in slots.iter_mut().zip(pair) {
            keep(slot, sample, None);
        }
        return Ok(());
    }
    for i in order.round(r) {
        let (sample, counted) = run_one(plan, &mut slots[i], counters.as_deref_mut(), stop)?;
        keep(&mut slots[i], sample, counted);
    }
    Ok(())
}

/// One run of a slot, after its prepare script, checked for failure and interruption.
/// A reading's counters as metric values, scaled for multiplexing; those that never ran
/// are left out rather than recorded as zero.
fn counts(r: &Reading) -> Counts {
    r.counted
        .iter()
        .filter_map(|c| Some((c.event.metric(), c.scaled()?.round() as u64)))
        .collect()
}

/// A slot's prepare script, run before its command when it has one.
fn run_prepare(slot: &mut Slot, stop: &AtomicBool) -> Result<(), Stop> {
    if stop.load(Ordering::Relaxed) {
        return Err(Stop::Interrupted);
    }
    let name = slot.name();
    if let Some(prep) = slot.prepare.as_mut() {
        let s = prep.run_once().map_err(|e| spawn_failure(&name, e))?;
        if stop.load(Ordering::Relaxed) {
            return Err(Stop::Interrupted);
        }
        if let Some(what) = s.failure() {
            return Err(Stop::Failed {
                command: name,
                message: with_tail(format!("its --prepare command {what}"), prep.as_mut()),
            });
        }
    }
    Ok(())
}

/// With `counters`, they are read just before and after the command's own run (not its
/// prepare script), outside the timed region; they count only children, so plumb's own
/// work between the reads is not in them.
fn run_one(
    plan: &RunPlan,
    slot: &mut Slot,
    mut counters: Option<&mut ChildCounters>,
    stop: &AtomicBool,
) -> Result<(RunRecord, Option<Counts>), Stop> {
    run_prepare(slot, stop)?;
    let before = counters.as_deref_mut().and_then(|c| c.read().ok());
    let sample = slot
        .launch
        .run_once()
        .map_err(|e| spawn_failure(&slot.name(), e))?;
    let counted = counters
        .and_then(|c| c.read().ok())
        .zip(before)
        .map(|(after, before)| counts(&after.since(&before)));
    Ok((checked(plan, slot, sample, stop)?, counted))
}

/// The two slots of a duet run at once, the first on `cpus[0]`, each after its prepare
/// script; the second started first when `second_first`.
fn run_pair(
    plan: &RunPlan,
    slots: &mut [Slot],
    (cpus, second_first): ([usize; 2], bool),
    stop: &AtomicBool,
) -> Result<[RunRecord; 2], Stop> {
    let [a, b] = slots else {
        unreachable!("a duet's plan has two commands (RunPlan::validate)")
    };
    run_prepare(a, stop)?;
    run_prepare(b, stop)?;
    let pair = match second_first {
        false => (a.launch).run_beside(b.launch.as_mut(), cpus),
        true => (b.launch)
            .run_beside(a.launch.as_mut(), [cpus[1], cpus[0]])
            .map(|[rb, ra]| [ra, rb]),
    };
    let pair = pair.map_err(|e| spawn_failure(&format!("{} beside {}", a.name(), b.name()), e))?;
    Ok([
        checked(plan, a, pair[0], stop)?,
        checked(plan, b, pair[1], stop)?,
    ])
}

/// A run that ended: an interruption when a stop came during it, a failure when it
/// failed (unless failures are ignored), else its record.
fn checked(
    plan: &RunPlan,
    slot: &mut Slot,
    sample: RunRecord,
    stop: &AtomicBool,
) -> Result<RunRecord, Stop> {
    // A run during which Ctrl-C arrived was most likely killed by it: not a measurement.
    // The terminal's SIGINT reaches the child at once, possibly before the handler
    // thread has raised the flag: a child killed by SIGINT counts as an interruption too.
    if stop.load(Ordering::Relaxed)
        || sample.exit
            == (Exit::Signal {
                signal: libc::SIGINT,
            })
    {
        return Err(Stop::Interrupted);
    }
    match sample.failure() {
        Some(what) if !plan.ignore_failure => Err(Stop::Failed {
            command: slot.name(),
            message: with_tail(
                format!("{what} (use --ignore-failure to benchmark it anyway)"),
                slot.launch.as_mut(),
            ),
        }),
        _ => Ok(sample),
    }
}

fn with_tail(message: String, launch: &mut dyn Launch) -> String {
    let tail = launch.stderr_tail(STDERR_TAIL_BYTES);
    if tail.is_empty() {
        message
    } else {
        format!("{message}; the end of its stderr:\n{tail}")
    }
}

fn spawn_failure(name: &str, e: SpawnError) -> Stop {
    Stop::Failed {
        command: name.to_string(),
        message: e.to_string(),
    }
}

fn shell_script(
    spawner: &mut dyn Spawner,
    script: &str,
    dir: Option<&std::path::Path>,
) -> std::io::Result<Box<dyn Launch>> {
    spawner.prepare(
        &["sh".to_string(), "-c".to_string(), script.to_string()],
        dir,
        &OutputPolicy::Discard,
    )
}

/// Runs every command's cleanup once; reports the first that fails.
fn cleanup(plan: &RunPlan, spawner: &mut dyn Spawner) -> Option<(String, String)> {
    let mut first_failure = None;
    for spec in &plan.commands {
        let Some(script) = &spec.cleanup else {
            continue;
        };
        let result = shell_script(spawner, script, spec.dir.as_deref())
            .map_err(|e| e.to_string())
            .and_then(|mut launch| {
                let s = launch.run_once().map_err(|e| e.to_string())?;
                match s.failure() {
                    Some(what) => Err(with_tail(
                        format!("its --cleanup command {what}"),
                        launch.as_mut(),
                    )),
                    None => Ok(()),
                }
            });
        if let (Err(message), None) = (result, &first_failure) {
            first_failure = Some((spec.name.clone(), message));
        }
    }
    first_failure
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Order, ProcessSpawner, RunCount};

    fn plan(cmds: &[&str], runs: u64) -> RunPlan {
        RunPlan {
            warmup: 2,
            ..RunPlan::of(cmds, RunCount::Fixed(runs))
        }
    }

    #[test]
    fn counts_warmup_and_measured_runs_of_each_command() {
        let out = run(
            &plan(&["true", "echo hi"], 5),
            &mut ProcessSpawner,
            &mut (),
            &AtomicBool::new(false),
        )
        .unwrap();
        assert_eq!(out.status, Status::Complete);
        for m in &out.measured {
            assert_eq!((m.warmup.len(), m.samples.len()), (2, 5));
        }
        assert!(out.shell_samples.is_empty());
    }

    #[test]
    fn interleaves_and_runs_prepare_before_each_run() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log");
        let mut p = plan(&["true", "false"], 3);
        p.warmup = 0;
        p.ignore_failure = true;
        p.commands[0].prepare = Some(format!("echo A >> {}", log.display()));
        p.commands[1].prepare = Some(format!("echo B >> {}", log.display()));
        p.commands[1].cleanup = Some(format!("echo C >> {}", log.display()));
        let out = run(&p, &mut ProcessSpawner, &mut (), &AtomicBool::new(false)).unwrap();
        assert_eq!(out.status, Status::Complete);
        assert_eq!(out.measured[1].samples[0].exit, Exit::Code(1));
        let text = std::fs::read_to_string(&log).unwrap();
        // Round-robin: AB, BA, AB, then the cleanup of the second command.
        assert_eq!(text.split_whitespace().collect::<String>(), "ABBAABC");
    }

    #[test]
    fn failing_command_stops_with_status_and_stderr_and_keeps_samples() {
        let mut p = plan(&["true", "sh -c 'echo broken >&2; exit 7'"], 5);
        p.warmup = 0;
        p.order = Order::RoundRobin;
        let out = run(&p, &mut ProcessSpawner, &mut (), &AtomicBool::new(false)).unwrap();
        match &out.status {
            Status::Failed { command, message } => {
                assert!(command.contains("exit 7"));
                assert!(message.contains("exited with status 7"), "{message}");
                assert!(message.contains("broken"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            out.measured[0].samples.len(),
            1,
            "the first command's run is kept"
        );
    }

    #[test]
    fn missing_command_is_a_failure_not_a_panic() {
        let out = run(
            &plan(&["plumb-no-such-cmd"], 3),
            &mut ProcessSpawner,
            &mut (),
            &AtomicBool::new(false),
        )
        .unwrap();
        assert!(
            matches!(out.status, Status::Failed { ref message, .. } if message.contains("not found"))
        );
    }

    #[test]
    fn a_child_killed_by_sigint_is_an_interruption_not_a_failure() {
        let mut p = plan(&["sh -c 'kill -INT $$'"], 3);
        p.ignore_failure = true;
        let out = run(&p, &mut ProcessSpawner, &mut (), &AtomicBool::new(false)).unwrap();
        assert_eq!(out.status, Status::Interrupted);
        assert!(out.measured[0].samples.is_empty());
    }

    /// The judge is asked after each whole round and its yes ends the runs there.
    #[test]
    fn until_stops_after_the_round_it_settles() {
        struct AfterThree(Vec<usize>);
        impl Until for AfterThree {
            fn settled(&mut self, samples: &[&[RunRecord]]) -> bool {
                self.0.push(samples.iter().map(|s| s.len()).sum());
                samples[0].len() == 3
            }
        }
        let mut judge = AfterThree(Vec::new());
        let out = run_until(
            &plan(&["a 1ms", "b 1ms"], 10),
            &mut crate::FakeSpawner::new(),
            &mut (),
            Some(&mut judge),
            &AtomicBool::new(false),
        )
        .unwrap();
        assert_eq!(out.status, Status::Complete);
        assert_eq!(judge.0, [2, 4, 6]);
        assert!(out.measured.iter().all(|m| m.samples.len() == 3));
    }

    #[test]
    fn raised_stop_flag_interrupts_before_any_run() {
        let out = run(
            &plan(&["true"], 3),
            &mut ProcessSpawner,
            &mut (),
            &AtomicBool::new(true),
        )
        .unwrap();
        assert_eq!(out.status, Status::Interrupted);
        assert!(out.measured[0].samples.is_empty());
    }

    #[test]
    fn shell_mode_measures_an_empty_shell_in_the_same_rounds() {
        let mut p = plan(&["true"], 4);
        p.shell = Some("sh".into());
        let out = run(&p, &mut ProcessSpawner, &mut (), &AtomicBool::new(false)).unwrap();
        assert_eq!(out.shell_samples.len(), 4);
        assert_eq!(out.measured[0].samples.len(), 4);
    }
}
