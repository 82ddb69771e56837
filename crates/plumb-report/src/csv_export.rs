//! The CSV export: one row per benchmark, its summary, ratio, counters and simulated counts.
use crate::counter_rows::SIMULATED;
use plumb_model::{Benchmark, Metric, ResultDocument};

/// One row per benchmark: the summary in nanoseconds, the ratio to the baseline, mean
/// CPU times and peak RSS, then each counted event's mean and error per operation (in
/// its unit: `task-clock_mean_ns`, `page-faults_mean`), then each simulated count per
/// operation (`simulated_instructions`). Raw samples are in the JSON export.
pub fn render_csv(doc: &ResultDocument) -> String {
    let params: Vec<String> = {
        let mut p: Vec<String> = doc
            .benchmarks
            .iter()
            .flat_map(|b| b.parameters.keys().cloned())
            .collect();
        p.sort();
        p.dedup();
        p
    };
    let counters = crate::counter_rows::counted(doc);
    let simulated = doc.benchmarks.iter().any(|b| b.simulated.is_some());
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header(&params, &counters, simulated))
        .expect("writing to memory");
    for b in &doc.benchmarks {
        w.write_record(record(doc, b, &params, &counters, simulated))
            .expect("writing to memory");
    }
    String::from_utf8(w.into_inner().expect("flushing memory")).expect("CSV of UTF-8 is UTF-8")
}

fn header(params: &[String], counters: &[&Metric], simulated: bool) -> Vec<String> {
    let mut header: Vec<String> = vec!["name".into()];
    header.extend(params.iter().map(|p| format!("parameter_{p}")));
    header.extend(
        [
            "n",
            "mean_ns",
            "error_ns",
            "std_dev_ns",
            "median_ns",
            "min_ns",
            "max_ns",
            "mad_ns",
            "ratio",
            "ratio_sd",
            "verdict",
            "user_mean_ns",
            "sys_mean_ns",
            "max_rss_kib",
        ]
        .map(String::from),
    );
    for m in counters {
        let unit = m.known_shape().map_or("", |(u, _)| u.name_suffix());
        header.push(format!("{m}_mean{unit}"));
        header.push(format!("{m}_error{unit}"));
    }
    if simulated {
        header.extend(SIMULATED.iter().map(|m| format!("simulated_{m}")));
    }
    header
}

fn record(
    doc: &ResultDocument,
    b: &Benchmark,
    params: &[String],
    counters: &[&Metric],
    simulated: bool,
) -> Vec<String> {
    let num = |x: Option<f64>| {
        x.filter(|v| v.is_finite())
            .map_or(String::new(), |v| format!("{v}"))
    };
    let mut rec: Vec<String> = vec![b.name.clone()];
    rec.extend(
        params
            .iter()
            .map(|p| b.parameters.get(p).cloned().unwrap_or_default()),
    );
    let s = b.time().map(|t| &t.summary);
    let cmp = doc.comparisons.iter().find(|c| c.candidate == b.name);
    let mean = |m: &Metric| b.stats(m).map(|s| s.summary.mean);
    rec.push(b.analysed_times_ns().len().to_string());
    rec.push(num(s.map(|s| s.mean)));
    rec.push(num(b.time().and_then(|t| t.error)));
    rec.push(num(s.map(|s| s.std_dev)));
    rec.push(num(s.map(|s| s.median)));
    rec.push(num(s.map(|s| s.min)));
    rec.push(num(s.map(|s| s.max)));
    rec.push(num(s.map(|s| s.mad)));
    let (ratio, ratio_sd) = if b.baseline {
        (Some(1.0), Some(0.0))
    } else {
        (cmp.map(|c| c.ratio), cmp.map(|c| c.ratio_sd))
    };
    rec.push(num(ratio));
    rec.push(num(ratio_sd));
    rec.push(cmp.map_or(String::new(), |c| c.verdict.to_string()));
    rec.push(num(mean(&Metric::UserTime)));
    rec.push(num(mean(&Metric::SystemTime)));
    let peak = b
        .samples
        .values(&Metric::PeakRss)
        .and_then(|v| v.iter().max());
    rec.push(num(peak.map(|&bytes| (bytes / 1024) as f64)));
    for m in counters {
        rec.push(num(mean(m)));
        rec.push(num(b.stats(m).and_then(|s| s.error)));
    }
    if simulated {
        let stats = b.simulated.as_ref().map(|s| &s.stats);
        rec.extend(
            SIMULATED
                .iter()
                .map(|m| num(stats.and_then(|s| s.get(m)).map(|s| s.summary.mean))),
        );
    }
    rec
}

/// One row per benchmark.
pub struct CsvExporter;

impl crate::exporter::Exporter for CsvExporter {
    fn export(&self, doc: &ResultDocument) -> String {
        render_csv(doc)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_row_per_benchmark_in_nanoseconds() {
        let csv = super::render_csv(&crate::fixture::document());
        let mut r = csv::Reader::from_reader(csv.as_bytes());
        let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
        assert_eq!(&header[..4], ["name", "parameter_n", "n", "mean_ns"]);
        let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 2);
        assert_eq!(&rows[0][0], "fast | one");
        assert_eq!(&rows[0][2], "20");
        assert_eq!(rows[0][3].parse::<f64>().unwrap(), 10_000_000.0);
        let ratio_col = header.iter().position(|h| h == "ratio").unwrap();
        assert_eq!(&rows[0][ratio_col], "1");
        assert_eq!(rows[1][ratio_col].parse::<f64>().unwrap(), 2.0);
        let verdict_col = header.iter().position(|h| h == "verdict").unwrap();
        assert_eq!(&rows[1][verdict_col], "slower");
    }

    #[test]
    fn counted_events_get_mean_and_error_columns_in_their_unit() {
        use plumb_model::{Metric, MetricInfo, Source};
        let mut doc = crate::fixture::document();
        for m in [Metric::TaskClock, Metric::PageFaults] {
            doc.benchmarks[0]
                .metrics
                .insert(m.clone(), MetricInfo::known(&m, Source::SoftwareCounter));
        }
        let csv = super::render_csv(&doc);
        let header = csv.lines().next().unwrap();
        // In the model's order of metrics.
        assert!(
            header.ends_with(
                ",task-clock_mean_ns,task-clock_error_ns,page-faults_mean,page-faults_error"
            ),
            "{header}"
        );
    }

    #[test]
    fn simulated_counts_get_a_column_each_per_operation() {
        use plumb_model::{Metric, SimulatedCounts};
        let mut doc = crate::fixture::document();
        let mut sim = SimulatedCounts::new("cachegrind", None);
        let mut stats = doc.benchmarks[0].stats[&Metric::WallTime].clone();
        stats.summary.mean = 0.517;
        sim.stats.insert(Metric::ConditionalMispredictions, stats);
        doc.benchmarks[0].simulated = Some(sim);
        let csv = super::render_csv(&doc);
        let mut r = csv::Reader::from_reader(csv.as_bytes());
        let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
        let col = header
            .iter()
            .position(|h| h == "simulated_conditional-mispredictions")
            .unwrap();
        assert_eq!(
            header.last().unwrap(),
            "simulated_conditional-mispredictions"
        );
        let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
        assert_eq!(&rows[0][col], "0.517");
        assert_eq!(&rows[1][col], "", "the other benchmark was not simulated");
    }
}
