//! Registration of benchmarks and groups, and selection by filter.

use crate::error::BenchError;
use crate::Bencher;
use std::collections::BTreeMap;
use std::fmt::Display;
use std::rc::Rc;

pub(crate) type Routine<'a> = Box<dyn FnMut(&mut Bencher) + 'a>;
type Matcher = Box<dyn Fn(&str) -> bool>;

pub(crate) struct Entry<'a> {
    /// `group/name` or `group/name/param=value`; unique.
    pub full_name: String,
    /// The comparison set: the group, or `group/param=value` for parameterised entries.
    pub compare_set: Option<String>,
    pub baseline: bool,
    pub parameters: BTreeMap<String, String>,
    pub routine: Routine<'a>,
}

/// What a group declares about its variants, for the analysis's harness checks.
pub(crate) type GroupOptions = plumb_analysis::GroupChecks;

/// Benchmarks that share a baseline. Made by [`crate::Harness::group`].
pub struct Group<'h, 'a> {
    pub(crate) entries: &'h mut Vec<Entry<'a>>,
    pub(crate) options: &'h mut BTreeMap<String, GroupOptions>,
    pub(crate) name: String,
}

impl<'h, 'a> Group<'h, 'a> {
    /// Declares that every variant computes the same value; each must use
    /// `Bencher::iter_checked`, and a variant returning something else is an error.
    pub fn same_result(self) -> Self {
        self.options
            .entry(self.name.clone())
            .or_default()
            .same_result = true;
        self
    }

    /// Declares that the variants run identical code (an A/A test of the machine's noise).
    pub fn identical(self) -> Self {
        self.options.entry(self.name.clone()).or_default().identical = true;
        self
    }

    /// The variant the others are compared with.
    pub fn baseline(self, name: &str, f: impl FnMut(&mut Bencher) + 'a) -> Self {
        self.push(name, true, BTreeMap::new(), None, Box::new(f))
    }

    pub fn bench(self, name: &str, f: impl FnMut(&mut Bencher) + 'a) -> Self {
        self.push(name, false, BTreeMap::new(), None, Box::new(f))
    }

    /// One benchmark per value of a parameter, named `group/name/param=value`. Variants
    /// with the same parameter value are compared with each other.
    pub fn bench_params<P: Display + 'a>(
        self,
        name: &str,
        param: &str,
        values: impl IntoIterator<Item = P>,
        baseline: bool,
        f: impl Fn(&mut Bencher, &P) + 'a,
    ) -> Self {
        let f = Rc::new(f);
        let mut g = self;
        for v in values {
            let label = v.to_string();
            let f = Rc::clone(&f);
            let set = format!("{}/{param}={label}", g.name);
            let params = BTreeMap::from([(param.to_string(), label)]);
            g = g.push(
                name,
                baseline,
                params,
                Some(set),
                Box::new(move |b| f(b, &v)),
            );
        }
        g
    }

    fn push(
        self,
        name: &str,
        baseline: bool,
        parameters: BTreeMap<String, String>,
        set: Option<String>,
        routine: Routine<'a>,
    ) -> Self {
        let suffix: String = parameters
            .iter()
            .map(|(k, v)| format!("/{k}={v}"))
            .collect();
        self.entries.push(Entry {
            full_name: format!("{}/{name}{suffix}", self.name),
            compare_set: Some(set.unwrap_or_else(|| self.name.clone())),
            baseline,
            parameters,
            routine,
        });
        self.options.entry(self.name.clone()).or_default();
        self
    }
}

/// Indices of the entries the filters select: exact names by default, regular
/// expressions on request. No filter selects everything.
pub(crate) fn select(
    names: &[&str],
    filters: &[String],
    regex: bool,
) -> Result<Vec<usize>, BenchError> {
    if filters.is_empty() {
        return Ok((0..names.len()).collect());
    }
    let matchers: Vec<Matcher> = if regex {
        regex_matchers(filters)?
    } else {
        filters
            .iter()
            .map(|f| {
                let f = f.clone();
                Box::new(move |n: &str| n == f) as Matcher
            })
            .collect()
    };
    let chosen: Vec<usize> = (0..names.len())
        .filter(|&i| matchers.iter().any(|m| m(names[i])))
        .collect();
    if chosen.is_empty() {
        return Err(BenchError::NoMatch {
            filters: filters.to_vec(),
            names: names.iter().map(|n| n.to_string()).collect(),
        });
    }
    Ok(chosen)
}

/// The filters as regular expressions.
#[cfg(feature = "regex")]
fn regex_matchers(filters: &[String]) -> Result<Vec<Matcher>, BenchError> {
    filters
        .iter()
        .map(|f| {
            regex_lite::Regex::new(f)
                .map(|r| Box::new(move |n: &str| r.is_match(n)) as Matcher)
                .map_err(|e| BenchError::BadFilter {
                    filter: f.clone(),
                    why: e.to_string(),
                })
        })
        .collect()
}

/// Without the `regex` feature `--regex` is refused as it is parsed (`args::built_with`).
#[cfg(not(feature = "regex"))]
fn regex_matchers(_: &[String]) -> Result<Vec<Matcher>, BenchError> {
    unreachable!("--regex is refused without the regex feature")
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 3] = ["sm/state_machine_16", "sm/state_machine_16384", "other"];

    #[test]
    fn exact_by_default_so_a_prefix_does_not_match_more() {
        let f = vec!["sm/state_machine_16".to_string()];
        assert_eq!(select(&NAMES, &f, false).unwrap(), [0]);
    }

    #[cfg(feature = "regex")]
    #[test]
    fn regex_on_request() {
        let f = vec!["state_machine_16".to_string()];
        assert_eq!(select(&NAMES, &f, true).unwrap(), [0, 1]);
        let f = vec!["^sm/.*_16$".to_string()];
        assert_eq!(select(&NAMES, &f, true).unwrap(), [0]);
    }

    #[test]
    fn unknown_filter_lists_what_exists() {
        let e = select(&NAMES, &["nope".into()], false)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("no benchmark matches \"nope\"") && e.contains("sm/state_machine_16384"),
            "{e}"
        );
        #[cfg(feature = "regex")]
        assert!(matches!(
            select(&NAMES, &["(".into()], true).unwrap_err(),
            BenchError::BadFilter { .. }
        ));
    }
}
