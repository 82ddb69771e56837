//! Raw samples, kept in run order, one column per metric. Columns rather than one record
//! per sample: a producer appends numbers to vectors (no allocation per sample once they
//! are reserved), a consumer takes one metric's values as a slice.

use crate::{Invalid, Metric};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How a command run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Exit {
    /// Exited with this status.
    Code(i32),
    /// Killed by this signal.
    Signal { signal: i32 },
}

impl Exit {
    /// A run another tool says was killed by a signal without recording which (hyperfine
    /// writes its exit code as null): failed, the signal unknown.
    pub const SIGNAL_NOT_RECORDED: Exit = Exit::Signal { signal: 0 };

    pub fn success(self) -> bool {
        self == Exit::Code(0)
    }
}

/// Samples of one benchmark. Invariants, checked when read: every column has `len()`
/// values; `iterations` is empty (every sample one operation) or has `len()` values, none
/// zero; `exits` is empty or has `len()` values.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "SamplesRepr", into = "SamplesRepr")]
pub struct Samples {
    count: usize,
    iterations: Vec<u64>,
    values: BTreeMap<Metric, Vec<u64>>,
    exits: Vec<Exit>,
}

#[derive(Serialize, Deserialize)]
struct SamplesRepr {
    count: usize,
    /// Operations in each sample; omitted when every sample is one operation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    iterations: Vec<u64>,
    #[serde(default)]
    values: BTreeMap<Metric, Vec<u64>>,
    /// Commands: how each run ended.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    exits: Vec<Exit>,
}

impl From<Samples> for SamplesRepr {
    fn from(s: Samples) -> Self {
        let iterations = if s.iterations.iter().all(|&n| n == 1) {
            Vec::new()
        } else {
            s.iterations
        };
        SamplesRepr {
            count: s.count,
            iterations,
            values: s.values,
            exits: s.exits,
        }
    }
}

impl TryFrom<SamplesRepr> for Samples {
    type Error = Invalid;
    fn try_from(r: SamplesRepr) -> Result<Self, Invalid> {
        Samples::from_columns(r.count, r.iterations, r.values, r.exits)
    }
}

impl Samples {
    /// Samples from whole columns; see the type's invariants.
    pub fn from_columns(
        count: usize,
        iterations: Vec<u64>,
        values: BTreeMap<Metric, Vec<u64>>,
        exits: Vec<Exit>,
    ) -> Result<Samples, Invalid> {
        let check = |what: &str, n: usize| {
            if n == count {
                Ok(())
            } else {
                Err(Invalid::ColumnLength {
                    column: what.to_string(),
                    values: n,
                    count,
                })
            }
        };
        if !iterations.is_empty() {
            check("\"iterations\"", iterations.len())?;
            if iterations.contains(&0) {
                return Err(Invalid::ZeroIterations);
            }
        }
        for (m, v) in &values {
            check(&format!("metric \"{m}\""), v.len())?;
        }
        if !exits.is_empty() {
            check("\"exits\"", exits.len())?;
        }
        if count > 0 && values.is_empty() {
            return Err(Invalid::NoValues { count });
        }
        Ok(Samples {
            count,
            iterations: if iterations.is_empty() {
                vec![1; count]
            } else {
                iterations
            },
            values,
            exits,
        })
    }

    /// Appends one sample of `iterations` operations with a value for each metric. The
    /// first sample sets the metrics; every later one must give the same set.
    pub fn push(&mut self, iterations: u64, values: &[(Metric, u64)]) {
        assert!(iterations > 0, "a sample covers at least one operation");
        assert!(
            self.exits.is_empty(),
            "samples that record exits take push_run"
        );
        self.push_values(iterations, values);
    }

    fn push_values(&mut self, iterations: u64, values: &[(Metric, u64)]) {
        for (i, (m, _)) in values.iter().enumerate() {
            assert!(
                !values[..i].iter().any(|(n, _)| n == m),
                "metric {m} given twice in one sample"
            );
        }
        if self.count == 0 && self.values.is_empty() {
            for (m, _) in values {
                self.values.insert(m.clone(), Vec::new());
            }
        }
        assert_eq!(
            values.len(),
            self.values.len(),
            "every sample gives the same metrics"
        );
        for (m, v) in values {
            self.values
                .get_mut(m)
                .unwrap_or_else(|| panic!("metric {m} was not in the first sample"))
                .push(*v);
        }
        self.iterations.push(iterations);
        self.count += 1;
    }

    /// Appends a run of `iterations` operations that also records how it ended.
    pub fn push_run(&mut self, iterations: u64, values: &[(Metric, u64)], exit: Exit) {
        assert!(iterations > 0, "a run covers at least one operation");
        assert_eq!(self.exits.len(), self.count, "every run records its exit");
        self.push_values(iterations, values);
        self.exits.push(exit);
    }

    /// Appends `other`'s samples (another launch of the same benchmark): the same metrics,
    /// and exits on both sides or on neither.
    pub fn append(&mut self, other: &Samples) -> Result<(), Invalid> {
        if self.count == 0 && self.values.is_empty() {
            *self = other.clone();
            return Ok(());
        }
        if !self.values.keys().eq(other.values.keys()) {
            return Err(Invalid::JoinMetrics);
        }
        if self.exits.is_empty() != other.exits.is_empty() && other.count > 0 {
            return Err(Invalid::JoinExits);
        }
        for (m, v) in &mut self.values {
            v.extend_from_slice(&other.values[m]);
        }
        self.iterations.extend_from_slice(&other.iterations);
        self.exits.extend_from_slice(&other.exits);
        self.count += other.count;
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Operations per sample, in order.
    pub fn iterations(&self) -> &[u64] {
        &self.iterations
    }

    /// One metric's raw values, in order, or `None` when it was not measured.
    pub fn values(&self, metric: &Metric) -> Option<&[u64]> {
        self.values.get(metric).map(Vec::as_slice)
    }

    /// The metrics these samples carry.
    pub fn metrics(&self) -> impl Iterator<Item = &Metric> {
        self.values.keys()
    }

    pub fn exits(&self) -> &[Exit] {
        &self.exits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_serialise_compactly_and_read_back() {
        let mut s = Samples::default();
        s.push_run(
            1,
            &[(Metric::WallTime, 100), (Metric::UserTime, 40)],
            Exit::Code(0),
        );
        s.push_run(
            1,
            &[(Metric::WallTime, 110), (Metric::UserTime, 41)],
            Exit::Signal { signal: 9 },
        );
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(
            json,
            r#"{"count":2,"values":{"wall-time":[100,110],"user-time":[40,41]},"exits":[0,{"signal":9}]}"#
        );
        assert_eq!(serde_json::from_str::<Samples>(&json).unwrap(), s);
        assert_eq!(s.iterations(), [1, 1]);
    }

    #[test]
    fn iterations_are_kept_when_not_all_one() {
        let mut s = Samples::default();
        s.push(1000, &[(Metric::WallTime, 5000)]);
        s.push(2000, &[(Metric::WallTime, 9000)]);
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.contains(r#""iterations":[1000,2000]"#), "{json}");
        assert_eq!(serde_json::from_str::<Samples>(&json).unwrap(), s);
    }

    #[test]
    fn appending_joins_columns_and_refuses_other_metrics() {
        let mut a = Samples::default();
        a.push(10, &[(Metric::WallTime, 1)]);
        let mut b = Samples::default();
        b.push(20, &[(Metric::WallTime, 2)]);
        a.append(&b).unwrap();
        assert_eq!(a.values(&Metric::WallTime).unwrap(), [1, 2]);
        assert_eq!(a.iterations(), [10, 20]);
        let mut c = Samples::default();
        c.push(1, &[(Metric::Allocations, 3)]);
        assert!(a.append(&c).is_err());
    }

    #[test]
    #[should_panic(expected = "given twice")]
    fn a_metric_given_twice_is_a_bug() {
        Samples::default().push(1, &[(Metric::WallTime, 1), (Metric::WallTime, 2)]);
    }

    #[test]
    #[should_panic(expected = "every run records its exit")]
    fn runs_and_samples_without_exits_do_not_mix() {
        let mut s = Samples::default();
        s.push(1, &[(Metric::WallTime, 1)]);
        s.push_run(1, &[(Metric::WallTime, 1)], Exit::Code(0));
    }

    #[test]
    fn ragged_columns_are_refused_with_the_column_named() {
        let e = serde_json::from_str::<Samples>(r#"{"count":2,"values":{"wall-time":[1]}}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("metric \"wall-time\" has 1 values for 2 samples"),
            "{e}"
        );
        assert!(serde_json::from_str::<Samples>(r#"{"count":1,"iterations":[0]}"#).is_err());
        let e = serde_json::from_str::<Samples>(r#"{"count":5}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("5 samples with no metric's values"), "{e}");
    }
}
