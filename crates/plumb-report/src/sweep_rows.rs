//! The sweep tables: each series' time per operation (and misses per operation, where
//! counted or simulated) against its working set, smallest first, with this machine's
//! caches marked between the rows where they fall, and a bar on a log scale, so a cliff
//! shows as a step.

use crate::counter_rows::{cell, table};
use crate::rows::Table;
use plumb_model::format;
use plumb_model::sweep::{cache_marks, sweeps, CacheMark};
use plumb_model::{Benchmark, Metric, ResultDocument, Unit};

/// Misses per operation shown when any point of the sweep has them: heading, metric.
const MISSES: [(&str, Metric); 4] = [
    ("D1 miss/op", Metric::D1Misses),
    ("LL miss/op", Metric::LlMisses),
    ("L1d miss/op", Metric::L1dLoadMisses),
    ("LLC miss/op", Metric::LlcLoadMisses),
];
/// The longest bar, in characters.
const BAR: usize = 24;

/// Each sweep's table with the line above it.
pub fn sweep_tables(doc: &ResultDocument) -> Vec<(String, Table)> {
    let marks = cache_marks(&doc.environment);
    sweeps(&doc.benchmarks)
        .into_iter()
        .map(|s| {
            let points: Vec<&Benchmark> = s.points.iter().map(|&i| &doc.benchmarks[i]).collect();
            let caches = marks
                .iter()
                .map(|m| format!("{} {}", m.name, bytes(m.size.0)))
                .collect::<Vec<_>>()
                .join(", ");
            let caption = format!(
                "Sweep {}: time per operation against the working set ({}):",
                s.series,
                if caches.is_empty() {
                    "this machine's caches are not known".to_string()
                } else {
                    format!("this machine's caches {caches} marked")
                }
            );
            (caption, sweep_table(&points, &marks))
        })
        .collect()
}

fn sweep_table(points: &[&Benchmark], marks: &[CacheMark]) -> Table {
    let misses: Vec<&(&str, Metric)> = MISSES
        .iter()
        .filter(|(_, m)| points.iter().any(|b| b.counted_mean(m).is_some()))
        .collect();
    let mut header = vec!["Working set", "Time/op", "× previous"];
    header.extend(misses.iter().map(|(h, _)| *h));
    header.push("log time/op");
    let times: Vec<Option<f64>> = points
        .iter()
        .map(|b| b.stats(&Metric::WallTime).map(|s| s.summary.mean))
        .collect();
    let bars = bars(&times);
    let mut rows = Vec::new();
    let mut marks = marks.iter().peekable();
    for (i, b) in points.iter().enumerate() {
        let ws = b.working_set.map_or(0, |w| w.0);
        while let Some(m) = marks.next_if(|m| m.size.0 < ws) {
            let mut row = vec![format!("── {} {} ──", m.name, bytes(m.size.0))];
            row.resize(header.len(), String::new());
            rows.push(row);
        }
        let unit = b.metrics.get(&Metric::WallTime).map(|i| i.unit);
        let mut row = vec![
            bytes(ws),
            cell(unit, b.stats(&Metric::WallTime)),
            match (i.checked_sub(1).and_then(|p| times[p]), times[i]) {
                (Some(prev), Some(t)) if prev > 0.0 => format!("×{:.2}", t / prev),
                _ => String::new(),
            },
        ];
        for (_, m) in &misses {
            row.push(
                b.counted_mean(m)
                    .map_or("-".into(), |(v, _)| format::value(Unit::Count, v)),
            );
        }
        row.push(bars[i].clone());
        rows.push(row);
    }
    let mut t = table(header, rows);
    if let Some(last) = t.numeric.last_mut() {
        *last = false;
    }
    t
}

/// Bars whose lengths grow with the logarithm of the time, from one character at the
/// fastest point to `BAR` at the slowest.
fn bars(times: &[Option<f64>]) -> Vec<String> {
    let known = times.iter().flatten().filter(|t| **t > 0.0);
    let lo = known.clone().fold(f64::INFINITY, |a, &b| a.min(b));
    let hi = known.fold(0.0f64, |a, &b| a.max(b));
    times
        .iter()
        .map(|t| match t {
            Some(t) if *t > 0.0 => {
                let span = (hi / lo).ln();
                let f = if span > 0.0 {
                    (t / lo).ln() / span
                } else {
                    0.0
                };
                "█".repeat(1 + (f * (BAR - 1) as f64).round() as usize)
            }
            _ => String::new(),
        })
        .collect()
}

fn bytes(b: u64) -> String {
    format::value(Unit::Bytes, b as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::{CacheLevel, MetricInfo, Source};

    #[test]
    fn caches_fall_between_the_rows_and_bars_grow_with_log_time() {
        let mut doc = crate::fixture::document();
        doc.environment.caches = [
            (1, "Data", 32u64 << 10),
            (1, "Instruction", 32 << 10),
            (2, "Unified", 1 << 20),
            (3, "Unified", 32 << 20),
        ]
        .into_iter()
        .map(|(level, kind, size)| {
            CacheLevel::of_size(level, kind, plumb_model::quantity::ByteSize(size))
        })
        .collect();
        doc.benchmarks = vec![
            crate::fixture::sweep_point(64 << 10, 2.0),
            crate::fixture::sweep_point(16 << 10, 1.0),
            crate::fixture::sweep_point(1 << 20, 4.0),
            crate::fixture::sweep_point(64 << 20, 100.0),
        ];
        // Simulated LL misses on one point make the column appear.
        let mut sim = plumb_model::SimulatedCounts::new("cachegrind", None);
        sim.metrics.insert(
            Metric::LlMisses,
            MetricInfo::known(&Metric::LlMisses, Source::Simulated),
        );
        let mut s = doc.benchmarks[3].stats[&Metric::WallTime].clone();
        s.summary.mean = 0.75;
        sim.stats.insert(Metric::LlMisses, s);
        doc.benchmarks[3].simulated = Some(sim);

        let tables = sweep_tables(&doc);
        assert_eq!(tables.len(), 1);
        let (caption, t) = &tables[0];
        assert!(
            caption.starts_with("Sweep ./cache rand {size}:"),
            "{caption}"
        );
        assert!(
            caption.contains("L1d 32.0 KiB, L2 1.0 MiB, L3 32.0 MiB"),
            "{caption}"
        );
        let first: Vec<&str> = t.rows.iter().map(|r| r[0].as_str()).collect();
        assert_eq!(
            first,
            [
                "16.0 KiB",
                "── L1d 32.0 KiB ──",
                "64.0 KiB",
                "1.0 MiB",
                "── L2 1.0 MiB ──",
                "── L3 32.0 MiB ──",
                "64.0 MiB"
            ]
        );
        assert_eq!(
            t.header,
            [
                "Working set",
                "Time/op",
                "× previous",
                "LL miss/op",
                "log time/op"
            ]
        );
        assert_eq!(t.rows[2][2], "×2.00");
        assert_eq!(t.rows[6][3], "0.750");
        let bar = |r: usize| t.rows[r][4].chars().count();
        assert_eq!((bar(0), bar(6)), (1, BAR));
        assert!(bar(2) < bar(3) && bar(3) < bar(6));
    }
}
