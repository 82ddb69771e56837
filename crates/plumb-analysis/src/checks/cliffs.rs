//! Cache cliffs: along a sweep (the benchmarks of one series, by working set), where the
//! time per operation jumps between two neighbouring working sets, by how much, and
//! which of this machine's caches lies between them.

use super::sig4;
use plumb_model::format;
use plumb_model::quantity::ByteSize;
use plumb_model::sweep::{cache_marks, sweeps, CacheMark};
use plumb_model::{
    Benchmark, Comparison, Diagnostic, DiagnosticCode, Metric, ResultDocument, Severity, Unit,
    Verdict,
};

/// A step of at least this ratio between neighbouring working sets is a cliff, when the
/// larger is judged slower than the smaller (the whole interval of their ratio beyond
/// the run's smallest effect, at its confidence, as every verdict). A cache level
/// passed typically costs 2× or more (L1 to L2 about 3×, into DRAM 5–10×); 30 % keeps a
/// partial step (a working set that half fits) and leaves noise alone.
const JUMP: f64 = 1.3;

/// Miss counters shown beside a cliff when both points have them: (name, metric).
const MISSES: [(&str, Metric); 4] = [
    ("d1_misses", Metric::D1Misses),
    ("ll_misses", Metric::LlMisses),
    ("l1d_load_misses", Metric::L1dLoadMisses),
    ("llc_load_misses", Metric::LlcLoadMisses),
];

/// Adds a `cache-cliff` diagnostic to the upper point of every cliff in `doc`'s sweeps.
pub fn check(doc: &mut ResultDocument, metric: &Metric) {
    let marks = cache_marks(&doc.environment);
    let (level, sesoi) = (doc.settings.confidence, doc.settings.sesoi);
    let mut found = Vec::new();
    for sweep in sweeps(&doc.benchmarks) {
        for pair in sweep.points.windows(2) {
            let (a, b) = (&doc.benchmarks[pair[0]], &doc.benchmarks[pair[1]]);
            let judged = crate::judge(a, b, metric, level, sesoi);
            if judged.verdict != Verdict::Slower || judged.ratio < JUMP {
                continue;
            }
            if let Some(d) = cliff(a, b, &judged, &marks) {
                found.push((pair[1], d));
            }
        }
    }
    for (i, d) in found {
        doc.benchmarks[i].diagnostics.push(d);
    }
}

/// The diagnostic of a step judged a cliff (`judged`: `b` against `a`).
fn cliff(
    a: &Benchmark,
    b: &Benchmark,
    judged: &Comparison,
    marks: &[CacheMark],
) -> Option<Diagnostic> {
    let metric = &judged.metric;
    let (ta, tb) = (a.stats(metric)?.summary.mean, b.stats(metric)?.summary.mean);
    let ratio = judged.ratio;
    let (wa, wb) = (a.working_set?, b.working_set?);
    let passed: Vec<&CacheMark> = marks
        .iter()
        .filter(|m| wa <= m.size && m.size <= wb)
        .collect();
    let unit = a.metrics.get(metric).map_or(Unit::Count, |i| i.unit);
    let value = |v: f64| format::value(unit, v);
    let place = place(&passed, marks, wb, ratio);
    let mut d = Diagnostic::new(
        DiagnosticCode::CacheCliff,
        Severity::Warning,
        format!(
            "{} per operation ×{ratio:.2} from {} to {} ({} → {}): {place}",
            metric.label(),
            bytes(wa),
            bytes(wb),
            value(ta),
            value(tb)
        ),
    )
    .evidence("from_bytes", wa.0)
    .evidence("to_bytes", wb.0)
    .evidence("ratio", sig4(ratio))
    .evidence(
        "ratio_ci",
        judged
            .ratio_ci
            .map_or_else(Vec::new, |c| vec![sig4(c.lo), sig4(c.hi)]),
    )
    .evidence("from_benchmark", a.name.clone())
    .evidence(
        "caches_passed",
        passed.iter().map(|m| m.name.clone()).collect::<Vec<_>>(),
    )
    .advice(match passed.last() {
        Some(m) => format!(
            "to stay under the {} keep the working set below {} (block or tile the loop, smaller elements); otherwise benchmark at the sizes the real workload has",
            m.name,
            bytes(m.size)
        ),
        None => "compare with a sweep in finer steps around these sizes, and with huge pages (TLB reach)".to_string(),
    });
    for (name, m) in &MISSES {
        if let (Some((x, _)), Some((y, _))) = (a.counted_mean(m), b.counted_mean(m)) {
            d = d
                .evidence(&format!("{name}_per_op_from"), sig4(x))
                .evidence(&format!("{name}_per_op_to"), sig4(y));
        }
    }
    Some(d)
}

/// Where a cliff between working sets `..wb` falls: the caches it passes (`passed`), or
/// that none of `marks` lies between; and when the last level should still hold `wb`
/// and the step is one into memory, that too.
fn place(passed: &[&CacheMark], marks: &[CacheMark], wb: ByteSize, ratio: f64) -> String {
    let named = passed
        .iter()
        .map(|m| {
            let how = if m.size == wb { "fills" } else { "outgrows" };
            format!("{how} {} ({})", m.name, bytes(m.size))
        })
        .collect::<Vec<_>>()
        .join(" and ");
    let place = if passed.is_empty() {
        let all = marks
            .iter()
            .map(|m| format!("{} {}", m.name, bytes(m.size)))
            .collect::<Vec<_>>()
            .join(", ");
        format!("no cache of this machine lies between ({all}): the TLB's reach, or the share of a shared cache this machine gets, is the likely edge")
    } else {
        format!("the working set {named}")
    };
    // Into DRAM-like times while the record says the last level still holds it.
    match marks.last() {
        Some(last) if wb < last.size && ratio >= 4.0 => format!(
            "{place}; {} is within the {} ({}) yet costs ×{ratio:.1}: the part of the {} this machine gets is smaller (other cores or guests share it), or the TLB's reach is passed",
            bytes(wb),
            last.name,
            bytes(last.size),
            last.name
        ),
        _ => place,
    }
}

/// A working set or a cache as the option grammar writes it (`64KiB`), so a user can
/// pass it back to `-L size`.
fn bytes(b: ByteSize) -> String {
    b.to_string()
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

    fn cliffs(d: &mut ResultDocument) -> Vec<(String, String)> {
        let cfg = AnalysisConfig {
            level: Confidence::DEFAULT,
            sesoi: Fraction::DEFAULT_SESOI,
            drop_upper_outliers: false,
            metric: Metric::WallTime,
        };
        analyse_document(d, &cfg);
        d.benchmarks
            .iter()
            .flat_map(|b| {
                b.diagnostics
                    .iter()
                    .filter(|x| x.code == DiagnosticCode::CacheCliff)
                    .map(|x| (b.name.clone(), x.message.clone()))
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
        let at = |name: &str| {
            found
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, m)| m.as_str())
                .unwrap_or_else(|| panic!("no cliff at {name}: {found:?}"))
        };
        assert_eq!(
            at(&format!("rand {}", 64 << 10)),
            "Time per operation ×2.00 from 16KiB to 64KiB (1.200 ns → 2.400 ns): the working set outgrows L1d (32KiB)"
        );
        assert!(
            at(&format!("rand {}", 256 << 10)).contains("no cache of this machine lies between")
        );
        assert!(at(&format!("rand {}", 1 << 20)).ends_with("fills L2 (1MiB)"));
        let into_dram = at(&format!("rand {}", 8 << 20));
        assert!(
            into_dram.contains("×15.29 from 1MiB to 8MiB"),
            "{into_dram}"
        );
        assert!(
            into_dram.contains("outgrows L2 (1MiB); 8MiB is within the L3 (32MiB) yet costs ×15.3"),
            "{into_dram}"
        );
        assert!(at(&format!("rand {}", 64 << 20)).ends_with("outgrows L3 (32MiB)"));
        assert_eq!(found.len(), 5);
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
