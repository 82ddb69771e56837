//! The checks of agents' load results merged into one: their measured windows must
//! overlap (or the summed rate was never offered), and their schedules and targets
//! should be the same.
use crate::Refused;
use plumb_model::finding::{AgentWindow, DifferentSchedules, DisjointWindows};
use plumb_model::{AgentShare, Diagnostic, MeasuredWindow, Severity};

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

/// Agents' shares of one schedule (`--agents N`), one per input (`None`: an input that
/// is no share): the same N and each index once, else a refusal's words; indices absent
/// from the inputs, a finding.
pub fn agent_shares(
    shares: &[Option<AgentShare>],
    names: &[String],
) -> Result<Option<Diagnostic>, Refused> {
    let Some(first) = shares.iter().flatten().next() else {
        return Ok(None);
    };
    if let Some(i) = shares.iter().position(Option::is_none) {
        return Err(Refused::NotAShare {
            input: label(names, i),
        });
    }
    let shares: Vec<AgentShare> = shares.iter().flatten().copied().collect();
    if let Some(i) = shares.iter().position(|s| s.count != first.count) {
        return Err(Refused::ShareCounts {
            input: label(names, i),
            count: shares[i].count,
            first_input: label(names, 0),
            first_count: first.count,
        });
    }
    for (i, s) in shares.iter().enumerate() {
        if let Some(j) = shares[..i].iter().position(|t| t.index == s.index) {
            return Err(Refused::SameShare {
                first: label(names, j),
                second: label(names, i),
                index: s.index,
                count: s.count,
            });
        }
    }
    let missing: Vec<u32> = (0..first.count)
        .filter(|k| !shares.iter().any(|s| s.index == *k))
        .collect();
    Ok((!missing.is_empty()).then(|| {
        Diagnostic::new(
            Severity::Warning,
            DifferentSchedules::AgentsMissing {
                agents: first.count,
                missing,
            },
        )
    }))
}

/// An input's name in findings: its file, or its place.
pub fn label(names: &[String], i: usize) -> String {
    names
        .get(i)
        .cloned()
        .unwrap_or_else(|| format!("input {}", i + 1))
}

/// Each agent whose own share fell behind its schedule, named: in the merged lateness a
/// late agent is diluted by the punctual ones (one of eight agents late on every request
/// is 12.5 % of the merged requests, which a p99 bound still catches, but one of 200
/// is not), and the user needs to know which machine to look at.
pub fn agents_behind(
    parts: &[(String, &plumb_model::LoadInfo)],
    gates: super::LoadGates,
) -> Vec<Diagnostic> {
    parts
        .iter()
        .filter_map(|(name, l)| {
            let mut d = super::behind::check(l, gates)?;
            if let plumb_model::Finding::GeneratorBehind(f) = &mut d.finding {
                f.agent = Some(name.clone());
            }
            Some(d)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::quantity::{Duration, Timestamp};
    use plumb_model::Finding;

    #[test]
    fn agent_shares_must_be_one_schedules_and_missing_ones_are_said() {
        let names: Vec<String> = ["a.json", "b.json", "c.json"].map(String::from).to_vec();
        let share = |count, index| Some(AgentShare { count, index });
        assert_eq!(agent_shares(&[None, None], &names), Ok(None));
        assert_eq!(
            agent_shares(&[share(3, 0), share(3, 2), share(3, 1)], &names),
            Ok(None)
        );
        let d = agent_shares(&[share(4, 0), share(4, 3)], &names)
            .unwrap()
            .unwrap();
        assert_eq!(
            d.finding,
            Finding::DifferentSchedules(DifferentSchedules::AgentsMissing {
                agents: 4,
                missing: vec![1, 2]
            })
        );
        let refused =
            |shares: &[Option<AgentShare>]| agent_shares(shares, &names).unwrap_err().to_string();
        assert!(refused(&[share(2, 0), None]).contains("b.json is not a share"));
        assert!(refused(&[share(2, 0), share(3, 1)])
            .contains("b.json is a share of 3 agents, a.json of 2"));
        assert!(refused(&[share(3, 1), share(3, 0), share(3, 1)])
            .contains("a.json and c.json are both agent 1 of 3"));
    }

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

    #[test]
    fn an_agent_behind_is_named_and_a_punctual_one_is_not() {
        use super::super::tests::info;
        let late = info(100, &[], 9_000);
        let punctual = info(100, &[], 100);
        let parts = vec![
            ("agent-0".to_string(), &punctual),
            ("agent-1".to_string(), &late),
        ];
        let found = agents_behind(&parts, super::super::LoadGates::default());
        assert_eq!(found.len(), 1);
        match &found[0].finding {
            plumb_model::Finding::GeneratorBehind(f) => {
                assert_eq!(f.agent.as_deref(), Some("agent-1"));
                // 9 ms as a histogram of 3 significant digits holds it (9.007 ms).
                assert_eq!(f.lateness_p99.as_nanos(), 9_007_000, "{f:?}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(found[0].severity, Severity::Error);
    }
}
