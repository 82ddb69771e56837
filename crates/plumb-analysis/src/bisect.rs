//! Bisection of a confirmed change over the commits between its two ends: at each step
//! the commit halfway between the last known old-level commit and the first known
//! new-level one is compared with the old end. A commit that does not build is skipped for
//! its nearest buildable neighbour (deterministically, lower first: unlike `git bisect
//! skip`'s pseudo-random pick, a re-run asks the same questions); a comparison that cannot
//! tell asks the new end too, and when neither can, the range is left unresolved and said.
//! Written here because the decision is the product: the comparisons it asks for are
//! plumb revs runs, costly, and their number is what `bench/revs.sh` measures.

/// What one comparison of two commits said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The later commit has the new level (beyond the SESOI, the change's way).
    Changed,
    /// The same level (equivalent, or a change the other way).
    Same,
    /// Not settled at the cap.
    Unknown,
    /// The commit asked about does not build.
    Unbuildable,
}

/// Where a bisection ended. Positions: 0 is the old end (the last commit measured at the
/// old level), `n` the new end; 1..n the commits between, oldest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bisection {
    /// The first commit with the new level, when pinned to one.
    pub culprit: Option<usize>,
    /// The last position known old and the first known new: the culprit is in
    /// (old, new]; equal to (culprit − 1, culprit) when found.
    pub old: usize,
    pub new: usize,
    /// Positions that did not build.
    pub skipped: Vec<usize>,
    /// Comparisons asked for.
    pub comparisons: usize,
}

/// The position to ask about between `old` and `new`: the midpoint, or when it is skipped
/// its nearest neighbour not skipped (lower first); none when every one is skipped.
fn probe(old: usize, new: usize, skipped: &[usize]) -> Option<usize> {
    let mid = old + (new - old) / 2;
    (0..new - old)
        .flat_map(|d| [mid.checked_sub(d), mid.checked_add(d)])
        .flatten()
        .find(|&p| p > old && p < new && !skipped.contains(&p))
}

/// Bisects positions 0..=n, where 0 is known old and n known new. `compare(a, b)` asks
/// whether b has the new level against a (a is always a position known or taken as old;
/// for an unknown, `compare(p, n)` asks whether p already has it).
pub fn bisect(n: usize, mut compare: impl FnMut(usize, usize) -> Step) -> Bisection {
    let (mut old, mut new) = (0, n);
    let mut skipped = Vec::new();
    let mut comparisons = 0;
    while new - old > 1 {
        let Some(p) = probe(old, new, &skipped) else {
            break;
        };
        comparisons += 1;
        match compare(old, p) {
            Step::Changed => new = p,
            Step::Same => old = p,
            Step::Unbuildable => skipped.push(p),
            Step::Unknown => {
                comparisons += 1;
                match compare(p, new) {
                    // p against the new end: the same level means p already has it.
                    Step::Same => new = p,
                    Step::Changed => old = p,
                    Step::Unknown | Step::Unbuildable => break,
                }
            }
        }
    }
    skipped.sort_unstable();
    Bisection {
        culprit: (new - old == 1).then_some(new),
        old,
        new,
        skipped,
        comparisons,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A history of n commits after the old end whose level changes at `at`; `broken`
    /// commits do not build; comparisons listed.
    fn run(n: usize, at: usize, broken: &[usize]) -> (Bisection, Vec<(usize, usize)>) {
        let mut asked = Vec::new();
        let b = bisect(n, |a, b| {
            asked.push((a, b));
            if broken.contains(&b) {
                return Step::Unbuildable;
            }
            if (a < at) == (b < at) {
                Step::Same
            } else {
                Step::Changed
            }
        });
        (b, asked)
    }

    #[test]
    fn finds_the_first_new_commit_in_log2_comparisons() {
        for at in 1..=20 {
            let (b, asked) = run(20, at, &[]);
            assert_eq!(b.culprit, Some(at), "{asked:?}");
            assert!(b.comparisons <= 5, "⌈log2 20⌉ = 5: {asked:?}");
            assert!(
                asked.iter().all(|&(a, _)| a < at),
                "always against an old commit"
            );
        }
    }

    /// Hand-traced: 5 commits between, the change at 4, commit 2 broken (it is the first
    /// midpoint): 1 is asked instead (old), then 3 (old), and 4 is the culprit.
    #[test]
    fn steps_around_a_commit_that_does_not_build() {
        let (b, asked) = run(5, 4, &[2]);
        assert_eq!(asked, [(0, 2), (0, 1), (1, 3), (3, 4)]);
        assert_eq!(b.culprit, Some(4));
        assert_eq!(b.skipped, [2]);
    }

    /// When the only commits left are broken, the range is said, not guessed.
    #[test]
    fn a_range_of_broken_commits_is_left_unresolved() {
        let (b, _) = run(4, 3, &[1, 2]);
        assert_eq!((b.culprit, b.old, b.new), (None, 0, 3));
        assert_eq!(b.skipped, [1, 2]);
    }

    /// An unknown midpoint asks the new end; two unknowns stop with the range.
    #[test]
    fn an_unknown_asks_the_other_end_then_stops() {
        let mut asked = Vec::new();
        let b = bisect(8, |a, p| {
            asked.push((a, p));
            match (a, p) {
                (0, 4) => Step::Unknown,
                (4, 8) => Step::Same,
                (0, 2) => Step::Same,
                (2, 3) => Step::Unknown,
                (3, 4) => Step::Unknown,
                _ => Step::Changed,
            }
        });
        assert_eq!(asked, [(0, 4), (4, 8), (0, 2), (2, 3), (3, 4)]);
        assert_eq!((b.culprit, b.old, b.new), (None, 2, 4));
    }
}
