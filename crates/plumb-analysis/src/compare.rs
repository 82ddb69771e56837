//! Two result documents compared benchmark by benchmark, and how their machines differed.
use crate::environment::BUSY_LOAD_PER_THREAD;
use crate::Refused;
use plumb_model::finding::{
    BestCaseAgrees, DifferentFrequencyPolicy, DifferentLoad, DifferentMachine, MachineField,
    PairedByElimination,
};
use plumb_model::quantity::{Confidence, Fraction};
use plumb_model::{
    Benchmark, ComparedResult, Comparison, ComparisonDocument, Diagnostic, Environment,
    LoadComparison, Metric, Question, ResultDocument, Severity, Verdict,
};
use std::collections::HashSet;

/// One side of a comparison: the document and the path it was read from.
pub struct Side<'a> {
    pub doc: &'a ResultDocument,
    pub path: &'a str,
}

impl Side<'_> {
    fn record(&self) -> ComparedResult {
        ComparedResult {
            path: self.path.to_string(),
            started: self.doc.started,
            tool_version: self.doc.tool.version.clone(),
        }
    }
}

/// How two documents are compared.
pub struct Judging<'a> {
    /// What is compared, per operation.
    pub metric: &'a Metric,
    pub level: Confidence,
    pub sesoi: Fraction,
    /// The question verdicts answer (which statistic they compare).
    pub question: Question,
    /// Whether the user asked it (`Asked::question_given`).
    pub question_given: bool,
    /// Benchmarks paired explicitly, (base name, new name); the rest pair by name.
    pub pairs: &'a [(String, String)],
}

/// Compares two documents benchmark by benchmark, paired by name (or as `how.pairs`
/// says), and notes how their machines or conditions differed. When nothing pairs by
/// name and each side has exactly one benchmark, those two are compared, with a note.
pub fn compare_documents(
    base: Side<'_>,
    new: Side<'_>,
    how: &Judging<'_>,
) -> Result<ComparisonDocument, Refused> {
    for side in [&base, &new] {
        if !measures(side.doc, how.metric) {
            let mut measured: Vec<String> = (side.doc.benchmarks.iter())
                .flat_map(|b| b.metrics.keys().map(|m| m.to_string()))
                .collect();
            measured.sort();
            measured.dedup();
            return Err(Refused::NotMeasured {
                metric: how.metric.to_string(),
                path: side.path.to_string(),
                measured,
            });
        }
    }
    let mut out = ComparisonDocument::new(base.record(), new.record(), how.level, how.sesoi);
    let paired = pair(&base, &new, how.pairs, &mut out)?;
    if paired.is_empty() {
        let names = |d: &ResultDocument| d.benchmarks.iter().map(|b| b.name.clone()).collect();
        return Err(Refused::NothingInCommon {
            base: (base.path.to_string(), names(base.doc)),
            new: (new.path.to_string(), names(new.doc)),
        });
    }
    let (base, new) = (base.doc, new.doc);
    for (b, n) in paired {
        let benchmark = if b.name == n.name {
            b.name.clone()
        } else {
            format!("{} → {}", b.name, n.name)
        };
        match (b.load(), n.load()) {
            #[cfg(feature = "load")]
            (Some(bl), Some(nl)) => {
                let compared = crate::load_comparison(benchmark, bl, nl, how.level, how.sesoi);
                out.load.push(compared)
            }
            #[cfg(not(feature = "load"))]
            (Some(_), Some(_)) => out.load.push(LoadComparison::NotCompared {
                benchmark,
                why: "this build compares no load results (plumb-analysis without `load`)".into(),
            }),
            (None, None) => {
                let asked = crate::Asked {
                    question_given: how.question_given,
                    metric: how.metric,
                    level: how.level,
                    sesoi: how.sesoi,
                    question: how.question,
                    // The coarser of the two clocks, where the documents recorded one.
                    resolution: [base.clock.as_ref(), new.clock.as_ref()]
                        .into_iter()
                        .flatten()
                        .map(|c| c.resolution)
                        .max(),
                };
                out.comparisons.push(crate::compare_explained(b, n, &asked))
            }
            _ => out.load.push(LoadComparison::NotCompared {
                benchmark,
                why: "one result is a load test and the other is not".into(),
            }),
        }
    }
    out.notes
        .extend(environment_differences(&base.environment, &new.environment));
    out.notes
        .extend(best_case_agreements(base, new, &out.comparisons));
    Ok(out)
}

/// Two results with benchmarks in common, compared as `plumb compare` would (wall time,
/// the base's confidence, SESOI and question): the comparison a page of exactly two
/// results shows first; none when nothing pairs.
pub fn compare_two(base: Side<'_>, new: Side<'_>) -> Option<ComparisonDocument> {
    let s = &base.doc.settings;
    let how = Judging {
        metric: &Metric::WallTime,
        level: s.confidence,
        sesoi: s.sesoi,
        question: s.question,
        // As recorded: a question other than the mean was asked; the mean may have been
        // the default (a page compares as `plumb compare` without --question would).
        question_given: !s.question.is_mean(),
        pairs: &[],
    };
    compare_documents(base, new, &how).ok()
}

/// Whether `doc` measured `metric`. Load results carry latency histograms, not metric
/// columns: only the other benchmarks need the metric; a simulated metric is judged over
/// the simulated runs, and a benchmark with only a simulator's counts (gungraun's) by
/// them.
fn measures(doc: &ResultDocument, metric: &Metric) -> bool {
    let mut timed = doc
        .benchmarks
        .iter()
        .filter(|b| b.load().is_none())
        .peekable();
    timed.peek().is_none()
        || timed.any(|b| {
            let counted_only = b.samples.is_empty() && b.reported.is_empty();
            let simulated = b.simulated.as_ref().filter(|_| counted_only);
            b.metrics.contains_key(metric)
                || b.reported.contains_key(metric)
                || crate::simulated::only_simulated(b, metric)
                || simulated
                    .is_some_and(|s| *metric == Metric::WallTime || s.metrics.contains_key(metric))
        })
}

/// `--pair OLD=NEW` as typed, split at its first `=` (see `resplit` for names holding
/// `=`): two benchmark names to compare with each other.
pub fn parse_pair(s: &str) -> Result<(String, String), Refused> {
    match s.split_once('=') {
        Some((old, new)) if !old.is_empty() && !new.is_empty() => {
            Ok((old.to_string(), new.to_string()))
        }
        _ => Err(Refused::PairNotOldNew(s.to_string())),
    }
}

/// `--pair OLD=NEW` split where both names exist: a name may hold `=` itself (JMH's
/// `sum(size=64)`), so a pair whose first split names no benchmark is split again at the
/// `=` that names one on each side, when exactly one does.
fn resplit(
    pairs: &[(String, String)],
    base: &ResultDocument,
    new: &ResultDocument,
) -> Vec<(String, String)> {
    let both = |o: &str, n: &str| base.benchmark(o).is_some() && new.benchmark(n).is_some();
    pairs
        .iter()
        .map(|(o, n)| {
            if both(o, n) {
                return (o.clone(), n.clone());
            }
            let whole = format!("{o}={n}");
            let splits: Vec<(String, String)> = (whole.match_indices('='))
                .map(|(i, _)| (whole[..i].to_string(), whole[i + 1..].to_string()))
                .filter(|(o, n)| both(o, n))
                .collect();
            match <[_; 1]>::try_from(splits) {
                Ok([split]) => split,
                Err(_) => (o.clone(), n.clone()),
            }
        })
        .collect()
}

/// The pairs to compare: explicit ones first, then equal names, then — when nothing else
/// paired and each side has one benchmark — those two. Unpaired names are recorded.
/// Go names a benchmark with its package when `go test` ran several
/// (`github.com/x/y.BenchmarkSum/4B`) and without it when it ran one: a benchmark left
/// unpaired is paired with the other side's of the same name without the package, as
/// benchstat does when only one side has it.
fn pair_go_packages<'d>(
    b_doc: &'d ResultDocument,
    n_doc: &'d ResultDocument,
    pairs: &mut Vec<(&'d Benchmark, &'d Benchmark)>,
) {
    let short = |name: &str| (name.rsplit_once(".Benchmark")).map(|(_, r)| format!("Benchmark{r}"));
    let same = |a: &str, b: &str| short(a).as_deref() == Some(b) || short(b).as_deref() == Some(a);
    for b in &b_doc.benchmarks {
        if pairs.iter().any(|(p, _)| std::ptr::eq(*p, b)) {
            continue;
        }
        let free = |n: &&Benchmark| !pairs.iter().any(|(_, p)| std::ptr::eq(*p, *n));
        let mut candidates = n_doc
            .benchmarks
            .iter()
            .filter(free)
            .filter(|n| same(&b.name, &n.name));
        if let (Some(n), None) = (candidates.next(), candidates.next()) {
            pairs.push((b, n));
        }
    }
}

fn pair<'d>(
    base: &Side<'d>,
    new: &Side<'d>,
    explicit: &[(String, String)],
    out: &mut ComparisonDocument,
) -> Result<Vec<(&'d Benchmark, &'d Benchmark)>, Refused> {
    let (b_doc, n_doc) = (base.doc, new.doc);
    refuse_duplicate_names(base)?;
    refuse_duplicate_names(new)?;
    let find = |doc: &'d ResultDocument, name: &str, side: &Side<'_>| {
        doc.benchmark(name).ok_or_else(|| Refused::NoSuchBenchmark {
            name: name.to_string(),
            path: side.path.to_string(),
            names: doc.benchmarks.iter().map(|b| b.name.clone()).collect(),
        })
    };
    let explicit = resplit(explicit, b_doc, n_doc);
    let mut pairs = Vec::new();
    for (old, new_name) in &explicit {
        pairs.push((find(b_doc, old, base)?, find(n_doc, new_name, new)?));
    }
    let named_base: HashSet<&str> = explicit.iter().map(|(b, _)| b.as_str()).collect();
    let named_new: HashSet<&str> = explicit.iter().map(|(_, n)| n.as_str()).collect();
    for b in b_doc
        .benchmarks
        .iter()
        .filter(|b| !named_base.contains(b.name.as_str()))
    {
        if let Some(n) = n_doc
            .benchmark(&b.name)
            .filter(|n| !named_new.contains(n.name.as_str()))
        {
            pairs.push((b, n));
        }
    }
    pair_go_packages(b_doc, n_doc, &mut pairs);
    if pairs.is_empty() && b_doc.benchmarks.len() == 1 && n_doc.benchmarks.len() == 1 {
        let (b, n) = (&b_doc.benchmarks[0], &n_doc.benchmarks[0]);
        let finding = PairedByElimination {
            base: b.name.clone(),
            new: n.name.clone(),
        };
        out.notes.push(Diagnostic::new(Severity::Info, finding));
        pairs.push((b, n));
    }
    out.only_in_base = unpaired(b_doc, pairs.iter().map(|(b, _)| *b));
    out.only_in_new = unpaired(n_doc, pairs.iter().map(|(_, n)| *n));
    Ok(pairs)
}

/// Pairs are made by name: two benchmarks of one name in a file (hyperfine run with the
/// same command twice) would both pair with the other file's one and get contradictory
/// verdicts, so they are refused, with where they are.
fn refuse_duplicate_names(side: &Side<'_>) -> Result<(), Refused> {
    let names = &side.doc.benchmarks;
    for (i, b) in names.iter().enumerate() {
        if let Some(j) = names[i + 1..].iter().position(|o| o.name == b.name) {
            return Err(Refused::DuplicateName {
                path: side.path.to_string(),
                name: b.name.clone(),
                first: i + 1,
                second: i + j + 2,
                count: names.len(),
            });
        }
    }
    Ok(())
}

/// The names of `doc`'s benchmarks that are not among `paired`, in the document's order.
fn unpaired<'d>(doc: &ResultDocument, paired: impl Iterator<Item = &'d Benchmark>) -> Vec<String> {
    let paired: HashSet<&str> = paired.map(|b| b.name.as_str()).collect();
    doc.benchmarks
        .iter()
        .filter(|b| !paired.contains(b.name.as_str()))
        .map(|b| b.name.clone())
        .collect()
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
    let fastest = |doc: &ResultDocument, name: &str, metric: &Metric| {
        doc.benchmark(name)
            .map(|b| b.analysed(metric))
            .and_then(|t| t.into_iter().reduce(f64::min))
            .filter(|m| *m > 0.0)
    };
    comparisons
        .iter()
        .filter(|c| matches!(c.verdict, Verdict::Faster | Verdict::Slower))
        .filter_map(|c| {
            let min_ratio =
                fastest(new, &c.candidate, &c.metric)? / fastest(base, &c.baseline, &c.metric)?;
            ((min_ratio - 1.0).abs() <= c.sesoi.get()).then(|| {
                let finding = BestCaseAgrees {
                    benchmark: c.candidate.clone(),
                    mean_ratio: c.ratio,
                    min_ratio,
                };
                Diagnostic::new(Severity::Warning, finding)
            })
        })
        .collect()
}

/// What differs between the machines two results were measured on.
pub fn environment_differences(base: &Environment, new: &Environment) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let fields: [(MachineField, &Option<String>, &Option<String>); 4] = [
        (MachineField::Host, &base.hostname, &new.hostname),
        (MachineField::Cpu, &base.cpu_model, &new.cpu_model),
        (MachineField::Kernel, &base.kernel, &new.kernel),
        (
            MachineField::Virtualization,
            &base.virtualization,
            &new.virtualization,
        ),
    ];
    for (field, a, b) in fields {
        if a != b {
            let finding = DifferentMachine {
                field,
                base: a.clone(),
                new: b.clone(),
            };
            out.push(Diagnostic::new(Severity::Warning, finding));
        }
    }
    if base.governors != new.governors || base.turbo != new.turbo {
        let finding = DifferentFrequencyPolicy {
            base_governors: base.governors.clone(),
            new_governors: new.governors.clone(),
            base_turbo: base.turbo,
            new_turbo: new.turbo,
        };
        out.push(Diagnostic::new(Severity::Warning, finding));
    }
    if let (Some(a), Some(b), Some(threads)) = (base.load_average, new.load_average, new.threads) {
        if (a[0] - b[0]).abs() > BUSY_LOAD_PER_THREAD * threads as f64 {
            let finding = DifferentLoad {
                base: a[0],
                new: b[0],
                threads,
            };
            out.push(Diagnostic::new(Severity::Warning, finding));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::DiagnosticCode;

    fn side(doc: &ResultDocument) -> Side<'_> {
        Side {
            doc,
            path: "x.json",
        }
    }

    fn compare_documents(
        base: Side<'_>,
        new: Side<'_>,
        metric: &Metric,
        level: Confidence,
        sesoi: Fraction,
    ) -> ComparisonDocument {
        let how = Judging {
            metric,
            level,
            sesoi,
            question: Question::Mean,
            question_given: true,
            pairs: &[],
        };
        super::compare_documents(base, new, &how).unwrap()
    }

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
            .map(|d| d.code())
            .collect();
        assert_eq!(
            codes,
            [
                DiagnosticCode::DifferentMachine,
                DiagnosticCode::DifferentLoad
            ]
        );
    }

    fn doc_with(times: Vec<u64>) -> ResultDocument {
        use plumb_model::{Benchmark, BenchmarkKind, Invocation, ProducerSettings, Settings};
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
                question: Default::default(),
                producer: ProducerSettings::None,
            },
        );
        d.benchmarks.push(Benchmark::of_wall_times(
            "f",
            BenchmarkKind::Function,
            times,
        ));
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
        let dc = compare_documents(
            side(&base),
            side(&new),
            &Metric::WallTime,
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI,
        );
        assert_eq!(dc.comparisons[0].verdict, Verdict::Slower);
        let note = dc
            .notes
            .iter()
            .find_map(|d| match &d.finding {
                plumb_model::Finding::BestCaseAgrees(b) => Some(b),
                _ => None,
            })
            .expect("a best-case note");
        assert!((note.min_ratio - 1.0).abs() < 5e-4, "{note:?}");
    }

    #[test]
    fn a_uniform_slowdown_is_not_explained_away() {
        let (a, b) = (doc_with(jittered(1000, 60)), doc_with(jittered(1100, 60)));
        let dc = compare_documents(
            side(&a),
            side(&b),
            &Metric::WallTime,
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI,
        );
        assert_eq!(dc.comparisons[0].verdict, Verdict::Slower);
        assert!(dc
            .notes
            .iter()
            .all(|d| d.code() != DiagnosticCode::BestCaseAgrees));
    }
}
