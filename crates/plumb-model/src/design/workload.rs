//! A workload file as read: the design every benchmark shares, and each named
//! benchmark's own traits over it (parsed by `file.rs`, with the `read` feature).
use super::Design;
use std::collections::BTreeMap;

/// A parsed workload file: the design every benchmark shares, and each named benchmark's
/// own traits over it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WorkloadFile {
    pub design: Design,
    pub benchmarks: BTreeMap<String, Design>,
}

impl WorkloadFile {
    /// The design of benchmark `name`: the shared traits with its own put over them.
    pub fn for_benchmark(&self, name: &str) -> Design {
        match self.benchmarks.get(name) {
            Some(own) => self.design.overlaid(own),
            None => self.design.clone(),
        }
    }

    /// Each benchmark's design recorded on it (none when the file declares nothing for
    /// it); its findings are the analysis' (`attach_design_findings`).
    pub fn record_on(&self, benchmarks: &mut [crate::Benchmark]) {
        for b in benchmarks {
            let d = self.for_benchmark(&b.name);
            b.design = (!d.is_empty()).then(|| Box::new(d));
        }
    }

    /// Benchmarks the file declares traits for that are not among `names`.
    pub fn unmatched<'a>(&'a self, names: &[&str]) -> Vec<&'a str> {
        (self.benchmarks.keys())
            .filter(|b| !names.contains(&b.as_str()))
            .map(String::as_str)
            .collect()
    }
}
