//! Analysis of a benchmark and of a document: statistics of every metric, enemy checks, verdicts.
use crate::replicates::replicates;
use crate::{checks, environment_diagnostics};
use plumb_model::quantity::{Confidence, Fraction};
use plumb_model::{Benchmark, Metric, MetricStats, Question, ResultDocument, SimulatedCounts};
use plumb_stats::{mean_ci, median_ci, t_quantile, tukey_outliers, Interval, Summary};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq)]
pub struct AnalysisConfig {
    /// Confidence level of every interval and test, e.g. 0.999.
    pub level: Confidence,
    /// Smallest effect size of interest for verdicts, as a fraction.
    pub sesoi: Fraction,
    /// Leave upper Tukey outliers of `metric` out of the statistics (said in a diagnostic).
    pub drop_upper_outliers: bool,
    /// The metric the enemy checks examine and the verdicts judge (wall time by default).
    pub metric: Metric,
    /// The question verdicts answer: which statistic they compare (the mean by default).
    pub question: Question,
    /// Whether the user asked it (`Asked::question_given`).
    pub question_given: bool,
}

impl AnalysisConfig {
    pub fn new(level: Confidence, sesoi: Fraction) -> Self {
        AnalysisConfig {
            level,
            sesoi,
            drop_upper_outliers: false,
            metric: Metric::WallTime,
            question: Question::Mean,
            question_given: false,
        }
    }
}

/// Fills in a benchmark's statistics (every metric it measured) and diagnostics (on the
/// configured metric) from its samples.
pub fn analyse_benchmark(b: &mut Benchmark, cfg: &AnalysisConfig) {
    b.excluded.clear();
    if cfg.drop_upper_outliers {
        if let Ok(o) = tukey_outliers(&b.per_op(&cfg.metric)) {
            b.excluded = o.high;
        }
    }
    b.stats = b
        .measured_metrics()
        .filter_map(|m| Some((m.clone(), metric_stats(b, m, cfg.level.get())?)))
        .collect();
    if let Some(sim) = &mut b.simulated {
        sim.stats = simulated_stats(sim, cfg.level.get());
    }
    let values = b.analysed(&cfg.metric);
    b.diagnostics = checks::run_all(b, &values, cfg);
}

/// Statistics of each simulated metric per operation. Simulated runs are independent
/// replicates: the interval of the mean is Student's over them (none from a single run,
/// the usual case, since the counts are deterministic).
pub fn simulated_stats(sim: &SimulatedCounts, level: f64) -> BTreeMap<Metric, MetricStats> {
    sim.metrics
        .keys()
        .filter_map(|m| {
            let values = sim.per_op(m);
            let summary = Summary::of(&values).ok()?;
            let ci = mean_ci(&values, level).ok();
            Some((
                m.clone(),
                MetricStats {
                    mean_ci: ci.map(|c| c.interval),
                    error: ci.map(|c| c.error),
                    std_err: ci.map(|c| {
                        c.error / t_quantile(0.5 + level / 2.0, values.len() as f64 - 1.0)
                    }),
                    median_ci: median_ci(&values, level).ok().map(|c| c.interval),
                    summary,
                    between_runs: None,
                },
            ))
        })
        .collect()
}

/// Statistics of `metric` per operation: the summary of the samples, the interval of the
/// mean over the replicates, the order-statistic interval of the median.
pub fn metric_stats(b: &Benchmark, metric: &Metric, level: f64) -> Option<MetricStats> {
    let values = b.analysed(metric);
    let summary = Summary::of(&values).ok()?;
    let units = replicates(b, metric, &values);
    let ci = mean_ci(&units, level).ok();
    // A subtracted correction (shell start-up, a fixed cost per sample) is itself an
    // estimate: its standard error, per operation, widens the interval of the mean at the
    // same t multiplier.
    // (With launches, one averaged correction is subtracted from every launch: its
    // uncertainty is not in the spread of the launch means either.)
    // An interval needs two replicates: so does its t quantile.
    let t = (ci.is_some()).then(|| t_quantile(1.0 - (1.0 - level) / 2.0, units.len() as f64 - 1.0));
    let error = ci.zip(t).map(|(ci, t)| match b.correction(metric) {
        Some(c) => (ci.error.powi(2) + (t * c.std_err * correction_per_op(b)).powi(2)).sqrt(),
        None => ci.error,
    });
    Some(MetricStats {
        std_err: error.zip(t).map(|(e, t)| e / t),
        mean_ci: error.map(|e| Interval {
            lo: summary.mean - e,
            hi: summary.mean + e,
        }),
        error,
        median_ci: median_ci(&values, level).ok().map(|c| c.interval),
        summary,
        between_runs: None,
    })
}

/// The share of a per-sample correction in the mean per-op value: the mean of
/// 1 / iterations over the samples (1 for commands).
fn correction_per_op(b: &Benchmark) -> f64 {
    if b.samples.is_empty() {
        return 1.0;
    }
    b.samples
        .iterations()
        .iter()
        .map(|&n| 1.0 / n.max(1) as f64)
        .sum::<f64>()
        / b.samples.len() as f64
}

/// Analyses every benchmark, compares each with its group's baseline (benchmarks without
/// a group form one group), and adds the environment's warnings.
pub fn analyse_document(doc: &mut ResultDocument, cfg: &AnalysisConfig) {
    for b in &mut doc.benchmarks {
        analyse_benchmark(b, cfg);
    }
    judge_groups(doc, cfg);
    crate::checks::cliffs::check(doc, &cfg.metric);
    crate::checks::sensitivity::attach(doc, &cfg.metric);
    crate::settling::judge_sequentially(doc);
    crate::design_checks::attach_design_findings(doc);
    doc.diagnostics = environment_diagnostics(&doc.environment);
}

/// Each group's members judged against its baseline (benchmarks without a group form
/// one group): the document's comparisons, made anew.
pub(crate) fn judge_groups(doc: &mut ResultDocument, cfg: &AnalysisConfig) {
    doc.comparisons.clear();
    let mut groups: Vec<Option<&str>> = Vec::new();
    for b in &doc.benchmarks {
        if !groups.contains(&b.group.as_deref()) {
            groups.push(b.group.as_deref());
        }
    }
    let asked = crate::Asked {
        question_given: cfg.question_given,
        metric: &cfg.metric,
        level: cfg.level,
        sesoi: cfg.sesoi,
        question: cfg.question,
        resolution: doc.clock.as_ref().map(|c| c.resolution),
    };
    for g in groups {
        let members = || {
            doc.benchmarks
                .iter()
                .filter(move |b| b.group.as_deref() == g)
        };
        if let Some(base) = members().find(|b| b.baseline) {
            for b in members().filter(|b| !b.baseline) {
                doc.comparisons
                    .push(crate::compare_explained(base, b, &asked));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::{BenchmarkKind, Correction, DiagnosticCode};

    pub fn bench(name: &str, times: &[u64]) -> Benchmark {
        Benchmark::of_wall_times(name, BenchmarkKind::Command, times.iter().copied())
    }

    const LEVEL_95: Confidence = match Confidence::new(0.95) {
        Some(c) => c,
        None => panic!(),
    };

    const CFG: AnalysisConfig = AnalysisConfig {
        level: LEVEL_95,
        sesoi: Fraction::DEFAULT_SESOI,
        drop_upper_outliers: false,
        metric: Metric::WallTime,
        question: plumb_model::Question::Mean,
        question_given: false,
    };

    #[test]
    fn fills_statistics() {
        let mut b = bench("x", &[100, 102, 98, 101, 99, 100, 103, 97, 100, 100]);
        analyse_benchmark(&mut b, &CFG);
        let t = b.time().cloned().unwrap();
        assert_eq!(t.summary.n, 10);
        assert_eq!(t.summary.mean, 100.0);
        assert!(t.mean_ci.unwrap().contains(100.0));
        assert!(t.median_ci.unwrap().contains(100.0));
    }

    #[test]
    fn dropping_outliers_is_opt_in_and_said() {
        let times = [100, 102, 98, 101, 99, 100, 103, 97, 100, 500];
        let mut b = bench("x", &times);
        analyse_benchmark(&mut b, &CFG);
        assert_eq!(b.time().unwrap().summary.n, 10);
        assert!(b
            .diagnostics
            .iter()
            .any(|d| d.code() == DiagnosticCode::Outliers));
        let mut b = bench("x", &times);
        analyse_benchmark(
            &mut b,
            &AnalysisConfig {
                drop_upper_outliers: true,
                ..CFG
            },
        );
        assert_eq!(b.excluded, vec![9]);
        assert_eq!(b.time().unwrap().summary.n, 9);
        let d = b
            .diagnostics
            .iter()
            .find_map(|d| match &d.finding {
                plumb_model::Finding::Outliers(o) => Some(o),
                _ => None,
            })
            .unwrap();
        assert_eq!(d.dropped, Some(1), "{d:?}");
    }

    #[test]
    fn each_group_is_compared_with_its_own_baseline() {
        let mut doc = plumb_model::ResultDocument::new(
            "t",
            plumb_model::Invocation {
                argv: vec![],
                cwd: None,
            },
            Default::default(),
            plumb_model::Settings {
                confidence: LEVEL_95,
                sesoi: Fraction::DEFAULT_SESOI,
                question: Default::default(),
                producer: plumb_model::ProducerSettings::None,
            },
        );
        for (name, group, base) in [
            ("a1", "a", true),
            ("a2", "a", false),
            ("b1", "b", true),
            ("b2", "b", false),
            ("b3", "b", false),
        ] {
            let mut b = bench(name, &[100, 101, 99, 100]);
            b.group = Some(group.into());
            b.baseline = base;
            doc.benchmarks.push(b);
        }
        analyse_document(&mut doc, &CFG);
        let pairs: Vec<(&str, &str)> = doc
            .comparisons
            .iter()
            .map(|c| (c.baseline.as_str(), c.candidate.as_str()))
            .collect();
        assert_eq!(pairs, [("a1", "a2"), ("b1", "b2"), ("b1", "b3")]);
    }

    #[test]
    fn launches_are_the_unit_of_replication() {
        // Three launches of 10 tight samples each, at 100, 110 and 120: within a launch the
        // spread is ~1 %, between launches ~9 %.
        let mut times = Vec::new();
        for level in [100u64, 110, 120] {
            times.extend([
                level,
                level + 1,
                level - 1,
                level,
                level + 1,
                level - 1,
                level,
                level,
                level + 1,
                level - 1,
            ]);
        }
        let mut b = bench("x", &times);
        b.set_function(plumb_model::FunctionInfo {
            launch_sample_counts: vec![10, 10, 10],
            ..Default::default()
        });
        analyse_benchmark(&mut b, &CFG);
        assert_eq!(
            b.launch_means(&Metric::WallTime).unwrap(),
            [100.0, 110.0, 120.0]
        );
        // The Error is the t interval of the three launch means (df 2), not of 30 samples:
        // scipy: st.t.ppf(0.975, 2) * 10 / sqrt(3) = 24.8413771175033
        let err = b.time().unwrap().error.unwrap();
        assert!((err - 24.8413771175033).abs() < 1e-9, "{err}");
        // Its standard error is the launch means': 10 / √3 = 5.7735027 (what the history's
        // drift between runs takes out), not the Error over t of 30 samples.
        let se = b.time().unwrap().std_err.unwrap();
        assert!((se - 10.0 / 3f64.sqrt()).abs() < 1e-9, "{se}");
        let d = b
            .diagnostics
            .iter()
            .find(|d| d.code() == DiagnosticCode::Launches)
            .unwrap();
        // Launches that differ are said (information: the Error already includes them).
        assert_eq!(d.severity, plumb_model::Severity::Info, "{d:?}");
        match &d.finding {
            plumb_model::Finding::Launches(l) => assert!(l.differ(), "{l:?}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn correction_uncertainty_widens_the_error() {
        let times = [1000, 1010, 990, 1005, 995, 1000, 1002, 998];
        let mut plain = bench("x", &times);
        analyse_benchmark(&mut plain, &CFG);
        let mut corrected = bench("x", &times);
        corrected.corrections.push(Correction {
            metric: Metric::WallTime,
            value: 500.0,
            std_err: 10.0,
            reason: "shell".into(),
        });
        analyse_benchmark(&mut corrected, &CFG);
        let (p, c) = (plain.time().unwrap(), corrected.time().unwrap());
        assert_eq!(c.summary.mean, p.summary.mean - 500.0);
        assert!(c.error.unwrap() > p.error.unwrap());
    }

    fn function(times_per_sample: &[u64], iterations: u64) -> Benchmark {
        Benchmark::of_wall_times_per(
            "f",
            BenchmarkKind::Function,
            times_per_sample.iter().map(|&t| (iterations, t)),
        )
    }

    #[test]
    fn a_correction_per_sample_counts_per_operation() {
        // Samples of 1000 iterations; the correction's standard error, 10 ns per sample, is
        // 0.01 ns per operation: with iid-looking samples it barely moves the Error.
        let times: Vec<u64> = (0..40).map(|i| 100_000 + (i % 7) * 300).collect();
        let mut plain = function(&times, 1000);
        analyse_benchmark(&mut plain, &CFG);
        let mut corrected = function(&times, 1000);
        corrected.corrections.push(Correction {
            metric: Metric::WallTime,
            value: 5_000.0,
            std_err: 10.0,
            reason: "fixed cost per sample".into(),
        });
        analyse_benchmark(&mut corrected, &CFG);
        let (p, c) = (plain.time().unwrap(), corrected.time().unwrap());
        assert_eq!(c.summary.mean, p.summary.mean - 5.0);
        // scipy: st.t.ppf(0.975, 9) = 2.2621571628540993; added in quadrature.
        let expected = (p.error.unwrap().powi(2) + (2.2621571628540993 * 0.01f64).powi(2)).sqrt();
        assert!((c.error.unwrap() - expected).abs() < 1e-9, "{c:?}");
    }

    #[test]
    fn a_slow_episode_in_process_widens_the_error_beyond_the_iid_one() {
        // 100 samples at 100 ns per op with ±1 % jitter, the middle 20 at 110 ns: by batch
        // means (what the Error uses for in-process samples) the interval is several times
        // the one that assumes independent samples.
        let times: Vec<u64> = (0..100u64)
            .map(|i| if (40..60).contains(&i) { 110_000 } else { 100_000 } + (i % 3) * 1000)
            .collect();
        let mut b = function(&times, 1000);
        analyse_benchmark(&mut b, &CFG);
        let error = b.time().unwrap().error.unwrap();
        let iid = plumb_stats::mean_ci(&b.analysed_times_ns(), 0.95)
            .unwrap()
            .error;
        let batch = plumb_stats::batch_means_ci(&b.analysed_times_ns(), 10, 0.95)
            .unwrap()
            .error;
        assert_eq!(error, batch);
        assert!(error > 2.0 * iid, "batch means {error}, iid {iid}");
    }
}
