//! The bench binary's command line. `cargo bench` passes `--bench`; without it (as under
//! `cargo test --benches`) each benchmark runs once, as a smoke test.

use crate::error::ArgsError;
use plumb_counters::plan::CounterMode;
use plumb_counters::unreadable::UnknownMode;
use plumb_model::bench_child::{PROFILE_CHILD, REGION_TIME, SIMULATE_CHILD};
use plumb_model::quantity::{parse_count, Confidence, Duration, Fraction};
use std::path::PathBuf;

#[derive(Debug, Clone, PartialEq)]
pub struct Args {
    pub bench: bool,
    pub filters: Vec<String>,
    pub regex: bool,
    pub list: bool,
    pub clock: ClockChoice,
    pub warmup: bool,
    pub warmup_cap: Duration,
    pub sample_count: usize,
    pub measure_time: Duration,
    /// Keep sampling past `measure_time` until the mean's interval is within this
    /// fraction of it (None: stop at `measure_time`).
    pub target_error: Option<Fraction>,
    /// Most time for one benchmark's samples when the target is not met.
    pub max_measure_time: Duration,
    pub subtract_overhead: bool,
    /// Read event counters around each measured sample, and simulate them where the CPU
    /// has none (`--counters[=auto|hardware|simulated]`).
    pub counters: Option<CounterMode>,
    /// The most one benchmark's simulation may take.
    pub sim_budget: Duration,
    /// Set in the processes simulation starts under valgrind: run the benchmark's routine
    /// this many times in the measured region, and nothing else.
    pub simulate_child: Option<u64>,
    /// Set in the process `plumb profile --bench` starts under perf: run the benchmark's
    /// routine in the untimed region for this long, and nothing else.
    pub profile_child: Option<Duration>,
    /// With `simulate_child`: where to write how long the region took (simulated).
    pub region_time: Option<PathBuf>,
    pub delta: bool,
    pub pin: Option<usize>,
    pub confidence: Confidence,
    pub sesoi: Fraction,
    /// The question verdicts answer (which statistic they compare).
    pub question: plumb_model::Question,
    pub export_json: Option<PathBuf>,
    pub export_markdown: Option<PathBuf>,
    pub export_csv: Option<PathBuf>,
    /// A self-contained HTML page with charts (as `plumb report`).
    pub report: Option<PathBuf>,
    /// Keep the result in the history store (`--save`, or `--history PATH`).
    pub save: bool,
    pub history: Option<String>,
    pub quiet: bool,
    /// The full report: every column, each finding's figures and advice.
    pub verbose: bool,
    /// Samples per warm-up window.
    pub warmup_window: usize,
    /// Fresh processes per benchmark (1: measure in this process).
    pub launches: usize,
    /// Set in the processes `--launches` starts: measure, write, do not start more.
    pub launch_child: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockChoice {
    Monotonic,
    Tsc,
}

impl Default for Args {
    fn default() -> Self {
        Args {
            bench: false,
            filters: Vec::new(),
            regex: false,
            list: false,
            clock: ClockChoice::Monotonic,
            warmup: true,
            warmup_cap: Duration::from_secs(3),
            // 1 ms samples in the first 0.5 s: short enough that the minimum can fall
            // between a shared machine's slow spells (5 ms samples made it less repeatable
            // than criterion's), far above the clock's resolution and read cost.
            sample_count: 500,
            measure_time: Duration::from_millis(500),
            target_error: Fraction::new(0.02),
            max_measure_time: Duration::from_secs(3),
            subtract_overhead: false,
            counters: None,
            sim_budget: Duration::from_secs(60),
            simulate_child: None,
            profile_child: None,
            region_time: None,
            delta: false,
            pin: None,
            confidence: Confidence::DEFAULT,
            sesoi: Fraction::DEFAULT_SESOI,
            question: plumb_model::Question::Mean,
            export_json: None,
            export_markdown: None,
            export_csv: None,
            report: None,
            save: false,
            history: None,
            quiet: false,
            verbose: false,
            warmup_window: 10,
            // Ten fresh processes a benchmark, its budget split between them: a process
            // fixes code and data placement for all its samples, and on this project's
            // machines that moved a mean 5–19× more than its samples' noise (issue 30,
            // bench/results/inprocess.md). Ten give the mean's interval 9 degrees of
            // freedom and keep the process start-ups a small share of the time.
            launches: 10,
            launch_child: false,
        }
    }
}

pub const USAGE: &str = "\
plumb-bench: in-process benchmarks

USAGE: cargo bench [--bench NAME] -- [OPTIONS] [FILTER...]

  FILTER                  run benchmarks whose full name equals FILTER (exact by default)
  --regex                 treat FILTERs as regular expressions
  --list                  list benchmarks and exit
  --clock monotonic|tsc   timer (default monotonic; tsc needs an invariant TSC)
  --no-warmup             skip warm-up (to see cold behaviour)
  --warmup-cap TIME       give up on steady state after TIME (default 3s, over all
                          launches)
  --warmup-window N       samples per warm-up window (default 10)
  --quick                 a short run: one process, 2 ms of samples, no precision
                          target, warm-up windows of 5, capped at 0.05 s
  --launches N            measure in N fresh processes of this binary, each taking
                          every benchmark with 1/N of its samples and time (default
                          10); the mean's interval is over the processes, so it holds
                          for another run. Each runs main's setup again: where that is
                          heavy, 1 measures in this process
  --sample-count N        samples per benchmark (default 500, over all launches)
  --measure-time TIME     time for one benchmark's samples (default 500ms, over all
                          launches)
  --target-error PCT|off  with --launches 1: then keep sampling until the mean's
                          interval (batch means, at --confidence) is within PCT of it
                          (default 2%)
  --max-measure-time TIME ... or until TIME of samples (default 3s)
  --subtract-overhead     subtract the empty-body loop overhead from every sample
                          (in one process: with --launches 1 or --quick)
  --counters[=MODE]       read event counters around each measured sample (never
                          warm-up or calibration): the CPU's where it has them, the
                          kernel's software events always; per operation in the result.
                          MODE auto (default): where the CPU has no counters, simulate
                          them (valgrind's callgrind, this machine's caches, counting
                          only the routine's calls); hardware: the CPU's or refuse;
                          simulated: simulate even where the CPU has counters
  --sim-budget TIME       the most one benchmark's simulation may take (default 60s)
  --delta                 delta timing: time N and 2N iterations per sample and remove
                          the fixed per-sample cost, 2·t(N) − t(2N)
  --pin CPU               pin this process to one CPU
  --confidence LEVEL      e.g. 99.9% (default), 99.9 or 0.999
  --sesoi EFFECT          smallest effect of interest, e.g. 2% (default)
  --question Q            what verdicts compare: best (minimum), typical (median),
                          mean (default), worst (p99) or worst=p99.9
  --export-json FILE      full result (default: target/plumb/<bench>.json)
  --export-markdown FILE
  --export-csv FILE
  --report FILE           a self-contained HTML page with charts (as plumb report)
  --save                  keep the result in the history at this commit (plumb history)
  --history PATH          keep it in this SQLite store (implies --save; default
                          $PLUMB_HISTORY, else .plumb/history.db at the git top level)
  --quiet                 no per-benchmark progress lines
  -v, --verbose           the full report: every column, each finding's figures and advice
";

fn value<'a>(
    it: &mut impl Iterator<Item = &'a String>,
    flag: &str,
) -> Result<&'a String, ArgsError> {
    it.next().ok_or_else(|| ArgsError::MissingValue {
        flag: flag.to_string(),
    })
}

/// An option of a cargo feature this harness was built without: refused, with the line
/// that turns it on.
fn built_with(flag: &str, on: bool, feature: &str) -> Result<(), ArgsError> {
    if on {
        return Ok(());
    }
    Err(bad(
        flag,
        format!("this harness is built without plumb-bench's `{feature}` feature: plumb-bench = {{ version = \"…\", features = [\"{feature}\"] }} in [dev-dependencies]"),
    ))
}

fn bad(flag: &str, why: impl ToString) -> ArgsError {
    ArgsError::BadValue {
        flag: flag.to_string(),
        why: why.to_string(),
    }
}

/// One grammar with the `plumb` command line: the value parses as its quantity type, and
/// the error names the flag.
fn quantity<T: std::str::FromStr<Err = plumb_model::quantity::QuantityError>>(
    s: &str,
    flag: &str,
) -> Result<T, ArgsError> {
    s.parse().map_err(|e| bad(flag, e))
}

fn count(s: &str, flag: &str, min: u64) -> Result<usize, ArgsError> {
    parse_count(s, min)
        .map(|n| n as usize)
        .map_err(|e| bad(flag, e))
}

/// A duration above zero and at most an hour.
fn time_limit(s: &str, flag: &str) -> Result<Duration, ArgsError> {
    let d: Duration = quantity(s, flag)?;
    if d.is_zero() || d > Duration::from_secs(3600) {
        return Err(bad(
            flag,
            format!("`{s}` must be above 0 and at most 1h (e.g. 500ms, 3s)"),
        ));
    }
    Ok(d)
}

impl Args {
    /// Options that launches cannot honour. `--subtract-overhead`: each launch sizes its
    /// own batch, so its per-sample overhead differs, and one correction would over- or
    /// under-correct every launch but one.
    pub fn check_launches(&self) -> Result<(), ArgsError> {
        if self.subtract_overhead && self.launches > 1 {
            return Err(ArgsError::Conflict(
                "--subtract-overhead needs one process (--launches 1): each launch calibrates its own batch",
            ));
        }
        Ok(())
    }

    /// Arguments for one `--launches` child: measure the benchmarks `names` (exact), each
    /// with this launch's share of the samples and time, and write them to `out`.
    ///
    /// A child samples to a fixed budget (no precision target): the launches, not the
    /// samples of one, are the replicates, and a stop that waits on the noise made slow
    /// invocations sample longer (issue 30). It is told the number of launches so that it
    /// takes its share of the samples the median's interval needs, not all of them.
    pub fn child_args(&self, names: &[String], out: &std::path::Path) -> Vec<String> {
        let mut v: Vec<String> = vec!["--bench".into(), "--launch-child".into(), "--quiet".into()];
        let mut push = |k: &str, val: String| {
            v.push(k.to_string());
            v.push(val);
        };
        let share = self.launches.max(1);
        push(
            "--clock",
            match self.clock {
                ClockChoice::Monotonic => "monotonic".into(),
                ClockChoice::Tsc => "tsc".into(),
            },
        );
        // The cap bounds a benchmark's warm-up in all: a routine that never steadies
        // costs one cap over the launches, as it would in one process, not one a launch.
        push(
            "--warmup-cap",
            self.warmup_cap.div_u64(share as u64).to_string(),
        );
        push("--warmup-window", self.warmup_window.to_string());
        push(
            "--sample-count",
            self.sample_count.div_ceil(share).max(2).to_string(),
        );
        push(
            "--measure-time",
            self.measure_time.div_u64(share as u64).to_string(),
        );
        push("--target-error", "off".into());
        push("--launches", share.to_string());
        push("--confidence", self.confidence.to_string());
        push("--sesoi", self.sesoi.to_string());
        push("--question", self.question.to_string());
        push("--export-json", out.display().to_string());
        if let Some(cpu) = self.pin {
            push("--pin", cpu.to_string());
        }
        if !self.warmup {
            v.push("--no-warmup".into());
        }
        if self.delta {
            v.push("--delta".into());
        }
        // A launch reads the counters of its samples; the simulation (once per
        // benchmark) is the parent's.
        if self.counters.is_some() {
            v.push("--counters".into());
        }
        v.push("--exact".into());
        v.extend(names.iter().cloned());
        v
    }
}

/// The options of counting and simulation; false when `arg` is none of them.
/// The options that say where the result goes (files, the history store); whether `arg`
/// was one.
fn output_option<'a>(
    a: &mut Args,
    arg: &str,
    it: &mut impl Iterator<Item = &'a String>,
) -> Result<bool, ArgsError> {
    match arg {
        "--export-json" => a.export_json = Some(value(it, arg)?.into()),
        "--save" => {
            built_with(arg, cfg!(feature = "history"), "history")?;
            a.save = true
        }
        "--history" => {
            built_with(arg, cfg!(feature = "history"), "history")?;
            a.history = Some(value(it, arg)?.to_string())
        }
        "--export-markdown" => a.export_markdown = Some(value(it, arg)?.into()),
        "--export-csv" => a.export_csv = Some(value(it, arg)?.into()),
        "--report" => {
            built_with(arg, cfg!(feature = "html"), "html")?;
            a.report = Some(value(it, arg)?.into())
        }
        _ => return Ok(false),
    }
    Ok(true)
}

fn counting_option<'a>(
    a: &mut Args,
    arg: &str,
    it: &mut impl Iterator<Item = &'a String>,
) -> Result<bool, ArgsError> {
    match arg {
        "--counters" => a.counters = Some(CounterMode::Auto),
        _ if arg.starts_with("--counters=") => {
            let mode = arg["--counters=".len()..].parse();
            a.counters = Some(mode.map_err(|e: UnknownMode| bad("--counters", e))?)
        }
        "--sim-budget" => a.sim_budget = time_limit(value(it, arg)?, arg)?,
        // plumb's own children (plumb_model::bench_child): the protocol's words.
        REGION_TIME => a.region_time = Some(value(it, arg)?.into()),
        SIMULATE_CHILD => a.simulate_child = Some(count(value(it, arg)?, arg, 1)? as u64),
        PROFILE_CHILD => a.profile_child = Some(time_limit(value(it, arg)?, arg)?),
        _ => return Ok(false),
    }
    Ok(true)
}

/// Parses the arguments after the program name.
pub fn parse(raw: &[String]) -> Result<Args, ArgsError> {
    let mut a = Args::default();
    // `--quick` is one process unless `--launches` says otherwise, in either order.
    let (mut quick, mut launches) = (false, None);
    let mut it = raw.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--bench" => a.bench = true,
            "--regex" => {
                built_with(arg, cfg!(feature = "regex"), "regex")?;
                a.regex = true
            }
            "--exact" => a.regex = false,
            "--list" => a.list = true,
            "--no-warmup" => a.warmup = false,
            "--subtract-overhead" => a.subtract_overhead = true,
            "--delta" => a.delta = true,
            counting if counting_option(&mut a, counting, &mut it)? => {}
            output if output_option(&mut a, output, &mut it)? => {}
            "--quick" => {
                a.measure_time = Duration::from_millis(2);
                a.target_error = None;
                a.warmup_cap = Duration::from_millis(50);
                a.warmup_window = 5;
                quick = true;
            }
            "--quiet" | "-q" => a.quiet = true,
            "--verbose" | "-v" => a.verbose = true,
            "--clock" => {
                a.clock = match value(&mut it, arg)?.as_str() {
                    "monotonic" => ClockChoice::Monotonic,
                    "tsc" => ClockChoice::Tsc,
                    other => {
                        let why = format!("unknown clock {other:?} (monotonic or tsc)");
                        return Err(bad(arg, why));
                    }
                }
            }
            "--warmup-cap" => {
                a.warmup_cap = quantity(value(&mut it, arg)?, arg)?;
                if a.warmup_cap > Duration::from_secs(3600) {
                    let why = format!("`{}` is longer than 1h (e.g. 3s)", a.warmup_cap);
                    return Err(bad(arg, why));
                }
            }
            "--warmup-window" => a.warmup_window = count(value(&mut it, arg)?, arg, 2)?,
            "--sample-count" => a.sample_count = count(value(&mut it, arg)?, arg, 2)?,
            "--measure-time" => a.measure_time = time_limit(value(&mut it, arg)?, arg)?,
            "--target-error" => {
                a.target_error = match value(&mut it, arg)?.as_str() {
                    "off" => None,
                    v => Some(quantity(v, arg)?),
                }
            }
            "--max-measure-time" => a.max_measure_time = time_limit(value(&mut it, arg)?, arg)?,
            "--pin" => a.pin = Some(count(value(&mut it, arg)?, arg, 0)?),
            "--launches" => launches = Some(count(value(&mut it, arg)?, arg, 1)?),
            "--launch-child" => a.launch_child = true,
            "--confidence" => a.confidence = quantity(value(&mut it, arg)?, arg)?,
            "--sesoi" => a.sesoi = quantity(value(&mut it, arg)?, arg)?,
            "--question" => a.question = quantity(value(&mut it, arg)?, arg)?,
            "--help" | "-h" => return Err(ArgsError::Help),
            // Flags libtest-style runners pass that mean nothing here.
            "--nocapture" | "--show-output" | "--test" => {}
            other if other.starts_with('-') => {
                return Err(ArgsError::UnknownOption(other.to_string()))
            }
            filter => a.filters.push(filter.to_string()),
        }
    }
    a.launches = launches.unwrap_or(if quick { 1 } else { a.launches });
    checked(a)
}

/// The options, once they are known not to conflict.
fn checked(a: Args) -> Result<Args, ArgsError> {
    a.check_launches()?;
    if a.delta && a.subtract_overhead {
        return Err(ArgsError::Conflict(
            "--delta and --subtract-overhead both remove a fixed cost; choose one",
        ));
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Args, ArgsError> {
        parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    /// The error as the harness prints it.
    fn err(args: &[&str]) -> String {
        p(args).unwrap_err().to_string()
    }

    /// An option of a feature left out is refused with the line that turns it on; one of
    /// a feature built in passes.
    #[test]
    fn an_option_of_a_feature_left_out_says_how_to_turn_it_on() {
        let e = built_with("--save", false, "history")
            .unwrap_err()
            .to_string();
        assert!(e.contains("--save"), "{e}");
        assert!(e.contains(r#"features = ["history"]"#), "{e}");
        assert!(built_with("--report", true, "html").is_ok());
        // The options reach the check: refused exactly when the feature is off.
        assert_eq!(p(&["--save"]).is_ok(), cfg!(feature = "history"));
        assert_eq!(p(&["--report", "r.html"]).is_ok(), cfg!(feature = "html"));
    }

    #[test]
    fn parses_cargo_bench_style() {
        let a = p(&[
            "--bench",
            "group/a",
            "--exact",
            "--clock",
            "tsc",
            "--sesoi",
            "5%",
            "--question",
            "worst=p99.9",
        ])
        .unwrap();
        assert!(a.bench && !a.regex);
        assert_eq!(a.filters, ["group/a"]);
        assert_eq!(
            p(&["--regex"]).map(|a| a.regex).ok(),
            cfg!(feature = "regex").then_some(true)
        );
        assert_eq!(a.clock, ClockChoice::Tsc);
        assert_eq!(a.sesoi.get(), 0.05);
        assert_eq!(a.question, plumb_model::Question::Worst(99.9));
    }

    /// The arguments a launch child gets: this run's settings, its share of the samples
    /// and time, a fixed budget, exact filters, its own output file.
    #[test]
    fn child_arguments_round_trip() {
        let a = Args {
            clock: ClockChoice::Tsc,
            sample_count: 30,
            measure_time: Duration::from_millis(400),
            delta: true,
            pin: Some(1),
            launches: 4,
            warmup_window: 5,
            ..Args::default()
        };
        let names = ["g/x".to_string(), "g/y".to_string()];
        let child = a.child_args(&names, std::path::Path::new("/tmp/o.json"));
        let back = parse(&child).unwrap();
        assert_eq!(back.filters, names);
        assert!(back.launch_child && back.bench && !back.regex && back.quiet);
        assert_eq!(
            (back.clock, back.sample_count, back.pin),
            (ClockChoice::Tsc, 8, Some(1))
        );
        assert_eq!(back.measure_time, Duration::from_millis(100));
        assert_eq!(back.warmup_cap, Duration::from_millis(750));
        assert!(back.delta);
        assert_eq!(back.launches, 4);
        assert_eq!(back.warmup_window, 5);
        assert_eq!(back.target_error, None);
        assert_eq!(
            back.export_json.as_deref(),
            Some(std::path::Path::new("/tmp/o.json"))
        );
        // Shares that do not divide evenly still reach the child (to the picosecond).
        let sevenths = Args {
            launches: 7,
            ..Args::default()
        };
        let back = parse(&sevenths.child_args(&names, std::path::Path::new("o"))).unwrap();
        assert_eq!(back.measure_time, Duration::from_millis(500).div_u64(7));
        assert_eq!(back.warmup_cap, Duration::from_secs(3).div_u64(7));
        // At least two samples a launch, however many launches.
        let many = Args {
            launches: 400,
            ..Args::default()
        };
        let back = parse(&many.child_args(&names, std::path::Path::new("o"))).unwrap();
        assert_eq!(back.sample_count, 2);
    }

    #[test]
    fn subtract_overhead_is_refused_with_launches() {
        let e = err(&["--subtract-overhead"]);
        assert!(e.contains("--launches 1"), "{e}");
        assert!(p(&["--subtract-overhead", "--launches", "1"]).is_ok());
        assert!(p(&["--subtract-overhead", "--quick"]).is_ok());
    }

    #[test]
    fn quick_is_one_process_unless_launches_follow() {
        assert_eq!(p(&[]).unwrap().launches, 10);
        assert_eq!(p(&["--quick"]).unwrap().launches, 1);
        assert_eq!(p(&["--quick", "--launches", "3"]).unwrap().launches, 3);
        assert_eq!(p(&["--launches", "3", "--quick"]).unwrap().launches, 3);
    }

    #[test]
    fn refuses_bad_values() {
        assert!(p(&["--sample-count", "0"]).is_err());
        assert!(err(&["--sample-count", "x"]).contains("not a whole number"));
        assert!(err(&["--clock", "sundial"]).contains("unknown clock"));
        assert!(err(&["--frobnicate"]).contains("unknown option"));
        assert!(err(&["--export-json"]).contains("needs a value"));
        assert!(p(&["--warmup-cap", "-1"]).is_err());
        assert!(p(&["--warmup-cap", "NaN"]).is_err());
        assert!(p(&["--measure-time", "inf"]).is_err());
        assert_eq!(
            err(&["--measure-time", "5"]),
            "--measure-time: `5` needs a unit (e.g. 5ms, 5s)"
        );
        assert!(err(&["--confidence", "0.3"]).contains("between 50% and 100%"));
        assert_eq!(
            err(&["--counters=sometimes"]),
            "--counters: unknown counters \"sometimes\" (auto, hardware or simulated)"
        );
        assert!(p(&["--sim-budget", "0s"]).is_err());
    }

    #[test]
    fn counters_take_a_mode_with_an_equals_sign() {
        assert_eq!(
            p(&["--counters"]).unwrap().counters,
            Some(CounterMode::Auto)
        );
        let a = p(&["--counters=simulated", "--sim-budget", "5s", "x"]).unwrap();
        assert_eq!(a.counters, Some(CounterMode::Simulated));
        assert_eq!(a.sim_budget, Duration::from_secs(5));
        assert_eq!(a.filters, ["x"], "a bare --counters takes no value");
        let child = p(&["--simulate-child", "3", "--region-time", "/tmp/r"]).unwrap();
        assert_eq!(child.simulate_child, Some(3));
        assert!(p(&["--simulate-child", "0"]).is_err());
        let child = p(&["--profile-child", "2s", "--exact", "x"]).unwrap();
        assert_eq!(child.profile_child, Some(Duration::from_secs(2)));
    }

    /// The same grammar as `plumb run`: percent and fraction forms alike, durations with
    /// units.
    #[test]
    fn accepts_the_command_lines_grammar() {
        for level in ["99.9", "99.9%", "0.999"] {
            assert_eq!(p(&["--confidence", level]).unwrap().confidence.get(), 0.999);
        }
        let a = p(&[
            "--measure-time",
            "500ms",
            "--max-measure-time",
            "2s",
            "--warmup-cap",
            "250ms",
        ])
        .unwrap();
        assert_eq!(a.measure_time, Duration::from_millis(500));
        assert_eq!(a.max_measure_time, Duration::from_secs(2));
        assert_eq!(a.warmup_cap, Duration::from_millis(250));
        assert_eq!(
            p(&["--target-error", "1%"]).unwrap().target_error,
            Fraction::new(0.01)
        );
        assert_eq!(
            p(&["--target-error", "0.01"]).unwrap().target_error,
            Fraction::new(0.01)
        );
    }
}
