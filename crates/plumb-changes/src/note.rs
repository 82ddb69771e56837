//! What became of a confirmation, in the sentence kept as the change's note: the status,
//! the re-run's figures and the bisection.
use plumb_analysis::Bisection;
use plumb_history::git::short;
use plumb_history::ChangeStatus;
use plumb_model::format::factor;
use plumb_model::ResultDocument;

/// The status's word in a note (a candidate left so is "unknown").
pub(crate) fn status_word(status: ChangeStatus) -> &'static str {
    match status {
        ChangeStatus::Candidate => "unknown",
        other => other.name(),
    }
}

/// The status, the re-run's figures and the bisection of `commits`, in a sentence.
pub(crate) fn note_of(
    status: ChangeStatus,
    doc: &Option<ResultDocument>,
    bisection: Option<(&Bisection, &[String])>,
    builds: usize,
) -> String {
    let look = doc
        .as_ref()
        .and_then(|d| d.revisions.as_ref())
        .and_then(|r| r.rounds.looks.last().cloned());
    let mut note = match &look {
        Some(l) => format!(
            "{} by plumb revs: B/A {} [{}, {}] after {} rounds",
            status_word(status),
            factor(l.ratio),
            factor(l.interval.lo),
            factor(l.interval.hi),
            l.rounds
        ),
        None => "not settled: the re-run was stopped or could not build".to_string(),
    };
    if let Some((b, commits)) = bisection {
        let at = |i: usize| short(&commits[i]).to_string();
        let skipped: Vec<String> = b.skipped.iter().map(|&i| at(i)).collect();
        match b.culprit {
            Some(i) => note.push_str(&format!("; bisected to {} ", at(i))),
            None => note.push_str(&format!(
                "; bisection left {}..{} unresolved ",
                at(b.old),
                at(b.new)
            )),
        }
        note.push_str(&format!(
            "in {} comparisons, {builds} builds{}",
            b.comparisons,
            if skipped.is_empty() {
                String::new()
            } else {
                format!("; not buildable, stepped around: {}", skipped.join(", "))
            }
        ));
    }
    note
}
