//! Sweeps: the benchmarks of one series (differing only in the swept parameter) placed
//! by their working sets, against the machine's data caches.

use crate::quantity::ByteSize;
use crate::{Benchmark, Environment};
use std::collections::BTreeMap;

/// The benchmarks of one series that declare a working set, smallest first (indices
/// into the document's benchmarks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sweep {
    pub series: String,
    pub points: Vec<usize>,
}

/// The sweeps among `benchmarks`: each series with two or more working sets, in the
/// order their first benchmark appears.
pub fn sweeps(benchmarks: &[Benchmark]) -> Vec<Sweep> {
    let mut by_series: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let mut order = Vec::new();
    for (i, b) in benchmarks.iter().enumerate() {
        let (Some(series), Some(_)) = (&b.series, b.working_set) else {
            continue;
        };
        let points = by_series.entry(series.as_str()).or_default();
        if points.is_empty() {
            order.push(series.as_str());
        }
        points.push(i);
    }
    order
        .into_iter()
        .filter_map(|series| {
            let mut points = by_series.remove(series)?;
            points.sort_by_key(|&i| benchmarks[i].working_set);
            (points.len() >= 2).then(|| Sweep {
                series: series.to_string(),
                points,
            })
        })
        .collect()
}

/// A data cache a sweep is drawn against: "L1d", "L2", "L3", with its size.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CacheMark {
    pub name: String,
    pub size: ByteSize,
}

/// The machine's data (and unified) caches, smallest first, as the record has them.
pub fn cache_marks(env: &Environment) -> Vec<CacheMark> {
    let mut marks: Vec<CacheMark> = env
        .caches
        .iter()
        .filter(|c| c.kind != "Instruction")
        .map(|c| CacheMark {
            name: match (c.level, c.kind.as_str()) {
                (1, "Data") => "L1d".to_string(),
                (level, _) => format!("L{level}"),
            },
            size: c.size,
        })
        .collect();
    marks.sort_by_key(|m| m.size);
    marks.dedup_by(|a, b| a.name == b.name);
    marks
}

/// How far the machine's data TLBs reach (entries × page size), smallest first: an edge a
/// sweep can cross where no cache lies.
pub fn tlb_reaches(env: &Environment) -> Vec<CacheMark> {
    let mut marks: Vec<CacheMark> = env
        .tlbs
        .iter()
        .map(|t| CacheMark {
            name: format!("L{} dTLB reach", t.level),
            size: t.reach(),
        })
        .collect();
    marks.sort_by_key(|m| m.size);
    marks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantity::ByteSize;
    use crate::{BenchmarkKind, CacheLevel};

    fn point(series: Option<&str>, bytes: Option<u64>) -> Benchmark {
        let mut b = Benchmark::new("x", BenchmarkKind::Command);
        b.series = series.map(String::from);
        b.working_set = bytes.map(ByteSize);
        b
    }

    #[test]
    fn points_of_a_series_sorted_by_working_set() {
        let benchmarks = [
            point(Some("rand {size}"), Some(1 << 20)),
            point(Some("seq {size}"), Some(1 << 10)),
            point(Some("rand {size}"), Some(16 << 10)),
            point(None, Some(64)),
            point(Some("rand {size}"), Some(64 << 20)),
            point(Some("lonely {size}"), Some(1)),
            point(Some("seq {size}"), Some(1 << 20)),
            point(Some("rand {size}"), None),
        ];
        let s = sweeps(&benchmarks);
        assert_eq!(
            s,
            [
                Sweep {
                    series: "rand {size}".into(),
                    points: vec![2, 0, 4]
                },
                Sweep {
                    series: "seq {size}".into(),
                    points: vec![1, 6]
                }
            ]
        );
    }

    #[test]
    fn caches_are_named_as_lscpu_does() {
        let level = CacheLevel::of_size;
        let env = Environment {
            caches: vec![
                level(1, "Data", ByteSize(32 << 10)),
                level(1, "Instruction", ByteSize(32 << 10)),
                level(2, "Unified", ByteSize(1 << 20)),
                level(3, "Unified", ByteSize(32 << 20)),
            ],
            ..Environment::default()
        };
        let marks: Vec<(String, u64)> = cache_marks(&env)
            .into_iter()
            .map(|m| (m.name, m.size.0))
            .collect();
        assert_eq!(
            marks,
            [
                ("L1d".into(), 32 << 10),
                ("L2".into(), 1 << 20),
                ("L3".into(), 32 << 20)
            ]
        );
    }
}
