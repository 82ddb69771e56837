//! Turns raw samples into statistics, enemy checks and verdicts. Reads and writes the
//! result model only; no I/O.

mod amdahl;
mod benchmark;
mod between_runs;
mod bisect;
mod called;
mod checks;
mod compare;
mod design_checks;
mod environment;
mod explain;
mod harness_checks;
pub mod load_checks;
#[cfg(feature = "load")]
mod load_compare;
mod next_run;
mod profile_diff;
mod question;
mod recorded;
mod refused;
mod replicates;
mod settling;
mod sides;
mod simulated;
mod summary_verdict;
mod verdict;
mod work_and_time;

pub use amdahl::{predict as predict_amdahl, Speedup};
pub use benchmark::{analyse_benchmark, analyse_document, metric_stats, AnalysisConfig};
pub use between_runs::{breaking_drift, machine_findings, unmeasured, widened};
pub use bisect::{bisect, Bisection, Step};
pub use compare::{compare_documents, compare_two, parse_pair, Judging, Side};
pub use design_checks::{
    against_run, attach_design_findings, check_workload, design_checks, RunFacts,
};
pub use environment::environment_diagnostics;
pub use explain::{compare_explained, Asked};
pub use harness_checks::{harness_checks, GroupChecks};
pub use load_checks::{beyond_machine, capacity, load_checks, LoadGates, BEYOND_MACHINE, LATE_P99};
#[cfg(feature = "load")]
pub use load_compare::{compare_load, load_comparison};
pub use next_run::across_runs_all;
pub use profile_diff::share_changes;
pub use question::{judge_question, question_matters};
pub use recorded::complete_statistics;
pub use refused::Refused;
pub use replicates::{replicates, BATCHES};
pub use settling::{judge_sequentially, round_log_ratios, LookPlan, Settling, SPENDING};
pub use verdict::judge;
