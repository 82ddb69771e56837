//! A verdict that may look again (issue 26's `plumb revs`): rounds of interleaved A/B runs
//! are added until the ratio is settled — slower or faster beyond the smallest
//! effect of interest, equivalent inside it — or the cap is reached, unknown. Each look
//! reads a repeated confidence interval (Jennison & Turnbull 1989, JRSS B 51:305): its
//! boundary comes from a spending function (`group_sequential.rs`), so the interval holds
//! the true ratio at every look at once with the confidence asked, whenever the rounds
//! stop, and each wrong verdict has a chance of at most α/2. The statistic is paired over
//! rounds: d_r is round r's log ratio of B to A (plumb-analysis' `settling` says which),
//! so drift between rounds cancels.
use crate::decision::{decide, Call, Evidence, Look};
use crate::group_sequential::{boundaries, Spending};
use crate::{t_quantile, Interval};
use statrs::distribution::{ContinuousCDF, Normal};

/// When to look and with what boundary.
#[derive(Debug, Clone, PartialEq)]
pub struct SequentialDesign {
    /// The rounds at which to look, increasing; the last is the cap.
    pub looks: Vec<usize>,
    /// The z boundary of each look.
    pub z: Vec<f64>,
    /// The total two-sided α (1 − confidence).
    pub alpha: f64,
}

impl SequentialDesign {
    /// Looks at `first`, then every `every` rounds up to `max`, spending `alpha` by
    /// `spending` over the information fraction (rounds / max).
    pub fn new(first: usize, every: usize, max: usize, alpha: f64, spending: Spending) -> Self {
        let mut looks: Vec<usize> = (first..max).step_by(every.max(1)).collect();
        looks.push(max);
        looks.dedup();
        let t: Vec<f64> = looks.iter().map(|&r| r as f64 / max as f64).collect();
        let z = boundaries(&t, alpha, spending);
        SequentialDesign { looks, z, alpha }
    }

    /// The boundary for a t statistic at look `k` with `df` degrees of freedom: the same
    /// nominal level as the z boundary (Jennison & Turnbull, ch. 3).
    fn t_boundary(&self, k: usize, df: f64) -> f64 {
        let normal = Normal::new(0.0, 1.0).expect("the standard normal");
        let p = 2.0 * normal.sf(self.z[k]);
        if p <= 0.0 {
            return f64::INFINITY;
        }
        t_quantile(1.0 - p / 2.0, df)
    }
}

/// One look: its call (`Continue` before the cap; unsettled or not shown at the cap is
/// unknown), the ratio B/A and its repeated confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SequentialLook {
    pub verdict: Call,
    pub ratio: f64,
    pub interval: Interval,
    pub rounds: usize,
}

/// The look after `d.len()` rounds (d_r: round r's log ratio of B to A), None when that
/// is not one of the design's looks. `sesoi` is a fraction (0.02 for ±2 %).
pub fn sequential_look(d: &[f64], design: &SequentialDesign, sesoi: f64) -> Option<SequentialLook> {
    let rounds = d.len();
    let k = design.looks.iter().position(|&r| r == rounds)?;
    if rounds < 2 {
        return None;
    }
    let n = rounds as f64;
    let mean = d.iter().sum::<f64>() / n;
    let sd = (d.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)).sqrt();
    let half = design.t_boundary(k, n - 1.0) * sd / n.sqrt();
    let interval = Interval {
        lo: (mean - half).exp(),
        hi: (mean + half).exp(),
    };
    let look = if k + 1 == design.looks.len() {
        Look::Last
    } else {
        Look::Interim
    };
    let verdict = decide(interval, sesoi, Evidence::Interval, look);
    Some(SequentialLook {
        verdict,
        ratio: mean.exp(),
        interval,
        rounds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_distr::{Distribution, Normal as Gauss};
    use rand_pcg::Pcg64;

    fn design(alpha: f64) -> SequentialDesign {
        SequentialDesign::new(10, 5, 60, alpha, Spending::Power(2.0))
    }

    #[test]
    fn the_looks_are_every_five_rounds_from_ten_to_the_cap() {
        let d = design(0.001);
        assert_eq!(d.looks, [10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60]);
        assert!(d.z.windows(2).all(|w| w[1] < w[0]), "{:?}", d.z);
        assert!(sequential_look(&[0.0; 11], &d, 0.02).is_none());
    }

    /// Runs rounds with log ratios N(effect, sd) until the verdict settles; the verdict.
    fn settle(effect: f64, sd: f64, design: &SequentialDesign, rng: &mut Pcg64) -> SequentialLook {
        let g = Gauss::new(effect, sd).unwrap();
        let mut d = Vec::new();
        loop {
            d.push(g.sample(rng));
            if let Some(l) = sequential_look(&d, design, 0.02) {
                if l.verdict != Call::Continue {
                    return l;
                }
            }
        }
    }

    /// Seeded simulation: a clear +10 % is slower at the first look; A/A is never called
    /// different beyond its α/2 (at α = 0.05, 4,000 comparisons: at most 2.5 % + 3 SE).
    #[test]
    fn a_clear_change_settles_at_once_and_a_a_is_rarely_different() {
        let mut rng = Pcg64::seed_from_u64(26);
        let d = design(0.001);
        let l = settle((1.10f64).ln(), 0.01, &d, &mut rng);
        assert_eq!((l.verdict, l.rounds), (Call::Slower, 10));
        let loose = design(0.05);
        let runs = 4000;
        let different = (0..runs)
            .filter(|_| settle(0.0, 0.03, &loose, &mut rng).verdict.is_change())
            .count();
        let bound = 0.025 + 3.0 * (0.025f64 * 0.975 / runs as f64).sqrt();
        assert!(
            (different as f64 / runs as f64) <= bound,
            "{different} of {runs}"
        );
    }
}
