//! How plumb re-executes a plumb-bench binary to run one routine outside its timed
//! samples — under a simulator (`plumb run`'s counters, the harness's own), under perf
//! (`plumb profile --bench`) or DHAT — and how it finds that routine's region in a
//! stack: one typed protocol that the harness, plumb-profile and the CLI all speak.

use crate::quantity::Duration;
use std::path::PathBuf;

/// What the child is asked to do with the one routine `bench` names exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChildRun {
    /// `--simulate-child N`: N calls of the routine in its untimed region, once.
    Calls(u64),
    /// `--profile-child TIME`: rounds of calls in the untimed region for about TIME.
    For(Duration),
}

/// One invocation of a bench binary as a child.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchChild {
    /// The benchmark, matched exactly (`--exact`).
    pub bench: String,
    pub run: ChildRun,
    /// Where the child writes how long its untimed region took, in whole nanoseconds.
    pub region_time: Option<PathBuf>,
}

pub const SIMULATE_CHILD: &str = "--simulate-child";
pub const PROFILE_CHILD: &str = "--profile-child";
pub const REGION_TIME: &str = "--region-time";
pub const EXACT: &str = "--exact";
pub const BENCH: &str = "--bench";

/// The functions that hold a routine's untimed region in plumb-bench (its
/// `measure::untimed_region_*`): where a profile's stacks are cut and a simulator counts.
pub const UNTIMED_REGIONS: [&str; 2] = [
    "plumb_bench::measure::untimed_region_calls",
    "plumb_bench::measure::untimed_region_inputs",
];

/// Those functions as one callgrind `--toggle-collect` pattern.
pub const UNTIMED_REGION_PATTERN: &str = "*untimed_region_*";

impl BenchChild {
    /// The arguments after the bench binary's path.
    pub fn args(&self) -> Vec<String> {
        let mut v = vec![BENCH.to_string()];
        match &self.run {
            ChildRun::Calls(n) => v.extend([SIMULATE_CHILD.to_string(), n.to_string()]),
            ChildRun::For(t) => v.extend([PROFILE_CHILD.to_string(), t.to_string()]),
        }
        if let Some(p) = &self.region_time {
            v.extend([REGION_TIME.to_string(), p.display().to_string()]);
        }
        v.extend([EXACT.to_string(), self.bench.clone()]);
        v
    }
}

/// The region time a child wrote (whole nanoseconds), or why it cannot be read.
pub fn read_region_time(text: &str) -> Result<Duration, crate::Invalid> {
    text.trim()
        .parse::<u64>()
        .map(Duration::from_nanos)
        .map_err(|_| crate::Invalid::RegionTime {
            text: text.to_string(),
        })
}

/// The region time as the child writes it.
pub fn write_region_time(d: Duration) -> String {
    d.as_nanos().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_is_asked_in_the_words_the_harness_parses_and_its_time_reads_back() {
        let c = BenchChild {
            bench: "sum/fold".into(),
            run: ChildRun::Calls(100),
            region_time: Some("/tmp/r".into()),
        };
        assert_eq!(
            c.args(),
            [
                "--bench",
                "--simulate-child",
                "100",
                "--region-time",
                "/tmp/r",
                "--exact",
                "sum/fold"
            ]
        );
        let p = BenchChild {
            run: ChildRun::For(Duration::from_millis(1500)),
            region_time: None,
            ..c
        };
        assert_eq!(
            p.args(),
            ["--bench", "--profile-child", "1.5s", "--exact", "sum/fold"]
        );
        let t = Duration::from_nanos(20_123_456);
        assert_eq!(read_region_time(&write_region_time(t)), Ok(t));
        assert!(read_region_time("soon").is_err());
    }
}
