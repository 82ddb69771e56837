//! One run's mean with an interval that holds the next run's. A run's own interval knows
//! its samples' noise, not the machine's drift between runs (host speed, a busy spell, a
//! layout): on this project's machines the means of adjacent runs spread three times
//! further than one run's 99.9 % interval (bench/calibration.sh). Where the benchmark's
//! history on this machine measured that drift, the mean gets a second interval holding
//! both; and a run whose mean those runs do not predict is said (the machine or the code
//! changed, and the interval does not hold for it).
use plumb_model::finding::UnlikeRecentRuns;
use plumb_model::{
    BetweenRuns, Diagnostic, Interval, Metric, MetricStats, ResultDocument, Severity,
};
use plumb_stats::{t_quantile, BetweenRunNoise, RunNoise};

/// Each benchmark `found` names gets its wall time's interval between runs (and the
/// finding when its mean is unlike those runs), at the result's confidence.
pub fn across_runs_all(doc: &mut ResultDocument, found: &[RunNoise]) {
    let level = doc.settings.confidence.get();
    for f in found {
        let Some(b) = doc.benchmarks.get_mut(f.benchmark) else {
            continue;
        };
        let Some(stats) = b.stats.get_mut(&Metric::WallTime) else {
            continue;
        };
        if let Some(unlike) = across_runs(&b.name, stats, f.stderr, &f.noise, level) {
            b.diagnostics.push(unlike);
        }
    }
}

/// Sets `stats.between_runs` from this run's standard error `se` and the drift `noise`
/// measured over its runs, at `level`: Student's t with one degree of freedom fewer than
/// those runs, since the drift is estimated from them. Returns the finding when this
/// run's mean lies outside the interval those runs predict for a next run.
pub fn across_runs(
    benchmark: &str,
    stats: &mut MetricStats,
    se: f64,
    noise: &BetweenRunNoise,
    level: f64,
) -> Option<Diagnostic> {
    let mean = stats.summary.mean;
    let t = t_quantile(0.5 + level / 2.0, noise.points as f64 - 1.0);
    let drift = noise.noise * mean;
    let half = t * (se * se + drift * drift).sqrt();
    stats.between_runs = Some(BetweenRuns {
        mean_ci: Interval {
            lo: mean - half,
            hi: mean + half,
        },
        noise: noise.noise,
        runs: noise.points,
        since: noise.since.clone(),
    });
    // A next run's mean moves by the drift and its own error; the runs' level is itself
    // an estimate from `points` of them.
    let level_drift = noise.noise * noise.mean;
    let spread = ((level_drift * level_drift + se * se) * (1.0 + 1.0 / noise.points as f64)).sqrt();
    let unlike = (mean - noise.mean).abs() > t * spread;
    unlike.then(|| {
        let finding = UnlikeRecentRuns {
            benchmark: benchmark.to_string(),
            shift: mean / noise.mean - 1.0,
            noise: noise.noise,
            runs: noise.points,
            since: noise.since.clone(),
        };
        Diagnostic::new(Severity::Warning, finding)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(mean: f64) -> MetricStats {
        MetricStats::of_value(mean)
    }

    fn noise(noise: f64, points: usize, mean: f64) -> BetweenRunNoise {
        BetweenRunNoise {
            noise,
            points,
            since: "abc".into(),
            mean,
        }
    }

    /// Reference: scipy 1.16.3, t.ppf(0.9995, 5) = 6.8688266; mean 100, se 0.2, drift
    /// 2 % → half-width 6.8688266·√(0.2² + 2²) = 13.8061707.
    #[test]
    fn the_interval_between_runs_holds_this_runs_error_and_the_drift() {
        let mut s = stats(100.0);
        let said = across_runs("a", &mut s, 0.2, &noise(0.02, 6, 101.0), 0.999);
        let b = s.between_runs.unwrap();
        assert!((b.mean_ci.lo - 86.1938293).abs() < 1e-6, "{b:?}");
        assert!((b.mean_ci.hi - 113.8061707).abs() < 1e-6, "{b:?}");
        assert_eq!((b.runs, b.noise), (6, 0.02));
        assert_eq!(said, None);
    }

    /// Reference: the limit is t·√((0.02·101)² + 0.2²)·√(1 + 1/6) = 15.0600231 (scipy's t as
    /// above): 101 ± 15.06 holds 86.0 … 116.0; 117 and 85 lie outside.
    #[test]
    fn a_run_the_recent_runs_do_not_predict_is_said() {
        let recent = noise(0.02, 6, 101.0);
        for (mean, unlike) in [(116.0, false), (86.0, false), (117.0, true), (85.0, true)] {
            let mut s = stats(mean);
            let said = across_runs("a", &mut s, 0.2, &recent, 0.999);
            assert_eq!(said.is_some(), unlike, "{mean}");
        }
        let mut s = stats(117.0);
        let d = across_runs("a", &mut s, 0.2, &recent, 0.999).unwrap();
        assert_eq!(d.severity, Severity::Warning);
        let plumb_model::finding::Finding::UnlikeRecentRuns(f) = &d.finding else {
            panic!("{d:?}")
        };
        assert!((f.shift - (117.0 / 101.0 - 1.0)).abs() < 1e-12);
    }
}
