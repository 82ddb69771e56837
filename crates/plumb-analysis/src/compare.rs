use crate::environment::BUSY_LOAD_PER_THREAD;
use crate::{compare, compare_load, PercentileComparison};
use plumb_model::quantity::{Confidence, Fraction};
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
    level: Confidence,
    sesoi: Fraction,
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
    let mut notes = environment_differences(&base.environment, &new.environment);
    notes.extend(best_case_agreements(base, new, &comparisons));
    DocumentComparison {
        comparisons,
        only_in_base,
        only_in_new,
        notes,
        load,
    }
}

/// Separate runs can differ in how often the machine was slow rather than in the code: a
/// shared host moves a core between fast and slow states for seconds at a time, and two
/// runs catch different mixes. When the means differ beyond the SESOI but the fastest
/// samples agree within it, the verdict stands (the means did differ) and this says what
/// else it may be.
fn best_case_agreements(
    base: &ResultDocument,
    new: &ResultDocument,
    comparisons: &[Comparison],
) -> Vec<Diagnostic> {
    let fastest = |doc: &ResultDocument, name: &str| {
        doc.benchmark(name)
            .map(|b| b.analysed_times_ns())
            .and_then(|t| t.into_iter().reduce(f64::min))
            .filter(|m| *m > 0.0)
    };
    comparisons
        .iter()
        .filter(|c| matches!(c.verdict, Verdict::Faster | Verdict::Slower))
        .filter_map(|c| {
            let min_ratio = fastest(new, &c.candidate)? / fastest(base, &c.baseline)?;
            ((min_ratio - 1.0).abs() <= c.sesoi.get()).then(|| {
                Diagnostic::new(
                    "best-case-agrees",
                    Severity::Warning,
                    format!(
                        "{}: the means differ (×{:.3}) but the fastest samples agree (×{:.3}): the runs differ in how often they were slow, which may be the machine's state in each run rather than the code",
                        c.candidate, c.ratio, min_ratio
                    ),
                )
                .evidence("mean_ratio", c.ratio)
                .evidence("min_ratio", min_ratio)
                .advice("measure both versions in one run (variants of one group share the machine's state far more closely than separate runs), or measure longer; a slow path the new code takes more often looks the same, so look at the tail")
            })
        })
        .collect()
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

    fn doc_with(times: Vec<u64>) -> ResultDocument {
        use plumb_model::{Benchmark, BenchmarkKind, Invocation, Sample, Settings};
        let mut d = ResultDocument::new(
            "0",
            Invocation {
                argv: vec![],
                cwd: None,
            },
            Environment::default(),
            Settings {
                confidence: Confidence::DEFAULT,
                sesoi: Fraction::DEFAULT_SESOI,
                options: serde_json::Value::Null,
            },
        );
        let mut b = Benchmark::new("f", BenchmarkKind::Function);
        b.samples = times.into_iter().map(Sample::wall).collect();
        d.benchmarks.push(b);
        d
    }

    fn jittered(mean: u64, n: usize) -> Vec<u64> {
        (0..n).map(|i| mean + (i as u64 % 5)).collect()
    }

    #[test]
    fn a_slower_mix_with_the_same_best_case_is_noted() {
        // Base: every sample fast (1000–1004). New: the same fast samples, and every third
        // one in a state 1.7× slower: the mean is ×1.23, the minimum ×1.000. (Interleaved:
        // a slow episode at the end would widen the batch-means interval past a verdict.)
        let base = doc_with(jittered(1000, 60));
        let (fast, slower) = (jittered(1000, 60), jittered(1700, 60));
        let slow = (0..60)
            .map(|i| if i % 3 == 2 { slower[i] } else { fast[i] })
            .collect();
        let new = doc_with(slow);
        let dc = compare_documents(&base, &new, Confidence::DEFAULT, Fraction::DEFAULT_SESOI);
        assert_eq!(dc.comparisons[0].verdict, Verdict::Slower);
        let note = dc
            .notes
            .iter()
            .find(|d| d.code == "best-case-agrees")
            .expect("a best-case note");
        assert!(note.message.contains("×1.000"), "{}", note.message);
    }

    #[test]
    fn a_uniform_slowdown_is_not_explained_away() {
        let dc = compare_documents(
            &doc_with(jittered(1000, 60)),
            &doc_with(jittered(1100, 60)),
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI,
        );
        assert_eq!(dc.comparisons[0].verdict, Verdict::Slower);
        assert!(dc.notes.iter().all(|d| d.code != "best-case-agrees"));
    }
}
