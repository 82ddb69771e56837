//! A small, fixed document for the renderers' tests. Its statistics are computed here
//! with plumb-stats (the renderers do not depend on the analysis crate), the way the
//! analysis would: Student-t interval of the mean over the runs, Fieller ratio.

use plumb_model::quantity::{Confidence, Duration, Fraction};
use plumb_model::{
    Benchmark, BenchmarkKind, Comparison, Environment, Exit, Invocation, Metric, MetricInfo,
    MetricStats, ProducerSettings, ResultDocument, Settings, Verdict, VerdictReason,
};

fn bench(name: &str, base_ns: u64, baseline: bool) -> Benchmark {
    // A fixed jitter pattern so every figure is reproducible.
    let jitter = [0i64, 30, -20, 10, -40, 25, -5, 15, -15, 0];
    let mut b = Benchmark::new(name, BenchmarkKind::Command);
    b.set_command(name);
    b.parameters = [("n".to_string(), name.len().to_string())].into();
    b.baseline = baseline;
    for m in [
        Metric::WallTime,
        Metric::UserTime,
        Metric::SystemTime,
        Metric::PeakRss,
    ] {
        b.metrics.insert(m.clone(), MetricInfo::measured(&m));
    }
    for i in 0..20 {
        let wall = (base_ns as i64 + jitter[i % 10] * 1000) as u64;
        b.samples.push_run(
            1,
            &[
                (Metric::WallTime, wall),
                (Metric::UserTime, 500_000),
                (Metric::SystemTime, 100_000),
                (Metric::PeakRss, 2 << 20),
            ],
            Exit::Code(0),
        );
    }
    b
}

pub fn document() -> ResultDocument {
    let mut doc = ResultDocument::new(
        "0.0.0-test",
        Invocation {
            argv: vec!["plumb".into()],
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
    doc.benchmarks.push(bench("fast | one", 10_000_000, true));
    doc.benchmarks.push(bench("slow", 20_000_000, false));
    for b in &mut doc.benchmarks {
        let metrics: Vec<Metric> = b.metrics.keys().cloned().collect();
        for m in metrics {
            let values = b.analysed(&m);
            let summary = plumb_stats::Summary::of(&values).unwrap();
            let ci = plumb_stats::mean_ci(&values, 0.999).ok();
            let stats = MetricStats {
                mean_ci: ci.as_ref().map(|c| c.interval),
                error: ci.as_ref().map(|c| c.error),
                std_err: None,
                median_ci: plumb_stats::median_ci(&values, 0.999)
                    .ok()
                    .map(|c| c.interval),
                summary,
                between_runs: None,
            };
            b.stats.insert(m, stats);
        }
    }
    let (x, y) = (
        doc.benchmarks[0].analysed_times_ns(),
        doc.benchmarks[1].analysed_times_ns(),
    );
    let ratio = plumb_stats::ratio_of_means(&x, &y, 0.999).unwrap();
    doc.comparisons.push(Comparison {
        verdict: Verdict::Slower,
        reason: VerdictReason::BeyondSesoi {
            constant_samples: false,
        },
        ratio: ratio.ratio,
        ratio_ci: ratio.interval,
        ratio_sd: ratio.ratio_sd,
        welch_p: plumb_stats::welch_t_test(&y, &x).unwrap().p,
        mann_whitney_p: plumb_stats::mann_whitney_u(&y, &x).unwrap().p,
        mann_whitney_min_p: Some(plumb_stats::mann_whitney_u(&y, &x).unwrap().min_p),
        tost_p: 1.0,
        cohens_d: plumb_stats::cohens_d(&x, &y).unwrap(),
        hodges_lehmann: plumb_stats::hodges_lehmann(&x, &y).unwrap(),
        ..Comparison::unjudged(
            "fast | one",
            "slow",
            Confidence::DEFAULT,
            Fraction::DEFAULT_SESOI,
        )
    });
    doc
}

/// A point of the sweep `./cache rand {size}`: working set `bytes`, mean `ns` per
/// operation (its other statistics the fixture document's, with no interval).
pub fn sweep_point(bytes: u64, ns: f64) -> Benchmark {
    let mut b =
        Benchmark::of_wall_times(format!("rand {bytes}"), BenchmarkKind::Command, [ns as u64]);
    b.series = Some("./cache rand {size}".into());
    b.working_set = Some(plumb_model::quantity::ByteSize(bytes));
    let mut s = document().benchmarks[0].stats[&Metric::WallTime].clone();
    s.summary.mean = ns;
    s.mean_ci = None;
    s.error = None;
    b.stats.insert(Metric::WallTime, s);
    b
}

/// Folded stacks from their text, "a;b;c 7" per line.
pub fn folded(text: &str) -> Vec<plumb_model::FoldedStack> {
    text.lines()
        .map(|l| {
            let (stack, n) = l.rsplit_once(' ').expect("a count after the stack");
            plumb_model::FoldedStack {
                stack: stack.into(),
                samples: n.parse().expect("a count"),
            }
        })
        .collect()
}

/// A repeated load result whose runs have these (p50, p99), µs, in order; the headline
/// figures are the first run's.
pub fn repeated_load(runs: &[(f64, f64)]) -> plumb_model::LoadInfo {
    let dist = |(p50, p99): (f64, f64)| plumb_model::LatencyDistribution {
        count: 1000,
        percentiles: [("p50", p50), ("p99", p99)]
            .into_iter()
            .map(|(k, us)| (k.to_string(), Duration::from_nanos_f64(us * 1e3)))
            .collect(),
        max: Duration::from_nanos_f64(p99 * 1e3),
        mean: Duration::from_nanos_f64(p50 * 1e3),
        hdr_base64: String::new(),
    };
    let mut l = plumb_model::LoadInfo::answered(dist(runs[0]));
    l.runs = runs
        .iter()
        .map(|&r| plumb_model::LoadRun {
            window: None,
            achieved_rate: 100.0,
            ok: 1000,
            errors: 0,
            latency: dist(r),
        })
        .collect();
    l
}
