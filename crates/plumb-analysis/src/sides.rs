//! The two sides of a comparison as its reasons name them, and a failed side said.
use plumb_model::Benchmark;

/// The two sides of a comparison, named as a reason names them.
pub(crate) fn sides<'b>(
    base: &'b Benchmark,
    cand: &'b Benchmark,
) -> impl Iterator<Item = (&'static str, &'b Benchmark)> {
    [("the baseline", base), ("the candidate", cand)].into_iter()
}

/// "the baseline failed: why", when that side failed.
pub(crate) fn failed_side(side: &str, b: &Benchmark) -> Option<String> {
    let why = b.function()?.failure.as_deref()?;
    Some(format!("{side} failed: {why}"))
}
