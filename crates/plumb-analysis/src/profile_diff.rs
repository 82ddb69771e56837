//! Two profiles compared: how each function's share of the samples moved, and whether
//! sampling alone could have moved it that far.

use plumb_model::{Profile, ShareChange};
use plumb_stats::share_difference_ci;
use std::collections::BTreeMap;

/// Every function with self samples in either profile, largest move first. Each
/// difference's interval is at `confidence` shared over all the functions compared
/// (Bonferroni), so "moved" holds for the table as a whole, not for each row alone. The
/// samples are treated as independent draws, which periodic behaviour can make
/// optimistic; a share within its interval is "within sampling noise".
pub fn share_changes(before: &Profile, after: &Profile, confidence: f64) -> Vec<ShareChange> {
    let mut samples: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for f in &before.functions {
        samples.entry(&f.name).or_default().0 += f.self_samples;
    }
    for f in &after.functions {
        samples.entry(&f.name).or_default().1 += f.self_samples;
    }
    samples.retain(|_, (b, a)| *b + *a > 0);
    let family = samples.len().max(1) as f64;
    let each = 1.0 - (1.0 - confidence) / family;
    let mut rows: Vec<ShareChange> = samples
        .into_iter()
        .map(|(name, (b, a))| {
            let interval = share_difference_ci(b, before.samples, a, after.samples, each);
            ShareChange {
                name: name.to_string(),
                before_samples: b,
                after_samples: a,
                before_share: before.share(b),
                after_share: after.share(a),
                moved: interval.is_some_and(|i| i.lo > 0.0 || i.hi < 0.0),
                interval,
            }
        })
        .collect();
    rows.sort_by(|x, y| {
        y.change()
            .abs()
            .total_cmp(&x.change().abs())
            .then_with(|| x.name.cmp(&y.name))
    });
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::ProfiledFunction;

    fn profile(rows: &[(&str, u64)]) -> Profile {
        Profile {
            name: "p".into(),
            samples: rows.iter().map(|r| r.1).sum(),
            outside_samples: 0,
            lost: 0,
            stacks: Vec::new(),
            functions: rows
                .iter()
                .map(|(n, s)| ProfiledFunction {
                    name: n.to_string(),
                    module: "m".into(),
                    self_samples: *s,
                    total_samples: *s,
                })
                .collect(),
            unsymbolised: Vec::new(),
            exit: None,
            annotations: Vec::new(),
            allocations: None,
        }
    }

    /// heavy: 700/1000 → 350/650 = 53.8 %: a fall of 16.2 points, far beyond noise
    /// (three functions: each interval at 1 − 0.05/3). light: 100/1000 → 100/650 is a
    /// rise of 5.4 points, also beyond it (se ≈ 1.6 points); a function at 30 of 1000 and
    /// 20 of 650 (3.0 % → 3.1 %) is within it.
    #[test]
    fn the_function_made_faster_falls_and_noise_is_named() {
        let before = profile(&[
            ("heavy", 700),
            ("medium", 170),
            ("light", 100),
            ("tiny", 30),
        ]);
        let after = profile(&[
            ("heavy", 350),
            ("medium", 180),
            ("light", 100),
            ("tiny", 20),
        ]);
        let rows = share_changes(&before, &after, 0.95);
        assert_eq!(rows[0].name, "heavy");
        assert!((rows[0].change() - (350.0 / 650.0 - 0.7)).abs() < 1e-12);
        assert!(rows[0].moved);
        let light = rows.iter().find(|r| r.name == "light").unwrap();
        assert!(light.moved && light.change() > 0.0);
        let tiny = rows.iter().find(|r| r.name == "tiny").unwrap();
        assert!(!tiny.moved, "{tiny:?}");
        assert_eq!((tiny.before_samples, tiny.after_samples), (30, 20));
    }
}
