//! `plumb report --history`: the store's series drawn on one page — each result with its
//! interval at its commit, each change point the last analysis recorded marked with its
//! commits, change and status.
use crate::args::ReportArgs;
use crate::exit::{CliError, Outcome};
use crate::history_out::{at, unit_of};
use plumb_history::HistoryStore;
use plumb_report::{history_page, TrendChange, TrendPoint, TrendSeries};

pub fn run(history: &str, a: &ReportArgs) -> Result<Outcome, CliError> {
    crate::export::check(&crate::export::targets(&[(
        "--output",
        &Some(a.output.clone()),
        plumb_report::Format::Html,
    )]))?;
    let given = Some(history.to_string()).filter(|h| !h.is_empty());
    let Some(location) = crate::store::existing(given)? else {
        let path = plumb_history::git::default_store(&std::env::current_dir()?);
        return Err(CliError::msg(format!(
            "no history at {}: plumb history add keeps one",
            path.display()
        )));
    };
    let mut store = crate::store::open(&location)?;
    let series = trends(store.as_mut())?;
    let method = "change points as the last `plumb history changes` recorded them";
    let html = history_page(&series, &location.shown(), method);
    crate::export::write_page(&a.output, &html, &format!("{} series", series.len()))?;
    Ok(Outcome::Done)
}

/// Every series with its points and recorded changes, as the page draws them.
fn trends(store: &mut dyn HistoryStore) -> Result<Vec<TrendSeries>, CliError> {
    let mut out = Vec::new();
    for s in store.series()? {
        let points = store.points(s.id)?;
        let changes = store.changes(s.id)?;
        let trend_points = points
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let date = p.commit.as_ref().map_or(p.recorded, |c| c.time).to_string();
                TrendPoint {
                    at: at(&points, i),
                    date: date[..10.min(date.len())].to_string(),
                    mean: p.point.mean,
                    interval: p.point.interval,
                }
            })
            .collect();
        // Each change between its neighbours: the levels either side end at the next.
        let mut starts: Vec<usize> = changes
            .iter()
            .filter_map(|c| points.iter().position(|p| p.run == c.run))
            .filter(|i| *i > 0)
            .collect();
        starts.sort_unstable();
        let trend_changes = starts
            .iter()
            .enumerate()
            .map(|(k, &index)| {
                let prev = if k == 0 { 0 } else { starts[k - 1] };
                let next = starts.get(k + 1).copied().unwrap_or(points.len());
                let status = changes
                    .iter()
                    .find(|c| c.run == points[index].run)
                    .map_or("", |c| c.status.name());
                TrendChange {
                    index,
                    commits: format!("{}..{}", at(&points, index - 1), at(&points, index)),
                    relative: mean_of(&points[index..next]) / mean_of(&points[prev..index]) - 1.0,
                    status: status.to_string(),
                }
            })
            .collect();
        out.push(TrendSeries {
            name: s.name(),
            machine: s.key.machine.0.clone(),
            unit: unit_of(&points),
            points: trend_points,
            changes: trend_changes,
        });
    }
    Ok(out)
}

fn mean_of(points: &[plumb_history::StoredPoint]) -> f64 {
    points.iter().map(|p| p.point.mean).sum::<f64>() / points.len().max(1) as f64
}
