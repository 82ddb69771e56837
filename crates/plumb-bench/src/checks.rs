//! Enemy checks that only an in-process harness can make: dead code, results that differ,
//! suspicious speed-ups, allocation in the timed loop, no steady state, a working set
//! beyond the caches, and noise between identical variants. They add to the diagnostics
//! the shared analysis already made (precision, outliers, modality, drift).

use crate::registry::GroupOptions;
use plumb_model::format;
use plumb_model::quantity::{ByteSize, Duration};
use plumb_model::{
    Benchmark, Comparison, Diagnostic, DiagnosticCode, FunctionInfo, Metric, ProducerSettings,
    ResultDocument, Severity, Verdict,
};
use std::collections::BTreeMap;

/// Below this per-op time the routine did less than one CPU cycle of work per operation.
const ONE_CYCLE_FALLBACK_GHZ: f64 = 5.0;

type Found = BTreeMap<String, Vec<Diagnostic>>;

pub(crate) fn apply(doc: &mut ResultDocument, options: &BTreeMap<String, GroupOptions>) {
    let mut found = Found::new();
    let mut add = |name: &str, d: Diagnostic| found.entry(name.to_string()).or_default().push(d);
    for b in &doc.benchmarks {
        for d in benchmark_checks(doc, b) {
            add(&b.name, d);
        }
    }
    for g in options
        .iter()
        .filter(|(_, o)| o.same_result)
        .map(|(g, _)| g)
    {
        let members: Vec<&Benchmark> = doc
            .benchmarks
            .iter()
            .filter(|b| b.name.starts_with(&format!("{g}/")))
            .collect();
        for (name, d) in result_checks(&members) {
            add(&name, d);
        }
    }
    for c in &doc.comparisons {
        if let Some(d) = comparison_check(doc, c, options) {
            add(&c.candidate, d);
        }
    }
    attach(doc, found);
}

/// The harness's checks of one benchmark.
fn benchmark_checks(doc: &ResultDocument, b: &Benchmark) -> Vec<Diagnostic> {
    let Some(info) = &b.function else {
        return Vec::new();
    };
    if let Some(f) = &info.failure {
        return vec![Diagnostic::new(
            DiagnosticCode::Failed,
            Severity::Error,
            format!("the benchmark failed: {f}"),
        )];
    }
    let level = doc.settings.confidence.get();
    let min_sample = match &doc.settings.producer {
        ProducerSettings::InProcess(s) => Some(s.min_sample.as_nanos_f64()),
        _ => None,
    };
    [
        dead_code(b, &info.empty_body_samples, one_cycle(doc), level),
        short_samples(b, min_sample),
        imprecise(b, info, level),
        allocates(b),
        warmup(info),
        working_set(b, &last_levels(doc)),
    ]
    .into_iter()
    .flatten()
    .collect()
}

fn allocates(b: &Benchmark) -> Option<Diagnostic> {
    let per_op = |m: &Metric| b.stats(m).map(|s| s.summary.mean);
    let a = per_op(&Metric::Allocations).filter(|&a| a > 0.0)?;
    let bytes = per_op(&Metric::AllocatedBytes).unwrap_or(0.0);
    Some(
        Diagnostic::new(
            DiagnosticCode::Allocates,
            Severity::Warning,
            format!(
                "allocates {} times ({}) per operation inside the timed loop: the allocator is part of what is measured",
                format::count(a),
                format::value(plumb_model::Unit::Bytes, bytes)
            ),
        )
        .evidence("allocs_per_op", a)
        .evidence("bytes_per_op", bytes)
        .advice("preallocate in setup (or iter_batched) if the allocation is not the subject"),
    )
}

fn warmup(info: &FunctionInfo) -> Option<Diagnostic> {
    if info.warmup && !info.steady_state {
        Some(
            Diagnostic::new(
                DiagnosticCode::NoSteadyState,
                Severity::Warning,
                format!(
                    "warm-up did not reach a steady state in {}: successive windows still differed by more than 2 %",
                    format::time(info.warmup_time)
                ),
            )
            .evidence("warmup_ns", info.warmup_time.as_nanos())
            .advice("raise --warmup-cap, or look for state that grows between iterations"),
        )
    } else if !info.warmup {
        Some(Diagnostic::new(
            DiagnosticCode::NoWarmup,
            Severity::Info,
            "warm-up was disabled: cold iterations are in the samples",
        ))
    } else {
        None
    }
}

fn working_set(b: &Benchmark, caches: &[(String, u64)]) -> Option<Diagnostic> {
    let bytes = b.working_set?.0;
    let (name, size) = caches.last()?;
    (bytes > *size).then(|| {
        Diagnostic::new(
            DiagnosticCode::WorkingSet,
            Severity::Warning,
            format!(
                "the working set ({}) exceeds the {name} ({}): this measures memory, not cache",
                format::bytes(ByteSize(bytes)),
                format::bytes(ByteSize(*size))
            ),
        )
        .evidence("working_set_bytes", bytes)
        .evidence("last_level_cache_bytes", *size)
        .advice("compare with sizes below each cache level (plumb_bench::sizes_across_caches)")
    })
}

/// Identical variants should agree; a different variant 2× faster should be checked.
fn comparison_check(
    doc: &ResultDocument,
    c: &Comparison,
    options: &BTreeMap<String, GroupOptions>,
) -> Option<Diagnostic> {
    let group = doc
        .benchmark(&c.candidate)
        .and_then(|b| b.name.split('/').next().map(str::to_string));
    let identical = group
        .as_ref()
        .and_then(|g| options.get(g))
        .is_some_and(|o| o.identical);
    if identical {
        return identical_apart(c);
    }
    (c.ratio.is_finite() && c.ratio <= 0.5 && c.verdict == Verdict::Faster).then(|| {
        Diagnostic::new(
            DiagnosticCode::CheckTheWork,
            Severity::Warning,
            format!(
                "{:.1}× faster than {}: if a change makes a routine 2× faster, check that it still does the work",
                1.0 / c.ratio,
                c.baseline
            ),
        )
        .evidence("ratio", c.ratio)
        .advice("compare results (same_result + iter_checked), and the inputs: sorted data, a smaller table, a skipped branch")
    })
}

/// Adds what was found to each benchmark's diagnostics and drops what a finding makes
/// redundant.
fn attach(doc: &mut ResultDocument, mut found: Found) {
    for b in &mut doc.benchmarks {
        if let Some(ds) = found.remove(&b.name) {
            b.diagnostics.extend(ds);
            for (finding, redundant) in SUPERSEDES {
                if b.diagnostics.iter().any(|d| d.code == finding) {
                    b.diagnostics.retain(|d| !redundant.contains(&d.code));
                }
            }
        }
    }
}

/// A finding and the diagnostics it makes redundant, from the analysis and the harness
/// alike: symptoms it explains, or its own figure said again.
const SUPERSEDES: [(DiagnosticCode, &[DiagnosticCode]); 2] = [
    // A deleted loop's samples are clock noise around zero: their shape (spread,
    // outliers, modes, drift, interval width), shortness and imprecision describe the
    // clock, and "N× faster, check the work" is the same finding again.
    (
        DiagnosticCode::NothingMeasured,
        &[
            DiagnosticCode::HighCv,
            DiagnosticCode::Outliers,
            DiagnosticCode::Multimodal,
            DiagnosticCode::WideCi,
            DiagnosticCode::Drift,
            DiagnosticCode::ColdStart,
            DiagnosticCode::ShortSamples,
            DiagnosticCode::Imprecise,
            DiagnosticCode::CheckTheWork,
        ],
    ),
    // `imprecise` gives the interval's width and why sampling stopped there.
    (DiagnosticCode::Imprecise, &[DiagnosticCode::WideCi]),
];

/// Identical code should be measured equivalent; when it is not, the machine's noise is
/// the only difference there is. Either it made a difference beyond the SESOI (a verdict,
/// or an interval that excludes 1 around an estimate beyond the SESOI), or it left the
/// ratio so uncertain that a change of the SESOI's size could hide in it.
fn identical_apart(c: &plumb_model::Comparison) -> Option<Diagnostic> {
    let ci = c.ratio_ci;
    let real_and_large =
        ci.is_some_and(|ci| ci.lo > 1.0 || ci.hi < 1.0) && (c.ratio - 1.0).abs() > c.sesoi.get();
    let message = if matches!(c.verdict, Verdict::Faster | Verdict::Slower) || real_and_large {
        format!(
            "identical code measured {:+.1}% apart from {} (verdict {}): that is the machine's noise",
            100.0 * (c.ratio - 1.0),
            c.baseline,
            c.verdict
        )
    } else if c.verdict != Verdict::Equivalent {
        // Inside ±SESOI yet not shown equivalent is TOST's stricter level, not noise.
        let ci = ci.filter(|ci| ci.lo < 1.0 - c.sesoi.get() || ci.hi > 1.0 + c.sesoi.get())?;
        format!(
            "identical code could not be shown equivalent to {}: the ratio could be anywhere in ×{:.3}–×{:.3}, wider than the ±{} that matters; the machine's noise hides smaller differences",
            c.baseline,
            ci.lo,
            ci.hi,
            c.sesoi
        )
    } else {
        return None;
    };
    Some(
        Diagnostic::new(DiagnosticCode::Noise, Severity::Warning, message)
            .evidence("ratio", c.ratio)
            .evidence("ratio_lo", ci.map_or(f64::NAN, |i| i.lo))
            .evidence("ratio_hi", ci.map_or(f64::NAN, |i| i.hi))
            .advice(
                "pin the process (--pin), quieten the machine (plumb env), or run more samples",
            ),
    )
}

/// "Nothing measured?": per-op times whose ranks are indistinguishable from an empty
/// body's (Mann–Whitney, robust to the rare slow sample a real routine may have), or a
/// median per-op time below one CPU cycle.
/// `empty_per_call`: the empty body's samples, per call of the routine.
fn dead_code(
    b: &Benchmark,
    empty_per_call: &[Duration],
    cycle: Duration,
    level: f64,
) -> Option<Diagnostic> {
    let times = b.analysed_times_ns();
    if times.len() < 2 {
        return None;
    }
    let ops = b.function.as_ref().map_or(1, |f| f.ops_per_iter.max(1)) as f64;
    let empty: Vec<f64> = empty_per_call
        .iter()
        .map(|d| d.as_nanos_f64() / ops)
        .collect();
    let empty = empty.as_slice();
    let median = plumb_stats::Summary::of(&times).ok()?.median;
    let empty = Some(empty).filter(|e| e.len() >= 2);
    let same_as_empty = empty
        .and_then(|e| plumb_stats::mann_whitney_u(&times, e).ok())
        .map(|t| t.p >= 1.0 - level);
    let empty_median = empty
        .and_then(|e| plumb_stats::Summary::of(e).ok())
        .map(|s| s.median);
    // A cycle is compared with the time of one call of the routine, not of one of its
    // operations: a vectorised routine can do many operations in a cycle.
    let cycle_ns = cycle.as_nanos_f64();
    let below_cycle = median * ops < cycle_ns;
    if !(below_cycle || same_as_empty == Some(true)) {
        return None;
    }
    let why = if same_as_empty == Some(true) {
        format!(
            "{} per op is indistinguishable from an empty body ({})",
            format::time_ns(median),
            format::time_ns(empty_median.unwrap_or(f64::NAN))
        )
    } else {
        format!(
            "{} per op is less than one CPU cycle ({})",
            format::time_ns(median),
            format::time_ns(cycle_ns)
        )
    };
    Some(
        Diagnostic::new(
            DiagnosticCode::NothingMeasured,
            Severity::Warning,
            format!("nothing measured? {why}: the compiler may have deleted the work"),
        )
        .evidence("median_per_op_ns", median)
        .evidence("empty_body_median_ns", empty_median.unwrap_or(f64::NAN))
        .evidence("cycle_ns", cycle_ns)
        .advice("return the result from the closure (it is black_boxed) and pass inputs through black_box"),
    )
}

/// Samples shorter than the clock needs (iter_batched with a costly setup bounds the
/// batch): clock resolution and read cost are then a visible part of each figure.
fn short_samples(b: &Benchmark, min_sample_ns: Option<f64>) -> Option<Diagnostic> {
    let min = min_sample_ns?;
    let mut walls: Vec<f64> = b
        .samples
        .values(&Metric::WallTime)
        .unwrap_or_default()
        .iter()
        .map(|&ns| ns as f64)
        .collect();
    if walls.is_empty() {
        return None;
    }
    walls.sort_by(f64::total_cmp);
    let median = plumb_stats::median_of_sorted(&walls);
    (median < min).then(|| {
        Diagnostic::new(
            DiagnosticCode::ShortSamples,
            Severity::Warning,
            format!(
                "samples last {} (median), under the {} the clock needs: its resolution and read cost are part of each figure",
                format::time_ns(median),
                format::time_ns(min)
            ),
        )
        .evidence("median_sample_ns", median)
        .evidence("min_sample_ns", min)
        .advice("make the setup cheaper, or time several operations per input (ops_per_iter)")
    })
}

/// Sampling reached a cap before the mean was pinned down to the target: the times vary
/// too much for it, within samples or (what the batch-means interval sees and the
/// ordinary one would not) over the run.
fn imprecise(b: &Benchmark, info: &FunctionInfo, level: f64) -> Option<Diagnostic> {
    let (target, error) = (info.target_error?.get(), info.batch_means_error?);
    if error <= target {
        return None;
    }
    let cap = if info.precision_stop == Some(plumb_model::PrecisionStop::SampleCap) {
        "sample cap"
    } else {
        "time cap"
    };
    let walls = b.samples.values(&Metric::WallTime).unwrap_or_default();
    let spent = Duration::from_nanos(walls.iter().sum::<u64>());
    let spent_s = spent.as_secs_f64();
    Some(
        Diagnostic::new(
            DiagnosticCode::Imprecise,
            Severity::Warning,
            format!(
                "sampling stopped at the {cap} after {} of samples with the mean known to ±{:.1}% (batch means, {}), short of the ±{:.1}% target: the times vary too much for it (a noisy routine, or a machine that changed speed during the run)",
                format::time(spent),
                100.0 * error,
                format::percent(level),
                100.0 * target
            ),
        )
        .evidence("batch_means_error", error)
        .evidence("target_error", target)
        .evidence("samples_s", spent_s)
        .advice("raise --max-measure-time, quieten the machine (plumb env), or repeat in fresh processes (--launches)"),
    )
}

fn result_checks(members: &[&Benchmark]) -> Vec<(String, Diagnostic)> {
    let mut out = Vec::new();
    let reference = members
        .iter()
        .find(|b| b.baseline)
        .or(members.first())
        .and_then(|b| {
            b.function
                .as_ref()?
                .result
                .clone()
                .map(|r| (b.name.clone(), r))
        });
    for b in members {
        let Some(info) = &b.function else { continue };
        if info.failure.is_some() {
            continue;
        }
        match (&info.result, &reference) {
            (None, _) => out.push((
                b.name.clone(),
                Diagnostic::new(
                    DiagnosticCode::ResultUnchecked,
                    Severity::Error,
                    "the group declares same_result but this variant did not use iter_checked",
                ),
            )),
            (Some(r), Some((ref_name, ref_result))) if r != ref_result => out.push((
                b.name.clone(),
                Diagnostic::new(
                    DiagnosticCode::WrongResult,
                    Severity::Error,
                    format!(
                        "returns {} but {ref_name} returns {}: it does not compute the same thing",
                        short(r),
                        short(ref_result)
                    ),
                )
                .evidence("result", r.as_str())
                .evidence("expected", ref_result.as_str()),
            )),
            _ => {}
        }
    }
    out
}

fn short(s: &str) -> String {
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s.to_string()
    }
}

/// One cycle of this machine's CPU: the TSC's calibrated rate, else the clock
/// `/proc/cpuinfo` reports, else a fallback.
fn one_cycle(doc: &ResultDocument) -> Duration {
    let ghz = doc
        .clock
        .as_ref()
        .and_then(|c| c.tsc_frequency.map(|f| f.per_nanosecond()))
        .or(doc.environment.cpu_mhz.map(|m| m / 1000.0))
        .filter(|g| *g > 0.1)
        .unwrap_or(ONE_CYCLE_FALLBACK_GHZ);
    Duration::from_nanos_f64(1.0 / ghz)
}

/// Data and unified caches by level, smallest first: (name, bytes).
fn last_levels(doc: &ResultDocument) -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = doc
        .environment
        .caches
        .iter()
        .filter(|c| c.kind != "Instruction")
        .map(|c| (format!("L{} cache", c.level), c.size.0))
        .collect();
    v.sort_by_key(|(_, s)| *s);
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::{BenchmarkKind, Invocation, Settings};

    fn doc_with(b: Benchmark) -> ResultDocument {
        let mut doc = ResultDocument::new(
            "test",
            Invocation::current(),
            Default::default(),
            Settings {
                confidence: plumb_model::quantity::Confidence::DEFAULT,
                sesoi: plumb_model::quantity::Fraction::DEFAULT_SESOI,
                producer: ProducerSettings::None,
            },
        );
        doc.benchmarks.push(b);
        doc
    }

    fn function(name: &str, per_op_ns: &[f64], empty_ns: f64) -> Benchmark {
        // 1e6 iterations per sample; wall in whole ns.
        let mut b = Benchmark::of_wall_times_per(
            name,
            BenchmarkKind::Function,
            per_op_ns
                .iter()
                .map(|&t| (1_000_000, (t * 1e6).round() as u64)),
        );
        b.function = Some(FunctionInfo {
            ops_per_iter: 1,
            empty_body_samples: vec![Duration::from_nanos_f64(empty_ns); 12],
            warmup: true,
            steady_state: true,
            ..Default::default()
        });
        // As the shared analysis would have said about these samples.
        b.diagnostics = vec![
            Diagnostic::new(DiagnosticCode::HighCv, Severity::Warning, "noisy"),
            Diagnostic::new(DiagnosticCode::Outliers, Severity::Warning, "outliers"),
            Diagnostic::new(DiagnosticCode::BusyMachine, Severity::Warning, "busy"),
        ];
        b
    }

    fn codes(doc: &ResultDocument) -> Vec<&str> {
        doc.benchmarks[0]
            .diagnostics
            .iter()
            .map(|d| d.code.as_str())
            .collect()
    }

    #[test]
    fn a_deleted_loop_is_reported_without_the_shape_of_its_clock_noise() {
        // 1e-6 ns per op: far below a cycle at any clock rate.
        let mut doc = doc_with(function("deleted", &[1e-6; 20], 0.3));
        apply(&mut doc, &BTreeMap::new());
        assert_eq!(codes(&doc), ["busy-machine", "nothing-measured"]);
    }

    fn with_precision(mut b: Benchmark, target: f64, error: f64) -> Benchmark {
        let info = b.function.as_mut().unwrap();
        info.target_error = plumb_model::quantity::Fraction::new(target);
        info.batch_means_error = Some(error);
        b
    }

    #[test]
    fn a_target_missed_at_the_cap_is_reported_with_its_figures() {
        let times: Vec<f64> = (0..20).map(|i| 5.0 + 0.01 * i as f64).collect();
        let mut b = with_precision(function("real", &times, 0.3), 0.02, 0.05);
        b.diagnostics.push(Diagnostic::new(
            DiagnosticCode::WideCi,
            Severity::Warning,
            "±5.0%",
        ));
        let mut doc = doc_with(b);
        apply(&mut doc, &BTreeMap::new());
        // The width is said once, by the diagnostic that also says why sampling stopped.
        assert!(!codes(&doc).contains(&"wide-ci"), "{:?}", codes(&doc));
        let d = doc.benchmarks[0]
            .diagnostics
            .iter()
            .find(|d| d.code == DiagnosticCode::Imprecise)
            .expect("imprecise");
        assert!(d.message.contains("at the time cap"), "{}", d.message);
        assert!(
            d.message.contains("±5.0% (batch means, 99.9%)"),
            "{}",
            d.message
        );
        assert!(d.message.contains("±2.0% target"), "{}", d.message);

        for (name, times, error) in [
            ("met", times.clone(), 0.019),
            ("deleted", vec![1e-6; 20], 0.5),
        ] {
            let mut doc = doc_with(with_precision(function(name, &times, 0.3), 0.02, error));
            apply(&mut doc, &BTreeMap::new());
            assert!(
                !codes(&doc).contains(&"imprecise"),
                "{name}: {:?}",
                codes(&doc)
            );
        }
    }

    fn identical_pair(verdict: Verdict, ratio: f64, lo: f64, hi: f64) -> plumb_model::Comparison {
        plumb_model::Comparison {
            verdict,
            ratio,
            ratio_ci: Some(plumb_stats::Interval { lo, hi }),
            ..plumb_model::Comparison::unjudged(
                "g/a",
                "g/b",
                plumb_model::quantity::Confidence::DEFAULT,
                plumb_model::quantity::Fraction::DEFAULT_SESOI,
            )
        }
    }

    #[test]
    fn identical_code_not_measured_equivalent_is_the_machines_noise() {
        let apart = identical_apart(&identical_pair(Verdict::Slower, 1.048, 1.031, 1.066));
        assert!(apart.unwrap().message.contains("+4.8% apart"));
        // Real (the interval excludes 1) and estimated beyond the SESOI, size unsettled.
        let apart = identical_apart(&identical_pair(Verdict::Inconclusive, 1.032, 1.006, 1.058));
        assert!(apart.unwrap().message.contains("+3.2% apart"));
        // So uncertain that nothing can be said: that too is the machine.
        let wide = identical_apart(&identical_pair(Verdict::Inconclusive, 1.42, 0.784, 2.061));
        let m = wide.unwrap().message;
        assert!(
            m.contains("×0.784–×2.061, wider than the ±2% that matters"),
            "{m}"
        );
        assert!(
            identical_apart(&identical_pair(Verdict::Equivalent, 0.998, 0.983, 1.014)).is_none()
        );
    }

    #[test]
    fn a_real_routine_keeps_what_the_analysis_said() {
        // 5 ns per op, well above a cycle and the 0.3 ns empty body.
        let times: Vec<f64> = (0..20).map(|i| 5.0 + 0.01 * i as f64).collect();
        let mut doc = doc_with(function("real", &times, 0.3));
        apply(&mut doc, &BTreeMap::new());
        assert_eq!(codes(&doc), ["high-cv", "outliers", "busy-machine"]);
    }
}
