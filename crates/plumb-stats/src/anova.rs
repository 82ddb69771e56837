//! One-way analysis of variance: do groups share one mean? Checked against scipy.
use crate::{check_finite, mean, StatsError};
use statrs::distribution::{ContinuousCDF, FisherSnedecor};

/// One-way analysis of variance: do the groups share one mean? Used for launches: are
/// fresh processes of the same benchmark measured alike (layout, ASLR), or does the
/// process itself change the result?
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Anova {
    pub f: f64,
    pub df_between: f64,
    pub df_within: f64,
    pub p: f64,
    /// Standard deviation of the group means.
    pub between_sd: f64,
    /// Pooled standard deviation within the groups.
    pub within_sd: f64,
}

/// Needs at least two groups and, in all, more values than groups.
pub fn one_way_anova(groups: &[&[f64]]) -> Result<Anova, StatsError> {
    let k = groups.len();
    if k < 2 {
        return Err(StatsError::TooFewSamples { have: k, need: 2 });
    }
    for g in groups {
        check_finite(g, 1)?;
    }
    let n: usize = groups.iter().map(|g| g.len()).sum();
    if n <= k {
        return Err(StatsError::TooFewSamples {
            have: n,
            need: k + 1,
        });
    }
    let all: Vec<f64> = groups.iter().flat_map(|g| g.iter().copied()).collect();
    let grand = mean(&all);
    let means: Vec<f64> = groups.iter().map(|g| mean(g)).collect();
    let ss_between: f64 = groups
        .iter()
        .zip(&means)
        .map(|(g, m)| g.len() as f64 * (m - grand).powi(2))
        .sum();
    let ss_within: f64 = groups
        .iter()
        .zip(&means)
        .map(|(g, m)| g.iter().map(|x| (x - m).powi(2)).sum::<f64>())
        .sum();
    let (df_b, df_w) = ((k - 1) as f64, (n - k) as f64);
    let (ms_b, ms_w) = (ss_between / df_b, ss_within / df_w);
    let (f, p) = if ms_w == 0.0 {
        if ms_b == 0.0 {
            (0.0, 1.0)
        } else {
            (f64::INFINITY, 0.0)
        }
    } else {
        let f = ms_b / ms_w;
        let dist = FisherSnedecor::new(df_b, df_w).expect("positive degrees of freedom");
        (f, (1.0 - dist.cdf(f)).clamp(0.0, 1.0))
    };
    let mm = mean(&means);
    Ok(Anova {
        f,
        df_between: df_b,
        df_within: df_w,
        p,
        between_sd: (means.iter().map(|m| (m - mm).powi(2)).sum::<f64>() / df_b).sqrt(),
        within_sd: ms_w.sqrt(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_close;

    // Reference: scipy.stats.f_oneway
    //   [10.1,10.3,9.9,10.2], [10.8,11.0,10.7,10.9,11.1], [10.0,10.2,10.1]
    //     -> F 39.0722891566266, p 3.6560288593137644e-05
    //   [1,2,3], [1.5,2.5,2], [2,1,3] -> F 0.0, p 1.0
    #[test]
    fn matches_scipy() {
        let g: [&[f64]; 3] = [
            &[10.1, 10.3, 9.9, 10.2],
            &[10.8, 11.0, 10.7, 10.9, 11.1],
            &[10.0, 10.2, 10.1],
        ];
        let r = one_way_anova(&g).unwrap();
        assert_close(r.f, 39.0722891566266, 1e-10);
        assert_close(r.p, 3.6560288593137644e-05, 1e-6);
        assert_eq!((r.df_between, r.df_within), (2.0, 9.0));
        let g: [&[f64]; 3] = [&[1.0, 2.0, 3.0], &[1.5, 2.5, 2.0], &[2.0, 1.0, 3.0]];
        let r = one_way_anova(&g).unwrap();
        assert_eq!((r.f, r.p), (0.0, 1.0));
    }

    #[test]
    fn needs_two_groups_and_spare_values() {
        assert!(one_way_anova(&[&[1.0, 2.0]]).is_err());
        assert!(one_way_anova(&[&[1.0], &[2.0]]).is_err());
    }
}
