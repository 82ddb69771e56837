//! The verdict of `plumb revs` as the rounds come in: both sides' runs cut into rounds,
//! each round's statistic, and the sequential look (plumb-stats' `sequential`) at each of
//! the design's look points; settled when a look says slower, faster or equivalent,
//! unknown at the cap.
//!
//! A round's statistic is the median, over its pairs, of ln(B_i / A_i), where A_i and B_i
//! are the i-th runs of each side: run in the same round of the runner, one right after
//! the other in random order. Adjacent runs share the machine's state — this host changes
//! a core's speed for 0.1 s to seconds at a time — so their ratio cancels it, and the
//! median leaves out the pair a slow spell split. On 400 interleaved runs of two 19 ms
//! programs here the rounds' spread (rounds of 5 pairs) was 1.8 % against 5.5 % for the
//! log ratio of the rounds' means. It answers "is a run of B slower than its neighbour run
//! of A, typically": a change only in the tail shows in the table's means, not here.
//!
//! Asked another question (`--question`), a round's statistic is that question's: the log
//! ratio of the round's means (mean) or of its minima (best). A high percentile is not
//! offered: a round holds 5–50 runs a side, and its p99 would be its slowest run.
use crate::called::verdict_of;
use plumb_model::{Look, Metric, Question, ResultDocument, SequentialDesignRecord, Verdict};
use plumb_stats::{sequential_look, SequentialDesign, Spending};

/// The rounds a design looks at: the first look, then every `every`, to the cap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LookPlan {
    pub first: usize,
    pub every: usize,
    pub max_rounds: usize,
}

impl Default for LookPlan {
    /// Ten rounds before the first look (fewer leave the t boundary of an early look so
    /// wide that the look is wasted), then every five, to sixty.
    fn default() -> Self {
        LookPlan {
            first: 10,
            every: 5,
            max_rounds: 60,
        }
    }
}

/// Kim–DeMets power spending, ρ = 2: between Pocock's (spends early) and O'Brien–Fleming's
/// (spends almost nothing early, so a +10 % change would need twice the rounds).
pub const SPENDING: Spending = Spending::Power(2.0);

/// The design's state between rounds: what has been looked at so far.
#[derive(Debug, Clone)]
pub struct Settling {
    design: SequentialDesign,
    sesoi: f64,
    runs_per_round: usize,
    question: Question,
    /// Every look taken, in order.
    pub looks: Vec<Look>,
}

impl Settling {
    /// `alpha` is 1 − confidence; `sesoi` a fraction; each round holds `runs_per_round`
    /// runs of each side.
    pub fn new(plan: LookPlan, alpha: f64, sesoi: f64, runs_per_round: usize) -> Self {
        Settling {
            design: SequentialDesign::new(plan.first, plan.every, plan.max_rounds, alpha, SPENDING),
            sesoi,
            runs_per_round: runs_per_round.max(1),
            question: Question::Typical,
            looks: Vec::new(),
        }
    }

    /// The design answering `question` (typical, mean or best; see the module's words).
    pub fn with_question(mut self, question: Question) -> Self {
        self.question = question;
        self
    }

    /// What makes the settling once the producer knows its terms (plumb-model's
    /// `SettleWith`: the α it is judged at, the runs of each side a round holds), for
    /// `plumb revs` and `plumb run --until-settled` alike.
    pub fn maker(
        looks: LookPlan,
        sesoi: f64,
        question: Question,
    ) -> impl Fn(f64, usize) -> Box<dyn plumb_model::Settle> {
        move |alpha, per_round| {
            Box::new(Settling::new(looks, alpha, sesoi, per_round).with_question(question))
        }
    }

    /// After more runs of both sides (`base`, `new`: every measured time so far, in run
    /// order): looks when the whole rounds now complete a look point; true once settled.
    pub fn after(&mut self, base: &[f64], new: &[f64]) -> bool {
        let d = round_statistics(base, new, self.runs_per_round, self.question);
        let already = self.looks.last().map_or(0, |l| l.rounds as usize);
        if d.len() == already {
            return self.settled();
        }
        if let Some(look) = sequential_look(&d, &self.design, self.sesoi) {
            self.looks.push(Look {
                rounds: look.rounds as u64,
                ratio: look.ratio,
                interval: look.interval,
                verdict: verdict_of(look.verdict),
            });
        }
        self.settled()
    }

    /// Whether the last look settled the verdict.
    pub fn settled(&self) -> bool {
        self.looks
            .last()
            .is_some_and(|l| l.verdict != Verdict::Inconclusive)
    }

    /// The cap in rounds.
    pub fn max_rounds(&self) -> usize {
        *self.design.looks.last().expect("a design has a look")
    }

    pub fn runs_per_round(&self) -> usize {
        self.runs_per_round
    }

    /// The design as the result records it.
    pub fn record(&self) -> SequentialDesignRecord {
        let Spending::Power(rho) = SPENDING else {
            unreachable!("plumb revs spends by the power family")
        };
        SequentialDesignRecord {
            runs_per_round: self.runs_per_round as u64,
            looks: self.design.looks.iter().map(|&r| r as u64).collect(),
            z: self.design.z.clone(),
            alpha: self.design.alpha,
            spending: format!("kim-demets rho={rho}"),
            sesoi: self.sesoi,
            max_time: None,
            question: self.question,
            pairing: plumb_model::Pairing::Interleaved,
            pairing_note: None,
        }
    }
}

/// The producers' view of the design (plumb-model's `Settle`): `plumb revs` and history
/// confirmation measure rounds until it settles.
impl plumb_model::Settle for Settling {
    fn after(&mut self, base: &[f64], new: &[f64]) -> bool {
        Settling::after(self, base, new)
    }
    fn settled(&self) -> bool {
        Settling::settled(self)
    }
    fn max_rounds(&self) -> usize {
        Settling::max_rounds(self)
    }
    fn looks(&self) -> &[Look] {
        &self.looks
    }
    fn record(&self) -> SequentialDesignRecord {
        Settling::record(self)
    }
}

/// A `plumb revs` result's verdict is its sequential design's, whenever the document is
/// analysed (again): the comparison of B with A takes the last look's verdict, ratio and
/// repeated interval, and loses the fixed-sample tests' p-values, which looking
/// repeatedly has made wrong.
pub fn judge_sequentially(doc: &mut ResultDocument) {
    let Some(r) = doc.sequential().cloned() else {
        return;
    };
    // Which comparison each list of looks judges: a command's B against A, or each
    // in-process benchmark's group.
    let judged: Vec<(Option<String>, &[Look])> = if r.benchmarks.is_empty() {
        vec![(None, r.looks.as_slice())]
    } else {
        r.benchmarks
            .iter()
            .map(|b| (Some(b.name.clone()), b.looks.as_slice()))
            .collect()
    };
    let verdicts: Vec<_> = judged
        .into_iter()
        .map(|(group, looks)| (group, r.verdict_of(looks), looks.last().cloned()))
        .collect();
    for (group, (verdict, reason), last) in verdicts {
        let new: Vec<String> = doc
            .benchmarks
            .iter()
            .filter(|b| !b.baseline && (group.is_none() || b.group == group))
            .map(|b| b.name.clone())
            .collect();
        for c in doc
            .comparisons
            .iter_mut()
            .filter(|c| new.contains(&c.candidate) && c.metric == Metric::WallTime)
        {
            c.verdict = verdict;
            c.question = r.design.question;
            c.reason = reason.clone();
            c.ratio = last.as_ref().map_or(f64::NAN, |l| l.ratio);
            c.ratio_ci = last.as_ref().map(|l| l.interval);
            c.welch_p = f64::NAN;
            c.mann_whitney_p = f64::NAN;
            c.mann_whitney_min_p = None;
            c.tost_p = f64::NAN;
        }
    }
}

/// Each whole round's statistic for `question`: the median of ln(new_i / base_i) over its
/// `m` pairs (typical), or ln of the ratio of the round's means (mean) or minima (best);
/// a partial last round is left out.
pub fn round_statistics(base: &[f64], new: &[f64], m: usize, question: Question) -> Vec<f64> {
    let of = |q: Question| {
        move |(a, b): (&[f64], &[f64])| {
            (q.of(b).unwrap_or(f64::NAN) / q.of(a).unwrap_or(f64::NAN)).ln()
        }
    };
    match question {
        Question::Mean | Question::Best => (base.chunks_exact(m))
            .zip(new.chunks_exact(m))
            .map(of(question))
            .collect(),
        Question::Typical | Question::Worst(_) => round_log_ratios(base, new, m),
    }
}

/// Each whole round's median of ln(new_i / base_i) over its `m` pairs of runs; a partial
/// last round is left out.
pub fn round_log_ratios(base: &[f64], new: &[f64], m: usize) -> Vec<f64> {
    base.chunks_exact(m)
        .zip(new.chunks_exact(m))
        .map(|(a, b)| {
            let mut logs: Vec<f64> = a.iter().zip(b).map(|(x, y)| (y / x).ln()).collect();
            logs.sort_by(f64::total_cmp);
            plumb_stats::median_of_sorted(&logs)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// By hand: round 1 pairs (1, 2) and (4, 2): logs ln 2 and −ln 2, median 0; round 2
    /// (2, 4), (2, 4), (1, 8): ln 2 twice and ln 8, median ln 2; the partial round is left.
    #[test]
    fn a_round_is_the_median_log_ratio_of_its_pairs() {
        let d = round_log_ratios(
            &[1.0, 4.0, 2.0, 2.0, 1.0, 7.0],
            &[2.0, 2.0, 4.0, 4.0, 8.0],
            2,
        );
        assert_eq!(d.len(), 2);
        assert!((d[0] - 0.0).abs() < 1e-12, "{d:?}");
        assert!((d[1] - 2f64.ln()).abs() < 1e-12, "{d:?}");
        let d3 = round_log_ratios(&[2.0, 2.0, 1.0], &[4.0, 4.0, 8.0], 3);
        assert!(
            (d3[0] - 2f64.ln()).abs() < 1e-12,
            "one slow pair does not move it: {d3:?}"
        );
    }

    /// By hand: rounds of means (1, 4) → 2.5 and (2, 2) → 2, ln(2/2.5); minima 1 and 2,
    /// ln 2.
    #[test]
    fn a_round_of_means_or_minima() {
        let (a, b) = ([1.0, 4.0, 9.0], [2.0, 2.0, 1.0]);
        let mean = round_statistics(&a, &b, 2, Question::Mean);
        assert_eq!(mean.len(), 1);
        assert!((mean[0] - (2.0f64 / 2.5).ln()).abs() < 1e-12, "{mean:?}");
        let best = round_statistics(&a, &b, 2, Question::Best);
        assert!((best[0] - 2f64.ln()).abs() < 1e-12, "{best:?}");
        assert_eq!(
            round_statistics(&a, &b, 2, Question::Typical),
            round_log_ratios(&a, &b, 2)
        );
    }

    /// Hand-built rounds: B exactly 10 % slower with a little alternating noise settles
    /// slower at the first look, once, and says so; nothing is looked at between looks.
    #[test]
    fn a_clear_slowdown_settles_at_the_first_look() {
        let mut s = Settling::new(LookPlan::default(), 0.001, 0.02, 2);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for r in 0..10 {
            let wobble = if r % 2 == 0 { 1.005 } else { 0.995 };
            a.extend([100.0, 100.0]);
            b.extend([110.0 * wobble, 110.0 * wobble]);
            let settled = s.after(&a, &b);
            assert_eq!(settled, r == 9, "round {r}");
            assert_eq!(s.looks.len(), usize::from(r == 9));
        }
        let look = &s.looks[0];
        assert_eq!((look.rounds, look.verdict), (10, Verdict::Slower));
        assert!(
            look.interval.lo > 1.02 && look.interval.hi < 1.2,
            "{look:?}"
        );
        assert_eq!(s.record().looks.len(), 11);
        assert_eq!(s.record().spending, "kim-demets rho=2");
    }

    /// Identical sides with noise are equivalent once the interval fits inside ±2 %, and
    /// a side still moving by 2 % at the cap is unknown there.
    #[test]
    fn equal_sides_are_equivalent_and_the_margin_is_unknown_at_the_cap() {
        let noise = |r: usize| 1.0 + 0.004 * ((r * 7919 % 11) as f64 - 5.0) / 5.0;
        let mut same = Settling::new(LookPlan::default(), 0.001, 0.02, 1);
        let mut margin = Settling::new(LookPlan::default(), 0.001, 0.02, 1);
        let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
        for r in 0..60 {
            a.push(100.0);
            b.push(100.0 * noise(r));
            c.push(102.0 * noise(r));
            if !same.settled() {
                same.after(&a, &b);
            }
            margin.after(&a, &c);
        }
        assert_eq!(same.looks[0].verdict, Verdict::Equivalent);
        assert_eq!(same.looks.len(), 1, "settled at the first look");
        assert_eq!(margin.looks.len(), 11, "looked at every look point");
        assert!(margin
            .looks
            .iter()
            .all(|l| l.verdict == Verdict::Inconclusive));
        assert!(!margin.settled());
    }
}
