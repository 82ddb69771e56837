//! The same-result check of a `same_result` group: every variant returned its result
//! (`iter_checked`), and each equals the baseline's (or the first variant's).
use plumb_model::finding::{ResultUnchecked, WrongResult};
use plumb_model::{Benchmark, Diagnostic, Severity};

/// Findings by benchmark name.
pub fn check(members: &[&Benchmark]) -> Vec<(String, Diagnostic)> {
    let reference = members
        .iter()
        .find(|b| b.baseline)
        .or(members.first())
        .and_then(|b| Some((b.name.clone(), b.function()?.result.clone()?)));
    let mut out = Vec::new();
    for b in members {
        let Some(info) = b.function().filter(|i| i.failure.is_none()) else {
            continue;
        };
        let finding: plumb_model::Finding = match (&info.result, &reference) {
            (None, _) => ResultUnchecked {}.into(),
            (Some(r), Some((name, expected))) if r != expected => WrongResult {
                result: r.clone(),
                expected: expected.clone(),
                reference: name.clone(),
            }
            .into(),
            _ => continue,
        };
        out.push((b.name.clone(), Diagnostic::new(Severity::Error, finding)));
    }
    out
}
