//! One comparison of two commits as a bisection step (built, measured, judged the
//! change's way), and the bisection of a confirmed change in the comparisons its α/J
//! allows.
use crate::{ChangesError, Confirming, Request};
use plumb_analysis::{bisect, Bisection, Step};
use plumb_history::git::short;
use plumb_model::quantity::Fraction;
use plumb_model::{ResultDocument, Verdict};
use plumb_revs::{build_side, NotBuilt};

/// One comparison of two commits as a bisection step, `regression` saying which way is
/// the change's; the result document when it was measured. A commit that does not build
/// is skipped in a bisection (`ends`: false); at the change's two ends it is an error,
/// which names the side and its build's last lines.
pub(crate) fn compare(
    c: &mut Confirming,
    m: &Request,
    (old, new, ends): (&str, &str, bool),
    regression: bool,
) -> Result<(Step, Option<ResultDocument>), ChangesError> {
    let mut sides = Vec::new();
    for sha in [old, new] {
        let rev = c.repo.resolve(sha)?;
        match build_side(&c.repo, &rev, m.measure.build.as_deref(), c.stop, c.say)? {
            Ok(side) => {
                c.builds += usize::from(matches!(side.built, plumb_revs::Built::Done { .. }));
                sides.push(side);
            }
            Err(NotBuilt::Failed(why)) if ends => {
                let label = format!("{} → {}", short(old), short(new));
                return Err(ChangesError::EndNotBuilt { label, why });
            }
            Err(NotBuilt::Failed(message)) => {
                (c.say)(format!("skipped: {message}"));
                return Ok((Step::Unbuildable, None));
            }
            Err(NotBuilt::Interrupted) => return Ok((Step::Unknown, None)),
        }
    }
    let Ok(sides) = <[_; 2]>::try_from(sides) else {
        unreachable!("a side for each of two commits")
    };
    let environment = plumb_env::collect();
    let measured = crate::measure(&sides, m, environment, (c.stop, &mut ()), c.say)?;
    let Some(doc) = measured else {
        return Ok((Step::Unknown, None));
    };
    let Some(r) = &doc.revisions else {
        return Ok((Step::Unknown, Some(doc)));
    };
    let (verdict, _) = r.rounds.verdict();
    let step = match (verdict, regression) {
        (Verdict::Slower, true) | (Verdict::Faster, false) => Step::Changed,
        (Verdict::Inconclusive, _) => Step::Unknown,
        _ => Step::Same,
    };
    if let Some(l) = r.rounds.looks.last() {
        (c.say)(format!(
            "{} → {}: {} (B/A {} [{}, {}], {} rounds)",
            short(old),
            short(new),
            if verdict == Verdict::Inconclusive {
                "unknown".to_string()
            } else {
                verdict.to_string()
            },
            plumb_model::format::factor(l.ratio),
            plumb_model::format::factor(l.interval.lo),
            plumb_model::format::factor(l.interval.hi),
            l.rounds
        ));
    }
    Ok((step, Some(doc)))
}

/// Comparisons a confirmation over `n` commits may make: the two ends, and two per
/// halving of a bisection; each gets α/J (Bonferroni) so the whole holds at α.
pub(crate) fn comparisons_allowed(n: usize) -> usize {
    if n <= 1 {
        1
    } else {
        2 * (usize::BITS - (n - 1).leading_zeros()) as usize + 1
    }
}

/// A bisection step asks which of two levels a commit is at, not whether it moved by
/// more than what matters: its SESOI is half the confirmed change (in log terms), so a
/// commit is at the new level when its interval lies beyond the halfway point and at the
/// old when it lies inside it — a question the rounds settle sooner than equivalence
/// within the user's SESOI.
pub(crate) fn halfway(doc: &Option<ResultDocument>) -> Option<Fraction> {
    let r = doc.as_ref()?.revisions.as_ref()?.rounds.looks.last()?.ratio;
    Fraction::new((r.ln().abs() / 2.0).exp() - 1.0)
}

/// Bisects `commits` (the old end first, the new end last) in at most `budget` measured
/// comparisons (the α/J each was given holds only for that many: past it, the range left
/// is said unresolved). A step whose command fails, or that cannot run, is skipped as a
/// commit that does not build is.
pub(crate) fn bisect_range(
    c: &mut Confirming,
    m: &Request,
    commits: &[String],
    (regression, budget): (bool, usize),
) -> Bisection {
    let mut measured = 0;
    bisect(commits.len() - 1, |i, j| {
        if c.stopped() || measured >= budget {
            return Step::Unknown;
        }
        match compare(c, m, (&commits[i], &commits[j], false), regression) {
            Ok((step, doc)) => {
                measured += usize::from(doc.is_some());
                step
            }
            Err(e) => {
                (c.say)(format!("skipped {}: {e}", short(&commits[j])));
                Step::Unbuildable
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// J = 2⌈log2 N⌉ + 1: the ends, and at most two comparisons per halving.
    #[test]
    fn comparisons_allowed_grow_with_the_halvings() {
        assert_eq!(comparisons_allowed(1), 1);
        assert_eq!(comparisons_allowed(2), 3);
        assert_eq!(comparisons_allowed(5), 7);
        assert_eq!(comparisons_allowed(8), 7);
        assert_eq!(comparisons_allowed(20), 11);
    }
}
