use crate::compare;
use plumb_model::{Comparison, ResultDocument, Verdict};

/// Two documents compared benchmark by benchmark, paired by name.
#[derive(Debug, Clone)]
pub struct DocumentComparison {
    pub comparisons: Vec<Comparison>,
    pub only_in_base: Vec<String>,
    pub only_in_new: Vec<String>,
}

impl DocumentComparison {
    pub fn any_slower(&self) -> bool {
        self.comparisons
            .iter()
            .any(|c| c.verdict == Verdict::Slower)
    }
}

pub fn compare_documents(
    base: &ResultDocument,
    new: &ResultDocument,
    level: f64,
    sesoi: f64,
) -> DocumentComparison {
    let mut comparisons = Vec::new();
    let mut only_in_base = Vec::new();
    for b in &base.benchmarks {
        match new.benchmark(&b.name) {
            Some(n) => comparisons.push(compare(b, n, level, sesoi)),
            None => only_in_base.push(b.name.clone()),
        }
    }
    let only_in_new = new
        .benchmarks
        .iter()
        .filter(|n| base.benchmark(&n.name).is_none())
        .map(|n| n.name.clone())
        .collect();
    DocumentComparison {
        comparisons,
        only_in_base,
        only_in_new,
    }
}
