//! The top-functions table, counted from the same folded stacks the flame graph draws, so
//! the two never disagree.

use plumb_model::{FoldedStack, ProfiledFunction};
use std::collections::{HashMap, HashSet};

/// Self samples (innermost frame) and total samples (anywhere on the stack, once per
/// stack even when recursive) of every function, most self samples first. With
/// `skip_root`, the first frame of each stack (the process name inferno puts there) is
/// not a function.
pub fn table(
    stacks: &[FoldedStack],
    modules: &HashMap<String, String>,
    skip_root: bool,
) -> Vec<ProfiledFunction> {
    let mut counts: HashMap<&str, (u64, u64)> = HashMap::new();
    let mut seen = HashSet::new();
    for s in stacks {
        let frames: Vec<&str> = s.frames().skip(usize::from(skip_root)).collect();
        let Some(leaf) = frames.last() else { continue };
        counts.entry(leaf).or_default().0 += s.samples;
        seen.clear();
        for f in &frames {
            if seen.insert(*f) {
                counts.entry(f).or_default().1 += s.samples;
            }
        }
    }
    let mut rows: Vec<ProfiledFunction> = counts
        .into_iter()
        .map(|(name, (self_samples, total_samples))| ProfiledFunction {
            name: name.to_string(),
            module: module_of(name, modules),
            self_samples,
            total_samples,
        })
        .collect();
    rows.sort_by(|a, b| {
        (b.self_samples, b.total_samples)
            .cmp(&(a.self_samples, a.total_samples))
            .then_with(|| a.name.cmp(&b.name))
    });
    rows
}

fn module_of(name: &str, modules: &HashMap<String, String>) -> String {
    let plain = name.trim_end_matches("_[k]").trim_end_matches("_[i]");
    modules
        .get(name)
        .or_else(|| modules.get(plain))
        .cloned()
        .unwrap_or_else(|| "?".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stack(s: &str, n: u64) -> FoldedStack {
        FoldedStack {
            stack: s.to_string(),
            samples: n,
        }
    }

    /// Worked by hand: main is on all 10 stacks (total 10, self 1); f calls itself (f;f
    /// counts once in total); g is a leaf under f and under main.
    #[test]
    fn self_and_total_as_perf_report_counts_them() {
        let stacks = [
            stack("p;main;f;f", 4),
            stack("p;main;f;g", 3),
            stack("p;main;g", 2),
            stack("p;main", 1),
        ];
        let modules = HashMap::from([("f".to_string(), "/bin/p".to_string())]);
        let rows = table(&stacks, &modules, true);
        let get = |n: &str| rows.iter().find(|r| r.name == n).unwrap();
        assert_eq!((get("f").self_samples, get("f").total_samples), (4, 7));
        assert_eq!((get("g").self_samples, get("g").total_samples), (5, 5));
        assert_eq!(
            (get("main").self_samples, get("main").total_samples),
            (1, 10)
        );
        assert_eq!(get("f").module, "/bin/p");
        assert_eq!(get("g").module, "?");
        assert_eq!(
            rows.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(),
            ["g", "f", "main"]
        );
        assert!(rows.iter().all(|r| r.name != "p"));
    }
}
