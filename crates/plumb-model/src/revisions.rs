//! Two sides measured in rounds until a sequential verdict settles, with every look it
//! took (`SequentialRounds`: `plumb revs`, `plumb run A B --until-settled`); and for
//! `plumb revs`, the two revisions of a repository: which commits and trees, how each was
//! built.
use crate::quantity::Duration;
use crate::{Verdict, VerdictReason};
use plumb_stats::Interval;
use serde::{Deserialize, Serialize};

/// What a `plumb revs` run compared and how it decided. The document's two benchmarks
/// are `base` (A, the baseline) and `new` (B); its comparison of them carries the
/// sequential verdict, whose interval is the repeated confidence interval of the last
/// look (not a fixed-sample Fieller interval: the rounds were looked at repeatedly).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Revisions {
    pub base: Revision,
    pub new: Revision,
    /// The build command run in each worktree (`sh -c`), when one was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<String>,
    /// The rounds and their verdict (written beside the revisions, as always).
    #[serde(flatten)]
    pub rounds: SequentialRounds,
}

/// Rounds of two sides, interleaved, added until a sequential verdict settled: the design
/// fixed before the first round, every look, and why the rounds ended. The document's
/// comparison of B with A carries the last look's verdict, whose interval is the repeated
/// confidence interval (not a fixed-sample one: the rounds were looked at repeatedly).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SequentialRounds {
    pub design: SequentialDesignRecord,
    /// Every look taken, in order: a command's (empty for in-process benchmarks, whose
    /// looks are each in `benchmarks`).
    pub looks: Vec<Look>,
    /// In-process benchmarks (a harness run per side per round): each benchmark's looks,
    /// judged on its own at α over their number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub benchmarks: Vec<BenchmarkLooks>,
    /// How the rounds ended.
    pub ended: Ending,
}

/// One in-process benchmark's looks: its name in the harness and in the document's
/// group (`NAME · A`, `NAME · B`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchmarkLooks {
    pub name: String,
    pub looks: Vec<Look>,
}

/// One side: the revision as the user named it and what it resolved to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Revision {
    /// As given on the command line (`origin/main`, `HEAD~3`, a sha).
    pub name: String,
    /// The full commit id; absent for the working tree of `--allow-dirty`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The tree id the worktree holds (for a dirty working tree, a snapshot's).
    pub tree: String,
    /// The uncommitted working tree itself, measured in place.
    #[serde(default)]
    pub working_tree: bool,
    /// Where it was built and run.
    pub dir: String,
    /// How long its build took; absent when a finished build was reused or none given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_time: Option<Duration>,
    /// A build of the same tree and command was already complete and was reused.
    #[serde(default)]
    pub build_reused: bool,
}

/// The sequential design the rounds followed, fixed before the first round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SequentialDesignRecord {
    /// Runs of each side per round (a round's statistic is the median log ratio of its
    /// pairs of adjacent runs).
    pub runs_per_round: u64,
    /// The rounds at which the verdict was to be looked at; the last is the cap.
    pub looks: Vec<u64>,
    /// The z boundary of each look.
    pub z: Vec<f64>,
    /// Total two-sided α (1 − confidence), spent over the looks.
    pub alpha: f64,
    /// The spending function, e.g. `kim-demets rho=2`.
    pub spending: String,
    /// The smallest effect of interest, as a fraction.
    pub sesoi: f64,
    /// Stop adding rounds after this long, when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_time: Option<Duration>,
    /// The question the rounds answer, i.e. each round's statistic: typical (the median
    /// log ratio of its pairs, and what a record without this field used), mean or best.
    #[serde(default = "typical")]
    pub question: crate::Question,
    /// How each pair's two runs were made: one after the other (interleaved, and what a
    /// record without this field used), or at once on two CPUs (a duet).
    #[serde(default)]
    pub pairing: Pairing,
    /// Why the pairing is not the one asked (a duet where two CPUs are not free), or
    /// what it leaves out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairing_note: Option<String>,
}

/// How the two runs of a pair were made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Pairing {
    /// One after the other, in random order within each round.
    #[default]
    Interleaved,
    /// At the same time, each side pinned to one of these CPUs (swapped every other
    /// pair): whatever the host does during a pair, it does to both.
    Duet { cpus: [usize; 2] },
}

fn typical() -> crate::Question {
    crate::Question::Typical
}

/// The verdict at one look: B/A and its repeated confidence interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Look {
    pub rounds: u64,
    /// exp(mean over rounds of each round's median ln(B_i / A_i) over its adjacent pairs of
    /// runs): B/A for a typical run, the host's speed changes cancelled.
    pub ratio: f64,
    pub interval: Interval,
    /// `slower`, `faster`, `equivalent`, or `inconclusive` (not settled at this look).
    pub verdict: Verdict,
}

/// Why no more rounds were run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Ending {
    /// A look settled the verdict.
    Settled,
    /// The last planned look (`--max-rounds`) left it unknown.
    MaxRounds,
    /// `--max-time` passed before it settled.
    MaxTime,
    /// Stopped by a signal or a failure; see the document's status.
    Stopped,
}

impl SequentialRounds {
    /// The verdict and its reason: the last look's, or inconclusive before any look.
    pub fn verdict(&self) -> (Verdict, VerdictReason) {
        self.verdict_of(&self.looks)
    }

    /// The verdict of a list of looks (the command's, or one benchmark's).
    pub fn verdict_of(&self, looks: &[Look]) -> (Verdict, VerdictReason) {
        let rounds = looks.last().map_or(0, |l| l.rounds);
        let max_rounds = self.design.looks.last().copied().unwrap_or(0);
        let verdict = looks.last().map_or(Verdict::Inconclusive, |l| l.verdict);
        (verdict, VerdictReason::Sequential { rounds, max_rounds })
    }

    /// Whether B is slower: the command, or any in-process benchmark.
    pub fn any_slower(&self) -> bool {
        self.verdict().0 == Verdict::Slower
            || self
                .benchmarks
                .iter()
                .any(|b| self.verdict_of(&b.looks).0 == Verdict::Slower)
    }
}
