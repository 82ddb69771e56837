//! Agents' results of one test as one: the analysis asks first whether they make one
//! test (the agents' shares of one schedule; windows that overlap, or disjoint ones
//! allowed; offered rates and targets alike), the load producer adds their counts and
//! histograms, and what the analysis noticed without refusing is kept on each benchmark.
use crate::LoadTestError;
use plumb_analysis::load_checks::merged;
use plumb_load::merge_load;
use plumb_model::finding::DisjointWindows;
use plumb_model::{
    Benchmark, BenchmarkKind, Diagnostic, Finding, Invocation, LoadInfo, MeasuredWindow,
    MergedSettings, ProducerSettings, ResultDocument,
};

/// `docs` combined: counts add, histograms add losslessly. `paths` name the inputs, in
/// order, for the record and for messages.
pub fn merged_document(
    docs: &[ResultDocument],
    paths: &[String],
    allow_disjoint: bool,
    invocation: Invocation,
) -> Result<ResultDocument, LoadTestError> {
    let mut names: Vec<String> = Vec::new();
    for (doc, path) in docs.iter().zip(paths) {
        if doc.benchmarks.iter().any(|b| b.load().is_none()) {
            return Err(LoadTestError::NotLoad {
                input: path.clone(),
            });
        }
        for b in &doc.benchmarks {
            if !names.contains(&b.name) {
                names.push(b.name.clone());
            }
        }
    }
    let first = docs.first().ok_or(plumb_load::LoadError::from(
        plumb_load::CombineError::Nothing,
    ))?;
    let shares: Vec<Option<plumb_model::AgentShare>> = docs
        .iter()
        .map(|d| match &d.settings.producer {
            ProducerSettings::Load(s) => s.agents,
            _ => None,
        })
        .collect();
    let missing = merged::agent_shares(&shares, paths).map_err(LoadTestError::Shares)?;
    let mut out = first.clone();
    out.benchmarks.clear();
    out.invocation = invocation;
    out.settings.producer = ProducerSettings::Merged(MergedSettings {
        inputs: paths.to_vec(),
        agents: docs.iter().map(|d| d.settings.producer.clone()).collect(),
        coordination: None,
    });
    for name in &names {
        let (parts, files): (Vec<&LoadInfo>, Vec<String>) = docs
            .iter()
            .zip(paths)
            .filter_map(|(d, p)| Some((d.benchmark(name)?.load()?, p.clone())))
            .unzip();
        let (info, notes) =
            merge_one(&parts, &files, allow_disjoint).map_err(|e| LoadTestError::In {
                benchmark: name.clone(),
                error: Box::new(e),
            })?;
        let mut b = Benchmark::new(name.clone(), BenchmarkKind::Load);
        b.parameters
            .insert("agents".into(), parts.len().to_string());
        b.set_load(info);
        b.diagnostics = notes;
        b.diagnostics.extend(merged::targets(&names));
        b.diagnostics.extend(missing.clone());
        out.benchmarks.push(b);
    }
    Ok(out)
}

/// One benchmark's parts merged, and what the analysis noticed of them: windows that do
/// not overlap enough are refused unless `allow_disjoint`.
fn merge_one(
    parts: &[&LoadInfo],
    names: &[String],
    allow_disjoint: bool,
) -> Result<(LoadInfo, Vec<Diagnostic>), LoadTestError> {
    let windows: Option<Vec<MeasuredWindow>> = parts.iter().map(|p| p.window).collect();
    let mut notes: Vec<Diagnostic> = merged::windows(windows.as_deref(), names, allow_disjoint)
        .into_iter()
        .collect();
    if let Some(d) = notes.iter().find(|d| refused(&d.finding)) {
        let words = plumb_report::finding::words(&d.finding).refusal();
        return Err(LoadTestError::Disjoint { words });
    }
    let rates: Vec<Option<f64>> = parts.iter().map(|p| p.target_rate).collect();
    notes.extend(merged::rates(&rates));
    Ok((merge_load(parts, names)?, notes))
}

/// Windows too far apart, not merged on request: the merge refuses.
fn refused(f: &Finding) -> bool {
    matches!(
        f,
        Finding::DisjointWindows(DisjointWindows::Overlap { merged: false, .. })
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_load::LatencyHistogram;
    use plumb_model::quantity::{Duration, Timestamp};
    use plumb_model::LatencyDistribution;

    /// A part of `n` answers of `value` µs at `rate`, measured for 10 s from `start`.
    fn part(value: f64, n: usize, rate: f64, start: f64) -> LoadInfo {
        let mut h = LatencyHistogram::new();
        for _ in 0..n {
            h.record_us(value);
        }
        let d = LatencyDistribution::from_histogram(h.inner());
        LoadInfo {
            target_rate: Some(rate),
            achieved_rate: rate,
            duration: Duration::from_secs(10),
            window: Some(MeasuredWindow {
                start: Timestamp::from_unix_secs_f64(start),
                end: Timestamp::from_unix_secs_f64(start + 10.0),
            }),
            ..LoadInfo::answered(d)
        }
    }

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("a{i}.json")).collect()
    }

    fn said(notes: &[Diagnostic], words: &str) -> bool {
        notes
            .iter()
            .any(|n| plumb_report::finding::message(&n.finding).contains(words))
    }

    #[test]
    fn parts_at_different_rates_are_merged_and_said_to_follow_different_schedules() {
        let (a, b) = (
            part(500.0, 3000, 100.0, 1000.0),
            part(900.0, 5000, 200.0, 1000.4),
        );
        let (info, notes) = merge_one(&[&a, &b], &names(2), false).unwrap();
        assert_eq!(info.ok, 8000);
        assert!(said(&notes, "different schedules"), "{notes:?}");
    }

    #[test]
    fn runs_one_after_the_other_are_refused_unless_allowed_then_said_over_the_union() {
        let a = part(100.0, 1000, 100.0, 1000.0);
        let b = part(300.0, 1000, 100.0, 1012.0);
        let e = merge_one(&[&a, &b], &names(2), false)
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("overlap on 0 % of a0.json")
                && e.contains("a1.json from +12.00 s to +22.00 s"),
            "{e}"
        );
        assert!(e.contains("--allow-disjoint"), "{e}");
        let (info, notes) = merge_one(&[&a, &b], &names(2), true).unwrap();
        assert!(said(&notes, "union"), "{notes:?}");
        assert!((info.achieved_rate - 100.0).abs() < 1e-9);
        // Within tolerance: 0.5 s apart of 10 s overlaps 95 %.
        let c = part(300.0, 1000, 100.0, 1000.5);
        assert!(merge_one(&[&a, &c], &names(2), false).is_ok());
    }
}
