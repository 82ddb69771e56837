//! The run plan: the commands to benchmark, how many runs, in what order, and its validation.
pub use plumb_counters::plan::SimulationPlan;
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// One command to benchmark, after parameter substitution.
#[derive(Debug, Clone, PartialEq)]
pub struct CommandSpec {
    pub name: String,
    /// The command line as the user wrote it (after substitution).
    pub command: String,
    pub parameters: BTreeMap<String, String>,
    /// Run before every timed run of this command (through `sh -c`), not timed.
    pub prepare: Option<String>,
    /// Run once after this command's last run (through `sh -c`).
    pub cleanup: Option<String>,
    /// How many operations (elements, requests…) one run performs, as written (a number
    /// or a parameter, `{n}`): every figure is then also per operation. One when absent.
    pub operations: Option<String>,
    /// The bytes one run touches, as written (`64K`, `8MiB`, or a parameter, `{size}`):
    /// places the command in a sweep against this machine's caches.
    pub working_set: Option<String>,
    /// The sweep this command is a point of: the command as written, every parameter
    /// substituted but the swept ones (those of its working set).
    pub series: Option<String>,
    /// The directory it runs in (its prepare and cleanup too); plumb's own when absent.
    /// A relative program path (`./prog`, `target/release/x`) is taken from there.
    pub dir: Option<PathBuf>,
}

impl CommandSpec {
    /// A command named by its own text, with no parameters, prepare or cleanup.
    pub fn new(command: &str) -> Self {
        CommandSpec {
            name: command.into(),
            command: command.into(),
            parameters: Default::default(),
            prepare: None,
            cleanup: None,
            operations: None,
            working_set: None,
            series: None,
            dir: None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RunCount {
    /// Exactly this many measured runs of each command.
    Fixed(u64),
    /// Enough rounds that the measured time per command reaches `min_time` on average,
    /// at least `min_runs`, at most `max_runs`, stopping early once `max_time` has passed.
    Adaptive {
        min_runs: u64,
        max_runs: Option<u64>,
        min_time: Duration,
        max_time: Option<Duration>,
    },
}

/// The order of commands within a round.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Order {
    /// Each round starts one command later than the previous, so no command always
    /// follows the same one.
    RoundRobin,
    /// A fresh random permutation per round, from this seed.
    Shuffle { seed: u64 },
    /// Two commands run at the same time, pinned to these two CPUs: a round is one pair,
    /// arranged by `duet::arrangement`.
    Duet { cpus: [usize; 2] },
}

/// Where the benchmarked command's standard output goes.
#[derive(Debug, Clone, PartialEq)]
pub enum OutputPolicy {
    /// `/dev/null`, opened once.
    Discard,
    /// The terminal (stdout and stderr both).
    Inherit,
    /// Appended to this file.
    File(PathBuf),
}

#[derive(Debug, Clone, PartialEq)]
pub struct RunPlan {
    pub commands: Vec<CommandSpec>,
    /// Run each command as `SHELL -c COMMAND` and subtract the measured start-up of
    /// `SHELL -c ''`.
    pub shell: Option<String>,
    pub warmup: u64,
    pub runs: RunCount,
    pub order: Order,
    pub output: OutputPolicy,
    /// Keep going when a command exits non-zero (its exit code is recorded).
    pub ignore_failure: bool,
    /// Count events of each measured run (`plumb-counters`: hardware where the CPU has
    /// them, the kernel's software events always), from the command's start to its exit.
    pub counters: bool,
    /// Simulate each command once under cachegrind after the timed runs.
    pub simulation: Option<SimulationPlan>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum PlanError {
    NoCommands,
    ZeroRuns,
    MinAboveMax {
        min: u64,
        max: u64,
    },
    /// More runs than are kept in memory (`MAX_RUNS`); `option` is the flag that asked.
    TooManyRuns {
        option: &'static str,
        n: u64,
    },
    EmptyCommand(usize),
    Unsplittable {
        command: String,
        reason: String,
    },
    /// `--operations` is not a positive whole number (after parameter substitution).
    BadOperations {
        command: String,
        text: String,
    },
    /// `--working-set` is not a size (after parameter substitution).
    BadWorkingSet {
        command: String,
        text: String,
    },
    /// More `--name`s than commands.
    ExtraNames {
        names: usize,
        commands: usize,
    },
    /// An option given neither once for all commands nor once each.
    PerCommand {
        option: &'static str,
        given: usize,
        commands: usize,
    },
    /// The parameters do not expand.
    Parameters(crate::ParamError),
    /// More benchmarks than `MAX_BENCHMARKS`.
    TooManyBenchmarks(usize),
    /// `--shell` names no installed program.
    NoShell(String),
    /// `--baseline` names no benchmark; the benchmarks' names.
    NoBaseline {
        wanted: String,
        names: Vec<String>,
    },
    /// `--until-settled` with other than two commands.
    SettleTwo(usize),
    /// `--until-settled` with `--shell`.
    SettleShell,
    /// A duet of other than two commands, through a shell, or with per-run counters
    /// (which count every child at once and could not tell the two apart).
    DuetOfTwo,
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::NoCommands => write!(f, "no command to benchmark"),
            PlanError::ZeroRuns => write!(f, "the number of runs must be at least 1"),
            PlanError::MinAboveMax { min, max } => {
                write!(f, "--min-runs {min} is larger than --max-runs {max}")
            }
            PlanError::TooManyRuns { option, n } => write!(
                f,
                "{option} {n} is more than the {MAX_RUNS} runs of a command plumb keeps (every sample is kept in memory); Ctrl-C ends a run early and keeps what was measured"
            ),
            PlanError::EmptyCommand(i) => write!(f, "command #{} is empty", i + 1),
            PlanError::Unsplittable { command, reason } => write!(
                f,
                "cannot split {command:?} into arguments ({reason}); quote it properly or use --shell"
            ),
            PlanError::BadOperations { command, text } => write!(
                f,
                "--operations {text:?} for {command:?} is not a whole number of operations per run (1 or more)"
            ),
            PlanError::BadWorkingSet { command, text } => write!(
                f,
                "--working-set {text:?} for {command:?} is not a size (e.g. 64K, 8M, 32KiB, 4096)"
            ),
            PlanError::ExtraNames { names, commands } => {
                write!(f, "{names} --name values for {commands} commands")
            }
            PlanError::PerCommand {
                option,
                given,
                commands,
            } => write!(
                f,
                "{option} was given {given} times for {commands} commands: give it once for all, or once per command"
            ),
            PlanError::Parameters(e) => e.fmt(f),
            PlanError::TooManyBenchmarks(n) => write!(
                f,
                "the parameters make {n} benchmarks, more than {}: scan with a coarser step (-D) or fewer values",
                crate::asked::MAX_BENCHMARKS
            ),
            PlanError::NoShell(shell) => write!(
                f,
                "--shell={shell}: no such program (on PATH or as a path); give an installed shell, e.g. --shell=bash"
            ),
            PlanError::NoBaseline { wanted, names } => write!(
                f,
                "--baseline {wanted:?} names no benchmark; the benchmarks are: {}",
                names
                    .iter()
                    .map(|n| format!("{n:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            PlanError::SettleTwo(n) => write!(
                f,
                "--until-settled compares two commands, and this run has {n}; give two (after parameters), or measure several with a fixed budget"
            ),
            PlanError::SettleShell => write!(
                f,
                "--until-settled judges the ratio of whole runs, which a shell's start-up in both would dilute; run the commands directly (without --shell)"
            ),
            PlanError::DuetOfTwo => f.write_str(
                "a duet runs two commands at once, directly, without per-run counters (the kernel's counters would count both as one)",
            ),
        }
    }
}

impl std::error::Error for PlanError {}

pub(crate) fn parse_working_set(text: &str) -> Option<u64> {
    let t = text.trim();
    if let Ok(b) = t.parse::<plumb_model::quantity::ByteSize>() {
        return Some(b.0);
    }
    let (digits, unit) = match t.char_indices().last()? {
        (i, 'K' | 'k') => (&t[..i], 1u64 << 10),
        (i, 'M') => (&t[..i], 1 << 20),
        (i, 'G') => (&t[..i], 1 << 30),
        _ => (t, 1),
    };
    digits.parse::<u64>().ok()?.checked_mul(unit)
}

/// The most runs (measured or warm-up) of one command: every sample is kept, about 50
/// bytes each, so this is half a gigabyte, and at least three hours at 1 ms a run.
pub const MAX_RUNS: u64 = 10_000_000;

impl RunPlan {
    /// `commands` run directly, round-robin, output discarded, no warm-up, stopping at
    /// the first failure: the plainest plan, to adjust field by field.
    pub fn of(commands: &[&str], runs: RunCount) -> Self {
        RunPlan {
            commands: commands.iter().map(|c| CommandSpec::new(c)).collect(),
            shell: None,
            warmup: 0,
            runs,
            order: Order::RoundRobin,
            output: OutputPolicy::Discard,
            ignore_failure: false,
            counters: false,
            simulation: None,
        }
    }

    /// Checks what can be checked before anything runs.
    pub fn validate(&self) -> Result<(), PlanError> {
        if self.commands.is_empty() {
            return Err(PlanError::NoCommands);
        }
        match self.runs {
            RunCount::Fixed(0) => return Err(PlanError::ZeroRuns),
            RunCount::Fixed(n) if n > MAX_RUNS => {
                return Err(PlanError::TooManyRuns {
                    option: "--runs",
                    n,
                })
            }
            RunCount::Adaptive {
                min_runs, max_runs, ..
            } => {
                if min_runs == 0 || max_runs == Some(0) {
                    return Err(PlanError::ZeroRuns);
                }
                if let Some(max) = max_runs.filter(|&m| m < min_runs) {
                    return Err(PlanError::MinAboveMax { min: min_runs, max });
                }
                if min_runs > MAX_RUNS {
                    return Err(PlanError::TooManyRuns {
                        option: "--min-runs",
                        n: min_runs,
                    });
                }
            }
            RunCount::Fixed(_) => {}
        }
        if self.warmup > MAX_RUNS {
            return Err(PlanError::TooManyRuns {
                option: "--warmup",
                n: self.warmup,
            });
        }
        for (i, c) in self.commands.iter().enumerate() {
            self.argv(c).map_err(|e| match e {
                PlanError::EmptyCommand(_) => PlanError::EmptyCommand(i),
                other => other,
            })?;
            Self::operations(c)?;
            Self::working_set(c)?;
        }
        let duet = matches!(self.order, Order::Duet { .. });
        if duet && (self.commands.len() != 2 || self.shell.is_some() || self.counters) {
            return Err(PlanError::DuetOfTwo);
        }
        Ok(())
    }

    /// The bytes one run of `c` touches, when it says. Bare `K`, `M` and `G` are binary,
    /// as lscpu writes cache sizes and as a sweep's `-L size 16K,64K` reads; a bare
    /// number is bytes; `KiB`, `kB` and the rest as everywhere else in plumb.
    pub fn working_set(c: &CommandSpec) -> Result<Option<u64>, PlanError> {
        let Some(text) = &c.working_set else {
            return Ok(None);
        };
        parse_working_set(text)
            .map(Some)
            .ok_or_else(|| PlanError::BadWorkingSet {
                command: c.name.clone(),
                text: text.clone(),
            })
    }

    /// The operations one run of `c` performs (1 unless `--operations` says otherwise).
    pub fn operations(c: &CommandSpec) -> Result<u64, PlanError> {
        let Some(text) = &c.operations else {
            return Ok(1);
        };
        match text.trim().replace('_', "").parse::<u64>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(PlanError::BadOperations {
                command: c.name.clone(),
                text: text.clone(),
            }),
        }
    }

    /// The argument vector a command is spawned with.
    pub fn argv(&self, c: &CommandSpec) -> Result<Vec<String>, PlanError> {
        if c.command.trim().is_empty() {
            return Err(PlanError::EmptyCommand(0));
        }
        match &self.shell {
            Some(shell) => Ok(vec![shell.clone(), "-c".into(), c.command.clone()]),
            None => {
                let argv = shell_words::split(&c.command).map_err(|e| PlanError::Unsplittable {
                    command: c.command.clone(),
                    reason: e.to_string(),
                })?;
                if argv.is_empty() {
                    Err(PlanError::EmptyCommand(0))
                } else {
                    Ok(argv)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(cmds: &[&str], runs: RunCount) -> RunPlan {
        RunPlan::of(cmds, runs)
    }

    #[test]
    fn splits_without_a_shell_and_wraps_with_one() {
        let mut p = plan(&["echo 'a b' c"], RunCount::Fixed(1));
        assert_eq!(p.argv(&p.commands[0]).unwrap(), vec!["echo", "a b", "c"]);
        p.shell = Some("sh".into());
        assert_eq!(
            p.argv(&p.commands[0]).unwrap(),
            vec!["sh", "-c", "echo 'a b' c"]
        );
    }

    #[test]
    fn rejects_bad_plans() {
        assert_eq!(
            plan(&[], RunCount::Fixed(1)).validate(),
            Err(PlanError::NoCommands)
        );
        assert_eq!(
            plan(&["true"], RunCount::Fixed(0)).validate(),
            Err(PlanError::ZeroRuns)
        );
        assert_eq!(
            plan(&["true", " "], RunCount::Fixed(1)).validate(),
            Err(PlanError::EmptyCommand(1))
        );
        assert!(matches!(
            plan(&["echo 'unclosed"], RunCount::Fixed(1)).validate(),
            Err(PlanError::Unsplittable { .. })
        ));
        let adaptive = RunCount::Adaptive {
            min_runs: 10,
            max_runs: Some(5),
            min_time: Duration::from_secs(1),
            max_time: None,
        };
        assert_eq!(
            plan(&["true"], adaptive).validate(),
            Err(PlanError::MinAboveMax { min: 10, max: 5 })
        );
    }
}
