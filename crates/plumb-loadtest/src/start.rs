//! `--start-at`: a start more than a second away is said, with its time and how long
//! until it (a terminal also gets a countdown on the live line); one further ahead than
//! `FURTHEST_START` is refused. A start in the past is the generator's refusal
//! (`StartInPast`).
use crate::LoadTestError;
use plumb_model::format;
use plumb_model::quantity::Timestamp;

/// Agents are started together minutes ahead, not days: a start in the year 5138 is a
/// typo that would wait for ever.
pub const FURTHEST_START: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

pub fn check_start(
    start_at: Option<Timestamp>,
    say: &mut dyn FnMut(String),
) -> Result<(), LoadTestError> {
    let Some(at) = start_at else {
        return Ok(());
    };
    let wait = at.since(Timestamp::now());
    if wait.to_std() > FURTHEST_START {
        return Err(LoadTestError::StartTooFar { at, wait });
    }
    if wait.to_std() > std::time::Duration::from_secs(1) {
        say(format!(
            "the test starts at {at} (--start-at), in {}; Ctrl-C stops the wait",
            format::time(wait)
        ));
    }
    Ok(())
}
