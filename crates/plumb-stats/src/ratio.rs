//! The ratio of two means with its Fieller interval and spread (RatioSD), checked against scipy.
use crate::error::check_level;
use crate::student_t::t_quantile;
use crate::{check_finite, mean, variance, Interval, Moments, StatsError};

/// The ratio mean(new) / mean(base) with its uncertainty.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatioEstimate {
    pub ratio: f64,
    /// Fieller confidence interval of the ratio of means; `None` when the baseline mean
    /// is not distinguishable from zero, where the set is unbounded.
    pub interval: Option<Interval>,
    pub level: f64,
    /// Spread of the per-sample ratio by the delta method, r·√(cv_new² + cv_base²):
    /// the analogue of BenchmarkDotNet's RatioSD, a property of the samples that does not
    /// shrink with n. The interval is what shrinks with n.
    pub ratio_sd: f64,
}

/// RatioEstimate::ratio_sd alone, for when the interval is taken over other values (batch
/// or launch means) than the samples the spread describes. Needs two values a side.
pub fn ratio_sd(base: &[f64], new: &[f64]) -> Result<f64, StatsError> {
    check_finite(base, 2)?;
    check_finite(new, 2)?;
    Ok(spread_of_ratio(
        mean(new),
        mean(base),
        variance(new),
        variance(base),
    ))
}

/// r·√(cv_new² + cv_base²) from the means and variances.
fn spread_of_ratio(new_mean: f64, base_mean: f64, new_var: f64, base_var: f64) -> f64 {
    (new_mean / base_mean).abs()
        * (new_var / (new_mean * new_mean) + base_var / (base_mean * base_mean)).sqrt()
}

/// Ratio of means with a Fieller interval that allows unequal variances: the set of ρ
/// for which a Welch-type t-test of mean(new) - ρ·mean(base) = 0 is not rejected, with
/// Satterthwaite degrees of freedom at ρ = the point estimate (as R's `mratios::ttestratio`
/// with `var.equal = FALSE`). Unlike a delta-method interval it is not symmetric, which is
/// right for a ratio.
pub fn ratio_of_means(base: &[f64], new: &[f64], level: f64) -> Result<RatioEstimate, StatsError> {
    check_level(level)?;
    ratio_from_moments(&Moments::of(base)?, &Moments::of(new)?, level)
}

/// `ratio_of_means` from each side's size, mean and variance.
pub fn ratio_from_moments(
    base: &Moments,
    new: &Moments,
    level: f64,
) -> Result<RatioEstimate, StatsError> {
    check_level(level)?;
    let (a, b) = (new.mean, base.mean);
    let (na, nb) = (new.n as f64, base.n as f64);
    let (sa2, sb2) = (new.variance, base.variance);
    let (va, vb) = (new.mean_variance(), base.mean_variance());
    let r = a / b;
    let ratio_sd = spread_of_ratio(a, b, sa2, sb2);
    let exact = |interval| RatioEstimate {
        ratio: r,
        interval,
        level,
        ratio_sd,
    };
    if b == 0.0 {
        return Ok(exact(None));
    }
    let denom = va * va / (na - 1.0) + r.powi(4) * vb * vb / (nb - 1.0);
    if denom == 0.0 {
        // Both samples constant: the ratio is known exactly.
        return Ok(exact(Some(Interval { lo: r, hi: r })));
    }
    let df = (va + r * r * vb).powi(2) / denom;
    let t = t_quantile(1.0 - (1.0 - level) / 2.0, df);
    let t2 = t * t;
    let lead = b * b - t2 * vb;
    let disc = a * a * vb + b * b * va - t2 * va * vb;
    let interval = if lead > 0.0 && disc >= 0.0 {
        let root = t * disc.sqrt();
        let (x, y) = ((a * b - root) / lead, (a * b + root) / lead);
        Some(Interval {
            lo: x.min(y),
            hi: x.max(y),
        })
    } else {
        None
    };
    Ok(exact(interval))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_close;
    use crate::welch::tests::{A, B};

    // Reference (scipy 1.17), computed by *inverting the test numerically* rather than by
    // the closed form above: with t = st.t.ppf(1-(1-lvl)/2, df), brentq on
    //   (mean(B) - ρ·mean(A))² - t²·(var(B)/12 + ρ²·var(A)/10) = 0
    //   ratio 1.076222435282838, df 19.18784050157348
    //   95%:   [1.0520175454189142, 1.101044028693778]
    //   99.9%: [1.0318239263242075, 1.122740954412444]
    //   ratio_sd = r·sqrt(cv_B² + cv_A²) = 0.03867560875563167
    #[test]
    fn matches_numerical_inversion() {
        let r = ratio_of_means(&A, &B, 0.95).unwrap();
        assert_close(r.ratio, 1.076222435282838, 1e-12);
        let i = r.interval.unwrap();
        assert_close(i.lo, 1.0520175454189142, 1e-9);
        assert_close(i.hi, 1.101044028693778, 1e-9);
        assert_close(r.ratio_sd, 0.03867560875563167, 1e-9);
        let i = ratio_of_means(&A, &B, 0.999).unwrap().interval.unwrap();
        assert_close(i.lo, 1.0318239263242075, 1e-8);
        assert_close(i.hi, 1.122740954412444, 1e-8);
    }

    #[test]
    fn baseline_indistinguishable_from_zero_is_unbounded() {
        let r = ratio_of_means(&[-1.0, 1.0, -1.0, 1.2], &[5.0, 5.1, 4.9], 0.95).unwrap();
        assert_eq!(r.interval, None);
        let r = ratio_of_means(&[-1.0, 1.0], &[5.0, 5.1], 0.95).unwrap();
        assert_eq!(r.interval, None);
    }
}
