//! The checks of agents' load results merged into one: their measured windows must
//! overlap (or the summed rate was never offered), and their schedules and targets
//! should be the same.
use plumb_model::finding::{AgentWindow, DifferentSchedules, DisjointWindows};
use plumb_model::{Diagnostic, MeasuredWindow, Severity};

/// Each window must share this fraction of itself with every other.
pub const MIN_OVERLAP: f64 = 0.9;

/// `windows` (one per agent, named by `names`; `None` when one has none) overlapping on
/// less than `MIN_OVERLAP` of any of them, or not checkable. `merged`: the user asked
/// to merge them anyway (`--allow-disjoint`); otherwise the merge refuses on this.
pub fn windows(
    windows: Option<&[MeasuredWindow]>,
    names: &[String],
    merged: bool,
) -> Option<Diagnostic> {
    let Some(w) = windows else {
        return Some(Diagnostic::new(
            Severity::Warning,
            DisjointWindows::NotChecked {},
        ));
    };
    let first_end = w.iter().map(|x| x.end).min()?;
    let last_start = w.iter().map(|x| x.start).max()?;
    let earliest = w.iter().map(|x| x.start).min()?;
    let common = first_end.since(last_start).as_secs_f64();
    let (narrowest, overlap) = w
        .iter()
        .enumerate()
        .map(|(i, x)| (i, common / x.length().as_secs_f64().max(1e-9)))
        .min_by(|a, b| a.1.total_cmp(&b.1))?;
    if overlap >= MIN_OVERLAP {
        return None;
    }
    let windows = w
        .iter()
        .enumerate()
        .map(|(i, x)| AgentWindow {
            agent: label(names, i),
            from: x.start.since(earliest),
            to: x.end.since(earliest),
        })
        .collect();
    let finding = DisjointWindows::Overlap {
        overlap,
        min_overlap: MIN_OVERLAP,
        narrowest: label(names, narrowest),
        windows,
        merged,
    };
    Some(Diagnostic::new(Severity::Warning, finding))
}

/// Agents whose rates per second differ (`None`: a closed loop).
pub fn rates(rates: &[Option<f64>]) -> Option<Diagnostic> {
    let differ = rates.iter().any(|r| *r != rates[0]);
    differ.then(|| {
        Diagnostic::new(
            Severity::Info,
            DifferentSchedules::Rates {
                rates: rates.to_vec(),
            },
        )
    })
}

/// Inputs that loaded more than one target: each is merged on its own.
pub fn targets(targets: &[String]) -> Option<Diagnostic> {
    (targets.len() > 1).then(|| {
        Diagnostic::new(
            Severity::Warning,
            DifferentSchedules::Targets {
                targets: targets.to_vec(),
            },
        )
    })
}

/// An input's name in findings: its file, or its place.
pub fn label(names: &[String], i: usize) -> String {
    names
        .get(i)
        .cloned()
        .unwrap_or_else(|| format!("input {}", i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::quantity::{Duration, Timestamp};
    use plumb_model::Finding;

    fn window(from_s: u64, to_s: u64) -> MeasuredWindow {
        let t0 = Timestamp::from_unix_secs_f64(1_800_000_000.0);
        MeasuredWindow {
            start: t0.plus(Duration::from_secs(from_s)),
            end: t0.plus(Duration::from_secs(to_s)),
        }
    }

    #[test]
    fn windows_that_share_too_little_are_named_with_their_offsets() {
        let names = vec!["a.json".to_string(), "b.json".to_string()];
        assert!(windows(Some(&[window(0, 10), window(0, 10)]), &names, false).is_none());
        let d = windows(Some(&[window(0, 10), window(5, 15)]), &names, false).unwrap();
        let Finding::DisjointWindows(DisjointWindows::Overlap {
            overlap,
            narrowest,
            windows,
            merged,
            ..
        }) = &d.finding
        else {
            panic!("{d:?}")
        };
        assert_eq!(
            (*overlap, narrowest.as_str(), *merged),
            (0.5, "a.json", false)
        );
        assert_eq!(windows[1].from, Duration::from_secs(5));
        assert_eq!(windows[1].to, Duration::from_secs(15));
        assert!(matches!(
            windows_none(),
            Finding::DisjointWindows(DisjointWindows::NotChecked {})
        ));
    }

    fn windows_none() -> Finding {
        windows(None, &[], true).unwrap().finding
    }

    #[test]
    fn different_rates_and_targets_are_said() {
        assert!(rates(&[Some(50.0), Some(50.0)]).is_none());
        assert!(rates(&[Some(50.0), None]).is_some());
        assert!(targets(&["/".into()]).is_none());
        assert!(targets(&["/a".into(), "/b".into()]).is_some());
    }
}
