//! `plumb run A B --until-settled`: the plan's two commands measured in interleaved rounds
//! until `plumb revs`' sequential verdict settles (plumb-command's `produce_settled`,
//! plumb-analysis' `Settling`: a repeated confidence interval of the paired log ratio,
//! its error rates held over every look), the cap of rounds or the time cap; the rounds
//! are kept on the document, whose comparison the analysis then gives the last look's
//! verdict.
use crate::ChangesError;
use plumb_analysis::{LookPlan, Settling};
use plumb_command::Trial;
use plumb_command::{pair_runs, produce_settled, trial, Progress, RunContext, RunPlan, Spawner};
use plumb_command::{UntilSettled, MIN_RUNS_PER_ROUND};
use plumb_model::{Question, ResultDocument};
use std::sync::atomic::AtomicBool;

/// Measures `plan`'s two commands (its baseline as A) until the verdict settles.
pub fn run_until_settled(
    mut plan: RunPlan,
    mut how: RunContext,
    (until, question): (&UntilSettled, Question),
    (spawner, progress): (&mut dyn Spawner, &mut dyn Progress),
    stop: &AtomicBool,
) -> Result<ResultDocument, ChangesError> {
    if matches!(question, Question::Worst(_)) {
        return Err(ChangesError::RoundsQuestion(question));
    }
    if how.baseline == 1 {
        plan.commands.swap(0, 1);
        how.baseline = 0;
    }
    let sides = [plan.commands[0].clone(), plan.commands[1].clone()];
    // A side that fails, or a stop, is the runner's to report as in a fixed run: the
    // rounds start anyway and end there.
    let (per_round, note) = match trial(&sides, until.runs_per_round, spawner, stop)? {
        Trial::RunsPerRound(n, trial_runs) => {
            (n, pair_runs(&mut plan, until.pairing, &trial_runs, false))
        }
        Trial::Failed(_) | Trial::Stopped => {
            (until.runs_per_round.unwrap_or(MIN_RUNS_PER_ROUND), None)
        }
    };
    let looks = LookPlan {
        max_rounds: until.max_rounds as usize,
        ..LookPlan::default()
    };
    let (sesoi, alpha) = (how.settings.sesoi.get(), how.settings.confidence.alpha());
    let settle_with = Settling::maker(looks, sesoi, question);
    let judging = (&settle_with as plumb_model::SettleWith, alpha, per_round);
    let (mut doc, rounds) = produce_settled(
        plan,
        how,
        judging,
        until.max_time,
        (spawner, progress),
        stop,
    )?;
    let mut rounds = rounds;
    rounds.design.pairing_note = note;
    doc.rounds = Some(rounds);
    Ok(doc)
}
