//! Two separate runs compared: each run's interval knows its own noise, not the noise
//! between runs — the machine's state drifting between them, which one run cannot see. Where
//! the benchmark's history on this machine measured it, the ratio's interval is widened by
//! it and the verdict judged again; otherwise the comparison says it is unknown. Either way
//! the runs' own machine findings (a busy machine in either) go with it.
use plumb_model::finding::{AssumedDrift, SeparateRuns};
use plumb_model::quantity::Fraction;
use plumb_model::{Comparison, Diagnostic, Interval, ResultDocument, Severity, Verdict};
use plumb_model::{DiagnosticCode, VerdictReason};
use plumb_stats::{normal_quantile, t_quantile, BetweenRunNoise};

/// "base: busy-machine" for each warning about the machine in either document.
pub fn machine_findings(base: &ResultDocument, new: &ResultDocument) -> Vec<String> {
    let machine = [
        DiagnosticCode::BusyMachine,
        DiagnosticCode::CpuGovernor,
        DiagnosticCode::Turbo,
        DiagnosticCode::NotPinned,
    ];
    let of = |side: &str, d: &ResultDocument| {
        d.diagnostics
            .iter()
            .filter(|x| x.severity >= Severity::Warning && machine.contains(&x.code()))
            .map(|x| format!("{side}: {}", x.code()))
            .collect::<Vec<_>>()
    };
    let mut out = of("base", base);
    out.extend(of("new", new));
    out
}

/// Widens `c`'s ratio interval by `noise` (once for each run: both means carry it) and
/// judges it again at its confidence and SESOI; the note says what it was before.
pub fn widened(
    c: &mut Comparison,
    benchmark: &str,
    noise: &BetweenRunNoise,
    machine: Vec<String>,
) -> Diagnostic {
    let before = (c.ratio_ci, c.verdict);
    if let Some(wide) = widened_interval(c, noise.noise, Some(noise.points)) {
        c.ratio_ci = Some(wide);
        (c.verdict, c.reason) = judged(wide, c.sesoi, c.reason.clone());
    }
    let finding = SeparateRuns::Measured {
        benchmark: benchmark.to_string(),
        noise: noise.noise,
        points: noise.points,
        since: noise.since.clone(),
        interval_within: before.0,
        verdict_within: before.1,
        machine,
    };
    let severity = if before.1 == c.verdict {
        Severity::Info
    } else {
        Severity::Warning
    };
    Diagnostic::new(severity, finding)
}

/// `c`'s ratio interval widened by a drift between runs of `noise` (relative standard
/// deviation of one run's mean), at its confidence: Student's t with one degree of freedom
/// fewer than the `runs` that measured the drift (as `plumb run`'s interval between runs),
/// the normal quantile for a drift taken as known; None without a positive interval.
fn widened_interval(c: &Comparison, noise: f64, runs: Option<usize>) -> Option<Interval> {
    let ci = c.ratio_ci.filter(|i| i.lo > 0.0 && c.ratio > 0.0)?;
    let p = 0.5 + c.level.get() / 2.0;
    let z = normal_quantile(p);
    // On the log scale the two variances add: the run's own and twice the drift's.
    let own = (ci.hi.ln() - ci.lo.ln()) / (2.0 * z);
    let se = (own * own + 2.0 * noise * noise).sqrt();
    let q = runs.map_or(z, |n| t_quantile(p, n as f64 - 1.0));
    Some(Interval {
        lo: c.ratio * (-q * se).exp(),
        hi: c.ratio * (q * se).exp(),
    })
}

/// The drift between two separate runs (relative standard deviation of one run's mean)
/// beyond which `c`'s verdict would no longer hold: what a decisive verdict between runs
/// whose drift nobody measured assumes. None for an undecided verdict, or one that holds
/// whatever the drift (found by bisection against the one decision, to 0.01 %).
pub fn breaking_drift(c: &Comparison) -> Option<f64> {
    let decisive = matches!(
        c.verdict,
        Verdict::Slower | Verdict::Faster | Verdict::Equivalent
    );
    let holds = |noise: f64| {
        widened_interval(c, noise, None)
            .is_some_and(|ci| judged(ci, c.sesoi, c.reason.clone()).0 == c.verdict)
    };
    if !decisive || !holds(0.0) || holds(1.0) {
        return None;
    }
    let (mut lo, mut hi) = (0.0, 1.0);
    while hi - lo > 1e-4 {
        let mid = (lo + hi) / 2.0;
        if holds(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

/// The verdict of a widened ratio interval: beyond the SESOI, within it, or neither.
fn judged(ci: Interval, sesoi: Fraction, reason: VerdictReason) -> (Verdict, VerdictReason) {
    let constant_samples = matches!(
        reason,
        VerdictReason::BeyondSesoi {
            constant_samples: true
        }
    );
    crate::called::by_interval(ci, sesoi.get(), constant_samples)
}

/// The note for separate runs whose between-run noise no history measured: each decisive
/// verdict with the drift between the runs it assumes did not happen (a warning, as a
/// busy machine in either run is).
pub fn unmeasured(comparisons: &[Comparison], machine: Vec<String>) -> Diagnostic {
    let assumed: Vec<AssumedDrift> = comparisons
        .iter()
        .filter_map(|c| {
            Some(AssumedDrift {
                benchmark: c.candidate.clone(),
                verdict: c.verdict,
                drift: breaking_drift(c)?,
            })
        })
        .collect();
    let severity = if machine.is_empty() && assumed.is_empty() {
        Severity::Info
    } else {
        Severity::Warning
    };
    Diagnostic::new(severity, SeparateRuns::Unmeasured { machine, assumed })
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::quantity::{Confidence, Fraction};

    fn compared(ratio: f64, lo: f64, hi: f64, verdict: Verdict) -> Comparison {
        let mut c = Comparison::unjudged("a", "a", Confidence::DEFAULT, Fraction::DEFAULT_SESOI);
        c.ratio = ratio;
        c.ratio_ci = Some(Interval { lo, hi });
        c.verdict = verdict;
        c.reason = VerdictReason::BeyondSesoi {
            constant_samples: false,
        };
        c
    }

    /// Reference (scipy 1.16.3's norm.ppf and t.ppf, the rest by hand): 99.9 % (z =
    /// 3.2905267), ratio 1.04 in [1.031, 1.049] → own log-se (ln 1.049 − ln 1.031)/(2z) =
    /// 0.00262999; with 2 % between runs se = √(0.00262999² + 2·0.02²) = 0.0284063, and
    /// the drift measured over 30 runs, t.ppf(0.9995, 29) = 3.6594050, so
    /// [1.04·e^(−t·se), 1.04·e^(t·se)] = [0.9373211, 1.1539269]: no longer slower beyond
    /// 2 %, and 1 is inside: not shown.
    #[test]
    fn a_difference_inside_the_noise_between_runs_is_no_verdict() {
        let mut c = compared(1.04, 1.031, 1.049, Verdict::Slower);
        let noise = BetweenRunNoise {
            noise: 0.02,
            points: 30,
            since: "abc".into(),
            mean: 1.0,
        };
        let d = widened(&mut c, "a", &noise, vec![]);
        let ci = c.ratio_ci.unwrap();
        assert!(
            (ci.lo - 0.9373211).abs() < 1e-6 && (ci.hi - 1.1539269).abs() < 1e-6,
            "{ci:?}"
        );
        assert_eq!(c.verdict, Verdict::Inconclusive);
        assert_eq!(c.reason, VerdictReason::NotShown);
        assert_eq!(d.severity, Severity::Warning);
        // A difference far beyond the noise stays what it was.
        let mut big = compared(1.5, 1.49, 1.51, Verdict::Slower);
        let d = widened(&mut big, "a", &noise, vec![]);
        assert_eq!(big.verdict, Verdict::Slower);
        assert_eq!(d.severity, Severity::Info);
    }

    /// Reference (scipy 1.16.3's norm.ppf(0.9995) = 3.2905267): ×1.20 in [1.19, 1.21] has an
    /// own log-se of (ln 1.21 − ln 1.19)/(2z) = 0.0025326; it stays beyond 1.02 while
    /// z·√(own² + 2σ²) < ln(1.2/1.02), so up to σ = 0.0348780. ×1.00 in [0.995, 1.005] stays
    /// equivalent within ±2 % up to σ = 0.0041175. An inconclusive verdict assumes nothing.
    #[test]
    fn a_verdict_between_unmeasured_runs_says_the_drift_it_assumes() {
        let slower = compared(1.20, 1.19, 1.21, Verdict::Slower);
        let drift = breaking_drift(&slower).unwrap();
        assert!((drift - 0.0348780).abs() < 1e-4, "{drift}");
        let mut same = compared(1.0, 0.995, 1.005, Verdict::Equivalent);
        same.reason = VerdictReason::WithinSesoi;
        let drift = breaking_drift(&same).unwrap();
        assert!((drift - 0.0041175).abs() < 1e-4, "{drift}");
        let unsure = compared(1.01, 0.99, 1.03, Verdict::Inconclusive);
        assert_eq!(breaking_drift(&unsure), None);
        let d = unmeasured(&[slower, unsure], vec![]);
        assert_eq!(d.severity, Severity::Warning);
        let d = unmeasured(&[], vec![]);
        assert_eq!(d.severity, Severity::Info);
    }
}
