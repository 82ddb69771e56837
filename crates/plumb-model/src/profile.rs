//! A sampling profile: where the time of a command, or of one benchmark's measured loop,
//! went. Stacks are kept whole (the folded format of FlameGraph and inferno), so a saved
//! profile can be drawn again, compared with another, or carried by a report.

use serde::{Deserialize, Serialize};

/// How the samples were taken (`plumb profile`'s settings).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProfileSettings {
    /// The perf event sampled: `cycles` where the CPU counts them, `cpu-clock` (a timer)
    /// where it does not.
    pub event: String,
    /// Samples per second asked of perf (`-F`).
    pub frequency_hz: u32,
    pub call_graph: CallGraph,
    /// Why this unwinding was chosen, in a sentence.
    pub call_graph_why: String,
    /// For `--bench`: the benchmark whose measured loop alone was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bench: Option<String>,
    /// perf's own version line.
    pub perf_version: String,
}

/// How perf walked the stack of each sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CallGraph {
    /// The frame-pointer chain: cheap, complete only where every frame keeps one.
    FramePointers,
    /// A copy of the user stack unwound afterwards by `.eh_frame`/DWARF: works without
    /// frame pointers, costs a stack copy per sample.
    Dwarf,
}

impl ProfileSettings {
    /// `cpu-clock at 999 Hz, DWARF unwinding`.
    pub fn describe(&self) -> String {
        format!(
            "{} at {} Hz, {}",
            self.event,
            self.frequency_hz,
            self.call_graph.label()
        )
    }
}

impl CallGraph {
    /// perf record's `--call-graph` argument.
    pub fn perf_arg(self) -> &'static str {
        match self {
            CallGraph::FramePointers => "fp",
            CallGraph::Dwarf => "dwarf,16384",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            CallGraph::FramePointers => "frame pointers",
            CallGraph::Dwarf => "DWARF unwinding",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// What was profiled: the command line, or the benchmark's name.
    pub name: String,
    /// The samples kept: all of a command's, only the measured loop's of a benchmark.
    pub samples: u64,
    /// Samples outside the profiled region, left out (a benchmark's setup, the harness).
    #[serde(default)]
    pub outside_samples: u64,
    /// Sampling events perf lost (its buffer full).
    #[serde(default)]
    pub lost: u64,
    /// Every distinct stack, root first, with its samples.
    pub stacks: Vec<FoldedStack>,
    /// Every function seen, most self samples first.
    pub functions: Vec<ProfiledFunction>,
    /// Modules seen without symbols: their frames are shown as `[module <address>]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unsymbolised: Vec<String>,
    /// How the profiled command ended (absent for a benchmark).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit: Option<crate::Exit>,
    /// Per-instruction samples of the functions asked for (`--annotate`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub annotations: Vec<Annotation>,
    /// Where the profiled code allocates most, when asked for (`--alloc`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allocations: Option<AllocationProfile>,
}

impl Profile {
    /// The share of all kept samples, 0..=1.
    pub fn share(&self, samples: u64) -> f64 {
        if self.samples == 0 {
            0.0
        } else {
            samples as f64 / self.samples as f64
        }
    }

    /// The half-width of the sampling interval of `samples`' share at `confidence`
    /// (0..1; 0 when there are no samples).
    pub fn share_half_width(&self, samples: u64, confidence: f64) -> f64 {
        plumb_stats::share_half_width(samples, self.samples, confidence).unwrap_or(0.0)
    }

    pub fn function(&self, name: &str) -> Option<&ProfiledFunction> {
        self.functions.iter().find(|f| f.name == name)
    }
}

/// One line of the folded format: `root;caller;callee 42`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FoldedStack {
    /// Frames root first, joined by `;` (a `;` inside a name is written `:`).
    pub stack: String,
    pub samples: u64,
}

impl FoldedStack {
    pub fn frames(&self) -> std::str::Split<'_, char> {
        self.stack.split(';')
    }

    /// The `.folded` text FlameGraph's tools share: `frame;frame;frame count` per line.
    pub fn text(stacks: &[FoldedStack]) -> String {
        stacks
            .iter()
            .map(|s| format!("{} {}\n", s.stack, s.samples))
            .collect()
    }
}

/// A row of the top-functions table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProfiledFunction {
    /// Demangled (Rust and C++), without arguments.
    pub name: String,
    /// The binary or library it is in (`[kernel.kallsyms]` for the kernel).
    pub module: String,
    /// Samples in which it was the innermost frame: time spent in its own code.
    pub self_samples: u64,
    /// Samples in which it was anywhere on the stack (perf report's "Children" column):
    /// its own time and that of everything it called.
    pub total_samples: u64,
}

/// Allocation sites, counted by valgrind's DHAT.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AllocationProfile {
    /// For a benchmark: the operations the counts are per (counts are per operation);
    /// absent for a command (counts are of the whole run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_operations: Option<u64>,
    /// All allocations, per operation or in the whole run.
    pub blocks: f64,
    pub bytes: f64,
    /// Sites, most blocks first.
    pub sites: Vec<AllocationSite>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AllocationSite {
    /// The calling frames, innermost first (the allocator's own frames left out).
    pub frames: Vec<String>,
    pub blocks: f64,
    pub bytes: f64,
}

/// One function's instructions with the samples that fell on each (`--annotate`), and
/// its source lines where the binary has debug info.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Annotation {
    pub function: String,
    /// Samples in the function, the sum over its instructions.
    pub samples: u64,
    pub lines: Vec<AnnotatedLine>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum AnnotatedLine {
    /// A source line (with its number, when known) that the instructions below come from.
    Source {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        line: Option<u32>,
        text: String,
    },
    Instruction {
        address: String,
        text: String,
        samples: u64,
    },
}

/// One function's self share in two profiles (`plumb profile --diff`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShareChange {
    pub name: String,
    pub before_samples: u64,
    pub after_samples: u64,
    pub before_share: f64,
    pub after_share: f64,
    /// Interval of after − before (shares, 0..1) at the table's family-wise confidence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<plumb_stats::Interval>,
    /// The interval excludes 0: more than sampling noise.
    pub moved: bool,
}

impl ShareChange {
    pub fn change(&self) -> f64 {
        self.after_share - self.before_share
    }
}

/// What Amdahl's law predicts for the whole from one function's speedup, against what
/// the whole did (`plumb amdahl`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AmdahlPrediction {
    pub function: String,
    /// The function's share of the samples, f, and its sampling interval.
    pub share: f64,
    pub share_interval: plumb_stats::Interval,
    /// The function's own speedup, S (baseline time / new time), and its interval.
    pub speedup: f64,
    pub speedup_interval: plumb_stats::Interval,
    /// 1 / (1 − f + f/S), and its range over both intervals.
    pub predicted: f64,
    pub predicted_interval: plumb_stats::Interval,
    /// The end-to-end speedup measured, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured_interval: Option<plumb_stats::Interval>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case: Option<AmdahlCase>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AmdahlCase {
    /// The measured end-to-end speedup's interval meets the predicted one.
    AsPredicted,
    /// Less than predicted: the micro-benchmark does not represent the function's real
    /// workload (other inputs, a cold cache, other callers), or its gain is eaten
    /// elsewhere.
    LessThanPredicted,
    /// More than predicted: something besides the function got faster too (less cache
    /// pressure on the rest, fewer allocations, a changed layout).
    MoreThanPredicted,
}
