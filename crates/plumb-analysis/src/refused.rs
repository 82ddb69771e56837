//! Why the analysis refuses to judge what it was given, each said with what to do: a
//! `--pair` that names nothing, two benchmarks of one name, load results of different
//! loops, agents' shares that are not one schedule, an Amdahl question the profile cannot
//! answer.
use plumb_model::Invalid;
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum Refused {
    /// A speedup that cannot be had as given (`--micro`, `--macro`): why.
    SpeedupGiven(String),
    /// A result compared does not measure the metric asked.
    NotMeasured {
        metric: String,
        path: String,
        /// The metrics it does measure.
        measured: Vec<String>,
    },
    /// No benchmark of one result pairs with one of the other: each side's path and names.
    NothingInCommon {
        base: (String, Vec<String>),
        new: (String, Vec<String>),
    },
    /// `--pair` not written OLD=NEW.
    PairNotOldNew(String),
    /// `--pair` names a benchmark the file does not have.
    NoSuchBenchmark {
        name: String,
        path: String,
        names: Vec<String>,
    },
    /// Two benchmarks of one name in a file (1-based places, of `count`).
    DuplicateName {
        path: String,
        name: String,
        first: usize,
        second: usize,
        count: usize,
    },
    /// Load results of different loops (open, closed).
    LoadModes { base: String, new: String },
    /// A load result's histogram does not decode.
    Histogram(Invalid),
    /// One input is no share of a schedule while the others are.
    NotAShare { input: String },
    /// Shares of different numbers of agents.
    ShareCounts {
        input: String,
        count: u32,
        first_input: String,
        first_count: u32,
    },
    /// Two inputs are the same agent's share.
    SameShare {
        first: String,
        second: String,
        index: u32,
        count: u32,
    },
    /// The function is not in the profile (its top functions named).
    NoFunction {
        function: String,
        profile: String,
        top: Vec<String>,
    },
    /// A speedup that is not above 0.
    Speedup(f64),
    /// A profile without samples.
    NoSamples,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::SpeedupGiven(why) => f.write_str(why),
            Refused::NotMeasured {
                metric,
                path,
                measured,
            } => write!(
                f,
                "--metric {metric}: not measured in {path} (it measures {})",
                measured.join(", ")
            ),
            Refused::NothingInCommon { base, new } => nothing_in_common(f, base, new),
            Refused::PairNotOldNew(s) => write!(
                f,
                "{s:?} is not OLD=NEW (e.g. --pair 'sleep 0.01=sleep 0.02')"
            ),
            Refused::NoSuchBenchmark { name, path, names } => {
                let names: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
                write!(
                    f,
                    "--pair: no benchmark {name:?} in {path} (its benchmarks: {})",
                    names.join(", ")
                )
            }
            Refused::DuplicateName {
                path,
                name,
                first,
                second,
                count,
            } => write!(
                f,
                "{path} has two benchmarks named {name:?} (the {} and the {} of its {count}): a comparison pairs benchmarks by name and could not tell them apart; give each its own name (plumb run -n NAME, hyperfine --command-name NAME)",
                ordinal(*first),
                ordinal(*second)
            ),
            Refused::LoadModes { base, new } => write!(
                f,
                "one result is {base} loop and the other {new} loop: their latencies measure different things"
            ),
            Refused::Histogram(e) => e.fmt(f),
            Refused::NotAShare { input } => write!(
                f,
                "{input} is not a share of a schedule (--agents) while the others are: merge results of one kind"
            ),
            Refused::ShareCounts {
                input,
                count,
                first_input,
                first_count,
            } => write!(
                f,
                "{input} is a share of {count} agents, {first_input} of {first_count}: the agents of one test share one --agents"
            ),
            Refused::SameShare {
                first,
                second,
                index,
                count,
            } => write!(
                f,
                "{first} and {second} are both agent {index} of {count}: each index is one agent's"
            ),
            Refused::NoFunction {
                function,
                profile,
                top,
            } => write!(
                f,
                "no function {function:?} in the profile {profile:?} (its top functions: {})",
                top.join(", ")
            ),
            Refused::Speedup(v) => write!(f, "the speedup must be above 0, not {v}"),
            Refused::NoSamples => f.write_str("the profile has no samples"),
        }
    }
}

impl std::error::Error for Refused {}

/// 1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, 21st.
pub(crate) fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// No benchmark pairs: each side's path and names, and how to pair them.
fn nothing_in_common(
    f: &mut fmt::Formatter<'_>,
    base: &(String, Vec<String>),
    new: &(String, Vec<String>),
) -> fmt::Result {
    let names = |n: &[String]| {
        n.iter()
            .map(|x| format!("{x:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    write!(
        f,
        "no benchmark names in common between {} and {}; pair them with --pair OLD=NEW (base: {}; new: {})",
        base.0,
        new.0,
        names(&base.1),
        names(&new.1)
    )
}
