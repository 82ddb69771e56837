//! What a CI gate fails on (`--gate`): the verdict on time (the metric compared), or the
//! verdict on the cycles beside it — the simulated estimated cycles, or the CPU's own
//! cycles where the counters were the hardware's (a pair has one or the other, never
//! both mixed). A gate on cycles that were not measured is an error, never a pass.
use crate::{Comparison, ComparisonDocument, Metric, ResultDocument, Verdict};
use std::fmt;

/// One verdict a gate reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// The verdict on the metric compared (wall time unless asked): a sequential one
    /// where rounds settled it.
    Time,
    /// The verdict on the cycles: simulated estimated cycles, else hardware cycles.
    Cycles,
}

impl std::str::FromStr for Gate {
    type Err = UnknownGate;
    fn from_str(s: &str) -> Result<Self, UnknownGate> {
        match s {
            "time" => Ok(Gate::Time),
            "cycles" => Ok(Gate::Cycles),
            other => Err(UnknownGate(other.to_string())),
        }
    }
}

/// A `--gate` value that is not one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownGate(pub String);

impl fmt::Display for UnknownGate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown gate {:?}: time or cycles", self.0)
    }
}

impl std::error::Error for UnknownGate {}

/// A gate on cycles for a pair whose cycles were not measured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoCycles {
    pub candidate: String,
}

impl fmt::Display for NoCycles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "--gate cycles: {:?} has no cycles to judge (measure with --counters; a simulation that did not run says why in the result)",
            self.candidate
        )
    }
}

impl std::error::Error for NoCycles {}

/// The counters a cycles gate reads, in order: the simulation's estimate, the CPU's own.
const CYCLES: [Metric; 2] = [Metric::EstimatedCycles, Metric::Cycles];

impl Comparison {
    /// The verdict on the cycles: the comparison's own when cycles were the metric
    /// compared, else the cycles counter's beside it; `None` when neither was measured.
    pub fn cycles_verdict(&self) -> Option<Verdict> {
        if CYCLES.contains(&self.metric) {
            return Some(self.verdict);
        }
        CYCLES.iter().find_map(|m| {
            let k = self.counters.iter().find(|k| k.counter == m.as_str())?;
            Some(k.verdict)
        })
    }
}

/// Whether any of `comparisons` is slower on the cycles; an error naming the first pair
/// without them.
fn slower_in_cycles(comparisons: &[Comparison]) -> Result<bool, NoCycles> {
    let mut slower = false;
    for c in comparisons {
        let v = c.cycles_verdict().ok_or_else(|| NoCycles {
            candidate: c.candidate.clone(),
        })?;
        slower |= v == Verdict::Slower;
    }
    Ok(slower)
}

/// Whether `gates` fail: time by `time_slower`, cycles by each of `comparisons`.
fn fail(gates: &[Gate], time_slower: bool, comparisons: &[Comparison]) -> Result<bool, NoCycles> {
    let mut fail = false;
    for gate in gates {
        fail |= match gate {
            Gate::Time => time_slower,
            Gate::Cycles => slower_in_cycles(comparisons)?,
        };
    }
    Ok(fail)
}

impl ComparisonDocument {
    /// Whether the gates fail: something slower beyond the SESOI by any gate's verdict.
    pub fn gates_fail(&self, gates: &[Gate]) -> Result<bool, NoCycles> {
        fail(gates, self.any_slower(), &self.comparisons)
    }
}

impl ResultDocument {
    /// Whether the gates fail on this run's comparisons: on time, the sequential verdict
    /// where rounds settled it (`plumb revs`, `--until-settled`), else each comparison's;
    /// on cycles, each comparison's cycles.
    pub fn gates_fail(&self, gates: &[Gate]) -> Result<bool, NoCycles> {
        let time_slower = match self.sequential() {
            Some(rounds) => rounds.any_slower(),
            None => self
                .comparisons
                .iter()
                .any(|c| c.verdict == Verdict::Slower),
        };
        fail(gates, time_slower, &self.comparisons)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantity::{Confidence, Fraction};
    use crate::{CounterChange, Source};

    fn compared(time: Verdict, cycles: Option<Verdict>) -> Comparison {
        let mut c = Comparison::unjudged("a", "b", Confidence::DEFAULT, Fraction::DEFAULT_SESOI);
        c.verdict = time;
        c.counters = cycles
            .map(|verdict| CounterChange {
                counter: "estimated-cycles".into(),
                source: Source::Simulated,
                baseline: 1.0,
                candidate: 1.0,
                ratio: 1.0,
                ratio_ci: None,
                verdict,
            })
            .into_iter()
            .collect();
        c
    }

    #[test]
    fn each_gate_reads_its_own_verdict_and_cycles_never_pass_unmeasured() {
        let settings = crate::Settings {
            confidence: Confidence::DEFAULT,
            sesoi: Fraction::DEFAULT_SESOI,
            question: Default::default(),
            producer: crate::ProducerSettings::None,
        };
        let invocation = crate::Invocation {
            argv: Vec::new(),
            cwd: None,
        };
        let mut doc = ResultDocument::new("0", invocation, Default::default(), settings);
        doc.comparisons = vec![compared(Verdict::Inconclusive, Some(Verdict::Slower))];
        assert_eq!(doc.gates_fail(&[Gate::Time]), Ok(false));
        assert_eq!(doc.gates_fail(&[Gate::Cycles]), Ok(true));
        assert_eq!(doc.gates_fail(&[Gate::Time, Gate::Cycles]), Ok(true));
        doc.comparisons = vec![compared(Verdict::Slower, None)];
        assert_eq!(doc.gates_fail(&[Gate::Time]), Ok(true));
        let e = doc.gates_fail(&[Gate::Cycles]).unwrap_err();
        assert!(
            e.to_string().contains("\"b\" has no cycles to judge"),
            "{e}"
        );
        let mut by_cycles = compared(Verdict::Faster, None);
        by_cycles.metric = Metric::EstimatedCycles;
        assert_eq!(by_cycles.cycles_verdict(), Some(Verdict::Faster));
        assert_eq!("cycles".parse(), Ok(Gate::Cycles));
        assert!("cycle"
            .parse::<Gate>()
            .unwrap_err()
            .to_string()
            .contains("time or cycles"));
    }
}
