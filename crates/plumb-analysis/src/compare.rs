use crate::environment::BUSY_LOAD_PER_THREAD;
use crate::{compare, compare_load, PercentileComparison};
use plumb_model::{Comparison, Diagnostic, Environment, ResultDocument, Severity, Verdict};

/// Two documents compared benchmark by benchmark, paired by name.
#[derive(Debug, Clone)]
pub struct DocumentComparison {
    pub comparisons: Vec<Comparison>,
    pub only_in_base: Vec<String>,
    pub only_in_new: Vec<String>,
    /// How the two machines or their conditions differed: a difference found between
    /// two separate runs may be the machine's, not the code's.
    pub notes: Vec<Diagnostic>,
    /// Load results, percentile by percentile (or why they cannot be compared).
    pub load: Vec<(String, Result<Vec<PercentileComparison>, String>)>,
}

impl DocumentComparison {
    pub fn any_slower(&self) -> bool {
        self.comparisons
            .iter()
            .any(|c| c.verdict == Verdict::Slower)
            || self.load.iter().any(|(_, r)| {
                r.as_ref()
                    .is_ok_and(|ps| ps.iter().any(|p| p.verdict == Verdict::Slower))
            })
    }

    pub fn is_empty(&self) -> bool {
        self.comparisons.is_empty() && self.load.is_empty()
    }
}

pub fn compare_documents(
    base: &ResultDocument,
    new: &ResultDocument,
    level: f64,
    sesoi: f64,
) -> DocumentComparison {
    let mut comparisons = Vec::new();
    let mut load = Vec::new();
    let mut only_in_base = Vec::new();
    for b in &base.benchmarks {
        match new.benchmark(&b.name) {
            Some(n) => match (&b.load, &n.load) {
                (Some(bl), Some(nl)) => {
                    load.push((b.name.clone(), compare_load(bl, nl, level, sesoi)))
                }
                (None, None) => comparisons.push(compare(b, n, level, sesoi)),
                _ => load.push((
                    b.name.clone(),
                    Err("one result is a load test and the other is not".into()),
                )),
            },
            None => only_in_base.push(b.name.clone()),
        }
    }
    let only_in_new = new
        .benchmarks
        .iter()
        .filter(|n| base.benchmark(&n.name).is_none())
        .map(|n| n.name.clone())
        .collect();
    DocumentComparison {
        comparisons,
        only_in_base,
        only_in_new,
        notes: environment_differences(&base.environment, &new.environment),
        load,
    }
}

/// What differs between the machines two results were measured on.
pub fn environment_differences(base: &Environment, new: &Environment) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let fields: [(&str, &Option<String>, &Option<String>); 4] = [
        ("host", &base.hostname, &new.hostname),
        ("CPU", &base.cpu_model, &new.cpu_model),
        ("kernel", &base.kernel, &new.kernel),
        ("virtualisation", &base.virtualization, &new.virtualization),
    ];
    for (what, a, b) in fields {
        if a != b {
            let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "none".into());
            out.push(
                Diagnostic::new(
                    "different-machine",
                    Severity::Warning,
                    format!("the {what} differs: {} vs {}", show(a), show(b)),
                )
                .advice("a verdict across machines says as much about the machines as the code"),
            );
        }
    }
    if base.governors != new.governors || base.turbo != new.turbo {
        out.push(
            Diagnostic::new(
                "different-frequency-policy",
                Severity::Warning,
                format!(
                    "CPU frequency settings differ (governor {:?} vs {:?}, turbo {:?} vs {:?})",
                    base.governors, new.governors, base.turbo, new.turbo
                ),
            )
            .advice("fix the governor and turbo before both runs (plumb env)"),
        );
    }
    if let (Some(a), Some(b), Some(threads)) = (base.load_average, new.load_average, new.threads) {
        if (a[0] - b[0]).abs() > BUSY_LOAD_PER_THREAD * threads as f64 {
            out.push(
                Diagnostic::new(
                    "different-load",
                    Severity::Warning,
                    format!(
                        "the machine was busier in one run: load average {:.2} vs {:.2} on {threads} threads",
                        a[0], b[0]
                    ),
                )
                .evidence("load_base", a[0])
                .evidence("load_new", b[0])
                .advice("separate runs see separate conditions; `plumb run A B` interleaves them and cancels this out"),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_machine_and_load_has_no_notes() {
        let env = Environment {
            hostname: Some("h".into()),
            load_average: Some([0.1, 0.1, 0.1]),
            threads: Some(4),
            ..Default::default()
        };
        assert!(environment_differences(&env, &env.clone()).is_empty());
    }

    #[test]
    fn other_host_and_load_are_noted() {
        let a = Environment {
            hostname: Some("a".into()),
            load_average: Some([0.1, 0.1, 0.1]),
            threads: Some(2),
            ..Default::default()
        };
        let b = Environment {
            hostname: Some("b".into()),
            load_average: Some([1.5, 0.1, 0.1]),
            ..a.clone()
        };
        let codes: Vec<_> = environment_differences(&a, &b)
            .into_iter()
            .map(|d| d.code)
            .collect();
        assert_eq!(codes, ["different-machine", "different-load"]);
    }
}
