//! The verdict logic: is the candidate faster, slower, equivalent or is it unclear?
//!
//! Written here rather than taken from a crate because it *is* the product. The rule:
//!
//! * **different** when both Welch's t-test (means) and Mann–Whitney U (ranks) reject
//!   "no difference" at α = 1 - level. Requiring both keeps a few outliers (which move
//!   Welch) or a shape change (which moves Mann–Whitney) from deciding alone.
//! * **equivalent** when TOST shows the difference of means within ±SESOI × mean(base)
//!   at α.
//! * faster / slower: different, not equivalent, and the ratio's point estimate lies
//!   beyond 1 ± SESOI: a real change at least as large as the user said matters.
//! * equivalent: shown within ±SESOI (a smaller real difference may exist; the reason
//!   says so).
//! * inconclusive: everything else — too few samples, too much noise, or a real
//!   difference whose size against the SESOI the data cannot settle.

use plumb_model::{Benchmark, Comparison, Verdict};
use plumb_stats::{
    cohens_d, hodges_lehmann, mann_whitney_u, ratio_of_means, tost_welch, welch_t_test,
};

pub fn compare(base: &Benchmark, cand: &Benchmark, level: f64, sesoi: f64) -> Comparison {
    let (x, y) = (base.analysed_times_ns(), cand.analysed_times_ns());
    let mut c = Comparison {
        baseline: base.name.clone(),
        candidate: cand.name.clone(),
        verdict: Verdict::Inconclusive,
        reason: String::new(),
        ratio: f64::NAN,
        ratio_ci: None,
        ratio_sd: f64::NAN,
        level,
        sesoi,
        welch_p: f64::NAN,
        mann_whitney_p: f64::NAN,
        tost_p: f64::NAN,
        cohens_d: f64::NAN,
        hodges_lehmann_ns: f64::NAN,
    };
    let (Ok(ratio), Ok(welch), Ok(mw), Ok(d), Ok(hl)) = (
        ratio_of_means(&x, &y, level),
        welch_t_test(&y, &x),
        mann_whitney_u(&y, &x),
        cohens_d(&x, &y),
        hodges_lehmann(&x, &y),
    ) else {
        c.reason = format!(
            "too few samples to compare ({} and {}; at least 2 each)",
            x.len(),
            y.len()
        );
        return c;
    };
    let base_mean = x.iter().sum::<f64>() / x.len() as f64;
    let tost = tost_welch(&x, &y, sesoi * base_mean.abs()).expect("sizes checked above");
    c.ratio = ratio.ratio;
    c.ratio_ci = ratio.interval;
    c.ratio_sd = ratio.ratio_sd;
    c.welch_p = welch.p;
    c.mann_whitney_p = mw.p;
    c.tost_p = tost.p;
    c.cohens_d = d;
    c.hodges_lehmann_ns = hl;

    let alpha = 1.0 - level;
    let different = welch.p < alpha && mw.p < alpha;
    let equivalent = tost.p < alpha;
    let beyond = (ratio.ratio - 1.0).abs() > sesoi;
    let change = format!("{:+.1}%", 100.0 * (ratio.ratio - 1.0));
    let sesoi_s = format!("±{}%", fmt_pct(sesoi));
    let p_pair = format!("Welch p{}, Mann-Whitney p{}", fmt_p(welch.p), fmt_p(mw.p));
    (c.verdict, c.reason) = if different && !equivalent && beyond {
        let v = if ratio.ratio < 1.0 {
            Verdict::Faster
        } else {
            Verdict::Slower
        };
        (
            v,
            format!("{change}, beyond the SESOI of {sesoi_s}; {p_pair}, both < α={alpha:.0e}"),
        )
    } else if equivalent {
        let real = if different {
            format!("; a {change} difference is real ({p_pair}) but smaller than what matters")
        } else {
            String::new()
        };
        (
            Verdict::Equivalent,
            format!(
                "within {sesoi_s} (TOST p{} < α={alpha:.0e}){real}",
                fmt_p(tost.p)
            ),
        )
    } else if different {
        (
            Verdict::Inconclusive,
            format!(
                "a {change} difference is real ({p_pair}) but the data cannot tell whether it exceeds {sesoi_s} (TOST p{}); more runs will",
                fmt_p(tost.p)
            ),
        )
    } else {
        (
            Verdict::Inconclusive,
            format!(
                "no significant difference ({p_pair}) and not shown within {sesoi_s} (TOST p{}): too noisy or too few runs to say",
                fmt_p(tost.p)
            ),
        )
    };
    c
}

/// `=1.2e-5`, or `<1e-15` below what the distribution functions resolve.
fn fmt_p(p: f64) -> String {
    if p < 1e-15 {
        "<1e-15".to_string()
    } else {
        format!("={p:.2e}")
    }
}

fn fmt_pct(x: f64) -> String {
    let s = format!("{:.2}", 100.0 * x);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::{BenchmarkKind, Sample};

    fn bench(name: &str, times: impl IntoIterator<Item = f64>) -> Benchmark {
        let mut b = Benchmark::new(name, BenchmarkKind::Command);
        b.samples = times.into_iter().map(|t| Sample::wall(t as u64)).collect();
        b
    }

    /// A fixed, symmetric jitter pattern in ‰ (sums to 0, sd ≈ 0.6 %): the same shape for
    /// every sample, so results depend only on the means we set.
    fn around(mean: f64, n: usize, spread_permille: f64) -> Vec<f64> {
        let pattern = [-8.0, -5.0, -3.0, -1.0, 0.0, 0.0, 1.0, 3.0, 5.0, 8.0];
        (0..n)
            .map(|i| mean * (1.0 + spread_permille * pattern[i % 10] / 8000.0))
            .collect()
    }

    #[test]
    fn ten_percent_slower_is_slower() {
        let c = compare(
            &bench("a", around(1e6, 50, 10.0)),
            &bench("b", around(1.1e6, 50, 10.0)),
            0.999,
            0.02,
        );
        assert_eq!(c.verdict, Verdict::Slower, "{}", c.reason);
        assert!(
            (c.ratio - 1.1).abs() < 1e-6,
            "samples are whole ns: {}",
            c.ratio
        );
        let ci = c.ratio_ci.unwrap();
        assert!(ci.lo > 1.0 && ci.hi < 1.2 && ci.contains(1.1));
    }

    #[test]
    fn ten_percent_faster_is_faster() {
        let c = compare(
            &bench("a", around(1e6, 50, 10.0)),
            &bench("b", around(0.9e6, 50, 10.0)),
            0.999,
            0.02,
        );
        assert_eq!(c.verdict, Verdict::Faster, "{}", c.reason);
    }

    #[test]
    fn half_percent_with_tight_data_is_equivalent_but_said_real() {
        let c = compare(
            &bench("a", around(1e6, 200, 2.0)),
            &bench("b", around(1.005e6, 200, 2.0)),
            0.999,
            0.02,
        );
        assert_eq!(c.verdict, Verdict::Equivalent, "{}", c.reason);
        assert!(c.reason.contains("is real"), "{}", c.reason);
    }

    #[test]
    fn identical_is_equivalent() {
        let c = compare(
            &bench("a", around(1e6, 30, 10.0)),
            &bench("b", around(1e6, 30, 10.0)),
            0.999,
            0.02,
        );
        assert_eq!(c.verdict, Verdict::Equivalent, "{}", c.reason);
    }

    #[test]
    fn noisy_small_samples_are_inconclusive() {
        // ±40 % spread, 5 samples, a 5 % shift: nothing can be said.
        let c = compare(
            &bench("a", around(1e6, 5, 400.0)),
            &bench("b", around(1.05e6, 5, 400.0)),
            0.999,
            0.02,
        );
        assert_eq!(c.verdict, Verdict::Inconclusive, "{}", c.reason);
    }

    #[test]
    fn too_few_samples_is_inconclusive_not_a_panic() {
        let c = compare(&bench("a", [1.0]), &bench("b", [2.0, 3.0]), 0.999, 0.02);
        assert_eq!(c.verdict, Verdict::Inconclusive);
        assert!(c.reason.contains("too few"));
    }
}
