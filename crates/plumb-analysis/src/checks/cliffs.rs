//! Cache cliffs: along a sweep (the benchmarks of one series, by working set), where the
//! time per operation jumps between two neighbouring working sets, by how much, and
//! which of this machine's caches lies between them. A jump with no cache between is a
//! `size-step`, not a cliff: it names a data TLB's reach when one lies between, and
//! otherwise no cause.

use super::amount;
use plumb_model::finding::{CacheCliff, MissesAlong, SizeStep};
use plumb_model::sweep::{cache_marks, sweeps, tlb_reaches, CacheMark};
use plumb_model::{Benchmark, Comparison, Diagnostic, Metric, ResultDocument, Severity, Verdict};

/// A step of at least this ratio between neighbouring working sets is a cliff, when the
/// larger is judged slower than the smaller (the whole interval of their ratio beyond
/// the run's smallest effect, at its confidence, as every verdict). A cache level
/// passed typically costs 2× or more (L1 to L2 about 3×, into DRAM 5–10×); 30 % keeps a
/// partial step (a working set that half fits) and leaves noise alone.
const JUMP: f64 = 1.3;

/// Miss counters shown beside a cliff when both points have them.
const MISSES: [Metric; 4] = [
    Metric::D1Misses,
    Metric::LlMisses,
    Metric::L1dLoadMisses,
    Metric::LlcLoadMisses,
];

/// Adds a `cache-cliff` diagnostic to the upper point of every cliff in `doc`'s sweeps.
pub fn check(doc: &mut ResultDocument, metric: &Metric) {
    let marks = cache_marks(&doc.environment);
    let tlbs = tlb_reaches(&doc.environment);
    let (level, sesoi) = (doc.settings.confidence, doc.settings.sesoi);
    let mut found = Vec::new();
    for sweep in sweeps(&doc.benchmarks) {
        for pair in sweep.points.windows(2) {
            let (a, b) = (&doc.benchmarks[pair[0]], &doc.benchmarks[pair[1]]);
            let judged = crate::judge(a, b, metric, level, sesoi);
            if judged.verdict != Verdict::Slower || judged.ratio < JUMP {
                continue;
            }
            if let Some(d) = cliff(a, b, &judged, &marks, &tlbs) {
                found.push((pair[1], d));
            }
        }
    }
    for (i, d) in found {
        doc.benchmarks[i].diagnostics.push(d);
    }
}

/// The diagnostic of a step judged a cliff (`judged`: `b` against `a`): a cache cliff
/// when a cache lies between the two working sets, a size step otherwise.
fn cliff(
    a: &Benchmark,
    b: &Benchmark,
    judged: &Comparison,
    marks: &[CacheMark],
    tlbs: &[CacheMark],
) -> Option<Diagnostic> {
    let metric = &judged.metric;
    let (ta, tb) = (a.stats(metric)?.summary.mean, b.stats(metric)?.summary.mean);
    let misses = MISSES
        .iter()
        .filter_map(|m| {
            let (from, _) = a.counted_mean(m)?;
            let (to, _) = b.counted_mean(m)?;
            Some(MissesAlong {
                counter: m.clone(),
                from,
                to,
            })
        })
        .collect();
    let finding = CacheCliff {
        metric: metric.clone(),
        from_benchmark: a.name.clone(),
        from: a.working_set?,
        to: b.working_set?,
        from_mean: amount(a, metric, ta),
        to_mean: amount(b, metric, tb),
        ratio: judged.ratio,
        ratio_ci: judged.ratio_ci,
        caches: marks.to_vec(),
        misses,
    };
    if finding.passed().next().is_none() {
        // A doubling or more is a warning: a step that size changes what a sweep says.
        let severity = if judged.ratio >= 2.0 {
            Severity::Warning
        } else {
            Severity::Info
        };
        let step = SizeStep::between_caches(finding, tlbs.to_vec());
        return Some(Diagnostic::new(severity, step));
    }
    Some(Diagnostic::new(Severity::Warning, finding))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{analyse_document, AnalysisConfig};
    use plumb_model::quantity::{ByteSize, Confidence, Fraction};
    use plumb_model::{BenchmarkKind, CacheLevel, Environment, Invocation, Settings};

    fn doc(points: &[(u64, f64)]) -> ResultDocument {
        let level = CacheLevel::of_size;
        let environment = Environment {
            caches: vec![
                level(1, "Data", ByteSize(32 << 10)),
                level(2, "Unified", ByteSize(1 << 20)),
                level(3, "Unified", ByteSize(32 << 20)),
            ],
            ..Environment::default()
        };
        let settings = Settings {
            confidence: Confidence::DEFAULT,
            sesoi: Fraction::DEFAULT_SESOI,
            question: Default::default(),
            producer: plumb_model::ProducerSettings::None,
        };
        let mut d = ResultDocument::new("t", Invocation::current(), environment, settings);
        for &(bytes, ns) in points {
            // Ten runs of 1000 operations each, ±1 % around the mean.
            let times = (0..10).map(|i| (1000, (ns * 1000.0 * (0.991 + 0.002 * i as f64)) as u64));
            let mut b = Benchmark::of_wall_times_per(
                format!("rand {bytes}"),
                BenchmarkKind::Command,
                times,
            );
            b.series = Some("rand {size}".into());
            b.working_set = Some(ByteSize(bytes));
            d.benchmarks.push(b);
        }
        d
    }

    fn cliffs(d: &mut ResultDocument) -> Vec<(String, CacheCliff)> {
        let cfg = AnalysisConfig {
            level: Confidence::DEFAULT,
            sesoi: Fraction::DEFAULT_SESOI,
            drop_upper_outliers: false,
            metric: Metric::WallTime,
            question: plumb_model::Question::Mean,
            question_given: false,
        };
        analyse_document(d, &cfg);
        d.benchmarks
            .iter()
            .flat_map(|b| {
                b.diagnostics.iter().filter_map(|x| match &x.finding {
                    plumb_model::Finding::CacheCliff(c) => Some((b.name.clone(), c.clone())),
                    _ => None,
                })
            })
            .collect()
    }

    /// The random-access curve measured here (examples/cache.c, ns per access): 1.2 in
    /// L1, 2.4 at 64 KiB, 3.6 at 256 KiB, 7 at 1 MiB, 107 at 8 MiB, 185 at 64 MiB.
    #[test]
    fn each_jump_names_the_cache_it_passes() {
        let mut d = doc(&[
            (16 << 10, 1.2),
            (64 << 10, 2.4),
            (256 << 10, 3.6),
            (1 << 20, 7.0),
            (8 << 20, 107.0),
            (64 << 20, 185.0),
        ]);
        let found = cliffs(&mut d);
        let at = |bytes: u64| {
            found
                .iter()
                .find(|(n, _)| *n == format!("rand {bytes}"))
                .map(|(_, c)| c)
                .unwrap_or_else(|| panic!("no cliff at {bytes}: {found:?}"))
        };
        let passed = |c: &CacheCliff| c.passed().map(|m| m.name.clone()).collect::<Vec<String>>();
        let into_l2 = at(64 << 10);
        assert_eq!(
            (into_l2.from, into_l2.to),
            (ByteSize(16 << 10), ByteSize(64 << 10))
        );
        // The means are 1.1995 and 2.3995 ns: ten runs of ±1 %, whole ns per 1000 ops.
        assert!((into_l2.ratio - 2.0).abs() < 1e-3, "{into_l2:?}");
        assert!((into_l2.from_mean.value - 1.2).abs() < 1e-3);
        assert_eq!(into_l2.from_benchmark, format!("rand {}", 16 << 10));
        assert_eq!(passed(into_l2), ["L1d"]);
        // 64 KiB → 256 KiB passes no cache: a size step, not a cliff (issue 24, defect 18).
        assert!(
            found.iter().all(|(_, c)| c.passed().next().is_some()),
            "{found:?}"
        );
        let step = d
            .benchmark(&format!("rand {}", 256 << 10))
            .unwrap()
            .diagnostics
            .iter()
            .find_map(|x| match &x.finding {
                plumb_model::Finding::SizeStep(s) => Some(s.clone()),
                _ => None,
            })
            .expect("a size step at 256 KiB");
        assert_eq!(
            (step.from, step.to),
            (ByteSize(64 << 10), ByteSize(256 << 10))
        );
        assert_eq!(passed(at(1 << 20)), ["L2"]);
        let into_dram = at(8 << 20);
        assert!(
            (into_dram.ratio - 107.0 / 7.0).abs() < 0.01,
            "{into_dram:?}"
        );
        assert_eq!(passed(into_dram), ["L2"]);
        assert_eq!(passed(at(64 << 20)), ["L3"]);
        assert_eq!(found.len(), 4);
    }

    #[test]
    fn a_flat_sweep_or_a_small_step_is_no_cliff() {
        let mut d = doc(&[(16 << 10, 1.0), (64 << 10, 1.2), (256 << 10, 1.25)]);
        assert!(cliffs(&mut d).is_empty());
        // Without replicates (one run each) a jump is not claimed.
        let mut d = doc(&[(16 << 10, 1.0), (64 << 10, 3.0)]);
        for b in &mut d.benchmarks {
            let first = b.samples.values(&Metric::WallTime).unwrap()[0];
            *b = Benchmark {
                samples: Default::default(),
                ..b.clone()
            };
            b.samples.push(1000, &[(Metric::WallTime, first)]);
        }
        assert!(cliffs(&mut d).is_empty());
    }
}
