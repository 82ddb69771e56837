//! The drift between runs of one benchmark on one machine, from the means its history
//! holds: the runs of its last level (since its last change point), their means' variance
//! less the part their own standard errors explain — what one run's interval cannot see.
use crate::{change_points, ChangeParams, Series};

/// The fewest runs of a series' last level that measure its drift between runs.
pub const FEWEST_RUNS: usize = 5;

/// A benchmark's drift between runs, as its history measured it.
#[derive(Debug, Clone, PartialEq)]
pub struct BetweenRunNoise {
    /// The relative standard deviation of one run's mean between runs.
    pub noise: f64,
    /// The runs it was measured over, and the first one's label (commit or run).
    pub points: usize,
    pub since: String,
    /// Those runs' mean: the level a next run is expected at.
    pub mean: f64,
}

/// A benchmark of a result (its index) with its standard error in this run and the drift
/// its history measured.
#[derive(Debug, Clone, PartialEq)]
pub struct RunNoise {
    pub benchmark: usize,
    pub stderr: f64,
    pub noise: BetweenRunNoise,
}

/// The drift between runs of these runs' means: their relative variance less the mean
/// of their squared standard errors (what one run's interval already holds), at least 0;
/// None with fewer than `FEWEST_RUNS` runs or a mean that is not positive.
pub fn between_run_noise(means: &[f64], errors: &[Option<f64>]) -> Option<f64> {
    let n = means.len();
    if n < FEWEST_RUNS {
        return None;
    }
    let mean = means.iter().sum::<f64>() / n as f64;
    if mean <= 0.0 {
        return None;
    }
    let var = means.iter().map(|m| (m - mean) * (m - mean)).sum::<f64>() / (n as f64 - 1.0);
    let known: Vec<f64> = errors.iter().flatten().map(|e| e * e).collect();
    let own = if known.is_empty() {
        0.0
    } else {
        known.iter().sum::<f64>() / known.len() as f64
    };
    Some(((var - own).max(0.0)).sqrt() / mean)
}

/// The drift of a series' last level — its runs since its last change point — with the
/// label of its first run (`labels[i]` names run `i`); None when that level is too short.
pub fn last_level_noise(
    means: &[f64],
    errors: &[Option<f64>],
    labels: &[String],
) -> Option<BetweenRunNoise> {
    let series = Series {
        values: means,
        errors: None,
    };
    let (changes, _) = change_points(series, ChangeParams::default()).ok()?;
    let from = changes.last().map_or(0, |c| c.index);
    let level = &means[from..];
    let noise = between_run_noise(level, &errors[from..])?;
    Some(BetweenRunNoise {
        noise,
        points: level.len(),
        since: labels.get(from).cloned().unwrap_or_default(),
        mean: level.iter().sum::<f64>() / level.len() as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-worked: means 100, 102, 98, 101, 99 → var 2.5; own errors 1 each → 2.5 − 1 = 1.5,
    /// √1.5 / 100 = 0.012247.
    #[test]
    fn the_noise_between_runs_leaves_out_what_each_run_knew() {
        let m = [100.0, 102.0, 98.0, 101.0, 99.0];
        let noise = between_run_noise(&m, &[Some(1.0); 5]).unwrap();
        assert!((noise - 0.0122474).abs() < 1e-6, "{noise}");
        assert_eq!(between_run_noise(&m[..4], &[None; 4]), None);
        assert!((between_run_noise(&m, &[None; 5]).unwrap() - 2.5f64.sqrt() / 100.0).abs() < 1e-12);
    }

    /// Ten runs at 100 ± 1, then six at 150 ± 1 (a step every point of which is beyond the
    /// last level's): the drift is the last level's alone, from its first run.
    #[test]
    fn the_drift_is_measured_since_the_last_change() {
        let mut means: Vec<f64> = (0..10).map(|i| 100.0 + [1.0, -1.0][i % 2]).collect();
        means.extend((0..6).map(|i| 150.0 + [1.0, -1.0][i % 2]));
        let labels: Vec<String> = (1..=16).map(|i| format!("run {i}")).collect();
        let n = last_level_noise(&means, &[None; 16], &labels).unwrap();
        assert_eq!((n.points, n.since.as_str()), (6, "run 11"));
        assert!((n.mean - 150.0).abs() < 1e-12);
        // sd of ±1 alternating over 6 values: √(6/5) = 1.0954; over 150.
        assert!(
            (n.noise - 1.2f64.sqrt() / 150.0).abs() < 1e-12,
            "{}",
            n.noise
        );
    }
}
