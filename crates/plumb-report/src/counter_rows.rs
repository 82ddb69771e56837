//! The counter tables (`plumb run --counters`): what the timed runs counted (the CPU's
//! counters, the kernel's software events) with the ratios that read them (IPC, miss
//! rates), and, apart, what a simulation counted, labelled as simulated.

use crate::rows::Table;
use plumb_model::format;
use plumb_model::{Benchmark, Metric, MetricStats, ResultDocument, Source, Unit};

fn is_counted(source: Source) -> bool {
    matches!(source, Source::HardwareCounter | Source::SoftwareCounter)
}

/// The metrics any benchmark's timed runs counted, in the model's order (the hardware
/// counters' live share is shown as a percentage of its own).
pub(crate) fn counted(doc: &ResultDocument) -> Vec<&'static Metric> {
    Metric::KNOWN
        .iter()
        .filter(|m| **m != Metric::HardwareLivePpm)
        .filter(|m| {
            doc.benchmarks
                .iter()
                .any(|b| b.metrics.get(*m).is_some_and(|i| is_counted(i.source)))
        })
        .collect()
}

/// A ratio of two counters shown beside them: its heading, the two metrics, and whether
/// it reads as a percentage.
struct Ratio {
    label: &'static str,
    numerator: Metric,
    denominator: Metric,
    percent: bool,
}

fn hardware_ratios() -> [Ratio; 4] {
    let r = |label, numerator, denominator, percent| Ratio {
        label,
        numerator,
        denominator,
        percent,
    };
    [
        r("IPC", Metric::Instructions, Metric::Cycles, false),
        r("Br miss %", Metric::BranchMisses, Metric::Branches, true),
        r("L1d miss %", Metric::L1dLoadMisses, Metric::L1dLoads, true),
        r("LLC miss %", Metric::LlcLoadMisses, Metric::LlcLoads, true),
    ]
}

impl Ratio {
    fn cell(&self, b: &Benchmark) -> String {
        match b.counter_ratio(&self.numerator, &self.denominator) {
            Some(r) if self.percent => format!("{:.2}%", 100.0 * r),
            Some(r) => format!("{r:.2}"),
            None => "-".into(),
        }
    }
}

/// Each counter table with the line above it; empty when nothing was counted.
pub fn counter_tables(doc: &ResultDocument) -> Vec<(String, Table)> {
    let mut tables = Vec::new();
    if let Some(t) = counted_table(doc) {
        tables.push((counted_caption(doc), t));
    }
    if let Some(t) = simulated_table(doc) {
        tables.push((simulated_caption(doc), t));
    }
    tables
}

fn counted_table(doc: &ResultDocument) -> Option<Table> {
    let metrics = counted(doc);
    if metrics.is_empty() {
        return None;
    }
    let ratios: Vec<Ratio> = hardware_ratios()
        .into_iter()
        .filter(|r| metrics.contains(&&r.numerator) && metrics.contains(&&r.denominator))
        .collect();
    let mut header = vec!["Benchmark"];
    header.extend(metrics.iter().map(|m| m.label()));
    header.extend(ratios.iter().map(|r| r.label));
    // Where the kernel multiplexed hardware counters, how much of the time they ran.
    let live = doc
        .benchmarks
        .iter()
        .any(|b| b.metrics.contains_key(&Metric::HardwareLivePpm));
    if live {
        header.push("HW live");
    }
    let rows = doc
        .benchmarks
        .iter()
        .map(|b| {
            let mut cells = vec![b.name.clone()];
            cells.extend(metrics.iter().map(|m| {
                let info = b.metrics.get(*m).filter(|i| is_counted(i.source));
                cell(info.map(|i| i.unit), b.stats(m))
            }));
            cells.extend(ratios.iter().map(|r| r.cell(b)));
            if live {
                cells.push(
                    b.stats(&Metric::HardwareLivePpm)
                        .map_or("-".into(), |s| format!("{:.1}%", s.summary.mean / 1e4)),
                );
            }
            cells
        })
        .collect();
    Some(table(header, rows))
}

pub(crate) fn table(header: Vec<&'static str>, rows: Vec<Vec<String>>) -> Table {
    let mut numeric = vec![true; header.len()];
    numeric[0] = false;
    Table {
        header,
        rows,
        numeric,
    }
}

/// "3.654 ms ± 0.120 ms", the mean alone without an interval, or "-" when absent.
pub(crate) fn cell(unit: Option<Unit>, stats: Option<&MetricStats>) -> String {
    let (Some(unit), Some(stats)) = (unit, stats) else {
        return "-".into();
    };
    let mean = format::value(unit, stats.summary.mean);
    match stats.error {
        // An error below a thousandth of the mean as a share: 0.00299 ± 0.010%, not
        // ± 0.000000294 (issue 24, defect 20).
        Some(e) if e.is_finite() && e < 1e-3 * stats.summary.mean.abs() => {
            format!("{mean} ± {}", format::share(e / stats.summary.mean.abs()))
        }
        Some(e) if e.is_finite() => format!("{mean} ± {}", format::value(unit, e)),
        _ => mean,
    }
}

fn counted_caption(doc: &ResultDocument) -> String {
    let sources: Vec<&str> = [
        (Source::HardwareCounter, "the CPU's counters"),
        (Source::SoftwareCounter, "the kernel's software events"),
    ]
    .into_iter()
    .filter(|(s, _)| {
        doc.benchmarks
            .iter()
            .any(|b| b.metrics.values().any(|i| i.source == *s))
    })
    .map(|(_, what)| what)
    .collect();
    format!(
        "Counters per operation, mean ± error at {} ({}):",
        doc.settings.confidence,
        sources.join(", ")
    )
}

/// The simulated metrics shown, in this order; indirect branches stay in the result.
pub(crate) const SIMULATED: [Metric; 8] = [
    Metric::Instructions,
    Metric::EstimatedCycles,
    Metric::DataReads,
    Metric::DataWrites,
    Metric::D1Misses,
    Metric::LlMisses,
    Metric::ConditionalBranches,
    Metric::ConditionalMispredictions,
];

fn simulated_table(doc: &ResultDocument) -> Option<Table> {
    if doc.benchmarks.iter().all(|b| b.simulated.is_none()) {
        return None;
    }
    let mispredicted = Ratio {
        label: "Mispred %",
        numerator: Metric::ConditionalMispredictions,
        denominator: Metric::ConditionalBranches,
        percent: true,
    };
    let mut header = vec!["Benchmark"];
    header.extend(SIMULATED.iter().map(|m| m.label()));
    header.extend([mispredicted.label, "Slowdown"]);
    let rows = doc
        .benchmarks
        .iter()
        .filter_map(|b| {
            let sim = b.simulated.as_ref()?;
            let mut cells = vec![b.name.clone()];
            cells.extend(
                SIMULATED
                    .iter()
                    .map(|m| cell(sim.metrics.get(m).map(|i| i.unit), sim.stats.get(m))),
            );
            cells.push(mispredicted.cell(b));
            cells.push(slowdown(b).map_or("-".into(), |s| format!("×{s:.0}")));
            Some(cells)
        })
        .collect();
    Some(table(header, rows))
}

/// How many times longer an operation took simulated than timed.
fn slowdown(b: &Benchmark) -> Option<f64> {
    let per_op = |s: &plumb_model::Samples| {
        let wall: u64 = s.values(&Metric::WallTime)?.iter().sum();
        let ops: u64 = s.iterations().iter().sum();
        (wall > 0 && ops > 0).then(|| wall as f64 / ops as f64)
    };
    Some(per_op(&b.simulated.as_ref()?.samples)? / per_op(&b.samples)?)
}

fn simulated_caption(doc: &ResultDocument) -> String {
    let sim = doc.benchmarks.iter().find_map(|b| b.simulated.as_ref());
    let tool = sim.map_or("", |s| s.tool.as_str());
    // An imported simulation (gungraun's) did not record the caches it modelled.
    let caches = match sim.and_then(|s| s.caches) {
        Some(_) => "this machine's cache sizes",
        None => "cache sizes not recorded",
    };
    let runs = (doc.benchmarks.iter())
        .filter_map(|b| Some(b.simulated.as_ref()?.samples.len()))
        .max()
        .unwrap_or(0);
    let runs = match runs {
        0 | 1 => "one run each: its exact counts".to_string(),
        n => format!(
            "{n} runs each, mean ± error at {} over runs",
            doc.settings.confidence
        ),
    };
    format!("Simulated counters per operation ({tool}, {caches}; {runs}):")
}

/// The benchmarks that were to be simulated and were not, with why.
pub fn not_simulated(doc: &ResultDocument) -> Vec<(&str, &str)> {
    doc.benchmarks
        .iter()
        .filter_map(|b| {
            let why = b.simulated.as_ref()?.not_simulated.as_deref()?;
            Some((b.name.as_str(), why))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::{MetricInfo, SimulatedCounts};

    #[test]
    fn no_counters_no_table_and_counted_metrics_get_a_column_each() {
        let mut doc = crate::fixture::document();
        assert!(counter_tables(&doc).is_empty());
        let b: &mut Benchmark = &mut doc.benchmarks[0];
        b.metrics.insert(
            Metric::PageFaults,
            MetricInfo::known(&Metric::PageFaults, Source::SoftwareCounter),
        );
        let tables = counter_tables(&doc);
        let (caption, t) = &tables[0];
        assert_eq!(t.header, vec!["Benchmark", "Faults"]);
        assert_eq!(t.rows[1][1], "-", "the other benchmark was not counted");
        assert!(caption.contains("the kernel's software events"));
    }

    /// Hardware counters get their ratios: IPC = instructions / cycles, the branch-miss
    /// rate = branch-misses / branches (worked: 2.4e6 / 1.2e6 = 2.00; 6e3 / 2e5 = 3.00 %).
    #[test]
    fn hardware_counters_get_ipc_and_miss_rates() {
        let mut doc = crate::fixture::document();
        let b = &mut doc.benchmarks[0];
        for (m, mean) in [
            (Metric::Instructions, 2.4e6),
            (Metric::Cycles, 1.2e6),
            (Metric::Branches, 2e5),
            (Metric::BranchMisses, 6e3),
            (Metric::HardwareLivePpm, 250_000.0),
        ] {
            b.metrics
                .insert(m.clone(), MetricInfo::known(&m, Source::HardwareCounter));
            let mut s = b.stats[&Metric::WallTime].clone();
            s.summary.mean = mean;
            s.error = None;
            b.stats.insert(m, s);
        }
        let (caption, t) = &counter_tables(&doc)[0];
        assert!(caption.contains("the CPU's counters"));
        let ipc = t.header.iter().position(|h| *h == "IPC").unwrap();
        let br = t.header.iter().position(|h| *h == "Br miss %").unwrap();
        assert_eq!(
            (t.rows[0][ipc].as_str(), t.rows[0][br].as_str()),
            ("2.00", "3.00%")
        );
        assert_eq!(t.rows[0][1], "2.400M");
        assert_eq!(t.header.last(), Some(&"HW live"));
        assert_eq!(
            t.rows[0].last().unwrap(),
            "25.0%",
            "live a quarter of the time"
        );
    }

    #[test]
    fn simulated_counts_have_their_own_table_and_say_why_they_are_missing() {
        let mut doc = crate::fixture::document();
        let mut sim = SimulatedCounts::new("cachegrind (valgrind-3.19.0)", None);
        for m in SIMULATED {
            sim.metrics
                .insert(m.clone(), MetricInfo::known(&m, Source::Simulated));
        }
        sim.metrics
            .insert(Metric::WallTime, MetricInfo::measured(&Metric::WallTime));
        let timed = doc.benchmarks[0].samples.values(&Metric::WallTime).unwrap();
        // Per operation: the timed runs are one operation each, the simulated run 200,000.
        let timed_mean = timed.iter().sum::<u64>() / timed.len() as u64;
        let values: Vec<(Metric, u64)> = SIMULATED
            .iter()
            .cloned()
            .zip([
                5_000_000, 9_000_000, 700_000, 700_000, 280_000, 39_000, 900_000, 100_000,
            ])
            .chain([(Metric::WallTime, 40 * timed_mean * 200_000)])
            .collect();
        sim.samples.push(200_000, &values);
        sim.stats = SIMULATED
            .iter()
            .map(|m| {
                let mut s = doc.benchmarks[0].stats[&Metric::WallTime].clone();
                s.summary.mean = sim.per_op(m)[0];
                s.error = None;
                (m.clone(), s)
            })
            .collect();
        doc.benchmarks[0].simulated = Some(sim);
        let mut skipped = SimulatedCounts::new("cachegrind", None);
        skipped.not_simulated = Some("not simulated: over the budget".into());
        doc.benchmarks[1].simulated = Some(skipped);

        let tables = counter_tables(&doc);
        assert_eq!(tables.len(), 1, "no counted table: only simulated counts");
        let (caption, t) = &tables[0];
        assert!(
            caption.starts_with("Simulated counters per operation (cachegrind (valgrind-3.19.0)")
        );
        // 5e6 / 2e5 = 25 instructions, 45 estimated cycles; 1e5 / 2e5 = 0.5
        // mispredictions, 1e5 / 9e5 = 11.11 %.
        assert_eq!(t.rows[0][1], "25.00");
        assert_eq!(t.rows[0][2], "45.00");
        assert_eq!(t.rows[0][8], "0.500");
        assert_eq!(t.rows[0][9], "11.11%");
        assert_eq!(t.rows[0][10], "×40");
        assert!(
            caption.ends_with("; one run each: its exact counts):"),
            "{caption}"
        );
        assert_eq!(t.rows[1][1], "-");
        assert_eq!(
            not_simulated(&doc),
            vec![(
                doc.benchmarks[1].name.as_str(),
                "not simulated: over the budget"
            )]
        );
    }
}
