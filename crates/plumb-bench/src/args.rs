//! The bench binary's command line. `cargo bench` passes `--bench`; without it (as under
//! `cargo test --benches`) each benchmark runs once, as a smoke test.

use std::path::PathBuf;

#[derive(Debug, Clone, PartialEq)]
pub struct Args {
    pub bench: bool,
    pub filters: Vec<String>,
    pub regex: bool,
    pub list: bool,
    pub clock: ClockChoice,
    pub warmup: bool,
    pub warmup_cap_s: f64,
    pub sample_count: usize,
    pub measure_time_s: f64,
    /// Keep sampling past `measure_time_s` until the mean's interval is within this
    /// fraction of it (None: stop at `measure_time_s`).
    pub target_error: Option<f64>,
    /// Most time for one benchmark's samples when the target is not met.
    pub max_measure_time_s: f64,
    pub subtract_overhead: bool,
    pub delta: bool,
    pub pin: Option<usize>,
    pub confidence: f64,
    pub sesoi: f64,
    pub export_json: Option<PathBuf>,
    pub export_markdown: Option<PathBuf>,
    pub export_csv: Option<PathBuf>,
    pub quiet: bool,
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
            warmup_cap_s: 3.0,
            // 1 ms samples in the first 0.5 s: short enough that the minimum can fall
            // between a shared machine's slow spells (5 ms samples made it less repeatable
            // than criterion's), far above the clock's resolution and read cost.
            sample_count: 500,
            measure_time_s: 0.5,
            target_error: Some(0.02),
            max_measure_time_s: 3.0,
            subtract_overhead: false,
            delta: false,
            pin: None,
            confidence: 0.999,
            sesoi: 0.02,
            export_json: None,
            export_markdown: None,
            export_csv: None,
            quiet: false,
            warmup_window: 10,
            launches: 1,
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
  --warmup-cap SECS       give up on steady state after SECS (default 3)
  --warmup-window N       samples per warm-up window (default 10)
  --quick                 a short run: 2 ms of samples, no precision target, warm-up
                          windows of 5, capped at 0.05 s
  --sample-count N        samples per benchmark in the first --measure-time (default 500)
  --measure-time SECS     time for one benchmark's samples (default 0.5)
  --target-error PCT|off  then keep sampling until the mean's interval (batch means, at
                          --confidence) is within PCT of it (default 2%)
  --max-measure-time SECS ... or until SECS of samples (default 3)
  --subtract-overhead     subtract the empty-body loop overhead from every sample
  --delta                 delta timing: time N and 2N iterations per sample and remove
                          the fixed per-sample cost, 2·t(N) − t(2N)
  --pin CPU               pin this process to one CPU
  --launches N            run each benchmark in N fresh processes and report the
                          between-launch variation apart (layout, ASLR)
  --confidence LEVEL      e.g. 99.9% (default)
  --sesoi EFFECT          smallest effect of interest, e.g. 2% (default)
  --export-json FILE      full result (default: target/plumb/<bench>.json)
  --export-markdown FILE
  --export-csv FILE
  --quiet                 no per-benchmark progress lines
";

fn value<'a>(it: &mut impl Iterator<Item = &'a String>, flag: &str) -> Result<&'a String, String> {
    it.next().ok_or_else(|| format!("{flag} needs a value"))
}

fn number<T: std::str::FromStr>(s: &str, flag: &str) -> Result<T, String> {
    s.parse()
        .map_err(|_| format!("{flag}: {s:?} is not a valid number"))
}

fn positive_seconds(s: &str, flag: &str) -> Result<f64, String> {
    let v: f64 = number(s, flag)?;
    if v.is_finite() && v > 0.0 && v <= 3600.0 {
        Ok(v)
    } else {
        Err(format!("{flag} must be positive and at most 3600 seconds"))
    }
}

fn fraction(s: &str, flag: &str) -> Result<f64, String> {
    let (n, pct) = match s.strip_suffix('%') {
        Some(n) => (n, true),
        None => (s, false),
    };
    let v: f64 = number(n, flag)?;
    let v = if pct { v / 100.0 } else { v };
    if v > 0.0 && v < 1.0 {
        Ok(v)
    } else {
        Err(format!("{flag}: {s:?} must be between 0 and 100%"))
    }
}

impl Args {
    /// Arguments for a `--launches` child that measures benchmark `name` alone.
    pub fn child_args(&self, name: &str, out: &std::path::Path) -> Vec<String> {
        let mut v: Vec<String> = vec!["--bench".into(), "--launch-child".into(), "--quiet".into()];
        let mut push = |k: &str, val: String| {
            v.push(k.to_string());
            v.push(val);
        };
        push(
            "--clock",
            match self.clock {
                ClockChoice::Monotonic => "monotonic".into(),
                ClockChoice::Tsc => "tsc".into(),
            },
        );
        push("--warmup-cap", self.warmup_cap_s.to_string());
        push("--warmup-window", self.warmup_window.to_string());
        push("--sample-count", self.sample_count.to_string());
        push("--measure-time", self.measure_time_s.to_string());
        push(
            "--target-error",
            self.target_error.map_or("off".into(), |t| t.to_string()),
        );
        push("--max-measure-time", self.max_measure_time_s.to_string());
        push("--confidence", self.confidence.to_string());
        push("--sesoi", self.sesoi.to_string());
        push("--export-json", out.display().to_string());
        if let Some(cpu) = self.pin {
            push("--pin", cpu.to_string());
        }
        if !self.warmup {
            v.push("--no-warmup".into());
        }
        if self.subtract_overhead {
            v.push("--subtract-overhead".into());
        }
        if self.delta {
            v.push("--delta".into());
        }
        v.push("--exact".into());
        v.push(name.to_string());
        v
    }
}

/// Parses the arguments after the program name.
pub fn parse(raw: &[String]) -> Result<Args, String> {
    let mut a = Args::default();
    let mut it = raw.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--bench" => a.bench = true,
            "--regex" => a.regex = true,
            "--exact" => a.regex = false,
            "--list" => a.list = true,
            "--no-warmup" => a.warmup = false,
            "--subtract-overhead" => a.subtract_overhead = true,
            "--delta" => a.delta = true,
            "--quick" => {
                a.measure_time_s = 0.002;
                a.target_error = None;
                a.warmup_cap_s = 0.05;
                a.warmup_window = 5;
            }
            "--quiet" | "-q" => a.quiet = true,
            "--clock" => {
                a.clock = match value(&mut it, arg)?.as_str() {
                    "monotonic" => ClockChoice::Monotonic,
                    "tsc" => ClockChoice::Tsc,
                    other => {
                        return Err(format!(
                            "--clock: unknown clock {other:?} (monotonic or tsc)"
                        ))
                    }
                }
            }
            "--warmup-cap" => {
                a.warmup_cap_s = number(value(&mut it, arg)?, arg)?;
                if !a.warmup_cap_s.is_finite() || !(0.0..=3600.0).contains(&a.warmup_cap_s) {
                    return Err("--warmup-cap must be between 0 and 3600 seconds".into());
                }
            }
            "--warmup-window" => {
                a.warmup_window = number(value(&mut it, arg)?, arg)?;
                if a.warmup_window < 2 {
                    return Err("--warmup-window must be at least 2".into());
                }
            }
            "--sample-count" => {
                a.sample_count = number(value(&mut it, arg)?, arg)?;
                if a.sample_count < 2 {
                    return Err("--sample-count must be at least 2".into());
                }
            }
            "--measure-time" => a.measure_time_s = positive_seconds(value(&mut it, arg)?, arg)?,
            "--target-error" => {
                a.target_error = match value(&mut it, arg)?.as_str() {
                    "off" => None,
                    v => Some(fraction(v, arg)?),
                }
            }
            "--max-measure-time" => {
                a.max_measure_time_s = positive_seconds(value(&mut it, arg)?, arg)?
            }
            "--pin" => a.pin = Some(number(value(&mut it, arg)?, arg)?),
            "--launches" => {
                a.launches = number(value(&mut it, arg)?, arg)?;
                if a.launches < 1 {
                    return Err("--launches must be at least 1".into());
                }
            }
            "--launch-child" => a.launch_child = true,
            "--confidence" => a.confidence = fraction(value(&mut it, arg)?, arg)?,
            "--sesoi" => a.sesoi = fraction(value(&mut it, arg)?, arg)?,
            "--export-json" => a.export_json = Some(value(&mut it, arg)?.into()),
            "--export-markdown" => a.export_markdown = Some(value(&mut it, arg)?.into()),
            "--export-csv" => a.export_csv = Some(value(&mut it, arg)?.into()),
            "--help" | "-h" => return Err(String::new()),
            // Flags libtest-style runners pass that mean nothing here.
            "--nocapture" | "--show-output" | "--test" => {}
            other if other.starts_with('-') => return Err(format!("unknown option {other:?}")),
            filter => a.filters.push(filter.to_string()),
        }
    }
    if a.delta && a.subtract_overhead {
        return Err("--delta and --subtract-overhead both remove a fixed cost; choose one".into());
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Args, String> {
        parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn parses_cargo_bench_style() {
        let a = p(&[
            "--bench", "group/a", "--regex", "--clock", "tsc", "--sesoi", "5%",
        ])
        .unwrap();
        assert!(a.bench && a.regex);
        assert_eq!(a.filters, ["group/a"]);
        assert_eq!(a.clock, ClockChoice::Tsc);
        assert_eq!(a.sesoi, 0.05);
    }

    /// The arguments a launch child gets: this run's settings, one exact filter, its own
    /// output file.
    #[test]
    fn child_arguments_round_trip() {
        let a = Args {
            clock: ClockChoice::Tsc,
            sample_count: 30,
            subtract_overhead: true,
            pin: Some(1),
            launches: 4,
            warmup_window: 5,
            target_error: None,
            max_measure_time_s: 7.5,
            ..Args::default()
        };
        let child = a.child_args("g/x", std::path::Path::new("/tmp/o.json"));
        let back = parse(&child).unwrap();
        assert_eq!(back.filters, ["g/x"]);
        assert!(back.launch_child && back.bench && !back.regex && back.quiet);
        assert_eq!(
            (back.clock, back.sample_count, back.pin),
            (ClockChoice::Tsc, 30, Some(1))
        );
        assert!(back.subtract_overhead);
        assert_eq!(back.launches, 1);
        assert_eq!(back.warmup_window, 5);
        assert_eq!((back.target_error, back.max_measure_time_s), (None, 7.5));
        let by_default = parse(&Args::default().child_args("g/x", std::path::Path::new("o")));
        assert_eq!(by_default.unwrap().target_error, Some(0.02));
        assert_eq!(
            back.export_json.as_deref(),
            Some(std::path::Path::new("/tmp/o.json"))
        );
    }

    #[test]
    fn refuses_bad_values() {
        assert!(p(&["--sample-count", "0"]).is_err());
        assert!(p(&["--sample-count", "x"])
            .unwrap_err()
            .contains("not a valid number"));
        assert!(p(&["--clock", "sundial"])
            .unwrap_err()
            .contains("unknown clock"));
        assert!(p(&["--frobnicate"]).unwrap_err().contains("unknown option"));
        assert!(p(&["--export-json"]).unwrap_err().contains("needs a value"));
        assert!(p(&["--warmup-cap", "-1"]).is_err());
        assert!(p(&["--warmup-cap", "NaN"]).is_err());
        assert!(p(&["--measure-time", "inf"]).is_err());
    }
}
